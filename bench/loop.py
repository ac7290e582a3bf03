"""What the agent-loop behaviours (issue 13) save and cost, on long thinking-heavy agent sessions.

    python bench/loop.py              # 500, 2,000 and 5,000 messages, 200 warm calls at 2,000
    python bench/loop.py --quick      # 50 warm calls

Sessions come from ``examples/generate_session.py``; every assistant message gets thinking the way
local reasoning models send it back: a ``reasoning_content`` field and a ``<think>`` block in its
content, of ``--think-words`` words each (deterministic filler).

For each size it prints:

- **thinking in history**: tokens of reasoning the history carries (characters / 4);
- **saved**: tokens of it left out of the prompt (``LastTurn.thinking_saved``, what ``/context-stats``
  shows), and that as a share of the whole prompt as it would go out without stripping;
- **verbatim at 32k**: messages sent as themselves (not folded into the ledger) at a 32,768-token window with ``stripThinking`` off and
  on (``<think>`` blocks and ``reasoning_content`` both count in our estimate, at their length).

Then the **warm overhead** at 2,000 messages: the hook's p50 and p99 per call, appending one message
per call to a session that never compacts (a window far above it), with every behaviour on and
with every behaviour off: the difference is what issue 13 costs a warm turn. Target: p50 under 1 ms.
Figures are printed, never asserted; the header shows the load average (compare runs made under
similar load).
"""

from __future__ import annotations

import argparse
import copy
import gc
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import structlog

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "examples"))
sys.path.insert(0, str(ROOT / "bench"))

from context_compactor import Compactor  # noqa: E402
from generate_session import generate  # noqa: E402
from overhead import follow_ups  # noqa: E402

OFF = {"strip_thinking": False, "fold_failed_calls": False, "side_questions": False, "task_reminder_every": 0,
       "loop_breakers": False}
VOCAB = ("so", "the", "handler", "reads", "port", "from", "settings", "maybe", "check", "config", "first", "then")


def filler(words: int, seed: int) -> str:
    return " ".join(VOCAB[(i * 7 + seed) % len(VOCAB)] for i in range(words))


def thinking_session(messages: int, think_words: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    data = generate(messages)
    out = []
    for i, message in enumerate(data["messages"]):
        if message["role"] == "assistant":
            message = {**message, "reasoning_content": filler(think_words, i),
                       "content": f"<think>{filler(think_words, i + 1)}</think>{message.get('content') or ''}"}
        out.append(message)
    return out, data["tools"]


def thinking_chars(history: list[dict[str, Any]]) -> int:
    total = 0
    for message in history:
        if message["role"] == "assistant":
            total += len(message.get("reasoning_content") or "")
            content = message.get("content") or ""
            if "</think>" in content:
                total += content.index("</think>") + len("</think>")
    return total


def saved(history: list[dict[str, Any]], tools: list[dict[str, Any]]) -> tuple[int, int]:
    with Compactor(context_window=10**9) as compactor:
        compactor.compact(history, tools=tools)
        last = compactor._runtime.session(compactor.session).last
        return last.thinking_saved, last.stats.tokens_before if last.stats else 0


def verbatim(history: list[dict[str, Any]], tools: list[dict[str, Any]], **options: Any) -> int:
    """Messages sent as themselves (their thinking aside), not folded into the ledger."""
    with Compactor(context_window=32768, **options) as compactor:
        sent = compactor.compact(history, tools=tools).messages
    return sum(1 for m in sent if "ledger of" not in json.dumps(m)[:200])


def warm(history: list[dict[str, Any]], tools: list[dict[str, Any]], reps: int, **options: Any) -> list[float]:
    history = copy.deepcopy(history)
    more = follow_ups()
    times = []
    with Compactor(context_window=10**9, **options) as compactor:
        compactor.compact(history, tools=tools)
        gc.collect()
        for _ in range(reps):
            history = [*history, next(more)]
            start = time.perf_counter()
            compactor.compact(history, tools=tools)
            times.append((time.perf_counter() - start) * 1000)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="50 warm calls instead of 200")
    parser.add_argument("--think-words", type=int, default=150, help="words of thinking per field (default 150)")
    parser.add_argument("--sizes", type=lambda s: [int(x) for x in s.split(",")], default=[500, 2000, 5000])
    args = parser.parse_args(argv)
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(30))
    reps = 50 if args.quick else 200
    print(f"load average {os.getloadavg()[0]:.2f}; thinking: {args.think_words} words in reasoning_content and "
          f"as much in <think> per assistant message\n")
    print(f"{'messages':>8}  {'thinking tok':>12}  {'saved tok':>10}  {'share':>6}  {'verbatim@32k off':>16}  "
          f"{'verbatim@32k on':>15}")
    for size in args.sizes:
        history, tools = thinking_session(size, args.think_words)
        in_history = thinking_chars(history) // 4
        saved_tokens, prompt_tokens = saved(history, tools)
        whole = prompt_tokens + saved_tokens  # the prompt as it would go out with its thinking
        print(f"{len(history):>8,}  {in_history:>12,}  {saved_tokens:>10,}  {saved_tokens / max(1, whole):>6.0%}  "
              f"{verbatim(history, tools, strip_thinking=False):>16,}  {verbatim(history, tools):>15,}")
    history, tools = thinking_session(2000, args.think_words)
    print(f"\nwarm overhead at {len(history):,} messages, {reps} calls, one message appended per call (ms)")
    for label, options in (("all behaviours on", {}), ("all behaviours off", OFF)):
        times = sorted(warm(history, tools, reps, **options))
        p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
        print(f"  {label:<20} p50 {statistics.median(times):.3f}  p99 {p99:.3f}")
    print("\ntarget: warm p50 under 1 ms with every behaviour on (bench/overhead.py measures the rest of the hook)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
