"""The store: one SQLite file per gateway home, safe for several processes (WAL).

    summaries(key, text, summarizer, created, last_used)   bounded; least recently used go first
    sessions(session_key, state, updated)                   JSON: last compaction, stats, anchor
    calibration(model, ratio, samples, updated)             chars-per-token learned per model
    archive(id, session_key, digest, role, message, archived_at)
                                                            append-only: every message that leaves
                                                            the prompt, written before it leaves

A file that is not a database, or is damaged, is set aside (``<name>.corrupt-<time>``) with a
warning and a new one is built: losing a cache never stops a conversation.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import structlog

from .errors import StoreError

logger = structlog.get_logger("context_compactor")

SCHEMA = """
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


class Store:
    """Thread-safe access to the SQLite store; open with :meth:`open`."""

    def __init__(self, path: str | Path, *, max_entries: int = 20000) -> None:
        self.path = str(path)
        self.max_entries = max_entries
        self._lock = threading.RLock()
        self._clock = 0.0
        self._db = self._connect()

    @classmethod
    def open(cls, path: str | Path, *, max_entries: int = 20000) -> Store:
        """Open (or create) the store at ``path``; a damaged file is set aside and rebuilt.

        Only a regular file that SQLite cannot open or read as a sound database is set aside. A
        folder in the way, a database another process holds locked, or a full disk is reported
        (StoreError) and left alone: moving a live WAL database away from its other users would
        break them.
        """
        if str(path) == ":memory:":
            try:
                return cls(path, max_entries=max_entries)
            except sqlite3.Error as exc:
                raise StoreError(f"cannot open an in-memory store: {exc}") from exc
        try:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            if os.path.exists(path) and not os.path.isfile(path):
                raise StoreError(f"{path}: is not a file (point the store at a file path)", path=str(path))
            return cls(path, max_entries=max_entries)
        except sqlite3.Error as exc:
            if not _damaged(exc):
                raise StoreError(f"{path}: cannot open the store: {exc} (check the folder is writable and "
                                 "that no other process holds the database locked)", path=str(path)) from exc
            return cls._rebuild(path, max_entries, exc)
        except OSError as exc:
            raise StoreError(f"{path}: cannot create the store's folder: {exc.strerror}", path=str(path)) from exc

    @classmethod
    def _rebuild(cls, path: str | Path, max_entries: int, exc: sqlite3.Error) -> Store:
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
        except OSError as move:
            raise StoreError(f"{path}: the store is damaged ({exc}) and cannot be moved aside: {move.strerror}",
                             path=str(path)) from exc
        logger.warning("store.rebuilt", path=str(path), moved_to=aside, error=str(exc))
        try:
            return cls(path, max_entries=max_entries)
        except sqlite3.Error as again:
            raise StoreError(f"{path}: cannot create the store: {again}", path=str(path)) from again

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=30, check_same_thread=False, isolation_level=None)
        try:
            db.execute("PRAGMA busy_timeout=30000")
            if self.path != ":memory:":
                _enable_wal(db)
            db.execute("PRAGMA synchronous=NORMAL")
            ok = db.execute("PRAGMA quick_check").fetchone()
            if not ok or ok[0] != "ok":
                raise sqlite3.DatabaseError(f"integrity check failed: {ok}")
            db.executescript(SCHEMA)
        except Exception:
            db.close()
            raise
        return db

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # --- summaries ---------------------------------------------------------------------------

    def _now(self) -> float:
        """Wall-clock time, strictly increasing within this store, so recency never ties."""
        self._clock = max(time.time(), self._clock + 1e-6)
        return self._clock

    def get(self, key: str) -> str | None:
        with self._lock:
            row = self._db.execute("SELECT text FROM summaries WHERE key = ?", (key,)).fetchone()
            if row is not None:
                self._db.execute("UPDATE summaries SET last_used = ? WHERE key = ?", (self._now(), key))
        return row[0] if row else None

    def put(self, key: str, text: str, summarizer: str) -> None:
        """Store a summary; the cache never holds more than ``max_entries`` afterwards."""
        with self._lock:
            now = self._now()
            self._db.execute(
                "INSERT INTO summaries(key, text, summarizer, created, last_used) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT(key) DO UPDATE SET text = excluded.text, last_used = excluded.last_used",
                (key, text, summarizer, now, now),
            )
            # Puts are rare (one per new chunk summary), so the bound is kept exactly, every time.
            self.evict()

    def evict(self) -> int:
        """Drop the least recently used summaries above ``max_entries``; returns how many."""
        with self._lock:
            (count,) = self._db.execute("SELECT COUNT(*) FROM summaries").fetchone()
            extra = count - self.max_entries
            if extra <= 0:
                return 0
            self._db.execute(
                "DELETE FROM summaries WHERE key IN (SELECT key FROM summaries ORDER BY last_used, key LIMIT ?)",
                (extra,),
            )
            return int(extra)

    def summary_count(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM summaries").fetchone()[0])

    # --- sessions and calibration --------------------------------------------------------------

    def session(self, session_key: str) -> dict[str, Any]:
        with self._lock:
            row = self._db.execute("SELECT state FROM sessions WHERE session_key = ?", (session_key,)).fetchone()
        if not row:
            return {}
        try:
            state = json.loads(row[0])
        except ValueError:
            logger.warning("store.session_unreadable", session_key=session_key)
            return {}
        return state if isinstance(state, dict) else {}

    def save_session(self, session_key: str, state: dict[str, Any]) -> None:
        with self._lock:
            self._db.execute(
                "INSERT INTO sessions(session_key, state, updated) VALUES (?, ?, ?) "
                "ON CONFLICT(session_key) DO UPDATE SET state = excluded.state, updated = excluded.updated",
                (session_key, json.dumps(state, sort_keys=True), time.time()),
            )

    def calibration(self, model: str) -> tuple[float, int] | None:
        with self._lock:
            row = self._db.execute("SELECT ratio, samples FROM calibration WHERE model = ?", (model,)).fetchone()
        return (float(row[0]), int(row[1])) if row else None

    def save_calibration(self, model: str, ratio: float, samples: int) -> None:
        with self._lock:
            self._db.execute(
                "INSERT INTO calibration(model, ratio, samples, updated) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(model) DO UPDATE SET ratio = excluded.ratio, samples = excluded.samples, "
                "updated = excluded.updated",
                (model, ratio, samples, time.time()),
            )

    # --- archive --------------------------------------------------------------------------------

    def archive(self, session_key: str, items: Iterable[tuple[str, str, Any]]) -> int:
        """Append (digest, role, message) rows for a session; returns how many were new."""
        now = time.time()
        rows = [(session_key, d, role, json.dumps(msg, ensure_ascii=False, default=str), now) for d, role, msg in items]
        if not rows:
            return 0
        with self._lock:
            before = self._db.total_changes
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.executemany(
                    "INSERT OR IGNORE INTO archive(session_key, digest, role, message, archived_at) VALUES (?, ?, ?, ?, ?)",
                    rows,
                )
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            return self._db.total_changes - before

    def archived(self, session_key: str, digest_prefix: str | None = None) -> list[dict[str, Any]]:
        """Archived messages of a session, oldest first (optionally those whose digest starts so)."""
        query = "SELECT digest, role, message FROM archive WHERE session_key = ?"
        args: list[Any] = [session_key]
        if digest_prefix:  # a literal prefix: LIKE would read '_' and '%' as wildcards
            query += " AND substr(digest, 1, length(?)) = ?"
            args += [digest_prefix, digest_prefix]
        with self._lock:
            rows = self._db.execute(query + " ORDER BY id", args).fetchall()
        return [{"digest": d, "role": r, "message": json.loads(m)} for d, r, m in rows]


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
            if _damaged(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


# Errors that say nothing about the file itself: setting the store aside would not help, and for a
# database that another process holds (busy, locked) it would pull a live file from under it.
# SQLite's primary result codes BUSY, LOCKED, NOMEM, INTERRUPT, IOERR, FULL (numbers: the sqlite3
# module names them only from Python 3.11).
_TRANSIENT = {5, 6, 7, 9, 10, 13}
_TRANSIENT_WORDS = ("locked", "busy", "disk i/o", "out of memory", "disk is full", "interrupted")


def _damaged(exc: sqlite3.Error) -> bool:
    """Whether an error says the file is damaged or unreadable (not busy, locked, or out of space)."""
    code = getattr(exc, "sqlite_errorcode", None)  # Python 3.11+: the extended result code
    if code is not None:
        return (code & 0xFF) not in _TRANSIENT
    return not any(word in str(exc).lower() for word in _TRANSIENT_WORDS)


def default_store_path() -> Path:
    """``$OPENCLAW_STATE_DIR`` (else ``~/.openclaw``) ``/context-compactor/store.sqlite``."""
    home = os.environ.get("OPENCLAW_STATE_DIR") or os.path.join(os.path.expanduser("~"), ".openclaw")
    return Path(home) / "context-compactor" / "store.sqlite"
