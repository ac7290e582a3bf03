"""End to end: a real OpenClaw gateway whose custom provider's baseUrl is our compaction gateway.

    openclaw agent --message ...  ->  OpenClaw gateway  ->  context-compactor gateway  ->  fake model server
                                     (full transcript)      (compacts each request)       (window enforced)

OpenClaw's own compaction is kept out of the way by the model's large ``contextWindow`` in the
OpenClaw config (131072: a ~96k prompt budget these turns never reach). Our gateway is told the
real window (32768) and the fake model server enforces it (at 3.5 characters a token, stricter than
our 4). OpenClaw sends ~15k tokens of system prompt and tools with every request, so twelve turns
of ~1.7k tokens would overflow the model without us. Slow: ~15 s gateway start, ~15 s first turn,
~3 s a turn after that.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import need
from fakes import free_port, text_of
from fakes.harness import RunningGateway, Upstream, fake_upstream, gateway_for
from ocfakes.openclaw import ENV_SCRIPT, isolated_env, openclaw_path, start_gateway

pytestmark = pytest.mark.slow  # a real OpenClaw gateway through serve: minutes

WINDOW = 32768
TURNS = 12
SESSION_KEY = "agent:main:explicit:gw-e2e"
CONFIG = """{
  gateway: { mode: "local", port: %(port)d, bind: "loopback", auth: { mode: "token", token: "%(token)s" } },
  models: { providers: { compactor: {
    baseUrl: "%(base)s/v1", apiKey: "unused-key", api: "openai-completions",
    models: [{ id: "fake-model", name: "Fake behind context-compactor", contextWindow: 131072, maxTokens: 1024,
               input: ["text"], reasoning: false, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } }],
  } } },
  agents: { defaults: { model: { primary: "compactor/fake-model" } } },
}
"""


class OpenClaw:
    """One isolated OpenClaw gateway under ``root``; every process it starts is stopped by PID in close()."""

    def __init__(self, root: Path, path: str) -> None:
        self.root, self.state = root, root / "state"
        self.port, self.token = free_port(), "gw-e2e-token"
        self.env = isolated_env(root, path, self.token)
        self.process: subprocess.Popen[Any] | None = None

    def start(self, base: str) -> None:
        (self.state / "openclaw.json").write_text(CONFIG % {"port": self.port, "token": self.token, "base": base})
        self.process = start_gateway(self.port, self.env, self.root / "gateway.log")

    def log(self) -> str:
        path = self.root / "gateway.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def run(self, *args: str, timeout: float = 240) -> subprocess.CompletedProcess[str]:
        return subprocess.run(list(args), capture_output=True, text=True, env=self.env, timeout=timeout)

    def history(self) -> list[dict[str, Any]]:
        done = self.run("openclaw", "gateway", "call", "chat.history", "--params",
                        json.dumps({"sessionKey": SESSION_KEY, "limit": 1000}), "--json")
        assert done.returncode == 0, done.stderr[-2000:]
        return list(json.loads(done.stdout[done.stdout.index("{"):])["messages"])

    def close(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)  # its own session: the gateway and its workers
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(10)


@pytest.fixture
def world(tmp_path: Path) -> Iterator[tuple[OpenClaw, Upstream, RunningGateway]]:
    path = openclaw_path()
    need(path is not None, f"OpenClaw (installed by {ENV_SCRIPT})")
    assert path is not None
    claw = OpenClaw(tmp_path / "openclaw", path)
    with fake_upstream(context_window=WINDOW) as up, \
            gateway_for(up.url, tmp_path, settings={"contextWindow": WINDOW}, read_timeout=120) as gw:
        try:
            yield claw, up, gw
        finally:
            claw.close()


def turn_message(i: int) -> str:
    return f"TURN-{i:02d} please keep this note: " + " ".join(f"note-{i}-{j}" for j in range(700))


@pytest.mark.timeout(900)
def test_openclaw_through_the_gateway_sends_bounded_prompts_and_keeps_its_transcript(
        world: tuple[OpenClaw, Upstream, RunningGateway]) -> None:
    """Twelve OpenClaw turns through our gateway: every model request fits the window, OpenClaw keeps all turns."""
    claw, up, gw = world
    claw.start(gw.url)
    for i in range(TURNS):
        done = claw.run("openclaw", "agent", "--session-id", "gw-e2e", "--message", turn_message(i))
        assert done.returncode == 0, f"turn {i}: {done.stdout[-1500:]} {done.stderr[-1500:]} {claw.log()[-2000:]}"
    requests = [r for r in up.app.chats() if isinstance(r.body, dict) and r.body.get("tools")]  # agent turns
    assert len(requests) >= TURNS and all(r.status == 200 for r in requests), [(r.status, r.prompt_tokens) for r in requests]
    assert max(r.prompt_tokens for r in requests) < WINDOW
    compacted = [r for r in requests if "[context-compactor: ledger of" in json.dumps(r.body["messages"])]
    assert compacted, "the gateway never compacted: the turns were meant to pass the trigger"
    last = requests[-1].body["messages"]
    texts = [text_of(m.get("content"), "\n") for m in last]
    assert any(turn_message(TURNS - 1) in t for t in texts)  # the current turn goes out verbatim
    assert not any(turn_message(0) in t for t in texts)  # the oldest is folded into the summary
    raw_history = sum(len(turn_message(i)) for i in range(TURNS)) / 3.5
    assert raw_history + requests[0].prompt_tokens > WINDOW  # without us the model would have overflowed
    everything = json.dumps([r.body for r in up.app.chats()])
    assert "Pre-compaction memory flush" not in everything  # OpenClaw's own compaction never started
    kept = [text_of(m.get("content"), "\n") for m in claw.history() if m.get("role") == "user"]
    assert all(any(f"TURN-{i:02d}" in text for text in kept) for i in range(TURNS))  # OpenClaw's transcript is whole
