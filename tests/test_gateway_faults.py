"""Faults: the upstream down, hanging, failing, resetting or stalling mid-stream; the client leaving."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import openai
import pytest
from fakes import free_port
from fakes.harness import fake_upstream, gateway_for


def sdk(url: str, timeout: float = 30) -> openai.OpenAI:
    return openai.OpenAI(base_url=url + "/v1", api_key="x", max_retries=0, timeout=timeout)


def ask(url: str, text: str = "hello", session: str = "s", **options: object) -> object:
    return sdk(url).chat.completions.create(model="m", messages=[{"role": "user", "content": text}],
                                            extra_headers={"X-Session-Id": session}, **options)  # type: ignore[call-overload]


def wait_for(condition: object, seconds: float = 10) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return True
        time.sleep(0.02)
    return False


@pytest.mark.parametrize("stream", [False, True])
def test_upstream_down_gives_a_clear_502(tmp_path: Path, stream: bool) -> None:
    """Nothing listening upstream: 502 JSON that names the upstream URL and the fix."""
    dead = f"http://127.0.0.1:{free_port()}"
    with gateway_for(dead, tmp_path, connect_timeout=2) as gw:
        with pytest.raises(openai.InternalServerError) as raised:
            ask(gw.url, stream=stream)
    assert raised.value.status_code == 502
    assert isinstance(raised.value.body, dict) and raised.value.body["code"] == "upstream_unreachable"
    assert dead in raised.value.message and "--upstream" in raised.value.message


def test_upstream_hanging_gives_504_after_the_read_timeout(tmp_path: Path) -> None:
    """An upstream that never answers: 504 once the configured read timeout passes."""
    with fake_upstream(hang=True) as up, gateway_for(up.url, tmp_path, read_timeout=0.5) as gw:
        started = time.monotonic()
        with pytest.raises(openai.APIStatusError) as raised:
            ask(gw.url)
    assert raised.value.status_code == 504 and time.monotonic() - started < 10


def test_upstream_500_is_returned_unchanged(tmp_path: Path) -> None:
    """A 500 that is not an overflow goes back as the upstream wrote it, without retries."""
    with fake_upstream(status=500) as up, gateway_for(up.url, tmp_path) as gw:
        response = httpx.post(gw.url + "/v1/chat/completions", json={"model": "m", "messages": [
            {"role": "user", "content": "x"}]})
    assert response.status_code == 500 and response.json()["error"]["message"] == "fake upstream error 500"
    assert len(up.app.chats()) == 1


def test_reset_mid_stream_ends_the_stream_with_an_error_the_sdk_raises(tmp_path: Path) -> None:
    """The upstream breaking off mid-stream becomes an error event; the gateway goes on serving."""
    with fake_upstream(reset_after_chunks=3, reply="one two three four five") as up, gateway_for(up.url, tmp_path) as gw:
        received = []
        with pytest.raises(openai.APIError, match="broke off"):
            for chunk in ask(gw.url, stream=True):  # type: ignore[attr-defined]
                received.append(chunk)
        up.behaviour.reset_after_chunks = None
        after = ask(gw.url, session="other")
    assert len(received) == 3 and after.choices[0].message.content == "one two three four five"  # type: ignore[attr-defined]


def test_stall_mid_stream_ends_with_an_error_after_the_read_timeout(tmp_path: Path) -> None:
    """An upstream that goes silent mid-stream: the client gets an error event, not an endless wait."""
    with fake_upstream(hang_after_chunks=2) as up, gateway_for(up.url, tmp_path, read_timeout=0.5) as gw:
        with pytest.raises(openai.APIError, match="timed out"):
            list(ask(gw.url, stream=True))  # type: ignore[call-overload]
        assert wait_for(lambda: up.app.chats()[0].disconnected)


def test_incomplete_stream_is_reported_not_passed_off_as_complete(tmp_path: Path) -> None:
    """An upstream that ends its stream early, without finish_reason or [DONE], yields an error event."""
    with fake_upstream(end_after_chunks=2) as up, gateway_for(up.url, tmp_path) as gw:
        with pytest.raises(openai.APIError, match="before the reply was finished"):
            list(ask(gw.url, stream=True))  # type: ignore[call-overload]


def test_client_leaving_mid_stream_closes_the_upstream_and_keeps_serving(tmp_path: Path) -> None:
    """When the client disconnects, the upstream stream is closed and after_turn records why."""
    with fake_upstream(chunk_delay=0.1, reply=" ".join(f"w{i}" for i in range(100))) as up, \
            gateway_for(up.url, tmp_path) as gw:
        with httpx.Client(timeout=10) as client:
            with client.stream("POST", gw.url + "/v1/chat/completions", headers={"X-Session-Id": "leaver"},
                               json={"model": "m", "stream": True, "messages": [{"role": "user", "content": "x"}]}) as r:
                lines = r.iter_lines()
                assert next(lines).startswith("data:")
        assert wait_for(lambda: up.app.chats()[0].disconnected)
        assert wait_for(lambda: "disconnected" in str(gw.runtime.session("gw:leaver").last.get("error")))
        assert ask(gw.url, session="next").choices[0].message.content  # type: ignore[attr-defined]
    assert not up.app.chats()[0].finished


@pytest.mark.slow
def test_a_hanging_session_does_not_hold_up_the_others(tmp_path: Path) -> None:
    """While one session's upstream call hangs, other sessions are served: all ten of them before the hanging
    one's read timeout ends it (an order of events, not a time: a busy machine only makes both later)."""
    with fake_upstream(hang_sessions={"stuck"}) as up, gateway_for(up.url, tmp_path, read_timeout=20) as gw:
        with ThreadPoolExecutor(1) as pool:
            stuck = pool.submit(lambda: httpx.post(gw.url + "/v1/chat/completions", timeout=60, headers={
                "X-Session-Id": "stuck"}, json={"model": "m", "messages": [{"role": "user", "content": "x"}]}))
            assert wait_for(lambda: len(up.app.chats()) == 1)
            for i in range(10):
                ask(gw.url, session=f"free-{i}")
            served_first = not stuck.done()
            assert stuck.result().status_code == 504
    assert served_first


def test_graceful_shutdown_lets_an_in_flight_stream_finish(tmp_path: Path) -> None:
    """Stopping the gateway mid-stream: the stream still ends with its finish chunk and [DONE]."""
    with fake_upstream(chunk_delay=0.05, reply=" ".join(f"w{i}" for i in range(30))) as up:
        with gateway_for(up.url, tmp_path, shutdown_grace=5) as gw:
            stream = ask(gw.url, stream=True)
            first = next(iter(stream))  # type: ignore[call-overload]
            stopper = threading.Thread(target=gw.server.stop)
            stopper.start()
            rest = list(stream)  # type: ignore[call-overload]
            stopper.join(10)
    assert first.choices and rest[-1].choices[0].finish_reason == "stop"
    assert "".join(c.choices[0].delta.content or "" for c in [first, *rest]).endswith("w29")
