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


@functools.lru_cache(maxsize=1)
def openclaw_path() -> str | None:
    """PATH with ``openclaw`` on it, from the install script's ``export`` lines; None when not available.

    The script installs OpenClaw and Node into ~/.cache/openclaw-e2e on first use (about a minute).
    """
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
