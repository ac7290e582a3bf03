"""compaction-conformance-kit 0.8.0 ``benchmark`` against our product, beside the kit's references.

    python bench/conformance.py                          # 10/20/30% budgets, seeds 1-4, 5 rounds
    python bench/conformance.py --compact-to 0.95,0.9,0.6  # one row of ours per compactTo (default)
    python bench/conformance.py --markdown               # also the kit's own markdown leaderboard
    python bench/conformance.py --dump /tmp/conf-out     # our final texts per session, to read

What the kit measures (read from its source; see also the notes in /tmp/yardsticks.md if present):
sessions of ~130-140 plain-text turns (system/user/assistant, no tool calls, ~8.2k characters,
~2k tokens) with 20 planted "canaries" (safety rules, hard constraints, facts, goal state, user
preferences; some superseded by later values). A compactor gets ``compact(turns, round_num,
budget_chars)`` and returns ONE text; the text is re-compacted 4 more times (round k+1's input is
a single system turn holding round k's text) and the 5th text is scored: a canary survives when
every one of its required tokens is a case-insensitive substring of the text. The budget is in
CHARACTERS: ``int(len(original transcript text) * fraction)``, the same in every round; a
compactor is compliant at a budget only if every round of every session is within it. Survival %
is over the 4 randomized sessions (80 canaries); "resolved" and "stale" are over the 8 semantic
sessions (64 superseded values).

How the budget is mapped onto our settings (the honest reading of "the window is the budget"):

- ``contextWindow`` = budget_chars / 4, i.e. the budget in tokens at our default estimate of
  4 chars per token (``tokenizer: chars``, ``charsPerToken: 4``). The kit counts characters of
  the rendered text, including the ``[role]`` prefixes; we count tokens with the product's own
  estimate. Whether the output fits the kit's character cap is then the product's own doing.
- ``compactAt`` = 1.0: compact when the prompt exceeds the window (round 1's input is ~5x the
  window, so this always triggers).
- ``compactTo`` close to 1 (0.95 and 0.9) so the compacted prompt may use nearly the whole window,
  as the kit's references do: the kit's budget is a hard cap on one compacted output; a third row
  uses 0.6, the product's default target, to show what the default leaves unused.
- ``keepRecentTokens`` = 0: only the current (last) turn is kept verbatim; the kit's tails are
  filler, and every token of the window goes to the ledger. ``summaryMaxTokens`` stays auto.
- No model: ``summarizeWithSessionModel`` off and no ``summaryModel``, so the built-in
  (deterministic) summary is what is measured.

Rendering: our output messages become the kit's own transcript format, ``[role] content`` joined
by newlines. For rounds 2-5 that text is split back into the messages it was rendered from, so the
product sees the prompt it produced (a host re-sending its compacted prompt), not a new system
message wrapped around it.

The product is called through :func:`call_product`: the public ``context_compactor.compact`` when
it exists, else the host path of the README (Runtime over an in-memory store, the plugin manager,
``before_agent_start``). ``bench/compactbench_run.py`` uses the same function.
"""

from __future__ import annotations

import argparse
import itertools
import logging
import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import structlog

Message = dict[str, Any]
CHARS_PER_TOKEN = 4.0  # the product's default charsPerToken


def quiet_logs() -> None:
    """Keep the product's log events off the table (its notices are tallied instead); errors still show."""
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.ERROR),
                        logger_factory=structlog.PrintLoggerFactory(sys.stderr))


# --- one way into the product ------------------------------------------------------------------


@dataclass
class ProductResult:
    messages: list[Message]
    stats: dict[str, Any]
    notices: list[str]
    api: str  # "compact()" or "host path"

    @property
    def compacted(self) -> bool:
        return bool(self.stats.get("compacted"))


_counter = itertools.count()


def call_product(messages: list[Message], *, context_window: int, **options: Any) -> ProductResult:
    """Our product on ``messages`` with a ``context_window`` (tokens) and snake_case settings.

    Uses ``context_compactor.compact`` when it is importable (the public API), else the host path
    shown in README.md "For host authors". Never raises for a refusal: an unchanged prompt comes
    back with compacted False and the product's notices.
    """
    try:
        from context_compactor import compact  # type: ignore[attr-defined]
    except ImportError:
        compact = None
    if compact is not None:
        result = compact(messages, context_window=context_window, **options)
        raw = result.stats
        stats = dict(raw) if isinstance(raw, dict) else {
            key: getattr(raw, key) for key in
            ("tokens_before", "tokens_after", "fits", "compacted", "stage", "notices") if hasattr(raw, key)}
        notices = list(stats.get("notices") or [])
        return ProductResult(list(result.messages), stats, notices, "compact()")

    from context_compactor.hookspecs import BeforeAgentStartEvent, HookContext, ModelInfo
    from context_compactor.plugins import get_plugin_manager
    from context_compactor.runtime import Runtime
    from context_compactor.settings import Settings
    from context_compactor.store import Store

    settings = Settings(context_window=context_window, **options)
    runtime = Runtime(settings, store=Store.open(":memory:"), persist_sessions=False)
    try:
        pm = get_plugin_manager(load_entry_points=False)
        model = ModelInfo(id="bench", context_window=context_window)
        ctx = HookContext(session_key=f"bench-{next(_counter)}", runtime=runtime, model=model)
        event = BeforeAgentStartEvent(messages=messages, model=model)
        result = pm.hook.before_agent_start(event=event, ctx=ctx)
    finally:
        runtime.close()
    if result is None:
        return ProductResult(list(messages), {"compacted": False}, [], "host path")
    out = result.messages if result.messages is not None else list(messages)
    return ProductResult(list(out), dict(result.stats), list(result.notices), "host path")


@dataclass
class Tally:
    """What the product did over a bench's calls: how many, compacted, passed through unchanged, over the
    window, and its notices counted by kind (numbers as N)."""

    calls: int = 0
    compacted: int = 0
    passed_through: int = 0
    over_window: int = 0
    notices: Counter = field(default_factory=Counter)
    api: str = ""

    def count(self, result: ProductResult, *, passed_through: bool, over_window: bool) -> None:
        """One call's ``result``; what counts as passed through and over the window is the bench's to say."""
        self.api = result.api
        self.calls += 1
        self.compacted += result.compacted
        self.passed_through += passed_through
        self.over_window += over_window
        for notice in result.notices:
            self.notices[re.sub(r"\d[\d,]*", "N", notice)[:140]] += 1


# --- the kit's adapter ---------------------------------------------------------------------------

_ROLE_LINE = re.compile(r"^\[(system|user|assistant|tool)\] ", re.M)


def render(messages: list[Message]) -> str:
    """Messages as the kit writes transcripts: ``[role] content``, one message after another."""
    return "\n".join(f"[{m.get('role', 'user')}] {_content(m)}" for m in messages)


def _content(message: Message) -> str:
    content = message.get("content")
    if isinstance(content, list):  # OpenAI content parts
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return "" if content is None else str(content)


def parse(text: str) -> list[Message]:
    """The inverse of :func:`render`, for a text this adapter rendered in an earlier round."""
    starts = [m.start() for m in _ROLE_LINE.finditer(text)]
    if not starts or starts[0] != 0:
        return [{"role": "system", "content": text}]
    out = []
    for begin, end in zip(starts, starts[1:] + [len(text)]):
        chunk = text[begin:end].rstrip("\n") if end != len(text) else text[begin:end]
        role, content = chunk[1:].split("] ", 1)
        out.append({"role": role, "content": content})
    return out


class OursCompactor:
    """The kit's ``Compactor`` protocol over :func:`call_product`."""

    tally: dict[str, Tally] = {}
    dumps: list[tuple[str, int, str]] = []

    def __init__(self, name: str, compact_to: float, keep_recent_tokens: int = 0) -> None:
        self.name = name
        self.compact_to = compact_to
        self.keep_recent_tokens = keep_recent_tokens
        self.tally.setdefault(name, Tally())

    def compact(self, turns, round_num: int = 1, budget_chars: int | None = None):
        from compaction_kit.compacted import CompactedContext

        if round_num > 1 and len(turns) == 1 and turns[0].role == "system":
            messages = parse(turns[0].text)  # our own previous output, as messages again
        else:
            messages = [{"role": t.role, "content": t.text} for t in turns]
        if budget_chars is None:
            return CompactedContext(text=render(messages), compactor_name=self.name, round_num=round_num)
        window = max(1, int(budget_chars / CHARS_PER_TOKEN))
        result = call_product(
            messages, context_window=window, compact_at=1.0, compact_to=self.compact_to,
            keep_recent_tokens=self.keep_recent_tokens, summarize_with_session_model=False)
        text = render(result.messages)
        after = result.stats.get("tokens_after")
        # round 1's input is ~5x the window: unchanged means refused
        self.tally[self.name].count(result, passed_through=not result.compacted and round_num == 1,
                                    over_window=after is not None and after > window)
        self.dumps.append((self.name, budget_chars, text))
        return CompactedContext(text=text, compactor_name=self.name, round_num=round_num)


# --- the run -------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--budgets", default="0.10,0.20,0.30")
    parser.add_argument("--seeds", default="1,2,3,4")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--compact-to", default="0.95,0.9,0.6", help="one row of ours per value")
    parser.add_argument("--keep-recent-tokens", type=int, default=0)
    parser.add_argument("--references", default="naive-summary,pinned-rules,semantic-checklist")
    parser.add_argument("--markdown", action="store_true", help="also print the kit's leaderboard")
    parser.add_argument("--dump", type=Path, default=None, help="write our final texts here")
    args = parser.parse_args(argv)
    quiet_logs()

    from compaction_kit.benchmark import budget_benchmark_to_markdown, run_budget_benchmark
    from compaction_kit.cli import COMPACTORS
    from compaction_kit.versioning import kit_version

    budgets = [float(b) for b in args.budgets.split(",")]
    seeds = [int(s) for s in args.seeds.split(",")]
    factories: dict[str, Any] = {name: COMPACTORS[name] for name in args.references.split(",") if name}
    ours = []
    for value in (float(v) for v in args.compact_to.split(",")):
        name = f"ours (compactTo {value:g})"
        ours.append(name)
        factories[name] = (lambda n=name, v=value: OursCompactor(n, v, args.keep_recent_tokens))

    payload = run_budget_benchmark(factories, budgets=budgets, seeds=seeds, rounds=args.rounds)
    entries = {(e["compactor"], e["budget_fraction"]): e for e in payload["entries"]}

    print(f"compaction-conformance-kit {kit_version()} benchmark: seeds {seeds}, {args.rounds} rounds, "
          f"budget = characters of the original transcript (~8.2k chars, ~2k tokens)")
    print("our mapping: contextWindow = budget_chars/4, compactAt 1.0, compactTo as named, "
          f"keepRecentTokens {args.keep_recent_tokens}, no summary model; "
          f"API: {OursCompactor.tally[ours[0]].api or '?'}")
    head = f"{'compactor':28}" + "".join(f" | {b:>4.0%} surv  ok  resolv stale" for b in budgets)
    print(head)
    print("-" * len(head))
    for name in factories:
        row = f"{name:28}"
        for b in budgets:
            e = entries[(name, b)]
            sem = e["semantic"]["conflicts"]
            row += (f" | {e['randomized']['overall_final_survival']:>9.1%} "
                    f"{'y' if e['budget_compliant'] else 'N':>3} {e['semantic']['resolved_rate']:>6.1%} "
                    f"{sem['stale']:>2}/{sem['n']}")
        print(row)
    print()
    print("by type (randomized, final round, median over seeds) and output size:")
    for name in factories:
        for b in budgets:
            e = entries[(name, b)]
            types = " ".join(f"{k[:5]}={v:.0%}" for k, v in e["randomized"]["final_median_by_type"].items())
            print(f"  {name:28} {b:>4.0%}  {types}  max out/budget {e['max_output_to_budget']:.2f}"
                  f"  distinct pairs {e['semantic']['distinct_pair_rate']:.0%}")
    print()
    for name in ours:
        t = OursCompactor.tally[name]
        print(f"{name}: {t.calls} calls (all budgets, 12 sessions x {args.rounds} rounds each), "
              f"{t.compacted} compacted, {t.passed_through} round-1 inputs passed through unchanged, "
              f"{t.over_window} over our own window")
        for notice, n in t.notices.most_common(4):
            print(f"    {n:4}x {notice}")
    if args.markdown:
        print()
        print(budget_benchmark_to_markdown(payload))
    if args.dump:
        args.dump.mkdir(parents=True, exist_ok=True)
        for i, (name, budget, text) in enumerate(OursCompactor.dumps):
            slug = re.sub(r"[^a-z0-9.]+", "-", name.lower()).strip("-")
            (args.dump / f"{slug}-b{budget}-{i:04}.txt").write_text(text)
        print(f"wrote {len(OursCompactor.dumps)} texts to {args.dump}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
