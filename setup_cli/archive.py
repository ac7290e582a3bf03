"""``archive``: search and read the messages compaction archived.

    context-compactor archive search QUERY [--session ID] [--store PATH] [--limit N] [--json]
    context-compactor archive show ID [--session ID] [--store PATH] [--offset N] [--chars N] [--json]
    context-compactor archive sessions [--store PATH] [--json]

``show`` takes a row id (``42``), ``SESSION#INDEX`` as the ledger cites it (``main#12``), or an
index with ``--session``. A bad id or query exits 2 with one line; so does a store that is not there.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import asdict
from typing import Any

from context_compactor.archive import parse_ref
from context_compactor.errors import InputError
from context_compactor.settings import load_settings
from context_compactor.store import Store, StoreError, is_url, store_path_for


def add_parser(sub: Any) -> None:
    a = sub.add_parser("archive", help="search and read the messages compaction archived",
                       description="Search and read the messages compaction archived.")
    a.set_defaults(run=_usage, parser=a)
    verbs = a.add_subparsers(dest="verb", metavar="VERB")
    s = verbs.add_parser("search", help="the archived messages that best match some words (BM25)",
                         description="Find archived messages by words; FTS syntax in QUERY is searched for, not obeyed.")
    s.add_argument("query", metavar="QUERY", help="words to look for (any of them; better matches first)")
    s.add_argument("--session", metavar="ID", help="search this session only")
    s.add_argument("--limit", type=int, default=5, metavar="N", help="at most N results (default 5)")
    s.set_defaults(run=run_search)
    w = verbs.add_parser("show", help="one archived message, whole or a page of it",
                         description="Print one archived message: by row id, SESSION#INDEX, or INDEX with --session.")
    w.add_argument("ref", metavar="ID", help="a row id (42), SESSION#INDEX (main#12), or INDEX with --session")
    w.add_argument("--session", metavar="ID", help="read ID as an index in this session's history")
    w.add_argument("--offset", type=int, default=0, metavar="N", help="start at character N of the text")
    w.add_argument("--chars", type=int, default=None, metavar="N", help="print at most N characters (default all)")
    w.set_defaults(run=run_show)
    n = verbs.add_parser("sessions", help="the archived sessions, most recent first",
                         description="List the archived sessions with their message counts and dates.")
    n.set_defaults(run=run_sessions)
    for p in (s, w, n):
        p.add_argument("--store", metavar="PATH", help="the store: a SQLite file or a postgresql:// URL (default: storePath from --config or "
                                                       "$CONTEXT_COMPACTOR_STORE_PATH, else $OPENCLAW_STATE_DIR or "
                                                       "~/.openclaw, /context-compactor/store.sqlite)")
        p.add_argument("--config", metavar="FILE", help="JSON file of options, for its storePath")
        p.add_argument("--json", action="store_true", help="print JSON")


def _usage(args: argparse.Namespace) -> int:
    args.parser.print_help(sys.stderr)
    return 2


def _open(args: argparse.Namespace, *, write: bool = False) -> Store:
    """The store, read-only (``sessions`` and ``show`` change nothing, and need no write access); with
    ``write`` (``search``, which brings the full-text index up to date first) writable when it can be."""
    configured = load_settings(args.config).store_path if args.store is None else None
    path = store_path_for(args.store, configured)
    if path != ":memory:" and not is_url(path) and not os.path.isfile(path):
        raise InputError(f"{path}: no store there (nothing archived yet, or give the right --store PATH)")
    if path == ":memory:":
        return Store.open(path)
    if write:
        try:
            return Store.open(path)
        except StoreError as exc:  # a read-only copy or folder: search what is indexed (with a warning)
            try:
                return Store.open_read_only(path)
            except StoreError:
                raise exc from None
    return Store.open_read_only(path)


def run_search(args: argparse.Namespace) -> int:
    if args.limit <= 0:
        raise InputError(f"--limit {args.limit}: give a number of results above 0")
    store = _open(args, write=True)
    try:
        if args.session is not None and args.session not in {s.session for s in store.sessions()}:
            raise InputError(f"no archived session {args.session!r} (list them with `context-compactor archive sessions`)")
        if args.session is not None:  # within a session: ranked as recall_history ranks (hooks/recall.py)
            from context_compactor.hooks.recall import search

            hits = search(store, args.query, args.session, args.limit)
        else:
            hits = store.search(args.query, session=None, limit=args.limit)
    finally:
        store.close()
    if args.json:
        print(json.dumps({"query": args.query, "hits": [asdict(h) for h in hits]}, ensure_ascii=False))
        return 0
    if not hits:
        print(f"no archived message matches {args.query!r}", file=sys.stderr)
    for h in hits:
        where = f"{h.session}#{h.index}" if h.index is not None else f"{h.session} id {h.id}"
        extra = "".join(f" {k} {v}" for k, v in (("turn", h.turn), ("tool", h.tool)) if v is not None)
        print(f"[{h.id}] {where} {h.role}{extra} score {h.score:.2f}\n    {h.snippet}")
    return 0


def run_show(args: argparse.Namespace) -> int:
    if args.offset < 0 or (args.chars is not None and args.chars <= 0):
        raise InputError("--offset must be 0 or more and --chars above 0")
    ref = parse_ref(args.ref, args.session)
    store = _open(args)
    try:
        found = store.fetch(ref, offset=args.offset, limit_chars=args.chars or sys.maxsize)
    finally:
        store.close()
    if found is None:
        shown = f"{ref[0]}#{ref[1]}" if isinstance(ref, tuple) else f"id {ref}"
        raise InputError(f"no archived message {shown} (find one with `context-compactor archive search WORDS`)")
    if args.json:
        print(json.dumps(asdict(found), ensure_ascii=False))
        return 0
    where = f"{found.session}#{found.index}" if found.index is not None else found.session
    extra = "".join(f", {k} {v}" for k, v in (("turn", found.turn), ("tool", found.tool)) if v is not None)
    print(f"[{found.id}] {where}: {found.role}{extra}, archived {_when(found.archived_at)}, "
          f"characters {found.offset}-{found.offset + len(found.text)} of {found.total_chars}")
    print(found.text)
    if found.next_offset is not None:
        print(f"... more: --offset {found.next_offset}", file=sys.stderr)
    return 0


def run_sessions(args: argparse.Namespace) -> int:
    store = _open(args)
    try:
        sessions, size = store.sessions(), store.size_bytes()
    finally:
        store.close()
    if args.json:
        print(json.dumps({"size_bytes": size, "sessions": [asdict(s) for s in sessions]}, ensure_ascii=False))
        return 0
    for s in sessions:
        print(f"{s.session}\t{s.messages} messages\t{s.chars:,} chars\t{_when(s.first_archived)} .. {_when(s.last_archived)}")
    print(f"{len(sessions)} sessions, store {size / 1e6:.1f} MB", file=sys.stderr)
    return 0


def _when(at: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(at))
