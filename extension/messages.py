"""The message model: a read-only view of a host's chat message, and the OpenAI chat adapter.

Hooks receive messages in the OpenAI chat format (``role``, ``content`` as a string or a list of
parts, ``tool_calls`` on assistant messages, ``tool_call_id`` on ``tool`` messages). The engine reads
them through :class:`View`, which normalises the few shapes that matter for measuring and
summarising. A message the engine keeps is handed back as the very same object; a message it
changes (a cut or stubbed tool result, the summary) is a new dict built here.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from .errors import InputError

ROLES = ("system", "developer", "user", "assistant", "tool", "function")
# A picture or other non-text part costs tokens too; models differ, so a flat, visible estimate.
NON_TEXT_PART_CHARS = 3000
# Part types that carry text, and the field that holds it.
TEXT_PARTS = {"text": "text", "input_text": "text", "output_text": "text", "refusal": "refusal"}


@dataclass(frozen=True, slots=True)
class ToolCall:
    id: str
    name: str
    arguments: str


@dataclass(frozen=True, slots=True)
class View:
    """What the engine needs to know of one message."""

    role: str  # system | user | assistant | tool (developer reads as system, function as tool)
    text: str
    calls: tuple[ToolCall, ...] = ()
    call_id: str | None = None
    tool_name: str | None = None
    is_error: bool = False
    extra_chars: int = 0  # non-text parts

    @property
    def chars(self) -> int:
        return len(self.text) + self.extra_chars + sum(len(c.name) + len(c.arguments) for c in self.calls)


def _text_of(content: Any) -> tuple[str, int]:
    if content is None:
        return "", 0
    if isinstance(content, str):
        return content, 0
    texts: list[str] = []
    extra = 0
    for part in content:
        kind = part.get("type") if isinstance(part, dict) else None
        if isinstance(kind, str) and kind in TEXT_PARTS:  # a str check first: hosts' messages are unchecked
            texts.append(str(part.get(TEXT_PARTS[kind], "")))
        elif isinstance(part, str):
            texts.append(part)
        else:
            extra += NON_TEXT_PART_CHARS
    return "\n".join(texts), extra


def view_of(message: dict[str, Any]) -> View:
    """Read an OpenAI chat message (already validated) into a View."""
    role = message.get("role", "user")
    text, extra = _text_of(message.get("content"))
    if role == "developer":
        role = "system"
    if role in ("tool", "function"):
        return View(
            role="tool",
            text=text,
            call_id=message.get("tool_call_id"),
            tool_name=message.get("name"),
            is_error=bool(message.get("is_error")),
            extra_chars=extra,
        )
    calls: tuple[ToolCall, ...] = ()
    if role == "assistant" and message.get("tool_calls"):
        calls = tuple(
            ToolCall(
                id=str(call.get("id", "")),
                name=str((call.get("function") or {}).get("name", "")),
                arguments=_arguments((call.get("function") or {}).get("arguments")),
            )
            for call in message["tool_calls"]
        )
    elif role == "assistant" and isinstance(message.get("function_call"), dict):
        # The legacy single-call form; its answer is a "function" message, matched by name.
        legacy = message["function_call"]
        calls = (ToolCall(id="", name=str(legacy.get("name", "")), arguments=_arguments(legacy.get("arguments"))),)
    return View(role=role, text=text, calls=calls, extra_chars=extra)


def _arguments(arguments: Any) -> str:
    if arguments is None:
        return ""
    return arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)


def digest(message: Any) -> str:
    """A stable content hash of a message (key order and JSON spacing do not matter)."""
    raw = json.dumps(message, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()[:32]


def with_text(message: dict[str, Any], text: str) -> dict[str, Any]:
    """A copy of ``message`` whose content is ``text`` (every other field kept)."""
    changed = dict(message)
    changed["content"] = text
    return changed


def prepend_text(message: dict[str, Any], text: str) -> dict[str, Any]:
    """A copy of a user message with ``text`` in front of its content."""
    content = message.get("content")
    changed = dict(message)
    if isinstance(content, list):
        changed["content"] = [{"type": "text", "text": text}, *content]
    else:
        changed["content"] = f"{text}\n\n{content or ''}"
    return changed


def user_message(text: str) -> dict[str, Any]:
    return {"role": "user", "content": text}


# --- validation of untrusted input (CLI, gateway) -------------------------------------------------


def _check_content(content: Any, where: str, role: str) -> None:
    if content is None:
        if role in ("user", "tool", "function"):
            raise InputError(f"{role} message has no content", where=where)
        return
    if isinstance(content, str):
        return
    if not isinstance(content, list):
        raise InputError(
            f"content must be a string or a list of parts, not {type(content).__name__}", where=where
        )
    for j, part in enumerate(content):
        if isinstance(part, str):
            continue
        if not isinstance(part, dict):
            raise InputError(f"a content part must be an object, not {type(part).__name__}", where=f"{where}[{j}]")
        kind = part.get("type")
        if not isinstance(kind, str):
            raise InputError("a content part needs a string 'type' (such as \"text\" or \"image_url\")",
                             where=f"{where}[{j}]")
        if kind in TEXT_PARTS and not isinstance(part.get(TEXT_PARTS[kind]), str):
            raise InputError(f"a {kind} part needs a string {TEXT_PARTS[kind]!r}", where=f"{where}[{j}]")


def _check_tool_calls(calls: Any, where: str) -> list[str]:
    if not isinstance(calls, list):
        raise InputError(f"tool_calls must be a list, not {type(calls).__name__}", where=where)
    ids = []
    for j, call in enumerate(calls):
        spot = f"{where}[{j}]"
        if not isinstance(call, dict) or not isinstance(call.get("function"), dict):
            raise InputError("a tool call needs a 'function' object with 'name' and 'arguments'", where=spot)
        if not isinstance(call["function"].get("name"), str):
            raise InputError("a tool call's function needs a string 'name'", where=f"{spot}.function")
        if not isinstance(call["function"].get("arguments", ""), (str, dict)):
            raise InputError("a tool call's 'arguments' must be a JSON string or an object",
                             where=f"{spot}.function.arguments")
        if not isinstance(call.get("id"), str) or not call["id"]:
            raise InputError("a tool call needs a non-empty string 'id'", where=spot)
        ids.append(call["id"])
    return ids


def validate_messages(data: Any, where: str = "messages") -> list[dict[str, Any]]:
    """Check that ``data`` is a non-empty list of OpenAI chat messages; raise InputError naming the spot.

    Checks: each item is an object with a known role; content is a string, a list of parts or
    absent where allowed; tool calls are well formed; every tool message answers a call made
    earlier in the conversation.
    """
    if not isinstance(data, list):
        raise InputError(f"expected a list of messages, got {type(data).__name__}", where=where)
    if not data:
        raise InputError("the list of messages is empty; there is nothing to compact", where=where)
    open_calls: set[str] = set()
    for i, message in enumerate(data):
        spot = f"{where}[{i}]"
        if not isinstance(message, dict):
            raise InputError(f"a message must be an object, not {type(message).__name__}", where=spot)
        role = message.get("role")
        if role is None:
            raise InputError("message has no 'role'", where=spot)
        if role not in ROLES:
            raise InputError(f"unknown role {role!r} (expected one of {', '.join(ROLES)})", where=f"{spot}.role")
        _check_content(message.get("content"), f"{spot}.content", role)
        if role == "assistant" and message.get("tool_calls") is not None:
            open_calls.update(_check_tool_calls(message["tool_calls"], f"{spot}.tool_calls"))
        if role == "tool":
            call_id = message.get("tool_call_id")
            if not isinstance(call_id, str):
                raise InputError("tool message has no string 'tool_call_id'", where=spot)
            if call_id not in open_calls:
                raise InputError(f"tool message answers call {call_id!r}, which no earlier assistant message made", where=spot)
    return data
