"""Issue 21, defect 11: writing a config keeps its owner, group and mode, or refuses saying why.

Root running ``setup`` on another user's 0600 ``openclaw.json`` left the file root's: its owner could no
longer read it, and the owner's ``uninstall`` failed with "Permission denied". The CLI runs as a subprocess;
the other user is ``nobody`` (65534), and the tests need root.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import need

NOBODY = 65534

AS_USER = r"""
import os, sys
from context_compactor.setup_cli.main import build_parser, main
build_parser()  # load what the command loads while we may still read our own files
uid = int(sys.argv[1])
if uid != os.geteuid():
    os.setgroups([])
    os.setgid(uid)
    os.setuid(uid)
sys.exit(main(sys.argv[2:]))
"""


@pytest.fixture
def their_home() -> Iterator[Path]:
    """A gateway home that belongs to ``nobody``, with a 0600 ``openclaw.json`` of theirs; removed after."""
    need(os.geteuid() == 0, "root (to write another user's config)")
    root = Path(tempfile.mkdtemp(prefix="cc-owner-"))
    os.chmod(root, 0o755)
    home = root / "state"
    home.mkdir(mode=0o700)
    config = home / "openclaw.json"
    config.write_text(json.dumps({"gateway": {"port": 18789}}, indent=2) + "\n")
    config.chmod(0o600)
    for path in (home, config):
        os.chown(path, NOBODY, NOBODY)
    yield home
    shutil.rmtree(root)


def run_as(uid: int, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CONTEXT_COMPACTOR_", "OPENCLAW_"))}
    env.update(HOME=str(home.parent), PATH=f"{Path(sys.executable).parent}:/usr/bin:/bin")  # no openclaw
    return subprocess.run([sys.executable, "-c", AS_USER, str(uid), *args, "--home", str(home)],
                          capture_output=True, text=True, env=env, timeout=120, cwd=home.parent)


def owner_and_mode(path: Path) -> tuple[int, int, int]:
    st = path.lstat()
    return st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode)


def test_setup_as_root_keeps_the_owner_group_and_mode_of_their_config(their_home: Path) -> None:
    """After root's ``setup``, the config (and its backup) is still nobody's and 0600, and so are the files
    installed into their gateway home."""
    config = their_home / "openclaw.json"
    done = run_as(0, their_home, "setup", "--yes")
    assert done.returncode == 0, done.stderr
    assert "context-compactor" in config.read_text()
    assert owner_and_mode(config) == (NOBODY, NOBODY, 0o600)
    backup = Path(f"{config}.context-compactor.bak")
    if backup.exists():
        assert owner_and_mode(backup) == (NOBODY, NOBODY, 0o600)
    plugin = their_home / "extensions" / "context-compactor"
    assert {owner_and_mode(p)[:2] for p in (plugin.parent, plugin, *plugin.iterdir())} == {(NOBODY, NOBODY)}


def test_their_uninstall_works_after_roots_setup(their_home: Path) -> None:
    """The owner can uninstall what root set up: the config is theirs to read and write, the plugin theirs
    to remove."""
    assert run_as(0, their_home, "setup", "--yes").returncode == 0
    done = run_as(NOBODY, their_home, "uninstall", "--yes")
    assert done.returncode == 0, done.stderr
    config = their_home / "openclaw.json"
    assert "context-compactor" not in json.dumps(json.loads(config.read_text()).get("plugins", {}))
    assert owner_and_mode(config) == (NOBODY, NOBODY, 0o600)
    assert not (their_home / "extensions" / "context-compactor").exists()
