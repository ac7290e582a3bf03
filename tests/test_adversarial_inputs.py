"""Untrusted text read by a regex or a loop that was super-linear on some input (a long run of one
character, an unclosed quote or tag, a huge tool-call argument, one long stream event): what each
reader returns on that input and on ordinary input. The time each takes is measured by
bench/adversarial.py, never here."""

from __future__ import annotations

import shlex

from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from context_compactor.summarizer import extract as x

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
