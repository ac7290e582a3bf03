"""Our own calls and a gateway's clients on one upstream: the gateway counts its clients' requests in
flight per server (:class:`IdleGate`), and our summary calls wait until there are none, are cancelled
when one arrives, and then shut their socket down at once (:class:`Cancel`): a single-slot local server
(llama-cpp-python, a llama.cpp server with one slot) would otherwise cut the client's stream off or make
it wait behind a summary no one waits for."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import httpx

IDLE_QUIET = 0.25  # seconds an upstream must have been idle: an agent's next request often follows at once
SETTLE_SECONDS = 1.0  # a gateway's settle time: no summary starts sooner than this after a client's turn ended
IDLE_MAX_WAIT = 600.0  # a summary gives up waiting for an idle upstream after this (it fails, the fallback is used)


def origin(url: str) -> str:
    """``scheme://host:port`` of a URL (the default port spelled out), to compare servers by."""
    parts = urlsplit(url)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    return f"{parts.scheme}://{(parts.hostname or '').lower()}:{port}"


class Cancel(threading.Event):
    """One call's cancel flag, which also closes the call's connection when it is set.

    The thread that runs the call is blocked reading its socket (the server is still reading the prompt,
    or between two tokens); the thread that cancels shuts that socket down (:meth:`hold` names it), so
    the read ends at once and the server sees the connection close. :meth:`release` before the
    connection may go back to a pool: the socket is never shut under another request.
    """

    def __init__(self) -> None:
        super().__init__()
        self._lock = threading.Lock()
        self._close: Callable[[], None] | None = None

    def set(self) -> None:
        with self._lock:
            super().set()
            close, self._close = self._close, None
            if close is not None:
                close()

    def hold(self, close: Callable[[], None]) -> None:
        """``close`` ends the call's connection when the flag is set (at once, if it is already)."""
        with self._lock:
            if self.is_set():
                close()
            else:
                self._close = close

    def release(self) -> None:
        with self._lock:
            self._close = None


def shutter(stream: Any) -> Callable[[], None] | None:
    """A function that shuts the socket of an httpcore network stream down (both ways), or None when the
    stream has no socket (a mock transport)."""
    get = getattr(stream, "get_extra_info", None)
    sock = get("socket") if get is not None else None
    if not isinstance(sock, socket.socket):
        return None

    def shut() -> None:
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:  # already closed
            pass

    return shut


class IdleGate:
    """Client requests in flight per upstream; our own calls to that upstream wait until there are none.

    A single-slot local server (llama-cpp-python, a llama.cpp server with one slot) interrupts or
    queues behind the running request when another arrives, so a summary sent while an agent's
    turn streams cuts that stream off or doubles its wait. The gateway counts its clients'
    requests here (:meth:`enter`, :meth:`leave`, from its event loop); the summary client waits in
    :meth:`wait_idle` before its deadline starts, and :meth:`hook` (an httpx request hook, also on
    window probes) waits at most the request's own timeout. Thread-safe.
    """

    def __init__(self, *, quiet: float = IDLE_QUIET, max_wait: float = IDLE_MAX_WAIT) -> None:
        self.quiet, self.max_wait = quiet, max_wait
        self._busy: dict[str, int] = {}
        self._idle_since: dict[str, float] = {}
        self._cond = threading.Condition()
        self.waits = 0  # calls that found the upstream busy
        self.waited_seconds = 0.0
        self._calls: dict[str, set[threading.Event]] = {}  # per server: the cancel flags of our calls running there
        self.cancelled = 0  # our calls a client's request cancelled
        self.cancel_max_seconds = 0.0  # the longest a cancelled call went on after its cancel (until it ended)
        self._cancelled_at: dict[int, float] = {}
        self.started = 0  # our calls that started
        self._latencies: list[float] = []  # seconds of summary calls, until :meth:`drain`

    def observe(self, seconds: float) -> None:
        """Note how long one summary call took (for the gateway's ``/metrics``)."""
        with self._cond:
            if len(self._latencies) < 100_000:
                self._latencies.append(seconds)

    def drain(self) -> list[float]:
        with self._cond:
            out, self._latencies = self._latencies, []
            return out

    def enter(self, url: str) -> None:
        """A client's request is on its way to ``url``'s server: our calls running there are cancelled."""
        with self._cond:
            key = origin(url)
            self._busy[key] = self._busy.get(key, 0) + 1
            for flag in self._calls.get(key, ()):
                if not flag.is_set():
                    self._cancel(flag)

    def call_started(self, url: str) -> Cancel:
        """Register one of our calls to ``url``'s server; the flag is set when a client's request cancels it."""
        flag = Cancel()
        with self._cond:
            key = origin(url)
            self._calls.setdefault(key, set()).add(flag)
            self.started += 1
            if self._busy.get(key):  # a client got there between our wait and now
                self._cancel(flag)
        return flag

    def _cancel(self, flag: threading.Event) -> None:
        self.cancelled += 1
        self._cancelled_at[id(flag)] = time.monotonic()
        flag.set()  # a Cancel also shuts its call's connection down, here and now

    def call_ended(self, url: str, flag: threading.Event) -> None:
        with self._cond:
            key = origin(url)
            calls = self._calls.get(key)
            at = self._cancelled_at.pop(id(flag), None)
            if at is not None:
                self.cancel_max_seconds = max(self.cancel_max_seconds, time.monotonic() - at)
            if calls is not None:
                calls.discard(flag)
                if not calls:
                    del self._calls[key]

    def running(self, url: str | None = None) -> int:
        """Our calls running now (at ``url``'s server, or anywhere)."""
        with self._cond:
            if url is not None:
                return len(self._calls.get(origin(url), ()))
            return sum(len(c) for c in self._calls.values())

    def leave(self, url: str) -> None:
        with self._cond:
            key = origin(url)
            left = self._busy.get(key, 0) - 1
            if left > 0:
                self._busy[key] = left
                return
            self._busy.pop(key, None)
            self._idle_since[key] = time.monotonic()
            self._cond.notify_all()

    def busy(self, url: str) -> int:
        """Client requests in flight at the server of ``url`` now."""
        with self._cond:
            return self._busy.get(origin(url), 0)

    def wait_idle(self, url: str, *, timeout: float | None = None, stop: threading.Event | None = None) -> float:
        """Block until no client request has been in flight at ``url``'s server for ``quiet`` seconds (or
        ``timeout``, default ``max_wait``, passed, or ``stop`` was set); the seconds waited."""
        key = origin(url)
        started = time.monotonic()
        until = started + (self.max_wait if timeout is None else timeout)
        waited = False
        with self._cond:
            while not (stop is not None and stop.is_set()):
                now = time.monotonic()
                left = until - now
                quiet_left = self.quiet - (now - self._idle_since.get(key, 0.0))
                if left <= 0 or (not self._busy.get(key) and quiet_left <= 0):
                    break
                waited = True
                self._cond.wait(min(left, quiet_left if not self._busy.get(key) else 0.5))
            seconds = time.monotonic() - started
            if waited:
                self.waits += 1
                self.waited_seconds += seconds
        return seconds

    def hook(self, request: httpx.Request) -> None:
        """httpx request hook: wait for an idle server at most this request's own pool timeout."""
        timeout = request.extensions.get("timeout") or {}
        self.wait_idle(str(request.url), timeout=timeout.get("pool") or timeout.get("read") or 5.0)


def gate_of(client: httpx.Client) -> IdleGate | None:
    """The :class:`IdleGate` a client's request hooks wait on, if any."""
    for hook in client.event_hooks.get("request", ()):
        owner = getattr(hook, "__self__", None)
        if isinstance(owner, IdleGate):
            return owner
    return None


def add_gate(client: httpx.Client, gate: IdleGate) -> None:
    """Make every request of ``client`` wait for ``gate`` (see :meth:`IdleGate.hook`)."""
    if gate_of(client) is gate:
        return
    hooks = client.event_hooks
    hooks["request"] = [*hooks.get("request", ()), gate.hook]
    client.event_hooks = hooks
