"""The store's SQLite engine: one file per gateway home, safe for several processes on one host (WAL).

The file is 0600 in a 0700 folder: it holds whole conversations (``store_sqlite_files.py`` keeps it
so, and sets a damaged file aside with what is readable of it salvaged). Its schema and migrations
are ``store_sqlite_schema.py``. Retention (``archiveMaxMb``, ``archiveMaxDays``) drops the oldest
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
from .store_contract import MESSAGE_JSON, Retention, SessionInfo, Store, StoreClosed, archive_row
from .store_sqlite_files import (
    Damaged,
    check_link,
    connect_read_only,
    damaged,
    prepare,
    refuse_foreign,
    salvage,
    store_error,
    tighten_files,
)
from .store_sqlite_schema import enable_wal, migrate

logger = get_logger()

QUICK_CHECK_MAX_BYTES = 256 << 20  # larger files skip the full-page check at open (it reads every page)
STEADY_CACHE_KIB = 2048  # the page cache between batches (SQLite's own default size)
BATCH_CACHE_KIB = 16384  # during a batch: a cold compaction's rows are written without spilling


class SQLiteStore(Store):
    """Thread-safe access to the SQLite store; open with :meth:`Store.open`."""

    def __init__(self, path: str | Path, *, max_entries: int = 20000, read_only: bool = False) -> None:
        self.path = str(path)
        self.max_entries = max_entries
        self.read_only = read_only
        self._lock = threading.RLock()
        self._clock = 0.0
        self.closed = False
        self._db = connect_read_only(self.path) if read_only else self._connect()
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
            prepare(Path(path))
            store = cls(path, max_entries=max_entries)
        except sqlite3.Error as exc:
            if not damaged(exc):
                raise store_error(exc, str(path), "open the store") from exc
            store = cls._rebuild(path, max_entries, exc)
        except OSError as exc:
            raise StoreError(f"{path}: cannot create the store: {exc.strerror} (check that its folder "
                             f"{Path(path).parent} is writable, or point --store/storePath elsewhere)",
                             path=str(path)) from exc
        tighten_files(Path(path))  # only now: the file is our store, not another program's
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
            check_link(Path(path))
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
            prepare(Path(path))
            store = cls(path, max_entries=max_entries)
        except OSError as move:
            raise StoreError(f"{path}: the store is damaged ({exc}) and cannot be moved aside: {move.strerror}",
                             path=str(path)) from exc
        except sqlite3.Error as again:
            raise store_error(again, str(path), "create the store") from again
        copied = salvage(aside, store._db)
        logger.warning("store.rebuilt", path=str(path), moved_to=aside, error=str(exc), **copied)
        return store

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=30, check_same_thread=False, isolation_level=None)
        try:
            db.execute("PRAGMA busy_timeout=30000")
            refuse_foreign(db, self.path)  # before page size, WAL or tables change anything in it
            if not db.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchone():  # these only take before the first table
                # Archived messages run to kilobytes: on 4 KiB pages most spill into overflow chains,
                # and writing a cold compaction's 3,000 of them took three times as long.
                db.execute("PRAGMA page_size=16384")  # before auto_vacuum, which fixes the page size
                db.execute("PRAGMA auto_vacuum=INCREMENTAL")
            if self.path != ":memory:":
                enable_wal(db)
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute(f"PRAGMA cache_size=-{STEADY_CACHE_KIB}")  # a batch gets more: _batch_cache
            if self.path == ":memory:" or os.path.getsize(self.path) <= QUICK_CHECK_MAX_BYTES:
                ok = db.execute("PRAGMA quick_check").fetchone()
                if not ok or ok[0] != "ok":
                    raise Damaged(f"integrity check failed: {ok[0] if ok else 'no answer'}")
            migrate(db, self.path)
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
                    raise store_error(exc, self.path, doing) from exc
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
        batch = [archive_row(item) for item in items]
        if not batch:
            return 0
        now = time.time()
        tools = fts.tools_of([message for _d, _r, message, _i, _t in batch], views)
        # Before the lock; a lone surrogate a host let through is repaired, never a failed write.
        texts = [repaired_text(MESSAGE_JSON.encode(message)) for _d, _r, message, _i, _t in batch]
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
