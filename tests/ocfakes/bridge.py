"""The plugin's side of the stdio bridge (``python -m context_compactor.bridge``), driven the way
``extension/openclaw/index.js`` drives it: JSON lines in, replies and ``llm.complete`` calls out."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any


class Child:
    """A bridge process and the plugin's side of the protocol."""

    def __init__(self, state: Path) -> None:
        env = {**os.environ, "OPENCLAW_STATE_DIR": str(state)}
        self.proc = subprocess.Popen([sys.executable, "-m", "context_compactor.bridge"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        self.next = 0
        self.calls: list[dict[str, Any]] = []

    def send(self, obj: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(obj) + "\n")
        self.proc.stdin.flush()

    def request(self, method: str, params: dict[str, Any], answer: Any = None, error: str = "no llm here") -> dict[str, Any]:
        """Send a request; answer the bridge's llm.complete calls with ``answer(params)`` until the reply
        (without ``answer``, with the plugin's error ``error``)."""
        self.next += 1
        self.send({"id": self.next, "method": method, "params": params})
        assert self.proc.stdout is not None
        while True:
            msg = json.loads(self.proc.stdout.readline())
            if "call" in msg:
                self.calls.append(msg)
                assert msg["for"] == self.next
                reply = answer(msg["params"]) if answer else {"message": error}
                key = "result" if answer else "error"
                self.send({"reply": msg["call"], key: reply})
                continue
            assert msg["id"] == self.next
            return msg

    def close(self) -> str:
        assert self.proc.stdin is not None and self.proc.stderr is not None
        self.proc.stdin.close()
        self.proc.wait(30)
        return self.proc.stderr.read()
