"""The asyncio network backend under the gateway's httpx client, against raw loopback servers."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import httpcore
import httpx
import pytest
from fakes import free_port

from context_compactor.gateway.transport import AsyncioBackend, make_transport

Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]
OK = b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok"


async def serve(handler: Handler) -> tuple[asyncio.AbstractServer, int]:
    server = await asyncio.start_server(handler, "127.0.0.1", 0)
    return server, server.sockets[0].getsockname()[1]


async def read_request(reader: asyncio.StreamReader) -> None:
    await reader.readuntil(b"\r\n\r\n")


def test_requests_reuse_one_connection() -> None:
    """Sequential requests through the pool travel over a single kept-alive connection."""
    connections = 0

    async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal connections
        connections += 1
        try:
            while True:
                await read_request(reader)
                writer.write(OK)
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            writer.close()

    async def main() -> list[str]:
        server, port = await serve(handler)
        async with server, httpx.AsyncClient(transport=make_transport(httpx.Limits())) as client:
            return [(await client.get(f"http://127.0.0.1:{port}/")).text for _ in range(5)]

    assert asyncio.run(main()) == ["ok"] * 5 and connections == 1


def test_a_connection_the_server_closed_is_not_reused() -> None:
    """After the server closes an idle connection, the next request opens a new one instead of failing."""
    connections = 0

    async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal connections
        connections += 1
        await read_request(reader)
        writer.write(OK)
        await writer.drain()
        writer.close()  # no keep-alive, and without saying so

    async def main() -> list[str]:
        server, port = await serve(handler)
        async with server, httpx.AsyncClient(transport=make_transport(httpx.Limits())) as client:
            texts = []
            for _ in range(3):
                texts.append((await client.get(f"http://127.0.0.1:{port}/")).text)
                await asyncio.sleep(0.05)
            return texts

    assert asyncio.run(main()) == ["ok"] * 3 and connections == 3


def test_read_timeout_is_httpx_read_timeout() -> None:
    """A server that never answers raises httpx.ReadTimeout after the read timeout."""

    async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await read_request(reader)
        await asyncio.sleep(5)

    async def main() -> None:
        server, port = await serve(handler)
        async with server, httpx.AsyncClient(transport=make_transport(httpx.Limits()), timeout=0.2) as client:
            await client.get(f"http://127.0.0.1:{port}/")

    with pytest.raises(httpx.ReadTimeout):
        asyncio.run(main())


def test_refused_connection_is_httpx_connect_error() -> None:
    """Nothing listening: httpx.ConnectError, as with httpx's own backend."""

    async def main() -> None:
        async with httpx.AsyncClient(transport=make_transport(httpx.Limits())) as client:
            await client.get(f"http://127.0.0.1:{free_port()}/")

    with pytest.raises(httpx.ConnectError):
        asyncio.run(main())


def test_a_reset_mid_body_is_an_error_not_a_short_answer() -> None:
    """A body cut off by the server's close raises instead of returning fewer bytes."""

    async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await read_request(reader)
        writer.write(b"HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\nonly a part")
        await writer.drain()
        writer.close()

    async def main() -> None:
        server, port = await serve(handler)
        async with server, httpx.AsyncClient(transport=make_transport(httpx.Limits())) as client:
            await client.get(f"http://127.0.0.1:{port}/")

    with pytest.raises(httpx.RemoteProtocolError):
        asyncio.run(main())


def test_readable_flag_follows_data_and_end_of_stream() -> None:
    """is_readable is False on a quiet open connection and True once the peer closed it."""

    async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await asyncio.sleep(0.1)
        writer.close()

    async def main() -> tuple[bool, bool, bytes]:
        server, port = await serve(handler)
        async with server:
            stream = await AsyncioBackend().connect_tcp("127.0.0.1", port, timeout=5)
            before = stream.get_extra_info("is_readable")
            await asyncio.sleep(0.3)
            after = stream.get_extra_info("is_readable")
            data = await stream.read(10, timeout=1)
            await stream.aclose()
            return before, after, data

    assert asyncio.run(main()) == (False, True, b"")


def test_connect_timeout_is_httpcore_connect_timeout() -> None:
    """A connect that cannot finish in time raises ConnectTimeout (a blackhole address is not needed:
    a zero timeout expires before any loopback connect completes)."""

    async def main() -> None:
        server, port = await serve(lambda r, w: asyncio.sleep(0))
        async with server:
            await AsyncioBackend().connect_tcp("127.0.0.1", port, timeout=0)

    with pytest.raises(httpcore.ConnectTimeout):
        asyncio.run(main())
