"""The deterministic extractive summarizer: the embedded default, and the fallback when a model fails.

It keeps what model summaries lose first, in this priority: the user's own instructions
(verbatim, newest corrections winning), exact error strings, files touched, commands run,
decisions, opaque identifiers, and where things stood. Each section first gets a share of the
budget; what is left over goes to sections in priority order; within a section the newest items
win. Same input, same bytes out.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from context_compactor.messages import View

from . import CountTokens
from . import extract as x

# (title, extractor, share of the budget in the first pass), in priority order.
SECTIONS: tuple[tuple[str, Callable[[Sequence[View]], list[str]], float], ...] = (
    ("User instructions (verbatim, newest last)", x.instructions, 0.40),
    ("Errors seen (exact)", x.errors, 0.15),
    ("Files touched", x.paths, 0.10),
    ("Commands run", x.commands, 0.10),
    ("Decisions", x.decisions, 0.10),
    ("Identifiers", x.identifiers, 0.07),
    ("Where things stood", x.last_state, 0.08),
)
ORDER = [title for title, _, _ in SECTIONS]
SHARES = {title: share for title, _, share in SECTIONS}


class ExtractiveSummarizer:
    """Summaries by extraction: no model, no network, deterministic."""

    identity = "extractive"
    prompt_version = "4"  # bump whenever extraction or rendering changes: it is part of every cache key

    def summarize(self, messages: Sequence[View], budget: int, count: CountTokens) -> str:
        sections = {title: x.dedupe_keep_last(fn(messages)) for title, fn, _ in SECTIONS}
        return render(sections, budget, count)

    def merge(self, summaries: Sequence[str], budget: int, count: CountTokens) -> str:
        merged: dict[str, list[str]] = {title: [] for title in ORDER}
        for summary in summaries:
            for title, items in parse(summary).items():
                merged.setdefault(title, []).extend(items)
        merged["Where things stood"] = merged.get("Where things stood", [])[-1:]
        return render({t: x.dedupe_keep_last(items) for t, items in merged.items()}, budget, count)


def parse(summary: str) -> dict[str, list[str]]:
    """Read a rendered summary back into its sections (used to merge chunk summaries)."""
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in summary.splitlines():
        if line.startswith("## "):
            current = sections.setdefault(line[3:].strip(), [])
        elif line.startswith("- ") and current is not None:
            current.append(line[2:])
    return sections


def render(sections: dict[str, list[str]], budget: int, count: CountTokens) -> str:
    """Sections in a fixed order, items chosen newest first within each section's allowance."""
    titles = [t for t in ORDER if sections.get(t)] + [t for t in sections if t not in ORDER and sections[t]]
    header_cost = {t: count(f"## {t}\n") for t in titles}
    item_cost = {t: [count(f"- {item}\n") for item in sections[t]] for t in titles}
    chosen: dict[str, set[int]] = {t: set() for t in titles}
    spent = 0

    def take(title: str, allowance: float) -> None:
        nonlocal spent
        used = header_cost[title] if chosen[title] else 0
        for i in range(len(sections[title]) - 1, -1, -1):  # newest first
            if i in chosen[title]:
                used += item_cost[title][i]
                continue
            extra = item_cost[title][i] + (0 if chosen[title] else header_cost[title])
            if used + extra > allowance or spent + extra > budget:
                continue
            chosen[title].add(i)
            used += extra
            spent += extra

    for title in titles:
        take(title, math.floor(budget * SHARES.get(title, 0.05)))
    for title in titles:
        take(title, budget)
    text = _join(titles, sections, chosen)
    while text and count(text) > budget:  # sums of parts can round differently from the whole
        title = next(t for t in reversed(titles) if chosen[t])
        chosen[title].discard(min(chosen[title]))
        text = _join(titles, sections, chosen)
    return text


def _join(titles: list[str], sections: dict[str, list[str]], chosen: dict[str, set[int]]) -> str:
    lines: list[str] = []
    for title in titles:
        if chosen[title]:
            lines.append(f"## {title}")
            lines.extend(f"- {sections[title][i]}" for i in sorted(chosen[title]))
    return "\n".join(lines)
