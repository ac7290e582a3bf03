"""End to end with a real OpenClaw gateway: the model calls the ``recall_history`` plugin tool, gets the
original text of a message our compaction folded away, and answers with it.

The world (isolated OpenClaw, setup, the gateway) is the one of ``test_openclaw_e2e.py``; the model
is a scripted fake on loopback. Turn 0 has the model state a fact (ORIGINAL); filler turns push the
session past maxTokens so it compacts (OpenClaw's own compaction kept away by a 131072 window);
then the user asks for the fact. Automatic recall quotes it in the ledger block; the model, seeing
``recall_history`` among its tools, still searches, reads the best hit by its id, and answers with
what it read. Slow (about 1-2 minutes).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from fakes import text_of
from fakes.chat import offers_tool, sectioned, tool_call
from fakes.harness import Upstream
from fakes.upstream import Behaviour, FakeUpstream
from ocfakes.fake_model import agent_requests, classify
from ocfakes.openclaw import BLOCK, Gateway

pytestmark = pytest.mark.slow  # a real OpenClaw gateway: about a minute a test

ORIGINAL = ("The deploy token for the staging cluster is TOKEN-93c1f, issued by the platform team; it rotates on "
            "the first Monday of each month.")
ASK_FACT = "Tell me the deploy settings."
QUESTION = "What was the deploy token for the staging cluster again?"
FILLER_TURNS = 8
WORDS = 500
MAX_TOKENS = 6000


def _offers_recall(body: dict[str, Any]) -> bool:
    return offers_tool(body, "recall_history")


def _call(call_id: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return tool_call(call_id, "recall_history", arguments)


class ScriptedModel(FakeUpstream):
    """States ORIGINAL when asked for the settings; asked for the token later, recalls it and answers."""

    def _reply(self, body: dict[str, Any], n: int) -> dict[str, Any]:
        kind = classify(body)
        if kind == "summary":
            return {"role": "assistant", "content": sectioned(f"FAKE-SUMMARY (request {n})")}
        internal = "<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>"  # OpenClaw's trailing context message is not the user
        messages = [m for m in body.get("messages") or [] if internal not in text_of(m.get("content"), "\n")]
        last = messages[-1] if messages else {}
        users = [text_of(m.get("content"), "\n") for m in messages if m.get("role") == "user"]
        if last.get("role") == "tool" and str(last.get("tool_call_id", "")).startswith("recall"):
            result = text_of(last.get("content"), "\n")
            if "recall-search" in str(last["tool_call_id"]):
                hit = re.search(r"^(#\d+) \(assistant", result, re.MULTILINE)
                return _call(f"recall-read-{n}", {"id": hit.group(1) if hit else "#0"})
            return {"role": "assistant", "content": "RECALLED: " + result.split("\n", 1)[-1]}
        if users and QUESTION in users[-1] and _offers_recall(body):
            return _call(f"recall-search-{n}", {"query": "deploy token staging cluster"})
        if users and ASK_FACT in users[-1]:
            return {"role": "assistant", "content": ORIGINAL}
        return {"role": "assistant", "content": f"reply #{n}: ok"}


@pytest.fixture
def world(openclaw_world: Callable[[FakeUpstream], tuple[Gateway, Upstream]]) -> tuple[Gateway, Upstream]:
    gw, model = openclaw_world(ScriptedModel(Behaviour()))
    gw.env["CONTEXT_COMPACTOR_DEBUG"] = "1"
    return gw, model


@pytest.mark.timeout(900)
def test_openclaw_model_recalls_a_compacted_message(world: tuple[Gateway, Upstream]) -> None:
    """After compaction the model gets recall_history, reads the folded message's original text, and answers with it."""
    gw, model = world
    gw.write_config(model.server.port)
    done = gw.cc("setup", "--yes", "--preset", "8k", "--set", f"maxTokens={MAX_TOKENS}", "--set", "calibrate=false",
                 "--set", "countHostPrompt=false")
    assert done.returncode == 0, done.stdout + done.stderr
    gw.start_gateway()

    def turn(text: str) -> str:
        run = gw.agent(text)
        assert run.returncode == 0, f"{text[:40]}: {run.stdout[-500:]} {run.stderr[-2000:]}"
        return run.stdout

    turn(ASK_FACT)
    for t in range(FILLER_TURNS):
        turn(f"Turn {t}: " + " ".join(f"w{t}x{i}" for i in range(WORDS)))
    before = agent_requests(model)
    assert not _offers_recall(before[0]), "recall_history was offered before the first compaction"
    assert any(BLOCK in json.dumps(b) for b in before), "the session never compacted"
    answer = turn(QUESTION)

    # this turn's requests: any other session's (OpenClaw may run one on its main session) never hold the question
    asked = [b for b in agent_requests(model)[len(before):]
             if any(QUESTION in text_of(m.get("content"), "\n") for m in b.get("messages") or [])]
    names = [[(t.get("function") or {}).get("name") for t in b.get("tools") or []] for b in asked]
    assert asked and _offers_recall(asked[0]), f"recall_history not offered after compaction: {names} {gw.log()[-3000:]}"
    sent = [text_of(m.get("content"), "\n") for m in asked[0]["messages"]]
    assert not any(ORIGINAL in t and "Recalled from the archive" not in t for t in sent), "the message was not folded away"
    # The question matches the folded message strongly: its fact is in the block, cited. The ledger quotes
    # the sentence that names the token (an identifier line, its words verbatim), so automatic recall adds
    # nothing then; without that line, automatic recall quotes the original.
    block = next(t for t in sent if BLOCK in t)
    quoted = "TOKEN-93c1f" in block.split("[end of ledger]")[0]
    assert quoted or any("Recalled from the archive" in t and ORIGINAL[:60] in t for t in sent), "the fact is not in the block"
    results = [text_of(m.get("content"), "\n") for b in asked for m in b["messages"] if m.get("role") == "tool"]
    tails = [json.dumps(b["messages"][-2:])[-600:] for b in asked]
    assert any(ORIGINAL in r for r in results), f"no tool result carried the original: {results} {tails} {answer[-1500:]}"
    assert "RECALLED: " in answer and ORIGINAL in answer, answer[-2000:]
