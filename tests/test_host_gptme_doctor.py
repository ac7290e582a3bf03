"""``context-compactor doctor --host gptme``, run as a user runs it in gptme's environment, against a
real gptme.toml: our trigger below gptme's compaction budget is ok, one not below it is a warning that
names both figures, the file and the setting, and a config gptme cannot read is one FAIL line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

if os.environ.get("CONTEXT_COMPACTOR_REQUIRE_HOSTS", "").find("gptme") < 0:
    pytest.importorskip("gptme", reason="gptme is tested in its own environment (pip install -e '.[test,gptme]')")

# What gptme reads beside its config files: none of the machine's may leak into these runs.
GPTME_ENV = ("MODEL", "GPTME_MODEL", "GPTME_CONTEXT_BUDGET", "GPTME_CONTEXT_LENGTH", "OPENAI_BASE_URL")
OPTIONS = '[env]\nMODEL = "local/fake"\n\n[plugin.context-compactor]\nenabled = true\ncontext_window = 8192\n'


def doctor(tmp_path: Path, gptme_toml: str) -> subprocess.CompletedProcess[str]:
    """The real CLI on a workspace holding ``gptme_toml``, with a home of its own (no user config)."""
    workspace, home = tmp_path / "project", tmp_path / "home"
    workspace.mkdir()
    home.mkdir()
    (workspace / "gptme.toml").write_text(gptme_toml, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in GPTME_ENV and not k.startswith("XDG_")}
    env |= {"HOME": str(home), "GPTME_TIKTOKEN_TIMEOUT": "0", "GPTME_NO_LOCAL_DISCOVERY": "1"}
    return subprocess.run([sys.executable, "-m", "context_compactor.setup_cli.main", "doctor", "--host", "gptme",
                           "--workspace", str(workspace)], capture_output=True, text=True, env=env, timeout=120)


def test_trigger_below_gptmes_budget_is_ok(tmp_path: Path) -> None:
    """Our trigger (0.75 x 8,192 = 6,144) below gptme's budget (7,000) is an ok line, exit 0."""
    done = doctor(tmp_path, OPTIONS + "\n[context]\nbudget = 7000\n")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ok    our trigger, 6,144 tokens, is below gptme's compaction budget, 7,000" in done.stdout
    assert "warn" not in done.stdout and "FAIL" not in done.stdout


def test_trigger_not_below_gptmes_budget_warns(tmp_path: Path) -> None:
    """A budget of 4,000 under our 6,144 is a warning naming both figures, the file and max_tokens; exit 0."""
    done = doctor(tmp_path, OPTIONS + "\n[context]\nbudget = 4000\n")
    assert done.returncode == 0, done.stdout + done.stderr
    [warning] = [line for line in done.stdout.splitlines() if line.startswith("warn")]
    assert "6,144" in warning and "4,000" in warning and "max_tokens" in warning
    assert str(tmp_path / "project" / "gptme.toml") in warning


def test_unreadable_gptme_toml_is_one_fail_line(tmp_path: Path) -> None:
    """A gptme.toml that is not TOML is a FAIL line naming it, exit 1, no traceback."""
    done = doctor(tmp_path, "[plugin.context-compactor\nenabled = true\n")
    assert done.returncode == 1
    [failure] = [line for line in done.stdout.splitlines() if line.startswith("FAIL")]
    assert str(tmp_path / "project" / "gptme.toml") in failure and "cannot be read" in failure
    assert "Traceback" not in done.stderr


def test_plugin_not_enabled_fails(tmp_path: Path) -> None:
    """Without ``enabled = true`` gptme runs without us: a FAIL line that says what to add, exit 1."""
    done = doctor(tmp_path, OPTIONS.replace("enabled = true", "enabled = false"))
    assert done.returncode == 1
    assert "has no `enabled = true`" in done.stdout
