"""Hermes Agent's own plugin manager loads our plugin from its entry point, and Hermes's own
``apply_llm_request_middleware`` (what its agent loop calls before every provider request) sends the
projection: 30 turns with tool calls stay inside a 24k window while Hermes's history stays whole."""

from __future__ import annotations

import copy
import json
import os
import threading
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


def _engine(hermes: Any) -> Any:
    plugins = pytest.importorskip("hermes_cli.plugins")
    engine = plugins.get_plugin_context_engine()
    engine.update_model(model="local", context_length=65536, api_mode="chat_completions")
    engine.on_session_start("s3", platform="cli", model="local")
    return engine


def test_hermes_engine_survives_the_deep_copy(hermes: Any) -> None:
    """Hermes deep-copies the engine for every agent: the copy shares the host (its Compactors, stores and
    lock), and works after a session has opened a Compactor."""
    history: list[dict[str, Any]] = [{"role": "system", "content": "You are Hermes."}]
    for i in range(30):
        _turn(history, i)
    hermes.apply_llm_request_middleware({"model": "local", "messages": history}, session_id="s3", platform="cli",
                                        api_mode="chat_completions")
    engine = _engine(hermes)
    twin = copy.deepcopy(engine)
    assert twin is not engine and twin.host is engine.host
    assert twin.compress(history[1:]) == engine.compress(history[1:])
    assert type(twin).__mro__[1].__name__ == "CompactorEngine"


def test_hermes_engine_compress_is_the_requests_plan(hermes: Any) -> None:
    """compress() (overflow, /compress) returns what the middleware sent for the same history, minus the
    system prompt Hermes keeps apart; on chat completions Hermes is never asked to compress on its own."""
    history: list[dict[str, Any]] = [{"role": "system", "content": "You are Hermes."}]
    for i in range(30):
        _turn(history, i)
    sent = hermes.apply_llm_request_middleware({"model": "local", "messages": history}, session_id="s3",
                                               platform="cli", api_mode="chat_completions").payload
    engine = _engine(hermes)
    assert engine.compress(history[1:]) == sent["messages"][1:]
    assert not engine.should_compress(10**6)
    engine.update_model(model="claude", context_length=200_000, api_mode="anthropic_messages")
    assert engine.should_compress(WINDOW) and not engine.should_compress(1000)


def test_hermes_recall_tool_is_offered_and_answered(hermes: Any) -> None:
    """The engine offers recall_history as a bare function schema and answers it from the session's archive."""
    history: list[dict[str, Any]] = [{"role": "system", "content": "You are Hermes."}]
    for i in range(30):
        _turn(history, i)
    hermes.apply_llm_request_middleware({"model": "local", "messages": history}, session_id="s3", platform="cli",
                                        api_mode="chat_completions")
    engine = _engine(hermes)
    assert [schema["name"] for schema in engine.get_tool_schemas()] == ["recall_history"]
    answer = json.loads(engine.handle_tool_call("recall_history", {"query": "helper 7 of module 2"}))["result"]
    assert "helper 7 of module 2" in answer
    assert "error" in json.loads(engine.handle_tool_call("lcm_grep", {}))


def test_hermes_background_review_is_keyed_apart(hermes: Any) -> None:
    """A background review (Hermes's fork on its "bg-review" thread, with the parent's session id) gets a
    Compactor of its own: the parent's plan is not disturbed by the review's prompt."""
    history: list[dict[str, Any]] = [{"role": "system", "content": "You are Hermes."}]
    for i in range(30):
        _turn(history, i)
    request = {"model": "local", "messages": history}
    hermes.apply_llm_request_middleware(request, session_id="s4", platform="cli", api_mode="chat_completions")
    review = threading.Thread(target=hermes.apply_llm_request_middleware, name="bg-review", args=(
        {"model": "local", "messages": [*history, {"role": "user", "content": "Review the conversation above"}]},),
        kwargs={"session_id": "s4", "platform": "cli", "api_mode": "chat_completions"})
    review.start()
    review.join()
    engine = _engine(hermes)
    assert sorted(k for k in engine.host.compactors if ":s4" in k) == ["hermes:s4", "hermes:s4:review"]


def test_hermes_overflow_error_teaches_the_window(hermes: Any) -> None:
    """Hermes's api_request_error hook carries the server's refusal (llama.cpp's words): the next request
    is compacted to the size the server stated."""
    plugins = pytest.importorskip("hermes_cli.plugins")
    history: list[dict[str, Any]] = [{"role": "system", "content": "You are Hermes."}]
    for i in range(30):
        _turn(history, i)
    request = {"model": "local", "messages": history}
    hermes.apply_llm_request_middleware(request, session_id="s5", platform="cli", api_mode="chat_completions")
    plugins.invoke_hook("api_request_error", session_id="s5", platform="cli", error={
        "type": "BadRequestError", "message": "request (20100 tokens) exceeds the available context size "
                                              "(16000 tokens), try increasing it"})
    sent = hermes.apply_llm_request_middleware(request, session_id="s5", platform="cli",
                                               api_mode="chat_completions").payload
    assert count_tokens(sent, 3.5, 5) < 16000


def test_hermes_manual_compress_with_a_focus(hermes: Any) -> None:
    """/compress <focus> (force and a focus topic) compacts at once and brings what the focus names back
    into the block; Hermes's list itself is not changed."""
    history: list[dict[str, Any]] = [{"role": "system", "content": "You are Hermes."}]
    for i in range(30):
        _turn(history, i)
    hermes.apply_llm_request_middleware({"model": "local", "messages": history}, session_id="s6", platform="cli",
                                        api_mode="chat_completions")
    engine = _engine(hermes)
    engine.on_session_start("s6", platform="cli", model="local")
    live = history[1:]
    before = copy.deepcopy(live)
    out = engine.compress(live, force=True, focus_topic="helper 5 of module 1")
    assert live == before and len(out) < len(live)
    assert "helper 5 of module 1" in json.dumps(out[0])
    assert engine.compression_count == 1
