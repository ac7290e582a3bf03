"""The routes of the other two wire formats: Anthropic Messages and OpenAI Responses.

    POST /v1/messages                 compaction, then the upstream's /messages (anthropic.py)
    POST /v1/messages/count_tokens    the tokens of the prompt the model would get after compaction
    POST /v1/responses                compaction, then the upstream's /responses (responses.py)
    POST /v1/responses/input_tokens   as count_tokens

Each route reads the body, converts it for the hooks, finds the session, answers our chat commands,
and runs the same turn as chat completions (:meth:`Gateway.run_turn`). A body we do not understand
goes to the upstream unchanged (fail open).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import structlog

from context_compactor.errors import InputError
from context_compactor.messages import repaired, validate_messages

from . import anthropic, responses
from .asgi import JSON_TYPE, Receive, Scope, Send, TooDeep, ascii_header, dumps, header, loads_bounded, send_bytes
from .commands import find_command
from .http1 import split_target
from .sessions import session_key
from .turn import ChatTurn
from .upstream import UpstreamError, bearer, request_headers

if TYPE_CHECKING:
    from .app import Gateway

logger = structlog.get_logger("context_compactor")

NO_ROUTE = frozenset({404, 405, 501})  # an upstream without a token-count route


def _body(gw: Gateway, raw: bytes, field: str) -> dict[str, Any] | str:
    """The parsed request, or why it goes through untouched."""
    try:
        body = repaired(loads_bounded(raw, gw.config.max_json_depth), raw)
    except TooDeep:
        return "the request's JSON nests too deep"
    except ValueError:
        return "the body is not JSON"
    if not isinstance(body, dict) or not isinstance(body.get(field), (list, str) if field == "input" else list):
        return f"the body has no {field} list"
    return body


def _converted(kind: str, body: dict[str, Any]) -> Any:
    conv = anthropic.to_openai(body) if kind == "messages" else responses.to_openai(body)
    validate_messages(conv.messages)
    return conv


def _key(kind: str, scope: Scope, body: dict[str, Any], messages: list[Any], tenant: str | None) -> str:
    """Messages: ``metadata.user_id``, then ``X-Session-Id``, then a fingerprint; Responses: ``prompt_cache_key``
    first."""
    if kind == "messages":
        metadata = body.get("metadata")
        name = metadata.get("user_id") if isinstance(metadata, dict) else None
    else:
        name = body.get("prompt_cache_key")
    if isinstance(name, str) and name.strip():
        return session_key(None, {"user": name}, tenant)
    return session_key(header(scope, b"x-session-id"), {"messages": messages}, tenant)


async def _prepared(gw: Gateway, kind: str, scope: Scope, send: Send, raw: bytes) -> tuple[dict[str, Any], Any, str] | None:
    """The body, its conversion and session key; None when the request went through unchanged."""
    body = _body(gw, raw, "messages" if kind == "messages" else "input")
    conv = None
    if isinstance(body, dict):
        try:
            conv = _converted(kind, body)
        except (InputError, AttributeError, TypeError, ValueError) as exc:
            body = f"the conversation is not one we can compact: {exc}"
    if isinstance(body, str) or conv is None:
        logger.info("gateway.passthrough", path=scope["path"], reason=body)
        await gw.proxy(scope, send, raw)
        return None
    from .app import TENANT

    return body, conv, _key(kind, scope, body, conv.messages, scope.get(TENANT) or None)


def _turn(gw: Gateway, kind: str, scope: Scope, body: dict[str, Any], raw: bytes, key: str, conv: Any
          ) -> tuple[ChatTurn, list[tuple[bytes, bytes]]]:
    headers = request_headers(scope["headers"], gw.config)
    if kind == "messages":
        return anthropic.MessagesTurn(gw, body, raw, key, bearer(headers), conv), headers
    return responses.ResponsesTurn(gw, body, raw, key, bearer(headers), conv), headers


async def turn_route(kind: str, gw: Gateway, scope: Scope, receive: Receive, send: Send, raw: bytes) -> None:
    started = time.perf_counter()
    prepared = await _prepared(gw, kind, scope, send, raw)
    if prepared is None:
        return
    body, conv, key = prepared
    if kind == "responses" and (body.get("previous_response_id") or body.get("conversation")):
        await responses.server_side(gw, scope, send, raw, key)
        return
    found = find_command(conv.messages, gw.commands)
    if found is not None:
        text = await gw.command_text(body, key, *found)
        answer = anthropic.send_answer if kind == "messages" else responses.send_answer
        await answer(send, body, text, [(b"x-context-compactor-session", ascii_header(key))])
        return
    turn, headers = _turn(gw, kind, scope, body, raw, key, conv)
    relay_class = anthropic.MessagesRelay if kind == "messages" else responses.ResponsesRelay
    await gw.run_turn(receive, turn, relay_class(gw, turn, send, headers), started)


async def count_route(kind: str, gw: Gateway, scope: Scope, receive: Receive, send: Send, raw: bytes) -> None:
    """The input tokens of the prompt the model would get for this request after compaction: the
    upstream's count of it when the server has the route, else ours."""
    prepared = await _prepared(gw, kind, scope, send, raw)
    if prepared is None:
        return
    body, conv, key = prepared
    turn, headers = _turn(gw, kind, scope, body, raw, key, conv)
    await turn.prepare()
    payload = turn.payload()
    path = "/messages/count_tokens" if kind == "messages" else "/responses/input_tokens"
    extra = [(b"x-context-compactor-session", ascii_header(key))]
    try:
        response = await gw.client.request("POST", split_target(gw.config.base + path), headers, payload)
        try:
            answer = await response.read()
        finally:
            await response.aclose()
        if response.status_code not in NO_ROUTE:
            await send_bytes(send, response.status_code, answer, [JSON_TYPE, *extra])
            return
    except UpstreamError as problem:
        logger.info("gateway.count_upstream_failed", path=scope["path"], error=str(problem))
    tokens = turn.tokens_after if turn.tokens_after is not None else _measured(turn)
    data: dict[str, Any] = {"input_tokens": tokens}
    if kind == "responses":
        data = {"object": "response.input_tokens", "input_tokens": tokens}
    await send_bytes(send, 200, dumps(data), [JSON_TYPE, *extra])


def _measured(turn: ChatTurn) -> int:
    measurer = turn.measurer()
    return measurer.measure(list(turn.sent), "", list(turn.event.tools)).total


Route = Callable[["Gateway", Scope, Receive, Send, bytes], Awaitable[None]]


def _route(fn: Callable[..., Awaitable[None]], kind: str) -> Route:
    async def route(gw: Gateway, scope: Scope, receive: Receive, send: Send, raw: bytes) -> None:
        await fn(kind, gw, scope, receive, send, raw)
    return route


ROUTES: dict[str, Route] = {
    anthropic.MESSAGES_PATH: _route(turn_route, "messages"),
    anthropic.COUNT_PATH: _route(count_route, "messages"),
    responses.RESPONSES_PATH: _route(turn_route, "responses"),
    responses.COUNT_PATH: _route(count_route, "responses"),
}
