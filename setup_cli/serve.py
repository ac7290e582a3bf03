"""``serve``: the OpenAI-compatible compaction gateway in front of a model server.

    context-compactor serve --upstream http://127.0.0.1:8080/v1 [--port 8787] [--config FILE]

Clients point their OpenAI base URL at ``http://127.0.0.1:8787/v1`` and keep sending the whole
conversation; the model server receives a prompt that fits its context window.
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import os
import socket
import sys
from collections.abc import Callable
from typing import Any

from context_compactor.errors import ConfigError

EPILOG = """\
The upstream API key is read from the environment ($CONTEXT_COMPACTOR_UPSTREAM_API_KEY, or the
variable named by --upstream-key-env) and never logged. To require a key from clients, set
$CONTEXT_COMPACTOR_API_KEY (or --api-key; note that command lines are visible to other users).
Several keys (comma-separated in the variable, or --api-key once each) make one tenant each: a
tenant never reads another's archive. Clients send 'Authorization: Bearer KEY' or 'x-api-key: KEY',
and 'X-Session-Id: <unguessable id per conversation>' so that recall can read their archive.

example:
  context-compactor serve --upstream http://127.0.0.1:8080/v1 --context-window 8192
  OPENAI_BASE_URL=http://127.0.0.1:8787/v1 my-agent ...
"""


def add_parser(sub: Any) -> argparse.ArgumentParser:
    """Register ``serve`` on the CLI's subparsers."""
    from context_compactor.gateway.config import DEFAULT_PORT, DEFAULT_UPSTREAM_KEY_ENV

    p: argparse.ArgumentParser = sub.add_parser(
        "serve", help="run the OpenAI-compatible compaction gateway in front of a model server",
        description="Serve /v1/chat/completions, compacting each conversation to fit the upstream model's window.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--upstream", default=os.environ.get("CONTEXT_COMPACTOR_UPSTREAM"), metavar="URL",
                   help="the model server's OpenAI base URL, e.g. http://127.0.0.1:8080/v1 "
                        "(default: $CONTEXT_COMPACTOR_UPSTREAM)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port to listen on (default {DEFAULT_PORT}; 0: any free port)")
    p.add_argument("--config", metavar="FILE", help="JSON file of compaction options (OpenClaw plugin option names)")
    p.add_argument("--context-window", type=int, metavar="N", help="the model's context window in tokens (overrides --config)")
    p.add_argument("--store", metavar="PATH", help="SQLite file, or a postgresql:// URL that several serve replicas share (default: storePath from --config or "
                                                   "$CONTEXT_COMPACTOR_STORE_PATH, else $OPENCLAW_STATE_DIR or "
                                                   "~/.openclaw, /context-compactor/store.sqlite)")
    p.add_argument("--api-key", action="append", default=None, metavar="KEY",
                   help="require 'Authorization: Bearer KEY' (or 'x-api-key: KEY') from clients; give it once per "
                        "tenant (default: $CONTEXT_COMPACTOR_API_KEY, comma-separated, else no key)")
    p.add_argument("--upstream-key-env", default=DEFAULT_UPSTREAM_KEY_ENV, metavar="NAME",
                   help=f"environment variable holding the upstream's API key (default {DEFAULT_UPSTREAM_KEY_ENV})")
    p.add_argument("--max-body-mb", type=float, default=32, metavar="MB", help="refuse larger request bodies with 413 (default 32)")
    p.add_argument("--timeout", type=float, default=600, metavar="S",
                   help="seconds to wait for the upstream's next bytes (default 600: local models can be slow)")
    p.add_argument("--connect-timeout", type=float, default=10, metavar="S", help="seconds to connect to the upstream (default 10)")
    p.add_argument("--header-timeout", type=float, default=20, metavar="S",
                   help="seconds a client gets to send a request's headers (default 20; then 408)")
    p.add_argument("--idle-timeout", type=float, default=30, metavar="S",
                   help="seconds a client connection may sit idle between requests or pause inside a request "
                        "body (default 30)")
    p.add_argument("--max-header-kb", type=float, default=64, metavar="KB",
                   help="refuse larger request heads with 431 (default 64)")
    p.add_argument("--max-headers", type=int, default=100, metavar="N",
                   help="refuse requests with more header lines with 431 (default 100)")
    p.add_argument("--max-json-depth", type=int, default=128, metavar="N",
                   help="refuse chat bodies whose JSON nests deeper with 400 (default 128)")
    p.add_argument("--shutdown-grace", type=float, default=10, metavar="S",
                   help="on SIGTERM, seconds in-flight requests get to finish (default 10)")
    p.add_argument("--workers", type=int, default=1, metavar="N",
                   help="serve from N processes on the one port, over one store (a SQLite file on this host, or "
                        "PostgreSQL); default 1. /metrics then answers for the worker that took the connection")
    p.add_argument("--log-format", choices=["console", "json"], default="console", help="log line format (default console)")
    p.add_argument("-q", "--quiet", action="store_true", help="log warnings only (no line per request)")
    p.set_defaults(run=run_serve)
    return p


def run_serve(args: argparse.Namespace) -> int:
    from context_compactor.gateway import Gateway, GatewayConfig
    from context_compactor.gateway.config import CLIENT_KEY_ENV, keys_from, secret_from_env
    from context_compactor.gateway.server import bind, serve, serve_workers
    from context_compactor.runtime import Runtime
    from context_compactor.settings import load_settings
    from context_compactor.store import Store, store_path_for

    if not args.upstream:
        raise ConfigError("serve needs --upstream URL (the model server's OpenAI base URL, e.g. "
                          "http://127.0.0.1:8080/v1) or $CONTEXT_COMPACTOR_UPSTREAM", key="upstream")
    from context_compactor.logs import configure_logging  # the one logging setup

    configure_logging(logging.WARNING if args.quiet else logging.INFO, fmt=args.log_format, timestamps=True, cache=True)
    client_keys = keys_from(args.api_key, CLIENT_KEY_ENV)
    config = GatewayConfig(
        upstream=args.upstream, host=args.host, port=args.port, api_keys=client_keys,
        upstream_api_key=secret_from_env(args.upstream_key_env), max_body_bytes=int(args.max_body_mb * 2**20),
        connect_timeout=args.connect_timeout, read_timeout=args.timeout, shutdown_grace=args.shutdown_grace,
        header_timeout=args.header_timeout, idle_timeout=args.idle_timeout,
        max_header_bytes=int(args.max_header_kb * 1024), max_headers=args.max_headers,
        max_json_depth=args.max_json_depth,
    )
    settings = load_settings(args.config, {"contextWindow": args.context_window})
    if args.workers < 1:
        raise ConfigError(f"--workers {args.workers}: give a number of processes of 1 or more", key="workers")
    sock = bind(config.host, config.port, reuse_port=args.workers > 1)
    host, port = sock.getsockname()[:2]
    config = dataclasses.replace(config, port=port)
    path = store_path_for(args.store, settings.store_path)
    if args.workers > 1 and path == ":memory:":
        sock.close()
        raise ConfigError("--workers: workers share the store, and a store in memory is one process's; give a "
                          "file or a postgresql:// URL", key="workers")

    def open_runtime() -> Runtime:
        return Runtime(settings, store=Store.for_settings(path, settings))

    try:
        runtime = open_runtime()  # a store that cannot be opened stops serve here, before any worker starts
        if args.workers > 1:  # each worker opens its own: connections do not cross a fork
            runtime.close()
    except BaseException:
        sock.close()
        raise
    if not client_keys and host not in ("127.0.0.1", "::1", "localhost"):
        print(f"context-compactor: warning: listening on {host} without a client key: anyone who can reach "
              f"port {port} can use the upstream model (and its key); set --api-key or $CONTEXT_COMPACTOR_API_KEY, "
              "or listen on 127.0.0.1", file=sys.stderr, flush=True)
    workers = f", {args.workers} workers" if args.workers > 1 else ""
    print(f"context-compactor: serving http://{_url_host(host)}:{port}/v1 -> {config.base} "
          f"(client key {_keys(len(client_keys))}{workers}; Ctrl-C or SIGTERM stops)",
          file=sys.stderr, flush=True)
    if args.workers > 1:
        def start(mine: socket.socket) -> Callable[[], None]:
            worker = open_runtime()

            def run() -> None:
                try:
                    serve(Gateway(config, worker), mine)
                finally:
                    worker.close()
            return run

        try:
            return serve_workers(start, sock, args.workers, config.shutdown_grace)
        finally:
            sock.close()
    try:
        serve(Gateway(config, runtime), sock)
    finally:
        runtime.close()
        sock.close()
    return 0


def _keys(count: int) -> str:
    return "not required" if not count else "required" if count == 1 else f"required, {count} tenants"


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host
