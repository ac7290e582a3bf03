"""Summary work off the reply path: model calls that outlive a turn, and pre-summarization.

:class:`Background` is the :class:`~context_compactor.engine.summaries.Runner` of model calls. A
call runs on one of a few daemon worker threads; the turn waits for it only as long as its time
budget allows, and a call still running when a second caller asks for the same key is joined, not
repeated. Whatever finishes lands in the summary cache (the job itself writes it).

Pre-summarization: after a turn whose prompt has passed ``precompactAt`` of the trigger,
:func:`schedule` starts a job that makes, in the background, the chunk summaries and merges the
next compaction will need, so that when it fires the reply waits for nothing. One job per session
at a time: a newer one supersedes (stops) the older before it starts. :meth:`Background.close`
stops everything: queued calls are cancelled, running ones are abandoned after a short grace
(their threads are daemons and their HTTP calls have deadlines of their own). A job the close
stopped, or whose late model answer found the store already closed, ends as
``presummarize.stopped_by_close`` (info), never as a failure; the store takes each summary whole
under its lock, so nothing is half-written.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from typing import Any, Protocol

from .logs import get_logger
from .engine.chunks import closed_chunks
from .engine.summaries import Cancelled, Pending, Summaries
from .session import Session
from .store import StoreClosed
from .turn_types import ModelInfo

logger = get_logger()

Job = Callable[[], str]


@dataclass
class _SessionJob:
    stop: threading.Event = field(default_factory=threading.Event)
    thread: threading.Thread | None = None


class Background:
    """A few worker threads for model calls, shared in-flight by key, and one job per session."""

    def __init__(self, workers: int = 2) -> None:
        self.workers = workers
        self._queue: queue.Queue[tuple[Future[str], Job, str] | None] = queue.Queue()
        self._threads: list[threading.Thread] = []
        self._inflight: dict[str, Future[str]] = {}
        self._jobs: dict[str, _SessionJob] = {}
        self._lock = threading.Lock()
        self.closed = False
        self._waited = False  # close() waits once; a second close returns at once
        # The longest a turn waits for a call it starts (None: its own budget). A gateway in front of a
        # single-slot server sets 0: the call would take the slot the turn itself needs, so the turn goes
        # on with the built-in ledger and the call runs (and is cached) once the server is idle.
        self.turn_wait: float | None = None

    # --- model calls (the Runner protocol) ------------------------------------------------------

    def run(self, key: str, job: Job, wait: float | None) -> str:
        future, mine = self._claim(key)
        if mine:
            self._start_workers()
            self._queue.put((future, job, key))
        cap = self.turn_wait
        return self._wait(future, key, wait if cap is None or (wait is not None and wait < cap) else cap)

    def here(self) -> Here:
        """A runner that makes calls in the caller's thread, still shared in-flight by key."""
        return Here(self)

    def _claim(self, key: str) -> tuple[Future[str], bool]:
        with self._lock:
            if self.closed:
                raise Cancelled("the runtime is closing")
            future = self._inflight.get(key)
            if future is not None:
                return future, False
            future = Future()
            self._inflight[key] = future
            return future, True

    def _wait(self, future: Future[str], key: str, wait: float | None) -> str:
        try:
            return future.result(timeout=wait)
        except FutureTimeout:
            raise Pending(key) from None

    def _execute(self, future: Future[str], job: Job, key: str) -> None:
        if not future.set_running_or_notify_cancel():
            return
        try:
            future.set_result(job())
        except BaseException as exc:  # noqa: BLE001 - handed to whoever waits for it
            future.set_exception(exc)
        finally:
            with self._lock:
                if self._inflight.get(key) is future:
                    del self._inflight[key]

    def _start_workers(self) -> None:
        with self._lock:
            while len(self._threads) < self.workers and not self.closed:
                thread = threading.Thread(target=self._work, name=f"context-compactor-summary-{len(self._threads)}",
                                          daemon=True)
                self._threads.append(thread)
                thread.start()

    def _work(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            self._execute(*item)

    # --- pre-summarization jobs ---------------------------------------------------------------------

    def start_job(self, session_key: str, work: Callable[[threading.Event], Any]) -> None:
        """Run ``work(stop)`` for a session, after stopping (and waiting for) its previous job."""
        with self._lock:
            if self.closed:
                return
            old = self._jobs.get(session_key)
            if old is not None:
                old.stop.set()
            job = _SessionJob()
            self._jobs[session_key] = job
            job.thread = threading.Thread(target=self._run_job, args=(session_key, job, work, old), daemon=True,
                                          name=f"context-compactor-presummarize-{session_key[:24]}")
            job.thread.start()

    def _run_job(self, session_key: str, job: _SessionJob, work: Callable[[threading.Event], Any],
                 old: _SessionJob | None) -> None:
        try:
            if old is not None and old.thread is not None:
                old.thread.join()
            if not job.stop.is_set():
                work(job.stop)
        except (Cancelled, StoreClosed) as exc:
            if self.closed:  # the runtime is closing: normal (the gateway stopped, the session ended)
                logger.info("presummarize.stopped_by_close", session=session_key, at=f"{type(exc).__name__}: {exc}")
            elif isinstance(exc, Cancelled):
                logger.info("presummarize.superseded", session=session_key)
            else:  # the store closed under a live runtime: a bug, not a shutdown
                logger.warning("presummarize.failed", session=session_key, error=f"{type(exc).__name__}: {exc}")
        except Exception as exc:  # noqa: BLE001 - a background job never takes anything down
            logger.warning("presummarize.failed", session=session_key, error=f"{type(exc).__name__}: {exc}")
        finally:
            with self._lock:
                if self._jobs.get(session_key) is job:
                    del self._jobs[session_key]

    def running(self, session_key: str) -> bool:
        with self._lock:
            return session_key in self._jobs

    def busy(self) -> bool:
        with self._lock:
            return bool(self._jobs or self._inflight)

    def wait_idle(self, timeout: float) -> bool:
        """Wait until no job and no call is running (tests and benchmarks); False on timeout."""
        import time

        end = time.monotonic() + timeout
        while self.busy():
            if time.monotonic() > end:
                return False
            time.sleep(0.005)
        return True

    def stop(self) -> None:
        """Refuse new work, tell every job to stop, cancel queued calls; waits for nothing."""
        with self._lock:
            if self.closed:
                return
            self.closed = True
            jobs = list(self._jobs.values())
            threads = list(self._threads)
        for job in jobs:
            job.stop.set()
        while True:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                break
            if item is not None:
                item[0].cancel()
        for _ in threads:
            self._queue.put(None)

    def close(self, grace: float = 2.0) -> None:
        """:meth:`stop`, then wait up to ``grace`` seconds in all for running jobs and calls.

        A job stops between model calls; one still waiting on a model after ``grace`` is left to
        its daemon thread (its HTTP call has its own deadline) and logged as such: when its answer
        comes, it finds the store closed and ends as stopped by the close.
        """
        import time

        self.stop()
        with self._lock:
            if self._waited:
                return
            self._waited = True
            threads = [*self._threads, *(j.thread for j in self._jobs.values() if j.thread is not None)]
        end = time.monotonic() + grace
        for thread in threads:
            thread.join(max(0.0, end - time.monotonic()))
        left = [t.name for t in threads if t.is_alive()]
        if left:
            logger.info("presummarize.close_gave_up", grace_seconds=grace, still_running=left,
                        note="left to finish on their own; a late answer is not written to the closed store")


class Here:
    """Runs a call in the caller's thread; another caller asking for the same key joins it."""

    def __init__(self, background: Background) -> None:
        self.background = background

    def run(self, key: str, job: Job, wait: float | None) -> str:
        future, mine = self.background._claim(key)
        if mine:
            self.background._execute(future, job, key)
        return self.background._wait(future, key, None if mine else wait)


# --- deciding what to pre-summarize --------------------------------------------------------------------


class Owner(Protocol):
    """What :func:`schedule` uses of the runtime (named here: the runtime imports this module)."""

    @property
    def background(self) -> Background: ...


def schedule(runtime: Owner, session: Session, model: ModelInfo) -> bool:
    """After a turn: start a pre-summarization job when the prompt has passed ``precompactAt``.

    The job makes the model summary of every closed chunk of the conversation, and the merges
    they need. Closed chunks never change, so none of this is wasted: the chunks before the
    recent tail are what the next compaction folds, and those inside it are what the ones after
    fold. The open chunk is left alone (it changes with every message). Returns whether a job
    was started.
    """
    plan_input = session.plan_input
    if plan_input is None:
        return False
    m, budget, settings, summaries, tuning = plan_input
    sent = session.last.stats.tokens_after if session.last.stats is not None else 0
    if not getattr(summaries.summarizer, "between_turns", True):  # a model reachable only inside a turn (OpenClaw's)
        return False
    if not summaries.tiered or sent < settings.precompact_at * budget.trigger:
        return False
    entries = m.entries
    lead = next((i for i, e in enumerate(entries) if e.view.role != "system"), len(entries))
    closed = closed_chunks(entries, lead, len(entries), summaries.chunk_units)
    if not closed:
        return False
    mark = (entries[closed[-1][1] - 1].digest, len(closed), summaries.summarizer.identity, summaries.chunk_units)
    if session.presummarized == mark:
        return False
    session.presummarized = mark
    background = runtime.background
    end = closed[-1][1]

    def work(stop_event: threading.Event) -> None:
        job = Summaries(summaries.summarizer, summaries.fallback, summaries.cache, summaries.count,
                        summaries.chunk_tokens, runner=background.here(), tiered=True,
                        chunk_units=summaries.chunk_units, fan_in=summaries.fan_in, should_stop=stop_event.is_set)
        report = job.prepare(entries, lead, end, tuning.summary_max_tokens)
        if report.fallbacks:
            session.presummarized = None  # try again after the next turn
        logger.info("presummarize.done", session=session.key, chunks=len(closed), summarized=report.summarized,
                    merges=report.merges, cache_hits=report.cache_hits, fallbacks=report.fallbacks)

    background.start_job(session.key, work)
    logger.info("presummarize.started", session=session.key, model=model.id, chunks=len(closed))
    return True
