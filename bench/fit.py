"""Fit over random conversations with random settings: how many outputs are over the window unsaid.

    python bench/fit.py [--cases 10000] [--seed 1] [--multi 0.2]

Each case is a random agent conversation (parallel tool calls, tool results up to 50 MB, CJK and
base64 text, image parts in the current turn) compacted with random settings (charsPerToken
0.5-20, messageOverheadTokens 0-64, a window of 256 to 128k tokens). The prompt sent is measured
again with the same counter. Printed: cases, how many compacted, how many were over the window
with ``fits`` false (said), and how many were over the window with ``fits`` true (unsaid: must be 0).

A share of the cases (``--multi``, drawn from a random stream of its own, so the other cases are the
conversations of earlier runs) is a session of two turns through one ``Compactor``: the
conversation also holds todo_write/update_plan calls with open tasks (so the task reminder is due,
and with saveStateReminder on, the save-state request), and the second turn calls again, with the
same tool name and arguments, a result the first turn stubbed or folded (so it is pinned and put
back). Those are the paths that add tokens after the engine's plan. Every turn is checked as above;
the first line's figures count the first turns, the second line the second turns, with how many
prompts carried a reminder and how many re-read results went back verbatim.
"""

from __future__ import annotations

import argparse
import base64
import json
import random
import sys
import time
from typing import Any

from context_compactor import Compactor, compact
from context_compactor.engine import Measurer
from context_compactor.loop import REMINDER_HEAD
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


def todo_call(rng: random.Random, call: int) -> list[dict[str, Any]]:
    """A todo_write or update_plan call with at least one open task, and its result."""
    name = rng.choice(("todo_write", "update_plan"))
    items = [{"content" if name == "todo_write" else "step": text(rng, rng.randint(5, 400)),
              "status": rng.choice(("pending", "in_progress", "completed"))} for _ in range(rng.randint(1, 8))]
    items[rng.randrange(len(items))]["status"] = "pending"
    args = {"todos": items} if name == "todo_write" else {"plan": items}
    return [{"role": "assistant", "content": "", "tool_calls": [{"id": f"t{call}", "type": "function", "function": {
                "name": name, "arguments": json.dumps(args, ensure_ascii=False)}}]},
            {"role": "tool", "tool_call_id": f"t{call}", "content": "ok"}]


def with_todos(rng: random.Random, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``messages`` with todo calls after some user turns (the last one near the end, so its tasks are open
    and the reminder is due), and every bash call's arguments made its own, so a call can be repeated."""
    out: list[dict[str, Any]] = []
    users = [i for i, m in enumerate(messages) if m["role"] == "user"]
    todo_at = {i for i in users[:-1] if rng.random() < 0.3} | ({users[-2]} if len(users) > 1 else set())
    for i, message in enumerate(messages):
        if message.get("tool_calls"):
            message = {**message, "tool_calls": [
                {**c, "function": {"name": "bash", "arguments": json.dumps({"command": f"cat file-{c['id']}"})}}
                for c in message["tool_calls"]]}
        out.append(message)
        if i in todo_at:
            out += todo_call(rng, i)
    if rng.random() < 0.5:  # the reminder then rides on a tool result, not on the user's turn
        out += todo_call(rng, len(messages))
    return out


def reread(rng: random.Random, history: list[dict[str, Any]], sent: list[Any]) -> list[dict[str, Any]] | None:
    """The history of a second turn: the model calls again (same tool, same arguments) a bash result the
    first turn's prompt left out or stubbed, and gets the same text back; None when none was."""
    kept = {id(m) for m in sent}
    calls = {c["id"]: c for m in history for c in m.get("tool_calls") or []}
    taken = [m for m in history if m["role"] == "tool" and id(m) not in kept
             and calls.get(m["tool_call_id"], {}).get("function", {}).get("name") == "bash"]
    if not taken:
        return None
    stubbed = {m.get("tool_call_id") for m in sent if isinstance(m, dict) and m.get("role") == "tool"}
    pick = [m for m in taken if m["tool_call_id"] in stubbed] if rng.random() < 0.7 else []
    old = rng.choice(pick or taken)
    call = calls[old["tool_call_id"]]
    return [*history, {"role": "assistant", "content": "", "tool_calls": [{**call, "id": "again"}]},
            {"role": "tool", "tool_call_id": "again", "content": old["content"]}]


class Tally:
    """The fit figures of one kind of turn."""

    def __init__(self) -> None:
        self.cases = self.compacted = self.said = self.unsaid = self.reminded = 0
        self.worst = 0.0

    def check(self, messages: list[Any], stats: Any, window: int, ratio: float, overhead: int) -> None:
        sent = Measurer(CharCounter(ratio), overhead).measure(messages).total
        self.cases += 1
        self.compacted += stats.compacted
        self.reminded += any(isinstance(m, dict) and REMINDER_HEAD in str(m.get("content")) for m in messages[-2:])
        if sent > window:
            if stats.fits:
                self.unsaid += 1
                self.worst = max(self.worst, sent / window)
            else:
                self.said += 1

    def figures(self) -> str:
        return (f"{self.compacted:,} compacted; over the window with fits false (said): {self.said:,}; over the window "
                f"unsaid: {self.unsaid:,}" + (f" (worst {self.worst:.2f}x)" if self.unsaid else ""))


def session(rng: random.Random, messages: list[dict[str, Any]], window: int, ratio: float, overhead: int,
            first: Tally, second: Tally) -> bool:
    """Two turns of one session (see the module docstring); True when a re-read result went back verbatim."""
    history = with_todos(rng, messages)
    with Compactor(context_window=window, chars_per_token=ratio, message_overhead_tokens=overhead, calibrate=False,
                   task_reminder_every=rng.choice((1, 2, 4)), save_state_reminder=rng.random() < 0.3) as compactor:
        result = compactor.compact(history)
        first.check(result.messages, result.stats, window, ratio, overhead)
        again = reread(rng, history, result.messages)
        if again is None:
            return False
        result = compactor.compact(again)
        second.check(result.messages, result.stats, window, ratio, overhead)
    sent = {id(m) for m in result.messages}
    return any(m["role"] == "tool" and m["tool_call_id"] != "again" and m["content"] == again[-1]["content"]
               and id(m) in sent for m in again)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--multi", type=float, default=0.2, help="share of the cases run as two-turn sessions")
    args = parser.parse_args()
    rng, multi = random.Random(args.seed), random.Random(f"{args.seed}:multi")
    one, first, second = Tally(), Tally(), Tally()
    back = 0
    started = time.perf_counter()
    for case in range(args.cases):
        messages = conversation(rng)
        ratio, overhead = rng.uniform(0.5, 20), rng.randint(0, 64)
        window = int(2 ** rng.uniform(8, 17))
        if multi.random() < args.multi:
            back += session(multi, messages, window, ratio, overhead, first, second)
        else:
            result = compact(messages, context_window=window, chars_per_token=ratio, message_overhead_tokens=overhead,
                             calibrate=False)
            one.check(result.messages, result.stats, window, ratio, overhead)
        if (case + 1) % 1000 == 0:
            print(f"  {case + 1:,} cases, {time.perf_counter() - started:.0f} s", file=sys.stderr)
    total = Tally()
    for name in ("cases", "compacted", "said", "unsaid"):
        setattr(total, name, getattr(one, name) + getattr(first, name))
    total.worst = max(one.worst, first.worst)
    print(f"{args.cases:,} random conversations, random settings (seed {args.seed}): {total.figures()}")
    print(f"  of them {first.cases:,} sessions with open todo tasks, first turn: {first.figures()}; "
          f"task reminder sent in {first.reminded:,}")
    print(f"  second turn re-reading a stubbed or folded result ({second.cases:,} turns): {second.figures()}; "
          f"task reminder sent in {second.reminded:,}; re-read result put back verbatim in {back:,}")
    print(f"  {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
