"""``context-compactor setup / uninstall / doctor`` on a corpus of real-world openclaw.json shapes.

Every write is checked by ``openclaw config validate`` where OpenClaw is installed (setup runs it
itself when ``openclaw`` is on PATH; CI installs it, a laptop without it skips those checks).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import structlog
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from conftest import need
from context_compactor.setup_cli import setup as setup_mod
from context_compactor.setup_cli.configpatch import parse
from context_compactor.setup_cli.main import main
from ocfakes.openclaw import ENV_SCRIPT, openclaw_path

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
    need(path is not None, f"OpenClaw (installed by {ENV_SCRIPT})")
    env = {**os.environ, "PATH": str(path), "OPENCLAW_STATE_DIR": str(home),
           "OPENCLAW_CONFIG_PATH": str(home / "openclaw.json")}
    done = subprocess.run(["openclaw", "config", "validate"], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.slow
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


@pytest.mark.slow
def test_comments_and_trailing_commas_kept(home: Path) -> None:
    """A commented JSON5 file keeps every comment and its style."""
    text = "// mine\n{\n  gateway: { mode: \"local\" }, // local only\n  /* plugins */\n  plugins: {\n    entries: {},\n  },\n}\n"
    (home / "openclaw.json").write_text(text)
    assert run(home, "setup", "--yes") == 0
    new = (home / "openclaw.json").read_text()
    assert "// mine" in new and "// local only" in new and "/* plugins */" in new
    assert "contextEngine: \"context-compactor\"," in new
    validate(home)


@pytest.mark.slow
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


@pytest.mark.slow
def test_allowlist_gets_our_id(home: Path) -> None:
    """An allowlist gets our id added, and uninstall takes only that out again."""
    (home / "openclaw.json").write_text('{"plugins": {"allow": ["memory-core"]}}\n')
    assert run(home, "setup", "--yes") == 0
    assert config_data(home)["plugins"]["allow"] == ["memory-core", ID]
    validate(home)
    assert run(home, "uninstall", "--yes") == 0
    assert config_data(home) == {"plugins": {"allow": ["memory-core"]}}


@pytest.mark.slow
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


@pytest.mark.slow
def test_symlinked_config(home: Path, tmp_path: Path) -> None:
    """A symlinked config stays a link; its target gets the changes."""
    real = tmp_path / "real.json"
    real.write_text("{}\n")
    (home / "openclaw.json").symlink_to(real)
    assert run(home, "setup", "--yes") == 0
    assert (home / "openclaw.json").is_symlink() and ID in real.read_text()
    validate(home)


@pytest.mark.slow
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


@pytest.mark.slow
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


@pytest.mark.slow
def test_uninstall_leaves_nothing_of_ours(home: Path) -> None:
    """uninstall restores the config (our keys only) and removes our files and data."""
    text = '// keep me\n{\n  gateway: { mode: "local" },\n}\n'
    (home / "openclaw.json").write_text(text)
    assert run(home, "setup", "--yes") == 0
    (home / "context-compactor").mkdir(exist_ok=True)
    assert run(home, "uninstall", "--yes") == 0
    assert (home / "openclaw.json").read_text() == text
    assert sorted(p.name for p in home.iterdir()) == ["openclaw.json"]  # extensions/ was setup's: gone too
    validate(home)


@pytest.mark.slow
def test_doctor_reports(home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """doctor passes on a fresh setup and fails, naming the fix, when the slot is taken away."""
    (home / "openclaw.json").write_text("{}\n")
    assert run(home, "setup", "--yes") == 0
    capsys.readouterr()
    monkeypatch.setenv("OPENCLAW_STATE_DIR", str(home))  # the gateway runs in this home
    assert run(home, "doctor") == 0
    out = capsys.readouterr().out
    assert "the bridge answers its handshake" in out and "no problems found" in out
    text = (home / "openclaw.json").read_text().replace('"contextEngine": "context-compactor"', '"contextEngine": "legacy"')
    (home / "openclaw.json").write_text(text)
    assert run(home, "doctor") == 1
    assert "plugins.slots.contextEngine is 'legacy'" in capsys.readouterr().out


@pytest.mark.slow
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


# --- issue 14: secrets, bytes, order of checks, leftovers --------------------------------------------


@pytest.fixture
def quick(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A gateway home without openclaw on PATH: setup and uninstall skip validation (not what these tests check)."""
    for name in ("OPENCLAW_CONFIG_PATH", "OPENCLAW_STATE_DIR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    monkeypatch.setenv("PATH", os.pathsep.join(p for p in os.environ["PATH"].split(os.pathsep)
                                               if not (Path(p) / "openclaw").exists()))
    state = tmp_path / "quick"
    state.mkdir()
    return state


def tree(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


_secret = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123456789-_", min_size=6, max_size=30).map(
    lambda s: "sk-" + s)


@given(key=_secret, token=_secret, complete=st.booleans())
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_dry_run_never_prints_a_secret(quick: Path, capsys: pytest.CaptureFixture[str], key: str, token: str,
                                       complete: bool) -> None:
    """--set summaryModel.apiKey=... and a gateway token already in the file never reach the output, ok or refused."""
    (quick / "openclaw.json").write_text(json.dumps({"gateway": {"auth": {"mode": "token", "token": token}}}, indent=2))
    extra = ["--set", "summaryModel.baseUrl=http://127.0.0.1:9/v1", "--set", "summaryModel.model=m"] if complete else []
    code = run(quick, "setup", "--dry-run", "--set", f"summaryModel.apiKey={key}", *extra)
    out, err = capsys.readouterr()
    assert code == (0 if complete else 2)
    assert key not in out + err and token not in out + err
    assert ('"apiKey": "***"' in out) == complete


def test_refused_patch_hides_the_secret_in_the_snippet(quick: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """When the file cannot be patched, the by-hand snippet shows the secret as ***."""
    (quick / "openclaw.json").write_text('{ plugins: "off" }\n')
    assert run(quick, "setup", "--yes", "--set", "summaryModel.apiKey=sk-hidden-1234") == 2
    err = capsys.readouterr().err
    assert "sk-hidden-1234" not in err and '"apiKey": "***"' in err


_configs = st.sampled_from([
    "{}\n",
    '{\n  "gateway": {\n    "mode": "local"\n  }\n}\n',
    "// mine\n{\n  gateway: { mode: 'local' }, // local only\n  /* plugins */\n  plugins: {\n    entries: {},\n  },\n}\n",
    '{\n  "plugins": {\n    "allow": ["memory-core"],\n    "entries": {\n      "other": { "enabled": true }\n    }\n  }\n}',
])


@given(text=_configs, crlf=st.booleans(), bom=st.booleans())
@settings(max_examples=16, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_line_ends_and_bom_are_kept(quick: Path, text: str, crlf: bool, bom: bool) -> None:
    """setup keeps CRLF line ends and a BOM as found, and uninstall gives back the very bytes."""
    raw = ("\ufeff" if bom else "") + (text.replace("\n", "\r\n") if crlf else text)
    config = quick / "openclaw.json"
    config.write_bytes(raw.encode("utf-8"))
    assert run(quick, "setup", "--yes") == 0
    after = config.read_bytes()
    assert after.startswith(b"\xef\xbb\xbf") == bom
    assert (after.count(b"\n") == after.count(b"\r\n")) if crlf else b"\r" not in after
    assert run(quick, "uninstall", "--yes") == 0
    assert config.read_bytes() == raw.encode("utf-8")
    assert tree(quick) == ["openclaw.json"]


PRIOR = """{
  plugins: {
    entries: {
      // tried it last year; off for now
      "context-compactor": { enabled: false, config: { maxTokens: 5000 /* small box */ } },
    },
  },
}
"""


def test_uninstall_puts_back_the_entry_that_was_there(quick: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A pre-existing plugins.entries["context-compactor"] (disabled, own settings, comments) comes back as written."""
    (quick / "openclaw.json").write_text(PRIOR)
    assert run(quick, "setup", "--yes") == 0
    assert config_data(quick)["plugins"]["entries"][ID]["enabled"] is True
    assert run(quick, "setup", "--yes", "--set", "maxTokens=7000") == 0  # a second run keeps the first one's record
    assert run(quick, "uninstall", "--yes") == 0
    assert (quick / "openclaw.json").read_text() == PRIOR
    assert "as it was before setup" in capsys.readouterr().out
    assert tree(quick) == ["openclaw.json"]  # the backup equals the config again: removed


def test_uninstall_keeps_the_backup_when_the_config_moved_on(quick: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """When the config is not byte for byte the one from before setup, the backup stays and uninstall says where."""
    (quick / "openclaw.json").write_text(PRIOR)
    assert run(quick, "setup", "--yes") == 0
    config = quick / "openclaw.json"
    config.write_text(config.read_text().replace("plugins: {", "gateway: { mode: 'local' },\n  plugins: {", 1))
    assert run(quick, "uninstall", "--yes") == 0
    backup = quick / "openclaw.json.context-compactor.bak"
    assert backup.read_text() == PRIOR and str(backup) in capsys.readouterr().out
    assert config_data(quick)["plugins"]["entries"][ID] == {"enabled": False, "config": {"maxTokens": 5000}}


def test_read_only_config_is_refused_before_anything_is_touched(quick: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A read-only config: setup refuses before it moves a foreign folder aside or installs any file."""
    (quick / "openclaw.json").write_text("{}\n")
    os.chmod(quick / "openclaw.json", 0o444)
    theirs = quick / "extensions" / ID
    theirs.mkdir(parents=True)
    (theirs / "index.js").write_text("// someone else's")
    before = tree(quick)
    assert run(quick, "setup", "--yes") == 2
    assert "read-only" in capsys.readouterr().err
    assert tree(quick) == before and (theirs / "index.js").read_text() == "// someone else's"


def test_temp_files_of_a_killed_setup_are_cleaned(quick: Path) -> None:
    """A writer killed with -9 leaves its temp file; the next setup removes it, and leaves a live writer's alone."""
    (quick / "openclaw.json").write_text("{}\n")
    code = ("import os, signal, sys; from pathlib import Path; "
            "from context_compactor.setup_cli.atomicwrite import temp_path; "
            "[temp_path(Path(a)).write_text('half') for a in sys.argv[1:]]; os.kill(os.getpid(), signal.SIGKILL)")
    killed = subprocess.run([sys.executable, "-c", code, str(quick / "openclaw.json"),
                             str(quick / "openclaw.json.context-compactor.bak")], timeout=60)
    assert killed.returncode == -9
    orphans = [p.name for p in quick.iterdir() if ".cc-tmp-" in p.name]
    assert len(orphans) == 2
    from context_compactor.setup_cli.atomicwrite import temp_path

    live = temp_path(quick / "openclaw.json")  # this process: alive
    live.write_text("in progress")
    assert run(quick, "setup", "--yes") == 0
    assert [p.name for p in quick.iterdir() if ".cc-tmp-" in p.name] == [live.name]


def test_doctor_creates_nothing_when_nothing_is_installed(quick: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """doctor on a gateway without us reports what is missing and leaves the home as it was."""
    (quick / "openclaw.json").write_text("{}\n")
    before = tree(quick)
    assert run(quick, "doctor") == 1
    assert "run `context-compactor setup`" in capsys.readouterr().out
    assert tree(quick) == before


def test_doctor_fails_a_bridge_that_does_not_answer(quick: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """doctor starts the bridge with the recorded Python: one that cannot run it is a failure, not "no problems"."""
    (quick / "openclaw.json").write_text("{}\n")
    assert run(quick, "setup", "--yes") == 0
    marker = quick / "extensions" / ID / ".context-compactor.json"
    marker.write_text(json.dumps({**json.loads(marker.read_text()), "python": "/bin/false"}))
    capsys.readouterr()
    assert run(quick, "doctor") == 1
    out = capsys.readouterr().out
    assert "fails its handshake" in out and "no problems found" not in out


def test_home_and_config_path_in_different_places_warns(quick: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """--home A with OPENCLAW_CONFIG_PATH inside B: a warning names both before anything happens."""
    other = tmp_path / "other"
    other.mkdir()
    (other / "openclaw.json").write_text("{}\n")
    monkeypatch.setenv("OPENCLAW_CONFIG_PATH", str(other / "openclaw.json"))
    assert run(quick, "setup", "--dry-run") == 0
    err = capsys.readouterr().err
    assert "warning: --home is" in err and str(other / "openclaw.json") in err


def installed(quick: Path, monkeypatch: pytest.MonkeyPatch, config: str = "{}\n") -> None:
    """setup in ``quick``, and OpenClaw pointed at it (OPENCLAW_STATE_DIR), as a user runs that gateway."""
    (quick / "openclaw.json").write_text(config)
    assert run(quick, "setup", "--yes") == 0
    monkeypatch.setenv("OPENCLAW_STATE_DIR", str(quick))


def test_doctor_says_openclaw_cannot_find_the_plugin_in_another_home(quick: Path, monkeypatch: pytest.MonkeyPatch,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """doctor --home A, with OpenClaw using ~/.openclaw: the plugin in A is not found, and doctor says how to fix it."""
    installed(quick, monkeypatch)
    monkeypatch.delenv("OPENCLAW_STATE_DIR")
    capsys.readouterr()
    assert run(quick, "doctor") == 1
    out = capsys.readouterr().out
    assert f"OpenClaw cannot find the plugin in {quick / 'extensions' / ID}" in out, out
    assert f"OPENCLAW_STATE_DIR={quick}" in out and "plugins.load.paths" in out
    assert "no problems found" not in out


def test_doctor_accepts_a_plugin_listed_in_load_paths(quick: Path, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """The same home with the plugin's folder in plugins.load.paths: OpenClaw finds it from anywhere."""
    installed(quick, monkeypatch)
    monkeypatch.delenv("OPENCLAW_STATE_DIR")
    data = config_data(quick)
    data["plugins"]["load"] = {"paths": [str(quick / "extensions" / ID)]}
    (quick / "openclaw.json").write_text(json.dumps(data))
    capsys.readouterr()
    run(quick, "doctor")
    out = capsys.readouterr().out
    assert "plugins.load.paths lists" in out and "cannot find the plugin" not in out


ODD = ["8k", None, True, -1, 1.5, [], {"a": {"b": []}}, "\u0000", 10**30]


@pytest.mark.parametrize("where", ["contextWindow", "model.contextWindow", "agents", "agents.defaults.model",
                                   "models", "models.providers", "provider", "provider.models", "plugins.entries.config",
                                   "plugins.load", "tools", "tools.profile", "plugins.allow"])
def test_doctor_never_shows_a_traceback(quick: Path, monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str], where: str) -> None:
    """Any value of any type in any of these places: doctor ends with its summary line, never a traceback."""
    config = {"models": {"providers": {"p": {"baseUrl": "http://127.0.0.1:9/v1", "models": [{"id": "m", "contextWindow": 32768}]}}},
              "agents": {"defaults": {"model": {"primary": "p/m"}}}}
    installed(quick, monkeypatch, json.dumps(config))
    marker = quick / "extensions" / ID / ".context-compactor.json"  # no bridge started: not what this checks
    marker.write_text(json.dumps({**json.loads(marker.read_text()), "python": "/bin/false"}))
    base = (quick / "openclaw.json").read_text()
    for value in ODD:
        data = parse(base).value
        entry = data["plugins"]["entries"][ID]
        spot = {"contextWindow": (entry.setdefault("config", {}), "contextWindow"),
                "model.contextWindow": (data["models"]["providers"]["p"]["models"][0], "contextWindow"),
                "agents": (data, "agents"), "agents.defaults.model": (data["agents"]["defaults"], "model"),
                "models": (data, "models"), "models.providers": (data["models"], "providers"),
                "provider": (data["models"]["providers"], "p"), "provider.models": (data["models"]["providers"]["p"], "models"),
                "plugins.entries.config": (entry, "config"), "plugins.load": (data["plugins"], "load"),
                "tools": (data, "tools"), "tools.profile": (data.setdefault("tools", {}), "profile"),
                "plugins.allow": (data["plugins"], "allow")}[where]
        spot[0][spot[1]] = value
        (quick / "openclaw.json").write_text(json.dumps(data))
        capsys.readouterr()
        code = run(quick, "doctor")
        out = capsys.readouterr()
        assert code in (0, 1), (value, out)
        assert "Traceback" not in out.out + out.err, (value, out)
        assert out.out.rstrip().endswith(("no problems found.", "problem(s) found.")), (value, out.out)


def test_doctor_reports_crashes_hangs_and_the_summary_models_last_error(quick: Path, monkeypatch: pytest.MonkeyPatch,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """What the plugin and the bridge recorded in the gateway: crashes and hangs fail doctor, the summary
    model's last error is named with its kind."""
    from datetime import datetime, timedelta, timezone

    installed(quick, monkeypatch)
    data = quick / "context-compactor"
    data.mkdir(exist_ok=True)
    now = datetime.now(timezone.utc)
    (data / "bridge-health.json").write_text(json.dumps({
        "starts": 3, "crashes": 1, "hangs": 1, "restarts": 2, "pid": 42,
        "lastCrash": {"at": (now - timedelta(hours=2)).isoformat(), "why": "signal SIGSEGV"},
        "lastHang": {"at": (now - timedelta(hours=1)).isoformat(), "method": "assemble", "seconds": 30}}))
    (data / "summarizer-health.json").write_text(json.dumps({
        "summarizer": "openclaw-llm:p/m", "successes": 4, "failures": {"server_error": 2}, "consecutive": 0,
        "last_error": "500 Internal Server Error", "last_kind": "server_error", "last_at": "2026-12-02 09:06:00"}))
    capsys.readouterr()
    assert run(quick, "doctor") == 1
    out = capsys.readouterr().out
    assert "3 start(s), 1 crash(es), 1 hang(s)" in out and "2 restart(s)" in out, out
    assert "signal SIGSEGV" in out and "no answer to assemble within 30 s" in out
    assert "4 succeeded, 2 failed (server_error 2)" in out and "(server_error): 500 Internal Server Error" in out
    assert "no problems found" not in out


def test_doctor_warns_of_bridge_trouble_more_than_a_day_old(quick: Path, monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """A crash recorded two days ago is a warning that says so, not a failure."""
    from datetime import datetime, timedelta, timezone

    installed(quick, monkeypatch)
    (quick / "context-compactor").mkdir(exist_ok=True)
    old = (datetime.now(timezone.utc) - timedelta(days=2)).isoformat()
    (quick / "context-compactor" / "bridge-health.json").write_text(json.dumps({
        "starts": 2, "crashes": 1, "hangs": 0, "restarts": 1, "lastCrash": {"at": old, "why": "exit code 1"}}))
    capsys.readouterr()
    run(quick, "doctor")
    out = capsys.readouterr().out
    line = next(line for line in out.splitlines() if "bridge in the gateway" in line)
    assert line.startswith("warn") and "more than a day ago" in line, out
