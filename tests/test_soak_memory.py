"""Issue 21, the soak: what a long-running gateway keeps grows to a documented bound early and no further.

RSS under load is a figure, not an assertion (``python bench/gateway.py --parts soak``); these tests
hold each bound that figure rests on, at its cause.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import tracemalloc
from pathlib import Path

from context_compactor.gateway.metrics import Metrics
from context_compactor.store import BATCH_CACHE_KIB, STEADY_CACHE_KIB, Store

ROW = "x" * 4000


def sqlite_memory() -> tuple[int, int]:
    """(bytes SQLite holds now, its high-water mark since the last reset), of the library Python's sqlite3
    module runs on; the mark is reset."""
    lib = ctypes.CDLL(ctypes.util.find_library("sqlite3") or "libsqlite3.so.0")
    now, high = ctypes.c_int64(), ctypes.c_int64()
    assert lib.sqlite3_status64(0, ctypes.byref(now), ctypes.byref(high), 1) == 0  # SQLITE_STATUS_MEMORY_USED
    return now.value, high.value


def test_the_page_cache_a_batch_fills_is_given_back_after_it(tmp_path: Path) -> None:
    """Twenty compactions' archive batches (20 MB of rows) leave SQLite holding no more than its steady
    cache: the batch's larger cache is given back, so the store's memory does not grow with the archive."""
    store = Store(tmp_path / "store.sqlite")
    try:
        start, _ = sqlite_memory()
        for n in range(20):
            store.archive(f"s{n}", [(f"d{n}-{i}", "user", {"role": "user", "content": f"{n} {i} {ROW}"}, i)
                                    for i in range(250)])
        now, high = sqlite_memory()
    finally:
        store.close()
    # The measure reads the right library: the batches did fill a cache well above the steady one.
    assert high - start > STEADY_CACHE_KIB * 1024
    assert now - start < STEADY_CACHE_KIB * 1024 + 1024 * 1024 < BATCH_CACHE_KIB * 1024


def test_counting_sessions_takes_the_same_memory_for_twenty_thousand_as_for_none() -> None:
    """The gateway's ``context_compactor_sessions`` count holds no key: 20,000 new sessions (a client that
    opens a new unnamed conversation each time) add nothing to what it holds, and the count is within 2%."""
    metrics = Metrics()
    keys = [f"gw:anon:{n:024x}" for n in range(20_000)]
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for key in keys:
            metrics.turn(key, "200", False, 100, 100, 0)
            metrics.turn(key, "200", False, 100, 100, 0)  # a session seen again is not counted again
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert held < 16 * 1024
    assert abs(len(metrics.sessions) - 20_000) < 400
    assert metric_line(metrics, "context_compactor_sessions") == len(metrics.sessions)


def metric_line(metrics: Metrics, name: str) -> int:
    """The value of one line of the rendered ``/metrics`` text."""
    text = metrics.render(idle_waits=0, in_flight=0).decode()
    return int(next(line.split()[1] for line in text.splitlines() if line.split()[0] == name))


def test_the_ledgers_verdict_caches_stay_within_their_bounds_whatever_users_write() -> None:
    """The rule verdicts (keyed by whole user sentences) and the identifier verdicts (keyed by tokens) of
    50,000 distinct sentences and tokens keep at most their bounds: a gateway that serves sessions for
    weeks holds the latest verdicts, not every sentence it ever read."""
    from context_compactor.summarizer import identifiers
    from context_compactor.summarizer.ledger import prose

    prose.is_rule.cache_clear()
    identifiers._KNOWN.clear()
    for n in range(50_000):
        prose.is_rule(f"please never restart worker-{n} during business hours")
        identifiers.identifier_items(f"deploy build-{n:07d}a to host-{n}.example.internal:8443", 0, strong_only=False)
    assert prose.is_rule.cache_info().currsize <= 2_048
    assert len(identifiers._KNOWN) <= identifiers._KNOWN_MAX <= 10_000
