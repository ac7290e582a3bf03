"""The store's two engines side by side: archive writes, indexing and search, SQLite vs PostgreSQL.

    python bench/store_engines.py                        # starts a throwaway PostgreSQL (tests/pgserver.py)
    python bench/store_engines.py --url postgresql://... --messages 100000

Prints, per engine: the time to archive a cold compaction's batch (3,000 messages) and a turn's batch
(20), to index them, and the p50/p95 of a search within a session and across the archive. Needs
the `postgres` extra and PostgreSQL's server binaries (or --url).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from context_compactor.store import Store

WORDS = ("deploy token staging cluster parser migration invoice retry timeout config port server build test "
         "module refactor release branch commit docker image region bucket queue worker schema index").split()


def message(rng: random.Random, i: int) -> dict[str, Any]:
    text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(40, 400)))
    return {"role": "user" if i % 2 == 0 else "assistant", "content": f"message {i}: {text} id-{rng.getrandbits(40):x}"}


def fill(store: Store, messages: int, sessions: int, rng: random.Random) -> None:
    per = messages // sessions
    for s in range(sessions):
        rows = [(f"s{s}-d{i}", "user" if i % 2 == 0 else "assistant", message(rng, i), i) for i in range(per)]
        for start in range(0, len(rows), 5000):
            store.archive(f"session-{s}", rows[start:start + 5000])
    store.index_pending()


def timed(action: Any) -> float:
    started = time.perf_counter()
    action()
    return (time.perf_counter() - started) * 1000


def run(store: Store, args: argparse.Namespace) -> dict[str, float]:
    rng = random.Random(7)
    fill(store, args.messages, args.sessions, rng)
    cold = [(f"cold-d{i}", "user", message(rng, i), i) for i in range(3000)]
    turn = [(f"turn-d{i}", "user", message(rng, i), 3000 + i) for i in range(20)]
    out = {"archive 3,000 (ms)": timed(lambda: store.archive("bench", cold)),
           "archive 20 (ms)": timed(lambda: store.archive("bench", turn)),
           "index 3,020 (ms)": timed(store.index_pending),
           "archive 3,000 again (ms)": timed(lambda: store.archive("bench", cold))}
    queries = [" ".join(rng.sample(WORDS, 3)) + f" id-{rng.getrandbits(40):x}" for _ in range(args.queries)]
    within = [timed(lambda q=q: store.search(q, session="session-0", limit=60)) for q in queries]
    across = [timed(lambda q=q: store.search(q, limit=5)) for q in queries]
    out |= {"search in a session p50 (ms)": statistics.median(within),
            "search in a session p95 (ms)": statistics.quantiles(within, n=20)[-1],
            "search all p50 (ms)": statistics.median(across),
            "search all p95 (ms)": statistics.quantiles(across, n=20)[-1]}
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", help="a PostgreSQL database to use (default: a throwaway server)")
    parser.add_argument("--messages", type=int, default=20000, help="archived messages before measuring")
    parser.add_argument("--sessions", type=int, default=10)
    parser.add_argument("--queries", type=int, default=40)
    args = parser.parse_args()
    cluster = None
    url = args.url
    if url is None:
        import pgserver

        cluster = pgserver.cluster()
        url = cluster.database()
    results = {}
    try:
        with tempfile.TemporaryDirectory() as folder:
            for name, path in (("sqlite", str(Path(folder) / "bench.sqlite")), ("postgresql", url)):
                store = Store.open(path)
                try:
                    results[name] = run(store, args)
                finally:
                    store.close()
    finally:
        if cluster is not None:
            cluster.stop()
    print(f"{args.messages:,} archived messages in {args.sessions} sessions, {args.queries} queries")
    print(f"{'':32}{'sqlite':>12}{'postgresql':>12}")
    for key in results["sqlite"]:
        print(f"{key:32}{results['sqlite'][key]:12.1f}{results['postgresql'][key]:12.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
