"""Finding the real OpenClaw for the tests: the PATH that ``../shared/tools/openclaw-env.sh`` prints."""

from __future__ import annotations

import functools
import os
import re
import subprocess
from pathlib import Path

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
