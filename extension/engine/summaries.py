"""The summary of the folded region: chunk summaries from the cache or the summarizer, then a merge.

Summaries always come from the original messages of a chunk, or from cached summaries of disjoint
earlier groups of chunks; never from an earlier summary of the same messages.

Two ways, chosen by the summarizer:

- **flat** (the deterministic summarizer, which costs nothing): every chunk of the region, the
  last partial one too, is summarised at the full budget; if together they do not fit, they are
  merged into one block (cached by the chunk keys).
- **tiered** (a model, whose every input token costs time): only *closed* chunks go to the model,
  each once, at a quarter of the budget (``leaf``); the open rest of the region is summarised
  deterministically until it closes. When the chunk summaries no longer fit, the oldest aligned
  groups of ``fan_in`` summaries of the same level are merged by the model (a counter in base
  ``fan_in``: chunks 0-3 make a level-1 group, four level-1 groups a level-2 one, ...): a group is
  a fixed set of chunks, so each merge is made once and cached, and a new chunk never causes the
  merges before it to be redone. Whatever still does not fit is merged
  deterministically (:meth:`ExtractiveSummarizer.merge`, which costs nothing).

Model calls run through a :class:`Runner` against the turn's deadline: a call that has not
answered in time leaves this turn to the deterministic summary (counted as a fallback, kind
``timeout``) and goes on in the background; its result lands in the cache for the next turn.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..errors import SummarizerError
from ..messages import view_of
from ..logs import get_logger
from ..summarizer.ledger import merge, render
from ..summarizer.output import invented
from .chunks import chunk_bounds, chunk_key, closed_chunks, merge_key
from .measure import Entry

logger = get_logger()

MIN_NARRATIVE_TOKENS = 64  # a narrative shorter than this says nothing worth a model call
MIN_NARRATIVE_INPUT = 512  # a chunk of fewer tokens than this is not worth a model call
NARRATIVE_TOKENS = 300  # at most what a model writes below the ledger: where things stood, open questions
FAN_IN = 4  # chunk summaries per model merge; bench/cost.py compares 2, 3 and 4


class SummaryCache(Protocol):
    def get(self, key: str) -> str | None: ...

    def put(self, key: str, text: str, summarizer: str) -> None: ...


class SummarizerLike(Protocol):
    identity: str
    prompt_version: str

    def summarize(self, messages: Sequence, budget: int, count: Callable[[str], int]) -> str: ...

    def merge(self, summaries: Sequence[str], budget: int, count: Callable[[str], int]) -> str: ...


class Pending(Exception):
    """A summary call did not finish within the time it was given; it goes on in the background."""


class Cancelled(Exception):
    """A background job was superseded or the runtime is closing."""


class Runner(Protocol):
    def run(self, key: str, job: Callable[[], str], wait: float | None) -> str:
        """``job()``'s result (joined with a call of the same key already running), waiting at most
        ``wait`` seconds (None: as long as it takes); raises Pending when it is not done by then."""
        ...


class Inline:
    """Runs every call in the caller's thread (for summarizers that cost no time)."""

    def run(self, key: str, job: Callable[[], str], wait: float | None) -> str:
        return job()


@dataclass
class SummaryReport:
    text: str
    chunks: int = 0
    cache_hits: int = 0
    summarized: int = 0
    fallbacks: int = 0
    summarizer: str = ""
    errors: list[str] = field(default_factory=list)
    failures: Counter[str] = field(default_factory=Counter)  # fallbacks by kind
    pending: int = 0  # model calls still running in the background
    merges: int = 0
    open_messages: int = 0  # messages of the open chunk (deterministic summary, by design)
    open_tokens: int = 0
    left_out: int = 0  # ledger items left out for room


@dataclass
class _Piece:
    level: int
    first: int  # index of its first chunk
    key: str
    text: str
    tokens: int
    model: bool  # False: a deterministic stand-in for a failed model call


class Summaries:
    """Produces the summary text of ``entries[start:stop]`` within ``budget`` tokens."""

    def __init__(self, summarizer: SummarizerLike, fallback: SummarizerLike, cache: SummaryCache,
                 count: Callable[[str], int], chunk_tokens: int, *, runner: Runner | None = None,
                 deadline: float | None = None, tiered: bool | None = None, chunk_units: int | None = None,
                 fan_in: int = FAN_IN, should_stop: Callable[[], bool] | None = None) -> None:
        self.summarizer, self.fallback, self.cache = summarizer, fallback, cache
        self.count, self.chunk_tokens = count, chunk_tokens
        self.runner: Runner = runner or Inline()
        self.deadline = deadline
        self.tiered = bool(getattr(summarizer, "remote", False)) if tiered is None else tiered
        self.chunk_units = chunk_units or chunk_tokens * 4
        self.fan_in = max(2, fan_in)
        self.should_stop = should_stop
        self.narrative_tokens = NARRATIVE_TOKENS
        # The message the ledger reads for one the host's prompt changed before measuring (a folded
        # failed call: the ledger wants its exact error, not the fold); None: the message itself.
        self.original: Callable[[Any], Any] | None = None
        # What the agent-loop pre-pass judged of a tool result: (its call, whether it failed), or None.
        self.verdict: Callable[[Any], Any] | None = None
        self._merged: tuple[tuple[int, int], list[Any]] | None = None  # the last region's merged ledger

    @staticmethod
    def leaf_budget(budget: int) -> int:
        """The budget of one chunk summary (and of one merged group) on the tiered way."""
        return max(64, budget // 4)

    @property
    def ledgered(self) -> bool:
        """Whether the block is a session ledger (the built-in summarizer can build one)."""
        return hasattr(self.fallback, "items")

    def region(self, entries: Sequence[Entry], start: int, stop: int, budget: int) -> SummaryReport:
        report = SummaryReport(text="", summarizer=self.summarizer.identity)
        if self.ledgered:
            self._ledger(entries, start, stop, budget, report)
        elif self.tiered:
            self._tiered(entries, start, stop, budget, report)
        else:
            self._flat(entries, start, stop, budget, report)
        return report

    def prepare(self, entries: Sequence[Entry], start: int, stop: int, budget: int) -> SummaryReport:
        """Make (and cache) the model summaries a later ``region(start, >= stop)`` will need."""
        report = SummaryReport(text="", summarizer=self.summarizer.identity)
        leaf = self.leaf_budget(budget)
        closed = closed_chunks(entries, start, stop, self.chunk_units)
        if self.ledgered:  # the model writes the narrative of the newest closed chunk only
            self._leaves(entries, closed[-3:][::-1], self.narrative_tokens, report)  # newest first
            return report
        pieces = self._leaves(entries, closed, leaf, report)
        self._rollup(pieces, budget - leaf, leaf, report)
        return report

    def items(self, entries: Sequence[Entry], start: int, stop: int) -> list[Any]:
        """The ledger items of ``entries[start:stop]``, read from the originals (see ``original``)."""
        part = entries[start:stop]
        messages = [e.message for e in part]
        views = [e.view for e in part]
        if self.original is not None:
            for i, message in enumerate(messages):
                source = self.original(message)
                if source is not message:
                    messages[i], views[i] = source, view_of(source)
        return self.fallback.items(messages, views, start, self.verdict)  # type: ignore[attr-defined]

    def ledger_costs(self, entries: Sequence[Entry], start: int, stop: int) -> list[int]:
        """``costs[i]``: about what the ledger of ``entries[start:start + i]`` needs, in tokens
        (each distinct item once, at its first sight): what folding up to a cut adds to the block."""
        costs = [0] * (stop - start + 1)
        seen: set[tuple[str, str]] = set()
        total = 0
        count = self.count
        for item in self.items(entries, start, stop):
            slot = (item.section, item.key)
            # What a ledger never writes (successes, names prose used) or writes only with room to spare
            # (what only a tool printed and no one named) costs the block nothing here.
            if slot not in seen and item.section not in ("success", "mention") and not item.weak:
                seen.add(slot)
                total += count(item.text) + 6
            at = item.src - start + 1
            if 0 < at < len(costs):  # an item's cite is the message it came from, inside the region
                costs[at] = total
        for i in range(1, len(costs)):
            costs[i] = max(costs[i], costs[i - 1])
        return costs

    # --- the ledger ------------------------------------------------------------------------------

    def _ledger(self, entries: Sequence[Entry], start: int, stop: int, budget: int, report: SummaryReport) -> None:
        """The ledger of the region; with a model, the narrative of its newest closed chunk below it."""
        narrative = ""
        # A model with a time budget writes at a size fixed by the settings (its narratives are prepared
        # ahead under that key); one the host answers at once gets at most a third of the room.
        size = self.narrative_tokens if self.tiered else min(self.narrative_tokens, budget // 3)
        if self.summarizer is not self.fallback and size >= MIN_NARRATIVE_TOKENS and budget >= size + 128:
            if self.tiered:  # a model with a time budget: closed chunks only, each once
                closed = closed_chunks(entries, start, stop, self.chunk_units)
            else:  # a model the host answers at once (OpenClaw's llm.complete): the region's last chunk
                closed = chunk_bounds(entries, start, stop, self.chunk_tokens)[-1:]
                if closed and sum(e.tokens for e in entries[closed[0][0]:closed[0][1]]) < MIN_NARRATIVE_INPUT:
                    closed = []  # too little to need a model
            report.chunks = len(closed)
            if closed:
                narrative = self._narrative(entries, closed, report, size)
                narrative = _checked_narrative(narrative, entries[start:stop], report) if narrative else ""
        extra = self.count(narrative) + 24 if narrative else 0
        if self._merged is None or self._merged[0] != (start, stop):  # one merge per region, any budget
            self._merged = ((start, stop), merge(self.items(entries, start, stop), whole=True))
        text, left_out = render(self._merged[1], max(0, budget - extra), self.count)
        report.left_out = left_out
        report.chunks = max(report.chunks, 1)
        report.text = text + (f"\n## Narrative (written by the summary model; the items above are exact)\n"
                              f"{narrative.strip()}" if narrative else "")

    def _narrative(self, entries: Sequence[Entry], closed: list[tuple[int, int]], report: SummaryReport,
                   size: int) -> str:
        """The model's text for the newest closed chunk; while that is not ready and a slightly older
        one is (prepared ahead), the older one now and the newest in the background for later."""
        s = self.summarizer
        keys = [chunk_key(s.identity, s.prompt_version, size, entries[a:b]) for a, b in closed[-3:]]
        ready = next((self.cache.get(k) for k in reversed(keys[:-1]) if self.cache.get(k) is not None), None)
        if self.cache.get(keys[-1]) is None and ready is not None:
            deadline, self.deadline = self.deadline, time.monotonic()  # ask, but do not wait
            first, end = closed[-1]
            self._chunk(entries[first:end], size, SummaryReport(text=""))
            self.deadline = deadline
            report.cache_hits += 1
            return ready
        first, end = closed[-1]
        piece = self._chunk(entries[first:end], size, report)
        return piece.text if piece.model else ""

    # --- the two ways --------------------------------------------------------------------------

    def _flat(self, entries: Sequence[Entry], start: int, stop: int, budget: int, report: SummaryReport) -> None:
        pieces = [self._chunk(entries[first:end], budget, report)
                  for first, end in chunk_bounds(entries, start, stop, self.chunk_tokens)]
        texts = [p.text for p in pieces]
        report.chunks = len(pieces)
        if sum(p.tokens for p in pieces) + len(pieces) <= budget:
            report.text = "\n".join(texts)
        else:
            report.text = self._merge([p.key for p in pieces], texts, budget, report,
                                      model=all(p.model for p in pieces)).text

    def _tiered(self, entries: Sequence[Entry], start: int, stop: int, budget: int, report: SummaryReport) -> None:
        leaf = self.leaf_budget(budget)
        closed = closed_chunks(entries, start, stop, self.chunk_units)
        pieces = self._rollup(self._leaves(entries, closed, leaf, report), budget - leaf, leaf, report)
        texts = [p.text for p in pieces]
        open_from = closed[-1][1] if closed else start
        if open_from < stop:  # the open chunk gets the room the model's summaries leave, at least a leaf's
            room = max(leaf, budget - sum(p.tokens + 2 for p in pieces))
            texts.append(self._deterministic(entries[open_from:stop], room))
            report.open_messages = stop - open_from
            report.open_tokens = sum(entries[i].tokens for i in range(open_from, stop))
        report.chunks = len(closed) + (open_from < stop)
        if sum(self.count(t) for t in texts) + 2 * len(texts) <= budget:
            report.text = "\n\n".join(texts)
        else:
            report.text = self.fallback.merge(texts, budget, self.count)

    # --- pieces ------------------------------------------------------------------------------------

    def _leaves(self, entries: Sequence[Entry], closed: list[tuple[int, int]], leaf: int,
                report: SummaryReport) -> list[_Piece]:
        pieces = []
        for i, (first, end) in enumerate(closed):
            piece = self._chunk(entries[first:end], leaf, report)
            piece.first = i
            pieces.append(piece)
        return pieces

    def _rollup(self, pieces: list[_Piece], limit: int, leaf: int, report: SummaryReport) -> list[_Piece]:
        """Merge the oldest aligned groups of ``fan_in`` same-level pieces until the rest fits ``limit``."""
        k = self.fan_in
        while sum(p.tokens for p in pieces) > limit:
            at = next((i for i in range(len(pieces) - k + 1)
                       if all(p.level == pieces[i].level for p in pieces[i:i + k])
                       and pieces[i].first % k ** (pieces[i].level + 1) == 0), None)
            if at is None:
                break
            group = pieces[at:at + k]
            merged = self._merge([p.key for p in group], [p.text for p in group], leaf, report,
                                 model=all(p.model for p in group))
            merged.level, merged.first = group[0].level + 1, group[0].first
            pieces[at:at + k] = [merged]
        return pieces

    def _chunk(self, chunk: Sequence[Entry], budget: int, report: SummaryReport) -> _Piece:
        s, fb = self.summarizer, self.fallback
        views = [entry.view for entry in chunk]
        key = chunk_key(s.identity, s.prompt_version, budget, chunk)
        text = self._obtain(key, lambda: s.summarize(views, budget, self.count), report)
        if text is not None:
            return _Piece(0, 0, key, text, self.count(text), True)
        text = self._deterministic(chunk, budget)
        return _Piece(0, 0, chunk_key(fb.identity, fb.prompt_version, budget, chunk), text, self.count(text), False)

    def _merge(self, keys: list[str], texts: list[str], budget: int, report: SummaryReport, *, model: bool) -> _Piece:
        s, fb = self.summarizer, self.fallback
        report.merges += 1
        if model:
            key = merge_key(s.identity, s.prompt_version, budget, keys)
            text = self._obtain(key, lambda: s.merge(texts, budget, self.count), report)
            if text is not None:
                return _Piece(0, 0, key, text, self.count(text), True)
        # A group with a stand-in member is merged deterministically, under a key of its own, so
        # that it is redone by the model once every member has its model summary.
        text = fb.merge(texts, budget, self.count)
        return _Piece(0, 0, merge_key(fb.identity, fb.prompt_version, budget, keys), text, self.count(text), False)

    def _deterministic(self, chunk: Sequence[Entry], budget: int) -> str:
        fb = self.fallback
        key = chunk_key(fb.identity, fb.prompt_version, budget, chunk)
        text = self.cache.get(key)
        if text is None:
            text = fb.summarize([entry.view for entry in chunk], budget, self.count)
            self.cache.put(key, text, fb.identity)
        return text

    # --- calling the summarizer ---------------------------------------------------------------------

    def _left(self) -> float | None:
        return None if self.deadline is None else max(0.0, self.deadline - time.monotonic())

    def _obtain(self, key: str, make: Callable[[], str], report: SummaryReport) -> str | None:
        """The summarizer's text for ``key``: cached, or made now; None when it failed or is late."""
        cached = self.cache.get(key)
        if cached is not None:
            report.cache_hits += 1
            return cached
        if self.should_stop is not None and self.should_stop():
            raise Cancelled(key)
        s = self.summarizer

        def job() -> str:
            text = make()
            self.cache.put(key, text, s.identity)
            return text

        try:
            ready = getattr(s, "ready", None)
            if ready is not None:
                ready()  # a model that keeps failing is left alone, without a thread or a socket
            text = self.runner.run(key, job, self._left())
        except Cancelled:
            if self.should_stop is not None and self.should_stop():
                raise  # a stopped job ends here: no fallback written for it
            self._failed(report, "closing", "the runtime is closing; no new summary calls")
            return None
        except Pending:
            self._failed(report, "timeout", f"{s.identity} did not answer within the turn's time budget; its summary "
                                             "is used from the next turn on", pending=True)
            return None
        except SummarizerError as exc:
            if self.should_stop is not None and self.should_stop():  # e.g. the closing runtime cut its HTTP call
                raise Cancelled(key) from exc
            self._failed(report, getattr(exc, "kind", None) or "error", str(exc))
            return None
        report.summarized += 1
        _CAUSES.healed(s.identity)
        return text

    def _failed(self, report: SummaryReport, kind: str, error: str, *, pending: bool = False) -> None:
        report.fallbacks += 1
        report.failures[kind] += 1
        report.pending += pending
        report.errors.append(error)
        repeats = _CAUSES.seen(self.summarizer.identity, kind)
        if repeats == 0:
            logger.warning("summary.fallback", summarizer=self.summarizer.identity, kind=kind, error=error)
        else:  # the same cause again: counted in the metrics and /context-stats, one warning is enough
            logger.info("summary.fallback_again", summarizer=self.summarizer.identity, kind=kind, repeats=repeats)


class _Causes:
    """One ``summary.fallback`` warning per cause (a summarizer and a kind of failure) until that summarizer
    succeeds again: 62 turns that each fell back on a few chunks for one cause were 172 warnings."""

    def __init__(self) -> None:
        self._seen: dict[tuple[str, str], int] = {}
        self._lock = threading.Lock()

    def seen(self, summarizer: str, kind: str) -> int:
        """How often this cause was seen before (0: warn)."""
        with self._lock:
            n = self._seen.get((summarizer, kind), 0)
            self._seen[(summarizer, kind)] = n + 1
            if len(self._seen) > 10_000:
                self._seen.clear()
            return n

    def healed(self, summarizer: str) -> None:
        with self._lock:
            for cause in [c for c in self._seen if c[0] == summarizer]:
                del self._seen[cause]


_CAUSES = _Causes()



def _checked_narrative(text: str, region: Sequence[Entry], report: SummaryReport) -> str:
    """The model's text, unless it names paths, ids, identifiers or code that the originals do not contain."""

    def originals() -> str:
        return "\n".join(" ".join([e.view.text, e.view.tool_name or "", *(f"{c.name} {c.arguments}" for c in e.view.calls)])
                         for e in region)

    bad = invented(text, originals)
    if bad:
        report.failures["invented"] += 1
        report.errors.append(f"the summary model's text names {bad[:60]!r}, which the folded messages do not "
                             "contain; its narrative was left out")
        logger.warning("summary.rejected", summarizer=report.summarizer, token=bad[:60])
        return ""
    return text
