"""The store's SQLite engine: one file per gateway home, safe for several processes on one host (WAL).

``Store`` (the contract every engine implements, ``store_contract.py``) is imported from here; the
PostgreSQL engine for several hosts is ``store_pg.py``.

    summaries(key, text, summarizer, created, last_used)   bounded; least recently used go first
    sessions(session_key, state, updated)                   JSON: last compaction, stats, anchor
    calibration(model, ratio, samples, updated)             chars-per-token learned per model
    archive(id, session_key, digest, role, message, archived_at, idx, turn, tool)
                                                            every message that leaves the prompt,
                                                            written before it leaves; ``idx`` is its
                                                            position in the session's history
    archive_fts, meta                                       the full-text index (see ``archive.py``)

``PRAGMA user_version`` is the schema version; :data:`MIGRATIONS` takes any earlier file to the
current one in a transaction, so an upgrade keeps the archive. Only a file SQLite calls damaged
(SQLITE_CORRUPT, SQLITE_NOTADB, or a failed quick check) is set aside (``<name>.corrupt-<time>``),
and every row still readable in it is copied into the new store. The file is 0600 in a 0700 folder:
it holds whole conversations. Retention (``archiveMaxMb``, ``archiveMaxDays``) drops the oldest
sessions first and gives the space back.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from . import archive as fts
from .archive import Hit, Original, Ref
from .errors import StoreError
from .logs import get_logger
from .messages import View, repaired_text
from .store_contract import ARCHIVE_MAX_DAYS, ARCHIVE_MAX_MB, Retention, SessionInfo, Store, StoreClosed, is_url

logger = get_logger()

__all__ = ["ARCHIVE_MAX_DAYS", "ARCHIVE_MAX_MB", "Hit", "Original", "Retention", "SQLiteStore", "SessionInfo", "Store",
           "StoreClosed", "StoreError", "default_store_path", "is_url", "store_path_for"]

# The schema of the first release (version 0): every later one starts from it and migrates.
LEGACY_SCHEMA = """
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


def _v1_positions_and_index(db: sqlite3.Connection) -> None:
    """Messages carry their history index, turn and tool; the same message at two places is two
    rows; the full-text index starts empty and catches up from id 0."""
    db.execute("""CREATE TABLE archive_v1 (
        id INTEGER PRIMARY KEY AUTOINCREMENT, session_key TEXT NOT NULL, digest TEXT NOT NULL,
        role TEXT NOT NULL, message TEXT NOT NULL, archived_at REAL NOT NULL,
        idx INTEGER, turn INTEGER, tool TEXT)""")
    db.execute("INSERT INTO archive_v1(id, session_key, digest, role, message, archived_at) "
               "SELECT id, session_key, digest, role, message, archived_at FROM archive ORDER BY id")
    db.execute("DROP TABLE archive")
    db.execute("ALTER TABLE archive_v1 RENAME TO archive")
    db.execute("CREATE UNIQUE INDEX archive_once ON archive(session_key, digest, ifnull(idx, -1))")
    db.execute("CREATE INDEX archive_position ON archive(session_key, idx)")
    db.execute("CREATE INDEX archive_age ON archive(archived_at)")
    db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    db.execute("INSERT INTO meta VALUES ('fts_upto', '0'), ('fts_version', ?)", (str(fts.FTS_VERSION),))
    for statement in fts.FTS_SCHEMA:
        db.execute(statement)


MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (_v1_positions_and_index,)
SCHEMA_VERSION = len(MIGRATIONS)
QUICK_CHECK_MAX_BYTES = 256 << 20  # larger files skip the full-page check at open (it reads every page)
STEADY_CACHE_KIB = 2048  # the page cache between batches (SQLite's own default size)
BATCH_CACHE_KIB = 16384  # during a batch: a cold compaction's rows are written without spilling
_CORRUPT, _NOTADB, _FULL, _READONLY, _CANTOPEN, _IOERR = 11, 26, 13, 8, 14, 10


class _Damaged(sqlite3.DatabaseError):
    """The quick check found damage that SQLite did not raise by itself."""


class SQLiteStore(Store):
    """Thread-safe access to the SQLite store; open with :meth:`Store.open`."""

    def __init__(self, path: str | Path, *, max_entries: int = 20000, read_only: bool = False) -> None:
        self.path = str(path)
        self.max_entries = max_entries
        self.read_only = read_only
        self._lock = threading.RLock()
        self._clock = 0.0
        self.closed = False
        self._db = _connect_read_only(self.path) if read_only else self._connect()
        # An in-memory store takes archive rows as promises (archive_later) and writes them when it is
        # next used, or the background indexer does, after the turn: nothing outlives the process anyway.
        self._deferred: list[tuple[str, Callable[[], list[tuple[Any, ...]]], int, Sequence[View] | None]] = []
        self._deferred_lock = threading.Lock()
        self._flushing = False

    @classmethod
    def _open(cls, path: str | Path, *, max_entries: int = 20000, retention: Retention | None = None) -> Store:
        """Open (or create) the store at ``path``; a damaged file is set aside and its rows salvaged.

        A folder in the way, a database another process holds locked, a full disk or a read-only
        place is reported (StoreError) and left alone: moving a live WAL database away from its
        other users would break them. With ``retention``, the archive is pruned to it once opened.
        """
        if str(path) == ":memory:":
            try:
                return cls(path, max_entries=max_entries)
            except sqlite3.Error as exc:
                raise StoreError(f"cannot open an in-memory store: {exc}") from exc
        try:
            _prepare(Path(path))
            store = cls(path, max_entries=max_entries)
        except sqlite3.Error as exc:
            if not _damaged(exc):
                raise _store_error(exc, str(path), "open the store") from exc
            store = cls._rebuild(path, max_entries, exc)
        except OSError as exc:
            raise StoreError(f"{path}: cannot create the store: {exc.strerror} (check that its folder "
                             f"{Path(path).parent} is writable, or point --store/storePath elsewhere)",
                             path=str(path)) from exc
        _tighten_files(Path(path))  # only now: the file is our store, not another program's
        if retention is not None:
            store.prune(retention)
        return store

    @classmethod
    def _open_read_only(cls, path: str | Path) -> Store:
        """The store at ``path`` for reading: nothing is created, changed or set aside, and no write access
        to the file or its folder is needed (a copy without its ``-shm`` file is read as it is on disk).

        Raises StoreError when there is no store there, or it cannot be read as one (another program's
        file, a schema this release does not read as it is)."""
        if os.path.islink(path):
            _check_link(Path(path))
        if not os.path.isfile(path):
            raise StoreError(f"{path}: no store there", path=str(path))
        return cls(path, read_only=True)

    @classmethod
    def _rebuild(cls, path: str | Path, max_entries: int, exc: sqlite3.Error) -> SQLiteStore:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        aside = f"{path}.corrupt-{stamp}"
        n = 1
        while os.path.exists(aside):  # never overwrite what an earlier rebuild set aside
            n += 1
            aside = f"{path}.corrupt-{stamp}-{n}"
        try:
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(f"{path}{suffix}"):
                    os.replace(f"{path}{suffix}", f"{aside}{suffix}")
            _prepare(Path(path))
            store = cls(path, max_entries=max_entries)
        except OSError as move:
            raise StoreError(f"{path}: the store is damaged ({exc}) and cannot be moved aside: {move.strerror}",
                             path=str(path)) from exc
        except sqlite3.Error as again:
            raise _store_error(again, str(path), "create the store") from again
        copied = _salvage(aside, store._db)
        logger.warning("store.rebuilt", path=str(path), moved_to=aside, error=str(exc), **copied)
        return store

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=30, check_same_thread=False, isolation_level=None)
        try:
            db.execute("PRAGMA busy_timeout=30000")
            _refuse_foreign(db, self.path)  # before page size, WAL or tables change anything in it
            if not db.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchone():  # these only take before the first table
                # Archived messages run to kilobytes: on 4 KiB pages most spill into overflow chains,
                # and writing a cold compaction's 3,000 of them took three times as long.
                db.execute("PRAGMA page_size=16384")  # before auto_vacuum, which fixes the page size
                db.execute("PRAGMA auto_vacuum=INCREMENTAL")
            if self.path != ":memory:":
                _enable_wal(db)
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute(f"PRAGMA cache_size=-{STEADY_CACHE_KIB}")  # a batch gets more: _batch_cache
            if self.path == ":memory:" or os.path.getsize(self.path) <= QUICK_CHECK_MAX_BYTES:
                ok = db.execute("PRAGMA quick_check").fetchone()
                if not ok or ok[0] != "ok":
                    raise _Damaged(f"integrity check failed: {ok[0] if ok else 'no answer'}")
            _migrate(db, self.path)
        except BaseException:
            db.close()
            raise
        return db

    def close(self) -> None:
        """Close the connection; a later use raises StoreClosed (under the lock: never mid-write)."""
        with self._lock:
            self._deferred = []
            self.closed = True
            self._db.close()

    @property
    def in_memory(self) -> bool:
        return self.path == ":memory:"

    def archive_later(self, session_key: str, rows: Callable[[], list[tuple[Any, ...]]], count: int,
                      views: Sequence[View] | None = None) -> None:
        """Archive ``rows()`` (``count`` of them; see :meth:`archive`) before the store is next read.

        For an in-memory store: the rows are in the archive for every reader (each access writes what
        is owed first), but a turn does not wait for them (the background indexer writes them after
        it). The messages are held by reference until then.
        """
        with self._deferred_lock:
            self._deferred.append((session_key, rows, count, views))

    def _flush(self) -> None:
        """Write the rows owed by archive_later (under the store's lock)."""
        with self._deferred_lock:
            owed, self._deferred = self._deferred, []
        self._flushing = True
        try:
            for k, (session_key, rows, _count, views) in enumerate(owed):
                try:
                    self.archive(session_key, rows(), views)
                except BaseException:
                    # The reader sees the error; the batches after this one stay owed (this one would
                    # fail every read after it).
                    with self._deferred_lock:
                        self._deferred[:0] = owed[k + 1:]
                    raise
        finally:
            self._flushing = False

    @contextmanager
    def _using(self, doing: str, *, flush: bool = True) -> Iterator[sqlite3.Connection]:
        """The connection, under the lock, with the rows owed by archive_later written first (unless
        ``flush`` is off); SQLite errors leave as StoreError saying what went wrong."""
        with self._lock:
            if self.closed:
                raise StoreClosed(f"{self.path}: cannot {doing}: the store is closed (its runtime was closed)",
                                  path=self.path)
            if flush and self._deferred and not self._flushing:
                self._flush()
            try:
                yield self._db
            except BaseException as exc:
                # Any failure, not only SQLite's (text it cannot encode, an interrupt): a transaction left
                # open would hold the write lock from every other session and process on the store.
                if self._db.in_transaction:  # SQLite rolls back by itself on a full disk
                    self._db.execute("ROLLBACK")
                if isinstance(exc, sqlite3.Error):
                    raise _store_error(exc, self.path, doing) from exc
                if isinstance(exc, UnicodeError):
                    raise StoreError(f"{self.path}: cannot {doing}: text that is not valid Unicode ({exc})",
                                     path=self.path) from exc
                raise

    # --- summaries ---------------------------------------------------------------------------

    def _now(self) -> float:
        """Wall-clock time, strictly increasing within this store, so recency never ties."""
        self._clock = max(time.time(), self._clock + 1e-6)
        return self._clock

    def get(self, key: str) -> str | None:
        with self._using("read a summary") as db:
            row = db.execute("SELECT text FROM summaries WHERE key = ?", (key,)).fetchone()
            if row is not None:
                db.execute("UPDATE summaries SET last_used = ? WHERE key = ?", (self._now(), key))
        return row[0] if row else None

    def put(self, key: str, text: str, summarizer: str) -> None:
        """Store a summary; the cache never holds more than ``max_entries`` afterwards."""
        with self._using("save a summary") as db:
            now = self._now()
            db.execute(
                "INSERT INTO summaries(key, text, summarizer, created, last_used) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT(key) DO UPDATE SET text = excluded.text, last_used = excluded.last_used",
                (key, repaired_text(text), summarizer, now, now),  # a model's answer may hold a lone surrogate
            )
            # Puts are rare (one per new chunk summary), so the bound is kept exactly, every time.
            self.evict()

    def evict(self) -> int:
        """Drop the least recently used summaries above ``max_entries``; returns how many."""
        with self._using("evict summaries") as db:
            (count,) = db.execute("SELECT COUNT(*) FROM summaries").fetchone()
            extra = count - self.max_entries
            if extra <= 0:
                return 0
            db.execute("DELETE FROM summaries WHERE key IN (SELECT key FROM summaries ORDER BY last_used, key LIMIT ?)",
                       (extra,))
            return int(extra)

    def summary_count(self) -> int:
        with self._using("count summaries") as db:
            return int(db.execute("SELECT COUNT(*) FROM summaries").fetchone()[0])

    # --- sessions and calibration --------------------------------------------------------------

    def session(self, session_key: str) -> dict[str, Any]:
        with self._using("read a session") as db:
            row = db.execute("SELECT state FROM sessions WHERE session_key = ?", (session_key,)).fetchone()
        if not row:
            return {}
        try:
            state = json.loads(row[0])
        except ValueError:
            logger.warning("store.session_unreadable", session_key=session_key)
            return {}
        return state if isinstance(state, dict) else {}

    load_session = session

    def save_session(self, session_key: str, state: dict[str, Any]) -> None:
        with self._using("save a session") as db:
            db.execute(
                "INSERT INTO sessions(session_key, state, updated) VALUES (?, ?, ?) "
                "ON CONFLICT(session_key) DO UPDATE SET state = excluded.state, updated = excluded.updated",
                (session_key, json.dumps(state, sort_keys=True), time.time()),
            )

    def session_stamp(self, session_key: str) -> object:
        """When the state was last written (each write stamps the time)."""
        with self._using("read a session") as db:
            row = db.execute("SELECT updated FROM sessions WHERE session_key = ?", (session_key,)).fetchone()
        return row[0] if row else None

    def calibration(self, model: str) -> tuple[float, int] | None:
        with self._using("read a calibration") as db:
            row = db.execute("SELECT ratio, samples FROM calibration WHERE model = ?", (model,)).fetchone()
        return (float(row[0]), int(row[1])) if row else None

    def save_calibration(self, model: str, ratio: float, samples: int) -> None:
        with self._using("save a calibration") as db:
            db.execute(
                "INSERT INTO calibration(model, ratio, samples, updated) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(model) DO UPDATE SET ratio = excluded.ratio, samples = excluded.samples, "
                "updated = excluded.updated",
                (model, ratio, samples, time.time()),
            )

    # --- archive --------------------------------------------------------------------------------

    def archive(self, session_key: str, items: Iterable[tuple[Any, ...]], views: Sequence[View] | None = None) -> int:
        """Append rows for a session in one transaction; returns how many were new.

        A row is ``(digest, role, message)``, ``(digest, role, message, index)`` with the message's
        0-based position in the session's history, or ``(..., index, turn)``. The tool name comes
        from the message (``views``: the rows' messages read already, one per row); without a turn,
        it is the number of user messages archived up to the message (by index). The same message at
        the same index is stored once.
        """
        batch = [_row(item) for item in items]
        if not batch:
            return 0
        now = time.time()
        tools = fts.tools_of([message for _d, _r, message, _i, _t in batch], views)
        # Before the lock; a lone surrogate a host let through is repaired, never a failed write.
        texts = [repaired_text(_MESSAGE_JSON.encode(message)) for _d, _r, message, _i, _t in batch]
        with self._using("archive messages") as db:
            turns = self._turns(db, session_key, batch)
            rows = [(session_key, d, role, text, now, i, turn, tool)
                    for (d, role, _m, i, _t), text, turn, tool in zip(batch, texts, turns, tools)]
            before = db.total_changes
            db.execute("BEGIN IMMEDIATE")
            with _batch_cache(db):
                db.executemany("INSERT OR IGNORE INTO archive(session_key, digest, role, message, archived_at, idx, "
                               "turn, tool) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
                db.execute("COMMIT")
            return db.total_changes - before

    @staticmethod
    def _turns(db: sqlite3.Connection, session_key: str, batch: list[tuple[Any, ...]]) -> list[int | None]:
        indexes = [i for _d, _r, _m, i, t in batch if i is not None and t is None]
        if not indexes:
            return [t for *_rest, t in batch]
        lowest = min(indexes)
        (users,) = db.execute("SELECT COUNT(*) FROM archive WHERE session_key = ? AND role = 'user' AND idx < ?",
                              (session_key, lowest)).fetchone()
        by_index = sorted((i, role) for _d, role, _m, i, _t in batch if i is not None)
        turn_at: dict[int, int] = {}
        for i, role in by_index:
            users += role == "user"
            turn_at[i] = users
        return [t if t is not None else (turn_at[i] if i is not None else None) for _d, _r, _m, i, t in batch]

    def archived(self, session_key: str, digest_prefix: str | None = None) -> list[dict[str, Any]]:
        """Archived messages of a session, oldest first (optionally those whose digest starts so)."""
        query = "SELECT digest, role, message FROM archive WHERE session_key = ?"
        args: list[Any] = [session_key]
        if digest_prefix:  # a literal prefix: LIKE would read '_' and '%' as wildcards
            query += " AND substr(digest, 1, length(?)) = ?"
            args += [digest_prefix, digest_prefix]
        with self._using("read the archive") as db:
            rows = db.execute(query + " ORDER BY id", args).fetchall()
        return [{"digest": d, "role": r, "message": json.loads(m)} for d, r, m in rows]

    def index_pending(self, stop: Callable[[], bool] | None = None) -> int:
        """Bring the full-text index up to date with the archive (or until ``stop()`` says so, checked
        between batches); returns how many rows it added."""
        with self._using("index the archive") as db:
            with _batch_cache(db):
                return fts.index_pending(db, stop=stop)

    def pending(self) -> int:
        """How many archived rows the full-text index has not taken in yet (an upper bound: rows
        retention deleted before the index took them in are still counted)."""
        with self._using("read the archive", flush=False) as db:  # rows owed count, unwritten
            owed = sum(count for _key, _rows, count, _views in self._deferred)
            (upto,) = db.execute("SELECT value FROM meta WHERE key = 'fts_upto'").fetchone()
            # Row ids only grow, and rows past the index's mark are never deleted before it takes them
            # in: the highest id less the mark is their number, without reading the rows.
            (top,) = db.execute("SELECT max(id) FROM archive").fetchone()
            return max(0, int(top or 0) - int(upto)) + owed

    def search(self, query: str, session: str | None = None, limit: int = 5) -> list[Hit]:
        """The best BM25 matches for any of the query's words, in one session or all of them.

        The query is plain words: FTS5 syntax in it is searched for, never obeyed. A query with no
        words raises InputError. On a store that cannot be written, rows not indexed yet are missed
        (with a warning) rather than the search failing.
        """
        if limit <= 0:
            raise fts.InputError(f"limit {limit}: give a number of results above 0")
        try:
            self.index_pending()
        except StoreError as exc:
            logger.warning("store.search_index_stale", path=self.path, error=str(exc))
        with self._using("search the archive") as db:
            return fts.search(db, query, session, limit)

    def fetch(self, ref: Ref, offset: int = 0, limit_chars: int = 8000) -> Original | None:
        """An archived message by row id or ``(session, index)``, with the page of its text that
        starts at ``offset``; None when there is no such message."""
        with self._using("read the archive") as db:
            return fts.fetch(db, ref, offset, limit_chars)

    def sessions(self) -> list[SessionInfo]:
        """The archived sessions, most recently archived first."""
        with self._using("list the archive") as db:
            rows = db.execute("SELECT session_key, COUNT(*), SUM(length(message)), MIN(archived_at), MAX(archived_at) "
                              "FROM archive GROUP BY session_key ORDER BY MAX(archived_at) DESC, session_key").fetchall()
        return [SessionInfo(*row) for row in rows]

    def size_bytes(self) -> int:
        """The store's size on disk: the database file and its WAL (pages in use for ':memory:')."""
        if self.path == ":memory:":
            with self._using("measure the store") as db:
                return int(db.execute("PRAGMA page_count").fetchone()[0] * db.execute("PRAGMA page_size").fetchone()[0])
        return sum(os.path.getsize(p) for p in (self.path, f"{self.path}-wal") if os.path.exists(p))

    def prune(self, retention: Retention) -> int:
        """Apply ``retention``: sessions idle past ``max_days`` go, then the oldest sessions' messages
        until the archive fits ``max_mb``; the space goes back to the disk. Returns rows removed."""
        with self._using("prune the archive") as db:
            with _batch_cache(db):
                removed = fts.prune(db, retention.max_mb, retention.max_days, time.time())
        if removed:
            logger.info("store.pruned", path=self.path, rows=removed, size_bytes=self.size_bytes())
        return removed


# What a damaged file's rows are copied by, per table: its columns in every schema version.
_SALVAGED = {"summaries": "key, text, summarizer, created, last_used", "sessions": "session_key, state, updated",
             "calibration": "model, ratio, samples, updated",
             "archive": "id, session_key, digest, role, message, archived_at"}


@contextmanager
def _batch_cache(db: sqlite3.Connection) -> Iterator[None]:
    """Room in the page cache for one batch (a cold compaction's rows are written without spilling), given
    back after it: a cache kept at the batch's size fills as the archive grows and stays full, and a
    gateway's memory never settled (issue 21). Pages read again come from the OS's file cache."""
    db.execute(f"PRAGMA cache_size=-{BATCH_CACHE_KIB}")
    try:
        yield
    finally:
        db.execute(f"PRAGMA cache_size=-{STEADY_CACHE_KIB}")  # frees the pages above it


def _salvage(aside: str, into: sqlite3.Connection) -> dict[str, int]:
    """Copy every row still readable in a damaged file into the new store; returns counts per table."""
    copied: dict[str, int] = {}
    try:
        old = sqlite3.connect(aside, isolation_level=None)
    except sqlite3.Error:
        return copied
    try:
        columns = _SALVAGED | {"archive": _SALVAGED["archive"] + _archive_v1_columns(old)}
        for table, cols in columns.items():
            rows = list(_readable(old, table, cols))
            into.execute("BEGIN IMMEDIATE")
            into.executemany(f"INSERT OR IGNORE INTO {table}({cols}) VALUES ({','.join('?' * (cols.count(',') + 1))})",
                             rows)
            into.execute("COMMIT")
            copied[f"salvaged_{table}"] = len(rows)
    finally:
        old.close()
    return copied


def _archive_v1_columns(db: sqlite3.Connection) -> str:
    try:
        have = {row[1] for row in db.execute("PRAGMA table_info(archive)")}
    except sqlite3.Error:
        return ""
    return ", idx, turn, tool" if {"idx", "turn", "tool"} <= have else ""


def _readable(db: sqlite3.Connection, table: str, cols: str, tries: int = 64) -> Iterator[tuple[Any, ...]]:
    """The rows of ``table`` in rowid order, stepping over damaged stretches (further each time)."""
    last, step = 0, 1  # our tables' rowids start at 1
    for _ in range(tries):
        try:
            for row in db.execute(f"SELECT rowid, {cols} FROM {table} WHERE rowid > ? ORDER BY rowid", (last,)):
                last, step = row[0], 1
                yield tuple(row[1:])
            return
        except sqlite3.Error:
            last, step = last + step, step * 2


# One encoder for every archived message: json.dumps with options builds a new one per call, a
# quarter of the time a cold compaction spends writing its fold.
_MESSAGE_JSON = json.JSONEncoder(ensure_ascii=False, default=str)


def _row(item: tuple[Any, ...]) -> tuple[str, str, Any, int | None, int | None]:
    if not 3 <= len(item) <= 5:
        raise StoreError(f"an archive row has {len(item)} fields: give (digest, role, message[, index[, turn]])")
    index = item[3] if len(item) > 3 else None
    turn = item[4] if len(item) > 4 else None
    if index is not None and (not isinstance(index, int) or index < 0):
        raise StoreError(f"archive row {item[0]!r}: index {index!r} is not a position in the history (an int >= 0)")
    return (str(item[0]), str(item[1]), item[2], index, turn)


def _prepare(path: Path) -> None:
    """Create the folder 0700 and the file 0600 (tightening ones we own), before SQLite opens it."""
    folder = path.parent
    if os.path.islink(path):
        _check_link(path)
    if os.path.exists(path) and not os.path.isfile(path):
        raise StoreError(f"{path}: is not a file (point the store at a file path)", path=str(path))
    if not folder.exists():
        # Another process opening the same new store may create it first (exist_ok): it is as good as ours.
        folder.mkdir(parents=True, mode=0o700, exist_ok=True)
        _tighten(folder, 0o700)  # mkdir's mode passes through the umask
    elif folder.name == "context-compactor" and _ours(folder):  # never chmod a shared folder like /tmp
        _tighten(folder, 0o700)
    if not os.path.exists(path):
        if not os.access(folder, os.W_OK):
            raise PermissionError(13, "its folder is not writable")
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY | os.O_NOFOLLOW, 0o600))


def _tighten_files(path: Path) -> None:
    """Make the store's files 0600 (it holds whole conversations): only ones we own, never through a link."""
    for suffix in ("", "-wal", "-shm"):
        part = Path(f"{path}{suffix}")
        if not os.path.islink(part) and os.path.exists(part) and _ours(part):
            _tighten(part, 0o600)


# The tables a store of ours may hold (any schema version); anything else is another program's database.
_OUR_TABLES = frozenset({"summaries", "sessions", "calibration", "archive", "meta"})


def _foreign_tables(db: sqlite3.Connection) -> list[str]:
    names = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")]
    return sorted(n for n in names if n not in _OUR_TABLES and not n.startswith(("archive_", "sqlite_")))


def _refuse_foreign(db: sqlite3.Connection, path: str) -> None:
    """Raise StoreError when the file is a SQLite database of another program: adding our tables,
    switching its journal to WAL or setting its user_version would change a file that is not ours."""
    if path == ":memory:":
        return
    foreign = _foreign_tables(db)
    if foreign:
        raise StoreError(f"{path}: is another program's SQLite database (tables {', '.join(foreign[:5])}); it was "
                         "left unchanged: point --store/storePath at a file of its own", path=path)


def _connect_read_only(path: str) -> sqlite3.Connection:
    """A read-only connection: ``mode=ro``, else (a WAL file whose ``-shm`` cannot be made: a read-only
    copy, or a folder we may not write) ``immutable=1``, which reads the file as it is on disk."""
    failure: sqlite3.Error | None = None
    for extra in ("", "&immutable=1"):
        try:
            db = sqlite3.connect(f"file:{_uri_path(path)}?mode=ro{extra}", uri=True, timeout=30,
                                 check_same_thread=False, isolation_level=None)
        except sqlite3.Error as exc:
            failure = exc
            continue
        try:
            db.execute("PRAGMA busy_timeout=30000")
            _refuse_foreign(db, path)  # the first read: where a missing -shm shows
            version = db.execute("PRAGMA user_version").fetchone()[0]
        except sqlite3.Error as exc:
            db.close()
            failure = exc
            continue
        except BaseException:
            db.close()
            raise
        if version != SCHEMA_VERSION:
            db.close()
            newer = "a newer context-compactor; upgrade this one" if version > SCHEMA_VERSION else \
                "an older context-compactor; open it once with write access (any command that writes) to upgrade it"
            raise StoreError(f"{path}: cannot read the store as it is: it was written by {newer}", path=path)
        return db
    assert failure is not None
    raise _store_error(failure, path, "read the store")


def _check_link(path: Path) -> None:
    """A store path that is a symlink is followed only to a store of ours; anything else is refused
    (it was written, chmod'ed or set aside as damaged wherever the link pointed)."""
    target = os.path.realpath(path)
    refuse = f"{path}: is a symlink to {target}, which is not a context-compactor store"
    if not os.path.isfile(target):
        raise StoreError(f"{refuse} (it does not exist); remove the link, or point --store/storePath at a file",
                         path=str(path))
    try:
        db = sqlite3.connect(f"file:{_uri_path(target)}?mode=ro", uri=True, isolation_level=None)
        try:
            ours = not _foreign_tables(db) and db.execute(
                "SELECT 1 FROM sqlite_master WHERE name = 'archive'").fetchone() is not None
        finally:
            db.close()
    except sqlite3.Error:
        ours = False
    if not ours:
        raise StoreError(f"{refuse}; it was left unchanged: remove the link, or point --store/storePath at a "
                         "file of its own", path=str(path))


def _uri_path(path: str) -> str:
    """``path`` for a ``file:`` URI: characters URIs give a meaning to are escaped."""
    from urllib.parse import quote

    return quote(os.path.abspath(path), safe="/")


def _tighten(path: Path, mode: int) -> None:
    """chmod, where another process may have removed the file meanwhile (SQLite's -wal and -shm come and go)."""
    try:
        os.chmod(path, mode)
    except FileNotFoundError:
        pass


def _ours(path: Path) -> bool:
    try:
        st = path.stat()
    except OSError:
        return False
    return st.st_uid == os.geteuid() and st.st_mode & 0o077 != 0


def _migrate(db: sqlite3.Connection, path: str) -> None:
    """Take the file to :data:`SCHEMA_VERSION`, one migration at a time, in one transaction."""
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if version == SCHEMA_VERSION:
        return
    if version > SCHEMA_VERSION:
        raise StoreError(f"{path}: written by a newer context-compactor (schema {version}; this one reads up to "
                         f"{SCHEMA_VERSION}); upgrade context-compactor, or point --store/storePath elsewhere",
                         path=path)
    db.execute("BEGIN IMMEDIATE")
    try:
        version = db.execute("PRAGMA user_version").fetchone()[0]  # another process may have done it
        fresh = not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'archive'").fetchone()
        if version == 0:
            for statement in LEGACY_SCHEMA.split(";"):
                if statement.strip():
                    db.execute(statement)
        for step in MIGRATIONS[version:]:
            step(db)
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    if version < SCHEMA_VERSION and not fresh:
        logger.info("store.migrated", path=path, from_version=version, to_version=SCHEMA_VERSION)


def _enable_wal(db: sqlite3.Connection, patience: float = 30.0) -> None:
    """Switch to WAL, waiting out other processes that open the same new file at the same moment.

    Changing the journal mode needs an exclusive lock, and SQLite answers "database is locked"
    at once, without its busy handler, while another connection is doing the same; so retry.
    """
    deadline = time.monotonic() + patience
    while True:
        try:
            if db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                db.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


def _damaged(exc: sqlite3.Error) -> bool:
    """Whether an error says the file itself is damaged: SQLITE_CORRUPT, SQLITE_NOTADB, a failed check.

    Anything else (busy, locked, full, read-only, a schema error from a release we do not know)
    says nothing against the file, and setting it aside would lose or break a good archive.
    """
    if isinstance(exc, _Damaged):
        return True
    code = getattr(exc, "sqlite_errorcode", None)  # Python 3.11+: the extended result code
    if code is not None:
        return (code & 0xFF) in (_CORRUPT, _NOTADB)
    text = str(exc).lower()
    return "malformed" in text or "not a database" in text


def _store_error(exc: sqlite3.Error, path: str, doing: str) -> StoreError:
    """One line that says what failed, where, and what to do about it."""
    code = (getattr(exc, "sqlite_errorcode", None) or 0) & 0xFF
    text = str(exc).lower()
    folder = os.path.dirname(os.path.abspath(path)) if path != ":memory:" else ""
    if code == _FULL or "disk is full" in text or (code == _IOERR and folder and _free_mb(folder) < 1):
        msg = (f"{path}: the disk is full (could not {doing}; {_free_mb(folder):.1f} MB free in {folder}): "
               "free some space, or lower archiveMaxMb")
    elif code == _READONLY or "readonly" in text or "read-only" in text:
        msg = (f"{path}: the store is read-only (could not {doing}): the file, its folder or its filesystem does "
               "not accept writes; make it writable, or point --store/storePath at a writable place")
    elif code == _CANTOPEN and folder and not os.access(folder, os.W_OK):
        msg = (f"{path}: cannot {doing}: the folder {folder} is not writable; make it writable, or point "
               "--store/storePath at a writable place")
    elif code in (5, 6) or "locked" in text:
        msg = f"{path}: cannot {doing}: another process holds the database locked ({exc}); try again"
    else:
        msg = f"{path}: cannot {doing}: {exc}"
    return StoreError(msg, path=path)


def _free_mb(folder: str) -> float:
    try:
        st = os.statvfs(folder)
    except OSError:
        return float("inf")
    return st.f_bavail * st.f_frsize / 1e6


def store_path_for(flag: str | Path | None, configured: str | None, fallback: str | Path | None = None) -> str:
    """Where a command keeps its store: ``--store`` (``flag``), else ``storePath`` (``configured``: the
    settings' value, from ``--config`` or ``$CONTEXT_COMPACTOR_STORE_PATH``), else ``fallback`` (default:
    :func:`default_store_path`). One rule for every command, so no source is ignored by one of them."""
    chosen = flag or configured or fallback or default_store_path()
    return str(chosen)


def default_store_path() -> Path:
    """``$OPENCLAW_STATE_DIR`` (else ``~/.openclaw``) ``/context-compactor/store.sqlite``."""
    home = os.environ.get("OPENCLAW_STATE_DIR") or os.path.join(os.path.expanduser("~"), ".openclaw")
    return Path(home) / "context-compactor" / "store.sqlite"
