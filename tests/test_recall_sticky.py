"""Automatic recall keeps the prompt's start byte-identical between turns (issue 28): a snippet stays in front
of the user message it was made for while that message is kept, so a local server re-reads only what is new."""

from __future__ import annotations

import copy
import json
from typing import Any

from convo import assistant, chat, tool, user


def _asked_after_a_fold() -> list[dict[str, Any]]:
    """A docker call whose answer is folded at 8k by 60 turns of chat, then the user's question about it."""
    call = assistant("", [("c1", "bash", {"command": "docker compose ps"})])
    fact = tool("c1", "payments mock container: accepts only the sandbox card numbers, declines every other card"
                      "\nexit code: 0")
    return [user("start"), call, fact, assistant("noted"), *chat(60)[1:],
            user("which card numbers does the payments mock container accept?")]


def test_the_next_turn_sends_the_last_turns_prompt_unchanged_then_the_new_messages(make_runtime: Any,
                                                                                 run_hook: Any) -> None:
    """Turn one's question gets a recalled snippet; turn two (the answer, an unrelated question; hosts send
    new objects every turn) starts with exactly the messages turn one sent, snippet included."""
    runtime = make_runtime()
    history = _asked_after_a_fold()
    first = run_hook(runtime, history, window=8192)
    assert "Recalled from the archive" in first.messages[-1]["content"]
    later = copy.deepcopy([*history, assistant("Only the sandbox card numbers."), user("thanks, what next?")])
    second = run_hook(runtime, later, window=8192)
    assert second.stats.compacted and second.stats.tokens_after <= second.stats.trigger
    sent = [json.dumps(m, sort_keys=True) for m in second.messages]
    assert sent[:len(first.messages)] == [json.dumps(m, sort_keys=True) for m in first.messages]
    assert second.messages[-1] == later[-1]



def test_a_snippet_stays_in_front_of_its_message_through_a_tool_loop(make_runtime: Any, run_hook: Any) -> None:
    """The agent answers the recalled question with a tool call: the call's turn (its last message a tool
    result, not the user's) still sends the snippet where it was, so the prompt only grows at its end."""
    runtime = make_runtime()
    history = _asked_after_a_fold()
    first = run_hook(runtime, history, window=8192)
    assert "Recalled from the archive" in first.messages[-1]["content"]
    looped = copy.deepcopy([*history, assistant("", [("c2", "bash", {"command": "cat mock.yml"})]),
                            tool("c2", "cards: sandbox")])
    second = run_hook(runtime, looped, window=8192)
    sent = [json.dumps(m, sort_keys=True) for m in second.messages]
    assert sent[:len(first.messages)] == [json.dumps(m, sort_keys=True) for m in first.messages]
    assert second.messages[-1] == looped[-1]
