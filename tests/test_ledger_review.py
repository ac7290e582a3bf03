"""A review of the ledger's correction logic by cases a user of a coding agent says (invariant 8): what the
user said outlives the rest, a correction never survives only as the value it corrected, no words are
rewritten (a correction stays verbatim and the statement it supersedes leaves, its citation joining the
correction's line), a prohibition is never taken out by a setting's correction, two things are never
merged into one. The passing cases hold the behaviour; the 12 mismatches the review found (false
corrections, a lost value) were fixed and hold here too. The cases marked xfail are what the engine
still gets wrong (each reason says how)."""
from __future__ import annotations

import pytest
from convo import assistant, tool, user

from context_compactor.messages import view_of
from context_compactor.summarizer.fallback import ExtractiveSummarizer
from context_compactor.summarizer.ledger import merge, render
from test_ledger_corrections import count, instructions, ledger  # the ledger of the user's messages said, then a request


def busy_ledger(said: list[str], budget: int) -> str:
    """The ledger of ``said`` followed by 40 rounds of files written, tests failed and decisions, in
    ``budget`` tokens: the user's words compete for room."""
    msgs = []
    for text in said:
        msgs += [user(text), assistant("Noted.")]
    for n in range(40):
        msgs += [assistant("", [(f"w{n}", "write", {"path": f"src/shop/module_{n}/handler.py", "content": "x\n"})]),
                 tool(f"w{n}", "ok"),
                 assistant("", [(f"r{n}", "bash", {"command": f"pytest tests/test_{n}.py"})]),
                 tool(f"r{n}", f"FAILED tests/test_{n}.py::test_case - AssertionError: {n}\nexit code: 1"),
                 assistant(f"We'll go with a cache_{n} table instead of a view, since the view is slow.")]
    msgs += [user("Fix the login page."), assistant("Noted.")]
    s = ExtractiveSummarizer()
    return render(merge(s.items(msgs, [view_of(m) for m in msgs], 0), whole=True), budget, count)[0]


# A sentence that holds two values, one of them corrected later: the correction supersedes the whole
# sentence, and the value no one corrected leaves the block with it.
WHOLE_SENTENCE = ("engine: the correction supersedes the whole sentence that held the corrected value, so the "
                  "sentence's other value, which no one corrected, leaves the block too: ")


# --- Corrections that land where a reader expects ------------------------------------------------------


def test_a_version_correction_replaces_the_pinned_version():
    text = ledger("Pin the SDK to v1.2.3 in package.json.", "Oops, I meant v1.2.4.")
    assert instructions(text) == ["- Oops, I meant v1.2.4. [#0, #2]"], text
    assert "v1.2.3" not in text, text


def test_a_docker_tag_correction_replaces_the_tag():
    text = ledger("Deploy image acme/web:1.4.2 to staging.", "Oops, the tag is acme/web:1.4.3.")
    assert instructions(text) == ["- Oops, the tag is acme/web:1.4.3. [#0, #2]"], text
    assert "1.4.2" not in text, text


@pytest.mark.xfail(strict=True, reason=WHOLE_SENTENCE + "the release date 2024-06-10")
def test_a_correction_naming_one_of_two_dates_replaces_that_one():
    text = ledger("The release is on 2024-06-10 and the code freeze on 2024-06-03.",
                  "Sorry, the code freeze is on 2024-06-05.")
    assert "- Sorry, the code freeze is on 2024-06-05. [#0, #2]" in instructions(text), text
    assert "2024-06-10" in text, text


@pytest.mark.xfail(strict=True, reason=WHOLE_SENTENCE + "requests 2.31.0")
def test_a_correction_naming_one_of_two_pins_replaces_that_one():
    text = ledger("Pin requests to 2.31.0 and urllib3 to 1.26.18.", "Oops, urllib3 should be 1.26.19.")
    assert "- Oops, urllib3 should be 1.26.19. [#0, #2]" in instructions(text), text
    assert "2.31.0" in text, text


@pytest.mark.xfail(strict=True, reason=WHOLE_SENTENCE + "release/2024.1 (to merge into main)")
def test_a_correction_naming_one_of_two_branches_replaces_that_one():
    text = ledger("Merge release/2024.1 into main and rebase feature/2024.2 on it.",
                  "Sorry, rebase feature/2024.3 instead.")
    assert "- Sorry, rebase feature/2024.3 instead. [#0, #2]" in instructions(text), text
    assert "release/2024.1" in text, text


def test_a_far_correction_that_names_the_thing_skips_a_later_port():
    text = ledger("Run the dev API on port 8080.", "Use Postgres 15 for the database.", "Add a test for the cart.",
                  "Set the redis port to 6379.", "Sorry, the dev API goes on port 9090.")
    assert instructions(text) == ["- Use Postgres 15 for the database. [#2]", "- Set the redis port to 6379. [#6]",
                                  "- Sorry, the dev API goes on port 9090. [#0, #8]"], text
    assert "8080" not in text, text


def test_a_correction_holding_two_values_replaces_both():
    text = ledger("Run the API on port 8080 with 12 workers.", "Sorry, port 9090 with 16 workers.")
    assert instructions(text) == ["- Sorry, port 9090 with 16 workers. [#0, #2]"], text
    assert "8080" not in text and "12 workers" not in text, text


@pytest.mark.xfail(strict=True, reason="engine: 'Send it to oncall@acme.dev instead of ops@acme.dev.' has no correction "
                                       "word, so it supersedes nothing: 'Send the weekly report to ops@acme.dev.' stays "
                                       "beside it as current")
def test_instead_of_between_emails_replaces_the_email():
    text = ledger("Send the weekly report to ops@acme.dev.", "Send it to oncall@acme.dev instead of ops@acme.dev.")
    assert instructions(text) == ["- Send it to oncall@acme.dev instead of ops@acme.dev. [#0, #2]"], text


def test_not_x_but_y_between_urls_replaces_the_url():
    text = ledger("Use https://staging.acme.dev/api as the base URL.",
                  "Not https://staging.acme.dev/api, but https://prod.acme.dev/api.")
    assert instructions(text) == ["- Not https://staging.acme.dev/api, but https://prod.acme.dev/api. [#0, #2]"], text


@pytest.mark.xfail(strict=True, reason=WHOLE_SENTENCE + "security@partner.io")
def test_an_email_correction_of_one_domain_leaves_the_other_domain():
    text = ledger("Send invoices to billing@acme.com and security reports to security@partner.io.",
                  "Sorry, the invoices go to finance@acme.com.")
    assert "- Sorry, the invoices go to finance@acme.com. [#0, #2]" in instructions(text), text
    assert "security@partner.io" in text, text


@pytest.mark.xfail(strict=True, reason=WHOLE_SENTENCE + "https://docs.acme.dev/guide")
def test_an_email_correction_leaves_a_url_on_the_same_domain():
    text = ledger("The docs are at https://docs.acme.dev/guide and questions go to help@acme.dev.",
                  "Sorry, questions go to support@acme.dev.")
    assert "- Sorry, questions go to support@acme.dev. [#0, #2]" in instructions(text), text
    assert "https://docs.acme.dev/guide" in text, text


@pytest.mark.xfail(strict=True, reason=WHOLE_SENTENCE + "help@acme.dev")
def test_a_url_correction_leaves_an_email_on_the_same_domain():
    text = ledger("Questions go to help@acme.dev; the docs are at https://docs.acme.dev/guide.",
                  "Actually the docs are at https://wiki.acme.dev/guide.")
    assert "- Actually the docs are at https://wiki.acme.dev/guide. [#0, #2]" in instructions(text), text
    assert "help@acme.dev" in text, text


def test_a_commit_correction_leaves_a_build_id_of_the_same_hash_shape():
    text = ledger("Base the branch on commit edbbbe5.", "The failing build is bld-7b096ddc7d.",
                  "Sorry, the commit is 3fa9c01.")
    assert instructions(text) == ["- The failing build is bld-7b096ddc7d. [#2]",
                                  "- Sorry, the commit is 3fa9c01. [#0, #4]"], text
    assert "edbbbe5" not in text, text


# --- Prohibitions and rules are never rewritten --------------------------------------------------------


def test_a_later_correction_named_like_a_prohibition_corrects_the_setting():
    text = ledger("Never run migration 0042 against prod.", "Run migration 0050 on the test db.", "Fix the CSS.",
                  "Sorry, the migration is 0051.")
    assert instructions(text) == ["- Never run migration 0042 against prod. [#0]",
                                  "- Sorry, the migration is 0051. [#2, #6]"], text
    assert "0050" not in text, text


def test_a_prohibited_url_is_not_rewritten_by_a_later_url_correction():
    text = ledger("Never call https://prod.acme.dev/api from tests.", "Point the client at https://staging.acme.dev/api.",
                  "Fix the CSS.", "Actually the client base is https://qa.acme.dev/api.")
    assert instructions(text) == ["- Never call https://prod.acme.dev/api from tests. [#0]",
                                  "- Actually the client base is https://qa.acme.dev/api. [#2, #6]"], text
    assert "staging.acme.dev" not in text, text


def test_two_prohibited_branches_in_the_same_words_both_stand():
    text = ledger("Never force-push to release/1.0.", "Never force-push to release/2.0.")
    assert instructions(text) == ["- Never force-push to release/1.0. [#0]", "- Never force-push to release/2.0. [#2]"]


def test_a_setting_said_again_leaves_a_prohibition_in_the_same_rules():
    text = ledger("Ground rules: Never run migration 0042 against prod. Use port 8080 for the API.",
                  "Use port 9090 for the API.")
    # the identifier line of port 8080: see test_an_identifier_line_never_states_a_value_a_setting_said_again_replaced
    assert instructions(text) == ["- Ground rules: Never run migration 0042 against prod. [#0]",
                                  "- Use port 9090 for the API. [#0, #2]"], text


def test_a_prohibition_said_again_with_another_value_adds_a_rule():
    text = ledger("Ground rules: Never run migration 0042 against prod. Use port 8080 for the API.",
                  "Never run migration 0043 against prod.")
    assert instructions(text) == ["- Ground rules: Never run migration 0042 against prod. [#0]",
                                  "- Use port 8080 for the API. [#0]", "- Never run migration 0043 against prod. [#2]"]


def test_two_tickets_in_the_same_words_stay_two():
    text = ledger("Close PR-41 after the merge.", "Close PR-42 after the merge.")
    assert instructions(text) == ["- Close PR-41 after the merge. [#0]", "- Close PR-42 after the merge. [#2]"], text


def test_a_setting_said_again_with_two_values_replaces_both():
    text = ledger("Run the API on port 8080 and the admin on port 8081.",
                  "Run the API on port 9090 and the admin on port 9091.")
    # its identifier lines: see test_an_identifier_line_never_states_a_value_a_setting_said_again_replaced
    assert instructions(text) == ["- Run the API on port 9090 and the admin on port 9091. [#0, #2]"], text


# --- Mismatches found in review (each a false correction, a lost value or a merge) ---------------------


def test_a_prohibited_email_is_not_rewritten_by_a_later_address():
    text = ledger("Never email customers@acme.dev from the test suite.", "Fix the CSS.",
                  "Actually, send test mail to qa@acme.dev.")
    assert instructions(text) == ["- Never email customers@acme.dev from the test suite. [#0]",
                                  "- Actually, send test mail to qa@acme.dev. [#4]"], text


def test_a_correction_sentence_without_values_corrects_nothing_said_before_it():
    port = ledger("Run the API on port 8080.", "Start redis on port 6379. Actually, also flush it first.")
    assert instructions(port) == ["- Run the API on port 8080. [#0]"], port
    ticket = ledger("Work on PR-41 for the login fix.", "Then review PR-52. Actually, let me check something first.")
    assert instructions(ticket) == ["- Work on PR-41 for the login fix. [#0]"], ticket
    mail = ledger("Send the weekly report to jane.doe@acme.dev.",
                  "Add john.doe@acme.dev as reviewer on the PR. Actually, also CC the team.")
    assert instructions(mail) == ["- Send the weekly report to jane.doe@acme.dev. [#0]"], mail
    # "Actually, also ..." adds, it does not correct: the words are part of the request they follow
    assert "- Add john.doe@acme.dev as reviewer on the PR. Actually, also CC the team. [#2]" in mail, mail


@pytest.mark.xfail(strict=True, reason=WHOLE_SENTENCE + "the commit a1b2c3d to cherry-pick")
def test_a_commit_correction_replaces_the_commit_named_by_the_same_word():
    text = ledger("Cherry-pick a1b2c3d onto main and revert 9f8e7d6.", "Sorry, revert 9f8e7d5 instead.")
    assert "- Sorry, revert 9f8e7d5 instead. [#0, #2]" in instructions(text), text
    assert "a1b2c3d" in text, text


@pytest.mark.xfail(strict=True, reason=WHOLE_SENTENCE + "the public API's port 8080, and ns-prod-1 of the api")
def test_a_correction_naming_the_second_of_two_settings_in_one_message_replaces_that_one():
    port = ledger("Run the public API on port 8080 and the admin API on port 8081.",
                  "Sorry, the admin API goes on port 9091.")
    assert "- Sorry, the admin API goes on port 9091. [#0, #2]" in instructions(port), port
    assert "public API on port 8080" in port, port
    ns = ledger("Deploy api to ns-prod-1 and the worker to ns-prod-2.", "Sorry, the worker goes to ns-prod-3.")
    assert "- Sorry, the worker goes to ns-prod-3. [#0, #2]" in instructions(ns), ns
    assert "ns-prod-1" in ns, ns


@pytest.mark.xfail(strict=True, reason=WHOLE_SENTENCE + "alice@acme.dev, billing@acme.com, anna@acme.dev and "
                                       "carl@acme.dev")
def test_an_email_correction_at_one_domain_takes_the_person_or_role_it_names():
    people = ledger("Alice is alice@acme.dev and Bob is bob@acme.dev; CC Bob on deploys.", "Oops, Bob is robert@acme.dev.")
    assert "- Oops, Bob is robert@acme.dev. [#0, #2]" in instructions(people), people
    assert "alice@acme.dev" in people, people
    roles = ledger("Billing questions go to billing@acme.com; legal ones to legal@acme.com.",
                   "Sorry, legal questions go to counsel@acme.com.")
    assert "- Sorry, legal questions go to counsel@acme.com. [#0, #2]" in instructions(roles), roles
    assert "billing@acme.com" in roles, roles
    left = ledger("The reviewers are anna@acme.dev, ben@acme.dev and carl@acme.dev.",
                  "Sorry, Ben left: use dana@acme.dev instead.")
    assert "- Sorry, Ben left: use dana@acme.dev instead. [#0, #2]" in instructions(left), left
    assert "anna@acme.dev" in left and "carl@acme.dev" in left, left


@pytest.mark.xfail(strict=True, reason=WHOLE_SENTENCE + "https://staging.acme.dev/api, and s3://acme-raw/data")
def test_an_address_correction_on_a_tie_does_not_take_the_first_address():
    api = ledger("The staging API is https://staging.acme.dev/api and prod API is https://prod.acme.dev/api.",
                 "Sorry, the prod API is https://www.acme.dev/api.")
    assert "- Sorry, the prod API is https://www.acme.dev/api. [#0, #2]" in instructions(api), api
    assert "https://staging.acme.dev/api" in api, api
    bucket = ledger("Read from s3://acme-raw/data and write to s3://acme-clean/data.",
                    "Sorry, write to s3://acme-curated/data.")
    assert "- Sorry, write to s3://acme-curated/data. [#0, #2]" in instructions(bucket), bucket
    assert "s3://acme-raw/data" in bucket, bucket


def test_an_apology_that_adds_a_fact_corrects_nothing():
    forgot = ledger("Send the weekly report to reports@acme.dev.", "Sorry, I forgot: the pager is pager@acme.dev.")
    assert instructions(forgot) == ["- Send the weekly report to reports@acme.dev. [#0]",
                                    "- Sorry, I forgot: the pager is pager@acme.dev. [#2]"], forgot
    more = ledger("Send the weekly report to reports@acme.dev.", "Sorry, one more thing: CC legal@acme.dev on contracts.")
    assert instructions(more) == ["- Send the weekly report to reports@acme.dev. [#0]",
                                  "- Sorry, one more thing: CC legal@acme.dev on contracts. [#2]"], more
    port = ledger("Run the API on port 8080.", "Sorry, I forgot: the metrics port is 9100.")
    assert instructions(port) == ["- Run the API on port 8080. [#0]",
                                  "- Sorry, I forgot: the metrics port is 9100. [#2]"], port


def test_an_apology_for_a_delay_corrects_nothing():
    delay = ledger("Use https://staging.acme.dev/api as the base URL.",
                   "Sorry for the delay. The metrics are at https://grafana.acme.dev/api/metrics.")
    assert instructions(delay) == ["- Use https://staging.acme.dev/api as the base URL. [#0]",
                                   "- The metrics are at https://grafana.acme.dev/api/metrics. [#2]"], delay


def test_a_landed_correction_keeps_every_value_it_said():
    build = ledger("Run the dev API on port 8080.", "Sorry, port 9090, build bld-1234abcd.")
    assert instructions(build) == ["- Sorry, port 9090, build bld-1234abcd. [#0, #2]"], build
    mail = ledger("Run the dev API on port 8080.", "Sorry, port 9090; mail ops@acme.dev.")
    assert instructions(mail) == ["- Sorry, port 9090; mail ops@acme.dev. [#0, #2]"], mail
    region = ledger("Run the dev API on port 8080.", "Sorry, port 9090 in eu-west-1.")
    assert instructions(region) == ["- Sorry, port 9090 in eu-west-1. [#0, #2]"], region
    workers = ledger("Run the API on port 8080 with 4 workers.", "Sorry, port 9090 with 8 workers.")
    assert instructions(workers) == ["- Sorry, port 9090 with 8 workers. [#0, #2]"], workers
    assert not any("8080" in text for text in (build, mail, region, workers))


def test_a_correction_without_a_value_outlives_the_value_it_corrects():
    """A correction without a value ("Sorry, make that the latest stable Python.") supersedes the statement
    it corrects like any other: it stays verbatim, citing that statement's message, and the old value is
    gone, so the block never holds the old value alone. (Dropped in favour of the old option, it had kept a
    superseded option B over "final answer: let's C" in compactbench.)"""
    said = ["Deploy to the k8s namespace payments-staging.", "Sorry, the namespace is payments-prod.",
            "Target Python 3.11 in CI.", "Sorry, make that the latest stable Python."]
    text = busy_ledger(said, 1200)
    assert instructions(text) == ["- Sorry, the namespace is payments-prod. [#0, #2]",
                                  "- Sorry, make that the latest stable Python. [#4, #6]"], text
    assert "payments-staging" not in text and "Python 3.11" not in text, text


def test_two_paths_said_in_the_same_words_stay_two_things():
    files = ledger("Run the migration in db/0042_users.sql first.", "Run the migration in db/0043_orders.sql first.")
    assert "- Run the migration in db/0042_users.sql first. [#0]" in files, files
    assert "- Run the migration in db/0043_orders.sql first. [#2]" in files, files
    branches = ledger("Delete branch feature/123-login after merge.", "Delete branch feature/456-cart after merge.")
    assert "- Delete branch feature/123-login after merge. [#0]" in branches, branches
    assert "- Delete branch feature/456-cart after merge. [#2]" in branches, branches


def test_an_identifier_line_never_states_a_value_a_setting_said_again_replaced():
    text = ledger("Run the dev API on port 8080.", "Run the dev API on port 9090.")
    assert instructions(text) == ["- Run the dev API on port 9090. [#0, #2]"], text
    assert "8080" not in text, text
    rules = ledger("Ground rules: Never run migration 0042 against prod. Use port 8080 for the API.",
                   "Use port 9090 for the API.")
    assert "8080" not in rules, rules
    two = ledger("Run the API on port 8080 and the admin on port 8081.",
                 "Run the API on port 9090 and the admin on port 9091.")
    assert "8080" not in two and "8081" not in two, two


def test_a_correction_that_forbids_replaces_the_value_it_corrects():
    # "Sorry, never ..." had not been read as forbidding (the rule's word after "Sorry,"): both stayed forbidden
    text = ledger("Never touch server-12.", "Fix the CSS.", "Sorry, never touch server-13.")
    assert instructions(text) == ["- Sorry, never touch server-13. [#0, #4]"], text
    assert "server-12" not in text, text
