"""Hermes Agent's own plugin manager loads our plugin from its entry point, and Hermes's own
``apply_llm_request_middleware`` (what its agent loop calls before every provider request) sends the
projection: 30 turns with tool calls stay inside a 24k window while Hermes's history stays whole."""

from __future__ import annotations

import copy
import os
from pathlib import Path
from typing import Any

import pytest

from fakes.chat import count_tokens

if os.environ.get("CONTEXT_COMPACTOR_REQUIRE_HOSTS", "").find("hermes") < 0:
    pytest.importorskip("hermes_cli", reason="Hermes is tested in its own environment (pip install -e '.[test,hermes]')")

pytestmark = pytest.mark.slow

WINDOW = 24_000


@pytest.fixture
def hermes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """Hermes's plugin manager, with only our plugin enabled, in a fresh HERMES_HOME."""
    monkeypatch.setenv("HERMES_HOME", str(tmp_path))
    (tmp_path / "config.yaml").write_text(f"plugins:\n  enabled: [context-compactor]\n"
                                          f"context_compactor:\n  contextWindow: {WINDOW}\n")
    plugins = pytest.importorskip("hermes_cli.plugins")
    monkeypatch.setattr(plugins, "_plugin_manager", None)
    plugins.discover_plugins(force=True)
    yield pytest.importorskip("hermes_cli.middleware")
    monkeypatch.setattr(plugins, "_plugin_manager", None)


def _turn(history: list[dict[str, Any]], i: int) -> None:
    history.append({"role": "user", "content": f"turn {i}: read file src/m{i}.py and tell me what it does"})
    history.append({"role": "assistant", "content": "", "tool_calls": [
        {"id": f"call_{i}", "type": "function", "function": {"name": "read_file", "arguments": f'{{"path": "src/m{i}.py"}}'}}]})
    history.append({"role": "tool", "tool_call_id": f"call_{i}",
                    "content": "\n".join(f"def f{i}_{k}(x): return x * {k}  # helper {k} of module {i}" for k in range(80))})
    history.append({"role": "assistant", "content": f"Module m{i} defines 80 helpers f{i}_0..f{i}_79."})


def test_hermes_requests_stay_inside_the_window(hermes: Any) -> None:
    """30 turns with a tool call each: every request Hermes would send is inside 24k, max_tokens clamped,
    Hermes's own history untouched."""
    history: list[dict[str, Any]] = [{"role": "system", "content": "You are Hermes."}]
    tools = [{"type": "function", "function": {"name": "read_file", "description": "Read a file",
                                               "parameters": {"type": "object", "properties": {"path": {"type": "string"}}}}}]
    sizes, changed = [], 0
    for i in range(30):
        _turn(history, i)
        before = copy.deepcopy(history)
        request = {"model": "local", "messages": history, "tools": tools, "max_tokens": 65536}
        result = hermes.apply_llm_request_middleware(request, session_id="s1", platform="cli", api_mode="chat_completions",
                                                     task_id="t1", model="local")
        sent = result.payload
        sizes.append(count_tokens(sent, 3.5, 5))
        changed += result.changed
        assert history == before
        if result.changed:
            assert sent["max_tokens"] < WINDOW
    print(f"hermes: 30 requests, largest {max(sizes)} tokens (window {WINDOW}), {changed} compacted; "
          f"history {count_tokens({'messages': history}, 3.5, 5)} tokens")
    assert changed > 0
    assert max(sizes) < WINDOW


def test_hermes_other_apis_pass_through(hermes: Any) -> None:
    """An Anthropic-native request goes as Hermes built it."""
    history: list[dict[str, Any]] = []
    for i in range(30):
        _turn(history, i)
    request = {"model": "claude", "messages": history, "max_tokens": 65536}
    result = hermes.apply_llm_request_middleware(request, session_id="s2", api_mode="anthropic_messages")
    assert not result.changed
