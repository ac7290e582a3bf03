"""The container-terminal session generator (bench/gen_port.py): a yard planner on the Maasvlakte and their agent, in
Dutch and English. The shared contract (sizes, determinism, exact sizes, counts, values new and out of the filler,
carriers, errors, corrections, decisions, early rules) checked for this module, plus what the domain promises: pasted
documents listed exactly and full of others' imperatives, rules in both languages and in several styles, errors that
look like Maven, Oracle, EDIFACT, Kafka and PLC output, findings explained next, files written by one edit call."""

from __future__ import annotations

import json
import random
import re
import sys
import time
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import gen_port
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
from gen_port import KINDS, MIN_MESSAGES, TOOLS, make_session, per_kind
from sessiongen import Session, text_of

STALE_REACH = 12
SIZES = [60, 61, 121, 160, 400, 401, 777, 1700, 3000]
DUTCH = re.compile(r"\b(nooit|altijd|vanaf nu|liever|zolang|als|we doen|dus|niet|eerst|klopt|wacht)\b", re.I)
ENGLISH = re.compile(r"\b(never|I'd rather|if|always|don't|go|nothing|so for us|also)\b", re.I)
IMPERATIVE = re.compile(r"\b(please|kindly|must|shall|do not|don't|dienen|dient|gelieve|mogen niet|worden verzocht|"
                        r"neem|meld|zet|kunnen jullie|stuur|eerst|DO NOT|HANDLE|KEEP)\b", re.I)


@cache
def built(seed: int, messages: int) -> Session:
    """One session per (seed, size), shared by the tests that only read it."""
    return make_session(seed=seed, messages=messages)


def texts(session: Session) -> list[str]:
    return [text_of(m) for m in session.messages]


def pasted_text(session: Session, index: int) -> str:
    return "".join(doc for i, doc in session.pasted if i == index)


# --- the shared contract, for this module ----------------------------------------------------------------------------

def test_a_session_below_the_smallest_is_refused() -> None:
    """Below MIN_MESSAGES the generator refuses instead of cutting the session short; the smallest is made whole."""
    for messages in (0, 10, MIN_MESSAGES - 1):
        with pytest.raises(ValueError):
            make_session(seed=1, messages=messages)
    assert len(make_session(seed=1, messages=MIN_MESSAGES).messages) == MIN_MESSAGES


def test_the_global_random_state_does_not_leak_into_a_session() -> None:
    """However the random module is seeded, a session comes out the same."""
    random.seed(1)
    a = make_session(seed=4, messages=400)
    random.seed(99)
    random.random()
    b = make_session(seed=4, messages=400)
    assert json.dumps(a.messages) == json.dumps(b.messages) and a.facts == b.facts and a.pasted == b.pasted


def test_same_seed_same_session_another_seed_another() -> None:
    """The same seed and size give the same bytes; another seed gives another session."""
    a, b = make_session(seed=2, messages=400), make_session(seed=2, messages=400)
    assert json.dumps(a.messages) == json.dumps(b.messages) and a.facts == b.facts and a.pasted == b.pasted
    other = make_session(seed=3, messages=400)
    assert json.dumps(a.messages) != json.dumps(other.messages) and a.facts != other.facts
    assert a.seed == 2 and other.seed == 3


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6, 7, 11])
def test_sizes_match_the_bench_conventions_for_any_seed(seed: int) -> None:
    """400 messages are 500k-700k characters and 3000 are 4.2M-5.5M, whatever the seed."""
    small, large = built(seed, 400), built(seed, 3000)
    assert len(small.messages) == 400 and len(large.messages) == 3000
    assert 500_000 <= small.chars() <= 700_000
    assert 4_200_000 <= large.chars() <= 5_500_000


def test_generation_is_fast() -> None:
    """3000 messages take well under three seconds."""
    start = time.perf_counter()
    make_session(seed=11, messages=3000)
    assert time.perf_counter() - start < 3.0


@pytest.mark.parametrize("messages", SIZES)
def test_any_size_comes_out_exact(messages: int) -> None:
    """Odd and even sizes give exactly the messages and facts asked for, well formed, ending on a user turn right
    after an answer without calls, every fact between 3% and 88% of the session."""
    session = built(1, messages)
    assert len(session.messages) == messages
    assert_chat_format(session, TOOLS)
    assert_counts(session, KINDS, per_kind(messages))
    assert all(0.03 * messages <= f.index <= 0.88 * messages for f in session.facts)


@pytest.mark.parametrize("messages", [121, 160, 400, 401, 777, 1700])
def test_any_size_keeps_its_values_new_and_out_of_the_filler(messages: int) -> None:
    """From 120 messages on, a value is new where planted and stays out of the filler."""
    session = built(1, messages)
    assert_values_new(session, per_kind)
    assert_out_of_filler(session, stale_reach=STALE_REACH)


@pytest.mark.parametrize("messages", [400, 3000])
@pytest.mark.parametrize("seed", [5, 8, 13])
def test_values_are_new_where_planted_and_absent_before(seed: int, messages: int) -> None:
    """A value (and a stale value) first occurs in its own message and stays within its episode."""
    session = built(seed, messages)
    assert_values_new(session, per_kind)
    assert_out_of_filler(session, stale_reach=STALE_REACH)


def test_six_of_each_kind_at_400_twelve_at_3000() -> None:
    """1 at 60, 6 at 400, 8-10 at 1700, 12 at 3000, never falling, at least one."""
    assert_counts(built(5, 400), KINDS, 6)
    assert_counts(built(5, 3000), KINDS, 12)
    assert per_kind(60) == 1 and per_kind(400) == 6 and per_kind(3000) == 12 and 8 <= per_kind(1700) <= 10
    sizes = [per_kind(m) for m in range(60, 6001, 20)]
    assert sizes == sorted(sizes) and min(sizes) >= 1
    assert per_kind(120) >= 2  # from 120 on a revised and a standing decision both fit


def test_counts_keep_growing_beyond_3000() -> None:
    """Longer sessions plant more of each kind, and still keep every promise."""
    assert per_kind(3000) < per_kind(4500) < per_kind(6000)
    session = make_session(seed=3, messages=4500)
    assert len(session.messages) == 4500
    assert_counts(session, KINDS, per_kind(4500))
    assert_values_new(session, per_kind)
    assert_out_of_filler(session, stale_reach=STALE_REACH)
    assert len({f.query for f in session.facts}) == len(session.facts)


@pytest.mark.parametrize("messages", [60, 61, 62, 63, 65, 70, 94, 99])
def test_small_sessions_are_whole_for_many_seeds(messages: int) -> None:
    """Near the smallest size every seed still gives an exact, well-formed session that calls every tool."""
    for seed in range(1, 21):
        session = make_session(seed=seed, messages=messages)
        assert len(session.messages) == messages
        assert_chat_format(session, TOOLS)
        assert_counts(session, KINDS, per_kind(messages))
        assert all(0.03 * messages <= f.index <= 0.88 * messages for f in session.facts)


ROLES = {"instruction": {"user"}, "correction": {"user"}, "decision": {"user"}, "plan": {"user"},
         "file": {"assistant"}, "finding": {"tool"}, "error": {"tool"}, "identifier": {"tool", "user"}}


@pytest.mark.parametrize("messages", [400, 3000])
def test_carriers_and_placement(messages: int) -> None:
    """Facts sit in the messages their kind comes from, spread over all three thirds of the session."""
    session = built(5, messages)
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
    carriers = Counter(session.messages[f.index]["role"] for f in facts(session, "identifier"))
    assert carriers["tool"] and carriers["user"]
    thirds = Counter(min(2, f.index * 3 // n) for f in session.facts)
    assert len(thirds) == 3 and min(thirds.values()) >= len(session.facts) // 6


@pytest.mark.parametrize("messages", [400, 3000])
def test_errors_are_exact_lines_and_some_are_resolved(messages: int) -> None:
    """An error is a whole line of its tool's output; some are resolved by a later run of the same tool whose output
    no longer holds the line, some are not; nothing else is resolved."""
    session = built(5, messages)
    errors = facts(session, "error")
    for fact in errors:
        assert fact.value in session.messages[fact.index]["content"].splitlines(), fact
        if fact.resolved is not None:
            later = session.messages[fact.resolved]
            assert fact.resolved > fact.index and later["role"] == "tool" and fact.value not in later["content"]
            assert later["name"] == session.messages[fact.index]["name"]
    assert 0 < sum(f.resolved is not None for f in errors) < len(errors)
    assert all(f.resolved is None for f in session.facts if f.kind != "error")


def test_resolved_errors_pass_on_the_rerun() -> None:
    """The rerun that resolves an error reads like a pass: BUILD SUCCESS, commit, ACCEPTED, no alarm, all green."""
    passes = re.compile(r"BUILD SUCCESS|Commit complete|import: ACCEPTED|0 errors|passed in|ASC-\d+[AB] INFO")
    for seed in (5, 8):
        session = built(seed, 3000)
        for fact in facts(session, "error"):
            if fact.resolved is not None:
                assert passes.search(session.messages[fact.resolved]["content"]), fact


@pytest.mark.parametrize("seed", [5, 8, 13])
def test_corrections_are_loose_and_near_misses(seed: int) -> None:
    """Half or more of the corrections are near misses of what they replace, several come 100+ messages later."""
    session = built(seed, 3000)
    corrections = facts(session, "correction")
    close = far = 0
    for fact in corrections:
        assert fact.stale is not None and fact.stale_index is not None
        same = sum(a == b for a, b in zip(fact.value, fact.stale))
        close += same >= len(fact.value) // 2
        far += fact.index - fact.stale_index > 100
    assert close >= len(corrections) // 2 and far >= 4


def test_corrections_are_casual_in_both_languages_some_inside_a_long_message() -> None:
    """Corrections read the way people write them ("nee wacht", "scratch that"), in Dutch and in English, and some
    sit in the middle of a long message about other things."""
    casual = re.compile(r"nee wacht|toch niet|sorry|btw|oh|shit|laat maar|hmm|klein dingetje|my bad|scratch that|"
                        r"actually|ah no", re.I)
    langs, middle = Counter[str](), 0
    for seed in (5, 8):
        session = built(seed, 3000)
        for fact in facts(session, "correction"):
            text = content(session, fact.index)
            assert casual.search(text), text
            assert fact.stale in text or fact.value in text
            langs["nl" if re.search(r"\b(het|niet|de|van|maar)\b", text) else "en"] += 1
            paragraphs = text.split("\n\n")
            middle += len(paragraphs) == 3 and fact.value in paragraphs[1] and len(text) > 250
    assert langs["nl"] and langs["en"] and middle >= 2


@pytest.mark.parametrize("messages", [121, 400, 3000])
def test_a_third_of_the_decisions_revise_the_users_own_earlier_choice(messages: int) -> None:
    """A third of the decisions (at least one) revise a choice the user made earlier in their own message."""
    session = built(5, messages)
    decisions = facts(session, "decision")
    revised = [f for f in decisions if f.stale is not None]
    assert len(revised) == max(1, len(decisions) // 3)
    for fact in revised:
        assert fact.stale_index is not None and fact.stale_index < fact.index
        assert session.messages[fact.stale_index]["role"] == "user" and fact.stale in content(session, fact.stale_index)
        assert session.messages[fact.index]["role"] == "user" and fact.value in content(session, fact.index)


@pytest.mark.parametrize("messages", [121, 160, 400, 777, 3000])
def test_the_first_rules_come_early_in_the_users_own_words(messages: int) -> None:
    """The first two standing rules come within the first tenth and seventh, and neither is from a pasted document."""
    session = built(5, messages)
    adopted = [f for f in facts(session, "instruction") if pasted_text(session, f.index)]
    assert_first_rules_early(session, messages, adopted)


# --- the domain ------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("messages", [400, 3000])
def test_pasted_documents_are_listed_exactly(messages: int) -> None:
    """Every pasted document is listed with its user message and occurs there verbatim, with the user's own words
    around it."""
    session = built(5, messages)
    assert session.pasted
    for index, doc in session.pasted:
        message = session.messages[index]
        assert message["role"] == "user" and doc in message["content"]
        assert message["content"] != doc and len(doc) > 200
    assert len({i for i, _ in session.pasted}) == len(session.pasted)


def test_pasted_documents_hold_others_imperatives() -> None:
    """Each paste carries someone else's orders (a line's "Please ensure", the harbour master's "dienen",
    a BAPLIE "DO NOT", a report's "must"), none of them a planted instruction."""
    session = built(5, 3000)
    for _index, doc in session.pasted:
        assert IMPERATIVE.search(doc), doc[:200]
        assert not any(f.value in doc for f in session.facts), doc[:200]


def test_pasted_documents_are_the_terminals_paperwork() -> None:
    """Over a long session the user pastes a shipping line's mail, the Havenbedrijf's notice, the CAO, a BAPLIE, the
    customs memo, a Teams export and an incident report."""
    docs = "\n".join(doc for seed in (5, 8) for _, doc in built(seed, 3000).pasted)
    for marker in ("Marine Operations Europe", "HAVENBEDRIJF ROTTERDAM", "CAO Containerterminals",
                   "UNH+1+BAPLIE", "Douane Rotterdam Haven", "(Shiftleider Noord)", "INCIDENT REPORT"):
        assert marker in docs, marker


def test_adopted_rules_are_restated_outside_the_paste() -> None:
    """When the user adopts a rule from a pasted document, the rule's value is in their own words, not the paste."""
    adopted = 0
    for seed in (5, 8, 13):
        session = built(seed, 3000)
        for fact in facts(session, "instruction"):
            doc = pasted_text(session, fact.index)
            if doc:
                adopted += 1
                assert fact.value not in doc
                assert fact.value in content(session, fact.index).replace(doc, "")
    assert adopted >= 3


def test_rules_come_in_both_languages() -> None:
    """The user sets rules in Dutch ("we doen nooit", "vanaf nu", "zolang") and in English ("I'd rather", "if")."""
    for seed in (5, 8):
        session = built(seed, 400)
        langs = Counter[str]()
        for fact in facts(session, "instruction"):
            text = content(session, fact.index).replace(pasted_text(session, fact.index), "")
            langs["nl"] += bool(DUTCH.search(text) and re.search(r"\b(we|je|de|het)\b", text))
            langs["en"] += bool(ENGLISH.search(text) and re.search(r"\b(the|you|a)\b", text))
        assert langs["nl"] >= 2 and langs["en"] >= 2, langs


def test_rules_come_in_several_styles() -> None:
    """Indirect rules, conditional ones ("als ..., dan", "if ..."), and rules in a message's second paragraph after an
    unrelated request, without a strong word."""
    session = built(5, 400)
    rules = [content(session, f.index) for f in facts(session, "instruction")]
    assert any(re.search(r"we doen nooit|liever niet|zolang|I'd rather|we never", t) for t in rules)
    assert any(re.search(r"^(Als|If) ", t, re.M) for t in rules)
    second = [t for t in rules if len(t.split("\n\n")) == 2 and "?" in t.split("\n\n")[0]]
    assert second and not any(re.search(r"never|always|nooit|altijd|must", t.split("\n\n")[1], re.I) for t in second)


def test_instruction_values_are_short_exact_pieces_of_the_rule() -> None:
    """A rule's value is a short distinctive substring (a window, a SID, a flag, a number with its unit)."""
    for fact in facts(built(5, 3000), "instruction"):
        assert 5 <= len(fact.value) <= 50, fact
        assert re.search(r"\d", fact.value), fact


def test_errors_look_like_real_tool_output() -> None:
    """Errors are Surefire failures, "Caused by:" lines, ORA- errors, EDIFACT validation, Kafka consumer errors,
    PLC alarms and pytest failures, in the output of the tool that prints them."""
    shapes = {"mvn": r"^\[ERROR\]   \w+Test\.\w+:\d+ expected: <.+> but was: <.+>$|^Caused by: java\.\S+: ",
              "sqlplus": r"^ORA-\d{5}: ", "edi_inspect": r"^ERROR seg \d{4} LOC\+147\+\d{7}::5' ",
              "kafka_tail": r"^\d{4}-\d\d-\d\dT[\d:.]+Z ERROR \[gate-tx-projector\] ",
              "plc_log": r"^\d{4}-\d\d-\d\d [\d:.]+ ASC-\d+[AB] ALARM \d+ TWISTLOCK_NOT_LOCKED ",
              "shell": r"^FAILED tests/\S+::\S+ - AssertionError: "}
    seen = set()
    for seed in (5, 8, 13):
        session = built(seed, 3000)
        for fact in facts(session, "error"):
            name = session.messages[fact.index]["name"]
            seen.add(name)
            assert re.search(shapes[name], fact.value), fact
            out = session.messages[fact.index]["content"]
            assert re.search(r"BUILD FAILURE|ERROR at line|REJECTED|stopped: 1 error|AUTO_MODE_OFF|1 failed", out)
    assert len(seen) >= 5


def test_findings_are_explained_in_the_next_assistant_message() -> None:
    """A finding (a config value, a measurement, a root cause) is explained by the agent right after the tool says it."""
    for seed in (5, 8):
        session = built(seed, 3000)
        for fact in facts(session, "finding"):
            after = session.messages[fact.index + 1]
            assert after["role"] == "assistant" and not after.get("tool_calls")
            assert fact.value in after["content"]


def test_files_are_written_by_one_edit_call() -> None:
    """A planted file is a new path written by one edit_file call (empty old_string, the whole content new)."""
    for seed in (5, 8):
        session = built(seed, 3000)
        for fact in facts(session, "file"):
            (call,) = session.messages[fact.index]["tool_calls"]
            args = json.loads(call["function"]["arguments"])
            assert call["function"]["name"] == "edit_file" and args["path"] == fact.value
            assert args["old_string"] == "" and len(args["new_string"]) > 80
            result = session.messages[fact.index + 1]
            assert result["role"] == "tool" and result["content"].startswith(f"Created {fact.value}")
            assert re.search(r"\.(java|sql|xml|py|json|yaml)$", fact.value)


def _valid_container(number: str) -> bool:
    return gen_port._check_digit(number[:10]) == int(number[10])


def test_identifiers_are_the_terminals_ids() -> None:
    """Identifiers are container numbers with a valid check digit, yard slots, vessel calls, berths, EDI interchange
    refs and Oracle SIDs, some said by the user and some printed by a tool."""
    pattern = re.compile(r"^([A-Z]{4}\d{7}|blok \d+, rij \d+, laag \d|[A-Z]{4}-\d{3}[EW]|[A-Z]{3}-\d\d|\d{10}|"
                         r"YRD[A-Z]{3}\d\d)$")
    kinds = Counter[str]()
    for seed in (5, 8):
        session = built(seed, 3000)
        for fact in facts(session, "identifier"):
            assert pattern.match(fact.value), fact
            if re.match(r"^[A-Z]{4}\d{7}$", fact.value):
                assert _valid_container(fact.value), fact
            kinds[session.messages[fact.index]["role"]] += 1
    assert kinds["user"] >= 6 and kinds["tool"] >= 6


@pytest.mark.parametrize("messages", [400, 3000])
def test_queries_differ_and_lack_the_value(messages: int) -> None:
    """Every fact has its own query, which paraphrases it without its value (or its stale value)."""
    session = built(5, messages)
    queries = [f.query for f in session.facts]
    assert len(set(queries)) == len(queries)
    for fact in session.facts:
        assert fact.value not in fact.query and (fact.stale is None or fact.stale not in fact.query)
        assert len(fact.query) > 15


@pytest.mark.parametrize("messages", [400, 3000])
def test_tool_outputs_carry_most_of_the_characters(messages: int) -> None:
    """Logs, query results, segments and events make up most of the session."""
    session = built(5, messages)
    tool = sum(len(m["content"]) for m in session.messages if m["role"] == "tool")
    assert tool > 0.7 * session.chars()


@pytest.mark.parametrize("messages", [60, 61, 121, 400, 3000])
def test_every_tool_is_called(messages: int) -> None:
    """Each of the agent's tools is called in every session from the smallest on."""
    for seed in (1, 2, 3):
        session = built(seed, messages)
        used = Counter(c["function"]["name"] for m in session.messages for c in m.get("tool_calls") or [])
        assert set(used) == set(TOOLS)


def test_tool_results_answer_their_calls_with_the_same_name() -> None:
    """Every tool message answers the call right before it, with the call's name; ids are unique, arguments JSON."""
    session = built(5, 3000)
    ids = [c["id"] for m in session.messages for c in m.get("tool_calls") or []]
    assert len(ids) == len(set(ids))
    for i, m in enumerate(session.messages):
        if m["role"] == "tool":
            call = call_of(session, i)
            assert call["name"] == m["name"]
            assert isinstance(json.loads(call["arguments"]), dict)
            previous = session.messages[i - 1]
            assert previous["role"] == "tool" or previous.get("tool_calls")


def test_plans_are_written_in_prose_in_both_languages() -> None:
    """Plans read "eerst ..., dan ..., en daarna ..." or "first ..., then ..., and after that ..."."""
    langs = Counter[str]()
    for seed in (5, 8):
        for fact in facts(built(seed, 3000), "plan"):
            text = content(built(seed, 3000), fact.index)
            nl = re.search(r"[Ee]erst .+, (dan|daarna) .+", text)
            en = re.search(r"[Ff]irst .+, then .+", text)
            assert nl or en, text
            langs["nl" if nl else "en"] += 1
    assert langs["nl"] and langs["en"]


def test_decisions_give_their_reason() -> None:
    """A decision says why ("want", "because", "since", "Reden:")."""
    for fact in facts(built(5, 3000), "decision"):
        assert re.search(r"\b(want|because|since|Reden)\b", content(built(5, 3000), fact.index))


def test_the_user_chats_like_a_dutch_engineer() -> None:
    """The user's own messages use "nee wacht", "laat maar", "klopt", "even checken", "hè", "dus", "toch niet"."""
    words = ("nee wacht", "laat maar", "klopt", "even checken", "hè", "dus", "toch niet")
    user = "\n".join(str(m["content"]) for seed in (5, 8) for m in built(seed, 3000).messages if m["role"] == "user")
    assert sum(w in user for w in words) >= 5


def test_the_filler_is_the_noise_a_compactor_can_get_wrong() -> None:
    """Between the facts: one-off requests, thanks, clock times, file:line references, JSON fragments, stray ids."""
    session = built(5, 3000)
    user = [str(m["content"]) for m in session.messages if m["role"] == "user"]
    assert any(re.search(r"\b(kun je|can you)\b", t) for t in user)
    assert any(re.fullmatch(r"(top, dank je|thanks!|nice, werkt)", t) for t in user)
    assert any(re.search(r"\b\d\d:\d\d\b", t) for t in user)
    assert any(re.search(r"\w+\.java:\d+", t) for t in user)
    assert any(re.search(r"\{\"\w+\": ", t) for t in user)
    assert any(re.search(r"\b(job id \d{6}|TOS-\d{4})\b", t) for t in user)


def test_tool_outputs_speak_the_terminals_formats() -> None:
    """Maven/Surefire, SQL*Plus, UN/EDIFACT segments, Kafka records, PLC events and Grafana tables all occur."""
    session = built(5, 400)
    out = "\n".join(m["content"] for m in session.messages if m["role"] == "tool")
    for marker in ("Tests run:", "BUILD SUCCESS", "SQL*Plus: Release 19", "rows selected.", "LOC+147+", "EQD+CN+",
                   "gate.transactions.v3 [", "SPREADER_LOCK", "turnaround_p95"):
        assert marker in out, marker


def test_noise_container_numbers_carry_valid_check_digits() -> None:
    """The container numbers in query results and EDI segments are real ISO 6346 numbers."""
    session = built(5, 400)
    out = "\n".join(m["content"] for m in session.messages if m["role"] == "tool")
    numbers = set(re.findall(r"\b[A-Z]{3}U\d{7}\b", out))
    assert len(numbers) > 100 and all(_valid_container(n) for n in numbers)
