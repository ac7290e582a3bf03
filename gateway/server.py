"""Running the gateway on uvicorn: the fastest loop and HTTP parser installed, a socket we bind
ourselves (so ``--port 0`` can say which port it got), and a graceful stop on SIGINT/SIGTERM.
"""

from __future__ import annotations

import contextlib
import importlib.util
import signal
import socket
import threading
from collections.abc import Iterator

import uvicorn

from context_compactor.errors import CompactorError

from .app import Gateway
from .edge import EdgeLimits, edge_protocol


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port`` (port 0: any free port); CompactorError naming the fix."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        sock = socket.socket(family, kind, proto)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(2048)
    except OSError as exc:
        raise CompactorError(f"cannot listen on {host}:{port}: {exc.strerror or exc} "
                             "(is another server using the port? choose another with --port)") from exc
    sock.set_inheritable(True)
    return sock


def uvicorn_config(app: Gateway) -> uvicorn.Config:
    """uvicorn settings for the gateway: uvloop when installed, httptools with the edge's limits (see
    edge.py), no access log of its own, no X-Forwarded-* rewriting (the gateway never looks at the
    client's address)."""
    fast_loop = importlib.util.find_spec("uvloop") is not None
    c = app.config
    limits = EdgeLimits(head_timeout=c.header_timeout, idle_timeout=c.idle_timeout,
                        max_head_bytes=c.max_header_bytes, max_headers=c.max_headers)
    return uvicorn.Config(
        app, host=c.host, port=c.port,
        loop="uvloop" if fast_loop else "asyncio", http=edge_protocol(limits),
        lifespan="on", access_log=False, log_config=None, server_header=False, proxy_headers=False,
        timeout_graceful_shutdown=max(1, round(c.shutdown_grace)), timeout_keep_alive=c.idle_timeout,  # type: ignore[arg-type]
        backlog=2048,
    )


class Server(uvicorn.Server):
    """uvicorn's server, stopping gracefully on SIGINT/SIGTERM without re-raising the signal afterwards
    (so that ``serve`` returns and exits 0 after a clean stop)."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        handled = (signal.SIGINT, signal.SIGTERM)
        previous = {sig: signal.signal(sig, self.handle_exit) for sig in handled}
        try:
            yield
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)


def serve(app: Gateway, sock: socket.socket) -> None:
    """Serve until SIGINT/SIGTERM; in-flight requests get ``shutdown_grace`` seconds to finish."""
    Server(uvicorn_config(app)).run(sockets=[sock])
