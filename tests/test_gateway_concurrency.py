"""Many sessions at once: no errors, no summary crossing from one session into another, one compaction
per session even when its requests race."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import httpx
import openai
import pytest
import structlog
from fakes.harness import fake_upstream, gateway_for

SESSIONS, TURNS = 20, 12  # each turn is long, so every session compacts from about its fifth turn on
TAG = re.compile(r"<sess-(\d\d)>")


async def one_session(client: openai.AsyncOpenAI, k: int) -> int:
    tag = f"<sess-{k:02d}>"
    messages: list[dict[str, Any]] = [{"role": "system", "content": f"Agent for {tag}."}]
    for turn in range(TURNS):
        messages.append({"role": "user", "content": f"{tag} turn {turn}: " + f"path/{k}/{turn}.py {tag} " * 60})
        reply = await client.chat.completions.create(model="fake-model", messages=messages,  # type: ignore[arg-type]
                                                     extra_headers={"X-Session-Id": f"s{k:02d}"})
        messages.append({"role": "assistant", "content": f"{tag} " + (reply.choices[0].message.content or "")})
    return len(messages)


@pytest.mark.slow
def test_concurrent_sessions_never_mix(tmp_path: Path) -> None:
    """20 concurrent sessions x 12 turns all succeed and compact; every upstream request, the summary
    calls to the same model included, carries one session's material only."""
    settings = {"contextWindow": 3000, "summarizeWithSessionModel": True, "chunkTokens": 512}
    with fake_upstream() as up, gateway_for(up.url, tmp_path, settings=settings) as gw:

        async def main() -> list[int]:
            async with openai.AsyncOpenAI(base_url=gw.url + "/v1", api_key="x", max_retries=0, timeout=120) as client:
                return await asyncio.gather(*(one_session(client, k) for k in range(SESSIONS)))

        lengths = asyncio.run(main())
    assert lengths == [2 * TURNS + 1] * SESSIONS
    chats = [r for r in up.app.requests if r.path.endswith("/chat/completions")]  # summary calls included
    turns = [r for r in chats if "x-session-id" in r.headers]
    summaries = [r for r in chats if "x-session-id" not in r.headers]  # the LLM summarizer's own calls
    assert len(turns) == SESSIONS * TURNS and all(r.status == 200 for r in turns)
    summarized = 0
    for request in turns:
        owner = request.headers["x-session-id"][1:]
        text = json.dumps(request.body["messages"])
        assert set(TAG.findall(text)) == {owner}, f"request of session {owner} names {set(TAG.findall(text))}"
        summarized += "[context-compactor: ledger of" in text
    assert summaries, f"no summary was asked of the model ({summarized} compacted turns): the check below would be empty"
    for request in summaries:
        if request.body is None:  # a summary a client's turn cancelled before its body was sent
            continue
        assert len(set(TAG.findall(json.dumps(request.body["messages"])))) == 1
    assert summarized > SESSIONS * 5, summarized  # compaction did happen, in every session's later turns


def test_racing_requests_of_one_session_compact_once(tmp_path: Path) -> None:
    """Eight identical requests of one session sent at once produce one compaction, not eight."""
    messages = [{"role": "user" if i % 2 == 0 else "assistant", "content": f"message {i} " + "word " * 200}
                for i in range(31)]
    with structlog.testing.capture_logs() as logs:
        with fake_upstream() as up, gateway_for(up.url, tmp_path, settings={"contextWindow": 3000}) as gw:

            async def main() -> list[httpx.Response]:
                async with httpx.AsyncClient(timeout=60) as client:
                    return await asyncio.gather(*(client.post(
                        gw.url + "/v1/chat/completions", headers={"X-Session-Id": "race"},
                        json={"model": "m", "messages": messages}) for _ in range(8)))

            responses = asyncio.run(main())
    assert [r.status_code for r in responses] == [200] * 8
    assert all(r.headers["x-context-compactor-compacted"] == "1" for r in responses)
    assert len([line for line in logs if line["event"] == "compaction.done"]) == 1
    sent = {json.dumps(r.body["messages"]) for r in up.app.chats() if r.headers.get("x-session-id") == "race"}
    assert len(sent) == 1  # the same bytes for every racer
