"""The ML-research session generator (bench/gen_research.py): determinism, planted facts, shape, size."""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from gen_research import KINDS, make_session, per_kind
from sessiongen import Session, text_of


@pytest.fixture(scope="module")
def small() -> Session:
    return make_session(seed=3, messages=400)


@pytest.fixture(scope="module")
def large() -> Session:
    return make_session(seed=3, messages=3000)


def test_same_seed_same_session() -> None:
    a, b = make_session(seed=7, messages=400), make_session(seed=7, messages=400)
    assert json.dumps(a.messages) == json.dumps(b.messages)
    assert a.facts == b.facts and a.pasted == b.pasted
    c = make_session(seed=8, messages=400)
    assert json.dumps(a.messages) != json.dumps(c.messages)


def test_counts_per_kind(small: Session, large: Session) -> None:
    assert Counter(f.kind for f in small.facts) == {k: 6 for k in KINDS}
    assert Counter(f.kind for f in large.facts) == {k: 12 for k in KINDS}
    assert per_kind(400) == 6 and per_kind(3000) == 12 and per_kind(1700) == 9 and per_kind(100) == 1


@pytest.mark.parametrize("name", ["small", "large"])
def test_each_value_is_in_its_message_and_nowhere_before(name: str, request: pytest.FixtureRequest) -> None:
    session: Session = request.getfixturevalue(name)
    texts = [text_of(m) for m in session.messages]
    for fact in session.facts:
        assert fact.value in texts[fact.index], fact
        assert not any(fact.value in t for t in texts[:fact.index]), fact
        assert fact.query and fact.value not in fact.query
        if fact.stale is not None:
            assert fact.kind in ("correction", "decision")
            assert fact.stale_index is not None and fact.stale_index < fact.index
            assert fact.stale in texts[fact.stale_index]
            assert not any(fact.stale in t for t in texts[:fact.stale_index]), fact
            assert fact.stale != fact.value and fact.stale not in fact.value and fact.value not in fact.stale
    assert all(f.stale is not None for f in session.facts if f.kind == "correction")
    assert any(f.stale is not None for f in session.facts if f.kind == "decision")


@pytest.mark.parametrize("name", ["small", "large"])
def test_carriers_and_placement(name: str, request: pytest.FixtureRequest) -> None:
    session: Session = request.getfixturevalue(name)
    n = len(session.messages)
    roles = {"instruction": {"user"}, "correction": {"user"}, "decision": {"user"}, "plan": {"user"},
             "file": {"assistant"}, "finding": {"tool"}, "error": {"tool", "user"}, "identifier": {"tool", "user"}}
    for fact in session.facts:
        message = session.messages[fact.index]
        assert message["role"] in roles[fact.kind], fact
        assert 0.02 * n <= fact.index <= 0.9 * n, fact
        if fact.kind == "file":
            names = [c["function"]["name"] for c in message["tool_calls"]]
            assert set(names) <= {"write_file", "shell"}
    thirds = Counter(min(2, f.index * 3 // n) for f in session.facts)
    assert min(thirds.values()) >= len(session.facts) // 6  # early, middle and late all get facts


@pytest.mark.parametrize("name", ["small", "large"])
def test_chat_format_and_ending(name: str, request: pytest.FixtureRequest) -> None:
    session: Session = request.getfixturevalue(name)
    messages = session.messages
    assert messages[0]["role"] == "system" and messages[-1]["role"] == "user"
    assert messages[-2]["role"] == "assistant" and not messages[-2].get("tool_calls")
    pending: set[str] = set()
    for m in messages[1:]:
        assert m["role"] in ("user", "assistant", "tool")
        if m["role"] == "tool":
            assert m["tool_call_id"] in pending
            pending.discard(m["tool_call_id"])
            continue
        assert not pending, "a tool call went unanswered"
        for call in m.get("tool_calls") or []:
            json.loads(call["function"]["arguments"])
            assert call["function"]["name"] in {"run_python", "shell", "read_file", "write_file", "wandb_query", "slurm", "arxiv_search"}
            pending.add(call["id"])
    names = {c["function"]["name"] for m in messages for c in m.get("tool_calls") or []}
    assert {"run_python", "shell", "read_file", "write_file", "wandb_query", "slurm", "arxiv_search"} <= names


@pytest.mark.parametrize("name", ["small", "large"])
def test_pasted_is_in_user_messages(name: str, request: pytest.FixtureRequest) -> None:
    session: Session = request.getfixturevalue(name)
    assert len(session.pasted) >= 3
    for index, text in session.pasted:
        message = session.messages[index]
        assert message["role"] == "user" and text in message["content"] and len(text) > 100
        assert set(message) == {"role", "content"}
    kinds = Counter("review" if "Reviewer" in t else "trace" if "Traceback" in t else "csv" if "Wall time" in t else "yaml"
                    for _i, t in session.pasted)
    assert len(kinds) == 4 or name == "small"


def test_sizes_roughly_right(small: Session, large: Session) -> None:
    assert len(small.messages) == pytest.approx(400, abs=10)
    assert len(large.messages) == pytest.approx(3000, abs=10)
    assert 110_000 <= small.chars() // 4 <= 190_000
    assert 1_000_000 <= large.chars() // 4 <= 1_450_000
    tiny = make_session(seed=1, messages=60)
    assert tiny.messages[-1]["role"] == "user" and len(tiny.facts) == len(KINDS)


def test_fast() -> None:
    start = time.perf_counter()
    make_session(seed=11, messages=3000)
    assert time.perf_counter() - start < 15  # a few seconds; slack for a loaded machine


def test_researcher_voice(large: Session) -> None:
    users = [str(m["content"]) for m in large.messages if m["role"] == "user"]
    prose = " ".join(users)
    assert sum(u == u.lower() for u in users) > len(users) * 0.6  # mostly lowercase
    assert any(w in prose for w in ("jutro", "klopt", "zettai", "dzieki", "nou", "maa"))
    assert "wait no" in prose and "nvm" in prose
