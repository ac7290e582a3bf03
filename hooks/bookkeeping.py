"""``after_turn``: calibrate from reported usage, learn a stated window, start pre-summarization.

- The model's chars-per-token ratio moves toward what the provider reported for the prompt that
  was sent (clamped, persisted); ``/context-stats`` then shows our estimate beside the count.
- A provider error that states the context size (any wording :mod:`context_compactor.windows`
  knows) teaches the runtime the model's real window (source ``error``); a later prompt the
  provider accepted that was larger than that window lifts it again (the server says otherwise).
- Where the host keeps the system prompt and tool schemas to itself (it handed over neither), the
  provider's count minus our estimate of the messages is the session's fixed overhead
  (:meth:`Runtime.fixed_overhead`); calibration then takes it off the count first.
- When the prompt has passed ``precompactAt`` of the trigger, the chunk summaries the next
  compaction will need are made in the background (:mod:`context_compactor.presummarize`).
"""

from __future__ import annotations

import math

from context_compactor.engine import Measurer
from context_compactor.hookspecs import AfterTurnEvent, HookContext, hookimpl
from context_compactor.logs import get_logger
from context_compactor.presummarize import schedule
from context_compactor.tokens import CharCounter, calibrated_ratio
from context_compactor.windows import stated_window

logger = get_logger()


@hookimpl
def after_turn(event: AfterTurnEvent, ctx: HookContext) -> None:
    try:
        _record(event, ctx)
        _learn_window(event, ctx)
        _presummarize(event, ctx)
    except Exception as exc:  # noqa: BLE001 - bookkeeping never breaks a turn
        logger.warning("after_turn.failed", session=ctx.session_key, error=f"{type(exc).__name__}: {exc}")


def _record(event: AfterTurnEvent, ctx: HookContext) -> None:
    runtime = ctx.runtime
    session = runtime.session(ctx.session_key)
    reported = event.usage.prompt_tokens if event.usage else None
    session.last.measured_tokens = reported
    session.last.error = event.error
    if not reported:
        return
    settings = runtime.settings_for(event.model)
    # Characters of what was actually sent (measured with a 1:1 "ratio": units are characters).
    if session.chars_measurer is None:
        session.chars_measurer = Measurer(CharCounter(1.0), overhead_tokens=0)
    chars = session.chars_measurer.measure(event.messages, event.system_prompt, event.tools)
    overhead = settings.message_overhead_tokens * len(event.messages)
    current = runtime.calibration(event.model.id)
    ratio = current[0] if current else settings.chars_per_token
    hidden = _hidden_prompt(event)
    known = runtime.fixed_overhead(ctx.session_key) if hidden else 0
    session.last.measured_estimate = math.ceil(chars.total / ratio) + overhead + known
    runtime.lift_window(event.model.id, reported)
    if hidden:  # calibrate the ratio on what the host handed over, the fixed part taken off the count
        overhead += runtime.learn_overhead(ctx.session_key, chars.total, overhead, reported, ratio)
    if settings.tokenizer not in ("chars", "server") or not settings.calibrate:
        return
    updated = calibrated_ratio(ratio, chars.total, reported, overhead)
    if updated is not None and updated != ratio:
        runtime.learn_ratio(event.model.id, updated)
        session.last.calibrated_estimate = math.ceil(chars.total / updated) + overhead
        logger.info("calibration.updated", model=event.model.id, ratio=updated, reported=reported, chars=chars.total)


def _hidden_prompt(event: AfterTurnEvent) -> bool:
    """Whether the host kept the system prompt and the tool schemas to itself (the provider saw more)."""
    first = event.messages[0] if event.messages else None
    leading_system = isinstance(first, dict) and first.get("role") in ("system", "developer")
    return not event.system_prompt and not event.tools and not leading_system


def _learn_window(event: AfterTurnEvent, ctx: HookContext) -> None:
    window = stated_window(event.error)
    if window:
        ctx.runtime.learn_window(event.model.id, window, "error")
        logger.info("window.learned", model=event.model.id, window=window, source="error")


def _presummarize(event: AfterTurnEvent, ctx: HookContext) -> None:
    if event.error:
        return
    runtime = ctx.runtime
    session = runtime.session(ctx.session_key)
    if not runtime.settings_for(event.model).enabled:
        return
    with session.lock:
        schedule(runtime, session, event.model)
