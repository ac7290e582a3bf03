"""Asking the upstream for a model's context window, once per model.

Local servers rarely say it; those that do say it in different places: vLLM's ``/v1/models``
(``max_model_len``), LM Studio and others (``context_length``, ``max_context_length``), the
llama.cpp server's ``/props`` (``n_ctx``). A server that says nothing leaves the runtime on its
default (8192) until an overflow error names the real size.
"""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import structlog

from .config import GatewayConfig

logger = structlog.get_logger("context_compactor")

PROBE_TIMEOUT = 3.0
_MODEL_KEYS = ("max_model_len", "context_length", "max_context_length", "context_window", "n_ctx")


def window_in_models(data: Any, model_id: str) -> int | None:
    """The context window a ``/v1/models`` answer states for ``model_id`` (or its only model)."""
    entries = data.get("data") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        return None
    entries = [e for e in entries if isinstance(e, dict)]
    chosen = [e for e in entries if e.get("id") == model_id] or (entries if len(entries) == 1 else [])
    for entry in chosen:
        for place in (entry, entry.get("meta") if isinstance(entry.get("meta"), dict) else {}):
            for key in _MODEL_KEYS:
                value = place.get(key)
                if isinstance(value, int) and not isinstance(value, bool) and value > 0:
                    return value
    return None


def window_in_props(data: Any) -> int | None:
    """The ``n_ctx`` of a llama.cpp server's ``/props`` answer."""
    if not isinstance(data, dict):
        return None
    settings = data.get("default_generation_settings")
    for place in (data, settings if isinstance(settings, dict) else {}):
        value = place.get("n_ctx")
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            return value
    return None


class WindowProbe:
    """Remembers, per model, what the upstream said about its window (None: it said nothing)."""

    def __init__(self, config: GatewayConfig, headers: list[tuple[bytes, bytes]]) -> None:
        self.config = config
        self.headers = headers
        self.known: dict[str, int | None] = {}
        self._pending: dict[str, asyncio.Future[int | None]] = {}

    async def window(self, client: httpx.AsyncClient, model_id: str) -> int | None:
        if model_id in self.known:
            return self.known[model_id]
        pending = self._pending.get(model_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[int | None] = asyncio.get_running_loop().create_future()
        self._pending[model_id] = future
        try:
            value = await self._ask(client, model_id)
        except Exception as exc:  # noqa: BLE001 - a probe never fails a request
            logger.info("gateway.probe_failed", model=model_id, error=f"{type(exc).__name__}: {exc}")
            value = None
        self.known[model_id] = value
        future.set_result(value)
        del self._pending[model_id]
        if value:
            logger.info("gateway.window_probed", model=model_id, window=value)
        return value

    async def _ask(self, client: httpx.AsyncClient, model_id: str) -> int | None:
        for url, read in ((self.config.base + "/models", lambda d: window_in_models(d, model_id)),
                          (self.config.root + "/props", window_in_props)):
            try:
                response = await client.get(url, headers=self.headers, timeout=PROBE_TIMEOUT)
            except httpx.HTTPError:
                return None
            if response.status_code == 200:
                try:
                    value = read(response.json())
                except ValueError:
                    value = None
                if value:
                    return value
        return None
