"""The store: summaries with LRU eviction, sessions, calibration, the archive, recovery, sharing.

The tests of the contract (those that take ``store`` and none of SQLite's files) run on both engines:
SQLite, and PostgreSQL on a throwaway server (``pgserver``); the rest are SQLite's own."""

from __future__ import annotations

import inspect
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

import pgserver
from conftest import need
from context_compactor.archive import parse_ref
from context_compactor.errors import InputError, StoreError
from context_compactor import store_sqlite_schema
from context_compactor.store import Retention, Store, default_store_path


@pytest.fixture
def store_path(tmp_path: Path) -> Path:
    return tmp_path / "home" / "context-compactor" / "store.sqlite"


ENGINES = ("sqlite", "postgresql")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A test that takes ``store`` and no SQLite file of its own tests the contract: both engines run it."""
    wants = inspect.signature(metafunc.function).parameters
    if "store" in wants and not {"store_path", "tmp_path", "small_fs"} & set(wants):
        metafunc.parametrize("engine", ENGINES, indirect=True)


@pytest.fixture
def engine(request: pytest.FixtureRequest) -> str:
    return str(getattr(request, "param", "sqlite"))


def postgres_database() -> str:
    """A fresh database on the test run's PostgreSQL server (skipped, or failed in CI, without one)."""
    ok, missing = pgserver.available()
    need(ok, missing)
    return pgserver.cluster().database()


@pytest.fixture
def store(engine: str, store_path: Path) -> Iterator[Store]:
    opened = Store.open(postgres_database() if engine == "postgresql" else store_path)
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


def test_a_sessions_stamp_changes_with_every_write(store: Store) -> None:
    """session_stamp() is None before the first write and different after each one."""
    assert store.session_stamp("s1") is None
    store.save_session("s1", {"a": 1})
    first = store.session_stamp("s1")
    time.sleep(0.002)  # SQLite stamps the wall clock
    store.save_session("s1", {"a": 2})
    assert first is not None and store.session_stamp("s1") != first


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


def test_damaged_database_is_set_aside_and_its_readable_rows_copied(store_path: Path) -> None:
    """A database whose pages were overwritten is set aside, and the rows still readable in it come back."""
    made = Store.open(store_path)
    messages = {f"d{i}": {"role": "user", "content": f"message {i} " + "padding " * 200} for i in range(400)}
    made.archive("s1", [(d, "user", m, i) for i, (d, m) in enumerate(messages.items())])
    made.close()
    data = bytearray(store_path.read_bytes())
    page = 16384
    data[page * 30:page * 32] = b"\xff" * (page * 2)  # clobber two pages in the middle of the archive
    store_path.write_bytes(bytes(data))
    with capture_logs() as logs:
        rebuilt = Store.open(store_path)
    assert [entry["event"] for entry in logs] == ["store.rebuilt"]
    salvaged = rebuilt.archived("s1")
    assert 0 < len(salvaged) < len(messages)
    assert all(messages[row["digest"]] == row["message"] for row in salvaged)
    assert logs[0]["salvaged_archive"] == len(salvaged)
    assert rebuilt.search("message", session="s1", limit=3)
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


def test_a_store_folder_another_process_creates_first_is_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two processes opening the same new store: the one that finds the folder made between its look and
    its mkdir opens the store all the same (it failed with "cannot create the store" in CI)."""
    path = tmp_path / "shared" / "store.sqlite"
    real_mkdir = Path.mkdir

    def raced(self: Path, *args: Any, **kwargs: Any) -> None:  # the other process wins the race
        real_mkdir(self, mode=0o700)
        real_mkdir(self, *args, **kwargs)

    monkeypatch.setattr(Path, "mkdir", raced)
    store = Store.open(path)
    store.put("k", "v", "extractive")
    assert store.get("k") is not None
    store.close()


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
        return db.execute(f"SELECT * FROM {table}").fetchall()


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


# --- positions, turns, tools ----------------------------------------------------------------------

def call(call_id: str, name: str, arguments: str) -> dict[str, Any]:
    return {"role": "assistant", "content": None,
            "tool_calls": [{"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}]}


def result(call_id: str, text: str) -> dict[str, Any]:
    return {"role": "tool", "tool_call_id": call_id, "content": text}


CONVERSATION: list[dict[str, Any]] = [
    {"role": "user", "content": "Please move the web server to port 8787 and keep the logs in /var/log/app."},
    call("c1", "edit_file", '{"path": "config.yaml", "port": 8787}'),
    result("c1", "wrote config.yaml: port 8787"),
    {"role": "assistant", "content": "Done: the server listens on 8787 now."},
    {"role": "user", "content": "Run the database migration next."},
    call("c2", "run_shell", '{"cmd": "alembic upgrade head"}'),
    result("c2", "INFO  Running upgrade 41ab -> 42cd, add invoices table"),
]


def archive_conversation(store: Store, session: str = "s1", messages: list[dict[str, Any]] = CONVERSATION) -> None:
    store.archive(session, [(f"{session}-d{i}", m["role"], m, i) for i, m in enumerate(messages)])


def test_archive_rows_carry_index_turn_and_tool(store: Store) -> None:
    """A row with an index keeps it; the turn counts user messages up to it; the tool comes from the calls."""
    archive_conversation(store)
    got = [store.fetch(("s1", i)) for i in range(len(CONVERSATION))]
    assert [(o.index, o.turn, o.tool) for o in got if o] == [
        (0, 1, None), (1, 1, "edit_file"), (2, 1, "edit_file"), (3, 1, None),
        (4, 2, None), (5, 2, "run_shell"), (6, 2, "run_shell")]


def test_turn_counts_users_archived_in_earlier_batches(store: Store) -> None:
    """A later batch continues the turn count from the user messages already archived before it."""
    store.archive("s1", [(f"d{i}", m["role"], m, i) for i, m in enumerate(CONVERSATION[:3])])
    store.archive("s1", [(f"d{i}", m["role"], m, i) for i, m in enumerate(CONVERSATION) if i >= 3])
    assert [store.fetch(("s1", i)).turn for i in (3, 4, 6)] == [1, 2, 2]  # type: ignore[union-attr]


def test_a_given_turn_is_kept(store: Store) -> None:
    """A five-field row's turn is stored as given."""
    store.archive("s1", [("d", "user", {"role": "user", "content": "x"}, 9, 4)])
    assert store.fetch(("s1", 9)).turn == 4  # type: ignore[union-attr]


def test_same_message_at_two_positions_is_two_rows(store: Store) -> None:
    """The same message at two indexes is kept twice, so either citation resolves; at one index, once."""
    ok = {"role": "user", "content": "ok"}
    assert store.archive("s1", [("d", "user", ok, 3), ("d", "user", ok, 9)]) == 2
    assert store.archive("s1", [("d", "user", ok, 9)]) == 0
    assert [store.fetch(("s1", i)) is not None for i in (3, 9, 4)] == [True, True, False]


@pytest.mark.parametrize("row", [("d", "user"), ("d", "user", {}, -1), ("d", "user", {}, "3"), ("d", "u", {}, 1, 2, 3)])
def test_malformed_archive_rows_are_refused(store: Store, row: tuple[Any, ...]) -> None:
    """A row with the wrong number of fields or an index that is not an int >= 0 raises StoreError, writing nothing."""
    with pytest.raises(StoreError, match="archive row"):
        store.archive("s1", [("ok", "user", {}), row])
    assert store.archived("s1") == []


# --- search and fetch ------------------------------------------------------------------------------


def test_search_finds_a_message_by_other_forms_of_its_words(store: Store) -> None:
    """A query with different word forms (stemming) finds the message, with its place and a snippet."""
    archive_conversation(store)
    hits = store.search("which port does the server listen on", session="s1", limit=3)
    assert hits[0].session == "s1" and hits[0].index in (0, 2, 3)
    assert "8787" in hits[0].snippet
    assert {h.index for h in hits} <= {0, 1, 2, 3}


def test_search_ranks_the_message_with_more_matching_words_first(store: Store) -> None:
    """BM25: the message that holds more of the query's words ranks above one that holds fewer."""
    archive_conversation(store)
    hits = store.search("migration invoices table", session="s1")
    assert hits[0].index == 6 and hits[0].tool == "run_shell" and hits[0].turn == 2
    assert hits == sorted(hits, key=lambda h: -h.score)


def test_search_within_a_session_sees_only_that_session(store: Store) -> None:
    """A session filter returns only that session's rows; without it, every session's."""
    archive_conversation(store, "s1")
    archive_conversation(store, "s2")
    assert {h.session for h in store.search("port", session="s2", limit=10)} == {"s2"}
    assert {h.session for h in store.search("port", limit=10)} == {"s1", "s2"}
    assert store.search("port", session="nobody") == []


def test_search_sees_rows_archived_just_before(store: Store) -> None:
    """Rows archived a moment ago are searchable at once (the index catches up before a search)."""
    archive_conversation(store)
    store.search("port")
    store.archive("s1", [("late", "user", {"role": "user", "content": "the deploy key is zebra-42"}, 7)])
    assert [h.index for h in store.search("deploy key")] == [7]


def test_search_respects_the_limit(store: Store) -> None:
    """At most ``limit`` hits come back."""
    archive_conversation(store)
    assert len(store.search("port server config upgrade migration", limit=2)) == 2


@pytest.mark.parametrize("query", ['"port', "port*", "NEAR(port server", "port AND OR NOT", "text: port",
                                   "sess:port", "-port ^server", "port)", "{text sess}: port", "port'; DROP TABLE archive; --"])
def test_fts_syntax_in_a_query_is_searched_for_not_obeyed(store: Store, query: str) -> None:
    """Quotes, operators, column filters and SQL in a query never raise; the words in it still match."""
    archive_conversation(store)
    hits = store.search(query, limit=10)
    assert any("8787" in h.snippet for h in hits)


@pytest.mark.parametrize("query", ["", "   ", '"*"', "()", "-- !"])
def test_a_query_without_words_is_bad_input(store: Store, query: str) -> None:
    """A query with no word characters raises InputError naming the query."""
    with pytest.raises(InputError, match="no words"):
        store.search(query)


def test_a_query_of_stopwords_still_searches(store: Store) -> None:
    """When every word is a stopword, the stopwords are searched rather than nothing."""
    archive_conversation(store)
    assert store.search("the", limit=10)


def test_fetch_pages_a_long_original(store: Store) -> None:
    """fetch() returns a page of the text with where the next page starts, None on the last page."""
    body = "".join(f"line {i:04d}\n" for i in range(1000))
    store.archive("s1", [("d", "tool", result("c9", body), 12)])
    first = store.fetch(("s1", 12), limit_chars=4000)
    assert first is not None and first.text == body[:4000] and first.next_offset == 4000
    assert first.total_chars == len(body) and first.message == result("c9", body)
    pages, offset = [], 0
    while True:
        page = store.fetch(first.id, offset=offset, limit_chars=4000)
        assert page is not None
        pages.append(page.text)
        if page.next_offset is None:
            break
        offset = page.next_offset
    assert "".join(pages) == body


def test_fetch_of_an_unknown_message_is_none(store: Store) -> None:
    """An id or (session, index) with no row reads as None."""
    archive_conversation(store)
    assert store.fetch(999) is None
    assert store.fetch(("s1", 99)) is None
    assert store.fetch(("nobody", 0)) is None


def test_fetch_shows_tool_calls_as_text(store: Store) -> None:
    """An assistant message with only tool calls pages as one line per call, name and arguments."""
    archive_conversation(store)
    got = store.fetch(("s1", 1))
    assert got is not None and got.text == '-> edit_file {"path": "config.yaml", "port": 8787}'


@pytest.mark.parametrize(("text", "session", "expected"), [
    ("42", None, 42), ("main#12", None, ("main", 12)), ("agent:main#abc#3", None, ("agent:main#abc", 3)),
    ("12", "main", ("main", 12)), ("#12", "main", ("main", 12))])
def test_parse_ref_reads_ids_and_citations(text: str, session: str | None, expected: Any) -> None:
    """A row id, SESSION#INDEX (the last '#' splits) and an index with a session all parse."""
    assert parse_ref(text, session) == expected


@pytest.mark.parametrize(("text", "session"), [("", None), ("abc", None), ("#3", None), ("main#", None),
                                               ("main#-1", None), ("x", "main"), ("1.5", None)])
def test_parse_ref_refuses_what_is_not_an_id(text: str, session: str | None) -> None:
    """Anything else raises InputError quoting it."""
    with pytest.raises(InputError, match="not a"):
        parse_ref(text, session)


# --- schema versions and migrations ---------------------------------------------------------------

# The schema of the first release (store.py before schema versions), verbatim: files it wrote must open.
RELEASE_0_SCHEMA = """
CREATE TABLE IF NOT EXISTS summaries (
    key TEXT PRIMARY KEY, text TEXT NOT NULL, summarizer TEXT NOT NULL,
    created REAL NOT NULL, last_used REAL NOT NULL);
CREATE INDEX IF NOT EXISTS summaries_last_used ON summaries(last_used);
CREATE TABLE IF NOT EXISTS sessions (
    session_key TEXT PRIMARY KEY, state TEXT NOT NULL, updated REAL NOT NULL);
CREATE TABLE IF NOT EXISTS calibration (
    model TEXT PRIMARY KEY, ratio REAL NOT NULL, samples INTEGER NOT NULL, updated REAL NOT NULL);
CREATE TABLE IF NOT EXISTS archive (
    id INTEGER PRIMARY KEY AUTOINCREMENT, session_key TEXT NOT NULL, digest TEXT NOT NULL,
    role TEXT NOT NULL, message TEXT NOT NULL, archived_at REAL NOT NULL,
    UNIQUE(session_key, digest));
"""


def write_release_0_store(path: Path, messages: int = 300) -> list[tuple[Any, ...]]:
    """A store as the first release wrote it (WAL, its schema, its inserts); returns its archive rows."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA journal_mode=WAL")
        db.executescript(RELEASE_0_SCHEMA)
        db.execute("INSERT INTO summaries VALUES ('k', 'kept summary', 'llm', 1, 2)")
        db.execute("INSERT INTO sessions VALUES ('s1', '{\"compactions\": 3}', 5)")
        db.execute("INSERT INTO calibration VALUES ('m', 3.5, 7, 5)")
        db.executemany("INSERT OR IGNORE INTO archive(session_key, digest, role, message, archived_at) VALUES (?, ?, ?, ?, ?)",
                       [(f"s{i % 3}", f"d{i}", "user", f'{{"role": "user", "content": "old fact {i} kiwi"}}', 1000.0 + i)
                        for i in range(messages)])
        return db.execute("SELECT id, session_key, digest, role, message, archived_at FROM archive ORDER BY id").fetchall()


def test_a_first_release_store_opens_with_every_row(store_path: Path) -> None:
    """A store written with the first release's schema migrates in place: every row kept, searchable, logged."""
    rows = write_release_0_store(store_path)
    with capture_logs() as logs:
        upgraded = Store.open(store_path)
    assert [(e["event"], e["from_version"]) for e in logs] == [("store.migrated", 0)]
    assert list(store_path.parent.glob("*.corrupt-*")) == []
    with sqlite3.connect(store_path) as db:
        assert db.execute("SELECT id, session_key, digest, role, message, archived_at FROM archive ORDER BY id"
                          ).fetchall() == rows
        assert db.execute("PRAGMA user_version").fetchone()[0] == store_sqlite_schema.SCHEMA_VERSION
    assert upgraded.get("k") == "kept summary" and upgraded.session("s1") == {"compactions": 3}
    assert upgraded.calibration("m") == (3.5, 7)
    assert len(upgraded.search("kiwi", limit=1000)) == len(rows)
    assert upgraded.fetch(rows[0][0]) is not None
    upgraded.close()


def test_migrated_and_new_stores_have_the_same_schema(tmp_path: Path) -> None:
    """A migrated first-release file ends with exactly the tables and indexes of a new one."""
    write_release_0_store(tmp_path / "old.sqlite", messages=3)
    Store.open(tmp_path / "old.sqlite").close()
    Store.open(tmp_path / "new.sqlite").close()

    def schema(path: Path) -> list[Any]:
        with sqlite3.connect(path) as db:
            return db.execute("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name").fetchall()

    assert schema(tmp_path / "old.sqlite") == schema(tmp_path / "new.sqlite")


def test_a_later_schema_change_keeps_every_row(store_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A release that adds a column and an index (a new migration) opens this release's file with every row."""
    first = Store.open(store_path)
    archive_conversation(first)
    first.put("k", "v", "x")
    first.close()

    def add_pinned(db: sqlite3.Connection) -> None:
        db.execute("ALTER TABLE archive ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0")
        db.execute("CREATE INDEX archive_pinned ON archive(pinned)")

    monkeypatch.setattr(store_sqlite_schema, "MIGRATIONS", (*store_sqlite_schema.MIGRATIONS, add_pinned))
    monkeypatch.setattr(store_sqlite_schema, "SCHEMA_VERSION", len(store_sqlite_schema.MIGRATIONS))
    with capture_logs() as logs:
        upgraded = Store.open(store_path)
    assert [e["event"] for e in logs] == ["store.migrated"]
    assert [row["message"] for row in upgraded.archived("s1")] == CONVERSATION
    assert upgraded.get("k") == "v" and upgraded.search("invoices", session="s1")[0].index == 6
    upgraded.close()


def test_a_store_from_a_newer_release_is_refused_and_left_alone(store_path: Path) -> None:
    """A file with a schema version above ours raises StoreError saying to upgrade; it is not set aside."""
    Store.open(store_path).close()
    with sqlite3.connect(store_path) as db:
        db.execute(f"PRAGMA user_version = {store_sqlite_schema.SCHEMA_VERSION + 1}")
    with pytest.raises(StoreError, match="newer context-compactor"):
        Store.open(store_path)
    assert list(store_path.parent.glob("*.corrupt-*")) == []


def test_an_sql_error_is_not_taken_for_damage(store_path: Path) -> None:
    """A sound file whose tables do not fit (a plain SQLITE_ERROR) raises StoreError and stays where it is."""
    store_path.parent.mkdir(parents=True)
    with sqlite3.connect(store_path) as db:
        db.execute("CREATE TABLE archive (id INTEGER PRIMARY KEY, note TEXT)")
        db.execute("INSERT INTO archive VALUES (1, 'mine')")
    with capture_logs() as logs, pytest.raises(StoreError, match="cannot open the store"):
        Store.open(store_path)
    assert [e["event"] for e in logs] == []
    assert list(store_path.parent.glob("*.corrupt-*")) == []
    assert _rows(store_path, "archive") == [(1, "mine")]


def test_processes_opening_a_first_release_store_at_once_migrate_it_once(tmp_path: Path) -> None:
    """Four processes opening an old file together all succeed, and every row is there once."""
    path, go = tmp_path / "shared.sqlite", tmp_path / "go"
    rows = write_release_0_store(path)
    opener = ("import os, sys, time\nfrom context_compactor.store import Store\n"
              "while not os.path.exists(sys.argv[2]): time.sleep(0.002)\n"
              "Store.open(sys.argv[1]).close()\n")
    procs = [subprocess.Popen([sys.executable, "-c", opener, str(path), str(go)], stderr=subprocess.PIPE, text=True)
             for _ in range(4)]
    time.sleep(0.2)
    go.touch()
    errors = [p.communicate(timeout=120)[1] for p in procs]
    assert [p.returncode for p in procs] == [0] * 4, errors
    assert len(_rows(path, "archive")) == len(rows)


# --- files, folders, faults ------------------------------------------------------------------------


def test_store_file_is_private_and_its_folder_too(store: Store, store_path: Path) -> None:
    """A new store file is 0600 (its WAL files too) in a 0700 folder: it holds whole conversations."""
    store.archive("s1", [("d", "user", {"content": "secret"}, 0)])
    assert store_path.stat().st_mode & 0o777 == 0o600
    assert Path(f"{store_path}-wal").stat().st_mode & 0o777 == 0o600
    assert store_path.parent.stat().st_mode & 0o777 == 0o700


def test_an_existing_readable_store_is_made_private(store_path: Path) -> None:
    """A store and its context-compactor folder left readable by others are tightened on open."""
    Store.open(store_path).close()
    os.chmod(store_path, 0o644)
    os.chmod(store_path.parent, 0o755)
    Store.open(store_path).close()
    assert store_path.stat().st_mode & 0o777 == 0o600
    assert store_path.parent.stat().st_mode & 0o777 == 0o700


def test_a_shared_folder_keeps_its_mode(tmp_path: Path) -> None:
    """A store put in an existing folder not of our own (like /tmp) leaves that folder's mode alone."""
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o777)
    os.chmod(shared, 0o777)
    Store.open(shared / "s.sqlite").close()
    assert shared.stat().st_mode & 0o777 == 0o777
    assert (shared / "s.sqlite").stat().st_mode & 0o777 == 0o600


@pytest.fixture
def small_fs(tmp_path: Path) -> Iterator[Path]:
    """A 2 MB tmpfs mounted for the test (unmounted after)."""
    mount = tmp_path / "fs"
    mount.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mount)], check=True)
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=True)


def test_a_full_disk_says_so(small_fs: Path) -> None:
    """Archiving on a full disk raises StoreError saying the disk is full and what to do; the store still reads."""
    store = Store.open(small_fs / "store.sqlite")
    store.archive("s1", [("first", "user", {"content": "kept"}, 0)])
    with pytest.raises(StoreError) as raised:
        for i in range(1, 200):
            store.archive("s1", [(f"d{i}", "user", {"content": os.urandom(8192).hex()}, i)])
    message = str(raised.value)
    assert "disk is full" in message and "archiveMaxMb" in message and str(small_fs) in message
    assert "cannot rollback" not in message
    got = store.fetch(("s1", 0))
    assert got is not None and got.message == {"content": "kept"}
    store.close()


def test_a_read_only_filesystem_says_so(small_fs: Path) -> None:
    """A store on a filesystem remounted read-only raises 'read-only' on open, and nothing is set aside."""
    path = small_fs / "store.sqlite"
    store = Store.open(path)
    store.archive("s1", [("d0", "user", {"content": "kept"}, 0)])
    store.close()
    subprocess.run(["mount", "-o", "remount,ro", str(small_fs)], check=True)
    with capture_logs() as logs, pytest.raises(StoreError, match="read-only|not writable") as raised:
        Store.open(path)
    assert "damaged" not in str(raised.value)
    assert [e["event"] for e in logs] == []
    assert sorted(p.name for p in small_fs.iterdir() if "corrupt" in p.name) == []


READ_ONLY_FOLDER = r"""
import os, sys, tempfile
from context_compactor.errors import StoreError
from context_compactor.store import Store
# Open (and close) a store once while we may still read our own files: whatever the store imports on
# first use is loaded now, before the unprivileged part cannot reach a venv or clone in a 0700 folder.
with tempfile.TemporaryDirectory() as warm:
    Store.open(os.path.join(warm, "store.sqlite")).close()
if os.geteuid() == 0:
    os.setgroups([])
    os.setgid(65534)
    os.setuid(65534)
try:
    Store.open(sys.argv[1])
except StoreError as exc:
    print(exc)
    sys.exit(0)
sys.exit("opened a store in a read-only folder")
"""


def test_a_read_only_folder_without_a_store_says_so(tmp_path: Path) -> None:
    """An unprivileged user opening a store in a folder it may not write gets 'not writable', and no file appears."""
    # The child imports the package as we are and only then drops to "nobody" (root ignores folder modes),
    # so a clone or venv under a 0700 folder, as `mktemp -d` makes, does not stop it.
    import tempfile  # a folder outside pytest's 0700 tmp root, so the unprivileged user can reach it
    root = Path(tempfile.mkdtemp(prefix="cc-ro-"))
    try:
        os.chmod(root, 0o755)
        folder = root / "context-compactor"
        folder.mkdir()
        os.chmod(folder, 0o555)
        run = subprocess.run([sys.executable, "-c", READ_ONLY_FOLDER, str(folder / "store.sqlite")],
                             capture_output=True, text=True, timeout=60)
        assert run.returncode == 0, run.stderr
        assert "not writable" in run.stdout and str(folder) in run.stdout
        assert "corrupt" not in run.stdout + run.stderr and "rebuilt" not in run.stderr
        assert list(folder.iterdir()) == []
    finally:
        os.chmod(root / "context-compactor", 0o755)
        subprocess.run(["rm", "-rf", str(root)], check=True)


# --- retention and size ----------------------------------------------------------------------------


def age(path: Path, session: str, days: float) -> None:
    """Make a session's archive look ``days`` old."""
    with sqlite3.connect(path) as db:
        db.execute("UPDATE archive SET archived_at = ? WHERE session_key = ?", (time.time() - days * 86400, session))
        db.execute("UPDATE sessions SET updated = ? WHERE session_key = ?", (time.time() - days * 86400, session))


def test_sessions_idle_past_max_days_are_pruned(store: Store, store_path: Path) -> None:
    """Sessions whose last archived message is older than max_days go, with their state; newer ones stay."""
    for session in ("old", "new"):
        archive_conversation(store, session)
        store.save_session(session, {"n": 1})
    age(store_path, "old", 40)
    assert store.prune(Retention(max_mb=None, max_days=30)) == len(CONVERSATION)
    assert [s.session for s in store.sessions()] == ["new"]
    assert store.session("old") == {} and store.session("new") == {"n": 1}
    assert {h.session for h in store.search("port", limit=20)} == {"new"}


def test_oldest_sessions_go_first_until_the_archive_fits(store_path: Path) -> None:
    """Over max_mb, whole sessions go oldest first, the file shrinks, and the index forgets them too."""
    store = Store.open(store_path)
    for n, session in enumerate(("a", "b", "c", "d")):
        rows = [(f"{session}{i}", "tool", result("c", f"{session} log {i} " + os.urandom(1500).hex()), i) for i in range(200)]
        store.archive(session, rows)
        age(store_path, session, 10 - n)  # a is the oldest
    store.index_pending()
    store.close()  # the last connection folds the WAL into the file
    store = Store.open(store_path)
    before = store.size_bytes()
    with capture_logs() as logs:
        removed = store.prune(Retention(max_mb=before / 2.5e6, max_days=None))  # 40%: two sessions at least, whatever the pages
    assert removed >= 400 and [e["event"] for e in logs] == ["store.pruned"]
    left = {s.session for s in store.sessions()}
    assert "d" in left and "a" not in left and ("c" in left or "b" not in left)
    assert store.size_bytes() < before * 0.75
    assert {h.session for h in store.search("log", limit=1000)} == left
    store.close()
    with sqlite3.connect(store_path) as db:
        assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        db.execute("INSERT INTO archive_fts(archive_fts) VALUES ('integrity-check')")


def test_a_store_within_its_retention_loses_nothing(store: Store) -> None:
    """prune() under both limits removes no row."""
    archive_conversation(store)
    assert store.prune(Retention(max_mb=100, max_days=30)) == 0
    assert len(store.archived("s1")) == len(CONVERSATION)


def test_open_with_retention_prunes(store_path: Path) -> None:
    """Store.open(retention=...) applies it once the file is open."""
    first = Store.open(store_path)
    archive_conversation(first, "old")
    first.close()
    age(store_path, "old", 400)
    again = Store.open(store_path, retention=Retention(max_mb=None, max_days=365))
    assert again.sessions() == []
    again.close()


def test_retention_reads_settings_with_defaults() -> None:
    """Retention.from_settings reads archive_max_mb / archive_max_days, defaults where a field is missing."""
    class Old:
        pass

    class New:
        archive_max_mb = 50.0
        archive_max_days = None

    assert Retention.from_settings(Old()) == Retention()
    assert Retention.from_settings(New()) == Retention(max_mb=50.0, max_days=None)


def test_size_on_disk_grows_with_the_archive(store: Store) -> None:
    """size_bytes() counts the file and its WAL, and grows as messages are archived."""
    empty = store.size_bytes()
    store.archive("s1", [(f"d{i}", "user", {"content": os.urandom(2000).hex()}, i) for i in range(100)])
    assert store.size_bytes() > empty + 400_000
    assert Store.open(":memory:").size_bytes() > 0


def test_sessions_lists_counts_newest_first(store: Store, store_path: Path) -> None:
    """sessions() gives each session's message count and dates, the most recently archived first."""
    archive_conversation(store, "old")
    archive_conversation(store, "new")
    age(store_path, "old", 1)
    listed = store.sessions()
    assert [(s.session, s.messages) for s in listed] == [("new", 7), ("old", 7)]
    assert listed[1].last_archived < listed[0].first_archived


def test_words_in_most_messages_do_not_drown_a_rare_one(store: Store) -> None:
    """A query mixing a word found everywhere with a rare one finds the rare one's message first; all-common still answers."""
    store.archive("s1", [(f"d{i}", "user", {"role": "user", "content": f"status update number {i} build green"}, i)
                         for i in range(400)] + [("x", "user", {"role": "user", "content": "status: the pelican landed"}, 400)])
    assert store.search("status pelican", session="s1")[0].index == 400
    assert len(store.search("status build", session="s1", limit=3)) == 3


def test_rows_owed_to_an_in_memory_archive_stay_owed_when_one_batch_fails() -> None:
    """archive_later: a batch that fails to be written raises to the reader once; the batches after it are
    still owed and written by the next read, never dropped with it."""
    store = Store.open(":memory:")
    try:
        store.archive_later("k", lambda: [("d1", "user", {"role": "user", "content": "one"}, 0)], 1)

        def broken() -> list[tuple[str, str, dict[str, str], int]]:
            raise ValueError("cannot read the message")

        store.archive_later("k", broken, 1)
        store.archive_later("k", lambda: [("d3", "user", {"role": "user", "content": "three"}, 2)], 1)
        assert store.pending() == 3
        with pytest.raises(ValueError):
            store.archived("k")
        assert [r["digest"] for r in store.archived("k")] == ["d1", "d3"]
    finally:
        store.close()
