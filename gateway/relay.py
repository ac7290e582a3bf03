"""Forwarding a chat completion to the upstream and its answer to the client.

Streams are relayed event by event as they arrive. The client's response starts with the first
upstream event, not before: until then a context-length error (or llama-cpp-python's empty stream,
its way of saying the same) can still be recovered from by compacting harder and retrying, at most
``max_retries`` times, each retry smaller than the last. Otherwise the upstream's answer, error or
not, reaches the client unchanged.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable
from typing import Any

import structlog

from .asgi import Headers, Send, dumps, send_bytes, send_error
from .http1 import Response, split_target
from .overflow import EMPTY_STREAM, Overflow, detect
from .owned_tools import Rounds
from .sse import EventSplitter, StreamWatch, announced, error_event
from context_compactor.redact import redact, redact_bytes

from .parts import GatewayParts
from .turn import ChatTurn
from .upstream import UpstreamBroken, UpstreamError, bearer, response_headers

logger = structlog.get_logger("context_compactor")



class Relay:
    """Sends one turn upstream (with overflow retries) and its answer to the client."""

    def __init__(self, gw: GatewayParts, turn: ChatTurn, send: Send, headers: Headers) -> None:
        self.gw, self.turn, self.send, self.headers = gw, turn, send, headers
        self.target = split_target(gw.config.base + "/chat/completions")
        self.started = False  # the client's response has begun (status and headers sent)
        self.responded = False  # set just before the last byte goes out
        self.secret = bearer(headers)  # the key the upstream gets: redacted from whatever it answers

    async def run(self, *, early: bool = False) -> None:
        """Send the turn and relay the answer. ``early``: send the client's request before the turn's
        hooks have run, and run them meanwhile (see :meth:`ChatTurn.may_go_early`)."""
        turn = self.turn
        for attempt in range(self.gw.config.max_retries + 1):
            last = attempt == self.gw.config.max_retries
            try:
                again = await self._attempt(last, early)
                early = False
            except UpstreamError as exc:
                turn.error = str(exc)
                turn.status, turn.error_code, turn.outcome = exc.status, exc.code, "error"
                self.responded = True
                await send_error(self.send, exc.status, str(exc), exc.code, turn.headers(), kind="upstream_error")
                return
            if not again:
                return

    async def _attempt(self, last: bool, early: bool) -> bool:
        """One upstream call; True when it overflowed and a smaller prompt is ready to retry."""
        response = await self._early() if early else None
        if response is None:
            response = await self._send()
        self.gw.upstream_waiting()  # the model is thinking: a good moment for queued bookkeeping
        if (self.turn.owned or self.turn.guards) and response.status_code < 400:  # calls the gateway answers
            response = self.rounds(response)  # type: ignore[assignment]
        try:
            content_type = (response.header(b"content-type") or b"").decode("latin-1")
            if response.status_code >= 400:
                body = await response.read()
                overflow = detect(response.status_code, body)
                if overflow is not None and not last and await self._recover(response, overflow):
                    return True
                await self._error(response, body, overflow)
                return False
            if self.turn.stream and content_type.startswith("text/event-stream"):
                refused = await self._stream(response, can_retry=not last)
                if refused is not None:
                    if not last and await self._recover(response, refused):
                        return True
                    raise convert_empty(self.gw.config.base)
                return False
            await self._whole(response, await response.read())
            return False
        finally:
            await response.aclose()

    async def _recover(self, response: Response, overflow: Overflow) -> bool:
        """Compact smaller after ``overflow`` (see :meth:`ChatTurn.recover`), the refused response closed
        first: nobody reads it any more, and while it is open it counts as a request in flight, so the
        recovery's own summaries would wait out the turn's budget for it (a stream whose first event is
        the refusal is left unread after that event)."""
        await response.aclose()
        return await self.turn.recover(overflow)

    def rounds(self, response: Response) -> Rounds:
        """The answer with the gateway's own tool calls answered (see owned_tools.py); per API."""
        return Rounds(self.turn, response, self.turn.owned, self._post, self.gw.in_thread, self.turn.guards)

    def watch(self) -> StreamWatch:
        """What reads the relayed stream's events (usage, the reply, its end); per API."""
        return StreamWatch(strip_usage=not self.turn.client_usage)

    def stream_error(self, message: str, code: str) -> bytes:
        """The event that ends a stream which failed after it began; per API."""
        return error_event(message, code)

    def _send(self) -> Awaitable[Response]:
        return self._post(self.turn.payload())

    def _post(self, body: bytes) -> Awaitable[Response]:
        return self.gw.client.request("POST", self.target, self.headers, body)

    async def _early(self) -> Response | None:
        """Send the client's bytes while the hooks run; None when they changed the prompt, after that
        request was dropped (the model stops when its connection closes)."""
        early = asyncio.ensure_future(self._send())
        # Started second, so the request is written before a worker thread competes for the GIL.
        prepared = asyncio.ensure_future(self.turn.prepare())
        try:
            await prepared
        except BaseException:
            await _drop(early)
            raise
        if not self.turn.changed:
            return await early
        await _drop(early)
        logger.info("gateway.early_send_dropped", session=self.turn.key, tokens_before=self.turn.tokens_before,
                    tokens_after=self.turn.tokens_after)
        return None

    async def _error(self, response: Response, body: bytes, overflow: Overflow | None) -> None:
        turn = self.turn
        turn.status = response.status_code
        body = redact_bytes(body, self.secret)  # after detect(): classified on what the server said
        text = redact(overflow.message, self.secret) if overflow else body[:300].decode("utf-8", "replace")
        turn.error = text or f"HTTP {turn.status}"
        turn.outcome = "error"
        self.responded = True
        await send_bytes(self.send, response.status_code, body, [*response_headers(response), *turn.headers()])

    async def _whole(self, response: Response, body: bytes) -> None:
        """A non-streamed answer: usage and reply read for after_turn, bytes passed on unchanged."""
        turn = self.turn
        turn.status = response.status_code
        body = redact_bytes(body, self.secret)
        data = _json(body)
        if isinstance(data, dict):
            turn.usage = data.get("usage") if isinstance(data.get("usage"), dict) else None
            choices = data.get("choices")
            if isinstance(choices, list) and choices and isinstance(choices[0], dict):
                message = choices[0].get("message")
                turn.reply = message if isinstance(message, dict) else None
                notice = turn.announcement()
                if notice and turn.reply is not None and isinstance(turn.reply.get("content"), str):
                    turn.reply["content"] = notice + turn.reply["content"]
                    body = dumps(data)
        turn.outcome = "complete" if turn.status < 400 else "error"
        self.responded = True
        await send_bytes(self.send, response.status_code, body, [*response_headers(response), *turn.headers()])

    async def _stream(self, response: Response, *, can_retry: bool) -> Overflow | None:
        """Relay an event stream. Before anything is sent, a stream that says the prompt is too long
        (an empty stream, or an overflow error as its first event) is returned as an Overflow instead."""
        turn = self.turn
        watch = self.watch()
        splitter = EventSplitter(self.secret)
        started = False
        notice = turn.announcement()
        try:
            async for data in response.iter_bytes():
                events = splitter.feed(data)
                if not events:
                    continue
                kept = []
                for event in events:
                    if watch.keep(event):
                        kept.append(event)
                    if notice and watch.first is not None:  # the reply's first chunk: the notice before its text
                        kept[-1] = announced(kept[-1], watch.first, notice)
                        notice = None
                out = b"".join(kept)
                if not started:
                    refused = _refusal(watch) if can_retry else None
                    if refused is not None:
                        return refused
                    started = self.started = True
                    await self.send({"type": "http.response.start", "status": response.status_code,
                                     "headers": [*response_headers(response), *turn.headers()]})
                if out:
                    if watch.done and watch.complete:  # the client has it all once this is out (and may hang up)
                        self._finished(watch, None)
                    await self.send({"type": "http.response.body", "body": out, "more_body": True})
        except UpstreamError as problem:
            if not started:
                raise
            await self._end(watch, self.stream_error(str(problem), problem.code), str(problem))
            return None
        rest = splitter.rest()
        if not started and not rest:
            return Overflow(EMPTY_STREAM)
        if not started:
            self.started = True
            await self.send({"type": "http.response.start", "status": response.status_code,
                             "headers": [*response_headers(response), *turn.headers()]})
        tail = rest if rest and watch.keep(rest) else b""
        if watch.complete:
            await self._end(watch, tail, None)
            return None
        message = (f"context-compactor: the upstream model server at {self.gw.config.base} ended the stream "
                   f"before the reply was finished ({watch.missing()}; a single-slot server does this when another "
                   "request interrupts it)")
        logger.warning("gateway.stream_incomplete", session=turn.key, model=turn.model.id, events=watch.events,
                       done=watch.done)
        await self._end(watch, tail + self.stream_error(message, "upstream_stream_incomplete"), message)
        return None

    async def _end(self, watch: StreamWatch, tail: bytes, error: str | None) -> None:
        if not self.responded:
            self._finished(watch, error)
        await self.send({"type": "http.response.body", "body": tail, "more_body": False})

    def _finished(self, watch: StreamWatch, error: str | None) -> None:
        """Record how a stream ended: whole (a finish_reason, then [DONE]) or cut (an error event ends it).

        Set before the last bytes go out: a client that has its [DONE] may hang up at once, and its
        turn is still a complete 200, not a 499."""
        turn = self.turn
        turn.status = 200
        turn.reply, turn.usage = watch.reply(), watch.usage
        turn.error = error or (json.dumps(watch.error)[:300] if watch.error is not None else None)
        turn.outcome = "complete" if watch.complete and error is None and watch.error is None else "cut"
        self.responded = True


async def _drop(request: asyncio.Future[Response]) -> None:
    """Cancel an upstream request, or close its response when it had already come."""
    request.cancel()
    with contextlib.suppress(asyncio.CancelledError, UpstreamError):
        response = await request
        await response.aclose()


def convert_empty(url: str) -> UpstreamError:
    return UpstreamBroken(
        f"context-compactor: the upstream model server at {url} answered with an empty event stream, "
        "also after compacting (llama-cpp-python does this when the prompt does not fit its context "
        "window; set contextWindow for this model)", url=url)


def _refusal(watch: StreamWatch) -> Overflow | None:
    """The overflow a stream's first events report as an error event (LM Studio streams its errors)."""
    if watch.error is None or watch.first is not None:
        return None
    return detect(400, json.dumps(watch.error).encode())


def _json(body: bytes) -> Any:
    try:
        return json.loads(body)
    except ValueError:
        return None
