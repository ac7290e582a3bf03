"""Earlier thinking left out of a prompt (the agent-loop behaviour ``stripThinking``; see :mod:`.loop`).

Reasoning fields (``reasoning_content``, ``reasoning``, ``reasoning_details``, ``thinking``), thinking
content parts and ``<think>...</think>`` blocks come off assistant messages; inside the current tool
loop only unsigned parts and ``<think>`` blocks go (providers that sign thinking want it back there).
"""

from __future__ import annotations

import json
import re
from typing import Any

from .messages import REASONING_FIELDS, TEXT_PARTS
from .summarizer.output import blocks_removed

THINKING_PARTS = frozenset({"thinking", "redacted_thinking", "reasoning"})

_THINK = re.compile(r"<(think|thinking)>.*?</\1>\s*", re.DOTALL)
_THINK_OPENING = re.compile(r"<(think|thinking)>")
_THINK_OPEN_END = re.compile(r"^.*?</(?:think|thinking)>\s*", re.DOTALL)  # a template that drops the opening tag


def strip_think_text(text: str) -> str:
    """``text`` without its ``<think>`` blocks (and without the head of one whose opening tag the
    template dropped)."""
    if "</think" not in text:
        return text
    text = _think_blocks_removed(text)
    if "</think" in text:
        text = _THINK_OPEN_END.sub("", text, count=1)
    return text


def _think_blocks_removed(text: str) -> str:
    """``_THINK.sub("", text)`` in linear time (40k characters of "<thinking>" with only "</think>" closers
    had taken about a second, 200k about 15 s: each unclosed tag was read to the end)."""
    return blocks_removed(text, _THINK_OPENING, _THINK)


def strip_thinking(message: Any, current_loop: bool) -> tuple[Any, int] | None:
    """``message`` without its thinking, and the characters that saved; None when there is none.

    ``current_loop``: the message is in the current tool loop, where signed thinking blocks and
    reasoning fields stay.
    """
    if not isinstance(message, dict) or message.get("role") != "assistant":
        return None
    changed: dict[str, Any] | None = None
    saved = 0
    if not current_loop:
        for name in REASONING_FIELDS:
            if name in message:
                if changed is None:
                    changed = dict(message)
                value = changed.pop(name)
                saved += len(value) if isinstance(value, str) else len(json.dumps(value, default=str))
    content = message.get("content")
    if isinstance(content, str):
        if "</think" in content:
            text = strip_think_text(content)
            if text != content:
                changed = changed if changed is not None else dict(message)
                changed["content"], saved = text, saved + len(content) - len(text)
    elif isinstance(content, list):
        parts, cut = _strip_parts(content, current_loop)
        if cut:
            changed = changed if changed is not None else dict(message)
            changed["content"], saved = parts, saved + cut
    return (changed, saved) if changed is not None else None


def _strip_parts(content: list[Any], current_loop: bool) -> tuple[list[Any], int]:
    parts: list[Any] = []
    cut = 0
    for part in content:
        kind = part.get("type") if isinstance(part, dict) else None
        if kind in THINKING_PARTS:
            signed = kind == "redacted_thinking" or bool(part.get("signature"))
            if current_loop and signed:
                parts.append(part)
            else:
                cut += len(str(part.get("thinking") or part.get("text") or part.get("data") or ""))
            continue
        if kind in TEXT_PARTS and isinstance(part.get("text"), str) and "</think" in part["text"]:
            text = strip_think_text(part["text"])
            cut += len(part["text"]) - len(text)
            part = {**part, "text": text}
        parts.append(part)
    return parts, cut
