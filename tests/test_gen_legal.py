"""The lawyer's session generator (bench/gen_legal.py): determinism, planted facts, shape, size."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from gen_legal import KINDS, TOOLS, make_session, per_kind, problems
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


def test_tiny_sessions_are_exact_and_plant_what_fits() -> None:
    """Down to 4 messages a session comes out exact; what it plants still keeps the contract."""
    for messages in (4, 5, 7, 20, 33, 60):
        session = make_session(seed=messages, messages=messages)
        assert len(session.messages) == messages and session.messages[-1]["role"] == "user"
        assert not problems(session)
    assert len(make_session(seed=1, messages=60).facts) == 8


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
             "file": {"assistant"}, "finding": {"tool"}, "error": {"tool", "user"}, "identifier": {"tool", "user"}}
    for fact in session.facts:
        message = session.messages[fact.index]
        assert message["role"] in roles[fact.kind], fact
        assert 0.03 * n <= fact.index <= 0.88 * n, fact
        if fact.stale_index is not None:
            assert fact.stale_index >= 0.03 * n
            assert session.messages[fact.stale_index]["role"] == "user"
        if fact.kind == "file":
            assert len(message["tool_calls"]) == 1 and fact.value in message["tool_calls"][0]["function"]["arguments"]
            assert message["tool_calls"][0]["function"]["name"] in ("write_file", "edit_file")
    thirds = Counter(min(2, f.index * 3 // n) for f in session.facts)
    assert min(thirds.values()) >= len(session.facts) // 6
    for kind in KINDS:  # each kind early and late, not bunched
        at = sorted(f.index for f in session.facts if f.kind == kind)
        assert at[0] < n // 3 and at[-1] > n // 2, (kind, at)


@pytest.mark.parametrize("name", ["small", "large"])
def test_chat_format_ends_on_a_user_turn(name: str, request: pytest.FixtureRequest) -> None:
    """OpenAI chat format: every tool call answered at once, known tools, and a user turn last."""
    session: Session = request.getfixturevalue(name)
    assert_chat_format(session, TOOLS)


@pytest.mark.parametrize("name", ["small", "large"])
def test_pasted_material_is_marked_and_holds_no_rule_of_hers(name: str, request: pytest.FixtureRequest) -> None:
    """What the lawyer pastes as someone else's words is listed, in the user message that holds it."""
    session: Session = request.getfixturevalue(name)
    assert len(session.pasted) >= 3
    for index, text in session.pasted:
        message = session.messages[index]
        assert message["role"] == "user" and text in message["content"] and set(message) == {"role", "content"}
    planted = {f.index: f for f in session.facts if f.kind in ("instruction", "correction", "decision", "plan")}
    for index, text in session.pasted:  # no rule, correction, decision or plan of the lawyer's is inside what they pasted
        if index in planted:
            assert planted[index].value not in text


def test_pasted_words_are_demands_clauses_and_orders(large: Session) -> None:
    """Opposing counsel's demands, contract obligations, court orders, clients' wishes and a regulator's letter: rule-like
    words that are evidence, not instructions."""
    bodies = "\n".join(t for _i, t in large.pasted)
    assert any(d in bodies for d in ("or we will issue proceedings", "failing which we are instructed to file", "Klage erheben",
                                     "tot dagvaarding overgaan", "nous saisirons"))
    assert "shall not" in bodies and "shall" in bodies
    assert "Vonnis van" in bodies or "IT IS ORDERED THAT" in bodies
    assert "Autoriteit Persoonsgegevens" in bodies
    assert sum(t.startswith("From: ") for _i, t in large.pasted) >= 10
    assert len(large.pasted) >= 40


def test_an_adopted_playbook_is_the_lawyers_rule_and_not_listed_as_pasted(small: Session, large: Session) -> None:
    """A playbook adopted with "follow it" is longer than 8k characters, holds a planted instruction far from its ends
    and is not in ``pasted``."""
    for session, least in ((small, 1), (large, 2)):
        pasted_at = {i for i, _t in session.pasted}
        books = [f for f in session.facts if f.kind == "instruction" and "\n## " in session.messages[f.index]["content"]]
        assert len(books) >= least
        for fact in books:
            text = session.messages[fact.index]["content"]
            assert fact.index not in pasted_at and len(text) > 8000 and ("follow it" in text or "use it" in text)
            at = text.index(fact.value)
            assert 1000 < at < len(text) - 500


def test_rules_come_in_many_shapes(large: Session) -> None:
    """Instructions in English, Dutch and German, some in a second paragraph without a strong word; one-off requests abound
    and filler is varied."""
    facts = [f for f in large.facts if f.kind == "instruction"]
    texts = [large.messages[f.index]["content"] for f in facts]
    joined = "\n".join(texts)
    assert "bitte" in joined and "voordat" in joined
    assert any(p.find(f.value) >= 0 for t, f in zip(texts, facts) for p in t.split("\n\n")[1:])  # a later paragraph
    users = [m["content"] for m in large.messages if m["role"] == "user"]
    assert len(set(users)) > 0.8 * len(users)
    assert sum("pls" in u or "draft" in u.lower() or "check" in u.lower() for u in users) >= 100
    answers = [m["content"] for m in large.messages if m["role"] == "assistant" and not m.get("tool_calls")]
    assert len(set(answers)) > 0.7 * len(answers)
    shapes = Counter(m["content"].split("\n")[0][:14] for m in large.messages if m["role"] == "tool")
    assert len(shapes) >= 30  # many kinds of tool output, not a few repeated


def test_corrections_are_near_misses_and_some_are_far(large: Session) -> None:
    """Most corrections differ from the stale value in a few characters; some come 100+ messages after it."""
    fixes = [f for f in large.facts if f.kind == "correction"]
    close = sum(sum(a == b for a, b in zip(f.value, f.stale or "")) >= len(f.value) // 2 for f in fixes)
    assert close >= 8
    assert any(f.index - (f.stale_index or f.index) >= 100 for f in fixes)
    assert all(large.messages[f.stale_index or 0]["role"] == "user" for f in fixes)


def test_errors_decisions_and_findings(large: Session) -> None:
    """Some errors are pasted by the lawyer and some are resolved by a retry; some decisions are revised; findings come
    from tool results."""
    errors = [f for f in large.facts if f.kind == "error"]
    pasted_at = {i for i, _t in large.pasted}
    assert 1 <= sum(f.index in pasted_at for f in errors) < len(errors)
    assert any(f.resolved is not None and f.resolved > f.index for f in errors)
    revised = [f for f in large.facts if f.kind == "decision" and f.stale]
    assert 2 <= len(revised) <= 6
    assert all(large.messages[f.index]["role"] == "tool" for f in large.facts if f.kind == "finding")
