"""Server-sent events: splitting the upstream's stream into events, watching them, writing our own.

The relay forwards each upstream event's bytes unchanged; it only reads them to learn the usage,
the finish reason and the reply (for ``after_turn``), and drops the usage-only chunk when the
client did not ask for usage.
"""

from __future__ import annotations

import json
import re
import time
import uuid
from typing import Any

from context_compactor.redact import redact_bytes

# The blank line that ends an event, in its three spellings (at one place only one of them can start).
_SEPARATOR = re.compile(rb"\r\n\r\n|\n\n|\r\r")


class EventSplitter:
    """Cuts a byte stream into whole events (each with its blank-line terminator).

    ``secret``: a key the upstream was sent; an event that echoes it has it redacted (whole events
    are redacted, so a key is never cut in two by the network's chunking).

    Each byte is searched once: an unfinished event grows in place and only its new end is searched
    (copying and searching it again on every piece was quadratic: one 1 MB event in 100-byte pieces,
    or 1 MB of events in one piece, as a slow client's relay gets them, took 11-12 s).
    """

    def __init__(self, secret: str | None = None) -> None:
        self._buf = bytearray()
        self._searched = 0  # no separator starts before this place in the buffer
        self.secret = secret

    def feed(self, data: bytes) -> list[bytes]:
        buf = self._buf
        buf += data
        events: list[bytes] = []
        start = 0
        while (sep := _SEPARATOR.search(buf, self._searched)) is not None:
            events.append(bytes(buf[start:sep.end()]))
            start = self._searched = sep.end()
        del buf[:start]
        self._searched = max(0, len(buf) - 3)  # a separator (at most 4 bytes) may end in the next piece
        if self.secret:
            return [redact_bytes(event, self.secret) for event in events]
        return events

    def rest(self) -> bytes:
        """Whatever arrived after the last complete event (an unterminated event at the end)."""
        rest = bytes(self._buf)
        self._buf, self._searched = bytearray(), 0
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
        self._calls = StreamedCalls()

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
                self._calls.add(call)

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
        calls = self._calls.whole()
        if calls:
            message["tool_calls"] = [calls[i] for i in sorted(calls)]
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


class StreamedCalls:
    """The tool calls a stream builds from its pieces, by ``index``. The pieces of a name or of the
    arguments are joined when the calls are read (:meth:`whole`): adding each piece to a growing
    string copied it every time (a 1M-character argument in 4-character pieces took 6 s)."""

    def __init__(self) -> None:
        self._calls: dict[int, dict[str, Any]] = {}
        self._pieces: dict[int, tuple[list[str], list[str]]] = {}

    def add(self, part: dict[str, Any]) -> None:
        """One streamed piece of a call; a piece of a name or arguments that is not a string is a TypeError."""
        index = int(part.get("index", 0))
        slot = self._calls.setdefault(index, {"id": "", "type": "function", "function": {"name": "", "arguments": ""}})
        names, arguments = self._pieces.setdefault(index, ([], []))
        if part.get("id"):
            slot["id"] = part["id"]
        function = part.get("function") or {}
        for pieces, field in ((names, "name"), (arguments, "arguments")):
            piece = function.get(field) or ""
            if not isinstance(piece, str):
                raise TypeError(f"a streamed tool call's {field} piece is {type(piece).__name__}, not a string")
            pieces.append(piece)

    def whole(self) -> dict[int, dict[str, Any]]:
        """The calls so far, by index, each ``{"id", "type", "function": {"name", "arguments"}}``."""
        for index, (names, arguments) in self._pieces.items():
            function = self._calls[index]["function"]
            for pieces, field in ((names, "name"), (arguments, "arguments")):
                if pieces:
                    function[field] += "".join(pieces)
                    pieces.clear()
        return self._calls
