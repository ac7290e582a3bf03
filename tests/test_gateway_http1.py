"""The gateway's HTTP/1.1 client for the upstream, against raw loopback servers that misbehave on purpose."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from context_compactor.gateway.http1 import HIGH_WATER, Client
from context_compactor.gateway.upstream import UpstreamBroken, UpstreamTimeout, UpstreamUnreachable

Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]
OK = b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok"


def client(port: int, **options: Any) -> Client:
    settings = {"connect_timeout": 2.0, "read_timeout": 2.0, "write_timeout": 2.0, "pool_timeout": 2.0,
                "max_connections": 8, **options}
    return Client(f"http://127.0.0.1:{port}/v1", **settings)


async def serve(handler: Handler) -> tuple[asyncio.AbstractServer, int]:
    server = await asyncio.start_server(handler, "127.0.0.1", 0)
    return server, server.sockets[0].getsockname()[1]


async def read_request(reader: asyncio.StreamReader) -> bytes:
    head = await reader.readuntil(b"\r\n\r\n")
    length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")), 0)
    return head + (await reader.readexactly(length) if length else b"")


async def get(c: Client, target: str = "/v1/x") -> tuple[int, bytes]:
    response = await c.request("GET", target, [], b"")
    try:
        return response.status_code, await response.read()
    finally:
        await response.aclose()


def answering(data: bytes, *, pause: float = 0.0, abort: bool = False) -> Handler:
    """A server that reads one request, writes ``data``, waits ``pause`` seconds, then closes (or resets)."""
    async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await read_request(reader)
        if data:
            writer.write(data)
            await writer.drain()
        await asyncio.sleep(pause)
        if abort:
            writer.transport.abort()
        else:
            writer.close()

    return handler


class Counting:
    """A server whose first connection is handled by ``first`` and every later one answered "ok"."""

    def __init__(self, first: Handler) -> None:
        self.first, self.connections = first, 0

    async def __call__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        await (self.first if self.connections == 1 else answering(OK))(reader, writer)


def fetch(handler: Handler, **options: Any) -> tuple[int, bytes]:
    """One GET through a fresh client against a server running ``handler``."""
    async def main() -> tuple[int, bytes]:
        server, port = await serve(handler)
        async with server:
            return await get(client(port, **options))

    return asyncio.run(main())


def test_sequential_requests_share_one_kept_alive_connection() -> None:
    connections = 0
    seen: list[bytes] = []

    async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal connections
        connections += 1
        try:
            while True:
                seen.append(await read_request(reader))
                writer.write(OK)
        except (asyncio.IncompleteReadError, ConnectionError):
            writer.close()

    async def main() -> list[tuple[int, bytes]]:
        server, port = await serve(handler)
        async with server:
            c = client(port)
            out = [await get(c) for _ in range(5)]
            await c.aclose()
            return out

    assert asyncio.run(main()) == [(200, b"ok")] * 5
    assert connections == 1
    assert seen[0].startswith(b"GET /v1/x HTTP/1.1\r\nhost: 127.0.0.1:")


def test_post_sends_the_body_with_its_length_and_the_given_headers() -> None:
    seen: list[bytes] = []

    async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        seen.append(await read_request(reader))
        writer.write(OK)
        await writer.drain()
        writer.close()

    async def main() -> int:
        server, port = await serve(handler)
        async with server:
            response = await client(port).request("POST", "/v1/chat/completions?x=1",
                                                  [(b"x-session-id", b"abc")], b'{"a": 1}')
            await response.read()
            await response.aclose()
            return response.status_code

    assert asyncio.run(main()) == 200
    request = seen[0]
    assert request.startswith(b"POST /v1/chat/completions?x=1 HTTP/1.1\r\n")
    assert b"\r\nx-session-id: abc\r\n" in request and b"\r\ncontent-length: 8\r\n" in request
    assert request.endswith(b'\r\n\r\n{"a": 1}')


def test_an_idle_connection_the_server_closed_is_not_reused() -> None:
    server = Counting(answering(OK))  # keep-alive by the protocol's default, and closed anyway

    async def main() -> list[tuple[int, bytes]]:
        listening, port = await serve(server)
        async with listening:
            c = client(port)
            out = []
            for _ in range(3):
                out.append(await get(c))
                await asyncio.sleep(0.05)
            return out

    assert asyncio.run(main()) == [(200, b"ok")] * 3
    assert server.connections == 3

def test_a_request_the_server_closed_without_answering_is_sent_once_more_on_a_fresh_connection() -> None:
    """The race of keep-alive: the server closes the socket just as the next request goes out on it."""
    async def first(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await read_request(reader)
        writer.write(OK)
        await read_request(reader)  # the second request: read, never answered
        writer.close()

    server = Counting(first)

    async def main() -> list[tuple[int, bytes]]:
        listening, port = await serve(server)
        async with listening:
            c = client(port)
            return [await get(c), await get(c)]

    assert asyncio.run(main()) == [(200, b"ok"), (200, b"ok")]
    assert server.connections == 2

def test_nothing_listening_is_unreachable_and_names_the_url() -> None:
    async def main() -> None:
        server, port = await serve(lambda r, w: asyncio.sleep(0))
        server.close()
        await server.wait_closed()
        await get(client(port))

    with pytest.raises(UpstreamUnreachable, match=r"cannot reach the upstream model server at http://127\.0\.0\.1:\d+/v1"):
        asyncio.run(main())


def test_chunks_arrive_as_the_server_sends_them() -> None:
    """The first chunk is readable while the server still holds back the second (no buffering)."""
    release = asyncio.Event

    async def main() -> tuple[bytes, bool, bytes]:
        gate = release()

        async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            await read_request(reader)
            writer.write(b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n"
                         b"d\r\ndata: first\n\n\r\n")
            await writer.drain()
            await gate.wait()
            writer.write(b"e\r\ndata: second\n\n\r\n0\r\n\r\n")
            await writer.drain()

        server, port = await serve(handler)
        async with server:
            response = await client(port).request("POST", "/v1/chat/completions", [], b"{}")
            chunks = response.iter_bytes()
            first = await chunks.__anext__()
            waiting = not gate.is_set()
            gate.set()
            rest = b"".join([chunk async for chunk in chunks])
            await response.aclose()
            assert response.header(b"content-type") == b"text/event-stream"
            return first, waiting, rest

    assert asyncio.run(main()) == (b"data: first\n\n", True, b"data: second\n\n")


def test_a_body_without_a_length_ends_with_the_connection() -> None:
    assert fetch(answering(b"HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n\r\nall of it")) == (200, b"all of it")


@pytest.mark.parametrize(("handler", "options", "error", "message"), [
    pytest.param(answering(b""), {}, UpstreamBroken, "closed the connection without answering", id="closed-unanswered"),
    pytest.param(answering(b"", pause=3), {"read_timeout": 0.2}, UpstreamTimeout, "timed out while waiting for an answer",
                 id="silent"),
    pytest.param(answering(b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabc\r\n", pause=3),
                 {"read_timeout": 0.2}, UpstreamTimeout, "waiting for more of the answer", id="stall-between-chunks"),
    pytest.param(answering(b"HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\nonly part", abort=True), {},
                 UpstreamBroken, "broke off its answer", id="reset-mid-body"),
    pytest.param(answering(b"SSH-2.0-OpenSSH_9.6\r\n\r\n", pause=1), {}, UpstreamBroken, "malformed HTTP response",
                 id="not-http"),
])
def test_a_misbehaving_server_is_a_clear_error(handler: Handler, options: dict[str, Any], error: type[Exception],
                                               message: str) -> None:
    """Each way an upstream can fail is the gateway's error kind, with a message that names the URL."""
    with pytest.raises(error, match=message) as caught:
        fetch(handler, **options)
    assert "the upstream model server at http://127.0.0.1:" in str(caught.value)


def test_a_slow_reader_pauses_the_socket_and_still_gets_every_byte() -> None:
    size = 8 * HIGH_WATER
    body = bytes(range(256)) * (size // 256)

    async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await read_request(reader)
        writer.write(b"HTTP/1.1 200 OK\r\ncontent-length: %d\r\n\r\n" % len(body) + body)
        await writer.drain()

    async def main() -> tuple[bytes, int]:
        server, port = await serve(handler)
        largest = 0
        async with server:
            response = await client(port).request("GET", "/v1/big", [], b"")
            parts = []
            async for chunk in response.iter_bytes():
                largest = max(largest, len(chunk))
                parts.append(chunk)
                await asyncio.sleep(0.001)  # slower than loopback
            await response.aclose()
        return b"".join(parts), largest

    got, largest = asyncio.run(main())
    assert got == body
    assert largest < 2 * HIGH_WATER  # reading paused near the mark instead of buffering all 8 MB


def test_when_every_connection_is_busy_a_request_waits_then_times_out() -> None:
    async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await read_request(reader)
        await asyncio.sleep(1)
        writer.write(OK)
        await writer.drain()
        writer.close()

    async def main() -> None:
        server, port = await serve(handler)
        async with server:
            c = client(port, max_connections=1, pool_timeout=0.2)
            first = asyncio.ensure_future(get(c))
            await asyncio.sleep(0.05)
            try:
                await get(c)
            finally:
                first.cancel()

    with pytest.raises(UpstreamTimeout, match="waiting for one of its 1 connections"):
        asyncio.run(main())


def test_a_cancelled_request_frees_its_connection_slot() -> None:
    """A client that goes away mid-answer must not leak the slot: with one slot, the next request still runs."""
    server = Counting(answering(b"HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nhal", pause=1))

    async def main() -> tuple[int, bytes]:
        listening, port = await serve(server)
        async with listening:
            c = client(port, max_connections=1, pool_timeout=0.3)
            task = asyncio.ensure_future(get(c))
            await asyncio.sleep(0.1)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            return await get(c)

    assert asyncio.run(main()) == (200, b"ok")
    assert server.connections == 2  # the half-read connection was closed, not reused


def test_an_https_upstream_is_verified_and_used(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """TLS to the upstream, with the certificate checked against the trusted roots ($SSL_CERT_FILE here)."""
    import shutil
    import ssl
    import subprocess

    if shutil.which("openssl") is None:
        pytest.fail("this test makes its certificate with the openssl command; install openssl")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    server_side = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server_side.load_cert_chain(cert, key)

    async def main(trusted: bool) -> tuple[int, bytes]:
        server = await asyncio.start_server(answering(OK), "127.0.0.1", 0, ssl=server_side)
        port = server.sockets[0].getsockname()[1]
        async with server:
            if trusted:
                monkeypatch.setenv("SSL_CERT_FILE", str(cert))
            c = Client(f"https://localhost:{port}/v1", connect_timeout=2, read_timeout=2, write_timeout=2,
                       pool_timeout=2, max_connections=2)
            return await get(c)

    with pytest.raises(UpstreamUnreachable, match="CERTIFICATE_VERIFY_FAILED"):
        asyncio.run(main(trusted=False))
    assert asyncio.run(main(trusted=True)) == (200, b"ok")

