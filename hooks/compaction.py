"""``before_agent_start``: measure the prompt and, over the trigger, hand back the projection.

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
    except Exception as exc:  # noqa: BLE001 - fail open, by contract
        logger.warning("compaction.failed", session=ctx.session_key, error=f"{type(exc).__name__}: {exc}")
        return None
    stats = {
        "tokens_before": outcome.tokens_before, "tokens_after": outcome.tokens_after,
        "compacted": outcome.compacted, "stage": outcome.plan.stage, "folded": outcome.folded,
        "window": session.last["window"], "window_source": session.last["window_source"],
        "trigger": session.last["trigger"], "target": session.last["target"],
    }
    if outcome.report is not None:
        stats.update(chunks=outcome.report.chunks, cache_hits=outcome.report.cache_hits,
                     summarizer=outcome.report.summarizer, fallbacks=outcome.report.fallbacks)
    if not outcome.compacted and not outcome.notices:
        return None
    return BeforeAgentStartResult(messages=outcome.messages, notices=outcome.notices, stats=stats)
