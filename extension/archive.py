"""The archive's full-text side: what a message is indexed by, the FTS5 index, search, paging, pruning.

    archive_fts(text, sess)   FTS5, contentless (the original stays in ``archive.message`` only),
                              porter stemming, rowid = archive.id; ``sess`` holds one token per
                              session, so a search within a session reads only that session's rows
    meta(key, value)          ``fts_upto``: every archive row with id <= this one is indexed

The index is derived data and lags the archive on purpose. ``Store.archive`` writes rows only: a
cold compaction archives ~3,000 messages at once, and tokenizing a million tokens of text costs
several times what the rest of the compaction does. :func:`index_pending` catches up (the hooks may
call it off the reply's path); :func:`search` runs it first, so a search always sees every row.
Indexing by id also covers rows written by an older release that knew nothing of the index.

Every function here takes the store's connection and runs inside the caller's lock.
"""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import InputError
from .messages import View, view_of

# Bump when message_text() or the tokenizer changes: the migration that bumps it rebuilds the index
# (a contentless index deletes a row by its original values, so they must be computed the same way).
FTS_VERSION = 1
FTS_SCHEMA = (
    "CREATE VIRTUAL TABLE archive_fts USING fts5(text, sess, content='', "
    "tokenize='porter unicode61 remove_diacritics 2')",
    # Rank by BM25 on the text only; the session token is a filter, not evidence.
    "INSERT INTO archive_fts(archive_fts, rank) VALUES ('rank', 'bm25(1.0, 0.0)')",
)
INDEX_BATCH = 2000  # rows per indexing transaction: other writers wait at most one batch
MAX_TERMS = 16
SAMPLE_ROWS = 2000  # the latest rows a term's share of documents is judged by
SNIPPET_CHARS = 200
# Words that match nearly every message: dropping them keeps a search fast and its ranking sharp.
STOPWORDS = frozenset(
    "a an and are as at be but by did do does for from had has have how i if in into is it its me my no not "
    "of on or our so that the their then there these this to us was we were what when where which who why "
    "will with you your".split())
_WORD = re.compile(r"\w+", re.UNICODE)


@dataclass(frozen=True, slots=True)
class Archived:
    """Where an archived message sits: its row ``id``, its session, ``index`` (its 0-based position in
    the session's history, None when the writer did not say), role, turn and tool."""

    id: int
    session: str
    index: int | None
    role: str
    turn: int | None
    tool: str | None


@dataclass(frozen=True, slots=True)
class Hit(Archived):
    """One search result; ``score`` is BM25, higher is better."""

    snippet: str
    score: float


@dataclass(frozen=True, slots=True)
class Original(Archived):
    """One archived message and a page of its text: ``text`` is ``full_text[offset:offset+limit]``;
    ``next_offset`` is where the next page starts, None on the last page."""

    archived_at: float
    message: Any
    text: str
    offset: int
    total_chars: int
    next_offset: int | None


Ref = int | tuple[str, int]


def message_text(message: Any) -> str:
    """The text a message is indexed and paged by: its content, then each tool call on its own line."""
    if not isinstance(message, dict):
        return message if isinstance(message, str) else json.dumps(message, ensure_ascii=False, default=str)
    try:
        view = view_of(message)
    except (AttributeError, TypeError, ValueError):  # hosts' messages are unchecked: index what is there
        return json.dumps(message, ensure_ascii=False, default=str)
    calls = "".join(f"\n-> {call.name} {call.arguments}" for call in view.calls)
    return f"{view.text}{calls}" if view.text else calls.lstrip("\n")


def tools_of(messages: Sequence[Any], views: Sequence[View] | None = None) -> list[str | None]:
    """The tool each message is about: an assistant's calls by name, a result by its call's name
    (``views``: the messages read already, when the caller has them)."""
    names: dict[str, str] = {}
    out: list[str | None] = []
    for k, message in enumerate(messages):
        tool: str | None = None
        try:
            view = views[k] if views is not None else view_of(message) if isinstance(message, dict) else None
        except (AttributeError, TypeError, ValueError):
            view = None
        if view is not None and view.calls:
            names.update((call.id, call.name) for call in view.calls if call.id)
            tool = ",".join(dict.fromkeys(call.name for call in view.calls if call.name)) or None
        elif view is not None and view.role == "tool":
            tool = view.tool_name or names.get(view.call_id or "") or message.get("toolName")
        out.append(tool[:200] if isinstance(tool, str) else None)
    return out


def session_token(session_key: str) -> str:
    """One FTS token that stands for a session, whatever characters its key holds."""
    return "s" + hashlib.sha256(session_key.encode("utf-8")).hexdigest()[:20]


def query_terms(query: str) -> list[str]:
    """The words of a user's query, lower-cased, stopwords dropped unless nothing else is left.

    Only word characters survive, and each term is quoted when matched, so FTS5 syntax in the input
    (quotes, ``*``, ``NEAR``, ``AND``, ``col:``) is searched for as words, never obeyed.
    """
    words = list(dict.fromkeys(w.lower() for w in _WORD.findall(query)))
    kept = [w for w in words if w not in STOPWORDS] or words
    if not kept:
        raise InputError(f"the query {query!r} has no words to search for (give one or more words)")
    return kept[:MAX_TERMS]


def _match(terms: Sequence[str], session: str | None) -> str:
    text = "text : (" + " OR ".join(f'"{t}"' for t in terms) + ")"
    return f'sess : "{session_token(session)}" AND {text}' if session is not None else text


def snippet(text: str, terms: Sequence[str], width: int = SNIPPET_CHARS) -> str:
    """The ``width`` characters of ``text`` that hold the most distinct query terms, on one line."""
    lower = text.lower()
    # A term's first five letters stand in for its stem, so "configured" finds "configuration".
    stems = [t[:5] if len(t) > 5 else t for t in terms]
    spots = sorted((i, s) for s in stems for i in _positions(lower, s))
    best, best_count = 0, 0
    for start, _ in spots:
        count = len({s for i, s in spots if start <= i < start + width})
        if count > best_count:
            best, best_count = start, count
    begin = max(0, min(best - width // 4, len(text) - width))
    piece = " ".join(text[begin:begin + width].split())
    return ("..." if begin > 0 else "") + piece + ("..." if begin + width < len(text) else "")


def _positions(text: str, word: str, cap: int = 50) -> Iterable[int]:
    at = text.find(word)
    while at >= 0 and cap > 0:
        yield at
        at, cap = text.find(word, at + 1), cap - 1


def index_pending(db: sqlite3.Connection, batch: int = INDEX_BATCH, stop: Callable[[], bool] | None = None) -> int:
    """Index every archive row not indexed yet, ``batch`` rows per transaction, until ``stop()`` says
    so between batches; returns how many."""
    done = 0
    while stop is None or not stop():
        db.execute("BEGIN IMMEDIATE")
        try:
            upto = int(db.execute("SELECT value FROM meta WHERE key = 'fts_upto'").fetchone()[0])
            rows = db.execute("SELECT id, session_key, message FROM archive WHERE id > ? ORDER BY id LIMIT ?",
                              (upto, batch)).fetchall()
            if rows:
                db.executemany("INSERT INTO archive_fts(rowid, text, sess) VALUES (?, ?, ?)",
                               [(i, message_text(_loads(m)), session_token(s)) for i, s, m in rows])
                db.execute("UPDATE meta SET value = ? WHERE key = 'fts_upto'", (rows[-1][0],))
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        done += len(rows)
        if len(rows) < batch:
            break
    return done


def unindex(db: sqlite3.Connection, ids: Sequence[int]) -> None:
    """Take rows out of the index (inside the caller's transaction), before they are deleted."""
    upto = int(db.execute("SELECT value FROM meta WHERE key = 'fts_upto'").fetchone()[0])
    indexed = [i for i in ids if i <= upto]
    for start in range(0, len(indexed), 500):
        part = indexed[start:start + 500]
        rows = db.execute(f"SELECT id, session_key, message FROM archive WHERE id IN ({','.join('?' * len(part))})",
                          part).fetchall()
        db.executemany("INSERT INTO archive_fts(archive_fts, rowid, text, sess) VALUES ('delete', ?, ?, ?)",
                       [(i, message_text(_loads(m)), session_token(s)) for i, s, m in rows])


def search(db: sqlite3.Connection, query: str, session: str | None, limit: int) -> list[Hit]:
    """The ``limit`` best BM25 matches for ``query`` (any of its words), in one session or all."""
    terms = _discriminating(db, query_terms(query))
    rows = db.execute(
        "SELECT a.id, a.session_key, a.idx, a.role, a.turn, a.tool, a.message, f.rank FROM "
        "(SELECT rowid, rank FROM archive_fts WHERE archive_fts MATCH ? ORDER BY rank LIMIT ?) AS f "
        "JOIN archive AS a ON a.id = f.rowid ORDER BY f.rank, a.id",
        (_match(terms, session), limit)).fetchall()
    return [Hit(id=i, session=s, index=idx, role=r, turn=turn, tool=tool,
                snippet=snippet(message_text(_loads(m)), terms), score=round(-rank, 4))
            for i, s, idx, r, turn, tool, m, rank in rows]


def _discriminating(db: sqlite3.Connection, terms: list[str]) -> list[str]:
    """The terms without those in most messages (the rarest one is kept if all are).

    BM25 gives a term found in over half the documents no weight at all, yet counts all of them
    for it: at 1M messages that count was 50 ms a frequent word. A sample of the latest rows tells
    such words apart in well under a millisecond each, so they are left out of the match.
    """
    upto = int(db.execute("SELECT value FROM meta WHERE key = 'fts_upto'").fetchone()[0])
    since = max(0, upto - SAMPLE_ROWS)
    if upto - since < 200 or len(terms) < 2:  # too few rows to judge by, or nothing to choose between
        return terms
    counts = {t: db.execute("SELECT count(*) FROM archive_fts WHERE archive_fts MATCH ? AND rowid > ?",
                            (f'text : "{t}"', since)).fetchone()[0] for t in terms}
    kept = [t for t in terms if counts[t] * 2 <= upto - since]
    return kept or [min(terms, key=counts.__getitem__)]


def fetch(db: sqlite3.Connection, ref: Ref, offset: int, limit_chars: int) -> Original | None:
    """An archived message by id or by (session, index), with one page of its text; None if absent."""
    if offset < 0 or limit_chars <= 0:
        raise InputError(f"offset {offset} and limit_chars {limit_chars}: give offset >= 0 and limit_chars > 0")
    cols = "id, session_key, idx, role, turn, tool, archived_at, message"
    if isinstance(ref, tuple):
        row = db.execute(f"SELECT {cols} FROM archive WHERE session_key = ? AND idx = ? ORDER BY id DESC LIMIT 1",
                         ref).fetchone()
    else:
        row = db.execute(f"SELECT {cols} FROM archive WHERE id = ?", (ref,)).fetchone()
    if row is None:
        return None
    message = _loads(row[7])
    full = message_text(message)
    end = min(len(full), offset + limit_chars)
    return Original(id=row[0], session=row[1], index=row[2], role=row[3], turn=row[4], tool=row[5],
                    archived_at=row[6], message=message, text=full[offset:end], offset=offset,
                    total_chars=len(full), next_offset=end if end < len(full) else None)


def parse_ref(text: str, session: str | None = None) -> Ref:
    """``42`` (a row id), ``SESSION#7`` or, with ``session``, ``7`` / ``#7`` (a history index)."""
    raw = text.strip()
    if session is not None:
        number = raw[1:] if raw.startswith("#") else raw
        if not number.isdigit():
            raise InputError(f"{text!r} is not a message index (give the number cited as [#N], e.g. 12)")
        return (session, int(number))
    key, hashmark, number = raw.rpartition("#")
    if hashmark and key and number.isdigit():
        return (key, int(number))
    if raw.isdigit():
        return int(raw)
    raise InputError(f"{text!r} is not an archive id (give a row id such as 42, or SESSION#INDEX such as main#12)")


def _loads(raw: str) -> Any:
    try:
        return json.loads(raw)
    except ValueError:
        return raw


def prune(db: sqlite3.Connection, max_mb: float | None, max_days: float | None, now: float) -> int:
    """Drop sessions idle past ``max_days``, then the oldest sessions' messages (whole sessions
    first, the newest session last) until the database fits ``max_mb``; give the space back.

    Session states idle past ``max_days`` go too. Returns how many archive rows were removed.
    """
    removed = 0
    db.execute("BEGIN IMMEDIATE")
    try:
        if max_days:
            cutoff = now - max_days * 86400
            ids = [i for (i,) in db.execute(
                "SELECT id FROM archive WHERE session_key IN (SELECT session_key FROM archive GROUP BY session_key "
                "HAVING MAX(archived_at) < ?)", (cutoff,))]
            removed += _delete(db, ids)
            db.execute("DELETE FROM sessions WHERE updated < ?", (cutoff,))
        for _ in range(3) if max_mb else ():  # the size per row is an estimate: look again after each pass
            excess = _used_bytes(db) - max_mb * 1e6  # type: ignore[operator]  # max_mb is set here
            if excess <= 0:
                break
            gone = _delete(db, _oldest(db, excess))
            removed += gone
            if not gone:
                break
        if removed:
            db.execute("INSERT INTO archive_fts(archive_fts) VALUES ('optimize')")
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    if removed:
        if db.execute("PRAGMA auto_vacuum").fetchone()[0] == 2:
            db.executescript("PRAGMA incremental_vacuum;")  # one page per step: executescript steps to the end
        else:  # a file from before auto_vacuum: the whole file is rewritten once
            db.execute("VACUUM")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()  # the freed pages leave the WAL too
    return removed


def _used_bytes(db: sqlite3.Connection) -> float:
    pages, free = (db.execute(f"PRAGMA {p}").fetchone()[0] for p in ("page_count", "freelist_count"))
    return float((pages - free) * db.execute("PRAGMA page_size").fetchone()[0])


def _oldest(db: sqlite3.Connection, excess: float) -> list[int]:
    """Ids of the oldest sessions' rows (by their last archived message) that free about ``excess`` bytes."""
    (chars,) = db.execute("SELECT TOTAL(length(message)) FROM archive").fetchone()
    per_char = _used_bytes(db) / max(1.0, chars)  # pages include the index, the cache and overhead
    ids: list[int] = []
    freed = 0.0
    rows = db.execute(
        "SELECT a.id, length(a.message) FROM archive AS a JOIN (SELECT session_key, MAX(archived_at) AS last "
        "FROM archive GROUP BY session_key) AS s ON s.session_key = a.session_key ORDER BY s.last, a.id")
    try:
        for row_id, size in rows:
            if freed >= excess:
                break
            ids.append(row_id)
            freed += size * per_char
    finally:
        rows.close()  # a statement left open would keep the vacuum from freeing pages
    return ids


def _delete(db: sqlite3.Connection, ids: Sequence[int]) -> int:
    unindex(db, ids)
    for start in range(0, len(ids), 500):
        part = ids[start:start + 500]
        db.execute(f"DELETE FROM archive WHERE id IN ({','.join('?' * len(part))})", part)
    return len(ids)
