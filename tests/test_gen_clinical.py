"""What bench/gen_clinical.py promises of its own domain (the shared contract is in test_generators_contract.py):
pasted documents hold someone else's imperatives and are listed, the user's rules come in Italian and English and
some are adopted from a paste in the user's own words, corrections are loose, errors are whole lines of the tools'
output and resolved ones are really gone in the later run of the same command, and the session reads like a
clinical data manager working with an analytics agent."""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import gen_clinical
from generator_contract import assert_first_rules_early, call_of, content, facts
from gen_clinical import KINDS, MIN_MESSAGES, TOOLS, make_session, per_kind
from sessiongen import Session, text_of

ITALIAN = re.compile(r"\b(mai|non|sempre|finché|regola|niente|nessuna|quindi|scusa|sbagliata|giusto|il|della|"
                     r"lascia|perdere|era|segnatelo|andiamo|con|per)\b", re.IGNORECASE)
ENGLISH = re.compile(r"\b(we|never|rather|until|the|please|from now on|wait|wrong|other one|sorry|is|let's)\b",
                     re.IGNORECASE)
IMPERATIVE = re.compile(r"\b(Please|Do not|Non è consentito|Si richiede|Si prega)\b")


@pytest.fixture(scope="module")
def big() -> Session:
    return make_session(seed=5, messages=3000)


@pytest.fixture(scope="module")
def small() -> Session:
    return make_session(seed=3, messages=400)


def adopted(session: Session) -> list[object]:
    """Rules the user adopted from a document pasted in the same message."""
    pasted_at = {i for i, _ in session.pasted}
    return [f for f in facts(session, "instruction") if f.index in pasted_at]


def test_the_smallest_session_is_made_whole_and_smaller_ones_refused() -> None:
    with pytest.raises(ValueError):
        make_session(seed=1, messages=MIN_MESSAGES - 1)
    session = make_session(seed=1, messages=MIN_MESSAGES)
    assert len(session.messages) == MIN_MESSAGES
    assert Counter(f.kind for f in session.facts) == {k: 1 for k in KINDS}


def test_longer_sessions_than_the_bench_grows_their_facts() -> None:
    assert per_kind(6000) > per_kind(3000) == 12
    session = make_session(seed=2, messages=4000)
    assert len(session.messages) == 4000
    assert Counter(f.kind for f in session.facts) == {k: per_kind(4000) for k in KINDS}


def test_pasted_texts_are_user_messages_with_someone_elses_imperatives(big: Session) -> None:
    assert len(big.pasted) >= 6
    for i, text in big.pasted:
        assert big.messages[i]["role"] == "user" and text in content(big, i)
        assert IMPERATIVE.search(text), text
        assert re.search(r"\d", text), text


def test_every_kind_of_document_gets_pasted(big: Session) -> None:
    """The ethics letter, the SAP, the monitor's queries, the DPO's mail, the partner's SAS log and a review."""
    texts = "\n".join(t for _, t in big.pasted)
    for marker in ("Comitato Etico", "Statistical analysis", "DQ-", "Protezione Dati", "NOTE: The data set",
                   "Review of MR"):
        assert marker in texts, marker


def test_no_planted_value_hides_in_a_pasted_text(big: Session, small: Session) -> None:
    for session in (big, small):
        for fact in session.facts:
            for _, text in session.pasted:
                assert fact.value not in text, fact
                assert fact.stale is None or fact.stale not in text, fact


def test_adopted_rules_are_restated_outside_the_paste(big: Session) -> None:
    rules = adopted(big)
    assert rules
    for fact in rules:
        pasted = dict(big.pasted)[fact.index]
        rest = content(big, fact.index).replace(pasted, "")
        assert fact.value in rest and fact.value not in pasted


@pytest.mark.parametrize(("seed", "messages"), [(1, 400), (2, 400), (7, 400), (5, 3000)])
def test_the_first_two_rules_come_early_and_are_the_users_own(seed: int, messages: int) -> None:
    session = make_session(seed=seed, messages=messages)
    assert_first_rules_early(session, messages, adopted(session))


def test_rules_come_in_italian_and_english_some_with_a_condition(big: Session) -> None:
    rules = facts(big, "instruction")
    said = [content(big, f.index) for f in rules]
    lines = [next(line for line in text.splitlines() if f.value in line) for f, text in zip(rules, said)]
    assert any(ITALIAN.search(line) and not re.search(r"\b(we|the)\b", line) for line in lines)
    assert any(ENGLISH.search(line) and not ITALIAN.search(line) for line in lines)
    assert any(re.search(r"\b(until|finché)\b", line) for line in lines)


def test_some_rules_sit_in_a_second_paragraph(big: Session) -> None:
    later = [f for f in facts(big, "instruction") if f.value not in content(big, f.index).split("\n\n")[0]]
    assert len(later) >= 3


def test_corrections_are_loose_in_both_languages(big: Session) -> None:
    markers = ("no wait", "the other one", "wrong one", "no scusa", "mi sono sbagliata", "non ", "lascia perdere")
    found = Counter()
    for fact in facts(big, "correction"):
        said = content(big, fact.index)
        hits = [m for m in markers if m in said]
        assert hits, said
        found.update(hits)
    assert sum(found[m] for m in ("no wait", "the other one", "wrong one")) >= 1
    assert sum(found[m] for m in ("no scusa", "mi sono sbagliata", "lascia perdere", "non ")) >= 1


def test_corrections_are_near_misses_and_some_far_from_what_they_replace(big: Session) -> None:
    corrections = facts(big, "correction")
    close = [f for f in corrections if sum(a == b for a, b in zip(f.value, f.stale or "")) >= len(f.value) // 2]
    assert len(close) >= len(corrections) // 2
    assert sum(f.index - (f.stale_index or 0) > 100 for f in corrections) >= 4
    assert any(f.index - (f.stale_index or 0) < 60 for f in corrections)


def test_some_corrections_are_buried_in_a_long_message(big: Session) -> None:
    buried = [f for f in facts(big, "correction") if len(content(big, f.index).split("\n\n")) >= 3]
    assert buried and all(f.value not in content(big, f.index).split("\n\n")[0] for f in buried)


def test_the_stale_value_is_the_users_own_earlier_words(big: Session) -> None:
    for fact in facts(big, "correction") + [f for f in facts(big, "decision") if f.stale]:
        assert fact.stale_index is not None and big.messages[fact.stale_index]["role"] == "user"
        assert fact.stale in content(big, fact.stale_index)
        assert all(i != fact.stale_index for i, _ in big.pasted)


def test_a_third_of_the_decisions_revise_an_earlier_choice(small: Session, big: Session) -> None:
    for session in (small, big):
        decisions = facts(session, "decision")
        assert len([f for f in decisions if f.stale]) == max(1, len(decisions) // 3)


def test_errors_are_whole_lines_from_real_looking_tools(big: Session) -> None:
    looks = re.compile(r"error|Error|ERROR|Failure|Invalid|must be size|matches multiple rows")
    for fact in facts(big, "error"):
        message = big.messages[fact.index]
        assert fact.value in message["content"].splitlines() and message["name"] in TOOLS
        assert looks.search(fact.value), fact.value


def test_resolved_errors_are_gone_in_a_rerun_of_the_same_command(big: Session) -> None:
    errors = facts(big, "error")
    resolved = [f for f in errors if f.resolved is not None]
    assert 0 < len(resolved) < len(errors)
    for fact in resolved:
        assert fact.resolved is not None
        before, after = call_of(big, fact.index), call_of(big, fact.resolved)
        assert before == after
        assert fact.value not in content(big, fact.resolved)
        assert not any(line in content(big, fact.resolved) for line in content(big, fact.index).splitlines()
                       if "rror" in line)


def test_the_agent_quotes_an_error_and_explains_a_finding_right_after(big: Session) -> None:
    for fact in facts(big, "error") + facts(big, "finding"):
        nxt = next(i for i in range(fact.index + 1, len(big.messages)) if big.messages[i]["role"] == "assistant")
        assert nxt - fact.index <= 4 and fact.value in content(big, nxt)


def test_files_are_paths_written_by_one_write_or_edit(big: Session) -> None:
    for fact in facts(big, "file"):
        (call,) = big.messages[fact.index]["tool_calls"]
        assert call["function"]["name"] in ("write_file", "edit_file")
        assert json.loads(call["function"]["arguments"])["path"] == fact.value
        assert fact.value in content(big, fact.index + 1)


def test_identifiers_are_said_by_the_user_and_printed_by_tools(small: Session) -> None:
    roles = Counter(small.messages[f.index]["role"] for f in facts(small, "identifier"))
    assert roles["user"] >= 2 and roles["tool"] >= 2


def test_plans_are_written_in_prose(big: Session) -> None:
    for fact in facts(big, "plan"):
        said = content(big, fact.index)
        assert len(said) > 100 and (said.count(". ") + said.count("\n- ") + said.count(", ")) >= 2, said


def test_tool_outputs_make_most_of_the_characters(small: Session, big: Session) -> None:
    for session in (small, big):
        tool = sum(len(text_of(m)) for m in session.messages if m["role"] == "tool")
        assert tool > 0.6 * session.chars()
        longest = max(len(text_of(m)) for m in session.messages if m["role"] == "tool")
        assert longest > 8000


def test_every_tool_is_called_even_in_the_smallest_session() -> None:
    session = make_session(seed=9, messages=MIN_MESSAGES)
    used = {c["function"]["name"] for m in session.messages for c in m.get("tool_calls") or []}
    assert used == set(TOOLS)


def test_the_session_is_not_one_message_repeated(big: Session) -> None:
    users = [content(big, i) for i, m in enumerate(big.messages) if m["role"] == "user"]
    finals = [content(big, i) for i, m in enumerate(big.messages) if m["role"] == "assistant"
              and not m.get("tool_calls")]
    firsts = {content(big, i).splitlines()[0] for i, m in enumerate(big.messages) if m["role"] == "tool"
              and content(big, i)}
    assert len(set(users)) > 0.5 * len(users) and len(set(finals)) > 0.5 * len(finals)
    assert len(firsts) > 200
    assert {"ok", "go"} & set(users)


def test_noise_a_compactor_can_get_wrong(big: Session) -> None:
    everything = "\n".join(text_of(m) for m in big.messages)
    assert re.search(r"\b(0\d|1\d):[0-5]\d\b", everything)  # clock times
    assert re.search(r"R/\w+\.R:\d+", everything)  # file:line references
    assert "3838" in everything and "1433" in everything  # numbers that look like ports
    assert '{"site": ' in everything and "| site |" in everything  # JSON fragments, tables
    assert "Todo:\n- [x]" in everything and "- [ ]" in everything  # the agent's todo list
    assert all(name in everything for name in ("Marta", "Davide", "Prof. Rinaldi"))


def test_the_user_speaks_italian_and_english(small: Session) -> None:
    users = [content(small, i) for i, m in enumerate(small.messages) if m["role"] == "user"]
    italian = sum(bool(ITALIAN.search(u)) and not ENGLISH.search(u) for u in users)
    english = sum(bool(ENGLISH.search(u)) and not ITALIAN.search(u) for u in users)
    assert italian >= 5 and english >= 5


def test_the_module_says_how_to_use_it() -> None:
    doc = gen_clinical.__doc__ or ""
    assert "make_session(seed=1, messages=400)" in doc and "session.facts" in doc
