"""Checking what a summary model wrote: reasoning stripped, sections read, size and truncation handled.

The text is read into sections (``## Title`` then ``- item`` lines; headings in other common forms
and plain lines are accepted and normalised), so that every summary we keep has the one shape the
deterministic merge in :mod:`context_compactor.summarizer.fallback` can parse. Then:

- empty (nothing left after stripping ``<think>`` blocks and filler) -> failure ``empty``;
- cut off by the token limit -> the unfinished last section (or, with one section, its last
  item) is dropped; nothing left -> failure ``truncated``;
- over the budget -> trimmed at a section boundary (then at an item boundary);
  nothing fits -> failure ``over_budget``.

:func:`invented` then tells whether a narrative names what the messages it stands for do not contain:
a path, a file, a commit, a ticket, an identifier (``snake_case``, ``camelCase``, ``module.attr``, a call
``name(``), anything written as code between backticks, or a line of code. A small model asked where
things stood often writes a tutorial with code of its own instead (SmolLM2-135M: ``def get_filename():``,
``role`` and ``src_script.py`` in backticks); such a narrative must not reach the prompt.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from . import CountTokens, ModelError

_REASONING = re.compile(r"<(think|thinking|reasoning)>.*?</\1>", re.DOTALL | re.IGNORECASE)
_OPENING = re.compile(r"<(think|thinking|reasoning)>", re.IGNORECASE)
_OPEN_REASONING = re.compile(r"<(think|thinking|reasoning)>.*", re.DOTALL | re.IGNORECASE)
# A heading is ``^\s*(?:#{1,6}\s+(.+?)\s*#*|\*\*(.+?)\*\*\s*:?|([A-Z][\w ,/&()'-]{2,60}):)\s*$``, read in
# linear time: the "#" form in Python (:func:`_heading`), the others with ``\s*:?\s*`` written
# ``\s*(?::\s*)?`` (two adjacent ``\s*`` split a run of spaces every way before failing).
_HASHES = re.compile(r"\s*#{1,6}(\s+)")
_OTHER_HEADING = re.compile(r"^\s*(?:\*\*(.+?)\*\*\s*(?::\s*)?|([A-Z][\w ,/&()'-]{2,60}):\s*)$")
# ``^\s*(?:[-*+\u2022]|\d{1,3}[.)])\s+(.*\S)\s*$``, its item starting with the non-space it must start with
# (else each space given back by ``\s+`` was read again by ``.*``: quadratic on a marker and spaces).
_BULLET = re.compile(r"^\s*(?:[-*+\u2022]|\d{1,3}[.)])\s+(\S(?:.*\S)?)\s*$")
_FENCE = re.compile(r"^\s*```")
DEFAULT_TITLE = "Summary"


class OutputError(ModelError):
    """A model's answer that cannot serve as a summary; ``kind`` says why."""


Sections = list[tuple[str, list[str]]]


def strip_reasoning(text: str) -> str:
    """The answer without ``<think>...</think>`` blocks (an unclosed one runs to the end)."""
    return _OPEN_REASONING.sub("", blocks_removed(text, _OPENING, _REASONING)).strip()


def blocks_removed(text: str, opening: re.Pattern[str], block: re.Pattern[str]) -> str:
    """``block.sub("", text)`` in linear time, for a ``block`` pattern that runs from an ``opening`` tag
    (its name the first group) to the closing tag of that name. The regex reads from each opening tag to
    its closing tag, and from one that has none to the end of the text, again for every such tag
    (quadratic on a text of unclosed tags). A tag left open leaves every later tag of the same name open
    too, so each name is read to the end once."""
    out: list[str] = []
    kept = at = 0
    unclosed: set[str] = set()
    while (tag := opening.search(text, at)) is not None:
        name = tag.group(1)
        name = name.lower() if name.isascii() else name  # other letters that match case-blind stay as written
        found = None if name in unclosed else block.match(text, tag.start())
        if found is None:
            unclosed.add(name)
            at = tag.start() + 1
            continue
        out.append(text[kept:tag.start()])
        kept = at = found.end()
    if not kept:
        return text
    out.append(text[kept:])
    return "".join(out)


def _heading(line: str) -> str | None:
    """The title group of a heading line (see ``_HASHES``), or None when the line is no heading."""
    hashes = _HASHES.match(line)
    if hashes is None:
        return _other_heading(line)
    start = hashes.end()
    if start == len(line):  # nothing after the spaces: the title is the last of them, if they are two or more
        return line[-1:] if len(hashes.group(1)) >= 2 else _other_heading(line)
    # The shortest title after which the line holds only spaces, then hashes, then spaces: the line
    # up to its longest such end, at least one character.
    end = len(line.rstrip())
    end = len(line[:end].rstrip("#"))
    end = len(line[:end].rstrip())
    return line[start:max(end, start + 1)]


def _other_heading(line: str) -> str | None:
    other = _OTHER_HEADING.match(line)
    return None if other is None else next(g for g in other.groups() if g)


def read_sections(text: str) -> Sections:
    """Sections in order of appearance; lines before any heading go under ``Summary``."""
    sections: Sections = []
    for raw in text.splitlines():
        if not raw.strip() or _FENCE.match(raw):
            continue
        heading = _heading(raw)
        if heading is not None and not _BULLET.match(raw):
            title = heading.strip().strip("*:# ").strip()
            sections.append((title or DEFAULT_TITLE, []))
            continue
        bullet = _BULLET.match(raw)
        item = " ".join((bullet.group(1) if bullet else raw).split())
        if not sections:
            sections.append((DEFAULT_TITLE, []))
        sections[-1][1].append(item)
    return [(title, items) for title, items in sections if items]


def render(sections: Sections) -> str:
    lines: list[str] = []
    for title, items in sections:
        lines.append(f"## {title}")
        lines.extend(f"- {item}" for item in items)
    return "\n".join(lines)


def _meaningful(sections: Sections) -> bool:
    return any(item.strip().lower().strip(".") not in ("none", "n/a", "") for _, items in sections for item in items)


def fit(sections: Sections, budget: int, count: CountTokens) -> Sections:
    """Whole sections from the start while they fit; then whole items of the next one."""
    kept: Sections = []
    for title, items in sections:
        if count(render([*kept, (title, items)])) <= budget:
            kept.append((title, items))
            continue
        partial: list[str] = []
        for item in items:
            if count(render([*kept, (title, [*partial, item])])) > budget:
                break
            partial.append(item)
        if partial:
            kept.append((title, partial))
        break
    return kept


def check(text: str | None, *, truncated: bool, budget: int, count: CountTokens, summarizer: str) -> str:
    """The summary to keep from a model's answer, normalised to sections; raises OutputError."""
    cleaned = strip_reasoning(text or "")
    sections = read_sections(cleaned)
    if not sections or not _meaningful(sections):
        raise OutputError(f"{summarizer} returned an empty summary", kind="empty", summarizer=summarizer)
    if truncated:
        if len(sections) > 1:
            sections = sections[:-1]
        else:
            title, items = sections[0]
            sections = [(title, items[:-1])] if len(items) > 1 else []
        if not sections or not _meaningful(sections):
            raise OutputError(f"{summarizer} was cut off by its token limit before finishing a section",
                              kind="truncated", summarizer=summarizer)
    if count(render(sections)) > budget:
        sections = fit(sections, budget, count)
        if not sections:
            raise OutputError(f"{summarizer} wrote a first section longer than the {budget}-token budget",
                              kind="over_budget", summarizer=summarizer)
    return render(sections)


# What a narrative may only name as the messages name it. Paths and files, commits, tickets; identifiers:
# a call ``name(`` (not "tool(s)"), ``snake_case``, ``camelCase``, ``module.attr`` (parts of 2+ letters).
_NAMES = re.compile(
    r"(?<![\w/.-])(?:[\w.-]+/)+[\w.-]+"
    r"|\b[\w-]+\.(?:py|pyi|js|jsx|ts|tsx|json|md|toml|ya?ml|sh|rs|go|c|h|cc|cpp|hpp|java|kt|rb|php|cs|sql|html|css|"
    r"txt|cfg|ini|lock|log|xml|csv|env)\b"
    r"|\b[0-9a-f]{7,40}\b|\b[A-Z][A-Z0-9]{1,9}-\d+\b"
    r"|\b[A-Za-z_][\w.]*\((?!(?:s|es|ies)\))"
    r"|\b_*[A-Za-z][A-Za-z0-9]*_\w*|\b[a-z]+[A-Z]\w*|\b[A-Za-z_][A-Za-z_]\w*(?:\.[A-Za-z_][A-Za-z_]\w*)+")
_SPAN = re.compile(r"`([^`\n]+)`")
# A line that reads as code: a statement's keyword, an assignment, a docstring's quotes, a JSON key, a line
# of brackets or an HTML tag (as the lines of a fenced block come out of :func:`read_sections`).
_CODE = re.compile(r"^(?:import \w|from [\w.]+ import |def \w|class \w|return\b|print\s*\(|(?:if|elif|for|while|with)\b.*:$"
                   r"|else:|try:|except\b|[\w.\[\]]+\s*[-+*/]?=\s*\S|\"\"\"|'''|\"[^\"]+\"\s*:|[\[\]{}(),;]+$|</?[a-z]+[\s>])")


def invented(text: str, originals: str | Callable[[], str]) -> str | None:
    """The first name or line of code in a model's ``text`` that the messages it stands for do not contain
    (``originals``: their text, tool names and arguments, or a function that makes it when first needed);
    None when it names only what they do. A name not found as written is looked for case-blind, runs of
    spaces as one, so it is not new for its case or its wrapping."""
    if "```" in text:
        return "```"
    source: list[str] = []
    folded: list[str] = []

    def new(name: str) -> bool:
        if not source:
            source.append(originals() if callable(originals) else originals)
        if name in source[0]:
            return False
        if not folded:
            folded.append(" ".join(source[0].split()).casefold())
        return " ".join(name.split()).casefold() not in folded[0]

    for raw in text.splitlines():
        bullet = _BULLET.match(raw)
        line = bullet.group(1) if bullet else raw.strip()
        if not line or _heading(raw) is not None and not bullet:
            continue
        if _CODE.match(line) and new(line):
            return line
        for span in _SPAN.findall(line):
            name = span.strip()
            bare = name[:-2] if name.endswith("()") else name
            if any(c.isalnum() for c in name) and new(name) and new(bare):
                return name
        for found in _NAMES.finditer(_SPAN.sub(" ", line)):
            name = found.group(0).rstrip(".-(")
            if name and new(name):
                return name
    return None
