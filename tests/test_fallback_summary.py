"""The deterministic extractive summary: what it keeps, within its budget, the same every time."""

from __future__ import annotations

import math

from convo import assistant, tool, user, words

from context_compactor.messages import view_of
from context_compactor.summarizer.fallback import ExtractiveSummarizer, parse


def count(text: str) -> int:
    return math.ceil(len(text) / 4)


def summarize(messages, budget=1000):
    return ExtractiveSummarizer().summarize([view_of(m) for m in messages], budget, count)


SESSION = [
    user("Always run `pytest -q` after a change and never edit docs/deploy.md. Serve the API on port 8787."),
    assistant("", [("c1", "bash", {"command": "python -m app.server --port 8787"})]),
    tool("c1", "Traceback (most recent call last):\n  File \"src/app/server.py\", line 12\n"
               "ModuleNotFoundError: No module named 'app.settings'"),
    assistant("Root cause: the settings module moved to app.config in commit 3f9c2ab. I decided to import from app.config."),
    assistant("", [("c2", "write_file", {"path": "src/app/server.py", "content": "from app.config import load"})]),
    tool("c2", "ok"),
    user("Actually, serve the API on port 9090 instead of 8787; the proxy moved."),
    assistant("Done. The server now starts on 127.0.0.1:9090 with version v2.4.1 (ticket APP-42)."),
]


def test_keeps_user_instructions_verbatim():
    """The user's own instructions appear word for word."""
    text = summarize(SESSION)
    assert "Always run `pytest -q` after a change and never edit docs/deploy.md." in text


def test_newest_correction_wins_over_what_it_replaced():
    """A later correction is kept, and the instruction it corrects is marked or dropped."""
    text = summarize(SESSION)
    lines = parse(text)["User instructions (verbatim, newest last)"]
    assert lines[-1].startswith("Actually, serve the API on port 9090")
    assert lines[0].startswith("(partly superseded by a later instruction)")


def test_short_corrected_instruction_is_dropped():
    """A short instruction that a correction replaces disappears from the summary."""
    text = summarize([user("Use port 8080 for the API server."), user("No, use port 9090 for the API server instead.")])
    assert "8080 for the API" not in text and "9090" in text


def test_keeps_exact_error_strings_paths_and_commands():
    """Exact error lines, file paths and commands run survive."""
    text = summarize(SESSION)
    assert "ModuleNotFoundError: No module named 'app.settings'" in text
    assert "src/app/server.py" in text
    assert "python -m app.server --port 8787" in text


def test_keeps_decisions_and_identifiers():
    """Decisions with their reasons and opaque identifiers (hashes, ports, versions, tickets) survive."""
    text = summarize(SESSION)
    assert "I decided to import from app.config" in text
    for ident in ("3f9c2ab", "127.0.0.1:9090", "v2.4.1", "APP-42"):
        assert ident in text


def test_stays_within_the_budget():
    """However long the input, the summary fits its token budget."""
    long = SESSION * 40 + [user(words(3000, i)) for i in range(10)]
    for budget in (64, 200, 1000):
        assert count(summarize(long, budget)) <= budget


def test_newest_items_win_when_the_budget_is_tight():
    """Under a tight budget the most recent instructions are the ones kept."""
    messages = [user(f"instruction number {i}: {words(30, i)}") for i in range(50)]
    text = summarize(messages, 150)
    assert "instruction number 49" in text and "instruction number 0:" not in text


def test_same_input_same_bytes():
    """The summary is deterministic."""
    assert summarize(SESSION) == summarize(list(SESSION))


def test_merge_combines_sections_within_budget():
    """Merging chunk summaries unions their sections, newest last, within the budget."""
    s = ExtractiveSummarizer()
    first = summarize(SESSION[:4])
    second = summarize(SESSION[4:])
    merged = s.merge([first, second], 300, count)
    assert count(merged) <= 300
    sections = parse(merged)
    assert any("9090" in line for line in sections["User instructions (verbatim, newest last)"])
    assert "Where things stood" in sections and len(sections["Where things stood"]) == 1
