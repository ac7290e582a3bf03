"""``context-compactor setup / uninstall / doctor`` on a corpus of real-world openclaw.json shapes.

Every write is checked by ``openclaw config validate`` where OpenClaw is installed (setup runs it
itself when ``openclaw`` is on PATH; CI installs it, a laptop without it skips those checks).
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import structlog
from conftest import need
from context_compactor.setup_cli import setup as setup_mod
from context_compactor.setup_cli.configpatch import parse
from context_compactor.setup_cli.main import main
from ocfakes.openclaw import openclaw_path

ID = "context-compactor"


@pytest.fixture(autouse=True)
def _logging_restored() -> Iterator[None]:
    """main() configures structlog for its stderr (pytest's capture here): put the old config back."""
    saved = structlog.get_config()
    yield
    structlog.configure(**saved)


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A gateway home; openclaw on PATH when it is installed (so setup validates what it writes)."""
    for name in ("OPENCLAW_CONFIG_PATH", "OPENCLAW_STATE_DIR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    path = openclaw_path()
    if path:
        monkeypatch.setenv("PATH", path)
    state = tmp_path / "state"
    state.mkdir()
    return state


def run(home: Path, *args: str) -> int:
    return main([*args, "--home", str(home)])


def config_data(home: Path) -> Any:
    return parse((home / "openclaw.json").read_text()).value


def validate(home: Path) -> None:
    """``openclaw config validate`` accepts the file (skips locally without OpenClaw; fails in CI)."""
    path = openclaw_path()
    need(path is not None, "OpenClaw (../shared/tools/openclaw-env.sh)")
    env = {**os.environ, "PATH": str(path), "OPENCLAW_STATE_DIR": str(home),
           "OPENCLAW_CONFIG_PATH": str(home / "openclaw.json")}
    done = subprocess.run(["openclaw", "config", "validate"], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def test_empty_file(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An empty openclaw.json gets the plugin entry and the slot; files and marker are installed."""
    (home / "openclaw.json").write_text("")
    assert run(home, "setup", "--yes", "--preset", "8k") == 0
    data = config_data(home)
    assert data["plugins"]["slots"]["contextEngine"] == ID
    assert data["plugins"]["entries"][ID]["config"]["keepRecentTokens"] == 2000
    marker = json.loads((home / "extensions" / ID / ".context-compactor.json").read_text())
    assert marker["python"] and (home / "extensions" / ID / "index.js").is_file()
    assert "openclaw gateway restart" in capsys.readouterr().out
    validate(home)


def test_comments_and_trailing_commas_kept(home: Path) -> None:
    """A commented JSON5 file keeps every comment and its style."""
    text = "// mine\n{\n  gateway: { mode: \"local\" }, // local only\n  /* plugins */\n  plugins: {\n    entries: {},\n  },\n}\n"
    (home / "openclaw.json").write_text(text)
    assert run(home, "setup", "--yes") == 0
    new = (home / "openclaw.json").read_text()
    assert "// mine" in new and "// local only" in new and "/* plugins */" in new
    assert "contextEngine: \"context-compactor\"," in new
    validate(home)


def test_existing_entry_settings_kept(home: Path) -> None:
    """The user's own plugin settings survive; the preset only fills what is missing; --set wins."""
    (home / "openclaw.json").write_text(json.dumps({"plugins": {"entries": {ID: {
        "enabled": False, "config": {"keepRecentTokens": 1234, "summaryMaxTokens": 777}}}}}, indent=2))
    assert run(home, "setup", "--yes", "--set", "summaryMaxTokens=900") == 0
    entry = config_data(home)["plugins"]["entries"][ID]
    assert entry["enabled"] is True
    assert entry["config"]["keepRecentTokens"] == 1234 and entry["config"]["summaryMaxTokens"] == 900
    assert "chunkTokens" in entry["config"]
    validate(home)


def test_allowlist_gets_our_id(home: Path) -> None:
    """An allowlist gets our id added, and uninstall takes only that out again."""
    (home / "openclaw.json").write_text('{"plugins": {"allow": ["memory-core"]}}\n')
    assert run(home, "setup", "--yes") == 0
    assert config_data(home)["plugins"]["allow"] == ["memory-core", ID]
    validate(home)
    assert run(home, "uninstall", "--yes") == 0
    assert config_data(home) == {"plugins": {"allow": ["memory-core"]}}


def test_foreign_engine_refused_without_force(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Another engine in the slot: refused and named; --force replaces it; uninstall puts it back."""
    text = '{\n  "plugins": {\n    "slots": {\n      "contextEngine": "lossless-claw"\n    }\n  }\n}\n'
    (home / "openclaw.json").write_text(text)
    assert run(home, "setup", "--yes") == 2
    assert "lossless-claw" in capsys.readouterr().err and (home / "openclaw.json").read_text() == text
    assert run(home, "setup", "--yes", "--force") == 0
    assert config_data(home)["plugins"]["slots"]["contextEngine"] == ID
    assert run(home, "uninstall", "--yes") == 0
    assert config_data(home)["plugins"]["slots"]["contextEngine"] == "lossless-claw"


def test_malformed_file_left_untouched(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A file that does not parse is not changed, and the error names the line."""
    text = '{\n  "gateway": {}\n  "plugins": {}\n}\n'
    (home / "openclaw.json").write_text(text)
    assert run(home, "setup", "--yes") == 2
    assert "line 3" in capsys.readouterr().err
    assert (home / "openclaw.json").read_text() == text and not (home / "extensions").exists()


def test_read_only_file_refused(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A read-only config is left as it is, with the lines to add by hand."""
    (home / "openclaw.json").write_text("{}\n")
    os.chmod(home / "openclaw.json", 0o444)
    assert run(home, "setup", "--yes") != 0
    assert "read-only" in capsys.readouterr().err and (home / "openclaw.json").read_text() == "{}\n"


def test_symlinked_config(home: Path, tmp_path: Path) -> None:
    """A symlinked config stays a link; its target gets the changes."""
    real = tmp_path / "real.json"
    real.write_text("{}\n")
    (home / "openclaw.json").symlink_to(real)
    assert run(home, "setup", "--yes") == 0
    assert (home / "openclaw.json").is_symlink() and ID in real.read_text()
    validate(home)


def test_second_run_changes_nothing(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Re-running setup writes nothing and says so."""
    (home / "openclaw.json").write_text("{}\n")
    assert run(home, "setup", "--yes") == 0
    before = (home / "openclaw.json").read_text()
    capsys.readouterr()
    assert run(home, "setup", "--yes") == 0
    assert "nothing changed" in capsys.readouterr().out and (home / "openclaw.json").read_text() == before


def test_dry_run_prints_diff_and_writes_nothing(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--dry-run shows the exact diff and leaves config and folder alone."""
    (home / "openclaw.json").write_text("{}\n")
    assert run(home, "setup", "--dry-run") == 0
    out = capsys.readouterr().out
    assert '+  "plugins": {' in out and "dry run" in out
    assert (home / "openclaw.json").read_text() == "{}\n" and not (home / "extensions").exists()


def test_refuses_without_a_gateway(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """No gateway home: a clear refusal, exit 2."""
    assert main(["setup", "--yes", "--home", str(tmp_path / "nope")]) == 2
    assert "no OpenClaw gateway home" in capsys.readouterr().err


def test_bad_set_value_refused(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A --set that the settings reject is refused before anything is written."""
    (home / "openclaw.json").write_text("{}\n")
    assert run(home, "setup", "--yes", "--set", "compactAt=7") == 2
    assert "compactAt" in capsys.readouterr().err and (home / "openclaw.json").read_text() == "{}\n"


def test_preset_from_default_model_window(home: Path) -> None:
    """Without --preset the default model's contextWindow picks the preset."""
    (home / "openclaw.json").write_text(json.dumps({
        "models": {"providers": {"p": {"baseUrl": "http://127.0.0.1:9/v1", "models": [{"id": "m", "contextWindow": 4096}]}}},
        "agents": {"defaults": {"model": {"primary": "p/m"}}}}))
    doc = setup_mod.Document((home / "openclaw.json").read_text())
    plan = setup_mod.plan_setup(doc, preset=None, sets={}, force=False)
    assert parse(plan.doc.text).value["plugins"]["entries"][ID]["config"] == setup_mod.PRESETS["4k"]


def test_foreign_folder_moved_aside_and_restored(home: Path) -> None:
    """A folder of our name that is not ours is moved aside by setup and put back by uninstall."""
    (home / "openclaw.json").write_text("{}\n")
    theirs = home / "extensions" / ID
    theirs.mkdir(parents=True)
    (theirs / "index.js").write_text("// someone else's")
    assert run(home, "setup", "--yes") == 0
    assert (theirs / ".context-compactor.json").exists()
    assert run(home, "uninstall", "--yes") == 0
    assert (theirs / "index.js").read_text() == "// someone else's"


def test_uninstall_leaves_nothing_of_ours(home: Path) -> None:
    """uninstall restores the config (our keys only) and removes our files and data."""
    text = '// keep me\n{\n  gateway: { mode: "local" },\n}\n'
    (home / "openclaw.json").write_text(text)
    assert run(home, "setup", "--yes") == 0
    (home / "context-compactor").mkdir(exist_ok=True)
    assert run(home, "uninstall", "--yes") == 0
    assert (home / "openclaw.json").read_text() == text
    assert sorted(p.name for p in home.iterdir()) == ["extensions", "openclaw.json"]
    assert list((home / "extensions").iterdir()) == []
    validate(home)


def test_doctor_reports(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """doctor passes on a fresh setup and fails, naming the fix, when the slot is taken away."""
    (home / "openclaw.json").write_text("{}\n")
    assert run(home, "setup", "--yes") == 0
    capsys.readouterr()
    assert run(home, "doctor") == 0
    out = capsys.readouterr().out
    assert "runs the bridge" in out and "no problems found" in out
    text = (home / "openclaw.json").read_text().replace('"contextEngine": "context-compactor"', '"contextEngine": "legacy"')
    (home / "openclaw.json").write_text(text)
    assert run(home, "doctor") == 1
    assert "plugins.slots.contextEngine is 'legacy'" in capsys.readouterr().out


def test_example_config_is_valid(home: Path) -> None:
    """openclaw.example.json parses, its plugin settings are valid, its preset is ours, and OpenClaw accepts it."""
    from conftest import ROOT
    from context_compactor.settings import load_settings

    text = (ROOT / "openclaw.example.json").read_text()
    data = parse(text, "openclaw.example.json").value
    config = data["plugins"]["entries"][ID]["config"]
    load_settings(overrides=config)
    assert config == setup_mod.PRESETS["32k"] and data["plugins"]["slots"]["contextEngine"] == ID
    (home / "openclaw.json").write_text(text)
    setup_mod.install_files(setup_mod.Paths(home, home / "openclaw.json"), {})
    validate(home)


def test_setup_asks_first(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Without --yes and without a terminal to ask on, setup refuses and writes nothing."""
    (home / "openclaw.json").write_text("{}\n")
    assert run(home, "setup") == 2
    assert "--yes" in capsys.readouterr().err and (home / "openclaw.json").read_text() == "{}\n"
