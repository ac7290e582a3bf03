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
from dataclasses import asdict, dataclass, field, fields
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
    """The full prompt a host is about to send: history as the model would see it, and the rest.

    ``lifts_reminders``: the host takes text appended to the current turn off that message into its
    system prompt (OpenClaw's ``systemPromptAddition``), so a reminder put there on one call is not in
    the history of the next; the session then does not keep it on that message for later calls.
    ``force``: compact even under the trigger (a host's own overflow recovery; ``/compact-now`` does it
    through the session).
    """

    messages: list[Message]
    system_prompt: str = ""
    tools: list[dict[str, Any]] = field(default_factory=list)
    model: ModelInfo = field(default_factory=ModelInfo)
    lifts_reminders: bool = False
    force: bool = False


@dataclass(frozen=True)
class CompactionStats:
    """The figures of one ``before_agent_start`` decision: all a host needs to report or act on it.

    Token counts are estimates of the whole prompt (system prompt, messages, tool schemas) with the
    session's counter. ``tokens_before`` is the prompt as the host would send it, ``tokens_after``
    what is sent (equal when nothing changed). ``fits`` is False when what is sent is above
    ``window`` and nothing smaller could be built; ``reason`` then says why (the host acts on it:
    the CLI exits 3, the gateway adds a warning header). ``stage`` is the last step of the ladder
    used (0: none; 1 stub old tool results, 2 fold, 3 fold more, 4 cut the current turn);
    ``folded`` the messages now stood for by the summary, made of ``chunks`` chunk summaries
    (``cache_hits`` of them from the cache, ``fallbacks`` by the built-in summarizer because the
    model failed) by ``summarizer``. ``window_source`` says where ``window`` came from ("config",
    "host", "probe", "error", "override", "default"). ``notices`` are the user-facing lines.
    ``turn_tokens`` is the current turn (the last user message and what follows it) as measured;
    ``compactions`` how many compactions the session has made, this one included.
    ``reported_tokens`` is the provider's own count of the latest prompt of this session it reported
    on, and ``reported_estimate`` our estimate of that same prompt (with the ratio calibrated from
    it); None before any report. Their ratio puts a host's own counts in the provider's tokens.
    """

    session: str
    tokens_before: int
    tokens_after: int
    window: int
    window_source: str
    trigger: int
    target: int
    fits: bool = True
    reason: str | None = None
    compacted: bool = False
    stage: int = 0
    folded: int = 0
    chunks: int = 0
    cache_hits: int = 0
    fallbacks: int = 0
    summarizer: str | None = None
    notices: tuple[str, ...] = ()
    messages: int = 0  # messages in the history (system, user, assistant, tool)
    roles: tuple[tuple[str, int], ...] = ()  # (role, count), sorted by role
    system_tokens: int = 0
    tool_tokens: int = 0
    tokenizer: str = "chars"
    chars_per_token: float = 0.0  # the counter's ratio (calibrated or configured); 0 for a tokenizer
    turn_tokens: int = 0
    compactions: int = 0
    reported_tokens: int | None = None
    reported_estimate: int | None = None

    def as_dict(self) -> dict[str, Any]:
        """The figures as JSON-ready data (``notices`` a list, ``roles`` an object)."""
        data = asdict(self)
        data["notices"], data["roles"] = list(self.notices), dict(self.roles)
        return data

    # Transitional: read by name like the dict this class replaced, for callers not yet moved to
    # the attributes. Only field names are accepted; prefer ``stats.fits`` to ``stats["fits"]``.
    def __getitem__(self, name: str) -> Any:
        if name not in _STATS_FIELDS:
            raise KeyError(name)
        return getattr(self, name)

    def get(self, name: str, default: Any = None) -> Any:
        return getattr(self, name) if name in _STATS_FIELDS else default

    def keys(self) -> list[str]:  # with __getitem__: ``dict(stats)`` still works
        return list(_STATS_FIELDS_ORDER)


_STATS_FIELDS_ORDER = tuple(f.name for f in fields(CompactionStats))
_STATS_FIELDS = frozenset(_STATS_FIELDS_ORDER)


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
