"""``context-compactor doctor --host gptme`` where gptme is not installed: one line that says so, exit 1."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.mark.skipif(importlib.util.find_spec("gptme") is not None,
                    reason="gptme is installed here (its own environment runs tests/test_host_gptme_doctor.py)")
def test_doctor_for_gptme_without_gptme_says_so_in_one_line(tmp_path: Path) -> None:
    """Without gptme the command names what is missing and where to run it, on one stderr line, and fails."""
    done = subprocess.run([sys.executable, "-m", "context_compactor.setup_cli.main", "doctor", "--host", "gptme"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.splitlines() == [done.stderr.strip()]
    assert done.stderr.startswith("context-compactor: doctor --host gptme: gptme is not installed")
