"""The exceptions of context-compactor.

    CompactorError            base class; every error we raise on purpose
    ├── ConfigError           a setting is missing, malformed or out of range (carries ``key``)
    ├── InputError            a conversation handed to us has the wrong shape (carries ``where``)
    ├── StoreError            the SQLite store could not be opened or written (carries ``path``)
    └── SummarizerError       a summary model failed or answered badly (carries ``summarizer``)

Errors from libraries (``httpx.HTTPError``, ``sqlite3.Error``, ``json.JSONDecodeError``) are
converted at the boundary where they occur, so callers only ever catch ``CompactorError``.
"""

from __future__ import annotations


class CompactorError(Exception):
    """Base class of every error context-compactor raises on purpose."""


class ConfigError(CompactorError):
    """A setting is missing, malformed or out of range."""

    def __init__(self, message: str, *, key: str | None = None) -> None:
        super().__init__(message)
        self.key = key


class InputError(CompactorError):
    """A conversation handed to us does not have the shape we need; ``where`` locates it."""

    def __init__(self, message: str, *, where: str | None = None) -> None:
        super().__init__(f"{where}: {message}" if where else message)
        self.where = where


class StoreError(CompactorError):
    """The SQLite store could not be opened, read or written."""

    def __init__(self, message: str, *, path: str | None = None) -> None:
        super().__init__(message)
        self.path = path


class SummarizerError(CompactorError):
    """A summarizer failed: refused connection, timeout, HTTP error, bad output."""

    def __init__(self, message: str, *, summarizer: str | None = None) -> None:
        super().__init__(message)
        self.summarizer = summarizer
