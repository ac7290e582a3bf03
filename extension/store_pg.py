"""The store's PostgreSQL engine: one database that several ``serve`` replicas share.

``storePath`` / ``--store`` given as ``postgresql://user:password@host:5432/db`` opens it (psycopg 3
and its pool: ``pip install 'context-compactor[postgres]'``). What differs from SQLite, and why:

- **A pool of connections**, each statement on one taken for it (autocommit), a transaction only where
  several statements must stand together. A dropped connection is replaced by the pool; a statement
  that fails on one becomes a StoreError, so the turn fails open (invariant 5).
- **Idempotent archive writes**: ``INSERT ... ON CONFLICT DO NOTHING`` on (session, digest, index),
  so a retried or duplicated write (two replicas folding the same turn) adds no row.
- **Session state under optimistic concurrency**: each row has a ``version``; a write names the
  version this store read or wrote last, and is refused (logged ``store.session_conflict``) when
  another replica wrote in between: the state that was first stays whole, never two half-written.
- **Full-text search** on a ``tsvector`` column (GIN index) filled after the write, as SQLite's index
  is, then ranked like BM25 (each word's ``ts_rank`` weighed by its rarity in the latest rows in
  scope); recall re-ranks the candidates the same way whatever the engine.
- **Migrations** once, under an advisory lock (``store_pg_schema``).
"""

from __future__ import annotations

import json
import math
import re
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from . import archive as fts
from .archive import Hit, Original, Ref
from .errors import InputError, StoreError
from .logs import get_logger
from .messages import View, repaired_text
from .store_contract import MESSAGE_JSON, Retention, SessionInfo, Store, StoreClosed, archive_row
from .store_pg_schema import SCHEMA_VERSION, TS_CONFIG, current_version, migrate

logger = get_logger()

POOL_MIN, POOL_MAX = 1, 8
CONNECT_TIMEOUT = 5.0  # seconds to wait for a connection: a store that is down fails the turn open, soon
BACKOFF_FIRST, BACKOFF_MAX = 1.0, 30.0  # after a timeout, uses fail at once for this long (doubling) while the pool reconnects
_TENANT = re.compile(r"^gw:(t\.[^:]+):")  # the gateway's session keys start with their tenant (gateway.sessions)
_NO_NUL = str.maketrans({"\x00": "\ufffd"})  # PostgreSQL text holds no NUL character


def _psycopg() -> Any:
    try:
        import psycopg
        import psycopg_pool
    except ImportError as exc:
        raise StoreError("a postgresql:// store needs psycopg 3 and its pool: pip install "
                         "'context-compactor[postgres]'", path="postgresql") from exc
    return psycopg, psycopg_pool


def masked(url: str) -> str:
    """The URL fit to print: its password replaced by ``***``."""
    return re.sub(r"(://[^:/@]*):[^@/]*@", r"\1:***@", url)


def tenant_of(session_key: str) -> str:
    """The tenant a session key belongs to ('' when none names one)."""
    found = _TENANT.match(session_key)
    return found.group(1) if found else ""


class PostgresStore(Store):
    """Thread-safe access to a PostgreSQL store through a connection pool."""

    def __init__(self, path: str | Path, *, max_entries: int = 20000, read_only: bool = False) -> None:
        psycopg, pool_module = _psycopg()
        self._psycopg = psycopg
        self.url = str(path)
        self.path = masked(self.url)
        self.max_entries = max_entries
        self.read_only = read_only
        self.closed = False
        self._versions: dict[str, int] = {}  # per session: the version this store read or wrote last
        self._lock = threading.Lock()
        self._clock = 0.0
        self._pool = pool_module.ConnectionPool(
            self.url, min_size=POOL_MIN, max_size=POOL_MAX, open=False, timeout=CONNECT_TIMEOUT,
            kwargs={"autocommit": True, "connect_timeout": int(CONNECT_TIMEOUT)}, name="context-compactor",
            check=pool_module.ConnectionPool.check_connection)  # a connection a restart cut is replaced, not used
        self._pool_timeout = pool_module.PoolTimeout
        self._down_until, self._backoff = 0.0, BACKOFF_FIRST
        try:
            try:
                self._pool.open(wait=True, timeout=CONNECT_TIMEOUT)
            except pool_module.PoolTimeout as exc:
                raise StoreError(f"{self.path}: cannot open the store: no connection to the server within "
                                 f"{CONNECT_TIMEOUT:.0f} s (is it up, and the URL right?)", path=self.path) from exc
            with self._conn("migrate the schema") as conn:
                if read_only:
                    _readable_schema(conn, self.path)
                else:
                    start = migrate(conn, self.path)
                    if start:
                        logger.info("store.migrated", path=self.path, from_version=start)
        except BaseException:
            self._pool.close()
            raise

    @classmethod
    def _open(cls, path: str | Path, *, max_entries: int = 20000, retention: Retention | None = None) -> Store:
        store = cls(path, max_entries=max_entries)
        if retention is not None:
            store.prune(retention)
        return store

    @classmethod
    def _open_read_only(cls, path: str | Path) -> Store:
        return cls(path, read_only=True)

    @property
    def engine(self) -> str:
        return "postgresql"

    def close(self) -> None:
        with self._lock:
            self.closed = True
        self._pool.close()

    @contextmanager
    def _conn(self, doing: str) -> Iterator[Any]:
        """A pooled connection; any database failure leaves as StoreError saying what was being done."""
        if self.closed:
            raise StoreClosed(f"{self.path}: cannot {doing}: the store is closed (its runtime was closed)",
                              path=self.path)
        wait = self._down_until - time.monotonic()
        if wait > 0:  # the server did not answer a moment ago: fail at once, not after another timeout
            raise StoreError(f"{self.path}: cannot {doing}: the server did not answer (next try in {wait:.0f} s)",
                             path=self.path)
        try:
            with self._pool.connection() as conn:
                yield conn
        except self._pool_timeout as exc:
            self._down_until, self._backoff = time.monotonic() + self._backoff, min(BACKOFF_MAX, self._backoff * 2)
            logger.warning("store.unreachable", path=self.path, retry_in=self._backoff / 2)
            raise StoreError(f"{self.path}: cannot {doing}: no connection to the server within "
                             f"{CONNECT_TIMEOUT:.0f} s (is it up?)", path=self.path) from exc
        except self._psycopg.Error as exc:  # after the pool's timeout, which is one
            raise StoreError(f"{self.path}: cannot {doing}: {_reason(exc)}", path=self.path) from exc
        self._backoff = BACKOFF_FIRST

    def _now(self) -> float:
        with self._lock:
            self._clock = max(time.time(), self._clock + 1e-6)
            return self._clock

    # --- summaries ---------------------------------------------------------------------------

    def get(self, key: str) -> str | None:
        with self._conn("read a summary") as conn:
            row = conn.execute("UPDATE summaries SET last_used = %s WHERE key = %s RETURNING text",
                               (self._now(), key)).fetchone()
        return row[0] if row else None

    def put(self, key: str, text: str, summarizer: str) -> None:
        now = self._now()
        with self._conn("save a summary") as conn:
            conn.execute("INSERT INTO summaries(key, text, summarizer, created, last_used) VALUES (%s, %s, %s, %s, %s) "
                         "ON CONFLICT (key) DO UPDATE SET text = excluded.text, last_used = excluded.last_used",
                         (key, repaired_text(text).translate(_NO_NUL), summarizer, now, now))
        self.evict()

    def evict(self) -> int:
        with self._conn("evict summaries") as conn:
            (count,) = conn.execute("SELECT count(*) FROM summaries").fetchone()
            extra = count - self.max_entries
            if extra <= 0:
                return 0
            gone = conn.execute("DELETE FROM summaries WHERE key IN (SELECT key FROM summaries ORDER BY last_used, key "
                                "LIMIT %s FOR UPDATE SKIP LOCKED)", (extra,))
            return int(gone.rowcount)

    def summary_count(self) -> int:
        with self._conn("count summaries") as conn:
            return int(conn.execute("SELECT count(*) FROM summaries").fetchone()[0])

    # --- sessions and calibration --------------------------------------------------------------

    def session(self, session_key: str) -> dict[str, Any]:
        with self._conn("read a session") as conn:
            row = conn.execute("SELECT state, version FROM sessions WHERE session_key = %s",
                               (session_key,)).fetchone()
        if not row:
            self._versions.pop(session_key, None)
            return {}
        self._versions[session_key] = int(row[1])
        try:
            state = json.loads(row[0])
        except ValueError:
            logger.warning("store.session_unreadable", session_key=session_key)
            return {}
        return state if isinstance(state, dict) else {}

    def session_stamp(self, session_key: str) -> object:
        return self.session_version(session_key)

    def session_version(self, session_key: str) -> int | None:
        """The version of a session's saved state (None: never saved): changes whenever any replica writes it."""
        with self._conn("read a session") as conn:
            row = conn.execute("SELECT version FROM sessions WHERE session_key = %s", (session_key,)).fetchone()
        return int(row[0]) if row else None

    def save_session(self, session_key: str, state: dict[str, Any]) -> None:
        """Replace the state, unless another replica wrote it since this store read it (then its state
        stays, whole, and ``store.session_conflict`` says so; the next read here takes it up)."""
        text = json.dumps(state, sort_keys=True).translate(_NO_NUL)
        known = self._versions.get(session_key)
        with self._conn("save a session") as conn:
            if known is None:
                row = conn.execute("INSERT INTO sessions(session_key, state, version, updated) VALUES (%s, %s, 1, %s) "
                                   "ON CONFLICT (session_key) DO NOTHING RETURNING version",
                                   (session_key, text, time.time())).fetchone()
            else:
                row = conn.execute("UPDATE sessions SET state = %s, version = version + 1, updated = %s "
                                   "WHERE session_key = %s AND version = %s RETURNING version",
                                   (text, time.time(), session_key, known)).fetchone()
            if row is None:
                now = conn.execute("SELECT version FROM sessions WHERE session_key = %s", (session_key,)).fetchone()
                self._versions.pop(session_key, None)
                logger.warning("store.session_conflict", session_key=session_key, read_version=known,
                               stored_version=now[0] if now else None)
                return
        self._versions[session_key] = int(row[0])

    def calibration(self, model: str) -> tuple[float, int] | None:
        with self._conn("read a calibration") as conn:
            row = conn.execute("SELECT ratio, samples FROM calibration WHERE model = %s", (model,)).fetchone()
        return (float(row[0]), int(row[1])) if row else None

    def save_calibration(self, model: str, ratio: float, samples: int) -> None:
        with self._conn("save a calibration") as conn:
            conn.execute("INSERT INTO calibration(model, ratio, samples, updated) VALUES (%s, %s, %s, %s) "
                         "ON CONFLICT (model) DO UPDATE SET ratio = excluded.ratio, samples = excluded.samples, "
                         "updated = excluded.updated", (model, ratio, samples, time.time()))

    # --- archive --------------------------------------------------------------------------------

    def archive(self, session_key: str, items: Iterable[tuple[Any, ...]], views: Sequence[View] | None = None) -> int:
        batch = [archive_row(item) for item in items]
        if not batch:
            return 0
        now = time.time()
        tools = fts.tools_of([message for _d, _r, message, _i, _t in batch], views)
        texts = [repaired_text(MESSAGE_JSON.encode(message)).translate(_NO_NUL) for _d, _r, message, _i, _t in batch]
        tenant = tenant_of(session_key)
        with self._conn("archive messages") as conn, conn.transaction():
            turns = _turns(conn, session_key, batch)
            rows = [(session_key, tenant, d, role, text, now, i, turn, tool)
                    for (d, role, _m, i, _t), text, turn, tool in zip(batch, texts, turns, tools)]
            with conn.cursor() as cur:
                cur.execute(
                    "INSERT INTO archive(session_key, tenant, digest, role, message, archived_at, idx, turn, tool) "
                    "SELECT * FROM unnest(%s::text[], %s::text[], %s::text[], %s::text[], %s::text[], "
                    "%s::float8[], %s::int[], %s::int[], %s::text[]) ON CONFLICT DO NOTHING",
                    [list(column) for column in zip(*rows)])
                return int(cur.rowcount)

    def archived(self, session_key: str, digest_prefix: str | None = None) -> list[dict[str, Any]]:
        query = "SELECT digest, role, message FROM archive WHERE session_key = %s"
        args: list[Any] = [session_key]
        if digest_prefix:
            query += " AND left(digest, length(%s)) = %s"
            args += [digest_prefix, digest_prefix]
        with self._conn("read the archive") as conn:
            rows = conn.execute(query + " ORDER BY id", args).fetchall()
        return [{"digest": d, "role": r, "message": json.loads(m)} for d, r, m in rows]

    def index_pending(self, stop: Callable[[], bool] | None = None) -> int:
        """Fill ``tsv`` for rows written without it, a batch per transaction; rows another replica is
        indexing now are skipped (it does them)."""
        done = 0
        while stop is None or not stop():
            with self._conn("index the archive") as conn, conn.transaction():
                rows = conn.execute("SELECT id, message FROM archive WHERE tsv IS NULL ORDER BY id LIMIT %s "
                                    "FOR UPDATE SKIP LOCKED", (fts.INDEX_BATCH,)).fetchall()
                if rows:
                    ids = [i for i, _m in rows]
                    texts = [fts.message_text(fts._loads(m)).translate(_NO_NUL) for _i, m in rows]
                    conn.execute(f"UPDATE archive AS a SET tsv = to_tsvector('{TS_CONFIG}', u.text) FROM "
                                 "unnest(%s::bigint[], %s::text[]) AS u(id, text) WHERE a.id = u.id", (ids, texts))
            done += len(rows)
            if len(rows) < fts.INDEX_BATCH:
                break
        if done:
            self._merge_text_index()
        return done

    def _merge_text_index(self) -> None:
        """Merge what the text indexes hold in their pending lists (GIN's fast update) into their trees now:
        a search reads a pending list whole, and left to autovacuum it grows to megabytes under steady
        writes. Rows just indexed are what it holds, so this is the indexer's work, not a turn's."""
        try:
            with self._conn("merge the text index") as conn:
                conn.execute("SELECT gin_clean_pending_list(i) FROM (VALUES (to_regclass('archive_fts')), "
                             "(to_regclass('archive_fts_session'))) AS v(i) WHERE i IS NOT NULL")
        except StoreError as exc:  # autovacuum does it later; a search is slower until then, never wrong
            logger.warning("store.index_merge_failed", path=self.path, error=str(exc))

    def pending(self) -> int:
        with self._conn("read the archive") as conn:
            return int(conn.execute("SELECT count(*) FROM archive WHERE tsv IS NULL").fetchone()[0])

    def search(self, query: str, session: str | None = None, limit: int = 5) -> list[Hit]:
        if limit <= 0:
            raise InputError(f"limit {limit}: give a number of results above 0")
        terms = fts.query_terms(query)
        try:
            self.index_pending()
        except StoreError as exc:
            logger.warning("store.search_index_stale", path=self.path, error=str(exc))
        with self._conn("search the archive") as conn:
            weights = _weights(conn, terms, session)
            kept = list(weights)
            score = " + ".join(f"ts_rank(a.tsv, plainto_tsquery('{TS_CONFIG}', %s), 1) * %s" for _ in kept)
            match = " || ".join(f"plainto_tsquery('{TS_CONFIG}', %s)" for _ in kept)
            scope, scope_args = ("AND a.session_key = %s AND a.tenant = %s", [session, tenant_of(session)]) \
                if session is not None else ("", [])
            args: list[Any] = [x for t in kept for x in (t, weights[t])] + kept + scope_args + [limit]
            rows = conn.execute(
                f"SELECT a.id, a.session_key, a.idx, a.role, a.turn, a.tool, a.message, {score} AS score "
                f"FROM archive AS a WHERE a.tsv @@ ({match}) {scope} ORDER BY score DESC, a.id LIMIT %s",
                args).fetchall()
        return [Hit(id=i, session=s, index=idx, role=r, turn=turn, tool=tool,
                    snippet=fts.snippet(fts.message_text(fts._loads(m)), kept), score=round(float(sc), 4))
                for i, s, idx, r, turn, tool, m, sc in rows]

    def fetch(self, ref: Ref, offset: int = 0, limit_chars: int = 8000) -> Original | None:
        if offset < 0 or limit_chars <= 0:
            raise InputError(f"offset {offset} and limit_chars {limit_chars}: give offset >= 0 and limit_chars > 0")
        cols = "id, session_key, idx, role, turn, tool, archived_at, message"
        with self._conn("read the archive") as conn:
            if isinstance(ref, tuple):
                row = conn.execute(f"SELECT {cols} FROM archive WHERE session_key = %s AND idx = %s "
                                   "ORDER BY id DESC LIMIT 1", ref).fetchone()
            else:
                row = conn.execute(f"SELECT {cols} FROM archive WHERE id = %s", (ref,)).fetchone()
        if row is None:
            return None
        message = fts._loads(row[7])
        full = fts.message_text(message)
        end = min(len(full), offset + limit_chars)
        return Original(id=row[0], session=row[1], index=row[2], role=row[3], turn=row[4], tool=row[5],
                        archived_at=row[6], message=message, text=full[offset:end], offset=offset,
                        total_chars=len(full), next_offset=end if end < len(full) else None)

    def sessions(self) -> list[SessionInfo]:
        with self._conn("list the archive") as conn:
            rows = conn.execute("SELECT session_key, count(*), sum(length(message)), min(archived_at), max(archived_at) "
                                "FROM archive GROUP BY session_key ORDER BY max(archived_at) DESC, session_key").fetchall()
        return [SessionInfo(s, int(n), int(c), float(a), float(b)) for s, n, c, a, b in rows]

    def size_bytes(self) -> int:
        with self._conn("measure the store") as conn:
            return int(conn.execute(
                "SELECT coalesce(sum(pg_total_relation_size(to_regclass(t))), 0) FROM unnest(ARRAY['summaries', "
                "'sessions', 'calibration', 'archive', 'cc_meta']) AS t").fetchone()[0])

    def prune(self, retention: Retention) -> int:
        """Sessions idle past ``max_days`` go, then the oldest sessions' rows until the archive fits
        ``max_mb`` (autovacuum gives the space to new rows). One replica prunes at a time; the others
        skip it."""
        removed = 0
        with self._conn("prune the archive") as conn, conn.transaction():
            if not conn.execute("SELECT pg_try_advisory_xact_lock(%s)", (0x63632D7072,)).fetchone()[0]:
                return 0
            if retention.max_days:
                cutoff = time.time() - retention.max_days * 86400
                removed += conn.execute(
                    "DELETE FROM archive WHERE session_key IN (SELECT session_key FROM archive GROUP BY session_key "
                    "HAVING max(archived_at) < %s)", (cutoff,)).rowcount
                conn.execute("DELETE FROM sessions WHERE updated < %s", (cutoff,))
            if retention.max_mb:
                removed += _trim(conn, retention.max_mb * 1e6)
        if removed:
            logger.info("store.pruned", path=self.path, rows=removed, size_bytes=self.size_bytes())
        return removed


def _readable_schema(conn: Any, where: str) -> None:
    """Raise StoreError unless the database holds this release's schema (read-only: nothing is migrated)."""
    version = current_version(conn)
    if version != SCHEMA_VERSION:
        raise StoreError(f"{where}: cannot read the store as it is: its schema is {version}, this release reads "
                         f"{SCHEMA_VERSION} (open it once with write access to create or upgrade it)", path=where)


def _turns(conn: Any, session_key: str, batch: list[tuple[Any, ...]]) -> list[int | None]:
    """Each row's turn: given, or the number of user messages archived up to its index."""
    indexes = [i for _d, _r, _m, i, t in batch if i is not None and t is None]
    if not indexes:
        return [t for *_rest, t in batch]
    (users,) = conn.execute("SELECT count(*) FROM archive WHERE session_key = %s AND role = 'user' AND idx < %s",
                            (session_key, min(indexes))).fetchone()
    turn_at: dict[int, int] = {}
    for i, role in sorted((i, role) for _d, role, _m, i, _t in batch if i is not None):
        users += role == "user"
        turn_at[i] = users
    return [t if t is not None else (turn_at[i] if i is not None else None) for _d, _r, _m, i, t in batch]


def _weights(conn: Any, terms: list[str], session: str | None) -> dict[str, float]:
    """Each term's weight, its rarity (BM25's idf) among the latest rows in scope; terms in over half of
    them are left out when there are enough rows to judge by (the rarest one stays).

    The latest rows are found by id alone, then each term is counted among rows from the oldest of them
    on, through the text index: no row's text is read to weigh a query."""
    where, args = ("session_key = %s AND ", [session]) if session is not None else ("", [])
    total, since = conn.execute(f"SELECT count(*), min(id) FROM (SELECT id FROM archive WHERE {where}tsv IS NOT "
                                "NULL ORDER BY id DESC LIMIT %s) AS latest", [*args, fts.SAMPLE_ROWS]).fetchone()
    found = dict.fromkeys(terms, 0)
    if total:
        counts = ", ".join(f"(SELECT count(*) FROM archive WHERE {where}id >= %s AND "
                           f"tsv @@ plainto_tsquery('{TS_CONFIG}', %s))" for _ in terms)
        row = conn.execute(f"SELECT {counts}", [x for t in terms for x in (*args, since, t)]).fetchone()
        found = dict(zip(terms, (int(n) for n in row)))
    total = int(total)
    kept = terms
    if total >= 200 and len(terms) >= 2:
        kept = [t for t in terms if found[t] * 2 <= total] or [min(terms, key=found.__getitem__)]
    return {t: math.log(1 + (total - found[t] + 0.5) / (found[t] + 0.5)) for t in kept}


def _trim(conn: Any, max_bytes: float) -> int:
    """Delete the oldest sessions' rows (whole sessions first) that free about what is above ``max_bytes``."""
    used, chars = conn.execute("SELECT pg_total_relation_size('archive'), coalesce(sum(length(message)), 0) "
                               "FROM archive").fetchone()
    excess = float(used) - max_bytes
    if excess <= 0 or not chars:
        return 0
    per_char = float(used) / float(chars)
    return int(conn.execute(
        "DELETE FROM archive WHERE id IN (SELECT id FROM (SELECT a.id, length(a.message) AS size, "
        "sum(length(a.message)) OVER (ORDER BY s.last, a.id) AS upto FROM archive AS a JOIN (SELECT session_key, "
        "max(archived_at) AS last FROM archive GROUP BY session_key) AS s USING (session_key)) AS o "
        "WHERE upto - size < %s)", (excess / per_char,)).rowcount)


def _reason(exc: BaseException) -> str:
    """The first line of a driver's message (psycopg's carry the server's detail on later lines)."""
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__
