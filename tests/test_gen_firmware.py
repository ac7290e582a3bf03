"""The firmware-team session generator (bench/gen_firmware.py): determinism, planted facts, shape, size."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from gen_firmware import TOOLS, make_session
from generator_contract import (
    assert_chat_format,
)
from sessiongen import Session


@pytest.fixture(scope="module")
def small() -> Session:
    return make_session(seed=5, messages=400)


@pytest.fixture(scope="module")
def large() -> Session:
    return make_session(seed=5, messages=3000)


@pytest.mark.parametrize("name", ["small", "large"])
def test_chat_format_ends_on_a_user_turn(name: str, request: pytest.FixtureRequest) -> None:
    """OpenAI chat format: every tool call answered at once, only the firmware tools, each used, a user turn last."""
    assert_chat_format(request.getfixturevalue(name), TOOLS)


@pytest.mark.parametrize("name", ["small", "large"])
def test_files_are_the_paths_the_agent_writes(name: str, request: pytest.FixtureRequest) -> None:
    """A file fact is the path its one write_file or edit_file call names (where facts sit and what they carry is
    in test_generators_contract.py)."""
    session: Session = request.getfixturevalue(name)
    for fact in session.facts:
        if fact.kind == "file":
            calls = session.messages[fact.index]["tool_calls"]
            assert len(calls) == 1 and calls[0]["function"]["name"] in ("write_file", "edit_file")
            assert fact.value == json.loads(calls[0]["function"]["arguments"])["path"]


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
