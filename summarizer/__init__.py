"""Summarizers: the interface the engine calls, the deterministic fallback, and the model summarizer.

A summarizer turns the messages of one chunk into text within a token budget, and merges several
chunk summaries into one that fits. ``identity`` and ``prompt_version`` are part of every cache
key, so changing either never serves a stale summary.

Modules: :mod:`.fallback` and :mod:`.extract` (the extractive summary, no model), :mod:`.llm`
(summaries from a model over HTTP), :mod:`.client` (the HTTP calls: OpenAI-compatible and Ollama),
:mod:`.prompts` (prompt text and its version), :mod:`.output` (checking what a model wrote),
:mod:`.probe` (asking a model server for its context window).

Errors a model summarizer raises, all carrying a stable ``kind`` that ``/context-stats`` counts::

    SummarizerError (context_compactor.errors)
    └── ModelError          kind: connection | timeout | rate_limited | server_error | client_error
        │                         | context_length | malformed | backoff
        └── OutputError     kind: empty | truncated | over_budget   (see .output)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from context_compactor.errors import SummarizerError
from context_compactor.messages import View

CountTokens = Callable[[str], int]


class Summarizer(Protocol):
    identity: str
    prompt_version: str

    def summarize(self, messages: Sequence[View], budget: int, count: CountTokens) -> str:
        """Summarize one chunk of messages in at most ``budget`` tokens (as ``count`` measures)."""
        ...

    def merge(self, summaries: Sequence[str], budget: int, count: CountTokens) -> str:
        """Merge chunk summaries, oldest first, into one text of at most ``budget`` tokens."""
        ...


class ModelError(SummarizerError):
    """A summary model failed; ``kind`` names the failure, ``retry_after`` is the server's wish (s)."""

    def __init__(self, message: str, *, kind: str, summarizer: str | None = None,
                 retry_after: float | None = None, context_window: int | None = None) -> None:
        super().__init__(message, summarizer=summarizer)
        self.kind = kind
        self.retry_after = retry_after
        self.context_window = context_window  # the size a server stated in a context-length error


def failure_kind(exc: BaseException) -> str:
    """The counter a failure is filed under in ``/context-stats``."""
    return getattr(exc, "kind", None) or ("error" if isinstance(exc, SummarizerError) else "bug")
