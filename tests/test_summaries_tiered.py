"""The tiered summary of the folded region: each closed chunk and each merge made once, never stalling."""

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


def test_only_closed_chunks_go_to_the_model_each_once() -> None:
    """As the folded region grows over many compactions, every closed chunk is summarized exactly once."""
    model, cache, es = Recorder(), Cache(), entries(200)
    for stop in range(7, 190, 7):
        report = summaries(model, cache).region(es, 0, stop, 1000)
        closed = closed_chunks(es, 0, stop, 1000)
        assert report.open_messages == stop - (closed[-1][1] if closed else 0)
    assert len(model.chunks) == len(set(model.chunks)) == len(closed_chunks(es, 0, 189, 1000))
    assert all(last - first + 1 <= 3 for first, last in model.chunks)  # 2 or 3 messages of ~104 tokens per chunk


def test_merges_are_aligned_groups_of_disjoint_summaries_made_once() -> None:
    """Merges combine fan_in contiguous, disjoint groups, aligned on the chunk index; none is made twice."""
    model, cache, es = Recorder(), Cache(), entries(300)
    for stop in range(5, 295, 5):
        report = summaries(model, cache).region(es, 0, stop, 400)
        assert len(report.text) // 4 <= 400
    assert model.merges and len({tuple(m) for m in model.merges}) == len(model.merges)
    for parts in model.merges:
        assert len(parts) == 4
        assert all(parts[i][1] + 1 == parts[i + 1][0] for i in range(3))  # contiguous and disjoint


def test_the_block_keeps_the_newest_detail_and_fits_the_budget() -> None:
    """Older chunks are consolidated first; the block stays within budget and covers the whole region."""
    model, cache, es = Recorder(), Cache(), entries(300)
    report = summaries(model, cache).region(es, 0, 280, 400)
    assert -(-len(report.text) // 4) <= 400 and report.merges >= 1
    covered = [tuple(int(x) for x in m.groups()) for m in RANGE.finditer(report.text)]
    assert covered[0][0] == 0 and all(a[1] + 1 == b[0] for a, b in zip(covered, covered[1:]))


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


def test_a_late_model_leaves_the_turn_to_the_fallback_and_the_cache_to_the_next() -> None:
    """Calls that miss the deadline fall back (kind timeout, pending); their results serve the next turn."""
    model, cache, es, late = Recorder(), Cache(), entries(40), LateRunner()
    first = summaries(model, cache, runner=late, deadline=0.0).region(es, 0, 30, 1000)
    assert first.fallbacks == first.pending == len(late.jobs) > 0 and first.failures == {"timeout": first.fallbacks}
    assert "## User instructions" in first.text
    for job in late.jobs:
        job()  # the background finishes, and the jobs fill the cache
    second = summaries(model, cache, runner=late, deadline=0.0).region(es, 0, 30, 1000)
    assert second.fallbacks == 0 and second.cache_hits == len(late.jobs) and "covers m0-" in second.text


def test_a_failed_chunk_is_stood_in_for_and_its_group_redone_later() -> None:
    """A failed chunk uses the deterministic summary; its group's merge waits for the model's own summary."""
    model, cache, es = Recorder(), Cache(), entries(120)
    model.fail = True
    down = summaries(model, cache).region(es, 0, 100, 400)
    assert down.fallbacks > 0 and down.failures == {"error": down.fallbacks} and not model.merges
    model.fail = False
    up = summaries(model, cache).region(es, 0, 100, 400)
    assert up.fallbacks == 0 and model.merges and "covers m0-" in up.text


def test_prepare_makes_everything_the_region_needs() -> None:
    """After prepare() over the closed chunks, region() at any earlier cut asks the model nothing."""
    model, cache, es = Recorder(), Cache(), entries(200)
    summaries(model, cache).prepare(es, 0, 190, 400)
    asked = (len(model.chunks), len(model.merges))
    for stop in (60, 120, 185):
        report = summaries(model, cache).region(es, 0, stop, 400)
        assert report.summarized == 0 and report.fallbacks == 0
    assert (len(model.chunks), len(model.merges)) == asked


@pytest.mark.parametrize("fan_in", [2, 3, 4])
def test_every_fan_in_keeps_merges_disjoint(fan_in: int) -> None:
    """Whatever the fan-in, no two merges cover the same chunk at the same level."""
    model, cache, es = Recorder(), Cache(), entries(250)
    for stop in range(10, 245, 10):
        summaries(model, cache, fan_in=fan_in).region(es, 0, stop, 300)
    assert len({tuple(m) for m in model.merges}) == len(model.merges)
    assert all(len(parts) == fan_in for parts in model.merges)
