"""bench/gen_mro.py: the contract every session generator keeps (tests/test_generators_contract.py, checked here for
this module), and what the MRO planner's sessions promise of their own: pasted documents whose imperatives are not
the user's, rules and corrections in French and English, loose corrections far from what they replace, whole error
lines that a later run of the same tool no longer prints, and the noise of a real maintenance planning day."""

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

import gen_mro
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

_CACHE: dict[tuple[int, int], Session] = {}


def session(seed: int, messages: int) -> Session:
    """One session per (seed, size), shared by the tests that only read it."""
    key = (seed, messages)
    if key not in _CACHE:
        _CACHE[key] = gen_mro.make_session(seed=seed, messages=messages)
    return _CACHE[key]


def adopted(s: Session) -> list[object]:
    """The rules the user adopted from a document they pasted (their message holds a pasted text)."""
    pasted_at = {i for i, _ in s.pasted}
    return [f for f in facts(s, "instruction") if f.index in pasted_at]


# --- the contract of tests/test_generators_contract.py, for this module ------------------------------------------


def test_a_session_below_the_smallest_is_refused() -> None:
    with pytest.raises(ValueError):
        gen_mro.make_session(seed=1, messages=gen_mro.MIN_MESSAGES - 1)
    assert len(gen_mro.make_session(seed=1, messages=gen_mro.MIN_MESSAGES).messages) == gen_mro.MIN_MESSAGES


def test_the_global_random_state_does_not_leak_into_a_session() -> None:
    random.seed(1)
    a = gen_mro.make_session(seed=4, messages=400)
    random.seed(99)
    b = gen_mro.make_session(seed=4, messages=400)
    assert json.dumps(a.messages) == json.dumps(b.messages) and a.facts == b.facts and a.pasted == b.pasted


def test_same_seed_same_session() -> None:
    a, b = gen_mro.make_session(seed=2, messages=400), gen_mro.make_session(seed=2, messages=400)
    assert json.dumps(a.messages) == json.dumps(b.messages)
    assert a.facts == b.facts and a.pasted == b.pasted
    other = gen_mro.make_session(seed=3, messages=400)
    assert json.dumps(a.messages) != json.dumps(other.messages) and a.facts != other.facts


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6, 7, 11])
def test_sizes_match_the_bench_conventions_for_any_seed(seed: int) -> None:
    small, large = session(seed, 400), session(seed, 3000)
    assert len(small.messages) == 400 and len(large.messages) == 3000
    assert 500_000 <= small.chars() <= 700_000
    assert 4_200_000 <= large.chars() <= 5_500_000


def test_generation_is_fast() -> None:
    start = time.perf_counter()
    gen_mro.make_session(seed=11, messages=3000)
    assert time.perf_counter() - start < 3.0


@pytest.mark.parametrize("messages", SIZES)
def test_any_size_comes_out_exact(messages: int) -> None:
    s = session(1, messages)
    assert len(s.messages) == messages
    assert s.messages[-1]["role"] == "user" and s.messages[-2]["role"] == "assistant"
    assert not s.messages[-2].get("tool_calls")
    assert_counts(s, gen_mro.KINDS, gen_mro.per_kind(messages))
    assert all(0.03 * messages <= f.index <= 0.88 * messages for f in s.facts)


@pytest.mark.parametrize("messages", [m for m in SIZES if m >= 120])
def test_any_size_keeps_its_values_new_and_out_of_the_filler(messages: int) -> None:
    s = session(1, messages)
    assert_values_new(s, gen_mro.per_kind)
    assert_out_of_filler(s, stale_reach=STALE_REACH)


def test_six_of_each_kind_at_400_twelve_at_3000() -> None:
    assert_counts(session(5, 400), gen_mro.KINDS, 6)
    assert_counts(session(5, 3000), gen_mro.KINDS, 12)
    per_kind = gen_mro.per_kind
    assert per_kind(400) == 6 and per_kind(3000) == 12 and per_kind(60) == 1
    sizes = [per_kind(m) for m in range(60, 6001, 20)]
    assert sizes == sorted(sizes) and min(sizes) >= 1 and 8 <= per_kind(1700) <= 10


@pytest.mark.parametrize("messages", [400, 3000])
@pytest.mark.parametrize("seed", [5, 8, 13])
def test_values_are_new_where_planted_and_absent_before(seed: int, messages: int) -> None:
    s = session(seed, messages)
    assert_values_new(s, gen_mro.per_kind)
    assert_out_of_filler(s, stale_reach=STALE_REACH)


@pytest.fixture(scope="module", params=[400, 3000], ids=lambda m: f"mro-{m}")
def planted(request: pytest.FixtureRequest) -> Session:
    """The session of seed 5 at 400 and 3000 messages."""
    return session(5, request.param)


def test_carriers_and_placement(planted: Session) -> None:
    s = planted
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


def test_errors_are_exact_lines_and_some_are_resolved(planted: Session) -> None:
    s = planted
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


@pytest.mark.parametrize("seed", [5, 1, 2])
def test_corrections_are_loose_and_near_misses(seed: int) -> None:
    s = session(seed, 3000)
    corrections = facts(s, "correction")
    close = far = 0
    for fact in corrections:
        assert fact.stale is not None and fact.stale_index is not None
        same = sum(a == b for a, b in zip(fact.value, fact.stale))
        close += same >= len(fact.value) // 2
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


@pytest.mark.parametrize("messages", SIZES)
def test_the_chat_is_well_formed_with_every_tool(messages: int) -> None:
    """OpenAI chat format at every size, each of the agent's tools called at least once."""
    for seed in (1, 2):
        assert_chat_format(session(seed, messages), gen_mro.TOOLS)


@pytest.mark.parametrize("messages", [121, 160, 400, 777, 3000])
def test_the_first_two_rules_come_early(messages: int) -> None:
    for seed in (1, 5, 9):
        s = session(seed, messages)
        assert_first_rules_early(s, messages, adopted(s))


# --- what the MRO sessions promise of their own ------------------------------------------------------------------

IMPERATIVES = ("Do not", "Please", "Ne pas", "merci de", "ne touchez pas", "redémarrez", "inspect", "Replace",
               "Remove", "Open", "Torque", "Placard", "Report", "Always", "Rappeler", "reprendre")
DOC_MARKS = {"ad": "EASA AD No.", "sb": "SERVICE BULLETIN", "quality": "From: Olivier", "handover": "PASSATION NUIT",
             "complaint": "Dear MRO team", "camo": "CAMO MEMO", "whatsapp": "] "}


def test_pasted_texts_are_in_user_messages_verbatim_and_hold_imperatives_and_numbers() -> None:
    s = session(3, 3000)
    assert len(s.pasted) >= 20
    for i, text in s.pasted:
        assert s.messages[i]["role"] == "user" and text in content(s, i)
        assert any(word.lower() in text.lower() for word in IMPERATIVES), text
        assert re.search(r"\d", text), text


def test_every_kind_of_document_is_pasted() -> None:
    texts = [t for _, t in session(3, 3000).pasted]
    for kind, mark in DOC_MARKS.items():
        assert any(mark in t for t in texts), kind


def test_no_planted_rule_or_correction_lies_inside_a_pasted_text() -> None:
    for messages in (400, 3000):
        s = session(4, messages)
        for fact in s.facts:
            for _, text in s.pasted:
                assert fact.value not in text, fact
                if fact.stale is not None:
                    assert fact.stale not in text, fact


def test_some_rules_are_adopted_from_a_pasted_document_in_the_users_own_words() -> None:
    s = session(2, 3000)
    taken = adopted(s)
    assert taken
    pasted = dict(s.pasted)
    for fact in taken:
        own = content(s, fact.index).replace(pasted[fact.index], "")
        assert fact.value in own and fact.value not in pasted[fact.index]


def test_rules_come_in_french_and_english() -> None:
    s = session(1, 3000)
    texts = [content(s, f.index) for f in facts(s, "instruction")]
    french = [t for t in texts if re.search(r"\b(on ne|je préfère|merci de ne pas|toujours|à partir de maintenant|tant que)\b", t, re.I)]
    english = [t for t in texts if re.search(r"\b(we never|I.d rather|house rule|rule of thumb|don.t|until)\b", t, re.I)]
    assert french and english


def test_some_rules_sit_in_a_second_paragraph_and_some_have_a_condition() -> None:
    seconds = conditions = 0
    for seed in (1, 2, 3):
        s = session(seed, 3000)
        for fact in facts(s, "instruction"):
            text = content(s, fact.index)
            paragraphs = text.split("\n\n")
            seconds += len(paragraphs) > 1 and fact.value not in paragraphs[0]
            conditions += bool(re.search(r"\b(tant que|until)\b", text))
    assert seconds >= 3 and conditions >= 2


def test_corrections_are_loose_and_in_both_languages() -> None:
    marks_fr = ("non attends", "je me suis trompé", "c'est l'autre", "était faux")
    marks_en = ("wrong",)
    found_fr = found_en = 0
    for seed in (1, 2, 3):
        for fact in facts(session(seed, 3000), "correction"):
            text = content(session(seed, 3000), fact.index)
            found_fr += any(m in text for m in marks_fr)
            found_en += any(m in text for m in marks_en)
    assert found_fr >= 3 and found_en >= 1


def test_some_corrections_sit_in_the_middle_of_a_long_message() -> None:
    middle = 0
    for seed in (1, 2, 3, 4):
        s = session(seed, 3000)
        for fact in facts(s, "correction"):
            paragraphs = content(s, fact.index).split("\n\n")
            middle += len(paragraphs) >= 3 and fact.value in paragraphs[1]
    assert middle >= 1


def test_stale_values_were_said_by_the_user_and_used_by_the_agent_right_after() -> None:
    s = session(6, 3000)
    for fact in facts(s, "correction"):
        assert fact.stale is not None and fact.stale_index is not None
        assert fact.stale in content(s, fact.stale_index)
        assert any(fact.stale in text_of(m) for m in s.messages[fact.stale_index + 1:fact.stale_index + 4])


def test_near_misses_look_like_the_old_value() -> None:
    s = session(5, 3000)
    near = [f for f in facts(s, "correction") if f.stale is not None and len(f.stale) == len(f.value)
            and sum(a == b for a, b in zip(f.value, f.stale)) >= len(f.value) - 2]
    assert len(near) >= 4


def test_errors_come_from_real_looking_tools_and_the_resolving_run_passes() -> None:
    s = session(7, 3000)
    names = set()
    for fact in facts(s, "error"):
        tool = s.messages[fact.index]
        names.add(tool["name"])
        assert call_of(s, fact.index)["name"] == tool["name"]
        assert "\n" not in fact.value and fact.value.strip() == fact.value
        if fact.resolved is not None:
            later = s.messages[fact.resolved]["content"]
            if tool["name"] == "gradle":
                assert "BUILD SUCCESSFUL" in later and "FAILED" not in later
    assert len(names) >= 3


def test_unresolved_errors_are_never_run_clean_in_their_episode() -> None:
    s = session(7, 3000)
    for fact in facts(s, "error"):
        if fact.resolved is None:
            assert s.messages[fact.index + 1]["role"] == "assistant" and not s.messages[fact.index + 1].get("tool_calls")


def test_files_are_written_by_edit_file_at_their_path() -> None:
    s = session(5, 3000)
    for fact in facts(s, "file"):
        call = s.messages[fact.index]["tool_calls"][0]["function"]
        assert call["name"] == "edit_file" and json.loads(call["arguments"])["path"] == fact.value


def test_findings_are_explained_in_the_next_answer() -> None:
    s = session(5, 3000)
    for fact in facts(s, "finding"):
        answer = s.messages[fact.index + 1]
        assert answer["role"] == "assistant" and fact.value in answer["content"] and "Concrètement" in answer["content"]


def test_plans_are_prose_with_steps() -> None:
    s = session(5, 3000)
    for fact in facts(s, "plan"):
        text = content(s, fact.index)
        assert re.search(r"then|ensuite|puis|\n2\.|Ensuite", text), text


def test_queries_paraphrase_without_the_value() -> None:
    s = session(8, 3000)
    for fact in s.facts:
        assert len(fact.query.split()) >= 3 and fact.value not in fact.query


def test_the_user_writes_short_replies_and_mixes_languages() -> None:
    s = session(1, 3000)
    users = [content(s, i) for i, m in enumerate(s.messages) if m["role"] == "user"]
    assert sum(u in ("ok", "vas-y", "go", "nickel") for u in users) >= 10
    assert any(re.search(r"\b(stp|regarde|tu peux)\b", u) for u in users)
    assert any(re.search(r"\b(pls|please|can you|check)\b", u) for u in users)


def test_the_session_carries_the_noise_a_compactor_can_get_wrong() -> None:
    s = session(2, 3000)
    everything = "\n".join(text_of(m) for m in s.messages)
    assert re.search(r"\b\d{2}:\d{2}\b", everything)  # clock times
    assert re.search(r"\w+\.kt:\d+", everything)  # file.kt:121 references
    assert re.search(r"\| F-H\w{3} \|", everything)  # markdown tables
    assert '{"tail": "F-H' in everything  # JSON fragments
    assert "- [ ]" in everything and "- [x]" in everything  # the agent's todo list
    assert any(f" {p} " in everything or f":{p}" in everything for p in ("8443", "1433", "5672"))  # port-like numbers
    assert re.search(r"AMM \d{2}-\d{2}-\d{2}-\d{3}-\d{3}", everything)
    assert any(name in everything for name in ("Nadia Benali", "Thierry Vidal", "Sophie Marty"))


def test_tool_outputs_carry_most_of_the_text_and_are_varied() -> None:
    s = session(3, 3000)
    tools = [m["content"] for m in s.messages if m["role"] == "tool"]
    assert sum(map(len, tools)) > 0.6 * s.chars()
    assert len(set(tools)) > 0.95 * len(tools)
    heads = Counter(t.split("\n", 1)[0][:18] for t in tools)
    assert len(heads) > 50


def test_messages_are_not_one_template_repeated() -> None:
    s = session(3, 3000)
    finals = [m["content"] for m in s.messages if m["role"] == "assistant" and not m.get("tool_calls")]
    assert len(set(finals)) > 0.8 * len(finals)


def test_longer_sessions_keep_growing_their_facts() -> None:
    s = gen_mro.make_session(seed=3, messages=6000)
    assert len(s.messages) == 6000
    assert_counts(s, gen_mro.KINDS, gen_mro.per_kind(6000))
    assert_values_new(s, gen_mro.per_kind)
    assert_out_of_filler(s, stale_reach=STALE_REACH)


@pytest.mark.parametrize("messages", [61, 62, 63, 75, 99, 133, 250, 1001])
def test_odd_small_sizes_are_exact_and_well_formed(messages: int) -> None:
    for seed in (1, 2, 3):
        s = gen_mro.make_session(seed=seed, messages=messages)
        assert len(s.messages) == messages
        assert_counts(s, gen_mro.KINDS, gen_mro.per_kind(messages))
        assert_chat_format(s, gen_mro.TOOLS)
        assert all(0.03 * messages <= f.index <= 0.88 * messages for f in s.facts)
