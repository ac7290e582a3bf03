"""What setup changes in ``openclaw.json``: our plugin entry, the contextEngine slot, the allowlist.

``plan_setup`` edits a Document (comments and every other key kept) into a config that loads our
engine, fills the plugin config from a preset and ``--set`` options, checks the result against the
Settings model, and records what uninstall will need to undo. It refuses a denylisted plugin and,
without ``--force``, another context engine in the slot. ``snippet`` is the by-hand fallback.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from context_compactor.errors import ConfigError, InputError
from context_compactor.settings import load_settings

from .configpatch import Document, PatchError
from .plugin import DEFAULT_SLOT, ENTRY, PLUGIN_ID, SLOT
from .presets import PRESETS, model_window, preset_for


def parse_sets(pairs: list[str]) -> dict[str, Any]:
    """``--set key=value`` pairs (dotted keys nest; values are JSON where they parse, else text)."""
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key.strip():
            raise InputError(f"--set {pair!r}: expected key=value, such as --set maxTokens=6000")
        try:
            value = json.loads(raw)
        except ValueError:
            value = raw
        node = out
        *parents, last = key.strip().split(".")
        for name in parents:
            node = node.setdefault(name, {})
        node[last] = value
    return out


def _merge(base: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in extra.items():
        out[key] = _merge(out[key], value) if isinstance(value, dict) and isinstance(out.get(key), dict) else value
    return out


@dataclass
class Plan:
    doc: Document
    notes: list[str]
    created: list[list[str]]
    previous_slot: str | None
    added_to_allow: bool


def plan_setup(doc: Document, *, preset: str | None, sets: dict[str, Any], force: bool) -> Plan:
    """Edit ``doc`` into a config that loads our engine; raises InputError when it must not."""
    data = doc.data
    plugins: dict[str, Any] = data["plugins"] if isinstance(data.get("plugins"), dict) else {}
    if data.get("plugins") is not None and not isinstance(data.get("plugins"), dict):
        raise PatchError(f"{doc.name}: plugins is not an object")
    notes: list[str] = []
    if PLUGIN_ID in (plugins.get("deny") or []):
        raise InputError(f"{doc.name}: plugins.deny lists {PLUGIN_ID}; remove it from the denylist first")
    slot = (plugins.get("slots") or {}).get("contextEngine")
    if slot not in (None, "", DEFAULT_SLOT, PLUGIN_ID) and not force:
        raise InputError(f"{doc.name}: plugins.slots.contextEngine is {slot!r}, another context engine; "
                         f"rerun with --force to replace it (uninstall puts {slot!r} back)")
    entry = (plugins.get("entries") or {}).get(PLUGIN_ID)
    current: dict[str, Any] = entry["config"] if isinstance(entry, dict) and isinstance(entry.get("config"), dict) else {}
    window, ref = model_window(data)
    chosen = preset or preset_for(window)
    fill = PRESETS[chosen] if preset else {k: v for k, v in PRESETS[chosen].items() if k not in current}
    wanted = _merge(_merge(current, fill), sets)
    try:
        load_settings(overrides=wanted)
    except ConfigError as exc:
        raise InputError(f"plugins.entries.{PLUGIN_ID}.config: {exc}") from None
    if fill:
        why = "as asked" if preset else (f"for {ref}, context window {window:,}" if window else
                                         f"{ref}: context window unknown, pass --preset")
        notes.append(f"preset {chosen} ({why})")
    created = [list(p) for p in (("plugins",), ("plugins", "entries"), ("plugins", "slots")) if doc.find(p) is None]
    if not isinstance(entry, dict) or entry.get("enabled") is not True:
        doc.set([*ENTRY, "enabled"], True)
    if wanted != current:
        doc.set([*ENTRY, "config"], wanted)
    if slot != PLUGIN_ID:
        doc.set(SLOT, PLUGIN_ID)
        if slot not in (None, "", DEFAULT_SLOT):
            notes.append(f"replaced the context engine {slot!r} (--force); uninstall puts it back")
    allow = plugins.get("allow")
    added = isinstance(allow, list) and PLUGIN_ID not in allow
    if added:
        doc.append(("plugins", "allow"), PLUGIN_ID)
    return Plan(doc, notes, created, slot if slot not in (None, "", PLUGIN_ID) else None, added)


def snippet(sets: dict[str, Any]) -> str:
    """The lines to add by hand when the file cannot be patched safely."""
    block = {"plugins": {"entries": {PLUGIN_ID: {"enabled": True, "config": sets}},
                         "slots": {"contextEngine": PLUGIN_ID}}}
    return json.dumps(block, indent=2)
