"""index.js under Node with a fake OpenClaw ``api``: the bridge really compacts, and fails open."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from conftest import ROOT, need
from ocfakes.openclaw import openclaw_path

DRIVER = ROOT / "tests" / "ocfakes" / "drive_plugin.mjs"
INDEX = ROOT / "extension" / "openclaw" / "index.js"


def drive(tmp_path: Path, python: str, config: dict[str, Any]) -> dict[str, Any]:
    node = shutil.which("node", path=openclaw_path() or "") or shutil.which("node")  # OpenClaw's Node 24 first
    need(node is not None, "Node.js")
    env = {**os.environ, "CONTEXT_COMPACTOR_PYTHON": python, "CC_CONFIG": json.dumps(config),
           "OPENCLAW_STATE_DIR": str(tmp_path)}
    done = subprocess.run([str(node), str(DRIVER), str(INDEX)], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def test_plugin_compacts_through_the_python_child(tmp_path: Path) -> None:
    """assemble returns the summary plus the host's own objects; commitTurn is idempotent."""
    out = drive(tmp_path, sys.executable, {"maxTokens": 3000, "keepRecentTokens": 1000})
    assert out["ids"] == ["context-compactor", "context-compactor"]
    assert out["commands"] == ["compact-now", "context-stats"]
    assert out["info"]["ownsCompaction"] is False and out["info"]["transcriptSemantics"]["currentTurnFence"]
    for result in out["results"]:
        assert not result["same"] and result["kept"] >= 1 and result["count"] < 24
        assert result["first"].startswith("[context-compactor: summary of")
    assert out["commit"] == {"status": "committed"} and out["dup"] == {"status": "duplicate"}
    assert out["stats"].startswith("context-compactor stats")
    assert sum("started the Python bridge" in m for _, m in out["logs"]) == 1  # one child for all engines


def test_plugin_fails_open_when_the_child_dies(tmp_path: Path) -> None:
    """A child that dies is restarted once; then every turn passes the history unchanged, with a warning."""
    out = drive(tmp_path, "/bin/false", {})
    assert all(r["same"] for r in out["results"])
    starts = [m for _, m in out["logs"] if "started the Python bridge" in m]
    assert len(starts) == 2
    warnings = [m for level, m in out["logs"] if level == "warn"]
    assert any("stopped twice" in m and "history is sent unchanged" in m for m in warnings)
    assert out["commit"] == {"status": "committed"}
    assert "not working" in out["stats"]
