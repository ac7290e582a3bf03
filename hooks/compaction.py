"""``before_agent_start``: measure the prompt and, over the trigger, hand back the projection.

A result comes back on every call, quiet ones included: the messages to send (None: unchanged),
typed :class:`~context_compactor.hookspecs.CompactionStats`, the notices, and the failure, if any.
Hosts read those fields; they never look into the session or the log.

Once a turn is compacted, automatic recall (issue 12, item 3): when the user's new message
strongly matches archived text that is no longer in the prompt, a short cited snippet (at most
``recall.AUTO_MAX_TOKENS``) goes in front of that message, and only while the prompt stays under the
trigger. It stays in front of that message on later turns while the message is kept (and it fits):
the prompt up to the next user message is then the bytes the server read last turn (issue 28: a
snippet that left its message again made a local server re-read from there every turn). Nothing is
added to a turn that was not compacted.

Fails open: any exception becomes one structured warning, ``compaction.failed``, and a result
with ``failure`` set and no messages, so the host sends the full history, as if we were not there.
"""

from __future__ import annotations


from dataclasses import replace
from typing import Any

from context_compactor.archive import message_text
from context_compactor.hookspecs import (BeforeAgentStartEvent, BeforeAgentStartResult, CompactionStats, HookContext,
                                        hookimpl)
from context_compactor.logs import get_logger
from context_compactor.turn_record import failure_notice, unchanged_stats

from . import recall

logger = get_logger()


@hookimpl
def before_agent_start(event: BeforeAgentStartEvent, ctx: HookContext) -> BeforeAgentStartResult:
    runtime = ctx.runtime
    session = None
    try:
        if not runtime.settings_for(event.model).enabled:
            measured = unchanged_stats(runtime, event, ctx.session_key)
            return BeforeAgentStartResult(notices=list(measured.notices), stats=measured)
        session = runtime.session(ctx.session_key)
        with session.lock:
            outcome = session.compact(event, runtime)
            stats, sent = session.last.stats, session.sent  # sent: with the agent-loop transforms
            if outcome.compacted and sent is not None and stats is not None:
                sent, stats = _with_recall(event, ctx, sent, stats, session)
                session.last.stats = stats
    except Exception as exc:  # noqa: BLE001 - fail open, by contract
        error = f"{type(exc).__name__}: {exc}"
        logger.warning("compaction.failed", session=ctx.session_key, error=error)
        return _failed(event, ctx, error)
    finally:
        _index_later(ctx, session)
    return BeforeAgentStartResult(messages=sent, notices=outcome.notices, stats=stats)


def _failed(event: BeforeAgentStartEvent, ctx: HookContext, error: str) -> BeforeAgentStartResult:
    """The result of a call whose compaction failed: the prompt unchanged, measured when that still works."""
    try:
        stats: CompactionStats | None = unchanged_stats(ctx.runtime, event, ctx.session_key, failure=error)
    except Exception as exc:  # noqa: BLE001 - the failure is reported without figures
        logger.warning("compaction.unmeasured", session=ctx.session_key, error=f"{type(exc).__name__}: {exc}")
        stats = None
    notices = list(stats.notices) if stats is not None else [failure_notice(error, "the full history is sent unchanged")]
    return BeforeAgentStartResult(notices=notices, stats=stats, failure=error)


def _index_later(ctx: HookContext, session: Any) -> None:
    """Index what this turn archived in the background, started only now: an indexer running
    beside the compaction would take the store's lock and the CPU from the turn itself."""
    if session is not None and session.archived_new:
        session.archived_new = False
        ctx.runtime.index_soon()


def _with_recall(event: BeforeAgentStartEvent, ctx: HookContext, messages: list[Any], stats: CompactionStats,
                 session: Any) -> tuple[list[Any], CompactionStats]:
    """The projection with an automatic-recall snippet in front of the user's latest message, when one is due
    and fits: there, not in the ledger block, the prompt before that message stays byte-identical from
    turn to turn and a local server reuses its cache up to it (in the block it re-read the whole kept tail)."""
    last = event.messages[-1] if event.messages else None
    try:
        count = session.measurer.text_tokens if session.measurer is not None else (lambda t: len(t) // 4)
        # The snippets of earlier turns stay where they were put, inside a tool loop too: left out there
        # and put back on the next user message, they rewrote the prompt from that message twice.
        messages, stats = _earlier_recalls(messages, stats, session, count)
        if not isinstance(last, dict) or last.get("role") != "user":
            return messages, stats  # inside a tool loop: no new message from the user to match
        sent = {id(m) for m in messages}
        kept = [i for i, m in enumerate(event.messages) if id(m) in sent]
        got = recall.auto_recall(ctx.runtime.store, ctx.session_key, message_text(last), kept,
                                 recall.prompt_text(messages), count)
        if got is None:
            return messages, stats
        cost = count(got.text) + 1
        if stats.tokens_after + cost > min(stats.trigger, stats.window):
            return messages, stats
        if messages[-1] is not last:
            return messages, stats
        out = list(messages)
        out[-1] = _prefixed(last, got.text)
        session.recalls[_recall_key(last)] = got.text
    except Exception as exc:  # noqa: BLE001 - recall is a bonus: the compacted prompt goes out without it
        logger.warning("recall.auto_failed", session=ctx.session_key, error=f"{type(exc).__name__}: {exc}")
        return messages, stats
    logger.info("recall.auto", session=ctx.session_key, cited=list(got.cited), tokens=cost)
    return out, replace(stats, tokens_after=stats.tokens_after + cost)


def _recall_key(message: dict[str, Any]) -> int:
    """A user message by its text (hosts send new objects every turn, and the projection may hold copies)."""
    return hash(message_text(message))


def _earlier_recalls(messages: list[Any], stats: CompactionStats, session: Any,
                     count: Any) -> tuple[list[Any], CompactionStats]:
    """The snippets of earlier turns put back in front of their messages, those still sent (each before the
    last such message but the new one), from the first in the prompt while they fit: the prompt stays the
    same up to the first one left out. The snippets of messages no longer sent, or left out, are forgotten."""
    at = {_recall_key(m): n for n, m in enumerate(messages[:-1]) if isinstance(m, dict) and m.get("role") == "user"}
    out, cost = list(messages), 0
    kept: dict[int, str] = {}
    for key, text in sorted(((k, t) for k, t in session.recalls.items() if k in at), key=lambda kt: at[kt[0]]):
        more = count(text) + 1
        if stats.tokens_after + cost + more > min(stats.trigger, stats.window):
            break
        out[at[key]] = _prefixed(messages[at[key]], text)
        cost, kept[key] = cost + more, text
    session.recalls = kept
    return (out, replace(stats, tokens_after=stats.tokens_after + cost)) if kept else (messages, stats)


def _prefixed(message: dict[str, Any], text: str) -> dict[str, Any]:
    """A copy of the user's ``message`` with ``text`` in front of what they wrote (a text part of its own
    when the content is a list of parts)."""
    changed = dict(message)
    content = message.get("content")
    if isinstance(content, str):
        changed["content"] = f"{text}\n\n{content}"
    elif isinstance(content, list):
        changed["content"] = [{"type": "text", "text": text}, *content]
    else:
        return message
    return changed
