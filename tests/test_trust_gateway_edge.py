"""Issue 21, defects 8, 9 and 10: ``serve`` at the edge, over real sockets on 127.0.0.1.

The gateway runs with the uvicorn settings ``serve`` uses (``server.uvicorn_config``: the edge
protocol and its limits); the timeouts are set short so that a test sees them fire, and no assertion
is about time.
"""

from __future__ import annotations

import dataclasses
import json
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fakes.harness import Upstream, fake_upstream
from structlog.testing import capture_logs

from context_compactor.gateway import Gateway, GatewayConfig
from context_compactor.gateway.server import Server, bind, uvicorn_config
from context_compactor.runtime import Runtime
from context_compactor.settings import Settings
from context_compactor.store import Store

WAIT = 30.0  # a socket read that has not ended by then means the gateway never closed it


@pytest.fixture
def upstream() -> Iterator[Upstream]:
    with fake_upstream() as up:
        yield up


@contextmanager
def serving(upstream: Upstream, tmp_path: Path, **options: Any) -> Iterator[tuple[str, int]]:
    """The gateway as ``serve`` runs it (its uvicorn settings), on a free port; (host, port)."""
    sock = bind("127.0.0.1", 0)
    port = sock.getsockname()[1]
    config = GatewayConfig(upstream=upstream.url + "/v1", port=port, shutdown_grace=1.0, **options)
    runtime = Runtime(Settings(), store=Store.open(tmp_path / "store.sqlite"))
    server = Server(uvicorn_config(Gateway(config, runtime)))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started and thread.is_alive():
        time.sleep(0.01)
    try:
        yield "127.0.0.1", port
    finally:
        server.should_exit = True
        thread.join(10)
        runtime.close()
        sock.close()


def connect(address: tuple[str, int]) -> socket.socket:
    conn = socket.create_connection(address, timeout=WAIT)
    return conn


def read_all(conn: socket.socket) -> bytes:
    """Everything the gateway sends until it closes the connection."""
    data = b""
    while chunk := conn.recv(65536):
        data += chunk
    return data


def response(data: bytes) -> tuple[str, dict[str, str], bytes]:
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return lines[0], {k.lower(): v for k, v in headers.items()}, body


def post(path: str, body: bytes, version: str = "1.1", extra: str = "") -> bytes:
    return (f"POST {path} HTTP/{version}\r\nHost: gw\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n{extra}\r\n").encode() + body


CHAT = json.dumps({"model": "m", "messages": [{"role": "user", "content": "hello"}]}).encode()


# --- defect 8: timeouts and head limits ---------------------------------------------------------

def test_connections_that_send_nothing_are_closed(upstream: Upstream, tmp_path: Path) -> None:
    """Connections that sit idle without a byte are closed by the gateway (they were held forever)."""
    with serving(upstream, tmp_path, header_timeout=0.3) as address:
        conns = [connect(address) for _ in range(20)]
        assert [read_all(c) for c in conns] == [b""] * 20


def test_a_head_dribbled_byte_by_byte_is_answered_408_and_closed(upstream: Upstream, tmp_path: Path) -> None:
    """A client that sends its request head a byte at a time never completes it: 408 in the API's error shape."""
    with serving(upstream, tmp_path, header_timeout=0.5) as address:
        conn = connect(address)
        conn.setblocking(True)
        head = post("/v1/chat/completions", CHAT)
        got = b""
        for byte in head:  # one byte every 50 ms; the gateway answers long before the head is done
            try:
                conn.sendall(bytes([byte]))
            except OSError:
                break
            conn.settimeout(0.05)
            try:
                got = conn.recv(65536)
            except TimeoutError:
                continue
            break
        conn.settimeout(WAIT)
        got += read_all(conn)
    status, headers, body = response(got)
    assert status.startswith("HTTP/1.1 408") and headers["connection"] == "close"
    assert json.loads(body)["error"]["code"] == "request_timeout"


def test_a_kept_alive_connection_is_closed_after_the_idle_timeout(upstream: Upstream, tmp_path: Path) -> None:
    """After its answer, a kept-alive connection that sends nothing more is closed."""
    with serving(upstream, tmp_path, idle_timeout=0.3) as address:
        conn = connect(address)
        conn.sendall(b"GET /context-compactor/health HTTP/1.1\r\nHost: gw\r\n\r\n")
        got = read_all(conn)
    assert got.startswith(b"HTTP/1.1 200") and got.endswith(b'{"status":"ok"}')


def test_a_body_that_stops_arriving_closes_the_connection(upstream: Upstream, tmp_path: Path) -> None:
    """A request whose body pauses past the idle timeout is dropped, and the upstream never sees it."""
    with serving(upstream, tmp_path, idle_timeout=0.3) as address:
        conn = connect(address)
        conn.sendall(post("/v1/chat/completions", CHAT)[:-10])
        assert read_all(conn) == b""
    assert upstream.app.chats() == []


@pytest.mark.parametrize("what", ["count", "size"])
def test_too_many_or_too_large_headers_are_answered_431(upstream: Upstream, tmp_path: Path, what: str) -> None:
    """A head with more header lines, or more bytes, than the limits gets 431 in the API's error shape."""
    extra = ("".join(f"X-H{i}: v\r\n" for i in range(30)) if what == "count" else f"X-Big: {'a' * 5000}\r\n")
    with serving(upstream, tmp_path, max_headers=20, max_header_bytes=4096) as address:
        conn = connect(address)
        conn.sendall(post("/v1/chat/completions", CHAT, extra=extra))
        status, headers, body = response(read_all(conn))
    assert status.startswith("HTTP/1.1 431") and headers["content-type"] == "application/json"
    assert json.loads(body)["error"]["code"] == "request_header_fields_too_large"
    assert upstream.app.chats() == []


def test_a_head_without_an_end_is_refused_at_the_size_limit(upstream: Upstream, tmp_path: Path) -> None:
    """A header value that never ends is read only up to the size limit, then refused with 431."""
    with serving(upstream, tmp_path, max_header_bytes=4096) as address:
        conn = connect(address)
        conn.sendall(b"GET /v1/models HTTP/1.1\r\nX-Endless: " + b"a" * 20000)
        status, _, _ = response(read_all(conn))
    assert status.startswith("HTTP/1.1 431")


def test_ordinary_requests_pass_the_edge(upstream: Upstream, tmp_path: Path) -> None:
    """A chat request with ordinary headers, sent at once, is answered 200 as before."""
    with serving(upstream, tmp_path) as address:
        conn = connect(address)
        conn.sendall(post("/v1/chat/completions", CHAT, extra="Connection: close\r\n"))
        status, _, body = response(read_all(conn))
    assert status.startswith("HTTP/1.1 200") and json.loads(body)["choices"]


# --- defect 9: nesting ----------------------------------------------------------------------------

@pytest.mark.parametrize("depth", [129, 100_000])
def test_deeply_nested_json_is_answered_400_in_the_api_shape(upstream: Upstream, tmp_path: Path, depth: int) -> None:
    """A chat body nested past the limit (128) gets a 400 OpenAI error, no 500 and no traceback in the log."""
    inner = "[" * depth + "]" * depth
    body = ('{"model": "m", "messages": [{"role": "user", "content": "x"}], "extra": ' + inner + "}").encode()
    with capture_logs() as logs, serving(upstream, tmp_path) as address:
        conn = connect(address)
        conn.sendall(post("/v1/chat/completions", body, extra="Connection: close\r\n"))
        status, headers, answer = response(read_all(conn))
    assert status.startswith("HTTP/1.1 400") and headers["content-type"] == "application/json"
    error = json.loads(answer)["error"]
    assert error["code"] == "json_too_deep" and error["type"] == "invalid_request_error" and "128" in error["message"]
    assert not [line for line in logs if line.get("log_level") == "error"] and upstream.app.chats() == []


def test_json_as_deep_as_the_limit_is_served(upstream: Upstream, tmp_path: Path) -> None:
    """A body nested exactly to the limit is still served."""
    with serving(upstream, tmp_path, max_json_depth=8) as address:
        conn = connect(address)
        body = json.dumps({"model": "m", "messages": [{"role": "user", "content": "x"}], "x": [[[[[1]]]]]}).encode()
        conn.sendall(post("/v1/chat/completions", body, extra="Connection: close\r\n"))
        status, _, _ = response(read_all(conn))
    assert status.startswith("HTTP/1.1 200")


# --- defect 10: HTTP/1.0 --------------------------------------------------------------------------

def test_an_http_1_0_stream_arrives_without_chunked_encoding(upstream: Upstream, tmp_path: Path) -> None:
    """An HTTP/1.0 client asking for a stream gets the events with a Content-Length, no chunk sizes in the text."""
    body = json.dumps({"model": "m", "stream": True, "messages": [{"role": "user", "content": "hello"}]}).encode()
    with serving(upstream, tmp_path) as address:
        conn = connect(address)
        conn.sendall(post("/v1/chat/completions", body, version="1.0"))
        status, headers, text = response(read_all(conn))
    assert "transfer-encoding" not in headers and int(headers["content-length"]) == len(text)
    assert status.split()[1] == "200" and text.startswith(b"data: ") and text.endswith(b"data: [DONE]\n\n")
    events = [json.loads(e[6:]) for e in text.decode().split("\n\n") if e.startswith("data: {")]
    assert "".join(e["choices"][0]["delta"].get("content") or "" for e in events if e.get("choices"))


def test_an_http_1_0_request_for_another_path_is_read_to_its_length(upstream: Upstream, tmp_path: Path) -> None:
    """A proxied answer to an HTTP/1.0 client also comes with its length, not chunked."""
    with serving(upstream, tmp_path) as address:
        conn = connect(address)
        conn.sendall(b"GET /v1/models HTTP/1.0\r\n\r\n")
        status, headers, text = response(read_all(conn))
    assert status.split()[1] == "200" and "transfer-encoding" not in headers
    assert int(headers["content-length"]) == len(text) and json.loads(text)["data"]


def test_config_refuses_a_nonpositive_edge_limit() -> None:
    """A zero or negative timeout or limit is a ConfigError naming the option."""
    from context_compactor.errors import ConfigError

    with pytest.raises(ConfigError, match="--header-timeout"):
        GatewayConfig(upstream="http://127.0.0.1:1/v1", header_timeout=0)
    assert dataclasses.replace(GatewayConfig(upstream="http://127.0.0.1:1/v1"), max_headers=5).max_headers == 5
