"""``python -m context_compactor.bridge``: the Python side of the OpenClaw context engine.

The plugin OpenClaw loads (``openclaw/index.js``) starts one bridge per gateway process and talks
to it over stdin/stdout, one JSON object per line::

    plugin -> bridge   {"id": 7, "method": "assemble", "params": {...}}
    bridge -> plugin   {"id": 7, "result": {...}}   or   {"id": 7, "error": {"message": "..."}}
    bridge -> plugin   {"call": 3, "method": "llm.complete", "params": {...}}   (a summary from the
    plugin -> bridge   {"reply": 3, "result": {"text": ...}}                     session model)

Methods: ``configure`` (the plugin's config; answered before anything else is read; its reply
carries the extensions' tools (``register_tools``) with their descriptions and parameters),
``assemble`` (its reply says whether the session has compacted: the plugin offers the tools marked
``afterCompaction`` from then on), ``commit``, ``command``, ``compact``, ``tool`` (a call of one of
those tools; ``recall`` is the same, for plugins of earlier releases), ``toolCall`` and
``toolResult`` (OpenClaw's ``before_tool_call`` and ``after_tool_call``: the ``before_tool_call``
and ``after_tool_call`` hooks decide), ``ping``. The bridge runs the same hooks as
every other host, through :func:`get_plugin_manager` and a :class:`Runtime`: no second engine.
stdout carries protocol lines only (fd 1 is pointed at stderr, so a stray print cannot break the
protocol); logs go to stderr, which the plugin copies into the gateway's log.

Beside it: the wire (:mod:`.bridge_channel`), the summaries from OpenClaw's session model
(:mod:`.openclaw_summarizer`), OpenClaw's own part of the prompt (:mod:`.openclaw_prompt`), its
``compact()`` (:mod:`.openclaw_recovery`).
"""

from __future__ import annotations

import json
import os
import sys
import threading
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import IO, Any

from .errors import CompactorError
from .logs import get_logger
from .hookspecs import (
    AfterToolCallEvent,
    AfterTurnEvent,
    BeforeAgentStartEvent,
    Command,
    CommandResult,
    CompactionStats,
    HookContext,
    ModelInfo,
    ToolCallEvent,
    Usage,
)
from .bridge_channel import Channel
from .openclaw_adapter import CURRENT, Converted, message_to_openai, restore, to_openai
from .openclaw_prompt import CHARS_PER_TOKEN_GUESS, Fixed, is_stand_in, pending_stand_in, record_fixed, too_small_message
from .openclaw_prompt import PROMPT_RECORD as PROMPT_RECORD  # re-exported: doctor reads it from here
from .openclaw_summarizer import HostSummarizer, time_budget
from .plugins import commands, get_plugin_manager, tools
from .runtime import Runtime
from .settings import load_settings

logger = get_logger()

STICKY_BUDGET = 0.10  # a session's window follows OpenClaw's budget only when it moves by more than this


@dataclass
class Turn:
    """What one assemble saw and sent, for the commit that follows it."""

    conv: Converted
    sent: list[Any]
    model: ModelInfo
    budget: int | None
    reserve: int | None
    fixed: Fixed | None = None
    event: BeforeAgentStartEvent | None = None  # what before_agent_start was handed (``compact`` forces it again)
    stats: CompactionStats | None = None  # the figures of its result, or of a compaction since


class Bridge:
    """The methods the plugin calls. Any exception becomes an error reply (the plugin fails open)."""

    def __init__(self, channel: Channel) -> None:
        self.channel = channel
        self.pm = get_plugin_manager()
        self.commands = commands(self.pm)
        self.tools = tools(self.pm)  # the extensions' tools, which the plugin registers with OpenClaw
        self.runtime: Runtime | None = None
        self.turns: OrderedDict[str, Turn] = OrderedDict()
        self.reported: dict[str, int] = {}  # session -> the prompt tokens the provider last reported
        self.committed: OrderedDict[str, None] = OrderedDict()
        self.lock = threading.Lock()
        self._told: dict[str, int] = {}  # session -> the window its "OpenClaw's prompt is too large" notice was for

    def configure(self, params: dict[str, Any]) -> dict[str, Any]:
        settings = load_settings(overrides=dict(params.get("config") or {}))
        summarizer = None
        if params.get("llm") and settings.summary_model is None:
            summarizer = HostSummarizer(self.channel, f"openclaw-llm:{params.get('model') or 'session'}")
        old, self.runtime = self.runtime, Runtime(settings, summarizer=summarizer)
        if old is not None:
            old.close()
        identity = self.runtime.summarizer.identity
        logger.info("bridge.configured", summarizer=identity, store=self.runtime.store.path)
        specs = [{**tool.schema()["function"], "afterCompaction": tool.after_compaction} for tool in self.tools.values()]
        reply: dict[str, Any] = {"ok": True, "summarizer": identity, "commands": sorted(self.commands), "tools": specs,
                                 "summaryPrompt": summary_prompt_opening()}
        recall = self.tools.get("recall_history")
        if recall is not None:  # the plugins of releases before the ``tools`` list read this one
            reply["recall"] = recall.schema()["function"]
        return reply

    def _rt(self) -> Runtime:
        if self.runtime is None:
            self.configure({})
        assert self.runtime is not None
        return self.runtime

    def _model(self, key: str, params: dict[str, Any], whole: bool) -> ModelInfo:
        """The model, with its context window: the whole prompt's room when the plugin knows the window
        and OpenClaw's fixed part (``whole``), else OpenClaw's budget for the history.

        OpenClaw's budget moves by a few tokens from turn to turn (its estimate of the system
        prompt changes); a window that moved would make the engine re-plan every turn and lose
        the byte-stable prefix. So a session keeps its budget until it changes by more than 10%.
        """
        model_id, budget = str(params.get("model") or "unknown"), _positive(params.get("tokenBudget"))
        window = _positive(params.get("contextWindow"))
        if whole and window:
            return ModelInfo(id=model_id, context_window=window)
        turn = self.turns.get(key)
        kept = turn.model.context_window if turn is not None and turn.model.id == model_id else None
        if budget and kept and abs(budget - kept) <= kept * STICKY_BUDGET:
            budget = kept
        elif budget != kept:
            logger.info("bridge.budget", session=key, model=model_id, budget=budget, was=kept)
        return ModelInfo(id=model_id, context_window=budget)

    def assemble(self, params: dict[str, Any]) -> dict[str, Any]:
        """The history to send for one model call (OpenClaw adds the current turn itself).

        With the model's window and OpenClaw's system prompt and tool schemas known (the plugin
        reads them from ``llm_input``), the engine measures the whole prompt: fixed part, history,
        the current turn and, inside a tool loop, the turn's pending calls and results (a stand-in
        as large as OpenClaw says they are). Without them, the window is OpenClaw's history budget.
        """
        runtime, key = self._rt(), str(params.get("sessionKey") or params.get("sessionId") or "default")
        host = params.get("messages") or []
        before = self.turns.get(key)
        prompt = str(params.get("prompt") or "")
        conv = to_openai(host, prompt, before.conv.messages if before else ())
        fixed = self._checked(key, Fixed.of(params)) if runtime.settings.count_host_prompt else None
        model = self._model(key, params, whole=fixed is not None)
        settings = runtime.settings_for(model)
        pending = max(0, 4 * (_positive(params.get("pendingTokens")) or 0) - len(prompt)) if fixed else 0
        if pending:
            conv.add(pending_stand_in(pending, settings.tokenizer), CURRENT)
        ctx = HookContext(session_key=key, runtime=runtime, model=model)
        # OpenClaw takes the reminder off the current turn into its system prompt (systemPromptAddition).
        event = BeforeAgentStartEvent(messages=conv.messages, model=model, system_prompt=fixed.system if fixed else "",
                                      tools=fixed.tools if fixed else [], lifts_reminders=True)
        with time_budget(settings.summary_timeout_seconds):
            result = self.pm.hook.before_agent_start(event=event, ctx=ctx)
        sent = result.messages if result is not None and result.messages is not None else conv.messages
        stats = result.stats if result is not None else None
        self._remember(key, Turn(conv, [m for m in sent if not is_stand_in(m)], model,
                                 _positive(params.get("tokenBudget")), _positive(params.get("reserveTokens")), fixed,
                                 event, stats))
        notices = list(result.notices) if result else []
        if fixed is not None and stats is not None:
            notices += self._too_small(key, stats, params)
            record_fixed(stats.system_tokens, stats.tool_tokens, stats.window, model.id)
        reply: dict[str, Any] = {"messages": None, "notices": notices,
                                 "stats": stats.as_dict() if stats is not None else {},
                                 "failed": result.failure if result is not None else None,
                                 "estimatedTokens": self._history_tokens(stats, conv)}
        if result is not None and result.messages is not None:
            reply["messages"] = restore(result.messages, conv, host)
            if conv.addition:  # appended to the current turn, which OpenClaw adds itself
                reply["systemPromptAddition"] = conv.addition
        elif conv.commands:  # nothing to compact, but our command rows must not reach the model either
            reply["messages"] = restore(conv.messages, conv, host)
        reply["recall"] = stats is not None and (stats.compacted or stats.compactions > 0)
        return reply

    def _checked(self, key: str, fixed: Fixed | None) -> Fixed | None:
        """OpenClaw's fixed part, its tool schemas left out when they alone outweigh the whole prompt the
        provider last reported: ``llm_input`` can list tools that never reach the wire (OpenClaw's tool
        search catalogs 53 behind a short prompt surface), and counting them would fold the history
        for room the prompt does not need."""
        reported = self.reported.get(key)
        if fixed is None or not fixed.tools or not reported:
            return fixed
        listed = (len(fixed.system) + len(json.dumps(fixed.tools, ensure_ascii=False))) / CHARS_PER_TOKEN_GUESS
        if listed <= reported:
            return fixed
        logger.info("bridge.tools_overstated", session=key, listed_tokens=int(listed), reported_prompt=reported)
        return Fixed(fixed.system, [])

    @staticmethod
    def _history_tokens(stats: CompactionStats | None, conv: Converted) -> int:
        """What the returned history weighs (OpenClaw's ``estimatedTokens``): the prompt sent, without
        the fixed part and the current turn, which OpenClaw counts itself (the turn's messages are the
        last ones, from its user message on: ``stats.turn_tokens``)."""
        if stats is None:
            return 0
        turn = stats.turn_tokens if CURRENT in conv.origin else 0
        return max(0, stats.tokens_after - stats.system_tokens - stats.tool_tokens - turn)

    def _too_small(self, key: str, stats: Any, params: dict[str, Any]) -> list[str]:
        """The notice, once per session, when OpenClaw's own prompt leaves no room in the model's window."""
        fixed, window = stats.system_tokens + stats.tool_tokens, stats.window
        told = self._told.get(key)
        if fixed < stats.trigger or told == window:
            return []
        self._told[key] = window
        message = too_small_message(fixed, window, stats.trigger, stats.system_tokens, stats.tool_tokens)
        logger.warning("bridge.fixed_prompt_too_large", session=key, fixed_tokens=fixed, window=window,
                       trigger=stats.trigger)
        return [message]

    def _remember(self, key: str, turn: Turn) -> None:
        with self.lock:
            self.turns[key] = turn
            self.turns.move_to_end(key)
            while len(self.turns) > 256:
                self.turns.popitem(last=False)

    def commit(self, params: dict[str, Any]) -> dict[str, Any]:
        """A finished turn: feed ``after_turn`` with what was sent, the reply and the usage."""
        runtime, key = self._rt(), str(params.get("sessionKey") or params.get("sessionId") or "default")
        advancement = str(params.get("advancementKey") or "")
        with self.lock:
            if advancement and advancement in self.committed:
                return {"status": "duplicate"}
            if advancement:
                self.committed[advancement] = None
                while len(self.committed) > 4096:
                    self.committed.popitem(last=False)
        rows = [m for m in params.get("messages") or [] if isinstance(m, dict)]
        turn = self.turns.get(key)
        final = rows[-1] if rows and rows[-1].get("role") == "assistant" else None
        middle = [message_to_openai(m)[0] for m in rows[1:-1 if final else None]]
        sent = ([*turn.sent] if turn else [message_to_openai(m)[0] for m in rows[:1]]) + middle
        model = turn.model if turn else ModelInfo(id=str(params.get("model") or "unknown"))
        fixed = (turn.fixed if turn and turn.fixed else Fixed.of(params) if turn is None else None) \
            if runtime.settings.count_host_prompt else None
        usage = self._usage(final, turn, _positive(params.get("contextWindow")), whole=fixed is not None)
        reported = _positive(((final or {}).get("usage") or {}).get("input"))
        if reported:
            with self.lock:
                self.reported[key] = reported
                while len(self.reported) > 4096:
                    self.reported.pop(next(iter(self.reported)))
        event = AfterTurnEvent(messages=sent, model=model, reply=message_to_openai(final)[0] if final else None,
                               usage=usage, system_prompt=fixed.system if fixed else "",
                               tools=fixed.tools if fixed else [],
                               error=str(final.get("errorMessage")) if final and final.get("errorMessage") else None)
        self.pm.hook.after_turn(event=event, ctx=HookContext(session_key=key, runtime=runtime, model=model))
        return {"status": "committed"}

    @staticmethod
    def _usage(final: dict[str, Any] | None, turn: Turn | None, window: int | None, whole: bool = False) -> Usage | None:
        """The provider's prompt tokens, for the part of the prompt the engine saw.

        With OpenClaw's system prompt and tool schemas handed over (``whole``), the report is the
        whole prompt's and is given as it is. Without them no sample is given: calibrating the
        history's characters on the whole prompt's count would make every later estimate too low,
        and a fixed part derived from OpenClaw's budget is skewed by its estimate of the current turn.
        """
        usage = (final or {}).get("usage") or {}
        reported, output = _positive(usage.get("input")), _positive(usage.get("output"))
        if whole:
            return Usage(prompt_tokens=reported, completion_tokens=output) if reported or output else None
        if not reported or turn is None or not (window and turn.budget and turn.reserve):
            return Usage(prompt_tokens=None, completion_tokens=output) if output else None
        fixed = window - turn.reserve - turn.budget
        history = reported - fixed if fixed > 0 else None
        return Usage(prompt_tokens=history if history and history > 0 else None, completion_tokens=output)

    def _ctx(self, params: dict[str, Any]) -> HookContext:
        key = str(params.get("sessionKey") or params.get("sessionId") or "default")
        turn = self.turns.get(key)
        return HookContext(session_key=key, runtime=self._rt(), model=turn.model if turn else ModelInfo())

    def command(self, params: dict[str, Any]) -> dict[str, Any]:
        name = str(params.get("name") or "").lstrip("/")
        found = self.commands.get(name)
        if found is None:
            return {"text": f"context-compactor: no command /{name} (known: {', '.join(sorted(self.commands))})"}
        return {"text": self._run(found, params).text}

    def _run(self, command: Command, params: dict[str, Any]) -> CommandResult:
        ctx = self._ctx(params)
        with time_budget(ctx.runtime.settings_for(ctx.model).summary_timeout_seconds):
            return command.run(str(params.get("args") or "") if command.accepts_args else "", ctx)

    def compact(self, params: dict[str, Any]) -> dict[str, Any]:
        """A forced compaction (OpenClaw's ``/compact``, or its overflow recovery): see :mod:`.openclaw_recovery`."""
        from .openclaw_recovery import compact

        ctx = self._ctx(params)
        turn = self.turns.get(ctx.session_key)
        reply, stats = compact(self.pm, ctx, turn.event if turn else None, turn.stats if turn else None,
                               str(params.get("trigger") or "manual"), _positive(params.get("currentTokenCount")))
        if turn is not None and stats is not None:
            turn.stats = stats  # a compact() again before the next assemble starts from this one
        return reply

    def tool(self, params: dict[str, Any]) -> dict[str, Any]:
        """A call of one of the extensions' tools (``register_tools``), which the plugin registered with OpenClaw."""
        name = str(params.get("name") or "recall_history")
        found = self.tools.get(name)
        if found is None:
            return {"text": f"context-compactor: no tool {name} (known: {', '.join(sorted(self.tools))})"}
        arguments = params.get("arguments")
        event = ToolCallEvent(name, arguments if isinstance(arguments, (str, dict)) else {},
                              call_id=str(params.get("toolCallId") or ""))
        return {"text": found.run(event, self._ctx(params))}

    def tool_call(self, params: dict[str, Any]) -> dict[str, Any]:
        """OpenClaw's ``before_tool_call``: ``{"block": true, "reason": ...}`` when ``before_tool_call`` stops
        the call (the repeated-failure rule), else ``{"block": false}``."""
        event = ToolCallEvent(str(params.get("toolName") or ""), _arguments(params.get("params")),
                              call_id=str(params.get("toolCallId") or ""))
        verdict = self.pm.hook.before_tool_call(event=event, ctx=self._ctx(params))
        if verdict is None:
            return {"block": False}
        return {"block": True, "reason": verdict.reason, "rule": verdict.rule}

    def tool_result(self, params: dict[str, Any]) -> dict[str, Any]:
        """OpenClaw's ``after_tool_call``: its result, read into :class:`AfterToolCallEvent` (see
        :func:`openclaw_tool_result`), for ``after_tool_call``."""
        event = openclaw_tool_result(params)
        self.pm.hook.after_tool_call(event=event, ctx=self._ctx(params))
        return {"status": "recorded"}

    def handle(self, request: dict[str, Any]) -> None:
        number, method = request.get("id"), str(request.get("method") or "")
        handler = {"configure": self.configure, "assemble": self.assemble, "commit": self.commit,
                   "command": self.command, "compact": self.compact, "tool": self.tool, "recall": self.tool,
                   "toolCall": self.tool_call, "toolResult": self.tool_result, "ping": lambda p: {"pong": True}}.get(method)
        try:
            if handler is None:
                raise CompactorError(f"unknown method {method!r}")
            with self.channel.serving(number):
                result = handler(dict(request.get("params") or {}))
            # Inside the try: a result that cannot be written (NaN, too deep) is an error reply too.
            self.channel.send({"id": number, "result": result})
        except Exception as exc:  # noqa: BLE001 - every failure becomes an error reply: the plugin fails open
            logger.warning("bridge.failed", method=method, error=f"{type(exc).__name__}: {exc}")
            self.channel.reply_error(number, f"{type(exc).__name__}: {exc}")

    def close(self) -> None:
        if self.runtime is not None:
            self.runtime.close()



def summary_prompt_opening() -> str:
    """How the system prompt of every summary call of ours opens: the plugin tells those calls from the
    agent's own in OpenClaw's ``llm_input`` hook by it (the prompts are defined once, in Python)."""
    from .summarizer import prompts

    return os.path.commonprefix([prompts.CHUNK_SYSTEM, prompts.MERGE_SYSTEM]).strip()


def _arguments(value: Any) -> str | dict[str, Any]:
    return value if isinstance(value, (str, dict)) else {}


def openclaw_tool_result(params: dict[str, Any]) -> AfterToolCallEvent:
    """OpenClaw's ``after_tool_call`` event (``toolName``, ``params``, ``result``, ``error``) as ours: the
    result's text parts joined, its error flags (``isError``, ``details.isError``, ``details.status``
    "error" or "failed", a non-zero ``details.exitCode``) as ``is_error``, and the error the tool raised
    (or ``details.error``) as ``error``."""
    result = params.get("result")
    details = result.get("details") if isinstance(result, dict) else None
    details = details if isinstance(details, dict) else {}
    if isinstance(result, dict) and isinstance(result.get("content"), list):
        text = "\n".join(str(part.get("text") or "") for part in result["content"] if isinstance(part, dict))
    else:
        text = result if isinstance(result, str) else ""
    exit_code = details.get("exitCode")
    flagged = (isinstance(result, dict) and result.get("isError") is True) or details.get("isError") is True or \
        details.get("status") in ("error", "failed") or \
        (isinstance(exit_code, int) and not isinstance(exit_code, bool) and exit_code != 0)
    error = params.get("error") or details.get("error")
    return AfterToolCallEvent(str(params.get("toolName") or ""), _arguments(params.get("params")), text,
                              str(error) if error else None, bool(flagged), str(params.get("toolCallId") or ""))


def _positive(value: Any) -> int | None:
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0 else None


def serve(reader: IO[bytes], writer: IO[str], workers: int = 8) -> None:
    """Answer requests until ``reader`` ends; ``configure`` and ``ping`` are answered in order."""
    channel = Channel(reader, writer)
    bridge = Bridge(channel)
    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="bridge")
    try:
        for request in channel.messages():
            if request.get("method") in ("configure", "ping"):
                bridge.handle(request)
            else:
                pool.submit(bridge.handle, request)
    finally:
        pool.shutdown(wait=True, cancel_futures=False)
        bridge.close()


def main() -> int:
    import logging

    protocol = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    os.dup2(2, 1)  # anything printed by accident lands in the log, not in the protocol
    from .logs import configure_logging  # the one logging setup of every entry point

    configure_logging(logging.DEBUG if os.environ.get("CONTEXT_COMPACTOR_DEBUG") else logging.INFO)
    logger.info("bridge.started", pid=os.getpid(), python=sys.executable)
    try:
        serve(sys.stdin.buffer, protocol)
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
