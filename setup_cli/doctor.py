"""``doctor``: check an OpenClaw gateway's context-compactor setup and explain what is wrong.

Each check prints one line, ``ok``, ``warn`` or ``FAIL``, with the fix for anything not ok: config
parses, plugin entry and slot, files present and ours, OpenClaw finds them where they are, the
bridge starts with the recorded Python and answers its handshake, the model server answers, the
context window and where it comes from, the store is writable, and how the bridge and its summaries
have fared in the gateway (crashes, hangs, restarts, the summary model's last error and its kind:
the files the plugin and the bridge keep beside the store). Exit 0 when nothing failed, 1 otherwise.
Doctor writes nothing, and a value of any type anywhere in the config is a finding, never a traceback.

``doctor --host gptme``, run with the Python gptme runs in, checks the gptme plugin instead: gptme's
config read as gptme and the plugin read it, ``[plugin.context-compactor]`` enabled, the model gptme
would use, and our trigger below gptme's compaction budget (warn when not: gptme would compact first).
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from context_compactor.errors import CompactorError, InputError
from context_compactor.settings import load_settings
from context_compactor.bridge import PROMPT_RECORD
from context_compactor.openclaw_health import BRIDGE_HEALTH, SUMMARIZER_HEALTH
from context_compactor.store import Store, StoreError, is_url

from .changes import validate
from .configpatch import Document
from .install import Paths, locate, read_marker
from .plugin import FILES, PLUGIN_ID, SLOT, shipped
from .presets import fit_problem, fixed_prompt, model_window

if TYPE_CHECKING:
    from context_compactor.hosts.gptme import GptmeHost


class Report:
    def __init__(self) -> None:
        self.failed = 0

    def __call__(self, level: str, text: str) -> None:
        self.failed += level == "FAIL"
        print(f"{level:<4}  {text}")


def check_config(paths: Paths, say: Report) -> dict[str, Any] | None:
    try:
        doc = Document(paths.config.read_text(encoding="utf-8"), str(paths.config))
    except (OSError, CompactorError) as exc:
        say("FAIL", f"config: {exc}")
        return None
    say("ok", f"config parses: {paths.config}")
    data = doc.data
    plugins: dict[str, Any] = data["plugins"] if isinstance(data.get("plugins"), dict) else {}
    entry = (plugins.get("entries") or {}).get(PLUGIN_ID)
    if not isinstance(entry, dict):
        say("FAIL", f"no plugins.entries.{PLUGIN_ID} (run `context-compactor setup`)")
    elif entry.get("enabled") is False:
        say("FAIL", f"plugins.entries.{PLUGIN_ID}.enabled is false (set it to true, or rerun setup)")
    else:
        say("ok", f"plugin entry plugins.entries.{PLUGIN_ID} is enabled")
    slot = (plugins.get("slots") or {}).get("contextEngine")
    say("ok" if slot == PLUGIN_ID else "FAIL", f"{'.'.join(SLOT)} is {slot!r}"
        + ("" if slot == PLUGIN_ID else f" (must be {PLUGIN_ID!r}: rerun setup, with --force if another engine is there)"))
    allow = plugins.get("allow")
    if isinstance(allow, list) and PLUGIN_ID not in allow:
        say("warn", f"plugins.allow does not list {PLUGIN_ID} (OpenClaw loads a selected engine anyway; add it to be explicit)")
    if PLUGIN_ID in (plugins.get("deny") or []):
        say("FAIL", f"plugins.deny lists {PLUGIN_ID}: remove it")
    config = entry.get("config") if isinstance(entry, dict) and isinstance(entry.get("config"), dict) else {}
    try:
        load_settings(overrides=config)
        say("ok", "plugin settings are valid")
    except CompactorError as exc:
        say("FAIL", f"plugin settings: {exc}")
    return data | {"_plugin_config": config}


def check_files(paths: Paths, say: Report) -> dict[str, Any] | None:
    marker = read_marker(paths.plugin)
    if not paths.plugin.is_dir():
        say("FAIL", f"{paths.plugin} is missing (run `context-compactor setup`)")
        return None
    if marker is None:
        say("FAIL", f"{paths.plugin} is not ours (no marker); `context-compactor setup` moves it aside")
        return None
    stale = [n for n in FILES if not (paths.plugin / n).is_file() or (paths.plugin / n).read_bytes() != shipped(n)]
    say("warn" if stale else "ok", f"plugin files in {paths.plugin}"
        + (f": {', '.join(stale)} differ from this version (rerun setup)" if stale else " are ours and current"))
    return marker


def check_bridge(paths: Paths, marker: dict[str, Any], config: dict[str, Any], say: Report) -> None:
    """Start the bridge as index.js does, with the recorded Python, and check its handshake.

    ``configure`` (the plugin's settings, with an in-memory store so that doctor writes nothing)
    and ``ping`` must both be answered; stdin then closes and the bridge exits on its own.
    """
    exe = str(marker.get("python") or "python3")
    lines = [{"id": 1, "method": "configure", "params": {"config": {**config, "storePath": ":memory:"}, "llm": False}},
             {"id": 2, "method": "ping", "params": {}}]
    env = {**os.environ, "OPENCLAW_STATE_DIR": str(paths.home), "PYTHONIOENCODING": "utf-8"}
    try:
        done = subprocess.run([exe, "-m", "context_compactor.bridge"], input="".join(json.dumps(x) + "\n" for x in lines),
                              capture_output=True, text=True, timeout=60, env=env)
    except (OSError, subprocess.TimeoutExpired) as exc:
        say("FAIL", f"the bridge ({exe} -m context_compactor.bridge) does not run: {exc} "
                    "(rerun setup with the Python that has context-compactor)")
        return
    replies = _replies(done.stdout)
    configured, pong = replies.get(1) or {}, replies.get(2) or {}
    if (configured.get("result") or {}).get("ok") and (pong.get("result") or {}).get("pong"):
        say("ok", f"the bridge answers its handshake ({exe}; summaries: {configured['result'].get('summarizer')})")
        return
    why = (configured.get("error") or {}).get("message") or (done.stderr.strip().splitlines() or ["no answer"])[-1]
    say("FAIL", f"the bridge ({exe} -m context_compactor.bridge) fails its handshake: {why} "
                f"(exit code {done.returncode}; rerun setup with the Python that has context-compactor)")


def _replies(stdout: str) -> dict[Any, dict[str, Any]]:
    out: dict[Any, dict[str, Any]] = {}
    for line in stdout.splitlines():
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if isinstance(msg, dict):
            out[msg.get("id")] = msg
    return out


def check_model(data: dict[str, Any], say: Report, paths: Paths | None = None) -> None:
    window, ref = model_window(data)
    config = data.get("_plugin_config") or {}
    configured = config.get("contextWindow")
    if isinstance(configured, int) and not isinstance(configured, bool) and configured > 0:
        say("ok", f"context window: {configured:,} tokens (from the plugin config)")
        window = configured
    elif configured is not None:
        say("FAIL", f"contextWindow in the plugin config is {json.dumps(configured)}: expected a number of tokens, "
                    "such as 8192")
    elif window:
        say("ok", f"context window of {ref}: {window:,} tokens (from openclaw.json or its server); "
                  "the whole prompt, OpenClaw's system prompt and tools included, is kept inside it")
    else:
        say("warn", f"context window: unknown ({ref}); each turn uses OpenClaw's own budget for it")
    if isinstance(window, int) and window > 0:
        check_fit(data, window, say, paths)
    provider = ref.partition("/")[0] if "/" in ref else ""
    base = (((data.get("models") or {}).get("providers") or {}).get(provider) or {}).get("baseUrl")
    if not isinstance(base, str):
        say("warn", "model server: no baseUrl for the default model's provider; not checked")
        return
    try:
        import httpx

        status = httpx.get(base.rstrip("/") + "/models", timeout=5.0).status_code
        say("ok" if status < 500 else "warn", f"model server {base} answers (HTTP {status})")
    except Exception as exc:  # noqa: BLE001 - any failure is the answer
        say("warn", f"model server {base} does not answer: {type(exc).__name__} (is it running?)")


def check_fit(data: dict[str, Any], window: int, say: Report, paths: Paths | None) -> None:
    """Whether OpenClaw's own prompt (measured by the bridge, else typical for the tool profile) fits the window."""
    measured = None
    if paths is not None:
        try:
            measured = json.loads((paths.data / PROMPT_RECORD).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            measured = None
    fixed, source = fixed_prompt(data, measured if isinstance(measured, dict) else None)
    problem = fit_problem(fixed, window, source)
    if problem:
        say("FAIL", problem)
    else:
        say("ok", f"OpenClaw's own prompt, about {fixed:,} tokens ({source}), leaves the history "
                  f"{window - fixed:,} of the {window:,}-token window")


def check_database(url: str, say: Report) -> None:
    """Open the PostgreSQL store read-only (nothing is created or migrated) and say whether it answers."""
    try:
        store = Store.open_read_only(url)
    except StoreError as exc:
        say("FAIL", str(exc))
        return
    try:
        say("ok", store.check())
    except StoreError as exc:
        say("FAIL", str(exc))
    finally:
        store.close()


def check_store(paths: Paths, config: dict[str, Any], say: Report) -> None:
    """Whether the store's folder can be written; creates nothing (a missing folder: its nearest parent).
    A postgresql:// store: whether its server answers with a schema this release reads."""
    if is_url(config.get("storePath")):
        check_database(str(config["storePath"]), say)
        return
    folder = Path(os.path.dirname(str(config.get("storePath") or paths.data / "store.sqlite")))
    if not folder.is_dir():
        parent = next((p for p in folder.parents if p.is_dir()), Path("/"))
        writable = os.access(parent, os.W_OK | os.X_OK)
        say("ok" if writable else "FAIL", f"store folder {folder} does not exist yet; "
            + (f"it can be created in {parent}" if writable else f"{parent} is not writable"))
        return
    try:
        with tempfile.NamedTemporaryFile(dir=folder):
            pass
        say("ok", f"store folder {folder} is writable")
    except OSError as exc:
        say("FAIL", f"store folder {folder} is not writable: {exc.strerror or exc}")


def check_discovery(paths: Paths, data: dict[str, Any], say: Report) -> None:
    """Whether OpenClaw, started as from this shell, finds the plugin where it is: in its own state folder's
    ``extensions`` ($OPENCLAW_STATE_DIR, else ~/.openclaw), or through ``plugins.load.paths``."""
    used = Path(os.environ.get("OPENCLAW_STATE_DIR", "").strip() or Path.home() / ".openclaw").expanduser()
    if _same(used, paths.home):
        return
    plugins = _dict(data.get("plugins"))
    paths_listed = _dict(plugins.get("load")).get("paths")
    listed = [Path(p).expanduser() for p in paths_listed if isinstance(p, str)] if isinstance(paths_listed, list) else []
    if any(_same(p, paths.plugin) or _same(p, paths.plugin.parent) for p in listed):
        say("ok", f"plugins.load.paths lists {paths.plugin}: OpenClaw finds it from any state folder")
        return
    why = "$OPENCLAW_STATE_DIR" if os.environ.get("OPENCLAW_STATE_DIR", "").strip() else "OPENCLAW_STATE_DIR is unset"
    say("FAIL", f"OpenClaw cannot find the plugin in {paths.plugin}: started from this shell it uses the state folder "
                f"{used} ({why}) and looks for plugins in {used / 'extensions'} and plugins.load.paths. Start the "
                f"gateway with OPENCLAW_STATE_DIR={paths.home}, or add \"{paths.plugin}\" to plugins.load.paths in "
                f"{paths.config}")


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _same(a: Path, b: Path) -> bool:
    return os.path.realpath(a) == os.path.realpath(b)


def _record(path: Path) -> dict[str, Any] | None:
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return value if isinstance(value, dict) else None


def _count(record: dict[str, Any], key: str) -> int:
    value = record.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def check_bridge_health(paths: Paths, say: Report) -> None:
    """How the bridge has fared in the gateway: the plugin's record of its starts, crashes, hangs, restarts."""
    record = _record(paths.data / BRIDGE_HEALTH)
    if record is None:
        say("ok", "bridge in the gateway: no record yet (the gateway has not run a turn with the plugin)")
        return
    crashes, hangs, restarts = _count(record, "crashes"), _count(record, "hangs"), _count(record, "restarts")
    line = (f"bridge in the gateway: {_count(record, 'starts')} start(s), {crashes} crash(es), {hangs} hang(s) "
            f"(killed for not answering in time), {restarts} restart(s)")
    crash, hang = record.get("lastCrash"), record.get("lastHang")
    if isinstance(crash, dict):
        line += f"; last crash {crash.get('at', '?')}: {crash.get('why', '?')}"
    if isinstance(hang, dict):
        line += f"; last hang {hang.get('at', '?')}: no answer to {hang.get('method', '?')} within {hang.get('seconds', '?')} s"
    if not (crashes or hangs):
        say("ok", line)
        return
    hint = (f"each such turn went to the model uncompacted; the gateway log has the bridge's own lines, "
            f"[context-compactor]; {paths.data / BRIDGE_HEALTH} keeps the counts")
    recent = any(_within_a_day(event.get("at")) for event in (crash, hang) if isinstance(event, dict))
    say("FAIL" if recent else "warn", line + (f" ({hint})" if recent else f" (the last more than a day ago; {hint})"))


def _within_a_day(at: Any) -> bool:
    """Whether an ISO time the plugin wrote is less than a day old (unreadable: yes, to be safe)."""
    from datetime import datetime, timezone

    try:
        when = datetime.fromisoformat(str(at).replace("Z", "+00:00"))
    except ValueError:
        return True
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return (datetime.now(timezone.utc) - when).total_seconds() < 86400


def check_summarizer_health(paths: Paths, say: Report) -> None:
    """The session model's summaries in the gateway: calls that succeeded, failures by kind, the last error."""
    record = _record(paths.data / SUMMARIZER_HEALTH)
    if record is None:
        return
    failures = _dict(record.get("failures"))
    failed: int = sum(n for n in failures.values() if isinstance(n, int))
    line = (f"summaries by {record.get('summarizer', '?')}: {_count(record, 'successes')} succeeded, {failed} failed"
            + (" (" + ", ".join(f"{k} {n}" for k, n in sorted(failures.items())) + ")" if failures else "")
            + "; each failure is a fallback to the built-in summary")
    if record.get("last_error"):
        line += f"; last error {record.get('last_at', '?')} ({record.get('last_kind', 'error')}): {str(record['last_error'])[:200]}"
    if _count(record, "consecutive"):
        say("FAIL", line + f" ({_count(record, 'consecutive')} in a row: is the model server up? see the gateway log)")
    else:
        say("warn" if failed else "ok", line)


def _guarded(say: Report, what: str, check: Callable[[], Any],
             hint: str = "`openclaw config validate` names it") -> Any:
    """Run one check; whatever it raises is one FAIL line, never a traceback (a config can hold any value)."""
    try:
        return check()
    except Exception as exc:  # noqa: BLE001 - doctor reports every failure as a finding
        say("FAIL", f"{what}: could not be checked ({type(exc).__name__}: {exc}); a value in the config has a type "
                    f"doctor did not expect: {hint}")
        return None


def run_doctor(args: argparse.Namespace) -> int:
    if args.host == "gptme":
        return run_gptme_doctor(args)
    if args.workspace:
        raise InputError("--workspace is gptme's (its gptme.toml's folder): add --host gptme, or use --home/--config")
    say = Report()
    paths = locate(args.home, args.config)
    say("ok", f"OpenClaw home: {paths.home}")
    data = _guarded(say, "config", lambda: check_config(paths, say))
    marker = _guarded(say, "plugin files", lambda: check_files(paths, say))
    if marker is not None:
        if data is not None:
            _guarded(say, "plugin discovery", lambda: check_discovery(paths, data, say))
        _guarded(say, "bridge", lambda: check_bridge(paths, marker, (data or {}).get("_plugin_config") or {}, say))
    if data is not None:
        _guarded(say, "model", lambda: check_model(data, say, paths))
        _guarded(say, "store", lambda: check_store(paths, data.get("_plugin_config") or {}, say))
        validated = _guarded(say, "openclaw config validate", lambda: validate(paths))
        if validated is not None and validated[0] is not None:
            say("ok" if validated[0] else "FAIL", "openclaw config validate: " + ("valid" if validated[0] else validated[1]))
    _guarded(say, "bridge health", lambda: check_bridge_health(paths, say))
    _guarded(say, "summarizer health", lambda: check_summarizer_health(paths, say))
    print("no problems found." if not say.failed else f"{say.failed} problem(s) found.")
    return 1 if say.failed else 0


# -- gptme (run in the Python gptme runs in) -----------------------------------------------------------

GPTME_HINT = "fix it in gptme.toml or ~/.config/gptme/config.toml"


def run_gptme_doctor(args: argparse.Namespace) -> int:
    """gptme's config as the plugin reads it, the model gptme would use, and our trigger against gptme's
    compaction budget (its autocompact fires there: ours must fire first)."""
    if args.home or args.config:
        raise InputError("--home and --config are OpenClaw's; with --host gptme, --workspace names gptme.toml's folder")
    try:
        gptme = importlib.import_module("gptme")
    except ImportError:
        raise CompactorError(f"doctor --host gptme: gptme is not installed in this Python ({sys.executable}); run "
                             "doctor with the Python gptme runs in, or pip install 'context-compactor[gptme]'") from None
    workspace = Path(args.workspace or ".").resolve()
    if not workspace.is_dir():
        raise InputError(f"--workspace {args.workspace}: no such folder (name the folder gptme runs in)")
    say = Report()
    say("ok", f"gptme {getattr(gptme, '__version__', '?')} in {sys.executable}")
    found = _guarded(say, "gptme config", lambda: check_gptme_config(workspace, say), GPTME_HINT)
    if found is not None:
        config, host, file = found
        _guarded(say, "gptme budget", lambda: check_gptme_budget(config, host, file, say), GPTME_HINT)
    print("no problems found." if not say.failed else f"{say.failed} problem(s) found.")
    return 1 if say.failed else 0


def check_gptme_config(workspace: Path, say: Report) -> tuple[Any, GptmeHost, Path] | None:
    """gptme's user and project config, read as gptme reads them, and our options from them as the plugin
    reads them; the file our table is in (else where it belongs). None when unreadable or not enabled."""
    config_mod = importlib.import_module("gptme.config")
    user_path = Path(importlib.import_module("gptme.config.user").config_path)
    project_path = next((p for p in (workspace / "gptme.toml", workspace / ".github" / "gptme.toml") if p.is_file()),
                        workspace / "gptme.toml")
    user = _read_gptme(say, user_path, lambda: config_mod.load_user_config() if user_path.is_file() else None)
    project = _read_gptme(say, project_path, lambda: config_mod.get_project_config(workspace, quiet=True))
    if user is False or project is False:
        return None
    # gptme's budget reads the config gptme would run with; an absent user config is not created
    config = config_mod.Config(user=user or importlib.import_module("gptme.config.models").UserConfig(),
                               project=project)
    config_mod.set_config(config)
    from context_compactor.hosts.gptme import NAME, GptmeHost

    host = GptmeHost()
    host.init(config)
    file = project_path if NAME in (getattr(project, "plugin", None) or {}) else (
        user_path if NAME in (config.user.plugin or {}) else project_path)
    if not host.enabled:
        say("FAIL", f"{file}: [plugin.{NAME}] has no `enabled = true`: gptme runs without us (add it)")
        return None
    say("ok", f"{file}: [plugin.{NAME}] is enabled")
    return config, host, file


def _read_gptme(say: Report, path: Path, read: Callable[[], Any]) -> Any:
    """One gptme config file read by gptme; False (after one FAIL line naming it) when gptme cannot read it."""
    try:
        return read()
    except Exception as exc:  # noqa: BLE001 - gptme raises whatever its TOML reader and checks raise
        say("FAIL", f"{path} cannot be read: {type(exc).__name__}: {exc} (gptme cannot start with it either: fix it)")
        return False


def check_gptme_budget(config: Any, host: GptmeHost, file: Path, say: Report) -> None:
    """Our trigger against gptme's compaction budget for the model gptme would use, with the plugin's figures."""
    model, source = _gptme_model(config)
    if model is None:
        say("warn", "gptme model: none configured (gptme -m, $MODEL, or [env] MODEL in gptme.toml); budget not checked")
        return
    window, trigger, budget = host.limits(model)
    from context_compactor.hosts.gptme import NAME

    how = ("max_tokens" if host.options.get("max_tokens") else
           f"compact_at {float(host.options.get('compact_at') or 0.75):g} x the {window:,}-token window")
    say("ok", f"gptme model {model.full} (from {source}): our window {window:,} tokens, trigger {trigger:,} ({how})")
    if budget is None:
        say("ok", f"gptme states no window for {model.full}: it has no compaction budget to come before ours")
    elif trigger < budget:
        say("ok", f"our trigger, {trigger:,} tokens, is below gptme's compaction budget, {budget:,}: we compact first")
    else:
        say("warn", f"our trigger, {trigger:,} tokens ({how}), is not below gptme's compaction budget for "
                    f"{model.full}, {budget:,} tokens: gptme's autocompact would compact first, so the plugin lowers "
                    f"our trigger to the budget at run time. Set max_tokens below {budget:,} under [plugin.{NAME}] "
                    f"in {file}, or raise gptme's budget ($GPTME_CONTEXT_BUDGET, [context] budget)")


def _gptme_model(config: Any) -> tuple[Any, str]:
    """The model gptme would start with, as its ``init_model`` resolves it (without starting the provider)."""
    found = importlib.import_module("gptme.config").resolve_model_source(config)
    if found is None:
        return None, ""
    model = importlib.import_module("gptme.llm.models").get_model(found[0])
    length = os.environ.get("GPTME_CONTEXT_LENGTH", "")
    if length.isdigit():
        model = dataclasses.replace(model, context=int(length))
    return model, found[1]


def add_parser(sub: Any) -> None:
    d = sub.add_parser("doctor", help="check the OpenClaw (or gptme) setup and explain what is wrong",
                       description="Check config, plugin entry and slot, files, Python, model server, window, store. "
                                   "With --host gptme (run with gptme's Python): gptme's config, the model it would "
                                   "use, and our trigger against gptme's compaction budget.")
    d.add_argument("--host", choices=["openclaw", "gptme"], default="openclaw", help="the host to check (default openclaw)")
    d.add_argument("--home", metavar="DIR", help="the gateway home (default: $OPENCLAW_STATE_DIR, else ~/.openclaw)")
    d.add_argument("--config", metavar="FILE", help="the gateway config (default: $OPENCLAW_CONFIG_PATH, else <home>/openclaw.json)")
    d.add_argument("--workspace", metavar="DIR", help="gptme: the folder whose gptme.toml gptme reads (default: this one)")
    d.set_defaults(run=run_doctor)
