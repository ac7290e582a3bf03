"""The bookkeeping session generator (bench/gen_books.py): determinism, planted facts, shape, size."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from gen_books import KINDS, TOOLS, make_session, per_kind
from generator_contract import assert_counts, assert_out_of_filler, assert_values_new
from sessiongen import Session


@pytest.fixture(scope="module")
def small() -> Session:
    return make_session(seed=5, messages=400)


@pytest.fixture(scope="module")
def large() -> Session:
    return make_session(seed=5, messages=3000)


def test_same_seed_same_session() -> None:
    """The same seed and size give the same bytes; another seed gives another session."""
    a, b = make_session(seed=2, messages=400), make_session(seed=2, messages=400)
    assert json.dumps(a.messages) == json.dumps(b.messages)
    assert a.facts == b.facts and a.pasted == b.pasted
    assert json.dumps(a.messages) != json.dumps(make_session(seed=3, messages=400).messages)


def test_sizes_match_the_bench_conventions(small: Session, large: Session) -> None:
    """400 messages are about 150k tokens and 3000 about 1.2M, at 4 characters a token."""
    assert len(small.messages) == 400 and len(large.messages) == 3000
    assert 120_000 <= small.chars() // 4 <= 190_000
    assert 1_000_000 <= large.chars() // 4 <= 1_450_000


@pytest.mark.parametrize("messages", [121, 160, 400, 401])
def test_any_size_comes_out_exact(messages: int) -> None:
    """Even and odd sizes give exactly the messages asked for, ending on a user turn after an answer."""
    session = make_session(seed=1, messages=messages)
    assert len(session.messages) == messages
    assert session.messages[-1]["role"] == "user" and session.messages[-2]["role"] == "assistant"


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
    assert_out_of_filler(request.getfixturevalue(name), stale_reach=12)


@pytest.mark.parametrize("name", ["small", "large"])
def test_carriers_and_placement(name: str, request: pytest.FixtureRequest) -> None:
    """Facts sit in the messages their kind comes from, between 3% and 88% of the session, early to late."""
    session: Session = request.getfixturevalue(name)
    n = len(session.messages)
    roles = {"instruction": {"user"}, "correction": {"user"}, "decision": {"user"}, "plan": {"user"},
             "file": {"assistant"}, "finding": {"tool"}, "error": {"tool"}, "identifier": {"tool", "user"}}
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
def test_pasted_material_is_marked_and_holds_others_demands(name: str, request: pytest.FixtureRequest) -> None:
    """What the controller pastes as someone else's words is listed, in the user message that holds it."""
    session: Session = request.getfixturevalue(name)
    assert len(session.pasted) >= 3
    for index, text in session.pasted:
        message = session.messages[index]
        assert message["role"] == "user" and text in message["content"] and set(message) == {"role", "content"}
    planted = {f.index: f for f in session.facts if f.kind in ("instruction", "correction", "decision", "plan")}
    for index, text in session.pasted:  # no rule, correction, decision or plan of hers is inside what she pasted
        if index in planted:
            assert planted[index].value not in text


def test_pasted_demands_are_rule_like(large: Session) -> None:
    """Auditors' and vendors' pasted mail carries demands in rule-like words, and bank CSVs carry many amounts."""
    bodies = "\n".join(t for _i, t in large.pasted)
    assert "You must settle the full amount within" in bodies
    assert "must be supported by documentation" in bodies or "We require the bank confirmations" in bodies
    assert any(t.startswith('"Datum","Naam / Omschrijving"') and t.count("\n") >= 25 for _i, t in large.pasted)


def test_an_adopted_policy_is_her_rule_and_not_listed_as_pasted(large: Session) -> None:
    """A policy adopted with "apply it" holds planted instructions far from its ends and is not in ``pasted``."""
    pasted_at = {i for i, _t in large.pasted}
    policies = [f for f in large.facts if f.kind == "instruction" and "\n## " in large.messages[f.index]["content"]]
    assert policies
    for fact in policies:
        text = large.messages[fact.index]["content"]
        assert fact.index not in pasted_at and len(text) > 3000
        at = text.index(fact.value)
        assert 1000 < at < len(text) - 500


def test_rules_come_in_many_shapes(large: Session) -> None:
    """Instructions come in English, German and Dutch, some in a second paragraph; one-off requests abound."""
    facts = [f for f in large.facts if f.kind == "instruction"]
    texts = [large.messages[f.index]["content"] for f in facts]
    joined = "\n".join(texts)
    assert any(w in joined for w in ("bitte", "Bitte")) and any(w in joined for w in ("altijd", "pas als"))
    assert any(p.startswith(f.value[:20]) for t, f in zip(texts, facts) for p in t.split("\n\n")[1:])  # a later paragraph
    users = [m["content"] for m in large.messages if m["role"] == "user"]
    assert len(set(users)) > 0.7 * len(users)  # filler is varied, not a few templates repeated
    assert sum(u.lower().startswith(("pay the", "send the", "queue the", "draft a")) for u in users) >= 10


def test_corrections_are_numeric_and_near_misses(large: Session) -> None:
    """A correction's new value differs from the stale one in a few characters: the easily confused kind."""
    close = 0
    for fact in (f for f in large.facts if f.kind == "correction"):
        assert fact.stale is not None
        same = sum(a == b for a, b in zip(fact.value, fact.stale))
        close += same >= len(fact.value) // 2
    assert close >= 6
