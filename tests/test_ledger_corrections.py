"""Corrections, settings said again and prohibitions: the edge cases a review of the ledger found (each
failed before its fix): a word that starts a sentence is not a correction by itself, a correction that
says more is kept, an address correction takes the address it names, a rule said again changes its own
sentence only, standards are not tickets, limits are settings, thinking signatures are sized."""
from __future__ import annotations

import math
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


def test_a_url_correction_replaces_the_url_on_another_host():
    # a URL without a digit was no value: "Actually the base URL is https://prod..." could not correct it,
    # and the stale URL stayed an identifier of its own
    text = ledger("Use https://staging.example.com/api as the base URL.",
                  "Actually the base URL is https://prod.example.com/api.")
    assert "https://prod.example.com/api (was https://staging.example.com/api) as the base URL" in text, text
    assert text.count("https://staging.example.com/api") == 1, text  # only as the value it replaced
    bucket = ledger("Use the staging bucket s3://acme-staging/data.", "Oops, the bucket is s3://acme-prod/data.")
    assert "s3://acme-prod/data (was s3://acme-staging/data)" in bucket, bucket


def test_an_email_without_digits_is_corrected():
    text = ledger("Send the report to ops@acme.dev.", "Sorry, send it to oncall@acme.dev instead.")
    assert "Send the report to oncall@acme.dev (was ops@acme.dev)." in text, text


def test_a_url_correction_does_not_take_an_email():
    text = ledger("Mail the summary to ops@acme.dev.", "Actually the dashboard is https://grafana.acme.dev/d/api.")
    assert "(was ops@acme.dev)" not in text, text
    assert "Mail the summary to ops@acme.dev." in text, text


def test_a_bare_number_named_by_no_word_corrects_the_users_latest_of_its_shape():
    # "I meant 0045" had needed the naming word again ("migration 0045") to correct "migration 0042"
    text = ledger("Run migration 0042 against the test db.", "Sorry, I meant 0045.")
    assert "Run migration 0045 (was 0042) against the test db." in text, text
    assert "I meant 0045" not in text, text  # it landed: not listed again
    # named by another word, it still corrects only what that word named
    other = ledger("Run migration 0042 against the test db.", "Sorry, ticket 0045 is the one to close.")
    assert "(was 0042)" not in other, other
    # only the message just before, and only one number of as many digits there: else it is left unread
    later = ledger("Run migration 0042 against the test db.", "Then restart the API on port 80.", "Sorry, I meant 0045.")
    assert "(was " not in later and "I meant 0045" in later, later
    two = ledger("Run migration 0042 on port 8080.", "Sorry, I meant 0045.")
    assert "(was " not in two and "I meant 0045" in two, two


def test_a_hash_like_id_is_corrected_by_one_of_other_digits():
    # "bld-7b096ddc7d" and "bld-8c1f2a9e3b" had two shapes (digits in other places): no correction
    text = ledger("Deploy build bld-7b096ddc7d to the canary pool.", "Sorry, I meant build bld-8c1f2a9e3b.")
    assert "Deploy build bld-8c1f2a9e3b (was bld-7b096ddc7d) to the canary pool." in text, text
    commit = ledger("Base the branch on commit edbbbe5.", "Oops, the commit is 3fa9c01.")
    assert "commit 3fa9c01 (was edbbbe5)" in commit, commit


def test_a_later_setting_correction_leaves_a_prohibition_said_with_it():
    # "Sorry, the migration is 7090", said long after "Never run migration 0193 ... Apply migration 1713", had
    # rewritten the prohibition: an agent would have been free to run 0193
    text = ledger("Ground rules: Never run migration 0193 against staging. Apply migration 1713 before the backfill.",
                  "Fix the CSS.", "Sorry, the migration is 7090.")
    assert "Never run migration 0193 against staging. Apply migration 7090 (was 1713) before the backfill." in text, text


def test_an_identifier_line_never_states_a_value_replaced_since():
    # a setting said again with a new value ("Run the dev API on port 21641.") replaced it in the instruction,
    # but the identifier line of the first correction still read "port 38742" as current
    text = ledger("Run the dev API on port 41136.", "Correction: the dev API goes on port 38742, the other one is taken.",
                  "Run the dev API on port 21641.", "Correction: the dev API goes on port 46598, the other one is taken.")
    current = [line for line in text.splitlines() if "38742" in line.replace("(was 38742)", "")]
    assert not current, text
    assert "46598" in text, text


def test_an_address_on_another_host_replaces_the_one_most_like_it():
    # "the latest URL" would have been the runbook's, said after the client's base URL
    text = ledger("Point the client at https://coupons-staging.acme.dev/api.",
                  "The runbook is at https://runbooks.acme-fafb.dev/reports/on-call if needed.",
                  "Actually the client API base is https://coupons.acme.dev/api, not the staging one.")
    assert "https://coupons.acme.dev/api (was https://coupons-staging.acme.dev/api)" in text, text
    assert "The runbook is at https://runbooks.acme-fafb.dev/reports/on-call if needed." in text, text


def test_two_corrections_in_the_same_words_correct_two_things():
    # "Sorry, I meant X." twice had one key: joined, the second read "hotfix/2019.9 (was release/2014.3)"
    text = ledger("Cut the release from branch release/2010.4.", "Sorry, I meant release/2014.3.",
                  "Cut the hotfix from branch hotfix/2016.1 and tag it.", "Sorry, I meant hotfix/2019.9.")
    assert "(was release/2014.3)" not in text, text
    assert "release/2014.3 (was release/2010.4)" in text and "hotfix/2019.9 (was hotfix/2016.1)" in text, text


def test_a_setting_said_again_shows_the_old_value_beside_the_new():
    # the value it replaced had been put after the whole text ("... 21641. (was 41136)"), and a correction
    # after that added a second "(was ...)" at the end
    text = ledger("Run the dev API on port 41136 and keep the logs quiet.",
                  "Run the dev API on port 21641 and keep the logs quiet.",
                  "Correction: the dev API goes on port 46598, the other one is taken.")
    assert "Run the dev API on port 46598 (was 21641) and keep the logs quiet." in text, text
    assert text.count("(was ") == 1, text


def test_the_users_rules_and_corrections_outlive_every_other_section():
    """Invariant 8 in a small ledger (not a tiny one): every rule and corrected setting of the user is kept
    before any file, error or identifier gets its share; a corrected setting ranks as its correction."""
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
    for rule in ("Never log the ledger_secret field", "Always use pnpm", "port 38742 (was 41136)",
                 "s3://acme-exports-7 (was s3://acme-exports-1)", "ledger-worker-715", "stable-262",
                 *(f"legacy_{k} table" for k in range(12))):
        assert rule in text, (rule, text)  # 14 of the 18 had been kept: the rest went to other sections' shares


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
    assert "https://prod.example.com/api (was https://staging.example.com/api)" in text, text[:500]
