"""The payments-SRE session generator (bench/gen_fintechsre.py): the contract every generator keeps (copied from
tests/test_generators_contract.py for this module), then what its own domain promises: Hinglish rules and
corrections, pasted documents full of other people's imperatives, whole error lines that a later run clears, and
filler that never says a planted value."""

from __future__ import annotations

import functools
import json
import random
import re
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import gen_fintechsre as gen
from generator_contract import (
    AFTER_VALUE,
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

SIZES = [60, 121, 160, 400, 401, 777, 1700, 3000]
STALE_REACH = 12
ROLES = {"instruction": {"user"}, "correction": {"user"}, "decision": {"user"}, "plan": {"user"},
         "file": {"assistant"}, "finding": {"tool"}, "error": {"tool"}, "identifier": {"tool", "user"}}
HINGLISH = re.compile(r"\b(yaar|bhai|haan|nahi|acha|theek|ruk|arre|matlab|ek kaam|pakka|mat|karna|hai|humesha|kabhi|"
                      r"pe|mein|kar|dekh|wala|galat|sirf|tak|jab)\b", re.IGNORECASE)


@functools.cache
def session(seed: int, messages: int) -> Session:
    return gen.make_session(seed=seed, messages=messages)


def adopted(s: Session) -> list[Fact]:
    """Rules the user took over from a document they pasted into the same message."""
    pasted_at = {i for i, _ in s.pasted}
    return [f for f in facts(s, "instruction") if f.index in pasted_at]


def pasted_in(s: Session, i: int) -> list[str]:
    return [text for j, text in s.pasted if j == i]


# --- the contract ------------------------------------------------------------------------------------------------

def test_a_session_below_the_smallest_is_refused() -> None:
    """59 messages are refused, not cut short; 60 are made whole."""
    with pytest.raises(ValueError):
        gen.make_session(seed=1, messages=59)
    assert len(gen.make_session(seed=1, messages=60).messages) == 60


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
    """3000 messages take well under three seconds (about half a second here)."""
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


@pytest.mark.parametrize("seed", [1, 5, 9])
def test_corrections_are_loose_and_near_misses(seed: int) -> None:
    """At 3000 messages: half or more near misses of what they replace, at least four 100+ messages away."""
    corrections = facts(session(seed, 3000), "correction")
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


# --- the domain's own promises -----------------------------------------------------------------------------------

@pytest.mark.parametrize("messages", [60, 61, 62, 65, 94, 121])
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_small_sessions_still_call_every_tool(seed: int, messages: int) -> None:
    """Seven to ten tools, each one called even in the smallest sessions."""
    assert 7 <= len(gen.TOOLS) <= 10 and len(set(gen.TOOLS)) == len(gen.TOOLS)
    assert_chat_format(session(seed, messages), gen.TOOLS)


@pytest.mark.parametrize("messages", [400, 3000])
def test_pasted_texts_are_verbatim_in_user_messages(messages: int) -> None:
    s = session(2, messages)
    assert len(s.pasted) >= (2 if messages < 1000 else 20)
    for i, text in s.pasted:
        assert s.messages[i]["role"] == "user" and text in content(s, i)
        assert len(text) > 200


def test_pasted_texts_hold_other_peoples_imperatives_numbers_and_ids() -> None:
    """Mails, RCAs, circulars and threads tell someone to do things ("Please ...", "Do not ..."), with numbers."""
    s = session(3, 3000)
    imperative = re.compile(r"\b(Please|Do not|Kindly|shall not|please don't|do not|Reboot|are requested|are advised)\b")
    for _, text in s.pasted:
        assert imperative.search(text), text[:200]
        assert re.search(r"\d", text)


def test_pasted_texts_come_from_all_kinds_of_sources() -> None:
    """The compliance mail, an RCA, AWS support, an NPCI circular, the Slack thread, the CAB ticket, a PG notice."""
    s = session(3, 3000)
    markers = ("From:", "RCA:", "AWS Premium Support", "NPCI/", "#payments-oncall", "CAB-", "Incident Notice")
    seen = {m for m in markers for _, text in s.pasted if m in text}
    assert len(seen) == len(markers)


@pytest.mark.parametrize("messages", [400, 3000])
def test_nothing_planted_by_the_user_hides_inside_a_pasted_text(messages: int) -> None:
    """A rule, correction, decision or plan is the user's own words, never part of what they pasted."""
    s = session(4, messages)
    for fact in s.facts:
        if fact.kind in ("instruction", "correction", "decision", "plan"):
            for text in pasted_in(s, fact.index):
                assert fact.value not in text, fact
            outside = content(s, fact.index)
            for text in pasted_in(s, fact.index):
                outside = outside.replace(text, "")
            assert fact.value in outside


@pytest.mark.parametrize("messages", [400, 3000])
def test_some_rules_are_adopted_from_a_pasted_document(messages: int) -> None:
    s = session(6, messages)
    taken = adopted(s)
    assert taken and len(taken) < len(facts(s, "instruction"))
    for fact in taken:
        assert pasted_in(s, fact.index)


@pytest.mark.parametrize("messages", [121, 160, 400, 777, 3000])
@pytest.mark.parametrize("seed", [1, 5])
def test_the_first_two_rules_come_early_and_are_the_users_own(seed: int, messages: int) -> None:
    s = session(seed, messages)
    assert_first_rules_early(s, messages, adopted(s))


def test_rules_come_in_both_languages_some_conditional_some_in_a_second_paragraph() -> None:
    s = session(7, 3000)
    rules = facts(s, "instruction")
    texts = [content(s, f.index) for f in rules]
    own = [t for f, t in zip(rules, texts) if not pasted_in(s, f.index)]
    assert any(HINGLISH.search(t.split("\n\n")[1]) for t in own)
    assert any(not re.search(r"\b(mat|karna|nahi|humesha|kabhi)\b", t.split("\n\n")[1]) for t in own)
    assert any(re.search(r"\b(until|jab tak|tak)\b", t) for t in texts)
    assert sum(f.value in t.split("\n\n")[1] and f.value not in t.split("\n\n")[0] for f, t in zip(rules, own)) >= 3


def test_corrections_are_phrased_loosely_and_some_sit_inside_a_long_message() -> None:
    s = session(8, 3000)
    corrections = facts(s, "correction")
    openers = Counter(re.sub(r"[^a-z ]", "", content(s, f.index).lower().replace("btw ", "")).split()[0]
                      for f in corrections)
    assert len(openers) >= 3
    buried = [f for f in corrections if "\n\n" in content(s, f.index)
              and f.value not in content(s, f.index).split("\n\n")[0]]
    assert buried
    assert any(re.search(r"\b(nahi|galat|galti|sorry|wrong|other one|no wait)\b", content(s, f.index)) for f in corrections)


def test_a_stale_value_is_a_plain_request_of_the_user() -> None:
    """What a correction replaces was said as part of an ordinary ask, and said nowhere else but near it."""
    s = session(9, 3000)
    texts = [text_of(m) for m in s.messages]
    for fact in facts(s, "correction"):
        assert fact.stale is not None and fact.stale_index is not None
        assert s.messages[fact.stale_index]["role"] == "user"
        holders = [i for i, t in enumerate(texts) if fact.stale in t]
        assert all(fact.stale_index <= i <= fact.stale_index + STALE_REACH
                   or fact.index <= i <= fact.index + AFTER_VALUE for i in holders)


def test_revisions_name_both_the_old_and_the_new_choice() -> None:
    s = session(10, 3000)
    for fact in facts(s, "decision"):
        if fact.stale is not None:
            assert fact.stale in content(s, fact.index) and fact.value in content(s, fact.index)


def test_errors_look_like_real_tool_errors() -> None:
    s = session(11, 3000)
    shape = re.compile(r"(^Error|^error:|^ERROR:|ERRO\[|\[ERROR\]|Exception|FAILED$|^An error occurred)")
    for fact in facts(s, "error"):
        assert shape.search(fact.value), fact.value
        assert s.messages[fact.index]["name"] in gen.TOOLS


@pytest.mark.parametrize("messages", [400, 3000])
def test_a_resolved_error_is_cleared_by_the_same_command(messages: int) -> None:
    s = session(12, messages)
    for fact in facts(s, "error"):
        if fact.resolved is not None:
            first, again = call_of(s, fact.index), call_of(s, fact.resolved)
            assert first["name"] == again["name"] and first["arguments"] == again["arguments"]
            assert fact.value not in content(s, fact.resolved)


def test_findings_are_explained_in_the_next_assistant_message() -> None:
    s = session(13, 3000)
    for fact in facts(s, "finding"):
        after = next(m for m in s.messages[fact.index + 1:] if m["role"] == "assistant")
        assert "means" in after["content"] and fact.value in after["content"]


def test_files_are_written_by_one_write_or_edit_call() -> None:
    s = session(14, 3000)
    for fact in facts(s, "file"):
        (call,) = s.messages[fact.index]["tool_calls"]
        assert call["function"]["name"] in ("write_file", "edit_file")
        assert json.loads(call["function"]["arguments"])["path"] == fact.value


def test_identifiers_are_said_by_the_user_and_printed_by_tools() -> None:
    s = session(15, 3000)
    idents = facts(s, "identifier")
    said = [f for f in idents if s.messages[f.index]["role"] == "user"]
    printed = [f for f in idents if s.messages[f.index]["role"] == "tool"]
    assert said and printed
    assert len({s.messages[f.index]["name"] for f in printed}) >= 3


def test_plans_are_written_in_prose_with_steps() -> None:
    s = session(16, 3000)
    for fact in facts(s, "plan"):
        text = content(s, fact.index)
        assert re.search(r"\b(plan|Then|phir|First|pehle)\b", text) and len(text) > 120


def test_the_user_writes_hinglish_and_short_replies() -> None:
    s = session(17, 3000)
    users = [content(s, i) for i, m in enumerate(s.messages) if m["role"] == "user"]
    assert sum(bool(HINGLISH.search(u)) for u in users) >= 0.3 * len(users)
    assert sum(u in ("ok", "go", "kar de", "haan", "theek hai") for u in users) >= 10
    assert sum(not HINGLISH.search(u) for u in users) >= 0.1 * len(users)


def test_the_noise_a_compactor_can_get_wrong_is_there() -> None:
    """Clock times, File.java:121 references, ports, JSON fragments, tables, people's names, a todo list, UPI codes."""
    s = session(18, 400)
    whole = "\n".join(text_of(m) for m in s.messages)
    assert re.search(r"\b\d{2}:\d{2}\b", whole)
    assert re.search(r"\w+\.java:\d+", whole)
    assert all(port in whole for port in ("5432", "6379", "9094", "8080"))
    assert '{"Status": "available"' in whole or '"status":"success"' in whole
    assert "| item | status |" in whole or "PARTITION  CURRENT-OFFSET" in whole
    assert any(name in whole for name in ("Priya", "Arjun", "Karthik", "Sneha"))
    assert "- [ ]" in whole and "- [x]" in whole
    assert all(code in whole for code in ("U30", "ZM"))


@pytest.mark.parametrize("messages", [400, 3000])
def test_tool_outputs_hold_most_of_the_characters(messages: int) -> None:
    s = session(19, messages)
    tools = sum(len(text_of(m)) for m in s.messages if m["role"] == "tool")
    assert tools >= 0.8 * s.chars()


@pytest.mark.parametrize("messages", [400, 3000])
def test_the_filler_never_says_a_planted_name(messages: int) -> None:
    """The planted-only names (``mandate-sweeper``, ``MandateSweeper``, ``mandate_sweeper``) stay in fact episodes."""
    s = session(20, messages)
    window: set[int] = set()
    for fact in s.facts:
        window.update(range(fact.index - 3, fact.index + AFTER_VALUE + 1))
        if fact.stale_index is not None:
            window.update(range(fact.stale_index, fact.stale_index + STALE_REACH + 1))
    names = list(gen.COMBOS) + [gen._camel(c) for c in gen.COMBOS] + [gen._snake(c) for c in gen.COMBOS]
    pattern = re.compile("|".join(re.escape(x) for x in names))
    for i, m in enumerate(s.messages):
        if i not in window:
            assert not pattern.search(text_of(m)), (i, pattern.search(text_of(m)))


def test_logs_never_carry_a_full_vpa() -> None:
    """No card data or customer handles in logs: VPAs show up masked."""
    s = session(21, 400)
    for m in s.messages:
        if m["role"] == "tool":
            for vpa in re.findall(r"vpa=(\S+)", m["content"]):
                assert vpa.startswith("****@")


def test_per_kind_keeps_growing_past_3000() -> None:
    assert gen.per_kind(6000) > gen.per_kind(3000) and gen.per_kind(59) >= 1
    s = gen.make_session(seed=3, messages=4500)
    assert len(s.messages) == 4500
    assert_counts(s, gen.KINDS, gen.per_kind(4500))
    assert_values_new(s, gen.per_kind)
    assert_out_of_filler(s, stale_reach=STALE_REACH)
