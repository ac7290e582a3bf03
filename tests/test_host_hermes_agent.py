"""Hermes Agent itself (``run_agent.AIAgent``, its Python API), with our plugin and context engine,
against a fake llama.cpp-style server on 127.0.0.1 that refuses any prompt over a 24,000-token window:
26 turns that each read a file with Hermes's own ``read_file`` tool stay inside the window, Hermes's
history stays whole, and the model's ``recall_history`` call is answered from the archive. Without us
the same session overflows."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fakes.chat import tool_call
from fakes.harness import serve_upstream
from fakes.upstream import Behaviour, FakeUpstream

if os.environ.get("CONTEXT_COMPACTOR_REQUIRE_HOSTS", "").find("hermes") < 0:
    pytest.importorskip("run_agent", reason="Hermes is tested in its own environment (pip install -e '.[test,hermes]')")

pytestmark = pytest.mark.slow

WINDOW = 24_000
TURNS = 26  # the last one asks for something only the archive still holds
RECALL = "please recall what module 2 defined"


class FileReader(FakeUpstream):
    """A model that reads the file each user turn names with Hermes's ``read_file``, says what it read,
    and on ``RECALL`` calls ``recall_history``."""

    def __init__(self, workspace: Path) -> None:
        super().__init__(Behaviour(context_window=WINDOW, overflow_style="llama-server"))
        self.workspace = workspace

    def _reply(self, body: dict[str, Any], n: int) -> dict[str, Any]:
        last = body["messages"][-1]
        text = last.get("content") if isinstance(last.get("content"), str) else json.dumps(last.get("content"))
        if last.get("role") == "tool":
            return {"role": "assistant", "content": f"Read it: {text[:60]}"}
        if last.get("role") == "user" and text == RECALL:
            return tool_call(f"call_{n}", "recall_history", {"query": "module 2 helper"})
        if last.get("role") == "user" and " read " in text:
            return tool_call(f"call_{n}", "read_file", {"path": str(self.workspace / text.rsplit(" ", 1)[-1])})
        return {"role": "assistant", "content": "ok"}


@pytest.fixture
def hermes_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh HERMES_HOME and a workspace of 26 modules; Hermes's plugin manager rebuilt around it."""
    home, workspace = tmp_path / "hermes", tmp_path / "work"
    home.mkdir()
    workspace.mkdir()
    for i in range(TURNS):
        (workspace / f"m{i}.py").write_text("\n".join(f"def f{i}_{k}(x): return x * {k}  # helper {k} of module {i}"
                                                       for k in range(80)))
    monkeypatch.setenv("HERMES_HOME", str(home))
    monkeypatch.setenv("TERMINAL_CWD", str(workspace))
    plugins = pytest.importorskip("hermes_cli.plugins")
    monkeypatch.setattr(plugins, "_plugin_manager", None)
    yield home
    monkeypatch.setattr(plugins, "_plugin_manager", None)


def _config(home: Path, ours: bool, window: int = WINDOW) -> None:
    # Hermes refuses any window under 64k at startup: it is told 64k, we are told the real one.
    plugin = "[context-compactor]" if ours else "[]"
    engine = "context-compactor" if ours else "compressor"
    (home / "config.yaml").write_text(f"model:\n  context_length: 65536\nplugins:\n  enabled: {plugin}\n"
                                      f"context:\n  engine: {engine}\ncontext_compactor:\n  contextWindow: {window}\n")


def _session(app: FileReader, url: str) -> tuple[Any, list[dict[str, Any]], list[dict[str, Any]]]:
    """26 turns through ``AIAgent.run_conversation``; the agent, its history, and each turn's result."""
    from run_agent import AIAgent

    agent = AIAgent(base_url=f"{url}/v1", api_key="x", model="local", quiet_mode=True, skip_context_files=True,
                    skip_memory=True, enabled_toolsets=["file", "context_engine"])
    history: list[dict[str, Any]] = []
    results = []
    for i in range(TURNS):
        result = agent.run_conversation(RECALL if i == TURNS - 1 else f"turn {i}: read m{i}.py",
                                        conversation_history=history)
        history = result["messages"]
        results.append(result)
    return agent, history, results


def test_hermes_agent_holds_a_24k_window(hermes_home: Path) -> None:
    """26 turns with a tool call each: every request inside the window, history whole, recall answered."""
    _config(hermes_home, ours=True)
    app = FileReader(Path(os.environ["TERMINAL_CWD"]))
    with serve_upstream(app) as upstream:
        agent, history, results = _session(app, upstream.url)
    chats = app.chats()
    sizes = [seen.prompt_tokens for seen in chats]
    print(f"hermes agent: {len(chats)} requests, largest {max(sizes)} tokens (window {WINDOW})")
    assert type(agent.context_compressor).__name__ == "ContextCompactorEngine"
    assert all(seen.status == 200 for seen in chats) and max(sizes) < WINDOW
    assert not any(result["failed"] for result in results)
    users = [m["content"] for m in history if m["role"] == "user"]
    assert users[:-1] == [f"turn {i}: read m{i}.py" for i in range(TURNS - 1)]  # whole: nothing folded away
    assert sum(m["role"] == "tool" for m in history) == TURNS
    recalled = json.loads(history[-2]["content"])["result"]
    assert "helper 0 of module 2" in recalled  # only the archive holds module 2 by now
    sent = json.dumps(chats[-2].body["messages"])  # the request the model called recall_history from
    assert not re.search(r"helper 40 of module 2\b", sent)


def test_hermes_agent_without_us_overflows(hermes_home: Path) -> None:
    """The same session with Hermes's own compressor: the server refuses requests and turns fail."""
    _config(hermes_home, ours=False)
    app = FileReader(Path(os.environ["TERMINAL_CWD"]))
    with serve_upstream(app) as upstream:
        _, _, results = _session(app, upstream.url)
    assert any(seen.status == 400 for seen in app.chats())
    assert any(result["failed"] for result in results)


def test_hermes_agent_overflow_goes_through_our_compress(hermes_home: Path) -> None:
    """Told a window twice the server's, we let one request through that the server refuses: Hermes's
    error hook teaches us the window the refusal states, Hermes asks our engine to compress(), and the
    turn goes on; no turn fails and every request after the refusal fits."""
    _config(hermes_home, ours=True, window=2 * WINDOW)
    app = FileReader(Path(os.environ["TERMINAL_CWD"]))
    with serve_upstream(app) as upstream:
        agent, history, results = _session(app, upstream.url)
    statuses = [seen.status for seen in app.chats()]
    print(f"hermes agent, window said {2 * WINDOW}: statuses {statuses.count(200)} x 200, {statuses.count(400)} x 400; "
          f"{agent.context_compressor.compression_count} compress()")
    assert statuses.count(400) >= 1 and not any(result["failed"] for result in results)
    refused = statuses.index(400)
    assert all(seen.status == 200 and seen.prompt_tokens < WINDOW for seen in app.chats()[refused + 1:])
    assert agent.context_compressor.compression_count >= 1
