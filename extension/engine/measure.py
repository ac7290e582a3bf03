"""Measuring a prompt in tokens, with per-message memoisation.

A :class:`Measurer` belongs to one session. It remembers, position by position, the messages it
measured last time; a message that is the same object (or an equal dict) as before costs nothing,
so a turn costs work proportional to what is new. Units (characters, or tiktoken tokens) are
memoised, not tokens, so a recalibrated ratio needs no re-reading of text.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Any

from ..messages import View, digest, view_of
from ..tokens import CharCounter
from ..tokens import Counter as TokenCounter


@dataclass(slots=True)
class Entry:
    """One measured message: the host's object, its view, its size, and (lazily) its digest."""

    message: Any
    view: View
    units: int
    tokens: int = 0
    archived: bool = False  # already written to the archive
    _digest: str | None = None
    stub: tuple[str | None, int, str] | None = None  # (tool name, tokens, the stub made): warm turns reuse it
    kept: tuple[int, int] | None = None  # (token cap, characters kept) of its last cut: kept while it still fits

    @property
    def digest(self) -> str:
        if self._digest is None:
            self._digest = digest(self.message)
        return self._digest


@dataclass
class Measurement:
    """A whole prompt in tokens: per message, the fixed part, and the total."""

    entries: list[Entry]
    system_tokens: int
    tool_tokens: int
    prefix: list[int] = field(default_factory=list)  # prefix[i] = tokens of entries[:i]
    roles: Counter[str] = field(default_factory=Counter)  # messages by role
    first_changed: int = 0  # entries before this index were measured on an earlier call

    @property
    def fixed_tokens(self) -> int:
        return self.system_tokens + self.tool_tokens

    @property
    def message_tokens(self) -> int:
        return self.prefix[-1]

    @property
    def total(self) -> int:
        return self.fixed_tokens + self.message_tokens

    def span(self, start: int, stop: int) -> int:
        """Tokens of entries[start:stop]."""
        return self.prefix[stop] - self.prefix[start]


class Measurer:
    """Measures prompts for one session, reusing what it measured before."""

    def __init__(self, counter: TokenCounter, overhead_tokens: int = 4) -> None:
        self.counter = counter
        self.overhead = overhead_tokens
        self._entries: list[Entry] = []
        self._messages: list[Any] = []
        self._prefix: list[int] = [0]
        self._roles: Counter[str] = Counter()
        self._ratio = counter.ratio
        self._tools: list[Any] | None = None
        self._tools_units = 0
        self._system: tuple[str, int] = ("", 0)

    def set_counter(self, counter: TokenCounter) -> None:
        """Switch counters; units are only re-read when the kind of unit changes."""
        if counter.name != self.counter.name:
            self._entries, self._messages, self._prefix, self._roles = [], [], [0], Counter()
            self._tools = None
            self._system = ("", 0)
        self.counter = counter

    def tokens(self, units: int) -> int:
        return math.ceil(units / self.counter.ratio) + self.overhead

    def text_tokens(self, text: str) -> int:
        return math.ceil(self.counter.units(text) / self.counter.ratio)

    def measure(self, messages: list[Any], system_prompt: str = "", tools: list[Any] | None = None) -> Measurement:
        """Measure a prompt; entries line up with ``messages``.

        The common case, the previous history plus new messages at the end, is checked in one
        C-level list comparison, and only the new messages are read.
        """
        ratio = self.counter.ratio
        rescale = ratio != self._ratio
        known = len(self._messages)
        if not rescale and known <= len(messages) and self._messages == messages[:known]:
            new = [self._entry(message) for message in messages[known:]]
            entries = self._entries + new
            prefix = self._prefix + list(accumulate((e.tokens for e in new), initial=self._prefix[-1]))[1:]
            roles = self._roles.copy()
            roles.update(e.view.role for e in new)
            first_changed = known
        else:
            entries, first_changed = self._reuse(messages)
            if rescale:
                self._ratio = ratio
                for entry in entries:
                    entry.tokens = self.tokens(entry.units)
                first_changed = 0
            prefix = [0, *accumulate(entry.tokens for entry in entries)]
            roles = Counter(e.view.role for e in entries)
        self._messages, self._entries, self._prefix, self._roles = list(messages), entries, prefix, roles
        measurement = Measurement(entries, self._system_tokens(system_prompt), self._tool_tokens(tools))
        measurement.prefix = prefix
        measurement.roles = roles
        measurement.first_changed = first_changed
        return measurement

    def _reuse(self, messages: list[Any]) -> tuple[list[Entry], int]:
        old = self._entries
        entries: list[Entry] = []
        append = entries.append
        limit = len(old)
        first_changed = len(messages)
        for i, message in enumerate(messages):
            if i < limit:
                entry = old[i]
                if entry.message is message or entry.message == message:
                    append(entry)
                    continue
            first_changed = min(first_changed, i)
            append(self._entry(message))
        return entries, first_changed

    def cost(self, message: Any) -> int:
        """Tokens of one message, not memoised (for messages the engine itself builds)."""
        return self._entry(message).tokens

    def _entry(self, message: Any) -> Entry:
        view = view_of(message)
        counter = self.counter
        if type(counter) is CharCounter:  # units are characters: no call per piece of text
            units = len(view.text) + view.extra_chars
            for call in view.calls:
                units += len(call.name) + len(call.arguments)
        else:
            units = counter.units(view.text) + (
                view.extra_chars if counter.name == "chars" else math.ceil(view.extra_chars / 4))
            for call in view.calls:
                units += counter.units(call.name) + counter.units(call.arguments)
        return Entry(message, view, units, math.ceil(units / counter.ratio) + self.overhead)

    def _system_tokens(self, system_prompt: str) -> int:
        if not system_prompt:
            return 0
        if self._system[0] is not system_prompt and self._system[0] != system_prompt:
            self._system = (system_prompt, self.counter.units(system_prompt))
        return self.tokens(self._system[1])

    def _tool_tokens(self, tools: list[Any] | None) -> int:
        if not tools:
            return 0
        if self._tools is None or tools != self._tools:
            self._tools = list(tools)
            self._tools_units = self.counter.units(json.dumps(tools, ensure_ascii=False, separators=(",", ":")))
        return math.ceil(self._tools_units / self.counter.ratio)
