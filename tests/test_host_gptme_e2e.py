"""gptme itself, headless, with our plugin against a fake llama.cpp-style server on 127.0.0.1 that
refuses (in llama.cpp's words) any prompt over a 7,000-token window: many prompts with shell runs go
to the end with exit 0, every request inside the window, the master log whole, one view."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from fakes.harness import serve_upstream
from fakes.upstream import Behaviour, FakeUpstream

if os.environ.get("CONTEXT_COMPACTOR_REQUIRE_HOSTS", "").find("gptme") < 0:
    pytest.importorskip("gptme", reason="gptme is tested in its own environment (pip install -e '.[test,gptme]')")

pytestmark = pytest.mark.slow

WINDOW = 7000
PROMPTS = 24


def _respond(body: dict[str, Any], n: int) -> str:
    """A shell run for prompts that ask for one, else a reply long enough to grow the history."""
    last = body["messages"][-1]
    text = last.get("content") if isinstance(last.get("content"), str) else json.dumps(last.get("content"))
    if last.get("role") == "user" and "please run" in text:
        return f"Running it.\n```shell\nseq 1 {60 + n}\n```"
    return f"Reply {n}: " + " ".join(f"point-{n}-{k} noted about the build" for k in range(30))


def _gptme(tmp_path: Path, url: str, prompts: list[str], enabled: bool = True) -> subprocess.CompletedProcess[str]:
    plugin = f"[plugin.context-compactor]\nenabled = {'true' if enabled else 'false'}\ncontext_window = {WINDOW}\n"
    (tmp_path / "gptme.toml").write_text(plugin)  # the project's config: the workspace is tmp_path
    env = {**os.environ, "OPENAI_BASE_URL": f"{url}/v1", "OPENAI_API_KEY": "x", "HOME": str(tmp_path),
           "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "XDG_DATA_HOME": str(tmp_path / "data"), "XDG_STATE_HOME": str(tmp_path / "state"),
           "GPTME_NO_LOCAL_DISCOVERY": "1", "GPTME_TIKTOKEN_TIMEOUT": "0", "GPTME_CHECK_UPDATES": "0"}
    args = [sys.executable, "-m", "gptme", "-n", "-y", "--name", "run", "-m", "local/fake", "-t", "shell",
            "--workspace", str(tmp_path)]
    for i, prompt in enumerate(prompts):
        args += ([prompt] if i == 0 else ["-", prompt])
    return subprocess.run(args, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=600)


def _prompts() -> list[str]:
    return [f"step {i}: please run the counter" if i % 3 == 0 else f"step {i}: note this down about module m{i}"
            for i in range(PROMPTS)]


def test_gptme_holds_a_small_window(tmp_path: Path) -> None:
    """24 prompts (8 with shell runs) in a 7k window: exit 0, no request over it, master log whole, one
    view; then /compact-now and /context-stats, gptme commands, compact and tell what was sent."""
    app = FakeUpstream(Behaviour(context_window=WINDOW, overflow_style="llama-server", respond=_respond))
    with serve_upstream(app) as upstream:
        done = _gptme(tmp_path, upstream.url, [*_prompts(), "/compact-now", "/context-stats"])
    chats = app.chats()
    sizes = [seen.prompt_tokens for seen in chats]
    print(f"gptme: {len(chats)} requests, largest {max(sizes)} tokens (window {WINDOW}), statuses "
          f"{sorted({seen.status for seen in chats})}")
    assert done.returncode == 0, done.stderr[-3000:]
    assert all(seen.status == 200 for seen in chats), sizes
    assert max(sizes) < WINDOW
    logdir = tmp_path / "data" / "gptme" / "logs" / "run"
    master = [json.loads(line) for line in (logdir / "conversation.jsonl").read_text().splitlines()]
    users = [m["content"] for m in master if m["role"] == "user" and m["content"].startswith("step ")]
    assert users == _prompts()  # gptme's own nudges ("No tool call detected ...") are user messages too
    views = sorted(p.name for p in (logdir / "views").glob("*.jsonl"))
    assert views == ["context-compactor.jsonl"]
    assert "context-compactor: compacted" in done.stdout
    assert "context window: 7,000 tokens (from the config)" in done.stdout


def test_gptme_without_us_overflows(tmp_path: Path) -> None:
    """The same session with the plugin installed but not enabled: gptme alone hits the window (so
    the test above shows our work, and installing us changes nothing: not even our commands exist)."""
    app = FakeUpstream(Behaviour(context_window=WINDOW, overflow_style="llama-server", respond=_respond))
    with serve_upstream(app) as upstream:
        done = _gptme(tmp_path, upstream.url, ["/context-stats", *_prompts()], enabled=False)
    assert "Unknown command" in done.stdout
    assert done.returncode != 0 or any(seen.status != 200 for seen in app.chats())
    assert not (tmp_path / "data" / "gptme" / "logs" / "run" / "views" / "context-compactor.jsonl").exists()
