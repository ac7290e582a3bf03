"""The ASGI plumbing every hand-written fake server here shares (standard library only): the lifespan
protocol, a request's body and headers, a JSON answer and a stream of server-sent events.

    async def __call__(self, scope, receive, send):
        if scope["type"] == "lifespan":
            await lifespan(receive, send)
            return
        raw, headers = await read_body(receive), headers_of(scope)
        await send_json(send, 200, {"ok": True})
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any


async def lifespan(receive: Any, send: Any, on_shutdown: Callable[[], None] | None = None) -> None:
    """Answer uvicorn's lifespan messages: every startup, then the shutdown (``on_shutdown`` called first)."""
    while (await receive())["type"] != "lifespan.shutdown":
        await send({"type": "lifespan.startup.complete"})
    if on_shutdown is not None:
        on_shutdown()
    await send({"type": "lifespan.shutdown.complete"})


async def read_body(receive: Any) -> bytes:
    """The whole request body, however many messages it came in."""
    raw = b""
    while True:
        message = await receive()
        raw += message.get("body", b"")
        if not message.get("more_body"):
            return raw


def headers_of(scope: dict[str, Any]) -> dict[str, str]:
    """The request's headers by name (uvicorn gives the names in lower case)."""
    return {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}


async def send_json(send: Any, status: int, data: Any, *, sized: bool = False) -> None:
    """``data`` as a JSON answer; ``sized`` adds a content-length header (else uvicorn sends it chunked)."""
    payload = json.dumps(data).encode()
    headers = [(b"content-type", b"application/json")]
    if sized:
        headers.append((b"content-length", str(len(payload)).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": payload})


async def start_events(send: Any) -> None:
    """The 200 head of a server-sent event stream."""
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/event-stream")]})


async def send_events(send: Any, events: Iterable[bytes]) -> None:
    """A whole event stream: the head, each event as its own body message, then the end of the body."""
    await start_events(send)
    for event in events:
        await send({"type": "http.response.body", "body": event, "more_body": True})
    await send({"type": "http.response.body", "body": b""})
