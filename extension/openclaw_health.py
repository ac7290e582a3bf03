"""The health of the OpenClaw bridge's summaries, kept where ``doctor`` can read it.

In OpenClaw the summaries come from the session model through the plugin's ``llm.complete``: an
error reaches the bridge only as the plugin's message. :func:`host_error` files it under its real
kind (a model server's 500 is a ``server_error``, not a ``timeout``), :class:`HostHealth` counts
successes and failures by kind with the last error, and writes them to
``<state>/context-compactor/summarizer-health.json`` (:data:`SUMMARIZER_HEALTH`) after each call.
The plugin writes the bridge's own life (starts, crashes, hangs, restarts) beside it,
``bridge-health.json`` (:data:`BRIDGE_HEALTH`).
"""

from __future__ import annotations

import json
import re
import threading
import time
from pathlib import Path
from typing import Any

from context_compactor.logs import get_logger
from context_compactor.summarizer import ModelError
from context_compactor.summarizer.llm import Health

logger = get_logger()

SUMMARIZER_HEALTH = "summarizer-health.json"
BRIDGE_HEALTH = "bridge-health.json"

# The kinds the HTTP summarizer files its failures under (summarizer/client.py), read from a message.
_KINDS = (
    ("timeout", re.compile(r"no answer from the plugin within|timed? ?out|timeout|deadline exceeded", re.I)),
    ("rate_limited", re.compile(r"\b429\b|rate.?limit|too many requests", re.I)),
    ("context_length", re.compile(r"context.{0,20}(length|size|window)|too many tokens|exceeds the available", re.I)),
    ("server_error", re.compile(r"\b5\d\d\b|server error|internal error|bad gateway|service unavailable|overloaded", re.I)),
    ("connection", re.compile(r"ECONNREFUSED|ECONNRESET|connection (refused|reset|error)|fetch failed|socket hang up", re.I)),
    ("client_error", re.compile(r"\b4\d\d\b|unauthori[sz]ed|forbidden|not found", re.I)),
)


def error_kind(message: str) -> str:
    """The failure's kind from the words of ``message``; ``error`` when none fits."""
    return next((kind for kind, pattern in _KINDS if pattern.search(message)), "error")


def host_error(message: str, summarizer: str) -> ModelError:
    """The plugin's ``llm.complete`` error as a :class:`ModelError` of its real kind."""
    return ModelError(message, kind=error_kind(message), summarizer=summarizer)


def health_folder() -> Path:
    """Where the store lives by default (``$OPENCLAW_STATE_DIR/context-compactor``): the health files too."""
    from context_compactor.store import default_store_path

    return default_store_path().parent


class HostHealth(Health):
    """:class:`Health` of the session model's summaries, written to :data:`SUMMARIZER_HEALTH` on every change."""

    def __init__(self, identity: str, path: Path | None = None) -> None:
        super().__init__(threshold=1 << 30)  # counted only: the session model is never paused
        self.identity = identity
        self.path = path
        self.last_kind: str | None = None
        self.last_at: str | None = None
        self._write_lock = threading.Lock()

    def failed(self, exc: BaseException) -> None:
        super().failed(exc)
        self.last_kind = getattr(exc, "kind", None) or "error"
        self.last_at = time.strftime("%Y-%m-%d %H:%M:%S")
        self._write()

    def succeeded(self) -> None:
        super().succeeded()
        self._write()

    def snapshot(self) -> dict[str, Any]:
        return {**super().snapshot(), "last_kind": self.last_kind, "last_at": self.last_at}

    def _write(self) -> None:
        record = {"summarizer": self.identity, **self.snapshot(), "updated": time.strftime("%Y-%m-%d %H:%M:%S")}
        with self._write_lock:
            try:
                path = self.path or health_folder() / SUMMARIZER_HEALTH
                path.parent.mkdir(parents=True, exist_ok=True)
                tmp = path.with_suffix(".tmp")
                tmp.write_text(json.dumps(record), encoding="utf-8")
                tmp.replace(path)
            except OSError as exc:
                logger.warning("bridge.health_not_recorded", error=str(exc))
