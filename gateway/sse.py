"""Server-sent events: splitting the upstream's stream into events, watching them, writing our own.

The relay forwards each upstream event's bytes unchanged; it only reads them to learn the usage,
the finish reason and the reply (for ``after_turn``), and drops the usage-only chunk when the
client did not ask for usage.
"""

from __future__ import annotations

import json
import time
import uuid
from typing import Any

from context_compactor.redact import redact_bytes

_SEPARATORS = (b"\n\n", b"\r\n\r\n", b"\r\r")


class EventSplitter:
    """Cuts a byte stream into whole events (each with its blank-line terminator).

    ``secret``: a key the upstream was sent; an event that echoes it has it redacted (whole events
    are redacted, so a key is never cut in two by the network's chunking).
    """

    def __init__(self, secret: str | None = None) -> None:
        self._buf = b""
        self.secret = secret

    def feed(self, data: bytes) -> list[bytes]:
        buf = self._buf + data if self._buf else data
        events: list[bytes] = []
        start = 0
        while True:
            end, width = -1, 0
            for sep in _SEPARATORS:
                i = buf.find(sep, start)
                if i != -1 and (end == -1 or i < end):
                    end, width = i, len(sep)
            if end == -1:
                break
            events.append(buf[start : end + width])
            start = end + width
        self._buf = buf[start:]
        if self.secret:
            return [redact_bytes(event, self.secret) for event in events]
        return events

    def rest(self) -> bytes:
        """Whatever arrived after the last complete event (an unterminated event at the end)."""
        rest, self._buf = self._buf, b""
        return redact_bytes(rest, self.secret) if self.secret else rest


def event_data(event: bytes) -> bytes | None:
    """The ``data:`` payload of an event (lines joined), or None for a comment or keep-alive."""
    lines = [line[5:].lstrip(b" ") if line.startswith(b"data:") else None for line in event.splitlines()]
    data = [line for line in lines if line is not None]
    return b"\n".join(data) if data else None


class StreamWatch:
    """What a chat completion stream said: usage, finish reason, [DONE], and the reply it built."""

    def __init__(self, strip_usage: bool) -> None:
        self.strip_usage = strip_usage
        self.events = 0
        self.done = False
        self.finish_reason: str | None = None
        self.usage: dict[str, Any] | None = None
        self.error: Any = None
        self.first: dict[str, Any] | None = None
        self._text: list[str] = []
        self._calls: dict[int, dict[str, Any]] = {}

    def keep(self, event: bytes) -> bool:
        """Observe one event; False when it must not reach the client (the usage chunk nobody asked for)."""
        self.events += 1
        data = event_data(event)
        if data is None:
            return True
        if data == b"[DONE]":  # held back when no finish_reason came: the relay ends the stream with an error
            self.done = True
            return self.finish_reason is not None
        try:
            chunk = json.loads(data)
        except ValueError:
            return True
        if not isinstance(chunk, dict):
            return True
        if chunk.get("error") is not None:
            self.error = chunk["error"]
        usage = chunk.get("usage")
        if isinstance(usage, dict):
            self.usage = usage
        choices = chunk.get("choices")
        if not choices:
            return not (self.strip_usage and usage is not None and choices == [])
        if self.first is None:
            self.first = chunk
        try:
            self._observe(choices)
        except (AttributeError, TypeError, KeyError):  # a chunk of an odd shape: relayed, not understood
            pass
        return True

    def _observe(self, choices: list[Any]) -> None:
        for choice in choices:
            if not isinstance(choice, dict) or choice.get("index", 0) != 0:
                continue
            if choice.get("finish_reason"):
                self.finish_reason = choice["finish_reason"]
            delta = choice.get("delta") or {}
            if isinstance(delta.get("content"), str):
                self._text.append(delta["content"])
            for call in delta.get("tool_calls") or ():
                merge_call_delta(self._calls, call)

    @property
    def complete(self) -> bool:
        """True when the stream ended the way a finished stream ends: with a ``finish_reason``.

        A ``[DONE]`` alone is not enough: llama-cpp-python, interrupted by another request, ends
        the stream after a chunk or two with ``[DONE]`` and no finish reason, and a client would take
        the cut-off text for the whole reply.
        """
        return self.finish_reason is not None

    def missing(self) -> str:
        """What an incomplete stream lacked, for the error it ends with."""
        return "no finish_reason, then [DONE]" if self.done else "no finish_reason, no [DONE]"

    def reply(self) -> dict[str, Any]:
        message: dict[str, Any] = {"role": "assistant", "content": "".join(self._text)}
        if self._calls:
            message["tool_calls"] = [self._calls[i] for i in sorted(self._calls)]
        return message


def encode(data: Any) -> bytes:
    return b"data: " + json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode() + b"\n\n"


DONE = b"data: [DONE]\n\n"


def completion_id() -> str:
    return f"chatcmpl-cc-{uuid.uuid4().hex[:24]}"


def completion(text: str, model: str) -> dict[str, Any]:
    """A whole chat completion carrying ``text`` (for answers the gateway gives itself)."""
    return {
        "id": completion_id(), "object": "chat.completion", "created": int(time.time()), "model": model,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "logprobs": None,
                     "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
    }


def completion_stream(text: str, model: str, include_usage: bool) -> bytes:
    """The same answer as a stream: role, content, finish, usage when asked, [DONE]."""
    base = {"id": completion_id(), "object": "chat.completion.chunk", "created": int(time.time()), "model": model}
    deltas: tuple[dict[str, str], ...] = ({"role": "assistant", "content": ""}, {"content": text}, {})
    parts = [encode({**base, "choices": [{"index": 0, "delta": d, "logprobs": None,
                                          "finish_reason": "stop" if not d else None}]}) for d in deltas]
    if include_usage:
        parts.append(encode({**base, "choices": [], "usage": {"prompt_tokens": 0, "completion_tokens": 0,
                                                             "total_tokens": 0}}))
    parts.append(DONE)
    return b"".join(parts)


def content_chunk(first: dict[str, Any] | None, text: str) -> bytes:
    """A chunk that adds ``text`` to the reply, shaped like the upstream's first chunk."""
    base = {k: first[k] for k in ("id", "object", "created", "model") if first and k in first}
    base.setdefault("object", "chat.completion.chunk")
    return encode({**base, "choices": [{"index": 0, "delta": {"content": text}, "finish_reason": None}]})


def announced(event: bytes, first: dict[str, Any], notice: str) -> bytes:
    """The reply's first chunk (``event``, parsed as ``first``) with ``notice`` before its text.

    When the chunk carries text, the notice joins it in front (one chunk: the role still comes first
    and nothing of the reply precedes the notice); otherwise (the usual role-only opening) a chunk
    with the notice follows it.
    """
    try:
        delta = first["choices"][0]["delta"]
        text = delta.get("content")
    except (KeyError, IndexError, TypeError, AttributeError):
        text = None
    if isinstance(text, str) and text:
        choice = {**first["choices"][0], "delta": {**delta, "content": notice + text}}
        return encode({**first, "choices": [choice, *first["choices"][1:]]})
    return event + content_chunk(first, notice)


def error_event(message: str, code: str) -> bytes:
    """An error inside a stream that has already started (the openai SDK raises it as APIError)."""
    return encode({"error": {"message": message, "type": "upstream_error", "code": code}})


def merge_call_delta(calls: dict[int, dict[str, Any]], part: dict[str, Any]) -> None:
    """Add one streamed tool-call piece to the whole calls it builds, by its ``index``."""
    slot = calls.setdefault(int(part.get("index", 0)), {"id": "", "type": "function",
                                                        "function": {"name": "", "arguments": ""}})
    if part.get("id"):
        slot["id"] = part["id"]
    function = part.get("function") or {}
    slot["function"]["name"] += function.get("name") or ""
    slot["function"]["arguments"] += function.get("arguments") or ""
