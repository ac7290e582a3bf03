"""What every session generator of the fidelity bench promises (bench/gen_*.py), checked the same way for each:
its planted values are new where planted, stay out of the filler, corrections carry what they replace, and the
chat is well formed."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from sessiongen import text_of

AFTER_VALUE = 8  # messages after a fact's own that may repeat its value (the agent answering about it)


def assert_counts(session: Any, kinds: Iterable[str], each: int) -> None:
    """Every kind planted ``each`` times."""
    assert Counter(f.kind for f in session.facts) == {k: each for k in kinds}


def assert_values_new(session: Any, per_kind: Callable[[int], int]) -> None:
    """A value (and a stale value) first occurs in its own message; corrections carry what they replace; some
    decisions are revised, not all."""
    texts = [text_of(m) for m in session.messages]
    assert len({f.value for f in session.facts}) == len(session.facts)
    for fact in session.facts:
        assert fact.value in texts[fact.index], fact
        assert not any(fact.value in t for t in texts[:fact.index]), fact
        assert fact.query and fact.value not in fact.query
        if fact.stale is not None:
            assert fact.kind in ("correction", "decision")
            assert fact.stale_index is not None and fact.stale_index < fact.index
            assert fact.stale in texts[fact.stale_index]
            assert not any(fact.stale in t for t in texts[:fact.stale_index]), fact
            assert fact.stale not in fact.value and fact.value not in fact.stale
    assert all(f.stale is not None for f in session.facts if f.kind == "correction")
    revised = [f for f in session.facts if f.kind == "decision" and f.stale is not None]
    assert 0 < len(revised) < per_kind(len(session.messages))


def assert_out_of_filler(session: Any, stale_reach: int) -> None:
    """A value is only in its own message and the few after it; a stale value only in its own message and the
    ``stale_reach`` after it, or beside the correction."""
    texts = [text_of(m) for m in session.messages]
    for fact in session.facts:
        holders = [i for i, t in enumerate(texts) if fact.value in t]
        assert all(fact.index <= i <= fact.index + AFTER_VALUE for i in holders), (fact, holders)
        if fact.stale is not None and fact.stale_index is not None:
            olds = [i for i, t in enumerate(texts) if fact.stale in t]
            assert all(fact.stale_index <= i <= fact.stale_index + stale_reach
                       or fact.index <= i <= fact.index + AFTER_VALUE for i in olds), (fact, olds)


def assert_chat_format(session: Any, tools: Iterable[str]) -> None:
    """OpenAI chat format: a system prompt first, every tool call answered at once with valid JSON arguments,
    only ``tools`` called and each of them used, and a user turn last, right after an answer without calls."""
    messages = session.messages
    assert messages[0]["role"] == "system" and messages[-1]["role"] == "user"
    assert messages[-2]["role"] == "assistant" and not messages[-2].get("tool_calls")
    known = set(tools)
    pending: set[str] = set()
    for m in messages[1:]:
        if m["role"] == "tool":
            assert m["tool_call_id"] in pending
            pending.discard(m["tool_call_id"])
            continue
        assert not pending, "a tool call went unanswered"
        assert m["role"] in ("user", "assistant")
        for call in m.get("tool_calls") or []:
            json.loads(call["function"]["arguments"])
            assert call["function"]["name"] in known
            pending.add(call["id"])
    used = {c["function"]["name"] for m in messages for c in m.get("tool_calls") or []}
    assert used == known


def assert_first_rules_early(session: Any, messages: int, adopted: list[Any]) -> None:
    """The user's first two standing rules come within the first tenth and the first seventh of the session, and
    neither is one of a document they adopted (``adopted``)."""
    first, second = sorted(facts(session, "instruction"), key=lambda f: f.index)[:2]
    assert first.index <= messages / 10 and second.index <= messages / 7
    assert first not in adopted and second not in adopted


def facts(session: Any, kind: str) -> list[Any]:
    """The session's planted facts of one kind."""
    return [f for f in session.facts if f.kind == kind]


def content(session: Any, i: int) -> str:
    """Message ``i``'s content as text."""
    return str(session.messages[i].get("content") or "")


def call_of(session: Any, i: int) -> dict[str, Any]:
    """The tool call (its ``function``) that tool message ``i`` answers."""
    cid = session.messages[i]["tool_call_id"]
    for m in reversed(session.messages[:i]):
        for call in m.get("tool_calls") or []:
            if call["id"] == cid:
                return call["function"]
    raise AssertionError(f"no call for message {i}")
