"""The real Claude Code (``claude -p``) and Codex CLI (``codex exec``) through ``serve``, in front of a fake
model server on 127.0.0.1 that speaks both APIs and records what it receives.

Each agent runs one conversation of several turns (resumed by its own session id), with a pasted document
per turn and one tool round that reads a large file with the agent's own tool (Claude Code's Read, Codex's
exec_command). The window is set just above the agent's fixed part (system prompt and tool schemas), so
the gateway has to compact the history. Every request the model server got must fit the window, keep the
turn's own prompt, keep every tool call with its result, and in the tool loop keep the model's signed
thinking (Claude Code) or reasoning with its encrypted content (Codex) as the model sent it; the agent
must exit 0 with the model's last reply.

.ci/run installs both (``.ci/agents-env.sh``, npm); without them these tests skip locally and fail in CI.
Nothing leaves the machine: telemetry, update checks and error reports are switched off, and each run has
its own HOME.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import need
from fakes import Behaviour, Seen
from fakes.apis import ApisUpstream, Asked
from fakes.harness import Upstream, gateway_for, serve_upstream

pytestmark = pytest.mark.slow

AGENTS_BIN = Path(os.environ.get("AGENTS_E2E_DIR", Path.home() / ".cache" / "agents-e2e")) / "app" / "node_modules" / ".bin"
NODE_BIN = Path(os.environ.get("OPENCLAW_E2E_DIR", Path.home() / ".cache" / "openclaw-e2e")) / "bin"
QUIET = {"DISABLE_TELEMETRY": "1", "DISABLE_AUTOUPDATER": "1", "DISABLE_ERROR_REPORTING": "1",
         "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_BUG_COMMAND": "1", "NO_UPDATE_NOTIFIER": "1",
         "CODEX_DISABLE_UPDATE_CHECK": "1", "RUST_LOG": "error"}
TOOL_TURN = 2  # the turn whose prompt asks for the tool round
TURNS = 5
CLAUDE_WINDOW = 36_000  # Claude Code 2.1's fixed part is about 25k tokens (3 system blocks, 12+ tools)
CODEX_WINDOW = 32_768  # Codex 0.17x's is about 12k: the 32k local model of the issue


def _binary(name: str) -> str | None:
    found = AGENTS_BIN / name
    return str(found) if found.exists() else shutil.which(name)


def _env(home: Path, **extra: str) -> dict[str, str]:
    path = os.pathsep.join([str(AGENTS_BIN), str(NODE_BIN), os.environ.get("PATH", "")])
    keep = {k: v for k, v in os.environ.items() if k in ("LANG", "LC_ALL", "TERM", "TMPDIR")}
    return {**keep, **QUIET, "PATH": path, "HOME": str(home), **extra}


def pasted(turn: int) -> str:
    """A document pasted into a turn's prompt: about 2,500 tokens of words of its own."""
    return " ".join(f"paste{turn}-word{k}" for k in range(900))


def prompt(turn: int) -> str:
    ask = "please use a tool to read notes.txt and sum it up" if turn == TOOL_TURN else f"note this down as part {turn}"
    return f"Turn {turn}: {ask}.\n\n{pasted(turn)}"


class AgentModel(ApisUpstream):
    """The fake model: asked to use a tool, it reads notes.txt with the agent's own tool (thinking first, signed);
    any other request gets a text reply."""

    thinking = True
    notes = ""

    def decide(self, ask: Asked, n: int) -> tuple[str, Any]:
        if ask.result is not None or "use a tool" not in ask.user:
            return "text", f"reply #{n}: done"
        if "Read" in ask.tools:
            return "tool", ("Read", {"file_path": self.notes})
        if "exec_command" in ask.tools:
            return "tool", ("exec_command", {"cmd": "cat notes.txt"})
        return "text", f"reply #{n}: no tool to use"


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    work = tmp_path / "project"
    work.mkdir()
    (work / "notes.txt").write_text("\n".join(f"note line {k}: " + "measurement " * 12 for k in range(120)))
    (tmp_path / "home").mkdir()
    return work


@pytest.fixture
def upstream(workdir: Path) -> Iterator[Upstream]:
    model = AgentModel(Behaviour())
    model.notes = str(workdir / "notes.txt")
    with serve_upstream(model) as up:
        yield up


def _run(argv: list[str], cwd: Path, env: dict[str, str]) -> str:
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=180, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, f"{argv[0]} exited {done.returncode}: {done.stderr[-2000:]}"
    return done.stdout


def _text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _served(seen: list[Seen], window: int) -> None:
    """Every request the model server got was taken (no refusal) and within the window; some were compacted."""
    assert seen and all(r.status == 200 for r in seen), [r.status for r in seen]
    assert max(r.prompt_tokens for r in seen) < window
    assert any("[context-compactor:" in _text(r.body) for r in seen), "the history was never compacted"


# --- Claude Code --------------------------------------------------------------------------------


def _pairs_anthropic(messages: list[dict[str, Any]]) -> None:
    """Each tool_use is answered first thing in the next message; no tool_result without its call."""
    for i, message in enumerate(messages):
        content = message["content"] if isinstance(message["content"], list) else []
        uses = [b["id"] for b in content if b.get("type") == "tool_use"]
        if uses:
            following = messages[i + 1]["content"]
            assert [b["tool_use_id"] for b in following if b.get("type") == "tool_result"] == uses
        for b in content:
            if b.get("type") == "tool_result":
                assert any(p.get("type") == "tool_use" and p["id"] == b["tool_use_id"] for p in messages[i - 1]["content"])


def test_claude_code_through_serve(upstream: Upstream, workdir: Path, tmp_path: Path) -> None:
    """Claude Code: five resumed turns and a Read round through serve at a window just above its fixed part."""
    claude = _binary("claude")
    need(claude is not None, "Claude Code (npm @anthropic-ai/claude-code)")
    session = str(uuid.uuid4())
    with gateway_for(upstream.url, tmp_path, settings={"contextWindow": CLAUDE_WINDOW}) as gw:
        env = _env(tmp_path / "home", ANTHROPIC_BASE_URL=gw.url, ANTHROPIC_API_KEY="sk-local-unused")
        for turn in range(TURNS):
            before = len(upstream.app.messages())
            resume = ["--session-id", session] if turn == 0 else ["--resume", session]
            out = _run([str(claude), "-p", prompt(turn), *resume, "--allowedTools", "Read", "--model", "local-model"],
                       workdir, env)
            sent = upstream.app.messages()[before:]
            assert "reply #" in out and sent
            for r in sent:  # the turn's own prompt, whole, in every request of the turn
                assert pasted(turn) in _text(r.body["messages"][-3:]), f"turn {turn}: its prompt was cut"
                _pairs_anthropic(r.body["messages"])
            if turn == TOOL_TURN:
                _loop_kept_its_thinking(sent)
    _served(upstream.app.messages(), CLAUDE_WINDOW)


def _loop_kept_its_thinking(sent: list[Seen]) -> None:
    """The request carrying the Read result has the model's thinking and call as the model sent them."""
    looped = [r for r in sent if any(b.get("type") == "tool_result" for m in r.body["messages"][-1:]
                                     for b in (m["content"] if isinstance(m["content"], list) else []))]
    assert looped, "Claude Code never sent the Read result"
    call = looped[0].body["messages"][-2]
    thinking = [b for b in call["content"] if b.get("type") == "thinking"]
    assert thinking and thinking[0]["signature"].startswith("sig-") and thinking[0]["thinking"].startswith("thinking #")
    assert any(b.get("type") == "tool_use" and b["name"] == "Read" for b in call["content"])
    assert "note line 119" in _text(looped[0].body["messages"][-1])  # the file, as Read gave it


# --- Codex ----------------------------------------------------------------------------------------


def _codex_home(tmp_path: Path, url: str) -> Path:
    home = tmp_path / "codex-home"
    home.mkdir()
    (home / "config.toml").write_text(f"""model = "local-model"
model_provider = "serve"
check_for_update_on_startup = false

[analytics]
enabled = false

[model_providers.serve]
name = "context-compactor serve"
base_url = "{url}/v1"
wire_api = "responses"
env_key = "SERVE_KEY"
""")
    return home


def _pairs_responses(items: list[dict[str, Any]]) -> None:
    calls = [i["call_id"] for i in items if i.get("type") == "function_call"]
    outputs = [i["call_id"] for i in items if i.get("type") == "function_call_output"]
    assert sorted(calls) == sorted(outputs)


def test_codex_through_serve(upstream: Upstream, workdir: Path, tmp_path: Path) -> None:
    """Codex: five resumed turns and an exec_command round through serve at a window just above its fixed part."""
    codex = _binary("codex")
    need(codex is not None, "Codex CLI (npm @openai/codex)")
    with gateway_for(upstream.url, tmp_path, settings={"contextWindow": CODEX_WINDOW}) as gw:
        env = _env(tmp_path / "home", CODEX_HOME=str(_codex_home(tmp_path, gw.url)), SERVE_KEY="sk-local-unused")
        flags = ["--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox"]
        for turn in range(TURNS):
            before = len(upstream.app.responses())
            argv = [str(codex), "exec", *flags, prompt(turn)] if turn == 0 else \
                [str(codex), "exec", "resume", "--last", *flags, prompt(turn)]
            out = _run(argv, workdir, env)
            sent = upstream.app.responses()[before:]
            assert "reply #" in out and sent
            for r in sent:
                assert pasted(turn) in _text(r.body["input"]), f"turn {turn}: its prompt was cut"
                _pairs_responses(r.body["input"])
            if turn == TOOL_TURN:
                looped = [r for r in sent if r.body["input"][-1].get("type") == "function_call_output"]
                assert looped, "Codex never sent the command's output"
                items = looped[0].body["input"]
                reasoning = [i for i in items[-4:] if i.get("type") == "reasoning"]
                assert reasoning and reasoning[-1]["encrypted_content"].startswith("enc-")
                assert "note line 119" in _text(items[-1])
    _served(upstream.app.responses(), CODEX_WINDOW)
