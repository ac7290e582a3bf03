"""OpenClaw messages <-> OpenAI chat dicts, and the recipe that maps a projection back by index."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from context_compactor.errors import InputError
from context_compactor.hookspecs import BeforeAgentStartEvent, HookContext, ModelInfo
from context_compactor.openclaw_adapter import (
    CURRENT,
    command_of,
    is_our_command,
    restore,
    to_openai,
)

USAGE = {"input": 100, "output": 5, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 105}


def user(text: str, ts: int = 1) -> dict[str, Any]:
    return {"role": "user", "content": text, "timestamp": ts, "idempotencyKey": f"k{ts}", "__openclaw": {"x": 1}}


def assistant(text: str = "", call: tuple[str, str, dict[str, Any]] | None = None, ts: int = 2) -> dict[str, Any]:
    content: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
    if call:
        content.append({"type": "toolCall", "id": call[0], "name": call[1], "arguments": call[2]})
    return {"role": "assistant", "content": content, "api": "openai-completions", "provider": "fake",
            "model": "fake-model", "usage": USAGE, "stopReason": "toolUse" if call else "stop", "timestamp": ts}


def tool_result(call_id: str, text: str, ts: int = 3) -> dict[str, Any]:
    return {"role": "toolResult", "toolCallId": call_id, "toolName": "read", "content": [{"type": "text", "text": text}],
            "details": {"kind": "text", "content": text}, "isError": False, "timestamp": ts}


def session(turns: int, size: int = 300, tools: bool = True, tool_size: int | None = None) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for t in range(turns):
        out.append(user(f"turn {t} KEEP-{t} " + "word " * size, ts=10 * t))
        if tools:
            out.append(assistant(call=(f"call_{t}", "read", {"path": f"f{t}.md"}), ts=10 * t + 1))
            out.append(tool_result(f"call_{t}", f"contents of f{t}\n" + "line " * (tool_size or size), ts=10 * t + 2))
        out.append(assistant(f"answer {t}", ts=10 * t + 3))
    return out


def test_shapes_convert() -> None:
    """User text, assistant tool calls (object arguments) and tool results become OpenAI messages."""
    conv = to_openai([user("hi"), assistant("ok", ("c1", "read", {"path": "a"})), tool_result("c1", "body")], "next")
    assert conv.messages[0] == {"role": "user", "content": "hi"}
    assert conv.messages[1]["tool_calls"][0] == {"id": "c1", "type": "function",
                                                 "function": {"name": "read", "arguments": '{"path": "a"}'}}
    assert conv.messages[2] == {"role": "tool", "tool_call_id": "c1", "name": "read", "content": "body"}
    assert conv.messages[3] == {"role": "user", "content": "next"} and conv.origin[3] == CURRENT


def test_our_command_rows_are_left_out() -> None:
    """Rows of /context-stats and /compact-now (also merged ones) and the gateway's replies are skipped."""
    merged = {"role": "user", "content": [{"type": "text", "text": "/context-stats"},
                                          {"type": "text", "text": "/compact-now keep ids"}]}
    injected = {"role": "assistant", "content": [{"type": "text", "text": "stats"}], "model": "gateway-injected"}
    assert is_our_command(user("/context-stats")) and is_our_command(merged) and is_our_command(injected)
    assert not is_our_command(user("/other-command")) and not is_our_command(user("what is /context-stats?"))
    conv = to_openai([user("a"), merged, injected, assistant("b")])
    assert conv.origin == [0, 3]


# --- command rows OpenClaw merged into the user's next turn (issue 14 A3) -------------------------------


def merged(*rows: Any) -> dict[str, Any]:
    """Consecutive user rows as OpenClaw merges them before a turn (``mergeConsecutiveUserTurns`` in
    ``dist/embedded-agent-helpers-*.mjs``): the later row's fields, every row's blocks in order, a
    string row as one text block. Its command replies (model "gateway-injected") are left out before,
    which is what makes a command row and the next turn consecutive."""
    blocks = [b for r in rows for b in ([{"type": "text", "text": r["content"]}] if isinstance(r["content"], str)
                                        else r["content"])]
    return {**rows[-1], "content": blocks}


# The history OpenClaw 2026.9.6 handed assemble() on the turn after /context-stats and /compact-now
# (recorded from the real gateway): the two command rows merged into the user's next turn.
AFTER_COMMANDS = [
    user("Turn 0 hello", 1), assistant("reply #1: ok", ts=2), user("Turn 1 hello", 3), assistant("reply #2: ok", ts=4),
    merged(user("/context-stats", 5), user("/compact-now keep the KEEP ids", 6), user("Turn 2 after the commands", 7)),
    assistant("reply #3: ok", ts=8),
]


@pytest.mark.parametrize(("text", "command"), [
    ("/context-stats", "context-stats"), ("  /context-stats\n", "context-stats"), ("/Context-Stats", "context-stats"),
    ("/context_stats", "context-stats"), ("/context-stats:", "context-stats"), ("/ context-stats", "context-stats"),
    ("/compact-now", "compact-now"), ("/compact-now keep the ids", "compact-now"), ("/compact-now: keep ids", "compact-now"),
    ("/compact_now focus on\nthe deploy", "compact-now"),
])
def test_command_texts(text: str, command: str) -> None:
    """The texts OpenClaw runs as our commands (its plugin-command matcher) are recognised as that command."""
    assert command_of(text) == command


@pytest.mark.parametrize("text", ["what is /context-stats?", "/context-stats said 40%, why?", "/context-stats\nthen go on",
                                  "run /compact-now later", "/compact-nowish", "/contextstats", "/other-command",
                                  "context-stats", "/", ""])
def test_texts_that_only_mention_a_command(text: str) -> None:
    """A sentence that mentions a command, or gives /context-stats (which takes none) arguments, is the user's."""
    assert command_of(text) is None


def test_merged_command_blocks_are_removed_from_the_user_turn() -> None:
    """The real shape: the command blocks go, the user's own block stays, and the row goes back cleaned."""
    conv = to_openai(AFTER_COMMANDS, "Turn 3 again")
    assert conv.messages[4] == {"role": "user", "content": [{"type": "text", "text": "Turn 2 after the commands"}]}
    assert conv.origin == [0, 1, 2, 3, 4, 5, CURRENT] and conv.commands == 1
    recipe = restore(conv.messages, conv, AFTER_COMMANDS)
    assert recipe[:4] == [0, 1, 2, 3] and recipe[5] == 5
    row = recipe[4]
    assert isinstance(row, dict) and row == {**AFTER_COMMANDS[4], "content": [{"type": "text", "text": "Turn 2 after the commands"}]}
    assert "/co" not in json.dumps(recipe)


_commands = st.sampled_from(["/context-stats", "/compact-now", "/compact-now keep the ids", "/Context_Stats"])
_own = st.text(min_size=1, max_size=30).filter(lambda t: command_of(t) is None and t.strip())
_rows = st.lists(st.one_of(_commands.map(lambda c: ("command", c)), _own.map(lambda t: ("own", t)),
                           st.just(("image", ""))), min_size=1, max_size=6)


@given(rows=_rows)
def test_any_merge_keeps_exactly_the_users_own_blocks(rows: list[tuple[str, str]]) -> None:
    """Whatever mix of command rows, text and pictures OpenClaw merges, the model gets the user's own blocks, in order."""
    blocks = [{"type": "image", "data": "AAAA", "mimeType": "image/png"} if kind == "image" else {"type": "text", "text": text}
              for kind, text in rows]
    host = [user("first", 1), assistant("ok", ts=2), {**user("x", 3), "content": blocks}, assistant("done", ts=4)]
    conv = to_openai(host)
    out = [host[i] if isinstance(i, int) else i for i in restore(conv.messages, conv, host)]
    own = [b for (kind, _), b in zip(rows, blocks) if kind != "command"]
    if own:
        assert out[2]["content"] == own and out[2]["timestamp"] == 3
        assert (out[2] is host[2]) == (len(own) == len(blocks))
    else:
        assert [m["content"] for m in out] == ["first", host[1]["content"], host[3]["content"]]


def test_a_merged_command_never_reaches_the_ledger(pm: Any, make_runtime: Any) -> None:
    """A merged row in the folded part: its user text is in the ledger, the command's words are not."""
    host = [merged(user("/compact-now ALWAYS-DROP-THE-TABLES", 1), user("please keep PORT-7788 open", 2))]
    host += session(12)
    runtime = make_runtime(maxTokens=3000, keepRecentTokens=800, summaryMaxTokens=300)
    _, recipe = compacted(pm, runtime, host, "now what?")
    assert isinstance(recipe[0], dict) and "PORT-7788" in recipe[0]["content"]
    assert "ALWAYS-DROP-THE-TABLES" not in json.dumps(recipe)


def test_other_roles_read_as_user_text() -> None:
    """OpenClaw's own compaction summary is read as the user text the model gets for it."""
    conv = to_openai([{"role": "compactionSummary", "summary": "S-1", "tokensBefore": 9, "timestamp": 1}])
    assert conv.messages[0]["role"] == "user" and "S-1" in conv.messages[0]["content"]


def test_orphan_tool_result_becomes_text() -> None:
    """A tool result whose call is gone (OpenClaw compacted it away) cannot be orphaned by a cut."""
    conv = to_openai([tool_result("gone", "x")])
    assert conv.messages[0]["role"] == "user"


def compacted(pm: Any, runtime: Any, host: list[dict[str, Any]], prompt: str) -> tuple[Any, Any]:
    conv = to_openai(host, prompt)
    model = ModelInfo(id="fake/fake-model", context_window=100_000)
    event = BeforeAgentStartEvent(messages=conv.messages, model=model)
    result = pm.hook.before_agent_start(event=event, ctx=HookContext("s1", runtime, model))
    assert result is not None and result.messages is not None
    return conv, restore(result.messages, conv, host)


def test_recipe_keeps_host_objects_and_pairs(pm: Any, make_runtime: Any) -> None:
    """Kept messages come back as indexes of the host's own; every tool result follows its call."""
    host = session(12)
    runtime = make_runtime(maxTokens=3000, keepRecentTokens=800, summaryMaxTokens=300)
    _, recipe = compacted(pm, runtime, host, "now what?")
    assert isinstance(recipe[0], dict) and "[context-compactor: ledger of" in recipe[0]["content"]
    out = [host[item] if isinstance(item, int) else item for item in recipe]
    kept = [item for item in recipe if isinstance(item, int)]
    assert kept == sorted(kept) and kept[-1] == len(host) - 1
    calls: set[str] = set()
    for message in out:
        if message["role"] == "assistant":
            calls.update(b["id"] for b in message["content"] if b.get("type") == "toolCall")
        if message["role"] == "toolResult":
            assert message["toolCallId"] in calls
    assert all(host[i] is out[j] for j, i in enumerate(recipe) if isinstance(i, int))


def test_stubbed_tool_result_keeps_host_fields(pm: Any, make_runtime: Any) -> None:
    """A tool result the engine stubs comes back as a toolResult with the host's ids, without details."""
    host = session(6, size=10, tool_size=2000)
    runtime = make_runtime(maxTokens=9000, keepRecentTokens=2500, maxToolResultTokens=3000)
    _, recipe = compacted(pm, runtime, host, "go on")
    changed = [m for m in recipe if isinstance(m, dict) and m.get("role") == "toolResult"]
    assert changed, recipe
    for message in changed:
        assert message["toolName"] == "read" and message["toolCallId"].startswith("call_")
        assert "details" not in message and message["content"][0]["type"] == "text"


def test_summary_merged_into_current_turn_comes_back_alone(pm: Any, make_runtime: Any) -> None:
    """When all history folds, the summary is returned as its own message (the host adds the turn)."""
    host = session(8, tools=False)
    runtime = make_runtime(maxTokens=1200, keepRecentTokens=0, summaryMaxTokens=200)
    _, recipe = compacted(pm, runtime, host, "current question " + "word " * 50)
    assert recipe and isinstance(recipe[0], dict) and recipe[0]["role"] == "user"
    assert recipe[0]["content"].startswith("[context-compactor: ledger of")
    assert "current question" not in recipe[0]["content"]


def test_what_the_projection_put_around_the_current_turn_comes_back_apart() -> None:
    """The host adds the current turn itself: the ledger in front of it comes back as a message of its own
    (the block only, even when the turn repeats words of it), the reminder after it as ``conv.addition``."""
    host = [user("old question", ts=1), assistant("old answer", ts=2)]
    conv = to_openai(host, "and now?")
    block = "[context-compactor: ledger of 2 earlier messages]\n- Latest request: and now?\n[end of ledger]"
    reminder = "[context-compactor reminder, not a new request]\nOpen tasks:\n- [pending] TAG-1"
    current = {**conv.messages[-1], "content": f"{block}\n\nand now?\n\n{reminder}"}
    recipe = restore([current], conv, host)
    assert recipe == [{"role": "user", "content": block, "timestamp": 1}]
    assert conv.addition == reminder


def test_a_reminder_on_an_empty_turn_and_a_block_quoting_its_end_come_back_apart() -> None:
    """A turn with no words of its own: the reminder is all of it, still the addition; a block whose item
    quotes "[end of ledger]" ends at the line that closes it, not at the quote."""
    host = [user("old question", ts=1), assistant("old answer", ts=2)]
    conv = to_openai(host, "go")
    reminder = "[context-compactor reminder, not a new request]\nOpen tasks:\n- [pending] TAG-1"
    assert restore([*conv.messages[:2], {**conv.messages[-1], "content": reminder}], conv, host) == [0, 1]
    assert conv.addition == reminder
    conv = to_openai(host, "and now?")
    block = "[context-compactor: ledger of 2 earlier messages]\n- Latest request: print [end of ledger] twice\n[end of ledger]"
    recipe = restore([{**conv.messages[-1], "content": f"{block}\n\nand now?"}], conv, host)
    assert recipe == [{"role": "user", "content": block, "timestamp": 1}] and conv.addition == ""


def test_unmappable_projection_is_refused() -> None:
    """A projection of a shape the engine never makes raises, so the bridge fails open."""
    host = [user("a"), assistant("b")]
    conv = to_openai(host)
    with pytest.raises(InputError):
        restore([{"role": "user", "content": "x"}, {"role": "user", "content": "y"}], conv, host)


# --- thinking: measured, left out of earlier turns, never read as what the assistant said ---------------


def thinking(text: str, signature: str | None = "reasoning_content") -> dict[str, Any]:
    """A thinking block as OpenClaw's openai-completions stream writes it (``thinkingSignature``: the
    field the thought came in; an Anthropic stream puts its opaque signature there)."""
    return {"type": "thinking", "thinking": text, **({"thinkingSignature": signature} if signature else {})}


def thought_session(turns: int, words: int = 300) -> list[dict[str, Any]]:
    """``session`` whose assistant rows each open with a long thought marked THOUGHT-<n>."""
    host = session(turns, size=40)
    for n, row in enumerate(host):
        if row["role"] == "assistant":
            row["content"] = [thinking(f"THOUGHT-{n} " + "pondering " * words), *row["content"]]
    return host


def test_thinking_counts_in_the_measured_prompt() -> None:
    """An assistant row's thinking makes its converted message larger to the engine, not its text."""
    from context_compactor.engine.measure import Measurer
    from context_compactor.messages import view_of
    from context_compactor.tokens import CharCounter

    plain = assistant("the answer")
    thoughtful = {**plain, "content": [thinking("THOUGHT " + "pondering " * 300), *plain["content"]]}
    measurer = Measurer(CharCounter(4.0))
    before, after = (to_openai([row]).messages[0] for row in (plain, thoughtful))
    assert measurer.cost(after) > measurer.cost(before), "the thought is not measured"
    assert view_of(after).text == "the answer"


def test_earlier_thinking_goes_back_without_its_blocks(pm: Any, make_runtime: Any) -> None:
    """Under the trigger too, earlier assistant rows come back without their thinking (stripThinking), every
    other block and field of OpenClaw's row kept, so OpenClaw does not send what the engine left out."""
    host = thought_session(3)
    runtime = make_runtime()
    conv = to_openai(host, "and now?")
    model = ModelInfo(id="fake/fake-model", context_window=100_000)
    result = pm.hook.before_agent_start(event=BeforeAgentStartEvent(messages=conv.messages, model=model),
                                        ctx=HookContext("s1", runtime, model))
    assert result is not None and result.messages is not None, "the thinking was not left out"
    out = [host[item] if isinstance(item, int) else item for item in restore(result.messages, conv, host)]
    assert len(out) == len(host) and "THOUGHT-" not in json.dumps(out)
    for new, old in zip(out, host):
        assert {k: v for k, v in new.items() if k != "content"} == {k: v for k, v in old.items() if k != "content"}
        if old["role"] == "assistant":
            assert [b for b in new["content"] if b.get("text") or b["type"] == "toolCall"] == \
                   [b for b in old["content"] if b["type"] != "thinking"]
    assert runtime.session("s1").last.thinking_saved > 0


def test_kept_thinking_goes_back_as_the_hosts_block() -> None:
    """A changed assistant message that still carries a thought (the current tool loop's signed thinking)
    gets OpenClaw's own thinking block back, signature and all."""
    signed = thinking("THOUGHT", "opaque-signature")
    host = [user("q"), {**assistant("", ("c1", "read", {"path": "a"})), "content": [signed, *assistant(
        "", ("c1", "read", {"path": "a"}))["content"]]}, tool_result("c1", "body")]
    conv = to_openai(host)
    mine = conv.messages[1]
    changed = {**mine, "content": [mine["content"][0], {"type": "text", "text": "cut"}]}
    recipe = restore([conv.messages[0], changed, conv.messages[2]], conv, host)
    assert recipe[0] == 0 and recipe[2] == 2 and isinstance(recipe[1], dict)
    assert recipe[1]["content"][0] is signed and recipe[1]["content"][-1]["type"] == "toolCall"


def test_thinking_never_reaches_the_ledger(pm: Any, make_runtime: Any) -> None:
    """With stripThinking off, folded thoughts are still no item of the ledger."""
    host = thought_session(12)
    runtime = make_runtime(maxTokens=3000, keepRecentTokens=800, summaryMaxTokens=300, stripThinking=False)
    _, recipe = compacted(pm, runtime, host, "now what?")
    assert isinstance(recipe[0], dict) and "[context-compactor: ledger of" in recipe[0]["content"]
    assert "THOUGHT-" not in recipe[0]["content"] and "pondering" not in recipe[0]["content"]
