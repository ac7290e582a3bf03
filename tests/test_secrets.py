"""The upstream key never reaches a client, a log line, stats, /context-stats or the store (issue 14 B1), and
redaction never garbles text or changes what an error is taken for (B2)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import structlog
from convo import coding_session
from fakes.asgi import headers_of, lifespan, read_body, send_events, send_json
from fakes.chat import DONE, chunk, chat_reply, models_list, sectioned, sse
from fakes.harness import gateway_for
from fakes.server import ServerThread
from hypothesis import given
from hypothesis import strategies as st
from pydantic import SecretStr

from context_compactor.redact import MIN_SECRET_CHARS, StreamRedactor, redact, redact_bytes
from context_compactor.summarizer.client import _status_error

KEY = "sk-upstream-echoed-0123456789abcdef"
OVERFLOW = "This model's maximum context length is 1024 tokens. However, you requested 2000 tokens"


class EchoingUpstream:
    """An OpenAI-compatible server that echoes the key it was sent, in a 401, a 500 or a 200 body
    (``mode``), for the agent's requests and the summary requests alike."""

    def __init__(self, mode: str) -> None:
        self.mode = mode
        self.summaries = 0

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            await lifespan(receive, send)
            return
        headers = headers_of(scope)
        raw = await read_body(receive)
        key = headers.get("authorization", "").removeprefix("Bearer ")
        summary = headers.get("x-context-compactor-purpose") == "summary"
        self.summaries += summary
        if scope["path"].endswith("/models"):
            await self.reply(send, 200, models_list(f"model-for-{key}"))
        elif self.mode == "401":
            await self.reply(send, 401, {"error": {"message": f"Incorrect API key provided: {key}.", "code": 401}})
        elif self.mode == "500":
            await self.reply(send, 500, {"error": f"internal error while serving key {key}"})
        elif summary:
            await self.reply(send, 200, chat_reply(sectioned(f"key {key}")))
        elif json.loads(raw).get("stream"):
            await self.stream(send, f"your key is {key}")
        else:
            await self.reply(send, 200, chat_reply(f"your key is {key}"))

    async def reply(self, send: Any, status: int, body: Any) -> None:
        await send_json(send, status, body)

    async def stream(self, send: Any, text: str) -> None:
        base = {"id": "c1", "model": "m", "created": 1}
        events = [sse(chunk(base, {"role": "assistant", "content": ""}))]
        events += [sse(chunk(base, {"content": word + " "})) for word in text.split()]
        events += [sse(chunk(base, {}, "stop")), DONE]
        await send_events(send, events)


def stored_bytes(folder: Path) -> bytes:
    return b"".join(p.read_bytes() for p in folder.iterdir() if p.name.startswith("gateway-store"))


@pytest.mark.parametrize("mode", ["401", "500", "200"])
@pytest.mark.parametrize("stream", [False, True])
def test_the_upstream_key_never_reaches_the_client_or_the_request_log(tmp_path: Path, mode: str, stream: bool) -> None:
    """An upstream echoing its key in a 401, 500 or 200 body: the client's body, the proxied /v1/models and
    every log line carry [redacted] instead."""
    app = EchoingUpstream(mode)
    with ServerThread(app) as up, structlog.testing.capture_logs() as logs:
        with gateway_for(up.url, tmp_path, upstream_api_key=SecretStr(KEY)) as gw:
            answer = httpx.post(gw.url + "/v1/chat/completions", timeout=30, json={
                "model": "m", "stream": stream, "messages": [{"role": "user", "content": "what is my key?"}]})
            models = httpx.get(gw.url + "/v1/models", timeout=30)
    assert answer.status_code == int(mode)
    assert KEY not in answer.text and "[redacted]" in answer.text
    assert KEY not in models.text and "[redacted]" in models.text
    assert any(line["event"] == "gateway.request" for line in logs)
    assert KEY not in repr(logs)


@pytest.mark.parametrize("mode", ["401", "500", "200"])
def test_the_key_echoed_to_the_summarizer_stays_out_of_logs_stats_and_the_store(tmp_path: Path, mode: str) -> None:
    """Summaries asked of the session model with the echoed key: no log line, no summary-health figure, no
    /context-stats line and no byte of the store carries it."""
    app = EchoingUpstream(mode)
    settings = {"contextWindow": 4000, "chunkTokens": 256, "summarizeWithSessionModel": True}
    with ServerThread(app) as up, structlog.testing.capture_logs() as logs:
        with gateway_for(up.url, tmp_path, settings=settings, upstream_api_key=SecretStr(KEY)) as gw:
            ask = {"model": "m", "messages": coding_session()}
            httpx.post(gw.url + "/v1/chat/completions", json=ask, timeout=60, headers={"x-session-id": "s"})
            deadline = time.monotonic() + 30
            while not app.summaries and time.monotonic() < deadline:
                time.sleep(0.05)
            httpx.post(gw.url + "/v1/chat/completions", json=ask, timeout=60, headers={"x-session-id": "s"})
            stats = httpx.post(gw.url + "/v1/chat/completions", timeout=60, headers={"x-session-id": "s"}, json={
                "model": "m", "messages": [*coding_session(), {"role": "user", "content": "/context-stats"}]})
            health = gw.runtime.summary_health()
    assert app.summaries, "the summarizer never asked the upstream"
    assert "context-compactor" in stats.text and KEY not in stats.text
    assert KEY not in json.dumps(health)
    assert KEY not in repr(logs)
    assert KEY.encode() not in stored_bytes(tmp_path)


# --- B2: redaction as a class of inputs ---------------------------------------------------------------

short_keys = st.text(min_size=1, max_size=MIN_SECRET_CHARS - 1)
long_keys = st.text(alphabet=st.characters(min_codepoint=33, max_codepoint=126), min_size=MIN_SECRET_CHARS,
                    max_size=60)


@given(text=st.text(), key=short_keys)
def test_a_key_too_short_to_be_a_secret_never_changes_text(text: str, key: str) -> None:
    """"x", "ollama", "lm-studio": placeholders are left alone, so no word is ever garbled."""
    assert redact(text, key) == text
    assert redact_bytes(text.encode(), key) == text.encode()


@given(before=st.text(), after=st.text(), key=long_keys)
def test_a_long_key_never_survives_redaction(before: str, after: str, key: str) -> None:
    """Wherever a secret-sized key appears, it is gone afterwards, also when a body arrives cut in pieces."""
    text = before + key + after
    assert key not in redact(text, key)
    data = text.encode()
    for cut in (1, 7, len(key) // 2 + 1):
        pieces = StreamRedactor(key)
        out = b"".join(pieces.feed(data[i:i + cut]) for i in range(0, len(data), cut)) + pieces.flush()
        assert key.encode() not in out


@given(text=st.text(), key=long_keys)
def test_text_without_the_key_is_unchanged(text: str, key: str) -> None:
    """Redaction touches nothing but the key."""
    if key not in text and key.replace("/", "\\/") not in text:
        assert redact(text, key) == text


@given(key=st.one_of(short_keys, long_keys, st.sampled_from(["x", "e", "t", "ollama", "lm-studio", "context"])),
       status=st.sampled_from([400, 413, 500]), echo=st.booleans())
def test_an_overflow_stays_an_overflow_whatever_the_key(key: str, status: int, echo: bool) -> None:
    """The error is classified on what the server said: "maximum context length is 1024 tokens" is a
    context_length error with window 1024 for any key, echoed or not, and its words stay whole."""
    message = OVERFLOW + (f" (key {key})" if echo else "")
    error = _status_error(status, json.dumps({"error": {"message": message}}).encode(), httpx.Headers(), "m", key)
    assert error.kind == "context_length" and error.context_window == 1024
    assert "maximum context length is 1024 tokens" in str(error)
    if len(key) >= MIN_SECRET_CHARS:
        assert key not in str(error)


def test_the_words_of_the_issue_stay_whole_with_the_key_x() -> None:
    """The reproduction: with the key "x", "exceeds" and "context" are not touched."""
    body = b'{"error": {"message": "the request exceeds the available context size (4096 tokens)"}}'
    error = _status_error(400, body, httpx.Headers(), "m", "x")
    assert "the request exceeds the available context size" in str(error)
