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
STUB = "[tool result archived by context-compactor: "


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
    assert "never commit directly to the main branch" in result.messages[0]["content"]  # the user's words
    assert result.messages[-1]["content"].endswith(messages[-1]["content"])  # the block rides on the current turn


def test_a_cannot_fit_reason_names_what_takes_the_window() -> None:
    """The reason says whether the part never folded (system prompt, tool schemas, current turn: here two
    images) is itself above the window, or fits and the smallest ledger block (its header and end line) is
    what tips it over."""
    from convo import assistant, system, user

    from context_compactor import compact

    image = {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}
    messages = [system("sys"), user("rule: never do X " * 30), assistant("ok " * 300),
                {"role": "user", "content": [{"type": "text", "text": "look"}, image, image]}]
    over = compact(messages, context_window=1000, compact_at=0.6, compact_to=0.5).stats
    assert not over.fits and "current turn, never folded, take 1,5" in (over.reason or ""), over.reason
    tipped = compact(messages, context_window=1520, compact_at=0.6, compact_to=0.5).stats
    assert not tipped.fits and "and the smallest ledger block the rest" in (tipped.reason or ""), tipped.reason
    bare = compact(messages, context_window=1530, compact_at=0.6, compact_to=0.5)  # a bare block fits beside it
    parts = bare.messages[-1]["content"]
    assert bare.stats.fits and parts[0]["text"] == "[context-compactor: ledger of 2 msgs]\n[end of ledger]"
    assert parts[1:] == messages[-1]["content"]


@st.composite
def turns_with_room(draw: st.DrawFn) -> tuple[list[dict], float, int, int]:
    """A conversation (tool rounds, results up to 20k characters, a current turn that may hold a tool loop
    and images), a ratio, an overhead, and a window of at least 256 tokens (as small as real ones get) in
    which the system prompt and the current turn take at most a quarter."""
    out = [system(words(draw(st.integers(1, 300)), 1))] if draw(st.booleans()) else []
    kinds = st.sampled_from(["words", "cjk", "base64"])
    call = 0
    for t in range(draw(st.integers(1, 10))):
        out.append(user(text_of(draw(kinds), draw(st.integers(1, 3000)), t)))
        for _ in range(draw(st.integers(0, 3))):
            call += 1
            out.append(assistant("", [(f"c{call}", "bash", {"command": f"run {call}"})]))
            out.append(tool(f"c{call}", text_of(draw(kinds), draw(st.integers(1, 20_000)), call)))
        if draw(st.booleans()):
            out.append(assistant(text_of(draw(kinds), draw(st.integers(1, 2000)), t)))
    if draw(st.booleans()):
        last = max(i for i, m in enumerate(out) if m["role"] == "user")
        out[last] = {"role": "user", "content": [{"type": "text", "text": out[last]["content"]}, IMAGE]}
    ratio, overhead = draw(st.floats(0.5, 20)), draw(st.integers(0, 64))
    core = Measurer(CharCounter(ratio), overhead).measure(current_part(out)).total
    return out, ratio, overhead, max(256, 4 * core + draw(st.integers(0, 4 * core + 2000)))


def current_part(messages: list[dict]) -> list[dict]:
    """The leading system messages and the current turn (the last user message and what follows it)."""
    lead = next((i for i, m in enumerate(messages) if m["role"] != "system"), len(messages))
    last = max(i for i, m in enumerate(messages) if m["role"] == "user")
    return messages[:lead] + messages[last:]


def plain(message: dict) -> str:
    content = message.get("content")
    return content if isinstance(content, str) else "".join(
        p.get("text", "") for p in content if isinstance(p, dict) and p.get("type") == "text")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(turns_with_room())
def test_with_the_current_turn_in_a_quarter_of_the_window_it_fits_whole(case) -> None:
    """When the system prompt and the current turn take at most a quarter of the window a fitting prompt
    exists: the engine never says "cannot fit", and never cuts the current turn (its user message is sent
    whole, with its images; its calls as they are; a result cut only to maxToolResultTokens, or, an older
    one of its loop, stubbed and archived as any compaction does)."""
    messages, ratio, overhead, window = case
    result = compact(messages, context_window=window, chars_per_token=ratio, message_overhead_tokens=overhead,
                     calibrate=False)
    measurer = Measurer(CharCounter(ratio), overhead)
    assert result.stats.fits and measurer.measure(result.messages).total <= window, result.stats
    last = max(i for i, m in enumerate(messages) if m["role"] == "user")
    sent_user = [m for m in result.messages if m["role"] == "user"][-1]
    assert plain(sent_user).endswith(plain(messages[last])) and images(sent_user) == images(messages[last])
    cap = min(4000, max(256, window // 2 // 4)) + 40  # the configured cut of one result, and its marker
    sent = {id(m) for m in result.messages}
    changed = [m for m in messages[last + 1:] if id(m) not in sent]
    stubs = {m.get("tool_call_id") for m in result.messages if m["role"] == "tool" and plain(m).startswith(STUB)}
    assert all(m["role"] == "tool" and (measurer.measure([m]).total > cap or m["tool_call_id"] in stubs)
               for m in changed), changed


def test_a_current_turn_that_fits_whole_is_not_cut() -> None:
    """A system prompt and a current turn of about 4,000 of a 4,195-token window (1.64 characters a token,
    63 tokens of framing per message; from bench/fit.py): everything before the turn folds into a small
    ledger block and the 3,333-character turn goes out whole (it was cut, though this prompt fit)."""
    current = (words(600, 7) + " ")[:3333]
    messages = [system((words(500, 3) + " ")[:2500]), user(words(100, 1)),
                assistant("", [("c1", "bash", {"command": "cat a"}), ("c2", "bash", {"command": "cat b"})]),
                tool("c1", words(3000, 1)), tool("c2", words(2000, 2)), user(words(80, 2)), user(current),
                assistant(words(80, 3))]
    result = compact(messages, context_window=4195, chars_per_token=1.64, message_overhead_tokens=63, calibrate=False)
    assert result.stats.fits and result.stats.tokens_after <= 4195
    assert result.messages[-2]["content"].endswith(current) and result.messages[-1] is messages[-1]
    assert "[end of ledger]" in result.messages[-2]["content"]


def test_a_window_with_room_for_a_bare_block_never_says_cannot_fit() -> None:
    """At 256 tokens and half a character a token the usual smallest ledger is too large beside a 26-token
    current turn; everything before the turn folds into a block sized to the room left (down to its header
    and end line), so the prompt fits (it said "cannot fit")."""
    messages = [user("a"), user("b"), assistant("", [("c0", "bash", {"command": "run"})]), tool("c0", "x" * 20_000),
                *[user(c) for c in "cdefgh"], user("what now?")]
    result = compact(messages, context_window=256, chars_per_token=0.5, message_overhead_tokens=8, calibrate=False)
    assert result.stats.fits and Measurer(CharCounter(0.5), 8).measure(result.messages).total <= 256
    # The tail may take a quarter of the 128-token target: "h" stays verbatim after the block.
    assert result.messages[-2]["content"].startswith("[context-compactor: ledger of 9 msgs]\n")
    assert result.messages[-2]["content"].endswith("[end of ledger]\n\nh")
    assert result.messages[-1] == messages[-1]
