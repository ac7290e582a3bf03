"""What /context-stats says about calibration, learned windows and the summary model."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
from llmfakes import chat_reply, sectioned

from context_compactor.hookspecs import AfterTurnEvent, BeforeAgentStartEvent, HookContext, ModelInfo, Usage
from context_compactor.hooks.commands import context_stats
from context_compactor.plugins import get_plugin_manager
from context_compactor.runtime import Runtime
from context_compactor.settings import Settings
from context_compactor.store import Store

MODEL = ModelInfo(id="m")


def turn(runtime: Runtime, messages: list[dict[str, Any]], **after: Any) -> str:
    pm = get_plugin_manager(load_entry_points=False)
    ctx = HookContext("s", runtime, MODEL)
    pm.hook.before_agent_start(event=BeforeAgentStartEvent(messages=messages, model=MODEL), ctx=ctx)
    pm.hook.after_turn(event=AfterTurnEvent(messages=messages, model=MODEL, **after), ctx=ctx)
    return context_stats("", ctx)


def test_the_estimate_is_shown_beside_the_measured_count(tmp_path: Path) -> None:
    """After a reported usage, the estimate of that prompt and the recalibrated one sit beside the count."""
    runtime = Runtime(Settings(), store=Store.open(tmp_path / "s.sqlite"))
    messages = [{"role": "user", "content": "word " * 400}]  # 2,000 chars
    stats = turn(runtime, messages, usage=Usage(prompt_tokens=400))
    runtime.close()
    assert "last measured by the provider: 400 prompt tokens; our estimate of that prompt: 504 (+26%)" in stats
    assert "with the ratio calibrated from it" in stats


def test_a_stated_window_in_an_error_is_learned_and_shown(tmp_path: Path) -> None:
    """An overflow error naming the size teaches the window; /context-stats then says where it came from."""
    runtime = Runtime(Settings(), store=Store.open(tmp_path / "s.sqlite"))
    error = "This model's maximum context length is 3000 tokens. However, you requested 4100 tokens"
    turn(runtime, [{"role": "user", "content": "hi"}], error=error)
    stats = turn(runtime, [{"role": "user", "content": "hi again"}])
    runtime.close()
    assert runtime.window_for(runtime.settings, MODEL) == (3000, "error")
    assert "context window: 3,000 tokens (stated by the server in a context-length error (3,000 tokens))" in stats


def test_the_summary_model_and_pre_summarization_are_reported(tmp_path: Path) -> None:
    """With a summary model, /context-stats names it, its record, and when pre-summarization starts."""
    http = httpx.Client(transport=httpx.MockTransport(lambda r: httpx.Response(200, json=chat_reply(sectioned()))))
    runtime = Runtime(Settings(contextWindow=4096, summaryModel={"baseUrl": "http://x.test/v1", "model": "sum",
                                                                "contextWindow": 8192}),
                      store=Store.open(tmp_path / "s.sqlite"), http=http)
    messages = [{"role": "user" if i % 2 == 0 else "assistant", "content": f"m{i} " + "text " * 240} for i in range(13)]
    stats = turn(runtime, messages)
    runtime.close()
    assert "- summaries: the session ledger, with a narrative by sum (" in stats and "model calls succeeded" in stats
    assert "- pre-summarization: from 1,843 tokens sent (60% of the trigger)" in stats


def test_without_a_model_the_stats_say_how_to_get_one(tmp_path: Path) -> None:
    """The built-in summarizer is named, with the settings that would bring a model in."""
    runtime = Runtime(Settings(), store=Store.open(tmp_path / "s.sqlite"))
    stats = turn(runtime, [{"role": "user", "content": "hi"}])
    runtime.close()
    assert "the session ledger, built from the messages" in stats and "summaryModel" in stats
    assert "- archive and cache (the store): " in stats


def test_a_host_session_model_is_named_with_its_record(tmp_path: Path) -> None:
    """OpenClaw's session model ("openclaw-llm:<model>") is named like any summary model, with its record."""
    from dataclasses import replace as with_

    from context_compactor.hooks.commands import format_stats
    from context_compactor.session_state import SessionState

    runtime = Runtime(Settings(), store=Store.open(tmp_path / "s.sqlite"))
    turn(runtime, [{"role": "user", "content": "hi"}])
    last = with_(runtime.session("s").last, summarizer="openclaw-llm:qwen3:8b")
    runtime.close()
    health = {"openclaw-llm:qwen3:8b": {"successes": 3, "failures": {"timeout": 1}, "backoff_seconds": 0, "consecutive": 0}}
    text = format_stats(last, SessionState(), {"health": health})
    assert "- summaries: the session ledger, with a narrative by qwen3:8b (3 model calls succeeded, failed: timeout 1)" in text
