"""How ``recall_history`` and automatic recall rank a session's archive: BM25 candidates from the store,
re-ranked against the session (a query's word forms; a tool result inherits its call's score; a
match's share of the query's words; a statement the user corrected later yields to its correction;
the later of equal matches wins).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from context_compactor.archive import Hit, query_terms
from context_compactor.errors import InputError, StoreError
from context_compactor.store import Store
from context_compactor.summarizer.user_words import _CORRECTION as CORRECTION  # the ledger's test, shared
from context_compactor.summarizer.ledger import values

SEARCH_LIMIT = 5
CANDIDATES = 60  # BM25 candidates re-ranked per search
CALL_WEIGHT = 1.0  # how much of its call's score a tool result inherits (the call says what it is)
TIE = 0.005  # scores within this share of each other count as equal: the later message wins
_SUFFIXES = ("ations", "ation", "ures", "ure", "ing", "ed", "es", "s")


def expand(query: str) -> str:
    """The query with each word's bare stem added ("failure" -> "fail"), so that BM25's porter stems,
    which keep "failur" and "fail" apart, still meet across a word's forms."""
    words = re.findall(r"\w+", query)
    extra = []
    for word in words:
        lower = word.lower()
        for suffix in _SUFFIXES:
            if lower.endswith(suffix) and len(lower) - len(suffix) >= 4:
                extra.append(lower[: -len(suffix)])
                break
    return " ".join([query, *[e for e in dict.fromkeys(extra) if e not in (w.lower() for w in words)]])


def search(store: Store, query: str, session: str, limit: int = SEARCH_LIMIT, candidates: int = CANDIDATES) -> list[Hit]:
    """The best matches for ``query`` among a session's archived messages, ranked for recall.

    BM25 (``Store.search``) finds the candidates; they are then scored against the session: a tool
    result also counts what its call matched (``bash {"command": "git rev-parse HEAD"}`` is what a
    bare hash answers), and of messages that match about as well (within ``TIE``), the later one
    comes first: in a conversation, a later statement replaces an earlier one. Raises InputError
    for a query with no words.
    """
    hits = store.search(expand(query), session=session, limit=max(limit, candidates))
    if not hits:
        return []
    scores: dict[int, float] = {h.id: h.score for h in hits}
    pool: dict[int, Hit] = {h.id: h for h in hits}
    for hit in hits:
        if hit.index is None or hit.role != "assistant" or not hit.tool or hit.snippet.lstrip(".").strip()[:3] != "-> ":
            continue  # only a bare call: an assistant's own words stay a hit of their own
        for result in _results_of(store, session, hit.index):
            if result.id not in pool:
                pool[result.id] = result
                scores[result.id] = 0.0
            scores[result.id] += CALL_WEIGHT * hit.score
    _coordinate(store, query, pool, scores)
    _corrections(store, session, pool, scores)
    best = max(max(scores.values()), 1e-9)  # in a tiny archive every word is common, and BM25 gives 0
    ranked = sorted(pool.values(), key=lambda h: (-round(scores[h.id] / best / TIE), -(h.index or 0), h.id))
    return [_rescored(h, scores[h.id]) for h in ranked[:limit]]


COORD = 0.5  # how much a match's share of the query's words weighs (coordination, as in Lucene's coord)


def _coordinate(store: Store, query: str, pool: dict[int, Hit], scores: dict[int, float]) -> None:
    """Weigh each candidate by the share of the query's words it holds, a word's form by its first four
    letters ("http" finds "httpx", "retries" "retrying"); a tool result counts its call's too.

    BM25 adds up what each word earns, so a long message that repeats two words can outscore a short
    one that holds all of them; the share puts the one that answers the whole question first.
    """
    terms = query_terms(query)
    stems = [re.compile(r"\b" + re.escape(t[:4] if len(t) > 4 else t)) for t in terms]
    calls: dict[int, str] = {}
    for hit in pool.values():
        text = _text(store, hit).lower()
        if hit.role == "tool" and hit.index is not None:
            text += "\n" + calls.setdefault(hit.index, _call_text(store, hit))
        share = sum(1 for s in stems if s.search(text)) / len(stems)
        scores[hit.id] *= (1 - COORD) + COORD * share


def _call_text(store: Store, result: Hit) -> str:
    """The text of the assistant message whose call a tool result answers (the nearest before it)."""
    for i in range((result.index or 0) - 1, max(-1, (result.index or 0) - 9), -1):
        try:
            original = store.fetch((result.session, i), 0, 2000)
        except (InputError, StoreError):
            return ""
        if original is None:
            return ""
        if original.role != "tool":
            return original.text.lower()
    return ""


# Words a user's correction opens with or carries (the ledger's own test, CORRECTION, decides; these
# only find the candidates).
_CUES = "sorry actually correction wait oops nope scratch meant mean instead update change revision make mixed"
LINK_SHARE = 0.6  # statements matching at least this share of the best score are looked at
CORRECTED = 0.9  # what a corrected statement keeps of its score; its correction gets the statement's score


def _corrections(store: Store, session: str, pool: dict[int, Hit], scores: dict[int, float]) -> None:
    """Rank a user's correction with the statement it corrects, just above it.

    A later user message that the ledger reads as a correction (:data:`CORRECTION`) and whose values
    look like the statement's (the same shape, or a shared word) replaces it: "Sorry, I meant
    release/2035.2" answers whatever "Cut the release from release/2020.8" answered, though it shares
    no word with the question.
    """
    best = max(scores.values())
    statements = sorted((h for h in pool.values() if h.role == "user" and h.index is not None
                         and scores[h.id] >= LINK_SHARE * best), key=lambda h: -scores[h.id])[:3]
    if not statements:
        return
    try:
        cues = [h for h in store.search(_CUES, session=session, limit=CANDIDATES) if h.role == "user"]
    except (InputError, StoreError):
        return
    texts = {h.id: _text(store, h) for h in [*statements, *cues]}
    corrections = [h for h in cues if CORRECTION.search(texts[h.id][:400])]
    for statement in statements:
        olds = values(texts[statement.id])
        if not olds:
            continue
        linked = [(_likeness(olds, values(texts[c.id])), -(c.index or 0), c) for c in corrections
                  if (c.index or 0) > (statement.index or 0)]
        linked = [item for item in linked if item[0] >= 2]
        if not linked:
            continue
        _, _, correction = max(linked, key=lambda item: (item[0], item[1]))
        pool.setdefault(correction.id, correction)
        scores[correction.id] = max(scores.get(correction.id, 0.0), scores[statement.id])
        scores[statement.id] *= CORRECTED


def _likeness(olds: Sequence[str], news: Sequence[str]) -> int:
    """How surely new values replace old ones (2 links them): only values of one kind compare (the same
    punctuation: an address with an address, a bucket with a bucket); the same shape counts 2, each
    shared word 1. Bare numbers never link: one looks like any other."""
    best = 0
    for old in olds:
        for new in news:
            kind = _skeleton(old)
            if not kind or kind != _skeleton(new):
                continue
            words = set(re.findall(r"[a-z]{3,}", old.lower())) & set(re.findall(r"[a-z]{3,}", new.lower()))
            best = max(best, 2 * (re.sub(r"\d+", "0", old) == re.sub(r"\d+", "0", new)) + len(words))
    return best


def _skeleton(value: str) -> str:
    return re.sub(r"[A-Za-z0-9]+", "", value)


def _text(store: Store, hit: Hit) -> str:
    try:
        original = store.fetch(hit.id, 0, 4000)
    except (InputError, StoreError):
        return hit.snippet
    return original.text if original is not None else hit.snippet


def _results_of(store: Store, session: str, index: int, most: int = 8) -> list[Hit]:
    """The tool results that follow an assistant's calls at ``index``, as hits."""
    out = []
    for i in range(index + 1, index + 1 + most):
        original = store.fetch((session, i), 0, 400)
        if original is None or original.role != "tool":
            break
        out.append(Hit(id=original.id, session=session, index=original.index, role=original.role, turn=original.turn,
                       tool=original.tool, snippet=" ".join(original.text.split())[:200], score=0.0))
    return out


def _rescored(hit: Hit, score: float) -> Hit:
    return Hit(id=hit.id, session=hit.session, index=hit.index, role=hit.role, turn=hit.turn, tool=hit.tool,
               snippet=hit.snippet, score=round(score, 4))
