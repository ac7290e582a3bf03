"""HTTP/1.1 to the upstream model server: a small keep-alive client on asyncio protocols and httptools.

The gateway talks to exactly one origin, over and over, with one shape of request, and every
microsecond it spends there is added to each model call. A general client (httpx on httpcore and
h11) runs several layers of pure Python per request and per chunk; after the idle pause between
two turns each of those layers is cold again, and on a small virtual machine that was most of the
time the gateway added to a stream's first byte. Here a connection is an :class:`asyncio.Protocol`
whose bytes go straight into httptools' C parser; a request is one ``write``; the response's body
arrives as a queue of chunks with a future to wait on.

What it does: a pool of kept-alive connections to one origin (http or https), LIFO, with a limit
and an idle expiry; timeouts for connecting, waiting for the pool, writing and reading (each wait
for more bytes); back-pressure (a reader that falls behind pauses the socket); a request on a
reused connection that the server had already closed is sent once more on a fresh one (nothing was
answered, so nothing was served). What it leaves out: redirects, proxies, compression, HTTP/2.

Errors are the gateway's own :class:`~context_compactor.gateway.upstream.UpstreamError` kinds,
with messages that name the URL and what to check.

Why not a library (issue 14 E7): aiohttp's client was measured in its place, on the same runs
(``python bench/gateway.py --parts latency,throughput``, 400 requests, 16 connections for 5 s; a
2-core VM shared with other work; two runs, aiohttp 3.14.5). The rule was: use the library if it
adds no more than 0.3 ms of p50 and keeps the throughput. It does not keep the throughput:

    added p50, 8 KB body     this client 0.90 / 0.79 ms    aiohttp 1.13 / 1.07 ms  (+0.23 / +0.28 ms)
    added p50, 200 KB body   this client 2.05 / 2.82 ms    aiohttp 3.81 / 3.06 ms  (+1.76 / +0.24 ms)
    requests/s, 8 KB bodies  this client 1097 / 833        aiohttp  847 / 640      (-23% / -23%)

Streamed (``--parts streaming --streams 40``), added to the first byte, p50: this client 0.8-1.4 ms,
aiohttp 2.1-4.4 ms (20 ms first token back to back: 0.93 against 2.30 ms; after a 1 s pause: 1.06
against 4.40 ms).
"""

from __future__ import annotations

import asyncio
import ssl
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from urllib.parse import urlsplit

import httptools
import structlog

from .config import GatewayConfig
from .upstream import UpstreamBroken, UpstreamError, UpstreamTimeout, UpstreamUnreachable

logger = structlog.get_logger("context_compactor")

HIGH_WATER = 1 << 20  # buffered body bytes at which reading from the socket pauses
_NO_BODY_STATUS = frozenset({204, 304})


class _Unanswered(Exception):
    """The connection ended before a single byte of the response (a kept-alive socket the server had closed)."""


class _Connection(asyncio.Protocol):
    """One connection: bytes in go through the parser into ``chunks``; the one waiter is woken on news."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.eof = False
        self.lost: BaseException | None = None
        self.waiter: asyncio.Future[bool] | None = None
        self.drained: asyncio.Future[None] | None = None
        self.paused_writing = False
        self.idle_since = time.monotonic()
        self.begin()
        self.busy = False  # until a request goes out on it

    def begin(self) -> None:
        """Get ready for the next response on this connection."""
        self.busy = True
        self.parser = httptools.HttpResponseParser(self)
        self.status = 0
        self.headers: list[tuple[bytes, bytes]] = []
        self.headers_done = False
        self.complete = False
        self.keep_alive = False
        self.until_eof = False
        self.answered = False
        self.error: str | None = None
        self.chunks: deque[bytes] = deque()
        self.buffered = 0
        self.paused_reading = False

    # --- asyncio.Protocol ---------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        if not self.busy:  # bytes nobody asked for: this connection cannot be trusted again
            self.error = "unexpected bytes on an idle connection"
            self._close()
            return
        self.answered = True
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserUpgrade:
            self.error = "the server switched protocols"
            self._close()
        except httptools.HttpParserError as exc:
            self.error = f"malformed HTTP response ({exc})"
            self._close()
        self._wake()

    def eof_received(self) -> bool:
        self._ended(None)
        return False  # close our side too

    def connection_lost(self, exc: Exception | None) -> None:
        self._ended(exc)
        if self.drained is not None and not self.drained.done():
            self.drained.set_result(None)

    def pause_writing(self) -> None:
        self.paused_writing = True

    def resume_writing(self) -> None:
        self.paused_writing = False
        if self.drained is not None and not self.drained.done():
            self.drained.set_result(None)

    def _ended(self, exc: BaseException | None) -> None:
        self.eof = True
        if exc is not None:
            self.lost = exc
        if self.headers_done and not self.complete and self.until_eof and self.error is None and exc is None:
            self.complete = True  # a body without a length ends with the connection
        self._wake()

    # --- httptools callbacks ------------------------------------------------------------------

    def on_header(self, name: bytes, value: bytes) -> None:
        self.headers.append((name, value))

    def on_headers_complete(self) -> None:
        status = self.parser.get_status_code()
        if 100 <= status < 200:  # an interim answer (100 Continue): the real one follows
            self.headers = []
            return
        self.status = status
        self.headers_done = True
        names = {name.lower(): value for name, value in self.headers}
        self.until_eof = (status not in _NO_BODY_STATUS and b"content-length" not in names
                          and b"chunked" not in names.get(b"transfer-encoding", b"").lower())

    def on_body(self, body: bytes) -> None:
        self.chunks.append(body)
        self.buffered += len(body)
        if self.buffered >= HIGH_WATER and not self.paused_reading and self.transport is not None:
            self.paused_reading = True
            self.transport.pause_reading()

    def on_message_complete(self) -> None:
        if not self.headers_done:  # the end of an interim answer
            return
        self.complete = True
        self.keep_alive = self.parser.should_keep_alive()

    # --- used by the client -------------------------------------------------------------------

    def _wake(self) -> None:
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(True)

    def _close(self) -> None:
        if self.transport is not None:
            self.transport.close()

    def take(self) -> bytes:
        """The body bytes buffered so far (resuming the socket if it was paused)."""
        data = self.chunks.popleft() if len(self.chunks) == 1 else b"".join(self.chunks)
        self.chunks.clear()
        self.buffered = 0
        if self.paused_reading and self.transport is not None and not self.transport.is_closing():
            self.paused_reading = False
            self.transport.resume_reading()
        return data

    async def wait(self, timeout: float) -> bool:
        """Wait for news from the socket; False when ``timeout`` seconds passed without any."""
        loop = asyncio.get_running_loop()
        waiter = self.waiter = loop.create_future()
        timer = loop.call_later(timeout, _expire, waiter)
        try:
            return await waiter
        finally:
            timer.cancel()
            self.waiter = None

    def usable(self, expiry: float) -> bool:
        """Whether an idle connection can carry another request."""
        return (not self.eof and self.error is None and self.transport is not None
                and not self.transport.is_closing() and time.monotonic() - self.idle_since < expiry)


def _expire(waiter: asyncio.Future[bool]) -> None:
    if not waiter.done():
        waiter.set_result(False)


class Response:
    """An upstream response whose status and headers have arrived; the body is read from it as it comes.

    Call :meth:`aclose` when done: a fully read keep-alive response gives its connection back to
    the pool; anything else closes it.
    """

    def __init__(self, client: Client, conn: _Connection) -> None:
        self._client, self._conn = client, conn
        self.status_code = conn.status
        self.headers = conn.headers
        self._closed = False
        self._active = True  # counted in the client's activity until the answer is in or closed

    def header(self, name: bytes) -> bytes | None:
        """The first value of a response header (``name`` in lower case)."""
        for key, value in self.headers:
            if key.lower() == name:
                return value
        return None

    async def iter_bytes(self) -> AsyncIterator[bytes]:
        """The body, as it arrives. The exchange stops counting as in flight as soon as its last bytes
        are taken (a reader that stops there, at a stream's [DONE], need not ask for more) or the
        connection broke; a reader that stops earlier ends it with :meth:`aclose`."""
        conn = self._conn
        while True:
            if conn.chunks:
                data = conn.take()
                if conn.complete:
                    self._done()
                yield data
                continue
            if conn.complete:
                self._done()
                return
            if conn.error is not None or conn.eof:
                self._done()
                raise self._client.broken(conn.error or _ended_how(conn))
            if not await conn.wait(self._client.read_timeout):
                raise self._client.timed_out("waiting for more of the answer")

    async def read(self) -> bytes:
        """The whole body."""
        return b"".join([chunk async for chunk in self.iter_bytes()])

    def _done(self) -> None:
        """The exchange is over for the server (the whole answer is in): tell the client's ``activity``."""
        if self._active:
            self._active = False
            if self._client.activity is not None:
                self._client.activity(-1)

    async def aclose(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._done()
        self._client.release(self._conn)


def _ended_how(conn: _Connection) -> str:
    if conn.lost is not None:
        return f"{type(conn.lost).__name__}: {conn.lost}" if str(conn.lost) else type(conn.lost).__name__
    return "the connection closed before the answer was complete"


class Client:
    """Keep-alive HTTP/1.1 connections to one origin (the scheme, host and port of ``base_url``)."""

    def __init__(self, base_url: str, *, connect_timeout: float, read_timeout: float, write_timeout: float,
                 pool_timeout: float, max_connections: int, max_idle: int = 128, keepalive_expiry: float = 30.0,
                 activity: Callable[[int], None] | None = None) -> None:
        """``activity`` is told +1 when a request takes a connection and -1 once its whole answer is in
        (or the response is closed, or the request failed): the gateway's own summaries wait while
        requests are in flight, and a request whose answer is read is no longer one."""
        parts = urlsplit(base_url)
        self.activity = activity
        self.url = base_url
        self.tls = parts.scheme == "https"
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or (443 if self.tls else 80)
        default_port = parts.port is None or parts.port == (443 if self.tls else 80)
        host = f"[{self.host}]" if ":" in self.host else self.host
        self.host_header = (host if default_port else f"{host}:{self.port}").encode("idna")
        self.connect_timeout, self.read_timeout = connect_timeout, read_timeout
        self.write_timeout, self.pool_timeout = write_timeout, pool_timeout
        self.max_idle, self.keepalive_expiry = max_idle, keepalive_expiry
        self._slots = asyncio.Semaphore(max_connections)
        self._max_connections = max_connections
        self._idle: list[_Connection] = []
        self._ssl: ssl.SSLContext | None = ssl.create_default_context() if self.tls else None
        self._closed = False

    # --- errors, worded once ------------------------------------------------------------------

    def unreachable(self, detail: str) -> UpstreamError:
        return UpstreamUnreachable(f"context-compactor: cannot reach the upstream model server at {self.url} "
                                   f"({detail}); check --upstream and that the server is running", url=self.url)

    def timed_out(self, doing: str) -> UpstreamError:
        return UpstreamTimeout(f"context-compactor: the upstream model server at {self.url} timed out while "
                               f"{doing}; check that it is running and not overloaded", url=self.url)

    def broken(self, detail: str) -> UpstreamError:
        return UpstreamBroken(f"context-compactor: the upstream model server at {self.url} broke off its answer "
                              f"({detail})", url=self.url)

    # --- requests -----------------------------------------------------------------------------

    async def request(self, method: str, target: str, headers: list[tuple[bytes, bytes]], body: bytes) -> Response:
        """Send a request (``target`` is the path and query) and return once its status and headers arrived."""
        head = [f"{method} {target} HTTP/1.1\r\n".encode("latin-1"), b"host: ", self.host_header, b"\r\n"]
        for name, value in headers:
            head += (name, b": ", value, b"\r\n")
        if body or method not in ("GET", "HEAD", "DELETE", "OPTIONS"):
            head += (b"content-length: ", str(len(body)).encode(), b"\r\n")
        head.append(b"\r\n")
        data = b"".join(head) + body
        await self._acquire_slot()
        try:
            for fresh in (False, True):
                conn, reused = await self._connection(fresh)
                try:
                    await self._exchange(conn, data, head_only=method == "HEAD")
                except _Unanswered:
                    conn._close()
                    if reused and not fresh:  # a kept-alive socket the server had already closed: once more, fresh
                        logger.info("gateway.resend", upstream=self.url, reason="kept-alive connection closed unanswered")
                        continue
                    raise self.broken("the server closed the connection without answering") from None
                except BaseException:
                    conn._close()
                    raise
                return Response(self, conn)
            raise AssertionError("unreachable")
        except BaseException:
            self._slots.release()
            if self.activity is not None:
                self.activity(-1)
            raise

    async def _acquire_slot(self) -> None:
        if self._closed:
            raise self.unreachable("the gateway is shutting down")
        if self._slots.locked():
            try:
                await asyncio.wait_for(self._slots.acquire(), self.pool_timeout)
            except asyncio.TimeoutError:
                raise self.timed_out(f"waiting for one of its {self._max_connections} connections") from None
        else:
            await self._slots.acquire()
        if self.activity is not None:
            self.activity(1)

    async def _connection(self, fresh: bool) -> tuple[_Connection, bool]:
        while self._idle and not fresh:
            conn = self._idle.pop()
            if conn.usable(self.keepalive_expiry):
                conn.begin()
                return conn, True
            conn._close()
        loop = asyncio.get_running_loop()
        try:
            _transport, conn = await asyncio.wait_for(
                loop.create_connection(_Connection, self.host, self.port, ssl=self._ssl,
                                       server_hostname=self.host if self.tls else None),
                self.connect_timeout)
        except asyncio.TimeoutError:
            raise self.timed_out("connecting") from None
        except (OSError, ssl.SSLError) as exc:
            raise self.unreachable(str(exc) or type(exc).__name__) from None
        conn.begin()
        return conn, False

    async def _exchange(self, conn: _Connection, data: bytes, *, head_only: bool) -> None:
        transport = conn.transport
        if transport is None or transport.is_closing():
            raise _Unanswered
        transport.write(data)
        if conn.paused_writing:
            loop = asyncio.get_running_loop()
            conn.drained = loop.create_future()
            try:
                await asyncio.wait_for(asyncio.shield(conn.drained), self.write_timeout)
            except asyncio.TimeoutError:
                raise self.timed_out("taking the request") from None
            finally:
                conn.drained = None
        while not conn.headers_done:
            if conn.error is not None:
                raise self.broken(conn.error)
            if conn.eof:
                if not conn.answered:
                    raise _Unanswered
                raise self.broken(_ended_how(conn))
            if not await conn.wait(self.read_timeout):
                raise self.timed_out("waiting for an answer")
        if head_only:  # a HEAD answer has no body, whatever its headers say
            conn.complete, conn.keep_alive, conn.until_eof = True, False, False
            conn.chunks.clear()

    def release(self, conn: _Connection) -> None:
        """Take a connection back after a response: kept when it can carry another request, else closed."""
        conn.busy = False
        if (conn.complete and conn.keep_alive and not conn.chunks and not self._closed
                and conn.usable(self.keepalive_expiry) and len(self._idle) < self.max_idle):
            conn.idle_since = time.monotonic()
            self._idle.append(conn)
        else:
            conn._close()
        self._slots.release()

    async def aclose(self) -> None:
        """Close the idle connections; those in use close when their responses are closed."""
        self._closed = True
        while self._idle:
            self._idle.pop()._close()
        await asyncio.sleep(0)


def make_client(config: GatewayConfig, activity: Callable[[int], None] | None = None) -> Client:
    """The one client the gateway uses for the upstream: explicit timeouts, a bounded pool, no proxies
    from the environment (a loopback model server must not go through one). ``activity`` hears of each
    request in flight (+1) and done (-1)."""
    return Client(config.base, connect_timeout=config.connect_timeout, read_timeout=config.read_timeout,
                  write_timeout=config.write_timeout, pool_timeout=config.pool_timeout,
                  max_connections=config.max_connections, max_idle=min(config.max_connections, 128),
                  activity=activity)


def split_target(url: str) -> str:
    """The request target (path and query) of an absolute URL."""
    parts = urlsplit(url)
    return (parts.path or "/") + (f"?{parts.query}" if parts.query else "")


__all__ = ["Client", "Response", "split_target", "HIGH_WATER"]
