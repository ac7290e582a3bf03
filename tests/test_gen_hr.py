"""The HR and recruiting session generator (bench/gen_hr.py): determinism, planted facts, shape, size."""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from gen_hr import KINDS, TOOLS, make_session, per_kind
from generator_contract import assert_chat_format, assert_counts, assert_out_of_filler, assert_values_new
from sessiongen import Session, text_of


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
    other = make_session(seed=3, messages=400)
    assert json.dumps(a.messages) != json.dumps(other.messages) and a.facts != other.facts


def test_sizes_match_the_bench_conventions(small: Session, large: Session) -> None:
    """400 messages are about 150k tokens and 3000 about 1.2M, at 4 characters a token."""
    assert len(small.messages) == 400 and len(large.messages) == 3000
    assert 500_000 <= small.chars() <= 700_000
    assert 4_200_000 <= large.chars() <= 5_500_000


def test_generation_is_fast() -> None:
    """3000 messages take well under three seconds."""
    start = time.perf_counter()
    make_session(seed=11, messages=3000)
    assert time.perf_counter() - start < 3.0


@pytest.mark.parametrize("messages", [60, 121, 160, 400, 401, 777])
def test_any_size_comes_out_exact(messages: int) -> None:
    """Even and odd sizes give exactly the messages and facts asked for, ending on a user turn after an answer."""
    session = make_session(seed=1, messages=messages)
    assert len(session.messages) == messages
    assert session.messages[-1]["role"] == "user" and session.messages[-2]["role"] == "assistant"
    assert not session.messages[-2].get("tool_calls")
    assert_counts(session, KINDS, per_kind(messages))


def test_six_of_each_kind_at_400_twelve_at_3000(small: Session, large: Session) -> None:
    """Every kind is planted six times at 400 messages and twelve at 3000, and sensibly in between."""
    assert_counts(small, KINDS, 6)
    assert_counts(large, KINDS, 12)
    assert per_kind(400) == 6 and per_kind(3000) == 12 and per_kind(60) == 1
    sizes = [per_kind(m) for m in range(40, 3001, 20)]
    assert sizes == sorted(sizes) and min(sizes) >= 1 and 8 <= per_kind(1700) <= 10


@pytest.mark.parametrize("seed", [5, 8, 13])
@pytest.mark.parametrize("messages", [400, 3000])
def test_values_are_new_where_planted_and_absent_before(seed: int, messages: int) -> None:
    """A value (and a stale value) first occurs in its own message, corrections carry what they replace, some
    decisions are revised and some are not; values stay in their own episode, never in the filler."""
    session = make_session(seed=seed, messages=messages)
    assert_values_new(session, per_kind)
    assert_out_of_filler(session, stale_reach=12)


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
        if fact.kind in ("error", "finding"):
            assert fact.value in message["content"].splitlines() or fact.value in message["content"]
    assert {f.kind for f in session.facts if f.kind == "identifier" and session.messages[f.index]["role"] == "tool"}
    assert {f.kind for f in session.facts if f.kind == "identifier" and session.messages[f.index]["role"] == "user"}
    thirds = Counter(min(2, f.index * 3 // n) for f in session.facts)
    assert min(thirds.values()) >= len(session.facts) // 6


@pytest.mark.parametrize("name", ["small", "large"])
def test_errors_are_exact_lines_and_some_are_resolved(name: str, request: pytest.FixtureRequest) -> None:
    """An error's value is a whole line of the tool result; some errors are resolved by a later run, some not."""
    session: Session = request.getfixturevalue(name)
    errors = [f for f in session.facts if f.kind == "error"]
    for fact in errors:
        assert fact.value in session.messages[fact.index]["content"].splitlines()
        if fact.resolved is not None:
            later = session.messages[fact.resolved]
            assert fact.resolved > fact.index and later["role"] == "tool" and fact.value not in later["content"]
            call = session.messages[fact.index - 1]["tool_calls"][0]["function"]["name"]
            assert later["name"] == call
    resolved = sum(f.resolved is not None for f in errors)
    assert 0 < resolved < len(errors)


@pytest.mark.parametrize("name", ["small", "large"])
def test_chat_format_ends_on_a_user_turn(name: str, request: pytest.FixtureRequest) -> None:
    """OpenAI chat format: every tool call answered at once, every tool used, and a user turn last."""
    session: Session = request.getfixturevalue(name)
    assert_chat_format(session, TOOLS)
    assert len(TOOLS) == 11
    assert any(len(m.get("tool_calls") or []) > 1 for m in session.messages)  # some calls run in parallel


@pytest.mark.parametrize("name", ["small", "large"])
def test_pasted_material_is_marked_and_holds_others_demands(name: str, request: pytest.FixtureRequest) -> None:
    """What she pastes as someone else's words is listed, in the user message that holds it, and holds none of her
    rules, corrections, decisions or plans."""
    session: Session = request.getfixturevalue(name)
    assert len(session.pasted) >= 3
    for index, text in session.pasted:
        message = session.messages[index]
        assert message["role"] == "user" and text in message["content"] and set(message) == {"role", "content"}
    values = [f.value for f in session.facts] + [f.stale for f in session.facts if f.stale]
    for _index, text in session.pasted:
        assert not any(v in text for v in values)


def test_pasted_kinds_and_their_imperatives(large: Session) -> None:
    """CVs, job descriptions, feedback forms with the hiring manager's imperatives, candidate emails, the
    works-council agreement and payroll CSVs of many rows are all pasted."""
    bodies = "\n".join(t for _i, t in large.pasted)
    assert "Interview feedback —" in bodies and "Recommendation:" in bodies
    assert "Do not move forward with this candidate." in bodies or "Do not share this feedback" in bodies
    assert "EXPERIENCE" in bodies and "What we look for" in bodies and "Dear Beatriz," in bodies
    assert "The Employer shall" in bodies
    assert any(t.startswith(("employee_no;", "nr_pracownika,", "matricola;")) and t.count("\n") >= 25
               for _i, t in large.pasted)


def test_an_adopted_policy_is_her_rule_and_not_listed_as_pasted(large: Session) -> None:
    """A policy she adopts holds a planted instruction far from its ends and is not in ``pasted``."""
    pasted_at = {i for i, _t in large.pasted}
    policies = [f for f in large.facts if f.kind == "instruction" and "\n## " in large.messages[f.index]["content"]]
    assert 1 <= len(policies) <= 2
    for fact in policies:
        text = large.messages[fact.index]["content"]
        assert fact.index not in pasted_at and len(text) > 3000
        at = text.index(fact.value)
        assert 1000 < at < len(text) - 500


def test_rules_come_in_many_shapes(large: Session) -> None:
    """Instructions come in English, Portuguese, Polish and Italian, some in a later paragraph, without labels;
    one-off requests abound and are varied."""
    facts = [f for f in large.facts if f.kind == "instruction"]
    texts = [large.messages[f.index]["content"] for f in facts]
    joined = "\n".join(texts)
    assert any(w in joined for w in ("sempre", "Obrigada", "obrigada", "Lisboa"))
    assert any(w in joined for w in ("zawsze", "Dzięki", "Jeszcze", "wysyłaj"))
    assert any(w in joined for w in ("d'ora in poi", "prenota", "Grazie", "Milano"))
    later = [f for text, f in zip(texts, facts) if "\n## " not in text and f.value in text.split("\n\n", 1)[-1]
             and f.value not in text.split("\n\n", 1)[0]]
    assert later  # a rule in a later paragraph of an ordinary message, after a thank-you
    assert sum(w in joined for w in ("RULE:", "IMPORTANT:", "Rule:")) == 0
    users = [m["content"] for m in large.messages if m["role"] == "user"]
    assert len(set(users)) > 0.7 * len(users)
    dictated = [u for u in users if " full stop" in u or u == u.lower() and u.startswith(("ok so ", "um ", "right so "))]
    assert len(dictated) >= 20


def test_corrections_are_loose_and_near_misses(large: Session) -> None:
    """Corrections come far from what they replace, often as near misses of it."""
    corrections = [f for f in large.facts if f.kind == "correction"]
    close = far = 0
    for fact in corrections:
        assert fact.stale is not None and fact.stale_index is not None
        same = sum(a == b for a, b in zip(fact.value, fact.stale))
        close += same >= len(fact.value) // 2
        far += fact.index - fact.stale_index > 100
    assert close >= 6 and far >= 4


def test_filler_answers_its_requests_and_stays_clean(small: Session) -> None:
    """Every tool result is long enough to matter on average, and the filler never uses the facts' formats."""
    tools = [m["content"] for m in small.messages if m["role"] == "tool"]
    assert sum(map(len, tools)) / len(tools) > 2500
    fact_at = {f.index for f in small.facts} | {f.stale_index for f in small.facts if f.stale_index is not None}
    near = {i + d for i in fact_at for d in range(0, 13)}
    for i, m in enumerate(small.messages):
        if i not in near:
            assert "€" not in text_of(m), i
