"""Checking what a summary model wrote: reasoning stripped, sections read, size and truncation handled.

The text is read into sections (``## Title`` then ``- item`` lines; headings in other common forms
and plain lines are accepted and normalised), so that every summary we keep has the one shape the
deterministic merge in :mod:`context_compactor.summarizer.fallback` can parse. Then:

- empty (nothing left after stripping ``<think>`` blocks and filler) -> failure ``empty``;
- cut off by the token limit -> the unfinished last section (or, with one section, its last
  item) is dropped; nothing left -> failure ``truncated``;
- over the budget -> trimmed at a section boundary (then at an item boundary);
  nothing fits -> failure ``over_budget``.
"""

from __future__ import annotations

import re

from . import CountTokens, ModelError

_REASONING = re.compile(r"<(think|thinking|reasoning)>.*?</\1>", re.DOTALL | re.IGNORECASE)
_OPEN_REASONING = re.compile(r"<(think|thinking|reasoning)>.*", re.DOTALL | re.IGNORECASE)
_HEADING = re.compile(r"^\s*(?:#{1,6}\s+(.+?)\s*#*|\*\*(.+?)\*\*\s*:?|([A-Z][\w ,/&()'-]{2,60}):)\s*$")
_BULLET = re.compile(r"^\s*(?:[-*+\u2022]|\d{1,3}[.)])\s+(.*\S)\s*$")
_FENCE = re.compile(r"^\s*```")
DEFAULT_TITLE = "Summary"


class OutputError(ModelError):
    """A model's answer that cannot serve as a summary; ``kind`` says why."""


Sections = list[tuple[str, list[str]]]


def strip_reasoning(text: str) -> str:
    """The answer without ``<think>...</think>`` blocks (an unclosed one runs to the end)."""
    return _OPEN_REASONING.sub("", _REASONING.sub("", text)).strip()


def read_sections(text: str) -> Sections:
    """Sections in order of appearance; lines before any heading go under ``Summary``."""
    sections: Sections = []
    for raw in text.splitlines():
        if not raw.strip() or _FENCE.match(raw):
            continue
        heading = _HEADING.match(raw)
        if heading and not _BULLET.match(raw):
            title = next(g for g in heading.groups() if g).strip().strip("*:# ").strip()
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
