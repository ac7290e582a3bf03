"""Where a gateway keeps things, and our plugin folder in it.

``locate`` finds the gateway home and its ``openclaw.json``; ``install_files`` copies the shipped
plugin files into ``<home>/extensions/context-compactor/`` with a marker that records this Python
and what setup changed (so uninstall can undo exactly that). A folder of that name that is not
ours is moved aside under ``<home>/context-compactor/moved-aside/``, for uninstall to put back.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from context_compactor import __version__
from context_compactor.errors import InputError

from .atomicwrite import give, owner_to_keep
from .plugin import FILES, MARKER, PLUGIN_ID, shipped

BACKUP_SUFFIX = ".context-compactor.bak"


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
    if home and not config and os.environ.get("OPENCLAW_CONFIG_PATH") and not _inside(cfg, base):
        print(f"warning: --home is {base} but $OPENCLAW_CONFIG_PATH points to {cfg}: the config there is the one "
              f"used, with the plugin files in {base}; pass --config, or unset OPENCLAW_CONFIG_PATH, if that is "
              "not what you mean", file=sys.stderr)
    if must_exist and not base.is_dir():
        raise InputError(f"no OpenClaw gateway home at {base} (run `openclaw onboard` first, or pass --home)")
    if must_exist and not cfg.is_file():
        raise InputError(f"no OpenClaw config at {cfg} (run `openclaw onboard` or `openclaw config set ...` first, "
                         "or point OPENCLAW_CONFIG_PATH at it)")
    return Paths(base, cfg)


def _inside(path: Path, folder: Path) -> bool:
    return Path(os.path.realpath(path)).is_relative_to(os.path.realpath(folder))


def read_marker(folder: Path) -> dict[str, Any] | None:
    """Our marker in ``folder``; None when the folder is not ours (or has no readable marker)."""
    try:
        data = json.loads((folder / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and data.get("installedBy") == PLUGIN_ID else None


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
    owner = owner_to_keep(paths.config) if os.geteuid() == 0 else None  # root in another user's gateway
    made = [p for p in (paths.plugin, *paths.plugin.parents) if not p.exists() and p.is_relative_to(paths.home)]
    paths.plugin.mkdir(parents=True, exist_ok=True)
    for name in FILES:
        (paths.plugin / name).write_bytes(shipped(name))
    record = {**(marker or {}), **extra, "installedBy": PLUGIN_ID, "version": __version__, "python": sys.executable,
              "config": str(paths.config)}
    if aside is not None:
        record["movedAside"] = str(aside)
    (paths.plugin / MARKER).write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    for path in (*made, *(paths.plugin / name for name in (*FILES, MARKER))):
        give(path, owner)  # its owner's uninstall can remove them
    return str(aside) if aside else None
