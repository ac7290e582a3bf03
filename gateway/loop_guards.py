"""Calls of the client's own tools that the gateway answers itself (issue 13, item 3).

Each guard *claims* a tool call in the model's reply by what it says, not by its tool's name (the
owned tools of :mod:`owned_tools` are claimed by name); a claimed call never reaches the client:
the gateway answers it inside the turn and the model continues (see :class:`owned_tools.Rounds`).

    RefuseRepeated   a call that already failed twice exactly as written (same tool, same
                     arguments) is answered with the reason and the earlier error
                     (``refuseRepeatedFailures``)
    GarbledRetry     a call whose arguments are not a JSON object (or that names no offered tool)
                     gets one retry per turn, the model told what was wrong
                     (``retryGarbledToolCalls``)

A ``/btw`` side question (:func:`.turn.is_side_question`) goes upstream without tools, so no guard runs on it.
"""

from __future__ import annotations

import json
import weakref
from typing import Any

import structlog

from context_compactor.loop import call_key, failures, garbled, refusal

from .turn import ChatTurn, is_side_question

logger = structlog.get_logger("context_compactor")

FAILED_TIMES = 2  # failures of one call as written before the next is refused
GARBLED_RETRIES = 1  # per turn


def _name_args(call: dict[str, Any]) -> tuple[str, str]:
    function = call.get("function") or {}
    args = function.get("arguments")
    return str(function.get("name") or ""), args if isinstance(args, str) else json.dumps(args)


def prior_failures(messages: list[Any], name: str, args: str) -> tuple[int, str]:
    """How many times ``name(args)`` as written failed in ``messages``, and its last error line.

    Only the results of calls with that exact key are read (a warm turn at thousands of messages
    reads a handful of results, not all of them).
    """
    key = call_key(name, args)
    ids = set()
    for message in messages:
        if isinstance(message, dict) and message.get("role") == "assistant" and message.get("tool_calls"):
            for call in message["tool_calls"]:
                if isinstance(call, dict) and _name_args(call)[0] == name and call_key(*_name_args(call)) == key:
                    ids.add(call.get("id"))
    if not ids:
        return 0, ""
    relevant = [m for m in messages if isinstance(m, dict) and (
        (m.get("role") == "tool" and m.get("tool_call_id") in ids)
        or (m.get("role") == "assistant" and any(isinstance(c, dict) and c.get("id") in ids
                                                 for c in m.get("tool_calls") or ())))]
    return failures(relevant).get(key, (0, ""))


class RefuseRepeated:
    """Answers a call that failed twice exactly as written, instead of running it a third time."""

    name = "refuse-repeated-failures"

    def claims(self, call: dict[str, Any], turn: ChatTurn) -> bool:
        return self._refusal(call, turn) is not None

    def _refusal(self, call: dict[str, Any], turn: ChatTurn) -> str | None:
        name, args = _name_args(call)
        history = [*(turn.body.get("messages") or [])]
        count, line = prior_failures(history, name, args)
        if count < FAILED_TIMES:
            return None
        return refusal(name, args, {call_key(name, args): (count, line)}, FAILED_TIMES)

    def answer_call(self, call: dict[str, Any], turn: ChatTurn) -> str:
        text = self._refusal(call, turn) or "context-compactor refused this call"
        logger.info("gateway.call_refused", session=turn.key, tool=_name_args(call)[0])
        return text


class GarbledRetry:
    """Gives a call with garbled arguments one retry, telling the model what was wrong."""

    name = "retry-garbled-tool-calls"

    def __init__(self) -> None:
        self._retries: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()

    def claims(self, call: dict[str, Any], turn: ChatTurn) -> bool:
        if self._retries.get(turn, 0) >= GARBLED_RETRIES:
            return False
        return _garbled(call, turn) is not None

    def answer_call(self, call: dict[str, Any], turn: ChatTurn) -> str:
        self._retries[turn] = self._retries.get(turn, 0) + 1
        name, _args = _name_args(call)
        problem = _garbled(call, turn) or "the call could not be read"
        logger.info("gateway.garbled_call", session=turn.key, tool=name)
        return (f"context-compactor: this tool call was not run: {problem}. Send the call again with its arguments "
                "as one valid JSON object that matches the tool's parameters.")


def _garbled(call: dict[str, Any], turn: ChatTurn) -> str | None:
    """What is wrong with ``call``, judged as a function call against the request's function tools; None for a
    call of another kind (a Responses ``custom_tool_call`` takes free text, ``local_shell_call`` has no named
    tool: the API adapters give those calls their item's type)."""
    if call.get("type", "function") != "function":
        return None
    names = [_tool_name(t) for t in turn.body.get("tools") or []]
    name, args = _name_args(call)
    return garbled(name, args, [{"function": {"name": n}} for n in names if n])


def _tool_name(tool: Any) -> str:
    """A tool definition's name: chat's ``function.name``, or the top-level ``name`` of a Responses custom tool."""
    if not isinstance(tool, dict):
        return ""
    function = tool.get("function")
    return str((function.get("name") if isinstance(function, dict) else None) or tool.get("name") or "")


def loop_guards() -> list[Any]:
    return [RefuseRepeated(), GarbledRetry()]


def active_guards(guards: list[Any], turn: ChatTurn) -> list[Any]:
    """The guards this turn's settings switch on (none on a side question: it has no tools)."""
    settings = turn.gw.runtime.settings_for(turn.model)
    if is_side_question(turn) or not turn.body.get("tools"):
        return []
    on = {"refuse-repeated-failures": settings.refuse_repeated_failures,
          "retry-garbled-tool-calls": settings.retry_garbled_tool_calls}
    return [g for g in guards if on.get(g.name, True)]
