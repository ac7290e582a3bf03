"""The coding-agent tool-loop session generator (bench/gen_agentloop.py): determinism, planted facts, shape, size."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import gen_agentloop
from gen_agentloop import TOOLS, make_session, per_kind
from generator_contract import assert_chat_format
from sessiongen import Session, text_of


@pytest.fixture(scope="module")
def small() -> Session:
    return make_session(seed=5, messages=400)


@pytest.fixture(scope="module")
def large() -> Session:
    return make_session(seed=5, messages=3000)


def _own_lines(session: Session) -> list[tuple[int, str]]:
    """Her user messages that are neither pastes nor the adopted conventions document."""
    pasted = {i for i, _t in session.pasted}
    return [(i, m["content"]) for i, m in enumerate(session.messages)
            if m["role"] == "user" and i not in pasted and "\n## " not in m["content"]]


def test_the_module_says_how_it_was_written() -> None:
    assert "Written from its own short spec, without reading the engine under test." in (gen_agentloop.__doc__ or "")


@pytest.mark.parametrize("name", ["small", "large"])
def test_files_are_written_by_write_or_edit(name: str, request: pytest.FixtureRequest) -> None:
    """A file fact is in its one Write or Edit call (where facts sit is in test_generators_contract.py)."""
    session: Session = request.getfixturevalue(name)
    files = [f for f in session.facts if f.kind == "file"]
    assert files
    for fact in files:
        calls = session.messages[fact.index]["tool_calls"]
        assert len(calls) == 1 and calls[0]["function"]["name"] in ("Write", "Edit")


@pytest.mark.parametrize("name", ["small", "large"])
def test_errors_come_from_bash_and_are_resolved_by_the_same_command(name: str, request: pytest.FixtureRequest) -> None:
    """An error is a line of a Bash result, answering the call before it; a resolved one is fixed by a later run of
    the same command (the rest of an error's contract is in test_generators_contract.py)."""
    session: Session = request.getfixturevalue(name)
    errors = [f for f in session.facts if f.kind == "error"]
    assert errors
    for fact in errors:
        message = session.messages[fact.index]
        call = session.messages[fact.index - 1]["tool_calls"][0]
        assert message["name"] == "Bash" and call["id"] == message["tool_call_id"]
        if fact.resolved is not None:
            again = session.messages[fact.resolved - 1]["tool_calls"][0]["function"]
            assert json.loads(again["arguments"])["command"] == json.loads(call["function"]["arguments"])["command"]


@pytest.mark.parametrize("name", ["small", "large"])
def test_chat_format_ends_on_a_user_turn(name: str, request: pytest.FixtureRequest) -> None:
    """OpenAI chat format: every tool call answered at once, all ten tools used, some in parallel."""
    session: Session = request.getfixturevalue(name)
    assert_chat_format(session, TOOLS)
    assert len(TOOLS) == 10
    assert any(len(m.get("tool_calls") or []) > 1 for m in session.messages)
    for m in session.messages:
        if m["role"] == "tool":
            assert set(m) == {"role", "tool_call_id", "name", "content"}
        for call in m.get("tool_calls") or []:
            if call["function"]["name"] == "TodoWrite":
                todos = json.loads(call["function"]["arguments"])["todos"]
                assert todos and all(set(t) == {"content", "status"} for t in todos)
                assert {t["status"] for t in todos} <= {"pending", "in_progress", "completed"}


@pytest.mark.parametrize("name", ["small", "large"])
def test_every_turn_starts_a_loop_of_5_to_40_calls_ending_in_an_answer(name: str,
                                                                        request: pytest.FixtureRequest) -> None:
    """Each of her lines is followed by 5 to 40 tool calls and then a text answer; the agent sometimes thinks aloud
    beside its calls."""
    session: Session = request.getfixturevalue(name)
    users = [i for i, m in enumerate(session.messages) if m["role"] == "user"]
    sizes = []
    for start, end in zip(users, users[1:]):
        loop = session.messages[start + 1:end]
        assert loop[0].get("tool_calls") and loop[-1]["role"] == "assistant" and not loop[-1].get("tool_calls")
        assert all(m.get("tool_calls") for m in loop[:-1] if m["role"] == "assistant")
        sizes.append(sum(len(m.get("tool_calls") or []) for m in loop))
    assert min(sizes) >= 5 and max(sizes) <= 40
    if name == "large":
        assert max(sizes) >= 20 and len(set(sizes)) >= 10
    thinking = [m for m in session.messages if m["role"] == "assistant" and m.get("tool_calls") and m.get("content")]
    assert len(thinking) > len(users)


@pytest.mark.parametrize("name", ["small", "large"])
def test_pasted_material_is_marked_and_holds_no_planted_value(name: str, request: pytest.FixtureRequest) -> None:
    """What she pastes (others' words, machine output) is listed, in the user message that holds it, and holds
    none of her planted values or what they replaced."""
    session: Session = request.getfixturevalue(name)
    assert len(session.pasted) >= 3
    for index, text in session.pasted:
        message = session.messages[index]
        assert message["role"] == "user" and text in message["content"] and set(message) == {"role", "content"}
        assert len(text) > 200 and text != message["content"]  # she says something around it
    values = [f.value for f in session.facts] + [f.stale for f in session.facts if f.stale]
    for _index, text in session.pasted:
        assert not any(v in text for v in values)


def test_pasted_kinds_and_others_imperatives(large: Session) -> None:
    """Sentry issues, PR reviews (with the reviewer's imperatives), GitHub Actions logs, Figma notes, customer
    emails and package.json or tsconfig snippets are all pasted."""
    bodies = "\n".join(t for _i, t in large.pasted)
    assert "TISSERAND-WEB-" in bodies and "STACK TRACE" in bodies
    assert "requested changes" in bodies and "Please rename this" in bodies
    assert "Error: Process completed with exit code 1." in bodies
    assert "Design spec —" in bodies and "Please make sure" in bodies
    assert "Subject: " in bodies and "Best regards," in bodies and "please call me back" in bodies
    assert "\"dependencies\"" in bodies or "\"compilerOptions\"" in bodies


@pytest.mark.parametrize("name", ["small", "large"])
def test_an_adopted_conventions_doc_is_her_rule_and_not_pasted(name: str, request: pytest.FixtureRequest) -> None:
    """Once or twice she adopts a conventions document: it holds a planted instruction far from both ends and is
    not listed in ``pasted``."""
    session: Session = request.getfixturevalue(name)
    pasted_at = {i for i, _t in session.pasted}
    docs = [f for f in session.facts if f.kind == "instruction" and "\n## " in session.messages[f.index]["content"]]
    assert len(docs) == (1 if name == "small" else 2)
    for fact in docs:
        text = session.messages[fact.index]["content"]
        assert fact.index not in pasted_at and len(text) > 3000
        at = text.index(fact.value)
        assert 1000 < at < len(text) - 500


def test_rules_come_in_many_shapes(large: Session) -> None:
    """Instructions are casual, indirect, reason first, about herself, in French, or in a later paragraph after an
    unrelated request; none carries a label."""
    facts = [f for f in large.facts if f.kind == "instruction"]
    texts = [large.messages[f.index]["content"] for f in facts]
    joined = "\n".join(texts)
    assert any(w in joined for w in ("à partir de", "stp", "quand je", "jamais"))
    assert any(w in joined for w in ("i'm on the", "i'm the only one", "i'm in lyon"))
    assert any(w in joined for w in ("i'd rather", "would be nice", "i'd prefer", "it'd help", "don't hand-edit"))
    assert any(w in joined for w in (", so ", " so "))
    later = [f for text, f in zip(texts, facts) if "\n## " not in text and f.value in text.split("\n\n", 1)[-1]
             and f.value not in text.split("\n\n", 1)[0]]
    assert later
    assert sum(w in joined for w in ("RULE:", "IMPORTANT:", "Rule:", "Instruction:")) == 0


@pytest.mark.parametrize("name", ["small", "large"])
def test_revised_decisions_replace_an_earlier_choice_of_hers(name: str, request: pytest.FixtureRequest) -> None:
    """A revision is the decision fact; the first choice is only its stale value, said earlier in her own words."""
    session: Session = request.getfixturevalue(name)
    decisions = [f for f in session.facts if f.kind == "decision"]
    values = {f.value for f in session.facts}
    revised = [f for f in decisions if f.stale is not None]
    assert 0 < len(revised) < len(decisions)
    for fact in revised:
        assert fact.stale not in values
        assert session.messages[fact.stale_index]["role"] == "user"  # type: ignore[index]


def test_she_writes_tersely_and_asks_for_many_one_off_things(large: Session) -> None:
    """Her own lines are short, mostly lowercase and mostly distinct; the one-off requests are many and varied,
    and each is answered."""
    own = [text for _i, text in _own_lines(large)]
    assert sum(len(t) < 300 for t in own) > 0.8 * len(own)
    assert sum(t[:1].islower() for t in own) > 0.8 * len(own)
    users = [m["content"] for m in large.messages if m["role"] == "user"]
    assert len(set(users)) > 0.7 * len(users)
    answers = [m["content"] for m in large.messages if m["role"] == "assistant" and not m.get("tool_calls")]
    assert len(answers) == len(users) - 1 and len(set(answers)) > 80


@pytest.mark.parametrize("name", ["small", "large"])
def test_filler_stays_clean_and_tool_results_are_long(name: str, request: pytest.FixtureRequest) -> None:
    """Ids of the planted kinds' shapes only occur beside a fact; tool results are long on average."""
    session: Session = request.getfixturevalue(name)
    tools = [m["content"] for m in session.messages if m["role"] == "tool"]
    assert sum(map(len, tools)) / len(tools) > 2300
    near = {f.index + d for f in session.facts for d in range(-8, 9)}
    near |= {f.stale_index + d for f in session.facts if f.stale_index is not None for d in range(0, 13)}
    shapes = re.compile(r"TSR-PAYMENTS-|price_1|dpl_|tisserand/app/pull/\d{4}|payments\.[a-z-]+-v\d")
    for i, m in enumerate(session.messages):
        if i not in near:
            assert not shapes.search(text_of(m)), i


def test_tool_results_look_like_a_typescript_monorepo(large: Session) -> None:
    """Numbered files, grep hits, vitest, tsc, eslint, Playwright, git, Prisma, next build, docs and search."""
    results = "\n".join(m["content"] for m in large.messages if m["role"] == "tool")
    for marker in ("     1→import", " matching lines in ", "Test Files  ", "): error TS", "[Warning/", "[chromium] › ",
                   "diff --git a/", "Prisma schema loaded from", "Route (app)", "Web search results for query:",
                   "Todos have been modified successfully", "File created successfully at:", "has been updated.",
                   "I searched the workspace", "Was this page helpful?"):
        assert marker in results, marker


def test_the_shared_scorer_reads_it(small: Session) -> None:
    """bench/fidelity.py's score finds every fact in the whole session and none in its last few messages."""
    from fidelity import score

    whole = score(small, small.messages)
    assert all(kept == planted for kept, planted in whole["all"].values())
    tail = score(small, [small.messages[0]] + small.messages[-12:])
    assert sum(kept for kept, _planted in tail["all"].values()) == 0


def test_facts_per_kind_grow_beyond_3000() -> None:
    """The number of facts of each kind goes on growing linearly past 3000 messages."""
    assert per_kind(4000) == 14
