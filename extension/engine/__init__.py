"""The engine: measure -> plan -> summarize -> project. It knows nothing of HTTP, files or hosts.

:func:`compact` takes a measured prompt, a budget, a summary service and an archive function, and
returns an :class:`Outcome`: the projection (or None for "send the history unchanged") and the
figures of the decision. Every message that leaves the prompt is handed to ``archive`` before the
projection is returned; if archiving raises, nothing is returned.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .measure import Entry, Measurement, Measurer
from .plan import BLOCK_FRAME_TOKENS, MARKER_TOKENS, Budget, Plan, Planner, budget_for, reuse, shape_of
from .project import build, changed_entries, summary_block
from .summaries import SummaryReport, Summaries

__all__ = ["Budget", "Measurer", "Outcome", "Plan", "Tiers", "Tuning", "budget_for", "compact"]


MIN_SUMMARY_TOKENS = 64  # a smaller summary says nothing worth its frame...
LAST_SUMMARY_TOKENS = 24  # ...unless the prompt is over the window: then a rule or two, to fit
# A block merged again after its tiers filled its room takes this share, the rest is for tiers. At 0.7 a
# 1.2M-token session compacted over 20 turns at 8k kept 52 of 72 facts (bench/fidelity.py --turns 20), at
# 0.85 69; bench/prefill.py recomputed less too (sessiongen 1.50x -> 1.41x the lower bound).
MERGE_SHARE = 0.85
GROW_MIN_TOKENS = 8  # a ledger short of the target by more than this (items left out) is grown once
MIN_TOOL_RESULT_TOKENS = 256  # a tool result is never cut below this by the window's size


@dataclass(frozen=True)
class Tuning:
    """The numbers the engine needs from the settings."""

    keep_recent_tokens: int
    summary_max_tokens: int
    max_tool_result_tokens: int
    summary_auto: bool = False  # summaryMaxTokens unset: the ledger may take whatever room the target leaves

    @classmethod
    def fitted(cls, budget: Budget, keep_recent_tokens: int, summary_max_tokens: int | None,
               max_tool_result_tokens: int) -> Tuning:
        """The configured sizes, capped so that a plan can reach the budget's target.

        The recent tail takes at most half of the target. The summary (the ledger) takes the room
        the target leaves after the tail (``summaryMaxTokens`` unset, "auto"), or at most the
        configured cap within that room. On a 1k- or 4k-token model the defaults still fit.

        Every place that sizes summaries (the compaction and the background pre-summarization)
        uses these same numbers, so that both ask for the same cached summaries.
        """
        keep = min(keep_recent_tokens, budget.target // 2)
        room = max(MIN_SUMMARY_TOKENS, budget.target - keep - BLOCK_FRAME_TOKENS)
        summary = room if summary_max_tokens is None else min(summary_max_tokens, room)
        # One tool result in the recent tail gets at most a quarter of the target, so that on a small
        # window it cannot take the room of the tail and the ledger together.
        tool_result = min(max_tool_result_tokens, max(MIN_TOOL_RESULT_TOKENS, budget.target // 4))
        return cls(keep, summary, tool_result, summary_max_tokens is None)


@dataclass(frozen=True)
class Tiers:
    """The ledger body a block was last sent with (``text``), for a fold of ``[lead, cut)``; its first
    tier folded ``first`` messages (the header's count). A later compaction that folds more appends a
    tier for what it newly brings and leaves these bytes as they are (a server's prompt cache keeps
    them), until the block would pass its room: then it is merged into one again."""

    lead: int
    cut: int
    first: int
    text: str
    merged: bool = False  # built by a merge of earlier tiers (rendered at MERGE_SHARE of the room)
    # What they were last made from: a digest of the summary of ``[lead, cut)`` asked at ``budget``
    # tokens, and whether that summary was whole (no model call fell back or was still running). A
    # summary of the same fold at the same budget that reads otherwise now (a late model narrative
    # landed in the cache, a new release, another summarizer) is rendered again, not reused.
    source: str = ""
    budget: int = 0
    complete: bool = False


@dataclass
class Outcome:
    messages: list[Any] | None  # None: send the history unchanged
    plan: Plan
    tokens_before: int
    tokens_after: int
    folded: int = 0
    report: SummaryReport | None = None
    notices: list[str] = field(default_factory=list)
    # False: what is sent (the projection, or the history when ``messages`` is None) is above the
    # window, and ``reason`` says why; hosts act on it (exit 3, a warning header, /context-stats).
    fits: bool = True
    reason: str | None = None
    tiers: Tiers | None = None  # the ledger body sent, for the next compaction to append to

    @property
    def compacted(self) -> bool:
        return self.messages is not None


def _stub_tokens(measurer: Measurer) -> int:
    from .plan import STUB_MAX_CHARS

    per_token = measurer.counter.ratio if measurer.counter.ratio > 1 else 3.0
    return math.ceil(STUB_MAX_CHARS / per_token) + measurer.overhead


def compact(
    measurer: Measurer,
    m: Measurement,
    budget: Budget,
    tuning: Tuning,
    summaries: Summaries,
    archive: Callable[[Sequence[tuple[int, Entry]]], None],
    *,
    anchor: Plan | None = None,
    force: bool = False,
    note: str | None = None,
    archived_upto: int = 0,
    tiers: Tiers | None = None,
) -> Outcome:
    """Decide what the model is sent for the measured prompt ``m``.

    ``anchor`` is the last plan (reused while it fits); ``archived_upto`` says that every message
    before that index that this plan drops was archived on an earlier call; ``tiers`` is the ledger
    body last sent (appended to, not rewritten, while it has room).

    Fit is checked, not assumed: the prompt built is measured with the same counter, and while it
    is above the window the plan is tightened (a smaller block, then more folded and cut). When
    nothing can fit, the outcome says so (``fits`` False, with the reason).
    """
    stub_tokens = _stub_tokens(measurer)
    plan = None
    if anchor is not None and not force:
        # The last compaction stays in force while it fits: stable bytes, and /compact-now sticks.
        plan = reuse(m, anchor, budget, max_tool_result=tuning.max_tool_result_tokens,
                     summary_max=tuning.summary_max_tokens, stub_tokens=stub_tokens)
    if plan is None and not force and m.total <= budget.trigger:
        return Outcome(None, Plan(0, 0, 0, estimate=m.total), m.total, m.total)
    ledger_costs = getattr(summaries, "ledger_costs", None)
    costs = (lambda start, stop: ledger_costs(m.entries, start, stop)) if ledger_costs else None

    def planner(within: Budget) -> Planner:
        return Planner(m, within, keep_recent=tuning.keep_recent_tokens, max_tool_result=tuning.max_tool_result_tokens,
                       summary_max=tuning.summary_max_tokens, stub_tokens=stub_tokens, ledger_costs=costs)

    reused = plan is not None
    current = None
    if plan is None:  # a reused plan needs no planner: warm turns read only the kept tail
        current = planner(budget)
        plan = current.plan(force=force)
    if not plan.changes:
        if not plan.fits:
            return _cannot_fit(m, plan, plan.notices[0] if plan.notices else "the prompt does not fit the window")
        if m.total > budget.window:
            return _cannot_fit(m, plan, f"the prompt ({m.total:,} tokens) is above the {budget.window:,}-token window "
                                        "and nothing in it can be folded or cut")
        return Outcome(None, plan, m.total, m.total, notices=list(plan.notices))
    within = budget
    tightened = False  # the target's plan was over the window
    unchanged = _Unchanged(tiers, m.entries, summaries)
    for _ in range(6):
        if plan.cut > plan.lead and not (reused and plan.summary_tokens):
            # A new plan's block takes the room left; a reused one keeps the size it was built with
            # (an anchor saved without it, by an older release, is sized again).
            current = current or planner(within)
            plan = replace(plan, summary_tokens=_block_room(current.kept_estimate(plan.cut, plan.stub_until),
                                                            within, tuning,
                                                            LAST_SUMMARY_TOKENS if tightened else MIN_SUMMARY_TOKENS))
        messages, replaced, after, report, built = _build(measurer, m, plan, summaries, note, tiers, unchanged)
        if after <= budget.window:
            break
        # Over the window: tighten against a smaller budget, by the measured overshoot; the ledger may
        # now go below its usual minimum.
        over = after - budget.window
        tightened = True
        window = max(1, within.window - over - 8)
        within = Budget(window, min(within.trigger, window), min(within.target, window), within.window_source)
        current = planner(within)
        tighter = current.plan(force=True)
        if not tighter.changes:
            break
        plan, reused = tighter, False
    # Where the ledger may grow to: the target; when even the target's plan was over the window, the
    # window itself (the target cannot be kept anyway: the most the window holds beats the least).
    goal = budget.window if tightened else budget.target
    if not reused and report is not None and report.left_out and after < goal - GROW_MIN_TOKENS:
        # The kept part came in under its estimate: the ledger takes the rest of the target, once.
        room = plan.summary_tokens + goal - after - GROW_MIN_TOKENS // 2
        cap = goal if tuning.summary_auto else tuning.summary_max_tokens + BLOCK_FRAME_TOKENS
        grown = replace(plan, summary_tokens=min(room, cap))
        if grown.summary_tokens > plan.summary_tokens:
            grown_built = _build(measurer, m, grown, summaries, note, tiers, unchanged)
            over = grown_built[2] - goal
            if over > 0 and grown.summary_tokens - over > plan.summary_tokens:
                # The ledger had not used all of its room (whole items): grown by the overshoot less, once.
                grown = replace(grown, summary_tokens=grown.summary_tokens - over)
                grown_built = _build(measurer, m, grown, summaries, note, tiers, unchanged)
            if grown_built[2] <= goal:
                plan, (messages, replaced, after, report, built) = grown, grown_built
    turn = shape_of(m).turn_start
    if after > budget.window or _cuts_turn(m, plan, turn, tuning.max_tool_result_tokens):
        # Invariant 1: the current turn is cut only when no prompt that keeps it whole fits.
        whole = _whole_turn(measurer, m, plan, budget, tuning, summaries, note, tiers, unchanged, turn)
        if whole is not None:
            plan, (messages, replaced, after, report, built) = whole
    if after > budget.window:
        core = m.fixed_tokens + m.span(plan.cut, len(m.entries))  # what is never folded, as it came
        why = (f"the system prompt, tool schemas and current turn, never folded, take {core:,}" if core > budget.window
               else f"the system prompt, tool schemas and current turn take {core:,} and the smallest ledger "
                    "block the rest")
        reason = (f"the smallest prompt it could build needs {after:,} tokens, above the {budget.window:,}-token "
                  f"window ({why})")
        if after >= m.total or not replaced:
            return _cannot_fit(m, plan, reason)
        # The best it has, smaller than the original, and said to be too large.
        archive(changed_entries(m.entries, plan, archived_upto))
        return Outcome(messages, replace(plan, fits=False), m.total, after, plan.folded, report,
                       [*plan.notices, f"context-compactor: cannot fit: {reason}"], fits=False, reason=reason,
                       tiers=built)
    archive(changed_entries(m.entries, plan, archived_upto))
    if not replaced:
        return Outcome(None, plan, m.total, m.total, notices=[
            "nothing is old enough to fold into a summary yet: the whole conversation is recent"])
    if after >= m.total:
        return Outcome(None, plan, m.total, m.total, notices=[
            f"the compacted prompt ({after:,} tokens) would not be smaller than the original ({m.total:,})"])
    return Outcome(messages, plan, m.total, after, plan.folded, report, list(plan.notices), tiers=built)


def _turn_caps(m: Measurement, turn: int, max_tool_result: int) -> dict[int, int]:
    """The configured cuts in the current turn: its tool results above ``maxToolResultTokens``."""
    cost = max_tool_result + MARKER_TOKENS
    return {i: max_tool_result for i in range(turn, len(m.entries))
            if m.entries[i].view.role == "tool" and m.entries[i].tokens > cost}


def _cuts_turn(m: Measurement, plan: Plan, turn: int, max_tool_result: int) -> bool:
    """Whether ``plan`` cuts the current turn to its head and tail beyond the configured cuts of its tool
    results (the user message, or a result cut smaller). Older results of the turn's tool loop replaced
    by stubs are compaction as usual (they are archived, and recall brings them back), not a cut."""
    caps = _turn_caps(m, turn, max_tool_result)
    return any(i >= turn and cap < caps.get(i, cap + 1) for i, cap in plan.truncate.items())


def _whole_turn(measurer: Measurer, m: Measurement, plan: Plan, budget: Budget, tuning: Tuning,
                summaries: Summaries, note: str | None, tiers: Tiers | None, unchanged: _Unchanged, turn: int,
                ) -> tuple[Plan, tuple[list[Any], dict[int, Any], int, SummaryReport | None, Tiers | None]] | None:
    """The prompt that keeps the current turn whole (its tool results at most at their configured cut;
    the older ones of its loop stubbed only where ``plan`` stubbed them and the turn does not fit whole)
    and folds everything before it into a ledger block as large as the window leaves room for, down to a
    bare block (its header and end line); None when even that is above the window."""
    lead = shape_of(m).lead
    caps = _turn_caps(m, turn, tuning.max_tool_result_tokens)
    notices = ("everything before the current turn was folded into the summary, to keep the current turn whole",)
    for stub_until in sorted({turn, max(turn, plan.stub_until)}):
        base = Plan(lead, turn, stub_until, caps, stage=4, notices=notices if turn > lead else ())
        kept = Planner(m, budget, keep_recent=0, max_tool_result=tuning.max_tool_result_tokens,
                       summary_max=tuning.summary_max_tokens, stub_tokens=_stub_tokens(measurer),
                       ).kept_estimate(turn, stub_until)
        room = budget.window - kept - BLOCK_FRAME_TOKENS
        sizes = sorted({max(LAST_SUMMARY_TOKENS, min(tuning.summary_max_tokens, room)), LAST_SUMMARY_TOKENS},
                       reverse=True) if room > 0 and turn > lead else []
        for size in [*sizes, 0]:
            candidate = replace(base, summary_tokens=size + BLOCK_FRAME_TOKENS if size else 0)
            built = _build(measurer, m, candidate, summaries, note, tiers, unchanged, bare=not size)
            if built[2] <= budget.window:
                return candidate, built
    return None


def _block_room(kept: int, budget: Budget, tuning: Tuning, floor: int = MIN_SUMMARY_TOKENS) -> int:
    """The block's size: the room the target leaves after everything else (``kept``: the fixed
    part and the kept messages as the plan sends them), at most ``summaryMaxTokens``, at least a
    minimal block, frame included. It stays with the plan, so a reused plan rebuilds the same
    block, byte for byte."""
    room = budget.target - kept - BLOCK_FRAME_TOKENS
    return max(floor, min(tuning.summary_max_tokens, room)) + BLOCK_FRAME_TOKENS


def _build(measurer: Measurer, m: Measurement, plan: Plan, summaries: Summaries, note: str | None,
           tiers: Tiers | None = None, unchanged: _Unchanged | None = None, bare: bool = False,
           ) -> tuple[list[Any], dict[int, Any], int, SummaryReport | None, Tiers | None]:
    """The projection of ``plan``, its measured size, and the ledger body it carries (``bare``: a block of
    its header and end line only, the last resort of a window that holds nothing more)."""
    entries = m.entries
    report = None
    block = None
    body = None
    if bare and plan.cut > plan.lead:
        block = summary_block("", plan.folded, None, bare=True)
    elif plan.cut > plan.lead:
        ledger_budget = max(LAST_SUMMARY_TOKENS, plan.summary_tokens - BLOCK_FRAME_TOKENS)
        if tiers is not None and (tiers.lead != plan.lead or tiers.cut > plan.cut or not tiers.text.strip()):
            tiers = None  # another fold: nothing to append to
        asked = _asked(ledger_budget, tiers)
        if tiers is not None and (tiers.cut, tiers.budget) != (plan.cut, asked) and not (unchanged and unchanged()):
            # What the tiers hold is no longer what their fold is summarised as (a model's narrative
            # that came late, another summarizer, a new release): rendered again, whole.
            tiers = None
            asked = _asked(ledger_budget, None)
        report = summaries.region(entries, plan.lead, plan.cut, asked)
        if tiers is not None and (tiers.cut, tiers.budget) == (plan.cut, asked) and tiers.source != _digest(report.text):
            # The same fold at the same size, summarised otherwise now: rendered again, whole.
            tiers = None
            if asked != _asked(ledger_budget, None):
                asked = _asked(ledger_budget, None)
                report = summaries.region(entries, plan.lead, plan.cut, asked)
        body = _tiered(tiers, plan, report.text, ledger_budget, measurer.text_tokens)
        if body is None and tiers is not None and tiers.cut < plan.cut:
            # The tiers filled the block's room: one merge, at a share of it, so that the next
            # compactions have room to append again.
            asked = max(LAST_SUMMARY_TOKENS, int(ledger_budget * MERGE_SHARE))
            report = summaries.region(entries, plan.lead, plan.cut, asked)
            body = Tiers(plan.lead, plan.cut, plan.folded, report.text, merged=True)
        elif body is None:
            body = Tiers(plan.lead, plan.cut, plan.folded, report.text)
        body = replace(body, source=_digest(report.text), budget=asked, complete=not report.fallbacks)
        block = summary_block(body.text, body.first, note)
    messages, replaced = build(entries, plan, block, measurer.overhead)
    after = m.fixed_tokens + m.span(0, plan.lead) + m.span(plan.cut, len(entries))
    for index, message in replaced.items():
        after += measurer.cost(message) - (entries[index].tokens if index >= 0 else 0)
    return messages, replaced, after, report, body


def _asked(ledger_budget: int, tiers: Tiers | None) -> int:
    """The budget the fold's summary is asked at: a tier holds what the ledger at the size its block
    was merged at holds beyond the tiers before."""
    share = MERGE_SHARE if tiers is not None and tiers.merged else 1.0
    return max(LAST_SUMMARY_TOKENS, int(ledger_budget * share))


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:32]


class _Unchanged:
    """Whether the summary the tiers were made from is still what their fold is summarised as (asked
    once per compaction). Tiers made from a summary that was not whole (a model call fell back or was
    still running) are not appended to: the model's text may be in the cache by now."""

    def __init__(self, tiers: Tiers | None, entries: Sequence[Entry], summaries: Summaries) -> None:
        self.tiers, self.entries, self.summaries = tiers, entries, summaries
        self.answer: bool | None = None

    def __call__(self) -> bool:
        if self.answer is None:
            t = self.tiers
            self.answer = (t is not None and t.complete and bool(t.source) and t.budget > 0
                           and t.cut <= len(self.entries)
                           and _digest(self.summaries.region(self.entries, t.lead, t.cut, t.budget).text) == t.source)
        return self.answer


def _tiered(tiers: Tiers | None, plan: Plan, text: str, budget: int, count: Callable[[str], int]) -> Tiers | None:
    """The body ``tiers`` carry with a tier appended for what ``text`` (the whole ledger of the fold)
    holds that they do not; None when there is nothing to append to, or no room for it. The caller
    has checked that the summary they were made from still stands."""
    if tiers is None or tiers.lead != plan.lead or tiers.cut > plan.cut or not tiers.text.strip():
        return None
    if tiers.cut == plan.cut:  # the same fold: the same bytes, while they fit
        return tiers if count(tiers.text) <= budget else None
    have = set(tiers.text.splitlines())
    tier: list[str] = []
    heading = None
    for line in text.splitlines():
        if line.startswith("## "):
            heading = line
        elif line.strip() and line not in have:
            if heading is not None and heading not in tier:
                tier.append(heading)
            tier.append(line)
    if not tier:
        return replace(tiers, cut=plan.cut)
    more = plan.cut - tiers.cut
    label = f"[context-compactor: the ledger of {more} later message{'s' if more != 1 else ''} follows]"
    body = "\n".join([tiers.text.rstrip("\n"), label, *tier])
    if count(body) > budget:
        return None
    return Tiers(tiers.lead, plan.cut, tiers.first, body, tiers.merged)


def _cannot_fit(m: Measurement, plan: Plan, reason: str) -> Outcome:
    return Outcome(None, replace(plan, fits=False), m.total, m.total, notices=[f"context-compactor: cannot fit: {reason}"],
                   fits=False, reason=reason)
