"""Every prompt fits or says why: measured on what is sent, across random conversations and settings."""

from __future__ import annotations

import base64

from convo import assistant, orphans, system, tool, user, words
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
import pytest

from context_compactor import compact
from context_compactor.engine import Measurer
from context_compactor.tokens import CharCounter

IMAGE = {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}}
CJK = "長い会話を続けるためのコンテキスト圧縮。"


def text_of(kind: str, size: int, seed: int) -> str:
    if kind == "cjk":
        return (CJK * (size // len(CJK) + 1))[:size]
    if kind == "base64":
        return base64.b64encode(bytes((seed + i) % 256 for i in range(size * 3 // 4 + 1))).decode()[:size]
    return (words(size // 6 + 1, seed) + " ")[:size]


@st.composite
def conversations(draw: st.DrawFn) -> list[dict]:
    out = [system(words(draw(st.integers(1, 400)), 1))] if draw(st.booleans()) else []
    kinds = st.sampled_from(["words", "cjk", "base64"])
    call = 0
    for t in range(draw(st.integers(1, 14))):
        out.append(user(text_of(draw(kinds), draw(st.integers(1, 3000)), t)))
        for _ in range(draw(st.integers(0, 3))):
            parallel = draw(st.integers(1, 3))
            ids = [f"c{call + k}" for k in range(parallel)]
            call += parallel
            out.append(assistant("", [(i, "bash", {"command": f"run {i}"}) for i in ids]))
            for i in ids:
                huge = draw(st.sampled_from([0, 0, 0, 1]))
                size = draw(st.integers(1, 50_000_000 if huge else 20_000))
                out.append(tool(i, "x" * size if size > 1_000_000 else text_of(draw(kinds), size, call)))
        if draw(st.booleans()):
            out.append(assistant(text_of(draw(kinds), draw(st.integers(1, 2000)), t)))
    if draw(st.booleans()):  # image parts in the current turn
        last = max(i for i, m in enumerate(out) if m["role"] == "user")
        out[last] = {"role": "user", "content": [{"type": "text", "text": out[last]["content"]}, IMAGE, IMAGE]}
    return out


def images(message: dict) -> int:
    content = message.get("content")
    return sum(1 for p in content if isinstance(p, dict) and p.get("type") == "image_url") if isinstance(content, list) else 0


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(conversations(), st.floats(0.5, 20), st.integers(0, 64), st.integers(256, 131072))
def test_every_prompt_fits_or_says_why(messages, ratio, overhead, window):
    """Whatever the conversation and settings, the prompt sent is within the window, or the result says
    it is not (fits false, with a reason); tool calls keep their results; the current turn keeps its images."""
    result = compact(messages, context_window=window, chars_per_token=ratio, message_overhead_tokens=overhead,
                     calibrate=False)
    sent = Measurer(CharCounter(ratio), overhead).measure(result.messages).total
    stats = result.stats
    if stats.fits:
        assert sent <= window, (sent, window, stats)
    else:
        assert stats.reason and any("cannot fit" in n for n in stats.notices), stats
    assert orphans(result.messages) == []
    last = max(i for i, m in enumerate(messages) if m["role"] == "user")
    kept = [m for m in result.messages if m["role"] == "user"][-1]
    assert images(kept) == images(messages[last])


def test_a_planned_cut_holds_when_the_summary_rides_on_the_first_kept_user_turn():
    """A long user turn that opens the kept part is cut as planned, and the block rides on it: it fits."""
    messages = [user(words(400, i)) if i % 2 == 0 else assistant(words(200, i)) for i in range(6)]
    messages.append(user(words(1200, 9)))
    result = compact(messages, context_window=1024)
    assert result.stats.fits and result.stats.tokens_after <= 1024
    assert Measurer(CharCounter(4.0)).measure(result.messages).total <= 1024


def test_a_huge_current_message_after_small_talk_is_cut_to_fit():
    """'hi', 'hello', then a 20k-character message at a 1,024 window: cut to fit, as it would be alone."""
    messages = [user("hi"), assistant("hello"), user("x " * 10_000)]
    result = compact(messages, context_window=1024)
    assert result.stats.fits and result.stats.compacted
    assert Measurer(CharCounter(4.0)).measure(result.messages).total <= 1024


def test_cutting_the_current_turn_keeps_its_images():
    """When the current turn itself must be cut, its text is cut and its image parts stay."""
    current = {"role": "user", "content": [{"type": "text", "text": "y " * 20_000}, IMAGE]}
    result = compact([user("earlier"), assistant("ok"), current], context_window=2048)
    assert result.stats.fits
    assert images(result.messages[-1]) == 1


def test_low_ratio_and_high_overhead_still_fit():
    """At half a character per token and 64 tokens of framing per message the estimate stays honest."""
    messages = [user(words(60, i)) if i % 2 == 0 else assistant(words(60, i)) for i in range(80)]
    result = compact(messages, context_window=4096, chars_per_token=0.5, message_overhead_tokens=64,
                     calibrate=False)
    assert result.stats.fits
    assert Measurer(CharCounter(0.5), 64).measure(result.messages).total <= 4096


def test_a_window_too_small_for_anything_says_so():
    """A system prompt above the window: nothing can fit, and the result says why."""
    result = compact([system(words(2000, 1)), user("hi")], context_window=256)
    assert result.stats.fits is False and "window" in (result.stats.reason or "")


def test_a_window_too_small_for_the_usual_ledger_gets_a_smaller_one_that_fits() -> None:
    """compactbench's 75-token windows: the usual smallest ledger (64 tokens) would be over the window; the
    ledger shrinks below it and grows into the window (not only the target), keeping the user's rule."""
    from convo import assistant, user

    from context_compactor import compact

    messages = [user("Hi, I am setting up the repo."), assistant("Great, happy to help with that."),
                user("Critical: never commit directly to the main branch. That is a hard rule."),
                assistant("Understood, I will never commit to main."), user("Also we use pytest for tests."),
                assistant("Noted."), user("By the way, do you read much fiction?"),
                assistant("I do not read, but I can discuss books."),
                user("OK, given all that, what do you suggest as the next step?")]
    result = compact(messages, context_window=75, tokenizer="cl100k_base", compact_at=1.0, compact_to=0.7,
                     keep_recent_tokens=0)
    assert result.stats.compacted and result.stats.fits and result.stats.tokens_after <= 75
    assert "never commit directly to main branch" in result.messages[0]["content"]  # written dense
    assert result.messages[-1]["content"].endswith(messages[-1]["content"])  # the block rides on the current turn


def test_a_cannot_fit_reason_names_what_takes_the_window() -> None:
    """The reason says whether the part never folded (system prompt, tool schemas, current turn: here two
    images) is itself above the window, or fits and the smallest ledger block is what tips it over."""
    from convo import assistant, system, user

    from context_compactor import compact

    image = {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}
    messages = [system("sys"), user("rule: never do X " * 30), assistant("ok " * 300),
                {"role": "user", "content": [{"type": "text", "text": "look"}, image, image]}]
    over = compact(messages, context_window=1000, compact_at=0.6, compact_to=0.5).stats
    assert not over.fits and "current turn, never folded, take 1,5" in (over.reason or ""), over.reason
    tipped = compact(messages, context_window=1530, compact_at=0.6, compact_to=0.5).stats
    assert not tipped.fits and "and the smallest ledger block the rest" in (tipped.reason or ""), tipped.reason
