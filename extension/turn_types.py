"""What a turn carries between a host and the hooks: the model it is for, the prompt the host is about
to send (:class:`BeforeAgentStartEvent`), and the figures of the decision (:class:`CompactionStats`).

The contract (``hookspecs.py``) names these, and so do the session and the runtime that make the
decision; they live here, below all three, so that the contract can name the runtime it hands to the
hooks (``HookContext.runtime``) while the runtime and the session use the turn's types. Import them
from ``context_compactor.hookspecs``, the contract, like everything else a host uses.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any

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
