"""What the frontend generator (bench/gen_frontend.py) promises of its own domain: a Swedish/English developer at a
Stockholm transit app, pasted documents that are not the user's, loose corrections, whole error lines that a later
run of the same command no longer prints. The shared contract is in tests/test_generators_contract.py."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from generator_contract import assert_chat_format, assert_first_rules_early, call_of, content, facts
from sessiongen import Session

import gen_frontend
from gen_frontend import KINDS, MIN_MESSAGES, TOOLS, make_session, per_kind

SV = re.compile(r"\b(vi|jag|hos oss|inte|asså|tills|rör|kör|och|det|är|vänta|fel|menade|utan)\b", re.IGNORECASE)


@pytest.fixture(scope="module", params=[(5, 400), (3, 3000)], ids=lambda p: f"seed{p[0]}-{p[1]}")
def session(request: pytest.FixtureRequest) -> Session:
    seed, messages = request.param
    return make_session(seed=seed, messages=messages)


def _adopted(s: Session) -> list[Any]:
    pasted_at = {i for i, _ in s.pasted}
    return [f for f in facts(s, "instruction") if f.index in pasted_at]


def test_below_the_smallest_is_refused_and_the_smallest_is_whole() -> None:
    with pytest.raises(ValueError):
        make_session(seed=1, messages=MIN_MESSAGES - 1)
    s = make_session(seed=1, messages=MIN_MESSAGES)
    assert len(s.messages) == MIN_MESSAGES and len(s.facts) == len(KINDS)


@pytest.mark.parametrize("messages", [60, 61, 97, 121, 333])
def test_small_sessions_use_every_tool_and_stay_well_formed(messages: int) -> None:
    for seed in (1, 7, 8):
        assert_chat_format(make_session(seed=seed, messages=messages), TOOLS)


def test_per_kind_keeps_growing_past_3000() -> None:
    assert per_kind(3000) < per_kind(4000) <= per_kind(6000)
    assert [per_kind(m) for m in (60, 400, 1700, 3000)] == [1, 6, 9, 12]


def test_pasted_texts_are_verbatim_and_hold_imperatives_numbers_and_ids(session: Session) -> None:
    assert len(session.pasted) >= 3
    for i, text in session.pasted:
        assert session.messages[i]["role"] == "user" and text in content(session, i)
        assert re.search(r"\b(Please|Do not|Don't|Use|Åtgärd|Resolve)\b", text), text
        assert re.search(r"\d", text) and re.search(r"[A-Z]{2,}-\d+|#\w+|v\d|\d{2,}", text)


def test_pasted_kinds_are_the_domains_documents(session: Session) -> None:
    heads = " ".join(text.splitlines()[0] for _, text in session.pasted)
    found = sum(w in heads for w in ("Tillgänglighetsgranskning", "Legal", "Figma", "WEB-", "Sentry", "Lighthouse"))
    assert found >= 3


def test_no_planted_value_comes_from_a_pasted_text(session: Session) -> None:
    for _i, text in session.pasted:
        for fact in session.facts:
            assert fact.value not in text
            assert fact.stale is None or fact.stale not in text


def test_adopted_rules_are_restated_outside_the_paste(session: Session) -> None:
    adopted = _adopted(session)
    assert adopted
    pasted = dict(session.pasted)
    for fact in adopted:
        own = content(session, fact.index).replace(pasted[fact.index], "")
        assert fact.value in own


def test_first_two_rules_are_early_and_the_users_own() -> None:
    for messages in (121, 400, 3000):
        s = make_session(seed=2, messages=messages)
        assert_first_rules_early(s, messages, _adopted(s))


def test_rules_come_in_both_languages_and_some_are_conditional(session: Session) -> None:
    texts = [content(session, f.index) for f in facts(session, "instruction")]
    swedish = [t for t in texts if SV.search(t)]
    assert swedish and len(swedish) < len(texts)
    conditional = [t for t in texts if re.search(r"\b(until|tills)\b", t, re.IGNORECASE)]
    second_paragraph = [t for t in texts if "\n\n" in t]
    assert conditional
    assert second_paragraph


def test_rules_are_worded_indirectly() -> None:
    s = make_session(seed=4, messages=3000)
    texts = " ".join(content(s, f.index) for f in facts(s, "instruction"))
    hits = [w for w in ("vi kör aldrig", "hos oss", "jag föredrar", "I'd rather", "we never", "tills", "Until",
                        "vi rör aldrig", "vi uppgraderar aldrig", "in my words", "med mina ord", "från handoffen")
            if w in texts]
    assert len(hits) >= 4


def test_corrections_are_loose_and_in_both_languages(session: Session) -> None:
    texts = [content(session, f.index) for f in facts(session, "correction")]
    loose = ("nej vänta", "fel", "wrong", "the other", "jag menade", "utan", "sorry")
    assert all(any(w in t for w in loose) for t in texts)
    assert any(SV.search(t) for t in texts) and any(not re.search(r"[åäö]", t) for t in texts)


def test_corrections_replace_what_the_user_said_and_most_are_near_misses() -> None:
    s = make_session(seed=9, messages=3000)
    corrections = facts(s, "correction")
    near = far = 0
    for f in corrections:
        assert f.stale is not None and f.stale_index is not None
        assert s.messages[f.stale_index]["role"] == "user" and f.stale in content(s, f.stale_index)
        near += sum(a == b for a, b in zip(f.value, f.stale)) >= len(f.value) // 2
        far += f.index - f.stale_index > 100
    assert near >= len(corrections) // 2 and far >= 4


def test_some_corrections_hide_in_a_long_message(session: Session) -> None:
    texts = [content(session, f.index) for f in facts(session, "correction")]
    assert any(t.count("\n\n") >= 2 and len(t) > 120 for t in texts)


def test_a_third_of_decisions_revise_the_users_own_choice(session: Session) -> None:
    decisions = facts(session, "decision")
    revised = [f for f in decisions if f.stale is not None]
    assert len(revised) == max(1, len(decisions) // 3)
    for f in revised:
        assert f.stale_index is not None and session.messages[f.stale_index]["role"] == "user"


def test_errors_are_whole_lines_of_real_looking_tools(session: Session) -> None:
    shapes = (r"\.tsx\(\d+,\d+\): error TS\d+: ", r"^FAIL  src/.*\.test\.tsx > ", r"^✘  \d+ \[webkit\] › e2e/",
              r"^\[vite\]: Rollup failed to resolve import", r"\.tsx:\d+:\d+: .*\[Error/", r"^Uncaught TypeError: ")
    for f in facts(session, "error"):
        m = session.messages[f.index]
        assert m["role"] == "tool" and f.value in m["content"].splitlines()
        assert m["name"] in ("npm", "playwright", "browser")
        assert any(re.search(p, f.value) for p in shapes), f.value


def test_resolved_errors_are_gone_in_a_rerun_of_the_same_command(session: Session) -> None:
    errors = facts(session, "error")
    resolved = [f for f in errors if f.resolved is not None]
    assert 0 < len(resolved) < len(errors)
    for f in resolved:
        assert f.resolved is not None
        later = session.messages[f.resolved]
        assert later["role"] == "tool" and f.value not in later["content"]
        assert call_of(session, f.resolved) == call_of(session, f.index)


def test_files_are_written_by_one_call_to_the_path(session: Session) -> None:
    for f in facts(session, "file"):
        calls = session.messages[f.index]["tool_calls"]
        assert len(calls) == 1 and calls[0]["function"]["name"] in ("write_file", "edit_file")
        assert json.loads(calls[0]["function"]["arguments"])["path"] == f.value
    assert {session.messages[f.index]["tool_calls"][0]["function"]["name"] for f in facts(session, "file")} == {
        "write_file", "edit_file"}


def test_findings_are_read_in_the_next_answer(session: Session) -> None:
    for f in facts(session, "finding"):
        line = next(x for x in content(session, f.index).splitlines() if f.value in x)
        assert len(line) < 300
        nxt = session.messages[f.index + 1]
        assert nxt["role"] == "assistant" and not nxt.get("tool_calls") and len(nxt["content"]) > 60


def test_identifiers_are_said_and_printed(session: Session) -> None:
    roles = {session.messages[f.index]["role"] for f in facts(session, "identifier")}
    assert roles == {"user", "tool"}


def test_plans_are_prose(session: Session) -> None:
    for f in facts(session, "plan"):
        text = content(session, f.index)
        assert len(text) > 120 and (text.count(",") + text.count("\n") + text.count(". ")) >= 2


def test_the_user_writes_whole_messages_in_swedish_and_in_english(session: Session) -> None:
    users = [str(m["content"]) for m in session.messages if m["role"] == "user"]
    assert sum(bool(re.search(r"[åäö]", u)) for u in users) >= len(users) // 10
    assert sum(bool(re.fullmatch(r"[A-Za-z ,.'?!0-9/-]+", u)) for u in users) >= len(users) // 10
    assert sum(len(u) <= 6 for u in users) >= 3  # "ok", "go", "kör"


def test_the_noise_a_compactor_can_get_wrong_is_there(session: Session) -> None:
    text = "\n".join(str(m.get("content") or "") for m in session.messages)
    assert re.search(r"\b\d{2}:\d{2}\b", text)  # clock times
    assert re.search(r"\.tsx?:\d+", text)  # file:line
    assert "| check | result |" in text and '"departures"' in text  # a table and JSON
    assert ":5173" in text and ":4000" in text  # ports
    assert any(p in text for p in gen_frontend.PEOPLE)
    assert any(c["function"]["name"] == "todo_write" for m in session.messages for c in m.get("tool_calls") or [])


def test_tool_outputs_carry_most_of_the_characters(session: Session) -> None:
    tool = sum(len(m["content"]) for m in session.messages if m["role"] == "tool")
    assert tool > 0.6 * session.chars()
    outputs = {m["content"][:200] for m in session.messages if m["role"] == "tool"}
    assert len(outputs) > 0.8 * sum(m["role"] == "tool" for m in session.messages)


def test_same_seed_same_bytes_whatever_the_size() -> None:
    for messages in (61, 777):
        a, b = make_session(seed=6, messages=messages), make_session(seed=6, messages=messages)
        assert json.dumps(a.messages) == json.dumps(b.messages) and a.facts == b.facts and a.pasted == b.pasted
        assert len(a.messages) == messages
