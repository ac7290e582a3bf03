"""What ``serve`` tells clients, logs and ``/metrics`` adds up (issue 28): complete streams are 200s even
when the client hangs up right after [DONE], a cut stream is counted as cut, one unreachable upstream is
labelled alike for chat and forwarded requests, a streamed reply mixing recall_history with a client's
call keeps the client's indexes, and the gateway's own command exchanges stay out of later prompts."""

from __future__ import annotations

import re
import socket
from pathlib import Path
from typing import Any

import httpx
import pytest
import structlog
from fakes import free_port
from fakes.chat import offers_tool, text_of, tool_call
from fakes.harness import fake_upstream, gateway_for, sdk, serve_upstream
from fakes.upstream import Behaviour, FakeUpstream
from test_gateway_recall import QUESTION, TOOLS, long_history


def metric(text: str, name: str) -> float:
    found = re.search(rf"^{re.escape(name)} (\S+)$", text, re.MULTILINE)
    return float(found.group(1)) if found else 0.0


def requests(logs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in logs if e["event"] == "gateway.request"]


def test_a_client_that_hangs_up_after_done_is_counted_as_a_complete_200(tmp_path: Path) -> None:
    """The openai SDK closes its connection once it has read [DONE]; that stream was whole, so it is a
    200 in the log and the metrics, never a 499."""
    with fake_upstream() as up, gateway_for(up.url, tmp_path) as gw, structlog.testing.capture_logs() as logs:
        client = sdk(gw.url)
        for _ in range(3):
            stream = client.chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}],
                                                    stream=True)
            for _event in stream:  # read up to [DONE], then the SDK closes the response
                pass
            stream.close()
        text = httpx.get(gw.url + "/metrics").text
    assert [(e["status"], e["outcome"]) for e in requests(logs)] == [(200, "complete")] * 3
    assert metric(text, 'context_compactor_requests_total{status="200"}') == 3
    assert metric(text, 'context_compactor_requests_total{status="499"}') == 0


def test_a_stream_the_upstream_cut_is_counted_as_cut(tmp_path: Path) -> None:
    """A stream that ends without a finish_reason reaches the client as an error event; the log says
    outcome=cut and /metrics counts it under status="cut", not as a 200."""
    with fake_upstream(end_after_chunks=3) as up, gateway_for(up.url, tmp_path) as gw, \
            structlog.testing.capture_logs() as logs:
        with pytest.raises(Exception, match="ended the stream before the reply was finished"):
            list(sdk(gw.url).chat.completions.create(model="m", stream=True,
                                                     messages=[{"role": "user", "content": "hi there"}]))
        text = httpx.get(gw.url + "/metrics").text
    assert [(e["status"], e["outcome"]) for e in requests(logs)] == [(200, "cut")]
    assert metric(text, 'context_compactor_requests_total{status="cut"}') == 1
    assert metric(text, 'context_compactor_requests_total{status="200"}') == 0


def test_one_unreachable_upstream_has_one_label_for_chat_and_forwarded_requests(tmp_path: Path) -> None:
    """Nothing listens at the upstream's port: a chat request and a forwarded one both count under
    upstream_errors_total{code="upstream_unreachable"}."""
    port = free_port()
    with socket.socket() as probe:  # the port is free: nothing answers there
        assert probe.connect_ex(("127.0.0.1", port)) != 0
    with gateway_for(f"http://127.0.0.1:{port}", tmp_path) as gw:
        chat = httpx.post(gw.url + "/v1/chat/completions", timeout=30,
                          json={"model": "m", "messages": [{"role": "user", "content": "hi"}]})
        forwarded = httpx.get(gw.url + "/v1/models", timeout=30)
        text = httpx.get(gw.url + "/metrics").text
    assert chat.status_code == forwarded.status_code == 502
    assert metric(text, 'context_compactor_upstream_errors_total{code="upstream_unreachable"}') == 2
    assert metric(text, 'context_compactor_upstream_errors_total{code="502"}') == 0


class RecallFirst(FakeUpstream):
    """Answers the question with recall_history at index 0 and the client's read_file at index 1."""

    def _reply(self, body: dict[str, Any], n: int) -> dict[str, Any]:
        last = body["messages"][-1]
        if offers_tool(body, "recall_history") and text_of(last.get("content")).endswith(QUESTION):
            both = tool_call("recall-1", "recall_history", {"query": "deploy token"})
            both["tool_calls"].append({"id": "client-1", "type": "function",
                                       "function": {"name": "read_file", "arguments": '{"path": "deploy.env"}'}})
            return both
        return super()._reply(body, n)


def test_a_streamed_reply_mixing_recall_and_a_client_call_keeps_the_clients_indexes(tmp_path: Path) -> None:
    """The client's call, second in the model's reply, reaches the client as its call 0: the openai SDK's
    ``chat.completions.stream()`` builds its list of calls by index and raised IndexError on index 1."""
    with serve_upstream(RecallFirst(Behaviour())) as up, \
            gateway_for(up.url, tmp_path, settings={"contextWindow": 8000}) as gw:
        with sdk(gw.url).chat.completions.stream(model="m", messages=long_history(QUESTION), tools=TOOLS) as stream:
            for _ in stream:
                pass
            final = stream.get_final_completion()
        assert offers_tool(up.app.chats()[0].body, "recall_history")
    calls = final.choices[0].message.tool_calls or []
    assert [(c.id, c.function.name, c.function.arguments) for c in calls] == [
        ("client-1", "read_file", '{"path": "deploy.env"}')]


def test_command_exchanges_are_left_out_of_later_prompts(tmp_path: Path) -> None:
    """A /context-stats exchange the client kept in its history never reaches the model."""
    with fake_upstream() as up, gateway_for(up.url, tmp_path) as gw:
        client = sdk(gw.url)
        messages: list[dict[str, Any]] = [{"role": "system", "content": "Be brief."},
                                          {"role": "user", "content": "hello"}]
        messages.append({"role": "assistant", "content": client.chat.completions.create(
            model="m", messages=messages).choices[0].message.content})
        messages.append({"role": "user", "content": "/context-stats"})
        stats = client.chat.completions.create(model="m", messages=messages).choices[0].message.content
        messages += [{"role": "assistant", "content": stats}, {"role": "user", "content": "and now?"}]
        client.chat.completions.create(model="m", messages=messages)
        sent = up.app.chats()[-1].body["messages"]
    assert len(up.app.chats()) == 2  # the command itself was answered by the gateway
    assert [m["content"] for m in sent] == ["Be brief.", "hello", messages[2]["content"], "and now?"]
