"""The Python API, `from context_compactor import compact, Compactor`, used as a library would use it."""

from __future__ import annotations

import logging
import subprocess
import sys
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from convo import chat, user

from context_compactor import CompactionStats, Compactor, compact

WINDOW = 8192


@pytest.fixture
def quiet_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """HOME, OPENCLAW_STATE_DIR and the working folder inside an empty tmp_path, to see what gets written."""
    home = tmp_path / "where"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("OPENCLAW_STATE_DIR", str(home / "state"))
    monkeypatch.chdir(home)
    return home


def test_kept_messages_are_the_callers_own_objects() -> None:
    """A compacted prompt keeps the recent messages as the very dicts the caller passed in."""
    messages = chat(60)
    result = compact(messages, context_window=WINDOW)
    assert result.stats.compacted and len(result.messages) < len(messages)
    assert result.messages[-1] is messages[-1] and result.messages[0] is messages[0]


def test_an_unchanged_prompt_is_the_input_list_itself() -> None:
    """Under the trigger, .messages is the list the caller passed, and the stats say unchanged."""
    messages = chat(3)
    result = compact(messages, context_window=WINDOW)
    assert result.messages is messages
    assert (result.stats.compacted, result.stats.fits, result.stats.stage) == (False, True, 0)
    assert result.stats.tokens_before == result.stats.tokens_after > 0


def test_stats_are_typed_figures() -> None:
    """The stats are a CompactionStats with the before and after counts, fit, stage and notices."""
    result = compact(chat(60), context_window=WINDOW)
    stats = result.stats
    assert isinstance(stats, CompactionStats)
    assert stats.tokens_before > stats.trigger == 6144 >= stats.tokens_after
    assert (stats.fits, stats.reason, stats.window, stats.window_source) == (True, None, WINDOW, "config")
    assert stats.stage > 0 and stats.folded > 0 and result.notices == stats.notices and stats.notices


def test_options_are_the_settings_by_their_snake_case_names() -> None:
    """compact_at and keep_recent_tokens reach the settings: a lower trigger, a longer verbatim tail."""
    messages = chat(60)
    short = compact(messages, context_window=WINDOW, keep_recent_tokens=200)
    long = compact(messages, context_window=WINDOW, keep_recent_tokens=1500, compact_at=0.6, compact_to=0.4)
    assert long.stats.trigger == int(0.6 * WINDOW) and short.stats.trigger == 6144
    assert len(long.messages) > len(short.messages)


def test_an_unknown_option_is_a_type_error_that_names_it_and_the_close_match() -> None:
    """A misspelled option fails at once, naming the option and what was probably meant."""
    with pytest.raises(TypeError, match=r"unknown option 'keep_recent'; did you mean keep_recent_tokens"):
        compact(chat(3), context_window=WINDOW, keep_recent=4000)


def test_a_camel_case_option_points_to_its_snake_case_name() -> None:
    """The config file's camelCase name is refused in Python, with the snake_case name to use."""
    with pytest.raises(TypeError, match="did you mean keep_recent_tokens"):
        Compactor(context_window=WINDOW, keepRecentTokens=4000)


def test_a_bad_option_value_is_a_value_error_that_names_it() -> None:
    """A negative size is refused, naming the option."""
    with pytest.raises(ValueError, match="keep_recent_tokens"):
        compact(chat(3), context_window=WINDOW, keep_recent_tokens=-1)
    with pytest.raises(ValueError, match="context_window must be a positive number"):
        compact(chat(3), context_window=0)


def test_system_and_tools_are_counted() -> None:
    """A system prompt and tool schemas passed beside the messages count toward the prompt."""
    messages = chat(3)
    bare = compact(messages, context_window=WINDOW).stats
    tools = [{"type": "function", "function": {"name": "bash", "description": "run a command " * 20,
                                               "parameters": {"type": "object", "properties": {}}}}]
    full = compact(messages, context_window=WINDOW, system="Be careful. " * 50, tools=tools).stats
    assert full.tokens_before > bare.tokens_before and full.system_tokens > 0 and full.tool_tokens > 0


def test_a_prompt_that_cannot_fit_says_so_and_returns_the_input() -> None:
    """A system prompt larger than the window: fits is False with the reason, and the messages are the input."""
    messages = [user("hi")]
    result = compact(messages, context_window=1024, system="rule " * 2000)
    assert result.stats.fits is False and result.stats.reason
    assert "1,024-token context window" in result.stats.reason
    assert result.messages is messages


def test_nothing_is_printed_and_the_log_goes_to_standard_logging(capsys: pytest.CaptureFixture[str],
                                                                 caplog: pytest.LogCaptureFixture) -> None:
    """Used as a library, nothing reaches stdout or stderr; the compaction's log line goes to the stdlib logger."""
    with caplog.at_level(logging.INFO, logger="context_compactor"):
        compact(chat(60), context_window=WINDOW)
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("", "")
    lines = [r for r in caplog.records if r.name == "context_compactor" and r.getMessage().startswith("compaction.done")]
    assert len(lines) == 1 and "tokens_before=" in lines[0].getMessage()


def test_without_a_store_nothing_is_written_to_disk(quiet_home: Path) -> None:
    """Without store=, no file appears: not in the working folder, HOME or the OpenClaw state folder."""
    with Compactor(context_window=WINDOW) as compactor:
        compactor.compact(chat(60))
        compactor.compact(chat(62))
    assert sorted(quiet_home.rglob("*")) == []


def test_with_a_store_the_archive_keeps_what_left_the_prompt(tmp_path: Path) -> None:
    """Given a store path, the messages folded out of the prompt are archived in that SQLite file."""
    path = tmp_path / "store.sqlite"
    result = compact(chat(60), context_window=WINDOW, store=path)
    with sqlite3.connect(path) as db:
        archived = db.execute("select count(*) from archive").fetchone()[0]
    assert result.stats.folded > 0 and archived >= result.stats.folded


def test_an_in_memory_archive_is_written_after_the_turn_and_before_any_read() -> None:
    """Without a store the folded messages are owed to the in-memory archive when the turn returns (a
    cold fold of thousands is not written on the turn's time); pending() counts them, and the first
    read of the store writes them, so every reader finds every folded message."""
    with Compactor(context_window=WINDOW) as compactor:
        runtime = compactor._runtime
        runtime.index_soon = lambda: None  # type: ignore[method-assign] # keep the background writer out
        history = chat(300)
        result = compactor.compact(history)
        store = runtime.store
        owed = sum(count for _k, _rows, count, _views in store._deferred)
        assert result.stats.compacted and owed >= result.stats.folded > 0
        assert store.pending() >= owed
        archived = store.archived(compactor.session)  # a read: what was owed is written first
        assert not store._deferred and len(archived) >= result.stats.folded
        assert archived[0]["message"] == history[1]  # the first folded message, as the caller gave it


def test_a_file_store_archives_before_the_turn_returns(tmp_path: Path) -> None:
    """With a store file the archive is written on the turn itself (the invariant that a message leaves the
    prompt only once it is archived holds across a crash): another connection sees the rows at once."""
    path = tmp_path / "store.sqlite"
    with Compactor(context_window=WINDOW, store=path) as compactor:
        result = compactor.compact(chat(300))
        assert not compactor._runtime.store._deferred
        with sqlite3.connect(path) as db:
            (rows,) = db.execute("select count(*) from archive").fetchone()
        assert rows >= result.stats.folded > 0


def test_a_compactor_keeps_the_session_warm_across_turns() -> None:
    """A Compactor's next turn keeps the last plan (same summary block, same bytes up front); a one-shot call
    on the same history plans afresh and folds the new turn's share."""
    with Compactor(context_window=WINDOW) as compactor:
        first = compactor.compact(chat(60))
        warm = compactor.compact(chat(61))
    cold = compact(chat(61), context_window=WINDOW)
    assert first.stats.compacted and warm.stats.compacted and cold.stats.compacted
    assert warm.stats.folded == first.stats.folded and warm.messages[:2] == first.messages[:2]
    assert cold.stats.folded > first.stats.folded and cold.messages[:2] != first.messages[:2]
    assert warm.stats.session == compactor.session != cold.stats.session


def test_a_compaction_that_fails_says_so_in_the_result(tmp_path: Path) -> None:
    """When compaction fails (here the store, closed under it, refuses the archive), the input goes back
    unchanged, ``failure`` holds the error and a notice tells the user: the caller never reads the log."""
    with Compactor(context_window=WINDOW, store=tmp_path / "s.sqlite") as compactor:
        compactor.compact(chat(2))
        compactor._runtime.store.close()
        messages = chat(60)
        result = compactor.compact(messages)
    assert result.messages is messages and result.failure and "closed" in result.failure
    assert any(n.startswith("context-compactor: compaction failed this turn") for n in result.notices)


def test_a_closed_compactor_refuses_to_work() -> None:
    """After close() (or the with block), compact() raises and says to make a new Compactor."""
    with Compactor(context_window=WINDOW) as compactor:
        pass
    with pytest.raises(RuntimeError, match="make a new one"):
        compactor.compact(chat(3))


def test_messages_that_are_not_a_conversation_are_refused_with_the_spot() -> None:
    """Malformed input fails with an error naming the message and the field."""
    bad: list[Any] = [{"role": "user", "content": "hi"}, {"role": "wizard", "content": "x"}]
    with pytest.raises(Exception, match=r"messages\[1\]\.role: unknown role 'wizard'"):
        compact(bad, context_window=WINDOW)


def test_the_readme_example_runs() -> None:
    """The first Python example under "For host authors" in the README runs as written, from the repo root."""
    root = Path(__file__).resolve().parent.parent
    section = (root / "README.md").read_text(encoding="utf-8").split("## For host authors", 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "fits: True" in done.stdout and done.stderr == ""


def test_a_bad_message_added_on_a_later_turn_is_refused_with_its_index() -> None:
    """A Compactor checks what each turn adds: a tool result answering no call is refused, naming its index."""
    messages = chat(3)
    with Compactor(context_window=WINDOW) as compactor:
        compactor.compact(messages)
        with pytest.raises(Exception, match=rf"messages\[{len(messages)}\]: tool message answers call 'nope'"):
            compactor.compact([*messages, {"role": "tool", "tool_call_id": "nope", "content": "x"}])


def test_a_tool_result_answering_the_last_turns_call_is_accepted() -> None:
    """A turn may add the result of a call the previous turn's last assistant message made."""
    call = {"role": "assistant", "content": None, "tool_calls": [
        {"id": "c9", "type": "function", "function": {"name": "bash", "arguments": '{"command": "ls"}'}}]}
    messages = [*chat(3), call]
    with Compactor(context_window=WINDOW) as compactor:
        compactor.compact(messages)
        result = compactor.compact([*messages, {"role": "tool", "tool_call_id": "c9", "content": "README.md"}])
    assert result.stats.messages == len(messages) + 1


def test_a_program_that_configured_structlog_keeps_its_configuration() -> None:
    """The API routes logs to the stdlib only while structlog is unconfigured: a host's own setup wins."""
    import structlog
    import structlog.testing

    captured = structlog.testing.LogCapture()
    structlog.configure(processors=[captured])
    compact(chat(60), context_window=WINDOW)
    assert [e for e in captured.entries if e["event"] == "compaction.done"]
    assert structlog.get_config()["processors"] == [captured]
