"""Running the gateway on uvicorn: the fastest loop and HTTP parser installed, a socket we bind
ourselves (so ``--port 0`` can say which port it got), and a graceful stop on SIGINT/SIGTERM; with
``--workers N``, N processes forked after the bind, each listening on the port with a socket of its
own (:func:`serve_workers`).
"""

from __future__ import annotations

import contextlib
import ctypes
import importlib.util
import math
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator, MutableMapping
from typing import Any

import structlog
import uvicorn

from context_compactor.errors import CompactorError

from .app import Gateway
from .edge import EdgeLimits, edge_protocol

PR_SET_PDEATHSIG = 1  # prctl(2): the signal a process gets when its parent dies
WORKER_EXIT_SECONDS = 5.0  # after the grace, how long workers get to close their stores before SIGKILL


def bind(host: str, port: int, *, reuse_port: bool = False) -> socket.socket:
    """A listening socket on ``host:port`` (port 0: any free port); CompactorError naming the fix.

    With ``reuse_port`` (``serve --workers``), other sockets may listen on the same port
    (SO_REUSEPORT, where the system has it): each worker gets one, see :func:`serve_workers`."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        sock = socket.socket(family, kind, proto)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if reuse_port and hasattr(socket, "SO_REUSEPORT"):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
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


def serve_workers(start: Callable[[socket.socket], Callable[[], None]], sock: socket.socket, workers: int,
                  grace: float) -> int:
    """Serve on ``sock``'s port from ``workers`` processes forked from this one, until SIGINT/SIGTERM; returns
    the exit code (0 after a clean stop, 1 when a worker died on its own: the others are stopped then too).

    ``start`` runs in each worker, after the fork, with the socket that worker listens on: it opens
    what a worker must not share with the others (the store's connections, the HTTP clients) and
    returns the function that serves until the worker is told to stop. Where ``sock`` was bound with
    ``reuse_port``, each worker listens with a socket of its own on the port and the kernel spreads
    new connections over them; one shared socket instead goes to whichever worker wakes first, which
    may take every connection a client opens at once (measured: 16 keep-alive connections all on one
    worker in one run of three). Workers are in a process group of their own, so a Ctrl-C in the terminal reaches only this
    process, which passes it on as one SIGTERM each (a second signal would cut uvicorn's grace
    short); a worker whose parent dies is sent SIGTERM by the kernel (Linux).
    """
    children: dict[int, int] = {}  # pid -> worker number
    stopping = threading.Event()

    def stop(_signum: int = 0, _frame: object = None) -> None:
        if not stopping.is_set():
            stopping.set()
            _signal_all(children, signal.SIGTERM)

    socks = [sock, *(_sibling(sock) for _ in range(workers - 1))] if _reuses_port(sock) else [sock] * workers
    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        for number in range(1, workers + 1):
            pid = os.fork()
            if pid == 0:
                mine = socks[number - 1]
                for other in socks:
                    if other is not mine:
                        other.close()
                _worker(start, mine, number)  # never returns
            children[pid] = number
        return _reap(children, stopping, stop, grace)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        for other in socks:
            if other is not sock:
                other.close()


def _reuses_port(sock: socket.socket) -> bool:
    return hasattr(socket, "SO_REUSEPORT") and bool(sock.getsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT))


def _sibling(sock: socket.socket) -> socket.socket:
    """Another socket listening on ``sock``'s address (both have SO_REUSEPORT)."""
    other = socket.socket(sock.family, sock.type, sock.proto)
    try:
        other.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        other.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        other.bind(sock.getsockname())
        other.listen(2048)
    except OSError as exc:
        other.close()
        raise CompactorError(f"cannot listen on {sock.getsockname()[:2]} for another worker: {exc.strerror or exc} "
                             "(run with --workers 1, or report the system this happens on)") from exc
    other.set_inheritable(True)
    return other


def _worker(start: Callable[[socket.socket], Callable[[], None]], sock: socket.socket, number: int) -> None:
    code = 0
    try:
        os.setpgid(0, 0)
        _die_with_parent()
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, signal.SIG_DFL)  # until uvicorn installs its own
        _mark_logs(number)
        start(sock)()
    except BaseException as exc:  # noqa: BLE001 - a worker says why it stopped, and the parent stops the rest
        print(f"context-compactor: worker {number} (pid {os.getpid()}) failed: {type(exc).__name__}: {exc}",
              file=sys.stderr, flush=True)
        code = 1
    finally:
        sys.stderr.flush()
        os._exit(code)


def _mark_logs(number: int) -> None:
    """Every log line of this worker says ``worker=N`` (the workers share one stderr)."""
    processors = structlog.get_config()["processors"]

    def mark(_logger: Any, _method: str, event: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
        event["worker"] = number
        return event

    structlog.configure(processors=[mark, *processors])


def _reap(children: dict[int, int], stopping: threading.Event, stop: Callable[[], None], grace: float) -> int:
    code = 0
    deadline: float | None = None
    while children:
        if stopping.is_set() and deadline is None:
            deadline = time.monotonic() + grace + WORKER_EXIT_SECONDS
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            break
        if pid == 0:
            if deadline is not None and time.monotonic() > deadline:
                _signal_all(children, signal.SIGKILL)  # past the grace: what is left is stuck
                deadline = math.inf
            time.sleep(0.05)
            continue
        number = children.pop(pid)
        if not stopping.is_set():
            print(f"context-compactor: worker {number} (pid {pid}) exited on its own "
                  f"({_how(status)}); stopping the others", file=sys.stderr, flush=True)
            code = 1
            stop()
    return code


def _signal_all(children: dict[int, int], sig: int) -> None:
    for pid in list(children):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, sig)


def _how(status: int) -> str:
    if os.WIFSIGNALED(status):
        return f"signal {signal.Signals(os.WTERMSIG(status)).name}"
    return f"exit code {os.waitstatus_to_exitcode(status)}"


def _die_with_parent() -> None:
    """Ask the kernel to send this process SIGTERM when its parent dies (Linux; elsewhere nothing)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):
        pass
