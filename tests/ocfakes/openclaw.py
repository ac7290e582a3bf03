"""The real OpenClaw for the tests: finding it (the PATH that ``.ci/openclaw-env.sh`` prints),
an environment that isolates it under a folder, starting its gateway, and :class:`Gateway`, the isolated
OpenClaw world of one end-to-end test (its config pointing at a fake model on loopback)."""

from __future__ import annotations

import functools
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from fakes.loopback import free_port

ROOT = Path(__file__).resolve().parents[2]
# The install script the project ships (.ci/run sets OPENCLAW_ENV_SCRIPT to the one it used).
ENV_SCRIPT = Path(os.environ.get("OPENCLAW_ENV_SCRIPT") or ROOT / ".ci" / "openclaw-env.sh")


# Installing OpenClaw and its Node (about 1 GB from npm) is an explicit choice: .ci/run makes it.
INSTALL_ENV = "CONTEXT_COMPACTOR_INSTALL_OPENCLAW"
INSTALL_HINT = (f"set {INSTALL_ENV}=1 to let the tests install it (about 1 GB from npm, into "
                f"$OPENCLAW_E2E_DIR or ~/.cache/openclaw-e2e, once), or run .ci/run")


def _installed_path() -> str | None:
    """PATH with an OpenClaw the install script already put in its folder, without running the script."""
    folder = Path(os.environ.get("OPENCLAW_E2E_DIR") or Path.home() / ".cache" / "openclaw-e2e")
    bins = (folder / "bin", folder / "app" / "node_modules" / ".bin")
    if (bins[0] / "node").exists() and (bins[1] / "openclaw").exists():
        return os.pathsep.join([*map(str, bins), os.environ.get("PATH", "")])
    return None


@functools.lru_cache(maxsize=1)
def openclaw_path() -> str | None:
    """PATH with ``openclaw`` on it; None when not available.

    An OpenClaw the install script already installed is used as it is. Otherwise the script runs (it
    installs OpenClaw and Node into ~/.cache/openclaw-e2e, about a minute) only when
    ``CONTEXT_COMPACTOR_INSTALL_OPENCLAW=1`` asks for it: a plain ``pytest`` never downloads 1 GB.
    """
    if os.environ.get(INSTALL_ENV) != "1":
        return _installed_path()
    if not ENV_SCRIPT.is_file():
        return None
    try:
        done = subprocess.run(["bash", str(ENV_SCRIPT)], capture_output=True, text=True, timeout=900)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode:
        return None
    for line in done.stdout.splitlines():
        match = re.match(r'export PATH="(.*)"$', line.strip())
        if match:
            return match.group(1).replace("$PATH", os.environ.get("PATH", ""))
    return None


def isolated_env(root: Path, path: str, token: str) -> dict[str, str]:
    """The environment of an OpenClaw kept under ``root`` (its home, state and tmp folders, made here),
    ``openclaw`` on ``path``, its gateway's token ``token``."""
    for name in ("home", "state", "tmp"):
        (root / name).mkdir(parents=True)
    state = root / "state"
    return {**os.environ, "PATH": path, "HOME": str(root / "home"), "OPENCLAW_STATE_DIR": str(state),
            "OPENCLAW_CONFIG_PATH": str(state / "openclaw.json"), "TMPDIR": str(root / "tmp"),
            "OPENCLAW_GATEWAY_TOKEN": token}


def start_gateway(port: int, env: dict[str, str], log: Path, timeout: float = 120) -> subprocess.Popen[Any]:
    """``openclaw gateway run`` in a session of its own, its output in ``log``; returns once it listens."""
    with log.open("w") as out:
        proc = subprocess.Popen(["openclaw", "gateway", "run", "--port", str(port)], stdout=out,
                                stderr=subprocess.STDOUT, env=env, start_new_session=True)
    deadline = time.monotonic() + timeout
    while True:
        assert proc.poll() is None, f"the OpenClaw gateway exited: {log.read_text(errors='replace')[-3000:]}"
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return proc
        except OSError:
            assert time.monotonic() < deadline, \
                f"the OpenClaw gateway did not open its port in {timeout:.0f} s: {log.read_text(errors='replace')[-3000:]}"
            time.sleep(0.5)


SESSION = "E2E"  # the --session-id of the end-to-end tests' turns
BLOCK = "[context-compactor: ledger of"  # how our compacted block starts in a prompt
CONFIG = """// an OpenClaw config as a user might have it: JSON5, with comments
{
  gateway: { mode: "local", port: %(gw)d, bind: "loopback", auth: { mode: "token", token: "%(token)s" } },
  models: {
    providers: {
      fake: {
        baseUrl: "http://127.0.0.1:%(model)d/v1", apiKey: "x", api: "openai-completions",
        models: [{ id: "fake-model", name: "Fake", contextWindow: 131072, maxTokens: 4096, input: ["text"],
                   reasoning: false, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } }],
      },
    },
  },
  // our model; no heartbeat, whose runs on the main session would land among a test's requests
  agents: { defaults: { model: { primary: "fake/fake-model" }, heartbeat: { every: "0m" } } },
}
"""


def stop(proc: subprocess.Popen[Any], grace: float = 30.0) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(grace)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    try:  # a zombie is gone for our purposes
        return "zombie" not in Path(f"/proc/{pid}/status").read_text().lower()
    except OSError:
        return True


class Gateway:
    """The isolated OpenClaw world of one test: env, ports, logs and the processes it started."""

    def __init__(self, root: Path, path: str) -> None:
        self.root, self.state = root, root / "state"
        self.gw_port, self.token = free_port(), "e2e-token"
        self.env = isolated_env(root, path, self.token)
        self.env.pop("CONTEXT_COMPACTOR_PYTHON", None)
        self.procs: list[subprocess.Popen[Any]] = []

    def write_config(self, model_port: int) -> Path:
        """OpenClaw's config (:data:`CONFIG`) with its model on ``model_port``; returns its path."""
        config = self.state / "openclaw.json"
        config.write_text(CONFIG % {"gw": self.gw_port, "token": self.token, "model": model_port})
        return config

    def start_gateway(self) -> subprocess.Popen[Any]:
        proc = start_gateway(self.gw_port, self.env, self.root / "gateway.log")
        self.procs.append(proc)
        return proc

    def log(self) -> str:
        return (self.root / "gateway.log").read_text(errors="replace")

    def run(self, *args: str, timeout: float = 180) -> subprocess.CompletedProcess[str]:
        return subprocess.run(list(args), capture_output=True, text=True, env=self.env, timeout=timeout)

    def agent(self, message: str, timeout: float = 240) -> subprocess.CompletedProcess[str]:
        """One turn of session :data:`SESSION`: ``openclaw agent --message``."""
        return self.run("openclaw", "agent", "--session-id", SESSION, "--message", message, timeout=timeout)

    def call(self, method: str, params: dict[str, Any]) -> Any:
        done = self.run("openclaw", "gateway", "call", method, "--params", json.dumps(params), "--json")
        assert done.returncode == 0, f"{method}: {done.stderr[-2000:]}"
        return json.loads(done.stdout[done.stdout.index("{"):])

    def cc(self, *args: str) -> subprocess.CompletedProcess[str]:
        return self.run(sys.executable, "-m", "context_compactor.setup_cli.main", *args, "--home", str(self.state))

    def close(self) -> None:
        bridges = [int(p) for p in re.findall(r"started the Python bridge: .*?\(pid (\d+)\)", self.log())] \
            if (self.root / "gateway.log").exists() else []
        for proc in reversed(self.procs):
            stop(proc)
        for pid in bridges:  # the bridge ends when the gateway closes its stdin; make sure, by PID
            deadline = time.monotonic() + 10
            while pid_alive(pid) and time.monotonic() < deadline:
                time.sleep(0.2)
            if pid_alive(pid):
                os.kill(pid, signal.SIGKILL)
