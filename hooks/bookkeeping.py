"""``after_turn``: learn the model's chars-per-token ratio from what the provider reported."""

from __future__ import annotations

import structlog

from context_compactor.engine import Measurer
from context_compactor.hookspecs import AfterTurnEvent, HookContext, hookimpl
from context_compactor.tokens import CharCounter, calibrated_ratio

logger = structlog.get_logger("context_compactor")


@hookimpl
def after_turn(event: AfterTurnEvent, ctx: HookContext) -> None:
    try:
        _record(event, ctx)
    except Exception as exc:  # noqa: BLE001 - bookkeeping never breaks a turn
        logger.warning("after_turn.failed", session=ctx.session_key, error=f"{type(exc).__name__}: {exc}")


def _record(event: AfterTurnEvent, ctx: HookContext) -> None:
    runtime = ctx.runtime
    session = runtime.session(ctx.session_key)
    reported = event.usage.prompt_tokens if event.usage else None
    session.last["measured_tokens"] = reported
    session.last["error"] = event.error
    if not reported:
        return
    settings = runtime.settings_for(event.model)
    # Characters of what was actually sent (measured with a 1:1 "ratio": units are characters).
    if session.chars_measurer is None:
        session.chars_measurer = Measurer(CharCounter(1.0), overhead_tokens=0)
    chars = session.chars_measurer.measure(event.messages, event.system_prompt, event.tools)
    session.last["measured_estimate"] = session.last.get("sent_tokens")
    if settings.tokenizer != "chars" or not settings.calibrate:
        return
    current = runtime.calibration(event.model.id)
    ratio = current[0] if current else settings.chars_per_token
    overhead = settings.message_overhead_tokens * len(event.messages)
    updated = calibrated_ratio(ratio, chars.total, reported, overhead)
    if updated is not None and updated != ratio:
        runtime.learn_ratio(event.model.id, updated)
        logger.info("calibration.updated", model=event.model.id, ratio=updated, reported=reported, chars=chars.total)
