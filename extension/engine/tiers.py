"""The ledger body in tiers: what a compaction appends to the block it sent last, and when it merges.

A server's prompt cache keeps the prompt's start, so a compaction that folds more appends a tier for
what it newly brings and leaves the earlier tiers byte-identical, until the block would pass its room:
then they are merged into one again (at :data:`MERGE_SHARE` of the room, so that later compactions
have room to append). Pure functions over the summary texts; :func:`ledger_body` is the one entry.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from ..summarizer.ledger.items import SHORT_TITLES, TITLES
from .measure import Entry
from .plan import Plan
from .summaries import SummaryReport, Summaries

# A block merged again after its tiers filled its room takes this share, the rest is for tiers. At 0.7 a
# 1.2M-token session compacted over 20 turns at 8k kept 52 of 72 facts (bench/fidelity.py --turns 20), at
# 0.85 69; bench/prefill.py recomputed less too (sessiongen 1.50x -> 1.41x the lower bound).
MERGE_SHARE = 0.85
LAST_SUMMARY_TOKENS = 24  # the least a ledger is asked at: a rule or two, to fit
_CITES = re.compile(r" \[#[\d, #]+\]$")  # a ledger line's citations, at its end
# The sections whose lines a tier does not say again with other citations (see _tiered).
_SAID_ONCE = frozenset(f"## {titles[s]}" for titles in (TITLES, SHORT_TITLES)
                       for s in ("request", "docrule", "error", "finding", "file", "identifier", "command"))


@dataclass(frozen=True)
class Tiers:
    """The ledger body a block was last sent with (``text``), for a fold of ``[lead, cut)``; its first
    tier folded ``first`` messages (the header's count). A later compaction that folds more appends a
    tier for what it newly brings and leaves these bytes as they are (a server's prompt cache keeps
    them), until the block would pass its room: then it is merged into one again."""

    lead: int
    cut: int
    first: int
    text: str
    merged: bool = False  # built by a merge of earlier tiers (rendered at MERGE_SHARE of the room)
    # What they were last made from: a digest of the summary of ``[lead, cut)`` asked at ``budget``
    # tokens, and whether that summary was whole (no model call fell back or was still running). A
    # summary of the same fold at the same budget that reads otherwise now (a late model narrative
    # landed in the cache, a new release, another summarizer) is rendered again, not reused.
    source: str = ""
    budget: int = 0
    complete: bool = False


def ledger_body(entries: Sequence[Entry], plan: Plan, summaries: Summaries, ledger_budget: int,
                tiers: Tiers | None, unchanged: Unchanged | None, count: Callable[[str], int],
                ) -> tuple[Tiers, SummaryReport]:
    """The ledger body of ``plan``'s block within ``ledger_budget`` tokens, and the summary it came from:
    ``tiers`` with a tier appended while they stand and have room, else one merge, else a fresh body."""
    if tiers is not None and (tiers.lead != plan.lead or tiers.cut > plan.cut or not tiers.text.strip()):
        tiers = None  # another fold: nothing to append to
    asked = _asked(ledger_budget, tiers)
    if tiers is not None and (tiers.cut, tiers.budget) != (plan.cut, asked) and not (unchanged and unchanged()):
        # What the tiers hold is no longer what their fold is summarised as (a model's narrative
        # that came late, another summarizer, a new release): rendered again, whole.
        tiers = None
        asked = _asked(ledger_budget, None)
    report = summaries.region(entries, plan.lead, plan.cut, asked)
    same = tiers is not None and (tiers.cut, tiers.budget) == (plan.cut, asked)
    if tiers is not None and same and not tiers.complete and tiers.source != digest(report.text):
        # The same fold at the same size, summarised otherwise now (a model's narrative that was not
        # there): rendered again, whole.
        tiers, same = None, False
        if asked != _asked(ledger_budget, None):
            asked = _asked(ledger_budget, None)
            report = summaries.region(entries, plan.lead, plan.cut, asked)
    # The same fold at the same room, from a whole summary: the bytes last sent. The summary reads otherwise
    # now only as the counter's calibration moved (a line more or less at the same budget, the tiers a few
    # tokens more or less by the new count), and a block rewritten for that costs a server the whole prompt
    # after it again; the prompt's fit is checked whole, after the build.
    body = tiers if same else _tiered(tiers, plan, report.text, ledger_budget, count)
    if body is None and tiers is not None and tiers.cut < plan.cut:
        # The tiers filled the block's room: one merge, at a share of it, so that the next
        # compactions have room to append again.
        asked = max(LAST_SUMMARY_TOKENS, int(ledger_budget * MERGE_SHARE))
        report = summaries.region(entries, plan.lead, plan.cut, asked)
        body = Tiers(plan.lead, plan.cut, plan.folded, report.text, merged=True)
    elif body is None:
        body = Tiers(plan.lead, plan.cut, plan.folded, report.text)
    return replace(body, source=digest(report.text), budget=asked, complete=not report.fallbacks), report


def _asked(ledger_budget: int, tiers: Tiers | None) -> int:
    """The budget the fold's summary is asked at: a tier holds what the ledger at the size its block
    was merged at holds beyond the tiers before."""
    share = MERGE_SHARE if tiers is not None and tiers.merged else 1.0
    return max(LAST_SUMMARY_TOKENS, int(ledger_budget * share))


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:32]


class Unchanged:
    """Whether the summary the tiers were made from is still what their fold is summarised as (asked
    once per compaction). Tiers made from a summary that was not whole (a model call fell back or was
    still running) are not appended to: the model's text may be in the cache by now."""

    def __init__(self, tiers: Tiers | None, entries: Sequence[Entry], summaries: Summaries) -> None:
        self.tiers, self.entries, self.summaries = tiers, entries, summaries
        self.answer: bool | None = None

    def __call__(self) -> bool:
        if self.answer is None:
            t = self.tiers
            self.answer = (t is not None and t.complete and bool(t.source) and t.budget > 0
                           and t.cut <= len(self.entries)
                           and digest(self.summaries.region(self.entries, t.lead, t.cut, t.budget).text) == t.source)
        return self.answer


def _tiered(tiers: Tiers | None, plan: Plan, text: str, budget: int, count: Callable[[str], int]) -> Tiers | None:
    """The body ``tiers`` carry with a tier appended for what ``text`` (the whole ledger of the fold)
    holds that they do not; None when there is nothing to append to, or no room for it. The caller
    has checked that the summary they were made from still stands."""
    if tiers is None or tiers.lead != plan.lead or tiers.cut > plan.cut or not tiers.text.strip():
        return None
    if tiers.cut == plan.cut:  # the same fold: the same bytes, while they fit
        return tiers if count(tiers.text) <= budget else None
    # A line of a request, a pasted rule or what tools found, changed or failed with that the tiers hold
    # already, citations aside (asked again, read again in a later fold: it cites the later message), is said
    # once, by the tier that said it first. (Not the user's instructions nor decisions: a line said again
    # there may be what a later correction or revision keeps current, and leaving it out of the tier left an
    # old value standing alone: bench/fidelity.py --turns 20, gen_assistant.)
    have = set(tiers.text.splitlines())
    seen = {_CITES.sub("", line) for line in have}
    tier: list[str] = []
    heading = None
    for line in text.splitlines():
        if line.startswith("## "):
            heading = line
        elif line.strip() and line not in have and not (heading in _SAID_ONCE and _CITES.sub("", line) in seen):
            if heading is not None and heading not in tier:
                tier.append(heading)
            tier.append(line)
    if not tier:
        return replace(tiers, cut=plan.cut)
    more = plan.cut - tiers.cut
    label = f"[context-compactor: the ledger of {more} later message{'s' if more != 1 else ''} follows]"
    body = "\n".join([tiers.text.rstrip("\n"), label, *tier])
    if count(body) > budget:
        return None
    return Tiers(tiers.lead, plan.cut, tiers.first, body, tiers.merged)
