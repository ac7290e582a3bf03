"""Issue 21, the soak: what a long-running gateway keeps grows to a documented bound early and no further.

RSS under load is a figure, not an assertion (``python bench/gateway.py --parts soak``); these tests
hold each bound that figure rests on, at its cause.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from pathlib import Path

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
