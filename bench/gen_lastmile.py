"""Last-mile delivery operations sessions with planted facts, for the fidelity bench.

An operations lead at a Jakarta last-mile delivery company ("Antarin") works for hours with an agent on the
dispatch and routing stack: a Go routing service (``go test`` runs, panics with goroutine traces), a Python ETA
model (pytest, pandas), PostgreSQL/PostGIS, the Kafka tracking pipeline and its consumer lag, the courier Android
app (logcat, Kotlin exceptions), hub throughput CSVs, the Redis-backed dispatch queue, Grafana panels and
Terraform plans. The user writes Indonesian mixed with English the way Jakarta tech teams chat ("eh salah",
"bukan yang itu", "gas", "sip"), and pastes what others wrote: a client's SLA excerpt, the hub head's WhatsApp
messages, the odd-even plate (ganjil-genap) notice, a 3PL partner's mail, a postmortem, a Jira ticket and the
finance team's COD reconciliation note.

    from gen_lastmile import make_session
    session = make_session(seed=1, messages=400)      # about 600k characters
    session = make_session(seed=1, messages=3000)     # about 4.7M characters
    for fact in session.facts:
        print(fact.kind, fact.index, fact.value, "-", fact.query)
    for index, text in session.pasted:                # what the user pasted rather than wrote
        assert text in session.messages[index]["content"]

``session.messages`` is an OpenAI chat conversation (a system prompt, then user turns, assistant turns with
``tool_calls`` answered at once by ``tool`` messages, ending on an answer and a last user turn). Most characters
are tool outputs. ``session.facts`` holds ``per_kind(messages)`` facts of each of :data:`KINDS`, planted between 3%
and 88% of the session: a value occurs first in its own message and afterwards only in the few messages that answer
it, never in the filler. Same seed and size, same bytes.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sessiongen import Fact, Message, Session, text_of

KINDS = ("instruction", "correction", "decision", "error", "file", "identifier", "finding", "plan")
TOOLS = ("shell", "read_file", "edit_file", "go_test", "pytest", "psql", "kafka", "logcat", "grafana", "terraform")
MIN_MESSAGES = 60
CHARS_PER_MESSAGE = 1560  # 400 messages ~ 624k characters, 3000 ~ 4.7M

Gen = Callable[[int], str]
R = random.Random

# --- the world ---------------------------------------------------------------------------------------------------
HUBS = ("Cakung", "Cengkareng", "Pulogadung", "Kebon Jeruk", "Cipayung", "Tangerang Kota", "Bekasi Barat", "Depok",
        "Serpong", "Cikarang", "Bekasi Timur", "Bogor")
HUB_CODES = ("CKG", "CGK", "PLG", "KBJ", "CPY", "TGR", "BKB", "DPK", "SRP", "CKR", "BKT", "BGR")
PEOPLE = ("Bayu", "Dewi", "Kevin", "Putri", "Andre", "Mbak Rina", "Pak Darto", "Yoga", "Nadia", "Fajar", "Kak Ayu")
ZONES = ("Jakarta Barat", "Jakarta Utara", "Tangerang Selatan", "Bekasi Utara", "Depok Lama", "Bogor Tengah")
TOPICS = ("courier.location.v3", "dispatch.events.v2", "order.status.v5", "pod.uploaded.v1")
GROUPS = ("tracking-sink", "eta-feature-writer", "dispatch-auditor", "pod-indexer")
GO_PKGS = ("internal/solver", "internal/dispatch", "internal/geo", "internal/tracking", "internal/eta",
           "internal/hubs", "internal/api", "pkg/h3util", "pkg/wib", "cmd/routing-svc")
GO_TESTS = ("TestSolve_SingleDepot", "TestSolve_TimeWindows", "TestSolve_MixedFleet", "TestAssign_RoundRobin",
            "TestAssign_Backpressure", "TestQueue_Visibility", "TestQueue_Requeue", "TestGeo_SnapToRoad",
            "TestGeo_PolygonContains", "TestH3_KRing", "TestTracking_DedupPings", "TestETA_ClientRetry",
            "TestHubs_ShiftWindows", "TestAPI_CreateBatch", "TestWIB_ParseCutoff", "TestSolve_Reoptimize")
PY_TESTS = ("tests/test_features.py", "tests/test_train.py", "tests/test_serve.py", "tests/test_traffic.py",
            "tests/test_holidays.py", "tests/test_split.py", "tests/test_metrics.py", "tests/test_io.py")
FILLER_PATHS = {
    "go": ("internal/solver/solver.go", "internal/solver/vrp.go", "internal/dispatch/queue.go",
           "internal/dispatch/assign.go", "internal/geo/postgis.go", "internal/geo/h3.go",
           "cmd/routing-svc/main.go", "internal/tracking/consumer.go", "internal/eta/client.go"),
    "py": ("eta/model/train.py", "eta/features/build.py", "eta/serve/app.py", "eta/features/traffic.py",
           "tests/test_train.py"),
    "kt": ("app/src/main/java/id/antarin/courier/ui/TaskListFragment.kt",
           "app/src/main/java/id/antarin/courier/sync/LocationUploader.kt"),
    "yaml": ("deploy/helm/routing-svc/values.yaml", "configs/dispatch.yaml"),
    "tf": ("infra/terraform/envs/prod/main.tf",),
    "sql": ("sql/hub_throughput.sql", "sql/late_by_kecamatan.sql"),
}
ALL_FILLER_PATHS = tuple(p for ps in FILLER_PATHS.values() for p in ps)

SYSTEM = (
    "You are the engineering agent of Antarin's dispatch & routing team (Jakarta). You work in the monorepo at "
    "/srv/antarin with the routing service (Go), the ETA model (Python), the courier Android app (Kotlin), SQL for "
    "the PostGIS database `dispatch`, and Terraform for AWS ap-southeast-3. Tools: shell, read_file, edit_file, "
    "go_test, pytest, psql (read replica unless told otherwise), kafka (admin CLI), logcat (test devices), grafana "
    "(panel queries) and terraform (plan only unless the user says apply). Explain what you find in plain words, "
    "quote numbers exactly, keep the user's standing rules, and ask before touching production."
)


def per_kind(messages: int) -> int:
    """Facts of each kind in a session of ``messages``: 1 at 60, 6 at 400, 12 at 3000, linear in between."""
    if messages <= 400:
        return max(1, int(1 + (messages - 60) * 5 / 340 + 0.5))
    return int(6 + (messages - 400) * 6 / 2600 + 0.5)


# --- chat builder ------------------------------------------------------------------------------------------------
class _Chat:
    """Appends messages; tool outputs of the filler are generated last, to the size the session needs."""

    def __init__(self, rng: R) -> None:
        self.rng = rng
        self.messages: list[Message] = []
        self.facts: list[dict[str, Any]] = []
        self.pasted: list[tuple[int, str]] = []
        self.deferred: list[tuple[Message, Gen]] = []
        self.unused = list(TOOLS)
        rng.shuffle(self.unused)
        self.count = 0
        self.todo_done = 0
        self.calls_by_id: dict[str, dict[str, Any]] = {}

    def user(self, text: str) -> int:
        self.messages.append({"role": "user", "content": text})
        return len(self.messages) - 1

    def say(self, text: str) -> int:
        self.messages.append({"role": "assistant", "content": text})
        return len(self.messages) - 1

    def call(self, calls: list[tuple[str, dict[str, Any]]], text: str | None = None) -> list[str]:
        ids = []
        out = []
        for name, args in calls:
            self.count += 1
            cid = f"call_{self.count:05d}"
            ids.append(cid)
            out.append({"id": cid, "type": "function",
                        "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)}})
            self.calls_by_id[cid] = out[-1]["function"]
            if name in self.unused:
                self.unused.remove(name)
        self.messages.append({"role": "assistant", "content": text, "tool_calls": out})
        return ids

    def tool(self, cid: str, name: str, content: str = "", gen: Gen | None = None) -> int:
        m: Message = {"role": "tool", "tool_call_id": cid, "name": name, "content": content}
        self.messages.append(m)
        if gen is not None:
            self.deferred.append((m, gen))
        return len(self.messages) - 1

    def next_tool(self) -> str:
        if self.unused:
            return self.unused[0]
        return self.rng.choices(TOOLS, weights=(14, 9, 4, 10, 9, 11, 8, 7, 7, 5))[0]

    def fact(self, kind: str, value: str, index: int, query: str, **extra: Any) -> dict[str, Any]:
        f = {"kind": kind, "value": value, "index": index, "query": query, **extra}
        self.facts.append(f)
        return f


class _Buf:
    """Lines up to a target size."""

    __slots__ = ("lines", "size")

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.size = 0

    def add(self, line: str) -> None:
        self.lines.append(line)
        self.size += len(line) + 1

    def text(self) -> str:
        return "\n".join(self.lines)


def _clock(r: R) -> str:
    return f"{r.randint(5, 23):02d}:{r.randint(0, 59):02d}"


def _ts(r: R) -> str:
    return f"2025-11-{r.randint(10, 28):02d} {_clock(r)}:{r.randint(0, 59):02d}"


def _hexs(r: R, n: int) -> str:
    return "%0*x" % (n, r.getrandbits(4 * n))


# --- filler tool outputs ------------------------------------------------------------------------------------------
def _go_test_out(r: R, target: int, fail_ok: bool = True) -> str:
    b = _Buf()
    while b.size < target:
        pkg = r.choice(GO_PKGS)
        for t in r.sample(GO_TESTS, r.randint(3, 6)):
            b.add(f"=== RUN   {t}")
            if r.random() < 0.35:
                for sub in r.sample(("empty", "one_courier", "rush_hour", "rain", "ganjil", "max_load", "night"), 2):
                    b.add(f"=== RUN   {t}/{sub}")
                    b.add(f"    --- PASS: {t}/{sub} (0.{r.randint(0, 40):02d}s)")
            if r.random() < 0.15:
                b.add(f"    {pkg.split('/')[-1]}_test.go:{r.randint(20, 400)}: seeded {r.randint(10, 900)} orders "
                      f"across {r.randint(2, 9)} hubs")
            b.add(f"--- PASS: {t} (0.{r.randint(0, 99):02d}s)")
        if fail_ok and r.random() < 0.08:
            b.add("--- FAIL: TestAssign_Backpressure (0.03s)")
            b.add("panic: runtime error: invalid memory address or nil pointer dereference [recovered]")
            b.add("\tpanic: runtime error: invalid memory address or nil pointer dereference")
            b.add(f"[signal SIGSEGV: segmentation violation code=0x1 addr=0x18 pc=0x{_hexs(r, 6)}]")
            b.add("")
            b.add(f"goroutine {r.randint(7, 90)} [running]:")
            b.add(f"testing.tRunner.func1.2({{0x{_hexs(r, 6)}, 0x{_hexs(r, 6)}}})")
            b.add("\t/usr/local/go/src/testing/testing.go:1631 +0x24a")
            b.add("panic({0x9a3c40?, 0xd1e5a0?})")
            b.add("\t/usr/local/go/src/runtime/panic.go:785 +0x132")
            b.add(f"github.com/antarin/routing/internal/dispatch.(*Assigner).pick(0xc000{_hexs(r, 6)}, "
                  f"{{0xc0001ae000, 0x{r.randint(1, 9)}, 0x{r.randint(1, 9)}}})")
            b.add(f"\t/src/internal/dispatch/assign.go:{r.randint(90, 220)} +0x5e")
            b.add("github.com/antarin/routing/internal/dispatch.TestAssign_Backpressure(0xc0001a4820)")
            b.add(f"\t/src/internal/dispatch/assign_test.go:{r.randint(40, 160)} +0x1c5")
            b.add("created by testing.(*T).Run in goroutine 1")
            b.add("\t/usr/local/go/src/testing/testing.go:1742 +0x390")
            b.add(f"FAIL\tgithub.com/antarin/routing/internal/dispatch\t0.{r.randint(100, 999)}s")
        else:
            b.add(f"ok  \tgithub.com/antarin/routing/{pkg}\t{r.uniform(0.2, 9.5):.3f}s\tcoverage: "
                  f"{r.uniform(55, 92):.1f}% of statements")
    return b.text()


def _pytest_out(r: R, target: int) -> str:
    b = _Buf()
    total = r.randint(180, 420)
    b.add("============================= test session starts ==============================")
    b.add("platform linux -- Python 3.11.9, pytest-8.2.2, pluggy-1.5.0")
    b.add("rootdir: /srv/antarin/eta-model")
    b.add("configfile: pyproject.toml")
    b.add("plugins: xdist-3.6.1, cov-5.0.0, anyio-4.4.0")
    b.add(f"collected {total} items")
    b.add("")
    done = 0
    while b.size < target * 0.7:
        f = r.choice(PY_TESTS)
        k = r.randint(8, 60)
        done = min(99, done + r.randint(2, 9))
        b.add(f"{f} {'.' * k}{' ' * max(1, 60 - k - len(f))}[{done:3d}%]")
    b.add("")
    b.add("=============================== warnings summary ===============================")
    while b.size < target * 0.85:
        ln = r.randint(40, 300)
        w = r.choice((
            f"eta/features/build.py:{ln}: FutureWarning: The default of observed=False is deprecated and will be "
            "changed to True in a future version of pandas.",
            f"eta/features/traffic.py:{ln}: SettingWithCopyWarning: A value is trying to be set on a copy of a slice "
            "from a DataFrame.",
            f"eta/model/train.py:{ln}: UserWarning: [LightGBM] Found whitespace in feature_names, replace with "
            "underlines",
            f"tests/test_io.py::test_read_parquet_{r.randint(1, 9)}: DeprecationWarning: datetime.utcnow() is "
            "deprecated",
        ))
        b.add(w)
        b.add(f"  df[{r.choice(('speed_kmh', 'dwell_s', 'stop_seq', 'rain_flag'))!r}] = " +
              r.choice(("vals", "np.clip(v, 0, 120)", 'g.transform("mean")')))
    b.add("")
    b.add("---------- coverage: platform linux, python 3.11.9-final-0 -----------")
    b.add("Name                              Stmts   Miss  Cover")
    b.add("-----------------------------------------------------")
    while b.size < target:
        p = r.choice(FILLER_PATHS["py"][:4] + ("eta/serve/schemas.py", "eta/io/parquet.py"))
        s = r.randint(40, 400)
        m = r.randint(0, s // 4)
        b.add(f"{p:<34}{s:>5}{m:>7}{100 - 100 * m // s:>6}%")
    b.add(f"================= {total} passed, {r.randint(1, 9)} warnings in {r.uniform(20, 140):.2f}s "
          "=================")
    return b.text()


def _psql_table(r: R, target: int, kind: int) -> tuple[str, str]:
    b = _Buf()
    if kind == 0:
        sql = ("SELECT hub, day, inbound, sorted, outbound, backlog, round(sorted/NULLIF(hours,0)) AS sort_rate_h "
               "FROM hub_throughput WHERE day >= current_date - 7 ORDER BY day, hub;")
        b.add("     hub        |    day     | inbound | sorted | outbound | backlog | sort_rate_h")
        b.add("----------------+------------+---------+--------+----------+---------+-------------")
        while b.size < target:
            i = r.randint(4000, 26000)
            s = i - r.randint(0, 3000)
            b.add(f" {r.choice(HUBS):<14} | 2025-11-{r.randint(10, 28):02d} | {i:>7} | {s:>6} | {s - r.randint(0, 900):>8}"
                  f" | {i - s:>7} | {s // r.randint(14, 20):>11}")
    elif kind == 1:
        sql = ("SELECT z.kecamatan, count(*) AS parcels, count(*) FILTER (WHERE d.late) AS late FROM deliveries d "
               "JOIN zones z ON ST_Contains(z.geom, d.drop_point) WHERE d.day = current_date - 1 GROUP BY 1 "
               "ORDER BY late DESC LIMIT 40;")
        b.add("     kecamatan      | parcels | late | late_pct")
        b.add("--------------------+---------+------+----------")
        kec = ("Cakung", "Duren Sawit", "Kalideres", "Cengkareng", "Tanjung Priok", "Kebayoran Lama", "Ciracas",
               "Pasar Minggu", "Tebet", "Jatinegara", "Penjaringan", "Grogol Petamburan", "Makasar", "Kramat Jati")
        while b.size < target:
            p = r.randint(300, 5000)
            late = r.randint(5, p // 6)
            b.add(f" {r.choice(kec):<18} | {p:>7} | {late:>4} | {100 * late / p:>7.2f}")
    elif kind == 2:
        sql = ("SELECT courier_id, hub, shift_start, shift_end, stops, cod_collected FROM courier_shifts "
               "WHERE day = current_date ORDER BY stops DESC LIMIT 50;")
        b.add(" courier_id |      hub       | shift_start | shift_end | stops | cod_collected")
        b.add("------------+----------------+-------------+-----------+-------+---------------")
        while b.size < target:
            b.add(f"     {r.randint(100000, 999999)} | {r.choice(HUBS):<14} | {_clock(r)}       | {_clock(r)}     |"
                  f" {r.randint(8, 44):>5} | {r.randint(0, 90) * 25000:>13}")
    else:
        sql = ("EXPLAIN (ANALYZE, BUFFERS) SELECT o.id FROM orders o JOIN hubs h ON h.id = o.hub_id WHERE "
               "ST_DWithin(o.drop_point, h.location, 15000) AND o.created_at > now() - interval '2 hours';")
        b.add("                                   QUERY PLAN")
        b.add("-" * 78)
        while b.size < target * 0.9:
            a = r.uniform(0.01, 900)
            b.add(f"  ->  {r.choice(('Index Scan using idx_orders_created_at on orders o', 'Hash Join', 'Bitmap Heap Scan on orders o', 'Index Scan using hubs_pkey on hubs h', 'Sort', 'Gather'))}"
                  f"  (cost={r.uniform(0, 90):.2f}..{r.uniform(100, 99999):.2f} rows={r.randint(1, 90000)} "
                  f"width={r.choice((8, 16, 48, 72))}) (actual time={a:.3f}..{a + r.uniform(0, 400):.3f} "
                  f"rows={r.randint(0, 80000)} loops=1)")
            if r.random() < 0.4:
                b.add(f"        Buffers: shared hit={r.randint(10, 90000)} read={r.randint(0, 4000)}")
            if r.random() < 0.2:
                b.add("        Filter: st_dwithin(o.drop_point, h.location, '15000'::double precision)")
                b.add(f"        Rows Removed by Filter: {r.randint(10, 50000)}")
        b.add(f"Planning Time: {r.uniform(0.1, 4):.3f} ms")
        b.add(f"Execution Time: {r.uniform(40, 4000):.3f} ms")
        return sql, b.text()
    b.add(f"({max(1, len(b.lines) - 2)} rows)")
    return sql, b.text()


def _kafka_out(r: R, target: int, describe: bool, g: str) -> tuple[str, str]:
    b = _Buf()
    if describe:
        topic = r.choice(TOPICS)
        cmd = f"kafka-consumer-groups --bootstrap-server kafka-1.internal:9092 --describe --group {g}"
        b.add(f"GROUP{' ' * 15}TOPIC{' ' * 18}PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG      CONSUMER-ID"
              f"{' ' * 38}HOST            CLIENT-ID")
        p = 0
        while b.size < target:
            cur = r.randint(10_000_000, 99_000_000)
            lag = r.choice((0, 0, r.randint(1, 400), r.randint(400, 30000)))
            inst = r.randint(1, 6)
            b.add(f"{g:<20}{topic:<23}{p:<11}{cur:<16}{cur + lag:<16}{lag:<9}"
                  f"consumer-{g}-{inst}-{_hexs(r, 8)}-{_hexs(r, 4)}-{_hexs(r, 4)}  /10.20.{r.randint(1, 9)}."
                  f"{r.randint(2, 250):<7} consumer-{g}-{inst}")
            p += 1
    else:
        cmd = "kafka-log-tail --service tracking-sink --since 30m"
        while b.size < target:
            g = r.choice(GROUPS)
            b.add(r.choice((
                f"[{_ts(r)},{r.randint(100, 999)}] INFO [Consumer clientId=consumer-{g}-{r.randint(1, 6)}, "
                f"groupId={g}] Revoke previously assigned partitions {r.choice(TOPICS)}-{r.randint(0, 47)}",
                f"[{_ts(r)},{r.randint(100, 999)}] INFO [Consumer clientId=consumer-{g}-{r.randint(1, 6)}, "
                f"groupId={g}] Setting offset for partition {r.choice(TOPICS)}-{r.randint(0, 47)} to the committed "
                f"offset FetchPosition{{offset={r.randint(10_000_000, 99_000_000)}, offsetEpoch=Optional[{r.randint(1, 40)}]}}",
                f"[{_ts(r)},{r.randint(100, 999)}] WARN [Consumer clientId=consumer-{g}-{r.randint(1, 6)}, "
                f"groupId={g}] consumer poll timeout has expired. This means the time between subsequent calls "
                "to poll() was longer than the configured value",
                f"[{_ts(r)},{r.randint(100, 999)}] INFO sink batch flushed rows={r.randint(200, 9000)} "
                f"took_ms={r.randint(20, 4000)} lag_est={r.randint(0, 60000)}",
            )))
    return cmd, b.text()


def _logcat_out(r: R, target: int) -> str:
    b = _Buf()
    pid = r.randint(20000, 32000)
    day = f"11-{r.randint(10, 28):02d}"
    crash = r.random() < 0.12
    while b.size < target:
        t = f"{day} {_clock(r)}:{r.randint(0, 59):02d}.{r.randint(0, 999):03d}"
        tid = r.choice((pid, pid + r.randint(10, 90)))
        b.add(r.choice((
            f"{t} {pid} {tid} D OkHttp  : --> POST https://api.antarin.id/courier/v2/pod/upload ({r.randint(9000, 90000)}-byte body)",
            f"{t} {pid} {tid} D OkHttp  : <-- 200 OK https://api.antarin.id/courier/v2/pod/upload ({r.randint(80, 3000)}ms)",
            f"{t} {pid} {tid} I LocationUploader: batch {r.randint(5, 80)} pings, queue depth {r.randint(0, 400)}",
            f"{t} {pid} {tid} W LocationUploader: gps accuracy {r.randint(20, 180)}m, dropping fix",
            f"{t} {pid} {tid} I WM-WorkerWrapper: Worker result SUCCESS for Work [ id={_hexs(r, 8)}-{_hexs(r, 4)}, "
            "tags={ id.antarin.courier.sync.LocationUploader } ]",
            f"{t} {pid} {tid} D TaskListFragment: render {r.randint(3, 45)} tasks in {r.randint(2, 90)}ms",
            f"{t} {pid} {tid} I Choreographer: Skipped {r.randint(30, 120)} frames!  The application may be doing "
            "too much work on its main thread.",
            f"{t} {pid} {tid} W System.err: java.net.SocketTimeoutException: timeout",
        )))
    if crash:
        t = f"{day} {_clock(r)}:{r.randint(0, 59):02d}.{r.randint(0, 999):03d}"
        for line in ("FATAL EXCEPTION: main", f"Process: id.antarin.courier, PID: {pid}",
                     "java.lang.NullPointerException: Attempt to invoke interface method 'int java.util.List.size()' "
                     "on a null object reference",
                     f"\tat id.antarin.courier.ui.TaskListAdapter.getItemCount(TaskListAdapter.kt:{r.randint(40, 90)})",
                     "\tat androidx.recyclerview.widget.RecyclerView.dispatchLayoutStep1(RecyclerView.java:4344)",
                     "\tat android.os.Handler.dispatchMessage(Handler.java:106)"):
            b.add(f"{t} {pid} {pid} E AndroidRuntime: {line}")
    return b.text()


def _grafana_out(r: R, target: int) -> tuple[dict[str, Any], str]:
    panel, expr, unit = r.choice((
        ("Assign latency p95", "histogram_quantile(0.95, sum(rate(dispatch_assign_seconds_bucket[5m])) by (le, hub))", "s"),
        ("Tracking consumer lag", "sum(kafka_consumergroup_lag{group=\"tracking-sink\"}) by (topic)", "msgs"),
        ("Hub backlog", "max(hub_backlog_parcels) by (hub)", "parcels"),
        ("ETA abs error (min)", "avg(eta_abs_error_minutes) by (hub)", "min"),
        ("Redis dispatch queue depth", "max(dispatch_queue_depth) by (shard)", "jobs"),
        ("POD upload failures", "sum(rate(pod_upload_failed_total[5m])) by (app_version)", "req/s"),
    ))
    args = {"dashboard": r.choice(("dispatch-overview", "tracking-pipeline", "hub-ops", "eta-model")),
            "panel": panel, "range": r.choice(("now-6h", "now-24h", "now-2d", "now-1h"))}
    b = _Buf()
    b.add("{")
    b.add(f'  "panel": "{panel}",')
    b.add(f'  "query": {json.dumps(expr)},')
    b.add(f'  "unit": "{unit}",')
    b.add('  "series": [')
    start = 1731900000 + r.randint(0, 900000)
    while b.size < target:
        lab = r.choice(HUBS) if "hub" in expr else r.choice(("shard-0", "shard-1", "shard-2", "5.12.0", "5.13.1",
                                                              "courier.location.v3", "dispatch.events.v2"))
        pts = ", ".join(f"[{start + 60 * i}, {r.uniform(0, 900):.2f}]" for i in range(r.randint(6, 14)))
        b.add(f'    {{"labels": {{"key": "{lab}"}}, "points": [{pts}]}},')
    b.add("  ]")
    b.add("}")
    return args, b.text()


TF_RES = ("module.eta_model.aws_ecs_service.this", "module.routing.aws_lb_target_group.main",
          "module.routing.aws_autoscaling_policy.cpu", "module.tracking.aws_msk_configuration.main",
          "module.db.aws_db_parameter_group.dispatch", "module.monitoring.aws_cloudwatch_metric_alarm.lag_high",
          "module.app_backend.aws_s3_bucket_lifecycle_configuration.pod_photos")


def _terraform_out(r: R, target: int) -> str:
    b = _Buf()
    b.add("Refreshing state... [id=vpc-0a91c3f2]")
    for res in r.sample(TF_RES, 4):
        b.add(f"{res}: Refreshing state... [id={_hexs(r, 12)}]")
    b.add("")
    b.add("Terraform used the selected providers to generate the following execution plan. Resource actions are")
    b.add("indicated with the following symbols:")
    b.add("  ~ update in-place")
    b.add("")
    b.add("Terraform will perform the following actions:")
    changed = 0
    while b.size < target:
        res = r.choice(TF_RES)
        changed += 1
        b.add("")
        b.add(f"  # {res} will be updated in-place")
        b.add(f'  ~ resource "{res.split(".")[-2]}" "{res.split(".")[-1]}" {{')
        b.add(f'        id                     = "{_hexs(r, 16)}"')
        for _ in range(r.randint(1, 4)):
            key = r.choice(("desired_count", "threshold", "max_capacity", "retention_days", "evaluation_periods",
                            "cpu", "memory"))
            a = r.randint(1, 60)
            b.add(f"      ~ {key:<22} = {a} -> {a + r.randint(1, 8)}")
        b.add("        tags                   = { \"team\" = \"dispatch\", \"env\" = \"prod\" }")
        b.add(f"        # ({r.randint(3, 20)} unchanged attributes hidden)")
        b.add("    }")
    b.add("")
    b.add(f"Plan: 0 to add, {changed} to change, 0 to destroy.")
    return b.text()


CSV_HEAD = "hub,date,hour,inbound,sorted,outbound,backlog,sorter_uptime_pct,staff_on_shift"


def _shell_out(r: R, target: int, kind: int) -> tuple[str, str]:
    b = _Buf()
    if kind == 0:
        cmd = f"head -n 400 data/hub_throughput_2025w{r.randint(40, 48)}.csv"
        b.add(CSV_HEAD)
        while b.size < target:
            i = r.randint(200, 2400)
            s = i - r.randint(0, 300)
            b.add(f"{r.choice(HUBS)},2025-11-{r.randint(10, 28):02d},{r.randint(0, 23)},{i},{s},{s - r.randint(0, 200)},"
                  f"{r.randint(0, 6000)},{r.uniform(70, 100):.1f},{r.randint(6, 60)}")
    elif kind == 1:
        cmd = "kubectl -n routing get pods -o wide"
        b.add("NAME                                READY   STATUS    RESTARTS       AGE     IP             NODE")
        while b.size < target:
            svc = r.choice(("routing-svc", "eta-model", "dispatch-worker", "tracking-sink", "pod-indexer"))
            b.add(f"{svc}-{_hexs(r, 9)}-{_hexs(r, 5):<8} 1/1     Running   {r.randint(0, 9)} ({r.randint(1, 59)}m ago)"
                  f"   {r.randint(1, 9)}d      10.20.{r.randint(1, 9)}.{r.randint(2, 250):<5} ip-10-20-{r.randint(1, 9)}-"
                  f"{r.randint(2, 250)}.ap-southeast-3.compute.internal")
    elif kind == 2:
        cmd = "git log --oneline -60"
        while b.size < target:
            b.add(f"{_hexs(r, 7)} {r.choice(('fix', 'feat', 'chore', 'refactor', 'test'))}"
                  f"({r.choice(('solver', 'dispatch', 'eta', 'app', 'infra', 'tracking'))}): "
                  f"{r.choice(('handle empty batch', 'bump pgx to v5.6', 'log shard on requeue', 'retry geocoder once', 'drop stale pings older than 10m', 'split hub config per shift', 'faster H3 lookup', 'add rain flag to features', 'wire grafana annotations', 'tidy logcat tags'))}")
    elif kind == 3:
        cmd = "redis-cli -h dispatch-redis.internal -p 6379 --scan --pattern 'dq:job:*' | head -300"
        while b.size < target:
            b.add(f"dq:job:{r.choice(HUB_CODES)}:{r.randint(10_000_000, 99_999_999)}")
    elif kind == 4:
        cmd = "git diff --stat HEAD~3 && git diff HEAD~1 -- internal/dispatch/queue.go"
        b.add(f" internal/dispatch/queue.go      | {r.randint(5, 40)} +++++---")
        b.add(f" internal/dispatch/assign.go     | {r.randint(2, 20)} ++--")
        b.add(" 2 files changed")
        b.add("diff --git a/internal/dispatch/queue.go b/internal/dispatch/queue.go")
        while b.size < target:
            ln = r.randint(20, 400)
            b.add(f"@@ -{ln},7 +{ln},9 @@ func (q *Queue) Claim(ctx context.Context, hub string) (*Job, error) {{")
            b.add("\tkey := q.key(hub)")
            b.add(f"-\tres, err := q.rdb.BLMove(ctx, key, q.inflight(hub), \"LEFT\", \"RIGHT\", {r.randint(1, 9)}*time.Second).Result()")
            b.add("+\tres, err := q.rdb.BLMove(ctx, key, q.inflight(hub), \"LEFT\", \"RIGHT\", q.cfg.ClaimWait).Result()")
            b.add("+\tif errors.Is(err, redis.Nil) {")
            b.add("+\t\treturn nil, ErrNoJob")
            b.add("+\t}")
            b.add("\tif err != nil {")
            b.add("\t\treturn nil, fmt.Errorf(\"claim %s: %w\", hub, err)")
    else:
        cmd = f"python -m eta.tools.describe --hub all --days {r.randint(3, 14)}"
        b.add("            hub  n_orders  mean_eta_min  p50_err  p90_err  share_rain")
        while b.size < target:
            b.add(f"{r.randint(0, 400):>4}  {r.choice(HUBS):>12}  {r.randint(800, 9000):>8}  {r.uniform(20, 90):>12.2f}"
                  f"  {r.uniform(1, 9):>7.2f}  {r.uniform(5, 25):>7.2f}  {r.uniform(0, 0.6):>10.3f}")
        b.add(f"\n[{r.randint(1000, 9000)} rows x 6 columns]")
    return cmd, b.text()


CODE = {
    "go": ("func (a *Assigner) pick(ctx context.Context, batch []Order) (*Courier, error) {",
           "\tif len(batch) == 0 {", "\t\treturn nil, ErrEmptyBatch", "\t}",
           "\tcands, err := a.store.NearbyCouriers(ctx, batch[0].Pickup, a.cfg.SearchRadiusM)",
           "\tif err != nil {", "\t\treturn nil, fmt.Errorf(\"nearby couriers: %w\", err)", "\t}",
           "\tsort.Slice(cands, func(i, j int) bool { return cands[i].Score > cands[j].Score })",
           "\tfor _, c := range cands {", "\t\tif c.Load+batch.Weight() <= c.Vehicle.MaxLoadKg {",
           "\t\t\treturn &c, nil", "\t\t}", "\t}", "\treturn nil, ErrNoCourier", "}", "",
           "// Claim moves one job from the hub's ready list to its in-flight list.",
           "func (q *Queue) key(hub string) string { return \"dq:job:\" + hub }", "",
           "\tlog.Info().Str(\"hub\", hub).Int(\"depth\", depth).Msg(\"queue depth\")",
           "\tctx, cancel := context.WithTimeout(ctx, 800*time.Millisecond)", "\tdefer cancel()"),
    "py": ("def build_features(df: pd.DataFrame, cfg: FeatureConfig) -> pd.DataFrame:",
           "    df = df.sort_values([\"courier_id\", \"ts\"])",
           "    df[\"gap_s\"] = df.groupby(\"courier_id\")[\"ts\"].diff().dt.total_seconds()",
           "    df[\"speed_kmh\"] = np.clip(df[\"dist_m\"] / df[\"gap_s\"] * 3.6, 0, 120)",
           "    df[\"hour\"] = df[\"ts\"].dt.tz_convert(\"Asia/Jakarta\").dt.hour",
           "    df = df.merge(traffic, on=[\"h3_cell\", \"hour\"], how=\"left\")",
           "    if cfg.drop_night:", "        df = df[(df[\"hour\"] >= 6) & (df[\"hour\"] <= 22)]",
           "    return df", "", "", "def evaluate(y_true: np.ndarray, y_pred: np.ndarray) -> dict[str, float]:",
           "    err = np.abs(y_true - y_pred) / 60.0",
           "    return {\"mae\": float(err.mean()), \"p90\": float(np.quantile(err, 0.9))}",
           "    logger.info(\"trained %s rows in %.1fs\", len(df), time.perf_counter() - t0)"),
    "kt": ("class LocationUploader(ctx: Context, params: WorkerParameters) : CoroutineWorker(ctx, params) {",
           "    override suspend fun doWork(): Result {",
           "        val pings = dao.pending(limit = 80)", "        if (pings.isEmpty()) return Result.success()",
           "        return try {", "            api.uploadPings(pings.map { it.toDto() })",
           "            dao.markSent(pings.map { it.id })", "            Result.success()",
           "        } catch (e: IOException) {", "            Log.w(TAG, \"upload failed\", e)",
           "            Result.retry()", "        }", "    }", "}",
           "    private val adapter = TaskListAdapter { task -> viewModel.open(task.id) }"),
    "yaml": ("replicaCount: 6", "image:", "  repository: 3301.dkr.ecr.ap-southeast-3.amazonaws.com/routing-svc",
             "  tag: \"2025.11.3\"", "env:", "  SOLVER_TIMEOUT_MS: \"2500\"", "  SEARCH_RADIUS_M: \"4000\"",
             "  REDIS_ADDR: dispatch-redis.internal:6379", "  PG_DSN_SECRET: routing/pg-dsn",
             "resources:", "  requests: { cpu: 500m, memory: 768Mi }", "  limits: { cpu: \"2\", memory: 1536Mi }",
             "hubs:", "  - code: CKG", "    shifts: [\"05:00-13:00\", \"13:00-21:00\"]"),
    "tf": ("module \"routing\" {", "  source         = \"../../modules/ecs_service\"", "  name           = \"routing-svc\"",
           "  desired_count  = 6", "  cpu            = 1024", "  memory         = 2048",
           "  subnets        = module.network.private_subnets", "}", "",
           "resource \"aws_cloudwatch_metric_alarm\" \"lag_high\" {", "  alarm_name          = \"tracking-lag-high\"",
           "  threshold           = 20000", "  evaluation_periods  = 3", "}"),
    "sql": ("WITH daily AS (", "  SELECT hub_id, date_trunc('day', created_at AT TIME ZONE 'Asia/Jakarta') AS day,",
            "         count(*) AS parcels, count(*) FILTER (WHERE delivered_at > promised_at) AS late",
            "  FROM deliveries", "  WHERE created_at > now() - interval '14 days'", "  GROUP BY 1, 2", ")",
            "SELECT h.name, d.day, d.parcels, d.late, round(100.0 * d.late / d.parcels, 2) AS late_pct",
            "FROM daily d JOIN hubs h ON h.id = d.hub_id", "ORDER BY d.day DESC, late_pct DESC;"),
}


EDITS = {
    "go": ("ctx, cancel := context.WithTimeout(ctx, 800*time.Millisecond)",
           "ctx, cancel := context.WithTimeout(ctx, a.cfg.GeocodeTimeout)"),
    "py": ("df = df[(df[\"hour\"] >= 6) & (df[\"hour\"] <= 22)]",
           "df = df[df[\"hour\"].between(cfg.day_start, cfg.day_end)]"),
    "kt": ("val pings = dao.pending(limit = 80)", "val pings = dao.pending(limit = BATCH)"),
    "yaml": ("replicaCount: 6", "replicaCount: 8"),
    "tf": ("desired_count  = 6", "desired_count  = 8"),
    "sql": ("WHERE created_at > now() - interval '14 days'", "WHERE created_at > now() - interval '28 days'"),
}
EXT = {"go": "go", "py": "py", "kt": "kt", "yaml": "yaml", "tf": "tf", "sql": "sql", "json": "yaml", "md": "yaml"}


def _lang(path: str) -> str:
    return EXT.get(path.rsplit(".", 1)[-1], "yaml")


def _read_out(r: R, path: str, target: int) -> str:
    lines = CODE[_lang(path)]
    b = _Buf()
    ln = r.randint(1, 200)
    i = r.randrange(len(lines))
    while b.size < target:
        b.add(f"{ln:>5}\t{lines[i % len(lines)]}")
        ln += 1
        i += 1
    return b.text()


def _filler_call(r: R, name: str) -> tuple[dict[str, Any], Gen]:
    """A tool call of the filler and the generator of its output (called later with the size it must reach)."""
    if name == "go_test":
        pkg = r.choice(GO_PKGS)
        return ({"packages": f"./{pkg}/...", "flags": r.choice(("-race -count=1", "-v -run .", "-count=1 -cover"))},
                lambda n: _go_test_out(r, n))
    if name == "pytest":
        return ({"args": r.choice(("-q", "-x -q tests/test_features.py", "-n 8 --cov=eta", "-q -k 'not slow'"))},
                lambda n: _pytest_out(r, n))
    if name == "psql":
        kind = r.randrange(4)
        sql = _psql_table(r, 0, kind)[0]
        return {"db": "dispatch", "sql": sql}, lambda n: _psql_table(r, n, kind)[1]
    if name == "kafka":
        describe, g = r.random() < 0.7, r.choice(GROUPS)
        cmd = _kafka_out(r, 0, describe, g)[0]
        return {"cmd": cmd}, lambda n: _kafka_out(r, n, describe, g)[1]
    if name == "logcat":
        return ({"device": r.choice(("R58N12ABCD", "RR8T30F1XQ", "emulator-5554")),
                 "filter": r.choice(("*:W", "AndroidRuntime:E OkHttp:D *:S", "LocationUploader:V *:W"))},
                lambda n: _logcat_out(r, n))
    if name == "grafana":
        args, _ = _grafana_out(r, 10)
        return args, lambda n: _grafana_out(r, n)[1]
    if name == "terraform":
        return ({"cmd": "plan", "dir": r.choice(("infra/terraform/envs/prod", "infra/terraform/envs/staging"))},
                lambda n: _terraform_out(r, n))
    if name == "read_file":
        path = r.choice(ALL_FILLER_PATHS)
        return {"path": path}, lambda n: _read_out(r, path, n)
    if name == "edit_file":
        path = r.choice(ALL_FILLER_PATHS)
        old, new = EDITS[_lang(path)]
        return ({"path": path, "old_string": old, "new_string": new},
                lambda n: f"Edited {path}: 1 replacement ({r.randint(1, 9)} lines changed). "
                          f"{r.choice(('gofmt clean.', 'ruff: no issues.', 'ktlint: ok.', 'no formatter for this file.'))}")
    kind = r.randrange(6)
    cmd = _shell_out(r, 0, kind)[0]
    return {"cmd": cmd}, lambda n: _shell_out(r, n, kind)[1]


def _tool_text(r: R, name: str, n: int) -> str:
    """Filler output of ``name`` with no planted value, for padding around a planted line."""
    return _filler_call(r, name)[1](n)


# --- filler talk ----------------------------------------------------------------------------------------------------
def _user_filler(r: R) -> str:
    hub, hub2, who, t = r.choice(HUBS), r.choice(HUBS), r.choice(PEOPLE), _clock(r)
    return r.choice((
        "ok", "go", "gas", "sip", "lanjut", "oke lanjut", "ok gas", "yes", "hmm ok", "sip, next",
        f"cek lag kafka tracking dong, {who} bilang dashboard merah dari {t}",
        f"backlog {hub} kok naik terus ya? td pagi masih aman",
        f"itu panel assign latency kenapa spike jam {t}?",
        f"coba liat query yg lambat di replica, {who} komplain report {hub} timeout",
        "jalanin test solver lagi deh, gue gak yakin yang kemarin udah beres",
        f"can you check why the courier app keeps dropping gps fixes in {hub}?",
        "terraform plan dulu aja, jangan apply",
        f"{who} minta angka throughput {hub} vs {hub2} minggu ini, bisa tarik dari csv?",
        "ok tp jelasin dulu singkat, gue mau forward ke grup ops",
        f"hm the ETA for {hub} looks off again, like 20 min too optimistic",
        "lanjut yang tadi, sorry ditinggal meeting",
        "udh di-merge blm?", "that number looks weird, double check?",
        f"btw {who} nanya, redis queue aman? katanya tablet hub sempet nge-freeze jam {t}",
        f"cek logcat device test yang di {hub} dong, kurir lapor app force close",
        "wait what, kok bisa", "yaudah gpp, next", "nice. summarize buat gue ya",
        f"what's the p95 for {hub} today vs last week",
        "tolong liat file config dispatch, gue lupa radius search berapa",
        "pytest eta-model dong, abis rebase", "ok noted. terus?",
        f"ada update dari {who}? dia td nge-tag di #ops-jkt",
        f"grafana hub-ops panel backlog buat {hub} coba tarik 24 jam",
        "hmm itu warning pandas penting gak sih", "go test ./... aja semua",
        f"kok consumer {r.choice(GROUPS)} rebalance mulu ya hari ini",
        "sorry typo, maksudnya yg dispatch worker bukan routing",
        "brp lama lagi kira2?", "okee. save dulu progressnya",
    ))


def _assistant_filler(c: _Chat) -> str:
    r = c.rng
    hub, hub2, who, t = r.choice(HUBS), r.choice(HUBS), r.choice(PEOPLE), _clock(r)
    p, x, y = r.randint(0, 47), r.randint(120, 9000), r.uniform(1, 9)
    base = r.choice((
        f"Lag on {r.choice(GROUPS)} is back down. Partition {p} peaked at {x} messages around {t} and drained in "
        f"about {r.randint(3, 40)} minutes, so this looks like the rebalance rather than the producer.",
        f"The slow part is the PostGIS join, not the API. Execution time was {r.uniform(300, 4000):.0f} ms on the "
        f"replica and the plan spends most of it in the bitmap heap scan on `orders`.",
        f"Tests are green. {r.randint(120, 400)} passed in {r.uniform(20, 140):.1f}s; the only noise is the pandas "
        "FutureWarning from `build.py`, which is harmless for now.",
        f"{hub} is the outlier. Its backlog went from {r.randint(200, 900)} to {x} parcels between {t} and "
        f"{_clock(r)}, while {hub2} stayed flat, so I'd look at the sorter before touching routing.",
        f"I read through `assign.go`. The candidate sort happens before the capacity check (assign.go:{r.randint(80, 200)}),"
        " which is fine, but the search radius comes from config and is not per hub.",
        f"The app log shows {r.randint(3, 40)} upload retries in a row. Each one timed out after about "
        f"{r.randint(8, 30)}s, which matches the SocketTimeoutException lines, so it's the network in that area.",
        f"Here's where we are: the queue depth is normal ({r.randint(20, 400)} jobs across 3 shards), and the spike at "
        f"{t} was a deploy. Nothing to do unless it repeats.",
        f"Ringkasnya: angka {hub} turun {y:.1f}% dibanding minggu lalu. Penyebab utamanya jam sorter yang mati, "
        "bukan kurangnya kurir.",
        f"Two options:\n1. Raise the consumer's poll batch and accept a bit more memory.\n2. Add two partitions and "
        f"rebalance tonight after {_clock(r)}.\nI'd go with 1 first; it's reversible.",
        f"The plan only changes alarms and the ECS desired count ({r.randint(3, 6)} -> {r.randint(6, 10)}). Nothing "
        "is destroyed; I did not apply it.",
        f"From the CSV: {hub} sorted {x} parcels on the worst day, with the sorter up {r.uniform(70, 99):.1f}% of the "
        f"time. {hub2} was steadier. Want the full table in the summary for {who}?",
        f"Looks like a transient: `{{\"hub\": \"{hub}\", \"depth\": {x}, \"ts\": \"{t}\"}}` was the last sample over the "
        "threshold, and the next five are normal.",
        f"Connectivity is fine: routing-svc answers on :8080, metrics on :9102 and Redis at "
        f"dispatch-redis.internal:6379 replied in {r.randint(1, 9)} ms from the {hub} subnet.",
        f"{who}'s message quoted \"tablet hang pas scan\" — the logcat from that device shows {r.randint(30, 120)} "
        "skipped frames on the task list, not a crash.",
    ))
    if r.random() < 0.22:
        items = ("cek lag tracking-sink", "bandingin throughput hub minggu ini", "review plan terraform alarm",
                 "rapikan warning pandas", "tanya Pak Darto soal sorter", "update ringkasan buat grup ops",
                 "cek query late_by_kecamatan", "retest solver setelah rebase", "logcat device test Cakung")
        c.todo_done = (c.todo_done + 1) % len(items)
        lines = [f"- [{'x' if (i + c.todo_done) % 3 == 0 else ' '}] {it}"
                 for i, it in enumerate(r.sample(items, 4))]
        base += "\n\nTodo:\n" + "\n".join(lines)
    return base


def _episode(c: _Chat, length: int) -> None:
    """A stretch of ordinary work: a user turn, tool rounds, an answer (``length`` >= 2, not 3)."""
    r = c.rng
    c.user(_user_filler(r))
    m = length - 2
    while m > 0:
        t = min(3, m - 1)
        if t > 1 and not c.unused:
            t = r.randint(1, t)
        if m - (1 + t) == 1:
            t -= 1 if t > 1 else -1
        names: list[str] = []
        for _ in range(t):
            name = c.next_tool()
            while name in names:
                name = r.choice(TOOLS)
            if name in c.unused:
                c.unused.remove(name)
            names.append(name)
        made = [(n, *_filler_call(r, n)) for n in names]
        ids = c.call([(n, a) for n, a, _ in made], text=r.choice((None, None, "Checking.", "Let me look.",
                                                                   "Running it now.", "Cek dulu ya.")))
        for cid, (n, _a, g) in zip(ids, made):
            c.tool(cid, n, gen=g)
        m -= 1 + t
    c.say(_assistant_filler(c))


def _fill(c: _Chat, gap: int) -> None:
    r = c.rng
    while gap > 0:
        opts = [g for g in (2, 4, 5, 6, 7, 8, 10) if g <= gap and gap - g not in (1, 3)]
        g = max(opts) if c.unused else r.choice(opts)
        _episode(c, g)
        gap -= g


# --- planted facts: what the user says -------------------------------------------------------------------------------
def _instructions(r: R) -> list[dict[str, Any]]:
    """Standing rules: (value, rule sentence, query, language)."""
    cod = r.choice(("2,5", "3", "3,5", "4", "4,5"))
    fri = r.choice(("15:30", "15:40", "16:00", "14:45"))
    ro = r.choice("abcdef")
    unit = r.choice(("minutes with one decimal", "whole minutes"))
    ppl = r.choice((2, 3))
    rps = r.choice((30, 35, 40, 45, 50))
    cap = r.choice(("1.6x", "1.8x", "2.0x", "1.7x"))
    loc = r.choice(("2.00", "3.00", "2.30", "1.30"))
    lines = r.choice((200, 250, 300, 400))
    parcels = r.choice(("1,200", "1,500", "900", "2,000"))
    jam = r.choice(("21.00", "20.30", "21.30"))
    reps = r.choice((3, 4, 5, 6))
    lag = r.choice(("50rb", "40rb", "75rb", "100rb"))
    ttl = r.choice((30, 45, 60, 90))
    hub = r.choice(("Bekasi Timur", "Cikarang", "Serpong", "Depok"))
    pct = r.choice(("5%", "10%", "2%"))
    win = r.choice(("22.00-05.00", "23.00-04.00", "21.30-05.30"))
    batch = r.choice((150, 200, 250, 300))
    return [
        {"value": f"COD di atas Rp {cod} juta", "lang": "id",
         "rule": f"jangan pernah kasih order COD di atas Rp {cod} juta ke kurir yang baru join kurang dari 30 hari ya, "
                 "risikonya gede kalo kabur",
         "query": "What size of cash-on-delivery order must never go to couriers who joined in the last month?"},
        {"value": f"Fridays after {fri} WIB", "lang": "en",
         "rule": f"we never deploy routing-svc on Fridays after {fri} WIB. weekend on-call has nobody who can roll "
                 "it back", "query": "When are deploys of the routing service off-limits?"},
        {"value": f"replica jkt-ro-{ro}", "lang": "id",
         "rule": f"mulai sekarang query analitik jangan ke primary ya, selalu pakai replica jkt-ro-{ro}",
         "query": "Which database must analytics queries use instead of the primary?"},
        {"value": f"MAE in {unit}", "lang": "en",
         "rule": f"I'd rather see ETA errors as MAE in {unit}, the hub heads don't read seconds",
         "query": "How does the user want ETA errors reported?"},
        {"value": f"plan reviewed by {ppl} people", "lang": "en",
         "rule": f"house rule: no terraform apply without a plan reviewed by {ppl} people in #infra-change",
         "query": "What must happen before any terraform apply?"},
        {"value": f"geocoding di atas {rps} rps", "lang": "id", "cond": True,
         "rule": f"sampai kontrak vendor maps diperpanjang, jangan naikin rate geocoding di atas {rps} rps, nanti "
                 "kena overage", "query": "What geocoding rate must not be exceeded until the maps contract is renewed?"},
        {"value": f"surge cap at {cap}", "lang": "en", "cond": True,
         "rule": f"until the Lebaran peak is over, don't touch pricing. the surge cap at {cap} stays, whatever the "
                 "dashboards say", "query": "What pricing setting must stay untouched until the Lebaran peak ends?"},
        {"value": f"backup dump jam {loc} WIB", "lang": "id",
         "rule": f"selalu jadwalin backup dump jam {loc} WIB, jangan pas jam operasional, replica-nya ikut ngos-ngosan",
         "query": "At what time must database backup dumps be scheduled?"},
        {"value": f"max {lines} baris per PR", "lang": "id",
         "rule": f"gue lebih suka PR kecil-kecil, max {lines} baris per PR, biar Bayu bisa review cepet",
         "query": "How large may a pull request be?"},
        {"value": f"backlog goes over {parcels} parcels", "lang": "en",
         "rule": f"always ping the hub head directly when a hub's backlog goes over {parcels} parcels, don't just "
                 "leave it in the channel", "query": "When must a hub head be pinged directly?"},
        {"value": f"notif ke kurir lewat jam {jam}", "lang": "id",
         "rule": f"tolong jangan kirim notif ke kurir lewat jam {jam}, mereka udah pulang. kecuali darurat",
         "query": "After what time must notifications to couriers not be sent?"},
        {"value": f"eta-model below {reps} replicas", "lang": "en",
         "rule": f"don't ever scale eta-model below {reps} replicas, the lunch peak kills it",
         "query": "What is the lowest replica count allowed for the ETA model?"},
        {"value": f"lag tracking di atas {lag}", "lang": "id",
         "rule": f"kalo consumer lag tracking di atas {lag}, langsung page on-call, jangan nunggu gue bales",
         "query": "At what tracking consumer lag must on-call be paged right away?"},
        {"value": f"dispatch TTL at {ttl} minutes", "lang": "en",
         "rule": f"keep the dispatch TTL at {ttl} minutes, the hub tablets rely on it. ask me before changing it",
         "query": "What time-to-live must the dispatch queue keep?"},
        {"value": f"data hub {hub} buat training", "lang": "id", "cond": True,
         "rule": f"sampai scanner di sana diganti, jangan pakai data hub {hub} buat training ETA, datanya kotor",
         "query": "Which hub's data is excluded from ETA training until its scanners are replaced?"},
        {"value": f"{pct} staged rollout", "lang": "en",
         "rule": f"courier app releases always go out as a {pct} staged rollout first, no exceptions",
         "query": "How must courier app releases start?"},
        {"value": f"more than {batch} orders per solver call", "lang": "en", "cond": True,
         "rule": f"until the solver rewrite lands, don't send more than {batch} orders per solver call, it times out",
         "query": "What batch size limit per solver call holds until the rewrite lands?"},
        {"value": f"migration di luar {win}", "lang": "id",
         "rule": f"gue gak mau ada migration jalan pas jam operasional. jalanin migration di luar {win} aja",
         "query": "In which hours may database migrations not run?"},
    ]


INSTR_LEADS = {
    "id": ("oh iya satu lagi, ", "btw, ", "", "catet ya: ", "penting nih, ", "fyi aja, "),
    "en": ("also, ", "one more thing: ", "", "fyi ", "for the record, ", "just so you know, "),
}
FIRST_PARAS = (
    "oke makasih ringkasannya, udah gue forward ke grup ops.",
    "sorry baru bales, abis call sama vendor maps.",
    "thanks, that matches what the hub people told me this morning.",
    "mantap. btw {who} udah gue kabarin soal yg tadi.",
    "ok, that explains the spike at {t}.",
    "sip. dashboard udah keliatan normal lagi dari jam {t}.",
)


def _corrections(r: R) -> list[dict[str, Any]]:
    """(stale, value, how the user first said it, how they correct it in Indonesian and in English, query, near)."""
    d5 = f"{r.randint(10000, 99999)}"
    kur = (f"KUR-{d5}", f"KUR-{_swap(d5)}")
    inc5 = f"{r.randint(30000, 69999)}"
    inc = (f"INC-{inc5}", f"INC-{_swap(inc5)}")
    a, b = r.sample(range(1, 10), 2)
    host = (f"redis-dq-0{a}", f"redis-dq-0{b}")
    p4 = f"{r.randint(1000, 9999)}"
    letters = r.choice(("TXK", "KJD", "UYR", "FQP", "ZRT"))
    plate = (f"B {p4} {letters}", f"B {p4} {letters[0]}{letters[2]}{letters[1]}")
    dk = f"{r.randint(11, 49)}"
    if dk[0] == dk[1]:
        dk = "27"
    dock = (f"dock C-{dk}", f"dock C-{dk[::-1]}")
    mn = f"{r.randint(1000, 9999)}"
    mnf = (f"MNF-2511{r.randint(10, 28)}-{mn}", "")
    mnf = (mnf[0], mnf[0][:-4] + _swap(mn))
    dd = r.sample((18, 21, 24, 25, 27, 28), 2)
    cut = (f"cutover tgl {dd[0]} Nov", f"cutover tgl {dd[1]} Nov")
    minor = r.sample(range(10, 19), 2)
    app = (f"app v5.{minor[0]}.2", f"app v5.{minor[1]}.2")
    z = r.sample(ZONES, 2)
    zone = (f"pilot zone {z[0]}", f"pilot zone {z[1]}")
    bud = r.sample((45, 60, 75, 80), 2)
    budget = (f"budget Rp {bud[0]} juta", f"budget Rp {bud[1]} juta")
    cc = r.sample(("Pak Hendra", "Bu Lestari", "Mas Gilang", "Mbak Wulan"), 2)
    ccs = (f"cc ke {cc[0]}", f"cc ke {cc[1]}")
    g5 = f"{r.randint(20000, 89999)}"
    geo = (f"geofence {g5}", f"geofence {_swap(g5)}")
    rad = r.sample(("1,5", "2,5", "3,5"), 2)
    radius = (f"radius pickup {rad[0]} km", f"radius pickup {rad[1]} km")
    return [
        {"pair": kur, "near": True, "first": f"tolong tarik riwayat GPS kurir {kur[0]} kemarin sore, katanya muter-muter "
         "di sekitar hub", "what": "kurirnya", "thing": "courier ID",
         "query": "Which courier's GPS history did the user actually want pulled?"},
        {"pair": inc, "near": True, "first": f"nanti summary-nya link-in ke {inc[0]} ya, biar nyambung sama tiket "
         "insiden", "what": "nomor insidennya", "thing": "incident number",
         "query": "Which incident number should the summary link to?"},
        {"pair": host, "near": True, "first": f"node redis yang suka spike itu {host[0]}, nanti cek memory-nya",
         "what": "node-nya", "thing": "Redis node", "query": "Which Redis node did the user want checked?"},
        {"pair": plate, "near": True, "first": f"truk yang kena tilang ganjil-genap tadi pagi platnya {plate[0]}, tolong "
         "cari rutenya", "what": "platnya", "thing": "plate", "query": "What is the plate of the truck that was fined?"},
        {"pair": dock, "near": True, "first": f"van dari Lintas nanti masuk lewat {dock[0]} jam 5 pagi, masukin ke "
         "jadwal", "what": "dock-nya", "thing": "dock", "query": "Through which dock does the partner's van arrive?"},
        {"pair": mnf, "near": True, "first": f"manifest yang hilang itu {mnf[0]}, cek di db udah ke-scan belum",
         "what": "manifestnya", "thing": "manifest number", "query": "Which manifest is the missing one?"},
        {"pair": cut, "near": True, "first": f"rencana migrasi redis kita {cut[0]} ya, malem", "what": "tanggalnya",
         "thing": "date", "query": "When is the Redis migration cutover?"},
        {"pair": app, "near": True, "first": f"yang crash itu {app[0]}, kurir di lapangan pada pake itu",
         "what": "versinya", "thing": "version", "query": "Which courier app version is the one crashing?"},
        {"pair": zone, "near": False, "first": f"buat dynamic batching kita mulai {zone[0]} dulu", "what": "zonanya",
         "thing": "zone", "query": "Which zone does the dynamic batching pilot start in?"},
        {"pair": budget, "near": True, "first": f"buat load test bulan ini kita punya {budget[0]} buat infra",
         "what": "budgetnya", "thing": "budget", "query": "How much budget is there for the load test infra?"},
        {"pair": ccs, "near": False, "first": f"kalo kirim laporan mingguan ke Tokoloka, {ccs[0]}", "what": "cc-nya",
         "thing": "person to cc", "query": "Whom should the weekly report to the client be copied to?"},
        {"pair": geo, "near": True, "first": f"area yang sering salah assign itu {geo[0]} di Kalideres", "what": "id-nya",
         "thing": "geofence id", "query": "Which geofence is the one that gets misassigned?"},
        {"pair": radius, "near": True, "first": f"set {radius[0]} buat hub kecil ya", "what": "radiusnya",
         "thing": "radius", "query": "What pickup radius should small hubs get?"},
    ]


def _swap(digits: str) -> str:
    """A near miss: the last two digits swapped (or the last one changed if they are equal)."""
    d = list(digits)
    if d[-1] == d[-2]:
        d[-1] = str((int(d[-1]) + 3) % 10)
    else:
        d[-1], d[-2] = d[-2], d[-1]
    return "".join(d)


FIX_ID = ("eh salah, {what} {new}, bukan {old}. sorry ketuker", "bukan yang itu, maksudnya {new}",
          "eh tunggu, gue salah ketik tadi: {what} {new}", "koreksi ya, yang bener {new}, bukan {old}",
          "maksudnya {new} ya, yang satunya")
FIX_EN = ("no wait, I gave you the wrong {thing}: it's {new}", "the other one, {new}, not {old}",
          "sorry, I mixed them up earlier, the {thing} is {new}", "correction: {new}. I said {old} before, that was wrong")


def _decisions(r: R) -> list[dict[str, Any]]:
    """Choices: options for the family, how the user states one, and the query."""
    def opts(fmt: str, xs: tuple[Any, ...]) -> list[str]:
        return [fmt.format(x) for x in r.sample(xs, 2)]
    return [
        {"opts": opts("batch window {} detik", (30, 45, 60, 90)), "query": "What dispatch batch window did the user settle on?"},
        {"opts": opts("H3 resolusi {}", (7, 8, 9)), "query": "Which H3 resolution did the user choose for the zones?"},
        {"opts": opts("shard dispatch queue jadi {}", (4, 6, 8)), "query": "How many shards should the dispatch queue get?"},
        {"opts": opts("timeout geocoder {}ms", (600, 800, 1200, 1500)), "query": "What geocoder timeout did the user pick?"},
        {"opts": opts("roll out to {} first", ("Cakung", "Cengkareng", "Depok", "Serpong")),
         "query": "Which hub gets the new routing first?"},
        {"opts": opts("{} buat ETA v3", ("LightGBM", "XGBoost", "CatBoost")), "query": "Which model family goes into ETA v3?"},
        {"opts": opts("{} partitions for the v4 location topic", (24, 48, 96)),
         "query": "How many partitions will the new location topic get?"},
        {"opts": opts("cron rekonsiliasi COD jam {}", ("01.30", "02.15", "03.00")),
         "query": "When will the COD reconciliation job run?"},
        {"opts": opts("max {} stop per rute motor", (25, 28, 30, 35)), "query": "What stop limit per motorbike route was chosen?"},
        {"opts": opts("kapasitas van {} kg", ("800", "950", "1.100")), "query": "What van capacity will routing assume?"},
        {"opts": opts("alert kalau on-time rate < {}%", (92, 94, 95, 97)),
         "query": "At what on-time rate does the alert fire?"},
        {"opts": opts("spot instances for {}% of the ETA workers", (30, 50, 70)),
         "query": "What share of ETA workers will run on spot instances?"},
        {"opts": opts("retensi foto POD {} hari", (90, 120, 180)), "query": "How long are proof-of-delivery photos kept?"},
    ]


DECIDE = ("oke kita pakai {v}.", "let's go with {v}.", "gas, {v} aja.", "udah diputusin: {v}. jangan dibahas lagi",
          "fine, {v}. we can revisit after peak.", "keputusan gue: {v}.")
REVISE = ("gue berubah pikiran, {v} aja, bukan {old}.", "scrap what I said earlier, make it {v} instead of {old}.",
          "setelah ngobrol sama {who}, ganti jadi {v}. yang {old} batal.",
          "hmm revisi: {v}. {old} ternyata kurang masuk buat peak")


def _plans(r: R) -> list[dict[str, Any]]:
    d = r.choice((7, 10, 14))
    hub = r.choice(("Cakung", "Cipayung", "Kebon Jeruk"))
    n = r.choice((20, 30, 40))
    days = r.choice((5, 7, 10))
    months = r.choice((3, 6, 9))
    pc = r.choice((10, 15, 25))
    dec = r.choice((12, 15, 18))
    w3 = r.choice(("Bogor", "Serpong", "Bekasi Barat"))
    routes = r.choice((40, 60, 80))
    k = r.choice((30, 45, 60))
    ret = r.choice(("1 Desember", "8 Desember", "15 Desember"))
    night = r.choice(("Sabtu", "Minggu"))
    return [
        {"value": f"shadow mode {d} hari di {hub}", "query": "How will the new ETA model be trialled first?",
         "text": f"rencananya gini. pertama model ETA baru jalan shadow mode {d} hari di {hub}, cuma nyatet prediksi "
                 "tanpa ditampilin ke customer. abis itu kita bandingin MAE-nya per jam. kalo lebih bagus, baru "
                 "rollout bertahap ke hub lain, terakhir matiin model lama."},
        {"value": f"pilot {n} kurir motor listrik", "query": "What is the planned electric-motorbike trial?",
         "text": f"plan buat Q1: kita mulai pilot {n} kurir motor listrik. step 1 petain titik swap baterai, step 2 "
                 "routing dikasih batas jarak per charge, step 3 evaluasi biaya per paket setelah sebulan."},
        {"value": f"dual-write for {days} days", "query": "How will the move to the new location topic be done?",
         "text": f"Here's the plan for the topic migration: producers do dual-write for {days} days to v3 and v4, "
                 "then we switch consumers one group at a time, and only after a full clean week we stop writing v3."},
        {"value": f"backfill {months} bulan data GPS", "query": "How much GPS history will be backfilled?",
         "text": f"langkahnya: (1) backfill {months} bulan data GPS ke tabel partisi baru, (2) rebuild fitur "
                 "kecepatan per ruas, (3) retrain model, (4) bandingin sama baseline sebelum deploy."},
        {"value": f"canary {pc}% kurir", "query": "How does the plan roll out the new courier app build?",
         "text": f"urutannya: build baru masuk internal dulu, terus canary {pc}% kurir selama tiga hari, kalo "
                 "crash-free di atas target baru full release. kalo ada crash baru, stop dan rollback."},
        {"value": f"freeze deploys from {dec} Dec", "query": "When does the year-end deploy freeze start?",
         "text": f"Plan for the year-end peak: we freeze deploys from {dec} Dec, do the last capacity test the week "
                 "before, and keep one engineer on call per shift until New Year."},
        {"value": f"gelombang ketiga {w3}", "query": "Which hub comes in the last wave of the hub rollout?",
         "text": f"rollout hub dibagi tiga gelombang: Cakung dan Cengkareng duluan, terus Pulogadung, dan gelombang "
                 f"ketiga {w3}. tiap gelombang jeda seminggu buat liat angka on-time."},
        {"value": f"A/B on {routes} routes", "query": "How will the new solver be compared with the old one?",
         "text": f"So the plan: run an A/B on {routes} routes for two weeks, same hubs, same shifts. Measure stops "
                 "per hour and late parcels, then decide. No rollout before the numbers are in."},
        {"value": f"load test {k}rb order/jam", "query": "What load will the capacity test simulate?",
         "text": f"rencana load test: simulasi {k}rb order/jam ke dispatch, naik bertahap tiap 15 menit. tolong "
                 "siapin dashboard-nya, gue sama Kevin yang pantau. kalo p95 jebol, stop. target: load test "
                 f"{k}rb order/jam lolos tanpa error."},
        {"value": f"retire ETA v2 by {ret}", "query": "When does the old ETA endpoint go away?",
         "text": f"Plan: migrate the three remaining clients to the v3 endpoint, announce the deprecation, and "
                 f"retire ETA v2 by {ret}. Until then both stay up."},
        {"value": f"maintenance window {night} 01.00", "query": "When is the database upgrade window planned?",
         "text": f"buat upgrade PostGIS: snapshot dulu, test restore di staging, terus eksekusi di maintenance "
                 f"window {night} 01.00. rollback plan: balik ke snapshot, maksimal 40 menit."},
        {"value": f"dua shift sorter di {hub}", "query": "What staffing change is planned for the sorter?",
         "text": f"rencana minggu depan: kita coba dua shift sorter di {hub}, pagi sama malam, abis itu liat "
                 "backlog turun berapa. kalo gak ngaruh, kita balik ke satu shift."},
    ]


def _identifiers(r: R) -> list[dict[str, Any]]:
    """User-said identifiers (``said``) and tool-printed ones (``printed``)."""
    code = r.choice(HUB_CODES)
    return [
        {"carrier": "user", "value": f"SEAL-{r.randint(100000, 999999)}",
         "text": "tolong cek bag dengan segel {v}, kata Pak Darto segelnya rusak pas nyampe hub",
         "query": "Which bag seal did the user ask to check?"},
        {"carrier": "user", "value": f"TKL-{r.randint(10000000, 99999999)}",
         "text": "customer Tokoloka komplain order {v} udah 3 hari belum sampe, cek dong rutenya",
         "query": "Which client order did the customer complain about?"},
        {"carrier": "user", "value": f"SHF-{code}-{r.randint(1000, 9999)}",
         "text": "shift yang kacau kemarin itu {v}, tarik datanya ya", "query": "Which shift was the messy one?"},
        {"carrier": "user", "value": f"dashboard uid {_hexs(r, 3)}Kq{r.randint(10, 99)}x",
         "text": "panel yang dipake direksi ada di {v}, jangan diubah-ubah ya, cuma liat aja",
         "query": "Which Grafana dashboard do the directors use?"},
        {"carrier": "user", "value": f"vendor ticket #{r.randint(400000, 499999)}",
         "text": "maps vendor udah bales di {v}, katanya mereka investigasi rate limit", "query": "Which vendor ticket tracks the maps issue?"},
        {"carrier": "user", "value": f"courier_id {r.randint(1000000, 9999999)}",
         "text": "yang lapor app force close itu {v}, dia di hub Depok", "query": "Which courier reported the app crash?"},
        {"carrier": "tool", "tool": "psql", "value": f"RP-2511{r.randint(10, 28)}-{code}-{r.randint(10, 99)}",
         "query": "Which route plan did the query show as the stuck one?"},
        {"carrier": "tool", "tool": "kafka", "value": f"consumer-eta-backfill-{r.randint(1, 9)}-{_hexs(r, 8)}",
         "query": "Which consumer member was stuck on the partition?"},
        {"carrier": "tool", "tool": "terraform",
         "value": f"module.dispatch_queue.aws_elasticache_replication_group.{r.choice(('primary_b', 'dq_v7', 'queue_main'))}",
         "query": "Which resource would the plan replace?"},
        {"carrier": "tool", "tool": "shell", "value": f"dq:lease:{code}:{r.randint(100000, 999999)}",
         "query": "Which lease key was left behind in Redis?"},
        {"carrier": "tool", "tool": "logcat", "value": f"device_serial=RZ8{_hexs(r, 7).upper()}",
         "query": "Which device produced the crashes?"},
        {"carrier": "tool", "tool": "psql", "value": f"pickup_batch {r.randint(7000000, 7999999)}",
         "query": "Which pickup batch was duplicated?"},
        {"carrier": "tool", "tool": "grafana", "value": f"alert rule {_hexs(r, 4)}-lagjkt",
         "query": "Which alert rule fired?"},
    ]


# --- planted facts: what tools print ----------------------------------------------------------------------------------
def _errors(r: R) -> list[dict[str, Any]]:
    t = f"11-{r.randint(10, 28):02d} {_clock(r)}:{r.randint(10, 59)}.{r.randint(100, 999)}"
    pid = r.randint(20000, 32000)
    names = r.sample(("MaxLoadMotor", "OversizeBag", "MixedCODCap", "VanWeightSum", "NightShiftSplit"), 1)[0]
    i = r.randint(5, 31)
    return [
        {"tool": "go_test", "args": {"packages": "./internal/solver/...", "flags": "-run TestCapacityGuard -v"},
         "line": f"--- FAIL: TestCapacityGuard_{names} (0.{r.randint(10, 99)}s)",
         "ask": "jalanin test capacity guard dong",
         "pass": lambda: f"=== RUN   TestCapacityGuard_{names}\n--- PASS: TestCapacityGuard_{names} (0.02s)\nPASS\n"
                         f"ok  \tgithub.com/antarin/routing/internal/solver\t{r.uniform(0.3, 2):.3f}s",
         "query": "Which test in the solver package failed?"},
        {"tool": "go_test", "args": {"packages": "./internal/dispatch/...", "flags": "-race -count=1"},
         "line": f"panic: runtime error: index out of range [{i}] with length {i}",
         "ask": "test dispatch pake -race ya, kemarin ada yg aneh",
         "extra": ["", f"goroutine {r.randint(20, 90)} [running]:",
                   f"github.com/antarin/routing/internal/dispatch.(*Batcher).split(0xc000{_hexs(r, 6)}, {{0xc0003a2000, 0x{i:x}, 0x{i:x}}})",
                   f"\t/src/internal/dispatch/batcher.go:{r.randint(60, 180)} +0x2c8",
                   "github.com/antarin/routing/internal/dispatch.(*Batcher).Flush(0xc000128000)",
                   f"\t/src/internal/dispatch/batcher.go:{r.randint(190, 260)} +0x11e",
                   "FAIL\tgithub.com/antarin/routing/internal/dispatch\t0.733s"],
         "pass": lambda: f"ok  \tgithub.com/antarin/routing/internal/dispatch\t{r.uniform(1, 4):.3f}s",
         "query": "What panic did the dispatch tests hit?"},
        {"tool": "go_test", "args": {"packages": "./internal/eta/...", "flags": "-count=1"},
         "line": f"internal/eta/client.go:{r.randint(40, 200)}:{r.randint(2, 40)}: undefined: "
                 f"{r.choice(('predictv3.BatchRequest', 'etapb.HubWeights', 'predictv3.WithDeadlineMs'))}",
         "ask": "abis rebase, coba go test paket eta", "pre": "# github.com/antarin/routing/internal/eta",
         "pass": lambda: f"ok  \tgithub.com/antarin/routing/internal/eta\t{r.uniform(0.2, 2):.3f}s",
         "query": "What compile error did the ETA client package show?"},
        {"tool": "pytest", "args": {"args": "-q tests/test_metrics.py"},
         "line": f"FAILED tests/test_metrics.py::test_hub_mae_budget[{r.choice(HUBS)}] - AssertionError: MAE "
                 f"{r.uniform(5.2, 9.9):.2f} min > budget 5.00 min",
         "ask": "run test metrics ETA dong, gue curiga ada hub yang jeblok",
         "pass": lambda: f"{r.randint(30, 60)} passed in {r.uniform(5, 30):.2f}s", "query": "Which ETA metric test failed?"},
        {"tool": "pytest", "args": {"args": "-q tests/test_features.py -x"},
         "line": f"FAILED tests/test_features.py::test_weather_join_complete - ValueError: {r.randint(100, 9000)} rows "
                 "with NaN in 'precip_mm_bmkg'",
         "ask": "pytest fitur cuaca, kemarin data BMKG baru masuk",
         "pass": lambda: f"{r.randint(40, 90)} passed, 2 warnings in {r.uniform(5, 30):.2f}s",
         "query": "What failed in the weather feature test?"},
        {"tool": "psql", "args": {"db": "dispatch", "sql": "INSERT INTO courier_shifts SELECT * FROM staging_shifts;"},
         "line": f"ERROR:  duplicate key value violates unique constraint \"courier_shift_{r.choice(('day', 'slot', 'hub'))}"
                 f"_uniq_{r.randint(2, 9)}\"", "ask": "masukin data shift dari staging ke tabel utama ya",
         "pass": lambda: f"INSERT 0 {r.randint(300, 3000)}", "query": "Which error stopped the shift import?"},
        {"tool": "psql", "args": {"db": "dispatch", "sql": "SELECT hub, eta_bias_min FROM eta_daily_v3 LIMIT 20;"},
         "line": f"ERROR:  column \"eta_bias_min\" does not exist at character {r.randint(13, 19)}",
         "ask": "tarik bias ETA per hub dari tabel harian v3",
         "pass": lambda: " hub | eta_bias_min\n-----+--------------\n" + "\n".join(
             f" {r.choice(HUB_CODES)} | {r.uniform(-4, 4):.2f}" for _ in range(12)) + "\n(12 rows)",
         "query": "What error did the ETA bias query return?"},
        {"tool": "kafka", "args": {"cmd": "kafka-log-tail --service tracking-sink --since 15m --level ERROR"},
         "line": f"[{_ts(r)},{r.randint(100, 999)}] ERROR [Consumer clientId=consumer-tracking-sink-{r.randint(1, 6)}, "
                 f"groupId=tracking-sink] Offset commit failed on partition courier.location.v3-{r.randint(0, 47)} at "
                 f"offset {r.randint(10_000_000, 99_000_000)}: The coordinator is not aware of this member.",
         "ask": "tail log error tracking-sink 15 menit terakhir",
         "pass": lambda: f"[{_ts(r)},{r.randint(100, 999)}] INFO sink batch flushed rows={r.randint(200, 9000)} "
                         "took_ms=412 lag_est=0\n(no ERROR lines in the last 15m)",
         "query": "What error did the tracking sink log?"},
        {"tool": "logcat", "args": {"device": "R58N12ABCD", "filter": "AndroidRuntime:E *:S"},
         "line": f"{t} {pid} {pid} E AndroidRuntime: kotlin.UninitializedPropertyAccessException: lateinit property "
                 f"{r.choice(('podCamera', 'sealScanner', 'signaturePad'))} has not been initialized",
         "ask": "ambil logcat crash dari device test, kurir bilang force close pas foto POD",
         "pass": lambda: f"--------- beginning of main\n{t[:5]} {_clock(r)}:00.000 {pid} {pid} I ActivityManager: "
                         "Start proc id.antarin.courier\n(no AndroidRuntime errors)",
         "query": "What exception crashed the courier app?"},
        {"tool": "logcat", "args": {"device": "RR8T30F1XQ", "filter": "AndroidRuntime:E *:S"},
         "line": f"{t} {pid} {pid} E AndroidRuntime: java.lang.IllegalStateException: Fragment "
                 f"{r.choice(('HandoverFragment', 'CodSummaryFragment', 'ReturnReasonFragment'))} not attached to a context.",
         "ask": "logcat device kedua dong, yang Redmi", "pass": lambda: "(no AndroidRuntime errors in buffer)",
         "query": "Which fragment error appeared in the app log?"},
        {"tool": "terraform", "args": {"cmd": "plan", "dir": "infra/terraform/envs/prod"},
         "line": f"│ Error: Unsupported argument \"{r.choice(('num_node_groups', 'data_tiering_enabled', 'ip_discovery'))}\"",
         "ask": "terraform plan prod, jangan apply", "pass": lambda: _terraform_out(r, 900),
         "query": "What error did the terraform plan stop on?"},
        {"tool": "shell", "args": {"cmd": "curl -sS -m 5 http://eta-model.internal:8080/v3/predict -d @sample.json"},
         "line": f"curl: (28) Operation timed out after {r.randint(5001, 5099)} milliseconds with 0 bytes received",
         "ask": "curl endpoint ETA v3 pake sample tadi",
         "pass": lambda: json.dumps({"eta_min": round(r.uniform(20, 80), 1), "model": "v3", "hub": "CKG"}),
         "query": "What did the call to the ETA endpoint fail with?"},
        {"tool": "shell", "args": {"cmd": "kubectl -n routing rollout restart deploy/dispatch-worker"},
         "line": f"Error from server (NotFound): deployments.apps \"dispatch-worker-{r.choice(('v2', 'blue', 'jkt'))}\" not found",
         "ask": "restart dispatch worker dong", "pass": lambda: "deployment.apps/dispatch-worker restarted",
         "query": "What did the restart command fail with?"},
    ]


def _findings(r: R) -> list[dict[str, Any]]:
    p99 = f"{r.uniform(1.5, 4.5):.2f}s"
    return [
        {"tool": "grafana", "args": {"dashboard": "dispatch-overview", "panel": "Assign latency p99 (stat)", "range": "now-24h"},
         "value": f"assign_latency_p99: {p99}", "line": f"  \"stat\": \"assign_latency_p99: {p99}\",",
         "means": "so assignment is slow only at the tail, the median is fine", "query": "What was the p99 assign latency?"},
        {"tool": "kafka", "args": {"cmd": "kafka-configs --describe --entity-type clients --entity-name tracking-sink"},
         "value": f"max.poll.records={r.choice((2000, 5000, 10000))}", "line": None,
         "means": "each poll takes so many records that processing outlives the poll interval and the group rebalances",
         "query": "Which consumer setting explains the rebalances?"},
        {"tool": "shell", "args": {"cmd": "redis-cli -h dispatch-redis.internal INFO memory"},
         "value": f"maxmemory_policy:{r.choice(('allkeys-lru', 'allkeys-random', 'volatile-ttl'))}", "line": None,
         "means": "Redis is allowed to evict job keys under memory pressure, which explains the vanishing jobs",
         "query": "What eviction setting did Redis report?"},
        {"tool": "psql", "args": {"db": "dispatch", "sql": "SELECT count(*) FILTER (WHERE drop_point IS NULL) AS null_geom FROM orders WHERE created_at > now() - interval '1 day';"},
         "value": f"null_geom = {r.randint(1000, 9999)}", "line": None,
         "means": "those orders cannot be routed at all, so they fall back to the manual queue",
         "query": "How many recent orders had no drop point?"},
        {"tool": "psql", "args": {"db": "dispatch", "sql": "SELECT hub, avg(dwell_s)/60 AS dwell FROM stop_events GROUP BY 1;"},
         "value": f"avg_dwell_min {r.uniform(6, 14):.1f} at apartment drops", "line": None,
         "means": "apartment drops take much longer and the model underestimates them", "query": "What dwell time was measured at apartment drops?"},
        {"tool": "pytest", "args": {"args": "-q tests/test_importance.py -s"},
         "value": f"feature_gain rain_flag_15m={r.uniform(0.12, 0.4):.3f}", "line": None,
         "means": "rain is the strongest single signal, stronger than the hour of day", "query": "How much gain does the rain feature carry?"},
        {"tool": "grafana", "args": {"dashboard": "hub-ops", "panel": "Sorter throughput (stat)", "range": "now-7d"},
         "value": f"sorter_rate_peak {r.randint(2100, 4800)} parcels/h", "line": None,
         "means": "the sorter, not the couriers, caps the evening wave", "query": "What is the sorter's peak rate?"},
        {"tool": "terraform", "args": {"cmd": "show -json | jq .values.root_module", "dir": "infra/terraform/envs/prod"},
         "value": f"node_type = \"cache.{r.choice(('t4g.medium', 'm6g.large', 'r6g.large'))}\"", "line": None,
         "means": "the queue runs on a smaller node class than the runbook assumes", "query": "What node type does the dispatch cache use?"},
        {"tool": "kafka", "args": {"cmd": "kafka-topics --describe --topic courier.location.v3"},
         "value": f"partition skew {r.uniform(2.1, 6.5):.1f}x on key hub_id", "line": None,
         "means": "keying by hub sends Cakung's pings to a few partitions", "query": "How skewed are the location partitions?"},
        {"tool": "logcat", "args": {"device": "R58N12ABCD", "filter": "PodUpload:V *:S"},
         "value": f"pod_upload_retry_avg={r.uniform(2.1, 5.9):.1f}", "line": None,
         "means": "photos are retried several times each, which burns courier data", "query": "How often is each POD photo retried?"},
        {"tool": "shell", "args": {"cmd": "python -m eta.tools.residuals --by slot"},
         "value": f"worst_slot 16:00-17:00 bias +{r.uniform(6, 15):.1f} min", "line": None,
         "ctx": ("slot         n      bias_min  mae_min\n06:00-07:00  4120   -0.8      3.1\n11:00-12:00  9810   +1.2      4.0",
                 "20:00-21:00  7702   +2.1      4.4\n(bias = actual - predicted)"),
         "means": "the model is too optimistic right at the start of the evening rush", "query": "Which slot has the worst ETA bias?"},
        {"tool": "psql", "args": {"db": "dispatch", "sql": "SHOW statement_timeout;"},
         "value": f"statement_timeout = {r.choice(('15s', '30s', '45s'))} on role reporting", "line": None,
         "means": "the reporting role kills long reports, which is why the hub report times out",
         "query": "What statement timeout does the reporting role have?"},
    ]


FILE_PATHS = {  # planted new files: path -> (what the user asks for, what the query calls it)
    "internal/solver/capacity_guard.go": ("bikin guard kapasitas buat solver", "the solver's new capacity guard"),
    "internal/dispatch/lease_renewer.go": ("tulis renewer buat lease job di queue", "the lease renewal for queue jobs"),
    "internal/geo/geofence_cache.go": ("cache geofence-nya di memory aja", "the in-memory geofence cache"),
    "eta/features/rain_lag.py": ("add the lagged rain feature", "the lagged rain feature"),
    "eta/model/calibrate_hub.py": ("kalibrasi per hub, bikin modul sendiri", "the per-hub calibration module"),
    "app/src/main/java/id/antarin/courier/pod/PodRetryWorker.kt": ("worker buat retry upload foto POD",
                                                                   "the worker that retries proof-of-delivery uploads"),
    "app/src/main/java/id/antarin/courier/scan/SealScanner.kt": ("scanner segel bag di app", "the bag seal scanner"),
    "infra/terraform/envs/prod/dispatch_redis_v7.tf": ("terraform buat redis 7 yang baru", "the Terraform for the new Redis"),
    "dashboards/hub_backlog_overview.json": ("dashboard backlog semua hub", "the hub backlog dashboard"),
    "scripts/cod_reconcile_weekly.py": ("script rekon COD mingguan", "the weekly COD reconciliation script"),
    "docs/runbooks/ganjil_genap_trucks.md": ("runbook ganjil-genap buat dispatcher", "the odd-even runbook"),
    "configs/hubs/cikarang_night_shift.yaml": ("config shift malam Cikarang", "the Cikarang night-shift config"),
    "internal/tracking/dlq_replayer.go": ("replayer buat DLQ tracking", "the tracking dead-letter replayer"),
    "sql/views/late_parcels_by_zone.sql": ("view paket telat per zona", "the late-parcels-by-zone view"),
    "eta/serve/fallback_table.py": ("fallback ETA kalo model down", "the ETA fallback when the model is down"),
    "internal/dispatch/cod_limit.go": ("limit COD per kurir di dispatch", "the per-courier COD limit in dispatch"),
}


# --- pasted documents ---------------------------------------------------------------------------------------------------
def _doc_sla(r: R) -> str:
    return "\n".join((
        "MASTER SERVICE AGREEMENT - SCHEDULE 2: SERVICE LEVELS (excerpt)",
        "Client: PT Tokoloka Niaga Digital          Provider: PT Antarin Logistik Indonesia",
        f"Contract ref: TKL/MSA/2024/{r.randint(10, 99)}          Effective: 1 {r.choice(('Juli', 'Agustus', 'Oktober'))} 2025",
        "",
        "2.1 Same-Day. Parcels handed over at a Provider hub before 12:00 WIB must be delivered by 21:00 WIB on the "
        "same calendar day.",
        "2.2 Next-Day. Parcels handed over before 22:00 WIB must be delivered by 20:00 WIB the following day, "
        "Saturdays included.",
        f"2.3 On-time performance target: {r.choice(('97.5', '96.0', '98.0'))}% per calendar month, measured per hub.",
        "2.4 Failed attempts. The Provider shall make no fewer than 2 (two) delivery attempts. Do not return parcels "
        "to the Client before the second attempt has been logged with a reason code.",
        f"2.5 Service credits. For each 0.5 pp below target, {r.choice((2, 3))}% of the monthly fee is credited, capped "
        f"at {r.choice((10, 15))}%.",
        "2.6 Proof of delivery. Photo plus recipient name. Please ensure photos are geotagged within 150 m of the "
        "delivery address.",
        "2.7 Reporting. Send the weekly performance report every Monday before 10:00 WIB.",
        "Escalation: ops-escalation@tokoloka.co.id, response within 30 minutes between 08:00 and 22:00 WIB.",
    ))


def _doc_whatsapp(r: R) -> str:
    d = f"{r.randint(10, 28)}/11"
    return "\n".join((
        f"[{d} 05:{r.randint(10, 40)}] Pak Darto Hub Cakung: Pagi mas, sorter line 2 mati lagi dr jam 4",
        f"[{d} 05:{r.randint(41, 45)}] Pak Darto Hub Cakung: backlog udah {r.randint(2, 6)}.{r.randint(100, 999)} paket",
        f"[{d} 05:{r.randint(46, 50)}] Pak Darto Hub Cakung: tolong jgn kirim van Lintas dulu sblm jam 8, area bongkar penuh",
        f"[{d} 05:{r.randint(51, 55)}] Pak Darto Hub Cakung: Kurir shift pagi suruh nunggu di area B aja",
        f"[{d} 06:0{r.randint(0, 9)}] Pak Darto Hub Cakung: Mohon restart aplikasi scanner semua device ya mas, yg versi lama suka hang",
        f"[{d} 06:1{r.randint(0, 9)}] Pak Darto Hub Cakung: teknisi sorter baru dateng jam 9, vendor bilang spare part habis",
        f"[{d} 06:2{r.randint(0, 9)}] Pak Darto Hub Cakung: Jangan assign rute ke kurir {r.randint(3, 9)} org yg blm absen ya",
    ))


def _doc_notice(r: R) -> str:
    return "\n".join((
        "PENGUMUMAN",
        f"Nomor: e-{r.randint(1000, 9999)}/PG.01.02",
        "Tentang: Perpanjangan Pembatasan Lalu Lintas dengan Sistem Ganjil-Genap dan Jam Operasional Angkutan Barang",
        "",
        "1. Pembatasan ganjil-genap berlaku Senin s.d. Jumat pukul 06.00-10.00 WIB dan 16.00-21.00 WIB pada "
        f"{r.choice((25, 26, 28))} ruas jalan di Provinsi DKI Jakarta.",
        "2. Kendaraan bermotor dengan nomor polisi ganjil dilarang melintas pada tanggal genap, dan sebaliknya.",
        "3. Mobil barang dengan JBB lebih dari 5.500 kg dilarang melintas di ruas jalan tol dalam kota pukul "
        "05.00-22.00 WIB, kecuali pengangkut BBM dan sembako.",
        "4. Pelanggaran dikenakan sanksi sesuai Pasal 287 ayat (1) UU No. 22 Tahun 2009 dengan denda paling banyak "
        "Rp500.000.",
        "Harap seluruh pengemudi mematuhi rambu dan arahan petugas di lapangan. Jangan berhenti atau menurunkan "
        "barang di bahu jalan.",
        f"Ditetapkan di Jakarta, {r.randint(1, 28)} November 2025 - Kepala Dinas Perhubungan Provinsi DKI Jakarta",
    ))


def _doc_mail(r: R) -> str:
    w = r.randint(45, 50)
    return "\n".join((
        "From: Hendro Wibisono <hendro.w@lintasnusantara.co.id>",
        "To: ops@antarin.id",
        f"Subject: RE: Linehaul handover Cikarang - revised schedule week {w}",
        "",
        "Dear Antarin team,",
        f"Starting week {w} our CDD trucks will arrive at 02:30, 04:00 and 05:30 WIB instead of the current two slots.",
        "Please make sure all bags are sealed and manifested before the truck arrives. Do not load unmanifested bags; "
        "our drivers are instructed to refuse them.",
        f"Waiting time above 45 minutes will be charged at Rp {r.choice(('150.000', '175.000', '200.000'))} per hour "
        "per truck, as per clause 7.3.",
        "Please confirm the new schedule by Thursday 17:00 and send the PIC's phone number for each shift.",
        "",
        "Best regards,",
        "Hendro Wibisono | Linehaul Operations | PT Lintas Nusantara Logistik",
    ))


def _doc_postmortem(r: R) -> str:
    n = r.randint(10, 99)
    return "\n".join((
        f"POSTMORTEM PM-2025-0{n}: Dispatch queue outage",
        f"Severity: SEV-2   Duration: {r.randint(30, 70)} min (17:12-17:59 WIB)   Author: Bayu",
        "Summary: During the evening wave the Redis primary failed over while leases were in flight; jobs were "
        "claimed twice and about 1,900 parcels were assigned to two couriers.",
        "Timeline:",
        "17:12 primary CPU at 100%, replication lag grows",
        "17:19 automatic failover; in-flight lease list not replicated",
        "17:31 hub tablets show duplicate tasks; on-call paged",
        "17:59 duplicates cleared by script, queue drained",
        "Root cause: failover without draining in-flight leases; lease keys lived only on the old primary.",
        "Action items:",
        "- [ ] Do not fail over the Redis primary without draining in-flight leases (owner: Bayu, due 28 Nov)",
        f"- [ ] Add alert on dispatch_queue_depth > {r.choice((4000, 5000, 6000))} for 5m (owner: Dewi)",
        "- [ ] Always page the routing on-call when the hub tablets report duplicates",
        "- [ ] Write a runbook for manual dedup (owner: Kevin)",
    ))


def _doc_jira(r: R) -> str:
    return "\n".join((
        f"DSP-{r.randint(1000, 1999)}  [Bug] ETA shown to customer jumps by 40+ min after courier swap",
        "Type: Bug   Priority: High   Status: In Progress   Assignee: Kevin   Reporter: Putri",
        "Labels: eta, courier-app, tokoloka",
        "Description:",
        "Steps to reproduce:",
        "1. Create an order in staging and assign it to a courier.",
        "2. Reassign it to another courier via the ops console.",
        "3. Open the tracking page.",
        "Expected: ETA changes by the difference in distance only.",
        "Actual: ETA is recomputed from the hub, +40 to +70 min.",
        "Please attach logcat from a device on build 5140 or later.",
        "Acceptance criteria:",
        "- Do not recompute the ETA from scratch on reassignment.",
        "- Keep the customer notification to one message per change.",
        f"Comments: Andre ({r.randint(10, 28)}/Nov/25 10:14): reproduced on Samsung A14, happens on 3 of 5 swaps.",
    ))


def _doc_cod(r: R) -> str:
    w = r.randint(44, 48)
    rows = "\n".join(f"| {h} | Rp {r.randint(1, 19)}.{r.randint(100, 999)}.000 | {r.randint(2, 20)} |"
                     for h in r.sample(HUBS, 4))
    return "\n".join((
        f"Catatan Rekonsiliasi COD - Minggu {w}",
        "Dari: Tim Finance (Mbak Sari)",
        f"Total COD tertagih: Rp 1.{r.randint(100, 999)}.{r.randint(100, 999)}.500",
        f"Total disetor: Rp 1.{r.randint(100, 999)}.{r.randint(100, 999)}.000",
        f"Selisih: Rp {r.randint(20, 60)}.{r.randint(100, 999)}.500",
        "| Hub | Selisih | Kurir terlibat |",
        "|-----|---------|----------------|",
        rows,
        "Tindak lanjut:",
        "1. Mohon hub head memastikan setoran kurir maksimal H+2 setelah pengantaran.",
        "2. Jangan proses payout insentif kurir yang masih punya selisih di atas Rp 500.000.",
        "3. Data settlement dari bank masuk tiap hari jam 07.00, tolong jangan ubah format export-nya.",
    ))


DOCS: dict[str, tuple[Callable[[R], str], str, str]] = {
    # name: (document, how the user introduces it, what the agent says about it)
    "sla": (_doc_sla, "ini excerpt SLA Tokoloka yang baru ditandatangani:", "The SLA is the client's"),
    "wa": (_doc_whatsapp, "nih chat dari Pak Darto barusan, gue copas:", "Pak Darto's messages"),
    "notice": (_doc_notice, "pengumuman Dishub soal ganjil-genap sama jam truk, baca dulu:", "The Dishub notice"),
    "mail": (_doc_mail, "mail dari Lintas (3PL), fyi:", "Lintas's mail"),
    "pm": (_doc_postmortem, "postmortem insiden queue minggu lalu, buat konteks:", "The postmortem"),
    "jira": (_doc_jira, "tiket dari Putri, pasted:", "The ticket"),
    "cod": (_doc_cod, "note rekonsiliasi COD dari finance:", "Finance's note"),
}


ADOPTABLE = ("sla", "wa", "notice", "mail", "cod", "pm")  # documents a user may take a rule from


def _adopted(r: R) -> dict[str, dict[str, Any]]:
    """Rules the user adopts from a pasted document, in their own words (outside the pasted text)."""
    t = r.choice(("20.15", "20.30", "20.00"))
    n = r.choice((28, 30, 32, 35))
    road = r.choice(("Sudirman-Thamrin", "Gatot Subroto", "Rasuna Said", "MT Haryono"))
    bay = r.choice(("B2", "B3", "C1"))
    d = r.choice((1, 2))
    s = r.choice((60, 90, 120))
    return {
        "sla": {"value": f"same-day cut jam {t}", "lang": "id",
                "rule": f"intinya buat kita: mulai sekarang same-day cut jam {t}, biar ada buffer sebelum batas SLA",
                "query": "What same-day cut-off did the user set for the client's parcels?"},
        "wa": {"value": f"maksimal {n} stop per shift", "lang": "id",
               "rule": f"dari situ gue ambil satu: mulai sekarang kurir Cakung maksimal {n} stop per shift, jangan lebih",
               "query": "What stop limit per shift did the user set for Cakung couriers?"},
        "notice": {"value": f"plat ganjil lewat {road} di tanggal genap", "lang": "id",
                   "rule": f"jadi aturan kita: jangan pernah assign truk plat ganjil lewat {road} di tanggal genap, "
                           "solver harus ngecek tanggal", "query": "Which truck assignment does the odd-even rule forbid?"},
        "mail": {"value": f"handover to Lintas only at bay {bay}", "lang": "en",
                 "rule": f"so from now on: handover to Lintas only at bay {bay}, nowhere else, put it in the hub config",
                 "query": "Where may parcels be handed over to the 3PL partner?"},
        "cod": {"value": f"setoran COD max H+{d}", "lang": "id",
                "rule": f"buat kita lebih ketat: setoran COD max H+{d}, kalo lewat payout-nya ditahan",
                "query": "By when must couriers deposit COD cash?"},
        "pm": {"value": f"drain leases {s} detik sebelum failover", "lang": "id",
               "rule": f"dari postmortem itu, aturan baru: selalu drain leases {s} detik sebelum failover, no exception",
               "query": "What must be done before a Redis failover?"},
    }


# --- events --------------------------------------------------------------------------------------------------------------
@dataclass
class _Event:
    pos: float
    prio: int
    length: int
    render: Callable[[_Chat], None]


def _ack_rule(r: R, value: str, lang: str) -> str:
    if lang == "id":
        return r.choice((f"Siap, dicatat: {value}. Gue pegang itu mulai sekarang.",
                         f"Oke, noted — {value}. Kalau ada yang bentrok sama aturan ini aku tanya dulu.",
                         f"Noted: {value}. I'll keep to it for the rest of the work."))
    return r.choice((f"Understood — {value}. I'll hold to that from here on.",
                     f"Noted: {value}. If anything I do would break it, I'll stop and ask first.",
                     f"Got it: {value}."))


def _with_tool_round(c: _Chat, ack: str, calls: int = 1) -> None:
    """An answer that first looks at something (``calls`` tools at once), then acknowledges."""
    r = c.rng
    names = []
    for _ in range(calls):
        names.append(c.next_tool())
        if names[-1] in c.unused:
            c.unused.remove(names[-1])
    made = [(name, *_filler_call(r, name)) for name in names]
    ids = c.call([(name, args) for name, args, _ in made],
                 text=r.choice(("Let me check what that touches.", "Cek dulu yang kena.")))
    for cid, (name, _args, gen) in zip(ids, made):
        c.tool(cid, name, gen=gen)
    c.say(ack)


def make_session(seed: int = 1, messages: int = 400) -> Session:
    """A session of exactly ``messages`` messages (at least :data:`MIN_MESSAGES`) with its planted facts."""
    if messages < MIN_MESSAGES:
        raise ValueError(f"a last-mile session needs at least {MIN_MESSAGES} messages, not {messages}")
    n = messages
    r = random.Random(seed)
    k = per_kind(n)
    c = _Chat(r)
    taken: list[str] = []

    def fresh(*vals: str) -> bool:
        if len(set(vals)) != len(vals) or any(a in b for a in vals for b in vals if a is not b):
            return False
        return all(v not in s and s not in v for v in vals for s in taken)

    def draw(pool_fn: Callable[[R], list[dict[str, Any]]], key: Callable[[dict[str, Any]], tuple[str, ...]],
             want: Callable[[dict[str, Any]], bool] | None = None, used: set[int] | None = None) -> dict[str, Any]:
        for attempt in range(200):
            pool = pool_fn(r)
            order = list(range(len(pool)))
            r.shuffle(order)
            for i in order:
                if used is not None and i in used and attempt < 3:
                    continue
                item = pool[i]
                if want is not None and not want(item) and attempt < 3:
                    continue
                vals = key(item)
                if fresh(*vals):
                    taken.extend(vals)
                    if used is not None:
                        used.add(i)
                    return item
        raise RuntimeError("no fresh value left")  # pragma: no cover

    events: list[_Event] = []
    lo = 0.13
    others = [kind for kind in KINDS for _ in range(k)]
    others.remove("instruction")
    if k > 1:
        others.remove("instruction")
    r.shuffle(others)
    # spread over the thirds: the last third gets at least a sixth of all facts, the first holds the early rules
    early = 2 if k > 1 else 1
    total = len(others) + early
    t3 = max(total // 6 + 1, round(len(others) * 0.24))
    t1 = max(0, total // 3 - early)
    t2 = len(others) - t1 - t3
    top = 0.80 if n >= 200 else (0.77 if n >= 120 else 0.72)
    positions = []
    for count, (a, b) in ((t1, (lo, 0.31)), (t2, (0.35, 0.64)), (t3, (0.69, top))):
        positions += [a + (b - a) * (i + r.uniform(0.2, 0.8)) / count for i in range(count)]
    plan: list[tuple[str, float]] = [("instruction", 0.04)]
    if k > 1:
        plan.append(("instruction", 0.085))
    plan += list(zip(others, positions))

    # which of each kind get special treatment
    n_revised = max(1, k // 3) if k >= 2 else 1
    n_resolved = max(1, k // 2) if k >= 2 else 1
    if k >= 2:
        n_resolved = min(n_resolved, k - 1)
    counters = {kind: 0 for kind in KINDS}
    used: dict[str, set[int]] = {kind: set() for kind in KINDS}
    doc_names = list(DOCS)
    r.shuffle(doc_names)
    adopted_docs = [d for d in doc_names if d in ADOPTABLE]
    adopted_pool = _adopted(r)
    far_needed = 0

    for kind, pos in plan:
        j = counters[kind]
        counters[kind] += 1
        if kind == "instruction":
            adopted = j >= 2 and j % 4 == 3 and adopted_docs
            if adopted:
                doc = adopted_docs.pop(0)
                item = adopted_pool[doc]
                if not fresh(item["value"]):
                    adopted = False
                else:
                    taken.append(item["value"])
                    events.append(_Event(pos, 1, 2, _adopted_event(doc, item)))
                    continue
            lang = "id" if j % 2 == 0 else "en"
            cond = j % 4 == 2

            def want(it: dict[str, Any], lang: str = lang, cond: bool = cond) -> bool:
                return it["lang"] == lang and (not cond or bool(it.get("cond")))
            item = draw(_instructions, lambda it: (it["value"],), want=want, used=used[kind])
            style = "second" if j % 3 == 1 else "plain"
            long = j % 2 == 1 or n < 120
            events.append(_Event(pos, 1, 4 if long else 2, _instruction_event(item, style, long)))
        elif kind == "correction":
            item = draw(_corrections, lambda it: it["pair"], used=used[kind])
            far = j % 2 == 0
            if far:
                gap = r.randint(110, max(111, int(0.3 * n)))
            else:
                gap = r.randint(6, 30)
            far_needed += far
            spos = max(0.05, pos - gap / n)
            box: dict[str, Any] = {}
            events.append(_Event(spos, 0, 2, _stale_event(item, box)))
            events.append(_Event(pos, 1, 2, _correction_event(item, box, lang="id" if j % 2 else "en",
                                                              middle=j % 3 == 2)))
        elif kind == "decision":
            revised = j < n_revised
            item = draw(_decisions, lambda it, rv=revised: tuple(it["opts"]) if rv else (it["opts"][1],),
                        used=used[kind])
            box = {}
            if revised:
                spos = max(0.05, pos - r.randint(8, max(9, int(0.25 * n))) / n)
                events.append(_Event(spos, 0, 2, _early_choice_event(item, box)))
            events.append(_Event(pos, 1, 2, _decision_event(item, box, revised)))
        elif kind == "plan":
            item = draw(_plans, lambda it: (it["value"],), used=used[kind])
            events.append(_Event(pos, 1, 2, _plan_event(item)))
        elif kind == "identifier":
            carrier = "user" if j % 2 == 0 else "tool"
            item = draw(_identifiers, lambda it: (it["value"],), want=lambda it, ca=carrier: it["carrier"] == ca,
                        used=used[kind])
            if item["carrier"] == "user":
                events.append(_Event(pos, 1, 2, _said_id_event(item)))
            else:
                events.append(_Event(pos, 1, 4, _printed_id_event(item)))
        elif kind == "error":
            item = draw(_errors, lambda it: (it["line"],), used=used[kind])
            box = {}
            events.append(_Event(pos, 1, 4, _error_event(item, box)))
            if j < n_resolved:
                events.append(_Event(min(0.84, pos + r.randint(10, 40) / n), 2, 4, _resolve_event(item, box)))
        elif kind == "finding":
            item = draw(_findings, lambda it: (it["value"],), used=used[kind])
            events.append(_Event(pos, 1, 4, _finding_event(item)))
        elif kind == "file":
            free = [p for p in FILE_PATHS if fresh(p)]
            if free:
                path = r.choice(free)
                ask, what = FILE_PATHS[path]
            else:
                path = f"migrations/2025{r.randint(10, 12):02d}{r.randint(10, 28)}{r.randint(100000, 235959)}_" \
                       f"{r.choice(('add_geofence_idx', 'split_stop_events', 'cod_settlement_cols'))}.sql"
                ask, what = "bikin migration-nya", "the new migration"
            taken.append(path)
            events.append(_Event(pos, 1, 4, _file_event(path, ask, what)))

    n_docs = 2 + n // 250
    adopted_set = {d for d in ADOPTABLE if d not in adopted_docs}
    paste_order = [d for d in doc_names if d not in adopted_set] + [d for d in doc_names if d in adopted_set]
    for i in range(n_docs):
        doc = paste_order[i % len(paste_order)]
        calls = 3 if n < 200 else r.choice((1, 1, 2))
        span = 0.8 if n >= 200 else 0.5
        events.append(_Event(0.1 + span * (i + r.uniform(0.1, 0.9)) / n_docs, 3, 3 + calls, _paste_event(doc, calls)))

    # layout: gaps of filler between the events (never 1 or 3 messages, which no episode can be)
    events.sort(key=lambda e: (e.pos, e.prio))
    gaps = []
    cursor = 1
    for e in events:
        gap = max(0, round(e.pos * n) - cursor)
        if gap in (1, 3):
            gap += 1
        gaps.append(gap)
        cursor += gap + e.length
    tail = n - cursor - 1
    if tail in (1, 3):
        big = [i for i, g in enumerate(gaps) if g >= 4]
        if big:
            gaps[big[-1]] += 1
            tail -= 1
        else:  # pragma: no cover - there is always room at the sizes we make
            raise ValueError(f"cannot lay out {n} messages")
    if tail < 0:
        raise ValueError(f"cannot lay out {n} messages")  # pragma: no cover

    c.messages.append({"role": "system", "content": SYSTEM})
    for gap, e in zip(gaps, events):
        _fill(c, gap)
        before = len(c.messages)
        e.render(c)
        assert len(c.messages) - before == e.length, e
    _fill(c, tail)
    c.user(r.choice(("oke cukup buat hari ini. besok pagi lanjut ya, gue mau cek hub Bogor dulu",
                     "sip, thanks. lanjut besok, tolong siapin ringkasan buat standup jam 9",
                     "ok nice. one last thing tomorrow: the weekly numbers for the ops call")))
    _cover(c)
    _size(c, n)
    facts = [Fact(f["kind"], f["value"], f["index"], f["query"], f.get("stale"), f.get("stale_index"),
                  f.get("resolved")) for f in sorted(c.facts, key=lambda f: f["index"])]
    return Session(messages=c.messages, facts=facts, seed=seed, pasted=c.pasted)


def _cover(c: _Chat) -> None:
    """Every tool is called at least once: a filler call of a tool called elsewhere too becomes an unused tool."""
    calls = [f for m in c.messages for f in (x["function"] for x in m.get("tool_calls") or [])]
    counts = Counter(f["name"] for f in calls)
    for name in [t for t in TOOLS if not counts[t]]:
        for j in range(len(c.deferred) - 1, -1, -1):
            m, _gen = c.deferred[j]
            fn = c.calls_by_id[m["tool_call_id"]]
            if counts[fn["name"]] > 1:
                counts[fn["name"]] -= 1
                counts[name] += 1
                args, gen = _filler_call(c.rng, name)
                fn["name"], fn["arguments"] = name, json.dumps(args, ensure_ascii=False)
                m["name"] = name
                c.deferred[j] = (m, gen)
                break


def _size(c: _Chat, n: int) -> None:
    """Generate the filler tool outputs to the size the session must reach."""
    r = c.rng
    fixed = sum(len(text_of(m)) for m in c.messages)
    budget = CHARS_PER_MESSAGE * n - fixed
    weights = [r.uniform(0.3, 1.7) for _ in c.deferred]
    total = sum(weights) or 1.0
    for (m, gen), w in zip(c.deferred, weights):
        m["content"] = gen(max(350, int(budget * w / total)))


# --- event renderers ------------------------------------------------------------------------------------------------------
def _instruction_event(item: dict[str, Any], style: str, long: bool) -> Callable[[_Chat], None]:
    def render(c: _Chat) -> None:
        r = c.rng
        lead = r.choice(INSTR_LEADS[item["lang"]])
        rule = lead + item["rule"] if lead else item["rule"][0].upper() + item["rule"][1:]
        if style == "second":
            first = r.choice(FIRST_PARAS).format(who=r.choice(PEOPLE), t=_clock(r))
            text = f"{first}\n\n{rule}"
        else:
            text = rule
        i = c.user(text)
        c.fact("instruction", item["value"], i, item["query"])
        ack = _ack_rule(r, item["value"], item["lang"])
        if long:
            _with_tool_round(c, ack)
        else:
            c.say(ack)
    return render


def _adopted_event(doc: str, item: dict[str, Any]) -> Callable[[_Chat], None]:
    def render(c: _Chat) -> None:
        r = c.rng
        make, intro, _name = DOCS[doc]
        pasted = make(r)
        text = f"{intro}\n\n{pasted}\n\n{item['rule']}"
        i = c.user(text)
        c.pasted.append((i, pasted))
        c.fact("instruction", item["value"], i, item["query"])
        c.say(f"Noted: {item['value']}. That's your rule now; the other instructions in the pasted text are theirs, "
              "so I'll treat them as context, not as orders to me.")
    return render


def _stale_event(item: dict[str, Any], box: dict[str, Any]) -> Callable[[_Chat], None]:
    def render(c: _Chat) -> None:
        box["index"] = c.user(item["first"])
        c.say(c.rng.choice((f"Oke, aku catat {item['pair'][0]}. Nanti aku cek setelah yang ini selesai.",
                            f"Got it, {item['pair'][0]}. I'll get to it right after the current check.")))
    return render


def _correction_event(item: dict[str, Any], box: dict[str, Any], lang: str, middle: bool) -> Callable[[_Chat], None]:
    def render(c: _Chat) -> None:
        r = c.rng
        old, new = item["pair"]
        fix = r.choice(FIX_ID if lang == "id" else FIX_EN).format(what=item["what"], thing=item["thing"], new=new,
                                                                  old=old)
        if middle:
            text = (f"update dari lapangan: {r.choice(HUBS)} udah normal lagi dari jam {_clock(r)}, backlog turun. "
                    f"{fix}. terus {r.choice(PEOPLE)} minta angka on-time minggu ini buat meeting jam "
                    f"{_clock(r)}, tolong siapin habis ini ya")
        else:
            text = fix
        i = c.user(text)
        c.fact("correction", new, i, item["query"], stale=old, stale_index=box["index"])
        c.say(r.choice((f"Noted, {new} then — I'll drop {old} everywhere I used it.",
                        f"Oke, pakai {new}. Yang {old} aku abaikan.", f"Thanks for catching that: {new}.")))
    return render


def _early_choice_event(item: dict[str, Any], box: dict[str, Any]) -> Callable[[_Chat], None]:
    def render(c: _Chat) -> None:
        r = c.rng
        old = item["opts"][0]
        box["index"] = c.user(r.choice(DECIDE).format(v=old))
        c.say(f"OK, {old} for now. I'll set it up that way.")
    return render


def _decision_event(item: dict[str, Any], box: dict[str, Any], revised: bool) -> Callable[[_Chat], None]:
    def render(c: _Chat) -> None:
        r = c.rng
        old, new = item["opts"]
        if revised:
            text = r.choice(REVISE).format(v=new, old=old, who=r.choice(PEOPLE))
        else:
            text = (r.choice(("dua opsi tadi udah gue baca. ", "ok after looking at the numbers: ", "")) +
                    r.choice(DECIDE).format(v=new))
        i = c.user(text)
        extra = {"stale": old, "stale_index": box["index"]} if revised else {}
        c.fact("decision", new, i, item["query"], **extra)
        c.say(r.choice((f"Decision recorded: {new}. I'll update the config and the summary.",
                        f"Oke, {new}. Aku sesuaikan konfigurasinya.")))
    return render


def _plan_event(item: dict[str, Any]) -> Callable[[_Chat], None]:
    def render(c: _Chat) -> None:
        i = c.user(item["text"])
        c.fact("plan", item["value"], i, item["query"])
        c.say(f"Clear plan. The key constraint I'll track is {item['value']}; I'll set up the checks for each step.")
    return render


def _said_id_event(item: dict[str, Any]) -> Callable[[_Chat], None]:
    def render(c: _Chat) -> None:
        i = c.user(item["text"].format(v=item["value"]))
        c.fact("identifier", item["value"], i, item["query"])
        c.say(f"On it — {item['value']}. I'll pull what we have on it.")
    return render


def _printed_line(r: R, item: dict[str, Any]) -> tuple[dict[str, Any], str, str]:
    """(call arguments, output holding the identifier, the user's ask) for a tool-printed identifier."""
    v = item["value"]
    tool = item["tool"]
    if tool == "psql" and v.startswith("RP-"):
        args = {"db": "dispatch", "sql": "SELECT route_plan_id, hub, status, updated_at FROM route_plans WHERE status "
                "= 'locked' ORDER BY updated_at LIMIT 5;"}
        out = (" route_plan_id      | hub | status | updated_at\n--------------------+-----+--------+-----------\n"
               f" {v} | {v.split('-')[2]} | locked | 2025-11-{r.randint(10, 28)} {_clock(r)}\n(1 row)")
        return args, out, "ada route plan yang ke-lock gak sih? dispatcher ga bisa edit"
    if tool == "psql":
        args = {"db": "dispatch", "sql": "SELECT batch_id, count(*) FROM pickup_items GROUP BY 1 HAVING count(*) > "
                "count(DISTINCT awb) LIMIT 5;"}
        out = f" batch_id | count\n----------+-------\n {v}  | {r.randint(40, 300)}\n(1 row)"
        return args, out, "cek batch pickup yang dobel dong"
    if tool == "kafka":
        args = {"cmd": "kafka-consumer-groups --describe --group eta-backfill --members --verbose"}
        out = ("GROUP        CONSUMER-ID                                  HOST          #PARTITIONS  ASSIGNMENT\n"
               f"eta-backfill {v}  /10.20.{r.randint(1, 9)}.{r.randint(2, 250)}  1            courier.location.v3(7)")
        return args, out, "siapa yang nyangkut di partisi 7 backfill?"
    if tool == "terraform":
        args = {"cmd": "plan", "dir": "infra/terraform/envs/prod"}
        out = (f"  # {v} must be replaced\n-/+ resource \"aws_elasticache_replication_group\" \"x\" {{\n"
               "      ~ engine_version = \"6.2\" -> \"7.1\" # forces replacement\n    }\n\nPlan: 1 to add, 0 to change, "
               "1 to destroy.")
        return args, out, "terraform plan modul dispatch queue, mau liat ada yang di-replace gak"
    if tool == "shell":
        args = {"cmd": "redis-cli -h dispatch-redis.internal --scan --pattern 'dq:lease:*'"}
        return args, v, "ada lease yang ketinggalan di redis gak?"
    if tool == "logcat":
        args = {"device": "all", "filter": "CrashReporter:I *:S"}
        out = f"11-{r.randint(10, 28)} {_clock(r)}:07.114 2210 2210 I CrashReporter: {v} crashes=4 build=5140"
        return args, out, "crash ini dari device mana aja?"
    args = {"dashboard": "tracking-pipeline", "panel": "Alerts (list)", "range": "now-6h"}
    out = f'{{"alerts": [{{"rule": "{v}", "state": "firing", "since": "{_clock(r)}"}}]}}'
    return args, out, "alert apa yang nyala di grafana?"


def _printed_id_event(item: dict[str, Any]) -> Callable[[_Chat], None]:
    def render(c: _Chat) -> None:
        r = c.rng
        args, out, ask = _printed_line(r, item)
        c.user(ask)
        (cid,) = c.call([(item["tool"], args)])
        if item["tool"] == "shell":
            own = item["value"].split(":")[2]
            pad = "\n".join(f"dq:lease:{r.choice([h for h in HUB_CODES if h != own])}:{r.randint(100000, 999999)}"
                            for _ in range(r.randint(20, 60)))
        elif item["tool"] == "logcat":
            pad = _tool_text(r, "logcat", r.randint(600, 1600))
        else:
            pad = ""
        body = f"{pad}\n{out}" if pad else out
        i = c.tool(cid, item["tool"], body)
        c.fact("identifier", item["value"], i, item["query"])
        c.say(f"Found it: {item['value']}. That's the one to look at; everything else in the output is normal.")
    return render


def _error_event(item: dict[str, Any], box: dict[str, Any]) -> Callable[[_Chat], None]:
    def render(c: _Chat) -> None:
        r = c.rng
        c.user(item["ask"])
        (cid,) = c.call([(item["tool"], item["args"])], text=r.choice((None, "Running it.")))
        before = _tool_text(r, item["tool"], r.randint(900, 2600)) if item["tool"] != "psql" else ""
        lines = [before] if before else []
        if "pre" in item:
            lines.append(item["pre"])
        lines.append(item["line"])
        lines.extend(item.get("extra", []))
        i = c.tool(cid, item["tool"], "\n".join(lines))
        box["index"] = i
        box["fact"] = c.fact("error", item["line"], i, item["query"])
        rest = ("The lines above it are the passing part of the run. " if before else "") + r.choice((
            "I'll look at the cause next.", "Want me to dig into it now or after the hub numbers?",
            "Aku cek penyebabnya dulu ya."))
        c.say(f"It fails here:\n\n{item['line']}\n\n{rest}")
    return render


def _resolve_event(item: dict[str, Any], box: dict[str, Any]) -> Callable[[_Chat], None]:
    def render(c: _Chat) -> None:
        r = c.rng
        c.user(r.choice(("udah gue fix, coba run lagi yang gagal tadi", "rerun the one that failed please",
                         "coba ulang command yang error tadi")))
        (cid,) = c.call([(item["tool"], item["args"])])
        i = c.tool(cid, item["tool"], item["pass"]())
        box["fact"]["resolved"] = i
        c.say("Same command, clean now: the earlier error is gone.")
    return render


FINDING_CONTEXT = {
    "kafka": ("client.id = tracking-sink\nfetch.max.bytes = 52428800\nsession.timeout.ms = 45000\n"
              "heartbeat.interval.ms = 3000\nmax.poll.interval.ms = 300000", "enable.auto.commit = false\n"
              "auto.offset.reset = latest\nisolation.level = read_committed"),
    "shell": ("# Memory\nused_memory:3921044112\nused_memory_human:3.65G\nused_memory_peak_human:3.98G\n"
              "maxmemory:4294967296\nmaxmemory_human:4.00G", "mem_fragmentation_ratio:1.31\nmem_allocator:jemalloc-5.3.0"),
    "psql": ("", "(1 row)\n\nTime: 412.118 ms"),
    "pytest": ("tests/test_importance.py::test_top_features PASSED\n--- gain by feature (top 5) ---",
               "feature_gain hour_of_day=0.094\nfeature_gain dist_km=0.081\n1 passed in 12.40s"),
    "terraform": ("module.dispatch_queue: reading state\nengine = \"redis\"\nengine_version = \"7.1\"",
                  "num_cache_clusters = 2\nport = 6379\nautomatic_failover_enabled = true"),
}


def _finding_event(item: dict[str, Any]) -> Callable[[_Chat], None]:
    def render(c: _Chat) -> None:
        r = c.rng
        v = item["value"]
        c.user(r.choice(("cari tau root cause-nya dong", "can you find out why?", "coba cek angkanya",
                         "kenapa ya? cek dong")))
        (cid,) = c.call([(item["tool"], item["args"])])
        line = item["line"] or r.choice((f"{v}", f"  {v}", f"{v}  # current"))
        around = item.get("ctx") or FINDING_CONTEXT.get(item["tool"], ("", ""))
        if item["tool"] == "grafana":
            body = "{\n  \"panel\": \"" + item["args"]["panel"] + "\",\n" + line + "\n  \"series\": []\n}"
        elif item["tool"] == "logcat":
            body = f"{_tool_text(r, 'logcat', r.randint(500, 1400))}\n{line}"
        else:
            body = f"{around[0]}\n{line}\n{around[1]}".strip("\n")
        i = c.tool(cid, item["tool"], body)
        c.fact("finding", v, i, item["query"])
        c.say(f"The output says {v}. What it means: {item['means']}.")
    return render


def _file_event(path: str, ask: str, what: str) -> Callable[[_Chat], None]:
    def render(c: _Chat) -> None:
        r = c.rng
        c.user(f"{ask}{r.choice(('', ', file baru aja', ' please, new file', '. gas'))}")
        lines = CODE[_lang(path)]
        start = r.randrange(len(lines))
        content = "\n".join(lines[(start + i) % len(lines)] for i in range(min(len(lines), r.randint(8, 14))))
        (cid,) = c.call([("edit_file", {"path": path, "create": True, "content": content})],
                        text="Writing the new file.")
        i = len(c.messages) - 1
        c.tool(cid, "edit_file", f"Created {path} ({len(content)} bytes).")
        c.fact("file", path, i, f"Which file did the agent create for {what}?")
        c.say(f"Done: {path} is in place. Next I'll wire it in and run the tests.")
    return render


def _paste_event(doc: str, calls: int) -> Callable[[_Chat], None]:
    def render(c: _Chat) -> None:
        r = c.rng
        make, intro, name = DOCS[doc]
        pasted = make(r)
        i = c.user(f"{intro}\n\n{pasted}\n\n{r.choice(('gimana menurut lo?', 'thoughts?', 'ini ngaruh ke kita gak?'))}")
        c.pasted.append((i, pasted))
        _with_tool_round(c, f"{name} mostly affects scheduling, not code. The instructions in it are addressed to "
                            "others (drivers, hub heads, the partner), so I'm not treating them as rules for me unless "
                            "you say so. Worth noting the clock times and the amounts; I can turn them into a checklist.",
                         calls)
    return render
