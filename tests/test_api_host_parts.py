"""The public API parts in-process hosts use: pinned system messages, the recall tool, usage."""

from __future__ import annotations

from typing import Any

import pytest

from context_compactor import Compactor


def _history(pinned_at: int = 3) -> list[dict[str, Any]]:
    history: list[dict[str, Any]] = [{"role": "system", "content": "You are a helper."}]
    for i in range(40):
        history.append({"role": "user", "content": f"question {i} about the parser " + "word " * 60})
        history.append({"role": "assistant", "content": f"answer {i} about the parser " + "text " * 60})
        if i == pinned_at:
            history.append({"role": "system", "content": "Pinned: always answer in French."})
    return history


def test_pinned_system_message_is_never_folded() -> None:
    """A pinned system message deep in the folded part is sent verbatim, the host's own object, with the
    leading system messages; without the pin it is folded."""
    history = _history()
    pin = next(i for i, m in enumerate(history) if str(m["content"]).startswith("Pinned"))
    with Compactor(context_window=2000) as compactor:
        result = compactor.compact(history, pinned=[pin])
        assert result.stats.compacted
        assert result.messages[:2] == [history[0], history[pin]] and result.messages[1] is history[pin]
    with Compactor(context_window=2000) as compactor:
        assert all(m is not history[pin] for m in compactor.compact(history).messages)


def test_pinned_changes_nothing_below_the_trigger() -> None:
    """Under the trigger the history goes as it is, pinned or not (the input list itself)."""
    history = _history()[:11]
    with Compactor(context_window=100_000) as compactor:
        assert compactor.compact(history, pinned=[9]).messages is history


def test_only_system_messages_can_be_pinned() -> None:
    """Pinning a user message is an error that names it."""
    with Compactor(context_window=2000) as compactor, pytest.raises(ValueError, match="pinned message 5"):
        compactor.compact(_history(), pinned=[5])


def test_recall_answers_from_the_sessions_archive() -> None:
    """recall_tool() is the OpenAI tools entry; recall() answers a model's call from what was folded."""
    history = _history()
    with Compactor(context_window=2000) as compactor:
        compactor.compact(history)
        assert Compactor.recall_tool()["function"]["name"] == "recall_history"
        answer = compactor.recall('{"query": "question 2 parser"}')
        assert "question 2 about the parser" in answer
