"""index.js under Node with a fake OpenClaw ``api``: the bridge really compacts, and fails open."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conftest import need
from ocfakes.node_plugin import INDEX
from ocfakes.node_plugin import drive as drive_plugin
from ocfakes.openclaw import openclaw_path


def drive(tmp_path: Path, python: str, config: dict[str, Any]) -> dict[str, Any]:
    return drive_plugin("drive_plugin.mjs", tmp_path, python, config)


def test_plugin_compacts_through_the_python_child(tmp_path: Path) -> None:
    """assemble returns the summary plus the host's own objects; commitTurn is idempotent."""
    out = drive(tmp_path, sys.executable, {"maxTokens": 3000, "keepRecentTokens": 1000})
    assert out["ids"] == ["context-compactor", "context-compactor"]
    assert out["commands"] == ["compact-now", "context-stats"]
    assert out["info"]["ownsCompaction"] is True and out["info"]["transcriptSemantics"]["currentTurnFence"]
    for result in out["results"]:
        assert not result["same"] and result["kept"] >= 1 and result["count"] < 24
        assert result["first"].startswith("[context-compactor: ledger of")
    assert out["commit"] == {"status": "committed"} and out["dup"] == {"status": "duplicate"}
    # the open tasks appended to the current turn, which OpenClaw adds itself, go as systemPromptAddition
    assert "TAG-THE-RELEASE" in (out["todoTurn"]["addition"] or "") and out["todoTurn"]["count"] < 27
    assert out["stats"].startswith("context-compactor stats")
    assert sum("started the Python bridge" in m for _, m in out["logs"]) == 1  # one child for all engines


def test_plugin_fails_open_when_the_child_dies(tmp_path: Path) -> None:
    """A child that dies: the turn passes the history unchanged with a warning, and the next turns wait out the pause."""
    out = drive(tmp_path, "/bin/false", {})
    assert all(r["same"] for r in out["results"])
    starts = [m for _, m in out["logs"] if "started the Python bridge" in m]
    assert len(starts) == 1  # the turns right after a death fall inside its 1 s pause
    warnings = [m for level, m in out["logs"] if level == "warn"]
    assert any("stopped (exit code 1)" in m and "history is sent unchanged" in m for m in warnings)
    assert any("it is started again in" in m for m in warnings)
    assert out["commit"] == {"status": "committed"}
    assert "not working" in out["stats"]


# A driver of our own: N assembles through index.js, each with a fresh engine, as OpenClaw makes them.
TURNS_DRIVER = """
import { pathToFileURL } from "node:url";
const plugin = (await import(pathToFileURL(process.argv[2]).href)).default;
const logs = [], engines = [];
plugin.register({ registrationMode: "full", pluginConfig: JSON.parse(process.env.CC_CONFIG), config: {}, runtime: {},
  logger: { info: (m) => logs.push(["info", m]), warn: (m) => logs.push(["warn", m]) },
  registerContextEngine: (id, factory) => engines.push(factory), registerCommand: () => {} });
const messages = [];
for (let t = 0; t < 12; t++) {
  messages.push({ role: "user", content: `turn ${t} ` + "word ".repeat(300), timestamp: t });
  messages.push({ role: "assistant", content: [{ type: "toolCall", id: `c${t}`, name: "read", arguments: {} }], timestamp: t });
  let details = {};
  for (let d = 0; d < Number(process.env.CC_DEPTH ?? 0); d++) details = { d: details };
  messages.push({ role: "toolResult", toolCallId: `c${t}`, toolName: "read", content: [{ type: "text", text: "ok" }],
                  details, isError: false, timestamp: t });
}
const same = [];
for (let i = 0; i < Number(process.env.CC_TURNS); i++) {
  const r = await engines[0]({}).assemble({ sessionKey: "s1", messages, prompt: "next?", tokenBudget: 90000, model: "m" });
  same.push(r.messages === messages);
}
console.log(JSON.stringify({ same, logs }));
process.exit(0);
"""


def drive_turns(tmp_path: Path, python: str, turns: int, *, backoff: str, depth: int = 0) -> dict[str, Any]:
    node = shutil.which("node", path=openclaw_path() or "") or shutil.which("node")
    need(node is not None, "Node.js")
    driver = tmp_path / "turns.mjs"
    driver.write_text(TURNS_DRIVER)
    env = {**os.environ, "CONTEXT_COMPACTOR_PYTHON": python, "CONTEXT_COMPACTOR_RESTART_BACKOFF_MS": backoff,
           "CC_CONFIG": json.dumps({"maxTokens": 3000, "keepRecentTokens": 1000}), "CC_TURNS": str(turns),
           "CC_DEPTH": str(depth), "OPENCLAW_STATE_DIR": str(tmp_path / "state")}
    done = subprocess.run([str(node), str(driver), str(INDEX)], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def dies_first(tmp_path: Path, times: int) -> str:
    """A Python that exits at once on its first ``times`` starts, then runs the real bridge."""
    script = tmp_path / "flaky-python"
    count = tmp_path / "starts"
    script.write_text(f"#!/bin/sh\nn=$(cat {count} 2>/dev/null || echo 0)\necho $((n + 1)) > {count}\n"
                      f"[ \"$n\" -ge {times} ] && exec {sys.executable} \"$@\"\nexit 3\n")
    script.chmod(0o755)
    return str(script)


def test_plugin_restarts_after_any_number_of_deaths(tmp_path: Path) -> None:
    """Three deaths in a row do not turn compaction off: once the pause is over, a new child compacts."""
    out = drive_turns(tmp_path, dies_first(tmp_path, 3), 5, backoff="0,0")
    assert out["same"] == [True, True, True, False, False]
    assert sum("started the Python bridge" in m for _, m in out["logs"]) == 4
    assert any("3 time(s) in a row" in m for level, m in out["logs"] if level == "warn")


def test_plugin_waits_out_the_pause_before_a_restart(tmp_path: Path) -> None:
    """Within the pause after a death no child is started; every turn still goes on, unchanged."""
    out = drive_turns(tmp_path, "/bin/false", 4, backoff="3600000,3600000")
    assert out["same"] == [True] * 4
    assert sum("started the Python bridge" in m for _, m in out["logs"]) == 1
    assert sum("it is started again in 3600 s" in m for _, m in out["logs"]) == 3


@pytest.mark.parametrize("depth", [1000, 200_000])
def test_deeply_nested_details_still_compact(tmp_path: Path, depth: int) -> None:
    """Tool results whose details nest 1,000 (or 200,000) deep reach the bridge bounded, and the turn compacts."""
    out = drive_turns(tmp_path, sys.executable, 2, backoff="0,0", depth=depth)
    assert out["same"] == [False, False]
    assert not [m for level, m in out["logs"] if level == "warn"]


# A session model that answers llm.complete only when the driver lets it: after two turns went on without it.
LATE_DRIVER = """
import { createHash } from "node:crypto";
import { pathToFileURL } from "node:url";
const plugin = (await import(pathToFileURL(process.argv[2]).href)).default;
const logs = [], engines = [], asked = []; // a hash of each llm.complete request
let release;
const gate = new Promise((r) => (release = r));
const llm = { complete: async (req) => { asked.push(createHash("sha256").update(JSON.stringify(req)).digest("hex")); await gate; return { text: process.env.CC_ANSWER }; } };
plugin.register({ registrationMode: "full", pluginConfig: JSON.parse(process.env.CC_CONFIG), config: {}, runtime: { llm },
  logger: { info: (m) => logs.push(["info", m]), warn: (m) => logs.push(["warn", m]) },
  registerContextEngine: (id, factory) => engines.push(factory), registerCommand: () => {} });
const messages = [];
for (let t = 0; t < 120; t++) {
  messages.push({ role: "user", content: `turn ${t} KEEP-${t} ` + "word ".repeat(300), timestamp: t });
  messages.push({ role: "assistant", content: [{ type: "text", text: `answer ${t}` }], timestamp: t });
}
const turns = [];
const turn = async () => {
  const r = await engines[0]({}).assemble({ sessionKey: "s1", messages, prompt: "next?", tokenBudget: 90000, model: "m" });
  turns.push({ summary: JSON.stringify(r.messages[0]), asked: asked.length });
};
await turn();
await turn();
release();
await new Promise((r) => setTimeout(r, 50)); // the answers are written (in microtasks) before the next request
await turn();
process.stdout.write(JSON.stringify({ turns, asked, logs }) + "\\n", () => process.exit(0));
"""


def test_a_late_session_model_answer_serves_the_next_turn(tmp_path: Path) -> None:
    """Through index.js: llm.complete answering after two turns holds neither, is asked once per request,
    and its answer is in the third turn's prompt (issue 14 A5)."""
    node = shutil.which("node", path=openclaw_path() or "") or shutil.which("node")
    need(node is not None, "Node.js")
    driver = tmp_path / "late.mjs"
    driver.write_text(LATE_DRIVER)
    answer = "\n".join(f"## {t}\n- LATE-SUMMARY {t}" for t in ("Goal", "Decisions", "Current state"))
    env = {**os.environ, "CONTEXT_COMPACTOR_PYTHON": sys.executable, "CC_ANSWER": answer, "OPENCLAW_STATE_DIR": str(tmp_path),
           "CC_CONFIG": json.dumps({"maxTokens": 3000, "keepRecentTokens": 500, "summaryTimeoutSeconds": 2})}
    done = subprocess.run([str(node), str(driver), str(INDEX)], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.strip().splitlines()[-1])
    first, second, third = out["turns"]
    assert first["asked"] >= 1 and "[context-compactor: ledger of" in first["summary"]
    assert "LATE-SUMMARY" not in first["summary"] + second["summary"] and "LATE-SUMMARY" in third["summary"]
    assert len(out["asked"]) == len(set(out["asked"])), "the same summary request was sent twice"
    assert any("did not answer within 2s" in m for _, m in out["logs"])


# A bridge that hangs (stopped with SIGSTOP after its first turn, as a deadlocked process would sit):
# the turn fails open at the limit, the child is killed by its PID, and the next call has a new one.
HANG_DRIVER = """
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
const plugin = (await import(pathToFileURL(process.argv[2]).href)).default;
const logs = [], engines = [];
plugin.register({ registrationMode: "full", pluginConfig: JSON.parse(process.env.CC_CONFIG), config: {}, runtime: {},
  logger: { info: (m) => logs.push(["info", m]), warn: (m) => logs.push(["warn", m]) },
  registerContextEngine: (id, factory) => engines.push(factory), registerCommand: () => {} });
const messages = [];
for (let t = 0; t < 12; t++) {
  messages.push({ role: "user", content: `turn ${t} ` + "word ".repeat(300), timestamp: t });
  messages.push({ role: "assistant", content: [{ type: "text", text: `answer ${t}` }], timestamp: t });
}
const pids = () => logs.map(([, m]) => /started the Python bridge: .*\\(pid (\\d+)\\)/.exec(m)?.[1]).filter(Boolean).map(Number);
const turn = async () => {
  const r = await engines[0]({}).assemble({ sessionKey: "s1", messages, prompt: "next?", tokenBudget: 90000, model: "m" });
  return r.messages === messages;
};
const same = [await turn()];
process.kill(pids()[0], "SIGSTOP");
same.push(await turn());
const commit = await engines[0]({}).commitTurn({ advancementKey: "k1", sessionKey: "s1", messages: messages.slice(-2) });
same.push(await turn());
const health = JSON.parse(readFileSync(join(process.env.OPENCLAW_STATE_DIR, "context-compactor", "bridge-health.json"), "utf8"));
console.log(JSON.stringify({ same, commit, pids: pids(), health, logs }));
process.exit(0);
"""


def test_a_hung_bridge_is_killed_and_replaced(tmp_path: Path) -> None:
    """A child that stops answering: that turn goes on unchanged, the child is killed by its PID, the commit
    and the next turn are served by a new child, and the health file counts one hang and one restart."""
    from ocfakes.openclaw import pid_alive

    node = shutil.which("node", path=openclaw_path() or "") or shutil.which("node")
    need(node is not None, "Node.js")
    driver = tmp_path / "hang.mjs"
    driver.write_text(HANG_DRIVER)
    env = {**os.environ, "CONTEXT_COMPACTOR_PYTHON": sys.executable, "CONTEXT_COMPACTOR_BRIDGE_TIMEOUT_MS": "4000",
           "CC_CONFIG": json.dumps({"maxTokens": 3000, "keepRecentTokens": 1000}), "OPENCLAW_STATE_DIR": str(tmp_path)}
    done = subprocess.run([str(node), str(driver), str(INDEX)], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.strip().splitlines()[-1])
    try:
        assert out["same"] == [False, True, False]
        assert out["commit"] == {"status": "committed"}
        first, second = out["pids"]
        assert first != second and not pid_alive(first)
        warnings = [m for level, m in out["logs"] if level == "warn"]
        assert any(f"(pid {first}) gave no answer to assemble within 4 s: killed it" in m for m in warnings), warnings
        health = out["health"]
        assert (health["hangs"], health["restarts"], health["crashes"], health["pid"]) == (1, 1, 0, second)
        assert health["lastHang"]["method"] == "assemble"
    finally:
        for pid in out["pids"]:
            if pid_alive(pid):
                os.kill(pid, 9)


# llm_input lists every tool, the ones OpenClaw's tool search catalogs off the wire too: the plugin counts
# what the wire carries (the controls, direct-only tools, the core coding tools).
WIRE_DRIVER = """
import { pathToFileURL } from "node:url";
const plugin = (await import(pathToFileURL(process.argv[2]).href)).default;
const logs = [], engines = [], hooks = {}, commands = {};
const config = { models: { providers: { p: { models: [{ id: "m", contextWindow: 200000 }] } } } };
plugin.register({ registrationMode: "full", pluginConfig: {}, config, runtime: {},
  logger: { info: (m) => logs.push(["info", m]), warn: (m) => logs.push(["warn", m]) },
  registerContextEngine: (id, factory) => engines.push(factory), registerCommand: (c) => (commands[c.name] = c),
  on: (name, handler) => (hooks[name] = handler) });
const tool = (name, extra = {}) => ({ name, description: `${name}: ` + "does a thing. ".repeat(150), parameters: { type: "object" }, ...extra });
const listed = [...["read", "exec", "tool_search", "tool_describe", "tool_call", "tool_search_code"].map((n) => tool(n)),
                tool("openclaw", { catalogMode: "direct-only" }), ...Array.from({ length: 40 }, (_, i) => tool(`cataloged_${i}`))];
hooks.llm_input({ systemPrompt: "You are OpenClaw. " + "Be helpful. ".repeat(100), tools: listed }, { sessionKey: "s1", agentId: "main" });
const messages = [{ role: "user", content: "hello", timestamp: 1 }];
await engines[0]({}).assemble({ sessionKey: "s1", messages, prompt: "hi", tokenBudget: 150000, model: "m",
  runtimeSettings: { model: { provider: "p" }, limits: { maxOutputTokens: 4096 } } });
const stats = await commands["context-stats"].handler({ sessionKey: "s1" });
console.log(JSON.stringify({ stats: stats.text, logs }));
process.exit(0);
"""


def test_the_tools_counted_are_the_ones_on_the_wire(tmp_path: Path) -> None:
    """Of 47 tools llm_input lists, the 6 tool search leaves on the wire are counted: the controls of its
    "tools" mode, a direct-only tool, the core coding tools; not the 40 it catalogs, nor tool_search_code."""
    import re

    node = shutil.which("node", path=openclaw_path() or "") or shutil.which("node")
    need(node is not None, "Node.js")
    driver = tmp_path / "wire.mjs"
    driver.write_text(WIRE_DRIVER)
    env = {**os.environ, "CONTEXT_COMPACTOR_PYTHON": sys.executable, "OPENCLAW_STATE_DIR": str(tmp_path)}
    done = subprocess.run([str(node), str(driver), str(INDEX)], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.strip().splitlines()[-1])
    found = re.search(r"tool schemas ([\d,]+)", out["stats"])
    assert found, out
    one = len(json.dumps({"type": "function", "function": {"name": "read", "description": "read: " + "does a thing. " * 150,
                                                           "parameters": {"type": "object"}}})) / 4
    tokens = int(found.group(1).replace(",", ""))
    assert 5 * one < tokens < 7 * one, (tokens, one)
