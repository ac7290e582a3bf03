"""Small ASGI helpers: typed aliases, reading a bounded body, sending JSON and OpenAI-style errors."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from contextvars import ContextVar
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
Headers = list[tuple[bytes, bytes]]

JSON_TYPE = (b"content-type", b"application/json")


class BodyTooLarge(Exception):
    """The request body passed the configured limit."""


class ClientGone(Exception):
    """The client disconnected before its request body arrived."""


def header(scope: Scope, name: bytes) -> str | None:
    """The first value of a request header (``name`` in lower case)."""
    for key, value in scope["headers"]:
        if key == name:
            return str(value.decode("latin-1"))
    return None


async def read_body(scope: Scope, receive: Receive, limit: int) -> bytes:
    """The whole request body; :class:`BodyTooLarge` as soon as it passes ``limit`` bytes."""
    declared = header(scope, b"content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise BodyTooLarge
    parts: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise ClientGone
        chunk = message.get("body", b"")
        if chunk:
            size += len(chunk)
            if size > limit:
                raise BodyTooLarge
            parts.append(chunk)
        if not message.get("more_body", False):
            return parts[0] if len(parts) == 1 else b"".join(parts)


async def send_bytes(send: Send, status: int, body: bytes, headers: Headers) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [*headers, (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body, "more_body": False})


def dumps(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def error_body(message: str, code: str, kind: str = "context_compactor_error") -> bytes:
    """An error in the OpenAI format, so that every client shows its message."""
    return dumps({"error": {"message": message, "type": kind, "param": None, "code": code}})


ErrorShape = Callable[[int, str, str], bytes]  # (status, message, code) -> the body
# The request's own API error shape when it is not OpenAI's (set per request, see apis.shape_errors).
error_shape: ContextVar[ErrorShape | None] = ContextVar("context_compactor_error_shape", default=None)


async def send_error(send: Send, status: int, message: str, code: str, extra: Headers | None = None,
                     kind: str = "context_compactor_error") -> None:
    """The gateway's own error (a refusal, a limit, an upstream it could not use), in the request's API shape."""
    shape = error_shape.get()
    body = shape(status, message, code) if shape is not None else error_body(message, code, kind)
    await send_bytes(send, status, body, [JSON_TYPE, *(extra or [])])


def ascii_header(text: str, limit: int = 300) -> bytes:
    """``text`` made safe for an HTTP header value (printable ASCII, bounded)."""
    clean = "".join(ch if 32 <= ord(ch) < 127 else "?" for ch in text.replace("\u2192", "->"))
    return clean[:limit].encode("ascii")


class TooDeep(Exception):
    """A request's JSON nests deeper than the configured limit."""


def loads_bounded(raw: bytes, limit: int) -> Any:
    """``json.loads(raw)``, with :class:`TooDeep` when arrays and objects nest more than ``limit`` deep
    (also when past what Python's parser takes at all). The check walks the parsed containers, not the
    bytes: its cost is the number of objects and lists, whatever the size of the strings."""
    try:
        value = json.loads(raw)
    except RecursionError:
        raise TooDeep from None
    except UnicodeDecodeError:  # a lone surrogate as UTF-8 bytes (ed a0 80): read, to be repaired by the caller
        value = json.loads(raw.decode("utf-8", "surrogatepass"))
    level = [value] if isinstance(value, (dict, list)) else []
    depth = 0
    while level:  # one level of containers at a time: no recursion, no bookkeeping per item
        depth += 1
        if depth > limit:
            raise TooDeep
        deeper = []
        for item in level:
            for child in item.values() if isinstance(item, dict) else item:
                if isinstance(child, (dict, list)):
                    deeper.append(child)
        level = deeper
    return value


def unchunked(send: Send) -> Send:
    """``send`` for an HTTP/1.0 client: the whole response is held and sent with its length, since a
    1.0 client cannot read chunked encoding (a stream arrives at once, when it ends)."""
    start: dict[str, Any] = {}
    parts: list[bytes] = []

    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            start.update(message)
            return
        if message["type"] != "http.response.body":
            await send(message)
            return
        parts.append(message.get("body", b""))
        if message.get("more_body", False):
            return
        body = b"".join(parts)
        headers = [(k, v) for k, v in start.get("headers", []) if k.lower() not in (b"content-length",
                                                                                  b"transfer-encoding")]
        await send({**start, "headers": [*headers, (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body, "more_body": False})
    return sending
