"""The stdio bridge (``python -m context_compactor.bridge``) driven like index.js drives it."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from conftest import ROOT
from ocfakes.bridge import Child
from context_compactor.plugins import commands, get_plugin_manager
from context_compactor.setup_cli.setup import manifest

PLUGIN = ROOT / "extension" / "openclaw"


def history(turns: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for t in range(turns):
        out.append({"role": "user", "content": f"turn {t} KEEP-{t} " + "word " * 300, "timestamp": t})
        out.append({"role": "assistant", "content": [{"type": "text", "text": f"answer {t}"}],
                    "usage": {"input": 100, "output": 5}, "timestamp": t})
    return out


def assemble(child: Child, turns: int, answer: Any = None, prompt: str = "and now?") -> dict[str, Any]:
    return child.request("assemble", {"sessionKey": "agent:main:explicit:s1", "messages": history(turns),
                                      "prompt": prompt, "tokenBudget": 90000, "model": "fake/fake-model",
                                      "reserveTokens": 20000}, answer)


SECTIONS = "\n".join(f"## {t}\n- LLM-SUMMARY {t}" for t in ("Goal and standing instructions", "Decisions",
                                                           "Files and commands", "Failed attempts", "Current state", "Next steps"))


def test_configure_lists_the_commands_index_js_registers(child: Child) -> None:
    """The commands the Python side provides are exactly the ones index.js registers."""
    reply = child.request("configure", {"config": {"maxTokens": 3000}})
    in_js = re.findall(r'name: "([a-z-]+)", acceptsArgs', (PLUGIN / "index.js").read_text())
    assert reply["result"]["commands"] == sorted(in_js) == sorted(commands(get_plugin_manager()))


def test_under_trigger_changes_nothing(child: Child) -> None:
    """A short history comes back unchanged (messages: null)."""
    child.request("configure", {"config": {"maxTokens": 3000}})
    assert assemble(child, 2)["result"]["messages"] is None


def test_over_trigger_returns_a_recipe(child: Child) -> None:
    """Over the trigger: a summary message first, then indexes of the host's kept messages."""
    child.request("configure", {"config": {"maxTokens": 3000, "keepRecentTokens": 500}})
    recipe = assemble(child, 20)["result"]["messages"]
    assert isinstance(recipe[0], dict) and recipe[0]["content"].startswith("[context-compactor: ledger of")
    assert all(isinstance(i, int) for i in recipe[1:]) and recipe[-1] == 39


def test_the_task_reminder_on_the_current_turn_comes_back_as_a_system_prompt_addition(child: Child) -> None:
    """OpenClaw adds the current turn itself, so what the engine appended to it (the open tasks) comes back
    as systemPromptAddition (it had been lost, and still counted)."""
    child.request("configure", {"config": {"contextWindow": 4096}})
    todo = {"todos": [{"content": "TAG-THE-RELEASE", "status": "pending"}, {"content": "old", "status": "completed"}]}
    rows = [{"role": "user", "content": "plan the release", "timestamp": 0},
            {"role": "assistant", "content": [{"type": "toolCall", "id": "t1", "name": "todo_write", "arguments": todo}],
             "timestamp": 0},
            {"role": "toolResult", "toolCallId": "t1", "toolName": "todo_write",
             "content": [{"type": "text", "text": "ok"}], "timestamp": 0}, *history(20)]
    reply = child.request("assemble", {"sessionKey": "s", "messages": rows, "prompt": "and now?", "tokenBudget": 4096,
                                       "model": "fake/fake-model"})["result"]
    addition = reply["systemPromptAddition"]
    assert addition.startswith("[context-compactor reminder") and "TAG-THE-RELEASE" in addition and "old" not in addition
    assert reply["messages"][0]["content"].startswith("[context-compactor: ledger of")
    assert "context-compactor reminder" not in json.dumps(reply["messages"])


def test_estimated_tokens_leave_out_the_current_turn_as_the_session_counts_it(child: Child) -> None:
    """estimatedTokens is what the engine sent less the current turn (OpenClaw adds it), that turn counted
    with the session's own ratio, not a flat 4 characters a token."""
    child.request("configure", {"config": {"charsPerToken": 2, "calibrate": False, "maxTokens": 6000}})
    prompt = "x " * 400  # 800 characters: 400 tokens at 2 a token, not 200
    reply = assemble(child, 20, prompt=prompt)["result"]
    assert reply["stats"]["compacted"]
    assert reply["estimatedTokens"] == reply["stats"]["tokens_after"] - (400 + 4)


def test_merged_command_rows_are_taken_out_under_the_trigger(child: Child) -> None:
    """Nothing to compact, but a user row with our commands merged in comes back without them (issue 14 A3)."""
    child.request("configure", {"config": {"maxTokens": 30000}})
    rows = history(2)
    rows[2] = {**rows[2], "content": [{"type": "text", "text": "/context-stats"}, {"type": "text", "text": "/compact-now x"},
                                      {"type": "text", "text": "my own words"}]}
    reply = child.request("assemble", {"sessionKey": "s", "messages": rows, "prompt": "next", "tokenBudget": 90000})
    assert reply["result"]["messages"] == [0, 1, {**rows[2], "content": [{"type": "text", "text": "my own words"}]}, 3]
    assert assemble(child, 2)["result"]["messages"] is None  # without commands: unchanged, as before


def test_session_model_writes_the_summary(child: Child) -> None:
    """With llm offered, summaries are asked of the host's llm.complete, for the request in progress."""
    child.request("configure", {"config": {"maxTokens": 3000, "keepRecentTokens": 500}, "llm": True, "model": "fake/m"})
    recipe = assemble(child, 120, answer=lambda params: {"text": SECTIONS})["result"]["messages"]
    assert child.calls and child.calls[0]["method"] == "llm.complete"
    assert "You maintain the working memory" in child.calls[0]["params"]["systemPrompt"]
    assert "LLM-SUMMARY" in json.dumps(recipe)


def held_turn(child: Child, number: int, held: list[dict[str, Any]]) -> dict[str, Any]:
    """One assemble whose llm.complete calls the host holds (collected in ``held``, not answered)."""
    child.send({"id": number, "method": "assemble", "params": {
        "sessionKey": "agent:main:explicit:s1", "messages": history(120), "prompt": "and now?", "tokenBudget": 90000,
        "model": "fake/fake-model", "reserveTokens": 20000}})
    assert child.proc.stdout is not None
    while True:
        msg = json.loads(child.proc.stdout.readline())
        if "call" not in msg:
            assert msg["id"] == number, msg
            return msg
        assert msg["method"] == "llm.complete" and msg["for"] == number  # sent while the turn is answered
        held.append(msg)


def test_a_late_summary_holds_no_turn_is_asked_once_and_serves_the_next_turn(child: Child) -> None:
    """A host whose llm.complete answers only after the turn (issue 14 A5): the turn goes on at its time budget
    with the ledger alone, a turn while the call is pending sends no second identical request, and the
    turn after the late answer uses it without asking again."""
    child.request("configure", {"config": {"maxTokens": 3000, "keepRecentTokens": 500, "summaryTimeoutSeconds": 2},
                                "llm": True, "model": "fake/m"})
    held: list[dict[str, Any]] = []
    first = held_turn(child, 1001, held)  # answered although the host has not answered its call
    assert held and first["result"]["messages"] and "LLM-SUMMARY" not in json.dumps(first)
    assert any("did not answer within 2s" in n and "used from the next turn on" in n for n in first["result"]["notices"])
    second = held_turn(child, 1002, held)  # the call is still pending: it is not sent again
    assert second["result"]["messages"] == first["result"]["messages"]
    for call in held:  # the late answers
        child.send({"reply": call["call"], "result": {"text": SECTIONS}})
    third = held_turn(child, 1003, held)
    assert "LLM-SUMMARY" in json.dumps(third["result"]["messages"]) and not third["result"]["notices"]
    requests = [json.dumps(call["params"], sort_keys=True) for call in held]
    assert len(requests) == len(set(requests)), f"{len(requests)} requests, {len(set(requests))} different"


def test_no_session_model_call_between_turns(child: Child) -> None:
    """OpenClaw's llm.complete fails outside a turn ("Async work scope is closed"), so a commit past
    precompactAt starts no pre-summarization job for it."""
    child.request("configure", {"config": {"maxTokens": 3000, "keepRecentTokens": 500, "precompactAt": 0.1},
                                "llm": True, "model": "fake/m"})
    assemble(child, 120, answer=lambda params: {"text": SECTIONS})
    turn = [{"role": "user", "content": "and now?", "timestamp": 1},
            {"role": "assistant", "content": [{"type": "text", "text": "ok"}], "usage": {"input": 100, "output": 5}}]
    params = {"sessionKey": "agent:main:explicit:s1", "advancementKey": "k-9", "messages": turn, "contextWindow": 131072}
    assert child.request("commit", params)["result"]["status"] == "committed"
    log = child.close()
    assert "bridge.configured" in log and "presummarize.started" not in log


def test_llm_failure_falls_back(child: Child) -> None:
    """When the host's llm.complete fails, the built-in summary is used and the turn goes on."""
    child.request("configure", {"config": {"maxTokens": 3000, "keepRecentTokens": 500}, "llm": True})
    reply = assemble(child, 120)
    assert reply["result"]["messages"] and "LLM-SUMMARY" not in json.dumps(reply)
    assert any("built-in summary" in n for n in reply["result"]["notices"])


def test_commit_is_idempotent(child: Child) -> None:
    """The same advancementKey twice: the second is a duplicate."""
    child.request("configure", {"config": {}})
    assemble(child, 3)
    turn = history(1)
    params = {"sessionKey": "agent:main:explicit:s1", "advancementKey": "k-1", "messages": turn, "contextWindow": 131072}
    assert child.request("commit", params)["result"]["status"] == "committed"
    assert child.request("commit", params)["result"]["status"] == "duplicate"


def test_commands_answer(child: Child) -> None:
    """/context-stats reports, /compact-now compacts the last prompt seen."""
    child.request("configure", {"config": {"maxTokens": 30000}})
    assemble(child, 20)
    stats = child.request("command", {"name": "context-stats", "sessionKey": "agent:main:explicit:s1"})
    assert "context-compactor stats" in stats["result"]["text"] and "trigger: 30,000 tokens" in stats["result"]["text"]
    done = child.request("compact", {"sessionKey": "agent:main:explicit:s1", "trigger": "manual"})["result"]
    assert done["compacted"] and done["tokensAfter"] < done["tokensBefore"]


def test_errors_are_replies_and_the_bridge_goes_on(child: Child) -> None:
    """A bad request gets an error reply; the next request is answered normally."""
    assert "error" in child.request("nonsense", {})
    assert "error" in child.request("assemble", {"messages": "not a list of messages"})
    assert child.request("ping", {})["result"] == {"pong": True}
    assert "bridge.failed" in child.close()


def test_shipped_manifest_is_generated_from_settings() -> None:
    """openclaw.plugin.json's configSchema is exactly the one generated from the Settings model."""
    shipped = json.loads((PLUGIN / "openclaw.plugin.json").read_text())
    assert shipped == manifest(), ("extension/openclaw/openclaw.plugin.json is stale: run python -c "
                                   "'from context_compactor.setup_cli.setup import write_manifest; write_manifest()'")
    assert shipped["configSchema"]["additionalProperties"] is False
    assert json.loads((PLUGIN / "package.json").read_text())["openclaw"]["extensions"] == ["./index.js"]


# --- A1: no line can stop the bridge ----------------------------------------------------------------

DEEP = "[" * 1000 + "]" * 1000


def strict(line: str) -> Any:
    """Parse one protocol line as Node's JSON.parse would (no NaN or Infinity)."""
    def refuse(name: str) -> Any:
        raise ValueError(f"{name} in a protocol line")

    return json.loads(line, parse_constant=refuse)


def test_bad_lines_get_error_replies_and_the_bridge_goes_on(tmp_path: Path) -> None:
    """The issue's lines (a list as reply, a NaN id, a cut line, 1,000-deep nesting) never stop the bridge."""
    lines = ['{"reply":[1]}', '{"id":NaN,"method":"ping"}', '{"id":3,"method":"ping","params":{',
             '{"id":4,"method":"assemble","params":{"messages":' + DEEP + "}}", "[1]", "\x00\xff not json",
             '{"id":5,"method":"assemble","params":{"messages":[{"role":"toolResult","toolCallId":"c",'
             '"content":[{"type":"text","text":"x"}],"details":' + "[" * 950 + "]" * 950 + "}]}}",
             '{"id":6,"method":"ping","params":7}', '{"id":7,"method":"ping"}']
    done = subprocess.run([sys.executable, "-m", "context_compactor.bridge"], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, env={**os.environ, "OPENCLAW_STATE_DIR": str(tmp_path)},
                          timeout=120)
    assert done.returncode == 0, done.stderr
    replies = {msg["id"]: msg for msg in map(strict, done.stdout.splitlines())}
    assert sorted(replies) == [3, 4, 5, 6, 7]
    assert replies[7]["result"] == {"pong": True}
    assert all("error" in replies[n] for n in (3, 4, 6)) and "nested too deeply" in replies[4]["error"]["message"]
    assert done.stderr.count("bridge.bad_line") == 7  # three with an id (answered), four without (logged)


_json = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
                     max_leaves=12)
_methods = st.sampled_from(["ping", "assemble", "commit", "command", "compact", "nonsense"]) | st.text(max_size=6)


@st.composite
def _line(draw: st.DrawFn, number: int) -> tuple[bytes, bool]:
    """One input line, and whether it carries the id ``number`` (so it must be answered)."""
    kind = draw(st.sampled_from(["request", "cut", "deep", "reply", "value", "bytes"]))
    if kind == "request":
        params = draw(_json | st.dictionaries(st.sampled_from(["messages", "name", "sessionKey", "args"]), _json))
        obj = {"id": number, "method": draw(_methods), "params": params}
        return json.dumps(obj).encode(), True
    if kind == "cut":
        text = json.dumps({"id": number, "method": "assemble", "params": {"messages": draw(_json)}})
        return text[: draw(st.integers(len(str(number)) + 8, len(text) - 1))].encode(), True
    if kind == "deep":
        depth = draw(st.integers(900, 3000))
        return f'{{"id":{number},"method":"assemble","params":{{"messages":[{{"role":"user","content":' \
               f'{"[" * depth}{"]" * depth}}}]}}}}'.encode(), True
    if kind == "reply":
        return json.dumps({"reply": draw(_json), "result": draw(_json)}).encode(), False
    if kind == "value":
        return json.dumps(draw(_json)).encode(), False
    return draw(st.binary(max_size=40)).replace(b"\n", b" "), False


@given(data=st.data())
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                HealthCheck.too_slow])
def test_any_line_is_answered_or_logged(data: st.DataObject, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever lines arrive, stdout holds only strict JSON, each id is answered once, and a ping after them works."""
    from context_compactor.bridge import serve

    monkeypatch.setenv("OPENCLAW_STATE_DIR", str(tmp_path))
    lines = [data.draw(_line(number)) for number in range(100, 100 + data.draw(st.integers(1, 8)))]
    feed = b"\n".join(line for line, _ in lines) + b'\n{"id": 1, "method": "ping"}\n'
    out = io.StringIO()
    serve(io.BytesIO(feed), out, workers=2)
    ids = [strict(line)["id"] for line in out.getvalue().splitlines()]
    expected = [n for n, (_, answered) in enumerate(lines, 100) if answered]
    assert sorted(n for n in ids if n in expected or n == 1) == sorted([*expected, 1])
    assert len(ids) == len(expected) + 1


def test_a_compaction_that_fails_is_told_to_openclaw(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """When the hook fails open (here the store refuses the archive write), assemble sends the history
    unchanged and its reply says so: ``failed`` holds the error and a notice tells the user."""
    from context_compactor.bridge import Bridge, Channel

    monkeypatch.setenv("HOME", str(tmp_path))
    bridge = Bridge(Channel(io.BytesIO(), io.StringIO()))
    bridge.configure({"config": {"maxTokens": 3000, "storePath": str(tmp_path / "store.sqlite")}})
    assert bridge.runtime is not None
    bridge.runtime.store.close()
    try:
        reply = bridge.assemble({"sessionKey": "s", "messages": history(20), "prompt": "and now?",
                                 "tokenBudget": 90000, "model": "fake/fake-model"})
    finally:
        bridge.close()
    assert reply["messages"] is None and "closed" in reply["failed"]
    assert any(n.startswith("context-compactor: compaction failed this turn") for n in reply["notices"]), reply


def test_a_forced_compaction_that_folds_nothing_says_not_compacted(child: Child) -> None:
    """OpenClaw's /compact on a short chat: ``compacted`` is false (read from the command's result), and
    the reason says why."""
    child.request("configure", {"config": {"maxTokens": 30000}})
    assemble(child, 1)
    done = child.request("compact", {"sessionKey": "agent:main:explicit:s1", "trigger": "manual"})["result"]
    assert done["compacted"] is False and "nothing compacted" in done["reason"]
