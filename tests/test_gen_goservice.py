"""bench/gen_goservice.py: the contract every session generator keeps (the checks of test_generators_contract.py, run
here for this module), and what its Go-microservice sessions promise of their own: pasted reviews, postmortems and
specs whose imperatives are not the user's, rules and corrections in Japanese and English, whole error lines that a
later run of the same command no longer prints, and the noise a compactor can trip over."""

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

import gen_goservice as gen
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
from sessiongen import Session, text_of

SIZES = [60, 121, 160, 400, 401, 777, 1700, 3000]
STALE_REACH = 12
JA = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


@pytest.fixture(scope="module")
def big() -> Session:
    return gen.make_session(seed=5, messages=3000)


@pytest.fixture(scope="module", params=[400, 3000], ids=lambda m: f"m{m}")
def planted(request: pytest.FixtureRequest) -> Session:
    return gen.make_session(seed=5, messages=request.param)


def adopted(session: Session) -> list:
    pasted_at = {i for i, _ in session.pasted}
    return [f for f in facts(session, "instruction") if f.index in pasted_at]


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
    small, large = gen.make_session(seed=seed, messages=400), gen.make_session(seed=seed, messages=3000)
    assert len(small.messages) == 400 and len(large.messages) == 3000
    assert 500_000 <= small.chars() <= 700_000
    assert 4_200_000 <= large.chars() <= 5_500_000


def test_generation_is_fast() -> None:
    start = time.perf_counter()
    gen.make_session(seed=11, messages=3000)
    assert time.perf_counter() - start < 3.0


@pytest.mark.parametrize("messages", SIZES + [61, 62, 63, 94, 239, 999])
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
    per_kind = gen.per_kind
    assert per_kind(400) == 6 and per_kind(3000) == 12 and per_kind(60) == 1
    sizes = [per_kind(m) for m in range(60, 6001, 20)]
    assert sizes == sorted(sizes) and min(sizes) >= 1 and 8 <= per_kind(1700) <= 10


@pytest.mark.parametrize("messages", [400, 3000])
@pytest.mark.parametrize("seed", [5, 8, 13])
def test_values_are_new_where_planted_and_absent_before(seed: int, messages: int) -> None:
    session = gen.make_session(seed=seed, messages=messages)
    assert_values_new(session, gen.per_kind)
    assert_out_of_filler(session, stale_reach=STALE_REACH)


ROLES = {"instruction": {"user"}, "correction": {"user"}, "decision": {"user"}, "plan": {"user"},
         "file": {"assistant"}, "finding": {"tool"}, "error": {"tool"}, "identifier": {"tool", "user"}}


def test_carriers_and_placement(planted: Session) -> None:
    session = planted
    n = len(session.messages)
    for fact in session.facts:
        message = session.messages[fact.index]
        assert message["role"] in ROLES[fact.kind], fact
        if fact.stale_index is not None:
            assert fact.stale_index >= 0.03 * n and session.messages[fact.stale_index]["role"] == "user", fact
        if fact.kind == "file":
            calls = message["tool_calls"]
            assert len(calls) == 1 and fact.value in calls[0]["function"]["arguments"], fact
        if fact.kind in ("error", "finding"):
            assert any(fact.value in line for line in message["content"].splitlines()), fact
    carriers = Counter(session.messages[f.index]["role"] for f in session.facts if f.kind == "identifier")
    assert carriers["tool"] and carriers["user"]
    thirds = Counter(min(2, f.index * 3 // n) for f in session.facts)
    assert min(thirds.values()) >= len(session.facts) // 6


def test_errors_are_exact_lines_and_some_are_resolved(planted: Session) -> None:
    session = planted
    errors = facts(session, "error")
    for fact in errors:
        assert fact.value in session.messages[fact.index]["content"].splitlines(), fact
        if fact.resolved is not None:
            later = session.messages[fact.resolved]
            assert fact.resolved > fact.index and later["role"] == "tool" and fact.value not in later["content"]
            assert later["name"] == session.messages[fact.index]["name"], fact
    assert 0 < sum(f.resolved is not None for f in errors) < len(errors)
    assert all(f.resolved is None for f in session.facts if f.kind != "error")


def test_corrections_are_loose_and_near_misses(big: Session) -> None:
    corrections = facts(big, "correction")
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


@pytest.mark.parametrize("messages", [121, 160, 400, 777, 3000])
def test_the_first_two_rules_come_early_and_are_the_users_own(messages: int) -> None:
    session = gen.make_session(seed=3, messages=messages)
    assert_first_rules_early(session, messages, adopted(session))


# --- the domain's own promises --------------------------------------------------------------------------------------

def test_pasted_texts_are_verbatim_in_user_messages_and_hold_foreign_imperatives(big: Session) -> None:
    """Everything pasted is listed with the user message that holds it, and carries imperatives and numbers that are
    the sender's (a reviewer, an SRE, the payment partner, the PM, a scanner, the on-call channel)."""
    assert len(big.pasted) >= 10
    for i, text in big.pasted:
        assert big.messages[i]["role"] == "user" and text in content(big, i)
        assert re.search(r"\b(Please|please|Do not|don't|Use)\b", text), text
        assert re.search(r"\d", text)
    kinds = {"review": r"\[review\]", "postmortem": "Postmortem:", "spec": "PayNest Merchant API",
             "ticket": "Acceptance criteria", "scanner": "Vulnerability|CRITICAL", "slack": "@here"}
    found = {k for k, pattern in kinds.items() for _, text in big.pasted if re.search(pattern, text)}
    assert found == set(kinds)


def test_no_planted_value_hides_inside_pasted_text(big: Session) -> None:
    """Pasted text is never a planted rule or correction: no fact value (or stale value) lies inside it."""
    for _, text in big.pasted:
        for fact in big.facts:
            assert fact.value not in text and (fact.stale is None or fact.stale not in text), fact


def test_some_rules_are_adopted_from_a_pasted_document_in_the_users_words(big: Session) -> None:
    """The user restates a pasted review or postmortem as their own rule, outside the pasted part."""
    adopted_rules = adopted(big)
    assert adopted_rules
    for fact in adopted_rules:
        pasted = [t for i, t in big.pasted if i == fact.index]
        outside = content(big, fact.index)
        for t in pasted:
            outside = outside.replace(t, "")
        assert fact.value in outside


def test_rules_come_in_both_languages_and_some_with_a_condition(big: Session) -> None:
    rules = [content(big, f.index) for f in facts(big, "instruction")]
    assert any(JA.search(t) for t in rules) and any(not JA.search(t.split("\n\n")[-1]) for t in rules)
    assert any("until" in t or "まで" in t for t in rules)
    second = [f for f in facts(big, "instruction") if f.value not in content(big, f.index).split("\n\n")[0]]
    assert second, "no rule sits in a later paragraph"


def test_rules_are_written_indirectly() -> None:
    """Rules read the way people write them: house rules, "we never", 触らないで, 絶対に, うちでは, I'd-rather style."""
    texts = " ".join(content(s, f.index) for seed in (1, 2, 3) for s in [gen.make_session(seed=seed, messages=3000)]
                     for f in facts(s, "instruction"))
    markers = ["house rule", "we never", "触らないで", "絶対に", "うちでは", "方がいい", "until"]
    assert sum(m in texts for m in markers) >= 5


def test_corrections_come_in_both_languages_and_loosely(big: Session) -> None:
    texts = [content(big, f.index) for f in facts(big, "correction")]
    loose = ("no wait", "the other one", "wrong", "いや違う", "訂正", "ちょっと待って", "間違え", "古い方")
    assert all(any(m in t for m in loose) for t in texts)
    assert any(JA.search(t) for t in texts) and any(not JA.search(t) for t in texts)
    assert any(len(t) > 120 and not t.startswith(tuple(loose)) for t in texts), "no correction mid-message"


def test_stale_values_are_said_by_the_user_first(big: Session) -> None:
    for fact in facts(big, "correction"):
        assert fact.stale is not None and fact.stale_index is not None
        assert fact.stale in content(big, fact.stale_index)
        assert fact.value not in content(big, fact.stale_index)


def test_errors_look_like_go_tooling(big: Session) -> None:
    """Each error line is what a real tool prints: a compiler position, a test verdict or panic, a gRPC status, a
    Postgres error or a linter finding."""
    shapes = re.compile(r"^(\./internal/\S+\.go:\d+:\d+: |--- FAIL: Test\w+ \(\d+\.\d+s\)$|panic: runtime error: |"
                        r"rpc error: code = \w+ desc = |ERROR:  |internal/\S+\.go:\d+:\d+: .*\(\w+\)$)")
    for fact in facts(big, "error"):
        assert shapes.match(fact.value), fact.value
        assert big.messages[fact.index]["name"] in gen.TOOLS


def test_a_resolved_error_is_the_same_command_passing(big: Session) -> None:
    for fact in facts(big, "error"):
        if fact.resolved is None:
            continue
        assert call_of(big, fact.resolved)["arguments"] == call_of(big, fact.index)["arguments"]
        assert "FAIL" not in content(big, fact.resolved).split("\n")[-1]


def test_files_are_written_once_and_echoed_by_the_tool(big: Session) -> None:
    for fact in facts(big, "file"):
        call = big.messages[fact.index]["tool_calls"][0]["function"]
        assert call["name"] in ("write_file", "edit_file")
        assert json.loads(call["arguments"])["path"] == fact.value
        assert fact.value in content(big, fact.index + 1)
        assert re.search(r"\.(go|sql|yaml|proto)$", fact.value)


def test_identifiers_are_said_and_printed(big: Session) -> None:
    said = [f for f in facts(big, "identifier") if big.messages[f.index]["role"] == "user"]
    printed = [f for f in facts(big, "identifier") if big.messages[f.index]["role"] == "tool"]
    assert said and printed
    for fact in printed:
        assert big.messages[fact.index]["name"] in ("kubectl", "git", "grpcurl")


def test_findings_are_explained_in_the_next_answer(big: Session) -> None:
    for fact in facts(big, "finding"):
        nxt = big.messages[fact.index + 1]
        assert nxt["role"] == "assistant" and not nxt.get("tool_calls") and fact.value in nxt["content"]
        assert len(nxt["content"]) > len(fact.value) + 40


def test_plans_are_written_in_prose(big: Session) -> None:
    for fact in facts(big, "plan"):
        text = content(big, fact.index)
        assert len(text) > 60
        assert re.search(r"(1[.)]|まず|first|then|それから|最後に|手順)", text)


def test_values_return_only_in_the_few_messages_after_them(big: Session) -> None:
    texts = [text_of(m) for m in big.messages]
    for fact in big.facts:
        later = [i for i in range(fact.index + 1, len(texts)) if fact.value in texts[i]]
        assert all(i <= fact.index + AFTER_VALUE for i in later)


def test_the_user_writes_japanese_and_english_casually(big: Session) -> None:
    users = [str(m["content"]) for m in big.messages if m["role"] == "user"]
    assert sum(bool(JA.search(u)) for u in users) > len(users) // 4
    assert sum(not JA.search(u) for u in users) > len(users) // 5
    joined = "\n".join(users)
    assert all(w in joined for w in ("了解", "おk", "ちょっと待って"))
    assert sum(len(u) <= 6 for u in users) > 20, "no curt replies"


def test_noise_a_compactor_can_trip_over(big: Session) -> None:
    """Clock times, file:line references, JSON logs, tables, port-like numbers, people and the agent's todo list."""
    text = "\n".join(text_of(m) for m in big.messages)
    assert re.search(r"\b\d{2}:\d{2}\b", text)
    assert re.search(r"\w+\.go:\d+", text)
    assert '{"level":"' in text and "-----------+" in text
    assert re.search(r":(9090|8080|6060)\b", text)
    assert "佐藤" in text and "Tanaka" in text or "田中" in text
    assistants = [str(m.get("content") or "") for m in big.messages if m["role"] == "assistant"]
    assert any("- [x]" in a and "- [ ]" in a for a in assistants)


def test_most_characters_are_varied_tool_output(big: Session) -> None:
    tool_chars = sum(len(text_of(m)) for m in big.messages if m["role"] == "tool")
    assert tool_chars > 0.7 * big.chars()
    outputs = [str(m["content"]) for m in big.messages if m["role"] == "tool"]
    assert len(set(outputs)) > 0.95 * len(outputs)
    assert Counter(m["name"] for m in big.messages if m["role"] == "tool").most_common()[-1][1] >= 20


def test_every_tool_is_called_even_in_the_shortest_sessions() -> None:
    for seed in range(1, 16):
        for messages in (60, 61, 67, 80, 99):
            session = gen.make_session(seed=seed, messages=messages)
            used = {c["function"]["name"] for m in session.messages for c in m.get("tool_calls") or []}
            assert used == set(gen.TOOLS), (seed, messages)


def test_tool_call_ids_are_unique(big: Session) -> None:
    ids = [c["id"] for m in big.messages for c in m.get("tool_calls") or []]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("messages", [4500, 6000])
def test_longer_sessions_keep_growing(messages: int) -> None:
    """Beyond 3000 messages the facts keep growing linearly and everything still holds."""
    session = gen.make_session(seed=2, messages=messages)
    assert len(session.messages) == messages
    assert_counts(session, gen.KINDS, gen.per_kind(messages))
    assert gen.per_kind(messages) > 12
    assert_values_new(session, gen.per_kind)
    assert_out_of_filler(session, stale_reach=STALE_REACH)


def test_many_seeds_and_odd_sizes_keep_the_contract() -> None:
    rng = random.Random(7)
    for _ in range(25):
        seed, messages = rng.randint(1, 10_000), rng.randint(120, 900)
        session = gen.make_session(seed=seed, messages=messages)
        assert len(session.messages) == messages
        assert_counts(session, gen.KINDS, gen.per_kind(messages))
        assert_values_new(session, gen.per_kind)
        assert_out_of_filler(session, stale_reach=STALE_REACH)
        assert_chat_format(session, gen.TOOLS)
