"""The personal-assistant session generator (bench/gen_assistant.py): determinism, planted facts, shape, size."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from gen_assistant import KINDS, TOOLS, make_session, per_kind
from sessiongen import Session, text_of


@pytest.fixture(scope="module")
def small() -> Session:
    return make_session(seed=5, messages=400)


@pytest.fixture(scope="module")
def large() -> Session:
    return make_session(seed=5, messages=3000)


def test_same_seed_same_session() -> None:
    a, b = make_session(seed=2, messages=400), make_session(seed=2, messages=400)
    assert json.dumps(a.messages) == json.dumps(b.messages)
    assert a.facts == b.facts and a.pasted == b.pasted
    assert json.dumps(a.messages) != json.dumps(make_session(seed=3, messages=400).messages)


def test_six_of_each_kind_at_400_twelve_at_3000(small: Session, large: Session) -> None:
    assert Counter(f.kind for f in small.facts) == {k: 6 for k in KINDS}
    assert Counter(f.kind for f in large.facts) == {k: 12 for k in KINDS}
    assert per_kind(400) == 6 and per_kind(3000) == 12 and per_kind(60) == 1


@pytest.mark.parametrize("name", ["small", "large"])
def test_values_are_new_where_planted_and_absent_before(name: str, request: pytest.FixtureRequest) -> None:
    session: Session = request.getfixturevalue(name)
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
    assert 0 < len(revised) < per_kind(len(session.messages))  # some decisions are revised, not all


@pytest.mark.parametrize("name", ["small", "large"])
def test_values_stay_out_of_filler(name: str, request: pytest.FixtureRequest) -> None:
    """A value is only in its own message, the stale one's, and the few replies that follow them."""
    session: Session = request.getfixturevalue(name)
    texts = [text_of(m) for m in session.messages]
    for fact in session.facts:
        holders = [i for i, t in enumerate(texts) if fact.value in t]
        assert all(fact.index <= i <= fact.index + 8 for i in holders), (fact, holders)


@pytest.mark.parametrize("name", ["small", "large"])
def test_carriers_and_placement(name: str, request: pytest.FixtureRequest) -> None:
    session: Session = request.getfixturevalue(name)
    n = len(session.messages)
    roles = {"instruction": {"user"}, "correction": {"user"}, "decision": {"user"}, "plan": {"user"},
             "file": {"assistant"}, "finding": {"tool"}, "error": {"tool", "user"}, "identifier": {"tool", "user"}}
    for fact in session.facts:
        message = session.messages[fact.index]
        assert message["role"] in roles[fact.kind], fact
        assert 0.03 * n <= fact.index <= 0.88 * n, fact
        if fact.stale_index is not None:
            assert fact.stale_index >= 0.03 * n
        if fact.kind == "file":
            assert [c["function"]["name"] for c in message["tool_calls"]] == ["save_note"]
    thirds = Counter(min(2, f.index * 3 // n) for f in session.facts)
    assert min(thirds.values()) >= len(session.facts) // 6  # early, middle and late all get facts


@pytest.mark.parametrize("name", ["small", "large"])
def test_chat_format_ends_on_a_user_turn(name: str, request: pytest.FixtureRequest) -> None:
    session: Session = request.getfixturevalue(name)
    messages = session.messages
    assert messages[0]["role"] == "system" and messages[-1]["role"] == "user"
    assert messages[-2]["role"] == "assistant" and not messages[-2].get("tool_calls")
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
            assert call["function"]["name"] in TOOLS
            pending.add(call["id"])
    used = {c["function"]["name"] for m in messages for c in m.get("tool_calls") or []}
    assert used == set(TOOLS) or name == "small"


@pytest.mark.parametrize("name", ["small", "large"])
def test_pasted_material_is_marked_and_carries_others_rules(name: str, request: pytest.FixtureRequest) -> None:
    session: Session = request.getfixturevalue(name)
    assert len(session.pasted) >= 3
    for index, text in session.pasted:
        message = session.messages[index]
        assert message["role"] == "user" and text in message["content"] and set(message) == {"role", "content"}
    bodies = "\n".join(t for _i, t in session.pasted)
    assert any(w in bodies for w in ("must", "Never", "Always", "do not", "Do not"))  # rules that are not the user's
    if name == "large":
        kinds = {k for k in ("GREENWAY", "landlord", "Booking confirmation", "Method", "Newsletter", "Forwarded from group") if k in bodies}
        assert len(kinds) == 6


def test_sizes(small: Session, large: Session) -> None:
    assert len(small.messages) == pytest.approx(400, abs=8)
    assert len(large.messages) == pytest.approx(3000, abs=8)
    assert 110_000 <= small.chars() // 4 <= 190_000
    assert 1_000_000 <= large.chars() // 4 <= 1_450_000
    tiny = make_session(seed=1, messages=60)
    assert tiny.messages[-1]["role"] == "user" and len(tiny.facts) == len(KINDS)


def test_the_user_sounds_like_a_phone(large: Session) -> None:
    users = [str(m["content"]) for m in large.messages if m["role"] == "user"]
    prose = "\n".join(users)
    assert sum("[WhatsApp" in u or "[Telegram" in u or "[Slack" in u for u in users) > len(users) * 0.3
    assert any(e in prose for e in ("🙏", "😅", "☕"))
    for word in ("danke", "tack", "yaar", "の", "的", "btw", "pls"):
        assert word in prose, word
    oneoffs = [u for u in users if "book a table for" in u or "remind me to" in u]
    assert len(oneoffs) >= 20  # requests that are not standing rules


def test_filler_varies(large: Session) -> None:
    """Real sessions do not repeat a handful of templates: most long tool results are distinct."""
    results = [str(m["content"]) for m in large.messages if m["role"] == "tool" and len(str(m["content"])) > 500]
    assert len(set(results)) == len(results)
    users = [str(m["content"]) for m in large.messages if m["role"] == "user"]
    assert len(set(users)) > 0.6 * len(users)
