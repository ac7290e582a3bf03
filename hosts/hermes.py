"""The Hermes Agent plugin: every provider request Hermes sends carries the projection of its history.

Hermes loads this module through its ``hermes_agent.plugins`` entry point (only when it is listed in
``plugins.enabled`` of ``~/.hermes/config.yaml``) and calls :func:`register`. Our ``llm_request``
middleware runs before every provider call (tool-loop steps and retries included) and returns a
replacement request: the same kwargs, its ``messages`` the projection the hooks built (kept messages
are Hermes's own dicts; Hermes's history itself is never touched), ``max_tokens`` clamped to the room
the window leaves. Requests that are not OpenAI chat completions (Anthropic-native, Responses,
Bedrock) pass through unchanged on 0.19. Any error: the request goes as Hermes built it.

Options come from ``context_compactor`` in Hermes's config.yaml (our settings by their snake_case or
camelCase names, ``context_window`` first among them), else the ``CONTEXT_COMPACTOR_CONTEXT_WINDOW``
environment variable, else 8192. The provider's reported usage calibrates through ``post_api_request``.
"""

from __future__ import annotations

import importlib
import os
import re
import threading
from typing import Any

from ..api import Compactor
from ..logs import get_logger

logger = get_logger()

DEFAULT_WINDOW = 8192
_CHAT_MODES = frozenset({"", "chat_completions"})


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower().replace("-", "_")


class HermesHost:
    """One Compactor per conversation (Hermes's session id, a background review keyed apart)."""

    def __init__(self, options: dict[str, Any] | None = None) -> None:
        self.options = {_snake(k): v for k, v in (options or {}).items()}
        self.compactors: dict[str, Compactor] = {}
        self.lock = threading.Lock()  # taken only to find a session's Compactor, never across a call

    def window(self) -> int:
        configured = self.options.get("context_window") or os.environ.get("CONTEXT_COMPACTOR_CONTEXT_WINDOW")
        return int(configured) if configured else DEFAULT_WINDOW

    def compactor(self, key: str, model: str | None) -> Compactor:
        with self.lock:
            found = self.compactors.get(key)
            if found is None:
                options = {k: v for k, v in self.options.items() if k not in ("context_window", "store")}
                found = self.compactors[key] = Compactor(context_window=self.window(), model=model,
                                                         store=self.options.get("store"), session=key, **options)
            return found

    @staticmethod
    def key(context: dict[str, Any]) -> str:
        """Hermes's session id; a background review (same session id, its own platform or task) apart."""
        session = str(context.get("session_id") or "default")
        platform = str(context.get("platform") or "")
        task = str(context.get("task_id") or "")
        review = "review" in platform.lower() or "review" in task.lower()
        return f"hermes:{session}" + (f":review:{task or platform}" if review else "")

    # -- Hermes's middleware and hooks -------------------------------------------------------------

    def llm_request(self, request: dict[str, Any], **context: Any) -> dict[str, Any] | None:
        """Hermes ``llm_request`` middleware: ``{"request": ...}`` to send instead, or None."""
        try:
            return self._request(request, context)
        except Exception as exc:  # noqa: BLE001 - our failure must never stop Hermes: it sends its own request
            logger.warning("hermes.failed", error=f"{type(exc).__name__}: {exc}")
            return None

    def _request(self, request: dict[str, Any], context: dict[str, Any]) -> dict[str, Any] | None:
        messages = request.get("messages")
        if str(context.get("api_mode") or "") not in _CHAT_MODES or not isinstance(messages, list) or not messages:
            return None
        compactor = self.compactor(self.key(context), str(request.get("model") or context.get("model") or ""))
        result = compactor.compact(messages, tools=request.get("tools") or None)
        for notice in result.notices:
            logger.info("hermes.notice", text=notice)
        out = dict(request)
        out["messages"] = result.messages
        room = result.stats.window - result.stats.tokens_after
        for cap in ("max_tokens", "max_completion_tokens"):
            if isinstance(out.get(cap), int) and room > 0 and out[cap] > room:
                out[cap] = room
        if result.messages is messages and out.keys() == request.keys() and \
                all(out[k] is request[k] or out[k] == request[k] for k in out):
            return None
        return {"request": out, "source": "context-compactor", "reason": "compaction"}

    def post_api_request(self, **kwargs: Any) -> None:
        """Hermes ``post_api_request`` hook: the provider's usage calibrates the session's counter."""
        try:
            usage = kwargs.get("usage") or {}
            prompt = usage.get("prompt_tokens") if isinstance(usage, dict) else getattr(usage, "prompt_tokens", None)
            found = self.compactors.get(self.key(kwargs))
            if found is not None and prompt:
                found.record_usage(int(prompt))
        except Exception as exc:  # noqa: BLE001 - bookkeeping never breaks a turn
            logger.debug("hermes.usage_failed", error=f"{type(exc).__name__}: {exc}")

    def api_request_error(self, **kwargs: Any) -> None:
        """Hermes ``api_request_error`` hook: a context-length error that states a size teaches the window."""
        found = self.compactors.get(self.key(kwargs))
        if found is not None:
            found.record_usage(None, error=str(kwargs.get("error_message") or kwargs.get("error") or ""))


def _options() -> dict[str, Any]:
    try:
        config = importlib.import_module("hermes_cli.config").load_config()
        found = config.get("context_compactor") if isinstance(config, dict) else None
        return found if isinstance(found, dict) else {}
    except Exception as exc:  # noqa: BLE001 - no config: defaults
        logger.debug("hermes.config_unread", error=f"{type(exc).__name__}: {exc}")
        return {}


def register(ctx: Any) -> None:
    """Hermes's plugin entry: the ``llm_request`` middleware and the usage hooks."""
    host = HermesHost(_options())
    ctx.register_middleware("llm_request", host.llm_request)
    ctx.register_hook("post_api_request", host.post_api_request)
    ctx.register_hook("api_request_error", host.api_request_error)
