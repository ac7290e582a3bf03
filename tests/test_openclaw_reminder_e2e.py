"""End to end with a real OpenClaw gateway: the task reminder reaches the model in the system prompt.

OpenClaw adds the current user turn itself, so the reminder the engine appends to that turn (the open
items of the latest plan call, restated right after a compaction and every ``taskReminderEvery``
messages) comes back from assemble as ``systemPromptAddition``; OpenClaw puts that into the system
prompt of the request (``prependSystemPromptAddition`` in its embedded runner). This test proves it
with the real gateway: the scripted model first writes a plan with OpenClaw's own plan tool
(``progress_card``, which OpenClaw renamed from ``update_plan``; same ``{"plan": [{"step", "status"}]}``
shape), which OpenClaw 2026.9's Tool Search offers only through its ``tool_call`` dispatcher; then long turns push the session past our trigger (maxTokens 6000; OpenClaw's own compaction
kept out of the way by the model's 131072 window, as in ``test_openclaw_e2e.py``), and the requests
the model receives are read: the compacted one carries the reminder, with the open steps and not the
completed one, in its system message, and no request carries it in a user turn. Slow (about a minute).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from fakes import text_of
from fakes.chat import offers_tool, tool_call
from fakes.harness import Upstream
from fakes.upstream import Behaviour, FakeUpstream
from ocfakes.fake_model import agent_requests, classify, respond
from ocfakes.openclaw import BLOCK, Gateway

from context_compactor.loop import REMINDER_HEAD

pytestmark = pytest.mark.slow  # a real OpenClaw gateway: about a minute

PLAN_TOOL = "progress_card"  # OpenClaw's plan tool (was update_plan)
# OpenClaw's Tool Search offers the model tool_search / tool_describe / tool_call, and progress_card only through
# tool_call. A direct update_plan call gets "Tool update_plan not found", and the assistant message making it is
# not kept in the transcript, so later turns never see that plan.
DISPATCH = "tool_call"
ASK = "Plan the release: tag it, then write the notes, then announce it. Keep a plan."
OPEN = ("TAG-THE-RELEASE-R7", "WRITE-NOTES-N3")
DONE = "CHOOSE-VERSION-DONE"
PLAN = {"plan": [{"step": DONE, "status": "completed"}, {"step": OPEN[0], "status": "in_progress"},
                 {"step": OPEN[1], "status": "pending"}]}
TURNS = 10
WORDS = 500  # about 1,000 tokens a turn: compaction after five or six turns at maxTokens 6000
INTERNAL = "<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>"


class PlanningModel(FakeUpstream):
    """On the planning turn writes the plan with OpenClaw's plan tool once, then answers text; answers
    our summarizer and OpenClaw's like the shared fake model does."""

    def _reply(self, body: dict[str, Any], n: int) -> dict[str, Any]:
        if classify(body) != "agent":
            return {"role": "assistant", "content": respond(body, n)}
        messages = [m for m in body.get("messages") or [] if INTERNAL not in text_of(m.get("content"), "\n")]
        last_user = max((i for i, m in enumerate(messages) if m.get("role") == "user"), default=-1)
        planning = last_user >= 0 and ASK in text_of(messages[last_user].get("content"), "\n")
        called = any(m.get("role") == "assistant" and m.get("tool_calls") for m in messages[last_user + 1:])
        if planning and not called and offers_tool(body, DISPATCH):
            return tool_call(f"plan-{n}", DISPATCH, {"id": PLAN_TOOL, "args": PLAN})
        return {"role": "assistant", "content": f"reply #{n}: ok"}


@pytest.fixture
def world(openclaw_world: Callable[[FakeUpstream], tuple[Gateway, Upstream]]) -> tuple[Gateway, Upstream]:
    return openclaw_world(PlanningModel(Behaviour()))


def system_text(body: dict[str, Any]) -> str:
    return "\n".join(text_of(m.get("content"), "\n") for m in body["messages"] if m.get("role") in ("system", "developer"))


def other_text(body: dict[str, Any]) -> str:
    return json.dumps([m for m in body["messages"] if m.get("role") not in ("system", "developer")])


@pytest.mark.timeout(600)
def test_openclaw_sends_the_task_reminder_in_the_system_prompt(world: tuple[Gateway, Upstream]) -> None:
    """A plan written with progress_card, then turns past the trigger: the compacted request's system
    prompt restates the open steps (the completed one left out); no user turn carries the reminder."""
    gw, model = world
    gw.write_config(model.server.port)
    done = gw.cc("setup", "--yes", "--preset", "8k", "--set", "maxTokens=6000", "--set", "calibrate=false",
                 "--set", "keepRecentTokens=1000", "--set", "countHostPrompt=false")
    assert done.returncode == 0, done.stdout + done.stderr
    gw.start_gateway()

    run = gw.agent(ASK)
    assert run.returncode == 0, run.stdout[-500:] + run.stderr[-2000:]
    first = agent_requests(model)
    tools = sorted((t.get("function") or {}).get("name", "") for t in first[0].get("tools") or [])
    assert DISPATCH in tools, f"OpenClaw no longer offers {DISPATCH} (Tool Search): the model was offered {tools}"
    results = [text_of(m.get("content"), "\n") for m in first[-1]["messages"] if m.get("role") == "tool"]
    assert any("Progress card updated" in r for r in results), f"the plan was not written: {results}"

    for t in range(TURNS):
        text = f"Turn {t} KEEP-{t}: " + " ".join(f"w{t}x{i}" for i in range(WORDS))
        turn = gw.agent(text)
        assert turn.returncode == 0, f"turn {t}: {turn.stdout[-500:]} {turn.stderr[-2000:]}"

    agent = agent_requests(model)
    compacted = [i for i, body in enumerate(agent) if BLOCK in other_text(body)]
    assert compacted, f"no request was compacted in {len(agent)} agent requests: raise TURNS or WORDS"
    duplicated = [i for i, body in enumerate(agent) if REMINDER_HEAD in other_text(body)]
    assert not duplicated, f"requests {duplicated} carry the reminder outside the system prompt: " \
        f"{other_text(agent[duplicated[0]])[-1500:]}"
    reminded = [i for i, body in enumerate(agent) if REMINDER_HEAD in system_text(body)]
    assert compacted[0] in reminded, (
        f"the first compacted request (#{compacted[0]}) has no reminder in its system prompt; reminded: {reminded}; "
        f"system prompt starts {system_text(agent[compacted[0]])[:600]!r}; gateway log: {gw.log()[-2000:]}")
    system = system_text(agent[compacted[0]])
    reminder = system[system.index(REMINDER_HEAD):][:1000]
    assert all(step in reminder for step in OPEN), f"the open steps are not restated: {reminder!r}"
    assert DONE not in reminder, f"the completed step was restated: {reminder!r}"
    assert system.count(REMINDER_HEAD) == 1, f"the reminder is in the system prompt {system.count(REMINDER_HEAD)} times"
