"""`serve` compacts the Anthropic Messages API: the official anthropic SDK through the gateway, in front of
a fake upstream on 127.0.0.1 that speaks /v1/messages (test_gateway_anthropic_fake.py)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anthropic
import httpx
import pytest
from fakes import Behaviour
from fakes.harness import Upstream, gateway_for, serve_upstream
from test_gateway_anthropic_fake import AnthropicUpstream

from context_compactor.anthropic_adapter import to_anthropic, to_openai

SYSTEM = [{"type": "text", "text": "You are Claude Code, Anthropic's official CLI for Claude.",
           "cache_control": {"type": "ephemeral"}},
          {"type": "text", "text": "Follow the repository's conventions. " * 20, "cache_control": {"type": "ephemeral"}}]
TOOLS = [{"name": "Read", "description": "Read a file", "input_schema": {
    "type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}}]
EXTRA = {"thinking": {"type": "enabled", "budget_tokens": 1024}, "metadata": {"user_id": "user_abc_session_1"},
         "context_management": {"edits": [{"type": "clear_thinking_20251015", "keep": "all"}]}}


@pytest.fixture
def upstream() -> Iterator[Upstream]:
    with serve_upstream(AnthropicUpstream(Behaviour())) as up:
        yield up


def client(url: str) -> anthropic.Anthropic:
    return anthropic.Anthropic(base_url=url, api_key="unused", max_retries=0, timeout=30)


def turn_pair(i: int, chars: int = 1200) -> list[dict[str, Any]]:
    """One earlier exchange with a tool round: the user asks, the assistant thinks and calls Read, the result."""
    return [
        {"role": "user", "content": f"request {i}: " + f"detail-{i} " * (chars // 10)},
        {"role": "assistant", "content": [
            {"type": "thinking", "thinking": f"thought {i}", "signature": f"sig-{i}"},
            {"type": "text", "text": f"answer {i}: reading"},
            {"type": "tool_use", "id": f"toolu_old{i}", "name": "Read", "input": {"path": f"f{i}.py"}}]},
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": f"toolu_old{i}", "content": f"content-{i} " * (chars // 10)}]},
        {"role": "assistant", "content": [{"type": "text", "text": f"done {i}: " + f"ok-{i} " * (chars // 8)}]},
    ]


def history(turns: int) -> list[dict[str, Any]]:
    return [m for i in range(turns) for m in turn_pair(i)]


def test_a_short_request_goes_out_as_the_client_wrote_it(upstream: Upstream, tmp_path: Path) -> None:
    """Under the trigger the upstream receives the client's very bytes, and the answer comes back."""
    messages = [{"role": "user", "content": "hello"}]
    with gateway_for(upstream.url, tmp_path) as gw:
        reply = client(gw.url).messages.create(model="m", max_tokens=100, system=SYSTEM, messages=messages,
                                               tools=TOOLS, extra_body=EXTRA)
    assert reply.content[0].text.endswith("to: hello")
    sent = upstream.app.messages()[-1].body
    assert sent["messages"] == messages and sent["system"] == SYSTEM and sent["thinking"] == EXTRA["thinking"]


def test_a_long_history_is_compacted_into_anthropic_shape(upstream: Upstream, tmp_path: Path) -> None:
    """Over the trigger the upstream gets a smaller, valid Anthropic request: system blocks and unknown fields
    unchanged, roles alternating, every tool_use answered, the current turn whole, the ledger in a user turn."""
    messages = [*history(20), {"role": "user", "content": "now fix the bug in f3.py"}]
    with gateway_for(upstream.url, tmp_path, settings={"contextWindow": 4096}) as gw:
        reply = client(gw.url).messages.with_raw_response.create(
            model="m", max_tokens=100, system=SYSTEM, messages=messages, tools=TOOLS, extra_body=EXTRA)
    assert reply.headers["x-context-compactor-compacted"] == "1"
    seen = upstream.app.messages()[-1]
    sent = seen.body
    assert seen.prompt_tokens < 4096 and len(sent["messages"]) < len(messages)
    assert sent["system"] == SYSTEM and sent["context_management"] == EXTRA["context_management"]
    assert sent["metadata"] == EXTRA["metadata"] and sent["tools"][:-1] == TOOLS  # then the gateway's recall_history
    assert sent["tools"][-1]["name"] == "recall_history" and "input_schema" in sent["tools"][-1]
    assert sent["messages"][-1] == messages[-1]
    roles = [m["role"] for m in sent["messages"]]
    assert roles[0] == "user" and all(a != b for a, b in zip(roles, roles[1:]))
    assert "ledger" in json.dumps(sent["messages"][0])
    _check_pairs(sent["messages"])


def _check_pairs(messages: list[dict[str, Any]]) -> None:
    """Each tool_use is answered by a tool_result in the next message, first; no result without its call."""
    for i, message in enumerate(messages):
        content = message["content"] if isinstance(message["content"], list) else []
        uses = [b["id"] for b in content if b.get("type") == "tool_use"]
        if uses:
            following = messages[i + 1]["content"]
            results = [b["tool_use_id"] for b in following if b.get("type") == "tool_result"]
            assert results == uses and following[0]["type"] == "tool_result"
        for b in content:
            if b.get("type") == "tool_result":
                previous = messages[i - 1]["content"]
                assert any(p.get("type") == "tool_use" and p["id"] == b["tool_use_id"] for p in previous)


def test_the_current_tool_loop_keeps_its_signed_thinking(upstream: Upstream, tmp_path: Path) -> None:
    """In the current tool loop thinking blocks go out byte-identical; before the last user turn they may be left out."""
    loop = [{"role": "user", "content": "now fix the bug in f3.py"},
            {"role": "assistant", "content": [{"type": "thinking", "thinking": "current", "signature": "sig-now"},
                                              {"type": "tool_use", "id": "toolu_now", "name": "Read",
                                               "input": {"path": "f3.py"}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_now", "content": "x = 1"}]}]
    with gateway_for(upstream.url, tmp_path, settings={"contextWindow": 4096}) as gw:
        client(gw.url).messages.create(model="m", max_tokens=100, system=SYSTEM, messages=[*history(20), *loop],
                                       tools=TOOLS, extra_body=EXTRA)
    sent = upstream.app.messages()[-1].body["messages"]
    assert sent[-3:] == loop
    _check_pairs(sent)


@pytest.mark.parametrize("stream", [False, True])
def test_a_tool_round_trips(upstream: Upstream, tmp_path: Path, stream: bool) -> None:
    """A tool_use comes back to the client (streamed or not) and its result goes up on the next turn."""
    messages: list[dict[str, Any]] = [{"role": "user", "content": "please use a tool to read setup.py"}]
    with gateway_for(upstream.url, tmp_path) as gw:
        sdk = client(gw.url)
        if stream:
            with sdk.messages.stream(model="m", max_tokens=100, messages=messages, tools=TOOLS) as events:
                reply = events.get_final_message()
        else:
            reply = sdk.messages.create(model="m", max_tokens=100, messages=messages, tools=TOOLS)
        use = reply.content[0]
        assert use.type == "tool_use" and use.input["path"].endswith(".py")
        messages += [{"role": "assistant", "content": [use.model_dump()]},
                     {"role": "user", "content": [{"type": "tool_result", "tool_use_id": use.id, "content": "hi"}]}]
        sdk.messages.create(model="m", max_tokens=100, messages=messages, tools=TOOLS)
    assert upstream.app.messages()[-1].body["messages"][-1] == messages[-1]


def test_a_stream_is_relayed_event_by_event(upstream: Upstream, tmp_path: Path) -> None:
    """Every upstream event (ping included) reaches the client, in order, and the usage calibrates."""
    with gateway_for(upstream.url, tmp_path) as gw:
        with httpx.stream("POST", gw.url + "/v1/messages", json={
                "model": "m", "max_tokens": 10, "stream": True,
                "messages": [{"role": "user", "content": "stream me"}]}) as response:
            text = response.read().decode()
    kinds = [line[7:] for line in text.splitlines() if line.startswith("event: ")]
    assert kinds == ["message_start", "content_block_start", "ping", "content_block_delta", "content_block_stop",
                     "message_delta", "message_stop"]


def test_context_stats_typed_as_a_message_is_answered_by_the_gateway(upstream: Upstream, tmp_path: Path) -> None:
    """/context-stats is answered in the Messages format (streamed too) without reaching the upstream."""
    with gateway_for(upstream.url, tmp_path) as gw:
        sdk = client(gw.url)
        reply = sdk.messages.create(model="m", max_tokens=10, messages=[{"role": "user", "content": "/context-stats"}])
        with sdk.messages.stream(model="m", max_tokens=10,
                                 messages=[{"role": "user", "content": "/context-stats"}]) as events:
            streamed = events.get_final_message()
    assert "context" in reply.content[0].text.lower() and streamed.content[0].text == reply.content[0].text
    assert upstream.app.messages() == []


def test_an_overflow_is_compacted_smaller_and_retried(upstream: Upstream, tmp_path: Path) -> None:
    """llama.cpp's Anthropic-shaped context error teaches the window; the retry fits and the client sees no error."""
    upstream.behaviour.context_window = 6000
    messages = [*history(12), {"role": "user", "content": "go on"}]
    with gateway_for(upstream.url, tmp_path, settings={"contextWindow": 32768}) as gw:
        reply = client(gw.url).messages.with_raw_response.create(model="m", max_tokens=10, messages=messages)
    assert reply.headers["x-context-compactor-retries"] == "1"
    assert [r.status for r in upstream.app.messages()] == [400, 200]


@pytest.mark.parametrize("route", [True, False])
def test_count_tokens_counts_the_compacted_prompt(upstream: Upstream, tmp_path: Path, route: bool) -> None:
    """count_tokens answers for the prompt the model would get after compaction: the upstream's count when
    it has the route (within 2% of what the upstream then counts on the real request), else ours (in the server's
    tokens after the turns before, shorter ones with no ledger, whose text has another ratio of characters to
    tokens than the ledger's labels and citations: within 4%; 3.1% off since the ledger takes three quarters of
    the target at 8k)."""
    upstream.app.count_route = route
    messages = [*history(20), {"role": "user", "content": "now fix the bug"}]
    with gateway_for(upstream.url, tmp_path, settings={"contextWindow": 8192}) as gw:
        sdk = client(gw.url)
        for n in range(3):  # earlier turns calibrate our counter
            sdk.messages.create(model="m", max_tokens=10, system=SYSTEM, messages=history(6 + n), tools=TOOLS,
                                metadata={"user_id": "count"})
        counted = sdk.messages.count_tokens(model="m", system=SYSTEM, messages=messages, tools=TOOLS,
                                            extra_body={"metadata": {"user_id": "count"}})
        sdk.messages.create(model="m", max_tokens=10, system=SYSTEM, messages=messages, tools=TOOLS,
                            metadata={"user_id": "count"})
    sent = upstream.app.messages()[-1].prompt_tokens
    assert sent < 8192 and abs(counted.input_tokens - sent) <= (0.02 if route else 0.04) * sent


def test_thirty_turns_stay_within_the_window(upstream: Upstream, tmp_path: Path) -> None:
    """A 30-turn session (streamed, tool rounds) never sends the upstream more than the window."""
    upstream.behaviour.context_window = 4096
    messages: list[dict[str, Any]] = []
    with gateway_for(upstream.url, tmp_path, settings={"contextWindow": 4096}) as gw:
        sdk = client(gw.url)
        for i in range(30):
            messages.append({"role": "user", "content": f"step {i}: please use a tool " + f"word{i} " * 80})
            with sdk.messages.stream(model="m", max_tokens=50, system=SYSTEM, messages=messages, tools=TOOLS,
                                     extra_body={"metadata": {"user_id": "u30"}}) as events:
                reply = events.get_final_message()
            messages.append({"role": "assistant", "content": [b.model_dump() for b in reply.content]})
            use = reply.content[0]
            messages.append({"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": use.id, "content": f"result {i} " * 100}]})
            final = sdk.messages.create(model="m", max_tokens=50, system=SYSTEM, messages=messages, tools=TOOLS,
                                        metadata={"user_id": "u30"})
            messages.append({"role": "assistant", "content": [b.model_dump() for b in final.content]})
    assert all(r.status == 200 for r in upstream.app.messages())
    assert max(r.prompt_tokens for r in upstream.app.messages()) < 4096
    for seen in upstream.app.messages():
        _check_pairs(seen.body["messages"])


def test_the_adapter_round_trips_an_unchanged_request() -> None:
    """Converted and brought back without changes, a request is its own messages and system, the same objects."""
    body = {"system": SYSTEM, "messages": [*history(2), {"role": "system", "content": "note"},
                                           {"role": "user", "content": "go"}]}
    conv = to_openai(body)
    system, messages = to_anthropic(conv.messages, conv, body)
    assert system is SYSTEM and all(a is b for a, b in zip(messages, body["messages"], strict=True))
