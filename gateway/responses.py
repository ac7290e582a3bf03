"""The OpenAI Responses API (``POST /v1/responses``, stateless): Codex's wire format.

    ResponsesTurn     a turn whose client speaks Responses: converted for the hooks, converted back to send
    ResponsesRelay    the relay for ``/responses``, reading ``response.*`` events (with their sequence_number)
    ResponsesWatch    what a Responses event stream said (usage from response.completed, the reply, errors)
    ResponsesRounds   an answer with the owned ``function_call`` items answered and the turn continued (see
                      api_rounds.py)

A request with ``previous_response_id`` or ``conversation`` holds only the new input (the server keeps
the rest), so there is nothing here to compact: it goes through unchanged, with a warning header.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import AsyncIterator
from typing import Any

import structlog

from context_compactor.responses_adapter import CALL_TYPES, OUTPUT_TYPES, assistant_message, call_id, to_responses

from .anthropic import SSE_HEADERS, sse_event
from .api_rounds import CONTINUATION, ApiRounds, chat_call, json_of
from .api_turn import ApiRelay, ApiTurn
from .asgi import JSON_TYPE, Message, Scope, Send, dumps, send_bytes
from .http1 import Response
from .owned_tools import MAX_ROUNDS
from .parts import GatewayParts
from .sse import EventSplitter, event_data


logger = structlog.get_logger("context_compactor")

RESPONSES_PATH = "/v1/responses"
COUNT_PATH = "/v1/responses/input_tokens"
SERVER_SIDE = ("previous_response_id or conversation: the server holds the history, so the gateway cannot "
               "compact it; passed through unchanged")
DONE_EVENTS = frozenset({"response.completed", "response.incomplete", "response.failed"})


class ResponsesTurn(ApiTurn):
    """The compaction side of one ``/v1/responses`` request."""

    api_path = "/responses"

    def chat_tools(self, tools: Any) -> list[Any]:
        """Function tools as chat's (``{type, function: {name, ...}}``); the others (custom, web search ...) as they are."""
        return [{"type": "function", "function": {k: v for k, v in t.items() if k != "type"}}
                if isinstance(t, dict) and t.get("type") == "function" else t for t in tools or []]

    def tool_entry(self, schema: dict[str, Any]) -> dict[str, Any]:
        return {"type": "function", **(schema.get("function") or {})}

    def with_projection(self, body: dict[str, Any], messages: list[Any]) -> None:
        instructions, body["input"] = to_responses(messages, self.conv, self.original)
        if instructions is not None:
            body["instructions"] = instructions


def usage_of(usage: Any) -> dict[str, Any] | None:
    if not isinstance(usage, dict):
        return None
    return {"prompt_tokens": usage.get("input_tokens"), "completion_tokens": usage.get("output_tokens")}


def reply_of(output: Any) -> dict[str, Any]:
    """A response's output items as the assistant chat message ``after_turn`` reads."""
    texts, calls = [], []
    for item in output if isinstance(output, list) else []:
        if not isinstance(item, dict):
            continue
        if item.get("type") == "message":
            texts += [str(p.get("text", "")) for p in item.get("content") or [] if isinstance(p, dict)
                      and p.get("type") == "output_text"]
        elif item.get("type") in ("function_call", "custom_tool_call"):
            arguments = item.get("arguments", item.get("input", ""))
            calls.append({"id": str(item.get("call_id", "")), "type": "function",
                          "function": {"name": str(item.get("name", "")), "arguments": str(arguments)}})
    message: dict[str, Any] = {"role": "assistant", "content": "".join(texts)}
    if calls:
        message["tool_calls"] = calls
    return message


class ResponsesWatch:
    """What a Responses event stream said; every event reaches the client."""

    def __init__(self) -> None:
        self.events = 0
        self.done = False
        self.usage: dict[str, Any] | None = None
        self.error: Any = None
        self.first: dict[str, Any] | None = None  # the first output event
        self._reply: dict[str, Any] = {"role": "assistant", "content": ""}
        self._text: list[str] = []

    def keep(self, event: bytes) -> bool:
        self.events += 1
        data = event_data(event)
        try:
            chunk = json.loads(data) if data is not None else None
        except ValueError:
            return True
        if isinstance(chunk, dict):
            kind = str(chunk.get("type") or "")
            if kind == "error":
                self.error = chunk.get("error") or chunk
            elif kind in DONE_EVENTS:
                self.done = True
                response = chunk.get("response") or {}
                self.usage = usage_of(response.get("usage"))
                self._reply = reply_of(response.get("output"))
                if kind == "response.failed":
                    self.error = response.get("error") or "response.failed"
            elif kind.startswith("response.output_") and self.first is None:
                self.first = chunk
            if kind == "response.output_text.delta" and isinstance(chunk.get("delta"), str):
                self._text.append(chunk["delta"])
        return True

    @property
    def complete(self) -> bool:
        """A response.completed (or .incomplete, .failed) ends a stream; so does an ``error`` event."""
        return self.done or self.error is not None

    def missing(self) -> str:
        return "no response.completed"

    def reply(self) -> dict[str, Any]:
        if not self._reply.get("content") and self._text:
            return {**self._reply, "content": "".join(self._text)}
        return self._reply


def error_body(status: int, message: str, code: str) -> bytes:
    """The gateway's own error in the Responses shape (OpenAI's: message, type, param, code)."""
    kind = "invalid_request_error" if status < 500 else "server_error"
    return dumps({"error": {"message": message, "type": kind, "param": None, "code": code}})


def error_event(message: str, code: str) -> bytes:
    data = {"type": "error", "code": code, "message": message, "param": None, "sequence_number": 0}
    return b"event: error\ndata: " + json.dumps(data, ensure_ascii=False).encode() + b"\n\n"


class ResponsesRounds(ApiRounds):
    """Owned-tool rounds of a ``/v1/responses`` answer (see api_rounds.py)."""

    def _calls(self, data: dict[str, Any]) -> list[tuple[Any, dict[str, Any]]]:
        out = []
        for item in data.get("output") or []:
            if isinstance(item, dict) and item.get("type") in CALL_TYPES:
                arguments = item.get("arguments", item.get("input", ""))
                kind = str(item.get("type"))
                out.append((item, chat_call(call_id(item), str(item.get("name") or kind), arguments,
                                             "function" if kind == "function_call" else kind)))
        return out

    def _assistant(self, data: dict[str, Any]) -> dict[str, Any]:
        return assistant_message(list(data.get("output") or []), self.turn.conv)  # type: ignore[attr-defined]

    def _drop(self, data: dict[str, Any], owned: list[Any]) -> None:
        data["output"] = [i for i in data.get("output") or [] if not any(i is o for o in owned)]

    async def iter_bytes(self) -> AsyncIterator[bytes]:
        state = _ResponsesStream()
        while True:
            splitter = EventSplitter()
            state.next_round()
            async for data in self.current.iter_bytes():
                out = [e for e in (state.read(event) for event in splitter.feed(data)) if e]
                if out:
                    yield b"".join(out)
            rest = splitter.rest()
            if rest:
                state.held.append((rest, json_of(event_data(rest))))
            calls = self._calls({"output": state.items})
            owned = [(item, call) for item, call in calls if self._owner(call) is not None]
            if not owned or self.rounds >= MAX_ROUNDS or (len(owned) == len(calls) and not await self._continue(
                    assistant_message(state.items, self.turn.conv), [call for _, call in owned])):  # type: ignore[attr-defined]
                owned = []
            elif len(owned) == len(calls):
                if self.current.status_code >= 400:
                    yield state.numbered(error_event(await self._continued_error(), CONTINUATION))
                    return
                continue
            yield state.release({call_id(item) for item, _ in owned})
            return


class _ResponsesStream:
    """One Responses stream made of several rounds' events: output indexes and sequence numbers continued,
    the first round's response id kept, the items the client already had put back into the final response."""

    def __init__(self) -> None:
        self.sequence = 0
        self.outputs = 0  # output items the client has been sent
        self.sent_items: list[Any] = []  # those items (from their output_item.done)
        self.first_id: Any = None
        self.rounds = -1

    def next_round(self) -> None:
        self.rounds += 1
        self.index: dict[int, int] = {}
        self.items: list[Any] = []  # this round's output items (done)
        self.held: list[tuple[bytes, Any]] = []

    def read(self, event: bytes) -> bytes | None:
        """``event`` as the client gets it now, or None (held or dropped)."""
        chunk = json_of(event_data(event))
        if not isinstance(chunk, dict):
            if self.held:
                self.held.append((event, None))
                return None
            return event
        kind = str(chunk.get("type") or "")
        response = chunk.get("response") if isinstance(chunk.get("response"), dict) else None
        if kind in ("response.created", "response.in_progress", "response.queued"):
            if self.rounds:
                return None
            self.first_id = (response or {}).get("id", self.first_id)
        if kind == "response.output_item.done" and isinstance(chunk.get("item"), dict):
            self.items.append(chunk["item"])
        item = chunk.get("item") if kind == "response.output_item.added" else None
        if isinstance(item, dict) and item.get("type") in CALL_TYPES:
            self.held.append((event, chunk))
            return None
        if self.held:
            self.held.append((event, chunk))
            return None
        return self._out(chunk, event)

    def _out(self, chunk: dict[str, Any], event: bytes | None) -> bytes:
        """``chunk`` numbered for the client: ``event`` itself when nothing changed (None: always encoded)."""
        kind = str(chunk.get("type") or "")
        if kind == "response.output_item.added":
            self.index[int(chunk.get("output_index", 0))], self.outputs = self.outputs, self.outputs + 1
        if kind == "response.output_item.done" and isinstance(chunk.get("item"), dict):
            self.sent_items.append(chunk["item"])
        given = chunk.get("output_index")
        changed = dict(chunk)
        if isinstance(given, int) and self.index.get(given, given) != given:
            changed["output_index"] = self.index[given]
        if kind in ("response.completed", "response.incomplete", "response.failed") and self.rounds:
            response = dict(chunk.get("response") or {})
            response["output"] = list(self.sent_items)
            if self.first_id is not None:
                response["id"] = self.first_id
            changed["response"] = response
        changed["sequence_number"] = self.sequence
        self.sequence += 1
        if changed == chunk and event is not None:
            return event
        return sse_event(kind, changed)

    def numbered(self, event: bytes) -> bytes:
        chunk = json_of(event_data(event))
        return self._out(chunk, event) if isinstance(chunk, dict) else event

    def release(self, dropped: set[str]) -> bytes:
        """The held events, without those of the owned calls in ``dropped`` (their call ids)."""
        gone = {i for i, item in enumerate(self._by_index()) if item is not None and call_id(item) in dropped}
        out = []
        for event, chunk in self.held:
            if not isinstance(chunk, dict):
                out.append(event)
                continue
            if isinstance(chunk.get("output_index"), int) and chunk["output_index"] in gone:
                continue
            if chunk.get("type") in ("response.completed", "response.incomplete") and dropped:
                response = dict(chunk.get("response") or {})
                response["output"] = [i for i in response.get("output") or []
                                      if not (isinstance(i, dict) and call_id(i) in dropped and i.get("type") in CALL_TYPES)]
                out.append(self._out({**chunk, "response": response}, None))
                continue
            out.append(self._out(chunk, event))
        return b"".join(out)

    def _by_index(self) -> list[Any]:
        """This round's items by their output index (None where none came)."""
        found: dict[int, Any] = {}
        for _, chunk in self.held:
            if isinstance(chunk, dict) and chunk.get("type") == "response.output_item.added":
                found[int(chunk.get("output_index", 0))] = chunk.get("item")
        return [found.get(i) for i in range(max(found, default=-1) + 1)]


class ResponsesRelay(ApiRelay):
    """Sends a Responses turn upstream (with overflow retries and owned-tool rounds) and relays its answer."""

    def read_whole(self, data: dict[str, Any]) -> None:
        self.turn.usage = usage_of(data.get("usage"))
        self.turn.reply = reply_of(data.get("output"))

    def watch(self) -> Any:
        return ResponsesWatch()

    def stream_error(self, message: str, code: str) -> bytes:
        return error_event(message, code)

    def rounds(self, response: Response) -> Any:
        return ResponsesRounds(self.turn, response, self.turn.owned, self._post, self.gw.in_thread, self.turn.guards)


async def server_side(gw: GatewayParts, scope: Scope, send: Send, raw: bytes, key: str) -> None:
    """A request whose history the server keeps: through unchanged, with a warning header."""
    logger.warning("gateway.server_side_history", session=key, path=scope["path"],
                   fix="send the whole input with store: false (as Codex does) for the gateway to compact it")

    async def warned(message: Message) -> None:
        if message["type"] == "http.response.start":
            message = {**message, "headers": [*message.get("headers", []),
                                              (b"x-context-compactor-warning", SERVER_SIDE.encode())]}
        await send(message)

    await gw.proxy(scope, warned, raw)


# --- the gateway's own answers -----------------------------------------------------------------


def response(text: str, model: str, status: str = "completed") -> dict[str, Any]:
    """A whole response carrying ``text`` (a command's answer)."""
    item = {"type": "message", "id": f"msg_cc_{uuid.uuid4().hex[:24]}", "status": "completed", "role": "assistant",
            "content": [{"type": "output_text", "text": text, "annotations": []}]}
    return {"id": f"resp_cc_{uuid.uuid4().hex[:24]}", "object": "response", "created_at": int(time.time()),
            "status": status, "model": model, "output": [item] if status == "completed" else [],
            "usage": {"input_tokens": 0, "output_tokens": 0, "total_tokens": 0,
                      "input_tokens_details": {"cached_tokens": 0}, "output_tokens_details": {"reasoning_tokens": 0}}}


def response_stream(text: str, model: str) -> bytes:
    whole = response(text, model)
    item = whole["output"][0]
    opening = {**whole, "status": "in_progress", "output": []}
    part = item["content"][0]
    events: list[dict[str, Any]] = [
        {"type": "response.created", "response": opening},
        {"type": "response.in_progress", "response": opening},
        {"type": "response.output_item.added", "output_index": 0, "item": {**item, "status": "in_progress", "content": []}},
        {"type": "response.content_part.added", "item_id": item["id"], "output_index": 0, "content_index": 0,
         "part": {**part, "text": ""}},
        {"type": "response.output_text.delta", "item_id": item["id"], "output_index": 0, "content_index": 0,
         "delta": text},
        {"type": "response.output_text.done", "item_id": item["id"], "output_index": 0, "content_index": 0, "text": text},
        {"type": "response.content_part.done", "item_id": item["id"], "output_index": 0, "content_index": 0, "part": part},
        {"type": "response.output_item.done", "output_index": 0, "item": item},
        {"type": "response.completed", "response": whole},
    ]
    return b"".join(f"event: {e['type']}\ndata: ".encode() + json.dumps({**e, "sequence_number": n}).encode() + b"\n\n"
                    for n, e in enumerate(events))


async def send_answer(send: Send, body: dict[str, Any], text: str, headers: Any) -> None:
    model = str(body.get("model") or "context-compactor")
    if body.get("stream"):
        await send_bytes(send, 200, response_stream(text, model), [*SSE_HEADERS, *headers])
    else:
        await send_bytes(send, 200, dumps(response(text, model)), [JSON_TYPE, *headers])


__all__ = ["COUNT_PATH", "OUTPUT_TYPES", "RESPONSES_PATH", "ResponsesRelay", "ResponsesTurn", "error_body",
           "send_answer", "server_side"]
