"""A Claude Code-shaped and a Codex-shaped session through serve at a 32k window, against a model server that
refuses every prompt over it (bench/agent_window.py, shorter): no refusal, every prompt within the window,
and count_tokens / input_tokens within 2% of the prompt then sent.

Run with the built-in ledger, and with the session model writing summaries: those land between turns at a time
the machine's load decides (between a count and its request too), so the prompts differ from run to run, and
the properties must hold whenever they land."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from agent_window import run

WINDOW = 32768
TURNS = 30  # 60 requests, the window filled and compacted again and again (the bench runs 60 turns)


@pytest.mark.slow
@pytest.mark.parametrize("model_summaries", [False, True])
@pytest.mark.parametrize("api", ["messages", "responses"])
def test_an_agent_shaped_session_is_never_refused_at_a_32k_window(api: str, model_summaries: bool) -> None:
    """Thirty agent turns (a tool round each) through serve: 0 refusals, every prompt under the window, the
    gateway compacting, and each count the gateway answered within 2% of the prompt the server then got."""
    figures = run(api, TURNS, WINDOW, settings={"summarizeWithSessionModel": model_summaries})
    assert figures.requests == 2 * TURNS and figures.refusals == 0
    assert figures.largest < WINDOW and figures.compacted >= TURNS
    assert max(figures.count_errors) <= 0.02
