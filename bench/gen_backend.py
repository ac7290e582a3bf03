"""Backend sessions: a payments developer in Kraków and a coding agent on a Kotlin/Spring Boot service.

    from gen_backend import make_session
    session = make_session(seed=1, messages=400)     # about 600k characters, six facts of each kind
    session = make_session(seed=1, messages=3000)    # about 4.7M characters, twelve of each kind
    for fact in session.facts:
        print(fact.kind, fact.index, fact.value, "|", fact.query)

``session.messages`` is an OpenAI chat conversation: a system prompt, the user's turns (Polish mixed with English,
curt or chatty), the agent's ``tool_calls`` (``shell``, ``gradle``, ``kubectl``, ``psql``, ``read_file``,
``edit_file``, ``write_file``, ``git``, ``todo``) each answered at once by a ``tool`` message: Gradle builds with
Kotlin compiler warnings and detekt/ktlint reports, JUnit 5 and Kotest runs with Testcontainers, Flyway migrations,
``psql`` tables and query plans, Kafka consumer lag, ``kubectl`` pod lists and Spring logs with stack traces, Helm,
Grafana alerts, OpenAPI specs, git logs and diffs, and a todo list the agent keeps. It ends on an answer without calls
and a last user turn.

``session.facts`` are what a compacted context must keep (:class:`sessiongen.Fact`): the user's standing rules
(some in Polish, some adopted from a pasted document, some with a condition), corrections of an earlier value (most of
them near misses of it, several far from it), decisions (a third revise the user's own earlier choice), whole error
lines of a tool's output (some resolved by a later passing run of the same tool), files written, identifiers said or
printed, findings and plans. ``session.pasted`` lists what the user pasted (a PSP's API change notice, a QA ticket, a
post-incident review, an ADR, a build scan excerpt, a compliance mail): its imperatives are not the user's.
Same seed and size, same bytes; a planted value occurs nowhere before its message and nowhere in the filler.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from functools import partial
from dataclasses import dataclass
from typing import Any

from sessiongen import Fact, Message, Session, text_of

KINDS = ("instruction", "correction", "decision", "error", "file", "identifier", "finding", "plan")
TOOLS = ("shell", "gradle", "kubectl", "psql", "read_file", "edit_file", "write_file", "git", "todo")
MIN_MESSAGES = 60
CHARS_PER_MESSAGE = 1570  # 400 messages about 630k characters, 3000 about 4.7M

__all__ = ["KINDS", "MIN_MESSAGES", "TOOLS", "make_session", "per_kind", "text_of"]


def per_kind(messages: int) -> int:
    """Facts of each kind in a session of ``messages``: 1 at 60, 6 at 400, 12 at 3000, growing linearly between."""
    if messages <= 400:
        return max(1, int(1 + 5 * (messages - 60) / 340 + 0.5))
    return int(6 + 6 * (messages - 400) / 2600 + 0.5)


# --- vocabulary --------------------------------------------------------------------------------------------------
# The filler speaks only of these modules, classes, tables and topics; planted values are built from the X_ words
# below (or from random ids) in shapes the filler never prints, so a value found in a compacted prompt was kept.

MODULES = ("payments-api", "payments-core", "settlement-worker", "ledger-service", "webhook-gateway", "merchant-bff")
CHARTS = ("payments-api", "settlement-worker", "ledger-service", "webhook-gateway", "merchant-bff")
CLASSES = ("RefundService", "CheckoutController", "LedgerPostingService", "WebhookDispatcher", "SettlementListener",
           "MerchantRepository", "IdempotencyFilter", "PaymentMapper", "CaptureService", "AuthorizationClient",
           "OutboxPublisher", "CurrencyFormatter", "MerchantConfigCache", "PaymentStateMachine", "RefundController",
           "LedgerBalanceQuery", "WebhookSignatureVerifier", "SettlementFileParser")
TABLES = ("payments", "refunds", "ledger_entries", "merchants", "webhook_deliveries", "settlement_batches",
          "idempotency_keys", "outbox_events", "payment_attempts")
TOPICS = ("payments.captured.v1", "refunds.requested.v1", "settlement.batches.v2", "webhooks.outbound.v1",
          "ledger.postings.v1", "payments.authorized.v1")
GROUPS = ("settlement-worker", "ledger-projector", "webhook-sender", "refund-processor", "audit-sink")
PEOPLE = ("Marta", "Tomek", "Kuba", "Paweł", "Ola", "Agnieszka", "Michał", "Kasia", "Bartek", "Ewa", "Grzesiek")
FUNS = ("refund", "capture", "authorize", "post", "dispatch", "reconcile", "findByMerchant", "toDto", "validate",
        "handle", "publish", "retry", "markSettled", "computeFee", "lock", "verify", "parseLine", "apply")

X_WORDS = ("chargeback", "dispute", "payout", "fxquote", "mandate", "blik", "escrow", "dunning", "reserve",
           "velocity", "sanction", "kyb", "installment", "rebill", "acquirer", "tokenvault")
X_CAMEL = ("Chargeback", "Dispute", "Payout", "FxQuote", "SepaMandate", "BlikAlias", "Escrow", "Dunning",
           "RollingReserve", "Velocity", "SanctionScreening", "KybDocument", "Installment", "Rebill",
           "AcquirerRouting", "TokenVault")
X_SUFFIX = ("Service", "Mapper", "Validator", "Client", "Job", "Policy", "Repository", "Listener", "Calculator",
            "Resolver", "Scheduler", "Handler")
X_TABLES = ("chargebacks", "dispute_evidence", "payouts", "fx_quotes", "sepa_mandates", "escrow_holds",
            "dunning_attempts", "rolling_reserves", "velocity_counters", "sanction_hits", "kyb_documents",
            "installment_plans", "rebill_schedules", "acquirer_routes")
X_COLS = ("opened_at", "booked_on", "amount_minor", "merchant_ref", "status_changed_at", "due_date", "acquirer_code",
          "evidence_hash", "external_ref", "retry_count")
X_STATUS = ("AWAITING_EVIDENCE", "PENDING_REVIEW", "ON_HOLD", "REJECTED_BY_ACQUIRER", "WAITING_FOR_FUNDS",
            "MANUAL_CHECK", "EXPIRED_MANDATE", "STUCK_IN_CLEARING")

B62 = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
B36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def _ri(r: random.Random, a: int, b: int) -> int:
    """``r.randint(a, b)``, faster (the sessions draw a few hundred thousand of them)."""
    return a + int(r.random() * (b - a + 1))


def _ch(r: random.Random, seq: Any) -> Any:
    """``r.choice(seq)``, faster."""
    return seq[int(r.random() * len(seq))]


def _hex(r: random.Random, n: int) -> str:
    return format(r.getrandbits(4 * n), f"0{n}x")


def _tok(r: random.Random, n: int, alphabet: str = B62) -> str:
    return "".join(_ch(r, alphabet) for _ in range(n))


def _uuid(r: random.Random) -> str:
    h = _hex(r, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"


def _pkg(cls: str) -> str:
    low = "".join("_" + c.lower() if c.isupper() else c for c in cls).strip("_").split("_")
    return low[0]


def _snake(cls: str) -> str:
    return "".join("_" + c.lower() if c.isupper() else c for c in cls).strip("_")


def _clock(r: random.Random) -> str:
    return f"{_ri(r, 7, 23):02d}:{_ch(r, (0, 5, 10, 12, 15, 20, 25, 30, 35, 40, 45, 50, 55)):02d}"


def _ts(r: random.Random) -> str:
    return (f"2025-{_ri(r, 3, 6):02d}-{_ri(r, 10, 28):02d}T{_ri(r, 6, 22):02d}:{_ri(r, 0, 59):02d}:"
            f"{_ri(r, 0, 59):02d}.{_ri(r, 0, 999):03d}Z")


# --- filler tool outputs -----------------------------------------------------------------------------------------

THREADS = ("main", "http-nio-8080-exec-3", "http-nio-8080-exec-7", "ntainer#0-0-C-1", "ntainer#1-0-C-1",
           "scheduling-1", "HikariPool-1 housekeeper", "kafka-producer-network-thread | producer-1", "boundedElastic-4")
LOG_MSGS = (
    "Started {cls}Kt in {sec}.{ms} seconds (process running for {sec2}.{ms})",
    "Completed initialization in {ms} ms",
    "HikariPool-1 - Start completed.",
    "Published {n} outbox events to {topic}",
    "Received record partition={p} offset={off} key={uuid}",
    "Posting {n} ledger entries for batch {uuid}",
    "Webhook delivery {uuid} answered 200 in {ms} ms",
    "Webhook delivery {uuid} answered 503, retry {p}/5 scheduled",
    "Refund {uuid} moved REQUESTED -> APPROVED",
    "Capture {uuid} settled, fee {n} grosze",
    "GET /actuator/health/readiness 200 {ms}ms",
    "POST /v1/payments/{uuid}/refunds 201 {ms}ms",
    "Idempotency hit for key {uuid}, returning stored response",
    "Consumer group {group} assigned partitions [{topic}-{p}, {topic}-{p2}]",
    "Revoking previously assigned partitions [{topic}-{p}]",
    "Flyway Community Edition 10.{p}.0 by Redgate",
    "Successfully validated {n} migrations (execution time 00:00.{ms}s)",
    "Schema \"public\" is up to date. No migration necessary.",
    "Tomcat started on port 8080 (http) with context path '/'",
    "Exposing 4 endpoint(s) beneath base path '/actuator'",
)
WARN_MSGS = (
    "Slow query ({ms} ms): select * from {table} where merchant_id = ?",
    "Retrying webhook {uuid} after 503 from merchant endpoint",
    "Commit of offsets timed out for group {group}, will retry",
    "Connection to node 2 (kafka-2.kafka:9092) could not be established. Node may not be available.",
    "Request to {cls} took {ms} ms, above the 800 ms budget",
)
EXCEPTIONS = ("java.lang.IllegalStateException: payment already captured",
              "org.springframework.dao.CannotAcquireLockException: could not obtain lock on row in relation \"{table}\"",
              "java.net.SocketTimeoutException: Read timed out",
              "org.springframework.web.client.HttpServerErrorException$ServiceUnavailable: 503 Service Unavailable",
              "com.fasterxml.jackson.databind.exc.MismatchedInputException: Cannot deserialize value of type `long`")
SPRING_FRAMES = ("org.springframework.transaction.support.TransactionTemplate.execute(TransactionTemplate.java:140)",
                 "org.springframework.aop.framework.ReflectiveMethodInvocation.proceed(ReflectiveMethodInvocation.java:184)",
                 "org.springframework.kafka.listener.KafkaMessageListenerContainer$ListenerConsumer.doInvokeRecordListener"
                 "(KafkaMessageListenerContainer.java:2870)",
                 "org.springframework.web.servlet.FrameworkServlet.service(FrameworkServlet.java:885)",
                 "java.base/java.lang.Thread.run(Thread.java:1583)")


def _fill(r: random.Random, size: int, head: list[str], line: Callable[[], str], tail: list[str]) -> str:
    out = list(head)
    total = sum(len(s) + 1 for s in head) + sum(len(s) + 1 for s in tail)
    while total < size:
        s = line()
        out.append(s)
        total += len(s) + 1
    out.extend(tail)
    return "\n".join(out)


def _log_line(r: random.Random) -> str:
    roll = r.random()
    cls = _ch(r, CLASSES)
    logger = f"p.e.p.{_pkg(cls)}.{cls}"
    fmt = _ch(r, WARN_MSGS) if roll < 0.12 else _ch(r, LOG_MSGS)
    level = "WARN " if roll < 0.12 else ("DEBUG" if roll > 0.93 else "INFO ")
    msg = fmt.format(cls=cls, sec=_ri(r, 3, 19), sec2=_ri(r, 20, 40), ms=_ri(r, 2, 990), n=_ri(r, 1, 400),
                     topic=_ch(r, TOPICS), p=_ri(r, 0, 11), p2=_ri(r, 0, 11), off=_ri(r, 10_000, 9_999_999),
                     uuid=_uuid(r), group=_ch(r, GROUPS), table=_ch(r, TABLES))
    out = f"{_ts(r)} {level} 1 --- [{_ch(r, THREADS):>15}] {logger:<40} : {msg}"
    if roll < 0.035:
        cls2 = _ch(r, CLASSES)
        frames = [f"\tat pl.example.payments.{_pkg(cls2)}.{cls2}.{_ch(r, FUNS)}({cls2}.kt:{_ri(r, 20, 340)})"
                  for _ in range(_ri(r, 2, 4))]
        frames += [f"\tat {f}" for f in r.sample(SPRING_FRAMES, 3)]
        exc = _ch(r, EXCEPTIONS).format(table=_ch(r, TABLES))
        out = (f"{_ts(r)} ERROR 1 --- [{_ch(r, THREADS):>15}] {logger:<40} : Unhandled exception in {cls}\n{exc}\n"
               + "\n".join(frames) + f"\n\t... {_ri(r, 30, 120)} common frames omitted")
    return out


def out_logs(r: random.Random, size: int) -> str:
    return _fill(r, size, [], lambda: _log_line(r), [])


def out_pods(r: random.Random, size: int) -> str:
    head = ["NAME                                    READY   STATUS      RESTARTS        AGE"]

    def line() -> str:
        status = _ch(r, ("Running", "Running", "Running", "Running", "Completed", "CrashLoopBackOff", "Pending"))
        restarts = str(_ri(r, 0, 3)) if r.random() < 0.8 else f"{_ri(r, 4, 40)} ({_ri(r, 2, 59)}m ago)"
        name = f"{_ch(r, CHARTS)}-{_hex(r, 9)}-{_tok(r, 5, B36)}"
        return f"{name:<40}{_ch(r, ('1/1', '2/2', '0/1', '1/2')):<8}{status:<12}{restarts:<16}{_ri(r, 1, 30)}d"
    return _fill(r, size, head, line, [])


def out_events(r: random.Random, size: int) -> str:
    head = ["LAST SEEN   TYPE      REASON              OBJECT                                      MESSAGE"]
    reasons = (("Normal", "Scheduled", "Successfully assigned payments/{pod} to gke-waw-pool-{n}"),
               ("Normal", "Pulled", "Container image \"europe-docker.pkg.dev/pay/{chart}:1.{n}.{m}\" already present"),
               ("Warning", "Unhealthy", "Readiness probe failed: HTTP probe failed with statuscode: 503"),
               ("Normal", "ScalingReplicaSet", "Scaled up replica set {pod} to {n}"),
               ("Warning", "FailedScheduling", "0/{n} nodes are available: {m} Insufficient memory."),
               ("Normal", "Killing", "Stopping container {chart}"))

    def line() -> str:
        typ, reason, msg = _ch(r, reasons)
        chart = _ch(r, CHARTS)
        pod = f"{chart}-{_hex(r, 9)}-{_tok(r, 5, B36)}"
        msg = msg.format(pod=pod, chart=chart, n=_ri(r, 1, 9), m=_ri(r, 1, 40))
        return f"{_ri(r, 1, 59)}m{'':<9}{typ:<10}{reason:<20}pod/{pod:<40}{msg}"
    return _fill(r, size, head, line, [])


def out_helm(r: random.Random, size: int) -> str:
    head = ["REVISION\tUPDATED                 \tSTATUS    \tCHART              \tAPP VERSION\tDESCRIPTION"]

    def line() -> str:
        chart = _ch(r, CHARTS)
        return (f"{_ri(r, 40, 400)}\tWed Jun {_ri(r, 1, 28):2d} {_clock(r)}:{_ri(r, 10, 59)} 2025\t"
                f"{_ch(r, ('superseded', 'superseded', 'deployed', 'failed')):<10}\t{chart}-0.{_ri(r, 10, 60)}.0\t"
                f"1.{_ri(r, 10, 90)}.{_ri(r, 0, 9)}\tUpgrade complete")
    return _fill(r, size, head, line, [])


def _kt_fun(r: random.Random) -> list[str]:
    fn = _ch(r, FUNS)
    arg = _ch(r, ("command", "event", "request", "paymentId", "batch"))
    body = ["    @Transactional" if r.random() < 0.4 else "",
            f"    fun {fn}({arg}: {_ch(r, ('RefundCommand', 'PaymentEvent', 'UUID', 'SettlementBatch'))}): "
            f"{_ch(r, ('RefundResult', 'Unit', 'PaymentDto', 'Boolean'))} {{"]
    stmts = (f"        val payment = paymentRepository.findById({arg}.paymentId) ?: throw PaymentNotFound({arg}.paymentId)",
             f"        require({arg}.amount <= payment.capturedAmount) {{ \"amount exceeds captured\" }}",
             f"        log.info(\"{fn} {{}} for merchant {{}}\", {arg}.id, payment.merchantId)",
             "        val fee = feeCalculator.computeFee(payment.amount, payment.currency)",
             f"        outboxPublisher.publish(\"{_ch(r, TOPICS)}\", payment.id.toString(), payment.toEvent())",
             "        if (payment.status == PaymentStatus.SETTLED) return RefundResult.AlreadySettled",
             f"        meterRegistry.counter(\"payments.{fn}\", \"result\", \"ok\").increment()",
             "        val entries = ledger.entriesFor(payment.id).filter { it.amount > 0 }",
             f"        // TODO({_ch(r, PEOPLE).lower()}): remove once {_ch(r, MODULES)} is on the new client",
             "        return repository.save(payment.copy(updatedAt = clock.instant())).toDto()")
    body += r.sample(stmts, _ri(r, 3, 7))
    body.append("    }")
    body.append("")
    return [b for b in body if b or r.random() < 0.5]


def out_kotlin(r: random.Random, size: int, cls: str | None = None) -> str:
    cls = cls or _ch(r, CLASSES)
    head = [f"package pl.example.payments.{_pkg(cls)}", "",
            "import io.micrometer.core.instrument.MeterRegistry",
            "import org.slf4j.LoggerFactory",
            "import org.springframework.stereotype.Service",
            "import org.springframework.transaction.annotation.Transactional",
            "import java.time.Clock", "import java.util.UUID", "",
            "@Service", f"class {cls}(", "    private val paymentRepository: PaymentRepository,",
            "    private val outboxPublisher: OutboxPublisher,", "    private val meterRegistry: MeterRegistry,",
            "    private val clock: Clock,", ") {", f"    private val log = LoggerFactory.getLogger({cls}::class.java)", ""]
    lines: list[str] = []
    total = sum(len(h) + 1 for h in head)
    while total < size:
        chunk = _kt_fun(r)
        lines.extend(chunk)
        total += sum(len(c) + 1 for c in chunk)
    body = head + lines + ["}"]
    return "\n".join(f"{i + 1:>4}  {s}" for i, s in enumerate(body))


def out_yaml(r: random.Random, size: int) -> str:
    head = ["spring:", "  application:", f"    name: {_ch(r, CHARTS)}", "  datasource:",
            f"    url: jdbc:postgresql://pg-payments.internal:{_ch(r, (5432, 6432))}/payments",
            "    hikari:", f"      maximum-pool-size: {_ch(r, (10, 16, 20, 24))}", "  kafka:",
            "    bootstrap-servers: kafka-0.kafka:9092,kafka-1.kafka:9092,kafka-2.kafka:9092", "    consumer:",
            f"      group-id: {_ch(r, GROUPS)}", "      max-poll-records: 500", "      auto-offset-reset: earliest",
            "  flyway:", "    locations: classpath:db/migration", "management:", "  endpoints:", "    web:",
            "      exposure:", "        include: health,info,prometheus,metrics", "psp:", "  client:"]
    keys = ("connect-timeout", "base-path", "webhook-path", "batch-size", "poll-interval", "cache-size", "enabled")

    def line() -> str:
        k = _ch(r, keys)
        v = {"connect-timeout": f"{_ri(r, 1, 5)}s", "base-path": f"/v{_ri(r, 1, 2)}", "enabled": "true",
             "webhook-path": "/hooks/psp", "batch-size": str(_ch(r, (100, 200, 1000))),
             "poll-interval": f"{_ri(r, 1, 30)}s", "cache-size": str(_ri(r, 100, 5000))}[k]
        return f"    {_ch(r, TABLES).replace('_', '-')}-{k}: {v}"
    return _fill(r, size, head, line, [])


def out_openapi(r: random.Random, size: int) -> str:
    head = ["openapi: 3.0.3", "info:", "  title: Payments API", f"  version: 1.{_ri(r, 10, 40)}.0", "paths:"]

    def line() -> str:
        res = _ch(r, ("payments", "refunds", "merchants", "webhooks", "settlements"))
        verb = _ch(r, ("get", "post", "patch"))
        return (f"  /v1/{res}/{{id}}{_ch(r, ('', '/events', '/capture', '/cancel'))}:\n    {verb}:\n"
                f"      operationId: {verb}{res.capitalize()}{_ri(r, 1, 9)}\n      responses:\n"
                f"        '{_ch(r, (200, 201, 202))}':\n          description: OK\n"
                f"        '{_ch(r, (400, 404, 409, 422))}':\n          $ref: '#/components/responses/Problem'")
    return _fill(r, size, head, line, [])


def _task(r: random.Random) -> str:
    mod = _ch(r, MODULES)
    task = _ch(r, ("compileKotlin", "compileTestKotlin", "processResources", "classes", "jar", "test",
                     "detekt", "ktlintCheck", "bootJar", "jacocoTestReport", "generateOpenApiDocs"))
    state = _ch(r, ("", "", " UP-TO-DATE", " FROM-CACHE", " NO-SOURCE"))
    return f"> Task :{mod}:{task}{state}"


def _warn(r: random.Random) -> str:
    cls = _ch(r, CLASSES)
    msg = _ch(r, ("Parameter 'event' is never used", "Variable 'fee' is never used",
                    "'getter for createdAt: Instant' is deprecated. Use occurredAt", "Unchecked cast: Any? to Map<String, Any>",
                    "This annotation is not applicable to target 'value parameter'"))
    return (f"w: file:///home/kuba/src/payments/{_ch(r, MODULES)}/src/main/kotlin/pl/example/payments/{_pkg(cls)}/"
            f"{cls}.kt:{_ri(r, 10, 300)}:{_ri(r, 5, 40)} {msg}")


def out_build(r: random.Random, size: int, ok: bool = True) -> str:
    head = ["Starting a Gradle Daemon (subsequent builds will be faster)" if r.random() < 0.3 else
            "Configuration cache entry reused.", f"> Configure project :{_ch(r, MODULES)}"]
    tail = ["", "BUILD SUCCESSFUL" + f" in {_ri(r, 20, 200)}s",
            f"{_ri(r, 40, 90)} actionable tasks: {_ri(r, 5, 30)} executed, {_ri(r, 10, 60)} up-to-date"]
    return _fill(r, size, head, lambda: _warn(r) if r.random() < 0.25 else _task(r), tail if ok else [])


def _test_line(r: random.Random) -> str:
    cls = _ch(r, CLASSES)
    name = _ch(r, ("refund is idempotent", "rejects amount above captured", "publishes outbox event",
                     "retries on 503", "maps PSP status", "keeps ledger balanced", "ignores duplicate webhook",
                     "parses settlement file", "locks payment row", "returns 409 on conflict"))
    state = "PASSED" if r.random() < 0.95 else "SKIPPED"
    if r.random() < 0.07:
        return (f"{_ts(r)[11:23]} [Test worker] INFO  tc.postgres:15-alpine -- Container postgres:15-alpine started "
                f"in PT{_ri(r, 1, 9)}.{_ri(r, 100, 999)}S")
    return f"{cls}Test > {name}({'' if r.random() < 0.7 else 'UUID'}) {state}"


def out_tests(r: random.Random, size: int, ok: bool = True) -> str:
    n = _ri(r, 120, 480)
    head = [f"> Task :{_ch(r, MODULES)}:test", "",
            f"{_ts(r)[11:23]} [Test worker] INFO  tc.testcontainers.DockerClientProviderStrategy -- Found Docker "
            "environment with local Unix socket (unix:///var/run/docker.sock)"]
    tail = ["", f"{n} tests completed, 0 failed, {_ri(r, 0, 6)} skipped", "",
            f"BUILD SUCCESSFUL in {_ri(r, 1, 4)}m {_ri(r, 1, 59)}s"]
    return _fill(r, size, head, lambda: _test_line(r), tail if ok else [])


def out_lint(r: random.Random, size: int) -> str:
    head = [f"> Task :{_ch(r, MODULES)}:detekt", "", "complexity - 12min debt"]

    def line() -> str:
        cls = _ch(r, CLASSES)
        rule = _ch(r, ("MagicNumber", "MaxLineLength", "ReturnCount", "TooManyFunctions", "UnusedPrivateMember"))
        return (f"\t{rule} - [{_ch(r, FUNS)}] at {_ch(r, MODULES)}/src/main/kotlin/pl/example/payments/"
                f"{_pkg(cls)}/{cls}.kt:{_ri(r, 10, 300)}:{_ri(r, 5, 60)}")
    return _fill(r, size, head, line, ["", "Overall debt: 1h 5min", "BUILD SUCCESSFUL in 38s"])


def out_rows(r: random.Random, size: int) -> str:
    table = _ch(r, TABLES)
    head = ["                  id                  | merchant_id |  status   | amount_minor | currency |        "
            "created_at", "-" * 38 + "+-------------+-----------+--------------+----------+----------------------------"]

    def line() -> str:
        return (f" {_uuid(r)} | m-{_ri(r, 10000, 99999)}     | {_ch(r, ('CAPTURED', 'REFUNDED', 'PENDING  ', 'FAILED   ')):<9} |"
                f" {_ri(r, 100, 9_999_999):>12} | PLN      | 2025-0{_ri(r, 3, 6)}-{_ri(r, 10, 28)} "
                f"{_clock(r)}:{_ri(r, 10, 59)}+02")
    rows = _fill(r, size, head, line, [])
    return rows + f"\n({rows.count(chr(10)) - 1} rows)\n\n-- {table}"


def out_explain(r: random.Random, size: int) -> str:
    table = _ch(r, TABLES)
    head = ["                                   QUERY PLAN", "-" * 80,
            f" Limit  (cost=0.43..{_ri(r, 10, 900)}.12 rows=50 width={_ri(r, 60, 200)}) "
            f"(actual time=0.031..{_ri(r, 1, 90)}.4 rows=50 loops=1)"]

    def line() -> str:
        return (f"   ->  Index Scan using ix_{table}_merchant_created on {table}  (cost=0.43..{_ri(r, 100, 9000)}.0 "
                f"rows={_ri(r, 10, 90000)} width={_ri(r, 40, 200)}) (actual time=0.0{_ri(r, 10, 99)}.."
                f"{_ri(r, 1, 40)}.{_ri(r, 1, 9)} rows={_ri(r, 1, 500)} loops=1)\n         Index Cond: "
                f"(merchant_id = 'm-{_ri(r, 10000, 99999)}'::text)\n         Buffers: shared hit={_ri(r, 3, 900)}")
    return _fill(r, size, head, line, [" Planning Time: 0.2 ms", f" Execution Time: {_ri(r, 1, 90)}.3 ms"])


def out_flyway(r: random.Random, size: int) -> str:
    head = [" installed_rank | version |          description           | success |       installed_on",
            "----------------+---------+--------------------------------+---------+-------------------------"]
    descs = ("create payments", "add refunds", "ledger entries", "webhook deliveries", "idempotency keys",
             "outbox events", "settlement batches", "index payments merchant", "add currency column")

    def line() -> str:
        v = _ri(r, 1, 46)
        return (f" {v:>14} | {v:>7} | {_ch(r, descs):<30} | t       | 2025-0{_ri(r, 1, 6)}-{_ri(r, 10, 28)} "
                f"{_clock(r)}:{_ri(r, 10, 59)}")
    return _fill(r, size, head, line, [])


def out_lag(r: random.Random, size: int) -> str:
    group = _ch(r, GROUPS)
    head = ["", "GROUP             TOPIC                    PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG   "
            "CONSUMER-ID"]

    def line() -> str:
        cur = _ri(r, 100_000, 9_000_000)
        lag = _ch(r, (0, 0, 0, _ri(r, 1, 90)))
        return (f"{group:<18}{_ch(r, TOPICS):<25}{_ri(r, 0, 11):<11}{cur:<16}{cur + lag:<16}{lag:<6}"
                f"consumer-{group}-{_ri(r, 1, 6)}-{_uuid(r)}")
    return _fill(r, size, head, line, [])


def out_health(r: random.Random, size: int) -> str:
    parts = ['{"status":"UP","components":{"db":{"status":"UP","details":{"database":"PostgreSQL",'
             '"validationQuery":"isValid()"}},"diskSpace":{"status":"UP"},"kafka":{"status":"UP"}}}']
    total = len(parts[0])
    while total < size:
        s = json.dumps({"alert": _ch(r, ("HighErrorRate", "SlowRefunds", "KafkaLagHigh", "PodRestarts")),
                        "state": _ch(r, ("normal", "pending", "firing")), "service": _ch(r, CHARTS),
                        "value": round(r.random() * 100, 2), "at": _ts(r)})
        parts.append(s)
        total += len(s) + 1
    return "\n".join(parts)


def out_gitlog(r: random.Random, size: int) -> str:
    def line() -> str:
        who = _ch(r, PEOPLE)
        msg = _ch(r, ("fix flaky test in {c}", "bump spring boot", "refactor {c}", "add index on {t}",
                        "PAY-{n} handle 503 from PSP", "tune hikari pool", "log correlation id in {c}",
                        "PAY-{n} webhook retries with jitter", "chore: ktlint format")).format(
            c=_ch(r, CLASSES), t=_ch(r, TABLES), n=_ri(r, 100, 999))
        return f"{_hex(r, 7)} {msg} ({who}, {_ri(r, 1, 30)} days ago)"
    return _fill(r, size, [], line, [])


def out_diff(r: random.Random, size: int) -> str:
    cls = _ch(r, CLASSES)
    path = f"{_ch(r, MODULES)}/src/main/kotlin/pl/example/payments/{_pkg(cls)}/{cls}.kt"
    head = [f"diff --git a/{path} b/{path}", f"index {_hex(r, 7)}..{_hex(r, 7)} 100644", f"--- a/{path}",
            f"+++ b/{path}", f"@@ -{_ri(r, 10, 200)},12 +{_ri(r, 10, 200)},14 @@ class {cls}("]
    stmts = _kt_fun(r) + _kt_fun(r)

    def line() -> str:
        return _ch(r, ("+", "-", " ", " ")) + _ch(r, stmts)
    return _fill(r, size, head, line, [])


def out_status(r: random.Random, size: int) -> str:
    head = [f"On branch feature/PAY-{_ri(r, 100, 999)}-{_ch(r, ('refund-retries', 'ledger-fix', 'webhooks'))}",
            "Changes not staged for commit:"]

    def line() -> str:
        cls = _ch(r, CLASSES)
        return f"\tmodified:   {_ch(r, MODULES)}/src/main/kotlin/pl/example/payments/{_pkg(cls)}/{cls}.kt"
    return _fill(r, min(size, 900), head, line, ["", "no changes added to commit (use \"git add\" and/or \"git commit -a\")"])


# --- the filler: what the agent does between planted facts ------------------------------------------------------

Action = tuple[str, dict[str, Any], Callable[[random.Random, int], str], str]


def _action(r: random.Random) -> tuple[Action, str]:
    """(tool, arguments, output maker, what the agent says it did) and how the user asks for it."""
    roll = r.randrange(17)
    mod, chart, cls, t, g = _ch(r, MODULES), _ch(r, CHARTS), _ch(r, CLASSES), _ch(r, TABLES), _ch(r, GROUPS)
    ask = _ch(r, ASKS[roll]).format(mod=mod, chart=chart, cls=cls, t=t, g=g, time=_clock(r), line=_ri(r, 12, 340),
                                      person=_ch(r, PEOPLE))
    return _action_at(r, roll, mod, chart, cls, t, g), ask


ASKS = (
    ("zbuduj {mod} bez testów", "build {mod}, skip tests", "odpal build {mod}, {person} mówi że się sypie"),
    ("odpal testy w {mod}", "run the {cls} tests", "puść testy {cls}, tylko te"),
    ("detekt + ktlint na {mod}", "lint {mod} pls", "sprawdź czy detekt przechodzi na {mod}"),
    ("pokaż pody", "check the pods, {person} says {chart} looks unhealthy since {time}", "jak tam pody?"),
    ("pokaż logi z {chart}, coś sypie 500-kami od {time}", "logs from {chart} pls", "{person} pisze na slacku, że "
     "{chart} rzuca wyjątkami od {time}, sprawdzisz?"),
    ("zobacz eventy w namespace payments", "look at the events, something is flapping", "eventy?"),
    ("ile mamy wierszy w {t} z ostatniej doby?", "show me the latest rows in {t}", "co siedzi w {t}?"),
    ("czemu zapytanie na {t} tak wolno idzie? p99 skoczyło koło {time}", "what does the plan for {t} look like",
     "explain na {t} pls"),
    ("pokaż historię migracji", "which migrations are applied on stg?", "flyway history?"),
    ("sprawdź lag na {g}", "check lag for {g} pls", "{g} nie nadąża? sprawdź"),
    ("sprawdź czy {chart} na porcie 8081 odpowiada", "is the health endpoint on {chart} ok? port 8081",
     "health {chart}?"),
    ("zerknij na {cls}.kt:{line}, tam chyba jest bug", "can you look at {cls}.kt:{line}?", "otwórz {cls}"),
    ("pokaż application.yml z {mod}", "what's in the {mod} config", "jaki mamy pool w {mod}?"),
    ("rzuć okiem na openapi dla refundów", "check the OpenAPI spec for the refunds endpoints", "openapi?"),
    ("co się ostatnio działo w repo?", "git log, who touched {cls} recently", "historia commitów pls"),
    ("co się zmieniło od wczoraj?", "show me the last diff", "diff HEAD~1"),
    ("historia rolloutów {chart}?", "rollout history of {chart} please", "kiedy ostatnio deployowaliśmy {chart}?"),
)


def _action_at(r: random.Random, roll: int, mod: str, chart: str, cls: str, t: str, g: str) -> Action:
    if roll == 0:
        return ("gradle", {"args": [f":{mod}:build", "-x", "test"]}, out_build, f"build of {mod} is green")
    if roll == 1:
        return ("gradle", {"args": [f":{mod}:test", "--tests", f"*{cls}*"]}, out_tests, f"tests in {mod} pass")
    if roll == 2:
        return ("gradle", {"args": [f":{mod}:detekt", ":ktlintCheck"]}, out_lint, "detekt only reports old debt")
    if roll == 3:
        return ("kubectl", {"args": ["-n", "payments", "get", "pods", "-o", "wide"]}, out_pods, "pods listed")
    if roll == 4:
        return ("kubectl", {"args": ["-n", "payments", "logs", f"deploy/{chart}", "--since=30m"]}, out_logs,
                f"logs of {chart} read")
    if roll == 5:
        return ("kubectl", {"args": ["-n", "payments", "get", "events", "--sort-by=.lastTimestamp"]}, out_events,
                "events checked")
    if roll == 6:
        return ("psql", {"db": "payments_ro", "sql": f"select * from {t} order by created_at desc limit 200;"},
                out_rows, f"latest rows of {t} look sane")
    if roll == 7:
        return ("psql", {"db": "payments_ro", "sql": f"explain (analyze, buffers) select * from {t} "
                         "where merchant_id = $1 order by created_at desc limit 50;"}, out_explain, "plan uses the index")
    if roll == 8:
        return ("psql", {"db": "payments_ro", "sql": "select * from flyway_schema_history order by installed_rank;"},
                out_flyway, "migrations applied")
    if roll == 9:
        return ("shell", {"command": f"kafka-consumer-groups.sh --bootstrap-server kafka-0.kafka:9092 --describe "
                          f"--group {g}"}, out_lag, f"lag on {g} is small")
    if roll == 10:
        return ("shell", {"command": f"curl -s http://{chart}.payments.svc:8081/actuator/health | jq -c ."},
                out_health, f"{chart} health is UP")
    if roll == 11:
        path = f"{mod}/src/main/kotlin/pl/example/payments/{_pkg(cls)}/{cls}.kt"
        return ("read_file", {"path": path}, lambda rr, s: out_kotlin(rr, s, cls), f"read {cls}.kt")
    if roll == 12:
        return ("read_file", {"path": f"{mod}/src/main/resources/application.yml"}, out_yaml, "config read")
    if roll == 13:
        return ("read_file", {"path": "api/openapi/payments-v1.yaml"}, out_openapi, "OpenAPI spec read")
    if roll == 14:
        return ("git", {"args": ["log", "--oneline", "-n", "200"]}, out_gitlog, "history checked")
    if roll == 15:
        return ("git", {"args": ["diff", "HEAD~1"]}, out_diff, "diff reviewed")
    return ("kubectl", {"args": ["-n", "payments", "rollout", "history", f"deploy/{chart}"]}, out_helm,
            f"rollout history of {chart}")


USER_ASKS_PL = ("odpal testy w {mod}", "pokaż logi z {chart}, coś sypie 500-kami od {time}", "sprawdź lag na {group}",
                "zerknij na {cls}.kt:{line}, tam chyba jest bug", "ile mamy wierszy w {table} z ostatniej doby?",
                "{person} pisze na slacku, że {chart} restartuje się od {time}, sprawdzisz?",
                "dobra, to teraz {mod}, build + detekt", "czemu {cls} tak wolno odpowiada? p99 skoczyło koło {time}",
                "pokaż historię migracji", "co się zmieniło w {cls} od wczoraj?",
                "sprawdź czy {chart} na porcie 8081 odpowiada", "zobacz eventy w namespace payments",
                "rzuć okiem na openapi dla refundów")
USER_ASKS_EN = ("run the tests in {mod}", "check the pods, {person} says {chart} looks unhealthy since {time}",
                "can you look at {cls}.kt:{line}?", "what does the plan for {table} look like",
                "check lag for {group} pls", "git log, who touched {cls} recently", "build {mod} and tell me",
                "look at the events, something is flapping", "show me the latest rows in {table}",
                "is the health endpoint on {chart} ok? port 8081")
USER_SHORT = ("ok", "go", "dobra", "spoko", "ok to", "leć", "hmm", "czekaj", "ok, dalej", "good", "nice", "k",
              "dzięki", "no dobra", "fine", "ok, rób", "tak", "yes pls", "ok, a co dalej?", "nie no, spoko, jedź")
USER_NOISE = ("btw o {time} mamy standup, do tego czasu chcę mieć {mod} zielony",
              "{person} wrzucił na kanał: \"> czy ktoś ruszał {table}? widzę dziwne wartości\" — to pewnie nie my",
              "dostałem taki payload z webhooka: {{\"event\":\"payment.captured\",\"amount\":{amount},"
              "\"currency\":\"PLN\",\"port\":{port}}} — wygląda ok?",
              "fyi {person} is on call today, ping him if {chart} goes red again",
              "w {cls}.kt:{line} jest stary TODO, olej na razie")
AGENT_PRE = ("", "", "", "Sprawdzam.", "Odpalam.", "Let me check that first.", "Patrzę w logi {chart}.",
             "Zaraz zobaczę, najpierw {mod}.", "Running it now, {n} s or so.", "Najpierw sprawdzę stan, potem coś zmienię.",
             "Checking {cls} first, it was the last thing {person} touched.", "Ok, {time} — sprawdzam {chart}.",
             "Looking at {table} and {group} in one go.", "Dwa wywołania naraz, żeby było szybciej.",
             "I'll read it before changing anything in {mod}.", "Sprawdzam, czy to nie ten sam problem co o {time}.")
AGENT_SUM = (
    "Gotowe: {note}. Wynik w liczbach: {n} pozycji przejrzanych, nic nowego ponad to, co już wiemy.",
    "Done — {note}. Nothing alarming; {n} lines, the only warnings are the old ones in {cls}.kt:{line}.",
    "{note}. Jeśli chcesz, mogę od razu przejść do {cls} albo najpierw dokończyć {mod}.",
    "Short version: {note}. Two options now: (a) leave it, (b) clean up {cls} while we're here. I'd go with (a).",
    "{note}. Zauważyłem przy okazji, że {chart} ma {n} restartów w ostatniej dobie, ale to raczej stare.",
    "OK, {note}. Numbers: {n} checked, 0 problems. Next on my list is {cls}.",
    "Podsumowując: {note}. Nie ruszałem niczego poza odczytem.",
    "{note}. Port 8081 (actuator) odpowiada, 5432 do bazy też, więc infrastruktura jest ok.",
    "Result: {note}. The slowest part was {cls} ({n} s); nothing to fix there today.",
    "{note}. W {table} nic podejrzanego, {n} rekordów z ostatniej godziny wygląda normalnie.",
    "Tl;dr {note}. I also saw {group} rebalancing once around {time}, but it recovered on its own.",
    "{note}. Jeśli {person} pyta: {mod} jest gotowy do review, zostały tylko drobiazgi w {cls}.kt:{line}.",
    "Checked: {note}.\n\n| what | status |\n|---|---|\n| {mod} | ok |\n| {chart} | ok |\n| {group} lag | {n} |",
    "{note}. Nie widzę związku z tym, co zgłosił {person} o {time} — to raczej osobny temat.",
)

AGENT_TALK = (
    "Jasne. Dla porządku: w {mod} zostały dwie rzeczy — retry w {cls} i indeks na {table}. Którą biorę pierwszą?",
    "Sure. Quick status: {n} items done today, {cls} is next. Options: (a) finish {cls}, (b) look at {chart} "
    "restarts first. I'd pick (a).",
    "Ok. Przypominam, że o {time} {person} chciał zobaczyć wyniki z {mod}.",
    "Noted. Numbers so far: build green, {n} tests added, lag on {group} flat. Nothing blocking.",
    "Rozumiem. Jeśli chodzi o {table}, to zapytanie z {cls}.kt:{line} jest najcięższe; mogę je przepisać później.",
    "Got it. Summary of the last hour:\n- {mod}: build ok\n- {chart}: no restarts since {time}\n- todo: {cls} review",
    "Ok, czekam. W międzyczasie nic nie zmieniam w {mod}.",
)


def _fmt(r: random.Random, s: str) -> str:
    return s.format(mod=_ch(r, MODULES), chart=_ch(r, CHARTS), cls=_ch(r, CLASSES), time=_clock(r),
                    group=_ch(r, GROUPS), table=_ch(r, TABLES), person=_ch(r, PEOPLE), line=_ri(r, 12, 340),
                    amount=_ri(r, 100, 99999), port=_ch(r, (8080, 8081, 9092, 5432, 6432)), n=_ri(r, 3, 90),
                    note="{note}")


# --- pasted documents ------------------------------------------------------------------------------------------


def paste_doc(r: random.Random, which: int) -> tuple[str, str]:
    """(what it is, its text): never the user's words; imperatives, numbers and ids of others."""
    d = _ri(r, 10, 28)
    if which == 0:
        return "PSP notice", (
            f"Subject: [Action required] Card Payments API v1 sunset on 2025-{_ri(r, 7, 12):02d}-{d}\n\n"
            "Dear Merchant,\n\nWe are retiring the /v1/charges endpoints. Please migrate to /v2/payment-intents "
            f"before the deadline. Do not send amounts as decimals; use integer minor units. Requests above "
            f"{_ri(r, 20, 80)} per second per merchant will receive HTTP 429. Rotate your webhook signing secret "
            f"within {_ri(r, 14, 60)} days of this notice. Contact integration-support quoting case "
            f"CS-{_ri(r, 100000, 999999)}.\n\nKind regards,\nPSP Integration Team")
    if which == 1:
        return "QA ticket", (
            f"PAY-{_ri(r, 100, 999)}  Bug  Priority: High  Reporter: {_ch(r, PEOPLE)} (QA)\n"
            f"Summary: double refund visible in merchant panel for payment m-{_ri(r, 10000, 99999)}\n"
            "Steps: 1) create payment 2) refund twice within 2 s 3) open panel\n"
            "Expected: one refund, second rejected with 409. Actual: two rows in refunds.\n"
            "Please fix before the release. Do not close this ticket without a regression test.\n"
            f"Env: staging, build 1.{_ri(r, 10, 90)}.{_ri(r, 0, 9)}")
    if which == 2:
        return "post-incident review", (
            f"PIR-{_ri(r, 10, 99)}: settlement delay\nTimeline (UTC): {_clock(r)} alert fired; {_clock(r)} "
            f"on-call paged; {_clock(r)} mitigated by restart.\nImpact: {_ri(r, 200, 4000)} payouts delayed "
            f"by ~{_ri(r, 20, 90)} min.\nAction items: Add a runbook for consumer rebalances. Always page the "
            "secondary if the primary does not ack in 10 minutes. Never restart all replicas at once.\n"
            f"Owner: {_ch(r, PEOPLE)}")
    if which == 3:
        return "ADR", (
            f"ADR-{_ri(r, 10, 60):03d}: Transactional outbox for payment events\nStatus: Accepted\n"
            "Context: events were lost when Kafka was unavailable during commits.\nDecision: write events to "
            "outbox_events in the same transaction; a relay publishes them.\nConsequences: Teams must not call "
            f"KafkaTemplate directly from services. Keep the relay batch at {_ch(r, (100, 200, 500))}.")
    if which == 4:
        return "build scan", (
            f"Build scan: https://ge.example.pl/s/{_tok(r, 13, B36)}\n> Task :payments-core:test FAILED\n"
            f"{_ri(r, 300, 500)} tests completed, 1 failed\nFAILURE: Build failed with an exception.\n"
            "* What went wrong:\nExecution failed for task ':payments-core:test'.\n* Try:\n> Run with --stacktrace "
            "option to get the stack trace.\n> Run with --info or --debug option to get more log output.\n"
            f"BUILD FAILED in {_ri(r, 2, 9)}m {_ri(r, 1, 59)}s")
    return "compliance mail", (
        f"From: {_ch(r, ('Joanna', 'Piotr', 'Anna'))} (Compliance)\nSubject: PCI DSS - card data in logs\n\n"
        "Hi team,\nduring the quarterly scan we found truncated card numbers in application logs. Please ensure "
        "that full PAN never appears in logs, dumps or tickets. Do not copy production data to laptops. Confirm "
        f"by replying to ticket SEC-{_ri(r, 1000, 9999)} by end of next week.\nThanks")


# --- planted facts ---------------------------------------------------------------------------------------------


class _Ctx:
    def __init__(self, r: random.Random) -> None:
        self.r = r
        self.used: list[str] = []
        self.classes = [c + s for c in X_CAMEL for s in X_SUFFIX]
        r.shuffle(self.classes)

    def ok(self, *vals: str) -> bool:
        pairs = [(a, b) for a in vals for b in vals if a is not b]
        return (all(v not in u and u not in v for v in vals for u in self.used)
                and not any(a in b for a, b in pairs))

    def fresh(self, make: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        for _ in range(200):
            d = make()
            vals = [d["value"]] + ([d["stale"]] if d.get("stale") else [])
            if self.ok(*vals):
                self.used.extend(vals)
                return d
        raise RuntimeError("no fresh value")  # pragma: no cover

    def cls(self) -> str:
        if not self.classes:
            self.classes = [c + s + "V2" for c in X_CAMEL for s in X_SUFFIX]
            self.r.shuffle(self.classes)
        return self.classes.pop()

    def table(self) -> str:
        return _ch(self.r, ("", "", "", "eu_", "archived_")) + _ch(self.r, X_TABLES)


def _word(r: random.Random) -> str:
    return _ch(r, X_WORDS)


def _intro(r: random.Random, pl: bool) -> str:
    return _fmt(r, _ch(r,
        ("{mod} przeszedł review, {person} dał approve.", "Ok, wracam po spotkaniu z {person}.",
         "Dobra, ten {cls} mamy ogarnięty.", "Cześć, kontynuujemy z {mod}.", "Testy w {mod} zielone, fajnie.")
        if pl else ("Back from the sync with {person}.", "Nice, {mod} looks good now.", "Ok so {cls} is done.",
                    "Quick context: {person} reviewed {mod} this morning.")))


def instruction(r: random.Random, kind: int | None, pl: bool) -> dict[str, Any]:
    """A standing rule in the user's words: ``value`` its distinctive part, ``rule`` the sentence."""
    w, n = _word(r), _ri(r, 10, 99)
    roll = r.randrange(10) if kind is None else kind
    if roll == 0:
        v = f"pay-{w}-{n}"
        rule = (f"I jeszcze jedno: w `{v}` nigdy nic nie kasujemy ręcznie, nawet jak pody wiszą." if pl else
                f"also, house rule: we never kubectl delete anything in `{v}`, even if pods hang.")
        return {"value": v, "query": "In which namespace must nothing ever be deleted by hand?", "rule": rule}
    if roll == 1:
        v = f"{_ri(r, 2, 6)} retries, backoff {_ch(r, (150, 200, 250, 300, 400, 750))} ms"
        rule = (f"Do PSP wolę max {v} z jitterem, więcej nie ma sensu." if pl else
                f"For the PSP calls I'd rather keep it at {v} plus jitter, nothing fancier.")
        return {"value": v, "query": "How many retries and what backoff does the user want for calls to the PSP?",
                "rule": rule}
    if roll == 2:
        v = f"Kotest {_ch(r, ('FunSpec', 'BehaviorSpec', 'DescribeSpec', 'StringSpec', 'ShouldSpec'))}"
        rule = (f"Nowe testy u nas piszemy w {v}, JUnit tylko w starych modułach." if pl else
                f"New tests go in {v} please, JUnit only where it already is.")
        return {"value": v, "query": "Which framework and style should new tests be written in?", "rule": rule}
    if roll == 3:
        v = f"legacy-{w}-adapter"
        rule = (f"Nie ruszaj modułu {v}, jest zamrożony do końca kwartału." if pl else
                f"we don't touch {v} at all, it's frozen till end of quarter.")
        return {"value": v, "query": "Which module is frozen and must not be touched?", "rule": rule}
    if roll == 4:
        hh, mm = _ri(r, 12, 17), _ch(r, (0, 30))
        v = f"w piątki po {hh}:{mm:02d}" if pl else f"after {hh}:{mm:02d} on Fridays"
        rule = (f"Zasada: {v} nic nie idzie na proda, nawet hotfixy bez zgody on-calla." if pl else
                f"no prod deploys {v}, not even hotfixes unless on-call says ok.")
        return {"value": v, "query": "When are production deploys not allowed?", "rule": rule}
    if roll == 5:
        v = f"max.poll.records={_ch(r, (25, 40, 50, 75, 80, 120, 150))}"
        rule = (f"Na konsumerze {w} trzymamy {v}, bo inaczej przekraczamy max.poll.interval." if pl else
                f"on the {w} consumer we keep {v}, otherwise we blow the poll interval again.")
        return {"value": v, "query": f"What max.poll.records does the {w} consumer keep?", "rule": rule}
    if roll == 6:
        v = f"postgres:16.{_ri(r, 1, 9)}-bookworm"
        rule = (f"W Testcontainers używamy {v}, tak jak prod, nie alpine." if pl else
                f"Testcontainers should use {v}, same as prod, not the alpine one.")
        return {"value": v, "query": "Which Postgres image should Testcontainers use?", "rule": rule}
    if roll == 7:
        v = f"release/{_ri(r, 24, 26)}.{_ri(r, 1, 12)}-{w}"
        rule = (f"Dopóki {_ch(r, PEOPLE)} nie skończy migracji na nowe API PSP, nic nie mergujemy do {v}." if pl else
                f"until the PSP v2 migration is done, don't merge anything into {v}.")
        return {"value": v, "query": "Which branch must nothing be merged into until the PSP migration is done?",
                "rule": rule}
    if roll == 8:
        v = _ch(r, ("PanMasker.last4()", "maskCardTail()", "redactPanKeep4()", "CardDataScrubber.scrub()",
                      "hidePanDigits()", "PciRedactor.mask()"))
        rule = (f"U nas numer karty w logach zawsze przez {v}, nigdy surowy." if pl else
                f"card numbers in logs always go through {v}, never raw, ever.")
        return {"value": v, "query": "Which function must card numbers in logs go through?", "rule": rule}
    v = f"readTimeout={_ch(r, (3, 4, 6, 7, 8, 9, 11, 12, 14))}s"
    rule = (f"Klient {w} ma mieć {v}, nie mniej — PSP potrafi długo myśleć." if pl else
            f"the {w} client keeps {v}, not lower, the PSP can be slow.")
    return {"value": v, "query": f"What read timeout does the {w} client keep?", "rule": rule}


def adopted(r: random.Random, pl: bool) -> dict[str, Any]:
    which = _ch(r, (0, 3, 5))
    w, n = _word(r), _ri(r, 10, 99)
    if which == 0:
        v = f"psp-sdk {_ri(r, 3, 5)}.{_ri(r, 0, 20)}.{_ri(r, 0, 9)}"
        rule = (f"Czyli u nas: przypinamy {v} i dopiero potem przepinamy się na v2." if pl else
                f"So for us: we pin {v} and only then switch to v2.")
        q = "Which PSP SDK version did the user pin after the PSP notice?"
    elif which == 3:
        v = f"{w}-relay-{n}"
        rule = (f"Bierzemy to do siebie: eventy idą tylko przez {v}, żadnego KafkaTemplate w serwisach." if pl else
                f"Adopting this: events go only through {v}, no KafkaTemplate from services.")
        q = "Through which relay must events go, per the adopted ADR?"
    else:
        v = f"s3://pci-{w}-restricted-{n}"
        rule = (f"Ok, od dziś dumpy z proda lądują tylko w {v}, nigdzie indziej." if pl else
                f"Ok, from now on prod dumps only go to {v}, nowhere else.")
        q = "Where may production dumps be stored, per the compliance mail?"
    kind, doc = paste_doc(r, which)
    return {"value": v, "query": q, "rule": rule, "doc": doc, "doc_kind": kind}


def _near(r: random.Random, s: str, positions: list[int]) -> str:
    """``s`` with one or two of ``positions`` changed: a near miss."""
    chars = list(s)
    for p in r.sample(positions, min(len(positions), _ch(r, (1, 2)))):
        alphabet = "0123456789" if chars[p].isdigit() else "abcdefghkmnpqrstuvwxyz"
        chars[p] = _ch(r, [c for c in alphabet if c != chars[p]])
    return "".join(chars)


def correction(r: random.Random, near: bool) -> dict[str, Any]:
    if near:
        roll = r.randrange(6)
        if roll == 0:
            s = f"PAYM-{_ri(r, 10000, 99999)}"
            v = s[:-2] + s[-1] + s[-2] if s[-1] != s[-2] else _near(r, s, [7, 8, 9])
            thing = ("ticket", "ticket")
        elif roll == 1:
            s = f"mrc_{_tok(r, 10)}"
            v = _near(r, s, list(range(5, 14)))
            thing = ("merchant", "merchanta")
        elif roll == 2:
            s = f"krk-k8s-node-{_ri(r, 10, 99)}"
            v = _near(r, s, [13, 14])
            thing = ("node", "node")
        elif roll == 3:
            s = f"{_word(r)}-svc:{_ri(r, 1, 4)}.{_ri(r, 10, 60)}.{_ri(r, 1, 8)}"
            v = s[:-1] + str(int(s[-1]) + 1)
            thing = ("image tag", "tag obrazu")
        elif roll == 4:
            a = f"{_ri(r, 1000, 9999)}.{_ri(r, 10, 99)}"
            s, v = f"{a} EUR", _near(r, a, [0, 1, 2, 3]) + " EUR"
            thing = ("amount", "kwotę")
        else:
            s = f"offset {_ri(r, 1_000_000, 9_999_999)}"
            v = _near(r, s, list(range(8, 14)))
            thing = ("offset", "offset")
    else:
        w = _word(r)
        roll = r.randrange(3)
        if roll == 0:
            a, b = r.sample(("opened", "approved", "rejected", "settled", "expired"), 2)
            s, v = f"{w}s.{a}.v{_ri(r, 2, 5)}", ""
            v = s.replace(a, b)
            thing = ("topic", "topic")
        elif roll == 1:
            n = _ri(r, 1, 4)
            s, v = f"{w}-db-replica-{n}", f"{w}-db-primary-{n}"
            thing = ("database", "bazę")
        else:
            c1, c2 = r.sample(X_COLS, 2)
            s, v = f"{w}_{c1}", f"{w}_{c2}"
            thing = ("column", "kolumnę")
    return {"value": v, "stale": s, "thing": thing}


def decision(r: random.Random, revise: bool, ctx: _Ctx) -> dict[str, Any]:
    roll = r.randrange(6)
    t, cls = ctx.table(), ctx.cls()
    w = _word(r)
    if roll == 0:
        col = _ch(r, X_COLS)
        v, s = f"BRIN index on {t}({col})", f"B-tree index on {t}({col})"
        q = f"Which index did the user choose for {t}?"
    elif roll == 1:
        a, b = r.sample((6, 8, 12, 16, 24, 32, 48), 2)
        v, s = f"{a} partitions for {w}s.events.v{_ri(r, 2, 4)}", ""
        s = v.replace(f"{a} partitions", f"{b} partitions", 1)
        q = f"How many partitions did the user choose for the {w} events topic?"
    elif roll == 2:
        v, s = f"ShedLock on {cls}", f"a Kubernetes CronJob for {cls}"
        q = f"How will {cls} be kept from running twice?"
    elif roll == 3:
        v, s = f"Debezium outbox for {t}", f"KafkaTemplate inside the transaction for {t}"
        q = f"How will events from {t} be published?"
    elif roll == 4:
        v, s = f"resilience4j circuit breaker on {cls}", f"spring-retry on {cls}"
        q = f"What resilience mechanism did the user pick for {cls}?"
    else:
        a, b = r.sample((5, 10, 20, 25, 50), 2)
        v, s = f"canary {a}% on {w}-svc for {_ri(r, 2, 24)}h", ""
        s = v.replace(f"canary {a}%", f"canary {b}%")
        q = f"How will the {w}-svc rollout be staged?"
    if revise:
        return {"value": v, "stale": s, "query": q}
    return {"value": v, "query": q}


def plan(r: random.Random, ctx: _Ctx, pl: bool) -> dict[str, Any]:
    roll = r.randrange(5)
    w, t = _word(r), ctx.table()
    if roll == 0:
        n = _ch(r, (500, 1000, 2000, 2500, 5000, 7500))
        v = f"backfill paczkami po {n} wierszy" if pl else f"backfill in batches of {n} rows"
        q = f"How will the {t} backfill be batched?"
    elif roll == 1:
        v = f"{w}-{_ch(r, ('ledger', 'api', 'events', 'limits'))}-rollout-{_ri(r, 2, 9)}"
        q = "Behind which feature flag will the change roll out?"
    elif roll == 2:
        n = _ri(r, 3, 21)
        v = f"tryb shadow przez {n} dni" if pl else f"shadow mode for {n} days"
        q = f"How long will the new {w} flow run in shadow mode?"
    elif roll == 3:
        hh = _ri(r, 0, 3)
        v = f"cutover window {hh:02d}:{_ch(r, (0, 15, 30)):02d}-{hh + 2:02d}:{_ch(r, (0, 30, 45)):02d}"
        q = f"When is the cutover to the new {t} table planned?"
    else:
        v = f"dual-write to {t}_next"
        q = f"How will the migration of {t} keep the old and new tables in sync?"
    if pl:
        steps = [f"najpierw migracja Flyway dla {t}", f"potem {v}", "na końcu przepinamy odczyty i sprzątamy"]
        if roll in (1, 4, 3):
            steps[1] = f"potem wszystko za {v}" if roll == 1 else f"potem {v}"
        text = ("Plan jest taki: " + ", ".join(steps) + ". " if r.random() < 0.5 else
                "Plan na ten tydzień:\n1. " + steps[0] + "\n2. " + steps[1] + "\n3. " + steps[2])
    else:
        steps = [f"first the Flyway migration for {t}", f"then {v}" if roll != 1 else f"then everything behind {v}",
                 "finally switch reads over and clean up"]
        text = ("So the plan: " + ", ".join(steps) + ". " if r.random() < 0.5 else
                "Plan for this week:\n1. " + steps[0] + "\n2. " + steps[1] + "\n3. " + steps[2])
    return {"value": v, "query": q, "text": text}


def identifier_said(r: random.Random) -> dict[str, Any]:
    roll = r.randrange(4)
    if roll == 0:
        v = f"pi_{_tok(r, 22)}"
        return {"value": v, "query": "What is the PSP payment intent id the user reported?",
                "pl": f"klient dzwonił w sprawie płatności, id u PSP to {v}, sprawdź co się z nią stało",
                "en": f"customer support pinged me about PSP payment {v}, can you trace it"}
    if roll == 1:
        v = f"DSP-2025-{_ri(r, 100000, 999999)}"
        return {"value": v, "query": "Which dispute id did the user ask about?",
                "pl": f"acquirer otworzył spór {v}, musimy mieć evidence do piątku",
                "en": f"the acquirer opened dispute {v}, we need evidence by Friday"}
    if roll == 2:
        v = _uuid(r)
        return {"value": v, "query": "Which correlation id did the user give for the failed payout?",
                "pl": f"correlation id z tego nieudanego payoutu: {v}", "en": f"the failed payout has correlation id {v}"}
    v = f"cb_{_hex(r, 16)}"
    return {"value": v, "query": "Which chargeback id did the user ask to look at?",
            "pl": f"zerknij na chargeback {v}, merchant się awanturuje", "en": f"look at chargeback {v}, merchant is angry"}


# --- the session -----------------------------------------------------------------------------------------------


@dataclass
class _Event:
    key: float
    length: int
    build: Callable[[_B], None]


class _B:
    """Appends messages and keeps the running size, so that tool outputs can keep the session on its budget."""

    def __init__(self, r: random.Random, n: int) -> None:
        self.r = r
        self.n = n
        self.msgs: list[Message] = []
        self.chars = 0
        self.ids = 0
        self.facts: list[Fact] = []
        self.pasted: list[tuple[int, str]] = []
        self.todo = ["read the payments-core module", "check consumer lag", "fix flaky RefundServiceTest"]

    @property
    def i(self) -> int:
        return len(self.msgs)

    def user(self, text: str) -> int:
        self.msgs.append({"role": "user", "content": text})
        self.chars += len(text)
        return self.i - 1

    def say(self, text: str) -> int:
        self.msgs.append({"role": "assistant", "content": text})
        self.chars += len(text)
        return self.i - 1

    def call(self, text: str, calls: list[tuple[str, dict[str, Any]]]) -> list[str]:
        ids, tcs = [], []
        for name, args in calls:
            self.ids += 1
            cid = f"call_{self.ids:05d}_{_hex(self.r, 8)}"
            a = json.dumps(args, ensure_ascii=False)
            tcs.append({"id": cid, "type": "function", "function": {"name": name, "arguments": a}})
            ids.append(cid)
            self.chars += len(a) + 1
        self.msgs.append({"role": "assistant", "content": text, "tool_calls": tcs})
        self.chars += len(text)
        return ids

    def result(self, cid: str, name: str, content: str) -> int:
        self.msgs.append({"role": "tool", "tool_call_id": cid, "name": name, "content": content})
        self.chars += len(content)
        return self.i - 1

    def want(self) -> int:
        deficit = CHARS_PER_MESSAGE * (self.i + 2) - self.chars
        return int(max(300, min(16000, deficit * 0.7 + self.r.uniform(600, 2400))))

    def act(self, action: Action, size: int | None = None) -> None:
        name, args, make, _note = action
        (cid,) = self.call(_fmt(self.r, _ch(self.r, AGENT_PRE)), [(name, args)])
        self.result(cid, name, make(self.r, size or self.want()))

    def todo_call(self) -> None:
        r = self.r
        if r.random() < 0.5 and len(self.todo) > 2:
            self.todo.pop(0)
        self.todo.append(_fmt(r, _ch(r, ("check {cls} after the fix", "run detekt on {mod}", "lag on {group}",
                                            "look at {table} plan", "ask {person} about {chart} limits"))))
        self.todo = self.todo[-7:]
        items = [{"content": t, "status": "completed" if k == 0 else ("in_progress" if k == 1 else "pending")}
                 for k, t in enumerate(self.todo)]
        (cid,) = self.call("Aktualizuję listę.", [("todo", {"todos": items})])
        lines = [f"[{'x' if it['status'] == 'completed' else ('~' if it['status'] == 'in_progress' else ' ')}] "
                 f"{it['content']}" for it in items]
        self.result(cid, "todo", "\n".join(lines))


def _filler(b: _B, g: int) -> None:
    """Exactly ``g`` messages of ordinary work, starting after an answer and ending on one."""
    r = b.r
    while g > 0:
        if g == 1:
            b.say(_fmt(r, _ch(r, ("PS. {cls}.kt:{line} też warto kiedyś przejrzeć.",
                                    "One more thing: the {mod} build cache is cold, next build will be slower."))))
            return
        if g == 3:
            b.user(_ch(r, USER_SHORT))
            b.user(_fmt(r, _ch(r, USER_ASKS_PL + USER_ASKS_EN)))
            b.say(_fmt(r, _ch(r, AGENT_SUM)).format(note="ok, noted"))
            return
        options = [x for x in (2, 4, 4, 5, 5, 6, 7, 8) if x <= g and g - x not in (1, 3)]
        size = _ch(r, options)
        first, ask = _action(r)
        roll = r.random()
        if size == 2:
            b.user(_fmt(r, _ch(r, USER_NOISE)) if roll < 0.4 else _ch(r, USER_SHORT))
            b.say(_fmt(r, _ch(r, AGENT_TALK)))
            g -= size
            continue
        if roll < 0.08:
            b.user(_fmt(r, _ch(r, USER_NOISE)))
        elif roll < 0.3:
            b.user(_ch(r, USER_SHORT))
        else:
            b.user(ask)
        note = "ok"
        rounds = {4: [1], 5: [2], 6: [1, 1], 7: [2, 1], 8: [1, 1, 1]}[size]
        for n_calls in rounds:
            if n_calls == 1 and r.random() < 0.1:
                b.todo_call()
                continue
            acts = [first] + [_action(r)[0] for _ in range(n_calls - 1)]
            first = _action(r)[0]
            ids = b.call(_fmt(r, _ch(r, AGENT_PRE)), [(a[0], a[1]) for a in acts])
            per = b.want() // n_calls
            for cid, a in zip(ids, acts):
                b.result(cid, a[0], a[2](r, per))
            note = acts[-1][3]
        b.say(_fmt(r, _ch(r, AGENT_SUM)).format(note=note))
        g -= size


def make_session(seed: int = 1, messages: int = 400) -> Session:
    """A backend session of exactly ``messages`` messages (at least :data:`MIN_MESSAGES`) with its planted facts."""
    if messages < MIN_MESSAGES:
        raise ValueError(f"a backend session needs at least {MIN_MESSAGES} messages, not {messages}")
    r = random.Random(seed)
    n = messages
    k = per_kind(n)
    ctx = _Ctx(r)
    b = _B(r, n)
    events: list[_Event] = []

    def strata(count: int) -> list[float]:
        return [(j + r.uniform(0.1, 0.9)) / count for j in range(count)]

    # instructions: the first two open the session; later ones in either language, some adopted from a pasted doc
    lang0 = r.random() < 0.5
    for j, key in enumerate(strata(k)):
        pl = (j % 2 == 0) == lang0  # the rules alternate languages
        if j == 0:
            events.append(_Event(-2.0, 7, _ev_instruction(ctx, r, pl, opener=True)))
        elif j == 1:
            events.append(_Event(-1.0, 2, _ev_instruction(ctx, r, pl)))
        elif j % 3 == 2:
            events.append(_Event(key, 2, _ev_adopted(ctx, r, pl)))
        else:
            length = _ch(r, (2, 4))
            kind = 7 if j == 3 else None  # one rule at least holds only until something is done
            events.append(_Event(key, length, _ev_instruction(ctx, r, pl, length=length, kind=kind)))
    # corrections: most near misses, several far from the value they replace
    for j, key in enumerate(strata(k)):
        d = ctx.fresh(partial(correction, r, j % 3 != 2))
        far = j >= k // 4 and j % 2 == 1 and key > 0.3
        skey = key - (r.uniform(0.22, min(0.45, key - 0.02)) if far else r.uniform(0.004, 0.03))
        events.append(_Event(max(skey, 0.0001), 2, _ev_stale(r, d)))
        events.append(_Event(key, 2, _ev_correction(r, d)))
    # decisions: a third revise the user's own earlier choice
    revised, n_revised = max(1, k // 3), 0
    for j, key in enumerate(strata(k)):
        rev = (j % 3 == 1 or (k < 3 and j == 0)) and n_revised < revised
        n_revised += rev
        d = ctx.fresh(partial(decision, r, rev, ctx))
        if rev:
            skey = key - r.uniform(0.03, min(0.25, max(0.031, key - 0.01)))
            events.append(_Event(max(skey, 0.0002), 2, _ev_choice(r, d)))
        events.append(_Event(key, 2, _ev_decision(r, d)))
    if n_revised < revised:  # pragma: no cover
        raise RuntimeError("too few revised decisions")
    # errors: half of them resolved by a later passing run of the same tool
    resolved = set(r.sample(range(k), max(1, k // 2)))
    for j, key in enumerate(strata(k)):
        res = j in resolved
        events.append(_Event(key, 8 if res else 4, _ev_error(ctx, r, j, res)))
    for j, key in enumerate(strata(k)):
        events.append(_Event(key, 4, _ev_file(ctx, r, j)))
    said_first = r.random() < 0.5
    for j, key in enumerate(strata(k)):
        said = (j % 2 == 0) == said_first and k > 1
        events.append(_Event(key, 2 if said else 4, _ev_identifier(ctx, r, j, said)))
    for j, key in enumerate(strata(k)):
        events.append(_Event(key, 4, _ev_finding(ctx, r, j)))
    for key in strata(k):
        events.append(_Event(key, 2, _ev_plan(ctx, r)))
    pastes = max(1, round(n / 200))
    turn = r.randrange(6)  # the documents pasted take turns, from a different one in each session
    for j, key in enumerate(strata(pastes)):
        events.append(_Event(key, 2, _ev_paste(r, j + turn)))

    events.sort(key=lambda e: e.key)
    lo = max(3, -(-3 * n // 100))
    hi = (88 * n) // 100
    total = sum(e.length for e in events)
    last = events[-1]
    room = hi - lo - (total - last.length) - 2  # the last carrier sits at most two messages into its episode
    if room < 0:  # pragma: no cover
        raise RuntimeError(f"{n} messages are too few for {len(events)} planted episodes")
    weights = [r.uniform(0.6, 1.4) for _ in events[1:]]
    wsum = sum(weights) or 1.0
    gaps, acc, given = [0], 0.0, 0
    for w in weights:
        acc += room * w / wsum
        g = int(acc) - given
        if g in (1, 3):
            g -= 1
        gaps.append(g)
        given += g

    b.msgs.append({"role": "system", "content": SYSTEM})
    b.user(_ch(r, OPENERS))
    b.say(_ch(r, OPENER_REPLIES))
    _filler(b, lo - b.i)
    for gap, ev in zip(gaps, events):
        _filler(b, gap)
        start = b.i
        ev.build(b)
        assert b.i - start == ev.length, (ev.build, b.i - start, ev.length)
    _filler(b, n - 1 - b.i)
    b.user(_ch(r, CLOSERS))
    return Session(messages=b.msgs, facts=b.facts, seed=seed, pasted=b.pasted)


SYSTEM = ("You are a coding agent working in the payments monorepo (Kotlin 2, Spring Boot 3, Gradle, PostgreSQL with "
          "Flyway, Kafka, Kubernetes with Helm). Use the tools to read and change code, run builds and tests, and "
          "inspect the cluster read-only unless asked. Explain what you found and keep a todo list.")
OPENERS = ("hej, dziś siedzimy nad payments-core i settlement-worker, najpierw rozejrzyj się po repo",
           "hi, today: payments-core + settlement worker. look around the repo first pls")
OPENER_REPLIES = ("Cześć! Zacznę od przeglądu repo i ostatnich commitów, potem powiem co widzę.",
                  "Hi! I'll start with the repo layout and recent commits, then summarise.")
CLOSERS = ("ok, na dziś koniec, jutro kontynuujemy", "ok thx, let's continue tomorrow",
           "dobra, zostaw tak, wrócę po lunchu", "ok. podsumuj mi jutro rano co zostało")


def _fact(b: _B, kind: str, d: dict[str, Any], index: int, **more: Any) -> None:
    b.facts.append(Fact(kind, d["value"], index, d["query"], **more))


def _ack(r: random.Random, v: str, pl: bool) -> str:
    return _ch(r, (f"Jasne, zapamiętuję: {v}. Będę się tego trzymał.", f"Ok, przyjąłem — {v}.",
                     f"Noted: {v}. I'll stick to that for the rest of the work.",
                     f"Got it, {v}. I'll keep it in mind when I touch that code.") if not pl else
                    (f"Jasne, zapamiętuję: {v}. Będę się tego trzymał.", f"Ok, przyjąłem — {v}.",
                     f"Zrozumiałem, {v}. Wracam do {_ch(r, MODULES)}."))


def _ev_instruction(ctx: _Ctx, r: random.Random, pl: bool, opener: bool = False,
                    length: int = 2, kind: int | None = None) -> Callable[[_B], None]:
    d = ctx.fresh(lambda: instruction(r, kind, pl))

    def build(b: _B) -> None:
        text = _intro(r, pl) + "\n\n" + d["rule"]
        if not opener and r.random() < 0.4:
            text += "\n\n" + _fmt(r, _ch(r, ("a teraz wracając do {cls}: odpal testy", "anyway, back to {mod}",
                                               "ok, to tyle, dalej {mod}")))
        idx = b.user(text)
        _fact(b, "instruction", d, idx)
        if opener:
            calls: list[tuple[str, dict[str, Any]]] = [("git", {"args": ["log", "--oneline", "-n", "60"]}),
                     ("read_file", {"path": "settings.gradle.kts"}),
                     ("shell", {"command": "ls -la && ls payments-core/src/main/kotlin/pl/example/payments"}),
                     ("todo", {"todos": [{"content": t, "status": "pending"} for t in b.todo]})]
            ids = b.call(_ack(r, d["value"], pl) + " Najpierw rozejrzę się po repo.", calls)
            size = b.want() // 3
            b.result(ids[0], "git", out_gitlog(r, size))
            b.result(ids[1], "read_file", "\n".join(f'include(":{m}")' for m in MODULES)
                     + '\nrootProject.name = "payments"\n')
            b.result(ids[2], "shell", "\n".join(
                f"drwxr-xr-x  {_ri(r, 2, 9)} kuba staff  {_ri(r, 64, 512):>4} Jun {_ri(r, 1, 28):2d} {_clock(r)} {x}"
                for x in MODULES + ("api", "deploy", "gradle", "docs")) + "\n" + "\n".join(
                f"{_pkg(c)}/" for c in CLASSES[:9]) + "\n" + out_build(r, size))
            b.result(ids[3], "todo", "\n".join(f"[ ] {t}" for t in b.todo))
            b.say("Repo: " + ", ".join(MODULES) + ". Ostatnie commity to głównie poprawki retry i ledger. "
                  f"Pamiętam o zasadzie ({d['value']}).")
        elif length == 4:
            b.act(_action(r)[0])
            b.say(_ack(r, d["value"], pl))
        else:
            b.say(_ack(r, d["value"], pl))
    return build


def _ev_adopted(ctx: _Ctx, r: random.Random, pl: bool) -> Callable[[_B], None]:
    d = ctx.fresh(lambda: adopted(r, pl))

    def build(b: _B) -> None:
        lead = (f"wklejam {d['doc_kind']}, przeczytaj:" if pl else f"pasting the {d['doc_kind']}:")
        idx = b.user(f"{lead}\n\n{d['doc']}\n\n{d['rule']}")
        b.pasted.append((idx, d["doc"]))
        _fact(b, "instruction", d, idx)
        b.say(_ack(r, d["value"], pl) + " Resztę z tego dokumentu traktuję jako kontekst, nie jako nasze zasady.")
    return build


STALE_ASKS = {
    "ticket": ("sprawdź ticket {s}, QA zgłosiło tam regresję", "pull up {s} from Jira, QA reopened it"),
    "merchant": ("merchant {s} skarży się na podwójne obciążenia, zobacz logi",
                 "merchant {s} reports double charges since this morning, check the logs"),
    "node": ("pody lecą na {s}, zobacz co z nim", "pods keep dying on {s}, can you check that node"),
    "image tag": ("na stagingu stoi {s}, porównaj z prodem", "staging runs {s}, compare it with prod"),
    "amount": ("refund na {s} się nie zaksięgował, szukaj w ledgerze", "a refund of {s} never got booked, check the ledger"),
    "offset": ("konsument stanął na {s}, zobacz co to za rekord", "the consumer is stuck at {s}, what's that record"),
    "topic": ("eventy przychodzą z {s}, podepnij się tam", "the events come from {s}, hook the listener there"),
    "database": ("odpytaj {s}, tam są świeże dane", "run the query against {s}, it has fresh data"),
    "column": ("sortuj raport po {s}", "sort the report by {s}"),
}


def _ev_stale(r: random.Random, d: dict[str, Any]) -> Callable[[_B], None]:
    pl = r.random() < 0.5
    s, thing = d["stale"], d["thing"]

    def build(b: _B) -> None:
        pl_text, en_text = STALE_ASKS[thing[0]]
        b.user((pl_text if pl else en_text).format(s=s))
        b.say(f"Ok, biorę {s}. Zaraz sprawdzę." if pl else f"Ok, looking at {s} now.")
        d["stale_index"] = b.i - 2
    return build


def _ev_correction(r: random.Random, d: dict[str, Any]) -> Callable[[_B], None]:
    pl = r.random() < 0.5
    s, v, thing = d["stale"], d["value"], d["thing"]
    d["query"] = f"Which {thing[0]} did the user mean after correcting themselves?"

    def build(b: _B) -> None:
        line = _ch(r, (f"nie {s} tylko {v}", f"sorry, chodziło o {v}, nie {s}", f"pomyliłem się, to {v}",
                         f"czekaj, podałem zły {thing[1]} — ma być {v}") if pl else
                        (f"no wait, it's {v} not {s}", f"I gave you the wrong {thing[0]}, it's {v}",
                         f"the other one: {v}", f"hm, scratch {s}, I meant {v}"))
        if r.random() < 0.4:
            text = _intro(r, pl) + "\n\n" + line + "\n\n" + _fmt(r, _ch(r, USER_ASKS_PL if pl else USER_ASKS_EN))
        else:
            text = line
        idx = b.user(text)
        _fact(b, "correction", d, idx, stale=s, stale_index=d["stale_index"])
        b.say(f"Jasne, poprawiam na {v}." if pl else f"Right, switching to {v}.")
    return build


def _ev_choice(r: random.Random, d: dict[str, Any]) -> Callable[[_B], None]:
    pl = r.random() < 0.5

    def build(b: _B) -> None:
        s = d["stale"]
        b.user(_ch(r, (f"ok, idziemy w {s}", f"dobra, robimy {s}") if pl else
                        (f"let's go with {s}", f"ok, {s} it is")))
        b.say(f"Ok, {s}. Przygotuję to." if pl else f"Alright, {s}. I'll prepare it.")
        d["stale_index"] = b.i - 2
    return build


def _ev_decision(r: random.Random, d: dict[str, Any]) -> Callable[[_B], None]:
    pl = r.random() < 0.5

    def build(b: _B) -> None:
        v, s = d["value"], d.get("stale")
        if s:
            text = _ch(r, (f"jednak {v}, nie {s} — przemyślałem to", f"nie no, zmieniam zdanie: {v} zamiast {s}")
                            if pl else (f"scratch that, {v} instead of {s}", f"changed my mind: {v}, not {s}"))
        else:
            text = _ch(r, (f"dobra, idziemy w {v}", f"ok to robimy {v}, bez dalszej dyskusji") if pl else
                            (f"let's go with {v}", f"decided: {v}. moving on"))
        if r.random() < 0.3:
            text = _intro(r, pl) + "\n\n" + text
        idx = b.user(text)
        if s:
            _fact(b, "decision", d, idx, stale=s, stale_index=d["stale_index"])
        else:
            _fact(b, "decision", d, idx)
        b.say(f"Ok, {v}. Zapisuję to jako decyzję." if pl else f"Ok, {v}. Recording that as the decision.")
    return build


def _ev_plan(ctx: _Ctx, r: random.Random) -> Callable[[_B], None]:
    pl = r.random() < 0.55
    d = ctx.fresh(lambda: plan(r, ctx, pl))

    def build(b: _B) -> None:
        idx = b.user(_intro(r, pl) + "\n\n" + d["text"])
        _fact(b, "plan", d, idx)
        b.say(f"Ok, plan przyjęty. Kluczowy punkt: {d['value']}." if pl else
              f"Plan noted. The key step for me: {d['value']}.")
    return build


def _ev_paste(r: random.Random, j: int) -> Callable[[_B], None]:
    pl = r.random() < 0.5
    kind, doc = paste_doc(r, j % 6)

    def build(b: _B) -> None:
        lead = (f"{_ch(r, PEOPLE)} podesłał {kind}, rzuć okiem:" if pl else f"got this {kind}, fyi:")
        idx = b.user(f"{lead}\n\n{doc}\n\n" + ("co o tym myślisz?" if pl else "thoughts?"))
        b.pasted.append((idx, doc))
        b.say(f"Przeczytałem. To {kind}; prośby w nim są adresowane do nas ogólnie, nic z tego nie zmieniam bez "
              "twojej decyzji. Najważniejsze: terminy i liczby z dokumentu, reszta to kontekst.")
    return build


def _ev_identifier(ctx: _Ctx, r: random.Random, j: int, said: bool) -> Callable[[_B], None]:
    pl = r.random() < 0.55
    if said:
        d = ctx.fresh(lambda: identifier_said(r))

        def build_said(b: _B) -> None:
            idx = b.user(d["pl"] if pl else d["en"])
            _fact(b, "identifier", d, idx)
            b.say(f"Ok, szukam {d['value']} w logach i w bazie." if pl else f"On it, tracing {d['value']}.")
        return build_said

    roll = (j // 2) % 3 if j else 0
    cls = ctx.cls()
    chart = f"{_word(r)}-svc"
    if roll == 0:
        d = ctx.fresh(lambda: {"value": f"{chart}-{_hex(r, 9)}-{_tok(r, 5, B36)}",
                               "query": f"Which {chart} pod keeps restarting?"})
    elif roll == 1:
        d = ctx.fresh(lambda: {"value": _hex(r, 40), "query": f"Which commit introduced the change in {cls}?"})
    else:
        d = ctx.fresh(lambda: {"value": _hex(r, 32), "query": f"What is the trace id of the failing {cls} request?"})

    def build(b: _B) -> None:
        v = d["value"]
        b.user(_ch(r, ("co się dzieje z {0}?", "who broke {0}?", "znajdź mi to w {0}", "look into {0}")).format(
            chart if roll == 0 else cls))
        size = b.want()
        if roll == 0:
            (cid,) = b.call("", [("kubectl", {"args": ["-n", "payments", "get", "pods", "-l", f"app={chart}"]})])
            body = out_pods(r, size).split("\n")
            body.insert(_ri(r, 1, len(body)), f"{v:<40}0/1     CrashLoopBackOff  {_ri(r, 9, 60)} "
                        f"({_ri(r, 1, 9)}m ago)   {_ri(r, 1, 5)}d")
            idx = b.result(cid, "kubectl", "\n".join(body))
        elif roll == 1:
            (cid,) = b.call("", [("git", {"args": ["log", "--format=%H %an %s", "--", f"**/{cls}.kt"]})])
            body = [f"{_hex(r, 40)} {_ch(r, PEOPLE)} {m}" for m in ("ktlint format", "rename fields", "add metrics")]
            body.insert(1, f"{v} {_ch(r, PEOPLE)} change {cls} timeout handling")
            idx = b.result(cid, "git", "\n".join(body) + "\n" + out_gitlog(r, size))
        else:
            (cid,) = b.call("", [("kubectl", {"args": ["-n", "payments", "logs", "deploy/payments-api", "--since=1h"]})])
            body = out_logs(r, size).split("\n")
            body.insert(_ri(r, 0, len(body)), f"{_ts(r)} ERROR 1 --- [http-nio-8080-exec-2] p.e.p.{_pkg(cls)}.{cls}"
                        f" : request failed traceId={v} status=502")
            idx = b.result(cid, "kubectl", "\n".join(body))
        _fact(b, "identifier", d, idx)
        b.say(f"Found it: {v}." + (" To ten." if pl else " That's the one."))
    return build


def _ev_file(ctx: _Ctx, r: random.Random, j: int) -> Callable[[_B], None]:
    cls = ctx.cls()
    snake = _snake(cls)

    def draw() -> dict[str, Any]:
        roll = r.randrange(4)
        if roll == 0:
            path = f"payments-core/src/main/kotlin/pl/example/payments/{_pkg(cls)}/{cls}.kt"
        elif roll == 1:
            path = f"payments-core/src/test/kotlin/pl/example/payments/{_pkg(cls)}/{cls}Test.kt"
        elif roll == 2:
            path = f"payments-core/src/main/resources/db/migration/V{_ri(r, 47, 99)}__{snake}_{_ch(r, X_COLS)}.sql"
        else:
            path = f"deploy/helm/{snake.replace('_', '-')}/values-{_ch(r, ('staging', 'prod', 'sandbox'))}.yaml"
        return {"value": path, "query": f"Which file was written for the {cls} change?"}
    d = ctx.fresh(draw)
    path = d["value"]
    write = j == 0 or r.random() < 0.5

    def build(b: _B) -> None:
        b.user(_fmt(r, _ch(r, ("ok, dopisz to", "go, write it", "zrób to w nowym pliku", "ok, implement it"))))
        body = out_kotlin(r, b.want(), cls)
        body = "\n".join(line[6:] for line in body.split("\n"))
        args = ({"path": path, "content": body} if write else
                {"path": path, "old": "    }\n}", "new": "    }\n\n    // handled by " + cls + "\n}"})
        name = "write_file" if write else "edit_file"
        (cid,) = b.call("Piszę plik." if write else "Edytuję.", [(name, args)])
        _fact(b, "file", d, b.i - 1)
        b.result(cid, name, f"Wrote {len(body)} bytes to {path}" if write else f"Applied 1 edit to {path}")
        b.say(f"Zapisane w {path}. Następny krok: testy.")
    return build


def _ev_error(ctx: _Ctx, r: random.Random, j: int, resolved: bool) -> Callable[[_B], None]:
    cls = ctx.cls()
    pkg = _pkg(cls)
    def draw() -> dict[str, Any]:
        tool: str
        args: dict[str, Any]
        roll = 0 if j == 0 else r.randrange(8)
        mod = _ch(r, ("payments-core", "settlement-worker"))
        src = f"{mod}/src/main/kotlin/pl/example/payments/{pkg}"
        if roll == 0:
            line = (f"e: file:///home/kuba/src/payments/{src}/{cls}.kt:{_ri(r, 12, 300)}:{_ri(r, 5, 40)} "
                    f"Unresolved reference '{_ch(r, ('windowDays', 'acquirerCode', 'evidenceDeadline', 'holdUntil'))}'.")
            tool, args = "gradle", {"args": [f":{mod}:compileKotlin"]}
        elif roll == 1:
            line = f"{cls}Test > {_ch(r, ('keeps balance', 'rejects late evidence', 'rounds fees'))} on {_ri(r, 2, 99)} items() FAILED"
            tool, args = "gradle", {"args": [f":{mod}:test", "--tests", f"*{cls}Test"]}
        elif roll == 2:
            line = (f"{src}/{cls}.kt:{_ri(r, 12, 300)}:5: The function handle is too long ({_ri(r, 61, 140)}). "
                    "The maximum length is 60. [LongMethod]")
            tool, args = "gradle", {"args": [f":{mod}:detekt"]}
        elif roll == 3:
            line = f"ERROR:  duplicate key value violates unique constraint \"uq_{ctx.table()}_{_ch(r, X_COLS)}\""
            tool, args = "psql", {"db": "payments_stg", "sql": f"insert into ... select * from staging_import_{_ri(r, 1, 9)};"}
        elif roll == 4:
            line = f"ERROR: Migration V{_ri(r, 47, 99)}__{_snake(cls)}_{_ch(r, X_COLS)}.sql failed"
            tool, args = "gradle", {"args": [f":{mod}:flywayMigrate", "-Penv=local"]}
        elif roll == 5:
            line = (f"{_ts(r)} ERROR 1 --- [ntainer#2-0-C-1] p.e.p.{pkg}.{cls} : Listener failed; "
                    f"nested exception is java.lang.IllegalArgumentException: unknown status '{_ch(r, X_STATUS)}'")
            tool, args = "kubectl", {"args": ["-n", "payments", "logs", f"deploy/{pkg}-svc", "--since=20m"]}
        elif roll == 6:
            line = (f"Error: UPGRADE FAILED: release {pkg}-svc failed, and has been rolled back due to atomic being set: "
                    "context deadline exceeded")
            tool, args = "shell", {"command": f"helm upgrade --install {pkg}-svc deploy/helm/{pkg}-svc --atomic --timeout 5m"}
        else:
            line = (f"curl: (7) Failed to connect to {pkg}-svc.payments.svc.cluster.local port {_ri(r, 8082, 8099)} "
                    f"after {_ri(r, 2, 900)} ms: Couldn't connect to server")
            tool, args = "shell", {"command": f"curl -sf http://{pkg}-svc.payments.svc.cluster.local:8081/actuator/health"}
        return {"value": line, "query": f"What error did the {tool} run for {cls} report?", "tool": tool,
                "args": args, "src": src}

    d = ctx.fresh(draw)
    line, tool, args, src = d["value"], d["tool"], d["args"], d["src"]
    pl = r.random() < 0.5

    def output(size: int, failing: bool) -> str:
        if tool == "gradle":
            body = (out_tests if "Test >" in line else out_build)(r, size, not failing)
            if failing:
                body += f"\n{line}\n\nFAILURE: Build failed with an exception.\n\nBUILD FAILED in {_ri(r, 9, 90)}s"
            return body
        if tool == "psql":
            return ("BEGIN\n" + (line + "\nDETAIL:  Key already exists.\nROLLBACK" if failing else
                                 f"INSERT 0 {_ri(r, 10, 900)}\nCOMMIT") + "\n" + out_rows(r, size))
        if tool == "kubectl":
            lines = out_logs(r, size).split("\n")
            if failing:
                lines.insert(_ri(r, 0, len(lines)), line)
            return "\n".join(lines)
        if "helm" in args["command"]:
            return (out_helm(r, size) + ("\n" + line if failing else "\nRelease \"" + pkg + "-svc\" has been upgraded."))
        return line if failing else '{"status":"UP"}'

    def build(b: _B) -> None:
        b.user(_ch(r, ("odpal to", "run it", "sprawdź", "go", "ok, puść to jeszcze raz", "check it")))
        (cid,) = b.call("", [(tool, args)])
        idx = b.result(cid, tool, output(b.want(), True))
        if resolved:
            (c2,) = b.call(f"Błąd: `{line}`. Poprawiam {cls}." if pl else f"It fails with `{line}`. Fixing {cls}.",
                           [("edit_file", {"path": f"{src}/{cls}.kt", "old": "status", "new": "status.orEmpty()"})])
            b.result(c2, "edit_file", f"Applied 1 edit to {src}/{cls}.kt")
            (c3,) = b.call("Puszczam jeszcze raz.", [(tool, args)])
            fix = b.result(c3, tool, output(b.want(), False))
            b.say("Teraz przechodzi, błąd zniknął." if pl else "Passes now, the error is gone.")
            _fact(b, "error", d, idx, resolved=fix)
        else:
            b.say(f"Wywala się na:\n\n{line}\n\nNie ruszam tego bez twojej decyzji." if pl else
                   f"It fails with:\n\n{line}\n\nI'd leave it for now unless you want me to dig in.")
            _fact(b, "error", d, idx)
    return build


def _ev_finding(ctx: _Ctx, r: random.Random, j: int) -> Callable[[_B], None]:
    roll = (0, 1, 2, 3, 4, 5)[j % 6] if j < 6 else r.randrange(6)
    if j == 0:
        roll = 1
    tool: str
    args: dict[str, Any]
    w = _word(r)
    if roll == 0:
        d = ctx.fresh(lambda: {"value": f"request timed out after {_ri(r, 1001, 60000)}ms",
                               "query": f"What did the {w}-svc logs show as the cause of the errors?"})
        tool, args = "kubectl", {"args": ["-n", "payments", "logs", f"deploy/{w}-svc", "--since=1h"]}
        meaning = "pula Hikari się wyczerpuje — połączenia wiszą w długich transakcjach"
    elif roll == 1:
        d = ctx.fresh(lambda: {"value": f"Seq Scan on {ctx.table()}", "query": "What does the slow query's plan reveal?"})
        t = d["value"].rsplit(" ", 1)[1]
        tool, args = "psql", {"db": "payments_ro", "sql": f"explain analyze select * from {t} where merchant_ref = $1;"}
        meaning = "nie ma indeksu pod to zapytanie, stąd wolne odpowiedzi"
    elif roll == 2:
        name = _ch(r, ("idle_in_transaction_session_timeout", "lock_timeout", "statement_timeout"))
        d = ctx.fresh(lambda: {"value": f"{name} | {_ri(r, 2, 900)}s",
                               "query": f"What {name.replace('_', ' ')} is configured on the database?"})
        tool, args = "psql", {"db": "payments_ro", "sql": "select name, setting from pg_settings where name like '%timeout%';"}
        meaning = "to ustawienie ucina nam długie transakcje"
    elif roll == 3:
        g = f"{w}-projector"
        d = ctx.fresh(lambda: {"value": f"{g}: total lag {_ri(r, 10_000, 900_000)}",
                               "query": f"How far behind is the {g} consumer group?"})
        tool, args = "shell", {"command": f"kafka-consumer-groups.sh --describe --group {g} | awk '{{s+=$6}} END {{print s}}'"}
        meaning = "konsument nie nadąża, rebalance co kilka minut"
    elif roll == 4:
        d = ctx.fresh(lambda: {"value": f"p(95)={_ri(r, 300, 4000)}ms",
                               "query": f"What 95th percentile latency did the load test of {w}-svc measure?"})
        tool, args = "shell", {"command": f"k6 run load/{w}.js --vus 50 --duration 2m"}
        meaning = "to jest powyżej budżetu 800 ms"
    else:
        key = f"{w}-cache-ttl"
        d = ctx.fresh(lambda: {"value": f"{key}: {_ri(r, 2, 90)}{_ch(r, ('s', 'm', 'h'))}",
                               "query": f"What is the {key} set to in the config?"})
        tool, args = "read_file", {"path": f"deploy/helm/{w}-svc/values-prod.yaml"}
        meaning = "cache trzyma dane za długo, stąd nieaktualne statusy"
    pl = r.random() < 0.5

    def build(b: _B) -> None:
        v = d["value"]
        b.user(_ch(r, ("czemu to tak działa?", "find the root cause pls", "sprawdź co tam siedzi", "dig in")))
        (cid,) = b.call("", [(tool, args)])
        size = b.want()
        if roll == 0:
            lines = out_logs(r, size).split("\n")
            lines.insert(_ri(r, 0, len(lines)), f"{_ts(r)} WARN  1 --- [http-nio-8080-exec-4] com.zaxxer.hikari.pool."
                         f"HikariPool : HikariPool-1 - Connection is not available, {v}.")
            body = "\n".join(lines)
        elif roll == 1:
            body = (out_explain(r, size) + f"\n\n   ->  {v}  (cost=0.00..{_ri(r, 1000, 90000)}.00 rows="
                    f"{_ri(r, 10_000, 9_000_000)} width=96) (actual time=0.02..{_ri(r, 300, 9000)}.1 rows=1 loops=1)")
        elif roll == 2:
            body = ("                name                 | setting\n-------------------------------------+--------\n"
                    f" {v}\n deadlock_timeout | 1s\n(2 rows)\n\n" + out_flyway(r, size))
        elif roll == 3:
            body = out_lag(r, size) + f"\n\n{v}"
        elif roll == 4:
            body = (f"     scenarios: (100.00%) 1 scenario, 50 max VUs, 2m30s max duration\n"
                    f"     http_req_duration..............: avg={_ri(r, 90, 400)}ms med={_ri(r, 80, 300)}ms "
                    f"{v} p(90)=...\n     http_reqs......................: {_ri(r, 2000, 90000)}\n"
                    + out_health(r, size))
        else:
            body = out_yaml(r, size) + f"\n{v}\n"
        idx = b.result(cid, tool, body)
        _fact(b, "finding", d, idx)
        b.say(f"Mamy to: `{v}` — {meaning}." if pl else f"Found it: `{v}`. In short: {meaning}.")
    return build
