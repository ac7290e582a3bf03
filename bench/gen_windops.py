"""Wind-farm operations sessions with planted facts, for the fidelity bench.

A controls/operations engineer at a wind-farm operator in Esbjerg works with an ops agent on the fleet's data
and control software for days on end: SCADA alarm logs (pitch, yaw and converter trips, ``T07 GRID OVERVOLTAGE``),
Modbus and OPC UA reads from the substation PCs, a Python analytics service (pandas, pytest), power-curve tables
and availability from InfluxDB, a Rust edge gateway (``cargo`` builds and tests, ``error[E0502]``), Ansible runs,
curtailment schedules, weather forecasts and work orders in the CMMS. The user writes Danish mixed with English
(and forwards the odd German line), types fast, pastes what others sent: the TSO's curtailment instruction, the
turbine maker's service bulletin, a LOTO procedure, the marine coordinator's vessel mail, an insurer's remark, a
Teams thread from the control room, a grid-code excerpt.

    from gen_windops import make_session
    session = make_session(seed=1, messages=400)     # about 600k characters
    session = make_session(seed=1, messages=3000)    # about 4.7M characters
    for fact in session.facts:                       # what a compacted context must still say
        print(fact.kind, fact.index, fact.value, "-", fact.query)
    for index, text in session.pasted:               # what the user pasted rather than wrote
        ...

``session.messages`` is an OpenAI chat conversation (system prompt, user turns, assistant ``tool_calls`` answered
by ``tool`` messages, a final answer and a last user turn). ``session.facts`` hold ``per_kind(messages)`` facts of
each of :data:`KINDS` between 3% and 88% of the session; a value first occurs in its own message and afterwards
only in the eight messages after it. The same seed and size give the same bytes.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sessiongen import Fact, Message, Session, text_of

KINDS = ("instruction", "correction", "decision", "error", "file", "identifier", "finding", "plan")
TOOLS = ("scada_query", "modbus_read", "influx", "read_file", "edit_file", "shell", "cargo", "ansible", "cmms",
         "forecast")
MIN_MESSAGES = 60
CHARS_PER_MESSAGE = 1540  # the size the tool outputs are scaled to, on average over the whole session

__all__ = ["KINDS", "MIN_MESSAGES", "TOOLS", "make_session", "per_kind"]


def per_kind(messages: int) -> int:
    """Facts of each kind in a session of ``messages``: 1 at 60, 6 at 400, 12 at 3000, linear in between."""
    if messages <= 400:
        return max(1, round(1 + 5 * (messages - 60) / 340))
    return round(6 + 6 * (messages - 400) / 2600)


# --- the fleet (filler vocabulary; planted values come from disjoint spaces further down) ------------------------

SITES = (("SKR", "Skarv Rev", "offshore", 72), ("FNB", "Fanø Banke", "offshore", 48), ("TJH", "Tjæreborg Hede",
         "onshore", 14), ("VDM", "Vedersø Mark", "onshore", 9), ("RKS", "Ringkøbing Syd", "onshore", 22))
SITE_CODES = tuple(s[0] for s in SITES)
PEOPLE = ("Mette Holm", "Søren Lauridsen", "Anja Kristensen", "Lars Bech", "Kasper Vinther", "Henrik Møller",
          "Pia Dalsgaard", "Jonas Brandt", "Katrin Vogel", "Niels Østergaard", "Trine Juhl", "Morten Skov")
FIRST = tuple(p.split()[0] for p in PEOPLE)
ALARMS = (("T07", "GRID OVERVOLTAGE"), ("T08", "GRID UNDERVOLTAGE"), ("T11", "GRID FREQUENCY HIGH"),
          ("3101", "PITCH AXIS 1 SPEED DEVIATION"), ("3102", "PITCH AXIS 2 SPEED DEVIATION"),
          ("3115", "PITCH ACCU PRESSURE LOW"), ("2210", "YAW MISALIGNMENT HIGH"), ("2231", "YAW BRAKE PRESSURE LOW"),
          ("2244", "YAW CABLE TWIST LIMIT"), ("4402", "CONV DC-LINK OVERVOLTAGE"), ("4417", "CONV IGBT TEMP HIGH"),
          ("4430", "CONV GRID-SIDE TRIP"), ("5003", "GEARBOX OIL TEMP HIGH"), ("5012", "GEN BEARING NDE TEMP HIGH"),
          ("5020", "GEN WINDING TEMP HIGH"), ("1107", "GRID UNDERFREQUENCY"), ("6001", "ICE DETECTED ROTOR"),
          ("6010", "HIGH WIND STOP"), ("7002", "MANUAL STOP"), ("7005", "SERVICE MODE"))
STATES = ("active", "reset", "auto-rst", "ack", "cleared")
REGS = ("pitch_angle_b1_deg_x100", "pitch_angle_b2_deg_x100", "pitch_angle_b3_deg_x100", "rotor_rpm_x10",
        "gen_rpm", "active_power_kw", "reactive_power_kvar", "nacelle_temp_c_x10", "gear_oil_temp_c_x10",
        "yaw_pos_deg_x10", "wind_speed_ms_x100", "grid_voltage_v", "grid_freq_hz_x100", "status_word",
        "alarm_word_1", "alarm_word_2", "setpoint_p_kw", "setpoint_q_kvar", "hub_temp_c_x10", "conv_temp_c_x10")
FILLER_FILES = ("analytics/windanalytics/powercurve.py", "analytics/windanalytics/ingest.py",
                "analytics/windanalytics/availability.py", "analytics/windanalytics/resample.py",
                "analytics/tests/test_powercurve.py", "analytics/tests/test_ingest.py",
                "edgegw/src/modbus.rs", "edgegw/src/opcua.rs", "edgegw/src/buffer.rs", "edgegw/src/main.rs",
                "edgegw/Cargo.toml", "ansible/inventory/substations.yml", "ansible/roles/opcua_bridge/tasks/main.yml",
                "ansible/roles/ntp/defaults/main.yml", "ops/curtailment/schedule.yaml", "grafana/README.md")
PY_TESTS = ("test_powercurve", "test_ingest", "test_availability", "test_resample", "test_alarms", "test_export")
PY_FUNCS = ("bins_cover_cut_in", "handles_nan_rows", "resample_10min", "air_density_correction", "export_csv",
            "availability_excludes_grid", "alarm_dedup", "turbine_id_parse", "timezone_is_utc", "empty_frame",
            "ws_outliers_dropped", "merge_met_mast", "derate_flagged", "kpi_rounding")
RUST_TESTS = ("modbus::tests::decode_u32_be", "modbus::tests::decode_f32_word_swap", "modbus::tests::retry_on_timeout",
              "opcua::tests::browse_path", "opcua::tests::subscription_renew", "buffer::tests::ring_wraps",
              "buffer::tests::flush_on_reconnect", "config::tests::parses_site_toml", "main::tests::cli_args")
CRATES = ("tokio v1.38.0", "serde v1.0.203", "serde_json v1.0.117", "tracing v0.1.40", "bytes v1.6.0",
          "anyhow v1.0.86", "thiserror v1.0.61", "clap v4.5.7", "toml v0.8.14", "chrono v0.4.38", "rustls v0.23.10",
          "futures v0.3.30", "influxdb2 v0.5.1", "opcua v0.12.0", "crc v3.2.1")
VESSELS = ("CTV Grådyb 2", "CTV Vesterhavet", "CTV Sønderho", "SOV Horns Star")
PLAYBOOKS = ("opcua_bridge.yml", "ntp.yml", "edgegw_deploy.yml", "hardening.yml", "scada_export.yml")


def _turbine(rng: random.Random, site: str | None = None) -> str:
    return f"{site or rng.choice(SITE_CODES)}-{rng.choice('ABCDEF')}{rng.randint(1, 12):02d}"


def _host(rng: random.Random) -> str:
    return f"sub-{rng.choice(SITE_CODES).lower()}-pc0{rng.randint(1, 3)}"


def _ip(rng: random.Random) -> str:
    return f"10.4{rng.randint(1, 4)}.{rng.randint(0, 254)}.{rng.randint(2, 250)}"


def _clock(rng: random.Random) -> str:
    return f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}"


def _day(rng: random.Random) -> str:
    return f"2024-{rng.choice(('11', '12'))}-{rng.randint(1, 28):02d}"


def _wo(rng: random.Random) -> str:
    return f"WO-{rng.randint(200000, 499999)}"


def _typo(rng: random.Random, text: str) -> str:
    """One swapped pair of letters in a longer word, the way people type in a hurry."""
    words = text.split(" ")
    spots = [i for i, w in enumerate(words) if len(w) > 5 and w.isalpha()]
    if not spots:
        return text
    i = rng.choice(spots)
    w = words[i]
    j = rng.randint(1, len(w) - 3)
    words[i] = w[:j] + w[j + 1] + w[j] + w[j + 2:]
    return " ".join(words)


def _near(rng: random.Random, value: str) -> str:
    """A near miss: the same string with one or two digits changed (swapped or replaced)."""
    digits = [i for i, c in enumerate(value) if c.isdigit()][-3:]
    while True:
        s = list(value)
        pairs = [i for i in digits if i + 1 in digits and s[i] != s[i + 1]]
        if pairs and rng.random() < 0.6:
            i = rng.choice(pairs)
            s[i], s[i + 1] = s[i + 1], s[i]
        else:
            i = rng.choice(digits[1:] or digits)
            s[i] = rng.choice([d for d in "0123456789" if d != s[i]])
        out = "".join(s)
        if out != value:
            return out


# --- planted-value spaces, never used by the filler --------------------------------------------------------------

FACT_ALARMS = ("3188", "3194", "4461", "4478", "2287", "5047", "6124", "6139", "1173", "1185", "2295", "5061")
FACT_ALARM_TEXT = {"3188": "PITCH ENCODER B2 PLAUSIBILITY", "3194": "PITCH HYDR VALVE FEEDBACK",
                   "4461": "CONV CROWBAR FIRED", "4478": "CONV LSC COOLANT FLOW LOW", "2287": "YAW ENCODER JUMP",
                   "5047": "MAIN BEARING VIB LEVEL 2", "6124": "HUB CONTROLLER WATCHDOG", "6139": "SLIP RING COMM LOST",
                   "1173": "PPC SETPOINT TIMEOUT", "1185": "VRT TRIP SEQUENCE", "2295": "NACELLE ANEMO MISMATCH",
                   "5061": "GEAR OIL PARTICLES HIGH"}
FACT_PEOPLE = ("Rasmus Thygesen", "Rasmus Thomsen", "Birgitte Kjærsgaard", "Birgitte Kjærgaard", "Claus Iversen",
               "Claus Ibsen", "Helle Strandgaard", "Helle Strandberg", "Frederik Aagaard", "Frederik Aabo")
FACT_VESSELS = ("CTV Njord Runner", "CTV Skagen Tern", "CTV Fanø Spirit", "CTV Nordsø Falk", "CTV Rømø Swift",
                "CTV Limfjord Gull", "SOV Esbjerg Horizon", "SOV Jammerbugt Star")
FACT_RS = ("pending_writes", "frame_buf", "reg_cache", "poll_handle", "session_keys", "tx_queue", "retry_state",
           "node_map", "sub_handles", "ack_window", "crc_table", "scan_plan", "cert_store", "tag_index")
FACT_PY = (("curtail_ramp", "ramp_respects_limit"), ("icing_flags", "flags_below_zero"),
           ("yaw_misalign", "misalignment_sign"), ("derate_kpi", "derate_hours_counted"),
           ("tso_export", "setpoint_csv_header"), ("lost_energy", "lost_mwh_uses_curve"),
           ("met_merge", "mast_offset_applied"), ("alarm_kpi", "stop_categories_mapped"))
FACT_MODS = ("backoff_jitter", "frame_guard", "regmap_v3", "setpoint_watchdog", "ppc_link", "tag_cache", "rtu_probe",
             "cert_rotate", "scan_budget", "q_droop", "drift_check", "icing_rules", "lost_yield", "ramp_audit")
FACT_BUCKETS = ("scada_raw_1s", "ppc_events", "met_mast_10min", "conv_hf", "tso_setpoints")
FACT_QUEUES = ("PLN-OFF-2", "PLN-ON-1", "PLN-SUB-3", "PLN-HV-4")
FACT_DAYS = ("Friday", "Monday", "Thursday")
CAUSES = ("slip-ring brush wear on pitch axis {n}", "loose X{n} terminal in the hub cabinet",
          "cracked encoder coupling on blade {n}", "PPC firmware {n}.4.1 dropping Q setpoints",
          "coolant pump {n} running backwards after service", "stale NTP on RTU {n} (offset 41 s)")


def _fact_turbine(rng: random.Random) -> str:
    return f"{rng.choice(SITE_CODES)}-{rng.choice('KLMNP')}{rng.randint(13, 29)}"


def _fact_host(rng: random.Random) -> str:
    return f"rtu-{rng.choice(SITE_CODES).lower()}-{rng.randint(20, 49)}"


def _fact_wo(rng: random.Random) -> str:
    return f"WO-{rng.randint(600000, 899999)}"


def _fact_date(rng: random.Random) -> str:
    return f"2025-0{rng.randint(1, 3)}-{rng.randint(10, 28)}"


# --- the planted facts -------------------------------------------------------------------------------------------


@dataclass
class _Spec:
    """One planted fact before its place is known: what to say, and how its turn is laid out."""

    kind: str
    value: str
    query: str
    data: dict[str, Any]
    stale: str | None = None
    target: float = 0.0
    index: int = -1
    stale_index: int | None = None
    resolved: int | None = None


class _Values:
    """Draws planted values that are distinct from every other one (neither contains another)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.taken: list[str] = []
        self.used: set[str] = set()

    def fresh(self, *values: str) -> bool:
        for v in values:
            if any(v in t or t in v for t in self.taken):
                return False
        return not (len(values) == 2 and (values[0] in values[1] or values[1] in values[0]))

    def take(self, draw: Callable[[random.Random], dict[str, Any]]) -> dict[str, Any]:
        for attempt in range(600):
            out = draw(self.rng)
            keys = [out["value"]] + ([out["stale"]] if out.get("stale") else [])
            if (attempt < 300 and out.get("tag") in self.used) or not self.fresh(*keys):
                continue
            self.taken.extend(keys)
            if out.get("tag"):
                self.used.add(out["tag"])
            return out
        raise RuntimeError("ran out of planted values")


def _instruction(rng: random.Random) -> dict[str, Any]:
    site, n = rng.choice(SITE_CODES), rng.randint(2, 9)
    t = rng.randrange(16)
    if t == 0:
        code = rng.choice(FACT_ALARMS)
        v = f"remote reset på alarm {code}"
        return dict(tag=t, value=v, lang="da", query="which alarm the user never lets anyone reset remotely",
                    say=f"husk at vi aldrig laver {v} – der skal en tekniker op og kigge først")
    if t == 1:
        v = f"no edgegw deploys to {site} on {rng.choice(FACT_DAYS)}s"
        return dict(tag=t, value=v, lang="en", query="on which site and weekday edge gateway deploys are off limits",
                    say=f"house rule: {v}, whatever the release notes say")
    if t == 2:
        v = f"max {n} %/min"
        return dict(tag=t, value=v, lang="en", cond=True, query=f"what ramp rate limit applies on {site} for now",
                    say=f"until the grid study for {site} is signed off, keep the ramp rate at {v} – no exceptions")
    if t == 3:
        b, d = rng.choice(FACT_BUCKETS), rng.choice((3, 7, 14, 30))
        v = f"{b}: max {d} dage"
        return dict(tag=t, value=v, lang="da", query=f"how far back Influx queries against the {b} bucket may reach",
                    say=f"jeg vil helst have at queries mod {v} ad gangen, ellers lægger vi Influx ned igen")
    if t == 4:
        v = f"planner queue {rng.choice(FACT_QUEUES)}"
        return dict(tag=t, value=v, lang="en", query=f"where new work orders for {site} must be routed",
                    say=f"from now on every WO for {site} goes to the {v}, not straight to the techs")
    if t == 5:
        v = f"under {rng.randint(12, 60) * 5} MW på {site}"
        return dict(tag=t, value=v, lang="da", query=f"below what curtailment level on {site} the control room "
                    "must be called first", say=f"aldrig curtailment {v} uden at ringe til kontrolrummet først")
    if t == 6:
        v = f"{_fact_host(rng)} max hvert {rng.choice((5, 10, 15, 30))}. sekund"
        return dict(tag=t, value=v, lang="da", query="how often the old RTU may be polled over Modbus",
                    say=f"husk: Modbus-polling mod {v}, ellers hænger den gamle RTU igen")
    if t == 7:
        v = f"pandas=={rng.choice(('2.0.3', '2.1.1', '2.2.0', '1.5.3'))}"
        return dict(tag=t, value=v, lang="en", cond=True, query="which pandas version the analytics service is "
                    "pinned to", say=f"I'd rather we pin {v} in the analytics service until the resample bug is fixed")
    if t == 8:
        v = f"Hs below {rng.choice(('1.2', '1.4', '1.5', '1.6', '1.8'))} m"
        return dict(tag=t, value=v, lang="en", query="the wave height limit for crew transfers",
                    say=f"we never plan transfers unless the forecast says {v} for the whole window")
    if t == 9:
        v = f"kategori MS-{rng.randint(10, 99)}"
        return dict(tag=t, value=v, lang="da", query=f"which CMMS category manual stops on {site} are logged under",
                    say=f"alle manuelle stop på {site} skal logges i CMMS med {v}, også de korte")
    if t == 10:
        v = f"Grafana folder ops-prod-{rng.randint(2, 9)}"
        return dict(tag=t, value=v, lang="en", query="which Grafana folder must never be edited directly",
                    say=f"never touch the {v} directly – copy to staging, edit there, then promote")
    if t == 11:
        v = f"til {rng.choice(FACT_PEOPLE)} altid i UTC"
        return dict(tag=t, value=v, lang="da", query="who gets reports and in which time zone",
                    say=f"tidsstempler i rapporterne {v}, aldrig dansk tid")
    if t == 12:
        v = f"snapshot /etc/edgegw on {_fact_host(rng)}"
        return dict(tag=t, value=v, lang="en", query="what must be done before restarting that edge host",
                    say=f"always {v} before you restart it, the last time we lost the tag map")
    if t == 13:
        v = f"pitch-parametrene på {_fact_turbine(rng)}"
        return dict(tag=t, value=v, lang="da", cond=True, query="which turbine's pitch settings are frozen",
                    say=f"indtil bladinspektionen er færdig rører vi ikke {v}")
    if t == 14:
        v = f"serial: {n}"
        return dict(tag=t, value=v, lang="en", query="how many hosts an Ansible batch may touch at once",
                    say=f"ansible against the substation PCs only with `{v}` in the play, never the whole fleet")
    v = f"cargo update på edgegw før {_fact_date(rng)}"
    return dict(tag=t, value=v, lang="da", cond=True, query="until when the gateway's dependencies stay frozen",
                say=f"ingen {v}, vi har en FAT med kunden der skal køre på præcis de versioner")


def _adopted(rng: random.Random) -> dict[str, Any]:
    site = rng.choice(SITE_CODES)
    t = rng.randrange(4)
    if t == 0:
        v = f"to mand på alle hub-jobs på {site}"
        return dict(tag=100 + t, value=v, lang="da", doc="loto", query="the staffing rule for hub work",
                    say=f"for os betyder det: {v}, også de korte, og LOTO-kortet tjekkes af nummer to")
    if t == 1:
        v = f"re-torque check after {rng.choice((250, 500, 750))} operating hours"
        return dict(tag=100 + t, value=v, lang="en", doc="bulletin", query="when blade bolts get re-checked",
                    say=f"so for our fleet: {v} on every rotor we've touched, logged in CMMS")
    if t == 2:
        v = f"Q setpoints for {site} only through the PPC"
        return dict(tag=100 + t, value=v, lang="en", doc="gridcode", query="how reactive power setpoints are sent",
                    say=f"in plain words for us: {v}, never per turbine, not even for a test")
    v = f"borescope photos for {rng.choice((5, 7, 10))} år"
    return dict(tag=100 + t, value=v, lang="da", doc="insurer", query="how long inspection photos are kept",
                say=f"ok, så fra nu af gemmer vi {v} – også for de møller der ikke er i kravet")


def _correction(rng: random.Random) -> dict[str, Any]:
    t = rng.randrange(9)
    if t == 0:
        s = _fact_wo(rng)
        return dict(tag=t, stale=s, value=_near(rng, s), what="work order", query="which work order the gearbox job "
                    "is filed under", first=f"gearolie-jobbet ligger under {s} i CMMS", near=True)
    if t == 1:
        s = _fact_turbine(rng)
        return dict(tag=t, stale=s, value=_near(rng, s), what="turbine", query="which turbine had the yaw alarms "
                    "overnight", first=f"det er {s} der har haft de yaw-alarmer i nat", near=True)
    if t == 2:
        s = f"10.48.{rng.randint(10, 99)}.{rng.randint(10, 99)}"
        return dict(tag=t, stale=s, value=_near(rng, s), what="IP", query="the address of the new substation PC",
                    first=f"the new substation PC is on {s}, same VLAN as the old one", near=True)
    if t == 3:
        s = f"HR {rng.randint(47000, 47999)}"
        return dict(tag=t, stale=s, value=_near(rng, s), what="register", query="which Modbus register holds the "
                    "gear sump temperature", first=f"gear sump temperature sits in {s} on those controllers",
                    near=True)
    if t == 4:
        s = f"cap at {rng.randint(120, 480)} MW"
        return dict(tag=t, stale=s, value=_near(rng, s), what="cap", query="the curtailment cap the TSO asked for "
                    "tonight", first=f"TSO'en vil have os til at {s} fra 18:00", near=True)
    if t == 5:
        i = rng.randrange(0, len(FACT_PEOPLE), 2)
        s, v = FACT_PEOPLE[i], FACT_PEOPLE[i + 1]
        if rng.random() < 0.5:
            s, v = v, s
        return dict(tag=t, stale=s, value=v, what="person", query="who the monthly availability report goes to",
                    first=f"send the monthly availability report to {s} when it's done", near=False)
    if t == 6:
        s, v = rng.sample(FACT_VESSELS, 2)
        return dict(tag=t, stale=s, value=v, what="vessel", query="which vessel is booked for the pitch job",
                    first=f"vi har booket {s} til pitch-jobbet", near=False)
    if t == 7:
        s = _fact_date(rng)
        v = f"{s[:-1]}{rng.choice([d for d in '0123456789' if d != s[-1]])}"
        return dict(tag=t, stale=s, value=v, what="deadline", query="the insurer's deadline for the "
                    "survey answers", first=f"forsikringen vil have svar senest {s}", near=True)
    s = f"kpi-{rng.randint(1000, 9999)}-{rng.choice('abcdefgh')}"
    v = f"kpi-{rng.randint(1000, 9999)}-{rng.choice('pqrstuvw')}"
    return dict(tag=t, stale=s, value=v, what="dashboard", query="which Grafana dashboard uid the TSO report reads",
                first=f"the TSO report reads dashboard {s}", near=False)


DECISIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("which Modbus client crate the gateway uses", ("rodbus as the Modbus client", "tokio-modbus as the Modbus client")),
    ("the retention of the raw 1 s bucket", ("retention 60d on raw_1s", "retention 120d on raw_1s",
                                             "retention 365d on raw_1s", "retention 45d on raw_1s")),
    ("how the availability KPI is aggregated", ("10-min median for the KPI", "10-min mean for the KPI",
                                               "1-h mean for the KPI")),
    ("the OPC UA security policy", ("policy Basic256Sha256", "policy Aes256_Sha256_RsaPss",
                                    "policy Aes128_Sha256_RsaOaep")),
    ("the order of the gateway rollout", ("TJH first, then VDM", "VDM first, then RKS", "RKS first, then TJH")),
    ("the gearbox bearing alert threshold", ("alert at 82 °C on the gearbox bearing", "alert at 78 °C on the "
                                             "gearbox bearing", "alert at 86 °C on the gearbox bearing")),
    ("the Influx writer batch size", ("batch_size=5000 in the writer", "batch_size=2000 in the writer",
                                      "batch_size=800 in the writer")),
    ("the power-curve bin width", ("0.5 m/s bins for the curve", "0.25 m/s bins for the curve")),
    ("the primary forecast provider", ("DMI HARMONIE as primary", "ECMWF IFS as primary", "MET Norway MEPS as "
                                       "primary")),
    ("where the forecast archive lives", ("parquet per site and day", "parquet per model run")),
    ("how the gateway buffers offline data", ("sled for the offline buffer", "sqlite WAL for the offline buffer")),
    ("the Grafana alert channel", ("#ctrl-room-alarms for alerts", "#wind-ops-oncall for alerts")),
)


def _decision(rng: random.Random, revised: bool) -> dict[str, Any]:
    i = rng.randrange(len(DECISIONS) + 1)
    if i == len(DECISIONS):
        query = "the gateway's Modbus scan interval"
        a, b = (f"scan interval {n} ms on the gateway" for n in rng.sample(range(150, 2000, 50), 2))
    else:
        query, options = DECISIONS[i]
        a, b = rng.sample(options, 2)
    out = dict(tag=i, value=a, query=query)
    if revised:
        out["stale"], out["value"] = a, b
        out["query"] = f"{query}, after the change of mind"
    return out


def _plan(rng: random.Random) -> dict[str, Any]:
    site = rng.choice(SITE_CODES)
    t = rng.randrange(7)
    h = rng.choice((24, 48, 72))
    options = (
        (f"canary on {_fact_turbine(rng)} for {h} h", "where and how long the canary runs"),
        (f"roll edgegw 0.{rng.randint(14, 16)}.{rng.randint(0, 9)} to {site}", "which gateway version goes where"),
        (f"drain the buffer on {_fact_host(rng)}", "what happens to the gateway buffer before the restart"),
        (f"backfill from {_fact_date(rng)}", "from which date the Influx backfill starts"),
        (f"retrain the curve on {rng.randint(5, 16)} weeks of SCADA", "how much history the power curve is refit on"),
        (f"dry-run against {_fact_host(rng)} first", "which host the playbook is tried on first"),
        (f"freeze setpoints at {rng.randint(30, 95)} % Pn", "what the setpoints are frozen at during the swap"),
    )
    v, q = options[t]
    return dict(tag=t, value=v, query=f"in the user's plan: {q}")


def _identifier_user(rng: random.Random) -> dict[str, Any]:
    t = rng.randrange(4)
    if t == 0:
        v = f"TSO-CUR-{rng.randint(70000, 99999)}"
        return dict(tag=t, value=v, query="the TSO's reference for the curtailment order",
                    say=f"TSO'ens reference er {v}, den skal med i alle svar til dem")
    if t == 1:
        v = f"CLM-{rng.randint(1000, 9999)}-{rng.choice('ABCDEFGH')}"
        return dict(tag=t, value=v, query="the insurer's case number", say=f"the insurer's case number is {v}, "
                    "put it in the subject line")
    if t == 2:
        v = f"SR-{rng.randint(5000000, 5999999)}"
        return dict(tag=t, value=v, query="the turbine maker's service request number",
                    say=f"servicesagen hos producenten er {v} – de har bedt om loggen")
    v = f"ns=4;s={_fact_turbine(rng).replace('-', '.')}.Pitch.EncoderRaw"
    return dict(tag=t, value=v, query="the OPC UA node of the raw pitch encoder",
                say=f"the node you want is {v}, the browse path lies")


def _identifier_tool(rng: random.Random) -> dict[str, Any]:
    t = rng.randrange(3)
    if t == 0:
        v = _fact_wo(rng)
        return dict(tag=10 + t, value=v, tool="cmms", query="the work order the CMMS created for the pitch job",
                    line=f"created: {v}  status=OPEN  priority=2")
    if t == 1:
        v = f"EVT-{rng.randint(10, 99)}{rng.choice('QXZ')}{rng.randint(100000, 999999)}"
        return dict(tag=10 + t, value=v, tool="scada_query", query="the SCADA event id of the grid trip",
                    line=f"event_id: {v}  (grid trip, all strings)")
    v = f"fc-run-{rng.randint(20250101, 20250328)}-{rng.choice('abcdef')}{rng.randint(10, 99)}"
    return dict(tag=10 + t, value=v, tool="forecast", query="the forecast run the vessel plan is based on",
                line=f"run_id: {v}")


def _finding(rng: random.Random) -> dict[str, Any]:
    t = rng.randrange(7)
    if t == 0:
        v = f"yaw_brake_residual_bar = {rng.randint(12, 38)}.{rng.randint(0, 9)}"
        return dict(tag=t, value=v, tool="modbus_read", query="the residual yaw brake pressure that was read",
                    means="the brake isn't fully releasing, which explains the yaw misalignment alarms")
    if t == 1:
        v = f"pitch_accu_precharge_bar = {rng.randint(48, 72)}.{rng.randint(0, 9)}"
        return dict(tag=t, value=v, tool="modbus_read", query="the measured pitch accumulator precharge",
                    means="well under the 90 bar spec, so the accumulator needs recharging before winter")
    if t == 2:
        v = f"median cut-in {rng.randint(3, 4)}.{rng.randint(10, 95)} m/s"
        return dict(tag=t, value=v, tool="influx", query="the measured median cut-in wind speed",
                    means="later than the 3.0 m/s on the datasheet, so the turbine is losing low-wind hours")
    if t == 3:
        v = f"ramp_limit_kw_per_s: {rng.randint(8, 40) * 5}"
        return dict(tag=t, value=v, tool="shell", query="the ramp limit configured in the PPC config",
                    means="that's the value that made the setpoint lag behind the TSO request")
    if t == 4:
        v = "root cause: " + rng.choice(CAUSES).format(n=rng.randint(2, 7))
        return dict(tag=t, value=v, tool="scada_query", query="the root cause the SCADA event analysis gives",
                    means="that lines up with the trip pattern, so the fix is mechanical, not software")
    if t == 5:
        v = f"decode_frame: {rng.randint(12, 95)}.{rng.randint(10, 99)} µs/frame"
        return dict(tag=t, value=v, tool="cargo", query="the measured decode time per frame in the gateway bench",
                    means="fast enough for 200 Hz polling with room to spare")
    v = f"icing hours ahead: {rng.randint(6, 40)}"
    return dict(tag=t, value=v, tool="forecast", query="how many icing hours the forecast predicts",
                means="long enough that we should enable ice detection stops on the exposed rows")


def _error(rng: random.Random) -> dict[str, Any]:
    t = rng.randrange(5)
    if t == 0:
        var = rng.choice(FACT_RS)
        form = rng.randrange(3)
        name = var if form else f"self.{var}"
        v = (f"error[E0502]: cannot borrow `{name}` as mutable because it is also borrowed as immutable",
             f"error[E0499]: cannot borrow `{name}` as mutable more than once at a time",
             f"error[E0382]: borrow of moved value: `{name}`")[form]
        return dict(tag=(t, var), value=v, tool="cargo", args={"cmd": "build", "cwd": "edgegw", "args": ["--release"]},
                    query="the compile error in the edge gateway build", where=f"src/{rng.choice(FACT_MODS)}.rs")
    if t == 1:
        mod, fn = rng.choice(FACT_PY)
        a = rng.randint(10, 99)
        v = f"FAILED tests/test_{mod}.py::test_{fn} - AssertionError: assert {a}.{rng.randint(0, 9)} == {a + 7}.0"
        return dict(tag=(t, mod), value=v, tool="shell", args={"cmd": f"cd analytics && pytest -q tests/test_{mod}.py"},
                    query="the failing analytics test and its assertion")
    if t == 2:
        host = _host(rng)
        unit = rng.choice(("opcua-bridge", "scada-export", "edgegw", "chronyd"))
        msg = rng.choice((f"Unable to start service {unit}@{rng.randint(2, 9)}: Job failed, see journalctl -xe",
                          f"Could not find the requested service {unit}-v{rng.randint(2, 5)}: host",
                          f"Destination /opt/{unit}/conf.d/{rng.randint(10, 99)}-site.toml not writable"))
        v = f'fatal: [{host}]: FAILED! => {{"changed": false, "msg": "{msg}"}}'
        return dict(tag=(t, unit), value=v, tool="ansible", host=host,
                    args={"playbook": rng.choice(PLAYBOOKS), "limit": host, "check": False},
                    query="the Ansible failure on the substation PC")
    if t == 3:
        code = rng.choice(FACT_ALARMS)
        tur = _fact_turbine(rng)
        v = f"{_day(rng)} {_clock(rng)}:{rng.randint(10, 59)}  {tur}  {code}  {FACT_ALARM_TEXT[code]}  active"
        return dict(tag=(t, code), value=v, tool="scada_query", args={"site": tur[:3], "turbine": tur,
                    "kind": "alarms", "hours": 24}, query="the alarm the turbine keeps raising")
    host = f"edge-{rng.choice(SITE_CODES).lower()}-0{rng.randint(1, 9)}"
    msg = rng.choice((f"opcua: session {rng.randint(100, 999)} BadSecureChannelIdInvalid, reconnect storm",
                      f"buffer: segment {rng.randint(1000, 9999)}.seg checksum mismatch, dropping",
                      f"ppc: setpoint ack timeout after {rng.randint(3, 9)}000 ms"))
    v = f"{_day(rng)}T{_clock(rng)}:{rng.randint(10, 59)}Z {host} edgegw[{rng.randint(900, 9999)}]: ERROR {msg}"
    return dict(tag=(t, msg[:5]), value=v, tool="shell", host=host,
                args={"cmd": f"ssh {host} journalctl -u edgegw --since -2h --no-pager"},
                query="the error the gateway logs")


def _file(rng: random.Random) -> dict[str, Any]:
    name = rng.choice(FACT_MODS)
    t = rng.randrange(4)
    if t == 0:
        v = f"edgegw/src/{name}.rs"
        lang = "rust"
    elif t == 1:
        v = f"analytics/windanalytics/{name}.py"
        lang = "python"
    elif t == 2:
        v = f"ansible/roles/{name}/tasks/{rng.choice(SITE_CODES).lower()}.yml"
        lang = "yaml"
    else:
        v = f"ops/runbooks/{name.replace('_', '-')}-{rng.randint(2, 9)}.md"
        lang = "md"
    return dict(tag=name, value=v, lang=lang, query=f"the new {lang} file the agent wrote for {name.replace('_', ' ')}")


# --- tool outputs --------------------------------------------------------------------------------------------------

Render = Callable[[int], str]


def _fill(rng: random.Random, head: list[str], line: Callable[[], str], target: int, tail: list[str],
          embed: list[str] | None = None) -> str:
    """Lines from ``line`` between ``head`` and ``tail`` until about ``target`` characters; ``embed`` goes in whole."""
    out = list(head)
    size = sum(len(x) + 1 for x in head) + sum(len(x) + 1 for x in tail) + sum(len(x) + 1 for x in embed or ())
    while size < target:
        x = line()
        out.append(x)
        size += len(x) + 1
    if embed:
        at = rng.randint(len(head), len(out))
        out[at:at] = embed
    out.extend(tail)
    return "\n".join(out)


class _Tools:
    """Realistic outputs of the agent's tools, filler only (planted lines are embedded by the caller)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    # scada_query
    def alarms(self, args: dict[str, Any], target: int, embed: list[str] | None = None) -> str:
        rng = self.rng
        site = args.get("site", "SKR")
        day = _day(rng)
        t = [rng.randint(0, 3600)]

        def line() -> str:
            t[0] += rng.randint(4, 900)
            sec = t[0] % 86400
            code, text = rng.choice(ALARMS)
            return (f"{day} {sec // 3600:02d}:{sec // 60 % 60:02d}:{sec % 60:02d}  {_turbine(rng, site)}  {code:<5} "
                    f"{text:<30} {rng.choice(STATES):<8} {rng.choice(('auto', 'SCADA', 'local', 'ctrl-room'))}")

        head = [f"site={site} kind=alarms window=last {args.get('hours', 24)}h source=scada-hist-02",
                "timestamp            turbine   code  text                           state    by",
                "-" * 92]
        tail = ["-" * 92, f"{rng.randint(40, 900)} rows scanned, {rng.randint(3, 60)} distinct turbines, "
                f"query took {rng.randint(80, 2400)} ms"]
        return _fill(rng, head, line, target, tail, embed)

    def status(self, args: dict[str, Any], target: int, embed: list[str] | None = None) -> str:
        rng = self.rng
        site = args.get("site", "SKR")

        def line() -> str:
            ws = rng.uniform(2, 18)
            p = 0 if ws < 3 else min(8000, int(8000 * ((ws - 3) / 9) ** 2))
            return (f"{_turbine(rng, site):<9} {rng.choice(('RUN', 'RUN', 'RUN', 'PAUSE', 'STOP', 'ERR', 'SERV')):<5} "
                    f"{p:>6} kW  {ws:5.1f} m/s  yaw {rng.randint(0, 359):>3}°  pitch {rng.uniform(-1, 25):5.1f}°  "
                    f"T_gear {rng.uniform(38, 74):4.1f} °C  avail {rng.uniform(88, 100):5.1f} %")

        head = [f"{site} park status {_clock(rng)} UTC (10-min avg)", "turbine   state   power    wind      yaw"
                "       pitch     gear temp      availability"]
        return _fill(rng, head, line, target, [f"park total {rng.randint(40, 560)} MW"], embed)

    # modbus_read
    def registers(self, args: dict[str, Any], target: int, embed: list[str] | None = None) -> str:
        rng = self.rng
        reg = [int(args.get("start", 40001))]

        def line() -> str:
            reg[0] += 1
            v = rng.randint(0, 65535)
            return f"HR {reg[0]}  0x{v:04X}  {v:>5}  {rng.choice(REGS)}"

        head = [f"connect {args.get('host', 'sub-skr-pc01')}:502 unit={args.get('unit', 1)} ok "
                f"({rng.randint(3, 40)} ms)", "register  raw     dec    name"]
        return _fill(rng, head, line, target, [f"read {args.get('count', 40)} registers, 0 exceptions"], embed)

    def opcua(self, args: dict[str, Any], target: int, embed: list[str] | None = None) -> str:
        rng = self.rng

        def line() -> str:
            tur = _turbine(rng).replace("-", ".")
            tag = rng.choice(("Nacelle.Temp", "Rotor.Speed", "Grid.P", "Grid.Q", "Yaw.Position", "Gear.OilTemp",
                              "Conv.DcLink", "Hub.Temp", "Met.WindSpeed"))
            return (f"ns=2;s={tur}.{tag:<16} Double  {rng.uniform(-20, 900):9.2f}  "
                    f"{rng.choice(('Good', 'Good', 'Good', 'Uncertain', 'Bad_NoCommunication'))}  {_clock(rng)}:"
                    f"{rng.randint(10, 59)}Z")

        head = [f"opc.tcp://{_ip(rng)}:4840  SecurityMode=SignAndEncrypt  session ok", "node                         "
                "           type    value      status  source time"]
        return _fill(rng, head, line, target, ["browse complete"], embed)

    # influx
    def series(self, args: dict[str, Any], target: int, embed: list[str] | None = None) -> str:
        rng = self.rng
        tur = args.get("turbine") or _turbine(rng)
        ts = [1731542400 + rng.randint(0, 900000)]

        def line() -> str:
            ts[0] += 600
            return (f",_result,0,{ts[0]},{rng.uniform(0, 8100):.1f},active_power_kw,{tur},"
                    f"{rng.uniform(1, 22):.2f},{rng.randint(0, 359)}")

        head = ["#datatype,string,long,dateTime:RFC3339,double,string,string,double,long",
                ",result,table,_time,_value,_field,turbine,wind_speed_ms,wind_dir_deg"]
        return _fill(rng, head, line, target, [], embed)

    def curve(self, args: dict[str, Any], target: int, embed: list[str] | None = None) -> str:
        rng = self.rng
        ws = [rng.choice((0.0, 2.5))]

        def line() -> str:
            ws[0] += 0.5
            p = 0 if ws[0] < 3 else min(8000, 8000 * ((ws[0] - 3) / 9) ** 2)
            return (f"{ws[0]:5.2f}  {rng.randint(20, 900):>5}  {p * rng.uniform(0.96, 1.04):8.1f}  "
                    f"{rng.uniform(10, 300):6.1f}  {rng.uniform(0.2, 0.49):.3f}  {rng.uniform(1.18, 1.27):.3f}")

        head = [f"power curve {args.get('turbine') or _turbine(rng)}  bins=0.5 m/s  density-corrected",
                "ws_bin      n   mean_kw  std_kw     cp    rho"]
        return _fill(rng, head, line, target, [f"AEP estimate {rng.uniform(20, 38):.1f} GWh/yr"], embed)

    # read_file
    def source(self, args: dict[str, Any], target: int, embed: list[str] | None = None) -> str:
        rng = self.rng
        path = args.get("path", "")
        if path.endswith(".rs"):
            snippets = ("    let mut regs = [0u16; {n}];", "    tracing::debug!(unit = {n}, \"poll\");",
                        "    if retries > {n} {{ return Err(GwError::Timeout); }}", "fn decode_u32_be(w: &[u16]) -> u32 {{",
                        "    ((w[0] as u32) << 16) | w[1] as u32", "}}", "",
                        "    let frame = self.link.read_holding({n}, 2).await?;", "impl Poller {{",
                        "    pub async fn tick(&mut self) -> Result<(), GwError> {{", "#[derive(Debug, Clone)]",
                        "    tokio::time::sleep(Duration::from_millis({n})).await;", "    // TODO: word order per OEM")
        elif path.endswith(".py"):
            snippets = ("def bin_power(df: pd.DataFrame, width: float = 0.5) -> pd.DataFrame:",
                        "    df = df[df[\"ws\"].between(0, {n})]", "    return df.groupby(\"bin\").agg(mean_kw=(\"p\", "
                        "\"mean\"))", "", "import pandas as pd", "    log.info(\"rows=%d\", len(df))",
                        "    if df.empty:", "        raise ValueError(\"no SCADA rows\")",
                        "    df[\"rho\"] = 1.225 * (288.15 / (df[\"t_amb\"] + 273.15))",
                        "class AvailabilityCalc:", "    STOP_CODES = {{7002, 7005, {n}}}", "    # keep UTC, never local")
        else:
            snippets = ("- name: ensure opcua-bridge is running", "  ansible.builtin.systemd:", "    name: opcua-bridge",
                        "    state: started", "  become: true", "ntp_servers:", "  - 10.41.0.{n}", "",
                        "site: SKR", "poll_ms: {n}", "  when: inventory_hostname in groups['substations']",
                        "- hosts: substations")
        n = [0]

        def line() -> str:
            n[0] += 1
            return f"{n[0]:>4}  " + rng.choice(snippets).format(n=rng.randint(2, 900))

        return _fill(rng, [f"# {path}"], line, target, [], embed)

    # edit_file
    def diff(self, args: dict[str, Any], target: int, embed: list[str] | None = None) -> str:
        rng = self.rng
        path = args.get("path", "")
        a = rng.randint(10, 400)

        def line() -> str:
            return rng.choice(("+", "-", " ", " ")) + rng.choice(("    poll_ms = {n}", "    retries: {n}",
                                                               "    timeout = Duration::from_millis({n});",
                                                               "    df = df.dropna(subset=[\"ws\"])",
                                                               "  - sub-skr-pc0{n}", "    # {n} per OEM map",
                                                               "    max_batch = {n}")).format(n=rng.randint(1, 9))

        head = [f"edited {path}", f"--- a/{path}", f"+++ b/{path}", f"@@ -{a},7 +{a},9 @@"]
        return _fill(rng, head, line, min(target, 1400), [f"1 file changed, {rng.randint(1, 9)} insertions(+), "
                                                          f"{rng.randint(0, 5)} deletions(-)"], embed)

    # shell
    def pytest(self, args: dict[str, Any], target: int, embed: list[str] | None = None, ok: bool = True) -> str:
        rng = self.rng
        head = ["============================= test session starts ==============================",
                "platform linux -- Python 3.11.9, pytest-8.2.2, pluggy-1.5.0",
                "rootdir: /srv/analytics", "plugins: cov-5.0.0, xdist-3.6.1", f"collected {rng.randint(80, 400)} items", ""]

        def line() -> str:
            mod = rng.choice(PY_TESTS)
            return f"tests/{mod}.py::test_{rng.choice(PY_FUNCS)} PASSED{' ' * rng.randint(1, 30)}[{rng.randint(1, 99):>3}%]"

        n = rng.randint(80, 400)
        if embed:
            tail = ["", "=========================== short test summary info ============================",
                    f"========== 1 failed, {n} passed, {rng.randint(0, 4)} warnings in {rng.uniform(3, 40):.2f}s =========="]
        else:
            tail = [f"========== {n} passed, {rng.randint(0, 4)} warnings in {rng.uniform(3, 40):.2f}s =========="]
        body = _fill(rng, head, line, target - 120 if embed else target, [], None)
        if embed:
            return body + "\n" + tail[0] + "\n" + tail[1] + "\n" + "\n".join(embed) + "\n" + tail[2]
        return body + "\n" + tail[0]

    def journal(self, args: dict[str, Any], target: int, embed: list[str] | None = None) -> str:
        rng = self.rng
        host = args.get("host") or f"edge-{rng.choice(SITE_CODES).lower()}-0{rng.randint(1, 9)}"
        day = _day(rng)
        t = [rng.randint(0, 80000)]

        def line() -> str:
            t[0] += rng.randint(1, 120)
            s = t[0] % 86400
            msg = rng.choice(("INFO modbus: poll cycle {n} ms, 0 timeouts", "INFO opcua: subscription renewed id={n}",
                              "WARN modbus: slow response from unit {n}", "INFO buffer: flushed {n} points to influx",
                              "INFO ppc: setpoint P={n} kW acked", "DEBUG tls: session resumed",
                              "WARN influx: write retry {n}/5 (503)", "INFO health: cpu {n} % mem 41 %"))
            return (f"{day}T{s // 3600:02d}:{s // 60 % 60:02d}:{s % 60:02d}Z {host} edgegw[{rng.randint(900, 1200)}]: "
                    + msg.format(n=rng.randint(1, 999)))

        return _fill(rng, [f"-- Logs begin at {day} 00:00:01 UTC --"], line, target, [], embed)

    def grep(self, args: dict[str, Any], target: int, embed: list[str] | None = None) -> str:
        rng = self.rng

        def line() -> str:
            f = rng.choice(FILLER_FILES)
            return f"{f}:{rng.randint(1, 400)}: " + rng.choice(("poll_ms = {n}", "timeout_s: {n}", "# port {n}",
                                                                 "STOP_CODES = {{7002, 7005}}", "retries={n}",
                                                                 "logger.warning(\"slow unit %s\", {n})",
                                                                 "site: SKR  # {n} WTG")).format(n=rng.randint(2, 9000))

        return _fill(rng, [], line, target, [], embed)

    def gitlog(self, args: dict[str, Any], target: int, embed: list[str] | None = None) -> str:
        rng = self.rng

        def line() -> str:
            return (f"{rng.getrandbits(28):07x} {_day(rng)} {rng.choice(FIRST):<8} "
                    + rng.choice(("modbus: retry on timeout", "analytics: fix NaN bins", "ansible: ntp servers",
                                  "opcua: renew subscriptions", "curtail: schedule parser", "ci: cache cargo",
                                  "powercurve: air density", "docs: runbook typo", "buffer: flush on reconnect")))

        return _fill(rng, [], line, target, [], embed)

    # cargo
    def cargo(self, args: dict[str, Any], target: int, embed: list[str] | None = None) -> str:
        rng = self.rng
        mode = args.get("cmd", "test")
        head = [f"   Compiling {c}" for c in rng.sample(CRATES, rng.randint(3, 9))]
        head.append(f"   Compiling edgegw v0.1{rng.randint(1, 3)}.{rng.randint(0, 9)} (/srv/edgegw)")

        def warn() -> str:
            return rng.choice((f"warning: unused variable: `tmp{rng.randint(1, 9)}`",
                               f"   --> src/{rng.choice(('modbus', 'opcua', 'buffer'))}.rs:{rng.randint(10, 400)}:9",
                               "    |", "    = note: `#[warn(unused_variables)]` on by default",
                               f"warning: field `raw{rng.randint(1, 9)}` is never read"))

        if embed:
            tail = [f"error: could not compile `edgegw` (bin \"edgegw\") due to 1 previous error; "
                    f"{rng.randint(0, 4)} warnings emitted"]
            return _fill(rng, head, warn, target, tail, embed)
        profile = "release" if mode == "build" else "bench" if mode == "bench" else "test"
        fin = f"    Finished `{profile}` profile [optimized] target(s) in {rng.uniform(8, 90):.2f}s"
        if mode == "build":
            return _fill(rng, head, warn, target, [fin], None)
        head.append(fin)
        head.append(f"     Running unittests src/main.rs (target/debug/deps/edgegw-{rng.getrandbits(60):015x})")
        if mode == "test":
            def line() -> str:
                return f"test {rng.choice(RUST_TESTS)}_{rng.randint(1, 40)} ... ok"

            n = rng.randint(40, 200)
            return _fill(rng, head, line, target, ["", f"test result: ok. {n} passed; 0 failed; 1 ignored; 0 measured;"
                                                   f" 0 filtered out; finished in {rng.uniform(0.2, 9):.2f}s"], None)

        def bench() -> str:
            return (f"{rng.choice(('decode_u32_be', 'encode_frame', 'crc16', 'ring_push', 'flush_batch')):<16} "
                    f"time:   [{rng.uniform(1, 80):.3f} µs {rng.uniform(1, 80):.3f} µs {rng.uniform(1, 80):.3f} µs]")

        return _fill(rng, head, bench, target, [], embed)

    # ansible
    def ansible(self, args: dict[str, Any], target: int, embed: list[str] | None = None) -> str:
        rng = self.rng
        hosts = [f"sub-{s.lower()}-pc0{i}" for s in SITE_CODES for i in (1, 2)]
        book = args.get("playbook", "site.yml")
        head = [f"PLAY [{book.removesuffix('.yml')} on substations] " + "*" * 40, ""]

        def line() -> str:
            task = rng.choice(("Gathering Facts", "ensure chrony config", "template opcua-bridge.toml",
                               "restart opcua-bridge", "copy CA bundle", "ensure firewall rule 4840/tcp",
                               "install edgegw .deb", "check disk space"))
            out = [f"TASK [{task}] " + "*" * 50]
            for h in rng.sample(hosts, rng.randint(2, 5)):
                out.append(f"{rng.choice(('ok', 'ok', 'changed', 'skipping'))}: [{h}]")
            return "\n".join(out + [""])

        tail = ["PLAY RECAP " + "*" * 60] + [
            f"{h:<24}: ok={rng.randint(4, 20)}  changed={rng.randint(0, 5)}  unreachable=0  "
            f"failed={1 if embed and h == args.get('limit') else 0}  skipped={rng.randint(0, 3)}"
            for h in sorted(set(hosts[:4] + [args.get("limit", hosts[0])]))]
        return _fill(rng, head, line, target, tail, embed)

    # cmms
    def workorders(self, args: dict[str, Any], target: int, embed: list[str] | None = None) -> str:
        rng = self.rng
        site = args.get("site", "SKR")

        def line() -> str:
            return json.dumps({"wo": _wo(rng), "asset": _turbine(rng, site), "type": rng.choice(
                ("corrective", "preventive", "inspection")), "status": rng.choice(("OPEN", "WAPPR", "INPRG", "COMP")),
                "prio": rng.randint(1, 4), "due": _day(rng), "crew": rng.choice(FIRST),
                "text": rng.choice(("replace pitch accu", "yaw brake pads", "gear oil sample", "converter fan",
                                    "annual service", "blade inspection", "anemometer swap"))}, ensure_ascii=False)

        return _fill(rng, [f"GET /api/wo?site={site}&status=open  200 OK", "["], line, target, ["]"], embed)

    # forecast
    def forecast(self, args: dict[str, Any], target: int, embed: list[str] | None = None) -> str:
        rng = self.rng
        h = [rng.randint(0, 12)]
        day = _day(rng)

        def line() -> str:
            h[0] += 1
            return (f'  {{"t": "{day}T{h[0] % 24:02d}:00Z", "ws100": {rng.uniform(2, 24):.1f}, "wd100": '
                    f'{rng.randint(0, 359)}, "gust": {rng.uniform(4, 31):.1f}, "hs": {rng.uniform(0.3, 3.4):.1f}, '
                    f'"t2m": {rng.uniform(-6, 12):.1f}}},')

        head = ["{", f'"site": "{args.get("site", "SKR")}", "model": "{args.get("model", "harmonie-dk")}", '
                f'"issued": "{day}T{rng.choice(("00", "06", "12", "18"))}:00Z",', '"hours": [']
        return _fill(rng, head, line, target, ["]}"], embed)


# --- what people say ---------------------------------------------------------------------------------------------

SHORT = ("ok", "kør", "fint", "go", "ja tak", "ok, videre", "sounds good", "perfekt", "hmm ok", "yes do it", "jep",
         "ok men hurtigt", "fedt, tak", "nice", "ok 👍", "kør bare", "fint nok", "ja", "do it", "ok så gør vi det")
LEADS = ("", "", "", "morn – ", "ok ", "hey, ", "så, ", "næste: ", "quick one: ", "sorry, one more: ", "btw ",
         "hej igen. ", "ok so ")
REQUESTS: dict[str, tuple[str, ...]] = {
    "scada_query": ("kan du trække alarmloggen for {site} fra i nat?", "check {tur} – kontrolrummet siger den har "
                    "tripped siden {clock}", "any converter trips on {site} in the last 24h?", "hvordan ser {site} "
                    "ud lige nu, park status?", "{who} asks why {tur} keeps pausing, can you look at the alarms"),
    "modbus_read": ("læs holding registers på {host}, start 40001, 40 stk", "what does the PPC on {host} report right "
                    "now?", "kan du browse OPC UA på {site} og se om tags er Good?", "read the status word from {host}"),
    "influx": ("giv mig power curve for {tur} de sidste {n} dage", "hvad var availability på {site} i sidste uge?",
               "pull 10-min data for {tur} since {clock} yesterday", "compare {tur} against its neighbours in Influx"),
    "read_file": ("vis mig {path}", "hvad står der i {path}?", "open {path}, I want to see the retry logic",
                  "can you read {path} before we change anything"),
    "edit_file": ("change the poll default in {path} to {n}00 ms", "ret timeout i {path}, det er for lavt",
                  "bump the retries in {path} to {n}", "fix the comment in {path}, it's wrong"),
    "shell": ("kør analytics-testene", "tail the edgegw log on {host}", "git log på analytics, hvad er gået ind?",
              "grep for poll_ms across the repo", "run the tests again please", "check disk on {host}"),
    "cargo": ("build edgegw", "kør gateway-testene", "cargo test on the gateway please", "run the bench on edgegw"),
    "ansible": ("run the opcua bridge playbook against {site} in check mode", "push ntp config til substation PCs",
                "kør hardening.yml mod {host}, check mode først", "deploy edgegw to {host} (staging)"),
    "cmms": ("list åbne WOs for {site}", "what's the status on {wo}?", "any open corrective WOs on {tur}?",
             "hvem har {wo}?"),
    "forecast": ("hvordan ser vinden ud for {site} de næste 48 timer?", "can we get a CTV out thursday? check Hs",
                 "forecast for {site}, I need the gusts", "icing risk for {site} this week?"),
}
SAYS: dict[str, tuple[str, ...]] = {
    "scada_query": ("Pulling the alarm history first.", "Jeg kigger i SCADA-loggen.", "", "Checking the park status."),
    "modbus_read": ("Reading the registers directly.", "", "Let me read it off the controller.", "Browsing the tags."),
    "influx": ("Querying Influx.", "", "Henter 10-min data.", "Let me pull the series."),
    "read_file": ("Let me read the file first.", "", "Opening it.", "Jeg læser filen."),
    "edit_file": ("Making the change.", "", "Editing now.", "Small edit, here goes."),
    "shell": ("Running it.", "", "Kører den.", "Let me check on the box."),
    "cargo": ("Building.", "", "Running the gateway tests.", "cargo it is."),
    "ansible": ("Check mode first.", "", "Running the playbook.", "Kører playbooken."),
    "cmms": ("Looking it up in the CMMS.", "", "Checking CMMS.", "Slår op i CMMS."),
    "forecast": ("Fetching the latest run.", "", "Henter prognosen.", "Pulling the forecast."),
}
WEIGHT = {"scada_query": 1.0, "modbus_read": 0.8, "influx": 1.0, "read_file": 1.3, "edit_file": 0.3, "shell": 1.0,
          "cargo": 0.9, "ansible": 0.9, "cmms": 0.7, "forecast": 0.8}
OPENERS: dict[str, tuple[str, ...]] = {
    "scada_query": ("The alarm log is mostly noise.", "Park looks mostly healthy.", "Alarmloggen er ret rolig.",
                    "Found the pattern in the alarm log."),
    "modbus_read": ("The controller answers fine.", "Registers read cleanly.", "Tags are mostly Good."),
    "influx": ("The curve looks reasonable.", "Data is complete for the window.", "Kurven ser fornuftig ud."),
    "read_file": ("Here's what the file does.", "The logic is simpler than I thought.", "Filen er kort."),
    "edit_file": ("Change is in.", "Edited.", "Rettet."),
    "shell": ("Tests are green.", "The log is quiet.", "Nothing alarming on the box.", "Done."),
    "cargo": ("Gateway builds and the tests pass.", "Build is clean.", "Alt grønt på edgegw."),
    "ansible": ("Playbook ran without failures.", "Check mode shows a small diff.", "Ansible is happy."),
    "cmms": ("CMMS is up to date.", "Found the work orders.", "Der er et par åbne WOs."),
    "forecast": ("The forecast is mixed.", "Looks like a weather window.", "Prognosen er blæsende."),
}


def _fmt(rng: random.Random, text: str) -> str:
    site = rng.choice(SITE_CODES)
    return text.format(site=site, tur=_turbine(rng, site), host=_host(rng), clock=_clock(rng),
                       path=rng.choice(FILLER_FILES), n=rng.randint(2, 9), wo=_wo(rng), who=rng.choice(FIRST))


def _number_sentence(rng: random.Random) -> str:
    return rng.choice((
        f"{rng.randint(3, 60)} events since {_clock(rng)}, {rng.randint(1, 9)} of them on {_turbine(rng)}.",
        f"Availability is {rng.uniform(91, 99.6):.1f} % over the window, lost production about "
        f"{rng.randint(5, 400)} MWh.",
        f"Mean wind {rng.uniform(5, 14):.1f} m/s, output {rng.randint(20, 520)} MW at {_clock(rng)}.",
        f"Det tog {rng.randint(2, 90)} s og rørte {rng.randint(1, 12)} hosts.",
        f"{rng.randint(40, 400)} tests, {rng.uniform(3, 40):.1f}s, see `{rng.choice(FILLER_FILES)}:{rng.randint(10, 400)}`.",
        f"Port 4840 answers on {_ip(rng)}, round trip {rng.randint(2, 80)} ms.",
        f"Gear oil at {rng.uniform(45, 72):.1f} °C on {_turbine(rng)}, which is normal for {rng.randint(6, 14)} m/s.",
    ))


def _extra(rng: random.Random, todo: list[list[Any]]) -> str:
    r = rng.random()
    if r < 0.18:
        for item in todo:
            if not item[1] and rng.random() < 0.4:
                item[1] = True
        if rng.random() < 0.3 or all(i[1] for i in todo):
            todo.append([rng.choice(("check {tur} yaw brake", "send {who} the alarm export", "ansible check on {host}",
                                     "close {wo} when the crew reports", "rerun power curve for {tur}",
                                     "review curtailment schedule {site}")), False])
            todo[-1][0] = _fmt(rng, todo[-1][0])
        del todo[:-8]
        return "\n\nTodo:\n" + "\n".join(f"- [{'x' if d else ' '}] {t}" for t, d in todo)
    if r < 0.32:
        return ("\n\nOptions:\n1. " + rng.choice(("reset remotely and watch it", "send a crew on the next CTV",
                                                  "leave it paused until the weekend")) +
                "\n2. " + rng.choice(("derate to 80 % and monitor", "raise it with the OEM", "dig into the logs first"))
                + "\nI'd go with " + rng.choice(("1", "2")) + ", but your call.")
    if r < 0.42:
        rows = "\n".join(f"| {_turbine(rng)} | {rng.randint(0, 14)} | {_clock(rng)} | {rng.uniform(85, 100):.1f} % |"
                         for _ in range(rng.randint(3, 7)))
        return "\n\n| turbine | alarms | last | avail |\n|---|---|---|---|\n" + rows
    if r < 0.5:
        return "\n\nWant me to " + rng.choice(("open a WO for it?", "ping the control room?", "run it for the other "
                                               "sites too?", "write this up for the morning meeting?")) + ""
    if r < 0.56:
        return f"\n\n> {_fmt(rng, rng.choice(('{who}: is {tur} back?', '{who}: kan I kigge på {site} i dag?')))}" \
               f"\nAnswering that one too: yes, since {_clock(rng)}."
    return ""


def _doc(rng: random.Random, kind: str) -> str:
    """A document the user pastes: imperatives that are not theirs, numbers and references."""
    site = rng.choice(SITES)
    day, n = _day(rng), rng.randint(100, 999)
    if kind == "tso":
        return (f"From: Kontrolcenter El <kc-el@tso.example>\nSubject: Curtailment instruction TSO-INS-{n}{rng.randint(10, 99)}"
                f" – {site[1]}\nDate: {day} {_clock(rng)}\n\nDear operator,\nDue to congestion on the 150 kV line "
                f"{rng.choice(('EDR-BLA', 'LYK-IDU', 'VKE-HOR'))} you are instructed to limit the active power of "
                f"{site[1]} to {rng.randint(30, 300)} MW from {_clock(rng)} to {_clock(rng)} CET.\nPlease confirm "
                "receipt within 15 minutes.\nDo not exceed the setpoint by more than 2 % for longer than 60 s.\nRamp "
                "back to available power at no more than 10 % Pn per minute after the period.\nRegards, duty engineer")
    if kind == "bulletin":
        return (f"SERVICE BULLETIN SB-{n}-{rng.randint(1, 4)} Rev {rng.choice('ABC')}\nSubject: Pitch bearing bolt "
                f"preload, platform {rng.choice(('V-8', 'SG-8.0', 'V-4.2'))}\nApplicability: serials "
                f"{rng.randint(100, 900)}xxx\n1. Inspect all pitch bearing bolts at the next scheduled service.\n2. "
                f"Torque to {rng.randint(12, 19) * 100} Nm in three passes.\n3. Do not operate above 90 % rated power "
                "until the inspection is completed.\nReport findings to your service partner within 30 days.")
    if kind == "loto":
        return (f"HSE-PROC-{n} Lockout/Tagout and work at height (extract)\n4.1 Stop the turbine from the HMI and set "
                "SERVICE mode.\n4.2 Open and lock the main breaker; apply your personal lock and tag.\n4.3 Verify zero "
                "energy on the pitch accumulators before entering the hub.\n4.4 Never enter the hub without the rotor "
                "lock engaged.\n4.5 Always wear a full harness above 2 m and clip in twin lanyards.\n"
                "4.6 Do not work alone in the nacelle.")
    if kind == "vessel":
        v = rng.choice(VESSELS)
        return (f"Hi all,\nCTV schedule week {rng.randint(45, 52)}: {v} {site[0]} Mon–Wed {_clock(rng)}–{_clock(rng)}, "
                f"{rng.choice(VESSELS)} standby Thu.\nPlease be on the quay 30 min before departure.\nDo not bring "
                f"unregistered equipment on board; send the cargo list to the marine coordinator by {_clock(rng)}.\n"
                f"Weather limit for transfers per vessel master.\nBR {rng.choice(FIRST)}, Marine Coordination")
    if kind == "insurer":
        return (f"Survey remark R-{n}/{rng.randint(10, 99)} ({site[1]})\nObservation: blade inspection records for "
                f"{rng.randint(3, 12)} turbines were incomplete.\nRecommendation: The operator should keep complete "
                "inspection records including photos. Please provide evidence of corrective action within 60 days.\n"
                "Do not resume reduced-deductible cover until evidence is received.")
    if kind == "teams":
        t = _turbine(rng, site[0])
        return (f"[{_clock(rng)}] {rng.choice(PEOPLE)}: {t} tripped igen på 4402\n[{_clock(rng)}] Jonas Brandt: Ich "
                "schaue mir die Umrichter-Logs an. Bitte nicht zurücksetzen, bis ich fertig bin.\n"
                f"[{_clock(rng)}] {rng.choice(PEOPLE)}: ok. Ring til vagten hvis den går igen\n[{_clock(rng)}] "
                f"Katrin Vogel: Bitte schickt mir die Trendkurven von heute Nacht.")
    return (f"Grid code excerpt, section 5.{rng.randint(2, 9)}.{rng.randint(1, 9)}\nThe wind power plant shall be "
            "capable of controlling reactive power at the point of connection.\nThe plant shall respond to a setpoint "
            f"change within {rng.randint(2, 10)} s and settle within 30 s.\nDo not apply setpoints to individual "
            "generating units unless instructed by the TSO.\nLogs of all setpoint changes shall be kept for 5 years.")


PASTE_KINDS = ("tso", "bulletin", "loto", "vessel", "insurer", "teams", "gridcode")
PASTE_INTRO = ("se lige den her:", "fik lige den her fra {who}:", "FYI, pasted below:", "from the control room:",
               "hvad siger du til det her?", "kom lige ind:", "can you make sense of this:")
PASTE_AFTER = ("Skal vi gøre noget ved det i dag?", "Just so you know, no action yet.", "hvad betyder det for os?",
               "I'll deal with it, just keep it in mind.", "Kig på det når du har tid.")

SYSTEM = """You are the ops agent of a wind-farm operator's control & operations team in Esbjerg. You work on the
fleet's data and control software with the team's engineers: SCADA alarm history, Modbus and OPC UA reads from the
substation PCs, the Python analytics service (pandas, pytest), InfluxDB/Grafana, the Rust edge gateway (edgegw),
the Ansible repo for the substation PCs, curtailment schedules, weather forecasts and CMMS work orders.

Sites: SKR Skarv Rev (offshore, 72 WTG), FNB Fanø Banke (offshore, 48), TJH Tjæreborg Hede (onshore, 14),
VDM Vedersø Mark (onshore, 9), RKS Ringkøbing Syd (onshore, 22). Turbines are named SITE-ROWNN.

Tools: scada_query (alarm history, park status), modbus_read (registers, OPC UA browse), influx (Flux queries),
read_file, edit_file, shell (on the ops box; ssh to hosts), cargo (edgegw), ansible (playbooks against the
substation PCs), cmms (work orders), forecast (met forecasts per site).

Safety first: never write setpoints or reset alarms on a live turbine unless the engineer asks you to. Answer in
the engineer's language. Keep numbers exact, say which turbine and which time (UTC) you mean."""


# --- building the conversation -------------------------------------------------------------------------------------


@dataclass
class _Event:
    """A turn with a fixed length whose carrier sits ``offset`` messages after its start."""

    what: str  # fact, stale, resolve, paste
    target: float
    length: int
    offset: int = 0
    spec: _Spec | None = None
    start: int = -1
    extra: dict[str, Any] | None = None


class _Builder:
    def __init__(self, rng: random.Random, n: int) -> None:
        self.rng = rng
        self.n = n
        self.msgs: list[Message] = [{"role": "system", "content": SYSTEM}]
        self.renders: list[tuple[int, float, Render]] = []
        self.tools = _Tools(rng)
        self.unused = list(TOOLS)
        self.ids = 0
        self.pasted: list[tuple[int, str]] = []
        self.todo: list[list[Any]] = [["pull overnight alarms SKR", False], ["edgegw 0.13 release notes", False]]
        self.last_tool = "scada_query"
        self.pending_paste: str | None = None
        self.req_tool: str | None = None
        self.plain_steps: list[int] = []

    # messages
    def user(self, text: str) -> int:
        self.msgs.append({"role": "user", "content": text})
        return len(self.msgs) - 1

    def answer(self, text: str) -> int:
        self.msgs.append({"role": "assistant", "content": text})
        return len(self.msgs) - 1

    def call(self, calls: list[tuple[str, dict[str, Any]]], say: str = "") -> list[str]:
        ids = []
        out = []
        for name, args in calls:
            self.ids += 1
            cid = f"call_{self.ids:05d}_{self.rng.getrandbits(24):06x}"
            ids.append(cid)
            out.append({"id": cid, "type": "function",
                        "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)}})
            if name in self.unused:
                self.unused.remove(name)
        self.msgs.append({"role": "assistant", "content": say, "tool_calls": out})
        return ids

    def result(self, cid: str, name: str, render: Render, weight: float) -> int:
        self.msgs.append({"role": "tool", "tool_call_id": cid, "name": name, "content": ""})
        index = len(self.msgs) - 1
        self.renders.append((index, weight * self.rng.uniform(0.4, 1.7), render))
        return index

    def fixed(self, cid: str, name: str, text: str) -> int:
        self.msgs.append({"role": "tool", "tool_call_id": cid, "name": name, "content": text})
        return len(self.msgs) - 1

    # filler
    def pick(self) -> str:
        if self.unused:
            return self.rng.choice(self.unused)
        return self.rng.choices(TOOLS, weights=(10, 5, 8, 7, 4, 10, 6, 5, 5, 4))[0]

    def filler_call(self, tool: str) -> tuple[dict[str, Any], Callable[..., str]]:
        rng, t = self.rng, self.tools
        site = rng.choice(SITE_CODES)
        if tool == "scada_query":
            args: dict[str, Any] = {"site": site, "kind": rng.choice(("alarms", "alarms", "status")),
                                    "hours": rng.choice((6, 12, 24, 48))}
            fn = t.alarms if args["kind"] == "alarms" else t.status
        elif tool == "modbus_read":
            if rng.random() < 0.6:
                args = {"host": _host(rng), "unit": rng.randint(1, 4), "start": 40001 + rng.randint(0, 40) * 10,
                        "count": rng.choice((20, 40, 64))}
                fn = t.registers
            else:
                args = {"endpoint": f"opc.tcp://{_ip(rng)}:4840", "browse": f"Objects/{site}"}
                fn = t.opcua
        elif tool == "influx":
            tur = _turbine(rng, site)
            q = rng.random() < 0.5
            args = {"query": f'from(bucket:"scada_10min") |> range(start: -{rng.randint(2, 30)}d) |> filter(fn: (r) => '
                    f'r.turbine == "{tur}")' + (' |> powercurve(bin: 0.5)' if q else ""), "turbine": tur}
            fn = t.curve if q else t.series
        elif tool == "read_file":
            args = {"path": rng.choice(FILLER_FILES)}
            fn = t.source
        elif tool == "edit_file":
            path = rng.choice(FILLER_FILES)
            args = {"path": path, "old": f"poll_ms = {rng.randint(2, 9)}00", "new": f"poll_ms = {rng.randint(2, 9)}50"}
            fn = t.diff
        elif tool == "shell":
            r = rng.random()
            if r < 0.4:
                args = {"cmd": "cd analytics && pytest -q"}
                fn = t.pytest
            elif r < 0.65:
                host = f"edge-{site.lower()}-0{rng.randint(1, 9)}"
                args = {"cmd": f"ssh {host} journalctl -u edgegw --since -{rng.randint(1, 12)}h --no-pager",
                        "host": host}
                fn = t.journal
            elif r < 0.85:
                args = {"cmd": f"grep -rn {rng.choice(('poll_ms', 'timeout', 'STOP_CODES', 'retries'))} ."}
                fn = t.grep
            else:
                args = {"cmd": "git log --oneline --since=2.weeks"}
                fn = t.gitlog
        elif tool == "cargo":
            r = rng.random()
            args = {"cmd": "test" if r < 0.6 else ("build" if r < 0.85 else "bench"), "cwd": "edgegw"}
            fn = t.cargo
        elif tool == "ansible":
            args = {"playbook": rng.choice(PLAYBOOKS), "limit": rng.choice(("substations", _host(rng))),
                    "check": rng.random() < 0.6}
            fn = t.ansible
        elif tool == "cmms":
            args = {"action": "list", "site": site, "status": "open"}
            fn = t.workorders
        else:
            args = {"site": site, "model": rng.choice(("harmonie-dk", "ifs-hres", "meps")), "hours": 48}
            fn = t.forecast
        return args, fn

    def filler_render(self, tool: str) -> tuple[dict[str, Any], Render]:
        args, fn = self.filler_call(tool)
        return args, (lambda target: fn(args, target))

    def step(self, tool: str | None = None) -> None:
        tool = tool or self.pick()
        args, render = self.filler_render(tool)
        say = self.rng.choice(SAYS[tool])
        cid = self.call([(tool, args)], say)[0]
        self.result(cid, tool, render, WEIGHT[tool])
        self.plain_steps.append(len(self.msgs) - 2)
        self.last_tool = tool

    def cover(self) -> None:
        """Every tool is used in every session: filler steps of tools used often enough take the missing ones."""
        used: dict[str, int] = {}
        for m in self.msgs:
            for c in m.get("tool_calls") or []:
                used[c["function"]["name"]] = used.get(c["function"]["name"], 0) + 1
        where = {index: i for i, (index, _, _) in enumerate(self.renders)}
        for tool in [t for t in TOOLS if t not in used]:
            for ai in reversed(self.plain_steps):
                call = self.msgs[ai]["tool_calls"][0]["function"]
                if used.get(call["name"], 0) > 1 and ai + 1 in where:
                    used[call["name"]] -= 1
                    used[tool] = 1
                    args, render = self.filler_render(tool)
                    call["name"], call["arguments"] = tool, json.dumps(args, ensure_ascii=False)
                    self.msgs[ai]["content"] = self.rng.choice(SAYS[tool])
                    self.msgs[ai + 1]["name"] = tool
                    self.renders[where[ai + 1]] = (ai + 1, WEIGHT[tool], render)
                    break

    def double(self) -> None:
        a, b = self.pick(), self.pick()
        while b == a:
            b = self.rng.choice(TOOLS)
        (aa, ra), (ab, rb) = self.filler_render(a), self.filler_render(b)
        ids = self.call([(a, aa), (b, ab)], self.rng.choice(("Two things in parallel.", "", "Checking both.")))
        self.result(ids[0], a, ra, WEIGHT[a])
        self.result(ids[1], b, rb, WEIGHT[b])
        self.last_tool = b

    def steps(self, m: int, first: str | None = None) -> None:
        """``m`` messages of filler steps (one call: 2 messages, two calls: 3)."""
        assert m != 1
        while m > 0:
            if m in (2, 3):
                size = m
            elif m == 4:
                size = 2
            else:
                size = 3 if self.rng.random() < 0.2 else 2
            if size == 2:
                self.step(first)
            else:
                self.double()
            first = None
            m -= size

    def request(self, tool: str) -> str:
        rng = self.rng
        text = _fmt(rng, rng.choice(REQUESTS[tool]))
        text = rng.choice(LEADS) + text
        if rng.random() < 0.25:
            text = _typo(rng, text)
        if rng.random() < 0.06:
            quote = f"„{rng.choice(('Könnt ihr bitte die Logs bis morgen früh schicken?', 'Bitte vorher Bescheid geben, wir sind im Umrichter.', 'Die Werte sehen komisch aus, bitte prüfen.'))}“"
            text += f"\n\n{rng.choice(('Jonas', 'Katrin'))} skriver: {quote}"
            self.pending_paste = quote
        return text

    def say_user(self, text: str) -> int:
        i = self.user(text)
        quote = self.pending_paste
        if quote and quote in text:
            self.pasted.append((i, quote))
        self.pending_paste = None
        return i

    def summary(self, tool: str) -> str:
        rng = self.rng
        return rng.choice(OPENERS[tool]) + " " + _number_sentence(rng) + _extra(rng, self.todo)

    def filler_turn(self, length: int) -> None:
        rng = self.rng
        if length == 2:
            self.say_user(rng.choice(SHORT))
            self.answer(rng.choice(("Done – ", "OK. ", "Fint. ", "On it. ")) + _number_sentence(rng)
                        + _extra(rng, self.todo))
            return
        tool = self.pick() if self.unused else rng.choice(TOOLS)
        self.say_user(self.request(tool) if rng.random() < 0.8 else rng.choice(SHORT))
        self.steps(length - 2, tool)
        self.answer(self.summary(self.last_tool))

    def gap(self, size: int) -> None:
        rng = self.rng
        while size > 0:
            if size <= 12 and size != 3 and (size <= 9 or rng.random() < 0.4):
                length = size
            else:
                length = rng.choice((2, 4, 4, 5, 6, 6, 7, 8, 8, 9, 10, 12))
                if size - length in (1, 3) or size - length < 0:
                    length = 4 if size - 4 not in (1, 3) else 5
            self.filler_turn(length)
            size -= length

    def finish(self, total: int) -> None:
        """Scale the tool outputs so that the session holds about ``total`` characters, then render them."""
        have = sum(len(text_of(m)) for m in self.msgs)
        room = max(0, total - have)
        weights = sum(w for _, w, _ in self.renders) or 1.0
        for index, w, render in self.renders:
            self.msgs[index]["content"] = render(max(160, int(room * w / weights)))

    # planted turns
    def event(self, e: _Event) -> None:
        start = len(self.msgs)
        assert start == e.start, (start, e)
        getattr(self, "ev_" + e.what)(e)
        assert len(self.msgs) == start + e.length, (e.what, e.spec and e.spec.kind, len(self.msgs) - start, e.length)

    def ack(self, spec: _Spec, rest: str) -> str:
        rng, v = self.rng, spec.value
        d = spec.data
        if spec.kind == "instruction":
            head = rng.choice((f"Noted – {v}.", f"Understood: {v}. I'll stick to that.", f"Forstået, {v}.",
                               f"Got it, {v} from here on."))
        elif spec.kind == "correction":
            head = rng.choice((f"Got it – {v}, not {spec.stale}. I'll use that from here.",
                               f"OK, {v} then. Sorry for running with the wrong {d['what']}.",
                               f"Rettet: {v}."))
        elif spec.kind == "decision":
            head = rng.choice((f"OK, {v}.", f"Fine – going with {v}.", f"Noteret: {v}."))
        elif spec.kind == "plan":
            head = rng.choice((f"Sounds like a plan. I'll prep the {v} step.", f"Good plan; {v} is the risky bit, "
                               "I'll be careful there.", f"Fint, planen er noteret – {v} inklusive."))
        else:
            head = rng.choice((f"Thanks – {v} noted.", f"Noted {v}, I'll reference it.", f"Noteret: {v}."))
        return head + " " + rest

    def compose(self, sentence: str, style: str) -> str:
        rng = self.rng
        tool = self.pick() if self.unused else rng.choice(TOOLS)
        self.req_tool = tool
        req = self.request(tool)
        if style == "plain":
            return rng.choice(LEADS) + sentence + ". " + req
        if style == "second":
            return req + "\n\n" + rng.choice(("Og ", "Also, ", "btw: ", "", "Oh and ")) + sentence + "."
        status = rng.choice((f"Morgenmødet er overstået, {_turbine(rng)} er stadig nede og {rng.choice(FIRST)} "
                             f"venter på reservedele til {_clock(rng)}.", f"Long night – {rng.choice(SITE_CODES)} had "
                             f"{rng.randint(3, 30)} trips between {_clock(rng)} and {_clock(rng)}, mostly T07.",
                             f"Kontrolrummet har ringet to gange om {rng.choice(SITE_CODES)}, og {rng.choice(FIRST)} "
                             "vil have en status inden frokost."))
        other = rng.choice(("The crew is on the CTV anyway.", "Det haster ikke helt.", "Ingen panik endnu.",
                            "I'm in meetings until 14:00."))
        return f"{status}\n\n{other} {sentence}. {rng.choice(('Okay?', 'ja?', '', 'Makes sense?'))}\n\n{req}"

    def user_fact(self, e: _Event, text: str) -> None:
        spec = e.spec
        assert spec is not None
        spec.index = self.say_user(text)
        self.steps(e.length - 2, self.req_tool)
        self.answer(self.ack(spec, self.summary(self.last_tool)))

    def ev_stale(self, e: _Event) -> None:
        rng = self.rng
        spec = e.spec
        assert spec is not None and spec.stale is not None
        if spec.kind == "correction":
            text = self.compose(spec.data["first"], rng.choice(("plain", "second")))
        else:
            text = rng.choice(("lad os køre med {s} for nu", "let's go with {s} for now", "ok, {s} – vi prøver det"))
            text = self.compose(text.format(s=spec.stale), "plain")
        spec.stale_index = self.say_user(text)
        self.steps(e.length - 2, self.req_tool)
        self.answer(rng.choice((f"OK, {spec.stale}. ", f"Noted ({spec.stale}). ", f"Fint – {spec.stale}. "))
                    + self.summary(self.last_tool))

    def ev_paste(self, e: _Event) -> None:
        rng = self.rng
        assert e.extra is not None
        doc = _doc(rng, e.extra["doc"])
        intro = _fmt(rng, rng.choice(PASTE_INTRO))
        spec = e.spec
        if spec is not None:  # an instruction adopted from the document, in the user's own words
            text = f"{intro}\n\n{doc}\n\n{spec.data['say'][0].upper()}{spec.data['say'][1:]}."
            i = spec.index = self.say_user(text)
        else:
            i = self.user(f"{intro}\n\n{doc}\n\n{rng.choice(PASTE_AFTER)}")
        self.pasted.append((i, doc))
        self.steps(e.length - 2)
        opener = "The key points: " + {"tso": "it limits output for a few hours", "bulletin": "it asks for a bolt "
                                       "inspection at the next service", "loto": "it's the LOTO procedure, nothing new",
                                       "vessel": "it's the CTV schedule for the week", "insurer": "it's a remark we "
                                       "need to answer with evidence", "teams": "the control room wants the converter "
                                       "logs looked at first", "gridcode": "it's the Q control requirement"}[e.extra["doc"]]
        head = self.ack(spec, "") if spec is not None else opener + ". "
        self.answer(head + self.summary(self.last_tool))

    def ev_fact(self, e: _Event) -> None:
        spec = e.spec
        assert spec is not None
        rng = self.rng
        d = spec.data
        kind = spec.kind
        if kind == "instruction":
            say = d["say"]
            self.user_fact(e, self.compose(say, d["style"]))
        elif kind == "correction":
            v, s = spec.value, spec.stale
            if d["near"]:
                line = rng.choice((f"nej vent, det var forkert – det er {v}, ikke {s}",
                                   f"I gave you the wrong {d['what']}: it's {v}",
                                   f"sorry, min fejl – {v}, ikke {s}",
                                   f"hov, {s} var en tastefejl, {v} er den rigtige",
                                   f"wait, scratch that {d['what']} – {v}"))
            else:
                line = rng.choice((f"the other one: {v}", f"nej, den anden – {v}", f"not that one, I meant {v}",
                                   f"det var forkert, det skal være {v}"))
            self.user_fact(e, self.compose(line, d["style"]))
        elif kind == "decision":
            v = spec.value
            if spec.stale:
                line = rng.choice((f"jeg har tænkt over det igen – vi dropper {spec.stale} og går med {v}",
                                   f"change of plan: {v} instead of {spec.stale}",
                                   f"scratch what I said earlier, {v}"))
            else:
                line = rng.choice((f"ok let's go with {v}", f"vi kører med {v}", f"beslutning: {v}",
                                   f"fint, {v} it is", f"we'll do {v}"))
            self.user_fact(e, self.compose(line, rng.choice(("plain", "second"))))
        elif kind == "plan":
            a = _fmt(rng, rng.choice(("check the alarm backlog on {site}", "tell the control room", "update {wo}",
                                      "run the analytics tests", "pull the overnight alarms")))
            b = _fmt(rng, rng.choice(("close the WO", "write it up for {who}", "re-enable the alarms on {site}",
                                      "send the TSO a confirmation")))
            text = rng.choice((f"Plan for tonight: first {a}, then {spec.value}, and only if that's clean, {b}.",
                               f"Planen er: først {a}, så {spec.value}. Hvis det holder, {b}.",
                               f"ok plan:\n1. {a}\n2. {spec.value}\n3. {b}\nlyder det fornuftigt?"))
            spec.index = self.say_user(text)
            self.steps(e.length - 2)
            self.answer(self.ack(spec, self.summary(self.last_tool)))
        elif kind == "identifier" and "say" in d:
            self.user_fact(e, self.compose(d["say"], rng.choice(("plain", "second"))))
        elif kind == "file":
            self.ev_file(e)
        else:
            self.ev_tool_fact(e)

    def ev_file(self, e: _Event) -> None:
        spec = e.spec
        assert spec is not None
        rng, d = self.rng, spec.data
        pre = e.offset - 1
        self.say_user(rng.choice(LEADS) + rng.choice(("write a small {l} module for the {w} logic",
                                                        "kan du lave en ny {l}-fil til {w}?",
                                                        "we need a {l} file for {w}, keep it short"))
                      .format(l=d["lang"], w=d["what"]))
        self.steps(pre)
        body = {"rust": "pub fn check(v: f64) -> bool {\n    v.is_finite() && v >= 0.0\n}\n",
                "python": "def check(df):\n    return df[df[\"ws\"].between(0, 40)]\n",
                "yaml": "- name: ensure unit config\n  ansible.builtin.template:\n    src: unit.toml.j2\n",
                "md": "# Runbook\n\n1. Stop the turbine from the HMI.\n2. Check the alarm log.\n"}[d["lang"]]
        cid = self.call([("edit_file", {"path": spec.value, "create": True, "content": body * rng.randint(2, 6)})],
                        rng.choice(("Writing the new file.", "Creating it.", "")))[0]
        spec.index = len(self.msgs) - 1
        self.fixed(cid, "edit_file", f"created {spec.value} ({rng.randint(8, 60)} lines)")
        self.steps(e.length - e.offset - 3)
        self.answer(rng.choice((f"Wrote {spec.value}. ", f"New file: {spec.value}. ", f"Lagt i {spec.value}. "))
                    + self.summary(self.last_tool))

    def tool_render(self, tool: str, args: dict[str, Any], embed: list[str] | None) -> Render:
        t = self.tools
        if tool == "cargo":
            return lambda n: t.cargo(args, n, embed)
        if tool == "shell" and "pytest" in args["cmd"]:
            return lambda n: t.pytest(args, n, embed)
        if tool == "shell" and "journalctl" in args["cmd"]:
            return lambda n: t.journal(args, n, embed)
        if tool == "shell":
            return lambda n: t.grep(args, n, embed)
        if tool == "ansible":
            return lambda n: t.ansible(args, n, embed)
        if tool == "scada_query":
            return lambda n: t.alarms(args, n, embed)
        if tool == "modbus_read":
            return lambda n: t.registers(args, n, embed)
        if tool == "influx":
            return lambda n: t.curve(args, n, embed)
        if tool == "forecast":
            return lambda n: t.forecast(args, n, embed)
        return lambda n: t.workorders(args, n, embed)

    def ev_tool_fact(self, e: _Event) -> None:
        spec = e.spec
        assert spec is not None
        rng, d, kind = self.rng, spec.data, spec.kind
        tool = d["tool"]
        pre = e.offset - 2
        self.say_user(self.request(tool))
        self.steps(pre)
        if kind == "error":
            args = d["args"]
            embed = [spec.value]
            if tool == "cargo":
                embed += [f"  --> {d['where']}:{rng.randint(20, 300)}:{rng.randint(5, 30)}", "   |",
                          "   = help: consider cloning the value or splitting the borrow"]
            render = self.tool_render(tool, args, embed)
        else:
            args, _ = self.filler_call(tool)
            if tool == "cargo":
                args["cmd"] = "bench"
            if tool == "shell":
                args = {"cmd": "grep -rn ramp_limit ops/ppc/"}
            line = spec.value if kind == "identifier" else d["line"]
            render = self.tool_render(tool, args, [line])
        cid = self.call([(tool, args)], rng.choice(SAYS[tool]))[0]
        spec.index = self.result(cid, tool, render, WEIGHT[tool])
        if kind == "error":
            text = rng.choice((f"It fails:\n\n    {spec.value}\n\n", f"Here's the failure: `{spec.value}`. ",
                               f"Fejlen er:\n{spec.value}\n"))
            text += rng.choice(("I'll look at the cause before touching anything.", "Want me to fix it now?",
                                "That's new since yesterday."))
        elif kind == "finding":
            text = f"Found it: {spec.value} – {d['means']}. " + _number_sentence(rng)
        else:
            text = f"{d['line'].split(':')[0].capitalize()}: {spec.value}. " + _number_sentence(rng)
        self.answer(text + _extra(rng, self.todo))

    def ev_resolve(self, e: _Event) -> None:
        spec = e.spec
        assert spec is not None
        rng, d = self.rng, spec.data
        self.say_user(rng.choice(("kør det igen", "try again now, I fixed the thing", "prøv igen", "rerun it please",
                                  "ok, igen?")))
        self.steps(e.length - 4)
        tool, args = d["tool"], d["args"]
        cid = self.call([(tool, args)], rng.choice(("Same command as before.", "Rerunning.", "")))[0]
        spec.resolved = self.result(cid, tool, self.tool_render(tool, args, None), WEIGHT[tool])
        self.answer(rng.choice(("Passes now – ", "Green this time. ", "Det kører nu. ")) + _number_sentence(rng))


# --- where things go -----------------------------------------------------------------------------------------------


def _plant(rng: random.Random, n: int, k: int) -> tuple[list[_Spec], list[_Event]]:
    values = _Values(rng)
    total = 8 * k
    lo, hi = 0.045, 0.835
    pos = [lo + (hi - lo) * (j + 0.5) / total for j in range(total)]
    spacing = (hi - lo) / total
    for j in range(2, total):
        pos[j] += rng.uniform(-0.3, 0.3) * spacing
    order: list[str] = []
    for _ in range(k):
        block = list(KINDS)
        rng.shuffle(block)
        order += block
    first = order.index("instruction")
    order[0], order[first] = order[first], order[0]
    if k >= 2:
        nxt = order.index("instruction", 1)
        order[1], order[nxt] = order[nxt], order[1]
    for j in (1, 2):
        if j < total and order[j] in ("correction", "decision"):
            swap = next(i for i in range(3, total) if order[i] not in ("correction", "decision", "instruction"))
            order[j], order[swap] = order[swap], order[j]
    floor = (pos[1] if k >= 2 else pos[0]) + 0.02
    n_revised = max(1, k // 3)
    n_resolved = 1 if k == 1 else min(k - 1, max(1, k // 2))
    n_adopted = k // 4
    specs: list[_Spec] = []
    counts = dict.fromkeys(KINDS, 0)
    id_user = rng.random() < 0.5
    for j, kind in enumerate(order):
        c = counts[kind]
        counts[kind] += 1
        if kind == "instruction":
            adopted = 2 <= c < 2 + n_adopted
            d = values.take(_adopted if adopted else _instruction)
            d["style"] = "adopted" if adopted else ("plain", "second", "middle")[c % 3]
        elif kind == "correction":
            d = values.take(_correction)
            d["style"] = rng.choice(("plain", "second", "middle"))
        elif kind == "decision":
            revised = c < n_revised
            d = values.take(lambda r, rv=revised: _decision(r, rv))  # type: ignore[misc]
        elif kind == "plan":
            d = values.take(_plan)
        elif kind == "identifier":
            d = values.take(_identifier_user if (c % 2 == 0) == id_user else _identifier_tool)
        elif kind == "finding":
            d = values.take(_finding)
            d["line"] = {"modbus_read": f"HR 40{rng.randint(100, 999)}  0x{rng.getrandbits(16):04X}  "
                                        f"{d['value']}", "influx": f"{d['value']}  (n={rng.randint(200, 4000)})",
                         "shell": f"ops/ppc/{rng.choice(SITE_CODES).lower()}.yaml:{rng.randint(5, 90)}: {d['value']}",
                         "cargo": f"{d['value']}  (+/- {rng.uniform(0.1, 3):.2f})",
                         "forecast": f'"summary": "{d["value"]}",'}.get(d["tool"], d["value"])
        elif kind == "error":
            d = values.take(_error)
        else:
            d = values.take(_file)
            d["what"] = d["query"].split(" for ", 1)[1]
        specs.append(_Spec(kind=kind, value=d["value"], query=d["query"], data=d, stale=d.get("stale"),
                           target=pos[j]))
    # event lengths: short turns while facts are dense, longer ones when there is room
    n_paste = max(1, round(n / 120))
    n_events = total + k + n_revised + n_resolved + n_paste
    roomy = 0.6 * 0.8 * n / n_events >= 5

    def length(kind: str) -> tuple[int, int]:
        if not roomy:
            if kind in ("error", "finding", "identifier-tool", "file"):
                return 4, 2 if kind != "file" else 1
            return rng.choice((2, 4)), 0
        if kind in ("error", "finding", "identifier-tool"):
            pre = rng.choice((0, 0, 2, 2, 3, 4))
            return 4 + pre, 2 + pre
        if kind == "file":
            pre, post = rng.choice((0, 2, 3)), rng.choice((0, 2))
            return 4 + pre + post, 1 + pre
        return rng.choice((4, 4, 5, 6, 6, 7, 8)), 0

    events: list[_Event] = []
    for s in specs:
        key = s.kind + ("-tool" if s.kind == "identifier" and "tool" in s.data else "")
        if s.kind == "instruction" and s.data["style"] == "adopted":
            events.append(_Event("paste", s.target, rng.choice((2, 4) if not roomy else (4, 6)), 0, s,
                                 extra={"doc": s.data["doc"]}))
            continue
        size, offset = length(key)
        events.append(_Event("fact", s.target, size, offset, s))
    # where the stale values were said: corrections some far back, revised decisions a little back
    corrections = [s for s in specs if s.kind == "correction"]
    eligible = [s for s in corrections if (s.target - floor) * n > 130 and s.target - floor > 0.06]
    rng.shuffle(eligible)
    far = {id(s) for s in eligible[:max(min(4, len(eligible)), (2 * len(eligible) + 2) // 3)]}
    for s in specs:
        if s.stale is None:
            continue
        room = max(0.0, s.target - floor)
        if id(s) in far:
            back = rng.uniform(max(0.05, 115 / n), min(room, 0.3))
        else:
            back = min(room, rng.uniform(6, 30) / n if s.kind == "correction" else rng.uniform(0.03, 0.15))
        back = max(back, 0.5 / n)
        events.append(_Event("stale", s.target - back, rng.choice((2, 4) if not roomy else (4, 6)), 0, s))
    errors = [s for s in specs if s.kind == "error"]
    for s in rng.sample(errors, n_resolved):
        events.append(_Event("resolve", s.target + rng.uniform(0.02, 0.08), 4 if not roomy else rng.choice((4, 6)),
                             0, s))
    kinds = list(PASTE_KINDS)
    rng.shuffle(kinds)
    for i in range(n_paste):
        events.append(_Event("paste", rng.uniform(floor, 0.97), rng.choice((2, 4) if not roomy else (4, 6)), 0, None,
                             extra={"doc": kinds[i % len(kinds)]}))
    rank = {"stale": 0, "fact": 1, "paste": 1, "resolve": 2}
    events.sort(key=lambda e: (e.target, rank[e.what]))
    return specs, events


def _valid(gap: int, up: bool) -> int:
    """Filler turns are 2 or 4+ messages long, so a gap of 1 or 3 is moved to its neighbour."""
    if gap in (1, 3):
        return gap + 1 if up else gap - 1
    return gap


def _layout(n: int, events: list[_Event]) -> list[int]:
    """Starts of the events and the filler gaps before each (and after the last), summing to ``n`` - 2."""
    latest = [0] * (len(events) + 1)  # the latest start of each event that keeps facts before 88% and all in n
    latest[-1] = n - 1
    for i in range(len(events) - 1, -1, -1):
        e = events[i]
        latest[i] = latest[i + 1] - e.length
        if e.what == "fact" or (e.what == "paste" and e.spec is not None):
            latest[i] = min(latest[i], int(0.88 * n) - e.offset)
    gaps: list[int] = []
    cur = 1
    for i, e in enumerate(events):
        want = int(round(e.target * n)) - e.offset
        gap = _valid(max(0, want - cur, 2 if i == 0 else 0), up=True)
        most = latest[i] - cur
        if most < 0:
            raise ValueError(f"{n} messages cannot hold this session's facts")
        if gap > most:
            gap = _valid(most, up=False)
        gaps.append(gap)
        cur += gap + e.length
    tail = (n - 1) - cur
    if tail in (1, 3):  # take one message from an earlier filler gap (moving what follows earlier), or give one
        shrink = [i for i in range(len(gaps)) if gaps[i] >= 5]
        grow = [i for i in range(len(gaps)) if gaps[i] >= 4]
        if shrink:
            gaps[shrink[-1]] -= 1
            tail += 1
        elif grow and tail + sum(gaps) + sum(e.length for e in events) <= n:
            gaps[grow[-1]] += 1
            tail -= 1
        else:
            raise ValueError("no room to even out the filler")
    gaps.append(tail)
    cur = 1
    for gap, e in zip(gaps, events):
        cur += gap
        e.start = cur
        cur += e.length
    return gaps


FINAL = ("ok, næste: {tur} – kan du kigge på den i morgen tidlig?", "thanks. tomorrow we look at {site} again",
         "fint. husk at skrive status til {who} inden du lukker", "ok, go on with the next item on your list")


def make_session(seed: int = 1, messages: int = 400) -> Session:
    """A wind-farm ops session of exactly ``messages`` messages with ``per_kind(messages)`` facts of each kind."""
    if messages < MIN_MESSAGES:
        raise ValueError(f"a windops session needs at least {MIN_MESSAGES} messages, not {messages}")
    rng = random.Random(f"windops-{seed}")
    k = per_kind(messages)
    specs, events = _plant(rng, messages, k)
    gaps = _layout(messages, events)
    b = _Builder(rng, messages)
    for gap, e in zip(gaps, events):
        b.gap(gap)
        b.event(e)
    b.gap(gaps[-1])
    b.say_user(_fmt(rng, rng.choice(FINAL)))
    assert len(b.msgs) == messages
    b.cover()
    b.finish(CHARS_PER_MESSAGE * messages)
    facts = [Fact(s.kind, s.value, s.index, s.query, s.stale, s.stale_index, s.resolved)
             for s in sorted(specs, key=lambda s: s.index)]
    return Session(messages=b.msgs, facts=facts, seed=seed, pasted=b.pasted)
