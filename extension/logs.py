"""Our loggers, without configuring logging for the process that imports us.

A library leaves logging to the program. ``get_logger()`` gives a structlog logger that, while
nobody has configured structlog, renders each line as ``event key=value ...`` to the standard
``logging`` logger ``context_compactor``, whose handlers and level the program sets (nothing shows
by default below WARNING, as for any library). Once structlog is configured (by our entry points:
the CLI's ``main()``, ``serve`` and the bridge, through ``setup_cli.main.configure_logging``; by the
program; or by ``structlog.testing.capture_logs()`` in a test), the lines follow that configuration
like any other structlog logger's.
"""

from __future__ import annotations

import logging
from collections.abc import MutableMapping
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
