"""End to end with a real OpenClaw gateway: earlier turns' thinking is not sent to the model again.

OpenClaw's openai-completions transport sends an earlier assistant turn's thinking back as
``reasoning_content`` when the model is configured with ``reasoning: true`` (its transcript policy
keeps thinking then: ``buildUnownedProviderTransportReplayFallback`` in ``dist/helpers-*.mjs``, and
``convertMessages`` in ``@openclaw/ai/dist/openai-completions-stream-*.mjs`` writes it under the
field it came in). The engine measures thinking and, by ``stripThinking``, leaves it out before the
last user turn; what it leaves out must not reach the model. The world is the one of
``test_openclaw_e2e.py`` with that one config change; the fake model (``ocfakes.thinking``) streams a
``reasoning_content`` thought ``THOUGHT-<n>`` with every agent answer. Slow (about a minute).
"""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from fakes.harness import Upstream
from fakes.upstream import Behaviour, FakeUpstream
from ocfakes.fake_model import agent_requests, respond
from ocfakes.openclaw import Gateway
from test_openclaw_e2e import KEY, last_reply
from ocfakes.thinking import ThinkingModel

pytestmark = pytest.mark.slow  # a real OpenClaw gateway
TURNS = 3


@pytest.fixture
def world(openclaw_world: Callable[[FakeUpstream], tuple[Gateway, Upstream]]) -> tuple[Gateway, Upstream]:
    return openclaw_world(ThinkingModel(Behaviour(respond=respond)))


@pytest.mark.timeout(600)
def test_earlier_thinking_is_not_sent_again(world: tuple[Gateway, Upstream]) -> None:
    """With ``reasoning: true`` OpenClaw would send every earlier thought as reasoning_content; none is sent,
    the answers are, and the session's transcript keeps its thoughts."""
    gw, model = world
    config = gw.write_config(model.server.port)
    config.write_text(config.read_text().replace("reasoning: false", "reasoning: true"))
    done = gw.cc("setup", "--yes", "--preset", "32k")
    assert done.returncode == 0, done.stdout + done.stderr
    gw.start_gateway()
    for t in range(TURNS):
        run = gw.agent(f"turn {t}: say hi")
        assert run.returncode == 0, run.stdout[-500:] + run.stderr[-2000:]
    asked = agent_requests(model)
    assert len(asked) == TURNS, f"{len(asked)} agent requests for {TURNS} turns"
    last = asked[-1]["messages"]
    answers = [m for m in last if m["role"] == "assistant"]
    assert [m.get("content") for m in answers] == ["reply #1: ok", "reply #2: ok"], answers
    sent = [json.dumps(body) for body in asked]
    again = [str(m["reasoning_content"])[:12] for m in answers if "reasoning_content" in m]
    assert not again and not [s for s in sent if "THOUGHT-" in s], f"earlier thinking reached the model: {again}"
    history = gw.call("chat.history", {"sessionKey": KEY, "limit": 100})["messages"]
    assert "THOUGHT-1" in json.dumps(history), "the transcript lost a thought"
    # The engine saw the thoughts and says it left them out.
    gw.call("chat.send", {"sessionKey": KEY, "message": "/context-stats", "idempotencyKey": "stats-1"})
    assert "earlier thinking left out" in last_reply(gw, "context-compactor stats", len(history))
