"""The SQLite engine's schema and its migrations (``PRAGMA user_version`` is the version).

    summaries(key, text, summarizer, created, last_used)   bounded; least recently used go first
    sessions(session_key, state, updated)                   JSON: last compaction, stats, anchor
    calibration(model, ratio, samples, updated)             chars-per-token learned per model
    archive(id, session_key, digest, role, message, archived_at, idx, turn, tool)
                                                            every message that leaves the prompt,
                                                            written before it leaves; ``idx`` is its
                                                            position in the session's history
    archive_fts, meta                                       the full-text index (see ``archive.py``)

:data:`MIGRATIONS` takes any earlier file to the current one in a transaction, so an upgrade keeps
the archive. The PostgreSQL engine's schema is ``store_pg_schema.py``.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable

from . import archive as fts
from .errors import StoreError
from .logs import get_logger

logger = get_logger()

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


def migrate(db: sqlite3.Connection, path: str) -> None:
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


def enable_wal(db: sqlite3.Connection, patience: float = 30.0) -> None:
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
