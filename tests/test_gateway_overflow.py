"""Overflow recovery: a fake upstream enforcing a context window, with the error shapes real servers use."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openai
import pytest
from fakes import OVERFLOW_STYLES, Seen
from fakes.harness import Upstream, fake_upstream, gateway_for

from context_compactor.hookspecs import ModelInfo


def turn_text(i: int, chars: int = 700) -> str:
    return f"turn {i}: " + " ".join(f"fact-{i}-{j}" for j in range(chars // 10))


def converse(client: openai.OpenAI, turns: int, *, stream: bool = False, session: str = "long") -> list[dict[str, Any]]:
    """A growing conversation: each turn sends the whole history plus a new user message."""
    messages: list[dict[str, Any]] = [{"role": "system", "content": "You are a terse assistant."}]
    for i in range(turns):
        messages.append({"role": "user", "content": turn_text(i)})
        if stream:
            chunks = list(client.chat.completions.create(model="fake-model", messages=messages, stream=True,
                                                         extra_headers={"X-Session-Id": session}))
            text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
        else:
            reply = client.chat.completions.create(model="fake-model", messages=messages,
                                                   extra_headers={"X-Session-Id": session})
            text = reply.choices[0].message.content or ""
        assert text.startswith("reply #")
        messages.append({"role": "assistant", "content": text + " " + turn_text(i, 300)})
    return messages


def sdk(url: str) -> openai.OpenAI:
    return openai.OpenAI(base_url=url + "/v1", api_key="x", max_retries=0, timeout=60,
                         default_headers={"X-Session-Id": "long"})


def turns(up: Upstream) -> list[Seen]:
    """The requests the client's turns made (the summarizer's own calls to the same server left out)."""
    return [r for r in up.app.chats() if "x-session-id" in r.headers]


def test_a_long_session_overflows_without_the_gateway(tmp_path: Path) -> None:
    """Straight to the window-enforcing upstream, the same session fails with llama-cpp-python's 400."""
    with fake_upstream(context_window=3000) as up:
        with pytest.raises(openai.BadRequestError) as raised:
            converse(sdk(up.url), 30)
    assert raised.value.code == "context_length_exceeded" and "maximum context length is 3000" in raised.value.message


@pytest.mark.parametrize("stream", [False, True])
def test_a_long_session_completes_through_the_gateway(tmp_path: Path, stream: bool) -> None:
    """Through the gateway all 30 turns complete; after the first overflow teaches the window, none overflows."""
    with fake_upstream(context_window=3000) as up, gateway_for(up.url, tmp_path) as gw:
        messages = converse(sdk(gw.url), 30, stream=stream)
        refused = [r for r in turns(up) if r.prompt_tokens >= 3000]
        window = gw.runtime.window_for(gw.runtime.settings, ModelInfo(id="fake-model"))
    answered = [r for r in turns(up) if r.prompt_tokens < 3000]
    assert len(answered) == 30 and len(messages) == 61
    assert 1 <= len(refused) <= 2, [r.prompt_tokens for r in turns(up)]
    assert window[1] == "error" and window[0] <= 3000
    assert max(r.prompt_tokens for r in answered) < 3000 <= sum(len(m["content"]) for m in messages) / 3.5


@pytest.mark.parametrize("style", OVERFLOW_STYLES)
def test_each_server_shape_is_recovered_with_one_retry(tmp_path: Path, style: str) -> None:
    """For every server's overflow shape, one forced compaction to 0.9 of the stated window fits."""
    with fake_upstream(context_window=2000, overflow_style=style) as up, gateway_for(up.url, tmp_path) as gw:
        messages = [{"role": "user", "content": turn_text(i)} if i % 2 == 0 else
                    {"role": "assistant", "content": turn_text(i)} for i in range(15)]
        raw = sdk(gw.url).chat.completions.with_raw_response.create(model="fake-model", messages=messages)
    seen = turns(up)
    assert [r.status for r in seen] == [400, 200] and seen[1].prompt_tokens < 0.9 * 2000
    assert raw.headers["x-context-compactor-retries"] == "1" and raw.headers["x-context-compactor-compacted"] == "1"


def test_llama_cpp_python_empty_stream_is_recovered(tmp_path: Path) -> None:
    """llama-cpp-python's silent overflow (200, empty stream) is retried smaller, and the client gets a real stream."""
    with fake_upstream(context_window=2000) as up, gateway_for(up.url, tmp_path) as gw:
        messages = [{"role": "user", "content": turn_text(i)} if i % 2 == 0 else
                    {"role": "assistant", "content": turn_text(i)} for i in range(15)]
        chunks = list(sdk(gw.url).chat.completions.create(model="fake-model", messages=messages, stream=True))
    assert chunks and chunks[-1].choices[0].finish_reason == "stop"
    assert [r.prompt_tokens >= 2000 for r in turns(up)][:1] == [True] and turns(up)[-1].prompt_tokens < 2000


def test_an_overflow_error_event_opening_a_stream_is_recovered(tmp_path: Path) -> None:
    """An overflow sent as the first event of a 200 stream (as LM Studio does) is retried smaller too."""
    with fake_upstream(context_window=2000, overflow_style="lmstudio", overflow_in_stream=True) as up, \
            gateway_for(up.url, tmp_path) as gw:
        messages = [{"role": "user", "content": turn_text(i)} if i % 2 == 0 else
                    {"role": "assistant", "content": turn_text(i)} for i in range(15)]
        chunks = list(sdk(gw.url).chat.completions.create(model="fake-model", messages=messages, stream=True))
    assert chunks and chunks[-1].choices[0].finish_reason == "stop"
    assert [r.prompt_tokens >= 2000 for r in turns(up)] == [True, False]


def test_retries_stop_after_two_each_smaller_then_the_error_goes_back_unchanged(tmp_path: Path) -> None:
    """An upstream that refuses everything gets at most two retries, each smaller; the client sees its error."""
    with fake_upstream(context_window=1, overflow_style="openai-no-size") as up, gateway_for(up.url, tmp_path) as gw:
        messages = [{"role": "user", "content": turn_text(i)} if i % 2 == 0 else
                    {"role": "assistant", "content": turn_text(i)} for i in range(21)]
        with pytest.raises(openai.BadRequestError) as raised:
            sdk(gw.url).chat.completions.create(model="fake-model", messages=messages)
    sizes = [r.prompt_tokens for r in turns(up)]
    assert len(sizes) == 3 and sizes[0] > sizes[1] > sizes[2]
    assert raised.value.code == "context_length_exceeded"
    assert isinstance(raised.value.body, dict) and raised.value.body["message"].startswith("Your input exceeds")


def test_other_client_errors_are_not_retried(tmp_path: Path) -> None:
    """A 400 that is not about the context goes back to the client at once, body unchanged."""
    with fake_upstream(status=400) as up, gateway_for(up.url, tmp_path) as gw:
        with pytest.raises(openai.BadRequestError, match="fake upstream error 400"):
            sdk(gw.url).chat.completions.create(model="fake-model", messages=[{"role": "user", "content": "x"}])
    assert len(turns(up)) == 1


def test_a_window_the_server_states_is_used_before_any_overflow(tmp_path: Path) -> None:
    """When /v1/models states max_model_len, the gateway compacts to it from the first turn on."""
    with fake_upstream(context_window=3000, model_fields={"max_model_len": 3000}) as up, \
            gateway_for(up.url, tmp_path) as gw:
        converse(sdk(gw.url), 25)
    assert all(r.prompt_tokens < 3000 for r in turns(up))


def test_a_stated_window_caps_a_larger_configured_one(tmp_path: Path) -> None:
    """In front of a 2,048-token llama.cpp server with contextWindow 8192, only the first overflow is retried."""
    with fake_upstream(context_window=2048, overflow_style="llama-server") as up, \
            gateway_for(up.url, tmp_path, settings={"contextWindow": 8192}) as gw:
        client = sdk(gw.url)
        messages = converse(client, 10)
        window = gw.runtime.window_for(gw.runtime.settings, ModelInfo(id="fake-model"))
        stats = client.chat.completions.create(
            model="fake-model", messages=[*messages, {"role": "user", "content": "/context-stats"}])
    statuses = [r.status for r in turns(up)]
    assert statuses.count(400) <= 1 and statuses.count(200) == 10, statuses
    assert window == (2048, "error")
    text = stats.choices[0].message.content or ""
    assert "context window: 2,048 tokens (stated by the server" in text, text


def test_the_stats_right_after_a_recovery_show_the_window_the_next_turn_uses(tmp_path: Path) -> None:
    """After the turn that overflowed, /context-stats shows the stated window, as the next turn plans for it."""
    with fake_upstream(context_window=2048, overflow_style="llama-server") as up, \
            gateway_for(up.url, tmp_path, settings={"contextWindow": 8192}) as gw:
        client = sdk(gw.url)
        messages = [{"role": "user", "content": turn_text(i)} if i % 2 == 0 else
                    {"role": "assistant", "content": turn_text(i)} for i in range(15)]
        raw = client.chat.completions.with_raw_response.create(model="fake-model", messages=messages)
        stats = client.chat.completions.create(
            model="fake-model", messages=[*messages, {"role": "user", "content": "/context-stats"}])
        planned = gw.runtime.window_for(gw.runtime.settings_for(ModelInfo(id="fake-model")), ModelInfo(id="fake-model"))
    assert raw.headers["x-context-compactor-retries"] == "1" and planned == (2048, "error")
    assert "context window: 2,048 tokens (stated by the server" in (stats.choices[0].message.content or "")


def test_overflow_recovery_goes_through_the_before_agent_start_hook(tmp_path: Path) -> None:
    """The retry's smaller prompt comes from before_agent_start: a plugin's hook sees the call and the stated window."""
    from context_compactor.hookspecs import BeforeAgentStartEvent, HookContext, hookimpl

    seen: list[tuple[int, str]] = []

    class Watcher:
        @hookimpl(tryfirst=True)
        def before_agent_start(self, event: BeforeAgentStartEvent, ctx: HookContext) -> None:
            seen.append(ctx.runtime.window_for(ctx.runtime.settings_for(event.model), event.model))

    with fake_upstream(context_window=2000, overflow_style="vllm") as up, \
            gateway_for(up.url, tmp_path, settings={"contextWindow": 8192}) as gw:
        gw.app.pm.register(Watcher())
        messages = [{"role": "user", "content": turn_text(i)} if i % 2 == 0 else
                    {"role": "assistant", "content": turn_text(i)} for i in range(15)]
        sdk(gw.url).chat.completions.create(model="fake-model", messages=messages)
    assert [r.status for r in turns(up)] == [400, 200]
    assert seen[0] == (8192, "config") and (2000, "error") in seen[1:]


def test_a_turn_planned_again_after_an_overflow_leaves_out_a_recall_schema_that_no_longer_fits(tmp_path: Path) -> None:
    """The retry after an overflow is planned for the window the server stated; recall_history's schema goes
    only when it still fits beside it (it went regardless: 5,095 tokens to a 5,000 window, refused again, and
    the client got the 400 although the compacted prompt fitted)."""
    from context_compactor.engine import Measurer
    from context_compactor.tokens import CharCounter

    tools = [{"type": "function", "function": {"name": "read_file", "description": ("d " * 10_000)[:19_400],
                                               "parameters": {"type": "object",
                                                              "properties": {"path": {"type": "string"}}}}}]
    messages = [{"role": "system", "content": "You are a coding agent."}]
    for i in range(40):
        messages += [{"role": "user", "content": f"step {i}: " + f"module-{i} " * 60},
                     {"role": "assistant", "content": f"done {i}: " + f"file-{i} " * 60}]
    messages.append({"role": "user", "content": "go on"})
    with fake_upstream(context_window=5000, overflow_style="openai", chars_per_token=4.0,
                       template_tokens_per_message=4) as up, \
            gateway_for(up.url, tmp_path, settings={"contextWindow": 16384, "calibrate": False}) as gw:
        reply = sdk(gw.url).chat.completions.with_raw_response.create(model="fake-model", messages=messages,
                                                                        tools=tools)
    retried = up.app.chats()[-1].body
    sent = Measurer(CharCounter(4.0), 4).measure(retried["messages"], "", retried["tools"]).total
    assert reply.headers["x-context-compactor-retries"] == "1"
    assert [t["function"]["name"] for t in retried["tools"]] == ["read_file"]
    assert sent <= 5000
