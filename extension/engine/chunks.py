"""Chunking the old part of a conversation, and the cache keys of chunk summaries.

Chunks are cut greedily from the start of the foldable region at ``chunkTokens``, and only where a
cut is legal (never before a tool message), so every chunk but the last depends only on messages
that already exist: as the conversation grows, earlier chunks, and so their keys, stay the same.
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
