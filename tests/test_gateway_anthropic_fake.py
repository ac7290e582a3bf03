"""A fake model server that speaks the Anthropic Messages API (and chat completions, for summaries).

``POST /v1/messages`` answers a whole message or its event stream (message_start, content_block_*,
message_delta, message_stop), a ``tool_use`` when the request has tools and the last user text says
"use a tool"; it refuses a prompt over ``context_window`` tokens with llama.cpp's Anthropic-shaped
error. ``POST /v1/messages/count_tokens`` answers when ``count_route`` is on. Every request is recorded.
"""

from __future__ import annotations

import json
import math
from typing import Any

from fakes import FakeUpstream, Seen
from fakes.asgi import headers_of, read_body, send_events, send_json


def anthropic_tokens(body: dict[str, Any], chars_per_token: float = 3.5) -> int:
    """The fake's count: characters of the system text, every block's text or JSON, and the tools."""
    chars = len(json.dumps(body.get("system") or "", ensure_ascii=False))
    for message in body.get("messages") or []:
        content = message.get("content")
        chars += len(content) if isinstance(content, str) else len(json.dumps(content, ensure_ascii=False))
    if body.get("tools"):
        chars += len(json.dumps(body["tools"]))
    return math.ceil(chars / chars_per_token) + 5 * len(body.get("messages") or []) + 4


def last_user_text(body: dict[str, Any]) -> str:
    for message in reversed(body.get("messages") or []):
        if message.get("role") != "user":
            continue
        content = message.get("content")
        if isinstance(content, str):
            return content
        return " ".join(str(b.get("text", "")) for b in content if isinstance(b, dict) and b.get("type") == "text")
    return ""


def event(kind: str, data: dict[str, Any]) -> bytes:
    return f"event: {kind}\ndata: {json.dumps(data)}\n\n".encode()


class AnthropicUpstream(FakeUpstream):
    """The fake OpenAI server, plus ``/v1/messages`` (see the module docstring)."""

    count_route = True

    def messages(self) -> list[Seen]:
        with self._lock:
            return [r for r in self.requests if r.path == "/v1/messages"]

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http" or not scope["path"].startswith("/v1/messages"):
            await super().__call__(scope, receive, send)
            return
        raw = await read_body(receive)
        body = json.loads(raw)
        seen = Seen(scope["method"], scope["path"], headers_of(scope), body)
        with self._lock:
            self.requests.append(seen)
            self._n += 1
            n = self._n
        tokens = seen.prompt_tokens = anthropic_tokens(body, self.behaviour.chars_per_token)
        if scope["path"] == "/v1/messages/count_tokens":
            if self.count_route:
                await send_json(send, 200, {"input_tokens": tokens})
            else:
                await send_json(send, 404, {"error": "not found"})
            return
        window = self.behaviour.context_window
        if window is not None and tokens >= window:
            seen.status = 400
            await send_json(send, 400, {"type": "error", "error": {
                "type": "invalid_request_error", "message": f"request ({tokens} tokens) exceeds the available "
                f"context size ({window} tokens), try increasing it"}})
            return
        seen.status = 200
        text = last_user_text(body)
        if body.get("tools") and "use a tool" in text:
            block: dict[str, Any] = {"type": "tool_use", "id": f"toolu_{n:04d}", "name": body["tools"][0]["name"],
                                     "input": {"path": f"file{n}.py"}}
            stop = "tool_use"
        else:
            block = {"type": "text", "text": f"reply #{n} to: {text[:40]}"}
            stop = "end_turn"
        usage = {"input_tokens": tokens, "output_tokens": 7, "cache_read_input_tokens": 0}
        message = {"id": f"msg_{n}", "type": "message", "role": "assistant", "model": body.get("model"),
                   "content": [block], "stop_reason": stop, "stop_sequence": None, "usage": usage}
        if not body.get("stream"):
            await send_json(send, 200, message)
            return
        start = {**message, "content": [], "stop_reason": None, "usage": {**usage, "output_tokens": 1}}
        if block["type"] == "text":
            opening, delta = {"type": "text", "text": ""}, {"type": "text_delta", "text": block["text"]}
        else:
            opening = {**block, "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        await send_events(send, [
            event("message_start", {"type": "message_start", "message": start}),
            event("content_block_start", {"type": "content_block_start", "index": 0, "content_block": opening}),
            event("ping", {"type": "ping"}),
            event("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
            event("content_block_stop", {"type": "content_block_stop", "index": 0}),
            event("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                                    "usage": {"output_tokens": 7}}),
            event("message_stop", {"type": "message_stop"}),
        ])
