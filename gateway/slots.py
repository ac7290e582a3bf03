"""How many requests the upstream model server generates at once, asked once, before the first turn.

A single-slot server (llama-cpp-python always; llama.cpp's ``llama-server`` started with one slot)
runs one generation at a time, with one prompt cache: a request that arrives during another either
interrupts it or waits for it, and a summary between two turns evicts the client's prompt. So the
gateway's summaries there are the built-in ledger, unless the settings name the session model's
explicitly (``summarizeWithSessionModel: true``): then the turn does not wait for them (it sends the
ledger) and they run while the server is idle, cancelled by the next turn (see
:class:`~context_compactor.summarizer.idle_gate.IdleGate` and ``Background.turn_wait``).

    llama-server      GET /props answers ``total_slots``
    llama-cpp-python  GET /v1/models lists its models as ``"owned_by": "me"`` (no /props): one slot

Anything else (vLLM, Ollama, a hosted API, no answer) is taken to serve requests side by side.
Asked once, while no client request is at the server: on llama-cpp-python even ``/v1/models`` takes
the slot's lock and would cut a stream running then.
"""

from __future__ import annotations

import json
from typing import Any

import structlog

from .http1 import split_target
from .parts import GatewayParts
from .upstream import UpstreamError, request_headers


logger = structlog.get_logger("context_compactor")

PROBE_SECONDS = 5.0


async def detect_slots(gw: GatewayParts) -> int | None:
    """The upstream's slots: ``total_slots`` from llama-server's /props, 1 for llama-cpp-python, else None."""
    base = gw.config.base
    root = base[: -len("/v1")] if base.endswith("/v1") else base
    props = await _get_json(gw, root + "/props")
    if isinstance(props, dict) and isinstance(props.get("total_slots"), int):
        return int(props["total_slots"])
    models = await _get_json(gw, base + "/models")
    data = models.get("data") if isinstance(models, dict) else None
    if isinstance(data, list) and data and all(isinstance(m, dict) and m.get("owned_by") == "me" for m in data):
        return 1
    return None


async def _get_json(gw: GatewayParts, url: str) -> Any:
    import asyncio

    try:
        response = await asyncio.wait_for(gw.client.request("GET", split_target(url),
                                                            request_headers([], gw.config), b""), PROBE_SECONDS)
        try:
            body = await asyncio.wait_for(response.read(), PROBE_SECONDS)
        finally:
            await response.aclose()
    except (UpstreamError, asyncio.TimeoutError, OSError):
        return None
    if response.status_code != 200:
        return None
    try:
        return json.loads(body)
    except ValueError:
        return None
