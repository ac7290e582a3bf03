"""A fake OpenAI-compatible model server that speaks the real protocol over a real socket.

It answers ``POST /v1/chat/completions`` (JSON or server-sent events), ``GET /v1/models`` and
``POST /extras/tokenize/count``, records every request, and can be told to misbehave the way real
local servers do:

- enforce a context window, counting tokens at ``chars_per_token`` plus a chat-template overhead,
  and answer an overflow in the shape of llama-cpp-python (400 JSON; an empty 200 event stream when
  streaming), the llama.cpp server, Ollama, vLLM, LM Studio or OpenAI (also its newer wording that
  states no size, "openai-no-size");
- ignore ``stream_options`` (llama-cpp-python does); answer every request with a status (500);
- hang before answering or mid-stream; reset the connection mid-stream; end a stream early; stream
  slowly (the delay before the first event can also be set per request, header
  ``X-Fake-First-Chunk-Delay: <seconds>``).

What it answers is a tool call when the request has tools and the last user message says "use a
tool", else the text of ``Behaviour.respond(body, n)``, else ``Behaviour.reply``, else
"reply #n to: <start of the last user message>".

    python -m fakes.upstream --port 0        # from tests/; prints "PORT=<n>" once it listens
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .asgi import headers_of, lifespan, read_body, send_json
from .chat import DONE, chunk, completion, count_tokens, models_list, sse, text_of, tool_call, usage
from .loopback import Seen, listening_socket

OVERFLOW_STYLES = ("llama-cpp-python", "llama-server", "ollama", "vllm", "lmstudio", "openai")  # all state the sizes


@dataclass
class Behaviour:
    """What the fake does; tests change it between requests."""

    context_window: int | None = None
    chars_per_token: float = 3.5
    template_tokens_per_message: int = 5
    overflow_style: str = "llama-cpp-python"
    overflow_in_stream: bool = False  # streaming: the overflow error as an event of a 200 stream (LM Studio)
    honor_stream_options: bool = True
    status: int | None = None  # answer every chat request with this error status
    hang: bool = False  # never answer a chat request
    hang_sessions: set[str] = field(default_factory=set)  # never answer requests with these X-Session-Id values
    hang_after_chunks: int | None = None  # stream this many chunks, then go silent
    reset_after_chunks: int | None = None  # stream this many chunks, then break the connection
    end_after_chunks: int | None = None  # stream this many chunks, then end the body (no finish, no [DONE])
    first_chunk_delay: float = 0.0
    chunk_delay: float = 0.0
    reply: str | None = None  # default: "reply #n to: <start of the last user message>"
    respond: Callable[[dict[str, Any], int], str] | None = None  # the reply's text from the request body and its number
    model_id: str = "fake-model"
    model_fields: dict[str, Any] = field(default_factory=dict)  # extra fields of the /v1/models entry


def overflow_body(style: str, window: int, tokens: int) -> tuple[int, dict[str, Any]]:
    """The status and body a real server of ``style`` answers for a prompt of ``tokens`` > ``window``."""
    llama_server = {"error": {"code": 400, "message": f"request ({tokens} tokens) exceeds the available context size "
                              f"({window} tokens), try increasing it", "type": "exceed_context_size_error",
                              "n_prompt_tokens": tokens, "n_ctx": window}}
    bodies: dict[str, dict[str, Any]] = {
        "llama-cpp-python": {"error": {"message": f"This model's maximum context length is {window} tokens. However, you "
                                       f"requested {tokens} tokens ({tokens} in the messages, None in the completion). "
                                       "Please reduce the length of the messages or completion.",
                                       "type": "invalid_request_error", "param": "messages",
                                       "code": "context_length_exceeded"}},
        "llama-server": llama_server,
        "ollama": {"error": json.dumps(llama_server)},
        "vllm": {"object": "error", "message": f"This model's maximum context length is {window} tokens. However, you "
                 f"requested {tokens} tokens ({tokens} in the messages, 0 in the completion). Please reduce the length "
                 "of the messages or completion.", "type": "BadRequestError", "param": None, "code": 400},
        "lmstudio": {"error": f"Trying to keep the first {tokens} tokens when context the overflows. However, the model "
                     f"is loaded with context length of only {window} tokens, which is not enough. Try to load the "
                     "model with a larger context length, or provide a shorter input"},
        "openai": {"error": {"message": f"This model's maximum context length is {window} tokens. However, your "
                             f"messages resulted in {tokens} tokens. Please reduce the length of the messages.",
                             "type": "invalid_request_error", "param": "messages", "code": "context_length_exceeded"}},
        "openai-no-size": {"error": {"message": "Your input exceeds the context window of this model. Please adjust "
                                     "your input and try again.", "type": "invalid_request_error", "param": "input",
                                     "code": "context_length_exceeded"}},
    }
    return 400, bodies[style]


class FakeUpstream:
    """The ASGI application of the fake model server."""

    def __init__(self, behaviour: Behaviour | None = None, *, record: bool = True) -> None:
        self.behaviour = behaviour or Behaviour()
        self.record = record
        self.requests: list[Seen] = []
        self.closing = False
        self._lock = threading.Lock()
        self._n = 0

    def chats(self) -> list[Seen]:
        with self._lock:
            return [r for r in self.requests if r.path.endswith("/chat/completions")
                    and r.headers.get("x-context-compactor-purpose") != "summary"]

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            await lifespan(receive, send, on_shutdown=self._close)
            return
        raw = await read_body(receive)
        headers = headers_of(scope)
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = raw.decode("utf-8", "replace")
        seen = Seen(scope["method"], scope["path"], headers, body)
        with self._lock:
            if self.record:
                self.requests.append(seen)
            self._n += 1
            n = self._n
        path = scope["path"]
        if path == "/v1/models":
            await self._json(send, seen, 200, models_list(self.behaviour.model_id, **self.behaviour.model_fields))
        elif path == "/extras/tokenize/count" and isinstance(body, dict):
            await self._json(send, seen, 200, {"count": math.ceil(len(str(body.get("input", ""))) / self.behaviour.chars_per_token)})
        elif path in ("/v1/chat/completions", "/chat/completions") and scope["method"] == "POST":
            await self._chat(receive, send, seen, body, n)
        else:
            await self._json(send, seen, 404, {"detail": "Not Found"})

    def _close(self) -> None:
        self.closing = True

    async def _json(self, send: Any, seen: Seen, status: int, data: Any) -> None:
        seen.status = status
        await send_json(send, status, data, sized=True)

    async def _sleep_until_closed(self, seconds: float = 3600, gone: Any = None) -> bool:
        """Sleep until the server stops (or the client leaves, when ``gone`` is given); True if it left."""
        end = time.monotonic() + seconds
        while not self.closing and time.monotonic() < end:
            if gone is not None and gone.done():
                return True
            await asyncio.sleep(0.02)
        return False

    async def _chat(self, receive: Any, send: Any, seen: Seen, body: Any, n: int) -> None:
        b = self.behaviour
        if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
            await self._json(send, seen, 422, {"detail": "messages missing"})
            return
        tokens = seen.prompt_tokens = count_tokens(body, b.chars_per_token, b.template_tokens_per_message)
        if b.hang or seen.headers.get("x-session-id") in b.hang_sessions:
            await self._sleep_until_closed()
            return
        if b.status is not None:
            await self._json(send, seen, b.status, {"error": {"message": f"fake upstream error {b.status}",
                                                              "type": "internal_server_error", "param": None, "code": None}})
            return
        stream = bool(body.get("stream"))
        if b.context_window is not None and tokens >= b.context_window:
            if stream and b.overflow_style == "llama-cpp-python":  # the error happens after the headers
                seen.status = 200
                await send({"type": "http.response.start", "status": 200,
                            "headers": [(b"content-type", b"text/event-stream; charset=utf-8")]})
                await send({"type": "http.response.body", "body": b""})
                return
            status, error = overflow_body(b.overflow_style, b.context_window, tokens)
            if stream and b.overflow_in_stream:
                seen.status = 200
                await send({"type": "http.response.start", "status": 200,
                            "headers": [(b"content-type", b"text/event-stream")]})
                await send({"type": "http.response.body", "body": sse(error)})
                return
            await self._json(send, seen, status, error)
            return
        reply = self._reply(body, n)
        counted = usage(tokens, len(str(reply.get("content") or "").split()) or 1)
        if stream:
            await self._stream(receive, send, seen, body, reply, counted)
            return
        finish = "tool_calls" if reply.get("tool_calls") else "stop"
        await self._json(send, seen, 200, completion(reply, id=f"chatcmpl-fake-{n}", model=body.get("model", b.model_id),
                                                     created=int(time.time()), finish=finish, usage=counted))

    def _reply(self, body: dict[str, Any], n: int) -> dict[str, Any]:
        messages = body["messages"]
        last = messages[-1] if messages else {}
        tools = body.get("tools") or []
        if tools and last.get("role") == "user" and "use a tool" in text_of(last.get("content")):
            return tool_call(f"call_{n}", tools[0].get("function", {}).get("name", "tool"), {"n": n})
        if self.behaviour.respond is not None:
            return {"role": "assistant", "content": self.behaviour.respond(body, n)}
        if self.behaviour.reply is not None:
            return {"role": "assistant", "content": self.behaviour.reply}
        users = [m for m in messages if m.get("role") == "user"]
        start = text_of(users[-1].get("content"))[:40] if users else ""
        return {"role": "assistant", "content": f"reply #{n} to: {start}"}

    async def _stream(self, receive: Any, send: Any, seen: Seen, body: dict[str, Any], reply: dict[str, Any],
                      counted: dict[str, int]) -> None:
        b = self.behaviour
        seen.status = 200
        base = {"id": f"chatcmpl-fake-{self._n}", "model": body.get("model", b.model_id), "created": int(time.time())}
        deltas: list[dict[str, Any]] = [{"role": "assistant"}]
        if reply.get("tool_calls"):  # each call: its name and id, then its arguments
            for i, call in enumerate(reply["tool_calls"]):
                deltas.append({"tool_calls": [{"index": i, "id": call["id"], "type": "function",
                                               "function": {"name": call["function"]["name"], "arguments": ""}}]})
                deltas.append({"tool_calls": [{"index": i, "function": {"arguments": call["function"]["arguments"]}}]})
        else:
            words = str(reply["content"]).split(" ")
            deltas += [{"content": w if i == 0 else " " + w} for i, w in enumerate(words)]
        finish = "tool_calls" if reply.get("tool_calls") else "stop"
        events = [chunk(base, d) for d in deltas] + [chunk(base, {}, finish)]
        options = body.get("stream_options")
        if b.honor_stream_options and isinstance(options, dict) and options.get("include_usage"):
            events.append({**base, "object": "chat.completion.chunk", "choices": [], "usage": counted})
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"text/event-stream; charset=utf-8"), (b"cache-control", b"no-cache")]})
        first_delay = float(seen.headers.get("x-fake-first-chunk-delay") or b.first_chunk_delay)
        if first_delay:
            await asyncio.sleep(first_delay)
        gone = asyncio.ensure_future(receive())  # completes with http.disconnect if the client leaves
        try:
            await self._events(send, seen, events, gone)
        finally:
            gone.cancel()

    async def _events(self, send: Any, seen: Seen, events: list[dict[str, Any]], gone: Any) -> None:
        b = self.behaviour
        for i, event in enumerate(events):
            if gone.done():
                seen.disconnected = True
                return
            if b.reset_after_chunks is not None and i >= b.reset_after_chunks:
                raise ConnectionResetError("fake upstream: simulated reset mid-stream")
            if b.end_after_chunks is not None and i >= b.end_after_chunks:
                await send({"type": "http.response.body", "body": b"", "more_body": False})
                return
            if b.hang_after_chunks is not None and i >= b.hang_after_chunks:
                seen.disconnected = await self._sleep_until_closed(gone=gone)
                return
            if i and b.chunk_delay:
                await asyncio.sleep(b.chunk_delay)
            await send({"type": "http.response.body", "body": sse(event), "more_body": True})
        if gone.done():
            seen.disconnected = True
            return
        await send({"type": "http.response.body", "body": DONE, "more_body": False})
        seen.finished = True


def main(argv: list[str] | None = None) -> int:
    """Run the fake as its own process (for benchmarks): prints ``PORT=<n>`` once it listens."""
    import uvicorn

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--window", type=int, default=None, help="enforce this context window")
    parser.add_argument("--chunk-delay", type=float, default=0.0)
    parser.add_argument("--first-chunk-delay", type=float, default=0.0)
    parser.add_argument("--reply", default=None)
    args = parser.parse_args(argv)
    app = FakeUpstream(Behaviour(context_window=args.window, chunk_delay=args.chunk_delay,
                                 first_chunk_delay=args.first_chunk_delay, reply=args.reply), record=False)
    sock = listening_socket(args.port)
    print(f"PORT={sock.getsockname()[1]}", flush=True)
    config = uvicorn.Config(app, loop="uvloop", http="httptools", log_level="critical", access_log=False, backlog=2048)
    uvicorn.Server(config).run(sockets=[sock])
    return 0


if __name__ == "__main__":
    sys.exit(main())
