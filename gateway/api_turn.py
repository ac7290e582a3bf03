"""What the turns of the other wire formats (Anthropic Messages, OpenAI Responses) share.

    ApiTurn     a chat turn whose client speaks another API: its body converted for the hooks by an adapter,
                the projection converted back to send, the gateway's own tools in that API's shape; a
                request that follows a token count of the same conversation takes that count's decision
    ApiRelay    its relay: the chat relay with the API's own watch, stream error event and owned-tool rounds,
                and whole answers read by the API's own reader

A subclass says how its API differs (:meth:`ApiTurn.chat_tools`, :meth:`ApiTurn.tool_entry`,
:meth:`ApiTurn.with_projection`; :meth:`ApiRelay.read_whole`, ``watch``, ``stream_error``, ``rounds``);
compaction, overflow retries, early sends and bookkeeping are chat's own (:class:`ChatTurn`, :class:`Relay`).
"""

from __future__ import annotations

import json
from typing import Any

import structlog

from context_compactor.hookspecs import CompactionStats
from context_compactor.redact import redact_bytes

from .asgi import Headers, Send
from .http1 import Response, split_target
from .parts import GatewayParts
from .relay import Relay
from .turn import ChatTurn


logger = structlog.get_logger("context_compactor")


class ApiTurn(ChatTurn):
    """The compaction side of one request in another API; ``conv`` is its adapter's conversion."""

    api_path = ""  # the upstream path under the base URL

    def __init__(self, gw: GatewayParts, body: dict[str, Any], raw: bytes, key: str, upstream_key: str | None,
                 conv: Any) -> None:
        self.original, self.conv = body, conv
        chat = {"model": body.get("model"), "messages": conv.messages, "tools": self.chat_tools(body.get("tools")),
                "stream": bool(body.get("stream"))}
        super().__init__(gw, chat, raw, key, upstream_key)
        self.client_usage = True  # these streams always report their usage
        self.rewritten = False  # the client's bytes do not go out even unchanged (command exchanges left out)
        self.pinned: ApiTurn | None = None  # the count whose decision this request keeps (see :meth:`pin`)
        self.stats: CompactionStats | None = None  # the hooks' figures of this turn's decision, when they gave them
        self.btw = False  # a /btw side question is a rewrite of chat requests; these turns go as they are

    def chat_tools(self, tools: Any) -> list[Any]:
        """The client's tool definitions as OpenAI chat ``tools`` entries (measured, and named for the owned tools)."""
        raise NotImplementedError

    def tool_entry(self, schema: dict[str, Any]) -> dict[str, Any]:
        """One of the gateway's own tools (its OpenAI chat schema) as this API's ``tools`` entry."""
        raise NotImplementedError

    def with_projection(self, body: dict[str, Any], messages: list[Any]) -> None:
        """Put ``messages`` (the hooks' chat messages) into ``body`` (a copy of the client's) in this API's shape."""
        raise NotImplementedError

    # --- a count's plan, pinned for the request after it ----------------------------------------

    DECIDED = ("sent", "compacted", "notices", "tokens_before", "tokens_after", "trigger", "limit", "fits", "reason",
               "stats")

    def pin(self, counted: ApiTurn) -> None:
        """Take the decision the hooks made for ``counted`` (a token count of this same conversation, just
        before): the request gets the prompt its count answered for, even when a summary landed in between."""
        self.pinned = counted
        self.event = counted.event  # the session's record of the decision is that event's

    def _measured(self, stats: CompactionStats | None) -> None:
        super()._measured(stats)
        self.stats = stats

    def may_go_early(self) -> bool:
        return self.pinned is None and super().may_go_early()

    async def prepare(self) -> None:
        """Run the hooks, or take the pinned count's decision; then choose the gateway's own tools, as chat does."""
        counted = self.pinned
        if counted is None:
            await super().prepare()
            return
        for name in self.DECIDED:
            setattr(self, name, getattr(counted, name))
        self.owned = self._fitting(self.gw.owned_tools.offered(self))
        self.guards = self.gw.owned_tools.guards_for(self)
        self.gw.remember(self)
        logger.info("gateway.count_plan_kept", session=self.key, tokens_after=self.tokens_after)

    def announcement(self) -> str | None:
        """None: the notices ride in the headers; the reply's text is the model's own."""
        return None

    def payload(self, extra: list[Any] | None = None) -> bytes:
        """The client's bytes when nothing changed; else its body with the projection, ``extra`` (the owned-tool
        rounds so far) after it, and the gateway's own tools after the client's."""
        if self.sent is self.body["messages"] and not extra and not self.owned and not self.rewritten:
            return self.raw
        body = dict(self.original)
        self.with_projection(body, [*self.sent, *(extra or [])])
        if self.owned:
            body["tools"] = [*(self.original.get("tools") or []),
                             *(self.tool_entry(tool.schema()) for tool in self.owned.values())]
        return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


class ApiRelay(Relay):
    """Sends an :class:`ApiTurn` upstream (with overflow retries and owned-tool rounds) and relays its answer."""

    def __init__(self, gw: GatewayParts, turn: ChatTurn, send: Send, headers: Headers) -> None:
        super().__init__(gw, turn, send, headers)
        self.target = split_target(gw.config.base + getattr(turn, "api_path", ""))

    def read_whole(self, data: dict[str, Any]) -> None:
        """Take the usage and the reply of a whole answer (``data``) for ``after_turn``."""
        raise NotImplementedError

    async def _whole(self, response: Response, body: bytes) -> None:
        """Relayed as chat's (byte for byte), then read in this API's shape (``after_turn`` runs later)."""
        await super()._whole(response, body)
        try:
            data = json.loads(redact_bytes(body, self.secret))
        except ValueError:
            return
        if isinstance(data, dict):
            self.read_whole(data)
