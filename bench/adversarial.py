"""How long one cold compaction takes when a message holds a long run that the ledger's patterns scan.

    python bench/adversarial.py                # runs of 40k, 200k and 1M characters
    python bench/adversarial.py --sizes 40k    # one size

Each case is a short session (ten user steps with values, the assistant's answers) with one long
message in the part that is folded, then the current turn, compacted through the public
``context_compactor.compact`` into a 4,096-token window (no store: everything from scratch). The long
message is a user correction ("Actually ...", "Sorry, ...", "Oops ...": a correction's values are
read from the whole message), an assistant answer or a tool result, holding one run without the
character a pattern waits for: letters without a digit, an "@" or a "/".

Before the value patterns were anchored where a run starts, a 40k-character run in a correction
took 20 to 46 seconds (each pattern was tried from every character of the run: quadratic); the
figures printed here are what a run of each size costs now.
"""

from __future__ import annotations

import argparse
import logging
import time
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


def session(long: Message, calls: bool = False) -> list[Message]:
    out: list[Message] = [{"role": "system", "content": "You are a coding agent."}]
    for i in range(10):
        out += [{"role": "user", "content": f"Step {i}: run the API on port 80{i}0 and check build bld-{i:04d}."},
                {"role": "assistant", "content": "Done."}]
    if calls:
        out += [{"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "bash", "arguments": '{"command": "cat dump.txt"}'}}]},
            {**long, "tool_call_id": "c1"}]
    else:
        out += [long, {"role": "assistant" if long["role"] == "user" else "user", "content": "Ok."}]
    for i in range(6):
        out += [{"role": "user", "content": f"Next step {i}."}, {"role": "assistant", "content": "Done."}]
    return out + [{"role": "user", "content": "Continue."}]


CASES = (
    ("correction, letters", "user", "Actually {run}", "a"),
    ("correction, dotted letters", "user", "Sorry, {run}", "a."),
    ("correction, '@' and letters", "user", "Oops {run}", "x@"),
    ("correction, path-like", "user", "Use {run}", "ab-"),
    ("assistant answer, letters", "assistant", "We'll go with {run} instead of the old one, since it is faster.", "a"),
    ("tool result, letters", "tool", "{run}", "a"),
    ("tool result, URL-like", "tool", "https://{run}", "a"),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="40k,200k,1m", help="lengths of the run, characters (default 40k,200k,1m)")
    args = parser.parse_args()
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.ERROR))
    sizes = [(label, characters(label)) for label in args.sizes.split(",")]
    print(f"{'case':<30}" + "".join(f"{label:>10}" for label, _ in sizes) + "   (seconds, one cold compaction)")
    for name, role, template, unit in CASES:
        row = f"{name:<30}"
        for _label, n in sizes:
            run = (unit * (n // len(unit) + 1))[:n]
            messages = session({"role": role, "content": template.format(run=run)}, calls=role == "tool")
            started = time.perf_counter()
            result = compact(messages, context_window=4096)
            took = time.perf_counter() - started
            assert result.stats.fits, f"{name} at {n:,}: {result.stats.reason}"
            row += f"{took:>10.2f}"
        print(row, flush=True)


if __name__ == "__main__":
    main()
