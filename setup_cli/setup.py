"""``setup`` and ``uninstall``: put the extension into an OpenClaw gateway, and take it out again.

setup:  finds the gateway home and its ``openclaw.json``; copies the plugin files into
        ``<home>/extensions/context-compactor/`` with a marker that records this Python; patches
        the config (our plugin entry, the contextEngine slot, the allowlist if there is one),
        keeping every comment and every other key; validates with ``openclaw config validate``.
uninstall: takes out our keys only (the slot goes back to what it was), our files and our data.

Like pre-commit's installer: a folder of that name that is not ours is moved aside and put back by
uninstall; re-running changes nothing and says so; the config is written atomically after one
backup; a file we cannot parse is left alone with a message naming the line.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from context_compactor import __version__
from context_compactor.errors import CompactorError, ConfigError, InputError
from context_compactor.settings import Settings, load_settings

from .configpatch import Document, PatchError, write_atomic

PLUGIN_ID = "context-compactor"
MARKER = ".context-compactor.json"
FILES = ("openclaw.plugin.json", "package.json", "index.js")
BACKUP_SUFFIX = ".context-compactor.bak"
ENTRY = ("plugins", "entries", PLUGIN_ID)
SLOT = ("plugins", "slots", "contextEngine")
DEFAULT_SLOT = "legacy"  # OpenClaw's built-in engine
# Per model size; the trigger and target follow the window OpenClaw reports for each turn.
PRESETS: dict[str, dict[str, int]] = {
    "4k": {"keepRecentTokens": 800, "summaryMaxTokens": 500, "maxToolResultTokens": 800, "chunkTokens": 2000},
    "8k": {"keepRecentTokens": 2000, "summaryMaxTokens": 1000, "maxToolResultTokens": 1500, "chunkTokens": 4000},
    "32k": {"keepRecentTokens": 4000, "summaryMaxTokens": 1500, "maxToolResultTokens": 3000, "chunkTokens": 8000},
    "128k": {"keepRecentTokens": 12000, "summaryMaxTokens": 3000, "maxToolResultTokens": 8000, "chunkTokens": 16000},
}


# --- the shipped plugin files --------------------------------------------------------------------


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
    return {
        "id": PLUGIN_ID, "name": "Context Compactor", "version": __version__,
        "description": "Keeps long conversations inside the model's context window: old turns are folded "
                       "into a cached summary for the model, the transcript is never changed.",
        "kind": "context-engine", "activation": {"onStartup": True}, "configSchema": config_schema(),
    }


def shipped(name: str) -> bytes:
    return resources.files("context_compactor").joinpath("openclaw", name).read_bytes()


def write_manifest(folder: Path | None = None) -> Path:
    """Regenerate ``extension/openclaw/openclaw.plugin.json`` from the Settings model."""
    target = (folder or Path(__file__).resolve().parent.parent / "extension" / "openclaw") / "openclaw.plugin.json"
    target.write_text(json.dumps(manifest(), indent=2) + "\n", encoding="utf-8")
    return target


# --- where things are ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Paths:
    home: Path
    config: Path

    @property
    def plugin(self) -> Path:
        return self.home / "extensions" / PLUGIN_ID

    @property
    def data(self) -> Path:
        return self.home / "context-compactor"

    @property
    def backup(self) -> Path:
        return Path(str(self.config) + BACKUP_SUFFIX)


def locate(home: str | None, config: str | None = None, *, must_exist: bool = True) -> Paths:
    """``--home``, else $OPENCLAW_STATE_DIR, else ~/.openclaw; ``--config``, else
    $OPENCLAW_CONFIG_PATH, else ``<home>/openclaw.json``. Refuses when neither is there."""
    base = Path(home or os.environ.get("OPENCLAW_STATE_DIR") or Path.home() / ".openclaw").expanduser()
    cfg = Path(config or os.environ.get("OPENCLAW_CONFIG_PATH") or base / "openclaw.json").expanduser()
    if must_exist and not base.is_dir():
        raise InputError(f"no OpenClaw gateway home at {base} (run `openclaw onboard` first, or pass --home)")
    if must_exist and not cfg.is_file():
        raise InputError(f"no OpenClaw config at {cfg} (run `openclaw onboard` or `openclaw config set ...` first, "
                         "or point OPENCLAW_CONFIG_PATH at it)")
    return Paths(base, cfg)


def read_marker(folder: Path) -> dict[str, Any] | None:
    try:
        data = json.loads((folder / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and data.get("installedBy") == PLUGIN_ID else None


# --- what the config should say --------------------------------------------------------------------


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


def model_window(data: dict[str, Any]) -> tuple[int | None, str]:
    """The default model's context window as openclaw.json states it, and which model that is."""
    model = ((data.get("agents") or {}).get("defaults") or {}).get("model")
    ref = model if isinstance(model, str) else (model or {}).get("primary") if isinstance(model, dict) else None
    if not isinstance(ref, str) or "/" not in ref:
        return None, "no default model in openclaw.json"
    provider, _, model_id = ref.partition("/")
    spec = ((data.get("models") or {}).get("providers") or {}).get(provider) or {}
    for entry in spec.get("models") or []:
        if isinstance(entry, dict) and entry.get("id") == model_id and isinstance(entry.get("contextWindow"), int):
            return entry["contextWindow"], ref
    return _ask_server(spec, model_id), ref


def _ask_server(spec: dict[str, Any], model_id: str) -> int | None:
    base = spec.get("baseUrl")
    if not isinstance(base, str):
        return None
    try:
        from context_compactor.summarizer.client import Endpoint, make_client
        from context_compactor.summarizer.probe import probe_window

        with make_client() as client:
            return probe_window(client, Endpoint(base, model_id, "openai", None), seconds=4.0).window
    except Exception:  # noqa: BLE001 - a server that cannot say just means "unknown"
        return None


def preset_for(window: int | None) -> str:
    if window is None:
        return "8k"
    return "4k" if window <= 6000 else "8k" if window <= 16384 else "32k" if window <= 65536 else "128k"


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


# --- files -----------------------------------------------------------------------------------------


def files_state(paths: Paths) -> str:
    """"ours" (identical), "stale" (ours, older files or another Python), "foreign", or "absent"."""
    if not paths.plugin.exists():
        return "absent"
    marker = read_marker(paths.plugin)
    if marker is None:
        return "foreign"
    same = all((paths.plugin / n).is_file() and (paths.plugin / n).read_bytes() == shipped(n) for n in FILES)
    return "ours" if same and marker.get("python") == sys.executable else "stale"


def install_files(paths: Paths, extra: dict[str, Any]) -> str | None:
    """Copy the plugin files with a marker; a foreign folder is moved aside. Returns where to."""
    aside = None
    marker = read_marker(paths.plugin) if paths.plugin.exists() else None
    if paths.plugin.exists() and marker is None:
        aside = paths.data / "moved-aside" / f"{PLUGIN_ID}-{time.strftime('%Y%m%d-%H%M%S')}"
        aside.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(paths.plugin), aside)
    paths.plugin.mkdir(parents=True, exist_ok=True)
    for name in FILES:
        (paths.plugin / name).write_bytes(shipped(name))
    record = {**(marker or {}), **extra, "installedBy": PLUGIN_ID, "version": __version__, "python": sys.executable,
              "config": str(paths.config)}
    if aside is not None:
        record["movedAside"] = str(aside)
    (paths.plugin / MARKER).write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    return str(aside) if aside else None


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


def _diff(paths: Paths, old: str, new: str) -> str:
    return "".join(difflib.unified_diff(old.splitlines(True), new.splitlines(True),
                                        f"{paths.config} (now)", f"{paths.config} (after)"))


def _confirm(args: argparse.Namespace, question: str) -> bool:
    if args.yes:
        return True
    if not sys.stdin.isatty():
        raise InputError("setup asks before it changes anything, and stdin is not a terminal: "
                         "pass --yes (or --dry-run to see the changes)")
    return input(f"{question} [y/N] ").strip().lower() in ("y", "yes")


def _load(paths: Paths) -> tuple[str, Document]:
    try:
        old = paths.config.read_text(encoding="utf-8")
    except OSError as exc:
        raise CompactorError(f"{paths.config}: cannot read: {exc.strerror or exc}") from None
    return old, Document(old, str(paths.config))


def run_setup(args: argparse.Namespace) -> int:
    paths = locate(args.home, args.config)
    sets = parse_sets(args.set or [])
    old, doc = _load(paths)
    try:
        plan = plan_setup(doc, preset=args.preset, sets=sets, force=args.force)
    except PatchError as exc:
        print(f"context-compactor: {exc}\nAdd these lines to {paths.config} by hand, merged with what is there:\n"
              f"{snippet(sets)}", file=sys.stderr)
        return 2
    files = files_state(paths)
    new = plan.doc.text
    print(f"OpenClaw home: {paths.home}\nconfig: {paths.config}")
    if new == old and files == "ours":
        print("context-compactor is already set up here; nothing changed.")
        return 0
    if new != old:
        print(_diff(paths, old, new), end="")
    if files != "ours":
        what = {"absent": "install", "stale": "update", "foreign": "move the existing folder aside and install"}[files]
        print(f"files: {what} {paths.plugin} ({', '.join(FILES)}; Python {sys.executable})")
    for note in plan.notes:
        print(f"note: {note}")
    if args.dry_run:
        print("dry run: nothing was written.")
        return 0
    if not _confirm(args, "Apply these changes?"):
        print("nothing changed.")
        return 1
    marker = read_marker(paths.plugin) or {}
    extra = {"previousSlot": marker.get("previousSlot", plan.previous_slot),
             "addedToAllow": bool(marker.get("addedToAllow")) or plan.added_to_allow,
             "created": marker.get("created") or plan.created}
    aside = install_files(paths, extra)
    if new != old:
        write_atomic(paths.config, new, backup=paths.backup)
        ok, output = validate(paths)
        if ok is False:
            write_atomic(paths.config, old)
            raise CompactorError(f"openclaw config validate rejected the patched config, so it was put back "
                                 f"as it was:\n{output}")
        print(f"validated: {'yes' if ok else output}")
    if aside:
        print(f"moved the folder that was there to {aside} (uninstall puts it back)")
    print(f"changed: {'config and files' if new != old else 'files'}; backup of the config: "
          f"{paths.backup if new != old else 'none needed'}")
    print("\nOne command left: openclaw gateway restart")
    return 0


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
    old, doc = _load(paths)
    done = plan_uninstall(doc, marker)
    new = doc.text
    foreign = paths.plugin.exists() and not marker
    files = [p for p in (paths.plugin if marker else None, paths.data if not args.keep_data else None,
                         paths.backup) if p is not None and p.exists()]
    if new == old and not files and not marker.get("movedAside"):
        print("context-compactor is not set up here; nothing changed.")
        return 0
    if new != old:
        print(_diff(paths, old, new), end="")
    for path in files:
        print(f"remove: {path}")
    if marker.get("movedAside"):
        print(f"restore: {marker['movedAside']} -> {paths.plugin}")
    if foreign:
        print(f"note: {paths.plugin} is not ours (no {MARKER}); it stays")
    if args.dry_run:
        print("dry run: nothing was written.")
        return 0
    if not _confirm(args, "Uninstall?"):
        print("nothing changed.")
        return 1
    if new != old:
        write_atomic(paths.config, new, backup=paths.backup)
        ok, output = validate(paths)
        if ok is False:
            write_atomic(paths.config, old)
            raise CompactorError(f"openclaw config validate rejected the config without our keys, so it was put "
                                 f"back as it was:\n{output}")
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


def add_parsers(sub: Any) -> None:
    """Register ``setup`` and ``uninstall`` on the main parser's subcommands."""
    s = sub.add_parser("setup", help="install the extension into an OpenClaw gateway and patch its config",
                       description="Install context-compactor into an OpenClaw gateway: plugin files, config "
                                   "entry, contextEngine slot. Shows the changes and asks first.")
    _where(s)
    s.add_argument("--preset", choices=sorted(PRESETS, key=lambda k: int(k[:-1])),
                   help="settings for a model of this context size (default: from the default model's contextWindow)")
    s.add_argument("--set", action="append", metavar="KEY=VALUE",
                   help="any plugin option, such as --set maxTokens=6000 (repeatable; dotted keys nest)")
    s.add_argument("--force", action="store_true", help="replace another context engine in plugins.slots.contextEngine")
    s.set_defaults(run=run_setup)
    u = sub.add_parser("uninstall", help="take the extension out of an OpenClaw gateway",
                       description="Remove our plugin entry and files; the contextEngine slot goes back to what it was.")
    _where(u)
    u.add_argument("--keep-data", action="store_true", help="keep the summary cache and archive (<home>/context-compactor)")
    u.set_defaults(run=run_uninstall)


def _where(p: argparse.ArgumentParser) -> None:
    p.add_argument("--home", metavar="DIR", help="the gateway home (default: $OPENCLAW_STATE_DIR, else ~/.openclaw)")
    p.add_argument("--config", metavar="FILE",
                   help="the gateway config (default: $OPENCLAW_CONFIG_PATH, else <home>/openclaw.json)")
    p.add_argument("--yes", "-y", action="store_true", help="do not ask; for scripts")
    p.add_argument("--dry-run", action="store_true", help="print the exact changes and write nothing")
