"""The HTTP side of model summaries: both protocols, retries and backoff, errors, keys kept secret."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from email.utils import formatdate

import httpx
import pytest
from llmfakes import chat_reply, ollama_reply, sectioned
from structlog.testing import capture_logs

from context_compactor.messages import View
from context_compactor.summarizer import ModelError
from context_compactor.summarizer.client import Endpoint, chat, make_client, retry_after
from context_compactor.summarizer.idle_gate import IdleGate, add_gate, gate_of
from context_compactor.summarizer.llm import Health, LLMSummarizer, resolve_api

KEY = "sk-test-very-secret-key"
LLAMA_OVERFLOW = {"error": {"message": "This model's maximum context length is 2048 tokens. However, you requested "
                            "2735 tokens (2671 in the messages, 64 in the completion). Please reduce the length of the "
                            "messages or completion.", "type": "invalid_request_error", "param": "messages",
                            "code": "context_length_exceeded"}}


def count(text: str) -> int:
    return -(-len(text) // 4)


def client_for(handler: Callable[[httpx.Request], httpx.Response]) -> httpx.Client:
    return make_client(transport=httpx.MockTransport(handler))


def script(*responses: httpx.Response) -> tuple[list[httpx.Request], Callable[[httpx.Request], httpx.Response]]:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return responses[min(len(seen), len(responses)) - 1]

    return seen, handler


def openai(base: str = "http://model.test/v1", **kw: object) -> Endpoint:
    return Endpoint(base, "m", "openai", **kw)  # type: ignore[arg-type]


def test_openai_request_goes_to_chat_completions_with_the_key_in_a_header() -> None:
    """OpenAI-compatible: POST {root}/v1/chat/completions, model and max_tokens, bearer key, our purpose header."""
    for base in ("http://model.test/v1", "http://model.test", "http://model.test/v1/"):
        seen, handler = script(httpx.Response(200, json=chat_reply("hi")))
        reply = chat(client_for(handler), openai(base, api_key=KEY), [{"role": "user", "content": "x"}], 64)
        request = seen[0]
        assert str(request.url) == "http://model.test/v1/chat/completions"
        body = json.loads(request.content)
        assert body["model"] == "m" and body["max_tokens"] == 64 and body["stream"] is False
        assert request.headers["authorization"] == f"Bearer {KEY}"
        assert request.headers["x-context-compactor-purpose"] == "summary"
        assert reply.text == "hi" and reply.prompt_tokens == 100 and not reply.truncated


def test_ollama_request_goes_to_api_chat_with_num_predict() -> None:
    """Ollama: POST {root}/api/chat, stream false, options.num_predict; done_reason 'length' is truncation."""
    seen, handler = script(httpx.Response(200, json=ollama_reply("cut sho", done_reason="length")))
    reply = chat(client_for(handler), Endpoint("http://ollama.test:11434", "llama3.2", "ollama"),
                 [{"role": "user", "content": "x"}], 99)
    body = json.loads(seen[0].content)
    assert str(seen[0].url) == "http://ollama.test:11434/api/chat"
    assert body["stream"] is False and body["options"]["num_predict"] == 99
    assert reply.text == "cut sho" and reply.truncated and reply.prompt_tokens == 100


def test_api_is_chosen_from_the_provider_setting() -> None:
    """'ollama' anywhere in the provider's api means Ollama; openai-* and auto mean OpenAI; others are refused."""
    assert resolve_api("ollama", "http://h:11434") == "ollama"
    assert resolve_api("openai-completions", "http://h/v1") == "openai"
    assert resolve_api(None, "http://h:11434") == "ollama"
    assert resolve_api("auto", "http://h:8080/v1") == "openai"
    assert resolve_api("anthropic-messages", "https://api.anthropic.com") is None


def test_server_errors_are_retried_with_backoff_then_succeed() -> None:
    """Two 500s then an answer: three requests, one summary."""
    seen, handler = script(httpx.Response(500, json={"error": "boom"}), httpx.Response(503), httpx.Response(200, json=chat_reply("ok")))
    assert chat(client_for(handler), openai(), [], 10, retries=2, backoff=0.01).text == "ok"
    assert len(seen) == 3


def test_retries_are_bounded() -> None:
    """A server that keeps failing gets 1 + retries requests, then a 'server_error'."""
    seen, handler = script(httpx.Response(500, json={"error": {"message": "model crashed"}}))
    with pytest.raises(ModelError) as raised:
        chat(client_for(handler), openai(), [], 10, retries=2, backoff=0.01)
    assert len(seen) == 3 and raised.value.kind == "server_error" and "model crashed" in str(raised.value)


@pytest.mark.parametrize("status", [400, 401, 404, 422])
def test_client_errors_are_not_retried(status: int) -> None:
    """A 4xx (other than 429) is the request's fault: asked once, then 'client_error'."""
    seen, handler = script(httpx.Response(status, json={"error": {"message": "no"}}))
    with pytest.raises(ModelError) as raised:
        chat(client_for(handler), openai(), [], 10, retries=3, backoff=0.01)
    assert len(seen) == 1 and raised.value.kind == "client_error"


def test_429_waits_as_long_as_retry_after_says() -> None:
    """A 429 with Retry-After: 0.3 is retried no sooner than 0.3 s later."""
    seen, handler = script(httpx.Response(429, headers={"retry-after": "0.3"}), httpx.Response(200, json=chat_reply("ok")))
    stamps: list[float] = []

    def timed(request: httpx.Request) -> httpx.Response:
        stamps.append(time.monotonic())
        return handler(request)

    assert chat(client_for(timed), openai(), [], 10, backoff=0.01).text == "ok"
    assert len(seen) == 2 and stamps[1] - stamps[0] >= 0.29


def test_a_retry_after_beyond_the_deadline_gives_up_at_once() -> None:
    """When the server asks for more time than the call has left, the call fails now ('rate_limited')."""
    seen, handler = script(httpx.Response(429, headers={"retry-after": "120"}))
    started = time.monotonic()
    with pytest.raises(ModelError) as raised:
        chat(client_for(handler), openai(timeout=5.0), [], 10)
    assert raised.value.kind == "rate_limited" and raised.value.retry_after == 120
    assert len(seen) == 1 and time.monotonic() - started < 1


def test_retry_after_reads_seconds_and_http_dates() -> None:
    """Retry-After is delta-seconds or an HTTP date."""
    now = time.time()
    assert retry_after("7") == 7.0
    assert 25 <= (retry_after(formatdate(now + 30, usegmt=True), now=now) or 0) <= 31
    assert retry_after("soon") is None and retry_after(None) is None


def test_the_context_length_error_carries_the_stated_window() -> None:
    """llama-cpp-python's 400 context_length_exceeded becomes kind 'context_length' with n_ctx 2048."""
    seen, handler = script(httpx.Response(400, json=LLAMA_OVERFLOW))
    with pytest.raises(ModelError) as raised:
        chat(client_for(handler), openai(), [], 10)
    assert raised.value.kind == "context_length" and raised.value.context_window == 2048 and len(seen) == 1


@pytest.mark.parametrize("status,body,window", [
    (400, {"error": {"code": 400, "message": "request (2735 tokens) exceeds the available context size (2048 tokens), "
                     "try increasing it", "type": "exceed_context_size_error", "n_prompt_tokens": 2735, "n_ctx": 2048}},
     2048),
    (400, {"error": "Trying to keep the first 2735 tokens when context the overflows. However, the model is loaded "
                    "with context length of only 2048 tokens, which is not enough."}, 2048),
    (500, {"error": {"code": 500, "message": "the request exceeds the available context size (2048 tokens)",
                     "type": "server_error"}}, 2048),
    (400, {"error": {"message": "Your input exceeds the context window of this model.",
                     "code": "context_length_exceeded"}}, None),
])
def test_every_servers_overflow_is_a_context_length_error_not_retried(status: int, body: dict[str, object],
                                                                      window: int | None) -> None:
    """llama.cpp's, LM Studio's, a 500 overflow and a sizeless one are 'context_length' with the stated window, asked once."""
    seen, handler = script(httpx.Response(status, json=body))
    with pytest.raises(ModelError) as raised:
        chat(client_for(handler), openai(), [], 10)
    assert raised.value.kind == "context_length" and raised.value.context_window == window and len(seen) == 1


def test_malformed_bodies_are_a_failure_not_a_crash() -> None:
    """A 200 that is not JSON, or JSON of another shape, is 'malformed'."""
    for body in (b"<html>oops</html>", b'{"choices": []}', b'{"message": 3}'):
        _, handler = script(httpx.Response(200, content=body))
        with pytest.raises(ModelError) as raised:
            chat(client_for(handler), openai(), [], 10)
        assert raised.value.kind == "malformed"


def test_a_refused_connection_is_retried_then_reported() -> None:
    """Connection errors are retried, then reported as 'connection'."""
    attempts = []

    def refuse(request: httpx.Request) -> httpx.Response:
        attempts.append(1)
        raise httpx.ConnectError("connection refused", request=request)

    with pytest.raises(ModelError) as raised:
        chat(client_for(refuse), openai(), [], 10, retries=2, backoff=0.01)
    assert raised.value.kind == "connection" and len(attempts) == 3


def test_the_api_key_is_never_in_an_error_a_repr_or_a_log() -> None:
    """Even when the server echoes the key it refused, messages, reprs and log lines never show it."""
    _, handler = script(httpx.Response(401, json={"error": {"message": f"Incorrect API key provided: {KEY}"}}))
    endpoint = openai(api_key=KEY)
    llm = LLMSummarizer(endpoint, client_for(handler))
    with capture_logs() as logs, pytest.raises(ModelError) as raised:
        llm.summarize([View("user", "hello")], 100, count)
    assert KEY not in str(raised.value) and "[redacted]" in str(raised.value)
    assert KEY not in repr(endpoint) and KEY not in repr(llm)
    assert all(KEY not in str(value) for line in logs for value in line.values())


def test_the_summarizer_returns_the_checked_summary() -> None:
    """A good answer comes back as sections; max_tokens leaves the model room over the budget."""
    seen, handler = script(httpx.Response(200, json=chat_reply(sectioned("ok"))))
    llm = LLMSummarizer(openai(max_tokens=300), client_for(handler))
    text = llm.summarize([View("user", "fix it")], 400, count)
    assert text.startswith("## Goal and standing instructions") and json.loads(seen[0].content)["max_tokens"] == 300
    assert llm.identity == "llm:m" and llm.health.successes == 1


def test_a_model_that_keeps_failing_is_backed_off() -> None:
    """After three failures in a row the model is not asked again until the pause ends; success resets it."""
    clock = [0.0]
    health = Health(threshold=3, base=30, clock=lambda: clock[0])
    seen, handler = script(httpx.Response(500))
    llm = LLMSummarizer(openai(), client_for(handler), retries=0, health=health)
    for _ in range(3):
        with pytest.raises(ModelError):
            llm.summarize([View("user", "x")], 100, count)
    with pytest.raises(ModelError) as raised:
        llm.summarize([View("user", "x")], 100, count)
    assert raised.value.kind == "backoff" and len(seen) == 3
    clock[0] = 31.0
    llm.ready()  # the pause is over: asked again
    health.succeeded()
    assert health.consecutive == 0 and health.wait_left() == 0


def test_retry_after_also_pauses_the_model() -> None:
    """A 429's Retry-After keeps the next turn from asking before the server said."""
    clock = [0.0]
    health = Health(clock=lambda: clock[0])
    health.failed(ModelError("slow down", kind="rate_limited", retry_after=12))
    assert health.wait_left() == 12


def test_a_gated_client_waits_for_an_idle_server_and_the_wait_is_not_the_calls_time() -> None:
    """With an IdleGate on the client (a gateway's), a summary call waits while a client request is in flight
    at the same server, longer than its own 0.3 s limit, then runs and succeeds; the hook alone lets a call
    to another server through at once."""
    seen, handler = script(httpx.Response(200, json=chat_reply("fine")))
    client = client_for(handler)
    gate = IdleGate(quiet=0.0)
    add_gate(client, gate)
    add_gate(client, gate)  # once is enough
    assert gate_of(client) is gate and len(client.event_hooks["request"]) == 1
    gate.enter("http://model.test/v1/chat/completions")
    threading.Timer(0.6, gate.leave, args=("http://model.test/v1",)).start()
    reply = chat(client, openai(timeout=0.3), [{"role": "user", "content": "x"}], 50)
    assert reply.text == "fine" and len(seen) == 1 and gate.waits == 1 and gate.waited_seconds >= 0.5
    assert gate.drain() and gate.drain() == []
