"""The finance close session generator (bench/gen_finance.py): determinism, planted facts, shape, size."""

from __future__ import annotations

import json
import re
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import gen_finance
from gen_finance import KINDS, TOOLS, make_session, per_kind
from generator_contract import assert_chat_format, assert_counts, assert_out_of_filler, assert_values_new
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


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 6, 7])
def test_sizes_hold_across_seeds(seed: int) -> None:
    """The size window is not a lucky seed."""
    assert 500_000 <= make_session(seed, 400).chars() <= 700_000
    assert 4_200_000 <= make_session(seed, 3000).chars() <= 5_500_000


def test_generation_is_fast() -> None:
    """3000 messages take well under three seconds."""
    start = time.perf_counter()
    make_session(seed=11, messages=3000)
    assert time.perf_counter() - start < 3.0


@pytest.mark.parametrize("messages", [60, 80, 121, 160, 239, 240, 400, 401, 777, 1700])
def test_any_size_comes_out_exact(messages: int) -> None:
    """Even and odd sizes give exactly the messages and facts asked for, ending on a user turn after an answer,
    with every fact between 3% and 88% of the session."""
    session = make_session(seed=1, messages=messages)
    assert len(session.messages) == messages
    assert session.messages[-1]["role"] == "user" and session.messages[-2]["role"] == "assistant"
    assert not session.messages[-2].get("tool_calls")
    assert_counts(session, KINDS, per_kind(messages))
    assert all(0.03 * messages <= f.index <= 0.88 * messages for f in session.facts)


def test_six_of_each_kind_at_400_twelve_at_3000(small: Session, large: Session) -> None:
    """Every kind is planted six times at 400 messages and twelve at 3000, linearly between and beyond."""
    assert_counts(small, KINDS, 6)
    assert_counts(large, KINDS, 12)
    assert per_kind(400) == 6 and per_kind(3000) == 12 and per_kind(60) == 1 and per_kind(20) == 1
    sizes = [per_kind(m) for m in range(20, 6001, 20)]
    assert sizes == sorted(sizes) and min(sizes) >= 1
    assert 8 <= per_kind(1700) <= 10 and per_kind(5600) == 18


@pytest.mark.parametrize("seed", [5, 8, 13])
@pytest.mark.parametrize("messages", [400, 3000])
def test_values_are_new_where_planted_and_absent_before(seed: int, messages: int) -> None:
    """A value (and a stale value) first occurs in its own message, corrections carry what they replace, some
    decisions are revised and some are not; values stay in their own episode, never in the filler."""
    session = make_session(seed=seed, messages=messages)
    assert_values_new(session, per_kind)
    assert_out_of_filler(session, stale_reach=12)


@pytest.mark.parametrize("seed", range(20, 32))
def test_values_stay_out_of_the_filler_for_many_seeds(seed: int) -> None:
    """The separation of planted and filler values holds for any seed, not only the usual ones."""
    session = make_session(seed=seed, messages=1200)
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
            assert fact.stale_index >= 0.03 * n and session.messages[fact.stale_index]["role"] == "user"
        if fact.kind == "file":
            assert len(message["tool_calls"]) == 1 and fact.value in message["tool_calls"][0]["function"]["arguments"]
        if fact.kind in ("error", "finding"):
            assert any(fact.value in line for line in message["content"].splitlines()), fact
    carriers = Counter(session.messages[f.index]["role"] for f in session.facts if f.kind == "identifier")
    assert carriers["tool"] and carriers["user"]
    thirds = Counter(min(2, f.index * 3 // n) for f in session.facts)
    assert min(thirds.values()) >= len(session.facts) // 6


@pytest.mark.parametrize("name", ["small", "large"])
def test_errors_are_exact_lines_and_some_are_resolved(name: str, request: pytest.FixtureRequest) -> None:
    """An error's value is a whole line of the tool result with a unique code in it; some errors are resolved by a
    later run of the same tool, some not."""
    session: Session = request.getfixturevalue(name)
    errors = [f for f in session.facts if f.kind == "error"]
    for fact in errors:
        assert fact.value in session.messages[fact.index]["content"].splitlines()
        assert re.search(r"\b[a-f][0-9a-f]{9}\b", fact.value), fact.value
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


def test_corrections_are_loose_and_near_misses(large: Session) -> None:
    """Corrections come far from what they replace, often as near misses of it."""
    corrections = [f for f in large.facts if f.kind == "correction"]
    close = far = 0
    for fact in corrections:
        assert fact.stale is not None and fact.stale_index is not None
        same = sum(a == b for a, b in zip(fact.value, fact.stale))
        close += same >= len(fact.value) // 2
        far += fact.index - fact.stale_index > 100
    assert close >= len(corrections) // 2 and far >= 4


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
