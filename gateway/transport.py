"""The network under the gateway's httpx client: asyncio protocols instead of anyio streams.

httpcore's connection pool asks every pooled connection "has the server closed you?" several
times per request; on anyio streams each answer costs a dictionary of socket attributes and a
``poll()`` system call, which at a few dozen upstream connections made the pool the gateway's
largest cost. Here a connection is an :class:`asyncio.Protocol` that already knows whether data or
an end of stream arrived, so the answer is a flag. Reads and writes are a buffer and a future, with
timeouts as timers, instead of a cancel scope each.

Errors are httpcore's own (ConnectError, ConnectTimeout, ReadError, ReadTimeout, WriteError,
WriteTimeout), which httpx maps to its exceptions as usual.
"""

from __future__ import annotations

import asyncio
import ssl
from collections.abc import Iterable
from typing import Any

import httpcore
import httpx


class _Connection(asyncio.Protocol):
    """Receives bytes into a buffer and wakes the one reader (or writer) waiting for them."""

    def __init__(self) -> None:
        self.buffer = bytearray()
        self.eof = False
        self.lost: Exception | None = None
        self.waiter: asyncio.Future[None] | None = None
        self.paused = False
        self.drained: asyncio.Future[None] | None = None

    def _wake(self, future: asyncio.Future[None] | None) -> None:
        if future is not None and not future.done():
            future.set_result(None)

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        self._wake(self.waiter)

    def eof_received(self) -> bool:
        self.eof = True
        self._wake(self.waiter)
        return False  # close our side too

    def connection_lost(self, exc: Exception | None) -> None:
        self.eof, self.lost = True, exc
        self._wake(self.waiter)
        self._wake(self.drained)

    def pause_writing(self) -> None:
        self.paused = True

    def resume_writing(self) -> None:
        self.paused = False
        self._wake(self.drained)


async def _wait(future: asyncio.Future[None], timeout: float | None, error: type[Exception]) -> None:
    """Await ``future``; ``error`` when ``timeout`` seconds pass first."""
    if timeout is None:
        await future
        return
    def expire() -> None:
        if not future.done():
            future.set_exception(error(f"timed out after {timeout:g} s"))

    timer = asyncio.get_running_loop().call_later(timeout, expire)
    try:
        await future
    finally:
        timer.cancel()


class _Stream(httpcore.AsyncNetworkStream):
    def __init__(self, transport: asyncio.Transport, connection: _Connection) -> None:
        self.transport, self.connection = transport, connection

    async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        c = self.connection
        if not c.buffer and not c.eof:
            c.waiter = asyncio.get_running_loop().create_future()
            try:
                await _wait(c.waiter, timeout, httpcore.ReadTimeout)
            finally:
                c.waiter = None
        if c.buffer:
            data = bytes(c.buffer[:max_bytes])
            del c.buffer[:max_bytes]
            return data
        if c.lost is not None:
            raise httpcore.ReadError(str(c.lost) or type(c.lost).__name__)
        return b""

    async def write(self, buffer: bytes, timeout: float | None = None) -> None:
        c = self.connection
        if not buffer:
            return
        if c.lost is not None or self.transport.is_closing():
            raise httpcore.WriteError("the connection is closed")
        self.transport.write(buffer)
        if c.paused:
            c.drained = asyncio.get_running_loop().create_future()
            try:
                await _wait(c.drained, timeout, httpcore.WriteTimeout)
            finally:
                c.drained = None

    async def aclose(self) -> None:
        self.transport.close()

    async def start_tls(self, ssl_context: ssl.SSLContext, server_hostname: str | None = None,
                        timeout: float | None = None) -> httpcore.AsyncNetworkStream:
        loop = asyncio.get_running_loop()
        try:
            tls = await asyncio.wait_for(loop.start_tls(self.transport, self.connection, ssl_context,
                                                        server_hostname=server_hostname), timeout)
        except asyncio.TimeoutError as exc:
            raise httpcore.ConnectTimeout("TLS handshake timed out") from exc
        except (OSError, ssl.SSLError) as exc:
            raise httpcore.ConnectError(str(exc)) from exc
        if tls is None:
            raise httpcore.ConnectError("TLS handshake failed")
        return _Stream(tls, self.connection)

    def get_extra_info(self, info: str) -> Any:
        if info == "is_readable":  # asked by the pool of every idle connection: a flag, no system call
            return bool(self.connection.buffer) or self.connection.eof
        if info in ("ssl_object", "socket", "client_addr", "server_addr"):
            return self.transport.get_extra_info({"client_addr": "sockname", "server_addr": "peername"}.get(info, info))
        return None


class AsyncioBackend(httpcore.AsyncNetworkBackend):
    """httpcore's network backend on the running asyncio loop (uvloop when the server uses it)."""

    async def _connect(self, opener: Any, timeout: float | None,
                       socket_options: Iterable[Any] | None) -> httpcore.AsyncNetworkStream:
        try:
            transport, connection = await asyncio.wait_for(opener(), timeout)
        except asyncio.TimeoutError as exc:
            raise httpcore.ConnectTimeout("connecting timed out") from exc
        except OSError as exc:
            raise httpcore.ConnectError(str(exc) or type(exc).__name__) from exc
        sock = transport.get_extra_info("socket")
        for option in socket_options or ():
            if sock is not None:
                sock.setsockopt(*option)
        return _Stream(transport, connection)

    async def connect_tcp(self, host: str, port: int, timeout: float | None = None, local_address: str | None = None,
                          socket_options: Iterable[Any] | None = None) -> httpcore.AsyncNetworkStream:
        loop = asyncio.get_running_loop()
        local = (local_address, 0) if local_address else None
        return await self._connect(lambda: loop.create_connection(_Connection, host, port, local_addr=local),
                                   timeout, socket_options)

    async def connect_unix_socket(self, path: str, timeout: float | None = None,
                                  socket_options: Iterable[Any] | None = None) -> httpcore.AsyncNetworkStream:
        loop = asyncio.get_running_loop()
        return await self._connect(lambda: loop.create_unix_connection(_Connection, path), timeout, socket_options)

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


def make_transport(limits: httpx.Limits) -> httpx.AsyncBaseTransport:
    """httpx's own transport with its connection pool on :class:`AsyncioBackend`.

    httpx takes no network backend, so the pool it built is replaced by an equal one on ours; if
    a future httpx keeps its pool elsewhere, its default pool is used unchanged.
    """
    transport = httpx.AsyncHTTPTransport(limits=limits, trust_env=False)
    if isinstance(getattr(transport, "_pool", None), httpcore.AsyncConnectionPool):
        transport._pool = httpcore.AsyncConnectionPool(
            ssl_context=httpx.create_ssl_context(trust_env=False),
            max_connections=limits.max_connections, max_keepalive_connections=limits.max_keepalive_connections,
            keepalive_expiry=limits.keepalive_expiry, network_backend=AsyncioBackend())
    return transport
