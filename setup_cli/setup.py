"""``setup`` and ``uninstall``: put the extension into an OpenClaw gateway, and take it out again.

setup:  finds the gateway home and its ``openclaw.json``; copies the plugin files into
        ``<home>/extensions/context-compactor/`` with a marker that records this Python; patches
        the config (our plugin entry, the contextEngine slot, the allowlist if there is one),
        keeping every comment and every other key; validates with ``openclaw config validate``.
uninstall: takes out our keys only (the slot goes back to what it was), our files and our data.

Like pre-commit's installer: a folder of that name that is not ours is moved aside and put back by
uninstall; re-running changes nothing and says so; the config is written atomically after one
backup; a file we cannot parse is left alone with a message naming the line.

This module runs setup and registers both commands; the pieces live beside it:

    plugin      the plugin id, its keys in openclaw.json, the shipped files and the manifest
    install     where the gateway keeps things; copying the plugin files with our marker
    presets     the default model's context window and the settings preset for it
    plan        the edits setup makes to openclaw.json
    changes     show, ask, write and validate: the steps setup and uninstall share
    uninstall   the uninstall command

The names other modules and tests use from here (``manifest``, ``plan_setup``, ``PRESETS``, ...)
are still importable from this module.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from context_compactor.errors import InputError

from .changes import (
    add_where,
    check_can_write,
    go_ahead,
    hide_secrets,
    load,
    scrub,
    secret_values,
    show_diff,
    validate,
    write_config,
)
from .configpatch import Document, PatchError
from .install import (
    BACKUP_SUFFIX,
    Paths,
    files_state,
    install_files,
    locate,
    read_marker,
)
from .plan import Plan, parse_sets, plan_setup, snippet
from .plugin import (
    DEFAULT_SLOT,
    ENTRY,
    FILES,
    MARKER,
    PLUGIN_ID,
    SLOT,
    config_schema,
    manifest,
    shipped,
    write_manifest,
)
from .presets import PRESETS, fit_problem, fixed_prompt, model_window, preset_for, preset_names
from .uninstall import add_parser as add_uninstall_parser
from .uninstall import plan_uninstall, run_uninstall

__all__ = [
    "BACKUP_SUFFIX", "DEFAULT_SLOT", "ENTRY", "FILES", "MARKER", "PLUGIN_ID", "PRESETS", "SLOT",
    "Document", "Paths", "Plan", "add_parsers", "config_schema", "files_state", "install_files", "locate",
    "manifest", "model_window", "parse_sets", "plan_setup", "plan_uninstall", "preset_for", "read_marker",
    "run_setup", "run_uninstall", "shipped", "snippet", "validate", "write_manifest",
]


def run_setup(args: argparse.Namespace) -> int:
    paths = locate(args.home, args.config)
    sets = parse_sets(args.set or [])
    hidden = secret_values(sets)
    old, doc = load(paths)
    previous_entry = doc.source(ENTRY)  # the user's own entry, as written, for uninstall to put back
    try:
        plan = plan_setup(doc, preset=args.preset, sets=sets, force=args.force)
    except PatchError as exc:
        print(f"context-compactor: {scrub(str(exc), hidden)}\nAdd these lines to {paths.config} by hand, merged with "
              f"what is there:\n{hide_secrets(snippet(sets))}", file=sys.stderr)
        return 2
    except InputError as exc:
        raise InputError(scrub(str(exc), hidden)) from None
    _allow_prompt_reading(plan)
    files = files_state(paths)
    new = plan.doc.text
    print(f"OpenClaw home: {paths.home}\nconfig: {paths.config}")
    if new == old and files == "ours":
        print("context-compactor is already set up here; nothing changed.")
        return 0
    show_diff(paths, old, new)
    if files != "ours":
        what = {"absent": "install", "stale": "update", "foreign": "move the existing folder aside and install"}[files]
        print(f"files: {what} {paths.plugin} ({', '.join(FILES)}; Python {sys.executable})")
    for note in plan.notes:
        print(f"note: {scrub(note, hidden)}")
    problem = _fit(plan)
    if problem:
        print(f"WARNING: {problem}")
    check_can_write(paths, config=new != old, plugin=files != "ours")  # before anything is touched
    stop = go_ahead(args, "Apply these changes?")
    if stop is not None:
        return stop
    marker = read_marker(paths.plugin) or {}
    # What was there before the first setup; a later run keeps the first run's record.
    extra = {"previousSlot": marker.get("previousSlot", plan.previous_slot),
             "addedToAllow": bool(marker.get("addedToAllow")) or plan.added_to_allow,
             "created": marker.get("created") or plan.created,
             "previousEntry": marker.get("previousEntry") if marker else previous_entry,
             "createdExtensions": marker.get("createdExtensions", False) if marker else not paths.plugin.parent.exists()}
    aside = install_files(paths, extra)  # first: OpenClaw validates the config against the installed plugin
    if new != old:
        ok, output = write_config(paths, old, new, what="the patched config",
                                  backup=not marker or not paths.backup.exists())
        print(f"validated: {'yes' if ok else output}" if not problem else
              f"the config is {'valid' if ok else 'not valid: ' + str(output)}, but this model cannot work: {problem}")
    if aside:
        print(f"moved the folder that was there to {aside} (uninstall puts it back)")
    print(f"changed: {'config and files' if new != old else 'files'}; backup of the config: "
          f"{paths.backup if new != old else 'none needed'}")
    print("\nOne command left: openclaw gateway restart")
    return 0


def _fit(plan: Plan) -> str | None:
    """Whether OpenClaw's own prompt leaves the default model's window no room (None: it fits)."""
    data = plan.doc.data
    entry = ((data.get("plugins") or {}).get("entries") or {}).get(PLUGIN_ID) or {}
    configured = (entry.get("config") or {}).get("contextWindow") if isinstance(entry, dict) else None
    window = configured if isinstance(configured, int) and configured > 0 else model_window(data)[0]
    if not window:
        return None
    fixed, source = fixed_prompt(data, None)
    return fit_problem(fixed, window, source)


def _allow_prompt_reading(plan: Plan) -> None:
    """Let the plugin read OpenClaw's system prompt and tool schemas (its ``llm_input`` hook).

    OpenClaw hands a non-bundled plugin's conversation hooks nothing without
    ``hooks.allowConversationAccess``. The engine needs the size of that fixed part to keep the
    whole prompt inside the model's window; it reads it only to measure it, and changes nothing.
    """
    entry = ((plan.doc.data.get("plugins") or {}).get("entries") or {}).get(PLUGIN_ID)
    hooks = entry.get("hooks") if isinstance(entry, dict) else None
    if isinstance(hooks, dict) and "allowConversationAccess" in hooks:
        return  # the user's choice, kept (false: the fixed part is learned from reported usage instead)
    plan.doc.set([*ENTRY, "hooks", "allowConversationAccess"], True)
    plan.notes.append("hooks.allowConversationAccess: the engine reads OpenClaw's system prompt and tool schemas "
                      "to measure them (they share the model's window with the history)")


def add_parsers(sub: Any) -> None:
    """Register ``setup`` and ``uninstall`` on the main parser's subcommands."""
    s = sub.add_parser("setup", help="install the extension into an OpenClaw gateway and patch its config",
                       description="Install context-compactor into an OpenClaw gateway: plugin files, config "
                                   "entry, contextEngine slot. Shows the changes and asks first.")
    add_where(s)
    s.add_argument("--preset", choices=preset_names(),
                   help="settings for a model of this context size (default: from the default model's contextWindow)")
    s.add_argument("--set", action="append", metavar="KEY=VALUE",
                   help="any plugin option, such as --set maxTokens=6000 (repeatable; dotted keys nest)")
    s.add_argument("--force", action="store_true", help="replace another context engine in plugins.slots.contextEngine")
    s.set_defaults(run=run_setup)
    add_uninstall_parser(sub)
