"""The OpenClaw plugin (index.js) run under Node with a fake OpenClaw ``api``, by a driver script of
tests/ocfakes/ that prints what the plugin did as its last JSON line."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

from conftest import ROOT, need
from ocfakes.openclaw import openclaw_path

INDEX = ROOT / "extension" / "openclaw" / "index.js"


def drive(driver: str, tmp_path: Path, python: str, config: dict[str, Any]) -> dict[str, Any]:
    """Run ``tests/ocfakes/<driver>`` on the plugin, whose bridge child is ``python``, with ``config``."""
    node = shutil.which("node", path=openclaw_path() or "") or shutil.which("node")  # OpenClaw's Node 24 first
    need(node is not None, "Node.js")
    env = {**os.environ, "CONTEXT_COMPACTOR_PYTHON": python, "CC_CONFIG": json.dumps(config),
           "OPENCLAW_STATE_DIR": str(tmp_path)}
    done = subprocess.run([str(node), str(ROOT / "tests" / "ocfakes" / driver), str(INDEX)], capture_output=True,
                          text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))
