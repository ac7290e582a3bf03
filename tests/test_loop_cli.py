"""Issue 13's observable contract, through the real `context-compactor compact` command."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from convo import assistant, system, tool, user, words
from test_cli import cli_env, command

Message = dict[str, Any]


def agent_conversation(turns: int = 12) -> list[Message]:
    """Thinking-heavy assistant turns, a todo_write with open items, and an answered /btw side question."""
    todos = {"todos": [{"content": "Parse the config file", "status": "completed"},
                       {"content": "Add the retry flag", "status": "in_progress"},
                       {"content": "Write the changelog entry", "status": "pending"}]}
    history: list[Message] = [system("You are a coding agent."), user("Add a retry flag to the CLI."),
                              {"role": "assistant", "content": "", "reasoning_content": "plan " + words(200),
                               "tool_calls": [{"id": "t1", "type": "function", "function": {
                                   "name": "todo_write", "arguments": json.dumps(todos)}}]},
                              tool("t1", "Todos updated")]
    for i in range(turns):
        history.append(user(f"step {i}: " + words(60, i)))
        history.append({"role": "assistant", "content": f"<think>{words(300, i)}</think>Step {i} done. "
                        + words(40, i), "reasoning_content": words(200, i + 1)})
        if i == 3:
            history += [user("/btw what does SIGPIPE mean?"), assistant("It is sent when writing to a closed pipe.")]
    history.append(user("carry on with the flag"))
    return history


@pytest.fixture
def run(tmp_path: Path) -> Any:
    env = cli_env(tmp_path)

    def compact(messages: list[Message], *args: str) -> tuple[list[Message], dict[str, Any]]:
        source = tmp_path / "conversation.json"
        source.write_text(json.dumps(messages))
        done = subprocess.run(command("compact", source, "--json", *args), capture_output=True, text=True, env=env,
                              cwd=tmp_path, timeout=120)
        assert done.returncode == 0, done.stderr
        out = json.loads(done.stdout)
        return out["messages"], out["stats"]

    return compact


@pytest.mark.parametrize("window", ["65536", "8192"])
def test_no_reasoning_before_the_last_user_turn(run: Any, window: str) -> None:
    """Under the trigger and compacted alike, no assistant message before the last user turn carries thinking."""
    messages, _stats = run(agent_conversation(), "--context-window", window, "--store", ":memory:")
    last_user = max(i for i, m in enumerate(messages) if m["role"] == "user")
    for message in messages[:last_user]:
        if message["role"] == "assistant":
            assert "reasoning_content" not in message, message
            assert "<think>" not in json.dumps(message)


@pytest.mark.parametrize("window", ["65536", "8192"])
def test_open_todos_end_the_prompt(run: Any, window: str) -> None:
    """The latest todo_write's open items are in the last two messages; the completed one is not."""
    messages, _stats = run(agent_conversation(), "--context-window", window, "--store", ":memory:")
    tail = json.dumps(messages[-2:])
    assert "Add the retry flag" in tail and "Write the changelog entry" in tail
    assert "Parse the config file" not in tail
    assert "not a new request" in tail


def test_an_answered_side_question_is_absent(run: Any) -> None:
    """The earlier /btw question and its answer are not in the prompt."""
    messages, _stats = run(agent_conversation(), "--context-window", "65536", "--store", ":memory:")
    text = json.dumps(messages)
    assert "SIGPIPE" not in text and "closed pipe" not in text


def test_a_bigger_window_keeps_more_verbatim(run: Any, tmp_path: Path) -> None:
    """The same session at 8k and then at 32k, with the same --store: more messages verbatim at 32k."""
    history = agent_conversation(40)
    store = str(tmp_path / "store.sqlite")
    small, small_stats = run(history, "--context-window", "8192", "--store", store)
    big, _big_stats = run(history, "--context-window", "32768", "--store", store)
    assert small_stats["compacted"]

    def verbatim(sent: list[Message]) -> int:
        return sum(1 for m in sent if m in history)

    assert verbatim(big) > verbatim(small)


def test_each_behaviour_can_be_switched_off(run: Any, tmp_path: Path) -> None:
    """stripThinking, sideQuestions and taskReminderEvery 0 in a config file: the conversation comes back as it went in."""
    config = tmp_path / "options.json"
    config.write_text(json.dumps({"stripThinking": False, "sideQuestions": False, "taskReminderEvery": 0,
                                  "foldFailedCalls": False}))
    history = agent_conversation()
    messages, stats = run(history, "--context-window", "65536", "--store", ":memory:", "--config", str(config))
    assert messages == history and not stats["compacted"]
