"""The gateway's HTTP server protocol: uvicorn's httptools protocol with the limits an edge needs.

uvicorn closes a kept-alive connection after an idle pause, and nothing else: a client that opens a
connection and sends nothing, or sends its request head one byte a second, holds a socket (and a
file descriptor) for as long as it likes; a head of a million headers is read to the end. So:

    head_timeout     the request head (request line and headers) must be in this many seconds after
                     the connection opens or, on a kept-alive one, after its first byte; else 408
                     (or a plain close when nothing of a request came)
    idle_timeout     seconds a request body may pause between two reads, and a kept-alive
                     connection may wait for its next request
    max_head_bytes   the request head's size; above it 431
    max_headers      the number of header lines; above it 431

Once a request is read the connection is the gateway's: a model that thinks for minutes before its
first token never trips these.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import structlog
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from .asgi import error_body

logger = structlog.get_logger("context_compactor")

_REASONS = {408: b"Request Timeout", 431: b"Request Header Fields Too Large"}


@dataclass(frozen=True)
class EdgeLimits:
    head_timeout: float = 20.0
    idle_timeout: float = 30.0
    max_head_bytes: int = 64 * 1024
    max_headers: int = 100


class _Refused(Exception):
    """The request head broke a limit (raised inside a parser callback, which stops the parser)."""


class EdgeProtocol(HttpToolsProtocol):
    """uvicorn's protocol with :class:`EdgeLimits` (set on a subclass by :func:`edge_protocol`)."""

    limits = EdgeLimits()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._timer: asyncio.TimerHandle | None = None
        self._head_open = True  # reading a request head (or waiting for the first one)
        self._body_open = False
        self._head_bytes = 0
        self._header_count = 0
        self._refusal: tuple[int, str] | None = None

    # --- timers -------------------------------------------------------------------------------

    def _arm(self, seconds: float, handler: Any) -> None:
        self._disarm()
        self._timer = self.loop.call_later(seconds, handler)

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _head_expired(self) -> None:
        self._timer = None
        if self.transport.is_closing():
            return
        logger.info("gateway.edge_closed", reason="head_timeout", seconds=self.limits.head_timeout,
                    partial=self._head_bytes > 0)
        if self._head_bytes:
            self._refuse_now(408, f"context-compactor: the request head did not arrive within "
                                  f"{self.limits.head_timeout:g} s (see serve --header-timeout)")
        else:
            self.transport.close()

    def _body_idle(self) -> None:
        self._timer = None
        if not self.transport.is_closing():  # the app sees a disconnect: it has not answered yet
            logger.info("gateway.edge_closed", reason="body_idle", seconds=self.limits.idle_timeout)
            self.transport.close()

    # --- uvicorn's protocol ---------------------------------------------------------------------

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.timeout_keep_alive = self.limits.idle_timeout  # type: ignore[assignment]  # uvicorn types it int
        self._arm(self.limits.head_timeout, self._head_expired)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._head_open:
            self._head_bytes += len(data)
        elif self._body_open:
            self._arm(self.limits.idle_timeout, self._body_idle)
        super().data_received(data)
        if self._head_open and self._head_bytes > self.limits.max_head_bytes and not self.transport.is_closing():
            self._refuse_now(431, self._too_big())

    def send_400_response(self, msg: str) -> None:
        if self._refusal is not None:  # our own limit stopped the parser
            self._refuse_now(*self._refusal)
            return
        super().send_400_response(msg)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._head_open, self._body_open = True, False
        self._header_count = 0
        if self._timer is None:
            self._arm(self.limits.head_timeout, self._head_expired)

    def on_url(self, url: bytes) -> None:
        super().on_url(url)
        if len(self.url) > self.limits.max_head_bytes:
            self._refusal = (431, self._too_big())
            raise _Refused

    def on_header(self, name: bytes, value: bytes) -> None:
        self._header_count += 1
        if self._header_count > self.limits.max_headers:
            self._refusal = (431, f"context-compactor: more than {self.limits.max_headers} request headers "
                                  "(see serve --max-headers)")
            raise _Refused
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        size = len(self.url) + sum(len(k) + len(v) + 4 for k, v in self.headers)
        if size > self.limits.max_head_bytes:
            self._refusal = (431, self._too_big())
            raise _Refused
        self._head_open, self._body_open = False, True
        self._head_bytes = 0
        self._arm(self.limits.idle_timeout, self._body_idle)
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._body_open = False
        self._head_open, self._head_bytes = True, 0  # what comes next is the next request's head
        self._disarm()  # the request is in; uvicorn's keep-alive timer (idle_timeout) follows the answer
        super().on_message_complete()

    # --- refusals -----------------------------------------------------------------------------

    def _too_big(self) -> str:
        return (f"context-compactor: the request head is larger than {self.limits.max_head_bytes:,} bytes "
                "(see serve --max-header-kb)")

    def _refuse_now(self, status: int, message: str) -> None:
        """Answer ``status`` with an error in the OpenAI format and close the connection."""
        self._disarm()
        if self.transport.is_closing():
            return
        code = "request_timeout" if status == 408 else "request_header_fields_too_large"
        body = error_body(message, code, "invalid_request_error")
        self.transport.write(b"HTTP/1.1 %d %s\r\ncontent-type: application/json\r\ncontent-length: %d\r\n"
                             b"connection: close\r\n\r\n" % (status, _REASONS[status], len(body)) + body)
        self.transport.close()
        logger.info("gateway.edge_refused", status=status, reason=code)


def edge_protocol(limits: EdgeLimits) -> type[EdgeProtocol]:
    """The protocol class uvicorn is given (``Config(http=...)``), with ``limits``."""
    return type("GatewayHttpProtocol", (EdgeProtocol,), {"limits": limits})
