"""Our loggers, without configuring logging for the process that imports us.

A library leaves logging to the program. ``get_logger()`` gives a structlog logger that, while
nobody has configured structlog, renders each line as ``event key=value ...`` to the standard
``logging`` logger ``context_compactor``, whose handlers and level the program sets (nothing shows
by default below WARNING, as for any library). Once structlog is configured (by our entry points:
the CLI's ``main()``, ``serve`` and the bridge, through :func:`configure_logging`; by the
program; or by ``structlog.testing.capture_logs()`` in a test), the lines follow that configuration
like any other structlog logger's.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Collection, MutableMapping
from typing import Any

import structlog

NAME = "context_compactor"  # the standard logging logger, the same word as the package and the settings prefix


def get_logger() -> Any:
    """The module-level logger of every module here (``logger = get_logger()``)."""
    return _Logger()


class _Logger:
    """Logs through structlog's configuration when there is one, else through standard logging.

    Decided at each call, so that configuring structlog later (an entry point, a test) takes effect."""

    def __init__(self) -> None:
        self._configured = structlog.get_logger(NAME)
        self._own = structlog.stdlib.BoundLogger(
            logging.getLogger(NAME),
            [structlog.stdlib.filter_by_level, structlog.processors.format_exc_info, render], {})

    def _current(self) -> Any:
        return self._configured if structlog.is_configured() else self._own

    def bind(self, **values: Any) -> Any:
        return self._current().bind(**values)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._current(), name)


def render(_logger: Any, _name: str, event: MutableMapping[str, Any]) -> str:
    """``compaction.done tokens_before=38602 tokens_after=4585 ...``: the event name, then its fields."""
    name = event.pop("event", "")
    fields = " ".join(f"{key}={value!r}" if isinstance(value, str) else f"{key}={value}"
                      for key, value in event.items())
    return f"{name} {fields}" if fields else str(name)


class _Hide:
    """A structlog processor that drops the named events."""

    def __init__(self, events: frozenset[str]) -> None:
        self.events = events

    def __call__(self, logger: Any, method: str, event: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
        if event.get("event") in self.events:
            raise structlog.DropEvent
        return event


class _Stderr:
    """Whatever ``sys.stderr`` is at the moment of writing (a test may swap it after configure())."""

    def write(self, text: str) -> int:
        return sys.stderr.write(text)

    def flush(self) -> None:
        sys.stderr.flush()


def configure_logging(level: int, *, fmt: str = "console", timestamps: bool = False, cache: bool = False,
                      hidden: Collection[str] = ()) -> None:
    """The one logging setup of every entry point (the CLI, ``serve``, the OpenClaw bridge): structlog
    lines at ``level`` and above on stderr (whatever ``sys.stderr`` is when a line is written), as console
    text or JSON (``fmt``), with ISO times when ``timestamps``. ``cache``: a long-running server keeps its
    bound loggers (faster); a CLI run in a test process must not. ``hidden``: events a command reports in
    its own output (``compact``'s verdict says ``failed: <why>``), so not printed twice."""
    renderer: Any = structlog.processors.JSONRenderer() if fmt == "json" else structlog.dev.ConsoleRenderer(colors=False)
    stamp: list[Any] = [structlog.processors.TimeStamper(fmt="iso")] if timestamps else []
    drop: list[Any] = [_Hide(frozenset(hidden))] if hidden else []
    structlog.configure(
        processors=[*drop, structlog.processors.add_log_level, *stamp, renderer],
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=structlog.PrintLoggerFactory(_Stderr()),  # type: ignore[arg-type]
        cache_logger_on_first_use=cache,
    )
