"""Small ASGI helpers: typed aliases, reading a bounded body, sending JSON and OpenAI-style errors."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
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


async def send_error(send: Send, status: int, message: str, code: str, extra: Headers | None = None,
                     kind: str = "context_compactor_error") -> None:
    await send_bytes(send, status, error_body(message, code, kind), [JSON_TYPE, *(extra or [])])


def ascii_header(text: str, limit: int = 300) -> bytes:
    """``text`` made safe for an HTTP header value (printable ASCII, bounded)."""
    clean = "".join(ch if 32 <= ord(ch) < 127 else "?" for ch in text.replace("\u2192", "->"))
    return clean[:limit].encode("ascii")
