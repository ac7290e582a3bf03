"""Summaries written by a model: the session model, or the configured ``summaryModel``.

:class:`LLMSummarizer` renders a chunk as a transcript (:mod:`.prompts`), asks the model over HTTP
(:mod:`.client`), and checks what comes back (:mod:`.output`). Every failure raises
:class:`~context_compactor.summarizer.ModelError`; the engine then uses the deterministic summary
for that chunk. :class:`Health` remembers consecutive failures: after a few in a row the model is
left alone for a while (doubling, capped), and a 429's ``Retry-After`` is honoured, so a model
that keeps failing is backed off, not hammered.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import httpx

from context_compactor.logs import get_logger
from context_compactor.messages import View

from . import CountTokens, ModelError, failure_kind, prompts
from .client import Endpoint, chat
from .output import check

logger = get_logger()

DEFAULT_WINDOW = 8192
READ_MARGIN = 0.85  # our token counts are estimates; leave the model's tokenizer some room


class Health:
    """Consecutive failures of one model and when it may be asked again (thread-safe)."""

    def __init__(self, *, threshold: int = 3, base: float = 30.0, cap: float = 600.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.threshold, self.base, self.cap, self.clock = threshold, base, cap, clock
        self.consecutive = 0
        self.until = 0.0
        self.failures: Counter[str] = Counter()
        self.successes = 0
        self.last_error: str | None = None
        self._lock = threading.Lock()

    def wait_left(self) -> float:
        """Seconds until the model may be asked again (0: now)."""
        return max(0.0, self.until - self.clock())

    def failed(self, exc: BaseException) -> None:
        with self._lock:
            self.consecutive += 1
            self.failures[failure_kind(exc)] += 1
            self.last_error = str(exc)
            now = self.clock()
            if self.consecutive >= self.threshold:
                pause = min(self.cap, self.base * 2 ** (self.consecutive - self.threshold))
                self.until = max(self.until, now + pause)
            wish = getattr(exc, "retry_after", None)
            if wish:
                self.until = max(self.until, now + min(self.cap, wish))

    def succeeded(self) -> None:
        with self._lock:
            self.consecutive, self.until = 0, 0.0
            self.successes += 1

    def snapshot(self) -> dict[str, Any]:
        with self._lock:
            return {"successes": self.successes, "failures": dict(self.failures), "consecutive": self.consecutive,
                    "backoff_seconds": round(self.wait_left(), 1), "last_error": self.last_error}


class LLMSummarizer:
    """Chunk summaries and merges from a chat model over HTTP."""

    prompt_version = prompts.PROMPT_VERSION
    remote = True  # calls may be slow: the engine runs them against the turn's time budget

    def __init__(self, endpoint: Endpoint, client: httpx.Client, *, retries: int = 2, backoff: float = 0.5,
                 health: Health | None = None, on_window: Callable[[str, int], None] | None = None) -> None:
        self.endpoint, self.client = endpoint, client
        self.identity = f"llm:{endpoint.model}"
        self.retries, self.backoff = retries, backoff
        self.health = health or Health()
        self.on_window = on_window
        self.context_window = endpoint.context_window
        self.stop = threading.Event()

    def __repr__(self) -> str:
        return f"LLMSummarizer({self.endpoint.model!r} at {self.endpoint.where}, api={self.endpoint.api})"

    def ready(self) -> None:
        """Raise ModelError ``backoff`` while the model is being left alone after repeated failures."""
        left = self.health.wait_left()
        if left > 0:
            raise ModelError(f"{self.endpoint.model} failed {self.health.consecutive} times in a row; not asked "
                             f"again for {left:.0f}s (last error: {self.health.last_error})",
                             kind="backoff", summarizer=self.identity)

    def readable_tokens(self, budget: int) -> int:
        """How many tokens of material one request may carry, leaving room for prompt and answer."""
        window = self.context_window or DEFAULT_WINDOW
        room = window * READ_MARGIN - prompts.PROMPT_OVERHEAD_TOKENS - self.max_out(budget)
        return max(256, int(room))

    def max_out(self, budget: int) -> int:
        want = int(budget * 1.5) + 32  # the model counts differently; the output check trims to budget
        return min(want, self.endpoint.max_tokens) if self.endpoint.max_tokens else want

    def summarize(self, messages: Sequence[View], budget: int, count: CountTokens) -> str:
        request = prompts.chunk_messages(messages, budget, self.readable_tokens(budget), count)
        return self._ask(request, budget, count)

    def merge(self, summaries: Sequence[str], budget: int, count: CountTokens) -> str:
        return self._ask(prompts.merge_messages(summaries, budget), budget, count)

    def _ask(self, request: list[dict[str, str]], budget: int, count: CountTokens) -> str:
        self.ready()
        started = time.monotonic()
        try:
            reply = chat(self.client, self.endpoint, request, self.max_out(budget), retries=self.retries,
                         backoff=self.backoff, stop=self.stop)
            text = check(reply.text, truncated=reply.truncated, budget=budget, count=count, summarizer=self.identity)
        except ModelError as exc:
            self._failed(exc)
            raise
        self.health.succeeded()
        logger.info("summary.model_done", model=self.endpoint.model, seconds=round(time.monotonic() - started, 2),
                    prompt_tokens=reply.prompt_tokens, completion_tokens=reply.completion_tokens,
                    truncated=reply.truncated)
        return text

    def _failed(self, exc: ModelError) -> None:
        if self.stop.is_set() or exc.kind == "cancelled":  # the runtime is closing, or a client's request came first: not the model's fault
            logger.info("summary.model_stopped", model=self.endpoint.model, error=str(exc))
            return
        self.health.failed(exc)
        if exc.kind == "context_length" and exc.context_window:
            self.context_window = exc.context_window
            if self.on_window is not None:
                self.on_window(self.endpoint.model, exc.context_window)
        logger.warning("summary.model_failed", model=self.endpoint.model, kind=exc.kind, error=str(exc),
                       consecutive=self.health.consecutive)


def resolve_api(api: str | None, base_url: str) -> str | None:
    """``openai`` or ``ollama`` for a provider's ``api`` setting; None when we cannot speak it."""
    name = (api or "auto").lower()
    if "ollama" in name:
        return "ollama"
    if name in ("auto", "openai") or name.startswith("openai"):
        root = base_url.rstrip("/")
        if name == "auto" and root.endswith(":11434"):
            return "ollama"
        return "openai"
    return None
