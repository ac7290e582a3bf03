"""Issue 21, defect 5, and issue 24: the store goes where it is told, and only there.

``storePath`` from ``--config`` or ``$CONTEXT_COMPACTOR_STORE_PATH`` is honoured by ``compact``, ``serve`` and
``archive``; without it (or ``--store``) ``compact`` and ``stats`` keep their store in memory and write nothing.
Every test runs the CLI as a subprocess, with HOME and OPENCLAW_STATE_DIR inside ``tmp_path``.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

SESSION = ROOT / "examples" / "agent-session.json"


def env_for(root: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.upper().startswith("CONTEXT_COMPACTOR_")}
    (root / "home").mkdir(exist_ok=True)
    env.update(HOME=str(root / "home"), OPENCLAW_STATE_DIR=str(root / "state"), PYTHONWARNINGS="ignore", **extra)
    return env


def cli(root: Path, *args: object, **extra: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "context_compactor.setup_cli.main", *map(str, args)]
    return subprocess.run(command, capture_output=True, text=True, env=env_for(root, **extra), cwd=root, timeout=300)


def archived_sessions(path: Path) -> int:
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return int(db.execute("SELECT COUNT(DISTINCT session_key) FROM archive").fetchone()[0])
    finally:
        db.close()


def nothing_written_by_default(root: Path) -> bool:
    return not (root / "state").exists() and list((root / "home").iterdir()) == []


def test_compact_archives_to_the_store_path_of_its_config(tmp_path: Path) -> None:
    """``compact --config`` with a storePath archives there, and nowhere else."""
    store = tmp_path / "chosen" / "store.sqlite"
    config = tmp_path / "cfg.json"
    config.write_text(json.dumps({"storePath": str(store)}))
    done = cli(tmp_path, "compact", SESSION, "--context-window", "8192", "--config", config)
    assert done.returncode == 0 and "compacted:" in done.stderr, done.stderr
    assert archived_sessions(store) == 1
    assert nothing_written_by_default(tmp_path)


def test_compact_archives_to_the_store_path_of_the_environment(tmp_path: Path) -> None:
    """``$CONTEXT_COMPACTOR_STORE_PATH`` is honoured by ``compact``; ``archive sessions`` reads the same store."""
    store = tmp_path / "env-store.sqlite"
    done = cli(tmp_path, "compact", SESSION, "--context-window", "8192", CONTEXT_COMPACTOR_STORE_PATH=str(store))
    assert done.returncode == 0, done.stderr
    assert archived_sessions(store) == 1
    listed = cli(tmp_path, "archive", "sessions", "--json", CONTEXT_COMPACTOR_STORE_PATH=str(store))
    assert listed.returncode == 0, listed.stderr
    assert len(json.loads(listed.stdout)["sessions"]) == 1
    assert nothing_written_by_default(tmp_path)


def test_store_flag_beats_the_configured_store_path(tmp_path: Path) -> None:
    """``--store`` wins over storePath from the environment."""
    flag, env = tmp_path / "flag.sqlite", tmp_path / "env.sqlite"
    done = cli(tmp_path, "compact", SESSION, "--context-window", "8192", "--store", flag,
               CONTEXT_COMPACTOR_STORE_PATH=str(env))
    assert done.returncode == 0, done.stderr
    assert archived_sessions(flag) == 1 and not env.exists()


def test_the_quick_start_writes_only_its_output_and_prints_its_verdict(tmp_path: Path) -> None:
    """The README's quick start, ``compact ... --context-window 8192 > compacted.json``, prints its verdict and
    writes nothing but its output (issue 24)."""
    done = cli(tmp_path, "compact", SESSION, "--context-window", "8192")
    assert done.returncode == 0
    assert done.stderr.startswith("context-compactor: compacted: 46,559 -> 3,566 tokens, 239 -> 27 messages")
    assert isinstance(json.loads(done.stdout), list)
    assert nothing_written_by_default(tmp_path)


def test_stats_writes_nothing_even_with_a_configured_store_path(tmp_path: Path) -> None:
    """``stats`` writes nothing, as the README says: not to the default place, nor to a configured storePath."""
    store = tmp_path / "env-store.sqlite"
    done = cli(tmp_path, "stats", SESSION, "--context-window", "8192", CONTEXT_COMPACTOR_STORE_PATH=str(store))
    assert done.returncode == 0, done.stderr
    assert not store.exists() and nothing_written_by_default(tmp_path)


@pytest.mark.parametrize("source", ["config", "environment"])
def test_serve_opens_the_configured_store_path(tmp_path: Path, source: str) -> None:
    """``serve`` opens its store at storePath from ``--config`` or ``$CONTEXT_COMPACTOR_STORE_PATH``."""
    store = tmp_path / "served" / "store.sqlite"
    config = tmp_path / "cfg.json"
    config.write_text(json.dumps({"storePath": str(store)} if source == "config" else {}))
    extra = {"CONTEXT_COMPACTOR_STORE_PATH": str(store)} if source == "environment" else {}
    command = [sys.executable, "-m", "context_compactor.setup_cli.main", "serve", "--upstream",
               "http://127.0.0.1:9/v1", "--port", "0", "--config", str(config), "-q"]
    proc = subprocess.Popen(command, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
                            env=env_for(tmp_path, **extra), cwd=tmp_path)
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()
        while line and "serving http://" not in line:
            line = proc.stderr.readline()
        assert "serving http://" in line
        assert store.is_file()
        assert not (tmp_path / "state").exists()
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(60)
