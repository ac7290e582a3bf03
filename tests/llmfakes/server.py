"""A scripted HTTP server on 127.0.0.1 (stdlib ``http.server``, one thread per connection).

Each route maps to a :class:`Behaviour` or a list of them (taken in turn, the last one repeats):
a JSON answer, an HTTP error with headers, a hang, malformed JSON, a connection reset, or a body
trickled a few bytes at a time. Every request is recorded (method, path, headers, JSON body).
"""

from __future__ import annotations

import json
import socket
import struct
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self

from fakes.chat import chat_reply, sectioned
from fakes.loopback import LoopbackServer, Seen

__all__ = ["Behaviour", "FakeModelServer", "Seen", "chat_reply", "ollama_reply", "sectioned"]


def ollama_reply(text: str, done_reason: str = "stop") -> dict[str, Any]:
    return {"model": "fake", "created_at": "2026-01-01T00:00:00Z", "message": {"role": "assistant", "content": text},
            "done": True, "done_reason": done_reason, "prompt_eval_count": 100, "eval_count": 20}


@dataclass
class Behaviour:
    """What the server does with one request."""

    kind: str = "json"  # json | status | hang | malformed | reset | trickle
    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0  # seconds before answering (json) or between trickled bytes
    respond: Callable[[dict[str, Any]], Any] | None = None  # body from the request JSON

    @classmethod
    def ok(cls, body: Any, delay: float = 0.0) -> Behaviour:
        return cls("json", 200, body, delay=delay)

    @classmethod
    def error(cls, status: int, body: Any = None, **headers: str) -> Behaviour:
        return cls("status", status, body if body is not None else {"error": {"message": f"fake {status}"}},
                   {k.replace("_", "-"): v for k, v in headers.items()})


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def _serve(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = raw
        owner = self.server.owner
        owner.record(Seen(self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, body))
        behaviour = owner.next_for(self.path)
        if behaviour is None:
            return self._send(404, {"detail": "Not Found"})
        getattr(self, f"_do_{behaviour.kind}")(behaviour, body)

    do_GET = do_POST = _serve

    def _send(self, status: int, body: Any, headers: dict[str, str] | None = None) -> None:
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)

    def _do_json(self, b: Behaviour, body: Any) -> None:
        if b.delay:
            self.server.owner.stopping.wait(b.delay)
        self._send(b.status, b.respond(body) if b.respond else b.body, b.headers)

    def _do_status(self, b: Behaviour, body: Any) -> None:
        self._send(b.status, b.body, b.headers)

    def _do_hang(self, b: Behaviour, body: Any) -> None:
        self.server.owner.stopping.wait(b.delay or 60)
        self.close_connection = True

    def _do_malformed(self, b: Behaviour, body: Any) -> None:
        self._send(200, b.body if isinstance(b.body, bytes) else b'{"choices": [{"message": {"content": "cut')

    def _do_reset(self, b: Behaviour, body: Any) -> None:
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.connection.close()
        self.close_connection = True

    def _do_trickle(self, b: Behaviour, body: Any) -> None:
        data = json.dumps(b.body).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.flush()
        for i in range(len(data)):
            if self.server.owner.stopping.wait(b.delay or 0.2):
                break
            try:
                self.wfile.write(data[i:i + 1])
                self.wfile.flush()
            except OSError:
                break
        self.close_connection = True


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    owner: FakeModelServer


class FakeModelServer(LoopbackServer):
    """``with FakeModelServer({"/v1/chat/completions": Behaviour.ok(chat_reply("..."))}) as fake: fake.url``."""

    def __init__(self, routes: dict[str, Behaviour | list[Behaviour]] | None = None) -> None:
        self.routes: dict[str, list[Behaviour]] = {}
        for path, b in (routes or {}).items():
            self.route(path, b)
        self.requests: list[Seen] = []
        self.stopping = threading.Event()
        self._lock = threading.Lock()
        self._http = _Server(("127.0.0.1", 0), _Handler)
        self._http.owner = self
        self.port = int(self._http.server_address[1])
        self._thread = threading.Thread(target=self._http.serve_forever, kwargs={"poll_interval": 0.05},
                                        daemon=True, name=f"fake-model-{self.port}")

    def route(self, path: str, behaviour: Behaviour | list[Behaviour]) -> None:
        self.routes[path] = list(behaviour) if isinstance(behaviour, list) else [behaviour]

    def next_for(self, path: str) -> Behaviour | None:
        with self._lock:
            queue = self.routes.get(path.split("?")[0])
            if not queue:
                return None
            return queue.pop(0) if len(queue) > 1 else queue[0]

    def record(self, seen: Seen) -> None:
        with self._lock:
            self.requests.append(seen)

    def seen(self, path: str) -> list[Seen]:
        with self._lock:
            return [r for r in self.requests if r.path.split("?")[0] == path]

    def start(self) -> Self:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.stopping.set()
        self._http.shutdown()
        self._http.server_close()
        self._thread.join(5)
