"""What a local model server must recompute (prefill), call by call, over a whole agent session (issue 26).

    python bench/prefill.py                                  # 400 messages (~150k tokens) at 8k, every generator
    python bench/prefill.py --messages 3000 --window 32768   # ~1.2M tokens at 32k
    python bench/prefill.py --gens sessiongen --no-serve     # in process only
    python bench/prefill.py --only ours --serve-only         # ours through `serve` only

llama.cpp, Ollama, LM Studio and vLLM keep the previous request's KV cache and reuse the longest
common prefix of the new prompt with it; every token after that prefix is computed again. So every
assistant message of a session is one model call, whose prompt is the history before it, and what
that call costs the server is the part of its rendered prompt after the longest common prefix with
the previous call's rendered prompt. The prompt is rendered as a chat template would (each message's
role, text and tool calls, in order), and that part is counted in tokens with tiktoken (o200k_base)
as a stand-in for the model's own tokenizer.

Contestants, each fed the same histories one call after the other:

- **ours**: one :class:`context_compactor.Compactor` per session (its state carried across calls).
- **llm-context-budget** ``pack_messages(context_tokens=window)`` and **chatcram**
  ``Compactor(budget=3/4 window)`` with a head-and-tail stand-in for its summary call, as in
  ``bench/peers.py``.
- **sliding window**: the leading system messages and the newest messages that fit 3/4 of the
  window (4 characters a token), opening on a user turn.
- **lower bound**: the history itself, uncompacted: its prefix only grows (it overflows the window).

Per contestant: prefill over the session in tokens and as a multiple of the lower bound; the largest
single prefill (also as a share of the window, the first compaction excepted: targets are
<= 1.3x the lower bound and no call above 60% of the window but the first compaction); the number
of *rewrites* (calls whose prompt does not start with the whole previous prompt: the compactions a
server sees) and the largest prompt sent.

``serve`` (the gateway) is measured the same way against a fake OpenAI-compatible upstream on
127.0.0.1 (tests/fakes) that models a prefix cache: it records, per request, the longest common
prefix with the previous request of its session (``X-Session-Id``). Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import importlib
import json
import logging
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "bench"), str(ROOT / "tests")]

Message = dict[str, Any]
GENERATORS = ("sessiongen", "gen_ops", "gen_code", "gen_data")
SHARE_TARGET = 0.6  # no call's prefill above this share of the window, the first compaction excepted
RATIO_TARGET = 1.3


# --- the server's view: a rendered prompt and its reused prefix ----------------------------------


def render(messages: Sequence[Message], tools: Sequence[Any] | None = None) -> list[str]:
    """Each message as a chat template would lay it out (ChatML-like); the tool schemas first."""
    out = [f"<|tools|>{json.dumps(list(tools), sort_keys=True)}\n"] if tools else []
    for m in messages:
        content = m.get("content")
        text = content if isinstance(content, str) else "".join(
            str(p.get("text", "")) if isinstance(p, dict) else str(p) for p in content or [])
        calls = "".join(f"<tool_call>{(c.get('function') or {}).get('name')} "
                        f"{(c.get('function') or {}).get('arguments')}</tool_call>" for c in m.get("tool_calls") or [])
        out.append(f"<|im_start|>{m.get('role')}\n{text}{calls}<|im_end|>\n")
    return out


def common_prefix(a: str, b: str) -> int:
    """Length of the longest common prefix of two strings (by bisection on C-speed slice compares)."""
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[:mid] == b[:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


class PrefixCache:
    """One server slot: the previous prompt's rendered parts; ``feed`` returns what is recomputed."""

    def __init__(self, count: Callable[[str], int]) -> None:
        self.count = count
        self.previous: list[str] = []

    def feed(self, parts: list[str]) -> tuple[str, bool]:
        """(the text after the common prefix, whether the whole previous prompt was reused)."""
        prev = self.previous
        i = 0
        while i < len(prev) and i < len(parts) and prev[i] == parts[i]:
            i += 1
        within = common_prefix(prev[i], parts[i]) if i < len(prev) and i < len(parts) else 0
        extends = i == len(prev)
        rest = (parts[i][within:] if i < len(parts) else "") + "".join(parts[i + 1:])
        self.previous = parts
        return rest, extends


@dataclass
class Tally:
    """What one contestant cost the server over a session."""

    prefill: int = 0
    largest: int = 0  # the largest single prefill
    largest_later: int = 0  # ... after the first rewrite (the first compaction excepted)
    rewrites: int = 0
    largest_prompt: int = 0
    calls: int = 0
    seconds: float = 0.0
    prefills: list[int] = field(default_factory=list)

    def add(self, tokens: int, extends: bool, prompt_tokens: int) -> None:
        self.calls += 1
        self.prefill += tokens
        self.prefills.append(tokens)
        self.largest = max(self.largest, tokens)
        if not extends:
            self.rewrites += 1
        if extends or self.rewrites > 1:  # the first compaction of a session excepted
            self.largest_later = max(self.largest_later, tokens)
        self.largest_prompt = max(self.largest_prompt, prompt_tokens)


def counter() -> Callable[[str], int]:
    from context_compactor.tokens import load_encoding  # the encodings we ship, loaded offline

    enc = load_encoding("o200k_base")
    return lambda text: len(enc.encode(text, disallowed_special=())) if text else 0


# --- contestants: a history in, the prompt out ---------------------------------------------------


Contestant = Callable[[list[Message]], list[Message]]


class Ours:
    """One :class:`Compactor` per session; the server's count of each prompt is reported back to it
    (``record_usage``), as ``serve`` and a host that reads usage do, so its counter is calibrated."""

    def __init__(self, window: int, **options: Any) -> None:
        from context_compactor import Compactor

        self.compactor = Compactor(context_window=window, **options)

    def __call__(self, history: list[Message]) -> list[Message]:
        return self.compactor.compact(history).messages

    def usage(self, prompt_tokens: int) -> None:
        self.compactor.record_usage(prompt_tokens)


def ours(window: int, **options: Any) -> tuple[Contestant, Callable[[], None]]:
    run = Ours(window, **options)
    return run, run.compactor.close


def llm_context_budget(window: int) -> tuple[Contestant, Callable[[], None]]:
    from context_budget import pack_messages

    return (lambda history: list(pack_messages(history, context_tokens=window).messages)), lambda: None


def chatcram(window: int) -> tuple[Contestant, Callable[[], None]]:
    from chatcram import Compactor

    def head_and_tail(transcript: str) -> str:  # stands in for the LLM call chatcram expects
        return transcript[:4000] + "\n...\n" + transcript[-4000:]

    cram = Compactor(budget=window * 3 // 4, summarize=head_and_tail)
    return (lambda history: list(cram.compact(history).messages)), lambda: None  # type: ignore[arg-type]


def sliding(window: int) -> tuple[Contestant, Callable[[], None]]:
    room = window * 3 // 4 * 4  # characters

    def run(history: list[Message]) -> list[Message]:
        lead = 0
        while lead < len(history) and history[lead].get("role") == "system":
            lead += 1
        used, start = sum(len(json.dumps(m)) for m in history[:lead]), len(history)
        for i in range(len(history) - 1, lead - 1, -1):
            used += len(json.dumps(history[i]))
            if used > room:
                break
            start = i
        while start < len(history) - 1 and history[start].get("role") != "user":
            start += 1
        return history[:lead] + history[start:]
    return run, lambda: None


def whole(window: int) -> tuple[Contestant, Callable[[], None]]:
    return (lambda history: history), lambda: None


CONTESTANTS: dict[str, Callable[..., tuple[Contestant, Callable[[], None]]]] = {
    "ours": ours, "llm-context-budget": llm_context_budget, "sliding window": sliding, "chatcram": chatcram,
    "lower bound": whole}


# --- running -------------------------------------------------------------------------------------


def session(gen: str, messages: int, seed: int) -> list[Message]:
    return list(importlib.import_module(gen).make_session(seed=seed, messages=messages).messages)


def calls(messages: list[Message]) -> Iterator[list[Message]]:
    """The prompt history of each model call: everything before each assistant message."""
    for i, m in enumerate(messages):
        if m.get("role") == "assistant" and i > 0:
            yield messages[:i]


def run_in_process(name: str, messages: list[Message], window: int, count: Callable[[str], int]) -> Tally:
    contestant, close = CONTESTANTS[name](window)
    cache, tally = PrefixCache(count), Tally()
    try:
        for history in calls(messages):
            start = time.perf_counter()
            prompt = contestant(history)
            tally.seconds += time.perf_counter() - start
            parts = render(prompt)
            rest, extends = cache.feed(parts)
            prompt_tokens = count("".join(parts)) if name != "lower bound" else 0
            tally.add(count(rest), extends, prompt_tokens)
            if isinstance(contestant, Ours):
                contestant.usage(prompt_tokens + 4 * len(parts))  # a chat template's tokens a message
    finally:
        close()
    return tally


# --- through serve ---------------------------------------------------------------------------------


@contextmanager
def prefix_upstream(count: Callable[[str], int]) -> Iterator[tuple[str, dict[str, Tally]]]:
    """A fake OpenAI-compatible upstream on 127.0.0.1 that keeps, per session, the last prompt it was
    sent, and tallies what each request would make a prefix-caching server compute again."""
    from fakes.harness import serve_upstream
    from fakes.upstream import Behaviour, FakeUpstream

    tallies: dict[str, Tally] = {}
    caches: dict[str, PrefixCache] = {}

    class Caching(FakeUpstream):
        async def _chat(self, receive: Any, send: Any, seen: Any, body: Any, n: int) -> None:
            if isinstance(body, dict) and seen.headers.get("x-context-compactor-purpose") != "summary":
                key = seen.headers.get("x-session-id") or "default"
                parts = render(body.get("messages") or [], body.get("tools"))
                rest, extends = caches.setdefault(key, PrefixCache(count)).feed(parts)
                tallies.setdefault(key, Tally()).add(count(rest), extends, count("".join(parts)))
            await super()._chat(receive, send, seen, body, n)

    with serve_upstream(Caching(Behaviour(reply="ok"), record=False)) as up:
        yield up.url, tallies


def run_through_serve(messages: list[Message], window: int, count: Callable[[str], int], key: str) -> Tally:
    import httpx

    from fakes.harness import gateway_for

    with tempfile.TemporaryDirectory() as folder, prefix_upstream(count) as (url, tallies), \
            gateway_for(url, Path(folder), settings={"contextWindow": window}) as gw, \
            httpx.Client(base_url=gw.url, timeout=120) as client:
        start = time.perf_counter()
        for history in calls(messages):
            answer = client.post("/v1/chat/completions", json={"model": "fake-model", "messages": history},
                                 headers={"X-Session-Id": key})
            answer.raise_for_status()
        tally = tallies.get(key, Tally())
        tally.seconds = time.perf_counter() - start
        return tally


# --- report --------------------------------------------------------------------------------------


def table(rows: dict[str, Tally], window: int, bound: int) -> list[str]:
    lines = ["| compactor | prefill, tokens | x lower bound | largest prefill | largest but the 1st rewrite "
             "| rewrites | largest prompt | seconds |", "|---|---|---|---|---|---|---|---|"]
    for name, t in rows.items():
        ratio = t.prefill / bound if bound else 0.0
        prompt = f"{t.largest_prompt:,}" if t.largest_prompt else "-"
        lines.append(f"| {name} | {t.prefill:,} | {ratio:.2f}x | {t.largest:,} ({t.largest / window:.0%}) | "
                     f"{t.largest_later:,} ({t.largest_later / window:.0%}) | {t.rewrites} | {prompt} | "
                     f"{t.seconds:.1f} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--gens", type=lambda s: s.split(","), default=list(GENERATORS),
                        help="comma-separated session generators in bench/ (default: all four)")
    parser.add_argument("--messages", type=int, default=400, help="messages per session (400: ~150k tokens)")
    parser.add_argument("--window", type=int, default=8192)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", type=lambda s: s.split(","), default=list(CONTESTANTS),
                        help="comma-separated contestants (ours, llm-context-budget, sliding window, chatcram)")
    parser.add_argument("--no-serve", action="store_true", help="skip the run through serve")
    parser.add_argument("--serve-only", action="store_true", help="only the run through serve")
    args = parser.parse_args(argv)
    logging.getLogger("context_compactor").setLevel(logging.ERROR)
    import structlog  # serve's request lines: the figures are the output here

    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.ERROR))
    count = counter()
    for gen in args.gens:
        try:
            messages = session(gen, args.messages, args.seed)
        except Exception as exc:  # noqa: BLE001 - a generator that does not import is reported, not fatal
            print(f"{gen}: skipped ({type(exc).__name__}: {exc})")
            continue
        n_calls = sum(1 for _ in calls(messages))
        tokens = count("".join(render(messages)))
        print(f"\n{gen}, seed {args.seed}: {len(messages):,} messages, {tokens:,} tokens, {n_calls:,} calls, "
              f"{args.window:,}-token window", flush=True)
        rows: dict[str, Tally] = {}
        names = [n for n in args.only if n in CONTESTANTS]
        if "lower bound" not in names:
            names.append("lower bound")
        for name in names:
            if args.serve_only and name != "lower bound":
                continue
            rows[name] = run_in_process(name, messages, args.window, count)
        if not args.no_serve:
            rows["ours through serve"] = run_through_serve(messages, args.window, count, f"prefill-{gen}")
        bound = rows["lower bound"].prefill
        print("\n".join(table(rows, args.window, bound)), flush=True)
        for name, t in rows.items():
            if name.startswith("ours"):
                ok_ratio = t.prefill <= RATIO_TARGET * bound
                ok_share = t.largest_later <= SHARE_TARGET * args.window
                print(f"  {name}: {t.prefill / bound:.2f}x the lower bound (target <= {RATIO_TARGET}x: "
                      f"{'met' if ok_ratio else 'not met'}); largest prefill after the first rewrite "
                      f"{t.largest_later / args.window:.0%} of the window (target <= {SHARE_TARGET:.0%}: "
                      f"{'met' if ok_share else 'not met'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
