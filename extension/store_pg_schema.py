"""The PostgreSQL store's schema and how it moves forward.

    cc_meta(key, value)                         ``schema_version``
    summaries(key, text, summarizer, created, last_used)
    sessions(session_key, state, version, updated)      ``version`` goes up by one per write: a write
                                                        names the version it read (optimistic)
    calibration(model, ratio, samples, updated)
    archive(id, session_key, tenant, digest, role, message, archived_at, idx, turn, tool, tsv)
                                                        unique on (session_key, digest, idx): a
                                                        write that is done again adds nothing;
                                                        ``tsv`` (GIN) is filled after the write
                                                        v2: a GIN index on (session_key, tsv), for
                                                        search within a session (with btree_gin)
    cc_english                                          a text search configuration: English
                                                        stems without a stopword list (a query of
                                                        stopwords still finds them, as in SQLite)

Migrations run in one transaction under a transaction-level advisory lock, so replicas that start
at once take turns: the first one migrates, the others find the schema current.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .errors import StoreError

ADVISORY_KEY = 0x63632D7374  # "cc-st": the lock every replica takes to migrate
TS_CONFIG = "cc_english"

_V1 = (
    "CREATE TABLE cc_meta (key text PRIMARY KEY, value text NOT NULL)",
    "CREATE TABLE summaries (key text PRIMARY KEY, text text NOT NULL, summarizer text NOT NULL, "
    "created double precision NOT NULL, last_used double precision NOT NULL)",
    "CREATE INDEX summaries_last_used ON summaries (last_used)",
    "CREATE TABLE sessions (session_key text PRIMARY KEY, state text NOT NULL, version bigint NOT NULL, "
    "updated double precision NOT NULL)",
    "CREATE INDEX sessions_updated ON sessions (updated)",
    "CREATE TABLE calibration (model text PRIMARY KEY, ratio double precision NOT NULL, samples integer NOT NULL, "
    "updated double precision NOT NULL)",
    "CREATE TABLE archive (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, session_key text NOT NULL, "
    "tenant text NOT NULL DEFAULT '', digest text NOT NULL, role text NOT NULL, message text NOT NULL, "
    "archived_at double precision NOT NULL, idx integer, turn integer, tool text, tsv tsvector)",
    "CREATE UNIQUE INDEX archive_once ON archive (session_key, digest, coalesce(idx, -1))",
    "CREATE INDEX archive_position ON archive (session_key, idx)",
    "CREATE INDEX archive_tenant ON archive (tenant, session_key)",
    "CREATE INDEX archive_age ON archive (archived_at)",
    "CREATE INDEX archive_fts ON archive USING gin (tsv)",
    "CREATE INDEX archive_unindexed ON archive (id) WHERE tsv IS NULL",
    f"CREATE TEXT SEARCH DICTIONARY {TS_CONFIG}_stem (TEMPLATE = snowball, Language = english)",
    f"CREATE TEXT SEARCH CONFIGURATION {TS_CONFIG} (COPY = english)",
    f"ALTER TEXT SEARCH CONFIGURATION {TS_CONFIG} ALTER MAPPING FOR asciiword, asciihword, hword_asciipart, "
    f"word, hword, hword_part WITH {TS_CONFIG}_stem",
)

# Search within a session: one GIN index over (session_key, tsv) answers "these words in this session" without
# reading the session's other rows (btree_gin, a trusted extension of PostgreSQL's contrib, puts the text
# column in a GIN index); and the session's latest rows by id, which the term weights are judged by. A server
# without btree_gin (or a user who may not create it) keeps the session-wide scan, with a notice.
_V2 = (
    "CREATE INDEX archive_session_id ON archive (session_key, id)",
    "DO $$ BEGIN CREATE EXTENSION IF NOT EXISTS btree_gin; "
    "CREATE INDEX archive_fts_session ON archive USING gin (session_key, tsv); "
    "EXCEPTION WHEN OTHERS THEN RAISE NOTICE 'context-compactor: no btree_gin (%), so no per-session text index: "
    "search within a session reads the session', SQLERRM; END $$",
)

MIGRATIONS: tuple[Sequence[str], ...] = (_V1, _V2)
SCHEMA_VERSION = len(MIGRATIONS)


def migrate(conn: Any, where: str) -> int | None:
    """Take the database to :data:`SCHEMA_VERSION` (under the advisory lock, in one transaction);
    returns the version it started from, or None when it was current already."""
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (ADVISORY_KEY,))
        version = current_version(conn)
        if version == SCHEMA_VERSION:
            return None
        if version > SCHEMA_VERSION:
            raise StoreError(f"{where}: written by a newer context-compactor (schema {version}; this one reads up "
                             f"to {SCHEMA_VERSION}); upgrade context-compactor, or point --store/storePath elsewhere",
                             path=where)
        for step in MIGRATIONS[version:]:
            for statement in step:
                conn.execute(statement)
        conn.execute("INSERT INTO cc_meta VALUES ('schema_version', %s) ON CONFLICT (key) DO UPDATE "
                     "SET value = excluded.value", (str(SCHEMA_VERSION),))
        return version


def current_version(conn: Any) -> int:
    """The schema version of the database (0: none of our tables yet)."""
    if conn.execute("SELECT to_regclass('cc_meta')").fetchone()[0] is None:
        return 0
    row = conn.execute("SELECT value FROM cc_meta WHERE key = 'schema_version'").fetchone()
    return int(row[0]) if row else 0
