"""The command line's small manners: one-line usage errors that name the command, and quiet closed pipes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from context_compactor.setup_cli.main import main

EXAMPLE = str(Path(__file__).resolve().parent.parent / "examples" / "agent-session.json")


def usage_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """What ``context-compactor ARGV`` prints on stderr; it must exit 2 and print nothing on stdout."""
    with pytest.raises(SystemExit) as exited:
        main(list(argv))
    out, err = capsys.readouterr()
    assert exited.value.code == 2 and out == ""
    return err


def test_a_bad_option_value_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    """A bad value is one line naming the command, the flag and what it must be, with no usage block first."""
    err = usage_error(capsys, "compact", "x.json", "--context-window", "-5")
    assert err.splitlines() == ["context-compactor compact: error: argument --context-window: must be a positive number of "
                                "tokens, not -5 (see `context-compactor compact --help`)"]


def test_an_unknown_option_names_the_subcommand_and_its_options(capsys: pytest.CaptureFixture[str]) -> None:
    """An unknown option is reported, on one line, by the subcommand it was given to, with that command's options."""
    err = usage_error(capsys, "stats", "x.json", "--context-windw", "8192")
    assert len(err.splitlines()) == 1
    assert err.startswith("context-compactor stats: error: unrecognized arguments: --context-windw 8192; its options: ")
    assert "--context-window" in err and "--tokenizer" in err and "--json" not in err  # stats', not compact's


def test_an_unknown_option_of_a_nested_command_names_it(capsys: pytest.CaptureFixture[str]) -> None:
    """Under ``archive search`` the error names ``archive search``, not the top command."""
    err = usage_error(capsys, "archive", "search", "words", "--bogus")
    assert err.startswith("context-compactor archive search: error: unrecognized arguments: --bogus; its options: ")


def run_into_a_closed_pipe(*argv: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """The command with stdout a pipe whose reader is already gone."""
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run([sys.executable, "-m", "context_compactor.setup_cli.main", *argv], stdout=write,
                              stderr=subprocess.PIPE, text=True, cwd=tmp_path, timeout=240,
                              env={**os.environ, "HOME": str(tmp_path)})
    finally:
        os.close(write)


SLOW = pytest.mark.slow  # the whole 239-message example compacted in a fresh process: seconds


@pytest.mark.parametrize("argv", [
    pytest.param(["compact", EXAMPLE, "--context-window", "8192"], marks=SLOW, id="compact"),
    pytest.param(["compact", EXAMPLE, "--context-window", "8192", "--json"], marks=SLOW, id="compact-json"),
    pytest.param(["stats", EXAMPLE, "--context-window", "8192"], marks=SLOW, id="stats"),
    pytest.param(["--help"], id="help"),
    pytest.param(["compact", "--help"], id="compact-help"),
])
def test_a_closed_pipe_is_no_failure_and_says_nothing(argv: list[str], tmp_path: Path) -> None:
    """A reader that went away (`| head`) is no failure: exit 0 and nothing at all on stderr."""
    done = run_into_a_closed_pipe(*argv, tmp_path=tmp_path)
    assert (done.returncode, done.stderr) == (0, "")
