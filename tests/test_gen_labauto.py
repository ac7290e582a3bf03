"""bench/gen_labauto.py: the shared generator contract (tests/test_generators_contract.py, checked here for this
module) and what the lab-automation sessions promise of their own: pasted documents with other people's
imperatives, loose corrections, rules in Korean and English, whole error lines, resolved errors really gone."""

from __future__ import annotations

import json
import random
import re
import sys
import time
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import gen_labauto as gen
from generator_contract import (
    assert_chat_format,
    assert_counts,
    assert_first_rules_early,
    assert_out_of_filler,
    assert_values_new,
    call_of,
    content,
    facts,
)
from sessiongen import Session, text_of

SIZES = [60, 121, 160, 400, 401, 777, 1700, 3000]
STALE_REACH = 12
HANGUL = re.compile(r"[\uac00-\ud7a3\u3131-\u318e]")
ROLES = {"instruction": {"user"}, "correction": {"user"}, "decision": {"user"}, "plan": {"user"},
         "file": {"assistant"}, "finding": {"tool"}, "error": {"tool"}, "identifier": {"tool", "user"}}


@cache
def session(seed: int, messages: int) -> Session:
    return gen.make_session(seed=seed, messages=messages)


def adopted(s: Session) -> list:
    pasted_at = {i for i, _ in s.pasted}
    return [f for f in facts(s, "instruction") if f.index in pasted_at]


# --- the shared contract ------------------------------------------------------------------------------------------


def test_a_session_below_the_smallest_is_refused() -> None:
    with pytest.raises(ValueError):
        gen.make_session(seed=1, messages=gen.MIN_MESSAGES - 1)
    assert len(gen.make_session(seed=1, messages=gen.MIN_MESSAGES).messages) == gen.MIN_MESSAGES


def test_the_global_random_state_does_not_leak_into_a_session() -> None:
    random.seed(1)
    a = gen.make_session(seed=4, messages=400)
    random.seed(99)
    b = gen.make_session(seed=4, messages=400)
    assert json.dumps(a.messages) == json.dumps(b.messages) and a.facts == b.facts and a.pasted == b.pasted


def test_same_seed_same_session() -> None:
    a, b = gen.make_session(seed=2, messages=400), gen.make_session(seed=2, messages=400)
    assert json.dumps(a.messages) == json.dumps(b.messages)
    assert a.facts == b.facts and a.pasted == b.pasted
    other = gen.make_session(seed=3, messages=400)
    assert json.dumps(a.messages) != json.dumps(other.messages) and a.facts != other.facts


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6, 7, 11])
def test_sizes_match_the_bench_conventions_for_any_seed(seed: int) -> None:
    small, large = session(seed, 400), session(seed, 3000)
    assert len(small.messages) == 400 and len(large.messages) == 3000
    assert 500_000 <= small.chars() <= 700_000
    assert 4_200_000 <= large.chars() <= 5_500_000


def test_generation_is_fast() -> None:
    start = time.perf_counter()
    gen.make_session(seed=11, messages=3000)
    assert time.perf_counter() - start < 3.0


@pytest.mark.parametrize("messages", SIZES)
def test_any_size_comes_out_exact(messages: int) -> None:
    s = session(1, messages)
    assert len(s.messages) == messages
    assert s.messages[-1]["role"] == "user" and s.messages[-2]["role"] == "assistant"
    assert not s.messages[-2].get("tool_calls")
    assert_counts(s, gen.KINDS, gen.per_kind(messages))
    assert all(0.03 * messages <= f.index <= 0.88 * messages for f in s.facts)
    assert_chat_format(s, gen.TOOLS)


@pytest.mark.parametrize("messages", [m for m in SIZES if m >= 120])
def test_any_size_keeps_its_values_new_and_out_of_the_filler(messages: int) -> None:
    s = session(1, messages)
    assert_values_new(s, gen.per_kind)
    assert_out_of_filler(s, stale_reach=STALE_REACH)


def test_six_of_each_kind_at_400_twelve_at_3000() -> None:
    assert_counts(session(5, 400), gen.KINDS, 6)
    assert_counts(session(5, 3000), gen.KINDS, 12)
    assert gen.per_kind(400) == 6 and gen.per_kind(3000) == 12 and gen.per_kind(60) == 1
    sizes = [gen.per_kind(m) for m in range(60, 6001, 20)]
    assert sizes == sorted(sizes) and min(sizes) >= 1 and 8 <= gen.per_kind(1700) <= 10


@pytest.mark.parametrize("messages", [400, 3000])
@pytest.mark.parametrize("seed", [5, 8, 13])
def test_values_are_new_where_planted_and_absent_before(seed: int, messages: int) -> None:
    s = session(seed, messages)
    assert_values_new(s, gen.per_kind)
    assert_out_of_filler(s, stale_reach=STALE_REACH)
    assert_chat_format(s, gen.TOOLS)


@pytest.mark.parametrize("messages", [400, 3000])
def test_carriers_and_placement(messages: int) -> None:
    s = session(5, messages)
    n = len(s.messages)
    for fact in s.facts:
        message = s.messages[fact.index]
        assert message["role"] in ROLES[fact.kind], fact
        if fact.stale_index is not None:
            assert fact.stale_index >= 0.03 * n and s.messages[fact.stale_index]["role"] == "user", fact
        if fact.kind == "file":
            calls = message["tool_calls"]
            assert len(calls) == 1 and fact.value in calls[0]["function"]["arguments"], fact
        if fact.kind in ("error", "finding"):
            assert any(fact.value in line for line in message["content"].splitlines()), fact
    carriers = Counter(s.messages[f.index]["role"] for f in s.facts if f.kind == "identifier")
    assert carriers["tool"] and carriers["user"]
    thirds = Counter(min(2, f.index * 3 // n) for f in s.facts)
    assert min(thirds.values()) >= len(s.facts) // 6


@pytest.mark.parametrize("messages", [400, 3000])
def test_errors_are_exact_lines_and_some_are_resolved(messages: int) -> None:
    s = session(5, messages)
    errors = facts(s, "error")
    for fact in errors:
        assert fact.value in s.messages[fact.index]["content"].splitlines(), fact
        if fact.resolved is not None:
            later = s.messages[fact.resolved]
            assert fact.resolved > fact.index and later["role"] == "tool" and fact.value not in later["content"]
            assert later["name"] == s.messages[fact.index]["name"], fact
    assert 0 < sum(f.resolved is not None for f in errors) < len(errors)
    assert all(f.resolved is None for f in s.facts if f.kind != "error")


def test_corrections_are_loose_and_near_misses() -> None:
    corrections = facts(session(5, 3000), "correction")
    close = far = 0
    for fact in corrections:
        assert fact.stale is not None and fact.stale_index is not None
        close += sum(a == b for a, b in zip(fact.value, fact.stale)) >= len(fact.value) // 2
        far += fact.index - fact.stale_index > 100
    assert close >= len(corrections) // 2 and far >= 4


@pytest.mark.parametrize("messages", [121, 400, 3000])
def test_a_third_of_the_decisions_revise_the_users_own_earlier_choice(messages: int) -> None:
    s = session(5, messages)
    decisions = facts(s, "decision")
    revised = [f for f in decisions if f.stale is not None]
    assert len(revised) == max(1, len(decisions) // 3)
    for fact in revised:
        assert fact.stale is not None and fact.stale_index is not None and fact.stale_index < fact.index
        assert s.messages[fact.stale_index]["role"] == "user" and fact.stale in content(s, fact.stale_index)
        assert s.messages[fact.index]["role"] == "user" and fact.value in content(s, fact.index)


@pytest.mark.parametrize("messages", [121, 400, 3000])
def test_the_first_two_rules_come_early_and_are_the_users_own(messages: int) -> None:
    s = session(5, messages)
    assert_first_rules_early(s, messages, adopted(s))


# --- the lab-automation domain ------------------------------------------------------------------------------------

DOC_MARKS = ("SOP-QA-", "Deviation report", "Field Application Support", "IBC Notice", "#lab-ops",
             "shipment manifest", "Method Transfer Document")
IMPERATIVE = re.compile(r"\b(Do not|don't|Please|please|must|shall|Kindly|Decontaminate|Record|Run)\b")


def test_pasted_texts_sit_verbatim_in_user_messages() -> None:
    s = session(5, 3000)
    assert s.pasted
    for i, text in s.pasted:
        assert s.messages[i]["role"] == "user" and text in content(s, i)


def test_pasted_texts_hold_imperatives_numbers_and_ids() -> None:
    s = session(5, 3000)
    for _i, text in s.pasted:
        assert IMPERATIVE.search(text), text
        assert re.search(r"\d", text), text


def test_every_kind_of_pasted_document_occurs() -> None:
    s = session(5, 3000)
    for mark in DOC_MARKS:
        assert any(mark in text for _i, text in s.pasted), mark


def test_a_small_session_still_has_a_pasted_document() -> None:
    assert session(1, 121).pasted and session(1, 60).pasted


def test_no_planted_value_hides_inside_a_pasted_text() -> None:
    for seed, messages in ((5, 3000), (1, 400), (8, 400)):
        s = session(seed, messages)
        for fact in s.facts:
            for _i, text in s.pasted:
                assert fact.value not in text and (fact.stale is None or fact.stale not in text), fact


def test_some_rules_are_adopted_from_a_pasted_document_in_the_users_words() -> None:
    s = session(5, 3000)
    taken = adopted(s)
    assert taken
    docs = dict(s.pasted)
    for fact in taken:
        own = content(s, fact.index).replace(docs[fact.index], "")
        assert fact.value in own and fact.value not in docs[fact.index]


def test_rules_come_in_korean_and_in_english() -> None:
    s = session(5, 3000)
    langs = Counter(bool(HANGUL.search(content(s, f.index))) for f in facts(s, "instruction"))
    assert langs[True] and langs[False]


def test_some_rules_sit_in_a_second_paragraph_and_some_carry_a_condition() -> None:
    texts = [(f.value, content(session(seed, 3000), f.index)) for seed in (1, 5)
             for f in facts(session(seed, 3000), "instruction")]
    assert any("\n\n" in t and v not in t.split("\n\n")[0] for v, t in texts)
    assert any(re.search(r"until|전까지", t) for _v, t in texts)


def test_corrections_are_loose_in_both_languages_and_some_inside_a_long_message() -> None:
    s = session(5, 3000)
    marks = ("잠깐", "잘못", "wrong", "no wait", "the other one", "틀렸", "oops", "말고", "correction", "맞아",
             "make that", "아니")
    long = 0
    langs = Counter()
    for fact in facts(s, "correction"):
        text = content(s, fact.index)
        assert any(m in text for m in marks), text
        langs[bool(HANGUL.search(text.split("\n\n")[1] if "\n\n" in text else text))] += 1
        long += "\n\n" in text and fact.value not in text.split("\n\n")[0]
    assert langs[True] and langs[False] and long >= 1


def test_a_stale_value_was_said_by_the_user_before_and_is_not_the_new_one() -> None:
    s = session(5, 3000)
    for fact in facts(s, "correction"):
        assert fact.stale and fact.stale in content(s, fact.stale_index) and fact.stale != fact.value
        assert fact.value not in content(s, fact.stale_index)


def test_resolved_errors_are_gone_in_the_same_command_rerun() -> None:
    s = session(5, 3000)
    resolved = [f for f in facts(s, "error") if f.resolved is not None]
    assert resolved
    for fact in resolved:
        before, after = call_of(s, fact.index), call_of(s, fact.resolved)
        assert before["name"] == after["name"] and before["arguments"] == after["arguments"]
        assert fact.value not in s.messages[fact.resolved]["content"]


def test_errors_come_from_several_tools_and_look_like_their_tool() -> None:
    s = session(5, 3000)
    names = Counter(s.messages[f.index]["name"] for f in facts(s, "error"))
    assert len(names) >= 3
    for fact in facts(s, "error"):
        name = s.messages[fact.index]["name"]
        looks = {"pytest": "FAILED tests/", "go": "--- FAIL: Test", "docker": "ERROR: ", "lims": "409 Conflict",
                 "simulate": "Error", "shell": "ERROR"}[name]
        assert looks in fact.value, fact


def test_files_are_the_path_argument_of_a_write_or_edit() -> None:
    s = session(5, 3000)
    for fact in facts(s, "file"):
        (call,) = s.messages[fact.index]["tool_calls"]
        assert call["function"]["name"] in ("write_file", "edit_file")
        assert json.loads(call["function"]["arguments"])["path"] == fact.value


def test_identifiers_said_by_the_user_or_printed_by_a_tool() -> None:
    s = session(5, 3000)
    for fact in facts(s, "identifier"):
        if s.messages[fact.index]["role"] == "tool":
            assert fact.value not in content(s, fact.index - 2)  # the user did not say it first
            assert json.loads(content(s, fact.index).split("\n\n", 1)[1])["id"] == fact.value
        else:
            assert fact.value in content(s, fact.index)


def test_findings_are_explained_in_the_next_assistant_message() -> None:
    s = session(5, 3000)
    for fact in facts(s, "finding"):
        after = s.messages[fact.index + 1]
        assert after["role"] == "assistant" and fact.value in after["content"] and not after.get("tool_calls")


def test_plans_are_written_in_prose() -> None:
    s = session(5, 3000)
    for fact in facts(s, "plan"):
        text = content(s, fact.index)
        assert len(text) > len(fact.value) + 40 and fact.value in text


def test_the_user_mixes_korean_and_english_and_replies_short() -> None:
    s = session(5, 3000)
    users = [content(s, i) for i, m in enumerate(s.messages) if m["role"] == "user"]
    korean = sum(bool(HANGUL.search(u)) for u in users) / len(users)
    assert 0.25 < korean < 0.9
    assert any(u in ("ㅇㅋ", "ㄱㄱ", "고고", "go", "ok") for u in users)


def test_noise_a_compactor_can_trip_on() -> None:
    s = session(5, 400)
    text = "\n".join(text_of(m) for m in s.messages)
    assert re.search(r"\b[0-2]\d:[0-5]\d\b", text)
    assert re.search(r"\b\w+\.py:\d+\b", text)
    assert "- [x]" in text and "- [ ]" in text
    assert re.search(r"\b(5432|8000|9000)\b", text)
    assert any(name in text for name in ("박서연", "이도윤", "Kenji", "Sarah Lim"))


def test_most_characters_are_tool_outputs() -> None:
    s = session(5, 3000)
    tool = sum(len(text_of(m)) for m in s.messages if m["role"] == "tool")
    assert tool > 0.75 * s.chars()
    kinds = {m["content"].split("\n", 1)[0][:12] for m in s.messages if m["role"] == "tool"}
    assert len(kinds) > 20


def test_every_tool_is_used_even_in_the_smallest_session() -> None:
    for seed in (1, 2, 3):
        s = gen.make_session(seed=seed, messages=60)
        used = {c["function"]["name"] for m in s.messages for c in m.get("tool_calls") or []}
        assert used == set(gen.TOOLS)


def test_tool_call_ids_are_unique_and_answered_once() -> None:
    s = session(5, 3000)
    ids = [c["id"] for m in s.messages for c in m.get("tool_calls") or []]
    answers = [m["tool_call_id"] for m in s.messages if m["role"] == "tool"]
    assert len(set(ids)) == len(ids) and sorted(ids) == sorted(answers)


@pytest.mark.parametrize("messages", range(60, 130))
def test_small_sizes_are_exact_and_in_bounds(messages: int) -> None:
    s = gen.make_session(seed=messages, messages=messages)
    assert len(s.messages) == messages
    assert_counts(s, gen.KINDS, gen.per_kind(messages))
    assert all(0.03 * messages <= f.index <= 0.88 * messages for f in s.facts)
    assert all(f.stale_index is None or f.stale_index >= 0.03 * messages for f in s.facts)
    assert_chat_format(s, gen.TOOLS)
