"""What the ledger takes from single messages (summarizer/extract.py): decisions as agents phrase them,
identifier lines (the words around the token, verbatim), and the fast token scan agreeing with the
whole-token rule (summarizer/identifiers.py)."""

from __future__ import annotations

import re

import pytest
from convo import assistant, tool, user

from context_compactor.messages import view_of
from context_compactor.summarizer import decisions, outputs
from context_compactor.summarizer import extract as x
from context_compactor.summarizer import identifiers as ids


def _items(*messages: dict) -> list[x.Item]:  # type: ignore[name-defined]
    extractor = x.Extractor()
    return [item for i, m in enumerate(messages) for item in extractor.items(view_of(m), i)]


def _decisions(text: str) -> list[str]:
    return [i.text for i in _items(assistant(text)) if i.section == "decision"]


@pytest.mark.parametrize("text", [
    "Decision: keep the Redis cache per tenant.",
    "**Decision**: the importer runs nightly from now on.",
    "I'll go with Postgres advisory locks because the queue table is already there.",
    "We'll use uv instead of pip-tools for the lockfile.",
    "Let's switch to httpx since requests has no HTTP/2.",
    "I'm opting for a feature flag over a config file for this rollout.",
    "The fix is to close the cursor before the vacuum runs.",
    "We prefer structured logs over print statements in the worker.",
    "Root cause: the retry loop reused a closed connection.",
])
def test_decisions_as_agents_write_them(text: str) -> None:
    assert _decisions(text) == [text]


@pytest.mark.parametrize("text", [
    "I'll use the read_file tool to look at the settings module next.",
    "Let me run the tests again and see what changed in the output.",
    "Now I will keep reading the migration files one by one.",
    "The function returns a list of rows and a cursor position.",
])
def test_narration_is_not_a_decision(text: str) -> None:
    assert _decisions(text) == []


def test_an_identifier_line_is_the_words_around_the_token_verbatim() -> None:
    """An identifier line is the sentence it stands in, as written (the token once, no label or mark
    added); a token alone is its own line."""
    lines = [i.text for i in _items(assistant("The build bld-7b096ddc7d passed on the second try."))
             if i.section == "identifier"]
    assert lines == ["The build bld-7b096ddc7d passed on the second try."]
    assert [i.text for i in _items(assistant("bld-7b096ddc7d")) if i.section == "identifier"] == ["bld-7b096ddc7d"]


def test_the_token_scan_finds_whole_tokens_only() -> None:
    """Split on spaces, quotes, brackets, commas and semicolons; never a piece of a longer word; a
    token's trailing punctuation trimmed; the context taken where the token stands whole."""
    text = ('prefix-bld-1234567 then (bld-1234567), "req_9f8e7d6c5b"; see https://example.com/x '
            "and 0.0.0.0:37200->12111/tcp.\nversion v2.14.3-rc1.")
    tokens = list(ids._tokens(text))
    assert tokens == ["prefix-bld-1234567", "bld-1234567", "req_9f8e7d6c5b", "https://example.com/x",
                      "0.0.0.0:37200", "12111/tcp", "v2.14.3-rc1"]  # ">" ends a token: a port mapping's host side
    assert ids._place(text, "bld-1234567") == text.index("(bld-1234567") + 1


def test_a_failed_command_is_read_from_its_tail_whatever_the_case() -> None:
    """The cheap word checks in front of the tail regexes keep every verdict form: exit codes in any case,
    'N failed', 'failed with', an ERROR line; an explicit exit code 0 is a success."""
    cases = {
        "ran 40 tests\nEXIT CODE: 2": True,
        "collected 12 items\n3 failed, 9 passed": True,
        "build step failed with status 137": True,
        "ERROR: could not resolve host": True,
        "Process exited with code 1": True,
        "all good\nexit code: 0": False,
        "all good\nReturnCode=0": False,
        "wrote 3 files": False,
    }
    assert {text: x.failed_run(text) for text in cases} == cases


def test_a_users_rule_ranks_above_a_plain_value() -> None:
    items = _items(user("Never deploy on Fridays; the freeze starts at 16:00."), user("The budget is 956 EUR."))
    ranks = {i.text: i.rank for i in items if i.section == "instruction"}
    assert ranks["Never deploy on Fridays; the freeze starts at 16:00."] > ranks["The budget is 956 EUR."] > 0


def test_a_long_tool_output_gives_strong_ids_only() -> None:
    head = "step 1.2.3 done at 10.0.0.7\n" + "x" * 2000
    out = _items(assistant("", [("c1", "bash", {"command": "make deploy"})]),
                 tool("c1", head + "\ndeployed as dep-4f9a2c81 to https://deploy.example.com/d/4f9a2c81\nexit code: 0"))
    ids = {i.key for i in out if i.section == "identifier" and i.src == 1}
    assert ids == {"dep-4f9a2c81", "https://deploy.example.com/d/4f9a2c81"}
    assert not any(re.fullmatch(r"[\d.]+", k) for k in ids)  # the version and the IP of a long output are noise


from hypothesis import given, settings as hsettings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_VERDICT_BITS = ["exit", "EXIT", "Exit", "ed", " with", " code", " status", "_code", "return", "returncode", ":",
                 "=", " ", "\n", "0", "1", "7", "error", "ERROR", "[E0425]", "failed", " failed", "FAILED", "with",
                 "3", "x", "_", "-", ".", "\u00b2", "\u0131", "\u017f", *outputs._FAILED_WORDS]


@hsettings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(_VERDICT_BITS), max_size=16), st.integers(0, 1600))
def test_the_fast_verdict_agrees_with_its_regex_definition(bits: list[str], pad: int) -> None:
    """failed_run looks for its words with str.find and tries the regexes only there; it must say what the
    two regexes over the tail say, wherever the tail's cut falls (``pad`` pushes text out of the tail)."""
    text = "y" * pad + "".join(bits)
    assert x.failed_run(text) == outputs.failed_run_by_regex(text)


_DECISION_BITS = ["Decision", "**", ":", "decided", "decide", " to", "going", "go", " with", "rather", " than",
                  "instead", " of", "opted", "opting", " for", "settled", " on", "chose", "choosing", "the plan",
                  " is", "the fix", "root", " cause", "prefer", " over", "we", "I", "let", "'", "ll", "s",
                  " use", " keep", " switch", "switched", " ", "x", "\n", "."]


@hsettings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(_DECISION_BITS), max_size=14))
def test_the_decision_word_check_agrees_with_the_decision_regexes(bits: list[str]) -> None:
    text = "".join(bits)
    assert x.may_decide(text) == bool(decisions._DECISION.search(text) or decisions._DECISION_WEAK.search(text))


@hsettings(max_examples=2000, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab9Z0-_.:/;,'\"`()[]{}<>!? \t\n\r\x0b\x0c\x1c\x1d\x1e\x1fhtps")), max_size=80))
def test_the_ascii_token_scan_agrees_with_the_unicode_one(text: str) -> None:
    """An ASCII text is split as bytes (the fast path); a text with any other character as str. Both must
    give the same tokens: " é" (one short token) sends the same text down the str path."""
    assert ids._tokens(text) == ids._tokens(text + " \u00e9")


def test_the_loop_verdicts_give_the_ledger_it_would_find_itself() -> None:
    """The ledger takes a tool result's failed/succeeded from the agent-loop pre-pass (which judged the same
    output with the same call) instead of reading it again: the items are the same either way."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
    from sessiongen import make_session

    from context_compactor.loop import Loop, LoopOptions
    from context_compactor.settings import Settings
    from context_compactor.summarizer.fallback import ExtractiveSummarizer

    messages = list(make_session(seed=2, messages=600).messages)
    loop = Loop()
    loop.prepare(messages, LoopOptions.of(Settings(contextWindow=8192)))
    views = [view_of(m) for m in messages]
    judged = sum(loop.verdict(m) is not None for m in messages)
    failed = sum(bool(v) and v[1] for v in map(loop.verdict, messages))
    assert judged > 100 and failed > 5  # the pre-pass judged most results, some of them failures
    fresh = ExtractiveSummarizer().items(messages, views, 0)
    hinted = ExtractiveSummarizer().items(messages, views, 0, loop.verdict)
    assert hinted == fresh and any(i.section == "error" for i in fresh)


def test_a_url_glued_to_what_names_it_is_an_identifier() -> None:
    """API_URL=https://... (a setting, an href): the URL is found where it starts, and its line is kept as written."""
    text = "Set API_URL=https://api.example.com/orders in .env and restart"
    items = x.identifier_items(text, 0, strong_only=False)
    assert [(i.key, i.text) for i in items] == [("https://api.example.com/orders", text)]
    assert x.strong_ids(text) == ["https://api.example.com/orders"]


def test_an_identifier_is_named_where_it_stands_whole() -> None:
    """10.0.0.1 after 10.0.0.12: its context is its own line, not the line where it is a piece of another."""
    items = x.identifier_items("first try 10.0.0.12 failed\nthe db lives at 10.0.0.1 now", 0, strong_only=False)
    assert [(i.key, i.text) for i in items] == [("10.0.0.12", "first try 10.0.0.12 failed"),
                                                ("10.0.0.1", "the db lives at 10.0.0.1 now")]
    long_line = ("10.0.0.12 was the first host we tried and it refused every connection for an hour "
                 "while the db at 10.0.0.1 answered")  # each is given the words around its own place
    assert [i.text for i in x.identifier_items(long_line, 0, strong_only=False)] == [
        "10.0.0.12 was the first host we tried and it \u2026",
        "\u2026 it refused every connection for an hour while the db at 10.0.0.1 answered"]


def test_a_json_or_table_line_gives_the_identifier_alone() -> None:
    """A JSON fragment or a table row is never the context of an identifier: its token stands alone."""
    for line in ('{"tenant": "tenant_3223317020", "id": 4}', "| tenant_3223317020 | active | 4 |"):
        assert [i.text for i in x.identifier_items(line, 0, strong_only=False)] == ["tenant_3223317020"]


def test_the_end_of_a_line_after_an_identifier_is_kept_when_its_sentence_started_late() -> None:
    line = ("10.0.0.12 was the first host we tried and it refused every connection for an hour; "
            "the db lives at 10.0.0.1 now")
    assert [i.text for i in x.identifier_items(line, 0, strong_only=False)][1] == "the db lives at 10.0.0.1 now"


def test_clip_of_a_text_mostly_spaces_keeps_every_word() -> None:
    assert x.clip("word1 " + " " * 3000 + "word2 " + " " * 3000 + "word3") == "word1 word2 word3"
    long = "H" * 700 + " " * 2000 + "T" * 700
    assert x.clip(long) == x.clip(" ".join(long.split()))  # the ends, as if the whole were split
