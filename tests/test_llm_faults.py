"""Model summaries through the hooks against a fake model server on a real socket, faults included.

Every fault ends the same way: the turn gets its projection within ``summaryTimeoutSeconds``,
the failed chunks use the built-in summary, the user gets a notice naming what went wrong, and
``/context-stats`` counts it.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from llmfakes import Behaviour, FakeModelServer, chat_reply, sectioned

from context_compactor.hookspecs import BeforeAgentStartEvent, HookContext, ModelInfo
from context_compactor.hooks.commands import context_stats
from context_compactor.plugins import get_plugin_manager
from context_compactor.runtime import Runtime
from context_compactor.settings import Settings
from context_compactor.store import Store

CHAT = "/v1/chat/completions"
MODEL = ModelInfo(id="session-model")


def conversation(turns: int = 6, chars: int = 1200) -> list[dict[str, Any]]:
    """About 300 tokens a message: with a 4,096 window (so a 1,024-token tail), 6 turns fold two closed
    1,024-token chunks (and the open one after them)."""
    out: list[dict[str, Any]] = [{"role": "system", "content": "You are an agent."}]
    for i in range(turns):
        out.append({"role": "user", "content": f"step {i}: handle ticket APP-{100 + i} " + "lorem ipsum " * (chars // 12)})
        out.append({"role": "assistant", "content": f"done {i}: " + "dolor sit " * (chars // 10)})
    out.append({"role": "user", "content": "and now?"})
    return out


@pytest.fixture
def fake() -> Iterator[FakeModelServer]:
    with FakeModelServer({CHAT: Behaviour.ok(chat_reply(sectioned("model")))}) as server:
        yield server


@pytest.fixture
def runtime_for(make_runtime: Any) -> Any:
    """A runtime whose summary model is the fake at ``url`` (closed after the test, by ``make_runtime``)."""

    def make(url: str, budget: float = 5.0, **options: Any) -> Runtime:
        return make_runtime(contextWindow=4096, summaryTimeoutSeconds=budget, **options,
                            summaryModel={"baseUrl": url + "/v1", "model": "fake", "timeoutSeconds": 3,
                                          "contextWindow": 8192})

    return make


def turn(runtime: Runtime, messages: list[dict[str, Any]], session: str = "s") -> tuple[Any, float]:
    pm = get_plugin_manager(load_entry_points=False)
    started = time.monotonic()
    result = pm.hook.before_agent_start(event=BeforeAgentStartEvent(messages=messages, model=MODEL),
                                        ctx=HookContext(session, runtime, MODEL))
    return result, time.monotonic() - started


def summary_of(result: Any) -> str:
    return next(m["content"] for m in result.messages if "[context-compactor: ledger of" in str(m.get("content")))


def test_a_model_summary_is_used_and_cached(fake: FakeModelServer, runtime_for: Any) -> None:
    """The model writes the narrative of the newest closed chunk, once; a fresh runtime on the same store asks
    the model nothing."""
    runtime = runtime_for(fake.url)
    result, _ = turn(runtime, conversation())
    asked = len(fake.seen(CHAT))
    assert asked == 1 and result.stats["summarizer"] == "llm:fake" and result.stats["fallbacks"] == 0
    assert "model: goal and standing instructions item" in summary_of(result)
    assert all(r.headers["x-context-compactor-purpose"] == "summary" for r in fake.seen(CHAT))
    again = Runtime(runtime.settings, store=runtime.store)
    assert summary_of(turn(again, conversation(), session="other")[0]) == summary_of(result)
    assert len(fake.seen(CHAT)) == asked


FAULTS = {
    "hang": (Behaviour("hang", delay=10), "timeout", 1.5),
    "500": (Behaviour.error(500, {"error": {"message": "CUDA out of memory"}}), "server_error", 5.0),
    "429": (Behaviour.error(429, {"error": {"message": "busy"}}, retry_after="1"), "rate_limited", 5.0),
    "malformed JSON": (Behaviour("malformed"), "malformed", 5.0),
    "connection reset": (Behaviour("reset"), "connection", 5.0),
    "slow trickle": (Behaviour("trickle", body=chat_reply(sectioned()), delay=0.3), "timeout", 1.5),
}


@pytest.mark.parametrize("fault", FAULTS)
def test_each_fault_ends_in_the_fallback_within_the_time_budget(fake: FakeModelServer, runtime_for: Any,
                                                                 fault: str) -> None:
    """Hang, 500, 429, malformed JSON, reset, trickle: built-in summary, in time, with notice and counter."""
    behaviour, kind, budget = FAULTS[fault]
    fake.route(CHAT, behaviour)
    runtime = runtime_for(fake.url, budget=budget)
    result, elapsed = turn(runtime, conversation())
    assert elapsed < budget + 0.75, f"{fault}: the turn took {elapsed:.2f}s"
    assert result.messages is not None and result.stats["fallbacks"] == 1
    assert "## " in summary_of(result) and "## Narrative" not in summary_of(result)  # the ledger alone
    notice = next(n for n in result.notices if "summary model" in n)
    expected = "did not answer within" if kind == "timeout" else kind
    assert expected in notice, notice
    counted = runtime.session("s").state["summary_fallbacks"]
    assert counted.get(kind, 0) == 1 and sum(counted.values()) == 1, counted
    stats = context_stats("", HookContext("s", runtime, MODEL))
    assert "built-in summary used instead of the model in this conversation" in stats and f"{kind} " in stats


def test_a_late_summary_is_cached_for_the_next_turn(fake: FakeModelServer, runtime_for: Any) -> None:
    """A model slower than the budget: this turn falls back, the next turn uses its summary, asking nothing new."""
    fake.route(CHAT, Behaviour.ok(chat_reply(sectioned("late")), delay=1.2))
    runtime = runtime_for(fake.url, budget=0.5)
    messages = conversation()
    first, elapsed = turn(runtime, messages)
    assert elapsed < 1.25 and first.stats["fallbacks"] == 1 and "late:" not in summary_of(first)
    assert runtime.background.wait_idle(10)
    asked = len(fake.seen(CHAT))
    second, _ = turn(runtime, [*messages, {"role": "assistant", "content": "ok"}, {"role": "user", "content": "go on"}])
    assert second.stats["fallbacks"] == 0 and "late: goal and standing instructions item" in summary_of(second)
    assert len(fake.seen(CHAT)) == asked == 1


def test_the_next_turn_asks_again_and_a_failing_model_is_backed_off(fake: FakeModelServer, runtime_for: Any) -> None:
    """After a failure the next turn tries again; after three in a row the model is left alone."""
    fake.route(CHAT, Behaviour.error(500))
    runtime = runtime_for(fake.url)
    runtime.summarizer_for(runtime.settings, MODEL).retries = 0
    messages = conversation()
    for asked in (1, 2, 3):  # a fallback is not memoised: the model is asked again, once a turn ...
        result, _ = turn(runtime, messages)
        assert len(fake.seen(CHAT)) == asked and result.stats["fallbacks"] == 1
        assert "paused after repeated failures" not in " ".join(result.notices)
    result, _ = turn(runtime, messages)  # ... until the third failure in a row pauses it
    assert len(fake.seen(CHAT)) == 3 and "paused after repeated failures" in " ".join(result.notices)
    stats = context_stats("", HookContext("s", runtime, MODEL))
    assert "paused for" in stats and "server_error 3" in stats


def test_a_summary_model_overflow_teaches_its_window(fake: FakeModelServer, runtime_for: Any) -> None:
    """The summary server's context-length error falls back, and its stated size caps the next chunks."""
    fake.route(CHAT, Behaviour.error(400, {"error": {
        "message": "This model's maximum context length is 512 tokens. However, you requested 1200 tokens",
        "type": "invalid_request_error", "param": "messages", "code": "context_length_exceeded"}}))
    runtime = runtime_for(fake.url)
    result, _ = turn(runtime, conversation())
    assert result.stats["fallbacks"] >= 1 and "context_length" in " ".join(result.notices)
    llm = runtime.summarizer_for(runtime.settings, MODEL)
    assert llm.endpoint.context_window == 512 and llm.readable_tokens(250) == 256


def test_ollama_api_chat_through_the_hooks(tmp_path: Path) -> None:
    """With api 'ollama' the summaries go to /api/chat in Ollama's shape and come back into the block."""
    from llmfakes import ollama_reply

    with FakeModelServer({"/api/chat": Behaviour.ok(ollama_reply(sectioned("ollama")))}) as server:
        runtime = Runtime(Settings(contextWindow=4096, summaryModel={
            "baseUrl": server.url, "model": "llama3.2", "api": "ollama", "contextWindow": 8192}),
            store=Store.open(tmp_path / "ollama.sqlite"))
        try:
            result, _ = turn(runtime, conversation())
        finally:
            runtime.close()
        asked = server.seen("/api/chat")
    assert len(asked) == 1 and asked[0].body["model"] == "llama3.2" and asked[0].body["stream"] is False
    assert result.stats["fallbacks"] == 0 and "ollama: goal and standing instructions item" in summary_of(result)


def run_with(runtime: Runtime, model: ModelInfo) -> Any:
    pm = get_plugin_manager(load_entry_points=False)
    return pm.hook.before_agent_start(event=BeforeAgentStartEvent(messages=conversation(), model=model),
                                      ctx=HookContext("s", runtime, model))


def test_the_session_model_summarizes_when_asked(fake: FakeModelServer, tmp_path: Path) -> None:
    """By default the host's model, URL and key write the summaries; summarizeWithSessionModel false: the built-in one."""
    model = ModelInfo(id="fake", base_url=fake.url + "/v1", api="openai-completions", context_window=4096,
                      api_key="sk-session-key")
    plain = Runtime(Settings(summarizeWithSessionModel=False), store=Store.open(tmp_path / "plain.sqlite"))
    assert run_with(plain, model).stats["summarizer"] == "extractive" and fake.seen(CHAT) == []
    plain.close()
    runtime = Runtime(Settings(), store=Store.open(tmp_path / "session.sqlite"))
    try:
        result = run_with(runtime, model)
    finally:
        runtime.close()
    assert result.stats["summarizer"] == "llm:fake" and result.stats["fallbacks"] == 0
    assert {r.headers["authorization"] for r in fake.seen(CHAT)} == {"Bearer sk-session-key"}


def test_summary_model_key_comes_from_the_environment(fake: FakeModelServer, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """apiKeyEnv names the variable that holds the summary model's key."""
    monkeypatch.setenv("SUMMARY_KEY_FOR_TEST", "sk-from-env")
    runtime = Runtime(Settings(contextWindow=4096, summaryModel={
        "baseUrl": fake.url + "/v1", "model": "fake", "apiKeyEnv": "SUMMARY_KEY_FOR_TEST", "contextWindow": 8192}),
        store=Store.open(tmp_path / "env.sqlite"))
    try:
        run_with(runtime, MODEL)
    finally:
        runtime.close()
    assert {r.headers["authorization"] for r in fake.seen(CHAT)} == {"Bearer sk-from-env"}
