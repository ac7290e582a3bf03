"""The open tasks: the latest todo-style call, and the reminder that restates its open items.

:func:`latest_todo` finds the latest ``todo_write`` / ``TodoWrite`` ``{"todos": [{"content", "status"}]}``,
``update_plan`` or OpenClaw's ``progress_card`` ``{"plan": [{"step", "status"}]}`` call (also through
OpenClaw's Tool Search dispatcher ``tool_call {"id": "progress_card", "args": {...}}``);
:func:`reminder_text` restates its open items (and the optional save-state request), and
:func:`append_reminder` puts that after the last message, memoised so a repeat of the turn sends the
same object (see :meth:`.loop.Loop.reminder_due` for when).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .messages import ToolCall, view_of
from .summarizer.extract import clip

TODO_TOOLS = frozenset({"todo_write", "todowrite", "update_plan", "updateplan", "progress_card"})
# Generic dispatchers naming the tool they run: OpenClaw's Tool Search (2026.9) offers progress_card (its
# update_plan, renamed) only as tool_call {"id": "progress_card" or "openclaw:core:progress_card", "args": {...}}.
DISPATCH_TOOLS = frozenset({"tool_call"})
DONE = frozenset({"completed", "complete", "done", "cancelled", "canceled"})
REMINDER_HEAD = "[context-compactor reminder, not a new request]"
SAVE_STATE_TEXT = ("Older turns of this conversation will soon be summarized to make room. Before that, write down "
                   "what you must not lose (decisions, file paths, open tasks, identifiers) with your tools, "
                   "then carry on with the task.")


@dataclass(frozen=True)
class Todo:
    """The latest todo-style call: where it is, and its open items as ``(status, text)``."""

    index: int
    tool: str
    open: tuple[tuple[str, str], ...]


def todo_of(call: ToolCall, index: int) -> Todo | None:
    """The open items of a todo-style call; None when the call is not one (or its arguments are not JSON)."""
    name = call.name
    if name.lower() not in TODO_TOOLS and name.lower() not in DISPATCH_TOOLS:
        return None
    try:
        args = json.loads(call.arguments or "{}")
    except ValueError:
        return None
    if isinstance(args, dict) and name.lower() in DISPATCH_TOOLS:
        target = args.get("id") or args.get("name")
        name, args = (target.rsplit(":", 1)[-1] if isinstance(target, str) else ""), args.get("args")
        if name.lower() not in TODO_TOOLS:
            return None
    if not isinstance(args, dict):
        return None
    # progress_card replaces the whole card: a call without a plan clears it
    items = args.get("todos") if isinstance(args.get("todos"), list) else \
        args.get("plan", [] if name.lower() == "progress_card" else None)
    if not isinstance(items, list):
        return None
    found: list[tuple[str, str]] = []
    for item in items:
        if not isinstance(item, dict):
            continue
        text = item.get("content") or item.get("step") or item.get("title") or item.get("task")
        status = str(item.get("status") or "pending").strip().lower()
        if isinstance(text, str) and text.strip() and status not in DONE:
            found.append((status, clip(text, 300)))
    return Todo(index, name, tuple(found))


def latest_todo(messages: Sequence[Any], start: int = 0) -> Todo | None:
    """The latest todo-style call in ``messages[start:]`` (scanning from the end)."""
    for i in range(len(messages) - 1, start - 1, -1):
        message = messages[i]
        if isinstance(message, dict) and message.get("role") == "assistant" and message.get("tool_calls"):
            for call in reversed(view_of(message).calls):
                todo = todo_of(call, i)
                if todo is not None:
                    return todo
    return None


def reminder_text(todo: Todo | None, save_state: bool = False) -> str | None:
    """The reminder block: the open tasks (completed ones left out), and the save-state request."""
    lines: list[str] = []
    if todo is not None and todo.open:
        lines.append(f"Open tasks from your latest {todo.tool} call (keep working on them; this restates them, "
                     "it is not a new request):")
        lines += [f"- [{status}] {text}" for status, text in todo.open]
    if save_state:
        lines.append(SAVE_STATE_TEXT)
    return f"{REMINDER_HEAD}\n" + "\n".join(lines) if lines else None


def with_reminder(message: dict[str, Any], text: str) -> dict[str, Any]:
    """A copy of ``message`` with the reminder after its content."""
    changed = dict(message)
    content = message.get("content")
    if isinstance(content, list):
        changed["content"] = [*content, {"type": "text", "text": text}]
    else:
        changed["content"] = f"{content or ''}\n\n{text}" if content else text
    return changed


def append_reminder(messages: list[Any], text: str, memo: dict[int, tuple[Any, str, Any]]) -> list[Any]:
    """``messages`` with ``text`` after the content of the last user or tool message (within the last
    two messages); the changed message is memoised, so a repeat of the turn sends the same object."""
    n = len(messages)
    for i in range(n - 1, max(-1, n - 3), -1):
        message = messages[i]
        if isinstance(message, dict) and message.get("role") in ("user", "tool"):
            seen = memo.get(id(message))
            if seen is not None and seen[0] is message and seen[1] == text:
                changed = seen[2]
            else:
                changed = with_reminder(message, text)
            memo.clear()
            memo[id(message)] = (message, text, changed)
            return [*messages[:i], changed, *messages[i + 1:]]
    return messages
