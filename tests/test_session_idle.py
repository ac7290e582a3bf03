"""A session that idled past ``idleCompactAfterSeconds`` compacts to the target on its next turn (issue 26):
the server's prompt cache is cold by then, so the rewrite costs nothing more."""

from __future__ import annotations

import time

from convo import assistant, chat


def test_a_turn_after_the_session_idled_past_the_setting_is_compacted_to_the_target(make_runtime, run_hook) -> None:
    """Under the trigger and above the target, the turn after an idle pause longer than the setting compacts."""
    runtime = make_runtime(idle_compact_after_seconds=0.05)
    messages = chat(8)
    first = run_hook(runtime, messages, window=8192)
    assert not first.stats.compacted and first.stats.target < first.stats.tokens_before < first.stats.trigger
    time.sleep(0.1)  # longer than the setting: what the test needs is an idle pause, not a duration
    later = run_hook(runtime, [*messages, assistant("ok")], window=8192)
    assert later.stats.compacted and later.stats.tokens_after <= later.stats.target


def test_without_the_setting_an_idle_session_under_the_trigger_is_left_as_it_is(make_runtime, run_hook) -> None:
    """Off (the default), the same pause changes nothing."""
    runtime = make_runtime()
    messages = chat(8)
    run_hook(runtime, messages, window=8192)
    time.sleep(0.1)
    assert not run_hook(runtime, [*messages, assistant("ok")], window=8192).stats.compacted
