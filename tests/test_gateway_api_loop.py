"""Chat completions' loop behaviours on the Messages and Responses routes (issue 23): a call that failed twice as
written is refused by the gateway and the model continues, a garbled call gets one retry, and earlier
``/context-stats`` exchanges kept in the client's history are left out of the prompt. Through the real routes,
with the official anthropic and openai SDKs (streamed and not), in front of a fake on 127.0.0.1."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anthropic
import openai
import pytest
from fakes import Behaviour
from fakes.apis import ApisUpstream, Asked
from fakes.asgi import send_json
from fakes.harness import Upstream, gateway_for, serve_upstream

SETTINGS = {"contextWindow": 32768}
TRACE = "Traceback (most recent call last):\n  File \"run.py\", line 1\nImportError: cannot import name 'zap'\nexit code 1"
BASH = {"name": "bash", "description": "Run a command", "input_schema": {
    "type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]}}
SHELL = {"type": "function", "name": "bash", "description": "Run a command",
         "parameters": {"type": "object", "properties": {"command": {"type": "string"}}}}
PATCH = {"type": "custom", "name": "apply_patch", "description": "Apply a patch (free text, not JSON)"}


class LoopingModel(ApisUpstream):
    """A scripted model, in either API: it asks for ``bash {"command": "make"}`` until a tool result tells it
    otherwise; for "garble" it first sends arguments that are not a JSON object, then valid ones; for "patch"
    (Responses) it calls the custom tool ``apply_patch`` with free text."""

    def decide(self, ask: Asked, n: int) -> tuple[str, Any]:
        result = ask.result[1] if ask.result is not None else ""
        if "context-compactor refused" in result:
            return "text", "Giving up on make: it keeps failing."
        if "was not run" in result:
            return "tool", ("bash", {"command": "ls"})
        if ask.result is None and ask.user == "garble":
            return "tool", ("bash", '{"command": "ls"')
        if ask.result is None and ask.user == "patch":
            return "patch", None
        return "tool", ("bash", {"command": "make"})

    async def _response(self, send: Any, body: dict[str, Any], n: int, tokens: int, kind: str, what: Any) -> None:
        if kind != "patch":
            await super()._response(send, body, n, tokens, kind, what)
            return
        call = {"type": "custom_tool_call", "id": "ctc_1", "call_id": "call_patch", "name": "apply_patch",
                "input": "*** Begin Patch\n*** Update File: a.py\n-x\n+y\n*** End Patch", "status": "completed"}
        await send_json(send, 200, {"id": f"resp_{n}", "object": "response", "created_at": 1, "status": "completed",
                                    "model": "m", "output": [call], "usage": {"input_tokens": tokens, "output_tokens": 9}})


@pytest.fixture
def upstream() -> Iterator[Upstream]:
    with serve_upstream(LoopingModel(Behaviour())) as up:
        yield up


def _anthropic(url: str) -> anthropic.Anthropic:
    return anthropic.Anthropic(base_url=url, api_key="unused", max_retries=0, timeout=30)


def _openai(url: str) -> openai.OpenAI:
    return openai.OpenAI(base_url=url + "/v1", api_key="unused", max_retries=0, timeout=30)


def messages_failed_twice() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [{"role": "user", "content": "build it"}]
    for i in (1, 2):
        out += [{"role": "assistant", "content": [{"type": "tool_use", "id": f"toolu_f{i}", "name": "bash",
                                                   "input": {"command": "make"}}]},
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": f"toolu_f{i}", "content": TRACE,
                                              "is_error": True}]}]
    return out


def responses_failed_twice() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [{"type": "message", "role": "user", "content": "build it"}]
    for i in (1, 2):
        out += [{"type": "function_call", "call_id": f"call_f{i}", "name": "bash", "arguments": '{"command": "make"}'},
                {"type": "function_call_output", "call_id": f"call_f{i}", "output": TRACE}]
    return out


def ask_messages(url: str, messages: list[dict[str, Any]], stream: bool) -> Any:
    request = {"model": "m", "max_tokens": 200, "tools": [BASH], "messages": messages}
    sdk = _anthropic(url)
    if stream:
        with sdk.messages.stream(**request) as events:
            return events.get_final_message()
    return sdk.messages.create(**request)


def ask_responses(url: str, items: list[dict[str, Any]], stream: bool, tools: list[Any] | None = None) -> Any:
    request = {"model": "m", "instructions": "You are Codex.", "tools": tools or [SHELL], "input": items,
               "store": False}
    sdk = _openai(url)
    if stream:
        events = list(sdk.responses.create(stream=True, **request))
        assert [e.sequence_number for e in events] == list(range(len(events)))
        assert events[-1].type == "response.completed"
        return events[-1].response  # type: ignore[union-attr]
    return sdk.responses.create(**request)


@pytest.mark.parametrize("stream", [False, True])
def test_messages_a_call_that_failed_twice_is_refused_and_the_model_continues(
        upstream: Upstream, tmp_path: Path, stream: bool) -> None:
    """/v1/messages: the third `make` is answered by the gateway (a tool_result with the reason and the error);
    the client gets the model's next answer, no tool call."""
    with gateway_for(upstream.url, tmp_path, settings=SETTINGS) as gw:
        reply = ask_messages(gw.url, messages_failed_twice(), stream)
    assert [b.type for b in reply.content] == ["text"] and reply.content[0].text == "Giving up on make: it keeps failing."
    sent = upstream.app.messages()
    assert len(sent) == 2
    model_turn, result = sent[-1].body["messages"][-2:]
    assert model_turn["content"][-1]["type"] == "tool_use" and model_turn["content"][-1]["input"] == {"command": "make"}
    block = result["content"][0]
    assert block["type"] == "tool_result" and block["tool_use_id"] == model_turn["content"][-1]["id"]
    assert "failed 2 times" in block["content"] and "cannot import name 'zap'" in block["content"]


@pytest.mark.parametrize("stream", [False, True])
def test_responses_a_call_that_failed_twice_is_refused_and_the_model_continues(
        upstream: Upstream, tmp_path: Path, stream: bool) -> None:
    """/v1/responses: the same, the refusal a function_call_output of the model's call."""
    with gateway_for(upstream.url, tmp_path, settings=SETTINGS) as gw:
        final = ask_responses(gw.url, responses_failed_twice(), stream)
    assert final.output_text == "Giving up on make: it keeps failing."
    assert not any(i.type == "function_call" for i in final.output)
    sent = upstream.app.responses()
    assert len(sent) == 2
    call, output = sent[-1].body["input"][-2:]
    assert call["type"] == "function_call" and output == {**output, "type": "function_call_output",
                                                          "call_id": call["call_id"]}
    assert "failed 2 times" in output["output"] and "cannot import name 'zap'" in output["output"]


def test_refusal_off_passes_the_call_to_the_client(upstream: Upstream, tmp_path: Path) -> None:
    """refuseRepeatedFailures false: the third call reaches the Messages client as the model made it."""
    with gateway_for(upstream.url, tmp_path, settings={**SETTINGS, "refuseRepeatedFailures": False}) as gw:
        reply = ask_messages(gw.url, messages_failed_twice(), False)
    assert [(b.type, b.input) for b in reply.content] == [("tool_use", {"command": "make"})]  # type: ignore[union-attr]
    assert len(upstream.app.messages()) == 1


@pytest.mark.parametrize("stream", [False, True])
def test_messages_a_garbled_call_gets_one_retry(upstream: Upstream, tmp_path: Path, stream: bool) -> None:
    """/v1/messages: a tool_use whose input is not a JSON object goes back to the model with what was wrong (an
    object in its place, as the API wants); the corrected call reaches the client."""
    with gateway_for(upstream.url, tmp_path, settings=SETTINGS) as gw:
        reply = ask_messages(gw.url, [{"role": "user", "content": "garble"}], stream)
    assert [(b.type, b.input) for b in reply.content] == [("tool_use", {"command": "ls"})]  # type: ignore[union-attr]
    model_turn, told = upstream.app.messages()[-1].body["messages"][-2:]
    assert model_turn["content"][-1]["input"] == {}
    assert "not valid JSON" in told["content"][0]["content"]


@pytest.mark.parametrize("stream", [False, True])
def test_responses_a_garbled_call_gets_one_retry(upstream: Upstream, tmp_path: Path, stream: bool) -> None:
    """/v1/responses: arguments that are not a JSON object get one retry; the corrected call reaches the client."""
    with gateway_for(upstream.url, tmp_path, settings=SETTINGS) as gw:
        final = ask_responses(gw.url, [{"type": "message", "role": "user", "content": "garble"}], stream)
    calls = [i for i in final.output if i.type == "function_call"]
    assert [json.loads(c.arguments) for c in calls] == [{"command": "ls"}]
    told = upstream.app.responses()[-1].body["input"][-1]
    assert told["type"] == "function_call_output" and "must be a JSON object" in told["output"]


def test_a_custom_tool_call_is_not_taken_for_a_garbled_one(upstream: Upstream, tmp_path: Path) -> None:
    """Codex's apply_patch (a custom tool: free text, not JSON) reaches the client as the model made it."""
    with gateway_for(upstream.url, tmp_path, settings=SETTINGS) as gw:
        final = ask_responses(gw.url, [{"type": "message", "role": "user", "content": "patch"}], False,
                              tools=[SHELL, PATCH])
    assert [(i.type, i.name) for i in final.output] == [("custom_tool_call", "apply_patch")]  # type: ignore[union-attr]
    assert len(upstream.app.responses()) == 1


STATS_ANSWER = "context-compactor: 2 messages, 40 tokens of a 32,768-token window"


@pytest.mark.parametrize("api", ["messages", "responses"])
def test_an_earlier_context_stats_exchange_is_left_out_of_the_prompt(
        upstream: Upstream, tmp_path: Path, api: str) -> None:
    """A /context-stats question and the gateway's answer kept in the client's history never reach the model;
    the rest of the conversation does, in order."""
    turns = [("user", "build it"), ("assistant", "on it"), ("user", "/context-stats"), ("assistant", STATS_ANSWER),
             ("user", "/compact-now keep the build notes"), ("assistant", "context-compactor: compacted"),
             ("user", "go on")]
    with gateway_for(upstream.url, tmp_path, settings=SETTINGS) as gw:
        if api == "messages":
            ask_messages(gw.url, [{"role": r, "content": t} for r, t in turns], False)
            sent = upstream.app.messages()[-1].body["messages"]
            assert [(m["role"], m["content"]) for m in sent] == [("user", "build it"), ("assistant", "on it"),
                                                                 ("user", "go on")]
        else:
            items = [{"type": "message", "role": r, "content": t if r == "user" else [{"type": "output_text", "text": t}]}
                     for r, t in turns]
            ask_responses(gw.url, items, False)
            sent = upstream.app.responses()[-1].body["input"]
            assert sent == [items[0], items[1], items[-1]]
    assert "context-stats" not in json.dumps(sent) and STATS_ANSWER not in json.dumps(sent)
