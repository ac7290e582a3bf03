"""bench/gen_windops.py: the generators' contract (tests/test_generators_contract.py, checked here for this module)
and what its wind-farm operations sessions promise of their own: pasted documents hold imperatives and are listed,
rules come in Danish and English, corrections are loose near misses, errors are whole lines and resolved ones are
gone from the later run."""

from __future__ import annotations

import json
import random
import re
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import gen_windops as gen
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
from sessiongen import Session

SIZES = [60, 61, 94, 121, 160, 400, 401, 777, 1700, 3000]
STALE_REACH = 12
ROLES = {"instruction": {"user"}, "correction": {"user"}, "decision": {"user"}, "plan": {"user"},
         "file": {"assistant"}, "finding": {"tool"}, "error": {"tool"}, "identifier": {"tool", "user"}}
DANISH = re.compile(r"\b(vi|aldrig|husk|jeg|helst|skal|ikke|rører|mod|ingen|altid|på|før|også)\b", re.I)


@pytest.fixture(scope="module", params=[400, 3000], ids=lambda m: f"windops-{m}")
def planted(request: pytest.FixtureRequest) -> Session:
    return gen.make_session(seed=5, messages=request.param)


# --- the contract ----------------------------------------------------------------------------------------------


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
    assert json.dumps(a.messages) == json.dumps(b.messages) and a.facts == b.facts and a.pasted == b.pasted
    other = gen.make_session(seed=3, messages=400)
    assert json.dumps(a.messages) != json.dumps(other.messages) and a.facts != other.facts


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6, 7, 11])
def test_sizes_match_the_bench_conventions_for_any_seed(seed: int) -> None:
    small, large = gen.make_session(seed=seed, messages=400), gen.make_session(seed=seed, messages=3000)
    assert len(small.messages) == 400 and len(large.messages) == 3000
    assert 500_000 <= small.chars() <= 700_000
    assert 4_200_000 <= large.chars() <= 5_500_000


def test_generation_is_fast() -> None:
    start = time.perf_counter()
    gen.make_session(seed=11, messages=3000)
    assert time.perf_counter() - start < 1.5


@pytest.mark.parametrize("messages", SIZES)
def test_any_size_comes_out_exact(messages: int) -> None:
    session = gen.make_session(seed=1, messages=messages)
    assert len(session.messages) == messages
    assert session.messages[-1]["role"] == "user" and session.messages[-2]["role"] == "assistant"
    assert not session.messages[-2].get("tool_calls")
    assert_counts(session, gen.KINDS, gen.per_kind(messages))
    assert all(0.03 * messages <= f.index <= 0.88 * messages for f in session.facts)
    assert_chat_format(session, gen.TOOLS)


@pytest.mark.parametrize("messages", [m for m in SIZES if m >= 120])
def test_any_size_keeps_its_values_new_and_out_of_the_filler(messages: int) -> None:
    session = gen.make_session(seed=1, messages=messages)
    assert_values_new(session, gen.per_kind)
    assert_out_of_filler(session, stale_reach=STALE_REACH)


def test_six_of_each_kind_at_400_twelve_at_3000() -> None:
    assert_counts(gen.make_session(seed=5, messages=400), gen.KINDS, 6)
    assert_counts(gen.make_session(seed=5, messages=3000), gen.KINDS, 12)
    sizes = [gen.per_kind(m) for m in range(60, 6001, 20)]
    assert gen.per_kind(400) == 6 and gen.per_kind(3000) == 12 and gen.per_kind(60) == 1
    assert sizes == sorted(sizes) and min(sizes) >= 1 and 8 <= gen.per_kind(1700) <= 10


@pytest.mark.parametrize("messages", [400, 3000])
@pytest.mark.parametrize("seed", [5, 8, 13])
def test_values_are_new_where_planted_and_absent_before(seed: int, messages: int) -> None:
    session = gen.make_session(seed=seed, messages=messages)
    assert_values_new(session, gen.per_kind)
    assert_out_of_filler(session, stale_reach=STALE_REACH)


def test_carriers_and_placement(planted: Session) -> None:
    n = len(planted.messages)
    for fact in planted.facts:
        message = planted.messages[fact.index]
        assert message["role"] in ROLES[fact.kind], fact
        if fact.stale_index is not None:
            assert fact.stale_index >= 0.03 * n and planted.messages[fact.stale_index]["role"] == "user", fact
        if fact.kind == "file":
            calls = message["tool_calls"]
            assert len(calls) == 1 and fact.value in calls[0]["function"]["arguments"], fact
        if fact.kind in ("error", "finding"):
            assert any(fact.value in line for line in message["content"].splitlines()), fact
    carriers = Counter(planted.messages[f.index]["role"] for f in planted.facts if f.kind == "identifier")
    assert carriers["tool"] and carriers["user"]
    thirds = Counter(min(2, f.index * 3 // n) for f in planted.facts)
    assert min(thirds.values()) >= len(planted.facts) // 6


def test_errors_are_exact_lines_and_some_are_resolved(planted: Session) -> None:
    errors = facts(planted, "error")
    for fact in errors:
        assert fact.value in planted.messages[fact.index]["content"].splitlines(), fact
        if fact.resolved is not None:
            later = planted.messages[fact.resolved]
            assert fact.resolved > fact.index and later["role"] == "tool" and fact.value not in later["content"]
            assert later["name"] == planted.messages[fact.index]["name"], fact
    assert 0 < sum(f.resolved is not None for f in errors) < len(errors)
    assert all(f.resolved is None for f in planted.facts if f.kind != "error")


def test_corrections_are_loose_and_near_misses() -> None:
    session = gen.make_session(seed=5, messages=3000)
    corrections = facts(session, "correction")
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


# --- what windops sessions promise of their own -----------------------------------------------------------------


def adopted(session: Session) -> list[object]:
    """Instructions the user restated from a document they pasted into the same message."""
    pasted_at = {i for i, _ in session.pasted}
    return [f for f in facts(session, "instruction") if f.index in pasted_at]


@pytest.mark.parametrize("messages", [121, 160, 400, 777, 3000])
def test_the_first_two_rules_come_early_and_are_the_users_own(messages: int) -> None:
    session = gen.make_session(seed=3, messages=messages)
    assert_first_rules_early(session, messages, adopted(session))


@pytest.mark.parametrize("seed", range(1, 13))
def test_many_seeds_keep_values_new_and_out_of_the_filler(seed: int) -> None:
    for messages in (121, 400):
        session = gen.make_session(seed=seed, messages=messages)
        assert_values_new(session, gen.per_kind)
        assert_out_of_filler(session, stale_reach=STALE_REACH)
        assert_chat_format(session, gen.TOOLS)


@pytest.mark.parametrize("messages", range(60, 130))
def test_every_small_size_is_exact_with_all_tools(messages: int) -> None:
    session = gen.make_session(seed=messages, messages=messages)
    assert len(session.messages) == messages
    assert_counts(session, gen.KINDS, gen.per_kind(messages))
    assert all(0.03 * messages <= f.index <= 0.88 * messages for f in session.facts)
    assert_chat_format(session, gen.TOOLS)


def test_pasted_texts_are_exact_hold_imperatives_and_are_never_the_planted_values(planted: Session) -> None:
    assert len(planted.pasted) >= 3
    for index, text in planted.pasted:
        assert planted.messages[index]["role"] == "user" and text in content(planted, index)
    docs = [text for _, text in planted.pasted if "\n" in text]
    assert docs and all(re.search(r"\b(Please|Do not|Never|Always|Bitte|must|shall|should)\b", t) for t in docs)
    assert any(re.search(r"\d{3,}", t) for t in docs)
    for fact in planted.facts:
        assert not any(fact.value in text for _, text in planted.pasted), fact


def test_pasted_documents_come_from_the_whole_cast(planted: Session) -> None:
    """The TSO, the turbine maker, the safety procedure, the marine coordinator, the insurer, the control room and
    the grid code all get pasted at 3000 messages."""
    session = gen.make_session(seed=5, messages=3000)
    joined = "\n".join(text for _, text in session.pasted)
    for marker in ("Curtailment instruction", "SERVICE BULLETIN", "Lockout/Tagout", "CTV schedule", "Survey remark",
                   "Umrichter", "Grid code excerpt"):
        assert marker in joined, marker


def test_some_rules_are_adopted_from_a_pasted_document_in_the_users_own_words(planted: Session) -> None:
    rules = adopted(planted)
    assert rules
    for fact in rules:
        pasted_here = [text for i, text in planted.pasted if i == fact.index]
        outside = content(planted, fact.index)
        for text in pasted_here:
            outside = outside.replace(text, "")
        assert fact.value in outside


def test_rules_come_in_danish_and_english(planted: Session) -> None:
    langs = Counter("da" if DANISH.search(f.value + " " + content(planted, f.index)) else "en"
                    for f in facts(planted, "instruction"))
    assert langs["da"] and langs["en"]
    phrases = ("husk", "aldrig", "jeg vil helst", "house rule", "I'd rather", "from now on", "never", "until",
               "indtil", "fra nu af", "always", "ingen")
    said = " ".join(content(planted, f.index).lower() for f in facts(planted, "instruction"))
    assert sum(p.lower() in said for p in phrases) >= 4


def test_some_rules_sit_in_a_second_paragraph_and_some_carry_a_condition(planted: Session) -> None:
    rules = facts(planted, "instruction")
    later = [f for f in rules if f.value in "\n\n".join(content(planted, f.index).split("\n\n")[1:])]
    assert later
    assert any(re.search(r"\b(until|indtil|før)\b", content(planted, f.index)) for f in rules)


def test_corrections_are_loose_in_both_languages() -> None:
    session = gen.make_session(seed=5, messages=3000)
    said = [content(session, f.index) for f in facts(session, "correction")]
    loose = ("nej vent", "det var forkert", "min fejl", "the other one", "wrong", "den anden", "scratch",
             "tastefejl", "not that one")
    assert sum(any(w in s for w in loose) for s in said) >= len(said) * 3 // 4
    assert any("nej" in s or "forkert" in s or "fejl" in s for s in said)
    assert any("wrong" in s or "other one" in s or "scratch" in s or "not that one" in s for s in said)


def test_a_stale_value_was_the_users_own_words_and_is_not_a_substring_of_the_new(planted: Session) -> None:
    for fact in planted.facts:
        if fact.stale is None:
            continue
        assert fact.stale not in fact.value and fact.value not in fact.stale
        assert planted.messages[fact.stale_index]["role"] == "user"


def test_resolved_errors_are_the_same_command_passing(planted: Session) -> None:
    for fact in facts(planted, "error"):
        if fact.resolved is None:
            continue
        before, after = call_of(planted, fact.index), call_of(planted, fact.resolved)
        assert before["name"] == after["name"] and before["arguments"] == after["arguments"]
        out = content(planted, fact.resolved)
        assert "FAILED" not in out and "fatal:" not in out and "error[" not in out and "ERROR" not in out


def test_errors_look_like_real_tools(planted: Session) -> None:
    shapes = (r"^error\[E0\d{3}\]: ", r"^FAILED tests/test_\w+\.py::test_\w+ - ", r"^fatal: \[[\w-]+\]: FAILED! => ",
              r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d  [A-Z]{3}-[A-Z]\d\d  \d{4}  ", r"^\S+Z edge-\w+-\d+ edgegw\[\d+\]: ERROR ")
    for fact in facts(planted, "error"):
        assert any(re.match(p, fact.value) for p in shapes), fact


def test_a_finding_is_explained_in_the_next_assistant_message(planted: Session) -> None:
    for fact in facts(planted, "finding"):
        nxt = next(i for i in range(fact.index + 1, len(planted.messages))
                   if planted.messages[i]["role"] == "assistant")
        assert nxt - fact.index <= 8 and fact.value in content(planted, nxt)


def test_files_are_new_paths_written_by_edit_file(planted: Session) -> None:
    for fact in facts(planted, "file"):
        call = planted.messages[fact.index]["tool_calls"][0]["function"]
        assert call["name"] == "edit_file" and json.loads(call["arguments"])["path"] == fact.value


def test_most_characters_are_tool_outputs_of_every_kind(planted: Session) -> None:
    tool = sum(len(m["content"]) for m in planted.messages if m["role"] == "tool")
    assert tool > 0.75 * planted.chars()
    joined = "\n".join(m["content"] for m in planted.messages if m["role"] == "tool")
    for marker in ("Compiling edgegw", "test session starts", "PLAY RECAP", "ws_bin", "\"ws100\"", "HR 40",
                   "GET /api/wo", "kind=alarms", "T07"):
        assert marker in joined, marker


def test_the_noise_a_compactor_can_get_wrong_is_there(planted: Session) -> None:
    said = "\n".join(content(planted, i) for i in range(len(planted.messages)) if planted.messages[i]["role"] != "tool")
    assert re.search(r"\b\d\d:\d\d\b", said)  # clock times
    assert re.search(r"\w+\.(py|rs|yaml|yml|md):\d+", said)  # file.py:121
    assert "Todo:" in said and "| turbine |" in said and "4840" in said
    assert any(name in said for name in gen.PEOPLE + gen.FIRST)
    assert re.search(r"^> ", said, re.M)  # quoted text


def test_users_write_short_replies_and_the_odd_german_line() -> None:
    session = gen.make_session(seed=5, messages=3000)
    users = [content(session, i) for i, m in enumerate(session.messages) if m["role"] == "user"]
    assert sum(u in gen.SHORT for u in users) >= 20
    assert any("Bitte" in u for u in users)
    assert len(set(users)) > len(users) * 0.6


def test_queries_paraphrase_without_the_value(planted: Session) -> None:
    assert all(f.query and f.value not in f.query and (f.stale is None or f.stale not in f.query)
               for f in planted.facts)
    assert len({f.query for f in planted.facts}) >= len(planted.facts) // 2


def test_beyond_3000_the_counts_keep_growing() -> None:
    session = gen.make_session(seed=2, messages=4500)
    assert_counts(session, gen.KINDS, gen.per_kind(4500))
    assert gen.per_kind(4500) > 12
    assert_values_new(session, gen.per_kind)
