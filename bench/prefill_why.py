"""Where ours' prefill comes from, call by call (issue 26): what each large recomputation rewrote.

    python bench/prefill_why.py                          # sessiongen, 400 messages, 8k
    python bench/prefill_why.py --gen gen_ops --share 0.3 --window 32768 --messages 3000

Runs one session through ``Compactor`` as ``bench/prefill.py`` does and, for every call whose prefill
is above ``--share`` of the window, prints where the prompt first differs from the previous one (the
block's header, a tier, the kept part, a stub) and how the plan moved (cut, stub boundary, tiers
appended or merged). Then the session's prefill by cause. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
from collections import Counter
from typing import Any

import prefill  # bench/prefill.py: sys.path is set up there
from prefill import PrefixCache, Tally, calls, counter, render, session


def where(prev: list[str], parts: list[str]) -> tuple[int, str]:
    """The index of the first rendered part that differs, and what it is."""
    i = 0
    while i < len(prev) and i < len(parts) and prev[i] == parts[i]:
        i += 1
    if i >= len(parts):
        return i, "nothing"
    part = parts[i]
    if "[context-compactor: ledger of " in part:
        old = prev[i] if i < len(prev) else ""
        same = prefill.common_prefix(old, part)
        return i, "block (header)" if same < 200 else "block (body)"
    if "tool result archived by context-compactor" in part:
        return i, "stub"
    if i == len(prev):
        return i, "new messages"
    return i, "kept message"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gen", default="sessiongen")
    parser.add_argument("--messages", type=int, default=400)
    parser.add_argument("--window", type=int, default=8192)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--share", type=float, default=0.4, help="list the calls above this share of the window")
    parser.add_argument("--show", type=lambda v: {int(x) for x in v.split(",")}, default=set(),
                        help="calls (by number) whose first differing part to print, old and new")
    parser.add_argument("--option", action="append", default=[], help="a Compactor option, name=value")
    args = parser.parse_args(argv)
    options: dict[str, Any] = {}
    for item in args.option:
        name, value = item.split("=", 1)
        options[name] = float(value) if "." in value else int(value)
    count = counter()
    run = prefill.Ours(args.window, **options)
    cache, tally = PrefixCache(count), Tally()
    by_cause: Counter[str] = Counter()
    runtime = run.compactor._runtime
    last: tuple[int, int, int, bool] | None = None
    try:
        for n, history in enumerate(calls(session(args.gen, args.messages, args.seed))):
            result = run.compactor.compact(history)
            prompt, stats = result.messages, result.stats
            parts = render(prompt)
            prev = cache.previous
            rest, extends = cache.feed(parts)
            tokens = count(rest)
            prompt_tokens = count("".join(parts))
            tally.add(tokens, extends, prompt_tokens)
            run.usage(prompt_tokens + 4 * len(parts))
            s = runtime.session(run.compactor.session)
            anchor, tiers = s.state.anchor, s.state.tiers
            now = (anchor.cut if anchor else 0, anchor.stub_until if anchor else 0,
                   len(tiers.text) if tiers else 0, bool(tiers and tiers.merged))
            index, kind = where(prev, parts)
            cause = kind
            if last is not None and now != last:
                moved = []
                if now[0] != last[0]:
                    moved.append(f"cut {last[0]}->{now[0]}")
                if now[1] != last[1]:
                    moved.append(f"stubs {last[1]}->{now[1]}")
                if now[2] != last[2]:
                    grew = "merged" if now[2] < last[2] or (now[3] and not last[3]) else "tier"
                    moved.append(f"ledger {last[2]}->{now[2]} chars ({grew})")
                cause = f"{kind}; " + ", ".join(moved)
            by_cause[kind] += tokens
            if tokens > args.share * args.window:
                print(f"call {n:4d}: prefill {tokens:6,} ({tokens / args.window:4.0%}) of {prompt_tokens:6,}, "
                      f"history {len(history):4d}, ours {stats.tokens_before:,}->{stats.tokens_after:,} "
                      f"(stage {stats.stage}), part {index:3d}/{len(parts):3d}: {cause}")
            if n in args.show and index < len(parts):
                old = prev[index] if index < len(prev) else ""
                at = prefill.common_prefix(old, parts[index])
                print(f"  --- old at {at}: {old[max(0, at - 200):at + 600]!r}")
                print(f"  +++ new at {at}: {parts[index][max(0, at - 200):at + 600]!r}")
            last = now
    finally:
        run.compactor.close()
    print(f"\n{args.gen}: prefill {tally.prefill:,}, rewrites {tally.rewrites}, largest after the first "
          f"rewrite {tally.largest_later:,} ({tally.largest_later / args.window:.0%})")
    for kind, tokens in by_cause.most_common():
        print(f"  {kind}: {tokens:,} ({tokens / max(1, tally.prefill):.0%})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
