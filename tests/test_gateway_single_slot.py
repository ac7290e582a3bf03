"""``serve`` in front of a single-slot local server (issue 14 E1): the gateway's own summaries wait until no
client request is in flight there, and a stream the server cut off is reported, not passed off as whole."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import openai
import pytest
import structlog
from convo import coding_session
from fakes.asgi import headers_of, lifespan, read_body, send_json, start_events
from fakes.chat import DONE, chunk, chat_reply, models_list, sectioned, sse
from fakes.harness import fake_upstream, gateway_for
from fakes.server import ServerThread
from fakes.upstream import overflow_body

from context_compactor.summarizer.idle_gate import IdleGate

WORDS = 40


class SingleSlot:
    """One generation at a time, as llama-cpp-python runs: a chat request arriving while another one
    generates interrupts it (the running stream ends with [DONE] and no finish_reason, a running
    non-streamed answer becomes a 500). ``log`` records (what, who) in order: start, end, interrupted."""

    def __init__(self, delay: float = 0.02) -> None:
        self.delay = delay
        self.log: list[tuple[str, str]] = []
        self._running: asyncio.Event | None = None

    def who(self, kind: str) -> list[str]:
        return [who for what, who in self.log if what == kind]

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            await lifespan(receive, send)
            return
        raw = await read_body(receive)
        if not scope["path"].endswith("/chat/completions"):
            await send_json(send, 200 if scope["path"].endswith("/models") else 404, models_list("m"))
            return
        headers = headers_of(scope)
        body = json.loads(raw)
        who = "summary" if headers.get("x-context-compactor-purpose") == "summary" else headers.get("x-session-id", "?")
        if self._running is not None:
            self._running.set()  # the slot is taken over
        stop = self._running = asyncio.Event()
        self.log.append(("start", who))
        try:
            if body.get("stream"):
                await self._stream(send, who, stop)
            else:
                await self._whole(send, who, stop)
        finally:
            if self._running is stop:
                self._running = None

    async def _pause(self, stop: asyncio.Event) -> bool:
        """Wait one token's time; True when interrupted."""
        try:
            await asyncio.wait_for(stop.wait(), self.delay)
        except asyncio.TimeoutError:
            return False
        return True

    async def _whole(self, send: Any, who: str, stop: asyncio.Event) -> None:
        for _ in range(10):
            if await self._pause(stop):
                self.log.append(("interrupted", who))
                await send_json(send, 500, {"error": {"message": "request interrupted"}})
                return
        self.log.append(("end", who))
        await send_json(send, 200, chat_reply(sectioned("slot") if who == "summary" else "a whole answer"))

    async def _stream(self, send: Any, who: str, stop: asyncio.Event) -> None:
        await start_events(send)
        base = {"id": "c", "model": "m", "created": 1}
        events = [sse(chunk(base, {"role": "assistant", "content": ""}))]
        events += [sse(chunk(base, {"content": f"w{i} "})) for i in range(WORDS)]
        for event in events:
            if await self._pause(stop):
                self.log.append(("interrupted", who))
                await send({"type": "http.response.body", "body": DONE, "more_body": False})
                return
            await send({"type": "http.response.body", "body": event, "more_body": True})
        self.log.append(("end", who))
        await send({"type": "http.response.body", "body": sse(chunk(base, {}, "stop")) + DONE, "more_body": False})


def history(turns: int) -> list[dict[str, Any]]:
    return coding_session(turns, details=80, answers=90)


def sdk(url: str) -> openai.OpenAI:
    return openai.OpenAI(base_url=url + "/v1", api_key="unused", max_retries=0, timeout=60)


def wait_for(condition: Any, seconds: float = 30) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return False


def test_summaries_wait_until_no_client_stream_is_in_flight(tmp_path: Path) -> None:
    """Pre-summarization starts while the agent's next turn streams; the summary waits for the end of that
    stream, so the stream is never interrupted, and the summary is then made in the idle time."""
    slot = SingleSlot()
    settings = {"contextWindow": 4000, "chunkTokens": 256, "precompactAt": 0.3, "summarizeWithSessionModel": True}
    with ServerThread(slot) as up, gateway_for(up.url, tmp_path, settings=settings) as gw:
        client = sdk(gw.url)
        turn = {"model": "m", "extra_headers": {"X-Session-Id": "agent"}}
        client.chat.completions.create(messages=history(3), **turn)  # type: ignore[call-overload]
        # At once, as an agent loop does: the first turn's bookkeeping (and its pre-summarization) starts
        # when this request is out, while it streams.
        chunks = list(client.chat.completions.create(messages=history(3), stream=True, **turn))  # type: ignore[call-overload]
        assert wait_for(lambda: "summary" in slot.who("end")), f"no summary was made: {slot.log}"
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert text.split() == [f"w{i}" for i in range(WORDS)] and chunks[-1].choices[0].finish_reason == "stop"
    assert slot.who("interrupted") == [], slot.log
    started = [i for i, (what, who) in enumerate(slot.log) if what == "start" and who == "summary"]
    client_ends = [i for i, (what, who) in enumerate(slot.log) if what == "end" and who == "agent"]
    assert started[0] > client_ends[-1], f"a summary went out while the agent's turn was in flight: {slot.log}"
    assert gw.app.gate.waits >= 1


def test_a_stream_the_server_cut_off_is_logged_and_ends_with_an_error(tmp_path: Path) -> None:
    """A second client's request interrupts the first one's stream ([DONE], no finish_reason): the first
    client gets an error event, not a short reply passed off as whole, and the log says so."""
    slot = SingleSlot(delay=0.05)
    with ServerThread(slot) as up, gateway_for(up.url, tmp_path) as gw, structlog.testing.capture_logs() as logs:
        def second() -> None:
            wait_for(lambda: slot.who("start") == ["first"])
            time.sleep(0.1)
            httpx.post(gw.url + "/v1/chat/completions", headers={"x-session-id": "second"}, timeout=30,
                       json={"model": "m", "messages": [{"role": "user", "content": "me too"}]})

        other = threading.Thread(target=second)
        other.start()
        received = []
        with pytest.raises(openai.APIError, match="before the reply was finished.*finish_reason"):
            for piece in sdk(gw.url).chat.completions.create(model="m", stream=True, extra_headers={"X-Session-Id": "first"},
                                                               messages=[{"role": "user", "content": "hello"}]):
                received.append(piece)
        other.join()
    assert slot.who("interrupted") == ["first"] and 0 < len(received) < WORDS
    cut = [line for line in logs if line["event"] == "gateway.stream_incomplete"]
    assert cut and cut[0]["session"] == "gw:first" and cut[0]["log_level"] == "warning"
    request = next(line for line in logs if line["event"] == "gateway.request" and line["session"] == "gw:first")
    assert "before the reply was finished" in request["error"]


def test_the_gate_lets_a_call_through_only_after_the_last_request_left_and_a_quiet_moment() -> None:
    """IdleGate: wait_idle returns at once for an idle server, blocks while requests are in flight at the
    same origin (not another one), and returns once the last one left and the quiet time passed."""
    gate = IdleGate(quiet=0.05)
    assert gate.wait_idle("http://127.0.0.1:9/v1") < 0.05
    gate.enter("http://127.0.0.1:9/v1")
    assert gate.wait_idle("http://127.0.0.1:8/v1") < 0.05  # another server
    done = threading.Event()

    def wait() -> None:
        gate.wait_idle("http://127.0.0.1:9/chat")
        done.set()

    waiter = threading.Thread(target=wait)
    waiter.start()
    assert not done.wait(0.2)
    gate.leave("http://127.0.0.1:9/v1")
    assert done.wait(5)
    waiter.join()
    assert gate.waits == 1 and gate.busy("http://127.0.0.1:9") == 0


@pytest.mark.parametrize("refusal", ["a 400 answer", "an error event opening a stream"])
def test_overflow_recovery_summaries_do_not_wait_for_the_refused_request(tmp_path: Path, refusal: str) -> None:
    """The server refuses the prompt as too long, with a 400 or (LM Studio, streaming) with an error event
    opening a 200 stream: the refused request is over once the gateway has read the refusal, so the smaller
    compaction's model summaries reach the server before the retry does, instead of waiting out the turn's
    budget for a request nobody reads any more (which would leave the built-in summary in their place)."""
    stream = refusal != "a 400 answer"
    settings = {"contextWindow": 16000, "chunkTokens": 256, "summarizeWithSessionModel": True,
                "summaryTimeoutSeconds": 5, "precompactAt": 1.0}
    with fake_upstream(context_window=3000, respond=lambda body, n: sectioned("s"), overflow_in_stream=stream,
                       overflow_style="lmstudio" if stream else "llama-cpp-python") as up, \
            gateway_for(up.url, tmp_path, settings=settings) as gw:
        with httpx.stream("POST", gw.url + "/v1/chat/completions", headers={"x-session-id": "big"}, timeout=60,
                          json={"model": "m", "messages": history(8), "stream": stream}) as response:
            body = response.read()
        stats = gw.runtime.session("gw:big").last.stats
        in_flight = gw.app.in_flight
    assert response.status_code == 200 and response.headers["x-context-compactor-retries"] == "1", body[:300]
    assert (b"[DONE]" in body and b'"error"' not in body) if stream else b'"choices"' in body
    callers = ["summary" if r.headers.get("x-context-compactor-purpose") == "summary" else r.headers.get("x-session-id")
               for r in up.app.requests if r.path.endswith("/chat/completions")]
    assert callers[0] == "big" and "summary" in callers, callers
    assert callers.index("summary") < callers.index("big", 1), \
        f"the recovery's summaries waited for the refused request instead of going out before the retry: {callers}"
    assert stats is not None and stats.compacted and stats.chunks >= 1 and stats.fallbacks == 0
    assert in_flight == 0


class HeldRefusal:
    """An LM Studio-like server whose refusal stays open: a streamed client prompt of ``window`` tokens or
    more (4 bytes a token) gets a 200 stream opening with the overflow error event, and nothing more until
    the gateway lets go of it; a summary gets a sectioned answer, anything else a short stream.
    ``callers`` records who asked, in order ("summary" or the X-Session-Id)."""

    def __init__(self, window: int = 2500) -> None:
        self.window = window
        self.callers: list[str] = []
        self.let_go = False  # the gateway closed the refused stream

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        raw = b""
        while True:
            message = await receive()
            raw += message.get("body", b"")
            if not message.get("more_body"):
                break
        json_type = [(b"content-type", b"application/json")]
        if not scope["path"].endswith("/chat/completions"):
            found = scope["path"].endswith("/models")
            await send({"type": "http.response.start", "status": 200 if found else 404, "headers": json_type})
            await send({"type": "http.response.body", "body": json.dumps(models_list("m")).encode()})
            return
        headers = {k.decode(): v.decode() for k, v in scope["headers"]}
        who = "summary" if headers.get("x-context-compactor-purpose") == "summary" else headers.get("x-session-id", "?")
        self.callers.append(who)
        if who == "summary":
            await send({"type": "http.response.start", "status": 200, "headers": json_type})
            await send({"type": "http.response.body", "body": json.dumps(chat_reply(sectioned("s"))).encode()})
            return
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/event-stream")]})
        tokens = len(raw) // 4
        if tokens >= self.window:
            _status, error = overflow_body("lmstudio", self.window, tokens)
            await send({"type": "http.response.body", "body": sse(error), "more_body": True})
            self.let_go = (await receive())["type"] == "http.disconnect"
            return
        base = {"id": "c", "model": "m", "created": 1}
        await send({"type": "http.response.body", "body": sse(chunk(base, {"role": "assistant", "content": "done"}))
                    + sse(chunk(base, {}, "stop")) + DONE, "more_body": False})


def test_a_refused_stream_left_open_is_let_go_before_the_recovery_summaries(tmp_path: Path) -> None:
    """The refusal event opens a stream the server keeps open: the gateway, which reads nothing more of it,
    closes it before compacting smaller, so the summaries reach the server before the retry (the
    in-flight count cannot wait for the end of an answer nobody reads)."""
    up_app = HeldRefusal()
    settings = {"contextWindow": 16000, "chunkTokens": 256, "summarizeWithSessionModel": True,
                "summaryTimeoutSeconds": 5, "precompactAt": 1.0}
    with ServerThread(up_app) as up, gateway_for(up.url, tmp_path, settings=settings) as gw:
        with httpx.stream("POST", gw.url + "/v1/chat/completions", headers={"x-session-id": "big"}, timeout=60,
                          json={"model": "m", "messages": history(8), "stream": True}) as response:
            body = response.read()
        stats = gw.runtime.session("gw:big").last.stats
    assert response.status_code == 200 and response.headers["x-context-compactor-retries"] == "1", body[:300]
    assert b"[DONE]" in body and b'"error"' not in body
    callers = up_app.callers
    assert up_app.let_go and callers[0] == "big" and "summary" in callers, callers
    assert callers.index("summary") < callers.index("big", 1), \
        f"the recovery's summaries waited for the refused stream instead of going out before the retry: {callers}"
    assert stats is not None and stats.compacted and stats.fallbacks == 0


# --- issue 28: a single-slot server that queues requests (llama-cpp-python with --interrupt_requests False) --


class QueuedSlot:
    """llama-cpp-python's shape: ``/v1/models`` owned by "me", one generation at a time (a request that comes
    during another waits for it), a stream that stops when its client goes away, ``/extras/tokenize/count``.
    Summaries are long and slow, client answers short. ``log`` records (what, who) in order: start, end,
    gone (the client closed the stream), count (a tokenize call)."""

    def __init__(self, summary_tokens: int = 2000, delay: float = 0.02, stall: bool = False) -> None:
        self.summary_tokens, self.delay = summary_tokens, delay
        self.stall = stall  # a summary sends one token, then nothing until its client goes (a slow server)
        self.log: list[tuple[str, str]] = []
        self._lock: asyncio.Lock | None = None

    def who(self, kind: str) -> list[str]:
        return [who for what, who in self.log if what == kind]

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            await lifespan(receive, send)
            return
        raw = await read_body(receive)
        if self._lock is None:
            self._lock = asyncio.Lock()
        path = scope["path"]
        if path.endswith("/extras/tokenize/count"):
            self.log.append(("count", "-"))
            await send_json(send, 200, {"count": len(json.loads(raw)["input"]) // 3})
            return
        if not path.endswith("/chat/completions"):
            await send_json(send, 200 if path.endswith("/models") else 404, models_list("m", owned_by="me"))
            return
        headers = headers_of(scope)
        body = json.loads(raw)
        who = "summary" if headers.get("x-context-compactor-purpose") == "summary" else headers.get("x-session-id", "?")
        async with self._lock:
            self.log.append(("start", who))
            words = ["s"] * self.summary_tokens if who == "summary" else [f"w{i}" for i in range(WORDS)]
            if not body.get("stream"):
                for _ in words:
                    await asyncio.sleep(self.delay)
                self.log.append(("end", who))
                await send_json(send, 200, chat_reply(" ".join(words)))
                return
            await start_events(send)
            base = {"id": "c", "model": "m", "created": 1}
            gone = asyncio.ensure_future(receive())
            try:
                if self.stall and who == "summary":
                    await send({"type": "http.response.body", "body": sse(chunk(base, {"content": "s "})),
                                "more_body": True})
                    self.log.append(("token", who))
                    await asyncio.wait([gone])
                for word in words:
                    await asyncio.sleep(self.delay)
                    if gone.done():
                        self.log.append(("gone", who))
                        return
                    await send({"type": "http.response.body", "body": sse(chunk(base, {"content": word + " "})),
                                "more_body": True})
                self.log.append(("end", who))
                await send({"type": "http.response.body", "body": sse(chunk(base, {}, "stop")) + DONE,
                            "more_body": False})
            finally:
                gone.cancel()


@pytest.mark.slow  # seconds: slow fake generations and pauses past the settle time
def test_a_summary_running_when_a_client_turn_arrives_is_cancelled_and_never_finished(tmp_path: Path) -> None:
    """In front of a single-slot server, a turn never waits for a summary: the compacting turn sends the
    built-in ledger, the summary goes out once the server is idle, and the next client turn cancels it
    (the gateway closes its stream, so the server stops generating) before that turn is served."""
    slot = QueuedSlot()
    settings = {"contextWindow": 4000, "chunkTokens": 256, "summarizeWithSessionModel": True}
    with ServerThread(slot) as up, gateway_for(up.url, tmp_path, settings=settings) as gw:
        client = sdk(gw.url)
        turn = {"model": "m", "extra_headers": {"X-Session-Id": "agent"}}
        first = client.chat.completions.with_raw_response.create(messages=history(10), **turn)  # type: ignore[call-overload]
        assert wait_for(lambda: "summary" in slot.who("start")), f"no summary went out: {slot.log}"
        chunks = list(client.chat.completions.create(messages=history(10), stream=True, **turn))  # type: ignore[call-overload]
        cancelled = gw.app.gate.cancelled
        assert wait_for(lambda: gw.app.gate.running() == 0)
        slots = gw.app.slots
    assert slots == 1 and first.headers["x-context-compactor-compacted"] == "1"
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert text.split() == [f"w{i}" for i in range(WORDS)]
    assert "summary" in slot.who("gone") and "summary" not in slot.who("end"), slot.log
    second = [i for i, entry in enumerate(slot.log) if entry == ("start", "agent")][1]
    assert slot.log.index(("gone", "summary")) < second, f"the turn waited behind a summary: {slot.log}"
    assert cancelled >= 1


@pytest.mark.slow  # seconds: pauses past the settle time
def test_a_summary_waiting_for_its_next_token_is_closed_when_a_client_turn_arrives(tmp_path: Path) -> None:
    """The summary stream sends a token and then nothing more until its client leaves (a slow server between
    two tokens): the next client turn closes it at once and is served, though the summary never sent another
    byte and its own limit is far beyond the client's (a turn that waited for it would fail)."""
    slot = QueuedSlot(stall=True)
    with ServerThread(slot) as up:
        model = {"baseUrl": up.url + "/v1", "model": "m", "timeoutSeconds": 600}
        settings = {"contextWindow": 4000, "chunkTokens": 256, "summaryModel": model}
        with gateway_for(up.url, tmp_path, settings=settings) as gw:
            client = sdk(gw.url)
            turn = {"model": "m", "extra_headers": {"X-Session-Id": "agent"}}
            client.chat.completions.create(messages=history(10), **turn)  # type: ignore[call-overload]
            assert wait_for(lambda: "summary" in slot.who("token")), f"no summary went out: {slot.log}"
            chunks = list(client.chat.completions.create(messages=history(10), stream=True, **turn))  # type: ignore[call-overload]
            assert wait_for(lambda: gw.app.gate.running() == 0)
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert text.split() == [f"w{i}" for i in range(WORDS)]
    assert slot.log.index(("gone", "summary")) < slot.log.index(("end", "agent"), slot.log.index(("token", "summary")))
    assert "summary" not in slot.who("end"), slot.log


@pytest.mark.slow  # seconds: slow fake generations and pauses past the settle time
def test_no_summary_starts_while_a_client_turn_is_in_flight(tmp_path: Path) -> None:
    """Over a few compacting turns, every summary the server sees starts after the client's turn before it
    has ended and is cancelled or ends before the next client turn starts."""
    slot = QueuedSlot(summary_tokens=50)
    settings = {"contextWindow": 4000, "chunkTokens": 256, "summarizeWithSessionModel": True}
    with ServerThread(slot) as up, gateway_for(up.url, tmp_path, settings=settings) as gw:
        client = sdk(gw.url)
        for turns in range(5, 9):
            list(client.chat.completions.create(model="m", messages=history(turns), stream=True,  # type: ignore[call-overload]
                                                extra_headers={"X-Session-Id": "agent"}))
        assert wait_for(lambda: gw.app.gate.running() == 0)
    running = None
    for what, who in slot.log:
        if what == "start":
            assert running is None, f"{who} started while {running} ran: {slot.log}"
            running = who
        elif what in ("end", "gone"):
            running = None


@pytest.mark.slow  # seconds: slow fake generations and pauses past the settle time
def test_a_stream_without_usage_is_counted_by_the_servers_tokenizer(tmp_path: Path) -> None:
    """llama-cpp-python sends no usage in streams (it ignores stream_options): the gateway counts the prompt
    with the server's /extras/tokenize/count once, while the server is idle, and the model gets calibrated."""
    slot = QueuedSlot()
    settings = {"summarizeWithSessionModel": False}
    with ServerThread(slot) as up, gateway_for(up.url, tmp_path, settings=settings) as gw:
        client = sdk(gw.url)
        for _ in range(2):
            list(client.chat.completions.create(model="m", messages=history(2), stream=True,  # type: ignore[call-overload]
                                                extra_headers={"X-Session-Id": "agent"}))
            assert wait_for(lambda: gw.runtime.calibration("m") is not None)  # after_turn runs just after the reply
        calibrated = gw.runtime.calibration("m")
    assert slot.who("count") == ["-"], slot.log  # once: the model is calibrated after it
    assert calibrated is not None and calibrated[0] != 4.0


@pytest.mark.slow  # seconds: slow fake generations and pauses past the settle time
def test_by_default_a_single_slot_servers_summaries_are_the_built_in_ledger(tmp_path: Path) -> None:
    """Unless the settings ask for the session model's summaries explicitly, the gateway in front of a
    single-slot server sends it no summary at all, even in idle time (a summary between turns would evict
    the client's prompt from the server's one cache): compacting turns go out with the ledger."""
    slot = QueuedSlot(summary_tokens=50)
    settings = {"contextWindow": 4000, "chunkTokens": 256}
    with ServerThread(slot) as up, gateway_for(up.url, tmp_path, settings=settings) as gw:
        client = sdk(gw.url)
        for turns in (10, 11):
            raw = client.chat.completions.with_raw_response.create(  # type: ignore[call-overload]
                model="m", messages=history(turns), extra_headers={"X-Session-Id": "agent"})
            time.sleep(1.5)  # longer than the settle time: a model summary would go out now
        compacted = raw.headers["x-context-compactor-compacted"]
        stats = gw.runtime.session("gw:agent").last.stats
    assert compacted == "1" and stats is not None and stats.fallbacks == 0
    assert "summary" not in slot.who("start"), slot.log
