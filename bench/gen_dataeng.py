"""Long data-engineering sessions with planted facts, for the fidelity bench.

A data engineer at a logistics company in Rotterdam works with a coding agent on the company's analytics
platform: dbt models, tests and snapshots (``dbt build`` logs), Airflow DAGs (task logs, retries, sensors),
Snowflake (SQL, warehouses, query history, ``COPY INTO`` errors), Great Expectations checkpoints, Terraform for
the Snowflake objects, a Looker dashboard for the planners, pandas scripts with pytest, and Kafka topics feeding
the raw layer. The user writes Dutch and English, often in one session, casually and sometimes tersely; they
paste things (the data contract with the carrier-events team, a Slack thread from the planners, an incident
postmortem, a vendor's SLA mail, a ``dbt build`` run from CI, a security officer's note on PII) whose imperatives
are not theirs.

    import sys; sys.path.insert(0, "bench")
    from gen_dataeng import make_session
    session = make_session(seed=1, messages=400)     # about 600k characters, six facts of each kind
    session = make_session(seed=1, messages=3000)    # about 4.8M characters, twelve of each kind
    for fact in session.facts:
        print(fact.kind, fact.index, fact.value, "|", fact.query)
    for index, text in session.pasted:               # what the user pasted rather than wrote
        assert text in session.messages[index]["content"]

``session.messages`` is an OpenAI chat conversation: a system prompt, user turns, assistant turns whose
``tool_calls`` (:data:`TOOLS`) are answered at once by ``tool`` messages, and a final user turn after an answer
without calls. Most characters are tool output: dbt logs, Snowflake result tables, Airflow task logs, pytest
runs, Terraform plans, diffs and file dumps.

``session.facts`` are :class:`sessiongen.Fact` of eight kinds (:data:`KINDS`), :func:`per_kind` of each, planted
between 3% and 88% of the session over all three thirds. A value first occurs in its own message and afterwards
only in the eight messages after it; a correction's (or a revised decision's) old value only in its own message,
the twelve after it, or beside the correction. Same seed and size, same bytes (only ``random.Random(seed)``).
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable
from typing import Any

from sessiongen import Fact, Message, Session, text_of

NAME = "dataeng"
KINDS = ("instruction", "correction", "decision", "error", "file", "identifier", "finding", "plan")
TOOLS = ("shell", "dbt", "snowsql", "airflow", "read_file", "write_file", "edit_file", "git")
MIN_MESSAGES = 60
CHARS_PER_MESSAGE = 1580  # the size the tool outputs steer towards: 632k at 400 messages, 4.74M at 3000

# --- the platform's everyday vocabulary (filler); planted values never use these words' reserved forms ---------

MODELS = ("stg_carrier_events", "stg_shipments", "stg_depots", "stg_gps_pings", "stg_invoices", "stg_customers",
          "int_shipment_legs", "int_route_segments", "int_eta_features", "int_depot_capacity", "fct_deliveries",
          "fct_dock_events", "fct_planner_kpis", "fct_on_time_rate", "fct_linehaul_costs", "dim_carriers",
          "dim_customers", "dim_depots", "dim_calendar", "dim_trailers")
FOLDERS = {"stg": "staging", "int": "intermediate", "fct": "marts/planning", "dim": "marts/core"}
COLUMNS = ("shipment_id", "event_id", "event_ts", "loaded_at", "depot_id", "carrier_code", "status", "leg_no",
           "trailer_id", "customer_id", "planned_arrival", "actual_arrival", "route_id", "weight_kg", "pallets",
           "postcode", "country_code", "invoice_id", "amount_eur", "updated_at")
DAGS = ("carrier_events_ingest", "dbt_nightly_build", "planner_kpis_refresh", "eta_features_daily",
        "looker_pdt_trigger", "kafka_offsets_audit", "invoices_sftp_pull", "depots_snapshot")
TASKS = ("wait_for_landing", "copy_into_raw", "dbt_build_staging", "dbt_build_marts", "dbt_test", "ge_checkpoint",
         "refresh_pdts", "notify_slack", "export_parquet", "check_freshness")
RAW_TABLES = ("RAW.KAFKA.CARRIER_EVENTS", "RAW.KAFKA.GPS_PINGS", "RAW.KAFKA.SHIPMENTS_CDC", "RAW.SFTP.INVOICES",
              "ANALYTICS.MARTS.FCT_DELIVERIES", "ANALYTICS.MARTS.FCT_PLANNER_KPIS", "ANALYTICS.CORE.DIM_DEPOTS",
              "ANALYTICS.STAGING.STG_CARRIER_EVENTS", "ANALYTICS.INTERMEDIATE.INT_SHIPMENT_LEGS")
WAREHOUSES = ("WH_LOADING_XS", "WH_TRANSFORM_M", "WH_ANALYST_S", "WH_LOOKER_M")
TOPICS = ("carrier.events.raw", "gps.pings.raw", "shipments.cdc.v1", "depots.master.v2")
PEOPLE = ("Sanne", "Joost", "Priya", "Mehmet", "Fleur", "Daan", "Ruben", "Ilse", "Karim", "Noor", "Bram", "Yara")
DEPOTS = ("Venlo", "Tilburg", "Moerdijk", "Waalhaven", "Botlek", "Eemhaven", "Duisburg", "Antwerpen", "Zwijndrecht")
CARRIERS = ("DHLF", "DSVR", "KNAG", "RHNS", "GBTR", "VDLT", "BOLL", "NORS")
PY_FILES = ("scripts/reconcile_counts.py", "scripts/eta_features.py", "scripts/kafka_lag.py", "dags/utils/slack.py",
            "dags/utils/snowflake_hook.py", "scripts/export_planner_csv.py")
TF_FILES = ("terraform/snowflake/warehouses.tf", "terraform/snowflake/roles.tf", "terraform/snowflake/schemas.tf",
            "terraform/snowflake/grants.tf")

# reserved word pools that only planted values draw from
V_MODELS = ("fct_berth_windows", "int_customs_holds", "fct_yard_dwell", "int_reefer_alarms", "fct_gate_slots",
            "int_pod_latency", "fct_crane_moves", "int_tariff_bands", "fct_empty_runs", "int_border_delays",
            "fct_chassis_usage", "int_fuel_surcharge", "fct_lane_margins", "int_claim_events", "fct_cmr_scans",
            "int_dock_noshow", "fct_pallet_swaps", "int_temp_breaches", "fct_depot_backlog", "int_split_orders")
V_WORDS = ("RECON", "FORECAST", "BATCH", "PLANNING", "REPLAY", "BACKFILL", "AUDIT", "SANDBOX")
V_SIZES = ("XS", "S", "M", "L", "XL")
V_TOPIC = ("status", "milestones", "exceptions", "geofence", "handover", "customs")
V_STAGE = ("LINEHAUL", "TRACKING", "YARD", "BILLING", "CUSTOMS", "REEFER")
V_CHAN = ("yard", "tms", "linehaul", "nightshift", "berth", "reefer", "customs", "gate")
V_HANDLES = ("m.verhoeven", "a.kuipers", "t.smits", "l.jansen", "r.dekker", "e.bosman", "j.vos", "h.meijer",
             "s.peeters", "d.mulder", "k.hendriks", "b.visser")
V_VIEWS = ("CUSTOMER_CONTACTS", "DRIVER_PHONES", "CONSIGNEE_ADDRESSES", "RECIPIENT_EMAILS", "DRIVER_IDS",
           "SHIPPER_CONTACTS")
V_COLS = ("eta_promised", "eta_committed", "pod_signed", "gate_in", "berth_booked", "eta_quoted", "pod_scanned",
          "gate_out")
WORK = ("Venlo dwell-time", "ETA v2", "invoice dedup", "planner KPI split", "reefer", "customs", "linehaul cost",
        "dock no-show", "Moerdijk yard", "Antwerpen feed", "depot calendar", "trailer tracking", "on-time rate",
        "carrier scorecard", "GPS pings", "CMR scans", "fuel surcharge", "returns flow")
WORK_PHASES = ("", " rollout", " backfill", " hotfix", " cleanup", " audit", " migration", " rework", " follow-up",
               " retry", " pilot", " redo")
DAYS = ("maandag", "dinsdag", "woensdag", "donderdag")
EN_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday")


def per_kind(messages: int) -> int:
    """Facts of each kind in a session of ``messages``: 1 at 60, 6 at 400, 12 at 3000, linear in between."""
    if messages <= 400:
        return max(1, round(1 + 5 * (messages - 60) / 340))
    return round(6 + 6 * (messages - 400) / 2600)


def make_session(seed: int = 1, messages: int = 400) -> Session:
    """A data-engineering session of exactly ``messages`` messages with its planted facts and pasted texts."""
    if messages < MIN_MESSAGES:
        raise ValueError(f"a {NAME} session needs at least {MIN_MESSAGES} messages, not {messages}")
    return _Builder(seed, messages).build()


# --- small helpers -----------------------------------------------------------------------------------------------


def _hex(rng: random.Random, n: int) -> str:
    return "%0*x" % (n, rng.getrandbits(4 * n))


def _clock(rng: random.Random) -> str:
    return f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}"


def _hm(rng: random.Random) -> str:
    return f"{rng.randint(6, 22):02d}:{rng.choice((0, 5, 10, 15, 20, 30, 35, 40, 45, 50, 55)):02d}"


def _model_path(model: str) -> str:
    return f"models/{FOLDERS[model[:3]]}/{model}.sql"


def _date(rng: random.Random) -> str:
    return f"2024-{rng.randint(3, 6):02d}-{rng.randint(1, 28):02d}"


def _call(cid: str, name: str, args: dict[str, Any]) -> dict[str, Any]:
    return {"id": cid, "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}


def _fill(lines: list[str], budget: int, more: Callable[[], str]) -> None:
    """Append ``more()`` lines until the lines hold ``budget`` characters."""
    size = sum(len(x) + 1 for x in lines)
    while size < budget:
        line = more()
        lines.append(line)
        size += len(line) + 1


# --- tool outputs (filler) ---------------------------------------------------------------------------------------


def _dbt_log(rng: random.Random, budget: int, cmd: str, insert: list[str] | None = None,
             finish: str | None = None) -> str:
    total = rng.randint(40, 260)
    start = (rng.randint(1, 5), rng.randint(0, 59))
    t0 = f"0{start[0]}:{start[1]:02d}:0{rng.randint(0, 9)}"
    lines = [f"{t0}  Running with dbt=1.7.{rng.randint(3, 9)}",
             f"{t0}  Registered adapter: snowflake=1.7.{rng.randint(1, 3)}",
             f"{t0}  Found {rng.randint(180, 240)} models, {rng.randint(800, 1200)} tests, "
             f"{rng.randint(4, 12)} snapshots, 0 analyses, {rng.randint(700, 900)} macros, 0 operations, "
             f"{rng.randint(6, 14)} seed files, {rng.randint(40, 70)} sources, 2 exposures, 0 metrics",
             f"{t0}",
             f"{t0}  Concurrency: 8 threads (target='{rng.choice(['dev', 'ci', 'prod'])}')",
             f"{t0}"]
    i = [0]
    verb = cmd.split()[0] if cmd else "build"

    def more() -> str:
        i[0] += 1
        k = min(i[0], total)
        sec = 4 * i[0]
        ts = f"{(start[0] + (start[1] + sec // 60) // 60) % 24:02d}:{(start[1] + sec // 60) % 60:02d}:{sec % 60:02d}"
        model = rng.choice(MODELS)
        r = rng.random()
        if verb in ("test",) or r < 0.35:
            col = rng.choice(COLUMNS)
            test = rng.choice(("not_null", "unique", "relationships", "accepted_values"))
            return (f"{ts}  {k} of {total} PASS {test}_{model}_{col} {'.' * rng.randint(8, 30)} "
                    f"[PASS in {rng.uniform(0.4, 9):.2f}s]")
        if r < 0.6:
            return f"{ts}  {k} of {total} START sql {rng.choice(['table', 'view', 'incremental'])} model " \
                   f"analytics.{model} {'.' * rng.randint(8, 30)} [RUN]"
        if r < 0.97:
            kind = rng.choice(["table", "view", "incremental"])
            what = "SUCCESS 1" if kind != "incremental" else f"SUCCESS {rng.randint(100, 990000)}"
            return (f"{ts}  {k} of {total} OK created sql {kind} model analytics.{model} "
                    f"{'.' * rng.randint(8, 30)} [{what} in {rng.uniform(0.5, 95):.2f}s]")
        return f"{ts}  {k} of {total} WARN 1 dbt_utils_recency_{model}_loaded_at {'.' * 12} [WARN 1 in 1.{rng.randint(10, 99)}s]"

    _fill(lines, budget - 400, more)
    if insert:
        at = rng.randint(6, max(6, len(lines) - 1))
        lines[at:at] = insert
    lines.append("")
    lines.append(finish or f"{_clock(rng)}  Finished running {total} table models, tests in 0 hours "
                           f"{rng.randint(1, 14)} minutes and {rng.uniform(1, 59):.2f} seconds "
                           f"({rng.uniform(70, 890):.2f}s).")
    errors = 1 if insert else 0
    lines.append(f"{_clock(rng)}  Completed {'with 1 error and 0 warnings' if errors else 'successfully'}:")
    lines.append(f"{_clock(rng)}  Done. PASS={total - errors} WARN={rng.randint(0, 3)} ERROR={errors} SKIP=0 "
                 f"TOTAL={total}")
    return "\n".join(lines)


def _table(rng: random.Random, budget: int, cols: list[str], cell: Callable[[str], str],
           extra: list[str] | None = None) -> str:
    widths = [max(len(c), 14) for c in cols]
    sep = "+" + "+".join("-" * (w + 2) for w in widths) + "+"
    lines = [sep, "| " + " | ".join(c.upper().ljust(w) for c, w in zip(cols, widths)) + " |", sep]
    rows = [0]

    def more() -> str:
        rows[0] += 1
        return "| " + " | ".join(cell(c)[:w].ljust(w) for c, w in zip(cols, widths)) + " |"

    _fill(lines, budget - 120, more)
    if extra:
        at = rng.randint(3, len(lines))
        lines[at:at] = extra
        rows[0] += len(extra)
    lines.append(sep)
    lines.append(f"{rows[0]} Row(s) produced. Time Elapsed: {rng.uniform(0.2, 40):.3f}s")
    return "\n".join(lines)


def _cell(rng: random.Random) -> Callable[[str], str]:
    def cell(col: str) -> str:
        if col.endswith("_id"):
            return f"{col[:2].upper()}{rng.randint(1000000, 9999999)}"
        if col.endswith(("_ts", "_at", "arrival")):
            return f"{_date(rng)} {_clock(rng)}.{rng.randint(0, 999):03d}"
        if col in ("depot_id", "depot"):
            return rng.choice(DEPOTS)
        if col == "carrier_code":
            return rng.choice(CARRIERS)
        if col == "status":
            return rng.choice(("DELIVERED", "IN_TRANSIT", "AT_DEPOT", "EXCEPTION", "PLANNED"))
        if col in ("weight_kg", "amount_eur"):
            return f"{rng.uniform(10, 24000):.2f}"
        if col == "warehouse":
            return rng.choice(WAREHOUSES)
        if col == "query_text":
            return rng.choice(("select * from analytics.marts", "merge into analytics.intermediate", "copy into raw.kafka",
                               "create or replace transient table", "insert into analytics.staging"))
        return str(rng.randint(0, 99999))
    return cell


def _snowsql_out(rng: random.Random, budget: int, extra: list[str] | None = None) -> str:
    kind = rng.random()
    if kind < 0.25:
        cols = ["query_id", "warehouse", "query_text", "elapsed_ms", "rows_produced", "start_ts"]
        cell = _cell(rng)

        def qcell(c: str) -> str:
            if c == "query_id":
                return f"01b{_hex(rng, 5)}-0602-{_hex(rng, 4)}"
            return cell(c)
        return _table(rng, budget, cols, qcell, extra)
    cols = rng.sample(COLUMNS, rng.randint(4, 7))
    return _table(rng, budget, cols, _cell(rng), extra)


def _airflow_log(rng: random.Random, budget: int, dag: str, task: str, insert: list[str] | None = None) -> str:
    day = _date(rng)
    h, m = rng.randint(0, 5), rng.randint(0, 59)
    host = f"ip-10-{rng.randint(10, 40)}-{rng.randint(0, 9)}-{rng.randint(2, 250)}.eu-west-1.compute.internal"
    lines = ["*** Found local files:", f"***   * /opt/airflow/logs/dag_id={dag}/run_id=scheduled__{day}T0{h}:00:00+00:00/"
             f"task_id={task}/attempt={rng.randint(1, 3)}.log",
             f"[{day}, 0{h}:{m:02d}:0{rng.randint(0, 9)} UTC] {{taskinstance.py:1157}} INFO - Dependencies all met for "
             f"<TaskInstance: {dag}.{task} scheduled__{day}T0{h}:00:00+00:00 [queued]>",
             f"[{day}, 0{h}:{m:02d}:1{rng.randint(0, 9)} UTC] {{standard_task_runner.py:57}} INFO - Started process "
             f"{rng.randint(1000, 99999)} to run task",
             f"[{day}, 0{h}:{m:02d}:1{rng.randint(0, 9)} UTC] {{task_command.py:410}} INFO - Running <TaskInstance: "
             f"{dag}.{task}> on host {host}"]
    sec = [0]
    msgs = (lambda: f"{{sensor.py:233}} INFO - Poking for key s3://rtm-landing-prod/{rng.choice(TOPICS)}/"
                    f"dt={day}/part-{rng.randint(0, 99):05d}.json.gz",
            lambda: f"{{cursor.py:{rng.choice((804, 1028, 1160))}}} INFO - query: [COPY INTO {rng.choice(RAW_TABLES)} "
                    f"FROM @RAW.KAFKA.S3_LANDING FILE_FORMAT = (TYPE = JSON)...]",
            lambda: "{cursor.py:1041} INFO - query execution done",
            lambda: f"{{snowflake.py:{rng.choice((322, 390))}}} INFO - Rows affected: {rng.randint(0, 4000000)}",
            lambda: f"{{subprocess.py:93}} INFO - {rng.choice(MODELS)} ... OK created sql table model in "
                    f"{rng.uniform(0.4, 60):.2f}s",
            lambda: f"{{connection.py:{rng.choice((285, 410))}}} INFO - Snowflake Connector for Python Version: 3.6.0, "
                    f"Python Version: 3.11.7, Platform: Linux-5.10.205-x86_64-with-glibc2.36",
            lambda: f"{{logging_mixin.py:188}} WARNING - /home/airflow/.local/lib/python3.11/site-packages/"
                    f"snowflake/connector/options.py:{rng.randint(90, 140)} UserWarning: You have an incompatible "
                    f"version of 'pyarrow' installed (14.0.2)",
            lambda: f"{{base.py:{rng.choice((73, 83))}}} INFO - Using connection ID 'snowflake_default' for task "
                    f"execution.",
            lambda: f"{{taskinstance.py:1400}} INFO - Marking task as SUCCESS. dag_id={dag}, task_id={task}, "
                    f"execution_date={day.replace('-', '')}T0{h}0000, start_date={day.replace('-', '')}T0{h}{m:02d}00",
            lambda: "{local_task_job_runner.py:228} INFO - Task exited with return code 0")

    def more() -> str:
        sec[0] += rng.randint(1, 40)
        mm, ss = (m + sec[0] // 60) % 60, sec[0] % 60
        return f"[{day}, 0{h}:{mm:02d}:{ss:02d} UTC] " + rng.choice(msgs)()

    _fill(lines, budget, more)
    if insert:
        at = rng.randint(5, len(lines))
        lines[at:at] = insert
    return "\n".join(lines)


def _pytest_out(rng: random.Random, budget: int, target: str, failed: list[str] | None = None) -> str:
    lines = ["============================= test session starts ==============================",
             "platform linux -- Python 3.11.7, pytest-8.1.1, pluggy-1.4.0",
             f"rootdir: /home/{rng.choice(PEOPLE).lower()}/src/rtm-analytics",
             "plugins: mock-3.12.0, cov-4.1.0, xdist-3.5.0",
             f"collected {rng.randint(40, 400)} items", ""]
    names = ("eta_features", "reconcile_counts", "kafka_lag", "planner_export", "depot_calendar", "dwell_time")

    def more() -> str:
        f = rng.choice(names)
        return f"tests/test_{f}.py::test_{rng.choice(COLUMNS)}_{rng.choice(('handles_nulls', 'is_monotonic', 'roundtrip', 'dst_switch', 'dedup', 'empty_frame'))} PASSED [{rng.randint(1, 99):3d}%]"

    _fill(lines, budget - 300, more)
    passed = len(lines) - 6
    if failed:
        lines += ["", "=================================== FAILURES ===================================",
                  f"_______________________ {target} _______________________", "", "    def test_case(frame):",
                  ">       assert result == expected", "E       AssertionError", "",
                  f"{target}:{rng.randint(20, 300)}: AssertionError",
                  "=========================== short test summary info ============================"]
        lines += failed
        lines.append(f"========================= {len(failed)} failed, {passed} passed in {rng.uniform(2, 90):.2f}s "
                     f"=========================")
    else:
        lines.append(f"============================== {passed} passed in {rng.uniform(2, 90):.2f}s "
                     f"===============================")
    return "\n".join(lines)


def _terraform_out(rng: random.Random, budget: int, insert: list[str] | None = None) -> str:
    lines = ["snowflake_database.analytics: Refreshing state... [id=ANALYTICS]",
             "snowflake_role.transformer: Refreshing state... [id=TRANSFORMER]"]
    objs = (("snowflake_warehouse", WAREHOUSES), ("snowflake_schema", ("STAGING", "INTERMEDIATE", "MARTS", "CORE")),
            ("snowflake_role_grants", ("LOOKER_READER", "TRANSFORMER", "LOADER")))

    def more() -> str:
        res, names = rng.choice(objs)
        nm = rng.choice(names)
        r = rng.random()
        if r < 0.6:
            return f"{res}.{nm.lower()}: Refreshing state... [id={nm}]"
        if r < 0.8:
            return f"      ~ comment = \"managed by terraform\" -> \"{rng.choice(PEOPLE)}: {rng.choice(MODELS)}\""
        return f"  # {res}.{nm.lower()} will be updated in-place\n  ~ resource \"{res}\" \"{nm.lower()}\" {{\n" \
               f"        id   = \"{nm}\"\n        name = \"{nm}\"\n      ~ auto_suspend = 60 -> 60\n    }}"

    _fill(lines, budget - 100, more)
    if insert:
        lines += [""] + insert
    else:
        lines.append(f"\nPlan: 0 to add, {rng.randint(0, 6)} to change, 0 to destroy.")
    return "\n".join(lines)


def _kafka_out(rng: random.Random, budget: int, extra: list[str] | None = None) -> str:
    group = rng.choice(("snowpipe-raw-loader", "eta-features-consumer", "dbt-raw-loader"))
    lines = ["GROUP                 TOPIC                PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG   CONSUMER-ID"]

    def more() -> str:
        cur = rng.randint(10_000_000, 60_000_000)
        lag = rng.randint(0, 900)
        return (f"{group:<21} {rng.choice(TOPICS):<20} {rng.randint(0, 23):<10} {cur:<15} {cur + lag:<15} {lag:<5} "
                f"consumer-{rng.randint(1, 9)}-{_hex(rng, 8)}")

    _fill(lines, budget, more)
    if extra:
        lines += extra
    return "\n".join(lines)


def _ge_out(rng: random.Random, budget: int, insert: list[str] | None = None) -> str:
    lines = [f"Running checkpoint '{rng.choice(('raw_carrier_events', 'marts_planner', 'staging_shipments'))}'...",
             f"Calculating Metrics: 100%|██████████| 38/38 [00:0{rng.randint(1, 9)}<00:00, 14.2it/s]"]

    def more() -> str:
        col = rng.choice(COLUMNS)
        exp = rng.choice(("expect_column_values_to_not_be_null", "expect_column_values_to_be_unique",
                          "expect_column_values_to_be_between", "expect_table_row_count_to_be_between"))
        return json.dumps({"expectation_type": exp, "kwargs": {"column": col}, "success": True,
                           "result": {"element_count": rng.randint(1000, 9000000), "unexpected_count": 0,
                                      "unexpected_percent": 0.0}})

    _fill(lines, budget - 80, more)
    if insert:
        lines[2:2] = insert
    lines.append(f"Validation {'failed' if insert else 'succeeded'}: {rng.randint(20, 60)} expectations evaluated.")
    return "\n".join(lines)


def _script_out(rng: random.Random, budget: int, insert: list[str] | None = None) -> str:
    lines = [f"{_date(rng)} {_clock(rng)},{rng.randint(100, 999)} INFO reading {rng.choice(RAW_TABLES)}"]

    def more() -> str:
        r = rng.random()
        if r < 0.5:
            return (f"{_date(rng)} {_clock(rng)},{rng.randint(100, 999)} INFO {rng.choice(DEPOTS):<10} "
                    f"rows={rng.randint(100, 900000):>7} dupes={rng.randint(0, 40):>3} "
                    f"late={rng.uniform(0, 12):.2f}%")
        if r < 0.8:
            return (f"   {rng.randint(0, 99999):>6}  {rng.choice(CARRIERS)}  {rng.choice(DEPOTS):<10}  "
                    f"{_date(rng)}  {rng.uniform(0, 48):6.2f}  {rng.choice(('True', 'False'))}")
        return f"{_date(rng)} {_clock(rng)},{rng.randint(100, 999)} DEBUG chunk {rng.randint(1, 500)} done"

    _fill(lines, budget, more)
    if insert:
        at = rng.randint(1, len(lines))
        lines[at:at] = insert
    return "\n".join(lines)


def _sql_file(rng: random.Random, model: str, budget: int) -> str:
    cols = rng.sample(COLUMNS, 8)
    src = rng.choice(MODELS)
    lines = ["{{", "  config(", f"    materialized='{rng.choice(['incremental', 'table', 'view'])}',",
             f"    unique_key='{cols[0]}',", "    on_schema_change='append_new_columns'", "  )", "}}", "",
             "with source as (", f"    select * from {{{{ ref('{src}') }}}}", "    {% if is_incremental() %}",
             "    where loaded_at > (select max(loaded_at) from {{ this }})", "    {% endif %}", "),", "",
             "renamed as (", "    select"]

    def more() -> str:
        c = rng.choice(COLUMNS)
        r = rng.random()
        if r < 0.5:
            return f"        {c},"
        if r < 0.75:
            return f"        convert_timezone('UTC', 'Europe/Amsterdam', {c}) as {c}_local,"
        if r < 0.9:
            return f"        -- {rng.choice(PEOPLE)}: {rng.choice(('see', 'zie'))} {rng.choice(PY_FILES)}:{rng.randint(10, 400)}"
        return f"        coalesce({c}, '{rng.choice(CARRIERS)}') as {c}_clean,"

    _fill(lines, budget - 120, more)
    lines += ["        current_timestamp() as dbt_loaded_at", "    from source", ")", "",
              "select * from renamed", f"qualify row_number() over (partition by {cols[0]} order by loaded_at desc) = 1"]
    return "\n".join(lines)


def _yaml_file(rng: random.Random, budget: int) -> str:
    lines = ["version: 2", "", "models:"]

    def more() -> str:
        m = rng.choice(MODELS)
        c = rng.choice(COLUMNS)
        return (f"  - name: {m}\n    description: \"{rng.choice(('Planner view of', 'One row per', 'Deduplicated'))} "
                f"{rng.choice(COLUMNS)}\"\n    columns:\n      - name: {c}\n        tests:\n          - not_null\n"
                f"          - {rng.choice(('unique', 'relationships: {to: ref(' + repr(rng.choice(MODELS)) + '), field: ' + c + '}'))}")

    _fill(lines, budget, more)
    return "\n".join(lines)


def _dag_file(rng: random.Random, dag: str, budget: int) -> str:
    lines = ["from datetime import datetime, timedelta", "", "from airflow import DAG",
             "from airflow.providers.snowflake.operators.snowflake import SnowflakeOperator",
             "from airflow.providers.amazon.aws.sensors.s3 import S3KeySensor", "from utils.slack import on_failure", "",
             "default_args = {", f"    \"owner\": \"{rng.choice(PEOPLE).lower()}\",",
             f"    \"retries\": {rng.randint(1, 4)},", f"    \"retry_delay\": timedelta(minutes={rng.choice((5, 10, 15))}),",
             "    \"on_failure_callback\": on_failure,", "}", "", "with DAG(", f"    dag_id=\"{dag}\",",
             f"    schedule=\"{rng.choice(('@daily', '@hourly', None))}\",", "    start_date=datetime(2023, 11, 1),",
             "    catchup=False,", f"    dagrun_timeout=timedelta(hours={rng.randint(1, 6)}),",
             "    default_args=default_args,", ") as dag:"]

    def more() -> str:
        t = rng.choice(TASKS)
        return (f"    {t} = SnowflakeOperator(\n        task_id=\"{t}\",\n        sql=\"sql/{t}.sql\",\n"
                f"        warehouse=\"{rng.choice(WAREHOUSES)}\",\n        pool=\"snowflake_default\",\n    )")

    _fill(lines, budget, more)
    lines.append(f"    {rng.choice(TASKS)} >> {rng.choice(TASKS)} >> {rng.choice(TASKS)}")
    return "\n".join(lines)


def _diff_out(rng: random.Random, budget: int) -> str:
    lines: list[str] = []

    def more() -> str:
        m = rng.choice(MODELS)
        a = rng.randint(1, 200)
        body = [f"diff --git a/{_model_path(m)} b/{_model_path(m)}", f"index {_hex(rng, 7)}..{_hex(rng, 7)} 100644",
                f"--- a/{_model_path(m)}", f"+++ b/{_model_path(m)}", f"@@ -{a},7 +{a},8 @@ renamed as ("]
        for _ in range(rng.randint(3, 9)):
            c = rng.choice(COLUMNS)
            body.append(rng.choice((f"         {c},", f"-        {c},", f"+        {c}::timestamp_ntz as {c},",
                                    f"+        -- TODO({rng.choice(PEOPLE).lower()}): DST",
                                    f"         coalesce({c}, 0) as {c},")))
        return "\n".join(body)

    _fill(lines, budget, more)
    return "\n".join(lines)


def _gitlog_out(rng: random.Random, budget: int) -> str:
    lines: list[str] = []
    subjects = ("fix dedup on event_id", "add freshness check for gps pings", "bump dbt-utils", "planner kpis: split by depot",
                "revert timezone change", "terraform: grant looker reader", "eta features: drop null legs",
                "wip", "review comments", "ci: cache dbt deps")

    def more() -> str:
        who = rng.choice(PEOPLE)
        return (f"commit {_hex(rng, 40)}\nAuthor: {who} <{who.lower()}@rtm-logistics.nl>\n"
                f"Date:   {rng.choice(('Mon', 'Tue', 'Wed', 'Thu', 'Fri'))} {_date(rng)} {_clock(rng)} +0200\n\n"
                f"    {rng.choice(subjects)}\n")

    _fill(lines, budget, more)
    return "\n".join(lines)


# --- conversation filler -----------------------------------------------------------------------------------------

USER_SHORT = ("ok", "go", "doe maar", "top", "klopt", "ja", "prima, ga door", "sure", "yes pls", "ok, next", "idd",
              "ok thx, volgende", "kun je de lgos nog checken", "hmm raar. ga door", "wacht even... ok ga maar",
              "even checken... ja klopt", "👍", "nice", "hmm ok", "laat maar, ga verder", "fine", "goed zo")
USER_ASK = (
    "kun je even checken waarom {dag} vannacht zo lang liep? {person} zegt dat het dashboard om {hm} nog leeg was",
    "Can you look at {model}? the row count dropped since yesterday, around {n} rows fewer",
    "wat doet {model} eigenlijk met late events? ik zie in {file}:{line} iets raars",
    "the planners are asking about {depot} again, can you check the last loads in {table}?",
    "draai even de tests voor {model}",
    "waarom faalt {dag} nou weer, de retrys lopen vast op {task}",
    "can u check {model} agian, I think the counts are of by a few",
    "Check query history for {wh}, I think something is hogging it since {hm}",
    "hoe staat de lag op {topic}? {person} had het erover in de standup",
    "pull the latest airflow logs for {dag}.{task}, it retried {k} times",
    "kun je de terraform plan even draaien, ik wil zien wat er verandert aan de grants",
    "look at the diff before we push, I don't trust the {model} change",
    "{person} vraagt of de KPIs voor {depot} kloppen, kun je dat narekenen?",
    "what's in {file}? I forgot how we did the dedup",
    "Great Expectations checkpoint for {model} please",
    "zet even een todo lijstje neer met wat er nog open staat",
    "ok, en nu {model} bouwen tegen dev",
    "is port {port} the right one for the local airflow webserver? whatever, just check the dag runs",
    "kun je {model} ook even in snowflake bekijken, top 20 op {col}?",
    "{person} pinged me at {hm}: \"the ETA board shows yesterday again\". can you see why?",
)
USER_FILLER_BLOCKS = (
    "Context: we zitten nog in de migratie van de oude cron-jobs naar Airflow, dus niet alles is netjes.",
    "Background: the planners open the Looker board around {hm} every morning, so it must be fresh by then.",
    "Btw {person} is op vakantie tot volgende week, dus vragen over de Kafka connector gaan naar {person2}.",
    "fyi the CI run on my branch took {n} minutes, way too long.",
    "Ik heb net koffie gehaald, {person} zat te klagen over de {depot} cijfers.",
)
SAY = (
    "Done. {model} built in {sec:.1f}s and all {k} tests passed; the incremental picked up {n} new rows.",
    "The run looks healthy. Wall time was {sec:.0f}s, about {pct}% faster than yesterday, mostly because {wh} "
    "was no longer queued behind the Looker PDT refresh.",
    "Klaar. {k} modellen gebouwd, geen errors; {n} rijen in {model}. Zal ik ook de marts draaien?",
    "Here's what I see in `{file}:{line}`: the dedup keeps the latest event per `{col}`, which is fine for "
    "{depot} but drops corrections that arrive out of order.\n\nOptions:\n1. keep as is\n2. dedup on "
    "(`{col}`, `loaded_at`)\n3. move the dedup to staging\n\nI'd go with 2, but it's your call.",
    "Summary so far:\n- {dag} failed at {hm} on `{task}`, the retry at {hm2} passed\n- {model}: {n} rows, "
    "no duplicates on `{col}`\n- {wh} peaked at {k} queued queries",
    "I checked {table}. The last load was at {hm}; {n} rows since then, {pct}% of them from {carrier}.",
    "Todo:\n- [x] check {dag} logs\n- [x] rebuild {model}\n- [ ] ask {person} about the {depot} feed\n"
    "- [ ] GE checkpoint for marts\n- [ ] update the runbook",
    "Het verschil zit in de timezone: {model} rekent in UTC, de Looker tile in Europe/Amsterdam. Rond "
    "{hm} scheelt dat precies een uur, dus {n} shipments vallen op de verkeerde dag.",
    "Nothing alarming. The lag on {topic} is under {k} messages per partition and the consumer is keeping up.",
    "The diff touches {k} models. Two of them only rename columns; the third changes the join in `{file}:{line}` "
    "and that one changes row counts ({n} fewer rows in dev).",
    "Terraform wants to change {k} grants and nothing else, all on `LOOKER_READER`. Safe to apply if you agree.",
    "Quick note: `{model}` has `on_schema_change='append_new_columns'`, so the new column won't backfill. "
    "We'd need a `--full-refresh` for that, which takes about {sec:.0f}s on {wh}.",
    "Yes, that's port {port}; the dag runs are fine, last {k} all green.",
    "```json\n{{\"model\": \"{model}\", \"rows\": {n}, \"status\": \"success\", \"elapsed_s\": {sec:.1f}}}\n```\n"
    "That's the run result; I'll keep an eye on the next scheduled run at {hm}.",
)
AFTER_ACK = ("Want me to dig into it now?", "Shall I go on with the rest?", "I'll keep that in mind for the "
             "next steps.", "Zal ik verder gaan?", "Next I'd look at the upstream models, unless you want something else.",
             "Let me know if that's not what you meant.")
OPENERS = ("Goedemorgen! Vandaag wil ik de ETA pipeline voor de planners stabiel krijgen, er ging vannacht weer van alles "
           "mis. Begin maar met de runs van {dag}.",
           "morning. planners are complaining about the board again ({depot}). can you start with the last {dag} runs?",
           "Hoi, we gaan vandaag verder met de migratie van de planner KPIs. Kijk eerst even naar {model}.")
CALL_INTRO = ("Checking the last runs first.", "Let me look at the logs.", "Even kijken.", "", "",
              "I'll build it against dev.", "Pulling the query history.", "Reading the model first.",
              "Running the tests.", "Let me check the diff.", "Kijk ik even na.", "Looking at {model}.",
              "One moment, checking {dag}.", "Next: {model}.", "Querying {table}.")


def _fmt(rng: random.Random, template: str) -> str:
    model = rng.choice(MODELS)
    return template.format(
        dag=rng.choice(DAGS), task=rng.choice(TASKS), model=model, person=rng.choice(PEOPLE),
        person2=rng.choice(PEOPLE), hm=_hm(rng), hm2=_hm(rng), n=rng.randint(12, 98000), depot=rng.choice(DEPOTS),
        table=rng.choice(RAW_TABLES), wh=rng.choice(WAREHOUSES), topic=rng.choice(TOPICS), k=rng.randint(2, 14),
        file=rng.choice((_model_path(model),) + PY_FILES), line=rng.randint(12, 480), col=rng.choice(COLUMNS),
        port=rng.choice((8080, 5432, 9092, 8793, 6379)), sec=rng.uniform(2, 900), pct=rng.randint(3, 60),
        carrier=rng.choice(CARRIERS))


# --- pasted documents ---------------------------------------------------------------------------------------------

def _paste_contract(rng: random.Random) -> str:
    v = f"{rng.randint(2, 4)}.{rng.randint(0, 9)}"
    return (f"DATA CONTRACT carrier-events v{v} (ref CEV-{rng.randint(100, 999)})\n"
            f"Producer: carrier-events team (owner {rng.choice(PEOPLE)})   Consumer: analytics platform\n\n"
            "1. Scope\n   Topic carrier.events.raw, Avro schema registered under subject carrier.events.raw-value.\n"
            "2. Obligations of the consumer\n"
            "   - Consumers MUST NOT depend on field order or on fields marked experimental.\n"
            f"   - Do not re-read more than {rng.randint(2, 7)} days of history without notice to the producer.\n"
            "   - Please acknowledge schema-change announcements within 2 working days.\n"
            "3. Obligations of the producer\n"
            f"   - {rng.choice(('99.5', '99.0', '99.9'))}% of events are published within {rng.randint(5, 20)} "
            "minutes of the scan.\n"
            f"   - Retention on the topic is {rng.randint(3, 14)} days; partitions: {rng.choice((12, 24, 36))}.\n"
            "   - Breaking changes are announced 10 working days ahead in #carrier-events.\n"
            "4. Escalation\n"
            f"   Call the on-call at +31 10 {rng.randint(100, 999)} {rng.randint(1000, 9999)} between 07:00 and 19:00. "
            "Never page outside these hours for lag alone.")


def _paste_slack(rng: random.Random) -> str:
    a, b, c = rng.sample(PEOPLE, 3)
    depot = rng.choice(DEPOTS)
    return (f"[{_hm(rng)}] {a} (planning): het ETA board voor {depot} toont weer lege regels :(\n"
            f"[{_hm(rng)}] {b}: same here, {rng.randint(12, 90)} shipments without ETA since this morning\n"
            f"[{_hm(rng)}] {c}: please don't refresh the PDT manually again, it locks the warehouse for everyone\n"
            f"[{_hm(rng)}] {a}: ok but then fix it before {_hm(rng)}, we plan the evening run at that time\n"
            f"[{_hm(rng)}] {b}: can someone from data check dashboard 'Planner ETA' tile 4? it says "
            f"{rng.randint(100, 999)} open legs\n"
            f"[{_hm(rng)}] {c}: Do not export to Excel until it's fixed, the numbers are wrong")


def _paste_postmortem(rng: random.Random) -> str:
    day = _date(rng)
    return (f"Postmortem PM-{rng.randint(100, 999)}: planner KPIs late on {day}\n"
            "Severity: SEV-3   Status: action items open\n\nTimeline (CET)\n"
            f"  03:{rng.randint(10, 40)}  dbt_nightly_build starts, queued on WH_TRANSFORM_M\n"
            f"  04:{rng.randint(10, 55)}  copy_into_raw fails: S3 prefix missing for {rng.choice(TOPICS)}\n"
            f"  06:{rng.randint(10, 55)}  planners report empty board\n"
            f"  07:{rng.randint(10, 55)}  manual rerun, board fresh at 08:{rng.randint(10, 55)}\n\n"
            f"Impact: {rng.randint(3, 9)} depots planned on stale ETAs for ~{rng.randint(2, 4)} hours.\n"
            "Root cause: the landing sensor had a timeout shorter than the producer's publication delay.\n\n"
            "Action items\n"
            f"  - Add a freshness check on raw carrier events (owner {rng.choice(PEOPLE)})\n"
            "  - Do not rerun the full nightly build during planner hours; rerun only the failed selection.\n"
            "  - Please page the data on-call before 06:00 if the board is not fresh.")


def _paste_sla(rng: random.Random) -> str:
    case = rng.randint(1_000_000, 9_999_999)
    return (f"From: support@fivetrail.io\nSubject: RE: Case #{case} - connector delays eu-west-1\n\n"
            f"Hi {rng.choice(PEOPLE)},\n\nThank you for reaching out. We confirm a degradation of our EU connector "
            f"fleet between {_hm(rng)} and {_hm(rng)} UTC. Your plan (Business) includes a 99.{rng.randint(5, 9)}% "
            f"monthly availability SLA; this month's measured availability is 99.{rng.randint(0, 4)}%, so you are "
            f"eligible for a service credit of {rng.randint(5, 15)}%.\n\n"
            "Please reboot the connector from the dashboard if the sync stays paused after the fix.\n"
            "Please do not open duplicate cases for the same incident; reply to this thread instead.\n"
            "Do not change the replication slot settings while we investigate.\n\n"
            "Kind regards,\nMarta\nFivetrail Support (Tier 2)")


def _paste_ci(rng: random.Random) -> str:
    model = rng.choice(MODELS)
    return (f"CI / dbt-build (pull_request) failed after {rng.randint(4, 30)}m{rng.randint(0, 59)}s\n"
            f"{_clock(rng)}  Running with dbt=1.7.{rng.randint(3, 9)}\n"
            f"{_clock(rng)}  1 of {rng.randint(40, 90)} START sql view model ci_pr.{model} ........ [RUN]\n"
            f"{_clock(rng)}  1 of 57 ERROR creating sql view model ci_pr.{model} ........ [ERROR in 0.{rng.randint(10, 99)}s]\n"
            f"{_clock(rng)}  Database Error in model {model} (models/{FOLDERS[model[:3]]}/{model}.sql)\n"
            f"{_clock(rng)}    002003 (42S02): SQL compilation error:\n"
            f"{_clock(rng)}    Object 'CI_PR.{rng.choice(MODELS).upper()}' does not exist or not authorized.\n"
            f"{_clock(rng)}  Done. PASS={rng.randint(20, 50)} WARN=0 ERROR=1 SKIP={rng.randint(1, 9)} TOTAL=57\n"
            "bot: Do not merge: required check dbt-build is failing.\n"
            "bot: Run `dbt deps` locally and rebase on main before re-requesting review.")


def _paste_security(rng: random.Random) -> str:
    return (f"From: {rng.choice(('Annelies', 'Willem', 'Femke'))} (Security Officer)\nRe: PII in the warehouse, "
            f"ref SEC-{rng.randint(1000, 9999)}\n\n"
            f"During the quarterly review we found {rng.randint(3, 40)} tables in dev schemas with customer phone "
            "numbers and e-mail addresses in clear text.\n"
            "- Do not copy production PII into dev or sandbox schemas.\n"
            f"- Please apply masking policies to all contact columns by {_date(rng)}.\n"
            "- Access to unmasked data must be requested through the access portal and is reviewed every 90 days.\n"
            "- Never share extracts with PII over Slack or mail.\n"
            "Thanks for your cooperation.")


PASTES: dict[str, Callable[[random.Random], str]] = {
    "contract": _paste_contract, "slack": _paste_slack, "postmortem": _paste_postmortem, "sla": _paste_sla,
    "ci": _paste_ci, "security": _paste_security}
PASTE_INTROS = {
    "contract": ("Dit is het contract met het carrier-events team, even ter info:", "here's the data contract:"),
    "slack": ("kijk, uit #planning-ops:", "Planners are complaining again, this is the thread:"),
    "postmortem": ("De postmortem van vorige week:", "postmortem from the incident, for context:"),
    "sla": ("reply van de vendor:", "Got this from Fivetrail support:"),
    "ci": ("CI faalt op mijn branch:", "this is what CI says on my PR:"),
    "security": ("Mail van security, lees even mee:", "note from the security officer:"),
}
PASTE_OUTROS = ("wat denk jij?", "Just so you know.", "even ter info, geen actie nu.", "thoughts?",
                "niks mee doen voor nu", "let's keep this in mind")


# --- planted values ----------------------------------------------------------------------------------------------


class _Builder:
    def __init__(self, seed: int, n: int) -> None:
        self.rng = random.Random(seed)
        self.seed = seed
        self.n = n
        self.pk = per_kind(n)
        self.taken: set[str] = set()
        self.chars = 0
        self.target = CHARS_PER_MESSAGE * n
        self.acks: dict[int, list[str]] = {}
        self.facts: list[Fact] = []
        self.pasted: list[tuple[int, str]] = []
        self.cid = 0
        self.works: list[str] = []
        self.cycles = 0

    # values ------------------------------------------------------------------------------------------------------

    def fresh(self, make: Callable[[], str]) -> str:
        for _ in range(500):
            v = make()
            if v not in self.taken and not any(v in t or t in v for t in self.taken):
                self.taken.add(v)
                return v
        raise RuntimeError("could not draw a fresh value")

    def near(self, old: str) -> str:
        """A near miss of ``old``: one or two of its digits changed."""
        rng = self.rng
        digits = [i for i, ch in enumerate(old) if ch.isdigit()]

        def make() -> str:
            s = list(old)
            for i in rng.sample(digits, min(len(digits), rng.choice((1, 1, 2)))):
                s[i] = rng.choice([d for d in "0123456789" if d != s[i] and not (i == digits[0] and d == "0"
                                                                                   and len(digits) > 1)])
            return "".join(s)
        return self.fresh(make)

    # the skeleton --------------------------------------------------------------------------------------------------

    def skeleton(self) -> None:
        rng, n = self.rng, self.n
        need = self.pk * 6 + self.n_pastes + 2
        turns = max(min(int(need * 1.7) + 3, (n - 2) // 4), n // 10)
        body = n - 2
        mean = body / turns
        roles = ["system"]
        ncalls: dict[int, int] = {}
        remaining = body
        t = 0
        while remaining > 0:
            length = rng.choice((2, 3, 4)) if t < 4 else max(2, int(rng.gauss(mean, mean / 2.5)))
            if length == 3:
                length = 4  # a round needs a call and at least one result
            rest = remaining - length
            if rest < 2 or rest == 3:
                length = remaining  # the last turn; its inner part is never a lone message
            inner = length - 2
            roles.append("user")
            while inner > 0:
                if inner <= 5:
                    k = inner - 1
                else:
                    k = rng.choice((1, 1, 2, 2, 3, 4))
                    if inner - (1 + k) == 1:
                        k = k - 1 if k > 1 else k + 1
                ncalls[len(roles)] = k
                roles.append("call")
                roles.extend(["tool"] * k)
                inner -= 1 + k
            roles.append("say")
            remaining -= length
            t += 1
        roles.append("user")
        assert len(roles) == n, (len(roles), n)
        self.roles = roles
        self.ncalls = ncalls

    # planning ----------------------------------------------------------------------------------------------------

    def plan(self) -> None:
        rng, n, pk = self.rng, self.n, self.pk
        lo, hi = math.ceil(0.03 * n), math.floor(0.88 * n)
        self.lo, self.hi = lo, hi
        roles = self.roles
        free = {r: [i for i in range(lo, hi + 1) if roles[i] == r] for r in ("user", "tool")}
        free["single"] = [i for i in range(lo, hi + 1) if roles[i] == "call" and self.ncalls[i] == 1]
        self.free = {k: set(v) for k, v in free.items()}
        self.job: dict[int, tuple[Any, ...]] = {}
        kinds = [k for k in KINDS for _ in range(pk)]
        rng.shuffle(kinds)
        total = len(kinds)
        targets = [lo + (j + 0.5) * (hi - lo) / total + rng.uniform(-0.3, 0.3) * (hi - lo) / total
                   for j in range(total)]
        # corrections and decisions need room for what they replace: none in the first eighth
        for j in range(total):
            if kinds[j] in ("correction", "decision") and targets[j] < 0.13 * n:
                for j2 in range(total - 1, j, -1):
                    if kinds[j2] not in ("correction", "decision") and targets[j2] >= 0.13 * n:
                        kinds[j], kinds[j2] = kinds[j2], kinds[j]
                        break
        order = list(zip(kinds, targets))
        # the user's first two rules come early
        instr = [j for j, (k, _) in enumerate(order) if k == "instruction"]
        early = (0.055 * n, 0.095 * n)
        for e, j in zip(early, instr[:2]):
            order[j] = ("instruction", max(lo, e))
        decisions = [j for j, (k, t) in enumerate(order) if k == "decision"]
        late_dec = [j for j in decisions if order[j][1] >= 0.13 * n] or decisions
        revise = set(rng.sample(late_dec, min(len(late_dec), max(1, len(decisions) // 3))))
        idents = [j for j, (k, _) in enumerate(order) if k == "identifier"]
        ident_carrier = {j: ("user" if x % 2 == 0 else "tool") for x, j in enumerate(idents)}
        placed: list[tuple[str, int, dict[str, Any]]] = []
        first_two = set(instr[:2])
        corr_js = sorted((j for j in range(total) if order[j][0] == "correction"), key=lambda j: order[j][1])
        far_js = set(corr_js[1::2]) | set(corr_js[-3:])

        def group(j: int) -> int:
            if j in first_two:
                return 0
            return 1 if order[j][0] == "correction" or j in revise else 2

        for j in sorted(range(total), key=lambda j: (group(j), order[j][1])):
            kind, t = order[j]
            role = {"instruction": "user", "correction": "user", "decision": "user", "plan": "user",
                    "error": "tool", "finding": "tool", "file": "single"}.get(kind) or ident_carrier[j]
            info: dict[str, Any] = {"revise": j in revise}
            if group(j) != 1:
                placed.append((kind, self.take(role, t), info))
                continue
            # a fact that replaces an older value: its slot and the old value's slot together
            users = self.free["user"]
            fits = [i for i in users if any(lo <= u <= i - 3 for u in users)]
            if not fits:
                raise RuntimeError("no room for a correction")
            idx = min(fits, key=lambda i: (abs(i - t), i))
            users.discard(idx)
            if kind == "correction":
                if j in far_js and idx - 101 >= lo:
                    cands = [i for i in users if lo <= i <= idx - 101]
                else:
                    cands = [i for i in users if max(lo, idx - 60) <= i <= idx - 3]
            else:
                cands = [i for i in users if max(lo, idx - 200) <= i <= idx - 8]
            cands = cands or [i for i in users if lo <= i <= idx - 3]
            info["stale_at"] = self.grab(sorted(cands), rng)
            placed.append((kind, idx, info))
        self.placed = sorted(placed, key=lambda p: p[1])
        # adopted rules: some later instructions restate a pasted document
        later_rules = [p for p in self.placed if p[0] == "instruction"][2:]
        for p in later_rules[:max(0, pk // 4)] if pk >= 3 else []:
            p[2]["adopted"] = True
        # pastes on free user messages
        all_users = [i for i in range(lo, n - 2) if roles[i] == "user" and i not in self.job_taken()]
        kinds_p = list(PASTES)
        rng.shuffle(kinds_p)
        adopted = [p for p in self.placed if p[2].get("adopted")]
        for x, p in enumerate(adopted):
            p[2]["doc"] = ("security", "contract", "postmortem")[x % 3]
        want = self.n_pastes - len(adopted)
        if all_users and want > 0:
            step = len(all_users) / want
            for x in range(want):
                i = all_users[min(len(all_users) - 1, int((x + 0.5) * step))]
                if i not in self.paste_at:
                    self.paste_at[i] = kinds_p[x % len(kinds_p)]
        # resolved errors: a later run of the same tool
        errs = [p for p in self.placed if p[0] == "error"]
        nres = 1 if len(errs) == 1 else len(errs) // 2
        for p in rng.sample(errs, nres):
            idx = p[1]
            cands = [i for i in range(idx + 6, min(n - 2, idx + 220)) if roles[i] == "tool"
                     and i not in self.used_tools] or \
                [i for i in range(idx + 2, n - 2) if roles[i] == "tool" and i not in self.used_tools]
            if cands:
                r = cands[min(len(cands) - 1, rng.randint(0, 6))]
                self.used_tools.add(r)
                p[2]["resolved_at"] = r

    def job_taken(self) -> set[int]:
        taken = {p[1] for p in self.placed}
        taken |= {p[2]["stale_at"] for p in self.placed if "stale_at" in p[2]}
        return taken

    def grab(self, cands: list[int], rng: random.Random) -> int:
        if not cands:
            raise RuntimeError("no room for a stale value")
        i = rng.choice(cands)
        self.free["user"].discard(i)
        return i

    def take(self, role: str, target: float) -> int:
        pool = self.free[role]
        if not pool:
            raise RuntimeError(f"no free {role} slot")
        best = min(pool, key=lambda i: (abs(i - target), i))
        pool.discard(best)
        if role == "tool":  # a single call whose result is planted can no longer write a planted file
            self.used_tools.add(best)
            self.free["single"].discard(best - 1)
        elif role == "single":  # and the result of a planted write carries nothing else
            self.used_tools.add(best + 1)
            self.free["tool"].discard(best + 1)
        return best

    # rendering -----------------------------------------------------------------------------------------------------

    def build(self) -> Session:
        self.n_pastes = min(6, 2 + self.n // 80) + self.n // 400
        for _attempt in range(50):  # a skeleton with room for every fact (nearly always the first)
            self.paste_at: dict[int, str] = {}
            self.used_tools: set[int] = set()
            self.skeleton()
            if self.roles.count("tool") < len(TOOLS) + 8:
                continue
            try:
                self.plan()
            except RuntimeError:
                continue
            break
        else:
            raise RuntimeError(f"no room for the facts of a {self.n}-message session")
        self.make_values()
        messages: list[Message] = []
        self.pending: dict[int, tuple[str, str]] = {}
        self.tool_names = self.assign_tools()
        for i, role in enumerate(self.roles):
            if role == "system":
                m: Message = {"role": "system", "content": self.system()}
            elif role == "user":
                m = {"role": "user", "content": self.user(i)}
            elif role == "call":
                m = self.call(i)
            elif role == "tool":
                name, out = self.pending.pop(i)
                m = {"role": "tool", "tool_call_id": self.call_ids[i], "name": name, "content": out}
            else:
                m = {"role": "assistant", "content": self.say(i)}
            messages.append(m)
            self.chars += len(text_of(m))
        facts = sorted(self.facts, key=lambda f: (f.index, f.kind))
        return Session(messages=messages, facts=facts, seed=self.seed, pasted=sorted(self.pasted))

    def assign_tools(self) -> dict[int, str]:
        rng = self.rng
        names: dict[int, str] = {}
        for i, name in self.fixed_tools.items():
            names[i] = name
        free = [i for i, r in enumerate(self.roles) if r == "tool" and i not in names]
        missing = [t for t in TOOLS if t not in names.values()]
        rng.shuffle(missing)
        weights = ("dbt", "dbt", "dbt", "snowsql", "snowsql", "snowsql", "airflow", "airflow", "shell", "shell",
                   "shell", "read_file", "read_file", "git", "write_file", "edit_file")
        for x, i in enumerate(free):
            names[i] = missing[x] if x < len(missing) else rng.choice(weights)
        return names

    def ack(self, after: int, text: str, reach: int = 8) -> None:
        j = after + 1
        while j < self.n and self.roles[j] not in ("call", "say"):
            j += 1
        if j <= after + reach and j < self.n - 1:
            self.acks.setdefault(j, []).append(text)

    def system(self) -> str:
        return ("You are a coding agent working in the `rtm-analytics` repository of a logistics company in "
                "Rotterdam: dbt project under models/, Airflow DAGs under dags/, Terraform for Snowflake under "
                "terraform/snowflake, pandas scripts under scripts/ with pytest tests under tests/.\n"
                "Tools: shell (bash in the repo, with kcat, terraform, great_expectations, pytest), dbt (the dbt "
                "CLI, target dev unless told), snowsql (runs a query on Snowflake, account rtm-eu1), airflow (the "
                "airflow CLI of the prod deployment, read-only), read_file, write_file, edit_file, git.\n"
                "Explain what you do, keep changes small, and ask before touching prod.")

    def user(self, i: int) -> str:
        rng = self.rng
        job = self.job.get(i)
        if job is not None:
            return job[0]()
        if i in self.paste_at:
            return self.paste_message(i, self.paste_at[i], None)
        r = rng.random()
        if i == 1:
            return _fmt(rng, rng.choice(OPENERS))
        if i == self.n - 1:
            return _fmt(rng, rng.choice(USER_ASK))
        if r < 0.3:
            return rng.choice(USER_SHORT)
        if r < 0.8:
            return _fmt(rng, rng.choice(USER_ASK))
        return _fmt(rng, rng.choice(USER_FILLER_BLOCKS)) + "\n\n" + _fmt(rng, rng.choice(USER_ASK))

    def paste_message(self, i: int, doc: str, restate: str | None) -> str:
        rng = self.rng
        text = PASTES[doc](rng)
        intro = rng.choice(PASTE_INTROS[doc])
        outro = restate if restate is not None else rng.choice(PASTE_OUTROS)
        self.pasted.append((i, text))
        return f"{intro}\n\n{text}\n\n{outro}"

    def say(self, i: int) -> str:
        rng = self.rng
        pre = self.acks.pop(i, None)
        if pre:
            return "\n\n".join([*pre, rng.choice(AFTER_ACK)])
        body = _fmt(rng, rng.choice(SAY))
        if i == self.n - 2:
            body = "Done for now. " + body
        return body

    def call(self, i: int) -> Message:
        rng = self.rng
        k = self.ncalls[i]
        calls = []
        fact_call = self.job.get(i)
        pre = self.acks.pop(i, None)
        intro = _fmt(rng, rng.choice(CALL_INTRO))
        content = "\n\n".join([*(pre or []), intro]) if pre or intro else ""
        made = []
        if fact_call is not None:
            name, args, out = fact_call[0]()
            made.append((i + 1, name, args, out))
        else:
            # budget the outputs so the session steers towards its size
            pos = i + k + 1
            deficit = self.target * (pos + 1) / self.n - self.chars - len(content) - 220 * k
            share = [rng.uniform(0.5, 1.5) for _ in range(k)]
            tot = sum(share)
            for x in range(k):
                t = i + 1 + x
                budget = int(max(250, min(16000, deficit * share[x] / tot)))
                job = self.job.get(t)
                if job is not None:
                    name, args, out = job[0](budget)
                else:
                    name = self.tool_names[t]
                    args, out = self.filler_tool(name, budget)
                made.append((t, name, args, out))
        for t, name, args, out in made:
            self.cid += 1
            cid = f"call_{self.cid:05d}_{_hex(rng, 6)}"
            self.call_ids[t] = cid
            calls.append(_call(cid, name, args))
            self.pending[t] = (name, out)
        return {"role": "assistant", "content": content, "tool_calls": calls}

    @property
    def call_ids(self) -> dict[int, str]:
        if not hasattr(self, "_ids"):
            self._ids: dict[int, str] = {}
        return self._ids

    def filler_tool(self, name: str, budget: int) -> tuple[dict[str, Any], str]:
        rng = self.rng
        model = rng.choice(MODELS)
        if name == "dbt":
            cmd = rng.choice(("build", "run", "test", "build", "snapshot", "compile"))
            sel = rng.choice((model, f"+{model}", f"{model}+", "tag:planner", "state:modified+", "staging"))
            return {"args": f"{cmd} --select {sel} --target dev"}, _dbt_log(rng, budget, cmd)
        if name == "snowsql":
            table = rng.choice(RAW_TABLES)
            q = rng.choice((f"select * from {table} where loaded_at > dateadd(hour, -6, current_timestamp()) limit 200",
                            f"select query_id, warehouse_name, query_text, total_elapsed_time, rows_produced, start_time "
                            f"from table(information_schema.query_history()) where warehouse_name = "
                            f"'{rng.choice(WAREHOUSES)}' order by start_time desc",
                            f"select {', '.join(rng.sample(COLUMNS, 4))} from {table} sample (1000 rows)"))
            return {"query": q, "warehouse": rng.choice(WAREHOUSES)}, _snowsql_out(rng, budget)
        if name == "airflow":
            dag, task = rng.choice(DAGS), rng.choice(TASKS)
            if rng.random() < 0.3:
                lines = ["dag_id                | run_id                                     | state   | "
                         "execution_date            | start_date"]
                day = _date(rng)

                def more() -> str:
                    return (f"{dag:<21} | scheduled__{_date(rng)}T0{rng.randint(0, 5)}:00:00+00:00 | "
                            f"{rng.choice(('success', 'success', 'failed', 'running')):<7} | {day}T00:00:00+00:00 | "
                            f"{day}T0{rng.randint(0, 5)}:{rng.randint(10, 59)}:0{rng.randint(0, 9)}+00:00")
                _fill(lines, budget, more)
                return {"args": f"dags list-runs -d {dag}"}, "\n".join(lines)
            return {"args": f"tasks logs {dag} {task} --try-number {rng.randint(1, 3)}"}, \
                _airflow_log(rng, budget, dag, task)
        if name == "shell":
            r = rng.random()
            if r < 0.3:
                f = rng.choice(("eta_features", "reconcile_counts", "kafka_lag", "planner_export"))
                return {"command": f"pytest tests/test_{f}.py -q"}, _pytest_out(rng, budget, f"tests/test_{f}.py")
            if r < 0.45:
                return {"command": "cd terraform/snowflake && terraform plan -no-color"}, _terraform_out(rng, budget)
            if r < 0.6:
                return {"command": "kafka-consumer-groups --bootstrap-server kafka-1.rtm.internal:9092 --describe "
                                   "--all-groups"}, _kafka_out(rng, budget)
            if r < 0.75:
                return {"command": "great_expectations checkpoint run marts_planner"}, _ge_out(rng, budget)
            script = rng.choice(PY_FILES[:3] + PY_FILES[5:])
            return {"command": f"python {script} --since {_date(rng)}"}, _script_out(rng, budget)
        if name == "read_file":
            r = rng.random()
            if r < 0.45:
                return {"path": _model_path(model)}, _sql_file(rng, model, budget)
            if r < 0.7:
                dag = rng.choice(DAGS)
                return {"path": f"dags/{dag}.py"}, _dag_file(rng, dag, budget)
            if r < 0.85:
                return {"path": f"models/{FOLDERS[model[:3]]}/schema.yml"}, _yaml_file(rng, budget)
            return {"path": rng.choice(TF_FILES)}, _terraform_out(rng, budget)
        if name == "git":
            r = rng.random()
            if r < 0.5:
                return {"args": "diff"}, _diff_out(rng, budget)
            if r < 0.85:
                return {"args": "log -n 40"}, _gitlog_out(rng, budget)
            files = "\n".join(f"\tmodified:   {_model_path(rng.choice(MODELS))}" for _ in range(rng.randint(2, 9)))
            return {"args": "status"}, f"On branch feature/{rng.choice(('eta-dst', 'kpi-split', 'dedup'))}\n" \
                                       f"Changes not staged for commit:\n{files}"
        if name == "write_file":
            path = rng.choice((_model_path(model), f"tests/test_{rng.choice(('eta_features', 'kafka_lag'))}.py",
                               "models/marts/planning/schema.yml"))
            body = _sql_file(rng, model, min(3000, budget)) if path.endswith(".sql") else _yaml_file(rng, min(2500, budget))
            return {"path": path, "content": body}, f"Wrote {len(body):,} bytes to {path}"
        # edit_file
        col = rng.choice(COLUMNS)
        path = _model_path(model)
        return ({"path": path, "old_str": f"        {col},", "new_str": f"        {col}::timestamp_ntz as {col},"},
                f"Edited {path}: 1 replacement (line {rng.randint(12, 140)})")

    # planted facts ---------------------------------------------------------------------------------------------------

    def make_values(self) -> None:
        self.fixed_tools: dict[int, str] = {}
        counters: dict[str, int] = {}
        for kind, idx, info in self.placed:
            c = counters.get(kind, 0)
            counters[kind] = c + 1
            getattr(self, f"plant_{kind}")(idx, info, c)

    def work(self) -> str:
        """A work stream to pin a fact to, so that two facts of one family never read alike."""
        if not self.works:
            phase = WORK_PHASES[self.cycles % len(WORK_PHASES)] + (f" {self.cycles}" if self.cycles >= len(WORK_PHASES)
                                                                   else "")
            self.works = [w + phase for w in WORK]
            self.rng.shuffle(self.works)
            self.cycles += 1
        return self.works.pop()

    def add(self, kind: str, value: str, index: int, query: str, **kw: Any) -> None:
        self.facts.append(Fact(kind, value, index, query, **kw))

    # instruction -------------------------------------------------------------------------------------------------

    def plant_instruction(self, idx: int, info: dict[str, Any], c: int) -> None:
        rng = self.rng
        if info.get("adopted"):
            doc = info["doc"]
            w = self.work()
            if doc == "security":
                value = self.fresh(lambda: f"PII_SAFE.{rng.choice(V_VIEWS)}_V{rng.randint(2, 9)}")
                restate = rng.choice((f"Dus voor ons: contactgegevens voor {w} lezen we alleen nog via `{value}`, "
                                      "nergens anders. Ook niet even snel in dev.",
                                      f"So our rule from now on: phone numbers and e-mails for {w} only through "
                                      f"`{value}`, never from the raw tables."))
                query = f"Through which masked view may the {w} contact details be read?"
            elif doc == "contract":
                value = self.fresh(lambda: f"{rng.randint(2, 9)}.{rng.randint(1, 9)}% tolerance")
                restate = rng.choice((f"Wat ik eruit haal: we accepteren voor {w} een row-count verschil van "
                                      f"max {value} tussen topic en raw, daarboven alarm.",
                                      f"My take for us: for {w}, a row-count gap between topic and raw within "
                                      f"{value} is fine, anything above pages us."))
                query = f"How large a row-count gap between topic and raw table do we accept for {w}?"
            else:
                value = self.fresh(lambda: f"Fridays after {rng.randint(13, 17)}:{rng.choice(('05', '15', '25', '35', '45', '55'))}")
                restate = rng.choice((f"Les voor ons: geen {w} deploys naar prod aan het eind van de week, dus "
                                      f"no prod deploys {value}.",
                                      f"Lesson for us, and I mean it: no {w} prod deploys {value}."))
                query = f"When are {w} prod deploys off-limits at the end of the week?"
            self.job[idx] = (lambda: self.paste_message(idx, doc, restate),)
            self.ack(idx, f"Understood, I'll hold to that: {value}.")
            self.add("instruction", value, idx, query)
            return
        variants = self.instruction_variants()
        make = variants[(c + self.seed) % len(variants)]
        value, text, query, ack = make()
        lead = ""
        if rng.random() < 0.5:
            lead = _fmt(rng, rng.choice(USER_ASK)) + "\n\n"
        self.job[idx] = (lambda: lead + text,)
        self.ack(idx, ack)
        self.add("instruction", value, idx, query)

    def instruction_variants(self) -> list[Callable[[], tuple[str, str, str, str]]]:
        rng = self.rng

        w = self.work()

        def credits() -> tuple[str, str, str, str]:
            v = self.fresh(lambda: f"{rng.randint(11, 95)} credits per day")
            return v, rng.choice((f"btw we never let the {w} sandbox burn more than {v}, so keep the full "
                                  "refreshes small pls",
                                  f"o en nog iets: de {w} sandbox mag nooit meer dan {v} kosten, dus geen grote "
                                  "full-refreshes")), \
                f"What is the daily credit cap for the {w} sandbox?", f"Noted: the {w} sandbox stays under {v}."

        def tag() -> tuple[str, str, str, str]:
            v = self.fresh(lambda: f"rtm_{rng.choice(('planning', 'eta', 'kpi', 'ingest'))}_{rng.randint(100, 999)}")
            return v, rng.choice((f"House rule: every query you run for {w} gets QUERY_TAG '{v}', so finance "
                                  "can find our spend.",
                                  f"we doen hier altijd een query tag, gebruik '{v}' voor alles wat je voor {w} "
                                  "draait")), \
                f"Which query tag must every query for {w} carry?", f"Will do, {w} queries get the tag {v}."

        def channel() -> tuple[str, str, str, str]:
            v = self.fresh(lambda: f"#{rng.choice(V_CHAN)}-{rng.choice(V_CHAN)}-alerts")
            return v, rng.choice((f"I'd rather have the {w} failure alerts in {v} than in general, the planners "
                                  "panic otherwise",
                                  f"alerts voor {w} liever naar {v}, niet naar #general")), \
                f"Which Slack channel should the {w} failure alerts go to?", f"OK, {w} alerts go to {v}."

        def pin() -> tuple[str, str, str, str]:
            pkg = rng.choice(("dbt-snowflake", "dbt-expectations", "apache-airflow-providers-snowflake"))
            v = self.fresh(lambda: f"{pkg}=={rng.randint(1, 5)}.{rng.randint(5, 8)}.{rng.randint(10, 19)}")
            return v, rng.choice((f"Until the {w} upgrade is done, don't bump {pkg}: we stay on {v}.",
                                  f"tot de {w} upgrade klaar is niet aan {pkg} komen, we blijven op {v}")), \
                f"Which {pkg} version must stay pinned until the {w} upgrade?", f"Understood, pinned at {v}."

        def handle() -> tuple[str, str, str, str]:
            v = self.fresh(lambda: f"@{rng.choice(V_HANDLES)}")
            return v, rng.choice((f"nooit iets van {w} naar main mergen zonder review van {v}, ook niet als het "
                                  "klein is",
                                  f"we never merge {w} stuff to main without a review from {v}, even the tiny "
                                  "stuff")), \
                f"Whose review is needed before {w} changes are merged to main?", f"Got it — review by {v} first."

        def snap() -> tuple[str, str, str, str]:
            v = self.fresh(lambda: f"DENG-{rng.randint(1000, 9999)}")
            return v, rng.choice((f"en tot {v} dicht is: niet aan de {w} snapshots komen, die zijn de bron voor de "
                                  "audit",
                                  f"Until {v} is closed, don't touch the {w} snapshots. They feed the audit.")), \
                f"Until which ticket is closed must the {w} snapshots stay untouched?", \
                f"Noted, snapshots stay as they are until {v} is closed."

        def pool() -> tuple[str, str, str, str]:
            v = self.fresh(lambda: f"snowflake_{rng.choice(('nightly', 'backfill', 'adhoc', 'heavy'))}_"
                                   f"{rng.choice(('a', 'b', 'c', 'x'))}{rng.randint(1, 9)}")
            return v, rng.choice((f"liever alle zware {w} tasks in pool {v}, anders verdringen ze de ingest",
                                  f"I'd rather run every heavy {w} task in pool {v} so they don't starve the ingest")), \
                f"Which Airflow pool should the heavy {w} tasks run in?", f"OK, heavy {w} tasks go in pool {v}."

        return [credits, tag, channel, pin, handle, snap, pool]

    # correction --------------------------------------------------------------------------------------------------

    def plant_correction(self, idx: int, info: dict[str, Any], c: int) -> None:
        rng = self.rng
        fams = (
            ("ticket", lambda: f"INC-{rng.randint(10000, 99999)}", True, "the incident ticket",
             "Which incident ticket is the outage tracked under?"),
            ("host", lambda: f"airflow-worker-{rng.randint(10, 99)}", True, "the worker",
             "On which Airflow worker did the failing task run?"),
            ("stage", lambda: f"@RAW.LANDING.STG_{rng.choice(V_STAGE)}_{rng.randint(10, 99)}", True, "the stage",
             "Which Snowflake stage holds the files to load?"),
            ("wh", lambda: f"WH_{rng.choice(V_WORDS)}_{rng.choice(V_SIZES)}", False, "the warehouse",
             "Which warehouse should the backfill use?"),
            ("topic", lambda: f"carrier.{rng.choice(V_TOPIC)}.v{rng.randint(2, 9)}", True, "the topic",
             "Which Kafka topic feeds the new raw table?"),
            ("dash", lambda: f"dashboards/{rng.randint(100, 999)}", True, "the dashboard",
             "Which Looker dashboard do the planners use?"),
            ("col", lambda: f"{rng.choice(V_COLS)}_ts", False, "the column",
             "Which timestamp column is the ETA comparison based on?"),
            ("bucket", lambda: f"s3://rtm-{rng.choice(('landing', 'archive'))}-{rng.randint(1000, 9999)}", True,
             "the bucket", "Which S3 bucket holds the replayed files?"),
        )
        order = (0, 1, 3, 2, 4, 6, 5, 7)
        fam, make, near, what, query = fams[order[(c + self.seed) % len(fams)]]
        w = self.work()
        what = f"{what} for {w}"
        query = query.rstrip("?") + f" (the {w} work)?"
        stale = self.fresh(make)
        value = self.near(stale) if near else self.fresh(lambda: self.other(make, stale))
        sidx = info["stale_at"]
        say_old = {
            "ticket": (f"het {w} incident staat onder {stale}, koppel je commits daaraan", f"{w} incident is "
                       f"{stale}, link the commits to it"),
            "host": (f"de {w} task faalde op {stale}, kun je daar de logs van pakken?",
                     f"the {w} task failed on {stale} according to the UI, grab the logs from there"),
            "stage": (f"files voor {w} staan klaar in {stale}", f"the {w} files to load are in {stale}"),
            "wh": (f"gebruik {stale} voor de {w} backfill", f"use {stale} for the {w} backfill"),
            "topic": (f"de nieuwe raw tabel voor {w} komt uit {stale}", f"the new {w} raw table is fed by {stale}"),
            "dash": (f"planners kijken voor {w} naar looker {stale}", f"for {w} the planners use looker {stale}"),
            "col": (f"we vergelijken op {stale} voor {w}", f"compare against {stale} for the {w} ETA check"),
            "bucket": (f"replay files voor {w} staan in {stale}", f"replayed {w} files are in {stale}"),
        }[fam]
        old_text = rng.choice(say_old)
        self.job[sidx] = (lambda: old_text,)
        self.ack(sidx, f"OK, {stale}.", reach=12)
        new_text = rng.choice((
            f"nee wacht, {what} is {value}, niet {stale}. sorry",
            f"I gave you the wrong one earlier — it's {value}.",
            f"ik zat ernaast: {value}",
            f"the other one: {value}, not {stale}",
            f"nee sorry, het was {value}",
            f"typo before, {what} should be {value}",
        ))
        if rng.random() < 0.5:
            new_text = (_fmt(rng, rng.choice(USER_FILLER_BLOCKS)) + " " + new_text + "\n\n"
                        + _fmt(rng, rng.choice(USER_ASK)))
        self.job[idx] = (lambda: new_text,)
        self.ack(idx, f"Thanks — switching to {value}.")
        self.add("correction", value, idx, query, stale=stale, stale_index=sidx)

    def other(self, make: Callable[[], str], stale: str) -> str:
        """Another value of the family, not a near miss of ``stale`` (\"the other one\")."""
        for _ in range(100):
            v = make()
            if sum(a == b for a, b in zip(v, stale)) < len(v) - 3:
                return v
        return make()

    # decision ----------------------------------------------------------------------------------------------------

    def plant_decision(self, idx: int, info: dict[str, Any], c: int) -> None:
        rng = self.rng
        fams = (
            (lambda: f"batch.size={rng.randint(10000, 99999)}", "Which batch size did we settle on for the Kafka "
             "connector?"),
            (lambda: f"{rng.randint(0, 59)} {rng.randint(1, 5)} * * 1-5", "Which schedule did we pick for the nightly "
             "DAG?"),
            (lambda: f"auto_suspend = {rng.randint(120, 599)}", "What auto-suspend did we choose for the warehouse?"),
            (lambda: f"dg_planners_{rng.randint(10, 99)}", "Which Looker datagroup triggers the planner PDTs?"),
            (lambda: f"lookback of {rng.randint(3, 71)} hours", "How far back does the incremental model look?"),
            (lambda: "cluster_by=['{}', '{}']".format(*rng.sample(COLUMNS, 2)), "Which clustering key did we "
             "decide on for the big fact table?"),
        )
        make, query = fams[(c + self.seed) % len(fams)]
        w = self.work()
        query = query.rstrip("?") + f" for {w}?"
        value = self.fresh(make)
        ctx = (f"about {w}: ", f"voor {w}: ", f"{w} — ", f"ok {w}. ")[c % 4]
        says = (f"{ctx}let's go with {value}", f"{ctx}we gaan voor {value}", f"{ctx}doe maar {value}, prima",
                f"{ctx}decision: {value}. moving on", f"{ctx}laten we {value} nemen")
        if info.get("revise"):
            stale = self.fresh(make)
            sidx = info["stale_at"]
            self.job[sidx] = (lambda: rng.choice((f"{ctx}let's go with {stale} for now",
                                                  f"{ctx}doe voorlopig maar {stale}")),)
            self.ack(sidx, f"OK, {stale} for now.", reach=12)
            text = rng.choice((f"{w}: ik heb me bedacht, niet {stale} maar {value}",
                               f"actually, for {w} scrap {stale}. let's go with {value} after all",
                               f"nee, voor {w} toch liever {value} dan wat ik eerder zei"))
            self.job[idx] = (lambda: text,)
            self.ack(idx, f"Switched to {value}.")
            self.add("decision", value, idx, query, stale=stale, stale_index=sidx)
            return
        text = rng.choice(says)
        if rng.random() < 0.4:
            text = _fmt(rng, rng.choice(USER_FILLER_BLOCKS)) + "\n\n" + text
        self.job[idx] = (lambda: text,)
        self.ack(idx, f"OK, {value} it is.")
        self.add("decision", value, idx, query)

    # plan --------------------------------------------------------------------------------------------------------

    def plan_fact(self, c: int) -> tuple[str, str, str]:
        rng = self.rng
        forms = (
            lambda: (self.fresh(lambda: f"chunks of {rng.randint(3, 45)} days"),
                     "Plan voor de backfill: eerst de oude tabel bevriezen, dan vullen we {v} vanaf januari, en pas "
                     "als de counts kloppen zetten we de Looker explore om.",
                     "In what size of chunks will the backfill run?"),
            lambda: (self.fresh(lambda: f"cut over on {rng.choice(EN_DAYS)} at 0{rng.randint(5, 8)}:{rng.randint(10, 59)}"),
                     "Here's the plan. First we shadow-run the new models next to the old ones, then we compare the "
                     "planner KPIs every morning for a week, and then we {v}, before the planners start. Rollback is "
                     "just switching the view back.",
                     "When do we switch the planners over to the new models?"),
            lambda: (self.fresh(lambda: f"{rng.randint(3, 14)} nights of shadow runs"),
                     "Mijn idee:\n1. nieuwe DAG naast de oude zetten\n2. {v} en dan diffen\n3. oude DAG uit, "
                     "alerts omzetten\nklinkt dat goed?",
                     "How long do we run the new DAG in shadow before switching?"),
            lambda: (self.fresh(lambda: f"ANALYTICS.SHADOW.FCT_{rng.choice(V_STAGE)}_V{rng.randint(2, 9)}"),
                     "Plan: we dual-write into {v} for a week, then compare against prod with the reconcile script, "
                     "and only then drop the old table.",
                     "Which shadow table do we dual-write into during the migration?"),
            lambda: (self.fresh(lambda: f"pre-cutover-{rng.randint(1000, 9999)}"),
                     "Eerst taggen we main als {v} zodat we terug kunnen, daarna de migratie van de snapshots, "
                     "en als laatste de grants in terraform.",
                     "Which git tag marks the rollback point before the migration?"),
        )
        value, text, query = forms[(c + self.seed) % len(forms)]()
        w = self.work()
        return value, f"Over {w}. " + text.format(v=value), query.rstrip("?") + f" for {w}?"

    def plant_plan(self, idx: int, info: dict[str, Any], c: int) -> None:
        value, text, query = self.plan_fact(c)
        self.job[idx] = (lambda: text,)
        self.ack(idx, f"Sounds good. I'll follow that plan ({value}).")
        self.add("plan", value, idx, query)

    # identifier --------------------------------------------------------------------------------------------------

    def plant_identifier(self, idx: int, info: dict[str, Any], c: int) -> None:
        rng = self.rng
        if self.roles[idx] == "user":
            forms = (
                (lambda: f"PLAN-{rng.randint(1000, 9999)}", "the Jira story is {v}, zet dat in de PR titel",
                 "Which Jira story does the PR belong to?"),
                (lambda: f"SVC_DBT_{rng.choice(V_WORDS)}_{rng.randint(10, 99)}", "the service user for CI is {v}",
                 "Which service user does CI connect with?"),
                (lambda: f"looks/{rng.randint(1000, 9999)}", "de look die de planners gebruiken is {v}",
                 "Which Looker look do the planners use?"),
            )
            make, text, query = forms[(c + self.seed) % len(forms)]
            w = self.work()
            value = self.fresh(make)
            body = f"{w}: " + text.format(v=value)
            query = query.rstrip("?") + f" (for {w})?"
            self.job[idx] = (lambda: body,)
            self.ack(idx, f"Noted: {value}.")
            self.add("identifier", value, idx, query)
            return
        forms2 = ("snowsql", "dbt")
        which = forms2[(c + self.seed) % 2]
        if which == "snowsql":
            value = self.fresh(lambda: f"01b{_hex(rng, 5)}-0602-{_hex(rng, 4)}-0000-{_hex(rng, 12)}")
            w = self.work()
            query = f"What is the query id of the slow {w} MERGE?"

            def run(budget: int = 3000) -> tuple[str, dict[str, Any], str]:
                out = _snowsql_out(rng, budget, extra=[f"| {value} | WH_TRANSFORM_M | merge into analytics.marts ..."])
                return "snowsql", {"query": "select query_id, warehouse_name, query_text from table("
                                            "information_schema.query_history()) order by total_elapsed_time desc "
                                            "limit 50", "warehouse": "WH_ANALYST_S"}, out
            self.ack(idx, f"The slow {w} MERGE is query {value}.")
        else:
            value = self.fresh(lambda: f"{_hex(rng, 8)}-{_hex(rng, 4)}-4{_hex(rng, 3)}-9{_hex(rng, 3)}-{_hex(rng, 12)}")
            w = self.work()
            query = f"What was the dbt invocation id of the {w} build?"

            def run(budget: int = 3000) -> tuple[str, dict[str, Any], str]:
                out = _dbt_log(rng, budget, "build", insert=[f"{_clock(rng)}  invocation_id: {value}"])
                return "dbt", {"args": "build --select tag:planner --target dev"}, out
            self.ack(idx, f"Invocation id of the {w} build is {value}.")
        self.job[idx] = (run,)
        self.fixed_tools[idx] = which
        self.add("identifier", value, idx, query)

    # file --------------------------------------------------------------------------------------------------------

    def plant_file(self, idx: int, info: dict[str, Any], c: int) -> None:
        rng = self.rng
        model = self.fresh(lambda: rng.choice(V_MODELS))
        folder = "marts/planning" if model.startswith("fct") else "intermediate"
        value = f"models/{folder}/{model}.sql"
        self.taken.add(value)
        write = c % 2 == 0

        def run() -> tuple[str, dict[str, Any], str]:
            if write:
                body = _sql_file(rng, rng.choice(MODELS), 1600)
                return "write_file", {"path": value, "content": body}, f"Wrote {len(body):,} bytes to {value}"
            col = rng.choice(COLUMNS)
            return "edit_file", {"path": value, "old_str": f"        {col},",
                                 "new_str": f"        {col}::timestamp_ntz as {col},"}, \
                f"Edited {value}: 1 replacement"
        self.job[idx] = (run,)
        self.fixed_tools[idx + 1] = "write_file" if write else "edit_file"
        topic = model.split("_", 1)[1].replace("_", " ")
        self.add("file", value, idx, "Which model file did the agent " + ("create" if write else "edit")
                 + f" for the {topic} logic?")

    # error -------------------------------------------------------------------------------------------------------

    def plant_error(self, idx: int, info: dict[str, Any], c: int) -> None:
        rng = self.rng
        fams = ("copy", "dbtfail", "sensor", "pytest", "compile", "kafka", "ge", "pandas", "tfgrant")
        fam = fams[(c + self.seed) % len(fams)]
        model = rng.choice(MODELS)
        if fam == "copy":
            value = self.fresh(lambda: f"100038 (22018): Numeric value 'TBD-{rng.randint(1000, 9999)}' is not recognized")
            tool, args = "snowsql", {"query": "COPY INTO RAW.KAFKA.CARRIER_EVENTS FROM @RAW.KAFKA.S3_LANDING "
                                              "FILE_FORMAT = (TYPE = JSON) ON_ERROR = ABORT_STATEMENT",
                                     "warehouse": "WH_LOADING_XS"}
            query = "What error stopped the COPY INTO of the carrier events?"

            def out(budget: int, err: bool) -> str:
                extra = [value, f"  File 'carrier/2024/05/part-00{rng.randint(100, 999)}.json.gz', line "
                                f"{rng.randint(1, 5000)}, character {rng.randint(1, 90)}"] if err else None
                if err:
                    return "\n".join(extra or []) + "\n" + _snowsql_out(rng, budget // 3)
                return _table(rng, budget, ["file", "status", "rows_parsed", "rows_loaded", "error_limit"],
                              lambda col: {"file": f"s3://rtm-landing-prod/carrier/part-{rng.randint(0, 9999):05d}.json.gz",
                                           "status": "LOADED"}.get(col, str(rng.randint(1, 90000))))
        elif fam == "dbtfail":
            col = rng.choice(COLUMNS)
            value = self.fresh(lambda: f"{_clock(rng)}  {rng.randint(20, 199)} of 214 FAIL {rng.randint(2, 9999)} "
                                       f"unique_{model}_{col} ........ [FAIL in {rng.uniform(1, 9):.2f}s]")
            tool, args = "dbt", {"args": f"test --select {model}"}
            query = f"Which dbt test failed on {model}, and with how many rows?"

            def out(budget: int, err: bool) -> str:
                return _dbt_log(rng, budget, "test", insert=[value] if err else None)
        elif fam == "sensor":
            dag = rng.choice(DAGS)
            value = self.fresh(lambda: f"airflow.exceptions.AirflowSensorTimeout: Sensor has timed out; run duration "
                                       f"of {rng.randint(3600, 9999)}.{rng.randint(100, 999)} seconds exceeds the "
                                       f"specified timeout of {rng.choice((3600, 5400, 7200))}.0.")
            tool, args = "airflow", {"args": f"tasks logs {dag} wait_for_landing --try-number 3"}
            query = f"Why did the landing sensor of {dag} fail?"

            def out(budget: int, err: bool) -> str:
                ins = ["Traceback (most recent call last):",
                       '  File "/home/airflow/.local/lib/python3.11/site-packages/airflow/sensors/base.py", line 274, '
                       'in execute', "    raise AirflowSensorTimeout(message)", value] if err else None
                return _airflow_log(rng, budget, dag, "wait_for_landing", insert=ins)
        elif fam == "pytest":
            f = rng.choice(("eta_features", "reconcile_counts", "planner_export"))
            value = self.fresh(lambda: f"FAILED tests/test_{f}.py::test_{rng.choice(('dst_switch', 'late_events', 'dedup_keeps_latest', 'empty_depot'))}"
                                       f" - AssertionError: assert {rng.randint(100, 99999)} == {rng.randint(100, 99999)}")
            tool, args = "shell", {"command": f"pytest tests/test_{f}.py -q"}
            query = f"Which test failed in tests/test_{f}.py?"

            def out(budget: int, err: bool) -> str:
                return _pytest_out(rng, budget, f"tests/test_{f}.py", failed=[value] if err else None)
        elif fam == "compile":
            value = self.fresh(lambda: f"000904 (42000): SQL compilation error: error line {rng.randint(10, 400)} at "
                                       f"position {rng.randint(4, 60)} invalid identifier '{rng.choice(COLUMNS).upper()}_LOCAL'")
            tool, args = "dbt", {"args": f"build --select {model}+"}
            query = f"What compilation error did the build of {model} hit?"

            def out(budget: int, err: bool) -> str:
                ins = [f"{_clock(rng)}  Database Error in model {model} ({_model_path(model)})", value] if err else None
                return _dbt_log(rng, budget, "build", insert=ins)
        elif fam == "kafka":
            value = self.fresh(lambda: f"org.apache.kafka.common.errors.RecordTooLargeException: The message is "
                                       f"{rng.randint(1100000, 4000000)} bytes when serialized which is larger than "
                                       "1048588, which is the value of the max.request.size configuration.")
            tool, args = "shell", {"command": "python scripts/replay_events.py --topic carrier.events.raw --dry-run=false"}
            query = "Why did the replay producer fail to publish?"

            def out(budget: int, err: bool) -> str:
                return _script_out(rng, budget, insert=[value] if err else None)
        elif fam == "ge":
            col = rng.choice(COLUMNS)
            value = self.fresh(lambda: f"expect_column_values_to_not_be_null(column='{col}') failed: "
                                       f"{rng.randint(10, 99999)} of {rng.randint(100000, 9999999)} rows unexpected")
            tool, args = "shell", {"command": "great_expectations checkpoint run raw_carrier_events"}
            query = "Which expectation failed in the raw carrier events checkpoint?"

            def out(budget: int, err: bool) -> str:
                return _ge_out(rng, budget, insert=[value] if err else None)
        elif fam == "pandas":
            value = self.fresh(lambda: f"pandas.errors.ParserError: Error tokenizing data. C error: Expected 14 fields "
                                       f"in line {rng.randint(1000, 999999)}, saw 15")
            tool, args = "shell", {"command": "python scripts/export_planner_csv.py --depot all"}
            query = "What error did the planner CSV export hit?"

            def out(budget: int, err: bool) -> str:
                ins = ["Traceback (most recent call last):", '  File "scripts/export_planner_csv.py", line 88, in <module>',
                       "    frame = pd.read_csv(path, sep=';')", value] if err else None
                return _script_out(rng, budget, insert=ins)
        else:
            schema = rng.choice(("STAGING", "INTERMEDIATE", "MARTS", "CORE"))
            value = self.fresh(lambda: f"Error: 003001 (42501): SQL access control error: Insufficient privileges to "
                                       f"operate on schema '{schema}' (request {_hex(rng, 8)})")
            tool, args = "shell", {"command": "cd terraform/snowflake && terraform apply -auto-approve -no-color"}
            query = "Why did terraform apply fail on the grants?"

            def out(budget: int, err: bool) -> str:
                if err:
                    return _terraform_out(rng, budget, insert=[value, "", "  with snowflake_role_grants.looker_reader,",
                                                               '  on grants.tf line 41, in resource "snowflake_role_grants"'])
                return _terraform_out(rng, budget) + "\nApply complete! Resources: 0 added, 2 changed, 0 destroyed."
        w = self.work()
        query = query.rstrip("?") + f" (in the {w} run)?"
        self.job[idx] = (lambda budget=3000: (tool, args, out(budget, True)),)
        self.fixed_tools[idx] = tool
        self.ack(idx, f"The {w} run fails with:\n\n```\n{value}\n```\n\nI'll look at what causes it.")
        resolved = info.get("resolved_at")
        if resolved is not None:
            self.job[resolved] = (lambda budget=3000: (tool, args, out(budget, False)),)
            self.fixed_tools[resolved] = tool
        self.add("error", value, idx, query, resolved=resolved)

    # finding -----------------------------------------------------------------------------------------------------

    def plant_finding(self, idx: int, info: dict[str, Any], c: int) -> None:
        rng = self.rng
        fams = ("spill", "depth", "lag", "dupes", "timeout", "runtime", "ge", "p95")
        fam = fams[(c + self.seed) % len(fams)]
        if fam == "spill":
            value = self.fresh(lambda: f"{rng.randint(11, 95)}.{rng.randint(10, 99)} GB spilled to remote storage")
            tool, args = "snowsql", {"query": "select * from table(get_query_operator_stats(last_query_id()))",
                                     "warehouse": "WH_ANALYST_S"}
            meaning = "the MERGE runs out of memory on this warehouse size, so it spills; a bigger warehouse or a " \
                      "narrower incremental window would fix the runtime"
            query = "How much did the slow MERGE spill to remote storage?"
            line = f"  -> Join [{rng.randint(2, 9)}]: {value} (local {rng.randint(1, 40)}.{rng.randint(0, 9)} GB)"
            out = lambda budget: _snowsql_out(rng, budget, extra=[line])  # noqa: E731
        elif fam == "depth":
            value = self.fresh(lambda: f'"average_depth" : {rng.randint(20, 400)}.{rng.randint(1000, 9999)}')
            tool, args = "snowsql", {"query": "select system$clustering_information('ANALYTICS.MARTS.FCT_DELIVERIES')",
                                     "warehouse": "WH_ANALYST_S"}
            meaning = "the table is badly clustered, so queries on the delivery date scan most micro-partitions"
            query = "What average clustering depth did the fact table show?"
            out = lambda budget: ('{\n  "cluster_by_keys" : "LINEAR(delivery_date)",\n  "total_partition_count" : '  # noqa: E731
                                  f'{rng.randint(10000, 90000)},\n  {value},\n  "average_overlaps" : '
                                  f'{rng.uniform(10, 300):.4f}\n}}\n' + _snowsql_out(rng, budget))
        elif fam == "lag":
            value = self.fresh(lambda: f"total lag {rng.randint(100, 999)},{rng.randint(100, 999)} messages")
            tool, args = "shell", {"command": "python scripts/kafka_lag.py --group snowpipe-raw-loader --summary"}
            meaning = "the loader has fallen hours behind, which is why the board is stale"
            query = "How far behind was the raw loader's consumer group?"
            out = lambda budget: _kafka_out(rng, budget, extra=["", f"snowpipe-raw-loader: {value} across 24 partitions"])  # noqa: E731
        elif fam == "dupes":
            value = self.fresh(lambda: f"PLX{rng.randint(1000, 9999)}")
            tool, args = "snowsql", {"query": "select carrier_code, count(*) - count(distinct event_id) as dupes from "
                                              "raw.kafka.carrier_events group by 1 order by 2 desc", "warehouse": "WH_ANALYST_S"}
            meaning = "almost all duplicates come from that one carrier, so the root cause is their resend logic, not our dedup"
            query = "Which carrier sends almost all of the duplicate events?"
            line = f"| {value:<14} | {rng.randint(10000, 99999):<14} |"
            out = lambda budget: _table(rng, budget, ["carrier_code", "dupes"],  # noqa: E731
                                        lambda col: rng.choice(CARRIERS) if col == "carrier_code" else str(rng.randint(0, 40)),
                                        extra=[line])
        elif fam == "timeout":
            value = self.fresh(lambda: f"dagrun_timeout=timedelta(minutes={rng.randint(11, 99)})")
            dag = rng.choice(DAGS)
            tool, args = "read_file", {"path": f"dags/{dag}.py"}
            meaning = "the DAG run is killed before the sensor can see the late files"
            query = f"What DAG run timeout is configured in dags/{dag}.py?"
            out = lambda budget: "\n".join(f"    {value}," if x.startswith("    dagrun_timeout") else x  # noqa: E731
                                           for x in _dag_file(rng, dag, budget).split("\n"))
        elif fam == "runtime":
            value = self.fresh(lambda: f"0 hours {rng.randint(20, 59)} minutes and {rng.randint(1, 59)}.{rng.randint(10, 99)} seconds")
            tool, args = "dbt", {"args": "build --select tag:planner --target prod --defer"}
            meaning = "the planner models alone take most of the nightly window"
            query = "How long did the planner build take?"
            out = lambda budget: _dbt_log(rng, budget, "build", finish=f"{_clock(rng)}  Finished running 61 table models, "  # noqa: E731
                                          f"188 tests in {value} (1{rng.randint(100, 999)}.{rng.randint(10, 99)}s).")
        elif fam == "ge":
            value = self.fresh(lambda: f'"unexpected_percent": {rng.randint(1, 30)}.{rng.randint(1000, 9999)}')
            tool, args = "shell", {"command": "great_expectations checkpoint run marts_planner --result-format COMPLETE"}
            meaning = "a real share of the rows is missing the planned arrival, enough to skew the on-time KPI"
            query = "What share of rows failed the planned-arrival expectation?"
            line = ('{"expectation_type": "expect_column_values_to_not_be_null", "kwargs": {"column": '
                    f'"planned_arrival"}}, "success": false, "result": {{"unexpected_count": {rng.randint(100, 9999)}, {value}}}}}')
            out = lambda budget: _ge_out(rng, budget, insert=[line])  # noqa: E731
        else:
            value = self.fresh(lambda: f"p95 elapsed {rng.randint(11, 99)}.{rng.randint(10, 99)} s")
            tool, args = "shell", {"command": "python scripts/query_stats.py --explore planner_eta --days 7"}
            meaning = "the planner explore is too slow for the morning rush; the PDT should be materialized"
            query = "How slow were the planner explore's queries at the 95th percentile?"
            out = lambda budget: _script_out(rng, budget, insert=[f"planner_eta: {value} over {rng.randint(200, 5000)} queries"])  # noqa: E731
        w = self.work()
        query = query.rstrip("?") + f" (looking into {w})?"
        self.job[idx] = (lambda budget=3000: (tool, args, out(budget)),)
        self.fixed_tools[idx] = tool
        self.ack(idx, f"For {w}: {value}. That means {meaning}.")
        self.add("finding", value, idx, query)
