"""The `context-compactor` command, run as the real console script in a subprocess."""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from context_compactor.messages import validate_messages
from context_compactor.store import Store

ROOT = Path(__file__).resolve().parent.parent
SESSION = ROOT / "examples" / "agent-session.json"
SCRIPT = Path(sys.executable).with_name("context-compactor")

SMALL = [
    {"role": "system", "content": "You are terse."},
    {"role": "user", "content": "What is in the repo?"},
    {"role": "assistant", "content": None, "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "bash", "arguments": '{"command": "ls"}'}}]},
    {"role": "tool", "tool_call_id": "c1", "content": "README.md\nsrc/"},
    {"role": "assistant", "content": "A README and a src folder."},
]


def cli_env(root: Path) -> dict[str, str]:
    """An environment whose HOME and OPENCLAW_STATE_DIR are inside ``root``, with no CONTEXT_COMPACTOR_* leaking in."""
    (root / "home").mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.upper().startswith("CONTEXT_COMPACTOR_")}
    env.update(HOME=str(root / "home"), OPENCLAW_STATE_DIR=str(root / "state"), PYTHONWARNINGS="ignore")
    return env


def command(*args: str | Path) -> list[str]:
    assert SCRIPT.exists(), f"console script missing at {SCRIPT}: pip install -e ."
    return [str(SCRIPT), *map(str, args)]


@pytest.fixture
def cli(tmp_path: Path) -> Any:
    """Run the console script with HOME and OPENCLAW_STATE_DIR inside tmp_path, in tmp_path."""
    env = cli_env(tmp_path)

    def run(*args: str | Path, stdin: bytes | None = None, text: bool = True) -> subprocess.CompletedProcess[Any]:
        data: Any = stdin.decode() if text and stdin is not None else stdin
        return subprocess.run(command(*args), input=data, capture_output=True, text=text, env=env, cwd=tmp_path,
                              timeout=120)

    run.env = env  # type: ignore[attr-defined]
    return run


@pytest.fixture(scope="module")
def compacted(tmp_path_factory: pytest.TempPathFactory) -> tuple[subprocess.CompletedProcess[str], Path]:
    """One `compact SESSION --context-window 8192 --json` run on a fresh store, shared by the tests that only read it."""
    root = tmp_path_factory.mktemp("compacted")
    store = root / "store.sqlite"
    done = subprocess.run(command("compact", SESSION, "--context-window", "8192", "--json", "--store", store),
                          capture_output=True, text=True, env=cli_env(root), cwd=root, timeout=120)
    assert done.returncode == 0, done.stderr
    return done, store


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return tmp_path / "store.sqlite"


@pytest.fixture
def small(tmp_path: Path) -> Path:
    path = tmp_path / "small.json"
    path.write_text(json.dumps(SMALL), encoding="utf-8")
    return path


def compact_json(cli: Any, *args: str | Path) -> dict[str, Any]:
    done = cli("compact", *args, "--json")
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


# --- compact ---------------------------------------------------------------------------------------


def test_compact_json_prints_exactly_one_object(compacted: tuple[Any, Path]) -> None:
    """With --json, stdout is one JSON object on one line holding messages and stats, and stderr is quiet."""
    done, _store = compacted
    assert done.stdout.endswith("\n") and done.stdout.count("\n") == 1
    result = json.loads(done.stdout)
    assert set(result) == {"messages", "stats"}
    assert done.stderr == ""


def test_compact_over_the_trigger_shrinks_below_it(compacted: tuple[Any, Path]) -> None:
    """The example session is compacted: fewer tokens after, within the 0.75 x window trigger."""
    result = json.loads(compacted[0].stdout)
    stats = result["stats"]
    assert stats["compacted"] is True
    assert stats["tokens_before"] > stats["tokens_after"]
    assert stats["tokens_after"] <= 0.75 * 8192
    assert (stats["context_window"], stats["window_source"], stats["trigger"]) == (8192, "config", 6144)
    assert stats["messages_after"] == len(result["messages"]) < stats["messages_before"]
    assert isinstance(stats["tokens_before"], int) and isinstance(stats["tokens_after"], int)


def test_compacted_messages_are_a_valid_conversation(compacted: tuple[Any, Path]) -> None:
    """What compact writes is itself valid input: roles known, every tool result after its call."""
    result = json.loads(compacted[0].stdout)
    validate_messages(result["messages"])
    original = json.loads(SESSION.read_text())["messages"]
    assert result["messages"][0] == original[0]  # the system prompt is kept verbatim
    assert result["messages"][-1] == original[-1]  # and so is the latest message


def test_compact_archives_what_leaves_the_prompt(compacted: tuple[Any, Path]) -> None:
    """Every message folded away by the CLI is in the store's archive afterwards."""
    done, store = compacted
    result = json.loads(done.stdout)
    with sqlite3.connect(store) as db:
        sessions = [row[0] for row in db.execute("SELECT DISTINCT session_key FROM archive")]
    opened = Store.open(store)
    archived = [row["message"] for key in sessions for row in opened.archived(key)]
    opened.close()
    original = json.loads(SESSION.read_text())["messages"]
    folded = original[1:1 + result["stats"]["folded"]]
    assert len(sessions) == 1
    assert result["stats"]["folded"] > 0
    assert all(message in archived for message in folded)


def test_compact_under_the_trigger_changes_nothing(cli: Any, small: Path, store: Path) -> None:
    """A conversation under the trigger comes back unchanged, with compacted false."""
    result = compact_json(cli, small, "--context-window", "8192", "--store", store)
    assert result["messages"] == SMALL
    assert result["stats"]["compacted"] is False
    assert result["stats"]["tokens_before"] == result["stats"]["tokens_after"] > 0


def test_compact_reads_stdin(cli: Any, compacted: tuple[Any, Path]) -> None:
    """"-" reads the conversation from stdin, with the same result as from the file."""
    from_stdin = cli("compact", "-", "--context-window", "8192", "--json", "--store", ":memory:",
                     stdin=SESSION.read_bytes())
    assert from_stdin.returncode == 0, from_stdin.stderr
    assert from_stdin.stdout == compacted[0].stdout


def test_compact_accepts_a_plain_list(cli: Any, tmp_path: Path) -> None:
    """A bare JSON list of messages is accepted as well as {"messages": [...]}."""
    plain = tmp_path / "plain.json"
    plain.write_text(json.dumps(json.loads(SESSION.read_text())["messages"]))
    result = compact_json(cli, plain, "--context-window", "8192", "--store", ":memory:")
    assert result["stats"]["compacted"] is True


def test_compact_without_json_prints_the_messages_and_a_summary(cli: Any, store: Path) -> None:
    """Without --json, stdout is the message list and stderr one summary line of what happened."""
    done = cli("compact", SESSION, "--context-window", "8192", "--store", store)
    assert done.returncode == 0, done.stderr
    assert isinstance(json.loads(done.stdout), list)
    assert done.stderr.startswith("context-compactor: compacted: 46,")
    assert "window 8,192" in done.stderr


def test_output_file_is_written_atomically(cli: Any, tmp_path: Path, store: Path) -> None:
    """-o replaces the file in one step (new inode), leaves no temp file, prints nothing, and keeps a normal mode."""
    target = tmp_path / "out" / "compacted.json"
    target.parent.mkdir()
    target.write_text("old contents")
    target.chmod(0o640)
    old_inode = target.stat().st_ino
    done = cli("compact", SESSION, "--context-window", "8192", "--json", "--store", store, "-o", target)
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    assert json.loads(target.read_text())["stats"]["compacted"] is True
    assert target.stat().st_ino != old_inode
    assert list(target.parent.iterdir()) == [target]
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


def test_new_output_file_gets_the_umask_mode(cli: Any, tmp_path: Path) -> None:
    """A new -o file is readable like any file the user writes, not private to the process (0600)."""
    target = tmp_path / "new.json"
    done = cli("compact", SESSION, "--context-window", "8192", "--store", ":memory:", "-o", target)
    assert done.returncode == 0, done.stderr
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~umask


def test_output_equals_stdout(cli: Any, tmp_path: Path, compacted: tuple[Any, Path]) -> None:
    """What -o writes is byte for byte what stdout would show."""
    target = tmp_path / "o.json"
    cli("compact", SESSION, "--context-window", "8192", "--json", "--store", ":memory:", "-o", target)
    assert target.read_bytes() == compacted[0].stdout.encode("utf-8")


def test_bad_input_leaves_an_existing_output_file_alone(cli: Any, tmp_path: Path) -> None:
    """When the input is bad, the -o file keeps its old contents."""
    bad, target = tmp_path / "bad.json", tmp_path / "o.json"
    bad.write_text("[]")
    target.write_text("precious")
    done = cli("compact", bad, "--store", ":memory:", "-o", target)
    assert done.returncode == 2
    assert target.read_text() == "precious"


def test_compact_is_deterministic(cli: Any, tmp_path: Path, compacted: tuple[Any, Path]) -> None:
    """Running twice on fresh stores gives identical bytes, stats included."""
    again = cli("compact", SESSION, "--context-window", "8192", "--json", "--store", tmp_path / "b.sqlite", text=False)
    assert again.returncode == 0
    assert again.stdout == compacted[0].stdout.encode("utf-8")


def test_warm_cache_gives_the_same_prompt(cli: Any, tmp_path: Path) -> None:
    """A second run over the same store writes the same prompt bytes as the cold run (the built-in
    ledger is rebuilt from the messages, not read from the summary cache)."""
    shared = tmp_path / "shared.sqlite"
    args = ("compact", SESSION, "--context-window", "8192", "--store", shared)
    cold, warm = cli(*args, text=False), cli(*args, text=False)
    assert cold.stdout == warm.stdout and cold.stdout


def test_compact_with_tiktoken_counts_tokens(cli: Any) -> None:
    """--tokenizer cl100k_base measures with the shipped encoding and still compacts."""
    result = compact_json(cli, SESSION, "--context-window", "8192", "--tokenizer", "cl100k_base", "--store", ":memory:")
    assert result["stats"]["compacted"] is True
    assert result["stats"]["tokens_after"] <= 6144


def test_flags_reach_the_settings(cli: Any) -> None:
    """--max-tokens sets the trigger the stats report."""
    result = compact_json(cli, SESSION, "--context-window", "32768", "--max-tokens", "10000", "--store", ":memory:")
    assert result["stats"]["trigger"] == 10000
    assert result["stats"]["tokens_after"] <= 10000


def test_config_file_options_apply(cli: Any, tmp_path: Path) -> None:
    """Options from --config (OpenClaw names) are used, and per-model overrides apply to --model."""
    config = tmp_path / "c.json"
    config.write_text(json.dumps({"config": {"contextWindow": 100000, "models": {"ollama/*": {"contextWindow": 8192}}}}))
    other = compact_json(cli, SESSION, "--config", config, "--store", ":memory:")
    ollama = compact_json(cli, SESSION, "--config", config, "--model", "ollama/qwen", "--store", ":memory:")
    assert (other["stats"]["context_window"], other["stats"]["compacted"]) == (100000, False)
    assert (ollama["stats"]["context_window"], ollama["stats"]["compacted"]) == (8192, True)


def test_disabled_config_sends_the_conversation_unchanged(cli: Any, tmp_path: Path) -> None:
    """With enabled: false, compact exits 0, changes nothing, and still reports the figures."""
    config = tmp_path / "off.json"
    config.write_text('{"enabled": false}')
    done = cli("compact", SESSION, "--context-window", "8192", "--config", config, "--store", ":memory:")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == json.loads(SESSION.read_text())["messages"]
    assert "disabled" in done.stderr
    assert "Traceback" not in done.stderr


def test_without_a_store_compact_writes_nothing_but_its_output(cli: Any, tmp_path: Path) -> None:
    """Without --store or a configured storePath, compact keeps its store in memory: nothing is written under
    $OPENCLAW_STATE_DIR or HOME (issue 24)."""
    done = cli("compact", SESSION, "--context-window", "8192", "--json")
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / "state").exists()
    assert list((tmp_path / "home").iterdir()) == []


def test_closed_pipe_exits_quietly(cli: Any) -> None:
    """When the reader stops early, the command exits 0 without a traceback or 'Exception ignored'."""
    proc = subprocess.Popen([str(SCRIPT), "compact", str(SESSION), "--context-window", "1000000", "--json",
                             "--store", ":memory:"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=cli.env)
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.read(10) == b'{"messages'
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.wait(timeout=60)
    assert (proc.returncode, err) == (0, "")


def test_piped_into_head_exits_0_quietly(cli: Any, tmp_path: Path) -> None:
    """`compact ... | head -c 100`: head exits after 100 bytes, and compact exits 0 with nothing on stderr."""
    err_path = tmp_path / "stderr.txt"
    with err_path.open("wb") as err:
        writer = subprocess.Popen(command("compact", SESSION, "--context-window", "1000000", "--store", ":memory:"),
                                  stdout=subprocess.PIPE, stderr=err, env=cli.env, cwd=tmp_path)
        assert writer.stdout is not None
        head = subprocess.run(["head", "-c", "100"], stdin=writer.stdout, capture_output=True, timeout=60)
        writer.stdout.close()  # only head holds the read end now: when it exits, the pipe is closed
        writer.wait(timeout=60)
    assert head.returncode == 0 and len(head.stdout) == 100
    assert writer.returncode == 0
    assert "Traceback" not in err_path.read_text() and "Exception ignored" not in err_path.read_text()


def big_system(tmp_path: Path) -> Path:
    """A conversation whose system prompt alone is larger than a 1,024-token window."""
    path = tmp_path / "big-system.json"
    path.write_text(json.dumps([{"role": "system", "content": "Follow the rules. " * 600},
                                {"role": "user", "content": "hi"}]), encoding="utf-8")
    return path


def test_cannot_fit_exits_3_with_one_line_and_writes_the_best_prompt(cli: Any, tmp_path: Path) -> None:
    """A system prompt above the window: exit 3, one "cannot fit: <why>" line, and the prompt still written."""
    done = cli("compact", big_system(tmp_path), "--context-window", "1024", "--store", ":memory:")
    assert done.returncode == 3, done.stderr
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith("context-compactor: cannot fit: ") and "1,024-token" in done.stderr
    assert json.loads(done.stdout)[-1] == {"role": "user", "content": "hi"}


def test_cannot_fit_json_says_fits_false_with_the_reason(cli: Any, tmp_path: Path) -> None:
    """With --json, a prompt that cannot fit has fits false, the reason and the session in its stats."""
    done = cli("compact", big_system(tmp_path), "--context-window", "1024", "--store", ":memory:", "--json")
    assert done.returncode == 3
    stats = json.loads(done.stdout)["stats"]
    assert stats["fits"] is False and "1,024-token" in stats["reason"]
    assert stats["session"].startswith("cli:") and stats["tokens_after"] > 1024


def test_the_example_session_at_128_tokens_cannot_fit(cli: Any) -> None:
    """The example session at a 128-token window (its system prompt alone takes more) cannot fit: exit 3,
    "cannot fit" with the reason, and the conversation written as it came."""
    done = cli("compact", SESSION, "--context-window", "128", "--store", ":memory:")
    assert done.returncode == 3, done.stderr
    assert done.stderr.startswith("context-compactor: cannot fit: ") and "system prompt" in done.stderr
    assert "(wrote the conversation unchanged: " in done.stderr


def test_the_example_session_at_256_tokens_fits_with_a_last_resort_ledger(cli: Any) -> None:
    """At 256 tokens the usual smallest ledger is too big: the ledger shrinks below it and the prompt fits."""
    done = cli("compact", SESSION, "--context-window", "256", "--store", ":memory:", "--json")
    assert done.returncode == 0, done.stderr
    stats = json.loads(done.stdout)["stats"]
    assert stats["fits"] and stats["compacted"] and stats["tokens_after"] <= 256


def test_a_fitting_prompt_has_fits_true_and_no_reason(compacted: tuple[Any, Path]) -> None:
    """--json stats of a compaction that fits: fits true, reason null, and the session key."""
    stats = json.loads(compacted[0].stdout)["stats"]
    assert (stats["fits"], stats["reason"]) == (True, None) and stats["session"].startswith("cli:")


def test_a_failing_compaction_says_failed_and_writes_the_conversation_unchanged(cli: Any, tmp_path: Path) -> None:
    """When the archive refuses writes, compact exits 1 with one "failed: <why>" line and writes the input as it is."""
    path = tmp_path / "refusing.sqlite"
    Store.open(path).close()
    with sqlite3.connect(path) as db:
        db.execute("CREATE TRIGGER refuse BEFORE INSERT ON archive BEGIN SELECT RAISE(ABORT, 'archive says no'); END")
    done = cli("compact", SESSION, "--context-window", "8192", "--store", path)
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("context-compactor: failed: ")
    assert "archive says no" in done.stderr and "written unchanged" in done.stderr
    assert json.loads(done.stdout) == json.loads(SESSION.read_text())["messages"]


def test_under_the_trigger_the_verdict_says_so(cli: Any, small: Path) -> None:
    """A conversation under the trigger gets the verdict "unchanged (under the trigger)" and exit 0."""
    done = cli("compact", small, "--context-window", "8192", "--store", ":memory:")
    assert done.returncode == 0
    assert done.stderr.startswith("context-compactor: unchanged (under the trigger): ")


# --- stats -----------------------------------------------------------------------------------------


def test_stats_prints_the_report(cli: Any) -> None:
    """stats prints the /context-stats report: counts by role, tokens, window, trigger and what compaction does."""
    done = cli("stats", SESSION, "--context-window", "8192")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "context-compactor stats"
    assert "- messages: 239 (134 assistant, 1 system, 90 tool, 14 user)" in lines
    assert "- context window: 8,192 tokens (from the config)" in lines
    assert "- trigger: 6,144 tokens; target after compaction: 4,096 tokens" in lines
    assert any(line.startswith("- last compaction: ") and "messages summarized" in line for line in lines)


def test_stats_writes_nothing(cli: Any, tmp_path: Path) -> None:
    """stats without --store keeps nothing on disk."""
    done = cli("stats", SESSION, "--context-window", "8192")
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / "state").exists()


def test_stats_of_a_small_conversation_says_no_compaction_needed(cli: Any, small: Path) -> None:
    """For a conversation under the trigger, the report says no compaction is needed."""
    done = cli("stats", small)
    assert done.returncode == 0, done.stderr
    assert "- next turn: no compaction needed" in done.stdout
    assert "context window: 8,192 tokens (DEFAULT" in done.stdout  # flagged: never assume a big window


# --- bad input -------------------------------------------------------------------------------------


def message_list(*messages: dict[str, Any]) -> bytes:
    return json.dumps(list(messages)).encode()


CALL = {"role": "assistant", "tool_calls": [{"id": "c1", "function": {"name": "bash", "arguments": "{}"}}]}
BAD_INPUTS: dict[str, tuple[bytes, Sequence[str]]] = {
    "not json": (b'{"messages": [', ("not valid JSON", "line 1 column 15")),
    "not utf-8": (b'[{"role": "user", "content": "\xc3\x28"}]', ("not UTF-8",)),
    "object without messages": (b'{"msgs": []}', ('"messages"',)),
    "a string": (b'"hello"', ("messages:", "expected a list")),
    "messages not a list": (b'{"messages": {"role": "user"}}', ("messages:", "expected a list")),
    "tools not a list": (b'{"messages": [{"role": "user", "content": "x"}], "tools": {}}', ("tools:", "dict")),
    "message without role": (message_list({"role": "user", "content": "a"}, {"content": "b"}),
                             ("messages[1]:", "no 'role'")),
    "unknown role": (message_list({"role": "robot", "content": "a"}), ("messages[0].role:", "unknown role 'robot'")),
    "tool answering no call": (message_list({"role": "user", "content": "a"}, CALL,
                                            {"role": "tool", "tool_call_id": "c9", "content": "?"}),
                               ("messages[2]:", "'c9'")),
    "content of the wrong type": (message_list({"role": "user", "content": 42}), ("messages[0].content:", "int")),
    "bad part": (message_list({"role": "user", "content": [{"type": "text", "text": 1}]}),
                 ("messages[0].content[0]:", "text")),
    "empty list": (b"[]", ("messages:", "empty")),
    "message not an object": (b'["hi"]', ("messages[0]:", "object")),
    "deeply nested": (b"[" * 200_000, ("nested too deeply",)),
    "huge integer": (b'[{"role": "user", "content": "x", "n": ' + b"9" * 5000 + b"}]", ("not valid JSON",)),
}


@pytest.fixture(scope="module")
def bad_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, subprocess.CompletedProcess[str]]]:
    """Every BAD_INPUTS case run through `compact` at once (in parallel: each is a separate process)."""
    root = tmp_path_factory.mktemp("bad")
    env = cli_env(root)
    started = {}
    for i, (case, (data, _words)) in enumerate(sorted(BAD_INPUTS.items())):
        path = root / f"input-{i}.json"
        path.write_bytes(data)
        started[case] = (path, subprocess.Popen(command("compact", path, "--store", ":memory:"), cwd=root, env=env,
                                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    runs = {}
    for case, (path, proc) in started.items():
        out, err = proc.communicate(timeout=120)
        runs[case] = (path, subprocess.CompletedProcess(proc.args, proc.returncode, out, err))
    return runs


@pytest.mark.parametrize("case", sorted(BAD_INPUTS))
def test_bad_input_exits_2_with_one_line(bad_runs: dict[str, Any], case: str) -> None:
    """Each kind of bad input exits 2 with one stderr line naming the file and the spot, and no traceback."""
    path, done = bad_runs[case]
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"context-compactor: {path}")
    for word in BAD_INPUTS[case][1]:
        assert word in lines[0]


def test_bad_stdin_is_named_stdin(cli: Any) -> None:
    """Bad input on stdin is reported as coming from stdin."""
    done = cli("compact", "-", "--store", ":memory:", stdin=b'[{"role": "robot"}]')
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "context-compactor: stdin: messages[0].role: unknown role 'robot' "
        "(expected one of system, developer, user, assistant, tool, function)"]


@pytest.mark.parametrize(("make", "words"), [
    (lambda tmp: tmp / "absent.json", "no such file"),
    (lambda tmp: tmp, "is a folder"),
])
def test_unreadable_input_exits_2_with_one_line(cli: Any, tmp_path: Path, make: Any, words: str) -> None:
    """A missing file or a folder as input exits 2 with one line naming it."""
    target = make(tmp_path)
    done = cli("stats", target)
    assert done.returncode == 2
    lines = done.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"context-compactor: {target}: {words}")


def test_oversize_input_is_refused(cli: Any) -> None:
    """A file above --max-input-mb exits 2, saying both sizes readably."""
    done = cli("compact", SESSION, "--max-input-mb", "0.001", "--store", ":memory:")
    assert done.returncode == 2
    lines = done.stderr.splitlines()
    assert len(lines) == 1
    assert "KB is larger than the 1 KB limit" in lines[0]
    assert "--max-input-mb" in lines[0]


def test_oversize_stdin_is_refused(cli: Any) -> None:
    """Input on stdin above the limit is refused without reading it all."""
    done = cli("compact", "-", "--max-input-mb", "0.001", "--store", ":memory:", stdin=SESSION.read_bytes())
    assert done.returncode == 2
    assert "stdin: input is larger than the 1 KB limit" in done.stderr


def test_unknown_config_option_exits_2(cli: Any, tmp_path: Path) -> None:
    """A misspelled option in --config exits 2 with one line naming the option and the file."""
    config = tmp_path / "c.json"
    config.write_text('{"keepRecentToken": 100}')
    done = cli("compact", SESSION, "--config", config, "--store", ":memory:")
    assert done.returncode == 2
    lines = done.stderr.splitlines()
    assert len(lines) == 1
    assert str(config) in lines[0] and "keepRecentToken" in lines[0]


def test_malformed_config_exits_2(cli: Any, tmp_path: Path) -> None:
    """A config file that is not JSON exits 2 with its line and column."""
    config = tmp_path / "c.json"
    config.write_text('{"maxTokens": 10,}')
    done = cli("stats", SESSION, "--config", config)
    assert done.returncode == 2
    assert len(done.stderr.splitlines()) == 1
    assert "line 1 column 18" in done.stderr


@pytest.mark.parametrize(("flag", "value", "key"), [
    ("--context-window", "0", "--context-window"),
    ("--context-window", "-5", "--context-window"),
    ("--keep-recent-tokens", "-1", "--keep-recent-tokens"),
    ("--max-tokens", "-100", "--max-tokens"),
    ("--max-input-mb", "-1", "--max-input-mb"),
    ("--chars-per-token", "100", "charsPerToken"),
    ("--summary-max-tokens", "1", "summaryMaxTokens"),
])
def test_out_of_range_flag_exits_2(cli: Any, flag: str, value: str, key: str) -> None:
    """A flag value outside its range (a negative size included) exits 2 with an error line naming the option."""
    done = cli("compact", SESSION, f"{flag}={value}", "--store", ":memory:")
    assert done.returncode == 2
    errors = [line for line in done.stderr.splitlines() if "error" in line or line.startswith("context-compactor:")]
    assert len(errors) == 1 and key in errors[0], done.stderr


def test_output_into_a_missing_folder_exits_2(cli: Any, tmp_path: Path) -> None:
    """-o into a folder that does not exist exits 2 with one line naming the output."""
    done = cli("compact", SESSION, "--store", ":memory:", "-o", tmp_path / "nowhere" / "x.json")
    assert done.returncode == 2
    assert len(done.stderr.splitlines()) == 1
    assert "nowhere/x.json" in done.stderr


def test_output_through_a_symlink_keeps_the_link(cli: Any, tmp_path: Path) -> None:
    """-o naming a symlink replaces the file it points to (atomically, with its mode) and leaves the link a link."""
    out = tmp_path / "out"
    out.mkdir()
    real, link = out / "real.json", out / "link.json"
    real.write_text("old")
    real.chmod(0o640)
    link.symlink_to(real)
    done = cli("compact", SESSION, "--context-window", "8192", "--store", ":memory:", "-o", link)
    assert done.returncode == 0, done.stderr
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert json.loads(real.read_text()) and (real.stat().st_mode & 0o777) == 0o640
    assert sorted(p.name for p in out.iterdir()) == ["link.json", "real.json"]  # no temporary file left


def test_output_onto_a_folder_exits_2(cli: Any, tmp_path: Path) -> None:
    """-o naming a folder exits 2 and leaves the folder as it was."""
    folder = tmp_path / "outdir"
    folder.mkdir()
    done = cli("compact", SESSION, "--store", ":memory:", "-o", folder)
    assert done.returncode == 2
    assert len(done.stderr.splitlines()) == 1
    assert list(folder.iterdir()) == []


def test_store_path_that_is_a_folder_is_left_alone(cli: Any, tmp_path: Path) -> None:
    """--store naming a folder is bad input (exit 2, like -o) with one line, and the folder is never touched."""
    folder = tmp_path / "mystuff"
    folder.mkdir()
    (folder / "notes.txt").write_text("keep me")
    done = cli("compact", SESSION, "--store", folder)
    assert done.returncode == 2
    assert len(done.stderr.splitlines()) == 1 and "--store" in done.stderr and "is a folder" in done.stderr
    assert (folder / "notes.txt").read_text() == "keep me"
    assert not list(tmp_path.glob("mystuff.corrupt-*"))


# --- usage -----------------------------------------------------------------------------------------


def test_help_lists_the_commands(cli: Any) -> None:
    """--help exits 0 and names the compact and stats commands with an example."""
    done = cli("--help")
    assert done.returncode == 0
    assert "compact" in done.stdout and "stats" in done.stdout
    assert "context-compactor compact examples/agent-session.json --context-window 8192" in done.stdout


@pytest.mark.parametrize(("command", "flags"), [
    ("compact", ["--context-window", "--max-tokens", "--keep-recent-tokens", "--summary-max-tokens",
                 "--chars-per-token", "--json", "--output", "--store", "--max-input-mb", "--config"]),
    ("stats", ["--context-window", "--tokenizer", "--config", "--model"]),
])
def test_command_help_lists_its_options(cli: Any, command: str, flags: list[str]) -> None:
    """Each command's --help exits 0 and lists its options."""
    done = cli(command, "--help")
    assert done.returncode == 0
    for flag in flags:
        assert flag in done.stdout


def test_no_command_prints_help_and_exits_2(cli: Any) -> None:
    """Running with no command prints the help to stderr and exits 2."""
    done = cli()
    assert done.returncode == 2
    assert "usage: context-compactor" in done.stderr


def test_bad_flag_value_is_a_usage_error(cli: Any) -> None:
    """A flag that is not a number is rejected by the parser with exit 2, saying what it must be."""
    done = cli("compact", SESSION, "--context-window", "lots")
    assert done.returncode == 2
    assert "--context-window: must be a positive number of tokens, not 'lots'" in done.stderr


def test_version(cli: Any) -> None:
    """--version prints the package version."""
    from context_compactor import __version__

    done = cli("--version")
    assert done.returncode == 0
    assert done.stdout.strip() == f"context-compactor {__version__}"
