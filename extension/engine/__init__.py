"""The engine: measure -> plan -> summarize -> project. It knows nothing of HTTP, files or hosts.

:func:`compact` takes a measured prompt, a budget, a summary service and an archive function, and
returns an :class:`Outcome`: the projection (or None for "send the history unchanged") and the
figures of the decision. Every message that leaves the prompt is handed to ``archive`` before the
projection is returned; if archiving raises, nothing is returned.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from .measure import Entry, Measurement, Measurer
from .plan import (BLOCK_FRAME_TOKENS, MARKER_TOKENS, Budget, Plan, Planner, budget_for, cold_budget,
                   lead_and_turn, reuse)
from .project import build, changed_entries, summary_block
from .summaries import SummaryReport, Summaries
from .tiers import LAST_SUMMARY_TOKENS, MERGE_SHARE, Tiers, Unchanged, ledger_body

__all__ = ["MERGE_SHARE", "Budget", "Measurer", "Outcome", "Plan", "Tiers", "Tuning", "budget_for", "cold_budget",
           "compact"]


MIN_SUMMARY_TOKENS = 64  # a smaller summary says nothing worth its frame (LAST_SUMMARY_TOKENS: over the window)
GROW_MIN_TOKENS = 8  # a ledger short of the target by more than this (items left out) is grown once
GROW_TRIES = 3  # halvings between a grown ledger's room that fit and the one that passed the goal
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

        The recent tail takes at most a quarter of the target (at 8k it had half, which left the ledger of a
        long session about 2,000 tokens; the current turn is kept whole anyway). The summary (the ledger) takes the room
        the target leaves after the tail (``summaryMaxTokens`` unset, "auto"), or at most the
        configured cap within that room. On a 1k- or 4k-token model the defaults still fit.

        Every place that sizes summaries (the compaction and the background pre-summarization)
        uses these same numbers, so that both ask for the same cached summaries.
        """
        keep = min(keep_recent_tokens, budget.target // 4)
        room = max(MIN_SUMMARY_TOKENS, budget.target - keep - BLOCK_FRAME_TOKENS)
        summary = room if summary_max_tokens is None else min(summary_max_tokens, room)
        # One tool result in the recent tail gets at most a quarter of the target, so that on a small
        # window it cannot take the room of the tail and the ledger together.
        tool_result = min(max_tool_result_tokens, max(MIN_TOOL_RESULT_TOKENS, budget.target // 4))
        return cls(keep, summary, tool_result, summary_max_tokens is None)


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


class Built(NamedTuple):
    """A plan's projection: the messages, the ones it replaced (index -> new message, -1 for the block),
    its measured size, the summary report and the ledger body its block carries."""

    messages: list[Any]
    replaced: dict[int, Any]
    after: int
    report: SummaryReport | None
    tiers: Tiers | None


@dataclass(frozen=True)
class _Step:
    """Where a compaction stands between stages: the plan, what it built, whether the plan is the last
    one reused, and whether the target's plan was over the window (the budget was tightened)."""

    plan: Plan
    built: Built
    reused: bool
    tightened: bool


class _Run:
    """What every stage of one compaction reads: its inputs, and the planner and builder over them."""

    def __init__(self, measurer: Measurer, m: Measurement, budget: Budget, tuning: Tuning, summaries: Summaries,
                 note: str | None, tiers: Tiers | None, pinned: frozenset[int]) -> None:
        self.measurer, self.m, self.budget, self.tuning, self.summaries = measurer, m, budget, tuning, summaries
        self.note, self.tiers, self.pinned = note, tiers, pinned
        self.unchanged = Unchanged(tiers, m.entries, summaries)
        self.stub_tokens = stub_tokens(measurer)
        ledger_costs = getattr(summaries, "ledger_costs", None)
        self.costs = (lambda start, stop: ledger_costs(m.entries, start, stop)) if ledger_costs else None
        self._main: Planner | None = None
        self.floor = 0  # the last compaction's cut on this history: a new plan folds no less
        self.held = 0  # what the host adds to a reused plan's prompt, in tokens

    def planner(self, within: Budget) -> Planner:
        if within == self.budget and self._main is not None:
            return self._main
        t = self.tuning
        planner = Planner(self.m, within, keep_recent=t.keep_recent_tokens, max_tool_result=t.max_tool_result_tokens,
                          summary_max=t.summary_max_tokens, stub_tokens=self.stub_tokens, ledger_costs=self.costs,
                          pinned=self.pinned, floor=self.floor)
        if within == self.budget:
            self._main = planner
        return planner

    def reused(self, anchor: Plan) -> Plan | None:
        """The last compaction, while it fits: stable bytes, and /compact-now sticks."""
        t = self.tuning
        return reuse(self.m, anchor, self.budget, max_tool_result=t.max_tool_result_tokens,
                     summary_max=t.summary_max_tokens, stub_tokens=self.stub_tokens, pinned=self.pinned,
                     held=self.held)

    def build(self, plan: Plan, bare: bool = False) -> Built:
        return _build(self, plan, bare)


def stub_tokens(measurer: Measurer) -> int:
    """What a stub costs, at most, in tokens."""
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
    pinned: Collection[int] = (),
    held: int = 0,
) -> Outcome:
    """Decide what the model is sent for the measured prompt ``m``: measure, plan, build (tightened while
    above the window), grow the ledger into room left, keep the current turn whole, say the outcome.

    ``anchor`` is the last plan (reused while it fits); ``archived_upto`` says that every message
    before that index that this plan drops was archived on an earlier call; ``tiers`` is the ledger
    body last sent (appended to, not rewritten, while it has room); ``pinned``: indices of tool results
    never stubbed (planned as such, so the prompt still lands at the target). Fit is checked, not
    assumed: when nothing can fit, the outcome says so (``fits`` False, with the reason).
    """
    run = _Run(measurer, m, budget, tuning, summaries, note, tiers, frozenset(pinned))
    run.held = held
    plan = run.reused(anchor) if anchor is not None and not force else None
    if plan is None and not force and m.total <= budget.trigger:
        return Outcome(None, Plan(0, 0, 0, estimate=m.total), m.total, m.total)
    reused = plan is not None
    if anchor is not None and not force:  # what the last compaction folded stays folded (a server's cache)
        run.floor = anchor.cut
    if plan is None:  # a reused plan needs no planner: warm turns read only the kept tail
        plan = run.planner(budget).plan(force=force)
    if not plan.changes:
        return _no_change(m, plan, budget)
    step = _kept_whole(run, _grown(run, _fitted(run, plan, reused)))
    return _outcome(run, step, archive, archived_upto)


def _no_change(m: Measurement, plan: Plan, budget: Budget) -> Outcome:
    """The outcome of a plan that changes nothing: the history as it is, or why it cannot fit."""
    if not plan.fits:
        return _cannot_fit(m, plan, plan.notices[0] if plan.notices else "the prompt does not fit the window")
    if m.total > budget.window:
        return _cannot_fit(m, plan, f"the prompt ({m.total:,} tokens) is above the {budget.window:,}-token window "
                                    "and nothing in it can be folded or cut")
    return Outcome(None, plan, m.total, m.total, notices=list(plan.notices))


def _fitted(run: _Run, plan: Plan, reused: bool) -> _Step:
    """The plan built, its block sized to the room left; while the prompt built is above the window, the
    plan again against a budget smaller by the measured overshoot (the ledger may then go below its
    usual minimum)."""
    window = run.budget.window
    within, tightened = run.budget, False
    for _ in range(6):
        if plan.cut > plan.lead and not (reused and plan.summary_tokens):
            # A new plan's block takes the room left; a reused one keeps the size it was built with
            # (an anchor saved without it, by an older release, is sized again).
            kept = run.planner(run.budget).kept_estimate(plan.cut, plan.stub_until)
            floor = LAST_SUMMARY_TOKENS if tightened else MIN_SUMMARY_TOKENS
            plan = replace(plan, summary_tokens=_block_room(kept, within, run.tuning, floor))
        built = run.build(plan)
        if built.after <= window:
            break
        tightened = True
        smaller = max(1, within.window - (built.after - window) - 8)
        within = Budget(smaller, min(within.trigger, smaller), min(within.target, smaller), within.window_source)
        tighter = run.planner(within).plan(force=True)
        if not tighter.changes:
            break
        plan, reused = tighter, False
    return _Step(plan, built, reused, tightened)


def _grown(run: _Run, step: _Step) -> _Step:
    """A new plan whose kept part came in under its estimate, with items left out of the ledger: the
    ledger takes the rest of the goal, once. The goal is the target, or the window itself when even the
    target's plan was over it (the most the window holds beats the least)."""
    plan, after, report = step.plan, step.built.after, step.built.report
    goal = run.budget.window if step.tightened else run.budget.target
    if step.reused or report is None or not report.left_out or after >= goal - GROW_MIN_TOKENS:
        return step
    room = plan.summary_tokens + goal - after - GROW_MIN_TOKENS // 2
    cap = goal if run.tuning.summary_auto else run.tuning.summary_max_tokens + BLOCK_FRAME_TOKENS
    grown = replace(plan, summary_tokens=min(room, cap))
    if grown.summary_tokens <= plan.summary_tokens:
        return step
    built = run.build(grown)
    over = built.after - goal
    if over > 0 and grown.summary_tokens - over > plan.summary_tokens:
        # The ledger had not used all of its room (whole items): grown by the overshoot less.
        grown = replace(grown, summary_tokens=grown.summary_tokens - over)
        built = run.build(grown)
    low, high = plan.summary_tokens, grown.summary_tokens
    for _ in range(GROW_TRIES if built.after > goal else 0):
        # Still over (a larger block moved more than its own size: the kept part's stubs, the tiers' merge):
        # halfway between the room that fit and the one that did not, kept if it fits.
        middle = replace(grown, summary_tokens=(low + high) // 2)
        if middle.summary_tokens - low < GROW_MIN_TOKENS:
            break
        tried = run.build(middle)
        if tried.after <= goal:
            low, grown, built = middle.summary_tokens, middle, tried
        else:
            high = middle.summary_tokens
    return replace(step, plan=grown, built=built) if built.after <= goal else step


def _kept_whole(run: _Run, step: _Step) -> _Step:
    """Invariant 1: the current turn is cut only when no prompt that keeps it whole fits."""
    turn = lead_and_turn(run.m)[1]
    caps = _turn_caps(run.m, turn, run.tuning.max_tool_result_tokens)
    if step.built.after > run.budget.window or _cuts_turn(step.plan, turn, caps):
        whole = _whole_turn(run, step.plan, turn)
        if whole is not None:
            return replace(step, plan=whole[0], built=whole[1])
    return step


def _outcome(run: _Run, step: _Step, archive: Callable[[Sequence[tuple[int, Entry]]], None],
             archived_upto: int) -> Outcome:
    """What is sent, after what leaves the prompt is archived; or why nothing is, or why it is too large."""
    m, budget, plan, built = run.m, run.budget, step.plan, step.built
    if built.after > budget.window:
        return _too_large(run, step, archive, archived_upto)
    archive(changed_entries(m.entries, plan, archived_upto))
    if not built.replaced:
        return Outcome(None, plan, m.total, m.total, notices=[
            "nothing is old enough to fold into a summary yet: the whole conversation is recent"])
    if built.after >= m.total:
        return Outcome(None, plan, m.total, m.total, notices=[
            f"the compacted prompt ({built.after:,} tokens) would not be smaller than the original ({m.total:,})"])
    if not step.reused:  # what it measured prices it while it is reused (see plan.reuse)
        plan = replace(plan, sent=built.after - m.fixed_tokens, sent_upto=len(m.entries))
    return Outcome(built.messages, plan, m.total, built.after, plan.folded, built.report, list(plan.notices),
                   tiers=built.tiers)


def _too_large(run: _Run, step: _Step, archive: Callable[[Sequence[tuple[int, Entry]]], None],
               archived_upto: int) -> Outcome:
    """The smallest prompt it could build is above the window: sent when smaller than the original and
    said to be too large, else the history with the reason."""
    m, budget, plan, built = run.m, run.budget, step.plan, step.built
    core = m.fixed_tokens + m.span(plan.cut, len(m.entries))  # what is never folded, as it came
    why = (f"the system prompt, tool schemas and current turn, never folded, take {core:,}" if core > budget.window
           else f"the system prompt, tool schemas and current turn take {core:,} and the smallest ledger "
                "block the rest")
    reason = (f"the smallest prompt it could build needs {built.after:,} tokens, above the {budget.window:,}-token "
              f"window ({why})")
    if built.after >= m.total or not built.replaced:
        return _cannot_fit(m, plan, reason)
    archive(changed_entries(m.entries, plan, archived_upto))
    return Outcome(built.messages, replace(plan, fits=False), m.total, built.after, plan.folded, built.report,
                   [*plan.notices, f"context-compactor: cannot fit: {reason}"], fits=False, reason=reason,
                   tiers=built.tiers)


def _turn_caps(m: Measurement, turn: int, max_tool_result: int) -> dict[int, int]:
    """The configured cuts in the current turn: its tool results above ``maxToolResultTokens``."""
    cost = max_tool_result + MARKER_TOKENS
    return {i: max_tool_result for i in range(turn, len(m.entries))
            if m.entries[i].view.role == "tool" and m.entries[i].tokens > cost}


def _cuts_turn(plan: Plan, turn: int, caps: dict[int, int]) -> bool:
    """Whether ``plan`` cuts the current turn to its head and tail beyond the configured cuts of its tool
    results (the user message, or a result cut smaller). Older results of the turn's tool loop replaced
    by stubs are compaction as usual (they are archived, and recall brings them back), not a cut."""
    return any(i >= turn and cap < caps.get(i, cap + 1) for i, cap in plan.truncate.items())


def _whole_turn(run: _Run, plan: Plan, turn: int) -> tuple[Plan, Built] | None:
    """The prompt that keeps the current turn whole (its tool results at most at their configured cut;
    the older ones of its loop stubbed only where ``plan`` stubbed them and the turn does not fit whole)
    and folds everything before it into a ledger block as large as the window leaves room for, down to a
    bare block (its header and end line); None when even that is above the window."""
    m, budget, tuning = run.m, run.budget, run.tuning
    lead = lead_and_turn(m)[0]
    caps = _turn_caps(m, turn, tuning.max_tool_result_tokens)
    notices = ("everything before the current turn was folded into the summary, to keep the current turn whole",)
    for stub_until in sorted({turn, max(turn, plan.stub_until)}):
        base = Plan(lead, turn, stub_until, caps, stage=4, notices=notices if turn > lead else (), pinned=run.pinned)
        kept = Planner(m, budget, keep_recent=0, max_tool_result=tuning.max_tool_result_tokens,
                       summary_max=tuning.summary_max_tokens, stub_tokens=run.stub_tokens, pinned=run.pinned,
                       ).kept_estimate(turn, stub_until)
        room = budget.window - kept - BLOCK_FRAME_TOKENS
        sizes = sorted({max(LAST_SUMMARY_TOKENS, min(tuning.summary_max_tokens, room)), LAST_SUMMARY_TOKENS},
                       reverse=True) if room > 0 and turn > lead else []
        for size in [*sizes, 0]:
            candidate = replace(base, summary_tokens=size + BLOCK_FRAME_TOKENS if size else 0)
            built = run.build(candidate, bare=not size)
            if built.after <= budget.window:
                return candidate, built
    return None


def _block_room(kept: int, budget: Budget, tuning: Tuning, floor: int = MIN_SUMMARY_TOKENS) -> int:
    """The block's size: the room the target leaves after everything else (``kept``: the fixed
    part and the kept messages as the plan sends them), at most ``summaryMaxTokens``, at least a
    minimal block, frame included. It stays with the plan, so a reused plan rebuilds the same
    block, byte for byte."""
    room = budget.target - kept - BLOCK_FRAME_TOKENS
    return max(floor, min(tuning.summary_max_tokens, room)) + BLOCK_FRAME_TOKENS


def _build(run: _Run, plan: Plan, bare: bool = False) -> Built:
    """The projection of ``plan``, its measured size, and the ledger body it carries (``bare``: a block of
    its header and end line only, the last resort of a window that holds nothing more)."""
    m = run.m
    report = block = body = None
    if bare and plan.cut > plan.lead:
        block = summary_block("", plan.folded, None, bare=True)
    elif plan.cut > plan.lead:
        ledger_budget = max(LAST_SUMMARY_TOKENS, plan.summary_tokens - BLOCK_FRAME_TOKENS)
        body, report = ledger_body(m.entries, plan, run.summaries, ledger_budget, run.tiers, run.unchanged,
                                   run.measurer.text_tokens)
        block = summary_block(body.text, body.first, run.note)
    messages, replaced = build(m.entries, plan, block, run.measurer.overhead)
    after = m.fixed_tokens + m.span(0, plan.lead) + m.span(plan.cut, len(m.entries))
    for index, message in replaced.items():
        after += run.measurer.cost(message) - (m.entries[index].tokens if index >= 0 else 0)
    return Built(messages, replaced, after, report, body)


def _cannot_fit(m: Measurement, plan: Plan, reason: str) -> Outcome:
    return Outcome(None, replace(plan, fits=False), m.total, m.total, notices=[f"context-compactor: cannot fit: {reason}"],
                   fits=False, reason=reason)
