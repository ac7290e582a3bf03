"""One chat completion request seen from the hooks: before_agent_start, overflow recovery, after_turn.

The hooks are synchronous and may block (a summary model call), so they run in the gateway's
worker threads, under the session's asyncio lock: two requests of one session never compact at
the same time, and many sessions compact in parallel. Any failure here is a warning and "send the
request as the client wrote it" (fail open). With ``tokenizer: server`` a compaction's prompt is counted by
the upstream before it goes (:meth:`ChatTurn.check_fit`, see server_count.py).
"""

from __future__ import annotations

import json
import math
from dataclasses import replace
from typing import Any

import structlog

from context_compactor.engine import Measurer
from context_compactor.hookspecs import (AfterTurnEvent, BeforeAgentStartEvent, CompactionStats, HookContext,
                                        ModelInfo, Usage)
from context_compactor.loop import is_btw, last_user_index
from context_compactor.tokens import CharCounter

from .asgi import Headers, ascii_header
from .overflow import Overflow
from .parts import GatewayParts
from .server_count import SERVER_TOKENIZER, FitCount, chat_text, prompt_text, server_count


# The gateway's own tools are measured with a plan while their schemas take at most this share of the window.
RESERVE_SHARE = 0.025

logger = structlog.get_logger("context_compactor")

SHRINK = 0.9  # overflow recovery aims at this share of the size the server stated (or of our estimate)
EARLY_MARGIN = 1.25  # an early send needs the size estimate times this under the trigger
MAX_COUNTED = 4096  # sessions whose compaction the server's tokenizer counted, remembered


class ChatTurn:
    """The compaction side of one ``/v1/chat/completions`` request."""

    def __init__(self, gw: GatewayParts, body: dict[str, Any], raw: bytes, key: str, upstream_key: str | None) -> None:
        """``upstream_key`` is the key the upstream gets for this request (for the summaries the
        runtime may ask the same model for)."""
        self.gw, self.body, self.raw, self.key = gw, body, raw, key
        self.stream = bool(body.get("stream"))
        options = body.get("stream_options")
        self.client_usage = isinstance(options, dict) and bool(options.get("include_usage"))
        self.model = ModelInfo(id=str(body.get("model") or "unknown"), base_url=gw.config.base, api="openai",
                               api_key=upstream_key)
        self.event = BeforeAgentStartEvent(messages=body["messages"], tools=body.get("tools") or [], model=self.model)
        self.sent: list[Any] = body["messages"]
        self.client_tools: list[Any] | None = None  # the event's tools before the gateway's own were added
        self.tokens_before: int | None = None
        self.tokens_after: int | None = None
        self.trigger: int | None = None
        self.limit: int | None = None  # the window the prompt sent was planned for
        self.stats: CompactionStats | None = None  # the figures of the hooks' latest decision for this turn
        self.compacted = False
        self.fits = True
        self.reason: str | None = None  # why the prompt cannot fit the window, when it cannot
        self.notices: list[str] = []
        self.retries = 0
        self.window: int | None = None  # the last window override of overflow recovery
        self.refused: int | None = None  # our estimate of a prompt the server refused without naming its size
        self.server_tokens: int | None = None  # the server's count of the prompt as sent, when it counted it
        self.reply: dict[str, Any] | None = None
        self.usage: dict[str, Any] | None = None
        self.error: str | None = None
        self.status = 0
        self.error_code: str | None = None  # the gateway's own code for an upstream it could not use
        self.outcome = ""  # what the client saw: complete, cut (a stream ended by an error event), error, client_gone
        self.owned: dict[str, Any] = {}  # the gateway's own tools this turn offers (see owned_tools.py)
        self.guards: list[Any] = []  # what answers client tools' calls here (loop_guards.py: refusals, retries)
        self.btw = is_side_question(self)  # a /btw side question goes upstream without tools

    def ctx(self) -> HookContext:
        return HookContext(session_key=self.key, runtime=self.gw.runtime, model=self.model)

    # --- before the model call ----------------------------------------------------------------

    def may_go_early(self) -> bool:
        """Whether the client's bytes can go upstream before the hooks run (they run meanwhile).

        Only when this session's last turn went out as the client wrote it and this one, estimated
        from its size at that turn's tokens per byte with a margin, stays under the trigger: the
        hooks will change nothing, so the model starts on the prompt while they measure it. Should
        they change it after all, the relay drops the early request and sends theirs: a wrong
        guess costs time, never a wrong prompt.
        """
        last = self.gw.unchanged_turn(self.key)
        if last is None or last[0] != self.model.id:
            return False
        _model, per_byte, trigger = last
        return len(self.raw) * per_byte * EARLY_MARGIN <= trigger

    @property
    def changed(self) -> bool:
        """Whether the hooks changed what the model is sent."""
        return self.sent is not self.body["messages"] or self.btw

    async def prepare(self) -> None:
        """Run ``before_agent_start`` (in a worker thread, under the session lock)."""
        async with self.gw.locks.hold(self.key):
            await self.gw.in_thread(self._before)
        await self.check_fit()
        self.owned = self._fitting({} if self.btw else self.gw.owned_tools.offered(self))
        self._sent_tools()
        self.guards = self.gw.owned_tools.guards_for(self)
        self.gw.remember(self)

    def _before(self) -> None:
        self.client_tools = list(self.event.tools)
        self._reserve()
        try:
            result = self.gw.pm.hook.before_agent_start(event=self.event, ctx=self.ctx())
        except Exception as exc:  # noqa: BLE001 - fail open: the client's request goes out unchanged
            logger.warning("gateway.hook_failed", hook="before_agent_start", session=self.key,
                           error=f"{type(exc).__name__}: {exc}")
            return
        if result is None:  # no extension answered (the built-in hook always does): nothing measured
            return
        self._measured(result.stats)
        self.notices = list(result.notices)
        if result.messages is not None:
            self.sent, self.compacted = list(result.messages), True
        if result.prepend_context:
            self.sent = prepend_system(self.sent, result.prepend_context)

    def _sent_tools(self) -> None:
        """The event's tools as this turn sends them: the client's, and those of the gateway's own tools
        measured with the plan that go out (the turn is measured against the server's count later)."""
        client = self.client_tools
        if client is None or len(self.event.tools) <= len(client):
            return
        owned = [tool.schema() for tool in self.owned.values()]
        measured = self.event.tools[len(client):]
        self.event = replace(self.event, tools=[*client, *(t for t in measured if t in owned)])
        left = [t for t in measured if t not in owned]
        if left and self.tokens_after is not None and self.tokens_before is not None:
            # Not sent (an uncompacted turn of a session that never compacted, or no room): not counted.
            measurer = self.measurer()
            less = _grows(measurer, self.event.tools, left)
            self.tokens_before, self.tokens_after = self.tokens_before - less, self.tokens_after - less

    def _reserve(self) -> None:
        """The event measured with the schemas of the gateway's own tools while they fit (see :meth:`_reserves`),
        for the window known now (a retry after an overflow plans for the one the server stated)."""
        client = self.client_tools
        if client is None:
            return
        reserved = self.gw.owned_tools.reserved(client) if not self.btw else []
        tools = [*client, *reserved] if reserved and self._reserves(client, reserved) else client
        if tools != self.event.tools:
            self.event = replace(self.event, tools=tools)

    def _reserves(self, client: list[Any], schemas: list[dict[str, Any]]) -> bool:
        """Whether the plan is measured with the gateway's own tool ``schemas`` (see
        :meth:`.owned_tools.OwnedTools.reserved`): only while the system messages and all the tools stay
        within the target (``compactTo`` of the window), so that they never make a prompt that fits
        without them not fit (they are then left out of a tight turn, as before), and while they are a
        small share of the window (``recall_history``'s 166 tokens at 8k and up: on a 3k window they took
        the ledger the room its model narrative needed). Measured on every turn,
        not only once the session compacted: the first compaction carries them too, and a token count
        just before a turn answers for the plan that turn makes."""
        runtime = self.gw.runtime
        settings = runtime.settings_for(self.model)
        window, _source = runtime.window_for(settings, self.model)
        messages = self.event.messages
        lead = 0
        while lead < len(messages) and isinstance(messages[lead], dict) and messages[lead].get("role") == "system":
            lead += 1
        # At the configured ratio, not the calibrated one: replicas calibrate apart, and a session's turns
        # must be planned alike on each of them (a share near its bound read either side of it).
        measurer = Measurer(CharCounter(settings.chars_per_token), settings.message_overhead_tokens)
        fixed = measurer.measure(messages[:lead], "", [*client, *schemas]).total
        own = _grows(measurer, client, schemas)
        return own <= window * RESERVE_SHARE and fixed <= settings.compact_to * window

    def _measured(self, stats: CompactionStats | None) -> None:
        """Take the figures of the hook's decision (None from an extension that has none)."""
        if stats is None:
            return
        self.stats = stats
        self.tokens_before, self.tokens_after, self.trigger = stats.tokens_before, stats.tokens_after, stats.trigger
        self.limit = stats.window
        self.fits, self.reason = stats.fits, stats.reason
        if not stats.fits:
            logger.warning("gateway.cannot_fit", session=self.key, model=self.model.id, tokens=stats.tokens_after,
                           window=stats.window, reason=stats.reason)

    def payload(self, extra: list[Any] | None = None) -> bytes:
        """The request body for the upstream: the client's own bytes when nothing had to change.

        The gateway's own tools this turn offers are added to the client's; ``extra`` messages (the
        owned-tool rounds so far) follow the conversation.
        """
        ask_usage = self.stream and not self.client_usage
        if self.sent is self.body["messages"] and not self.owned and not extra and not self.btw:
            if not ask_usage:
                return self.raw
            if "stream_options" not in self.body and b"\x00" not in self.raw[:4]:  # UTF-8: one member added in front
                start = self.raw.index(b"{") + 1
                return self.raw[:start] + b'"stream_options":{"include_usage":true},' + self.raw[start:]
        body = dict(self.body)
        body["messages"] = [*self.sent, *extra] if extra else self.sent
        if self.owned:
            body["tools"] = [*(self.body.get("tools") or []), *(tool.schema() for tool in self.owned.values())]
        if self.btw:  # answered from what the conversation knows
            for name in ("tools", "tool_choice", "parallel_tool_calls"):
                body.pop(name, None)
        if ask_usage:
            options = self.body.get("stream_options")
            body["stream_options"] = {**(options if isinstance(options, dict) else {}), "include_usage": True}
        return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")

    def _fitting(self, owned: dict[str, Any]) -> dict[str, Any]:
        """``owned`` (the gateway's own tools this turn would offer), or none when their schemas would push
        the prompt over the window it was planned for: fit is a promise, the gateway's own tools are not
        (the ledger still cites what was folded)."""
        if owned and (self.room([tool.schema() for tool in owned.values()]) or 0) < 0:
            logger.info("gateway.owned_tools_left_out", session=self.key, tools=sorted(owned), window=self.limit,
                        tokens=self.tokens_after)
            return {}
        return owned

    def measurer(self) -> Measurer:
        """A measurer with the counter the plan of this turn used."""
        settings = self.gw.runtime.settings_for(self.model)
        return Measurer(self.gw.runtime.counter_for(settings, self.model), settings.message_overhead_tokens)

    def room(self, tools: list[Any], measurer: Measurer | None = None) -> int | None:
        """Tokens the window has left for messages added after the plan, with the gateway's own ``tools``
        schemas sent beside the client's; negative when those alone push the prompt over the window. None
        when there is no promise to keep: nothing was measured, or the prompt was said not to fit.

        Counted as the plan counted: its figure for what is sent, plus the tool schemas' growth.
        """
        if self.tokens_after is None or self.limit is None or not self.fits:
            return None
        measurer = measurer or self.measurer()
        client = list(self.event.tools)  # with the gateway's tools the plan was measured with (reserved)
        more = [tool for tool in tools if tool not in client]
        grows = _grows(measurer, client, more)
        return self.limit - self.tokens_after - grows

    # --- the server's count of a compaction's prompt ------------------------------------------

    def counts_with_server(self) -> bool:
        """Whether a compaction's prompt is counted by the upstream's tokenizer (see the module docstring)."""
        settings = self.gw.runtime.settings_for(self.model)
        return self.gw.config.server_tokenizer or str(settings.tokenizer) == SERVER_TOKENIZER

    async def check_fit(self) -> None:
        """Count this turn's prompt with the server's tokenizer when a compaction built it and the server has
        not counted that compaction's prompt yet; compact again when the count is above the window."""
        if not self.compacted or not self.fits or self.limit is None or self.tokens_after is None \
                or self.gw.counted.get(self.key) == self.compactions or not self.counts_with_server():
            return
        window = self.limit  # in the server's tokens; a refit plans for a smaller one in ours
        for _ in range(2):  # the compaction's prompt, and the smaller one when that did not fit
            estimate, count = self.tokens_after, await server_count(
                self.gw, self.model.id, prompt_text(self.sent, self.event.tools))
            self._counted(count, estimate, window)
            if count is None or count <= window or not await self._refit(count, window):
                break
        if self.window is not None and self.server_tokens is not None and self.server_tokens <= window:
            # the smaller window was this prompt's: the next compaction plans for the real one again (with the
            # ratio calibrated from this count)
            self.gw.runtime.lift_window(self.model.id, self.server_tokens)

    def _counted(self, count: int | None, estimate: int | None, window: int) -> None:
        """Remember that this compaction was counted (or that the server cannot count), for the next turns
        and for ``/context-stats``."""
        self.server_tokens = count
        _keep(self.gw.counted, self.key, self.compactions)
        _keep(self.gw.fit_counts, self.key,
              FitCount(count, estimate, window, self.gw.tokenize_path or "", self.compactions))
        logger.info("gateway.fit_counted", session=self.key, model=self.model.id, server_tokens=count,
                    estimate=estimate, window=window, route=self.gw.tokenize_path or None)

    async def _refit(self, count: int, limit: int) -> bool:
        """The server counted more than the window (``limit``): compact again for the window scaled by its count
        against our estimate (learned by the runtime for the recompaction, lifted once the server's count fits)."""
        window = self.recovery_window(Overflow("counted by the server's tokenizer", window=limit, prompt_tokens=count))
        if not window:
            return False
        self.window = window
        runtime = self.gw.runtime
        runtime.learn_window(self.model.id, window, "error")
        runtime.window_notes[self.model.id] = (f"the server's tokenizer counted {count:,} tokens in a prompt we "
                                               f"estimated at {self.tokens_after or 0:,}: {window:,} in our units")
        async with self.gw.locks.hold(self.key):
            smaller = await self.gw.in_thread(self._recompact)
        logger.info("gateway.refit", session=self.key, model=self.model.id, server_tokens=count,
                    window=limit, retry_window=window, compacted_again=smaller, tokens_after=self.tokens_after)
        return smaller

    # --- overflow recovery --------------------------------------------------------------------

    def recovery_window(self, overflow: Overflow) -> int | None:
        """The window to compact to after ``overflow``: 0.9 of what the server stated, in our units.

        When the server also says how many tokens it counted, its count and our estimate differ by a
        ratio, and the window is scaled by it; without a stated size, 0.9 of our own estimate. Each
        retry aims below the last.
        """
        estimate = self.tokens_after
        window: float
        if overflow.window:
            window = overflow.window
            if overflow.prompt_tokens and estimate and overflow.prompt_tokens > estimate:
                window = window * estimate / overflow.prompt_tokens
        elif estimate:
            window = estimate
        else:
            return None
        target = math.floor(SHRINK * window)
        if self.window is not None:
            target = min(target, math.floor(SHRINK * self.window))
        return target if target > 0 else None

    async def recover(self, overflow: Overflow) -> bool:
        """Compact again for what the server said; False when nothing smaller can be sent.

        The window the server stated becomes the model's window (it caps a larger configured one for
        every later turn, see :meth:`Runtime.window_for`), and the compaction goes through
        ``before_agent_start`` like any turn's. When that window is no smaller than the one this turn
        was planned for (or the server named none), the runtime learns :meth:`recovery_window` instead.
        """
        self.gw.forget(self.key)  # the next turn's prompt will not go out as written either
        if not overflow.window and self.tokens_after:
            self.refused = min(self.refused or self.tokens_after, self.tokens_after)
        planned = self.limit
        window = overflow.window if self.window is None else None
        if window is None or (planned and window >= planned):
            window = self.recovery_window(overflow)
            if window is not None and planned:
                window = min(window, math.floor(SHRINK * planned))
        if not window or window <= 0:
            return False
        self.window = window
        self.gw.runtime.learn_window(self.model.id, window, "error")
        async with self.gw.locks.hold(self.key):
            smaller = await self.gw.in_thread(self._recompact)
        logger.info("gateway.overflow", session=self.key, model=self.model.id, stated_window=overflow.window,
                    server_tokens=overflow.prompt_tokens, retry_window=window, retried=smaller,
                    tokens_after=self.tokens_after)
        if smaller:
            self.retries += 1
            self.server_tokens = None  # the server counted the prompt before this one
            self.owned = self._fitting(self.owned)  # planned again for a smaller window
        return smaller

    def _recompact(self) -> bool:
        """Run ``before_agent_start`` again (the runtime now plans for the window just learned): first as
        any turn, then forced, when that changed nothing (our estimate was under the trigger)."""
        before = self.tokens_after
        self._reserve()
        for force in (False, True):
            try:
                event = replace(self.event, force=True) if force else self.event
                result = self.gw.pm.hook.before_agent_start(event=event, ctx=self.ctx())
            except Exception as exc:  # noqa: BLE001 - fail open: the upstream's error goes back unchanged
                logger.warning("gateway.hook_failed", hook="before_agent_start", session=self.key,
                               error=f"{type(exc).__name__}: {exc}")
                return False
            after = result.stats.tokens_after if result is not None and result.stats is not None else None
            if result is not None and result.messages is not None and after is not None and (
                    before is None or after < before):
                self.sent, self.compacted, self.stats = list(result.messages), True, result.stats
                self.tokens_after, self.limit = after, result.stats.window
                self.notices = list(result.notices)
                self.fits, self.reason = result.stats.fits, result.stats.reason
                return True
        return False

    @property
    def compactions(self) -> int:
        """How many compactions the session has made, as of this turn's (0 when nothing was measured)."""
        return self.stats.compactions if self.stats is not None else 0

    # --- after the model call -----------------------------------------------------------------

    def needs_count(self) -> bool:
        """Whether this stream's prompt should be counted by the server: it reported no usage (llama-cpp-python
        ignores ``stream_options``), and the model was never calibrated or the session compacted since the
        last count (once per compaction)."""
        if not self.stream or self.usage or self.status != 200 or self.outcome != "complete" or self.btw:
            return False
        if self.gw.runtime.calibration(self.model.id) is None:
            return True
        return self.compacted and self.gw.counted.get(self.key) != self.compactions

    async def count_prompt(self) -> None:
        """Count what was sent with the server's tokenizer and take it as the usage the stream lacked, so a
        streamed session calibrates too. Sent only when no other request is at the server: on
        llama-cpp-python a tokenize call takes the slot's lock and would cut a running stream."""
        if self.server_tokens is not None and not self.usage and self.status == 200 and not self.btw:
            self.usage = {"prompt_tokens": self.server_tokens, "source": "tokenize"}  # counted before it went
            return
        if not self.needs_count() or self.gw.gate.busy(self.gw.config.base):
            return
        count = await server_count(self.gw, self.model.id, chat_text([*self.sent]))
        if count is None:
            return
        self.usage = {"prompt_tokens": count, "source": "tokenize"}
        _keep(self.gw.counted, self.key, self.compactions)
        logger.info("gateway.prompt_counted", session=self.key, model=self.model.id, prompt_tokens=count,
                    estimate=self.tokens_after)

    def finish(self) -> None:
        """Queue ``after_turn`` (what was sent, the reply, the usage, any error) off the reply path.

        It runs in a worker thread once the gateway is waiting for the upstream again (see
        :meth:`AfterTurns.queue <context_compactor.gateway.after_turns.AfterTurns.queue>`), after the
        session's previous ``after_turn``. The next
        ``before_agent_start`` does not wait for it: at worst a turn is measured with the ratio
        calibrated a turn or two earlier.
        """
        self.gw.after_turns.queue(self.key, self._after)

    def _learn_refused(self) -> None:
        """After a retry the server accepted, a size it refused without naming its window bounds that window
        (llama-cpp-python's empty stream says nothing else), so later turns compact before sending."""
        if not self.refused or not self.retries or self.status != 200 or self.error is not None:
            return
        runtime = self.gw.runtime
        window, _source = runtime.window_for(runtime.settings_for(self.model), self.model)
        if self.refused < window:
            runtime.learn_window(self.model.id, self.refused, "error")
            logger.info("gateway.window_learned", model=self.model.id, window=self.refused, source="refused prompt")

    def _after(self) -> None:
        self._learn_refused()
        usage = None
        if self.usage:
            usage = Usage(prompt_tokens=_int(self.usage.get("prompt_tokens")),
                          completion_tokens=_int(self.usage.get("completion_tokens")))
        event = AfterTurnEvent(messages=self.sent, tools=self.event.tools, model=self.model,
                               reply=self.reply, usage=usage, error=self.error)
        try:
            self.gw.pm.hook.after_turn(event=event, ctx=self.ctx())
        except Exception as exc:  # noqa: BLE001 - bookkeeping never breaks a turn
            logger.warning("gateway.hook_failed", hook="after_turn", session=self.key,
                           error=f"{type(exc).__name__}: {exc}")

    # --- what the client and the log are told -------------------------------------------------

    def headers(self) -> Headers:
        out = [(b"x-context-compactor-session", ascii_header(self.key)),
               (b"x-context-compactor-compacted", b"1" if self.compacted else b"0")]
        if self.tokens_before is not None and self.tokens_after is not None:
            out.append((b"x-context-compactor-tokens", f"{self.tokens_before}->{self.tokens_after}".encode()))
        if self.retries:
            out.append((b"x-context-compactor-retries", str(self.retries).encode()))
        if self.notices:
            out.append((b"x-context-compactor-notice", ascii_header(" | ".join(self.notices))))
        if not self.fits:  # sent as the best prompt there is; the server may refuse or cut it
            out.append((b"x-context-compactor-warning",
                        ascii_header(f"cannot fit: {self.reason or 'the prompt is above the window'}")))
        return out

    def announcement(self) -> str | None:
        """The notice to put in front of the reply text, when ``announce`` is on and something happened."""
        if not self.notices or not self.gw.runtime.settings_for(self.model).announce:
            return None
        return "\n".join(f"[{notice}]" for notice in self.notices) + "\n\n"

    def log_fields(self) -> dict[str, Any]:
        usage = self.usage or {}
        return {"session": self.key, "model": self.model.id, "stream": self.stream, "status": self.status,
                "outcome": self.outcome, "compacted": self.compacted, "fits": self.fits, "tokens_before": self.tokens_before,
                "tokens_after": self.tokens_after,
                "retries": self.retries, "prompt_tokens": usage.get("prompt_tokens"), "error": self.error}


def is_side_question(turn: ChatTurn) -> bool:
    """Whether the request's last user message is a ``/btw`` (and side questions are on)."""
    messages = turn.body.get("messages") or []
    last = last_user_index(messages)
    return last >= 0 and is_btw(messages[last]) and turn.gw.runtime.settings_for(turn.model).side_questions


def prepend_system(messages: list[Any], text: str) -> list[Any]:
    """``messages`` with ``text`` added to the leading system message (or as one, when there is none)."""
    first = messages[0] if messages else None
    if isinstance(first, dict) and first.get("role") == "system" and isinstance(first.get("content"), str):
        return [{**first, "content": f"{first['content']}\n\n{text}"}, *messages[1:]]
    return [{"role": "system", "content": text}, *messages]


def _keep(book: dict[str, Any], key: str, value: Any) -> None:
    """``book[key] = value``, the oldest entry dropped past ``MAX_COUNTED`` sessions."""
    book[key] = value
    if len(book) > MAX_COUNTED:
        del book[next(iter(book))]


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _grows(measurer: Measurer, tools: list[Any], more: list[Any]) -> int:
    """What the schemas ``more`` add to a request that carries ``tools``, in tokens."""
    return measurer.measure([], "", [*tools, *more]).tool_tokens - measurer.measure([], "", tools).tool_tokens
