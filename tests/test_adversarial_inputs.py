"""Untrusted text read by a regex or a loop that was super-linear on some input (a long run of one
character, an unclosed quote or tag, a huge tool-call argument, one long stream event): what each
reader returns on that input and on ordinary input. The time each takes is measured by
bench/adversarial.py, never here."""

from __future__ import annotations

import json
import re
import shlex

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from context_compactor.gateway.sse import EventSplitter, StreamedCalls, StreamWatch
from context_compactor import windows
from context_compactor.summarizer import extract as x
from context_compactor.tokens import TiktokenCounter
from context_compactor.summarizer import output

SHELL_CHARS = "ab =-#'\"\\\t\r\n\x0bé"


def _split(text: str) -> tuple[str, object]:
    try:
        return "words", x.shell_words(text)
    except ValueError as exc:
        return "error", str(exc)


def _shlex(text: str) -> tuple[str, object]:
    try:
        return "words", shlex.split(text, comments=True)
    except ValueError as exc:
        return "error", str(exc)


@hsettings(max_examples=3000, deadline=None)
@given(st.text(alphabet=SHELL_CHARS, max_size=24))
def test_shell_words_are_shlex_words(text: str) -> None:
    """shell_words gives shlex.split's words (comments on), or the same ValueError, for any command."""
    assert _split(text) == _shlex(text)


def test_shell_words_on_ordinary_commands() -> None:
    """Quotes, escapes and comments of everyday commands come out as shlex reads them."""
    for command in ("git mv src/a.py src/b.py", "sed -i 's/foo/bar/g' src/x.py", "touch 'a b.txt' c\\ d.txt",
                    'cp "$HOME/x \\"y\\"" /tmp/y # copy it', 'echo ""', "rm -f a#b"):
        assert x.shell_words(command) == shlex.split(command, comments=True)


def test_shell_writes_reads_a_huge_quoted_argument() -> None:
    """A commit message of 1M characters leaves the command's reading as it was: git commit writes no file."""
    assert x.shell_writes('git commit -m "' + "a" * 1_000_000 + '"') == []


def test_shell_writes_with_a_huge_word_and_an_unclosed_quote() -> None:
    """A 1M-character source word still names the copy's target; an unclosed quote falls back to words."""
    assert x.shell_writes("cp " + "a" * 1_000_000 + " out.txt") == [("out.txt", "copied from " + "a" * 1_000_000)]
    found = x.shell_writes("rm '" + "ab " * 300_000 + "gone.txt")
    assert (found[0], found[-1], len(found)) == (("'ab", "deleted"), ("gone.txt", "deleted"), 300_001)


# The patterns summarizer/output.py was written with, kept here as the definition its faster readers keep.
HEADING = re.compile(r"^\s*(?:#{1,6}\s+(.+?)\s*#*|\*\*(.+?)\*\*\s*:?|([A-Z][\w ,/&()'-]{2,60}):)\s*$")
BULLET = re.compile(r"^\s*(?:[-*+\u2022]|\d{1,3}[.)])\s+(.*\S)\s*$")
REASONING = re.compile(r"<(think|thinking|reasoning)>.*?</\1>", re.DOTALL | re.IGNORECASE)
LINE_PARTS = ["#", "#", " ", "\t", "\xa0", "*", "**", ":", "A", "b", "-", "1", ".", ")", "\u2022"]
TAG_PARTS = ["<think>", "</think>", "<THINK>", "</Think>", "<thinking>", "</thinking>", "<reasoning>",
             "</REASONING>", "<", ">", "x", "\n"]


@hsettings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(LINE_PARTS), max_size=14).map("".join))
def test_heading_and_bullet_read_as_their_patterns(line: str) -> None:
    """A summary line is a heading with the title, or a bullet with the item, its pattern gives."""
    heading = HEADING.match(line)
    assert output._heading(line) == (next(g for g in heading.groups() if g) if heading else None)
    bullet, fast = BULLET.match(line), output._BULLET.match(line)
    assert (fast.group(1) if fast else None) == (bullet.group(1) if bullet else None)


@hsettings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(TAG_PARTS), max_size=14).map("".join))
def test_closed_reasoning_blocks_go_as_the_pattern_takes_them(text: str) -> None:
    """Closed <think>/<thinking>/<reasoning> blocks are removed exactly where the pattern removes them."""
    assert output.blocks_removed(text, output._OPENING, output._REASONING) == REASONING.sub("", text)


def test_unclosed_think_tags_leave_nothing() -> None:
    """An answer of 50k unclosed <think> tags is all reasoning: nothing is left of it."""
    assert output.strip_reasoning("<think>" * 50_000) == ""
    assert output.strip_reasoning("<think>plan</think>## Done\n- ok <thinking>" + "<think>" * 50_000) == "## Done\n- ok"


def test_summary_lines_with_long_runs_of_spaces() -> None:
    """A heading, a bullet and a bold heading with 200k spaces inside read as they would with one space."""
    spaces = " " * 200_000
    text = f"# Files{spaces}touched ##\n-{spaces}\n- src/app.py{spaces}edited\n**Errors**{spaces}x\n1.{spaces}"
    assert output.read_sections(text) == [("Files" + spaces + "touched", ["-", "src/app.py edited",
                                                                         "**Errors** x", "1."])]


def test_one_huge_event_in_small_pieces() -> None:
    """A 1 MB event arriving 100 bytes at a time comes out once, whole, when its blank line arrives."""
    event = b"data: " + b"a" * 1_000_000 + b"\r\n\r\n"
    splitter = EventSplitter()
    out = [e for at in range(0, len(event), 100) for e in splitter.feed(event[at:at + 100])]
    assert out == [event] and splitter.rest() == b""


def test_many_events_in_one_piece_and_separators_cut_in_two() -> None:
    """1 MB of events in one piece are all cut; a separator split across pieces still ends its event."""
    event = b'data: {"choices":[]}\n\n'
    assert EventSplitter().feed(event * 40_000) == [event] * 40_000
    splitter = EventSplitter()
    assert splitter.feed(b"data: a\r\n\r") == [] and splitter.feed(b"\ndata: b\r\r") == [b"data: a\r\n\r\n", b"data: b\r\r"]
    assert splitter.feed(b"data: c") == [] and splitter.rest() == b"data: c"


def test_tool_call_arguments_in_many_pieces() -> None:
    """A 1M-character argument streamed 4 characters at a time is the whole argument in the reply."""
    watch = StreamWatch(strip_usage=False)
    head = {"index": 0, "id": "call_1", "type": "function", "function": {"name": "write", "arguments": ""}}
    watch.keep(b"data: " + json.dumps({"choices": [{"index": 0, "delta": {"tool_calls": [head]}}]}).encode())
    piece = json.dumps({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": "abcd"}}]}}]})
    for _ in range(250_000):
        watch.keep(b"data: " + piece.encode())
    call = watch.reply()["tool_calls"][0]
    assert call == {"id": "call_1", "type": "function", "function": {"name": "write", "arguments": "abcd" * 250_000}}


def test_streamed_calls_refuse_a_piece_that_is_no_string() -> None:
    """A name piece that is not a string is a TypeError (a chunk the relay passes on unread), as before."""
    calls = StreamedCalls()
    calls.add({"index": 1, "id": "c", "function": {"name": "rea"}})
    with pytest.raises(TypeError, match="name piece is int"):
        calls.add({"index": 1, "function": {"name": 5, "arguments": "{}"}})
    calls.add({"index": 1, "function": {"name": "d", "arguments": "{}"}})
    assert calls.whole() == {1: {"id": "c", "type": "function", "function": {"name": "read", "arguments": "{}"}}}


def test_an_overflow_body_with_a_huge_digit_run() -> None:
    """A 200k-digit run where the prompt count stands is no count: the window and the next count are read."""
    body = "maximum context length is 4096 tokens. However, you requested 9000 tokens ({} in the messages)"
    assert windows.read(body.format("1" * 200_000)) == windows.Stated(
        message=body.format("1" * 200_000)[:500], window=4096, prompt_tokens=9000)
    assert windows.read(body.format("8990")) == windows.Stated(message=body.format("8990"), window=4096,
                                                               prompt_tokens=8990)


def test_tiktoken_counts_a_million_spaces() -> None:
    """A text tiktoken's regex cannot split whole (1M spaces, then a letter) is counted in pieces, not an error."""
    counter = TiktokenCounter("o200k_base")
    assert 1 <= counter.units(" " * 1_000_000 + "x") <= 1_000_000 // 100 + 20
    assert counter.units("hello world") == 2
