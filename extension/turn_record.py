"""What a session knows of its last model call (:class:`LastTurn`, for ``/context-stats`` and the next turn),
the figures of a call the engine did not change (:func:`unchanged_stats`: compaction off, or failed), and
what the user is told when a summary model or a compaction failed."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Protocol

from .engine import Measurer, budget_for
from .engine.measure import Measurement
from .engine.summaries import Runner, SummaryReport
from .settings import Settings
from .store import Store
from .tokens import Counter
from .turn_types import BeforeAgentStartEvent, CompactionStats, ModelInfo


class Runtime(Protocol):
    """What :func:`unchanged_stats` uses of the runtime (named here: the runtime imports the session)."""

    def settings_for(self, model: ModelInfo) -> Settings: ...

    def counter_for(self, settings: Settings, model: ModelInfo) -> Counter: ...

    def window_for(self, settings: Settings, model: ModelInfo) -> tuple[int, str]: ...


class Services(Runtime, Protocol):
    """What a session uses of the runtime that holds it (named here, as :class:`Runtime` is)."""

    store: Store
    persist_sessions: bool
    fallback: Any  # the built-in summarizer
    window_notes: dict[str, str]

    @property
    def background(self) -> Runner: ...

    def fixed_overhead(self, session_key: str) -> int: ...

    def summarizer_for(self, settings: Settings, model: ModelInfo) -> Any: ...

    def save_session(self, session: Any) -> None:  # a Session (session.py imports this module)
        ...


def fallback_notice(report: SummaryReport, timeout: float) -> str:
    """What the user is told when some chunks used the built-in summary instead of the model's."""
    kinds = ", ".join(f"{kind} {n}" for kind, n in sorted(report.failures.items()))
    n = report.fallbacks
    if set(report.failures) == {"timeout"}:
        return (f"context-compactor: the summary model did not answer within {timeout:g}s; {n} summary part(s) use "
                "the built-in summary for now, and the model's summary is used from the next turn on")
    if set(report.failures) == {"backoff"}:
        return (f"context-compactor: the summary model is paused after repeated failures; {n} summary part(s) "
                f"use the built-in summary ({report.errors[-1]})")
    return (f"context-compactor: the summary model failed ({kinds}); {n} summary part(s) use the built-in "
            f"summary this turn. Last error: {report.errors[-1][:200]}")


@dataclass
class LastTurn:
    """What a session knows of its last model call, for ``/context-stats`` and the next turn.

    ``stats`` is the decision ``before_agent_start`` made (None before the first turn, or when the
    hook did not run the engine); the rest is filled in around it: by the session (``summarizer``,
    who writes its summaries; ``window_note``, what the window probe found; ``precompact_at``, when
    pre-summarization starts, as a share of the trigger) and by ``after_turn`` (the provider's own
    count of the prompt, our estimate of that same prompt, the estimate with the recalibrated
    ratio, and the provider's error).
    """

    stats: CompactionStats | None = None
    summarizer: str = "extractive"
    window_note: str | None = None
    precompact_at: float | None = None
    measured_tokens: int | None = None
    measured_estimate: int | None = None
    calibrated_estimate: int | None = None
    error: str | None = None
    thinking_saved: int = 0  # tokens of earlier thinking left out of the last prompt
    failed_folded: int = 0  # older failed calls shown as one line in it
    side_dropped: int = 0  # messages of earlier /btw side questions left out of it
    reminded: bool = False  # the open tasks (or the save-state request) were restated in it

    # Transitional: the dict this class replaced was read and written by key in modules not yet
    # moved to the attributes. The old keys map here; anything else is a KeyError.
    def __getitem__(self, key: str) -> Any:
        if key in _OWN:
            return getattr(self, key)
        name = _STATS_KEYS.get(key, key)
        if self.stats is None or name not in _STATS_NAMES:
            raise KeyError(key)
        value = getattr(self.stats, name)
        return dict(value) if name == "roles" else list(value) if name == "notices" else value

    def get(self, key: str, default: Any = None) -> Any:
        try:
            value = self[key]
        except KeyError:
            return default
        return default if value is None else value

    def __setitem__(self, key: str, value: Any) -> None:
        if key not in _OWN:
            raise KeyError(f"{key}: not a field of LastTurn (the turn's figures are in .stats, read-only)")
        setattr(self, key, value)


_OWN = frozenset(f.name for f in fields(LastTurn)) - {"stats"}
_STATS_NAMES = frozenset(f.name for f in fields(CompactionStats))
_STATS_KEYS = {"tokens": "tokens_before", "sent_tokens": "tokens_after", "ratio": "chars_per_token"}


def _turn_tokens(m: Measurement) -> int:
    """The current turn's tokens: the last user message and what follows it."""
    for i in range(len(m.entries) - 1, -1, -1):
        if m.entries[i].view.role == "user":
            return m.span(i, len(m.entries))
    return 0


def _reported(stats: CompactionStats, previous: LastTurn) -> CompactionStats:
    """``stats`` with the provider's latest report on this session's prompts (see ``CompactionStats``)."""
    if previous.measured_tokens:
        return replace(stats, reported_tokens=previous.measured_tokens,
                       reported_estimate=previous.calibrated_estimate or previous.measured_estimate)
    if previous.stats is not None and previous.stats.reported_tokens:  # no report since: the last one holds
        return replace(stats, reported_tokens=previous.stats.reported_tokens,
                       reported_estimate=previous.stats.reported_estimate)
    return stats


def unchanged_stats(runtime: Runtime, event: BeforeAgentStartEvent, session_key: str,
                    failure: str | None = None) -> CompactionStats:
    """The figures of a call the engine did not change: compaction is off, or it failed (``failure``:
    its error). The prompt is measured as it is, with a fresh measurer; a notice says when it is above
    the window, or when a failed compaction was due (over the trigger)."""
    settings = runtime.settings_for(event.model)
    counter = runtime.counter_for(settings, event.model)
    m = Measurer(counter, settings.message_overhead_tokens).measure(event.messages, event.system_prompt, event.tools)
    total = m.total
    window, source = runtime.window_for(settings, event.model)
    budget = budget_for(window, source, max_tokens=settings.max_tokens,
                        compact_at=settings.compact_at, compact_to=settings.compact_to)
    fits = total <= window
    reason = None if fits else (f"the prompt ({total:,} tokens) is above the {window:,}-token window and "
                                f"{'compaction failed' if failure else 'was not compacted'}")
    notices: tuple[str, ...] = () if fits else (f"context-compactor: cannot fit: {reason}",)
    if failure and fits and total > budget.trigger:
        notices = (failure_notice(failure, f"the prompt ({total:,} tokens, over the {budget.trigger:,}-token "
                                           "trigger) is sent unchanged"),)
    elif failure and not fits:
        notices = (failure_notice(failure, "the prompt is sent unchanged"), *notices)
    return CompactionStats(session=session_key, tokens_before=total, tokens_after=total, window=window,
                           window_source=source, trigger=budget.trigger, target=budget.target, fits=fits,
                           reason=reason, notices=notices, messages=len(m.entries),
                           roles=tuple(sorted(m.roles.items())), system_tokens=m.system_tokens,
                           tool_tokens=m.tool_tokens, tokenizer=counter.name, chars_per_token=counter.ratio,
                           turn_tokens=_turn_tokens(m))


def failure_notice(failure: str, what: str) -> str:
    """What the user is told when compaction failed on a call (``what``: what is sent instead)."""
    return f"context-compactor: compaction failed this turn ({failure[:200]}); {what}"
