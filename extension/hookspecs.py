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
from typing import Any

import pluggy

from .project import PROJECT
from .runtime import Runtime
from .turn_types import BeforeAgentStartEvent, CompactionStats, Message, ModelInfo

hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)

__all__ = ["AfterToolCallEvent", "AfterTurnEvent", "BeforeAgentStartEvent", "BeforeAgentStartResult", "Command",
           "CommandResult", "CompactionStats", "HookContext", "Message", "ModelInfo", "Tool", "ToolCallEvent",
           "ToolCallVerdict", "Usage", "hookimpl", "hookspec"]


@dataclass
class HookContext:
    """Who is asking: the session, and the runtime (settings, store, summarizer) of the host."""

    session_key: str
    runtime: Runtime
    model: ModelInfo = field(default_factory=ModelInfo)


@dataclass
class BeforeAgentStartResult:
    """What an extension decided for one model call; the built-in hook returns one on every call.

    ``messages`` replaces the history for this call only (None: unchanged); kept messages are the
    host's own objects. ``prepend_context`` is text to put before the history. ``notices`` are for
    the user and are never sent to the model. ``stats`` carries the figures of the decision (None
    from an extension that has none, or when even measuring the prompt failed). ``failure`` is the
    error that made the hook fail open (``"TypeError: ..."``; None when it did not): ``messages`` is
    then None, and a notice says so when the prompt was over the trigger.
    """

    messages: list[Message] | None = None
    prepend_context: str | None = None
    notices: list[str] = field(default_factory=list)
    stats: CompactionStats | None = None
    failure: str | None = None


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
class CommandResult:
    """A command's answer: ``text`` for the user; ``compacted`` whether it compacted the conversation
    (``/compact-now``), and ``stats``, the figures of that compaction, when it ran one."""

    text: str
    compacted: bool = False
    stats: CompactionStats | None = None

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Command:
    """A chat command such as ``/context-stats``; ``handler(args, ctx)`` returns a
    :class:`CommandResult` (or only its text). Hosts call :meth:`run`, which always gives the result."""

    name: str
    description: str
    handler: Callable[[str, HookContext], CommandResult | str]
    accepts_args: bool = False

    def run(self, args: str, ctx: HookContext) -> CommandResult:
        answer = self.handler(args, ctx)
        return answer if isinstance(answer, CommandResult) else CommandResult(str(answer))


@dataclass
class ToolCallEvent:
    """One call of a tool by the model, as the model wrote it: before it runs (``before_tool_call``), or a
    call of a tool of ours for :attr:`Tool.run`.

    ``arguments`` is the model's JSON text, or the object a host already parsed it into. ``messages`` is
    the conversation before the call when the host has it (``serve``: the request carries it), else None
    (OpenClaw hands each result over through ``after_tool_call`` instead). ``call_id`` is the call's id.
    """

    name: str
    arguments: str | dict[str, Any] = ""
    messages: list[Message] | None = None
    call_id: str = ""


@dataclass(frozen=True)
class ToolCallVerdict:
    """``before_tool_call``'s answer: the call is not run. ``reason`` is the tool result the model gets in
    its place (it says why and what to do instead); ``rule`` names the rule, for logs and metrics."""

    reason: str
    rule: str


@dataclass
class AfterToolCallEvent:
    """A tool call that ran, and what came back: ``result`` is its output as text; ``error`` the host's
    error when the tool raised or could not run (None otherwise); ``is_error`` whether the host flagged
    the result as a failure (an error flag, a non-zero exit code). Whether the call failed is then
    decided by the extension, from all three (a command's output can read as a failure unflagged)."""

    name: str
    arguments: str | dict[str, Any] = ""
    result: str = ""
    error: str | None = None
    is_error: bool = False
    call_id: str = ""


@dataclass(frozen=True)
class Tool:
    """A tool an extension offers the model and answers itself, the same in every host.

    ``parameters`` is its JSON schema; ``run(event, ctx)`` answers one call (blocking; returns the tool
    result as text and must not raise: a failure is an answer that says so). ``after_compaction``: the
    tool is offered only once the session has compacted (``recall_history`` has nothing to read before).
    """

    name: str
    description: str
    parameters: dict[str, Any]
    run: Callable[[ToolCallEvent, HookContext], str]
    after_compaction: bool = False

    def schema(self) -> dict[str, Any]:
        """The OpenAI chat ``tools`` entry."""
        return {"type": "function",
                "function": {"name": self.name, "description": self.description, "parameters": self.parameters}}

    def offered(self, compactions: int) -> bool:
        """Whether a turn of a session that has made ``compactions`` compactions carries the tool."""
        return not self.after_compaction or compactions > 0


@hookspec(firstresult=True)
def before_agent_start(event: BeforeAgentStartEvent, ctx: HookContext) -> BeforeAgentStartResult | None:
    """Called once before each model call, with the full prompt the host is about to send.

    ``event.messages`` is the whole history (never to be mutated), ``event.system_prompt`` and
    ``event.tools`` the rest of the prompt, ``event.model`` the model and what the host knows of
    its context window; ``ctx.session_key`` names the conversation. Return a
    :class:`BeforeAgentStartResult` to change what this one call sends, to tell the user something,
    or to report that the prompt cannot fit (``stats.fits`` False, with ``stats.reason``: the host
    sends the best prompt there is and says so); return None to leave the call to the next
    implementation. The first implementation that returns a result wins; the built-in one
    (``hooks/compaction.py``) returns one on every call, quiet or not, so an extension that wants
    to answer first marks its implementation ``tryfirst``. An implementation must not raise: on any
    internal failure it returns a result with ``failure`` set and ``messages`` None (the host then
    sends the full history, and reads the failure from the field, never from the log).
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
    returning a :class:`CommandResult` (hosts call ``command.run(args, ctx)``). The host answers
    the command itself; it never reaches the model.
    """
    return []


@hookspec
def register_tools() -> list[Tool]:
    """Called once when the host starts; returns the tools this extension offers the model.

    The host sends each :class:`Tool`'s schema with the model's tools (once the session has compacted,
    for a tool with ``after_compaction``), and answers a call of it with ``tool.run(event, ctx)``
    instead of passing it to its own tools: ``serve`` inside the turn, OpenClaw through the bridge
    (method ``tool``). A host that finds a tool named like one of its own leaves ours out.
    """
    return []


@hookspec(firstresult=True)
def before_tool_call(event: ToolCallEvent, ctx: HookContext) -> ToolCallVerdict | None:
    """Called before the host runs a tool call the model made (any tool, the host's own included).

    ``event`` is the call as the model wrote it, with the conversation before it when the host has
    it. Return a :class:`ToolCallVerdict` to stop the call: the host does not run it and gives the
    model ``verdict.reason`` as the call's result. Return None to let it run. The first
    implementation that returns a verdict wins. The built-in one refuses a call that already failed
    twice exactly as written (``refuseRepeatedFailures``). Must be quick (it is on the tool's path)
    and must not raise: on any internal failure it returns None.
    """


@hookspec
def after_tool_call(event: AfterToolCallEvent, ctx: HookContext) -> None:
    """Called after a tool call ran, with its result, by a host that sees results one at a time
    (OpenClaw). A host that hands the whole conversation to ``before_tool_call`` (``serve``) need not
    call it. The built-in implementation remembers, per session, the calls that failed and how, for
    ``before_tool_call``. Returns nothing and must not raise.
    """
