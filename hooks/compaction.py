"""``before_agent_start``: measure the prompt and, over the trigger, hand back the projection.

A result (with typed :class:`~context_compactor.hookspecs.CompactionStats`) comes back whenever
the prompt changed, there is something to tell the user, or the prompt cannot fit the window;
a quiet unchanged turn returns None, so other extensions may still answer.

Once a turn is compacted, automatic recall (issue 12, item 3): when the user's new message
strongly matches archived text that is no longer in the prompt, a short cited snippet (at most
``recall.AUTO_MAX_TOKENS``) goes into the ledger block, and only while the prompt stays under the
trigger. Nothing is added to a turn that was not compacted.

Fails open: any exception becomes one structured warning and "no change", so the host sends the
full history, as if we were not there.
"""

from __future__ import annotations

import re

from dataclasses import replace
from typing import Any

from context_compactor.archive import message_text
from context_compactor.hookspecs import (BeforeAgentStartEvent, BeforeAgentStartResult, CompactionStats, HookContext,
                                        hookimpl)
from context_compactor.logs import get_logger

from . import recall

logger = get_logger()


@hookimpl
def before_agent_start(event: BeforeAgentStartEvent, ctx: HookContext) -> BeforeAgentStartResult | None:
    runtime = ctx.runtime
    session = None
    try:
        if not runtime.settings_for(event.model).enabled:
            return None
        session = runtime.session(ctx.session_key)
        with session.lock:
            outcome = session.compact(event, runtime)
            stats, sent = session.last.stats, session.sent  # sent: with the agent-loop transforms
            if outcome.compacted and sent is not None and stats is not None:
                sent, stats = _with_recall(event, ctx, sent, stats, session)
                session.last.stats = stats
    except Exception as exc:  # noqa: BLE001 - fail open, by contract
        logger.warning("compaction.failed", session=ctx.session_key, error=f"{type(exc).__name__}: {exc}")
        return None
    finally:
        _index_later(ctx, session)
    if sent is None and not outcome.notices and outcome.fits:
        return None
    return BeforeAgentStartResult(messages=sent, notices=outcome.notices, stats=stats)


END_OF_LEDGER = "[end of ledger]"


def _index_later(ctx: HookContext, session: Any) -> None:
    """Index what this turn archived in the background, started only now: an indexer running
    beside the compaction would take the store's lock and the CPU from the turn itself."""
    if session is not None and session.archived_new:
        session.archived_new = False
        ctx.runtime.index_soon()


def _with_recall(event: BeforeAgentStartEvent, ctx: HookContext, messages: list[Any], stats: CompactionStats,
                 session: Any) -> tuple[list[Any], CompactionStats]:
    """The projection with an automatic-recall snippet in its ledger block, when one is due and fits."""
    last = event.messages[-1] if event.messages else None
    if not isinstance(last, dict) or last.get("role") != "user":
        return messages, stats  # inside a tool loop: no new message from the user to match
    try:
        sent = {id(m) for m in messages}
        kept = [i for i, m in enumerate(event.messages) if id(m) in sent]
        count = session.measurer.text_tokens if session.measurer is not None else (lambda t: len(t) // 4)
        got = recall.auto_recall(ctx.runtime.store, ctx.session_key, message_text(last), kept,
                                 recall.prompt_text(messages), count)
        if got is None:
            return messages, stats
        cost = count(got.text) + 1
        if stats.tokens_after + cost > min(stats.trigger, stats.window):
            return messages, stats
        at = next((i for i, m in enumerate(messages) if id(m) not in {id(x) for x in event.messages}
                   and END_OF_LEDGER in message_text(m)), None)
        if at is None:
            return messages, stats
        out = list(messages)
        out[at] = _insert(messages[at], got.text)
    except Exception as exc:  # noqa: BLE001 - recall is a bonus: the compacted prompt goes out without it
        logger.warning("recall.auto_failed", session=ctx.session_key, error=f"{type(exc).__name__}: {exc}")
        return messages, stats
    logger.info("recall.auto", session=ctx.session_key, cited=list(got.cited), tokens=cost)
    return out, replace(stats, tokens_after=stats.tokens_after + cost)


_END_LINE = re.compile(r"^\[end of ledger\]$", re.MULTILINE)


def _insert(message: dict[str, Any], text: str) -> dict[str, Any]:
    """A copy of ``message`` with ``text`` just before the ledger's own end line (a line of its own: the
    marker quoted inside an item or a message never is one)."""
    def put(s: str) -> str:
        end = _END_LINE.search(s)
        return s if end is None else f"{s[:end.start()]}{text}\n{s[end.start():]}"

    changed = dict(message)
    content = message.get("content")
    if isinstance(content, str):
        changed["content"] = put(content)
    elif isinstance(content, list):
        parts = list(content)
        for i, part in enumerate(parts):
            if isinstance(part, dict) and isinstance(part.get("text"), str) and END_OF_LEDGER in part["text"]:
                parts[i] = {**part, "text": put(part["text"])}
                break
        changed["content"] = parts
    return changed
