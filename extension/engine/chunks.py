"""Chunking the old part of a conversation, and the cache keys of chunk summaries.

Chunks are cut greedily from the start of the foldable region at ``chunkTokens``, and only where a
cut is legal (never before a tool message), so every chunk but the last depends only on messages
that already exist: as the conversation grows, earlier chunks, and so their keys, stay the same.

For model summaries (:func:`closed_chunks`) the size is measured in *units* (characters, or
tiktoken tokens), which never change for a message, rather than in calibrated tokens, which move a
little with every turn's calibration: a boundary that moved would turn every later chunk into a
new one and have the model summarise it again. Only *closed* chunks go to the model: those the
greedy rule has ended at or before the end of the region; the open rest is summarised
deterministically until it closes (see :mod:`context_compactor.engine.summaries`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from .measure import Entry


def chunk_bounds(entries: Sequence[Entry], start: int, stop: int, chunk_tokens: int) -> list[tuple[int, int]]:
    """``[start, stop)`` split into consecutive (first, end) ranges of about ``chunk_tokens`` each."""
    bounds = []
    first, size = start, 0
    for i in range(start, stop):
        tokens = entries[i].tokens
        if size and size + tokens > chunk_tokens and entries[i].view.role != "tool":
            bounds.append((first, i))
            first, size = i, 0
        size += tokens
    if first < stop:
        bounds.append((first, stop))
    return bounds


def closed_chunks(entries: Sequence[Entry], start: int, stop: int, chunk_units: int) -> list[tuple[int, int]]:
    """The chunks of ``[start, stop)`` already closed by the greedy rule, sized in units.

    A chunk closes at message ``i`` when adding ``i`` would pass ``chunk_units`` (and ``i`` is not
    a tool message); so whether the chunk ending at ``stop`` is closed depends on message ``stop``,
    which must exist. The rest of the region, ``[last end, stop)``, is the open chunk.
    """
    bounds = []
    first, size = start, 0
    for i in range(start, min(stop + 1, len(entries))):
        units = entries[i].units
        if size and size + units > chunk_units and entries[i].view.role != "tool":
            bounds.append((first, i))
            first, size = i, 0
        size += units
    return bounds


def effective_chunk_tokens(chunk_tokens: int, readable_tokens: int, growth_tokens: int | None = None) -> int:
    """The chunk size for model summaries: ``chunkTokens``, capped to what the summary model can read.

    ``growth_tokens`` (how much the prompt grows between compactions, trigger minus target), when
    given, caps it too: a chunk larger than that would leave most newly folded turns to the
    deterministic summary until it closes.
    """
    size = min(chunk_tokens, readable_tokens)
    if growth_tokens:
        size = min(size, max(1024, growth_tokens))
    return max(256, size)


def chunk_key(identity: str, prompt_version: str, budget: int, entries: Sequence[Entry]) -> str:
    """The cache key of one chunk's summary: its content, and who summarized it how."""
    h = hashlib.sha256(f"chunk\n{identity}\n{prompt_version}\n{budget}\n".encode())
    for entry in entries:
        h.update(entry.digest.encode())
        h.update(b"\n")
    return h.hexdigest()


def merge_key(identity: str, prompt_version: str, budget: int, keys: Sequence[str]) -> str:
    """The cache key of a merged summary of several chunk summaries."""
    h = hashlib.sha256(f"merge\n{identity}\n{prompt_version}\n{budget}\n".encode())
    h.update("\n".join(keys).encode())
    return h.hexdigest()
