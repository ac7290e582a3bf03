"""The Anthropic Messages API (``POST /v1/messages``, ``/v1/messages/count_tokens``): Claude Code's wire format.

    MessagesTurn      a chat turn whose client speaks Anthropic: converted for the hooks, converted back to send
    MessagesRelay     the relay for ``/messages``: a whole answer or its event stream, read for usage and the reply
    MessagesWatch     what an Anthropic event stream said (usage, stop reason, the reply, an error event)

The hooks see the conversation as OpenAI chat messages (:mod:`context_compactor.anthropic_adapter`);
what goes upstream is an Anthropic request again: the client's own body with ``system`` and
``messages`` replaced when the hooks changed them, every other field (``thinking``,
``context_management``, ``metadata``, ``tools`` ...) as the client sent it. When nothing changed, the
client's bytes go out. Answers are relayed byte for byte; the gateway's own answers (commands) are
written as Anthropic messages or events.
"""

from __future__ import annotations

import json
import uuid
from typing import TYPE_CHECKING, Any

import structlog

from context_compactor.anthropic_adapter import Converted, to_anthropic, to_openai, tools_to_openai

from .asgi import Send, dumps, send_bytes
from .http1 import Response, split_target
from .overflow import EMPTY_STREAM, Overflow, detect
from .relay import Relay
from .sse import EventSplitter, event_data
from .turn import ChatTurn
from context_compactor.redact import redact_bytes

if TYPE_CHECKING:
    from .app import Gateway

logger = structlog.get_logger("context_compactor")

MESSAGES_PATH = "/v1/messages"
COUNT_PATH = "/v1/messages/count_tokens"
SSE_HEADERS = [(b"content-type", b"text/event-stream; charset=utf-8"), (b"cache-control", b"no-cache")]


class MessagesTurn(ChatTurn):
    """The compaction side of one ``/v1/messages`` request."""

    api_path = "/messages"

    def __init__(self, gw: Gateway, body: dict[str, Any], raw: bytes, key: str, upstream_key: str | None,
                 conv: Converted | None = None) -> None:
        self.original = body
        self.conv = conv if conv is not None else to_openai(body)
        chat = {"model": body.get("model"), "messages": self.conv.messages, "tools": tools_to_openai(body.get("tools")),
                "stream": bool(body.get("stream"))}
        super().__init__(gw, chat, raw, key, upstream_key)
        self.client_usage = True  # every Anthropic stream reports its usage
        self.btw = False  # a side question is an OpenAI-shaped rewrite; Anthropic turns go as they are

    async def prepare(self) -> None:
        """Run the hooks; the gateway's own tools are answered for OpenAI chat only (yet)."""
        async with self.gw.locks.hold(self.key):
            await self.gw.in_thread(self._before)
        self.owned, self.guards = {}, []
        self.gw.remember(self)

    def payload(self, extra: list[Any] | None = None) -> bytes:
        """The client's bytes when the hooks changed nothing; else its body with the projection."""
        if self.sent is self.body["messages"] and not extra:
            return self.raw
        system, messages = to_anthropic([*self.sent, *(extra or [])], self.conv, self.original)
        body = dict(self.original)
        body["messages"] = messages
        if system is None:
            body.pop("system", None)
        else:
            body["system"] = system
        return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def usage_of(usage: Any) -> dict[str, Any] | None:
    """An Anthropic ``usage`` as the chat usage ``after_turn`` reads: the prompt is every input token,
    cached or not."""
    if not isinstance(usage, dict):
        return None
    prompt = sum(v for k in ("input_tokens", "cache_read_input_tokens", "cache_creation_input_tokens")
                 if isinstance(v := usage.get(k), int) and not isinstance(v, bool))
    output = usage.get("output_tokens")
    return {"prompt_tokens": prompt or None, "completion_tokens": output if isinstance(output, int) else None}


def reply_of(content: Any) -> dict[str, Any]:
    """An Anthropic answer's content blocks as the assistant chat message ``after_turn`` reads."""
    texts, calls = [], []
    for block in content if isinstance(content, list) else []:
        if not isinstance(block, dict):
            continue
        if block.get("type") == "text":
            texts.append(str(block.get("text", "")))
        elif block.get("type") == "tool_use":
            calls.append({"id": str(block.get("id", "")), "type": "function",
                          "function": {"name": str(block.get("name", "")),
                                       "arguments": json.dumps(block.get("input", {}), ensure_ascii=False)}})
    message: dict[str, Any] = {"role": "assistant", "content": "".join(texts)}
    if calls:
        message["tool_calls"] = calls
    return message


class MessagesWatch:
    """What an Anthropic event stream said: the usage (``message_start`` and ``message_delta``), the stop
    reason, the reply's text and tool calls, an ``error`` event. Every event reaches the client."""

    def __init__(self) -> None:
        self.events = 0
        self.done = False  # message_stop came
        self.stop_reason: str | None = None
        self.usage: dict[str, Any] | None = None
        self._usage: dict[str, Any] = {}
        self.error: Any = None
        self.first: dict[str, Any] | None = None  # the first content event
        self._blocks: dict[int, dict[str, Any]] = {}
        self._pieces: dict[int, list[str]] = {}

    def keep(self, event: bytes) -> bool:
        self.events += 1
        data = event_data(event)
        try:
            chunk = json.loads(data) if data is not None else None
        except ValueError:
            return True
        if isinstance(chunk, dict):
            try:
                self._observe(chunk)
            except (AttributeError, TypeError, ValueError):  # an odd shape: relayed, not understood
                pass
        return True

    def _observe(self, chunk: dict[str, Any]) -> None:
        kind = chunk.get("type")
        if kind == "error":
            self.error = chunk.get("error")
        elif kind == "message_start":
            self._usage.update((chunk.get("message") or {}).get("usage") or {})
            self.usage = usage_of(self._usage)
        elif kind == "message_delta":
            self._usage.update({k: v for k, v in (chunk.get("usage") or {}).items() if v is not None})
            self.usage = usage_of(self._usage)
            self.stop_reason = (chunk.get("delta") or {}).get("stop_reason") or self.stop_reason
        elif kind == "message_stop":
            self.done = True
        elif kind == "content_block_start":
            self.first = self.first or chunk
            self._blocks[int(chunk.get("index", 0))] = dict(chunk.get("content_block") or {})
        elif kind == "content_block_delta":
            delta = chunk.get("delta") or {}
            piece = delta.get("text") if delta.get("type") == "text_delta" else delta.get("partial_json")
            if isinstance(piece, str):
                self._pieces.setdefault(int(chunk.get("index", 0)), []).append(piece)

    @property
    def complete(self) -> bool:
        """A finished stream has a stop reason and ends on ``message_stop``."""
        return self.done and self.stop_reason is not None

    def missing(self) -> str:
        return "no stop_reason" if self.done else "no message_stop"

    def reply(self) -> dict[str, Any]:
        content = []
        for index in sorted(self._blocks):
            block, text = self._blocks[index], "".join(self._pieces.get(index, []))
            if block.get("type") == "text":
                content.append({**block, "text": block.get("text", "") + text})
            elif block.get("type") == "tool_use":
                try:
                    value = json.loads(text) if text else block.get("input", {})
                except ValueError:
                    value = {"input": text}
                content.append({**block, "input": value})
        return reply_of(content)


def sse_event(kind: str, data: dict[str, Any]) -> bytes:
    return (f"event: {kind}\ndata: ".encode() + json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
            + b"\n\n")


def error_event(message: str, code: str) -> bytes:
    """An ``error`` event, as the API ends a stream that failed after it began."""
    return sse_event("error", {"type": "error", "error": {"type": "api_error", "message": message, "code": code}})


class MessagesRelay(Relay):
    """Sends a Messages turn upstream (with overflow retries) and relays its answer."""

    def __init__(self, gw: Gateway, turn: ChatTurn, send: Send, headers: Any) -> None:
        super().__init__(gw, turn, send, headers)
        self.target = split_target(gw.config.base + getattr(turn, "api_path", "/messages"))

    async def _whole(self, response: Response, body: bytes) -> None:
        turn = self.turn
        turn.status = response.status_code
        body = redact_bytes(body, self.secret)
        data = _json(body)
        if isinstance(data, dict):
            self.read_whole(data)
        self.responded = True
        await send_bytes(self.send, response.status_code, body, [*_response_headers(response), *turn.headers()])

    def read_whole(self, data: dict[str, Any]) -> None:
        self.turn.usage = usage_of(data.get("usage"))
        self.turn.reply = reply_of(data.get("content"))

    def watch(self) -> Any:
        return MessagesWatch()

    def stream_error(self, message: str, code: str) -> bytes:
        return error_event(message, code)

    async def _stream(self, response: Response, *, can_retry: bool) -> Overflow | None:
        """Relay the event stream as it comes; before anything was sent, an empty stream or one that opens
        on an overflow error is returned as an Overflow (to compact smaller and retry)."""
        turn = self.turn
        watch = self.watch()
        splitter = EventSplitter(self.secret)
        started = False
        from .upstream import UpstreamError

        try:
            async for data in response.iter_bytes():
                events = splitter.feed(data)
                if not events:
                    continue
                for event in events:
                    watch.keep(event)
                if not started:
                    refused = _refusal(watch) if can_retry else None
                    if refused is not None:
                        return refused
                    started = self.started = True
                    await self.send({"type": "http.response.start", "status": response.status_code,
                                     "headers": [*_response_headers(response), *turn.headers()]})
                await self.send({"type": "http.response.body", "body": b"".join(events), "more_body": True})
        except UpstreamError as problem:
            if not started:
                raise
            await self._end(watch, self.stream_error(str(problem), problem.code), str(problem))
            return None
        rest = splitter.rest()
        if rest:
            watch.keep(rest)
        if not started and not rest:
            return Overflow(EMPTY_STREAM)
        if not started:
            self.started = True
            await self.send({"type": "http.response.start", "status": response.status_code,
                             "headers": [*_response_headers(response), *turn.headers()]})
        if watch.complete or watch.error is not None:
            await self._end(watch, rest, None)
            return None
        message = (f"context-compactor: the upstream model server at {self.gw.config.base} ended the stream "
                   f"before the reply was finished ({watch.missing()})")
        logger.warning("gateway.stream_incomplete", session=turn.key, model=turn.model.id, events=watch.events,
                       done=watch.done)
        await self._end(watch, rest + self.stream_error(message, "upstream_stream_incomplete"), message)
        return None


def _refusal(watch: Any) -> Overflow | None:
    if watch.error is None or watch.first is not None:
        return None
    return detect(400, json.dumps(watch.error).encode())


def _response_headers(response: Response) -> Any:
    from .upstream import response_headers

    return response_headers(response)


def _json(body: bytes) -> Any:
    try:
        return json.loads(body)
    except ValueError:
        return None


# --- the gateway's own answers -----------------------------------------------------------------


def message_id() -> str:
    return f"msg_cc_{uuid.uuid4().hex[:24]}"


def message(text: str, model: str) -> dict[str, Any]:
    """A whole Anthropic message carrying ``text`` (a command's answer)."""
    return {"id": message_id(), "type": "message", "role": "assistant", "model": model,
            "content": [{"type": "text", "text": text}], "stop_reason": "end_turn", "stop_sequence": None,
            "usage": {"input_tokens": 0, "output_tokens": 0}}


def message_stream(text: str, model: str) -> bytes:
    """The same answer as the events of a stream."""
    start = {**message("", model), "content": [], "stop_reason": None}
    return b"".join([
        sse_event("message_start", {"type": "message_start", "message": start}),
        sse_event("content_block_start", {"type": "content_block_start", "index": 0,
                                          "content_block": {"type": "text", "text": ""}}),
        sse_event("content_block_delta", {"type": "content_block_delta", "index": 0,
                                          "delta": {"type": "text_delta", "text": text}}),
        sse_event("content_block_stop", {"type": "content_block_stop", "index": 0}),
        sse_event("message_delta", {"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                                    "usage": {"output_tokens": 0}}),
        sse_event("message_stop", {"type": "message_stop"}),
    ])


async def send_answer(send: Send, body: dict[str, Any], text: str, headers: Any) -> None:
    """A command's answer in the Messages format, streamed when the client asked for a stream."""
    model = str(body.get("model") or "context-compactor")
    if body.get("stream"):
        await send_bytes(send, 200, message_stream(text, model), [*SSE_HEADERS, *headers])
    else:
        await send_bytes(send, 200, dumps(message(text, model)), [(b"content-type", b"application/json"), *headers])


def anthropic_error(message: str, kind: str = "invalid_request_error") -> bytes:
    return dumps({"type": "error", "error": {"type": kind, "message": message}})
