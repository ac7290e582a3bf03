"""How long one cold compaction takes when a message holds a long run that a pattern or a loop scans.

    python bench/adversarial.py                    # runs of 40k, 200k and 1M characters
    python bench/adversarial.py --sizes 40k        # one size
    python bench/adversarial.py --only call        # the cases whose name holds "call"

Each case is a short session (ten user steps with values, the assistant's answers) with one long
text in the part that is folded, then the current turn, compacted through the public
``context_compactor.compact`` into a 4,096-token window (no store: everything from scratch). The long
text is a user correction ("Actually ...", "Sorry, ...", "Oops ...": a correction's values are
read from the whole message), a user message, an assistant answer, a tool result, or a shell tool
call's command; or, for the "model:" rows, the answer of a summary model (a server on 127.0.0.1 that
answers every summary request with it; summary_timeout_seconds 600, so the time it takes to check
shows). Each holds one run without the character a pattern waits for: letters without a digit, an
"@" or a "/", spaces after a heading or bullet marker, unclosed quotes and tags.

Figures before the fixes, seconds (40k / 200k / 1M): a correction of letters 20-46 at 40k (ledger
value patterns); a command with a quoted or long word 0.03-0.10 / 0.5-0.8 / 12-14 (shlex);
model answers: unclosed <think> tags 1.0 at 40k, a bullet marker or '**a**' and spaces 5.6-7.9 at
40k, '# a', spaces, 'b' 1.4 at 1k and 93 at 4k (cubic). What each run costs now is printed.
"""

from __future__ import annotations

import argparse
import json
import logging
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import structlog

from context_compactor import compact

Message = dict[str, Any]


def characters(text: str) -> int:
    """'40k' -> 40,000; '1m' -> 1,000,000; '500' -> 500."""
    key = text.strip().lower()
    scale = {"k": 1_000, "m": 1_000_000}.get(key[-1:], 1)
    try:
        return int(float(key.rstrip("km")) * scale)
    except ValueError:
        raise SystemExit(f"--sizes: {text!r} is not a size (write 40k, 200k or 1m)") from None


def session(long: Message, calls: bool = False, command: str = "cat dump.txt") -> list[Message]:
    out: list[Message] = [{"role": "system", "content": "You are a coding agent."}]
    for i in range(10):
        out += [{"role": "user", "content": f"Step {i}: run the API on port 80{i}0 and check build bld-{i:04d}."},
                {"role": "assistant", "content": "Done."}]
    if calls:
        out += [{"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "bash", "arguments": json.dumps({"command": command})}}]},
            {**long, "tool_call_id": "c1"}]
    else:
        out += [long, {"role": "assistant" if long["role"] == "user" else "user", "content": "Ok."}]
    for i in range(6):
        out += [{"role": "user", "content": f"Next step {i}."}, {"role": "assistant", "content": "Done."}]
    return out + [{"role": "user", "content": "Continue."}]


# (name, role, template, unit): role "call" puts the text in a shell tool call's command (its result is "ok").
CASES = (
    ("correction, letters", "user", "Actually {run}", "a"),
    ("correction, dotted letters", "user", "Sorry, {run}", "a."),
    ("correction, '@' and letters", "user", "Oops {run}", "x@"),
    ("correction, path-like", "user", "Use {run}", "ab-"),
    ("correction, spaces", "user", "Actually {run}x", " "),
    ("user, unclosed fence", "user", "```python\n{run}", "a = 1 "),
    ("assistant answer, letters", "assistant", "We'll go with {run} instead of the old one, since it is faster.", "a"),
    ("assistant, unclosed <think>", "assistant", "{run}", "<think>"),
    ("assistant, <thinking> x n", "assistant", "{run}</think> Done.", "<thinking>a"),
    ("tool result, letters", "tool", "{run}", "a"),
    ("tool result, URL-like", "tool", "https://{run}", "a"),
    ("tool result, Traceback", "tool", "Traceback (most recent call last) {run}", "a"),
    ("tool result, 'Error: ' x n", "tool", "{run}", "Error: "),
    ("call, quoted word", "call", "git commit -m \"{run}\"", "a"),
    ("call, unclosed quote", "call", "rm '{run}", "a b "),
    ("call, one long word", "call", "cp {run} out.txt", "a"),
)


# (name, template, unit): what a summary model answers (role "model"), checked by summarizer/output.py.
MODEL_CASES = (
    ("model: unclosed <think> x n", "{run}", "<think>"),
    ("model: '-' and spaces", "## Summary\n-{run}\n- the cache is per tenant", " "),
    ("model: '1.' and spaces", "## Summary\n1.{run}\n- the cache is per tenant", " "),
    ("model: '# a', spaces, 'b'", "## Summary\n- the cache is per tenant\n# a{run}b", " "),
    ("model: '**a**', spaces, 'b'", "## Summary\n- the cache is per tenant\n**a**{run}b", " "),
)


class ModelServer(ThreadingHTTPServer):
    """A summary model on 127.0.0.1 that answers every chat completion with ``answer``."""

    answer = ""

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Answer)
        threading.Thread(target=self.serve_forever, daemon=True).start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"


class _Answer(BaseHTTPRequestHandler):
    server: ModelServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("content-length") or 0))
        body = json.dumps({"id": "chatcmpl-bench", "object": "chat.completion", "created": 1, "model": "bench",
                           "choices": [{"index": 0, "message": {"role": "assistant", "content": self.server.answer},
                                        "finish_reason": "stop"}],
                           "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}}).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def messages_for(role: str, template: str, run: str) -> list[Message]:
    if role == "call":
        return session({"role": "tool", "content": "ok"}, calls=True, command=template.format(run=run))
    if role == "model":  # ordinary words to fold (over the trigger); the model's answer is the long text
        return session({"role": "user", "content": "Keep the cache per tenant and log each eviction. " * 400})
    return session({"role": role, "content": template.format(run=run)}, calls=role == "tool")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="40k,200k,1m", help="lengths of the run, characters (default 40k,200k,1m)")
    parser.add_argument("--only", default="", help="run the cases whose name holds this text")
    args = parser.parse_args()
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.ERROR))
    logging.getLogger("context_compactor").setLevel(logging.ERROR)  # the model server states no window
    sizes = [(label, characters(label)) for label in args.sizes.split(",")]
    server = ModelServer()
    model = {"baseUrl": server.base_url, "model": "bench", "api": "openai"}
    print(f"{'case':<30}" + "".join(f"{label:>10}" for label, _ in sizes) + "   (seconds, one cold compaction)")
    cases = [*CASES, *((name, "model", template, unit) for name, template, unit in MODEL_CASES)]
    for name, role, template, unit in cases:
        if args.only not in name:
            continue
        row = f"{name:<30}"
        for _label, n in sizes:
            run = (unit * (n // len(unit) + 1))[:n]
            options: dict[str, Any] = {}
            if role == "model":
                server.answer = template.format(run=run)
                options = {"summary_model": model, "summary_timeout_seconds": 600}
            started = time.perf_counter()
            result = compact(messages_for(role, template, run), context_window=4096, **options)
            took = time.perf_counter() - started
            assert result.stats.fits, f"{name} at {n:,}: {result.stats.reason}"
            row += f"{took:>10.2f}"
        print(row, flush=True)
    server.shutdown()


if __name__ == "__main__":
    main()
