"""The gateway's own tool rounds (``recall_history``) in the Messages and Responses APIs.

    MessagesRounds     an Anthropic answer with the owned ``tool_use`` blocks answered and the turn continued
    ResponsesRounds    a Responses answer with the owned ``function_call`` items answered and the turn continued

As for chat (:class:`~context_compactor.gateway.owned_tools.Rounds`, whose answering, fitting and
continuing they reuse): when the model's reply calls only the gateway's own tools, they are answered,
the reply and the results are added to the conversation (the reply's own blocks or items, thinking and
reasoning with their signatures, so the continued loop is the model's own) and the turn is sent again,
up to ``MAX_ROUNDS`` times. The client gets one answer. A whole answer is the last round's. A stream is
relayed as it comes until the first tool call, then held to the round's end; the later rounds' events
continue it: their ``message_start`` (``response.created``) dropped, content blocks (output items)
numbered after the ones the client already has, and Responses' ``sequence_number`` counting on. A reply
mixing owned and client calls reaches the client with the owned calls taken out.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

from context_compactor.anthropic_adapter import assistant_message as anthropic_assistant
from context_compactor.responses_adapter import CALL_TYPES, call_id
from context_compactor.responses_adapter import assistant_message as responses_assistant

from .owned_tools import MAX_ROUNDS, Rounds
from .sse import EventSplitter, event_data

CONTINUATION = "owned_tool_continuation"


def _json(data: bytes | None) -> Any:
    try:
        return json.loads(data) if data is not None else None
    except ValueError:
        return None


def _event(kind: str, data: dict[str, Any]) -> bytes:
    return f"event: {kind}\ndata: ".encode() + json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode() + b"\n\n"


def _chat_call(call_id_: str, name: str, arguments: Any, kind: str = "function") -> dict[str, Any]:
    """A call as chat writes it; ``kind`` is "function" for a function call, else its item's type (a Responses
    ``custom_tool_call`` or ``local_shell_call``, whose arguments are not a JSON object: see loop_guards.py)."""
    text = arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)
    return {"id": call_id_, "type": kind, "function": {"name": name, "arguments": text}}


def _sendable(blocks: list[Any]) -> list[Any]:
    """A reply's blocks as they can go back upstream: a ``tool_use`` whose streamed input was not a JSON object
    (kept as the model's text for the loop guards to judge) carries an empty object instead."""
    return [{**b, "input": {}} if isinstance(b, dict) and b.get("type") == "tool_use"
            and not isinstance(b.get("input", {}), dict) else b for b in blocks]


class _ApiRounds(Rounds):
    """What both APIs' rounds share: one round's answer read whole, owned calls answered, the turn continued."""

    def _calls(self, data: dict[str, Any]) -> list[tuple[Any, dict[str, Any]]]:
        """The tool calls of a whole answer: (its block or item, the chat call it is)."""
        raise NotImplementedError

    def _assistant(self, data: dict[str, Any]) -> dict[str, Any]:
        """The reply as the assistant chat message the continued conversation carries."""
        raise NotImplementedError

    def _drop(self, data: dict[str, Any], owned: list[Any]) -> None:
        """Take the owned calls (blocks or items) out of a whole answer."""
        raise NotImplementedError

    async def read(self) -> bytes:
        """The last round's body: earlier rounds only called the gateway's own tools."""
        body = await self.current.read()
        while self.rounds < MAX_ROUNDS and self.current.status_code < 400:
            data = _json(body)
            if not isinstance(data, dict):
                return body
            calls = self._calls(data)
            owned = [(part, call) for part, call in calls if self._owner(call) is not None]
            if not owned:
                return body
            if len(owned) < len(calls):  # mixed: the client gets its own calls only
                self._drop(data, [part for part, _ in owned])
                return json.dumps(data, ensure_ascii=False).encode("utf-8")
            if not await self._continue(self._assistant(data), [call for _, call in owned]):
                return body
            body = await self.current.read()
        self.status_code = self.current.status_code
        return body

    async def _continued_error(self) -> str:
        body = (await self.current.read()).decode("utf-8", "replace")[:500]
        return f"context-compactor: the upstream refused the turn continued after {', '.join(self.tools)}: {body}"


class MessagesRounds(_ApiRounds):
    """Owned-tool rounds of a ``/v1/messages`` answer (see the module docstring)."""

    def _calls(self, data: dict[str, Any]) -> list[tuple[Any, dict[str, Any]]]:
        return [(b, _chat_call(str(b.get("id", "")), str(b.get("name", "")), b.get("input", {})))
                for b in data.get("content") or [] if isinstance(b, dict) and b.get("type") == "tool_use"]

    def _assistant(self, data: dict[str, Any]) -> dict[str, Any]:
        return anthropic_assistant(_sendable(list(data.get("content") or [])), self.turn.conv)  # type: ignore[attr-defined]

    def _drop(self, data: dict[str, Any], owned: list[Any]) -> None:
        data["content"] = [b for b in data.get("content") or [] if not any(b is o for o in owned)]

    async def iter_bytes(self) -> AsyncIterator[bytes]:
        from .anthropic import MessagesWatch, error_event

        numbered = 0  # content blocks the client has been sent, all rounds together
        while True:
            watch, splitter = MessagesWatch(), EventSplitter()
            index: dict[int, int] = {}  # this round's block index -> the client's
            held: list[tuple[bytes, dict[str, Any] | None]] = []
            async for data in self.current.iter_bytes():
                out = []
                for event in splitter.feed(data):
                    chunk = watch.read(event_data(event))
                    kind = chunk.get("type") if isinstance(chunk, dict) else None
                    if kind == "message_start" and self.rounds:
                        continue  # the client has its message_start from the first round
                    if kind == "content_block_start" and (chunk.get("content_block") or {}).get("type") == "tool_use":  # type: ignore[union-attr]
                        held.append((event, chunk))
                    elif held:
                        held.append((event, chunk))
                    else:
                        if kind == "content_block_start":
                            index[int(chunk.get("index", 0))], numbered = numbered, numbered + 1  # type: ignore[union-attr]
                        out.append(_renumbered(event, chunk, index))
                if out:
                    yield b"".join(out)
            rest = splitter.rest()
            if rest:
                held.append((rest, watch.read(event_data(rest))))
            blocks = watch.content()
            calls = self._calls({"content": blocks})
            owned = [(block, call) for block, call in calls if self._owner(call) is not None]
            if not owned or self.rounds >= MAX_ROUNDS or (len(owned) == len(calls) and not await self._continue(
                    anthropic_assistant(_sendable(blocks), self.turn.conv), [call for _, call in owned])):  # type: ignore[attr-defined]
                owned = []
            elif len(owned) == len(calls):  # continued: this round's held events are the model's own business
                if self.current.status_code >= 400:
                    yield error_event(await self._continued_error(), CONTINUATION)
                    return
                continue
            dropped = {int(i) for i, b in watch.blocks.items() if any(b.get("id") == o.get("id") for o, _ in owned)}
            out = []
            for event, chunk in held:
                if isinstance(chunk, dict) and "index" in chunk and chunk.get("type", "").startswith("content_block"):
                    if int(chunk["index"]) in dropped:
                        continue
                    if chunk["type"] == "content_block_start":
                        index[int(chunk["index"])], numbered = numbered, numbered + 1
                out.append(_renumbered(event, chunk, index))
            yield b"".join(out)
            return


def _renumbered(event: bytes, chunk: dict[str, Any] | None, index: dict[int, int]) -> bytes:
    """``event`` with its content block index as the client numbers it (unchanged when it is the same)."""
    if not isinstance(chunk, dict) or "index" not in chunk or not str(chunk.get("type", "")).startswith("content_block"):
        return event
    given = int(chunk["index"])
    if index.get(given, given) == given:
        return event
    return _event(str(chunk["type"]), {**chunk, "index": index[given]})


class ResponsesRounds(_ApiRounds):
    """Owned-tool rounds of a ``/v1/responses`` answer (see the module docstring)."""

    def _calls(self, data: dict[str, Any]) -> list[tuple[Any, dict[str, Any]]]:
        out = []
        for item in data.get("output") or []:
            if isinstance(item, dict) and item.get("type") in CALL_TYPES:
                arguments = item.get("arguments", item.get("input", ""))
                kind = str(item.get("type"))
                out.append((item, _chat_call(call_id(item), str(item.get("name") or kind), arguments,
                                             "function" if kind == "function_call" else kind)))
        return out

    def _assistant(self, data: dict[str, Any]) -> dict[str, Any]:
        return responses_assistant(list(data.get("output") or []), self.turn.conv)  # type: ignore[attr-defined]

    def _drop(self, data: dict[str, Any], owned: list[Any]) -> None:
        data["output"] = [i for i in data.get("output") or [] if not any(i is o for o in owned)]

    async def iter_bytes(self) -> AsyncIterator[bytes]:
        from .responses import error_event

        state = _ResponsesStream()
        while True:
            splitter = EventSplitter()
            state.next_round()
            async for data in self.current.iter_bytes():
                out = [e for e in (state.read(event) for event in splitter.feed(data)) if e]
                if out:
                    yield b"".join(out)
            rest = splitter.rest()
            if rest:
                state.held.append((rest, _json(event_data(rest))))
            calls = self._calls({"output": state.items})
            owned = [(item, call) for item, call in calls if self._owner(call) is not None]
            if not owned or self.rounds >= MAX_ROUNDS or (len(owned) == len(calls) and not await self._continue(
                    responses_assistant(state.items, self.turn.conv), [call for _, call in owned])):  # type: ignore[attr-defined]
                owned = []
            elif len(owned) == len(calls):
                if self.current.status_code >= 400:
                    yield state.numbered(error_event(await self._continued_error(), CONTINUATION))
                    return
                continue
            yield state.release({call_id(item) for item, _ in owned})
            return


class _ResponsesStream:
    """One Responses stream made of several rounds' events: output indexes and sequence numbers continued,
    the first round's response id kept, the items the client already had put back into the final response."""

    def __init__(self) -> None:
        self.sequence = 0
        self.outputs = 0  # output items the client has been sent
        self.sent_items: list[Any] = []  # those items (from their output_item.done)
        self.first_id: Any = None
        self.rounds = -1

    def next_round(self) -> None:
        self.rounds += 1
        self.index: dict[int, int] = {}
        self.items: list[Any] = []  # this round's output items (done)
        self.held: list[tuple[bytes, Any]] = []

    def read(self, event: bytes) -> bytes | None:
        """``event`` as the client gets it now, or None (held or dropped)."""
        chunk = _json(event_data(event))
        if not isinstance(chunk, dict):
            if self.held:
                self.held.append((event, None))
                return None
            return event
        kind = str(chunk.get("type") or "")
        response = chunk.get("response") if isinstance(chunk.get("response"), dict) else None
        if kind in ("response.created", "response.in_progress", "response.queued"):
            if self.rounds:
                return None
            self.first_id = (response or {}).get("id", self.first_id)
        if kind == "response.output_item.done" and isinstance(chunk.get("item"), dict):
            self.items.append(chunk["item"])
        item = chunk.get("item") if kind == "response.output_item.added" else None
        if isinstance(item, dict) and item.get("type") in CALL_TYPES:
            self.held.append((event, chunk))
            return None
        if self.held:
            self.held.append((event, chunk))
            return None
        return self._out(chunk, event)

    def _out(self, chunk: dict[str, Any], event: bytes | None) -> bytes:
        """``chunk`` numbered for the client: ``event`` itself when nothing changed (None: always encoded)."""
        kind = str(chunk.get("type") or "")
        if kind == "response.output_item.added":
            self.index[int(chunk.get("output_index", 0))], self.outputs = self.outputs, self.outputs + 1
        if kind == "response.output_item.done" and isinstance(chunk.get("item"), dict):
            self.sent_items.append(chunk["item"])
        given = chunk.get("output_index")
        changed = dict(chunk)
        if isinstance(given, int) and self.index.get(given, given) != given:
            changed["output_index"] = self.index[given]
        if kind in ("response.completed", "response.incomplete", "response.failed") and self.rounds:
            response = dict(chunk.get("response") or {})
            response["output"] = list(self.sent_items)
            if self.first_id is not None:
                response["id"] = self.first_id
            changed["response"] = response
        changed["sequence_number"] = self.sequence
        self.sequence += 1
        if changed == chunk and event is not None:
            return event
        return _event(kind, changed)

    def numbered(self, event: bytes) -> bytes:
        chunk = _json(event_data(event))
        return self._out(chunk, event) if isinstance(chunk, dict) else event

    def release(self, dropped: set[str]) -> bytes:
        """The held events, without those of the owned calls in ``dropped`` (their call ids)."""
        gone = {i for i, item in enumerate(self._by_index()) if item is not None and call_id(item) in dropped}
        out = []
        for event, chunk in self.held:
            if not isinstance(chunk, dict):
                out.append(event)
                continue
            if isinstance(chunk.get("output_index"), int) and chunk["output_index"] in gone:
                continue
            if chunk.get("type") in ("response.completed", "response.incomplete") and dropped:
                response = dict(chunk.get("response") or {})
                response["output"] = [i for i in response.get("output") or []
                                      if not (isinstance(i, dict) and call_id(i) in dropped and i.get("type") in CALL_TYPES)]
                out.append(self._out({**chunk, "response": response}, None))
                continue
            out.append(self._out(chunk, event))
        return b"".join(out)

    def _by_index(self) -> list[Any]:
        """This round's items by their output index (None where none came)."""
        found: dict[int, Any] = {}
        for _, chunk in self.held:
            if isinstance(chunk, dict) and chunk.get("type") == "response.output_item.added":
                found[int(chunk.get("output_index", 0))] = chunk.get("item")
        return [found.get(i) for i in range(max(found, default=-1) + 1)]
