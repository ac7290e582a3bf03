"""Asking a model server how large its context window is, when nobody configured it.

Tried in this order, each with a short timeout, stopping at the first answer:

    Ollama      POST /api/show {"model": id}   the ``num_ctx`` parameter, else ``model_info``'s
                                               ``<arch>.context_length``
    llama.cpp   GET /props                     ``default_generation_settings.n_ctx``
    LM Studio   GET /api/v0/models/{id}        ``loaded_context_length``, else ``max_context_length``
    vLLM        GET /v1/models                 the model's ``max_model_len`` (also read:
                                               ``context_length``, ``context_window``)

llama-cpp-python's server reports its context size nowhere (``/v1/models`` has no length, the
other routes are 404): the probe finds nothing, the caller uses 8192 and says so, and the size is
learned later from the server's own context-length error ("maximum context length is N tokens").
Never raises: a refused connection, a 404 or a strange body just means "not this one".

Every attempt asks the server to close its connection (``Connection: close``): the probe shares the
runtime's client with the summary calls, and a summary that went out on a kept-alive connection the
probe left in the pool could not be cut while the server still reads its prompt (a cancel shuts the
connection it saw being made, see :mod:`.client`); on a single-slot server that read would hold the
client's next turn.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import httpx

from context_compactor.logs import get_logger

from .client import Endpoint

logger = get_logger()

PROBE_SECONDS = 4.0  # all attempts together; this runs once per model, on the reply path
_NUM_CTX = re.compile(r"^\s*num_ctx\s+(\d+)\s*$", re.MULTILINE)
_LENGTH_KEYS = ("max_model_len", "context_length", "context_window", "max_context_length")


@dataclass(frozen=True)
class Probe:
    """What a server said: ``window`` (None: nothing found) and where it came from, or why not."""

    window: int | None
    detail: str


def _positive(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and 0 < value < 100_000_000 else None


def _ollama(data: Any) -> tuple[int | None, str]:
    found = _NUM_CTX.search(str(data.get("parameters") or ""))
    if found:
        return int(found.group(1)), "Ollama /api/show num_ctx"
    info = data.get("model_info") or {}
    for key, value in info.items():
        if key.endswith(".context_length") and _positive(value):
            return value, "Ollama /api/show context_length"
    return None, ""


def _llamacpp(data: Any) -> tuple[int | None, str]:
    settings = data.get("default_generation_settings") or {}
    window = _positive(settings.get("n_ctx")) or _positive(data.get("n_ctx"))
    return window, "llama.cpp /props n_ctx"


def _lmstudio(data: Any) -> tuple[int | None, str]:
    window = _positive(data.get("loaded_context_length")) or _positive(data.get("max_context_length"))
    return window, "LM Studio /api/v0/models context length"


def _models(model: str) -> Any:
    def read(data: Any) -> tuple[int | None, str]:
        entries = [e for e in data.get("data") or [] if isinstance(e, dict)]
        mine = [e for e in entries if e.get("id") == model] or (entries if len(entries) == 1 else [])
        for entry in mine:
            for key in _LENGTH_KEYS:
                if _positive(entry.get(key)):
                    return entry[key], f"/v1/models {key}"
        return None, ""
    return read


def probe_window(client: httpx.Client, endpoint: Endpoint, *, seconds: float = PROBE_SECONDS) -> Probe:
    """The context window the server at ``endpoint`` states for ``endpoint.model``, if it states one."""
    root, model = endpoint.root, endpoint.model
    attempts: list[tuple[str, str, Any, Any]] = []
    if endpoint.api == "ollama":
        attempts.append(("POST", f"{root}/api/show", {"model": model, "name": model}, _ollama))
    attempts += [
        ("GET", f"{root}/props", None, _llamacpp),
        ("GET", f"{root}/api/v0/models/{quote(model, safe='')}", None, _lmstudio),
        ("GET", f"{root}/v1/models", None, _models(model)),
    ]
    if endpoint.api != "ollama":
        attempts.append(("POST", f"{root}/api/show", {"model": model, "name": model}, _ollama))
    headers = {"connection": "close"}  # no kept-alive connection left for a summary call to reuse
    if endpoint.api_key:
        headers["authorization"] = f"Bearer {endpoint.api_key}"
    deadline = time.monotonic() + seconds
    tried = []
    for method, url, body, read in attempts:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        path = url[len(root):]
        try:
            response = client.request(method, url, json=body, headers=headers,
                                      timeout=httpx.Timeout(min(2.0, left), connect=min(1.0, left)))
        except httpx.HTTPError as exc:
            tried.append(f"{path}: {type(exc).__name__}")
            if isinstance(exc, httpx.ConnectError):
                break  # nobody listens there: no point trying the other routes
            continue
        if response.status_code != 200:
            tried.append(f"{path}: HTTP {response.status_code}")
            continue
        try:
            window, detail = read(response.json())
        except (ValueError, AttributeError, TypeError):
            window, detail = None, ""
        if window:
            logger.info("probe.window", model=model, window=window, source=detail, server=endpoint.where)
            return Probe(window, detail)
        tried.append(f"{path}: no context size in the answer")
    logger.warning("probe.no_window", model=model, server=endpoint.where, tried="; ".join(tried))
    return Probe(None, f"{endpoint.where} did not state a context size ({'; '.join(tried) or 'no time left'})")
