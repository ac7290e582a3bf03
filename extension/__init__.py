"""context-compactor: keeps a long agent conversation inside the model's context window.

The host (an OpenClaw gateway, the OpenAI-compatible gateway in :mod:`context_compactor.gateway`,
or any Python program with a pluggy plugin manager) calls the hooks declared in
:mod:`context_compactor.hookspecs`; the engine in :mod:`context_compactor.engine` decides what
the model is sent. The chat history itself is never changed.
"""

from __future__ import annotations

__version__ = "0.1.0"

PROJECT = "openclaw"  # pluggy project name, shared with OpenClaw-style hosts
ENTRY_POINT_GROUP = "openclaw.extensions"
LOGGER = "context_compactor"
