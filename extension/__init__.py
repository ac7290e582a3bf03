"""context-compactor: keeps a long agent conversation inside the model's context window.

The host (an OpenClaw gateway, the OpenAI-compatible gateway in :mod:`context_compactor.gateway`,
or any Python program with a pluggy plugin manager) calls the hooks declared in
:mod:`context_compactor.hookspecs`; the engine in :mod:`context_compactor.engine` decides what
the model is sent. The chat history itself is never changed.

Importing the package configures no logging: our lines go to the standard ``logging`` logger
``context_compactor`` (see :mod:`context_compactor.logs`); only the entry points configure.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

from .project import ENTRY_POINT_GROUP, PROJECT


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


__all__ = ["ENTRY_POINT_GROUP", "PROJECT", "CompactResult", "CompactionStats", "Compactor", "compact"]
