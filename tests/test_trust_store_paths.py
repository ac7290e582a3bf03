"""Issue 21, defect 5, and issue 24: the store goes where it is told, and only there.

``storePath`` from ``--config`` or ``$CONTEXT_COMPACTOR_STORE_PATH`` is honoured by ``compact``, ``serve`` and
``archive``; without it (or ``--store``) ``compact`` and ``stats`` keep their store in memory and write nothing.
Every test runs the CLI as a subprocess, with HOME and OPENCLAW_STATE_DIR inside ``tmp_path``.
"""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import ROOT, need

from context_compactor.store import Store

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
    assert re.match(r"context-compactor: compacted: 46,559 -> [\d,]+ tokens, 239 -> \d+ messages \(window 8,192",
                    done.stderr), done.stderr  # the figures move with the ledger; the verdict's shape does not
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


def foreign_database(path: Path) -> None:
    """Another program's SQLite file: its own table, a rollback journal, mode 0644."""
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
    db.execute("INSERT INTO notes(body) VALUES ('keep me')")
    db.commit()
    db.close()
    path.chmod(0o644)


def database_facts(path: Path) -> tuple[list[str], str, int, int]:
    """Its tables, journal mode, user_version and file mode."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        tables = sorted(r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'"))
        journal = db.execute("PRAGMA journal_mode").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
    finally:
        db.close()
    return tables, journal, version, path.stat().st_mode & 0o777


def test_a_store_symlink_to_a_text_file_is_refused_and_the_file_left_alone(tmp_path: Path) -> None:
    """A store path that links to a text file is refused, saying why; the file keeps its text and its 0644 mode,
    and nothing is set aside as damaged."""
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    notes.chmod(0o644)
    link = tmp_path / "store.sqlite"
    link.symlink_to(notes)
    done = cli(tmp_path, "compact", SESSION, "--context-window", "8192", "--store", link)
    assert done.returncode == 1 and "is a symlink to" in done.stderr and "not a context-compactor store" in done.stderr
    assert notes.read_text() == "my notes\n" and notes.stat().st_mode & 0o777 == 0o644
    assert sorted(p.name for p in tmp_path.iterdir()) == ["home", "notes.txt", "store.sqlite"]


def test_a_store_symlink_to_another_programs_database_is_refused_and_it_is_unchanged(tmp_path: Path) -> None:
    """Through a symlink, another program's SQLite file gets none of our tables, keeps its journal mode,
    user_version and mode."""
    other = tmp_path / "app.db"
    foreign_database(other)
    before = database_facts(other)
    link = tmp_path / "store.sqlite"
    link.symlink_to(other)
    done = cli(tmp_path, "compact", SESSION, "--context-window", "8192", "--store", link)
    assert done.returncode == 1 and "not a context-compactor store" in done.stderr, done.stderr
    assert database_facts(other) == before == (["notes"], "delete", 0, 0o644)


def test_another_programs_database_as_the_store_path_is_refused_and_unchanged(tmp_path: Path) -> None:
    """storePath naming another program's SQLite file (no link) is refused the same way: nothing in it changes."""
    other = tmp_path / "app.db"
    foreign_database(other)
    done = cli(tmp_path, "compact", SESSION, "--context-window", "8192", CONTEXT_COMPACTOR_STORE_PATH=str(other))
    assert done.returncode == 1 and "another program's SQLite database" in done.stderr, done.stderr
    assert database_facts(other) == (["notes"], "delete", 0, 0o644)


def test_a_store_symlink_to_our_own_store_is_followed(tmp_path: Path) -> None:
    """A link to a store of ours (moved to another disk, say) works: the archive grows there."""
    real = tmp_path / "real.sqlite"
    assert cli(tmp_path, "compact", SESSION, "--context-window", "8192", "--store", real).returncode == 0
    link = tmp_path / "store.sqlite"
    link.symlink_to(real)
    other = tmp_path / "other.json"
    messages = json.loads(SESSION.read_text())["messages"]
    other.write_text(json.dumps([{"role": "user", "content": "another start"}, *messages[1:]]))
    done = cli(tmp_path, "compact", other, "--context-window", "8192", "--store", link)
    assert done.returncode == 0, done.stderr
    assert link.is_symlink() and archived_sessions(real) == 2


AS_NOBODY = r"""
import os, sys, tempfile
from context_compactor.setup_cli.main import build_parser, main
from context_compactor.store import Store
# Load all the command loads while we may still read our own files (Python's own may sit under /root).
import context_compactor.hooks.recall  # noqa: F401 - archive search within a session
build_parser()
with tempfile.TemporaryDirectory() as warm:
    Store.open(os.path.join(warm, "store.sqlite")).close()
    Store.open_read_only(os.path.join(warm, "store.sqlite")).close()
if os.geteuid() == 0:
    os.setgroups([])
    os.setgid(65534)
    os.setuid(65534)
sys.exit(main(sys.argv[1:]))
"""


@pytest.fixture
def shared_root() -> Iterator[Path]:
    """A folder outside pytest's 0700 tmp root (an unprivileged user must reach it); removed after."""
    import shutil
    import tempfile

    root = Path(tempfile.mkdtemp(prefix="cc-ro-"))
    os.chmod(root, 0o755)
    yield root
    shutil.rmtree(root)


def read_as_nobody(root: Path, store: Path, *args: str) -> subprocess.CompletedProcess[str]:
    need(os.geteuid() == 0, "root (to read the store as another user)")
    return subprocess.run([sys.executable, "-c", AS_NOBODY, "archive", *args, "--store", str(store)],
                          capture_output=True, text=True, env=env_for(root), timeout=120)


def a_store_in(root: Path) -> Path:
    """A store with one archived session (WAL mode; closed, so without -wal and -shm), readable by all."""
    folder = root / "store-folder"
    folder.mkdir()
    store = folder / "store.sqlite"
    done = cli(root, "compact", SESSION, "--context-window", "8192", "--store", store)
    assert done.returncode == 0, done.stderr
    store.chmod(0o444)
    assert store.read_bytes()[18:20] == b"\x02\x02"  # WAL, as the store always is
    return store


@pytest.mark.parametrize("verb", [["sessions", "--json"], ["show", "1"], ["search", "handler"]])
def test_a_read_only_copy_without_its_shm_file_is_readable(shared_root: Path, verb: list[str]) -> None:
    """``archive sessions|show|search`` read a 0444 copy of a store in a folder the reader may not write (so no
    -shm file can be made), and leave the copy and the folder as they were."""
    store = a_store_in(shared_root)
    before = store.read_bytes()
    done = read_as_nobody(shared_root, store, *verb)
    assert done.returncode == 0, done.stderr
    assert "read-only" not in done.stderr and done.stdout.strip()
    assert store.read_bytes() == before and sorted(p.name for p in store.parent.iterdir()) == ["store.sqlite"]


def test_a_store_in_use_is_readable_without_write_access_to_its_folder(shared_root: Path) -> None:
    """While another process has the store open (its -wal and -shm exist), a user who may not write the
    folder, the store or its -shm lists its sessions."""
    store = a_store_in(shared_root)
    holder = Store.open(store)  # makes our own files 0600: opened up below, for the other user
    try:
        holder.archive("live", [("d-live", "user", {"role": "user", "content": "written while open"}, 0)])
        for suffix in ("", "-wal", "-shm"):
            Path(f"{store}{suffix}").chmod(0o644)
        done = read_as_nobody(shared_root, store, "sessions", "--json")
    finally:
        holder.close()
    assert done.returncode == 0, done.stderr
    assert {s["session"] for s in json.loads(done.stdout)["sessions"]} >= {"live"}
