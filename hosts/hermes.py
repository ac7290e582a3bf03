"""The Hermes Agent plugin: every provider request Hermes sends carries the projection of its history.

Hermes loads this module through its ``hermes_agent.plugins`` entry point (only when it is listed in
``plugins.enabled`` of ``~/.hermes/config.yaml``) and calls :func:`register`. Our ``llm_request``
middleware runs before every provider call (tool-loop steps and retries included) and returns a
replacement request: the same kwargs, its ``messages`` the projection the hooks built (a kept message is
the copy we hold of it since it first came, equal to Hermes's; Hermes's history itself is never
touched), ``max_tokens`` clamped to the room
the window leaves. Requests that are not OpenAI chat completions (Anthropic-native, Responses,
Bedrock) pass through unchanged on 0.19. Any error: the request goes as Hermes built it. The context
engine (:mod:`~context_compactor.hosts.hermes_engine`, used when ``context.engine`` names
``context-compactor``) answers ``compress()`` from the same Compactor and offers ``recall_history``.
A background review (Hermes's fork of the agent on its own thread, with the parent's session id) is a
session of its own.

Options come from ``context_compactor`` in Hermes's config.yaml (our settings by their snake_case or
camelCase names, ``context_window`` first among them), else the ``CONTEXT_COMPACTOR_CONTEXT_WINDOW``
environment variable, else 8192. The provider's reported usage calibrates through ``post_api_request``.
"""

from __future__ import annotations

import copy
import importlib
import os
import re
import sys
import threading
from typing import Any

from ..api import Compactor
from ..logs import get_logger
from .hermes_engine import CHAT_MODES, engine_class

logger = get_logger()

DEFAULT_WINDOW = 8192


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower().replace("-", "_")


class HermesHost:
    """One Compactor per conversation (Hermes's session id, a background review keyed apart)."""

    def __init__(self, options: dict[str, Any] | None = None) -> None:
        self.options = {_snake(k): v for k, v in (options or {}).items()}
        self.compactors: dict[str, Compactor] = {}
        self.lock = threading.Lock()  # taken only to find a session's Compactor, never across a call
        # The system message and tools of each session's last request: the engine's compress() plans
        # the same prompt the middleware did.
        self.last_request: dict[str, tuple[dict[str, Any] | None, list[dict[str, Any]] | None]] = {}
        self.held: dict[str, list[dict[str, Any]]] = {}  # each session's last messages, as we hold them

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
    def session_key(session_id: Any, platform: Any = "") -> str:
        """Hermes's session id; a background review apart. Hermes runs a review on a thread of its own
        ("bg-review", "curator-review") with the parent's session id, platform and tools, and a tool
        whitelist on that thread: any of those marks it."""
        thread = threading.current_thread().name
        review = "review" in thread or "review" in str(platform or "").lower() or _whitelisted()
        return f"hermes:{session_id or 'default'}" + (":review" if review else "")

    def key(self, context: dict[str, Any]) -> str:
        return self.session_key(context.get("session_id"), context.get("platform"))

    @staticmethod
    def recall_schema() -> dict[str, Any]:
        """``recall_history`` as Hermes wants a context engine's tool: the bare function schema."""
        return dict(Compactor.recall_tool()["function"])

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
        if str(context.get("api_mode") or "") not in CHAT_MODES or not isinstance(messages, list) or not messages:
            return None
        key = self.key(context)
        compactor = self.compactor(key, str(request.get("model") or context.get("model") or ""))
        tools = request.get("tools") or None
        given, messages = messages, self._held(key, messages)
        first = messages[0] if isinstance(messages[0], dict) and messages[0].get("role") == "system" else None
        self.last_request[key] = (first, tools)
        result = compactor.compact(messages, tools=tools)
        for notice in result.notices:
            logger.info("hermes.notice", text=notice)
        out = dict(request)
        out["messages"] = result.messages
        room = result.stats.window - result.stats.tokens_after
        for cap in ("max_tokens", "max_completion_tokens"):
            if isinstance(out.get(cap), int) and room > 0 and out[cap] > room:
                out[cap] = room
        if result.messages is messages:
            out["messages"] = given
        if out["messages"] is given and out.keys() == request.keys() and \
                all(out[k] is request[k] or out[k] == request[k] for k in out):
            return None
        return {"request": out, "source": "context-compactor", "reason": "compaction"}

    def _held(self, key: str, messages: list[Any]) -> list[Any]:
        """``messages`` with each one equal to the one at its place last time replaced by that one.

        Hermes deep-copies every request before its middleware, so each call brings new objects that
        the Compactor would check and measure again; the ones it saw before keep its warm path. New
        ones are copied (Hermes may change its own after we return), so Hermes never holds ours.
        """
        before = self.held.get(key, [])
        held = [before[i] if i < len(before) and before[i] == m else copy.deepcopy(m) for i, m in enumerate(messages)]
        self.held[key] = held
        return held

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
        error = kwargs.get("error")
        text = error.get("message") if isinstance(error, dict) else error
        if found is not None and text:
            found.record_usage(None, error=str(text))


def _options() -> dict[str, Any]:
    try:
        config = importlib.import_module("hermes_cli.config").load_config()
        found = config.get("context_compactor") if isinstance(config, dict) else None
        return found if isinstance(found, dict) else {}
    except Exception as exc:  # noqa: BLE001 - no config: defaults
        logger.debug("hermes.config_unread", error=f"{type(exc).__name__}: {exc}")
        return {}


def _whitelisted() -> bool:
    """Whether Hermes restricts this thread's tools (it does for a background review's fork)."""
    plugins = sys.modules.get("hermes_cli.plugins")
    local = getattr(plugins, "_thread_tool_whitelist", None)
    return getattr(local, "allowed", None) is not None


def register(ctx: Any) -> None:
    """Hermes's plugin entry: the ``llm_request`` middleware, the usage hooks, and the context engine
    (used when ``context.engine`` names it)."""
    host = HermesHost(_options())
    ctx.register_middleware("llm_request", host.llm_request)
    ctx.register_hook("post_api_request", host.post_api_request)
    ctx.register_hook("api_request_error", host.api_request_error)
    ctx.register_context_engine(engine_class()(host))
