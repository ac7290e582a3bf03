"""The built-in summarizer: the session ledger, built deterministically from the original messages.

It is the embedded default and the base under any model: extraction (:mod:`.extract`) reads each
message once (memoised by identity, so later compactions pay for new messages only), the items
of the whole folded region merge into one ledger (:func:`.ledger.merge`), and the ledger renders
within its budget (:func:`.ledger.render`). Same input, same bytes out.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

from context_compactor.messages import View

from . import CountTokens
from . import extract as x
from .ledger import Item, merge, parse_items, render

MEMO_MESSAGES = 200_000  # messages whose items are remembered (by identity) across compactions


class ExtractiveSummarizer:
    """Ledger summaries by extraction: no model, no network, deterministic."""

    identity = "extractive"
    prompt_version = "ledger-3"  # bump whenever extraction or rendering changes: it is part of every cache key

    def __init__(self) -> None:
        self._memo: OrderedDict[int, tuple[Any, list[Item]]] = OrderedDict()

    def items(self, messages: Sequence[Any], views: Sequence[View], start: int,
              verdict: Callable[[Any], tuple[Any, bool] | None] | None = None) -> list[Item]:
        """Every ledger item of the messages ``start, start + 1, ...`` (host objects and their views);
        ``verdict(message)``: (call, failed) where a tool result was judged already."""
        extractor = x.Extractor()
        memo = self._memo
        found: list[Item] = []
        for offset, (message, view) in enumerate(zip(messages, views)):
            index = start + offset
            hit = memo.get(id(message))
            if hit is not None and hit[0] is message and (not hit[1] or hit[1][0].src == index):
                if view.calls:  # a later result is read with its call
                    extractor.remember(view)
                found.extend(hit[1])
                continue
            hint = verdict(message) if verdict is not None and view.role == "tool" else None
            items = extractor.items(view, index, hint)
            memo[id(message)] = (message, items)
            found.extend(items)
        while len(memo) > MEMO_MESSAGES:
            memo.popitem(last=False)
        return found

    # --- the summarizer protocol (chunks of views without positions; used beside model summaries) ---

    def summarize(self, messages: Sequence[View], budget: int, count: CountTokens) -> str:
        return render(merge(x.extract(messages, 0)), budget, count)[0]

    def merge(self, summaries: Sequence[str], budget: int, count: CountTokens) -> str:
        items: list[Item] = []
        for summary in summaries:
            items.extend(parse_items(summary))
        return render(merge(items), budget, count)[0]
