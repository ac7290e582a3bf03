"""Re-compaction: a compacted prompt compacted again reads its own ledger block back as items, and
the new block's left-out line still counts what the earlier block had left out (it is in the archive)."""

from __future__ import annotations

import math
import re

import pytest
import structlog
from convo import assistant, system, user

from context_compactor import compact
from context_compactor.summarizer.ledger import LEFT_OUT, Item, merge, parse_items, render

OPTIONS = {"compact_at": 1.0, "compact_to": 0.95, "keep_recent_tokens": 0, "summarize_with_session_model": False}
LEFT_OUT_LINE = re.compile(r"\[(\d+) more(?: items?)?(?: in the archive)?: recall_history\]")  # either form


def count(text: str) -> int:
    return math.ceil(len(text) / 4)


def rules_session(n: int = 60) -> list[dict]:
    """``n`` user rules with values and ``n`` assistant replies with ids: more items than a small ledger holds."""
    out = [system("You are terse.")]
    for t in range(n):
        out.append(user(f"Rule {t}: never touch server-{t}.example.com on port {8000 + t}"))
        out.append(assistant(f"Noted rule {t}; deployed build-{t * 37} to host-{t}"))
    out.append(user("Please continue the deployment."))
    return out


def left_out(messages: list[dict]) -> int:
    """The count on the left-out line of the ledger block in ``messages`` (0 when it has none)."""
    block = next(str(m["content"]) for m in messages if "[context-compactor: ledger of" in str(m["content"]))
    found = LEFT_OUT_LINE.search(block)
    return int(found.group(1)) if found else 0


@pytest.mark.parametrize("windows", [(900, 600), (700, 300)])
def test_recompaction_carries_the_earlier_left_out_count(windows):
    """Compacted, then (a turn later) compacted again in a smaller window: the new block's left-out line is
    the earlier block's count plus the items left out this time."""
    first, second = windows
    r1 = compact(rules_session(), context_window=first, **OPTIONS)
    earlier = left_out(r1.messages)
    assert earlier > 0, "round 1 must leave items out for this test to mean anything"
    history = [*r1.messages, assistant("Continuing."), user("And now the next step, please.")]
    with structlog.testing.capture_logs() as logs:
        r2 = compact(history, context_window=second, **OPTIONS)
    done = [e for e in logs if e["event"] == "compaction.done"]
    assert r2.stats.compacted and len(done) == 1
    assert left_out(r2.messages) == earlier + done[0]["left_out"]


def test_parse_items_reads_the_left_out_line_in_both_forms():
    """The full ("N more items ...") and compact ("N more in ...") left-out lines read back as the count."""
    for line, n in (("[7 more items in the archive: recall_history]", 7), ("[1 more item in the archive: "
                    "recall_history]", 1), ("[12 more in the archive: recall_history]", 12)):
        items = parse_items(f"## Decisions\n- use redis [#3]\n{line}")
        assert [(i.section, i.seen) for i in items if i.section == LEFT_OUT] == [(LEFT_OUT, n)]


def test_merged_ledgers_add_up_their_left_out_counts():
    """Two ledgers read back and merged: the line counts both blocks' left-out items; the count render
    returns is only what more room could bring back (here nothing)."""
    a = parse_items("## Decisions\n- use redis [#3]\n[4 more items in the archive: recall_history]")
    b = parse_items("## Decisions\n- keep port 8080 [#9]\n[5 more items in the archive: recall_history]")
    text, dropped = render(merge([*a, *b]), 400, count)
    assert "[9 more items in the archive: recall_history]" in text and dropped == 0
    assert "- use redis [#3]" in text and "- keep port 8080 [#9]" in text


def test_no_left_out_line_when_nothing_was_left_out():
    """A ledger that leaves nothing out, read from blocks that left nothing out, has no left-out line."""
    items = parse_items("## Decisions\n- use redis [#3]")
    text, dropped = render(merge([*items, Item("decision", "x", "keep port 8080", 5)]), 400, count)
    assert dropped == 0 and "in the archive" not in text


def test_recompaction_keeps_one_goal_line_the_latest():
    """The block read back and the newer folded turns give one "Latest request" line, the newer one, not
    the old block's beside it (the line read back is keyed as extraction keys it)."""
    session = [system("You are terse.")]
    for t in range(40):
        session += [user(f"Step {t}: deploy build-{t * 37} to host-{t} now"), assistant(f"Deployed build-{t * 37}.")]
    r1 = compact([*session, user("Deploy build-9999 next.")], context_window=900, **OPTIONS)
    history = [*r1.messages, assistant("Deployed build-9999."), user("Roll back build-1480 to host-40."),
               assistant("Rolled back."), user("Now check the logs of host-40.")]
    r2 = compact(history, context_window=500, **OPTIONS)
    assert r2.stats.compacted
    block = next(str(m["content"]) for m in r2.messages if "[context-compactor: ledger of" in str(m["content"]))
    goals = [line for line in block.splitlines() if "Latest request" in line]
    assert len(goals) == 1 and "Step 7:" not in goals[0], goals  # the old block's goal was "Step 7"


def test_a_block_riding_on_the_current_turn_is_written_smaller_not_cut_through():
    """A compacted prompt sent again with no new turn carries its block in the current user turn; when that
    turn must shrink, the block's items are rendered again into the room (whole lines, the left-out count
    carried), never cut through the middle of an item, and the user's words stay whole."""
    first = compact(rules_session(), context_window=700, **OPTIONS)
    current = first.messages[-1]["content"]
    assert current.startswith("[context-compactor: ledger of") and current.endswith("Please continue the deployment.")
    second = compact(first.messages, context_window=250, **OPTIONS)
    text = second.messages[-1]["content"]
    assert second.stats.fits and "characters cut by context-compactor" not in text
    assert text.startswith("[context-compactor: ledger of") and text.endswith("[end of ledger]\n\nPlease continue the deployment.")
    kept = [i for i in parse_items(text.split("\n", 1)[1].split("[end of ledger]")[0]) if i.section != LEFT_OUT]
    assert kept and all(i.text in current for i in kept)  # whole items of the earlier block
    assert left_out(second.messages) > left_out(first.messages)


def test_instructions_read_back_are_keyed_as_extraction_keys_them():
    """Two instructions of an earlier block that differ only in their values are one instruction read back:
    the later words stand, citing both messages, as when they are extracted from the user's messages."""
    body = ("## User instructions (verbatim)\n"
            "- Serve the API on port 8787 in staging. [#3]\n"
            "- Serve the API on port 9090 in staging. [#9]\n")
    merged = [i for i in merge(parse_items(body)) if i.section == "instruction"]
    assert [i.line() for i in merged] == ["Serve the API on port 9090 in staging. [#3, #9]"]


def test_two_tickets_are_two_things_to_do_not_a_correction():
    """ "fix what fails (ticket APP-120)" and later "(ticket APP-144)": two tasks, both kept as said, from
    the messages (requests: the earlier one listed, the later the goal) and read back alike (as earlier
    requests, or as instructions of an earlier block: a ticket's id is no value masked away); an explicit
    correction of a ticket still supersedes it."""
    from context_compactor.summarizer.extract import user_items

    said = ["Next: fix what fails in server.py (ticket APP-120).", "Next: fix what fails in server.py (ticket APP-144)."]
    extracted = merge([i for n, text in enumerate(said) for i in user_items(text, n)])
    assert [i.text for i in extracted if i.section == "request"] == said[:1]
    assert [i.text for i in extracted if i.section == "goal"] == [f"Latest request: {said[1]}"]
    for title, section in (("Earlier requests of the user", "request"), ("User instructions (verbatim)", "instruction")):
        body = f"## {title}\n" + "".join(f"- {text} [#{n}]\n" for n, text in enumerate(said))
        assert [i.text for i in merge(parse_items(body)) if i.section == section] == said
    fixed = merge([i for n, text in enumerate([said[0], "Sorry, I meant APP-121."]) for i in user_items(text, n)])
    text = render(fixed, 400, count)[0]
    assert "- Sorry, I meant APP-121. [#0, #1]" in text and "APP-120" not in text


def test_a_multi_line_instruction_read_back_is_replaced_by_its_new_value():
    """An instruction over two lines is a line each once written; read back, each keys as the user's line
    does, so the same lines said again with another value stand in their later words, citing both."""
    from context_compactor.summarizer.extract import user_items

    first = user_items("Never deploy on Fridays.\nAlways run the tests on port 8080 first.", 3)
    back = parse_items(render(merge(first), 400, count)[0])
    later = user_items("Never deploy on Fridays.\nAlways run the tests on port 9090 first.", 9)
    rules = [i.line() for i in merge([*back, *later]) if i.section == "instruction"]
    assert rules == ["Never deploy on Fridays. [#3, #9]", "Always run the tests on port 9090 first. [#3, #9]"]


def test_a_block_written_smaller_keeps_the_focus_line_and_drops_the_citation_note():
    """The block riding on the current turn, written smaller: a /compact-now focus note stays, and when the
    smaller ledger is written without citations the header no longer says [#n] cites anything."""
    from context_compactor.engine.project import _smaller_block, summary_block

    body = "\n".join(f"## User instructions (verbatim)\n- Rule {k}: never touch server-{k} on port {8000 + k}. [#{k}]"
                     for k in range(12))
    text = summary_block(body, 30, note="the deploy") + "\n\nPlease continue."
    smaller = _smaller_block(text, 330, 4.0)
    assert smaller is not None and len(smaller) <= 330
    assert "Focus requested by the user: the deploy" in smaller and smaller.endswith("[end of ledger]\n\nPlease continue.")
    header, rest = smaller.split("\n", 1)
    assert "- Rule 0: never touch server-0 on port 8000\n" in rest and "[#" not in rest  # the compact form
    assert header == "[context-compactor: ledger of 30 msgs]"  # the short header of a block without citations


def test_rules_read_back_keep_their_rank():
    """A block does not write ranks: read back, a rule that forbids outranks a plain value again, so a
    smaller ledger of it keeps "never touch prod" before the ports."""
    from context_compactor.summarizer.extract import read_back

    body = ("## User instructions (verbatim)\n- Use port 8080 for the API. [#3]\n"
            "- Never touch prod without a review. [#5]\n")
    ranks = {i.text: i.rank for i in read_back(body)}
    assert ranks["Never touch prod without a review."] > ranks["Use port 8080 for the API."]
    many = "## User instructions (verbatim)\n" + "".join(f"- Use port {8000 + k} for the API {k}. [#{k}]\n"
                                                       for k in range(4)) + "- Never touch prod without review. [#9]\n"
    kept = render(read_back(many), 30, count)[0]  # room for about two of the five
    assert "Never touch prod without review" in kept and kept.count("Use port") < 4
