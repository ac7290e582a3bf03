"""What the extension is to OpenClaw: its plugin id, its keys in ``openclaw.json`` and its files.

The plugin folder holds four shipped files (the manifest, ``package.json``, ``index.js`` and the
``bridge_child.js`` it imports) plus a marker of ours; the manifest's ``configSchema`` is generated from the Settings model,
so ``write_manifest`` regenerates the copy kept in ``extension/openclaw/``.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

from context_compactor import __version__
from context_compactor.settings import Settings

PLUGIN_ID = "context-compactor"
MARKER = ".context-compactor.json"
FILES = ("openclaw.plugin.json", "package.json", "index.js", "bridge_child.js")
ENTRY = ("plugins", "entries", PLUGIN_ID)
SLOT = ("plugins", "slots", "contextEngine")
DEFAULT_SLOT = "legacy"  # OpenClaw's built-in engine


def config_schema() -> dict[str, Any]:
    """The plugin's ``configSchema``: the Settings model as plain JSON Schema (refs inlined)."""
    raw = Settings.model_json_schema(by_alias=True)
    defs = raw.pop("$defs", {})

    def clean(node: Any) -> Any:
        if isinstance(node, list):
            return [clean(n) for n in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node:
            return clean(defs[node["$ref"].rsplit("/", 1)[-1]])
        # OpenClaw validates with ajv: unknown formats would fail, and null defaults would be filled in.
        return {k: clean(v) for k, v in node.items()
                if k not in ("title", "format", "writeOnly") and not (k == "default" and v is None)}

    return dict(clean(raw))


def manifest() -> dict[str, Any]:
    """The content of ``openclaw.plugin.json``."""
    return {
        "id": PLUGIN_ID, "name": "Context Compactor", "version": __version__,
        "description": "Keeps long conversations inside the model's context window: old turns are folded "
                       "into a cached summary for the model, the transcript is never changed.",
        "kind": "context-engine", "activation": {"onStartup": True}, "configSchema": config_schema(),
        "contracts": {"tools": ["recall_history"]},  # the plugin tool index.js registers (issue 12)
    }


def shipped(name: str) -> bytes:
    """One of ``FILES`` as the installed package ships it."""
    return resources.files("context_compactor").joinpath("openclaw", name).read_bytes()


def write_manifest(folder: Path | None = None) -> Path:
    """Regenerate ``extension/openclaw/openclaw.plugin.json`` from the Settings model."""
    target = (folder or Path(__file__).resolve().parent.parent / "extension" / "openclaw") / "openclaw.plugin.json"
    target.write_text(json.dumps(manifest(), indent=2) + "\n", encoding="utf-8")
    return target
