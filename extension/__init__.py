"""context-compactor: keeps a long agent conversation inside the model's context window.

The host (an OpenClaw gateway, the OpenAI-compatible gateway in :mod:`context_compactor.gateway`,
or any Python program with a pluggy plugin manager) calls the hooks declared in
:mod:`context_compactor.hookspecs`; the engine in :mod:`context_compactor.engine` decides what
the model is sent. The chat history itself is never changed.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

PROJECT = "openclaw"  # pluggy project name, shared with OpenClaw-style hosts
ENTRY_POINT_GROUP = "openclaw.extensions"


def ensure_logging() -> None:
    """Send our structlog lines to the standard ``logging`` logger ``context_compactor``, unless an
    entry point (the CLI, ``serve``, the bridge) or the program itself configured structlog.

    structlog's own default prints to stdout, which would mix our log lines into a library caller's
    output. Called at import and by the API's entry points (a program may reset structlog)."""
    import structlog

    if structlog.is_configured():
        return
    structlog.configure(
        processors=[structlog.stdlib.filter_by_level, structlog.processors.format_exc_info, _render],
        wrapper_class=structlog.stdlib.BoundLogger,
        logger_factory=structlog.stdlib.LoggerFactory(),
        cache_logger_on_first_use=False,
    )


def _render(_logger: Any, _name: str, event: MutableMapping[str, Any]) -> str:
    """``compaction.done tokens_before=38602 tokens_after=4585 ...``: the event name, then its fields."""
    name = event.pop("event", "")
    fields = " ".join(f"{key}={value!r}" if isinstance(value, str) else f"{key}={value}"
                      for key, value in event.items())
    return f"{name} {fields}" if fields else str(name)


ensure_logging()

if TYPE_CHECKING:
    from .api import Compactor, CompactResult, compact
    from .hookspecs import CompactionStats

_LAZY = {"compact": "api", "Compactor": "api", "CompactResult": "api", "CompactionStats": "hookspecs"}


def __getattr__(name: str) -> Any:
    """The public API, imported on first use (the hook modules import this package too, and need none of it)."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'context_compactor' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(f"{__name__}.{module}"), name)


__all__ = ["ENTRY_POINT_GROUP", "PROJECT", "CompactResult", "CompactionStats", "Compactor", "compact",
           "ensure_logging"]
