"""The gateway on a real socket, driven by the official openai SDK, in front of a fake upstream."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import openai
import pytest
import structlog
from fakes.harness import Upstream, fake_upstream, gateway_for
from pydantic import SecretStr

TOOLS = [{"type": "function", "function": {"name": "read_file", "description": "Read a file",
                                           "parameters": {"type": "object", "properties": {"path": {"type": "string"}}}}}]


def history(turns: int, chars: int = 1200, tag: str = "s") -> list[dict[str, Any]]:
    """A conversation of ``turns`` user/assistant pairs, each message about ``chars`` characters."""
    messages: list[dict[str, Any]] = [{"role": "system", "content": "You are a careful coding agent."}]
    for i in range(turns):
        messages.append({"role": "user", "content": f"[{tag}] request {i}: " + f"detail-{tag}-{i} " * (chars // 12)})
        messages.append({"role": "assistant", "content": f"[{tag}] answer {i}: " + f"done-{tag}-{i} " * (chars // 10)})
    return messages


@pytest.fixture
def upstream() -> Iterator[Upstream]:
    with fake_upstream() as up:
        yield up


def sdk(url: str, key: str = "unused", **options: Any) -> openai.OpenAI:
    return openai.OpenAI(base_url=url + "/v1", api_key=key, max_retries=0, timeout=30,
                         default_headers={"X-Test-Client": "sdk"}, **options)


def from_client(up: Upstream) -> list[Any]:
    """The upstream requests the SDK caused directly (not the summarizer's own calls)."""
    return [r for r in up.app.chats() if r.headers.get("x-test-client") == "sdk"]


def test_plain_completion_is_relayed_with_usage(upstream: Upstream, tmp_path: Path) -> None:
    """A non-streamed completion comes back as the upstream wrote it, usage included."""
    with gateway_for(upstream.url, tmp_path) as gw:
        reply = sdk(gw.url).chat.completions.create(model="m", messages=[{"role": "user", "content": "hello"}])
    assert reply.choices[0].message.content.endswith("to: hello")
    assert reply.usage is not None and reply.usage.prompt_tokens == upstream.app.chats()[-1].prompt_tokens


def test_stream_is_relayed_and_the_unrequested_usage_chunk_stripped(upstream: Upstream, tmp_path: Path) -> None:
    """The gateway asks the upstream for usage, reads it, and hides the usage chunk from a client that did not ask."""
    with gateway_for(upstream.url, tmp_path) as gw:
        chunks = list(sdk(gw.url).chat.completions.create(
            model="m", messages=[{"role": "user", "content": "stream me"}], stream=True, extra_headers={"X-Session-Id": "u1"}))
        deadline = time.monotonic() + 10  # after_turn runs off the reply path
        while not (measured := gw.runtime.session("gw:u1").last.get("measured_tokens")) and time.monotonic() < deadline:
            time.sleep(0.02)
    assert upstream.app.chats()[-1].body["stream_options"] == {"include_usage": True}
    assert all(chunk.choices for chunk in chunks) and all(chunk.usage is None for chunk in chunks)
    assert "".join(c.choices[0].delta.content or "" for c in chunks).endswith("to: stream me")
    assert measured == upstream.app.chats()[-1].prompt_tokens


def test_stream_usage_reaches_a_client_that_asked(upstream: Upstream, tmp_path: Path) -> None:
    """With stream_options.include_usage the client gets the usage chunk, as from the upstream."""
    with gateway_for(upstream.url, tmp_path) as gw:
        chunks = list(sdk(gw.url).chat.completions.create(
            model="m", messages=[{"role": "user", "content": "hi"}], stream=True, stream_options={"include_usage": True}))
    assert chunks[-1].usage is not None and chunks[-1].usage.prompt_tokens > 0


@pytest.mark.parametrize("stream", [False, True])
def test_tool_calls_round_trip(upstream: Upstream, tmp_path: Path, stream: bool) -> None:
    """A tool call comes back to the client, and the tool result goes up on the next turn."""
    messages: list[dict[str, Any]] = [{"role": "user", "content": "please use a tool to read setup.py"}]
    with gateway_for(upstream.url, tmp_path) as gw:
        client = sdk(gw.url)
        if stream:
            chunks = list(client.chat.completions.create(model="m", messages=messages, tools=TOOLS, stream=True))
            calls = [tc for c in chunks if c.choices for tc in (c.choices[0].delta.tool_calls or [])]
            call_id, name = calls[0].id, calls[0].function.name
            arguments = "".join(tc.function.arguments or "" for tc in calls)
        else:
            message = client.chat.completions.create(model="m", messages=messages, tools=TOOLS).choices[0].message
            call_id, name, arguments = message.tool_calls[0].id, message.tool_calls[0].function.name, message.tool_calls[0].function.arguments
        assert name == "read_file" and json.loads(arguments)["n"] >= 1
        messages += [{"role": "assistant", "content": "", "tool_calls": [
                         {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}]},
                     {"role": "tool", "tool_call_id": call_id, "content": "print('hi')"}]
        client.chat.completions.create(model="m", messages=messages, tools=TOOLS)
    sent = upstream.app.chats()[-1].body
    assert sent["messages"][-1] == {"role": "tool", "tool_call_id": call_id, "content": "print('hi')"}
    assert sent["tools"] == TOOLS


def test_unknown_fields_pass_through_untouched(upstream: Upstream, tmp_path: Path) -> None:
    """Fields the gateway does not know reach the upstream exactly as the client sent them."""
    extra = {"top_k": 7, "mirostat": 2, "vendor": {"nested": [1, "two", None]}}
    with gateway_for(upstream.url, tmp_path) as gw:
        sdk(gw.url).chat.completions.create(model="m", messages=[{"role": "user", "content": "x"}], extra_body=extra,
                                            temperature=0.2)
    body = upstream.app.chats()[-1].body
    assert {k: body[k] for k in extra} == extra and body["temperature"] == 0.2


def test_models_and_other_paths_are_proxied(upstream: Upstream, tmp_path: Path) -> None:
    """GET /v1/models and a non-/v1 path reach the upstream and come back unchanged."""
    upstream.behaviour.model_fields = {"max_model_len": 4096}
    with gateway_for(upstream.url, tmp_path) as gw:
        models = sdk(gw.url).models.list()
        counted = httpx.post(gw.url + "/extras/tokenize/count", json={"input": "x" * 35})
        missing = httpx.get(gw.url + "/nowhere")
    assert [m.id for m in models.data] == ["fake-model"]
    assert counted.json() == {"count": 10} and missing.status_code == 404


def test_commands_are_answered_by_the_gateway(upstream: Upstream, tmp_path: Path) -> None:
    """/context-stats and /compact-now answer through the SDK, streamed or not, without calling the upstream."""
    messages = history(6)
    with gateway_for(upstream.url, tmp_path, settings={"contextWindow": 8000}) as gw:
        client = sdk(gw.url)
        client.chat.completions.create(model="m", messages=messages)
        calls = len(from_client(upstream))
        stats = client.chat.completions.create(model="m", messages=[*messages, {"role": "user", "content": "/context-stats"}])
        chunks = list(client.chat.completions.create(
            model="m", messages=[*messages, {"role": "user", "content": "/compact-now keep the detail ids"}], stream=True))
        after = client.chat.completions.with_raw_response.create(model="m", messages=messages)
    assert len(from_client(upstream)) == calls + 1  # only the last request went upstream
    assert "context-compactor stats" in stats.choices[0].message.content and "8,000 tokens" in stats.choices[0].message.content
    # The turn just before is in the stats although its bookkeeping runs off the reply path.
    reported = upstream.app.chats()[calls - 1].prompt_tokens
    assert f"last measured by the provider: {reported:,} prompt tokens" in stats.choices[0].message.content
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert "compacted" in text and "->" in text
    assert after.headers["x-context-compactor-compacted"] == "1"
    first_user = from_client(upstream)[-1].body["messages"][1]["content"]
    assert "Focus requested by the user: keep the detail ids" in first_user


def test_compaction_is_reported_in_headers_not_in_the_reply(upstream: Upstream, tmp_path: Path) -> None:
    """Over the trigger the upstream gets a smaller prompt; the client learns it from headers only."""
    messages = history(12)
    with gateway_for(upstream.url, tmp_path, settings={"contextWindow": 4000}) as gw:
        raw = sdk(gw.url).chat.completions.with_raw_response.create(model="m", messages=messages)
    before, after = (int(n) for n in raw.headers["x-context-compactor-tokens"].split("->"))
    assert raw.headers["x-context-compactor-compacted"] == "1" and after < before <= 2 * len(json.dumps(messages))
    assert "prompt compacted" in raw.headers["x-context-compactor-notice"]
    # the reply is the upstream's as it came, no notice in front of it (the fake echoes the start of the last user
    # message, which at this window opens with the block: the tail is the current turn)
    assert raw.parse().choices[0].message.content.startswith("reply #")
    sent = from_client(upstream)[-1]
    assert len(sent.body["messages"]) < len(messages) and sent.body["messages"][-1] == messages[-1]


def test_announce_puts_the_notice_in_front_of_the_reply(upstream: Upstream, tmp_path: Path) -> None:
    """With announce on, the compaction notice starts the reply text, streamed or not."""
    messages = history(12)
    with gateway_for(upstream.url, tmp_path, settings={"contextWindow": 4000, "announce": True}) as gw:
        plain = sdk(gw.url).chat.completions.create(model="m", messages=messages, extra_headers={"X-Session-Id": "a"})
        chunks = list(sdk(gw.url).chat.completions.create(model="m", messages=messages, stream=True,
                                                          extra_headers={"X-Session-Id": "b"}))
    assert plain.choices[0].message.content.startswith("[context-compactor: prompt compacted")
    assert "".join(c.choices[0].delta.content or "" for c in chunks).startswith("[context-compactor: prompt compacted")


def test_client_key_is_required_when_configured_and_never_forwarded(upstream: Upstream, tmp_path: Path) -> None:
    """A wrong or missing bearer key gets 401; the right one works and does not reach the upstream."""
    with gateway_for(upstream.url, tmp_path, api_key=SecretStr("client-key")) as gw:
        with pytest.raises(openai.AuthenticationError, match="API key"):
            sdk(gw.url, key="wrong").chat.completions.create(model="m", messages=[{"role": "user", "content": "x"}])
        assert httpx.get(gw.url + "/v1/models").status_code == 401
        sdk(gw.url, key="client-key").chat.completions.create(model="m", messages=[{"role": "user", "content": "x"}])
    assert len(upstream.app.chats()) == 1
    assert "client-key" not in json.dumps(upstream.app.chats()[0].headers)


def test_upstream_key_is_sent_upstream_and_never_logged(upstream: Upstream, tmp_path: Path) -> None:
    """The upstream key replaces the client's Authorization and appears in no log line."""
    with structlog.testing.capture_logs() as logs:
        with gateway_for(upstream.url, tmp_path, upstream_api_key=SecretStr("sk-upstream-123")) as gw:
            sdk(gw.url, key="client").chat.completions.create(model="m", messages=[{"role": "user", "content": "x"}])
    assert upstream.app.chats()[0].headers["authorization"] == "Bearer sk-upstream-123"
    assert any(line["event"] == "gateway.request" for line in logs)
    assert "sk-upstream-123" not in repr(logs)


def test_summaries_are_asked_of_the_session_model_with_the_upstream_key(upstream: Upstream, tmp_path: Path) -> None:
    """With summarizeWithSessionModel, summaries are asked of the same upstream model, with the same key.

    (Small chunks, so that closed chunks exist: only those go to a model.)
    """
    def summaries() -> list[Any]:
        return [r for r in upstream.app.requests
                if r.path.endswith("/chat/completions") and r.headers.get("x-context-compactor-purpose") == "summary"]

    with gateway_for(upstream.url, tmp_path, settings={"contextWindow": 4000, "chunkTokens": 256, "summarizeWithSessionModel": True},
                     upstream_api_key=SecretStr("sk-for-summaries")) as gw:
        sdk(gw.url).chat.completions.create(model="m", messages=history(12))
        deadline = time.monotonic() + 20  # the first summary may be made in the background
        while not summaries() and time.monotonic() < deadline:
            time.sleep(0.05)
    assert summaries() and all(r.headers["authorization"] == "Bearer sk-for-summaries" for r in summaries())
    assert all(r.body["model"] == "m" for r in summaries())


def test_body_over_the_limit_is_refused_with_413(upstream: Upstream, tmp_path: Path) -> None:
    """A request body above max_body_bytes gets 413 and never reaches the upstream."""
    with gateway_for(upstream.url, tmp_path, max_body_bytes=10_000) as gw:
        with pytest.raises(openai.APIStatusError) as raised:
            sdk(gw.url).chat.completions.create(model="m", messages=[{"role": "user", "content": "x" * 20_000}])
        chunked = httpx.post(gw.url + "/v1/chat/completions", content=iter([b"{" + b" " * 6000, b" " * 6000 + b"}"]))
    assert raised.value.status_code == 413 and "--max-body-mb" in raised.value.message
    assert chunked.status_code == 413 and upstream.app.chats() == []


def test_requests_we_cannot_read_pass_through_unchanged(upstream: Upstream, tmp_path: Path) -> None:
    """A body that is not a chat request is forwarded as it is, and the upstream's answer relayed."""
    with gateway_for(upstream.url, tmp_path) as gw:
        response = httpx.post(gw.url + "/v1/chat/completions", content=b'{"prompt": "no messages"}')
        orphan = httpx.post(gw.url + "/v1/chat/completions", json={"model": "m", "messages": [
            {"role": "tool", "tool_call_id": "nobody", "content": "x"}]})
    assert response.status_code == 422 and upstream.app.chats()[0].body == {"prompt": "no messages"}
    assert orphan.status_code == 200  # forwarded without compaction; the upstream decides


def test_health_needs_no_key(upstream: Upstream, tmp_path: Path) -> None:
    """The gateway's own health path answers without a key and without the upstream."""
    with gateway_for(upstream.url, tmp_path, api_key=SecretStr("k")) as gw:
        assert httpx.get(gw.url + "/context-compactor/health").json() == {"status": "ok"}
