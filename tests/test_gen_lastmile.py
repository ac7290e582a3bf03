"""bench/gen_lastmile.py: the generators' contract (tests/test_generators_contract.py, checked here for this
module) and what the last-mile sessions promise of their own: pasted documents hold others' imperatives and are
listed, rules come in Indonesian and English, corrections are loose near misses far from what they fix, errors are
whole lines of a tool's output and resolved ones are gone from the later run."""

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

import gen_lastmile as gen
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
ROLES = {"instruction": {"user"}, "correction": {"user"}, "decision": {"user"}, "plan": {"user"},
         "file": {"assistant"}, "finding": {"tool"}, "error": {"tool"}, "identifier": {"tool", "user"}}
ID_WORDS = re.compile(r"\b(jangan|gue|ya|mulai sekarang|selalu|tolong|kalo|sampai|aja|lebih)\b")
EN_WORDS = re.compile(r"\b(we never|don't|always|I'd rather|house rule|until|keep|so from now on)\b")


@cache
def session(seed: int, messages: int) -> Session:
    return gen.make_session(seed=seed, messages=messages)


def adopted(s: Session) -> list:
    """Instructions the user restated from a document they pasted into the same message."""
    pasted_at = {i for i, _ in s.pasted}
    return [f for f in facts(s, "instruction") if f.index in pasted_at]


# --- the contract of every generator ------------------------------------------------------------------------------------
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


@pytest.mark.parametrize("messages", [121, 160, 400, 777, 3000])
def test_the_first_two_rules_come_early_and_are_the_users_own(messages: int) -> None:
    s = session(3, messages)
    assert_first_rules_early(s, messages, adopted(s))


# --- what the last-mile sessions promise -------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [1, 2, 3, 4, 6, 9, 17, 23])
def test_values_stay_out_of_the_filler_for_many_seeds(seed: int) -> None:
    """Across seeds (and odd sizes), no planted value leaks into filler, docs or other facts' messages."""
    for messages in (400, 613):
        s = gen.make_session(seed=seed, messages=messages)
        assert_values_new(s, gen.per_kind)
        assert_out_of_filler(s, stale_reach=STALE_REACH)


def test_every_size_from_the_smallest_is_exact_and_well_formed() -> None:
    """Every size from 60 to 260 (and a few odd ones beyond) is exact, well formed and uses every tool."""
    for messages in list(range(60, 261)) + [333, 555, 999, 1234]:
        s = gen.make_session(seed=messages, messages=messages)
        assert len(s.messages) == messages
        assert_counts(s, gen.KINDS, gen.per_kind(messages))
        assert all(0.03 * messages <= f.index <= 0.88 * messages for f in s.facts), messages
        assert_chat_format(s, gen.TOOLS)
        thirds = Counter(min(2, f.index * 3 // messages) for f in s.facts)
        assert len(thirds) == 3 and min(thirds.values()) >= len(s.facts) // 6, messages


def test_pasted_texts_are_listed_exactly_and_hold_imperatives_that_are_not_the_users() -> None:
    """What the user pasted is listed with its message and occurs in it verbatim; it holds others' imperatives and
    numbers, and no planted value is inside it."""
    s = session(5, 3000)
    assert len(s.pasted) >= 10
    values = [f.value for f in s.facts] + [f.stale for f in s.facts if f.stale]
    imperative = re.compile(r"\b(Please|Do not|Mohon|Jangan|jgn|tolong|Harap)\b")
    for i, text in s.pasted:
        assert s.messages[i]["role"] == "user" and text in content(s, i)
        assert imperative.search(text), text
        assert re.search(r"\d", text)
        assert not any(v in text for v in values)


def test_pasted_documents_cover_the_domain() -> None:
    """The client's SLA, the hub head's WhatsApp, the odd-even notice, the 3PL mail, a postmortem, a Jira ticket and
    finance's COD note are all pasted in a long session."""
    texts = "\n".join(t for _, t in session(5, 3000).pasted)
    for marker in ("SERVICE LEVELS", "Pak Darto Hub Cakung:", "Ganjil-Genap", "From: Hendro", "POSTMORTEM PM-",
                   "[Bug]", "Rekonsiliasi COD"):
        assert marker in texts, marker


def test_adopted_rules_are_restated_outside_the_pasted_text() -> None:
    """A rule adopted from a document is written in the user's own words, outside what they pasted."""
    s = session(5, 3000)
    rules = adopted(s)
    assert rules
    for fact in rules:
        pasted = [t for i, t in s.pasted if i == fact.index]
        assert all(fact.value not in t for t in pasted)
        assert fact.value in content(s, fact.index).replace(pasted[0], "")


@pytest.mark.parametrize("messages", [400, 3000])
def test_rules_come_in_indonesian_and_english_some_conditional_some_in_a_second_paragraph(messages: int) -> None:
    s = session(5, messages)
    texts = [content(s, f.index) for f in facts(s, "instruction")]
    assert any(ID_WORDS.search(t) for t in texts) and any(EN_WORDS.search(t) for t in texts)
    if messages == 3000:
        assert any(re.search(r"\b(until|sampai)\b", t) for t in texts)
        own = [f for f in facts(s, "instruction") if f not in adopted(s)]
        assert any("\n\n" in content(s, f.index) and not content(s, f.index).startswith(f.value) for f in own)


def test_corrections_are_loose_in_both_languages_and_some_in_a_long_message() -> None:
    s = session(5, 3000)
    texts = [content(s, f.index) for f in facts(s, "correction")]
    loose = re.compile(r"eh salah|bukan yang itu|maksudnya|no wait|the other one|wrong|mixed them up|koreksi|salah ketik")
    assert all(loose.search(t) for t in texts)
    assert any(re.search(r"\b(eh|bukan|maksudnya|koreksi|tunggu)\b", t) for t in texts)
    assert any(re.search(r"\b(wait|other one|wrong|correction|mixed)\b", t) for t in texts)
    assert any(len(t) > 150 and not t.startswith(f.value) for t, f in zip(texts, facts(s, "correction")))


def test_stale_values_are_said_by_the_user_before_and_never_contain_the_new_one() -> None:
    s = session(8, 3000)
    for fact in facts(s, "correction") + [f for f in facts(s, "decision") if f.stale]:
        assert fact.stale and fact.stale_index is not None
        assert s.messages[fact.stale_index]["role"] == "user"
        assert fact.stale not in fact.value and fact.value not in fact.stale
        assert fact.value not in text_of(s.messages[fact.stale_index])


def test_resolved_errors_rerun_the_same_command_and_pass() -> None:
    s = session(5, 3000)
    resolved = [f for f in facts(s, "error") if f.resolved is not None]
    assert resolved
    for fact in resolved:
        assert call_of(s, fact.index) == call_of(s, fact.resolved)
        assert fact.value not in s.messages[fact.resolved]["content"]


def test_errors_look_like_real_tool_output() -> None:
    """Each error line is what a Go test, pytest, psql, Kafka, logcat, Terraform or a CLI really prints."""
    shapes = re.compile(r"^(--- FAIL: Test\w+ \(\d\.\d+s\)|panic: runtime error: .+|internal/\S+\.go:\d+:\d+: .+"
                        r"|FAILED tests/.+ - \w+Error: .+|ERROR:  .+|\[2025-\d\d-\d\d .+\] ERROR .+"
                        r"|\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} \d+ \d+ E AndroidRuntime: .+|│ Error: .+"
                        r"|curl: \(\d+\) .+|Error from server .+)$")
    for seed in (5, 6):
        for fact in facts(session(seed, 3000), "error"):
            assert shapes.match(fact.value), fact.value


def test_findings_are_explained_in_the_next_assistant_message() -> None:
    s = session(5, 3000)
    for fact in facts(s, "finding"):
        nxt = s.messages[fact.index + 1]
        assert nxt["role"] == "assistant" and "means" in nxt["content"]


def test_file_facts_are_written_by_one_edit_call() -> None:
    s = session(5, 3000)
    for fact in facts(s, "file"):
        (call,) = s.messages[fact.index]["tool_calls"]
        assert call["function"]["name"] == "edit_file"
        assert json.loads(call["function"]["arguments"])["path"] == fact.value


def test_queries_paraphrase_without_the_value_and_differ() -> None:
    s = session(5, 3000)
    for fact in s.facts:
        assert fact.query.endswith("?") and fact.value not in fact.query
    queries = [f.query for f in s.facts]
    assert len(set(queries)) >= 0.8 * len(queries)


def test_tool_outputs_carry_most_of_the_characters_and_vary() -> None:
    s = session(5, 400)
    tool_chars = sum(len(m["content"]) for m in s.messages if m["role"] == "tool")
    assert tool_chars > 0.7 * s.chars()
    contents = [m["content"] for m in s.messages if m["role"] in ("user", "assistant") and m.get("content")]
    assert len(set(contents)) > 0.6 * len(contents)


def test_the_filler_has_the_noise_a_compactor_can_get_wrong() -> None:
    """Clock times, file:line references, JSON, tables, ports, people's names, a kept todo list, short replies."""
    blob = "\n".join(text_of(m) for m in session(5, 400).messages)
    for pattern in (r"\b\d\d:\d\d\b", r"\w+\.(go|py|kt):\d+", r'\{"', r"\| ", r":6379\b", r"\bPak Darto\b",
                    r"Todo:\n- \[[x ]\]", r"goroutine \d+ \[running\]"):
        assert re.search(pattern, blob), pattern
    users = [content(session(5, 400), i) for i, m in enumerate(session(5, 400).messages) if m["role"] == "user"]
    assert any(u in ("ok", "go", "gas", "sip") for u in users)


def test_every_tool_is_called_in_the_smallest_session() -> None:
    s = session(1, 60)
    used = {c["function"]["name"] for m in s.messages for c in m.get("tool_calls") or []}
    assert used == set(gen.TOOLS) and 7 <= len(gen.TOOLS) <= 10


def test_tool_results_answer_their_calls_with_the_same_name() -> None:
    s = session(7, 400)
    for i, m in enumerate(s.messages):
        if m["role"] == "tool":
            assert call_of(s, i)["name"] == m["name"]


def test_beyond_3000_the_counts_keep_growing() -> None:
    s = gen.make_session(seed=2, messages=4500)
    assert len(s.messages) == 4500 and gen.per_kind(4500) > 12
    assert_counts(s, gen.KINDS, gen.per_kind(4500))
    assert_values_new(s, gen.per_kind)
    assert_out_of_filler(s, stale_reach=STALE_REACH)
