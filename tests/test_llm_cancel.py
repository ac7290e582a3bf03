"""A summary call that a client's request cancels closes its connection at once (issue 28): the server sees
it go while it is still reading the prompt or between two tokens, not after its next token."""

from __future__ import annotations

import threading
import time
from typing import Any

import httpx
import pytest
from fakes.asgi import lifespan, read_body, send_json, start_events
from fakes.chat import DONE, chunk, models_list, sse
from fakes.server import ServerThread

from context_compactor.summarizer import ModelError
from context_compactor.summarizer.client import Endpoint, chat, make_client
from context_compactor.summarizer.idle_gate import IdleGate, add_gate

LONG = 120.0  # the summary call's own limit: a cancel that waited for it would show as a 'timeout'


class Stalling:
    """A chat server that takes a streamed request and then stalls until its client goes away: after the
    headers and one token (``prefill=False``), or before any byte of an answer (``prefill=True``, a server
    still reading a long prompt). ``log`` records what happened, in order: start, token, gone."""

    def __init__(self, prefill: bool) -> None:
        self.prefill = prefill
        self.log: list[str] = []

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            await lifespan(receive, send)
            return
        await read_body(receive)
        if not scope["path"].endswith("/chat/completions"):
            await send_json(send, 200, models_list("m"))
            return
        self.log.append("start")
        if not self.prefill:
            await start_events(send)
            await send({"type": "http.response.body", "body": sse(chunk({"id": "c"}, {"content": "one "})),
                        "more_body": True})
            self.log.append("token")
        while (await receive())["type"] != "http.disconnect":  # no next token: only the client's leaving ends it
            pass
        self.log.append("gone")
        if not self.prefill:
            await send({"type": "http.response.body", "body": DONE, "more_body": False})


class Observed(httpx.HTTPTransport):
    """The real transport, noting each piece of an answer's body as the client takes it (``read``)."""

    def __init__(self) -> None:
        super().__init__()
        self.read: list[bytes] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = super().handle_request(request)
        response.stream = Noted(response.stream, self.read)  # type: ignore[arg-type]
        return response


class Noted(httpx.SyncByteStream):
    def __init__(self, stream: Any, read: list[bytes]) -> None:
        self.stream, self.read = stream, read

    def __iter__(self) -> Any:
        for piece in self.stream:
            self.read.append(piece)
            yield piece

    def close(self) -> None:
        self.stream.close()


def wait_for(condition: Any, seconds: float = 30) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return False


@pytest.mark.parametrize(("prefill", "warm"), [(False, False), (True, False), (False, True)],
                         ids=["between-tokens", "reading-the-prompt", "kept-alive-connection"])
def test_a_cancelled_summary_closes_its_connection_without_waiting_for_a_byte(prefill: bool, warm: bool) -> None:
    """A client's request comes for the server while our summary stream waits for its next token (or for
    its first byte): the summary ends as cancelled and the server sees its connection close, though it
    never sent another byte."""
    server = Stalling(prefill)
    with ServerThread(server) as up:
        gate = IdleGate(quiet=0.0)
        transport = Observed()
        client = make_client(read_timeout=LONG, transport=transport)
        add_gate(client, gate)
        if warm:  # a window probe's kept-alive connection, which the summary then reuses
            assert client.get(up.url + "/v1/models").status_code == 200
        endpoint = Endpoint(up.url + "/v1", "m", "openai", timeout=LONG)
        outcome: list[BaseException] = []

        def summary() -> None:
            try:
                chat(client, endpoint, [{"role": "user", "content": "sum up"}], 64, retries=0)
            except ModelError as exc:
                outcome.append(exc)

        thread = threading.Thread(target=summary, daemon=True)
        thread.start()
        assert wait_for(lambda: server.log[-1:] == ["start" if prefill else "token"]), server.log
        if not prefill:  # the call has the token and waits for the next one
            assert wait_for(lambda: any(b"one" in piece for piece in transport.read))
            time.sleep(0.2)
        gate.enter(up.url)  # a client's turn is on its way to the same server
        thread.join(LONG / 2)
        waiting = thread.is_alive()  # before the client closes (which would end it)
        gone = wait_for(lambda: "gone" in server.log)
        client.close()
    assert not waiting, "the summary call was still waiting for the server's next byte"
    assert [getattr(e, "kind", None) for e in outcome] == ["cancelled"]
    assert gone and server.log == ["start", "gone"] if prefill else ["start", "token", "gone"], server.log
    assert gate.running() == 0 and gate.cancelled == 1


def test_a_stream_that_ends_without_a_finish_reason_is_no_summary() -> None:
    """llama-cpp-python ends a stream that another request interrupts with [DONE] but no finish_reason:
    what came is part of an answer, and the call fails as cancelled rather than keep it as a summary."""

    def handler(request: httpx.Request) -> httpx.Response:
        events = sse(chunk({"id": "c"}, {"content": "## Where things stood\n- half"})) + DONE
        return httpx.Response(200, content=events, headers={"content-type": "text/event-stream"})

    gate = IdleGate(quiet=0.0)
    client = make_client(transport=httpx.MockTransport(handler))
    add_gate(client, gate)
    with pytest.raises(ModelError) as raised:
        chat(client, Endpoint("http://model.test/v1", "m", "openai"), [{"role": "user", "content": "x"}], 64, retries=0)
    assert raised.value.kind == "cancelled"
