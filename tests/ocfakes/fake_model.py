"""A fake OpenAI-compatible model server on loopback that records every request it gets.

    python tests/ocfakes/fake_model.py --port 0 --log requests.jsonl    (prints "PORT <n>" when ready)

``POST /v1/chat/completions`` answers as a stream (server-sent events) or as one JSON object, and
appends ``{"n", "kind", "body"}`` to the log, one line per request. ``kind`` says who asked:

    "summary"           context-compactor's summarizer (its system prompt): six ``##`` sections
    "openclaw-summary"  OpenClaw's own compaction summarizer: the headings it asks for
    "agent"             an agent turn (the request carries tools): a short "reply #n" text
    "other"             anything else: a short text

Usage is reported as characters / 4. ``GET /v1/models`` lists one model. No tool calls: the
end-to-end test drives tool-free turns.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

SECTIONS = ("Goal and standing instructions", "Decisions", "Files and commands", "Failed attempts",
            "Current state", "Next steps")


def text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return " ".join(str(b.get("text", "")) for b in content if isinstance(b, dict))
    return ""


def classify(body: dict[str, Any]) -> str:
    messages = body.get("messages") or []
    system = " ".join(text_of(m.get("content")) for m in messages if m.get("role") in ("system", "developer"))
    if "You maintain the working memory" in system:
        return "summary"
    if "context summarization assistant" in system:
        return "openclaw-summary"
    return "agent" if body.get("tools") else "other"


def reply_text(kind: str, body: dict[str, Any], n: int) -> str:
    messages = body.get("messages") or []
    last_user = next((text_of(m.get("content")) for m in reversed(messages) if m.get("role") == "user"), "")
    if kind == "summary":
        return "\n".join(f"## {title}\n- FAKE-SUMMARY item {i} (request {n})" for i, title in enumerate(SECTIONS))
    if kind == "openclaw-summary":
        heads = [line.strip() for line in last_user.splitlines() if line.strip().startswith("## ")]
        return "\n\n".join(f"{h}\n- fake item" for h in dict.fromkeys(heads)) or "## Summary\n- fake"
    return f"reply #{n}: ok"


class Handler(BaseHTTPRequestHandler):
    server: Server

    def log_message(self, *args: Any) -> None:
        pass

    def _json(self, code: int, obj: Any) -> None:
        raw = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def do_GET(self) -> None:
        if self.path.rstrip("/").endswith("/models"):
            self._json(200, {"object": "list", "data": [{"id": "fake-model", "object": "model"}]})
        else:
            self._json(404, {"error": {"message": "not found"}})

    def do_POST(self) -> None:
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {}
        if not self.path.rstrip("/").endswith("/chat/completions"):
            self._json(404, {"error": {"message": "not found"}})
            return
        n, kind = self.server.record(body)
        text = reply_text(kind, body, n)
        chars = len(json.dumps(body.get("messages") or [])) + len(json.dumps(body.get("tools") or []))
        usage = {"prompt_tokens": chars // 4, "completion_tokens": max(1, len(text) // 4),
                 "total_tokens": chars // 4 + max(1, len(text) // 4)}
        head = {"id": f"chatcmpl-{n}", "created": int(time.time()), "model": body.get("model") or "fake-model"}
        if not body.get("stream"):
            self._json(200, {**head, "object": "chat.completion", "usage": usage, "choices": [
                {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}]})
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Connection", "close")
        self.end_headers()
        chunks = [{"role": "assistant", "content": ""}, {"content": text}]
        for i, delta in enumerate(chunks + [{}]):
            event = {**head, "object": "chat.completion.chunk",
                     "choices": [{"index": 0, "delta": delta, "finish_reason": "stop" if i == len(chunks) else None}]}
            self.wfile.write(b"data: " + json.dumps(event).encode() + b"\n\n")
        self.wfile.write(b"data: " + json.dumps({**head, "object": "chat.completion.chunk", "choices": [],
                                                  "usage": usage}).encode() + b"\n\n")
        self.wfile.write(b"data: [DONE]\n\n")
        self.wfile.flush()


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, port: int, log: str) -> None:
        super().__init__(("127.0.0.1", port), Handler)
        self.log, self.count, self.lock = log, 0, threading.Lock()

    def record(self, body: dict[str, Any]) -> tuple[int, str]:
        kind = classify(body)
        with self.lock:
            self.count += 1
            with open(self.log, "a", encoding="utf-8") as handle:
                handle.write(json.dumps({"n": self.count, "ts": time.time(), "kind": kind, "body": body}) + "\n")
            return self.count, kind


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--log", required=True)
    args = parser.parse_args()
    server = Server(args.port, args.log)
    print(f"PORT {server.server_address[1]}", flush=True)
    server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
