"""Summary work off the reply path: shared in-flight calls, one job per session, clean shutdown,
and pre-summarization that leaves the compaction turn nothing to wait for."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from llmfakes import chat_reply, sectioned

from context_compactor.engine.summaries import Cancelled, Pending
from context_compactor.hookspecs import AfterTurnEvent, BeforeAgentStartEvent, HookContext, ModelInfo
from context_compactor.plugins import get_plugin_manager
from context_compactor.presummarize import Background
from context_compactor.runtime import Runtime
from context_compactor.settings import Settings
from context_compactor.store import Store

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
    """close() sets every job's stop, returns within its grace even with a stuck call, then refuses work."""
    background = Background()
    stuck = threading.Event()
    background.start_job("s", lambda stop: stop.wait(30))
    with pytest.raises(Pending):
        background.run("k", lambda: str(stuck.wait(30)), wait=0.01)
    started = time.monotonic()
    background.close(grace=0.5)
    assert time.monotonic() - started < 1.5
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


def replay(runtime: Runtime, messages: list[dict[str, Any]], upto: int) -> list[tuple[int, float, Any]]:
    """Turns at every user message up to ``upto``; returns (turn index, seconds, result)."""
    pm = get_plugin_manager(load_entry_points=False)
    ctx = HookContext("s", runtime, MODEL)
    out = []
    for n in range(2, upto + 1, 2):
        started = time.monotonic()
        result = pm.hook.before_agent_start(event=BeforeAgentStartEvent(messages=messages[:n], model=MODEL), ctx=ctx)
        out.append((n, time.monotonic() - started, result))
        sent = result.messages if result and result.messages is not None else messages[:n]
        pm.hook.after_turn(event=AfterTurnEvent(messages=sent, model=MODEL), ctx=ctx)
        runtime.background.wait_idle(30)
    return out


def runtime_with(tmp_path: Path, model: SlowModel, name: str, **options: Any) -> Runtime:
    options = {"contextWindow": 4096, "summaryTimeoutSeconds": 10, **options,
               "summaryModel": {"baseUrl": "http://summary.test/v1", "model": "slow", "contextWindow": 8192}}
    settings = Settings(**options)
    return Runtime(settings, store=Store.open(tmp_path / f"{name}.sqlite"),
                   http=httpx.Client(transport=httpx.MockTransport(model)))


def test_presummarization_leaves_the_compaction_turn_nothing_to_wait_for(tmp_path: Path) -> None:
    """With pre-summarization every compaction turn finds its summaries cached; without it, it waits for the model."""
    messages = conversation(24)
    on_model, off_model = SlowModel(0.2), SlowModel(0.2)
    on = runtime_with(tmp_path, on_model, "on")
    off = runtime_with(tmp_path, off_model, "off", precompactAt=1.0)
    try:
        with_jobs = [(s, r) for _, s, r in replay(on, messages, 48) if r and r.stats.get("chunks")]
        without = [(s, r) for _, s, r in replay(off, messages, 48) if r and r.stats.get("chunks")]
    finally:
        on.close()
        off.close()
    assert with_jobs and without
    assert all(r.stats["fallbacks"] == 0 for _, r in with_jobs)
    # The narrative of the newest closed chunk is prepared ahead; only the very first compaction
    # may still meet its one call in flight (turns here come back to back, with no pause).
    assert sorted(s for s, _ in with_jobs)[-2] < 0.15, [round(s, 3) for s, _ in with_jobs]
    assert max(s for s, _ in with_jobs) < 0.35
    assert max(s for s, _ in without) >= 0.2  # the turn that found a new closed chunk waited for the model
    assert on_model.calls >= off_model.calls > 0


def test_no_job_below_precompact_at(tmp_path: Path) -> None:
    """While the prompt stays under precompactAt of the trigger, nothing is summarised ahead."""
    model = SlowModel(0.0)
    runtime = runtime_with(tmp_path, model, "quiet", precompactAt=1.0)
    try:
        replay(runtime, conversation(3), 6)
    finally:
        runtime.close()
    assert model.calls == 0


def test_runtime_close_is_clean_with_a_job_running(tmp_path: Path) -> None:
    """Closing the runtime while a pre-summarization job waits on a slow model returns promptly."""
    model = SlowModel(3.0)
    runtime = runtime_with(tmp_path, model, "closing", summaryTimeoutSeconds=0.2)
    pm = get_plugin_manager(load_entry_points=False)
    ctx = HookContext("s", runtime, MODEL)
    messages = conversation(12)
    result = pm.hook.before_agent_start(event=BeforeAgentStartEvent(messages=messages, model=MODEL), ctx=ctx)
    pm.hook.after_turn(event=AfterTurnEvent(messages=result.messages, model=MODEL), ctx=ctx)
    assert runtime.background.busy()
    started = time.monotonic()
    runtime.close()
    assert time.monotonic() - started < 3.0
