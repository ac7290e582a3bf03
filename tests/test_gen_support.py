"""The customer-support session generator (bench/gen_support.py): determinism, planted facts, shape, size."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from gen_support import KINDS, TOOLS, make_session, per_kind
from generator_contract import assert_counts, assert_out_of_filler, assert_values_new
from sessiongen import Session


@pytest.fixture(scope="module")
def small() -> Session:
    return make_session(seed=4, messages=400)


@pytest.fixture(scope="module")
def large() -> Session:
    return make_session(seed=4, messages=3000)


def test_same_seed_same_session() -> None:
    """The same seed and size give the same bytes; another seed gives another session."""
    a, b = make_session(seed=2, messages=400), make_session(seed=2, messages=400)
    assert json.dumps(a.messages) == json.dumps(b.messages)
    assert a.facts == b.facts and a.pasted == b.pasted
    assert json.dumps(a.messages) != json.dumps(make_session(seed=3, messages=400).messages)


def test_sizes_match_the_bench_conventions(small: Session, large: Session) -> None:
    """400 messages are about 150k tokens and 3000 about 1.2M, at 4 characters a token."""
    assert len(small.messages) == 400 and len(large.messages) == 3000
    assert 120_000 <= small.chars() // 4 <= 180_000
    assert 1_000_000 <= large.chars() // 4 <= 1_450_000


def test_six_of_each_kind_at_400_twelve_at_3000(small: Session, large: Session) -> None:
    """Every kind is planted six times at 400 messages and twelve at 3000."""
    assert_counts(small, KINDS, 6)
    assert_counts(large, KINDS, 12)
    assert per_kind(400) == 6 and per_kind(3000) == 12 and per_kind(60) == 1


@pytest.mark.parametrize("name", ["small", "large"])
def test_values_are_new_where_planted_and_absent_before(name: str, request: pytest.FixtureRequest) -> None:
    """A value (and a stale value) first occurs in its own message, and corrections carry what they replace."""
    assert_values_new(request.getfixturevalue(name), per_kind)


@pytest.mark.parametrize("name", ["small", "large"])
def test_values_stay_out_of_filler(name: str, request: pytest.FixtureRequest) -> None:
    """A value is only in its own episode (the message and the few after it), a stale value only in its own."""
    assert_out_of_filler(request.getfixturevalue(name), stale_reach=8)


@pytest.mark.parametrize("name", ["small", "large"])
def test_carriers_and_placement(name: str, request: pytest.FixtureRequest) -> None:
    """Facts sit in the messages their kind comes from, between 3% and 88% of the session, early to late."""
    session: Session = request.getfixturevalue(name)
    n = len(session.messages)
    roles = {"instruction": {"user"}, "correction": {"user"}, "decision": {"user"}, "plan": {"user"},
             "file": {"assistant"}, "finding": {"tool"}, "error": {"tool", "user"}, "identifier": {"tool", "user"}}
    for fact in session.facts:
        message = session.messages[fact.index]
        assert message["role"] in roles[fact.kind], fact
        assert 0.03 * n <= fact.index <= 0.88 * n, fact
        if fact.stale_index is not None:
            assert fact.stale_index >= 0.03 * n
        if fact.kind == "file":
            assert len(message["tool_calls"]) == 1 and fact.value in message["tool_calls"][0]["function"]["arguments"]
    thirds = Counter(min(2, f.index * 3 // n) for f in session.facts)
    assert min(thirds.values()) >= len(session.facts) // 6


@pytest.mark.parametrize("name", ["small", "large"])
def test_chat_format_ends_on_a_user_turn(name: str, request: pytest.FixtureRequest) -> None:
    """OpenAI chat format: every tool call answered at once, known tools, and a user turn last."""
    session: Session = request.getfixturevalue(name)
    messages = session.messages
    assert messages[0]["role"] == "system" and messages[-1]["role"] == "user"
    assert messages[-2]["role"] == "assistant" and not messages[-2].get("tool_calls")
    pending: set[str] = set()
    for m in messages[1:]:
        if m["role"] == "tool":
            assert m["tool_call_id"] in pending
            pending.discard(m["tool_call_id"])
            continue
        assert not pending, "a tool call went unanswered"
        assert m["role"] in ("user", "assistant")
        for call in m.get("tool_calls") or []:
            json.loads(call["function"]["arguments"])
            assert call["function"]["name"] in TOOLS
            pending.add(call["id"])
    used = {c["function"]["name"] for m in messages for c in m.get("tool_calls") or []}
    assert used == set(TOOLS)


@pytest.mark.parametrize("name", ["small", "large"])
def test_pasted_material_is_marked_and_carries_others_demands(name: str, request: pytest.FixtureRequest) -> None:
    """What the lead pastes as someone else's words is listed, in the user message that holds it, with demands inside."""
    session: Session = request.getfixturevalue(name)
    assert len(session.pasted) >= 3
    for index, text in session.pasted:
        message = session.messages[index]
        assert message["role"] == "user" and text in message["content"] and set(message) == {"role", "content"}
    bodies = "\n".join(t for _i, t in session.pasted)
    assert "You must respond within 24h or we cancel." in bodies or name == "small"
    planted = {f.index: f for f in session.facts if f.kind in ("instruction", "correction", "decision", "plan")}
    for index, text in session.pasted:  # no user rule, correction or plan is inside what was pasted
        if index in planted:
            assert planted[index].value not in text


def test_an_adopted_runbook_is_the_leads_rule_and_not_listed_as_pasted(large: Session) -> None:
    """A runbook pasted with "follow it" holds planted instructions in its middle and is not in ``pasted``."""
    pasted_at = {i for i, _t in large.pasted}
    runbooks = [f for f in large.facts if f.kind == "instruction" and "\n## " in large.messages[f.index]["content"]]
    assert runbooks
    for fact in runbooks:
        text = large.messages[fact.index]["content"]
        assert fact.index not in pasted_at and len(text) > 3000
        at = text.index(fact.value)
        assert 1500 < at < len(text) - 1500  # neither end of the document


def test_rules_come_in_many_shapes(large: Session) -> None:
    """Instructions are stated in English and other languages, some in a second paragraph, with one-offs around."""
    texts = [large.messages[f.index]["content"] for f in large.facts if f.kind == "instruction"]
    joined = "\n".join(texts)
    assert any(w in joined for w in ("siempre", "jamais", "nunca"))
    assert any(t.split("\n\n")[-1].startswith(f.value[:20]) for t, f in zip(texts, [f for f in large.facts if f.kind == "instruction"]))
    users = [m["content"] for m in large.messages if m["role"] == "user"]
    assert len(set(users)) > 0.8 * len(users)  # filler is varied, not a few templates repeated
    assert sum("reply to #" in u or "pull the invoices for" in u for u in users) >= 10  # one-off requests
