"""The Anthropic Messages API (``POST /v1/messages``, ``/v1/messages/count_tokens``): Claude Code's wire format.

    MessagesTurn      a turn whose client speaks Anthropic: converted for the hooks, converted back to send
    MessagesRelay     the relay for ``/messages``: a whole answer or its event stream, read for usage and the reply
    MessagesWatch     what an Anthropic event stream said (usage, stop reason, the reply's blocks, an error event)
    MessagesRounds    an answer with the owned ``tool_use`` blocks answered and the turn continued (see api_rounds.py)

The hooks see the conversation as OpenAI chat messages (:mod:`context_compactor.anthropic_adapter`);
what goes upstream is an Anthropic request again: the client's own body with ``system`` and
``messages`` replaced when the hooks changed them, every other field (``thinking``,
``context_management``, ``metadata``, ``tools`` ...) as the client sent it, and ``recall_history``
after the client's tools once the session has compacted. When nothing changed, the client's bytes go
out. Answers are relayed byte for byte; the gateway's own answers (commands, refusals, the rounds of
its own tool: see api_rounds.py) are written as Anthropic messages, events and errors.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator
from typing import Any

from context_compactor.anthropic_adapter import assistant_message, to_anthropic, tools_to_openai

from .api_rounds import CONTINUATION, ApiRounds, chat_call
from .api_turn import ApiRelay, ApiTurn
from .asgi import Send, dumps, send_bytes
from .http1 import Response
from .owned_tools import MAX_ROUNDS
from .sse import EventSplitter, event_data

MESSAGES_PATH = "/v1/messages"
COUNT_PATH = "/v1/messages/count_tokens"
SSE_HEADERS = [(b"content-type", b"text/event-stream; charset=utf-8"), (b"cache-control", b"no-cache")]
ERROR_TYPES = {400: "invalid_request_error", 401: "authentication_error", 403: "permission_error",
               404: "not_found_error", 413: "request_too_large", 429: "rate_limit_error", 529: "overloaded_error"}


class MessagesTurn(ApiTurn):
    """The compaction side of one ``/v1/messages`` request."""

    api_path = "/messages"

    def chat_tools(self, tools: Any) -> list[Any]:
        return tools_to_openai(tools)

    def tool_entry(self, schema: dict[str, Any]) -> dict[str, Any]:
        function = schema.get("function") or {}
        return {"name": function.get("name", ""), "description": function.get("description", ""),
                "input_schema": function.get("parameters") or {"type": "object", "properties": {}}}

    def with_projection(self, body: dict[str, Any], messages: list[Any]) -> None:
        system, body["messages"] = to_anthropic(messages, self.conv, self.original)
        if system is None:
            body.pop("system", None)
        else:
            body["system"] = system


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
    reason, the reply's content blocks (deltas applied), an ``error`` event. Every event reaches the client."""

    def __init__(self) -> None:
        self.events = 0
        self.done = False  # message_stop came
        self.stop_reason: str | None = None
        self.usage: dict[str, Any] | None = None
        self._usage: dict[str, Any] = {}
        self.error: Any = None
        self.first: dict[str, Any] | None = None  # the first content event
        self.blocks: dict[int, dict[str, Any]] = {}  # index -> the block as it stands
        self._json: dict[int, list[str]] = {}  # index -> a tool_use block's input, as streamed

    def keep(self, event: bytes) -> bool:
        self.events += 1
        self.read(event_data(event))
        return True

    def read(self, data: bytes | None) -> dict[str, Any] | None:
        """Read one event's data; the parsed event (None when it is not JSON)."""
        try:
            chunk = json.loads(data) if data is not None else None
        except ValueError:
            return None
        if isinstance(chunk, dict):
            try:
                self._observe(chunk)
            except (AttributeError, TypeError, ValueError):  # an odd shape: relayed, not understood
                pass
            return chunk
        return None

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
            self.blocks[int(chunk.get("index", 0))] = dict(chunk.get("content_block") or {})
        elif kind == "content_block_delta":
            self._delta(int(chunk.get("index", 0)), chunk.get("delta") or {})

    def _delta(self, index: int, delta: dict[str, Any]) -> None:
        block = self.blocks.setdefault(index, {})
        kind = delta.get("type")
        if kind == "input_json_delta":
            self._json.setdefault(index, []).append(str(delta.get("partial_json") or ""))
        elif kind == "text_delta":
            block["text"] = str(block.get("text") or "") + str(delta.get("text") or "")
        elif kind == "thinking_delta":
            block["thinking"] = str(block.get("thinking") or "") + str(delta.get("thinking") or "")
        elif kind == "signature_delta":
            block["signature"] = str(delta.get("signature") or "")

    @property
    def complete(self) -> bool:
        """A finished stream has a stop reason and ends on ``message_stop``; an ``error`` event ends it too."""
        return (self.done and self.stop_reason is not None) or self.error is not None

    def missing(self) -> str:
        return "no stop_reason" if self.done else "no message_stop"

    def content(self) -> list[dict[str, Any]]:
        """The reply's blocks as a whole answer has them (a tool_use's streamed input parsed)."""
        out = []
        for index in sorted(self.blocks):
            block = self.blocks[index]
            if block.get("type") in ("tool_use", "server_tool_use") and index in self._json:
                text = "".join(self._json[index])
                try:
                    value = json.loads(text) if text else block.get("input", {})
                except ValueError:
                    value = text  # not JSON: the model's own text, for the loop guards to judge
                block = {**block, "input": value}
            out.append(block)
        return out

    def reply(self) -> dict[str, Any]:
        return reply_of(self.content())


def sse_event(kind: str, data: dict[str, Any]) -> bytes:
    return (f"event: {kind}\ndata: ".encode() + json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
            + b"\n\n")


def error_event(message: str, code: str) -> bytes:
    """An ``error`` event, as the API ends a stream that failed after it began."""
    return sse_event("error", {"type": "error", "error": {"type": "api_error", "message": message, "code": code}})


def sendable(blocks: list[Any]) -> list[Any]:
    """A reply's blocks as they can go back upstream: a ``tool_use`` whose streamed input was not a JSON object
    (kept as the model's text for the loop guards to judge) carries an empty object instead."""
    return [{**b, "input": {}} if isinstance(b, dict) and b.get("type") == "tool_use"
            and not isinstance(b.get("input", {}), dict) else b for b in blocks]


class MessagesRounds(ApiRounds):
    """Owned-tool rounds of a ``/v1/messages`` answer (see api_rounds.py)."""

    def _calls(self, data: dict[str, Any]) -> list[tuple[Any, dict[str, Any]]]:
        return [(b, chat_call(str(b.get("id", "")), str(b.get("name", "")), b.get("input", {})))
                for b in data.get("content") or [] if isinstance(b, dict) and b.get("type") == "tool_use"]

    def _assistant(self, data: dict[str, Any]) -> dict[str, Any]:
        return assistant_message(sendable(list(data.get("content") or [])), self.turn.conv)  # type: ignore[attr-defined]

    def _drop(self, data: dict[str, Any], owned: list[Any]) -> None:
        data["content"] = [b for b in data.get("content") or [] if not any(b is o for o in owned)]

    async def iter_bytes(self) -> AsyncIterator[bytes]:
        numbered = 0  # content blocks the client has been sent, all rounds together
        while True:
            watch, splitter = MessagesWatch(), EventSplitter()
            index: dict[int, int] = {}  # this round's block index -> the client's
            held: list[tuple[bytes, dict[str, Any] | None]] = []
            async for data in self.current.iter_bytes():
                out = []
                for event in splitter.feed(data):
                    chunk = watch.read(event_data(event))
                    kind = chunk.get("type") if isinstance(chunk, dict) else None
                    if kind == "message_start" and self.rounds:
                        continue  # the client has its message_start from the first round
                    if kind == "content_block_start" and (chunk.get("content_block") or {}).get("type") == "tool_use":  # type: ignore[union-attr]
                        held.append((event, chunk))
                    elif held:
                        held.append((event, chunk))
                    else:
                        if kind == "content_block_start":
                            index[int(chunk.get("index", 0))], numbered = numbered, numbered + 1  # type: ignore[union-attr]
                        out.append(_renumbered(event, chunk, index))
                if out:
                    yield b"".join(out)
            rest = splitter.rest()
            if rest:
                held.append((rest, watch.read(event_data(rest))))
            blocks = watch.content()
            calls = self._calls({"content": blocks})
            owned = [(block, call) for block, call in calls if self._owner(call) is not None]
            if not owned or self.rounds >= MAX_ROUNDS or (len(owned) == len(calls) and not await self._continue(
                    assistant_message(sendable(blocks), self.turn.conv), [call for _, call in owned])):  # type: ignore[attr-defined]
                owned = []
            elif len(owned) == len(calls):  # continued: this round's held events are the model's own business
                if self.current.status_code >= 400:
                    yield error_event(await self._continued_error(), CONTINUATION)
                    return
                continue
            dropped = {int(i) for i, b in watch.blocks.items() if any(b.get("id") == o.get("id") for o, _ in owned)}
            out = []
            for event, chunk in held:
                if isinstance(chunk, dict) and "index" in chunk and chunk.get("type", "").startswith("content_block"):
                    if int(chunk["index"]) in dropped:
                        continue
                    if chunk["type"] == "content_block_start":
                        index[int(chunk["index"])], numbered = numbered, numbered + 1
                out.append(_renumbered(event, chunk, index))
            yield b"".join(out)
            return


def _renumbered(event: bytes, chunk: dict[str, Any] | None, index: dict[int, int]) -> bytes:
    """``event`` with its content block index as the client numbers it (unchanged when it is the same)."""
    if not isinstance(chunk, dict) or "index" not in chunk or not str(chunk.get("type", "")).startswith("content_block"):
        return event
    given = int(chunk["index"])
    if index.get(given, given) == given:
        return event
    return sse_event(str(chunk["type"]), {**chunk, "index": index[given]})


class MessagesRelay(ApiRelay):
    """Sends a Messages turn upstream (with overflow retries and owned-tool rounds) and relays its answer."""

    def read_whole(self, data: dict[str, Any]) -> None:
        self.turn.usage = usage_of(data.get("usage"))
        self.turn.reply = reply_of(data.get("content"))

    def watch(self) -> Any:
        return MessagesWatch()

    def stream_error(self, message: str, code: str) -> bytes:
        return error_event(message, code)

    def rounds(self, response: Response) -> Any:
        return MessagesRounds(self.turn, response, self.turn.owned, self._post, self.gw.in_thread, self.turn.guards)


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


def error_body(status: int, message: str, code: str) -> bytes:
    """The gateway's own error (a refusal, a limit, an upstream it could not reach) in the Messages shape."""
    kind = ERROR_TYPES.get(status, "api_error" if status >= 500 else "invalid_request_error")
    return dumps({"type": "error", "error": {"type": kind, "message": message, "code": code}})
