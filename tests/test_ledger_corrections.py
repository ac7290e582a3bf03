"""Corrections, settings said again and prohibitions: the edge cases a review of the ledger found (each
failed before its fix). A correction stays as the user said it and supersedes the one statement it
corrects: that statement leaves the block and its message's citation joins the correction's line
(``- Sorry, I meant 0045. [#0, #2]``); no words are rewritten. A word that starts a sentence is not a
correction by itself, a correction that says more is kept whole, an address correction takes the address
it names, a rule said again (the later words stand, citing both) replaces its own sentence only, standards
are not tickets, limits are settings, thinking signatures are sized."""
from __future__ import annotations

import math

import pytest
from convo import assistant, tool, user

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


def instructions(text: str) -> list[str]:
    """The lines of a rendered ledger's "User instructions (verbatim)" section."""
    lines = text.splitlines()
    if "## User instructions (verbatim)" not in lines:
        return []
    rest = lines[lines.index("## User instructions (verbatim)") + 1:]
    return rest[:next((n for n, line in enumerate(rest) if not line.startswith("- ")), len(rest))]


def test_wait_mid_message_is_not_a_correction():
    # a correction word at any sentence start had made "Wait until ..." rewrite the API's port
    text = ledger("Serve the API on port 8080.", "Thanks. Wait until the cache on port 6379 is warm before load tests.")
    assert "- Serve the API on port 8080. [#0]" in text, text
    assert "- Wait until the cache on port 6379 is warm before load tests. [#2]" in text, text


def test_wait_mid_message_does_not_merge_two_tickets():
    text = ledger("Open PR-41 for the login fix.", "Good. Wait for CI on PR-42 before merging it.")
    assert "- Wait for CI on PR-42 before merging it. [#2]" in text, text  # it supersedes nothing
    assert "- Open PR-41 for the login fix. [#0]" in text, text


def test_a_landed_correction_keeps_the_rest_of_what_it_said():
    text = ledger("Run the dev API on port 8080.",
                  "Sorry, port 9090, and deploy only from the release branch after the tests pass.")
    assert instructions(text) == [  # the whole sentence, not only its port
        "- Sorry, port 9090, and deploy only from the release branch after the tests pass. [#0, #2]"], text
    assert "8080" not in text, text


def test_two_prohibitions_both_stand_without_the_letter_o():
    # a "Never ..." sentence without a lower-case "o" had skipped the check for prohibitions
    assert masked_key("Never delete server-12.") != masked_key("Never delete server-13.")
    text = ledger("Never delete server-12.", "Never delete server-13.")
    assert instructions(text) == ["- Never delete server-12. [#0]", "- Never delete server-13. [#2]"], text
    caps = ledger("NEVER RUN MIGRATION 0042 AGAINST STAGING.", "NEVER RUN MIGRATION 0043 AGAINST STAGING.")
    assert instructions(caps) == ["- NEVER RUN MIGRATION 0042 AGAINST STAGING. [#0]",
                                  "- NEVER RUN MIGRATION 0043 AGAINST STAGING. [#2]"], caps


@pytest.mark.xfail(strict=True, reason="engine: the correction of the pager address supersedes the whole sentence, so "
                                       "the weekly report's recipient alice-1@acme.dev, which no one corrected, "
                                       "leaves the block")
def test_an_address_correction_replaces_the_address_it_names():
    text = ledger("Send the weekly report to alice-1@acme.dev and page ops-alerts-7@acme.dev on failures.",
                  "Oops, the pager address is ops-oncall-2@acme.dev.")
    assert "- Oops, the pager address is ops-oncall-2@acme.dev. [#0, #2]" in text, text
    assert "alice-1@acme.dev" in text, text  # the report recipient is not what was corrected


def test_a_rule_said_again_updates_only_its_own_sentence():
    text = ledger("Ground rules: keep the logs quiet. Run the dev API with 16 workers. Keep at most 16 open pull requests.",
                  "Run the dev API with 32 workers.")
    rules = instructions(text)
    assert "- Keep at most 16 open pull requests. [#0]" in rules, text  # its 16 is not the workers' 16
    assert "- Run the dev API with 32 workers. [#0, #2]" in rules, text
    assert "16 workers" not in text, text


def test_a_sentence_under_a_ground_rules_label_is_a_rule():
    text = ledger("Ground rules: keep the logs quiet. Run the dev API with 16 workers.")
    assert "- Ground rules: keep the logs quiet. [#0]" in instructions(text), text


@pytest.mark.xfail(strict=True, reason="engine: 'Ground rules: Run the dev API with 16 workers. Keep the logs quiet.' "
                                       "is one item whose key is not that of 'Run the dev API with 32 workers.': the "
                                       "later value replaces nothing and 16 workers stays current")
def test_a_rule_said_again_updates_the_first_sentence_after_a_label_too():
    text = ledger("Ground rules: Run the dev API with 16 workers. Keep the logs quiet.", "Run the dev API with 32 workers.")
    assert "16 workers" not in text, text  # 16 still stated as current
    assert "- Run the dev API with 32 workers. [#0, #2]" in instructions(text), text
    assert "Keep the logs quiet." in text, text


def test_instead_of_still_corrects_the_old_value():
    # _correcting_values takes values from "instead of ..." only: the new value 9090 is lost (worked at cab802f)
    text = ledger("Run the dev API on port 8080.", "Run the dev API on port 9090 instead of 8080.")
    assert instructions(text) == ["- Run the dev API on port 9090 instead of 8080. [#0, #2]"], text


def test_a_setting_with_a_dash_is_not_a_ticket():
    # _TICKET_ID keeps UTF-8 / SHA-1 unmasked: a setting said again no longer replaces (it did at cab802f)
    text = ledger("Encode every export as UTF-8.", "Encode every export as UTF-16.")
    assert instructions(text) == ["- Encode every export as UTF-16. [#0, #2]"], text


def test_a_standard_in_a_setting_said_again_leaves_no_stale_line():
    text = ledger("Encode every export as UTF-8.", "Encode every export as UTF-16.")
    assert "UTF-8" not in text, text


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


def test_a_url_correction_replaces_the_url_on_another_host():
    # a URL without a digit was no value: "Actually the base URL is https://prod..." could not correct it,
    # and the stale URL stayed an identifier of its own
    text = ledger("Use https://staging.example.com/api as the base URL.",
                  "Actually the base URL is https://prod.example.com/api.")
    assert instructions(text) == ["- Actually the base URL is https://prod.example.com/api. [#0, #2]"], text
    assert "staging.example.com" not in text, text  # nor as an identifier of its own
    bucket = ledger("Use the staging bucket s3://acme-staging/data.", "Oops, the bucket is s3://acme-prod/data.")
    assert instructions(bucket) == ["- Oops, the bucket is s3://acme-prod/data. [#0, #2]"], bucket
    assert "acme-staging" not in bucket, bucket


def test_an_email_without_digits_is_corrected():
    text = ledger("Send the report to ops@acme.dev.", "Sorry, send it to oncall@acme.dev instead.")
    assert instructions(text) == ["- Sorry, send it to oncall@acme.dev instead. [#0, #2]"], text
    assert "ops@acme.dev" not in text, text


def test_a_url_correction_does_not_take_an_email():
    text = ledger("Mail the summary to ops@acme.dev.", "Actually the dashboard is https://grafana.acme.dev/d/api.")
    assert instructions(text) == ["- Mail the summary to ops@acme.dev. [#0]",
                                  "- Actually the dashboard is https://grafana.acme.dev/d/api. [#2]"], text


def test_a_bare_number_named_by_no_word_corrects_the_users_latest_of_its_shape():
    # "I meant 0045" had needed the naming word again ("migration 0045") to correct "migration 0042"
    text = ledger("Run migration 0042 against the test db.", "Sorry, I meant 0045.")
    assert instructions(text) == ["- Sorry, I meant 0045. [#0, #2]"], text
    assert "0042" not in text, text


def test_a_bare_number_is_left_unread_where_it_could_correct_something_else():
    # named by another word, it corrects only what that word named
    other = ledger("Run migration 0042 against the test db.", "Sorry, ticket 0045 is the one to close.")
    assert instructions(other) == ["- Run migration 0042 against the test db. [#0]",
                                   "- Sorry, ticket 0045 is the one to close. [#2]"], other
    # a bare number corrects the latest statement holding the one value of as many digits: 0042, not port 80
    later = ledger("Run migration 0042 against the test db.", "Then restart the API on port 80.", "Sorry, I meant 0045.")
    # (a restart asked for is a request, done once answered: it stays in the block, under the requests)
    assert instructions(later) == ["- Sorry, I meant 0045. [#0, #4]"], later
    assert "- Then restart the API on port 80. [#2]" in later, later
    two = ledger("Run migration 0042 on port 8080.", "Sorry, I meant 0045.")
    assert instructions(two) == ["- Run migration 0042 on port 8080. [#0]", "- Sorry, I meant 0045. [#2]"], two


def test_a_hash_like_id_is_corrected_by_one_of_other_digits():
    # "bld-7b096ddc7d" and "bld-8c1f2a9e3b" had two shapes (digits in other places): no correction
    text = ledger("Deploy build bld-7b096ddc7d to the canary pool.", "Sorry, I meant build bld-8c1f2a9e3b.")
    assert instructions(text) == ["- Sorry, I meant build bld-8c1f2a9e3b. [#0, #2]"], text
    assert "bld-7b096ddc7d" not in text, text
    commit = ledger("Base the branch on commit edbbbe5.", "Oops, the commit is 3fa9c01.")
    assert instructions(commit) == ["- Oops, the commit is 3fa9c01. [#0, #2]"], commit
    assert "edbbbe5" not in commit, commit


def test_a_later_setting_correction_leaves_a_prohibition_said_with_it():
    # "Sorry, the migration is 7090", said long after "Never run migration 0193 ... Apply migration 1713", had
    # rewritten the prohibition: an agent would have been free to run 0193
    text = ledger("Ground rules: Never run migration 0193 against staging. Apply migration 1713 before the backfill.",
                  "Fix the CSS.", "Sorry, the migration is 7090.")
    assert instructions(text) == ["- Ground rules: Never run migration 0193 against staging. [#0]",
                                  "- Sorry, the migration is 7090. [#0, #4]"], text
    assert "1713" not in text, text


@pytest.mark.xfail(strict=True, reason="engine: a correction never supersedes an earlier correction (only statements "
                                       "that are not corrections are candidates): 'Correction: ... port 38742 ...' "
                                       "[#0, #2] stays beside the one for 46598 after 21641 replaced it")
def test_an_identifier_line_never_states_a_value_replaced_since():
    # a setting said again with a new value ("Run the dev API on port 21641.") replaced it in the instruction,
    # but the identifier line of the first correction still read "port 38742" as current
    text = ledger("Run the dev API on port 41136.", "Correction: the dev API goes on port 38742, the other one is taken.",
                  "Run the dev API on port 21641.", "Correction: the dev API goes on port 46598, the other one is taken.")
    assert instructions(text) == ["- Correction: the dev API goes on port 46598, the other one is taken. [#0, #2, #4, #6]"]
    assert "38742" not in text and "41136" not in text and "21641" not in text, text


def test_an_address_on_another_host_replaces_the_one_most_like_it():
    # "the latest URL" would have been the runbook's, said after the client's base URL
    text = ledger("Point the client at https://coupons-staging.acme.dev/api.",
                  "The runbook is at https://runbooks.acme-fafb.dev/reports/on-call if needed.",
                  "Actually the client API base is https://coupons.acme.dev/api, not the staging one.")
    assert instructions(text) == [
        "- The runbook is at https://runbooks.acme-fafb.dev/reports/on-call if needed. [#2]",
        "- Actually the client API base is https://coupons.acme.dev/api, not the staging one. [#0, #4]"], text
    assert "coupons-staging" not in text, text


def test_two_corrections_in_the_same_words_correct_two_things():
    # "Sorry, I meant X." twice had one key: joined, the second read "hotfix/2019.9 (was release/2014.3)"
    text = ledger("Cut the release from branch release/2010.4.", "Sorry, I meant release/2014.3.",
                  "Cut the hotfix from branch hotfix/2016.1 and tag it.", "Sorry, I meant hotfix/2019.9.")
    assert instructions(text) == ["- Sorry, I meant release/2014.3. [#0, #2]", "- Sorry, I meant hotfix/2019.9. [#4, #6]"]
    assert "2010.4" not in text and "2016.1" not in text, text


def test_the_users_rules_and_corrections_outlive_every_other_section():
    """Invariant 8 in a small ledger (not a tiny one): every rule and correction of the user is kept before
    any file, error or identifier gets its share; the settings the corrections superseded are gone."""
    said = ["Never log the ledger_secret field, not even at debug level.", "Always use pnpm, not npm, in the frontend.",
            "Run the dev API on port 41136.", "Correction: the dev API goes on port 38742, the other one is taken.",
            "Upload the export to s3://acme-exports-1.", "Oops, the bucket is s3://acme-exports-7.",
            "Do not restart the ledger-worker-715 container on the shared host.",
            "Never push directly to stable-262; always open a pull request."]
    said += [f"Never touch the legacy_{k} table without asking me first." for k in range(12)]
    msgs = []
    for text in said:
        msgs += [user(text), assistant("Noted.")]
    for n in range(40):  # files written and commands failed, enough to fill the ledger many times
        path = f"src/shop/module_{n}/handler.py"
        msgs += [assistant("", [(f"w{n}", "write", {"path": path, "content": "x = 1\n"})]), tool(f"w{n}", "ok"),
                 assistant("", [(f"r{n}", "bash", {"command": f"pytest tests/test_{n}.py"})]),
                 tool(f"r{n}", f"FAILED tests/test_{n}.py::test_case - AssertionError: expected {n} rows, got 0\n"
                               "exit code: 1"),
                 assistant(f"We'll go with a cache_{n} table instead of a view, since the view of module {n} is slow."),
                 user(f"Look at build bld-{n:04d}ab12cd, it is odd.")]
    msgs += [user("Fix the login page."), assistant("Noted.")]
    s = ExtractiveSummarizer()
    items = merge(s.items(msgs, [view_of(m) for m in msgs], 0), whole=True)
    text, left_out = render(items, 520, count)  # a small ledger, not a tiny one (COMPACT_BELOW)
    assert left_out > 0 and "## Files" in text and "## Errors" in text  # other sections have their share
    for rule in ("- Never log the ledger_secret field, not even at debug level. [#0]",
                 "- Always use pnpm, not npm, in the frontend. [#2]",
                 "- Correction: the dev API goes on port 38742, the other one is taken. [#4, #6]",
                 "- Oops, the bucket is s3://acme-exports-7. [#8, #10]", "ledger-worker-715", "stable-262",
                 *(f"legacy_{k} table" for k in range(12))):
        assert rule in text, (rule, text)  # 14 of the 18 had been kept: the rest went to other sections' shares
    assert "41136" not in text and "acme-exports-1." not in text, text


def test_values_are_whole_tokens_wherever_a_run_starts():
    """The value patterns start where a run of their characters starts (linear in a long run, see
    bench/adversarial.py): every value is still found whole, after any punctuation, and a long run
    is one value or none."""
    from context_compactor.summarizer.ledger import values

    said = "Budget $500, port 8080 (see a+b/c, src/x.py; v1.2.3) at https://x.io/a?b=1 or ops@acme.dev."
    assert values(said) == ("$500", "8080", "b/c", "src/x.py", "v1.2.3", "https://x.io/a?b=1", "ops@acme.dev")
    run = "a" * 50_000
    assert values(f"Actually {run}") == ()
    assert values(f"Actually {run}7 then") == (f"{run}7",)
    assert values(f"Oops {'x@' * 20_000}y.dev") == ("x@y.dev",)  # the one address the run ends in
    text = ledger("Use https://staging.example.com/api as the base URL.",
                  f"Actually the base URL is https://prod.example.com/api. The log it printed:\n{run}")
    assert "- Actually the base URL is https://prod.example.com/api. [#0, #2]" in text, text[:500]
    assert "staging.example.com" not in text, text[:500]
