"""Shared fixtures: a fresh plugin manager and runtime per test, the gateway home in tmp_path."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "examples"))

from context_compactor.hookspecs import BeforeAgentStartEvent, HookContext, ModelInfo  # noqa: E402
from context_compactor.plugins import get_plugin_manager  # noqa: E402
from context_compactor.runtime import Runtime  # noqa: E402
from context_compactor.settings import Settings  # noqa: E402
from context_compactor.store import Store  # noqa: E402
from fakes.harness import Upstream, serve_upstream  # noqa: E402
from fakes.upstream import FakeUpstream  # noqa: E402
from ocfakes.bridge import Child  # noqa: E402
from ocfakes.openclaw import ENV_SCRIPT, INSTALL_HINT, Gateway, openclaw_path  # noqa: E402


def need(available: bool, what: str) -> None:
    """Skip when a real part is missing locally; in CI (CONTEXT_COMPACTOR_REQUIRE_ALL=1) fail instead."""
    if available:
        return
    if os.environ.get("CONTEXT_COMPACTOR_REQUIRE_ALL") == "1":
        pytest.fail(f"{what} is required in CI but missing: .ci/run should have installed it")
    how = INSTALL_HINT if "openclaw" in what.lower() else ".ci/run installs it"
    pytest.skip(f"{what} not installed here ({how})")


@pytest.fixture(autouse=True)
def _fresh_logging() -> Any:
    """Every test starts with structlog's defaults: a CLI run in-process must not leak its stderr binding."""
    import structlog

    structlog.reset_defaults()
    yield
    structlog.reset_defaults()


@pytest.fixture
def pm() -> Any:
    """The built-in hooks only: an extension installed on this machine must not change what a test sees."""
    return get_plugin_manager(load_entry_points=False)


@pytest.fixture
def make_runtime(tmp_path: Path) -> Any:
    made: list[Runtime] = []

    def make(**options: Any) -> Runtime:
        settings = Settings(**options)
        runtime = Runtime(settings, store=Store.open(tmp_path / f"store{len(made)}.sqlite"))
        made.append(runtime)
        return runtime

    yield make
    for runtime in made:
        runtime.close()


@pytest.fixture
def run_hook(pm: Any) -> Any:
    """Call before_agent_start like a host would; returns the result (or None)."""

    def run(runtime: Runtime, messages: list[dict[str, Any]], *, session: str = "s1", window: int | None = None,
            tools: list[dict[str, Any]] | None = None, system_prompt: str = "", model: str = "test/model") -> Any:
        info = ModelInfo(id=model, context_window=window)
        ctx = HookContext(session_key=session, runtime=runtime, model=info)
        event = BeforeAgentStartEvent(messages=messages, system_prompt=system_prompt, tools=tools or [], model=info)
        return pm.hook.before_agent_start(event=event, ctx=ctx)

    return run


@pytest.fixture
def child(tmp_path: Path) -> Iterator[Child]:
    """A bridge process (its state under tmp_path) and the plugin's side of its protocol; closed after."""
    c = Child(tmp_path)
    yield c
    if c.proc.poll() is None:
        c.close()


@pytest.fixture
def openclaw_world(tmp_path: Path) -> Iterator[Callable[[FakeUpstream], tuple[Gateway, Upstream]]]:
    """``openclaw_world(model)``: an isolated OpenClaw under tmp_path (:class:`ocfakes.openclaw.Gateway`) and
    ``model`` served on loopback, recording every request; OpenClaw's processes and the model stopped after."""
    with ExitStack() as stack:

        def make(model: FakeUpstream) -> tuple[Gateway, Upstream]:
            path = openclaw_path()
            need(path is not None, f"OpenClaw (installed by {ENV_SCRIPT})")
            assert path is not None
            gw = Gateway(tmp_path, path)
            upstream = stack.enter_context(serve_upstream(model))
            stack.callback(gw.close)  # first: OpenClaw's gateway and bridges, then the model
            return gw, upstream

        yield make
