"""The plumbing every fake server here shares (standard library only): ports on 127.0.0.1, a
``with`` block that starts and stops a server, and the record of a request a fake received."""

from __future__ import annotations

import socket
import time
from dataclasses import dataclass, field
from typing import Any, Self


def free_port() -> int:
    """A port on 127.0.0.1 that nobody listens on (just now)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def listening_socket(port: int = 0) -> socket.socket:
    """A socket bound to 127.0.0.1:``port`` (0: any free one) and listening, for a server to serve on.

    It listens at once, so a client told the port (a benchmark reads ``PORT=n`` from a fake's output)
    is queued rather than refused while the server is still starting."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    sock.listen(2048)
    return sock


class LoopbackServer:
    """A server on 127.0.0.1 at ``port``: ``with Server(...) as server: httpx.get(server.url + "/v1/models")``."""

    port: int

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Self:
        raise NotImplementedError

    def stop(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


@dataclass
class Seen:
    """One request as a fake received it."""

    method: str
    path: str
    headers: dict[str, str]  # names in lower case
    body: Any  # the JSON, else the raw body
    at: float = field(default_factory=time.monotonic)
    prompt_tokens: int = 0
    status: int = 0
    disconnected: bool = False  # the client went away before the stream ended
    finished: bool = False  # the whole answer was sent
