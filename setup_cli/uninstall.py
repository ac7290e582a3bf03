"""``uninstall``: take the extension out of an OpenClaw gateway, and only what setup put in.

Our keys come out of ``openclaw.json`` (the plugin entry, or the entry the user had before setup,
as it was written; the contextEngine slot goes back to what the marker says it was; our allowlist
item, and objects setup created when they are empty again), then our plugin folder, the
``extensions/`` folder if setup created it and it is empty, and our data (unless ``--keep-data``).
A folder that setup moved aside is put back; a folder without our marker is not ours and stays.
The backup of the config from before setup is removed only when the config is that file again,
byte for byte; otherwise it stays, and uninstall says where.
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path
from typing import Any

from .changes import add_where, check_can_write, go_ahead, load, show_diff, write_config
from .configpatch import Document
from .install import Paths, locate, read_marker
from .plugin import ENTRY, MARKER, PLUGIN_ID, SLOT


def plan_uninstall(doc: Document, marker: dict[str, Any]) -> list[str]:
    """Take our keys out of ``doc``: the entry, the slot (back to what it was), our allowlist item."""
    done: list[str] = []
    previous = marker.get("previousEntry")
    if isinstance(previous, str) and doc.find(ENTRY) is not None:
        doc.set_source(ENTRY, previous)
        done.append(f"plugins.entries.{PLUGIN_ID} is as it was before setup")
    elif doc.delete(ENTRY):
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
    files = [p for p in (paths.plugin if marker else None, paths.data if not args.keep_data else None)
             if p is not None and p.exists()]
    if new == old and not files and not marker.get("movedAside") and not paths.backup.exists():
        print("context-compactor is not set up here; nothing changed.")
        return 0
    show_diff(paths, old, new)
    for path in files:
        print(f"remove: {path}")
    if marker.get("movedAside"):
        print(f"restore: {marker['movedAside']} -> {paths.plugin}")
    if foreign:
        print(f"note: {paths.plugin} is not ours (no {MARKER}); it stays")
    check_can_write(paths, config=new != old, plugin=False)  # before anything is touched
    stop = go_ahead(args, "Uninstall?")
    if stop is not None:
        return stop
    if new != old:
        write_config(paths, old, new, what="the config without our keys", backup=False)
    if marker:
        shutil.rmtree(paths.plugin, ignore_errors=True)
    aside = marker.get("movedAside")
    if aside and Path(aside).exists() and not paths.plugin.exists():
        shutil.move(aside, paths.plugin)
    if marker.get("createdExtensions") and paths.plugin.parent.is_dir() and not any(paths.plugin.parent.iterdir()):
        paths.plugin.parent.rmdir()  # setup made it, and nothing else lives there
    if not args.keep_data:
        shutil.rmtree(paths.data, ignore_errors=True)
    for line in done:
        print(line)
    print(_settle_backup(paths))
    print("context-compactor is uninstalled." + (" Its data stays in " + str(paths.data) if args.keep_data else ""))
    print("\nOne command left: openclaw gateway restart")
    return 0


def _settle_backup(paths: Paths) -> str:
    """Remove the backup when the config is that file again; otherwise keep it, and say so."""
    if not paths.backup.exists():
        return "backup of the config: none"
    try:
        same = paths.backup.read_bytes() == paths.config.read_bytes()
    except OSError:
        same = False
    if same:
        paths.backup.unlink()
        return "the config is byte for byte what it was before setup; its backup is removed"
    return (f"kept the backup of the config from before setup: {paths.backup} (the config differs from it now; "
            "compare the two, then delete the backup)")


def add_parser(sub: Any) -> None:
    """Register ``uninstall`` on the main parser's subcommands."""
    u = sub.add_parser("uninstall", help="take the extension out of an OpenClaw gateway",
                       description="Remove our plugin entry and files; the contextEngine slot goes back to what it was.")
    add_where(u)
    u.add_argument("--keep-data", action="store_true", help="keep the summary cache and archive (<home>/context-compactor)")
    u.set_defaults(run=run_uninstall)
