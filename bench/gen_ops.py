# ruff: noqa: E731  (the fact templates are one-line value makers; lambdas keep each next to its wording)
"""Ops / support-escalation agent sessions with planted facts: an independent benchmark generator.

    from gen_ops import make_session
    session = make_session(seed=1, messages=400)     # about 150k tokens at 4 chars a token
    session = make_session(seed=1, messages=3000)    # about 1.2M tokens

This generator was written from the ``Fact``/``Session`` dataclasses and a prose brief only,
without reading the compactor (``summarizer/``) or any other session generator, so that the
phrasings it plants do not echo what the compactor looks for.

The conversation is an on-call / platform agent (tools: ``shell``, ``kubectl``, ``read_file``,
``edit_file``, ``write_file``, ``search_logs``, ``http_get``, ``update_plan``) working through
incidents, kubernetes / terraform / ansible chores, log triage and customer escalations. Users
paste tickets, quoted e-mail threads, Slack threads, logs, stack traces, JSON and runbooks; big
tool outputs (pod descriptions, terraform plans, config dumps, log pages) alternate with short
turns. Pasted material carries tempting lines ("do not retry", "MUST NOT be retried",
``duration_ms=168``) that are not instructions; every pasted span is listed in
``session.pasted``.

Facts (``Fact``) of eight kinds are planted early, in the middle and late, all before the last
10% of the messages: instruction, correction, error, file, decision, identifier, finding, plan.
Every value is unique and occurs nowhere before the message that states it; noise that would
contain a planted value (or a correction's stale value) is regenerated. A rule hidden in a pasted
runbook is a fact, so the runbook is recorded as two pasted spans around the rule's line.

Same seed and size, same bytes. ``python3 bench/gen_ops.py`` runs a self-check.
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from sessiongen import Fact, Session

KINDS = ("instruction", "correction", "error", "file", "decision", "identifier", "finding", "plan")
BANDS = ((0.03, 0.30), (0.30, 0.60), (0.60, 0.85))
TARGET_CHARS = 1560  # average characters a message

LOWER = "bcdfghjklmnpqrstvwxz2456789"
ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
UPPER = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"

# ---------------------------------------------------------------- noise pools (never fact values)
NOISE_SVCS = ["payments-api", "billing-worker", "checkout-web", "auth-gateway", "search-indexer",
              "notif-dispatcher", "inventory-sync", "rates-engine", "webhook-relay", "report-builder",
              "session-store", "media-transcoder", "fraud-scorer", "export-svc", "tenant-admin",
              "catalog-api"]
NOISE_CLUSTERS = ["prod-use1-a", "prod-usw2-b", "stg-euw1", "dev-shared", "prod-apse1-a", "ops-tools-1",
                  "stg-use1"]
NAMESPACES = ["payments", "billing", "platform", "support-tools", "search", "edge", "data", "monitoring",
              "ingress-nginx", "checkout", "identity"]
CUSTOMERS = ["Acme Logistics", "Northwind Traders", "Brightline Health", "Cobalt Freight", "Pinecrest Bank",
             "Halcyon Media", "Tessellate Labs", "Orchard Retail", "Vantage Insurance", "Kestrel Airlines",
             "Moss & Finch", "Juniper Schools", "Redwood Clinics", "Bluefin Games", "Sable Energy",
             "Quarry Outfitters"]
PEOPLE = ["Priya", "Marcus", "Dana", "Tomasz", "Aiko", "Lena", "Rafael", "Chidi", "Sofia", "Jonah", "Mei",
          "Oskar", "Farah", "Luis", "Ingrid", "Kwame"]
SURNAMES = ["Okafor", "Lindqvist", "Moreau", "Tanaka", "Novak", "Haddad", "Brennan", "Castillo", "Iyer",
            "Schulz", "Petrova", "Adeyemi", "Walsh", "Kowalski"]
REGIONS = ["us-east-1", "us-west-2", "eu-west-1", "eu-central-1", "ap-southeast-1", "ap-northeast-1",
           "ca-central-1", "sa-east-1"]
COMPANIES = ["northbeam", "larkspur", "tidewell", "ferrolane", "quillstack", "oakmere", "brightfold"]
HTTP_PATHS = ["/v1/charges", "/v1/refunds", "/v2/invoices", "/api/orders", "/healthz", "/v1/exports",
              "/graphql", "/v1/webhooks/deliveries", "/v1/sessions", "/api/search", "/v1/customers",
              "/internal/metrics", "/v1/payouts", "/api/cart/items"]
TOPICS = ["payments.captured", "billing.invoice-ready", "orders.v2", "audit.events", "notifications.outbound",
          "search.reindex", "exports.requested"]
UPSTREAMS = ["stripe-proxy", "pg-primary", "redis-cache", "partner-gw", "s3-exports", "es-cluster",
             "smtp-relay", "fx-provider", "geo-ip"]
JOBS = ["nightly-export", "invoice-rollup", "reindex-delta", "stale-session-gc", "ledger-snapshot",
        "dunning-run", "usage-aggregate"]
THREADS = ["http-nio-8080-exec-7", "http-nio-8080-exec-12", "kafka-consumer-3", "scheduler-1",
           "ForkJoinPool.commonPool-worker-5", "grpc-default-executor-2", "main"]
JLOGGERS = ["c.n.payments.ChargeService", "c.n.billing.InvoiceJob", "o.h.engine.jdbc.spi.SqlExceptionHelper",
            "c.z.hikari.pool.HikariPool", "o.a.kafka.clients.NetworkClient", "c.n.web.RequestLogFilter",
            "o.s.w.s.m.m.a.ExceptionHandlerExceptionResolver"]
UAS = ["okhttp/4.9.3", "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)", "python-requests/2.31.0",
       "Go-http-client/2.0", "kube-probe/1.27", "curl/8.4.0", "PostmanRuntime/7.36.0"]
NOISE_FILES = ["deploy/helm/payments-api/values.yaml", "deploy/helm/checkout-web/values-staging.yaml",
               "terraform/modules/vpc/outputs.tf", "terraform/envs/staging/main.tf",
               "ansible/roles/node_exporter/defaults/main.yml", "k8s/base/search-indexer/deployment.yaml",
               ".github/workflows/lint.yml", "scripts/tail_errors.sh", "monitoring/dashboards/edge.json",
               "docs/oncall/escalation.md", "ansible/inventory/staging.ini", "k8s/base/webhook-relay/service.yaml",
               "terraform/modules/redis/variables.tf", "deploy/helm/report-builder/Chart.yaml"]
REPO_PKGS = ["internal/api", "internal/store", "internal/queue", "internal/auth", "pkg/retry", "pkg/metrics",
             "cmd/server", "internal/billing", "internal/webhooks", "pkg/featureflags"]

# ---------------------------------------------------------------- fact-only pools
FACT_SVCS = ["ledger-recon", "payouts-gw", "kyc-worker", "statement-render", "fx-quotes", "dunning-svc",
             "ach-batcher", "card-vault", "tax-calc", "loyalty-api", "refund-orch", "geo-lookup",
             "ratelimit-proxy", "audit-sink", "invoice-pdf", "chargeback-svc", "merchant-onboard",
             "settlement-cron", "risk-rules", "pricing-sync"]
FACT_DBS = ["payments-db", "ledger-pg", "orders-mysql", "session-redis", "search-es-data", "kafka-broker",
            "billing-pg", "auth-redis", "vault", "etcd-backup", "clickhouse-shard", "rabbitmq", "payouts-pg",
            "kyc-mongo"]
GEOS = ["east", "west", "central", "north", "south", "eu", "ap"]


class Clash(RuntimeError):
    """A fact template could not draw a value unlike the ones already reserved."""


def text_of(message: dict) -> str:
    parts = [str(message.get("content") or "")]
    for call in message.get("tool_calls") or []:
        parts.append(call["function"]["arguments"])
    return "\n".join(parts)


def cap(s: str) -> str:
    return s[:1].upper() + s[1:]


@dataclass
class Spec:
    """A fact to plant: its value and query now, its messages when its event comes up."""

    kind: str
    value: str
    query: str
    render: Callable[[Ep], None]
    stale: str | None = None
    stale_render: Callable[[Ep], None] | None = None
    early: str | None = None  # decisions: the phrase a later revision replaces
    early_render: Callable[[Ep], None] | None = None
    resolve_render: Callable[[Ep], None] | None = None
    index: int | None = None
    stale_index: int | None = None
    resolved: int | None = None


@dataclass(order=True)
class Event:
    pos: int
    seq: int
    role: str = field(compare=False)  # plant | stale | early | resolve
    spec: Spec = field(compare=False)


class Ep:
    """One episode: a user turn, the agent's tool rounds, the agent's answer."""

    def __init__(self, g: Gen):
        self.g = g
        self.m: list[dict] = []
        self.pasted: list[tuple[int, str]] = []

    def user(self, text: str, pasted: tuple[str, ...] | list[str] = ()) -> None:
        self.m.append({"role": "user", "content": text})
        for p in pasted:
            assert p in text
            self.pasted.append((len(self.m) - 1, p))

    def say(self, text: str) -> None:
        self.m.append({"role": "assistant", "content": text})

    def run(self, text: str | None, calls: list[tuple[str, dict, str]]) -> None:
        tcs = [self.g.call(name, args) for name, args, _ in calls]
        self.m.append({"role": "assistant", "content": text, "tool_calls": tcs})
        for tc, (_, _, out) in zip(tcs, calls):
            self.m.append({"role": "tool", "tool_call_id": tc["id"], "content": out})


class Gen:
    def __init__(self, seed: int, n: int):
        self.r = random.Random(seed)
        self.seed = seed
        self.n = n
        self.msgs: list[dict] = []
        self.texts: list[str] = []
        self.total = 0
        self.pasted: list[tuple[int, str]] = []
        self.t = 1714550400 + self.r.randint(0, 200) * 86400 + self.r.randint(0, 86400)
        self.co = self.r.choice(COMPANIES)
        self.user_name = self.r.choice(PEOPLE)
        self.used: list[str] = []  # reserved strings: fact values, stale values, early decisions
        self.used_entities: set[str] = set()
        self.fact_svcs = FACT_SVCS[:]
        self.r.shuffle(self.fact_svcs)

    # ------------------------------------------------------------ random helpers
    def ri(self, a: int, b: int) -> int:
        return self.r.randint(a, b)

    def ch(self, seq):
        return self.r.choice(seq)

    def hx(self, k: int) -> str:
        return "%0*x" % (k, self.r.getrandbits(4 * k))

    def an(self, k: int, alphabet: str = ALNUM) -> str:
        return "".join(self.r.choices(alphabet, k=k))

    def pod(self, svc: str) -> str:
        return f"{svc}-{self.hx(self.ri(8, 10))}-{self.an(5, LOWER)}"

    def ip(self) -> str:
        return f"10.{self.ri(0, 63)}.{self.ri(0, 255)}.{self.ri(1, 254)}"

    def node(self) -> str:
        return f"ip-10-{self.ri(0, 63)}-{self.ri(0, 255)}-{self.ri(1, 254)}.{self.ch(REGIONS)}.compute.internal"

    def iso(self, t: float) -> str:
        return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + ".%03dZ" % int((t % 1) * 1000)

    def day(self, t: float | None = None) -> str:
        return time.strftime("%Y-%m-%d", time.gmtime(self.t if t is None else t))

    def hm(self, t: float | None = None) -> str:
        return time.strftime("%H:%M", time.gmtime(self.t if t is None else t))

    def person(self) -> str:
        return self.ch(PEOPLE)

    def svc(self) -> str:
        return self.ch(NOISE_SVCS)

    def cluster(self) -> str:
        return self.ch(NOISE_CLUSTERS)

    def ns(self) -> str:
        return self.ch(NAMESPACES)

    def call(self, name: str, args: dict) -> dict:
        return {"id": "call_" + self.an(24), "type": "function",
                "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)}}

    def uniq(self, make: Callable[[], str]) -> str:
        """A value that is no other reserved value's substring, nor has one as its substring."""
        for _ in range(40):
            v = make()
            if all(v not in u and u not in v for u in self.used):
                self.used.append(v)
                return v
        raise Clash(make)

    def entity(self, make: Callable[[], str]) -> str:
        for _ in range(200):
            v = make()
            if v not in self.used_entities:
                self.used_entities.add(v)
                return v
        raise RuntimeError("could not draw a unique entity")

    def fsvc(self) -> str:
        return self.ch(self.fact_svcs)

    def fcluster(self) -> str:
        return self.entity(lambda: f"{self.ch(['prod', 'dr', 'stg', 'prod'])}-{self.ch(GEOS)}-{self.ri(2, 9)}")

    def fdb(self) -> str:
        return self.entity(lambda: f"{self.ch(FACT_DBS)}-{self.ri(2, 19)}")

    def size(self, lo: int, hi: int) -> int:
        # skewed towards the low end: many 3-6k outputs, a few near 12k
        return int(lo + (hi - lo) * (self.r.random() ** 1.15))

    # ------------------------------------------------------------ big outputs
    def _event(self, svc: str, pod: str) -> tuple[str, str, dict]:
        r = self.r
        x = r.random()
        if x < 0.55:
            k = r.randrange(7)
            if k == 0:
                return "info", "request completed", {"method": self.ch(["GET", "POST", "PUT", "GET"]),
                                                      "path": self.ch(HTTP_PATHS), "status": self.ch([200, 200, 201, 204, 200]),
                                                      "duration_ms": self.ri(3, 420), "trace_id": self.hx(16)}
            if k == 1:
                return "info", "cache refresh done", {"keys": self.ri(100, 90000), "took_ms": self.ri(2, 900)}
            if k == 2:
                return "info", "lease renewed", {"holder": pod, "ttl_s": 15}
            if k == 3:
                return "info", "consumer lag", {"topic": self.ch(TOPICS), "partition": self.ri(0, 11), "lag": self.ri(0, 5000)}
            if k == 4:
                return "info", "health check ok", {"duration_ms": self.ri(1, 25)}
            if k == 5:
                return "info", "job finished", {"job": self.ch(JOBS), "processed": self.ri(10, 400000), "failed": self.ri(0, 3)}
            return "debug", "sql", {"query": f"SELECT id, status FROM {self.ch(['charges', 'invoices', 'orders', 'sessions'])} WHERE id = $1",
                                    "rows": self.ri(0, 40), "duration_ms": self.ri(1, 300)}
        if x < 0.86:
            k = r.randrange(7)
            if k == 0:
                return "warn", "slow upstream", {"upstream": self.ch(UPSTREAMS), "duration_ms": self.ri(800, 9000)}
            if k == 1:
                return "warn", "retrying request", {"attempt": self.ri(1, 3), "max_attempts": 3, "upstream": self.ch(UPSTREAMS)}
            if k == 2:
                return "warn", "partner API responded 409, do not retry", {"partner": self.ch(["adyen-eu", "plaid", "fx-provider", "avalara"]),
                                                                          "idempotency_key": self.hx(20)}
            if k == 3:
                m = self.ch([20, 40, 50, 100])
                return "warn", "pool near capacity", {"active": m - self.ri(0, 3), "max": m, "waiting": self.ri(0, 60)}
            if k == 4:
                return "warn", "deprecated setting 'timeout' used, use 'request_timeout' instead", {}
            if k == 5:
                return "warn", "never saw ack from downstream within 5s; will retry later", {"downstream": self.ch(UPSTREAMS)}
            return "warn", "clock skew detected", {"skew_ms": self.ri(120, 4000)}
        k = r.randrange(5)
        if k == 0:
            return "error", "upstream returned 502", {"upstream": self.ch(UPSTREAMS), "duration_ms": self.ri(30, 30000)}
        if k == 1:
            return "error", "context deadline exceeded", {"op": self.ch(["Charge.Capture", "Invoice.Render", "Search.Query", "Export.Write"]),
                                                          "duration_ms": self.ri(5000, 30000)}
        if k == 2:
            return "error", "charge already captured; MUST NOT be retried", {"charge_id": "ch_" + self.an(14)}
        if k == 3:
            return "error", "failed to publish", {"topic": self.ch(TOPICS), "err": "broker not available"}
        return "error", "always-on profiler upload failed", {"err": "connection reset by peer"}

    def logs(self, svc: str, size: int, fmt: str | None = None, extra: list[str] | None = None) -> str:
        """A page of service logs; ``extra`` lines are spread through it."""
        fmt = fmt or self.ch(("logfmt", "json", "java", "nginx", "logfmt"))
        t = self.t - self.ri(1800, 7200)
        pod = self.pod(svc)
        out: list[str] = []
        n = 0
        while n < size:
            t += self.r.random() * 4
            if fmt == "nginx":
                st = self.ch([200, 200, 200, 201, 204, 304, 404, 499, 502, 504, 200])
                rt = self.r.random() * (3 if st < 500 else 30)
                line = (f'{self.ip()} - - [{time.strftime("%d/%b/%Y:%H:%M:%S", time.gmtime(t))} +0000] '
                        f'"{self.ch(["GET", "POST", "GET", "PUT"])} {self.ch(HTTP_PATHS)} HTTP/1.1" {st} {self.ri(0, 40000)} '
                        f'"-" "{self.ch(UAS)}" rt={rt:.3f} uct=0.000 uht={rt:.3f} upstream={self.ip()}:8080')
            else:
                lvl, msg, kv = self._event(svc, pod)
                if fmt == "json":
                    d = {"ts": self.iso(t), "level": lvl, "svc": svc, "pod": pod, "msg": msg}
                    d.update(kv)
                    line = json.dumps(d)
                elif fmt == "java":
                    line = (time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(t)) + ",%03d %-5s [%s] %s - %s %s" % (
                        int((t % 1) * 1000), lvl.upper(), self.ch(THREADS), self.ch(JLOGGERS), msg,
                        " ".join(f"{k}={v}" for k, v in kv.items())))
                else:
                    body = " ".join(f'{k}="{v}"' if isinstance(v, str) and " " in v else f"{k}={v}" for k, v in kv.items())
                    line = f'ts={self.iso(t)} level={lvl} svc={svc} pod={pod} msg="{msg}" {body}'.rstrip()
            out.append(line)
            n += len(line) + 1
        if extra:
            for e in extra:
                out.insert(self.ri(len(out) // 4, max(len(out) // 4, len(out) - 2)), e)
        return "\n".join(out)

    def pods_table(self, ns: str, rows: int, extra: list[str] | None = None) -> str:
        lines = ["NAME                                           READY   STATUS      RESTARTS        AGE     IP             NODE"]
        for _ in range(rows):
            svc = self.svc()
            st = self.ch(["Running"] * 12 + ["Completed", "CrashLoopBackOff", "Pending", "Terminating"])
            rs = self.ri(0, 3) if st == "Running" else self.ri(0, 40)
            lines.append(f"{self.pod(svc):<46} {'1/1' if st == 'Running' else '0/1'}     {st:<11} {rs:<15} "
                         f"{self.ri(1, 59)}{self.ch('mhd')}     {self.ip():<14} {self.node()}")
        if extra:
            for e in extra:
                lines.insert(self.ri(1, len(lines)), e)
        return "\n".join(lines)

    def describe_pod(self, svc: str, ns: str, size: int, events: list[str] | None = None,
                     last_state: str | None = None) -> str:
        pod = self.pod(svc)
        node = self.node()
        img_tag = f"{self.ri(0, 2)}.{self.ri(0, 40)}.{self.ri(0, 20)}"
        L = [f"Name:             {pod}", f"Namespace:        {ns}", "Priority:         0",
             f"Service Account:  {svc}", f"Node:             {node}/{self.ip()}",
             f"Start Time:       {time.strftime('%a, %d %b %Y %H:%M:%S +0000', time.gmtime(self.t - self.ri(600, 400000)))}",
             f"Labels:           app.kubernetes.io/name={svc}", f"                  pod-template-hash={self.hx(10)}",
             f"                  team={self.ch(['payments', 'platform', 'growth', 'core'])}",
             "Annotations:      prometheus.io/port: 9102", "                  prometheus.io/scrape: true",
             "Status:           Running", f"IP:               {self.ip()}",
             f"Controlled By:  ReplicaSet/{svc}-{self.hx(10)}", "Containers:"]
        containers = [svc, "istio-proxy"] + (["fluent-bit"] if self.r.random() < 0.5 else [])
        for c in containers:
            L += [f"  {c}:", f"    Container ID:   containerd://{self.hx(64)}",
                  f"    Image:          registry.{self.co}.internal/{c}:{img_tag}",
                  f"    Image ID:       registry.{self.co}.internal/{c}@sha256:{self.hx(64)}",
                  f"    Port:           {self.ch([8080, 9090, 15090, 2020])}/TCP", "    State:          Running",
                  f"      Started:      {time.strftime('%a, %d %b %Y %H:%M:%S +0000', time.gmtime(self.t - self.ri(60, 90000)))}"]
            if last_state and c == svc:
                L += ["    Last State:     Terminated", f"      Reason:       {last_state}",
                      f"      Exit Code:    {137 if last_state == 'OOMKilled' else 1}"]
            L += ["    Ready:          True", f"    Restart Count:  {self.ri(0, 9)}", "    Limits:",
                  f"      cpu:     {self.ch(['500m', '1', '2', '250m'])}", f"      memory:  {self.ch([256, 512, 1024, 2048])}Mi",
                  "    Requests:", f"      cpu:        {self.ch(['100m', '200m', '500m'])}",
                  f"      memory:     {self.ch([128, 256, 512])}Mi",
                  "    Liveness:     http-get http://:8080/healthz delay=10s timeout=1s period=10s #success=1 #failure=3",
                  "    Readiness:    http-get http://:8080/ready delay=5s timeout=1s period=5s #success=1 #failure=3",
                  "    Environment:"]
            for _ in range(self.ri(6, 22)):
                k = self.ch(["DB_HOST", "DB_POOL_MAX", "LOG_LEVEL", "OTEL_EXPORTER_OTLP_ENDPOINT", "REDIS_URL", "FEATURE_FLAGS",
                             "KAFKA_BROKERS", "HTTP_TIMEOUT_MS", "REGION", "SENTRY_DSN", "GOMAXPROCS", "JAVA_TOOL_OPTIONS"])
                v = self.ch([self.ip(), str(self.ri(1, 200)), "info", "http://otel-collector.monitoring:4317", "<set to the key 'url' in secret 'redis'>",
                             f"-XX:MaxRAMPercentage={self.ri(50, 80)}", self.ch(REGIONS), "<set to the key 'dsn' in secret 'sentry'>"])
                L.append(f"      {k}:  {v}")
            L += ["    Mounts:", "      /etc/config from config (ro)",
                  f"      /var/run/secrets/kubernetes.io/serviceaccount from kube-api-access-{self.an(5, LOWER)} (ro)"]
        L += ["Conditions:", "  Type              Status", "  Initialized       True", "  Ready             True",
              "  ContainersReady   True", "  PodScheduled      True", "Volumes:", "  config:",
              "    Type:      ConfigMap (a volume populated by a ConfigMap)", f"    Name:      {svc}-config",
              "    Optional:  false", "QoS Class:                   Burstable",
              f"Node-Selectors:              node.kubernetes.io/pool={self.ch(['general', 'memory', 'spot'])}",
              "Tolerations:                 node.kubernetes.io/not-ready:NoExecute op=Exists for 300s",
              "                             node.kubernetes.io/unreachable:NoExecute op=Exists for 300s", "Events:",
              "  Type     Reason     Age                From     Message", "  ----     ------     ----               ----     -------"]
        body = "\n".join(L)
        ev = list(events or [])
        while len(body) + sum(len(e) for e in ev) < size:
            ev.append(self.ch([
                f"  Normal   Pulled     {self.ri(2, 50)}m (x{self.ri(2, 9)} over {self.ri(1, 5)}h)  kubelet  Container image already present on machine",
                f"  Warning  Unhealthy  {self.ri(2, 50)}m (x{self.ri(2, 30)} over {self.ri(1, 5)}h)  kubelet  Readiness probe failed: Get \"http://{self.ip()}:8080/ready\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)",
                f"  Normal   Started    {self.ri(2, 50)}m                kubelet  Started container {svc}",
                f"  Normal   Created    {self.ri(2, 50)}m                kubelet  Created container {svc}",
                f"  Warning  BackOff    {self.ri(2, 50)}m (x{self.ri(2, 90)} over {self.ri(1, 5)}h)  kubelet  Back-off restarting failed container {svc} in pod {pod}_{ns}({self.hx(8)}-{self.hx(4)})"]))
        return body + "\n" + "\n".join(ev)

    def tf_plan(self, module: str, size: int, tail: str | None = None) -> str:
        L = [f"module.{module}.data.aws_caller_identity.current: Reading...",
             f"module.{module}.data.aws_caller_identity.current: Read complete after 0s [id={self.ri(10**11, 10**12 - 1)}]"]
        for _ in range(self.ri(4, 12)):
            L.append(f"module.{module}.{self.ch(['aws_security_group', 'aws_iam_role', 'aws_s3_bucket', 'aws_db_parameter_group', 'aws_lb_target_group'])}"
                     f".{self.ch(['this', 'main', 'app', 'default'])}: Refreshing state... [id={self.ch(['sg-', 'arn:', 'tg-', 'pg-'])}{self.hx(12)}]")
        L += ["", "Terraform used the selected providers to generate the following execution plan. Resource actions are",
              "indicated with the following symbols:", "  + create", "  ~ update in-place", "-/+ destroy and then create replacement",
              "", "Terraform will perform the following actions:", ""]
        adds = chg = dst = 0
        while sum(len(x) + 1 for x in L) < size:
            kind = self.ch(["update", "update", "create", "replace"])
            rt = self.ch(["aws_security_group_rule", "aws_iam_role_policy", "aws_db_parameter_group", "aws_lb_listener_rule",
                          "aws_cloudwatch_metric_alarm", "aws_autoscaling_group", "aws_s3_bucket_lifecycle_configuration",
                          "kubernetes_config_map", "helm_release"])
            name = self.ch(["this", "main", "ingress", "egress", "app", "alarms", "default"])
            addr = f'module.{module}.{rt}.{name}' + (f'["{self.ch(["443", "5432", "6379", "8080"])}"]' if self.r.random() < 0.3 else "")
            if kind == "create":
                adds += 1
                L += [f"  # {addr} will be created", f'  + resource "{rt}" "{name}" {{']
                for _ in range(self.ri(4, 12)):
                    L.append(f"      + {self.ch(['arn', 'id', 'name', 'tags_all', 'description', 'priority', 'threshold', 'period', 'statistic', 'namespace'])}"
                             f"{' ' * self.ri(1, 14)}= {self.ch(['(known after apply)', str(self.ri(1, 500)), json.dumps(self.ch(REGIONS)), 'true', json.dumps(module + '-' + self.hx(4))])}")
                L.append("    }")
            elif kind == "update":
                chg += 1
                L += [f"  # {addr} will be updated in-place", f'  ~ resource "{rt}" "{name}" {{',
                      f'        id{" " * 20}= "{self.hx(8)}-{self.hx(4)}"']
                for _ in range(self.ri(1, 4)):
                    a, b = self.ri(1, 900), self.ri(1, 900)
                    L.append(f"      ~ {self.ch(['max_size', 'desired_capacity', 'threshold', 'evaluation_periods', 'value', 'cidr_blocks', 'version'])}"
                             f"{' ' * self.ri(1, 12)}= {a} -> {b}")
                L += [f"        # ({self.ri(2, 30)} unchanged attributes hidden)", "    }"]
            else:
                adds += 1
                dst += 1
                L += [f"  # {addr} must be replaced", f'-/+ resource "{rt}" "{name}" {{',
                      f'      ~ id{" " * 18}= "{self.hx(12)}" -> (known after apply)',
                      f'      ~ name{" " * 16}= "{module}-{self.hx(4)}" -> "{module}-{self.hx(4)}" # forces replacement',
                      f"        # ({self.ri(2, 30)} unchanged attributes hidden)", "    }"]
            L.append("")
        L.append(f"Plan: {adds} to add, {chg} to change, {dst} to destroy.")
        if tail:
            L.append(tail)
        else:
            L += ["", "─" * 77, "", "Note: You didn't use the -out option to save this plan, so Terraform can't guarantee to take",
                  'exactly these actions if you run "terraform apply" now.']
        return "\n".join(L)

    PG_KEYS = [("shared_buffers", lambda g: f"{g.ri(1, 64) * 128}MB"), ("work_mem", lambda g: f"{g.ri(2, 64)}MB"),
               ("maintenance_work_mem", lambda g: f"{g.ri(1, 8) * 256}MB"), ("effective_cache_size", lambda g: f"{g.ri(4, 96)}GB"),
               ("wal_level", lambda g: "replica"), ("max_wal_size", lambda g: f"{g.ri(1, 16)}GB"),
               ("checkpoint_timeout", lambda g: f"{g.ri(5, 30)}min"), ("random_page_cost", lambda g: f"{g.ch(['1.1', '1.5', '4'])}"),
               ("log_min_duration_statement", lambda g: f"{g.ch([250, 500, 1000, 2000])}"), ("autovacuum_max_workers", lambda g: str(g.ri(3, 8))),
               ("statement_timeout", lambda g: f"{g.ri(5, 120)}s"), ("idle_in_transaction_session_timeout", lambda g: f"{g.ri(1, 30)}min"),
               ("max_connections", lambda g: str(g.ch([100, 200, 300, 500, 1000]))), ("hot_standby", lambda g: "on"),
               ("max_parallel_workers", lambda g: str(g.ri(2, 16))), ("log_line_prefix", lambda g: "'%m [%p] %q%u@%d '"),
               ("track_io_timing", lambda g: "on"), ("synchronous_commit", lambda g: g.ch(["on", "off", "remote_apply"])),
               ("default_pool_size", lambda g: str(g.ch([20, 25, 50]))), ("server_idle_timeout", lambda g: str(g.ch([60, 600]))),
               ("tcp_keepalives_idle", lambda g: str(g.ch([60, 300])))]

    def config_dump(self, svc: str, size: int, kind: str | None = None, inject: str | None = None,
                    exclude: str | None = None) -> tuple[str, str]:
        """(path, content) of a config file; ``inject`` goes in its middle, ``exclude`` names a key left out."""
        kind = kind or self.ch(["pg", "yaml", "nginx", "props"])
        L: list[str] = []
        if kind == "pg":
            path = f"/etc/postgresql/15/main/{self.ch(['postgresql.conf', 'conf.d/tuning.conf'])}"
            L = ["# -----------------------------", "# PostgreSQL configuration file", "# -----------------------------",
                 "# Managed by ansible (role: postgres). Local edits are overwritten on the next run.", ""]
            while sum(len(x) + 1 for x in L) < size:
                k, f = self.ch(self.PG_KEYS)
                if k == exclude:
                    continue
                L.append(f"{k} = {f(self)}{' ' * self.ri(1, 20)}# {self.ch(['(change requires restart)', 'tuned ' + self.day(), 'see OPS wiki', 'default', 'bumped after the march incident', ''])}".rstrip(" #"))
                if self.r.random() < 0.15:
                    L.append("")
        elif kind == "nginx":
            path = f"/etc/nginx/conf.d/{svc}.conf"
            L = ["# generated by ansible - edits will be lost", f"upstream {svc.replace('-', '_')} {{",
                 "    least_conn;", f"    keepalive {self.ch([16, 32, 64])};"]
            for _ in range(self.ri(2, 6)):
                L.append(f"    server {self.ip()}:8080 max_fails=3 fail_timeout=10s;")
            L += ["}", ""]
            while sum(len(x) + 1 for x in L) < size:
                loc = self.ch(HTTP_PATHS)
                L += [f"location {loc} {{", f"    proxy_pass http://{svc.replace('-', '_')};",
                      f"    proxy_read_timeout {self.ri(5, 120)}s;", f"    proxy_connect_timeout {self.ri(1, 10)}s;",
                      f"    client_max_body_size {self.ch(['1m', '8m', '25m', '100m'])};",
                      f"    limit_req zone={self.ch(['api', 'burst', 'login'])} burst={self.ri(5, 200)} nodelay;",
                      '    proxy_set_header X-Request-Id $request_id;', "}", ""]
        elif kind == "props":
            path = f"/opt/{svc}/config/application.properties"
            L = [f"# {svc} runtime configuration", f"spring.application.name={svc}"]
            while sum(len(x) + 1 for x in L) < size:
                L.append(self.ch([
                    f"spring.datasource.hikari.maximum-pool-size={self.ri(5, 80)}",
                    f"spring.datasource.hikari.connection-timeout={self.ch([3000, 10000, 30000])}",
                    f"server.tomcat.threads.max={self.ri(50, 400)}",
                    "management.endpoints.web.exposure.include=health,info,prometheus",
                    f"app.partner.{self.ch(['adyen', 'plaid', 'avalara'])}.timeout-ms={self.ri(500, 15000)}",
                    f"app.retry.max-attempts={self.ri(1, 6)}", f"app.retry.backoff-ms={self.ri(50, 3000)}",
                    f"logging.level.{self.ch(JLOGGERS)}={self.ch(['INFO', 'WARN', 'DEBUG'])}",
                    f"app.export.batch-size={self.ri(100, 20000)}",
                    f"spring.kafka.consumer.max-poll-records={self.ri(50, 1000)}",
                    f"# {self.ch(['TODO: move to vault', 'do not lower below 3, see postmortem', 'temporary until Q3', 'owner: ' + self.person()])}"]))
        else:
            path = f"deploy/helm/{svc}/values-{self.ch(['prod', 'staging', 'prod-eu'])}.yaml"
            L = [f"# values for {svc}", "replicaCount: " + str(self.ri(2, 30)), "image:",
                 f"  repository: registry.{self.co}.internal/{svc}", f"  tag: \"{self.ri(0, 2)}.{self.ri(0, 40)}.{self.ri(0, 20)}\"",
                 "  pullPolicy: IfNotPresent", ""]
            while sum(len(x) + 1 for x in L) < size:
                blk = self.r.randrange(5)
                if blk == 0:
                    L += ["resources:", "  limits:", f"    cpu: {self.ch(['500m', '1', '2'])}", f"    memory: {self.ch(['512Mi', '1Gi', '2Gi'])}",
                          "  requests:", f"    cpu: {self.ch(['100m', '250m'])}", f"    memory: {self.ch(['256Mi', '512Mi'])}"]
                elif blk == 1:
                    L += ["autoscaling:", "  enabled: true", f"  minReplicas: {self.ri(2, 6)}", f"  maxReplicas: {self.ri(8, 60)}",
                          f"  targetCPUUtilizationPercentage: {self.ri(50, 85)}"]
                elif blk == 2:
                    L += ["env:"] + [f"  {self.ch(['LOG_LEVEL', 'HTTP_TIMEOUT_MS', 'DB_POOL_MAX', 'FEATURE_FLAGS', 'OTEL_SAMPLER_RATIO'])}: \"{self.ch(['info', str(self.ri(1, 9000)), 'checkout_v2,fast_refunds', '0.05'])}\"" for _ in range(self.ri(2, 8))]
                elif blk == 3:
                    L += ["podDisruptionBudget:", f"  minAvailable: {self.ri(1, 4)}", "ingress:", "  enabled: true",
                          "  className: nginx", "  hosts:", f"    - host: {svc}.{self.co}.io", "      paths: [\"/\"]"]
                else:
                    L += ["tolerations:", "  - key: dedicated", "    operator: Equal", f"    value: {self.ch(['payments', 'batch', 'general'])}",
                          "    effect: NoSchedule", "nodeSelector:", f"  node.kubernetes.io/pool: {self.ch(['general', 'memory', 'spot'])}"]
                L.append("")
        if exclude:
            L = [x for x in L if not x.strip().startswith(exclude)]
        if inject:
            L.insert(self.ri(len(L) // 3, max(len(L) // 3, 2 * len(L) // 3)), inject)
        return path, "\n".join(L)

    def ansible_run(self, play: str, size: int, fail_line: str | None = None) -> str:
        hosts = [f"{self.ch(['web', 'db', 'worker', 'edge', 'bastion'])}-{self.ri(1, 40):02d}.{self.ch(['use1', 'euw1', 'usw2'])}.{self.co}.internal"
                 for _ in range(self.ri(2, 6))]
        L = [f"PLAY [{play}] " + "*" * 60, "", "TASK [Gathering Facts] " + "*" * 55] + [f"ok: [{h}]" for h in hosts]
        tasks = ["common : install base packages", "common : render sysctl.conf", "node_exporter : ensure service running",
                 "nginx : template upstream config", "nginx : validate config", "postgres : tune postgresql.conf",
                 "users : ensure ops accounts", "logrotate : install policy", "certs : copy bundle", "docker : prune images"]
        while sum(len(x) + 1 for x in L) < size:
            L += ["", f"TASK [{self.ch(tasks)}] " + "*" * 50]
            for h in hosts:
                L.append(self.ch([f"ok: [{h}]", f"ok: [{h}]", f"changed: [{h}]", f"skipping: [{h}]"]))
        if fail_line:
            L += ["", f"TASK [{self.ch(tasks)}] " + "*" * 50, fail_line]
        L += ["", "PLAY RECAP " + "*" * 66]
        for h in hosts:
            L.append(f"{h:<40}: ok={self.ri(10, 60)}   changed={self.ri(0, 9)}    unreachable=0    failed={1 if fail_line and h in fail_line else 0}    skipped={self.ri(0, 12)}   rescued=0    ignored=0")
        return "\n".join(L)

    def stack(self, lang: str | None = None, headline: str | None = None) -> str:
        lang = lang or self.ch(["java", "python", "go", "node"])
        if lang == "java":
            ex = headline or self.ch(["java.net.SocketTimeoutException: Read timed out",
                                      "org.springframework.dao.DataAccessResourceFailureException: Unable to acquire JDBC Connection",
                                      "java.lang.NullPointerException: Cannot invoke \"String.length()\" because \"ref\" is null",
                                      "com.fasterxml.jackson.databind.exc.MismatchedInputException: Cannot deserialize value of type `java.time.Instant`"])
            L = [f"{time.strftime('%Y-%m-%d %H:%M:%S', time.gmtime(self.t))},{self.ri(100, 999)} ERROR [{self.ch(THREADS)}] {self.ch(JLOGGERS)} - request failed", ex]
            for _ in range(self.ri(8, 30)):
                L.append(f"\tat {self.ch(['com.' + self.co + '.payments', 'com.' + self.co + '.billing', 'org.springframework.web.servlet', 'org.apache.catalina.core', 'com.zaxxer.hikari.pool', 'java.base/java.net'])}"
                         f".{self.ch(['ChargeService', 'InvoiceRenderer', 'FrameworkServlet', 'StandardWrapperValve', 'HikariPool', 'SocketInputStream'])}"
                         f".{self.ch(['capture', 'render', 'service', 'invoke', 'getConnection', 'read', 'doFilter'])}({self.ch(['ChargeService', 'InvoiceRenderer', 'HikariPool', 'NioEndpoint'])}.java:{self.ri(20, 900)})")
            L.append(f"Caused by: {self.ch(['java.net.SocketTimeoutException: Read timed out', 'org.postgresql.util.PSQLException: This connection has been closed.'])}")
            L.append(f"\t... {self.ri(10, 80)} more")
            return "\n".join(L)
        if lang == "python":
            L = ["Traceback (most recent call last):"]
            for _ in range(self.ri(4, 12)):
                L += [f'  File "/app/{self.ch(["worker", "api", "jobs", "lib"])}/{self.ch(["export", "tasks", "client", "db", "retry"])}.py", line {self.ri(10, 700)}, in {self.ch(["run", "_call", "execute", "fetch_page", "wrapper", "handle"])}',
                      f"    {self.ch(['return self._session.request(method, url, **kw)', 'rows = cur.fetchmany(batch)', 'resp.raise_for_status()', 'raise RetryError(last)', 'payload = json.loads(body)'])}"]
            L.append(headline or self.ch(["requests.exceptions.ReadTimeout: HTTPSConnectionPool(host='partner-gw', port=443): Read timed out. (read timeout=30)",
                                          "psycopg2.errors.QueryCanceled: canceling statement due to statement timeout",
                                          "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)"]))
            return "\n".join(L)
        if lang == "go":
            L = [headline or self.ch(["panic: runtime error: invalid memory address or nil pointer dereference",
                                      "panic: send on closed channel", "fatal error: concurrent map writes"]),
                 f"[signal SIGSEGV: segmentation violation code=0x1 addr=0x{self.hx(2)} pc=0x{self.hx(6)}]", ""]
            for _ in range(self.ri(1, 4)):
                L.append(f"goroutine {self.ri(1, 9000)} [{self.ch(['running', 'select', 'chan receive', 'IO wait'])}]:")
                for _ in range(self.ri(3, 9)):
                    L += [f"github.com/{self.co}/{self.ch(['platform', 'payments', 'edge'])}/{self.ch(REPO_PKGS)}.({self.ch(['*Client', '*Store', '*Worker', '*Server'])}).{self.ch(['Do', 'Get', 'run', 'handle', 'flush'])}(0x{self.hx(10)}, 0x{self.hx(4)})",
                          f"\t/src/{self.ch(REPO_PKGS)}/{self.ch(['client', 'store', 'worker', 'server'])}.go:{self.ri(20, 600)} +0x{self.hx(3)}"]
                L.append("")
            return "\n".join(L)
        L = [headline or self.ch(["TypeError: Cannot read properties of undefined (reading 'id')",
                                  "Error: connect ECONNREFUSED 10.0.12.4:6379", "UnhandledPromiseRejection: Error: socket hang up"])]
        for _ in range(self.ri(5, 14)):
            L.append(f"    at {self.ch(['Object.handler', 'processTicksAndRejections', 'Router.handle', 'RedisClient.connect', 'async Promise.all'])} "
                     f"(/app/{self.ch(['dist/server.js', 'node_modules/express/lib/router/index.js', 'dist/jobs/export.js', 'node:internal/process/task_queues'])}:{self.ri(1, 900)}:{self.ri(1, 80)})")
        return "\n".join(L)

    def ticket(self, customer: str, size: int) -> str:
        first = self.person()
        last = self.ch(SURNAMES)
        dom = customer.lower().replace(" & ", "-").replace(" ", "-") + ".com"
        subj = self.ch(["Exports stuck at 'processing' since Tuesday", "Webhooks arriving twice", "Invoices show wrong tax amount",
                        "Intermittent 502 on checkout", "SSO login loop for some users", "API latency degraded in EU",
                        "Refunds not reflected in dashboard", "Missing rows in the usage report"])
        L = [f"Ticket #{self.ri(100000, 399999)} — \"{subj}\"", f"Requester: {first} {last} <{first.lower()}.{last.lower()}@{dom}>",
             f"Organization: {customer} (plan: {self.ch(['Enterprise', 'Scale', 'Growth'])}, ARR ${self.ri(20, 900)}k)",
             f"Priority: {self.ch(['Urgent', 'High', 'Normal'])}   Status: Open   Channel: {self.ch(['email', 'web form', 'Slack Connect'])}",
             f"Created: {self.day()} {self.hm()} UTC   SLA breach in: {self.ri(1, 23)}h {self.ri(1, 59)}m", "", "---", "",
             "Hi team,", ""]
        paras = [f"Since {self.ch(['Tuesday', 'yesterday', 'the weekend', 'your last deploy'])} we're seeing {subj.lower()}. It affects about {self.ri(2, 60)}% of our traffic from what we can tell.",
                 f"Our ops lead {self.person()} checked on our side and the requests leave our network fine. Sample request ids: {', '.join('req_' + self.an(12) for _ in range(self.ri(2, 5)))}.",
                 f"This is blocking our month-end close so any update would be appreciated. We're on the {self.ch(['EU', 'US'])} region.",
                 "We tried the retry guidance in your docs (exponential backoff, max 5 attempts) but the error comes back every time.",
                 "Please never call our main line about this, email or the Slack Connect channel only.",
                 f"Attaching an excerpt from our logs:\n\n    {self.iso(self.t - 3600)} POST /v1/charges -> 502 duration_ms={self.ri(100, 9000)}\n    {self.iso(self.t - 3500)} POST /v1/charges -> 502 duration_ms={self.ri(100, 9000)} note=\"do not retry\"\n    {self.iso(self.t - 3400)} POST /v1/charges -> 200 duration_ms={self.ri(50, 400)}"]
        self.r.shuffle(paras)
        for p in paras[: self.ri(2, len(paras))]:
            L += [p, ""]
        L += ["Thanks,", f"{first}", ""]
        depth = 0
        while sum(len(x) + 1 for x in L) < size and depth < 6:
            depth += 1
            q = "> " * depth
            who = self.ch([f"Support <support@{self.co}.io>", f"{first} {last} <{first.lower()}@{dom}>", f"{self.person()} ({self.co} Support)"])
            L += [f"{q.rstrip()}", f"{q}On {time.strftime('%a, %b %d, %Y at %I:%M %p', time.gmtime(self.t - depth * 86400))}, {who} wrote:"]
            for _ in range(self.ri(2, 6)):
                L.append(q + self.ch([
                    "Thanks for reaching out. Could you share the affected request ids and the time window?",
                    "We've escalated this to our engineering team and will update you within 4 business hours.",
                    "Our integration MUST NOT receive duplicate events, we bill our own customers per event.",
                    "Can you confirm whether this is related to the maintenance announced last week?",
                    f"We saw error code E{self.ri(1000, 9999)} in the dashboard, does that mean anything?",
                    "Always happy to jump on a call if that's faster.",
                    f"The issue started around {self.hm(self.t - self.ri(3600, 90000))} UTC and is still ongoing.",
                    "Please do not close this ticket until we confirm on our side.",
                    "FYI our contract says 99.95% monthly availability — we'd like to discuss credits."]))
        L += ["", f"Internal note ({self.person()}): customer is on the legacy webhook signer, do not promise an ETA before engineering confirms.",
              f"Internal note ({self.person()}): linked to {self.ch(['SUP', 'ESC'])}-{self.ri(10000, 99999)}, {self.ri(2, 9)} similar tickets this week."]
        return "\n".join(L)

    def slack_thread(self, size: int) -> str:
        t = self.t - self.ri(600, 7200)
        L = []
        while sum(len(x) + 1 for x in L) < size:
            t += self.ri(10, 300)
            L.append(f"[{self.hm(t)}] {self.person().lower()}: " + self.ch([
                f"anyone else seeing 502s from {self.svc()}?", "yeah, started a few min ago", f"looks like {self.svc()} restarted at {self.hm(t - 300)}",
                "I'm on it, looking at the dashboards", "not me, was afk", f"p99 is {self.ri(200, 9000)}ms right now, normally ~{self.ri(80, 300)}",
                "do not retry the failed batch yet, the partner said they're still processing", "ack", ":eyes:",
                f"cc @{self.person().lower()} who owns that alert", f"should we roll back {self.svc()}? last deploy was {self.ri(1, 6)}h ago",
                "I don't think it's the deploy, the graphs moved before it", "ok reverting the feature flag, 1 sec",
                f"error rate back to {self.r.random():.2f}%", "will write it up in the incident doc",
                f"never mind, it was the {self.ch(UPSTREAMS)} again", "the cron always does this at the top of the hour :/"]))
        return "\n".join(L)

    def handoff(self, size: int) -> str:
        L = [f"## On-call handoff — {self.day()} ({self.person()} → {self.person()})", "", "**Open**"]
        while sum(len(x) + 1 for x in L) < size:
            L.append("- " + self.ch([
                f"{self.svc()}: elevated 5xx since {self.hm(self.t - self.ri(3600, 40000))}, looks like the {self.ch(UPSTREAMS)} again; no customer reports yet",
                f"{self.ch(CUSTOMERS)} escalation SUP-{self.ri(10000, 99999)} waiting on engineering, they were promised an update by EOD",
                f"disk on {self.node()} at {self.ri(80, 95)}%, logrotate fixed it temporarily",
                f"don't bother paging {self.person()} tonight, they're on a flight",
                f"the {self.ch(JOBS)} job always fails the first attempt on Mondays, it retries on its own",
                f"cert for {self.svc()}.{self.co}.io renews automatically in {self.ri(3, 20)} days, nothing to do",
                f"{self.svc()} HPA maxed at {self.ri(10, 40)} replicas during the peak, might need a bump",
                f"alert `{self.ch(['KubePodCrashLooping', 'HighErrorRate', 'PGReplicationLag', 'KafkaConsumerLag'])}` flapped {self.ri(2, 30)}x, silenced until {self.hm()} UTC",
                f"left a note in the incident doc; timeline is complete up to {self.hm()}"]))
            if self.r.random() < 0.1:
                L += ["", self.ch(["**Watch**", "**FYI**", "**Done**"])]
        return "\n".join(L)

    def json_blob(self, size: int) -> str:
        items = []
        while sum(len(json.dumps(i)) for i in items) < size:
            items.append({"id": f"{self.ch(['dep', 'job', 'evt', 'exp'])}_{self.an(12)}",
                          "service": self.svc(), "status": self.ch(["succeeded", "failed", "running", "queued"]),
                          "started_at": self.iso(self.t - self.ri(60, 86400)), "duration_ms": self.ri(5, 600000),
                          "attempts": self.ri(1, 5), "region": self.ch(REGIONS),
                          "error": self.ch([None, None, "upstream timeout", "do not retry: permanent failure", "quota exceeded"]),
                          "labels": {"team": self.ch(["payments", "platform", "growth"]), "tier": self.ch(["1", "2", "3"])}})
        return json.dumps({"data": items, "page": {"next": self.an(16), "size": len(items)}}, indent=2)

    def runbook(self, title: str, size: int, rule: str | None = None) -> tuple[str, str | None]:
        """A markdown runbook; returns (text, the line carrying ``rule``)."""
        team = self.ch(["Platform", "Payments Infra", "Data Platform", "SRE", "Support Engineering"])
        L = [f"# Runbook: {title}", "", f"Owner: {team} · Last reviewed: {self.day(self.t - self.ri(10, 300) * 86400)} · Applies to: {self.ch(['SEV1/SEV2', 'SEV2', 'all severities'])}", "",
             "## 1. Overview", "",
             f"This runbook covers {title.lower()}. It is written for the primary on-call and assumes access to the ops bastion "
             f"and the `{self.ch(['ops-admin', 'sre', 'platform-oncall'])}` role. The procedure usually takes {self.ri(15, 90)} minutes end to end.", "",
             "## 2. Prerequisites", "", "- VPN connected and `aws sso login --profile ops` done", "- kubectl contexts for the affected clusters",
             f"- read access to the `{self.ch(['ops', 'infra', 'platform'])}` repository", "", "## 3. Detection", "",
             "| Alert | Threshold | Dashboard |", "|---|---|---|"]
        for _ in range(self.ri(3, 7)):
            L.append(f"| {self.ch(['HighErrorRate', 'PGReplicationLag', 'DiskFillingUp', 'KafkaConsumerLag', 'CertExpirySoon', 'PodCrashLooping'])} "
                     f"| {self.ch(['> 2% for 5m', '> 30s', '< 10% free', '> 50k msgs', '< 14 days', '> 3 restarts/10m'])} | grafana/{self.an(9).lower()} |")
        L += ["", "## 4. Procedure", ""]
        steps = [
            lambda: (f"Check the current state with `kubectl get pods -n {self.ns()} -o wide` and note which nodes the pods are on.",),
            lambda: (f"Open the {self.ch(['error-rate', 'latency', 'saturation'])} dashboard and compare the last hour to the same hour last week.",),
            lambda: (f"Scale the consumer down: `kubectl scale deploy/{self.svc()} --replicas=0 -n {self.ns()}`.",),
            lambda: ("Take a snapshot:", "```", f"aws rds create-db-snapshot --db-instance-identifier {self.ch(['main', 'replica', 'reporting'])}-{self.ri(1, 9)} \\",
                     f"  --db-snapshot-identifier manual-{self.day()}-{self.an(4).lower()}", "```"),
            lambda: (f"Wait until the snapshot shows `available` (usually {self.ri(5, 40)} minutes for this size).",),
            lambda: ("Run the promotion script from the ops repo:", "```", f"./scripts/promote_replica.sh --cluster {self.cluster()} --dry-run", "# then without --dry-run", "```"),
            lambda: (f"Post a status update in the incident channel every {self.ch([15, 30])} minutes while the procedure runs.",),
            lambda: (f"Verify the application reconnects: the `{self.ch(['db_pool_active', 'http_requests_total', 'consumer_lag'])}` metric should recover within {self.ri(2, 10)} minutes.",),
            lambda: (f"If the script prints `WARN: replica lag {self.ri(1, 60)}s`, that is expected right after promotion and clears on its own.",),
            lambda: ("Re-enable the consumer:", "```", f"kubectl scale deploy/{self.svc()} --replicas={self.ri(2, 12)} -n {self.ns()}", "```"),
            lambda: (f"Update the CMDB entry and the status page component `{self.ch(['API', 'Dashboard', 'Webhooks', 'Exports'])}`.",),
        ]
        k, sub = 1, 0
        body: list[str] = []
        subs = ["Preparation", "Failover", "Drain", "Restore", "Verification", "Cleanup", "Cache warm-up", "Communication", "Re-enable traffic",
                "Post-checks", "Backfill", "Hand-back"]
        while sum(len(x) + 1 for x in L) + sum(len(x) + 1 for x in body) < size * 0.75:
            if k > self.ri(4, 8) or not body:
                sub += 1
                body += ["", f"### 4.{sub} {subs[(sub - 1) % len(subs)]}", ""]
                if self.r.random() < 0.5:
                    body += [self.ch([f"This part usually takes {self.ri(5, 40)} minutes. Keep the incident channel updated while it runs.",
                                      f"Run these from the ops bastion; the laptops don't have the `{self.ch(['ops-admin', 'sre'])}` role mapped.",
                                      f"Expect a short burst of 5xx on {self.svc()} during this part; it is absorbed by client retries.",
                                      "Everything here is idempotent, so re-running a step after a timeout is safe."]), ""]
                k = 1
            for i, line in enumerate(self.ch(steps)()):
                body.append(f"{k}. {line}" if i == 0 else "   " + line)
            k += 1
        L += body
        L += ["", "## 5. Rollback", "", f"Re-point the `{self.svc()}` DSN to the old primary and restart the deployment. "
              f"Expect {self.ri(1, 5)} minutes of elevated errors.", "", "## 6. Contacts", "", "| Role | Name | Handle |", "|---|---|---|"]
        for _ in range(self.ri(3, 6)):
            p = self.person()
            L.append(f"| {self.ch(['DB on-call', 'Payments lead', 'Support duty', 'Incident commander', 'Network'])} | {p} {self.ch(SURNAMES)} | @{p.lower()} |")
        L += ["", "## 7. Known issues", ""]
        while sum(len(x) + 1 for x in L) < size:
            L.append("- " + self.ch([
                "The promotion script sometimes reports `exit 3` when the replica was already promoted; that is harmless.",
                f"Grafana panels lag by ~{self.ri(30, 120)}s, don't read too much into the first minute.",
                f"The `{self.ch(JOBS)}` job logs a timeout during the switch; it catches up by itself.",
                f"Older versions of this doc referenced the `{self.ch(['legacy', 'v1', 'old-ops'])}` bastion, which no longer exists.",
                f"In {self.ri(2019, 2023)} a failover took {self.ri(40, 180)} minutes because the DNS TTL was {self.ri(300, 3600)}s; it is now 60s."]))
        rule_line = None
        if rule:
            at = self.ri(int(len(L) * 0.4), int(len(L) * 0.6))
            while at < len(L) and L[at].startswith(("   ", "```")):
                at += 1  # keep code blocks whole
            rule_line = self.ch([f"{rule}", f"> Note: {rule}", f"- {rule}", f"{rule} See the postmortem for the background."])
            L[at:at] = ["", rule_line, ""]
        return "\n".join(L), rule_line

    def test_pass(self, size: int) -> tuple[str, str]:
        kind = self.ch(["go", "jest", "mvn", "pytest"])
        L: list[str] = []
        if kind == "go":
            cmd = "go test ./... -count=1"
            while sum(len(x) + 1 for x in L) < size:
                L.append(self.ch([f"ok  \tgithub.com/{self.co}/platform/{self.ch(REPO_PKGS)}\t{self.r.random() * 3:.3f}s",
                                  f"?   \tgithub.com/{self.co}/platform/{self.ch(REPO_PKGS)}/mocks\t[no test files]",
                                  f"=== RUN   Test{self.ch(['Retry', 'Store', 'Queue', 'Auth', 'Webhook'])}{self.ch(['Backoff', 'Get', 'Drain', 'Expiry', 'Signature'])}",
                                  f"--- PASS: Test{self.ch(['Retry', 'Store', 'Queue', 'Auth'])}{self.ch(['Backoff', 'Get', 'Drain', 'Expiry'])} ({self.r.random():.2f}s)",
                                  f"    {self.ch(['retry', 'store', 'queue'])}_test.go:{self.ri(10, 300)}: {self.ch(['skipping: needs docker', 'using fake clock', 'seed=' + str(self.ri(1, 99999))])}"]))
            L.append("PASS")
        elif kind == "jest":
            cmd = "npm test -- --ci"
            L = [f"> {self.svc()}@{self.ri(1, 4)}.{self.ri(0, 30)}.{self.ri(0, 9)} test", "> jest --ci", ""]
            while sum(len(x) + 1 for x in L) < size:
                L.append(self.ch([f" PASS  src/{self.ch(['components', 'api', 'hooks', 'utils'])}/{self.ch(['Cart', 'Refund', 'Invoice', 'Session', 'Retry'])}{self.ch(['Form', 'Client', 'Table', 'Banner'])}.test.ts ({self.r.random() * 9:.2f} s)",
                                  "  console.warn\n    Warning: componentWillReceiveProps has been renamed, and is not recommended for use.",
                                  f"    ✓ {self.ch(['renders', 'retries', 'formats', 'validates', 'debounces'])} {self.ch(['amounts', 'on 503', 'empty state', 'the IBAN', 'search input'])} ({self.ri(1, 400)} ms)"]))
            L += ["", f"Test Suites: {self.ri(20, 90)} passed, {self.ri(20, 90)} total", f"Tests:       {self.ri(1, 9)} skipped, {self.ri(200, 900)} passed", f"Time:        {self.r.random() * 90:.3f} s"]
        elif kind == "mvn":
            cmd = "mvn -q -B test"
            while sum(len(x) + 1 for x in L) < size:
                L.append(f"[INFO] Tests run: {self.ri(1, 60)}, Failures: 0, Errors: 0, Skipped: {self.ri(0, 2)}, Time elapsed: {self.r.random() * 20:.3f} s - in com.{self.co}.{self.ch(['billing', 'payments', 'ledger'])}.{self.ch(['Invoice', 'Charge', 'Refund', 'Webhook'])}{self.ch(['ServiceTest', 'MapperTest', 'IT', 'ControllerTest'])}")
            L += ["[INFO] ", "[INFO] Results:", "[INFO] ", f"[INFO] Tests run: {self.ri(200, 900)}, Failures: 0, Errors: 0, Skipped: {self.ri(0, 9)}", "[INFO] BUILD SUCCESS"]
        else:
            cmd = "pytest -q"
            L = [f"platform linux -- Python 3.11.{self.ri(2, 9)}, pytest-8.{self.ri(0, 3)}.{self.ri(0, 3)}, pluggy-1.5.0",
                 f"plugins: anyio-4.{self.ri(0, 4)}.0, cov-5.0.0, xdist-3.{self.ri(3, 6)}.0", ""]
            while sum(len(x) + 1 for x in L) < size:
                L.append(f"tests/{self.ch(['unit', 'integration'])}/test_{self.ch(['exports', 'retry', 'billing', 'webhooks', 'alerts'])}.py " + "." * self.ri(10, 70) + f" [{self.ri(1, 99):3d}%]")
            L.append(f"{self.ri(100, 900)} passed, {self.ri(0, 9)} skipped, {self.ri(0, 30)} warnings in {self.r.random() * 60:.2f}s")
        return cmd, "\n".join(L)

    # ------------------------------------------------------------ prose
    def findings_prose(self, svc: str) -> str:
        pts = [f"p99 went from ~{self.ri(80, 300)}ms to ~{self.ri(900, 6000)}ms starting around {self.hm(self.t - self.ri(600, 9000))} UTC, which lines up with the {self.ch(JOBS)} run.",
               f"{self.ri(40, 95)}% of the 5xx are 502s from {self.ch(UPSTREAMS)}; the rest are client-side timeouts (499s).",
               f"The DB pool sits at {self.ri(18, 20)}/20 active with up to {self.ri(5, 80)} waiters, so requests queue behind it.",
               f"No restarts in the window and memory is flat at ~{self.ri(200, 900)}Mi, so I don't think it's the pods themselves.",
               f"There are GC pauses up to {self.ri(120, 900)}ms in a few places, not enough to explain the whole thing.",
               "The 409s from the partner are expected (idempotent replays), I'd ignore those.",
               f"Error rate is {self.r.random() * 2:.2f}%, under the burn-rate threshold for the {svc} SLO.",
               f"Most of the slow requests hit {self.ch(HTTP_PATHS)} with large payloads (>{self.ri(1, 20)}MB).",
               f"Consumer lag on {self.ch(TOPICS)} peaked at {self.ri(2, 90)}k and is draining at ~{self.ri(200, 3000)} msg/s.",
               f"It started {self.ri(3, 40)} minutes after the {svc} deploy, but the same pattern shows up yesterday without a deploy."]
        self.r.shuffle(pts)
        k = self.ri(2, 5)
        if self.r.random() < 0.5:
            body = "\n".join("- " + p for p in pts[:k])
        else:
            body = " ".join(pts[:k])
        head = self.ch([f"Looked at the last {self.ch(['hour', '2h', '6h', '24h'])} of {svc} logs.", f"Here's what I see for {svc}:",
                        f"Pulled the {svc} logs.", f"Short version for {svc}:", "OK, so:", f"Checked {svc} on {self.cluster()}."])
        tail = self.ch(["", "", "I'd keep watching it rather than change anything right now.", f"Next place I'd look is the {self.ch(UPSTREAMS)} side.",
                        "Nothing I'd act on tonight.", "Want me to open a ticket for the owning team?",
                        "If it happens again I can grab a heap dump.", "I didn't change anything."])
        return (head + "\n\n" + body + ("\n\n" + tail if tail else "")).strip()

    def ask(self, svc: str) -> str:
        return self.ch([
            f"can you check why {svc} is slow?", f"{svc} p99 looks bad on the dashboard, what's going on?",
            f"{self.ch(CUSTOMERS)} says {self.ch(['exports are timing out', 'webhooks are late', 'the dashboard is slow', 'refunds take ages'])} — can you look at {svc}?",
            f"anything weird in the {svc} logs from the last couple hours?", f"quick sanity check on {svc} please, {self.person()} thinks it's flapping",
            f"is {svc} ok? got a page but it auto-resolved", f"take a look at {svc} errors since {self.hm(self.t - self.ri(1800, 20000))} UTC?",
            f"why is {svc} throwing 5xx again", f"hey, can you dig into {svc}? support got {self.ri(2, 9)} tickets in the last hour"])

    # ------------------------------------------------------------ noise episodes
    def ep_triage(self, ep: Ep, big: bool) -> None:
        svc = self.svc()
        ep.user(self.ask(svc))
        out = self.logs(svc, self.size(4000, 12000) if big else self.ri(800, 2000))
        ep.run(self.ch([None, "Checking the logs.", f"Let me pull the {svc} logs first."]),
               [("search_logs", {"service": svc, "query": self.ch(["level:warn OR level:error", "status>=500", "duration_ms>1000", "*"]),
                                 "since": self.ch(["1h", "2h", "6h"]), "limit": self.ch([200, 500, 1000])}, out)])
        if big and self.r.random() < 0.6:
            up = self.ch(UPSTREAMS)
            ep.run(f"Mostly noise. Narrowing to the {up} calls.", [("search_logs", {"service": svc, "query": f"upstream:{up}", "since": "6h"},
                                                                    self.logs(svc, self.size(3000, 12000)))])
        if self.r.random() < 0.4:
            ep.run(None, [("kubectl", {"args": f"top pods -n {self.ns()} -l app.kubernetes.io/name={svc}", "context": self.cluster()},
                           "NAME" + " " * 40 + "CPU(cores)   MEMORY(bytes)\n" + "\n".join(
                               f"{self.pod(svc):<44}{self.ri(5, 1900)}m{' ' * 8}{self.ri(90, 1900)}Mi" for _ in range(self.ri(2, 8))))])
        ep.say(self.findings_prose(svc))

    def ep_k8s(self, ep: Ep, big: bool) -> None:
        ns, cl = self.ns(), self.cluster()
        ep.user(self.ch([f"what's the state of {ns} on {cl}?", f"can you list the pods in {ns}? something is restarting",
                         f"how does {ns} look on {cl} right now", f"are there crashloops in {ns}?"]))
        ep.run(None, [("kubectl", {"args": f"get pods -n {ns} -o wide", "context": cl}, self.pods_table(ns, self.ri(8, 40) if big else self.ri(3, 10)))])
        for _ in range(self.ri(1, 2) if big else int(self.r.random() < 0.3)):
            svc = self.svc()
            ep.run(f"Describing one of the {svc} pods.", [("kubectl", {"args": f"describe pod -n {ns} -l app.kubernetes.io/name={svc}", "context": cl},
                                                           self.describe_pod(svc, ns, self.size(3500, 11000)))])
        ep.say(self.ch([f"{ns} looks mostly healthy. {self.ri(1, 3)} pod(s) have a handful of restarts, all from readiness probe timeouts during the last deploy, not crashes.",
                        f"Nothing crashlooping right now. The restarts you saw are from {self.hm(self.t - self.ri(3600, 30000))} UTC when the node pool rotated.",
                        f"One pod is stuck in Pending on {cl} — insufficient memory on the pool. Everything else is Running and Ready.",
                        f"All pods Running. Restart counts are low; the highest is {self.ri(2, 9)} and those were OOM-free probe failures."]))

    def ep_tfplan(self, ep: Ep, big: bool) -> None:
        mod = self.ch(["vpc", "rds", "redis", "eks", "alb", "iam", "s3-exports", "cloudfront", "alarms"])
        env = self.ch(["staging", "prod", "prod-eu", "sandbox"])
        ep.user(self.ch([f"run a plan for {mod} in {env}, don't apply", f"what would terraform change in {env}/{mod}?",
                         f"can you plan {mod} ({env}) and tell me if anything scary shows up?", f"tf plan for {mod} please"]))
        out = self.tf_plan(mod, self.size(5000, 12000) if big else self.ri(1200, 2500))
        ep.run(None, [("shell", {"command": f"cd ~/infra/envs/{env} && terraform plan -no-color -target=module.{mod}", "timeout": 600}, out)])
        last = out.rsplit("Plan: ", 1)[-1].split("\n")[0]
        ep.say(self.ch([f"Plan: {last} Nothing destroys state-bearing resources; the replacements are target groups / rules, which is fine.",
                        f"It's {last} Mostly drift from the console edits {self.person()} made last week. I did not apply.",
                        f"{last} The in-place updates are alarm thresholds and ASG sizes. I'd be comfortable applying this in a quiet window."]))

    def ep_config(self, ep: Ep, big: bool) -> None:
        svc = self.svc()
        path, content = self.config_dump(svc, self.size(4000, 11000) if big else self.ri(600, 1500))
        ep.user(self.ch([f"what timeouts do we have configured for {svc}?", f"can you show me the config {svc} is running with?",
                         f"check the {svc} config for anything odd", f"what's in the {svc} config on the box?"]))
        ep.run(None, [("read_file", {"path": path}, content)])
        ep.say(self.ch([f"From `{path}`: nothing unusual. Timeouts are in line with the other services, pool sizes look a little high but they've been like that for months.",
                        "The config is the ansible-managed one (header says local edits get overwritten). I don't see anything that would explain the symptoms.",
                        "Here are the relevant bits: the read timeout is the default and retries are capped. If you want I can compare with staging."]))

    def ep_ansible(self, ep: Ep, big: bool) -> None:
        play = self.ch(["site.yml", "nginx.yml", "postgres.yml", "node_exporter.yml", "baseline.yml"])
        inv = self.ch(["staging", "prod", "prod-eu"])
        ep.user(self.ch([f"run {play} against {inv} with --check", f"can you do a dry run of {play} on {inv}?", f"apply {play} to {inv}, it's just the logrotate change"]))
        ep.run(None, [("shell", {"command": f"cd ~/infra/ansible && ansible-playbook -i inventory/{inv}.ini {play} --check --diff", "timeout": 900},
                       self.ansible_run(play, self.size(4000, 12000) if big else self.ri(700, 1600)))])
        ep.say(self.ch(["Dry run is clean: no failures, the changes are the logrotate policy and a sysctl template on all hosts.",
                        f"All hosts ok. {self.ri(1, 9)} changed tasks, all expected.", "Check mode passed. Want me to run it for real?"]))

    def ep_ticket(self, ep: Ep, big: bool) -> None:
        cust = self.ch(CUSTOMERS)
        tk = self.ticket(cust, self.size(3000, 9000) if big else self.ri(700, 1400))
        intro = self.ch([f"customer escalation from {cust}, can you see if this is on our side?\n\n",
                         "pasting the ticket, support wants a second opinion:\n\n", f"ugh, {cust} again.\n\n```\n",
                         "can you draft a reply for this one? facts first, keep it short\n\n"])
        text = intro + tk + ("\n```" if intro.endswith("```\n") else "")
        ep.user(text, [tk])
        svc = self.svc()
        if self.r.random() < 0.6:
            ep.run("Checking the status page and recent errors first.",
                   [("http_get", {"url": f"https://status.{self.co}.io/api/v2/incidents.json"},
                     json.dumps({"incidents": [{"id": self.an(12).lower(), "name": f"Elevated errors on {self.svc()}", "status": "resolved",
                                                "resolved_at": self.iso(self.t - self.ri(3600, 900000))}]}, indent=1)),
                    ("search_logs", {"service": svc, "query": f"customer:\"{cust}\" status>=500", "since": "24h"}, self.logs(svc, self.size(3000, 10000) if big else self.ri(600, 2000)))])
        ep.say(self.ch([
            f"Draft reply:\n\n> Hi, thanks for the detail and the request ids. We found elevated error rates on our side between "
            f"{self.hm(self.t - 9000)} and {self.hm(self.t - 6000)} UTC that match your samples. They were caused by a dependency timing out and "
            f"have been mitigated. Requests that failed with 502 can be safely retried now. We'll follow up with a summary.\n\n"
            f"Internally: I'd link it to the existing incident rather than open a new one.",
            f"Looked into it. The requests they quote did hit us and {self.ri(2, 9)} of them returned 502 from {svc}. That matches the "
            f"blip from this morning, not a new problem. I'd answer with the incident summary and offer to replay the failed events.",
            "Their symptoms don't match anything on our side — no 5xx for their account id in the window, and the webhooks show "
            "as delivered with 200s from their endpoint. I'd ask them for their receiver logs."]))

    def ep_paste(self, ep: Ep, big: bool) -> None:
        kind = self.ch(["logs", "stack", "json", "slack", "handoff"])
        sz = self.size(3000, 12000) if big else self.ri(500, 1400)
        svc = self.svc()
        if kind == "logs":
            blob = self.logs(svc, sz)
            intro = self.ch([f"seeing this in {svc}, anything obvious?", f"{self.person()} sent me this from {svc}:", "what do you make of this"])
        elif kind == "stack":
            blob = "\n\n".join(self.stack() for _ in range(max(1, sz // 1500)))
            intro = self.ch([f"{svc} is throwing this on every {self.ch(['export', 'refund', 'login', 'webhook'])}:", "stack trace from sentry:", "got this in the pod logs"])
        elif kind == "json":
            blob = self.json_blob(sz)
            intro = self.ch(["this is what the deploy API returns, why are so many failed?", "output of the jobs endpoint:", "can you summarise this?"])
        elif kind == "slack":
            blob = self.slack_thread(sz)
            intro = self.ch(["context from the incident channel:", "fyi this is what happened while you were on the other thing:", "pasting the thread"])
        else:
            blob = self.handoff(sz)
            intro = self.ch(["handoff notes from last night:", "this is the on-call handoff, anything I should act on?", "from the previous shift:"])
        fence = self.r.random() < 0.5
        text = intro + ("\n```\n" + blob + "\n```" if fence else "\n\n" + blob)
        ep.user(text, [blob])
        ep.say(self.ch([self.findings_prose(svc), "Nothing alarming in there. The errors are the known upstream timeouts; the rest is normal chatter.",
                        f"Two things stand out: the retries cluster around {self.hm(self.t - 4000)} UTC, and every failure goes through the same upstream. "
                        "I'd check that dependency first.", "Summary: mostly transient failures, no single root cause visible in this excerpt."]))

    def ep_short(self, ep: Ep, big: bool) -> None:
        u, a = self.ch([
            ("ok thanks", "👍"), ("go ahead", "Done."), ("what's the status?", f"Still watching {self.svc()}; error rate is back to baseline."),
            ("any update?", "Nothing new since the last check, graphs are flat."), ("nice", "🙂"), ("sounds good", "OK."),
            ("hm ok", "Let me know if you want me to dig further."), ("ty!", "np"), ("ok leave it for now", "Leaving it as is."),
            (f"did the {self.ch(JOBS)} job finish?", f"Yes, it finished at {self.hm()} UTC with no failures."),
            ("brb, coffee", "👍"), ("let's move on", "Sure — what's next?"), ("can you keep an eye on it?", "Will do, I'll flag anything odd."),
            (f"who owns {self.svc()}?", f"The {self.ch(['payments', 'platform', 'growth', 'core'])} team, per the service catalog."),
            ("what time is it in UTC", f"{self.hm()} UTC."), ("perfect", "👍"), ("k", "ok"),
            (f"is {self.cluster()} on 1.28 yet?", f"Yes, control plane and nodes are on 1.28.{self.ri(3, 9)}."),
            ("remind me what the checkout SLO is?", "99.9% of requests under 800ms over 28 days."),
            ("did anyone reply on the ticket?", "Not yet, last activity was the customer's message."),
        ])
        ep.user(u)
        ep.say(a)

    def ep_todo(self, ep: Ep, big: bool) -> None:
        steps = [self.ch([f"check {self.svc()} error rate", f"reply on SUP-{self.ri(10000, 99999)}", f"plan {self.ch(['vpc', 'rds', 'alb'])} drift",
                          f"clean up old {self.ch(['snapshots', 'AMIs', 'log groups'])}", "update incident timeline", f"rotate {self.svc()} API key",
                          "review alert thresholds"]) for _ in range(self.ri(3, 6))]
        ep.user(self.ch(["what's left on the list?", "can you update the todo list?", "where are we with everything?", "todo?"]))
        plan = [{"step": s, "status": self.ch(["done", "in_progress", "pending", "pending"])} for s in steps]
        ep.run(None, [("update_plan", {"steps": plan}, "Plan updated.")])
        ep.say("Current list:\n" + "\n".join(f"- [{'x' if p['status'] == 'done' else ' '}] {p['step']}" for p in plan))

    def ep_http(self, ep: Ep, big: bool) -> None:
        svc = self.svc()
        url = f"https://{svc}.{self.ch(['internal', 'svc'])}.{self.co}.io/{self.ch(['healthz', 'readyz', 'version', 'debug/vars'])}"
        body = json.dumps({"status": self.ch(["ok", "ok", "degraded"]), "version": f"{self.ri(0, 2)}.{self.ri(0, 40)}.{self.ri(0, 20)}",
                           "commit": self.hx(12), "uptime_s": self.ri(60, 9000000),
                           "checks": {u: {"status": self.ch(["ok", "ok", "slow"]), "latency_ms": self.ri(1, 900)} for u in self.r.sample(UPSTREAMS, self.ri(2, 6))}},
                          indent=2)
        ep.user(self.ch([f"is {svc} healthy?", f"what version of {svc} is deployed?", f"hit the health endpoint of {svc}"]))
        ep.run(None, [("http_get", {"url": url}, "HTTP/1.1 200 OK\ncontent-type: application/json\n\n" + body)])
        ep.say(f"{svc} reports {json.loads(body)['status']}, version {json.loads(body)['version']}.")

    def ep_edit(self, ep: Ep, big: bool) -> None:
        path = self.ch(NOISE_FILES)
        a, b = self.ri(2, 40), self.ri(2, 40)
        key = self.ch(["replicaCount", "timeout_seconds", "max_retries", "retention_days", "threshold"])
        ep.user(self.ch([f"bump {key} in {path} from {a} to {b}", f"can you change the {key} to {b}? it's in {path}",
                         f"small one: {path}, set {key} to {b}"]))
        content = f"# {path}\n" + "\n".join(f"{self.ch(['name', 'enabled', 'image', 'labels', 'interval', 'owner'])}: {self.ch(['true', 'false', '30s', self.svc(), self.person().lower()])}" for _ in range(self.ri(5, 30))) + f"\n{key}: {a}\n"
        ep.run(None, [("read_file", {"path": path}, content)])
        ep.run(None, [("edit_file", {"path": path, "old_string": f"{key}: {a}", "new_string": f"{key}: {b}"}, f"Edited {path} (1 replacement)")])
        if self.r.random() < 0.5:
            ep.run(None, [("shell", {"command": "git diff --stat && git diff"}, f" {path} | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\n"
                                    f"diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n@@ -{self.ri(2, 30)},3 +{self.ri(2, 30)},3 @@\n-{key}: {a}\n+{key}: {b}")])
        ep.say(self.ch([f"Changed {key} to {b}. Not committed yet.", f"Done, {key}: {a} → {b}.", "Updated. Want me to open a PR?"]))

    def ep_tests(self, ep: Ep, big: bool) -> None:
        cmd, out = self.test_pass(self.size(3000, 9000) if big else self.ri(500, 1200))
        ep.user(self.ch(["run the tests before we ship", "can you run the test suite?", "tests green?", f"run the tests for {self.svc()}"]))
        ep.run(None, [("shell", {"command": cmd, "cwd": f"~/src/{self.svc()}"}, out)])
        ep.say(self.ch(["All green.", "Tests pass; a few skipped ones need docker, same as in CI.", "Everything passes."]))

    def ep_metrics(self, ep: Ep, big: bool) -> None:
        svc = self.svc()
        q = f'histogram_quantile(0.99, sum(rate(http_request_duration_seconds_bucket{{service="{svc}"}}[5m])) by (le))'
        vals = [[int(self.t - i * 300), f"{self.r.random() * 2:.3f}"] for i in range(self.ri(6, 40))]
        ep.user(self.ch([f"what's the p99 for {svc} over the last few hours?", f"grab the latency graph numbers for {svc}", f"is {svc} latency trending up?"]))
        ep.run(None, [("http_get", {"url": f"http://prometheus.monitoring:9090/api/v1/query_range?query={q}&step=300"},
                       json.dumps({"status": "success", "data": {"resultType": "matrix", "result": [{"metric": {}, "values": vals}]}}))])
        ep.say(f"p99 ranged {min(float(v[1]) for v in vals):.2f}s–{max(float(v[1]) for v in vals):.2f}s; no clear trend.")

    def ep_git(self, ep: Ep, big: bool) -> None:
        repo = self.ch(["infra", "platform", "ops", "helm-charts"])
        L = []
        for _ in range(self.ri(8, 40) if big else self.ri(3, 8)):
            L += [f"commit {self.hx(40)}", f"Author: {self.person()} {self.ch(SURNAMES)} <{self.person().lower()}@{self.co}.io>",
                  f"Date:   {time.strftime('%a %b %d %H:%M:%S %Y +0000', time.gmtime(self.t - self.ri(3600, 2000000)))}", "",
                  f"    {self.ch(['bump', 'fix', 'revert', 'chore:', 'feat:'])} {self.ch(['alert thresholds', 'helm chart versions', 'nginx timeouts', 'node pool AMI', 'dashboards', 'log retention'])}"
                  f" ({self.ch(['#', 'PR #'])}{self.ri(100, 4000)})", ""]
        ep.user(self.ch([f"what changed in {repo} recently?", f"git log on {repo}?", f"who touched {repo} this week"]))
        ep.run(None, [("shell", {"command": "git log -n 40", "cwd": f"~/src/{repo}"}, "\n".join(L))])
        ep.say("Mostly routine changes; nothing that touches the services we're looking at.")

    def ep_runbook_noise(self, ep: Ep, big: bool) -> None:
        title = self.ch(["Kafka consumer lag", "Disk pressure on worker nodes", "Redis failover", "Certificate renewal", "Webhook backlog"])
        doc, _ = self.runbook(title, self.size(5000, 18000))
        intro = self.ch([f"here's the current runbook for {title.lower()}, is it still accurate?\n\n",
                         f"{self.person()} asked me to sanity-check this doc:\n\n", "can you summarise this runbook in 5 bullets?\n\n"])
        ep.user(intro + doc, [doc])
        ep.say(self.ch(["It mostly matches how things work today. Two things are stale: the dashboard links and the scale-down command uses the old deployment name.",
                        "Summary:\n- check pods and dashboards\n- snapshot before touching data\n- run the promotion script with --dry-run first\n- scale consumers back up\n- update CMDB and status page",
                        "Reads fine. I'd add the new bastion hostname and drop the section about the legacy one."]))

    def ep_flaky(self, ep: Ep, big: bool) -> None:
        svc = self.svc()
        ep.user(self.ch([f"restart the {svc} rollout on {self.cluster()}, it's stuck", f"roll {svc} please, config changed"]))
        ctx = self.cluster()
        ep.run(None, [("kubectl", {"args": f"rollout restart deploy/{svc} -n {self.ns()}", "context": ctx},
                       "Unable to connect to the server: net/http: TLS handshake timeout")])
        ep.run("Transient API server timeout, retrying once.", [("kubectl", {"args": f"rollout restart deploy/{svc} -n {self.ns()}", "context": ctx},
                                                                  f"deployment.apps/{svc} restarted")])
        ep.run(None, [("kubectl", {"args": f"rollout status deploy/{svc} -n {self.ns()} --timeout=5m", "context": ctx},
                       "\n".join(f"Waiting for deployment \"{svc}\" rollout to finish: {i} of {self.ri(3, 12)} updated replicas are available..." for i in range(1, self.ri(3, 9))) + f"\ndeployment \"{svc}\" successfully rolled out")])
        ep.say("Rolled out. The first attempt hit an API server timeout, the retry went through.")

    NOISE = (("triage", 1), ("k8s", 1), ("tfplan", 1), ("config", 1), ("ansible", 1), ("ticket", 1), ("paste", 1),
             ("short", 0), ("todo", 0), ("http", 0), ("edit", 0), ("tests", 1), ("metrics", 0), ("git", 0),
             ("runbook_noise", 1), ("flaky", 0))

    # ================================================================ facts
    # Each ``f_<kind>_<name>`` draws a value now and returns a Spec whose renderers write the
    # episode later. Values are reserved with ``uniq`` so noise never contains them.

    # ------------------------------------------------------------ instructions
    def f_ins_never_restart(self) -> Spec:
        v = self.uniq(lambda: f"never restart {self.fdb()} during business hours")

        def render(ep: Ep) -> None:
            ep.user(self.ch([f"one thing before you go further: {v}. it holds the advisory lock for the batch jobs and a failover takes ~20 min.",
                             f"please {v} — last time the replicas took half a day to catch up and support got hammered.",
                             f"Also, and I really mean this one: {v}. Evenings are fine."]))
            ep.say(self.ch(["Understood. If it ever needs a restart during the day I'll ask you first.", "Got it, I'll leave it alone during working hours.",
                            "Noted — no restarts of that one while people are working."]))
        return Spec("instruction", v, "which database pod must not be restarted while people are at work", render)

    def f_ins_state_bucket(self) -> Spec:
        proj = self.fsvc()
        v = self.uniq(lambda: f"we tend to keep the terraform state for {proj}{self.ch(['', ' stuff', ' stacks'])} in the {self.ch(['eu', 'us', 'apac', 'shared-services', 'audit'])} bucket")

        def render(ep: Ep) -> None:
            ep.user(self.ch([f"btw {v}, fyi. the other one is read-only since the migration.", f"{v}, fyi — in case you set up a new backend.",
                             f"oh, {v}. just so you don't go hunting for it"]))
            ep.say(self.ch(["Good to know, thanks.", "OK, I'll point any new backend config there.", "👍"]))
        return Spec("instruction", v, f"where the terraform state for the {proj} stack is kept", render)

    def f_ins_rather_not(self) -> Spec:
        v = self.uniq(lambda: f"don't touch {self.fcluster()} without pinging me")

        def render(ep: Ep) -> None:
            ep.user(self.ch([f"I'd rather you {v} first — {self.ch(['half the batch jobs live there', 'the autoscaler config is fragile', 'we have a customer demo on it this week'])}.",
                             f"and honestly, {v}. {self.person()} gets nervous about that one.",
                             f"fwiw I'd rather you {v}, even for read-only stuff that needs exec"]))
            ep.say(self.ch(["Sure, I'll check with you before anything there.", "Will do.", "OK — I'll ask first."]))
        return Spec("instruction", v, "what to do before making any change on a particular cluster", render)

    def f_ins_freeze(self) -> Spec:
        d = lambda: self.ch(["3rd", "7th", "9th", "12th", "14th", "16th", "21st", "23rd", "28th", "30th"])
        v = self.uniq(lambda: f"change freeze on the {self.fcluster()} cluster until the {d()}")

        def render(ep: Ep) -> None:
            ep.user(self.ch([f"heads up: {v}. {self.ch(['finance is closing the quarter', 'audit window', 'the big customer migration is running'])}.",
                             f"fyi there's a {v}, so anything there waits.", f"heads up, {v} — only break-glass changes."]))
            ep.say(self.ch(["Noted, I'll hold anything for that cluster.", "OK, nothing goes there until then.", "Got it."]))
        return Spec("instruction", v, "a cluster that is under a change freeze, and until when", render)

    def _second_para(self, ep: Ep, para2: str) -> None:
        svc = self.svc()
        para1 = self.ch([
            f"can you pull the last day of 5xx for {svc} and see whether it's the same spike as Tuesday? {self.person()} thinks it's the CDN again but I'm "
            f"not convinced, the timing lines up with the {self.ch(JOBS)} cron.",
            f"{self.ch(CUSTOMERS)} is asking why their {self.ch(['exports', 'webhooks', 'invoices'])} were late this morning. can you check {svc} around "
            f"{self.hm(self.t - 20000)} UTC and give me something I can paste into the ticket?",
            f"I'm picking up the {svc} latency thing from {self.person()}. Can you check the logs and tell me if it's still happening? They said it "
            f"mostly hit the EU tenants."])
        ep.user(para1 + "\n\n" + para2)
        ep.run(None, [("search_logs", {"service": svc, "query": "status>=500 OR duration_ms>2000", "since": "24h"}, self.logs(svc, self.size(1500, 6000)))])
        ep.say(self.findings_prose(svc))

    def f_ins_window(self) -> Spec:
        v = self.uniq(lambda: f"{self.fsvc()} deploys only go out after the {self.ri(1, 23):02d}:00 UTC batch window closes")
        svc = v.split(" ")[0]
        return Spec("instruction", v, f"when deploys of {svc} are allowed to go out",
                    lambda ep: self._second_para(ep, self.ch([f"Also, {v}, that's how we've always run it.", f"Separately — {v}. Just so it's on your radar.",
                                                              f"(Context for later: {v}.)"])))

    def f_ins_hpa(self) -> Spec:
        v = self.uniq(lambda: f"the {self.fsvc()} HPA stays pinned at min {self.ri(3, 24)} replicas while the migration runs")
        return Spec("instruction", v, "the minimum replica count a service keeps during the migration",
                    lambda ep: self._second_para(ep, self.ch([f"For context, {v}.", f"Unrelated: {v}, so if you see it at that floor that's why.",
                                                              f"Also {v} — {self.person()} asked for it."])))

    def f_ins_review(self) -> Spec:
        p = self.person()
        v = self.uniq(lambda: f"anything that touches {self.fdb()} goes through {p} for review first")
        return Spec("instruction", v, "who must review changes to a particular database", lambda ep: self._second_para(
            ep, self.ch([f"Oh and {v}, they're the only one who knows the replication setup.", f"On another note, {v}.",
                         f"Side note: {v}; that came out of the last postmortem."])))

    def f_ins_fr_restart(self) -> Spec:
        v = self.uniq(lambda: f"ne jamais redémarrer le pod {self.fdb()} en journée")

        def render(ep: Ep) -> None:
            ep.user(self.ch([f"Merci de {v}, ça casse les sessions des clients.", f"Petit rappel : merci de {v}. Le soir, pas de souci.",
                             f"ah et merci de {v} stp"]))
            ep.say(self.ch(["Compris, je ne le redémarre pas pendant la journée.", "Noted — no daytime restarts for that pod.", "D'accord."]))
        return Spec("instruction", v, "restriction on restarting a particular pod during the day (said in French)", render)

    def f_ins_fr_root(self) -> Spec:
        v = self.uniq(lambda: f"n'utilise pas le compte root sur {self.fdb()}.{self.co}.internal")

        def render(ep: Ep) -> None:
            ep.user(self.ch([f"Et s'il te plaît, {v} — passe par le compte ops.", f"Au fait : {v}, l'audit le remonte à chaque fois."]))
            ep.say(self.ch(["Compris, je passerai par le compte ops.", "OK, no root there."]))
        return Spec("instruction", v, "which account must not be used on a particular host (said in French)", render)

    def f_ins_de_cluster(self) -> Spec:
        v = self.uniq(lambda: f"keine Änderungen am Cluster {self.fcluster()} vor {self.ri(6, 22)}:00 Uhr")

        def render(ep: Ep) -> None:
            ep.user(self.ch([f"Bitte {v}, da laufen noch die Abrechnungsjobs.", f"kurz noch: bitte {v}. Danke!"]))
            ep.say(self.ch(["Verstanden, ich warte bis dahin.", "Got it — nothing on that cluster before then."]))
        return Spec("instruction", v, "the time of day before which a cluster must not be changed (said in German)", render)

    def f_ins_de_logs(self) -> Spec:
        v = self.uniq(lambda: f"Logs von {self.fsvc()} nicht länger als {self.ri(3, 60)} Tage aufbewahren")

        def render(ep: Ep) -> None:
            ep.user(self.ch([f"Kurzer Hinweis: bitte die {v}, wegen Datenschutz.", f"Und bitte: {v} — das hat der DSB so festgelegt."]))
            ep.say(self.ch(["Verstanden.", "OK, I'll keep the retention under that."]))
        return Spec("instruction", v, "the maximum log retention for a service (said in German)", render)

    def f_ins_es_rollback(self) -> Spec:
        v = self.uniq(lambda: f"no hagas rollback de {self.fsvc()} sin avisar antes en #{self.ch(['pagos', 'ops-pagos', 'releases', 'plataforma'])}-{self.ri(2, 99)}")

        def render(ep: Ep) -> None:
            ep.user(self.ch([f"Otra cosa: por favor {v}, que el equipo de {self.ch(['pagos', 'finanzas', 'soporte'])} se vuelve loco.",
                             f"ah, y {v}. gracias!"]))
            ep.say(self.ch(["Entendido, aviso antes de cualquier rollback.", "Got it."]))
        return Spec("instruction", v, "who must be told before a service is rolled back (said in Spanish)", render)

    def f_ins_es_alerts(self) -> Spec:
        v = self.uniq(lambda: f"las alertas de {self.fsvc()} van al canal #{self.ch(['alertas', 'oncall', 'ops'])}-{self.ri(2, 99)}, no a mi móvil")

        def render(ep: Ep) -> None:
            ep.user(self.ch([f"Y una cosa más: {v}.", f"por cierto, {v}, que me despiertan a las 3am"]))
            ep.say(self.ch(["Entendido, cambio el routing.", "OK, noted."]))
        return Spec("instruction", v, "where alerts for a particular service should be routed (said in Spanish)", render)

    def f_ins_runbook(self) -> Spec:
        kind = self.ri(0, 4)

        def mk() -> str:
            if kind == 0:
                return f"Before failing over {self.fdb()}, page the database on-call (@{self.person().lower()}-dba) and wait for an acknowledgement."
            if kind == 1:
                h = self.ri(0, 20)
                return f"Do not run VACUUM FULL on {self.ch(['ledger_entries', 'payouts', 'audit_log', 'invoice_lines'])}_{self.ri(2, 99)} outside the Sunday {h:02d}:00-{h + 3:02d}:00 UTC window."
            if kind == 2:
                return f"Never scale {self.fsvc()} below {self.ri(3, 20)} replicas while the {self.ch(TOPICS)} backlog is above {self.ri(10, 90)}k messages."
            if kind == 3:
                return f"Every rotation of the {self.fsvc()} signing key must be announced in #{self.ch(['sec', 'platform', 'payments'])}-{self.ri(2, 99)} at least {self.ri(2, 72)} hours ahead."
            return f"Reindexing the {self.fsvc()}-v{self.ri(2, 9)} index is only allowed on the {self.fcluster()} cluster, never on the primary."
        v = self.uniq(mk)
        title = self.ch(["Database failover", "Queue backlog recovery", "Key rotation", "Search reindex", "Quarterly maintenance"])

        def render(ep: Ep) -> None:
            doc, rule_line = self.runbook(title, self.size(4000, 20000), rule=v)
            intro = self.ch([f"here's the runbook {self.person()} wrote for {title.lower()}, can you go through it and tell me if the steps are still accurate?\n\n",
                             f"pasting the {title.lower()} runbook, we'll be following it this week:\n\n```\n",
                             f"for context, this is our {title.lower()} doc:\n\n"])
            text = intro + doc + ("\n```" if intro.endswith("```\n") else "")
            i = doc.index(rule_line)
            before, after = doc[:i], doc[i + len(rule_line):]
            ep.user(text, [s for s in (before, after) if s.strip()])
            ep.say(self.ch(["Read through it. The procedure matches what we have today, except the scale command uses an old deployment name and the "
                            "dashboard links in section 3 point to the previous Grafana.",
                            "Steps look right. I'd add a check that the snapshot is `available` before step 4 and update the contacts table.",
                            "It's accurate as far as I can verify from the repo. One nit: the promotion script now requires `--cluster`."]))
        return Spec("instruction", v, "the rule stated in the pasted runbook about " + {0: "failing over a database", 1: "when a heavy vacuum is allowed",
                                                                                      2: "how far a service may be scaled down", 3: "announcing key rotations",
                                                                                      4: "where reindexing is allowed"}[kind], render)

    def f_ins_tf_runner(self) -> Spec:
        v = self.uniq(lambda: f"every terraform apply on {self.ch(['prod', 'prod-eu', 'shared', 'billing'])}-{self.fsvc()} goes through the {self.ch(['atlantis', 'spacelift', 'ci'])} runner")

        def render(ep: Ep) -> None:
            ep.user(self.ch([f"going forward let's make sure {v}, not laptops. the audit trail matters for SOC2.", f"would be good if {v} from now on."]))
            ep.say(self.ch(["Makes sense, I'll stop running applies locally for that one.", "OK."]))
        return Spec("instruction", v, "how terraform applies on a particular workspace have to be run", render)

    def f_ins_cc(self) -> Spec:
        cust = self.ch(CUSTOMERS)
        v = self.uniq(lambda: f"cc {self.person().lower()}.{self.ch(SURNAMES).lower()}@{self.co}.io on anything for {cust}")

        def render(ep: Ep) -> None:
            ep.user(self.ch([f"small thing for the support side: {v}, they're the TAM and hate hearing it from the customer first.",
                             f"when you draft replies: {v}."]))
            ep.say("Will do.")
        return Spec("instruction", v, f"who to copy on communication about {cust}", render)

    def f_ins_weekend(self) -> Spec:
        v = self.uniq(lambda: f"keep {self.fsvc()} at {self.ri(3, 30)} replicas minimum over the weekend")

        def render(ep: Ep) -> None:
            ep.user(self.ch([f"fwiw {v}. saturday traffic is spiky for them.", f"{v}, the HPA reacts too slowly to the saturday batch"]))
            ep.say(self.ch(["OK, I'll make sure the floor is there before Friday evening.", "Noted."]))
        return Spec("instruction", v, "the weekend minimum replica count for a service", render)

    def f_ins_gitops(self) -> Spec:
        v = self.uniq(lambda: f"we don't do kubectl edit on {self.ch(NAMESPACES)} in {self.fcluster()}")

        def render(ep: Ep) -> None:
            ep.user(self.ch([f"just so you know, {v}, everything goes through the gitops repo.", f"btw {v} — argo will revert it anyway."]))
            ep.say(self.ch(["Got it, changes there go through a PR.", "OK."]))
        return Spec("instruction", v, "how changes to a namespace on a particular cluster have to be made", render)

    INS_GROUPS = {"second": ["window", "hpa", "review"], "foreign": ["fr_restart", "de_cluster", "es_rollback", "fr_root", "de_logs", "es_alerts"],
                  "runbook": ["runbook"], "direct": ["never_restart"], "casual": ["state_bucket", "weekend", "gitops"],
                  "preference": ["rather_not", "tf_runner"], "headsup": ["freeze", "cc"]}

    def instruction_specs(self, count: int) -> list[Spec]:
        groups = {k: self.r.sample(v, len(v)) for k, v in self.INS_GROUPS.items()}
        rest = ["direct", "casual", "preference", "headsup", "foreign", "runbook", "second"]
        self.r.shuffle(rest)
        order = ["second", "foreign", "runbook"] + rest
        used = {k: 0 for k in groups}
        out = []
        for i in range(count):
            g = order[i % len(order)]
            name = groups[g][used[g] % len(groups[g])]
            used[g] += 1
            out.append(self.redraw(getattr(self, "f_ins_" + name)))
        return out

    # ------------------------------------------------------------ corrections
    def correction_specs(self, count: int) -> list[Spec]:
        types = ["bucket", "cluster", "ip", "ticket", "node", "version", "account", "path", "window", "zendesk", "database"]
        self.r.shuffle(types)
        return [self.redraw(lambda i=i: self.f_correction(types[i % len(types)], i)) for i in range(count)]

    def f_correction(self, typ: str, i: int) -> Spec:
        svc = self.fsvc()
        if typ == "bucket":
            a, b = self.r.sample(REGIONS, 2)
            base = f"s3://{self.co}-{svc}-tfstate-{self.ri(2, 99)}"
            stale, new = self.uniq(lambda: f"{base}-{a}"), self.uniq(lambda: f"{base}-{b}")
            noun, q = "bucket", f"the S3 bucket that holds the terraform state for {svc}"
            says = [f"for the {svc} stack the state lives in {stale}, the backend block should already point there. can you check the lock table too?",
                    f"state bucket for {svc} is {stale} if you need it"]
            use = ("shell", lambda val: {"command": f"aws s3 ls {val}/ --recursive | tail -5"},
                   lambda val: "\n".join(f"{self.day()} {self.hm(self.t - self.ri(60, 90000))}:{self.ri(10, 59)}   {self.ri(2000, 90000):>8} {svc}/{self.ch(['prod', 'staging'])}/terraform.tfstate" for _ in range(self.ri(2, 5))))
        elif typ == "cluster":
            stale, new = self.uniq(self.fcluster), self.uniq(self.fcluster)
            noun, q = "cluster", f"the cluster the {svc} migration targets"
            says = [f"we're moving {svc} to {stale} this week, can you check the namespace quota there?", f"target for the {svc} move is {stale}"]
            use = ("kubectl", lambda val: {"args": f"describe resourcequota -n {svc}", "context": val},
                   lambda val: f"Name:            {svc}-quota\nNamespace:       {svc}\nResource         Used   Hard\n--------         ----   ----\nlimits.cpu       {self.ri(4, 40)}     {self.ri(40, 80)}\nlimits.memory    {self.ri(8, 60)}Gi   {self.ri(60, 200)}Gi\npods             {self.ri(10, 60)}     {self.ri(60, 200)}")
        elif typ == "ip":
            mk = lambda: f"172.{self.ri(16, 31)}.{self.ri(0, 255)}.{self.ri(11, 254)}"
            stale, new = self.uniq(mk), self.uniq(mk)
            role = self.ch(["jump", "reporting replica", "SFTP", "license server", "NFS"])
            noun, q = "IP", f"the address of the {role} host"
            says = [f"the {role} box is {stale}, ssh in via the bastion and check disk usage", f"{role} host is at {stale}"]
            use = ("shell", lambda val: {"command": f"ssh -J bastion ops@{val} 'df -h /'"},
                   lambda val: f"Filesystem      Size  Used Avail Use% Mounted on\n/dev/nvme0n1p1  {self.ri(50, 500)}G  {self.ri(20, 90)}G  {self.ri(5, 300)}G  {self.ri(10, 95)}% /")
        elif typ == "ticket":
            mk = lambda: f"OPS-{self.ri(4000, 9999)}"
            stale, new = self.uniq(mk), self.uniq(mk)
            topic = self.ch(["cert rotation", "node pool upgrade", "log retention", "DNS cleanup", "backup audit"])
            noun, q = "ticket", f"the ticket that tracks the {topic} work"
            says = [f"track the {topic} work under {stale} please", f"{topic} is {stale} in jira, put updates there"]
            use = None
        elif typ == "node":
            mk = lambda: f"ip-172-{self.ri(16, 31)}-{self.ri(0, 255)}-{self.ri(11, 254)}.ec2.internal"
            stale, new = self.uniq(mk), self.uniq(mk)
            ng = self.ch(["memory-pool", "general-b", "spot-c", "batch"])
            noun, q = "node", f"the misbehaving node in the {ng} group"
            says = [f"the node acting up in {ng} is {stale}, can you look at kubelet on it?", f"bad node in {ng}: {stale}"]
            use = ("kubectl", lambda val: {"args": f"describe node {val}"},
                   lambda val: f"Name:               {val}\nRoles:              <none>\nConditions:\n  MemoryPressure   False\n  DiskPressure     {self.ch(['False', 'True'])}\n  PIDPressure      False\n  Ready            True\nAllocatable:\n  cpu:     {self.ri(2, 16) * 1000 - 90}m\n  memory:  {self.ri(8, 64)}Gi")
        elif typ == "version":
            mk = lambda: f"v{self.ri(3, 9)}.{self.ri(40, 99)}.{self.ri(0, 19)}"
            stale, new = self.uniq(mk), self.uniq(mk)
            noun, q = "version", f"the version of {svc} running in prod"
            says = [f"prod is on {stale} for {svc} right now, staging is ahead", f"{svc} prod = {stale}"]
            use = None
        elif typ == "account":
            mk = lambda: str(self.ri(10 ** 11, 10 ** 12 - 1))
            stale, new = self.uniq(mk), self.uniq(mk)
            env = self.ch(["prod", "staging", "sandbox", "security"])
            noun, q = "account id", f"the AWS account for the {env} {svc} resources"
            says = [f"the {env} {svc} stuff is in account {stale}", f"{svc} {env} lives in AWS account {stale}, assume the ops role there"]
            use = ("shell", lambda val: {"command": f"aws sts assume-role --role-arn arn:aws:iam::{val}:role/ops --role-session-name harbor"},
                   lambda val: "{\n  \"Credentials\": {\n    \"AccessKeyId\": \"ASIA" + self.an(16, UPPER) + "\",\n    \"Expiration\": \"" + self.iso(self.t + 3600) + "\"\n  }\n}")
        elif typ == "path":
            fn = self.ch(["settings.toml", "app.env", "config.yaml", "logging.ini"])
            stale = self.uniq(lambda: f"/etc/{svc}/{self.ri(2, 9)}/{fn}")
            new = self.uniq(lambda: f"/opt/{svc}/{self.ch(['conf', 'shared/config', 'current/etc'])}/{fn}")
            noun, q = "path", f"where the {svc} config file lives on the VMs"
            says = [f"config lives at {stale} on those VMs, can you check the pool size in it?", f"{svc} config path: {stale}"]
            use = None
        elif typ == "window":
            d1, d2 = self.r.sample(["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"], 2)
            stale = self.uniq(lambda: f"{d1} {self.ri(0, 23):02d}:{self.ch(['00', '15', '30', '45'])} UTC")
            new = self.uniq(lambda: f"{d2} {self.ri(0, 23):02d}:{self.ch(['00', '15', '30', '45'])} UTC")
            db = self.fdb()
            noun, q = "window", f"the maintenance window for {db}"
            says = [f"{db} maintenance window is {stale}, put that in the change", f"we do {db} maintenance {stale}"]
            use = None
        elif typ == "zendesk":
            mk = lambda: f"#{self.ri(400000, 999999)}"
            stale, new = self.uniq(mk), self.uniq(mk)
            cust = self.ch(CUSTOMERS)
            noun, q = "ticket number", f"{cust}'s support ticket number"
            says = [f"{cust} opened {stale} about the duplicate webhooks", f"the zendesk ticket for {cust} is {stale}"]
            use = None
        else:
            stale = self.uniq(lambda: f"{svc.replace('-', '_')}_{self.ch(['main', 'ro', 'archive'])}{self.ri(2, 9)}")
            new = self.uniq(lambda: f"{svc.replace('-', '_')}_{self.ch(['reporting', 'replica', 'analytics'])}{self.ri(2, 9)}")
            noun, q = "database", f"the database the {svc} report should read from"
            says = [f"the report should read from {stale}", f"point the {svc} report at {stale}"]
            use = None

        def stale_render(ep: Ep) -> None:
            ep.user(self.ch(says))
            if use and self.r.random() < 0.7:
                tool, args, out = use
                ep.run(None, [(tool, args(stale), out(stale))])
                ep.say(self.ch(["Looks fine from here.", "Done, output above — nothing unusual.", "OK, checked."]))
            else:
                ep.say(self.ch(["Noted.", "OK, got it.", "👍 will use that."]))

        def render(ep: Ep) -> None:
            short = [f"no wait, the {noun} is {new}", f"the other {noun}, {new}", f"scratch that — use {new}", f"hmm I gave you the wrong {noun}, it's {new}",
                     f"sorry, typo on my side earlier: {new}, not {stale}", f"correction on the {noun} from before: it's actually {new}",
                     f"ugh, mixed them up. {new} is the right {noun}, {stale} was decommissioned last quarter",
                     f"btw {stale} was wrong, {self.person()} just told me it's {new}", f"oh and the {noun} I gave you earlier is stale. Use {new}.",
                     f"perdón, el {noun} correcto es {new}"]
            line = self.ch(short)
            if self.r.random() < 0.35:
                svc2 = self.svc()
                text = (f"Update from the sync: {self.ch(CUSTOMERS)} is fine with the maintenance window, and {self.person()} is taking the "
                        f"{svc2} latency thing off our plate. They think it's the {self.ch(UPSTREAMS)} pool again, {self.ri(2, 9)} tickets so far.\n\n"
                        f"{cap(line)}.\n\n"
                        f"Other than that: can you check whether the {self.ch(JOBS)} job finished? It didn't post in the channel this morning.")
                ep.user(text)
                ep.run(None, [("kubectl", {"args": f"get jobs -n {self.ns()} --sort-by=.status.startTime | tail -5", "context": self.cluster()},
                               "NAME" + " " * 30 + "COMPLETIONS   DURATION   AGE\n" + "\n".join(f"{self.ch(JOBS)}-{self.ri(28000000, 28999999)}          1/1           {self.ri(1, 50)}m        {self.ri(1, 20)}h" for _ in range(5)))])
                ep.say(f"Noted, using {new} from now on. The job finished — last run completed {self.ri(1, 9)}h ago.")
            else:
                ep.user(line if self.r.random() < 0.6 else cap(line) + ".")
                if use and self.r.random() < 0.5:
                    tool, args, out = use
                    ep.run(f"Switching to {new}.", [(tool, args(new), out(new))])
                    ep.say("OK, redone with the right one.")
                else:
                    ep.say(self.ch([f"Got it, {new}.", "Thanks — updated.", f"OK, using {new} instead."]))
        return Spec("correction", new, q, render, stale=stale, stale_render=stale_render)

    # ------------------------------------------------------------ errors
    def error_specs(self, count: int) -> list[Spec]:
        types = ["forbidden", "tf", "go", "jest", "flyway", "ansible", "helm", "pgauth", "docker", "validate", "pytest", "npm"]
        self.r.shuffle(types)
        return [self.redraw(lambda i=i: self.f_error(types[i % len(types)], resolve=(i % 2 == 0))) for i in range(count)]

    def f_error(self, typ: str, resolve: bool) -> Spec:
        svc = self.fsvc()
        ns = self.ch(NAMESPACES)
        ctx = self.cluster()
        words = ["Lease", "Renewal", "Settlement", "Rounding", "Payout", "Retry", "Ledger", "Refund", "Currency", "Webhook", "Signature",
                 "Idempotency", "Batch", "Cutoff", "Reconcile", "Window", "Partial", "Drift"]
        if typ == "forbidden":
            pod = self.pod(svc)
            sa = self.ch(["deployer", "ci-bot", "harbor-agent", "gitops-sync"])
            v = self.uniq(lambda: f'pods "{pod}" is forbidden: User "system:serviceaccount:{self.ch(["ci", "ops", "agents"])}:{sa}" cannot delete resource "pods"')
            ask = self.ch([f"that {svc} pod is wedged, delete it so the RS makes a new one: {pod}", f"kill {pod} please, it's stuck terminating-ish"])
            tool, args = "kubectl", {"args": f"delete pod {pod} -n {ns}", "context": ctx}
            fail = f'{"Error from server (Forbidden): "}{v} in API group "" in the namespace "{ns}"'
            ok = f'pod "{pod}" deleted'
            q = f"why deleting the stuck {svc} pod failed"
            fixed = "I added the rolebinding for the agent SA, try the delete again"
        elif typ == "tf":
            res = self.ch(["IAM Role", "RDS DB Instance", "EKS Node Group", "S3 Bucket", "KMS Key"])
            name = f"{svc}-{self.ch(['irsa', 'exporter', 'reader', 'batch', 'audit'])}-{self.ri(2, 99)}"
            v = self.uniq(lambda: f"Error: creating {res} ({name})")
            ask = self.ch([f"apply the {svc} module in staging, plan was reviewed", f"go ahead and terraform apply the {svc} changes (staging)"])
            tool, args = "shell", {"command": f"cd ~/infra/envs/staging && terraform apply -auto-approve -target=module.{svc.replace('-', '_')}", "timeout": 900}
            acct = self.ri(10 ** 11, 10 ** 12 - 1)
            fail = (self.tf_plan(svc.replace('-', '_'), self.ri(1500, 4000), tail="") + f"\nmodule.{svc.replace('-', '_')}.aws_x.this: Creating...\n╷\n│ {v}: operation error: "
                    f"https response error StatusCode: 403, RequestID: {self.hx(8)}-{self.hx(4)}-{self.hx(4)}-{self.hx(12)}, api error AccessDenied: "
                    f"User: arn:aws:sts::{acct}:assumed-role/ci-terraform/{self.an(10)} is not authorized to perform this action\n│ \n│   with module.{svc.replace('-', '_')}.aws_x.this,\n"
                    f"│   on modules/{svc}/main.tf line {self.ri(5, 200)}, in resource \"aws_x\" \"this\":\n╵")
            ok = f"module.{svc.replace('-', '_')}.aws_x.this: Creating...\nmodule.{svc.replace('-', '_')}.aws_x.this: Creation complete after {self.ri(2, 90)}s\n\nApply complete! Resources: 1 added, 0 changed, 0 destroyed."
            q = f"why the terraform apply for {svc} in staging failed"
            fixed = "security widened the ci-terraform permission boundary, rerun the apply"
        elif typ == "go":
            test = self.uniq(lambda: "Test" + "".join(self.r.sample(words, 3)))
            dur = f"{self.r.random():.2f}s"
            v = f"--- FAIL: {test} ({dur})"
            self.used[-1] = v
            ask = self.ch([f"run the go tests for {svc} before I merge", f"does {svc} still pass its tests after the bump?"])
            tool, args = "shell", {"command": "go test ./... -count=1 -v 2>&1 | tail -200", "cwd": f"~/src/{svc}"}
            _, passes = self.test_pass(self.ri(800, 3000))
            fail = (passes.rsplit("\n", 1)[0] + f"\n=== RUN   {test}\n    {test.lower()[4:12]}_test.go:{self.ri(20, 300)}: got {self.ri(1, 999)}, want {self.ri(1, 999)}\n"
                    f"{v}\nFAIL\ngithub.com/{self.co}/{svc}/internal/{self.ch(['ledger', 'payout', 'lease'])}\t{self.r.random() * 3:.3f}s\nFAIL\nexit status 1")
            ok = passes + f"\nok  \tgithub.com/{self.co}/{svc}/internal/ledger\t{self.r.random() * 3:.3f}s"
            q = f"which Go test failed in the {svc} test run"
            fixed = "pushed a fix for the rounding, rerun the tests"
        elif typ == "jest":
            v = self.uniq(lambda: f"● {self.ch(['Settlement', 'Refund', 'Payout', 'Checkout', 'Invoice'])}{self.ch(['Form', 'Panel', 'Table', 'Wizard'])} › "
                                  f"{self.ch(['rejects', 'formats', 'rounds', 'retries', 'hides'])} {self.ch(['expired cards', 'negative amounts', 'JPY totals', 'stale quotes', 'partial refunds'])} {self.ri(2, 99)}")
            ask = f"run the frontend tests for {svc}"
            tool, args = "shell", {"command": "npm test -- --ci", "cwd": f"~/src/{svc}-web"}
            _, passes = self.test_pass(self.ri(500, 1500))
            fail = (f" FAIL  src/components/{self.ch(['Settlement', 'Refund', 'Payout'])}.test.tsx\n  {v}\n\n    expect(received).toBe(expected) // Object.is equality\n\n"
                    f"    Expected: \"{self.ri(1, 99)}.00\"\n    Received: \"{self.ri(1, 99)}.01\"\n\n      at Object.<anonymous> (src/components/Settlement.test.tsx:{self.ri(10, 200)}:{self.ri(5, 40)})\n\n"
                    f"Test Suites: 1 failed, {self.ri(20, 80)} passed\nTests:       1 failed, {self.ri(200, 700)} passed\nnpm ERR! Test failed.  See above for more details.")
            ok = f"Test Suites: {self.ri(20, 80)} passed\nTests:       {self.ri(200, 700)} passed\nTime:        {self.r.random() * 60:.3f} s"
            q = f"which frontend test case failed for {svc}"
            fixed = "should be fixed on main now, run them again"
        elif typ == "flyway":
            ver = f"{self.ri(20, 99)}.{self.ri(1, 9)}"
            v = self.uniq(lambda: f"Migration checksum mismatch for migration version {ver}")
            ask = f"{svc} won't start after the deploy, can you check the pod logs?"
            tool, args = "kubectl", {"args": f"logs deploy/{svc} -n {ns} --tail=300", "context": ctx}
            fail = (self.logs(svc, self.ri(1500, 5000), fmt="java") + f"\n{self.day()} {self.hm()}:02,118 ERROR [main] o.s.boot.SpringApplication - Application run failed\n"
                    f"org.flywaydb.core.api.exception.FlywayValidateException: Validate failed: Migrations have failed validation\n{v}\n"
                    f"-> Applied to database : {self.ri(10 ** 8, 10 ** 9)}\n-> Resolved locally    : -{self.ri(10 ** 8, 10 ** 9)}\n" + "\n".join(self.stack("java").split("\n")[2:10]))
            ok = self.logs(svc, self.ri(500, 1500), fmt="java") + f"\n{self.day()} {self.hm()}:09,331 INFO  [main] o.f.core.internal.command.DbMigrate - Schema is up to date. No migration necessary.\n{self.day()} {self.hm()}:10,004 INFO  [main] c.n.Application - Started Application in 7.9 seconds"
            q = f"why {svc} failed to start after the deploy"
            fixed = "ran flyway repair on that schema, restart it and check again"
        elif typ == "ansible":
            host = self.uniq(lambda: f"{self.ch(['pg', 'mq', 'edge', 'sftp', 'vault'])}-{self.ri(41, 99)}.{self.ch(['fra1', 'ams2', 'iad3'])}.{self.co}.internal")
            v = f"fatal: [{host}]: FAILED!"
            self.used[-1] = v
            play = self.ch(["postgres.yml", "certs.yml", "users.yml"])
            ask = f"run {play} against prod-eu please, it's the cert bundle refresh"
            tool, args = "shell", {"command": f"cd ~/infra/ansible && ansible-playbook -i inventory/prod-eu.ini {play}", "timeout": 900}
            fail = self.ansible_run(play, self.ri(2000, 6000), fail_line=f'{v} => {{"changed": false, "msg": "Destination /etc/ssl/{self.co} not writable"}}')
            ok = self.ansible_run(play, self.ri(1000, 3000))
            q = "which host failed during the ansible run"
            fixed = "fixed the perms on that box, rerun the playbook"
        elif typ == "helm":
            rel = f"{svc}-{self.ch(['prod', 'canary', 'eu'])}{self.ri(2, 9)}"
            v = self.uniq(lambda: f"release {rel} failed, and has been rolled back due to atomic being set")
            ask = f"helm upgrade {svc} with the new values, atomic please"
            tool, args = "shell", {"command": f"helm upgrade --install {rel} ./deploy/helm/{svc} -n {ns} --atomic --timeout 5m"}
            fail = ("\n".join(f"client.go:{self.ri(100, 600)}: [debug] {self.ch(['Looks like there are no changes for', 'Patch Deployment', 'Watching for changes to Job', 'beginning wait for'])} {svc}" for _ in range(self.ri(10, 40)))
                + f"\nupgrade.go:{self.ri(100, 500)}: [debug] warning: Upgrade \"{rel}\" failed: timed out waiting for the condition\nError: UPGRADE FAILED: {v}: timed out waiting for the condition")
            ok = f"Release \"{rel}\" has been upgraded. Happy Helming!\nNAME: {rel}\nNAMESPACE: {ns}\nSTATUS: deployed\nREVISION: {self.ri(20, 300)}"
            q = f"what happened to the helm upgrade of {svc}"
            fixed = "bumped the readiness timeout, try the upgrade again"
        elif typ == "pgauth":
            user = f"{svc.replace('-', '_')}_rw{self.ri(2, 99)}"
            v = self.uniq(lambda: f'password authentication failed for user "{user}"')
            ask = f"run the {svc} backfill script against the replica"
            tool, args = "shell", {"command": f"python3 scripts/backfill.py --since 2024-01-01 --dsn-env {svc.upper().replace('-', '_')}_DSN"}
            fail = self.stack("python", headline=f'psycopg2.OperationalError: connection to server at "{svc}-db.{self.co}.internal" ({self.ip()}), port 5432 failed: FATAL:  {v}')
            ok = "\n".join(f"backfill: batch {i} rows={self.ri(1000, 5000)} took={self.ri(100, 2000)}ms" for i in range(1, self.ri(10, 60))) + "\nbackfill: done"
            q = f"why the {svc} backfill could not connect"
            fixed = "vault had the old password, rotated it. run it again"
        elif typ == "docker":
            img = self.ch(["node", "python", "golang", "eclipse-temurin"])
            tag = f"{self.ri(18, 24)}.{self.ri(0, 30)}-{self.ch(['bookworm', 'alpine3.9', 'slim-buster', 'jammy'])}{self.ri(2, 9)}"
            v = self.uniq(lambda: f"failed to resolve source metadata for docker.io/library/{img}:{tag}")
            ask = f"build the {svc} image locally so we can test the patch"
            tool, args = "shell", {"command": f"docker build -t {svc}:dev .", "cwd": f"~/src/{svc}"}
            fail = (f"#0 building with \"default\" instance using docker driver\n\n#1 [internal] load build definition from Dockerfile\n#1 transferring dockerfile: {self.ri(400, 2000)}B done\n"
                    f"#2 [internal] load metadata for docker.io/library/{img}:{tag}\n#2 ERROR: docker.io/library/{img}:{tag}: not found\n------\n"
                    f"ERROR: failed to solve: {img}:{tag}: {v}: docker.io/library/{img}:{tag}: not found")
            ok = "\n".join(f"#{i + 2} [{'build' if i < 5 else 'runtime'} {i}/8] {step}\n#{i + 2} DONE {self.r.random() * 30:.1f}s"
                           for i, step in enumerate([f"FROM docker.io/library/{img}:{self.ri(18, 24)}", "WORKDIR /app", "COPY package*.json ./", "RUN npm ci",
                                                     "COPY . .", "RUN npm run build", "COPY --from=build /app/dist /app", "USER node"], 1)) + f"\n#12 naming to docker.io/library/{svc}:dev done"
            q = f"why the local {svc} image build failed"
            fixed = "changed the base image tag in the Dockerfile, build again"
        elif typ == "validate":
            f = f"k8s/{svc}/{self.ch(['deployment', 'cronjob', 'hpa', 'pdb'])}-{self.ri(2, 99)}.yaml"
            v = self.uniq(lambda: f'error validating "{f}"')
            ask = f"apply the {svc} manifests to staging"
            tool, args = "kubectl", {"args": f"apply -f k8s/{svc}/", "context": "stg-use1"}
            fail = (f"configmap/{svc}-config unchanged\nservice/{svc} unchanged\n{v}: error validating data: ValidationError(Deployment.spec.template.spec.containers[0].resources): "
                    f"unknown field \"limit\" in io.k8s.api.core.v1.ResourceRequirements; if you choose to ignore these errors, turn validation off with --validate=false")
            ok = f"configmap/{svc}-config unchanged\nservice/{svc} unchanged\ndeployment.apps/{svc} configured"
            q = f"why applying the {svc} manifests to staging failed"
            fixed = "fixed the typo (limit -> limits), apply again"
        elif typ == "pytest":
            v = self.uniq(lambda: f"FAILED tests/{self.ch(['unit', 'integration'])}/test_{self.ch(['payout', 'ledger', 'fx', 'refund'])}_{self.ch(['rounding', 'cutoff', 'retries', 'batching'])}.py::test_{self.ch(['handles', 'rejects', 'rounds'])}_{self.ch(['dst_switch', 'zero_amount', 'jpy', 'late_webhook', 'duplicate_event'])}_{self.ri(2, 99)}")
            ask = f"run the python tests for {svc}"
            tool, args = "shell", {"command": "pytest -q -x", "cwd": f"~/src/{svc}"}
            fail = ("platform linux -- Python 3.11.7, pytest-8.1.1, pluggy-1.5.0\n" + "\n".join(f"tests/unit/test_{self.ch(['a', 'b', 'c', 'misc'])}.py " + "." * self.ri(5, 60) for _ in range(self.ri(3, 12)))
                    + f"\n=================================== FAILURES ===================================\n    assert got == want\nE   AssertionError: assert Decimal('10.01') == Decimal('10.00')\n"
                    f"=========================== short test summary info ============================\n{v} - AssertionError: assert Decimal('10.01') == Decimal('10.00')\n!!!!!!!!!!!!!!!!!!!!!!!!!! stopping after 1 failures !!!!!!!!!!!!!!!!!!!!!!!!!!!")
            ok = f"{self.ri(200, 800)} passed, {self.ri(0, 5)} skipped in {self.r.random() * 40:.2f}s"
            q = f"which python test failed for {svc}"
            fixed = "ok pushed a fix, rerun"
        else:
            pkg = f"{svc}-{self.ch(['sdk', 'client', 'schemas', 'ui-kit'])}"
            v = self.uniq(lambda: f"npm ERR! 404 Not Found - GET https://npm.pkg.github.com/@{self.co}%2f{pkg}")
            ask = f"install deps for {svc}-web, the lockfile changed"
            tool, args = "shell", {"command": "npm ci", "cwd": f"~/src/{svc}-web"}
            fail = (f"npm WARN deprecated inflight@1.0.6: This module is not supported, and leaks memory. Do not use it.\nnpm ERR! code E404\n{v}\n"
                    f"npm ERR! 404 '@{self.co}/{pkg}@{self.ri(1, 5)}.{self.ri(0, 20)}.{self.ri(0, 9)}' is not in this registry.\nnpm ERR! A complete log of this run can be found in: /root/.npm/_logs/{self.day()}T{self.hm().replace(':', '_')}_{self.ri(10, 59)}_{self.ri(100, 999)}Z-debug-0.log")
            ok = f"added {self.ri(600, 1900)} packages, and audited {self.ri(600, 1900)} packages in {self.ri(10, 90)}s\n\n{self.ri(50, 200)} packages are looking for funding\n  run `npm fund` for details\n\nfound 0 vulnerabilities"
            q = f"why installing the {svc}-web dependencies failed"
            fixed = "the token was missing the read:packages scope, I fixed it. try again"

        def render(ep: Ep) -> None:
            ep.user(ask)
            ep.run(self.ch([None, "Running it.", "On it."]), [(tool, args, fail)])
            ep.say(self.ch([f"It failed:\n\n```\n{v}\n```\n\nI didn't retry; this needs a fix on our side first.",
                            f"That failed — `{v}`. Want me to dig into it or will you handle it?",
                            "It failed, see the output above. Looks like a real problem rather than a flake, so I stopped there."]))

        def resolve_render(ep: Ep) -> None:
            ep.user(self.ch([fixed, fixed + " when you get a chance"]))
            ep.run(None, [(tool, args, ok)])
            ep.say(self.ch(["Passes now.", "That worked this time.", "Green now 👍"]))
        return Spec("error", v, q, render, resolve_render=resolve_render if resolve else None)

    # ------------------------------------------------------------ files
    def file_specs(self, count: int) -> list[Spec]:
        types = ["helm", "tf", "ansible", "overlay", "workflow", "runbook", "script", "alerts", "cron", "dockerfile", "nginx"]
        self.r.shuffle(types)
        return [self.redraw(lambda i=i: self.f_file(types[i % len(types)])) for i in range(count)]

    def f_file(self, typ: str) -> Spec:
        svc = self.fsvc()
        us = svc.replace("-", "_")
        mode = "edit"
        if typ == "helm":
            env = self.ch(["prod", "prod-eu", "prod-us", "canary"])
            v = self.uniq(lambda: f"deploy/helm/{svc}/values-{env}.yaml")
            ask = self.ch([f"bump the memory limit for {svc} in {env} to 1Gi, it keeps getting close", f"{svc} needs more memory in {env}, 1Gi limit please"])
            old, new = "memory: 512Mi", "memory: 1Gi"
            q = f"the helm values file changed to raise {svc}'s memory limit"
        elif typ == "tf":
            fn = self.ch(["main.tf", "iam.tf", "alarms.tf", "variables.tf"])
            v = self.uniq(lambda: f"terraform/modules/{svc}/{fn}")
            ask = f"change the {svc} alarm evaluation periods from 1 to 3, it's too noisy"
            old, new = "evaluation_periods  = 1", "evaluation_periods  = 3"
            q = f"the terraform file edited to make the {svc} alarm less noisy"
        elif typ == "ansible":
            fn = self.ch(["upstream.conf.j2", "env.j2", "logrotate.j2", "sysctl.conf.j2"])
            v = self.uniq(lambda: f"ansible/roles/{us}/templates/{fn}")
            ask = f"the {svc} role template still has the old keepalive value, make it 75s"
            old, new = "keepalive_timeout 30s;", "keepalive_timeout 75s;"
            q = f"the ansible template changed for {svc}'s keepalive"
        elif typ == "overlay":
            v = self.uniq(lambda: f"k8s/overlays/{self.fcluster()}/{svc}-hpa.yaml")
            ask = f"we need an HPA for {svc} in the new cluster overlay, min 3 max 20 at 70% cpu"
            mode = "create"
            q = f"the new HPA manifest created for {svc}"
        elif typ == "workflow":
            v = self.uniq(lambda: f".github/workflows/deploy-{svc}.yml")
            ask = f"add a manual approval step to the {svc} deploy workflow before prod"
            old, new = "  deploy-prod:\n    needs: [build]", "  deploy-prod:\n    needs: [build]\n    environment: production"
            q = f"the CI workflow changed to gate {svc} prod deploys"
        elif typ == "runbook":
            topic = self.ch(["failover", "cache-flush", "replay", "key-rotation"])
            v = self.uniq(lambda: f"runbooks/{svc}-{topic}.md")
            ask = f"can you write up what we just did for {svc} as a runbook in the repo?"
            mode = "create"
            q = f"the runbook file written for {svc}"
        elif typ == "script":
            verb = self.ch(["rotate", "drain", "replay", "purge", "reindex"])
            v = self.uniq(lambda: f"scripts/{verb}_{us}.sh")
            ask = f"make a small script to {verb} {svc} so the next on-call doesn't have to remember the flags"
            mode = "create"
            q = f"the helper script created for {svc}"
        elif typ == "alerts":
            v = self.uniq(lambda: f"monitoring/alerts/{svc}.rules.yml")
            ask = f"the {svc} error-rate alert fires on every deploy, make it wait 10 minutes"
            old, new = "for: 2m", "for: 10m"
            q = f"the alert rules file edited for {svc}"
        elif typ == "cron":
            job = self.ch(["nightly", "hourly-sync", "cleanup", "report"])
            v = self.uniq(lambda: f"ops/cron/{svc}-{job}.yaml")
            ask = f"set up a cronjob for the {svc} {job} thing, 03:15 UTC"
            mode = "create"
            q = f"the cronjob manifest created for {svc}"
        elif typ == "dockerfile":
            v = self.uniq(lambda: f"docker/{svc}/Dockerfile")
            ask = f"pin the {svc} base image to the bookworm digest instead of latest"
            old, new = "FROM python:3.11-slim", "FROM python:3.11-slim-bookworm@sha256:" + self.hx(64)
            q = f"the Dockerfile changed to pin {svc}'s base image"
        else:
            v = self.uniq(lambda: f"config/nginx/sites-enabled/{svc}.{self.co}.io.conf")
            ask = f"raise the upload limit for {svc} to 50m in nginx"
            old, new = "client_max_body_size 8m;", "client_max_body_size 50m;"
            q = f"the nginx site config changed to raise {svc}'s upload limit"

        def render(ep: Ep) -> None:
            ep.user(ask)
            if mode == "create":
                body = "\n".join([f"# {svc}", f"# created {self.day()} by harbor for {self.user_name}", ""] +
                                 [self.ch(["set -euo pipefail", f"kubectl -n {self.ch(NAMESPACES)} get pods -l app={svc}", "minReplicas: 3", "maxReplicas: 20",
                                           "schedule: \"15 3 * * *\"", f"1. Check the {svc} dashboard", "averageUtilization: 70", "echo \"done: $(date -u)\""])
                                  for _ in range(self.ri(6, 40))])
                ep.run(self.ch([None, "Creating it."]), [("write_file", {"path": v, "content": body}, f"Wrote {len(body)} bytes to {v}")])
                if v.endswith(".sh"):
                    ep.run(None, [("shell", {"command": f"chmod +x {v} && bash -n {v} && echo ok"}, "ok")])
            else:
                ep.run(None, [("read_file", {"path": v}, self.file_body(typ, svc))])
                if typ == "dockerfile" and self.r.random() < 0.5:
                    ep.run(None, [("shell", {"command": f"sed -i 's|^FROM python:3.11-slim$|{new}|' {v} && grep -n FROM {v}"}, f"1:{new}")])
                else:
                    ep.run(None, [("edit_file", {"path": v, "old_string": old, "new_string": new}, "Applied 1 edit.")])
            ep.say(self.ch([f"Done — see `{v}`. Not committed yet.", "Done. I haven't pushed it.", "Updated; the change is a one-liner. Want a PR?",
                            "Created/updated it, and ran a quick syntax check."]))
        return Spec("file", v, q, render)

    def file_body(self, typ: str, svc: str) -> str:
        """Plausible contents of a file about to be edited; holds the line the edit replaces exactly once."""
        img = f"registry.{self.co}.internal/{svc}"
        if typ == "helm":
            return (f"# {svc} — prod overrides\nreplicaCount: {self.ri(3, 20)}\nimage:\n  repository: {img}\n  tag: \"{self.ri(1, 4)}.{self.ri(0, 40)}.{self.ri(0, 9)}\"\n\n"
                    f"resources:\n  limits:\n    cpu: \"1\"\n    memory: 512Mi\n  requests:\n    cpu: 250m\n    memory: 256Mi\n\nenv:\n  LOG_LEVEL: info\n"
                    f"  DB_POOL_MAX: \"{self.ri(5, 40)}\"\n  HTTP_TIMEOUT_MS: \"{self.ri(1000, 9000)}\"\n\npodDisruptionBudget:\n  minAvailable: {self.ri(1, 3)}\n"
                    f"\nserviceMonitor:\n  enabled: true\n  interval: 30s\n")
        if typ == "tf":
            out = []
            for k, name in enumerate(self.r.sample(["p99_latency", "error_rate", "queue_depth", "cpu_high", "disk_low"], 3)):
                out += [f'resource "aws_cloudwatch_metric_alarm" "{name}" {{', f'  alarm_name          = "${{var.name}}-{name}"',
                        '  comparison_operator = "GreaterThanThreshold"', f"  evaluation_periods  = {1 if k == 0 else self.ri(2, 5)}",
                        f'  metric_name         = "{name}"', f'  namespace           = "{svc}"', f"  period              = {self.ch([60, 300])}",
                        '  statistic           = "Average"', f"  threshold           = {self.ri(1, 900)}", "  alarm_actions       = [var.sns_topic_arn]", "}", ""]
            return "\n".join(out)
        if typ == "ansible":
            return (f"# {{{{ ansible_managed }}}}\nupstream {svc.replace('-', '_')} {{\n{{% for host in groups['{svc.replace('-', '_')}'] %}}\n"
                    f"    server {{{{ hostvars[host].private_ip }}}}:8080 max_fails=3 fail_timeout=10s;\n{{% endfor %}}\n    keepalive 32;\n}}\n\n"
                    f"server {{\n    listen 443 ssl http2;\n    server_name {svc}.{self.co}.io;\n    keepalive_timeout 30s;\n    client_body_timeout 15s;\n"
                    f"    location / {{\n        proxy_pass http://{svc.replace('-', '_')};\n        proxy_http_version 1.1;\n        proxy_set_header Connection \"\";\n    }}\n}}\n")
        if typ == "workflow":
            return (f"name: deploy-{svc}\non:\n  push:\n    branches: [main]\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
                    f"      - run: make test image\n      - run: make push TAG=${{{{ github.sha }}}}\n  deploy-staging:\n    needs: [build]\n    runs-on: ubuntu-latest\n"
                    f"    steps:\n      - run: ./scripts/deploy.sh staging ${{{{ github.sha }}}}\n  deploy-prod:\n    needs: [build]\n    runs-on: ubuntu-latest\n"
                    f"    steps:\n      - run: ./scripts/deploy.sh prod ${{{{ github.sha }}}}\n")
        if typ == "alerts":
            return (f"groups:\n  - name: {svc}\n    rules:\n      - alert: {svc.title().replace('-', '')}HighErrorRate\n"
                    f"        expr: sum(rate(http_requests_total{{service=\"{svc}\",code=~\"5..\"}}[5m])) / sum(rate(http_requests_total{{service=\"{svc}\"}}[5m])) > 0.02\n"
                    f"        for: 2m\n        labels:\n          severity: page\n        annotations:\n          summary: \"{svc} 5xx above 2%\"\n"
                    f"      - alert: {svc.title().replace('-', '')}LatencyHigh\n        expr: histogram_quantile(0.99, sum(rate(http_request_duration_seconds_bucket{{service=\"{svc}\"}}[5m])) by (le)) > 1.5\n"
                    f"        for: 15m\n        labels:\n          severity: ticket\n")
        if typ == "dockerfile":
            return (f"FROM python:3.11-slim\nENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1\nWORKDIR /app\nCOPY requirements.txt .\n"
                    f"RUN pip install --no-cache-dir -r requirements.txt\nCOPY . .\nUSER 10001\nEXPOSE 8080\nCMD [\"gunicorn\", \"-c\", \"gunicorn.conf.py\", \"{svc.replace('-', '_')}.wsgi\"]\n")
        return (f"server {{\n    listen 443 ssl http2;\n    server_name {svc}.{self.co}.io;\n    ssl_certificate /etc/ssl/{self.co}/fullchain.pem;\n"
                f"    ssl_certificate_key /etc/ssl/{self.co}/privkey.pem;\n    client_max_body_size 8m;\n    location / {{\n        proxy_pass http://127.0.0.1:8080;\n"
                f"        proxy_read_timeout {self.ri(10, 120)}s;\n    }}\n}}\n")

    # ------------------------------------------------------------ decisions
    def decision_specs(self, count: int) -> list[Spec]:
        types = ["rollout", "failover", "scale", "credit", "state", "pin", "node", "queue", "alert", "route", "secret", "sampling"]
        self.r.shuffle(types)
        return [self.redraw(lambda i=i: self.f_decision(types[i % len(types)], revised=(i % 5 in (1, 3)))) for i in range(count)]

    def f_decision(self, typ: str, revised: bool) -> Spec:
        svc = self.fsvc()
        cust = self.ch(CUSTOMERS)
        if typ == "rollout":
            new = lambda: f"canary {svc} at {self.ch([1, 2, 5, 10, 15])}% for {self.ri(2, 48)} hours"
            old = lambda: f"do a blue-green deploy for {svc}"
            why, why_old = self.ch(["blue-green doubles the node cost for a day", "the EU-only bug only shows under real traffic"]), "it's the fastest to roll back"
            topic = f"how the {svc} release goes out"
        elif typ == "failover":
            db = self.fdb()
            new = lambda: f"fail over {db} to the replica in {self.ch(REGIONS)}{self.ch('abc')}"
            old = lambda: f"keep {db} on the primary and raise its connection limit to {self.ri(300, 900)}"
            why, why_old = self.ch(["the primary's EBS volume is degraded", "AWS flagged the primary's host for retirement"]), "a failover is riskier than the symptoms"
            topic = f"what to do about the {db} primary"
        elif typ == "scale":
            new = lambda: f"scale {svc} to {self.ri(6, 48)} replicas and revisit on Monday"
            old = lambda: f"put an HPA on {svc} at {self.ri(50, 80)}% CPU"
            why, why_old = self.ch(["the HPA flaps on the batch spikes", "we don't trust the CPU metric for this one"]), "it adapts by itself"
            topic = f"capacity for {svc}"
        elif typ == "credit":
            new = lambda: f"give {cust} a {self.ri(3, 30)}-day service credit"
            old = lambda: f"offer {cust} a {self.ri(5, 25)}% refund on {self.ch(['March', 'April', 'May', 'June'])}"
            why, why_old = self.ch(["finance prefers credits over refunds", "the contract only allows credits"]), "it's what they asked for"
            topic = f"compensation for {cust}"
        elif typ == "state":
            mod = self.ch(["vpc", "rds", "eks", "iam", "dns"]) + "-" + svc
            new = lambda: f"split {mod} into its own state file"
            old = lambda: f"keep {mod} in the shared state and use -target"
            why, why_old = self.ch(["plans take 9 minutes otherwise", "two teams keep locking each other out"]), "it's less work right now"
            topic = f"how the {mod} terraform state is organised"
        elif typ == "pin":
            cl = self.fcluster()
            new = lambda: f"pin the ingress-nginx chart to 4.{self.ri(5, 11)}.{self.ri(0, 9)} on {cl}"
            old = lambda: f"upgrade ingress-nginx on {cl} to the latest chart"
            why, why_old = self.ch(["the latest chart drops the annotation we rely on", "we want the same version everywhere before the freeze"]), "we're three minors behind"
            topic = f"the ingress-nginx version on {cl}"
        elif typ == "node":
            node = f"ip-172-{self.ri(16, 31)}-{self.ri(0, 255)}-{self.ri(11, 254)}"
            new = lambda: f"cordon {node} and hand it to the hardware team"
            old = lambda: f"reboot {node} and see if the ECC errors clear"
            why, why_old = "the ECC errors came back after the reboot", "it's probably a one-off"
            topic = f"the flaky node {node}"
        elif typ == "queue":
            topic_name = self.ch(TOPICS) + "-" + svc
            new = lambda: f"pause the {topic_name} consumer until the backfill finishes"
            old = lambda: f"let the {topic_name} consumer run during the backfill"
            why, why_old = self.ch(["both fight over the same rows", "the consumer double-counts during backfills"]), "pausing it delays invoices"
            topic = f"the {topic_name} consumer during the backfill"
        elif typ == "alert":
            alert = f"{svc.replace('-', '_')}_p99_latency"
            new = lambda: f"raise the {alert} threshold to {self.ri(600, 3000)}ms"
            old = lambda: f"mute {alert} for a week"
            why, why_old = self.ch(["it paged four times last night for nothing", "the new baseline is just higher"]), "we need time to investigate"
            topic = f"the noisy {alert} alert"
        elif typ == "route":
            new = lambda: f"route {cust}'s webhooks through {self.ch(REGIONS)} for {svc}"
            old = lambda: f"keep {cust}'s webhooks on the default {svc} path"
            why, why_old = self.ch(["their receiver is in Frankfurt and the latency is killing them", "data residency"]), "it's simpler"
            topic = f"where {cust}'s webhooks are sent from"
        elif typ == "secret":
            new = lambda: f"rotate the {svc} signing secret on {self.ch(['Tuesday', 'Wednesday', 'Thursday', 'the 2nd', 'the 15th'])} at {self.ri(6, 20)}:00 UTC"
            old = lambda: f"rotate the {svc} signing secret tonight"
            why, why_old = self.ch(["three partners need a heads-up first", "support is thin tonight"]), "the old one leaked into a log"
            topic = f"when the {svc} signing secret is rotated"
        else:
            new = lambda: f"sample {svc} debug logs at 1 in {self.ri(20, 500)}"
            old = lambda: f"turn off {svc} debug logs entirely"
            why, why_old = self.ch(["we'd lose the traces we need for the refund bug", "the log bill doubled"]), "they cost too much"
            topic = f"the {svc} debug logs"
        v = self.uniq(new)
        early = self.uniq(old) if revised else None
        p = self.person()

        def render(ep: Ep) -> None:
            if revised:
                style = self.ri(0, 3)
                if style == 0:
                    ep.user(f"actually, change of plan: let's {v} instead — {why}.")
                    ep.say(self.ch(["OK, switching to that.", "Makes sense, I'll go with that."]))
                elif style == 1:
                    ep.user(f"scrap what we said earlier, {p} vetoed it. We'll {v}. {cap(why)}.")
                    ep.say("Understood.")
                elif style == 2:
                    ep.user(f"thinking about {topic} again — is the earlier plan still right?")
                    ep.say(f"Revisiting it: I think we should {v} instead, because {why}. The earlier option made sense when we thought {why_old}.")
                    ep.user(self.ch(["yeah agreed, do that", "ok, go with that", "fine by me"]))
                    ep.say("👍")
                else:
                    ep.user(f"ok revisiting {topic}: {v}, because {why}")
                    ep.say(self.ch(["OK.", "Got it, updating the plan."]))
                return
            style = self.ri(0, 5)
            if style == 0:
                ep.user(f"Let's {v} — {why}.")
                ep.say(self.ch(["Sounds good.", "OK, going with that.", "Agreed."]))
            elif style == 1:
                ep.user(f"ok, decided: we'll {v}. {cap(why)}.")
                ep.say("👍")
            elif style == 2:
                ep.user(f"after talking to {p}, we're going to {v}, since {why}.")
                ep.say("OK, noted.")
            elif style == 3:
                ep.user(f"what do you think about {topic}? I keep going back and forth")
                ep.say(f"I'd {v}. Mostly because {why}; the alternative only wins if {why_old}.")
                ep.user(self.ch(["ok do it", "yep, let's go with that", "agreed"]))
                ep.say("Going with that.")
            elif style == 4:
                ep.user(f"thoughts on {topic}?")
                ep.say(f"Given that {why}, I'm going to {v}. Shout if you disagree.")
                ep.user(self.ch(["no, that's right", "fine", "👍"]))
                ep.say("OK.")
            else:
                ep.user(f"final answer on {topic} from {p}: {v}. {cap(why)}.")
                ep.say("Noted.")

        def early_render(ep: Ep) -> None:
            if self.r.random() < 0.5:
                ep.user(f"for {topic}, let's {early} for now, {why_old}.")
                ep.say("OK.")
            else:
                ep.user(f"how should we handle {topic}?")
                ep.say(f"For now I'd {early} — {why_old}. We can revisit if it gets worse.")
                ep.user("ok")
                ep.say("👍")
        return Spec("decision", v, f"what was decided about {topic}", render, early=early, early_render=early_render if revised else None)

    # ------------------------------------------------------------ identifiers
    def identifier_specs(self, count: int) -> list[Spec]:
        types = ["inc", "chg", "node", "runbook", "pd", "grafana", "sha", "channel", "cus", "status", "plat"]
        self.r.shuffle(types)
        return [self.redraw(lambda i=i: self.f_identifier(types[i % len(types)])) for i in range(count)]

    def f_identifier(self, typ: str) -> Spec:
        svc = self.fsvc()
        topic = self.ch([f"{svc} outage", f"{svc} latency", f"{svc} data delay", f"{svc} 5xx spike", f"{svc} failed payouts"])
        p = self.person()
        if typ == "inc":
            v = self.uniq(lambda: f"INC-{self.ri(10000, 99999)}")
            lines = [f"this is tracked as {v} btw", f"{p} opened {v} for the {topic}", f"can you add the timeline to {v} when you get a sec?"]
            q = f"the incident id for the {topic}"
        elif typ == "chg":
            v = self.uniq(lambda: f"CHG{self.ri(10 ** 6, 10 ** 7 - 1)}")
            lines = [f"I filed {v} for tonight's window, approved by {p}", f"change request is {v}, reference it in the commit", f"{p} approved {v} so we're good for the {svc} work"]
            q = f"the change request for the {svc} maintenance"
        elif typ == "node":
            v = self.uniq(lambda: f"ip-10-{self.ri(64, 127)}-{self.ri(0, 255)}-{self.ri(1, 254)}.{self.ch(REGIONS)}.compute.internal")
            lines = [f"the noisy neighbour is {v}, the one with the old AMI", f"{p} says the {svc} pods on {v} are the slow ones", f"keep an eye on {v}, it's the one that rebooted"]
            q = f"the node hosting the slow {svc} pods"
        elif typ == "runbook":
            v = self.uniq(lambda: f"https://wiki.{self.co}.internal/runbooks/{svc}-{self.ch(['failover', 'recovery', 'cache-flush', 'replay'])}-v{self.ri(2, 9)}")
            lines = [f"runbook's here: {v}", f"there's a runbook for this, {v} — it's a bit old", f"{p} wrote it up at {v}"]
            q = f"the runbook link for {svc}"
        elif typ == "pd":
            v = self.uniq(lambda: f"https://{self.co}.pagerduty.com/incidents/Q{self.an(13, UPPER)}")
            lines = [f"PD incident is {v}, ack it if it re-triggers", f"the page was {v}"]
            q = f"the PagerDuty incident for the {topic}"
        elif typ == "grafana":
            v = self.uniq(lambda: f"https://grafana.{self.co}.internal/d/{self.an(9)}/{svc}-{self.ch(['overview', 'slo', 'saturation'])}")
            lines = [f"the dashboard I'm looking at is {v}", f"use {v}, the old one has wrong units"]
            q = f"the Grafana dashboard for {svc}"
        elif typ == "sha":
            v = self.uniq(lambda: self.hx(12))
            lines = [f"the deploy that broke it was {v}", f"{p} thinks {v} is the culprit — the retry change", f"revert target is {v} if we need it"]
            q = f"the commit suspected of causing the {topic}"
        elif typ == "channel":
            v = self.uniq(lambda: f"#inc-{time.strftime('%m%d', time.gmtime(self.t))}-{svc}-{self.an(3, LOWER)}")
            lines = [f"we're coordinating in {v}", f"post updates in {v} please", f"{p} made {v} for it"]
            q = f"the Slack channel for the {topic}"
        elif typ == "cus":
            cust = self.ch(CUSTOMERS)
            v = self.uniq(lambda: f"cus_{self.an(14)}")
            lines = [f"{cust}'s account is {v} in stripe", f"for {cust} look up {v}", f"the customer id is {v} ({cust})"]
            q = f"{cust}'s customer id"
        elif typ == "status":
            v = self.uniq(lambda: f"https://status.{self.co}.io/incidents/{self.an(12, LOWER)}")
            lines = [f"status page entry is {v}", f"support linked {v} in the replies"]
            q = f"the status page incident for the {topic}"
        else:
            v = self.uniq(lambda: f"PLAT-{self.ri(1000, 9999)}")
            lines = [f"the epic for the {svc} cleanup is {v}", f"put the follow-ups under {v}", f"{v} is where {p} is tracking it"]
            q = f"the jira epic for the {svc} follow-ups"

        def render(ep: Ep) -> None:
            line = self.ch(lines)
            if self.r.random() < 0.5:
                svc2 = self.svc()
                ep.user(self.ch([f"{line}. meanwhile can you check {svc2}? it's been flapping", f"{self.ask(svc2)} ({line})",
                                 f"ok. {line}.\n\nalso {self.ask(svc2)}"]))
                ep.run(None, [("search_logs", {"service": svc2, "query": "level:error", "since": "1h"}, self.logs(svc2, self.size(600, 5000)))])
                ep.say(self.findings_prose(svc2))
            else:
                ep.user(line)
                ep.say(self.ch(["Noted.", "👍", "OK, I'll reference that.", "Got it."]))
        return Spec("identifier", v, q, render)

    # ------------------------------------------------------------ findings
    def finding_specs(self, count: int) -> list[Spec]:
        types = ["oom", "cert", "config", "ci", "disk", "dns", "repl", "image", "ratelimit", "slowq", "hikari", "conntrack"]
        self.r.shuffle(types)
        return [self.redraw(lambda i=i: self.f_finding(types[i % len(types)])) for i in range(count)]

    def _kubelet_lines(self, size: int, extra: str) -> str:
        L = []
        t = self.t - 7200
        while sum(len(x) + 1 for x in L) < size:
            t += self.r.random() * 30
            svc = self.svc()
            reason, code = self.ch([("Completed", 0), ("Completed", 0), ("Error", 1), ("Evicted", 0)])
            L.append(self.ch([f'ts={self.iso(t)} level=info component=kubelet msg="container terminated" pod="{self.ns()}/{self.pod(svc)}" reason="{reason}" container="{svc}" exit_code={code}',
                              f'ts={self.iso(t)} level=info component=kubelet msg="SyncLoop (PLEG)" event="ContainerStarted" pod="{self.ns()}/{self.pod(svc)}"',
                              f'ts={self.iso(t)} level=warn component=kubelet msg="readiness probe failed" pod="{self.ns()}/{self.pod(svc)}" output="HTTP probe failed with statuscode: 503"',
                              f'ts={self.iso(t)} level=info component=kubelet msg="image garbage collection" freed_bytes={self.ri(10 ** 6, 10 ** 10)}']))
        L.insert(self.ri(len(L) // 3, 2 * len(L) // 3), extra)
        return "\n".join(L)

    def f_finding(self, typ: str) -> Spec:
        svc = self.fsvc()
        ns = self.ch(NAMESPACES)
        if typ == "oom":
            v = self.uniq(lambda: f'pod="{ns}/{self.pod(svc)}" reason="OOMKilled"')
            ask = f"{svc} keeps restarting, can you find out why?"
            call = ("search_logs", {"service": "kubelet", "query": f"{svc} terminated", "since": "6h"})
            out = lambda: self._kubelet_lines(self.size(2500, 8000), f'ts={self.iso(self.t - 3000)} level=warn component=kubelet msg="container terminated" {v} container="{svc}" exit_code=137')
            concl = "The restarts are memory: the container hits its limit and gets killed (exit 137). I'd raise the limit or look for the leak."
            q = f"the root cause of the {svc} restarts"
        elif typ == "cert":
            dom = f"api.{self.ch(['settle', 'payx', 'kycbridge', 'fxhub', 'taxly'])}-{self.ri(2, 99)}.{self.ch(['com', 'io', 'eu'])}"
            v = self.uniq(lambda: f"tls: failed to verify certificate for {dom}: x509: certificate has expired")
            ask = f"{svc} calls to the partner started failing around midnight, what's up?"
            call = ("search_logs", {"service": svc, "query": "level:error", "since": "12h"})
            out = lambda: self.logs(svc, self.size(2500, 9000), fmt="logfmt", extra=[f'ts={self.iso(self.t - self.ri(100, 9000))} level=error svc={svc} msg="partner call failed" err="{v}"' for _ in range(self.ri(1, 3))])
            concl = "The partner's TLS certificate expired at midnight — every call fails the handshake. That's on their side; I'd tell their support and ask for an ETA."
            q = f"why {svc}'s partner calls fail"
        elif typ == "config":
            key = self.ch(["max_connections", "shared_buffers", "work_mem", "statement_timeout"])
            unit = {"max_connections": "", "shared_buffers": "MB", "work_mem": "MB", "statement_timeout": "s"}[key]
            v = self.uniq(lambda: f"{key} = {self.ch([self.ri(101, 199), self.ri(201, 299), self.ri(301, 499), self.ri(501, 999)])}{unit}")
            db = self.fdb()
            ask = f"what's {key} set to on {db}?"
            call = ("read_file", {"path": f"/etc/postgresql/15/main/conf.d/{db}.conf"})
            out = lambda: self.config_dump(svc, self.size(2500, 7000), kind="pg", inject=v, exclude=key)[1]
            concl = "It's set in the tuning file (ansible-managed), see above."
            q = f"the {key} setting on {db}"
        elif typ == "ci":
            v = self.uniq(lambda: f"tests/{self.ch(['integration', 'e2e', 'contract'])}/test_{self.ch(['payouts', 'refunds', 'ledger', 'fx'])}.py::test_{self.ch(['partial', 'full', 'late', 'duplicate'])}_{self.ch(['refund', 'payout', 'webhook', 'capture'])}_{self.ch(['rounds_half_even', 'is_idempotent', 'after_cutoff', 'with_fees'])}")
            run_id = self.ri(10 ** 8, 10 ** 9)
            ask = f"CI on {svc} main is red, which test?"
            call = ("http_get", {"url": f"https://ci.{self.co}.internal/api/v2/runs/{run_id}"})
            out = lambda: json.dumps({"id": run_id, "pipeline": f"{svc}-main", "status": "failed", "duration_s": self.ri(200, 3000),
                                      "jobs": [{"name": n, "status": "failed" if n == "test-integration" else "passed", "duration_s": self.ri(20, 900)}
                                               for n in ["lint", "unit", "build-image", "test-integration", "sbom"]],
                                      "failed_tests": [v], "flaky_quarantined": [f"tests/unit/test_misc.py::test_{self.an(6).lower()}"],
                                      "commit": self.hx(40), "author": self.person().lower()}, indent=2)
            concl = "One failure in the integration job; the rest is green. Looks deterministic — it failed on the retry as well."
            q = f"the failing CI test on {svc} main"
        elif typ == "disk":
            v = self.uniq(lambda: f"write /var/lib/{self.ch(['kafka', 'clickhouse', 'loki'])}/data/{self.ch(TOPICS)}-{self.ri(0, 23)}/{self.ri(10 ** 9, 10 ** 11):020d}.log: no space left on device")
            ask = f"the {svc} consumer stopped, broker side issue?"
            call = ("search_logs", {"service": "kafka", "query": "level:error OR level:fatal", "since": "3h"})
            out = lambda: self.logs("kafka", self.size(2500, 8000), fmt="java", extra=[f"{self.day()} {self.hm()}:11,204 ERROR [ReplicaManager broker=3] Error processing append operation: {v}"])
            concl = "The broker's data disk filled up, so appends fail and the consumer stalls. Needs the retention fixed or the volume grown."
            q = f"why the {svc} consumer stopped"
        elif typ == "dns":
            v = self.uniq(lambda: f"lookup {svc}-{self.ch(['grpc', 'internal', 'v2'])}.{ns}.svc.cluster.local on 10.96.0.10:53: no such host")
            ask = f"{svc} can't reach its backend since the namespace move, can you check?"
            call = ("kubectl", {"args": f"logs deploy/{svc}-client -n {ns} --tail=400", "context": self.cluster()})
            out = lambda: self.logs(svc, self.size(2000, 6000), fmt="json", extra=[json.dumps({"ts": self.iso(self.t - 200), "level": "error", "msg": "dial failed", "err": f"dial tcp: {v}"})])
            concl = "The client still points at the old service name; that DNS name doesn't exist after the move."
            q = f"why {svc} cannot reach its backend"
        elif typ == "repl":
            v = self.uniq(lambda: f"Seconds_Behind_Master: {self.ri(1000, 99999)}")
            db = self.fdb()
            ask = f"reports from {db} look stale, is the replica behind?"
            call = ("shell", {"command": f"mysql -h {db}-replica -e 'SHOW SLAVE STATUS\\G'"})
            out = lambda: "*************************** 1. row ***************************\n" + "\n".join(
                f"{k:>29}: {val}" for k, val in [("Slave_IO_State", "Waiting for master to send event"), ("Master_Host", f"{db}-primary"), ("Master_Port", 3306),
                                                 ("Master_Log_File", f"mysql-bin.{self.ri(1000, 9999):06d}"), ("Read_Master_Log_Pos", self.ri(10 ** 6, 10 ** 9)),
                                                 ("Slave_IO_Running", "Yes"), ("Slave_SQL_Running", "Yes"), ("Last_Errno", 0), ("Skip_Counter", 0),
                                                 ("Exec_Master_Log_Pos", self.ri(10 ** 6, 10 ** 9)), ("Relay_Log_Space", self.ri(10 ** 6, 10 ** 10))]) + f"\n        {v}\n" + "\n".join(
                f"{k:>29}: {val}" for k, val in [("Master_SSL_Allowed", "No"), ("Last_IO_Errno", 0), ("Last_SQL_Errno", 0), ("Master_Server_Id", self.ri(1, 9)),
                                                 ("SQL_Delay", 0), ("Slave_SQL_Running_State", "Reading event from the relay log")])
            concl = "Yes — the replica is far behind the primary. Both threads are running, it's just not keeping up with the write volume."
            q = f"how far the {db} replica is behind"
        elif typ == "image":
            tag = f"{self.ri(3, 9)}.{self.ri(0, 40)}.{self.ri(0, 20)}-rc{self.ri(2, 9)}"
            v = self.uniq(lambda: f'Failed to pull image "registry.{self.co}.internal/{svc}:{tag}"')
            ask = f"new {svc} pods are stuck, what's going on?"
            call = ("kubectl", {"args": f"describe pod -n {ns} -l app={svc}", "context": self.cluster()})
            out = lambda: self.describe_pod(self.svc(), ns, self.size(2500, 7000), events=[f"  Warning  Failed     {self.ri(1, 9)}m                kubelet  {v}: rpc error: code = NotFound desc = manifest unknown"])
            concl = "The pods can't pull the image — that tag doesn't exist in the registry. Probably the CI publish step didn't run for the rc."
            q = f"why new {svc} pods are stuck"
        elif typ == "ratelimit":
            v = self.uniq(lambda: f"X-RateLimit-Limit: {self.ri(1001, 9999)}")
            ask = f"{self.ch(CUSTOMERS)} says they get 429s from us on {svc}, what limit do they actually have?"
            call = ("http_get", {"url": f"https://api.{self.co}.io/v1/{svc}/ping", "headers": {"Authorization": "Bearer ${CUSTOMER_TOKEN}"}})
            out = lambda: (f"HTTP/2 429\ndate: {time.strftime('%a, %d %b %Y %H:%M:%S GMT', time.gmtime(self.t))}\ncontent-type: application/json\n{v}\nX-RateLimit-Remaining: 0\n"
                           f"X-RateLimit-Reset: {int(self.t) + 37}\nretry-after: 37\nx-request-id: {self.hx(32)}\n\n{{\"error\": \"rate_limited\", \"message\": \"Too many requests. Do not retry before the reset time.\"}}")
            concl = "Their key has a per-minute limit set on the account (header above), and they're hitting it. It's a plan setting, not a bug."
            q = f"the rate limit a customer actually has on {svc}"
        elif typ == "slowq":
            v = self.uniq(lambda: f"duration: {self.ri(2000, 90000)}.{self.ri(0, 999):03d} ms")
            ask = f"{svc} dashboard timing out, anything in the db logs?"
            call = ("shell", {"command": "grep -h 'duration:' /var/log/postgresql/postgresql-15-main.log | sort -t: -k5 -n | tail -40"})
            out = lambda: "\n".join(f"{self.day()} {self.hm(self.t - self.ri(10, 9000))}:{self.ri(10, 59)}.{self.ri(100, 999)} UTC [{self.ri(1000, 99999)}] app@{svc.replace('-', '_')} LOG:  duration: {self.ri(250, 1900)}.{self.ri(0, 999):03d} ms  statement: SELECT {self.ch(['*', 'count(*)', 'id, amount'])} FROM {self.ch(['invoices', 'ledger_entries', 'payouts'])} WHERE tenant_id = $1"
                                    for _ in range(self.ri(15, 60))) + f"\n{self.day()} {self.hm()}:02.881 UTC [{self.ri(1000, 99999)}] app@{svc.replace('-', '_')} LOG:  {v}  statement: SELECT * FROM ledger_entries WHERE created_at > now() - interval '90 days' ORDER BY amount"
            concl = "There's one query that dominates: a 90-day scan sorted by amount without an index. Everything else is under 2s."
            q = f"the slowest query behind the {svc} dashboard timeouts"
        elif typ == "hikari":
            v = self.uniq(lambda: f"{svc}-pool - Connection is not available, request timed out after {self.ri(3, 60) * 1000}ms")
            ask = f"{svc} returns 500s under load, why?"
            call = ("search_logs", {"service": svc, "query": "level:ERROR", "since": "2h"})
            out = lambda: self.logs(svc, self.size(2500, 8000), fmt="java", extra=[f"{self.day()} {self.hm()}:44,019 ERROR [http-nio-8080-exec-{self.ri(1, 200)}] c.z.hikari.pool.HikariPool - {v}."])
            concl = "The connection pool is exhausted under load, so requests time out waiting for a connection and surface as 500s."
            q = f"why {svc} returns 500s under load"
        else:
            host = f"ip-172-{self.ri(16, 31)}-{self.ri(0, 255)}-{self.ri(11, 254)}"
            v = self.uniq(lambda: f"{host} kernel: nf_conntrack: table full, dropping packet")
            ask = f"random connection timeouts from the {svc} nodes, can you look at the kernel logs?"
            call = ("shell", {"command": f"ssh {host} 'journalctl -k --since -2h | tail -200'"})
            out = lambda: "\n".join(f"{time.strftime('%b %d %H:%M:%S', time.gmtime(self.t - self.ri(10, 7000)))} {host} kernel: {self.ch(['IPv4: martian source', 'eth0: renamed from veth' + self.hx(7), 'TCP: request_sock_TCP: Possible SYN flooding on port 8080. Sending cookies.', 'EXT4-fs (nvme1n1): mounted filesystem with ordered data mode'])}"
                                    for _ in range(self.ri(20, 80))) + f"\n{time.strftime('%b %d %H:%M:%S', time.gmtime(self.t - 60))} {v}"
            concl = "The conntrack table on that node is full, so new connections get dropped. Raising nf_conntrack_max (or fewer connections) fixes it."
            q = f"the cause of the {svc} connection timeouts"

        def render(ep: Ep) -> None:
            ep.user(ask)
            ep.run(self.ch([None, "Checking.", "Let me look."]), [(call[0], call[1], out())])
            ep.say(concl)
        return Spec("finding", v, q, render)

    # ------------------------------------------------------------ plans
    def plan_specs(self, count: int) -> list[Spec]:
        return [self.redraw(lambda i=i: self.f_plan(i)) for i in range(count)]

    def f_plan(self, i: int) -> Spec:
        svc = self.fsvc()
        makers = [
            (lambda: f"drain ip-172-{self.ri(16, 31)}-{self.ri(0, 255)}-{self.ri(11, 254)} and bump the kernel to 5.15.0-{self.ri(1000, 1100)}-aws",
             "which node gets drained and which kernel it moves to"),
            (lambda: f"snapshot vol-0{self.hx(16)} before touching the disk", "which volume is snapshotted before the disk work"),
            (lambda: f"cut {self.ch([5, 10, 20, 25, 50])}% of {svc} traffic over to {self.fcluster()}", f"how much {svc} traffic moves, and to which cluster"),
            (lambda: f"restore {self.fdb()} from the {self.ri(0, 23):02d}:00 snapshot into a scratch instance", "which database is restored from which snapshot"),
            (lambda: f"rotate the {svc} credentials in Vault under secret/{svc}/{self.ch(['prod', 'prod-eu', 'live'])}", f"where the rotated {svc} credentials live in Vault"),
            (lambda: f"replay the dead-lettered {self.ch(TOPICS)} messages from offset {self.ri(10 ** 5, 10 ** 8)}", "which dead-lettered messages are replayed, from which offset"),
            (lambda: f"flip the {svc.replace('-', '_')}_{self.ch(['v2', 'fastpath', 'new_ledger'])} flag off for {self.ch(CUSTOMERS)}", "which feature flag is turned off, and for which customer"),
            (lambda: f"upgrade the {svc}-{self.ch(['general', 'memory', 'batch'])} node group to 1.{self.ri(28, 30)}.{self.ri(1, 12)}", "which node group is upgraded, to which version"),
            (lambda: f"move the {svc} cron from {self.ri(0, 11):02d}:00 to {self.ri(12, 23):02d}:30 UTC", f"the new schedule of the {svc} cron"),
            (lambda: f"re-run the {svc} backfill for {self.day(self.t - self.ri(5, 40) * 86400)} onwards", f"from which date the {svc} backfill is re-run"),
        ]
        make, desc = makers[i % len(makers)] if i < len(makers) else self.ch(makers)
        v = self.uniq(make)
        topic = self.ch([f"the {svc} migration", "tonight's maintenance", f"cleaning up after the {svc} incident", f"the {svc} upgrade"])
        fill = ["take a fresh backup", "run the smoke tests", "let the canary bake for an hour", "watch the error-rate dashboard for 15 minutes",
                "scale things back to normal", "check the alerts are quiet", "post an update in the ops channel",
                "ping support so they can update the customer", "write it up in the ticket"]

        def steps() -> list[str]:
            s = [fill[k] for k in sorted(self.r.sample(range(len(fill)), self.ri(2, 4)))]
            s.insert(self.ri(0, 1), v)
            return s

        def render(ep: Ep) -> None:
            s = steps()
            style = self.ri(0, 7)
            if style == 0:
                ep.user(f"how would you approach {topic}?")
                ep.say(f"First I'll {s[0]}, then {s[1]}, then {', then '.join(s[2:]) if len(s) > 2 else 'call it done'}. I'll check in between steps.")
            elif style == 1:
                ep.user(f"write me a plan for {topic}")
                ep.say("Plan:\n" + "\n".join(f"{k + 1}. {x}" for k, x in enumerate(s)) + "\n\nI'll stop and check with you after step 2.")
            elif style == 2:
                ep.user(f"plan for {topic}: {s[0]}; after that {s[1]}; if that holds, {'; '.join(s[2:]) or 'we are done'}.")
                ep.say(self.ch(["Sounds good. I'll start when you say go.", "OK, makes sense.", "👍 ready when you are."]))
            elif style == 3:
                ep.user(f"what order would you do {topic} in?")
                ep.say(f"Here's how I'd sequence it: {s[0]}. Once that's green, {s[1]}. Last, {', '.join(s[2:]) or 'close the ticket'}.")
            elif style == 4:
                ep.user(f"tomorrow morning I want to {s[0]}, then {s[1]} — and only then {' and '.join(s[2:]) or 'close it out'}. sound ok?")
                ep.say("Yes, that order works. The second step depends on the first, so no parallelism there.")
            elif style == 5:
                ep.user(f"can you lay out {topic} and track it?")
                ep.run(f"I'll go in this order: {', '.join(s)}.", [("update_plan", {"steps": [{"step": x, "status": "pending"} for x in s]}, "Plan updated.")])
                ep.say("Tracking it in the plan; I'll tick steps off as we go.")
            elif style == 6:
                ep.user(f"order of ops for {topic}: " + " ".join(f"({chr(97 + k)}) {x}" for k, x in enumerate(s)))
                ep.say("Got it.")
            else:
                ep.user(f"Plan für morgen: zuerst {s[0]}, dann {s[1]}, und zum Schluss {', '.join(s[2:]) or 'das Ticket schließen'}.")
                ep.say("OK, verstanden — I'll follow that order.")
        return Spec("plan", v, f"the plan step about {desc} ({topic})", render)

    # ================================================================ assembly
    def system_prompt(self) -> str:
        return (f"You are Harbor, the operations assistant for the {self.co.capitalize()} platform and support-engineering teams. "
                f"You work from the ops bastion (bastion-{self.ri(1, 4)}.{self.co}.internal) and help {self.user_name} and whoever is on call.\n\n"
                "Tools:\n"
                "- shell(command, cwd?, timeout?): run a shell command; stdout and stderr are returned, truncated at 20k characters.\n"
                "- kubectl(args, context?): run kubectl against a cluster context.\n"
                "- read_file(path) / write_file(path, content) / edit_file(path, old_string, new_string): files in the ops checkout (~/infra, ~/src).\n"
                "- search_logs(service, query, since, limit?): query the central log store.\n"
                "- http_get(url, headers?): GET an internal or public URL.\n"
                "- update_plan(steps): keep a visible checklist for longer tasks.\n\n"
                "Working agreement:\n"
                "- Investigate with read-only commands first and say what you found before you change anything.\n"
                "- Quote the exact error text when something fails.\n"
                "- Customer details stay in the ticket; don't paste tokens or personal data into chat.\n"
                "- Keep answers short unless asked for detail.\n\n"
                f"Environment: kube contexts {', '.join(NOISE_CLUSTERS)}; terraform runs from ~/infra/envs/<env>; ansible inventories in "
                f"~/infra/ansible/inventory; logs are retained for 30 days; the status page is https://status.{self.co}.io.")

    def commit(self, ep: Ep, owned: tuple[str, ...] = ()) -> int | None:
        """Append the episode if no reserved string leaks into it; returns its first index."""
        texts = [text_of(m) for m in ep.m]
        blob = "\x00".join(texts)
        for tok in self.used:
            if tok in blob and tok not in owned:
                return None
        base = len(self.msgs)
        self.msgs.extend(ep.m)
        self.texts.extend(texts)
        self.total += sum(len(t) for t in texts)
        self.pasted.extend((base + i, p) for i, p in ep.pasted)
        return base

    def first_index(self, base: int, count: int, value: str) -> int:
        for i in range(base, base + count):
            if value in self.texts[i]:
                return i
        raise AssertionError(f"value not planted: {value!r}")

    def noise(self, small_only: bool = False) -> None:
        deficit = TARGET_CHARS * (len(self.msgs) + 4) - self.total
        want_big = (not small_only) and self.r.random() < (0.93 if deficit > 0 else 0.08)
        pool = [name for name, big in self.NOISE if big == want_big or (not want_big and name in ("triage", "k8s", "paste", "ticket", "tests"))]
        if want_big:
            pool += ["paste", "paste", "runbook_noise", "ticket", "k8s", "triage"]
        for _ in range(50):
            name = self.ch(pool)
            ep = Ep(self)
            getattr(self, "ep_" + name)(ep, want_big)
            if self.commit(ep) is not None:
                self.t += self.ri(30, 900)
                return
        raise RuntimeError("noise keeps colliding with reserved values")

    def blob(self, size: int) -> tuple[str, str, str]:
        """(intro, pasted text, the agent's remark on it) for context a user pastes alongside something else."""
        kind = self.ch(["logs", "slack", "ticket", "json", "stack", "handoff", "logs"])
        svc = self.svc()
        if kind == "logs":
            return (self.ch([f"logs from {svc} earlier:", f"this is what {svc} was printing around then:", "log excerpt for context:"]), self.logs(svc, size),
                    f"On the {svc} logs: mostly upstream timeouts and the usual retries, nothing new.")
        if kind == "slack":
            return (self.ch(["context from the incident channel:", "pasting the thread so you have it:"]), self.slack_thread(size),
                    "Read the thread — it matches what we saw, nothing extra to do from it.")
        if kind == "ticket":
            return (self.ch(["the customer's ticket, for context:", "support forwarded this:"]), self.ticket(self.ch(CUSTOMERS), size),
                    "On the ticket: it's the same symptom as this morning's blip; I'd answer with the incident summary.")
        if kind == "json":
            return ("output of the jobs endpoint:", self.json_blob(size), "The jobs output shows a handful of failures, all transient.")
        if kind == "stack":
            return (f"and {svc} threw this:", "\n\n".join(self.stack() for _ in range(max(1, size // 1800))),
                    "The stack trace is a timeout talking to an upstream, not a bug in our code.")
        return ("last night's handoff notes:", self.handoff(size), "Handoff noted; nothing in it needs action from us right now.")

    def augment(self, ep: Ep) -> None:
        """Bundle a pasted blob into the episode's first user turn (before or after what the user says)."""
        users = [i for i, m in enumerate(ep.m) if m["role"] == "user"]
        if not users:
            return
        i = users[0]
        for _ in range(10):
            intro, blob, remark = self.blob(self.size(1500, 9000))
            if not any(u in blob for u in self.used):
                break
        else:
            return
        fence = self.r.random() < 0.5
        wrapped = intro + ("\n```\n" + blob + "\n```" if fence else "\n\n" + blob)
        text = ep.m[i]["content"]
        ep.m[i]["content"] = wrapped + "\n\n" + text if self.r.random() < 0.5 else text + "\n\n" + wrapped
        ep.pasted = [(j, p) for j, p in ep.pasted] + [(i, blob)]
        for m in ep.m[i + 1:]:
            if m["role"] == "assistant" and not m.get("tool_calls"):
                m["content"] = remark + " " + m["content"]
                break

    def emit(self, ev: Event) -> None:
        s = ev.spec
        render = {"plant": s.render, "stale": s.stale_render, "early": s.early_render, "resolve": s.resolve_render}[ev.role]
        owned = {"plant": (s.value, s.stale or "", s.early or ""), "stale": (s.stale or "",), "early": (s.early or "",), "resolve": ()}[ev.role]
        for _ in range(50):
            ep = Ep(self)
            render(ep)
            deficit = TARGET_CHARS * (len(self.msgs) + len(ep.m)) - self.total - sum(len(text_of(m)) for m in ep.m)
            if self.r.random() < (0.75 if deficit > 0 else 0.1):
                self.augment(ep)
            base = self.commit(ep, tuple(o for o in owned if o))
            if base is None:
                continue
            if ev.role == "plant":
                s.index = self.first_index(base, len(ep.m), s.value)
            elif ev.role == "stale":
                s.stale_index = self.first_index(base, len(ep.m), s.stale)
            elif ev.role == "resolve":
                s.resolved = next(base + i for i in range(len(ep.m) - 1, -1, -1) if ep.m[i]["role"] == "tool")
            self.t += self.ri(30, 900)
            return
        raise RuntimeError(f"could not place {ev.role} of {s.kind} {s.value!r}")

    def finish(self) -> None:
        """Pad to exactly n messages; the last one is a user turn."""
        rem = self.n - len(self.msgs)
        while rem > 0:
            for _ in range(50):
                ep = Ep(self)
                if rem == 1:
                    svc = self.svc()
                    ep.user(self.ch([f"ok, next: can you check whether the {self.ch(JOBS)} job ran last night?", f"next thing — {self.ask(svc)}",
                                     f"thanks. now can you look at the {svc} alerts from this morning?", "cool. what's left on the list?",
                                     f"ok moving on: plan {self.ch(['vpc', 'rds', 'alb'])} in staging please"]))
                elif rem == 2:
                    ep.user(self.ch(["ok", "hmm", "one sec", "wait"]))
                elif rem >= 6 and rem % 2 == 0:
                    svc = self.svc()
                    ep.user(f"quick health check on {svc} and {self.svc()}?")
                    ep.run(None, [("http_get", {"url": f"https://{svc}.internal.{self.co}.io/healthz"}, '{"status": "ok"}'),
                                  ("kubectl", {"args": f"get deploy {svc} -n {self.ns()}", "context": self.cluster()},
                                   f"NAME{' ' * 20}READY   UP-TO-DATE   AVAILABLE   AGE\n{svc:<24}{self.ri(2, 9)}/9     9            9           {self.ri(2, 90)}d")])
                    ep.say("Both healthy.")
                elif rem >= 5:
                    self.ep_http(ep, False)
                else:
                    self.ep_short(ep, False)
                if self.commit(ep) is not None:
                    break
            else:
                raise RuntimeError("filler keeps colliding")
            rem = self.n - len(self.msgs)

    def redraw(self, make: Callable[[], Spec]) -> Spec:
        """Build a spec, drawing its entities again when its value clashes with a reserved one."""
        for _ in range(30):
            try:
                return make()
            except Clash:
                continue
        raise RuntimeError("fact templates exhausted")

    def schedule(self) -> tuple[list[Spec], list[Event]]:
        per = max(6, self.n // 250)
        makers = {"instruction": self.instruction_specs, "correction": self.correction_specs, "error": self.error_specs, "file": self.file_specs,
                  "decision": self.decision_specs, "identifier": self.identifier_specs, "finding": self.finding_specs, "plan": self.plan_specs}
        specs: list[Spec] = []
        events: list[Event] = []
        seq = 0
        for kind in KINDS:
            ks = makers[kind](per)
            self.r.shuffle(ks)
            for i, s in enumerate(ks):
                lo, hi = BANDS[i % 3]
                pos = int(self.n * self.r.uniform(lo, hi))
                specs.append(s)
                events.append(Event(pos, seq := seq + 1, "plant", s))
                if s.stale is not None:
                    gap = self.ri(50, 300) if i % 3 else self.ri(3, 25)
                    events.append(Event(max(2, pos - gap), seq := seq + 1, "stale", s))
                if s.early is not None:
                    events.append(Event(max(2, pos - self.ri(8, 150)), seq := seq + 1, "early", s))
                if s.resolve_render is not None:
                    events.append(Event(min(int(self.n * 0.93), pos + self.ri(4, 120)), seq := seq + 1, "resolve", s))
        events.sort()
        # a prerequisite (stale / early statement) must come before its plant, a resolution after it
        order = {id(e): k for k, e in enumerate(events)}
        for e in events:
            if e.role in ("stale", "early"):
                plant = next(x for x in events if x.spec is e.spec and x.role == "plant")
                assert order[id(e)] < order[id(plant)]
        return specs, events

    def build(self) -> Session:
        self.msgs.append({"role": "system", "content": self.system_prompt()})
        self.texts.append(text_of(self.msgs[0]))
        self.total += len(self.texts[0])
        specs, events = self.schedule()
        # the system prompt must not leak reserved strings either
        assert not any(u in self.texts[0] for u in self.used)
        pending = list(events)
        done_plants: set[int] = set()
        while pending or self.n - len(self.msgs) > 16:
            # catch up when the facts still to plant need the room left before the recent tail
            behind = 4.5 * sum(e.role != "resolve" for e in pending) >= int(0.87 * self.n) - len(self.msgs)
            if pending and (pending[0].pos <= len(self.msgs) or behind or self.n - len(self.msgs) <= 16):
                ev = pending.pop(0)
                if ev.role == "resolve" and id(ev.spec) not in done_plants:
                    pending.insert(1, ev)
                    continue
                self.emit(ev)
                if ev.role == "plant":
                    done_plants.add(id(ev.spec))
            else:
                self.noise(small_only=bool(pending) and pending[0].pos - len(self.msgs) < 3)
        if len(self.msgs) > self.n - 1:
            raise RuntimeError(f"{self.n} messages are too few for {len(specs)} facts")
        self.finish()
        facts = [Fact(kind=s.kind, value=s.value, index=s.index, query=s.query, stale=s.stale, stale_index=s.stale_index,
                      resolved=s.resolved) for s in sorted(specs, key=lambda s: s.index)]
        return Session(messages=self.msgs, facts=facts, seed=self.seed, pasted=self.pasted)


def make_session(seed: int, messages: int) -> Session:
    """An ops / support-escalation session of exactly ``messages`` messages with planted facts."""
    if messages < 250:
        raise ValueError("gen_ops needs at least 250 messages (48 planted facts before the last 10%)")
    return Gen(seed, messages).build()


# ==================================================================== self-check
def check(session: Session, n: int) -> list[str]:
    problems: list[str] = []
    msgs = session.messages
    texts = [text_of(m) for m in msgs]
    if len(msgs) != n:
        problems.append(f"{len(msgs)} messages, wanted {n}")
    if msgs[0]["role"] != "system" or msgs[-1]["role"] != "user":
        problems.append("must start with system and end on a user turn")
    starts, pos = [], 0
    for t in texts:
        starts.append(pos)
        pos += len(t) + 1
    full = "\x00".join(texts)

    def where(value: str) -> int:
        p = full.find(value)
        if p < 0:
            return -1
        lo, hi = 0, len(starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if starts[mid] <= p:
                lo = mid
            else:
                hi = mid - 1
        return lo

    values = [f.value for f in session.facts]
    if len(set(values)) != len(values):
        problems.append("duplicate fact values")
    for f in session.facts:
        if f.value not in texts[f.index]:
            problems.append(f"{f.kind} {f.value!r} not in message {f.index}")
        first = where(f.value)
        if first != f.index:
            problems.append(f"{f.kind} {f.value!r} first occurs at {first}, planted at {f.index}")
        if f.index >= int(0.9 * n):
            problems.append(f"{f.kind} {f.value!r} at {f.index} is in the last 10%")
        if f.value in f.query:
            problems.append(f"query gives away {f.value!r}")
        if f.kind == "correction":
            if f.stale is None or f.stale_index is None or f.stale not in texts[f.stale_index] or f.stale_index >= f.index:
                problems.append(f"bad correction {f}")
            elif where(f.stale) != f.stale_index:
                problems.append(f"stale {f.stale!r} occurs before {f.stale_index}")
        if f.resolved is not None and not (f.index < f.resolved < n and msgs[f.resolved]["role"] == "tool"):
            problems.append(f"bad resolution {f}")
    for i, p in session.pasted:
        if msgs[i]["role"] != "user" or p not in msgs[i]["content"]:
            problems.append(f"pasted span not in user message {i}")
    open_calls: dict[str, int] = {}
    for i, m in enumerate(msgs):
        if m["role"] == "assistant":
            if open_calls:
                problems.append(f"unanswered tool calls before {i}")
                open_calls = {}
            for c in m.get("tool_calls") or []:
                json.loads(c["function"]["arguments"])
                open_calls[c["id"]] = i
        elif m["role"] == "tool":
            if m["tool_call_id"] not in open_calls:
                problems.append(f"tool result {i} answers no open call")
            open_calls.pop(m["tool_call_id"], None)
        else:
            if open_calls:
                problems.append(f"unanswered tool calls before {i}")
                open_calls = {}
    return problems


if __name__ == "__main__":
    failed = False
    for size in (400, 3000):
        for seed in (1, 2, 3):
            t0 = time.perf_counter()
            s = make_session(seed, size)
            dt = time.perf_counter() - t0
            problems = check(s, size)
            again = make_session(seed, size)
            if json.dumps(again.messages) != json.dumps(s.messages) or again.facts != s.facts or again.pasted != s.pasted:
                problems.append("not deterministic")
            if size == 3000 and dt > 5:
                problems.append(f"took {dt:.1f}s")
            counts: dict[str, int] = {}
            for f in s.facts:
                counts[f.kind] = counts.get(f.kind, 0) + 1
            chars = s.chars()
            print(f"seed={seed} messages={size}: {chars // 4:,} tokens ({chars / size:.0f} chars/msg), {dt:.2f}s, "
                  f"pasted={len(s.pasted)}, facts={len(s.facts)} " + " ".join(f"{k}={counts.get(k, 0)}" for k in KINDS))
            for p in problems[:20]:
                print("  PROBLEM:", p)
            failed |= bool(problems)
    sys.exit(1 if failed else 0)
