"""The firmware-team session generator (bench/gen_firmware.py): determinism, planted facts, shape, size."""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from gen_firmware import KINDS, TOOLS, make_session, per_kind
from generator_contract import (
    assert_chat_format,
    assert_counts,
    assert_out_of_filler,
    assert_values_new,
)
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


@pytest.mark.parametrize("seed", [1, 7, 11])
def test_sizes_hold_for_other_seeds(seed: int) -> None:
    assert 500_000 <= make_session(seed=seed, messages=400).chars() <= 700_000


def test_3000_messages_generate_quickly() -> None:
    start = time.perf_counter()
    make_session(seed=9, messages=3000)
    assert time.perf_counter() - start < 3.0


@pytest.mark.parametrize("messages", [121, 160, 400, 401, 1001])
def test_any_size_comes_out_exact(messages: int) -> None:
    """Even and odd sizes give exactly the messages asked for, ending on a user turn after an answer."""
    session = make_session(seed=1, messages=messages)
    assert len(session.messages) == messages
    assert session.messages[-1]["role"] == "user" and session.messages[-2]["role"] == "assistant"
    assert not session.messages[-2].get("tool_calls")
    assert_counts(session, KINDS, per_kind(messages))
    assert_values_new(session, per_kind)
    assert_out_of_filler(session, stale_reach=12)


def test_six_of_each_kind_at_400_twelve_at_3000(small: Session, large: Session) -> None:
    """Every kind is planted six times at 400 messages and twelve at 3000."""
    assert_counts(small, KINDS, 6)
    assert_counts(large, KINDS, 12)
    assert per_kind(400) == 6 and per_kind(3000) == 12 and per_kind(60) == 1
    assert [per_kind(m) for m in (800, 1700, 2500)] == sorted(per_kind(m) for m in (800, 1700, 2500))
    assert all(6 <= per_kind(m) <= 12 for m in range(400, 3001, 100))


@pytest.mark.parametrize("name", ["small", "large"])
def test_values_are_new_where_planted_and_absent_before(name: str, request: pytest.FixtureRequest) -> None:
    """A value (and a stale value) first occurs in its own message, and corrections carry what they replace."""
    assert_values_new(request.getfixturevalue(name), per_kind)


@pytest.mark.parametrize("name", ["small", "large"])
def test_values_stay_out_of_filler(name: str, request: pytest.FixtureRequest) -> None:
    """A value is only in its own episode (the message and the few after it), a stale value only in its own."""
    assert_out_of_filler(request.getfixturevalue(name), stale_reach=12)


@pytest.mark.parametrize("name", ["small", "large"])
def test_chat_format_ends_on_a_user_turn(name: str, request: pytest.FixtureRequest) -> None:
    """OpenAI chat format: every tool call answered at once, only the firmware tools, each used, a user turn last."""
    assert_chat_format(request.getfixturevalue(name), TOOLS)


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
            assert session.messages[fact.stale_index]["role"] == "user"
        if fact.kind == "file":
            calls = message["tool_calls"]
            assert len(calls) == 1 and calls[0]["function"]["name"] in ("write_file", "edit_file")
            assert fact.value == json.loads(calls[0]["function"]["arguments"])["path"]
        if fact.resolved is not None:
            assert fact.kind == "error" and fact.resolved > fact.index
            assert session.messages[fact.resolved]["role"] == "tool"
            assert fact.value not in text_of(session.messages[fact.resolved])
    thirds = Counter(min(2, f.index * 3 // n) for f in session.facts)
    assert min(thirds.values()) >= len(session.facts) // 6
    assert {f.kind for f in session.facts if f.resolved is not None} == {"error"}
    assert any(f.kind == "error" and f.resolved is None for f in session.facts)


@pytest.mark.parametrize("name", ["small", "large"])
def test_pasted_material_is_marked(name: str, request: pytest.FixtureRequest) -> None:
    """What the lead pastes is listed, in the user message that holds it, and holds none of his planted facts."""
    session: Session = request.getfixturevalue(name)
    assert len(session.pasted) >= 7
    for index, text in session.pasted:
        message = session.messages[index]
        assert message["role"] == "user" and text in message["content"] and set(message) == {"role", "content"}
        assert len(text) > 300
    planted = {f.index for f in session.facts}
    assert not planted & {i for i, _t in session.pasted}
    for fact in session.facts:
        assert all(fact.value not in t for _i, t in session.pasted)


def test_pasted_kinds_and_others_demands(large: Session) -> None:
    """Serial logs, analyzer CSVs, datasheets, reviews, issues, crash dumps and errata are pasted; reviews and
    errata carry imperatives that are not his instructions."""
    bodies = "\n".join(t for _i, t in large.pasted)
    assert "Never call k_sleep in an ISR." in bodies or "Never log from the radio callback" in bodies
    assert "Time [s],Packet ID,Address,Data,Read/Write,ACK/NAK" in bodies
    assert "*** Booting Zephyr OS" in bodies and "HARD FAULT" in bodies and "Workaround:" in bodies
    assert "**Describe the bug**" in bodies and "Reset value:" in bodies
    rules = [f.value for f in large.facts if f.kind == "instruction"]
    assert not any(r in bodies for r in rules)


def test_an_adopted_standard_is_his_rule_and_not_listed_as_pasted(large: Session) -> None:
    """The coding standard he adopts holds a planted instruction far from its ends and is not in ``pasted``."""
    pasted_at = {i for i, _t in large.pasted}
    adopted = [f for f in large.facts if f.kind == "instruction" and "\n## " in large.messages[f.index]["content"]]
    assert len(adopted) == 1
    fact = adopted[0]
    text = large.messages[fact.index]["content"]
    assert fact.index not in pasted_at and len(text) > 3000
    at = text.index(fact.value)
    assert 1000 < at < len(text) - 500


def test_rules_come_in_many_shapes(large: Session) -> None:
    """Instructions come in English, German, Japanese and Korean, some in a second paragraph, few labelled."""
    facts = [f for f in large.facts if f.kind == "instruction"]
    texts = [large.messages[f.index]["content"] for f in facts]
    joined = "\n".join(texts)
    assert "Bitte" in joined or "先頭に" in joined or "에서만" in joined
    assert sum(any(m in joined for m in marks) for marks in (("Bitte",), ("ください",), ("주세요",))) >= 2
    assert any(f.value in t.split("\n\n", 1)[-1] and "\n\n" in t for t, f in zip(texts, facts))
    assert not any(t.lstrip().startswith(("RULE:", "IMPORTANT:")) for t in texts)
    users = [m["content"] for m in large.messages if m["role"] == "user"]
    assert len(set(users)) > 0.7 * len(users)


def test_corrections_and_decisions(large: Session) -> None:
    """Corrections come far from what they fix and mostly as near misses; some decisions are revised, not all."""
    n = len(large.messages)
    corrections = [f for f in large.facts if f.kind == "correction"]
    assert all(f.stale_index is not None and f.index - f.stale_index >= 0.05 * n for f in corrections)
    close = sum(sum(a == b for a, b in zip(f.value, f.stale or "")) >= len(f.value) // 2 for f in corrections)
    assert close >= 6
    decisions = [f for f in large.facts if f.kind == "decision"]
    assert 0 < sum(f.stale is not None for f in decisions) < len(decisions)


def test_tool_outputs_are_long_and_every_call_is_valid_json(small: Session) -> None:
    """Tool messages carry most of the size; call arguments parse."""
    tools = [m for m in small.messages if m["role"] == "tool"]
    assert sum(len(m["content"]) for m in tools) > 0.7 * small.chars()
    assert sum(len(m["content"]) > 2000 for m in tools) > len(tools) // 2
    for m in small.messages:
        for call in m.get("tool_calls") or []:
            assert isinstance(json.loads(call["function"]["arguments"]), dict)
