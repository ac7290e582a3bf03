"""``uninstall``: take the extension out of an OpenClaw gateway, and only what setup put in.

Our keys come out of ``openclaw.json`` (the plugin entry; the contextEngine slot goes back to what
the marker says it was; our allowlist item, and objects setup created when they are empty again),
then our plugin folder, our data (unless ``--keep-data``) and the config backup. A folder that
setup moved aside is put back; a folder without our marker is not ours and stays.
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path
from typing import Any

from .changes import add_where, go_ahead, load, show_diff, write_config
from .configpatch import Document
from .install import locate, read_marker
from .plugin import ENTRY, MARKER, PLUGIN_ID, SLOT


def plan_uninstall(doc: Document, marker: dict[str, Any]) -> list[str]:
    """Take our keys out of ``doc``: the entry, the slot (back to what it was), our allowlist item."""
    done: list[str] = []
    if doc.delete(ENTRY):
        done.append(f"removed plugins.entries.{PLUGIN_ID}")
    slot = doc.find(SLOT)
    if slot is not None and slot.value == PLUGIN_ID:
        previous = marker.get("previousSlot")
        if previous:
            doc.set(SLOT, previous)
            done.append(f"plugins.slots.contextEngine is {previous!r} again")
        else:
            doc.delete(SLOT)
            done.append("removed plugins.slots.contextEngine")
    if marker.get("addedToAllow", True) and doc.remove_item(("plugins", "allow"), PLUGIN_ID):
        done.append(f"removed {PLUGIN_ID} from plugins.allow")
    for path in sorted(marker.get("created") or [], key=len, reverse=True):
        node = doc.find(path)
        if node is not None and node.kind == "object" and not node.members:
            doc.delete(path)
    return done


def run_uninstall(args: argparse.Namespace) -> int:
    paths = locate(args.home, args.config)
    marker = read_marker(paths.plugin) or {}
    old, doc = load(paths)
    done = plan_uninstall(doc, marker)
    new = doc.text
    foreign = paths.plugin.exists() and not marker
    files = [p for p in (paths.plugin if marker else None, paths.data if not args.keep_data else None,
                         paths.backup) if p is not None and p.exists()]
    if new == old and not files and not marker.get("movedAside"):
        print("context-compactor is not set up here; nothing changed.")
        return 0
    show_diff(paths, old, new)
    for path in files:
        print(f"remove: {path}")
    if marker.get("movedAside"):
        print(f"restore: {marker['movedAside']} -> {paths.plugin}")
    if foreign:
        print(f"note: {paths.plugin} is not ours (no {MARKER}); it stays")
    stop = go_ahead(args, "Uninstall?")
    if stop is not None:
        return stop
    if new != old:
        write_config(paths, old, new, what="the config without our keys")
    if marker:
        shutil.rmtree(paths.plugin, ignore_errors=True)
    aside = marker.get("movedAside")
    if aside and Path(aside).exists() and not paths.plugin.exists():
        shutil.move(aside, paths.plugin)
    if not args.keep_data:
        shutil.rmtree(paths.data, ignore_errors=True)
    paths.backup.unlink(missing_ok=True)  # the config is back as it was before setup
    for line in done:
        print(line)
    print("context-compactor is uninstalled." + (" Its data stays in " + str(paths.data) if args.keep_data else ""))
    print("\nOne command left: openclaw gateway restart")
    return 0


def add_parser(sub: Any) -> None:
    """Register ``uninstall`` on the main parser's subcommands."""
    u = sub.add_parser("uninstall", help="take the extension out of an OpenClaw gateway",
                       description="Remove our plugin entry and files; the contextEngine slot goes back to what it was.")
    add_where(u)
    u.add_argument("--keep-data", action="store_true", help="keep the summary cache and archive (<home>/context-compactor)")
    u.set_defaults(run=run_uninstall)
