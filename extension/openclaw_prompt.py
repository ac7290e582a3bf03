"""OpenClaw's own part of every prompt, as the bridge sees it: its system prompt and tool schemas
(:class:`Fixed`, from the plugin's ``llm_input`` hook), the stand-in for a tool loop's pending messages,
the notice when that part leaves the history no room, and the record ``doctor`` reads.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from .logs import get_logger

logger = get_logger()

@dataclass(frozen=True)
class Fixed:
    """OpenClaw's part of every prompt: its system prompt and tool schemas (from its ``llm_input`` hook)."""

    system: str
    tools: list[dict[str, Any]]

    @classmethod
    def of(cls, params: dict[str, Any]) -> Fixed | None:
        system, tools = params.get("systemPrompt"), params.get("tools")
        if not isinstance(system, str) and not isinstance(tools, list):
            return None
        return cls(system if isinstance(system, str) else "",
                   [t for t in tools if isinstance(t, dict)] if isinstance(tools, list) else [])


PENDING_HEAD = "[pending messages of this turn, which OpenClaw adds itself]"
CHARS_PER_TOKEN_GUESS = 4  # only to tell a tool list that cannot be the one sent from one that may be


def pending_stand_in(chars: int, tokenizer: str) -> dict[str, Any]:
    """A message as large as the turn's pending messages (their characters, as OpenClaw estimated them).

    In a tool loop OpenClaw hands over the history before the current turn and appends the turn's
    user message, tool calls and results itself. They are part of the prompt the window must hold,
    and part of the current turn, which is never cut: this stand-in takes their room there. For a
    ratio counter its characters count; for a tokenizer, one token per four characters.
    """
    filler = "x" * chars if tokenizer == "chars" else " x" * (chars // 4)
    return {"role": "assistant", "content": f"{PENDING_HEAD}\n{filler}"}


def is_stand_in(message: Any) -> bool:
    return isinstance(message, dict) and str(message.get("content") or "").startswith(PENDING_HEAD)


def too_small_message(fixed: int, window: int, trigger: int, system: int, tools: int) -> str:
    """What a user is told when OpenClaw's own prompt (system prompt and tool schemas) leaves the history no room."""
    where = "is larger than" if fixed >= window else "leaves almost no room in"
    return (f"context-compactor: OpenClaw's own prompt is about {fixed:,} tokens (system prompt {system:,}, "
            f"tool schemas {tools:,}) and {where} the model's {window:,}-token context window (compaction "
            f"triggers at {trigger:,}): no compaction of the history can make this model work. Fixes: a smaller "
            "tool profile (tools.profile \"minimal\" or \"messaging\" in openclaw.json), a model with a larger "
            "window, or `context-compactor serve` in front of the model server")


PROMPT_RECORD = "openclaw-prompt.json"  # beside the default store: what doctor reads
_recorded: dict[str, tuple[int, int]] = {}


def record_fixed(system: int, tools: int, window: int, model: str) -> None:
    """Keep the largest measured size of OpenClaw's fixed part for ``doctor``, per model and window (OpenClaw
    also makes lighter calls of its own in a session, with fewer tools: the agent's prompt is the largest)."""
    fixed = system + tools
    last = _recorded.get(model)
    if last is not None and last[1] == window and fixed <= last[0] * 1.05:
        return
    _recorded[model] = (fixed, window)
    record = {"model": model, "systemTokens": system, "toolTokens": tools, "fixedTokens": fixed,
              "window": window, "at": time.strftime("%Y-%m-%d %H:%M:%S")}
    try:
        from .store import default_store_path

        path = default_store_path().parent / PROMPT_RECORD
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(record), encoding="utf-8")
        tmp.replace(path)
    except OSError as exc:
        logger.warning("bridge.record_failed", error=str(exc))
