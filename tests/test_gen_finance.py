"""The finance close session generator (bench/gen_finance.py): determinism, planted facts, shape, size."""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import gen_finance
from gen_finance import TOOLS, make_session, per_kind
from generator_contract import assert_chat_format, assert_out_of_filler, assert_values_new
from sessiongen import Session, text_of

# shapes only planted values have: odd cents, the high half of each id range, six-decimal rates, "45k" thresholds,
# account codes with a -10..-89 subaccount
PLANTED_SHAPES = re.compile(r"\d[.,]\d[37](?!\d)|JE-[A-Z]{2}01-[5-9]\d{5}|PRV-[5-9]\d{4}|FINOPS-[5-9]\d{3}(?!\d)"
                            r"|TRX[5-9]\d{11}|CC-[5-9]\d{3}(?!\d)|\d\.\d{6}|(?<![\w.])\d{2}k\b|(?<![\d-])[13-9]\d{3}-[1-8]\d(?!\d)")


@pytest.fixture(scope="module")
def small() -> Session:
    return make_session(seed=5, messages=400)


@pytest.fixture(scope="module")
def large() -> Session:
    return make_session(seed=5, messages=3000)


def test_docstring_says_how_it_was_written() -> None:
    """The module says what it models and that it was written without reading the engine under test."""
    doc = gen_finance.__doc__ or ""
    assert "Written from its own short spec, without reading the engine under test." in doc
    assert all(word in doc for word in ("ES01", "MX01", "US01", "controller", "PBC"))


@pytest.mark.parametrize("seed", range(20, 32))
def test_values_stay_out_of_the_filler_for_many_seeds(seed: int) -> None:
    """The separation of planted and filler values holds for any seed, not only the usual ones."""
    session = make_session(seed=seed, messages=1200)
    assert_values_new(session, per_kind)
    assert_out_of_filler(session, stale_reach=12)


def test_errors_carry_a_unique_code(large: Session) -> None:
    """Each error line names its request, job or batch by a code of its own (the rest of an error's contract is in
    test_generators_contract.py)."""
    errors = [f for f in large.facts if f.kind == "error"]
    assert errors and all(re.search(r"\b[a-f][0-9a-f]{9}\b", f.value) for f in errors), errors


@pytest.mark.parametrize("name", ["small", "large"])
def test_chat_format_ends_on_a_user_turn(name: str, request: pytest.FixtureRequest) -> None:
    """OpenAI chat format: every tool call answered at once, every tool used, and a user turn last."""
    session: Session = request.getfixturevalue(name)
    assert_chat_format(session, TOOLS)
    assert len(TOOLS) == 11
    assert any(len(m.get("tool_calls") or []) > 1 for m in session.messages)  # some calls run in parallel
    for m in session.messages:
        if m["role"] == "tool":
            assert set(m) == {"role", "tool_call_id", "name", "content"}
        for call in m.get("tool_calls") or []:
            assert call["type"] == "function" and isinstance(json.loads(call["function"]["arguments"]), dict)


def test_agent_turns_vary(large: Session) -> None:
    """Some requests are answered at once, others after one to eight tool calls."""
    calls_per_turn: list[int] = []
    count = None
    for m in large.messages[1:]:
        if m["role"] == "user":
            count = 0
        elif m["role"] == "assistant" and count is not None:
            if m.get("tool_calls"):
                count += len(m["tool_calls"])
            else:
                calls_per_turn.append(count)
                count = None
    spread = Counter(calls_per_turn)
    assert spread[0] > 50 and spread[1] > 50 and sum(v for k, v in spread.items() if k >= 5) > 10
    assert max(spread) <= 8


@pytest.mark.parametrize("name", ["small", "large"])
def test_pasted_material_is_marked_and_holds_others_demands(name: str, request: pytest.FixtureRequest) -> None:
    """What she pastes as someone else's words or a machine's output is listed, in the user message that holds it,
    and holds none of her rules, corrections, decisions or plans, nor any planted value."""
    session: Session = request.getfixturevalue(name)
    assert len(session.pasted) >= 3
    for index, text in session.pasted:
        message = session.messages[index]
        assert message["role"] == "user" and text in message["content"] and set(message) == {"role", "content"}
    values = [f.value for f in session.facts] + [f.stale for f in session.facts if f.stale]
    for _index, text in session.pasted:
        assert not any(v in text for v in values)
    fact_at = {f.index for f in session.facts} | {f.stale_index for f in session.facts if f.stale_index is not None}
    assert not fact_at & {i for i, _t in session.pasted}


def test_pasted_kinds_and_their_imperatives(large: Session) -> None:
    """The auditors' PBC list with their imperatives, vendors demanding payment, the tax advisor's memo, a board
    member's questions, bank lines and ERP rows are all pasted."""
    bodies = "\n".join(t for _i, t in large.pasted)
    assert "Prepared By Client (PBC) list" in bodies and "Provide " in bodies and "by Friday" in bodies
    assert "FINAL NOTICE" in bodies or "Último aviso" in bodies
    assert "within 48 hours" in bodies or "en un plazo de 48 horas" in bodies
    assert "ORTEGA LANZ" in bodies and ("Deben " in bodies or "Recomendamos " in bodies)
    assert "Héctor Villarreal" in bodies and "Please send" in bodies
    assert any(t.startswith("Internal ID\tDocument Number") and t.count("\n") >= 8 for _i, t in large.pasted)
    assert any(t.count("\n") >= 7 and (t.count(";") > 20 or t.count('","') > 10) for _i, t in large.pasted)


def test_an_adopted_procedure_is_her_rule_and_not_listed_as_pasted(small: Session, large: Session) -> None:
    """The close procedure or accounting policy she adopts holds a planted instruction far from its ends, and is not
    in ``pasted``."""
    for session, most in ((small, 1), (large, 2)):
        pasted_at = {i for i, _t in session.pasted}
        policies = [f for f in session.facts if f.kind == "instruction" and "\n## " in session.messages[f.index]["content"]]
        assert 1 <= len(policies) <= most
        for fact in policies:
            text = session.messages[fact.index]["content"]
            assert fact.index not in pasted_at and len(text) > 3000
            at = text.index(fact.value)
            assert 1000 < at < len(text) - 500


def test_rules_come_in_many_shapes(large: Session) -> None:
    """Instructions come in Spanish and English, casual, indirect, reason first, as a profile fact, some in a later
    paragraph after an unrelated request, never with a label; users write mixed, terse and formal."""
    facts = [f for f in large.facts if f.kind == "instruction"]
    texts = [large.messages[f.index]["content"] for f in facts]
    joined = "\n".join(texts)
    assert any(w in joined for w in ("siempre", "nunca", "Nunca", "van a la", "Activamos", "para las provisiones"))
    assert any(w in joined for w in ("I'd prefer", "The auditors sample", "I sign off", "Any manual JE", "always goes",
                                     "Don't pay", "When you email", "tag every", "use the WSJ"))
    later = [f for text, f in zip(texts, facts) if "\n## " not in text and f.value in text.split("\n\n", 1)[-1]
             and f.value not in text.split("\n\n", 1)[0]]
    assert later
    assert sum(w in joined for w in ("RULE:", "IMPORTANT:", "Rule:", "Instruction:")) == 0
    users = [m["content"] for m in large.messages if m["role"] == "user"]
    assert len(set(users)) > 0.7 * len(users)
    assert {"ok", "dale"} & set(users) and any(u in ("sí, postéalo", "postéalo porfa", "go ahead, post it") for u in users)
    assert any(u.startswith("Estimado asistente:") for u in users)
    assert any(re.search(r"\d\.\d{3},\d\d", u) for u in users) and any(re.search(r"\d,\d{3}\.\d\d", u) for u in users)
    mixed = [u for u in users if re.search(r"\b(the|we|for|please)\b", u) and re.search(r"\b(el|la|de|porfa|que)\b", u)]
    assert len(mixed) > 30


def test_one_off_requests_abound_and_are_varied(large: Session) -> None:
    """Most of the session is one-off requests, each answered, in many different wordings."""
    fact_at = {f.index for f in large.facts} | {f.stale_index for f in large.facts if f.stale_index is not None}
    asks = [m["content"] for i, m in enumerate(large.messages) if m["role"] == "user" and i not in fact_at]
    assert len(asks) > 400
    assert len({a[:24] for a in asks}) > 150
    waiting = None  # a user message not yet answered by an assistant text
    for i, m in enumerate(large.messages):
        if m["role"] == "user":
            assert waiting is None, waiting
            waiting = i
        elif m["role"] == "assistant" and not m.get("tool_calls"):
            waiting = None
    assert waiting == len(large.messages) - 1


@pytest.mark.parametrize("name", ["small", "large"])
def test_filler_answers_its_requests_and_stays_clean(name: str, request: pytest.FixtureRequest) -> None:
    """Tool results are long on average, and away from the planted facts nothing has a planted value's shape."""
    session: Session = request.getfixturevalue(name)
    tools = [m["content"] for m in session.messages if m["role"] == "tool"]
    assert sum(map(len, tools)) / len(tools) > 2500
    fact_at = {f.index for f in session.facts} | {f.stale_index for f in session.facts if f.stale_index is not None}
    near = {i + d for i in fact_at for d in range(0, 13)}
    episode = {i + d for i in fact_at for d in range(-6, 13)}
    for i, m in enumerate(session.messages):
        if i not in near:
            assert not PLANTED_SHAPES.search(text_of(m)), (i, PLANTED_SHAPES.search(text_of(m)))
        if i not in episode:
            assert not any(name in text_of(m) for name in gen_finance.FACT_VENDORS), i


def test_facts_per_kind_grow_beyond_3000() -> None:
    """The number of facts of each kind goes on growing linearly past 3000 messages, and is one for tiny sessions."""
    assert per_kind(20) == 1 and per_kind(5600) == 18
