"""``context-compactor serve`` through the real console script, as a process of its own."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import openai
import pytest
from fakes.harness import Upstream, fake_upstream

SCRIPT = str(Path(sys.executable).parent / "context-compactor")


def environment(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CONTEXT_COMPACTOR_")}
    env.update(HOME=str(tmp_path / "home"), OPENCLAW_STATE_DIR=str(tmp_path / "state"), **extra)
    return env


@contextmanager
def serving(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> Iterator[tuple[str, subprocess.Popen[bytes], Path]]:
    """Start ``serve`` on a free port; yield its base URL, the process and its log; stop it by PID after."""
    log = tmp_path / "serve.log"
    with log.open("wb") as sink:
        process = subprocess.Popen([SCRIPT, "serve", "--port", "0", "--store", str(tmp_path / "store.sqlite"), *args],
                                   stdout=sink, stderr=sink, env=env or environment(tmp_path))
    try:
        deadline = time.monotonic() + 20
        while not (found := re.search(r"serving (http://127\.0\.0\.1:\d+/v1)", log.read_text())):
            assert process.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)
        yield found.group(1), process, log
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@pytest.fixture
def upstream() -> Iterator[Upstream]:
    with fake_upstream(chunk_delay=0.05, reply=" ".join(f"w{i}" for i in range(40))) as up:
        yield up


@pytest.mark.slow
def test_serve_answers_and_stops_gracefully_on_sigterm(upstream: Upstream, tmp_path: Path) -> None:
    """A SIGTERM during a stream lets the stream finish, then the process exits 0."""
    with serving(tmp_path, "--upstream", upstream.url + "/v1", "--shutdown-grace", "10") as (url, process, log):
        client = openai.OpenAI(base_url=url, api_key="x", max_retries=0, timeout=30)
        stream = client.chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}], stream=True)
        chunks = [next(iter(stream))]
        process.send_signal(signal.SIGTERM)
        chunks += list(stream)
        assert process.wait(15) == 0
    assert chunks[-1].choices[0].finish_reason == "stop"
    assert "".join(c.choices[0].delta.content or "" for c in chunks).endswith("w39")
    assert "gateway.stopped" in log.read_text()


def test_json_logs_never_show_the_upstream_key(upstream: Upstream, tmp_path: Path) -> None:
    """With --log-format json each request is one JSON line; the upstream key is sent but never logged."""
    env = environment(tmp_path, CONTEXT_COMPACTOR_UPSTREAM_API_KEY="sk-very-secret")
    with serving(tmp_path, "--upstream", upstream.url, "--log-format", "json", env=env) as (url, process, log):
        openai.OpenAI(base_url=url, api_key="x", max_retries=0).chat.completions.create(
            model="m", messages=[{"role": "user", "content": "hi"}])
        process.send_signal(signal.SIGTERM)
        process.wait(15)
    lines = [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]
    assert any(line["event"] == "gateway.request" and line["status"] == 200 for line in lines)
    assert "sk-very-secret" not in log.read_text()
    assert upstream.app.chats()[0].headers["authorization"] == "Bearer sk-very-secret"


def test_serve_without_upstream_is_a_usage_error(tmp_path: Path) -> None:
    """No --upstream: exit 2 with a message that says what to pass."""
    done = subprocess.run([SCRIPT, "serve"], capture_output=True, text=True, env=environment(tmp_path), timeout=60)
    assert done.returncode == 2 and "--upstream" in done.stderr and "Traceback" not in done.stderr


def test_serve_on_a_busy_port_fails_with_the_fix(tmp_path: Path) -> None:
    """A port already taken: exit 1 naming the port and --port, no traceback."""
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = subprocess.run([SCRIPT, "serve", "--upstream", "http://127.0.0.1:9/v1", "--port", str(port)],
                              capture_output=True, text=True, env=environment(tmp_path), timeout=60)
    assert done.returncode == 1 and f"127.0.0.1:{port}" in done.stderr and "--port" in done.stderr
    assert "Traceback" not in done.stderr


def test_serve_requires_the_client_key_from_the_environment(upstream: Upstream, tmp_path: Path) -> None:
    """$CONTEXT_COMPACTOR_API_KEY makes the gateway refuse clients without that bearer key."""
    env = environment(tmp_path, CONTEXT_COMPACTOR_API_KEY="let-me-in")
    with serving(tmp_path, "--upstream", upstream.url, env=env) as (url, _process, _log):
        with pytest.raises(openai.AuthenticationError):
            openai.OpenAI(base_url=url, api_key="nope", max_retries=0).models.list()
        assert openai.OpenAI(base_url=url, api_key="let-me-in", max_retries=0).models.list().data


@pytest.mark.slow
def test_concurrent_streams_survive_a_sigterm(upstream: Upstream, tmp_path: Path) -> None:
    """Several in-flight streams all finish cleanly when the gateway is told to stop."""
    with serving(tmp_path, "--upstream", upstream.url) as (url, process, _log):
        client = openai.OpenAI(base_url=url, api_key="x", max_retries=0, timeout=30)
        results: list[str] = []
        started = threading.Barrier(6, timeout=60)

        def read(i: int) -> None:
            stream = iter(client.chat.completions.create(model="m", messages=[{"role": "user", "content": f"s{i}"}],
                                                         stream=True, extra_headers={"X-Session-Id": f"s{i}"}))
            first = next(stream)
            started.wait()  # every stream is in flight before the signal
            results.append("".join(c.choices[0].delta.content or "" for c in [first, *stream] if c.choices))

        threads = [threading.Thread(target=read, args=(i,)) for i in range(5)]
        for thread in threads:
            thread.start()
        started.wait()
        process.send_signal(signal.SIGTERM)
        for thread in threads:
            thread.join(30)
        assert process.wait(15) == 0
    assert len(results) == 5 and all(text.endswith("w39") for text in results)
