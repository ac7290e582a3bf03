"""What ``serve`` tells and guarantees around the turn (issue 14 E2-E6): orphan tool results, the announce
notice, paths as received, the open-network warning, readiness and Prometheus metrics."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import openai
import structlog
from convo import coding_session
from fakes.asgi import lifespan, read_body, send_events, send_json
from fakes.chat import DONE, chunk, models_list, sse
from fakes.harness import fake_upstream, gateway_for
from fakes.server import ServerThread, free_port
from pydantic import SecretStr

from context_compactor.gateway.sse import announced


class Recorder:
    """An OpenAI-compatible server that records each request's raw path and streams a reply whose first
    chunk already carries text (role and content together, as some servers send it)."""

    def __init__(self) -> None:
        self.paths: list[bytes] = []

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            await lifespan(receive, send)
            return
        await read_body(receive)
        self.paths.append(scope["raw_path"])
        if not scope["path"].endswith("/chat/completions"):
            await send_json(send, 200, models_list("m"))
            return
        base = {"id": "c", "model": "m", "created": 1}
        await send_events(send, (sse(chunk(base, {"role": "assistant", "content": "tags[a, b]"})),
                                 sse(chunk(base, {"content": " end"})), sse(chunk(base, {}, "stop")), DONE))


def with_tool_case_mismatch() -> list[dict[str, Any]]:
    """A long conversation in which one tool message's tool_call_id differs from its call in letter case."""
    messages = coding_session()
    messages[5:5] = [
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_AbC123", "type": "function", "function": {"name": "read_file", "arguments": '{"path": "a.py"}'}}]},
        {"role": "tool", "tool_call_id": "call_abc123", "content": "print('a')\n" * 40},
    ]
    return messages


def test_a_tool_call_id_off_by_letter_case_still_compacts_with_a_warning(tmp_path: Path) -> None:
    """The orphan is compacted as user text (as the engine treats orphans); a header and a warning line say
    which message and that its id differs only in case, and the session's next turn compacts too."""
    with fake_upstream() as up, gateway_for(up.url, tmp_path, settings={"contextWindow": 4000}) as gw, \
            structlog.testing.capture_logs() as logs:
        ask = {"model": "m", "messages": with_tool_case_mismatch()}
        first = httpx.post(gw.url + "/v1/chat/completions", json=ask, headers={"x-session-id": "t"}, timeout=30)
        second = httpx.post(gw.url + "/v1/chat/completions", headers={"x-session-id": "t"}, timeout=30, json={
            **ask, "messages": [*ask["messages"], {"role": "assistant", "content": "ok"}, {"role": "user", "content": "go"}]})
    for response in (first, second):
        assert response.status_code == 200 and response.headers["x-context-compactor-compacted"] == "1"
        assert "messages[6]" in response.headers["x-context-compactor-warning"]
        assert "differs only in letter case" in response.headers["x-context-compactor-warning"]
    warned = [line for line in logs if line["event"] == "gateway.orphan_tool_results"]
    assert warned and warned[0]["log_level"] == "warning" and "call_abc123" in warned[0]["problems"][0]
    assert not any(line["event"] == "gateway.passthrough" for line in logs)


def test_an_orphan_under_the_trigger_goes_out_as_the_client_wrote_it(tmp_path: Path) -> None:
    """Nothing to compact: the upstream gets the client's bytes, orphan included, and the client the warning."""
    messages = [{"role": "user", "content": "hi"}, {"role": "tool", "tool_call_id": "nobody", "content": "x"}]
    with fake_upstream() as up, gateway_for(up.url, tmp_path) as gw:
        response = httpx.post(gw.url + "/v1/chat/completions", json={"model": "m", "messages": messages})
    assert response.status_code == 200 and "nobody" in response.headers["x-context-compactor-warning"]
    assert up.app.chats()[0].body["messages"] == messages


def test_the_announce_notice_comes_before_the_first_text_of_a_stream(tmp_path: Path) -> None:
    """A first chunk that already carries text ("tags[...]"): the notice is put in front of that text."""
    recorder = Recorder()
    settings = {"contextWindow": 4000, "announce": True}
    with ServerThread(recorder) as up, gateway_for(up.url, tmp_path, settings=settings) as gw:
        client = openai.OpenAI(base_url=gw.url + "/v1", api_key="x", max_retries=0, timeout=30)
        chunks: list[Any] = list(client.chat.completions.create(model="m", messages=coding_session(), stream=True))  # type: ignore[arg-type]
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert text.startswith("[context-compactor: ") and text.endswith("\n\ntags[a, b] end")
    assert chunks[0].choices[0].delta.role == "assistant"


def test_announced_keeps_a_role_only_first_chunk_and_adds_the_notice_after_it() -> None:
    """The usual opening chunk (role, empty content) is kept as it is; the notice follows as its own chunk."""
    first = {"id": "c", "object": "chat.completion.chunk", "model": "m", "created": 1,
             "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}, "finish_reason": None}]}
    event = sse(first)
    out = announced(event, first, "[note]\n\n")
    assert out.startswith(event) and b'"content": ""' in out and b'"content":"[note]\\n\\n"' in out


def test_paths_are_forwarded_as_received(tmp_path: Path) -> None:
    """%2F stays %2F (and %20 stays %20): the upstream sees the path the client wrote."""
    recorder = Recorder()
    with ServerThread(recorder) as up, gateway_for(up.url, tmp_path) as gw:
        response = httpx.get(gw.url + "/v1/models/org%2Fmodel%20x?full=1")
    assert response.status_code == 200 and recorder.paths == [b"/v1/models/org%2Fmodel%20x"]


def test_listening_beyond_loopback_without_a_key_warns(tmp_path: Path) -> None:
    """host 0.0.0.0 and no client key: a warning that names the fix; with a key or on loopback, none."""
    with fake_upstream() as up, structlog.testing.capture_logs() as logs:
        with gateway_for(up.url, tmp_path / "a", host="0.0.0.0"):
            pass
        with gateway_for(up.url, tmp_path / "b", host="0.0.0.0", api_key=SecretStr("k" * 20)):
            pass
        with gateway_for(up.url, tmp_path / "c"):
            pass
    warned = [line for line in logs if line["event"] == "gateway.open_to_network"]
    assert len(warned) == 1 and warned[0]["host"] == "0.0.0.0" and "--api-key" in warned[0]["fix"]


def test_readiness_checks_the_upstream(tmp_path: Path) -> None:
    """ready: 200 while the upstream answers, 503 naming the problem when it is down; health stays 200."""
    with fake_upstream() as up, gateway_for(up.url, tmp_path / "up", api_key=SecretStr("k" * 20)) as gw:
        ready = httpx.get(gw.url + "/context-compactor/ready")
    with gateway_for(f"http://127.0.0.1:{free_port()}", tmp_path / "down") as gw:
        down = httpx.get(gw.url + "/context-compactor/ready")
        health = httpx.get(gw.url + "/context-compactor/health")
    assert ready.status_code == 200 and ready.json() == {"status": "ready"}
    assert down.status_code == 503 and "cannot reach the upstream" in down.json()["error"]
    assert health.status_code == 200


def metric(text: str, name: str) -> float:
    found = re.search(rf"^{re.escape(name)} (\S+)$", text, re.M)
    assert found, f"{name} not in /metrics:\n{text}"
    return float(found.group(1))


def test_metrics_count_requests_compactions_tokens_errors_and_sessions(tmp_path: Path) -> None:
    """/metrics in the Prometheus text format: one compacted and one small request, then an upstream error."""
    settings = {"contextWindow": 4000, "summarizeWithSessionModel": False}
    with fake_upstream() as up, gateway_for(up.url, tmp_path, settings=settings) as gw:
        url = gw.url + "/v1/chat/completions"
        small = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
        httpx.post(url, json={"model": "m", "messages": coding_session()}, headers={"x-session-id": "a"}, timeout=30)
        httpx.post(url, json=small, headers={"x-session-id": "b"}, timeout=30)
        up.behaviour.status = 500
        httpx.post(url, json=small, headers={"x-session-id": "b"}, timeout=30)
        response = httpx.get(gw.url + "/metrics")
    text = response.text
    assert response.headers["content-type"].startswith("text/plain; version=0.0.4")
    assert metric(text, 'context_compactor_requests_total{status="200"}') == 2
    assert metric(text, 'context_compactor_requests_total{status="500"}') == 1
    assert metric(text, "context_compactor_compactions_total") == 1
    before, after = metric(text, "context_compactor_tokens_before_total"), metric(text, "context_compactor_tokens_after_total")
    assert before > after > 0
    assert metric(text, 'context_compactor_upstream_errors_total{code="500"}') == 1
    assert metric(text, "context_compactor_sessions") == 2
    assert metric(text, "context_compactor_summary_fallbacks_total") == 0
    assert metric(text, 'context_compactor_summary_seconds_bucket{le="+Inf"}') == 0
    assert metric(text, "context_compactor_requests_in_flight") == 0


def test_metrics_count_summary_latency_and_fallbacks(tmp_path: Path) -> None:
    """A summary model that fails (HTTP 500): its calls are timed, and the chunks the built-in summarizer
    wrote instead are counted as fallbacks."""
    settings = {"contextWindow": 4000, "chunkTokens": 256, "summarizeWithSessionModel": True}
    with fake_upstream(status=500) as up, gateway_for(up.url, tmp_path, settings=settings) as gw:
        httpx.post(gw.url + "/v1/chat/completions", json={"model": "m", "messages": coding_session()}, timeout=60)
        text = httpx.get(gw.url + "/metrics").text
    assert metric(text, "context_compactor_compactions_total") == 1
    assert metric(text, "context_compactor_summary_fallbacks_total") >= 1
    assert metric(text, 'context_compactor_summary_seconds_bucket{le="+Inf"}') >= 1
    assert metric(text, "context_compactor_summary_seconds_sum") > 0


def test_metrics_need_the_client_key_when_one_is_set(tmp_path: Path) -> None:
    """Like every path but health and readiness, /metrics asks for the key the gateway was started with."""
    with fake_upstream() as up, gateway_for(up.url, tmp_path, api_key=SecretStr("k" * 20)) as gw:
        refused = httpx.get(gw.url + "/metrics")
        allowed = httpx.get(gw.url + "/metrics", headers={"authorization": "Bearer " + "k" * 20})
    assert refused.status_code == 401 and allowed.status_code == 200
