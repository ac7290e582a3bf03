"""The built-in summarizer: the session ledger, built deterministically from the original messages.

It is the embedded default and the base under any model: extraction (:mod:`.extract`) reads each
message once (memoised by content, so later compactions pay for new messages only), the items
of the whole folded region merge into one ledger (:func:`.ledger.merge`), and the ledger renders
within its budget (:func:`.ledger.render`). Same input, same bytes out.
"""

from __future__ import annotations

import sys
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

from context_compactor.messages import View

from . import CountTokens
from . import extract as x
from .ledger import Item, merge, parse_items, render

# The items of messages read before, by content, across compactions and sessions: capped in bytes
# (the items' text), and holding no message: a gateway's request body is gone after its turn.
MEMO_BYTES = 16 * 2**20  # a 1.2M-token session's items are about 6 MB: both passes of a compaction hit
_ENTRY_BYTES = 200  # a memo entry's own cost (its slot in the dict, the list), about


class ExtractiveSummarizer:
    """Ledger summaries by extraction: no model, no network, deterministic."""

    identity = "extractive"
    prompt_version = "ledger-112"  # bump whenever extraction or rendering changes: it is part of every cache key

    def __init__(self, memo_bytes: int = MEMO_BYTES) -> None:
        # key -> (items, their size); the key is what the items are a function of (see _key)
        self._memo: OrderedDict[tuple[Any, ...], tuple[list[Item], int]] = OrderedDict()
        self._memo_bytes, self.memo_limit = 0, memo_bytes

    def items(self, messages: Sequence[Any], views: Sequence[View], start: int,
              verdict: Callable[[Any], tuple[Any, bool] | None] | None = None) -> list[Item]:
        """Every ledger item of the messages ``start, start + 1, ...`` (host objects and their views);
        ``verdict(message)``: (call, failed) where a tool result was judged already."""
        extractor = x.Extractor()
        memo = self._memo
        found: list[Item] = []
        for offset, (message, view) in enumerate(zip(messages, views)):
            index = start + offset
            hint = verdict(message) if verdict is not None and view.role == "tool" else None
            key = _key(extractor, view, index, hint)
            hit = memo.get(key)
            if hit is not None:
                memo.move_to_end(key)
                if view.role == "assistant":  # a later result is read with its call
                    extractor.remember(view)
                elif view.role == "user":  # and with the request it answers
                    extractor.heard(hit[0])
                elif view.role == "tool":  # the agent's next words report on it
                    extractor.read(view, index, hit[0])
                found.extend(hit[0])
                continue
            items = extractor.items(view, index, hint)
            self._remember(key, items)
            found.extend(items)
        return found

    def _remember(self, key: tuple[Any, ...], items: list[Item]) -> None:
        size = _ENTRY_BYTES + sys.getsizeof(key) + sum(sys.getsizeof(item) + sum(map(sys.getsizeof, item))
                                                       for item in items)
        memo = self._memo
        memo[key] = (items, size)
        self._memo_bytes += size
        while self._memo_bytes > self.memo_limit and memo:
            _, (_, dropped) = memo.popitem(last=False)
            self._memo_bytes -= dropped

    # --- the summarizer protocol (chunks of views without positions; used beside model summaries) ---

    def summarize(self, messages: Sequence[View], budget: int, count: CountTokens) -> str:
        return render(merge(x.extract(messages, 0)), budget, count)[0]

    def merge(self, summaries: Sequence[str], budget: int, count: CountTokens) -> str:
        items: list[Item] = []
        for summary in summaries:
            items.extend(parse_items(summary))
        return render(merge(items), budget, count)[0]


def _key(extractor: x.Extractor, view: View, index: int, hint: tuple[Any, bool] | None) -> tuple[Any, ...]:
    """What a message's items are a function of (see :meth:`Extractor.items`): its view, its position, and
    for a tool result the call it answers, the verdict on it and the words of the request it answers. Kept
    as hashes and lengths, never as the text (a string's hash is computed once per string object)."""
    call: Any = None
    failed: bool | None = None
    asked: frozenset[str] = frozenset()
    read = 0
    if view.role == "tool":
        call = extractor.calls.get(view.call_id or "") or (extractor.last_call if not view.call_id else None)
        failed = hint[1] if hint is not None and hint[0] == call else None
        asked = extractor.asked
    elif view.role == "assistant":
        failed = extractor.after_output  # its first words report on outputs (see Extractor.items), which it may quote
        read = hash((tuple(extractor.outputs), tuple(extractor.origins)))  # (which calls: a quote of theirs is their error)
    return (index, view.role, len(view.text), hash(view), hash(call), failed, hash(asked), read)
