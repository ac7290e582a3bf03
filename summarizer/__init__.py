"""Summarizers: the interface the engine calls, the deterministic fallback, and (later) LLM ones.

A summarizer turns the messages of one chunk into text within a token budget, and merges several
chunk summaries into one that fits. ``identity`` and ``prompt_version`` are part of every cache
key, so changing either never serves a stale summary.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

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
