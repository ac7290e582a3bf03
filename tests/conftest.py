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


# Whole modules that take minutes (a real OpenClaw: every *_e2e.py; a real model) are slow, and so are the tests below
# that took 3 s or more each on a loaded 2-core machine (a real `openclaw config validate`, many
# generated examples, signals to a real server); a test can also carry @pytest.mark.slow itself.
# `pytest -m "not slow"` runs the rest in about a minute.
SLOW_MODULES = frozenset({
    "test_openclaw_e2e.py", "test_gateway_openclaw_e2e.py", "test_gateway_llama.py", "test_llm_real.py",
})
SLOW_TESTS = {
    "test_setup.py": {"test_doctor_reports", "test_foreign_engine_refused_without_force",
                      "test_uninstall_leaves_nothing_of_ours", "test_symlinked_config", "test_existing_entry_settings_kept",
                      "test_comments_and_trailing_commas_kept", "test_allowlist_gets_our_id", "test_empty_file",
                      "test_foreign_folder_moved_aside_and_restored", "test_second_run_changes_nothing",
                      "test_example_config_is_valid"},
    "test_json5.py": {"test_reads_what_the_json5_package_reads"},
    "test_prompts.py": {"test_content_never_becomes_structure"},
    "test_summaries_tiered.py": {"test_only_the_newest_closed_chunk_goes_to_the_model_each_once"},
    "test_gateway_cli.py": {"test_concurrent_streams_survive_a_sigterm", "test_serve_answers_and_stops_gracefully_on_sigterm"},
    "test_gateway_faults.py": {"test_a_hanging_session_does_not_hold_up_the_others"},
    "test_fit.py": {"test_every_prompt_fits_or_says_why"},
}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        name = getattr(item, "originalname", item.name)
        if (item.path.name in SLOW_MODULES or item.path.name.endswith("_e2e.py")
                or name in SLOW_TESTS.get(item.path.name, ())):
            item.add_marker(pytest.mark.slow)


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
