"""Corrections, settings said again and prohibitions: the edge cases a review of the ledger found (each
failed before its fix): a word that starts a sentence is not a correction by itself, a correction that
says more is kept, an address correction takes the address it names, a rule said again changes its own
sentence only, standards are not tickets, limits are settings, thinking signatures are sized."""
from __future__ import annotations

import math
from convo import assistant, user

from context_compactor.messages import view_of
from context_compactor.summarizer.fallback import ExtractiveSummarizer
from context_compactor.summarizer.ledger import masked_key, merge, render


def count(text: str) -> int:
    return math.ceil(len(text) / 4)


def ledger(*said: str) -> str:
    msgs = []
    for text in said:
        msgs += [user(text), assistant("Noted.")]
    msgs += [user("Fix the login page."), assistant("Noted.")]
    s = ExtractiveSummarizer()
    return render(merge(s.items(msgs, [view_of(m) for m in msgs], 0), whole=True), 2000, count)[0]


def test_wait_mid_message_is_not_a_correction():
    # a correction word at any sentence start had made "Wait until ..." rewrite the API's port
    text = ledger("Serve the API on port 8080.", "Thanks. Wait until the cache on port 6379 is warm before load tests.")
    assert "Serve the API on port 8080." in text, text  # had been "Serve the API on port 6379 (was 8080)."
    assert "Wait until the cache on port 6379" in text, text  # the instruction itself is dropped as 'landed'


def test_wait_mid_message_does_not_merge_two_tickets():
    text = ledger("Open PR-41 for the login fix.", "Good. Wait for CI on PR-42 before merging it.")
    assert "PR-42 (was PR-41)" not in text, text


def test_a_landed_correction_keeps_the_rest_of_what_it_said():
    text = ledger("Run the dev API on port 8080.",
                  "Sorry, port 9090, and deploy only from the release branch after the tests pass.")
    assert "deploy only from the release branch" in text, text  # dropped: only "port 9090 (was 8080)" remains


def test_two_prohibitions_both_stand_without_the_letter_o():
    # a "Never ..." sentence without a lower-case "o" had skipped the check for prohibitions
    assert masked_key("Never delete server-12.") != masked_key("Never delete server-13.")
    text = ledger("Never delete server-12.", "Never delete server-13.")
    assert "Never delete server-12." in text, text  # had been "Never delete server-13. (was server-12)"
    caps = ledger("NEVER RUN MIGRATION 0042 AGAINST STAGING.", "NEVER RUN MIGRATION 0043 AGAINST STAGING.")
    assert "(was 0042)" not in caps, caps


def test_an_address_correction_replaces_the_address_it_names():
    text = ledger("Send the weekly report to alice-1@acme.dev and page ops-alerts-7@acme.dev on failures.",
                  "Oops, the pager address is ops-oncall-2@acme.dev.")
    assert "ops-oncall-2@acme.dev (was alice-1@acme.dev)" not in text, text  # the report recipient was rewritten
    assert all("ops-oncall-2" in line for line in text.splitlines() if "ops-alerts-7" in line), text


def test_a_rule_said_again_updates_only_its_own_sentence():
    text = ledger("Ground rules: keep the logs quiet. Run the dev API with 16 workers. Keep at most 16 open pull requests.",
                  "Run the dev API with 32 workers.")
    assert "Keep at most 16 open pull requests." in text, text  # had been "Keep at most 32 (was 16) open pull requests."


def test_a_rule_said_again_updates_the_first_sentence_after_a_label_too():
    text = ledger("Ground rules: Run the dev API with 16 workers. Keep the logs quiet.", "Run the dev API with 32 workers.")
    assert all("32" in line for line in text.splitlines() if "16 workers" in line), text  # 16 still stated as current


def test_instead_of_still_corrects_the_old_value():
    # _correcting_values takes values from "instead of ..." only: the new value 9090 is lost (worked at cab802f)
    text = ledger("Run the dev API on port 8080.", "Run the dev API on port 9090 instead of 8080.")
    assert all("9090" in line for line in text.splitlines() if "8080" in line), text


def test_a_setting_with_a_dash_is_not_a_ticket():
    # _TICKET_ID keeps UTF-8 / SHA-1 unmasked: a setting said again no longer replaces (it did at cab802f)
    text = ledger("Encode every export as UTF-8.", "Encode every export as UTF-16.")
    assert all("UTF-16" in line for line in text.splitlines() if "UTF-8" in line), text


def test_no_more_than_is_a_setting_like_at_most():
    # "No more than 3" is keyed as a prohibition ("no" in _FORBIDS): raised to 5, the 3 stays current
    assert (masked_key("No more than 3 retries per job.") == masked_key("No more than 5 retries per job.")) == \
           (masked_key("At most 3 retries per job.") == masked_key("At most 5 retries per job."))


def test_upper_case_the_keys_as_lower_case():
    # dense() drops "the"/"The" but not "THE": the same rule shouted, then said again, is listed twice
    assert masked_key("NEVER DELETE THE PROD DATABASE.") == masked_key("Never delete the prod database.")


def test_the_prohibition_pattern_reads_a_long_line_in_one_pass():
    """A 100 KB line of sentence ends (our own block read back can hold one) keys at once: the pattern is
    bounded (it had been quadratic: 250 s for this line)."""
    key = masked_key(". " * 50000 + "Never touch prod-1.")
    assert key.endswith("never touch prod-1")


def test_thinking_signature_is_sized():
    # messages.THINKING_PART_FIELDS sizes "thinking"/"text" only: an Anthropic signature sent back is 0
    msg = {"role": "assistant", "content": [{"type": "thinking", "thinking": "", "signature": "s" * 4000},
                                            {"type": "text", "text": "ok"}]}
    assert view_of(msg).extra_chars >= 4000, view_of(msg).extra_chars
