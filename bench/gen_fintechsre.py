"""Long on-call sessions of an SRE at a Bengaluru UPI/payments fintech and an ops agent, with planted facts.

The user is the SRE on duty at "PaySetu" (a fictional UPI payments company): they write in Hinglish (Hindi in Latin
script mixed with English in one sentence: "yaar", "haan", "ek kaam kar", "mat karna"), sometimes fully in English,
often curtly ("ok", "kar de", "go"), and paste what others wrote: the compliance officer's mail, another team's RCA,
the AWS support reply, an NPCI circular excerpt, a #payments-oncall Slack thread, the change-advisory-board ticket, a
payment gateway's incident notice. The agent works the platform through ten tools (``TOOLS``): ``kubectl`` on EKS,
``terraform`` (terragrunt plans), ``aws``, ``promql``, ``kafka_cli`` (``kafka-consumer-groups --describe`` tables),
``pagerduty``, ``read_file``, ``edit_file``, ``write_file`` and ``shell`` (helm, argocd, gradle, k6, redis-cli, psql,
openssl, GC logs). Most of the characters are tool outputs: Spring Boot logs with stack traces and NPCI response
codes (``U30``, ``ZM``), pod tables, terraform plan diffs, AWS JSON, Prometheus vectors, consumer-lag tables.

    import sys; sys.path.insert(0, "bench")
    from gen_fintechsre import make_session, per_kind

    session = make_session(seed=1, messages=400)     # about 600k characters, 6 facts of each kind
    session = make_session(seed=1, messages=3000)    # about 4.8M characters, 12 facts of each kind
    for fact in session.facts:                       # Fact(kind, value, index, query, stale, stale_index, resolved)
        print(fact.kind, fact.index, fact.value)
    for index, text in session.pasted:               # what the user pasted rather than wrote
        assert text in session.messages[index]["content"]

``session.facts`` hold ``per_kind(messages)`` facts of each of ``KINDS``, planted between 3% and 88% of the session:
standing rules (some conditional, some in a second paragraph, some adopted from a pasted document in the user's own
words), corrections of a value the user gave earlier (mostly near misses such as ``ip-10-61-17-203`` ->
``ip-10-61-17-208``, several far from what they correct), decisions (a third revise the user's own earlier choice),
whole error lines (some resolved by a later passing run of the same command), files written by one call, identifiers
said by the user or printed by a tool, findings within one line of a tool's output, and plans in prose. A value
first occurs in its own message and afterwards only in the eight messages after it; the filler never says one.
Same seed and size, same bytes (only ``random.Random(seed)`` is used).
"""

from __future__ import annotations

import json
import math
import random
import string
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sessiongen import Fact, Message, Session, text_of

KINDS = ("instruction", "correction", "decision", "error", "file", "identifier", "finding", "plan")
TOOLS = ("kubectl", "terraform", "aws", "promql", "kafka_cli", "pagerduty", "read_file", "edit_file", "write_file",
         "shell")
MIN_MESSAGES = 60


def per_kind(messages: int) -> int:
    """Facts of each kind in a session of ``messages``: 1 at 60, 6 at 400, 12 at 3000, linear in between and on."""
    if messages <= 400:
        x = 1 + 5 * (messages - 60) / 340
    else:
        x = 6 + 6 * (messages - 400) / 2600
    return max(1, int(x + 0.5))


def _chars_target(messages: int) -> int:
    """The characters a session of ``messages`` aims at: 1,500 a message at 400, about 1,620 at 3000."""
    return int(messages * (1500 + 0.045 * (messages - 400)))


# --- vocabulary --------------------------------------------------------------------------------------------------
# Filler draws only from these. Planted values carry a "combo" (a planted-only PREFIX-SUFFIX name, unique to one fact
# in a session) or a format the filler never prints, so a value can only be found where it was planted.

_SERVICES = ("upi-collect", "upi-pay", "mandate-svc", "ledger-svc", "recon-worker", "notif-svc", "risk-engine",
             "merchant-api", "settlement-svc", "vpa-resolver", "refund-svc", "kyc-svc")
_NS = {"upi-collect": "upi", "upi-pay": "upi", "mandate-svc": "upi", "ledger-svc": "ledger", "recon-worker": "ledger",
       "notif-svc": "platform", "risk-engine": "risk", "merchant-api": "payments", "settlement-svc": "ledger",
       "vpa-resolver": "upi", "refund-svc": "payments", "kyc-svc": "risk"}
_TOPICS = ("upi.txn.events", "upi.collect.requests", "ledger.postings", "settlement.batches", "refund.events",
           "notif.outbox", "risk.scores", "mandate.executions")
_GROUPS = ("ledger-poster", "settlement-batcher", "notif-dispatcher", "recon-matcher", "risk-scorer", "refund-worker",
           "mandate-executor")
_PSPS = ("hdfc", "icici", "axis", "sbi", "yesbank", "kotak")
_CODES = ("00", "00", "00", "U30", "ZM", "XY", "U69", "BT", "RB", "ZA", "U16", "Z9")
_PEOPLE = ("Priya", "Arjun", "Karthik", "Sneha", "Rohit", "Divya", "Vikram", "Ananya", "Rahul", "Meera", "Suresh",
           "Aditya")
_CLASSES = ("CollectController", "PspClient", "LedgerPostingService", "TxnEventPublisher", "RiskScoreClient",
            "NotificationDispatcher", "RedisIdempotencyStore", "SettlementBatchJob", "VpaLookupService",
            "RefundService", "MandateScheduler", "ReconMatcher")
_PKGS = ("upi.collect", "upi.pay", "ledger.posting", "settlement.batch", "risk.client", "notif.dispatch",
         "refund.core", "psp.client")
_TF_DIRS = ("eks", "aurora-ledger", "msk", "elasticache-idem", "vpc", "iam-roles", "alb-ingress", "s3-recon")
_ALERTS = ("KafkaConsumerLagHigh", "UpiCollectP99High", "PspTimeoutRatioHigh", "AuroraReplicaLagHigh",
           "PodCrashLooping", "HikariPoolExhausted", "JvmHeapUsageHigh", "Http5xxRateHigh", "RedisMemoryHigh")
_MONTHS = ("Nov", "Dec", "Jan", "Feb")
_PREFIX = ("mandate", "autopay", "chargeback", "dispute", "payout", "topup", "bbps", "qrpay", "upilite", "rupay",
           "nach", "imps", "escrow", "cashback", "offers", "giftcard")
_SUFFIX = ("sweeper", "relay", "warmer", "janitor", "fanout", "reaper", "bridge", "poller", "stitcher", "notary",
           "courier", "sentinel")
COMBOS = tuple(f"{p}-{s}" for p in _PREFIX for s in _SUFFIX) + tuple(f"{s}-{p}" for p in _PREFIX for s in _SUFFIX)
_FIRST = ("nandini", "harsha", "tejas", "shruthi", "manjunath", "pallavi", "girish", "varsha", "chaitra", "prajwal")
_LAST = ("iyer", "hegde", "kulkarni", "shenoy", "bhat", "gowda", "naik", "kamath")
_UP = string.ascii_uppercase + string.digits
_LOW = string.ascii_lowercase + string.digits
_HEX = "0123456789abcdef"

SYSTEM_PROMPT = (
    "You are Setu-Ops, the on-call operations agent for PaySetu's payments platform (UPI collect and pay, mandates, "
    "ledger, settlement, refunds) running on EKS in ap-south-1, with DR in ap-south-2. You work with the SRE on duty.\n\n"
    "Tools: kubectl (EKS), terraform (terragrunt wrappers under infra/live), aws (CLI v2), promql (Thanos), kafka_cli "
    "(MSK admin tools), pagerduty, read_file, edit_file, write_file, shell (helm, argocd, gradle, k6, redis-cli, psql, "
    "openssl).\n\nGuidelines:\n- Prefer read-only commands; say what a mutating command will do before running it.\n"
    "- Never print card data, full VPAs or customer mobile numbers; redact secrets.\n- Quote exact error lines when you "
    "report failures.\n- Keep a running todo list during long investigations.\n- Humans read times in IST (UTC+05:30)."
)


def _camel(combo: str) -> str:
    return "".join(part.capitalize() for part in combo.split("-"))


def _snake(combo: str) -> str:
    return combo.replace("-", "_")


class _Lazy:
    """A tool output rendered last, at the size the character budget gives it."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[int], str]) -> None:
        self.make = make


@dataclass
class _Episode:
    messages: list[Message]
    key: float
    facts: list[dict[str, Any]] = field(default_factory=list)  # kind, value, query, offset, stale..., resolved_off
    pasted: list[tuple[int, str]] = field(default_factory=list)
    start: int = 0


class _Builder:
    def __init__(self, seed: int, n: int) -> None:
        self.rng = random.Random(seed)
        self.n = n
        self.k = per_kind(n)
        self.compact = n < 240
        self.calls = 0
        combos = list(COMBOS)
        self.rng.shuffle(combos)
        self.combos = combos
        self.values: list[str] = []
        self.day = self.rng.randint(1, 27)
        self.todo_done = 0
        self.decks: dict[str, list[int]] = {}

    # --- primitives ----------------------------------------------------------------------------------------------
    def deal(self, name: str, size: int) -> int:
        """The next of ``size`` templates from a shuffled deck: a session uses each once before any twice."""
        deck = self.decks.get(name)
        if not deck:
            deck = list(range(size))
            self.rng.shuffle(deck)
            self.decks[name] = deck
        return deck.pop()

    def combo(self) -> str:
        return self.combos.pop()

    def taken(self, *values: str) -> bool:
        return any(v in u or u in v for v in values for u in self.values) or len(set(values)) < len(values)

    def keep(self, *values: str) -> None:
        self.values.extend(values)

    def call(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        self.calls += 1
        cid = f"call_{self.calls:05d}{''.join(self.rng.choice(_LOW) for _ in range(6))}"
        return {"id": cid, "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}

    @staticmethod
    def user(text: str) -> Message:
        return {"role": "user", "content": text}

    @staticmethod
    def assistant(text: str, calls: list[dict[str, Any]] | None = None) -> Message:
        m: Message = {"role": "assistant", "content": text}
        if calls:
            m["tool_calls"] = calls
        return m

    @staticmethod
    def tool(call: dict[str, Any], content: str | _Lazy) -> Message:
        return {"role": "tool", "tool_call_id": call["id"], "name": call["function"]["name"], "content": content}

    def ts(self) -> str:
        r = self.rng
        return f"2024-11-{self.day:02d} {r.randint(0, 23):02d}:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}.{r.randint(0, 999):03d}"

    def clock(self) -> str:
        return f"{self.rng.randint(8, 23):02d}:{self.rng.randint(0, 59):02d}"

    def hexs(self, k: int) -> str:
        return "".join(self.rng.choice(_HEX) for _ in range(k))

    def alnum(self, k: int, alphabet: str = _UP) -> str:
        return "".join(self.rng.choice(alphabet) for _ in range(k))

    def digits(self, k: int) -> str:
        return str(self.rng.randint(1, 9)) + "".join(self.rng.choice("0123456789") for _ in range(k - 1))

    def pod(self, svc: str) -> str:
        return f"{svc}-{self.hexs(9)}{self.rng.choice('bcdfg')}-{self.alnum(5, string.ascii_lowercase)}"

    def uuid(self) -> str:
        h = self.hexs(32)
        return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"

    def typo(self, text: str) -> str:
        """Now and then swap two letters of one word, the way people type on a phone during an incident."""
        r = self.rng
        if r.random() > 0.18:
            return text
        words = text.split(" ")
        cands = [i for i, w in enumerate(words) if len(w) >= 5 and w.isalpha()]
        if not cands:
            return text
        i = r.choice(cands)
        w = words[i]
        j = r.randint(1, len(w) - 3)
        words[i] = w[:j] + w[j + 1] + w[j] + w[j + 2:]
        return " ".join(words)

    # --- noise lines (filler vocabulary only) --------------------------------------------------------------------
    def log_line(self) -> str:
        r = self.rng
        roll = r.random()
        cls = r.choice(_CLASSES)
        logger = f"c.p.{r.choice(_PKGS)}.{cls}"
        thread = r.choice(("http-nio-8080-exec-", "kafka-consumer-", "scheduling-", "lettuce-nioEventLoop-4-",
                           "task-")) + str(r.randint(1, 24))
        psp = r.choice(_PSPS)
        if roll < 0.22:
            msg = (f"Collect request accepted txnId=PSP{self.digits(12)} amount=INR {r.randint(1, 99999)}.{r.randint(0, 99):02d} "
                   f"psp={psp} latencyMs={r.randint(40, 900)}")
        elif roll < 0.42:
            code = r.choice(_CODES)
            msg = f"NPCI response respCode={code} rrn={self.digits(12)} psp={psp} elapsed={r.randint(80, 4000)}ms"
        elif roll < 0.52:
            grp = r.choice(_GROUPS)
            msg = (f"[Consumer clientId=consumer-{grp}-{r.randint(1, 9)}, groupId={grp}] Committing offsets for "
                   f"partition {r.choice(_TOPICS)}-{r.randint(0, 23)}: offset {r.randint(10000, 99999999)}")
            logger = "o.a.k.c.c.internals.ConsumerCoordinator"
        elif roll < 0.60:
            a = r.randint(0, 20)
            msg = f"HikariPool-1 - Pool stats (total=20, active={a}, idle={20 - a}, waiting={r.randint(0, 9)})"
            logger = "com.zaxxer.hikari.pool.HikariPool"
        elif roll < 0.68:
            msg = f"Posted journal batch={r.randint(1000, 99999)} entries={r.randint(1, 400)} in {r.randint(3, 700)}ms"
        elif roll < 0.76:
            msg = f"Retrying PSP call attempt={r.randint(1, 3)}/3 after {r.choice((200, 400, 800, 1600))}ms psp={psp}"
        elif roll < 0.84:
            msg = f"Idempotency hit key=idem:{self.hexs(16)} ttl={r.randint(60, 86400)}s"
        elif roll < 0.92:
            msg = (f"GET /v1/collect/status/{self.digits(10)} status={r.choice((200, 200, 200, 404, 409, 503))} "
                   f"durationMs={r.randint(2, 3000)} vpa=****@ok{psp}")
        else:
            msg = f"Settlement window {r.randint(1, 10)} cutoff check ok pending={r.randint(0, 5000)} psp={psp}"
        lvl = "INFO" if roll < 0.7 else r.choice(("INFO", "WARN", "WARN", "ERROR", "DEBUG"))
        return f"{self.ts()} {lvl:>5} 1 --- [{thread:>22}] {logger:<44} : {msg}"

    def stack(self) -> list[str]:
        r = self.rng
        exc = r.choice(("java.net.SocketTimeoutException: Read timed out",
                        "org.springframework.web.client.ResourceAccessException: I/O error on POST request for "
                        "\"https://psp-gw.internal:8443/upi/reqpay\": Read timed out",
                        "io.lettuce.core.RedisCommandTimeoutException: Command timed out after 2 second(s)",
                        "org.apache.kafka.common.errors.TimeoutException: Topic upi.txn.events not present in "
                        "metadata after 60000 ms."))
        lines = [exc]
        for _ in range(r.randint(4, 9)):
            cls = r.choice(_CLASSES)
            lines.append(f"\tat com.paysetu.{r.choice(_PKGS)}.{cls}.{r.choice(('call', 'handle', 'post', 'execute', 'apply', 'send'))}"
                         f"({cls}.java:{r.randint(30, 480)})")
        lines.append(f"\t... {r.randint(20, 90)} common frames omitted")
        return lines

    def logs(self, target: int) -> str:
        parts: list[str] = []
        size = 0
        r = self.rng
        while size < target:
            if r.random() < 0.06:
                block = self.stack()
                parts.extend(block)
                size += sum(len(b) + 1 for b in block)
            else:
                line = self.log_line()
                parts.append(line)
                size += len(line) + 1
        return "\n".join(parts)

    def pods_table(self, target: int) -> str:
        r = self.rng
        parts = [f"{'NAME':<48}{'READY':<8}{'STATUS':<18}{'RESTARTS':<12}{'AGE':<8}{'IP':<16}NODE"]
        size = len(parts[0])
        while size < target:
            svc = r.choice(_SERVICES)
            status = r.choice(("Running",) * 12 + ("CrashLoopBackOff", "Pending", "OOMKilled", "Terminating"))
            line = (f"{self.pod(svc):<48}{'1/1' if status == 'Running' else '0/1':<8}{status:<18}"
                    f"{r.randint(0, 14):<12}{str(r.randint(1, 59)) + r.choice('mhd'):<8}"
                    f"{'10.42.' + str(r.randint(0, 255)) + '.' + str(r.randint(1, 254)):<16}"
                    f"ip-10-42-{r.randint(0, 255)}-{r.randint(1, 254)}.ap-south-1.compute.internal")
            parts.append(line)
            size += len(line) + 1
        return "\n".join(parts)

    def events(self, target: int) -> str:
        r = self.rng
        parts = [f"{'LAST SEEN':<11}{'TYPE':<9}{'REASON':<22}{'OBJECT':<52}MESSAGE"]
        size = len(parts[0])
        msgs = ("Readiness probe failed: HTTP probe failed with statuscode: 503",
                "Back-off restarting failed container", "Successfully assigned pod to node",
                "Container image already present on machine", "Scaled up replica set to {n}",
                "0/{n} nodes are available: {m} Insufficient memory.", "Liveness probe failed: Get \"http://10.42.{n}.{m}:8081/actuator/health\": context deadline exceeded",
                "Evicted: The node was low on resource: memory.", "Created container app", "Pulling image")
        while size < target:
            svc = r.choice(_SERVICES)
            line = (f"{str(r.randint(1, 59)) + r.choice('sm'):<11}{r.choice(('Normal', 'Normal', 'Warning')):<9}"
                    f"{r.choice(('Unhealthy', 'BackOff', 'Scheduled', 'Pulled', 'ScalingReplicaSet', 'FailedScheduling', 'Killing', 'Evicted')):<22}"
                    f"{'pod/' + self.pod(svc):<52}{r.choice(msgs).format(n=r.randint(2, 40), m=r.randint(1, 9))}")
            parts.append(line)
            size += len(line) + 1
        return "\n".join(parts)

    def top(self, target: int) -> str:
        r = self.rng
        parts = [f"{'NAME':<48}{'CPU(cores)':<12}MEMORY(bytes)"]
        size = 80
        while size < target:
            line = f"{self.pod(r.choice(_SERVICES)):<48}{str(r.randint(5, 1900)) + 'm':<12}{r.randint(300, 3900)}Mi"
            parts.append(line)
            size += len(line) + 1
        return "\n".join(parts)

    def describe_pod(self, target: int) -> str:
        r = self.rng
        svc = r.choice(_SERVICES)
        head = [f"Name:             {self.pod(svc)}", f"Namespace:        {_NS[svc]}", "Priority:         0",
                f"Node:             ip-10-42-{r.randint(0, 255)}-{r.randint(1, 254)}.ap-south-1.compute.internal/10.42.{r.randint(0, 255)}.{r.randint(1, 254)}",
                f"Labels:           app={svc}", "                  pod-template-hash=" + self.hexs(10),
                "Status:           Running", "Containers:", "  app:",
                f"    Image:          {r.randint(1, 9)}{self.digits(11)}.dkr.ecr.ap-south-1.amazonaws.com/{svc}:{r.randint(1, 3)}.{r.randint(0, 40)}.{r.randint(0, 9)}",
                "    Ports:          8080/TCP, 8081/TCP", "    State:          Running",
                f"    Restart Count:  {r.randint(0, 9)}", "    Limits:", f"      cpu:     {r.choice((1, 2, 4))}",
                f"      memory:  {r.choice((2, 3, 4, 6))}Gi", "    Requests:", f"      cpu:     {r.choice((250, 500, 1000))}m",
                f"      memory:  {r.choice((1, 2, 3))}Gi", "    Environment:",
                f"      JAVA_TOOL_OPTIONS:  -Xms{r.choice((1, 2))}g -XX:+ExitOnOutOfMemoryError",
                "      SPRING_PROFILES_ACTIVE:  prod", "Events:"]
        return "\n".join(head) + "\n" + self.events(max(200, target - 1200))

    def hpa(self, target: int) -> str:
        r = self.rng
        parts = [f"{'NAME':<20}{'REFERENCE':<34}{'TARGETS':<14}{'MINPODS':<9}{'MAXPODS':<9}{'REPLICAS':<10}AGE"]
        size = 100
        while size < target:
            svc = r.choice(_SERVICES)
            line = (f"{svc:<20}{'Deployment/' + svc:<34}{str(r.randint(10, 140)) + '%/70%':<14}{r.randint(2, 6):<9}"
                    f"{r.randint(8, 40):<9}{r.randint(2, 30):<10}{r.randint(1, 400)}d")
            parts.append(line)
            size += len(line) + 1
        return "\n".join(parts)

    def kubectl_out(self, target: int) -> str:
        return self.rng.choice((self.pods_table, self.logs, self.logs, self.events, self.top, self.describe_pod,
                                self.hpa))(target)

    def tf_plan(self, target: int) -> str:
        r = self.rng
        d = r.choice(_TF_DIRS)
        parts: list[str] = []
        size = 0
        while size < target * 0.45:
            line = (f"module.{d.replace('-', '_')}.aws_{r.choice(('security_group_rule', 'iam_role_policy', 'eks_addon', 'rds_cluster_instance', 'cloudwatch_metric_alarm', 's3_bucket_policy'))}"
                    f".this[{r.randint(0, 9)}]: Refreshing state... [id={r.choice(('sgr-', 'arn-', 'i-', ''))}{self.hexs(17)}]")
            parts.append(line)
            size += len(line) + 1
        parts += ["", "Terraform used the selected providers to generate the following execution plan. Resource actions",
                  "are indicated with the following symbols:", "  ~ update in-place", "-/+ destroy and then create replacement",
                  "", "Terraform will perform the following actions:", ""]
        changed = 0
        while size < target:
            res = r.choice(("aws_eks_node_group", "aws_rds_cluster_instance", "aws_cloudwatch_metric_alarm",
                            "aws_security_group_rule", "aws_msk_configuration", "aws_iam_role_policy"))
            changed += 1
            block = [f"  # module.{d.replace('-', '_')}.{res}.this[\"{r.choice(('general', 'system', 'writer', 'reader-1', 'p99'))}\"] will be updated in-place",
                     f"  ~ resource \"{res}\" \"this\" {{", f"        id     = \"{self.hexs(12)}\"",
                     "      ~ tags   = {", f"          ~ \"change\" = \"SRE-{r.randint(1000, 9999)}\" -> \"SRE-{r.randint(1000, 9999)}\"",
                     "            # (4 unchanged elements hidden)", "        }"]
            if res == "aws_eks_node_group":
                block += ["      ~ scaling_config {", f"          ~ desired_size = {r.randint(3, 9)} -> {r.randint(6, 14)}",
                          "            # (2 unchanged attributes hidden)", "        }"]
            elif res == "aws_cloudwatch_metric_alarm":
                block += [f"      ~ threshold           = {r.randint(50, 99)} -> {r.randint(50, 99)}",
                          f"      ~ evaluation_periods  = {r.randint(1, 5)} -> {r.randint(1, 5)}"]
            else:
                block += [f"      ~ {r.choice(('description', 'server_properties', 'policy', 'promotion_tier'))} = (sensitive value)"]
            block += ["        # (11 unchanged attributes hidden)", "    }", ""]
            parts.extend(block)
            size += sum(len(b) + 1 for b in block)
        parts.append(f"Plan: 0 to add, {changed} to change, 0 to destroy.")
        return "\n".join(parts)

    def aws_json(self, target: int) -> str:
        r = self.rng
        kind = r.randrange(4)
        items: list[Any] = []
        size = 0
        while size < target:
            if kind == 0:
                item: dict[str, Any] = {"Timestamp": f"2024-11-{self.day:02d}T{r.randint(0, 23):02d}:{r.randint(0, 59):02d}:00+00:00",
                                        "Sum": float(r.randint(0, 9000)), "Maximum": round(r.uniform(0, 100), 2),
                                        "Unit": r.choice(("Count", "Percent"))}
            elif kind == 1:
                item = {"DBInstanceIdentifier": f"ledger-prod-{r.randint(1, 4)}", "DBInstanceClass": r.choice(("db.r5.2xlarge", "db.r5.4xlarge")),
                        "Engine": "aurora-postgresql", "EngineVersion": "15.4", "DBInstanceStatus": r.choice(("available", "modifying")),
                        "Endpoint": {"Address": f"ledger-prod-{r.randint(1, 4)}.c{self.hexs(10)}.ap-south-1.rds.amazonaws.com", "Port": 5432},
                        "AvailabilityZone": f"ap-south-1{r.choice('abc')}", "PerformanceInsightsEnabled": True}
            elif kind == 2:
                item = {"InstanceId": f"i-0{self.hexs(16)}", "InstanceType": r.choice(("m6i.2xlarge", "c6i.4xlarge", "m6i.4xlarge")),
                        "PrivateIpAddress": f"10.42.{r.randint(0, 255)}.{r.randint(1, 254)}", "State": {"Code": 16, "Name": "running"},
                        "Tags": [{"Key": "eks:nodegroup-name", "Value": r.choice(("general", "system", "spot-batch"))}]}
            else:
                item = {"GroupId": f"sg-0{self.hexs(16)}", "IpProtocol": "tcp", "FromPort": r.choice((443, 5432, 6379, 9092, 9094, 8080)),
                        "ToPort": r.choice((443, 5432, 6379, 9092, 9094, 8080)), "CidrIpv4": f"10.{r.randint(40, 45)}.0.0/16",
                        "Description": r.choice(("eks nodes", "bastion", "msk clients", "aurora clients"))}
            items.append(item)
            size += len(json.dumps(item)) + 40
        key = ("Datapoints", "DBInstances", "Instances", "SecurityGroupRules")[kind]
        return json.dumps({key: items}, indent=4)

    def promql_out(self, target: int) -> str:
        r = self.rng
        parts = ['{"status":"success","data":{"resultType":"vector","result":[']
        size = 60
        while size < target:
            metric = r.choice(("upi_txn_total", "http_server_requests_seconds_count", "upi_psp_latency_seconds",
                               "jvm_memory_used_bytes", "kafka_consumergroup_lag", "hikaricp_connections_active"))
            line = (f'  {{"metric":{{"__name__":"{metric}","service":"{r.choice(_SERVICES)}","psp":"{r.choice(_PSPS)}",'
                    f'"resp_code":"{r.choice(_CODES)}","pod":"{self.pod(r.choice(_SERVICES))}"}},'
                    f'"value":[{1730000000 + r.randint(0, 999999)},"{round(r.uniform(0, 99), r.randint(0, 3))}"]}},')
            parts.append(line)
            size += len(line) + 1
        parts.append("]}}")
        return "\n".join(parts)

    def lag_table(self, target: int) -> str:
        r = self.rng
        parts: list[str] = []
        size = 0
        while size < target:
            grp = r.choice(_GROUPS)
            topic = r.choice(_TOPICS)
            head = (f"\nGROUP{' ' * 16}TOPIC{' ' * 18}PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG     "
                    f"CONSUMER-ID{' ' * 40}HOST            CLIENT-ID")
            parts.append(head)
            total = 0
            nparts = r.randint(6, 24)
            for p in range(nparts):
                cur = r.randint(1_000_000, 90_000_000)
                lag = r.randint(0, 2500)
                total += lag
                member = f"consumer-{grp}-{r.randint(1, 9)}-{self.uuid()}"
                line = (f"{grp:<21}{topic:<23}{p:<11}{cur:<16}{cur + lag:<16}{lag:<8}{member:<51}"
                        f"/10.42.{r.randint(0, 255)}.{r.randint(1, 254):<7}consumer-{grp}-{r.randint(1, 9)}")
                parts.append(line)
                size += len(line) + 1
            parts.append(f"# {grp}: total lag {total} across {nparts} partitions")
        return "\n".join(parts)

    def kafka_out(self, target: int) -> str:
        r = self.rng
        if r.random() < 0.75:
            return self.lag_table(target)
        parts = []
        size = 0
        while size < target:
            topic = r.choice(_TOPICS)
            parts.append(f"Topic: {topic}\tTopicId: {self.alnum(22, string.ascii_letters + string.digits)}\t"
                         f"PartitionCount: 24\tReplicationFactor: 3\tConfigs: min.insync.replicas=2,cleanup.policy=delete")
            for p in range(24):
                b = [r.randint(1, 6) for _ in range(3)]
                parts.append(f"\tTopic: {topic}\tPartition: {p}\tLeader: {b[0]}\tReplicas: {b[0]},{b[1]},{b[2]}\tIsr: {b[0]},{b[1]}")
            size = sum(len(x) + 1 for x in parts)
        return "\n".join(parts)

    def pd_out(self, target: int) -> str:
        r = self.rng
        parts = [f"{'ID':<16}{'STATUS':<14}{'URGENCY':<9}{'SERVICE':<22}{'CREATED (UTC)':<23}TITLE"]
        size = 100
        while size < target:
            if r.random() < 0.8:
                line = (f"{'Q' + self.alnum(13):<16}{r.choice(('triggered', 'acknowledged', 'resolved', 'resolved')):<14}"
                        f"{r.choice(('high', 'low')):<9}{r.choice(('UPI Switch', 'Ledger', 'Platform EKS', 'Settlement', 'Risk')):<22}"
                        f"{'2024-11-' + format(self.day, '02d') + 'T' + format(r.randint(0, 23), '02d') + ':' + format(r.randint(0, 59), '02d') + ':11Z':<23}"
                        f"[FIRING:{r.randint(1, 4)}] {r.choice(_ALERTS)} {r.choice(_SERVICES)}")
            else:
                line = (f"  log_entry {r.choice(('acknowledge', 'notify', 'escalate', 'annotate'))} by "
                        f"{r.choice(_PEOPLE)} at {self.clock()}: {r.choice(('SMS sent', 'escalated to level 2', 'ack via Slack', 'note: looking into lag'))}")
            parts.append(line)
            size += len(line) + 1
        return "\n".join(parts)

    def file_body(self, target: int) -> str:
        r = self.rng
        kind = r.randrange(3)
        svc = r.choice(_SERVICES)
        src: list[str]
        if kind == 0:
            src = ["spring:", "  datasource:", f"    url: jdbc:postgresql://ledger-prod.cluster-c{self.hexs(10)}.ap-south-1.rds.amazonaws.com:5432/ledger",
                   "    hikari:", f"      maximum-pool-size: {r.choice((10, 20, 30))}", "      connection-timeout: 30000",
                   "  kafka:", "    bootstrap-servers: b-1.msk-prod.kafka.ap-south-1.amazonaws.com:9094",
                   "    consumer:", f"      group-id: {r.choice(_GROUPS)}", "      enable-auto-commit: false",
                   "  data:", "    redis:", "      host: idem-prod.cache.amazonaws.com", "      port: 6379",
                   "server:", "  port: 8080", "management:", "  server:", "    port: 8081"]
            while sum(len(s) for s in src) < target * 0.9:
                p = r.choice(_PSPS)
                src += [f"psp.{p}.base-url: https://{p}-upi.internal:8443", f"psp.{p}.timeout-ms: {r.randint(5, 40) * 100}",
                        f"psp.{p}.retries: {r.randint(1, 3)}", f"# owner: {r.choice(_PEOPLE)} (updated {self.clock()})"]
        elif kind == 1:
            src = ["replicaCount: 4", "image:", f"  repository: ecr/{svc}", f"  tag: \"{r.randint(1, 3)}.{r.randint(0, 40)}.{r.randint(0, 9)}\"",
                   "resources:", "  limits:", f"    memory: {r.choice((2, 3, 4))}Gi", "  requests:", "    cpu: 500m",
                   "autoscaling:", "  enabled: true", "  minReplicas: 4", f"  maxReplicas: {r.randint(12, 40)}",
                   "  targetCPUUtilizationPercentage: 70", "podDisruptionBudget:", "  maxUnavailable: 1"]
            while sum(len(s) for s in src) < target * 0.9:
                src += ["env:", f"  - name: {r.choice(('PSP_TIMEOUT_MS', 'LEDGER_BATCH_SIZE', 'REDIS_TTL_S', 'OTEL_SAMPLER_RATIO'))}",
                        f"    value: \"{r.randint(1, 5000)}\"", f"# see {r.choice(_CLASSES)}.java:{r.randint(20, 400)}"]
        else:
            cls = r.choice(_CLASSES)
            src = [f"package com.paysetu.{r.choice(_PKGS)};", "", "import java.time.Duration;",
                   "import org.springframework.stereotype.Service;", "", "@Service", f"public class {cls} {{", ""]
            while sum(len(s) for s in src) < target * 0.9:
                m = r.choice(("post", "call", "retry", "settle", "lookup", "publish"))
                src += [f"    public Result {m}{r.randint(1, 99)}(Request req) {{",
                        f"        var deadline = Duration.ofMillis({r.randint(2, 40) * 100});",
                        f"        log.info(\"{m} started id={{}} psp={{}}\", req.id(), req.psp());",
                        "        if (req.amount().signum() <= 0) {",
                        "            throw new IllegalArgumentException(\"amount must be positive\");", "        }",
                        f"        return client.{m}(req, deadline);", "    }", ""]
            src.append("}")
        return "\n".join(f"{i + 1:>4} | {s}" for i, s in enumerate(src))

    def shell_out(self, target: int) -> str:
        r = self.rng
        kind = r.randrange(7)
        parts: list[str] = []
        size = 0
        if kind == 0:  # helm history
            svc = r.choice(_SERVICES)
            parts.append(f"{'REVISION':<10}{'UPDATED':<28}{'STATUS':<13}{'CHART':<22}{'APP VERSION':<13}DESCRIPTION")
            rev = r.randint(20, 90)
            while size < target:
                rev += 1
                line = (f"{rev:<10}{'Sat Nov ' + format(self.day, '2d') + ' ' + self.clock() + ':11 2024':<28}"
                        f"{r.choice(('superseded', 'superseded', 'deployed', 'failed')):<13}{svc + '-' + str(r.randint(1, 2)) + '.' + str(r.randint(0, 30)) + '.' + str(r.randint(0, 9)):<22}"
                        f"{str(r.randint(1, 3)) + '.' + str(r.randint(0, 40)) + '.0':<13}{r.choice(('Upgrade complete', 'Rollback to ' + str(rev - 2), 'Upgrade ' + svc + ' failed'))}")
                parts.append(line)
                size += len(line) + 1
        elif kind == 1:  # gradle tests passing
            svc = r.choice(_SERVICES)
            parts += [f"> Task :{svc}:compileJava UP-TO-DATE", f"> Task :{svc}:test"]
            while size < target:
                cls = r.choice(_CLASSES)
                line = f"{cls}Test > {r.choice(('handles', 'rejects', 'retries', 'posts', 'maps'))}{r.choice(('U30', 'ZM', 'Timeout', 'Duplicate', 'Reversal'))}() PASSED"
                parts.append(line)
                size += len(line) + 1
            parts += ["", f"BUILD SUCCESSFUL in {r.randint(20, 140)}s", f"{r.randint(4, 9)} actionable tasks: {r.randint(1, 4)} executed"]
        elif kind == 2:  # k6
            parts += ["          /\\      |‾‾| /‾‾/   /‾‾/", "     /\\  /  \\     |  |/  /   /  /", "",
                      "  execution: local", f"     script: k6/scenarios/{r.choice(_SERVICES)}-smoke.js", ""]
            while size < target:
                block = [f"     checks.........................: {r.randint(90, 100)}.{r.randint(0, 99):02d}% ✓ {r.randint(1000, 99999)} ✗ {r.randint(0, 900)}",
                         f"     http_req_duration..............: avg={r.randint(40, 900)}.{r.randint(0, 9)}ms min={r.randint(2, 30)}ms med={r.randint(30, 400)}ms max={r.randint(1, 9)}.{r.randint(0, 99)}s p(90)={r.randint(100, 900)}ms p(95)={r.randint(200, 999)}ms",
                         f"     http_req_failed................: {r.randint(0, 9)}.{r.randint(0, 99):02d}% ✓ {r.randint(0, 900)} ✗ {r.randint(1000, 99999)}",
                         f"     iterations.....................: {r.randint(1000, 99999)} {r.randint(50, 999)}.{r.randint(0, 999)}/s",
                         f"     vus............................: {r.randint(10, 400)} min={r.randint(1, 10)} max={r.randint(100, 800)}", ""]
                parts.extend(block)
                size += sum(len(b) + 1 for b in block)
        elif kind == 3:  # redis info
            parts += ["# Memory", f"used_memory:{r.randint(10**8, 10**10)}", f"used_memory_human:{r.randint(1, 12)}.{r.randint(0, 99)}G",
                      f"maxmemory:{r.choice((6, 12, 25))}000000000", "maxmemory_policy:noeviction", "# Stats", "evicted_keys:0"]
            while size < target:
                line = (f"db0:keys={r.randint(10**5, 10**7)},expires={r.randint(10**4, 10**6)},avg_ttl={r.randint(1000, 86400000)} "
                        f"| slowlog id={r.randint(100, 9999)} {r.randint(1000, 90000)}us {r.choice(('GET', 'SET', 'EVALSHA', 'MGET'))} idem:{self.hexs(16)}")
                parts.append(line)
                size += len(line) + 1
        elif kind == 4:  # psql
            parts.append(" pid   | application_name     | state               | wait_event_type | query_start   | query")
            parts.append("-------+----------------------+---------------------+-----------------+---------------+------")
            while size < target:
                line = (f" {r.randint(1000, 99999):<5} | {r.choice(_SERVICES):<20} | {r.choice(('active', 'idle', 'idle', 'idle in transaction')):<19} | "
                        f"{r.choice(('Lock', 'Client', 'IO', '')):<15} | {self.clock()}:{r.randint(10, 59)}      | "
                        f"{r.choice(('SELECT * FROM journal_entries WHERE txn_id = $1', 'UPDATE settlements SET status = $1 WHERE id = $2', 'COMMIT', 'INSERT INTO outbox (id, payload) VALUES ($1, $2)'))}")
                parts.append(line)
                size += len(line) + 1
            parts.append(f"({len(parts) - 2} rows)")
        elif kind == 5:  # GC log
            while size < target:
                a = r.randint(600, 3000)
                line = (f"[2024-11-{self.day:02d}T{self.clock()}:{r.randint(10, 59)}.{r.randint(100, 999)}+0530][info][gc] GC({r.randint(100, 9999)}) "
                        f"Pause Young (Normal) (G1 Evacuation Pause) {a}M->{r.randint(100, a)}M(4096M) {r.randint(2, 90)}.{r.randint(100, 999)}ms")
                parts.append(line)
                size += len(line) + 1
        else:  # argocd app get
            svc = r.choice(_SERVICES)
            parts += [f"Name:               argocd/{svc}-prod", "Project:            payments", "Server:             https://kubernetes.default.svc",
                      f"Namespace:          {_NS[svc]}", "Repo:               https://git.paysetu.internal/platform/deploy.git",
                      "Target:             main", f"Sync Status:        {r.choice(('Synced', 'OutOfSync'))}",
                      f"Health Status:      {r.choice(('Healthy', 'Progressing', 'Degraded'))}", "",
                      f"{'GROUP':<8}{'KIND':<24}{'NAMESPACE':<12}{'NAME':<34}{'STATUS':<10}{'HEALTH':<12}HOOK  MESSAGE"]
            while size < target:
                kindname = r.choice(("Deployment", "Service", "ConfigMap", "HorizontalPodAutoscaler", "PodDisruptionBudget", "ServiceMonitor"))
                line = (f"{r.choice(('apps', '', 'policy', 'autoscaling')):<8}{kindname:<24}{_NS[svc]:<12}"
                        f"{svc + '-' + r.choice(('main', 'canary', 'config', 'metrics', str(r.randint(1, 9)))):<34}{r.choice(('Synced', 'Synced', 'OutOfSync')):<10}"
                        f"{r.choice(('Healthy', 'Healthy', 'Progressing', '')):<12}      {r.choice(('configured', 'unchanged', 'created'))}")
                parts.append(line)
                size += len(line) + 1
        return "\n".join(parts)

    def noise(self, tool: str, target: int) -> str:
        if tool == "kubectl":
            return self.kubectl_out(target)
        if tool == "terraform":
            return self.tf_plan(target)
        if tool == "aws":
            return self.aws_json(target)
        if tool == "promql":
            return self.promql_out(target)
        if tool == "kafka_cli":
            return self.kafka_out(target)
        if tool == "pagerduty":
            return self.pd_out(target)
        if tool == "read_file":
            return self.file_body(target)
        return self.shell_out(target)

    def lazy(self, tool: str) -> _Lazy:
        return _Lazy(lambda t: self.noise(tool, t))

    def embed(self, tool: str, lines: list[str], at: float | None = None) -> _Lazy:
        """Noise of the tool around ``lines`` (kept together, each a whole line)."""

        def make(t: int) -> str:
            body = self.noise_kind(tool, max(300, t - sum(len(x) + 1 for x in lines)))
            rows = body.split("\n")
            pos = int(len(rows) * (self.rng.uniform(0.3, 0.9) if at is None else at))
            return "\n".join(rows[:pos] + lines + rows[pos:])

        return _Lazy(make)

    # --- filler: tool calls and the chat around them -------------------------------------------------------------
    def filler_call(self, tool: str) -> tuple[dict[str, Any], str | _Lazy]:
        r = self.rng
        svc = r.choice(_SERVICES)
        ns = _NS[svc]
        args: dict[str, Any]
        if tool == "kubectl":
            args = {"args": r.choice((f"get pods -n {ns} -l app={svc} -o wide", f"logs deploy/{svc} -n {ns} --since=15m",
                                      f"describe pod -n {ns} -l app={svc}", f"get events -n {ns} --sort-by=.lastTimestamp",
                                      f"top pods -n {ns}", f"get hpa -n {ns}", f"logs -n {ns} -l app={svc} --tail=300"))}
        elif tool == "terraform":
            args = {"dir": f"infra/live/prod/ap-south-1/{r.choice(_TF_DIRS)}", "command": "terragrunt plan -no-color"}
        elif tool == "aws":
            args = {"command": r.choice(("cloudwatch get-metric-statistics --namespace AWS/ApplicationELB --metric-name HTTPCode_Target_5XX_Count --period 60 --statistics Sum",
                                         "rds describe-db-instances --filters Name=db-cluster-id,Values=ledger-prod",
                                         "ec2 describe-instances --filters Name=tag:eks:cluster-name,Values=pay-eks-prod",
                                         "ec2 describe-security-group-rules --filters Name=group-id,Values=sg-0" + self.hexs(16)))}
        elif tool == "promql":
            args = {"query": r.choice((f"sum by (psp, resp_code) (rate(upi_txn_total{{service=\"{svc}\"}}[5m]))",
                                       f"histogram_quantile(0.95, sum by (le) (rate(http_server_requests_seconds_bucket{{service=\"{svc}\"}}[5m])))",
                                       "max by (consumergroup) (kafka_consumergroup_lag)",
                                       f"avg(jvm_memory_used_bytes{{service=\"{svc}\",area=\"heap\"}})")), "range": r.choice(("15m", "30m", "1h"))}
        elif tool == "kafka_cli":
            args = {"command": r.choice((f"kafka-consumer-groups --bootstrap-server b-1.msk-prod:9094 --describe --group {r.choice(_GROUPS)}",
                                         f"kafka-topics --bootstrap-server b-1.msk-prod:9094 --describe --topic {r.choice(_TOPICS)}"))}
        elif tool == "pagerduty":
            args = {"action": "list_incidents", "service": r.choice(("UPI Switch", "Ledger", "Platform EKS")),
                    "statuses": ["triggered", "acknowledged"], "since": "-6h"}
        elif tool == "read_file":
            args = {"path": r.choice((f"services/{svc}/src/main/resources/application-prod.yml", f"charts/{svc}/values-prod.yaml",
                                      f"services/{svc}/src/main/java/com/paysetu/{r.choice(_CLASSES)}.java")), "start": 1, "end": r.choice((120, 200, 400))}
        elif tool == "edit_file":
            path = r.choice((f"charts/{svc}/values-prod.yaml", f"alerts/{svc}.rules.yml", f"runbooks/{svc}.md"))
            args = {"path": path, "old": f"for: {r.randint(1, 5)}m", "new": f"for: {r.randint(6, 15)}m"}
            return self.call(tool, args), f"Edited {path}: 1 replacement (lines {r.randint(10, 200)}-{r.randint(201, 220)})"
        elif tool == "write_file":
            path = r.choice((f"notes/oncall-2024-11-{self.day:02d}.md", f"runbooks/{svc}-lag.md", f"k6/scenarios/{svc}-smoke.js"))
            body = "\n".join(f"- {self.clock()} {r.choice(('checked lag', 'restarted pod', 'acked PD', 'plan reviewed', 'p99 back under 800ms'))}"
                             for _ in range(r.randint(3, 12)))
            args = {"path": path, "content": body}
            return self.call(tool, args), f"Wrote {len(body)} bytes to {path}"
        else:
            args = {"cmd": r.choice((f"helm history {svc} -n {ns} --max 20", f"./gradlew :{svc}:test --no-daemon",
                                     f"k6 run k6/scenarios/{svc}-smoke.js --summary-export=/tmp/k6.json",
                                     "redis-cli -h idem-prod.cache.amazonaws.com -p 6379 --tls info",
                                     "psql \"$LEDGER_RO_URL\" -c \"select pid, application_name, state, wait_event_type, query_start, query from pg_stat_activity\"",
                                     f"kubectl exec -n {ns} deploy/{svc} -- tail -n 400 /var/log/app/gc.log",
                                     f"argocd app get {svc}-prod"))}
        return self.call(tool, args), self.lazy(tool)

    def filler_user(self) -> tuple[str, str | None]:
        """A user turn that asks for work; sometimes with something pasted (returned second)."""
        r = self.rng
        svc, grp, name = r.choice(_SERVICES), r.choice(_GROUPS), r.choice(_PEOPLE)
        roll = r.random()
        if roll < (0.2 if self.n < 1000 else 0.12):
            doc = self.pasted_doc()
            lead = r.choice(("ye dekh, abhi aaya:", "fyi, pasting this:", "bhai ye padh:", "ye mail aaya hai, dekh",
                             "pasting from the thread:", "isko dekh zara -"))
            tail = r.choice(("kya lagta hai, humpe kya impact hai?", "isse kuch change karna padega kya humko?",
                             "summary de de 3 lines mein", "ok, just keep in mind. abhi lag pe focus karte hai",
                             "koi action item humare liye?"))
            return f"{lead}\n\n{doc}\n\n{tail}", doc
        texts = (
            f"{svc} ke pods dekh zara, restarts badh rahe hai kya?", f"bhai {_NS[svc]} namespace mein kuch crashloop to nahi?",
            f"check the logs of {svc} for the last 15 min, {name} bol raha tha 5xx spike hai",
            f"{svc} ka HPA kya bol raha hai abhi", f"ek kaam kar, {svc} ka rollout status dekh",
            f"{grp} ka lag?", f"kafka lag dekh zara, {grp} pe alert aa raha hai since {self.clock()}",
            "aurora ka status check kar, replica lag to nahi?", "PD pe kya open hai abhi?",
            f"p99 nikal {svc} ki last 30m", "U30 / ZM codes ka rate dekh prometheus mein, psp wise",
            f"helm history dekh {svc} ka", "argocd app status kya hai?", f"tests chala de {svc} ke, {name} ka PR merge hua hai",
            "k6 ka last report dikha", "redis memory kitni use ho rahi hai idem cluster pe?",
            f"GC logs dekh {svc} ke, heap kaisa hai", f"{svc} ka application-prod.yml dikha",
            "eks module ka plan chala ke dikha, bas plan", "nodegroup mein kitne nodes hai abhi?",
            "cloudwatch mein ALB 5xx dekh last 1 hour", f"acha {name} puch raha hai settlement delay kyun hai, check kar",
            "can you look at the lag again", "what's the error rate by psp right now?", f"is {svc} healthy now?",
            f"{name} says ledger postings are slow since {self.clock()}, pls check", "run the smoke test once",
            "arre yaar phir se alert aaya, dekh kya hai", "matlab abhi bhi ZM aa raha hai? check kar",
            f"haan theek hai, ab {svc} ke events dekh", "ok ab runbook update kar de jo mila usse",
            "alert rule mein for: thoda badha de, flapping ho raha hai", "notes mein add kar de abhi tak ka",
        )
        return self.typo(r.choice(texts)), None

    def pasted_doc(self, kind: int | None = None) -> str:
        r = self.rng
        name, other = r.sample(_PEOPLE, 2)
        kind = r.randrange(7) if kind is None else kind
        if kind == 0:
            return (f"From: {name} <{name.lower()}.compliance@paysetu.in>\nTo: sre-payments@paysetu.in\n"
                    f"Subject: RBI storage of payment system data - action needed by {r.randint(1, 28)} {r.choice(_MONTHS)}\n\n"
                    "Hi team,\n\nAs discussed in the audit closure call, please ensure that all payment system data, including "
                    "logs, traces and Kafka payloads, is stored only in systems located in India. Do not enable cross-region "
                    f"replication outside India for any bucket tagged data-class=payments. Kindly share the bucket inventory "
                    f"and retention settings by EOD Friday. Retain application logs for no longer than {r.choice((90, 180))} days "
                    "unless legal hold applies.\n\nPlease do not forward this mail outside the org.\n\n"
                    f"Reference: RBI/2017-18/153 DPSS.CO.OD No.2785/06.08.005/2017-2018\n\nRegards,\n{name}\nCompliance")
        if kind == 1:
            return (f"RCA: settlement file delayed for {r.choice(_PSPS).upper()} ({r.randint(1, 28)} Oct)\nTeam: Ledger Platform\n"
                    f"Incident: SRE-{r.randint(1000, 9999)} | Severity: SEV2 | Duration: {r.randint(20, 190)} min\n\nTimeline\n"
                    f"{self.clock()} settlement-batcher lag crosses {r.randint(20, 90)}k\n{self.clock()} on-call paged, {name} acks\n"
                    f"{self.clock()} Aurora writer CPU at {r.randint(85, 99)}%, long-running recon query found\n\n"
                    "Root cause: an unindexed recon query held locks on settlements during the batch window.\n\n"
                    "Action items:\n1. Do not run ad-hoc recon queries on the writer; use the reader endpoint.\n"
                    "2. Please add statement_timeout=30s for the recon role.\n3. Reboot of the writer is NOT a fix, avoid it.\n")
        if kind == 2:
            return (f"Hello,\n\nThank you for contacting AWS Premium Support. This is {other} from the Databases team regarding case "
                    f"{self.digits(11)}.\n\nI reviewed the Aurora PostgreSQL cluster metrics for the window you shared. The "
                    f"FreeableMemory dropped to {r.randint(200, 900)} MB and the instance restarted due to an out of memory "
                    "condition. Please reboot the reader only after confirming the writer is healthy. Do not modify the "
                    "parameter group during peak hours; changes to shared_buffers require a reboot.\n\n"
                    f"Please enable Enhanced Monitoring at {r.choice((1, 5, 15))}s granularity and share the pg_stat_statements "
                    "output.\n\nBest regards,\nAmazon Web Services")
        if kind == 3:
            return (f"NPCI/2024-25/UPI/{r.randint(10, 99)}\n\nAll member banks and PSPs are advised to ensure that the "
                    f"Transaction Per Second (TPS) for API requests to the UPI switch does not exceed {r.randint(3, 9)}0 per "
                    "second for check status calls. Members shall not initiate more than 3 check-status calls per "
                    f"transaction within 2 hours. Please implement the changes before {r.randint(1, 28)} {r.choice(_MONTHS)} "
                    "2025. Non-compliance may attract penalties as per UPI procedural guidelines.")
        if kind == 4:
            lines = [f"[{self.clock()}] {name}: ledger-poster lag {r.randint(10, 90)}k and climbing, who's on it?",
                     f"[{self.clock()}] {other}: looking. please don't restart the consumers yet, rebalance will make it worse",
                     f"[{self.clock()}] {name}: ok. ZM spike on {r.choice(_PSPS)} too, {r.randint(2, 9)}% of txns",
                     f"[{self.clock()}] {other}: do not touch the HPA, I pinned it to {r.randint(6, 20)} for the sale",
                     f"[{self.clock()}] {name}: 👍 ping me if lag > {r.randint(50, 200)}k"]
            return "#payments-oncall\n" + "\n".join(lines)
        if kind == 5:
            return (f"CAB-{r.randint(1000, 9999)} | Change: {r.choice(('Aurora minor version upgrade', 'MSK broker type change', 'EKS 1.29 upgrade'))}\n"
                    f"Risk: {r.choice(('Medium', 'High'))} | Window: {r.randint(1, 28)} {r.choice(_MONTHS)}, {self.clock()} - {self.clock()}\n"
                    f"Implementer: {name} | Approvers: {other}, Security, Payments Ops\nRollback plan: revert via terragrunt, "
                    "restore from snapshot if data path affected.\nNotes: Do not start before the settlement batch "
                    "completes. Please attach the plan output and the on-call ack before execution.")
        return (f"Incident Notice - {r.choice(('Cashfree', 'PayU', 'Juspay', 'CCAvenue'))} | Ref: PGINC-{r.randint(10000, 99999)}\n\n"
                f"Dear Merchant,\n\nWe are observing elevated failures ({r.randint(3, 30)}%) on UPI collect requests routed via "
                f"one of our acquiring banks since {self.clock()}. Merchants are requested to retry failed transactions "
                "after 15 minutes and not to mark them as failed to customers. Please do not initiate refunds for pending "
                "transactions; status will be updated via webhook.\n\nTeam PG Operations")

    def summary(self) -> str:
        """An assistant's closing message: explains, reports numbers in its second sentence, offers options, keeps todos."""
        r = self.rng
        svc, grp, name = r.choice(_SERVICES), r.choice(_GROUPS), r.choice(_PEOPLE)
        cls = r.choice(_CLASSES)
        roll = r.randrange(9)
        if roll == 0:
            return (f"{svc} looks stable now. p95 is {r.randint(120, 900)} ms over the last 30m (was {r.randint(900, 3000)} ms "
                    f"around {self.clock()}), error rate {r.randint(0, 4)}.{r.randint(0, 9)}%.\n\nTwo options:\n1. leave it and "
                    f"watch till {self.clock()}\n2. bump minReplicas from {r.randint(3, 6)} to {r.randint(7, 12)}\n\nMera vote 1 hai, "
                    "abhi traffic normal hai.")
        if roll == 1:
            self.todo_done = min(self.todo_done + 1, 4)
            items = ["check consumer lag", "confirm ledger postings match recon", "update #payments-oncall",
                     "add note to PD incident", "review terragrunt plan", "write runbook entry"]
            todo = "\n".join(f"- [{'x' if i < self.todo_done else ' '}] {it}" for i, it in enumerate(items))
            return (f"Lag is draining. {grp} is at {r.randint(100, 9000)} messages total, down from {r.randint(10, 90)}k at "
                    f"{self.clock()}; at this rate it clears in ~{r.randint(3, 25)} min.\n\nTodo:\n{todo}")
        if roll == 2:
            return (f"Found the hot path in `{cls}.java:{r.randint(40, 460)}`. {r.randint(5, 40)} of the last {r.randint(41, 90)} "
                    f"timeouts came from one pod, the rest are spread across {r.randint(2, 6)} nodes. The retry wraps the PSP call "
                    "without a deadline, so a slow PSP holds a Hikari connection for the whole 30s. Not touching it right now; "
                    "want me to draft the change?")
        if roll == 3:
            return (f"Summary so far:\n\n| item | status |\n|---|---|\n| pods | {r.randint(4, 12)}/{r.randint(12, 14)} Ready |\n"
                    f"| HPA | {r.randint(40, 130)}% / 70% |\n| lag ({grp}) | {r.randint(0, 90)}k |\n| PD | 1 acked |\n\n"
                    f"Nothing else is firing. {name} from #payments-oncall is watching Grafana too.")
        if roll == 4:
            return (f"The response is fine: `{{\"Status\": \"available\", \"MultiAZ\": true, \"Port\": 5432, \"ReaderCount\": {r.randint(1, 3)}}}`. "
                    f"Replica lag peaked at {r.randint(10, 900)} ms at {self.clock()}, well under the 5s alert. Nothing to do on Aurora.")
        if roll == 5:
            code = r.choice(("U30", "ZM", "XY", "U69"))
            return (f"Most failures are {code}. {r.randint(2, 30)}.{r.randint(0, 9)}% of collect requests on {r.choice(_PSPS)} got it "
                    f"in the last 15 min, others are under 1%. {code} is a remitter/bank side decline, so this is not us; "
                    "I'd keep retries as they are and tell the merchant desk.")
        if roll == 6:
            return (f"Done. The plan is clean: {r.randint(0, 3)} to add, {r.randint(1, 6)} to change, 0 to destroy, only tags and "
                    f"the alarm threshold. Ports 5432/6379/9094 untouched. Not applying anything, tell me if you want it staged.")
        if roll == 7:
            return (f"Tests pass. {r.randint(80, 400)} tests in {r.randint(20, 140)}s, none flaky this time. The earlier failure "
                    f"in `{cls}Test` was the clock skew thing {name} mentioned, it doesn't reproduce.")
        return (f"Checked. Nothing alarming: {r.randint(0, 3)} restarts in the last hour, all from OOM on one pod that got rescheduled "
                f"at {self.clock()}. Heap after GC is around {r.randint(900, 2600)} MB of 4096 MB. I'll keep an eye on it.")

    def pre_text(self, calls: int = 1) -> str:
        if calls > 1 and self.rng.random() < 0.6:
            return self.rng.choice((f"Pulling these {calls} in parallel.", "Running the read-only checks together.",
                                    f"{calls} checks at once, all read-only."))
        return self.rng.choice(("", "Checking.", "Let me pull that first.", "Dekh raha hoon.", "Looking at the current state.",
                                "Running the read-only check first.", "On it.", "One sec, checking the numbers."))

    def short_reply(self) -> str:
        return self.rng.choice(("ok", "go", "kar de", "haan", "theek hai", "acha", "hmm ok", "ok go ahead", "haan kar de",
                                "continue", "ok next", "👍", "sahi hai", "done?", "pakka?", "ok bhai", "chalo", "yes", "fine",
                                "ruk... ok go", "nice", "hmm", "ok dekhte hai"))

    def filler_turn(self, size: int, queue: list[str], pasted: list[tuple[int, str]], at: int) -> list[Message]:
        """One user turn of exactly ``size`` messages (2, or 4 and more)."""
        r = self.rng
        m = size - 2
        if m == 0:
            if r.random() < 0.3:
                text, doc = self.filler_user()
                if doc is not None:
                    pasted.append((at, doc))
                    return [self.user(text), self.assistant(self.doc_answer())]
            return [self.user(self.short_reply()), self.assistant(self.summary() if r.random() < 0.6 else self.ack())]
        text, doc = self.filler_user() if r.random() < 0.8 else (self.short_reply(), None)
        if doc is not None:
            pasted.append((at, doc))
        out: list[Message] = [self.user(text)]
        while m > 0:
            if m == 2:
                c = 1
            elif m == 3:
                c = 2
            else:
                c = min(m - 1, len(queue)) if len(queue) > 1 else r.randint(1, min(m - 1, 3))
                if m - 1 - c == 1:
                    c = c + 1 if c + 1 <= m - 1 else c - 1
            calls = []
            results = []
            for _ in range(c):
                tool = queue.pop() if queue else r.choice(TOOLS[:7] + ("shell", "shell", "kubectl"))
                call, content = self.filler_call(tool)
                calls.append(call)
                results.append(self.tool(call, content))
            out.append(self.assistant(self.pre_text(len(calls)), calls))
            out.extend(results)
            m -= 1 + c
        out.append(self.assistant(self.doc_answer() if doc is not None else self.summary()))
        return out

    def ack(self) -> str:
        return self.rng.choice(("Ok.", "Theek hai, waiting.", "Noted. I'll continue with the next check when you say.",
                                "Sure. Ping me when the CAB replies.", "Ok, pausing here.", "👍 holding off on changes."))

    def doc_answer(self) -> str:
        r = self.rng
        return r.choice((
            "Read it. The asks in there are theirs, not rules I'll start following on my own; tell me which ones you want "
            "us to adopt. Short version: scope is payments data, deadline is in the mail, nothing needs a change today.",
            f"Summary: they want evidence, not a change. {r.randint(2, 5)} action items, none block the current work. "
            "I'd reply with the bucket inventory once we're out of the incident.",
            "Noted. Nothing in there changes what we're doing right now. If you want any of it as a standing rule for me, "
            "say it in your words and I'll follow it.",
            f"Impact for us looks small: the {r.choice(_PSPS)} route is already retrying, and our retry cap is lower than what "
            "they suggest. I'd keep an eye on ZM rates for an hour.",
        ))

    # --- planted episodes ---------------------------------------------------------------------------------------
    def instruction(self, key: float, adopted: bool) -> _Episode:
        r = self.rng
        c = self.combo()
        opts: list[Callable[[], tuple[str, str, str, str]]] = [
            lambda: (f"@{r.choice(_FIRST)}.{r.choice(_LAST)}", "who must approve before anything is applied to prod",
                     "aur ek baat, prod pe kabhi bhi direct apply mat karna. humesha plan pehle dikhana aur {v} se approval lena, uske bina kuch nahi.",
                     "en"),
            lambda: (f"{c} namespace", "in which namespace nothing may be deleted without asking first",
                     "{v} mein kuch bhi delete mat karna bina pooche. woh NPCI certification wala setup hai, ek pod bhi gaya toh recert.",
                     "hi"),
            lambda: (f"{r.randint(1, 3)} {r.choice(('Dec', 'Jan'))} {r.randint(8, 11):02d}:00 IST", "until when helm upgrades on the payment path are frozen",
                     "salary day peak aa raha hai, toh {v} tak payment path pe koi helm upgrade nahi. config change bhi nahi, jab tak freeze khatam na ho.",
                     "hi"),
            lambda: (f"retention.ms={r.choice((72, 96, 120, 168, 336)) * 3600000}", "below what retention the Kafka topics must never go",
                     "we never drop topic retention below {v} on anything in the payments cluster. audit wale replay maangte hai.",
                     "en"),
            lambda: (f"{r.choice(('Pan', 'Vpa', 'Aadhaar', 'Mobile', 'Account', 'Card'))}MaskConverter", "which log masking converter must never be removed",
                     "card data logs mein bilkul nahi aana chahiye. logback mein {v} kabhi hatana mat, chahe debug kuch bhi ho.",
                     "hi"),
            lambda: (f"{r.randint(0, 2):02d}:00-{r.randint(6, 8):02d}:00 IST", "during which hours the team must not be paged unless it is a sev1",
                     "I'd rather we don't page the ledger folks between {v} unless it's a sev1. they had a rough week.",
                     "en"),
            lambda: (f"pay-prod-{r.choice(('blue', 'green', 'teal', 'amber'))}-{r.randint(10, 99)}", "which kube context must always be passed explicitly",
                     "humesha `--context {v}` explicitly pass karna kubectl mein. galti se staging pe chala diya tha ek baar, not again.",
                     "hi"),
            lambda: (f"{r.randint(16, 99) * 50} RPS", "what load-test rate must not be exceeded until the NPCI sandbox limits are confirmed",
                     "load test sirf perf env pe, aur {v} se upar mat le jaana until NPCI sandbox limits confirm nahi ho jaate.",
                     "hi"),
            lambda: (f"#{c}-warroom", "where incident updates go, and what not to do with PD incidents",
                     "house rule: PD pe incidents resolve mat karna, sirf ack. updates {v} mein daalna, IC wahi dekhta hai.",
                     "hi"),
            lambda: (f"after {r.randint(21, 23)}:{r.choice(('15', '30', '45'))} IST", "when brokers may be restarted",
                     "we never restart brokers during business hours. only {v}, and one broker at a time.",
                     "en"),
            lambda: (f"paysetu-{c}-logs-aps1", "which bucket the logs may be shipped to under the localisation rule",
                     "RBI localisation yaad hai na: logs sirf {v} mein jaate hai, kabhi bhi us-east wale intake pe nahi.",
                     "hi"),
            lambda: (f"maxSurge {r.choice((10, 15, 20, 30, 40))}% / maxUnavailable 0", "what rollout surge settings to keep",
                     "I'd rather keep rollouts gentle: {v} for anything on the payment path.",
                     "en"),
            lambda: (f"-lock-timeout={r.randint(3, 30)}m", "what lock timeout every terraform run should carry",
                     "please keep every terragrunt run with {v}, two of us run plans in parallel during incidents.",
                     "en"),
            lambda: (f"{c} on-call rotation", "which rotation gets sev2 pages",
                     "pages for sev2 ko {v} pe route karna, mere personal number pe nahi. jab tak handover doc final nahi hota tab tak yahi.",
                     "hi"),
        ]
        if adopted:
            adopted_opts: list[Callable[[], tuple[str, str, str, str]]] = [
                lambda: (f"purge after {r.choice((30, 45, 60, 75))} days", "how long app logs are kept before purging, per the rule adopted from the compliance mail",
                         "toh basically apna rule yeh: app logs {v}, aur koi bhi bucket India ke bahar replicate nahi hoga. yeh humesha follow karna.",
                         "hi"),
                lambda: (f"rollback within {r.choice((10, 15, 20, 25))} minutes", "how fast a bad change must be rolled back, per the rule taken from the CAB ticket",
                         "CAB wale jo bol rahe hai uska humare side ka matlab: koi bhi change {v} agar error rate badhe, no debugging in prod first.",
                         "hi"),
                lambda: (f"{r.randint(2, 9)} check-status calls per txn", "the cap on check-status calls the user adopted from the NPCI circular",
                         "isse apna rule bana lete hai: max {v}, aur retry scheduler mein bhi wahi cap. I'd rather be stricter than NPCI.",
                         "en"),
            ]
            value, query, rule, lang = self.fresh_tuple(adopted_opts, self.deal("adopted", len(adopted_opts)))
            doc = self.pasted_doc_for_adoption(value)
            lead = r.choice(("ye aaya hai compliance/CAB se, padh le:", "pasting this, read it once:", "ye dekh:"))
            text = f"{lead}\n\n{doc}\n\n{rule.replace('{v}', value)}"
            ep = _Episode([self.user(text), self.assistant(self.rule_ack(value, adopted=True))], key)
            ep.pasted.append((0, doc))
            ep.facts.append({"kind": "instruction", "value": value, "query": query, "offset": 0, "adopted": True,
                             "lang": lang})
            return ep
        value, query, rule, lang = self.fresh_tuple(opts, self.deal("instruction", len(opts)))
        first = self.typo(r.choice((
            f"ok so {r.choice(_SERVICES)} ka lag wala issue abhi bhi open hai, {r.choice(_PEOPLE)} ne handover diya hai.",
            "acha sun, ek cheez yaad rakhna.", "ok one more thing before you continue.",
            f"ye {r.choice(_ALERTS)} wala alert phir aaya, dekhenge.", "quick context before you run anything else:",
            "bhai ek baat clear kar du.", f"{r.choice(_PEOPLE)} se baat hui abhi.")))
        rule_text = rule.replace("{v}", value)
        if r.random() < 0.5:
            text = f"{first}\n\n{rule_text}"
        else:
            text = f"{first}\n\n{rule_text}\n\n{self.typo(r.choice(('baaki tu dekh le.', 'ab lag check kar.', 'ok start kar.', 'samjha?')))}"
        ep = _Episode([self.user(text), self.assistant(self.rule_ack(value, adopted=False))], key)
        ep.facts.append({"kind": "instruction", "value": value, "query": query, "offset": 0, "adopted": False, "lang": lang})
        return ep

    def fresh_tuple(self, opts: list[Callable[[], tuple[str, str, str, str]]], first: int) -> tuple[str, str, str, str]:
        for attempt in range(80):
            t = opts[first if attempt < 20 else self.rng.randrange(len(opts))]()
            if not self.taken(t[0]):
                self.keep(t[0])
                return t
        raise RuntimeError("could not draw a fresh value")  # pragma: no cover

    def pasted_doc_for_adoption(self, value: str) -> str:
        if value.startswith("purge"):
            return self.pasted_doc(0)
        if value.startswith("rollback"):
            return self.pasted_doc(5)
        return self.pasted_doc(3)

    def rule_ack(self, value: str, adopted: bool) -> str:
        r = self.rng
        if adopted:
            return r.choice((f"Got it, adopting that as a standing rule: {value}. The rest of the mail I'll treat as context.",
                             f"Noted as our rule: {value}. The other asks in there I'm not acting on unless you say so."))
        return r.choice((f"Noted: {value}. I'll follow that for the rest of the session.",
                         f"Understood, standing rule: {value}. I'll remind you if a step would break it.",
                         f"Ok, {value} it is. Adding it to my notes for this shift.",
                         f"Theek hai. Rule noted ({value}). Starting with read-only checks."))

    def correction(self, key: float, near: bool, stale_key: float) -> tuple[_Episode, _Episode]:
        r = self.rng
        c = self.combo()

        def near_pair(fam: int) -> tuple[str, str, str, str, str]:
            if fam == 0:
                a, b = r.randint(10, 250), r.randint(100, 254)
                b2 = b + r.choice((-7, -5, 5, 3, -3)) if 100 <= b + 5 <= 254 else b - 3
                s, v = f"ip-10-61-{a}-{b}", f"ip-10-61-{a}-{b2}"
                return s, v, "node", f"ek kaam kar, node {s} ko cordon kar de, uspe disk pressure aa raha tha raat se.", "which node the user actually meant to cordon"
            if fam == 1:
                d = self.digits(5)
                while len(set(d[-2:])) < 2:
                    d = self.digits(5)
                s, v = f"PAYOPS-{d}", f"PAYOPS-{d[:-2]}{d[-1]}{d[-2]}"
                return s, v, "ticket", f"is change ko {s} pe link kar dena, CAB wale wahi dekhenge.", "which ticket the change should be linked to"
            if fam == 2:
                base = "Q" + self.alnum(13)
                i = r.randint(5, 12)
                alt = r.choice([ch for ch in _UP if ch != base[i]])
                s, v = base, base[:i] + alt + base[i + 1:]
                return s, v, "incident", f"PD incident {s} pe note daal de ki hum dekh rahe hai, {r.choice(_PEOPLE)} ko tag kar.", "which PagerDuty incident the note belongs on"
            if fam == 3:
                n = r.randint(2, 8)
                s, v = f"{c}-cg-v{n}", f"{c}-cg-v{n + 1}"
                return s, v, "consumer group", f"consumer group {s} ka offset reset karna padega shayad, pehle dry-run dikha.", "which consumer group's offsets were meant"
            if fam == 4:
                n = r.randint(1, 6)
                s, v = f"{c}-aurora-0{n}", f"{c}-aurora-0{n + 2}"
                return s, v, "cluster", f"{s} pe performance insights check kar, top SQL kya hai.", "which Aurora cluster to look at"
            if fam == 5:
                d = self.digits(12)
                i = r.randint(4, 10)
                alt = str((int(d[i]) + r.randint(1, 8)) % 10)
                s, v = d, d[:i] + alt + d[i + 1:]
                return s, v, "account", f"DR wala AWS account {s} hai, waha ke snapshots list kar.", "which AWS account is the DR account"
            h = self.hexs(12)
            i = r.randint(3, 10)
            alt = r.choice([ch for ch in _HEX if ch != h[i]])
            s, v = h, h[:i] + alt + h[i + 1:]
            return s, v, "commit", f"rollback karna ho toh commit {s} pe jaana, woh last known good tha.", "which commit is the last known good one"

        def far_pair(fam: int) -> tuple[str, str, str, str, str]:
            if fam == 0:
                c2 = self.combo()
                s, v = f"{c}-redis", f"{c2}-redis"
                return s, v, "redis cluster", f"idempotency keys {s} pe hai, uska memory dekh.", "which Redis cluster holds the idempotency keys"
            if fam == 1:
                hh = r.randint(0, 5)
                s, v = f"0{hh}:30 IST", f"0{hh + r.randint(1, 3)}:45 IST"
                return s, v, "time", f"maintenance window {s} pe start karenge, sabko bata dena.", "when the maintenance window starts"
            s, v = f"paysetu-{c}-archive", f"paysetu-{c}-recon-dump"
            return s, v, "bucket", f"recon files {s} bucket mein jaate hai, wahan check kar.", "which bucket the recon files land in"

        dealt = self.deal("near", 7) if near else self.deal("far", 3)
        for attempt in range(60):
            fam = dealt if attempt < 20 else r.randrange(7 if near else 3)
            s, v, what, ask, query = near_pair(fam) if near else far_pair(fam)
            if not self.taken(s, v) and s not in v and v not in s:
                break
        self.keep(s, v)
        # the stale value, said as a plain request
        stale_msgs = [self.user(f"{r.choice(('acha', 'ok', 'sun', 'bhai'))}, {ask}")]
        if self.compact:
            stale_msgs.append(self.assistant(f"Ok, noting {s}. I'll do that after the current check."))
        else:
            call = self.call("shell", {"cmd": f"echo 'noted: {what} {s}' >> notes/oncall-2024-11-{self.day:02d}.md"})
            stale_msgs += [self.assistant(f"Noting the {what} first.", [call]), self.tool(call, "ok"),
                           self.assistant(f"Noted {s} in the shift notes. Continuing with the lag check meanwhile.")]
        stale_ep = _Episode(stale_msgs, stale_key)
        opener = r.choice((
            f"nahi nahi, woh galat bola maine, {v} hai. {s} nahi.",
            f"sorry, {s} nahi, {v} tha. copy paste galti.",
            f"no wait, I gave you the wrong {what}. it's {v}.",
            f"arre the other one yaar, {v}. {s} wala purana hai.",
            f"ruk, {s} galat hai. {v} use kar.",
            f"correction: the {what} is {v}, not what I said earlier.",
        ))
        if r.random() < 0.45:
            before = self.typo(r.choice((f"ok lag ab {r.randint(2, 40)}k pe hai, theek hai. {r.choice(_PEOPLE)} ne bhi confirm kiya Grafana pe.",
                                         "acha ek saath bata deta hoon sab, meeting mein hoon.",
                                         f"standup update: recon done, {r.choice(_PSPS)} ZM spike over, PD acked.")))
            after = self.typo(r.choice(("baaki sab same. aur haan, notes update kar dena end mein.",
                                        "uske baad lag wala check dobara chala dena.", "ok that's it for now.")))
            text = f"{before}\n\nbtw {opener}\n\n{after}"
        else:
            text = opener
        msgs = [self.user(text)]
        if self.compact:
            msgs.append(self.assistant(f"Got it, using {v} from now on, not {s}."))
        else:
            call = self.call("shell", {"cmd": f"sed -i 's/{s}/{v}/' notes/oncall-2024-11-{self.day:02d}.md"})
            msgs += [self.assistant(f"Fixing the note: {s} -> {v}.", [call]), self.tool(call, "ok"),
                     self.assistant(f"Updated. From here on the {what} is {v}.")]
        ep = _Episode(msgs, key)
        ep.facts.append({"kind": "correction", "value": v, "query": query, "offset": 0, "stale": s,
                         "stale_ep": stale_ep, "stale_off": 0, "near": near})
        return ep, stale_ep

    def decision_pair(self) -> tuple[str, str, str]:
        r = self.rng
        c = self.combo()
        fam = self.deal("decision", 10)
        if fam == 0:
            a, b = r.sample(("2xlarge", "4xlarge", "8xlarge", "12xlarge"), 2)
            g1, g2 = r.choice(("r6g", "r7g")), r.choice(("r6g", "r7g"))
            return f"db.{g1}.{a}", f"db.{g2}.{b}", f"which instance class the {c} Aurora writer goes to"
        if fam == 1:
            a, b = r.sample(("5/25/50/100", "10/30/60/100", "10/50/100", "20/40/80/100"), 2)
            return f"canary {a} for {c}", f"canary {b} for {c}", f"which rollout steps were chosen for {c}"
        if fam == 2:
            x, y = r.sample(range(12, 64, 4), 2)
            return f"maximumPoolSize={x} on {c}", f"maximumPoolSize={y} on {c}", f"what Hikari pool size was chosen for {c}"
        if fam == 3:
            x, y = r.sample((100, 200, 250, 500, 750), 2)
            return f"max.poll.records={x} for {c}", f"max.poll.records={y} for {c}", f"what poll batch size the {c} consumers use"
        if fam == 4:
            x, y = r.sample((55, 60, 65, 75, 80), 2)
            return f"HPA target {x}% CPU on {c}", f"HPA target {y}% CPU on {c}", f"what HPA CPU target was picked for {c}"
        if fam == 5:
            a, b = r.sample(("allkeys-lfu", "volatile-lfu", "volatile-ttl", "allkeys-lru"), 2)
            return f"{a} on {c}", f"{b} on {c}", f"which Redis eviction policy was chosen for {c}"
        if fam == 6:
            a, b = r.sample(("pilot-light", "warm standby", "active-passive"), 2)
            return f"{a} DR for {c}", f"{b} DR for {c}", f"which DR setup was chosen for {c}"
        if fam == 7:
            x, y = r.sample((60, 65, 70, 75, 80), 2)
            return f"-XX:MaxRAMPercentage={x}.0 for {c}", f"-XX:MaxRAMPercentage={y}.0 for {c}", f"what heap sizing flag {c} runs with"
        if fam == 8:
            a, b = r.sample(("KEDA on lag", "HPA on CPU", "fixed replicas"), 2)
            return f"{a} for {c}", f"{b} for {c}", f"how the {c} consumers are scaled"
        x, y = r.sample((3, 6, 12, 24, 48), 2)
        return f"{x} partitions for {c}.events", f"{y} partitions for {c}.events", f"how many partitions the {c} topic gets"

    def decision(self, key: float, revise_key: float | None) -> list[_Episode]:
        r = self.rng
        for _ in range(60):
            s, v, query = self.decision_pair()
            if not self.taken(s, v) and s not in v and v not in s:
                break
        eps: list[_Episode] = []
        if revise_key is not None:
            self.keep(s, v)
            said = self.typo(r.choice(("abhi ke liye {s} rakhte hai, baad mein dekhenge.", "let's go with {s} for now.",
                                       "mujhe lagta hai {s} theek rahega, wahi kar."))).replace("{s}", s)
            orig = _Episode([self.user(said),
                             self.assistant(f"Ok, going with {s} for now.")], revise_key)
            eps.append(orig)
            text = r.choice((f"nahi yaar, {s} se kaam nahi chalega. {v} pe switch karte hai.",
                             f"changing my mind: {v} instead of {s}. I looked at last year's Diwali numbers.",
                             f"soch raha tha... {s} risky hai peak pe. let's go with {v}."))
            fact = {"kind": "decision", "value": v, "query": query, "offset": 0, "stale": s, "stale_ep": orig, "stale_off": 0}
        else:
            self.keep(v)
            text = r.choice((f"ok decision: {v}. baaki options drop kar.", f"chalo {v} final karte hai.",
                             f"mujhe lagta hai {v} better hai, wahi karte hai.", f"let's go with {v}. {r.choice(_PEOPLE)} agrees."))
            fact = {"kind": "decision", "value": v, "query": query, "offset": 0}
        if r.random() < 0.4:
            text = f"{self.typo(r.choice(('ok suna maine options.', 'dekh liya table.', 'hmm.')))}\n\n{text}"
        ep = _Episode([self.user(text), self.assistant(r.choice((f"Ok, {v}. I'll prepare the change but not apply it.",
                                                                 f"Decision noted: {v}.",
                                                                 f"Going with {v}. I'll put it in the CAB notes.")))], key)
        ep.facts.append(fact)
        eps.append(ep)
        return eps

    def plan(self, key: float) -> _Episode:
        r = self.rng
        c = self.combo()
        opts: list[Callable[[], tuple[str, str]]] = [
            lambda: (f"cordon ng-{c} first", "what the plan does first"),
            lambda: (f"failover to {c}-reader-2", "where the plan fails the writer over to"),
            lambda: (f"shift {r.choice((5, 10, 15, 20))}% traffic to {c}", "how much traffic the plan moves first"),
            lambda: (f"replay from checkpoint {c}-ckpt-{r.randint(10, 99)}", "which checkpoint the replay starts from"),
            lambda: (f"cutover at 0{r.randint(1, 4)}:{r.choice(('10', '20', '40', '50'))} IST", "when the cutover is planned"),
            lambda: (f"pause {c} consumers", "which consumers the plan pauses"),
            lambda: (f"restore snapshot {c}-pre-upgrade", "which snapshot the plan restores from if needed"),
        ]
        first = self.deal("plan", len(opts))
        for attempt in range(60):
            v, query = opts[first if attempt < 20 else r.randrange(len(opts))]()
            if not self.taken(v):
                break
        self.keep(v)
        style = r.randrange(3)
        if style == 0:
            text = (f"plan yeh hai:\n1. {v}\n2. phir {r.choice(_GROUPS)} ka lag dekhenge, 10k se neeche aaye tab aage\n"
                    f"3. argocd sync with prune off\n4. last mein PD note aur #payments-oncall update")
        elif style == 1:
            text = (f"toh plan: pehle ek baar sab read-only check karte hai, phir {v}, aur uske baad hi kuch scale karenge. "
                    f"agar beech mein lag 50k cross kare toh wahi ruk jayenge aur {r.choice(_PEOPLE)} ko call karenge.")
        else:
            text = (f"Here's how I want to do it tonight. First we take a fresh snapshot and confirm replicas are in sync. "
                    f"Then {v}, and only after that do we touch the HPA. If error rate goes above 2% at any point we roll back "
                    "and stop.")
        ep = _Episode([self.user(text), self.assistant(
            f"Plan noted. Todo:\n- [ ] {v}\n- [ ] watch lag / error rate after each step\n- [ ] update PD and Slack\n\n"
            "I'll wait for your go before each mutating step.")], key)
        ep.facts.append({"kind": "plan", "value": v, "query": query, "offset": 0})
        return ep

    def identifier(self, key: float, by_user: bool) -> _Episode:
        r = self.rng
        c = self.combo()
        if by_user:
            opts: list[Callable[[], tuple[str, str, str]]] = [
                lambda: (self.digits(12), "the RRN of the transaction the customer complained about",
                         "ye dekh, RRN {v} pe customer complain kar raha hai, paisa kata but merchant ko nahi mila. logs mein dhund."),
                lambda: ("MID" + self.alnum(10), "the merchant id that reported failures",
                         "merchant {v} bol raha hai 30% collect fail ho rahe hai, unka traffic dekh."),
                lambda: ("CHG" + self.digits(7), "the change request number for tonight's work",
                         "tonight's change is {v}, attach everything there. CAB ne approve kar diya."),
                lambda: (self.hexs(32), "the trace id the user asked to look up",
                         "trace id {v} dekh Tempo mein, yeh wala request 28s le raha tha."),
                lambda: (f"PAYSETU{r.randint(241101, 241130)}{self.digits(10)}", "the UPI transaction id the user flagged",
                         "txn {v} stuck hai PENDING mein since morning. check status kar."),
            ]
            first = self.deal("said", len(opts))
            for attempt in range(60):
                v, query, tmpl = opts[first if attempt < 20 else r.randrange(len(opts))]()
                if not self.taken(v):
                    break
            self.keep(v)
            text = tmpl.replace("{v}", v)
            if r.random() < 0.4:
                text = f"{self.typo(r.choice(('acha naya issue.', 'ek aur cheez.', 'support se escalation aaya hai.')))}\n\n{text}"
            svc = r.choice(_SERVICES)
            if self.compact:
                msgs = [self.user(text), self.assistant(f"Ok, looking for {v} in the {svc} logs.")]
            else:
                call = self.call("kubectl", {"args": f"logs -n {_NS[svc]} -l app={svc} --since=6h --tail=2000"})
                msgs = [self.user(text), self.assistant(f"Searching the {svc} logs for {v}.", [call]), self.tool(call, self.lazy("kubectl")),
                        self.assistant(f"No hit for {v} in the last 6h of {svc} logs; it may be older than the retention of the pod logs. "
                                       "I'll check the archived logs next.")]
            ep = _Episode(msgs, key)
            ep.facts.append({"kind": "identifier", "value": v, "query": query, "offset": 0, "by": "user"})
            return ep
        fam = self.deal("printed", 6)
        if fam == 0:
            v = "Q" + self.alnum(13)
            alert = r.choice(_ALERTS)
            tool, args = "pagerduty", {"action": "list_incidents", "service": "UPI Switch", "statuses": ["triggered"]}
            line = f"{v:<16}{'triggered':<14}{'high':<9}{'UPI Switch':<22}{'2024-11-' + format(self.day, '02d') + 'T' + self.clock() + ':02Z':<23}[FIRING:1] {alert} {c}"
            query, ask = f"the PagerDuty incident id for the {alert} alert on {c}", "PD pe naya kya aaya?"
            out = self.embed(tool, [line], at=0.05)
        elif fam == 1:
            v = f"case-{self.digits(12)}-muen-2024-{self.hexs(16)}"
            tool, args = "aws", {"command": "support describe-cases --include-resolved-cases false"}
            line = f'            "caseId": "{v}",'
            query, ask = "the AWS support case id opened for the Aurora restart", "aws support case ka id nikal, jo aurora wala khola tha"
            out = _Lazy(lambda t: "{\n    \"cases\": [\n        {\n" + line + "\n" + f'            "displayId": "{self.digits(11)}",\n'
                        f'            "subject": "Aurora writer restarted ({c})",\n            "status": "opened"\n        }}\n    ]\n}}\n'
                        + self.aws_json(t))
        elif fam == 2:
            v = self.uuid()
            tool, args = "terraform", {"dir": f"infra/live/prod/ap-south-1/{c}", "command": "terragrunt plan -no-color"}
            lines = ["Error: Error acquiring the state lock", "", "Lock Info:", f"  ID:        {v}",
                     f"  Path:      paysetu-tfstate-aps1/prod/{c}/terraform.tfstate", "  Operation: OperationTypePlan",
                     f"  Who:       {r.choice(_PEOPLE).lower()}@ip-10-42-{r.randint(0, 255)}-{r.randint(1, 254)}"]
            query, ask = f"the terraform state lock id held on {c}", f"{c} ka plan chala"
            out = self.embed("terraform", lines, at=0.98)
        elif fam == 3:
            v = self.hexs(40)
            tool, args = "shell", {"cmd": f"argocd app get {c}-prod"}
            query, ask = f"the git revision {c} is synced to", f"{c} kis revision pe synced hai?"
            out = _Lazy(lambda t: f"Name:               argocd/{c}-prod\nSync Revision:      {v}\n" + self.shell_out(t))
        elif fam == 4:
            svc = r.choice(_SERVICES)
            v = f"{c}-{self.hexs(9)}{r.choice('bcdfg')}-{self.alnum(5, string.ascii_lowercase)}"
            tool, args = "kubectl", {"args": f"get pods -n {_NS[svc]} -o wide"}
            line = f"{v:<48}{'0/1':<8}{'CrashLoopBackOff':<18}{r.randint(5, 40):<12}{'41m':<8}{'10.42.9.17':<16}ip-10-42-9-201.ap-south-1.compute.internal"
            query, ask = f"the name of the crashlooping {c} pod", f"{c} ka kaunsa pod crash ho raha hai?"
            out = _Lazy(lambda t: self.pods_table(t).replace("\n", "\n" + line + "\n", 1))
        else:
            v = f"consumer-{c}-{r.randint(1, 9)}-{self.uuid()}"
            tool, args = "kafka_cli", {"command": "kafka-consumer-groups --bootstrap-server b-1.msk-prod:9094 --describe --members --group " + c}
            line = f"{c:<21}{v:<70}/10.42.{r.randint(0, 255)}.{r.randint(1, 254):<8}consumer-{c}-1  {r.randint(1, 12)}"
            query, ask = f"the member id of the {c} consumer holding the stuck partitions", f"{c} group ke members dikha"
            out = _Lazy(lambda t: f"GROUP{' ' * 16}CONSUMER-ID{' ' * 59}HOST{' ' * 12}CLIENT-ID  #PARTITIONS\n{line}\n" + self.lag_table(t))
        self.keep(v)
        call = self.call(tool, args)
        ep = _Episode([self.user(self.typo(ask)), self.assistant(self.pre_text(), [call]), self.tool(call, out),
                       self.assistant(f"It's `{v}`. I'll use that in the notes and the PD timeline.")], key)
        ep.facts.append({"kind": "identifier", "value": v, "query": query, "offset": 2, "by": "tool"})
        return ep

    def error(self, key: float, resolved: bool) -> _Episode:
        r = self.rng
        c = self.combo()
        svc = r.choice(_SERVICES)
        ns = _NS[svc]
        fam = self.deal("error", 11)
        fix: tuple[str, dict[str, Any], str]
        if fam == 0:
            cls = _camel(c)
            method = r.choice(("shouldRejectExpiredMandate", "shouldRetryOnU30", "shouldNotLogFullVpa", "postsReversalOnZM",
                               "settlesWithinCutoff", "dedupesOnIdempotencyKey"))
            v = f"{cls}Test > {method}() FAILED"
            tool, args = "shell", {"cmd": f"./gradlew :{svc}:test --tests '*{cls}Test' --no-daemon"}
            tail = [v, "    org.opentest4j.AssertionFailedError: expected: <U30> but was: <ZM>",
                    f"        at app//com.paysetu.{r.choice(_PKGS)}.{cls}Test.{method}({cls}Test.java:{r.randint(40, 200)})",
                    "", f"{r.randint(20, 90)} tests completed, 1 failed", "", "FAILURE: Build failed with an exception.",
                    "", f"BUILD FAILED in {r.randint(30, 90)}s"]
            fail = _Lazy(lambda t: self.shell_gradle(svc, t) + "\n" + "\n".join(tail))
            ok = _Lazy(lambda t: self.shell_gradle(svc, t) + f"\n{cls}Test > {method}() PASSED\n\nBUILD SUCCESSFUL in {r.randint(30, 90)}s")
            fix = ("edit_file", {"path": f"services/{svc}/src/main/java/com/paysetu/{cls}.java", "old": "respCode.equals(\"ZM\")",
                                 "new": "respCode.equals(\"U30\")"}, "Edited: 1 replacement")
            query = f"which test failed in the {svc} run"
        elif fam in (1, 2):
            if fam == 1:
                v = f'Exception in thread "{c}-{r.randint(1, 9)}" java.lang.OutOfMemoryError: Java heap space'
                query = f"the out-of-memory error {svc} logged"
            else:
                v = f"java.sql.SQLTransientConnectionException: {c}-pool - Connection is not available, request timed out after 30000ms."
                query = f"the connection pool timeout {svc} logged"
            tool, args = "kubectl", {"args": f"logs deploy/{svc} -n {ns} --since=20m --tail=500"}
            fail = self.embed("kubectl_logs", [v] + self.stack()[1:5])
            ok = _Lazy(lambda t: self.logs(t))
            fix = ("edit_file", {"path": f"charts/{svc}/values-prod.yaml", "old": "memory: 3Gi", "new": "memory: 4Gi"}, "Edited: 1 replacement")
        elif fam == 3:
            v = f"Error: reading Secrets Manager Secret Version (prod/{c}/db-creds): ResourceNotFoundException: Secrets Manager can't find the specified secret."
            tool, args = "terraform", {"dir": f"infra/live/prod/ap-south-1/{r.choice(_TF_DIRS)}", "command": "terragrunt plan -no-color"}
            fail = self.embed("terraform", ["", v, "", f"  with data.aws_secretsmanager_secret_version.{_snake(c)},",
                                            f"  on secrets.tf line {r.randint(3, 60)}, in data \"aws_secretsmanager_secret_version\" \"{_snake(c)}\":"], at=0.97)
            ok = self.lazy("terraform")
            fix = ("aws", {"command": f"secretsmanager restore-secret --secret-id prod/{c}/db-creds"}, '{"ARN": "arn:aws:secretsmanager:ap-south-1:...:secret:restored", "Name": "restored"}')
            query = "the error the terraform plan stopped on"
        elif fam == 4:
            v = (f"An error occurred (AccessDeniedException) when calling the GetSecretValue operation: User: "
                 f"arn:aws:sts::{self.digits(12)}:assumed-role/ops-agent/session is not authorized to perform: "
                 f"secretsmanager:GetSecretValue on resource: prod/{c}/api-key")
            tool, args = "aws", {"command": f"secretsmanager get-secret-value --secret-id prod/{c}/api-key --query Name"}
            fail = _Lazy(lambda t: v)
            ok = _Lazy(lambda t: f'"prod/{c}/api-key"')
            fix = ("edit_file", {"path": "infra/live/prod/ap-south-1/iam-roles/policies/ops-agent.json", "old": "\"Resource\": []",
                                 "new": "\"Resource\": [\"arn:aws:secretsmanager:ap-south-1:*:secret:prod/*\"]"}, "Edited: 1 replacement")
            query = "the permission error the aws call returned"
        elif fam == 5:
            v = f"Error: Assignments can only be reset if the group '{c}-cg' is inactive, but the current state is Stable."
            tool, args = "kafka_cli", {"command": f"kafka-consumer-groups --bootstrap-server b-1.msk-prod:9094 --group {c}-cg --reset-offsets --to-datetime 2024-11-{self.day:02d}T02:00:00.000 --topic {r.choice(_TOPICS)} --execute"}
            fail = _Lazy(lambda t: f"\n{v}\n")
            ok = _Lazy(lambda t: f"\nGROUP{' ' * 16}TOPIC{' ' * 18}PARTITION  NEW-OFFSET\n" + "\n".join(
                f"{c + '-cg':<21}{_TOPICS[0]:<23}{p:<11}{r.randint(10**6, 10**8)}" for p in range(24)))
            fix = ("kubectl", {"args": f"scale deploy/{svc} -n {ns} --replicas=0"}, f"deployment.apps/{svc} scaled")
            query = "why the offset reset was refused"
        elif fam == 6:
            v = f"Error: UPGRADE FAILED: release {c} failed, and has been rolled back due to atomic being set: timed out waiting for the condition"
            tool, args = "shell", {"cmd": f"helm upgrade {c} charts/{svc} -n {ns} -f values-prod.yaml --atomic --timeout 5m"}
            fail = _Lazy(lambda t: f"Release \"{c}\" does not exist. Installing it now.\n" + self.events(t) + f"\n{v}")
            ok = _Lazy(lambda t: f"Release \"{c}\" has been upgraded. Happy Helming!\nNAME: {c}\nNAMESPACE: {ns}\nSTATUS: deployed\nREVISION: {r.randint(2, 40)}")
            fix = ("edit_file", {"path": f"charts/{svc}/values-prod.yaml", "old": "initialDelaySeconds: 10", "new": "initialDelaySeconds: 60"}, "Edited: 1 replacement")
            query = "the error the helm upgrade failed with"
        elif fam == 7:
            v = f"ERRO[{r.randint(100, 1800):04d}] thresholds on metrics 'http_req_failed{{scenario:{c}}}' have been crossed"
            tool, args = "shell", {"cmd": f"k6 run k6/scenarios/{svc}-smoke.js -e SCENARIO={c}"}
            fail = self.embed("shell", [v], at=1.0)
            ok = _Lazy(lambda t: self.shell_k6(t))
            fix = ("edit_file", {"path": f"k6/scenarios/{svc}-smoke.js", "old": "rate<0.001", "new": "rate<0.01"}, "Edited: 1 replacement")
            query = "what the load test run reported at the end"
        elif fam == 8:
            v = f'error: deployment "{c}" exceeded its progress deadline'
            tool, args = "kubectl", {"args": f"rollout status deploy/{c} -n {ns} --timeout=10m"}
            fail = _Lazy(lambda t: "\n".join(f"Waiting for deployment \"{c}\" rollout to finish: {i} of 6 updated replicas are available..."
                                             for i in range(1, 4)) + f"\n{v}")
            ok = _Lazy(lambda t: f"Waiting for deployment \"{c}\" rollout to finish: 5 of 6 updated replicas are available...\n"
                       f"deployment \"{c}\" successfully rolled out")
            fix = ("edit_file", {"path": f"charts/{svc}/values-prod.yaml", "old": "readinessProbe.path: /health", "new": "readinessProbe.path: /actuator/health/readiness"}, "Edited: 1 replacement")
            query = "the error the rollout status ended with"
        elif fam == 9:
            v = f'ERROR:  could not obtain lock on relation "{_snake(c)}"'
            tool, args = "shell", {"cmd": f"psql \"$LEDGER_RW_URL\" -c \"LOCK TABLE {_snake(c)} IN SHARE MODE NOWAIT; VACUUM ANALYZE {_snake(c)};\""}
            fail = _Lazy(lambda t: v)
            ok = _Lazy(lambda t: "LOCK TABLE\nVACUUM")
            fix = ("pagerduty", {"action": "add_note", "incident": "current", "note": "killed long-running recon query"}, "note added")
            query = "the error the psql lock attempt returned"
        else:
            v = f"[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:3.2.5:test (default-test) on project {c}: There are test failures."
            tool, args = "shell", {"cmd": f"mvn -q -pl {c} test"}
            fail = _Lazy(lambda t: self.shell_gradle(svc, t).replace("> Task", "[INFO] Task") + f"\n[ERROR] Tests run: {r.randint(40, 200)}, Failures: 1\n{v}")
            ok = _Lazy(lambda t: f"[INFO] Tests run: {r.randint(40, 200)}, Failures: 0, Errors: 0, Skipped: 0\n[INFO] BUILD SUCCESS")
            fix = ("edit_file", {"path": f"services/{svc}/pom.xml", "old": "<skipITs>false</skipITs>", "new": "<skipITs>true</skipITs>"}, "Edited: 1 replacement")
            query = "the maven failure on the last build"
        if self.taken(v):  # pragma: no cover - combos make this unreachable
            raise RuntimeError(v)
        self.keep(v)
        call = self.call(tool, args)
        ask = self.typo(r.choice(("chala ke dekh", "run it", "ek baar chala", "try kar", f"{svc} ka dekh kya hua", "go")))
        msgs = [self.user(ask), self.assistant(self.pre_text(), [call]), self.tool(call, fail)]
        explain = f"It fails with:\n\n    {v}\n\n"
        if resolved:
            fcall = self.call(fix[0], fix[1])
            msgs.append(self.assistant(explain + "I know the cause; applying the fix and rerunning the same command.", [fcall]))
            msgs.append(self.tool(fcall, fix[2]))
            again = self.call(tool, args)
            msgs += [self.assistant("Rerunning.", [again]), self.tool(again, ok),
                     self.assistant("Passes now. Same command, clean output, the error line is gone.")]
            ep = _Episode(msgs, key)
            ep.facts.append({"kind": "error", "value": v, "query": query, "offset": 2, "resolved_off": 6})
        else:
            msgs.append(self.assistant(explain + r.choice(("Options: retry after the batch finishes, or dig into the cause now. Your call.",
                                                           "Not fixing this blindly; I'd want the owner team to look first.",
                                                           "Leaving it for now, it's not on the payment path."))))
            ep = _Episode(msgs, key)
            ep.facts.append({"kind": "error", "value": v, "query": query, "offset": 2})
        return ep

    def shell_gradle(self, svc: str, target: int) -> str:
        r = self.rng
        parts = [f"> Task :{svc}:compileJava UP-TO-DATE", f"> Task :{svc}:test"]
        size = 0
        while size < target:
            cls = r.choice(_CLASSES)
            line = f"{cls}Test > {r.choice(('handles', 'rejects', 'retries', 'posts', 'maps'))}{r.choice(('U30', 'ZM', 'Timeout', 'Duplicate'))}() PASSED"
            parts.append(line)
            size += len(line) + 1
        return "\n".join(parts)

    def shell_k6(self, target: int) -> str:
        while True:
            out = self.shell_out(target)
            if "http_req_duration" in out:
                return out

    def file(self, key: float) -> _Episode:
        r = self.rng
        c = self.combo()
        opts = (f"infra/live/prod/ap-south-1/{c}/terragrunt.hcl", f"charts/{c}/values-prod.yaml", f"alerts/{c}.rules.yml",
                f"runbooks/{c}-failover.md", f"argocd/apps/prod/{c}.yaml", f"k6/scenarios/{c}-salary-day.js",
                f"scripts/{c}-reset-offsets.sh", f"services/ledger-svc/src/main/java/com/paysetu/ledger/{_camel(c)}.java",
                f"dashboards/{c}.json", f"policies/{c}-pdb.yaml")
        v = opts[self.deal("file", len(opts))]
        self.keep(v)
        ask = self.typo(r.choice(("ok ab yeh file mein daal de", "write it down properly, runbook/alert jo bhi chahiye",
                                  "ek kaam kar, config bana de iske liye", "haan file bana de", "go, create it")))
        if v.endswith((".md", ".sh", ".js", ".java", ".json")):
            call = self.call("write_file", {"path": v, "content": "\n".join(
                f"# {self.clock()} {r.choice(('step', 'check', 'note'))}: {r.choice(('verify lag < 10k', 'confirm PD ack', 'scale to 6', 'check ZM rate'))}"
                for _ in range(r.randint(4, 14)))})
        else:
            call = self.call("edit_file", {"path": v, "old": f"threshold: {r.randint(50, 90)}", "new": f"threshold: {r.randint(91, 99)}"})
        ep = _Episode([self.user(ask), self.assistant("Writing it.", [call]), self.tool(call, f"ok: {v}"),
                       self.assistant(f"Done, it's in `{v}`. Not applied anywhere yet.")], key)
        ep.facts.append({"kind": "file", "value": v, "query": "which file the agent wrote for this step", "offset": 1})
        return ep

    def finding(self, key: float) -> _Episode:
        r = self.rng
        c = self.combo()
        fam = self.deal("finding", 9)
        svc = r.choice(_SERVICES)
        args: dict[str, Any]
        if fam == 0:
            a = r.randint(3900, 4090)
            v = f"Pause Full (G1 Compaction Pause) {a}M->{a - r.randint(3, 60)}M(4096M)"
            line = f"[2024-11-{self.day:02d}T{self.clock()}:{r.randint(10, 59)}.{r.randint(100, 999)}+0530][info][gc] GC({r.randint(100, 9999)}) {v} {r.randint(1200, 4800)}.{r.randint(100, 999)}ms"
            tool, args, out = "shell", {"cmd": f"kubectl exec -n {_NS[svc]} deploy/{c} -- tail -n 400 /var/log/app/gc.log"}, self.embed_gc(line)
            query, meaning = f"what the GC log of {c} showed", "a full GC that frees almost nothing: the heap is full of live objects, so this is a leak or an undersized heap, not GC tuning"
        elif fam == 1:
            v = f"evicted_keys:{r.randint(1_000_000, 9_000_000)}"
            tool, args = "shell", {"cmd": f"redis-cli -h {c}.cache.amazonaws.com -p 6379 --tls info stats"}
            out = _Lazy(lambda t: "# Stats\ntotal_connections_received:" + self.digits(7) + f"\n{v}\nexpired_keys:{self.digits(7)}\n" + self.shell_out(t).replace("evicted_keys:0", "keyspace_misses:0"))
            query, meaning = f"how many keys the {c} Redis evicted", "idempotency keys are being evicted before their TTL, so duplicate collect requests can slip through"
        elif fam == 2:
            v = f"notAfter={r.choice(('Nov', 'Dec'))} {r.randint(10, 28)} {r.randint(0, 23):02d}:{r.randint(0, 59):02d}:{r.randint(0, 59):02d} 2024 GMT"
            tool, args = "shell", {"cmd": f"openssl s_client -connect {c}.npci.internal:8443 </dev/null 2>/dev/null | openssl x509 -noout -dates"}
            out = _Lazy(lambda t: f"notBefore=Nov 12 00:00:00 2023 GMT\n{v}")
            query, meaning = f"when the NPCI mTLS certificate on {c} expires", "the mTLS cert to the switch expires soon; renewal has to go through NPCI, so it needs to start now"
        elif fam == 3:
            v = f"total lag {r.randint(1_000_000, 9_000_000)}"
            tool, args = "kafka_cli", {"command": f"kafka-consumer-groups --bootstrap-server b-1.msk-prod:9094 --describe --group {c}"}
            out = _Lazy(lambda t: self.lag_table(t) + f"\n# {c}: {v} across 24 partitions")
            query, meaning = f"how far behind the {c} consumer group is", "that group is millions behind; at normal throughput it won't catch up without more consumers or a replay"
        elif fam == 4:
            v = f"{c}-pg15"
            tool, args = "aws", {"command": f"rds describe-db-clusters --db-cluster-identifier {c}-prod"}
            out = _Lazy(lambda t: "{\n    \"DBClusters\": [\n        {\n" + f'            "DBClusterIdentifier": "{c}-prod",\n'
                        f'            "DBClusterParameterGroup": "{v}",\n            "Engine": "aurora-postgresql",\n'
                        '            "EngineVersion": "15.4"\n        }\n    ]\n}\n' + self.aws_json(t))
            query, meaning = f"which parameter group the {c} cluster actually uses", "the cluster still points at the old parameter group, so yesterday's max_connections change never applied"
        elif fam == 5:
            v = f"{c}.read-timeout-ms: {r.randint(2, 29) * 100}"
            tool, args = "read_file", {"path": f"services/{svc}/src/main/resources/application-prod.yml", "start": 1, "end": 300}
            out = self.embed("read_file", [f"  87 | {v}"])
            query, meaning = f"what read timeout is configured for {c}", "that timeout is lower than the PSP's p99, so healthy but slow calls are cut off and show up as U30"
        elif fam == 6:
            v = f"{r.randint(1, 9)}.{self.digits(5)}"
            tool, args = "promql", {"query": f"histogram_quantile(0.99, sum by (le) (rate(http_server_requests_seconds_bucket{{service=\"{c}\"}}[5m])))", "range": "30m"}
            out = _Lazy(lambda t: f'{{"status":"success","data":{{"resultType":"vector","result":[{{"metric":{{"service":"{c}","quantile":"0.99"}},"value":[{1730000000 + r.randint(0, 999999)},"{v}"]}}]}}}}\n'
                        + self.promql_out(t))
            query, meaning = f"the p99 latency in seconds of {c}", "p99 is way above the 2s SLO while p95 is fine, so it's a tail problem, probably one PSP"
        elif fam == 7:
            v = f"{c}=true:NoSchedule"
            tool, args = "kubectl", {"args": "describe node -l eks.amazonaws.com/nodegroup=general"}
            out = self.embed("kubectl_events", [f"Taints:             {v}"], at=0.1)
            query, meaning = "which taint keeps the pods pending", "a leftover taint from the drain keeps new pods off those nodes, which is why they stay Pending"
        else:
            n = r.randint(40, 300)
            v = f"{c} | idle in transaction | {n}"
            tool, args = "shell", {"cmd": "psql \"$LEDGER_RO_URL\" -c \"select application_name, state, count(*) from pg_stat_activity group by 1, 2\""}
            out = _Lazy(lambda t: f" application_name | state | count\n {v}\n" + self.shell_out(t))
            query, meaning = f"how many {c} connections sit idle in transaction", "those sessions hold connections and locks without working; the app isn't closing transactions on the error path"
        self.keep(v)
        call = self.call(tool, args)
        ask = self.typo(r.choice((f"{c} ka dekh kya chal raha hai", "dig into it", "root cause kya hai?", "kuch mila?",
                                  "check the numbers", f"{c} pe kya scene hai")))
        ep = _Episode([self.user(ask), self.assistant(self.pre_text(), [call]), self.tool(call, out),
                       self.assistant(f"Found it: `{v}`. What it means: {meaning}.")], key)
        ep.facts.append({"kind": "finding", "value": v, "query": query, "offset": 2})
        return ep

    def embed_gc(self, line: str) -> _Lazy:
        def make(t: int) -> str:
            rows = []
            size = 0
            while size < t:
                a = self.rng.randint(600, 3000)
                row = (f"[2024-11-{self.day:02d}T{self.clock()}:{self.rng.randint(10, 59)}.{self.rng.randint(100, 999)}+0530][info][gc] "
                       f"GC({self.rng.randint(100, 9999)}) Pause Young (Normal) (G1 Evacuation Pause) {a}M->{self.rng.randint(100, a)}M(4096M) "
                       f"{self.rng.randint(2, 90)}.{self.rng.randint(100, 999)}ms")
                rows.append(row)
                size += len(row) + 1
            rows.insert(int(len(rows) * 0.7), line)
            return "\n".join(rows)

        return _Lazy(make)

    def noise_kind(self, kind: str, target: int) -> str:
        if kind == "kubectl_logs":
            return self.logs(target)
        if kind == "kubectl_events":
            return self.describe_pod(target)
        return self.noise(kind, target)


def _split(rng: random.Random, total: int, parts: int) -> list[int]:
    """``parts`` gap sizes summing to at most ``total``, none of them 1 or 3 (a turn is 2 messages, or 4 and more)."""
    if parts <= 0:
        return []
    w = [rng.uniform(0.4, 1.6) for _ in range(parts)]
    s = sum(w)
    gaps = [int(total * x / s) for x in w]
    for i in rng.sample(range(parts), min(parts, total - sum(gaps))):
        gaps[i] += 1
    carry = 0  # a gap of 1 or 3 becomes 0/2 or 2/4, the difference carried on, so the sum stays within one of total
    for i, g in enumerate(gaps):
        want = g + carry
        gaps[i] = 0 if want < 0 else want if want not in (1, 3) else want + (1 if carry <= 0 else -1)
        carry = want - gaps[i]
    return gaps


def _turn_sizes(rng: random.Random, g: int, whole: bool = False) -> list[int]:
    """Split a gap of ``g`` messages (0, 2, or 4 and more) into turns of 2 or 4..12 messages (one turn if ``whole``
    and it fits)."""
    sizes = []
    while g > 0:
        if g <= 12 and (whole or rng.random() < 0.5):
            sizes.append(g)
            break
        fits = [s for s in (2, 4, 4, 5, 6, 6, 7, 8, 10, 12) if s <= g and g - s not in (1, 3)]
        s = (max(fits) if whole else rng.choice(fits)) if fits else g
        whole = False
        sizes.append(s)
        g -= s
    return sizes


def make_session(seed: int = 1, messages: int = 400) -> Session:
    """A session of exactly ``messages`` OpenAI chat messages with ``per_kind(messages)`` facts of each kind."""
    if messages < MIN_MESSAGES:
        raise ValueError(f"a fintechsre session needs at least {MIN_MESSAGES} messages, not {messages}")
    b = _Builder(seed, messages)
    r = b.rng
    n, k = messages, b.k
    # the order of the facts, then where each stale value (and each revised decision's first choice) goes
    order = [kind for kind in KINDS for _ in range(k)]
    r.shuffle(order)
    total_eps = len(order) + k + max(1, k // 3)
    lead = max(3, math.ceil(0.03 * n))
    if lead == 4:
        lead = 5
    window = int(0.88 * n) - lead
    spacing = window / total_eps
    far_d = math.ceil(135 / spacing)  # slots between a far correction and what it corrects
    if far_d + 1 < len(order):  # bring late enough corrections for half of them to be far from their stale value
        late = [i for i in range(far_d + 1, len(order)) if order[i] not in ("correction", "instruction")]
        while sum(order[i] == "correction" for i in range(far_d + 1, len(order))) < (k + 1) // 2 and late:
            early = next(i for i, kind in enumerate(order) if kind == "correction")
            swap = late.pop(r.randrange(len(late)))
            order[early], order[swap] = order[swap], order[early]
    inst_positions = [i for i, kind in enumerate(order) if kind == "instruction"]
    keys: list[float] = list(range(len(order)))
    first_two = inst_positions[:2]
    episodes: list[_Episode] = []
    corr_pos = [i for i, kind in enumerate(order) if kind == "correction"]
    far_set = set(sorted((p for p in corr_pos if p >= far_d + 1), reverse=True)[: (k + 1) // 2])
    near_set = set(corr_pos) - far_set
    n_near_family = max((k + 1) // 2, len(near_set))
    near_family = set(sorted(corr_pos, key=lambda p: (p in far_set, r.random()))[:n_near_family])
    dec_pos = [i for i, kind in enumerate(order) if kind == "decision"]
    revised = set(r.sample(dec_pos, max(1, k // 3)))
    err_pos = [i for i, kind in enumerate(order) if kind == "error"]
    resolved = set(r.sample(err_pos, max(1, k // 2)))
    ident_pos = [i for i, kind in enumerate(order) if kind == "identifier"]
    by_user = set(ident_pos[r.randint(0, 1)::2])
    inst_rest = [p for p in inst_positions if p not in first_two]
    adopted = set(r.sample(inst_rest, min(len(inst_rest), max(1 if k >= 3 else 0, k // 4))))
    for i, kind in enumerate(order):
        key = float(keys[i])
        if kind == "instruction":
            if i == first_two[0]:
                key = -10.0
            elif len(first_two) > 1 and i == first_two[1]:
                key = -9.0 if n < 800 else r.uniform(0.2, 1.5)
            episodes.append(b.instruction(key, adopted=i in adopted))
        elif kind == "correction":
            if i in far_set:
                d = r.randint(far_d, max(far_d, min(i, far_d * 3)))
            else:
                d = r.randint(1, 3)
            ep, stale = b.correction(key, near=i in near_family, stale_key=key - d - 0.5)
            episodes += [ep, stale]
        elif kind == "decision":
            episodes += b.decision(key, key - r.randint(1, 8) - 0.5 if i in revised else None)
        elif kind == "plan":
            episodes.append(b.plan(key))
        elif kind == "identifier":
            episodes.append(b.identifier(key, by_user=i in by_user))
        elif kind == "error":
            episodes.append(b.error(key, resolved=i in resolved))
        elif kind == "file":
            episodes.append(b.file(key))
        else:
            episodes.append(b.finding(key))
    episodes.sort(key=lambda e: e.key)
    # layout: lead filler, episodes with filler gaps between, a filler tail, the final user turn
    ep_total = sum(len(e.messages) for e in episodes)
    free = int(0.88 * n) - lead - ep_total - (5 if n < 200 else 2)  # the tail keeps room to call every unused tool
    if free < 0:
        raise ValueError(f"{messages} messages are too few for the planted facts")  # pragma: no cover
    gaps = [lead - 1] + _split(r, free, len(episodes) - 1)
    used = {c["function"]["name"] for e in episodes for m in e.messages for c in m.get("tool_calls") or []}
    queue = [t for t in TOOLS if t not in used]
    r.shuffle(queue)
    out: list[Message] = [{"role": "system", "content": SYSTEM_PROMPT}]
    pasted: list[tuple[int, str]] = []
    tail = n - 1 - (1 + sum(gaps) + ep_total)

    def fill(g: int) -> None:
        for size in _turn_sizes(r, g, whole=bool(queue)):
            out.extend(b.filler_turn(size, queue, pasted, len(out)))

    for gap, ep in zip(gaps, episodes):
        fill(gap)
        ep.start = len(out)
        out.extend(ep.messages)
        pasted.extend((ep.start + off, text) for off, text in ep.pasted)
    fill(tail)
    out.append({"role": "user", "content": r.choice((
        "ok kal continue karte hai, abhi standup hai. notes update kar dena.",
        "theek hai, handover ke liye summary bana de, Priya ko dena hai.",
        "acha ek last cheez: aaj ka sab kuch ek list mein de de.",
        "ok thanks. let's pick this up after the CAB call."))})
    assert len(out) == n, (len(out), n)
    # render the tool outputs last, at the sizes the character budget leaves them
    if {c["function"]["name"] for m in out for c in m.get("tool_calls") or []} != set(TOOLS):
        raise RuntimeError("a tool went unused")  # pragma: no cover - the tail calls whatever is left
    lazies = [m for m in out if isinstance(m.get("content"), _Lazy)]
    fixed = sum(len(text_of(m)) for m in out if not isinstance(m.get("content"), _Lazy))
    budget = _chars_target(n) - fixed
    left = len(lazies)
    for m in lazies:
        share = budget / left if left else 0
        target = int(min(24000, max(350, share * r.uniform(0.35, 1.65))))
        m["content"] = m["content"].make(target)
        budget -= len(m["content"])
        left -= 1
    facts: list[Fact] = []
    for ep in episodes:
        for f in ep.facts:
            stale_ep = f.get("stale_ep")
            facts.append(Fact(kind=f["kind"], value=f["value"], index=ep.start + f["offset"], query=f["query"],
                              stale=f.get("stale"),
                              stale_index=stale_ep.start + f["stale_off"] if stale_ep is not None else None,
                              resolved=ep.start + f["resolved_off"] if "resolved_off" in f else None))
    facts.sort(key=lambda f: f.index)
    return Session(messages=out, facts=facts, seed=seed, pasted=pasted)
