"""The ``archive`` command: search, show and sessions over a real store; bad ids and queries exit 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from context_compactor.setup_cli.main import main
from context_compactor.store import Store

MESSAGES: list[dict[str, Any]] = [
    {"role": "user", "content": "Please move the web server to port 8787."},
    {"role": "assistant", "content": None, "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "edit_file", "arguments": '{"path": "config.yaml"}'}}]},
    {"role": "tool", "tool_call_id": "c1", "content": "wrote config.yaml: port 8787\n" + "x" * 5000},
    {"role": "user", "content": "Now run the database migration."},
]


@pytest.fixture
def store_path(tmp_path: Path) -> Path:
    path = tmp_path / "store.sqlite"
    store = Store.open(path)
    store.archive("agent:main", [(f"d{i}", m["role"], m, i) for i, m in enumerate(MESSAGES)])
    store.archive("other", [("o0", "user", {"role": "user", "content": "the port of the other session"}, 0)])
    store.close()
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["archive", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_search_prints_hits_with_their_citation(capsys: pytest.CaptureFixture[str], store_path: Path) -> None:
    """A search prints each hit's id, SESSION#INDEX, role and a snippet, best first."""
    code, out, _ = run(capsys, "search", "port server", "--store", str(store_path))
    assert code == 0
    assert out.splitlines()[0].startswith("[1] agent:main#0 user turn 1")
    assert "port 8787" in out


def test_search_json_within_a_session(capsys: pytest.CaptureFixture[str], store_path: Path) -> None:
    """--json prints the hits as objects; --session and --limit narrow them."""
    code, out, _ = run(capsys, "search", "port", "--session", "agent:main", "--limit", "2", "--json", "--store", str(store_path))
    hits = json.loads(out)["hits"]
    assert code == 0 and len(hits) == 2
    assert {h["session"] for h in hits} == {"agent:main"}
    assert set(hits[0]) == {"id", "session", "index", "role", "turn", "tool", "snippet", "score"}


def test_search_with_no_match_says_so(capsys: pytest.CaptureFixture[str], store_path: Path) -> None:
    """A query that matches nothing exits 0 with an empty list, and says so on stderr."""
    code, out, err = run(capsys, "search", "kubernetes", "--store", str(store_path))
    assert (code, out) == (0, "") and "no archived message matches" in err


@pytest.mark.parametrize("ref", ["agent:main#2", "3"])
def test_show_by_citation_or_id(capsys: pytest.CaptureFixture[str], store_path: Path, ref: str) -> None:
    """show accepts SESSION#INDEX as the ledger cites it, and a row id; it prints the whole text."""
    code, out, _ = run(capsys, "show", ref, "--store", str(store_path))
    assert code == 0
    assert out.splitlines()[0].startswith("[3] agent:main#2: tool, turn 1, tool edit_file")
    assert out.count("x") >= 5000


def test_show_an_index_in_a_session_as_json_paged(capsys: pytest.CaptureFixture[str], store_path: Path) -> None:
    """--session with an index, --offset and --chars page the text; --json carries where the next page starts."""
    code, out, _ = run(capsys, "show", "2", "--session", "agent:main", "--offset", "10", "--chars", "100", "--json",
                       "--store", str(store_path))
    page = json.loads(out)
    assert code == 0 and page["index"] == 2 and page["offset"] == 10 and len(page["text"]) == 100
    assert page["next_offset"] == 110 and page["message"] == MESSAGES[2]


def test_sessions_lists_each_session(capsys: pytest.CaptureFixture[str], store_path: Path) -> None:
    """sessions --json lists every session with its message count, and the store's size."""
    code, out, _ = run(capsys, "sessions", "--json", "--store", str(store_path))
    listed = json.loads(out)
    assert code == 0 and listed["size_bytes"] > 0
    assert sorted((s["session"], s["messages"]) for s in listed["sessions"]) == [("agent:main", 4), ("other", 1)]


@pytest.mark.parametrize(("argv", "says"), [
    (["show", "abc"], "not an archive id"),
    (["show", "agent:main#x"], "not an archive id"),
    (["show", "99"], "no archived message id 99"),
    (["show", "agent:main#40"], "no archived message agent:main#40"),
    (["show", "x", "--session", "agent:main"], "not a message index"),
    (["show", "1", "--offset", "-1"], "--offset"),
    (["search", '"*"'], "no words to search for"),
    (["search", "port", "--limit", "0"], "--limit 0"),
    (["search", "port", "--session", "nobody"], "no archived session 'nobody'"),
])
def test_bad_ids_and_queries_exit_2_with_one_line(capsys: pytest.CaptureFixture[str], store_path: Path,
                                                  argv: list[str], says: str) -> None:
    """A bad id, index, query or option exits 2 with one line on stderr that names it."""
    code, out, err = run(capsys, *argv, "--store", str(store_path))
    assert (code, out) == (2, "")
    assert len(err.strip().splitlines()) == 1 and says in err


def test_a_missing_store_exits_2_and_creates_nothing(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Pointing at a store that is not there exits 2 naming the path, and leaves no file behind."""
    code, _, err = run(capsys, "sessions", "--store", str(tmp_path / "none.sqlite"))
    assert code == 2 and "no store there" in err and str(tmp_path / "none.sqlite") in err
    assert list(tmp_path.iterdir()) == []


def test_archive_without_a_verb_shows_usage(capsys: pytest.CaptureFixture[str]) -> None:
    """`archive` alone prints its usage and exits 2."""
    code, _, err = run(capsys)
    assert code == 2 and "search" in err


def test_the_installed_command_searches(store_path: Path) -> None:
    """The console script runs `archive search` end to end in a fresh process."""
    done = subprocess.run([sys.executable, "-m", "context_compactor.setup_cli.main", "archive", "search", "migration",
                           "--store", str(store_path), "--json"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["hits"][0]["index"] == 3
