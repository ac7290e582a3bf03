"""bench/gen_robotics.py: beyond the contract every session generator keeps (tests/test_generators_contract.py checks
this module too), what its robotics sessions promise of their own:
pasted documents that carry other people's imperatives, loose and bilingual corrections, rules in Japanese and
English, error lines that are whole lines and really gone when the same command passes later."""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import gen_robotics as gen
from generator_contract import (assert_chat_format, assert_counts, assert_first_rules_early, assert_out_of_filler,
                                assert_values_new, call_of, content, facts)
from sessiongen import Session, text_of

STALE_REACH = 12
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def adopted(session: Session) -> list[object]:
    """Instructions the user adopted from a document pasted in the same message."""
    where = {i for i, _ in session.pasted}
    return [f for f in facts(session, "instruction") if f.index in where]


@pytest.fixture(scope="module", params=[400, 3000], ids=lambda m: f"robotics-{m}")
def planted(request: pytest.FixtureRequest) -> Session:
    return gen.make_session(seed=5, messages=request.param)


@pytest.fixture(scope="module")
def big() -> Session:
    return gen.make_session(seed=7, messages=3000)


# --- the contract beyond tests/test_generators_contract.py (which checks this generator too) ---------------------------------------



@pytest.mark.parametrize("messages", [121, 160, 400, 777, 3000])
def test_the_first_two_rules_come_early_and_are_the_users_own(messages: int) -> None:
    session = gen.make_session(seed=3, messages=messages)
    assert_first_rules_early(session, messages, adopted(session))


# --- what the robotics sessions promise of their own ----------------------------------------------------------

def test_every_size_from_60_to_260_is_exact_with_its_facts() -> None:
    for messages in range(60, 261, 7):
        session = gen.make_session(seed=messages, messages=messages)
        assert len(session.messages) == messages
        assert_counts(session, gen.KINDS, gen.per_kind(messages))
        assert_chat_format(session, gen.TOOLS)


def test_pasted_texts_are_verbatim_in_user_messages_and_carry_other_peoples_imperatives(big: Session) -> None:
    assert len(big.pasted) >= 6
    for index, text in big.pasted:
        assert big.messages[index]["role"] == "user" and text in content(big, index)
        assert re.search(r"\b(Please|Do not|do not|Don't|don't|Never)\b", text), text
        assert re.search(r"\d", text)


def test_pasted_documents_are_of_many_kinds(big: Session) -> None:
    markers = {"vendor": "Technical Support", "checklist": "SAFETY CHECKLIST", "incident": "Incident report",
               "review": "reviewed PR", "slack": "dropped off wifi", "crash": "process has died"}
    seen = {kind for kind, marker in markers.items() for _i, text in big.pasted if marker in text}
    assert len(seen) >= 5, seen


def test_no_planted_value_comes_from_pasted_text(planted: Session) -> None:
    for fact in planted.facts:
        for _i, text in planted.pasted:
            assert fact.value not in text and (fact.stale is None or fact.stale not in text), fact


def test_adopted_rules_restate_the_pasted_document_in_the_users_words(planted: Session) -> None:
    rules = adopted(planted)
    assert rules
    pasted = dict(planted.pasted)
    for fact in rules:
        own = content(planted, fact.index).replace(pasted[fact.index], "")
        assert fact.value in own and fact.value not in pasted[fact.index]


def test_rules_come_in_japanese_and_in_english(planted: Session) -> None:
    lines = [next(line for line in content(planted, f.index).splitlines() if f.value in line)
             for f in facts(planted, "instruction")]
    assert any(JAPANESE.search(line) for line in lines) and any(not JAPANESE.search(line) for line in lines)


def test_some_rules_sit_in_a_later_paragraph(big: Session) -> None:
    later = [f for f in facts(big, "instruction") if f.value not in content(big, f.index).split("\n\n")[0]]
    assert later


def test_corrections_are_loose_in_both_languages(big: Session) -> None:
    loose = re.compile(r"no wait|the other|wrong|scratch that|typo|I meant|じゃなくて|間違えた|の方|だった")
    corrections = facts(big, "correction")
    assert all(loose.search(content(big, f.index)) for f in corrections)
    texts = [content(big, f.index) for f in corrections]
    assert any(JAPANESE.search(t) for t in texts) and any(not JAPANESE.search(t) for t in texts)


def test_some_corrections_sit_in_the_middle_of_a_longer_message(big: Session) -> None:
    middle = [f for f in facts(big, "correction")
              if len(content(big, f.index).split("\n\n")) >= 3 and f.value in content(big, f.index).split("\n\n")[1]]
    assert middle


def test_a_correction_replaces_what_the_user_said_and_the_agent_used(big: Session) -> None:
    for fact in facts(big, "correction"):
        assert fact.stale is not None and fact.stale_index is not None
        assert fact.stale in content(big, fact.stale_index)
        assert fact.stale not in fact.value and fact.value not in fact.stale
        answer = [text_of(m) for m in big.messages[fact.index + 1:fact.index + 9]]
        assert any(fact.value in t for t in answer)


def test_errors_look_like_real_tool_output(planted: Session) -> None:
    shapes = re.compile(r"^(/ws/src/\S+:\d+:\d+: error: |\[  FAILED  \] \w+\.\w+ \(\d+ ms\)$|FAILED test/\S+ - "
                        r"AssertionError|\[planner_server-\d+\] \[ERROR\] |HTTP 409 Conflict: |gazebo-1 +\| \[Err\] |"
                        r"can\d: bus-off)")
    for fact in facts(planted, "error"):
        assert shapes.search(fact.value), fact.value
        assert "\n" not in fact.value


def test_resolved_errors_pass_when_the_same_command_runs_again(planted: Session) -> None:
    for fact in facts(planted, "error"):
        if fact.resolved is None:
            continue
        first, again = call_of(planted, fact.index), call_of(planted, fact.resolved)
        assert first["name"] == again["name"] and first["arguments"] == again["arguments"]
        assert fact.value not in content(planted, fact.resolved)


def test_unresolved_errors_never_pass_later(planted: Session) -> None:
    for fact in facts(planted, "error"):
        if fact.resolved is None:
            after = [i for i in range(fact.index + 1, len(planted.messages)) if fact.value in text_of(planted.messages[i])]
            assert all(i <= fact.index + 8 for i in after)


def test_files_are_written_by_one_call_to_the_path(planted: Session) -> None:
    for fact in facts(planted, "file"):
        (call,) = planted.messages[fact.index]["tool_calls"]
        assert call["function"]["name"] in ("write_file", "edit_file")
        assert json.loads(call["function"]["arguments"])["path"] == fact.value


def test_findings_are_explained_in_the_next_assistant_message(planted: Session) -> None:
    for fact in facts(planted, "finding"):
        following = planted.messages[fact.index + 1]
        assert following["role"] == "assistant" and fact.value in content(planted, fact.index + 1)
        assert fact.value not in call_of(planted, fact.index)["arguments"]


def test_printed_identifiers_were_not_asked_for(planted: Session) -> None:
    printed = [f for f in facts(planted, "identifier") if planted.messages[f.index]["role"] == "tool"]
    assert printed
    for fact in printed:
        assert fact.value not in call_of(planted, fact.index)["arguments"]


def test_plans_are_prose_or_short_lists(planted: Session) -> None:
    for fact in facts(planted, "plan"):
        text = content(planted, fact.index)
        assert len(text) > 3 * len(fact.value) and ("\n" in text or "," in text or "、" in text)


def test_queries_never_give_the_value_away(big: Session) -> None:
    for fact in big.facts:
        assert fact.query and fact.value not in fact.query
        assert fact.stale is None or fact.stale not in fact.query


def test_the_user_is_terse_and_bilingual(big: Session) -> None:
    users = [content(big, i) for i, m in enumerate(big.messages) if m["role"] == "user"]
    assert sum(len(u) <= 12 for u in users) >= 20
    assert sum(bool(JAPANESE.search(u)) for u in users) >= 0.2 * len(users)
    assert sum(not JAPANESE.search(u) for u in users) >= 0.2 * len(users)


def test_the_noise_a_compactor_can_get_wrong_is_there(big: Session) -> None:
    every = "\n".join(text_of(m) for m in big.messages)
    assert re.search(r"\b\d{2}:\d{2}\b", every)                       # clock times
    assert re.search(r"\w+\.(py|cpp):\d+\b", every)                    # file:line references
    assert re.search(r"\| \w", every) and "|---" in every             # tables
    assert "- [ ]" in every and "- [x]" in every                       # the agent's todo list
    assert re.search(r":(8080|8443|7400|11345)\b|port 8443", every)    # port-like numbers
    assert any(p in every for p in gen.PEOPLE)                         # people's names
    assert '{"state":' in every or '"state": ' in every                # JSON fragments


def test_tool_outputs_carry_most_of_the_characters(big: Session) -> None:
    tool = sum(len(text_of(m)) for m in big.messages if m["role"] == "tool")
    assert tool >= 0.7 * big.chars()
    names = Counter(m["name"] for m in big.messages if m["role"] == "tool")
    assert set(names) == set(gen.TOOLS) and min(names.values()) >= 20


def test_tool_call_ids_are_unique(big: Session) -> None:
    ids = [c["id"] for m in big.messages for c in m.get("tool_calls") or []]
    assert len(ids) == len(set(ids))


def test_filler_is_varied(big: Session) -> None:
    remarks = [content(big, i) for i, m in enumerate(big.messages)
               if m["role"] == "assistant" and not m.get("tool_calls") and len(content(big, i)) > 40]
    assert len(set(remarks)) >= 0.8 * len(remarks)
    outputs = [content(big, i) for i, m in enumerate(big.messages) if m["role"] == "tool" and len(content(big, i)) > 500]
    assert len(set(outputs)) == len(outputs)


def test_kinds_use_varied_templates(big: Session) -> None:
    for kind in ("instruction", "finding", "plan", "error"):
        heads = {re.sub(r"[\d.]+", "#", f.value)[:14] for f in facts(big, kind)}
        assert len(heads) >= 4, (kind, heads)


def test_more_facts_beyond_3000() -> None:
    assert gen.per_kind(4000) > gen.per_kind(3000) and gen.per_kind(6000) <= 20
    session = gen.make_session(seed=2, messages=4000)
    assert_counts(session, gen.KINDS, gen.per_kind(4000))
    assert_values_new(session, gen.per_kind)
    assert_out_of_filler(session, stale_reach=STALE_REACH)
