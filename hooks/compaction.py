"""``before_agent_start``: measure the prompt and, over the trigger, hand back the projection.

A result (with typed :class:`~context_compactor.hookspecs.CompactionStats`) comes back whenever
the prompt changed, there is something to tell the user, or the prompt cannot fit the window;
a quiet unchanged turn returns None, so other extensions may still answer.

Fails open: any exception becomes one structured warning and "no change", so the host sends the
full history, as if we were not there.
"""

from __future__ import annotations

import structlog

from context_compactor.hookspecs import BeforeAgentStartEvent, BeforeAgentStartResult, HookContext, hookimpl

logger = structlog.get_logger("context_compactor")


@hookimpl
def before_agent_start(event: BeforeAgentStartEvent, ctx: HookContext) -> BeforeAgentStartResult | None:
    runtime = ctx.runtime
    try:
        if not runtime.settings_for(event.model).enabled:
            return None
        session = runtime.session(ctx.session_key)
        with session.lock:
            outcome = session.compact(event, runtime)
            stats = session.last.stats
    except Exception as exc:  # noqa: BLE001 - fail open, by contract
        logger.warning("compaction.failed", session=ctx.session_key, error=f"{type(exc).__name__}: {exc}")
        return None
    if not outcome.compacted and not outcome.notices and outcome.fits:
        return None
    return BeforeAgentStartResult(messages=outcome.messages, notices=outcome.notices, stats=stats)
