"""The real OpenClaw for the tests: finding it (the PATH that ``../shared/tools/openclaw-env.sh`` prints),
an environment that isolates it under a folder, and starting its gateway."""

from __future__ import annotations

import functools
import os
import re
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
# The shared install script beside the project, else the copy the project ships for CI.
ENV_SCRIPT = Path(os.environ.get("OPENCLAW_ENV_SCRIPT") or next(
    (p for p in (ROOT.parent / "shared" / "tools" / "openclaw-env.sh", ROOT / ".ci" / "openclaw-env.sh") if p.is_file()),
    ROOT / ".ci" / "openclaw-env.sh"))


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
