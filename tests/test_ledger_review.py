"""A review of the ledger's correction logic by cases a user of a coding agent says (invariant 8): what the
user said outlives the rest, a correction never survives only as the value it corrected, a rule is never
rewritten into what the user did not say, two things are never merged into one. The passing cases hold
the behaviour; the 12 mismatches the review found (false corrections, a lost value) were fixed and hold
here too."""
from __future__ import annotations

from convo import assistant, tool, user

from context_compactor.messages import view_of
from context_compactor.summarizer.fallback import ExtractiveSummarizer
from context_compactor.summarizer.ledger import merge, render
from test_ledger_corrections import count, ledger  # the ledger of the user's messages said, then a request


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


def current(text: str, value: str) -> list[str]:
    """The lines of ``text`` that state ``value`` as current (not only as "(was value)")."""
    return [line for line in text.splitlines() if value in line.replace(f"(was {value})", "")]


# --- Corrections that land where a reader expects ------------------------------------------------------


def test_a_version_correction_replaces_the_pinned_version():
    text = ledger("Pin the SDK to v1.2.3 in package.json.", "Oops, I meant v1.2.4.")
    assert "Pin the SDK to v1.2.4 (was v1.2.3) in package.json." in text, text


def test_a_docker_tag_correction_replaces_the_tag():
    text = ledger("Deploy image acme/web:1.4.2 to staging.", "Oops, the tag is acme/web:1.4.3.")
    assert "Deploy image acme/web:1.4.3 (was acme/web:1.4.2) to staging." in text, text


def test_a_correction_naming_one_of_two_dates_replaces_that_one():
    text = ledger("The release is on 2024-06-10 and the code freeze on 2024-06-03.",
                  "Sorry, the code freeze is on 2024-06-05.")
    assert "The release is on 2024-06-10 and the code freeze on 2024-06-05 (was 2024-06-03)." in text, text


def test_a_correction_naming_one_of_two_pins_replaces_that_one():
    text = ledger("Pin requests to 2.31.0 and urllib3 to 1.26.18.", "Oops, urllib3 should be 1.26.19.")
    assert "Pin requests to 2.31.0 and urllib3 to 1.26.19 (was 1.26.18)." in text, text


def test_a_correction_naming_one_of_two_branches_replaces_that_one():
    text = ledger("Merge release/2024.1 into main and rebase feature/2024.2 on it.",
                  "Sorry, rebase feature/2024.3 instead.")
    assert "Merge release/2024.1 into main and rebase feature/2024.3 (was feature/2024.2) on it." in text, text


def test_a_far_correction_that_names_the_thing_skips_a_later_port():
    text = ledger("Run the dev API on port 8080.", "Use Postgres 15 for the database.", "Add a test for the cart.",
                  "Set the redis port to 6379.", "Sorry, the dev API goes on port 9090.")
    assert "Run the dev API on port 9090 (was 8080)." in text, text
    assert "Set the redis port to 6379." in text, text


def test_a_correction_holding_two_values_replaces_both():
    text = ledger("Run the API on port 8080 with 12 workers.", "Sorry, port 9090 with 16 workers.")
    assert "Run the API on port 9090 (was 8080) with 16 (was 12) workers." in text, text


def test_instead_of_between_emails_replaces_the_email():
    text = ledger("Send the weekly report to ops@acme.dev.", "Send it to oncall@acme.dev instead of ops@acme.dev.")
    assert "Send the weekly report to oncall@acme.dev (was ops@acme.dev)." in text, text


def test_not_x_but_y_between_urls_replaces_the_url():
    text = ledger("Use https://staging.acme.dev/api as the base URL.",
                  "Not https://staging.acme.dev/api, but https://prod.acme.dev/api.")
    assert "Use https://prod.acme.dev/api (was https://staging.acme.dev/api) as the base URL." in text, text


def test_an_email_correction_of_one_domain_leaves_the_other_domain():
    text = ledger("Send invoices to billing@acme.com and security reports to security@partner.io.",
                  "Sorry, the invoices go to finance@acme.com.")
    assert ("Send invoices to finance@acme.com (was billing@acme.com) and security reports to security@partner.io."
            in text), text


def test_an_email_correction_leaves_a_url_on_the_same_domain():
    text = ledger("The docs are at https://docs.acme.dev/guide and questions go to help@acme.dev.",
                  "Sorry, questions go to support@acme.dev.")
    assert ("The docs are at https://docs.acme.dev/guide and questions go to support@acme.dev (was help@acme.dev)."
            in text), text


def test_a_url_correction_leaves_an_email_on_the_same_domain():
    text = ledger("Questions go to help@acme.dev; the docs are at https://docs.acme.dev/guide.",
                  "Actually the docs are at https://wiki.acme.dev/guide.")
    assert "Questions go to help@acme.dev;" in text and "(was help@acme.dev)" not in text, text
    assert "https://wiki.acme.dev/guide (was https://docs.acme.dev/guide)" in text, text


def test_a_commit_correction_leaves_a_build_id_of_the_same_hash_shape():
    text = ledger("Base the branch on commit edbbbe5.", "The failing build is bld-7b096ddc7d.",
                  "Sorry, the commit is 3fa9c01.")
    assert "Base the branch on commit 3fa9c01 (was edbbbe5)." in text, text
    assert "The failing build is bld-7b096ddc7d." in text, text


# --- Prohibitions and rules are never rewritten --------------------------------------------------------


def test_a_later_correction_named_like_a_prohibition_corrects_the_setting():
    text = ledger("Never run migration 0042 against prod.", "Run migration 0050 on the test db.", "Fix the CSS.",
                  "Sorry, the migration is 0051.")
    assert "Never run migration 0042 against prod." in text, text
    assert "Run migration 0051 (was 0050) on the test db." in text, text


def test_a_prohibited_url_is_not_rewritten_by_a_later_url_correction():
    text = ledger("Never call https://prod.acme.dev/api from tests.", "Point the client at https://staging.acme.dev/api.",
                  "Fix the CSS.", "Actually the client base is https://qa.acme.dev/api.")
    assert "Never call https://prod.acme.dev/api from tests." in text, text
    assert "Point the client at https://qa.acme.dev/api (was https://staging.acme.dev/api)." in text, text


def test_two_prohibited_branches_in_the_same_words_both_stand():
    text = ledger("Never force-push to release/1.0.", "Never force-push to release/2.0.")
    assert "Never force-push to release/1.0." in text and "Never force-push to release/2.0." in text, text
    assert "(was " not in text, text


def test_a_setting_said_again_leaves_a_prohibition_in_the_same_rules():
    text = ledger("Ground rules: Never run migration 0042 against prod. Use port 8080 for the API.",
                  "Use port 9090 for the API.")
    assert "Never run migration 0042 against prod. Use port 9090 (was 8080) for the API." in text, text


def test_a_prohibition_said_again_with_another_value_adds_a_rule():
    text = ledger("Ground rules: Never run migration 0042 against prod. Use port 8080 for the API.",
                  "Never run migration 0043 against prod.")
    assert "Never run migration 0042 against prod." in text and "Never run migration 0043 against prod." in text
    assert "(was " not in text, text


def test_two_tickets_in_the_same_words_stay_two():
    text = ledger("Close PR-41 after the merge.", "Close PR-42 after the merge.")
    assert "Close PR-41 after the merge." in text and "Close PR-42 after the merge." in text, text


def test_a_setting_said_again_with_two_values_shows_each_old_beside_its_new():
    text = ledger("Run the API on port 8080 and the admin on port 8081.",
                  "Run the API on port 9090 and the admin on port 9091.")
    assert "Run the API on port 9090 (was 8080) and the admin on port 9091 (was 8081)." in text, text


# --- Mismatches found in review (each a false correction, a lost value or a merge) ---------------------


def test_a_prohibited_email_is_not_rewritten_by_a_later_address():
    text = ledger("Never email customers@acme.dev from the test suite.", "Fix the CSS.",
                  "Actually, send test mail to qa@acme.dev.")
    assert "Never email customers@acme.dev from the test suite." in text, text


def test_a_correction_sentence_without_values_corrects_nothing_said_before_it():
    port = ledger("Run the API on port 8080.", "Start redis on port 6379. Actually, also flush it first.")
    assert "Run the API on port 8080." in port, port
    ticket = ledger("Work on PR-41 for the login fix.", "Then review PR-52. Actually, let me check something first.")
    assert "Work on PR-41 for the login fix." in ticket, ticket
    mail = ledger("Send the weekly report to jane.doe@acme.dev.",
                  "Add john.doe@acme.dev as reviewer on the PR. Actually, also CC the team.")
    assert "Send the weekly report to jane.doe@acme.dev." in mail, mail


def test_a_commit_correction_replaces_the_commit_named_by_the_same_word():
    text = ledger("Cherry-pick a1b2c3d onto main and revert 9f8e7d6.", "Sorry, revert 9f8e7d5 instead.")
    assert "Cherry-pick a1b2c3d onto main and revert 9f8e7d5 (was 9f8e7d6)." in text, text


def test_a_correction_naming_the_second_of_two_settings_in_one_message_replaces_that_one():
    port = ledger("Run the public API on port 8080 and the admin API on port 8081.",
                  "Sorry, the admin API goes on port 9091.")
    assert "public API on port 8080" in port and "admin API on port 9091 (was 8081)" in port, port
    ns = ledger("Deploy api to ns-prod-1 and the worker to ns-prod-2.", "Sorry, the worker goes to ns-prod-3.")
    assert "Deploy api to ns-prod-1 and the worker to ns-prod-3 (was ns-prod-2)." in ns, ns


def test_an_email_correction_at_one_domain_takes_the_person_or_role_it_names():
    people = ledger("Alice is alice@acme.dev and Bob is bob@acme.dev; CC Bob on deploys.", "Oops, Bob is robert@acme.dev.")
    assert "Alice is alice@acme.dev" in people, people
    roles = ledger("Billing questions go to billing@acme.com; legal ones to legal@acme.com.",
                   "Sorry, legal questions go to counsel@acme.com.")
    assert "Billing questions go to billing@acme.com;" in roles, roles
    left = ledger("The reviewers are anna@acme.dev, ben@acme.dev and carl@acme.dev.",
                  "Sorry, Ben left: use dana@acme.dev instead.")
    assert "anna@acme.dev," in left and "(was anna@acme.dev)" not in left, left


def test_an_address_correction_on_a_tie_does_not_take_the_first_address():
    api = ledger("The staging API is https://staging.acme.dev/api and prod API is https://prod.acme.dev/api.",
                 "Sorry, the prod API is https://www.acme.dev/api.")
    assert "The staging API is https://staging.acme.dev/api and" in api, api
    bucket = ledger("Read from s3://acme-raw/data and write to s3://acme-clean/data.",
                    "Sorry, write to s3://acme-curated/data.")
    assert "Read from s3://acme-raw/data and" in bucket, bucket


def test_an_apology_that_adds_a_fact_corrects_nothing():
    forgot = ledger("Send the weekly report to reports@acme.dev.", "Sorry, I forgot: the pager is pager@acme.dev.")
    assert "Send the weekly report to reports@acme.dev." in forgot, forgot
    more = ledger("Send the weekly report to reports@acme.dev.", "Sorry, one more thing: CC legal@acme.dev on contracts.")
    assert "Send the weekly report to reports@acme.dev." in more, more
    delay = ledger("Use https://staging.acme.dev/api as the base URL.",
                   "Sorry for the delay. The metrics are at https://grafana.acme.dev/api/metrics.")
    assert "Use https://staging.acme.dev/api as the base URL." in delay, delay
    port = ledger("Run the API on port 8080.", "Sorry, I forgot: the metrics port is 9100.")
    assert "Run the API on port 8080." in port, port


def test_a_landed_correction_keeps_every_value_it_said():
    build = ledger("Run the dev API on port 8080.", "Sorry, port 9090, build bld-1234abcd.")
    assert "bld-1234abcd" in build, build
    mail = ledger("Run the dev API on port 8080.", "Sorry, port 9090; mail ops@acme.dev.")
    assert "ops@acme.dev" in mail, mail
    region = ledger("Run the dev API on port 8080.", "Sorry, port 9090 in eu-west-1.")
    assert "eu-west-1" in region, region
    workers = ledger("Run the API on port 8080 with 4 workers.", "Sorry, port 9090 with 8 workers.")
    assert "Sorry, port 9090 with 8 workers." in workers, workers  # listed still: its 8 workers are nowhere else


def test_a_correction_without_a_value_outlives_the_value_it_corrects():
    """Joined to the words just before it ("... (then: Sorry, ...)"), kept or left out with them. Made a rule of
    its own instead, it had kept a superseded option B over "final answer: let's C" in compactbench."""
    said = ["Deploy to the k8s namespace payments-staging.", "Sorry, the namespace is payments-prod.",
            "Target Python 3.11 in CI.", "Sorry, make that the latest stable Python."]
    text = busy_ledger(said, 1200)
    assert "Deploy to the k8s namespace payments-staging. (then: Sorry, the namespace is payments-prod.)" in text, text
    assert "Target Python 3.11 in CI. (then: Sorry, make that the latest stable Python.)" in text, text
    for old, new in (("payments-staging", "payments-prod"), ("Python 3.11", "latest stable Python")):
        assert all(new in line for line in text.splitlines() if old in line), (old, new, text)  # never alone


def test_two_paths_said_in_the_same_words_stay_two_things():
    files = ledger("Run the migration in db/0042_users.sql first.", "Run the migration in db/0043_orders.sql first.")
    assert "(was db/0042_users.sql)" not in files, files
    branches = ledger("Delete branch feature/123-login after merge.", "Delete branch feature/456-cart after merge.")
    assert "(was feature/123-login)" not in branches, branches


def test_an_identifier_line_never_states_a_value_a_setting_said_again_replaced():
    text = ledger("Run the dev API on port 8080.", "Run the dev API on port 9090.")
    assert "Run the dev API on port 9090 (was 8080)." in text, text
    assert not current(text, "8080"), text


def test_a_correction_that_forbids_replaces_the_value_it_corrects():
    # "Sorry, never ..." had not been read as forbidding (the rule's word after "Sorry,"): both stayed forbidden
    text = ledger("Never touch server-12.", "Fix the CSS.", "Sorry, never touch server-13.")
    assert "server-13 (was server-12)" in text, text
