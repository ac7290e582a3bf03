"""What bench/gen_mlops.py promises of its own domain (the shared contract is in test_generators_contract.py): an ML
engineer who writes some Mandarin, the agent's seven tools each answered at once, pasted material that is somebody
else's and never her rule, the conventions document she adopts as her own, corrections said loosely and far from
what they replace, errors as whole lines some of which a later run of the same command clears, and facts carried
by the messages their kind comes from."""

from __future__ import annotations

import json
import re
import sys
from functools import cache
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import gen_mlops
from generator_contract import assert_chat_format, content, facts
from sessiongen import Session

CJK = re.compile(r"[\u4e00-\u9fff]")
SEEDS = (5, 8, 13)


@cache
def session(seed: int, messages: int) -> Session:
    return gen_mlops.make_session(seed=seed, messages=messages)


@pytest.mark.parametrize("messages", [121, 160, 400, 777, 3000])
def test_every_tool_is_used_and_answered_at_once(messages: int) -> None:
    """All seven tools appear; each assistant call is followed right away by its results, in order, each naming the
    function it answers."""
    s = session(5, messages)
    assert_chat_format(s, gen_mlops.TOOLS)
    for i, m in enumerate(s.messages):
        calls = m.get("tool_calls") or []
        if not calls:
            continue
        assert m["role"] == "assistant"
        answers = s.messages[i + 1: i + 1 + len(calls)]
        assert [a["role"] for a in answers] == ["tool"] * len(calls)
        assert [a["tool_call_id"] for a in answers] == [c["id"] for c in calls]
        assert [a["name"] for a in answers] == [c["function"]["name"] for c in calls]
    assert all(m["role"] != "tool" or s.messages[i - 1]["role"] in ("assistant", "tool") for i, m in enumerate(s.messages))


@pytest.mark.parametrize("messages", [400, 3000])
@pytest.mark.parametrize("seed", SEEDS)
def test_she_writes_some_mandarin(seed: int, messages: int) -> None:
    """A share of her messages carry Mandarin, and at 3000 messages some of her rules, corrections or decisions are
    said in it."""
    s = session(seed, messages)
    hers = [m["content"] for m in s.messages if m["role"] == "user"]
    assert sum(bool(CJK.search(t)) for t in hers) >= 0.05 * len(hers)
    if messages == 3000:
        said = [content(s, f.index) for f in s.facts if f.kind in ("instruction", "correction", "decision")]
        assert sum(bool(CJK.search(t)) for t in said) >= 2


@pytest.mark.parametrize("messages", [400, 3000])
@pytest.mark.parametrize("seed", SEEDS)
def test_pasted_spans_are_somebody_elses(seed: int, messages: int) -> None:
    """Each pasted text is in her message at its index, next to words of her own; no planted value is inside a
    paste, and no rule, correction, decision or plan of hers comes from a pasted message."""
    s = session(seed, messages)
    assert len(s.pasted) == max(1, messages // 150)
    hers = {f.index for f in s.facts if f.kind in ("instruction", "correction", "decision", "plan")}
    for i, text in s.pasted:
        assert s.messages[i]["role"] == "user" and text in content(s, i)
        assert len(text) >= 150 and content(s, i).replace(text, "").strip()
        assert i not in hers
        assert not any(f.value in text or (f.stale and f.stale in text) for f in s.facts)


def test_pasted_imperatives_are_others() -> None:
    """Colleagues, reviewers and admins give orders in what she pastes ("please always use bf16 on the A100s"); those
    are pasted, and none of her instructions is said in a pasted message."""
    s = session(5, 3000)
    orders = [t for _i, t in s.pasted if re.search(r"\b(please always|must|do not|do NOT|never|always)\b", t)]
    assert len(orders) >= 5
    instructions = {f.index for f in facts(s, "instruction")}
    assert not instructions & {i for i, _t in s.pasted}


@pytest.mark.parametrize(("messages", "documents"), [(160, 1), (400, 1), (777, 1), (1700, 2), (3000, 2)])
def test_adopted_conventions_are_her_rules(messages: int, documents: int) -> None:
    """The lab's conventions document she adopts carries one of her instructions in the middle of its numbered rules,
    and is not listed as pasted."""
    s = session(5, messages)
    docs = [i for i, m in enumerate(s.messages) if m["role"] == "user" and "experiment conventions" in m["content"]]
    assert len(docs) == documents
    pasted = {i for i, _t in s.pasted}
    by_index = {f.index: f for f in facts(s, "instruction")}
    for i in docs:
        assert i not in pasted and i in by_index
        rules = [line for line in content(s, i).splitlines() if re.match(r"\d+\. ", line)]
        at = [k for k, line in enumerate(rules) if by_index[i].value in line]
        assert len(at) == 1 and 0 < at[0] < len(rules) - 1


@pytest.mark.parametrize("seed", SEEDS)
def test_instructions_come_in_many_forms(seed: int) -> None:
    """At 3000 messages her rules are said in Mandarin, trailing another request (the agent does that request
    first), inside a conventions document, and in plain English; one of them comes within the first 10%."""
    s = session(seed, 3000)
    instructions = facts(s, "instruction")
    texts = [content(s, f.index) for f in instructions]
    assert any(CJK.search(t) for t in texts)
    assert sum("experiment conventions" in t for t in texts) == 2
    trailing = [f for f in instructions if s.messages[f.index + 1].get("tool_calls")]
    assert trailing and all(content(s, f.index).find(f.value) > 20 for f in trailing)
    assert sum(not CJK.search(t) and "conventions" not in t for t in texts) >= 6
    assert min(f.index for f in instructions) < 0.1 * len(s.messages)


@pytest.mark.parametrize("messages", [400, 3000])
@pytest.mark.parametrize("seed", SEEDS)
def test_corrections_are_her_near_misses_far_away(seed: int, messages: int) -> None:
    """She said the stale value herself at ``stale_index``; the correction is a near miss of it (half its characters
    or more in place), and at 3000 messages four or more come over 100 messages later."""
    s = session(seed, messages)
    corrections = facts(s, "correction")
    for f in corrections:
        assert s.messages[f.stale_index]["role"] == "user" and f.stale in content(s, f.stale_index)
        assert s.messages[f.index]["role"] == "user" and f.value in content(s, f.index)
        assert f.value != f.stale and sum(a == b for a, b in zip(f.value, f.stale)) >= len(f.value) // 2
    if messages == 3000:
        assert sum(f.index - f.stale_index > 100 for f in corrections) >= 4


@pytest.mark.parametrize("messages", [400, 3000])
def test_revised_decisions_replace_her_own_first_choice(messages: int) -> None:
    """A revised decision's first choice was said by her, as a decision, earlier; the others have no stale value."""
    s = session(5, messages)
    decisions = facts(s, "decision")
    revised = [f for f in decisions if f.stale is not None]
    assert 0 < len(revised) < len(decisions)
    for f in revised:
        assert s.messages[f.stale_index]["role"] == "user" and f.stale in content(s, f.stale_index)
        assert f.stale_index < f.index and f.value not in content(s, f.stale_index)
    assert all(f.stale is None and f.stale_index is None for f in decisions if f not in revised)


@pytest.mark.parametrize("messages", [400, 3000])
@pytest.mark.parametrize("seed", SEEDS)
def test_errors_are_whole_lines_cleared_by_the_same_command(seed: int, messages: int) -> None:
    """An error is a whole line of a tool's output; a resolved one is cleared by a later run of exactly the same call
    (same tool, same arguments) whose output lacks the line; some errors stay unresolved."""
    s = session(seed, messages)
    errors = facts(s, "error")
    for f in errors:
        assert s.messages[f.index]["role"] == "tool" and f.value in content(s, f.index).splitlines()
        if f.resolved is None:
            continue
        before, after = s.messages[f.index - 1], s.messages[f.resolved - 1]
        assert len(before["tool_calls"]) == 1 and len(after["tool_calls"]) == 1
        assert before["tool_calls"][0]["function"] == after["tool_calls"][0]["function"]
        assert s.messages[f.resolved]["role"] == "tool" and f.value not in content(s, f.resolved)
        assert f.resolved > f.index
    assert 0 < sum(f.resolved is not None for f in errors) < len(errors)


@pytest.mark.parametrize("messages", [400, 3000])
def test_files_are_the_one_path_written(messages: int) -> None:
    """A file fact is the path of the single write_file or edit_file call of its message, and the result names it."""
    s = session(8, messages)
    for f in facts(s, "file"):
        calls = s.messages[f.index]["tool_calls"]
        assert len(calls) == 1 and calls[0]["function"]["name"] in ("write_file", "edit_file")
        assert json.loads(calls[0]["function"]["arguments"])["path"] == f.value
        assert f.value in content(s, f.index + 1)
        assert not any(f.value in content(s, i) for i in range(f.index) if s.messages[i]["role"] == "user")


@pytest.mark.parametrize("messages", [400, 3000])
def test_identifiers_findings_and_plans_sit_where_they_come_from(messages: int) -> None:
    """Identifiers are said by her or printed by a tool (both occur); a finding is part of one output line, not the
    whole line; a plan step is one of several steps of her plan."""
    s = session(13, messages)
    roles = {s.messages[f.index]["role"] for f in facts(s, "identifier")}
    assert roles == {"user", "tool"}
    for f in facts(s, "finding"):
        lines = [line for line in content(s, f.index).splitlines() if f.value in line]
        assert s.messages[f.index]["role"] == "tool" and lines and all(line.strip() != f.value for line in lines)
    for f in facts(s, "plan"):
        text = content(s, f.index)
        assert s.messages[f.index]["role"] == "user"
        assert sum(step in text for step in gen_mlops.GENERIC_STEPS) >= 2


@pytest.mark.parametrize("seed", SEEDS)
def test_most_of_the_session_is_routine(seed: int) -> None:
    """At 3000 messages the planted facts, first statements, reruns and pastes are a small share; facts spread from
    early to late, none in the last 12%."""
    s = session(seed, 3000)
    planted = {f.index for f in s.facts} | {f.stale_index for f in s.facts if f.stale_index is not None}
    planted |= {f.resolved for f in s.facts if f.resolved is not None} | {i for i, _t in s.pasted}
    assert len(planted) < 0.08 * len(s.messages)
    positions = sorted(f.index / 3000 for f in s.facts)
    assert positions[0] < 0.06 and 0.8 < positions[-1] <= 0.88


def test_per_kind_beyond_3000() -> None:
    """Beyond 3000 messages the count keeps growing linearly, and such sessions still come out exact."""
    assert gen_mlops.per_kind(5600) == 18
    s = gen_mlops.make_session(seed=3, messages=5600)
    assert len(s.messages) == 5600 and len(s.facts) == 8 * 18
