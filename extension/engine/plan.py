"""Planning: which messages stay verbatim, which tool bodies shrink, which turns fold into the summary.

Pure functions over a :class:`~context_compactor.engine.measure.Measurement`. A plan is four numbers
and a map, so it is cheap to store, compare and reuse:

    [0, lead)            leading system messages, kept verbatim
    [lead, cut)          folded into the compacted-context block
    [cut, stub_until)    kept, but tool-result bodies replaced by one-line stubs
    [stub_until, n)      kept verbatim, except tool results in ``truncate`` (head and tail kept)

Stages, cheapest first, stop as soon as the target is met: (1) cut oversized tool results,
(2) stub old tool results outside the recent tail, (3) fold old turns, (4) if still above the
window: fold the recent tail too, stub the current turn's older tool results, cut the largest
remaining messages. A cut never lands on a tool message, so a call is never separated from its
results, and never after the start of the current user turn.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from itertools import accumulate

from ..tool_calls import FOLD_HEAD, FOLD_MAX_CHARS, FOLD_TAIL
from .measure import Entry, Measurement

STUB_MAX_CHARS = 240  # a stub line is at most this long (tool name and first line are clipped)
MARKER_TOKENS = 40  # what the "[... cut ...]" marker of a truncated message costs, at most
BLOCK_FRAME_TOKENS = 36  # header and footer of the compacted-context block (about 130 characters)


def stubbed(entry: Entry) -> bool:
    """Whether a message in the stub range is replaced by a stub: a tool result longer than any stub,
    except a failed call the agent loop folded to its one line (what its stub would read: see
    :func:`.project.stub_text`). The one rule for it: the planner's estimate, the projection and the
    archive all ask here."""
    text = entry.view.text
    return entry.view.role == "tool" and len(text) > STUB_MAX_CHARS and not (
        len(text) <= FOLD_MAX_CHARS and text.endswith(FOLD_TAIL) and FOLD_HEAD in text)


@dataclass(frozen=True)
class Budget:
    """The window, the trigger and the target, in tokens; and where the window size came from."""

    window: int
    trigger: int
    target: int
    window_source: str = "default"


@dataclass(frozen=True)
class Plan:
    lead: int
    cut: int
    stub_until: int
    truncate: dict[int, int] = field(default_factory=dict)  # index -> token cap
    stage: int = 0  # 0: no change needed; 1-4: the last stage used
    estimate: int = 0
    fits: bool = True
    notices: tuple[str, ...] = ()
    summary_tokens: int = 0  # what the block of this plan cost when it was built (0: not built yet)
    # Tool results never stubbed wherever they are (cut to their head and tail like any other, when
    # large): a host pins what its model fetched again after a compaction took it out (loopBreakers).
    pinned: frozenset[int] = frozenset()
    # What the prompt of this plan measured when it was built, less the fixed part (0: not built yet), for its
    # first ``sent_upto`` messages: a reused plan is priced from it (see reuse).
    sent: int = 0
    sent_upto: int = 0

    def stubs(self, index: int, entry: Entry) -> bool:
        """Whether the message at ``index`` in the stub range goes as a stub under this plan."""
        return stubbed(entry) and index not in self.pinned

    @property
    def changes(self) -> bool:
        return self.stage > 0

    @property
    def folded(self) -> int:
        return self.cut - self.lead


@dataclass(frozen=True)
class Shape:
    """Where a conversation may be cut: the lead, the current turn, the legal cut points."""

    n: int
    lead: int
    turn_start: int
    cuts: list[int]  # legal cut points in (lead, turn_start], ascending
    user_cuts: list[int]  # the subset that opens a user turn


def lead_and_turn(m: Measurement) -> tuple[int, int]:
    """The leading system messages' end and the current turn's start (the last user message; without
    one, the last message that is not a tool result). Read from the two ends, so a warm turn that only
    asks where its turn starts does not walk the whole history."""
    entries = m.entries
    n = len(entries)
    lead = 0
    while lead < n and entries[lead].view.role == "system":
        lead += 1
    fallback = None
    for i in range(n - 1, lead - 1, -1):
        role = entries[i].view.role
        if role == "user":
            return lead, i
        if fallback is None and role != "tool":
            fallback = i
    return lead, lead if fallback is None else fallback


def shape_of(m: Measurement) -> Shape:
    roles = [entry.view.role for entry in m.entries]
    n = len(roles)
    lead, last_user = lead_and_turn(m)
    cuts = [i for i in range(lead + 1, last_user + 1) if roles[i] != "tool"]
    user_cuts = [i for i in cuts if roles[i] == "user"]
    return Shape(n=n, lead=lead, turn_start=last_user, cuts=cuts, user_cuts=user_cuts)


class Planner:
    """Plans one prompt. ``stub_tokens`` and ``cut_tokens`` price a stub and a truncation."""

    def __init__(self, m: Measurement, budget: Budget, *, keep_recent: int, max_tool_result: int,
                 summary_max: int, stub_tokens: int, ledger_costs: Callable[[int, int], list[int]] | None = None,
                 shape: Shape | None = None, pinned: frozenset[int] = frozenset(), floor: int = 0) -> None:
        self.m, self.budget = m, budget
        self.shape = shape or shape_of(m)
        # The last compaction's cut, on the same history: what was folded stays folded (a cut moved back
        # would unfold messages and rewrite the block from its header, the whole prompt for a server's cache).
        self.floor = floor if self.shape.lead < floor <= self.shape.turn_start else 0
        self.keep_recent = keep_recent
        self.summary_bound = summary_max + BLOCK_FRAME_TOKENS
        # What the block needs when it folds up to each cut (the ledger at its natural size, up to
        # its bound): folding no more than needed keeps the most verbatim. Built on first use.
        self._ledger_costs = ledger_costs
        self._costs: list[int] | None = None
        entries = m.entries
        tool = [e.view.role == "tool" for e in entries]
        self.is_tool = tool
        cap_cost = max_tool_result + MARKER_TOKENS
        self.pinned = pinned
        self.truncate = {i: max_tool_result for i, e in enumerate(entries)
                         if tool[i] and i >= self.shape.lead and e.tokens > cap_cost}
        kept = [cap_cost if i in self.truncate else e.tokens for i, e in enumerate(entries)]
        stubs = [stub_tokens if stubbed(e) and i not in pinned else k for i, (e, k) in enumerate(zip(entries, kept))]
        self.p_kept = [0, *accumulate(kept)]
        self.p_stub = [0, *accumulate(stubs)]
        self.fixed = m.fixed_tokens + m.span(0, self.shape.lead)

    def estimate(self, cut: int, stub_until: int) -> int:
        """Tokens of the projection for this cut and stub boundary (summary at its bound)."""
        return self.summary_at(cut) + self.kept_estimate(cut, stub_until)

    def kept_estimate(self, cut: int, stub_until: int) -> int:
        """Tokens of everything but the block: the fixed part, the lead, the kept messages."""
        stub_until = max(stub_until, cut)
        n = self.shape.n
        return self.fixed + self.p_stub[stub_until] - self.p_stub[cut] + self.p_kept[n] - self.p_kept[stub_until]

    def summary_at(self, cut: int) -> int:
        """What the block costs when the messages before ``cut`` are folded."""
        lead = self.shape.lead
        if cut <= lead:
            return 0
        if self._ledger_costs is None:
            return self.summary_bound
        if self._costs is None:
            self._costs = self._ledger_costs(lead, self.shape.turn_start)
        at = min(cut - lead, len(self._costs) - 1)
        return min(self.summary_bound, BLOCK_FRAME_TOKENS + self._costs[at])

    def make(self, cut: int, stub_until: int, stage: int, notices: tuple[str, ...] = (),
             truncate: dict[int, int] | None = None) -> Plan:
        trunc = {i: c for i, c in (truncate if truncate is not None else self.truncate).items() if i >= cut}
        est = self.estimate(cut, stub_until)
        return Plan(self.shape.lead, cut, max(stub_until, cut), trunc, stage, est, True, notices, pinned=self.pinned)

    def tail_start(self) -> int:
        """The start of the recent tail: at least ``keep_recent`` tokens, on a legal cut."""
        s, p = self.shape, self.p_kept
        want = p[s.n] - self.keep_recent
        raw = max(s.lead, bisect_right(p, want) - 1) if want > 0 else s.lead
        if raw >= s.turn_start:
            return s.turn_start
        users = [u for u in s.user_cuts if u <= raw]
        if users and p[raw] - p[users[-1]] <= max(self.keep_recent, 1):
            return users[-1]
        legal = [c for c in s.cuts if c <= raw]
        return legal[-1] if legal else s.lead

    def plan(self, *, force: bool = False) -> Plan:
        b, s = self.budget, self.shape
        if not force and self.m.total <= b.trigger:
            return Plan(s.lead, s.lead, s.lead, stage=0, estimate=self.m.total)
        if self.fixed > b.window:
            return Plan(s.lead, s.lead, s.lead, stage=0, estimate=self.m.total, fits=False, notices=(
                f"nothing compacted: the system prompt, tool schemas and leading system messages alone take "
                f"{self.fixed:,} tokens, above the {b.window:,}-token context window; shorten them or raise contextWindow",))
        return self._stages(force)

    def _stages(self, force: bool) -> Plan:
        b, s = self.budget, self.shape
        target = b.target
        if not force and not self.floor and self.truncate and self.estimate(s.lead, s.lead) <= target:
            return self.make(s.lead, s.lead, 1)
        tail = self.tail_start()
        stub_until = s.lead
        if not force and not self.floor:
            for i in range(s.lead, tail):
                if self.is_tool[i]:
                    stub_until = i + 1
                    if self.estimate(s.lead, stub_until) <= target:
                        return self.make(s.lead, stub_until, 2)
        elif force:
            stub_until = tail
        else:  # folded before: old tool results are stubbed up to the tail, as the last fold's plan had them
            stub_until = max((i + 1 for i in range(s.lead, tail) if self.is_tool[i]), default=s.lead)
        cut = self._fold_cut(tail, stub_until, target, force)
        if cut is not None:
            plan = self.make(cut, stub_until, 3)
            if plan.estimate <= b.window:  # a forced fold to the tail may still be too large
                return plan
        folded = self.make(max(tail, self.floor), stub_until, 3)
        if folded.estimate > target:
            folded = self._stub_recent(folded, target)
        if folded.estimate <= b.window:
            return folded
        return self._shrink(tail, stub_until)

    def _stub_recent(self, plan: Plan, target: int) -> Plan:
        """Older tool results of the recent turns as stubs, oldest first, until the target is met: the
        ledger of everything folded is worth more than old tool output kept verbatim. The results of
        the last tool round of the current turn stay as they are; a turn that was answered before the
        user's new message has its answer, which says what its results showed."""
        rounds = [i for i in range(plan.cut, self.shape.n)
                  if self.m.entries[i].view.role == "assistant" and self.m.entries[i].view.calls]
        if not rounds:
            return plan
        last_round = rounds[-1] if rounds[-1] >= self.shape.turn_start else self.shape.turn_start
        stub_until = plan.stub_until
        for i in range(plan.stub_until, last_round):
            if self.is_tool[i]:
                stub_until = i + 1
                if self.estimate(plan.cut, stub_until) <= target:
                    break
        if not self._stubs_any(plan.stub_until, stub_until):
            return plan
        return self.make(plan.cut, stub_until, 3, (*plan.notices, "older tool results of the recent turns were "
                                                   "replaced by stubs, to leave the ledger room"))

    def _stubs_any(self, start: int, stop: int) -> bool:
        """Whether a stub range grown from ``start`` to ``stop`` replaces any result by a stub."""
        return any(self.is_tool[i] and stubbed(self.m.entries[i]) and i not in self.pinned for i in range(start, stop))

    def _fold_cut(self, tail: int, stub_until: int, target: int, force: bool) -> int | None:
        """The smallest cut (preferring the start of a user turn) that meets the target."""
        s = self.shape
        if force:
            return tail if tail > s.lead else None
        last = max(tail, self.floor)
        for pool in (s.user_cuts, s.cuts):
            for c in pool:
                if c > last:
                    break
                if c >= self.floor and self.estimate(c, stub_until) <= target:
                    return c
        return None

    def _shrink(self, tail: int, stub_until: int) -> Plan:
        """Stage 4: make what is left fit the window, in a fixed order, saying what was given up."""
        b, s = self.budget, self.shape
        notices = []
        cut = s.turn_start
        if cut > tail:
            notices.append("the recent turns before the current one were folded into the summary too")
            plan = self.make(cut, stub_until, 4, tuple(notices))
            if plan.estimate <= b.window:
                return plan
        last_tool = max((i for i in range(cut, s.n) if self.is_tool[i]), default=None)
        if last_tool is not None and last_tool > max(cut, stub_until):
            start = max(cut, stub_until)
            # Oldest first, down to the target (not just the window), so the next turns have room.
            for i in range(start, last_tool):
                if self.is_tool[i]:
                    stub_until = i + 1
                    if self.estimate(cut, stub_until) <= b.target:
                        break
            if self._stubs_any(start, stub_until):  # a notice says only what happened
                notices.append("older tool results of the current turn were replaced by stubs")
            plan = self.make(cut, stub_until, 4, tuple(notices))
            if plan.estimate <= b.window:
                return plan
        return self._cut_largest(cut, stub_until, notices)

    def _cut_largest(self, cut: int, stub_until: int, notices: list[str]) -> Plan:
        """Cut the largest kept messages to head and tail until the estimate fits the window."""
        b, s = self.budget, self.shape
        truncate = dict(self.truncate)
        est = self.estimate(cut, stub_until)
        size = lambda i: self.p_kept[i + 1] - self.p_kept[i]  # noqa: E731
        for i in sorted(range(max(cut, stub_until), s.n), key=lambda i: (-size(i), i)):
            if est <= b.window:
                break
            cap = max(64, size(i) - (est - b.window) - MARKER_TOKENS)
            if cap + MARKER_TOKENS >= size(i):
                continue
            truncate[i] = cap
            est -= size(i) - cap - MARKER_TOKENS
        if truncate != self.truncate:
            # Only when this stage cut something: with nothing large enough to cut (a tiny current turn,
            # a window the ledger alone overshoots at its natural size) the block is sized down instead.
            notices.append("the largest remaining messages were cut to their head and tail")
        # Still above the window: the smallest plan there is, marked as not fitting (the caller
        # measures it and says so).
        return replace(self.make(cut, stub_until, 4, tuple(notices), truncate), estimate=est, fits=est <= b.window)


def reuse(m: Measurement, anchor: Plan, budget: Budget, *, max_tool_result: int, summary_max: int,
          stub_tokens: int, pinned: frozenset[int] = frozenset(), held: int = 0) -> Plan | None:
    """The last plan again, if the prompt it projects still fits under the trigger; else None. The prompt is
    what the plan measured when it was built (``anchor.sent``, for its first ``sent_upto`` messages) and what
    came since, priced as the plan sends it; ``held``: what the host adds to it (results it put back in place
    of their stubs). An anchor without that measure (an older release's) is priced from its parts, its block
    at the room it was given.

    Only the part after the anchor's cut is read (it is bounded by the window, plus what is new),
    so a turn between compactions costs work proportional to the kept tail, not to the history.
    """
    entries = m.entries
    cap_cost = max_tool_result + MARKER_TOKENS
    known = anchor.sent > 0 and anchor.cut <= anchor.sent_upto <= len(entries)
    est = m.fixed_tokens + held
    if known:
        est += anchor.sent
    else:
        est += m.span(0, anchor.lead)
        if anchor.cut > anchor.lead:
            est += anchor.summary_tokens or summary_max + BLOCK_FRAME_TOKENS
    new_from = anchor.sent_upto if known else anchor.cut
    truncate = {}
    for i in range(anchor.cut, len(entries)):
        entry = entries[i]
        cost = entry.tokens
        if entry.view.role == "tool":
            if i < anchor.stub_until and stubbed(entry) and i not in pinned:
                cost = stub_tokens
            elif entry.tokens > cap_cost:
                truncate[i] = max_tool_result
                cost = cap_cost
        if i >= new_from:
            est += cost
            if est > budget.trigger:
                return None
    if est > budget.trigger:
        return None
    return Plan(anchor.lead, anchor.cut, anchor.stub_until, truncate, anchor.stage, est, True, anchor.notices,
                anchor.summary_tokens, pinned, sent=anchor.sent, sent_upto=anchor.sent_upto)


def budget_for(window: int, window_source: str, *, max_tokens: int | None, compact_at: float,
               compact_to: float) -> Budget:
    """Trigger at ``maxTokens`` (or ``compactAt`` x window); aim for ``compactTo`` x window."""
    trigger = min(max_tokens, window) if max_tokens else math.floor(compact_at * window)
    target = math.floor(compact_to * window)
    if max_tokens:
        target = min(target, math.floor(trigger * compact_to / compact_at))
    return Budget(window=window, trigger=trigger, target=min(target, trigger), window_source=window_source)


def cold_budget(budget: Budget, idle_seconds: float | None, idle_compact_after: float | None) -> Budget:
    """``budget`` with its trigger at its target when the session was idle longer than
    ``idleCompactAfterSeconds``: a server has evicted its prompt cache by then, so the next call
    recomputes the whole prompt anyway, and a compaction to the target now costs nothing more while
    it puts the next one (a rewrite of a warm cache) further off. ``idle_seconds`` None: the first
    turn; ``idle_compact_after`` None or 0: off. Only the engine's call gets this budget: a
    session's saved plan and tiers keep the budget they were made with."""
    if not idle_compact_after or idle_seconds is None or idle_seconds <= idle_compact_after:
        return budget
    return replace(budget, trigger=min(budget.trigger, budget.target))
