"""What bench/gen_erp.py promises of its own domain (an SAP consultant in Bursa and an agent on S/4HANA): pasted
mails, tickets and logs are listed and hold imperatives that are not the user's rules; rules and corrections come in
Turkish and English, loosely; errors are whole lines of real-looking SAP tool output, and a resolved one is gone when
the same command runs again; files are abapGit paths written by edit_source; identifiers are both said and printed.
The contract shared by every generator is checked in test_generators_contract.py."""

from __future__ import annotations

import json
import re
import sys
from functools import cache
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from generator_contract import assert_chat_format, assert_first_rules_early, call_of, content, facts

import gen_erp
from sessiongen import Session

TURKISH = re.compile(r"[ğışçöüİĞŞÇÖÜ]|\b(bizde|asla|dokunma|tercihim|tamam|değil|olacak|aslında|yok|kadar)\b")
IMPERATIVE = re.compile(r"\b(Please|Do not|Lütfen|yapınız|Remove|Review)\b")


@cache
def session(seed: int = 5, messages: int = 3000) -> Session:
    return gen_erp.make_session(seed=seed, messages=messages)


def pasted_at(s: Session) -> dict[int, str]:
    return dict(s.pasted)


def test_pasted_texts_occur_verbatim_in_user_messages_and_hold_imperatives() -> None:
    """Everything pasted is listed with its exact text, in a user message, and tells someone to do something."""
    s = session()
    assert len(s.pasted) >= 20
    for i, text in s.pasted:
        assert s.messages[i]["role"] == "user" and text in content(s, i)
        assert IMPERATIVE.search(text), text
        assert re.search(r"\d", text), text


def test_the_six_kinds_of_pasted_documents_all_occur() -> None:
    """The finance manager's close mail, a SolMan ticket, the GİB announcement, an audit finding, an SM37 night log
    and the Basis team's Teams thread about the kernel upgrade."""
    texts = "\n".join(text for _i, text in session().pasted)
    for marker in ("From: Hülya Aksoy", "Solution Manager  Incident", "GİB Duyuru", "Audit finding",
                   "log from SM37", "Emre Kılıç: kernel upgrade"):
        assert marker in texts, marker


def test_no_planted_rule_or_correction_lives_inside_pasted_text() -> None:
    """A pasted document's imperatives are not the user's: planted values sit outside the pasted part."""
    s = session()
    pasted = pasted_at(s)
    for fact in s.facts:
        if fact.index in pasted:
            assert fact.value not in pasted[fact.index], fact
            assert fact.value in content(s, fact.index).replace(pasted[fact.index], "")


def test_some_rules_are_adopted_from_a_pasted_document_in_the_users_words() -> None:
    s = session()
    pasted = pasted_at(s)
    adopted = [f for f in facts(s, "instruction") if f.index in pasted]
    assert adopted and len(adopted) < len(facts(s, "instruction"))
    for fact in adopted:
        own = content(s, fact.index).split(pasted[fact.index])[-1]
        assert fact.value in own


@pytest.mark.parametrize("messages", [121, 3000])
def test_the_first_two_rules_come_early_and_are_not_adopted(messages: int) -> None:
    s = session(5, messages)
    adopted = [f for f in facts(s, "instruction") if f.index in pasted_at(s)]
    assert_first_rules_early(s, messages, adopted)


def test_rules_come_in_turkish_and_english_some_with_a_condition_some_in_a_second_paragraph() -> None:
    s = session()
    lines = [next(line for line in content(s, f.index).split("\n\n") if f.value in line)
             for f in facts(s, "instruction")]
    turkish = [line for line in lines if TURKISH.search(line)]
    assert turkish and len(turkish) < len(lines)
    assert any(re.search(r"\buntil\b|kadar", line) for line in lines)
    assert any(content(s, f.index).split("\n\n")[0].find(f.value) < 0 for f in facts(s, "instruction"))


def test_corrections_are_loose_in_both_languages_and_some_sit_mid_message() -> None:
    s = session()
    loose = re.compile(r"no wait|the other one|wrong|pardon|yanlış|aslında|sorry")
    corrections = facts(s, "correction")
    for fact in corrections:
        assert loose.search(content(s, fact.index)), fact
    assert any(TURKISH.search(content(s, f.index)) for f in corrections)
    assert any(not content(s, f.index).split("\n\n")[0].count(f.value) for f in corrections)


def test_near_miss_corrections_keep_the_format_of_what_they_replace() -> None:
    """A near miss swaps or changes a digit or two: same length, same prefix shape (a host, a ticket, a transport,
    an IDoc, a job)."""
    near = [f for f in facts(session(), "correction") if f.stale and len(f.stale) == len(f.value)
            and sum(a != b for a, b in zip(f.value, f.stale)) <= 2]
    assert len(near) >= len(facts(session(), "correction")) // 2
    for fact in near:
        assert fact.stale is not None
        assert re.sub(r"\d", "9", fact.value) == re.sub(r"\d", "9", fact.stale)


def test_the_stale_value_is_said_plainly_by_the_user_before_it_is_corrected() -> None:
    s = session()
    for fact in facts(s, "correction"):
        assert fact.stale_index is not None and fact.stale is not None
        assert s.messages[fact.stale_index]["role"] == "user"
        assert not re.search(r"no wait|yanlış|sorry", content(s, fact.stale_index))


def test_revised_decisions_name_the_old_choice_beside_the_new_one() -> None:
    s = session()
    for fact in facts(s, "decision"):
        if fact.stale is not None:
            assert fact.stale in content(s, fact.index) and fact.value in content(s, fact.index)


ERROR_SHAPES = (
    r'^\S+ Line \d+: Field "\w+" is unknown\.',
    r"^Failure: LTC_\w+->\w+ in \S+: expected <[\d,]+> but was <[\d,]+>$",
    r"^Termination point: \S+=>\w+ line \d+ \(CX_SY_ZERODIVIDE\)$",
    r"^\d\d\.\d\d\.\d{4} \d\d:\d\d:\d\d Job \S+ cancelled: ",
    r"^51  \d\d\.\d\d\.\d{4}  \d\d:\d\d:\d\d  Material \S+ not maintained in plant \d{4} \(M3 305\)$",
    r"^E: Table \S+ could not be activated",
    r"^GIB-1163 ",
    r"^1     \S+\s+\d+  Security  ",
)


def test_errors_are_whole_lines_of_real_looking_sap_output() -> None:
    s = session()
    for fact in facts(s, "error"):
        assert fact.value in content(s, fact.index).splitlines()
        assert any(re.search(shape, fact.value) for shape in ERROR_SHAPES), fact.value


def test_a_resolved_error_is_gone_when_the_same_command_runs_again() -> None:
    """The later run is the same call (same tool, same arguments) and its output no longer holds the line."""
    s = session()
    resolved = [f for f in facts(s, "error") if f.resolved is not None]
    assert resolved
    for fact in resolved:
        assert fact.resolved is not None
        first, again = call_of(s, fact.index), call_of(s, fact.resolved)
        assert first["name"] == again["name"] and json.loads(first["arguments"]) == json.loads(again["arguments"])
        assert fact.value not in content(s, fact.resolved)
        between = [call_of(s, i)["name"] for i in range(fact.index + 1, fact.resolved)
                   if s.messages[i]["role"] == "tool"]
        assert "edit_source" in between


def test_the_agent_quotes_an_error_and_explains_a_finding_in_its_next_message() -> None:
    s = session()
    for fact in facts(s, "error") + facts(s, "finding"):
        nxt = next(i for i in range(fact.index + 1, len(s.messages)) if s.messages[i]["role"] == "assistant")
        assert fact.value in content(s, nxt), fact


def test_files_are_abapgit_paths_written_by_edit_source() -> None:
    s = session()
    for fact in facts(s, "file"):
        call = s.messages[fact.index]["tool_calls"][0]["function"]
        assert call["name"] == "edit_source" and json.loads(call["arguments"])["path"] == fact.value
        assert re.fullmatch(r"src/ztx_[a-z]+/[a-z0-9_]+\.(clas|prog|ddls|ddlx)(\.testclasses)?\.\w+", fact.value)


def test_identifiers_are_said_by_the_user_and_printed_by_sap_tools() -> None:
    s = session()
    said = [f for f in facts(s, "identifier") if s.messages[f.index]["role"] == "user"]
    printed = [f for f in facts(s, "identifier") if s.messages[f.index]["role"] == "tool"]
    assert said and printed
    assert {s.messages[f.index]["name"] for f in printed} <= {"transport", "idoc_status", "efatura_status",
                                                              "abap_run"}
    pattern = r"DEVK9B\d{4}|\d{16}|\d{10}|TXE2024\d{9}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
    assert all(re.fullmatch(pattern, f.value) for f in said + printed)


def test_findings_sit_on_one_line_of_the_tool_output() -> None:
    s = session()
    for fact in facts(s, "finding"):
        assert sum(fact.value in line for line in content(s, fact.index).splitlines()) == 1


def test_queries_are_distinct_questions() -> None:
    s = session()
    queries = [f.query for f in s.facts]
    assert len(set(queries)) == len(queries) and all(q.endswith("?") for q in queries)


@pytest.mark.parametrize("messages", [60, 61, 95, 121])
def test_short_sessions_call_every_tool_and_are_well_formed(messages: int) -> None:
    assert_chat_format(gen_erp.make_session(seed=1, messages=messages), gen_erp.TOOLS)


def test_beyond_3000_messages_the_facts_keep_growing() -> None:
    assert gen_erp.per_kind(6000) == 18 and gen_erp.per_kind(3001) >= 12
    s = gen_erp.make_session(seed=2, messages=3600)
    assert len(s.messages) == 3600 and len(s.facts) == 8 * gen_erp.per_kind(3600)


def test_st22_dumps_carry_their_sections() -> None:
    s = session(5, 400)
    dumps = [m["content"] for m in s.messages if m.get("name") == "st22_dump" and "Runtime Errors" in m["content"]]
    assert dumps
    for dump in dumps:
        for section in ("Short Text", "What happened?", "Error analysis", "Source Code Extract", ">>>>>",
                        "Chosen variables"):
            assert section in dump


def test_se16_dumps_are_fixed_width_tables() -> None:
    s = session(5, 400)
    tables = [m["content"] for m in s.messages if m.get("name") == "se16_read"]
    assert tables
    for table in tables:
        rows = [line for line in table.splitlines() if line.startswith("|") and line.endswith("|")
                and "ENDPOINT" not in line]
        assert len({len(row) for row in rows}) == 1


def test_the_noise_a_compactor_can_get_wrong_is_there() -> None:
    text = "\n".join(str(m.get("content") or "") for m in session(5, 400).messages)
    assert re.search(r"\b\d\d:\d\d\b", text)  # clock times
    assert re.search(r"\.clas\.abap:\d+", text)  # file:line references
    assert re.search(r'\{"ettn": "', text)  # JSON fragments
    assert "- [ ]" in text and "- [x]" in text  # the agent's todo list
    assert re.search(r"port \d{4,5}|\b3300\b|\b44300\b", text)  # numbers that look like ports
    assert "Hülya" in text and "Emre" in text  # people


def test_the_user_writes_turkish_and_english() -> None:
    s = session(5, 400)
    users = [content(s, i) for i, m in enumerate(s.messages) if m["role"] == "user"]
    turkish = sum(bool(TURKISH.search(u)) for u in users)
    assert 0.2 * len(users) < turkish < 0.9 * len(users)
    assert sum(len(u) < 12 for u in users) >= 3  # "ok", "go", "devam et"
