"""The steps setup and uninstall share: read the config, show the change, ask, write, validate.

Both commands work the same way: read ``openclaw.json`` into a Document, edit it, print the diff
and what happens to files, stop there on ``--dry-run`` or when the answer is no, then write the
config atomically after one backup and run ``openclaw config validate``, putting the old text back
when OpenClaw rejects the new one. The options that choose the gateway and how to ask live here too.
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import shutil
import subprocess
import sys
from typing import Any

from context_compactor.errors import CompactorError, InputError

from .atomicwrite import check_folder, check_writable
from .configpatch import Document, write_atomic
from .install import Paths
from .json5parse import Node, PatchError, parse

# Keys whose values are never printed (diffs, snippets, messages): apiKey, token, password, ...
SECRET_KEY = re.compile(r"(?i)(?:key|token|secret|password|passwd|credentials?|authorization|auth|bearer)$")
HIDDEN = "***"


def add_where(p: argparse.ArgumentParser) -> None:
    """The options every gateway-changing command has: which gateway, and whether to ask."""
    p.add_argument("--home", metavar="DIR", help="the gateway home (default: $OPENCLAW_STATE_DIR, else ~/.openclaw)")
    p.add_argument("--config", metavar="FILE",
                   help="the gateway config (default: $OPENCLAW_CONFIG_PATH, else <home>/openclaw.json)")
    p.add_argument("--yes", "-y", action="store_true", help="do not ask; for scripts")
    p.add_argument("--dry-run", action="store_true", help="print the exact changes and write nothing")


def load(paths: Paths) -> tuple[str, Document]:
    """The config's text exactly as it is now (BOM and line ends included), and a Document to edit."""
    try:
        raw = paths.config.read_bytes()
    except OSError as exc:
        raise CompactorError(f"{paths.config}: cannot read: {exc.strerror or exc}") from None
    try:
        old = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise PatchError(f"{paths.config}: not UTF-8 text (byte {exc.start}); the file was left unchanged") from None
    return old, Document(old, str(paths.config))


def hide_secrets(text: str) -> str:
    """``text`` (JSON5) with the value of every secret-named key replaced by ``"***"``."""
    try:
        root = parse(text)
    except PatchError:
        return text
    spans: list[tuple[int, int]] = []
    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        node, secret = stack.pop()
        if secret and node.kind == "scalar" and node.value not in (None, True, False):
            spans.append((node.start, node.end))
        stack.extend((m.node, secret or bool(SECRET_KEY.search(m.key))) for m in node.members)
        stack.extend((item, secret) for item in node.items)
    for start, end in sorted(spans, reverse=True):
        text = text[:start] + f'"{HIDDEN}"' + text[end:]
    return text


def secret_values(value: Any, secret: bool = False) -> set[str]:
    """The values under secret-named keys in ``value`` (a dict from ``--set``), as text."""
    if isinstance(value, dict):
        return set().union(*(secret_values(v, secret or bool(SECRET_KEY.search(str(k)))) for k, v in value.items()))
    if isinstance(value, list):
        return set().union(*(secret_values(v, secret) for v in value))
    return {str(value)} if secret and value not in (None, True, False) and str(value) else set()


def scrub(text: str, secrets: set[str]) -> str:
    """``text`` with each of ``secrets`` replaced by ``***`` (the longest first)."""
    for secret in sorted(secrets, key=len, reverse=True):
        text = text.replace(secret, HIDDEN)
    return text


def show_diff(paths: Paths, old: str, new: str) -> None:
    """Print the change to the config as a unified diff (nothing when there is none); secrets hidden."""
    if new != old:
        print("".join(difflib.unified_diff(hide_secrets(old).splitlines(True), hide_secrets(new).splitlines(True),
                                           f"{paths.config} (now)", f"{paths.config} (after)")), end="")


def check_can_write(paths: Paths, *, config: bool, plugin: bool) -> None:
    """Before anything is touched: refuse (PatchError) when the config or the plugin folder cannot be written."""
    if config:
        check_writable(paths.config)
    if plugin:
        check_folder(paths.plugin)


def confirm(args: argparse.Namespace, question: str) -> bool:
    """``--yes``, else the answer at the terminal; refuses to guess when stdin is not one."""
    if args.yes:
        return True
    if not sys.stdin.isatty():
        raise InputError("setup asks before it changes anything, and stdin is not a terminal: "
                         "pass --yes (or --dry-run to see the changes)")
    return input(f"{question} [y/N] ").strip().lower() in ("y", "yes")


def go_ahead(args: argparse.Namespace, question: str) -> int | None:
    """After the preview: None to go on and write; else the exit code (0 for --dry-run, 1 for no)."""
    if args.dry_run:
        print("dry run: nothing was written.")
        return 0
    if not confirm(args, question):
        print("nothing changed.")
        return 1
    return None


def validate(paths: Paths) -> tuple[bool | None, str]:
    """``openclaw config validate`` on the config, when openclaw is on PATH (None: not checked)."""
    exe = shutil.which("openclaw")
    if exe is None:
        return None, "openclaw is not on PATH; not validated"
    env = {**os.environ, "OPENCLAW_STATE_DIR": str(paths.home), "OPENCLAW_CONFIG_PATH": str(paths.config)}
    try:
        done = subprocess.run([exe, "config", "validate"], env=env, capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return None, f"openclaw config validate did not run: {exc}"
    return done.returncode == 0, (done.stdout + done.stderr).strip()


def write_config(paths: Paths, old: str, new: str, *, what: str, backup: bool) -> tuple[bool | None, str]:
    """Write ``new`` over the config and validate it; returns what validate said.

    ``backup``: copy the config as it is now to ``paths.backup`` first (setup's first write only, so
    that the backup stays the config from before setup). When OpenClaw rejects the new text,
    ``old`` is written back and CompactorError names ``what`` was rejected.
    """
    write_atomic(paths.config, new, backup=paths.backup if backup else None)
    ok, output = validate(paths)
    if ok is False:
        write_atomic(paths.config, old)
        raise CompactorError(f"openclaw config validate rejected {what}, so it was put back as it was:\n{output}")
    return ok, output
