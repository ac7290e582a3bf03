"""What bench/gen_monorepo.py promises of its own domain (the shared contract is in test_generators_contract.py): a
senior developer in Berlin who writes terse lowercase English with typos and German lines, a Claude-Code-style agent
whose eight tools are called with Claude Code's argument names in long loops, pasted material that is somebody else's
and never his rule, the documents and review points he adopts as his own, rules said in many forms, errors as whole
lines that a later run of the very same command clears, corrections said loosely and far from the stale value he
gave, files written in a single call, findings answered in the agent's own words, and outputs full of look-alikes."""

from __future__ import annotations

import json
import re
import statistics
import sys
from functools import cache
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import gen_monorepo
from generator_contract import assert_chat_format, assert_first_rules_early, call_of, content, facts
from sessiongen import Fact, Session

SEEDS = (5, 8, 13)
ROOT = gen_monorepo.ROOT
GERMAN = re.compile(r"\b(bitte|mach|mal|schau|guck|passt|danke|genau|nicht|keine|übrigens|noch|erst|dann|danach|zum schluss|nee|"
                    r"falsch|ist|hab|statt|nehmen|lass uns|ab jetzt|gilt|unser|moin|gestern|egal|läuft|stimmt|mist|ach so|moment|"
                    r"alles klar|jo|Abhängigkeiten|Rückfrage|kein|auf|für|immer|nie|wenn)\b")
HIS_KINDS = ("instruction", "correction", "decision", "plan")
# Each pasted source by a mark of its own, and whether its author tells others what to do.
SOURCES = {"##[error]Process completed": "ci", "[Sentry] New issue": "sentry", "hey @jonas": "slack", "requested changes on #": "review",
           "goroutine ": "trace", "Idempotency-Key": "rfc", '"name": "@hafen/api-client"': "package", "| benchmark |": "bench"}
IMPERATIVE = re.compile(r"(?i)\b(please|make sure|must|should|don't|can you|could you|we need|must:|you should)\b")
ARGS = {"Read": ({"file_path"}, {"offset", "limit"}), "Edit": ({"file_path", "old_string", "new_string"}, {"replace_all"}),
        "Write": ({"file_path", "content"}, set()), "Bash": ({"command", "description"}, {"timeout"}),
        "Grep": ({"pattern"}, {"path", "output_mode", "-n", "glob"}), "Glob": ({"pattern"}, {"path"}), "TodoWrite": ({"todos"}, set()),
        "WebFetch": ({"url", "prompt"}, set())}


@cache
def session(seed: int, messages: int) -> Session:
    return gen_monorepo.make_session(seed=seed, messages=messages)


def his_words(s: Session, i: int) -> str:
    """His message ``i`` with what he pasted taken out."""
    text = content(s, i)
    for j, p in s.pasted:
        if j == i:
            text = text.replace(p, "")
    return text


def his_messages(s: Session) -> list[str]:
    return [his_words(s, i) for i, m in enumerate(s.messages) if m["role"] == "user"]


def adopted(s: Session) -> list[Fact]:
    """The instructions planted in a document he adopted (CONTRIBUTING.md or an ADR)."""
    return [f for f in facts(s, "instruction") if "# Contributing to hafen" in content(s, f.index) or "# ADR-00" in content(s, f.index)]


def test_twelve_of_each_kind_from_3000_on() -> None:
    """Beyond 3000 messages a session keeps twelve facts of each kind."""
    assert {gen_monorepo.per_kind(m) for m in range(3000, 8001, 250)} == {12}
    s = gen_monorepo.make_session(seed=2, messages=3600)
    assert len(s.messages) == 3600 and all(len(facts(s, k)) == 12 for k in gen_monorepo.KINDS)


@pytest.mark.parametrize("messages", [60, 61, 94, 121, 400, 3000])
@pytest.mark.parametrize("seed", SEEDS)
def test_every_tool_is_used_with_claude_code_arguments_and_answered_at_once(seed: int, messages: int) -> None:
    """All eight tools appear with Claude Code's argument names (paths absolute under the repository); each call is
    answered right away by a result naming its tool, in order; TodoWrite items carry content, status and activeForm."""
    s = session(seed, messages)
    assert_chat_format(s, gen_monorepo.TOOLS)
    for i, m in enumerate(s.messages):
        calls = m.get("tool_calls") or []
        for j, call in enumerate(calls):
            answer = s.messages[i + 1 + j]
            assert answer["role"] == "tool" and answer["tool_call_id"] == call["id"], (i, j)
            assert answer["name"] == call["function"]["name"] and answer["content"]
            name, args = call["function"]["name"], json.loads(call["function"]["arguments"])
            must, may = ARGS[name]
            assert must <= set(args) <= must | may, (name, args)
            if "file_path" in args:
                assert args["file_path"].startswith(ROOT + "/"), args
            if name == "TodoWrite":
                assert args["todos"] and all(set(t) == {"content", "status", "activeForm"} for t in args["todos"])
                assert all(t["status"] in ("pending", "in_progress", "completed") for t in args["todos"])
        if m["role"] == "tool":
            assert s.messages[i - 1]["role"] in ("assistant", "tool")


@pytest.mark.parametrize("seed", SEEDS)
def test_the_agent_runs_long_tool_loops(seed: int) -> None:
    """In a long session a third or more of his turns take 5 calls or more, some 10 or more, none more than 16; some
    calls go out side by side in one message."""
    s = session(seed, 3000)
    turns: list[int] = []
    for m in s.messages[1:]:
        if m["role"] == "user":
            turns.append(0)
        elif m["role"] == "assistant":
            turns[-1] += len(m.get("tool_calls") or [])
    long = [t for t in turns if t >= 5]
    assert len(long) >= len(turns) / 3 and sum(t >= 10 for t in turns) >= 10 and max(turns) <= 16
    assert statistics.median(long) >= 6
    assert sum(len(m.get("tool_calls") or []) >= 2 for m in s.messages) >= 10


@pytest.mark.parametrize("messages", [400, 3000])
@pytest.mark.parametrize("seed", SEEDS)
def test_he_writes_terse_lowercase_with_typos_and_german(seed: int, messages: int) -> None:
    """His own words: mostly lowercase and short, a tenth or more with German in them, some with typos (words that
    no template of the generator has)."""
    words = his_messages(session(seed, messages))
    lower = [w for w in words if w.strip() and w.strip()[0] == w.strip()[0].lower()]
    assert len(lower) >= 0.8 * len(words)
    assert statistics.median(len(w) for w in words) < 90
    assert sum(bool(GERMAN.search(w)) for w in words) >= len(words) / 10
    source = set(re.findall(r"[a-zäöüß]+", Path(gen_monorepo.__file__).read_text(encoding="utf-8")))
    typos = [w for w in words if any(t.isalpha() and len(t) > 3 and t not in source for t in re.findall(r"[a-zäöüß]+", w))]
    assert len(typos) >= max(3, len(words) // 40)


@pytest.mark.parametrize("messages", [121, 400, 3000])
@pytest.mark.parametrize("seed", SEEDS)
def test_pasted_spans_are_somebody_elses_and_hold_none_of_his_values(seed: int, messages: int) -> None:
    """Each pasted span sits in his message at its index, beside words of his own, and holds no planted value nor a
    stale one; reviews, Slack asks, Sentry mails and RFCs speak with their authors' imperatives; at 400 messages each of
    the eight sources is pasted."""
    s = session(seed, messages)
    values = [f.value for f in s.facts] + [f.stale for f in s.facts if f.stale]
    sources = []
    for i, text in s.pasted:
        assert s.messages[i]["role"] == "user" and text in content(s, i) and his_words(s, i).strip()
        assert not any(v in text for v in values)
        source = next(name for mark, name in SOURCES.items() if mark in text)
        if source in ("review", "slack", "rfc", "sentry"):
            assert IMPERATIVE.search(text), text[:120]
        sources.append(source)
    if messages == 400:
        assert set(sources) == set(SOURCES.values())
    his = [f for f in s.facts if f.kind in HIS_KINDS and f not in facts(s, "instruction")]
    assert his and not any(f.index == i for f in his for i, _ in s.pasted)


@pytest.mark.parametrize("messages", [400, 3000])
@pytest.mark.parametrize("seed", SEEDS)
def test_adopted_documents_are_his_and_a_middle_rule_is_planted(seed: int, messages: int) -> None:
    """One team document at 400 messages, two at 3000: each in a message of his that adopts it, not in ``pasted``;
    its planted rule sits in the middle of eight numbered rules."""
    s = session(seed, messages)
    docs = adopted(s)
    assert len(docs) == (2 if messages >= 3000 else 1)
    pasted_at = {i for i, _ in s.pasted}
    for fact in docs:
        text = content(s, fact.index)
        assert fact.index not in pasted_at
        assert re.search(r"from now on|ab jetzt|stick to it|follow it", text)
        rules = [line for line in text.splitlines() if re.match(r"\d+\. ", line)]
        at = next(n for n, line in enumerate(rules) if fact.value in line)
        assert len(rules) == 8 and 2 <= at <= 5


@pytest.mark.parametrize("seed", SEEDS)
def test_his_rules_come_in_many_forms(seed: int) -> None:
    """Over a long session his rules are said in German, as a condition, as a preference, in the second paragraph of a
    longer ask, after something he pasted, and as a reviewer's point he adopts in his own words (the value is in his
    words, never in the review)."""
    s = session(seed, 3000)
    seen = set()
    pasted = dict(s.pasted)
    for fact in facts(s, "instruction"):
        text = content(s, fact.index)
        if fact.index in pasted:
            assert fact.value not in pasted[fact.index] and fact.value in his_words(s, fact.index)
            seen.add("review" if "requested changes on #" in pasted[fact.index] else "after a paste")
        elif fact in adopted(s):
            seen.add("document")
        elif "\n\n" in text and fact.value not in text.split("\n\n")[0]:
            seen.add("second paragraph")
        elif "i'd rather" in text:
            seen.add("preference")
        elif re.match(r"(and )?if ", text):
            seen.add("condition")
        elif GERMAN.search(text):
            seen.add("german")
        else:
            seen.add("plain")
    assert seen >= {"review", "after a paste", "document", "second paragraph", "preference", "condition", "german", "plain"}


@pytest.mark.parametrize("messages", [400, 3000])
@pytest.mark.parametrize("seed", SEEDS)
def test_first_instructions_come_early(seed: int, messages: int) -> None:
    """His first two standing rules come within the first tenth and the first seventh of the session, neither a
    document."""
    s = session(seed, messages)
    assert_first_rules_early(s, messages, adopted(s))


@pytest.mark.parametrize("messages", [121, 400, 3000])
@pytest.mark.parametrize("seed", SEEDS)
def test_errors_are_whole_lines_cleared_by_the_same_command_run_again(seed: int, messages: int) -> None:
    """An error is a whole line of a Bash run (a terraform box line without its frame). Half of them (rounded down)
    are resolved by a later result of the same call, which no longer has the line; at 3000 messages some are fixed
    and run again at once, some later on his word."""
    s = session(seed, messages)
    errors = facts(s, "error")
    resolved = [f for f in errors if f.resolved is not None]
    assert len(resolved) == len(errors) // 2
    for fact in errors:
        assert call_of(s, fact.index)["name"] == "Bash"
        assert fact.value in [line.strip(" │") for line in content(s, fact.index).splitlines()], fact
    for fact in resolved:
        assert fact.resolved is not None and fact.resolved > fact.index
        assert s.messages[fact.resolved]["role"] == "tool" and fact.value not in content(s, fact.resolved)
        assert call_of(s, fact.resolved) == call_of(s, fact.index)
    if messages == 3000:
        gaps = {f.resolved - f.index for f in resolved if f.resolved is not None}
        assert min(gaps) <= 8 and max(gaps) > 8


@pytest.mark.parametrize("seed", SEEDS)
def test_corrections_are_his_loose_far_and_near_misses(seed: int) -> None:
    """A correction's stale value is his own, said in his message at ``stale_index``; the correction is his too; in a
    long session several come 100+ messages later, some mid-message, and half or more are near misses."""
    s = session(seed, 3000)
    corrections = facts(s, "correction")
    close = far = middle = 0
    for fact in corrections:
        assert fact.stale is not None and fact.stale_index is not None
        assert s.messages[fact.stale_index]["role"] == "user" and fact.stale in content(s, fact.stale_index)
        assert s.messages[fact.index]["role"] == "user" and fact.value in content(s, fact.index)
        close += sum(a == b for a, b in zip(fact.value, fact.stale)) >= len(fact.value) // 2
        far += fact.index - fact.stale_index > 100
        middle += content(s, fact.index).count("\n\n") >= 2
    assert close >= len(corrections) // 2 and far >= 4 and middle >= 1


@pytest.mark.parametrize("messages", [400, 3000])
def test_plans_are_prose_with_their_distinctive_step_tracked(messages: int) -> None:
    """A plan is his message of four steps (in prose, numbered or bulleted, English or German); the agent puts the
    steps in its todo list at once."""
    s = session(8, messages)
    for fact in facts(s, "plan"):
        text = content(s, fact.index)
        assert re.search(r"first|then|after that|erst|dann|1\)|\n- |->", text)
        (call,) = s.messages[fact.index + 1]["tool_calls"]
        assert call["function"]["name"] == "TodoWrite" and fact.value in call["function"]["arguments"]


@pytest.mark.parametrize("messages", [400, 3000])
def test_files_are_written_by_path_in_one_call(messages: int) -> None:
    """A file fact's message makes exactly one Write whose absolute path ends in the value, and its result names it."""
    s = session(8, messages)
    for fact in facts(s, "file"):
        (call,) = s.messages[fact.index]["tool_calls"]
        assert call["function"]["name"] == "Write"
        assert json.loads(call["function"]["arguments"])["file_path"] == f"{ROOT}/{fact.value}"
        assert content(s, fact.index + 1) == f"File created successfully at: {ROOT}/{fact.value}"


@pytest.mark.parametrize("seed", SEEDS)
def test_findings_are_answered_in_the_agents_own_words(seed: int) -> None:
    """The agent's answer after a finding sometimes quotes the line's value and sometimes only points at it ("see
    above", "that's the one")."""
    s = session(seed, 3000)
    quoted = pointed = 0
    for fact in facts(s, "finding"):
        answer = next(content(s, i) for i in range(fact.index + 1, len(s.messages))
                      if s.messages[i]["role"] == "assistant" and not s.messages[i].get("tool_calls"))
        if fact.value in answer:
            quoted += 1
        else:
            pointed += bool(re.search(r"(?i)see above|that's the one", answer))
    assert quoted >= 2 and pointed >= 2


@pytest.mark.parametrize("seed", SEEDS)
def test_identifiers_he_says_are_printed_by_the_next_tool(seed: int) -> None:
    """An id he says (a Jira key, a PR number, a Sentry issue, a request id, a sha, a run id) is printed by the tool the
    agent runs right after; the others are printed by a tool first."""
    s = session(seed, 3000)
    said = [f for f in facts(s, "identifier") if s.messages[f.index]["role"] == "user"]
    assert said and len(said) < len(facts(s, "identifier"))
    for fact in said:
        assert s.messages[fact.index + 1].get("tool_calls") and fact.value in content(s, fact.index + 2)


@pytest.mark.parametrize("seed", SEEDS)
def test_outputs_are_full_of_look_alikes(seed: int) -> None:
    """Tool outputs carry many values shaped like the planted ones: ports, Go test names, module versions, PR numbers,
    shas, failing lines of other runs."""
    s = session(seed, 3000)
    text = "\n".join(content(s, i) for i, m in enumerate(s.messages) if m["role"] == "tool")
    assert len(set(re.findall(r"\b(?:port |:)(\d{4,5})\b", text))) >= 20
    assert len(set(re.findall(r"--- PASS: (Test\w+)", text))) >= 50
    assert len(set(re.findall(r"@v\d+\.\d+\.\d+", text))) >= 15
    assert len(set(re.findall(r"#(\d{4})\b", text))) >= 20
    assert len(set(re.findall(r"\b[0-9a-f]{7}\b", text))) >= 20
    assert len(set(re.findall(r"error TS\d+", text))) >= 4 and "(errcheck)" in text and "(ineffassign)" in text
    planted = {f.value for f in s.facts}
    assert len(set(re.findall(r"--- FAIL: Test\w+ \(\S+\)", text)) - planted) >= 5


@pytest.mark.parametrize("seed", SEEDS)
def test_outputs_end_like_their_tools(seed: int) -> None:
    """Every go test run ends on a package verdict, every cargo run says Compiling and ends on a result, a vitest run
    has its summary, a plan its Plan: line or an Error:, a tsc run its error count or nothing."""
    s = session(seed, 3000)
    seen = set()
    for i, m in enumerate(s.messages):
        if m["role"] != "tool" or m["name"] != "Bash":
            continue
        cmd = json.loads(call_of(s, i)["arguments"])["command"]
        text = content(s, i).rstrip()
        last = text.splitlines()[-1]
        if cmd.startswith("go test") and "gotestsum" not in cmd and "-bench" not in cmd:
            seen.add("go")
            assert re.match(r"(ok  |FAIL|\?   )", last), last
        if "cargo test" in cmd or "cargo build" in cmd or "cargo clippy" in cmd:
            seen.add("cargo")
            assert "Compiling hafenctl" in text and re.search(r"test result: ok|Finished|error: could not compile", text)
        if "vitest run" in cmd:
            seen.add("vitest")
            assert " Test Files " in text and "Duration" in last
        if " plan " in cmd:
            seen.add("plan")
            assert last.startswith("Plan: ") or "│ Error: " in text
        if "tsc --noEmit" in cmd:
            seen.add("tsc")
            assert text == "(No content)" or re.match(r"Found \d+ errors in \d+ files\.", last)
    assert seen == {"go", "cargo", "vitest", "plan", "tsc"}


def test_queries_are_questions_about_what_was_planted() -> None:
    """Every fact comes with a question that ends in a question mark and never gives its value away."""
    s = session(13, 3000)
    for fact in s.facts:
        assert fact.query.endswith("?") and fact.value not in fact.query
        assert fact.stale is None or fact.stale not in fact.query
