"""HTTP calls to a summary model: OpenAI-compatible ``/v1/chat/completions`` and Ollama ``/api/chat``.

One ``httpx.Client`` per runtime, built by :func:`make_client` with explicit timeouts; every call
also carries its own deadline, enforced while the body arrives, so a server that trickles bytes
cannot hold a call longer than that. Bounded retries with exponential backoff on connection
errors, 429 (honouring ``Retry-After``) and 5xx; none on other 4xx. ``httpx`` errors become
:class:`~context_compactor.summarizer.ModelError` here. API keys go in a header and nowhere else:
they are never part of an error message, a log line or a repr. A server that echoes the key back
(in an error or in the summary itself) has it redacted from everything read out of its body, after
the error was classified on the raw body (see :mod:`context_compactor.redact`).

Behind a gateway (a client with an :class:`~.idle_gate.IdleGate`), a call to an OpenAI-compatible server is
streamed: a client request that arrives at that server meanwhile cancels it (:meth:`~.idle_gate.IdleGate.enter`),
and closing the connection is what makes a server stop generating (llama-cpp-python finishes a
non-streamed request whoever still waits for it, and its single slot with it). The cancel shuts the
call's socket down at once (:class:`~.idle_gate.Cancel`), from the thread that cancels, whether the server is
still reading the prompt or between two tokens: the call does not wait for its next byte to notice.
Neither llama-cpp-python nor llama.cpp's ``llama-server`` nor Ollama nor vLLM has a route that cancels
a running chat completion; each stops one whose connection closed (at its next token).
"""

from __future__ import annotations

import email.utils
import json
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpx

from context_compactor.redact import redact
from context_compactor.windows import read_body

from . import ModelError
from .idle_gate import Cancel, gate_of, shutter

MAX_BODY_BYTES = 4_000_000
PURPOSE_HEADER = "x-context-compactor-purpose"


@dataclass(frozen=True)
class Endpoint:
    """Where and how to reach a model. ``api`` is ``openai`` or ``ollama``."""

    base_url: str
    model: str
    api: str = "openai"
    api_key: str | None = field(default=None, repr=False)
    timeout: float = 60.0  # total seconds one summary call may take, retries included
    max_tokens: int | None = None  # cap on the tokens a summary may generate
    context_window: int | None = None

    @property
    def root(self) -> str:
        """The server root: the base URL without a trailing ``/v1`` (or ``/api``)."""
        base = self.base_url.rstrip("/")
        for suffix in ("/v1", "/api"):
            if base.endswith(suffix):
                return base[: -len(suffix)]
        return base

    @property
    def chat_url(self) -> str:
        return f"{self.root}/api/chat" if self.api == "ollama" else f"{self.root}/v1/chat/completions"

    @property
    def where(self) -> str:
        """The endpoint as shown in messages: scheme, host and port only (no credentials)."""
        parts = urlsplit(self.root)
        return f"{parts.scheme}://{parts.hostname}{f':{parts.port}' if parts.port else ''}"


@dataclass(frozen=True)
class Reply:
    text: str
    truncated: bool
    prompt_tokens: int | None = None
    completion_tokens: int | None = None


def make_client(*, connect_timeout: float = 5.0, read_timeout: float = 60.0,
                transport: httpx.BaseTransport | None = None) -> httpx.Client:
    """The one HTTP client of a runtime: explicit timeouts, a bounded pool, no environment proxies."""
    return httpx.Client(
        timeout=httpx.Timeout(read_timeout, connect=connect_timeout),
        limits=httpx.Limits(max_connections=8, max_keepalive_connections=4),
        transport=transport, trust_env=False, follow_redirects=False,
        headers={"user-agent": "context-compactor"},
    )


def payload(endpoint: Endpoint, messages: Sequence[dict[str, str]], max_tokens: int,
            stream: bool = False) -> dict[str, Any]:
    """The request body; ``stream`` (OpenAI API only) asks for the answer as events, usage included."""
    if endpoint.api == "ollama":
        return {"model": endpoint.model, "messages": list(messages), "stream": False,
                "options": {"num_predict": max_tokens, "temperature": 0.2}}
    body = {"model": endpoint.model, "messages": list(messages), "max_tokens": max_tokens,
            "temperature": 0.2, "stream": stream}
    if stream:
        body["stream_options"] = {"include_usage": True}
    return body


def streamed_reply(events: bytes) -> bytes:
    """A streamed chat completion's events as the body of the whole answer (what :func:`parse_reply` reads)."""
    text: list[str] = []
    reason, usage, error = None, None, None
    for line in events.splitlines():
        if not line.startswith(b"data:") or line[5:].strip() == b"[DONE]":
            continue
        try:
            chunk = json.loads(line[5:])
        except ValueError:
            continue
        if not isinstance(chunk, dict):
            continue
        error = chunk.get("error", error)
        usage = chunk.get("usage") or usage
        for choice in chunk.get("choices") or ():
            if isinstance(choice, dict) and choice.get("index", 0) == 0:
                reason = choice.get("finish_reason") or reason
                delta = choice.get("delta") or {}
                if isinstance(delta.get("content"), str):
                    text.append(delta["content"])
    if error is not None:
        return json.dumps({"error": error}).encode()
    return json.dumps({"choices": [{"message": {"content": "".join(text)}, "finish_reason": reason}],
                       "usage": usage or {}}).encode()


def parse_reply(endpoint: Endpoint, body: bytes, name: str) -> Reply:
    """The text of a 200 answer in either protocol, the endpoint's key redacted; raises ModelError ``malformed``."""
    try:
        data = json.loads(body)
        if endpoint.api == "ollama":
            text, reason = data["message"]["content"], data.get("done_reason")
            prompt, completion = data.get("prompt_eval_count"), data.get("eval_count")
        else:
            choice = data["choices"][0]
            text, reason = choice["message"].get("content"), choice.get("finish_reason")
            usage = data.get("usage") or {}
            prompt, completion = usage.get("prompt_tokens"), usage.get("completion_tokens")
        if isinstance(text, list):
            text = "".join(part.get("text", "") for part in text if isinstance(part, dict))
        if text is not None and not isinstance(text, str):
            raise TypeError(f"content is {type(text).__name__}")
    except (ValueError, KeyError, IndexError, TypeError, AttributeError) as exc:
        snippet = redact(body[:300].decode("utf-8", "replace"), endpoint.api_key)[:120]
        detail = redact(f"{type(exc).__name__}: {exc}", endpoint.api_key)
        raise ModelError(f"{name} answered with a body that is not a chat completion ({detail}; "
                         f"starts {snippet!r})", kind="malformed", summarizer=name) from None
    return Reply(redact(text or "", endpoint.api_key), reason == "length", prompt, completion)


def _error_text(body: bytes, secret: str | None = None) -> str:
    try:
        data = json.loads(body)
        error = data.get("error", data.get("detail", data))
        text = error.get("message", error) if isinstance(error, dict) else error
    except (ValueError, AttributeError):
        text = body.decode("utf-8", "replace")
    return redact(" ".join(str(text).split()), secret)[:300]  # redacted before the cut: no key half kept


def retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (delta-seconds or an HTTP date)."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value).timestamp()
    except (TypeError, ValueError, IndexError):
        return None
    return max(0.0, when - (now if now is not None else time.time()))


def _status_error(status: int, body: bytes, headers: httpx.Headers, name: str, secret: str | None = None) -> ModelError:
    """The ModelError for a non-200 answer: classified on the raw body, then worded with ``secret`` redacted
    (some servers echo the key they refused; redacting first could hide the words that classify it)."""
    # Before the 5xx rule: some servers answer an overflow with a 500, and retrying it cannot help.
    stated = read_body(status, body)
    message = f"{name} answered HTTP {status}: {_error_text(body, secret)}"
    if status == 429:
        return ModelError(message, kind="rate_limited", summarizer=name, retry_after=retry_after(headers.get("retry-after")))
    if stated is not None:
        return ModelError(message, kind="context_length", summarizer=name, context_window=stated.window)
    if status >= 500:
        return ModelError(message, kind="server_error", summarizer=name)
    return ModelError(message, kind="client_error", summarizer=name)


def _read(client: httpx.Client, endpoint: Endpoint, body: dict[str, Any], deadline: float, name: str,
          cancel: threading.Event | None = None) -> tuple[int, bytes, httpx.Headers]:
    """One HTTP exchange; a stream is read piece by piece and its connection shut (the server stops) the
    moment ``cancel`` is set."""
    left = deadline - time.monotonic()
    if left <= 0:
        raise httpx.TimeoutException("no time left for another attempt")
    headers = {PURPOSE_HEADER: "summary"}  # lets a gateway or a test server tell our calls from the agent's
    if endpoint.api_key:
        headers["authorization"] = f"Bearer {endpoint.api_key}"
    timeout = httpx.Timeout(left, connect=min(5.0, left))
    holder = cancel if isinstance(cancel, Cancel) else None
    extensions: dict[str, Any] = {}
    if holder is not None:
        # A connection of its own, never pooled, so that it can be shut down while the server still reads
        # the prompt (before any answer names the connection), and never under another request.
        headers["connection"] = "close"
        extensions["trace"] = lambda event, info: _hold_new(holder, event, info)
    try:
        with client.stream("POST", endpoint.chat_url, json=body, headers=headers, timeout=timeout,
                           extensions=extensions) as response:
            try:
                if holder is not None and (close := shutter(response.extensions.get("network_stream"))):
                    holder.hold(close)  # a kept-alive connection the trace did not see being made
                return _body(response, endpoint, body, deadline, name, cancel)
            finally:
                if holder is not None:
                    holder.release()
    except httpx.TransportError:
        if cancel is not None and cancel.is_set():  # our own shutdown ended the read
            raise _cancelled(name, endpoint) from None
        raise


def _hold_new(holder: Cancel, event: str, info: dict[str, Any]) -> None:
    """httpcore trace: a connection was made for the call; it is the one a cancel shuts."""
    if event == "connection.connect_tcp.complete" and (close := shutter(info.get("return_value"))):
        holder.hold(close)


def _cancelled(name: str, endpoint: Endpoint) -> ModelError:
    return ModelError(f"{name} at {endpoint.where}: cancelled, a client's request came for the same server",
                      kind="cancelled", summarizer=name)


def _body(response: httpx.Response, endpoint: Endpoint, body: dict[str, Any], deadline: float, name: str,
          cancel: threading.Event | None) -> tuple[int, bytes, httpx.Headers]:
    data = bytearray()
    for piece in response.iter_bytes():
        data += piece
        if cancel is not None and cancel.is_set():
            raise _cancelled(name, endpoint)
        if time.monotonic() > deadline:
            raise ModelError(f"{name} was still sending its answer when the {endpoint.timeout:g}s limit passed",
                             kind="timeout", summarizer=name)
        if len(data) > MAX_BODY_BYTES:
            raise ModelError(f"{name} sent more than {MAX_BODY_BYTES:,} bytes", kind="malformed", summarizer=name)
    if cancel is not None and cancel.is_set():
        raise _cancelled(name, endpoint)
    if response.status_code == 200 and body.get("stream") and \
            response.headers.get("content-type", "").startswith("text/event-stream"):
        # A stream cut short: it ends before [DONE], or (llama-cpp-python, when another request comes) with
        # [DONE] but no finish_reason: what came is part of an answer, not one.
        if not data.rstrip().endswith(b"[DONE]") or not _finished(bytes(data)):
            raise ModelError(f"{name} at {endpoint.where}: the stream ended before the answer did", kind="cancelled",
                             summarizer=name)
        data = bytearray(streamed_reply(bytes(data)))
    return response.status_code, bytes(data), response.headers


def _finished(events: bytes) -> bool:
    """Whether a streamed answer says why it ended (a ``finish_reason``), or is an error event."""
    reply = json.loads(streamed_reply(events))
    return "error" in reply or bool(reply["choices"][0].get("finish_reason"))


def _attempt(client: httpx.Client, endpoint: Endpoint, body: dict[str, Any], deadline: float, name: str,
             cancel: threading.Event | None = None) -> Reply:
    try:
        status, data, headers = _read(client, endpoint, body, deadline, name, cancel)
    except httpx.TimeoutException:
        raise ModelError(f"{name} at {endpoint.where} did not answer within {endpoint.timeout:g}s",
                         kind="timeout", summarizer=name) from None
    except httpx.TransportError as exc:
        raise ModelError(f"{name} at {endpoint.where}: connection failed ({type(exc).__name__}: {exc or 'no detail'})",
                         kind="connection", summarizer=name) from None
    if status != 200:
        raise _status_error(status, data, headers, name, endpoint.api_key)
    return parse_reply(endpoint, data, name)


RETRYABLE = ("connection", "rate_limited", "server_error")


def chat(client: httpx.Client, endpoint: Endpoint, messages: Sequence[dict[str, str]], max_tokens: int, *,
         retries: int = 2, backoff: float = 0.5, stop: threading.Event | None = None) -> Reply:
    """One summary call, with up to ``retries`` retries; raises ModelError when it cannot succeed."""
    name = endpoint.model
    gate = gate_of(client)
    if gate is not None:  # a gateway's clients go first; the time spent waiting is not this call's
        waited = gate.wait_idle(endpoint.root, stop=stop)
        if stop is not None and stop.is_set():
            raise ModelError(f"{name}: stopped while waiting for {endpoint.where} to be idle", kind="timeout",
                             summarizer=name)
        if waited >= gate.max_wait and gate.busy(endpoint.root):
            raise ModelError(f"{name} at {endpoint.where} was busy with clients' requests for {waited:.0f}s",
                             kind="timeout", summarizer=name)
    started = time.monotonic()
    cancel = gate.call_started(endpoint.root) if gate is not None else None
    try:
        return _chat(client, endpoint, messages, max_tokens, retries, backoff, stop, cancel)
    finally:
        if gate is not None and cancel is not None:
            gate.call_ended(endpoint.root, cancel)
            gate.observe(time.monotonic() - started)


def _chat(client: httpx.Client, endpoint: Endpoint, messages: Sequence[dict[str, str]], max_tokens: int,
          retries: int, backoff: float, stop: threading.Event | None, cancel: threading.Event | None = None) -> Reply:
    name = endpoint.model
    deadline = time.monotonic() + endpoint.timeout
    body = payload(endpoint, messages, max_tokens, stream=cancel is not None and endpoint.api == "openai")
    for attempt in range(retries + 1):
        if cancel is not None and cancel.is_set():
            raise _cancelled(name, endpoint)
        try:
            return _attempt(client, endpoint, body, deadline, name, cancel)
        except ModelError as exc:
            if exc.kind not in RETRYABLE or attempt == retries:
                raise
            wait = exc.retry_after if exc.retry_after is not None else backoff * 2 ** attempt
            if time.monotonic() + wait >= deadline:
                raise
            if stop is not None and stop.wait(wait):
                raise
            if stop is None:
                time.sleep(wait)
    raise AssertionError("unreachable")  # pragma: no cover
