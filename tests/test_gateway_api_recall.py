"""recall_history on the Messages and Responses routes: offered in each API's tool shape once the session has
compacted, answered by the gateway inside the turn (the model's signed thinking or reasoning kept in the
continued loop), the client (the official anthropic and openai SDKs, streamed and not) seeing one answer."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anthropic
import openai
import pytest
from fakes import Behaviour
from fakes.apis import ApisUpstream, Asked
from fakes.harness import Upstream, gateway_for, serve_upstream
from test_gateway_recall import ORIGINAL, QUESTION, unfenced
SETTINGS = {"contextWindow": 8000}
ESCAPED = json.dumps(ORIGINAL)[1:-1]  # as it reads inside a JSON body
BASH = {"name": "Bash", "description": "Run a command", "input_schema": {
    "type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]}}
SHELL = {"type": "function", "name": "shell", "description": "Run a command",
         "parameters": {"type": "object", "properties": {"command": {"type": "string"}}}}


class RecallingModel(ApisUpstream):
    """Asked QUESTION with recall_history offered, it searches, reads the first tool hit by its id, and answers
    with the original it got back; asked for "both tools", it calls recall_history and the client's tool at once."""

    thinking = True

    def decide(self, ask: Asked, n: int) -> tuple[str, Any]:
        if ask.result is not None and "recall_history" in ask.tools:
            if "archived messages match" not in ask.result[1]:  # the original, read by its id
                return "text", "From the archive: " + unfenced(ask.result[1])
            first = re.search(r"^(#\d+) \(tool", ask.result[1], re.MULTILINE)
            return "tool", ("recall_history", {"id": first.group(1) if first else "#0"})
        if "recall_history" in ask.tools and QUESTION in ask.user:
            return "tool", ("recall_history", {"query": "deploy token staging cluster"})
        return super().decide(ask, n)


@pytest.fixture
def upstream() -> Iterator[Upstream]:
    with serve_upstream(RecallingModel(Behaviour())) as up:
        yield up


def steps() -> Iterator[tuple[str, str]]:
    for i in range(24):
        yield f"step {i}: " + f"refactor-module-{i} " * 90, f"done {i}: " + f"edited-file-{i} " * 90


def messages_history() -> list[dict[str, Any]]:
    """An Anthropic conversation whose early tool result (ORIGINAL) is folded away at an 8k window, ending on QUESTION."""
    out: list[dict[str, Any]] = [
        {"role": "user", "content": "Check the deploy settings."},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_c1", "name": "Bash",
                                           "input": {"command": "cat deploy.env"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_c1", "content": ORIGINAL}]},
        {"role": "assistant", "content": "Read them."}]
    for user, assistant in steps():
        out += [{"role": "user", "content": user}, {"role": "assistant", "content": assistant}]
    return [*out, {"role": "user", "content": QUESTION}]


def responses_history() -> list[dict[str, Any]]:
    """The same conversation as Responses input items."""
    out: list[dict[str, Any]] = [
        {"type": "message", "role": "user", "content": "Check the deploy settings."},
        {"type": "function_call", "call_id": "call_c1", "name": "shell", "arguments": '{"command": "cat deploy.env"}'},
        {"type": "function_call_output", "call_id": "call_c1", "output": ORIGINAL},
        {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Read them."}]}]
    for user, assistant in steps():
        out += [{"type": "message", "role": "user", "content": user},
                {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": assistant}]}]
    return [*out, {"type": "message", "role": "user", "content": QUESTION}]


def _anthropic(url: str) -> anthropic.Anthropic:
    return anthropic.Anthropic(base_url=url, api_key="unused", max_retries=0, timeout=60)


def _openai(url: str) -> openai.OpenAI:
    return openai.OpenAI(base_url=url + "/v1", api_key="unused", max_retries=0, timeout=60)


@pytest.mark.parametrize("stream", [False, True])
def test_messages_recall_a_folded_result_and_the_client_sees_only_the_answer(
        upstream: Upstream, tmp_path: Path, stream: bool) -> None:
    """The model searches, reads the original by id and answers with it; the continued requests carry its signed
    thinking before each recall call, and the client gets one message without any recall call."""
    request = {"model": "m", "max_tokens": 200, "system": "You are a careful coding agent.", "tools": [BASH],
               "messages": messages_history(), "thinking": {"type": "enabled", "budget_tokens": 1024},
               "metadata": {"user_id": "recall-1"}}
    with gateway_for(upstream.url, tmp_path, settings=SETTINGS) as gw:
        sdk = _anthropic(gw.url)
        if stream:
            with sdk.messages.stream(**request) as events:
                reply = events.get_final_message()
        else:
            reply = sdk.messages.create(**request)
    sent = [r.body for r in upstream.app.messages()]
    assert len(sent) == 3 and all(b["tools"][-1]["name"] == "recall_history" for b in sent)
    assert all("input_schema" in b["tools"][-1] for b in sent)
    assert ESCAPED not in json.dumps(sent[0]["messages"])  # folded away: only the archive has it whole
    for before, after in zip(sent, sent[1:]):  # each round continues the last: the model's blocks, then the result
        model_turn, result = after["messages"][-2], after["messages"][-1]
        assert after["messages"][:-2] == before["messages"]
        assert model_turn["role"] == "assistant" and model_turn["content"][0]["type"] == "thinking"
        assert model_turn["content"][0]["signature"].startswith("sig-")
        assert model_turn["content"][-1]["type"] == "tool_use" and model_turn["content"][-1]["name"] == "recall_history"
        assert result["content"][0]["tool_use_id"] == model_turn["content"][-1]["id"]
    assert ESCAPED in json.dumps(sent[-1]["messages"][-1])  # the tool gave the original back
    texts = [b.text for b in reply.content if b.type == "text"]
    assert texts == ["From the archive: " + ORIGINAL]
    assert all(b.type in ("text", "thinking") for b in reply.content) and reply.stop_reason == "end_turn"


@pytest.mark.parametrize("stream", [False, True])
def test_responses_recall_a_folded_output_and_the_client_sees_only_the_answer(
        upstream: Upstream, tmp_path: Path, stream: bool) -> None:
    """The same through /v1/responses: the continued requests carry the model's reasoning (encrypted_content) and
    its recall call items, and the client gets one response; a stream's sequence numbers and output indexes run on."""
    request = {"model": "m", "instructions": "You are Codex.", "tools": [SHELL], "input": responses_history(),
               "store": False, "prompt_cache_key": "recall-2"}
    with gateway_for(upstream.url, tmp_path, settings=SETTINGS) as gw:
        sdk = _openai(gw.url)
        if stream:
            events = list(sdk.responses.create(stream=True, **request))
            final = events[-1].response  # type: ignore[union-attr]
            assert [e.sequence_number for e in events] == list(range(len(events)))
            added = [e.output_index for e in events if e.type == "response.output_item.added"]
            assert added == list(range(len(added)))
            assert [e.type for e in events].count("response.created") == 1 and events[-1].type == "response.completed"
            assert final.id == events[0].response.id  # type: ignore[union-attr]
        else:
            final = sdk.responses.create(**request)
    sent = [r.body for r in upstream.app.responses()]
    assert len(sent) == 3 and all(b["tools"][-1]["name"] == "recall_history" for b in sent)
    assert ESCAPED not in json.dumps(sent[0]["input"]) and ESCAPED in json.dumps(sent[-1]["input"][-1])
    for before, after in zip(sent, sent[1:]):
        added = after["input"][len(before["input"]):]
        assert after["input"][:len(before["input"])] == before["input"]
        assert [i["type"] for i in added] == ["reasoning", "function_call", "function_call_output"]
        assert added[0]["encrypted_content"].startswith("enc-") and added[1]["name"] == "recall_history"
        assert added[2]["call_id"] == added[1]["call_id"]
    assert final.output_text == "From the archive: " + ORIGINAL
    assert not any(i.type == "function_call" for i in final.output)


def test_a_reply_mixing_recall_and_a_client_tool_reaches_the_client_with_its_own_call_only(
        upstream: Upstream, tmp_path: Path) -> None:
    """A streamed Anthropic reply calling recall_history and the client's Bash reaches the client with Bash alone,
    its blocks numbered without a gap."""

    def both(ask: Asked, n: int) -> tuple[str, Any]:
        return "tools", [("recall_history", {"query": "token"}), ("Bash", {"command": "ls"})]

    upstream.app.decide = both  # type: ignore[method-assign]
    request = {"model": "m", "max_tokens": 200, "tools": [BASH], "messages": messages_history(),
               "thinking": {"type": "enabled", "budget_tokens": 1024}, "metadata": {"user_id": "recall-3"}}
    with gateway_for(upstream.url, tmp_path, settings=SETTINGS) as gw:
        with _anthropic(gw.url).messages.stream(**request) as events:
            reply = events.get_final_message()
    assert [(b.type, getattr(b, "name", None)) for b in reply.content] == [("thinking", None), ("tool_use", "Bash")]
    assert reply.content[1].input == {"command": "ls"} and reply.stop_reason == "tool_use"  # type: ignore[union-attr]
