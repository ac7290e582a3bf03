"""The hook contract between a host (an agent gateway) and its extensions.

Pluggy project ``openclaw``; extensions register through the entry-point group
``openclaw.extensions``. Hook names follow OpenClaw's where they exist. Events, contexts and results
are plain typed dataclasses: they are built once per model call, so they must cost nothing for a
history of thousands of messages.

Messages are OpenAI chat messages (see :mod:`context_compactor.messages`). A host that keeps
messages in another format converts them at its edge and maps kept messages back by identity.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pluggy

from . import PROJECT

if TYPE_CHECKING:
    from .runtime import Runtime

hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)

Message = dict[str, Any]


@dataclass(frozen=True)
class ModelInfo:
    """The model a turn is for. ``context_window`` is what the host believes, if anything."""

    id: str = "unknown"
    context_window: int | None = None
    base_url: str | None = None
    api: str | None = None  # "openai" | "ollama" | ...; how to talk to base_url
    api_key: str | None = field(default=None, repr=False)


@dataclass
class HookContext:
    """Who is asking: the session, and the runtime (settings, store, summarizer) of the host."""

    session_key: str
    runtime: Runtime
    model: ModelInfo = field(default_factory=ModelInfo)


@dataclass
class BeforeAgentStartEvent:
    """The full prompt a host is about to send: history as the model would see it, and the rest."""

    messages: list[Message]
    system_prompt: str = ""
    tools: list[dict[str, Any]] = field(default_factory=list)
    model: ModelInfo = field(default_factory=ModelInfo)


@dataclass
class BeforeAgentStartResult:
    """What an extension wants sent instead.

    ``messages`` replaces the history for this call only (None: unchanged); kept messages are the
    host's own objects. ``prepend_context`` is text to put before the history. ``notices`` are for
    the user and are never sent to the model. ``stats`` carries the figures of the decision.
    """

    messages: list[Message] | None = None
    prepend_context: str | None = None
    notices: list[str] = field(default_factory=list)
    stats: dict[str, Any] = field(default_factory=dict)


@dataclass
class Usage:
    prompt_tokens: int | None = None
    completion_tokens: int | None = None


@dataclass
class AfterTurnEvent:
    """What was sent, what came back, and what the provider said it cost."""

    messages: list[Message]
    system_prompt: str = ""
    tools: list[dict[str, Any]] = field(default_factory=list)
    model: ModelInfo = field(default_factory=ModelInfo)
    reply: Message | None = None
    usage: Usage | None = None
    error: str | None = None


@dataclass(frozen=True)
class Command:
    """A chat command such as ``/context-stats``; ``handler(args, ctx)`` returns the reply text."""

    name: str
    description: str
    handler: Callable[[str, HookContext], str]
    accepts_args: bool = False


@hookspec(firstresult=True)
def before_agent_start(event: BeforeAgentStartEvent, ctx: HookContext) -> BeforeAgentStartResult | None:
    """Called once before each model call, with the full prompt the host is about to send.

    ``event.messages`` is the whole history (never to be mutated), ``event.system_prompt`` and
    ``event.tools`` the rest of the prompt, ``event.model`` the model and what the host knows of
    its context window; ``ctx.session_key`` names the conversation. Return a
    :class:`BeforeAgentStartResult` to change what this one call sends, or None to leave it as it
    is. The first implementation that returns a result wins. An implementation must not raise:
    on any internal failure it returns None (the host then sends the full history).
    """


@hookspec
def after_turn(event: AfterTurnEvent, ctx: HookContext) -> None:
    """Called after each model call with what was sent, the reply, usage and any error.

    ``event.messages`` is what was actually sent (the projection, if one was returned);
    ``event.usage`` is the provider's own count when it reported one; ``event.error`` is the
    provider's error text when the call failed. Used for calibration and bookkeeping; returns
    nothing and must not raise.
    """


@hookspec
def register_commands() -> list[Command]:
    """Called once when the host starts; returns the chat commands this extension provides.

    Each :class:`Command` has a name without the slash (``"context-stats"``), a one-line
    description for the host's help, whether it takes arguments, and ``handler(args, ctx)``
    returning the reply text. The host answers the command itself; it never reaches the model.
    """
    return []
