"""The sessions' ``after_turn`` calls, run off the reply path and off the next request's path.

Bookkeeping (calibration, a learned window, pre-summarization) waits until the gateway next waits for
the upstream (:meth:`AfterTurns.start_queued`, called by the relay once a request is out), or
``AFTER_TURN_DELAY`` seconds when none comes; then each runs in a worker thread, after the same
session's previous one.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, wait

MAX_PENDING = 1024  # after_turn futures kept before the finished ones are swept
AFTER_TURN_DELAY = 0.1  # seconds: a queued after_turn starts after this when no upstream wait comes first


class AfterTurns:
    """The queue of ``after_turn`` calls and the last one started per session."""

    def __init__(self, executor: ThreadPoolExecutor) -> None:
        self.executor = executor
        self._after: dict[str, Future[None]] = {}  # per session: its last after_turn, maybe still running
        self._queued: list[tuple[str, Callable[[], None]]] = []  # after_turn calls not started yet
        self._timer: asyncio.TimerHandle | None = None

    def queue(self, key: str, fn: Callable[[], None]) -> None:
        """Queue a session's ``after_turn``; it starts when the gateway next waits for the upstream.

        Bookkeeping is off the reply path, and also off the next request's path: a client that
        sends its next request the moment a reply ends (an agent loop) would otherwise have it
        parsed and measured while this runs in another thread. So it starts once the next request
        is out and its answer awaited (:meth:`start_queued`), or after ``AFTER_TURN_DELAY``
        seconds when none comes, in a worker thread, after the session's previous one.
        """
        self._queued.append((key, fn))
        if self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(AFTER_TURN_DELAY, self.start_queued)

    def start_queued(self) -> None:
        """Start the queued ``after_turn`` calls (the gateway has nothing better to do)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        queued, self._queued = self._queued, []
        for key, fn in queued:
            self._start(key, fn)

    def _start(self, key: str, fn: Callable[[], None]) -> None:
        previous = self._after.get(key)

        def job() -> None:
            if previous is not None:
                wait([previous])
            fn()

        try:
            self._after[key] = self.executor.submit(job)
        except RuntimeError:  # shutting down: bookkeeping of the last turns is dropped
            return
        if len(self._after) > MAX_PENDING:
            self._after = {k: f for k, f in self._after.items() if not f.done()}

    async def settled(self, key: str) -> None:
        """Wait until the session's ``after_turn`` calls have run (a command reports on the last turn)."""
        if any(k == key for k, _ in self._queued):
            self.start_queued()
        previous = self._after.get(key)
        if previous is not None and not previous.done():
            await asyncio.wrap_future(previous)

    def running(self) -> list[asyncio.Future[None]]:
        """Start what is queued; the calls still running, as awaitables (for a bounded wait at shutdown)."""
        self.start_queued()
        return [asyncio.wrap_future(f) for f in self._after.values() if not f.done()]
