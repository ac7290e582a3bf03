"""Long coding-agent sessions with planted facts, for the fidelity benchmark (issue 10).

    from sessiongen import make_session
    session = make_session(seed=1, messages=400)     # about 150k tokens at 4 chars a token
    session = make_session(seed=1, messages=3000)    # about 1.2M tokens

``session.messages`` is an OpenAI chat conversation: a system prompt, user turns, assistant
``tool_calls`` (write_file, edit_file, apply_patch, read_file, bash, grep, todo_write) matched by
``tool`` results (failures carry ``is_error: true`` and a non-zero exit code), file dumps full of
distractors (``raise ValueError(...)``, ``except KeyError:``, ``logger.error(...)``), pytest runs
with plugin version lines, docker ``6379/tcp`` noise, the assistant quoting errors back, and the
user's "Next: look at ..." filler. It ends on a user turn.

``session.facts`` are what a compacted context must keep (:class:`Fact`), planted early, in the
middle and late (before the last 10%, which a compactor keeps verbatim anyway). Same seed and
sizes, same bytes. Fact values occur nowhere before their message (the test checks it), so
finding one in a compacted prompt means it was kept.
"""

from __future__ import annotations

import json
import random
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

Message = dict[str, Any]
KINDS = ("instruction", "file", "error", "decision", "identifier", "correction")
BANDS = ((0.02, 0.3), (0.3, 0.62), (0.62, 0.9))  # early, middle, late-before-the-recent-tail


@dataclass(frozen=True)
class Fact:
    """One planted fact: ``value`` must occur verbatim in a compacted prompt to count as kept.

    ``index`` is the message that says it (for a correction, the message that corrects);
    ``stale`` is the value a correction replaced; ``query`` paraphrases the fact without its value.
    """

    kind: str
    value: str
    index: int
    query: str
    stale: str | None = None
    stale_index: int | None = None  # corrections: where the stale value was said
    resolved: int | None = None  # errors: the message where a later run of the command passed


@dataclass
class Session:
    """A conversation and its planted facts.

    ``pasted`` lists what users pasted rather than wrote: (message index, the pasted text as it
    occurs in that message's content). Nothing in it is an instruction or a correction; the
    fidelity scorer counts instruction lines that come from it.
    """

    messages: list[Message]
    facts: list[Fact]
    seed: int = 0
    pasted: list[tuple[int, str]] = field(default_factory=list)

    def chars(self) -> int:
        return sum(len(text_of(m)) for m in self.messages)


def text_of(message: Message) -> str:
    """The text a scorer searches: the content and the raw tool-call arguments."""
    parts = [str(message.get("content") or "")]
    for call in message.get("tool_calls") or []:
        parts.append(call["function"]["arguments"])
    return "\n".join(parts)


# --- what gets planted -------------------------------------------------------------------------
# Each drawer returns a dict: value, query, and the pieces its carrier needs. Parameters are
# drawn so that values are unique within a session and cannot occur in the noise.

WORDS = ("billing", "checkout", "invoices", "shipping", "accounts", "search", "reports", "payouts",
         "catalog", "webhooks", "ledger", "coupons", "refunds", "inventory", "tenants", "audit")
NOUNS = ("exporter", "throttle", "serializer", "scheduler", "importer", "notifier", "resolver",
         "reconciler", "backfill", "snapshot", "limiter", "gateway", "mapper", "digest", "sweeper")


def _hex(rng: random.Random, n: int) -> str:
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def _uuid(rng: random.Random) -> str:
    h = _hex(rng, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"


def _instruction(rng: random.Random, i: int) -> dict[str, Any]:
    w, n = rng.choice(WORDS), rng.randint(100, 999)
    options = [
        (f"Never run migration {n:04d} against staging.", "which migration must never run against staging"),
        (f"Always use {rng.choice(['pnpm', 'yarn'])}, not npm, in the {w} frontend.", f"which package manager the {w} frontend uses"),
        (f"Do not modify anything under vendor/{w}{n}/ without asking me first.", "which vendored folder is off limits"),
        (f"Never push directly to stable-{n}; always open a pull request.", "which branch must never be pushed to directly"),
        (f"Keep the public API of {w}.client backwards compatible until v{n // 100}.{n % 100}.", f"how long the {w} client API stays compatible"),
        (f"Run `make lint-{w}` before every commit.", "what to run before every commit"),
        (f"Never log the {w}_secret field, not even at debug level.", "which field must never be logged"),
        (f"Never delete rows from the {w}_{n} table; mark them archived instead.", "which table must never have rows deleted"),
        (f"Keep each test under {n} milliseconds; mark slower ones with @pytest.mark.slow.", "the time limit for a single test"),
        (f"Do not restart the {w}-worker-{n} container on the shared host.", "which container must not be restarted on the shared host"),
        (f"Every new endpoint goes under /api/v{n}/ and needs an OpenAPI entry.", "where new endpoints go"),
        (f"Don't add dependencies to requirements/{w}.in without asking me.", "which requirements file needs approval for new dependencies"),
        (f"Reply in English even when I write in French, and cite file paths for {w} changes.", "the language and citation rule for replies"),
        (f"Use UTC for every {w} timestamp stored in the database.", f"the time zone for stored {w} timestamps"),
    ]
    value, query = options[i % len(options)]
    return {"value": value, "query": query}


def _decision(rng: random.Random, i: int) -> dict[str, Any]:
    w, n = rng.choice(WORDS), rng.randint(12, 96)
    options = [
        (f"server-side cursors for the {w} export", "loading every row with .all()", f"the export no longer fits in memory at {n}k rows", f"how the {w} export reads rows"),
        (f"a Redis lock around the {w} sweep", "a Postgres advisory lock", f"the sweep runs on {n} replicas that share no database session", f"how the {w} sweep is serialized"),
        (f"a retry_{w} decorator with jittered backoff", "retrying inside each client call", f"{n} call sites would otherwise each grow their own loop", f"where {w} retries live"),
        (f"storing {w} amounts as integer cents", "Decimal columns", f"the ledger reconciliation drifted by {n} cents on floats last quarter", f"how {w} amounts are stored"),
        (f"httpx with a {n}-second timeout for the {w} client", "requests", "we need one client for sync and async callers", f"the HTTP client for {w}"),
        (f"a new {w}_v{n} table next to the old one", "altering the old table in place", "the migration must be reversible without downtime", f"the schema change strategy for {w}"),
        (f"feature flag {w}_rollout_{n}", "a long-lived branch", "the change must ship dark before the partner is ready", f"how the {w} change ships"),
        (f"pydantic models at the {w} boundary", "hand-written dict validation", f"{n} malformed payloads slipped through last month", f"how {w} payloads are validated"),
        (f"one Celery queue per tenant for {w}", "a shared priority queue", f"a single tenant's burst of {n}k jobs starved the others", f"how {w} jobs are queued"),
        (f"snapshot tests for the {w} PDF renderer", "pixel diffs", f"pixel diffs failed on {n} harmless font changes", f"how the {w} renderer is tested"),
    ]
    x, y, z, query = options[i % len(options)]
    if rng.random() < 0.5:
        value = f"{x} rather than {y} because {z}"
        sentence = f"Decision: use {value}."
    else:
        value = f"{x} instead of {y}, since {z}"
        sentence = f"We'll go with {value}."
    return {"value": value, "query": query, "sentence": sentence}


def _identifier(rng: random.Random, i: int) -> dict[str, Any]:
    """An id with what it names; ``text`` is a sentence (user, say) or (command, output) (tool)."""
    w = rng.choice(WORDS)
    what = i % 9
    if what == 0:
        v = f"bld-{_hex(rng, 10)}"
        return {"value": v, "carrier": "tool", "query": "the CI build id of the pipeline run that was triggered",
                "text": ("ci trigger --pipeline shop --ref main", f"Queued pipeline shop@main\nbuild: {v}\nstatus: queued\nexit code: 0")}
    if what == 1:
        v = _uuid(rng)
        return {"value": v, "carrier": "user", "query": f"the tenant id to seed the {w} fixtures with",
                "text": f"Seed the {w} fixtures with tenant id {v}; that is the demo tenant."}
    if what == 2:
        v = str(rng.randint(20000, 49999))
        return {"value": v, "carrier": "tool", "query": "the host port of the payments mock container",
                "text": ("docker compose ps", DOCKER_PS + f"shop-payments-mock-1  stripe-mock:0.188    Up 2 minutes   0.0.0.0:{v}->12111/tcp\nexit code: 0")}
    if what == 3:
        v = f"{rng.randint(10, 29)}.{rng.randint(10, 40)}.{rng.randint(1, 9)}"
        return {"value": v, "carrier": "say", "query": f"the version of the {w} SDK running in production",
                "text": f"Production runs the {w} SDK {v}, so I'll keep the new code compatible with that version."}
    if what == 4:
        v = f"https://runbooks.acme-{_hex(rng, 4)}.dev/{w}/on-call"
        return {"value": v, "carrier": "user", "query": f"where the {w} on-call runbook lives",
                "text": f"The {w} on-call runbook is at {v} if you need the escalation steps."}
    if what == 5:
        v = f"{rng.choice(['OPS', 'SHOP', 'PAY'])}-{rng.randint(1000, 9999)}"
        return {"value": v, "carrier": "user", "query": f"the ticket the {w} work is tracked under",
                "text": f"Track the {w} work under {v}, please."}
    if what == 6:
        v = _hex(rng, 40)
        return {"value": v, "carrier": "tool", "query": "the commit at HEAD when the hotfix branch was cut",
                "text": ("git rev-parse HEAD", f"{v}\nexit code: 0")}
    if what == 7:
        v = f"arn:aws:sqs:eu-west-1:{rng.randint(10**11, 10**12 - 1)}:{w}-dlq"
        return {"value": v, "carrier": "say", "query": f"the dead-letter queue of the {w} consumer",
                "text": f"The {w} consumer's dead-letter queue is {v}; failed messages land there after 5 attempts."}
    v = f"req_{_hex(rng, 16)}"
    return {"value": v, "carrier": "tool", "query": "the request id of the failed checkout call",
            "text": ("curl -si -X POST http://localhost:8000/api/v2/checkout -d @cart.json",
                     f"HTTP/1.1 502 Bad Gateway\ncontent-type: application/json\nx-request-id: {v}\n\n"
                     '{"detail": "upstream payment provider timeout"}\nexit code: 0')}


SECOND_ROUND = {0: (("release from", "hotfix from"), ("release/", "hotfix/")), 1: (("dev API", "admin API"),),
                2: (("staging database", "analytics database"),),
                3: (("Tag the image", "Tag the worker image"), ("Make that tag", "Make that worker tag"),
                    ("service image", "worker image")),
                4: (("failure report", "audit digest"),), 5: (("the export", "the backup"), ("exports", "backups"))}


def _correction(rng: random.Random, i: int) -> dict[str, Any]:
    w = rng.choice(WORDS)
    a, b = rng.sample(range(2010, 2039), 2)
    p, q = rng.sample(range(20000, 49999), 2)
    options = [
        (f"release/{a}.{rng.randint(1, 9)}", f"release/{b}.{rng.randint(1, 9)}", "Cut the release from branch {old}.", "Sorry, I meant {new}.", "the branch to cut the release from"),
        (str(p), str(q), "Run the dev API on port {old}.", "Correction: the dev API goes on port {new}, the other one is taken.", "the port of the dev API"),
        (f"{w}_stage_{a}", f"{w}_stage_{b}", "The staging database is called {old}.", "Wait, the staging database is {new}; I misremembered.", "the name of the staging database"),
        (f"{w}-svc:{a % 100}.{p % 97}", f"{w}-svc:{b % 100}.{q % 97}", "Tag the image as {old}.", "Make that tag {new}, not the one I gave you.", "the tag of the service image"),
        (f"{w}-alerts-{p}@acme.dev", f"{w}-oncall-{q}@acme.dev", "Send the failure report to {old}.", "Oops, the address is {new}.", "where the failure report goes"),
        (f"s3://acme-{w}-{p}", f"s3://acme-{w}-{q}", "Upload the export to {old}.", "I mixed up the buckets: exports go to {new}.", "the bucket the export is uploaded to"),
        # Past the sixth (sessions of 12 corrections): an address without a digit on another host, a number named again.
        (f"https://{w}-staging.acme.dev/api", f"https://{w}.acme.dev/api", "Point the client at {old}.", "Actually the client's API base is {new}, not the staging one.", "the API base the client points at"),
        (str(1000 + p % 4000), str(5000 + q % 4000), "Apply migration {old} before the backfill.", "Sorry, the migration is {new}.", "the migration to apply before the backfill"),
    ]
    old, new, said, fixed, query = options[i % len(options)]
    # A setting is planted once: a second round of an option sets another thing (the truth of a setting
    # set by two chains would be the later chain's, not what each chain's own correction says).
    for a_, b_ in SECOND_ROUND.get(i % len(options), ()) if i >= len(options) else ():
        said, fixed, query = said.replace(a_, b_), fixed.replace(a_, b_), query.replace(a_, b_)
        old, new = old.replace(a_, b_), new.replace(a_, b_)
    return {"value": new, "stale": old, "query": query,
            "said": said.format(old=old), "fixed": fixed.format(new=new, old=old)}


def _file(rng: random.Random, i: int, used: set[str]) -> dict[str, Any]:
    while True:
        w, n = rng.choice(WORDS), rng.choice(NOUNS)
        path = f"src/shop/{w}/{n}.py" if i % 4 else f"tests/{w}/test_{n}.py"
        if path not in used:
            used.add(path)
            break
    op = ("write_file", "edit_file", "apply_patch", "rm", "sed", "write_file", "mv", "cat", "edit_file")[i % 9]
    verbs = {"write_file": "created", "edit_file": "edited", "apply_patch": "patched", "rm": "deleted",
             "sed": "rewritten with sed", "mv": "renamed into place", "cat": "written from the shell"}
    return {"value": path, "op": op, "query": f"the {w} {n} file that was {verbs[op]}"}


def _error(rng: random.Random, i: int) -> dict[str, Any]:
    w, n = rng.choice(WORDS), rng.randint(2, 250)
    ip = f"10.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(2, 254)}"
    port = rng.randint(5400, 5499)
    options = [
        ("alembic upgrade head", f'psycopg2.OperationalError: connection to server at "{ip}", port {port} failed: Connection refused', "the database connection failure during the migration"),
        (f"pytest tests/{w} -q", f"AssertionError: expected {n} {w} rows after the backfill, got 0", f"the {w} backfill assertion that failed"),
        (f"python -m shop.{w}.worker", f"ModuleNotFoundError: No module named 'shop.{w}.tasks_v{n}'", f"the missing module when starting the {w} worker"),
        (f"pytest tests/{w}/test_models.py -q", f'django.db.utils.ProgrammingError: relation "{w}_entry_{n}" does not exist', f"the missing relation in the {w} model tests"),
        (f"python scripts/reindex_{w}.py", f"redis.exceptions.ConnectionError: Error 111 connecting to cache-{n}.internal:6380. Connection refused.", "the cache connection error of the reindex script"),
        ("docker compose up -d api", f"Error response from daemon: driver failed programming external connectivity on endpoint shop-api-{n}: Bind for 0.0.0.0:{port} failed: port is already allocated", "the docker port conflict when starting the api"),
        (f"pip install -r requirements/{w}.txt", f"ERROR: Could not find a version that satisfies the requirement {w}-client=={n}.0.{rng.randint(1, 9)}", f"the pip failure installing the {w} client"),
        (f"pytest tests/{w}/test_api.py -q", f"TypeError: build_{w}_payload() got an unexpected keyword argument 'currency_{n}'", f"the unexpected keyword in the {w} payload builder"),
        ("python manage.py loaddata fixtures.json", f"json.decoder.JSONDecodeError: Expecting ',' delimiter: line {n} column {rng.randint(2, 80)} (char {rng.randint(3000, 90000)})", "the fixture file parse failure"),
        ("alembic downgrade -1", f"alembic.util.exc.CommandError: Can't locate revision identified by '{_hex(rng, 12)}'", "the missing alembic revision on downgrade"),
    ]
    command, value, query = options[i % len(options)]
    return {"value": value, "query": query, "command": command, "pytest": command.startswith("pytest")}


DRAWERS: dict[str, Callable[..., dict[str, Any]]] = {
    "instruction": _instruction, "decision": _decision, "identifier": _identifier,
    "correction": _correction, "error": _error,
}


# --- the noise a real session is made of -------------------------------------------------------

READ_PATHS = ("src/shop/app.py", "src/shop/models.py", "src/shop/api/views.py", "src/shop/db.py",
              "src/shop/settings.py", "src/shop/api/serializers.py", "src/shop/core/cache.py",
              "src/shop/core/payments.py", "tests/conftest.py", "tests/test_api.py", "tests/test_models.py")
NOISE_FAILURES = (
    ("tests/test_api.py::test_refund_flow", "AssertionError: assert 500 == 200"),
    ("tests/test_api.py::test_list_orders", "KeyError: 'items'"),
    ("tests/test_models.py::test_order_total", "assert Decimal('19.99') == Decimal('20.00')"),
)
BLOCKS = (
    '''    def get_{a}(self, key: str) -> dict[str, Any]:
        """Return the {a} stored under ``key``."""
        try:
            row = self._rows[key]
        except KeyError:
            logger.error("unknown {a} %s", key)
            raise ValueError("no {a} for key: %s" % key)
        return dict(row)
''',
    '''    def validate_{a}(self, payload: dict[str, Any]) -> None:
        if "{b}" not in payload:
            raise ValueError("missing field '{b}' in {a} payload")
        if payload["{b}"] < 0:
            logger.error("negative {b} for {a}: %r", payload)
            raise ValueError("{b} must be >= 0, got %r" % payload["{b}"])
''',
    '''    async def fetch_{a}(self, client: httpx.AsyncClient, ident: int) -> {A}:
        response = await client.get(f"/api/v2/{a}s/{{ident}}", timeout=self.timeout)
        if response.status_code == 404:
            raise LookupError(f"{a} {{ident}} not found")
        response.raise_for_status()
        return {A}.model_validate(response.json())
''',
    '''    def save_{a}(self, item: {A}) -> None:
        with self.db.transaction() as tx:
            try:
                tx.execute(INSERT_{U}, item.as_row())
            except IntegrityError as exc:
                logger.error("duplicate {a} %s: %s", item.id, exc)
                raise ConflictError(item.id) from exc
''',
    '''    def _{a}_cache_key(self, ident: int, *, region: str = "eu") -> str:
        # the region is part of the key: the same id can exist in two shards
        return f"{a}:{{region}}:{{ident}}:v3"
''',
)
HEADER = '''"""{A} service: reads and writes {a} records for the shop API."""

from __future__ import annotations

import logging
from typing import Any

import httpx

from shop.db import ConflictError, IntegrityError
from shop.models import {A}

logger = logging.getLogger(__name__)
INSERT_{U} = "INSERT INTO {a}s (id, data) VALUES (%s, %s)"


class {A}Service:
    timeout = 5.0

    def __init__(self, db: Any) -> None:
        self.db = db
        self._rows: dict[str, Any] = {{}}

'''
ENTITIES = ("order", "customer", "product", "cart", "payment", "shipment", "voucher", "review")
PLUGINS = "plugins: anyio-4.3.0, timeout-2.3.1, cov-5.0.0, xdist-3.5.0"
FILLER = (
    "Next: look at the {p} module and tell me what still calls the old helpers.",
    "Next: look at the slow tests in {p}; the suite takes too long.",
    "ok, continue with the next item on the list",
    "Looks good. Can you check {p} for anything that still uses the v1 API?",
    "Next: look at the logging in {p}, it is too chatty.",
    "Fine. Keep going, and tell me when the suite is green.",
)
SAYS = (
    "I read {p}; the handler builds the response before the transaction commits, which explains the flaky ordering.",
    "The suite still shows `{e}` in {t}; that one predates this change, so I'm leaving it for now.",
    "Done with this step: the change is in place and the targeted tests pass. Moving to the next item.",
    "{p} has three callers of the old helper; I updated two and left the admin one, which is dead code.",
)


def _dump(rng: random.Random, entity: str, chars: int) -> str:
    """A Python source file as read_file returns it (numbered lines), about ``chars`` long."""
    names = {"a": entity, "A": entity.capitalize(), "U": entity.upper(), "b": rng.choice(["amount", "quantity", "weight"])}
    parts, size = [HEADER.format(**names)], 0
    while size < chars:
        block = rng.choice(BLOCKS).format(**names)
        parts.append(block + "\n")
        size += len(block) + 40
    lines = "".join(parts).splitlines()
    return "\n".join(f"{i:>6}\t{line}" for i, line in enumerate(lines, 1))


def _pytest(rng: random.Random, chars: int, failure: tuple[str, str] | None, target: str = "tests") -> str:
    """A pytest -v run, about ``chars`` long, optionally with one failure (E line and FAILED line)."""
    head = ("============================= test session starts ==============================\n"
            "platform linux -- Python 3.12.3, pytest-8.2.0, pluggy-1.5.0\n"
            f"rootdir: /home/dev/shop\nconfigfile: pyproject.toml\n{PLUGINS}\n")
    lines, k, size = [], 0, 0
    while size < chars - 400:
        k += 1
        lines.append(f"{target}/test_{ENTITIES[k % len(ENTITIES)]}.py::test_case_{k:03d} PASSED [{min(99, k):>3}%]")
        size += len(lines[-1]) + 1
    out = head + f"collected {k + 1} items\n\n" + "\n".join(lines) + "\n"
    if failure is None:
        return out + f"\n============================== {k + 1} passed in {rng.uniform(2, 40):.2f}s ==============================\nexit code: 0"
    test, error = failure
    out += (f"\n=================================== FAILURES ===================================\n"
            f"____________________________ {test.split('::')[-1]} ____________________________\n\n"
            f"    def {test.split('::')[-1]}(client):\n>       result = run_case(client)\n\n"
            f"E   {error}\n\n{test.split('::')[0]}:{rng.randint(10, 400)}: {error.split(':')[0]}\n"
            f"=========================== short test summary info ============================\n"
            f"FAILED {test} - {error}\n"
            f"========================= 1 failed, {k} passed in {rng.uniform(2, 40):.2f}s =========================\nexit code: 1")
    return out


DOCKER_PS = ("NAME              IMAGE                 STATUS         PORTS\n"
             "shop-redis-1      redis:7.2             Up 3 hours     0.0.0.0:6379->6379/tcp\n"
             "shop-db-1         postgres:16           Up 3 hours     0.0.0.0:5432->5432/tcp\n"
             "shop-api-1        shop-api:dev          Up 12 minutes  0.0.0.0:8000->8000/tcp\n")
GIT_LOG = "\n".join(f"{h} {m}" for h, m in (("3e1f0a9", "api: paginate order list"), ("9c2d4b1", "models: order totals in cents"),
                                             ("77ab310", "ci: cache pip wheels"), ("e04c9d2", "payments: retry on 502"),
                                             ("b5a6f18", "tests: factories for vouchers")))
TODOS = ("Fix the failing refund test", "Paginate the order list endpoint", "Move payment retries into one place",
         "Add factories for vouchers", "Update the API docs", "Remove the v1 serializers")


# --- the session ---------------------------------------------------------------------------------

@dataclass(order=True)
class _Plant:
    target: int
    seq: int
    kind: str = field(compare=False)
    slot: str = field(compare=False)  # where it is said: "user", "tool" (a tool step) or "say" (assistant text)
    spec: dict[str, Any] = field(compare=False)
    part: str = field(default="", compare=False)  # corrections: "said" (the stale value) or "fixed"


class _Builder:
    def __init__(self, seed: int, messages: int, tool_result_chars: int, per_kind: int) -> None:
        self.rng = random.Random(seed)
        self.n = messages
        self.trc = tool_result_chars
        self.out: list[Message] = [{"role": "system", "content": "You are a careful coding agent working in the "
                                    "shop repository. Use the tools to read, run and change code."}]
        self.facts: list[Fact] = []
        self.said: dict[int, int] = {}  # correction seq -> index of the message with the stale value
        self.calls = 0
        self.errors = 0
        self.quote: str | None = None  # an error the assistant quotes back in its next message
        self.resolve: tuple[str, int] | None = None  # (command, fact position) rerun in the next step
        self.dumps = {p: _dump(self.rng, ENTITIES[i % len(ENTITIES)], int(self.trc * self.rng.uniform(0.6, 1.6)))
                      for i, p in enumerate(READ_PATHS)}
        self.queues: dict[str, deque[_Plant]] = {}
        self._plan(per_kind)

    # planning: which fact goes where

    def _plan(self, per_kind: int) -> None:
        used: set[str] = set()
        paths: set[str] = set()
        plants: list[_Plant] = []
        for kind in KINDS:
            for i in range(per_kind):
                spec = self._draw(kind, i, used, paths)
                lo, hi = self._band(kind, i)
                target = 1 if kind == "instruction" and i == 0 else int(self.n * self.rng.uniform(lo, hi))
                slot = {"instruction": "user", "correction": "user", "file": "tool", "error": "tool",
                        "decision": "say"}.get(kind) or spec["carrier"]
                seq = len(plants)
                plants.append(_Plant(target, seq, kind, slot, spec, "fixed" if kind == "correction" else ""))
                if kind == "correction":
                    early = max(1, target - int(self.n * self.rng.uniform(0.03, 0.25)))
                    plants.append(_Plant(early, seq, kind, "user", spec, "said"))
        for slot in ("user", "tool", "say"):
            self.queues[slot] = deque(sorted(p for p in plants if p.slot == slot))

    @staticmethod
    def _band(kind: str, i: int) -> tuple[float, float]:
        """Two of three instructions early (standing rules come first), the rest spread evenly."""
        if kind == "instruction":
            return BANDS[0] if i % 3 != 2 else BANDS[1 + (i // 3) % 2]
        return BANDS[(i + i // 3) % 3]

    def _draw(self, kind: str, i: int, used: set[str], paths: set[str]) -> dict[str, Any]:
        """A fact's parameters, redrawn until no value is part of another (so a match means this fact)."""
        while True:
            spec = _file(self.rng, i, paths) if kind == "file" else DRAWERS[kind](self.rng, i)
            values = [spec["value"]] + ([spec["stale"]] if spec.get("stale") else [])
            if not any(v in u or u in v for v in values for u in used):
                used.update(values)
                return spec

    def _due(self, slot: str, limit: int = 99) -> list[_Plant]:
        queue, due = self.queues[slot], list[_Plant]()
        while queue and queue[0].target <= len(self.out) and len(due) < limit:
            due.append(queue.popleft())
        return due

    def _record(self, plant: _Plant, index: int) -> None:
        spec = plant.spec
        if plant.part == "said":
            self.said[plant.seq] = index
            return
        self.facts.append(Fact(plant.kind, spec["value"], index, spec["query"], spec.get("stale"),
                               self.said.get(plant.seq)))

    # messages

    def _call(self, name: str, args: dict[str, Any], result: str, text: str = "", error: bool = False) -> int:
        """One assistant tool call and its result; returns the result's index."""
        self.calls += 1
        cid = f"call_{self.calls:05d}"
        if self.quote is not None:
            text, self.quote = f"That fails with `{self.quote}`. {text}".strip(), None
        self.out.append({"role": "assistant", "content": text, "tool_calls": [
            {"id": cid, "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}]})
        message: Message = {"role": "tool", "tool_call_id": cid, "name": name, "content": result}
        if error:
            message["is_error"] = True
        self.out.append(message)
        return len(self.out) - 1

    def build(self) -> Session:
        while len(self.out) < self.n - 1:
            self._turn()
        self.out.append({"role": "user", "content": "Next: look at where we are overall. Summarize the state "
                         "of the work and run the full test suite once more."})
        return Session(self.out, sorted(self.facts, key=lambda f: (f.index, f.kind)))

    def _turn(self) -> None:
        due = self._due("user")
        pieces = [p.spec["said"] if p.part == "said" else p.spec["fixed"] if p.part == "fixed"
                  else p.spec.get("text", p.spec["value"]) for p in due]
        if len(self.out) == 1:
            pieces.insert(0, "We're cleaning up the shop service: get the test suite green and finish the "
                             "payments refactor. Ground rules for the whole session:")
        elif pieces and due[0].kind == "instruction":
            pieces.insert(0, "One more rule from now on:")
        if not pieces:
            pieces.append(self.rng.choice(FILLER).format(p=self.rng.choice(READ_PATHS)))
        self.out.append({"role": "user", "content": " ".join(pieces)})
        for plant in due:
            self._record(plant, len(self.out) - 1)
        for _ in range(self.rng.randint(1, 4)):
            if len(self.out) >= self.n - 3:
                break
            self._step()
        self._say()

    def _say(self) -> None:
        due = self._due("say", 2)
        text = " ".join(p.spec.get("sentence") or p.spec["text"] for p in due)
        if not text:
            failure = self.rng.choice(NOISE_FAILURES)
            text = self.rng.choice(SAYS).format(p=self.rng.choice(READ_PATHS), t=failure[0], e=failure[1])
        if self.quote is not None:
            text, self.quote = f"The run failed with `{self.quote}`; I'll come back to it. {text}", None
        self.out.append({"role": "assistant", "content": text})
        for plant in due:
            self._record(plant, len(self.out) - 1)

    def _step(self) -> None:
        if self.resolve is not None:
            (command, position), self.resolve = self.resolve, None
            index = self._call("bash", {"command": command}, self._passing(command),
                               "I fixed the cause; rerunning the same command.")
            fact = self.facts[position]
            self.facts[position] = Fact(fact.kind, fact.value, fact.index, fact.query, resolved=index)
            return
        due = self._due("tool", 1)
        if due:
            plant = due[0]
            index = {"file": self._file_step, "error": self._error_step}.get(plant.kind, self._id_step)(plant)
            self._record(plant, index)
            self.errors += plant.kind == "error"
            if plant.kind == "error" and self.errors % 2:  # every other failure is fixed right after
                self.resolve = (plant.spec["command"], len(self.facts) - 1)
            return
        self._noise()

    def _snippet(self) -> str:
        return self.rng.choice(BLOCKS).format(a="entry", A="Entry", U="ENTRY", b="amount")

    def _file_step(self, plant: _Plant) -> int:
        """A planted file change; returns the index of the call that names the path."""
        path, op = plant.spec["value"], plant.spec["op"]
        folder, _, base = path.rpartition("/")
        if op == "write_file":
            self._call(op, {"path": path, "content": self._snippet()}, f"Wrote {path}", f"Creating {path}.")
        elif op == "edit_file":
            self._call(op, {"path": path, "old": "timeout = 5.0", "new": "timeout = 30.0"}, f"Edited {path}: 1 replacement")
        elif op == "apply_patch":
            patch = f"--- a/{path}\n+++ b/{path}\n@@ -1,3 +1,4 @@\n import logging\n+import time\n from typing import Any\n"
            self._call(op, {"path": path, "patch": patch}, "Patch applied: 1 hunk")
        elif op == "rm":
            self._call("bash", {"command": f"git rm -q {path}"}, "exit code: 0", "This module is dead code now; removing it.")
        elif op == "sed":
            self._call("bash", {"command": f"sed -i 's/retries=3/retries=5/g' {path}"}, "exit code: 0")
        elif op == "mv":
            self._call("bash", {"command": f"mv {folder}/legacy_{base} {path}"}, "exit code: 0")
        else:
            self._call("bash", {"command": f"cat > {path} <<'EOF'\n{self._snippet()}EOF"}, "exit code: 0")
        return len(self.out) - 2

    def _error_step(self, plant: _Plant) -> int:
        spec = plant.spec
        value, command = spec["value"], spec["command"]
        if spec["pytest"]:
            target = command.split()[1].split("/test_")[0]
            output = _pytest(self.rng, self.trc, (f"{target}/test_{self.rng.choice(ENTITIES)}.py::test_{self.rng.choice(NOUNS)}", value), target)
        elif command.startswith("docker"):
            output = f"[+] Running 1/2\n \u2714 Container shop-db-1   Running\n \u2718 Container shop-api-1  Error\n{value}\nexit code: 1"
        elif command.startswith("pip"):
            output = f"Collecting httpx>=0.27\n  Using cached httpx-0.27.0-py3-none-any.whl\n{value}\nexit code: 1"
        else:
            output = ("Traceback (most recent call last):\n"
                      f'  File "/home/dev/shop/.venv/lib/python3.12/site-packages/shop/cli.py", line {self.rng.randint(20, 300)}, in main\n'
                      "    return run(args)\n"
                      f'  File "/home/dev/shop/src/shop/core/boot.py", line {self.rng.randint(20, 300)}, in run\n'
                      "    connect(settings)\n"
                      f"{value}\nexit code: {self.rng.choice([1, 1, 2, 125])}")
        index = self._call("bash", {"command": command}, output, error=self.rng.random() < 0.5)
        self.quote = value
        return index

    def _id_step(self, plant: _Plant) -> int:
        command, output = plant.spec["text"]
        return self._call("bash", {"command": command}, output)

    def _passing(self, command: str) -> str:
        if command.startswith("pytest"):
            return _pytest(self.rng, self.trc // 2, None, command.split()[1].split("/test_")[0])
        return "done\nexit code: 0"

    def _noise(self) -> None:
        rng, r = self.rng, self.rng.random()
        path = rng.choice(READ_PATHS)
        if r < 0.28:
            self._call("read_file", {"path": path}, self.dumps[path], rng.choice(["", f"Let me read {path}."]))
        elif r < 0.46:
            failure = rng.choice(NOISE_FAILURES) if rng.random() < 0.4 else None
            output = _pytest(rng, int(self.trc * rng.uniform(0.5, 1.2)), failure)
            self._call("bash", {"command": "pytest tests -v"}, output, error=failure is not None and rng.random() < 0.3)
            if failure:
                self.quote = failure[1]
        elif r < 0.56:
            hits = "\n".join(f"{p}:{rng.randint(10, 300)}:            raise ValueError(\"invalid {e} payload\")"
                             for p, e in zip(READ_PATHS, ENTITIES))
            self._call("grep", {"pattern": "raise ValueError", "path": "src/"}, hits)
        elif r < 0.66:
            command, output = rng.choice((("git status --short", " M src/shop/api/views.py\n M tests/test_api.py\n?? notes.txt"),
                                          ("git log --oneline -5", GIT_LOG), ("git diff --stat", " src/shop/api/views.py | 14 +++++++---\n 1 file changed")))
            self._call("bash", {"command": command}, output + "\nexit code: 0")
        elif r < 0.80:
            self._call("edit_file", {"path": path, "old": "timeout = 5.0", "new": "timeout = 10.0"}, f"Edited {path}: 1 replacement")
        elif r < 0.88:
            todos = [{"content": t, "status": rng.choice(["pending", "in_progress", "completed"])} for t in rng.sample(TODOS, 4)]
            self._call("todo_write", {"todos": todos}, "Todos updated")
        elif r < 0.93:
            self._call("bash", {"command": "docker compose ps"}, DOCKER_PS + "exit code: 0")
        else:
            self._call("bash", {"command": "ls src/shop src/shop/api"}, "app.py\ndb.py\nmodels.py\nsettings.py\napi\ncore\n\nsrc/shop/api:\nserializers.py\nviews.py\nexit code: 0")


def make_session(seed: int, messages: int, *, tool_result_chars: int = 9000, facts_per_kind: int | None = None) -> Session:
    """A session of about ``messages`` messages (it ends on a user turn) with planted facts.

    ``tool_result_chars`` is the typical size of a large tool result (file dumps, test runs);
    ``facts_per_kind`` defaults to one per 250 messages, at least 6.
    """
    per_kind = facts_per_kind if facts_per_kind is not None else max(6, messages // 250)
    session = _Builder(seed, messages, tool_result_chars, per_kind).build()
    session.seed = seed
    return session
