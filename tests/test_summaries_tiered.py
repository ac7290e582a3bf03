"""With a summary model: the ledger is the block, the model writes the narrative of the newest closed chunk
below it, once per chunk, checked against the originals, never stalling the turn."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from context_compactor.engine import Measurer
from context_compactor.engine.chunks import closed_chunks
from context_compactor.engine.summaries import Pending, Summaries
from context_compactor.errors import SummarizerError
from context_compactor.summarizer.fallback import ExtractiveSummarizer
from context_compactor.tokens import CharCounter

RANGE = re.compile(r"covers m(\d+)-m(\d+)")


class Recorder:
    """A model summarizer that records what it is asked; summaries name the messages they cover."""

    identity = "fake-model"
    prompt_version = "1"
    remote = True

    def __init__(self) -> None:
        self.chunks: list[tuple[int, int]] = []
        self.merges: list[list[tuple[int, int]]] = []
        self.fail = False

    def summarize(self, views: Sequence[Any], budget: int, count: Callable[[str], int]) -> str:
        if self.fail:
            raise SummarizerError("down")
        ids = [int(v.text.split()[0][1:]) for v in views]
        self.chunks.append((ids[0], ids[-1]))
        return f"## Covered\n- covers m{ids[0]}-m{ids[-1]}"

    def merge(self, summaries: Sequence[str], budget: int, count: Callable[[str], int]) -> str:
        parts = [tuple(int(x) for x in RANGE.search(s).groups()) for s in summaries]  # type: ignore[union-attr]
        self.merges.append(parts)  # type: ignore[arg-type]
        return f"## Covered\n- covers m{parts[0][0]}-m{parts[-1][1]}"


class Cache(dict[str, str]):
    def put(self, key: str, text: str, summarizer: str) -> None:
        self[key] = text


def entries(n: int, chars: int = 400, ratio: float = 4.0) -> list[Any]:
    messages = [{"role": "user" if i % 2 else "assistant", "content": f"m{i} " + "x" * chars} for i in range(n)]
    return Measurer(CharCounter(ratio), 4).measure(messages).entries


def summaries(model: Recorder, cache: Cache, **kw: Any) -> Summaries:
    def count(text: str) -> int:
        return -(-len(text) // 4)

    options: dict[str, Any] = {"tiered": True, "chunk_units": 1000, **kw}
    return Summaries(model, ExtractiveSummarizer(), cache, count, 250, **options)


@pytest.mark.slow
def test_only_the_newest_closed_chunk_goes_to_the_model_each_once() -> None:
    """As the folded region grows over many compactions, the model is asked for the newest closed chunk
    only, and never twice for the same one."""
    model, cache, es = Recorder(), Cache(), entries(200)
    for stop in range(7, 190, 7):
        summaries(model, cache).region(es, 0, stop, 2000)
    assert len(model.chunks) == len(set(model.chunks))
    newest = {tuple(closed_chunks(es, 0, stop, 1000)[-1]) for stop in range(7, 190, 7) if closed_chunks(es, 0, stop, 1000)}
    assert len(model.chunks) == len(newest)


def test_the_block_is_the_ledger_with_the_narrative_below() -> None:
    """The block holds the ledger's sections and the model's narrative once, within the budget."""
    model, cache, es = Recorder(), Cache(), entries(60)
    report = summaries(model, cache).region(es, 0, 50, 2000)
    assert -(-len(report.text) // 4) <= 2000
    assert report.text.count("## Narrative") == 1 and report.text.count("covers m") == 1
    assert report.text.index("## Narrative") > report.text.index("## ")


class Inventor(Recorder):
    def summarize(self, views: Sequence[Any], budget: int, count: Callable[[str], int]) -> str:
        return "The agent edited src/invented/module.py and opened ticket ZZZ-999."


def test_a_narrative_that_invents_paths_or_ids_is_left_out() -> None:
    """A model text naming a path or an id that no folded message contains is rejected, and counted."""
    cache, es = Cache(), entries(60)
    report = summaries(Inventor(), cache).region(es, 0, 50, 2000)
    assert "## Narrative" not in report.text and "invented" not in report.text
    assert report.failures["invented"] == 1


def test_calibration_never_moves_a_chunk_boundary() -> None:
    """Closed chunks are sized in units, so a recalibrated ratio gives the same chunks (and cache keys)."""
    assert closed_chunks(entries(60, ratio=4.0), 0, 60, 1000) == closed_chunks(entries(60, ratio=2.7), 0, 60, 1000)


class LateRunner:
    """A runner whose calls never finish in time; their jobs are kept to be run 'later'."""

    def __init__(self) -> None:
        self.jobs: list[Callable[[], str]] = []

    def run(self, key: str, job: Callable[[], str], wait: float | None) -> str:
        self.jobs.append(job)
        raise Pending(key)


def test_a_late_model_leaves_the_turn_to_the_ledger_and_the_cache_to_the_next() -> None:
    """A call that misses the deadline leaves this turn the ledger alone (kind timeout, pending); its result
    serves the next turn from the cache."""
    model, cache, es, late = Recorder(), Cache(), entries(40), LateRunner()
    first = summaries(model, cache, runner=late, deadline=0.0).region(es, 0, 30, 2000)
    assert first.fallbacks == first.pending == len(late.jobs) == 1 and first.failures == {"timeout": 1}
    assert "## Narrative" not in first.text and "## " in first.text
    for job in late.jobs:
        job()
    second = summaries(model, cache, runner=late, deadline=0.0).region(es, 0, 30, 2000)
    assert second.fallbacks == 0 and second.cache_hits == 1 and "covers m" in second.text


def test_a_failed_model_leaves_the_ledger_whole() -> None:
    """When the model fails, the block is the full ledger, and the failure is counted."""
    model, cache, es = Recorder(), Cache(), entries(60)
    model.fail = True
    down = summaries(model, cache).region(es, 0, 50, 2000)
    assert down.failures == {"error": 1} and "## Narrative" not in down.text and "## " in down.text


def test_prepare_makes_what_the_region_needs() -> None:
    """After prepare() the compaction at the same or a nearby cut asks the model nothing."""
    model, cache, es = Recorder(), Cache(), entries(200)
    summaries(model, cache).prepare(es, 0, 190, 2000)
    asked = len(model.chunks)
    report = summaries(model, cache).region(es, 0, 190, 2000)
    assert report.summarized == 0 and report.fallbacks == 0 and len(model.chunks) == asked
