"""What bench/gen_backend.py promises of its own domain (a payments backend in Kotlin/Spring Boot, a Polish-speaking
developer and a coding agent): pasted documents carry other people's imperatives and are listed, rules come in both
languages and the user's own words, corrections are loose, errors are whole lines of real-looking tools and resolved
errors are really gone in the rerun. The contract every generator keeps is in tests/test_generators_contract.py."""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from gen_backend import KINDS, MIN_MESSAGES, TOOLS, make_session, per_kind
from generator_contract import assert_chat_format, assert_first_rules_early, call_of, content, facts
from sessiongen import Session, text_of

POLISH = re.compile(r"[ąćęłńóśźż]|\b(nie|nigdy|dopóki|wolę|u nas|czyli|jednak|chodziło|pomyliłem|zasada|trzymamy|"
                    r"używamy|piszemy|ruszaj|kasujemy|lądują|bierzemy|przypinamy|idziemy|robimy)\b", re.IGNORECASE)
IMPERATIVES = ("Please", "Do not", "must", "Always", "Never", "Rotate", "Run with", "Confirm", "Keep")


@pytest.fixture(scope="module")
def s400() -> Session:
    return make_session(seed=5, messages=400)


@pytest.fixture(scope="module")
def s3000() -> Session:
    return make_session(seed=5, messages=3000)


def adopted(session: Session) -> list:
    """The rules the user took over from a document pasted in the same message."""
    pasted_at = {i for i, _ in session.pasted}
    return [f for f in facts(session, "instruction") if f.index in pasted_at]


@pytest.mark.parametrize("messages", [60, 61, 75, 99, 121, 400])
def test_every_tool_is_called_and_answered_at_every_size(messages: int) -> None:
    """Even the smallest session calls each of the agent's tools, each call answered at once."""
    assert_chat_format(make_session(seed=3, messages=messages), TOOLS)
    assert 7 <= len(TOOLS) <= 10 and MIN_MESSAGES == 60


def test_pasted_texts_hold_imperatives_numbers_and_no_planted_value(s3000: Session) -> None:
    """What the user pasted occurs verbatim in their message, says what others want done (with numbers and ids),
    and holds no planted rule or correction."""
    assert len(s3000.pasted) >= 10
    values = [f.value for f in s3000.facts] + [f.stale for f in s3000.facts if f.stale]
    for index, text in s3000.pasted:
        assert s3000.messages[index]["role"] == "user" and text in content(s3000, index)
        assert any(word in text for word in IMPERATIVES), text
        assert re.search(r"\d{2,}", text), text
        assert not any(v in text for v in values), text


def test_pasted_documents_are_of_every_kind(s3000: Session) -> None:
    """The PSP's change notice, a QA ticket, a post-incident review, an ADR, a build scan, a compliance mail."""
    marks = ("[Action required]", "Reporter:", "PIR-", "ADR-", "Build scan:", "(Compliance)")
    pasted = "\n".join(text for _, text in s3000.pasted)
    assert all(m in pasted for m in marks)


def test_adopted_rules_are_in_the_users_own_words(s400: Session, s3000: Session) -> None:
    """A rule taken over from a pasted document is restated outside the pasted text, which never says its value."""
    for session in (s400, s3000):
        taken = adopted(session)
        assert taken
        texts = dict(session.pasted)
        for fact in taken:
            own = content(session, fact.index).replace(texts[fact.index], "")
            assert fact.value in own and fact.value not in texts[fact.index]


@pytest.mark.parametrize("messages", [121, 160, 400, 777, 3000])
def test_the_first_two_rules_come_early_and_are_the_users_own(messages: int) -> None:
    session = make_session(seed=2, messages=messages)
    assert_first_rules_early(session, messages, adopted(session))


def test_rules_come_in_both_languages_in_a_second_paragraph(s400: Session, s3000: Session) -> None:
    """Rules are said in Polish and in English, after a first paragraph about something else."""
    for session in (s400, s3000):
        rules = facts(session, "instruction")
        langs = Counter(bool(POLISH.search(content(session, f.index).split("\n\n")[-2 if f in adopted(session) else 1]))
                        for f in rules)
        assert langs[True] and langs[False]
        for fact in rules:
            paragraphs = content(session, fact.index).split("\n\n")
            assert len(paragraphs) >= 2 and fact.value not in paragraphs[0], fact


def test_some_rule_holds_only_until_something_is_done(s400: Session) -> None:
    rules = [content(s400, f.index) for f in facts(s400, "instruction")]
    assert any("Dopóki" in text or "until" in text for text in rules)


def test_corrections_are_loose_and_in_both_languages(s3000: Session) -> None:
    """Corrections are said the way people say them ("nie X tylko Y", "no wait", "the other one"), in Polish and
    English, some in the middle of a longer message, and first said in a user message of its own."""
    loose = ("nie ", "sorry, chodziło", "pomyliłem", "podałem zły", "no wait", "wrong", "the other one", "scratch")
    corrections = facts(s3000, "correction")
    middles = 0
    for fact in corrections:
        text = content(s3000, fact.index)
        assert any(w in text for w in loose), text
        paragraphs = text.split("\n\n")
        middles += len(paragraphs) >= 3 and fact.value in paragraphs[1]
        assert s3000.messages[fact.stale_index]["role"] == "user"
    assert middles >= 1
    assert Counter(bool(POLISH.search(content(s3000, f.index))) for f in corrections).keys() == {True, False}


def test_a_revision_names_the_choice_it_replaces(s3000: Session) -> None:
    """A decision that revises an earlier one says both; the earlier one was the user's own "let's go with"."""
    for fact in facts(s3000, "decision"):
        if fact.stale is not None:
            assert fact.stale in content(s3000, fact.index)
            assert re.search(r"idziemy w|robimy|let's go with|it is", content(s3000, fact.stale_index))


ERROR_SHAPES = (r"^e: file:///\S+\.kt:\d+:\d+ Unresolved reference '\w+'\.$", r"^\w+Test > .+\(\) FAILED$",
                r"^\S+\.kt:\d+:\d+: The function \w+ is too long \(\d+\)\. .+\[LongMethod\]$",
                r'^ERROR:  duplicate key value violates unique constraint "\w+"$', r"^ERROR: Migration V\d+__\w+\.sql failed$",
                r"^\d{4}-\d\d-\d\dT[\d:.]+Z ERROR 1 --- \[.+\] \S+ : Listener failed; .+$",
                r"^Error: UPGRADE FAILED: release \S+ failed, .+$", r"^curl: \(7\) Failed to connect to \S+ port \d+ .+$")


def test_errors_are_whole_lines_of_real_looking_tools(s3000: Session) -> None:
    """An error is a whole line of a compiler, test runner, linter, psql, Flyway, a Spring log, Helm or curl, printed
    among many other lines."""
    for fact in facts(s3000, "error"):
        message = s3000.messages[fact.index]
        assert message["name"] in ("gradle", "psql", "kubectl", "shell")
        assert fact.value in message["content"].split("\n")
        assert any(re.match(shape, fact.value) for shape in ERROR_SHAPES), fact.value
    assert len({f.value.split(" ")[0] for f in facts(s3000, "error")}) >= 3


def test_resolved_errors_are_gone_in_the_same_command_rerun(s400: Session, s3000: Session) -> None:
    """A resolved error is followed by a fix and the very same command, whose output passes."""
    for session in (s400, s3000):
        for fact in facts(session, "error"):
            if fact.resolved is None:
                continue
            rerun = session.messages[fact.resolved]
            assert call_of(session, fact.resolved) == call_of(session, fact.index)
            assert fact.value not in rerun["content"]
            assert re.search(r"BUILD SUCCESSFUL|COMMIT|UP|has been upgraded|INFO", rerun["content"])
            between = [c["function"]["name"] for m in session.messages[fact.index:fact.resolved]
                       for c in m.get("tool_calls") or []]
            assert "edit_file" in between


def test_unresolved_errors_are_quoted_by_the_agent(s3000: Session) -> None:
    for fact in facts(s3000, "error"):
        if fact.resolved is None:
            answer = s3000.messages[fact.index + 1]
            assert answer["role"] == "assistant" and fact.value in answer["content"]


def test_findings_are_explained_in_the_next_answer(s3000: Session) -> None:
    """A finding sits within one line of a tool's output; the agent's next message says what it means."""
    for fact in facts(s3000, "finding"):
        answer = s3000.messages[fact.index + 1]
        assert answer["role"] == "assistant" and not answer.get("tool_calls")
        assert fact.value in answer["content"] and len(answer["content"]) > len(fact.value) + 20


def test_files_are_written_by_one_write_or_edit(s3000: Session) -> None:
    for fact in facts(s3000, "file"):
        (call,) = s3000.messages[fact.index]["tool_calls"]
        assert call["function"]["name"] in ("write_file", "edit_file")
        assert '"path": "' + fact.value + '"' in call["function"]["arguments"]
        assert fact.value in content(s3000, fact.index + 1)
    assert re.search(r"\.kt$|\.sql$|\.yaml$", facts(s3000, "file")[0].value)


def test_printed_identifiers_come_from_the_cluster_or_the_repository(s3000: Session) -> None:
    """An identifier the user did not say is printed by kubectl (a pod, a trace id) or git (a commit)."""
    printed = [f for f in facts(s3000, "identifier") if s3000.messages[f.index]["role"] == "tool"]
    said = [f for f in facts(s3000, "identifier") if s3000.messages[f.index]["role"] == "user"]
    assert printed and said
    assert {s3000.messages[f.index]["name"] for f in printed} <= {"kubectl", "git"}


def test_plans_are_prose_or_short_lists(s400: Session) -> None:
    for fact in facts(s400, "plan"):
        text = content(s400, fact.index)
        assert re.search(r"[Pp]lan", text) and (text.count("\n1. ") + text.count(", ") >= 2 or "\n2. " in text)


def test_tool_outputs_carry_most_of_the_characters(s400: Session) -> None:
    tools = sum(len(m["content"]) for m in s400.messages if m["role"] == "tool")
    assert tools > 0.7 * s400.chars()
    kinds = Counter(m["content"].split("\n", 1)[0][:12] for m in s400.messages if m["role"] == "tool")
    assert len(kinds) > 20


def test_the_filler_is_varied_and_noisy(s3000: Session) -> None:
    """Not one message repeated: many distinct user turns and answers, with clock times, Kotlin line references,
    JSON, ports, people's names, Spring stack traces and a todo list."""
    users = [content(s3000, i) for i, m in enumerate(s3000.messages) if m["role"] == "user"]
    answers = [content(s3000, i) for i, m in enumerate(s3000.messages) if m["role"] == "assistant" and m["content"]]
    assert len(set(users)) > 0.5 * len(users) and len(set(answers)) > 0.5 * len(answers)
    everything = "\n".join(text_of(m) for m in s3000.messages)
    for noise in (r"\b\d\d:\d\d\b", r"\w+\.kt:\d+", r'\{"event":', r"\b(5432|8081|9092)\b", r"\bMarta|Tomek|Kuba\b",
                  r"\tat pl\.example\.payments\.", r"\[x\] "):
        assert re.search(noise, everything), noise
    assert Counter(bool(POLISH.search(u)) for u in users).keys() == {True, False}


def test_more_facts_beyond_3000() -> None:
    """Beyond the bench's sizes the facts keep growing, and a long session still comes out whole."""
    assert per_kind(6000) > per_kind(3000) and per_kind(1700) == 9
    session = make_session(seed=1, messages=4500)
    assert len(session.messages) == 4500
    assert Counter(f.kind for f in session.facts) == {k: per_kind(4500) for k in KINDS}
