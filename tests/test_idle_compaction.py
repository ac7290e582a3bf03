"""Compact when the cache is cold anyway (issue 26): after a session was idle longer than
``idleCompactAfterSeconds``, its next turn compacts to the target even under the trigger."""

from __future__ import annotations

from convo import assistant, system, user, words

from context_compactor.engine import Measurer, Tuning, budget_for, cold_budget, compact
from context_compactor.engine.summaries import Summaries
from context_compactor.store import Store
from context_compactor.summarizer.fallback import ExtractiveSummarizer
from context_compactor.tokens import CharCounter

WINDOW = 4096
BUDGET = budget_for(WINDOW, "config", max_tokens=None, compact_at=0.75, compact_to=0.5)


def between_target_and_trigger() -> list[dict]:
    """A conversation whose prompt is above the target (2,048 tokens) and under the trigger (3,072)."""
    out = [system("You are an agent.")]
    t = 0
    while Measurer(CharCounter(4.0)).measure(out).total < BUDGET.target + 300:
        out += [user(words(60, t)), assistant(words(60, t + 1000))]
        t += 1
    return [*out, user("and the next step, please")]


def run(messages: list[dict], budget):
    measurer = Measurer(CharCounter(4.0))
    m = measurer.measure(messages)
    fallback = ExtractiveSummarizer()
    summaries = Summaries(fallback, fallback, Store.open(":memory:"), measurer.text_tokens, 16000)
    tuning = Tuning.fitted(budget, 500, None, 4000)
    return m, compact(measurer, m, budget, tuning, summaries, lambda gone: None)


def test_an_idle_session_under_the_trigger_is_compacted_to_the_target():
    """Idle longer than the setting: a prompt between the target and the trigger is compacted to the target."""
    messages = between_target_and_trigger()
    m, warm = run(messages, BUDGET)
    assert BUDGET.target < m.total <= BUDGET.trigger and not warm.compacted
    _, cold = run(messages, cold_budget(BUDGET, idle_seconds=601, idle_compact_after=600))
    assert cold.compacted and cold.tokens_after <= BUDGET.target
    assert cold.messages[-1] == messages[-1]


def test_the_budget_is_unchanged_when_off_on_a_first_turn_or_not_idle_long_enough():
    """The trigger moves only when the setting is on, a previous turn exists and the idle time passed it."""
    assert cold_budget(BUDGET, idle_seconds=10_000, idle_compact_after=None) == BUDGET
    assert cold_budget(BUDGET, idle_seconds=None, idle_compact_after=600) == BUDGET
    assert cold_budget(BUDGET, idle_seconds=600, idle_compact_after=600) == BUDGET
    cold = cold_budget(BUDGET, idle_seconds=600.5, idle_compact_after=600)
    assert (cold.window, cold.trigger, cold.target) == (BUDGET.window, BUDGET.target, BUDGET.target)


def test_a_prompt_under_the_target_is_left_as_it_is_after_idling():
    """Idling does not compact what is already under the target: there is nothing to gain."""
    messages = [system("You are an agent."), user(words(50, 1)), assistant(words(50, 2)), user("next")]
    _, out = run(messages, cold_budget(BUDGET, idle_seconds=3600, idle_compact_after=60))
    assert not out.compacted and out.fits
