"""The HR and recruiting session generator (bench/gen_hr.py): determinism, planted facts, shape, size."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from gen_hr import TOOLS, make_session
from generator_contract import assert_chat_format
from sessiongen import Session, text_of


@pytest.fixture(scope="module")
def small() -> Session:
    return make_session(seed=5, messages=400)


@pytest.fixture(scope="module")
def large() -> Session:
    return make_session(seed=5, messages=3000)


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


def test_filler_answers_its_requests_and_stays_clean(small: Session) -> None:
    """Every tool result is long enough to matter on average, and the filler never uses the facts' formats."""
    tools = [m["content"] for m in small.messages if m["role"] == "tool"]
    assert sum(map(len, tools)) / len(tools) > 2500
    fact_at = {f.index for f in small.facts} | {f.stale_index for f in small.facts if f.stale_index is not None}
    near = {i + d for i in fact_at for d in range(0, 13)}
    for i, m in enumerate(small.messages):
        if i not in near:
            assert "€" not in text_of(m), i
