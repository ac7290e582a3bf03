"""End to end with a real OpenClaw gateway: setup, a 30-turn session, the commands, uninstall.

OpenClaw comes from ``.ci/openclaw-env.sh`` (installed once into ~/.cache). Everything
runs isolated under tmp_path (HOME, OPENCLAW_STATE_DIR, OPENCLAW_CONFIG_PATH, TMPDIR) against a
fake model server on loopback that records every request. OpenClaw's own compaction is kept out of
the way by the model's large context window (131072: a ~96k prompt budget that 30 turns of ~1.5k
tokens never reach), while ours triggers at maxTokens=6000; the test checks that OpenClaw never
asked for a summary of its own. Slow (about 2-3 minutes): the gateway takes ~15 s to start and
each turn ~2-3 s.
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fakes import text_of
from fakes.harness import Upstream
from fakes.upstream import Behaviour, FakeUpstream
from ocfakes.fake_model import model_requests, respond
from ocfakes.openclaw import BLOCK, Gateway, stop

pytestmark = pytest.mark.slow  # a real OpenClaw gateway: a 30-turn session, minutes

TURNS = 30
WORDS = 500  # about 1,000 tokens a turn: compaction every few turns at maxTokens 6000
MAX_TOKENS = 6000
KEY = "agent:main:explicit:e2e"


@pytest.fixture
def world(openclaw_world: Callable[[FakeUpstream], tuple[Gateway, Upstream]]) -> tuple[Gateway, Upstream]:
    """The isolated OpenClaw world and the fake model (in this process), which records every request."""
    return openclaw_world(FakeUpstream(Behaviour(respond=respond)))


def prompt_tokens(body: dict[str, Any]) -> int:
    """Tokens (chars / 4) of what the engine decides on in a model request: every message but the
    system prompt and OpenClaw's trailing internal-context message (history and current turn)."""
    texts = [text_of(m.get("content"), "\n") for m in body["messages"] if m["role"] not in ("system", "developer")]
    return sum(len(t) for t in texts if "<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>" not in t) // 4


def last_reply(gw: Gateway, marker: str, after: int) -> str:
    """The text of the newest assistant row after ``after`` rows in chat.history containing ``marker``."""
    deadline = time.monotonic() + 60
    rows: list[Any] = []
    while time.monotonic() < deadline:
        rows = gw.call("chat.history", {"sessionKey": KEY, "limit": 1000})["messages"]
        found = [text_of(r.get("content"), "\n") for r in rows[after:] if r.get("role") == "assistant"
                 and marker in text_of(r.get("content"), "\n")]
        if found:
            return found[-1]
        time.sleep(1)
    raise AssertionError(f"no reply with {marker!r}: last rows {json.dumps(rows[-3:])[:2000]}")


@pytest.mark.timeout(1200)
def test_openclaw_gateway_end_to_end(world: tuple[Gateway, Upstream]) -> None:
    """setup, 30 real turns, commands through chat.send, uninstall: the prompt stays bounded, history stays whole."""
    gw, model = world
    model_port = model.server.port
    config = gw.write_config(model_port)
    # The whole prompt counts (OpenClaw's own ~1.3k tokens of system prompt, learned from the usage the
    # model reports), so a 1,000-token tail leaves the ledger, and the session model's narrative, room.
    done = gw.cc("setup", "--yes", "--preset", "8k", "--set", f"maxTokens={MAX_TOKENS}", "--set", "calibrate=false",
                 "--set", "keepRecentTokens=1000", "--set", "countHostPrompt=false")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "validated: yes" in done.stdout and "openclaw gateway restart" in done.stdout
    gw.start_gateway()

    sent_total = 0
    for t in range(TURNS):
        text = f"Turn {t} KEEP-{t}: " + " ".join(f"w{t}x{i}" for i in range(WORDS))
        sent_total += len(text) // 4
        turn = gw.agent(text)
        assert turn.returncode == 0, f"turn {t}: {turn.stdout[-500:]} {turn.stderr[-2000:]}"

    requests = model_requests(model)
    agent = [r["body"] for r in requests if r["kind"] == "agent" and "KEEP-" in json.dumps(r["body"]["messages"][-2:])]
    assert len(agent) >= TURNS, f"{len(agent)} agent requests for {TURNS} turns"
    sizes = [prompt_tokens(body) for body in agent]
    bound = int(MAX_TOKENS * 1.15)  # OpenClaw adds a timestamp to each user message and a runtime line
    assert sizes[0] < sizes[1] < sizes[2], f"the first turns should be sent whole: {sizes}"
    assert sent_total > 4 * bound, "the session is not long enough to need compaction"
    assert max(sizes) <= bound, f"a request carried more than the budget: {sizes}"
    compacted = [i for i, body in enumerate(agent) if BLOCK in json.dumps(body)]
    assert compacted and compacted == list(range(compacted[0], len(agent))), f"compacted requests: {compacted}"
    assert BLOCK in json.dumps(agent[-1]), "the last request does not carry the compacted block"
    assert any(r["kind"] == "summary" for r in requests), "no summary was asked of the session model"
    assert "FAKE-SUMMARY" in json.dumps(agent[-1]), "the session model's summary is not in the prompt"
    assert not any(r["kind"] == "openclaw-summary" for r in requests), "OpenClaw compacted on its own"

    history = gw.call("chat.history", {"sessionKey": KEY, "limit": 1000})
    users = [text_of(r.get("content"), "\n") for r in history["messages"] if r.get("role") == "user"]
    assert all(any(f"KEEP-{t}:" in u for u in users) for t in range(TURNS)), "chat.history lost messages"
    rows = len(history["messages"])

    gw.call("chat.send", {"sessionKey": KEY, "message": "/context-stats", "idempotencyKey": "stats-1"})
    stats = last_reply(gw, "context-compactor stats", rows)
    assert "last compaction:" in stats and "trigger: 6,000 tokens" in stats
    gw.call("chat.send", {"sessionKey": KEY, "message": "/compact-now keep the KEEP ids", "idempotencyKey": "cn-1"})
    assert "compacted" in last_reply(gw, "context-compactor:", rows)
    seen = len(model_requests(model))
    for t in range(2):  # OpenClaw merges the command rows into the first of these, seen in the second's history
        assert gw.agent(f"after the commands {t}").returncode == 0
    later = [json.dumps(r["body"]) for r in model_requests(model)[seen:] if r["kind"] == "agent"]
    assert "after the commands 0" in later[-1], "the user's own text merged with the commands was lost"
    assert not [b for b in later if "/context-stats" in b or "/compact-now" in b], "a command reached the model"

    for proc in gw.procs:
        stop(proc)  # the gateway; uninstall is what a user runs after stopping it
    done = gw.cc("uninstall", "--yes")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "context-compactor" not in config.read_text()
    assert gw.run("openclaw", "config", "validate").returncode == 0
    leftovers = [p for p in (gw.state / "extensions" / "context-compactor", gw.state / "context-compactor",
                             Path(str(config) + ".context-compactor.bak")) if p.exists()]
    assert not leftovers, f"uninstall left {leftovers}"
    assert shutil.which("openclaw", path=gw.env["PATH"])
