"""The bridge's tool methods over its real protocol: the tools it lists, a tool call, and OpenClaw's
before/after_tool_call read into the tool hooks."""

from __future__ import annotations

from ocfakes.bridge import Child

from context_compactor.bridge import openclaw_tool_result
from context_compactor.summarizer.prompts import CHUNK_SYSTEM, MERGE_SYSTEM

KEY = "agent:main:explicit:t1"


def test_configure_lists_the_registered_tools_and_a_tool_call_is_answered(child: Child) -> None:
    """configure's reply carries recall_history (offered after a compaction); the ``tool`` method runs it."""
    done = child.request("configure", {"config": {}})["result"]
    assert [t["name"] for t in done["tools"]] == ["recall_history"] and done["tools"][0]["afterCompaction"] is True
    assert done["recall"]["name"] == "recall_history"  # for the plugins of earlier releases
    # how our summary calls' system prompts open: the plugin leaves those calls out of what llm_input measures
    assert done["summaryPrompt"] and all(p.startswith(done["summaryPrompt"]) for p in (CHUNK_SYSTEM, MERGE_SYSTEM))
    answer = child.request("tool", {"name": "recall_history", "sessionKey": KEY, "arguments": {"query": "anything"}})
    assert isinstance(answer["result"]["text"], str) and answer["result"]["text"]
    unknown = child.request("tool", {"name": "nope", "sessionKey": KEY, "arguments": {}})["result"]["text"]
    assert "no tool nope" in unknown and "recall_history" in unknown


def test_a_command_that_exits_non_zero_twice_is_blocked_the_third_time(child: Child) -> None:
    """OpenClaw's exec result with a non-zero exit code counts as a failure, unflagged text or not."""
    child.request("configure", {"config": {}})
    call = {"sessionKey": KEY, "toolName": "exec", "params": {"command": "make lint"}}
    result = {"content": [{"type": "text", "text": "lint: 3 problems"}], "details": {"exitCode": 2}}
    for _ in range(2):
        assert child.request("toolCall", call)["result"] == {"block": False}
        assert child.request("toolResult", {**call, "result": result})["result"] == {"status": "recorded"}
    verdict = child.request("toolCall", call)["result"]
    assert verdict["block"] is True and verdict["rule"] == "refuse-repeated-failures"
    assert "failed 2 times" in verdict["reason"] and "lint: 3 problems" in verdict["reason"]


def test_openclaws_result_flags_are_read_as_is_error() -> None:
    """isError, details.isError, details.status error/failed and a non-zero exit code flag a result;
    the error the tool raised (or details.error) is the error; exit code 0 and a plain result do not."""
    def flagged(result: object, **more: object) -> bool:
        return openclaw_tool_result({"toolName": "t", "params": {}, "result": result, **more}).is_error

    assert flagged({"isError": True, "content": []})
    assert flagged({"details": {"isError": True}}) and flagged({"details": {"status": "failed"}})
    assert flagged({"details": {"exitCode": 1}}) and not flagged({"details": {"exitCode": 0}})
    assert not flagged({"content": [{"type": "text", "text": "fine"}], "details": {}}) and not flagged("text")
    event = openclaw_tool_result({"toolName": "t", "params": {"a": 1}, "result": {"details": {"error": "boom"}}})
    assert event.error == "boom" and event.arguments == {"a": 1}
    raised = openclaw_tool_result({"toolName": "t", "params": {}, "result": None, "error": "EACCES"})
    assert raised.error == "EACCES" and raised.result == ""
