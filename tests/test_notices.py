"""A notice says only what happened: the 'cut to their head and tail' and 'replaced by stubs' notices
appear exactly when the prompt sent holds such a cut or such a stub."""

from __future__ import annotations

from convo import assistant, system, tool, user, words
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from context_compactor import compact

CUT_NOTICE = "the largest remaining messages were cut to their head and tail"
CUT_MARK = "characters cut by context-compactor"
STUB_NOTICE = "older tool results of the current turn were replaced by stubs"
STUB_MARK = "[tool result archived by context-compactor"
OPTIONS = {"compact_at": 1.0, "compact_to": 0.95, "keep_recent_tokens": 0, "summarize_with_session_model": False}


def sent_text(messages: list[dict]) -> str:
    return "\n".join(str(m.get("content") or "") for m in messages)


def kit_session(turns: int = 130) -> list[dict]:
    """Plain system/user/assistant turns, as the conformance kit sends them, and a short current turn."""
    out = [system("You are a helpful assistant. Follow the rules.")]
    for t in range(turns):
        out.append(user(f"turn {t}: {words(10, t)}") if t % 2 == 0 else assistant(f"turn {t}: {words(10, t)}"))
    out.append(user("Please continue the work on the deployment plan."))
    return out


def test_no_cut_notice_when_nothing_was_cut():
    """A window the ledger alone overshoots at its natural size, with a short current turn: the block is
    sized down, nothing is cut, and no notice says otherwise."""
    for window in (300, 600):
        result = compact(kit_session(), context_window=window, **OPTIONS)
        assert result.stats.fits and result.messages is not None
        assert CUT_MARK not in sent_text(result.messages)
        assert CUT_NOTICE not in result.notices, f"window {window}: {result.notices}"


def test_cut_notice_when_the_current_turn_is_cut():
    """A current turn larger than the window is cut to its head and tail, and the notice says so."""
    messages = kit_session(20)
    messages[-1] = user(words(2000, 3))
    result = compact(messages, context_window=1000, **OPTIONS)
    assert CUT_MARK in sent_text(result.messages)
    assert CUT_NOTICE in result.notices


def test_no_stub_notice_when_the_current_turn_has_one_result():
    """A current turn larger than the window whose only tool result is its last one has nothing older to
    stub: its request is cut, and no notice speaks of stubs."""
    messages = [*kit_session(20)[:-1], user(f"Check the logs. {words(2000, 4)}"),
                assistant("", [("c1", "bash", {"command": "cat log"})]), tool("c1", words(100, 2))]
    result = compact(messages, context_window=1000, **OPTIONS)
    assert CUT_NOTICE in result.notices
    assert STUB_MARK not in sent_text(result.messages)
    assert STUB_NOTICE not in result.notices, result.notices


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 60), st.integers(1, 3000), st.integers(1, 400), st.integers(64, 4000))
def test_cut_notice_exactly_when_cut(turns, last_words, turn_words, window):
    """Across plain conversations and windows (no tool result over its own cap, so a cut can come only
    from the last stage), the notice appears exactly when the prompt sent holds a cut."""
    messages = [system("You are terse.")]
    for t in range(turns):
        messages.append(user(words(turn_words, t)) if t % 2 == 0 else assistant(words(turn_words, t)))
    messages.append(user(words(last_words, turns)))
    result = compact(messages, context_window=window, **OPTIONS)
    assert (CUT_MARK in sent_text(result.messages)) == (CUT_NOTICE in result.notices), result.notices
