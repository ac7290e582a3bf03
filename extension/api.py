"""The Python API: compaction in one call, or one object per conversation.

    from context_compactor import compact, Compactor

    result = compact(messages, context_window=8192, keep_recent_tokens=4000)
    send(result.messages)            # the projection, or ``messages`` itself when nothing changed
    result.stats.fits                # False: even the smallest prompt is above the window (see .reason)

    with Compactor(context_window=8192) as compactor:    # keeps the session's state across turns
        for turn in conversation:
            send(compactor.compact(history).messages)

Both run the same hooks as every other host (``before_agent_start`` through a plugin manager), on
a runtime of their own. Options are the snake_case names of the settings (``keep_recent_tokens``,
``compact_at``, ``summary_model``, ...); an unknown one is a TypeError that names it. Nothing is
written to disk unless ``store`` names a SQLite file, and nothing to stdout: log lines go to the
standard ``logging`` logger ``context_compactor``.
"""

from __future__ import annotations

import difflib
import functools
import itertools
import operator
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

import pluggy
from pydantic import ValidationError

from .errors import InputError
from .hookspecs import AfterTurnEvent, BeforeAgentStartEvent, CompactionStats, HookContext, Message, ModelInfo, Usage
from .messages import repaired, repaired_text, validate_messages
from .plugins import get_plugin_manager
from .runtime import Runtime
from .turn_record import unchanged_stats
from .settings import Settings
from .store import Store

__all__ = ["CompactResult", "Compactor", "compact"]

_NOT_OPTIONS = frozenset({"models", "store_path"})  # given as arguments (store=), or only in a config file
_fresh = itertools.count(1)


@dataclass(frozen=True)
class CompactResult:
    """What to send the model: ``messages`` (the projection, or the input list itself when nothing
    changed; kept messages are the caller's own objects), the ``stats`` of the decision, and
    ``failure``, the error when compaction failed and the history goes unchanged (None otherwise)."""

    messages: list[Message]
    stats: CompactionStats
    failure: str | None = None

    @property
    def notices(self) -> tuple[str, ...]:
        """What the user may want to know (never sent to the model)."""
        return self.stats.notices


def option_names() -> list[str]:
    """The options ``compact`` and ``Compactor`` accept, by the snake_case names of the settings."""
    return sorted(set(Settings.model_fields) - _NOT_OPTIONS - {"context_window"})


def _settings(context_window: int, options: dict[str, Any]) -> Settings:
    known = option_names()
    for name in options:
        if name not in known:
            close = difflib.get_close_matches(name, known, n=3, cutoff=0.6)
            snake = "".join(f"_{c.lower()}" if c.isupper() else c for c in name)
            if snake in known and snake not in close:
                close.insert(0, snake)
            hint = f"; did you mean {' or '.join(close)}?" if close else f"; known options: {', '.join(known)}"
            raise TypeError(f"context_compactor: unknown option {name!r}{hint}")
    if isinstance(context_window, bool) or not isinstance(context_window, int) or context_window <= 0:
        raise ValueError(f"context_compactor: context_window must be a positive number of tokens, "
                         f"not {context_window!r}")
    try:
        return Settings(**{"context_window": context_window, **options})
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise ValueError(f"context_compactor: option {where}: {first['msg']} (got {first.get('input')!r})") from None


@functools.cache
def _plugins() -> pluggy.PluginManager:
    """The built-in hooks, registered once per process: a plugin manager holds no conversation's state,
    and building one costs a one-shot call a few milliseconds."""
    return get_plugin_manager(load_entry_points=False)


class Compactor:
    """One conversation's compaction across turns: its measurer, last plan and summary cache are
    kept, so a turn after the first costs work proportional to what is new.

    ``context_window`` is the model's window in tokens; ``model`` its id (for calibration and
    per-model settings); ``store`` a SQLite file for the summary cache, the archive of what left
    the prompt and the session's state (None: in memory, gone with the object); ``session`` names
    the conversation in that store. ``options``: the settings by their snake_case names.
    """

    def __init__(self, *, context_window: int, model: str | None = None, store: str | Path | None = None,
                 session: str | None = None, **options: Any) -> None:
        settings = _settings(context_window, options)
        path = ":memory:" if store is None else str(store)
        self._runtime = Runtime(settings, store=Store.for_settings(path, settings),
                                persist_sessions=store is not None)
        self._pm = _plugins()
        self._model = ModelInfo(id=model or "unknown")
        self._ctx = HookContext(session_key=repaired_text(session or f"api:{next(_fresh)}"), runtime=self._runtime,
                                model=self._model)
        self._closed = False
        self._seen: list[Message] = []  # the last history checked, for checking only what is new
        self._copies: dict[int, tuple[Message, Message]] = {}  # id(message): (message, its repaired copy)
        self._sent: BeforeAgentStartEvent | None = None  # the last prompt returned, for record_usage

    @property
    def session(self) -> str:
        """The key of this conversation (in the store, and in ``stats.session``)."""
        return self._ctx.session_key

    def compact(self, messages: Sequence[Message], tools: Sequence[dict[str, Any]] | None = None,
                system: str | None = None, pinned: Collection[int] = ()) -> CompactResult:
        """The prompt to send for this turn: ``messages`` is the whole history (never changed),
        ``tools`` the tool schemas and ``system`` a system prompt sent beside the messages (both are
        counted, not returned). ``pinned``: positions of system messages never to fold; when the prompt
        is compacted they are sent verbatim with the leading system messages."""
        if self._closed:
            raise RuntimeError("context_compactor: this Compactor is closed; make a new one")
        given = messages if isinstance(messages, list) else list(messages)
        history = _pinned_first(self._repaired(given, self._validate(given)), pinned)
        event = BeforeAgentStartEvent(messages=history, system_prompt=system or "", tools=list(tools or []),
                                      model=self._model)
        result = self._pm.hook.before_agent_start(event=event, ctx=self._ctx)
        stats = result.stats if result is not None else None
        if stats is None:  # an extension answered without figures, or even measuring failed
            stats = unchanged_stats(self._runtime, event, self.session,
                                    failure=result.failure if result is not None else None)
        failure = result.failure if result is not None else None
        if result is None or result.messages is None:
            self._sent = event
            return CompactResult(given, stats, failure)
        sent = result.messages
        self._sent = BeforeAgentStartEvent(messages=sent, system_prompt=event.system_prompt, tools=event.tools,
                                           model=self._model)
        if history is not given:  # a message kept is the caller's own object, as sent
            back = {id(copy): message for message, copy in self._copies.values()}
            sent = [back.get(id(m), m) for m in sent]
        return CompactResult(sent, stats, failure)

    def record_usage(self, prompt_tokens: int | None, completion_tokens: int | None = None, *,
                     error: str | None = None) -> None:
        """Tell the hooks what the model server reported for the prompt the last :meth:`compact`
        returned: ``prompt_tokens`` (its own count; calibrates the counter), or ``error``, the server's
        error text (a context-length error that states a size teaches the window). Does nothing before
        the first ``compact``."""
        sent = self._sent
        if self._closed or sent is None:
            return
        usage = Usage(prompt_tokens, completion_tokens) if prompt_tokens else None
        self._pm.hook.after_turn(event=AfterTurnEvent(messages=sent.messages, system_prompt=sent.system_prompt,
                                                      tools=sent.tools, model=self._model, usage=usage,
                                                      error=error), ctx=self._ctx)

    @staticmethod
    def recall_tool() -> dict[str, Any]:
        """The ``recall_history`` tool as an OpenAI chat ``tools`` entry, for a host to offer its model."""
        from .hooks.recall import openai_tool

        return openai_tool()

    def recall(self, arguments: str | Mapping[str, Any] | None) -> str:
        """The answer to a call of :meth:`recall_tool` (``recall_history``) by this conversation's model:
        ``arguments`` as the model wrote them (JSON text or a dict). Reads only this session's archive."""
        from .hooks.recall import answer

        return answer(self._runtime.store, self.session, arguments)

    def commands(self) -> dict[str, str]:
        """The chat commands a host can offer for this conversation: name (no slash) -> description."""
        return {c.name: c.description for group in self._pm.hook.register_commands() for c in group}

    def run_command(self, name: str, args: str = "") -> str:
        """Answer chat command ``name`` (``"context-stats"``, ``"compact-now"``, ...) for this conversation;
        the reply text is for the user, never the model. An unknown name is a KeyError that names it."""
        for group in self._pm.hook.register_commands():
            for command in group:
                if command.name == name:
                    return command.run(args, self._ctx).text
        raise KeyError(f"context_compactor: no command {name!r} (known: {', '.join(sorted(self.commands()))})")

    def _repaired(self, history: list[Message], start: int) -> list[Message]:
        """``history`` with a repaired copy of each message that holds a lone surrogate (text the store
        and the summarizer cannot write; see :func:`~context_compactor.messages.repaired`), made once
        per message; ``history`` itself when none does."""
        for message in history[start:]:
            if self._copies.get(id(message), (None,))[0] is message:
                continue  # repaired on an earlier turn: the same copy, for the engine's warm paths
            copy = repaired(message)
            if copy is not message:
                self._copies[id(message)] = (message, copy)
        if not self._copies:
            return history
        self._copies = {id(m): self._copies[id(m)] for m in history
                        if id(m) in self._copies and self._copies[id(m)][0] is m}
        return [self._copies[id(m)][1] if id(m) in self._copies else m for m in history]

    def _validate(self, history: list[Message]) -> int:
        """Check the messages; where the history starts with the same objects as the last turn's,
        check only what is new, from the last assistant turn of calls on (a warm turn must not cost a
        pass over thousands of messages). Any doubt is settled by the full check, which names the spot.
        Returns where the messages not checked before start."""
        seen = self._seen
        # The part in front that is the same objects as last time (all of it, when the history grew; a
        # host that rebuilds its current turn's messages keeps the turns before).
        start = next((i for i, same in enumerate(map(operator.is_, seen, history)) if not same),
                     min(len(seen), len(history)))
        if start:
            while start > 0 and history[start - 1].get("role") == "tool":
                start -= 1
            if start > 0 and history[start - 1].get("tool_calls"):
                start -= 1
        if start and start >= len(history):
            return len(history)  # nothing new
        try:
            validate_messages(history[start:] if start else history)
        except InputError:
            if not start:
                raise
            validate_messages(history)
            start = 0
        self._seen = list(history)
        return start

    def close(self) -> None:
        """Stop background work and close the store (idempotent)."""
        if not self._closed:
            self._closed = True
            self._runtime.close()

    def __enter__(self) -> Compactor:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def _pinned_first(history: list[Message], pinned: Collection[int]) -> list[Message]:
    """``history`` with the pinned system messages moved up to the leading ones (which are never
    folded); ``history`` itself when there are none to move."""
    lead = next((i for i, m in enumerate(history) if m.get("role") != "system"), len(history))
    moved = sorted({i for i in pinned if i >= lead})
    if not moved:
        return history
    for i in moved:
        if not 0 <= i < len(history) or history[i].get("role") != "system":
            raise ValueError(f"context_compactor: pinned message {i} is not a system message of the history "
                             f"(only system messages can be pinned; they are sent with the leading ones)")
    keep = set(moved)
    return [*history[:lead], *(history[i] for i in moved), *(m for i, m in enumerate(history[lead:], lead)
                                                             if i not in keep)]


def compact(messages: Sequence[Message], *, context_window: int, tools: Sequence[dict[str, Any]] | None = None,
            system: str | None = None, model: str | None = None, store: str | Path | None = None,
            **options: Any) -> CompactResult:
    """Compact one prompt: what to send a model with ``context_window`` tokens instead of ``messages``.

    ``options`` are the settings by their snake_case names (``keep_recent_tokens=4000``,
    ``compact_at=0.8``, ``tokenizer="o200k_base"``, ...). Without ``store`` nothing is kept; with
    it, chunk summaries are cached there and the messages that leave the prompt are archived.
    For a conversation that goes on, a :class:`Compactor` keeps the work of earlier turns.
    """
    with Compactor(context_window=context_window, model=model, store=store, **options) as compactor:
        return compactor.compact(messages, tools=tools, system=system)
