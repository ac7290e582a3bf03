"""recall_history (hooks/recall.py): the tool's schema, its answers, its ranking, and automatic recall in the hook."""

from __future__ import annotations

import hashlib
import json
import threading
from pathlib import Path
from typing import Any

import pytest
from convo import assistant, chat, tool, user

from context_compactor.hooks import recall
from context_compactor.store import Store
from context_compactor.tokens import make_counter, tokens_of

SESSION = "s1"


@pytest.fixture
def store(tmp_path: Path) -> Any:
    s = Store.open(tmp_path / "store.sqlite")
    yield s
    s.close()


def archive(store: Store, messages: list[dict[str, Any]], session: str = SESSION, start: int = 0) -> None:
    rows = [(hashlib.sha256(json.dumps(m, sort_keys=True).encode()).hexdigest(), m["role"], m, start + i)
            for i, m in enumerate(messages)]
    store.archive(session, rows)


def filler(n: int) -> list[dict[str, Any]]:
    return [user(f"step {i}: tidy module {i} and rerun the linter") if i % 2 == 0
            else assistant(f"module {i} tidied, linter clean") for i in range(n)]


def test_the_tool_description_costs_at_most_120_tokens() -> None:
    """The description, sent with every request once a session compacted, is 120 tokens or fewer (cl100k and chars/4)."""
    for counter in (make_counter("cl100k_base", 4.0), make_counter("chars", 4.0)):
        assert tokens_of(counter, recall.DESCRIPTION) <= 120
    assert recall.openai_tool()["function"]["name"] == "recall_history"


def test_a_query_lists_hits_with_their_ledger_number(store: Store) -> None:
    """A query returns the best matches, each named #n (its history position), with role, turn and snippet."""
    archive(store, [*filler(6), user("The staging database is called orders_stage_7; do not touch prod.")])
    text = recall.answer(store, SESSION, json.dumps({"query": "name of the staging database"}))
    first = text.splitlines()[2]  # after the header and the opening fence line
    assert first.startswith("#6 (user, turn 4): ") and "orders_stage_7" in first


def test_an_id_returns_the_original_and_pages_a_long_one(store: Store) -> None:
    """An id returns the original text; a long one comes in pages, each naming the next offset."""
    long = "line of build output\n" * 600
    archive(store, [*filler(2), tool("c1", long)])
    first = recall.answer(store, SESSION, {"id": "#2"})
    assert first.startswith("#2 (tool, turn 1), characters 0-6,000 of 12,600") and "offset 6000" in first
    pages = [first]
    offset = 6000
    while "[more:" in pages[-1]:
        pages.append(recall.answer(store, SESSION, {"id": "#2", "offset": offset}))
        offset += recall.PAGE_CHARS
    assert "".join(_fenced_text(p) for p in pages) == long
    short = recall.answer(store, SESSION, {"id": "#0"})
    assert short.startswith("#0 (user, turn 1), original text")
    assert _fenced_text(short) == "step 0: tidy module 0 and rerun the linter"


def _fenced_text(answer: str) -> str:
    """The text between an answer's fence lines."""
    lines = answer.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith(recall.FENCE_OPEN + " "))
    end = max(i for i, line in enumerate(lines) if line.startswith(recall.FENCE_CLOSE + " "))
    assert lines[start][len(recall.FENCE_OPEN):] == lines[end][len(recall.FENCE_CLOSE):]
    return "\n".join(lines[start + 1:end])


def test_another_sessions_messages_cannot_be_read(store: Store) -> None:
    """A session reads only its own archive: another session's row id and index are refused."""
    archive(store, [user("secret of the other session: PIN 4242")], session="other")
    row = store.search("secret PIN", session="other")[0].id
    for ref in (f"row:{row}", "#0"):
        assert "no archived message" in recall.answer(store, SESSION, {"id": ref})
    assert recall.answer(store, SESSION, {"query": "secret PIN"}).startswith("no archived message")


def test_bad_input_is_answered_not_raised(store: Store) -> None:
    """Missing, malformed or wordless arguments get a one-line answer naming the fix."""
    assert "give query" in recall.answer(store, SESSION, None)
    assert "not a message id" in recall.answer(store, SESSION, {"id": "abc"})
    assert "no words" in recall.answer(store, SESSION, {"query": "!!!"})
    assert "not a number" in recall.answer(store, SESSION, {"id": "#1", "offset": "x"})
    assert "give query" not in recall.answer(store, SESSION, "deploy token")  # bare words are a query


def test_a_tool_result_is_found_by_what_its_call_asked(store: Store) -> None:
    """A bare result (a hash) is found by its call's words: the call says what the result is."""
    archive(store, [*filler(8), assistant("", [("c9", "bash", {"command": "git rev-parse HEAD"})]),
                    tool("c9", "9f3c2a1b7d\nexit code: 0"), *filler(4)])
    hits = recall.search(store, "commit at HEAD rev-parse", SESSION, limit=3)
    assert 9 in [h.index for h in hits]


def test_of_equal_matches_the_later_statement_comes_first(store: Store) -> None:
    """Two messages that match alike: the later one (a correction replaces what it corrects) ranks first."""
    archive(store, [user("The release branch is release/2024.1."), *filler(4),
                    user("The release branch is release/2024.2.")])
    assert [h.index for h in recall.search(store, "release branch", SESSION, limit=2)] == [5, 0]


def test_a_tiny_archive_whose_words_are_everywhere_still_answers(store: Store) -> None:
    """When BM25 scores every match 0 (each word in every message), the matches still come back, ranked."""
    archive(store, [user("port 8787"), tool("c1", "port 8787 set")])
    assert sorted(h.index for h in recall.search(store, "port", SESSION)) == [0, 1]


def test_auto_recall_quotes_a_strong_match_not_in_the_prompt(store: Store) -> None:
    """A message sharing most of its words with an archived one gets a cited snippet within the cap."""
    archive(store, [*filler(6), user("The payments mock container listens on host port 31337.")])
    got = recall.auto_recall(store, SESSION, "which host port does the payments mock container use?", [], "",
                             lambda t: len(t) // 4)
    assert got is not None and got.cited == ("#6",) and "[#6] user, turn 4:" in got.text and "31337" in got.text
    assert len(got.text) // 4 <= recall.AUTO_MAX_TOKENS


def test_auto_recall_stays_silent_when_the_match_is_in_the_prompt_or_weak(store: Store) -> None:
    """Nothing is recalled when the message is still sent verbatim, when the prompt quotes it, or on a weak match."""
    fact = "The payments mock container listens on host port 31337."
    archive(store, [*filler(6), user(fact)])
    question = "which host port does the payments mock container use?"
    assert recall.auto_recall(store, SESSION, question, [6], "", len) is None
    assert recall.auto_recall(store, SESSION, question, [], f"ledger: {fact} [#6]", len) is None
    assert recall.auto_recall(store, SESSION, "what about the linter payments?", [], "", len) is None


def test_the_hook_adds_recall_only_to_a_compacted_turn(make_runtime: Any, run_hook: Any) -> None:
    """Before compaction nothing is added; once compacted, a matching question gets the snippet in front of
    it (after the ledger and the kept tail, so the prompt before the question stays byte-identical)."""
    runtime = make_runtime()
    call = assistant("", [("c1", "bash", {"command": "docker compose ps"})])
    # Prose with no id or error in it: the ledger does not keep it, so only recall can bring it back.
    fact = tool("c1", "payments mock container: accepts only the sandbox card numbers, declines every other card"
                      "\nexit code: 0")
    question = user("which card numbers does the payments mock container accept?")
    assert run_hook(runtime, [user("start"), call, fact, assistant("noted"), question], window=8192).messages is None
    messages = [user("start"), call, fact, assistant("noted"), *chat(60)[1:], question]
    result = run_hook(runtime, messages, window=8192)
    asked = result.messages[-1]["content"]
    assert "Recalled from the archive" in asked and "[#2] tool bash" in asked and "sandbox card numbers" in asked
    assert asked.endswith(question["content"])
    assert "Recalled from the archive" not in json.dumps(result.messages[:-1])
    assert result.stats.tokens_after <= result.stats.trigger


def test_the_hook_adds_nothing_when_the_user_message_matches_nothing_archived(make_runtime: Any, run_hook: Any) -> None:
    """A compacted turn whose question matches no folded message carries no recall snippet."""
    runtime = make_runtime()
    result = run_hook(runtime, [*chat(60), user("zebra quantum marmalade?")], window=8192)
    assert result.stats.compacted and "Recalled from the archive" not in json.dumps(result.messages)


def test_a_cold_compaction_is_indexed_in_the_background(make_runtime: Any, run_hook: Any) -> None:
    """Thousands of archived messages are not indexed on the compaction turn: automatic recall waits for
    the next turn, and the background indexer catches up on its own."""
    import time

    runtime = make_runtime()
    messages = chat(700)
    held: list[int] = []
    original = runtime.store.index_pending
    gate = threading.Event()

    def slow_index(**kw: Any) -> int:
        gate.wait(10)  # hold the indexer until the turn is over
        held.append(1)
        return original(**kw)

    runtime.store.index_pending = slow_index  # type: ignore[method-assign]
    result = run_hook(runtime, [*messages, user("what was decided about alpha bravo charlie?")], window=8192)
    assert result.stats.compacted and "Recalled from the archive" not in json.dumps(result.messages)
    assert runtime.store.pending() > 500 and not held  # the turn itself indexed nothing
    gate.set()
    deadline = time.monotonic() + 20
    while runtime.store.pending() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert runtime.store.pending() == 0 and held
