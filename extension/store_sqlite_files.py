"""The SQLite engine's file: created 0700/0600 and kept so, links followed only to a store of ours,
another program's database refused, damage told from other errors (and what is readable of a damaged
file salvaged), and SQLite's errors said as one line that names the fix.

Only a file SQLite calls damaged (SQLITE_CORRUPT, SQLITE_NOTADB, or a failed quick check) is set aside
(``<name>.corrupt-<time>``, by ``SQLiteStore``), and every row still readable in it is copied into the
new store (:func:`salvage`).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from . import store_sqlite_schema as schema
from .errors import StoreError

_CORRUPT, _NOTADB, _FULL, _READONLY, _CANTOPEN, _IOERR = 11, 26, 13, 8, 14, 10


class Damaged(sqlite3.DatabaseError):
    """The quick check found damage that SQLite did not raise by itself."""


# What a damaged file's rows are copied by, per table: its columns in every schema version.
_SALVAGED = {"summaries": "key, text, summarizer, created, last_used", "sessions": "session_key, state, updated",
             "calibration": "model, ratio, samples, updated",
             "archive": "id, session_key, digest, role, message, archived_at"}



def salvage(aside: str, into: sqlite3.Connection) -> dict[str, int]:
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


def prepare(path: Path) -> None:
    """Create the folder 0700 and the file 0600 (tightening ones we own), before SQLite opens it."""
    folder = path.parent
    if os.path.islink(path):
        check_link(path)
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


def tighten_files(path: Path) -> None:
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


def refuse_foreign(db: sqlite3.Connection, path: str) -> None:
    """Raise StoreError when the file is a SQLite database of another program: adding our tables,
    switching its journal to WAL or setting its user_version would change a file that is not ours."""
    if path == ":memory:":
        return
    foreign = _foreign_tables(db)
    if foreign:
        raise StoreError(f"{path}: is another program's SQLite database (tables {', '.join(foreign[:5])}); it was "
                         "left unchanged: point --store/storePath at a file of its own", path=path)


def connect_read_only(path: str) -> sqlite3.Connection:
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
            refuse_foreign(db, path)  # the first read: where a missing -shm shows
            version = db.execute("PRAGMA user_version").fetchone()[0]
        except sqlite3.Error as exc:
            db.close()
            failure = exc
            continue
        except BaseException:
            db.close()
            raise
        if version != schema.SCHEMA_VERSION:
            db.close()
            newer = "a newer context-compactor; upgrade this one" if version > schema.SCHEMA_VERSION else \
                "an older context-compactor; open it once with write access (any command that writes) to upgrade it"
            raise StoreError(f"{path}: cannot read the store as it is: it was written by {newer}", path=path)
        return db
    assert failure is not None
    raise store_error(failure, path, "read the store")


def check_link(path: Path) -> None:
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


def damaged(exc: sqlite3.Error) -> bool:
    """Whether an error says the file itself is damaged: SQLITE_CORRUPT, SQLITE_NOTADB, a failed check.

    Anything else (busy, locked, full, read-only, a schema error from a release we do not know)
    says nothing against the file, and setting it aside would lose or break a good archive.
    """
    if isinstance(exc, Damaged):
        return True
    code = getattr(exc, "sqlite_errorcode", None)  # Python 3.11+: the extended result code
    if code is not None:
        return (code & 0xFF) in (_CORRUPT, _NOTADB)
    text = str(exc).lower()
    return "malformed" in text or "not a database" in text


def store_error(exc: sqlite3.Error, path: str, doing: str) -> StoreError:
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
