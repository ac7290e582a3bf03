"""Small builders for OpenAI chat conversations used across the tests."""

from __future__ import annotations

import json
from typing import Any

Message = dict[str, Any]


def system(text: str) -> Message:
    return {"role": "system", "content": text}


def user(text: str) -> Message:
    return {"role": "user", "content": text}


def assistant(text: str = "", calls: list[tuple[str, str, dict[str, Any]]] | None = None) -> Message:
    message: Message = {"role": "assistant", "content": text}
    if calls:
        message["tool_calls"] = [
            {"id": cid, "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
            for cid, name, args in calls
        ]
    return message


def tool(call_id: str, text: str) -> Message:
    return {"role": "tool", "tool_call_id": call_id, "content": text}


def words(n: int, seed: int = 0) -> str:
    """About ``n`` words of deterministic filler (about 1.5 tokens each at 4 chars per token)."""
    vocab = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"]
    return " ".join(vocab[(i * 7 + seed) % len(vocab)] for i in range(n))


def chat(turns: int, size: int = 200, tools_every: int = 0, tool_size: int = 400) -> list[Message]:
    """A system prompt, then ``turns`` user/assistant exchanges; every ``tools_every``-th with a tool call."""
    out = [system("You are a helpful agent.")]
    for t in range(turns):
        out.append(user(f"turn {t}: {words(size, t)}"))
        if tools_every and t % tools_every == 0:
            cid = f"call_{t}"
            out.append(assistant("", [(cid, "bash", {"command": f"ls dir{t}"})]))
            out.append(tool(cid, f"output {t}\n" + words(tool_size, t)))
        out.append(assistant(f"answer {t}: {words(size, t + 1)}"))
    out.append(user("and now the current question?"))
    return out


def coding_session(turns: int = 12, details: int = 100, answers: int = 120) -> list[Message]:
    """A coding agent's system prompt, then ``turns`` plain requests ("request i: detail-i ..." with
    ``details`` repeats) each with its answer ("answer i: done-i ...", ``answers`` repeats)."""
    out = [system("You are a careful coding agent.")]
    for i in range(turns):
        out.append(user(f"request {i}: " + f"detail-{i} " * details))
        out.append(assistant(f"answer {i}: " + f"done-{i} " * answers))
    return out


def orphans(messages: list[Message]) -> list[int]:
    """Indexes of tool messages whose call is not made by an earlier assistant message in the list."""
    seen: set[str] = set()
    bad = []
    for i, m in enumerate(messages):
        if m.get("role") == "assistant":
            seen.update(c["id"] for c in m.get("tool_calls") or [])
        elif m.get("role") == "tool" and m.get("tool_call_id") not in seen:
            bad.append(i)
    return bad


def unanswered(messages: list[Message]) -> list[str]:
    """Call ids made in ``messages`` that no later tool message answers."""
    answered = {m.get("tool_call_id") for m in messages if m.get("role") == "tool"}
    return [c["id"] for m in messages if m.get("role") == "assistant" for c in m.get("tool_calls") or []
            if c["id"] not in answered]
