"""Long sessions of a backend developer and a coding agent on a Tokyo food-delivery company's Go microservices.

    from gen_goservice import make_session
    session = make_session(seed=1, messages=400)     # about 600k characters, 6 facts of each kind
    session = make_session(seed=1, messages=3000)    # about 4.7M characters, 12 facts of each kind
    for fact in session.facts:
        print(fact.kind, fact.index, fact.value, "<-", fact.query)

The developer (Japanese, writing in Japanese and English, often curt: "おk", "go", "ちょっと待って") works with
the agent on the ``tabemaru`` services (order-api, dispatch, courier-location, payment-gw, ...). ``session.messages``
is an OpenAI chat conversation: a system prompt, user turns, assistant ``tool_calls`` to the tools in ``TOOLS``
answered at once by ``tool`` messages, and it ends on a user turn after an answer without calls. Most characters are
tool output: ``go test -v`` runs with subtests and zap JSON logs, ``go build``/``go vet`` and escape analysis,
numbered Go/YAML/SQL/proto dumps, ``kubectl`` tables and ``describe`` output, ``grpcurl`` JSON, ``psql`` tables and
EXPLAIN plans, ``git log``/``diff``, golangci-lint, goose, pprof top tables, govulncheck, Datadog monitors.

``session.facts`` (:class:`sessiongen.Fact`) are what a compacted context must keep: standing rules (some in
Japanese, some conditional, some adopted from a pasted review in the user's own words), corrections (loose, often a
near miss of the old value, several far from it), decisions (a third revise the user's own earlier choice), whole
error lines of a tool's output (some resolved by a later passing run), files written by one call, identifiers said
or printed, findings and plans. ``session.pasted`` lists what the user pasted (PR reviews, a postmortem, the payment
partner's spec, a Jira ticket, a govulncheck/Trivy report, an on-call Slack thread): their imperatives are not the
user's. Same seed and size, same bytes; only ``random.Random(seed)`` is used.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sessiongen import Fact, Message, Session, text_of

KINDS = ("instruction", "correction", "decision", "error", "file", "identifier", "finding", "plan")
TOOLS = ("go_build", "go_test", "read_file", "edit_file", "write_file", "kubectl", "grpcurl", "psql", "git", "shell")
MIN_MESSAGES = 60
CHARS_PER_MESSAGE = 1560  # 400 messages ~ 624k characters, 3000 ~ 4.7M
AFTER = 8  # messages after a fact's own that may repeat its value
JA_CHARS = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")

# --- the world (filler vocabulary: none of the fact-only words below may occur in it) ---------------------------

MOD = "github.com/tabemaru"
SVCS = ("order-api", "dispatch", "courier-location", "payment-gw", "menu-catalog", "notify", "eta-svc")
PKGS = ("order", "dispatch", "assign", "courier", "payment", "menu", "eta", "notify", "cart", "quote", "store",
        "httpx", "grpcx", "outbox")
FILES = ("handler", "service", "repo", "matcher", "retry", "client", "server", "models", "config", "metrics",
         "middleware", "worker", "mapper", "validate", "queries.sql")
ENTITIES = ("Order", "Courier", "Delivery", "Restaurant", "MenuItem", "Payment", "Refund", "Zone", "Cart", "Quote")
TABLES = ("orders", "order_items", "couriers", "deliveries", "restaurants", "menu_items", "payments", "outbox_events",
          "courier_positions", "zones", "refunds")
TESTS = ("TestAssign_NearestCourier", "TestQuote_DeliveryFee", "TestCart_Merge", "TestOrder_Create",
         "TestOrder_Cancel", "TestRetry_Backoff", "TestETA_Predict", "TestNotify_Push", "TestOutbox_Relay",
         "TestMenu_Availability", "TestPayment_Capture", "TestPayment_Refund", "TestHandler_Status",
         "TestRepo_ListByZone", "TestMatcher_Score", "TestServer_Health", "TestMapper_ToProto")
SUBTESTS = ("shibuya", "shinjuku_rush_hour", "empty_cart", "expired_token", "duplicate_request", "no_couriers",
            "late_night", "meguro_small_zone", "cash_on_delivery", "coupon_applied", "cancelled_by_store")
ZONES = ("shibuya", "shinjuku", "meguro", "setagaya", "minato", "shinagawa", "nakano", "toshima")
PEOPLE = ("佐藤", "田中", "中村", "鈴木", "高橋", "伊藤", "渡辺", "小林")
PEOPLE_EN = ("Sato", "Tanaka", "Nakamura", "Suzuki", "Takahashi", "Ito", "Watanabe", "Kobayashi", "Mika", "Ryo")
METHODS = ("CreateOrder", "GetOrder", "CancelOrder", "AssignCourier", "ListCouriers", "QuoteFee", "GetETA",
           "CapturePayment", "RefundPayment", "UpdateMenu", "SendPush")
CTXS = ("tbm-stg-tokyo", "tbm-prod-tokyo", "tbm-dev")
LEVELS = ("info", "info", "info", "debug", "warn", "error")
MSGS = ("courier assigned", "order created", "quote computed", "payment captured", "push sent", "eta updated",
        "outbox relayed batch", "retrying request", "menu cache refreshed", "order status changed",
        "slow query", "grpc request finished", "context canceled by client", "position ingested")

# fact-only words: feature codenames and names nobody says in the filler
FW = ("handoff", "surge", "kitchen", "rainmode", "geofence", "waitlist", "cutoff", "tiebreak", "bento", "heatmap",
      "prepbuf", "slotting", "lantern", "sakura", "matcha", "origami", "ferry", "yatai", "onigiri", "kaiten")
FT = ("Handoff", "Surge", "Kitchen", "RainMode", "Geofence", "Waitlist", "Cutoff", "Tiebreak", "Bento", "Heatmap",
      "PrepBuf", "Slotting", "Lantern", "Sakura", "Matcha", "Origami", "Ferry", "Yatai", "Onigiri", "Kaiten")
FVERB = ("scanRing", "pickWinner", "mergeSlots", "rebuildTiles", "drainQueue", "scoreBatch", "expandCells",
         "splitBundle", "settleLedger", "walkGraph", "foldWindow", "rankRiders")
B32 = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
ALNUM = "abcdefghijkmnopqrstuvwxyz23456789"
POD = "bcdfghjklmnpqrstvwxz2456789"


def per_kind(messages: int) -> int:
    """How many facts of each kind a session of ``messages`` holds: 1 at 60, 6 at 400, 12 at 3000, linear between
    and beyond."""
    if messages <= 400:
        return max(1, 1 + int((messages - 60) * 5 / 340 + 0.5))
    return 6 + int((messages - 400) * 6 / 2600 + 0.5)


# --- small helpers ------------------------------------------------------------------------------------------------

def _hex(rng: random.Random, n: int) -> str:
    return f"{rng.getrandbits(4 * n):0{n}x}"


def _pick(rng: random.Random, s: str, n: int) -> str:
    return "".join(rng.choices(s, k=n))


def _clock(rng: random.Random) -> str:
    return f"{rng.randint(9, 23):02d}:{rng.randint(0, 59):02d}"


def _ts(rng: random.Random) -> str:
    return (f"2024-06-{rng.randint(3, 28):02d}T{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:"
            f"{rng.randint(0, 59):02d}.{rng.randint(0, 999):03d}+0900")


def _near(rng: random.Random, value: str) -> str:
    """A near miss of ``value``: one or two of its digits changed (or two adjacent swapped)."""
    digits = [i for i, ch in enumerate(value) if ch.isdigit()]
    chars = list(value)
    for _ in range(10):
        chars = list(value)
        if len(digits) >= 2 and rng.random() < 0.5:
            i = rng.choice(digits[:-1])
            if i + 1 in digits and chars[i] != chars[i + 1]:
                chars[i], chars[i + 1] = chars[i + 1], chars[i]
        if "".join(chars) == value:
            i = rng.choice(digits)
            chars[i] = rng.choice([d for d in "0123456789" if d != value[i]])
        out = "".join(chars)
        if out != value:
            return out
    return value[:-1] + ("1" if value[-1] != "1" else "2")


def _numbered(lines: list[str], start: int) -> str:
    return "\n".join(f"{start + i:>5}\t{line}" for i, line in enumerate(lines))


# --- precomputed Go source (no randomness: a fixed corpus the sessions draw from) --------------------------------

def _go_snippets() -> list[list[str]]:
    out: list[list[str]] = []
    for e in ENTITIES:
        low = e[0].lower() + e[1:]
        tbl = TABLES[len(e) % len(TABLES)]
        out.append([
            f"// Get{e} loads one {low} by id; it returns Err{e}NotFound when the row is missing.",
            f"func (r *Repo) Get{e}(ctx context.Context, id string) (*{e}, error) {{",
            f"\trow, err := r.q.Get{e}(ctx, id)",
            "\tif errors.Is(err, pgx.ErrNoRows) {",
            f"\t\treturn nil, Err{e}NotFound",
            "\t}",
            "\tif err != nil {",
            f"\t\treturn nil, fmt.Errorf(\"get {low} %s: %w\", id, err)",
            "\t}",
            f"\treturn to{e}(row), nil",
            "}",
            "",
        ])
        out.append([
            f"func (s *Service) Update{e}Status(ctx context.Context, id string, st Status) error {{",
            "\tctx, span := tracer.Start(ctx, \"" + low + ".update_status\")",
            "\tdefer span.End()",
            "\ttx, err := s.pool.Begin(ctx)",
            "\tif err != nil {",
            "\t\treturn err",
            "\t}",
            "\tdefer func() { _ = tx.Rollback(ctx) }()",
            f"\tif err := s.q.WithTx(tx).Set{e}Status(ctx, db.Set{e}StatusParams{{ID: id, Status: string(st)}}); err != nil {{",
            f"\t\ts.log.Error(\"update {low} status\", zap.String(\"id\", id), zap.Error(err))",
            "\t\treturn err",
            "\t}",
            f"\tif err := s.outbox.Put(ctx, tx, \"{low}.status_changed\", id); err != nil {{",
            "\t\treturn fmt.Errorf(\"outbox: %w\", err)",
            "\t}",
            "\treturn tx.Commit(ctx)",
            "}",
            "",
        ])
        out.append([
            f"type {e} struct {{",
            "\tID        string    `json:\"id\"`",
            "\tZone      string    `json:\"zone\"`",
            "\tStatus    Status    `json:\"status\"`",
            "\tAmountJPY int64     `json:\"amount_jpy,omitempty\"`",
            "\tCreatedAt time.Time `json:\"created_at\"`",
            "\tUpdatedAt time.Time `json:\"updated_at\"`",
            "}",
            "",
            f"func (h *Handler) handle{e}(w http.ResponseWriter, r *http.Request) {{",
            "\tctx := r.Context()",
            "\tid := chi.URLParam(r, \"id\")",
            f"\tv, err := h.svc.Get{e}(ctx, id)",
            "\tswitch {",
            f"\tcase errors.Is(err, Err{e}NotFound):",
            "\t\thttpx.Error(w, http.StatusNotFound, \"not found\")",
            "\t\treturn",
            "\tcase err != nil:",
            f"\t\th.log.Error(\"get {low}\", zap.Error(err))",
            "\t\thttpx.Error(w, http.StatusInternalServerError, \"internal\")",
            "\t\treturn",
            "\t}",
            "\thttpx.JSON(w, http.StatusOK, v)",
            "}",
            "",
        ])
        out.append([
            f"func (s *server) {METHODS[len(e) % len(METHODS)]}(ctx context.Context, req *pb.{e}Request) (*pb.{e}Response, error) {{",
            "\tif err := req.ValidateAll(); err != nil {",
            "\t\treturn nil, status.Error(codes.InvalidArgument, err.Error())",
            "\t}",
            "\tctx, cancel := context.WithTimeout(ctx, s.cfg.UpstreamTimeout)",
            "\tdefer cancel()",
            f"\tout, err := s.svc.Handle{e}(ctx, fromProto(req))",
            "\tif err != nil {",
            "\t\treturn nil, grpcx.ToStatus(err)",
            "\t}",
            f"\tmetrics.Requests.WithLabelValues(\"{low}\", \"ok\").Inc()",
            "\treturn toProto(out), nil",
            "}",
            "",
        ])
        out.append([
            f"const list{e}s = `-- name: List{e}s :many",
            f"SELECT id, zone, status, created_at FROM {tbl}",
            "WHERE zone = $1 AND created_at > $2",
            "ORDER BY created_at DESC, id DESC",
            "LIMIT $3`",
            "",
            f"func (q *Queries) List{e}s(ctx context.Context, arg List{e}sParams) ([]{e}Row, error) {{",
            f"\trows, err := q.db.Query(ctx, list{e}s, arg.Zone, arg.Since, arg.Limit)",
            "\tif err != nil {",
            "\t\treturn nil, err",
            "\t}",
            "\tdefer rows.Close()",
            f"\tvar items []{e}Row",
            "\tfor rows.Next() {",
            f"\t\tvar i {e}Row",
            "\t\tif err := rows.Scan(&i.ID, &i.Zone, &i.Status, &i.CreatedAt); err != nil {",
            "\t\t\treturn nil, err",
            "\t\t}",
            "\t\titems = append(items, i)",
            "\t}",
            "\treturn items, rows.Err()",
            "}",
            "",
        ])
        out.append([
            f"func Test{e}_RoundTrip(t *testing.T) {{",
            "\tt.Parallel()",
            "\ttests := []struct {",
            "\t\tname    string",
            "\t\tzone    string",
            "\t\twantErr bool",
            "\t}{",
            "\t\t{name: \"shibuya\", zone: \"shibuya\"},",
            "\t\t{name: \"unknown_zone\", zone: \"atlantis\", wantErr: true},",
            "\t}",
            "\tfor _, tt := range tests {",
            "\t\tt.Run(tt.name, func(t *testing.T) {",
            f"\t\t\tgot, err := newFixture(t).svc.Create{e}(context.Background(), tt.zone)",
            "\t\t\tif (err != nil) != tt.wantErr {",
            "\t\t\t\tt.Fatalf(\"err = %v, wantErr %v\", err, tt.wantErr)",
            "\t\t\t}",
            "\t\t\t_ = got",
            "\t\t})",
            "\t}",
            "}",
            "",
        ])
    return out


GO = _go_snippets()
GO_HEAD = ["package {pkg}", "", "import (", "\t\"context\"", "\t\"errors\"", "\t\"fmt\"", "\t\"net/http\"", "\t\"time\"", "",
           "\t\"github.com/go-chi/chi/v5\"", "\t\"github.com/jackc/pgx/v5\"", "\t\"go.uber.org/zap\"",
           "\t\"google.golang.org/grpc/codes\"", "\t\"google.golang.org/grpc/status\"", ")", ""]
YAML = ["apiVersion: apps/v1", "kind: Deployment", "metadata:", "  name: {svc}", "  namespace: {svc}", "  labels:",
        "    app: {svc}", "    team: delivery-platform", "spec:", "  replicas: 6", "  revisionHistoryLimit: 5",
        "  selector:", "    matchLabels:", "      app: {svc}", "  template:", "    metadata:", "      labels:",
        "        app: {svc}", "      annotations:", "        ad.datadoghq.com/{svc}.logs: '[{{\"source\":\"go\"}}]'",
        "    spec:", "      serviceAccountName: {svc}", "      containers:", "        - name: {svc}",
        "          image: asia-northeast1-docker.pkg.dev/tabemaru/svc/{svc}:v1.42.0", "          ports:",
        "            - containerPort: 8080", "              name: http", "            - containerPort: 9090",
        "              name: grpc", "          env:", "            - name: GOMAXPROCS", "              valueFrom:",
        "                resourceFieldRef:", "                  resource: limits.cpu", "            - name: DB_DSN",
        "              valueFrom:", "                secretKeyRef:", "                  name: {svc}-db",
        "                  key: dsn", "          resources:", "            requests:", "              cpu: 500m",
        "              memory: 256Mi", "            limits:", "              cpu: '1'", "              memory: 512Mi",
        "          readinessProbe:", "            httpGet:", "              path: /healthz", "              port: 8080",
        "            periodSeconds: 5", "          livenessProbe:", "            grpc:", "              port: 9090",
        "            initialDelaySeconds: 10", ""]
SQL = ["-- +goose Up", "-- +goose StatementBegin", "ALTER TABLE {tbl} ADD COLUMN IF NOT EXISTS updated_by text;",
       "CREATE INDEX CONCURRENTLY IF NOT EXISTS {tbl}_zone_created_idx ON {tbl} (zone, created_at DESC);",
       "-- +goose StatementEnd", "", "-- +goose Down", "-- +goose StatementBegin",
       "DROP INDEX IF EXISTS {tbl}_zone_created_idx;", "ALTER TABLE {tbl} DROP COLUMN IF EXISTS updated_by;",
       "-- +goose StatementEnd", ""]
PROTO = ["syntax = \"proto3\";", "", "package {pkg}.v1;", "",
         "option go_package = \"github.com/tabemaru/proto/gen/go/{pkg}/v1;{pkg}v1\";", "",
         "import \"google/protobuf/timestamp.proto\";", "", "service {Svc}Service {{",
         "  rpc Get{Ent}(Get{Ent}Request) returns (Get{Ent}Response);",
         "  rpc List{Ent}s(List{Ent}sRequest) returns (List{Ent}sResponse);", "}}", "", "message Get{Ent}Request {{",
         "  string id = 1;", "}}", "", "message {Ent} {{", "  string id = 1;", "  string zone = 2;",
         "  Status status = 3;", "  int64 amount_jpy = 4;", "  google.protobuf.Timestamp created_at = 5;",
         "  reserved 6, 7;", "  reserved \"legacy_area\";", "}}", "", "enum Status {{", "  STATUS_UNSPECIFIED = 0;",
         "  STATUS_PENDING = 1;", "  STATUS_ASSIGNED = 2;", "  STATUS_DELIVERED = 3;", "  STATUS_CANCELLED = 4;",
         "}}", ""]


# --- filler tool output ---------------------------------------------------------------------------------------------

class _Out:
    """Filler tool calls and their results, each sized to about ``want`` characters."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    # building blocks
    def svc(self) -> str:
        return self.rng.choice(SVCS)

    def path(self, svc: str | None = None, test: bool = False) -> str:
        r = self.rng
        name = r.choice(FILES)
        return f"services/{svc or self.svc()}/internal/{r.choice(PKGS)}/{name}{'_test' if test else ''}.go"

    def zap_line(self) -> str:
        r = self.rng
        lvl = r.choice(LEVELS)
        d: dict[str, Any] = {"level": lvl, "ts": _ts(r), "caller": f"{r.choice(PKGS)}/{r.choice(FILES)}.go:{r.randint(20, 480)}",
                             "msg": r.choice(MSGS), "zone": r.choice(ZONES)}
        k = r.random()
        if k < 0.5:
            d["order_id"] = f"ord_{r.randint(10_000_000, 99_999_999)}"
        if k > 0.3:
            d["courier_id"] = f"cr-{r.randint(1000, 9999)}"
        d["latency_ms"] = r.randint(2, 900)
        d["trace_id"] = _hex(r, 32)
        if lvl in ("warn", "error"):
            d["error"] = r.choice(("context deadline exceeded", "rpc error: code = Unavailable desc = connection refused",
                                   "failed to connect to `host=pg-primary.orders user=order_api`: dial error",
                                   "redis: connection pool timeout", "conn busy", "ERROR: canceling statement due to statement timeout (SQLSTATE 57014)"))
        return json.dumps(d, ensure_ascii=False, separators=(",", ":"))

    def go_code(self, want: int) -> list[str]:
        r = self.rng
        lines: list[str] = [x.replace("{pkg}", r.choice(PKGS)) for x in GO_HEAD]
        size = 0
        while size < want:
            snip = r.choice(GO)
            lines.extend(snip)
            size += sum(len(x) + 7 for x in snip)
        return lines

    # tools
    def go_test(self, want: int) -> tuple[dict[str, Any], str]:
        r = self.rng
        svc, pkg = self.svc(), r.choice(PKGS)
        args = {"dir": f"services/{svc}", "packages": f"./internal/{pkg}/...", "flags": "-count=1 -race -v"}
        out: list[str] = []
        size = 0
        fail = r.random() < 0.2
        pkgs = [pkg] + [p for p in r.sample(PKGS, 3) if p != pkg]
        for p in pkgs:
            for t in r.sample(TESTS, r.randint(3, 7)):
                out.append(f"=== RUN   {t}")
                subs = r.sample(SUBTESTS, r.randint(0, 4))
                for s in subs:
                    out.append(f"=== RUN   {t}/{s}")
                    if r.random() < 0.5:
                        out.append(f"    {r.choice(FILES)}_test.go:{r.randint(20, 400)}: {r.choice(MSGS)} zone={r.choice(ZONES)} took={r.randint(1, 90)}ms")
                for _ in range(r.randint(0, 3)):
                    out.append(self.zap_line())
                for s in subs:
                    out.append(f"    --- PASS: {t}/{s} (0.{r.randint(0, 9):d}{r.randint(0, 9)}s)")
                out.append(f"--- PASS: {t} (0.{r.randint(0, 30):02d}s)")
                size = sum(len(x) for x in out)
                if size > want:
                    break
            if fail and p == pkg:
                t = r.choice(TESTS)
                out += [f"--- FAIL: {t} (0.{r.randint(1, 40):02d}s)",
                        f"    {r.choice(FILES)}_test.go:{r.randint(30, 300)}: got status {r.choice([409, 500, 503])}, want 200",
                        "FAIL", f"FAIL\t{MOD}/{svc}/internal/{p}\t{r.uniform(0.2, 3):.3f}s"]
            else:
                out += ["PASS", f"ok  \t{MOD}/{svc}/internal/{p}\t{r.uniform(0.05, 4):.3f}s\tcoverage: {r.uniform(40, 92):.1f}% of statements"]
            size = sum(len(x) for x in out)
            if size > want:
                break
        if fail:
            out.append("FAIL")
        return args, "\n".join(out)

    def go_build(self, want: int) -> tuple[dict[str, Any], str]:
        r = self.rng
        svc, pkg = self.svc(), r.choice(PKGS)
        mode = r.random()
        if want < 700 or mode < 0.25:
            cmd = r.choice(("go build ./...", "go vet ./...", "go build -o /tmp/bin/app ./cmd/server"))
            return {"dir": f"services/{svc}", "cmd": cmd}, r.choice(("(no output, exit 0)", "exit status 0",
                                                                    f"go: downloading github.com/jackc/pgx/v5 v5.5.4\n(exit 0, {r.uniform(3, 40):.1f}s)"))
        cmd = f"go build -gcflags=-m ./internal/{pkg}/..."
        out = [f"# {MOD}/{svc}/internal/{pkg}"]
        size = 0
        verbs = ("can inline", "inlining call to", "leaking param: ctx", "leaking param content: req",
                 "moved to heap: buf", "... argument does not escape", "&Order{...} escapes to heap",
                 "func literal does not escape", "make([]byte, 0, 4096) escapes to heap")
        while size < want:
            v = r.choice(verbs)
            tail = f" {r.choice(ENTITIES).lower()}Handler.ServeHTTP" if v.startswith(("can", "inl")) else ""
            line = f"./{r.choice(FILES)}.go:{r.randint(10, 600)}:{r.randint(2, 40)}: {v}{tail}"
            out.append(line)
            size += len(line) + 1
        return {"dir": f"services/{svc}", "cmd": cmd}, "\n".join(out)

    def read_file(self, want: int) -> tuple[dict[str, Any], str]:
        r = self.rng
        kind = r.random()
        svc = self.svc()
        if kind < 0.7:
            path = self.path(svc)
            lines = self.go_code(want)
        elif kind < 0.8:
            path = f"deploy/k8s/{svc}/deployment.yaml"
            lines = [x.replace("{svc}", svc) for x in YAML]
        elif kind < 0.9:
            tbl = r.choice(TABLES)
            path = f"services/{svc}/db/migrations/2024{r.randint(1, 5):02d}{r.randint(10, 28)}0{r.randint(10000, 99999)}_{tbl}_index.sql"
            lines = [x.replace("{tbl}", tbl) for x in SQL]
        else:
            pkg, ent = r.choice(PKGS), r.choice(ENTITIES)
            path = f"proto/{pkg}/v1/{pkg}.proto"
            lines = [x.format(pkg=pkg, Svc=pkg.capitalize(), Ent=ent) for x in PROTO]
        start = 1
        if len(lines) > 40 and r.random() < 0.4:
            start = r.randint(1, len(lines) // 2)
            lines = lines[start - 1:]
        return {"path": path}, _numbered(lines, start)

    def edit_file(self, want: int) -> tuple[dict[str, Any], str]:
        r = self.rng
        path = self.path()
        snip = r.choice(GO)
        a = r.randint(0, max(0, len(snip) - 4))
        old = "\n".join(snip[a:a + 3])
        new = old.replace("return err", "return fmt.Errorf(\"%w\", err)") if "return err" in old else old + "\n\t// checked"
        line = r.randint(20, 400)
        ctx = snip[: max(4, min(len(snip), want // 60))]
        res = (f"The file {path} has been updated (1 replacement at line {line}). Context after the edit:\n"
               + _numbered(ctx, line - 2))
        return {"path": path, "old_string": old, "new_string": new}, res

    def write_file(self, want: int) -> tuple[dict[str, Any], str]:
        path = self.path(test=True)
        lines = self.go_code(min(want, 2500))
        content = "\n".join(lines)
        return {"path": path, "content": content}, f"Wrote {len(lines)} lines ({len(content)} bytes) to {path}"

    def pod(self, svc: str) -> str:
        r = self.rng
        return f"{svc}-{_pick(r, POD, 9)}-{_pick(r, POD, 5)}"

    def kubectl(self, want: int) -> tuple[dict[str, Any], str]:
        r = self.rng
        svc = self.svc()
        ctx = r.choice(CTXS)
        mode = r.randrange(5)
        out: list[str] = []
        size = 0
        if mode == 0:
            cmd = f"get pods -n {svc} -o wide"
            out.append("NAME                                   READY   STATUS    RESTARTS      AGE    IP             NODE")
            while size < want:
                st = r.choice(("Running", "Running", "Running", "Running", "CrashLoopBackOff", "Pending", "Completed"))
                line = (f"{self.pod(svc):<38} {'1/1' if st == 'Running' else '0/1'}     {st:<9} {r.randint(0, 14):<13} "
                        f"{r.randint(1, 59)}{r.choice('mhd')}    10.4.{r.randint(0, 255)}.{r.randint(2, 254):<5} "
                        f"ip-10-0-{r.randint(1, 40)}-{r.randint(2, 254)}.ap-northeast-1.compute.internal")
                out.append(line)
                size += len(line)
        elif mode == 1:
            cmd = f"logs -n {svc} deploy/{svc} --since=15m --tail=400"
            while size < want:
                line = self.zap_line()
                out.append(line)
                size += len(line)
        elif mode == 2:
            pod = self.pod(svc)
            cmd = f"describe pod -n {svc} {pod}"
            out += [f"Name:             {pod}", f"Namespace:        {svc}", "Priority:         0",
                    f"Node:             ip-10-0-{r.randint(1, 40)}-{r.randint(2, 254)}.ap-northeast-1.compute.internal/10.0.{r.randint(1, 40)}.{r.randint(2, 254)}",
                    f"Start Time:       Tue, 11 Jun 2024 {_clock(r)}:{r.randint(10, 59)} +0900", f"Labels:           app={svc}",
                    "Status:           Running", "Containers:", f"  {svc}:",
                    f"    Image:          asia-northeast1-docker.pkg.dev/tabemaru/svc/{svc}:v1.{r.randint(30, 48)}.{r.randint(0, 9)}",
                    "    Ports:          8080/TCP, 9090/TCP", "    State:          Running",
                    "    Limits:", "      cpu:     1", "      memory:  512Mi", "    Requests:", "      cpu:        500m",
                    "      memory:     256Mi", "Events:", "  Type     Reason     Age   From     Message",
                    "  ----     ------     ----  ----     -------"]
            size = sum(len(x) for x in out)
            while size < want:
                line = r.choice((f"  Normal   Pulled     {r.randint(1, 59)}m   kubelet  Container image already present on machine",
                                 f"  Warning  Unhealthy  {r.randint(1, 59)}m   kubelet  Readiness probe failed: HTTP probe failed with statuscode: 503",
                                 f"  Normal   Started    {r.randint(1, 59)}m   kubelet  Started container {svc}",
                                 f"  Warning  BackOff    {r.randint(1, 59)}m   kubelet  Back-off restarting failed container"))
                out.append(line)
                size += len(line)
        elif mode == 3:
            cmd = f"get events -n {svc} --sort-by=.lastTimestamp"
            out.append("LAST SEEN   TYPE      REASON              OBJECT                                   MESSAGE")
            while size < want:
                line = (f"{r.randint(1, 59)}m         {r.choice(('Normal ', 'Warning'))}   "
                        f"{r.choice(('ScalingReplicaSet', 'Killing', 'Pulled', 'Unhealthy', 'SuccessfulCreate')):<19} "
                        f"pod/{self.pod(svc):<36} {r.choice(('Scaled up replica set', 'Stopping container', 'Readiness probe failed', 'Created pod'))}")
                out.append(line)
                size += len(line)
        else:
            cmd = f"top pods -n {svc}"
            out.append("NAME                                   CPU(cores)   MEMORY(bytes)")
            while size < want:
                line = f"{self.pod(svc):<38} {r.randint(3, 950)}m         {r.randint(40, 480)}Mi"
                out.append(line)
                size += len(line)
        return {"context": ctx, "args": cmd}, "\n".join(out)

    def grpcurl(self, want: int) -> tuple[dict[str, Any], str]:
        r = self.rng
        pkg, m = r.choice(("order", "dispatch", "eta", "payment", "menu")), r.choice(METHODS)
        port = r.choice((9090, 9091, 50051, 8443))
        body = {"zone": r.choice(ZONES), "page_size": r.choice((20, 50, 100))}
        cmd = f"-plaintext -d '{json.dumps(body)}' localhost:{port} {pkg}.v1.{pkg.capitalize()}Service/{m}"
        if r.random() < 0.1:
            return {"args": cmd}, "ERROR:\n  Code: Unavailable\n  Message: connection error: desc = \"transport: Error while dialing: dial tcp 127.0.0.1:" + str(port) + ": connect: connection refused\""
        items = []
        size = 0
        while size < want:
            it = {"id": f"ord_{r.randint(10_000_000, 99_999_999)}", "zone": r.choice(ZONES),
                  "status": r.choice(("STATUS_PENDING", "STATUS_ASSIGNED", "STATUS_DELIVERED")),
                  "amountJpy": str(r.randint(800, 9800)), "courierId": f"cr-{r.randint(1000, 9999)}",
                  "createdAt": _ts(r).replace("+0900", "Z")[:-1] + "Z", "etaSeconds": r.randint(300, 3600)}
            items.append(it)
            size += 220
        return {"args": cmd}, json.dumps({"items": items, "nextPageToken": _hex(r, 16)}, indent=2)

    def psql(self, want: int) -> tuple[dict[str, Any], str]:
        r = self.rng
        db = r.choice(("orders_stg", "dispatch_stg", "payments_stg", "orders_replica"))
        tbl = r.choice(TABLES)
        mode = r.random()
        out: list[str] = []
        size = 0
        if mode < 0.55:
            sql = f"SELECT id, zone, status, created_at, updated_at FROM {tbl} WHERE created_at > now() - interval '2 hours' ORDER BY created_at DESC LIMIT 200;"
            out += ["    id     |   zone    |  status   |          created_at           |          updated_at",
                    "-----------+-----------+-----------+-------------------------------+-------------------------------"]
            while size < want:
                t = f"2024-06-{r.randint(3, 28):02d} {r.randint(0, 23):02d}:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}.{r.randint(0, 999999):06d}+09"
                line = f" {r.randint(1_000_000, 9_999_999):>9} | {r.choice(ZONES):<9} | {r.choice(('pending', 'assigned', 'delivered', 'cancelled')):<9} | {t} | {t}"
                out.append(line)
                size += len(line)
            out.append(f"({len(out) - 2} rows)")
        elif mode < 0.85:
            sql = f"EXPLAIN (ANALYZE, BUFFERS) SELECT * FROM {tbl} WHERE zone = 'shibuya' AND status = 'pending' ORDER BY created_at LIMIT 50;"
            out.append("                                   QUERY PLAN")
            out.append("-" * 80)
            while size < want:
                line = r.choice((f"  ->  Index Scan using {tbl}_zone_created_idx on {tbl}  (cost=0.43..{r.uniform(10, 900):.2f} rows={r.randint(10, 5000)} width={r.randint(40, 200)}) (actual time=0.0{r.randint(10, 99)}..{r.uniform(0.1, 40):.3f} rows={r.randint(1, 500)} loops=1)",
                                 "        Index Cond: ((zone = 'shibuya'::text) AND (created_at > (now() - '02:00:00'::interval)))",
                                 f"        Buffers: shared hit={r.randint(10, 9000)} read={r.randint(0, 300)}",
                                 f"  ->  Sort  (cost={r.uniform(100, 900):.2f}..{r.uniform(900, 2000):.2f} rows=50 width=96) (actual time={r.uniform(1, 30):.3f}..{r.uniform(30, 60):.3f} rows=50 loops=1)",
                                 "        Sort Key: created_at", f"        Sort Method: top-N heapsort  Memory: {r.randint(25, 90)}kB"))
                out.append(line)
                size += len(line)
            out += [f"Planning Time: {r.uniform(0.05, 2):.3f} ms", f"Execution Time: {r.uniform(0.5, 80):.3f} ms"]
        else:
            sql = f"\\d+ {tbl}"
            out += [f"                                   Table \"public.{tbl}\"",
                    "   Column   |           Type           | Collation | Nullable |      Default      | Storage",
                    "------------+--------------------------+-----------+----------+-------------------+---------"]
            cols = ("id", "zone", "status", "amount_jpy", "courier_id", "restaurant_id", "created_at", "updated_at", "version")
            while size < want:
                for c in cols:
                    line = f" {c:<10} | {r.choice(('text', 'bigint', 'timestamp with time zone', 'integer')):<24} |           | not null | {r.choice(('', 'now()', '0')):<17} | plain"
                    out.append(line)
                    size += len(line)
                out += ["Indexes:", f"    \"{tbl}_pkey\" PRIMARY KEY, btree (id)", f"    \"{tbl}_zone_created_idx\" btree (zone, created_at DESC)"]
                size += 120
        return {"db": db, "sql": sql}, "\n".join(out)

    def git(self, want: int) -> tuple[dict[str, Any], str]:
        r = self.rng
        mode = r.random()
        out: list[str] = []
        size = 0
        if mode < 0.4:
            cmd = "log --oneline -n 40"
            while size < want:
                line = (f"{_hex(r, 7)} {r.choice(('fix', 'feat', 'chore', 'refactor', 'test'))}({r.choice(PKGS)}): "
                        f"{r.choice(('handle nil courier in matcher', 'bump golangci-lint', 'add zone index', 'retry on Unavailable', 'split quote service', 'log trace ids', 'drop legacy fee path', 'sqlc regenerate'))} (#{r.randint(1000, 9999)})")
                out.append(line)
                size += len(line)
        elif mode < 0.8:
            path = self.path()
            cmd = f"diff HEAD~1 -- {path}"
            out += [f"diff --git a/{path} b/{path}", f"index {_hex(r, 7)}..{_hex(r, 7)} 100644", f"--- a/{path}", f"+++ b/{path}"]
            while size < want:
                snip = r.choice(GO)
                a = r.randint(20, 400)
                out.append(f"@@ -{a},{len(snip)} +{a},{len(snip) + 1} @@")
                for i, line in enumerate(snip):
                    out.append(("-" if i == 3 else " ") + line)
                    if i == 3:
                        out.append("+" + line.replace("err", "wrapErr(err)"))
                size += sum(len(x) + 2 for x in snip)
        else:
            cmd = "status --short && git log -1 --stat"
            out += [f" M {self.path()}" for _ in range(r.randint(1, 5))]
            out += [f"commit {_hex(r, 40)}", f"Author: {r.choice(PEOPLE_EN)} <{r.choice(PEOPLE_EN).lower()}@tabemaru.jp>",
                    f"Date:   Tue Jun 11 {_clock(r)}:{r.randint(10, 59)} 2024 +0900", "",
                    "    fix(dispatch): release courier on cancel", ""]
            while size < want:
                line = f" {self.path():<60} | {r.randint(1, 80):>3} {'+' * r.randint(1, 20)}{'-' * r.randint(0, 9)}"
                out.append(line)
                size += len(line)
        return {"args": cmd}, "\n".join(out)

    def shell(self, want: int) -> tuple[dict[str, Any], str]:
        r = self.rng
        svc = self.svc()
        mode = r.randrange(6)
        out: list[str] = []
        size = 0
        if mode == 0:
            cmd = f"cd services/{svc} && golangci-lint run ./..."
            while size < want:
                f = f"internal/{r.choice(PKGS)}/{r.choice(FILES)}.go"
                line = r.choice((f"{f}:{r.randint(10, 500)}:{r.randint(2, 30)}: ineffectual assignment to err (ineffassign)",
                                 f"{f}:{r.randint(10, 500)}:{r.randint(2, 30)}: line is {r.randint(121, 190)} characters (lll)",
                                 f"{f}:{r.randint(10, 500)}:{r.randint(2, 30)}: should rewrite http.NewRequestWithContext or add (*Request).WithContext (noctx)",
                                 f"{f}:{r.randint(10, 500)}:{r.randint(2, 30)}: G104: Errors unhandled. (gosec)"))
                out.append(line)
                size += len(line)
            out.append(f"{len(out)} issues.")
        elif mode == 1:
            cmd = f"cd services/{svc} && goose -dir db/migrations postgres \"$DB_DSN\" status"
            out += ["    Applied At                  Migration", "    ======================================="]
            while size < want:
                line = f"    {r.choice(('Mon', 'Tue', 'Wed', 'Thu', 'Fri'))} May {r.randint(1, 31):>2} {_clock(r)}:{r.randint(10, 59)} 2024 -- 2024{r.randint(1, 5):02d}{r.randint(10, 28)}0{r.randint(10000, 99999)}_{r.choice(TABLES)}_{r.choice(('init', 'index', 'add_column', 'backfill'))}.sql"
                out.append(line)
                size += len(line)
        elif mode == 2:
            cmd = f"go tool pprof -top -nodecount=40 http://localhost:6060/debug/pprof/profile?seconds=30  # {svc}"
            out += [f"File: {svc}", "Type: cpu", f"Duration: 30s, Total samples = {r.uniform(8, 40):.2f}s", "Showing nodes accounting for 90%",
                    "      flat  flat%   sum%        cum   cum%"]
            funcs = ("runtime.mallocgc", "runtime.scanobject", "encoding/json.(*decodeState).object", "syscall.Syscall",
                     "runtime.mapaccess2_faststr", "github.com/jackc/pgx/v5/pgproto3.(*Frontend).Receive",
                     "go.uber.org/zap/zapcore.(*jsonEncoder).AppendString", "runtime.futex", "runtime.memmove",
                     "google.golang.org/protobuf/internal/impl.(*MessageInfo).marshalAppendPointer",
                     "net/http.(*conn).serve", "crypto/tls.(*Conn).Read")
            while size < want:
                line = f"{r.uniform(0.01, 2):>9.2f}s {r.uniform(0.1, 12):>5.2f}% {r.uniform(10, 90):>5.2f}% {r.uniform(0.01, 5):>9.2f}s {r.uniform(0.1, 40):>5.2f}%  {r.choice(funcs)}"
                out.append(line)
                size += len(line)
        elif mode == 3:
            cmd = "buf lint && buf breaking --against '.git#branch=main'"
            while size < want:
                line = r.choice((f"proto/{r.choice(PKGS)}/v1/{r.choice(PKGS)}.proto:{r.randint(5, 120)}:{r.randint(1, 9)}:Field name \"courierID\" should be lower_snake_case, such as \"courier_id\".",
                                 f"proto/{r.choice(PKGS)}/v1/{r.choice(PKGS)}.proto:{r.randint(5, 120)}:{r.randint(1, 9)}:Enum value name \"PENDING\" should be prefixed with \"STATUS_\".",
                                 f"proto/{r.choice(PKGS)}/v1/{r.choice(PKGS)}.proto:1:1:Previously present field \"{r.randint(3, 12)}\" with name \"legacy_area\" on message \"{r.choice(ENTITIES)}\" was deleted."))
                out.append(line)
                size += len(line)
        elif mode == 4:
            cmd = f"curl -s localhost:8080/debug/vars | jq '.memstats | {{HeapAlloc, NumGC, PauseTotalNs}}'  # {svc}"
            while size < want:
                out.append(json.dumps({"HeapAlloc": r.randint(10**7, 4 * 10**8), "NumGC": r.randint(100, 9000),
                                       "PauseTotalNs": r.randint(10**7, 10**10), "Goroutines": r.randint(40, 4000),
                                       "at": _clock(r)}, indent=2))
                size += 110
        else:
            cmd = f"dog monitor show_all --monitor_tags service:{svc} | jq -c '.[] | {{id, name, overall_state}}'"
            while size < want:
                line = json.dumps({"id": r.randint(1_000_000, 9_999_999), "name": f"[P{r.randint(1, 3)}] {svc} {r.choice(('grpc error rate > 2%', 'p99 latency > 800ms', 'pod restarts > 3 in 10m', 'outbox lag > 60s'))}",
                                   "overall_state": r.choice(("OK", "OK", "OK", "Warn", "Alert", "No Data"))}, ensure_ascii=False)
                out.append(line)
                size += len(line)
        return {"cmd": cmd}, "\n".join(out)


# --- conversation filler ------------------------------------------------------------------------------------------

U_ASK = (
    "{svc}のテスト回して", "go", "ok", "おk", "了解、続けて", "次、{pkg}の方見て", "lint通る?", "{file}.go 読んでみて",
    "podの状態どう?", "stagingのログ見てくれる? {clock}くらいから変な感じ", "ちょっと待って、その前に{pkg}のdiff見せて",
    "can you check the {svc} pods real quick", "run the {pkg} tests again pls", "what does {file}.go:{line} do exactly",
    "うーん、{person}さんが{clock}のdeployから遅いって言ってる", "explain plan見たい、{tbl}のやつ",
    "migrationの状態確認して", "pprof取ってみて、{svc}", "grpcurlで{method}叩いてみて", "ok next", "それでいこう、続けて",
    "すみません、会議で抜けてました。どこまで行った?", "hmm ok. and the build?", "lgtm, go on",
    "{svc} のmonitor、まだAlertのまま?", "git logざっと見せて", "{tbl} の件数確認して",
    "{person}さんから{svc}のp99について質問きてる。今の数字わかる?", "can you write a small test for {file}.go",
    "そのままで大丈夫そう?", "sure", "やって", "ん、いいね", "wait what, why did that pass now",
)
A_DONE = (
    "Done. {n} tests pass in {pkg}; the slowest is {test} at 0.{ms:02d}s. Nothing flaky across the -race run.",
    "The pods look healthy. {n} of them are Running, restarts are under 3, and the readiness failures stopped around {clock}.",
    "Logs are mostly info. I see {n} `context deadline exceeded` warnings, all from the {zone} zone between {clock} and a few minutes later; probably the upstream, not us.",
    "The plan uses `{tbl}_zone_created_idx`. Execution is {ms}.{n} ms, so the query isn't the bottleneck.",
    "Lint reports {n} issues, mostly `lll` and one `ineffassign` in {file}.go:{line}. I can fix the ineffassign now and leave the line-length ones. Want that?",
    "{method} answers fine on :9090; {n} items came back and the page token works.",
    "Build is clean. Escape analysis shows `buf` moving to heap in {file}.go:{line}; it's small, not worth chasing yet.",
    "migrationは全部Applied、pendingはありません。最新は{tbl}のindex追加です。",
    "テスト通りました。{n}件、-raceでも問題なし。次は{pkg}のretry周りを見ます。",
    "Profile is dominated by GC and JSON decoding: mallocgc around {ms}% flat. Options: (a) reuse decoders via sync.Pool, (b) switch the hot path to protojson, (c) leave it. I'd do (a).",
    "Summary so far:\n- build ok\n- {pkg} tests green ({n} tests)\n- staging pods stable since {clock}\nNext I'd look at {file}.go:{line}.",
    "TODO (mine):\n- [x] {pkg} tests under -race\n- [x] check {svc} pods\n- [ ] look at {tbl} query plan\n- [ ] lint cleanup in {file}.go\n- [ ] write up for {person}さん",
    "{n}行くらいの変更です。diffは`{file}.go`だけ、テストも追加しました。",
    "Monitor is back to OK since {clock}. The alert fired {n} times today, all during the lunch peak (11:30–13:00).",
    "I don't see a problem on our side. The {tbl} count is {n}k for the last 2h, which matches yesterday's lunch.",
    "了解です。{svc}側は問題なさそうです。{person}さんに共有する用の要約も作れます。",
)


U_SHORT = ("ok", "go", "おk", "了解", "thx", "うん", "続けて", "next", "sure, go ahead", "いいね、そのまま進めて", "k",
           "ちょっと待って…いや、大丈夫。続けて", "ok but keep it small")
A_SHORT = ("Continuing.", "了解です、続けます。", "OK — moving on to the {pkg} side next.", "Will do; small diff only.",
           "はい。次は{file}.goを見ます。", "Got it. I'll report back after the {pkg} tests.")
ASK: dict[str, tuple[str, ...]] = {
    "go_build": ("ビルド通る?", "does {svc} still build?", "vetも回しておいて", "escape analysis見てみて、{pkg}"),
    "go_test": ("{svc}のテスト回して", "run the {pkg} tests again pls", "テスト、-raceで", "did we break anything in {pkg}?"),
    "read_file": ("{file}.go 読んでみて", "what does {file}.go:{line} do exactly", "{pkg}のコード見せて", "manifest確認して"),
    "edit_file": ("そこ直しちゃって", "fix the lint thing in {file}.go", "エラーのwrap直して", "ok patch it"),
    "write_file": ("can you write a small test for {file}.go", "テスト追加して", "add a test for the empty zone case"),
    "kubectl": ("podの状態どう?", "can you check the {svc} pods real quick", "stagingのログ見てくれる? {clock}くらいから変な感じ",
                "eventsも見て", "メモリ使用量どんな感じ?"),
    "grpcurl": ("grpcurlで{method}叩いてみて", "hit {method} on staging", "レスポンスの形見たい"),
    "psql": ("explain plan見たい、{tbl}のやつ", "{tbl} の件数確認して", "{tbl}のスキーマ見せて"),
    "git": ("git logざっと見せて", "what changed since yesterday?", "diff見せて"),
    "shell": ("lint通る?", "migrationの状態確認して", "pprof取ってみて、{svc}", "monitorの状態は?", "buf breaking確認して"),
}
PRE: dict[str, tuple[str, ...]] = {
    "go_build": ("Building {svc}.", "", "ビルドします。"),
    "go_test": ("Running the {pkg} tests first.", "", "テスト回します。"),
    "read_file": ("Let me look at {file}.go.", "", "コード読みます。"),
    "edit_file": ("Patching it.", "", "修正します。"),
    "write_file": ("Adding a test.", "", "テスト書きます。"),
    "kubectl": ("Checking the pods in {svc}.", "I'll pull the last 15 minutes.", ""),
    "grpcurl": ("Let me try {method} against staging.", ""),
    "psql": ("まず{tbl}のクエリを見ます。", "Querying staging (read-only).", ""),
    "git": ("Looking at recent commits.", ""),
    "shell": ("Running it.", "", "確認します。"),
}
DONE: dict[str, tuple[str, ...]] = {
    "go_build": ("Build is clean. Escape analysis shows `buf` moving to heap in {file}.go:{line}; it's small, not worth chasing yet.",
                 "ビルドOKです。vetも警告なし。"),
    "go_test": ("Done. {n} tests pass in {pkg}; the slowest is {test} at 0.{ms:02d}s. Nothing flaky across the -race run.",
                "テスト通りました。{n}件、-raceでも問題なし。次は{pkg}のretry周りを見ます。",
                "One unrelated failure in {test} (a 409 from the fixture); it's been flaky since {clock}. The rest passes."),
    "read_file": ("The handler wraps errors with the operation name except at {file}.go:{line}, where it returns the raw pgx error.",
                  "読みました。{file}.go:{line}あたりでctxを使わずにDBを叩いているのが気になります。"),
    "edit_file": ("Patched. The diff is {n} lines in `{file}.go`; tests still pass.", "{n}行くらいの変更です。diffは`{file}.go`だけです。"),
    "write_file": ("Added the test; it runs in 0.0{n}s and covers the empty zone case.", "テストを追加しました。"),
    "kubectl": ("The pods look healthy. {n} of them are Running, restarts are under 3, and the readiness failures stopped around {clock}.",
                "Logs are mostly info. I see {n} `context deadline exceeded` warnings, all from the {zone} zone between {clock} and a few minutes later; probably the upstream, not us.",
                "メモリは最大でも{n}0Mi台で、limitには余裕があります。"),
    "grpcurl": ("{method} answers fine on :9090; {n} items came back and the page token works.",
                "{method}は正常に返ってきました。{n}件です。"),
    "psql": ("The plan uses `{tbl}_zone_created_idx`. Execution is {ms}.{n} ms, so the query isn't the bottleneck.",
             "I don't see a problem on our side. The {tbl} count is {n}k for the last 2h, which matches yesterday's lunch."),
    "git": ("Nothing suspicious in the last commits: mostly lint and a sqlc regenerate. The matcher change is from {person}さん on Tuesday.",
            "差分は{file}.goだけです。"),
    "shell": ("Lint reports {n} issues, mostly `lll` and one `ineffassign` in {file}.go:{line}. I can fix the ineffassign now and leave the line-length ones. Want that?",
              "migrationは全部Applied、pendingはありません。最新は{tbl}のindex追加です。",
              "Profile is dominated by GC and JSON decoding: mallocgc around {ms}% flat. Options: (a) reuse decoders via sync.Pool, (b) switch the hot path to protojson, (c) leave it. I'd do (a).",
              "Monitor is back to OK since {clock}. The alert fired {n} times today, all during the lunch peak (11:30–13:00)."),
}


TODO = ("{pkg} tests under -race", "check {svc} pods after the {clock} deploy", "look at the {tbl} query plan",
        "lint cleanup in {file}.go", "write up for {person}さん", "answer the review on {file}.go:{line}",
        "confirm the goose status on staging", "grpcurl {method} against staging", "pprof {svc} at lunch peak")
DONE_BY = (  # (tool, a word of its arguments, what the agent says after it)
    ("shell", "golangci", ("Lint reports {n} issues, mostly `lll` and one `ineffassign` in {file}.go:{line}. I can fix the ineffassign now and leave the line-length ones. Want that?",
                           "lintは{n}件、ほぼ行長の指摘です。ineffassignだけ直しておきます。")),
    ("shell", "goose", ("migrationは全部Applied、pendingはありません。最新は{tbl}のindex追加です。",
                        "All migrations applied on staging; nothing pending. The latest one is the {tbl} index from May.")),
    ("shell", "pprof", ("Profile is dominated by GC and JSON decoding: mallocgc around {ms}% flat. Options: (a) reuse decoders via sync.Pool, (b) switch the hot path to protojson, (c) leave it. I'd do (a).",
                        "pprofを見る限り、GCとJSONのdecodeが大半です。sync.Poolで再利用すれば{ms}%くらいは減らせそう。")),
    ("shell", "buf", ("buf lint flags naming only; `buf breaking` reports a deleted field that was already reserved, so it's safe.",
                      "buf breakingは既にreservedのフィールドの指摘だけなので問題なしです。")),
    ("shell", "debug/vars", ("Heap sits around {n}0 MB with GC every few seconds; goroutines are flat, so no leak.",
                             "ヒープは{n}0MB前後で安定、goroutineも増えていません。リークではなさそうです。")),
    ("shell", "dog monitor", ("Monitor is back to OK since {clock}. The alert fired {n} times today, all during the lunch peak (11:30–13:00).",
                              "monitorは{clock}からOKに戻っています。今日は{n}回発火、全部ランチピークです。")),
    ("kubectl", "logs", ("Logs are mostly info. I see {n} `context deadline exceeded` warnings, all from the {zone} zone between {clock} and a few minutes later; probably the upstream, not us.",
                         "ログはほぼinfoです。warnが{n}件、{zone}からのdeadline exceededだけ。")),
    ("kubectl", "top", ("メモリは最大でも{n}0Mi台で、limitには余裕があります。", "CPU is under 600m on every pod; memory tops out around {n}0Mi, well under the 512Mi limit.")),
    ("kubectl", "events", ("Events show a scale-up at {clock} and a few readiness failures right after; nothing since.",
                           "eventsは{clock}のscale upとreadiness失敗が数件だけです。")),
    ("kubectl", "", ("The pods look healthy. {n} of them are Running, restarts are under 3, and the readiness failures stopped around {clock}.",
                     "podは全部Runningです。restartは{clock}以降増えていません。")),
    ("psql", "EXPLAIN", ("The plan uses the zone/created_at index. Execution is {ms}.{n} ms, so the query isn't the bottleneck.",
                         "Index Scanになっていて、{ms}ms台です。クエリはボトルネックではないです。")),
    ("psql", "", ("I don't see a problem on our side. The row count for the last 2h is {n}k, which matches yesterday's lunch.",
                  "データ見た感じ、おかしな行はありません。直近2時間で{n}k件、昨日と同じくらいです。")),
)


def _done(call: tuple[str, dict[str, Any], str]) -> tuple[str, ...]:
    name, args = call[0], json.dumps(call[1])
    for tool, word, texts in DONE_BY:
        if tool == name and word in args:
            return texts
    return DONE[name]


def _fmt(rng: random.Random, t: str) -> str:
    return t.format(svc=rng.choice(SVCS), pkg=rng.choice(PKGS), file=rng.choice(FILES), line=rng.randint(20, 480),
                    clock=_clock(rng), person=rng.choice(PEOPLE), tbl=rng.choice(TABLES), method=rng.choice(METHODS),
                    n=rng.randint(3, 60), test=rng.choice(TESTS), ms=rng.randint(10, 95), zone=rng.choice(ZONES))


# --- pasted documents (their imperatives are not the user's) ------------------------------------------------------

def _pasted_doc(rng: random.Random) -> tuple[str, str]:
    """(the user's lead-in, the pasted text)."""
    r = rng
    svc, pkg, file, line = r.choice(SVCS), r.choice(PKGS), r.choice(FILES), r.randint(30, 400)
    p1, p2 = r.sample(PEOPLE_EN, 2)
    kind = r.randrange(6)
    if kind == 0:
        lead = r.choice(("佐藤さんからPRのレビュー来た。一応貼る", "review comments from Sato on the PR:", "レビューコメント↓"))
        text = (f"[review] {MOD}/{svc} PR #{r.randint(1000, 9999)} — Sato Kenji\n"
                f"> internal/{pkg}/{file}.go:{line}\nPlease wrap this error with the operation name, we lose context in Datadog otherwise.\n"
                f"> internal/{pkg}/{file}.go:{line + 17}\nDo not start a goroutine here without a way to stop it. Use the errgroup from the caller.\n"
                f"> internal/{pkg}/repo.go:{r.randint(20, 200)}\nnit: rename `res` to something meaningful. Also please add a test for the empty zone case.\n"
                "Overall LGTM after these. Please squash before merging.")
    elif kind == 1:
        lead = r.choice(("田中さんのpostmortem、関係ありそうなので貼ります", "SRE postmortem from last week, fyi", "postmortem貼っとく"))
        text = (f"Postmortem: {svc} elevated 5xx on 2024-05-{r.randint(10, 28)} ({r.randint(11, 13)}:{r.randint(10, 59)}–{r.randint(13, 14)}:{r.randint(10, 59)} JST)\n"
                f"Author: {p1} (SRE)   Severity: SEV-{r.randint(2, 3)}\n"
                f"Impact: ~{r.randint(2, 9)}.{r.randint(0, 9)}% of orders in {r.choice(ZONES)} failed at checkout for {r.randint(12, 48)} minutes.\n"
                f"Root cause: connection pool exhaustion on pg-primary.orders after a deploy doubled replicas to {r.randint(12, 24)}.\n"
                "Action items:\n"
                f"  1. Do not raise replica counts during lunch peak without SRE sign-off. (owner: {p1})\n"
                f"  2. Add a Datadog monitor on pgbouncer cl_waiting > {r.randint(10, 50)}. (owner: {p2})\n"
                "  3. Please review pool settings in every service that talks to orders DB.")
    elif kind == 2:
        lead = r.choice(("PayNestのAPI spec、該当部分", "payment partner's spec excerpt:", "PayNestのドキュメントから抜粋"))
        text = (f"PayNest Merchant API v3 — 4.{r.randint(2, 9)} Capture\n"
                "POST /v3/payments/{payment_id}/capture\n"
                f"Timeouts: the API answers within {r.randint(3, 8)} s at p99. Do not retry a capture without the same Idempotency-Key.\n"
                "Idempotency-Key: required, max 64 chars, valid for 24 h.\n"
                f"Rate limit: {r.randint(20, 80)} requests/s per merchant; 429 carries Retry-After in seconds.\n"
                "Errors: 409 `capture_already_settled`, 422 `amount_mismatch`, 503 `upstream_unavailable`.\n"
                "Please rotate webhook secrets every 90 days and verify the X-PayNest-Signature header (HMAC-SHA256).")
    elif kind == 3:
        lead = r.choice(("中村さんのチケット", "Jira from Nakamura-san:", "PMからのチケット貼るね"))
        text = (f"DLV-{r.randint(1000, 9999)}  [Story] Show courier ETA on the order tracking screen\n"
                f"Reporter: Nakamura   Priority: High   Sprint: 2024-S{r.randint(10, 14)}\n"
                "As a customer I want to see when my food arrives.\n"
                "Acceptance criteria:\n"
                f"- ETA shown within {r.randint(2, 5)} s of assignment\n"
                f"- Update at least every {r.randint(15, 60)} s while the courier moves\n"
                "- Please make sure the old app (< 5.12) keeps working.\n"
                "Do not show ETAs above 90 minutes; show \"遅れています\" instead.")
    elif kind == 4 and r.random() < 0.4:
        lead = r.choice(("Trivyのレポート来てた", "image scan from CI:"))
        text = (f"asia-northeast1-docker.pkg.dev/tabemaru/svc/{svc}:v1.{r.randint(30, 48)}.{r.randint(0, 9)} (debian 12.5)\n"
                "Total: 3 (HIGH: 2, CRITICAL: 1)\n\n"
                "┌──────────────┬────────────────┬──────────┬───────────────────┬───────────────┐\n"
                "│   Library    │ Vulnerability  │ Severity │ Installed Version │ Fixed Version │\n"
                "├──────────────┼────────────────┼──────────┼───────────────────┼───────────────┤\n"
                "│ libssl3      │ CVE-2024-5535  │ CRITICAL │ 3.0.11-1~deb12u2  │ 3.0.13-1      │\n"
                "│ libexpat1    │ CVE-2024-45490 │ HIGH     │ 2.5.0-1           │ 2.5.0-1+deb12 │\n"
                "│ golang.org/x/net │ CVE-2023-45288 │ HIGH │ v0.21.0          │ 0.23.0        │\n"
                "└──────────────┴────────────────┴──────────┴───────────────────┴───────────────┘\n"
                "Please rebuild on the distroless base. Do not ship images with CRITICAL findings to prod.")
    elif kind == 4:
        lead = r.choice(("govulncheckの結果、CIから", "security scan output:"))
        text = (f"govulncheck ./... ({svc})\n"
                "Vulnerability #1: GO-2024-2687\n"
                "    HTTP/2 CONTINUATION flood in net/http\n"
                "  Found in: golang.org/x/net@v0.21.0\n"
                "  Fixed in: golang.org/x/net@v0.23.0\n"
                f"  Example traces found:\n    #1: internal/httpx/server.go:{r.randint(20, 90)}:{r.randint(2, 20)}: httpx.Serve calls http2.ConfigureServer\n"
                "Vulnerability #2: GO-2024-2611\n"
                "    Infinite loop in JSON unmarshaling in google.golang.org/protobuf\n"
                "  Found in: google.golang.org/protobuf@v1.32.0\n  Fixed in: google.golang.org/protobuf@v1.33.0\n"
                "Your code is affected by 2 vulnerabilities. Please upgrade before the next release.")
    else:
        lead = r.choice(("on-callのslackスレ、貼ります", "oncall thread from #dlv-oncall:", "slackから"))
        a, b = _clock(r), _clock(r)
        text = (f"[{a}] {p1}: {svc} p99 is at {r.randint(900, 2400)}ms in shibuya, monitor {r.randint(1_000_000, 9_999_999)} alerting\n"
                f"[{a}] {p2}: looks like the {r.choice(ZONES)} lunch peak again. please don't restart the pods yet, I'm taking a heap profile\n"
                f"[{b}] {p1}: ok. pg connections at {r.randint(150, 190)}/200\n"
                f"[{b}] {p2}: rollback to v1.{r.randint(30, 45)}.{r.randint(0, 9)}? \n"
                f"[{b}] {p1}: wait for {svc} owners. @here can someone from delivery-platform take a look")
    return lead, text


# --- facts ----------------------------------------------------------------------------------------------------------

@dataclass
class _Spec:
    """A planted fact before placement: its text pieces and how its episode is rendered."""

    kind: str
    value: str
    query: str
    stale: str | None = None
    lang: str = "ja"
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class _Ep:
    """An episode: ``length`` messages starting with a user turn and ending with an answer without calls."""

    target: float
    length: int
    carrier: int
    render: Callable[[_Writer], None]
    spec: _Spec | None = None
    role: str = "fact"  # fact | stale | resolve
    start: int = 0
    key: float | None = None  # placement order (the target unless the episode must come first)


class _Writer:
    """Appends messages, keeps the character budget and names tool calls."""

    def __init__(self, rng: random.Random, n: int) -> None:
        self.rng = rng
        self.n = n
        self.msgs: list[Message] = []
        self.chars = 0
        self.target = CHARS_PER_MESSAGE * n
        self.out = _Out(rng)
        self.used: set[str] = set()
        self.pasted: list[tuple[int, str]] = []
        self.ncalls = 0

    def want(self) -> int:
        i = len(self.msgs)
        deficit = self.target * (i + 1) / self.n - self.chars
        base = self.rng.choice((900, 1600, 2400, 3200, 4200, 5200))
        return int(min(max(base + 0.6 * deficit, 200), 14000))

    def add(self, m: Message) -> None:
        self.msgs.append(m)
        self.chars += len(text_of(m))

    def user(self, text: str) -> None:
        self.add({"role": "user", "content": text})

    def say(self, text: str) -> None:
        self.add({"role": "assistant", "content": text})

    def calls(self, text: str, calls: list[tuple[str, dict[str, Any], str]]) -> None:
        """An assistant message with ``calls`` (name, arguments, result) and their answers."""
        items = []
        for name, args, _ in calls:
            self.ncalls += 1
            cid = f"call_{self.ncalls:05d}{_pick(self.rng, ALNUM, 6)}"
            items.append((cid, name, args))
            self.used.add(name)
        self.add({"role": "assistant", "content": text, "tool_calls": [
            {"id": cid, "type": "function", "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)}}
            for cid, name, args in items]})
        for (cid, name, _), (_, _, result) in zip(items, calls):
            self.add({"role": "tool", "tool_call_id": cid, "name": name, "content": result})

    def filler_call(self, name: str | None = None) -> tuple[str, dict[str, Any], str]:
        r = self.rng
        if name is None:
            unused = [t for t in TOOLS if t not in self.used]
            name = unused[0] if unused and (r.random() < 0.7 or self.n < 300) else r.choices(
                TOOLS, weights=(6, 12, 14, 6, 3, 12, 6, 8, 7, 8))[0]
        self.used.add(name)
        args, result = getattr(self.out, name)(self.want())
        return name, args, result

    def side_call(self) -> None:
        """One filler call (with a word that fits it) and its answer, inside an episode."""
        call = self.filler_call()
        self.calls(_fmt(self.rng, self.rng.choice(PRE[call[0]])), [call])

    def paste_user(self, before: str = "", after: str = "") -> None:
        lead, doc = _pasted_doc(self.rng)
        text = f"{before}{lead}\n\n{doc}\n\n{after}".rstrip()
        self.pasted.append((len(self.msgs), doc))
        self.user(text)

    def turn(self, length: int, ask: str | None = None) -> None:
        """A filler turn of exactly ``length`` (2 or 4+) messages: a user ask, tool rounds, an answer."""
        r = self.rng
        if length == 2:
            self.user(_fmt(r, r.choice(U_SHORT)))
            self.say(_fmt(r, r.choice(A_SHORT)))
            return
        rounds: list[int] = []
        rem = length - 2
        while rem > 0:
            k = 1
            unused = len(set(TOOLS) - self.used) if self.n < 300 else 0
            if unused > 1:
                k = max(1, min(unused, rem - 1, 4))
            elif rem >= 3 and r.random() < 0.25:
                k = 2
            if rem - (k + 1) == 1:
                k = 2 if k == 1 else k - 1
            rounds.append(k)
            rem -= k + 1
        batches = [[self.filler_call() for _ in range(k)] for k in rounds]
        first = batches[0][0][0]
        if ask is not None:
            self.user(ask)
        elif r.random() < 0.06:
            self.paste_user(after=r.choice(("どう思う?", "this is relevant to what we're doing, just fyi", "見といて", "")))
        else:
            self.user(_fmt(r, r.choice(ASK[first] + U_ASK if r.random() < 0.25 else ASK[first])))
        for batch in batches:
            self.calls(_fmt(r, r.choice(PRE[batch[0][0]])), batch)
        done = _fmt(r, r.choice(_done(batches[-1][-1])))
        if r.random() < 0.08:
            items = r.sample(TODO, 5)
            cut = r.randint(1, 4)
            done += "\n\nTODO (mine):\n" + "\n".join(f"- [{'x' if j < cut else ' '}] {_fmt(r, t)}" for j, t in enumerate(items))
        elif r.random() < 0.05:
            done = _fmt(r, r.choice(A_DONE))
        self.say(done)

    def fill(self, gap: int) -> None:
        r = self.rng
        while gap > 0:
            unused = len(set(TOOLS) - self.used) if self.n < 300 else 0
            sizes = (2, 4, 4, 5, 6, 6, 7, 8, 10) if not unused else (min(gap, unused + 3), 4, 5, 6, 7)
            choices = [t for t in sizes if 2 <= t <= gap and (gap - t == 0 or gap - t >= 2) and gap - t != 3]
            if not choices:
                choices = [gap]
            t = choices[0] if unused else r.choice(choices)
            self.turn(t)
            gap -= t


SYSTEM = (
    "You are a coding agent working in the tabemaru monorepo (Go 1.22): services/order-api, dispatch, "
    "courier-location, payment-gw, menu-catalog, notify, eta-svc. Postgres via pgx/v5 and sqlc, migrations with goose, "
    "gRPC with buf-generated stubs, zap for logs, Datadog for monitors, Kubernetes (GKE) contexts tbm-dev, tbm-stg-tokyo "
    "and tbm-prod-tokyo. Tools: go_build, go_test, read_file, edit_file, write_file, kubectl, grpcurl, psql, git, shell. "
    "Answer in the language the user writes in. Keep changes small and run the tests of what you touch."
)
OPEN_USER = ("おはようございます。今日はdispatch周りの続きをやります。まずは全体のビルドとテストの状態を見たい",
             "hi, continuing on the delivery platform stuff today. can you get your bearings in the repo first",
             "今日もよろしく。昨日の{svc}の件の続き")
OPENING = 6  # system, the user's opening turn, the agent's look around (two calls) and its answer
OPEN_DONE = ("Builds clean and the tree matches main, except the local changes in dispatch. Ready when you are.",
             "ビルドは通っていて、差分はdispatchの作業中のものだけです。何から行きますか?")
OPEN_ASSIST = ("了解です。リポジトリの構成とテストの状態から確認します。", "Sure. I'll start with the build and test state of the services.")


class _Facts:
    """Draws fact values (unique, fact-only words) and renders their episodes."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.values: set[str] = set()
        self.words = list(range(len(FW)))
        rng.shuffle(self.words)
        self.wi = 0

    def word(self) -> int:
        i = self.words[self.wi % len(self.words)]
        self.wi += 1
        return i

    def fresh(self, make: Callable[[], tuple[str, ...]]) -> tuple[str, ...]:
        for _ in range(200):
            got = make()
            vals = [v for v in got if v]
            if all(v not in self.values and not any(v in o or o in v for o in self.values) for v in vals) and \
                    len(set(vals)) == len(vals) and not any(a != b and a in b for a in vals for b in vals):
                self.values.update(vals)
                return got
        raise RuntimeError("could not draw a fresh value")


def _instruction_specs(rng: random.Random, f: _Facts, k: int) -> list[_Spec]:
    r = rng
    out: list[_Spec] = []
    kinds = list(range(11))
    r.shuffle(kinds)
    # the first two are the user's own (not adopted)
    kinds = [x for x in kinds if x not in (8, 9)][:2] + [x for x in kinds if x in (8, 9) or x not in kinds[:2]]
    seen: list[int] = []
    for x in kinds:
        if x not in seen:
            seen.append(x)
    order = seen
    for i in range(k):
        t = order[i % len(order)]
        w = f.word()
        if t == 0:
            v, = f.fresh(lambda: (f"release/{r.randint(24, 26)}.{r.randint(10, 52)}",))
            out.append(_Spec("instruction", v, "Which branch must never get a merge without a green canary first?", lang="en",
                             extra={"rule": f"house rule btw: nothing gets merged into `{v}` without a green canary. no exceptions, even for hotfixes"}))
        elif t == 1:
            v, = f.fresh(lambda: (f"-race -count={r.choice((3, 4, 5, 6, 8, 10, 15, 20))}",))
            out.append(_Spec("instruction", v, "With which go test flags must tests always be run?",
                             extra={"rule": f"あと、テストは必ず `{v}` で回してね。flakyなのを見逃したくないので"}))
        elif t == 2:
            v, = f.fresh(lambda w=w: (f"internal/legacy{FW[w]}",))
            out.append(_Spec("instruction", v, "Which package must the agent not touch because the payments team owns it?",
                             extra={"rule": f"それと、`{v}` は触らないで。決済チームの持ち物なので、変更が要るなら言ってくれれば私から頼みます"}))
        elif t == 3:
            v, = f.fresh(lambda w=w: (f"redact.{FT[w]}Tail()",))
            out.append(_Spec("instruction", v, "Which helper must mask phone numbers and card tokens before they are logged?", lang="en",
                             extra={"rule": f"also — we never log full phone numbers or card tokens. anything PII goes through `{v}` before it gets anywhere near zap"}))
        elif t == 4:
            v, = f.fresh(lambda: (f"pgx stays on v5.{r.randint(3, 4)}.{r.randint(0, 9)}",))
            tk = f"PLAT-{r.randint(100, 999)}"
            out.append(_Spec("instruction", v, "Until which ticket is closed must the pgx version stay pinned, and on which version?", lang="en",
                             extra={"rule": f"until {tk} is closed, {v} — don't bump it even if dependabot nags"}))
        elif t == 5:
            v, = f.fresh(lambda w=w: (f"pg-ro-{FW[w]}.tbm.internal",))
            out.append(_Spec("instruction", v, "Which host is the only database the agent may query directly from psql?",
                             extra={"rule": f"本番のDBには絶対に直接psqlしないで。読むならreplicaの `{v}` だけにしてください"}))
        elif t == 6:
            v, = f.fresh(lambda: (f"deadline {r.choice((250, 300, 350, 400, 450, 550, 600, 650, 700, 750))}ms",))
            out.append(_Spec("instruction", v, "What is the maximum deadline for new outbound gRPC calls?", lang="en",
                             extra={"rule": f"pls keep every new outbound gRPC call at {v} or less — the app gives up after that anyway, no point waiting longer"}))
        elif t == 7:
            v, = f.fresh(lambda w=w: (f"{FW[w]}_trace_key",))
            out.append(_Spec("instruction", v, "Which field must every log line of the new code carry?",
                             extra={"rule": f"うちではログのフィールドは全部snake_caseで、新しいコードのログには必ず `{v}` を付ける方がいい。Datadogで追えなくなるので"}))
        elif t == 8:
            v, = f.fresh(lambda: (f"MaxConns は {r.randint(10, 40)} 固定",))
            out.append(_Spec("instruction", v, "What pool size did the user adopt as a rule after the postmortem?", extra={
                "adopt": "postmortem", "rule": f"↑のaction itemはうちのチームのルールとして採用します。pgxpoolの{v}、勝手に増やさないこと"}))
        elif t == 10:
            v, = f.fresh(lambda w=w: (f"stub/{FW[w]}_paynest",))
            out.append(_Spec("instruction", v, "What must the payment e2e tests use until the PayNest sandbox is fixed?", extra={
                "rule": f"PayNestのsandboxが直るまでは、payment系のe2eは本物に向けないで。`{v}` でstubしてください"}))
        else:
            v, = f.fresh(lambda w=w: (f"errgroup.{FT[w]}Group",))
            out.append(_Spec("instruction", v, "Which construct must every goroutine started in a handler go through (adopted from the review)?", lang="en", extra={
                "adopt": "review", "rule": f"taking Sato-san's point as a standing rule for this repo: no bare `go func()` in handlers, ever — spawn through our `{v}` wrapper so it dies with the request"}))
    return out


def _correction_specs(rng: random.Random, f: _Facts, k: int) -> list[_Spec]:
    r = rng
    out: list[_Spec] = []
    types = list(range(8))
    r.shuffle(types)
    for i in range(k):
        t = types[i % len(types)]
        near = i % 2 == 0 or r.random() < 0.3
        w = f.word()
        if t == 0:
            def mk(w: int = w, near: bool = near) -> tuple[str, str]:
                s = f"stg-{FW[w]}-{r.randint(10, 99)}"
                return s, (_near(r, s) if near else f"stg-{FW[(w + 1) % len(FW)]}-{r.randint(10, 99)}")
            what, q = "namespace", "Which staging namespace should the checks run in?"
        elif t == 1:
            def mk(near: bool = near) -> tuple[str, str]:
                s = f"PAY-{r.randint(10000, 99999)}"
                return s, (_near(r, s) if near else f"PAY-{r.randint(10000, 99999)}")
            what, q = "ticket", "Which ticket is the work being tracked under?"
        elif t == 2:
            def mk(near: bool = near) -> tuple[str, str]:
                s = f"2024{r.randint(1, 6):02d}{r.randint(10, 28)}{r.randint(100000, 235959):06d}"
                return s, (_near(r, s) if near else f"2024{r.randint(7, 9):02d}{r.randint(10, 28)}{r.randint(100000, 235959):06d}")
            what, q = "migration", "Which goose migration version is the one to roll out?"
        elif t == 3:
            def mk(near: bool = near) -> tuple[str, str]:
                s = f"ip-10-42-{r.randint(10, 99)}-{r.randint(10, 99)}"
                return s, (_near(r, s) if near else f"ip-10-43-{r.randint(10, 99)}-{r.randint(10, 99)}")
            what, q = "node", "Which Kubernetes node is the one to cordon?"
        elif t == 4:
            def mk(w: int = w, near: bool = near) -> tuple[str, str]:
                s = f"fix/{FW[w]}-{r.randint(100, 999)}"
                return s, (_near(r, s) if near else f"fix/{FW[(w + 3) % len(FW)]}-{r.randint(100, 999)}")
            what, q = "branch", "Which branch should the fix be pushed to?"
        elif t == 5:
            def mk(w: int = w, near: bool = near) -> tuple[str, str]:
                s = f"payment-gw-{FW[w]}-v{r.randint(2, 9)}{r.randint(0, 9)}"
                return s, (_near(r, s) if near else f"payment-gw-{FW[(w + 5) % len(FW)]}-v{r.randint(2, 9)}{r.randint(0, 9)}")
            what, q = "secret", "Which Kubernetes secret holds the PayNest webhook key?"
        elif t == 6:
            def mk(near: bool = near) -> tuple[str, str]:
                s = f"mon-{r.randint(40_000_000, 89_999_999)}"
                return s, (_near(r, s) if near else f"mon-{r.randint(40_000_000, 89_999_999)}")
            what, q = "monitor", "Which Datadog monitor should be muted during the migration?"
        else:
            def mk(w: int = w, near: bool = near) -> tuple[str, str]:
                s = f"orders_{FW[w]}_{r.randint(1, 9)}{r.randint(0, 9)}"
                return s, (_near(r, s) if near else f"orders_{FW[(w + 7) % len(FW)]}_{r.randint(1, 9)}{r.randint(0, 9)}")
            what, q = "database", "Which database should the backfill read from?"
        stale, value = f.fresh(mk)
        out.append(_Spec("correction", value, q, stale=stale, lang=r.choice(("ja", "en")), extra={"what": what, "near": near}))
    return out


def _decision_specs(rng: random.Random, f: _Facts, k: int) -> list[_Spec]:
    r = rng
    out: list[_Spec] = []
    revised = set(r.sample(range(k), max(1, k // 3)))
    topics = list(range(7))
    r.shuffle(topics)
    for i in range(k):
        t = topics[i % len(topics)]
        w = f.word()
        if t == 0:
            def mk() -> tuple[str, str]:
                return (f"full-jitter backoff capped at {r.randint(3, 9)}.{r.randint(1, 9)}s",
                        f"fixed {r.randint(2, 9)}{r.randint(1, 9)}0ms retries x{r.randint(3, 6)}")
            q = f"Which retry strategy was chosen for the {FW[w]} calls?"
        elif t == 1:
            def mk(w: int = w) -> tuple[str, str]:
                return (f"JetStream subject dispatch.{FW[w]}.v{r.randint(1, 3)}", f"SQS FIFO {FW[w]}-events-{r.randint(10, 99)}.fifo")
            q = f"Which queue carries the {FW[w]} events?"
        elif t == 2:
            def mk(w: int = w) -> tuple[str, str]:
                return (f"ristretto cache with {r.randint(3, 9)}{r.randint(1, 9)}MB", f"Redis with a {r.randint(11, 89)}s TTL")
            q = f"What cache backs the {FW[w]} lookups?"
        elif t == 3:
            def mk(w: int = w) -> tuple[str, str]:
                return (f"canary at {r.choice((3, 7, 15, 25))}% for {r.randint(21, 59)} min", f"blue/green with a {r.randint(11, 19)}-min soak")
            q = f"How is the {FW[w]} change rolled out?"
        elif t == 4:
            def mk(w: int = w) -> tuple[str, str]:
                return (f"UUIDv7 for {FW[w]}_id", f"ULID for {FW[w]}_id")
            q = f"Which id format do new {FW[w]} rows get?"
        elif t == 5:
            def mk(w: int = w) -> tuple[str, str]:
                return (f"batches of {r.randint(11, 49)}00 rows per tx", f"batches of {r.randint(51, 99)}0 rows per tx")
            q = f"How big are the backfill batches for {FW[w]}?"
        else:
            def mk(w: int = w) -> tuple[str, str]:
                return (f"{FT[w]}Policy as a oneof", f"{FT[w]}Policy as a separate RPC")
            q = f"How is the {FW[w]} policy modelled in the proto?"
        a, b = f.fresh(mk)
        if r.random() < 0.5:
            a, b = b, a
        if i in revised:
            out.append(_Spec("decision", a, q, stale=b, lang=r.choice(("ja", "en"))))
        else:
            f.values.discard(b)
            out.append(_Spec("decision", a, q, lang=r.choice(("ja", "en"))))
    return out


def _error_specs(rng: random.Random, f: _Facts, k: int) -> list[_Spec]:
    r = rng
    out: list[_Spec] = []
    resolved = set(r.sample(range(k), max(1, k // 2)) if k >= 2 else [0])
    kinds = list(range(6))
    r.shuffle(kinds)
    for i in range(k):
        t = kinds[i % len(kinds)]
        w = f.word()
        svc, pkg = r.choice(SVCS), r.choice(PKGS)
        if t == 0:
            tool = "go_build"
            v, = f.fresh(lambda w=w, pkg=pkg: (f"./internal/{pkg}/{FW[w]}.go:{r.randint(20, 480)}:{r.randint(2, 40)}: undefined: {pkg}.New{FT[w]}Policy",))
            q = f"What did the build of {svc} fail on?"
        elif t == 1:
            tool = "go_test"
            v, = f.fresh(lambda w=w: (f"--- FAIL: Test{FT[w]}_Retry ({r.randint(0, 2)}.{r.randint(1, 99):02d}s)",))
            q = f"Which test failed in the {pkg} package run?"
        elif t == 2:
            tool = "go_test"
            v, = f.fresh(lambda w=w: (f"panic: runtime error: index out of range [{r.randint(3, 64)}] with length {r.randint(1, 3)} [{FW[w]}]",))
            q = f"What panic did the {pkg} tests hit?"
        elif t == 3:
            tool = "shell"
            v, = f.fresh(lambda w=w, pkg=pkg: (f"internal/{pkg}/{FW[w]}.go:{r.randint(20, 480)}:{r.randint(2, 30)}: Error return value of `{FW[w]}Store.Close` is not checked (errcheck)",))
            q = "What did golangci-lint report?"
        elif t == 4:
            tool = "grpcurl"
            v, = f.fresh(lambda w=w: (f"rpc error: code = DeadlineExceeded desc = {FW[w]}: upstream quote after {r.randint(801, 2999)}ms",))
            q = f"What status did the gRPC call to {svc} come back with?"
        else:
            tool = "psql"
            v, = f.fresh(lambda w=w: (f"ERROR:  duplicate key value violates unique constraint \"{FW[w]}_slots_order_id_key\"",))
            q = "What did the insert into the new table fail with?"
        out.append(_Spec("error", v, q, extra={"tool": tool, "svc": svc, "pkg": pkg, "resolved": i in resolved, "w": w}))
    return out


def _file_specs(rng: random.Random, f: _Facts, k: int) -> list[_Spec]:
    r = rng
    out: list[_Spec] = []
    kinds = list(range(5))
    r.shuffle(kinds)
    for i in range(k):
        t = kinds[i % len(kinds)]
        w = f.word()
        svc, pkg = r.choice(SVCS), r.choice(PKGS)
        if t == 0:
            v, = f.fresh(lambda w=w, svc=svc, pkg=pkg: (f"services/{svc}/internal/{pkg}/{FW[w]}_window.go",))
            what = f"the {FW[w]} window logic"
        elif t == 1:
            v, = f.fresh(lambda w=w, svc=svc: (f"services/{svc}/db/migrations/2024{r.randint(1, 6):02d}{r.randint(10, 28)}1{r.randint(10000, 99999)}_add_{FW[w]}_slots.sql",))
            what = f"the migration for the {FW[w]} slots table"
        elif t == 2:
            v, = f.fresh(lambda w=w, svc=svc: (f"deploy/k8s/{svc}/{FW[w]}-pdb.yaml",))
            what = f"the PodDisruptionBudget for {svc}"
        elif t == 3:
            v, = f.fresh(lambda w=w, pkg=pkg: (f"proto/{pkg}/v1/{FW[w]}_policy.proto",))
            what = f"the proto for the {FW[w]} policy"
        else:
            v, = f.fresh(lambda w=w, svc=svc, pkg=pkg: (f"services/{svc}/internal/{pkg}/{FW[w]}_matcher_test.go",))
            what = f"the tests for the {FW[w]} matcher"
        out.append(_Spec("file", v, f"Which file was created for {what}?", extra={"t": t, "w": w, "svc": svc, "pkg": pkg,
                                                                              "tool": "edit_file" if r.random() < 0.3 else "write_file"}))
    return out


def _identifier_specs(rng: random.Random, f: _Facts, k: int) -> list[_Spec]:
    r = rng
    out: list[_Spec] = []
    first = r.random() < 0.5
    for i in range(k):
        said = (i % 2 == 0) == first
        t = r.randrange(4)
        if said:
            if t == 0:
                v, = f.fresh(lambda: ("01J" + _pick(r, B32, 23),))
                q, ex = "Which order id did the user report as stuck?", {"t": "order"}
            elif t == 1:
                v, = f.fresh(lambda: (_hex(r, 32),))
                q, ex = "Which trace id did the user ask to follow?", {"t": "trace"}
            elif t == 2:
                v, = f.fresh(lambda: (f"INC-{r.randint(10000, 99999)}",))
                q, ex = "Which incident is the current work attached to?", {"t": "inc"}
            else:
                v, = f.fresh(lambda: (f"cr_{_pick(r, ALNUM, 12)}",))
                q, ex = "Which courier account did the user say is affected?", {"t": "courier"}
        else:
            if t in (0, 1):
                svc = r.choice(SVCS)
                v, = f.fresh(lambda svc=svc: (f"{svc}-{_pick(r, POD, 9)}-{_pick(r, POD, 5)}",))
                q, ex = f"Which {svc} pod was crash-looping?", {"t": "pod", "svc": svc}
            elif t == 2:
                v, = f.fresh(lambda: (_hex(r, 12),))
                q, ex = "Which commit introduced the regression according to git?", {"t": "sha"}
            else:
                v, = f.fresh(lambda: (f"pay_{_pick(r, ALNUM, 16)}",))
                q, ex = "Which PayNest payment id did the capture call return?", {"t": "payment"}
        ex["said"] = said
        out.append(_Spec("identifier", v, q, extra=ex))
    return out


def _finding_specs(rng: random.Random, f: _Facts, k: int) -> list[_Spec]:
    r = rng
    out: list[_Spec] = []
    kinds = list(range(6))
    r.shuffle(kinds)
    for i in range(k):
        t = kinds[i % len(kinds)]
        w = f.word()
        if t == 0:
            v, = f.fresh(lambda w=w: (f"geo.(*{FT[w]}Index).{r.choice(FVERB)}",))
            q = "Which function dominated the CPU profile?"
        elif t == 1:
            v, = f.fresh(lambda w=w: (f"Seq Scan on {FW[w]}_slots",))
            q = "Why was the slow query slow, according to its plan?"
        elif t == 2:
            v, = f.fresh(lambda w=w: (f"{FW[w].upper()}_GRACE_MS={r.randint(11, 99)}{r.choice('1379')}0",))
            q = "What grace period is the running pod actually configured with?"
        elif t == 3:
            v, = f.fresh(lambda: (f"memory: {r.choice((96, 160, 192, 288, 320, 384, 448, 640, 768))}Mi",))
            q = "What memory limit was the OOM-killed container running with?"
        elif t == 4:
            v, = f.fresh(lambda: (_hex(r, 40),))
            q = "Which commit did git bisect name as the first bad one?"
        else:
            v, = f.fresh(lambda w=w: (f"2024{r.randint(1, 6):02d}{r.randint(10, 28)}2{r.randint(10000, 99999)}_{FW[w]}_backfill.sql",))
            q = "Which migration is still pending on staging?"
        out.append(_Spec("finding", v, q, extra={"t": t, "w": w}))
    return out


def _plan_specs(rng: random.Random, f: _Facts, k: int) -> list[_Spec]:
    r = rng
    out: list[_Spec] = []
    kinds = list(range(6))
    r.shuffle(kinds)
    for i in range(k):
        t = kinds[i % len(kinds)]
        w = f.word()
        if t == 0:
            v, = f.fresh(lambda w=w: (f"{FW[w]}_v{r.randint(2, 4)} へのdual write",))
            text = (f"移行の段取りを考えました。まず{v}から始めて、1週間くらい差分をDatadogで見る。差分がゼロなら"
                    "readを新しい方に切り替えて、最後に古いテーブルへの書き込みを止める、という順番でいきたい")
            q = "What is the first step of the table migration plan?"
        elif t == 1:
            v, = f.fresh(lambda w=w: (f"ff_{FW[w]}_assign_v{r.randint(2, 5)}",))
            text = (f"plan for this week: 1) put the new matcher behind {v}, default off. 2) turn it on for meguro only "
                    "and watch the p99 for a day. 3) if it holds, roll it to all zones on thursday before the lunch peak")
            q = "Behind which feature flag does the new matcher go first?"
        elif t == 2:
            v, = f.fresh(lambda: (f"ghz at {r.randint(2, 19) * 100 + 50} rps",))
            text = (f"マージ前の手順: staging に出して、{v} で10分負荷かける。p99が600ms超えたら止めて原因を見る。"
                    "問題なければ佐藤さんにレビュー依頼、金曜にprodへ")
            q = "What load test must run on staging before merging?"
        elif t == 3:
            v, = f.fresh(lambda w=w: (f"{FW[w]}_at カラム追加",))
            text = (f"手順としては 1. gooseで{v}(nullable) 2. アプリを両方読めるようにdeploy 3. backfillを夜間に "
                    "4. NOT NULL制約。2と3の間は最低1日空けたい")
            q = "What is the first step of the schema change plan?"
        elif t == 4:
            v, = f.fresh(lambda w=w: (f"proto first, then the {FW[w]} server",))
            text = (f"let's split this into three PRs: {v}, then the client changes in order-api last. "
                    "each one small enough that Sato-san can review it in one sitting")
            q = "In what order are the PRs split?"
        else:
            v, = f.fresh(lambda w=w: (f"{FW[w]}-shadow に {r.randint(2, 9)}日間",))
            text = (f"ロールアウトはこうしたい: 新しいETAモデルをまず{v}流して、実測とのズレを比べる。ズレが"
                    "±90秒以内なら本番の10%から")
            q = "How long does the new ETA model run in shadow first?"
        out.append(_Spec("plan", v, q, extra={"text": text}))
    return out


# --- episodes -------------------------------------------------------------------------------------------------------

def _ack(r: random.Random, spec: _Spec) -> str:
    v = spec.value
    if spec.kind == "instruction":
        return r.choice((f"了解です。`{v}` のルール、以降守ります。", f"Noted — `{v}` from now on. I'll keep that in mind for every change.",
                         f"わかりました。{v}、覚えておきます。今のタスクは影響なさそうなので続けます。"))
    if spec.kind == "decision":
        return r.choice((f"OK, going with {v}. I'll update the design note and the config.", f"了解、{v}で進めます。",
                         f"Got it: {v}. That also means we can drop the other branch of the code."))
    if spec.kind == "plan":
        return r.choice((f"Sounds good. I'll start with the first step ({v}) and report the numbers after.",
                         f"了解です。まず「{v}」から着手します。段取りはTODOに入れておきます。"))
    return r.choice((f"OK, {v}.", f"了解、{v} ですね。"))


def _user_episode(w: _Writer, spec: _Spec, length: int, text: str, ack: str, adopt: bool = False) -> None:
    r = w.rng
    if adopt:
        lead, doc = _pasted_doc_of(r, spec.extra["adopt"])
        w.pasted.append((len(w.msgs), doc))
        w.user(f"{lead}\n\n{doc}\n\n{text}")
    else:
        w.user(text)
    if length == 4:
        w.side_call()
    w.say(ack)


def _pasted_doc_of(r: random.Random, kind: str) -> tuple[str, str]:
    while True:
        lead, doc = _pasted_doc(r)
        if (kind == "postmortem" and doc.startswith("Postmortem")) or (kind == "review" and doc.startswith("[review]")):
            return lead, doc


def _lead(r: random.Random) -> str:
    return _fmt(r, r.choice((
        "{pkg}のテスト、さっきので全部通ったのは確認しました。ありがとう。", "ok the {svc} pods look fine now, thanks.",
        "{clock}からの{person}さんとのMTGで話したんだけど、", "quick note before we continue with {file}.go:",
        "さっきのlintの件はあとでまとめて直すとして、", "fyi {person}さん is on the oncall this week, so ping them for prod stuff.")))


def _render_instruction(w: _Writer, spec: _Spec, length: int) -> None:
    r = w.rng
    rule = spec.extra["rule"]
    adopt = "adopt" in spec.extra
    if adopt:
        text = rule
    else:
        shape = r.randrange(3)
        text = f"{_lead(r)}\n\n{rule}" if shape < 2 else f"{rule}\n\nで、{_fmt(r, r.choice(U_ASK))}"
    _user_episode(w, spec, length, text, _ack(r, spec), adopt=adopt)


def _render_plan(w: _Writer, spec: _Spec, length: int) -> None:
    r = w.rng
    text = spec.extra["text"] if r.random() < 0.5 else f"{_lead(r)}\n\n{spec.extra['text']}"
    _user_episode(w, spec, length, text, _ack(r, spec))


def _render_decision(w: _Writer, spec: _Spec, length: int) -> None:
    r = w.rng
    v, s = spec.value, spec.stale
    if s is not None:
        text = r.choice((f"やっぱり{s}じゃなくて{v}にしよう。昨日の負荷試験見たらそっちの方がいい",
                         f"change of plan: drop {s}, let's go with {v} instead. the numbers from staging convinced me",
                         f"うーん、考え直しました。{v}でいきます。{s}はやめ"))
    else:
        text = r.choice((f"let's go with {v}.", f"決めた、{v}でいこう", f"{_lead(r)}\n\nok {v} it is. 他の案はなしで",
                         f"比較ありがとう。{v}にします"))
    _user_episode(w, spec, length, text, _ack(r, spec))


def _render_decision_stale(w: _Writer, spec: _Spec, length: int) -> None:
    r = w.rng
    s = spec.stale
    text = r.choice((f"とりあえず{s}でいこう。あとで変えるかもだけど", f"for now let's do {s}, we can revisit later",
                     f"{_lead(r)}\n\n一旦{s}で実装してみて"))
    w.user(text)
    if length == 4:
        w.side_call()
    w.say(r.choice((f"OK, starting with {s}.", f"了解、まず{s}で組みます。")))


STALE_SAY = {
    "namespace": ("stagingで確認するときは namespace `{s}` でお願い", "for the staging checks use namespace {s}"),
    "ticket": ("この作業はチケット {s} に紐付けておいて", "track this under {s} please"),
    "migration": ("流すmigrationは {s} のやつです", "the migration to roll out is {s}"),
    "node": ("cordonするnodeは {s} です", "the node to cordon is {s}"),
    "branch": ("pushするブランチは {s} で", "push the fix to {s}"),
    "secret": ("webhookの鍵は secret `{s}` に入ってます", "the PayNest webhook key lives in the secret {s}"),
    "monitor": ("migration中は Datadog の {s} をmuteしといて", "mute {s} in Datadog while the migration runs"),
    "database": ("backfillは {s} から読んで", "have the backfill read from {s}"),
}
CORRECT_SAY = (
    "いや違う、{s}じゃなくて{v}です。すみません",
    "訂正: {what}は{v}でした。さっきのは間違えました",
    "no wait, it's {v}, not {s}. my bad",
    "I gave you the wrong {what} earlier — it's {v}",
    "the other one, sorry: {v}",
    "ちょっと待って、{what}、{s}は古い方で、正しくは{v}",
)


def _render_correction_stale(w: _Writer, spec: _Spec, length: int) -> None:
    r = w.rng
    ja, en = STALE_SAY[spec.extra["what"]]
    text = (ja if spec.lang == "ja" else en).format(s=spec.stale)
    if r.random() < 0.5:
        text = f"{_lead(r)}\n\n{text}"
    w.user(text)
    if length == 4:
        w.side_call()
    w.say(r.choice((f"了解、{spec.stale}ですね。", f"OK — {spec.stale}, noted.")))


def _render_correction(w: _Writer, spec: _Spec, length: int) -> None:
    r = w.rng
    line = r.choice(CORRECT_SAY).format(s=spec.stale, v=spec.value, what=spec.extra["what"])
    shape = r.randrange(3)
    if shape == 0:
        text = line
    elif shape == 1:
        text = f"{_lead(r)}\n\n{line}\n\n{_fmt(r, r.choice(U_ASK))}"
    else:
        text = (f"{_fmt(r, r.choice(U_ASK))}\n\nあと {_lead(r)} {line}{'。' if JA_CHARS.search(line) else '.'}"
                f"\n\nそれと{r.choice(PEOPLE)}さんが{_clock(r)}に{r.choice(SVCS)}のdeployするって")
    w.user(text)
    if length == 4:
        w.side_call()
    w.say(r.choice((f"Thanks, switched to {spec.value}.", f"了解、{spec.value}に直しました。以降はそちらを使います。",
                    f"Got it — {spec.value}, not the one from before.")))


def _error_run(w: _Writer, spec: _Spec, passing: bool) -> tuple[dict[str, Any], str]:
    r = w.rng
    ex = spec.extra
    tool, svc, pkg, fw = ex["tool"], ex["svc"], ex["pkg"], FW[ex["w"]]
    want = w.want()
    if tool == "go_build":
        args = {"dir": f"services/{svc}", "cmd": "go build ./... && go vet ./..."}
        if passing:
            return args, "(no output, exit 0)"
        body = [f"# {MOD}/{svc}/internal/{pkg}", spec.value,
                f"./internal/{pkg}/handler.go:{r.randint(20, 300)}:{r.randint(2, 30)}: too many errors"]
        return args, "\n".join(body)
    if tool == "go_test":
        args = {"dir": f"services/{svc}", "packages": f"./internal/{pkg}/...", "flags": "-count=1 -race -v"}
        _, base = w.out.go_test(want)
        base = "\n".join(x for x in base.splitlines() if "FAIL" not in x and not x.startswith(("ok  ", "PASS")))
        if passing:
            return args, base + f"\nPASS\nok  \t{MOD}/{svc}/internal/{pkg}\t{r.uniform(0.3, 3):.3f}s"
        if spec.value.startswith("panic"):
            tail = [spec.value, "", f"goroutine {r.randint(20, 400)} [running]:", "testing.tRunner.func1.2({0x1029e4f60, 0x14000a8c018})",
                    "\t/usr/local/go/src/testing/testing.go:1631 +0x1c4",
                    f"{MOD}/{svc}/internal/{pkg}.(*{FT[ex['w']]}).pick(...)",
                    f"\t/src/services/{svc}/internal/{pkg}/{fw}.go:{r.randint(30, 200)} +0x{_hex(r, 3)}",
                    "created by testing.(*T).Run in goroutine 1", "\t/usr/local/go/src/testing/testing.go:1742 +0x318",
                    f"FAIL\t{MOD}/{svc}/internal/{pkg}\t{r.uniform(0.1, 2):.3f}s"]
        else:
            tail = [f"=== RUN   Test{FT[ex['w']]}_Retry", f"    {fw}_test.go:{r.randint(20, 200)}: attempts = {r.randint(1, 2)}, want {r.randint(3, 5)}",
                    spec.value, "FAIL", f"FAIL\t{MOD}/{svc}/internal/{pkg}\t{r.uniform(0.1, 2):.3f}s"]
        return args, base + "\n" + "\n".join(tail) + "\nFAIL"
    if tool == "shell":
        args = {"cmd": f"cd services/{svc} && golangci-lint run ./..."}
        lines = [f"internal/{r.choice(PKGS)}/{r.choice(FILES)}.go:{r.randint(10, 500)}:{r.randint(2, 30)}: line is {r.randint(121, 190)} characters (lll)"
                 for _ in range(max(2, want // 160))]
        if passing:
            return args, "\n".join(lines + [f"{len(lines)} issues."])
        lines.insert(len(lines) // 2, spec.value)
        return args, "\n".join(lines + [f"{len(lines)} issues."])
    if tool == "grpcurl":
        args = {"args": f"-plaintext -d '{{\"zone\": \"{r.choice(ZONES)}\"}}' localhost:9090 dispatch.v1.DispatchService/QuoteFee"}
        if passing:
            return args, json.dumps({"feeJpy": str(r.randint(200, 600)), "etaSeconds": r.randint(600, 2400),
                                     "quotedAt": _ts(r)}, indent=2)
        return args, f"ERROR:\n  Code: DeadlineExceeded\n  Message: upstream quote timed out\n{spec.value}\n(took {r.randint(801, 3000)}ms)"
    args = {"db": "dispatch_stg", "sql": f"INSERT INTO {fw}_slots (order_id, zone, slot_at) SELECT id, zone, created_at FROM orders WHERE created_at > now() - interval '1 day';"}
    if passing:
        return args, f"INSERT 0 {r.randint(1000, 40000)}"
    return args, (f"{spec.value}\nDETAIL:  Key (order_id)=({r.randint(1_000_000, 9_999_999)}) already exists.\n"
                  f"CONTEXT:  SQL statement executed at {_clock(r)}")


def _render_error(w: _Writer, spec: _Spec, length: int) -> None:
    r = w.rng
    w.user(_fmt(r, r.choice(("{svc}のテストとビルド回して", "run the checks on what we changed", "もう一回叩いてみて",
                             "ok now try it for real", "lintも含めて確認お願い"))))
    args, out = _error_run(w, spec, passing=False)
    spec.extra["args"] = args  # the later passing run repeats this very command
    w.calls(_fmt(r, r.choice(PRE[spec.extra["tool"]])), [(spec.extra["tool"], args, out)])
    w.say(r.choice((f"It fails:\n\n```\n{spec.value}\n```\n\nI'll look at the cause before touching anything else.",
                    f"失敗しました。`{spec.value}` が出ています。原因を見ます。",
                    "That's red. The error is in the code we touched; I'll read it and propose a fix.")))


def _render_resolve(w: _Writer, spec: _Spec, length: int) -> None:
    r = w.rng
    w.user(r.choice(("直して", "fix it pls", "ok fix that and rerun", "それ直してもう一回")))
    w.calls("Applying the fix.", [w.filler_call("edit_file")])
    _, out = _error_run(w, spec, passing=True)
    w.calls("Re-running the same command.", [(spec.extra["tool"], spec.extra["args"], out)])
    w.say(r.choice(("Green now. Same command, no errors.", "通りました。同じコマンドでエラーは消えています。")))


def _file_content(r: random.Random, spec: _Spec) -> str:
    t, fw, ft = spec.extra["t"], FW[spec.extra["w"]], FT[spec.extra["w"]]
    if t == 1:
        return "\n".join(["-- +goose Up", f"CREATE TABLE {fw}_slots (", "  id bigserial PRIMARY KEY,", "  order_id bigint NOT NULL,",
                          "  zone text NOT NULL,", "  slot_at timestamptz NOT NULL,", "  created_at timestamptz NOT NULL DEFAULT now()", ");",
                          f"CREATE INDEX {fw}_slots_zone_idx ON {fw}_slots (zone, slot_at);", "", "-- +goose Down", f"DROP TABLE {fw}_slots;"])
    if t == 2:
        return "\n".join(["apiVersion: policy/v1", "kind: PodDisruptionBudget", "metadata:", f"  name: {spec.extra['svc']}-{fw}",
                          "spec:", "  minAvailable: 2", "  selector:", "    matchLabels:", f"      app: {spec.extra['svc']}"])
    if t == 3:
        return "\n".join(["syntax = \"proto3\";", "", f"package {spec.extra['pkg']}.v1;", "", f"message {ft}Policy {{",
                          "  int32 max_attempts = 1;", "  int32 window_seconds = 2;", "  repeated string zones = 3;", "}"])
    lines = [f"package {spec.extra['pkg']}", "", f"// {ft}Window groups orders that can share a courier.",
             f"type {ft}Window struct {{", "\tSize  time.Duration", "\tZones []string", "}", ""]
    lines += r.choice(GO)
    return "\n".join(lines)


def _render_file(w: _Writer, spec: _Spec, length: int) -> None:
    r = w.rng
    w.user(_fmt(r, r.choice(("それ、別ファイルに切り出して", "ok write it", "書いちゃって", "go ahead and add it", "新しいファイルでお願い"))))
    tool = spec.extra["tool"]
    content = _file_content(r, spec)
    if tool == "write_file":
        args = {"path": spec.value, "content": content}
        res = f"Wrote {content.count(chr(10)) + 1} lines ({len(content)} bytes) to {spec.value}"
    else:
        args = {"path": spec.value, "old_string": "", "new_string": content}
        res = f"Created {spec.value} ({content.count(chr(10)) + 1} lines)."
    w.calls(r.choice(("Creating the file.", "", "新規ファイルを作ります。")), [(tool, args, res)])
    w.say(r.choice((f"Added `{spec.value}`. Nothing else references it yet.", f"`{spec.value}` を作成しました。",
                    "Created it; it compiles on its own. Next I'd wire it in.")))


def _render_identifier(w: _Writer, spec: _Spec, length: int) -> None:
    r = w.rng
    v, t = spec.value, spec.extra["t"]
    if spec.extra["said"]:
        text = {"order": f"CSから問い合わせ。order {v} がassignedのまま30分止まってるらしい。見てくれる?",
                "trace": f"this trace looks weird, can you follow it? trace_id {v}",
                "inc": f"{_lead(r)}\n\nこの件は {v} に紐づけて進めます",
                "courier": f"配達員さんのアカウント {v} で位置が更新されないって報告きてる"}[t]
        w.user(text)
        if t in ("order", "courier"):
            col = "order_ref" if t == "order" else "courier_ref"
            rows = [f" {r.randint(1_000_000, 9_999_999):>9} | {v} | {r.choice(ZONES):<9} | {r.choice(('assigned', 'picked_up', 'pending')):<9} | 2024-06-{r.randint(3, 28):02d} {_clock(r)}:{r.randint(10, 59)}+09"]
            rows += [f" {r.randint(1_000_000, 9_999_999):>9} | {'':<{len(v)}} | {r.choice(ZONES):<9} | {'delivered':<9} | 2024-06-{r.randint(3, 28):02d} {_clock(r)}:{r.randint(10, 59)}+09"
                     for _ in range(max(2, w.want() // 80))]
            w.calls("Looking it up on the replica.", [("psql", {"db": "dispatch_replica", "sql": f"SELECT id, {col}, zone, status, updated_at FROM deliveries WHERE {col} = '{v}' OR updated_at > now() - interval '40 min' ORDER BY updated_at DESC;"},
                                                       f"    id     | {col:<{len(v)}} |   zone    |  status   |       updated_at\n" + "\n".join(rows))])
        else:
            logs = "\n".join(w.out.zap_line() for _ in range(max(3, w.want() // 330)))
            w.calls("Searching the logs for it.", [("kubectl", {"context": "tbm-prod-tokyo", "args": f"logs -n dispatch deploy/dispatch --since=2h | grep {v}"},
                                                     logs.replace("\"zone\"", f"\"ref\":\"{v}\",\"zone\"", 1))])
        w.say(r.choice((f"Found {v} in the dispatch logs; it went through the normal path. Nothing stuck on our side yet.",
                        f"{v} のログを確認しました。エラーはなく、最後の更新は{_clock(r)}です。")))
        return
    w.user(_fmt(r, {"pod": "{svc}どうなってる? podが落ちてるってアラート来てる", "sha": "原因のcommit探せる? 昨日のdeployからおかしい",
                     "payment": "captureのレスポンス見せて"}[t]))
    if t == "pod":
        svc = spec.extra["svc"]
        rows = ["NAME                                   READY   STATUS             RESTARTS      AGE"]
        for _ in range(max(3, w.want() // 90)):
            rows.append(f"{w.out.pod(svc):<38} 1/1     Running            {r.randint(0, 2):<13} {r.randint(1, 9)}h")
        rows.insert(r.randint(1, len(rows)), f"{v:<38} 0/1     CrashLoopBackOff   {r.randint(5, 40)} ({r.randint(1, 9)}m ago)   {r.randint(1, 9)}h")
        w.calls("Checking the pods.", [("kubectl", {"context": "tbm-stg-tokyo", "args": f"get pods -n {svc}"}, "\n".join(rows))])
        w.say(f"One pod is crash-looping: `{v}`. The others are fine; I'll pull its previous logs next.")
    elif t == "sha":
        rows = [f"{_hex(r, 12)} {r.choice(('fix', 'chore', 'feat'))}({r.choice(PKGS)}): {r.choice(('tidy imports', 'bump deps', 'rename fields'))}" for _ in range(max(5, w.want() // 70))]
        rows.insert(r.randint(0, len(rows)), f"{v} feat(assign): score couriers by distance and load")
        w.calls("Listing recent commits.", [("git", {"args": "log --oneline --abbrev=12 -n 60"}, "\n".join(rows))])
        w.say(f"The likely culprit is {v} (score couriers by distance and load); it's the only change in the matcher since the last good deploy.")
    else:
        body = {"paymentId": v, "status": "CAPTURED", "amountJpy": str(r.randint(900, 9000)), "capturedAt": _ts(r),
                "merchantRef": f"ord_{r.randint(10_000_000, 99_999_999)}"}
        w.calls("Calling CapturePayment on staging.", [("grpcurl", {"args": "-plaintext -d '{\"order_id\": \"ord_x\"}' localhost:9091 payment.v1.PaymentService/CapturePayment"},
                                                        json.dumps(body, indent=2))])
        w.say(f"Capture succeeded; PayNest returned {v}.")


def _render_finding(w: _Writer, spec: _Spec, length: int) -> None:
    r = w.rng
    v, t, fw = spec.value, spec.extra["t"], FW[spec.extra["w"]]
    want = w.want()
    w.user(r.choice(("なんでこんなに遅いの?", "dig into it", "原因わかる?", "ok what is it", "調べて")))
    if t == 0:
        lines = [f"     {r.uniform(1, 3):.2f}s {r.uniform(25, 45):.2f}% {r.uniform(25, 45):.2f}%      {r.uniform(3, 5):.2f}s {r.uniform(45, 60):.2f}%  {MOD}/dispatch/internal/{v}"]
        funcs = ("runtime.mallocgc", "runtime.scanobject", "runtime.memmove", "sort.insertionSort", "runtime.mapaccess2_faststr")
        for _ in range(max(6, want // 75)):
            lines.append(f"{r.uniform(0.01, 0.5):>9.2f}s {r.uniform(0.1, 6):>5.2f}% {r.uniform(40, 90):>5.2f}% {r.uniform(0.01, 2):>9.2f}s {r.uniform(0.1, 20):>5.2f}%  {r.choice(funcs)}")
        out = "File: dispatch\nType: cpu\nDuration: 30s, Total samples = 5.61s\n      flat  flat%   sum%        cum   cum%\n" + "\n".join(lines)
        call = ("shell", {"cmd": "go tool pprof -top -nodecount=30 http://localhost:6060/debug/pprof/profile?seconds=30"}, out)
        meaning = f"{v} is the hot spot — about a third of CPU flat. It rescans every cell per order; caching the ring per zone should cut it."
    elif t == 1:
        lines = ["                                   QUERY PLAN", "-" * 80,
                 f"Limit  (cost=0.00..{r.uniform(9000, 90000):.2f} rows=50 width=96) (actual time={r.uniform(300, 900):.3f}..{r.uniform(900, 2000):.3f} rows=50 loops=1)",
                 f"  ->  {v}  (cost=0.00..{r.uniform(90000, 300000):.2f} rows={r.randint(10**5, 10**6)} width=96) (actual time={r.uniform(300, 900):.3f}..{r.uniform(900, 2000):.3f} rows=50 loops=1)",
                 "        Filter: ((zone = 'meguro'::text) AND (slot_at > now()))",
                 f"        Rows Removed by Filter: {r.randint(10**5, 10**6)}"]
        for _ in range(max(2, want // 70)):
            lines.append(f"        Buffers: shared hit={r.randint(10, 9000)} read={r.randint(1000, 90000)}")
        lines.append(f"Execution Time: {r.uniform(900, 2500):.3f} ms")
        call = ("psql", {"db": "dispatch_stg", "sql": f"EXPLAIN (ANALYZE, BUFFERS) SELECT * FROM {fw}_slots WHERE zone = 'meguro' AND slot_at > now() LIMIT 50;"}, "\n".join(lines))
        meaning = f"The plan does a {v}: no index on (zone, slot_at), so every call reads the whole table. An index would fix it."
    elif t == 2:
        env = [f"{k}={x}" for k, x in (("GOMAXPROCS", "2"), ("HTTP_ADDR", ":8080"), ("GRPC_ADDR", ":9090"), ("LOG_LEVEL", "info"),
                                       ("DD_ENV", "staging"), ("DD_SERVICE", "dispatch"), ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://datadog-agent:4317"))]
        env += [f"KUBERNETES_SERVICE_PORT_{i}=443" for i in range(max(2, want // 40))]
        env.insert(r.randint(2, len(env)), v)
        call = ("kubectl", {"context": "tbm-stg-tokyo", "args": "exec -n dispatch deploy/dispatch -- env"}, "\n".join(env))
        meaning = f"The running pod has {v}, not what the ConfigMap in git says — someone patched it by hand, which explains the early reassignments."
    elif t == 3:
        svc = r.choice(SVCS)
        lines = [f"Name:         {w.out.pod(svc)}", f"Namespace:    {svc}", "Containers:", f"  {svc}:", "    State:          Running",
                 "    Last State:     Terminated", "      Reason:       OOMKilled", "      Exit Code:    137", "    Restart Count:  9",
                 "    Limits:", "      cpu:     1", f"      {v}", "    Requests:", "      cpu:     250m", "      memory:  128Mi", "Events:"]
        for _ in range(max(2, want // 90)):
            lines.append(f"  Warning  BackOff  {r.randint(1, 59)}m  kubelet  Back-off restarting failed container {svc}")
        call = ("kubectl", {"context": "tbm-stg-tokyo", "args": f"describe pod -n {svc} -l app={svc}"}, "\n".join(lines))
        meaning = f"It's OOMKilled (exit 137) with {v} as the limit; the heap peaks above that during the lunch batch."
    elif t == 4:
        lines = [f"Bisecting: {r.randint(2, 60)} revisions left to test after this (roughly {r.randint(1, 6)} steps)"]
        for _ in range(max(2, want // 120)):
            lines.append(f"[{_hex(r, 40)}] {r.choice(('chore: bump deps', 'fix(eta): clamp negative', 'feat(order): add tip field'))}")
        lines += [f"{v} is the first bad commit", f"commit {v}", f"Author: {r.choice(PEOPLE_EN)} <dev@tabemaru.jp>", "",
                  "    refactor(assign): share matcher state across workers"]
        call = ("git", {"args": "bisect run go test ./internal/assign/ -run TestAssign_NearestCourier -count=1"}, "\n".join(lines))
        meaning = f"Bisect points at {v}: the refactor that shares matcher state across workers — that's the data race."
    else:
        lines = ["    Applied At                  Migration", "    ======================================="]
        for _ in range(max(3, want // 110)):
            lines.append(f"    Tue May {r.randint(1, 31):>2} {_clock(r)}:{r.randint(10, 59)} 2024 -- 2024{r.randint(1, 5):02d}{r.randint(10, 28)}0{r.randint(10000, 99999)}_{r.choice(TABLES)}_index.sql")
        lines.append(f"    Pending                  -- {v}")
        call = ("shell", {"cmd": "cd services/dispatch && goose -dir db/migrations postgres \"$STG_DSN\" status"}, "\n".join(lines))
        meaning = f"Staging is one migration behind: {v} is still pending, so the new column isn't there — that's why the query fails."
    w.calls(_fmt(r, r.choice(PRE[call[0]])), [call])
    w.say(meaning)


# --- planning and assembly ----------------------------------------------------------------------------------------

def _episodes(rng: random.Random, n: int, k: int) -> list[_Ep]:
    f = _Facts(rng)
    specs = {
        "instruction": _instruction_specs(rng, f, k), "correction": _correction_specs(rng, f, k),
        "decision": _decision_specs(rng, f, k), "error": _error_specs(rng, f, k), "file": _file_specs(rng, f, k),
        "identifier": _identifier_specs(rng, f, k), "finding": _finding_specs(rng, f, k), "plan": _plan_specs(rng, f, k),
    }
    lo, hi = 0.045 * n + 1, 0.83 * n
    eps: list[_Ep] = []
    long = 4 if n >= 200 else 2

    def user_len() -> int:
        return long if rng.random() < 0.3 else 2

    # stratified over the whole span, so that every stretch of the session holds facts of some kind
    total = len(KINDS) * k - min(2, k)  # the first two rules have places of their own
    strata = [lo + (hi - lo) * (j + rng.uniform(0.15, 0.85)) / total for j in range(total)]
    rng.shuffle(strata)
    for kind in KINDS:
        ts = [0.0] * min(2, k) + [strata.pop() for _ in range(k - min(2, k))] if kind == "instruction" else \
            [strata.pop() for _ in range(k)]
        for i, spec in enumerate(specs[kind]):
            t = ts[i]
            if kind == "instruction":
                if i == 0:
                    t = first_rule = rng.uniform(0.035 * n + 1, 0.06 * n)
                elif i == 1:
                    t = first_rule + rng.uniform(0.02 * n, 0.05 * n)
                else:
                    t = 0.12 * n + (hi - 0.12 * n) * (i - 2 + rng.uniform(0.1, 0.9)) / max(1, k - 2)
                eps.append(_Ep(t, (ln := user_len()), 0, _bind(_render_instruction, spec, ln), spec,
                               key=-1.0 if i == 0 else t - 0.04 * n if i == 1 else t))
            elif kind == "plan":
                eps.append(_Ep(t, (ln := user_len()), 0, _bind(_render_plan, spec, ln), spec))
            elif kind == "decision":
                if spec.stale is not None:
                    t = max(t, lo + 20)
                    st = max(lo - 1, t - rng.uniform(8, 0.25 * n))
                    eps.append(_Ep(st, (ln := user_len()), 0, _bind(_render_decision_stale, spec, ln), spec, role="stale"))
                eps.append(_Ep(t, (ln := user_len()), 0, _bind(_render_decision, spec, ln), spec))
            elif kind == "correction":
                far = i % 2 == 1 and n >= 240
                if far:
                    t = max(t, lo + 150)
                    dist = rng.uniform(130, min(400, max(131, t - lo)))
                else:
                    t = max(t, lo + 10)
                    dist = rng.uniform(6, min(45, max(7, 0.1 * n)))
                eps.append(_Ep(max(lo - 1, t - dist), (ln := user_len()), 0, _bind(_render_correction_stale, spec, ln), spec, role="stale"))
                eps.append(_Ep(t, (ln := user_len()), 0, _bind(_render_correction, spec, ln), spec))
            elif kind == "error":
                eps.append(_Ep(t, 4, 2, _bind(_render_error, spec, 4), spec))
                if spec.extra["resolved"]:
                    eps.append(_Ep(t + rng.uniform(6, 0.04 * n + 8), 6, 4, _bind(_render_resolve, spec, 6), spec, role="resolve"))
            elif kind == "file":
                eps.append(_Ep(t, 4, 1, _bind(_render_file, spec, 4), spec))
            elif kind == "identifier":
                eps.append(_Ep(t, 4, 0 if spec.extra["said"] else 2, _bind(_render_identifier, spec, 4), spec))
            else:
                eps.append(_Ep(t, 4, 2, _bind(_render_finding, spec, 4), spec))
    if n < 300:  # a late look at everything (several calls at once), so that short sessions call every tool too
        eps.append(_Ep(0.885 * n, 7, 0, lambda w: w.turn(7, ask=rng.choice(CHECK_ALL)), None, role="filler"))
    return eps


CHECK_ALL = ("最後に全体の状態まとめて確認して。pod、DB、grpc、lint全部", "before we wrap up, can you sanity check everything: pods, db, grpc, lint",
             "一通りチェックしといて")


def _bind(fn: Callable[[_Writer, _Spec, int], None], spec: _Spec, length: int) -> Callable[[_Writer], None]:
    return lambda w: fn(w, spec, length)


def _place(eps: list[_Ep], n: int, squeeze: float) -> bool:
    """Give each episode a start (in target order, gaps of 0 or 2 and more but never 3); False if they don't fit."""
    order = sorted(eps, key=lambda e: e.target if e.key is None else e.key)
    first = OPENING
    pos = first
    for e in order:
        s = max(pos, int(e.target * squeeze))
        if s - pos in (1, 3):
            s += 1
        e.start = s
        pos = s + e.length
    last = n - 1
    gap = last - pos
    if gap < 0:
        return False
    if gap in (1, 3):
        i = len(order) - 1
        while i >= 0:
            order[i].start += 1
            prev_end = order[i - 1].start + order[i - 1].length if i > 0 else first
            if order[i].start - prev_end not in (1, 3):
                break
            i -= 1
        if i < 0:
            return False
    eps[:] = order
    return True


def _check(eps: list[_Ep], n: int) -> bool:
    lo, hi = 0.03 * n, 0.88 * n
    instr = sorted(e.start for e in eps if e.role == "fact" and e.spec is not None and e.spec.kind == "instruction")
    if len(instr) >= 2 and (instr[0] > n / 10 or instr[1] > n / 7):
        return False
    for e in eps:
        idx = e.start + e.carrier
        if e.role in ("fact", "stale") and not lo <= idx <= hi:
            return False
    facts = [e for e in eps if e.role == "fact"]
    thirds = [0, 0, 0]
    for e in facts:
        thirds[min(2, (e.start + e.carrier) * 3 // n)] += 1
    if min(thirds) < len(facts) // 6:
        return False
    # dependants after what they depend on
    start = {(id(e.spec), e.role): e.start for e in eps}
    for e in eps:
        if e.role in ("stale", "resolve") and e.spec is not None:
            f = start[(id(e.spec), "fact")]
            if (e.role == "stale" and e.start >= f) or (e.role == "resolve" and e.start <= f):
                return False
    return True


def make_session(seed: int = 1, messages: int = 400) -> Session:
    """A session of exactly ``messages`` messages (at least ``MIN_MESSAGES``) with ``per_kind(messages)`` facts of
    each kind; the same seed and size give the same bytes."""
    if messages < MIN_MESSAGES:
        raise ValueError(f"a goservice session needs at least {MIN_MESSAGES} messages, got {messages}")
    rng = random.Random(seed)
    n, k = messages, per_kind(messages)
    for attempt in range(60):
        if attempt % 10 == 0:
            eps = _episodes(rng, n, k)  # another draw when squeezing this one did not fit
        if _place(eps, n, 0.97 ** (attempt % 10)) and _check(eps, n):
            break
    else:
        raise RuntimeError(f"could not place the facts of a {n}-message session")
    w = _Writer(rng, n)
    w.add({"role": "system", "content": SYSTEM})
    w.user(_fmt(rng, rng.choice(OPEN_USER)))
    w.calls(rng.choice(OPEN_ASSIST), [w.filler_call("git"), w.filler_call("shell")])
    w.say(rng.choice(OPEN_DONE))
    facts: list[Fact] = []
    stale_at: dict[int, int] = {}
    resolved_at: dict[int, int] = {}
    fact_at: dict[int, int] = {}
    for e in eps:
        w.fill(e.start - len(w.msgs))
        assert len(w.msgs) == e.start, (len(w.msgs), e.start)
        e.render(w)
        assert len(w.msgs) == e.start + e.length, (e.role, e.spec and e.spec.kind, len(w.msgs), e.start, e.length)
        key = id(e.spec)
        if e.role == "filler":
            continue
        if e.role == "stale":
            stale_at[key] = e.start + e.carrier
        elif e.role == "resolve":
            resolved_at[key] = e.start + e.carrier
        else:
            fact_at[key] = e.start + e.carrier
    w.fill(n - 1 - len(w.msgs))
    w.user(rng.choice(("ok, 今日はここまで。明日続きから", "thanks, let's stop here for today", "おk、続きは明日で",
                       "ありがとう、一旦ここまでにしましょう")))
    for e in eps:
        if e.role != "fact" or e.spec is None:
            continue
        s = e.spec
        key = id(s)
        facts.append(Fact(s.kind, s.value, fact_at[key], s.query, stale=s.stale if key in stale_at else None,
                          stale_index=stale_at.get(key), resolved=resolved_at.get(key)))
    facts.sort(key=lambda x: (x.index, x.kind))
    return Session(messages=w.msgs, facts=facts, seed=seed, pasted=w.pasted)
