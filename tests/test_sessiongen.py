"""The fidelity benchmark's session generator (bench/sessiongen.py): shape, determinism, planted facts."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from sessiongen import BANDS, KINDS, Session, make_session, text_of


@pytest.fixture(scope="module")
def session() -> Session:
    return make_session(seed=3, messages=400)


def test_same_seed_same_session() -> None:
    """A seed gives the same messages and facts every time; another seed gives others."""
    a, b, c = make_session(5, 300), make_session(5, 300), make_session(6, 300)
    assert json.dumps(a.messages) == json.dumps(b.messages) and a.facts == b.facts
    assert json.dumps(a.messages) != json.dumps(c.messages)


def test_openai_chat_shape(session: Session) -> None:
    """Roles are valid, tool calls are well formed, and every call is answered by its result next."""
    messages = session.messages
    assert messages[0]["role"] == "system" and messages[-1]["role"] == "user"
    pending: list[str] = []
    for m in messages:
        assert m["role"] in ("system", "user", "assistant", "tool")
        if m["role"] == "tool":
            assert pending and m["tool_call_id"] == pending.pop(0)
            continue
        assert not pending, "a tool call was left without its result"
        for call in m.get("tool_calls") or []:
            assert call["type"] == "function" and isinstance(json.loads(call["function"]["arguments"]), dict)
            pending.append(call["id"])
    assert not pending
    assert any(m.get("is_error") for m in messages)


def test_size_about_150k_tokens(session: Session) -> None:
    """400 messages come to about 150k tokens at 4 characters a token."""
    assert len(session.messages) == 400
    assert 120_000 < session.chars() / 4 < 180_000


def test_facts_planted_where_they_say(session: Session) -> None:
    """Each value is in its message and in no earlier one; a correction's stale value was said before."""
    texts = [text_of(m) for m in session.messages]
    for fact in session.facts:
        assert fact.value in texts[fact.index], fact
        assert not any(fact.value in t for t in texts[:fact.index]), fact
        assert fact.value not in fact.query
        if fact.kind == "correction":
            assert fact.stale and fact.stale_index is not None and fact.stale_index < fact.index
            assert fact.stale in texts[fact.stale_index] and fact.stale not in fact.value
        if fact.resolved is not None:
            assert "exit code: 0" in texts[fact.resolved]


def test_every_kind_at_every_depth(session: Session) -> None:
    """At least five facts of each kind, and each kind is planted early, in the middle and late."""
    assert Counter(f.kind for f in session.facts) == {k: 6 for k in KINDS}
    n = len(session.messages)
    for kind in KINDS:
        depths = {next(b for b, (lo, hi) in enumerate(BANDS) if f.index < hi * n + 8)
                  for f in session.facts if f.kind == kind}
        assert depths == {0, 1, 2}, kind
        assert max(f.index for f in session.facts if f.kind == kind) < 0.95 * n


def test_fidelity_scored_over_the_last_turns_counts_each_turns_facts_so_far() -> None:
    """``fidelity.py --turns T --score-last K``: each of the last K turns is scored against the facts its
    history had planted by then (not the whole session's), and the counts are summed; the lost facts of
    every turn are listed, and a fact kept at one turn and lost at the next counts once of each."""
    import fidelity

    session = make_session(1, 150)
    case = fidelity.run_case(session, 8192, turns=6, last=3)
    users = [n for n, m in enumerate(session.messages) if m.get("role") == "user"]
    picks = sorted({users[min(len(users) - 1, round((k + 1) * len(users) / 6) - 1)] for k in range(6)})
    picks[-1] = users[-1]
    planted = sum(sum(1 for f in session.facts if f.index <= at) for at in picks[-3:])
    kept = sum(v[0] for v in case["all"].values())
    assert sum(v[1] for v in case["all"].values()) == planted
    assert kept + sum(len(v) for v in case["lost"].values()) == planted
    assert planted > 2 * len([f for f in session.facts if f.index <= picks[-3]])  # three turns, not one


def test_a_short_correction_in_the_users_own_words_is_supported() -> None:
    """The precision scorer (bench/precision.py): a correction line too short for a three-word fragment ("lm-cu121-py311*
    pls", citing the statement it supersedes) is supported when the user said it; a line no one said is not."""
    from precision import precision
    from sessiongen import Session

    session = Session([{"role": "user", "content": "jobs on the new nodes should use the lm-cu118-py311 env"},
                       {"role": "assistant", "content": "Noted."}, {"role": "user", "content": "lm-cu121-py311* pls"},
                       {"role": "assistant", "content": "Switched."}], [])
    def block(line: str) -> list[dict]:
        return [{"role": "user", "content": "[context-compactor: ledger of 4 earlier messages]\n## User instructions "
                                             f"(verbatim)\n- {line} [#0, #2]\n[end of ledger]"}]
    assert precision(session, block("lm-cu121-py311* pls"))["unsupported"] == []
    assert precision(session, block("lm-cu122-py311* pls"))["unsupported"] == ["lm-cu122-py311* pls [#0, #2]"]
