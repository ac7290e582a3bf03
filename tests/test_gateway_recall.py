"""recall_history in ``serve``: offered once a session has compacted, answered by the gateway inside the
turn, the client seeing only the final answer (openai SDK, streamed and not), its own tools untouched."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fakes.chat import offers_tool, text_of, tool_call
from fakes.harness import Upstream, fake_upstream, gateway_for, sdk, serve_upstream
from fakes.upstream import Behaviour, FakeUpstream

from context_compactor.engine import Measurer
from context_compactor.hooks.recall import FENCE_CLOSE, FENCE_OPEN
from context_compactor.tokens import CharCounter

ORIGINAL = ("DEPLOY_TOKEN=TOKEN-93c1f\nDEPLOY_CLUSTER=staging-eu-2\nROTATE_ON=first-monday\n"
            "# the staging cluster deploy token: never paste it into chat logs")
QUESTION = "What was the deploy token for the staging cluster?"
TOOLS = [{"type": "function", "function": {"name": "read_file", "description": "Read a file",
                                           "parameters": {"type": "object", "properties": {"path": {"type": "string"}}}}}]


class RecallingModel(FakeUpstream):
    """A scripted model: asked a question it cannot see the answer to, it searches with recall_history,
    reads the best hit by its id, and answers with the original text it got back."""

    def _reply(self, body: dict[str, Any], n: int) -> dict[str, Any]:
        messages = body["messages"]
        last = messages[-1] if messages else {}
        if last.get("role") == "tool" and str(last.get("tool_call_id", "")).startswith("recall-"):
            result = text_of(last.get("content"))
            if str(last["tool_call_id"]) == "recall-search":
                first = re.search(r"^(#\d+) \(tool", result, re.MULTILINE)
                return _call("recall-read", {"id": first.group(1) if first else "#0"})
            return {"role": "assistant", "content": "From the archive: " + unfenced(result)}
        if offers_tool(body, "recall_history") and last.get("role") == "user" and text_of(last.get("content")).endswith(QUESTION):
            return _call("recall-search", {"query": "deploy token staging cluster"})
        return super()._reply(body, n)


def unfenced(result: str) -> str:
    """The archived text between a recall answer's fence lines (the answer itself when it has none)."""
    lines = result.split("\n")
    opens = [i for i, line in enumerate(lines) if line.startswith(FENCE_OPEN + " ")]
    closes = [i for i, line in enumerate(lines) if line.startswith(FENCE_CLOSE + " ")]
    return "\n".join(lines[opens[0] + 1:closes[-1]]) if opens and closes else result


def _call(call_id: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return tool_call(call_id, "recall_history", arguments)


@pytest.fixture
def upstream() -> Iterator[Upstream]:
    with serve_upstream(RecallingModel(Behaviour())) as up:
        yield up


def long_history(question: str) -> list[dict[str, Any]]:
    """A conversation whose early tool result (ORIGINAL) is folded away at an 8k window, ending on ``question``."""
    call = {"id": "c1", "type": "function", "function": {"name": "bash", "arguments": '{"command": "cat deploy.env"}'}}
    messages: list[dict[str, Any]] = [{"role": "system", "content": "You are a careful coding agent."},
                                      {"role": "user", "content": "Check the deploy settings."},
                                      {"role": "assistant", "content": None, "tool_calls": [call]},
                                      {"role": "tool", "tool_call_id": "c1", "content": ORIGINAL},
                                      {"role": "assistant", "content": "Read them."}]
    for i in range(24):
        messages.append({"role": "user", "content": f"step {i}: " + f"refactor-module-{i} " * 90})
        messages.append({"role": "assistant", "content": f"done {i}: " + f"edited-file-{i} " * 90})
    messages.append({"role": "user", "content": question})
    return messages


def _offers_recall(body: dict[str, Any]) -> bool:
    return offers_tool(body, "recall_history")


def test_nothing_is_added_before_the_first_compaction(upstream: Upstream, tmp_path: Path) -> None:
    """A session that never compacted sends the client's request without the recall tool."""
    with gateway_for(upstream.url, tmp_path, settings={"contextWindow": 8000}) as gw:
        sdk(gw.url).chat.completions.create(model="m", messages=[{"role": "user", "content": QUESTION}])
    body = upstream.app.chats()[-1].body
    assert "tools" not in body and body["messages"] == [{"role": "user", "content": QUESTION}]


@pytest.mark.parametrize("stream", [False, True])
def test_the_model_recalls_a_folded_message_and_the_client_sees_only_the_answer(
        upstream: Upstream, tmp_path: Path, stream: bool) -> None:
    """The model searches, reads the original by id, and answers with it; the client gets that answer alone."""
    messages = long_history(QUESTION)
    with gateway_for(upstream.url, tmp_path, settings={"contextWindow": 8000}) as gw:
        client = sdk(gw.url)
        if stream:
            chunks = list(client.chat.completions.create(model="m", messages=messages, stream=True,
                                                         extra_headers={"X-Session-Id": "r1"}))
            text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
            calls = [tc for c in chunks if c.choices for tc in (c.choices[0].delta.tool_calls or [])]
            finish = [c.choices[0].finish_reason for c in chunks if c.choices and c.choices[0].finish_reason]
        else:
            reply = client.chat.completions.create(model="m", messages=messages, extra_headers={"X-Session-Id": "r1"})
            text, calls = reply.choices[0].message.content or "", reply.choices[0].message.tool_calls or []
            finish = [reply.choices[0].finish_reason]
    sent = upstream.app.chats()
    assert [_offers_recall(r.body) for r in sent] == [True, True, True]
    assert ORIGINAL not in json.dumps(sent[0].body["messages"])  # folded away: only the archive has it
    assert ORIGINAL in text_of(sent[-1].body["messages"][-1]["content"])  # the tool gave the original back
    assert text == "From the archive: " + ORIGINAL
    assert calls == [] and finish == ["stop"]


def test_a_clients_own_tool_call_passes_untouched(upstream: Upstream, tmp_path: Path) -> None:
    """With recall offered, the model's call to the client's own tool reaches the client as the model made it."""
    messages = long_history("please use a tool to read setup.py")
    with gateway_for(upstream.url, tmp_path, settings={"contextWindow": 8000}) as gw:
        chunks = list(sdk(gw.url).chat.completions.create(model="m", messages=messages, tools=TOOLS, stream=True))
    calls = [tc for c in chunks if c.choices for tc in (c.choices[0].delta.tool_calls or [])]
    body = upstream.app.chats()[-1].body
    assert body["tools"][: len(TOOLS)] == TOOLS and _offers_recall(body)
    assert calls[0].function.name == "read_file" and len(upstream.app.chats()) == 1
    assert [c.choices[0].finish_reason for c in chunks if c.choices and c.choices[0].finish_reason] == ["tool_calls"]


class MixingModel(RecallingModel):
    """Answers the question with two calls at once: the client's read_file and recall_history."""

    def _reply(self, body: dict[str, Any], n: int) -> dict[str, Any]:
        last = body["messages"][-1]
        if _offers_recall(body) and last.get("role") == "user" and text_of(last.get("content")).endswith(QUESTION):
            both = _call("recall-search", {"query": "deploy token"})
            both["tool_calls"].insert(0, {"id": "client-1", "type": "function",
                                          "function": {"name": "read_file", "arguments": '{"path": "deploy.env"}'}})
            return both
        return super()._reply(body, n)


@pytest.mark.parametrize("stream", [False, True])
def test_a_reply_mixing_calls_reaches_the_client_with_its_own_calls_only(tmp_path: Path, stream: bool) -> None:
    """When the model calls the client's tool and recall_history together, the client gets its own call alone."""
    with serve_upstream(MixingModel(Behaviour())) as up, \
            gateway_for(up.url, tmp_path, settings={"contextWindow": 8000}) as gw:
        client = sdk(gw.url)
        if stream:
            chunks = list(client.chat.completions.create(model="m", messages=long_history(QUESTION), tools=TOOLS,
                                                         stream=True))
            parts = [tc for c in chunks if c.choices for tc in (c.choices[0].delta.tool_calls or [])]
            calls = [(p.id, p.function.name) for p in parts if p.id]
        else:
            reply = client.chat.completions.create(model="m", messages=long_history(QUESTION), tools=TOOLS)
            calls = [(c.id, c.function.name) for c in reply.choices[0].message.tool_calls or []]
    assert calls == [("client-1", "read_file")]
    assert len(up.app.chats()) == 1


# --- the window promise on what the gateway adds after the plan ----------------------------------

WINDOW = 4096


def _sent_tokens(body: dict[str, Any]) -> int:
    """A request the upstream got, counted as the plan counts (4 characters a token, 4 a message)."""
    return Measurer(CharCounter(4.0), 4).measure(body["messages"], "", body.get("tools") or []).total


def test_the_recall_schema_is_left_out_when_it_would_push_a_fitting_prompt_over_the_window(tmp_path: Path) -> None:
    """A compacted turn planned to within ~120 tokens of the window goes out without recall_history (its
    schema was added after the plan: 4,145 tokens went to a 4,096 window, said to fit)."""
    wide = [{"type": "function", "function": {"name": "read_file", "description": ("d " * 9000)[:15_600],
                                              "parameters": {"type": "object",
                                                             "properties": {"path": {"type": "string"}}}}}]
    history = long_history("go on")[:27] + [{"role": "user", "content": "go on"}]
    with fake_upstream() as up, gateway_for(up.url, tmp_path, settings={"contextWindow": WINDOW,
                                                                         "calibrate": False}) as gw:
        reply = sdk(gw.url).chat.completions.with_raw_response.create(model="m", messages=history, tools=wide)
    body = up.app.chats()[-1].body
    assert reply.headers["x-context-compactor-compacted"] == "1"
    assert "x-context-compactor-warning" not in reply.headers
    assert not _offers_recall(body), "recall_history was offered although its schema does not fit"
    assert _sent_tokens(body) <= WINDOW


def test_once_a_session_compacted_its_plans_leave_room_for_the_recall_schema(tmp_path: Path) -> None:
    """Compacted turns at 8k are planned with recall_history's schema (the plan's figure is the request
    sent, schema included), so a prompt planned near the window (a long current turn) keeps it. Planned
    without it, it was left out of a turn with less than its 166 tokens to spare and put back on the next,
    and the tools, which come first in a prompt, rewrote all of it for a server's prompt cache."""
    window = 8192
    wide = [{"type": "function", "function": {"name": "read_file", "description": ("d " * 8000)[:12_000],
                                              "parameters": {"type": "object",
                                                             "properties": {"path": {"type": "string"}}}}}]
    long_turn = "go on with the refactor; here are the notes:\n" + "note-value-for-the-refactor " * 580
    history = long_history("go on")
    history += [{"role": "assistant", "content": "ok " * 400}, {"role": "user", "content": "more " * 900}] * 3
    with fake_upstream() as up, gateway_for(up.url, tmp_path, settings={"contextWindow": window,
                                                                         "calibrate": False}) as gw:
        client = sdk(gw.url)
        client.chat.completions.create(model="m", messages=history, tools=wide, extra_headers={"X-Session-Id": "s"})
        later = [*history, {"role": "assistant", "content": "ok"}, {"role": "user", "content": long_turn}]
        reply = client.chat.completions.with_raw_response.create(model="m", messages=later, tools=wide,
                                                                 extra_headers={"X-Session-Id": "s"})
    body = up.app.chats()[-1].body
    assert reply.headers["x-context-compactor-compacted"] == "1"
    assert "x-context-compactor-warning" not in reply.headers
    assert _sent_tokens(body) > window - 400, ("the turn was not planned near the window", _sent_tokens(body))
    assert _offers_recall(body), "a compacted turn near the window was sent without recall_history"
    planned = int(reply.headers["x-context-compactor-tokens"].split("->")[1])
    assert planned == _sent_tokens(body), "the plan did not count the recall schema it sent"
    assert _sent_tokens(body) <= window


BIG = "\n".join(f"line {i}: " + "configuration-value " * 6 for i in range(400))  # ~54,000 characters


class PagingModel(FakeUpstream):
    """A scripted model that reads archived message #3 page after page with recall_history, then answers."""

    def _reply(self, body: dict[str, Any], n: int) -> dict[str, Any]:
        last = body["messages"][-1]
        if not _offers_recall(body):
            return super()._reply(body, n)
        if last.get("role") != "tool":
            return _call(f"recall-{n}", {"id": "#3"})
        more = re.search(r"offset (\d+)\]", text_of(last.get("content")))
        if more:
            return _call(f"recall-{n}", {"id": "#3", "offset": int(more.group(1))})
        return {"role": "assistant", "content": "read it all"}


@pytest.mark.parametrize("stream", [False, True])
def test_owned_tool_rounds_cut_their_answers_to_the_window(tmp_path: Path, stream: bool) -> None:
    """Each continued request of a recall round stays within the window, its answer cut with a note (the
    rounds had been appended unchecked: 8,438 tokens sent to a 4,096 window, said to fit)."""
    history = long_history("What did line 7 of the config say?")
    history[3] = {"role": "tool", "tool_call_id": "c1", "content": BIG}
    with serve_upstream(PagingModel(Behaviour())) as up, \
            gateway_for(up.url, tmp_path, settings={"contextWindow": WINDOW, "calibrate": False}) as gw:
        client = sdk(gw.url)
        if stream:
            chunks = list(client.chat.completions.create(model="m", messages=history, stream=True))
            answer = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
        else:
            answer = client.chat.completions.create(model="m", messages=history).choices[0].message.content or ""
    bodies = [seen.body for seen in up.app.chats() if _offers_recall(seen.body)]
    assert len(bodies) >= 2, "the model was never answered from the archive"
    assert [_sent_tokens(b) for b in bodies if _sent_tokens(b) > WINDOW] == []
    assert answer == "read it all"
    assert text_of(bodies[-1]["messages"][-1].get("content")).endswith(
        "[context-compactor: the rest of this answer was left out to fit the context window]")
