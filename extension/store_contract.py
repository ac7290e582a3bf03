"""The store's contract: one typed interface, two engines.

    Store                      the operations everything above the store uses (this class)
      SQLiteStore              one file on one host, embedded, the default   (``store.py``)
      PostgresStore            one database for several ``serve`` replicas   (``store_pg.py``)

``Store.open(path)`` picks the engine from the path: a ``postgresql://`` (or ``postgres://``) URL
opens PostgreSQL, anything else is a SQLite file (or ``:memory:``). Nothing above the store names an
engine: the runtime, the hooks, recall and the CLI hold a ``Store`` and call these methods. The
choice itself is ``store.py``'s, the module everything imports the store from: the engines implement
this contract, so it cannot import them; ``store.py`` names its chooser here (:func:`choose_engines`).

What every engine guarantees: a summary cache bounded to ``max_entries`` (least recently used go
first); one JSON state per session, replaced whole (never half-written); calibration per model; an
archive written before a message leaves the prompt, once per (session, digest, index); full-text
search that returns :class:`Hit` with a score where higher is better (recall re-ranks them the same
way whatever the engine); retention; and a schema that migrates itself forward, once.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from .archive import Hit, Original, Ref
from .errors import StoreError
from .messages import View

ARCHIVE_MAX_MB, ARCHIVE_MAX_DAYS = 1024.0, 180.0  # the defaults of archiveMaxMb and archiveMaxDays
URL_SCHEMES = ("postgresql://", "postgres://")
_S = TypeVar("_S", bound="Store")
_chooser: list[Callable[[Any], type[Store]]] = []  # the engine a path names: set by store.py

# One encoder for every archived message: json.dumps with options builds a new one per call, a
# quarter of the time a cold compaction spends writing its fold.
MESSAGE_JSON = json.JSONEncoder(ensure_ascii=False, default=str)


def is_url(path: str | Path | None) -> bool:
    """Whether a store path names a PostgreSQL database rather than a SQLite file."""
    return isinstance(path, str) and path.lower().startswith(URL_SCHEMES)


@dataclass(frozen=True, slots=True)
class Retention:
    """How much archive to keep: ``max_mb`` of database, ``max_days`` since a session's last
    archived message (None or 0: no limit)."""

    max_mb: float | None = ARCHIVE_MAX_MB
    max_days: float | None = ARCHIVE_MAX_DAYS

    @classmethod
    def from_settings(cls, settings: Any) -> Retention:
        """``archiveMaxMb`` / ``archiveMaxDays`` from the settings, these defaults where they are absent."""
        return cls(max_mb=getattr(settings, "archive_max_mb", ARCHIVE_MAX_MB),
                   max_days=getattr(settings, "archive_max_days", ARCHIVE_MAX_DAYS))


@dataclass(frozen=True, slots=True)
class SessionInfo:
    session: str
    messages: int
    chars: int
    first_archived: float
    last_archived: float


class StoreClosed(StoreError):
    """The store was used after :meth:`Store.close` (background work that outlived its runtime)."""


class Store(ABC):
    """The store's operations; open one with :meth:`open` (the engine follows the path)."""

    path: str  # where it is, fit to print (a URL's password is masked)
    max_entries: int
    read_only: bool
    closed: bool

    def __new__(cls: type[_S], *args: Any, **kwargs: Any) -> _S:
        if cls is Store:  # Store(path) builds the engine the path names, as Store.open does
            path = args[0] if args else kwargs.get("path", "")
            return object.__new__(_engine(path))  # type: ignore[return-value]  # an engine is a Store
        return object.__new__(cls)

    # --- opening: the engine follows the path ------------------------------------------------------

    @classmethod
    def for_settings(cls, path: str | Path, settings: Any) -> Store:
        """The store at ``path`` with the settings' cache size and archive retention."""
        return cls.open(path, max_entries=settings.cache_max_entries, retention=Retention.from_settings(settings))

    @classmethod
    def open(cls, path: str | Path, *, max_entries: int = 20000, retention: Retention | None = None) -> Store:
        """Open (or create) the store at ``path``, migrated to this release's schema; with
        ``retention``, the archive is pruned to it once opened. Raises StoreError saying why not."""
        engine = _engine(path) if cls is Store else cls
        return engine._open(path, max_entries=max_entries, retention=retention)

    @classmethod
    def open_read_only(cls, path: str | Path) -> Store:
        """The store at ``path`` for reading: nothing is created or changed. Raises StoreError when
        there is no store there, or it cannot be read as one."""
        engine = _engine(path) if cls is Store else cls
        return engine._open_read_only(path)

    @classmethod
    @abstractmethod
    def _open(cls, path: str | Path, *, max_entries: int, retention: Retention | None) -> Store: ...

    @classmethod
    @abstractmethod
    def _open_read_only(cls, path: str | Path) -> Store: ...

    @abstractmethod
    def close(self) -> None:
        """Release the store; a later use raises StoreClosed."""

    @property
    def in_memory(self) -> bool:
        """Whether nothing outlives the process (then archive rows may be written after the turn)."""
        return False

    @property
    def engine(self) -> str:
        """The engine's name, for reports (``sqlite``, ``postgresql``); never for decisions."""
        return "sqlite"

    def archive_later(self, session_key: str, rows: Callable[[], list[tuple[Any, ...]]], count: int,
                      views: Sequence[View] | None = None) -> None:
        """Archive ``rows()`` before the store is next read (an engine that keeps nothing in memory
        writes them now)."""
        self.archive(session_key, rows(), views)

    def check(self) -> str:
        """One line on the store's health for ``doctor`` and readiness; raises StoreError when it
        cannot be used."""
        self.summary_count()
        return f"{self.engine} store {self.path} answers"

    # --- the summary cache -------------------------------------------------------------------------

    @abstractmethod
    def get(self, key: str) -> str | None:
        """A cached summary (and it becomes the most recently used), or None."""

    @abstractmethod
    def put(self, key: str, text: str, summarizer: str) -> None:
        """Cache a summary; the cache never holds more than ``max_entries`` afterwards."""

    @abstractmethod
    def evict(self) -> int:
        """Drop the least recently used summaries above ``max_entries``; returns how many."""

    @abstractmethod
    def summary_count(self) -> int: ...

    # --- sessions and calibration --------------------------------------------------------------

    @abstractmethod
    def session(self, session_key: str) -> dict[str, Any]:
        """A session's saved state ({} when there is none, or it cannot be read)."""

    def load_session(self, session_key: str) -> dict[str, Any]:
        return self.session(session_key)

    @abstractmethod
    def save_session(self, session_key: str, state: dict[str, Any]) -> None:
        """Replace a session's state whole."""

    @abstractmethod
    def session_stamp(self, session_key: str) -> object:
        """A token that changes whenever any process writes the session's state (None: never saved);
        compare it for equality only, to tell whether a state held in memory is still the stored one."""

    @abstractmethod
    def calibration(self, model: str) -> tuple[float, int] | None: ...

    @abstractmethod
    def save_calibration(self, model: str, ratio: float, samples: int) -> None: ...

    # --- the archive ---------------------------------------------------------------------------

    @abstractmethod
    def archive(self, session_key: str, items: Iterable[tuple[Any, ...]], views: Sequence[View] | None = None) -> int:
        """Append rows for a session in one transaction; returns how many were new.

        A row is ``(digest, role, message)``, ``(digest, role, message, index)`` with the message's
        0-based position in the session's history, or ``(..., index, turn)``. The same message at
        the same index is stored once, however often (and by however many processes) it is written.
        """

    @abstractmethod
    def archived(self, session_key: str, digest_prefix: str | None = None) -> list[dict[str, Any]]:
        """Archived messages of a session, oldest first (optionally those whose digest starts so)."""

    @abstractmethod
    def index_pending(self, stop: Callable[[], bool] | None = None) -> int:
        """Bring the full-text index up to date; returns how many rows it added."""

    @abstractmethod
    def pending(self) -> int:
        """How many archived rows the full-text index has not taken in yet (an upper bound)."""

    @abstractmethod
    def search(self, query: str, session: str | None = None, limit: int = 5) -> list[Hit]:
        """The best matches for any of the query's words, in one session or all of them; plain words
        only (search syntax in the query is searched for, never obeyed); InputError for no words."""

    @abstractmethod
    def fetch(self, ref: Ref, offset: int = 0, limit_chars: int = 8000) -> Original | None:
        """An archived message by row id or ``(session, index)``, with a page of its text."""

    @abstractmethod
    def sessions(self) -> list[SessionInfo]:
        """The archived sessions, most recently archived first."""

    @abstractmethod
    def size_bytes(self) -> int:
        """The store's size on disk."""

    @abstractmethod
    def prune(self, retention: Retention) -> int:
        """Apply ``retention``; returns the archive rows removed."""


def choose_engines(chooser: Callable[[Any], type[Store]]) -> None:
    """Name the function that tells which engine class a store path needs (``store.py`` does, once)."""
    _chooser[:] = [chooser]


def _engine(path: Any) -> type[Store]:
    if not _chooser:
        raise StoreError("no store engines: import the store from context_compactor.store, which names them")
    return _chooser[0](path)


def archive_row(item: tuple[Any, ...]) -> tuple[str, str, Any, int | None, int | None]:
    """An archive row as ``(digest, role, message, index, turn)``, whichever form it was given in (see
    :meth:`Store.archive`); StoreError for a row of another shape or an index that is not a position."""
    if not 3 <= len(item) <= 5:
        raise StoreError(f"an archive row has {len(item)} fields: give (digest, role, message[, index[, turn]])")
    index = item[3] if len(item) > 3 else None
    turn = item[4] if len(item) > 4 else None
    if index is not None and (not isinstance(index, int) or index < 0):
        raise StoreError(f"archive row {item[0]!r}: index {index!r} is not a position in the history (an int >= 0)")
    return (str(item[0]), str(item[1]), item[2], index, turn)
