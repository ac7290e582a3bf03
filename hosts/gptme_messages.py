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
import operator
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
    log: list[Any] = field(default_factory=list)  # the gptme messages converted
    starts: list[int] = field(default_factory=list)  # per log message: len(messages) before it was converted


def _calls(content: str) -> list[tuple[str, str, str]]:
    """(name, call_id, arguments) of the calls written in an assistant's text, in order."""
    found = [(m.start(), m.group(1), m.group(2), "{}") for m in _AT_CALL.finditer(content)]
    for m in _FENCE.finditer(content):
        args = m.group(2).strip()
        found.append((m.start(), m.group(1), "", json.dumps({"args": args}) if args else "{}"))
    return [(name, call_id, args) for _, name, call_id, args in sorted(found)]


def _is_result(message: Any) -> bool:
    return message.role == "system" and (message.call_id is not None or "tool" in (message.metadata or {}))


def to_chat(log: Sequence[Any], master: bool = False, previous: Converted | None = None) -> Converted:
    """The chat messages for gptme ``log`` (``master``: it is the master log's messages), with the way back.

    With ``previous`` (the conversion of an earlier state of the same log) the chat messages of the part
    both share up to its last user message are reused, the same objects: a warm call converts only the
    current turn, and the Compactor sees the messages it has seen before.
    """
    out = Converted([], master=master, log=list(log))
    start = _reusable(previous, out.log) if previous is not None and previous.master == master else 0
    if previous is not None and start:
        n = previous.starts[start]
        out.messages = previous.messages[:n]
        out.origin = {id(chat): previous.origin[id(chat)] for chat in out.messages}
        out.pinned = [p for p in previous.pinned if p < n]
        out.results = {k: v for k, v in previous.results.items() if v <= start}
        out.starts = previous.starts[:start]
    pending: list[dict[str, Any]] = []  # the open calls of the last assistant message, unanswered
    assistant: dict[str, Any] | None = None
    for index in range(start, len(log)):
        message = log[index]
        out.starts.append(len(out.messages))
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
    if previous is not None:
        _keep_equal(out, previous, out.starts[start] if start < len(out.starts) else len(out.messages))
    return out


def _keep_equal(out: Converted, previous: Converted, since: int) -> None:
    """The chat messages converted again from ``since`` on that equal last call's are last call's objects
    (never changed since: a new conversion builds new ones), so the Compactor sees them as seen before."""
    for j in range(since, min(len(out.messages), len(previous.messages))):
        old, new = previous.messages[j], out.messages[j]
        if old is not new and old == new:
            out.messages[j] = old
            out.origin[id(old)] = out.origin.pop(id(new))


def _reusable(previous: Converted, log: list[Any]) -> int:
    """Where conversion must start again: the last user message of ``previous.log`` (a user message
    closes every open call, so nothing after it changes a chat message before it), when ``log`` holds
    the same objects up to it; else 0."""
    last = next((i for i in range(min(len(previous.log), len(log)) - 1, 0, -1)
                 if previous.log[i].role == "user" and not previous.log[i].ui_only), 0)
    return last if last and all(map(operator.is_, previous.log[: last + 1], log[: last + 1])) else 0


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
