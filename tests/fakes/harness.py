"""Running the real gateway in front of a fake upstream, on loopback, for a test.

    with fake_upstream() as up, gateway_for(up.url, tmp_path, settings={"contextWindow": 4000}) as gw:
        client = sdk(gw.url)
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import openai

from context_compactor.gateway import Gateway, GatewayConfig
from context_compactor.runtime import Runtime
from context_compactor.settings import Settings
from context_compactor.store import Store

from .server import ServerThread
from .upstream import Behaviour, FakeUpstream


@dataclass
class _Served:
    """A running server and what a test reaches it at: ``url``."""

    server: ServerThread

    @property
    def url(self) -> str:
        return self.server.url


@dataclass
class Upstream(_Served):
    app: FakeUpstream

    @property
    def behaviour(self) -> Behaviour:
        return self.app.behaviour


@dataclass
class RunningGateway(_Served):
    app: Gateway
    runtime: Runtime


@contextmanager
def serve_upstream(app: FakeUpstream) -> Iterator[Upstream]:
    """``app`` (a :class:`FakeUpstream`, or a scripted subclass) on uvicorn in a thread; stopped after."""
    server = ServerThread(app).start()
    try:
        yield Upstream(server=server, app=app)
    finally:
        app.closing = True
        server.stop()


@contextmanager
def fake_upstream(**behaviour: Any) -> Iterator[Upstream]:
    with serve_upstream(FakeUpstream(Behaviour(**behaviour))) as upstream:
        yield upstream


def sdk(url: str, timeout: float = 30) -> openai.OpenAI:
    """The openai SDK pointed at the server at ``url``, without its retries (a test sees every failure)."""
    return openai.OpenAI(base_url=url + "/v1", api_key="unused", max_retries=0, timeout=timeout)


@contextmanager
def gateway_for(upstream_url: str, tmp_path: Path, *, settings: dict[str, Any] | None = None,
                **config: Any) -> Iterator[RunningGateway]:
    """The gateway app on uvicorn in a thread, its store under ``tmp_path``; stopped and closed after."""
    runtime = Runtime(Settings(**(settings or {})), store=Store.open(tmp_path / "gateway-store.sqlite"))
    config.setdefault("upstream", upstream_url.rstrip("/") + "/v1")
    app = Gateway(GatewayConfig(**config), runtime)
    server = ServerThread(app, graceful=config.get("shutdown_grace", 1.0), lifespan="on").start()
    try:
        yield RunningGateway(server=server, app=app, runtime=runtime)
    finally:
        server.stop()
        runtime.close()
