"""Coding-agent sessions on a polyglot repo (Go service, TypeScript frontend, Rust crates).

An independent generator for the fidelity benchmark, written from the ``Fact``/``Session``
interface only, without reading the compactor, so its phrasing can't echo the compactor's patterns.

    from gen_code import make_session
    session = make_session(seed=1, messages=400)    # ~150k tokens at 4 chars a token
    session = make_session(seed=1, messages=3000)   # ~1.2M tokens

The conversation looks like a Claude Code / Codex session converted to OpenAI chat format: a
system prompt, user turns, assistant turns calling ``Bash``, ``Read``, ``Edit``, ``Write``,
``Grep``, ``Glob`` and ``TodoWrite`` with matching ``tool`` results (file reads, ``go test``,
vitest/jest, cargo, eslint, tsc, git diffs), pasted CI logs, Slack threads, GitHub issues, stack
traces and design docs, and many finished one-off requests. It ends on a user turn.

Facts of eight kinds are planted early, in the middle and late (before the last 10%); each value
occurs nowhere before the message that states it. Same seed and size give the same bytes.
"""

from __future__ import annotations

import json
import random
import string
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from sessiongen import Fact, Session

AVG_CHARS = 1560
KINDS = ("instruction", "correction", "error", "file", "decision", "identifier", "finding", "plan")
BANDS = ((0.03, 0.30), (0.30, 0.60), (0.60, 0.84))
MOD = "github.com/acme/harbor"
ROOT = "/home/dev/harbor"
B62 = string.ascii_letters + string.digits
HEX = "0123456789abcdef"

# ---------------------------------------------------------------------------------------------
# Vocabulary. Noise uses the NOISE lists only; planted facts draw names from the FACT lists, so
# background text can never spell a fact's value before it is planted.
# ---------------------------------------------------------------------------------------------

PEOPLE = ["maria", "jonas", "priya", "tom", "aiko", "sam", "lena", "omar", "felix", "ines", "kofi", "dana"]
GO_PKGS = ["api", "auth", "billing", "ledger", "payout", "webhook", "ratelimit", "store", "queue",
           "metrics", "config", "invoice", "audit", "session"]
GO_FILES = ["handler", "service", "store", "middleware", "client", "worker", "types", "validate",
            "server", "routes", "cache", "codec"]
GO_STD = ["context", "errors", "fmt", "time", "sync", "strings", "net/http", "encoding/json",
          "log/slog", "sort", "strconv", "io"]
GO_T = ["Server", "Store", "Client", "Handler", "Worker", "Batch", "Entry", "Event", "Account",
        "Payout", "Invoice", "Webhook", "Limiter", "Token", "Session", "Queue", "Report", "Balance",
        "Transfer", "Refund", "Cursor", "Job"]
GO_V = ["load", "save", "apply", "flush", "fetch", "validate", "encode", "decode", "publish", "retry",
        "lookup", "merge", "sync", "drain", "resolve", "scan", "prune", "render", "sign", "verify"]
GO_F = ["ID", "TenantID", "Amount", "Currency", "CreatedAt", "UpdatedAt", "Status", "Attempts",
        "Meta", "Version", "Cursor", "Limit", "Items", "Reason", "Source", "Key"]
GO_VARS = ["req", "resp", "entry", "batch", "items", "out", "acct", "ev", "job", "cur", "row", "rows",
           "buf", "key", "ids", "tok"]
NOISE_SUFFIX = ["RoundTrip", "EmptyInput", "Concurrent", "Timeout", "Validation", "Pagination",
                "Retry", "Encode", "Decode", "Ordering", "Defaults", "Errors", "Unauthorized"]
TS_DIRS = ["cart", "checkout", "account", "components", "hooks", "api", "routes", "utils", "i18n",
           "store", "orders", "search"]
TS_COMPS = ["CartSummary", "CheckoutForm", "OrderList", "SearchBar", "AddressForm", "PaymentMethods",
            "ProductCard", "AccountMenu", "PriceTag", "Toast", "OrderDetails", "ShippingPicker"]
TS_T = ["Cart", "LineItem", "Order", "Address", "Money", "Product", "Customer", "Payment", "Session",
        "Shipment", "Invoice", "Price"]
TS_FILES = ["total", "format", "client", "money", "useCart", "useOrders", "schema", "routes", "i18n",
            "storage", "validators", "analytics"]
RS_CRATES = {"wal": ["lib", "segment", "reader", "writer", "codec", "error"],
             "ledger-core": ["lib", "entry", "balance", "codec", "posting", "error"],
             "ffi": ["lib", "handle", "error"]}
RS_T = ["Segment", "Reader", "Writer", "Frame", "Entry", "Posting", "Balance", "Handle", "Offset",
        "Cursor"]

GO_FACT_NOUNS = ["royalty", "commission", "subsidy", "pension", "escheat", "dividend", "gratuity", "retainer",
                 "lockbox", "penalty", "overdraft", "cashback", "factoring", "lien", "interchange", "acquirer", "payfac", "sepa",
                 "bacs", "nacha", "topup", "prepay", "installment", "payin", "rollover", "escrow", "dunning", "remittance", "chargeback", "settlement", "fxquote", "kyc",
                 "voucher", "tariff", "clearing", "netting", "sweep", "payroll", "rebate", "accrual",
                 "dispute", "mandate", "treasury", "custody", "holdback", "levy", "stipend",
                 "tranche", "reserve", "bounty", "annuity", "surcharge", "clawback"]
TS_FACT_NOUNS = ["wishlist", "bundle", "storefront", "backorder", "preorder", "giftwrap", "layaway",
                 "referral", "rewards", "loyalty", "giftcard", "coupon", "swatch", "lookbook",
                 "minicart", "upsell", "raffle", "pickup", "quickview", "bopis", "stockalert", "sizeguide",
                 "giftnote", "paylater", "tipjar", "splitpay"]
RS_FACT_NOUNS = ["tombstone", "bloom", "compaction", "checkpoint", "fence", "epoch", "spill",
                 "arena", "freelist", "vacuum", "rollup", "hinting", "memtable", "sstable", "levelmap",
                 "zonemap", "walshard", "rowgroup"]
FACT_SUFFIX = ["ReleaseWindow", "PartialHold", "DSTBoundary", "ZeroAmount", "Idempotency",
               "ConcurrentApply", "Replay", "Expiry", "Rounding", "CutoffMidnight",
               "NegativeBalance", "DuplicateEvent"]

GO_COMMENTS = [
    "TODO(jonas): drop this once the v1 clients are gone",
    "NOTE: callers hold s.mu",
    "FIXME: this retries on 4xx too, which is wrong but harmless for now",
    "keep in sync with web/src/api/types.ts",
    "this path is hot; avoid allocations here",
    "returns ErrNotFound when the row is missing, never nil, nil",
    "the provider sometimes sends the same event twice within a second",
    "see the runbook for what to do when this fires at night",
    "do not log the raw payload, it can contain card data",
    "we used to panic here; now the error bubbles up to the handler",
]

TEMPTING = [
    "do not merge",
    "1 failed, 1575 passed, 3 skipped in 78.97s",
    "duration_ms=168",
    "Actually, this is expected",
    "DO NOT MERGE until the backfill has finished",
    "please don't retry this job by hand",
    "no wait, it's --workers not --threads",
    "sorry, wrong port — it's 9091",
    "we should never cache this response",
    "Always rebase onto main before pushing",
    "Decision: we go with the outbox pattern for now",
    "use the v1 endpoint instead",
    "revert if p99 goes above 400ms",
]


def cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def camel(*words: str) -> str:
    return words[0] + "".join(cap(w) for w in words[1:])


class Ev:
    """A planned event: a fact (or the stale half of one, or an error's later fix) to place."""

    __slots__ = ("slot", "target", "after", "min_gap", "idx", "fact", "role", "data")

    def __init__(self, slot: str, target: int, fact: dict, role: str = "fact", data: dict | None = None,
                 after: Ev | None = None, min_gap: int = 0):
        self.slot, self.target, self.fact, self.role = slot, target, fact, role
        self.data = data or {}
        self.after, self.min_gap, self.idx = after, min_gap, None

    def land(self, idx: int) -> None:
        self.idx = idx
        if self.role == "fact":
            self.fact["index"] = idx
        elif self.role == "stale":
            self.fact["stale_index"] = idx
        elif self.role == "resolve":
            self.fact["resolved"] = idx


# ---------------------------------------------------------------------------------------------
# Planted-fact material
# ---------------------------------------------------------------------------------------------

INSTRUCTIONS = [  # (rule text = value, query)
    ("we use tabs here, not spaces", "What indentation does the user want?"),
    ("keep PRs under 400 lines pls", "How big may a pull request be?"),
    ("the CI box has no network, so anything that downloads at test time is a no-go",
     "What constraint does the CI machine put on tests?"),
    ("Use the structured logger zlog for anything new; no fmt.Println in library code.",
     "Which logger should new code use?"),
    ("No uses var en el código nuevo, solo const y let.", "What did the user say about var in new code?"),
    ("Ne touche pas au dossier vendor/, il est régénéré par le script de sync.",
     "What did the user say about the vendor directory?"),
    ("Bitte keine neuen Abhängigkeiten im Rust-Teil ohne Rücksprache mit mir.",
     "What did the user say about adding Rust dependencies?"),
    ("don't bump the go directive in go.mod, the build image is pinned to 1.21",
     "What did the user say about the Go version in go.mod?"),
    ("every exported Go func gets a doc comment, the lint bot is picky about it",
     "What must exported Go functions have?"),
    ("commit messages start with the area, like `ledger/replay: fix off-by-one`",
     "How should commit messages be formatted?"),
    ("migrations never run against staging from a laptop, only through the deploy pipeline",
     "How may migrations be run against staging?"),
    ("anything that reads the time should take a clock.Clock instead of calling time.Now() directly",
     "How should code that needs the current time get it?"),
    ("user-facing strings in web/ go through t(), no hardcoded English in components",
     "How should user-facing strings in the frontend be written?"),
    ("please don't add new `any` in web/, use unknown and narrow it",
     "What did the user say about the any type in the frontend?"),
    ("I prefer table-driven tests on the Go side", "What test style does the user prefer for Go?"),
    ("run `make lint` before you tell me something is done",
     "What should be run before reporting a task as done?"),
    ("don't squash my commits when you rebase", "What did the user say about squashing when rebasing?"),
    ("keep unsafe out of crates/wal entirely, even in tests", "What did the user say about unsafe Rust?"),
    ("Los nombres de ramas van en minúsculas y con guiones, nada de camelCase.",
     "How should branch names be written?"),
    ("Fehlermeldungen in Go bitte klein schreiben und ohne Punkt am Ende.",
     "How should Go error messages be written?"),
    ("Pour les nouveaux fichiers de test côté web, on utilise vitest et plus jest.",
     "Which test runner should new frontend test files use?"),
    ("new Go code gets its deps through the Server struct, no package-level globals",
     "How should new Go code get its dependencies?"),
    ("the staging DB is shared with QA, so scripts that default to staging must not delete anything",
     "What must scripts that default to staging avoid?"),
    ("mobile Safari is still a third of checkout traffic, so no CSS :has() in the cart UI",
     "Which CSS feature must the cart UI avoid?"),
    ("money crosses the API as a decimal string, never as a JSON float",
     "How are money amounts sent over the API?"),
    ("the release train cuts on Thursday mornings, so risky changes land Monday or Tuesday",
     "When should risky changes be merged?"),
]
DOC_RULES = [
    ("Handlers must not call the payments provider synchronously; enqueue a job on the outbox instead.",
     "What does the design doc say about calling the payments provider from handlers?"),
    ("Every migration ships with a down migration that has been run at least once locally.",
     "What does the doc require of every migration?"),
    ("Feature flags are read once per request through flags.FromContext and never cached in package variables.",
     "How must feature flags be read according to the doc?"),
    ("Money is represented as int64 minor units end to end; floats are rejected in review.",
     "How does the doc say money must be represented?"),
    ("Public functions in web/src/api declare explicit return types.",
     "What does the doc require of public functions in the frontend api module?"),
    ("Crates deny warnings at the crate root with #![deny(warnings)] so CI fails on new ones.",
     "What does the doc say about warnings in the Rust crates?"),
    ("Log lines never contain card numbers, emails or tokens; pass user input through redact.String first.",
     "What does the doc say about logging user input?"),
    ("Integration tests that need Postgres use the testdb package and call t.Parallel().",
     "How must Postgres integration tests be written per the doc?"),
    ("Background goroutines derive their context from s.baseCtx, never from context.Background().",
     "Where must background goroutines get their context from?"),
    ("A new public endpoint needs an entry in api/openapi.yaml in the same pull request.",
     "What must accompany a new public endpoint?"),
]
INSTR_QUESTIONS = [
    "Before I write the new code — any conventions here I should follow that aren't in the README?",
    "Quick check: anything about style or tooling you want me to stick to for this?",
    "Should I follow the existing code's style, or is there a house rule I should know about first?",
    "One question before I go further: anything I should avoid while I'm in here?",
]
INSTR_ACKS = ["Got it.", "Noted, I'll stick to that.", "Understood — will do.", "👍 will keep that in mind.",
              "Makes sense, noted.", "OK.", "Sure, noted for the rest of the session."]

DECISIONS = [  # phrase, reason, query, revised phrase, revised reason
    ("guard the pending map with a sync.Mutex", "it's only touched from two goroutines",
     "How is concurrent access to the pending map handled?",
     "use a buffered channel instead of the mutex", "the profile shows lock contention on every flush"),
    ("store amounts as int64 cents", "float rounding already bit us in the refund totals",
     "How are money amounts stored?", None, None),
    ("keep the retry logic in the HTTP client rather than in each handler",
     "that way every caller gets the same backoff", "Where does the retry logic live?", None, None),
    ("use Zustand for the cart store instead of Redux",
     "the cart is the only global state and Redux is a lot of ceremony for it",
     "Which state library does the cart use?", None, None),
    ("serialize WAL frames with bincode", "it's already in the dependency tree",
     "How are WAL frames serialized?",
     "serialize WAL frames with postcard", "its wire format is documented and stable across versions"),
    ("paginate the payouts list with an opaque cursor over (created_at, id)",
     "offset pagination skips rows when new payouts land mid-scroll",
     "How is the payouts list paginated?", None, None),
    ("cache tenant settings in-process for sixty seconds", "the settings endpoint is called on every request",
     "How are tenant settings cached?",
     "drop the in-process cache and read tenant settings from Postgres every time",
     "the invalidation bugs are not worth saving two milliseconds"),
    ("return 409 for a reused idempotency key with a different body",
     "that's what the Stripe-style clients already expect",
     "What status is returned for a reused idempotency key with another body?", None, None),
    ("vendor the generated protobuf code instead of running buf at build time",
     "the build shouldn't depend on the schema registry being up",
     "How is the protobuf code provided to the build?", None, None),
    ("write the SQL by hand in the store package", "there are only six queries",
     "How is the store package's SQL produced?",
     "generate the query layer with sqlc", "the query count tripled once refunds moved over"),
    ("debounce the search box by 250ms on the client", "each keystroke currently hits the API",
     "How is the search box throttled?", None, None),
    ("accept webhook signatures with a five minute clock-skew window",
     "the provider's clocks drift and we saw valid events rejected",
     "What clock skew is tolerated for webhook signatures?", None, None),
    ("poll the settlement API every 30 seconds", "it's the simplest thing that works",
     "How does the service learn about settlements?",
     "switch to the provider's settlement webhooks and keep polling only as a nightly backstop",
     "polling burns through the rate limit during month-end"),
    ("split ledger-core so the FFI crate only depends on the types module",
     "ffi builds pull in tokio for no reason right now",
     "How is the ledger-core crate going to be split?", None, None),
    ("keep the old /v1/refunds route for one more release and log every hit",
     "two partners still call it", "What happens to the old refunds route?", None, None),
    ("fan out with errgroup and a limit of eight", "unbounded fan-out tripped the provider's rate limit",
     "How is the fan-out bounded?", None, None),
    ("render the order history on the server and only hydrate the filters",
     "the list is big and mostly static", "How is the order history page rendered?", None, None),
    ("put the new reconciliation job on the shared worker pool", "a dedicated pool would sit idle 23 hours a day",
     "Where does the new reconciliation job run?",
     "give the reconciliation job its own small pool with two workers",
     "it starved the webhook jobs during the month-end test"),
]
DECISION_U = ["let's {p} — {r}.", "ok, decided: we {p}. {R}.", "I talked to {who} and we'll {p}, since {r}.",
              "my vote is to {p}; {r}.", "go ahead and {p}. {R}.", "I'd say {p}, mostly because {r}."]
DECISION_A = ["I'd {p} — {r}.", "I'm going to {p}, since {r}.", "Going forward I'll {p}: {r}.",
              "Of the two options I'd {p}: {r}.", "We should {p}; {r}.", "My suggestion: {p}, because {r}."]
DECISION_REV = ["actually let's {p} after all, since {r}.",
                "changing my mind on the earlier call: we {p} instead, because {r}.",
                "On reflection I'd rather {p}: {r}.",
                "ok scrap that idea; let's {p}. {R}.",
                "Revisiting what we decided earlier — better to {p}, since {r}.",
                "thinking about it more, we should {p} — {r}."]

PLAN_STEPS = [
    "extract the {n} retry loop into internal/{n}retry",
    "add a golden-file test for the {n} report output",
    "move the {n} cutoff math behind the Clock interface",
    "split {N}Service.Apply into separate validate and commit halves",
    "backfill {n}_events in batches of five thousand rows",
    "wire the {n} flag through the checkout loader",
    "port the {n} header parser to nom",
    "replace the ad-hoc {n} cache with an LRU keyed by tenant",
    "write a vitest for the {n} rounding edge cases before changing anything",
    "gate the {n} migration behind a dry-run mode",
    "put the {n} webhook handler behind the outbox",
    "inline the {n} fee table into a const map",
]
PLAN_FILLER = ["run the full test suite", "reproduce the failure locally", "read through the existing call sites",
               "update the changelog entry", "clean up the leftover TODOs", "add a regression test",
               "write a short note in the PR description", "double-check the metrics after deploy",
               "run the linters", "re-run the flaky job a few times"]
PLAN_FORMS = [
    "I'll first {a}, then {b}, and finally {c}.",
    "Plan:\n1. {A}\n2. {B}\n3. {C}\n4. {D}",
    "Here's how I'd approach it. {A} so we have a baseline. After that I'll {b}. Last, {c}.",
    "Rough order: {a} → {b} → {c}.",
    "Before touching anything I want to {a}. Once that's green I'll {b}, and then {c}.",
    "My plan is to {a} and {b} in this PR, and leave \"{c}\" for a follow-up.",
    "Steps:\n- {a}\n- {b}\n- {c}\nI'll keep the todo list updated as I go.",
    "Two phases: first {a}; second, {b}. {C} only if there's time.",
    "Going to {a} first. Then {b}. Then {c}, assuming nothing weird shows up.",
]

FLAG_PAIRS = [("--shards", "--shard-count", "the number of shards"),
              ("--parallel", "--max-parallel", "the parallelism"),
              ("--since", "--since-ts", "the start timestamp"),
              ("--batch", "--batch-size", "the batch size"),
              ("--tenant", "--tenant-id", "which tenant to process"),
              ("--region", "--target-region", "the target region"),
              ("--window", "--window-secs", "the window length"),
              ("--keep", "--retain-days", "how long data is kept"),
              ("--from", "--start-offset", "where processing starts"),
              ("--dest", "--output-dir", "where the output goes")]
CTL_TOOLS = ["reindex", "replay", "backfill", "export", "reconcile"]

CORR_SOLO = [
    "no wait, the {thing} is {new} not {stale}",
    "sorry, wrong {thing} — {new}",
    "the other {thing} I mentioned, {new}",
    "ugh I keep mixing them up. it's {new}",
    "scratch {stale}, it's {new}",
    "*{new} (typo earlier, {stale} is the old one)",
    "hmm, I gave you the wrong {thing} earlier — {new} is the right one",
    "looked again and it's actually {new}; {stale} was the old name",
    "small correction: {new}, not {stale}. my bad",
]
CORR_INLINE = [
    "Oh, and I gave you the wrong {thing} before — it should be {new}.",
    "also, the {thing} I told you earlier was wrong, it's {new}",
    "(and it's {new}, not {stale} — I misremembered)",
    "btw {stale} was wrong, {new} is the one",
    "Side note, I mixed something up earlier: the {thing} is {new}.",
]
USER_CHATTER = [
    "I also spent some time this morning on the {pkg} dashboards and nothing jumped out.",
    "{who} asked whether we can ship this week; I said probably, depending on review.",
    "The on-call handover was quiet, two pages, both flukes.",
    "I'm going to be in meetings most of the afternoon so take your time.",
    "Also the staging cluster was restarted overnight, so if something looks weird that might be why.",
    "Product wants a short write-up of what changed, but that can wait until it's merged.",
    "I skimmed the diff from yesterday again and it still looks fine to me.",
    "There's a chance we'll need to backport this to the release branch, not sure yet.",
]
MID_OPENERS = [
    "the deploy from this morning looks fine, latency is back to normal.",
    "thanks for the last fix, {who} confirmed it on staging.",
    "back from the sync with {who}. nothing dramatic, they mostly wanted an ETA.",
    "ok, that PR is merged. CI took forever but it went through.",
    "had a look at your summary, makes sense to me.",
    "quick status: the dashboards are green again and nobody has complained.",
]

# ---------------------------------------------------------------------------------------------
# Noise templates
# ---------------------------------------------------------------------------------------------

NOISE_REQ = {
    "go": [
        "look at the flaky test {test} in internal/{pkg} and make it deterministic",
        "the {pkg} handler returns a 500 when the body is empty, it should be a 400 — can you fix that?",
        "add a context timeout around the outbound calls in internal/{pkg}/client.go",
        "can you add a counter for {pkg} retries to the metrics package?",
        "rename {T}.{Verb} to something that says what it does, it's confusing",
        "go vet is complaining about internal/{pkg}, can you take a look",
        "write a test for the empty-page case in the {pkg} cursor code",
        "why is `go test ./internal/{pkg}/...` so slow? it used to be under a second",
        "there's a TODO in internal/{pkg}/{file}.go about closing the body — just do it",
        "make the {pkg} worker shut down cleanly on SIGTERM",
        "{test} fails when run with -count=3, probably shared state. can you check",
    ],
    "ts": [
        "the cart total flickers on first load, can you check useCart?",
        "add a loading state to {Comp}, it shows nothing while fetching",
        "fix the eslint warnings in web/src/{dir}",
        "{Comp} tests are slow, see if we can mock the api client instead of spinning up msw",
        "the date in OrderList shows UTC, should be the user's timezone",
        "can you make {Comp} keyboard accessible? tab order is off",
        "bump @tanstack/react-query to the latest 5.x and fix whatever breaks",
        "there's a console.error on the checkout page about keys in a list, track it down",
        "the {Comp} snapshot test keeps failing on my machine but not CI, any idea?",
    ],
    "rs": [
        "clippy is unhappy in crates/wal, fix the warnings",
        "add a test for segment rollover in crates/wal",
        "the ffi crate leaks the error string, can you check the free path",
        "make `{RT}::open` return a proper error instead of unwrapping",
        "cargo test takes forever, is something rebuilding every time?",
        "document the public API of ledger-core, the docs build shows nothing",
    ],
}
OPENERS = ["Let me look at {x} first.", "I'll start by reading {x}.", "Checking where {x} is used.",
           "On it — reading {x}.", "", "Let me reproduce it locally first.", "Looking at {x}.",
           "I'll take a look."]
SUMMARIES = [
    "Done. {what}. {tests}",
    "Fixed: {what}. {tests}",
    "That's in.\n\n- {what}\n- {extra}\n- {tests}",
    "Changed `{file}`: {what}. Didn't touch anything else. {tests}",
    "OK — {what_l}. {tests} Let me know if you want the same treatment elsewhere.",
    "Summary of the change:\n\n1. {what}\n2. {extra}\n\n{tests}",
]
WHATS_BY = {
    "go": ["the timeout is now passed through from the caller instead of hard-coded",
           "the handler validates the body before touching the store",
           "the test no longer depends on map iteration order",
           "I replaced the sleep with a fake clock so the test is deterministic",
           "the worker drains its queue before returning from Shutdown",
           "errors are wrapped with %w so callers can match on them"],
    "ts": ["the hook memoizes the derived total so it doesn't re-render on every keystroke",
           "the warnings are gone; most were unused imports",
           "the loading state uses the existing Spinner component",
           "the list items have stable keys now",
           "the api client is mocked at the module boundary, so the test no longer needs msw"],
    "rs": ["the segment reader returns an error instead of panicking on a short read",
           "clippy is clean; mostly needless borrows and a redundant clone",
           "the error string is freed on the Rust side now",
           "the rollover test covers the exact-boundary case"],
}
WHATS = [w for ws in WHATS_BY.values() for w in ws]
TESTS_BY = {"go": ["`go test ./...` is green.", "Ran the package tests 50 times with -count, no failures.", "Tests pass.",
                   "`go vet` and the tests are clean.", ""],
            "ts": ["vitest is green locally.", "`npx tsc --noEmit` and the tests pass.", "Lint and tests pass.", ""],
            "rs": ["cargo test passes.", "`cargo clippy -- -D warnings` is clean and the tests pass.", ""]}
EXTRAS = ["renamed a couple of locals for clarity", "added a table case for the empty input",
          "left a comment explaining the ordering", "removed a dead helper that nothing called",
          "kept the public signature the same"]
EXPLAIN = [
    "`{T}.{Verb}` pulls a batch off the queue, validates each entry and writes them in one transaction.",
    "Errors from the store are wrapped with `%w`, so callers can match on `ErrNotFound` with `errors.Is`.",
    "The retry budget is shared by the whole worker pool, which is why one slow tenant can starve the rest.",
    "The cursor is just the last row's `(created_at, id)` pair, base64-encoded.",
    "On the frontend, `useCart` caches the cart under the `['cart', id]` query key and refetches on focus.",
    "`Segment::open` mmaps the file and checks the header magic before handing out readers.",
    "Idempotency keys live in Redis for 24h; after that a replay is treated as a new request.",
    "The webhook worker acks the message before calling the handler, so a crash loses the event.",
    "`{pkg}` doesn't import the store directly; it goes through the `{T}Store` interface.",
    "Rate limits are per API key, not per tenant, so a tenant with three keys gets three times the budget.",
    "The middleware order matters: auth runs before the limiter, so unauthenticated calls are free.",
    "The checkout form keeps its own copy of the address until submit, which is why edits don't show in the summary.",
    "Most of the time in that test is spent in the fixture setup, not in the code under test.",
    "The FFI layer returns errors as heap-allocated C strings that the caller must free with `harbor_free_str`.",
    "The ledger replays entries in offset order and stops at the first checksum mismatch.",
]
CHAT_USER = ["ok", "nice, thanks", "go ahead", "yep", "looks good", "cool", "thanks!", "sure", "👍",
             "perfect", "ok continue", "makes sense", "fine by me", "hm ok", "great, next thing then"]
CHAT_ASSIST = ["👍", "Sounds good.", "Will do.", "Done.", "OK — let me know what's next.", "Great.",
               "Sure thing.", "Noted."]
QUESTIONS = ["how does {T}.{Verb} work again?", "where do we set the {pkg} timeouts?",
             "what calls {Comp}?", "is the {pkg} worker safe to run twice?",
             "why do we have both jest and vitest in web/?", "what's the difference between wal and ledger-core?",
             "can you explain the middleware order in internal/api?", "how is idempotency handled for refunds?"]


class Gen:
    def __init__(self, seed: int, n: int, attempt: int = 0):
        self.seed, self.n = seed, n
        self.r = random.Random(seed * 7919 + attempt)
        self.msgs: list[dict[str, Any]] = []
        self.chars = 0
        self.pasted: list[tuple[int, str]] = []
        self.facts: list[dict] = []
        self.events: list[Ev] = []
        self.values: list[str] = []
        self.nums: set[int] = set()
        pools = {"go": GO_FACT_NOUNS[:], "ts": TS_FACT_NOUNS[:], "rs": RS_FACT_NOUNS[:]}
        for p in pools.values():
            self.r.shuffle(p)
        self.pools = pools
        self.noun_uses: dict[str, int] = {}
        self.last_path: dict[str, str] = {}
        self.last_edit: dict[str, str] = {}

    # ---------------- small helpers ----------------
    def ch(self, seq):
        return self.r.choice(seq)

    def noun(self, lang: str = "go") -> str:
        pool = self.pools.get(lang) or self.pools["go"]
        if pool:
            return pool.pop()
        base = self.ch({"go": GO_FACT_NOUNS, "ts": TS_FACT_NOUNS, "rs": RS_FACT_NOUNS}.get(lang, GO_FACT_NOUNS))
        k = self.noun_uses.get(base, 0)
        self.noun_uses[base] = k + 1
        return base + ["batch", "bulk", "daily", "auto", "cross", "split", "fast", "lite"][k % 8] + ("" if k < 8 else str(k // 8 + 1))

    def num(self, lo: int, hi: int) -> int:
        while True:
            v = self.r.randint(lo, hi)
            if v not in self.nums:
                self.nums.add(v)
                return v

    def hexs(self, k: int) -> str:
        return "".join(self.ch(HEX) for _ in range(k))

    def deficit(self) -> float:
        return AVG_CHARS * len(self.msgs) - self.chars

    def size(self, lo: int, hi: int) -> int:
        f = 1.0 + max(-0.6, min(1.5, self.deficit() / 15000))
        return int(self.r.randint(lo, hi) * f)

    # ---------------- message emitters ----------------
    def _push(self, msg: dict) -> int:
        self.msgs.append(msg)
        n = len(msg.get("content") or "")
        for c in msg.get("tool_calls") or []:
            n += len(c["function"]["arguments"]) + 1
        self.chars += n
        return len(self.msgs) - 1

    def user(self, text: str) -> int:
        return self._push({"role": "user", "content": text})

    def say(self, text: str) -> int:
        return self._push({"role": "assistant", "content": text})

    def call_id(self) -> str:
        return "toolu_01" + "".join(self.ch(B62) for _ in range(22))

    def act(self, text: str, name: str, args: dict, result: str) -> tuple[int, int]:
        cid = self.call_id()
        ai = self._push({"role": "assistant", "content": text, "tool_calls": [
            {"id": cid, "type": "function",
             "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)}}]})
        ti = self._push({"role": "tool", "tool_call_id": cid, "content": result})
        return ai, ti

    def act_many(self, text: str, calls: list[tuple[str, dict, str]]) -> list[int]:
        ids = [self.call_id() for _ in calls]
        self._push({"role": "assistant", "content": text, "tool_calls": [
            {"id": cid, "type": "function",
             "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)}}
            for cid, (name, args, _) in zip(ids, calls)]})
        return [self._push({"role": "tool", "tool_call_id": cid, "content": res})
                for cid, (_, _, res) in zip(ids, calls)]

    # ---------------- source generators ----------------
    def go_source(self, pkg: str, target: int, extra: str = "") -> str:
        r = self.r
        out = [f"package {pkg}", "", "import ("]
        out += [f'\t"{m}"' for m in sorted(r.sample(GO_STD, r.randint(3, 6)))]
        out += ["", f'\t"{MOD}/internal/{self.ch(GO_PKGS)}"', ")", ""]
        if extra:
            out += extra.split("\n") + [""]
        size = sum(len(x) + 1 for x in out)
        while size < target:
            block = self.go_block(pkg)
            out.append(block)
            out.append("")
            size += len(block) + 1
        return "\n".join(out)

    def go_block(self, pkg: str) -> str:
        r, ch = self.r, self.ch
        k = r.random()
        T, T2 = ch(GO_T), ch(GO_T)
        if k < 0.2:
            fields = r.sample(GO_F, r.randint(3, 7))
            body = "\n".join(f"\t{f} {ch(['string', 'int64', 'time.Time', '[]byte', 'int', 'bool'])} "
                             f"`json:\"{f[0].lower() + f[1:]}\"`" for f in fields)
            return f"// {T} is {ch(['the stored form of', 'what the API returns for', 'a single'])} {T.lower()}.\ntype {T} struct {{\n{body}\n}}"
        if k < 0.28:
            errs = "\n".join(f'\tErr{ch(GO_T)}{ch(["NotFound", "Conflict", "Expired", "Invalid"])} = errors.New("{pkg}: {ch(GO_V)} {ch(GO_T).lower()} failed")'
                             for _ in range(r.randint(2, 4)))
            return f"var (\n{errs}\n)"
        if k < 0.33:
            return f"// {ch(GO_COMMENTS)}\nconst default{T}Limit = {r.randint(2, 500)}"
        verb = ch(GO_V)
        stmts = []
        for _ in range(r.randint(4, 11)):
            d = {"T": T, "T2": T2, "verb": verb, "Verb": cap(verb), "obj": T2.lower(), "v": ch(GO_VARS),
                 "w": ch(GO_VARS), "F": ch(GO_F), "n": r.randint(2, 900), "pkg": pkg, "c": ch(GO_COMMENTS)}
            stmts.append("\t" + ch(GO_STMTS).format(**d))
        sig = ch([f"func (s *{T}Service) {cap(verb)}{T2}(ctx context.Context, {ch(GO_VARS)} []*{T2}) (*{T2}, error)",
                  f"func {verb}{T2}(ctx context.Context, {ch(GO_VARS)} *{T2}) error",
                  f"func (h *{T}Handler) {cap(verb)}(w http.ResponseWriter, r *http.Request)",
                  f"func new{T}(cfg Config) *{T}"])
        fname = sig.split(") ", 1)[1].split("(")[0] if sig.startswith("func (") else sig[5:].split("(")[0]
        doc = f"// {fname} {ch(['loads', 'applies', 'checks', 'writes', 'handles'])} {T2.lower()}s for the {pkg} service."
        return f"{doc}\n{sig} {{\n" + "\n".join(stmts) + "\n\treturn nil\n}"

    def ts_source(self, target: int, comp: str | None = None) -> str:
        r, ch = self.r, self.ch
        comp = comp or ch(TS_COMPS)
        out = [f"import {{ {', '.join(r.sample(['useState', 'useEffect', 'useMemo', 'useCallback', 'useRef'], 3))} }} from 'react';",
               "import { useQuery } from '@tanstack/react-query';",
               f"import {{ {ch(TS_T)}, {ch(TS_T)} }} from '../api/types';",
               "import { formatMoney } from '../utils/money';", ""]
        size = sum(len(x) + 1 for x in out)
        while size < target:
            b = self.ts_block(comp)
            out += [b, ""]
            size += len(b) + 1
        return "\n".join(out)

    def ts_block(self, comp: str) -> str:
        r, ch = self.r, self.ch
        T = ch(TS_T)
        k = r.random()
        if k < 0.25:
            fields = r.sample(["id: string", "amount: number", "currency: string", "createdAt: string",
                               "status: 'open' | 'paid' | 'void'", "items: LineItem[]", "note?: string",
                               "quantity: number", "sku: string", "updatedAt?: string"], r.randint(3, 6))
            return f"export interface {T}{ch(['View', 'Props', 'Row', 'Draft', ''])} {{\n" + "\n".join(f"  {f};" for f in fields) + "\n}"
        if k < 0.55:
            v = ch(["items", "rows", "lines", "orders", "entries"])
            body = [f"  const out: {T}[] = [];", f"  for (const it of {v}) {{",
                    f"    if (!it.{ch(['id', 'sku', 'amount'])}) continue;",
                    f"    out.push({{ ...it, amount: Math.round(it.amount * {r.randint(1, 100)}) / {r.randint(1, 100)} }});",
                    "  }", f"  // {ch(['keep the original order', 'amounts are minor units', 'the API may return duplicates'])}",
                    "  return out;"]
            return f"export function {ch(GO_V)}{T}s({v}: {T}[]): {T}[] {{\n" + "\n".join(body) + "\n}"
        s = ch(["open", "loading", "value", "error", "selected"])
        init = ch(["false", "''", "null"])
        reset = ch(["true", "null", "''"])
        body = [f"  const [{s}, set{cap(s)}] = useState<{ch(['boolean', 'string', 'number | null'])}>({init});",
                f"  const {{ data, isLoading }} = useQuery({{ queryKey: ['{T.lower()}', id], queryFn: () => api.get{T}(id) }});",
                f"  useEffect(() => {{\n    if (!data) return;\n    set{cap(s)}({ch(['true', 'data.id', 'data.amount'])} as never);\n  }}, [data]);",
                "  if (isLoading) return <Spinner size=\"sm\" />;", "  return (",
                f"    <div className=\"{comp[0].lower()}{comp[1:]}__{ch(['root', 'row', 'body'])}\">",
                f"      <h3>{{t('{T.lower()}.title')}}</h3>",
                "      <PriceTag value={formatMoney(data?.amount ?? 0, data?.currency)} />",
                f"      <button type=\"button\" onClick={{() => set{cap(s)}({reset} as never)}}>{{t('common.{ch(['save', 'cancel', 'retry'])}')}}</button>",
                "    </div>", "  );"]
        return f"export function {comp}{ch(['', 'Row', 'Body', 'Header'])}({{ id }}: {{ id: string }}) {{\n" + "\n".join(body) + "\n}"

    def rs_source(self, target: int) -> str:
        r, ch = self.r, self.ch
        out = ["use std::io::{self, Read, Write};", "use std::path::Path;", "", "use crate::error::Error;", ""]
        size = sum(len(x) + 1 for x in out)
        while size < target:
            T = ch(RS_T)
            k = r.random()
            if k < 0.3:
                fields = r.sample(["offset: u64", "len: u32", "crc: u32", "buf: Vec<u8>", "path: PathBuf",
                                   "seq: u64", "sealed: bool", "frames: Vec<Frame>"], r.randint(3, 5))
                b = f"#[derive(Debug)]\npub struct {T} {{\n" + "\n".join(f"    {f}," for f in fields) + "\n}"
            elif k < 0.8:
                fn = ch(["open", "append", "seal", "read_frame", "truncate", "sync", "iter", "len"])
                body = ch(["        let mut hdr = [0u8; 16];\n        self.file.read_exact(&mut hdr)?;\n        if &hdr[..4] != MAGIC {\n            return Err(Error::BadMagic);\n        }",
                           "        let crc = crc32fast::hash(&self.buf);\n        self.file.write_all(&crc.to_le_bytes())?;\n        self.offset += self.buf.len() as u64;",
                           "        // frames are length-prefixed, little endian\n        let n = u32::from_le_bytes(self.buf[..4].try_into()?) as usize;\n        Ok(&self.buf[4..4 + n])",
                           "        self.sealed = true;\n        self.file.sync_all().map_err(Error::Io)"])
                b = f"impl {T} {{\n    /// {cap(fn.replace('_', ' '))} the {T.lower()}.\n    pub fn {fn}(&mut self) -> Result<(), Error> {{\n{body}\n        Ok(())\n    }}\n}}"
            else:
                tests = "\n\n".join(f"    #[test]\n    fn {ch(['roundtrip', 'empty', 'rollover', 'short_read', 'bad_magic', 'reopen'])}_{ch(['frame', 'segment', 'offset', 'header'])}() {{\n        let dir = tempfile::tempdir().unwrap();\n        let mut s = {T}::create(dir.path()).unwrap();\n        assert_eq!(s.len(), {r.randint(0, 64)});\n    }}" for _ in range(r.randint(1, 3)))
                b = f"#[cfg(test)]\nmod tests {{\n    use super::*;\n\n{tests}\n}}"
            out += [b, ""]
            size += len(b) + 1
        return "\n".join(out)

    @staticmethod
    def numbered(src: str, start: int = 1) -> str:
        return "\n".join(f"{i:>6}→{line}" for i, line in enumerate(src.split("\n"), start))

    # ---------------- noise paths & names ----------------
    def go_path(self) -> tuple[str, str]:
        pkg = self.ch(GO_PKGS)
        return pkg, f"internal/{pkg}/{self.ch(GO_FILES)}.go"

    def ts_path(self) -> str:
        if self.r.random() < 0.4:
            return f"web/src/components/{self.ch(TS_COMPS)}.tsx"
        return f"web/src/{self.ch(TS_DIRS)}/{self.ch(TS_FILES)}.ts"

    def rs_path(self) -> str:
        c = self.ch(list(RS_CRATES))
        return f"crates/{c}/src/{self.ch(RS_CRATES[c])}.rs"

    def noise_test(self) -> str:
        return f"Test{self.ch(GO_T)}{self.ch(NOISE_SUFFIX)}"

    def read_result(self, lang: str, target: int) -> tuple[str, str]:
        if lang == "go":
            pkg, path = self.go_path()
            src = self.go_source(pkg, target)
        elif lang == "ts":
            path = self.ts_path()
            src = self.ts_source(target)
        else:
            path = self.rs_path()
            src = self.rs_source(target)
        return path, src

    # ---------------- tool-output generators ----------------
    def go_test_out(self, verbose: bool = False, skip: str = "") -> str:
        r = self.r
        lines = []
        for pkg in sorted(GO_PKGS):
            if pkg == skip:
                continue
            if verbose and r.random() < 0.5:
                for _ in range(r.randint(2, 9)):
                    t = self.noise_test()
                    lines += [f"=== RUN   {t}", f"--- PASS: {t} (0.{r.randint(0, 99):02d}s)"]
                lines.append("PASS")
            if r.random() < 0.12:
                lines.append(f"?   \t{MOD}/internal/{pkg}\t[no test files]")
            else:
                lines.append(f"ok  \t{MOD}/internal/{pkg}\t{r.uniform(0.01, 3.5):.3f}s")
        lines.insert(0, f"?   \t{MOD}/cmd/harbord\t[no test files]")
        lines.insert(1, f"?   \t{MOD}/cmd/harborctl\t[no test files]")
        return "\n".join(lines)

    def vitest_lines(self, k: int) -> list[str]:
        r = self.r
        out = []
        for _ in range(k):
            d = self.ch(TS_DIRS)
            f = self.ch(TS_COMPS) if d == "components" else self.ch(TS_FILES)
            ext = "tsx" if d == "components" else "ts"
            out.append(f" ✓ src/{d}/{f}.test.{ext} ({r.randint(1, 30)} tests) {r.randint(3, 900)}ms")
        return out

    def vitest_out(self, fail: str = "", fail_file: str = "", extra_fail_lines: str = "") -> str:
        r = self.r
        k = r.randint(18, 70)
        head = [f" RUN  v1.6.0 {ROOT}/web", ""]
        body = self.vitest_lines(k)
        files, tests = k + 1, r.randint(300, 900)
        if fail:
            body.insert(r.randint(0, len(body)), f" ❯ {fail_file} ({r.randint(3, 14)} tests | 1 failed) {r.randint(10, 300)}ms\n   × {fail.split(' > ', 1)[1]} {r.randint(1, 40)}ms")
            body += ["", "⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯", "", f" FAIL  {fail}", extra_fail_lines, "",
                     "⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯", ""]
            summ = [f" Test Files  1 failed | {files - 1} passed ({files})",
                    f"      Tests  1 failed | {tests - 1} passed ({tests})"]
        else:
            summ = [f" Test Files  {files} passed ({files})", f"      Tests  {tests} passed ({tests})"]
        summ += [f"   Start at  {r.randint(8, 19):02d}:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}",
                 f"   Duration  {r.uniform(3, 40):.2f}s (transform {r.uniform(0.5, 4):.2f}s, setup 0ms, collect {r.uniform(1, 9):.2f}s, tests {r.uniform(1, 9):.2f}s, environment {r.uniform(2, 12):.2f}s, prepare {r.uniform(1, 5):.2f}s)"]
        return "\n".join(head + body + [""] + summ)

    def jest_out(self, fail_block: str = "", fail_file: str = "") -> str:
        r = self.r
        lines = []
        k = r.randint(10, 40)
        for _ in range(k):
            lines.append(f"PASS src/components/{self.ch(TS_COMPS)}.test.tsx ({r.uniform(0.5, 6):.3f} s)" if r.random() < 0.5
                         else f"PASS src/{self.ch(TS_DIRS)}/{self.ch(TS_FILES)}.test.ts")
        tests = r.randint(120, 400)
        if fail_block:
            lines.insert(r.randint(0, len(lines)), f"FAIL {fail_file}\n{fail_block}")
            summ = [f"Test Suites: 1 failed, {k} passed, {k + 1} total", f"Tests:       1 failed, {tests - 1} passed, {tests} total"]
        else:
            summ = [f"Test Suites: {k} passed, {k} total", f"Tests:       {tests} passed, {tests} total"]
        summ += [f"Snapshots:   {r.randint(0, 30)} passed, {r.randint(30, 40)} total", f"Time:        {r.uniform(5, 60):.3f} s",
                 "Ran all test suites."]
        return "\n".join(lines + [""] + summ)

    def cargo_out(self, crate: str = "", fail_block: str = "", fail_name: str = "") -> str:
        r = self.r
        crate = crate or self.ch(list(RS_CRATES))
        out = [f"   Compiling {c} v0.{r.randint(1, 9)}.{r.randint(0, 9)} ({ROOT}/crates/{c})" for c in RS_CRATES]
        out += [f"    Finished test [unoptimized + debuginfo] target(s) in {r.uniform(1, 40):.2f}s",
                f"     Running unittests src/lib.rs (target/debug/deps/{crate.replace('-', '_')}-{self.hexs(16)})", ""]
        k = r.randint(8, 40)
        out.append(f"running {k} tests")
        names = [f"test {self.ch(RS_CRATES[crate])}::tests::{self.ch(['roundtrip', 'empty', 'rollover', 'short_read', 'bad_magic', 'reopen', 'concurrent_append', 'sealed'])}_{self.ch(['frame', 'segment', 'offset', 'header', 'posting', 'balance'])} ... ok" for _ in range(k - (1 if fail_name else 0))]
        if fail_name:
            names.insert(r.randint(0, len(names)), f"test {fail_name} ... FAILED")
        out += names + [""]
        if fail_block:
            out += ["failures:", "", fail_block, "", "failures:", f"    {fail_name}", "",
                    f"test result: FAILED. {k - 1} passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in {r.uniform(0.01, 3):.2f}s",
                    "", f"error: test failed, to rerun pass `-p {crate} --lib`"]
        else:
            out.append(f"test result: ok. {k} passed; 0 failed; {r.randint(0, 2)} ignored; 0 measured; 0 filtered out; finished in {r.uniform(0.01, 3):.2f}s")
            out += ["", f"   Doc-tests {crate.replace('-', '_')}", "", "running 0 tests", "",
                    "test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s"]
        return "\n".join(out)

    def eslint_out(self, fail_file: str = "", fail_line: str = "") -> str:
        r = self.r
        out = []
        total = errs = 0
        for _ in range(r.randint(2, 9)):
            out.append(f"{ROOT}/{self.ts_path()}")
            for _ in range(r.randint(1, 6)):
                rule, msg = self.ch([("no-console", "Unexpected console statement"),
                                     ("react/jsx-key", 'Missing "key" prop for element in iterator'),
                                     ("@typescript-eslint/no-non-null-assertion", "Forbidden non-null assertion"),
                                     ("import/order", "`react` import should occur before import of `./types`"),
                                     ("prefer-const", "'total' is never reassigned. Use 'const' instead")])
                out.append(f"  {r.randint(1, 300)}:{r.randint(1, 40)}  warning  {msg}  {rule}")
                total += 1
            out.append("")
        if fail_line:
            out += [f"{ROOT}/{fail_file}", fail_line, ""]
            total += 1
            errs += 1
        out.append(f"✖ {total} problems ({errs} error{'s' if errs != 1 else ''}, {total - errs} warnings)")
        return "\n".join(out)

    def git_diff(self, path: str, lang: str) -> str:
        r = self.r
        src = {"go": lambda: self.go_source(path.split("/")[1] if path.startswith("internal/") else "main", 1500),
               "ts": lambda: self.ts_source(1500), "rs": lambda: self.rs_source(1500)}[lang]().split("\n")
        out = [f"diff --git a/{path} b/{path}", f"index {self.hexs(7)}..{self.hexs(7)} 100644", f"--- a/{path}", f"+++ b/{path}"]
        pos = r.randint(10, 200)
        for _ in range(r.randint(1, 4)):
            chunk = src[r.randint(0, max(0, len(src) - 12)):][:r.randint(6, 14)]
            out.append(f"@@ -{pos},{len(chunk)} +{pos},{len(chunk) + 1} @@")
            for line in chunk:
                m = r.random()
                out.append(("-" if m < 0.15 else "+" if m < 0.3 else " ") + line)
            pos += r.randint(20, 80)
        return "\n".join(out)

    def git_log(self, k: int) -> str:
        subjects = ["fix flaky retry test", "bump vitest", "handle empty body", "add payout metrics",
                    "tidy imports", "rename {T}.{v}", "cursor pagination for refunds", "drop unused helper",
                    "wal: fsync on seal", "checkout: loading state"]
        return "\n".join(f"{self.hexs(7)} {self.ch(GO_PKGS + ['web', 'wal'])}: "
                         f"{self.ch(subjects).format(T=self.ch(GO_T), v=self.ch(GO_V))} (#{self.r.randint(1000, 3999)})"
                         for _ in range(k))

    def grep_out(self, sym: str, k: int) -> str:
        out = []
        for _ in range(k):
            pkg, path = self.go_path()
            out.append(f"{path}:{self.r.randint(5, 400)}:\t{self.ch(['return', 'if err :=', 'x :=', '//'])} {sym}(ctx, {self.ch(GO_VARS)})")
        return "\n".join(out)

    # ---------------- pasted material ----------------
    def ts_stamp(self) -> str:
        r = self.r
        return f"2024-{r.randint(3, 9):02d}-{r.randint(10, 28)}T{r.randint(8, 19):02d}:{r.randint(10, 59)}:{r.randint(10, 59)}.{r.randint(1000000, 9999999)}Z"

    def ci_log(self, target: int) -> str:
        r = self.r
        out = [f"{self.ts_stamp()} ##[group]Run make test-all", f"{self.ts_stamp()} make test-all"]
        tempts = r.sample(TEMPTING[:4] + TEMPTING[4:6], 3)
        t = self.noise_test()
        while sum(len(x) + 1 for x in out) < target:
            kind = r.random()
            if kind < 0.5:
                pkg = self.ch(GO_PKGS)
                out.append(f"{self.ts_stamp()} ok  \t{MOD}/internal/{pkg}\t{r.uniform(0.01, 4):.3f}s")
            elif kind < 0.7:
                out.append(f"{self.ts_stamp()} {self.vitest_lines(1)[0]}")
            elif kind < 0.8:
                out.append(f"{self.ts_stamp()} level=info msg=\"{self.ch(GO_V)} {self.ch(GO_T).lower()}\" duration_ms={r.randint(2, 900)} status={self.ch([200, 200, 201, 204, 409])}")
            elif kind < 0.9:
                out.append(f"{self.ts_stamp()} npm WARN deprecated {self.ch(['inflight@1.0.6', 'glob@7.2.3', 'rimraf@3.0.2'])}: This module is not supported")
            elif tempts:
                x = tempts.pop()
                line = {"do not merge": "Label 'do not merge' is present on this PR; auto-merge disabled",
                        "1 failed, 1575 passed, 3 skipped in 78.97s": "============ 1 failed, 1575 passed, 3 skipped in 78.97s ============",
                        "duration_ms=168": "level=warn msg=\"slow query\" duration_ms=168 table=payouts",
                        "Actually, this is expected": "# Actually, this is expected on forks: secrets are not available",
                        }.get(x, x)
                out.append(f"{self.ts_stamp()} {line}")
        out += [f"{self.ts_stamp()} --- FAIL: {t} (5.0{r.randint(0, 9)}s)",
                f"{self.ts_stamp()}     {t.lower()}_test.go:{r.randint(20, 300)}: context deadline exceeded",
                f"{self.ts_stamp()} FAIL\t{MOD}/internal/{self.ch(GO_PKGS)}\t{r.uniform(5, 9):.3f}s",
                f"{self.ts_stamp()} make: *** [Makefile:{r.randint(20, 90)}: test-go] Error 1",
                f"{self.ts_stamp()} ##[error]Process completed with exit code 2.", f"{self.ts_stamp()} ##[endgroup]"]
        return "\n".join(out)

    def slack_thread(self) -> str:
        r, ch = self.r, self.ch
        a, b, c = r.sample(PEOPLE, 3)
        lines = [
            (a, f"webhook retries are doubling up again on staging, seeing two {ch(GO_T).lower()} rows per event"),
            (b, "Actually, this is expected — the retry worker re-enqueues on 502 by design"),
            (a, "ok but then the dedupe should catch it? it doesn't"),
            (c, "do not merge the retry change until the dashboards are back, we're flying blind"),
            (b, "no wait, it's --workers not --threads for the replay tool"),
            (a, f"fwiw p99 went from 120ms to 410ms after the {ch(GO_PKGS)} deploy, duration_ms=168 on the happy path"),
            (c, "we should never cache this response, it has the tenant's balance in it"),
            (b, "sorry, wrong port — it's 9091 on the canary"),
            (a, "I'll open an issue"),
            (c, f"cc @{ch(PEOPLE)} since you touched {ch(GO_PKGS)} last"),
        ]
        k = r.randint(5, len(lines))
        picked = lines[:2] + r.sample(lines[2:], k - 2)
        out = []
        for who, text in picked:
            out.append(f"> *{who}*  {r.randint(9, 17)}:{r.randint(10, 59)}")
            out.append(f"> {text}")
        return "\n".join(out)

    def gh_issue(self) -> str:
        r, ch = self.r, self.ch
        T = ch(GO_T)
        return "\n".join([
            f"### {ch(['Refund', 'Payout', 'Invoice', 'Cart'])} total wrong after {ch(['currency switch', 'partial refund', 'coupon removal', 'address change'])}",
            "", "**Describe the bug**",
            f"When a customer {ch(['switches currency', 'removes a coupon', 'edits the address'])} on the checkout page, the total shown is the old one until reload. Backend returns the right amount.",
            "", "**Steps to reproduce**", "1. Add two items to the cart", "2. Open checkout",
            f"3. {ch(['Switch currency to EUR', 'Remove the coupon', 'Change the shipping country'])}", "4. Look at the total",
            "", "**Expected behavior**", "Total updates immediately.", "", "**Actual behavior**",
            f"Total stays at the previous value; network tab shows `GET /api/v2/{T.lower()}s` returning 200 with the new amount.",
            "", "**Environment**", f"- harbor web v2.{r.randint(3, 13)}.{r.randint(0, 9)}", f"- {ch(['Chrome 124', 'Safari 17.4', 'Firefox 125'])}", "",
            "---", f"**{ch(PEOPLE)}** commented:", "> Actually, this is expected when the tenant has no default currency, see the FAQ.",
            "", f"**{ch(PEOPLE)}** commented:", "> It happens with a default currency too. Labels: bug, checkout, do not merge (has a linked WIP PR)",
        ])

    def prod_trace(self) -> str:
        r, ch = self.r, self.ch
        if r.random() < 0.5:
            msg = ch(["panic: send on closed channel",
                      f"panic: runtime error: slice bounds out of range [:{r.randint(9, 40)}] with capacity {r.randint(2, 8)}"])
            out = [msg, "", f"goroutine {r.randint(10, 900)} [running]:"]
            for _ in range(r.randint(4, 10)):
                pkg, path = self.go_path()
                out += [f"{MOD}/internal/{pkg}.(*{ch(GO_T)}).{cap(ch(GO_V))}(0xc000{self.hexs(6)}, {{0x{self.hexs(6)}, 0xc000{self.hexs(6)}}})",
                        f"\t/src/{path}:{r.randint(10, 400)} +0x{self.hexs(3)}"]
            out.append("exit status 2")
        else:
            comp = ch(TS_COMPS)
            out = [f"TypeError: Cannot read properties of undefined (reading '{ch(['amount', 'currency', 'items', 'id'])}')"]
            for _ in range(r.randint(4, 9)):
                out.append(f"    at {ch(TS_COMPS + ['renderWithHooks', 'commitRoot', 'performUnitOfWork'])} (https://shop.example.com/assets/{ch(['index', 'vendor', 'checkout'])}-{self.hexs(8)}.js:{r.randint(1, 9)}:{r.randint(100, 99999)})")
            out.append(f"    at {comp} (webpack-internal:///./src/components/{comp}.tsx:{r.randint(10, 200)}:{r.randint(2, 40)})")
        return "\n".join(out)

    def doc_text(self, target: int) -> tuple[list[str], list[str]]:
        """A long design doc / CONTRIBUTING file: (paragraphs before the middle, paragraphs after)."""
        r, ch = self.r, self.ch
        title = ch(["# Contributing to harbor", f"# Design: {ch(['async payouts', 'refund pipeline v2', 'cart pricing service', 'WAL compaction'])}",
                    "# harbor engineering handbook (excerpt)"])
        sections = ["## Background", "## Repository layout", "## Current state", "## How tests are organised",
                    "## Proposal", "## Alternatives considered", "## Rollout", "## Metrics", "## Open questions",
                    "## Appendix: glossary", "## History", "## FAQ"]
        sents = [
            "The Go service in `cmd/harbord` owns the API, the webhook workers and the ledger writer.",
            "The web app under `web/` is a Vite + React app; older tests still run under jest, newer ones under vitest.",
            "The Rust crates under `crates/` implement the write-ahead log and are linked into the service through `crates/ffi`.",
            f"At peak we see around {r.randint(200, 900)} requests per second on the payouts API, with p99 latency around {r.randint(90, 400)}ms.",
            "Most incidents in the last two quarters came from retries that were not idempotent.",
            "The ledger writer batches entries and flushes every 50ms or every 500 entries, whichever comes first.",
            "Refunds used to be computed on the client, which is why some older code paths still round in JavaScript.",
            "Staging mirrors production's topology but with a single replica per service.",
            "We considered moving the WAL to Postgres logical replication but the latency numbers were not good enough.",
            "A typical CI run takes about eleven minutes, most of it in the web test suite.",
            "The webhook provider retries with exponential backoff for up to three days.",
            "duration_ms=168 is the median end-to-end time for a payout in the last load test.",
            "Actually, this is expected: a few percent of webhooks arrive out of order.",
            "Open question: whether the ledger-core crate should own currency conversion at all.",
            "The glossary below explains the terms we use for holds, captures and settlements.",
            "Historically each team owned one package, which is why ownership in CODEOWNERS is so fine-grained.",
            "A PR with the label do not merge is skipped by the merge queue.",
            "The last load test ended with 1 failed, 1575 passed, 3 skipped in 78.97s on the Python harness.",
        ]
        paras: list[str] = [title, f"_Last updated by {ch(PEOPLE)}, status: {ch(['draft', 'accepted', 'living document'])}_"]
        size = 0
        si = 0
        while size < target:
            if r.random() < 0.25 or not paras:
                p = sections[si % len(sections)]
                si += 1
            elif r.random() < 0.12:
                rows = "\n".join(f"| {ch(GO_PKGS)} | {ch(PEOPLE)} | {r.randint(40, 98)}% |" for _ in range(r.randint(3, 7)))
                p = "| package | owner | coverage |\n|---|---|---|\n" + rows
            else:
                p = " ".join(r.sample(sents, r.randint(2, 5)))
            paras.append(p)
            size += len(p) + 2
        mid = len(paras) // 2 + r.randint(-2, 2)
        return paras[:mid], paras[mid:]

    # =============================================================================================
    # Planning the facts
    # =============================================================================================
    def take(self, value: str) -> bool:
        for v in self.values:
            if value in v or v in value:
                return False
        self.values.append(value)
        return True

    def new_fact(self, kind: str, value: str, query: str, **kw) -> dict:
        assert value not in query, (value, query)
        f = {"kind": kind, "value": value, "query": query, "index": None, "stale": kw.get("stale"),
             "stale_index": None, "resolved": None}
        self.facts.append(f)
        return f

    def plan(self) -> None:
        r = self.r
        # six per kind from ~400 messages up (n // 250 past 1,500); shorter sessions get fewer so the
        # facts still fit before the last 10%
        per = max(6, self.n // 250) if self.n >= 360 else max(2, self.n // 60)
        self.instr_pool = INSTRUCTIONS[:]
        r.shuffle(self.instr_pool)
        self.doc_pool = DOC_RULES[:]
        r.shuffle(self.doc_pool)
        self.dec_pool = DECISIONS[:]
        r.shuffle(self.dec_pool)
        for kind in KINDS:
            for j in range(per):
                lo, hi = BANDS[j % 3]
                target = min(int(self.n * r.uniform(lo, hi)), self.n - 60)
                getattr(self, "plan_" + kind)(target, j)
        self.events.sort(key=lambda e: e.target)

    def gap_before(self, target: int, lo: int, hi: int) -> int:
        room = target - 6
        if room >= lo:
            return r_int(self.r, lo, min(hi, room))
        return max(2, room)

    # ---- instruction ----
    def plan_instruction(self, target: int, j: int) -> None:
        if j % 4 == 3 or (j % 5 == 1 and self.doc_pool):
            if self.doc_pool:
                rule, q = self.doc_pool.pop()
            else:
                n = self.noun("go")
                rule, q = f"Anything under internal/{n} goes through review by the payments on-call before merge.", f"Who must review changes to the {n} package?"
            if self.take(rule):
                f = self.new_fact("instruction", rule, q)
                self.events.append(Ev("D", target, f, data={"rule": rule}))
                return
        if self.instr_pool:
            rule, q = self.instr_pool.pop()
        else:
            n = self.noun("go")
            rule, q = f"don't touch internal/{n} without asking me first, {self.ch(PEOPLE)} owns it", f"What did the user say about changing the {n} package?"
        if not self.take(rule):
            return self.plan_instruction(target, j)
        f = self.new_fact("instruction", rule, q)
        mode = self.ch(["solo", "solo", "aside", "mid", "lead", "reply", "redo", "paren", "bullets"])
        self.events.append(Ev("U", target, f, data={"rule": rule, "mode": mode}))

    def u_instruction(self, ev: Ev) -> tuple[str, str]:
        rule, mode = ev.data["rule"], ev.data["mode"]
        ch = self.ch
        if mode == "solo":
            if rule[0].isupper():
                return mode, ch(["{x}", "{x} (forgot to mention that earlier)", "Also: {x}", "One more thing. {x}"]).format(x=rule)
            return mode, ch(["{x}", "btw {x}", "oh and {x}", "fyi {x}", "{x} — forgot to mention that earlier",
                             "one more thing: {x}"]).format(x=rule)
        if mode == "aside":
            return mode, ch(["Also, {x}", "also {x}", "And just so you know, {x}", "Oh, and {x}"]).format(x=rule)
        if mode == "mid":
            return mode, rule
        dot = "" if rule.endswith(".") else "."
        if mode == "lead":
            return mode, ch(["{x}{d} anyway —", "{x}{d} with that in mind:", "{x}{d}\n\nso:"]).format(x=rule, d=dot)
        if mode == "reply":
            return mode, ch(["yeah, one thing: {x}", "mostly the usual, but {x}", "hmm — {x}", "{x}",
                             "good question. {x}"]).format(x=rule)
        if mode == "redo":
            return mode, ch(["hm wait — {x}{d} can you redo that bit?", "ah, {x}{d} so please redo that part",
                             "looks ok but {x}{d} fix that up?"]).format(x=rule, d=dot)
        if mode == "paren":
            return mode, f"(side note: {rule})"
        items = [rule] + self.r.sample(["the staging deploy is green again", f"{ch(PEOPLE)} is out this week",
                                        "no rush on this one", "the flaky webhook test got quarantined"], 2)
        self.r.shuffle(items)
        return mode, "couple of notes:\n- " + "\n- ".join(items)

    # ---- correction ----
    def plan_correction(self, target: int, j: int) -> None:
        r, ch = self.r, self.ch
        for _ in range(20):
            kind = ch(["flag", "port", "handler", "env", "branch", "test", "config", "host", "table", "version", "topic"])
            n = self.noun("go")
            N = cap(n)
            if kind == "flag":
                stale, new, meaning = ch(FLAG_PAIRS)
                tool = ch(CTL_TOOLS)
                thing, q = "flag", f"Which flag sets {meaning} for `harborctl {tool}`?"
                say = f"run it with `./bin/harborctl {tool} {stale} 8` against the local db when you get there"
                fmt = new
            elif kind == "port":
                p1, p2 = self.num(5100, 7999), self.num(5100, 7999)
                stale, new = f":{p1}", f":{p2}"
                svc = ch(["admin API", "gateway", "metrics endpoint", "debug server"])
                thing, q = "port", f"Which local port does the {n} {svc} listen on?"
                say = f"the {n} {svc} listens on localhost{stale} locally"
                fmt = f"localhost{new}"
            elif kind == "handler":
                verb = ch(["Refund", "Release", "Capture", "Reverse", "Settle"])
                stale, new = f"handle{N}{verb}", f"handle{N}{verb}V2"
                thing, q = "handler", f"Which handler holds the {n} fee logic?"
                say = f"the fee gets double-counted somewhere in {stale}"
                fmt = new
            elif kind == "env":
                stale, new = f"{n.upper()}_DB_URL", f"{n.upper()}_DATABASE_DSN"
                thing, q = "env var", f"Which environment variable holds the {n} database connection string?"
                say = f"it reads the connection string from {stale}"
                fmt = new
            elif kind == "branch":
                stale, new = f"feat/{n}-fix", f"fix/{n}-rounding-{r.randint(2, 9)}"
                thing, q = "branch", f"Which branch should the {n} work go on?"
                say = f"put it on {stale}, I already pushed a WIP there"
                fmt = new
            elif kind == "test":
                stale, new = f"Test{N}Retry", f"Test{N}RetrySchedule"
                thing, q = "test", f"Which {n} test is the one failing on CI?"
                say = f"the one that fails on CI is {stale}"
                fmt = new
            elif kind == "config":
                stale, new = f"{n}_timeout", f"{n}_timeout_ms"
                thing, q = "config key", f"Which config key sets the {n} timeout?"
                say = f"the knob for that is `{stale}` in the service config"
                fmt = new
            elif kind == "host":
                stale, new = f"{n}-db.staging.internal", f"{n}-db-replica.stg.internal"
                thing, q = "host", f"What is the staging database host for {n}?"
                say = f"the staging db host is {stale}"
                fmt = new
            elif kind == "table":
                stale, new = f"{n}_holds", f"{n}_hold_events"
                thing, q = "table", f"Which table do the {n} rows end up in?"
                say = f"the rows end up in {stale}"
                fmt = new
            elif kind == "version":
                a, b = r.randint(0, 40), r.randint(0, 7)
                stale, new = f"v3.{a}.{b}", f"v3.{a}.{b + 2}"
                thing, q = "version", f"Which release of the {n} service is production running?"
                say = f"prod {n} is on {stale} I think"
                fmt = new
            else:
                stale, new = f"{n}.events", f"{n}.events.v2"
                thing, q = "topic", f"Which Kafka topic does the {n} consumer read?"
                say = f"the consumer reads {stale}"
                fmt = new
            if self.take(new) and self.take(stale + "\x00stale"):
                break
        f = self.new_fact("correction", new, q, stale=stale)
        gap = self.gap_before(target, 50, 300)
        st = Ev("U", max(2, target - gap), f, role="stale",
                data={"text": say, "mode": ch(["aside", "lead", "solo", "aside"])})
        co = Ev("U", target, f, data={"stale": stale, "new": fmt, "thing": thing,
                                       "mode": ch(["solo", "solo", "mid", "aside", "mid"])},
                after=st, min_gap=min(gap, 40))
        self.events += [st, co]

    def u_correction(self, ev: Ev) -> tuple[str, str]:
        d = ev.data
        if ev.role == "stale":
            t = d["text"]
            if d["mode"] == "solo":
                return "solo", self.ch(["fyi {t}", "{t}", "btw {t}", "note for later: {t}"]).format(t=t)
            if d["mode"] == "lead":
                return "lead", f"{t}.\n\nanyway:"
            return "aside", self.ch(["fyi {t}", "also, {t}", "(context: {t})"]).format(t=t)
        fill = {"thing": d["thing"], "new": d["new"], "stale": d["stale"]}
        if d["mode"] == "solo":
            return "solo", self.ch(CORR_SOLO).format(**fill)
        return d["mode"], self.ch(CORR_INLINE).format(**fill)

    # ---- error ----
    def plan_error(self, target: int, j: int) -> None:
        r, ch = self.r, self.ch
        for _ in range(20):
            t = ch(["go_fail", "go_panic", "go_build", "go_race", "go_vet", "tsc", "vitest", "jest",
                    "rs_borrow", "rs_panic", "eslint", "rs_moved"])
            lang = {"ts": "ts", "vi": "ts", "je": "ts", "es": "ts", "rs": "rs"}.get(t[:2], "go")
            n = self.noun(lang)
            N = cap(n)
            d = getattr(self, "err_" + t)(n, N)
            if self.take(d["value"]):
                break
        f = self.new_fact("error", d["value"], d["query"])
        d["lang"] = lang
        d["resolve"] = ch(["now", "now", "later", "later", "never", "never"])
        if d["resolve"] == "later" and target + 40 > min(int(self.n * 0.84), self.n - 60):
            d["resolve"] = "now"
        e = Ev("E", target, f, data=d)
        self.events.append(e)
        if d["resolve"] == "later":
            self.events.append(Ev("R", min(target + r.randint(20, 150), int(self.n * 0.86), self.n - 50), f, role="resolve",
                                  data=d, after=e, min_gap=12))

    def err_go_fail(self, n: str, N: str) -> dict:
        r = self.r
        test = f"Test{N}{self.ch(FACT_SUFFIX)}"
        sub = self.ch(["partial_hold", "zero_amount", "dst_gap", "two_currencies", "empty_batch"])
        t = f"0.{r.randint(1, 9):02d}s"
        a = r.randint(1000, 9000)
        block = (f"=== RUN   {test}\n=== RUN   {test}/{sub}\n    {n}_test.go:{r.randint(30, 300)}: got {a}, want {a - r.randint(1, 99)}\n"
                 f"--- FAIL: {test} ({t})\n    --- FAIL: {test}/{sub} (0.00s)\nFAIL\nFAIL\t{MOD}/internal/{n}\t0.{r.randint(100, 999)}s")
        return {"value": f"--- FAIL: {test} ({t})", "query": f"Which Go test failed in the {n} package and how long did it take?",
                "cmd": "go test ./...", "block": block, "pkg": n, "rerun": f"go test ./internal/{n}/...",
                "pass": f"ok  \t{MOD}/internal/{n}\t0.{r.randint(100, 999)}s", "fix": f"internal/{n}/{n}.go",
                "what": f"{test}"}

    def err_go_panic(self, n: str, N: str) -> dict:
        r = self.r
        k = self.num(3, 64)
        test = f"Test{N}{self.ch(FACT_SUFFIX)}"
        T = self.ch(["Book", "Ledger", "Schedule", "Table", "Window"])
        frames = "\n".join([f"{MOD}/internal/{n}.(*{N}{T}).apply(0xc000{self.hexs(6)}, {{0xc000{self.hexs(6)}, 0x{k}, 0x{k}}})",
                            f"\t{ROOT}/internal/{n}/{n}.go:{r.randint(40, 400)} +0x{self.hexs(3)}",
                            f"{MOD}/internal/{n}.{test}(0xc000{self.hexs(6)})",
                            f"\t{ROOT}/internal/{n}/{n}_test.go:{r.randint(20, 300)} +0x{self.hexs(2)}",
                            f"testing.tRunner(0xc000{self.hexs(6)}, 0x{self.hexs(6)})",
                            "\t/usr/local/go/src/testing/testing.go:1689 +0xfb"])
        value = f"panic: runtime error: index out of range [{k}] with length {k}"
        block = (f"=== RUN   {test}\n--- FAIL: {test} (0.00s)\n{value} [recovered]\n\t{value}\n\ngoroutine {r.randint(6, 90)} [running]:\n"
                 f"{frames}\nFAIL\t{MOD}/internal/{n}\t0.{r.randint(100, 999)}s")
        return {"value": value, "query": f"What runtime panic did the {n} tests hit?", "cmd": "go test ./...",
                "block": block, "pkg": n, "rerun": f"go test ./internal/{n}/...",
                "pass": f"ok  \t{MOD}/internal/{n}\t0.{r.randint(100, 999)}s", "fix": f"internal/{n}/{n}.go",
                "what": "the index panic"}

    def err_go_build(self, n: str, N: str) -> dict:
        r = self.r
        ident = camel(n, self.ch(["cutoff", "window", "fee", "limit", "quota"]), "For")
        value = f"undefined: {ident}"
        block = (f"# {MOD}/internal/{n}\ninternal/{n}/{n}.go:{r.randint(20, 400)}:{r.randint(2, 40)}: {value}\n"
                 f"internal/{n}/{n}.go:{r.randint(20, 400)}:{r.randint(2, 40)}: too many errors")
        return {"value": value, "query": f"Which identifier was undefined when building the {n} package?",
                "cmd": "go build ./... && go test ./...", "block": block, "pkg": n, "rerun": "go build ./... && go test ./...",
                "pass": self.go_test_out(), "fix": f"internal/{n}/{n}.go", "what": "the build error"}

    def err_go_race(self, n: str, N: str) -> dict:
        r = self.r
        meth = self.ch(["applyLocked", "flushPending", "recordHold", "bumpCounter"])
        value = f"{MOD}/internal/{n}.(*{N}Tracker).{meth}()"
        block = (f"==================\nWARNING: DATA RACE\nWrite at 0x00c000{self.hexs(6)} by goroutine {r.randint(8, 90)}:\n  {value}\n"
                 f"      {ROOT}/internal/{n}/tracker.go:{r.randint(30, 300)} +0x{self.hexs(3)}\n\nPrevious read at 0x00c000{self.hexs(6)} by goroutine {r.randint(8, 90)}:\n"
                 f"  {MOD}/internal/{n}.(*{N}Tracker).Snapshot()\n      {ROOT}/internal/{n}/tracker.go:{r.randint(30, 300)} +0x{self.hexs(2)}\n==================\n"
                 f"--- FAIL: Test{N}Concurrent (0.0{r.randint(1, 9)}s)\n    testing.go:1398: race detected during execution of test\nFAIL\nFAIL\t{MOD}/internal/{n}\t1.{r.randint(100, 999)}s")
        return {"value": value, "query": f"Which method did the race detector flag in the {n} package?",
                "cmd": "go test -race ./...", "block": block, "pkg": n, "rerun": f"go test -race -count=5 ./internal/{n}/...",
                "pass": f"ok  \t{MOD}/internal/{n}\t2.{r.randint(100, 999)}s", "fix": f"internal/{n}/tracker.go", "what": "the data race"}

    def err_go_vet(self, n: str, N: str) -> dict:
        r = self.r
        ident = camel(n, "ref")
        value = f"fmt.Sprintf format %d has arg {ident} of wrong type string"
        block = f"# {MOD}/internal/{n}\n# [{MOD}/internal/{n}]\ninternal/{n}/report.go:{r.randint(20, 300)}:{r.randint(2, 30)}: {value}"
        return {"value": value, "query": f"What did go vet report in the {n} package?", "cmd": "go vet ./...",
                "block": block, "pkg": n, "rerun": "go vet ./...", "pass": "", "fix": f"internal/{n}/report.go", "what": "the vet error"}

    def err_tsc(self, n: str, N: str) -> dict:
        r = self.r
        file = camel(n, self.ch(["price", "state", "rules", "api"]))
        code, msg = self.ch([("TS2345", "Argument of type 'string | undefined' is not assignable to parameter of type 'string'."),
                             ("TS2322", "Type 'number' is not assignable to type 'Money'."),
                             ("TS2339", f"Property '{n}Id' does not exist on type 'Cart'."),
                             ("TS2532", "Object is possibly 'undefined'."),
                             ("TS7006", "Parameter 'item' implicitly has an 'any' type.")])
        loc = f"src/{n}/{file}.ts({r.randint(5, 200)},{r.randint(2, 40)}): error {code}"
        block = f"{loc}: {msg}\n\nFound 1 error in src/{n}/{file}.ts:{r.randint(5, 200)}\n"
        return {"value": loc, "query": f"Where did the TypeScript compiler report an error in the {n} code, and which code?",
                "cmd": "cd web && npx tsc --noEmit", "block": block, "pkg": n, "rerun": "cd web && npx tsc --noEmit",
                "pass": "", "fix": f"web/src/{n}/{file}.ts", "what": "the type error"}

    def err_vitest(self, n: str, N: str) -> dict:
        r = self.r
        file = f"src/{n}/{n}Price.test.ts"
        title = self.ch([f"applies the {n} discount after tax", f"rounds {n} totals half-even",
                         f"keeps the {n} line when quantity drops to zero", f"ignores expired {n} codes"])
        value = f"FAIL  {file} > {n}Price > {title}"
        a = r.randint(1000, 9999)
        extra = (f"AssertionError: expected {a} to be {a - 100} // Object.is equality\n\n- Expected\n+ Received\n\n- {a - 100}\n+ {a}\n\n"
                 f" ❯ {file}:{r.randint(10, 120)}:{r.randint(5, 40)}")
        return {"value": value, "query": f"Which vitest test failed for the {n} pricing?", "cmd": "cd web && npx vitest run",
                "block": "", "vitest": (value[6:], file, extra), "pkg": n, "rerun": f"cd web && npx vitest run src/{n}",
                "pass": None, "fix": f"web/src/{n}/{n}Price.ts", "what": "the failing vitest"}

    def err_jest(self, n: str, N: str) -> dict:
        r = self.r
        comp = f"{N}Drawer"
        title = self.ch(["keeps focus trapped while open", "disables submit while pending", "closes on Escape",
                         "announces the updated total"])
        value = f"● {comp} › {title}"
        block = (f"  {value}\n\n    expect(element).toHaveFocus()\n\n    Expected element with focus:\n      <button aria-label=\"close\" />\n"
                 f"    Received element with focus:\n      <body />\n\n      {r.randint(20, 90)} |     await user.keyboard('{{Tab}}');\n"
                 f"    > {r.randint(20, 90)} |     expect(screen.getByLabelText('close')).toHaveFocus();\n         |                                            ^\n\n"
                 f"      at Object.<anonymous> (src/components/{comp}.test.tsx:{r.randint(20, 90)}:{r.randint(10, 50)})")
        return {"value": value, "query": f"Which jest test failed for the {n} drawer component?", "cmd": "cd web && npx jest",
                "block": block, "jest_file": f"src/components/{comp}.test.tsx", "pkg": n,
                "rerun": f"cd web && npx jest src/components/{comp}.test.tsx", "pass": None,
                "fix": f"web/src/components/{comp}.tsx", "what": "the focus test"}

    def err_rs_borrow(self, n: str, N: str) -> dict:
        r = self.r
        value = f"error[E0502]: cannot borrow `self.{n}s` as mutable because it is also borrowed as immutable"
        ln = r.randint(40, 300)
        block = (f"{value}\n   --> crates/wal/src/{n}.rs:{ln}:{r.randint(5, 20)}\n    |\n{ln - 2:>3} |         let first = self.{n}s.first();\n"
                 f"    |                     ------------ immutable borrow occurs here\n{ln:>3} |         self.{n}s.push(entry);\n"
                 f"    |         ^^^^^^^^^^^^^^^^^^ mutable borrow occurs here\n\nFor more information about this error, try `rustc --explain E0502`.\n"
                 "error: could not compile `wal` (lib) due to 1 previous error")
        return {"value": value, "query": f"What borrow-checker error came up in the {n} module of the wal crate?",
                "cmd": "cargo build -p wal", "block": block, "pkg": n, "rerun": "cargo test -p wal", "pass": None,
                "fix": f"crates/wal/src/{n}.rs", "what": "the borrow error", "crate": "wal"}

    def err_rs_moved(self, n: str, N: str) -> dict:
        r = self.r
        value = f"error[E0382]: borrow of moved value: `{n}_batch`"
        ln = r.randint(40, 300)
        block = (f"{value}\n   --> crates/ledger-core/src/{n}.rs:{ln}:{r.randint(5, 20)}\n    |\n"
                 f"{ln - 3:>3} |     let {n}_batch = Batch::new();\n    |         ------- move occurs because `{n}_batch` has type `Batch`, which does not implement the `Copy` trait\n"
                 f"{ln - 1:>3} |     writer.submit({n}_batch);\n    |                   ------- value moved here\n{ln:>3} |     log::debug!(\"{{}}\", {n}_batch.len());\n"
                 f"    |                        ^^^^^^^ value borrowed here after move\n\nerror: could not compile `ledger-core` (lib) due to 1 previous error")
        return {"value": value, "query": f"What move error did rustc report in the {n} module of ledger-core?",
                "cmd": "cargo build -p ledger-core", "block": block, "pkg": n, "rerun": "cargo test -p ledger-core",
                "pass": None, "fix": f"crates/ledger-core/src/{n}.rs", "what": "the move error", "crate": "ledger-core"}

    def err_rs_panic(self, n: str, N: str) -> dict:
        r = self.r
        name = f"{n}::tests::{self.ch(['replay_truncated_tail', 'reopen_after_crash', 'merge_overlapping', 'skip_sealed'])}"
        value = f"thread '{name}' panicked at crates/wal/src/{n}.rs:{r.randint(40, 400)}:{r.randint(5, 30)}:"
        block = (f"---- {name} stdout ----\n{value}\nassertion `left == right` failed\n  left: {r.randint(1, 40)}\n right: {r.randint(41, 90)}\n"
                 "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace")
        return {"value": value, "query": f"Which Rust test panicked in the {n} module, and where?", "cmd": "cargo test -p wal",
                "block": block, "rs_fail": name, "pkg": n, "rerun": "cargo test -p wal", "pass": None,
                "fix": f"crates/wal/src/{n}.rs", "what": "the panicking test", "crate": "wal"}

    def err_eslint(self, n: str, N: str) -> dict:
        r = self.r
        ident = camel("pending", n, "Id")
        msg, rule = self.ch([(f"'{ident}' is assigned a value but never used", "@typescript-eslint/no-unused-vars"),
                             (f"React Hook useEffect has a missing dependency: '{ident}'. Either include it or remove the dependency array",
                              "react-hooks/exhaustive-deps")])
        value = msg.split(". Either")[0]
        line = f"  {r.randint(5, 200)}:{r.randint(2, 30)}  error  {msg}  {rule}"
        return {"value": value, "query": f"What did eslint report as an error in the {n} code?", "cmd": "cd web && npx eslint src --max-warnings=200",
                "block": "", "eslint": (f"web/src/{n}/{cap(n)}Panel.tsx", line), "pkg": n,
                "rerun": "cd web && npx eslint src --max-warnings=200", "pass": self.eslint_out(), "fix": f"web/src/{n}/{cap(n)}Panel.tsx",
                "what": "the lint error"}

    # ---- file ----
    def plan_file(self, target: int, j: int) -> None:
        ch = self.ch
        for _ in range(20):
            t = ch(["go_new", "go_test", "ts_mod", "tsx", "rs_mod", "sql", "helm", "workflow", "toml", "ts_test"])
            lang = {"ts": "ts", "rs": "rs"}.get(t[:2], "go")
            n = self.noun(lang)
            N = cap(n)
            path, op, q = {
                "go_new": (f"internal/{n}/{ch(['window', 'schedule', 'apply', 'ledger'])}.go", "Write", f"Which new Go file holds the {n} logic?"),
                "go_test": (f"internal/{n}/{n}_{ch(['window', 'replay', 'edge'])}_test.go", "Write", f"Which test file was added for the {n} package?"),
                "ts_mod": (f"web/src/{n}/{camel(n, ch(['pricing', 'state', 'selectors']))}.ts", "Write", f"Which frontend module was created for {n}?"),
                "tsx": (f"web/src/components/{N}{ch(['Panel', 'Drawer', 'Badge', 'Summary'])}.tsx", "Write", f"Which React component file was created for {n}?"),
                "rs_mod": (f"crates/wal/src/{n}_{ch(['index', 'writer', 'policy'])}.rs", "Write", f"Which Rust module was added to the wal crate for {n}?"),
                "sql": (f"migrations/{self.num(40, 399):04d}_{n}_{ch(['holds', 'events', 'index'])}.up.sql", "Write", f"Which migration file adds the {n} schema?"),
                "helm": (f"deploy/helm/{n}-worker/values.yaml", "Edit", f"Which Helm values file was edited for the {n} worker?"),
                "workflow": (f".github/workflows/{n}-nightly.yml", "Write", f"Which CI workflow file was added for {n}?"),
                "toml": (f"config/{n}.toml", "Edit", f"Which config file was edited for {n}?"),
                "ts_test": (f"web/src/{n}/__tests__/{camel(n, 'rules')}.test.ts", "Write", f"Which frontend test file was added for {n}?"),
            }[t]
            if self.take(path):
                break
        f = self.new_fact("file", path, q)
        self.events.append(Ev("F", target, f, data={"path": path, "op": op, "lang": lang, "n": n, "t": t}))

    def file_content(self, d: dict) -> str:
        r, n, t = self.r, d["n"], d["t"]
        if t == "go_new":
            return self.go_source(n, self.size(800, 3500))
        if t == "go_test":
            cases = "\n".join(f'\t\t{{name: "{self.ch(["empty", "single", "boundary", "dst", "negative"])}_{i}", in: {r.randint(0, 900)}, want: {r.randint(0, 900)}}},' for i in range(r.randint(3, 9)))
            return (f"package {n}\n\nimport \"testing\"\n\nfunc Test{cap(n)}Table(t *testing.T) {{\n\tcases := []struct {{\n\t\tname string\n\t\tin, want int\n\t}}{{\n{cases}\n\t}}\n"
                    "\tfor _, tc := range cases {\n\t\tt.Run(tc.name, func(t *testing.T) {\n\t\t\tif got := apply(tc.in); got != tc.want {\n"
                    "\t\t\t\tt.Fatalf(\"apply(%d) = %d, want %d\", tc.in, got, tc.want)\n\t\t\t}\n\t\t})\n\t}\n}\n")
        if t in ("ts_mod", "tsx"):
            return self.ts_source(self.size(800, 3000), comp=f"{cap(n)}Panel")
        if t == "ts_test":
            return (f"import {{ describe, it, expect }} from 'vitest';\nimport {{ {n}Rules }} from '../{n}Rules';\n\n"
                    f"describe('{n}Rules', () => {{\n" + "\n".join(
                        f"  it('{self.ch(['handles empty carts', 'rounds half-even', 'rejects expired codes', 'keeps currency'])} #{i}', () => {{\n    expect({n}Rules({{ amount: {r.randint(0, 9999)} }})).toMatchObject({{ ok: true }});\n  }});"
                        for i in range(r.randint(2, 6))) + "\n});\n")
        if t == "rs_mod":
            return self.rs_source(self.size(800, 3000))
        if t == "sql":
            return (f"CREATE TABLE {n}_{self.ch(['holds', 'events'])} (\n    id BIGSERIAL PRIMARY KEY,\n    tenant_id UUID NOT NULL,\n    amount_minor BIGINT NOT NULL,\n"
                    f"    currency CHAR(3) NOT NULL,\n    created_at TIMESTAMPTZ NOT NULL DEFAULT now()\n);\n\nCREATE INDEX ON {n}_{self.ch(['holds', 'events'])} (tenant_id, created_at);\n")
        if t == "workflow":
            return (f"name: {n}-nightly\non:\n  schedule:\n    - cron: '{r.randint(0, 59)} {r.randint(0, 5)} * * *'\njobs:\n  run:\n    runs-on: ubuntu-latest\n"
                    "    steps:\n      - uses: actions/checkout@v4\n      - uses: actions/setup-go@v5\n        with:\n          go-version-file: go.mod\n"
                    f"      - run: go test ./internal/{n}/... -run Nightly -count=1\n")
        return ""

    # ---- decision ----
    def plan_decision(self, target: int, j: int) -> None:
        r = self.r
        if self.dec_pool:
            revisable = [i for i, d in enumerate(self.dec_pool) if d[3]]
            plain = [i for i, d in enumerate(self.dec_pool) if not d[3]]
            pick = revisable if revisable and (r.random() < 0.45 or not plain) else plain
            p, why, q, rp, rwhy = self.dec_pool.pop(pick[-1])
        else:
            n = self.noun("go")
            p, why, q, rp, rwhy = (f"move the {n} job onto the shared scheduler", "it's the only cron left outside it",
                                   f"Where does the {n} job run?", None, None)
        revised = rp is not None and r.random() < 0.75
        if revised:
            assert self.take(rp) and self.take(p)
            f = self.new_fact("decision", rp, q, stale=p)
            gap = self.gap_before(target, 20, 200)
            orig = Ev(self.ch("UA"), max(2, target - gap), f, role="stale", data={"p": p, "r": why, "pos": "open"})
            rev = Ev(self.ch("UA"), target, f, data={"p": rp, "r": rwhy, "rev": True, "pos": "open"}, after=orig, min_gap=min(gap, 20))
            self.events += [orig, rev]
        else:
            assert self.take(p)
            f = self.new_fact("decision", p, q)
            self.events.append(Ev(self.ch("UA"), target, f, data={"p": p, "r": why, "pos": self.ch(["open", "close"])}))

    def decision_text(self, ev: Ev) -> str:
        d = ev.data
        fill = {"p": d["p"], "r": d["r"], "R": cap(d["r"]), "who": self.ch(PEOPLE)}
        if d.get("rev"):
            return cap(self.ch(DECISION_REV).format(**fill)) if ev.slot == "A" else self.ch(DECISION_REV).format(**fill)
        return self.ch(DECISION_U if ev.slot == "U" else DECISION_A).format(**fill)

    # ---- identifier ----
    def plan_identifier(self, target: int, j: int) -> None:
        r, ch = self.r, self.ch
        for _ in range(20):
            t = ch(["pr_other", "flag", "sha", "sentry", "jira", "tag", "tenant", "topic", "alert", "pr_opened", "commit_made"])
            n = self.noun(ch(["go", "ts"]))
            if t == "pr_other":
                v = f"#{self.num(4000, 9899)}"
                repo = ch(["acme/harbor-infra", "acme/harbor-mobile", "acme/terraform-live", "acme/harbor"])
                texts = [f"this {n} thing is related to {v} in {repo}", f"see {repo}{v} for context on {n}, {ch(PEOPLE)} hit the same thing",
                         f"{ch(PEOPLE)}'s PR over in {repo} ({v}) touches the same {n} code, so keep the interfaces stable"]
                q = f"Which PR in {repo} is related to the {n} work?"
            elif t == "flag":
                v = ch([f"{n}_async_release", f"web.{n}.v2_enabled", f"ff-{n}-new-flow"])
                texts = [f"it's behind the {v} flag in LaunchDarkly", f"the flag is {v}, default off in prod",
                         f"gate it on {v} — that flag already exists, {ch(PEOPLE)} created it"]
                q = f"What is the feature flag for the {n} change called?"
            elif t == "sha":
                v = self.hexs(10)
                texts = [f"the {n} regression came in with {v}, I bisected it yesterday", f"last good deploy before the {n} breakage was {v}",
                         f"compare the {n} code against {v}, that's what's on prod"]
                q = f"Which commit did the user name as the reference point for the {n} regression?"
            elif t == "sentry":
                v = f"{ch(['WEB', 'HARBOR-API', 'LEDGER-SVC'])}-{''.join(ch('123456789ABCDEFGHJKMNPQRSTVWXYZ') for _ in range(4))}"
                texts = [f"Sentry issue {v} has the full trace for the {n} crash", f"the {n} error shows up as {v} in Sentry, ~200 events since Monday",
                         f"can you look at {v} in sentry? same {n} stack every time"]
                q = f"Which Sentry issue has the trace for the {n} bug?"
            elif t == "jira":
                v = f"{ch(['CLR', 'RMT', 'ESCR', 'PAYX', 'WEBX'])}-{self.num(1000, 9999)}"
                texts = [f"the {n} ticket is {v}, put it in the commit message", f"tracking the {n} stuff in {v}",
                         f"{v} is the ticket for {n} if anyone asks"]
                q = f"Which ticket tracks the {n} work?"
            elif t == "tag":
                v = f"harbor-{n}:2024.{r.randint(1, 12):02d}.{r.randint(1, 9)}-rc{r.randint(1, 5)}"
                texts = [f"prod is running {v} right now", f"the image that broke is {v}", f"roll back to {v} if it goes sideways"]
                q = f"Which image tag of the {n} service was named?"
            elif t == "tenant":
                v = "tnt_" + "".join(ch("ABCDEFGHJKMNPQRSTVWXYZ23456789") for _ in range(8))
                texts = [f"the customer hitting the {n} bug is {v}, three times this morning", f"repro the {n} issue with tenant {v} on staging",
                         f"support escalated the {n} problem for {v}"]
                q = f"Which tenant hit the {n} problem?"
            elif t == "topic":
                v = f"harbor.{n}.settled.v{r.randint(2, 5)}"
                texts = [f"the consumer reads from {v}", f"events go out on {v}", f"{v} is the topic the data team listens to"]
                q = f"Which Kafka topic carries the {n} events?"
            elif t == "alert":
                v = f"{cap(n)}BacklogHigh"
                texts = [f"PagerDuty fired {v} twice overnight", f"the {v} alert is what woke {ch(PEOPLE)} up",
                         f"silence {v} while you test, it's noisy"]
                q = f"Which alert about the {n} backlog fired?"
            elif t == "pr_opened":
                v = f"#{self.num(4000, 9899)}"
                texts = [f"Pushed the {n} branch and opened {v} as a draft.", f"PR for the {n} part is up: {v}. I marked it ready for review.",
                         f"Opened {v} for {n} with the summary above as the description."]
                q = f"Which PR number did the assistant open for the {n} work?"
            else:
                v = self.hexs(9)
                texts = [f"Committed the {n} change as {v} on the current branch.", f"The {n} fix is commit {v}; I didn't push yet.",
                         f"Committed ({v}, {n} cleanup). Not pushed."]
                q = f"What is the commit hash of the assistant's {n} commit?"
            if self.take(v):
                break
        f = self.new_fact("identifier", v, q)
        slot = "A" if t in ("pr_opened", "commit_made") else "U"
        self.events.append(Ev(slot, target, f, data={"text": ch(texts), "pos": "close",
                                                    "mode": ch(["aside", "lead", "solo", "mid", "aside"])}))

    # ---- finding ----
    def plan_finding(self, target: int, j: int) -> None:
        ch = self.ch
        for _ in range(20):
            t = ch(["json", "yaml", "log", "grep", "ci_test", "env", "oom", "pprof", "gitlog", "toml", "explain", "pgerr"])
            n = self.noun("rs" if t == "toml" else ch(["go", "ts"]) if t == "json" else "go")
            d = getattr(self, "find_" + t)(n, cap(n))
            if self.take(d["value"]):
                break
        f = self.new_fact("finding", d["value"], d["query"])
        self.events.append(Ev("O", target, f, data=d))

    def kv_lines(self, k: int, style: str) -> list[str]:
        keys = ["retries", "baseUrl", "pageSize", "maxBodyBytes", "logLevel", "region", "idleTimeout", "burst", "replicas"]
        r = self.r
        out = []
        for _ in range(k):
            key = f"{self.ch(GO_PKGS)}{cap(self.ch(keys))}"
            val = self.ch([str(r.randint(1, 900)), '"info"', '"eu-west-1"', "true", "false"])
            out.append(f'  "{key}": {val},' if style == "json" else f"{key}: {val.strip(chr(34))}" if style == "yaml" else f"{key.lower()} = {val}")
        return out

    def find_json(self, n, N):
        r = self.r
        ms = self.num(1200, 9800)
        value = f'"{n}TimeoutMs": {ms}'
        lines = ["{"] + self.kv_lines(r.randint(20, 80), "json")
        lines.insert(r.randint(3, len(lines) - 1), f"  {value},")
        lines[-1] = lines[-1].rstrip(",")
        lines.append("}")
        path = self.ch(["web/src/config/services.json", "config/clients.json", "web/public/runtime-config.json"])
        return {"value": value, "query": f"What timeout is configured for the {n} client?", "tool": "Read",
                "args": {"file_path": f"{ROOT}/{path}"}, "out": self.numbered("\n".join(lines)),
                "lead": f"Let me check what timeout the {n} client is configured with.",
                "after": f"The {n} client timeout is {ms}ms in the config — that's the number to compare against the traces."}

    def find_yaml(self, n, N):
        r = self.r
        k = self.num(3, 96)
        value = f"{n}MaxInFlight: {k}"
        lines = ["replicaCount: 3", "image:", "  repository: ghcr.io/acme/harbor", "  tag: main", "env:"] + ["  " + x for x in self.kv_lines(r.randint(20, 70), "yaml")]
        lines.insert(r.randint(6, len(lines) - 1), "  " + value)
        return {"value": value, "query": f"How many in-flight {n} requests does the prod Helm config allow?", "tool": "Read",
                "args": {"file_path": f"{ROOT}/deploy/helm/harbor/values-prod.yaml"}, "out": self.numbered("\n".join(lines)),
                "lead": "Checking the prod Helm values.", "after": f"Prod caps {n} at {k} in flight."}

    def find_log(self, n, N):
        r = self.r
        off = self.hexs(6)
        value = f"{n} reconcile aborted: checksum mismatch at offset 0x{off}"
        lines = []
        for _ in range(r.randint(30, 120)):
            lines.append(f"{self.ts_stamp()} level=info msg=\"{self.ch(GO_V)} {self.ch(GO_T).lower()}\" tenant=t{r.randint(1, 99)} duration_ms={r.randint(1, 400)}")
        lines.insert(r.randint(10, len(lines) - 1), f"{self.ts_stamp()} level=error msg=\"{value}\" segment={r.randint(100, 999):06d}.wal")
        return {"value": value, "query": f"What root cause did the logs show for the {n} reconcile failure?", "tool": "Bash",
                "args": {"command": f"kubectl logs deploy/harbord --since=2h | grep -v healthz | tail -n {len(lines)}"},
                "out": "\n".join(lines), "lead": "Pulling the recent service logs.",
                "after": f"There it is: the {n} reconcile aborts on a checksum mismatch, everything before it is normal traffic."}

    def find_grep(self, n, N):
        r = self.r
        ln = r.randint(20, 400)
        file = self.ch(["proration", "rounding", "fees", "split"])
        value = f"internal/{n}/{file}.go:{ln}"
        hits = self.grep_out("float64", r.randint(5, 30)).split("\n")
        hits.insert(r.randint(0, len(hits)), f"{value}:\tamount := float64(cents) / 100")
        return {"value": value, "query": f"Where does the {n} code convert cents to float?", "tool": "Grep",
                "args": {"pattern": "float64\\(", "path": "internal", "output_mode": "content", "-n": True},
                "out": "\n".join(hits), "lead": "Searching for float conversions of money amounts.",
                "after": f"The suspicious one is in the {n} {file} code; the others are metrics and durations."}

    def find_ci_test(self, n, N):
        r = self.r
        test = f"Test{N}{self.ch(FACT_SUFFIX)}"
        lines = [f"test (ubuntu-latest, 1.22)\tRun tests\t{self.ts_stamp()} === RUN   {self.noise_test()}" for _ in range(r.randint(20, 60))]
        lines.insert(r.randint(5, len(lines) - 1), f"test (ubuntu-latest, 1.22)\tRun tests\t{self.ts_stamp()} --- FAIL: {test} (0.{r.randint(10, 99)}s)")
        return {"value": test, "query": f"Which test failed in the last CI run for the {n} package?", "tool": "Bash",
                "args": {"command": "gh run view --log-failed | tail -n 200"}, "out": "\n".join(lines),
                "lead": "Pulling the failed CI log.", "after": "Only one test failed in that run; the rest is the normal RUN noise."}

    def find_env(self, n, N):
        r = self.r
        k = r.randint(3, 19)
        value = f"{n.upper()}_MAX_ATTEMPTS={k}"
        lines = [f"{self.ch(GO_PKGS).upper()}_{self.ch(['URL', 'TIMEOUT', 'LOG_LEVEL', 'POOL_SIZE', 'REGION'])}={self.ch(['', 'info', '30s', '10', 'http://localhost:8080'])}" for _ in range(r.randint(15, 45))]
        lines.insert(r.randint(2, len(lines) - 1), value)
        return {"value": value, "query": f"How many attempts does the {n} worker make, per the env config?", "tool": "Read",
                "args": {"file_path": f"{ROOT}/.env.example"}, "out": self.numbered("\n".join(lines)),
                "lead": "Let me see what the env defaults are.", "after": f"So {n} gives up after {k} attempts by default."}

    def find_oom(self, n, N):
        r = self.r
        pid = r.randint(1000, 99999)
        value = f"Killed process {pid} ({n}-worker)"
        out = "\n".join([f"Name:         {n}-worker-{self.hexs(9)}-{self.hexs(5)}", "Namespace:    harbor", "Status:       Running",
                         "    Last State:     Terminated", "      Reason:       OOMKilled", "      Exit Code:    137",
                         f"    Restart Count:  {r.randint(3, 40)}", "    Limits:", f"      memory:  {self.ch(['256Mi', '384Mi', '512Mi'])}",
                         "Events:", f"  Warning  OOMKilling  {r.randint(2, 50)}m  kernel-monitor  Memory cgroup out of memory: {value} total-vm:{r.randint(900000, 2000000)}kB"]
                        + [f"  Normal   Pulled      {r.randint(2, 50)}m  kubelet  Container image \"ghcr.io/acme/harbor:main\" already present on machine" for _ in range(r.randint(3, 12))])
        return {"value": value, "query": f"What did the kernel kill on the {n} worker pod?", "tool": "Bash",
                "args": {"command": f"kubectl describe pod -l app={n}-worker -n harbor"}, "out": out,
                "lead": "Checking the pod state.", "after": "It's being OOM-killed, not crashing on its own."}

    def find_pprof(self, n, N):
        r = self.r
        value = f"(*{N}Index).rebuild"
        rows = [f"{r.uniform(0.1, 5):6.2f}s {r.uniform(0.1, 8):5.2f}% {r.uniform(10, 90):5.2f}%  {r.uniform(0.1, 9):6.2f}s {r.uniform(0.1, 20):5.2f}%  {self.ch(['runtime.mallocgc', 'encoding/json.(*decodeState).object', 'runtime.mapassign_faststr', 'syscall.Syscall', f'{MOD}/internal/{self.ch(GO_PKGS)}.(*{self.ch(GO_T)}).{cap(self.ch(GO_V))}'])}" for _ in range(r.randint(10, 30))]
        rows.insert(0, f"{r.uniform(5, 9):6.2f}s {r.uniform(30, 45):5.2f}% {r.uniform(30, 45):5.2f}%  {r.uniform(5, 9):6.2f}s {r.uniform(40, 60):5.2f}%  {MOD}/internal/{n}.{value}")
        out = "File: harbord\nType: cpu\nDuration: 30.13s, Total samples = 18.02s (59.81%)\nShowing nodes accounting for 16.1s, 89.35% of 18.02s total\n      flat  flat%   sum%        cum   cum%\n" + "\n".join(rows)
        return {"value": value, "query": f"Which function dominates the CPU profile in the {n} package?", "tool": "Bash",
                "args": {"command": "go tool pprof -top -nodecount=30 cpu.pprof"}, "out": out,
                "lead": "Looking at the CPU profile.", "after": f"The {n} index rebuild dominates the profile."}

    def find_gitlog(self, n, N):
        subject = f"{n}: {self.ch(['cache quotes per batch', 'skip zero-amount holds', 'round before summing', 'retry on 409'])}"
        sha = self.hexs(7)
        value = f"{sha} {subject}"
        log = self.git_log(self.r.randint(5, 25)).split("\n")
        log.insert(self.r.randint(0, len(log)), f"{value} (#{self.r.randint(1000, 3999)})")
        return {"value": value, "query": f"Which commit introduced the {n} behaviour change?", "tool": "Bash",
                "args": {"command": "git log --oneline -S 'holdUntil' -- internal/"}, "out": "\n".join(log),
                "lead": "Finding when that line was introduced.", "after": "That commit is where the behaviour changed."}

    def find_toml(self, n, N):
        r = self.r
        secs = self.num(600, 9000)
        value = f"{n}_ttl_secs = {secs}"
        lines = ["[wal]", f"segment_bytes = {r.randint(1, 256) * 1048576}", "fsync = \"on-seal\""] + self.kv_lines(r.randint(10, 40), "toml")
        lines.insert(r.randint(3, len(lines)), value)
        return {"value": value, "query": f"What TTL is configured for {n} in the wal config?", "tool": "Read",
                "args": {"file_path": f"{ROOT}/crates/wal/wal.toml"}, "out": self.numbered("\n".join(lines)),
                "lead": "Checking the wal config.", "after": f"{cap(n)} entries live for {secs}s."}

    def find_explain(self, n, N):
        r = self.r
        value = f"Seq Scan on {n}_entries"
        out = "\n".join([f"Limit  (cost=0.00..{r.uniform(1000, 90000):.2f} rows=50 width={r.randint(40, 200)}) (actual time={r.uniform(100, 900):.3f}..{r.uniform(900, 3000):.3f} rows=50 loops=1)",
                         f"  ->  {value}  (cost=0.00..{r.uniform(90000, 400000):.2f} rows={r.randint(100000, 9000000)} width={r.randint(40, 200)}) (actual time={r.uniform(100, 900):.3f}..{r.uniform(900, 3000):.3f} rows=50 loops=1)",
                         f"        Filter: ((tenant_id = '{self.hexs(8)}-{self.hexs(4)}-{self.hexs(4)}'::uuid) AND (status = 'open'::text))",
                         f"        Rows Removed by Filter: {r.randint(100000, 9000000)}",
                         f"Planning Time: {r.uniform(0.1, 2):.3f} ms", f"Execution Time: {r.uniform(900, 3000):.3f} ms"])
        return {"value": value, "query": f"What did EXPLAIN show for the slow {n} query?", "tool": "Bash",
                "args": {"command": "psql \"$DATABASE_URL\" -f /tmp/slow.sql"}, "out": out,
                "lead": "Running EXPLAIN ANALYZE on the slow query.", "after": "No index is used — it scans the whole table."}

    def find_pgerr(self, n, N):
        value = f"{n}_idem_key_uniq"
        out = "\n".join([f"{self.ts_stamp()} level=info msg=\"{self.ch(GO_V)} {self.ch(GO_T).lower()}\"" for _ in range(self.r.randint(5, 20))]
                        + [f"{self.ts_stamp()} level=error msg=\"insert {n}\" err=\"pq: duplicate key value violates unique constraint \\\"{value}\\\"\" tenant=t{self.r.randint(1, 99)}"]
                        + [f"{self.ts_stamp()} level=info msg=\"{self.ch(GO_V)} {self.ch(GO_T).lower()}\"" for _ in range(self.r.randint(5, 20))])
        return {"value": value, "query": f"Which unique constraint did the {n} insert violate?", "tool": "Bash",
                "args": {"command": "kubectl logs deploy/harbord --since=30m | grep -B20 -A20 'level=error'"}, "out": out,
                "lead": "Checking the error around the failed insert.", "after": "It's a duplicate idempotency key, not a connection problem."}

    # ---- plan ----
    def plan_plan(self, target: int, j: int) -> None:
        for _ in range(20):
            tpl = self.ch(PLAN_STEPS)
            n = self.noun("ts" if "vitest" in tpl or "checkout" in tpl else "rs" if "nom" in tpl else "go")
            step = tpl.format(n=n, N=cap(n))
            if self.take(step):
                break
        f = self.new_fact("plan", step, f"What step did the assistant plan for the {n} work?")
        self.events.append(Ev("A", target, f, data={"step": step, "pos": "open", "plan": True}))

    def plan_text(self, ev: Ev) -> str:
        others = self.r.sample(PLAN_FILLER, 3)
        steps = others[:]
        steps.insert(self.r.randint(0, 2), ev.data["step"])
        caps = [x if x == ev.data["step"] else cap(x) for x in steps]  # the planted step stays verbatim
        a, b, c, d = steps
        return self.ch(PLAN_FORMS).format(a=a, b=b, c=c, d=d, A=caps[0], B=caps[1], C=caps[2], D=caps[3])

    # =============================================================================================
    # Episodes
    # =============================================================================================
    def noise_request(self, lang: str) -> str:
        pkg, path = self.go_path()
        return self.ch(NOISE_REQ[lang]).format(test=self.noise_test(), pkg=pkg, T=self.ch(GO_T), Verb=cap(self.ch(GO_V)),
                                               file=self.ch(GO_FILES), Comp=self.ch(TS_COMPS), dir=self.ch(TS_DIRS), RT=self.ch(RS_T))

    def noise_read(self, lang: str, lead: str = "", lo: int = 3000, hi: int = 12000) -> str:
        path, src = self.read_result(lang, self.size(lo, hi))
        self.last_path[lang] = path
        self.act(lead, "Read", {"file_path": f"{ROOT}/{path}"}, self.numbered(src))
        return path

    def noise_probe(self, lang: str, lead: str) -> None:
        k = self.r.random()
        if k < 0.55:
            self.noise_read(lang, lead)
        elif k < 0.75:
            sym = cap(self.ch(GO_V)) + self.ch(GO_T)
            self.act(lead, "Grep", {"pattern": sym, "path": ".", "output_mode": "content", "-n": True},
                     self.grep_out(sym, self.r.randint(3, 40)))
        elif k < 0.88:
            pats = {"go": "internal/**/*.go", "ts": "web/src/**/*.test.ts*", "rs": "crates/**/*.rs"}
            paths = sorted({(self.go_path()[1] if lang == "go" else self.ts_path() if lang == "ts" else self.rs_path()) for _ in range(self.r.randint(5, 30))})
            self.act(lead, "Glob", {"pattern": pats[lang]}, "\n".join(f"{ROOT}/{p}" for p in paths))
        else:
            todos = [{"content": t, "status": s} for t, s in zip(self.r.sample(PLAN_FILLER, 4), ["in_progress", "pending", "pending", "pending"])]
            self.act(lead, "TodoWrite", {"todos": todos},
                     "Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable")

    def noise_edit(self, lang: str, lead: str = "") -> None:
        r = self.r
        last = self.last_path.pop(lang, None)
        if lang == "go":
            pkg, path = self.go_path()
            path = last or path
            old = f"\tctx, cancel := context.WithTimeout(ctx, {r.randint(1, 30)}*time.Second)"
            new = f"\tctx, cancel := context.WithTimeout(ctx, s.cfg.{cap(self.ch(GO_V))}Timeout)"
        elif lang == "ts":
            path = last or self.ts_path()
            old = "  const total = items.reduce((a, b) => a + b.amount, 0);"
            new = "  const total = useMemo(() => items.reduce((a, b) => a + b.amount, 0), [items]);"
        else:
            path = last or self.rs_path()
            old = "        let n = u32::from_le_bytes(self.buf[..4].try_into().unwrap()) as usize;"
            new = "        let n = u32::from_le_bytes(self.buf[..4].try_into()?) as usize;"
        self.last_edit[lang] = path
        snippet = self.numbered("\n".join([new] + [f"\t// {self.ch(GO_COMMENTS)}"] * r.randint(0, 3)), r.randint(10, 300))
        self.act(lead, "Edit", {"file_path": f"{ROOT}/{path}", "old_string": old, "new_string": new},
                 f"The file {ROOT}/{path} has been updated. Here's the result of running `cat -n` on a snippet of the edited file:\n{snippet}")

    def noise_test_run(self, lang: str, lead: str = "") -> None:
        if lang == "go":
            v = self.r.random() < 0.4
            self.act(lead, "Bash", {"command": "go test -v ./..." if v else "go test ./...", "description": "Run Go tests"}, self.go_test_out(verbose=v))
        elif lang == "ts":
            if self.r.random() < 0.7:
                self.act(lead, "Bash", {"command": "cd web && npx vitest run"}, self.vitest_out())
            else:
                self.act(lead, "Bash", {"command": "cd web && npx jest"}, self.jest_out())
        else:
            self.act(lead, "Bash", {"command": f"cargo test -p {self.ch(list(RS_CRATES))}"}, self.cargo_out())

    def summary(self, lang: str) -> str:
        what = self.ch(WHATS_BY[lang])
        file = self.last_edit.get(lang) or (self.go_path()[1] if lang == "go" else self.ts_path() if lang == "ts" else self.rs_path())
        return self.ch(SUMMARIES).format(what=cap(what), what_l=what, extra=cap(self.ch(EXTRAS)),
                                         tests=self.ch(TESTS_BY[lang]), file=file).strip()

    def eligible(self) -> list[Ev]:
        L = len(self.msgs)
        return [e for e in self.events if e.idx is None and e.target <= L
                and (e.after is None or (e.after.idx is not None and L >= e.after.idx + e.min_gap))]

    # ---- the main task episode, hosting due facts ----
    def task_episode(self, due: list[Ev]) -> None:
        r, ch = self.r, self.ch
        U = [e for e in due if e.slot == "U"][:2]
        A = [e for e in due if e.slot == "A"][:2]
        found = next((e for e in due if e.slot == "O"), None)
        F = next((e for e in due if e.slot == "F"), None)
        E = next((e for e in due if e.slot in ("E", "R")), None)
        lang = None
        for e in (E, F):
            if e is not None:
                lang = e.data.get("lang")
                break
        lang = lang or ch(["go", "go", "ts", "rs"])
        req = self.noise_request(lang)
        if E is not None and E.slot == "R":
            req = ch([f"can you go back to {E.data['what']} in {E.data['pkg']} from earlier and fix it properly?",
                      f"ok now let's deal with {E.data['what']} ({E.data['pkg']}) you saw before",
                      f"{E.data['pkg']}: please fix {E.data['what']} now, it's blocking the release"])
        # render user-side events
        rendered = []
        for e in U:
            kind = e.fact["kind"]
            if kind == "instruction":
                mode, text = self.u_instruction(e)
            elif kind == "correction":
                mode, text = self.u_correction(e)
            elif kind == "decision":
                mode, text = self.ch(["aside", "solo", "lead", "mid"]), self.decision_text(e)
            else:
                mode, text = e.data["mode"], e.data["text"]
            rendered.append((mode, text, e))
        for mode, text, e in rendered:
            if mode == "solo":
                e.land(self.user(text))
                self.say(ch(INSTR_ACKS) if e.fact["kind"] != "correction" or e.role == "stale" else ch(["Got it, thanks.", "Ah, OK — noted.", "Thanks, I'll use that.", "Noted."]))
        leads = [t for m, t, _ in rendered if m == "lead"]
        mids = [t for m, t, _ in rendered if m == "mid"]
        tails = [t for m, t, _ in rendered if m in ("aside", "paren", "bullets")]
        parts = []
        if mids:
            chatter = [cap(ch(MID_OPENERS).format(who=ch(PEOPLE)))]
            chatter += [c.format(who=ch(PEOPLE), pkg=ch(GO_PKGS)) for c in r.sample(USER_CHATTER, r.randint(1, 5))]
            parts.append(" ".join(chatter))
            parts += mids
        leads = [t if t.endswith((".", ":", "—", "!", "?")) else t + "." for t in leads]
        parts += [" ".join(leads + [req]) if leads else req]
        parts += tails
        ui = self.user("\n\n".join(parts))
        for m, _, e in rendered:
            if m in ("lead", "mid", "aside", "paren", "bullets"):
                e.land(ui)
        # opening assistant message
        opens = [e for e in A if e.data.get("pos") == "open"]
        closes = [e for e in A if e.data.get("pos") != "open"]
        paras = []
        for e in opens:
            paras.append(self.plan_text(e) if e.data.get("plan") else self.decision_text(e))
        x = ch(["the handler", "the tests", "the call sites", "the config", "the failing package", "the component"])
        opener = ch(OPENERS).format(x=x) if found is None else ""
        text = "\n\n".join(paras + ([opener] if opener else []))
        if found is not None:
            d = found.data
            ai, ti = self.act("\n\n".join(p for p in (text, d["lead"]) if p), d["tool"], d["args"], d["out"])
            found.land(ti)
            for e in opens:
                e.land(ai)
            self.say(d["after"]) if r.random() < 0.5 else None
        else:
            idxs = len(self.msgs)
            self.noise_probe(lang, text)
            for e in opens:
                e.land(idxs)
        # more reading when the session is short of bulk
        extra = 2 if self.deficit() > 30000 else 1 if self.deficit() > 0 else 0
        for _ in range(r.randint(0, extra)):
            self.noise_read(lang, ch(["", "And the caller:", "Let me also check the tests.", "One more file:", "Reading the types too."]))
        replies = [(m, t, e) for m, t, e in rendered if m == "reply"]
        for _, t, e in replies:
            self.say(ch(INSTR_QUESTIONS))
            e.land(self.user(t))
        # edit
        if F is not None:
            d = F.data
            content = self.file_content(d)
            lead = ch([f"Creating the {d['n']} file.", "Adding the new file.", f"Now the {d['n']} change itself.", "", "Writing it."])
            if d["op"] == "Write":
                ai, _ = self.act(lead, "Write", {"file_path": f"{ROOT}/{d['path']}", "content": content}, f"File created successfully at: {ROOT}/{d['path']}")
            else:
                old, new = ch([("replicas: 2", "replicas: 3"), ("maxUnavailable: 1", "maxUnavailable: 0"),
                               ("  memory: 256Mi", "  memory: 512Mi")] if d["path"].endswith(".yaml") else
                              [("concurrency = 4", "concurrency = 8"), ('timeout = "30s"', 'timeout = "45s"'),
                               ("batch_size = 100", "batch_size = 250")])
                ai, _ = self.act(lead, "Edit", {"file_path": f"{ROOT}/{d['path']}", "old_string": old, "new_string": new},
                                 f"The file {ROOT}/{d['path']} has been updated. Here's the result of running `cat -n` on a snippet of the edited file:\n{self.numbered(new, r.randint(3, 60))}")
            F.land(ai)
        elif E is None or E.slot != "R" or r.random() < 0.5:
            self.noise_edit(lang, ch(["", "Making the change.", "Here's the fix.", "Editing."]))
        redos = [(m, t, e) for m, t, e in rendered if m == "redo"]
        for _, t, e in redos:
            e.land(self.user(t))
            self.noise_edit(lang, ch(["Right, fixing that.", "Sorry — redoing it.", "Updated."]))
        # test run
        if E is not None and E.slot == "E":
            self.emit_error(E)
        elif E is not None:
            d = E.data
            self.act(ch(["Applying the fix.", "Here's the real fix.", ""]), "Edit",
                     {"file_path": f"{ROOT}/{d['fix']}", "old_string": "\t// FIXME", "new_string": "\t// fixed: see test"},
                     f"The file {ROOT}/{d['fix']} has been updated.")
            _, ti = self.act(ch(["Re-running the same command.", "Running it again.", ""]), "Bash", {"command": d["rerun"]}, self.pass_out(d))
            E.land(ti)
        elif r.random() < 0.6:
            self.noise_test_run(lang, ch(["Running the tests.", "", "Checking nothing else broke."]))
        close = [self.summary(lang)]
        for e in closes:
            close.append(e.data["text"] if e.fact["kind"] == "identifier" else self.decision_text(e))
        ci = self.say("\n\n".join(close))
        for e in closes:
            e.land(ci)

    def pass_out(self, d: dict) -> str:
        lang = d["lang"]
        if d.get("pass"):
            return d["pass"]
        if d.get("pass") == "":
            return ""
        if lang == "ts":
            if "jest_file" in d:
                return f"PASS {d['jest_file']}\n\nTest Suites: 1 passed, 1 total\nTests:       {self.r.randint(3, 12)} passed, {self.r.randint(12, 14)} total\nTime:        {self.r.uniform(1, 5):.3f} s"
            return self.vitest_out()
        return self.cargo_out(d.get("crate", "wal"))

    def emit_error(self, E: Ev) -> None:
        d = E.data
        r, ch = self.r, self.ch
        lang = d["lang"]
        if "vitest" in d:
            name, file, extra = d["vitest"]
            out = "Exit code 1\n" + self.vitest_out(fail=name, fail_file=file, extra_fail_lines=extra)
        elif "jest_file" in d:
            out = "Exit code 1\n" + self.jest_out(fail_block=d["block"], fail_file=d["jest_file"])
        elif "eslint" in d:
            out = "Exit code 1\n" + self.eslint_out(*d["eslint"])
        elif "rs_fail" in d:
            out = "Exit code 101\n" + self.cargo_out("wal", fail_block=d["block"], fail_name=d["rs_fail"])
        elif lang == "go" and d["cmd"].startswith("go test"):
            body = self.go_test_out(skip=d["pkg"]).split("\n")
            body.insert(r.randint(2, len(body)), d["block"])
            out = "Exit code 1\n" + "\n".join(body) + "\nFAIL"
        else:
            out = ("Exit code 1\n" if lang != "rs" else "Exit code 101\n") + d["block"]
        _, ti = self.act(ch(["Running the tests.", "Let me run the whole suite first.", "", "Building to check."]), "Bash",
                         {"command": d["cmd"]}, out)
        E.land(ti)
        mode = d["resolve"]
        if mode == "now":
            self.act(ch([f"That's {d['what']} in {d['pkg']}; fixing it.", "One failure. Looking at it.",
                         f"Failure in {d['pkg']}. The cause is straightforward, fixing."]), "Edit",
                     {"file_path": f"{ROOT}/{d['fix']}", "old_string": "\t// FIXME", "new_string": "\t// fixed: see test"},
                     f"The file {ROOT}/{d['fix']} has been updated.")
            _, tp = self.act("Re-running.", "Bash", {"command": d["rerun"]}, self.pass_out(d))
            E.fact["resolved"] = tp
        else:
            self.say(ch([f"There's a failure in {d['pkg']}, unrelated to this change (that code hasn't been touched). Leaving it for now — say if you want me to look.",
                         f"{cap(d['what'])} in {d['pkg']} is pre-existing; it fails on main too. Not touching it in this change.",
                         f"Heads-up: {d['what']} in {d['pkg']}. It's outside what I'm changing, so I'll leave it unless you want it fixed."]))

    # ---- pasted-material episodes ----
    def doc_episode(self, ev: Ev | None) -> None:
        ch = self.ch
        before, after = self.doc_text(self.size(4000, 16000))
        intro = ch(["pasting our CONTRIBUTING for context since you're new to this repo:",
                    "here's the design doc for this area, mostly background:",
                    "ok here's the doc " + ch(PEOPLE) + " wrote, skim it before touching the payouts code:",
                    "context dump, the relevant doc:"])
        outro = ch(["then let's continue with the payouts change.", "no need to summarize it, just keep it in mind.",
                    "ok, now " + self.noise_request("go"), "questions welcome"])
        if ev is None:
            doc = "\n\n".join(before + after)
            ui = self.user(f"{intro}\n\n{doc}\n\n{outro}")
            self.pasted.append((ui, doc))
        else:
            p1 = "\n\n".join(before) + "\n\n"
            p2 = "\n\n" + "\n\n".join(after)
            ui = self.user(f"{intro}\n\n{p1}{ev.data['rule']}{p2}\n\n{outro}")
            self.pasted += [(ui, p1), (ui, p2)]
            ev.land(ui)
        self.say(ch(["Thanks — read it. Continuing.", "Got it, I've gone through the doc.",
                     "Read it. The layout section matches what I've seen so far.", "OK, noted."]))

    def paste_episode(self) -> None:
        r, ch = self.r, self.ch
        k = r.random()
        if k < 0.3:
            text = self.ci_log(self.size(2500, 11000))
            ui = self.user(f"{ch(['CI is red on my branch', 'nightly failed again', 'can you make sense of this CI failure'])}:\n\n```\n{text}\n```\n\n{ch(['what is going on?', 'flake or real?', 'thoughts?'])}")
        elif k < 0.5:
            text = self.slack_thread()
            ui = self.user(f"{ch(['context from slack:', 'this is from #payments-eng this morning:', 'fyi, thread from slack'])}\n\n{text}\n\n{ch(['can you check whether the dedupe actually runs for webhook retries?', 'is that right?', 'just so you know what people are seeing'])}")
        elif k < 0.7:
            text = self.gh_issue()
            ui = self.user(f"{ch(['new issue came in:', 'can you reproduce this one?', 'from GitHub:'])}\n\n{text}")
        elif k < 0.85:
            text = self.prod_trace()
            ui = self.user(f"{ch(['got this from prod:', 'seeing this in the logs', 'stack trace from staging:'])}\n```\n{text}\n```")
        else:
            lang = ch(["go", "ts"])
            path = self.go_path()[1] if lang == "go" else self.ts_path()
            text = self.git_diff(path, lang)
            ui = self.user(f"{ch(PEOPLE)} sent me this patch, does it look right?\n\n```diff\n{text}\n```")
        self.pasted.append((ui, text))
        kind = "ci" if k < 0.3 else "slack" if k < 0.5 else "issue" if k < 0.7 else "trace" if k < 0.85 else "diff"
        lang = "ts" if kind == "issue" else ch(["go", "ts", "rs"]) if kind != "trace" else ch(["go", "ts"])
        for _ in range(r.randint(1, 2)):
            self.noise_probe(lang, ch(["Let me check the code it points at.", "", "Looking at the relevant file."]))
        self.say(ch({
            "ci": ["This looks like a flake: the failing test uses a real timer with a 5s deadline and the runner was slow. I wouldn't block on it.",
                   "It's real — the test relies on map ordering, which changed with the Go bump. I can make it deterministic if you want.",
                   "The Go failure is the known deadline flake; the Python summary line in there is from the load-test job, not yours."],
            "slack": ["I checked: the dedupe key includes the attempt number, so retries never match. That explains the double rows. Want me to fix it?",
                      "Not a real regression as far as I can see — the numbers in that thread are from before the last deploy.",
                      "The thread mixes two problems. The double rows come from the 502 re-enqueue; the latency jump is unrelated."],
            "issue": ["I can reproduce it: the summary reads the total from a stale query key after the currency switch. It's a frontend bug.",
                      "Reproduced locally. The backend is fine; the checkout form keeps its own copy of the cart until submit."],
            "trace": ["The trace points at a slice being indexed after a partial response. Guarding the length fixes the crash, but we should also log the response id.",
                      "That's a render before the data arrives — the component assumes `data` is defined. Easy fix with an early return."],
            "diff": ["The patch is mostly right, but it changes the public signature; two callers would break. I'd keep the old one as a wrapper.",
                     "Looks fine to me. One nit: the new branch isn't covered by a test."],
        }[kind]))

    def chat_episode(self) -> None:
        self.user(self.ch(CHAT_USER))
        self.say(self.ch(CHAT_ASSIST))

    def explain_episode(self) -> None:
        r, ch = self.r, self.ch
        q = ch(QUESTIONS).format(T=ch(GO_T), Verb=cap(ch(GO_V)), pkg=ch(GO_PKGS), Comp=ch(TS_COMPS))
        self.user(q)
        lang = ch(["go", "ts", "rs"])
        self.noise_probe(lang, ch(["Let me look.", "", "Checking the code."]))
        if r.random() < 0.5:
            self.noise_read(lang, "")
        sents = [s.format(T=ch(GO_T), Verb=cap(ch(GO_V)), pkg=ch(GO_PKGS)) for s in r.sample(EXPLAIN, r.randint(3, 8))]
        paras = [" ".join(sents[i:i + 3]) for i in range(0, len(sents), 3)]
        self.say("\n\n".join(paras))

    def git_episode(self) -> None:
        r, ch = self.r, self.ch
        self.user(ch(["what's changed so far?", "show me the diff", "can you commit what we have?", "git status?"]))
        lang = ch(["go", "ts", "rs"])
        paths = [self.go_path()[1] if lang == "go" else self.ts_path() if lang == "ts" else self.rs_path() for _ in range(r.randint(1, 4))]
        if r.random() < 0.6:
            diff = "\n".join(self.git_diff(p, lang) for p in paths)
            self.act("", "Bash", {"command": "git status --short && git diff"},
                     "\n".join(f" M {p}" for p in paths) + "\n" + diff)
            self.say(ch(["Those are all the changes: ", "Current diff: "]) + f"{len(paths)} file(s), mostly what we discussed.")
        else:
            sha = self.hexs(7)
            self.act("", "Bash", {"command": f"git add {' '.join(paths)} && git commit -m \"{ch(GO_PKGS)}: {ch(WHATS)[:50]}\""},
                     f"[{ch(['main', 'wip', 'dev'])} {sha}] {ch(GO_PKGS)}: tidy\n {len(paths)} files changed, {r.randint(3, 200)} insertions(+), {r.randint(0, 90)} deletions(-)")
            self.say("Committed.")

    def oneoff_episode(self) -> None:
        r, ch = self.r, self.ch
        lang = ch(["go", "go", "ts", "ts", "rs"])
        self.user(self.noise_request(lang))
        self.noise_probe(lang, ch(OPENERS).format(x=ch(["the test", "the file", "the handler", "the component"])))
        for _ in range(r.randint(0, 2 if self.deficit() > 0 else 1)):
            self.noise_read(lang, ch(["", "And the test file:", "Checking the helper too."]))
        self.noise_edit(lang, ch(["", "Fix:", "Making the change."]))
        if r.random() < 0.75:
            self.noise_test_run(lang, ch(["", "Running the tests.", "Verifying."]))
        self.say(self.summary(lang))

    def noise_episode(self) -> None:
        k = self.r.random()
        behind = self.deficit() > 0
        if k < (0.42 if behind else 0.3):
            self.oneoff_episode()
        elif k < 0.55:
            self.paste_episode()
        elif k < 0.62:
            self.explain_episode()
        elif k < 0.7:
            self.git_episode()
        elif k < 0.72:
            self.doc_episode(None)
        else:
            self.chat_episode()

    def fill(self, r_left: int) -> None:
        ch = self.ch
        if r_left % 2 == 1:
            self.user(ch(CHAT_USER))
            self.user(ch(["oh and one more thing, no rush", "actually, before that —", "(ignore the typo above)"]))
            self.say(ch(CHAT_ASSIST))
            r_left -= 3
        while r_left > 0:
            if r_left >= 6 and self.r.random() < 0.6:
                lang = ch(["go", "ts", "rs"])
                self.user(self.noise_request(lang))
                self.noise_probe(lang, "")
                self.noise_edit(lang, "")
                self.say(self.summary(lang))
                r_left -= 6
            else:
                self.chat_episode()
                r_left -= 2

    def system(self) -> None:
        self.msgs.append({"role": "system", "content": SYSTEM})
        self.chars += len(SYSTEM)

    def build(self) -> Session:
        self.plan()
        self.system()
        body = self.n - 1
        while True:
            left = body - len(self.msgs)
            if left <= 40:
                self.fill(left)
                break
            due = self.eligible()
            docs = [e for e in due if e.slot == "D"]
            if docs:
                self.doc_episode(docs[0])
            elif due and self.r.random() < 0.12:
                self.paste_episode()  # pasted noise keeps turning up between the planted facts
            elif due:
                self.task_episode(due)
            else:
                self.noise_episode()
        lang = self.ch(["go", "ts", "rs"])
        self.user(self.ch(["ok, next: ", "next thing — ", "", "alright. "]) + self.noise_request(lang))
        missing = [e for e in self.events if e.idx is None]
        if missing:
            raise RuntimeError(f"{len(missing)} events never placed")
        facts = [Fact(kind=f["kind"], value=f["value"], index=f["index"], query=f["query"], stale=f["stale"],
                      stale_index=f["stale_index"], resolved=f["resolved"]) for f in self.facts]
        facts.sort(key=lambda f: f.index)
        return Session(messages=self.msgs, facts=facts, seed=self.seed, pasted=self.pasted)


def r_int(r: random.Random, lo: int, hi: int) -> int:
    return r.randint(lo, hi) if hi >= lo else lo


GO_STMTS = (
    "{v}, err := s.store.{Verb}{T2}(ctx, {w})",
    "if err != nil {{\n\t\treturn fmt.Errorf(\"{verb} {obj}: %w\", err)\n\t}}",
    "ctx, cancel := context.WithTimeout(ctx, {n}*time.Millisecond)\n\tdefer cancel()",
    "{v} := make(map[string]*{T2}, len({w}))",
    "for _, it := range {w} {{\n\t\t{v}[it.{F}] = it\n\t}}",
    "s.log.Debug(\"{verb} {obj}\", \"count\", len({w}))",
    "if {v} == nil {{\n\t\treturn ErrNotFound\n\t}}",
    "s.mu.Lock()\n\tdefer s.mu.Unlock()",
    "sort.Slice({w}, func(i, j int) bool {{ return {w}[i].{F} < {w}[j].{F} }})",
    "// {c}",
    "{v}.{F} = strings.TrimSpace({v}.{F})",
    "metrics.{Verb}Total.WithLabelValues(\"{pkg}\").Inc()",
    "select {{\n\tcase <-ctx.Done():\n\t\treturn ctx.Err()\n\tcase {v} := <-s.{w}Ch:\n\t\t_ = {v}\n\t}}",
    "if len({w}) > {n} {{\n\t\t{w} = {w}[:{n}]\n\t}}",
    "b, err := json.Marshal({v})\n\tif err != nil {{\n\t\treturn err\n\t}}\n\t_ = b",
    "start := time.Now()\n\tdefer func() {{ s.log.Info(\"{verb} done\", \"took\", time.Since(start)) }}()",
    "if {v}.{F} == \"\" {{\n\t\treturn fmt.Errorf(\"{obj}: missing {F}\")\n\t}}",
)

SYSTEM = """You are an interactive CLI agent that helps users with software engineering tasks. Use the instructions below and the tools available to you to assist the user.

# Tone and style
Be concise and direct. When you run a non-trivial bash command, explain what it does. Output text to communicate with the user; all text outside of tool use is displayed to the user. Only use emojis if the user asks for them.

# Doing tasks
The user will mostly ask you to fix bugs, add features, refactor code and explain code. For these tasks:
- Use the search tools to understand the codebase and the user's query.
- Implement the solution using the tools available to you.
- Verify the solution with the project's tests when possible. Never assume a particular test framework; check the README or search the codebase.
- When you are done, run the lint and typecheck commands if they exist.

# Tool usage
- Bash: run a shell command. Quote paths with spaces. Prefer Grep/Glob/Read over find, grep, cat.
- Read: read a file by absolute path; output is numbered like `cat -n`.
- Edit: exact string replacement in a file; the old_string must be unique in the file.
- Write: create or overwrite a file.
- Grep: ripgrep-backed content search with output modes "content", "files_with_matches", "count".
- Glob: fast file pattern matching.
- TodoWrite: keep a structured task list for the current session.

When several independent tool calls are needed, issue them in the same message.

# Environment
Working directory: /home/dev/harbor
Is directory a git repo: Yes
Platform: linux
OS Version: Linux 6.8.0-45-generic

# Repository overview
harbor is a payments monorepo:
- cmd/harbord, internal/* — the Go API service and workers (Go 1.21, module github.com/acme/harbor)
- web/ — the checkout and account frontend (TypeScript, React 18, Vite; tests in vitest and jest)
- crates/wal, crates/ledger-core, crates/ffi — Rust write-ahead log and ledger types linked into the service
- deploy/ — Helm charts; migrations/ — SQL migrations
Common commands: `make test`, `make lint`, `go test ./...`, `cd web && npx vitest run`, `cargo test --workspace`.
"""


def make_session(seed: int, messages: int) -> Session:
    """A coding-agent session of exactly ``messages`` messages with planted facts (deterministic)."""
    if messages < 120:
        raise ValueError("gen_code needs at least 120 messages")
    last_err: Exception | None = None
    for attempt in range(8):
        g = Gen(seed, messages, attempt)
        try:
            s = g.build()
        except RuntimeError as e:
            last_err = e
            continue
        problems = check(s)
        if not problems:
            return s
        last_err = AssertionError("; ".join(problems[:5]))
    raise RuntimeError(f"could not build a clean session for seed {seed}: {last_err}")


def _text(m: dict) -> str:
    parts = [str(m.get("content") or "")]
    for c in m.get("tool_calls") or []:
        parts.append(c["function"]["arguments"])
    return "\n".join(parts)


def check(s: Session) -> list[str]:
    """Everything the benchmark relies on; returns a list of problems (empty when clean)."""
    problems = []
    msgs = s.messages
    texts = [_text(m) for m in msgs]
    offsets = []
    pos = 0
    for t in texts:
        offsets.append(pos)
        pos += len(t) + 1
    joined = "\n".join(texts)
    n = len(msgs)
    limit = int(n * 0.9)
    seen = set()
    for f in s.facts:
        if f.value in seen:
            problems.append(f"duplicate value {f.value!r}")
        seen.add(f.value)
        if f.index is None or f.value not in texts[f.index]:
            problems.append(f"{f.kind} {f.value!r} not in its message {f.index}")
            continue
        first = joined.find(f.value)
        if first < offsets[f.index]:
            problems.append(f"{f.kind} {f.value!r} occurs before message {f.index}")
        if f.index >= limit:
            problems.append(f"{f.kind} {f.value!r} at {f.index} is in the last 10%")
        if f.value in f.query:
            problems.append(f"query gives away {f.value!r}")
        if f.stale is not None:
            if f.stale_index is None or f.stale not in texts[f.stale_index] or f.stale_index >= f.index:
                problems.append(f"stale {f.stale!r} not at {f.stale_index}")
        if f.resolved is not None and (f.resolved <= f.index or msgs[f.resolved]["role"] != "tool"):
            problems.append(f"bad resolution for {f.value!r}")
    for i, p in s.pasted:
        if msgs[i]["role"] != "user" or p not in msgs[i]["content"]:
            problems.append(f"pasted span not in message {i}")
    if msgs[0]["role"] != "system" or msgs[-1]["role"] != "user":
        problems.append("bad first/last role")
    pending: set[str] = set()
    for i, m in enumerate(msgs):
        if m["role"] == "tool":
            if m["tool_call_id"] not in pending:
                problems.append(f"orphan tool result at {i}")
            pending.discard(m["tool_call_id"])
        else:
            if pending:
                problems.append(f"unanswered tool call before {i}")
                pending = set()
            for c in m.get("tool_calls") or []:
                json.loads(c["function"]["arguments"])
                pending.add(c["id"])
    if pending:
        problems.append("unanswered tool call at the end")
    return problems


if __name__ == "__main__":
    from collections import Counter

    for size in (400, 3000):
        for seed in (1, 2, 3):
            t0 = time.perf_counter()
            s = make_session(seed, size)
            dt = time.perf_counter() - t0
            problems = check(s)
            assert not problems, problems
            assert len(s.messages) == size, len(s.messages)
            assert s == make_session(seed, size) if size == 400 else True
            counts = Counter(f.kind for f in s.facts)
            chars = sum(len(_text(m)) for m in s.messages)
            print(f"seed={seed} messages={size} chars={chars:,} tokens~{chars // 4:,} avg={chars / size:,.0f}/msg "
                  f"pasted={len(s.pasted)} built in {dt:.2f}s")
            print("   " + "  ".join(f"{k}={counts[k]}" for k in KINDS)
                  + f"  resolved={sum(1 for f in s.facts if f.resolved is not None)}"
                  + f"  stale={sum(1 for f in s.facts if f.stale)}")
    print("ok")
