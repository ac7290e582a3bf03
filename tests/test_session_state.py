"""The session's persisted state: a typed, versioned record that reads what earlier releases wrote."""

from __future__ import annotations

import json

import structlog.testing
from convo import assistant, chat

from context_compactor.runtime import Runtime
from context_compactor.session_state import VERSION, SavedPlan, SessionState
from context_compactor.settings import Settings
from context_compactor.store import Store

# What the release before the record wrote for a session that compacted once (a version-0 dict).
V0 = {
    "anchor": {"lead": 1, "cut": 9, "stub_until": 12, "stage": 2, "cut_digest": "aa", "stub_digest": "bb",
               "fingerprint": [8192, 6144, 4096, 2000, 4000, 1024, "chars"]},
    "tiers": {"lead": 1, "cut": 9, "first": 8, "text": "## Goal\n- ship it [#3]", "cut_digest": "aa",
              "fingerprint": [8192, 6144, 4096, 2000, 4000, 1024, "chars"]},
    "compactions": 3, "stuck_turns": 1, "holding": None, "pinned": ['["read_file", "{}"]'],
    "refetch_watch": {'["bash", "{}"]': [4, 30]}, "save_state_told": 41,
    "summary_fallbacks": {"timeout": 2},
    "last_fallback": {"at": "2026-11-30 10:00:00", "error": "read timed out"},
    "last_compaction": {"at": "2026-11-30 10:00:01", "tokens_before": 7000, "tokens_after": 3000, "folded": 8,
                        "stage": 2, "summarizer": "extractive", "chunks": 1, "cache_hits": 0, "fallbacks": 0},
}


def test_a_record_the_release_before_wrote_loads_with_the_defaults_it_lacked() -> None:
    """A version-0 dict (no version, no block size, tiers without their source) reads as the typed record."""
    state = SessionState.load(json.loads(json.dumps(V0)))
    assert state.anchor == SavedPlan(1, 9, 12, 2, 0, "aa", "bb", V0["anchor"]["fingerprint"])
    assert state.tiers is not None and state.tiers.text == V0["tiers"]["text"] and state.tiers.source == ""
    assert (state.compactions, state.stuck_turns, state.save_state_told) == (3, 1, 41)
    assert state.summary_fallbacks == {"timeout": 2} and state.last_fallback.error == "read timed out"
    assert state.last_compaction is not None and state.last_compaction.tokens_after == 3000


def test_a_record_reads_back_as_it_was_written() -> None:
    """dump() then load() gives the same record, at the current version."""
    state = SessionState.load(V0)
    dumped = json.loads(json.dumps(state.dump()))
    assert dumped["version"] == VERSION
    assert SessionState.load(dumped) == state


def test_a_record_from_a_newer_release_starts_the_session_afresh() -> None:
    """A version this release does not know is not guessed at: the session starts empty, and says so."""
    with structlog.testing.capture_logs() as logs:
        state = SessionState.load({**V0, "version": VERSION + 1}, "s")
    assert state == SessionState()
    assert [log["event"] for log in logs] == ["session.state_unknown"]


def test_a_part_that_does_not_read_is_dropped_alone() -> None:
    """A damaged anchor is dropped (the next turn plans afresh); the rest of the record stays."""
    with structlog.testing.capture_logs() as logs:
        state = SessionState.load({**SessionState.load(V0).dump(), "anchor": {"lead": 1}}, "s")
    assert state.anchor is None and state.compactions == 3 and state.tiers is not None
    assert any(log["event"] == "session.state_part_dropped" and log["part"] == "anchor" for log in logs)


def test_a_session_stored_by_the_release_before_goes_on_from_its_plan(make_runtime, run_hook) -> None:
    """A store written before the record (the state a version-0 dict) still loads in another process: the
    session reuses the plan it holds, so the ledger block goes out byte for byte as before."""
    runtime = make_runtime()
    messages = chat(60)
    first = run_hook(runtime, messages, window=8192)
    assert first.stats.compacted and first.stats.compactions == 1
    old = runtime.session("s1").state.dump()
    del old["version"], old["signature"]  # the dict of version 0 had neither
    runtime.store.save_session("s1", old)
    later = Runtime(Settings(), store=Store.open(runtime.store.path))  # another process on the same store
    try:
        assert later.session("s1").state.anchor == runtime.session("s1").state.anchor
        again = run_hook(later, [*messages, assistant("ok")], window=8192)
    finally:
        later.close()
    assert again.stats.compacted and again.messages[1] == first.messages[1]
    assert again.stats.compactions == 2


def test_a_session_another_process_takes_up_on_the_same_plan_is_not_compacted_again(make_runtime, run_hook) -> None:
    """A process that takes up a session whose plan still holds sends the same block and counts no new
    compaction, as the process that made the plan would (two replicas report one session's figures alike)."""
    runtime = make_runtime()
    messages = chat(60)
    first = run_hook(runtime, messages, window=8192)
    later = Runtime(Settings(), store=Store.open(runtime.store.path))  # another process on the same store
    try:
        again = run_hook(later, [*messages, assistant("ok")], window=8192)
    finally:
        later.close()
    alone = run_hook(runtime, [*messages, assistant("ok")], window=8192)
    assert again.messages[1] == first.messages[1] == alone.messages[1]
    assert again.stats.compactions == alone.stats.compactions == 1
    assert again.notices == alone.notices
