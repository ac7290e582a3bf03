"""The SQLite store: summaries with LRU eviction, sessions, calibration, the archive, recovery, sharing."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from structlog.testing import capture_logs

from context_compactor.errors import StoreError
from context_compactor.store import Store, default_store_path


@pytest.fixture
def store_path(tmp_path: Path) -> Path:
    return tmp_path / "home" / "context-compactor" / "store.sqlite"


@pytest.fixture
def store(store_path: Path) -> Iterator[Store]:
    opened = Store.open(store_path)
    yield opened
    opened.close()


@pytest.fixture
def small(tmp_path: Path) -> Iterator[Store]:
    """A store whose summary cache holds at most three entries."""
    opened = Store.open(tmp_path / "small.sqlite", max_entries=3)
    yield opened
    opened.close()


def keys_of(path: Path) -> set[str]:
    with sqlite3.connect(path) as db:
        return {row[0] for row in db.execute("SELECT key FROM summaries")}


# --- basics ----------------------------------------------------------------------------------------


def test_open_creates_the_folder_and_file(store: Store, store_path: Path) -> None:
    """Opening a store in a folder that does not exist yet creates both."""
    assert store_path.is_file()


def test_store_runs_in_wal_mode(store: Store, store_path: Path) -> None:
    """The file is in WAL journal mode (seen from a separate connection), so readers never block writers."""
    with sqlite3.connect(store_path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_memory_store_works() -> None:
    """':memory:' gives a working store that keeps nothing on disk."""
    memory = Store.open(":memory:")
    memory.put("k", "v", "extractive")
    assert memory.get("k") == "v"
    memory.close()


def test_summary_round_trips(store: Store) -> None:
    """A summary put under a key is read back exactly, including non-ASCII text."""
    store.put("chunk:abc", "fixed db.py — port 8787 ✓", "extractive")
    assert store.get("chunk:abc") == "fixed db.py — port 8787 ✓"


def test_missing_summary_is_none(store: Store) -> None:
    """An unknown key reads as None."""
    assert store.get("nope") is None


def test_put_replaces_an_existing_summary(store: Store) -> None:
    """A second put under the same key replaces the text and keeps one row."""
    store.put("k", "old", "extractive")
    store.put("k", "new", "llm")
    assert store.get("k") == "new"
    assert store.summary_count() == 1


def test_summaries_survive_reopening(store_path: Path) -> None:
    """What one Store wrote is there for the next one opened on the same file."""
    first = Store.open(store_path)
    first.put("k", "kept", "extractive")
    first.close()
    second = Store.open(store_path)
    assert second.get("k") == "kept"
    second.close()


# --- eviction --------------------------------------------------------------------------------------


def test_cache_never_holds_more_than_max_entries(small: Store, tmp_path: Path) -> None:
    """After any number of puts the cache holds at most max_entries summaries."""
    for i in range(20):
        small.put(f"k{i}", "text", "extractive")
        assert small.summary_count() <= 3
    assert small.summary_count() == 3


def test_eviction_drops_the_oldest_first(small: Store, tmp_path: Path) -> None:
    """With no reads in between, the earliest puts are the ones evicted."""
    for i in range(5):
        small.put(f"k{i}", "text", "extractive")
    assert keys_of(tmp_path / "small.sqlite") == {"k2", "k3", "k4"}


def test_eviction_drops_least_recently_used_first(small: Store, tmp_path: Path) -> None:
    """A summary read recently survives an eviction that removes an older-used one."""
    small.put("a", "A", "extractive")
    small.put("b", "B", "extractive")
    small.put("c", "C", "extractive")
    assert small.get("a") == "A"  # now "b" is the least recently used
    small.put("d", "D", "extractive")
    assert keys_of(tmp_path / "small.sqlite") == {"a", "c", "d"}
    assert small.get("b") is None


def test_evict_reports_how_many_went(tmp_path: Path) -> None:
    """evict() on an over-full store drops the surplus and returns its size; on a full one, 0."""
    path = tmp_path / "s.sqlite"
    big = Store.open(path, max_entries=10)
    for i in range(6):
        big.put(f"k{i}", "t", "x")
    big.close()
    shrunk = Store.open(path, max_entries=4)
    assert shrunk.evict() == 2
    assert shrunk.evict() == 0
    assert keys_of(path) == {"k2", "k3", "k4", "k5"}
    shrunk.close()


# --- sessions and calibration ----------------------------------------------------------------------


def test_session_state_round_trips(store: Store) -> None:
    """A session's state is saved as JSON and read back equal."""
    state = {"anchor": {"lead": 1, "cut": 9}, "compactions": 2, "last_compaction": {"at": "now", "folded": 8}}
    store.save_session("s1", state)
    assert store.session("s1") == state


def test_unknown_session_is_empty(store: Store) -> None:
    """A session never saved reads as an empty dict."""
    assert store.session("never") == {}


def test_saving_a_session_replaces_its_state(store: Store) -> None:
    """A later save replaces the state, it does not merge."""
    store.save_session("s1", {"a": 1})
    store.save_session("s1", {"b": 2})
    assert store.session("s1") == {"b": 2}


def test_unreadable_session_state_reads_as_empty_with_a_warning(store: Store, store_path: Path) -> None:
    """A session row that is not a JSON object is ignored with a warning, not an exception."""
    with sqlite3.connect(store_path) as db:
        db.execute("INSERT INTO sessions VALUES ('bad', '{not json', 0)")
        db.execute("INSERT INTO sessions VALUES ('list', '[1, 2]', 0)")
    with capture_logs() as logs:
        assert store.session("bad") == {}
    assert store.session("list") == {}
    assert [entry["event"] for entry in logs] == ["store.session_unreadable"]


def test_calibration_round_trips(store: Store) -> None:
    """A model's learned ratio and sample count are read back; an unknown model reads as None."""
    assert store.calibration("ollama/qwen") is None
    store.save_calibration("ollama/qwen", 3.25, 4)
    store.save_calibration("ollama/qwen", 3.5, 5)
    assert store.calibration("ollama/qwen") == (3.5, 5)


# --- archive ---------------------------------------------------------------------------------------


def test_archive_round_trips_messages_in_order(store: Store) -> None:
    """Archived messages come back oldest first with digest, role and the message itself."""
    items = [("d1", "user", {"role": "user", "content": "héllo"}),
             ("d2", "assistant", {"role": "assistant", "content": None, "tool_calls": []})]
    assert store.archive("s1", items) == 2
    assert store.archived("s1") == [{"digest": d, "role": r, "message": m} for d, r, m in items]


def test_archive_ignores_a_message_already_archived_for_the_session(store: Store) -> None:
    """The same (session, digest) is stored once; the first copy is kept."""
    store.archive("s1", [("d1", "user", {"content": "first"})])
    assert store.archive("s1", [("d1", "user", {"content": "second"}), ("d2", "user", {"content": "x"})]) == 1
    assert [row["message"]["content"] for row in store.archived("s1")] == ["first", "x"]


def test_archive_keeps_sessions_apart(store: Store) -> None:
    """The same digest in two sessions is two rows; each session sees only its own."""
    store.archive("s1", [("d1", "user", {"n": 1})])
    store.archive("s2", [("d1", "user", {"n": 2})])
    assert [row["message"] for row in store.archived("s1")] == [{"n": 1}]
    assert [row["message"] for row in store.archived("s2")] == [{"n": 2}]


def test_archive_of_nothing_writes_nothing(store: Store) -> None:
    """An empty batch returns 0 and leaves the archive as it was."""
    assert store.archive("s1", []) == 0
    assert store.archived("s1") == []


def test_archived_filters_by_digest_prefix(store: Store) -> None:
    """A digest prefix selects the rows whose digest starts with exactly it."""
    store.archive("s1", [("abc1", "user", {}), ("abd2", "user", {}), ("xbc3", "user", {})])
    assert [row["digest"] for row in store.archived("s1", "abc")] == ["abc1"]
    assert [row["digest"] for row in store.archived("s1", "ab")] == ["abc1", "abd2"]


@pytest.mark.parametrize("prefix", ["%bc", "a_c", "_", "%", "ABC"])
def test_archived_prefix_has_no_wildcards(store: Store, prefix: str) -> None:
    """'%' and '_' in a digest prefix are literal characters, and case counts."""
    store.archive("s1", [("abc1", "user", {}), ("xbc3", "user", {})])
    assert store.archived("s1", prefix) == []


def test_archive_is_append_only(store: Store, store_path: Path) -> None:
    """Archiving never changes or removes an existing row: ids and contents of earlier rows stay."""
    store.archive("s1", [("d1", "user", {"v": 1}), ("d2", "user", {"v": 2})])
    with sqlite3.connect(store_path) as db:
        before = db.execute("SELECT id, digest, message, archived_at FROM archive ORDER BY id").fetchall()
    store.archive("s1", [("d2", "user", {"v": "changed"}), ("d3", "user", {"v": 3})])
    with sqlite3.connect(store_path) as db:
        after = db.execute("SELECT id, digest, message, archived_at FROM archive ORDER BY id").fetchall()
    assert after[:2] == before
    assert [row[1] for row in after] == ["d1", "d2", "d3"]


# --- damage and recovery ---------------------------------------------------------------------------


def test_garbage_file_is_set_aside_and_rebuilt(store_path: Path) -> None:
    """A file that is not a database is moved to *.corrupt-*, with a warning, and a working store is built."""
    store_path.parent.mkdir(parents=True)
    garbage = os.urandom(64) + b"this is not an sqlite database" * 200
    store_path.write_bytes(garbage)
    with capture_logs() as logs:
        rebuilt = Store.open(store_path)
    warnings = [entry for entry in logs if entry["event"] == "store.rebuilt"]
    assert len(warnings) == 1
    assert warnings[0]["log_level"] == "warning"
    aside = list(store_path.parent.glob("store.sqlite.corrupt-*"))
    assert [p.name for p in aside] == [Path(warnings[0]["moved_to"]).name]
    assert aside[0].read_bytes() == garbage
    rebuilt.put("k", "v", "x")
    assert rebuilt.get("k") == "v"
    rebuilt.close()


def test_damaged_database_is_set_aside_and_rebuilt(store_path: Path) -> None:
    """A real database whose pages were overwritten fails its check and is set aside too."""
    made = Store.open(store_path)
    for i in range(300):
        made.put(f"key-{i}", "summary text " * 20, "x")
    made.close()
    with sqlite3.connect(store_path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(store_path.read_bytes())
    data[4096 * 2:4096 * 4] = b"\xff" * (4096 * 2)  # clobber pages past the header
    store_path.write_bytes(bytes(data))
    with capture_logs() as logs:
        rebuilt = Store.open(store_path)
    assert [entry["event"] for entry in logs] == ["store.rebuilt"]
    assert rebuilt.summary_count() == 0
    rebuilt.close()


def test_second_rebuild_in_the_same_second_keeps_both_copies(store_path: Path) -> None:
    """Two damaged files set aside in quick succession do not overwrite each other."""
    store_path.parent.mkdir(parents=True)
    for n in range(2):
        store_path.write_bytes(b"garbage %d" % n * 100)
        with capture_logs():
            Store.open(store_path).close()
        for suffix in ("-wal", "-shm"):
            Path(f"{store_path}{suffix}").unlink(missing_ok=True)
        store_path.unlink()
    aside = [p for p in store_path.parent.glob("store.sqlite.corrupt-*") if not p.name.endswith(("-wal", "-shm"))]
    kept = sorted(p.read_bytes()[:9] for p in aside)
    assert kept == [b"garbage 0", b"garbage 1"]


def test_folder_in_place_of_the_store_is_an_error_and_left_alone(tmp_path: Path) -> None:
    """A folder at the store path raises StoreError naming it, and is neither moved nor changed."""
    folder = tmp_path / "store.sqlite"
    folder.mkdir()
    (folder / "keep.txt").write_text("mine")
    with pytest.raises(StoreError) as raised:
        Store.open(folder)
    assert raised.value.path == str(folder)
    assert (folder / "keep.txt").read_text() == "mine"
    assert list(tmp_path.iterdir()) == [folder]


def test_store_under_a_file_is_an_error(tmp_path: Path) -> None:
    """A store path whose folder is a file raises StoreError, not OSError."""
    (tmp_path / "blocker").write_text("x")
    with pytest.raises(StoreError):
        Store.open(tmp_path / "blocker" / "store.sqlite")


def test_default_store_path_follows_openclaw_state_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The default store lives under $OPENCLAW_STATE_DIR/context-compactor/."""
    monkeypatch.setenv("OPENCLAW_STATE_DIR", str(tmp_path))
    assert default_store_path() == tmp_path / "context-compactor" / "store.sqlite"


def test_default_store_path_falls_back_to_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without OPENCLAW_STATE_DIR the store lives under ~/.openclaw/context-compactor/."""
    monkeypatch.delenv("OPENCLAW_STATE_DIR", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_store_path() == tmp_path / ".openclaw" / "context-compactor" / "store.sqlite"


# --- several processes -----------------------------------------------------------------------------

WORKER = r"""
import json, os, sys, time
from context_compactor.store import Store

path, worker, rounds, go = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
deadline = time.time() + 60
while not os.path.exists(go):  # start together, so the writes really overlap
    if time.time() > deadline:
        sys.exit("no go signal")
    time.sleep(0.002)
store = Store.open(path, max_entries=100000)
for i in range(rounds):
    store.put(f"w{worker}-{i}", f"summary {worker}/{i} " * 10, "extractive")
    store.archive(f"session-{worker % 2}", [(f"d{worker}-{i}", "user", {"worker": worker, "i": i})])
    store.save_calibration(f"model-{worker}", 2.0 + i / 100, i + 1)
    store.save_calibration("shared", 3.0 + worker, i + 1)
    store.save_session(f"s{worker}", {"done": i + 1})
    assert store.get(f"w{worker}-{i}") is not None
store.close()
print(json.dumps({"worker": worker, "ok": True}))
"""


def test_store_shared_by_processes_stays_consistent(tmp_path: Path) -> None:
    """Four processes writing the same new file at once lose no row and leave a sound database."""
    path, go = tmp_path / "shared" / "store.sqlite", tmp_path / "go"
    workers, rounds = 4, 40
    procs = [subprocess.Popen([sys.executable, "-c", WORKER, str(path), str(w), str(rounds), str(go)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for w in range(workers)]
    time.sleep(0.2)
    go.touch()
    results = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0] * workers, [err for _out, err in results]

    store = Store.open(path)
    assert store.summary_count() == workers * rounds
    for w in range(workers):
        for i in range(rounds):
            assert store.get(f"w{w}-{i}") == f"summary {w}/{i} " * 10
        assert store.calibration(f"model-{w}") == (2.0 + (rounds - 1) / 100, rounds)
        assert store.session(f"s{w}") == {"done": rounds}
    shared = store.calibration("shared")
    assert shared is not None and shared[0] in {3.0 + w for w in range(workers)}
    archived = store.archived("session-0") + store.archived("session-1")
    assert sorted((row["message"]["worker"], row["message"]["i"]) for row in archived) == [
        (w, i) for w in range(workers) for i in range(rounds)]
    store.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]


def _rows(path: Path, table: str) -> list[Any]:
    with sqlite3.connect(path) as db:
        return db.execute(f"SELECT * FROM {table}").fetchall()  # noqa: S608 - fixed table names


def test_reader_sees_rows_another_connection_committed(tmp_path: Path) -> None:
    """A row written through one Store is visible at once to another Store on the same file."""
    path = tmp_path / "s.sqlite"
    writer, reader = Store.open(path), Store.open(path)
    writer.archive("s", [("d", "user", {"x": 1})])
    writer.put("k", "v", "x")
    assert reader.archived("s")[0]["message"] == {"x": 1}
    assert reader.get("k") == "v"
    assert len(_rows(path, "archive")) == 1
    writer.close()
    reader.close()
