"""Unit tests of the gateway's pure parts: overflow shapes, SSE relay bookkeeping, sessions, config."""

from __future__ import annotations

import asyncio
import json

import pytest
from fakes import OVERFLOW_STYLES, overflow_body

from context_compactor.errors import ConfigError
from context_compactor.gateway.commands import find_command
from context_compactor.gateway.config import GatewayConfig
from context_compactor.gateway.overflow import detect
from context_compactor.gateway.sessions import KeyedLocks, session_key
from context_compactor.gateway.sse import EventSplitter, StreamWatch, completion_stream
from context_compactor.hookspecs import Command
from context_compactor.plugins import commands, get_plugin_manager

# Verbatim bodies from llama-cpp-python 0.3.36 (see the probe report of the LLM summarizer work).
LLAMA_CPP_PYTHON_CHAT = (b'{"error":{"message":"This model\'s maximum context length is 2048 tokens. However, you '
                         b'requested 2735 tokens (2671 in the messages, 64 in the completion). Please reduce the length '
                         b'of the messages or completion.","type":"invalid_request_error","param":"messages",'
                         b'"code":"context_length_exceeded"}}')
LLAMA_CPP_PYTHON_COMPLETIONS = (b'{"error":{"message":"This model\'s maximum context length is 2048 tokens, however you '
                                b'requested 2705 tokens (2641 in your prompt; 64 for the completion). Please reduce your '
                                b'prompt; or completion length.","type":"invalid_request_error","param":"messages",'
                                b'"code":"context_length_exceeded"}}')


def test_llama_cpp_python_overflow_is_recognised_with_its_window() -> None:
    """llama-cpp-python's verbatim 400 body yields its n_ctx and its own prompt count."""
    found = detect(400, LLAMA_CPP_PYTHON_CHAT)
    assert found is not None and (found.window, found.prompt_tokens) == (2048, 2671)
    assert detect(400, LLAMA_CPP_PYTHON_COMPLETIONS) is not None


@pytest.mark.parametrize("style", OVERFLOW_STYLES)
def test_every_server_shape_is_recognised(style: str) -> None:
    """The overflow shape of each local server (and OpenAI) gives the window and the prompt size."""
    status, body = overflow_body(style, 4096, 5000)
    found = detect(status, json.dumps(body).encode())
    assert found is not None and found.window == 4096 and found.prompt_tokens == 5000


@pytest.mark.parametrize(("text", "window"), [
    ("The number of tokens to keep from the initial prompt is greater than the context length (n_keep: 10247 >= n_ctx: 4096).", 4096),
    ("Cannot truncate prompt with n_keep (15028) >= n_ctx (7424)", 7424),
])
def test_lm_studio_n_keep_messages_are_recognised(text: str, window: int) -> None:
    """LM Studio's n_keep wording names n_ctx; it is read as the window (never n_keep)."""
    found = detect(400, json.dumps({"error": text}).encode())
    assert found is not None and found.window == window


def test_openai_message_without_numbers_is_still_an_overflow() -> None:
    """An overflow that states no size is recognised, with the window unknown."""
    body = {"error": {"message": "Your input exceeds the context window of this model.", "code": "context_length_exceeded"}}
    found = detect(400, json.dumps(body).encode())
    assert found is not None and found.window is None


@pytest.mark.parametrize("status,body", [
    (400, b'{"error":{"message":"messages: field required","type":"invalid_request_error"}}'),
    (429, b'{"error":{"message":"Rate limit: too many tokens per minute"}}'),
    (500, b"Internal Server Error"),
    (200, LLAMA_CPP_PYTHON_CHAT),
])
def test_other_errors_are_not_overflows(status: int, body: bytes) -> None:
    """Validation errors, rate limits, plain 500s and successes are left alone."""
    assert detect(status, body) is None


def test_splitter_yields_whole_events_across_reads() -> None:
    """Events split over several reads come out whole, with LF or CRLF separators."""
    splitter = EventSplitter()
    assert splitter.feed(b"data: {\"a\"") == []
    assert splitter.feed(b": 1}\n\ndata: x\r\n\r\nda") == [b'data: {"a": 1}\n\n', b"data: x\r\n\r\n"]
    assert splitter.feed(b"ta: [DONE]\n\n") == [b"data: [DONE]\n\n"]
    assert splitter.rest() == b""


def test_watch_drops_the_usage_chunk_only_when_the_client_did_not_ask() -> None:
    """The usage-only chunk is stripped for a client that did not ask, and its usage is still read."""
    usage_event = b'data: {"choices": [], "usage": {"prompt_tokens": 9, "completion_tokens": 2}}\n\n'
    stripping, keeping = StreamWatch(strip_usage=True), StreamWatch(strip_usage=False)
    assert stripping.keep(usage_event) is False and stripping.usage == {"prompt_tokens": 9, "completion_tokens": 2}
    assert keeping.keep(usage_event) is True


def test_watch_rebuilds_the_reply_with_tool_calls() -> None:
    """Content and tool-call deltas are joined into the reply that after_turn receives."""
    watch = StreamWatch(strip_usage=True)
    for delta in ({"role": "assistant", "content": "Hi"}, {"content": " there"},
                  {"tool_calls": [{"index": 0, "id": "c1", "function": {"name": "read", "arguments": "{\"p\""}}]},
                  {"tool_calls": [{"index": 0, "function": {"arguments": ": 1}"}}]}):
        watch.keep(b"data: " + json.dumps({"choices": [{"index": 0, "delta": delta}]}).encode() + b"\n\n")
    watch.keep(b'data: {"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}\n\n')
    reply = watch.reply()
    assert reply["content"] == "Hi there" and watch.complete
    assert reply["tool_calls"][0]["function"] == {"name": "read", "arguments": '{"p": 1}'}


def test_command_stream_is_a_valid_event_stream() -> None:
    """A command answer streamed by the gateway parses chunk by chunk and ends with [DONE]."""
    events = EventSplitter().feed(completion_stream("hello", "m", include_usage=True))
    watch = StreamWatch(strip_usage=False)
    assert all(watch.keep(e) for e in events)
    assert watch.reply()["content"] == "hello" and watch.done and watch.usage is not None


def test_session_key_prefers_header_then_user_then_fingerprint() -> None:
    """X-Session-Id wins over the user field, which wins over the fingerprint of the opening."""
    body = {"user": "alice", "messages": [{"role": "system", "content": "s"}, {"role": "user", "content": "hi"}]}
    assert session_key("abc", body) == "gw:abc"
    assert session_key(None, body) == "gw:user:alice"
    longer = {"messages": [*body["messages"], {"role": "assistant", "content": "yo"}, {"role": "user", "content": "more"}]}
    assert session_key(None, {"messages": body["messages"]}) == session_key(None, longer)
    other = {"messages": [{"role": "system", "content": "s"}, {"role": "user", "content": "hello"}]}
    assert session_key(None, other) != session_key(None, longer)


def test_keyed_locks_serialise_one_key_and_forget_idle_keys() -> None:
    """Two holders of one key take turns; the lock is dropped once nobody holds it."""
    locks, order = KeyedLocks(), []

    async def hold(name: str) -> None:
        async with locks.hold("k"):
            order.append(f"{name}-in")
            await asyncio.sleep(0.01)
            order.append(f"{name}-out")

    async def main() -> None:
        await asyncio.gather(hold("a"), hold("b"))

    asyncio.run(main())
    assert order == ["a-in", "a-out", "b-in", "b-out"] and len(locks) == 0


@pytest.mark.parametrize("upstream,path,expected", [
    ("http://127.0.0.1:8080/v1", "/v1/chat/completions", "http://127.0.0.1:8080/v1/chat/completions"),
    ("http://127.0.0.1:8080", "/v1/models", "http://127.0.0.1:8080/v1/models"),
    ("http://127.0.0.1:8080/v1/", "/extras/tokenize", "http://127.0.0.1:8080/extras/tokenize"),
    ("https://example.test/openai/v1", "/chat/completions", "https://example.test/openai/v1/chat/completions"),
])
def test_paths_map_onto_the_upstream(upstream: str, path: str, expected: str) -> None:
    """/v1 paths go under the upstream's base URL, other paths under its root."""
    assert GatewayConfig(upstream=upstream).target(path) == expected


def test_a_bad_upstream_url_is_refused_with_the_fix() -> None:
    """An upstream that is not an http(s) URL is a ConfigError naming the expected form."""
    with pytest.raises(ConfigError, match="http://127.0.0.1:8080/v1"):
        GatewayConfig(upstream="localhost:8080")


def test_secrets_never_show_in_the_config_repr() -> None:
    """Neither key appears in repr(config) (it may reach a log or a traceback)."""
    from pydantic import SecretStr

    config = GatewayConfig(upstream="http://x/v1", api_key=SecretStr("client-secret"),
                           upstream_api_key=SecretStr("upstream-secret"))
    assert "secret" not in repr(config)


def test_commands_are_found_in_the_newest_user_message() -> None:
    """/compact-now takes its note; /context-stats ignores arguments; other text is no command."""
    found = commands(get_plugin_manager())
    hit = find_command([{"role": "user", "content": "/compact-now keep the port numbers"}], found)
    assert hit is not None and hit[0].name == "compact-now" and hit[1] == "keep the port numbers"
    parts = [{"role": "user", "content": [{"type": "text", "text": "/context-stats"}]}]
    assert (hit := find_command(parts, found)) is not None and hit[0].name == "context-stats"
    assert find_command([{"role": "user", "content": "/unknown"}], found) is None
    assert find_command([{"role": "user", "content": "/context-stats"}, {"role": "assistant", "content": "x"}], found) is None
    assert isinstance(next(iter(found.values())), Command)



def test_watch_relays_chunks_of_an_odd_shape_without_failing() -> None:
    """A chunk whose delta is malformed is kept for the client and simply not understood."""
    watch = StreamWatch(strip_usage=True)
    odd = b'data: {"choices": [{"index": 0, "delta": {"tool_calls": ["not-an-object"]}}]}\n\n'
    assert watch.keep(odd) is True and watch.reply() == {"role": "assistant", "content": ""}


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16"])
def test_the_stream_usage_request_is_added_to_the_clients_own_bytes(make_runtime, encoding: str) -> None:
    """A stream without stream_options gets include_usage: spliced into the client's UTF-8 bytes (no
    re-serialization), re-written for anything else; either way the rest of the body is unchanged."""
    from context_compactor.gateway import Gateway
    from context_compactor.gateway.turn import ChatTurn

    body = {"model": "m", "messages": [{"role": "user", "content": "h\u00e9llo \u2603"}], "stream": True, "x-extra": [1, 2]}
    raw = json.dumps(body, ensure_ascii=False).encode(encoding)
    gw = Gateway(GatewayConfig(upstream="http://127.0.0.1:9/v1"), make_runtime())
    turn = ChatTurn(gw, json.loads(raw), raw, "k", None)
    sent = turn.payload()
    assert json.loads(sent) == {**body, "stream_options": {"include_usage": True}}
    if encoding == "utf-8":
        assert sent.endswith(raw[1:])  # the client's bytes, one member in front
    plain = ChatTurn(gw, {**body, "stream": False}, raw, "k", None)
    assert plain.payload() is raw
