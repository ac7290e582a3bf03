"""End to end with a real OpenClaw gateway (issue 22): the whole prompt, OpenClaw's system prompt and
tool schemas included, within the model's window in every model call, tool loops too.

The model is declared honestly to OpenClaw (``contextWindow`` 16,384) and the fake behind it refuses,
in llama.cpp's words, any prompt above that, counting every character it gets (system prompt, tool
schemas, messages). The engine owns compaction, so OpenClaw calls ``assemble`` before each model call of
a tool loop; the plugin reads OpenClaw's fixed part from ``llm_input`` and the bridge measures it.
A second test declares an 8k model: OpenClaw's own prompt cannot fit it, and the user is told why.
Slow (a real gateway: about a minute a test).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from fakes import text_of
from fakes.chat import tool_call
from fakes.harness import Upstream
from fakes.upstream import Behaviour, FakeUpstream
from ocfakes.fake_model import classify
from ocfakes.openclaw import BLOCK, Gateway

pytestmark = pytest.mark.slow  # a real OpenClaw gateway: about a minute a test

WINDOW = 16384
KEY = "agent:main:explicit:e2e"
INTERNAL = "<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>"
LOOP_ASK = "READ-LOOP: read notes.txt six times, then tell me the last line."
READS = 6


class LoopModel(FakeUpstream):
    """Reads notes.txt six times when the user asks with READ-LOOP; otherwise answers briefly."""

    def _reply(self, body: dict[str, Any], n: int) -> dict[str, Any]:
        if classify(body) != "agent":
            return {"role": "assistant", "content": f"reply #{n}: ok"}
        messages = [m for m in body.get("messages") or [] if INTERNAL not in text_of(m.get("content"), "\n")]
        last_user = max((i for i, m in enumerate(messages) if m.get("role") == "user"), default=-1)
        ask = text_of(messages[last_user].get("content"), "\n") if last_user >= 0 else ""
        results = [m for m in messages[last_user + 1:] if m.get("role") == "tool"]
        if "READ-LOOP" in ask and len(results) < READS:
            return tool_call(f"read-{n}", "read", {"path": "notes.txt"})
        return {"role": "assistant", "content": f"reply #{n}: ok"}


def agent_calls(model: Upstream) -> list[tuple[int, dict[str, Any], int]]:
    """(prompt tokens as the fake counted them, body, status) of each agent request, in order."""
    return [(r.prompt_tokens, r.body, r.status) for r in list(model.app.requests)
            if r.path.endswith("/chat/completions") and isinstance(r.body, dict) and classify(r.body) == "agent"]


def configure(gw: Gateway, port: int, window: int, tools: str = "") -> None:
    """OpenClaw's config with the model declared at ``window`` tokens, a workspace holding notes.txt, and
    ``tools`` (JSON5 for the ``tools`` key) when given."""
    config = gw.write_config(port)
    workspace = gw.root / "workspace"
    workspace.mkdir()
    lines = [f"line {i}: " + " ".join(f"note{i}w{j}" for j in range(12)) for i in range(26)]
    (workspace / "notes.txt").write_text("\n".join(lines) + "\nLAST-LINE-OK\n")  # about 700 tokens
    text = config.read_text().replace("contextWindow: 131072", f"contextWindow: {window}")
    agents = 'agents: { defaults: { model: { primary: "fake/fake-model" },'
    assert agents in text, text  # the world's config as ocfakes.openclaw writes it
    text = text.replace(agents, f"{agents} workspace: {json.dumps(str(workspace))},")
    if tools:
        text = text.replace("  agents: {", f"  tools: {tools},\n  agents: {{", 1)
    config.write_text(text)


def stats_reply(gw: Gateway, after: int, key: str) -> str:
    gw.call("chat.send", {"sessionKey": KEY, "message": "/context-stats", "idempotencyKey": key})
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        rows = gw.call("chat.history", {"sessionKey": KEY, "limit": 1000})["messages"]
        found = [text_of(r.get("content"), "\n") for r in rows[after:] if r.get("role") == "assistant"
                 and "context-compactor" in text_of(r.get("content"), "\n")]
        if found:
            return found[-1]
        time.sleep(1)
    raise AssertionError("no /context-stats reply")


@pytest.fixture
def world(openclaw_world: Callable[[FakeUpstream], tuple[Gateway, Upstream]]) -> tuple[Gateway, Upstream]:
    return openclaw_world(LoopModel(Behaviour(context_window=WINDOW, chars_per_token=4.0, overflow_style="llama-server")))


@pytest.mark.timeout(900)
def test_every_model_call_of_a_tool_loop_fits_the_window(world: tuple[Gateway, Upstream]) -> None:
    """Long turns, then a loop that reads a large file six times: no request above 16,384 tokens, none refused."""
    gw, model = world
    # OpenClaw's smallest tool profile with its read tool: its system prompt and tools (about 12k tokens by
    # default, 9k so) leave a loop of six 700-token results room (the 8k test shows the case with none).
    configure(gw, model.server.port, WINDOW, tools='{ profile: "minimal", alsoAllow: ["read"] }')
    done = gw.cc("setup", "--yes")
    assert done.returncode == 0, done.stdout + done.stderr
    gw.start_gateway()
    for t in range(6):
        turn = gw.agent(f"Turn {t} KEEP-{t}: " + " ".join(f"w{t}x{i}" for i in range(700)))
        assert turn.returncode == 0, f"turn {t}: {turn.stdout[-500:]} {turn.stderr[-2000:]}"
    run = gw.agent(LOOP_ASK)
    calls = agent_calls(model)
    loop = [c for c in calls if LOOP_ASK in json.dumps(c[1]["messages"])]
    sizes = [tokens for tokens, _, _ in calls]
    print(f"\nrequests (tokens as the server counts them, window {WINDOW:,}): {sizes}")
    print(f"tool loop: {[tokens for tokens, _, _ in loop]}")
    print("(tokens, messages, compacted, status):",
          [(t, len(b["messages"]), BLOCK in json.dumps(b), st) for t, b, st in calls])
    assert run.returncode == 0, run.stdout[-500:] + run.stderr[-2000:] + "\n".join(
        line for line in gw.log().splitlines() if "context-compactor" in line or "context engine" in line)[-6000:]
    results = [m for m in loop[-1][1]["messages"] if m.get("role") == "tool"]
    assert len(loop) == READS + 1 and len(results) == READS, f"{len(loop)} loop calls, {len(results)} results"
    refused = [tokens for tokens, _, status in calls if status != 200]
    assert not refused, f"requests refused for overflow: {refused}; all: {sizes}"
    assert max(sizes) <= WINDOW, sizes
    assert BLOCK in json.dumps(loop[-1][1]), "the loop's history was not compacted"
    assert "LAST-LINE-OK" in json.dumps(loop[-1][1]["messages"][-1])

    stats = stats_reply(gw, 0, "stats-w")
    print(stats)
    fixed = re.search(r"system ([\d,]+), tool schemas ([\d,]+)", stats)
    assert fixed and int(fixed.group(1).replace(",", "")) > 500 and int(fixed.group(2).replace(",", "")) > 500, stats
    assert f"context window: {WINDOW:,}" in stats


@pytest.mark.timeout(600)
def test_an_8k_model_is_told_it_cannot_hold_openclaws_prompt(world: tuple[Gateway, Upstream]) -> None:
    """Declared at 8,192 tokens: setup and the first turn say OpenClaw's own prompt does not fit, with its size."""
    gw, model = world
    configure(gw, model.server.port, 8192)
    done = gw.cc("setup", "--yes")
    assert done.returncode == 0, done.stdout + done.stderr
    print(done.stdout)
    gw.start_gateway()
    gw.agent("hello there")
    print("requests (tokens, tools, status):", [(t, len(b.get("tools") or []), st) for t, b, st in agent_calls(model)])
    log = gw.log()
    told = [line for line in log.splitlines() if "OpenClaw's own prompt is about" in line]
    assert told, log[-3000:]
    print(told[0])
    assert "8,192-token context window" in told[0] and "tool profile" in told[0]
    doctor = gw.cc("doctor")
    print(doctor.stdout)
    assert "no problems found" not in doctor.stdout
    assert "OpenClaw's own prompt" in doctor.stdout
