"""bench/gen_itadmin.py: a Québec school board's sysadmin and their agent (Windows, Microsoft 365, GLPI, Aruba).

The contract every session generator keeps is checked for this module in tests/test_generators_contract.py; here, what
it adds to it (its first rules come early) and what this domain promises: pasted documents full of imperatives that
are not the user's, rules in French and English said the way people say them, loose corrections, whole error lines
that a later run of the same command no longer prints, findings explained right after, identifiers both said and
printed."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import gen_itadmin as gen
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
from sessiongen import Fact, Session, text_of

STALE_REACH = 12


@pytest.fixture(scope="module", params=[400, 3000], ids=lambda m: f"itadmin-{m}")
def planted(request: pytest.FixtureRequest) -> Session:
    """The session of seed 5 at 400 and 3000 messages."""
    return gen.make_session(seed=5, messages=request.param)


@pytest.fixture(scope="module")
def sessions() -> list[Session]:
    """Sessions of several seeds at 400 messages and one at 3000, for the domain's statistics."""
    return [gen.make_session(seed=s, messages=400) for s in (1, 2, 3, 4, 6, 7)] + [gen.make_session(9, 3000)]


def adopted(session: Session) -> list[Fact]:
    """Rules the user took from a document they pasted in the same message."""
    where = {i for i, _ in session.pasted}
    return [f for f in facts(session, "instruction") if f.index in where]


# --- the contract beyond tests/test_generators_contract.py (which checks this generator too) ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("messages", [121, 400, 777, 3000])
@pytest.mark.parametrize("seed", [1, 5, 8])
def test_the_first_two_rules_come_early(seed: int, messages: int) -> None:
    """The first rule within the first tenth, the second within the first seventh, neither from a pasted document."""
    session = gen.make_session(seed=seed, messages=messages)
    assert_first_rules_early(session, messages, adopted(session))


@pytest.mark.parametrize("seed", range(1, 13))
def test_the_smallest_session_is_whole_for_any_seed(seed: int) -> None:
    """60 messages: one fact of each kind, every tool used, nothing out of place."""
    session = gen.make_session(seed=seed, messages=60)
    assert_counts(session, gen.KINDS, 1)
    assert_chat_format(session, gen.TOOLS)
    assert_out_of_filler(session, stale_reach=STALE_REACH)


# --- the domain --------------------------------------------------------------------------------------------------

IMPERATIVES = re.compile(r"\b(Veuillez|Ne |Désactivez|Transmettez|Assurez-vous|Please|Do not|Open|Run|Upgrade|"
                         r"Réactivez|Rappelez|Refuser|Signaler|redémarre|touchez|Mettez|Faites|Déployez|Augmentez|"
                         r"Inscrivez|Conserver|Ne pas)")
MARKERS = {"ministère": "Ministère de l'Éducation", "microsoft": "Thank you for contacting Microsoft Support",
           "union": "Syndicat de l'enseignement", "parent": "Parent d'un élève", "audit": "RAPPORT D'AUDIT",
           "vendor": "Maintenance Notice", "teams": "] Karine Roy: |] Sylvain Côté: |] Julie Tremblay: |] Éric Lavoie: |"
                                                    "] Nadia Bouchard: |] Patrick Gauthier: "}
FRENCH = re.compile(r"\b(on|pis|pas|jamais|tu|les|c'est|l'|dans|avec|pour|je|ça)\b", re.I)
ENGLISH = re.compile(r"\b(never|the|you|I'd|until|don't|it's|wrong|with|let's|instead)\b")


def paragraph_of(text: str, value: str) -> int:
    """Which paragraph of ``text`` (0 = the first) holds ``value``."""
    return next(i for i, p in enumerate(text.split("\n\n")) if value in p)


def line_of(text: str, value: str) -> str:
    return next(line for line in text.splitlines() if value in line)


def test_pasted_texts_sit_verbatim_in_user_messages(sessions: list[Session]) -> None:
    """Every pasted text is in the content of the user message it is listed at."""
    for session in sessions:
        assert session.pasted
        for index, text in session.pasted:
            assert session.messages[index]["role"] == "user" and text in content(session, index)


def test_pasted_texts_hold_imperatives_numbers_and_ids(sessions: list[Session]) -> None:
    """What the user pastes orders people around and carries numbers and references, like the real thing."""
    for session in sessions:
        for _, text in session.pasted:
            assert IMPERATIVES.search(text), text[:200]
            assert re.search(r"\d{2,}", text), text[:200]


def test_every_kind_of_document_gets_pasted(sessions: list[Session]) -> None:
    """A Ministère directive, a Microsoft engineer's reply, a union note, a parent's complaint, an audit, a vendor's
    maintenance notice and a Teams thread all turn up in a long session."""
    seen = {kind for _, text in sessions[-1].pasted for kind, marker in MARKERS.items() if re.search(marker, text)}
    assert seen == set(MARKERS)


def test_no_planted_value_is_in_a_pasted_text(sessions: list[Session]) -> None:
    """Nothing pasted is a planted rule or correction: no value or stale value occurs in a pasted text."""
    for session in sessions:
        for fact in session.facts:
            for _, text in session.pasted:
                assert fact.value not in text and (fact.stale is None or fact.stale not in text), fact


def test_adopted_rules_are_the_users_own_words_outside_the_paste(sessions: list[Session]) -> None:
    """Some rules come from a pasted document, restated by the user after it, in their own words."""
    found = 0
    for session in sessions:
        pasted = dict(session.pasted)
        for fact in adopted(session):
            found += 1
            whole = content(session, fact.index)
            doc = pasted[fact.index]
            assert fact.value not in doc
            assert fact.value in whole.replace(doc, "")
            assert whole.index(doc) < whole.index(fact.value)
    assert found >= 4


def test_rules_come_in_french_and_in_english(sessions: list[Session]) -> None:
    """The user sets rules in Québec French and, sometimes, in English."""
    french = english = 0
    for session in sessions:
        for fact in facts(session, "instruction"):
            line = line_of(content(session, fact.index), fact.value).replace(fact.value, " ")
            en, fr = len(ENGLISH.findall(line)), len(FRENCH.findall(line))
            english += en > fr
            french += fr > en
    assert french >= 10 and english >= 5


def test_rules_are_said_indirectly_in_second_paragraphs_and_with_conditions(sessions: list[Session]) -> None:
    """Rules hide in a message's second paragraph, some hold only until something happens, none reads like a
    checklist ('Always ...', 'Rule: ...')."""
    second = conditional = 0
    for session in sessions:
        for fact in facts(session, "instruction"):
            text = content(session, fact.index)
            second += paragraph_of(text, fact.value) > 0
            line = line_of(text, fact.value)
            conditional += bool(re.search(r"\b(Tant que|Until|until|sauf|unless)\b", line))
            assert not line.startswith(("Always ", "Rule:", "Never "))
    assert second >= 8 and conditional >= 3


def test_corrections_are_loose_in_both_languages(sessions: list[Session]) -> None:
    """Corrections read like people's: 'attends, non', 'pas celui-là, l'autre', 'I gave you the wrong ...', some in
    the middle of a longer message."""
    phrases = re.compile(r"(attends, non|pas celui-là|je me suis trompé|I gave you the wrong|no wait|oups|"
                         r"non attends|change ça|pas le |attends, non)", re.I)
    middle = english = 0
    for session in sessions:
        for fact in facts(session, "correction"):
            text = content(session, fact.index)
            assert phrases.search(text), text
            middle += 0 < paragraph_of(text, fact.value) < len(text.split("\n\n")) - 1
            english += bool(re.search(r"(I gave you the wrong|no wait)", text))
    assert middle >= 3 and english >= 3


def test_a_stale_value_is_said_plainly_before_it_is_corrected(sessions: list[Session]) -> None:
    """The old value was said by the user, on its own, before the correction came; the correction names the new one."""
    for session in sessions:
        for fact in facts(session, "correction"):
            assert fact.stale is not None and fact.stale_index is not None
            said = content(session, fact.stale_index)
            assert fact.stale in said and fact.value not in said


def test_revised_decisions_name_the_choice_they_drop(sessions: list[Session]) -> None:
    """A revised decision says what it replaces ('finalement ... pas X', 'instead of X'); the others stand alone."""
    for session in sessions:
        for fact in facts(session, "decision"):
            text = content(session, fact.index)
            if fact.stale is not None:
                assert fact.stale in text
                assert re.search(r"(Finalement|oublie|instead of)", text)


def test_error_lines_are_unindented_and_the_fix_reruns_the_same_command(sessions: list[Session]) -> None:
    """An error is a real tool's whole line (no leading blanks); a resolved one is rerun with the same arguments."""
    for session in sessions:
        for fact in facts(session, "error"):
            assert fact.value == fact.value.strip()
            if fact.resolved is not None:
                assert call_of(session, fact.resolved) == call_of(session, fact.index)


def test_error_lines_look_like_real_tools(sessions: list[Session]) -> None:
    """Pester, PowerShell cmdlets, the GroupPolicy log, pytest, Python, Graph, GLPI and git all fail somewhere."""
    looks = (r"^\[-\] ", r"^Get-ADUser : Cannot find", r"Microsoft-Windows-GroupPolicy\s+1058", r"^FAILED tests/",
             r"^UnicodeDecodeError: ", r"Request_ResourceNotFound", r"ERROR_GLPI_ADD", r"^CONFLICT \(content\)",
             r"^Invoke-Command : \[")
    values = [f.value for s in sessions for f in facts(s, "error")]
    for value in values:
        assert any(re.search(p, value) for p in looks), value
    assert all(any(re.search(p, v) for v in values) for p in looks)


def test_resolved_runs_really_pass(sessions: list[Session]) -> None:
    """The later run of a resolved error reports no failure at all, not only a different one."""
    for session in sessions:
        for fact in facts(session, "error"):
            if fact.resolved is not None:
                out = content(session, fact.resolved)
                assert not re.search(r"(Failed: [1-9]|FAILED|Error  |ERROR_|CONFLICT|Cannot find|HTTP 4)", out), out[:300]


def test_findings_are_explained_in_the_next_answer(sessions: list[Session]) -> None:
    """After a tool finds something, the agent's next message says it and what it means."""
    for session in sessions:
        for fact in facts(session, "finding"):
            nxt = session.messages[fact.index + 1]
            assert nxt["role"] == "assistant" and not nxt.get("tool_calls")
            assert fact.value in nxt["content"] and len(nxt["content"]) > len(fact.value) + 30


def test_files_are_written_by_one_call_whose_result_names_them(sessions: list[Session]) -> None:
    """A planted path is written (write_file or edit_file) by one call, and the tool's answer names the path."""
    for session in sessions:
        for fact in facts(session, "file"):
            (call,) = session.messages[fact.index]["tool_calls"]
            assert call["function"]["name"] in ("write_file", "edit_file")
            assert json.loads(call["function"]["arguments"])["path"] == fact.value
            assert fact.value in content(session, fact.index + 1)


def test_identifiers_are_said_by_the_user_or_printed_on_a_line(sessions: list[Session]) -> None:
    """Identifiers come both ways: the user gives one (case number, PO, client id, circuit) or a tool prints one
    (object id, ticket number, SID, BitLocker protector id) on one line of its output."""
    said = printed = 0
    for session in sessions:
        for fact in facts(session, "identifier"):
            if session.messages[fact.index]["role"] == "tool":
                printed += 1
                assert any(fact.value in line for line in content(session, fact.index).splitlines())
            else:
                said += 1
    assert said >= 6 and printed >= 6


def test_plans_are_prose_with_steps(sessions: list[Session]) -> None:
    """A plan is written as steps in sentences or a short list, not a bare value."""
    steps = re.compile(r"(d'abord|ensuite|pis|[12]\)|step [12]|semaine [12]|on commence|first|then|jusqu'à)", re.I)
    for session in sessions:
        for fact in facts(session, "plan"):
            text = content(session, fact.index)
            assert len(steps.findall(text)) >= 2 and len(text) > 3 * len(fact.value), text


def test_the_user_writes_quebec_french_and_some_english(sessions: list[Session]) -> None:
    """The user's voice: Québec French ('pis', 'checke', 'c'est correct', 'pantoute', 'on s'en va'), whole English
    messages, and one-word replies."""
    users = [content(s, i) for s in sessions for i, m in enumerate(s.messages) if m["role"] == "user"]
    joined = "\n".join(users)
    for word in ("pis", "checke", "c'est correct", "stp", "on s'en va"):
        assert word in joined, word
    assert sum(bool(ENGLISH.search(u)) and not FRENCH.search(u) for u in users) >= 20
    assert sum(u in ("ok", "go", "ok go", "yep", "c'est correct") for u in users) >= 10


def test_the_filler_carries_the_noise_a_compactor_can_get_wrong(sessions: list[Session]) -> None:
    """Clock times, file:line references, JSON, tables, quotes, port-like numbers, names and the agent's todo list."""
    text = "\n".join(text_of(m) for m in sessions[0].messages)
    assert re.search(r"\b\d{2}:\d{2}\b", text)
    assert re.search(r"\w+\.(py|ps1):\d+", text)
    assert '{"' in text or '{\n "' in text
    assert "|---|" in text and "-------" in text
    assert "« " in text or "> " in text
    assert re.search(r"\b(636|8443|1812|5985|3268)\b", text)
    assert any(name in text for name in gen.TEAM)
    assert "À faire (ma liste):" in text and "- [ ]" in text


def test_filler_requests_match_the_calls_that_answer_them() -> None:
    """When the user asks for a ticket, a file or a log, the agent's call is about that ticket, file or log."""
    session = gen.make_session(seed=3, messages=1700)
    checked = 0
    for i, m in enumerate(session.messages[:-2]):
        nxt = session.messages[i + 1]
        if m["role"] != "user" or nxt["role"] != "assistant" or not nxt.get("tool_calls"):
            continue
        call = nxt["tool_calls"][0]["function"]
        args = json.loads(call["arguments"])
        said = str(m["content"])
        if said.startswith(("ouvre le ticket #", "what's the status of #")) and call["name"] == "glpi":
            assert f"#{args['id']}" in said
            checked += 1
        if said.startswith(("ouvre ", "show me ", "lis ")) and call["name"] == "read_file":
            assert args["path"] in said
            checked += 1
    assert checked >= 5


def test_tool_call_ids_are_unique_and_every_tool_is_used_at_every_size() -> None:
    """Call ids never repeat; the 7 to 10 tools are all called in short and long sessions alike."""
    assert 7 <= len(gen.TOOLS) <= 10
    for messages in (60, 61, 97, 121, 400, 3000):
        session = gen.make_session(seed=7, messages=messages)
        ids = [c["id"] for m in session.messages for c in m.get("tool_calls") or []]
        assert len(ids) == len(set(ids))
        assert_chat_format(session, gen.TOOLS)


def test_longer_sessions_keep_growing() -> None:
    """Beyond 3000 messages the count per kind keeps growing, and such a session still comes out whole."""
    assert gen.per_kind(4500) > gen.per_kind(3000)
    session = gen.make_session(seed=2, messages=4500)
    assert len(session.messages) == 4500
    assert_counts(session, gen.KINDS, gen.per_kind(4500))
    assert_values_new(session, gen.per_kind)
    assert_out_of_filler(session, stale_reach=STALE_REACH)
