"""What bench/gen_mobile.py promises of its own domain (the shared contract is in test_generators_contract.py): a
founder in São Paulo who writes Portuguese, English and both, the agent's eight tools each answered at once by a
result naming it, pasted material that is somebody else's and never his rule, the studio documents he adopts as his
own, errors as whole lines that a later run of the very same command clears, corrections said loosely and far from
the stale value he gave, and files written in a single call."""

from __future__ import annotations

import json
import re
import sys
from functools import cache
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import gen_mobile
from generator_contract import assert_chat_format, assert_first_rules_early, call_of, content, facts
from sessiongen import Fact, Session

SEEDS = (5, 8, 13)
PORTUGUESE = re.compile(r"\b(pfv|vlw|blz|tmj|não|então|tá|pra|roda|olha|bora|isso|agora|depois|vê|também|aqui|esse|é|"
                        r"quando|valeu|mexi|nosso|tão|sempre|errei|opa|troquei|qual)\b")
ENGLISH = re.compile(r"\b(the|pls|please|run|what|can|and|is|for|now|it|on|with)\b")
SLANG = ("vlw", "blz", "pfv", "tmj")
HIS_KINDS = ("instruction", "correction", "decision", "plan")
# Each pasted source by a mark of its own, and what its author tells others to do.
SOURCES = {"Guideline ": "apple", "Handoff — frame": "figma", "[BUG]": "qa", "★☆☆☆☆": "review", "Caio Mendes": "slack",
           "[Sentry]": "sentry"}
IMPERATIVE = re.compile(r"\b(you must|you should|please|make sure|precisam|favor|não usar|não fechar|arrumem|do not)\b", re.I)


@cache
def session(seed: int, messages: int) -> Session:
    return gen_mobile.make_session(seed=seed, messages=messages)


def his_words(s: Session) -> list[str]:
    """His messages with what he pasted taken out."""
    pasted = dict(s.pasted)
    return [content(s, i).replace(pasted.get(i, "\0"), "") for i, m in enumerate(s.messages) if m["role"] == "user"]


def adopted(s: Session) -> list[Fact]:
    """The instructions planted in a studio document he adopted."""
    docs = (gen_mobile.CHECKLIST, gen_mobile.CONVENTIONS)
    return [f for f in facts(s, "instruction") if any(all(rule in content(s, f.index) for rule in doc) for doc in docs)]


def test_twelve_of_each_kind_from_3000_on() -> None:
    """Beyond 3000 messages a session keeps twelve facts of each kind."""
    assert {gen_mobile.per_kind(m) for m in range(3000, 8001, 250)} == {12}
    s = gen_mobile.make_session(seed=2, messages=3600)
    assert len(s.messages) == 3600 and all(len(facts(s, k)) == 12 for k in gen_mobile.KINDS)


@pytest.mark.parametrize("messages", [60, 61, 121, 400, 3000])
@pytest.mark.parametrize("seed", SEEDS)
def test_every_tool_is_used_and_each_call_answered_at_once(seed: int, messages: int) -> None:
    """All eight tools appear; each assistant call is followed right away by its results, in order, each naming the
    function it answers, with JSON object arguments."""
    s = session(seed, messages)
    assert_chat_format(s, gen_mobile.TOOLS)
    for i, m in enumerate(s.messages):
        calls = m.get("tool_calls") or []
        for j, call in enumerate(calls):
            answer = s.messages[i + 1 + j]
            assert answer["role"] == "tool" and answer["tool_call_id"] == call["id"], (i, j)
            assert answer["name"] == call["function"]["name"] and answer["content"]
            assert isinstance(json.loads(call["function"]["arguments"]), dict)
        if m["role"] == "tool":
            assert s.messages[i - 1]["role"] in ("assistant", "tool")


@pytest.mark.parametrize("messages", [400, 3000])
@pytest.mark.parametrize("seed", SEEDS)
def test_he_writes_portuguese_english_and_both(seed: int, messages: int) -> None:
    """A quarter or more of his messages are Portuguese, a fifth or more English, some mix both in one message; his
    phone slang shows up (all four words in a long session)."""
    words = his_words(session(seed, messages))
    pt = [w for w in words if PORTUGUESE.search(w)]
    en = [w for w in words if ENGLISH.search(w)]
    both = [w for w in words if PORTUGUESE.search(w) and ENGLISH.search(w)]
    assert len(pt) >= len(words) / 4 and len(en) >= len(words) / 5 and len(both) >= len(words) / 50
    slang = {w for w in SLANG if any(re.search(rf"\b{w}\b", text) for text in words)}
    assert len(slang) >= (4 if messages >= 3000 else 2)


@pytest.mark.parametrize("messages", [121, 400, 3000])
@pytest.mark.parametrize("seed", SEEDS)
def test_pasted_spans_are_somebody_elses_and_hold_none_of_his_rules(seed: int, messages: int) -> None:
    """Each pasted span sits in his message at its index, beside words of his own, speaks with its author's
    imperatives, and holds no value of his (rules, corrections, decisions, plans) nor any other planted value; at 400
    messages each of the six sources is pasted once."""
    s = session(seed, messages)
    values = [f.value for f in s.facts] + [f.stale for f in s.facts if f.stale]
    sources = []
    for i, text in s.pasted:
        assert s.messages[i]["role"] == "user" and text in content(s, i) and content(s, i).strip() != text.strip()
        assert IMPERATIVE.search(text), text[:80]
        assert not any(v in text for v in values)
        sources.append(next(name for mark, name in SOURCES.items() if mark in text))
    if messages == 400:
        assert sorted(sources) == sorted(SOURCES.values())
    assert len(s.pasted) == max(2, round(6 * (messages / 400) ** 0.55))
    his = [f for f in s.facts if f.kind in HIS_KINDS]
    assert his and not any(f.index == i for f in his for i, _ in s.pasted)


@pytest.mark.parametrize("messages", [400, 3000])
@pytest.mark.parametrize("seed", SEEDS)
def test_adopted_documents_are_his_and_a_middle_rule_is_planted(seed: int, messages: int) -> None:
    """One studio document at 400 messages, two at 3000: each in a message of his that adopts it, not in
    ``pasted``; its planted rule is an instruction sitting in the middle of the numbered rules."""
    s = session(seed, messages)
    docs = adopted(s)
    assert len(docs) == (2 if messages >= 1000 else 1)
    pasted_at = {i for i, _ in s.pasted}
    for fact in docs:
        text = content(s, fact.index)
        assert s.messages[fact.index]["role"] == "user" and fact.index not in pasted_at
        assert not any(text in p or p in text for _, p in s.pasted)
        assert re.search(r"from now on|a partir de agora|daqui pra frente|segue isso sempre", text)
        rules = [line for line in text.splitlines() if re.match(r"\d+\. ", line)]
        at = next(n for n, line in enumerate(rules) if fact.value in line)
        assert len(rules) == 8 and 2 <= at <= len(rules) - 3


@pytest.mark.parametrize("messages", [400, 3000])
@pytest.mark.parametrize("seed", SEEDS)
def test_first_instructions_come_early(seed: int, messages: int) -> None:
    """His first two standing rules come within the first tenth and the first seventh of the session, and neither
    is a document."""
    s = session(seed, messages)
    assert_first_rules_early(s, messages, adopted(s))


@pytest.mark.parametrize("messages", [121, 400, 3000])
@pytest.mark.parametrize("seed", SEEDS)
def test_errors_are_whole_lines_cleared_by_the_same_command_run_again(seed: int, messages: int) -> None:
    """An error is a whole line of a tool's output. Half of them (rounded down) are resolved: a later result of the
    same tool called with the same arguments, which no longer has the line; at 3000 messages some are fixed and run
    again at once, some later on his word."""
    s = session(seed, messages)
    errors = facts(s, "error")
    resolved = [f for f in errors if f.resolved is not None]
    assert len(resolved) == len(errors) // 2
    for fact in errors:
        assert fact.value in content(s, fact.index).splitlines(), fact
    for fact in resolved:
        assert fact.resolved is not None and fact.resolved > fact.index
        assert s.messages[fact.resolved]["role"] == "tool" and fact.value not in content(s, fact.resolved)
        assert call_of(s, fact.resolved) == call_of(s, fact.index)
    if messages == 3000:
        gaps = {f.resolved - f.index for f in resolved if f.resolved is not None}
        assert min(gaps) == 4 and max(gaps) > 8


@pytest.mark.parametrize("seed", SEEDS)
def test_corrections_are_his_loose_far_and_near_misses(seed: int) -> None:
    """A correction's stale value is his own, said in his message at ``stale_index``; the correction is his too;
    in a long session several come 100+ messages later, and half or more are near misses of what they replace."""
    s = session(seed, 3000)
    corrections = facts(s, "correction")
    close = far = 0
    for fact in corrections:
        assert fact.stale is not None and fact.stale_index is not None
        assert s.messages[fact.stale_index]["role"] == "user" and fact.stale in content(s, fact.stale_index)
        assert s.messages[fact.index]["role"] == "user" and fact.value in content(s, fact.index)
        close += sum(a == b for a, b in zip(fact.value, fact.stale)) >= len(fact.value) // 2
        far += fact.index - fact.stale_index > 100
    assert close >= len(corrections) // 2 and far >= 4


@pytest.mark.parametrize("messages", [400, 3000])
def test_files_are_written_or_patched_by_path_in_one_call(messages: int) -> None:
    """A file fact's message makes exactly one write or patch call whose path is the value, and its result names
    the path right after."""
    s = session(8, messages)
    for fact in facts(s, "file"):
        (call,) = s.messages[fact.index]["tool_calls"]
        assert call["function"]["name"] in ("write", "patch")
        assert json.loads(call["function"]["arguments"])["path"] == fact.value
        assert fact.value in content(s, fact.index + 1)


@pytest.mark.parametrize("seed", SEEDS)
def test_build_outputs_end_like_their_tools(seed: int) -> None:
    """Every xcodebuild result ends on its verdict, every Gradle result says BUILD SUCCESSFUL or BUILD FAILED, every
    crash report has a crashed thread and binary images."""
    s = session(seed, 3000)
    seen = set()
    for i, m in enumerate(s.messages):
        if m["role"] != "tool":
            continue
        call = call_of(s, i)
        args = json.loads(call["arguments"])
        cmd = args["cmd"] if call["name"] == "shell" else ""
        text = content(s, i)
        if "xcodebuild" in cmd and "showBuildTimingSummary" not in cmd:
            seen.add("xcode")
            assert text.rstrip().splitlines()[-1].startswith("** BUILD SUCCEEDED **") or "** BUILD FAILED **" in text
        if "gradlew assemble" in cmd or "gradlew bundle" in cmd:
            seen.add("gradle")
            assert "BUILD SUCCESSFUL in " in text or "BUILD FAILED in " in text
        if call["name"] == "simulator" and args["action"] == "crash_report":
            seen.add("crash")
            assert "Thread 0 Crashed:" in text and "Binary Images:" in text
    assert seen == {"xcode", "gradle", "crash"}


def test_queries_are_questions_about_what_was_planted() -> None:
    """Every fact comes with a question that ends in a question mark and never gives its value away."""
    s = session(13, 3000)
    for fact in s.facts:
        assert fact.query.endswith("?") and fact.value not in fact.query
        assert fact.stale is None or fact.stale not in fact.query
