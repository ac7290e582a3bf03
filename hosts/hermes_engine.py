"""The Hermes Agent context engine (``context.engine: context-compactor``), beside the middleware.

Hermes asks its context engine when to compact (``should_compress``), for the compacted history
(``compress``: on overflow, on ``/compress``, and for its own housekeeping; what it returns replaces
Hermes's live history on 0.19), and for the tools it offers the model (``get_tool_schemas``,
``handle_tool_call``). This engine answers from the same :class:`~context_compactor.Compactor` the
``llm_request`` middleware uses for the session, with the system prompt and tools of the session's
last request, so ``compress()`` returns the plan the last request was sent with. It offers
``recall_history``, answered from the session's archive.

On chat completions the middleware already sends every request compacted, so ``should_compress``
says no and Hermes's history stays whole; on the other APIs (the middleware passes those through) it
says yes above our trigger, and ``compress`` does the work.

Hermes deep-copies the registered engine for every agent it builds (a child agent must not change
its parent's budget). The engine holds plain figures and a reference to the process's
:class:`~context_compactor.hosts.hermes.HermesHost` (its Compactors, their stores, its lock); the copy
shares that host, never copies it: no connection or lock is copied.

The class is :class:`CompactorEngine` mixed with Hermes's own ``ContextEngine`` base at
:func:`engine_class` (Hermes checks ``isinstance``), so that importing this module needs no Hermes.
"""

from __future__ import annotations

import copy
import importlib
import json
from typing import Any, Protocol

from ..api import Compactor
from ..logs import get_logger

logger = get_logger()

NAME = "context-compactor"
CHAT_MODES = frozenset({"", "chat_completions"})  # Hermes's api_mode values the middleware compacts


class HermesHost(Protocol):
    """What the engine uses of :class:`~context_compactor.hosts.hermes.HermesHost` (which imports us)."""

    options: dict[str, Any]
    last_request: dict[str, tuple[dict[str, Any] | None, list[dict[str, Any]] | None]]

    def window(self) -> int: ...

    def compactor(self, key: str, model: str | None) -> Compactor: ...

    def session_key(self, session_id: Any, platform: Any = "") -> str: ...

    def recall_schema(self) -> dict[str, Any]: ...


class CompactorEngine:
    """What Hermes asks its context engine, answered through the host's per-session Compactors."""

    name = NAME
    # Hermes reads these directly (display, preflight); the figures are Hermes's, our window is ours.
    last_prompt_tokens = 0
    last_completion_tokens = 0
    last_total_tokens = 0
    threshold_tokens = 0
    context_length = 0
    compression_count = 0
    threshold_percent = 0.75
    protect_first_n = 3
    protect_last_n = 6

    def __init__(self, host: HermesHost) -> None:
        self.host = host
        self.session_id = "default"
        self.platform = ""
        self.model = ""
        self.api_mode = ""

    def __deepcopy__(self, memo: dict[int, Any]) -> CompactorEngine:
        """A copy of the figures that shares the host (its Compactors, stores and lock are not copied)."""
        twin = copy.copy(self)
        memo[id(self)] = twin
        return twin

    # -- lifecycle -------------------------------------------------------------------------------

    def on_session_start(self, session_id: str, **kwargs: Any) -> None:
        self.session_id = str(session_id or "default")
        self.platform = str(kwargs.get("platform") or "")
        self.model = str(kwargs.get("model") or self.model)

    def on_session_end(self, session_id: str, messages: list[dict[str, Any]]) -> None:
        """Nothing to flush: a Compactor with a store writes before each call returns."""

    def on_session_reset(self) -> None:
        self.last_prompt_tokens = self.last_completion_tokens = self.last_total_tokens = 0
        self.compression_count = 0

    def update_model(self, model: str, context_length: int, base_url: str = "", api_key: str = "",
                     provider: str = "", api_mode: str = "") -> None:
        """Hermes's figures as Hermes states them (it refuses a window under 64k at startup); the window
        we compact to is ours (``context_compactor.context_window``)."""
        self.model, self.api_mode = str(model or ""), str(api_mode or "")
        self.context_length = int(context_length or 0)
        self.threshold_tokens = int(self.host.window() * float(self.host.options.get("compact_at") or 0.75))

    def update_from_response(self, usage: dict[str, Any]) -> None:
        """The figures Hermes shows; calibration goes through the ``post_api_request`` hook."""
        self.last_prompt_tokens = int(usage.get("prompt_tokens") or 0)
        self.last_completion_tokens = int(usage.get("completion_tokens") or 0)
        self.last_total_tokens = int(usage.get("total_tokens") or 0)

    # -- compaction --------------------------------------------------------------------------------

    def should_compress(self, prompt_tokens: int | None = None) -> bool:
        """Only where the middleware cannot compact the request (not chat completions), above our trigger."""
        if self.api_mode in CHAT_MODES:
            return False
        return int(prompt_tokens or self.last_prompt_tokens) >= self.threshold_tokens > 0

    def should_compress_preflight(self, messages: list[dict[str, Any]]) -> bool:
        return False

    def has_content_to_compress(self, messages: list[dict[str, Any]]) -> bool:
        return len(messages) > 2

    def compress(self, messages: list[dict[str, Any]], current_tokens: int | None = None,
                 focus_topic: str | None = None, force: bool = False, memory_context: str = "") -> list[dict[str, Any]]:
        """The projection of ``messages`` (Hermes's history, its system prompt apart) by the session's
        plan; ``messages`` themselves when it changes nothing or fails."""
        try:
            return self._compress(messages, focus_topic, force)
        except Exception as exc:  # noqa: BLE001 - our failure must never stop Hermes: its history stays as it is
            logger.warning("hermes.compress_failed", error=f"{type(exc).__name__}: {exc}")
            return messages

    def _compress(self, messages: list[dict[str, Any]], focus: str | None, force: bool) -> list[dict[str, Any]]:
        key = self.host.session_key(self.session_id, self.platform)
        compactor = self.host.compactor(key, self.model)
        system, tools = self.host.last_request.get(key, (None, None))
        history = [system, *messages] if system is not None else list(messages)
        if force or focus:
            compactor.compact(history, tools=tools)  # the prompt /compact-now works on
            logger.info("hermes.compress_now", text=compactor.run_command("compact-now", focus or ""))
        result = compactor.compact(history, tools=tools)
        if result.messages is history:
            return messages
        self.compression_count += 1
        out = list(result.messages)
        return out[1:] if system is not None and out and out[0] is system else out

    # -- the recall tool ---------------------------------------------------------------------------

    def get_tool_schemas(self) -> list[dict[str, Any]]:
        return [self.host.recall_schema()]

    def handle_tool_call(self, name: str, args: dict[str, Any], **kwargs: Any) -> str:
        """``recall_history`` from this session's archive; Hermes wants JSON text back."""
        if name != self.host.recall_schema()["name"]:
            return json.dumps({"error": f"context-compactor has no tool {name!r}"})
        key = self.host.session_key(self.session_id, self.platform)
        return json.dumps({"result": self.host.compactor(key, self.model).recall(args)})

    def get_status(self) -> dict[str, Any]:
        window = self.host.window()
        last = max(0, self.last_prompt_tokens)
        return {"last_prompt_tokens": last, "threshold_tokens": self.threshold_tokens, "context_length": window,
                "usage_percent": min(100, last / window * 100) if window else 0,
                "compression_count": self.compression_count}


def engine_class() -> type:
    """:class:`CompactorEngine` on Hermes's ``ContextEngine`` base (imported now: Hermes is running)."""
    base = importlib.import_module("agent.context_engine").ContextEngine
    return type("ContextCompactorEngine", (CompactorEngine, base), {"__module__": __name__})
