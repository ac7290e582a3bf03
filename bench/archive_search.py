"""Archive write and search costs: what a cold compaction pays to archive, and search over 1M messages.

    python bench/archive_search.py [--engine sqlite|postgres] [--messages 1000000] [--store PATH|URL] [--queries 200]

``--engine postgres`` uses the ``postgresql://`` URL of ``--store``, or else starts a throwaway server the way
the tests do (``tests/pgserver.py``: Debian's ``postgresql`` package) and builds its store there.

Prints, on this machine:
  1. ``Store.archive`` for one cold compaction: 3,000 messages, ~1.2M tokens (~4.8 MB of text), in a
     fresh store; and the full-text indexing of the same rows (``index_pending``), which the write
     leaves for later.
  2. Search p50/p95 over ``--messages`` archived messages (sessions of 3,000), within one session
     (the recall tool's case) and across all sessions, for queries of 2-5 words drawn like the text.

Text is synthetic: a Zipf-distributed vocabulary of 50,000 words in sentences, plus identifiers
(paths, ports, hex ids) that occur once, so that term frequencies look like a real transcript's.
A store built once is reused by later runs with the same --store (delete it to rebuild).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import statistics
import sys
import tempfile
import time
from itertools import accumulate
from pathlib import Path

from context_compactor.store import Store

SESSION = 3000


class Text:
    """Deterministic synthetic transcript text."""

    def __init__(self, seed: int = 7) -> None:
        self.rng = random.Random(seed)
        letters = "abcdefghijklmnopqrstuvwxyz"
        self.words = ["".join(self.rng.choice(letters) for _ in range(self.rng.randint(2, 10))) for _ in range(50_000)]
        self.cum = list(accumulate(1 / (rank + 1) ** 1.07 for rank in range(len(self.words))))
        self.sentences = [" ".join(self.rng.choices(self.words, cum_weights=self.cum, k=self.rng.randint(6, 16)))
                          for _ in range(100_000)]

    def message(self, n: int, chars: int) -> str:
        parts: list[str] = []
        size = 0
        while size < chars:
            s = self.sentences[self.rng.randrange(len(self.sentences))]
            parts.append(s)
            size += len(s) + 2
        fact = hashlib.sha256(str(n).encode()).hexdigest()[:10]
        parts.insert(self.rng.randrange(len(parts) + 1), f"id {fact} port {1024 + n % 60000} src/mod{n % 997}.py")
        return ". ".join(parts)

    def query(self) -> str:
        return " ".join(self.rng.choices(self.words[:20_000], cum_weights=self.cum[:20_000], k=self.rng.randint(2, 5)))


def messages_for(text: Text, session: int, count: int, mean_chars: int) -> list[tuple[str, str, dict[str, str], int]]:
    rows = []
    for i in range(count):
        n = session * SESSION + i
        role = ("user", "assistant", "tool")[i % 3]
        chars = max(20, int(text.rng.expovariate(1 / mean_chars)))
        msg = {"role": role, "content": text.message(n, chars)}
        if role == "tool":
            msg["tool_call_id"] = f"c{n}"
        rows.append((f"d{n}", role, msg, i))
    return rows


class Fresh:
    """A new empty store of the engine for each use: a file in a temporary folder, or a new database."""

    def __init__(self, engine: str) -> None:
        self.engine = engine

    def __enter__(self) -> Store:
        if self.engine == "postgres":
            self.folder = None
            return Store.open(throwaway_database())
        self.folder = tempfile.TemporaryDirectory()
        return Store.open(Path(self.folder.name) / "store.sqlite")

    def __exit__(self, *exc: object) -> None:
        if self.folder is not None:
            self.folder.cleanup()


def throwaway_database() -> str:
    """A new database on the throwaway server of tests/pgserver.py (started on first use, stopped at exit)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    import pgserver  # type: ignore[import-not-found]

    ok, missing = pgserver.available()
    if not ok:
        raise SystemExit(f"--engine postgres needs {missing}, or a postgresql:// URL as --store")
    return str(pgserver.cluster().database())


def cold_compaction(text: Text, engine: str, runs: int = 5) -> None:
    rows = messages_for(text, 0, SESSION, 1600)
    mb = sum(len(m["content"]) for _d, _r, m, _i in rows) / 1e6
    writes, indexes = [], []
    for _ in range(runs):
        with Fresh(engine) as store:
            start = time.perf_counter()
            store.archive("cold", rows)
            writes.append((time.perf_counter() - start) * 1e3)
            start = time.perf_counter()
            store.index_pending()
            indexes.append((time.perf_counter() - start) * 1e3)
            store.close()
    print(f"cold compaction: archive() of {SESSION:,} messages ({mb:.1f} MB of text, ~{mb / 4 * 1e6 / 1e6:.2f}M tokens): "
          f"median {statistics.median(writes):.0f} ms (min {min(writes):.0f}, max {max(writes):.0f}) over {runs} runs")
    print(f"                 index_pending() of the same rows: median {statistics.median(indexes):.0f} ms "
          f"(min {min(indexes):.0f}) -- deferred: not on the compaction's path")


def build(store: Store, text: Text, total: int, mean_chars: int) -> None:
    have = sum(s.messages for s in store.sessions())
    start = time.perf_counter()
    for session in range(have // SESSION, -(-total // SESSION)):
        count = min(SESSION, total - session * SESSION)
        store.archive(f"session-{session}", messages_for(text, session, count, mean_chars))
        store.index_pending()
        if session % 20 == 0:
            done = session * SESSION + count
            print(f"  built {done:,} messages, {store.size_bytes() / 1e6:,.0f} MB, "
                  f"{time.perf_counter() - start:.0f} s", file=sys.stderr)


def settle(url: str) -> None:
    """What autovacuum does to a live database's archive after a build this fast: planner statistics
    and GIN's pending lists merged (a store's own indexer merges what it indexes; this covers the rest)."""
    import psycopg

    start = time.perf_counter()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE archive")
    print(f"VACUUM ANALYZE: {time.perf_counter() - start:.0f} s")


def timed(store: Store, queries: list[str], sessions: list[str | None]) -> list[float]:
    out = []
    for query, session in zip(queries, sessions):
        start = time.perf_counter()
        store.search(query, session=session, limit=5)
        out.append((time.perf_counter() - start) * 1e3)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--messages", type=int, default=1_000_000)
    parser.add_argument("--mean-chars", type=int, default=400, help="mean message length in the big store")
    parser.add_argument("--engine", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--store", help="a SQLite file (default: cc-bench-archive.sqlite in the temporary folder), "
                                        "or with --engine postgres a postgresql:// URL (default: a throwaway server)")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--no-cold", action="store_true", help="skip the cold compaction's figures")
    args = parser.parse_args()
    if args.store is None:
        args.store = throwaway_database() if args.engine == "postgres" else \
            os.path.join(tempfile.gettempdir(), "cc-bench-archive.sqlite")
    text = Text()
    print(f"engine: {args.engine}")
    if not args.no_cold:
        cold_compaction(text, args.engine)

    start = time.perf_counter()
    store = Store.open(args.store)
    print(f"open: {(time.perf_counter() - start) * 1e3:.0f} ms")
    build(store, text, args.messages, args.mean_chars)
    if args.engine == "postgres":
        settle(args.store)
    count = sum(s.messages for s in store.sessions())
    n_sessions = -(-count // SESSION)
    print(f"store: {count:,} messages in {n_sessions:,} sessions, {store.size_bytes() / 1e6:,.0f} MB on disk")
    store.close()
    start = time.perf_counter()
    store = Store.open(args.store)
    print(f"reopen: {(time.perf_counter() - start) * 1e3:.0f} ms")

    queries = [text.query() for _ in range(args.queries)]
    picked: list[str | None] = [f"session-{text.rng.randrange(n_sessions)}" for _ in queries]
    timed(store, queries[:10], picked[:10])  # warm the page cache as a long-running gateway would be
    for label, sessions in (("within one session", picked), ("across all sessions", [None] * len(queries))):
        ms = sorted(timed(store, queries, sessions))
        print(f"search {label}: p50 {statistics.median(ms):.1f} ms, p95 {ms[int(len(ms) * 0.95) - 1]:.1f} ms, "
              f"max {ms[-1]:.1f} ms over {len(ms)} queries of 2-5 words (target p50 <= 20 ms)")
    fact = 123_457 % count
    hits = store.search(f"id {hashlib.sha256(str(fact).encode()).hexdigest()[:10]}", limit=1)
    print(f"a planted identifier is found: {bool(hits) and hits[0].session == f'session-{fact // SESSION}'}")
    store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
