"""The agent-loop behaviours (issue 13) over OpenAI chat messages, and their per-session memo.

What each does to one message lives beside this module: :mod:`.thinking` (earlier thinking),
:mod:`.tool_calls` (failed calls, folded and refused), :mod:`.todos` (the open tasks' reminder);
here is when each applies, and the memo that keeps a turn's work proportional to what is new.

Before measuring, :meth:`Loop.prepare` applies, on every turn and under the trigger too:

- **earlier thinking left out**: before the last user turn, assistant messages lose their
  ``reasoning_content`` / ``reasoning`` / ``reasoning_details`` / ``thinking`` fields, their
  ``<think>...</think>`` blocks and their thinking content parts. In the current tool loop (after
  the last user turn) only unsigned thinking parts and ``<think>`` blocks go: signed thinking
  blocks and reasoning fields stay, since providers that sign thinking (Anthropic) or interleave it
  with tool calls (DeepSeek, Kimi) want them back within the loop (:func:`.thinking.strip_thinking`);
- **older failed calls folded**: a failed tool result outside the last ``RECENT_ROUNDS`` tool rounds
  (in batches of ``FOLD_EVERY_ROUNDS`` rounds) becomes its first error line and one line naming the
  tool and its arguments in short (:func:`.tool_calls.fold_failed`);
- **side questions left out**: a ``/btw`` user message before the last user turn, and its own
  answer (what follows it up to and including the first assistant message without tool calls: the
  reply, with the tool rounds made for it), are dropped; what comes after the answer (the main
  task's tool rounds, resumed) stays. A side question not answered before the next user message is
  dropped alone. Each dropped message is handed to the session to archive first
  (``Prepared.fresh_drops``). While the current turn is itself a ``/btw``, the earlier side
  questions stay (a side question sees the earlier ones), except those before a ``/btw clear``.

After the engine, :func:`.todos.append_reminder` restates the open items of the latest todo call
(``todo_write`` / ``TodoWrite`` ``{"todos": [{"content", "status"}]}``, ``update_plan`` and OpenClaw's
``progress_card`` ``{"plan": [{"step", "status"}]}``, also through OpenClaw's Tool Search dispatcher
``tool_call {"id": "progress_card", "args": {...}}``) in the last message, marked as a reminder, when
:meth:`Loop.reminder_due` says so; the same place carries the optional save-state reminder.

Identity: a message no transform changes is passed through as the host's own object; a changed
one is memoised (by the identity of its original), so the same input gives the very same new
object on every turn and the measurer's memo stays warm. Work per turn follows what is new: the
decisions about messages before the earliest index a later message can still change (the last
user turn, the first recent tool round) are kept from the previous call while the history only
grows.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .messages import ToolCall, view_of
from .thinking import strip_thinking
from .todos import Todo, todo_of
from .tool_calls import FailedCalls, fold_failed, is_failed, text_of

# Re-exported: names other modules import from here since before thinking, todos and tool_calls were split off.
from .todos import REMINDER_HEAD as REMINDER_HEAD, append_reminder as append_reminder
from .todos import reminder_text as reminder_text
from .tool_calls import FOLD_HEAD as FOLD_HEAD, call_key as call_key, failures as failures
from .tool_calls import garbled as garbled, refusal as refusal

RECENT_ROUNDS = 3  # tool rounds (an assistant message with calls, and its results) never folded
# Older rounds fold in batches of this many, so the middle of the prompt (and the server's prompt
# cache, and our measurer's fast path) changes once every 8 rounds, not on every one.
FOLD_EVERY_ROUNDS = 8


class _Drop:
    """The decision "leave this message out" (a side question or its answer)."""

    def __repr__(self) -> str:
        return "DROP"


DROP = _Drop()


@dataclass(frozen=True)
class LoopOptions:
    """Which pre-transforms run (from the settings: stripThinking, foldFailedCalls, sideQuestions)."""

    strip_thinking: bool = True
    fold_failed_calls: bool = True
    side_questions: bool = True
    recent_rounds: int = RECENT_ROUNDS

    @classmethod
    def of(cls, settings: Any) -> LoopOptions:
        return cls(settings.strip_thinking, settings.fold_failed_calls, settings.side_questions)

    @property
    def any(self) -> bool:
        return self.strip_thinking or self.fold_failed_calls or self.side_questions


def is_btw(message: Any) -> bool:
    """A ``/btw`` side question (a user message whose text opens with ``/btw``)."""
    if not isinstance(message, dict) or message.get("role") != "user":
        return False
    text = text_of(message).lstrip()
    return text[:4].lower() == "/btw" and (len(text) == 4 or text[4].isspace())


def is_btw_clear(message: Any) -> bool:
    return is_btw(message) and text_of(message).strip()[4:].strip().lower() == "clear"


def without_btw(text: str) -> str:
    """A side question's text without the command."""
    stripped = text.lstrip()
    return stripped[4:].lstrip() if stripped[:4].lower() == "/btw" else text


# --- the per-session memo ------------------------------------------------------------------------


@dataclass
class Prepared:
    """What :meth:`Loop.prepare` made of a history."""

    messages: list[Any]
    saved_chars: int = 0  # thinking left out
    folded: int = 0  # failed calls folded
    dropped: int = 0  # side-question messages left out
    todo: Todo | None = None
    last_user: int = -1
    btw_turn: bool = False  # the current turn is a /btw side question
    fresh_folds: list[tuple[int, Any]] = field(default_factory=list)  # (index, original) folded for the first time
    fresh_drops: list[tuple[int, Any]] = field(default_factory=list)  # (index, original) left out for the first time


def last_user_index(messages: Sequence[Any]) -> int:
    for i in range(len(messages) - 1, -1, -1):
        message = messages[i]
        if isinstance(message, dict) and message.get("role") == "user":
            return i
    return -1


def round_starts(messages: Sequence[Any], start: int = 0) -> list[int]:
    """The indexes of the tool rounds (assistant messages with calls) in ``messages[start:]``."""
    return [i for i in range(start, len(messages)) if isinstance(messages[i], dict)
            and messages[i].get("role") == "assistant" and messages[i].get("tool_calls")]


def fold_boundary(rounds: Sequence[int], recent: int = RECENT_ROUNDS, every: int = FOLD_EVERY_ROUNDS) -> int:
    """The index before which failed calls are folded: the start of the round that leaves at least
    ``recent`` rounds after it, moved only in steps of ``every`` rounds (0: nothing to fold yet)."""
    k = (len(rounds) - recent) // every * every
    return rounds[k] if k > 0 else 0


class Loop:
    """One session's pre-transform memo (see the module docstring)."""

    def __init__(self) -> None:
        self._options: LoopOptions | None = None
        self._in: list[Any] = []
        self._stable = 0  # decisions before this index hold for any history that extends self._in
        self._decided: list[tuple[int, Any, int]] = []  # (index, replacement or DROP, chars saved), index < _stable
        self._calls: dict[str, ToolCall] = {}  # the calls made before _stable, by id
        self._todo: Todo | None = None  # the latest todo call before _stable
        self._memo: dict[int, tuple[Any, Any, Any]] = {}  # id(original) -> (original, replacement)
        self._version = 0  # counts prepare() calls: what ``original`` built is for one of them
        self._folded: tuple[int, dict[int, Any]] | None = None  # (version, id(folded call) -> its original)
        self._reminded: tuple[int, int] | None = None  # (todo index, history length) of the last reminder
        self._fresh: list[tuple[int, Any]] = []  # failed calls folded by this call and never before
        self._drops: dict[int, Any] = {}  # index -> the message left out there, as handed to the archive
        self._verdicts: dict[int, tuple[Any, ToolCall | None, bool]] = {}  # id(result) -> (result, call, failed)
        self._head: _Built | None = None  # the output for messages[:_stable], from the last call
        self._rounds: list[int] = []  # where the tool rounds before _stable start
        self.last: Prepared | None = None
        self.failed_calls = FailedCalls()  # what after_tool_call reported (hooks/tools.py)

    def prepare(self, messages: list[Any], options: LoopOptions) -> Prepared:
        """``messages`` with the pre-transforms applied (the very list when nothing changed)."""
        if options != self._options:
            self._options, self._in, self._stable, self._decided = options, [], 0, []
            self._calls, self._todo, self._head, self._drops = {}, None, None, {}
        known = len(self._in)
        grown = 0 < known <= len(messages) and self._in == messages[:known]
        # The output built for the stable part is reused when the host passes the very same objects
        # (checked on a sample: an in-process host and the OpenClaw adapter do; a gateway parsing
        # JSON does not, and gets its output rebuilt from the kept decisions).
        same = grown and all(self._in[i] is messages[i] for i in (0, known // 2, known - 1))
        start = self._stable if grown else 0
        decided = self._decided if grown else []
        calls = self._calls if grown else {}
        todo = self._todo if grown else None
        last_user = last_user_index(messages)
        btw_turn = options.side_questions and last_user >= 0 and is_btw(messages[last_user])
        if btw_turn:  # the earlier side questions come back: decide everything again, keep nothing
            start, decided, calls, todo, same = 0, [], {}, None, False
        rounds = (self._rounds if start else []) + round_starts(messages, start)
        fold_before = fold_boundary(rounds, options.recent_rounds) if options.fold_failed_calls else 0
        memo: dict[int, tuple[Any, Any, Any]] = {}
        todos: list[Todo] = []
        self._verdicts = {}
        suffix = self._decide(messages, start, last_user, fold_before, btw_turn, options, calls, todos, memo)
        self._memo = memo
        self._version += 1
        fresh, self._fresh = self._fresh, []
        stable = min(last_user if last_user >= 0 else 0, fold_before if options.fold_failed_calls else len(messages))
        stable = max(stable, start)
        head = self._head if same and self._head is not None else _Built([], 0, 0, 0, 0)
        every = suffix if same else (decided + suffix if decided else suffix)
        lo = start if same else 0
        cut = bisect_left(every, stable, key=_index)
        mid = _build(messages, every[:cut], lo, stable)
        tail = _build(messages, every[cut:], stable, len(messages))
        prefix = head.joined(mid)
        if not btw_turn:
            self._in, self._stable, self._calls = list(messages), stable, calls
            self._rounds = rounds[:bisect_left(rounds, stable)]
            self._decided = decided + suffix[:bisect_left(suffix, stable, key=_index)]
            self._head = prefix
            self._todo = next((t for t in reversed(todos) if t.index < stable), todo)
        todo = todos[-1] if todos else todo
        whole = prefix.joined(tail)
        sent = messages if not whole.changes else whole.out
        user = last_user - prefix.dropped - _Built.dropped_before(every[cut:], last_user) if last_user >= 0 else -1
        self.last = Prepared(sent, whole.saved, whole.folded, whole.dropped, todo, user, btw_turn, fresh,
                             self._fresh_drops(messages, suffix))
        return self.last

    def _fresh_drops(self, messages: list[Any], decided: list[tuple[int, Any, int]]) -> list[tuple[int, Any]]:
        """The messages this call leaves out that no earlier call handed to the archive."""
        fresh = [(i, messages[i]) for i, change, _ in decided
                 if change is DROP and self._drops.get(i) is not messages[i]]
        for i, message in fresh:
            self._drops[i] = message
        return fresh

    def _decide(self, messages: list[Any], start: int, last_user: int, fold_before: int, btw_turn: bool,
                options: LoopOptions, calls: dict[str, ToolCall], todos: list[Todo],
                memo: dict[int, tuple[Any, Any, Any]]) -> list[tuple[int, Any, int]]:
        out: list[tuple[int, Any, int]] = []
        kept_btw = _kept_side_questions(messages, last_user) if btw_turn else 0

        def left_out(i: int) -> bool:  # a side question that is left out, with its answer
            return options.side_questions and i < last_user and is_btw(messages[i]) and not (
                btw_turn and i >= kept_btw and not is_btw_clear(messages[i]))

        asked = _asked_before(messages, start)
        drop_until = _answer_end(messages, asked) if asked >= 0 and left_out(asked) else -1
        old = self._memo
        for i in range(start, len(messages)):
            message = messages[i]
            if not isinstance(message, dict):
                continue
            role = message.get("role")
            if role == "user":
                drop_until = _answer_end(messages, i) if left_out(i) else -1
                if drop_until >= 0:
                    out.append((i, DROP, 0))
                continue
            if i <= drop_until:
                out.append((i, DROP, 0))
                continue
            if role == "assistant":
                if message.get("tool_calls"):
                    for call in view_of(message).calls:
                        calls[call.id] = call
                        found = todo_of(call, i)
                        if found is not None:
                            todos.append(found)
                if options.strip_thinking:
                    current = i > last_user
                    self._change(out, memo, old, i, message, current, lambda m, cur=current: strip_thinking(m, cur))
            elif role in ("tool", "function") and options.fold_failed_calls and i < fold_before:
                made = calls.get(str(message.get("tool_call_id")))
                self._change(out, memo, old, i, message, made, lambda m, c=made: _as_change(self._fold(m, c)))
        return out

    def _fold(self, message: Any, call: ToolCall | None) -> Any | None:
        """fold_failed, with the verdict kept for the ledger (it reads the same output with the same call)."""
        failed = is_failed(message, call) if isinstance(message, dict) and message.get("role") in ("tool", "function") else False
        self._verdicts[id(message)] = (message, call, failed)
        return fold_failed(message, call, failed)

    def verdict(self, message: Any) -> tuple[ToolCall | None, bool] | None:
        """(the call, whether its result failed) as the last ``prepare`` judged ``message``, if it did."""
        seen = self._verdicts.get(id(message))
        return (seen[1], seen[2]) if seen is not None and seen[0] is message else None

    def _change(self, out: list[tuple[int, Any, int]], memo: dict[int, tuple[Any, Any, Any]],
                old: dict[int, tuple[Any, Any, Any]], i: int, message: Any, flag: Any, make: Any) -> None:
        """Decide one message, through the memo: the same original (and context) gives the same new object."""
        key = id(message)
        seen = old.get(key)
        if seen is not None and seen[0] is message and seen[1] == flag:
            memo[key] = seen
            if seen[2] is not None:
                out.append((i, seen[2][0], seen[2][1]))
            return
        change = make(message)
        memo[key] = (message, flag, change)
        if change is not None:
            out.append((i, change[0], change[1]))
            if message.get("role") != "assistant":  # a fold
                self._fresh.append((i, message))

    # --- the reminder ----------------------------------------------------------------------------

    def original(self, message: Any) -> Any:
        """The host's own message that a folded failed call stands for (else ``message`` itself): the
        ledger reads the originals, never a fold, so its errors are the exact lines."""
        if self._folded is None or self._folded[0] != self._version:
            folds = {id(change[0]): original for original, _flag, change in self._memo.values()
                     if change is not None and isinstance(original, dict) and original.get("role") in ("tool", "function")}
            self._folded = (self._version, folds)
        return self._folded[1].get(id(message), message)

    def reminder_due(self, todo: Todo | None, length: int, every: int, compacted: bool) -> bool:
        """Whether the open tasks are restated this turn: every ``every`` messages after the todo call
        (or after the last restatement), right after a compaction, and again on a repeat of the turn
        that restated them (a retry sends the same prompt)."""
        if todo is None or not todo.open or every <= 0:
            return False
        last = self._reminded
        if last is not None and last[0] == todo.index and last[1] == length:
            return True
        base = last[1] if last is not None and last[0] == todo.index else todo.index + 1
        if compacted or length - base >= every:
            self._reminded = (todo.index, length)
            return True
        return False


@dataclass
class _Built:
    """The output for a range of the history: the messages, and what the decisions in it did."""

    out: list[Any]
    changes: int
    saved: int
    folded: int
    dropped: int

    def joined(self, other: _Built) -> _Built:
        return _Built(self.out + other.out, self.changes + other.changes, self.saved + other.saved,
                      self.folded + other.folded, self.dropped + other.dropped)

    @staticmethod
    def dropped_before(decided: list[tuple[int, Any, int]], index: int) -> int:
        return sum(1 for i, change, _ in decided if change is DROP and i < index)


def _index(decision: tuple[int, Any, int]) -> int:
    return decision[0]


def _build(messages: list[Any], decided: list[tuple[int, Any, int]], lo: int, hi: int) -> _Built:
    """``messages[lo:hi]`` with the decisions (all within that range, in order) applied."""
    if not decided:
        return _Built(messages[lo:hi], 0, 0, 0, 0)
    out: list[Any] = []
    prev = lo
    saved = folded = dropped = 0
    for i, change, chars in decided:
        if i > prev:
            out += messages[prev:i]
        prev = i + 1
        if change is DROP:
            dropped += 1
            continue
        out.append(change)
        saved += chars
        if change.get("role") != "assistant":
            folded += 1
    out += messages[prev:hi]
    return _Built(out, len(decided), saved, folded, dropped)


def _as_change(message: Any | None) -> tuple[Any, int] | None:
    return None if message is None else (message, 0)


def _asked_before(messages: list[Any], start: int) -> int:
    """The index of the last user message before ``start`` (-1: none)."""
    for i in range(start - 1, -1, -1):
        message = messages[i]
        if isinstance(message, dict) and message.get("role") == "user":
            return i
    return -1


def _answer_end(messages: list[Any], asked: int) -> int:
    """Where the answer to the side question at ``asked`` ends (inclusive): the first assistant message
    without tool calls after it, before the next user message; ``asked`` itself when there is none
    (a question not answered is left out alone: what follows it may be the main task's)."""
    for j in range(asked + 1, len(messages)):
        message = messages[j]
        if not isinstance(message, dict):
            continue
        role = message.get("role")
        if role == "user":
            break
        if role == "assistant" and not message.get("tool_calls"):
            return j
    return asked


def _kept_side_questions(messages: list[Any], last_user: int) -> int:
    """While a ``/btw`` is the current turn, earlier side questions from this index on stay (after the
    last ``/btw clear``)."""
    for i in range(last_user - 1, -1, -1):
        if is_btw_clear(messages[i]):
            return i + 1
    return 0
