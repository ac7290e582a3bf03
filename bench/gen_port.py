"""Sessions of a yard planner at a Maasvlakte container terminal and their agent, in Dutch and English (fidelity bench).

    from gen_port import make_session
    session = make_session(seed=1, messages=400)    # about 600k characters
    session = make_session(seed=1, messages=3000)   # about 4.6M characters

A yard planner / operations engineer at a container terminal on the Maasvlakte (Rotterdam) works for hours with an
agent on the terminal's software: a Java/Spring Boot berth-and-yard planning service built with Maven (Surefire
reports, stack traces with "Caused by:"), an Oracle database (SQL*Plus, ORA- errors), the EDI gateway (BAPLIE,
COPRAR, CODECO in UN/EDIFACT), STS/ASC crane PLC event logs, a Kafka gate-transaction stream, a Python yard optimizer
and Grafana. The user writes Dutch mixed with English the way Dutch engineers chat ("nee wacht", "laat maar",
"klopt", "even checken"), sets rules in both languages ("we doen nooit ...", "I'd rather ...", "als ..., dan eerst
even mij vragen"), changes earlier choices, corrects themselves loosely, and pastes what others wrote: a shipping
line's mail about a cut-off, the harbour master's notice, the collective labour agreement on shift hours, a BAPLIE
excerpt, the customs scan-selection memo, a Teams chat with the shift lead, a twistlock incident report. Whatever
those documents order is not the user's instruction; ``session.pasted`` lists them exactly.

Most characters are tool outputs (Maven logs, query results, EDIFACT segments, PLC events, Kafka records, Grafana
tables). Every planted value is drawn before the noise, and noise that would happen to say one is drawn again.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from sessiongen import Fact, Message, Session, text_of

KINDS = ("instruction", "correction", "decision", "error", "file", "identifier", "finding", "plan")
TOOLS = ("shell", "read_file", "edit_file", "mvn", "sqlplus", "edi_inspect", "kafka_tail", "plc_log", "grafana")
MIN_MESSAGES = 60
CHARS_PER_MESSAGE = 1560  # 400 messages come to about 620k characters, 3000 to about 4.7M

Rng = random.Random


def per_kind(messages: int) -> int:
    """Facts of each kind: 1 at 60 messages, 6 at 400, 9 at 1700, 12 at 3000, and on growing beyond."""
    if messages <= 400:
        return 1 + (max(0, messages - 60) * 5 + 170) // 340
    return 6 + ((messages - 400) * 6 + 1300) // 2600


# --- the terminal's world -------------------------------------------------------------------------------------------

VESSELS = (("MSC Arianna", "MSAR"), ("Maersk Elba", "MAEL"), ("CMA CGM Tage", "CMTA"), ("Ever Gentle", "EVGE"),
           ("ONE Harmony", "ONHA"), ("Hapag Elbe Express", "HPEE"), ("COSCO Delta", "CODE"),
           ("YM Wellspring", "YMWE"), ("HMM Rotterdam", "HMRO"), ("ZIM Iberia", "ZIIB"), ("MSC Lorena", "MSLO"),
           ("Maersk Kalmar", "MAKA"), ("CMA CGM Rhone", "CMRH"), ("Ever Lotus", "EVLO"), ("ONE Aquila", "ONAQ"))
CARRIERS = ("MSC", "Maersk", "CMA CGM", "Hapag-Lloyd", "ONE", "Evergreen", "COSCO", "Yang Ming", "HMM", "ZIM")
CARRIER_CODES = ("MSC", "MAEU", "CMDU", "HLCU", "ONEY", "EGLV", "COSU", "YMLU", "HDMU", "ZIMU")
NOISE_PREFIXES = ("MSCU", "MEDU", "MSKU", "MRKU", "CMAU", "CGMU", "HLBU", "HLXU", "ONEU", "EGHU", "EISU", "CSNU",
                  "TGHU", "TCNU", "BMOU", "SEGU", "FCIU", "TRHU")
FACT_PREFIXES = ("TEMU", "GESU", "CAIU", "TLLU", "DFSU", "SUDU", "OOCU", "BSIU", "CXDU", "WHSU")
HAVENS = (("Amazonehaven", "AMH"), ("Prinses Amaliahaven", "PAH"), ("Yangtzehaven", "YAH"), ("Europahaven", "EUH"))
MODULES = ("berth-core", "yard-core", "gate-service", "edi-gateway", "plan-api", "crane-adapter")
ISO_TYPES = ("22G1", "45G1", "42G1", "45R1", "22R1", "22T6", "45U1", "42P1", "L5G1")
PORTS = ("CNSHA", "CNNGB", "SGSIN", "USNYC", "BRSSZ", "KRPUS", "MYPKG", "AEJEA", "INNSA", "ZADUR", "TRMER", "EGPSD")
LANES = tuple(f"IN-{i:02d}" for i in range(1, 13)) + tuple(f"OUT-{i:02d}" for i in range(1, 9))
NAMES = ("Ruud Bakker", "Marloes Visser", "Kees van Dijk", "Priya Raman", "Sandra de Wit", "Bram Janssen",
         "Fatima El Amrani", "Joris Mulder", "Anouk Smit", "Dennis Kok")
STATUSES = ("YARD", "YARD", "YARD", "PLANNED", "LOADED", "DISCH", "GATE_IN", "HOLD_CUS", "HOLD_LINE")
NOISE_TESTS = (("yard.stacking", "StackPlannerTest"), ("yard.stacking", "TierLimitTest"),
               ("yard.reefer", "PlugMapTest"), ("berth.window", "BerthWindowServiceTest"),
               ("berth.window", "QuayCraneSplitTest"), ("gate", "AppointmentSlotTest"),
               ("gate", "TruckVisitMapperTest"), ("edi.coprar", "CoprarParserTest"),
               ("edi.baplie", "BaplieReaderTest"), ("edi.codeco", "CodecoWriterTest"), ("crane", "JobQueueTest"),
               ("crane", "HandoverPointTest"), ("plan.api", "VesselCallControllerTest"),
               ("plan.api", "YardQueryControllerTest"), ("yard.housekeeping", "HousekeepingSchedulerTest"),
               ("yard.dwell", "DwellTimeCalculatorTest"))
NOISE_FILES = ("tos-planning/yard-core/src/main/java/nl/mvt/yard/stacking/StackPlanner.java",
               "tos-planning/yard-core/src/main/java/nl/mvt/yard/stacking/TierLimit.java",
               "tos-planning/yard-core/src/main/java/nl/mvt/yard/reefer/PlugMap.java",
               "tos-planning/berth-core/src/main/java/nl/mvt/berth/window/BerthWindowService.java",
               "tos-planning/berth-core/src/main/java/nl/mvt/berth/window/QuayCraneSplit.java",
               "tos-planning/gate-service/src/main/java/nl/mvt/gate/AppointmentSlots.java",
               "tos-planning/plan-api/src/main/java/nl/mvt/plan/api/VesselCallController.java",
               "edi-gateway/src/main/java/nl/mvt/edi/coprar/CoprarParser.java",
               "edi-gateway/src/main/java/nl/mvt/edi/baplie/BaplieReader.java")
NOISE_CONFIGS = ("tos-planning/yard-core/src/main/resources/application.yml",
                 "tos-planning/yard-core/src/main/resources/application-acc.yml",
                 "tos-planning/berth-core/src/main/resources/application.yml",
                 "edi-gateway/src/main/resources/application.yml",
                 "tos-planning/gate-service/src/main/resources/application-prd.yml")
NOISE_PY = ("yard-optimizer/yardopt/model.py", "yard-optimizer/yardopt/heuristics.py",
            "yard-optimizer/yardopt/io_oracle.py")
SIDS = ("TOSPRD", "TOSACC", "TOSTST")
TOPICS = ("gate.transactions.v3", "yard.moves.v2", "edi.coprar.in", "crane.jobs.v1")
WORDS = ("slot", "stack", "move", "window", "call", "plug", "lane", "visit", "job", "handover", "reservation",
         "bay", "tier", "hatch", "lashing", "twin", "reefer", "dwell", "gate", "berth")
SPRING_LOGGERS = ("o.s.b.t.c.SpringBootTestContextBootstrapper", "com.zaxxer.hikari.HikariDataSource",
                  "o.h.e.t.j.p.i.JtaPlatformInitiator", "o.s.o.j.LocalContainerEntityManagerFactoryBean",
                  "o.f.c.i.c.DbValidate", "n.m.y.stacking.StackPlanner", "n.m.b.window.BerthWindowService",
                  "n.m.e.coprar.CoprarParser", "o.s.k.l.KafkaMessageListenerContainer", "n.m.g.AppointmentSlots")
SPRING_MESSAGES = ("HikariPool-1 - Starting...", "HikariPool-1 - Start completed.",
                   "Initialized JPA EntityManagerFactory for persistence unit 'default'",
                   "Successfully validated {n} migrations (execution time 00:00.{ms:03d}s)",
                   "No TaskScheduler/ScheduledExecutorService bean found for scheduled processing",
                   "Started {cls} in {s}.{ms:03d} seconds (process running for {s2}.{ms2:03d})",
                   "planning {n} moves for block {b} (candidates={c})",
                   "window check for call {call}: {n} cranes, {c} moves",
                   "parsed COPRAR with {n} EQD segments in {ms} ms",
                   "gate-tx-projector: partitions assigned: [gate.transactions.v3-{p}]",
                   "appointment grid rebuilt: {n} slots, {c} booked")


def _check_digit(code: str) -> int:
    """The ISO 6346 check digit of a container's owner code and serial (10 characters)."""
    total = 0
    for i, c in enumerate(code):
        value = int(c) if c.isdigit() else _LETTERS[c]
        total += value << i
    return total % 11 % 10


def _letter_values() -> dict[str, int]:
    values, n = {}, 10
    for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ":
        if n % 11 == 0:
            n += 1
        values[c] = n
        n += 1
    return values


_LETTERS = _letter_values()


def _container(r: Rng, prefixes: tuple[str, ...] = NOISE_PREFIXES) -> str:
    code = r.choice(prefixes) + f"{r.randint(0, 999999):06d}"
    return code + str(_check_digit(code))


def _hex(r: Rng, n: int) -> str:
    return f"{r.getrandbits(4 * n):0{n}x}"


class _World:
    """What the noise of one session talks about: its date, the vessels in port, the cranes."""

    def __init__(self, r: Rng) -> None:
        self.day = r.randint(4, 27)
        self.date = f"2024-11-{self.day:02d}"
        picked = r.sample(VESSELS, 6)
        self.vessels = [name for name, _ in picked]
        self.calls = [f"{code}-{r.randint(100, 499)}{r.choice('EW')}" for _, code in picked]
        self.berths = [f"{code}{r.randint(1, 12):02d}" for _, code in r.sample(HAVENS, 3)]
        self.blocks = sorted(r.sample(range(10, 60), 12))
        self.ascs = [f"ASC-{b}{x}" for b in self.blocks[:6] for x in "AB"]
        self.sts = [f"STS{r.randint(1, 24):02d}" for _ in range(5)]
        self.tokens = tuple(self.vessels + self.calls + self.berths + self.ascs + self.sts)

    def time(self, r: Rng) -> str:
        return f"{r.randint(0, 23):02d}:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}"

    def stamp(self, r: Rng) -> str:
        return f"{self.date} {self.time(r)}.{r.randint(0, 999):03d}"


# --- noise: the bulk of the tool outputs ----------------------------------------------------------------------------
# Each renderer writes realistic lines until it has about ``chars`` characters. None of them uses the formats planted
# values are drawn in (Dutch yard slots, fact container prefixes, fact config keys, "[ERROR]" lines).

def _fill(lines: list[str], chars: int, make: Callable[[], str]) -> str:
    size = sum(len(x) + 1 for x in lines)
    while size < chars:
        line = make()
        lines.append(line)
        size += len(line) + 1
    return "\n".join(lines)


def _r_mvn(r: Rng, chars: int, w: _World, arg: str = "") -> str:
    lines: list[str] = []
    left, current = 0, NOISE_TESTS[0]

    def make() -> str:
        nonlocal left, current
        if left <= 0:
            current, left = r.choice(NOISE_TESTS), r.randint(3, 9)
            pkg, cls = current
            return f"[INFO] Running nl.mvt.{pkg}.{cls}"
        left -= 1
        pkg, cls = current
        if left == 0:
            return (f"[INFO] Tests run: {r.randint(2, 30)}, Failures: 0, Errors: 0, Skipped: {r.choice((0, 0, 1))}, "
                    f"Time elapsed: {r.randint(0, 9)}.{r.randint(0, 999):03d} s - in nl.mvt.{pkg}.{cls}")
        msg = r.choice(SPRING_MESSAGES).format(
            n=r.randint(3, 480), ms=r.randint(0, 999), s=r.randint(1, 9), s2=r.randint(5, 14),
            ms2=r.randint(0, 999), cls=cls, b=r.choice(w.blocks), c=r.randint(10, 4000), call=r.choice(w.calls),
            p=r.randint(0, 11))
        return (f"{w.stamp(r)}  {r.choice(('INFO', 'INFO', 'INFO', 'DEBUG', 'WARN'))} {r.randint(12000, 39999)} --- "
                f"[{r.choice(('           main', ' pool-2-thread-1', 'ntainer#0-0-C-1'))}] "
                f"{r.choice(SPRING_LOGGERS):<45} : {msg}")
    return _fill(lines, chars, make)


def _slot(r: Rng, w: _World, block: str = "") -> str:
    return f"{block or r.choice(w.blocks)}-{r.randint(1, 40):02d}-{r.randint(1, 6)}"


def _r_sql(r: Rng, chars: int, w: _World, arg: str = "") -> str:
    lines = ["CONTAINER_NO ISO  POS       CAT STATUS     WEIGHT_KG CALL_ID    POD",
             "------------ ---- --------- --- ---------- --------- ---------- -----"]

    def make() -> str:
        return (f"{_container(r):<12} {r.choice(ISO_TYPES)} {_slot(r, w, arg):<9} {r.choice(('IMP', 'EXP', 'TRS', 'EMP'))} "
                f"{r.choice(STATUSES):<10} {r.randint(2300, 30480):>9} {r.choice(w.calls):<10} {r.choice(PORTS)}")
    text = _fill(lines, chars - 40, make)
    return text + f"\n\n{text.count(chr(10)) - 1} rows selected."


def _bay(r: Rng) -> str:
    return f"{r.randint(1, 74):03d}{r.randint(0, 20):02d}{r.choice((2, 4, 6, 8, 82, 84, 86, 88, 90)):02d}"


def _r_edi(r: Rng, chars: int, w: _World, arg: str = "") -> str:
    lines: list[str] = []
    queue: list[str] = []

    def make() -> str:
        if not queue:
            iso = r.choice(ISO_TYPES)
            queue.extend([f"LOC+147+{_bay(r)}::5'", f"MEA+AAE+VGM+KGM:{r.randint(2300, 30480)}'",
                          "LOC+9+NLRTM'", f"LOC+11+{r.choice(PORTS)}'", f"RFF+BM:{r.randint(1, 9)}'",
                          f"EQD+CN+{_container(r)}+{iso}+++5'", f"NAD+CA+{r.choice(CARRIER_CODES)}:172:20'"])
            if "R1" in iso:
                queue.insert(2, f"TMP+2+{r.choice(('-18.0', '-25.0', '2.0', '5.0', '13.0'))}:CEL'")
        return queue.pop(0)
    return _fill(lines, chars, make)


def _r_kafka(r: Rng, chars: int, w: _World, arg: str = "") -> str:
    lines: list[str] = []
    part = int(arg) if arg else r.randint(0, 11)
    offset = [r.randint(40_000_000, 90_000_000)]

    def make() -> str:
        offset[0] += r.randint(1, 3)
        c = _container(r)
        return (f"gate.transactions.v3 [{part}] @{offset[0]} key={c} "
                + json.dumps({"txId": f"GT-{r.randint(10000000, 99999999)}", "lane": r.choice(LANES),
                              "type": r.choice(("GATE_IN", "GATE_OUT", "GATE_IN", "TROUBLE")),
                              "truck": f"{r.choice('BVGOPR')}{r.choice('XKLNT')}-{r.randint(100, 999)}-"
                                       f"{r.choice('DFGHJKLNPRSTVXZ')}",
                              "container": c, "ts": f"{w.date}T{w.time(r)}.{r.randint(0, 999):03d}Z",
                              "appointment": r.choice((True, True, False)), "seal": f"ML-{r.randint(1000000, 9999999)}"}))
    return _fill(lines, chars, make)


PLC_EVENTS = (("2101", "HOIST_UP", "h={h}m load={t}t"), ("2102", "HOIST_DOWN", "h={h}m load={t}t"),
              ("2201", "GANTRY_MOVE", "from={a} to={b}"), ("2301", "TROLLEY_POS", "x={h}m"),
              ("2401", "SPREADER_LOCK", "size={size} tl=4/4"), ("2402", "SPREADER_UNLOCK", "size={size}"),
              ("2501", "LANDSIDE_HANDOVER", "tp={tp} job={job}"), ("2502", "WATERSIDE_HANDOVER", "tp={tp} job={job}"),
              ("3101", "HEARTBEAT", "cycle={cyc}"), ("2601", "JOB_DONE", "job={job} dur={d}s"))


def _r_plc(r: Rng, chars: int, w: _World, arg: str = "") -> str:
    lines: list[str] = []
    crane = arg or r.choice(w.ascs)
    hour, minute = r.randint(0, 20), 0

    def make() -> str:
        nonlocal hour, minute
        minute += r.randint(0, 2)
        if minute >= 60:
            hour, minute = (hour + 1) % 24, 0
        code, event, fmt = r.choice(PLC_EVENTS)
        detail = fmt.format(h=f"{r.randint(1, 18)}.{r.randint(0, 9)}", t=f"{r.randint(3, 32)}.{r.randint(0, 9)}",
                            a=f"{r.randint(1, 40)}/{r.randint(1, 9)}", b=f"{r.randint(1, 40)}/{r.randint(1, 9)}",
                            size=r.choice(("20", "40", "45", "2x20")), tp=f"TP{r.randint(1, 5)}",
                            job=f"J{r.randint(100000, 999999)}", cyc=r.randint(1000, 99999), d=r.randint(40, 190))
        return (f"{w.date} {hour:02d}:{minute:02d}:{r.randint(0, 59):02d}.{r.randint(0, 999):03d} {crane} "
                f"{'INFO' if code != '3101' else 'DEBUG'} {code} {event} {detail} pos={r.choice(w.blocks)}/"
                f"{r.randint(1, 40)}/{r.randint(1, 6)}")
    return _fill(lines, chars, make)


def _r_grafana(r: Rng, chars: int, w: _World, arg: str = "") -> str:
    lines = ["time                 gate_in  gate_out  trucks_q  turnaround_p50  turnaround_p95  asc_moves_h",
             "-------------------  -------  --------  --------  --------------  --------------  -----------"]
    hour, minute = r.randint(0, 10), 0

    def make() -> str:
        nonlocal hour, minute
        minute += 5
        if minute >= 60:
            hour, minute = (hour + 1) % 24, 0
        return (f"{w.date} {hour:02d}:{minute:02d}:00  {r.randint(4, 40):>7}  {r.randint(3, 38):>8}  "
                f"{r.randint(0, 60):>8}  {r.randint(14, 30)}.{r.randint(0, 9):<13}  {r.randint(28, 55)}.{r.randint(0, 9):<13}"
                f"  {r.randint(14, 31):>11}")
    return _fill(lines, chars, make)


JAVA_TYPES = ("String", "int", "long", "boolean", "Instant", "BigDecimal", "List<Slot>", "Optional<VesselCall>",
              "Map<String, Integer>", "Duration")


def _r_java(r: Rng, chars: int, w: _World, arg: str = "") -> str:
    path = arg or r.choice(NOISE_FILES)
    cls = path.rsplit("/", 1)[-1].removesuffix(".java")
    pkg = path.split("/java/", 1)[-1].rsplit("/", 1)[0].replace("/", ".") if "/java/" in path else "nl.mvt.yard.stacking"
    lines = [f"package {pkg};", "", "import java.time.Duration;", "import java.time.Instant;",
             "import java.util.List;", "import java.util.Map;", "import java.util.Optional;",
             "import org.slf4j.Logger;", "import org.slf4j.LoggerFactory;", "import org.springframework.stereotype.Service;",
             "", "@Service", f"public class {cls} {{",
             "", f"    private static final Logger log = LoggerFactory.getLogger({cls}.class);"]
    queue: list[str] = []

    def make() -> str:
        if not queue:
            name = r.choice(WORDS) + r.choice(WORDS).capitalize() + r.choice(("", "s", "For", "Of"))
            typ = r.choice(JAVA_TYPES)
            queue.extend(["", f"    {r.choice(('public', 'private', 'protected'))} {typ} "
                              f"{r.choice(('find', 'plan', 'check', 'resolve', 'map', 'count'))}{name.capitalize()}"
                              f"({r.choice(JAVA_TYPES)} {r.choice(WORDS)}, int limit) {{",
                          "        if (limit <= 0) {",
                          "            throw new IllegalArgumentException(\"limit must be positive: \" + limit);",
                          "        }",
                          f"        log.debug(\"{name}: {{}} candidates in block {{}}\", limit, {r.choice(w.blocks)});",
                          f"        var result = repository.{r.choice(('findBy', 'streamBy', 'countBy'))}"
                          f"{r.choice(WORDS).capitalize()}(limit);",
                          f"        return {r.choice(('result', 'Optional.ofNullable(result)', 'List.copyOf(result)'))};",
                          "    }"])
        return queue.pop(0)
    text = _fill(lines, chars, make)
    return "\n".join([text, *queue, "}"])


def _numbered(text: str) -> str:
    return "\n".join(f"{i:>5}\t{line}" for i, line in enumerate(text.split("\n"), 1))


def _r_java_file(r: Rng, chars: int, w: _World, arg: str = "") -> str:
    return _numbered(_r_java(r, int(chars * 0.9), w, arg))


YAML_KEYS = ("pool-size", "timeout-ms", "batch-size", "enabled", "poll-interval-ms", "max-retries", "cron",
             "page-size", "cache-ttl-seconds", "queue-capacity")


def _r_yaml(r: Rng, chars: int, w: _World, arg: str = "") -> str:
    lines = ["spring:", "  application:", f"    name: {r.choice(MODULES)}", "  datasource:",
             f"    url: jdbc:oracle:thin:@//ora-{r.choice(('acc', 'prd'))}.mvt.local:1521/{r.choice(SIDS)}",
             "    hikari:", f"      maximum-pool-size: {r.randint(8, 40)}", "mvt:"]
    queue: list[str] = []

    def make() -> str:
        if not queue:
            queue.append(f"  {r.choice(WORDS)}-{r.choice(WORDS)}:")
            for _ in range(r.randint(2, 5)):
                key = r.choice(YAML_KEYS)
                val = ("true" if key == "enabled" else f"\"0 {r.randint(0, 59)} {r.randint(0, 23)} * * *\""
                       if key == "cron" else str(r.randint(1, 5000)))
                queue.append(f"    {key}: {val}")
        return queue.pop(0)
    return _fill(lines, chars, make)


def _r_python(r: Rng, chars: int, w: _World, arg: str = "") -> str:
    lines = ["from __future__ import annotations", "", "import numpy as np", "import pandas as pd",
             "from ortools.sat.python import cp_model", "", "from .io_oracle import load_yard, load_moves", ""]
    queue: list[str] = []

    def make() -> str:
        if not queue:
            name = f"{r.choice(WORDS)}_{r.choice(WORDS)}"
            queue.extend(["", "", f"def {name}(yard: pd.DataFrame, moves: pd.DataFrame, horizon: int = "
                                  f"{r.randint(2, 12) * 30}) -> pd.DataFrame:",
                          f"    \"\"\"{r.choice(('Score', 'Rank', 'Group', 'Filter'))} the {r.choice(WORDS)}s "
                          f"per block.\"\"\"",
                          f"    df = yard[yard[\"status\"] == \"{r.choice(STATUSES)}\"].copy()",
                          f"    df[\"{name}\"] = np.where(df[\"tier\"] > {r.randint(2, 6)}, "
                          f"{r.randint(1, 9)}.0, df[\"weight_kg\"] / {r.randint(1000, 30000)})",
                          f"    return df.groupby(\"block\").agg({{\"{name}\": \"{r.choice(('sum', 'mean', 'max'))}\"}})"])
        return queue.pop(0)
    return _numbered(_fill(lines, int(chars * 0.9), make))


GIT_SUBJECTS = ("fix NPE in {w} mapper when call has no ETA", "bump spring-boot to 3.2.{n}",
                "YARD-{n}: log {w} decisions at debug", "revert \"{w} cache\"", "add metrics for {w} handover",
                "TOS-{n} tidy up {w} queries", "make {w} timeout configurable", "flyway: index on {w}_id",
                "edi: accept empty FTX in {w}", "optimizer: vectorise {w} scoring")


def _r_gitlog(r: Rng, chars: int, w: _World, arg: str = "") -> str:
    def make() -> str:
        return (f"{_hex(r, 9)} {w.date} {r.choice(NAMES).split()[0].lower():<8} "
                + r.choice(GIT_SUBJECTS).format(w=r.choice(WORDS), n=r.randint(10, 3999)))
    return _fill([], chars, make)


def _r_grep(r: Rng, chars: int, w: _World, arg: str = "") -> str:
    def make() -> str:
        path = r.choice(NOISE_FILES + NOISE_PY)
        return (f"{path}:{r.randint(12, 640)}:        {r.choice(('log.debug', 'log.info', 'return', 'var x ='))} "
                f"{r.choice(WORDS)}{r.choice(WORDS).capitalize()}({r.choice(WORDS)});")
    return _fill([], chars, make)


def _r_optrun(r: Rng, chars: int, w: _World, arg: str = "") -> str:
    lines = [f"loading snapshot {w.date} from TOSACC ... {r.randint(9000, 30000)} units, {r.randint(200, 900)} moves",
             f"blocks: {','.join(str(b) for b in w.blocks)}"]

    def make() -> str:
        return (f"[{w.time(r)}] iter {r.randint(1, 5000):>5}  obj={r.randint(10000, 99999)}.{r.randint(0, 99):02d}"
                f"  bound={r.randint(10000, 99999)}.{r.randint(0, 99):02d}  moves={r.randint(100, 900)}"
                f"  rehandles={r.randint(0, 80)}  t={r.randint(0, 600)}.{r.randint(0, 9)}s")
    return _fill(lines, chars, make)


def _r_pytest(r: Rng, chars: int, w: _World, arg: str = "") -> str:
    lines: list[str] = []
    done = [0]

    def make() -> str:
        done[0] += 1
        name = r.choice(WORDS) + "_" + r.choice(WORDS)
        return (f"tests/test_{name}.py::test_{r.choice(WORDS)}_{r.choice(('basic', 'edge', 'empty', 'block'))}"
                f"[{r.randint(1, 99)}] PASSED{'':>20}[{min(99, done[0] // 3):>3}%]")
    return _fill(lines, chars, make)


RENDERERS: dict[str, Callable[[Rng, int, _World, str], str]] = {
    "pytest": _r_pytest, "mvn": _r_mvn, "sql": _r_sql, "edi": _r_edi, "kafka": _r_kafka, "plc": _r_plc, "grafana": _r_grafana,
    "java": _r_java_file, "yaml": _r_yaml, "python": _r_python, "gitlog": _r_gitlog, "grep": _r_grep,
    "optrun": _r_optrun}


class _Bulk:
    """A placeholder for noise in a tool output, rendered once the session knows how many characters it needs."""

    __slots__ = ("kind", "seed", "weight", "arg")

    def __init__(self, kind: str, seed: int, weight: float = 1.0, arg: str = "") -> None:
        self.kind, self.seed, self.weight, self.arg = kind, seed, weight, arg


# --- planted facts: what the user says, what the tools print ---------------------------------------------------------
# Each drawer returns a dict with the value, a query that paraphrases it without the value, and the texts its episode
# needs. Drawers use the formats the noise never uses, so a value cannot turn up in the filler by chance.

SERVICES = ("berthplan-service", "yard-allocator", "gate-service", "edi-gateway")
DAGEN = ("maandag", "dinsdag", "woensdag", "donderdag", "vrijdag", "zaterdag", "zondag")
FACT_TESTS = (("berth.window", "CutOffWindowTest"), ("yard.reefer", "ReeferPriorityTest"),
              ("berth.window", "DraftCheckTest"), ("crane", "TwinLiftPairingTest"), ("gate", "VgmToleranceTest"),
              ("berth.window", "LashingBridgeTest"), ("crane", "HatchCoverSequenceTest"),
              ("yard.stacking", "OogSlotTest"), ("yard.stacking", "ImdgSegregationTest"),
              ("gate", "EmptyReturnDepotTest"), ("berth.window", "BargeWindowTest"), ("yard.rail", "RailSlotTest"),
              ("berth.window", "TideTableTest"), ("berth.window", "PilotOrderTest"))
FACT_METHODS = ("rejectsLateExport", "keepsReeferNearPlug", "blocksDeepDraftAtLowTide", "pairsTwinsOfSameWeight",
                "acceptsWithinTolerance", "ordersHatchCoversAft", "findsSlotForOverWidth", "separatesClassOneFromFour",
                "routesEmptyToDepot", "plansBargeBetweenCalls", "allocatesRailSlotInWindow", "usesHighWaterWindow",
                "ordersPilotTwoHoursBefore", "skipsBlockedLashingBridge")
FACT_CLASSES = (("berth-core", "berth.window", "CutOffGuard"), ("berth-core", "berth.window", "DraftRestrictionPolicy"),
                ("berth-core", "berth.window", "TideWindowCalculator"), ("berth-core", "berth.pilot", "PilotOrderClient"),
                ("yard-core", "yard.shift", "ShiftBreakPolicy"), ("crane-adapter", "crane.twin", "TwinLiftPairing"),
                ("yard-core", "yard.imdg", "ImdgSegregationRule"), ("yard-core", "yard.reefer", "ReeferPreplugPlanner"),
                ("yard-core", "yard.stacking", "OogSlotFinder"), ("gate-service", "gate.vgm", "VgmToleranceCheck"),
                ("berth-core", "berth.barge", "BargeWindowPlanner"), ("yard-core", "yard.rail", "RailSlotAllocator"),
                ("crane-adapter", "crane.safety", "TwistlockAlarmGate"), ("gate-service", "gate.customs", "ScanLaneRouter"))
FACT_KEYS = ("cutoff-grace-minutes", "reefer-preplug-minutes", "oog-clearance-cm", "vgm-tolerance-kg",
             "twinlift-max-diff-kg", "appointment-overbook-pct", "housekeeping-max-moves", "berth-buffer-minutes",
             "coprar-batch-size", "plc-heartbeat-ms", "dwell-alert-hours", "max-tier-empty")
FACT_CONSTRAINTS = ("UK_SLOT_RES_POS", "UK_GATE_APPT_SLOT", "UK_REEFER_PLUG_UNIT", "UK_CALL_BERTH_WINDOW",
                    "UK_TWIN_PAIR", "UK_HOLD_CONTAINER", "UK_CRANE_JOB_SEQ", "UK_BARGE_SLOT")
FACT_FKS = ("FK_MOVE_CONTAINER", "FK_SLOT_BLOCK", "FK_APPT_VISIT", "FK_HOLD_REASON", "FK_PLUG_STACK",
            "FK_JOB_CRANE")
FACT_COLUMNS = (("CONTAINER", "SEAL_NO", 20), ("VESSEL_CALL", "VOYAGE_REF", 12), ("GATE_VISIT", "TRUCK_PLATE", 10),
                ("CUSTOMS_HOLD", "REASON_TXT", 60), ("YARD_MOVE", "REMARK", 80))


def _mutate(r: Rng, digits: str) -> str:
    """The same digits with two neighbours swapped, or one of them changed: a typo."""
    s = list(digits)
    pairs = [i for i in range(len(s) - 1) if s[i] != s[i + 1]]
    if pairs and r.random() < 0.7:
        i = r.choice(pairs)
        s[i], s[i + 1] = s[i + 1], s[i]
    else:
        i = r.randrange(len(s))
        s[i] = str((int(s[i]) + r.randint(1, 9)) % 10)
    return "".join(s)


def _fact_call(r: Rng) -> str:
    return f"{r.choice(VESSELS)[1]}-{r.randint(500, 999)}{r.choice('EW')}"


def _slot_nl(r: Rng, block: int | None = None) -> str:
    return f"blok {block or r.randint(20, 59)}, rij {r.randint(1, 40)}, laag {r.randint(1, 5)}"


# instructions: (draw, adopted from a pasted document, said in a second paragraph after a request)

def _i_deploy(r: Rng, w: _World) -> dict[str, Any]:
    svc, h, m = r.choice(SERVICES), r.choice((6, 14, 22)), r.choice((10, 15, 20, 30))
    value = f"tussen {(h - 1) % 24:02d}:{60 - m:02d} en {h:02d}:{m:02d}"
    return {"value": value, "lang": "nl", "query": f"the time around the shift change when {svc} is never deployed",
            "text": f"Even iets wat je moet weten voor de rest van de dag: we doen nooit een deploy van {svc} {value}. "
                    "Dan is de ploegwissel en hangt de hele planning aan die schermen, dat wil je niet meemaken.",
            "reply": f"Begrepen: geen deploys van {svc} {value}. Ik kijk eerst op de klok voordat ik iets uitrol."}


def _i_direct_writes(r: Rng, w: _World) -> dict[str, Any]:
    table = r.choice(("SLOT_RESERVATION", "VESSEL_CALL", "GATE_APPOINTMENT", "REEFER_PLUG", "CUSTOMS_HOLD"))
    value = f"YRDPRD{r.randint(10, 99)}"
    return {"value": value, "lang": "en", "query": f"the production database where {table} must never be written directly",
            "text": f"One more thing, and this one matters to me: I'd rather you never write to {table} on {value} "
                    "directly, not even a quick UPDATE. Go through the yard-admin API. The DBA team audits every "
                    "statement on that schema and I'm the one who gets the questions.",
            "reply": f"Understood: no direct writes to {table} on {value}, only through the yard-admin API."}


def _i_stack_height(r: Rng, w: _World) -> dict[str, Any]:
    b, n = r.randint(20, 59), r.randint(4, 6)
    value = f"blok {b} hoger dan {n} hoog"
    return {"value": value, "lang": "nl", "query": f"when the user wants to be asked before the optimizer stacks (block {b})",
            "text": f"Als de optimizer in {value} wil stapelen, dan eerst even aan mij vragen voordat het naar de "
                    "ASC's gaat. Daar staan de lichte exports en die wil ik niet onder een zware stack hebben.",
            "reply": f"Helder. Zodra de optimizer {value} voorstelt, leg ik het eerst aan jou voor."}


def _i_coprar_rejects(r: Rng, w: _World) -> dict[str, Any]:
    n, carrier = r.randint(3, 40), r.choice(CARRIERS)
    value = f"more than {n} rejected COPRARs"
    return {"value": value, "lang": "en", "query": "how many rejected COPRARs from one line in an hour mean pinging the user",
            "text": f"If the gateway ends up with {value} from one line within an hour, ping me before you reprocess "
                    f"anything. Usually that means {carrier} changed their mapping again without telling anyone.",
            "reply": f"Will do: {value} from a single line in an hour and I stop and ping you first."}


def _i_verify_first(r: Rng, w: _World) -> dict[str, Any]:
    module = r.choice(MODULES)
    value = f"verify -Pora-it-{r.randint(10, 99)}"
    return {"value": value, "lang": "nl", "query": f"what to run locally before pushing {module} to the acceptance pipeline",
            "text": f"Vanaf nu altijd eerst `mvn -pl {module} {value}` lokaal draaien voordat je iets naar de "
                    "acc-pipeline pusht. De integratietests tegen de echte Oracle vangen dingen die de unit tests "
                    "missen, dat hebben we vorige maand wel gezien.",
            "reply": f"Ok, voor elke push van {module} eerst `mvn -pl {module} {value}` lokaal."}


def _i_consumer_group(r: Rng, w: _World) -> dict[str, Any]:
    topic = r.choice(TOPICS)
    value = f"ops-readonly-{r.choice(WORDS)}-{r.randint(10, 99)}"
    return {"value": value, "lang": "nl",
            "query": f"which consumer group to use when reading {topic} on the production cluster",
            "text": f"Vanaf nu lees je {topic} op de prod-cluster alleen met consumer group {value}. Nooit een "
                    "nieuwe group aanmaken, dan gaat de lag-alert van de projector af en belt de storingsdienst mij.",
            "reply": f"Genoteerd: op prod alleen lezen met {value}, geen nieuwe consumer groups."}


def _i_reefer_plugs(r: Rng, w: _World) -> dict[str, Any]:
    b = r.randint(60, 69)
    value = f"reefer-plugs in blok {b}"
    return {"value": value, "lang": "nl",
            "query": f"which reefer plugs are not to be redistributed without the electricians (block {b})",
            "text": f"Liever niet de {value} herverdelen zonder de monteurs erbij. Die hebben daar vorige week "
                    f"{r.randint(8, 40)} aansluitingen omgelegd en de tekening klopt nog niet.",
            "reply": f"Ok, de {value} laat ik met rust tenzij de monteurs erbij zijn."}


def _i_customs_hold(r: Rng, w: _World) -> dict[str, Any]:
    value = f"CUS-HLD-{r.randint(10, 99)}"
    who = r.choice(("de rederij", "de expediteur", "de vervoerder"))
    return {"value": value, "lang": "nl", "query": f"which customs hold status keeps containers in place even when {who} calls",
            "text": f"Zolang de scanuitslag van de Douane er niet is, blijven containers met status {value} gewoon "
                    f"staan, ook als {who} belt. Daar gaan wij niet over.",
            "reply": f"Duidelijk: {value} blijft staan tot de scanuitslag binnen is, wie er ook belt."}


def _i_threads(r: Rng, w: _World) -> dict[str, Any]:
    box = f"plan-{r.randint(10, 99)}"
    value = f"{r.randint(3, 12)} threads on {box}"
    return {"value": value, "lang": "en", "query": f"how many threads the yard optimizer may use on its shared box ({box})",
            "tool": "grafana", "text": f"Can you have a look at why /api/v2/{r.choice(WORDS)}-windows got slow since this "
            f"morning? Nothing urgent.\n\nThe optimizer gets {value}, it shares that box with the BI jobs.",
            "reply": f"I'll keep the optimizer at {value} when I run anything there."}


def _i_asc_rate(r: Rng, w: _World) -> dict[str, Any]:
    value = f"{r.randint(18, 34)} moves per uur per ASC"
    return {"value": value, "lang": "nl", "query": "the ASC productivity the user wants simulations to assume",
            "tool": "shell", "text": "Kun je straks de optimizer-run van vannacht nog eens bekijken? Er zat een rare "
            f"piek in rond een uur of drie.\n\nVoor de simulaties rekenen we met {value}, dat is wat de vloer echt "
            "haalt, niet wat de leverancier belooft.",
            "reply": f"En voor de simulaties neem ik {value} aan."}


def _i_reefer_tier(r: Rng, w: _World) -> dict[str, Any]:
    b = r.randint(60, 69)
    value = f"above tier {r.randint(2, 4)} in block {b}"
    return {"value": value, "lang": "en",
            "query": f"how high a reefer may be stacked where the plug towers are short (block {b})",
            "text": f"Also, we never let the optimizer put a reefer {value}. The plug towers there don't reach "
                    "and someone ends up on a ladder at night.",
            "reply": f"Noted, no reefers {value}; I'll add it to the optimizer's constraints list."}


def _i_grafana_folder(r: Rng, w: _World) -> dict[str, Any]:
    value = f"ops-{r.choice(('yard', 'gate', 'quay', 'reefer', 'edi'))}-{r.randint(10, 99)}"
    return {"value": value, "lang": "en", "query": "which Grafana folder new dashboards go into",
            "text": f"Dashboards you make go in the Grafana folder {value}, nothing in General. Somebody cleans "
                    "General every Monday and then we've lost a week of work.",
            "reply": f"Got it, new dashboards go in {value}."}


def _i_twistlock(r: Rng, w: _World) -> dict[str, Any]:
    value = f"same spreader within {r.randint(5, 45)} minutes"
    return {"value": value, "lang": "en", "query": "when a repeating twistlock alarm means taking the crane out of automatic",
            "text": f"If a twistlock alarm comes back on the {value}, take that crane out of automatic and tell me. "
                    "Don't just acknowledge it and move on.",
            "reply": f"Understood: a repeat on the {value} and the crane goes to manual, and I tell you."}


def _i_ticket(r: Rng, w: _World) -> dict[str, Any]:
    value = f"YARD-{r.randint(1000, 9999)}"
    return {"value": value, "lang": "nl", "query": "which ticket goes at the front of every commit message for this work",
            "text": f"En commits voor dit werk altijd met {value} vooraan in de message, anders komt het niet door "
                    "de CAB van donderdag.",
            "reply": f"Komt goed, elke commit begint met {value}."}


def _i_mail(r: Rng, w: _World) -> dict[str, Any]:
    value = f"yardplanning-{r.choice(('nacht', 'night', 'ops', 'kade'))}{r.randint(10, 99)}@mvt-terminal.nl"
    return {"value": value, "lang": "en", "query": "where the summaries of the nightly runs should be mailed",
            "text": f"I'd rather not get pinged on Teams for the nightly runs. Mail the summary to {value} instead, "
                    "the night shift reads that one.",
            "reply": f"Sure, nightly summaries go to {value}, no Teams pings."}


def _i_cutoff_adopted(r: Rng, w: _World) -> dict[str, Any]:
    carrier, h = r.choice(CARRIERS), r.choice((18, 20, 24, 30, 36, 48))
    value = f"reefers gaan {h} uur voor ETA dicht"
    return {"value": value, "lang": "nl", "query": f"when reefer gate-in closes for {carrier} calls",
            "doc": _doc_carrier_mail(r, w, carrier, h), "intro": f"Kreeg dit net van {carrier}:",
            "text": f"Nemen we zo over voor alle {carrier}-calls: {value} in de gate-check, ook als de planner het "
                    "anders wil. De rest van die mail is voor de gate, niet voor ons.",
            "reply": f"Ok, voor {carrier}: {value}. Ik zet het in de gate-check."}


def _i_draft_adopted(r: Rng, w: _World) -> dict[str, Any]:
    haven = r.choice(HAVENS)[0]
    d = f"{r.randint(13, 16)},{r.randint(0, 9)}"
    value = f"diepgang boven {d} m"
    return {"value": value, "lang": "nl", "query": f"the draft limit the user adopted for planning in the {haven}",
            "doc": _doc_havenbedrijf(r, w, haven, d), "intro": "Dit kwam vanochtend binnen van het Havenbedrijf:",
            "text": f"Dus vanaf nu plannen we in de {haven} niets met een {value}, ook niet als de rederij zegt "
                    "dat het past.",
            "reply": f"Duidelijk, in de {haven} niets meer met een {value}. Ik voeg een check toe in de berth-planning."}


def _i_cao_adopted(r: Rng, w: _World) -> dict[str, Any]:
    h, p = r.choice(("3", "3,5", "4", "4,5", "5")), r.choice((20, 25, 30, 45))
    value = f"max {h} uur achter elkaar in de kraancabine"
    return {"value": value, "lang": "nl",
            "query": "how long an operator may sit in the crane cabin before a break in the shift planner",
            "doc": _doc_cao(r, w, h, p), "intro": "Uit de cao, artikel 14, dat ging het gisteren over:",
            "text": f"Voor de shiftplanner betekent dat: {value}, daarna minstens {p} minuten pauze. Dat moet er "
                    "hard in, de OR kijkt mee.",
            "reply": f"Ok: {value}, dan minstens {p} minuten pauze. Ik maak het een harde regel in de shiftplanner."}


def _i_scan_adopted(r: Rng, w: _World) -> dict[str, Any]:
    flag = f"SCAN-{r.choice('XRN')}{r.randint(10, 99)}"
    value = f"flagged {flag}"
    return {"value": value, "lang": "en", "query": "what happens to containers with the customs selection code from the memo",
            "doc": _doc_douane(r, w, flag), "intro": "Customs memo for this week, fyi:",
            "text": f"So for us: anything {value} goes to the scan lane first, never straight under the crane. "
                    "Build that into the job release.",
            "reply": f"Clear: units {value} get routed to the scan lane before any crane job is released."}


def _i_incident_adopted(r: Rng, w: _World) -> dict[str, Any]:
    n = r.randint(3, 12)
    value = f"minimaal {n} cycli handbediening"
    return {"value": value, "lang": "nl", "query": "how a crane goes back to automatic after a twistlock alarm",
            "doc": _doc_incident(r, w), "intro": "Het incidentrapport van afgelopen nacht:",
            "text": f"Dat nemen we mee in de crane-adapter: na een twistlock-melding eerst {value}, pas daarna "
                    "weer automatisch. Wat er verder in staat is voor de TD.",
            "reply": f"Ok: na een twistlock-melding {value} voordat de kraan terug mag naar automatisch."}


def _i_teams_adopted(r: Rng, w: _World) -> dict[str, Any]:
    b = r.choice(w.blocks)
    value = f"geen housekeeping in blok {b} tijdens een lossing"
    return {"value": value, "lang": "nl", "query": f"what is not allowed in block {b} while a vessel is being discharged",
            "doc": _doc_teams(r, w, b), "intro": "Teams van vanochtend met de shiftleider, even geplakt:",
            "text": f"Ruud heeft wel een punt, dus regel voor ons: {value}. De rest van wat hij zegt is voor de "
                    "vloer.",
            "reply": f"Helder: {value}. Ik zet het als blokkade in de housekeeping-planner."}


INSTRUCTIONS_PLAIN_NL = (_i_deploy, _i_stack_height, _i_verify_first, _i_consumer_group, _i_reefer_plugs,
                         _i_customs_hold, _i_asc_rate, _i_ticket)
INSTRUCTIONS_PLAIN_EN = (_i_direct_writes, _i_coprar_rejects, _i_threads, _i_reefer_tier, _i_grafana_folder,
                         _i_twistlock, _i_mail)
INDIRECT_NL = (_i_deploy, _i_reefer_plugs, _i_customs_hold)  # "we doen nooit", "liever niet", "zolang"
CONDITIONAL_NL = (_i_stack_height,)
SECOND_PARAGRAPH_NL = (_i_asc_rate,)
CONDITIONAL_EN = (_i_coprar_rejects, _i_twistlock)
SECOND_PARAGRAPH_EN = (_i_threads,)
INDIRECT_EN = (_i_direct_writes, _i_mail, _i_reefer_tier)  # "I'd rather", "we never"
INSTRUCTIONS_ADOPTED = (_i_cutoff_adopted, _i_draft_adopted, _i_cao_adopted, _i_scan_adopted, _i_incident_adopted,
                        _i_teams_adopted)


# corrections: a stale value said earlier, then the new one, loosely

def _c_container(r: Rng, w: _World) -> dict[str, Any]:
    value = _container(r, FACT_PREFIXES)
    stale = value[:4] + _mutate(r, value[4:10]) + value[10]
    sid = r.choice(SIDS)
    return {"stale": stale, "value": value, "near": True, "lang": "nl",
            "query": "the container whose move history the user wanted pulled",
            "stale_text": f"Kun je de historie van {stale} uit {sid} halen? Volgens de planner staat hij al twee dagen "
                          "op de verkeerde stack en niemand weet waarom.",
            "stale_reply": f"Ik zoek de moves en holds van {stale} op in {sid}.",
            "corr": f"oh nee wacht, typo: het is {value}, niet {stale}. had hem van een screenshot overgetikt",
            "corr_reply": f"Ah, dan pak ik {value}. De historie haal ik uit dezelfde tabellen."}


def _c_slot(r: Rng, w: _World) -> dict[str, Any]:
    b, row, tier = r.randint(20, 59), r.randint(1, 40), r.randint(1, 5)
    flipped = int(str(row)[::-1])
    new_row = flipped if row > 9 and flipped <= 40 and flipped != row and flipped > 9 else row + r.choice((1, 2))
    stale, value = f"blok {b}, rij {row}, laag {tier}", f"blok {b}, rij {new_row}, laag {tier}"
    return {"stale": stale, "value": value, "near": True, "lang": "nl",
            "query": "where the out-of-gauge unit was put down by hand this morning",
            "stale_text": f"De OOG-unit van vanochtend hebben we met de hand neergezet op {stale}. Kun je dat als "
                          "notitie bij de move zetten? Dan weet de nachtdienst het ook.",
            "stale_reply": f"Ik zet de notitie bij de move: OOG-unit handmatig op {stale}.",
            "corr": f"btw die plek van de OOG-unit klopte niet, ik had de rij verkeerd. het is {value}. zet je dat "
                    "even goed in de notitie?",
            "corr_reply": f"Aangepast: de notitie zegt nu {value}."}


def _c_berth(r: Rng, w: _World) -> dict[str, Any]:
    _, code = r.choice(HAVENS)
    a = r.randint(1, 14)
    b = a + r.choice((1, 2, -1)) if a > 1 else a + 1
    vessel = r.choice(w.vessels)
    stale, value = f"{code}-{a:02d}", f"{code}-{b:02d}"
    return {"stale": stale, "value": value, "near": True, "lang": "nl",
            "query": f"the berth where the {vessel} is coming in",
            "stale_text": f"De {vessel} komt vannacht binnen op ligplaats {stale}. Kun je het berth window in acc "
                          "daarop zetten, dan kan de quay planner alvast schuiven?",
            "stale_reply": f"Ik zet het window van de {vessel} in acc op {stale}.",
            "corr": f"shit, de {vessel} ligt niet op {stale} maar op {value}. de havenmeester heeft geschoven, pas je "
                    "het aan?",
            "corr_reply": f"Gedaan, het berth window van de {vessel} staat nu op {value}."}


def _c_sid(r: Rng, w: _World) -> dict[str, Any]:
    a = r.randint(10, 98)
    stale = f"YRDACC{a}"
    value = f"YRDACC{_mutate(r, str(a)) if str(a)[0] != str(a)[1] else a + 1}"
    return {"stale": stale, "value": value, "near": True, "lang": "nl",
            "query": "the database copy the reefer plug reconciliation should run against",
            "stale_text": f"Draai de reconciliatie van de reefer-plugs maar tegen {stale}, daar staat de kopie van "
                          "gisteravond.",
            "stale_reply": f"Ok, reconciliatie tegen {stale}.",
            "corr": f"sorry, verkeerde db. de kopie van gisteravond staat op {value}, niet op {stale}.",
            "corr_reply": f"Geen probleem, ik draai hem tegen {value}."}


def _c_interchange(r: Rng, w: _World) -> dict[str, Any]:
    digits = f"{r.randint(1000000, 9999999)}"
    stale, value = "000" + digits, "000" + _mutate(r, digits)
    return {"stale": stale, "value": value, "near": True, "lang": "en",
            "query": "the interchange reference of the COPRAR that bounced last night",
            "stale_text": f"The COPRAR that bounced last night has interchange ref {stale}. Can you pull it from the "
                          "archive and see what's wrong with it?",
            "stale_reply": f"I'll look up interchange {stale} in the EDI archive.",
            "corr": f"my bad, wrong ref, it's {value}. the other one was from Tuesday and went through fine",
            "corr_reply": f"Right, I'll take interchange {value} instead."}


def _c_cutoff(r: Rng, w: _World) -> dict[str, Any]:
    day, vessel, m = r.choice(DAGEN), r.choice(w.vessels), r.choice((0, 15, 30, 45))
    h1 = r.randint(6, 20)
    h2 = h1 + r.choice((1, 2, -2))
    stale, value = f"{day} {h1:02d}:{m:02d}", f"{day} {h2:02d}:{m:02d}"
    return {"stale": stale, "value": value, "near": True, "lang": "nl",
            "query": f"the export cut-off of the {vessel}",
            "stale_text": f"De cut-off voor de {vessel} is {stale}. Zet dat in de gate-check voor de exports, dan "
                          "kunnen de truckers niet meer te laat komen.",
            "stale_reply": f"Ik zet de export cut-off van de {vessel} op {stale}.",
            "corr": f"nee wacht, de cut-off van de {vessel} is {value}. ik keek naar de vorige call",
            "corr_reply": f"Aangepast: cut-off {vessel} staat nu op {value}."}


def _c_vgm(r: Rng, w: _World) -> dict[str, Any]:
    kg = f"{r.randint(12000, 30400):05d}"
    new = kg[0] + _mutate(r, kg[1:])
    stale, value = f"{kg[:2]}.{kg[2:]} kg", f"{new[:2]}.{new[2:]} kg"
    return {"stale": stale, "value": value, "near": True, "lang": "nl",
            "query": "the VGM the shipper gave for the disputed export",
            "stale_text": f"De verlader zegt dat de VGM {stale} is, niet wat er in de COPRAR staat. Kun je kijken waar "
                          "dat verschil vandaan komt?",
            "stale_reply": f"Ik vergelijk de VGM uit de COPRAR met de {stale} van de verlader.",
            "corr": f"klein dingetje nog: de VGM van de verlader was {value}, ik had twee cijfers omgedraaid",
            "corr_reply": f"Ok, ik reken met {value}."}


def _c_call(r: Rng, w: _World) -> dict[str, Any]:
    code = r.choice(VESSELS)[1]
    voy = f"{r.randint(500, 999)}"
    d = r.choice("EW")
    stale, value = f"{code}-{voy}{d}", f"{code}-{_mutate(r, voy)}{d}"
    return {"stale": stale, "value": value, "near": True, "lang": "en",
            "query": "the vessel call id to use for the test data",
            "stale_text": f"Use {stale} for the test data, that's the call from last week with the odd lashing plan.",
            "stale_reply": f"I'll build the test data around call {stale}.",
            "corr": f"scratch that, the call id is {value}. {stale} doesn't exist, I fat-fingered it",
            "corr_reply": f"Switched the test data to call {value}."}


def _c_offset(r: Rng, w: _World) -> dict[str, Any]:
    p, n = r.randint(0, 11), f"{r.randint(10000000, 99999999)}"
    stale, value = f"offset {n}", f"offset {_mutate(r, n)}"
    return {"stale": stale, "value": value, "near": True, "lang": "nl",
            "query": f"where the replay of gate partition {p} should start",
            "stale_text": f"Replay de gate-transacties van partitie {p} maar vanaf {stale}, daarvoor is alles goed "
                          "verwerkt door de projector.",
            "stale_reply": f"Ok, replay partitie {p} vanaf {stale}.",
            "corr": f"toch niet {stale} hè, het is {value}. ik had het uit de verkeerde kolom",
            "corr_reply": f"Ok, de replay van partitie {p} begint bij {value}."}


def _c_group(r: Rng, w: _World) -> dict[str, Any]:
    a, b = r.sample(WORDS, 2)
    stale, value = f"replay-{a}-{r.randint(10, 99)}", f"{b}-reprocess-{r.randint(100, 999)}"
    return {"stale": stale, "value": value, "near": False, "lang": "en",
            "query": "the consumer group the gate replay should run with",
            "stale_text": f"Run the replay with consumer group {stale}, so it doesn't mess with the projector's "
                          "offsets.",
            "stale_reply": f"Replay will use group {stale}.",
            "corr": f"actually no, use {value} as the group. {stale} already exists from the last replay and has "
                    "committed offsets",
            "corr_reply": f"Ok, fresh group {value} for the replay."}


def _c_dashboard(r: Rng, w: _World) -> dict[str, Any]:
    stale = f"gate-{r.choice(('turnaround', 'queue', 'lanes'))}-{_hex(r, 4)}"
    value = f"quay-{r.choice(('productivity', 'moves', 'cranes'))}-{_hex(r, 5)}"
    return {"stale": stale, "value": value, "near": False, "lang": "nl",
            "query": "the uid of the Grafana dashboard the new panel should go on",
            "stale_text": f"Het nieuwe panel mag op het dashboard met uid {stale}, daar kijkt de shiftleider toch al.",
            "stale_reply": f"Ik zet het panel op dashboard {stale}.",
            "corr": f"laat maar, niet {stale}. zet hem op {value}, dat andere dashboard gaat volgende week weg",
            "corr_reply": f"Ok, het panel komt op {value}."}


def _c_mailbox(r: Rng, w: _World) -> dict[str, Any]:
    first, second = r.sample(NAMES, 2)
    stale = f"{first.split()[0].lower()}.{first.split()[-1].lower()}@mvt-terminal.nl"
    value = f"{second.split()[0][0].lower()}{second.split()[-1].lower()}{r.randint(1, 9)}@mvt-terminal.nl"
    return {"stale": stale, "value": value, "near": False, "lang": "en",
            "query": "who should receive the draft berth plan",
            "stale_text": f"Send the draft berth plan to {stale} when it's ready, they'll check the crane split.",
            "stale_reply": f"Will send the draft berth plan to {stale}.",
            "corr": f"ah no, {stale} is on leave. send it to {value}",
            "corr_reply": f"Ok, the draft goes to {value} then."}


def _c_folder(r: Rng, w: _World) -> dict[str, Any]:
    code = r.choice(CARRIER_CODES).lower()
    stale = f"/data/edi/out/codeco-{code}/"
    value = f"/srv/edifact/{r.choice(('outbound', 'send', 'tx'))}/{code}-codeco-v{r.randint(2, 9)}"
    return {"stale": stale, "value": value, "near": False, "lang": "nl",
            "query": "the folder the CODECO batch for the line should be dropped in",
            "stale_text": f"De CODECO-batch voor die rederij moet in {stale}, daar pikt hun SFTP-job hem op.",
            "stale_reply": f"Ik zet de batch klaar in {stale}.",
            "corr": f"hmm nee, dat pad is van de oude gateway. het is {value} tegenwoordig, {stale} wordt niet meer "
                    "opgehaald",
            "corr_reply": f"Ok, de batch gaat naar {value}."}


CORRECTIONS_NEAR = (_c_container, _c_slot, _c_berth, _c_sid, _c_interchange, _c_cutoff, _c_vgm, _c_call, _c_offset)
CORRECTIONS_FAR = (_c_group, _c_dashboard, _c_mailbox, _c_folder)


# decisions: (topic, the earlier choice, the choice, why, query, language)

def _decision(r: Rng, w: _World, i: int) -> dict[str, Any]:
    a, b, n, m = r.randint(2, 9), r.randint(10, 99), r.randint(2, 48), r.randint(10, 59)
    b1, b2, b3 = r.sample(range(20, 60), 3)
    options = [
        ("de COPRAR-validatie", f"synchroon in de edi-gateway met een timeout van {a} seconden",
         f"async via topic edi.coprar.validate.v{b}", f"de gateway mag niet blokkeren als een rederij {n * 10} "
         "berichten tegelijk stuurt", "how COPRAR validation is done", "nl"),
        ("housekeeping", f"housekeeping overdag tussen de pieken door, max {n} moves per uur",
         f"housekeeping alleen tussen 01:{m:02d} en 04:{m:02d}", "overdag staan de ASC's al vol met gate-moves",
         "when housekeeping moves run", "nl"),
        ("the reefer allocation", f"all reefers in block {b1}", f"reefers split over blocks {b2} and {b3}",
         "one block can't take the peak when two Asia calls overlap", "where reefers are allocated", "en"),
        ("the slot history", f"an extra column on SLOT_RESERVATION with the previous slot ({a} deep)",
         f"a new table YARD_SLOT_HIST_{b} partitioned by month", "the auditors want every move, not just the last",
         "how the slot history is stored", "en"),
        ("dual cycling", f"single cycling on all quay cranes for at least {n} days",
         f"dual cycling on STS-{b} only", "that crane has the newest spreader and the best operators on nights",
         "where dual cycling is used", "en"),
        ("de gate-afspraken", f"tijdslots van {a * 5 + 5} minuten voor iedereen",
         f"tijdslots van {(a + 2) * 5 + 5} minuten met max {n} trucks per slot",
         "anders staat de Maasvlakteweg weer vol", "how gate appointment slots are sized", "nl"),
        ("the gate stream partitioning", f"one partition per lane ({n + 12} partitions)",
         f"keying by container number over {b} partitions", "per-lane ordering broke when lanes switched direction",
         "how the gate stream is partitioned", "en"),
        ("het optimalisatiemodel", f"de greedy heuristiek met lookahead {a}",
         f"het CP-SAT-model met een tijdslimiet van {b * 3} seconden", f"de greedy versie gaf {n}% meer rehandles",
         "which optimization model the yard optimizer uses", "nl"),
        ("BAPLIE import failures", f"retrying the BAPLIE import every {a} minutes",
         f"a dead-letter topic edi.baplie.dlq.v{b} with manual replay", "retries hid a broken file for a whole night",
         "what happens when a BAPLIE import fails", "en"),
        ("de PLC-events", f"PLC-events {n * 5} dagen in Oracle bewaren",
         f"PLC-events naar object storage met {b * 4} dagen retentie", "de tablespace liep vorige maand vol",
         "where the PLC events are kept", "nl"),
        ("twin lifts", f"twin lifts only for empties on the {r.choice(('day', 'night'))} shift",
         f"twin lifts up to {a},{m % 10} t weight difference", "the spreader vendor signed off on it",
         "when twin lifts are allowed", "en"),
        ("de berth-buffer", f"een vaste buffer van {n + 10} minuten tussen twee calls",
         f"een buffer per ligplaats uit de tabel BERTH_BUFFER_V{b}", "bij de Amaliahaven is het tij belangrijker dan "
         "bij de rest", "how the buffer between two vessel calls is set", "nl"),
        ("the customs holds", f"polling the customs portal every {a} minutes",
         f"the customs webhook into topic customs.holds.v{b}", "the portal rate-limits us at night",
         "how customs holds reach the terminal", "en"),
    ]
    topic, old, new, why, query, lang = options[i % len(options)]
    return {"topic": topic, "stale": old, "value": new, "why": why, "query": query, "lang": lang}


# plans: the user's order of work in prose

def _plan(r: Rng, w: _World, i: int) -> dict[str, Any]:
    vessel, n, b = r.choice(w.vessels), r.randint(3, 40), r.randint(20, 69)
    options = [
        ("nl", f"bays {r.randint(1, 30):02d} tot en met {r.randint(31, 74):02d} met de hand nalopen",
         "Plan voor vanmiddag: eerst de BAPLIE van de {vessel} opnieuw inlezen, dan {v}, en daarna pas de "
         "stuwplanning terug naar de rederij.", "what comes between re-reading the BAPLIE and returning the stowage plan"),
        ("en", f"replay the gate stream from 0{r.randint(4, 9)}:{r.randint(10, 59)} on partitions 0-{r.randint(3, 11)}",
         "Here's how I want to do it: first freeze the optimizer on the blocks we touch, then {v}, and after that we "
         "re-enable automation one crane at a time.", "what happens between freezing the optimizer and re-enabling automation"),
        ("nl", f"{r.choice(DAGEN)}nacht om 0{r.randint(1, 4)}:{r.choice(('00', '15', '30', '45'))} naar productie",
         "Eerst de migratie op acc, dan een dag meedraaien met de nachtdienst, en als dat goed gaat {v}.",
         "when the migration goes to production after acceptance"),
        ("en", f"SLOT_RES_BAK_{w.date.replace('-', '')}_{n}",
         "First back up SLOT_RESERVATION into {v}, then run the cleanup in batches of a thousand, and after that "
         "compare the counts with the yard inventory.", "the backup table to create before the slot cleanup"),
        ("nl", f"de sensoren van spreader SP{r.randint(1, 9)} vergelijken met SP{r.randint(10, 19)}",
         "Ik zie het zo: eerst de PLC-logs van vannacht doorlopen, dan {v}, en daarna pas met de monteur praten over "
         "een nieuwe spreader.", "what to compare before talking to the mechanic about a new spreader"),
        ("en", f"a load test at {n * 10} gate transactions a minute",
         "Order of things: first the unit tests, then {v}, and after that the canary on one lane for a full shift.",
         "what comes between the unit tests and the canary lane"),
        ("nl", f"de alert op p95 boven {n} minuten zetten",
         "Eerst het dashboard opschonen, dan de runbook bijwerken, en daarna {v}, dan weet de storingsdienst waar hij "
         "naar moet kijken.", "the last step after cleaning up the dashboard and updating the runbook"),
        ("nl", f"{n} reefers naar blok {b} verhuizen",
         "Stappenplan: eerst de reefer-lijst van {carrier} checken tegen de plugs, daarna {v}, en tot slot de "
         "nachtdienst briefen.", "what to do after checking the carrier's reefer list against the plugs"),
        ("en", f"run {n * 10} archived COPRARs from {r.choice(CARRIERS)} through it",
         "First we get the new COPRAR mapping green on acc, then {v}, and after that we switch the production route.",
         "how the new COPRAR mapping is tested before switching production"),
        ("nl", f"de {n} units met scanstatus handmatig vrijgeven",
         "Eerst de douane-holds uit de tabel halen die al lang verlopen zijn, dan {v}, daarna pas de gate weer open "
         "voor die units.", "what happens between cleaning up old customs holds and reopening the gate"),
        ("en", f"move the {n} empties from block {b} to the depot lanes",
         "Tonight: first the discharge of the {vessel}, then {v}, and after that housekeeping can have the rest of "
         "the shift.", "what happens between the discharge and the night's housekeeping"),
        ("nl", f"de berth windows van {r.choice(DAGEN)} tot en met {r.choice(DAGEN)} herberekenen",
         "Volgorde: eerst de nieuwe tijtabel inladen, dan {v}, en daarna de rederijen mailen wat er verschuift.",
         "what to recompute after loading the new tide table"),
        ("en", f"compare {n * 100} gate transactions of last night with the CODECOs",
         "Let's first check the projector is caught up, then {v}, and after that decide if we need a replay at all.",
         "what to compare before deciding on a replay"),
    ]
    lang, value, text, query = options[i % len(options)]
    return {"value": value, "lang": lang, "query": query,
            "text": text.format(v=value, vessel=vessel, carrier=r.choice(CARRIERS))}


# files: the one edit call that writes a new file

FILE_DESCS = {"CutOffGuard": ("de cut-off check voor exports", "the export cut-off check"),
              "DraftRestrictionPolicy": ("de diepgangsbeperking per ligplaats", "the draft restriction per berth"),
              "TideWindowCalculator": ("het tijvenster voor diepstekers", "the tide window for deep-draught vessels"),
              "PilotOrderClient": ("de loodsbestelling", "the pilot order client"),
              "ShiftBreakPolicy": ("de pauzeregels in de shiftplanner", "the break rules of the shift planner"),
              "TwinLiftPairing": ("het koppelen van twin lifts", "the twin-lift pairing"),
              "ImdgSegregationRule": ("de IMDG-scheiding in de yard", "the IMDG segregation in the yard"),
              "ReeferPreplugPlanner": ("het voor-aansluiten van reefers", "the reefer pre-plugging"),
              "OogSlotFinder": ("het zoeken van een plek voor OOG-units", "the slot search for out-of-gauge units"),
              "VgmToleranceCheck": ("de VGM-tolerantie aan de gate", "the VGM tolerance check at the gate"),
              "BargeWindowPlanner": ("de planning van binnenvaartvensters", "the barge window planning"),
              "RailSlotAllocator": ("de toewijzing van railslots", "the rail slot allocation"),
              "TwistlockAlarmGate": ("de blokkade na een twistlock-alarm", "the lock-out after a twistlock alarm"),
              "ScanLaneRouter": ("de routering naar de scanlane", "the routing to the customs scan lane")}
MIGRATIONS = (("add_reefer_plug_owner", "an owner column for reefer plugs"),
              ("slot_hist_partitioned", "the partitioned slot history table"),
              ("gate_appt_overbook", "the overbooking limit on gate appointments"),
              ("vessel_call_max_draft", "a maximum draft on vessel calls"),
              ("customs_hold_reason", "a reason code on customs holds"),
              ("twistlock_incident_log", "the twistlock incident log table"),
              ("barge_window_index", "an index for barge windows"),
              ("crane_job_priority", "a priority on crane jobs"))
OPT_CONSTRAINTS = (("reefer_tier_cap", "the reefer tier cap"), ("oog_neighbours", "the free neighbours around OOG units"),
                   ("imdg_distance", "the IMDG distance rule"), ("weight_grading", "heavy-under-light weight grading"),
                   ("twin_pairing", "twin pairing in the yard"), ("dwell_priority", "dwell-time priority"),
                   ("empty_depot_lanes", "keeping empties in the depot lanes"))
DASHBOARDS = (("asc-twistlock-alarms", "twistlock alarms per ASC"), ("gate-turnaround-lanes", "truck turnaround per lane"),
              ("coprar-rejects", "rejected COPRARs per line"), ("reefer-plug-usage", "reefer plug usage per block"),
              ("quay-crane-moves", "quay crane moves per hour"), ("kafka-projector-lag", "the gate projector's lag"))


def _java_class(pkg: str, cls: str, r: Rng) -> str:
    field = r.choice(("Duration grace", "int maxTier", "BigDecimal toleranceKg", "Duration buffer"))
    return (f"package nl.mvt.{pkg};\n\nimport java.time.Duration;\nimport java.time.Instant;\nimport java.math.BigDecimal;\n"
            f"import org.springframework.stereotype.Component;\n\n/** {cls}: extracted from the planner, see the ticket. */\n"
            f"@Component\npublic class {cls} {{\n\n    private final {field};\n\n"
            f"    public {cls}(PlanningProperties props) {{\n"
            f"        this.{field.split()[1]} = props.{field.split()[1]}();\n    }}\n\n"
            f"    public Verdict check(VesselCall call, Unit unit, Instant now) {{\n"
            f"        if (call.eta() == null) {{\n            return Verdict.unknown(\"call without ETA\");\n        }}\n"
            f"        if (unit.isReefer() && now.isAfter(call.eta().minus(Duration.ofHours({r.randint(6, 48)})))) {{\n"
            f"            return Verdict.reject(\"too late for \" + call.id());\n        }}\n"
            f"        return Verdict.ok();\n    }}\n}}\n")


def _file(r: Rng, w: _World, i: int) -> dict[str, Any]:
    kind = i % 7
    if kind in (0, 1):
        module, pkg, cls = r.choice(FACT_CLASSES)
        nl, en = FILE_DESCS[cls]
        if kind == 0:
            path = f"tos-planning/{module}/src/main/java/nl/mvt/{pkg.replace('.', '/')}/{cls}.java"
            return {"value": path, "lang": "nl", "query": f"the new class file for {en}", "compile": module,
                    "ask": f"Kun je {nl} in een eigen klasse zetten? Nu zit het verstopt in de StackPlanner en niemand "
                           "snapt het meer.", "content": _java_class(pkg, cls, r),
                    "summary": "Nieuwe klasse staat erin, de planner roept hem nu aan via de constructor-injectie."}
        path = f"tos-planning/{module}/src/test/java/nl/mvt/{pkg.replace('.', '/')}/{cls}Test.java"
        body = "".join(f"    @Test\n    void {m}() {{\n        assertThat(subject.check(call(), unit(), "
                       f"at(\"{r.randint(0, 23):02d}:{r.randint(0, 59):02d}\"))).isNotNull();\n    }}\n\n"
                       for m in r.sample(FACT_METHODS, 4))
        return {"value": path, "lang": "en", "query": f"the new test file for {en}", "compile": module,
                "ask": f"Write tests for {en}, at least the edge cases around midnight and calls without an ETA.",
                "content": f"package nl.mvt.{pkg};\n\nimport static org.assertj.core.api.Assertions.assertThat;\n\n"
                           f"import org.junit.jupiter.api.Test;\n\nclass {cls}Test {{\n\n{body}}}\n",
                "summary": "Four tests, all green locally; the midnight case is the interesting one."}
    if kind == 2:
        name, en = r.choice(MIGRATIONS)
        path = f"tos-planning/yard-core/src/main/resources/db/migration/V2024_11_{w.day:02d}_{r.randint(1, 99):02d}__{name}.sql"
        return {"value": path, "lang": "nl", "query": f"the Flyway migration that adds {en}", "compile": "yard-core",
                "ask": f"Maak een Flyway-migratie voor {en}; nullable eerst, de backfill doen we later.",
                "content": f"-- {en}\nALTER TABLE YARD.{name.split('_')[0].upper()}_{name.split('_')[1].upper()} ADD "
                           f"({name.split('_')[-1].upper()}_CD VARCHAR2({r.randint(8, 40)} CHAR) NULL);\n\n"
                           f"CREATE INDEX YARD.IX_{name.upper()[:20]} ON YARD.{name.split('_')[0].upper()}_"
                           f"{name.split('_')[1].upper()} ({name.split('_')[-1].upper()}_CD) ONLINE;\n",
                "summary": "Migratie staat klaar, nullable kolom plus index (ONLINE, dus geen lock op de tabel)."}
    if kind == 3:
        carrier = r.randrange(len(CARRIERS))
        msg, ver = r.choice(("coprar", "codeco", "baplie")), r.choice(("95b", "00b", "13b", "16a"))
        path = f"edi-gateway/src/main/resources/mappings/{msg}/{CARRIER_CODES[carrier].lower()}-{msg}-d{ver}.xml"
        return {"value": path, "lang": "en", "compile": "edi-gateway",
                "query": f"the new {msg.upper()} mapping file for {CARRIERS[carrier]}",
                "ask": f"{CARRIERS[carrier]} moved to a new {msg.upper()} version, can you add a mapping next to the old "
                       "one? Keep the old one for the calls already announced.",
                "content": f"<mapping message=\"{msg.upper()}\" version=\"D{ver.upper()}\" "
                           f"sender=\"{CARRIER_CODES[carrier]}\">\n"
                           "  <segment tag=\"EQD\" qualifier=\"CN\" target=\"unit.number\"/>\n"
                           "  <segment tag=\"LOC\" qualifier=\"147\" target=\"unit.stowage\" format=\"BBBRRTT\"/>\n"
                           "  <segment tag=\"MEA\" qualifier=\"AAE\" sub=\"VGM\" target=\"unit.vgmKg\"/>\n"
                           "  <segment tag=\"TMP\" qualifier=\"2\" target=\"unit.reeferSetpoint\"/>\n</mapping>\n",
                "summary": "Mapping added; the router picks it by sender and version, the old one stays for the "
                           "announced calls."}
    if kind == 4:
        name, en = r.choice(OPT_CONSTRAINTS)
        path = f"yard-optimizer/yardopt/constraints/{name}_v{r.randint(2, 9)}.py"
        return {"value": path, "lang": "nl", "query": f"the optimizer constraint module for {en}", "compile": None,
                "ask": f"Zet {en} als losse constraint in de optimizer, dan kunnen we hem per blok aan- en uitzetten.",
                "content": f"\"\"\"{en}.\"\"\"\n\nfrom ortools.sat.python import cp_model\n\n\ndef add(model: "
                           f"cp_model.CpModel, x, yard, blocks: list[int]) -> None:\n    for b in blocks:\n"
                           f"        for stack in yard.stacks(b):\n            model.Add(sum(x[u, stack] for u in yard.units) "
                           f"<= stack.max_tier)\n",
                "summary": "Constraint staat erin en is per blok te schakelen via de config."}
    if kind == 5:
        name, en = r.choice(DASHBOARDS)
        path = f"ops/grafana/dashboards/{name}-{r.randint(2, 99)}.json"
        return {"value": path, "lang": "en", "query": f"the dashboard file for {en}", "compile": None,
                "ask": f"Can you make a dashboard for {en}? Nothing fancy, one panel per crane or lane is fine.",
                "content": json.dumps({"title": en.capitalize(), "panels": [{"type": "timeseries", "title": en,
                                       "targets": [{"expr": f"sum by (crane) (rate({name.replace('-', '_')}_total[5m]))"}]}],
                                       "refresh": "30s"}, indent=2),
                "summary": "Dashboard JSON is in, provisioned on the next Grafana sync."}
    crane = r.choice(w.ascs)
    path = f"ops/plc/alarm-filters/{crane.lower()}-suppress-{r.randint(100, 999)}.yaml"
    return {"value": path, "lang": "nl", "query": f"the alarm filter file for {crane}", "compile": None,
            "ask": f"De {crane} spamt HEARTBEAT-warnings. Kun je een alarmfilter maken dat alleen die onderdrukt, de "
                   "rest moet gewoon door?",
            "content": f"crane: {crane}\nsuppress:\n  - code: 3101\n    level: WARN\n    max_per_minute: 0\n"
                       "forward_all_other: true\n",
            "summary": "Filter staat erin; alleen code 3101 op WARN wordt onderdrukt."}


# errors: a whole line of a tool's output; parts are strings and ("bulk", kind) placeholders

MVN_HEAD = ("[INFO] Scanning for projects...\n[INFO] \n[INFO] ------------------< nl.mvt.tos:{m} >------------------\n"
            "[INFO] Building {m} 4.7.0-SNAPSHOT\n"
            "[INFO] --------------------------------[ jar ]---------------------------------\n"
            "[INFO] \n[INFO] --- maven-surefire-plugin:3.2.2:test (default-test) @ {m} ---\n[INFO] \n"
            "[INFO] -------------------------------------------------------\n[INFO]  T E S T S\n"
            "[INFO] -------------------------------------------------------")


def _mvn_pass(r: Rng, module: str) -> list[Any]:
    total = r.randint(80, 420)
    return [MVN_HEAD.format(m=module), ("bulk", "mvn"),
            f"[INFO] \n[INFO] Results:\n[INFO] \n[INFO] Tests run: {total}, Failures: 0, Errors: 0, Skipped: "
            f"{r.randint(0, 4)}\n[INFO] \n[INFO] ------------------------------------------------------------------------\n"
            f"[INFO] BUILD SUCCESS\n[INFO] ------------------------------------------------------------------------\n"
            f"[INFO] Total time:  0{r.randint(1, 4)}:{r.randint(10, 59)} min"]


WEEKDAYS = ("Fri", "Sat", "Sun", "Mon", "Tue", "Wed", "Thu")


def _sqlplus_banner(w: _World, r: Rng, sid: str) -> str:
    return (f"SQL*Plus: Release 19.0.0.0.0 - Production on {WEEKDAYS[(w.day - 1) % 7]} Nov "
            f"{w.day} {w.time(r)} 2024\nVersion 19.21.0.0.0\n\nCopyright (c) 1982, 2023, Oracle.  All rights reserved.\n\n"
            f"Connected to:\nOracle Database 19c Enterprise Edition Release 19.0.0.0.0 - Production\n"
            f"Version 19.21.0.0.0\n\nSQL> -- {sid}")


ERROR_KINDS = ("mvn", "ora1", "edi", "plc", "caused", "kafka", "ora12899", "pytest", "ora2291")


def _error(r: Rng, w: _World, i: int) -> dict[str, Any]:
    kind = ERROR_KINDS[i % len(ERROR_KINDS)]
    if kind == "plc":
        return _error_plc(r, w)
    if kind == "pytest":
        return _error_pytest(r, w)
    if kind == "mvn":
        module = r.choice(MODULES[:4])
        pkg, cls = r.choice(FACT_TESTS)
        method, line = r.choice(FACT_METHODS), r.randint(40, 400)
        x, y = r.choice(((f"{r.randint(1, 9)}", f"{r.randint(10, 19)}"), ("true", "false"),
                         (f"PT{r.randint(1, 9)}H", f"PT{r.randint(1, 9)}H{r.randint(1, 59)}M"),
                         (f"{r.choice(w.berths)}", f"{r.choice(w.berths)}X")))
        value = f"[ERROR]   {cls}.{method}:{line} expected: <{x}> but was: <{y}>"
        total = r.randint(80, 420)
        tail = (f"[INFO] Running nl.mvt.{pkg}.{cls}\n[ERROR] Tests run: {r.randint(3, 14)}, Failures: 1, Errors: 0, "
                f"Skipped: 0, Time elapsed: {r.randint(0, 4)}.{r.randint(100, 999)} s <<< FAILURE! - in nl.mvt.{pkg}.{cls}\n"
                f"[ERROR] nl.mvt.{pkg}.{cls}.{method}  Time elapsed: 0.0{r.randint(10, 99)} s  <<< FAILURE!\n"
                f"org.opentest4j.AssertionFailedError: expected: <{x}> but was: <{y}>\n"
                "\tat org.junit.jupiter.api.AssertionFailureBuilder.build(AssertionFailureBuilder.java:151)\n"
                "\tat org.junit.jupiter.api.AssertEquals.failNotEqual(AssertEquals.java:197)\n"
                f"\tat nl.mvt.{pkg}.{cls}.{method}({cls}.java:{line})\n\n[INFO] \n[INFO] Results:\n[INFO] \n"
                f"[ERROR] Failures: \n{value}\n[INFO] \n[ERROR] Tests run: {total}, Failures: 1, Errors: 0, Skipped: "
                f"{r.randint(0, 4)}\n[INFO] \n[INFO] BUILD FAILURE\n"
                f"[INFO] Total time:  0{r.randint(1, 4)}:{r.randint(10, 59)} min\n"
                f"[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:3.2.2:test "
                f"(default-test) on project {module}: There are test failures.")
        src = f"tos-planning/{module}/src/main/java/nl/mvt/{pkg.replace('.', '/')}/{cls[:-4]}.java"
        return {"value": value, "tool": "mvn", "query": f"the failing assertion in {cls}",
                "ask": r.choice((f"Draai de tests van {module} even, ik wil weten of {cls[:-4]} nog klopt.",
                                 f"Run the {module} tests please, {cls} was flaky yesterday.")),
                "args": {"cwd": "tos-planning", "args": f"-pl {module} test"},
                "parts": [MVN_HEAD.format(m=module), ("bulk", "mvn"), tail],
                "explain": f"Eén test faalt:\n\n```\n{value}\n```\n\nDe verwachting in {cls}.{method} klopt niet meer "
                           f"met wat {cls[:-4]} teruggeeft; regel {line} in de test.",
                "fix": (src, "return Verdict.ok();", "return Verdict.ok(window);"),
                "rerun": {"cwd": "tos-planning", "args": f"-pl {module} test -Dtest={cls}"},
                "pass": _mvn_pass(r, module)}
    if kind == "caused":
        module = "berth-core"
        c1, c2 = r.sample(w.calls, 2)
        value = (f"Caused by: java.lang.IllegalStateException: berth window of {c1} overlaps {c2} by "
                 f"{r.randint(5, 180)} min at {r.choice(w.berths)}")
        line = r.randint(40, 300)
        tail = (f"[ERROR] Tests run: 1, Failures: 0, Errors: 1, Skipped: 0, Time elapsed: 6.{r.randint(100, 999)} s <<< "
                "FAILURE! - in nl.mvt.berth.window.BerthWindowServiceIT\n"
                "[ERROR] contextLoads  Time elapsed: 0.004 s  <<< ERROR!\n"
                "java.lang.IllegalStateException: Failed to load ApplicationContext for "
                "[WebMergedContextConfiguration@5f1a7c]\n"
                "\tat org.springframework.test.context.cache.DefaultCacheAwareContextLoaderDelegate.loadContext("
                "DefaultCacheAwareContextLoaderDelegate.java:180)\n"
                "Caused by: org.springframework.beans.factory.BeanCreationException: Error creating bean with name "
                "'berthWindowSeeder': Invocation of init method failed\n"
                f"{value}\n\tat nl.mvt.berth.window.BerthWindowSeeder.seed(BerthWindowSeeder.java:{line})\n"
                "\t... 42 common frames omitted\n[INFO] \n[INFO] BUILD FAILURE")
        return {"value": value, "tool": "mvn", "query": "why the berth-core integration context fails to start",
                "ask": "De integratietests van berth-core starten niet eens op bij mij, kun jij ze draaien?",
                "args": {"cwd": "tos-planning", "args": "-pl berth-core verify -Dit.test=BerthWindowServiceIT"},
                "parts": [MVN_HEAD.format(m=module), ("bulk", "mvn"), tail],
                "explain": f"De context laadt niet, de seeder struikelt over overlappende windows:\n\n```\n{value}\n```\n\n"
                           "De seed-data in de testresources is ouder dan de nieuwe overlapcheck.",
                "fix": ("tos-planning/berth-core/src/test/resources/seed/berth-windows.sql", f"'{c2}'", f"'{c2}-SHIFTED'"),
                "rerun": {"cwd": "tos-planning", "args": "-pl berth-core verify -Dit.test=BerthWindowServiceIT"},
                "pass": _mvn_pass(r, module)}
    if kind.startswith("ora"):
        sid = "TOSACC"
        if kind == "ora1":
            value = f"ORA-00001: unique constraint (YARD.{r.choice(FACT_CONSTRAINTS)}) violated"
            stmt = "INSERT INTO yard.slot_reservation (container_no, block, row_no, tier) VALUES (:c, :b, :r, :t)"
            query = "the Oracle error the slot reservation insert failed with"
        elif kind == "ora12899":
            table, col, mx = r.choice(FACT_COLUMNS)
            value = (f"ORA-12899: value too large for column \"YARD\".\"{table}\".\"{col}\" "
                     f"(actual: {mx + r.randint(1, 30)}, maximum: {mx})")
            stmt = f"UPDATE yard.{table.lower()} SET {col.lower()} = :v WHERE id = :id"
            query = f"the Oracle error the {table.lower()} update failed with"
        else:
            value = f"ORA-02291: integrity constraint (YARD.{r.choice(FACT_FKS)}) violated - parent key not found"
            stmt = "INSERT INTO yard.yard_move (container_no, from_pos, to_pos, crane) VALUES (:c, :f, :t, :k)"
            query = "the Oracle error the yard move insert failed with"
        head = (_sqlplus_banner(w, r, sid) + "\nSQL> SELECT container_no, iso, pos, cat, status, weight_kg, call_id, "
                "pod FROM yard.v_inventory WHERE block = :b;\n")
        return {"value": value, "tool": "sqlplus", "query": query,
                "ask": r.choice(("Kun je dat script op acc nog eens draaien? Gisteren ging het mis bij de insert.",
                                 "Run the fix-up script against acc again, it died halfway yesterday.")),
                "args": {"sid": sid, "user": "yard_app", "script": "ops/sql/fixup_reservations.sql"},
                "parts": [head, ("bulk", "sql"), f"\nSQL> {stmt};\n{stmt}\n*\nERROR at line 1:\n{value}\n\n\n"
                          "SQL> ROLLBACK;\n\nRollback complete.\n\nSQL> Disconnected from Oracle Database 19c Enterprise "
                          "Edition Release 19.0.0.0.0 - Production"],
                "explain": f"Het script stopt op:\n\n```\n{value}\n```\n\nDe rest is teruggedraaid, er is dus niks half "
                           "weggeschreven.",
                "fix": ("ops/sql/fixup_reservations.sql", "INSERT INTO", "MERGE INTO"),
                "rerun": {"sid": sid, "user": "yard_app", "script": "ops/sql/fixup_reservations.sql"},
                "pass": [head, ("bulk", "sql"), f"\nSQL> {stmt};\n\n1 row created.\n\nSQL> COMMIT;\n\nCommit complete.\n\n"
                         "SQL> Disconnected from Oracle Database 19c Enterprise Edition Release 19.0.0.0.0 - Production"]}
    if kind == "edi":
        bay = r.randint(75, 98)
        value = (f"ERROR seg {r.randint(100, 9999):04d} LOC+147+{bay:03d}{r.randint(0, 20):02d}{r.choice((82, 84, 86))}::5' "
                 f"bay {bay} not in vessel profile IMO{r.randint(9100000, 9899999)} (max bay {r.randint(60, 74)})")
        vessel = r.choice(w.vessels)
        fname = f"/data/edi/in/baplie/{w.date.replace('-', '')}_{r.choice(CARRIER_CODES)}_{r.randint(1000, 9999)}.edi"
        head = f"edi_inspect 2.3.1 - {fname}\nmessage: BAPLIE D.95B SMDG20  vessel: {vessel}\nsegments:"
        return {"value": value, "tool": "edi_inspect", "query": f"the segment error in the BAPLIE of the {vessel}",
                "ask": f"De BAPLIE van de {vessel} komt niet door de import, kun je hem even inspecteren?",
                "args": {"file": fname, "validate": True},
                "parts": [head, ("bulk", "edi"), f"---\nvalidation: 1 error, {r.randint(0, 6)} warnings\n{value}\n"
                          "import: REJECTED"],
                "explain": f"Eén fout in de BAPLIE:\n\n```\n{value}\n```\n\nDe rederij stuurt een bay die het "
                           "scheepsprofiel niet kent; waarschijnlijk een oud profiel bij ons.",
                "fix": ("edi-gateway/src/main/resources/vessel-profiles.yml", "max-bay: 74", "max-bay: 98"),
                "rerun": {"file": fname, "validate": True},
                "pass": [head, ("bulk", "edi"), f"---\nvalidation: 0 errors, {r.randint(0, 6)} warnings\nimport: ACCEPTED"]}
    if kind == "kafka":
        p, off = r.randint(0, 11), r.randint(40_000_000, 90_000_000)
        value = (f"{w.date}T{w.time(r)}.{r.randint(0, 999):03d}Z ERROR [gate-tx-projector] Deserialization failed for "
                 f"gate.transactions.v3-{p} at offset {off}: Unknown magic byte!")
        return {"value": value, "tool": "kafka_tail", "query": f"the error the gate projector hit on partition {p}",
                "ask": f"De projector staat stil op partitie {p}, kun je meekijken wat er binnenkomt?",
                "args": {"topic": "gate.transactions.v3", "partition": p, "limit": 400, "with_consumer_log": True},
                "parts": [("bulk", "kafka", str(p)), f"{value}\n-- consumer gate-tx-projector stopped: 1 error"],
                "explain": f"Daar zit hem:\n\n```\n{value}\n```\n\nEr staat een record zonder schema-header op de "
                           "topic, vermoedelijk van de testproducer.",
                "fix": ("gate-service/src/main/resources/application-prd.yml", "skip-poison: false", "skip-poison: true"),
                "rerun": {"topic": "gate.transactions.v3", "partition": p, "limit": 400, "with_consumer_log": True},
                "pass": [("bulk", "kafka", str(p)), "-- consumer gate-tx-projector running, 0 errors"]}
    raise AssertionError(kind)


def _error_plc(r: Rng, w: _World) -> dict[str, Any]:
    crane = r.choice(w.ascs)
    value = (f"{w.date} {r.randint(0, 23):02d}:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}.{r.randint(0, 999):03d} "
             f"{crane} ALARM 4711 TWISTLOCK_NOT_LOCKED spreader=SP{r.randint(1, 19)} tl={r.randint(1, 4)}/4 "
             f"job=J{r.randint(100000, 999999)}")
    return {"value": value, "tool": "plc_log", "query": f"the alarm {crane} logged during the landside handover",
            "ask": f"{crane} staat weer in handbediening, wat zegt de PLC-log?",
            "args": {"crane": crane, "since": f"{w.date}T00:00", "level": "INFO"},
            "parts": [("bulk", "plc", crane),
                      f"{value}\n{w.date} {w.time(r)}.000 {crane} WARN 9001 AUTO_MODE_OFF reason=ALARM_4711"],
            "explain": f"Dit is de melding:\n\n```\n{value}\n```\n\nDe spreader meldde niet alle twistlocks dicht, dus "
                       "de kraan is terecht uit automaat gegaan.",
            "fix": None,
            "fixed_by": f"de TD heeft de twistlock-sensor op die spreader vervangen, check de log van {crane} nog eens",
            "rerun": {"crane": crane, "since": f"{w.date}T{r.randint(12, 23)}:00", "level": "INFO"},
            "pass": [("bulk", "plc", crane)]}


def _error_pytest(r: Rng, w: _World) -> dict[str, Any]:
    name, _ = r.choice(OPT_CONSTRAINTS)
    weight, limit = r.randint(91, 140), r.choice((80, 85, 90))
    value = (f"FAILED tests/test_{name}.py::test_{name}_block[{r.randint(20, 69)}-{r.randint(1, 40)}] - AssertionError: "
             f"stack weight {weight}.{r.randint(0, 9)} t exceeds limit {limit}.0 t")
    return {"value": value, "tool": "shell", "query": f"the failing optimizer test for {name.replace('_', ' ')}",
            "ask": "Can you run the optimizer tests? I changed the weight grading last night.",
            "args": {"command": "cd yard-optimizer && python -m pytest -q tests"},
            "parts": ["============================= test session starts ==============================\n"
                      "platform linux -- Python 3.11.9, pytest-8.2.1, pluggy-1.5.0\nrootdir: /work/yard-optimizer\n"
                      "plugins: xdist-3.6.1, hypothesis-6.103.0\ncollected 212 items\n", ("bulk", "pytest"),
                      f"=========================== short test summary info ============================\n{value}\n"
                      f"======================== 1 failed, {r.randint(150, 211)} passed in "
                      f"{r.randint(20, 90)}.{r.randint(10, 99)}s ========================="],
            "explain": f"One failure:\n\n```\n{value}\n```\n\nThe new grading lets a heavy unit end up on a light stack.",
            "fix": ("yard-optimizer/yardopt/heuristics.py", "if w > limit:", "if w >= limit:"),
            "rerun": {"command": "cd yard-optimizer && python -m pytest -q tests"},
            "pass": ["============================= test session starts ==============================\n"
                     "platform linux -- Python 3.11.9, pytest-8.2.1, pluggy-1.5.0\ncollected 212 items\n", ("bulk", "pytest"),
                     f"======================== 212 passed in {r.randint(20, 90)}.{r.randint(10, 99)}s "
                     "========================="]}


# findings: what a tool shows, explained by the agent right after

def _finding(r: Rng, w: _World, i: int) -> dict[str, Any]:
    kind = i % 8
    if kind == 0:
        key, path = r.choice(FACT_KEYS), r.choice(NOISE_CONFIGS)
        value = f"{key}: {r.randint(2, 900)}"
        return {"value": value, "tool": "read_file",
                "query": f"what {key.replace('-', ' ')} is set to in {path.split('/')[-1]}",
                "ask": f"Wat staat er eigenlijk in {path}? Ik vermoed dat de gate-check daar een instelling vandaan haalt.",
                "args": {"path": path},
                "parts": [("bulk", "yaml", path), f"  gate-check:\n    enabled: true\n    {value}\n    strict: false"],
                "explain": f"Gevonden: onder `gate-check` staat `{value}`. Daar haalt de gate-check de waarde vandaan, "
                           "dus dat verklaart wat de truckers zien."}
    if kind == 1:
        lane = r.choice(LANES)
        value = f"p95 truck turnaround {lane}: {r.randint(31, 79)}m{r.randint(0, 59):02d}s"
        return {"value": value, "tool": "grafana", "query": f"the 95th percentile truck turnaround on lane {lane}",
                "ask": f"How bad is the truck turnaround on {lane} today? The hauliers are complaining again.",
                "args": {"dashboard": "gate-ops", "panel": "Truck turnaround", "from": "now-24h", "stats": True},
                "parts": [("bulk", "grafana"), f"stats (last 24h):\n  p50 truck turnaround all lanes: "
                          f"{r.randint(18, 29)}m{r.randint(0, 59):02d}s\n  {value}\n  samples: {r.randint(400, 2400)}"],
                "explain": f"That lane is well above the rest: {value}, against a median across all lanes in the "
                           "twenties. The queue builds up in the afternoon."}
    if kind == 2:
        crane = r.choice(w.ascs)
        value = f"TL_SENSOR_FLAP spreader=SP{r.randint(1, 19)} sensor=TL{r.randint(1, 4)} transitions={r.randint(20, 90)}/60s"
        return {"value": value, "tool": "plc_log", "query": f"the root cause of the spurious stops on {crane}",
                "ask": f"Waarom stopt {crane} steeds halverwege een job? Geen alarm op het scherm.",
                "args": {"crane": crane, "since": f"{w.date}T00:00", "level": "WARN"},
                "parts": [("bulk", "plc", crane), f"{w.stamp(r)} {crane} WARN 3307 {value}", ("bulk", "plc", crane)],
                "explain": f"De oorzaak staat in de WARN-regels: `{value}`. Die sensor klappert, de PLC ziet de lock "
                           "even open gaan en stopt de beweging zonder alarm."}
    if kind == 3:
        value = f"avg dwell import {r.randint(2, 9)}.{r.randint(10, 99)} days (n={r.randint(800, 9000)})"
        sid = r.choice(SIDS[:2])
        return {"value": value, "tool": "sqlplus", "query": "the average dwell time of import containers this month",
                "ask": "Hoe lang staan imports gemiddeld bij ons deze maand? Finance wil een getal.",
                "args": {"sid": sid, "user": "yard_ro", "sql": "SELECT 'avg dwell import ' || ROUND(AVG(dwell_h)/24, 2) "
                         "|| ' days (n=' || COUNT(*) || ')' AS summary FROM yard.v_dwell WHERE cat = 'IMP'"},
                "parts": [_sqlplus_banner(w, r, sid), ("bulk", "sql"),
                          f"\nSUMMARY\n--------------------------------------------\n{value}\n\n"
                          f"Elapsed: 00:00:0{r.randint(1, 9)}.{r.randint(10, 99)}"],
                "explain": f"Het getal voor finance: {value}. Dat is inclusief de units die op een douanehold staan."}
    if kind == 4:
        p = r.randint(0, 11)
        value = f"partition {p} lag {r.randint(2000, 90000)}"
        return {"value": value, "tool": "kafka_tail", "query": f"how far the gate projector is behind on partition {p}",
                "ask": "Is the projector keeping up? The yard view feels a few minutes behind.",
                "args": {"topic": "gate.transactions.v3", "group": "gate-tx-projector", "describe": True, "limit": 200},
                "parts": [f"# consumer group gate-tx-projector: {value} (oldest unprocessed {w.date}T{w.time(r)}Z)",
                          ("bulk", "kafka", str(p))],
                "explain": f"Not everywhere: {value}, the other partitions are close to zero. One hot key, probably a "
                           "lane that sends everything under the same container key."}
    if kind == 5:
        m = r.randint(40, 400)
        value = f"VGM missing on {r.randint(2, m // 4)} of {m} EQD segments"
        vessel = r.choice(w.vessels)
        return {"value": value, "tool": "edi_inspect", "query": f"how many units in the {vessel} BAPLIE lack a VGM",
                "ask": f"Kun je de laatste BAPLIE van de {vessel} checken op VGM's? De planner mist gewichten.",
                "args": {"file": f"/data/edi/in/baplie/{w.date.replace('-', '')}_{r.randint(1000, 9999)}.edi", "check": "vgm"},
                "parts": [f"edi_inspect 2.3.1 - BAPLIE D.95B SMDG20  vessel: {vessel}", ("bulk", "edi"),
                          f"---\nsummary: {value}"],
                "explain": f"Klopt wat de planner zegt: {value}. Zonder VGM mag de stuwplanner die units niet "
                           "plannen."}
    if kind == 6:
        value = (f"final: obj={r.randint(10000, 99999)}.{r.randint(0, 99):02d} rehandles={r.randint(3, 80)} "
                 f"gap={r.randint(0, 9)}.{r.randint(0, 9)}%")
        return {"value": value, "tool": "shell", "query": "the optimizer's final result on last night's yard snapshot",
                "ask": "Run the optimizer on last night's snapshot, I want the numbers before the meeting.",
                "args": {"command": f"cd yard-optimizer && python -m yardopt.run --snapshot {w.date} --horizon 240"},
                "parts": [("bulk", "optrun"), value],
                "explain": f"Result: `{value}`. The gap is small enough to take into the meeting."}
    host = f"ora-acc-scan{r.randint(1, 9)}.mvt.local"
    value = f"Caused by: java.sql.SQLRecoverableException: IO Error: Connection reset by peer ({host}:{r.randint(1521, 1529)})"
    return {"value": value, "tool": "shell", "query": "the root cause of the berthplan-service restarts last night",
            "ask": "berthplan-service is vannacht drie keer herstart. Kun je in de log kijken waarom?",
            "args": {"command": "grep -B 40 -A 6 'Caused by' /var/log/tos/berthplan-service.log | tail -n 400"},
            "parts": [("bulk", "mvn"), f"{w.stamp(r)}  ERROR 18223 --- [           main] o.s.boot.SpringApplication : "
                      f"Application run failed\n{value}\n"
                      "\tat oracle.net.ns.NSProtocolNIO.doSocketRead(NSProtocolNIO.java:1119)"],
            "explain": f"De oorzaak: `{value}`. De database-verbinding wordt aan de kant van de scan listener "
                       "dichtgegooid; de service herstart dan omdat de health check faalt."}


# identifiers: some said by the user, some printed by a tool

LSNRCTL = ("LSNRCTL for Linux: Version 19.0.0.0.0 - Production on {date} {t}\n\n"
           "Copyright (c) 1991, 2023, Oracle.  All rights reserved.\n\n"
           "Connecting to (DESCRIPTION=(ADDRESS=(PROTOCOL=TCP)(HOST=ora-acc-01.mvt.local)(PORT=1521)))\n"
           "Services Summary...\nService \"TOSACC\" has 1 instance(s).\n  Instance \"tosacc1\", status READY, has 1 "
           "handler(s) for this service...\nService \"TOSTST\" has 1 instance(s).\n  Instance \"tostst1\", status "
           "READY, has 1 handler(s) for this service...")

def _identifier(r: Rng, w: _World, i: int) -> dict[str, Any]:
    if i % 2 == 0:
        kind = (i // 2) % 5
        if kind == 0:
            value = _container(r, FACT_PREFIXES)
            return {"value": value, "carrier": "user", "query": "the container the forwarder keeps calling about",
                    "text": f"Het gaat om {value}. Die staat sinds gisteren op hold bij de Douane en de expediteur belt "
                            "ieder uur.", "reply": f"Ik kijk wat er met {value} aan de hand is."}
        if kind == 1:
            value = _slot_nl(r)
            return {"value": value, "carrier": "user", "query": "where the dummy unit for the crane test goes",
                    "text": f"Voor de test: zet de dummy-unit op {value}, daar staat niks en de ASC kan er goed bij.",
                    "reply": f"Ok, dummy-unit op {value}."}
        if kind == 2:
            value = _fact_call(r)
            return {"value": value, "carrier": "user", "query": "the vessel call being replanned",
                    "text": f"The call we're replanning is {value}, ETA moved to tomorrow morning.",
                    "reply": f"Got it, I'll work on call {value}."}
        if kind == 3:
            value = f"YRDTST{r.randint(10, 99)}"
            return {"value": value, "carrier": "user", "query": "the name of the new test database",
                    "text": f"De nieuwe testdatabase heet {value}, de connect string staat in de vault onder yard-test.",
                    "reply": f"Ok, ik gebruik {value} voor de testruns."}
        _, code = r.choice(HAVENS)
        value = f"{code}-{r.randint(20, 40)}"
        vessel = r.choice(w.vessels)
        return {"value": value, "carrier": "user", "query": f"the berth the harbour master moved the {vessel} to",
                "text": f"The harbour master moved the {vessel} to berth {value}, so the quay crane split has to be redone.",
                "reply": f"I'll redo the crane split for the {vessel} at {value}."}
    kind = (i // 2) % 4
    if kind == 0:
        value = _container(r, FACT_PREFIXES)
        sid = r.choice(SIDS[:2])
        row = (f"{value:<12} 45R1 {r.randint(60, 69)}-{r.randint(1, 40):02d}-{r.randint(1, 3)}   IMP REEFER_ALM "
               f"{r.randint(12000, 29000):>9} {r.choice(w.calls):<10} NLRTM")
        return {"value": value, "carrier": "tool", "tool": "sqlplus", "query": "the reefer that had the temperature alarm",
                "ask": "Welke reefer stond vannacht te piepen in de reefer-blokken? Staat in de alarmstatus.",
                "args": {"sid": sid, "user": "yard_ro", "sql": "SELECT * FROM yard.v_inventory WHERE status LIKE 'REEFER%' "
                         "OR block BETWEEN 60 AND 69"},
                "parts": [_sqlplus_banner(w, r, sid), ("bulk", "sql"), row],
                "reply": f"Dat is {value}, de enige met status REEFER_ALM."}
    if kind == 1:
        value = f"{r.randint(1, 9)}{r.randint(100000000, 999999999)}"
        carrier = r.choice(CARRIER_CODES)
        return {"value": value, "carrier": "tool", "tool": "edi_inspect",
                "query": "the interchange reference of the CODECO batch sent this morning",
                "ask": "Which interchange ref did this morning's CODECO batch go out with? The line says they never got it.",
                "args": {"file": f"/data/edi/archive/codeco/{carrier.lower()}_{w.date.replace('-', '')}.edi", "header": True},
                "parts": [f"UNB+UNOA:2+NLRTMMVT+{carrier}+{w.date[2:].replace('-', '')}:0{r.randint(5, 9)}"
                          f"{r.randint(10, 59)}+{value}'\n"
                          f"UNH+1+CODECO:D:95B:UN:ITG14'\nBGM+36+{r.randint(100000, 999999)}+9'", ("bulk", "edi"),
                          f"UNZ+1+{value}'"],
                "reply": f"It went out as interchange {value}; the UNZ trailer matches, so the file is complete."}
    if kind == 2:
        value = f"YRDRST{r.randint(10, 99)}"
        return {"value": value, "carrier": "tool", "tool": "shell", "query": "the service name of the restored database copy",
                "ask": "Onder welke naam hangt de teruggezette kopie aan de listener?",
                "args": {"command": "lsnrctl status LISTENER_YARD | grep -A1 Service"},
                "parts": [LSNRCTL.format(date=w.date, t=w.time(r)),
                          f"Service \"{value}\" has 1 instance(s).\n  Instance \"{value.lower()}1\", status READY, "
                          "has 1 handler(s) for this service...\nThe command completed successfully"],
                "reply": f"De kopie hangt aan de listener als {value}."}
    value = _fact_call(r)
    return {"value": value, "carrier": "tool", "tool": "sqlplus",
            "query": "the vessel call that was added for the extra loader",
            "ask": "There's an extra loader coming tonight, what call id did the planners give it?",
            "args": {"sid": "TOSPRD", "user": "yard_ro", "sql": "SELECT call_id, vessel, eta, berth FROM yard.vessel_call "
                     "WHERE created > SYSDATE - 1"},
            "parts": [_sqlplus_banner(w, r, "TOSPRD"), ("bulk", "sql"),
                      "CALL_ID    VESSEL                ETA               BERTH\n"
                      "---------- --------------------- ----------------- -----\n"
                      f"{value:<10} {'EXTRA LOADER':<21} {w.date} 23:30  {r.choice(w.berths)}"],
            "reply": f"The extra loader is call {value}."}


# pasted documents: others' words, with others' imperatives

MONTH_NL = "november"


def _doc_carrier_mail(r: Rng, w: _World, carrier: str, hours: int) -> str:
    vessel, name = r.choice(w.vessels), r.choice(("Jens Olsen", "Li Wei", "Maria Santos", "Tom Becker", "Aylin Demir"))
    slug = carrier.lower().replace(" ", "").replace("-", "")
    return (f"From: Marine Operations Europe <ops.europe@{slug}.com>\n"
            f"Sent: {w.day} November 2024 {r.randint(6, 18):02d}:{r.randint(10, 59)}\n"
            f"To: planning@mvt-terminal.nl\nSubject: {vessel} - revised cut-offs Rotterdam MVT\n\n"
            "Dear MVT Planning team,\n\n"
            f"Please be informed that due to port congestion in {r.choice(PORTS)} the {vessel} will arrive approx. "
            f"{r.randint(8, 40)} hrs later than scheduled. Revised cut-offs as follows:\n\n"
            f"- Dry cargo: {r.randint(12, 24)} hrs prior to vessel ETA\n- Reefer cargo: {hours} hrs prior to vessel ETA\n"
            f"- DG cargo: {r.randint(36, 72)} hrs prior to vessel ETA, DG declarations to be received by our DG desk\n"
            "- VGM: to be submitted via INTTRA before gate-in\n\n"
            "Kindly ensure that all export units are gated in before the above cut-offs. Please do not accept any late "
            "arrivals without written approval from our Rotterdam office. Please confirm receipt of this message.\n\n"
            f"Best regards,\n{name}\nMarine Operations Europe | {carrier}")


def _doc_havenbedrijf(r: Rng, w: _World, haven: str, draft: str) -> str:
    a = r.randint(1, 8)
    return (f"HAVENBEDRIJF ROTTERDAM N.V. - Divisie Havenmeester\nBericht aan de Scheepvaart nr. {r.randint(100, 480)}/2024\n"
            f"Datum: {w.day} {MONTH_NL} 2024\n\nBetreft: diepgangsbeperking {haven}, ligplaatsen {a} t/m {a + 3}\n\n"
            f"In verband met baggerwerkzaamheden in de {haven} geldt met ingang van {w.day + 1} {MONTH_NL} tot nader "
            f"order een maximaal toegestane diepgang van {draft} meter voor schepen die de genoemde ligplaatsen aandoen.\n\n"
            "Gezagvoerders dienen de actuele diepgang uiterlijk 24 uur voor aankomst via het Port Community System te "
            "melden. Terminals worden verzocht schepen met een grotere diepgang niet in te plannen zonder toestemming "
            "van de dienstdoende havenmeester. Neem bij twijfel contact op met de Havencoördinatiecentrale, VHF "
            f"kanaal {r.choice((11, 14, 19, 61))}.\n\nDe Havenmeester van Rotterdam")


def _doc_cao(r: Rng, w: _World, hours: str, pause: int) -> str:
    return ("CAO Containerterminals Rotterdam 2024-2026 (uittreksel)\n\nArtikel 14 Arbeidstijden en pauzes\n"
            f"14.1 De normale arbeidsduur in volcontinudienst bedraagt gemiddeld {r.choice(('33,6', '34', '36'))} uur per "
            f"week, berekend over een roosterperiode van {r.choice((5, 10, 15))} weken.\n"
            f"14.2 Een dienst duurt ten hoogste {r.choice((8, 9, 10))} uur, inclusief overdracht.\n"
            f"14.3 Na ten hoogste {hours} uur aaneengesloten arbeid in de kraan dient de werknemer een pauze van ten "
            f"minste {pause} minuten te genieten.\n"
            "14.4 De werkgever draagt er zorg voor dat pauzes gelijkmatig over de dienst worden verdeeld. Afwijkingen "
            "dienen vooraf met de ondernemingsraad te worden overeengekomen.\n"
            "14.5 Werknemers mogen niet worden ingeroosterd voor meer dan zeven opeenvolgende nachtdiensten.")


def _doc_douane(r: Rng, w: _World, flag: str) -> str:
    rows = "\n".join(f"{_container(r):<14} {flag if j % 3 == 0 else 'SCAN-' + r.choice('XRN') + str(r.randint(10, 99)):<13} "
                     f"{r.choice(w.calls)}" for j in range(r.randint(4, 9)))
    return (f"Douane Rotterdam Haven - Team Scan & Selectie\nMEMO scan-selectie week {r.randint(44, 48)}\n"
            f"Aan: terminaloperators Maasvlakte\nVan: {r.choice(NAMES)}, teamleider selectie\n\n"
            f"De onderstaande containers zijn geselecteerd voor een scan. De terminal dient deze units binnen "
            f"{r.choice((24, 36, 48))} uur na lossing aan te bieden bij de scanfaciliteit. Geselecteerde units mogen niet "
            "worden uitgeleverd of geladen voordat de scanuitslag in het systeem staat. Meld afwijkingen direct bij het "
            f"Douane Coördinatiecentrum.\n\nContainer      Selectiecode  Call\n{rows}")


def _doc_teams(r: Rng, w: _World, block: int) -> str:
    lead, planner = "Ruud Bakker (Shiftleider Noord)", r.choice(("Marloes Visser", "Bram Janssen", "Anouk Smit"))
    h = r.randint(6, 20)
    return (f"[{h:02d}:{r.randint(0, 20):02d}] {lead}\nKunnen jullie {r.choice(w.ascs)} even uit automaat halen? Die doet "
            "raar bij de overdracht.\n"
            f"[{h:02d}:{r.randint(21, 35)}] {planner}\nja, staat uit. zet de exports van de {r.choice(w.vessels)} maar vast "
            f"klaar in blok {block}\n"
            f"[{h:02d}:{r.randint(36, 50)}] {lead}\nNee! Tijdens de lossing geen housekeeping in {block}, dan staan de "
            "waterside-handovers stil. Eerst de lossing afmaken.\n"
            f"[{h:02d}:{r.randint(51, 59)}] {planner}\nok ok. stuur me de lijst als de lossing klaar is")


def _doc_incident(r: Rng, w: _World) -> str:
    crane = r.choice(w.ascs)
    return (f"INCIDENT REPORT IR-2024-{r.randint(100, 999)}\nDate/time: {w.date} {r.randint(0, 5):02d}:{r.randint(10, 59)}\n"
            f"Location: {crane}, landside transfer point TP{r.randint(1, 5)}\nReported by: {r.choice(NAMES)}\n\n"
            "Description:\nDuring a landside handover the spreader reported 4/4 twistlocks locked while twistlock "
            f"TL{r.randint(1, 4)} was not fully engaged. The container ({_container(r)}) was lifted approx. 0.4 m "
            "before the remote operator stopped the move. No injuries, no damage to the truck.\n\n"
            "Immediate actions:\n- Crane taken out of automatic mode.\n"
            f"- Spreader SP{r.randint(1, 19)} sent to the workshop.\n\n"
            "Corrective actions:\n- All remote operators must perform a visual twistlock check after every alarm reset.\n"
            "- Maintenance shall replace the TL sensors on all spreaders of the same series within 14 days.\n"
            "- Do not re-enable automatic mode before the workshop has signed off.")


def _doc_baplie(r: Rng, w: _World) -> str:
    i = r.randrange(len(w.vessels))
    carrier = r.choice(CARRIER_CODES)
    lines = [f"UNB+UNOA:2+{carrier}+NLRTMMVT+{w.date[2:].replace('-', '')}:{r.randint(10, 23)}{r.randint(10, 59)}"
             f"+{r.randint(100000, 999999)}'",
             "UNH+1+BAPLIE:D:95B:UN:SMDG20'", f"BGM++{r.randint(1000, 9999)}+9'",
             f"TDT+20+{w.calls[i]}+++{carrier}:172:20+++9V{r.randint(1000, 9999)}:103::{w.vessels[i].upper()}'",
             f"LOC+5+{r.choice(PORTS)}:139:6'", "LOC+61+NLRTM:139:6'"]
    for _ in range(r.randint(3, 6)):
        lines += [f"LOC+147+{_bay(r)}::5'", f"MEA+AAE+VGM+KGM:{r.randint(2300, 30480)}'", "LOC+9+NLRTM'",
                  f"LOC+11+{r.choice(PORTS)}'", f"EQD+CN+{_container(r)}+{r.choice(ISO_TYPES)}+++5'"]
        if r.random() < 0.4:
            lines.append(r.choice(("FTX+AAA+++DO NOT STOW ON DECK - KEEP AWAY FROM HEAT'",
                                   "FTX+HAN+++HANDLE WITH CARE. DO NOT TOPLOAD'",
                                   "FTX+AAA+++KEEP UPRIGHT. STOW UNDER DECK ONLY'")))
    lines.insert(8, "FTX+AAA+++DO NOT SHIFT WITHOUT PERMISSION OF CHIEF OFFICER'")
    lines.append(f"UNT+{len(lines)}+1'")
    return "\n".join(lines)


def _pasted_filler(r: Rng, w: _World) -> tuple[str, str, str, str]:
    """(intro, document, what the user asks about it, the agent's answer) for a paste that plants nothing."""
    kind = r.randrange(7)
    if kind == 0:
        carrier = r.choice(CARRIERS)
        return (f"Mail van {carrier}, fyi:", _doc_carrier_mail(r, w, carrier, r.choice((18, 24, 36))),
                "Staat dat zo ook in ons systeem?",
                "De reefer- en dry cut-offs in het systeem wijken een paar uur af van de mail; ik heb de verschillen op "
                "een rij gezet, aanpassen doe ik pas als jij het zegt.")
    if kind == 1:
        haven = r.choice(HAVENS)[0]
        draft = f"{r.randint(13, 16)},{r.randint(0, 9)}"
        return ("Nog een bericht van het Havenbedrijf:", _doc_havenbedrijf(r, w, haven, draft),
                "Raakt dit calls die wij deze week hebben?",
                f"Deze week ligt er één call in de {haven} op die ligplaatsen; de diepgang uit de BAPLIE blijft net "
                "onder de grens.")
    if kind == 2:
        return ("Uit de cao, voor de volledigheid:", _doc_cao(r, w, r.choice(("3", "4", "5")), r.choice((20, 30))),
                "Klopt onze roosterlogica hiermee?", "De roostergenerator kent 14.2 en 14.5 al; 14.3 wordt nu niet "
                "gecontroleerd, dat is een gat.")
    if kind == 3:
        return ("Can you make sense of this BAPLIE bit?", _doc_baplie(r, w), "Anything odd in there?",
                "It's a normal D.95B BAPLIE; the FTX segments are stowage remarks from the line, nothing our import "
                "acts on.")
    if kind == 4:
        return ("Douane-memo van deze week:", _doc_douane(r, w, f"SCAN-{r.choice('XRN')}{r.randint(10, 99)}"),
                "Hebben wij die units al?", "Drie van de units staan al in de yard, de rest komt met de volgende calls.")
    if kind == 5:
        return ("Teams van net, even geplakt:", _doc_teams(r, w, r.choice(w.blocks)), "Moeten wij hier iets mee?",
                "Niet in de software; dit is een afspraak op de vloer. Ik heb niets aangepast.")
    return ("Incident report from last night, for context:", _doc_incident(r, w),
            "Does the crane-adapter log match this?",
            "The adapter log shows the alarm and the switch to manual at the same minute; it matches the report.")


# --- filler: what happens between the facts -------------------------------------------------------------------------

SYSTEM = ("You are the engineering assistant of the yard planning team at a container terminal on the Maasvlakte, "
          "Rotterdam. You work in the tos-planning repository (Java 21, Spring Boot 3, Maven), the edi-gateway, the "
          "yard-optimizer (Python) and the ops folder, with read access to the Oracle databases (TOSPRD, TOSACC, "
          "TOSTST), the Kafka cluster, the crane PLC logs and Grafana. Tools: shell, read_file, edit_file, mvn, "
          "sqlplus, edi_inspect, kafka_tail, plc_log, grafana. Never change production data without the user's "
          "explicit go. The team writes Dutch and English mixed; answer in either, keep it short and say what you ran.")

FINAL_USER = ("ok, ik stop voor vandaag. morgen verder met de rest, thanks!",
              "top. even pauze, daarna nemen we de volgende call door.",
              "Thanks, that's it for now. I'll read the night shift's notes later and get back to you.",
              "prima zo. de nachtdienst neemt het over, ik kijk morgenochtend weer.",
              "ok, laat maar even liggen. ik moet naar het ploegoverleg.")


def _chat(r: Rng, w: _World) -> tuple[str, str]:
    """A one-off exchange: a request, thanks, a question, a clock time, a reference, a JSON fragment."""
    file, line = r.choice(NOISE_FILES), r.randint(20, 640)
    cls = file.rsplit("/", 1)[-1]
    crane, vessel, block = r.choice(w.ascs), r.choice(w.vessels), r.choice(w.blocks)
    hh, mm = r.randint(6, 23), r.randint(0, 59)
    lane, n = r.choice(LANES), r.randint(12, 38)
    fragment = json.dumps({"lane": lane, "status": r.choice(("OPEN", "CLOSED", "TROUBLE")), "queue": r.randint(0, 30)})
    options = [
        (f"kun je even kijken naar {cls}:{line}? daar gaat iets raar met de null-check bij een call zonder ETA",
         f"In {cls}:{line} wordt `call.eta()` gebruikt zonder null-check; bij een call zonder ETA valt hij in de "
         "default-tak. Het is onhandig maar niet fout. Zal ik er een ticket van maken?"),
        (f"can you look at why {r.choice(MODULES)} logs so much at startup? not urgent",
         "Most of it is Hibernate's SQL logging on DEBUG from the acc profile. Switching that logger to INFO takes it "
         "down to a few dozen lines; I'll leave it unless you want it changed."),
        ("top, dank je", "Graag gedaan."),
        ("thanks!", "You're welcome."),
        ("klopt, dat zag ik ook", "Ok."),
        (f"hier is het nu {hh:02d}:{mm:02d}, om {next((x for x in (14, 22) if x > hh), 6):02d}:00 wisselt de ploeg, dan "
         "ben ik even weg",
         "Prima, ik doe intussen niets wat de planning raakt."),
        (f"even checken: draait de nachtbatch nog? job id {r.randint(100000, 999999)}",
         f"Ja, de batch draait; hij zit in stap {r.randint(2, 7)} van 9, dat is normaal voor deze tijd."),
        (f"Ruud vraagt of we om {hh:02d}:{mm:02d} even kunnen bellen, negeer maar, dat is voor iets anders",
         "Ok, ik negeer het."),
        (f"hmm, {cls}:{line} geeft weer die deprecation warning, boeit niet echt",
         "Dat is de oude `Date`-API; het werkt gewoon, alleen de compiler klaagt."),
        (f"zag dit in de logs langskomen: {fragment} is dat erg?",
         f"Nee, dat is de normale statusupdate van lane {lane}. Een queue in de tientallen komt rond de spits vaker voor."),
        (f"what was the number for {crane} again, moves per hour I mean?",
         f"Around {n} moves an hour over the last shift, same as this morning."),
        (f"de {vessel} heeft weer vertraging, maar dat maakt voor ons nu niet uit",
         "Ok, dan laat ik de berth windows zoals ze zijn."),
        ("koffie. ben zo terug", "Ok."),
        (f"hoeveel moves deed {crane} in het laatste uur?", f"{n} moves, ongeveer wat hij de hele dag doet."),
        (f"weet jij wat HOLD_LINE in de status betekent? {json.dumps({'status': 'HOLD_LINE', 'by': 'SYSTEM'})}",
         "Dat is een blokkade van de rederij zelf, bijvoorbeeld een openstaande betaling. De terminal mag de unit "
         "niet uitleveren tot de rederij hem vrijgeeft."),
        (f"is blok {block} vol?", f"Blok {block} zit op ongeveer {r.randint(55, 95)}% van de grondposities."),
        ("sorry, was even weg. waar waren we?", "We waren klaar met de laatste check; niets openstaand van mijn kant."),
        ("nice, werkt", "Mooi."),
        (f"can you remind me what PLC code 2501 was? saw it on {crane}",
         "2501 is LANDSIDE_HANDOVER, the crane set a box down at a transfer point. Normal traffic."),
        (f"de planner vraagt of {vessel} nog dual cycling krijgt, weet jij dat?",
         "Dat staat niet in de berth window; dat beslist de quay planner per shift."),
        (f"{{\"callId\": \"{r.choice(w.calls)}\", \"cranes\": {r.randint(2, 6)}}} is dit het formaat dat de plan-api verwacht?",
         "Bijna: de plan-api wil ook `berth` en `window` erbij; zonder die twee krijg je een 400 terug."),
        (f"ok dus {r.randint(200, 900)} moves voor de hele shift, dat is wat ik ook had",
         "Ja, dat komt overeen met de optimizer-run."),
        ("hoe laat is de volgende ploegwissel?", "Om 14:00, daarna weer om 22:00."),
        (f"btw, ticket TOS-{r.randint(1000, 9999)} kun je negeren, dat is al opgelost door het andere team",
         "Ok, ik laat het liggen."),
    ]
    return r.choice(options)


def _paragraphs(r: Rng, w: _World, lang: str, count: int) -> list[str]:
    """Side remarks that pad a long message, all different."""
    if lang == "nl":
        return r.sample((
            f"Verder: de nachtdienst meldde dat de gate om {r.randint(0, 5):02d}:{r.randint(10, 59)} even vastliep, maar "
            "dat bleek de slagboom bij de in-lanes, niet onze software. Niks mee doen.",
            f"De {r.choice(w.vessels)} heeft weer vertraging, dus de berth windows van morgen schuiven waarschijnlijk "
            "nog. Daar kijken we straks naar, niet nu.",
            f"Ik zit de hele middag in overleggen, dus als ik traag antwoord is dat de reden. {r.choice(w.ascs)} doet "
            "het overigens weer prima sinds de reset.",
            f"En de planners klaagden over de trage zoekfunctie in de yard view, blok {r.choice(w.blocks)} laadt "
            "pas na tien seconden. Niet urgent."), count)
    return r.sample((
        f"Also, the night shift said the gate got stuck around {r.randint(0, 5):02d}:{r.randint(10, 59)}, but that was "
        "the barrier at the in-lanes, not us. Nothing to do there.",
        f"The {r.choice(w.vessels)} is late again, so tomorrow's berth windows will probably move. Later, not now.",
        "I'm in meetings most of the afternoon, so slow answers from me are expected.",
        f"And the planners complained about the slow search in the yard view, block {r.choice(w.blocks)} takes ten "
        "seconds. Not urgent."), count)


def _tool_step(r: Rng, w: _World, tool: str) -> tuple[str, str, dict[str, Any], list[Any], str]:
    """A routine call: (the user's request, the agent's words before it, arguments, output parts, the agent's summary)."""
    if tool == "mvn":
        module = r.choice(MODULES)
        return (r.choice((f"draai de tests van {module} even", f"run the {module} tests please",
                          f"kun je {module} nog eens bouwen?")), "Ik draai de tests.",
                {"cwd": "tos-planning", "args": f"-pl {module} {r.choice(('test', 'verify -DskipITs', 'test -q'))}"},
                _mvn_pass(r, module), f"{module}: BUILD SUCCESS, geen failures.")
    if tool == "sqlplus":
        b, sid = r.choice(w.blocks), r.choice(SIDS[:2])
        return (r.choice((f"hoeveel units staan er nu in blok {b}?", f"what's in block {b} right now?",
                          f"laat de inventory van blok {b} eens zien")), "",
                {"sid": sid, "user": "yard_ro", "sql": f"SELECT container_no, iso, pos, cat, status, weight_kg, call_id, "
                 f"pod FROM yard.v_inventory WHERE block = {b} ORDER BY pos"},
                [_sqlplus_banner(w, r, sid), ("bulk", "sql", str(b))],
                f"Blok {b}: een gemengd beeld van imports en exports, een paar units op hold, niets opvallends.")
    if tool == "read_file":
        kind = r.randrange(3)
        path = r.choice((NOISE_FILES, NOISE_CONFIGS, NOISE_PY)[kind])
        return (r.choice((f"laat {path.rsplit('/', 1)[-1]} eens zien", f"can you open {path}?",
                          f"wat staat er in {path}?")), "",
                {"path": path}, [("bulk", ("java", "yaml", "python")[kind], path)],
                f"Niets vreemds in {path.rsplit('/', 1)[-1]}; de interessante logica zit rond regel {r.randint(40, 300)}.")
    if tool == "edit_file":
        path = r.choice(NOISE_FILES)
        word = r.choice(WORDS)
        return (r.choice((f"zet die debug-regel over {word} in {path.rsplit('/', 1)[-1]} op info",
                          f"rename the {word} variable in {path.rsplit('/', 1)[-1]}, it's confusing")), "",
                {"path": path, "old_string": f"log.debug(\"{word}: {{}}\", {word});",
                 "new_string": f"log.info(\"{word}: {{}}\", {word});"},
                [f"Edited {path}: 1 replacement", ("bulk", "java", path)], "Aangepast, één regel.")
    if tool == "shell":
        kind = r.randrange(3)
        cmd = ("git log --oneline --since=yesterday -n 300", f"grep -rn \"{r.choice(WORDS)}\" tos-planning yard-optimizer",
               f"cd yard-optimizer && python -m yardopt.run --snapshot {w.date} --dry-run")[kind]
        return (r.choice(("wat is er sinds gisteren veranderd?", "zoek even waar dat overal gebruikt wordt",
                          "run the optimizer on today's snapshot, dry run")), "", {"command": cmd},
                [("bulk", ("gitlog", "grep", "optrun")[kind])], "Klaar; niets wat op het probleem van vanochtend wijst.")
    if tool == "kafka_tail":
        p = r.randint(0, 11)
        return (r.choice(("tail de gate-transacties even", "what's coming in on the gate topic?")), "",
                {"topic": "gate.transactions.v3", "partition": p, "limit": 300}, [("bulk", "kafka", str(p))],
                "Normale stroom: GATE_IN en GATE_OUT door elkaar, af en toe een TROUBLE-transactie.")
    if tool == "plc_log":
        crane = r.choice(w.ascs)
        return (r.choice((f"wat zegt de PLC van {crane} sinds middernacht?", f"show me {crane}'s PLC log")), "",
                {"crane": crane, "since": f"{w.date}T00:00", "level": "INFO"}, [("bulk", "plc", crane)],
                f"{crane} draait normaal: moves, handovers en heartbeats, geen alarmen.")
    if tool == "grafana":
        return (r.choice(("hoe ziet de gate eruit vandaag?", "pull the gate-ops numbers for today")), "",
                {"dashboard": "gate-ops", "panel": "Gate overview", "from": "now-12h"}, [("bulk", "grafana")],
                "Rustig beeld; de turnaround loopt op rond de middag en zakt daarna weer.")
    vessel = r.choice(w.vessels)
    fname = f"/data/edi/in/{r.choice(('baplie', 'coprar'))}/{w.date.replace('-', '')}_{r.randint(1000, 9999)}.edi"
    return (r.choice((f"check de laatste BAPLIE van de {vessel} even", f"inspect the latest file from the {vessel}")), "",
            {"file": fname, "validate": True},
            [f"edi_inspect 2.3.1 - {fname}\nvessel: {vessel}\nsegments:", ("bulk", "edi"),
             f"---\nvalidation: 0 errors, {r.randint(0, 9)} warnings"], "Het bestand is geldig, alleen wat warnings over "
            "ontbrekende optionele segmenten.")


# --- the session ----------------------------------------------------------------------------------------------------

class _Builder:
    """Draws the facts first, builds an episode for each, places them between filler turns, then sizes the noise."""

    def __init__(self, seed: int, messages: int) -> None:
        self.r = random.Random(seed)
        self.n = messages
        self.k = per_kind(messages)
        self.w = _World(self.r)
        self.reserved: list[str] = []
        self.queries: set[str] = set()
        self.plants: list[dict[str, Any]] = []
        self.pasted: list[tuple[Message, str]] = []
        self.episodes: list[tuple[float, int, list[Message]]] = []
        self.used: set[str] = set()
        self.turns: list[tuple[int, int]] = []  # filler turns: (first message, messages)

    # messages

    def _user(self, text: str) -> Message:
        return {"role": "user", "content": text}

    def _say(self, text: str) -> Message:
        return {"role": "assistant", "content": text}

    def _call(self, calls: list[tuple[str, dict[str, Any]]], text: str = "") -> Message:
        self.used.update(name for name, _ in calls)
        return {"role": "assistant", "content": text, "tool_calls": [
            {"id": f"call_{_hex(self.r, 24)}", "type": "function",
             "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)}} for name, args in calls]}

    def _result(self, call: Message, j: int, parts: list[Any]) -> Message:
        fn = call["tool_calls"][j]
        content = [_Bulk(p[1], self.r.getrandbits(32), 1.0, p[2] if len(p) > 2 else "") if isinstance(p, tuple) else p
                   for p in parts]
        return {"role": "tool", "tool_call_id": fn["id"], "name": fn["function"]["name"], "content": content}

    def _turn(self, ask: str, steps: list[list[tuple[str, dict[str, Any], list[Any]]]], close: str,
              pre: str = "") -> list[Message]:
        """A user request, then calls (each step one assistant message, parallel calls within a step), then an answer."""
        out = [self._user(ask)]
        for s, step in enumerate(steps):
            call = self._call([(name, args) for name, args, _ in step], pre if s == 0 else "")
            out.append(call)
            out.extend(self._result(call, j, parts) for j, (_, _, parts) in enumerate(step))
        out.append(self._say(close))
        return out

    # drawing facts

    def _fresh(self, values: list[str], query: str) -> bool:
        for v in values:
            if v in query or v in SYSTEM or any(v in t or t in v for t in self.reserved):
                return False
            if any(v in tok for tok in self.w.tokens):
                return False
        return len(set(values)) == len(values) and not any(a in b for a in values for b in values if a != b)

    def _draw(self, make: Callable[[int], dict[str, Any]], i: int, step: int = 1,
              keys: tuple[str, ...] = ("value",)) -> dict[str, Any]:
        d: dict[str, Any] = {}
        for strict in (True, False):
            for attempt in range(60):
                d = make(i + step * (attempt // 2))
                values = [d[k] for k in keys]
                if self._fresh(values, d["query"]) and (not strict or d["query"] not in self.queries):
                    break
            else:
                continue
            break
        if d["query"] in self.queries:
            d["query"] = f"{d['query']} (the {_ordinal(sum(q.startswith(d['query']) for q in self.queries) + 1)} one)"
        self.reserved.extend(d[k] for k in keys)
        self.queries.add(d["query"])
        return d

    def _plant(self, kind: str, d: dict[str, Any], msg: Message, **extra: Any) -> None:
        self.plants.append({"kind": kind, "value": d["value"], "query": d["query"], "msg": msg, **extra})

    def _episode(self, target: float, msgs: list[Message]) -> None:
        self.episodes.append((target, len(self.episodes), msgs))

    # planning

    def _targets(self) -> dict[tuple[str, int], float]:
        n, k = self.n, self.k
        lo, hi = 0.10 * n, 0.83 * n
        slots: dict[tuple[str, int], float] = {}
        total = 8 * k
        for i in range(k):
            for j, kind in enumerate(self.r.sample(KINDS, len(KINDS))):
                slots[(kind, i)] = lo + (i * 8 + j + self.r.uniform(0.2, 0.8)) / total * (hi - lo)
        slots[("instruction", 0)] = max(2.0, 0.045 * n)
        if k > 1:
            slots[("instruction", 1)] = 0.085 * n
        for i in range(k):
            for kind in ("correction", "decision"):
                slots[(kind, i)] = max(slots[(kind, i)], 0.15 * n)
        return slots

    def _earlier(self, t: float, far: bool) -> float:
        """Where the stale value goes: far (100+ messages when the session allows it) or a little earlier."""
        room = t - 0.05 * self.n - 2
        gap = self.r.randint(110, 420) if far else self.r.randint(8, 45)
        return max(0.05 * self.n, t - max(2.0, min(gap, room)))

    def plan(self) -> None:
        r, w, k = self.r, self.w, self.k
        t = self._targets()
        pools: dict[str, list[Callable[[Rng, _World], dict[str, Any]]]] = {
            "nl": _styled(r, INSTRUCTIONS_PLAIN_NL, (INDIRECT_NL, CONDITIONAL_NL + SECOND_PARAGRAPH_NL)),
            "en": _styled(r, INSTRUCTIONS_PLAIN_EN, (CONDITIONAL_EN, SECOND_PARAGRAPH_EN, INDIRECT_EN)),
            "adopted": r.sample(INSTRUCTIONS_ADOPTED, len(INSTRUCTIONS_ADOPTED))}
        drawn = Counter[str]()
        for i in range(k):
            which = "adopted" if i >= 2 and i % 4 == 2 else "nl" if i % 2 == 0 else "en"
            pool = pools[which]
            d = self._draw(_cycling(pool, r, w), drawn[which])
            drawn[which] += 1
            self._episode(t[("instruction", i)], self._ep_instruction(d))

        near = r.sample(CORRECTIONS_NEAR, len(CORRECTIONS_NEAR))
        far = r.sample(CORRECTIONS_FAR, len(CORRECTIONS_FAR))
        for i in range(k):
            d = self._draw(_cycling(far if i % 3 == 2 else near, r, w), i, keys=("value", "stale"))
            self._ep_correction(d, t[("correction", i)], far=i % 2 == 0, long=i % 3 == 1)

        order = r.sample(range(13), 13)
        revised = ([i for i in range(k) if i % 3 == 1] or [0])[:max(1, k // 3)]
        for i in range(k):
            keys = ("value", "stale") if i in revised else ("value",)
            d = self._draw(lambda j: _decision(r, w, order[j % len(order)]), i, keys=keys)
            self._ep_decision(d, t[("decision", i)], revised=i in revised)

        order = r.sample(range(13), 13)
        for i in range(k):
            d = self._draw(lambda j: _plan(r, w, order[j % len(order)]), i)
            self._episode(t[("plan", i)], self._ep_plan(d))

        shift = r.randrange(7)
        for i in range(k):
            d = self._draw(lambda j: _file(r, w, j + shift), i)
            self._episode(t[("file", i)], self._ep_file(d))

        order = r.sample(range(len(ERROR_KINDS)), len(ERROR_KINDS))
        resolved = {i for i in range(k) if i % 2 == 0 and i < 2 * (k // 2)}
        for i in range(k):
            d = self._draw(lambda j: _error(r, w, order[j % len(order)]), i)
            self._episode(t[("error", i)], self._ep_error(d, resolved=i in resolved))

        shift = r.randrange(8)
        for i in range(k):
            d = self._draw(lambda j: _finding(r, w, j + shift), i)
            self._episode(t[("finding", i)], self._ep_finding(d))

        for i in range(k):
            d = self._draw(lambda j: _identifier(r, w, j), i, step=2)
            self._episode(t[("identifier", i)], self._ep_identifier(d))

    # episodes

    def _ep_instruction(self, d: dict[str, Any]) -> list[Message]:
        if "doc" in d:
            u = self._user(f"{d['intro']}\n\n{d['doc']}\n\n{d['text']}")
            self.pasted.append((u, d["doc"]))
            self._plant("instruction", d, u)
            return [u, self._say(d["reply"])]
        u = self._user(d["text"])
        self._plant("instruction", d, u)
        if "tool" in d:
            _, pre, args, parts, summary = _tool_step(self.r, self.w, d["tool"])
            call = self._call([(d["tool"], args)], pre)
            return [u, call, self._result(call, 0, parts), self._say(f"{summary}\n\n{d['reply']}")]
        return [u, self._say(d["reply"])]

    def _ep_correction(self, d: dict[str, Any], t: float, far: bool, long: bool) -> None:
        old = self._user(d["stale_text"])
        self._episode(self._earlier(t, far), [old, self._say(d["stale_reply"])])
        text = d["corr"]
        if long:
            before, after = _paragraphs(self.r, self.w, d["lang"], 2)
            text = f"{before}\n\n{text}\n\n{after}"
        elif self.r.random() < 0.4:
            text = f"{_paragraphs(self.r, self.w, d['lang'], 1)[0]}\n\n{text}"
        u = self._user(text)
        self._plant("correction", d, u, stale=d["stale"], stale_msg=old)
        self._episode(t, [u, self._say(d["corr_reply"])])

    def _ep_decision(self, d: dict[str, Any], t: float, revised: bool) -> None:
        nl = d["lang"] == "nl"
        why = d["why"]
        if revised:
            first = (f"Voor {d['topic']}: laten we {d['stale']} doen. Lekker simpel, aanpassen kan altijd nog." if nl else
                     f"For {d['topic']}, let's do {d['stale']} for now. Keep it simple, we can change it later.")
            old = self._user(first)
            self._episode(self._earlier(t, far=self.r.random() < 0.5),
                          [old, self._say(f"Ok, {d['stale']}." if nl else f"Fine, {d['stale']} it is.")])
            text = (f"Ik kom terug op {d['topic']}: toch niet {d['stale']}. We gaan voor {d['value']}, want {why}." if nl
                    else f"Changing my mind on {d['topic']}: not {d['stale']} after all. We go with {d['value']}, "
                    f"because {why}.")
            u = self._user(text)
            self._plant("decision", d, u, stale=d["stale"], stale_msg=old)
        else:
            text = self.r.choice((f"Ok, knoop doorgehakt voor {d['topic']}: {d['value']}, want {why}.",
                                  f"Besluit voor {d['topic']}: we doen {d['value']}. Reden: {why}.") if nl else
                                 (f"Decision on {d['topic']}: we go with {d['value']}, because {why}.",
                                  f"Let's settle {d['topic']}: {d['value']}, since {why}."))
            u = self._user(text)
            self._plant("decision", d, u)
        self._episode(t, [u, self._say(f"Helder, {d['value']}. Ik pas het ontwerp daarop aan." if nl else
                                       f"Clear, {d['value']}. I'll update the design notes.")])

    def _ep_plan(self, d: dict[str, Any]) -> list[Message]:
        u = self._user(d["text"])
        self._plant("plan", d, u)
        reply = ("Ok, in die volgorde. Ik begin met de eerste stap en meld me bij elke overgang." if d["lang"] == "nl"
                 else "Ok, in that order. I'll start with the first step and check in at each hand-over.")
        return [u, self._say(reply)]

    def _ep_file(self, d: dict[str, Any]) -> list[Message]:
        path = d["value"]
        call = self._call([("edit_file", {"path": path, "old_string": "", "new_string": d["content"]})],
                          "Ik maak er een nieuw bestand voor." if d["lang"] == "nl" else "I'll put it in a new file.")
        self._plant("file", d, call)
        msgs = [self._user(d["ask"]), call,
                self._result(call, 0, [f"Created {path} ({d['content'].count(chr(10)) + 1} lines)"])]
        if d["compile"]:
            build = self._call([("mvn", {"cwd": "tos-planning", "args": f"-pl {d['compile']} -q compile"})])
            msgs += [build, self._result(build, 0, _mvn_pass(self.r, d["compile"]))]
        msgs.append(self._say(f"{d['summary']}\n\n{'Bestand' if d['lang'] == 'nl' else 'File'}: `{path}`"))
        return msgs

    def _ep_error(self, d: dict[str, Any], resolved: bool) -> list[Message]:
        nl = self.r.random() < 0.6
        call = self._call([(d["tool"], d["args"])])
        result = self._result(call, 0, d["parts"])
        msgs = [self._user(d["ask"]), call, result, self._say(d["explain"])]
        if not resolved:
            self._plant("error", d, result)
            park = self.r.choice(("laat maar zitten, dat is een bekende. staat al in de backlog",
                                  "parkeren we. eerst de rest afmaken", "leave it for now, the other team owns that",
                                  "ok, niet nu. zet het op de lijst voor morgen"))
            return msgs + [self._user(park), self._say("Ok, ik laat het liggen." if park[0] in "lpz" or "niet" in park
                                                       else "Ok, leaving it.")]
        if d.get("fix"):
            path, old, new = d["fix"]
            msgs.append(self._user("ok, fix maar" if nl else "go ahead and fix it"))
            edit = self._call([("edit_file", {"path": path, "old_string": old, "new_string": new})])
            msgs += [edit, self._result(edit, 0, [f"Edited {path}: 1 replacement"])]
        else:
            msgs.append(self._user(d["fixed_by"]))
        rerun = self._call([(d["tool"], d["rerun"])], "Nog een keer draaien." if nl else "Running it again.")
        passed = self._result(rerun, 0, d["pass"])
        self._plant("error", d, result, resolved_msg=passed)
        return msgs + [rerun, passed, self._say("Nu gaat het goed, de fout komt niet meer terug." if nl else
                                                "Passes now, the error is gone.")]

    def _ep_finding(self, d: dict[str, Any]) -> list[Message]:
        call = self._call([(d["tool"], d["args"])])
        result = self._result(call, 0, d["parts"])
        self._plant("finding", d, result)
        return [self._user(d["ask"]), call, result, self._say(d["explain"])]

    def _ep_identifier(self, d: dict[str, Any]) -> list[Message]:
        if d["carrier"] == "user":
            u = self._user(d["text"])
            self._plant("identifier", d, u)
            return [u, self._say(d["reply"])]
        call = self._call([(d["tool"], d["args"])])
        result = self._result(call, 0, d["parts"])
        self._plant("identifier", d, result)
        return [self._user(d["ask"]), call, result, self._say(d["reply"])]

    # filler

    def _clean(self, msgs: list[Message]) -> bool:
        for m in msgs:
            parts = m["content"] if isinstance(m["content"], list) else [text_of(m)]
            for p in parts:
                if isinstance(p, str) and any(v in p for v in self.reserved):
                    return False
        return True

    def _filler_turn(self, size: int, tools: list[str] | None = None) -> list[Message]:
        for _ in range(12):
            msgs = self._filler_once(size, tools)
            if self._clean(msgs):
                return msgs
        return msgs

    def _pick_tools(self, count: int, taken: list[str]) -> list[str]:
        unused = [t for t in TOOLS if t not in self.used]
        picked: list[str] = []
        for _ in range(count):
            pool = ([t for t in unused if t not in picked + taken] or [t for t in TOOLS if t not in picked + taken]
                    or list(TOOLS))
            weights = [3 if t in ("mvn", "sqlplus", "read_file", "kafka_tail", "plc_log") else 2 for t in pool]
            picked.append(self.r.choices(pool, weights)[0])
        return picked

    def _filler_once(self, size: int, forced: list[str] | None = None) -> list[Message]:
        """A chat (2 messages) or a request answered after calls: sequential, the first two in parallel when odd."""
        r, w = self.r, self.w
        if size == 2:
            if r.random() < 0.18:
                intro, doc, ask, answer = _pasted_filler(r, w)
                u = self._user(f"{intro}\n\n{doc}\n\n{ask}")
                self.pasted.append((u, doc))
                return [u, self._say(answer)]
            ask, answer = _chat(r, w)
            return [self._user(ask), self._say(answer)]
        count = _calls_in(size)
        tools = list(forced or [])[:count]
        tools += self._pick_tools(count - len(tools), tools)
        steps = [_tool_step(r, w, t) for t in tools]
        groups = ([[0, 1]] + [[j] for j in range(2, count)]) if size % 2 else [[j] for j in range(count)]
        ask = steps[0][0] if r.random() < 0.4 else "\n".join(st[0] for st in steps)
        return self._turn(ask, [[(tools[j], steps[j][2], steps[j][3]) for j in g] for g in groups],
                          "\n\n".join(st[4] for st in steps),
                          "Ik kijk op twee plekken tegelijk." if size % 2 else steps[0][1])

    def _fill(self, out: list[Message], gap: int) -> None:
        """Exactly ``gap`` messages of filler turns (any gap but 1 and 3)."""
        while gap > 0:
            want_tools = any(t not in self.used for t in TOOLS)
            options = [s for s in (2, 4, 5, 6, 8) if s <= gap and gap - s not in (1, 3)]
            weights = [(0.3 if want_tools else 5) if s == 2 else (3 if want_tools else 6) if s == 4 else
                       (4 if want_tools else 2) if s == 5 else (6 if want_tools else 3) if s == 6 else
                       (6 if want_tools else 2) for s in options]
            size = self.r.choices(options, weights)[0]
            self.turns.append((len(out), size))
            out.extend(self._filler_turn(size))
            gap -= size

    def _cover(self, out: list[Message]) -> None:
        """Every tool is called at least once: a filler turn (or a run of them, merged) takes a call of the tool."""
        for tool in TOOLS:
            counts = Counter(c["function"]["name"] for m in out for c in m.get("tool_calls") or [])
            if counts[tool]:
                continue
            for start, size in self.r.sample(self.turns, len(self.turns)) + self._runs():
                names = [c["function"]["name"] for m in out[start:start + size] for c in m.get("tool_calls") or []]
                spare = [j for j, name in enumerate(names) if counts[name] >= 2]
                if size < 4 or (len(names) >= _calls_in(size) and not spare):
                    continue
                if len(names) < _calls_in(size):
                    names.append(tool)
                else:
                    names[spare[0]] = tool
                out[start:start + size] = self._filler_turn(size, names)
                self.turns = [t for t in self.turns if not start <= t[0] < start + size] + [(start, size)]
                break

    def _runs(self) -> list[tuple[int, int]]:
        """Adjacent filler turns as one span each, longest first."""
        runs: list[list[int]] = []
        for start, size in sorted(self.turns):
            if runs and runs[-1][0] + runs[-1][1] == start:
                runs[-1][1] += size
            else:
                runs.append([start, size])
        return sorted(((a, b) for a, b in runs), key=lambda x: -x[1])

    # placing and sizing

    def place(self) -> list[Message]:
        out: list[Message] = [{"role": "system", "content": SYSTEM}]
        episodes = sorted(self.episodes, key=lambda e: (e[0], e[1]))
        rest = sum(len(e[2]) for e in episodes)
        for target, _, msgs in episodes:
            slack = self.n - 1 - rest - len(out)   # filler still to place before the final user turn
            want = max(0, round(target) - len(out))
            gap = min((g for g in range(slack + 1) if g not in (1, 3) and slack - g not in (1, 3)),
                      key=lambda g: (abs(g - want), g < want))
            self._fill(out, gap)
            out.extend(msgs)
            rest -= len(msgs)
        self._fill(out, self.n - 1 - len(out))
        out.append(self._user(self.r.choice(FINAL_USER)))
        self._cover(out)
        return out

    def size(self, out: list[Message]) -> None:
        fixed, bulks = 0, []
        for m in out:
            if isinstance(m["content"], list):
                fixed += sum(len(p) for p in m["content"] if isinstance(p, str)) + len(m["content"]) - 1
                bulks += [p for p in m["content"] if isinstance(p, _Bulk)]
            else:
                fixed += len(text_of(m))
        budget = max(self.n * CHARS_PER_MESSAGE - fixed, 200 * len(bulks))
        weight = sum(b.weight for b in bulks) or 1.0
        for m in out:
            if not isinstance(m["content"], list):
                continue
            texts = []
            for p in m["content"]:
                if isinstance(p, str):
                    texts.append(p)
                    continue
                chars = max(150, int(budget * p.weight / weight))
                for attempt in range(8):
                    text = RENDERERS[p.kind](random.Random(p.seed + 7919 * attempt), chars, self.w, p.arg)
                    if not any(v in text for v in self.reserved):
                        break
                texts.append(text)
            m["content"] = "\n".join(texts)

    def build(self) -> Session:
        self.plan()
        out = self.place()
        self.size(out)
        where = {id(m): i for i, m in enumerate(out)}
        facts = []
        for p in self.plants:
            facts.append(Fact(kind=p["kind"], value=p["value"], index=where[id(p["msg"])], query=p["query"],
                              stale=p.get("stale"),
                              stale_index=where[id(p["stale_msg"])] if "stale_msg" in p else None,
                              resolved=where[id(p["resolved_msg"])] if "resolved_msg" in p else None))
        facts.sort(key=lambda f: (f.index, KINDS.index(f.kind)))
        pasted = sorted((where[id(m)], doc) for m, doc in self.pasted if id(m) in where)
        return Session(messages=out, facts=facts, seed=0, pasted=pasted)


def _cycling(pool: Sequence[Callable[[Rng, _World], dict[str, Any]]], r: Rng,
             w: _World) -> Callable[[int], dict[str, Any]]:
    """The drawer for the j-th fact of a kind: the pool's templates in turn."""
    return lambda j: pool[j % len(pool)](r, w)


def _styled(r: Rng, pool: tuple[Callable[..., dict[str, Any]], ...],
            styles: tuple[tuple[Callable[..., dict[str, Any]], ...], ...]) -> list[Callable[..., dict[str, Any]]]:
    """The pool shuffled, with one rule of each style first, so a session has every style from a few rules on."""
    head = [r.choice(style) for style in styles]
    return head + r.sample([f for f in pool if f not in head], len(pool) - len(head))


def _calls_in(size: int) -> int:
    """How many calls a filler turn of ``size`` messages makes (sequential; the first two in parallel when odd)."""
    return (size - 2) // 2 if size % 2 == 0 else 2 + (size - 5) // 2


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third"}.get(n, f"{n}th")


def make_session(seed: int, messages: int) -> Session:
    """A session of exactly ``messages`` messages (at least MIN_MESSAGES) with ``per_kind(messages)`` facts of each kind."""
    if messages < MIN_MESSAGES:
        raise ValueError(f"gen_port needs at least {MIN_MESSAGES} messages, got {messages}")
    session = _Builder(seed, messages).build()
    session.seed = seed
    return session
