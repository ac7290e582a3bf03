"""Issue 13 through the OpenClaw bridge: what the agent-loop transforms change maps back onto OpenClaw's
own messages (a folded failed result, an assistant turn without its <think> block), and the recipe the
plugin gets is valid, under the trigger too."""

from __future__ import annotations

import json
from typing import Any

from ocfakes.bridge import Child

TRACE = "Traceback (most recent call last):\n" + "\n".join(f'  File "m{i}.py", line {i}' for i in range(40)) + \
    "\nImportError: cannot import name 'zap'\nexit code 1"


def openclaw_history(rounds: int = 12) -> list[dict[str, Any]]:
    """OpenClaw-format turns: a failed exec first, then many reads, and an answer with a <think> block."""
    out: list[dict[str, Any]] = [{"role": "user", "content": "build it", "timestamp": 0}]
    for k in range(rounds):
        out.append({"role": "assistant", "content": [{"type": "toolCall", "id": f"c{k}", "name": "exec" if k == 0 else "read",
                                                      "arguments": {"command": "make"} if k == 0 else {"path": f"f{k}"}}],
                    "timestamp": k})
        out.append({"role": "toolResult", "toolCallId": f"c{k}", "toolName": "exec" if k == 0 else "read",
                    "content": [{"type": "text", "text": TRACE if k == 0 else f"content {k}"}], "isError": k == 0,
                    "timestamp": k})
    out.append({"role": "assistant", "content": [{"type": "text", "text": "<think>long private plan</think>Done."}],
                "timestamp": rounds})
    return out


def test_folded_and_stripped_messages_map_back(child: Child) -> None:
    """Under the trigger, the failed exec comes back folded and the answer without its <think> block, as OpenClaw messages."""
    child.request("configure", {"config": {"contextWindow": 131072}})
    host = openclaw_history()
    reply = child.request("assemble", {"sessionKey": "agent:main:explicit:l1", "messages": host, "prompt": "next?",
                                       "tokenBudget": 90000, "model": "fake/fake-model", "reserveTokens": 4000})
    recipe = reply["result"]["messages"]
    assert isinstance(recipe, list) and len(recipe) == len(host), reply
    folded = recipe[2]
    assert isinstance(folded, dict) and folded["role"] == "toolResult" and folded["toolCallId"] == "c0"
    assert "failed call folded" in json.dumps(folded) and "cannot import name 'zap'" in json.dumps(folded)
    answer = recipe[-1]
    assert isinstance(answer, dict) and json.dumps(answer).count("Done.") == 1 and "<think>" not in json.dumps(answer)
    assert all(recipe[i] == i for i in range(len(host)) if i not in (2, len(host) - 1))
    assert "assemble failed" not in child.close()
