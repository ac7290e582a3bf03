"""What model summaries cost over a long agent session, and what they add to the compaction turn.

    python bench/cost.py                      # both parts (the latency part takes about 6 minutes)
    python bench/cost.py --cost-only          # 500 turns, five ways of summarizing, in seconds
    python bench/cost.py --latency-only --turns 60 --model-seconds 2 --think 2
    python bench/cost.py --per-turn           # also every compaction turn of the default way

A 500-turn agent session (``examples/generate_session.py``; a turn is one model call, so one
``before_agent_start`` and one ``after_turn``) is replayed through the real hooks, a real
``Runtime`` and SQLite store, and the real :class:`LLMSummarizer`, with an 8,192-token window.
The summary model is a counting fake behind ``httpx.MockTransport``: it records every request and
answers with a six-section summary of about the size asked for (the worst case for merges).

**Cost.** Summarizer input is counted as the material a request carries (the transcript, or the
summaries to merge) at 4 chars/token, and also with the prompt around it. *History covered* is
the tokens of every message the last compaction folded (each was folded once and stays folded).
Ways compared:

- ``tiered, chunk <= growth`` (the default): closed chunks of at most trigger-minus-target
  tokens, each summarised once; the open chunk summarised deterministically; aligned merges of
  four summaries, each made once. ``open avg`` is the mean size of that open chunk at a
  compaction: the newest folded tokens that only the deterministic summary covers until their
  chunk closes.
- ``tiered, merge fan-in 2 / 3``: the default with merges of 2 or 3 summaries instead of 4.
- ``tiered, chunk = readable``: the same with chunks as large as the summary model can read.
- ``before: flat 16k``: the design this replaced: greedy chunks of chunkTokens capped to what the
  model reads, the last partial chunk sent to the model at every compaction, all chunk summaries
  merged again whenever one changes.
- ``tiered + snapped cut``: the default, with plan.py's fold cut moved up to the next chunk
  boundary when one lies between the smallest cut that meets the target and the recent tail
  (simulated here by patching ``Planner._fold_cut``; the change requested of plan.py).
- ``naive``: what a compactor without a cache does, re-reading the whole old part at every
  compaction (counted on the default run's compactions: the region's tokens each time).

**Latency.** The time ``before_agent_start`` takes on the turns where a compaction happens, with
a fake model that takes ``--model-seconds`` (2 s) per call, pre-summarization on
(``precompactAt`` 0.6) and off (1.0, so it never starts). Between turns the replay sleeps
``--think`` seconds, standing in for the agent's own model call. On this two-core VM a compaction
turn that finds everything cached costs 0.8-2.7 ms when turns follow each other at once (the
cost part), but 10-25 ms after a one-second idle pause, with or without background work: that is
the machine waking up, and it is in the "on" figures. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import structlog

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "examples"))

from generate_session import generate  # noqa: E402

from context_compactor import session as session_module  # noqa: E402
from context_compactor.engine import plan as plan_module  # noqa: E402
from context_compactor.engine import summaries as summaries_module  # noqa: E402
from context_compactor.engine.chunks import closed_chunks  # noqa: E402
from context_compactor.engine.summaries import Summaries  # noqa: E402
from context_compactor.hookspecs import AfterTurnEvent, BeforeAgentStartEvent, HookContext, ModelInfo  # noqa: E402
from context_compactor.plugins import get_plugin_manager  # noqa: E402
from context_compactor.runtime import Runtime  # noqa: E402
from context_compactor.settings import Settings  # noqa: E402
from context_compactor.store import Store  # noqa: E402

WINDOW = 8192
SECTIONS = ("Goal and standing instructions", "Decisions", "Files and commands", "Failed attempts",
            "Current state", "Next steps")


def tokens(text: str) -> int:
    return math.ceil(len(text) / 4)


class CountingModel:
    """A summary model that counts what it is sent and answers in the size asked for."""

    def __init__(self, seconds: float = 0.0) -> None:
        self.seconds = seconds
        self.calls = self.merges = self.material = self.request = 0
        self._lock = threading.Lock()

    def handler(self, request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        system, user = body["messages"][0]["content"], body["messages"][1]["content"]
        merge = "<summaries>" in user
        tag = "summaries" if merge else "transcript"
        material = user.split(f"<{tag}>", 1)[1].rsplit(f"</{tag}>", 1)[0]
        with self._lock:
            self.calls += 1
            self.merges += merge
            self.material += tokens(material)
            self.request += tokens(system) + tokens(user)
            n = self.calls
        if self.seconds:
            time.sleep(self.seconds)
        want = int((body["max_tokens"] - 32) / 1.5 * 0.9)  # about 90% of the summary budget
        per = max(1, want // len(SECTIONS))
        text = "\n".join(f"## {title}\n- call {n}: " + " ".join(["detail"] * max(1, per * 4 // 7 - 3))
                         for title in SECTIONS)
        reply = {"choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
                 "usage": {"prompt_tokens": tokens(system + user), "completion_tokens": want}}
        return httpx.Response(200, json=reply)

    def snapshot(self) -> tuple[int, int, int]:
        with self._lock:
            return self.calls, self.material, self.request


@dataclass
class Run:
    name: str
    turns: int = 0
    compactions: int = 0
    covered: int = 0
    naive_material: int = 0
    naive_calls: int = 0
    open_share: list[float] = field(default_factory=list)  # tokens of the open chunk at each compaction
    compaction_ms: list[float] = field(default_factory=list)
    fallbacks: int = 0
    checkpoints: list[tuple[int, int, int, int, int]] = field(default_factory=list)  # turn, compactions, calls, material, covered
    per_turn: list[str] = field(default_factory=list)
    model: CountingModel = field(default_factory=CountingModel)


def session_messages(turns: int) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = generate(messages=int(turns * 1.9) + 40)["messages"]
    return messages


@contextmanager
def patched(obj: Any, name: str, value: Any) -> Iterator[None]:
    old = getattr(obj, name)
    setattr(obj, name, value)
    try:
        yield
    finally:
        setattr(obj, name, old)


def _fail_loudly(_logger: Any, _method: str, event: Any) -> Any:
    """The hooks fail open (a warning, no change); a benchmark must not quietly measure that instead."""
    if str(event.get("event", "")).endswith(".failed"):
        raise RuntimeError(f"bench: a hook failed: {event}")
    return event


def replay(run: Run, messages: list[dict[str, Any]], turns: int, *, settings: dict[str, Any],
           wait_idle: bool = True, think: float = 0.0, per_turn: bool = False) -> Run:
    structlog.configure(processors=[_fail_loudly], logger_factory=structlog.ReturnLoggerFactory())
    with tempfile.TemporaryDirectory() as home:
        http = httpx.Client(transport=httpx.MockTransport(run.model.handler))
        options = {"contextWindow": WINDOW, "summaryModel": {"baseUrl": "http://summary.test/v1", "model": "counting",
                                                              "contextWindow": WINDOW}, **settings}
        runtime = Runtime(Settings(**options), store=Store.open(Path(home) / "store.sqlite"), http=http)
        try:
            _turns(run, runtime, messages, turns, wait_idle, think, per_turn)
        finally:
            runtime.close()
    return run


def _turns(run: Run, runtime: Runtime, messages: list[dict[str, Any]], turns: int, wait_idle: bool, think: float,
           per_turn: bool) -> None:
    pm = get_plugin_manager(load_entry_points=False)
    model = ModelInfo(id="session-model")
    ctx = HookContext("bench", runtime, model)
    positions = [i for i, m in enumerate(messages) if m["role"] == "assistant"][:turns]
    session = runtime.session("bench")
    for turn, n in enumerate(positions, 1):
        before = session.state.get("compactions", 0)
        calls0, material0, _ = run.model.snapshot()
        started = time.perf_counter()
        result = pm.hook.before_agent_start(event=BeforeAgentStartEvent(messages=messages[:n], model=model), ctx=ctx)
        elapsed = (time.perf_counter() - started) * 1000
        sent = result.messages if result and result.messages is not None else messages[:n]
        pm.hook.after_turn(event=AfterTurnEvent(messages=sent, model=model), ctx=ctx)
        if result is not None:
            run.fallbacks += int(result.stats.get("fallbacks") or 0)
        if session.state.get("compactions", 0) > before:
            _compacted(run, session, elapsed)
        if wait_idle:
            runtime.background.wait_idle(120)
        if think:
            time.sleep(think)
        run.turns = turn
        calls, material, _ = run.model.snapshot()
        if per_turn and session.state.get("compactions", 0) > before:
            run.per_turn.append(f"  turn {turn:4d}: {calls - calls0:3d} calls, {material - material0:7,} tokens in; "
                                f"covered {run.covered:,}")
        if turn % 50 == 0 or turn == len(positions):
            run.checkpoints.append((turn, run.compactions, calls, material, run.covered))


def _compacted(run: Run, session: Any, elapsed_ms: float) -> None:
    run.compactions += 1
    run.compaction_ms.append(elapsed_ms)
    m = session.plan_input[0]
    anchor = session.state.get("anchor") or {}
    lead, cut = anchor.get("lead", 0), anchor.get("cut", 0)
    region = m.span(lead, cut)
    run.covered = max(run.covered, region)
    run.naive_material += region
    readable = session.plan_input[3].chunk_tokens
    run.naive_calls += math.ceil(region / max(1, readable))
    memo = session.summary_memo
    if memo is not None and region:
        run.open_share.append(memo.report.open_tokens)


# --- the ways compared --------------------------------------------------------------------------------


def flat_summaries(self: Any, runtime: Any, settings: Any, summarizer: Any, measurer: Any, budget: Any,
                   tuning: Any) -> Summaries:
    """The replaced design: flat greedy chunks (capped to what the model reads), everything merged."""
    chunk = min(settings.chunk_tokens, summarizer.readable_tokens(tuning.summary_max_tokens))
    return Summaries(summarizer, runtime.fallback, runtime.store, measurer.text_tokens, chunk, tiered=False,
                     runner=runtime.background, deadline=time.monotonic() + settings.summary_timeout_seconds)


def snapping_fold_cut(original: Callable[..., int | None]) -> Callable[..., int | None]:
    """plan.py's smallest fold cut, moved up to the next closed-chunk boundary below the tail."""
    def fold_cut(self: Any, tail: int, stub_until: int, target: int, force: bool) -> int | None:
        cut = original(self, tail, stub_until, target, force)
        if cut is None or force:
            return cut
        units = SNAP_UNITS[0]
        legal = set(self.shape.cuts)
        for _, end in closed_chunks(self.m.entries, self.shape.lead, tail, units):
            if cut <= end <= tail and end in legal:
                return end
        return cut
    return fold_cut


SNAP_UNITS = [2048 * 4]


def cost_part(turns: int, per_turn: bool) -> None:
    messages = session_messages(turns)
    runs = []
    print(f"Cost: {turns} turns, window {WINDOW:,}, summaryMaxTokens 1,000, chunkTokens 16,000; "
          "counting fake model, material at 4 chars/token\n")
    base = replay(Run("tiered, chunk <= growth (default)"), messages, turns, settings={}, per_turn=per_turn)
    runs.append(base)
    for k in (2, 3):
        with patched(summaries_module, "FAN_IN", k), patched(Summaries.__init__, "__kwdefaults__",
                                                              {**Summaries.__init__.__kwdefaults__, "fan_in": k}):
            runs.append(replay(Run(f"tiered, merge fan-in {k}"), messages, turns, settings={}))
    with patched(session_module, "CHUNK_TRACKS_GROWTH", False):
        runs.append(replay(Run("tiered, chunk = readable"), messages, turns, settings={}))
    with patched(session_module.Session, "_summaries", flat_summaries):
        runs.append(replay(Run("before: flat 16k, merge all"), messages, turns, settings={}))
    with patched(plan_module.Planner, "_fold_cut", snapping_fold_cut(plan_module.Planner._fold_cut)):
        runs.append(replay(Run("tiered + snapped cut (plan.py)"), messages, turns, settings={}))
    print(f"{'way':34s} {'compact.':>8s} {'calls':>6s} {'merges':>6s} {'material in':>12s} {'with prompt':>12s} "
          f"{'covered':>9s} {'in/cov':>7s} {'open avg':>9s}")
    for run in runs:
        calls, material, request = run.model.snapshot()
        share = statistics.mean(run.open_share) if run.open_share else 0.0
        print(f"{run.name:34s} {run.compactions:8d} {calls:6d} {run.model.merges:6d} {material:12,} {request:12,} "
              f"{run.covered:9,} {material / max(1, run.covered):7.2f}x {share:9,.0f}")
    print(f"{'naive: whole old part each time':34s} {base.compactions:8d} {base.naive_calls:6d} {'':>6s} "
          f"{base.naive_material:12,} {'':>12s} {base.covered:9,} {base.naive_material / max(1, base.covered):7.2f}x")
    print("\nCumulative, every 50 turns (turn: compactions, calls, material in, covered, in/covered):")
    for run in runs:
        print(f"  {run.name}")
        for turn, compactions, calls, material, covered in run.checkpoints:
            print(f"    {turn:4d}: {compactions:3d} compactions, {calls:4d} calls, {material:9,} in, {covered:9,} "
                  f"covered, {material / max(1, covered):5.2f}x")
    if per_turn:
        print(f"\nEvery compaction turn of '{base.name}' (calls and material made since the turn before, "
              "pre-summarization included):")
        print("\n".join(base.per_turn))


def latency_part(turns: int, seconds: float, think: float) -> None:
    messages = session_messages(turns)
    print(f"\nLatency: {turns} turns, fake model {seconds:g} s per call, {think:g} s between turns (the agent's own "
          "call), summaryTimeoutSeconds 20")
    print(f"{'pre-summarization':18s} {'compactions':>11s} {'p50 ms':>9s} {'p90 ms':>9s} {'max ms':>9s} "
          f"{'calls':>6s} {'fallbacks':>9s}")
    for on in (True, False):
        run = Run("on" if on else "off", model=CountingModel(seconds))
        replay(run, messages, turns, settings={"precompactAt": 0.6 if on else 1.0}, wait_idle=False, think=think)
        ms = sorted(run.compaction_ms) or [0.0]
        p90 = ms[min(len(ms) - 1, int(0.9 * len(ms)))]
        print(f"{run.name:18s} {run.compactions:11d} {statistics.median(ms):9.1f} {p90:9.1f} {max(ms):9.1f} "
              f"{run.model.calls:6d} {run.fallbacks:9d}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=None, help="turns (default: 500 for cost, 60 for latency)")
    parser.add_argument("--model-seconds", type=float, default=2.0)
    parser.add_argument("--think", type=float, default=2.0)
    parser.add_argument("--cost-only", action="store_true")
    parser.add_argument("--latency-only", action="store_true")
    parser.add_argument("--per-turn", action="store_true")
    args = parser.parse_args(argv)
    if not args.latency_only:
        cost_part(args.turns or 500, args.per_turn)
    if not args.cost_only:
        latency_part(args.turns or 60, args.model_seconds, args.think)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
