"""Chat commands (``/context-stats``, ``/compact-now [note]``) answered by the gateway itself.

When the newest message is a user message that names a registered command, the gateway runs the
command's handler and answers in the OpenAI format (streamed when the client asked for a stream),
without calling the upstream.
"""

from __future__ import annotations

from typing import Any

from context_compactor.hookspecs import Command
from context_compactor.messages import view_of


def find_command(messages: list[Any], commands: dict[str, Command]) -> tuple[Command, str] | None:
    """The command the newest user message invokes, and its arguments; None when it is not one."""
    if not messages or not isinstance(messages[-1], dict) or messages[-1].get("role") != "user":
        return None
    try:
        text = view_of(messages[-1]).text.strip()
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
