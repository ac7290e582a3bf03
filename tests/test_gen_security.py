"""The security-operations session generator (bench/gen_security.py): determinism, planted facts, shape, size."""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from gen_security import KINDS, TOOLS, make_session, per_kind
from generator_contract import assert_chat_format, assert_counts, assert_out_of_filler, assert_values_new
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
    assert not session.messages[-2].get("tool_calls")
    assert_counts(session, KINDS, per_kind(messages))


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


@pytest.mark.parametrize("seed", [11, 12, 13, 14])
def test_other_seeds_keep_the_contract(seed: int) -> None:
    """The promises hold for other seeds too, not only for the one the fixtures use."""
    session = make_session(seed=seed, messages=400)
    assert_counts(session, KINDS, 6)
    assert_values_new(session, per_kind)
    assert_out_of_filler(session, stale_reach=12)
    assert 120_000 <= session.chars() // 4 <= 190_000


@pytest.mark.parametrize("name", ["small", "large"])
def test_carriers_and_placement(name: str, request: pytest.FixtureRequest) -> None:
    """Facts sit in the messages their kind comes from, between 3% and 88% of the session, early to late."""
    session: Session = request.getfixturevalue(name)
    n = len(session.messages)
    roles = {"instruction": {"user"}, "correction": {"user"}, "decision": {"user"}, "plan": {"user"},
             "file": {"assistant"}, "finding": {"tool"}, "error": {"tool", "user"}, "identifier": {"tool", "user"}}
    pasted_at = {i for i, _t in session.pasted}
    for fact in session.facts:
        message = session.messages[fact.index]
        assert message["role"] in roles[fact.kind], fact
        assert 0.03 * n <= fact.index <= 0.88 * n, fact
        if fact.stale_index is not None:
            assert fact.stale_index >= 0.03 * n
            assert session.messages[fact.stale_index]["role"] == "user", fact  # she said the old value herself
        if fact.kind == "file":
            assert len(message["tool_calls"]) == 1 and fact.value in message["tool_calls"][0]["function"]["arguments"]
        if fact.kind == "error":  # a failed call, or an error she pasted from her own terminal
            assert message.get("is_error") is True if message["role"] == "tool" else fact.index in pasted_at
    thirds = Counter(min(2, f.index * 3 // n) for f in session.facts)
    assert min(thirds.values()) >= len(session.facts) // 6


@pytest.mark.parametrize("name", ["small", "large"])
def test_chat_format_ends_on_a_user_turn(name: str, request: pytest.FixtureRequest) -> None:
    """OpenAI chat format: every tool call answered at once, known tools, and a user turn last."""
    session: Session = request.getfixturevalue(name)
    assert_chat_format(session, TOOLS)


@pytest.mark.parametrize("name", ["small", "large"])
def test_pasted_material_is_marked_and_holds_others_demands(name: str, request: pytest.FixtureRequest) -> None:
    """What the analyst pastes as someone else's words is listed, in the user message that holds it."""
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
    """Phishing mails, ransom notes, advisories and others' chat carry demands in rule-like words."""
    bodies = "\n".join(t for _i, t in large.pasted)
    assert "you must reset your password now" in bodies
    assert "Do not contact the police" in bodies and "within 48 hours" in bodies
    assert "must" in bodies and "Please make sure" in bodies
    assert any(t.startswith("indicator,type") and t.count("\n") >= 10 for _i, t in large.pasted)  # a threat-intel feed


def test_an_adopted_policy_is_her_rule_and_not_listed_as_pasted(large: Session) -> None:
    """An IR policy adopted with "follow it" holds a planted instruction far from its ends and is not in ``pasted``."""
    pasted_at = {i for i, _t in large.pasted}
    policies = [f for f in large.facts if f.kind == "instruction" and "\n## " in large.messages[f.index]["content"]]
    assert policies
    for fact in policies:
        text = large.messages[fact.index]["content"]
        assert fact.index not in pasted_at and len(text) > 8000
        at = text.index(fact.value)
        assert 2000 < at < len(text) - 1000


def test_rules_come_in_many_shapes(large: Session) -> None:
    """Instructions come in other languages, after a reason, in a later paragraph; one-off requests abound."""
    facts = [f for f in large.facts if f.kind == "instruction"]
    texts = [large.messages[f.index]["content"] for f in facts]
    joined = "\n".join(texts)
    foreign = ("bitte", "keine", "aldrig", "inga", "jamais", "toujours", "nunca", "siempre")
    assert any(w in joined for w in foreign)
    assert any(p.startswith(f.value[:20]) for t, f in zip(texts, facts) for p in t.split("\n\n")[1:])  # a later paragraph
    assert any(w in joined for w in (". so: ", ", so ", ". therefore ", " — so from now on "))  # reason first
    users = [m["content"] for m in large.messages if m["role"] == "user"]
    assert len(set(users)) > 0.7 * len(users)  # filler is varied, not a few templates repeated
    asks = re.compile(r"\b(pull|check|close|isolate|block|run|scan|look up|lookup|detonate|show me|grep|trace)\b", re.I)
    assert sum(bool(asks.search(u)) for u in users) >= 150
    languages = ("kannst du", "kan du", "peux-tu", "¿puedes", "kolla", "bitte")
    assert sum(any(w in u for w in languages) for u in users) >= 10  # she writes in German, Swedish, French, Spanish too


def test_corrections_are_near_misses_and_some_are_far(large: Session) -> None:
    """A correction's new value mostly differs from the stale one in a few characters; some come 100+ messages later."""
    close = 0
    corrections = [f for f in large.facts if f.kind == "correction"]
    for fact in corrections:
        assert fact.stale is not None
        same = sum(a == b for a, b in zip(fact.value, fact.stale))
        close += same >= len(fact.value) // 2
    assert close >= 6
    assert any(f.stale_index is not None and f.index - f.stale_index >= 100 for f in corrections)


def test_decisions_carry_their_reason_and_some_are_revised(large: Session) -> None:
    """A decision's value holds its why; a revised one names what it replaced, said by her earlier."""
    decisions = [f for f in large.facts if f.kind == "decision"]
    assert all(any(w in f.value for w in ("because", "since", ",")) for f in decisions)
    revised = [f for f in decisions if f.stale]
    assert revised and all(f.stale in large.messages[f.stale_index]["content"] for f in revised)


def test_tool_output_is_long_noisy_and_varied(large: Session) -> None:
    """Tool results are long, full of identifier-looking noise, and come in many shapes."""
    outputs = [m["content"] for m in large.messages if m["role"] == "tool"]
    assert sum(map(len, outputs)) / len(outputs) > 2500
    noise = "\n".join(outputs[:200])
    assert re.search(r"\b[0-9a-f]{64}\b", noise) and re.search(r"\b\d{1,3}(\.\d{1,3}){3}\b", noise)
    assert re.search(r"\b\d\d:\d\d:\d\d\b", noise)
    openings = {re.sub(r"[0-9a-f]{6,}|\d+", "#", o.strip()[:14]) for o in outputs}
    assert len(openings) >= 30
    errors = [m for m in large.messages if m["role"] == "tool" and m.get("is_error")]
    assert len(errors) > len([f for f in large.facts if f.kind == "error"])  # transient failures too, not only the planted ones
