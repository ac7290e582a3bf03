"""gptme's messages as OpenAI chat messages, and back.

gptme keeps ``Message(role, content, call_id, pinned, metadata, ...)`` with three roles; a tool result
is a ``system`` message after the assistant message that ran the tool. Its calls are written in the
assistant's text: ``@name(call_id): {json}`` lines (tool format) or fenced blocks (markdown/xml
format, results without a call id). Here an assistant message with calls becomes an assistant message
with ``tool_calls`` (its text unchanged, each call's arguments short, since the text already holds
the code), and its results become ``tool`` messages answering them, so a cut never separates a call
from its results. ``ui_only`` messages are not sent by gptme and are left out. A ``pinned`` message is
never a result; the positions of the pinned system messages are ``Converted.pinned``, for the
Compactor never to fold them.

:func:`to_gptme` maps a projection back: a message kept is gptme's own object (by identity), a new
one (the compacted-context block, a stubbed result) is a new ``Message`` with the same role, a stub
keeping its result's ``call_id``. When the log converted is gptme's master log, a stub also names the
result's id in gptme's own ``recall`` tool (``recall_result(N)``: N is its 1-based place in the master log).
"""

from __future__ import annotations

import importlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Converted", "to_chat", "to_gptme"]

_AT_CALL = re.compile(r"^@([\w.-]+)\(([^)\s]+)\):", re.MULTILINE)
_FENCE = re.compile(r"^```([\w.-]+)([^\n]*)$", re.MULTILINE)
SYNTHETIC = "gptme-"  # the prefix of a call id we made up for a result gptme gave none
STUB_OPENING = "[tool result archived by context-compactor"  # how the engine's stub of a result opens


@dataclass
class Converted:
    """The chat messages of a gptme log and the way back: ``origin[id(chat)]`` is the gptme message."""

    messages: list[dict[str, Any]]
    origin: dict[int, Any] = field(default_factory=dict)
    pinned: list[int] = field(default_factory=list)  # positions (in ``messages``) of pinned system messages
    results: dict[str, int] = field(default_factory=dict)  # a result's call id: its 1-based place in the log
    master: bool = False  # the log is gptme's master log: ``results`` are ids of gptme's recall tool


def _calls(content: str) -> list[tuple[str, str, str]]:
    """(name, call_id, arguments) of the calls written in an assistant's text, in order."""
    found = [(m.start(), m.group(1), m.group(2), "{}") for m in _AT_CALL.finditer(content)]
    for m in _FENCE.finditer(content):
        args = m.group(2).strip()
        found.append((m.start(), m.group(1), "", json.dumps({"args": args}) if args else "{}"))
    return [(name, call_id, args) for _, name, call_id, args in sorted(found)]


def _is_result(message: Any) -> bool:
    return message.role == "system" and (message.call_id is not None or "tool" in (message.metadata or {}))


def to_chat(log: Sequence[Any], master: bool = False) -> Converted:
    """The chat messages for gptme ``log`` (``master``: it is the master log's messages), with the way back."""
    out = Converted([], master=master)
    pending: list[dict[str, Any]] = []  # the open calls of the last assistant message, unanswered
    assistant: dict[str, Any] | None = None
    for index, message in enumerate(log):
        if message.ui_only:
            continue
        if message.role == "system" and assistant is not None and not message.pinned \
                and (pending or _is_result(message)):
            call = _answer(pending, message, assistant, index)
            chat: dict[str, Any] = {"role": "tool", "tool_call_id": call["id"], "content": message.content}
            out.results[call["id"]] = index + 1
        else:
            chat = {"role": message.role, "content": message.content}
            if message.pinned and message.role == "system":
                out.pinned.append(len(out.messages))
            assistant, pending = None, []
            if message.role == "assistant":
                assistant = chat
                pending = [_call(name, call_id or f"{SYNTHETIC}{index}-{k}", args)
                           for k, (name, call_id, args) in enumerate(_calls(message.content))]
        out.messages.append(chat)
        out.origin[id(chat)] = message
    return out


def _call(name: str, call_id: str, arguments: str) -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


def _answer(pending: list[dict[str, Any]], message: Any, assistant: dict[str, Any], index: int) -> dict[str, Any]:
    """The call ``message`` answers: by its call id, else the first open one, else a new one."""
    wanted = message.call_id
    call = next((c for c in pending if c["id"] == wanted), None) if wanted else (pending[0] if pending else None)
    if call is None:
        tool = str((message.metadata or {}).get("tool") or "tool")
        call = _call(tool, wanted or f"{SYNTHETIC}{index}", "{}")
    else:
        pending.remove(call)
    made = assistant.setdefault("tool_calls", [])
    if all(c["id"] != call["id"] for c in made):
        made.append(call)
    return call


def to_gptme(projection: Sequence[dict[str, Any]], converted: Converted) -> list[Any]:
    """gptme messages for a projection of ``converted.messages``: kept ones are gptme's own objects."""
    message_cls = importlib.import_module("gptme.message").Message
    back: list[Any] = []
    for chat in projection:
        original = converted.origin.get(id(chat))
        if original is not None:
            back.append(original)
            continue
        role = chat.get("role", "system")
        content = _text(chat.get("content"))
        if role == "tool":
            call_id = chat.get("tool_call_id")
            keep_id = call_id if isinstance(call_id, str) and not call_id.startswith(SYNTHETIC) else None
            place = converted.results.get(call_id) if converted.master and isinstance(call_id, str) else None
            if place is not None and content.startswith(STUB_OPENING):
                content += f" (gptme: recall_result({place}) reads it)"
            back.append(message_cls("system", content, call_id=keep_id))
        else:
            back.append(message_cls(role if role in ("system", "user", "assistant") else "system", content))
    return back


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return "" if content is None else str(content)
