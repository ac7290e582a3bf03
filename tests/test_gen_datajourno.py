"""bench/gen_datajourno.py: the contract every session generator keeps (the checks of
tests/test_generators_contract.py, run here for this generator), and what the data-journalism sessions promise of
their own: pasted newsroom documents full of imperatives that are listed and never planted, rules in Italian and in
English (some conditional, some adopted from a pasted document), loose corrections that are near misses, whole
error lines resolved by a later passing run of the same command, and the noise a compactor can get wrong."""

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

import gen_datajourno as gen
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
from sessiongen import Fact, Session, text_of

SIZES = [60, 94, 121, 160, 400, 401, 777, 1700, 3000]
STALE_REACH = 12
ROLES = {"instruction": {"user"}, "correction": {"user"}, "decision": {"user"}, "plan": {"user"},
         "file": {"assistant"}, "finding": {"tool"}, "error": {"tool"}, "identifier": {"tool", "user"}}


@cache
def session(seed: int, messages: int) -> Session:
    return gen.make_session(seed=seed, messages=messages)


def adopted(s: Session) -> list[Fact]:
    """The rules the user adopted from a document she pasted in the same message."""
    pasted_at = {i for i, _ in s.pasted}
    return [f for f in facts(s, "instruction") if f.index in pasted_at]


# --- the contract (tests/test_generators_contract.py, for this generator) ----------------------------------------

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
    s = gen.make_session(seed=1, messages=messages)
    assert len(s.messages) == messages
    assert s.messages[-1]["role"] == "user" and s.messages[-2]["role"] == "assistant"
    assert not s.messages[-2].get("tool_calls")
    assert_counts(s, gen.KINDS, gen.per_kind(messages))
    assert all(0.03 * messages <= f.index <= 0.88 * messages for f in s.facts)
    assert_chat_format(s, gen.TOOLS)


@pytest.mark.parametrize("messages", [m for m in SIZES if m >= 120])
def test_any_size_keeps_its_values_new_and_out_of_the_filler(messages: int) -> None:
    s = gen.make_session(seed=1, messages=messages)
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


@pytest.mark.parametrize("messages", [400, 3000])
def test_carriers_and_placement(messages: int) -> None:
    s = session(5, messages)
    n = len(s.messages)
    for fact in s.facts:
        message = s.messages[fact.index]
        assert message["role"] in ROLES[fact.kind], fact
        assert 0.03 * n <= fact.index <= 0.88 * n, fact
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
    assert len(thirds) == 3 and min(thirds.values()) >= len(s.facts) // 6


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
    resolved = sum(f.resolved is not None for f in errors)
    assert 0 < resolved < len(errors)
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
    s = gen.make_session(seed=5, messages=messages)
    decisions = facts(s, "decision")
    revised = [f for f in decisions if f.stale is not None]
    assert len(revised) == max(1, len(decisions) // 3)
    for fact in revised:
        assert fact.stale is not None and fact.stale_index is not None and fact.stale_index < fact.index
        assert s.messages[fact.stale_index]["role"] == "user" and fact.stale in content(s, fact.stale_index)
        assert s.messages[fact.index]["role"] == "user" and fact.value in content(s, fact.index)


@pytest.mark.parametrize("messages", [121, 400, 3000])
def test_the_first_two_rules_come_early_and_are_the_users_own(messages: int) -> None:
    s = gen.make_session(seed=5, messages=messages)
    assert_first_rules_early(s, messages, adopted(s))


# --- what the data-journalism sessions promise ---------------------------------------------------------------------

IMPERATIVE = re.compile(r"\b(Non |Per favore|Togliete|Controllate|Tagliate|Evitate|Citate|Utilizzare|Si raccomanda|"
                        r"Si invitano|Correggete|Pubblicate|rispondi|non rilanciate|aggiornate|Prima di pubblicare|"
                        r"Non usate|mandate)")


def test_pasted_texts_are_listed_verbatim_in_user_messages_and_hold_imperatives_and_numbers() -> None:
    s = session(5, 3000)
    assert len(s.pasted) >= 20
    for index, text in s.pasted:
        assert s.messages[index]["role"] == "user" and text in content(s, index)
        assert IMPERATIVE.search(text), text[:200]
        assert re.search(r"\d", text)


def test_pasted_documents_are_of_every_newsroom_sort() -> None:
    texts = [t for _, t in session(5, 3000).pasted]
    for marker in ("Da: Elena Marchetti", "COMUNICATO STAMPA", "Davide Conti", "Nota metodologica",
                   "Garante dei lettori", "#desk-dati", "Libro di stile"):
        assert any(marker in t for t in texts), marker


@pytest.mark.parametrize("seed", [1, 5, 9])
def test_no_planted_value_is_inside_a_pasted_text(seed: int) -> None:
    s = session(seed, 3000) if seed != 9 else gen.make_session(seed=9, messages=3000)
    for _, text in s.pasted:
        for fact in s.facts:
            assert fact.value not in text and (fact.stale is None or fact.stale not in text), fact


def test_adopted_rules_are_restated_after_the_pasted_document_in_the_users_words() -> None:
    s = session(5, 3000)
    rules = adopted(s)
    assert rules
    pasted = dict(s.pasted)
    for fact in rules:
        text = content(s, fact.index)
        assert text.index(pasted[fact.index]) + len(pasted[fact.index]) < text.index(fact.value)


def test_rules_sit_in_the_second_paragraph_or_later() -> None:
    s = session(5, 3000)
    for fact in facts(s, "instruction"):
        first_paragraph = content(s, fact.index).split("\n\n")[0]
        assert fact.value not in first_paragraph, fact


ITALIAN = re.compile(r"\b(non|che|sempre|ricordati|preferisco|nei|della|per noi|da qui|il|la|di)\b", re.I)
ENGLISH = re.compile(r"\b(we|the|never|I'd|always|don't|until|from now on|please|on)\b")


def _rule_line(s: Session, fact: Fact) -> str:
    return next(p for p in content(s, fact.index).split("\n\n") if fact.value in p)


def test_rules_come_in_both_languages_and_some_are_conditional() -> None:
    rules = [(_rule_line(s, f)) for seed in (1, 5) for s in [session(seed, 3000)] for f in facts(s, "instruction")]
    italian = [r for r in rules if len(ITALIAN.findall(r)) > len(ENGLISH.findall(r))]
    english = [r for r in rules if len(ENGLISH.findall(r)) > len(ITALIAN.findall(r))]
    assert italian and english
    assert any(re.search(r"\b(finché|until)\b", r) for r in rules)


def test_corrections_are_worded_loosely_in_both_languages_some_inside_a_long_message() -> None:
    corrections = [(s, f) for seed in (1, 5) for s in [session(seed, 3000)] for f in facts(s, "correction")]
    openings = {content(s, f.index).split("\n\n")[-2 if "\n\n" in content(s, f.index) else 0].split()[0].lower()
                for s, f in corrections}
    assert len(openings) >= 4
    texts = [content(s, f.index) for s, f in corrections]
    assert any(re.search(r"\b(I gave you|no wait|the other one)\b", t) for t in texts)
    assert any(re.search(r"\b(correggo|anzi no|mi sono sbagliata|intendevo|no aspetta)\b", t) for t in texts)
    long = [t for (s, f), t in zip(corrections, texts) if t.count("\n\n") >= 2]
    assert long and all(f.value not in t.split("\n\n")[0] for (s, f), t in zip(corrections, texts) if t in long)


def test_a_stale_value_is_said_by_the_user_and_used_by_the_agent_before_the_correction() -> None:
    s = session(5, 3000)
    for fact in facts(s, "correction"):
        assert fact.stale is not None and fact.stale_index is not None
        after = [text_of(m) for m in s.messages[fact.stale_index + 1:fact.stale_index + 4]]
        assert any(fact.stale in t for t in after), fact


def test_revised_decisions_say_they_change_the_earlier_choice() -> None:
    s = session(5, 3000)
    for fact in facts(s, "decision"):
        text = content(s, fact.index)
        changed = re.search(r"(cambiato idea|ripensandoci|scratch that)", text)
        assert bool(changed) == (fact.stale is not None), text


ERROR_LINE = re.compile(r"^(KeyError: |UnicodeDecodeError: |pandas\.errors\.ParserError: |ValueError: time data |"
                        r"FAILED tests/|\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} ERROR |requests\.exceptions\.HTTPError: |"
                        r"CONFLICT \(content\): |409 Conflict: )")


@pytest.mark.parametrize("seed", [1, 5])
def test_error_values_are_whole_lines_of_real_looking_tools(seed: int) -> None:
    s = session(seed, 3000)
    for fact in facts(s, "error"):
        assert ERROR_LINE.match(fact.value), fact.value
        assert fact.value in content(s, fact.index).splitlines()
        if s.messages[fact.index]["name"] == "run_python":
            lines = content(s, fact.index).splitlines()
            assert lines[-1] == fact.value and any(ln.startswith("Traceback (most recent call last)") for ln in lines)


def test_resolved_errors_are_the_same_command_passing_later() -> None:
    s = session(5, 3000)
    resolved = [f for f in facts(s, "error") if f.resolved is not None]
    assert resolved
    for fact in resolved:
        assert fact.resolved is not None
        before, after = call_of(s, fact.index), call_of(s, fact.resolved)
        assert before["name"] == after["name"] and before["arguments"] == after["arguments"], fact
        later = content(s, fact.resolved)
        assert fact.value not in later and not ERROR_LINE.match(later.splitlines()[-1])


def test_findings_are_explained_in_the_next_assistant_message() -> None:
    s = session(5, 3000)
    for fact in facts(s, "finding"):
        nxt = s.messages[fact.index + 1]
        assert nxt["role"] == "assistant" and not nxt.get("tool_calls") and fact.value in nxt["content"], fact


def test_files_are_written_by_one_write_or_edit_call_whose_result_names_them() -> None:
    s = session(5, 3000)
    tools = set()
    for fact in facts(s, "file"):
        (call,) = s.messages[fact.index]["tool_calls"]
        tools.add(call["function"]["name"])
        assert json.loads(call["function"]["arguments"])["path"] == fact.value
        assert fact.value in content(s, fact.index + 1)
    assert tools <= {"write_file", "edit_file"} and "write_file" in tools


def test_identifiers_are_said_by_the_user_or_printed_by_the_cms_or_datawrapper() -> None:
    s = session(5, 3000)
    for fact in facts(s, "identifier"):
        message = s.messages[fact.index]
        if message["role"] == "tool":
            assert message["name"] in ("cms_api", "datawrapper"), fact
            assert f'"id": "{fact.value}"' in message["content"]


def test_plans_are_written_as_prose_or_short_lists_of_steps() -> None:
    s = session(5, 3000)
    for fact in facts(s, "plan"):
        text = content(s, fact.index)
        assert re.search(r"Prima .*, poi .*, e solo alla fine", text) or re.search(r"^1\. .*\n2\. .*\n3\. ", text, re.M)


def test_the_agent_answers_about_every_value_within_a_few_messages() -> None:
    s = session(5, 400)
    for fact in s.facts:
        window = s.messages[fact.index + 1:fact.index + 9]
        assert any(m["role"] == "assistant" and fact.value in text_of(m) for m in window), fact


def test_the_user_mixes_italian_and_english_and_often_answers_in_a_word_or_two() -> None:
    users = [content(session(5, 3000), i) for i, m in enumerate(session(5, 3000).messages) if m["role"] == "user"]
    assert sum(u in gen.SHORT_USER for u in users) >= 50
    assert sum(bool(ITALIAN.search(u)) for u in users) > 100 and sum(bool(ENGLISH.search(u)) for u in users) > 30
    assert len(set(users)) > 0.6 * len(users)


def test_the_noise_a_compactor_can_get_wrong_is_there() -> None:
    s = session(5, 3000)
    text = "\n".join(text_of(m) for m in s.messages[: len(s.messages) // 3])
    assert re.search(r"\b\d{1,2}:\d\d\b", text)  # clock times
    assert re.search(r"\w+\.py:\d+", text)  # file.py:121 references
    assert re.search(r"localhost:\d{4}|porta \d{4}", text)  # port-like numbers
    assert "- [ ]" in text and "- [x]" in text  # the agent's todo list
    assert any(name in text for name in gen.DESK)  # people's names
    assert "«" in text and '{\n  "id"' in text  # quoted text and JSON


def test_tool_outputs_carry_most_characters_and_are_varied() -> None:
    s = session(5, 3000)
    tool = sum(len(m["content"]) for m in s.messages if m["role"] == "tool")
    assert tool > 0.75 * s.chars()
    firsts = Counter(m["content"].split("\n", 1)[0][:25] for m in s.messages if m["role"] == "tool")
    assert len(firsts) > 100 and firsts.most_common(1)[0][1] < 0.2 * sum(firsts.values())
    assistants = Counter(m["content"] for m in s.messages if m["role"] == "assistant" and not m.get("tool_calls"))
    assert assistants.most_common(1)[0][1] < 0.03 * sum(assistants.values())


def test_every_tool_is_used_even_in_the_smallest_session() -> None:
    s = gen.make_session(seed=3, messages=gen.MIN_MESSAGES)
    used = {c["function"]["name"] for m in s.messages for c in m.get("tool_calls") or []}
    assert used == set(gen.TOOLS) and 7 <= len(gen.TOOLS) <= 10


@pytest.mark.parametrize("messages", range(60, 200, 7))
def test_small_odd_and_even_sizes_are_exact_with_their_facts(messages: int) -> None:
    s = gen.make_session(seed=messages, messages=messages)
    assert len(s.messages) == messages
    assert_counts(s, gen.KINDS, gen.per_kind(messages))
    assert all(0.03 * messages <= f.index <= 0.88 * messages for f in s.facts)
    assert_chat_format(s, gen.TOOLS)
