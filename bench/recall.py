"""Recall of folded facts: is a fact that left the prompt found again by searching the archive? (issue 12)

    python bench/recall.py                        # 150k and 1.2M tokens, seeds 1-3, window 8192
    python bench/recall.py --sizes 150k --seeds 1 --lost    # and list the facts not found

Sessions come from ``bench/sessiongen.py``; each is compacted once at ``--window`` through the hook,
with a SQLite store in a temp folder (the archive the recall tool reads). For every planted fact
whose message left the verbatim part of the prompt, ``fact.query`` (a paraphrase of the fact's
context, without its value) is searched in that session's archive, as ``archive search`` and the
``recall_history`` tool do; the fact is found at rank k when the k-th hit's original text holds the
value (``archive search --session`` ranks the same way). Printed: found in the top 1 / 3 / 5, by
kind; automatic recall (the fact's query as the user's message) giving the value; how often
automatic recall fires on 40 user messages of another session (written alike, with nothing to
recall here), which is what it costs in tokens; and the search's p50. Figures are printed, never
asserted.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fidelity import NAMED_SIZES, configure_logging, text_of, verbatim_indexes
from sessiongen import Session, make_session

from context_compactor.hooks import recall
from context_compactor.hookspecs import BeforeAgentStartEvent, HookContext, ModelInfo
from context_compactor.plugins import get_plugin_manager
from context_compactor.runtime import Runtime
from context_compactor.settings import Settings
from context_compactor.store import Store

KEY = "recall-bench"


def compact_with_store(session: Session, window: int, folder: str) -> tuple[list[Any], Store]:
    """Compact once through the hook with a store on disk; returns the prompt and the store."""
    store = Store.open(Path(folder) / "store.sqlite")
    runtime = Runtime(Settings(contextWindow=window), store=store, persist_sessions=False)
    model = ModelInfo(id="bench/recall", context_window=window)
    ctx = HookContext(session_key=KEY, runtime=runtime, model=model)
    result = get_plugin_manager().hook.before_agent_start(
        event=BeforeAgentStartEvent(messages=session.messages, model=model), ctx=ctx)
    sent = result.messages if result is not None and result.messages is not None else session.messages
    return list(sent), store


def found_rank(store: Store, query: str, value: str, limit: int = 5) -> int | None:
    for rank, hit in enumerate(recall.search(store, query, KEY, limit), 1):
        original = store.fetch(hit.id, 0, 1 << 22)
        if original is not None and value in original.text:
            return rank
    return None


def run(size: str, seed: int, window: int, lost: bool) -> dict[str, Any]:
    session = make_session(seed, NAMED_SIZES[size])
    with tempfile.TemporaryDirectory() as folder:
        sent, store = compact_with_store(session, window, folder)
        try:
            verbatim = verbatim_indexes(session.messages, sent)
            store.index_pending()
            prompt = recall.prompt_text(sent)
            kept = [i for i, m in enumerate(session.messages) if id(m) in {id(x) for x in sent}]
            by_kind: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])  # facts, top1, top3, top5
            auto = [0, 0]  # fired with the value, facts
            misses = []
            search_ms = []
            for fact in session.facts:
                if fact.index in verbatim:
                    continue
                t0 = time.perf_counter()
                rank = found_rank(store, fact.query, fact.value)
                search_ms.append(1000 * (time.perf_counter() - t0))
                row = by_kind[fact.kind]
                row[0] += 1
                for slot, k in ((1, 1), (2, 3), (3, 5)):
                    row[slot] += rank is not None and rank <= k
                if rank is None or rank > 3:
                    misses.append((fact.kind, fact.query, fact.value, rank))
                got = recall.auto_recall(store, KEY, fact.query, kept, prompt, lambda t: len(t) // 4)
                auto[1] += 1
                auto[0] += got is not None and fact.value in _full(store, got)
            # What automatic recall costs: how often it fires on new user messages it has no answer for
            # (another session's, written alike), each a snippet in the prompt.
            others = [text_of(m) for m in make_session(seed + 100, 200).messages if m.get("role") == "user"][1:41]
            fired = sum(recall.auto_recall(store, KEY, text, kept, prompt, lambda t: len(t) // 4) is not None
                        for text in others)
            users = len(others)
        finally:
            store.close()
    if lost:
        for kind, query, value, rank in misses:
            print(f"  not in top 3 ({kind}, rank {rank}): {query!r} -> {value[:70]!r}")
    total = [sum(r[i] for r in by_kind.values()) for i in range(4)]
    return {"size": size, "seed": seed, "window": window, "folded": total[0], "top1": total[1], "top3": total[2],
            "top5": total[3], "by_kind": dict(by_kind), "auto": auto, "auto_fired_on_user": (fired, users),
            "search_ms": sorted(search_ms)[len(search_ms) // 2] if search_ms else 0.0}


def _full(store: Store, got: recall.Recalled) -> str:
    return got.text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="150k,1.2m")
    parser.add_argument("--seeds", default="1,2,3")
    parser.add_argument("--window", type=int, default=8192)
    parser.add_argument("--lost", action="store_true", help="list the facts not found in the top 3")
    args = parser.parse_args(argv)
    configure_logging()
    grand = [0, 0]
    print(f"{'size':>5} {'seed':>4} {'folded':>6} {'top1':>5} {'top3':>5} {'top5':>5}  by kind (top3/folded)"
          "                      auto-recall  fires on unrelated  search p50 ms")
    for size in args.sizes.lower().split(","):
        for seed in (int(s) for s in args.seeds.split(",")):
            r = run(size, seed, args.window, args.lost)
            grand[0] += r["top3"]
            grand[1] += r["folded"]
            kinds = " ".join(f"{k[:5]} {v[2]}/{v[0]}" for k, v in sorted(r["by_kind"].items()))
            fired, users = r["auto_fired_on_user"]
            print(f"{size:>5} {seed:>4} {r['folded']:>6} {r['top1']:>5} {r['top3']:>5} {r['top5']:>5}  {kinds:<45}"
                  f"{r['auto'][0]:>4}/{r['auto'][1]:<4}   {fired:>4}/{users:<4}         {r['search_ms']:>6.1f}")
    if grand[1]:
        print(f"top 3 overall: {grand[0]}/{grand[1]} = {100 * grand[0] / grand[1]:.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
