"""End to end with a real OpenClaw gateway (issue 13): a tool call that failed twice exactly as written is
blocked the third time by the plugin's before_tool_call hook, the model told why and the last error.

The world is the one of ``test_openclaw_e2e.py``; the model is a scripted fake on loopback that keeps
asking OpenClaw's ``read`` tool for a file that does not exist until a tool result says it was refused.
The same run shows how OpenClaw calls the engine inside that tool loop (item 5): the bridge's
assemble calls per model request are counted from the requests the model received. Slow (about a minute).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fakes import text_of
from fakes.chat import tool_call
from fakes.harness import Upstream
from fakes.upstream import Behaviour, FakeUpstream
from ocfakes.fake_model import agent_requests, classify
from ocfakes.openclaw import Gateway

ASK = "Please read the file missing/nowhere.txt and tell me what it says."
MISSING = {"path": "missing/nowhere.txt"}
INTERNAL = "<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>"
pytestmark = pytest.mark.slow  # a real OpenClaw gateway: about a minute a test


class StubbornModel(FakeUpstream):
    """Reads the missing file again and again (at most six times); gives up when a result says it was refused."""

    def _reply(self, body: dict[str, Any], n: int) -> dict[str, Any]:
        if classify(body) != "agent":
            return {"role": "assistant", "content": f"reply #{n}: ok"}
        messages = [m for m in body.get("messages") or [] if INTERNAL not in text_of(m.get("content"), "\n")]
        last = messages[-1] if messages else {}
        results = [text_of(m.get("content"), "\n") for m in messages if m.get("role") == "tool"]
        if last.get("role") == "tool" and "context-compactor refused" in results[-1]:
            return {"role": "assistant", "content": "GAVE UP: " + results[-1][:400]}
        users = [text_of(m.get("content"), "\n") for m in messages if m.get("role") == "user"]
        if users and ASK in users[-1] and len(results) < 6:
            return tool_call(f"read-{n}", "read", MISSING)
        return {"role": "assistant", "content": f"reply #{n}: ok"}


@pytest.fixture
def world(openclaw_world: Callable[[FakeUpstream], tuple[Gateway, Upstream]]) -> tuple[Gateway, Upstream]:
    return openclaw_world(StubbornModel(Behaviour()))


@pytest.mark.timeout(600)
def test_openclaw_blocks_a_call_that_failed_twice(world: tuple[Gateway, Upstream]) -> None:
    """Two failed reads of the same path run; the third is blocked with our reason, and the model moves on."""
    gw, model = world
    gw.write_config(model.server.port)
    done = gw.cc("setup", "--yes", "--preset", "32k")
    assert done.returncode == 0, done.stdout + done.stderr
    gw.start_gateway()
    run = gw.agent(ASK)
    assert run.returncode == 0, run.stdout[-500:] + run.stderr[-2000:]
    asked = agent_requests(model)
    last = asked[-1]["messages"]
    results = [text_of(m.get("content"), "\n") for m in last if m.get("role") == "tool"]
    refused = [r for r in results if "context-compactor refused" in r]
    assert refused, f"no call was refused: {results} {gw.log()[-3000:]}"
    assert len(results) == 3 and results.index(refused[0]) == 2, results
    assert "failed 2 times" in refused[0]
    assert "GAVE UP" in run.stdout, run.stdout[-1000:]


@pytest.mark.timeout(600)
def test_refusal_off_lets_the_third_call_run(world: tuple[Gateway, Upstream]) -> None:
    """refuseRepeatedFailures false: the model reads the missing file six times, nothing is blocked."""
    gw, model = world
    gw.write_config(model.server.port)
    done = gw.cc("setup", "--yes", "--preset", "32k", "--set", "refuseRepeatedFailures=false")
    assert done.returncode == 0, done.stdout + done.stderr
    gw.start_gateway()
    run = gw.agent(ASK)
    assert run.returncode == 0, run.stdout[-500:] + run.stderr[-2000:]
    results = [text_of(m.get("content"), "\n") for m in agent_requests(model)[-1]["messages"] if m.get("role") == "tool"]
    assert len(results) == 6 and not any("refused" in r for r in results), results
