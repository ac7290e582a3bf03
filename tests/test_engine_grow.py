"""A new plan's ledger grows into the room its kept part left (issue 20): the ledger renders whole items, so a room
larger than what it holds renders no larger, and a build at the room that first passed the goal says nothing about a
smaller one. The engine halves its way to the largest room that fits, instead of going back to the small block."""
from __future__ import annotations

from dataclasses import dataclass

from context_compactor.engine import Built, Budget, Plan, Tuning, _grown, _Step
from context_compactor.engine.summaries import SummaryReport

KEPT = 1431  # what the prompt holds besides the block
FRAME = 380  # what a block's room holds besides its items' lines
MERGES = 2700  # a room above this merges the tiers: the prompt then measures just over the target, whatever the room


@dataclass
class _Run:
    """A compaction whose block fills its room less its frame, up to MERGES; above it the prompt comes out a little
    over the target, by an amount that does not fall as the room does (as a merge of the tiers measured in a host's
    session: rooms of 3,056, 3,037 and 3,011 tokens gave prompts of 4,113, 4,120 and 4,120 against 4,096)."""
    budget: Budget
    tuning: Tuning
    builds: int = 0

    def build(self, plan: Plan) -> Built:
        self.builds += 1
        room = plan.summary_tokens
        after = KEPT + room - FRAME if room <= MERGES else self.budget.target + 4 + room % 37
        report = SummaryReport(text="", left_out=40 if room < 3 * MERGES else 0)
        return Built([], {}, after, report, None)


def test_a_ledger_that_left_items_out_grows_to_the_largest_room_that_fits():
    budget = Budget(8192, 6144, 4096)
    run = _Run(budget, Tuning(keep_recent_tokens=2000, summary_max_tokens=4096, max_tool_result_tokens=1500,
                              summary_auto=True))
    plan = Plan(lead=1, cut=2690, stub_until=2690, summary_tokens=2096)
    step = _Step(plan, run.build(plan), reused=False, tightened=False)
    assert step.built.after == 3147  # 949 tokens short of the target, items left out
    grown = _grown(run, step)  # type: ignore[arg-type]
    assert grown.built.after <= budget.target
    assert grown.plan.summary_tokens > 2500, grown.plan.summary_tokens  # not the 2,096 it started at
    assert run.builds <= 7


def test_a_ledger_that_left_nothing_out_or_a_reused_plan_does_not_grow():
    budget = Budget(8192, 6144, 4096)
    run = _Run(budget, Tuning(2000, 4096, 1500, summary_auto=True))
    whole = Plan(lead=1, cut=10, stub_until=10, summary_tokens=3 * MERGES)
    step = _Step(whole, run.build(whole)._replace(after=3000), reused=False, tightened=False)
    assert _grown(run, step) is step  # type: ignore[arg-type]
    small = Plan(lead=1, cut=10, stub_until=10, summary_tokens=2096)
    reused = _Step(small, run.build(small), reused=True, tightened=False)
    assert _grown(run, reused) is reused  # type: ignore[arg-type]
