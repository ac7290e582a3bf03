"""What ``before_agent_start`` costs a host, per model call, on long agent sessions.

    python bench/overhead.py            # 100, 1,000, 2,000 and 10,000 messages, 200 warm calls each
    python bench/overhead.py --quick    # same sizes, 30 warm calls each
    python bench/overhead.py --profile 2000:compacted   # cProfile of the warm calls of one case
    python bench/overhead.py --adapters --quick         # gptme's and Hermes's adapters (in their environments)

Everything is real: the hook goes through ``get_plugin_manager()``, a ``Runtime`` with its own
SQLite store in a temporary folder, and the built-in extractive summarizer. Sessions come from
``examples/generate_session.py`` (tool calls, failing commands, and a large tool result every
fifth call).

For each size and each regime it measures:

- **cold**: the first call for a session on a fresh runtime and store (modules already imported):
  everything is measured, digested and, in the compacted regime, summarized from scratch.
- **warm**: the host appends ONE new message to its history and calls again, passing a new list
  that holds the same message objects plus the new one (as an in-process host does). Repeated
  ``--reps`` times, each call seeing one more message; p50 and p99 of those calls.
- **peak MB**: the tracemalloc peak of a cold call (on another fresh runtime, since tracing slows
  everything down). **RSS +MB**: how far the resident set grew above what it was before the
  runtime was built, at its peak over the cold and warm calls (Linux; ``VmHWM`` is reset first).

Two regimes:

- **measure**: a context window far above the session, so nothing compacts: the pure cost of
  measuring the prompt and deciding to leave it alone.
- **compacted**: an 8,192-token window, so every call sends a projection; warm calls reuse the
  previous compaction (the session's anchor plan and summary memo) until the appended messages
  push the projection over the trigger, when it recompacts (counted in the ``recomp.`` column;
  ``warm p99`` includes those calls, ``reuse p99`` leaves them out).

Targets: warm p50 at 2,000 messages under 1 ms (issue 11; issue 2 asked <= 2 ms), and warm p50 at
10,000 messages no more than 6x the 2,000-message figure (issue 2). Cold figures beside the peers:
``bench/peers.py``. Each case runs in a child process of its own
so that memory figures do not inherit the arenas of the case before (``--in-process`` to skip).
The figures are printed, never asserted: this is not a test. The header shows the load average:
on a busy machine warm figures move by tens of percent, so compare runs made under similar load.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import json
import math
import os
import pstats
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "examples"))

from context_compactor.hookspecs import BeforeAgentStartEvent, HookContext, ModelInfo  # noqa: E402
from context_compactor.plugins import get_plugin_manager  # noqa: E402
from context_compactor.runtime import Runtime  # noqa: E402
from context_compactor.settings import Settings  # noqa: E402
from context_compactor.store import Store  # noqa: E402
from generate_session import generate  # noqa: E402
from overhead_adapters import run as run_adapters  # noqa: E402
from overhead_session import EVENTS, configure_logging, follow_ups  # noqa: E402

SIZES = (100, 1_000, 2_000, 10_000)
WINDOWS = {"measure": 1_000_000_000, "compacted": 8192}
TARGET_P50_MS = 1.0
TARGET_RATIO = 6.0
MODEL = "bench/model"
SESSION = "bench-session"

LEGEND = """
  cold: first call, fresh runtime and store; warm: each call after appending one message (p50/p99 over all
  of them); peak MB: tracemalloc peak of a cold call; RSS +MB: peak resident growth over cold and warm calls;
  recomp.: warm calls that recompacted (the appended messages pushed the projection over the trigger),
  recomp. ms their median; reuse p99 ms: p99 of the warm calls that reused the previous compaction.
"""

class Host:
    """An in-process host: one plugin manager, one runtime with a fresh store, one session."""

    def __init__(self, window: int, folder: Path, name: str) -> None:
        self.pm = get_plugin_manager()
        self.runtime = Runtime(Settings(contextWindow=window), store=Store.open(folder / f"{name}.sqlite"))
        self.model = ModelInfo(id=MODEL)
        self.ctx = HookContext(session_key=SESSION, runtime=self.runtime, model=self.model)

    def call(self, history: list[dict[str, Any]], tools: list[dict[str, Any]]) -> tuple[float, Any]:
        """One before_agent_start, timed (ms)."""
        event = BeforeAgentStartEvent(messages=history, tools=tools, model=self.model)
        start = time.perf_counter_ns()
        result = self.pm.hook.before_agent_start(event=event, ctx=self.ctx)
        return (time.perf_counter_ns() - start) / 1e6, result

    def close(self) -> None:
        self.runtime.close()


# --- memory ------------------------------------------------------------------------------------


def _status_kb(field: str) -> int | None:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return None


def reset_peak_rss() -> bool:
    """Reset VmHWM to the current RSS (Linux >= 4.0); False where that is not possible."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
        return True
    except OSError:
        return False


# --- one case ----------------------------------------------------------------------------------


@dataclass
class Result:
    messages: int
    regime: str
    tokens: int
    cold_ms: float
    warm_p50_ms: float
    warm_p99_ms: float
    peak_mb: float
    rss_mb: float | None
    reps: int
    recompactions: int
    recompaction_ms: float | None  # median of the warm calls that recompacted
    reuse_p99_ms: float  # p99 of the warm calls that did not
    problems: list[str]


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (with few samples p99 is the maximum)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def check(regime: str, result: Any, where: str, problems: list[str]) -> None:
    """A figure is only worth printing if the hook did what the regime says it does."""
    # A changed prompt is not a compaction: the agent-loop behaviours (a task reminder every so many
    # messages) change a prompt under the trigger too; the stats say whether it was compacted.
    if regime == "measure" and result is not None and result.stats is not None and result.stats.compacted:
        problems.append(f"{where}: compacted although the window is far above the session")
    if regime == "compacted" and (result is None or result.messages is None):
        problems.append(f"{where}: sent the history unchanged although it is far above an 8,192-token window")


def warm_up(folder: Path) -> None:
    """Import and build everything once, so that 'cold' measures a session, not module imports."""
    session = generate(messages=60)
    for regime, window in WINDOWS.items():
        host = Host(window, folder, f"warmup-{regime}")
        host.call(session["messages"], session["tools"])
        host.call([*session["messages"], {"role": "assistant", "content": "ok"}], session["tools"])
        host.close()


def run_case(size: int, regime: str, reps: int, profile: Callable[[Callable[[], None]], None] | None = None) -> Result:
    session = generate(messages=size)
    history: list[dict[str, Any]] = session["messages"]
    tools: list[dict[str, Any]] = session["tools"]
    window = WINDOWS[regime]
    problems: list[str] = []
    with tempfile.TemporaryDirectory(prefix="cc-bench-") as tmp:
        folder = Path(tmp)
        warm_up(folder)
        EVENTS.clear()
        gc.collect()
        rss_before = _status_kb("VmRSS")
        can_reset = reset_peak_rss()

        host = Host(window, folder, "timed")
        cold_ms, result = host.call(history, tools)
        check(regime, result, "cold call", problems)
        tokens = int(host.runtime.session(SESSION).last.get("tokens", 0))

        more = follow_ups()
        warm: list[float] = []
        recompacted: list[float] = []
        reused: list[float] = []

        def warm_calls() -> None:
            nonlocal history
            for i in range(reps):
                history = [*history, next(more)]  # a new list: the same objects plus one
                done_before = EVENTS["compaction.done"]
                ms, res = host.call(history, tools)
                warm.append(ms)
                (recompacted if EVENTS["compaction.done"] != done_before else reused).append(ms)
                check(regime, res, f"warm call {i + 1}", problems)

        if profile is not None:
            profile(warm_calls)
        else:
            warm_calls()
        peak_rss = _status_kb("VmHWM") if can_reset else None
        rss_mb = (peak_rss - rss_before) / 1024 if peak_rss is not None and rss_before is not None else None
        host.close()

        traced = Host(window, folder, "traced")
        tracemalloc.start()
        traced.call(session["messages"], tools)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        traced.close()

    if EVENTS["compaction.failed"]:
        problems.append(f"{EVENTS['compaction.failed']} call(s) failed open (compaction.failed): figures are meaningless")
    return Result(size, regime, tokens, cold_ms, percentile(warm, 50), percentile(warm, 99), peak / 2**20,
                  rss_mb, reps, len(recompacted), percentile(recompacted, 50) if recompacted else None,
                  percentile(reused or warm, 99), problems[:5])


def run_child(size: int, regime: str, reps: int) -> Result:
    """One case in a fresh interpreter, so its memory figures start from a clean process."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "--case", f"{size}:{regime}", "--reps", str(reps)]
    done = subprocess.run(cmd, stdout=subprocess.PIPE, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"bench case {size}:{regime} failed (exit {done.returncode}); rerun it alone: {' '.join(cmd)}")
    return Result(**json.loads(done.stdout.strip().splitlines()[-1]))


# --- report ------------------------------------------------------------------------------------


def table(results: list[Result]) -> str:
    head = ("messages", "regime", "cold ms", "warm p50 ms", "warm p99 ms", "peak MB", "RSS +MB",
            "tokens", "recomp.", "recomp. ms", "reuse p99 ms")
    rows = [head]
    for r in results:
        rows.append((f"{r.messages:,}", r.regime, f"{r.cold_ms:,.1f}", f"{r.warm_p50_ms:.3f}", f"{r.warm_p99_ms:.3f}",
                     f"{r.peak_mb:.2f}", "n/a" if r.rss_mb is None else f"{r.rss_mb:.1f}", f"{r.tokens:,}",
                     f"{r.recompactions}/{r.reps}", "-" if r.recompaction_ms is None else f"{r.recompaction_ms:.1f}",
                     f"{r.reuse_p99_ms:.3f}"))
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    lines = ["  ".join(cell.rjust(w) if i != 1 else cell.ljust(w) for i, (cell, w) in enumerate(zip(row, widths, strict=True)))
             for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def verdict(results: list[Result]) -> list[str]:
    by = {(r.messages, r.regime): r for r in results}
    out = []
    for regime in WINDOWS:
        small, large = by.get((2_000, regime)), by.get((10_000, regime))
        if small is None or large is None:
            continue
        ratio = large.warm_p50_ms / small.warm_p50_ms
        p50_ok = small.warm_p50_ms <= TARGET_P50_MS
        ratio_ok = ratio <= TARGET_RATIO
        out.append(f"{regime:>9}: warm p50 2,000 = {small.warm_p50_ms:.3f} ms (target <= {TARGET_P50_MS} ms: "
                   f"{'met' if p50_ok else 'MISSED'}); ratio warm-p50(10,000)/warm-p50(2,000) = {ratio:.2f}x "
                   f"(target <= {TARGET_RATIO:.0f}x: {'met' if ratio_ok else 'MISSED'})")
    return out


def profile_case(size: int, regime: str, reps: int, sort: str, top: int) -> None:
    profiler = cProfile.Profile()

    def under_profile(calls: Callable[[], None]) -> None:
        profiler.enable()
        calls()
        profiler.disable()

    result = run_case(size, regime, reps, profile=under_profile)
    print(f"cProfile of {reps} warm calls, {size:,} messages, regime {regime} "
          f"(unprofiled-equivalent p50 is lower; profiling inflates per-call overhead)")
    pstats.Stats(profiler, stream=sys.stdout).strip_dirs().sort_stats(sort).print_stats(top)
    print(table([result]))


def parse_case(text: str) -> tuple[int, str]:
    size, _, regime = text.partition(":")
    if regime not in WINDOWS or not size.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r}: expected SIZE:REGIME, REGIME one of {', '.join(WINDOWS)}")
    return int(size), regime


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="30 warm calls per case instead of 200")
    parser.add_argument("--reps", type=int, help="warm calls per case (overrides --quick)")
    parser.add_argument("--sizes", type=lambda s: [int(x) for x in s.split(",")], default=list(SIZES),
                        help="comma-separated session sizes (default: 100,1000,2000,10000)")
    parser.add_argument("--in-process", action="store_true", help="run every case in this process")
    parser.add_argument("--case", type=parse_case, help=argparse.SUPPRESS)  # one case, JSON out (child mode)
    parser.add_argument("--profile", type=parse_case, metavar="SIZE:REGIME", help="cProfile the warm calls of one case")
    parser.add_argument("--sort", default="tottime", help="pstats sort key for --profile (default tottime)")
    parser.add_argument("--top", type=int, default=30, help="rows of profile to print")
    parser.add_argument("--adapters", action="store_true",
                        help="the gptme and Hermes adapters at 500 messages instead (bench/overhead_adapters.py)")
    args = parser.parse_args(argv)
    reps = args.reps or (30 if args.quick else 200)
    configure_logging()
    if args.adapters:
        return run_adapters(500, reps)

    if args.case:
        size, regime = args.case
        print(json.dumps(asdict(run_case(size, regime, reps))))
        return 0
    if args.profile:
        size, regime = args.profile
        profile_case(size, regime, reps, args.sort, args.top)
        return 0

    results = []
    for size in args.sizes:
        for regime in WINDOWS:
            result = run_case(size, regime, reps) if args.in_process else run_child(size, regime, reps)
            results.append(result)
            print(f"  done: {size:,} messages, {regime}", file=sys.stderr, flush=True)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "n/a"
    print(f"before_agent_start overhead ({reps} warm calls per case; Python {sys.version.split()[0]}; "
          f"{os.cpu_count()} CPUs, load average {load})\n")
    print(table(results))
    print(LEGEND)
    for line in verdict(results):
        print(line)
    for r in results:
        for problem in r.problems:
            print(f"PROBLEM {r.messages:,}/{r.regime}: {problem}")
    return 1 if any(r.problems for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
