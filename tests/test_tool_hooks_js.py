"""The OpenClaw plugin's tool-call hooks under Node with a fake OpenClaw ``api``: the rule is the bridge's."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from ocfakes.node_plugin import drive as drive_plugin


def drive(tmp_path: Path, python: str, config: dict[str, Any]) -> dict[str, Any]:
    return drive_plugin("drive_guard.mjs", tmp_path, python, config)


def test_the_plugin_blocks_the_third_failed_call_through_the_bridge(tmp_path: Path) -> None:
    """Two failed results handed over by after_tool_call: the third before_tool_call is blocked with the
    bridge's reason (the count and the last error); other calls and other sessions run."""
    out = drive(tmp_path, sys.executable, {})
    assert out["hooks"] == ["after_tool_call", "before_tool_call", "llm_input"]
    assert out["tools"] == ["recall_history"]
    first, second, third = out["checks"]
    assert first is None and second is None, out
    assert third["block"] is True, out
    assert "failed 2 times" in third["blockReason"] and "ENOENT" in third["blockReason"], third
    assert out["other"] is None and out["elsewhere"] is None, out


def test_the_plugin_tells_our_summary_calls_from_the_agents_by_the_bridges_word(tmp_path: Path) -> None:
    """llm_input of a summary call of ours (its system prompt opens as the bridge's configure reply says) is
    not taken as OpenClaw's fixed prompt; the agent's own is."""
    out = drive(tmp_path, sys.executable, {})
    assert out["ownSkipped"] is True and out["agentKept"] is True, out


def test_the_plugin_lets_every_call_run_when_the_rule_is_off(tmp_path: Path) -> None:
    """refuseRepeatedFailures false in the plugin's config reaches the bridge's settings: nothing is blocked."""
    out = drive(tmp_path, sys.executable, {"refuseRepeatedFailures": False})
    assert out["checks"] == [None, None, None], out


def test_the_plugin_lets_calls_run_when_the_bridge_is_down(tmp_path: Path) -> None:
    """A bridge that dies: before_tool_call fails open (the call runs) and says so in the log."""
    out = drive(tmp_path, "/bin/false", {})
    assert out["checks"] == [None, None, None], out
    assert any(level == "warn" and "before_tool_call" in m and "the call runs" in m for level, m in out["logs"]), out
