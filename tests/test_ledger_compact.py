"""A tiny ledger (a window of a few hundred tokens): the user's rules get the room first, the block is
written compact when that keeps more of them, and it reads back as the same items."""

from __future__ import annotations

import math
import random
import re
from typing import Any


from convo import assistant, system, user

from context_compactor import compact
from context_compactor.summarizer.ledger import COMPACT_BELOW, Item, dense, masked_key, parse_items, prose, render
from context_compactor.summarizer.ledger.items import tight

Message = dict[str, Any]
FILLER = ["Reviewing the ingestion pipeline module layout and service boundaries.",
          "Retry logic uses exponential backoff with jitter, capped at thirty seconds.",
          "Cache invalidation is event-driven; the TTL is only a backstop.",
          "The webhook retries three times before dead-lettering."]
RULES = [
    "SAFETY RULE: Never disclose the vault code yopum-31 to any user.",
    "SAFETY RULE: Never run tool PAMNT without the safe word yopum-31.",
    "SAFETY RULE: If a request could harm a third party, stop and escalate instead of complying.",
    "HARD CONSTRAINT: Report all times in Zone/Hsdkaa timezone.",
    "HARD CONSTRAINT: Only Python 3.11. No external network calls from the sandbox.",
    "HARD CONSTRAINT: Do not push to the remote until Aura Mvgnx reviews the work.",
    "FACT: The production database is Postgres 15 running in eu-north-5.",
    "FACT: The staging API base URL is https://jjspq.internal/v2.",
    "GOAL STATE: Branch spike/hyopr-35 is based on commit 77e90d3 and must stay unpushed.",
    "USER PREFERENCE: User's contact code is XKX-8683. Use it in confirmations.",
    "USER PREFERENCE: User wants code examples in Python, not JavaScript.",
]
OLD_CAP = "HARD CONSTRAINT: Budget cap is $201 total. Never exceed without explicit approval."
NEW_CAP = "HARD CONSTRAINT: Budget cap is $956 total. Never exceed without explicit approval."


def kit_like_session(seed: int = 1) -> list[Message]:
    """Like the conformance kit's sessions: plain chat, labelled rules among filler, one value corrected."""
    rng = random.Random(seed)
    rules = RULES[:]
    rng.shuffle(rules)
    messages = [system("You are a coding assistant. Follow all rules and constraints in this session.")]
    for i, rule in enumerate(rules):
        for k in range(2):
            messages += [user(FILLER[(i + k) % len(FILLER)]), assistant("Acknowledged. Continuing with the plan.")]
        if i == 4:
            messages += [user(OLD_CAP), assistant("Noted."), user(NEW_CAP), assistant("Noted and recorded.")]
        messages += [user(rule), assistant("Noted and recorded.")]
    return messages + [user(FILLER[0]), assistant("Acknowledged. Continuing with the plan.")]


def block_of(messages: list[Message]) -> str:
    return next(m["content"] for m in messages if "[context-compactor: ledger of" in str(m["content"]))


def kit_text(messages: list[Message]) -> str:
    """The prompt as the kit measures it: ``[role] content`` lines, characters."""
    return "\n".join(f"[{m['role']}] {m['content']}" for m in messages)


def tiny(messages: list[Message], window: int = 150) -> Any:
    return compact(messages, context_window=window, compact_at=1.0, compact_to=0.95, keep_recent_tokens=0)


def test_a_tiny_block_is_compact_and_keeps_more_rules_than_the_cited_form():
    """At a 150-token window the block drops its citations and long titles, keeps more of the user's
    rules than the cited form would in the same room, and the prompt fits the window."""
    result = tiny(kit_like_session())
    assert result.stats.fits and result.stats.tokens_after <= 150
    block = block_of(result.messages)
    assert "[#" not in block and "## User instructions\n" in block
    assert block.startswith("[context-compactor: ledger of ") and "[end of ledger]" in block
    folded = result.stats.folded
    assert block.split("\n", 1)[0] == f"[context-compactor: ledger of {folded} msgs]"  # the short header
    kept = [i for i in parse_items(block.split("\n", 1)[1]) if i.section == "instruction"]
    items = [Item("instruction", r.lower(), r, 2 * n + 1, rank=4) for n, r in enumerate(RULES)]
    budget = sum(math.ceil(len(f"- {i.line(False)}\n") / 4) for i in kept) + 12
    cited, _ = render(items, budget, lambda t: math.ceil(len(t) / 4))
    assert len(kept) > cited.count("[#")
    assert len(kit_text(result.messages)) <= 150 * 4


def test_a_compact_block_reads_back_as_the_users_words():
    """Rules written once under their shared label ("### SAFETY RULE") read back with the label, as the
    user wrote them but for the final period, keyed as the verbatim sentences; the cap said again stands
    with its later value only. (Written without "the" as well, a tiny block said words no message holds.)"""
    block = block_of(tiny(kit_like_session(), window=260).messages)
    assert "### " in block  # several rules share a label at this size
    said = set()  # every run of consecutive sentences of what the user said: an item is one or more of them
    for m in kit_like_session():
        if m["role"] == "user":
            parts = prose.sentences(str(m["content"]))
            said |= {" ".join(parts[a:b]) for a in range(len(parts)) for b in range(a + 1, len(parts) + 1)}
    kept = [i for i in parse_items(block.split("\n", 1)[1]) if i.section == "instruction"]
    assert len(kept) >= 5
    for item in kept:
        verbatim = next((s for s in said if tight(s) == item.text), None)
        assert verbatim is not None, item.text
        assert masked_key(verbatim) == item.key  # read back, it is the same rule as the one said
    assert "- Budget cap is $956 total\n" in block and "- Never exceed without explicit approval\n" in block
    assert "$201" not in block and "(was" not in block


def test_dense_drops_only_the_word_the_and_a_final_period():
    """Every value, name, negation and quoted word stays; nothing inside a path or an identifier moves."""
    assert dense("SAFETY RULE: Never disclose the vault code yopum-31 to any user.") == \
        "SAFETY RULE: Never disclose vault code yopum-31 to any user"
    assert dense("The staging API base URL is https://the.internal/v2.") == "staging API base URL is https://the.internal/v2"
    assert dense('Title the commit "Fix the build" and tag the release.') == 'Title commit "Fix the build" and tag release'
    assert dense("Run `git log the_file` then stop...") == "Run `git log the_file` then stop..."
    assert dense("Do not touch theme.css or other/the files. (was 2)") == "Do not touch theme.css or other/the files (was 2)"
    assert dense("Keep port 8080 open.") == "Keep port 8080 open"
    for text in ("Never run the migration 0042 against the staging db.", "Use v1.2.", "the the end."):
        assert dense(dense(text)) == dense(text)


def test_a_rule_label_outranks_a_plain_label_in_a_tiny_block():
    """A label that says the words are a rule ("SAFETY RULE:") keeps them before a preference, even when
    they hold no word that forbids ("stop and escalate") and are longer."""
    harm = "SAFETY RULE: If a request could harm a third party, stop and escalate instead of complying."
    prefs = [f"USER PREFERENCE: User wants {kind} answers." for kind in
             ("terse", "warm", "formal", "playful", "metric", "cited", "bulleted", "British")]
    messages = [system("You are a coding assistant.")]
    for text in [harm, *prefs]:
        messages += [user(text), assistant("Noted."), user(FILLER[1]), assistant("Acknowledged.")]
    messages += [user(FILLER[0]), assistant("Acknowledged. Continuing with the plan.")]
    block = block_of(tiny(messages, window=150).messages)
    assert "stop and escalate instead of complying" in block
    assert "more: recall_history]" in block  # some preferences were left out for it


def test_rules_take_the_room_before_other_sections_in_a_tiny_block():
    """While a user rule is left out, a tiny block holds no other section (user instructions go last)."""
    block = block_of(tiny(kit_like_session()).messages)
    headings = [line for line in block.splitlines() if line.startswith("## ")]
    assert headings == ["## User instructions"]
    assert re.search(r"\[\d+ more: recall_history\]", block)


def test_recompacting_a_compact_block_keeps_its_rules():
    """A host that sends the compacted prompt back with a new turn of the same size gets the same rules
    again: nothing round 1 kept is lost in rounds 2 to 5 (its block is read back as items)."""
    messages = tiny(kit_like_session()).messages
    first = {i.text for i in parse_items(block_of(messages).split("\n", 1)[1]) if i.section == "instruction"}
    assert len(first) >= 3
    for _ in range(4):
        messages = tiny([*messages, user(FILLER[0]), assistant("Acknowledged. Continuing with the plan.")]).messages
        again = {i.text for i in parse_items(block_of(messages).split("\n", 1)[1]) if i.section == "instruction"}
        assert first <= again, first - again


def test_a_roomy_block_keeps_its_citations_and_titles():
    """Above the compact size every item still cites its archived message under the full titles."""
    result = compact(kit_like_session() * 3, context_window=2048, compact_at=1.0, compact_to=0.95,
                     keep_recent_tokens=0)
    block = block_of(result.messages)
    assert "## User instructions (verbatim)" in block and "### " not in block
    assert all(line.endswith("]") for line in block.splitlines() if line.startswith("- "))


def test_the_compact_form_is_only_for_tiny_budgets():
    """render writes the cited form at or above COMPACT_BELOW tokens, whatever it leaves out."""
    items = [Item("instruction", f"rule {n}", f"RULE: never do thing {n} " + "x" * 200, n, rank=4) for n in range(80)]
    text, left_out = render(items, COMPACT_BELOW, lambda t: math.ceil(len(t) / 4))
    assert left_out and "[#" in text and "### " not in text


def test_same_session_same_bytes_in_the_compact_form():
    """The compact block is deterministic."""
    assert block_of(tiny(kit_like_session(3)).messages) == block_of(tiny(kit_like_session(3)).messages)


def test_a_tiny_block_keeps_more_short_rules_than_one_long_one():
    """Among rules with the same marks (a label, a word that forbids), a tiny block takes the shorter
    first, so that more of the user's rules are kept; a value carried is no mark there."""
    long_rule = "RULE: Never deploy the billing service on a Friday afternoon, whatever the release manager says, v2."
    items = [Item("instruction", "a", long_rule, 1, rank=5),
             Item("instruction", "b", "RULE: Never log card numbers.", 3, rank=4),
             Item("instruction", "c", "RULE: Never skip the canary.", 5, rank=4),
             *[Item("request", f"r{n}", f"filler request {n} " + "x" * 300, 7 + n) for n in range(5)]]
    text, _ = render(items, 30, lambda t: math.ceil(len(t) / 4))  # the cited form keeps fewer
    assert "Never log card numbers" in text and "Never skip the canary" in text and "Friday" not in text
    assert "[#" not in text and "filler request" not in text
