"""Cold compaction side by side: context-compactor versus llm-context-budget and chatcram.

    python bench/peers.py                       # 3,000 and 10,000 messages and a ~50 MB input, 8k window
    python bench/peers.py --cases 3000 --reps 7
    python bench/peers.py --profile 3000        # cProfile of one cold compaction of ours, by function and by file
    python bench/peers.py --no-warm             # skip the warm p50 at 2,000 messages (bench/overhead.py)

Every contestant compacts the same message lists, in the same process, round by round (one run of
each per round, in turn), so the machine's load falls on all of them alike; each figure is the
median over the rounds and the ratio is ours over the peer's median. *Cold* means nothing carries
over from one run to the next: ours gets a fresh runtime, measurer and empty in-memory store per
run (the public ``compact()``, or the hook path of README "For host authors" where that is not
there yet), and the extraction module's process-wide memos are emptied before each run; the peers
keep no state anyway. Modules are imported and each contestant runs once before the rounds start,
so import time is not counted.

What each one does with the same input (so the ratios are read against the work done):

- **ours** (the one-shot ``compact()``, the figure the targets are for): measures every message
  (tool calls included), applies the agent-loop pre-pass, plans a cut that keeps tool calls with
  their results, and builds the session ledger from every folded message with the built-in
  extractive summarizer, to an 8,192-token window. What it folds is owed to its in-memory archive:
  written when the store is next read, or by the background indexer after the call (here the call
  closes first, so never).
- **ours, store file**: the same with ``store=`` a new SQLite file, as the CLI, ``serve`` and
  OpenClaw run it: every folded message is written to the archive on disk before the call returns.
- **llm-context-budget** ``pack_messages(context_tokens=8192)``: counts only the text content,
  keeps the last 16 messages (trimmed from the front to fit) and folds the rest with its
  extractive summarizer (one clipped line per dropped message).
- **chatcram** ``Compactor(budget=6144)``: counts ``role: content`` text, keeps the recent half of
  the budget and hands the older transcript to a summarizer; here the transcript's head and tail
  (a stand-in for the LLM call it expects), so its figure is the floor of its own work.

Sessions come from ``bench/sessiongen.py`` (``make_session``) when it is there, else from
``examples/generate_session.py``. The ~50 MB input is a 1,000-message session whose tool results
are grown to a few MB each. Figures are printed, never asserted; targets (issue 11) are shown.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import json
import logging
import os
import pstats
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "bench"), str(ROOT / "examples")]

WINDOW = 8192
BIG_BYTES = 50_000_000
TARGETS = {"3000": "within 1.7x of llm-context-budget", "10000": "<= 500 ms", "50MB": "<= 10 s"}
WARM_TARGET_MS = 1.0
Message = dict[str, Any]


# --- inputs ------------------------------------------------------------------------------------


GENERATOR = "sessiongen"  # --gen: which bench/ session generator makes the sessions


def session(messages: int, seed: int = 1) -> list[Message]:
    """A session of about ``messages`` messages from :data:`GENERATOR`, ending on a user turn."""
    try:
        import importlib

        make_session = importlib.import_module(GENERATOR).make_session
    except ImportError:
        from generate_session import generate

        return list(generate(messages=messages, seed=seed, big_lines=250)["messages"])
    return list(make_session(seed=seed, messages=messages).messages)


def size_of(messages: list[Message]) -> int:
    return sum(len(json.dumps(m, ensure_ascii=False)) for m in messages)


def huge(target_bytes: int = BIG_BYTES) -> list[Message]:
    """A 1,000-message session whose largest tool results are grown (repeated) to reach ``target_bytes``."""
    messages = [dict(m) for m in session(1_000, seed=2)]
    tools = sorted((i for i, m in enumerate(messages) if m.get("role") == "tool" and isinstance(m.get("content"), str)),
                   key=lambda i: -len(messages[i]["content"]))[:20]
    missing = target_bytes - size_of(messages)
    for i in tools:
        text = messages[i]["content"]
        times = max(1, missing // (len(tools) * max(1, len(text))))
        messages[i]["content"] = "\n".join(f"[{k}] {text}" for k in range(times))
    return messages


# --- contestants -------------------------------------------------------------------------------


@dataclass
class Run:
    ms: float
    tokens_after: int | None  # as the contestant itself reports it
    note: str = ""


def ours() -> Callable[[list[Message]], Run]:
    """Our cold compaction: the public API if it is there, else the hook path with a fresh runtime."""
    try:
        from context_compactor import compact
    except ImportError:
        return _ours_by_hook()

    def run(messages: list[Message]) -> Run:
        forget()
        start = time.perf_counter()
        result = compact(messages, context_window=WINDOW)
        ms = (time.perf_counter() - start) * 1000
        stats = result.stats
        return Run(ms, stats.tokens_after, "" if stats.fits and stats.compacted else f"fits={stats.fits} "
                   f"compacted={stats.compacted} {stats.reason or ''}")
    return run


def ours_with_a_store_file() -> Callable[[list[Message]], Run]:
    """``compact(..., store=<a new SQLite file>)``: the archive is written to disk before the call
    returns (what the CLI, ``serve`` and OpenClaw do with their store)."""
    import tempfile

    from context_compactor import compact

    def run(messages: list[Message]) -> Run:
        forget()
        with tempfile.TemporaryDirectory() as folder:
            start = time.perf_counter()
            result = compact(messages, context_window=WINDOW, store=Path(folder) / "store.sqlite")
            ms = (time.perf_counter() - start) * 1000
        return Run(ms, result.stats.tokens_after)
    return run


def forget() -> None:
    """Nothing a run of ours learnt carries over to the next (the module-level memos of extraction)."""
    try:
        from context_compactor.summarizer.extract import forget as forget_extraction
    except ImportError:
        return
    forget_extraction()


def _ours_by_hook() -> Callable[[list[Message]], Run]:
    from context_compactor.hookspecs import BeforeAgentStartEvent, HookContext, ModelInfo
    from context_compactor.plugins import get_plugin_manager
    from context_compactor.runtime import Runtime
    from context_compactor.settings import Settings
    from context_compactor.store import Store

    pm = get_plugin_manager()
    model = ModelInfo(id="bench/model", context_window=WINDOW)

    def run(messages: list[Message]) -> Run:
        start = time.perf_counter()
        runtime = Runtime(Settings(contextWindow=WINDOW), store=Store.open(":memory:"), persist_sessions=False)
        ctx = HookContext(session_key="bench", runtime=runtime, model=model)
        result = pm.hook.before_agent_start(event=BeforeAgentStartEvent(messages=messages, model=model), ctx=ctx)
        ms = (time.perf_counter() - start) * 1000
        runtime.close()
        if result is None or result.messages is None:
            return Run(ms, None, "not compacted (failed open?)")
        stats = result.stats
        after = stats.get("tokens_after") if isinstance(stats, dict) else getattr(stats, "tokens_after", None)
        return Run(ms, after)
    return run


def llm_context_budget() -> Callable[[list[Message]], Run]:
    from context_budget import pack_messages

    def run(messages: list[Message]) -> Run:
        start = time.perf_counter()
        result = pack_messages(messages, context_tokens=WINDOW)
        return Run((time.perf_counter() - start) * 1000, result.used_tokens, "" if result.fits else "fits=False")
    return run


def chatcram() -> Callable[[list[Message]], Run]:
    from chatcram import Compactor

    def head_and_tail(transcript: str) -> str:  # stands in for the LLM call chatcram expects
        return transcript[:4000] + "\n...\n" + transcript[-4000:]

    def run(messages: list[Message]) -> Run:
        start = time.perf_counter()
        result = Compactor(budget=WINDOW * 3 // 4, summarize=head_and_tail).compact(messages)  # type: ignore[arg-type]
        return Run((time.perf_counter() - start) * 1000, result.used_tokens)
    return run


CONTESTANTS: dict[str, Callable[[], Callable[[list[Message]], Run]]] = {
    "ours": ours, "ours, store file": ours_with_a_store_file, "llm-context-budget": llm_context_budget,
    "chatcram": chatcram}


# --- running ------------------------------------------------------------------------------------


def cases(names: list[str]) -> dict[str, list[Message]]:
    out = {}
    for name in names:
        out[name] = huge() if name == "50MB" else session(int(name))
    return out


def side_by_side(inputs: list[Message], reps: int) -> dict[str, list[Run]]:
    runners = {name: make() for name, make in CONTESTANTS.items()}
    for run in runners.values():  # once untimed: imports, regex compilation, first-use caches
        run(inputs)
    runs: dict[str, list[Run]] = defaultdict(list)
    for _ in range(reps):
        for name, run in runners.items():
            gc.collect()
            runs[name].append(run(inputs))
    return runs


def report(case: str, inputs: list[Message], runs: dict[str, list[Run]]) -> list[str]:
    medians = {name: statistics.median(r.ms for r in rs) for name, rs in runs.items()}
    lines = [f"{case}: {len(inputs):,} messages, {size_of(inputs) / 1e6:.1f} MB, {len(runs['ours'])} rounds"]
    for name, rs in runs.items():
        ms = sorted(r.ms for r in rs)
        ratio = "" if name.startswith("ours") else f"   ours / this = {medians['ours'] / medians[name]:.1f}x"
        after = rs[-1].tokens_after
        lines.append(f"  {name:<20} median {medians[name]:>9,.1f} ms  (min {ms[0]:,.1f}, max {ms[-1]:,.1f})  "
                     f"tokens after {after if after is not None else '?':>6}{ratio}"
                     + (f"   [{rs[-1].note.strip()}]" if rs[-1].note else ""))
    target = TARGETS.get(case)
    if target:
        lines.append(f"  target for ours: {target}")
    return lines


def warm_p50(size: int = 2_000, reps: int = 100) -> str:
    """The warm p50 at ``size`` messages, from bench/overhead.py in a process of its own."""
    cmd = [sys.executable, str(ROOT / "bench" / "overhead.py"), "--case", f"{size}:compacted", "--reps", str(reps)]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return f"warm p50 at {size:,} messages: bench/overhead.py failed (exit {done.returncode}): {done.stderr[-300:]}"
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    return (f"warm p50 at {size:,} messages (compacted regime, {reps} turns): {figures['warm_p50_ms']:.3f} ms "
            f"(target < {WARM_TARGET_MS} ms); cold there {figures['cold_ms']:,.1f} ms")


# --- profile ------------------------------------------------------------------------------------


def profile(case: str, top: int) -> None:
    """cProfile of one cold compaction of ours: the top functions, and the time by source file."""
    inputs = cases([case])[case]
    run = ours()
    run(inputs)
    profiler = cProfile.Profile()
    profiler.enable()
    result = run(inputs)
    profiler.disable()
    print(f"cProfile of one cold compaction of {case} ({len(inputs):,} messages); "
          f"{result.ms:,.0f} ms under the profiler")
    by_file, by_function = owned_time(pstats.Stats(profiler, stream=io.StringIO()))
    total = sum(by_file.values())
    print("\nown time by file (time in C built-ins and the standard library counted to the project file "
          "that called them):")
    for path, seconds in sorted(by_file.items(), key=lambda kv: -kv[1])[:top]:
        print(f"  {100 * seconds / total:5.1f}%  {seconds * 1000:8.1f} ms  {path}")
    print("\nown time by project function (counted the same way):")
    for name, seconds in sorted(by_function.items(), key=lambda kv: -kv[1])[:top]:
        print(f"  {100 * seconds / total:5.1f}%  {seconds * 1000:8.1f} ms  {name}")
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(top)
    print("\n" + out.getvalue().replace(str(ROOT) + "/", ""))


Func = tuple[str, int, str]


def owned_time(stats: pstats.Stats) -> tuple[dict[str, float], dict[str, float]]:
    """Own time per project file and per project function; a built-in's or a standard-library
    function's own time goes to its callers (in proportion to the time each call took), up the
    stack to the first project frame."""
    table: dict[Func, Any] = stats.stats  # type: ignore[attr-defined]
    by_file: dict[str, float] = defaultdict(float)
    by_function: dict[str, float] = defaultdict(float)

    def give(func: Func, seconds: float, depth: int) -> None:
        path = func[0]
        if path.startswith(str(ROOT)) or depth > 8:
            by_file[_short(path)] += seconds
            if path.startswith(str(ROOT)):
                by_function[f"{_short(path)}:{func[1]}({func[2]})"] += seconds
            return
        callers = table.get(func, (0, 0, 0.0, 0.0, {}))[4]
        weight = sum(row[2] for row in callers.values()) if callers else 0.0
        if not callers or weight <= 0:
            by_file[_short(path)] += seconds
            return
        for caller, row in callers.items():
            give(caller, seconds * row[2] / weight, depth + 1)

    for func, row in table.items():
        give(func, row[2], 0)
    return by_file, by_function


def _short(path: str) -> str:
    if path.startswith(str(ROOT)):
        return path[len(str(ROOT)) + 1:]
    if "site-packages/" in path:
        return path.split("site-packages/", 1)[1]
    return "(python) " + os.path.basename(path) if path.startswith(("/", "<frozen")) else path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--cases", type=lambda s: s.split(","), default=["3000", "10000", "50MB"],
                        help="comma-separated: message counts, and 50MB (default 3000,10000,50MB)")
    parser.add_argument("--reps", type=int, default=5, help="rounds per case (the 50MB case runs at most 3)")
    parser.add_argument("--no-warm", action="store_true", help="skip the warm p50 at 2,000 messages")
    parser.add_argument("--profile", metavar="CASE", help="cProfile one cold compaction of ours (e.g. 3000)")
    parser.add_argument("--top", type=int, default=25, help="rows of the profile")
    parser.add_argument("--gen", default="sessiongen",
                        help="the session generator in bench/ (sessiongen, gen_ops, gen_data, gen_code)")
    args = parser.parse_args(argv)
    global GENERATOR
    GENERATOR = args.gen
    logging.getLogger("context_compactor").setLevel(logging.WARNING)
    if args.profile:
        profile(args.profile, args.top)
        return 0
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "n/a"
    print(f"cold compaction to a {WINDOW:,}-token window, side by side, sessions of {GENERATOR} (Python {sys.version.split()[0]}; "
          f"{os.cpu_count()} CPUs, load average {load})")
    for case, inputs in cases(args.cases).items():
        runs = side_by_side(inputs, min(args.reps, 3) if case == "50MB" else args.reps)
        print("\n".join(report(case, inputs, runs)), flush=True)
    if not args.no_warm:
        print(warm_p50())
    return 0


if __name__ == "__main__":
    sys.exit(main())
