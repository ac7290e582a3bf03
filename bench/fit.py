"""Fit over random conversations with random settings: how many outputs are over the window unsaid.

    python bench/fit.py [--cases 10000] [--seed 1]

Each case is a random agent conversation (parallel tool calls, tool results up to 50 MB, CJK and
base64 text, image parts in the current turn) compacted with random settings (charsPerToken
0.5-20, messageOverheadTokens 0-64, a window of 256 to 128k tokens). The prompt sent is measured
again with the same counter. Printed: cases, how many compacted, how many were over the window
with ``fits`` false (said), and how many were over the window with ``fits`` true (unsaid: must be 0).
"""

from __future__ import annotations

import argparse
import base64
import random
import sys
import time
from typing import Any

from context_compactor import compact
from context_compactor.engine import Measurer
from context_compactor.tokens import CharCounter

WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"]
CJK = "長い会話を続けるためのコンテキスト圧縮。"
IMAGE = {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}}


def text(rng: random.Random, size: int) -> str:
    kind = rng.choice(("words", "cjk", "base64"))
    if kind == "cjk":
        return (CJK * (size // len(CJK) + 1))[:size]
    if kind == "base64":
        return base64.b64encode(rng.randbytes(size * 3 // 4 + 1)).decode()[:size]
    return " ".join(rng.choice(WORDS) for _ in range(size // 6 + 1))[:size]


def conversation(rng: random.Random) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [{"role": "system", "content": text(rng, rng.randint(1, 3000))}] if rng.random() < .5 else []
    call = 0
    for _ in range(rng.randint(1, 30)):
        out.append({"role": "user", "content": text(rng, rng.randint(1, 4000))})
        for _ in range(rng.randint(0, 3)):
            ids = [f"c{call + k}" for k in range(rng.randint(1, 3))]
            call += len(ids)
            out.append({"role": "assistant", "content": "", "tool_calls": [
                {"id": i, "type": "function", "function": {"name": "bash", "arguments": '{"command": "run"}'}} for i in ids]})
            for i in ids:
                size = rng.randint(1, 50_000_000) if rng.random() < 0.01 else rng.randint(1, 30_000)
                out.append({"role": "tool", "tool_call_id": i, "content": "x" * size if size > 100_000 else text(rng, size)})
        if rng.random() < 0.6:
            out.append({"role": "assistant", "content": text(rng, rng.randint(1, 3000))})
    if rng.random() < 0.3:
        last = max(i for i, m in enumerate(out) if m["role"] == "user")
        out[last] = {"role": "user", "content": [{"type": "text", "text": out[last]["content"]}, IMAGE, IMAGE]}
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    compacted = said = unsaid = 0
    worst = 0.0
    started = time.perf_counter()
    for case in range(args.cases):
        messages = conversation(rng)
        ratio, overhead = rng.uniform(0.5, 20), rng.randint(0, 64)
        window = int(2 ** rng.uniform(8, 17))
        result = compact(messages, context_window=window, chars_per_token=ratio, message_overhead_tokens=overhead,
                         calibrate=False)
        sent = Measurer(CharCounter(ratio), overhead).measure(result.messages).total
        compacted += result.stats.compacted
        if sent > window:
            if result.stats.fits:
                unsaid += 1
                worst = max(worst, sent / window)
            else:
                said += 1
        if (case + 1) % 1000 == 0:
            print(f"  {case + 1:,} cases, {time.perf_counter() - started:.0f} s", file=sys.stderr)
    print(f"{args.cases:,} random conversations, random settings (seed {args.seed}): {compacted:,} compacted; "
          f"over the window with fits false (said): {said:,}; over the window unsaid: {unsaid:,}"
          + (f" (worst {worst:.2f}x)" if unsaid else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
