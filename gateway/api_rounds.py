"""The gateway's own tool rounds (``recall_history``) in the Messages and Responses APIs: what both share.

    ApiRounds          one round's answer read whole, the owned calls answered, the turn continued; each API's
                       rounds (:class:`.anthropic.MessagesRounds`, :class:`.responses.ResponsesRounds`) live
                       with the rest of that API, and say how its answers name calls and how its streams go on

As for chat (:class:`~context_compactor.gateway.owned_tools.Rounds`, whose answering, fitting and
continuing they reuse): when the model's reply calls only the gateway's own tools, they are answered,
the reply and the results are added to the conversation (the reply's own blocks or items, thinking and
reasoning with their signatures, so the continued loop is the model's own) and the turn is sent again,
up to ``MAX_ROUNDS`` times. The client gets one answer. A whole answer is the last round's. A stream is
relayed as it comes until the first tool call, then held to the round's end; the later rounds' events
continue it: their ``message_start`` (``response.created``) dropped, content blocks (output items)
numbered after the ones the client already has, and Responses' ``sequence_number`` counting on. A reply
mixing owned and client calls reaches the client with the owned calls taken out.
"""

from __future__ import annotations

import json
from typing import Any

from .owned_tools import MAX_ROUNDS, Rounds

CONTINUATION = "owned_tool_continuation"


def json_of(data: bytes | None) -> Any:
    try:
        return json.loads(data) if data is not None else None
    except ValueError:
        return None


def chat_call(call_id_: str, name: str, arguments: Any, kind: str = "function") -> dict[str, Any]:
    """A call as chat writes it; ``kind`` is "function" for a function call, else its item's type (a Responses
    ``custom_tool_call`` or ``local_shell_call``, whose arguments are not a JSON object: see loop_guards.py)."""
    text = arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)
    return {"id": call_id_, "type": kind, "function": {"name": name, "arguments": text}}


class ApiRounds(Rounds):
    """What both APIs' rounds share: one round's answer read whole, owned calls answered, the turn continued."""

    def _calls(self, data: dict[str, Any]) -> list[tuple[Any, dict[str, Any]]]:
        """The tool calls of a whole answer: (its block or item, the chat call it is)."""
        raise NotImplementedError

    def _assistant(self, data: dict[str, Any]) -> dict[str, Any]:
        """The reply as the assistant chat message the continued conversation carries."""
        raise NotImplementedError

    def _drop(self, data: dict[str, Any], owned: list[Any]) -> None:
        """Take the owned calls (blocks or items) out of a whole answer."""
        raise NotImplementedError

    async def read(self) -> bytes:
        """The last round's body: earlier rounds only called the gateway's own tools."""
        body = await self.current.read()
        while self.rounds < MAX_ROUNDS and self.current.status_code < 400:
            data = json_of(body)
            if not isinstance(data, dict):
                return body
            calls = self._calls(data)
            owned = [(part, call) for part, call in calls if self._owner(call) is not None]
            if not owned:
                return body
            if len(owned) < len(calls):  # mixed: the client gets its own calls only
                self._drop(data, [part for part, _ in owned])
                return json.dumps(data, ensure_ascii=False).encode("utf-8")
            if not await self._continue(self._assistant(data), [call for _, call in owned]):
                return body
            body = await self.current.read()
        self.status_code = self.current.status_code
        return body

    async def _continued_error(self) -> str:
        body = (await self.current.read()).decode("utf-8", "replace")[:500]
        return f"context-compactor: the upstream refused the turn continued after {', '.join(self.tools)}: {body}"
