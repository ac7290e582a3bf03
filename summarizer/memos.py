"""Memos of the pure functions of text that extraction calls again and again: a session says the same
again (the agent's "Let me check the logs.", a call rerun, a runbook pasted twice, the same line in the cut of
a message and in the document it belongs to), and each text is read once. Bounded, holding short texts only
(a longer one is read each time), and emptied by :func:`forget` (see ``extract.forget``: a benchmark of cold
compaction starts from nothing). A leaf module, so the ledger and the extractor both can use it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])
REMEMBERED_CHARS = 2_000  # a text up to this long is remembered
_CLEARS: list[Callable[[], None]] = []


def remembered(maxsize: int, chars: int = REMEMBERED_CHARS) -> Callable[[F], F]:
    """An lru_cache of ``maxsize`` for a function of a text (its first argument, up to ``chars`` long) and
    other hashable arguments, passed by position. What it returns is shared: never to be changed."""
    def wrap(read: F) -> F:
        memo = functools.lru_cache(maxsize=maxsize)(read)
        _CLEARS.append(memo.cache_clear)

        @functools.wraps(read)
        def recall(text: str, *args: Any) -> Any:
            return memo(text, *args) if len(text) <= chars else read(text, *args)
        return recall  # type: ignore[return-value]
    return wrap


def forget() -> None:
    """Empty every memo."""
    for clear in _CLEARS:
        clear()
