"""The actuary session generator (bench/gen_actuary.py): the contract every generator of the fidelity bench keeps
(checked here the way tests/test_generators_contract.py checks the others), and what this domain promises of its
own: pasted mails, circulars and logs full of imperatives that are not the user's, rules and corrections in
Portuguese and English, loose near-miss corrections, whole error lines of R, testthat, psql, Stan, Quarto and git
output, resolved by a later passing run of the same tool."""

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

import gen_actuary as gen
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
    """Sessions are deterministic, so the tests share them."""
    if (seed, messages) not in _CACHE:
        _CACHE[(seed, messages)] = gen.make_session(seed=seed, messages=messages)
    return _CACHE[(seed, messages)]


def adopted(s: Session) -> list[object]:
    """Instructions the user adopted from a document they pasted in the same message."""
    at = {i for i, _text in s.pasted}
    return [f for f in facts(s, "instruction") if f.index in at]


# --- the contract of tests/test_generators_contract.py --------------------------------------------------------------

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
    per_kind = gen.per_kind
    assert per_kind(400) == 6 and per_kind(3000) == 12 and per_kind(60) == 1
    sizes = [per_kind(m) for m in range(60, 6001, 20)]
    assert sizes == sorted(sizes) and min(sizes) >= 1 and 8 <= per_kind(1700) <= 10


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
    resolved = sum(f.resolved is not None for f in errors)
    assert 0 < resolved < len(errors)
    assert all(f.resolved is None for f in s.facts if f.kind != "error")


@pytest.mark.parametrize("seed", [5, 1, 7])
def test_corrections_are_loose_and_near_misses(seed: int) -> None:
    corrections = facts(session(seed, 3000), "correction")
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


@pytest.mark.parametrize("messages", [121, 160, 400, 777, 3000])
@pytest.mark.parametrize("seed", [1, 5, 9])
def test_the_first_two_rules_come_early_and_are_the_users_own(seed: int, messages: int) -> None:
    s = session(seed, messages)
    assert_first_rules_early(s, messages, adopted(s))


# --- the actuary's own promises -----------------------------------------------------------------------------------

@pytest.mark.parametrize("messages", [60, 61, 77, 99, 121, 233])
def test_every_tool_is_used_even_in_short_sessions(messages: int) -> None:
    s = gen.make_session(seed=3, messages=messages)
    assert len(s.messages) == messages
    assert_chat_format(s, gen.TOOLS)
    assert 7 <= len(gen.TOOLS) <= 10


def test_sizes_beyond_the_bench_stay_exact_and_grow_the_facts() -> None:
    s = gen.make_session(seed=2, messages=4000)
    assert len(s.messages) == 4000 and gen.per_kind(4000) == 14
    assert_counts(s, gen.KINDS, 14)
    assert_values_new(s, gen.per_kind)
    assert_out_of_filler(s, stale_reach=STALE_REACH)


@pytest.mark.parametrize("messages", [400, 3000])
def test_pasted_documents_are_listed_verbatim_and_of_every_kind(messages: int) -> None:
    s = session(5, messages)
    heads = {"mail": "From: Fernanda", "circular": "CIRCULAR SUSEP", "treaty": "Treaty ref.", "review": "Revisão par",
             "slack": "Thiago Ramos:", "ci": "R CMD check results"}
    seen = set()
    for i, text in s.pasted:
        assert s.messages[i]["role"] == "user" and text in content(s, i)
        assert len(text) > 300
        seen |= {k for k, h in heads.items() if h in text}
    assert seen == set(heads)


def test_pasted_documents_hold_imperatives_numbers_and_ids_that_are_not_the_users() -> None:
    s = session(5, 3000)
    imperative = re.compile(r"\b(Please|Do not|don't|Não|não|Favor|Encaminhar|Keep|Check|Include|rerun|Apresentar)\b")
    for _i, text in s.pasted:
        assert imperative.search(text), text[:80]
        assert re.search(r"\d", text)
    pasted = [text for _i, text in s.pasted]
    for fact in s.facts:
        assert not any(fact.value in text for text in pasted), fact
        if fact.stale is not None:
            assert not any(fact.stale in text for text in pasted), fact


def test_rules_adopted_from_a_pasted_document_are_said_in_the_users_own_words() -> None:
    s = session(5, 3000)
    found = adopted(s)
    assert found
    for fact in found:
        pasted = [text for i, text in s.pasted if i == fact.index]
        rest = content(s, fact.index)
        for text in pasted:
            rest = rest.replace(text, "")
        assert fact.value in rest and not any(fact.value in text for text in pasted)


PT = re.compile(r"\b(não|nunca|aqui a gente|regra|nada de|enquanto|até|daqui|vale|pra|sempre|mexe)\b", re.I)
EN = re.compile(r"\b(we|never|I'd rather|please|until|don't|our|rule)\b", re.I)


def test_rules_come_in_both_languages_indirectly_with_conditions_and_in_second_paragraphs() -> None:
    rules = [content(session(5, 3000), f.index) for f in facts(session(5, 3000), "instruction")]
    rules += [content(session(8, 3000), f.index) for f in facts(session(8, 3000), "instruction")]
    assert sum(bool(PT.search(t)) and not t.startswith(("ok", "FYI")) for t in rules) >= 3
    assert sum(bool(re.search(r"\b(we never|I'd rather|please always|until)\b", t)) for t in rules) >= 2
    assert any(re.search(r"\b(até|until|enquanto)\b", t) for t in rules)
    values = [f.value for f in facts(session(5, 3000), "instruction")]
    texts = [content(session(5, 3000), f.index) for f in facts(session(5, 3000), "instruction")]
    assert any("\n\n" in t and t.index("\n\n") < t.index(v) for t, v in zip(texts, values))
    assert not any(t.lower().startswith(("rule:", "instruction:")) for t in texts)


def test_corrections_are_loose_in_both_languages_some_inside_long_messages() -> None:
    corrections = [(f, content(session(s, 3000), f.index)) for s in (5, 8) for f in facts(session(s, 3000), "correction")]
    loose = re.compile(r"não não|errei|foi mal|corrigindo|na verdade|pera|no wait|wrong|other one|scratch that|my bad")
    assert all(loose.search(text) for _f, text in corrections)
    assert any(re.search(r"não|errei|foi mal|corrigindo|verdade", t) for _f, t in corrections)
    assert any(re.search(r"wrong|wait|other one|scratch|my bad", t) for _f, t in corrections)
    inside = [t for f, t in corrections if len(t) > 200 and 40 < t.index(f.value) < len(t) - 60]
    assert inside
    for fact, _text in corrections:
        assert fact.stale not in fact.value and fact.value not in fact.stale


def test_a_correction_replaces_what_the_user_said_and_the_agent_takes_it_up() -> None:
    s = session(5, 3000)
    for fact in facts(s, "correction"):
        assert fact.stale is not None and fact.stale_index is not None
        assert s.messages[fact.stale_index]["role"] == "user" and fact.stale in content(s, fact.stale_index)
        answer = s.messages[fact.index + 1]
        assert answer["role"] == "assistant" and fact.value in text_of(answer)


def test_errors_are_real_looking_whole_lines_of_their_tool() -> None:
    shapes = {"testthat": r"^── (Failure|Error) \(test-[a-z]+\.R:\d+\): ", "psql_query": r"^ERROR:  ",
              "stan_fit": r"^Warning: ", "quarto_render": r"^Quitting from lines \d+-\d+ \[",
              "git": r"^error: failed to push some refs", "r_run": r"^(Error in |[a-z_]+: no visible binding)"}
    for seed in (5, 8):
        s = session(seed, 3000)
        for fact in facts(s, "error"):
            tool = s.messages[fact.index]["name"]
            assert re.match(shapes[tool], fact.value), fact
            assert fact.value in s.messages[fact.index]["content"].split("\n")
            assert fact.value in content(s, fact.index + 1), "the agent quotes the error right after"


def test_a_resolved_error_is_gone_from_the_same_command_run_again() -> None:
    s = session(5, 3000)
    resolved = [f for f in facts(s, "error") if f.resolved is not None]
    assert resolved
    for fact in resolved:
        assert fact.resolved is not None
        before, after = call_of(s, fact.index), call_of(s, fact.resolved)
        assert before["name"] == after["name"] and before["arguments"] == after["arguments"]
        out = s.messages[fact.resolved]["content"]
        assert fact.value not in out and "FAIL 1" not in out and "ERROR:" not in out and "Quitting" not in out


def test_files_are_written_by_the_one_call_of_their_message() -> None:
    s = session(5, 3000)
    for fact in facts(s, "file"):
        (call,) = s.messages[fact.index]["tool_calls"]
        assert call["function"]["name"] == "write_file"
        assert json.loads(call["function"]["arguments"])["path"] == fact.value
        reply = s.messages[fact.index + 1]
        assert reply["role"] == "tool" and fact.value in reply["content"]


def test_identifiers_are_said_by_the_user_and_printed_by_tools() -> None:
    s = session(5, 3000)
    ids = facts(s, "identifier")
    said = [f for f in ids if s.messages[f.index]["role"] == "user"]
    printed = [f for f in ids if s.messages[f.index]["role"] == "tool"]
    assert said and printed
    assert {s.messages[f.index]["name"] for f in printed} <= set(gen.TOOLS)


def test_findings_are_one_line_of_output_and_explained_in_the_next_answer() -> None:
    s = session(5, 3000)
    for fact in facts(s, "finding"):
        lines = [line for line in content(s, fact.index).splitlines() if fact.value in line]
        assert len(lines) == 1
        answer = s.messages[fact.index + 1]
        assert answer["role"] == "assistant" and fact.value in content(s, fact.index + 1)
        assert "means" in content(s, fact.index + 1)


def test_plans_are_prose_and_queries_paraphrase_without_the_value() -> None:
    s = session(5, 3000)
    for fact in facts(s, "plan"):
        text = content(s, fact.index)
        assert len(text) > len(fact.value) + 40 and fact.value in text
    for fact in s.facts:
        assert fact.query.endswith("?") and fact.value not in fact.query
        assert fact.value not in gen.SYSTEM


def test_most_characters_are_long_varied_tool_outputs() -> None:
    s = session(5, 3000)
    tool_chars = sum(len(m["content"]) for m in s.messages if m["role"] == "tool")
    assert tool_chars > 0.7 * s.chars()
    outputs = [m["content"] for m in s.messages if m["role"] == "tool"]
    assert len(set(outputs)) > 0.95 * len(outputs) and len({o[:400] for o in outputs}) > 0.5 * len(outputs)
    kinds = {"Coefficients:", "Approximate significance of smooth terms", "MackChainLadder", "# A tibble",
             "R CMD check", "QUERY PLAN", "══ Testing pricingSP", "Running MCMC", "processing file:", "commit ",
             "diff --git", "(rows)"}
    joined = "\n".join(o[:4000] for o in outputs[:600])
    assert sum(k.replace("(rows)", "rows)") in joined for k in kinds) >= 10


def test_the_talk_is_realistic_mixed_and_noisy() -> None:
    s = session(5, 3000)
    users = [content(s, i) for i, m in enumerate(s.messages) if m["role"] == "user"]
    assert len(set(users)) > 0.4 * len(users)
    assert any(u in ("ok", "go", "vlw", "blz", "👍", "sim") for u in users)
    assert sum(bool(re.search(r"\b(não|pra|roda|beleza|pera|tá)\b", u)) for u in users) > 20
    assert sum(bool(re.search(r"\b(the|please|pls|let's|again)\b", u)) for u in users) > 20
    everything = "\n".join(text_of(m) for m in s.messages[:800])
    assert re.search(r"\b\d{2}:\d{2}\b", everything)
    assert re.search(r"R/[a-z_]+\.R:\d+", everything)
    assert "5432" in everything and "8787" in everything
    assert "Todo:\n- [" in everything and "```json" in everything
    assert any(p in everything for p in ("Fernanda", "Thiago", "Juliana"))


def test_tool_calls_have_unique_ids_and_json_arguments() -> None:
    s = session(5, 3000)
    ids = [c["id"] for m in s.messages for c in m.get("tool_calls") or []]
    assert len(ids) == len(set(ids))
    for m in s.messages:
        for c in m.get("tool_calls") or []:
            assert c["type"] == "function" and isinstance(json.loads(c["function"]["arguments"]), dict)
