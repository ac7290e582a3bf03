"""Failed and garbled tool calls: one test of "this call failed", and the rules built on it.

- :func:`is_failed` / :func:`failure_line`: whether a tool result says its call failed (flagged, or a
  command's output that reads as a failure; a file read's output is data), and its error line. The
  gateway reads results in a history, OpenClaw's plugin hands each over (``after_tool_call``); both
  are judged here.
- :func:`fold_failed`: an older failed result as one line (the agent-loop behaviour ``foldFailedCalls``).
- The repeated-failure rule (``refuseRepeatedFailures``): :func:`failures` / :func:`call_failures` count
  the failures of a call as written (:func:`call_key`), :class:`FailedCalls` keeps a session's count
  from results handed over one at a time, :func:`refusal` is the answer to the next call
  (``hooks/tools.py`` applies it through ``before_tool_call``).
- :func:`garbled`: what is wrong with a call's arguments (the gateway's one retry).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .messages import ToolCall, view_of, with_text
from .summarizer.extract import arguments, clip, error_line, is_read, output_failed, scanned, shell_command

FOLD_HEAD = "[failed call folded by context-compactor"
FOLD_TAIL = " failed with the error above; the full output is in the archive]"
FOLD_MAX_CHARS = 600  # a folded call's lines are at most this long (see fold_line)
REFUSE_AFTER = 2  # failures of one call as written before the next is refused (refuseRepeatedFailures)


def text_of(message: Any) -> str:
    content = message.get("content") if isinstance(message, dict) else None
    if type(content) is str:
        return content
    return view_of(message).text if isinstance(message, dict) else ""


def is_failed(message: Any, call: ToolCall | None) -> bool:
    """Whether a tool result says its call failed: flagged, or a command's output that reads as a failure."""
    view = view_of(message)
    if view.is_error:
        return True
    # As the ledger reads it: a read's output is data (a file's "return" and "error" are not the call's
    # verdict) unless it is no content but a failure; any other output's verdict is at its end.
    return output_failed(scanned(view.text), is_read(call, shell_command(call, arguments(call.arguments)) if call else None))


def fold_line(message: Any, call: ToolCall | None) -> str:
    """The one line that stands for an older failed call."""
    name = clip(call.name if call else str(message.get("name") or "tool"), 60)
    args = clip(call.arguments, 100) if call else ""
    first = clip(error_line(scanned(view_of(message).text)), 200) or "(no error text)"
    # The error line comes first and the note says "failed with", so a summary that reads the folded
    # text (once it is folded further, into the ledger) still finds the failure and its error line.
    return f"{first}\n{FOLD_HEAD}: {name}({args}){FOLD_TAIL}"


def fold_failed(message: Any, call: ToolCall | None, failed: bool | None = None) -> Any | None:
    """A failed tool result as one line; None when it did not fail or is already that short
    (``failed``: :func:`is_failed`, when the caller knows it)."""
    if not isinstance(message, dict) or message.get("role") not in ("tool", "function"):
        return None
    if not (is_failed(message, call) if failed is None else failed):
        return None
    line = fold_line(message, call)
    if len(text_of(message)) <= len(line):
        return None
    return with_text(message, line)


def call_key(name: str, args: str) -> tuple[str, str]:
    """A call "exactly as written": its tool and its arguments (as JSON, key order ignored)."""
    try:
        value = json.loads(args) if args else {}
        return name, json.dumps(value, sort_keys=True, separators=(",", ":"))
    except ValueError:
        return name, args.strip()


def arguments_text(args: Any) -> str:
    """A call's arguments as JSON text (a host may hand them over parsed)."""
    return args if isinstance(args, str) else json.dumps(args, ensure_ascii=False)


def failure_line(message: Any, call: ToolCall) -> str | None:
    """The error line of a tool result whose call failed (flagged, folded by us, or output that reads as a
    failure: :func:`is_failed`); None when it did not fail. The one test of "this call failed" for every
    host: the gateway reads results in the history, OpenClaw's plugin hands each over (``after_tool_call``)."""
    text = text_of(message)
    if FOLD_HEAD in text:
        return clip(text.split("\n", 1)[0], 300)
    if not is_failed(message, call):
        return None
    return clip(error_line(scanned(view_of(message).text)), 300)


def failures(messages: Sequence[Any]) -> dict[tuple[str, str], tuple[int, str]]:
    """Per call as written (:func:`call_key`): how many times it failed, and its last error line."""
    calls: dict[str, ToolCall] = {}
    out: dict[tuple[str, str], tuple[int, str]] = {}
    for message in messages:
        if not isinstance(message, dict):
            continue
        role = message.get("role")
        if role == "assistant" and message.get("tool_calls"):
            for call in view_of(message).calls:
                calls[call.id] = call
        elif role == "tool":
            made = calls.get(str(message.get("tool_call_id")))
            line = failure_line(message, made) if made is not None else None
            if made is not None and line is not None:
                key = call_key(made.name, made.arguments)
                out[key] = (out.get(key, (0, ""))[0] + 1, line)
    return out


def call_failures(messages: Sequence[Any], name: str, args: str) -> tuple[int, str]:
    """How many times ``name(args)`` as written failed in ``messages``, and its last error line. Only the
    messages of calls with that key are read (a warm turn at thousands of messages reads a handful)."""
    key = call_key(name, args)
    ids: set[str] = set()
    relevant: list[Any] = []
    for message in messages:
        if not isinstance(message, dict):
            continue
        if message.get("role") == "assistant" and message.get("tool_calls"):
            mine = {c.id for c in view_of(message).calls if c.name == name and call_key(c.name, c.arguments) == key}
            if mine:
                ids |= mine
                relevant.append(message)
        elif message.get("role") == "tool" and message.get("tool_call_id") in ids:
            relevant.append(message)
    return failures(relevant).get(key, (0, ""))


class FailedCalls:
    """A session's record of failed calls, for a host that hands results over one at a time (OpenClaw's
    ``after_tool_call``) rather than in a history: per call as written, (failures, last error line)."""

    LIMIT = 256  # calls remembered per session, the oldest dropped first

    def __init__(self) -> None:
        self._seen: dict[tuple[str, str], tuple[int, str]] = {}

    def add(self, name: str, args: str, line: str) -> int:
        """Count one failure of ``name(args)``; returns its failures so far."""
        key = call_key(name, args)
        count = self._seen.pop(key, (0, ""))[0] + 1
        self._seen[key] = (count, line)
        while len(self._seen) > self.LIMIT:
            del self._seen[next(iter(self._seen))]
        return count

    def get(self, name: str, args: str) -> tuple[int, str]:
        return self._seen.get(call_key(name, args), (0, ""))


def refusal(name: str, args: str, failed: dict[tuple[str, str], tuple[int, str]],
            times: int = REFUSE_AFTER) -> str | None:
    """The answer to a call that already failed ``times`` times exactly as written; None to let it run."""
    count, line = failed.get(call_key(name, args), (0, ""))
    if count < times:
        return None
    return (f"context-compactor refused this call: {name} with these exact arguments already failed {count} times "
            f"(last error: {line or 'no error text'}). Running it again as written will fail the same way: change "
            "the arguments, try another approach, or tell the user what blocks you.")


def garbled(name: str, args: Any, tools: Sequence[Any] | None = None) -> str | None:
    """What is wrong with a tool call's arguments (not a JSON object, or an unknown tool); None when fine."""
    known = {t.get("function", {}).get("name") for t in tools or () if isinstance(t, dict)}
    if known and name not in known:
        return f"there is no tool named {name!r}; the tools are: {', '.join(sorted(str(k) for k in known))}"
    if isinstance(args, dict):
        return None
    if not isinstance(args, str):
        return f"the arguments of {name} must be a JSON object, got {type(args).__name__}"
    try:
        value = json.loads(args) if args.strip() else {}
    except ValueError as exc:
        return f"the arguments of {name} are not valid JSON ({exc}): {clip(args, 200)}"
    if not isinstance(value, dict):
        return f"the arguments of {name} must be a JSON object, got {type(value).__name__}"
    return None
