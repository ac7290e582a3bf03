"""Chat commands (``/context-stats``, ``/compact-now [note]``) answered by the gateway itself.

When the newest message is a user message that names a registered command, the gateway runs the
command's handler and answers in the OpenAI format (streamed when the client asked for a stream),
without calling the upstream. Such an exchange kept in the client's history (the command and our
answer after it) is the gateway's business, not the conversation's: later prompts leave it out
(:func:`without_commands`).
"""

from __future__ import annotations

from typing import Any

from context_compactor.hookspecs import Command
from context_compactor.messages import view_of


def find_command(messages: list[Any], commands: dict[str, Command]) -> tuple[Command, str] | None:
    """The command the newest user message invokes, and its arguments; None when it is not one."""
    return invoked(messages[-1], commands) if messages else None


def without_commands(messages: list[Any], commands: dict[str, Command]) -> list[Any]:
    """``messages`` without the command exchanges before the newest message: each user message that
    invokes a command, and the plain assistant answer right after it. The same list when there are none."""
    out: list[Any] = []
    skip_answer = False
    for i, message in enumerate(messages):
        last = i == len(messages) - 1
        if skip_answer and not last and isinstance(message, dict) and message.get("role") == "assistant" \
                and not message.get("tool_calls"):
            skip_answer = False
            continue
        skip_answer = not last and invoked(message, commands) is not None
        if not skip_answer:
            out.append(message)
    return messages if len(out) == len(messages) else out


def invoked(message: Any, commands: dict[str, Command]) -> tuple[Command, str] | None:
    """The command a user message invokes, and its arguments; None when it is not one."""
    if not isinstance(message, dict) or message.get("role") != "user" or not _opens_with_slash(message.get("content")):
        return None
    try:
        text = view_of(message).text.strip()
    except Exception:  # noqa: BLE001 - a message we cannot read is not a command
        return None
    if not text.startswith("/"):
        return None
    name, _, args = text[1:].partition(" ")
    name, newline, more = name.partition("\n")
    command = commands.get(name)
    if command is None:
        return None
    args = (more + " " + args).strip() if newline else args.strip()
    return command, args if command.accepts_args else ""


def _opens_with_slash(content: Any) -> bool:
    """Whether a message's text may open with "/": its first text, read without building the message's view
    (every user message of every request is asked, and nearly none is a command)."""
    if isinstance(content, str):
        return content.lstrip().startswith("/")
    for part in content if isinstance(content, list) else ():
        text = part.get("text") if isinstance(part, dict) else None
        if isinstance(text, str) and text.strip():
            return text.lstrip().startswith("/")
    return False
