"""Summary work off the reply path: shared in-flight calls, one job per session, clean shutdown,
and pre-summarization that leaves the compaction turn nothing to wait for."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
import structlog
import structlog.testing
from llmfakes import Behaviour, FakeModelServer, chat_reply, sectioned

from context_compactor.engine.summaries import Cancelled, Pending
from context_compactor.hookspecs import AfterTurnEvent, BeforeAgentStartEvent, HookContext, ModelInfo
from context_compactor.plugins import get_plugin_manager
from context_compactor.presummarize import Background
from context_compactor.runtime import Runtime
from context_compactor.settings import Settings
from context_compactor.store import Store
from context_compactor.summarizer.client import make_client

MODEL = ModelInfo(id="session-model")


def held_job(background: Background, result: str) -> tuple[Callable[[], str], list[int]]:
    """A job under key "k" that blocks until its gate opens, already started (a first caller gave up waiting)."""
    ran: list[int] = []
    gate = threading.Event()

    def job() -> str:
        ran.append(1)
        gate.wait(5)
        return result

    with pytest.raises(Pending):
        background.run("k", job, wait=0.01)
    threading.Timer(0.1, gate.set).start()
    return job, ran


def test_a_call_in_flight_is_joined_not_repeated() -> None:
    """Two callers asking for the same key get one execution of the job."""
    background = Background()
    job, ran = held_job(background, "text")
    assert background.run("k", job, wait=5) == "text" and ran == [1]
    background.close()


def test_the_inline_runner_joins_a_foreground_call() -> None:
    """A pre-summarization job asking for a key the turn already started waits for that call."""
    background = Background()
    job, ran = held_job(background, "shared")
    assert background.here().run("k", job, wait=None) == "shared" and ran == [1]
    background.close()


def test_a_newer_job_supersedes_the_older() -> None:
    """The older job is told to stop and finishes before the newer one starts: one job per session."""
    background, log = Background(), []
    started = threading.Event()

    def old(stop: threading.Event) -> None:
        started.set()
        log.append("old start")
        stop.wait(5)
        log.append(f"old stopped={stop.is_set()}")

    def new(stop: threading.Event) -> None:
        log.append("new ran")

    background.start_job("s", old)
    started.wait(5)
    background.start_job("s", new)
    assert background.wait_idle(5)
    assert log == ["old start", "old stopped=True", "new ran"]
    background.close()


def test_close_stops_jobs_and_refuses_new_calls() -> None:
    """close() sets every job's stop, returns with a call still stuck (it does not wait for it), then refuses work."""
    background = Background()
    stuck, finished = threading.Event(), threading.Event()

    def stuck_call() -> str:
        stuck.wait(30)
        finished.set()
        return "late"

    background.start_job("s", lambda stop: stop.wait(30))
    with pytest.raises(Pending):
        background.run("k", stuck_call, wait=0.01)
    background.close(grace=0.1)
    assert not finished.is_set()  # close came back while the call was still running
    assert not background.running("s")
    with pytest.raises(Cancelled):
        background.run("k2", lambda: "x", wait=1)
    stuck.set()


# --- through the hooks ---------------------------------------------------------------------------------


class SlowModel:
    def __init__(self, seconds: float) -> None:
        self.seconds, self.calls = seconds, 0
        self.lock = threading.Lock()

    def __call__(self, request: httpx.Request) -> httpx.Response:
        with self.lock:
            self.calls += 1
        time.sleep(self.seconds)
        assert json.loads(request.content)["model"] == "slow"
        return httpx.Response(200, json=chat_reply(sectioned("pre")))


def conversation(turns: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [{"role": "system", "content": "You are an agent."}]
    for i in range(turns):
        out.append({"role": "user", "content": f"step {i}: " + "lorem ipsum " * 100})
        out.append({"role": "assistant", "content": f"done {i}: " + "dolor sit " * 120})
    return out


def replay(runtime: Runtime, messages: list[dict[str, Any]], upto: int,
           model: SlowModel | None = None) -> list[tuple[int, int, int, Any]]:
    """Turns at every user message up to ``upto``, each once the background is idle; returns (turn index,
    model calls the turn made itself, model calls made in the background after it, result)."""
    pm = get_plugin_manager(load_entry_points=False)
    ctx = HookContext("s", runtime, MODEL)
    out = []
    for n in range(2, upto + 1, 2):
        before = model.calls if model else 0
        result = pm.hook.before_agent_start(event=BeforeAgentStartEvent(messages=messages[:n], model=MODEL), ctx=ctx)
        during = (model.calls if model else 0) - before
        sent = result.messages if result and result.messages is not None else messages[:n]
        pm.hook.after_turn(event=AfterTurnEvent(messages=sent, model=MODEL), ctx=ctx)
        assert runtime.background.wait_idle(30), "the pre-summarization job did not finish in 30 s"
        out.append((n, during, (model.calls if model else 0) - before - during, result))
    return out


def runtime_with(tmp_path: Path, model: SlowModel, name: str, **options: Any) -> Runtime:
    options = {"contextWindow": 4096, "summaryTimeoutSeconds": 10, **options,
               "summaryModel": {"baseUrl": "http://summary.test/v1", "model": "slow", "contextWindow": 8192}}
    settings = Settings(**options)
    return Runtime(settings, store=Store.open(tmp_path / f"{name}.sqlite"),
                   http=httpx.Client(transport=httpx.MockTransport(model)))


def test_presummarization_prepares_the_closed_chunks_between_turns(tmp_path: Path) -> None:
    """With pre-summarization the closed chunks are summarised between turns, so a compaction turn calls the
    model at most once (for the part after the last closed chunk); without it, nothing runs between turns."""
    messages = conversation(24)
    on_model, off_model = SlowModel(0.0), SlowModel(0.0)
    on = runtime_with(tmp_path, on_model, "on")
    off = runtime_with(tmp_path, off_model, "off", precompactAt=1.0)
    try:
        with_jobs = [(d, b, r) for _, d, b, r in replay(on, messages, 48, on_model) if r and r.stats.chunks]
        without = [(d, b, r) for _, d, b, r in replay(off, messages, 48, off_model) if r and r.stats.chunks]
    finally:
        on.close()
        off.close()
    assert with_jobs and without
    assert all(r.stats.fallbacks == 0 for _, _, r in with_jobs + without)
    assert sum(b for _, b, _ in with_jobs) > 0 and sum(b for _, b, _ in without) == 0
    # Each turn's own calls: never the closed chunks the job already made (at most the one open part).
    assert max(d for d, _, _ in with_jobs) <= 1, [d for d, _, _ in with_jobs]
    assert sum(d for d, _, _ in without) > 0  # the turn that found a new closed chunk called the model itself


@pytest.mark.parametrize(("precompact_at", "ahead"), [(1.0, False), (0.6, True)])
def test_jobs_start_only_past_precompact_at(tmp_path: Path, precompact_at: float, ahead: bool) -> None:
    """A prompt at about 0.8 of the trigger (never compacted) is summarised ahead at precompactAt 0.6, not at 1.0."""
    model = SlowModel(0.0)
    runtime = runtime_with(tmp_path, model, "quiet", precompactAt=precompact_at, chunkTokens=512)
    try:
        turns = replay(runtime, conversation(4), 8, model)
    finally:
        runtime.close()
    assert all(result.messages is None for _, _, _, result in turns)  # under the trigger throughout
    assert (model.calls > 0) is ahead, model.calls


def test_runtime_close_is_clean_with_a_job_running(tmp_path: Path) -> None:
    """Closing the runtime while a pre-summarization job waits on a model that has not answered returns
    before the model does. (The turn stays under the trigger, so the job waiting is the pre-summarization's,
    not a compaction's own call for its narrative, which would hold the one worker instead.)"""
    gate, answered = threading.Event(), threading.Event()

    class HeldModel(SlowModel):
        def __call__(self, request: httpx.Request) -> httpx.Response:
            with self.lock:
                self.calls += 1
            gate.wait(30)
            answered.set()
            return httpx.Response(200, json=chat_reply(sectioned("pre")))

    model = HeldModel(0.0)
    runtime = runtime_with(tmp_path, model, "closing", summaryTimeoutSeconds=0.2)
    pm = get_plugin_manager(load_entry_points=False)
    ctx = HookContext("s", runtime, MODEL)
    messages = conversation(5)  # over precompactAt, under the trigger
    result = pm.hook.before_agent_start(event=BeforeAgentStartEvent(messages=messages, model=MODEL), ctx=ctx)
    assert result is None or result.messages is None
    pm.hook.after_turn(event=AfterTurnEvent(messages=messages, model=MODEL), ctx=ctx)
    background = runtime.background
    assert background.busy()
    with structlog.testing.capture_logs() as logs:
        runtime.close()
        assert not answered.is_set()  # close did not wait for the model's answer
        gate.set()
        assert background.wait_idle(30)  # the late answer meets the closed store
    assert not [e for e in logs if e["event"] == "presummarize.failed"], logs
    assert "presummarize.stopped_by_close" in [e["event"] for e in logs], logs


# --- closing while a job waits on the model -------------------------------------------------------------

CHAT = "/v1/chat/completions"


def held_server(gate: threading.Event, arrived: threading.Event) -> FakeModelServer:
    """A model server on 127.0.0.1 that answers each summary request only once ``gate`` opens."""

    def answer(body: dict[str, Any]) -> dict[str, Any]:
        arrived.set()
        gate.wait(30)
        return chat_reply(sectioned("late"))

    return FakeModelServer({CHAT: Behaviour(respond=answer)})


@pytest.mark.parametrize("owned", [True, False], ids=["own-client", "caller-client"])
def test_closing_the_runtime_under_a_job_stops_it_quietly_and_writes_nothing_half(tmp_path: Path, owned: bool) -> None:
    """runtime.close() while a pre-summarization job waits on the model ends the job as stopped by the close
    (info), never as a failure or any warning, and the store, opened again, is sound and holds no row from
    the job. With its own HTTP client (serve, the Python API) the close cuts the call; with a caller's client
    the close gives up waiting after its grace, and the model's late answer finds the store closed."""
    gate, arrived = threading.Event(), threading.Event()
    path = tmp_path / "closing.sqlite"
    with held_server(gate, arrived) as fake, make_client() as client:
        settings = Settings(contextWindow=4096, summaryTimeoutSeconds=10, precompactAt=0.6, chunkTokens=512,
                            summaryModel={"baseUrl": fake.url + "/v1", "model": "held", "timeoutSeconds": 30,
                                          "contextWindow": 8192})
        runtime = Runtime(settings, store=Store.open(path), http=None if owned else client)
        background = runtime.background
        pm = get_plugin_manager(load_entry_points=False)
        ctx = HookContext("s", runtime, MODEL)
        messages = conversation(4)
        with structlog.testing.capture_logs() as logs:
            result = pm.hook.before_agent_start(event=BeforeAgentStartEvent(messages=messages, model=MODEL), ctx=ctx)
            assert result.messages is None  # under the trigger: only the job calls the model
            pm.hook.after_turn(event=AfterTurnEvent(messages=messages, model=MODEL), ctx=ctx)
            assert arrived.wait(10), "the pre-summarization job never called the model"
            runtime.close()
            gate.set()  # the model answers now, into a closed runtime
            assert background.wait_idle(30), "the job did not end after the close"
    events = [(e["event"], e["log_level"]) for e in logs]
    assert ("presummarize.started", "info") in events
    assert ("presummarize.stopped_by_close", "info") in events, events
    assert not [e for e in logs if e["event"] == "presummarize.failed"], logs
    assert not [e for e in logs if e["log_level"] in ("warning", "error")], logs  # a close is not a fault
    if not owned:  # the answer came after the store closed: the job met the closed store, not an error
        assert ("presummarize.close_gave_up", "info") in events, events
        assert ("summary.model_done", "info") in events, events
        stopped = next(e for e in logs if e["event"] == "presummarize.stopped_by_close")
        assert stopped["at"].startswith("StoreClosed"), stopped
    reopened = Store.open(path)  # runs SQLite's quick check: a damaged file would be set aside and logged
    try:
        assert reopened.summary_count() == 0  # nothing from the job: its one answer came too late to be written
    finally:
        reopened.close()
    assert not list(tmp_path.glob("*.corrupt-*"))
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)


def test_a_model_error_in_a_job_is_still_reported(tmp_path: Path) -> None:
    """A model answering 500 while nothing is closing is a fault: the job logs it as a warning (the fallback
    summary stands in) and ends as done, never as stopped by a close."""
    with FakeModelServer({CHAT: Behaviour.error(500)}) as fake:
        settings = Settings(contextWindow=4096, summaryTimeoutSeconds=10, precompactAt=0.6, chunkTokens=512,
                            summaryModel={"baseUrl": fake.url + "/v1", "model": "broken", "timeoutSeconds": 5,
                                          "contextWindow": 8192})
        runtime = Runtime(settings, store=Store.open(tmp_path / "broken.sqlite"))
        try:
            with structlog.testing.capture_logs() as logs:
                replay(runtime, conversation(4), 8)
        finally:
            runtime.close()
    events = [(e["event"], e["log_level"]) for e in logs]
    assert ("summary.model_failed", "warning") in events and ("summary.fallback", "warning") in events, events
    done = [e for e in logs if e["event"] == "presummarize.done"]
    assert done and done[0]["fallbacks"] > 0, events
    assert "presummarize.stopped_by_close" not in {e for e, _ in events}


def test_a_job_that_raises_is_reported_as_failed_even_when_closing() -> None:
    """Only a stop by the close is quiet: any other exception a job raises is presummarize.failed, and a store
    closed under a runtime that is not closing is a failure too."""
    background = Background()
    with structlog.testing.capture_logs() as logs:
        background.start_job("bug", lambda stop: 1 / 0)
        assert background.wait_idle(5)

        def closed_store(stop: threading.Event) -> None:
            store = Store.open(":memory:")
            store.close()
            store.put("k", "text", "llm:x")

        background.start_job("store", closed_store)
        assert background.wait_idle(5)
        started = threading.Event()

        def breaks_on_close(stop: threading.Event) -> None:
            started.set()
            stop.wait(5)
            raise ValueError("garbage from the model")

        background.start_job("late", breaks_on_close)
        assert started.wait(5)
        background.close(grace=5)
    failed = {e["session"]: e["error"] for e in logs if e["event"] == "presummarize.failed"}
    assert failed.keys() == {"bug", "store", "late"}, logs
    assert failed["bug"].startswith("ZeroDivisionError") and failed["store"].startswith("StoreClosed"), failed
    assert not [e for e in logs if e["event"] == "presummarize.stopped_by_close"], logs
