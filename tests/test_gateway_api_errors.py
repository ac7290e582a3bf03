"""The gateway's own refusals and limits on the Messages and Responses routes come in each API's error shape:
Anthropic's ``{"type": "error", "error": {"type", "message"}}``, Responses' ``{"error": {"message", "type",
"param", "code"}}``; the official SDKs raise their own error class with the gateway's message."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import anthropic
import httpx
import openai
import pytest
from fakes import Behaviour, free_port
from fakes.apis import ApisUpstream
from fakes.harness import Upstream, gateway_for, serve_upstream
from pydantic import SecretStr

MESSAGE = {"model": "m", "max_tokens": 10, "messages": [{"role": "user", "content": "hi"}]}
RESPONSE = {"model": "m", "input": "hi", "store": False}


@pytest.fixture
def upstream() -> Iterator[Upstream]:
    with serve_upstream(ApisUpstream(Behaviour())) as up:
        yield up


def _anthropic_error(response: httpx.Response, kind: str) -> str:
    body = response.json()
    assert body["type"] == "error" and body["error"]["type"] == kind
    return str(body["error"]["message"])


def test_a_wrong_key_is_an_anthropic_authentication_error(upstream: Upstream, tmp_path: Path) -> None:
    """A wrong x-api-key gets 401 authentication_error in the Messages shape; the SDK raises AuthenticationError."""
    with gateway_for(upstream.url, tmp_path, api_key=SecretStr("right")) as gw:
        raw = httpx.post(gw.url + "/v1/messages", json=MESSAGE, headers={"x-api-key": "wrong"})
        sdk = anthropic.Anthropic(base_url=gw.url, api_key="wrong", max_retries=0)
        with pytest.raises(anthropic.AuthenticationError) as caught:
            sdk.messages.create(**MESSAGE)  # type: ignore[call-overload]
        ok = httpx.post(gw.url + "/v1/messages", json=MESSAGE, headers={"x-api-key": "right"})
    assert raw.status_code == 401 and "x-api-key" in _anthropic_error(raw, "authentication_error")
    assert "context-compactor" in str(caught.value) and ok.status_code == 200
    assert upstream.app.messages()[-1].body == MESSAGE  # only the right key's request went up


def test_a_body_over_the_limit_is_an_anthropic_request_too_large(upstream: Upstream, tmp_path: Path) -> None:
    """A body over --max-body-mb on /v1/messages gets 413 request_too_large in the Messages shape."""
    big = {**MESSAGE, "messages": [{"role": "user", "content": "x" * 3 * 2**20}]}
    with gateway_for(upstream.url, tmp_path, max_body_bytes=2**20) as gw:
        raw = httpx.post(gw.url + "/v1/messages", json=big)
    assert raw.status_code == 413 and "--max-body-mb" in _anthropic_error(raw, "request_too_large")


def test_json_nested_too_deep_is_refused_in_each_shape(upstream: Upstream, tmp_path: Path) -> None:
    """A body nested past --max-json-depth gets 400 in the API's shape (it was passed through unread)."""
    deep: dict[str, object] = {"x": 1}
    for _ in range(40):
        deep = {"x": deep}
    with gateway_for(upstream.url, tmp_path, max_json_depth=16) as gw:
        messages = httpx.post(gw.url + "/v1/messages", json={**MESSAGE, "metadata": deep})
        responses = httpx.post(gw.url + "/v1/responses", json={**RESPONSE, "metadata": deep})
    assert messages.status_code == 400 and "--max-json-depth" in _anthropic_error(messages, "invalid_request_error")
    error = responses.json()["error"]
    assert responses.status_code == 400 and error["code"] == "json_too_deep" and "param" in error
    assert upstream.app.requests == []


def test_an_unreachable_upstream_is_an_api_error_in_each_shape(tmp_path: Path) -> None:
    """With no server at the upstream address, Messages clients get an Anthropic api_error and Responses clients
    an OpenAI-shaped error; each SDK raises its own status error with the gateway's message."""
    with gateway_for(f"http://127.0.0.1:{free_port()}", tmp_path) as gw:
        raw = httpx.post(gw.url + "/v1/messages", json=MESSAGE)
        with pytest.raises(anthropic.APIStatusError) as claude:
            anthropic.Anthropic(base_url=gw.url, api_key="k", max_retries=0).messages.create(**MESSAGE)  # type: ignore[call-overload]
        with pytest.raises(openai.APIStatusError) as codex:
            openai.OpenAI(base_url=gw.url + "/v1", api_key="k", max_retries=0).responses.create(**RESPONSE)  # type: ignore[call-overload]
    assert raw.status_code >= 500 and "context-compactor" in _anthropic_error(raw, "api_error")
    assert claude.value.status_code == raw.status_code
    assert codex.value.status_code == raw.status_code and isinstance(codex.value.body, dict)
    assert codex.value.body.get("code") == "upstream_unreachable"
