"""``after_turn``: calibrate from reported usage, learn a stated window, start pre-summarization.

- The model's chars-per-token ratio moves toward what the provider reported for the prompt that
  was sent (clamped, persisted); ``/context-stats`` then shows our estimate beside the count.
- A provider error that states the context size ("maximum context length is N tokens") teaches
  the runtime the model's real window (source ``error``).
- When the prompt has passed ``precompactAt`` of the trigger, the chunk summaries the next
  compaction will need are made in the background (:mod:`context_compactor.presummarize`).
"""

from __future__ import annotations

import math
import re

import structlog

from context_compactor.engine import Measurer
from context_compactor.hookspecs import AfterTurnEvent, HookContext, hookimpl
from context_compactor.presummarize import schedule
from context_compactor.tokens import CharCounter, calibrated_ratio

logger = structlog.get_logger("context_compactor")

_STATED_WINDOW = re.compile(r"maximum context length is (\d{3,7}) tokens|context window of (\d{3,7})", re.IGNORECASE)


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
    session.last["measured_tokens"] = reported
    session.last["error"] = event.error
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
    session.last["measured_estimate"] = math.ceil(chars.total / ratio) + overhead
    if settings.tokenizer != "chars" or not settings.calibrate:
        return
    updated = calibrated_ratio(ratio, chars.total, reported, overhead)
    if updated is not None and updated != ratio:
        runtime.learn_ratio(event.model.id, updated)
        session.last["calibrated_estimate"] = math.ceil(chars.total / updated) + overhead
        logger.info("calibration.updated", model=event.model.id, ratio=updated, reported=reported, chars=chars.total)


def _learn_window(event: AfterTurnEvent, ctx: HookContext) -> None:
    if not event.error:
        return
    found = _STATED_WINDOW.search(event.error)
    if found:
        window = int(found.group(1) or found.group(2))
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
