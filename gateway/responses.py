"""The OpenAI Responses API (``POST /v1/responses``, stateless): Codex's wire format.

    ResponsesTurn     a turn whose client speaks Responses: converted for the hooks, converted back to send
    ResponsesRelay    the relay for ``/responses``, reading ``response.*`` events (with their sequence_number)
    ResponsesWatch    what a Responses event stream said (usage from response.completed, the reply, errors)

A request with ``previous_response_id`` or ``conversation`` holds only the new input (the server keeps
the rest), so there is nothing here to compact: it goes through unchanged, with a warning header.
"""

from __future__ import annotations

import json
import time
import uuid
from typing import TYPE_CHECKING, Any

import structlog

from context_compactor.responses_adapter import OUTPUT_TYPES, to_responses

from .anthropic import SSE_HEADERS
from .api_rounds import ResponsesRounds
from .api_turn import ApiRelay, ApiTurn
from .asgi import JSON_TYPE, Message, Scope, Send, dumps, send_bytes
from .http1 import Response
from .sse import event_data

if TYPE_CHECKING:
    from .app import Gateway

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


async def server_side(gw: Gateway, scope: Scope, send: Send, raw: bytes, key: str) -> None:
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
