"""bench/gen_search.py: a Polish e-commerce search team's sessions (Rust query rewriter, OpenSearch, Jest storefront,
LightGBM learning-to-rank, ClickHouse click logs, an A/B dashboard). The bench's generator contract for this module
(sizes, determinism, exact sizes, counts, values new and out of the filler, carriers, errors, corrections, decisions,
first rules), and what the domain promises: pasted documents with others' imperatives, rules in Polish and English,
errors shaped like real tool output, findings explained next, files written by one edit call."""

from __future__ import annotations

import json
import random
import re
import sys
import time
from collections import Counter
from functools import lru_cache
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import gen_search
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

STALE_REACH = 12
ROLES = {"instruction": {"user"}, "correction": {"user"}, "decision": {"user"}, "plan": {"user"},
         "file": {"assistant"}, "finding": {"tool"}, "error": {"tool"}, "identifier": {"tool", "user"}}
ERROR_SHAPES = {
    "cargo": (r"^thread '[\w:]+' panicked at src/[\w/]+\.rs:\d+:\d+:$", r"^error\[E\d{4}\]: .+ in the current scope$"),
    "jest": (r"^● \w+ › .+ for \".+\"$", r"^src/components/\w+/\w+\.tsx:\d+:\d+ - error TS\d{4}: .+\.$"),
    "clickhouse": (r"^Code: \d+\. DB::Exception: .+ \([A-Z_]+\)$",),
    "ltr_train": (r"^KeyError: '\w+'$", r"^lightgbm\.basic\.LightGBMError: Label \d+ is not less than .+$"),
    "shell": (r"^2026-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z ERROR qrw::[\w:]+: .+$",),
    "opensearch": (r"^opensearchpy\.exceptions\.RequestError: RequestError\(400, '\w+', .+\)$",),
    "ab_dashboard": (r"^ERROR: no exposures for variant .+$",),
}
IMPERATIVE = re.compile(r"(?i)\b(należy|prosimy|proszę|please|must|do not|nie wolno|never|nie pokazujcie|dodajcie|make sure|add|keep)\b")
POLISH = re.compile(r"[ąćęłńóśźż]|\b(nie|nigdy|zawsze|od teraz|wolę|dopóki|jeśli|bierzemy|czyli)\b", re.IGNORECASE)
CASUAL = ("nie, czekaj", "sorry", "poprawka", "wait", "my bad", "hold on", "no wait", "jednak", "a nie")


@lru_cache(maxsize=16)
def session(seed: int, messages: int) -> Session:
    """Sessions are read, never changed, so tests share them."""
    return gen_search.make_session(seed=seed, messages=messages)


def user_words(s: Session, i: int) -> str:
    """A user message without the documents pasted into it."""
    text = content(s, i)
    for k, pasted in s.pasted:
        if k == i:
            text = text.replace(pasted, "")
    return text


# --- the contract ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("messages", [59, 0])
def test_a_session_below_the_smallest_is_refused(messages: int) -> None:
    with pytest.raises(ValueError):
        gen_search.make_session(seed=1, messages=messages)


def test_the_smallest_session_is_made_whole() -> None:
    s = gen_search.make_session(seed=1, messages=gen_search.MIN_MESSAGES)
    assert len(s.messages) == gen_search.MIN_MESSAGES
    assert_counts(s, gen_search.KINDS, 1)


def test_the_global_random_state_does_not_leak_into_a_session() -> None:
    random.seed(1)
    a = gen_search.make_session(seed=4, messages=400)
    random.seed(99)
    b = gen_search.make_session(seed=4, messages=400)
    assert json.dumps(a.messages) == json.dumps(b.messages) and a.facts == b.facts and a.pasted == b.pasted


def test_same_seed_same_session_another_seed_another() -> None:
    a, b = gen_search.make_session(seed=2, messages=400), gen_search.make_session(seed=2, messages=400)
    assert json.dumps(a.messages) == json.dumps(b.messages) and a.facts == b.facts and a.pasted == b.pasted
    other = session(3, 400)
    assert json.dumps(a.messages) != json.dumps(other.messages) and a.facts != other.facts


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6, 7, 11])
def test_sizes_match_the_bench_conventions_for_any_seed(seed: int) -> None:
    small, large = session(seed, 400), session(seed, 3000)
    assert len(small.messages) == 400 and len(large.messages) == 3000
    assert 500_000 <= small.chars() <= 700_000
    assert 4_200_000 <= large.chars() <= 5_500_000


def test_generation_is_fast() -> None:
    start = time.perf_counter()
    gen_search.make_session(seed=11, messages=3000)
    assert time.perf_counter() - start < 3.0


@pytest.mark.parametrize("messages", [60, 61, 94, 121, 160, 239, 400, 401, 777, 1700, 3000])
def test_any_size_comes_out_exact(messages: int) -> None:
    s = session(1, messages)
    assert len(s.messages) == messages
    assert s.messages[-1]["role"] == "user" and s.messages[-2]["role"] == "assistant"
    assert not s.messages[-2].get("tool_calls")
    assert_counts(s, gen_search.KINDS, gen_search.per_kind(messages))
    assert all(0.03 * messages <= f.index <= 0.88 * messages for f in s.facts)


def test_every_size_from_the_smallest_up_builds_exactly() -> None:
    for messages in range(60, 200):
        s = gen_search.make_session(seed=messages % 7, messages=messages)
        assert len(s.messages) == messages
        assert_counts(s, gen_search.KINDS, gen_search.per_kind(messages))
        assert_chat_format(s, gen_search.TOOLS)


@pytest.mark.parametrize("messages", [121, 400, 401, 777, 1700])
def test_any_size_keeps_its_values_new_and_out_of_the_filler(messages: int) -> None:
    s = session(1, messages)
    assert_values_new(s, gen_search.per_kind)
    assert_out_of_filler(s, stale_reach=STALE_REACH)


@pytest.mark.parametrize("messages", [400, 3000])
@pytest.mark.parametrize("seed", [5, 8, 13])
def test_values_are_new_where_planted_and_absent_before(seed: int, messages: int) -> None:
    s = session(seed, messages)
    assert_values_new(s, gen_search.per_kind)
    assert_out_of_filler(s, stale_reach=STALE_REACH)


def test_six_of_each_kind_at_400_twelve_at_3000() -> None:
    assert_counts(session(5, 400), gen_search.KINDS, 6)
    assert_counts(session(5, 3000), gen_search.KINDS, 12)
    per_kind = gen_search.per_kind
    assert per_kind(400) == 6 and per_kind(3000) == 12 and per_kind(60) == 1
    sizes = [per_kind(m) for m in range(60, 6001, 20)]
    assert sizes == sorted(sizes) and min(sizes) >= 1 and 8 <= per_kind(1700) <= 10


def test_counts_keep_growing_beyond_3000() -> None:
    per_kind = gen_search.per_kind
    assert per_kind(3000) < per_kind(3500) < per_kind(4500) < per_kind(6000)
    s = gen_search.make_session(seed=3, messages=3500)
    assert_counts(s, gen_search.KINDS, per_kind(3500))
    assert_values_new(s, per_kind)
    assert_out_of_filler(s, stale_reach=STALE_REACH)


@pytest.mark.parametrize("messages", [60, 400, 3000])
def test_the_chat_is_well_formed_and_every_tool_is_called(messages: int) -> None:
    assert_chat_format(session(2, messages), gen_search.TOOLS)


@pytest.fixture(scope="module", params=[400, 3000])
def planted(request: pytest.FixtureRequest) -> Session:
    return session(5, request.param)


def test_carriers_and_placement(planted: Session) -> None:
    """Facts sit in the messages their kind comes from, over all three thirds."""
    s = planted
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
    thirds = Counter(min(2, f.index * 3 // n) for f in s.facts)
    assert min(thirds.values()) >= len(s.facts) // 6


def test_errors_are_whole_lines_and_some_are_resolved(planted: Session) -> None:
    s = planted
    errors = facts(s, "error")
    for fact in errors:
        assert fact.value in s.messages[fact.index]["content"].splitlines(), fact
        if fact.resolved is not None:
            later = s.messages[fact.resolved]
            assert fact.resolved > fact.index and later["role"] == "tool" and fact.value not in later["content"]
            assert later["name"] == s.messages[fact.index]["name"], fact
    assert 0 < sum(f.resolved is not None for f in errors) < len(errors)
    assert all(f.resolved is None for f in s.facts if f.kind != "error")


def test_errors_look_like_real_tool_output(planted: Session) -> None:
    """A cargo panic or rustc error, a Jest ● header or tsc error, a ClickHouse exception, a Python traceback's last
    line, a rewriter log line, an opensearch-py exception, a dashboard error: each with the rest of the run around it."""
    s = planted
    for fact in facts(s, "error"):
        tool = s.messages[fact.index]["name"]
        assert any(re.match(p, fact.value) for p in ERROR_SHAPES[tool]), (tool, fact.value)
        out = s.messages[fact.index]["content"]
        assert len(out.splitlines()) >= 3
    large = session(5, 3000)
    assert len({large.messages[f.index]["name"] for f in facts(large, "error")}) >= 4


def test_corrections_are_loose_near_misses_and_far(planted: Session) -> None:
    s = planted
    corrections = facts(s, "correction")
    close = far = 0
    for fact in corrections:
        assert fact.stale is not None and fact.stale_index is not None
        assert fact.stale not in fact.value and fact.value not in fact.stale
        same = sum(a == b for a, b in zip(fact.value, fact.stale))
        close += same >= len(fact.value) // 2
        far += fact.index - fact.stale_index > 100
        assert any(w in content(s, fact.index).lower() for w in CASUAL), content(s, fact.index)
        assert s.messages[fact.stale_index]["role"] == "user" and fact.stale in content(s, fact.stale_index)
    assert close >= len(corrections) // 2
    if len(s.messages) >= 3000:
        assert far >= 4


def test_corrections_come_in_both_languages_some_mid_message(planted: Session) -> None:
    s = planted
    texts = [content(s, f.index) for f in facts(s, "correction")]
    assert any(POLISH.search(t) for t in texts) and any(not POLISH.search(t) for t in texts)
    middle = [t for t in texts if len(t.split("\n\n")) >= 3]
    assert middle
    for t in middle:
        paragraphs = t.split("\n\n")
        fact = next(f for f in facts(s, "correction") if content(s, f.index) == t)
        assert fact.value not in paragraphs[0] and fact.value not in paragraphs[-1]


@pytest.mark.parametrize("messages", [121, 400, 3000])
def test_a_third_of_the_decisions_revise_the_users_own_earlier_choice(messages: int) -> None:
    s = session(5, messages)
    decisions = facts(s, "decision")
    revised = [f for f in decisions if f.stale is not None]
    assert len(revised) == max(1, len(decisions) // 3)
    for fact in revised:
        assert fact.stale is not None and fact.stale_index is not None and fact.stale_index < fact.index
        assert s.messages[fact.stale_index]["role"] == "user" and fact.stale in content(s, fact.stale_index)
    for fact in decisions:
        assert s.messages[fact.index]["role"] == "user" and fact.value in content(s, fact.index)


@pytest.mark.parametrize("messages", [121, 400, 3000])
@pytest.mark.parametrize("seed", [1, 9])
def test_the_first_two_rules_come_early_in_the_users_own_words(seed: int, messages: int) -> None:
    s = session(seed, messages)
    pasted_at = {i for i, _ in s.pasted}
    adopted = [f for f in facts(s, "instruction") if f.index in pasted_at]
    assert_first_rules_early(s, messages, adopted)


# --- the domain ----------------------------------------------------------------------------------------------------


def test_pasted_documents_are_listed_exactly_and_hold_others_imperatives(planted: Session) -> None:
    s = planted
    assert len(s.pasted) >= 3
    for i, text in s.pasted:
        assert s.messages[i]["role"] == "user" and text in content(s, i)
        assert content(s, i) != text, "the user says something around what they paste"
        assert IMPERATIVE.search(text), text[:200]
    assert len({text.splitlines()[0][:12] for _, text in s.pasted}) >= 2


def test_no_planted_value_comes_from_a_pasted_document(planted: Session) -> None:
    s = planted
    for fact in s.facts:
        for _, text in s.pasted:
            assert fact.value not in text, fact


def test_adopted_rules_are_restated_outside_the_pasted_text(planted: Session) -> None:
    s = planted
    pasted_at = dict(s.pasted)
    adopted = [f for f in facts(s, "instruction") if f.index in pasted_at]
    assert adopted
    for fact in adopted:
        assert fact.value in user_words(s, fact.index) and fact.value not in pasted_at[fact.index]


def test_rules_come_in_both_languages_and_every_style(planted: Session) -> None:
    """Polish and English rules; indirect ones, conditional ones, one in a second paragraph without a strong word,
    one adopted from a pasted document."""
    s = planted
    rules = facts(s, "instruction")
    words = [user_words(s, f.index) for f in rules]
    assert any(POLISH.search(w) for w in words) and any(not POLISH.search(w) for w in words)
    assert any(re.search(r"(?i)\b(u nas nie|my nie|we never)\b", w) for w in words)
    assert any(re.search(r"(?i)^(jeśli|dopóki|if)\b", w.strip()) for w in words)
    second = [(f, w) for f, w in zip(rules, words)
              if f.index not in dict(s.pasted) and "\n\n" in w.strip() and f.value in w.strip().split("\n\n", 1)[1]]
    assert second
    for _fact, w in second:
        assert not re.search(r"(?i)\b(nigdy|zawsze|never|always|must)\b", w.strip().split("\n\n", 1)[1])
    assert any(f.index in dict(s.pasted) for f in rules)


def test_plans_are_written_in_prose(planted: Session) -> None:
    s = planted
    for fact in facts(s, "plan"):
        text = content(s, fact.index)
        assert fact.value in text
        assert re.search(r"(?i)\b(najpierw|first)\b", text) and re.search(r"(?i)\b(potem|then)\b", text), text


def test_findings_are_explained_in_the_next_answer(planted: Session) -> None:
    s = planted
    for fact in facts(s, "finding"):
        following = s.messages[fact.index + 1]
        assert following["role"] == "assistant" and not following.get("tool_calls")
        assert fact.value in following["content"]


def test_files_are_written_by_one_edit_call(planted: Session) -> None:
    s = planted
    for fact in facts(s, "file"):
        (call,) = s.messages[fact.index]["tool_calls"]
        assert call["function"]["name"] == "edit_file"
        assert json.loads(call["function"]["arguments"])["path"] == fact.value
        answer = s.messages[fact.index + 1]
        assert answer["role"] == "tool" and answer["tool_call_id"] == call["id"] and answer["name"] == "edit_file"


def test_identifiers_are_both_said_and_printed(planted: Session) -> None:
    s = planted
    roles = Counter(s.messages[f.index]["role"] for f in facts(s, "identifier"))
    assert roles["user"] and roles["tool"]


def test_queries_differ_and_lack_their_value(planted: Session) -> None:
    s = planted
    queries = [f.query for f in s.facts]
    assert len(set(queries)) == len(queries)
    for fact in s.facts:
        assert fact.value not in fact.query and (fact.stale is None or fact.stale not in fact.query)


def test_values_are_unique_and_unrelated(planted: Session) -> None:
    s = planted
    values = [f.value for f in s.facts] + [f.stale for f in s.facts if f.stale]
    assert len(set(values)) == len(values)
    for a in values:
        assert not any(a in b for b in values if b != a), a


def test_tool_outputs_carry_most_characters(planted: Session) -> None:
    s = planted
    tool = sum(len(m["content"]) for m in s.messages if m["role"] == "tool")
    assert tool > 0.6 * s.chars()


def test_tool_results_answer_their_calls_with_the_same_name(planted: Session) -> None:
    s = planted
    for i, m in enumerate(s.messages):
        if m["role"] == "tool":
            assert call_of(s, i)["name"] == m["name"]
            assert m["name"] in gen_search.TOOLS


def test_the_filler_is_noisy_as_real_chats_are() -> None:
    """Clock times, file:line references, JSON fragments, thanks, ids that matter to nothing, double messages."""
    s = session(5, 3000)
    users = [content(s, i) for i, m in enumerate(s.messages) if m["role"] == "user"]
    joined = "\n".join(users)
    assert re.search(r"\bjest \d{1,2}:\d{2}\b|\bit's \d{1,2}:\d{2}\b", joined)
    assert re.search(r"\w+\.(rs|ts|tsx|py):\d+", joined)
    assert re.search(r"\{\"q\": \"", joined)
    assert re.search(r"(?i)\b(dzięki|thanks)\b", joined)
    assert re.search(r"SRCH-[12]\d{3}|trace id", joined)
    doubles = sum(1 for a, b in zip(s.messages, s.messages[1:]) if a["role"] == b["role"] == "user")
    assert doubles >= 3


def test_tool_outputs_look_like_the_stack() -> None:
    """Cargo test runs, Jest summaries, OpenSearch ?pretty JSON and _cat tables, ClickHouse tables, LightGBM logs."""
    s = session(5, 400)
    outputs = "\n".join(m["content"] for m in s.messages if m["role"] == "tool")
    assert "test result: ok." in outputs and "Tests:" in outputs and "Test Suites:" in outputs
    assert '"hits" : {' in outputs or '"tokens" : [' in outputs
    assert "┌─" in outputs and "rows in set. Elapsed:" in outputs
    assert "valid_0's ndcg@10:" in outputs
    assert "pl_morfologik" in outputs or "morfologik" in outputs


def test_failing_runs_say_so_like_cargo_and_jest_do() -> None:
    s = session(5, 3000)
    for fact in facts(s, "error"):
        out = s.messages[fact.index]["content"]
        if fact.value.startswith("thread '"):
            assert re.search(r"^test result: FAILED\. \d+ passed; 1 failed;", out, re.M)
        if fact.value.startswith("● "):
            assert re.search(r"^Tests: +1 failed, \d+ passed, \d+ total$", out, re.M)


def test_the_contract_holds_without_retries_for_common_seeds() -> None:
    """The generator checks its session before returning it and retries on a miss; the planting itself should not
    need that at the bench's sizes."""
    for seed in range(1, 7):
        for messages in (400, 3000):
            gen = gen_search._Facts(seed, messages, 0)
            assert gen.verify(gen.build()) is None, (seed, messages)


def test_texts_are_what_the_scorer_searches() -> None:
    """Planted values are found by text_of, which includes the raw tool-call arguments (a file's path)."""
    s = session(5, 400)
    for fact in s.facts:
        assert fact.value in text_of(s.messages[fact.index])
