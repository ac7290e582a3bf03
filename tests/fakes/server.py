"""Run any ASGI application on uvicorn, on 127.0.0.1, in a background thread: a real server on a
real socket, started and stopped by the test that owns it."""

from __future__ import annotations

import threading
import time
from typing import Any, Self

import uvicorn

from .loopback import LoopbackServer, free_port, listening_socket

__all__ = ["ServerThread", "free_port"]


class ServerThread(LoopbackServer):
    """``with ServerThread(app) as server: httpx.get(server.url + "/v1/models")``."""

    def __init__(self, app: Any, *, graceful: float = 1.0, lifespan: str = "auto") -> None:
        self.app = app
        self.sock = listening_socket()
        self.port = int(self.sock.getsockname()[1])
        config = uvicorn.Config(app, loop="asyncio", http="httptools", lifespan=lifespan, log_level="critical",
                                access_log=False, timeout_graceful_shutdown=max(1, round(graceful)))
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True,
                                       name=f"asgi-{self.port}")

    def start(self) -> Self:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError(f"the test server on port {self.port} did not start")
            time.sleep(0.01)
        return self

    def stop(self, timeout: float = 10.0) -> None:
        """Graceful stop (in-flight requests get the grace period), then a forced one."""
        self.server.should_exit = True
        self.thread.join(timeout)
        if self.thread.is_alive():
            self.server.force_exit = True
            self.thread.join(5)
        self.sock.close()
