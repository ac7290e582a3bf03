"""Tools the gateway itself offers the model and answers inside a turn (``recall_history`` first).

    OwnedTool          what a tool is: a name, its OpenAI schema, when it is offered, how a call is answered
    HookTool           an extension's tool (``register_tools``) as an owned tool
    HookGuard          a call of the client's tools that ``before_tool_call`` stops (repeated failures)
    OwnedTools         the gateway's set; ``offered(turn)`` says which go into this turn's request
    Rounds             one turn's upstream answer, with the owned calls answered and the turn continued

The client never sees an owned tool. When the model's reply calls only owned tools, the gateway
answers them (in a worker thread: answers may read the store), appends the assistant message and
the results to the conversation, and sends the continued request upstream, up to ``MAX_ROUNDS``
times; the client receives one answer: streamed events are relayed as they come, except that the
events from the first tool call on are held until the round ends (then dropped when they were owned
calls, relayed otherwise), and a round's ``[DONE]`` only goes out with the last round. A reply
that mixes owned calls with the client's own reaches the client with the owned calls taken out
(the model may ask again next turn). The client's own tools and calls are never touched.

The relay sees a :class:`Rounds` as if it were the upstream's response: status, headers, then the
bytes (streamed or whole) of all rounds, so overflow recovery, usage and ``after_turn`` work as for
any answer.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any, Protocol

import pluggy
import structlog

from context_compactor.hookspecs import Tool, ToolCallEvent, ToolCallVerdict
from context_compactor.plugins import tools as registered_tools

from .http1 import Response
from .loop_guards import GarbledRetry, active_guards
from .sse import DONE, EventSplitter, StreamedCalls, encode, event_data
from .turn import ChatTurn

logger = structlog.get_logger("context_compactor")

MAX_ROUNDS = 4  # owned-tool rounds per turn; the model's last answer goes to the client after that
CUT_NOTE = "\n[context-compactor: the rest of this answer was left out to fit the context window]"


class OwnedTool(Protocol):
    """A tool the gateway offers and answers itself (:class:`HookTool`: one an extension registered)."""

    name: str

    def schema(self) -> dict[str, Any]:
        """The OpenAI ``tools`` entry sent upstream."""

    def offered(self, turn: ChatTurn) -> bool:
        """Whether this turn's request carries the tool (called after the turn's hooks ran)."""

    def answer(self, arguments: str, turn: ChatTurn) -> str:
        """The tool result for one call (``arguments``: the model's JSON text); blocking, must not raise."""


class OwnedTools:
    """The tools a gateway owns."""

    def __init__(self, tools: Sequence[OwnedTool] = (), guards: Sequence[Any] = ()) -> None:
        self.tools = {tool.name: tool for tool in tools}
        self.guards = list(guards)  # claim client tools' calls by content (gateway/loop_guards.py)

    def guards_for(self, turn: ChatTurn) -> list[Any]:
        return active_guards(self.guards, turn)

    def offered(self, turn: ChatTurn) -> dict[str, OwnedTool]:
        """The tools to add to this turn's request: offered, and not named like one of the client's."""
        theirs = {_tool_name(t) for t in turn.body.get("tools") or []}
        out: dict[str, OwnedTool] = {}
        for name, tool in self.tools.items():
            try:
                if name not in theirs and tool.offered(turn):
                    out[name] = tool
            except Exception as exc:  # noqa: BLE001 - a tool that cannot say is not offered
                logger.warning("gateway.owned_tool_failed", tool=name, session=turn.key, error=str(exc))
        return out


    def reserved(self, client: list[Any]) -> list[dict[str, Any]]:
        """The schemas of the tools a compacted turn carries whatever it decides (``recall_history``), not
        named like one of the client's (``client``: its ``tools``). Measured with the prompt, so that a
        plan leaves them their room: one planned without them near the window left them out of that
        turn's request and put them back on the next, and the tools come first in a prompt (a server's
        prompt cache kept none of it, twice)."""
        theirs = {_tool_name(t) for t in client}
        return [tool.schema() for name, tool in self.tools.items() if name not in theirs and isinstance(tool, HookTool)]


class HookTool:
    """A tool an extension registered (``register_tools``: ``recall_history`` first), offered and answered
    here as the extension says; the gateway decides nothing about it."""

    def __init__(self, tool: Tool) -> None:
        self.tool, self.name = tool, tool.name

    def schema(self) -> dict[str, Any]:
        return self.tool.schema()

    def offered(self, turn: ChatTurn) -> bool:
        return turn.compacted or self.tool.offered(turn.compactions)

    def answer(self, arguments: str, turn: ChatTurn) -> str:
        event = ToolCallEvent(self.name, arguments, messages=turn.event.messages)
        return self.tool.run(event, turn.ctx())


class HookGuard:
    """Claims a call of any tool that ``before_tool_call`` stops (the repeated-failure rule, hooks/tools.py):
    the model gets the verdict's reason as the call's result, and the client never sees the call."""

    name = "before-tool-call"

    def __init__(self, pm: pluggy.PluginManager) -> None:
        self.pm = pm

    def verdict(self, call: dict[str, Any], turn: ChatTurn) -> ToolCallVerdict | None:
        function = call.get("function") or {}
        event = ToolCallEvent(str(function.get("name") or ""), function.get("arguments") or "",
                              messages=list(turn.body.get("messages") or []), call_id=str(call.get("id") or ""))
        try:
            verdict: ToolCallVerdict | None = self.pm.hook.before_tool_call(event=event, ctx=turn.ctx())
        except Exception as exc:  # noqa: BLE001 - a check that fails lets the call through to the client
            logger.warning("gateway.hook_failed", hook="before_tool_call", session=turn.key,
                           error=f"{type(exc).__name__}: {exc}")
            return None
        return verdict

    def claims(self, call: dict[str, Any], turn: ChatTurn) -> bool:
        return self.verdict(call, turn) is not None

    def answer_call(self, call: dict[str, Any], turn: ChatTurn) -> str:
        verdict = self.verdict(call, turn)
        logger.info("gateway.call_refused", session=turn.key, tool=(call.get("function") or {}).get("name"),
                    rule=verdict.rule if verdict else None)
        return verdict.reason if verdict is not None else "context-compactor refused this call"


def default_tools(pm: pluggy.PluginManager) -> OwnedTools:
    """The registered extensions' tools, the tool-call hooks, and the gateway's retry of garbled calls."""
    return OwnedTools([HookTool(tool) for tool in registered_tools(pm).values()], [HookGuard(pm), GarbledRetry()])


Send = Callable[[bytes], Awaitable[Response]]


class Rounds:
    """The upstream's answer to one turn, owned-tool rounds included, shaped like a Response."""

    def __init__(self, turn: ChatTurn, first: Response, tools: dict[str, OwnedTool], send: Send,
                 run: Callable[..., Awaitable[Any]], guards: Sequence[Any] = ()) -> None:
        """``send(body)`` posts a continued request upstream; ``run(fn, *args)`` runs a blocking call
        in a worker thread."""
        self.turn, self.current, self.tools, self._send, self._run = turn, first, tools, send, run
        self.status_code = first.status_code
        self.headers = first.headers
        self.rounds = 0
        self.messages: list[Any] = []  # what the owned rounds added to the conversation
        self.guards, self._owners = list(guards), {}  # type: ignore[var-annotated]

    def _owner(self, call: Any) -> Any:
        """The owned tool (by name) or guard (by content, decided once per call) that answers ``call``."""
        tool = self.tools.get(_call_name(call))
        if tool is not None or not self.guards or not isinstance(call, dict):
            return tool
        key = (call.get("id"), _call_name(call), str((call.get("function") or {}).get("arguments")))
        if key not in self._owners:
            guard = next((g for g in self.guards if g.claims(call, self.turn)), None)
            self._owners[key] = _Claimed(guard, call) if guard is not None else None
        return self._owners[key]

    def header(self, name: bytes) -> bytes | None:
        return self.current.header(name)

    async def aclose(self) -> None:
        await self.current.aclose()

    # --- whole answers ------------------------------------------------------------------------

    async def read(self) -> bytes:
        """The last round's body: earlier rounds only called owned tools."""
        body = await self.current.read()
        while self.rounds < MAX_ROUNDS and self.current.status_code < 400:
            data = _json(body)
            message = _message(data)
            calls = (message or {}).get("tool_calls") or []
            owned = [c for c in calls if self._owner(c) is not None]
            if not owned:
                return body
            if len(owned) < len(calls):  # mixed: the client gets its own calls only
                message["tool_calls"] = [c for c in calls if self._owner(c) is None]  # type: ignore[index]
                return json.dumps(data, ensure_ascii=False).encode("utf-8")
            if not await self._continue(message, owned):  # type: ignore[arg-type]
                return body
            body = await self.current.read()
        self.status_code = self.current.status_code
        return body

    # --- streams ------------------------------------------------------------------------------

    async def iter_bytes(self) -> AsyncIterator[bytes]:
        while True:
            held: list[bytes] = []
            pieces = StreamedCalls()
            content: list[str] = []
            splitter = EventSplitter()
            async for data in self.current.iter_bytes():
                out = []
                for event in splitter.feed(data):
                    if _observe(event, pieces, content) or held:
                        held.append(event)
                    else:
                        out.append(event)
                if out:
                    yield b"".join(out)
            rest = splitter.rest()
            if rest:
                held.append(rest)
            calls = pieces.whole()
            owned = [c for c in calls.values() if self._owner(c) is not None]
            if not owned or self.rounds >= MAX_ROUNDS:
                yield b"".join(held)
                return
            if len(owned) < len(calls):
                kept = sorted(i for i, c in calls.items() if c not in owned)
                yield b"".join(_without(held, {old: new for new, old in enumerate(kept)}))
                return
            message = {"role": "assistant", "content": "".join(content) or None,
                       "tool_calls": [calls[i] for i in sorted(calls)]}
            if not await self._continue(message, owned):
                yield b"".join(held)
                return
            if self.current.status_code >= 400:  # the continued request failed: say so inside the stream
                body = (await self.current.read()).decode("utf-8", "replace")[:500]
                yield encode({"error": {"message": f"context-compactor: the upstream refused the turn continued "
                                                   f"after {', '.join(self.tools)}: {body}",
                                        "type": "upstream_error", "code": "owned_tool_continuation"}})
                yield DONE
                return

    # --- one round ----------------------------------------------------------------------------

    async def _continue(self, message: dict[str, Any], owned: list[dict[str, Any]]) -> bool:
        """Answer the owned calls and send the continued request; False when it could not be sent."""
        results = []
        for call in owned:
            tool = self._owner(call)
            arguments = str(call.get("function", {}).get("arguments") or "")
            try:
                text = await self._run(tool.answer, arguments, self.turn)
            except Exception as exc:  # noqa: BLE001 - the model is told, the turn goes on
                text = f"{tool.name} failed: {type(exc).__name__}: {exc}"
            results.append({"role": "tool", "tool_call_id": call.get("id") or "", "content": text})
        fitted = self._fitted(message, results)
        if fitted is None:
            logger.warning("gateway.owned_tool_no_room", session=self.turn.key, window=self.turn.limit,
                           tools=[_call_name(c) for c in owned])
            return False
        self.messages += [message, *fitted]
        self.rounds += 1
        logger.info("gateway.owned_tool", session=self.turn.key, tools=[_call_name(c) for c in owned],
                    round=self.rounds)
        previous = self.current
        try:
            self.current = await self._send(self.turn.payload(extra=self.messages))
        except Exception as exc:  # noqa: BLE001 - the round's own answer stands
            logger.warning("gateway.owned_tool_failed", session=self.turn.key, error=f"{type(exc).__name__}: {exc}")
            return False
        await previous.aclose()
        return True


    def _fitted(self, message: dict[str, Any], results: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
        """``results`` cut to what the window has left after the rounds so far and ``message`` (the longest
        answers first, each ending on :data:`CUT_NOTE`); None when not even the cut answers fit. Fit is a
        promise the continued request keeps too; a turn said not to fit is not checked."""
        measurer = self.turn.measurer()
        room = self.turn.room([tool.schema() for tool in self.tools.values()], measurer)
        if room is None:
            return results
        room -= sum(measurer.cost(m) for m in [*self.messages, message])

        def capped(cap: int) -> list[dict[str, Any]]:
            return [r if len(r["content"]) <= cap else {**r, "content": r["content"][:cap] + CUT_NOTE} for r in results]

        def fits(cap: int) -> bool:
            return sum(measurer.cost(r) for r in capped(cap)) <= room

        longest = max((len(r["content"]) for r in results), default=0)
        if fits(longest):
            return results
        if not fits(0):
            return None
        lo, hi = 0, longest  # fits(lo), not fits(hi)
        while hi - lo > 1:
            mid = (lo + hi) // 2
            lo, hi = (mid, hi) if fits(mid) else (lo, mid)
        return capped(lo)


class _Claimed:
    """A guard's claim on one call, shaped like an owned tool."""

    def __init__(self, guard: Any, call: dict[str, Any]) -> None:
        self.guard, self.call, self.name = guard, call, guard.name

    def answer(self, arguments: str, turn: ChatTurn) -> str:
        return str(self.guard.answer_call(self.call, turn))


def _observe(event: bytes, calls: StreamedCalls, content: list[str]) -> bool:
    """Read one stream event into ``calls``/``content``; True when it carries a tool call."""
    data = event_data(event)
    if data is None or data == b"[DONE]":
        return False
    chunk = _json(data)
    choices = chunk.get("choices") if isinstance(chunk, dict) else None
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        return False
    delta = choices[0].get("delta") or {}
    if isinstance(delta.get("content"), str):
        content.append(delta["content"])
    found = False
    for part in delta.get("tool_calls") or ():
        if not isinstance(part, dict):
            continue
        found = True
        calls.add(part)
    return found


def _without(events: list[bytes], keep: dict[int, int]) -> list[bytes]:
    """The held events with only the tool-call deltas of the indexes in ``keep``, each numbered as ``keep``
    says: the client's calls as 0, 1, ... (the openai SDK indexes its list of calls by them)."""
    out = []
    for event in events:
        data = event_data(event)
        chunk = _json(data) if data is not None and data != b"[DONE]" else None
        choices = chunk.get("choices") if isinstance(chunk, dict) else None
        if not (isinstance(choices, list) and choices and isinstance(choices[0], dict)
                and (choices[0].get("delta") or {}).get("tool_calls")):
            out.append(event)
            continue
        delta = choices[0]["delta"]
        kept = [{**p, "index": keep[int(p.get("index", 0))]} for p in delta["tool_calls"]
                if int(p.get("index", 0)) in keep]
        if kept or delta.get("content") or choices[0].get("finish_reason"):
            out.append(encode({**chunk, "choices": [{**choices[0], "delta": {**delta, "tool_calls": kept}}, *choices[1:]]}))  # type: ignore[dict-item]
    return out


def _message(data: Any) -> dict[str, Any] | None:
    choices = data.get("choices") if isinstance(data, dict) else None
    if isinstance(choices, list) and choices and isinstance(choices[0], dict):
        message = choices[0].get("message")
        return message if isinstance(message, dict) else None
    return None


def _call_name(call: Any) -> str:
    return str((call.get("function") or {}).get("name") or "") if isinstance(call, dict) else ""


def _tool_name(tool: Any) -> str:
    return str((tool.get("function") or {}).get("name") or "") if isinstance(tool, dict) else ""


def _json(data: bytes) -> Any:
    try:
        return json.loads(data)
    except ValueError:
        return None
