"""The tool hooks: ``register_tools`` (``recall_history``), ``before_tool_call`` and ``after_tool_call``.

The repeated-failure rule (``refuseRepeatedFailures``, issue 13) lives here once for every host: a
call that already failed :data:`~context_compactor.tool_calls.REFUSE_AFTER` times exactly as written (same
tool, same arguments, key order ignored) is not run again; the model gets the reason and the last
error instead. Failures are counted in the conversation the host hands over (``serve``), or in what
``after_tool_call`` reported for the session (OpenClaw's plugin, through the bridge); "failed" is
:func:`~context_compactor.tool_calls.failure_line` in both.
"""

from __future__ import annotations

from context_compactor.hookspecs import (AfterToolCallEvent, HookContext, Tool, ToolCallEvent, ToolCallVerdict,
                                        hookimpl)
from context_compactor.logs import get_logger
from context_compactor.tool_calls import REFUSE_AFTER, arguments_text, call_failures, call_key, failure_line, refusal
from context_compactor.messages import ToolCall

from . import recall

logger = get_logger()

REFUSE_RULE = "refuse-repeated-failures"


def _recall(event: ToolCallEvent, ctx: HookContext) -> str:
    """One call of ``recall_history``: the session's archive, searched or read. A session the client did not
    name may share its key with another client: it reads back only what its own request carries."""
    carried = recall.carried_by(event.messages) if recall.unnamed(ctx.session_key) and event.messages else None
    try:
        return recall.answer(ctx.runtime.store, ctx.session_key, event.arguments, carried)
    except Exception as exc:  # noqa: BLE001 - a tool answers; it never raises into the host's turn
        logger.warning("recall.failed", session=ctx.session_key, error=f"{type(exc).__name__}: {exc}")
        return f"{recall.TOOL_NAME} is not available: {type(exc).__name__}: {exc}"


RECALL = Tool(recall.TOOL_NAME, recall.DESCRIPTION, recall.PARAMETERS, _recall, after_compaction=True)


@hookimpl
def register_tools() -> list[Tool]:
    return [RECALL]


@hookimpl
def before_tool_call(event: ToolCallEvent, ctx: HookContext) -> ToolCallVerdict | None:
    try:
        if not ctx.runtime.settings_for(ctx.model).refuse_repeated_failures:
            return None
        args = arguments_text(event.arguments)
        if event.messages is not None:
            count, line = call_failures(event.messages, event.name, args)
        else:
            count, line = ctx.runtime.session(ctx.session_key).loop.failed_calls.get(event.name, args)
        reason = refusal(event.name, args, {call_key(event.name, args): (count, line)}, REFUSE_AFTER)
    except Exception as exc:  # noqa: BLE001 - a rule that fails lets the call run
        logger.warning("tool_call.check_failed", session=ctx.session_key, tool=event.name,
                       error=f"{type(exc).__name__}: {exc}")
        return None
    if reason is None:
        return None
    logger.info("tool_call.refused", session=ctx.session_key, tool=event.name, rule=REFUSE_RULE, failures=count)
    return ToolCallVerdict(reason, REFUSE_RULE)


@hookimpl
def after_tool_call(event: AfterToolCallEvent, ctx: HookContext) -> None:
    try:
        line = result_failure(event)
        if line is not None:
            failed = ctx.runtime.session(ctx.session_key).loop.failed_calls
            failed.add(event.name, arguments_text(event.arguments), line)
    except Exception as exc:  # noqa: BLE001 - bookkeeping never breaks a tool call
        logger.warning("tool_call.record_failed", session=ctx.session_key, tool=event.name,
                       error=f"{type(exc).__name__}: {exc}")


def result_failure(event: AfterToolCallEvent) -> str | None:
    """The error line of a call that failed, as :func:`failure_line` reads a tool result in a history; None
    when it did not fail. The host's own error, when it gave one, is the line."""
    text = event.result if event.result.strip() else (event.error or "")
    message = {"role": "tool", "tool_call_id": event.call_id, "content": text,
               "is_error": event.is_error or bool(event.error)}
    line = failure_line(message, ToolCall(event.call_id, event.name, arguments_text(event.arguments)))
    if line is None:
        return None
    return event.error.strip()[:300] if event.error and event.error.strip() else line
