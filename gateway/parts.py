"""What a turn, its relay and the API routes use of the gateway, named apart from the application.

:class:`~context_compactor.gateway.app.Gateway` builds every turn, relay and route, so it imports
them; they in turn need its parts (the settings, the runtime, the upstream client, the session locks,
the idle gate ...). Naming those parts here, in a module that imports none of the others, keeps the
imports one way: the application at the top, what it builds below it, this module underneath. The
Gateway is checked against :class:`GatewayParts` wherever it is handed down (mypy).

The turn and the relay are ``Any`` where a part takes one: they are built on this module, so it
cannot name them (:class:`~.turn.ChatTurn`, :class:`~.relay.Relay`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar

import pluggy

from context_compactor.hookspecs import Command
from context_compactor.runtime import Runtime
from context_compactor.summarizer.idle_gate import IdleGate

from .after_turns import AfterTurns
from .asgi import Receive, Scope, Send
from .config import GatewayConfig
from .http1 import Client
from .sessions import KeyedLocks

TENANT = "context_compactor.tenant"  # the scope entry: who the caller is (see Gateway.tenant)
T = TypeVar("T")


class ToolSet(Protocol):
    """The gateway's own tools (:class:`.owned_tools.OwnedTools`) as a turn asks for them."""

    def offered(self, turn: Any, /) -> dict[str, Any]:
        """The tools to add to this turn's request."""

    def guards_for(self, turn: Any, /) -> list[Any]:
        """What answers this turn's calls of the client's own tools (see loop_guards.py)."""

    def reserved(self, client: list[Any], /) -> list[dict[str, Any]]:
        """The schemas of the tools a compacted turn carries, measured with its prompt."""


class GatewayParts(Protocol):
    """The gateway as the turns, relays and routes it builds see it."""

    tokenize_path: str | None  # how the upstream counts tokens ("": it cannot; None: not asked yet)

    @property
    def config(self) -> GatewayConfig: ...

    @property
    def runtime(self) -> Runtime: ...

    @property
    def pm(self) -> pluggy.PluginManager: ...

    @property
    def commands(self) -> dict[str, Command]: ...

    @property
    def locks(self) -> KeyedLocks: ...

    @property
    def owned_tools(self) -> ToolSet: ...

    @property
    def gate(self) -> IdleGate: ...

    @property
    def after_turns(self) -> AfterTurns: ...

    @property
    def counted(self) -> dict[str, int]:
        """Per session: the compaction its prompt was last counted for by the server's tokenizer."""

    @property
    def fit_counts(self) -> dict[str, Any]:
        """Per session: how the fit of its last compaction was checked (:class:`.turn.FitCount`)."""

    @property
    def client(self) -> Client:
        """The upstream client."""

    @property
    def single_slot(self) -> bool:
        """Whether the upstream generates one answer at a time."""

    async def in_thread(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a blocking hook call in the gateway's worker threads."""

    def remember(self, turn: Any) -> None:
        """Note whether a turn's prompt went out as the client wrote it (for the next turn's early send)."""

    def unchanged_turn(self, key: str) -> tuple[str, float, int] | None:
        """(model, tokens per byte, trigger) of the session's last turn, when it went out as written."""

    def forget(self, key: str) -> None:
        """The session's next prompt will not go out as written."""

    def upstream_waiting(self) -> None:
        """The gateway waits for the upstream: queued ``after_turn`` calls may start."""

    async def settled(self, key: str) -> None:
        """Wait until the session's ``after_turn`` calls have run."""

    async def run_turn(self, receive: Receive, turn: Any, relay: Any, started: float) -> None:
        """Compact (or send early), send, relay, then queue ``after_turn`` and count the turn."""

    async def proxy(self, scope: Scope, send: Send, raw: bytes) -> None:
        """Pass a request to the upstream and its answer back, both unchanged."""

    async def command_text(self, body: dict[str, Any], key: str, command: Command, args: str) -> str:
        """Run a chat command for a session; its answer's text."""
