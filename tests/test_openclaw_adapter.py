"""OpenClaw messages <-> OpenAI chat dicts, and the recipe that maps a projection back by index."""

from __future__ import annotations

from typing import Any

import pytest
from context_compactor.errors import InputError
from context_compactor.hookspecs import BeforeAgentStartEvent, HookContext, ModelInfo
from context_compactor.openclaw_adapter import (
    CURRENT,
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


def test_unmappable_projection_is_refused() -> None:
    """A projection of a shape the engine never makes raises, so the bridge fails open."""
    host = [user("a"), assistant("b")]
    conv = to_openai(host)
    with pytest.raises(InputError):
        restore([{"role": "user", "content": "x"}, {"role": "user", "content": "y"}], conv, host)
