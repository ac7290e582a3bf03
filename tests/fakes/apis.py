"""A fake model server that speaks the Anthropic Messages and the OpenAI Responses APIs (and chat
completions, for summaries), on real sockets, recording every request.

``POST /v1/messages`` and ``POST /v1/responses`` answer a whole answer or its event stream;
``/v1/messages/count_tokens`` and ``/v1/responses/input_tokens`` count (when ``count_route`` is on).
A prompt over ``behaviour.context_window`` tokens is refused with llama.cpp's error. What the model
answers is :meth:`ApisUpstream.decide`, over a neutral view of the request (:class:`Asked`): by default
a call of the first tool when the last user text says "use a tool", else a text reply that quotes it;
scripted models override it.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

from .asgi import headers_of, read_body, send_events, send_json
from .loopback import Seen
from .upstream import FakeUpstream


def anthropic_tokens(body: dict[str, Any], chars_per_token: float = 3.5) -> int:
    """The fake's count of a Messages request: the system, every block's text or JSON, and the tools."""
    chars = len(json.dumps(body.get("system") or "", ensure_ascii=False))
    for message in body.get("messages") or []:
        content = message.get("content")
        chars += len(content) if isinstance(content, str) else len(json.dumps(content, ensure_ascii=False))
    if body.get("tools"):
        chars += len(json.dumps(body["tools"]))
    return math.ceil(chars / chars_per_token) + 5 * len(body.get("messages") or []) + 4


def responses_tokens(body: dict[str, Any], chars_per_token: float = 3.5) -> int:
    """The fake's count of a Responses request: the input, the instructions and the tools. A character is one
    character, as in :func:`anthropic_tokens` (a tokenizer reads the text, not the ``\\uXXXX`` escapes JSON
    would write for it: six characters for each of the ledger's clip marks, a 3% overcount at 32k)."""
    chars = (len(json.dumps(body.get("input"), ensure_ascii=False)) + len(body.get("instructions") or "")
             + len(json.dumps(body.get("tools") or [])))
    return math.ceil(chars / chars_per_token)


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    return " ".join(str(b.get("text", "")) for b in content or [] if isinstance(b, dict) and "text" in b)


@dataclass
class Asked:
    """A request as the scripted model reads it, whatever its API."""

    api: str  # "messages" or "responses"
    tools: list[str]  # the tool names offered
    user: str  # the last user message's text
    result: tuple[str, str] | None = None  # (call id, text) when the request ends on a tool result
    thinking: bool = False  # a Messages request with thinking on
    body: dict[str, Any] = field(default_factory=dict)


def asked(api: str, body: dict[str, Any]) -> Asked:
    tools = [str(t.get("name") or (t.get("function") or {}).get("name") or "") for t in body.get("tools") or []
             if isinstance(t, dict)]
    if api == "messages":
        messages = body.get("messages") or []
        users = [m for m in messages if m.get("role") == "user"]
        user = next((_text(m.get("content")) for m in reversed(users) if _text(m.get("content"))), "")
        last = messages[-1] if messages else {}
        results = [b for b in last.get("content") or [] if isinstance(b, dict) and b.get("type") == "tool_result"] \
            if last.get("role") == "user" and isinstance(last.get("content"), list) else []
        result = (str(results[-1].get("tool_use_id")), _text(results[-1].get("content"))) if results else None
        thinking = isinstance(body.get("thinking"), dict) and body["thinking"].get("type") in ("enabled", "adaptive")
        return Asked(api, tools, user, result, thinking, body)
    items = body.get("input")
    items = [{"type": "message", "role": "user", "content": items}] if isinstance(items, str) else items or []
    user = next((_text(i.get("content")) for i in reversed(items) if i.get("role") == "user"
                 and i.get("type", "message") == "message"), "")
    last = items[-1] if items else {}
    result = None
    if str(last.get("type", "")).endswith("_output"):
        output = last.get("output")
        result = (str(last.get("call_id")), output if isinstance(output, str) else json.dumps(output))
    return Asked(api, tools, user, result, False, body)


def event(kind: str, data: dict[str, Any]) -> bytes:
    return f"event: {kind}\ndata: {json.dumps(data)}\n\n".encode()


class ApisUpstream(FakeUpstream):
    """The fake OpenAI server, plus ``/v1/messages`` and ``/v1/responses`` (see the module docstring)."""

    count_route = True
    thinking = False  # answer a Messages request with thinking on with a signed thinking block first

    def messages(self) -> list[Seen]:
        with self._lock:
            return [r for r in self.requests if r.path == "/v1/messages"]

    def responses(self) -> list[Seen]:
        with self._lock:
            return [r for r in self.requests if r.path == "/v1/responses"]

    def decide(self, ask: Asked, n: int) -> tuple[str, Any]:
        """``("text", text)``, ``("tool", (name, input))`` or ``("tools", [(name, input), ...])``: what the model
        answers to ``ask`` (Messages only for several calls)."""
        if ask.tools and "use a tool" in ask.user and ask.result is None:
            if ask.api == "messages":
                return "tool", (ask.tools[0], {"path": f"file{n}.py"})
            return "tool", ("shell", {"command": f"ls {n}"})
        return "text", f"reply #{n} to: {ask.user[:40]}" if ask.api == "messages" else \
            f"reply #{n} to: {json.dumps(ask.user)[:60]}"

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        path = scope.get("path", "")
        if scope["type"] != "http" or not path.startswith(("/v1/messages", "/v1/responses")):
            await super().__call__(scope, receive, send)
            return
        body = json.loads(await read_body(receive))
        seen = Seen(scope["method"], path, headers_of(scope), body)
        with self._lock:
            if self.record:
                self.requests.append(seen)
            self._n += 1
            n = self._n
        api = "messages" if path.startswith("/v1/messages") else "responses"
        count = anthropic_tokens if api == "messages" else responses_tokens
        tokens = seen.prompt_tokens = count(body, self.behaviour.chars_per_token)
        if path in ("/v1/messages/count_tokens", "/v1/responses/input_tokens"):
            if not self.count_route:
                await send_json(send, 404, {"error": "not found"})
            elif api == "messages":
                await send_json(send, 200, {"input_tokens": tokens})
            else:
                await send_json(send, 200, {"object": "response.input_tokens", "input_tokens": tokens})
            return
        window = self.behaviour.context_window
        if window is not None and tokens >= window:
            seen.status = 400
            message = (f"request ({tokens} tokens) exceeds the available context size ({window} tokens), "
                       "try increasing it")
            error = {"type": "error", "error": {"type": "invalid_request_error", "message": message}} \
                if api == "messages" else {"error": {"code": 400, "message": message, "type": "exceed_context_size_error"}}
            await send_json(send, 400, error)
            return
        seen.status = 200
        ask = asked(api, body)
        kind, what = self.decide(ask, n)
        if api == "messages":
            await self._message(send, body, ask, n, tokens, kind, what)
        else:
            await self._response(send, body, n, tokens, kind, what)

    async def _message(self, send: Any, body: dict[str, Any], ask: Asked, n: int, tokens: int, kind: str,
                       what: Any) -> None:
        blocks: list[dict[str, Any]] = []
        if ask.thinking and self.thinking:
            blocks.append({"type": "thinking", "thinking": f"thinking #{n}", "signature": f"sig-{n}"})
        if kind in ("tool", "tools"):
            calls = [what] if kind == "tool" else what
            blocks += [{"type": "tool_use", "id": f"toolu_{n:04d}" + (f"_{k}" if k else ""), "name": name, "input": value}
                       for k, (name, value) in enumerate(calls)]
            stop = "tool_use"
        else:
            blocks.append({"type": "text", "text": what})
            stop = "end_turn"
        usage = {"input_tokens": tokens, "output_tokens": 7, "cache_read_input_tokens": 0}
        message = {"id": f"msg_{n}", "type": "message", "role": "assistant", "model": body.get("model"),
                   "content": blocks, "stop_reason": stop, "stop_sequence": None, "usage": usage}
        if not body.get("stream"):
            await send_json(send, 200, message)
            return
        start = {**message, "content": [], "stop_reason": None, "usage": {**usage, "output_tokens": 1}}
        events = [event("message_start", {"type": "message_start", "message": start})]
        for index, block in enumerate(blocks):
            if block["type"] == "text":
                opening, delta = {"type": "text", "text": ""}, {"type": "text_delta", "text": block["text"]}
            elif block["type"] == "thinking":
                opening, delta = {"type": "thinking", "thinking": "", "signature": ""}, \
                    {"type": "thinking_delta", "thinking": block["thinking"]}
            else:
                opening = {**block, "input": {}}
                delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
            events += [event("content_block_start", {"type": "content_block_start", "index": index,
                                                     "content_block": opening}),
                       event("ping", {"type": "ping"}),
                       event("content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta})]
            if block["type"] == "thinking":
                events.append(event("content_block_delta", {"type": "content_block_delta", "index": index, "delta": {
                    "type": "signature_delta", "signature": block["signature"]}}))
            events.append(event("content_block_stop", {"type": "content_block_stop", "index": index}))
        events += [event("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                                           "usage": {"output_tokens": 7}}),
                   event("message_stop", {"type": "message_stop"})]
        await send_events(send, events)

    async def _response(self, send: Any, body: dict[str, Any], n: int, tokens: int, kind: str, what: Any) -> None:
        reasoning = {"type": "reasoning", "id": f"rs_{n}", "summary": [], "encrypted_content": f"enc-{n}"}
        if kind == "tool":
            item: dict[str, Any] = {"type": "function_call", "id": f"fc_{n}", "call_id": f"call_{n}", "name": what[0],
                                    "arguments": json.dumps(what[1]), "status": "completed"}
        else:
            item = {"type": "message", "id": f"msg_{n}", "role": "assistant", "status": "completed",
                    "content": [{"type": "output_text", "text": what, "annotations": []}]}
        usage = {"input_tokens": tokens, "output_tokens": 9, "total_tokens": tokens + 9,
                 "input_tokens_details": {"cached_tokens": 0}, "output_tokens_details": {"reasoning_tokens": 3}}
        whole = {"id": f"resp_{n}", "object": "response", "created_at": 1, "status": "completed",
                 "model": body.get("model"), "output": [reasoning, item], "usage": usage, "parallel_tool_calls": True,
                 "tool_choice": "auto", "tools": body.get("tools") or []}
        if not body.get("stream"):
            await send_json(send, 200, whole)
            return
        opening = {**whole, "status": "in_progress", "output": [], "usage": None}
        events: list[dict[str, Any]] = [
            {"type": "response.created", "response": opening},
            {"type": "response.output_item.added", "output_index": 0, "item": reasoning},
            {"type": "response.output_item.done", "output_index": 0, "item": reasoning},
            {"type": "response.output_item.added", "output_index": 1, "item": {**item, "status": "in_progress"}}]
        if kind == "text":
            common = {"item_id": item["id"], "output_index": 1, "content_index": 0}
            events += [{"type": "response.content_part.added", **common,
                        "part": {"type": "output_text", "text": "", "annotations": []}},
                       {"type": "response.output_text.delta", **common, "delta": what},
                       {"type": "response.output_text.done", **common, "text": what},
                       {"type": "response.content_part.done", **common, "part": item["content"][0]}]
        else:
            events.append({"type": "response.function_call_arguments.done", "item_id": item["id"], "output_index": 1,
                           "arguments": item["arguments"]})
        events += [{"type": "response.output_item.done", "output_index": 1, "item": item},
                   {"type": "response.completed", "response": whole}]
        await send_events(send, [f"event: {e['type']}\ndata: {json.dumps({**e, 'sequence_number': k})}\n\n".encode()
                                 for k, e in enumerate(events)])


def main(argv: list[str] | None = None) -> int:
    """Run the fake as its own process (for benchmarks): prints ``PORT=<n>`` once it listens."""
    import argparse

    import uvicorn

    from .loopback import listening_socket
    from .upstream import Behaviour

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--window", type=int, default=None, help="refuse prompts of this many tokens or more")
    parser.add_argument("--reply", default=None, help="the chat completions' reply text")
    parser.add_argument("--chunk-delay", type=float, default=0.0, help="chat streams: seconds between events")
    parser.add_argument("--first-chunk-delay", type=float, default=0.0, help="chat streams: seconds to the first")
    args = parser.parse_args(argv)
    app = ApisUpstream(Behaviour(context_window=args.window, reply=args.reply, chunk_delay=args.chunk_delay,
                                 first_chunk_delay=args.first_chunk_delay), record=False)
    sock = listening_socket(args.port)
    print(f"PORT={sock.getsockname()[1]}", flush=True)
    config = uvicorn.Config(app, loop="uvloop", http="httptools", log_level="critical", access_log=False, backlog=2048)
    uvicorn.Server(config).run(sockets=[sock])
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main())
