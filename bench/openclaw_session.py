"""A long OpenClaw session against a 16k model (issue 22's target): every request within the window, no refusal.

    python bench/openclaw_session.py                  # 40 turns, a 6-read tool loop every 4th turn
    python bench/openclaw_session.py --turns 12       # shorter
    python bench/openclaw_session.py --profile coding # another OpenClaw tool profile

A real OpenClaw gateway (``.ci/openclaw-env.sh`` installs it; set CONTEXT_COMPACTOR_INSTALL_OPENCLAW=1
to let this script run it) with context-compactor set up, and a fake model declared honestly at
``--window`` tokens that counts every character it gets (system prompt, tool schemas, messages; 4 a
token) and refuses, in llama.cpp's words, any prompt at or above the window. Turns alternate long
user messages (about 1,000 tokens) with tool loops: the model reads a 700-token file ``--reads``
times before it answers. OpenClaw's tool profile is ``minimal`` with its read tool by default: the
default profile's own prompt (about 14.6k tokens) leaves a 16k model no room for a loop.

Printed: the requests the model got (agent turns only), the largest, how many were refused, the
largest request inside a tool loop, the share of requests that carried our ledger, the wall time.
Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from fakes import text_of  # noqa: E402
from fakes.chat import tool_call  # noqa: E402
from fakes.harness import serve_upstream  # noqa: E402
from fakes.upstream import Behaviour, FakeUpstream  # noqa: E402
from ocfakes.fake_model import classify  # noqa: E402
from ocfakes.openclaw import BLOCK, Gateway, openclaw_path  # noqa: E402

LOOP = "READ-LOOP"
INTERNAL = "<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>"


class LoopModel(FakeUpstream):
    """Reads notes.txt ``reads`` times when the user's message says READ-LOOP; otherwise answers briefly."""

    reads = 6

    def _reply(self, body: dict[str, Any], n: int) -> dict[str, Any]:
        if classify(body) != "agent":
            return {"role": "assistant", "content": f"reply #{n}: ok"}
        messages = [m for m in body.get("messages") or [] if INTERNAL not in text_of(m.get("content"), "\n")]
        last_user = max((i for i, m in enumerate(messages) if m.get("role") == "user"), default=-1)
        ask = text_of(messages[last_user].get("content"), "\n") if last_user >= 0 else ""
        results = [m for m in messages[last_user + 1:] if m.get("role") == "tool"]
        if LOOP in ask and len(results) < self.reads:
            return tool_call(f"read-{n}", "read", {"path": "notes.txt"})
        return {"role": "assistant", "content": f"reply #{n}: ok"}


def configure(gw: Gateway, port: int, window: int, profile: str) -> None:
    config = gw.write_config(port)
    workspace = gw.root / "workspace"
    workspace.mkdir()
    lines = [f"line {i}: " + " ".join(f"note{i}w{j}" for j in range(12)) for i in range(26)]
    (workspace / "notes.txt").write_text("\n".join(lines) + "\nLAST-LINE-OK\n")
    text = config.read_text().replace("contextWindow: 131072", f"contextWindow: {window}")
    text = text.replace('agents: { defaults: { model: { primary: "fake/fake-model" } } }',
                        f'agents: {{ defaults: {{ model: {{ primary: "fake/fake-model" }}, workspace: {json.dumps(str(workspace))} }} }}')
    tools = f'{{ profile: "{profile}", alsoAllow: ["read"] }}' if profile != "default" else ""
    if tools:
        text = text.replace("  agents: {", f"  tools: {tools},\n  agents: {{", 1)
    config.write_text(text)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=40)
    parser.add_argument("--every", type=int, default=4, help="a tool loop every N turns")
    parser.add_argument("--reads", type=int, default=6, help="reads in each tool loop")
    parser.add_argument("--window", type=int, default=16384)
    parser.add_argument("--profile", default="minimal", help='OpenClaw tools.profile ("default": none set)')
    args = parser.parse_args()
    path = openclaw_path()
    if path is None:
        print("OpenClaw is not installed: set CONTEXT_COMPACTOR_INSTALL_OPENCLAW=1 (or run .ci/openclaw-env.sh)")
        return 2
    LoopModel.reads = args.reads
    model_app = LoopModel(Behaviour(context_window=args.window, chars_per_token=4.0, overflow_style="llama-server"))
    with tempfile.TemporaryDirectory() as tmp, serve_upstream(model_app) as model:
        gw = Gateway(Path(tmp), path)
        try:
            configure(gw, model.server.port, args.window, args.profile)
            done = gw.cc("setup", "--yes")
            if done.returncode:
                print(done.stdout + done.stderr)
                return 1
            gw.start_gateway()
            started, failed = time.monotonic(), 0
            for t in range(args.turns):
                if t % args.every == args.every - 1:
                    message = f"{LOOP} {t}: read notes.txt {args.reads} times, then tell me the last line."
                else:
                    message = f"Turn {t} KEEP-{t}: " + " ".join(f"w{t}x{i}" for i in range(700))
                run = gw.run("openclaw", "agent", "--session-id", "BENCH", "--message", message, timeout=300)
                failed += run.returncode != 0
            wall = time.monotonic() - started
            report(model, args, wall, failed)
        finally:
            gw.close()
    return 0


def report(model: Any, args: argparse.Namespace, wall: float, failed: int) -> None:
    calls = [(r.prompt_tokens, r.body, r.status) for r in list(model.app.requests)
             if r.path.endswith("/chat/completions") and isinstance(r.body, dict) and classify(r.body) == "agent"]
    sizes = [t for t, _, _ in calls]
    looped = [t for t, b, _ in calls if (b.get("messages") or [{}])[-1].get("role") == "tool"]  # calls 2.. of a loop
    refused = [t for t, _, s in calls if s != 200]
    ledger = sum(BLOCK in json.dumps(b) for _, b, _ in calls)
    print(f"OpenClaw session: {args.turns} turns, a {args.reads}-read tool loop every {args.every} turns, "
          f"tools.profile {args.profile}, window {args.window:,} (load {os.getloadavg()[0]:.1f})")
    print(f"  agent requests        {len(calls)} ({len(looped)} after a tool result, inside a loop); turns that failed: {failed}")
    print(f"  largest request       {max(sizes, default=0):,} tokens ({max(sizes, default=0) / args.window:.0%} of the window)")
    print(f"  largest in a loop     {max(looped, default=0):,} tokens")
    print(f"  above the window      {sum(t >= args.window for t in sizes)}")
    print(f"  refused (overflow)    {len(refused)}")
    print(f"  with our ledger       {ledger} of {len(calls)}")
    print(f"  wall time             {wall:.0f} s ({wall / max(1, args.turns):.1f} s a turn)")


if __name__ == "__main__":
    sys.exit(main())
