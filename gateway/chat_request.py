"""Reading a chat completions request: the parsed body, or why it goes upstream untouched.

The gateway compacts only what it understands: a body that is not JSON, has no messages list, or whose
messages are not a conversation is passed through as the client wrote it. A tool message that answers
no earlier call is compacted as user text carrying the result (:func:`adopt_orphans`), with a warning.
"""

from __future__ import annotations

import json
from typing import Any

from context_compactor.errors import InputError
from context_compactor.messages import repaired, validate_messages

from .asgi import loads_bounded


def chat_body(raw: bytes, max_depth: int = 128) -> tuple[dict[str, Any], list[str]] | str:
    """The parsed chat request and what was wrong but handled, or why it is passed through untouched (we
    compact only what we understand).

    A tool message that answers no earlier call (its ``tool_call_id`` differs, if only in letter case)
    is compacted as the engine treats an orphan: as user text carrying the result (see
    :func:`adopt_orphans`), with a warning; the client's bytes still go out as written when nothing
    has to change. :class:`TooDeep` when its JSON nests deeper than ``max_depth``.
    """
    try:
        body = repaired(loads_bounded(raw, max_depth), raw)  # a lone surrogate becomes U+FFFD, as in every host
    except ValueError:
        return "the body is not JSON"
    if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
        return "the body has no messages list"
    try:
        validate_messages(body["messages"])
        return body, []
    except InputError as exc:
        first = exc
    messages, warnings = adopt_orphans(body["messages"])
    if not warnings:
        return f"the messages are not a conversation we can compact: {first}"
    try:
        validate_messages(messages)
    except InputError as exc:
        return f"the messages are not a conversation we can compact: {exc}"
    return {**body, "messages": messages}, warnings


def adopt_orphans(messages: list[Any]) -> tuple[list[Any], list[str]]:
    """``messages`` with each tool message that answers no earlier call made plain user text (as the
    OpenClaw adapter does with results whose call is gone), and a line on each."""
    out: list[Any] = []
    warnings: list[str] = []
    calls: set[str] = set()
    for i, message in enumerate(messages):
        if isinstance(message, dict) and message.get("role") == "assistant" and isinstance(message.get("tool_calls"), list):
            calls.update(c["id"] for c in message["tool_calls"] if isinstance(c, dict) and isinstance(c.get("id"), str))
        call_id = message.get("tool_call_id") if isinstance(message, dict) and message.get("role") == "tool" else None
        if isinstance(call_id, str) and call_id not in calls:
            near = next((c for c in calls if c.lower() == call_id.lower()), None)
            hint = f" (call {near!r} differs only in letter case)" if near else ""
            warnings.append(f"messages[{i}] answers call {call_id!r}, which no earlier assistant message made{hint}; "
                            "compacted as user text")
            content = message.get("content")
            text = content if isinstance(content, str) else "" if content is None else json.dumps(content, ensure_ascii=False)
            message = {"role": "user", "content": f"[result of an earlier tool call]\n{text}"}
        out.append(message)
    return out, warnings
