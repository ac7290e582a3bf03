"""The store, as everything above it imports it: the contract, the engine a path names, and where a
command keeps its store.

    store_contract.py        Store: the operations every engine implements, Retention, SessionInfo
    store_sqlite.py          SQLiteStore: one file on one host, several processes (WAL); the default
      store_sqlite_schema.py   its schema and migrations
      store_sqlite_files.py    its file: permissions, links, damage and salvage, errors that name the fix
    store_pg.py              PostgresStore: one database for several hosts (psycopg 3, imported when used)
      store_pg_schema.py       its schema and migrations, once under an advisory lock

``Store.open(path)`` (and ``Store(path)``) build the engine :func:`engine_for` names: a
``postgresql://`` URL is PostgreSQL, anything else a SQLite file.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from .archive import Hit, Original
from .errors import StoreError
from .store_contract import (
    ARCHIVE_MAX_DAYS,
    ARCHIVE_MAX_MB,
    Retention,
    SessionInfo,
    Store,
    StoreClosed,
    choose_engines,
    is_url,
)
from .store_pg import PostgresStore
from .store_sqlite import BATCH_CACHE_KIB, STEADY_CACHE_KIB, SQLiteStore

__all__ = ["ARCHIVE_MAX_DAYS", "ARCHIVE_MAX_MB", "BATCH_CACHE_KIB", "STEADY_CACHE_KIB", "Hit", "Original",
           "PostgresStore", "Retention", "SQLiteStore", "SessionInfo", "Store", "StoreClosed", "StoreError",
           "default_store_path", "engine_for", "is_url", "store_path_for"]


def engine_for(path: Any) -> type[Store]:
    """The engine class a store path names (psycopg itself is imported only when a URL is opened)."""
    return PostgresStore if is_url(str(path)) else SQLiteStore


choose_engines(engine_for)


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
