"""`serve` compacts the OpenAI Responses API (stateless, as Codex sends it): the official openai SDK's
responses.create through the gateway, in front of a fake upstream on 127.0.0.1 that speaks /v1/responses."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openai
import pytest
from fakes import Behaviour
from fakes.apis import ApisUpstream
from fakes.harness import Upstream, gateway_for, serve_upstream

from context_compactor.responses_adapter import to_openai, to_responses

TOOLS = [{"type": "function", "name": "shell", "description": "Run a command",
          "parameters": {"type": "object", "properties": {"command": {"type": "string"}}}}]
INSTRUCTIONS = "You are Codex, a coding agent. " * 20


ResponsesUpstream = ApisUpstream


@pytest.fixture
def upstream() -> Iterator[Upstream]:
    with serve_upstream(ResponsesUpstream(Behaviour())) as up:
        yield up


def client(url: str) -> openai.OpenAI:
    return openai.OpenAI(base_url=url + "/v1", api_key="unused", max_retries=0, timeout=30)


def codex_turns(turns: int, chars: int = 1200) -> list[dict[str, Any]]:
    """Earlier Codex turns: a user message, reasoning, a function call and its output, the assistant's answer."""
    items: list[dict[str, Any]] = []
    for i in range(turns):
        items += [
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": f"task {i}: " + f"d{i} " * (chars // 4)}]},
            {"type": "reasoning", "id": f"rs_o{i}", "summary": [], "encrypted_content": f"enc-old-{i}"},
            {"type": "function_call", "call_id": f"call_o{i}", "name": "shell", "arguments": json.dumps({"command": f"cat f{i}"})},
            {"type": "function_call_output", "call_id": f"call_o{i}", "output": f"line-{i} " * (chars // 7)},
            {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": f"done {i} " * (chars // 7)}]},
        ]
    return items


def check_pairs(items: list[dict[str, Any]]) -> None:
    """Every function_call_output follows its function_call; every call has its output."""
    calls = [i["call_id"] for i in items if i.get("type") == "function_call"]
    outputs = [i["call_id"] for i in items if i.get("type") == "function_call_output"]
    assert calls == outputs or calls == [*outputs, calls[-1]]


def test_a_short_request_goes_out_unchanged(upstream: Upstream, tmp_path: Path) -> None:
    """Under the trigger the upstream receives the client's input as sent, and the answer comes back."""
    with gateway_for(upstream.url, tmp_path) as gw:
        reply = client(gw.url).responses.create(model="m", instructions=INSTRUCTIONS, input="hello", store=False)
    assert "hello" in reply.output_text
    assert upstream.app.responses()[-1].body["input"] == "hello"


def test_a_long_codex_history_is_compacted(upstream: Upstream, tmp_path: Path) -> None:
    """Over the trigger the upstream gets fewer items: instructions unchanged, every call with its output,
    the current loop's reasoning (encrypted_content) and items byte-identical, the ledger in a user message."""
    current = [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "fix the bug"}]},
               {"type": "reasoning", "id": "rs_now", "summary": [], "encrypted_content": "enc-now"},
               {"type": "function_call", "call_id": "call_now", "name": "shell", "arguments": "{\"command\":\"ls\"}"},
               {"type": "function_call_output", "call_id": "call_now", "output": "a.py"}]
    items = [*codex_turns(20), *current]
    with gateway_for(upstream.url, tmp_path, settings={"contextWindow": 4096}) as gw:
        raw = client(gw.url).responses.with_raw_response.create(
            model="m", instructions=INSTRUCTIONS, input=items, tools=TOOLS, store=False, prompt_cache_key="codex-1",
            include=["reasoning.encrypted_content"])
    assert raw.headers["x-context-compactor-compacted"] == "1"
    assert raw.headers["x-context-compactor-session"] == "gw:user:codex-1"
    seen = upstream.app.responses()[-1]
    assert seen.prompt_tokens < 4096 and len(seen.body["input"]) < len(items)
    assert seen.body["instructions"] == INSTRUCTIONS and seen.body["include"] == ["reasoning.encrypted_content"]
    assert seen.body["input"][-4:] == current
    assert "ledger" in json.dumps(seen.body["input"][0])
    check_pairs(seen.body["input"])


@pytest.mark.parametrize("stream", [False, True])
def test_a_function_call_round_trips(upstream: Upstream, tmp_path: Path, stream: bool) -> None:
    """A function_call comes back (streamed or not); its output and the reasoning go up on the next turn."""
    items: list[Any] = [{"type": "message", "role": "user", "content": "please use a tool"}]
    with gateway_for(upstream.url, tmp_path) as gw:
        sdk = client(gw.url)
        if stream:
            events = list(sdk.responses.create(model="m", input=items, tools=TOOLS, stream=True))
            assert [e.sequence_number for e in events] == list(range(len(events)))
            reply = events[-1].response
        else:
            reply = sdk.responses.create(model="m", input=items, tools=TOOLS)
        output = [o.model_dump(exclude_none=True) for o in reply.output]
        call = output[-1]
        assert call["type"] == "function_call"
        items += [*output, {"type": "function_call_output", "call_id": call["call_id"], "output": "a.py"}]
        sdk.responses.create(model="m", input=items, tools=TOOLS)
    assert upstream.app.responses()[-1].body["input"] == items


def test_context_stats_is_answered_as_a_response(upstream: Upstream, tmp_path: Path) -> None:
    """/context-stats typed as a message is answered in the Responses shape (streamed too), not sent upstream."""
    with gateway_for(upstream.url, tmp_path) as gw:
        sdk = client(gw.url)
        whole = sdk.responses.create(model="m", input="/context-stats")
        events = list(sdk.responses.create(model="m", input="/context-stats", stream=True))
    assert "context" in whole.output_text.lower() and events[-1].type == "response.completed"
    assert upstream.app.responses() == []


def test_server_side_history_passes_through_with_a_warning(upstream: Upstream, tmp_path: Path) -> None:
    """previous_response_id: the server holds the history; the request goes through unchanged, with a warning."""
    with gateway_for(upstream.url, tmp_path) as gw:
        raw = client(gw.url).responses.with_raw_response.create(model="m", input="next", previous_response_id="resp_1")
    assert "previous_response_id" in raw.headers["x-context-compactor-warning"]
    assert upstream.app.responses()[-1].body["previous_response_id"] == "resp_1"


def test_an_overflow_is_compacted_smaller_and_retried(upstream: Upstream, tmp_path: Path) -> None:
    """llama.cpp's context error on /responses teaches the window; the retry fits."""
    upstream.behaviour.context_window = 6000
    items = [*codex_turns(12), {"type": "message", "role": "user", "content": "go on"}]
    with gateway_for(upstream.url, tmp_path, settings={"contextWindow": 32768}) as gw:
        raw = client(gw.url).responses.with_raw_response.create(model="m", input=items)
    assert raw.headers["x-context-compactor-retries"] == "1"
    assert [r.status for r in upstream.app.responses()] == [400, 200]


def test_thirty_codex_turns_stay_within_the_window(upstream: Upstream, tmp_path: Path) -> None:
    """30 streamed turns with a tool round each never send the upstream more than the window."""
    upstream.behaviour.context_window = 4096
    items: list[Any] = []
    with gateway_for(upstream.url, tmp_path, settings={"contextWindow": 4096}) as gw:
        sdk = client(gw.url)
        for i in range(30):
            items.append({"type": "message", "role": "user", "content": f"step {i}: please use a tool " + f"w{i} " * 80})
            for _round in range(2):
                events = list(sdk.responses.create(model="m", instructions=INSTRUCTIONS, input=items, tools=TOOLS,
                                                   stream=True, store=False, prompt_cache_key="c30"))
                output = [o.model_dump(exclude_none=True) for o in events[-1].response.output]
                items += output
                if output[-1]["type"] == "function_call":
                    items.append({"type": "function_call_output", "call_id": output[-1]["call_id"],
                                  "output": f"result {i} " * 100})
    assert all(r.status == 200 for r in upstream.app.responses())
    assert max(r.prompt_tokens for r in upstream.app.responses()) < 4096
    for seen in upstream.app.responses():
        check_pairs(seen.body["input"])


def test_the_adapter_round_trips_an_unchanged_request() -> None:
    """Converted and brought back without changes, a request's items are its own objects."""
    body = {"instructions": INSTRUCTIONS, "input": codex_turns(3)}
    conv = to_openai(body)
    instructions, items = to_responses(conv.messages, conv, body)
    assert instructions == INSTRUCTIONS and all(a is b for a, b in zip(items, body["input"], strict=True))
