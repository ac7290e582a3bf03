"""The summary of the folded region: chunk summaries from the cache or the summarizer, then a merge.

Summaries always come from the original messages of a chunk, never from an earlier summary of the
same messages. When the summarizer fails, the deterministic fallback answers for that chunk and
its summary is cached under the fallback's own key, so the next turn asks the model again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import structlog

from ..errors import SummarizerError
from .chunks import chunk_bounds, chunk_key, merge_key
from .measure import Entry

logger = structlog.get_logger("context_compactor")


class SummaryCache(Protocol):
    def get(self, key: str) -> str | None: ...

    def put(self, key: str, text: str, summarizer: str) -> None: ...


class SummarizerLike(Protocol):
    identity: str
    prompt_version: str

    def summarize(self, messages: Sequence, budget: int, count: Callable[[str], int]) -> str: ...

    def merge(self, summaries: Sequence[str], budget: int, count: Callable[[str], int]) -> str: ...


@dataclass
class SummaryReport:
    text: str
    chunks: int = 0
    cache_hits: int = 0
    summarized: int = 0
    fallbacks: int = 0
    summarizer: str = ""
    errors: list[str] = field(default_factory=list)


class Summaries:
    """Produces the summary text of ``entries[start:stop]`` within ``budget`` tokens."""

    def __init__(self, summarizer: SummarizerLike, fallback: SummarizerLike, cache: SummaryCache,
                 count: Callable[[str], int], chunk_tokens: int) -> None:
        self.summarizer, self.fallback, self.cache = summarizer, fallback, cache
        self.count, self.chunk_tokens = count, chunk_tokens

    def region(self, entries: Sequence[Entry], start: int, stop: int, budget: int) -> SummaryReport:
        report = SummaryReport(text="", summarizer=self.summarizer.identity)
        keys: list[str] = []
        texts: list[str] = []
        for first, end in chunk_bounds(entries, start, stop, self.chunk_tokens):
            key, text = self._chunk(entries[first:end], budget, report)
            keys.append(key)
            texts.append(text)
        report.chunks = len(keys)
        if sum(self.count(t) for t in texts) + len(texts) <= budget:
            report.text = "\n".join(texts)
        else:
            report.text = self._merge(keys, texts, budget, report)
        return report

    def _chunk(self, chunk: Sequence[Entry], budget: int, report: SummaryReport) -> tuple[str, str]:
        s = self.summarizer
        key = chunk_key(s.identity, s.prompt_version, budget, chunk)
        cached = self.cache.get(key)
        if cached is not None:
            report.cache_hits += 1
            return key, cached
        views = [entry.view for entry in chunk]
        try:
            text = s.summarize(views, budget, self.count)
        except SummarizerError as exc:
            report.fallbacks += 1
            report.errors.append(str(exc))
            logger.warning("summary.fallback", summarizer=s.identity, error=str(exc))
            fb = self.fallback
            key = chunk_key(fb.identity, fb.prompt_version, budget, chunk)
            text = self.cache.get(key) or fb.summarize(views, budget, self.count)
            self.cache.put(key, text, fb.identity)
            return key, text
        report.summarized += 1
        self.cache.put(key, text, s.identity)
        return key, text

    def _merge(self, keys: list[str], texts: list[str], budget: int, report: SummaryReport) -> str:
        s = self.summarizer
        key = merge_key(s.identity, s.prompt_version, budget, keys)
        cached = self.cache.get(key)
        if cached is not None:
            report.cache_hits += 1
            return cached
        try:
            text = s.merge(texts, budget, self.count)
        except SummarizerError as exc:
            report.fallbacks += 1
            report.errors.append(str(exc))
            logger.warning("summary.fallback", summarizer=s.identity, error=str(exc), step="merge")
            return self.fallback.merge(texts, budget, self.count)
        self.cache.put(key, text, s.identity)
        return text
