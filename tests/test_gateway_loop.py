"""Issue 13 in ``serve`` (openai SDK, streamed and not): a call that failed twice as written is refused by
the gateway, a garbled call gets one retry, and a /btw side question goes upstream without tools."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fakes.chat import text_of, tool_call
from fakes.harness import Upstream, gateway_for, sdk, serve_upstream
from fakes.upstream import Behaviour, FakeUpstream

TOOLS = [{"type": "function", "function": {"name": "bash", "description": "Run a command",
                                           "parameters": {"type": "object", "properties": {"command": {"type": "string"}}}}}]
TRACE = "Traceback (most recent call last):\n  File \"run.py\", line 1\nImportError: cannot import name 'zap'\nexit code 1"


class LoopingModel(FakeUpstream):
    """A scripted model: it asks for ``bash {"command": "make"}`` until a tool result tells it otherwise;
    for "garble" it first sends arguments that are not JSON, then valid ones; for /btw it answers in text."""

    def _reply(self, body: dict[str, Any], n: int) -> dict[str, Any]:
        messages = body["messages"]
        last = messages[-1]
        text = text_of(last.get("content"))
        if last.get("role") == "tool" and "context-compactor refused" in text:
            return {"role": "assistant", "content": "Giving up on make: it keeps failing."}
        if last.get("role") == "tool" and "was not run" in text:
            return _call("g2", '{"command": "ls"}')
        if last.get("role") == "user" and text.startswith("/btw"):
            return {"role": "assistant", "content": "No tools here: " + str("tools" in body)}
        if last.get("role") == "user" and text == "garble":
            return _call("g1", '{"command": "ls"')
        return _call(f"m{n}", '{"command": "make"}')


def _call(call_id: str, arguments: str) -> dict[str, Any]:
    return tool_call(call_id, "bash", arguments)


@pytest.fixture
def upstream() -> Iterator[Upstream]:
    with serve_upstream(LoopingModel(Behaviour())) as up:
        yield up


def failed_twice() -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = [{"role": "system", "content": "agent"}, {"role": "user", "content": "build it"}]
    for i in (1, 2):
        messages += [_call(f"f{i}", '{"command": "make"}'), {"role": "tool", "tool_call_id": f"f{i}", "content": TRACE}]
    return messages


def ask(url: str, messages: list[dict[str, Any]], stream: bool, **extra: Any) -> tuple[str, list[Any]]:
    client = sdk(url)
    if stream:
        chunks = list(client.chat.completions.create(model="m", messages=messages, stream=True, tools=TOOLS, **extra))
        text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
        calls = [tc for c in chunks if c.choices for tc in (c.choices[0].delta.tool_calls or [])]
        return text, calls
    reply = client.chat.completions.create(model="m", messages=messages, tools=TOOLS, **extra)
    return reply.choices[0].message.content or "", list(reply.choices[0].message.tool_calls or [])


@pytest.mark.parametrize("stream", [False, True])
def test_a_call_that_failed_twice_is_refused_and_the_model_continues(
        upstream: Upstream, tmp_path: Path, stream: bool) -> None:
    """The third `make` is answered by the gateway with the reason and the error; the client sees the model's next answer."""
    with gateway_for(upstream.url, tmp_path, settings={"contextWindow": 32768}) as gw:
        text, calls = ask(gw.url, failed_twice(), stream)
    assert text == "Giving up on make: it keeps failing." and calls == []
    sent = upstream.app.chats()
    refusal = text_of(sent[-1].body["messages"][-1]["content"])
    assert "failed 2 times" in refusal and "cannot import name 'zap'" in refusal


def test_refusal_off_passes_the_call_to_the_client(upstream: Upstream, tmp_path: Path) -> None:
    """refuseRepeatedFailures false: the third call reaches the client as the model made it."""
    with gateway_for(upstream.url, tmp_path, settings={"contextWindow": 32768, "refuseRepeatedFailures": False}) as gw:
        _text, calls = ask(gw.url, failed_twice(), False)
    assert [c.function.arguments for c in calls] == ['{"command": "make"}']


def test_a_call_that_failed_once_runs(upstream: Upstream, tmp_path: Path) -> None:
    """One failure is not a pattern: the call goes to the client."""
    with gateway_for(upstream.url, tmp_path, settings={"contextWindow": 32768}) as gw:
        _text, calls = ask(gw.url, failed_twice()[:4], False)
    assert len(calls) == 1 and calls[0].function.name == "bash"


@pytest.mark.parametrize("stream", [False, True])
def test_a_garbled_call_gets_one_retry(upstream: Upstream, tmp_path: Path, stream: bool) -> None:
    """Arguments that are not JSON: the model is told what was wrong, and its corrected call reaches the client."""
    with gateway_for(upstream.url, tmp_path, settings={"contextWindow": 32768}) as gw:
        _text, calls = ask(gw.url, [{"role": "user", "content": "garble"}], stream)
    arguments = "".join(c.function.arguments or "" for c in calls)
    assert json.loads(arguments) == {"command": "ls"}
    told = text_of(upstream.app.chats()[-1].body["messages"][-1]["content"])
    assert "not valid JSON" in told


@pytest.mark.parametrize("stream", [False, True])
def test_a_side_question_goes_upstream_without_tools(upstream: Upstream, tmp_path: Path, stream: bool) -> None:
    """/btw: the gateway removes the tools (and tool_choice) from that request."""
    messages = [{"role": "user", "content": "build it"}, {"role": "assistant", "content": "on it"},
                {"role": "user", "content": "/btw what is make?"}]
    with gateway_for(upstream.url, tmp_path, settings={"contextWindow": 32768}) as gw:
        text, calls = ask(gw.url, messages, stream, tool_choice="auto")
    body = upstream.app.chats()[-1].body
    assert "tools" not in body and "tool_choice" not in body
    assert text == "No tools here: False" and calls == []


def test_an_answered_side_question_is_left_out_of_the_next_request(upstream: Upstream, tmp_path: Path) -> None:
    """The next turn's request carries neither the /btw question nor its answer."""
    messages = [{"role": "user", "content": "build it"}, {"role": "assistant", "content": "on it"},
                {"role": "user", "content": "/btw what is make?"}, {"role": "assistant", "content": "A build tool."},
                {"role": "user", "content": "go on"}]
    with gateway_for(upstream.url, tmp_path, settings={"contextWindow": 32768}) as gw:
        ask(gw.url, messages, False)
    body = upstream.app.chats()[-1].body
    assert "/btw" not in json.dumps(body["messages"]) and "tools" in body
