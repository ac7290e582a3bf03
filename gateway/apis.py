"""The routes of the other two wire formats: Anthropic Messages and OpenAI Responses.

    POST /v1/messages                 compaction, then the upstream's /messages (anthropic.py)
    POST /v1/messages/count_tokens    the tokens of the prompt the model would get after compaction
    POST /v1/responses                compaction, then the upstream's /responses (responses.py)
    POST /v1/responses/input_tokens   as count_tokens

Each route reads the body, converts it for the hooks, finds the session, answers our chat commands
(earlier command exchanges are left out of the conversation), and runs the same turn as chat completions
(:meth:`Gateway.run_turn`). A count's turn is kept for the request of the same conversation that follows
it, which is then sent as counted. A body we do not understand goes to the upstream unchanged (fail open).
"""

from __future__ import annotations

import dataclasses
import json
import time
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import structlog

from context_compactor import anthropic_adapter, responses_adapter
from context_compactor.errors import InputError
from context_compactor.messages import repaired, validate_messages

from . import anthropic, responses
from .api_turn import ApiRelay, ApiTurn
from .asgi import (JSON_TYPE, ErrorShape, Receive, Scope, Send, TooDeep, ascii_header, dumps, error_shape, header,
                   loads_bounded, send_bytes, send_error)
from .commands import find_command, without_commands
from .http1 import split_target
from .parts import TENANT, GatewayParts
from .sessions import session_key
from .server_count import chat_text, server_count
from .upstream import UpstreamError, bearer, request_headers


logger = structlog.get_logger("context_compactor")

NO_ROUTE = frozenset({404, 405, 501})  # an upstream without a token-count route
PIN_SECONDS = 60.0  # a count's plan waits this long for the request of the same conversation
MAX_PINS = 256  # sessions whose last count's plan is kept


@dataclass(frozen=True)
class Api:
    """How one wire format differs: its body's conversation field, adapter, turn, relay, answers and errors."""

    field: str  # the conversation: "messages" or "input"
    convert: Callable[[dict[str, Any]], Any]  # the adapter: body -> Converted
    turn: type[ApiTurn]
    relay: type[ApiRelay]
    answer: Callable[..., Awaitable[None]]  # a command's answer: (send, body, text, headers)
    error: ErrorShape
    count_path: str  # the upstream's token-count route under its base URL
    count: Callable[[int], dict[str, Any]]  # our own count's answer
    session: str  # the body field that names the session, before X-Session-Id and a fingerprint


MESSAGES = Api("messages", anthropic_adapter.to_openai, anthropic.MessagesTurn, anthropic.MessagesRelay,
               anthropic.send_answer, anthropic.error_body, "/messages/count_tokens",
               lambda tokens: {"input_tokens": tokens}, "metadata.user_id")
RESPONSES = Api("input", responses_adapter.to_openai, responses.ResponsesTurn, responses.ResponsesRelay,
                responses.send_answer, responses.error_body, "/responses/input_tokens",
                lambda tokens: {"object": "response.input_tokens", "input_tokens": tokens}, "prompt_cache_key")
BY_PATH = {anthropic.MESSAGES_PATH: MESSAGES, anthropic.COUNT_PATH: MESSAGES,
           responses.RESPONSES_PATH: RESPONSES, responses.COUNT_PATH: RESPONSES}


def shape_errors(path: str) -> None:
    """Make the gateway's own errors of this request (its task) take the shape of the API at ``path``."""
    api = BY_PATH.get(path)
    error_shape.set(api.error if api is not None else None)


def _body(gw: GatewayParts, raw: bytes, api: Api) -> dict[str, Any] | str:
    """The parsed request, or why it goes through untouched (:class:`TooDeep` when it nests too deep)."""
    try:
        body = repaired(loads_bounded(raw, gw.config.max_json_depth), raw)
    except ValueError:
        return "the body is not JSON"
    kinds = (list, str) if api.field == "input" else list
    if not isinstance(body, dict) or not isinstance(body.get(api.field), kinds):
        return f"the body has no {api.field} list"
    return body


def _key(api: Api, scope: Scope, body: dict[str, Any], messages: list[Any], tenant: str | None) -> str:
    """The session: the API's own field (``metadata.user_id``, ``prompt_cache_key``), then ``X-Session-Id``,
    then a fingerprint of the conversation's start."""
    name: Any = body
    for part in api.session.split("."):
        name = name.get(part) if isinstance(name, dict) else None
    if isinstance(name, str) and name.strip():
        return session_key(None, {"user": name}, tenant)
    return session_key(header(scope, b"x-session-id"), {"messages": messages}, tenant)


async def _prepared(gw: GatewayParts, api: Api, scope: Scope, send: Send, raw: bytes
                    ) -> tuple[dict[str, Any], Any, str] | None:
    """The body, its conversion and session key; None when the request was answered or went through unchanged."""
    try:
        body = _body(gw, raw, api)
    except TooDeep:
        limit = gw.config.max_json_depth
        logger.warning("gateway.json_too_deep", path=scope["path"], limit=limit)
        await send_error(send, 400, f"context-compactor: the request's JSON nests deeper than {limit} levels "
                         "(start the gateway with a larger --max-json-depth if this is a real request)", "json_too_deep")
        return None
    conv = None
    if isinstance(body, dict):
        try:
            conv = api.convert(body)
            validate_messages(conv.messages)
        except (InputError, AttributeError, TypeError, ValueError) as exc:
            body = f"the conversation is not one we can compact: {exc}"
    if isinstance(body, str) or conv is None:
        logger.info("gateway.passthrough", path=scope["path"], reason=body)
        await gw.proxy(scope, send, raw)
        return None
    return body, conv, _key(api, scope, body, conv.messages, scope.get(TENANT) or None)


def _turn(gw: GatewayParts, api: Api, scope: Scope, body: dict[str, Any], raw: bytes, key: str, conv: Any,
          counted: ApiTurn | None = None) -> tuple[ApiTurn, list[tuple[bytes, bytes]]]:
    """The turn of this request, without the command exchanges its history keeps (the model never sees them);
    with the decision of ``counted`` (the count of this conversation just before) when there is one."""
    headers = request_headers(scope["headers"], gw.config)
    if counted is not None:
        turn = api.turn(gw, body, raw, key, bearer(headers), counted.conv)
        turn.rewritten = counted.rewritten
        turn.pin(counted)
        return turn, headers
    kept, dropped = _without_commands(conv, gw.commands)
    turn = api.turn(gw, body, raw, key, bearer(headers), kept)
    turn.rewritten = dropped
    return turn, headers


@dataclasses.dataclass
class _Pin:
    """A count's turn, kept for the request that follows it: what it counted, and when."""

    turn: ApiTurn
    asked: tuple[Any, ...]
    at: float


_PINS: weakref.WeakKeyDictionary[Any, dict[str, _Pin]] = weakref.WeakKeyDictionary()  # per gateway, per session


def _asked(api: Api, body: dict[str, Any]) -> tuple[Any, ...]:
    """What a count or a request is about: the conversation, the fixed part and the tools."""
    return body.get(api.field), body.get("system"), body.get("instructions"), body.get("tools")


def _pin(gw: GatewayParts, api: Api, key: str, body: dict[str, Any], turn: ApiTurn) -> None:
    """Keep the plan a count answered for: a request of the same conversation that follows gets it, so that the
    count is what was then sent even when a background summary lands in between (the next plan would take it)."""
    pins = _PINS.setdefault(gw, {})
    pins.pop(key, None)
    pins[key] = _Pin(turn, _asked(api, body), time.monotonic())
    if len(pins) > MAX_PINS:
        del pins[next(iter(pins))]


def _pinned(gw: GatewayParts, api: Api, key: str, body: dict[str, Any]) -> ApiTurn | None:
    """The turn of the count just before this request, when it counted this very conversation (used once)."""
    pin = _PINS.get(gw, {}).pop(key, None)
    if pin is None or time.monotonic() - pin.at > PIN_SECONDS:
        return None
    return pin.turn if pin.asked == _asked(api, body) else None


def _without_commands(conv: Any, commands: dict[str, Any]) -> tuple[Any, bool]:
    """``conv`` without the earlier ``/context-stats`` (``/compact-now``) exchanges, and whether there were any:
    the converted messages and, beside them, what each stands for (its Anthropic message, its Responses items)."""
    kept = without_commands(conv.messages, commands)
    if kept is conv.messages:
        return conv, False
    ids = {id(m) for m in kept}
    keep = [i for i, m in enumerate(conv.messages) if id(m) in ids]
    out = dataclasses.replace(conv, messages=kept)
    for name in ("origin", "items"):
        if hasattr(conv, name):
            setattr(out, name, [getattr(conv, name)[i] for i in keep])
    return out, True


async def turn_route(api: Api, gw: GatewayParts, scope: Scope, receive: Receive, send: Send, raw: bytes) -> None:
    started = time.perf_counter()
    prepared = await _prepared(gw, api, scope, send, raw)
    if prepared is None:
        return
    body, conv, key = prepared
    if api is RESPONSES and (body.get("previous_response_id") or body.get("conversation")):
        await responses.server_side(gw, scope, send, raw, key)
        return
    found = find_command(conv.messages, gw.commands)
    if found is not None:
        text = await gw.command_text(body, key, *found)
        await api.answer(send, body, text, [(b"x-context-compactor-session", ascii_header(key))])
        return
    turn, headers = _turn(gw, api, scope, body, raw, key, conv, _pinned(gw, api, key, body))
    await gw.run_turn(receive, turn, api.relay(gw, turn, send, headers), started)


async def count_route(api: Api, gw: GatewayParts, scope: Scope, receive: Receive, send: Send, raw: bytes) -> None:
    """The input tokens of the prompt the model would get for this request after compaction (once the session's
    bookkeeping has settled, as the turn after it will find it): the upstream's count of it when the server has
    the route, else ours."""
    prepared = await _prepared(gw, api, scope, send, raw)
    if prepared is None:
        return
    body, conv, key = prepared
    await gw.settled(key)  # the last turn's bookkeeping (calibration) shapes the next prompt: counted after it
    turn, headers = _turn(gw, api, scope, body, raw, key, conv)
    await turn.prepare()
    _pin(gw, api, key, body, turn)
    payload = turn.payload()
    extra = [(b"x-context-compactor-session", ascii_header(key))]
    try:
        response = await gw.client.request("POST", split_target(gw.config.base + api.count_path), headers, payload)
        try:
            answer = await response.read()
        finally:
            await response.aclose()
        if response.status_code not in NO_ROUTE:
            await send_bytes(send, response.status_code, answer, [JSON_TYPE, *extra])
            return
    except UpstreamError as problem:
        logger.info("gateway.count_upstream_failed", path=scope["path"], error=str(problem))
    await send_bytes(send, 200, dumps(api.count(await _own_count(gw, turn))), [JSON_TYPE, *extra])


async def _own_count(gw: GatewayParts, turn: ApiTurn) -> int:
    """Our count in the server's tokens (see :func:`_server_scale`). With no report to scale by and the model never
    calibrated (a session's first count), the server's tokenizer counts the prompt's text when it has one (as chat
    counts a stream that reported no usage), while no request is at the server."""
    tokens, scale = _counted(turn), _server_scale(turn)
    if scale is not None or gw.runtime.calibration(turn.model.id) is not None or gw.gate.busy(gw.config.base):
        return round((scale or 1.0) * tokens)
    text = chat_text(list(turn.sent)) + json.dumps(list(turn.event.tools), ensure_ascii=False)
    counted = await server_count(gw, turn.model.id, text)
    return counted if counted is not None else tokens


def _counted(turn: ApiTurn) -> int:
    """Our count of what the request will send, measured as ``after_turn`` measures a prompt against the server's
    report (the client's tools: the server's count of the gateway's own is in the scale, see :func:`_server_scale`)."""
    if turn.tokens_after is not None:
        return turn.tokens_after
    return turn.measurer().measure(list(turn.sent), "", list(turn.event.tools)).total


def _server_scale(turn: ApiTurn) -> float | None:
    """The server's count of the session's last prompt over ours of it (at the ratio calibrated since), from the
    hooks' result: our count times this is in the server's tokens. The ratio moves toward each report by a share
    only (one odd prompt must not swing it), so for a session's first turns it lags, and this carries the rest; it
    also carries what the server counts that we do not (the gateway's own tool schemas). None before any report."""
    stats = turn.stats
    if stats is None or not stats.reported_tokens or not stats.reported_estimate:
        return None
    return stats.reported_tokens / stats.reported_estimate


Route = Callable[[GatewayParts, Scope, Receive, Send, bytes], Awaitable[None]]


def _route(fn: Callable[..., Awaitable[None]], api: Api) -> Route:
    async def route(gw: GatewayParts, scope: Scope, receive: Receive, send: Send, raw: bytes) -> None:
        await fn(api, gw, scope, receive, send, raw)
    return route


ROUTES: dict[str, Route] = {
    anthropic.MESSAGES_PATH: _route(turn_route, MESSAGES),
    anthropic.COUNT_PATH: _route(count_route, MESSAGES),
    responses.RESPONSES_PATH: _route(turn_route, RESPONSES),
    responses.COUNT_PATH: _route(count_route, RESPONSES),
}
