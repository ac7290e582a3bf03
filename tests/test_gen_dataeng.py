"""What bench/gen_dataeng.py promises of its own domain (a data engineer in Rotterdam and a coding agent on dbt,
Airflow, Snowflake, Kafka and Looker): pasted documents carry imperatives that are not the user's, rules and
corrections come loosely and in Dutch as well as English, errors are whole lines of real-looking tool output and
resolved ones are really gone from the later run. The contract all generators share is checked in
test_generators_contract.py."""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from generator_contract import assert_first_rules_early, call_of, content, facts
from sessiongen import Session, text_of

import gen_dataeng

DUTCH = re.compile(r"\b(niet|nooit|liever|we doen hier|voor ons|tot|dus|klopt|wacht|sorry, het was|ik zat ernaast|"
                   r"doe maar|gaan voor|laten we|even|staat|komt uit|mag|alleen)\b")
IMPERATIVE = re.compile(r"\b(Please|Do not|MUST NOT|Never|please don't|Run `)\b|please don't|Do not")


@pytest.fixture(scope="module")
def s400() -> Session:
    return gen_dataeng.make_session(seed=5, messages=400)


@pytest.fixture(scope="module")
def s3000() -> Session:
    return gen_dataeng.make_session(seed=5, messages=3000)


def pasted_at(session: Session, i: int) -> list[str]:
    return [text for j, text in session.pasted if j == i]


def outside_pastes(session: Session, i: int) -> str:
    text = content(session, i)
    for pasted in pasted_at(session, i):
        text = text.replace(pasted, "")
    return text


def test_pasted_texts_are_in_their_user_messages_with_imperatives_numbers_and_ids(s400: Session) -> None:
    """Everything pasted is listed with the exact text of its user message, and every paste holds someone else's
    imperative and numbers."""
    assert s400.pasted
    for i, text in s400.pasted:
        assert s400.messages[i]["role"] == "user" and text in content(s400, i)
        assert IMPERATIVE.search(text), text
        assert re.search(r"\d", text), text


def test_all_six_kinds_of_document_are_pasted(s400: Session) -> None:
    """The data contract, the planners' Slack thread, a postmortem, a vendor's SLA mail, a CI dbt run and the
    security officer's PII note all come up in a 400-message session."""
    joined = "\n".join(text for _, text in s400.pasted)
    for marker in ("DATA CONTRACT", "(planning):", "Postmortem PM-", "Subject: RE: Case #", "CI / dbt-build",
                   "(Security Officer)"):
        assert marker in joined, marker


def test_no_planted_rule_or_correction_sits_inside_a_paste(s3000: Session) -> None:
    """Pasted imperatives are not the user's: no instruction, correction, decision or plan value is in pasted text."""
    joined = "\n".join(text for _, text in s3000.pasted)
    for fact in s3000.facts:
        if fact.kind in ("instruction", "correction", "decision", "plan"):
            assert fact.value not in joined, fact
            assert fact.stale is None or fact.stale not in joined, fact


def test_some_rules_are_adopted_from_a_paste_in_the_users_own_words(s3000: Session) -> None:
    """A few later rules restate a pasted document: the paste is in the rule's message, the value outside it."""
    adopted = [f for f in facts(s3000, "instruction") if pasted_at(s3000, f.index)]
    assert len(adopted) >= 2
    for fact in adopted:
        assert fact.value in outside_pastes(s3000, fact.index)
    assert_first_rules_early(s3000, 3000, adopted)


@pytest.mark.parametrize("messages", [121, 400, 777, 3000])
def test_the_first_two_rules_come_early_at_any_size(messages: int) -> None:
    session = gen_dataeng.make_session(seed=2, messages=messages)
    adopted = [f for f in facts(session, "instruction") if pasted_at(session, f.index)]
    assert_first_rules_early(session, messages, adopted)


def test_rules_come_in_dutch_and_english_some_conditional_some_in_a_second_paragraph(s3000: Session) -> None:
    rules = [outside_pastes(s3000, f.index) for f in facts(s3000, "instruction")]
    dutch = [r for r in rules if DUTCH.search(r)]
    assert dutch and len(dutch) < len(rules)
    assert any(re.search(r"\b(Until|tot)\b", r) for r in rules)
    second = [r for r, f in zip(rules, facts(s3000, "instruction")) if f.value in r.split("\n\n", 1)[-1]
              and "\n\n" in r.strip()]
    assert second


def test_rules_are_written_indirectly(s3000: Session) -> None:
    """Rules read like people write them ("we never", "I'd rather", "house rule", "liever", "nooit"), not as
    commands starting with Always/Never."""
    rules = [outside_pastes(s3000, f.index) for f in facts(s3000, "instruction")]
    assert not any(r.startswith(("Always", "Never")) for r in rules)
    indirect = ("we never", "I'd rather", "House rule", "liever", "nooit", "we doen hier", "Until", "tot ", "rule",
                "Lesson", "voor ons", "never", "btw", "o en nog", "My take", "Wat ik eruit haal")
    assert all(any(word in r for word in indirect) for r in rules)


def test_corrections_are_loose_and_in_both_languages(s3000: Session) -> None:
    texts = [content(s3000, f.index) for f in facts(s3000, "correction")]
    loose = ("nee wacht", "wrong one", "ik zat ernaast", "the other one", "nee sorry", "typo")
    assert all(any(x in t for x in loose) for t in texts)
    assert any(DUTCH.search(t) for t in texts) and any(not DUTCH.search(t) for t in texts)
    assert any(len(t) > 200 for t in texts)  # some in the middle of a longer message


def test_a_corrections_old_value_was_the_users_own_and_near_misses_differ_in_digits(s3000: Session) -> None:
    near = 0
    for fact in facts(s3000, "correction"):
        assert fact.stale is not None and fact.stale_index is not None
        assert s3000.messages[fact.stale_index]["role"] == "user"
        assert fact.stale in content(s3000, fact.stale_index)
        if len(fact.stale) == len(fact.value) and all(a == b or (a.isdigit() and b.isdigit())
                                                      for a, b in zip(fact.stale, fact.value)):
            near += 1
    assert near >= len(facts(s3000, "correction")) // 2


@pytest.mark.parametrize("messages", [60, 121, 400, 3000])
def test_a_third_of_the_decisions_revise_the_users_own_choice(messages: int) -> None:
    session = gen_dataeng.make_session(seed=3, messages=messages)
    decisions = facts(session, "decision")
    revised = [f for f in decisions if f.stale is not None]
    assert len(revised) == max(1, len(decisions) // 3)
    for fact in revised:
        assert fact.stale_index is not None and session.messages[fact.stale_index]["role"] == "user"
        assert fact.stale in content(session, fact.stale_index) and fact.value in content(session, fact.index)


ERROR_SHAPES = {
    "snowsql": r"^\d{6} \(\w{5}\): .+",
    "dbt": r"^(\d\d:\d\d:\d\d  \d+ of \d+ FAIL \d+ \w+ \.+ \[FAIL in [\d.]+s\]|\d{6} \(\w{5}\): SQL compilation error: .+)$",
    "airflow": r"^airflow\.exceptions\.\w+: .+",
    "shell": r"^(FAILED tests/\S+ - AssertionError: .+|org\.apache\.kafka\.\S+: .+|expect_\w+\(column='\w+'\) failed: .+"
             r"|pandas\.errors\.\w+: .+|Error: \d{6} \(\w{5}\): .+)$",
}


def test_errors_are_whole_lines_shaped_like_their_tools_output(s3000: Session) -> None:
    for fact in facts(s3000, "error"):
        message = s3000.messages[fact.index]
        assert fact.value in message["content"].splitlines()
        assert re.match(ERROR_SHAPES[message["name"]], fact.value), fact


def test_resolved_errors_rerun_the_same_command_and_the_line_is_gone(s3000: Session) -> None:
    errors = facts(s3000, "error")
    resolved = [f for f in errors if f.resolved is not None]
    assert resolved and len(resolved) < len(errors)
    for fact in resolved:
        assert fact.resolved is not None
        before, after = call_of(s3000, fact.index), call_of(s3000, fact.resolved)
        assert before == {**after, "arguments": before["arguments"]} and before["arguments"] == after["arguments"]
        later = content(s3000, fact.resolved)
        assert fact.value not in later and "FAILED" not in later and "Traceback" not in later


def test_a_planted_file_is_written_by_its_one_call_and_confirmed(s3000: Session) -> None:
    for fact in facts(s3000, "file"):
        (call,) = s3000.messages[fact.index]["tool_calls"]
        assert call["function"]["name"] in ("write_file", "edit_file")
        assert json.loads(call["function"]["arguments"])["path"] == fact.value
        reply = s3000.messages[fact.index + 1]
        assert reply["role"] == "tool" and fact.value in reply["content"]


def test_a_finding_is_explained_in_the_next_assistant_message(s3000: Session) -> None:
    for fact in facts(s3000, "finding"):
        nxt = next(i for i in range(fact.index + 1, len(s3000.messages)) if s3000.messages[i]["role"] == "assistant")
        assert nxt - fact.index <= 8
        assert fact.value in content(s3000, nxt) and "That means" in content(s3000, nxt)


def test_identifiers_are_said_by_the_user_and_printed_by_tools(s400: Session, s3000: Session) -> None:
    for session in (s400, s3000):
        roles = Counter(session.messages[f.index]["role"] for f in facts(session, "identifier"))
        assert roles["user"] and roles["tool"]
        for fact in facts(session, "identifier"):
            if session.messages[fact.index]["role"] == "tool":
                assert session.messages[fact.index]["name"] in ("snowsql", "dbt")


def test_plans_are_written_in_prose(s3000: Session) -> None:
    for fact in facts(s3000, "plan"):
        text = content(s3000, fact.index)
        steps = len(re.findall(r"\b(then|dan|daarna|eerst|first|en pas|and only then|\n\d\.)", text, re.I))
        assert len(text) > 100 and steps >= 2, text


def test_queries_are_distinct_and_never_give_the_value_away(s3000: Session) -> None:
    queries = [f.query for f in s3000.facts]
    assert len(set(queries)) == len(queries)
    assert all(q.endswith("?") and f.value not in q and (f.stale is None or f.stale not in q)
               for q, f in zip(queries, s3000.facts))


def test_the_user_writes_whole_messages_in_dutch_and_in_english_and_short_replies(s3000: Session) -> None:
    users = [content(s3000, i) for i, m in enumerate(s3000.messages) if m["role"] == "user"]
    dutch = sum(bool(DUTCH.search(u)) for u in users)
    assert 0.2 * len(users) < dutch < 0.8 * len(users)
    assert sum(len(u) < 25 for u in users) >= 0.1 * len(users)


def test_the_noise_a_compactor_can_get_wrong_is_there(s3000: Session) -> None:
    """Clock times, file:line references, JSON fragments, ASCII tables, port-like numbers, people's names and the
    agent's todo list."""
    text = "\n".join(text_of(m) for m in s3000.messages)
    assert re.search(r"\b\d\d:\d\d\b", text)
    assert re.search(r"\w+\.py:\d+", text)
    assert '{"model": ' in text and "+----" in text
    assert re.search(r"\bport (5432|8080|9092|8793|6379)\b", text)
    assert all(name in text for name in ("Sanne", "Joost", "Priya"))
    assert "- [ ]" in text and "- [x]" in text


def test_tool_output_is_most_of_the_session_and_looks_like_each_tool(s3000: Session) -> None:
    tools = [m for m in s3000.messages if m["role"] == "tool"]
    assert sum(len(m["content"]) for m in tools) > 0.7 * s3000.chars()
    marks = {"dbt": "Running with dbt=", "snowsql": "Row(s) produced", "airflow": "{taskinstance.py",
             "git": "", "read_file": "", "write_file": "Wrote ", "edit_file": "Edited ", "shell": ""}
    for name, mark in marks.items():
        outs = [m["content"] for m in tools if m["name"] == name]
        assert outs and (not mark or sum(mark in o for o in outs) >= len(outs) // 2), name
    sizes = [len(m["content"]) for m in tools]
    assert min(sizes) < 200 and max(sizes) > 8000  # short confirmations and long logs


@pytest.mark.parametrize("messages", [4000, 6000])
def test_sessions_beyond_3000_keep_growing_and_keep_their_promises(messages: int) -> None:
    session = gen_dataeng.make_session(seed=1, messages=messages)
    assert len(session.messages) == messages
    assert gen_dataeng.per_kind(messages) > gen_dataeng.per_kind(3000)
    assert Counter(f.kind for f in session.facts) == {k: gen_dataeng.per_kind(messages) for k in gen_dataeng.KINDS}
    assert len({f.value for f in session.facts}) == len(session.facts)


def test_below_the_smallest_session_is_refused() -> None:
    with pytest.raises(ValueError):
        gen_dataeng.make_session(seed=1, messages=gen_dataeng.MIN_MESSAGES - 1)
