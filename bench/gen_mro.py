"""Long sessions of an aircraft maintenance planner and their agent, with planted facts, for the fidelity bench.

The planner works in the line and base maintenance shop (MRO) of a French regional airline in Toulouse (ATR 72 and
A220, registrations like ``F-HBXA``); the agent works on the shop's planning and records software. The planner
writes French mixed with English, with typos and short replies ("ok", "vas-y", "nickel"); the agent explains,
sums up, offers options and keeps a todo list. Most of the text is tool output: AMOS-like task-card exports (CSV
and JSON), SQL Server result grids from the records database, Kotlin sources of the planning service, Gradle builds
with JUnit results and stack traces, the CAMO due-list check script, parts and tooling stock with shelf lives, the
flight schedule, ACARS fault messages and service logs. The user also pastes documents (an EASA airworthiness
directive, the OEM's service bulletin, the quality manager's mail, the night shift's handover note, a customer's
complaint, the CAMO's memo on a MEL deferral, a WhatsApp thread from the hangar) whose imperatives are not theirs.

    from gen_mro import make_session
    session = make_session(seed=1, messages=400)    # about 600k characters
    session = make_session(seed=1, messages=3000)   # about 4.7M characters
    for fact in session.facts:
        print(fact.kind, fact.index, fact.value, "<-", fact.query)
    for index, text in session.pasted:              # what the user pasted rather than wrote
        ...

``session.messages`` is an OpenAI chat conversation: a system prompt, user turns, assistant turns with
``tool_calls`` answered at once by ``tool`` messages, ending on an answer without calls and a last user turn.
``session.facts`` (:class:`sessiongen.Fact`) are ``per_kind(messages)`` facts of each of :data:`KINDS`, planted
between 3% and 88% of the session: standing rules, corrections of values said earlier (often near misses, some far
from what they correct), decisions (a third of them revising the user's own earlier choice), whole error lines of a
tool's output (some resolved by a later passing run of the same tool), files written by one call, identifiers said
by the user or printed by a tool, findings in a tool's output and plans written in prose. A value first occurs in
its own message and afterwards only in the eight messages after it; the same seed gives the same bytes.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from math import ceil, floor
from typing import Any

from sessiongen import Fact, Message, Session, text_of

KINDS = ("instruction", "correction", "decision", "error", "file", "identifier", "finding", "plan")
TOOLS = ("amos_query", "sql", "read_file", "edit_file", "gradle", "shell", "stock", "schedule", "acars")
MIN_MESSAGES = 60
AFTER = 8  # messages after a value's own that may say it again
CHARS_PER_MESSAGE = 1520  # 400 messages come to about 600k characters, 3000 to about 4.6M

__all__ = ["KINDS", "MIN_MESSAGES", "TOOLS", "make_session", "per_kind", "text_of"]


def per_kind(messages: int) -> int:
    """Facts of each kind: 1 at 60 messages, 6 at 400, 12 at 3000, linear in between and beyond."""
    if messages <= 400:
        return max(1, 1 + round((messages - 60) * 5 / 340))
    return 6 + (messages - 400) * 6 // 2600


# --- the shop's world (filler draws only from here) ---------------------------------------------------------------

FLEET_ATR = ("F-HBXA", "F-HBXB", "F-HBXC", "F-HBXE", "F-HBXG", "F-HBXI")
FLEET_A220 = ("F-HZUA", "F-HZUB", "F-HZUD", "F-HZUE")
FLEET = FLEET_ATR + FLEET_A220
PEOPLE = ("Karim", "Sandrine", "Mathieu", "Nadia Benali", "Jérôme", "Élodie", "Thierry Vidal", "Sophie Marty",
          "Lucas", "Fabrice Roux", "Manon", "Olivier (qualité)", "Camille", "Stéphane Puech")
AMM_POOL = ("AMM 05-51-00-200-801", "AMM 12-13-32-650-801", "AMM 21-51-00-710-801", "AMM 24-22-00-710-801",
            "AMM 27-92-00-200-801", "AMM 29-11-00-710-801", "AMM 32-11-00-200-801", "AMM 32-42-27-000-801",
            "AMM 34-11-00-720-801", "AMM 36-11-00-710-801", "AMM 49-00-00-200-801", "AMM 52-11-00-010-801",
            "AMM 71-00-00-200-801", "AMM 72-00-00-200-802", "AMM 79-21-00-610-801", "AMM 30-42-00-710-801",
            "AMM 26-15-00-710-801", "AMM 33-42-00-710-801")
TASKS = ("Detailed visual inspection MLG side brace", "Replace brake assy LH outbd", "Ops check pack valve 1",
         "Borescope HP turbine stage 1", "Lubricate flap tracks 2 to 5", "Check oil level eng 2",
         "Functional test ELT", "Inspect prop blades for erosion", "Restore corrosion protection wheel well",
         "Leak check ADC 1 pitot-static", "Replace cabin air filter", "GVI cargo door seals",
         "Ops test stall warning", "Check fire bottle pressure eng 1", "Replace wiper blade CM2",
         "DVI NLG steering actuator", "Check emergency lights batteries", "Torque check engine mounts")
ZONES = ("711", "712", "121", "211", "311", "421", "522", "611", "731", "812")
SKILLS = ("B1-MEC", "B1-AV", "B2", "STRUCT", "NDT", "CAB")
PN_POOL = ("D23190000-7", "3214552-4", "MS28775-228", "NAS1612-4", "S1820613-02", "2117894-1", "1152682-2",
           "3291238-1", "066-50008-0101", "822-1523-002", "AN960-416L", "5010-00-7", "M83248-1-906",
           "QA06123", "BACB30LH3-4", "2-6300-1", "ABS0368-030", "810-0131-050")
STORES = ("TLS-A01", "TLS-A07", "TLS-B03", "TLS-C12", "BOD-A02", "TLS-OUT")
PATHS = ("planning-core/src/main/kotlin/fr/ocmro/planning/scheduler/NightShiftPacker.kt",
         "planning-core/src/main/kotlin/fr/ocmro/planning/scheduler/WorkPackageScheduler.kt",
         "planning-core/src/main/kotlin/fr/ocmro/planning/imports/AmosCsvImporter.kt",
         "planning-core/src/main/kotlin/fr/ocmro/planning/duelist/DueItem.kt",
         "planning-core/src/main/kotlin/fr/ocmro/planning/stock/ShelfLifeGuard.kt",
         "planning-core/src/main/kotlin/fr/ocmro/planning/api/PlanningController.kt",
         "planning-core/src/main/kotlin/fr/ocmro/planning/model/TaskCard.kt",
         "planning-core/src/test/kotlin/fr/ocmro/planning/scheduler/NightShiftPackerTest.kt",
         "planning-core/src/main/resources/application.yml", "scripts/camo_duelist_check.py",
         "scripts/export_wp.py", "sql/views/v_open_defects.sql", "build.gradle.kts")
CLASSES = ("NightShiftPacker", "WorkPackageScheduler", "AmosCsvImporter", "DueItem", "ShelfLifeGuard",
           "PlanningController", "TaskCard", "ManHourEstimator", "TailAssignment")
TESTS = ("packsCardsByZone", "respectsNightCapacity", "skipsDeferredItems", "parsesSemicolonExport",
         "computesRemainingFc", "rejectsExpiredShelfLife", "splitsByTail", "keepsCrsOrder", "roundsManHours",
         "mapsAtaChapter", "ignoresCancelledCards", "handlesUtcMidnight")
FAULTS = ("PACK 1 FAULT", "BLEED 2 LEAK", "AIL LH SPLR FAULT", "PROP BRK ANTI-ICE", "ENG 2 OIL LO PR",
          "MFC 1A FAULT", "ADC 1 DISAGREE", "CAB PRESS AUTO FAULT", "FUEL USED DISAGREE", "EEC 1 FAULT")
SQL_TABLES = ("dbo.WorkOrders", "dbo.TaskCards", "dbo.Defects", "dbo.StockLines", "dbo.FlightLegs",
              "dbo.Tails", "dbo.ManHours")
PORTS = ("8443", "1433", "5672", "9090", "3306", "8080")

# --- values that only facts use (never drawn by the filler) ---------------------------------------------------------

RULE_TABLES = ("CrsSignoff", "LlpBackToBirth", "AdComplianceLog", "ToolCalibrationCert", "MelDeferralAudit",
               "BorescopeImages", "WeighingReports")
RULE_VIEWS = ("PlanningLoadByShift", "TaskCardDueFlat", "StockShelfLifeOpen", "FleetUtilDaily", "NightSlotsFree",
              "DeferredByTail")
FACT_NAMES = ("Gwenaëlle Kerbrat", "Baptiste Laffargue", "Inès Ould-Ali", "Romain Castagné", "Marion Deschamps",
              "Yannick Pujol", "Ludivine Sarrazin", "Cédric Espinasse", "Hugo Ferrandis", "Amandine Rouquette")
VENDORS = ("AJW Aviation", "AFI KLM E&M", "Lufthansa Technik Component", "StandardAero", "Liebherr Toulouse",
           "Collins Figeac", "Safran Landing Systems", "Satair Blagnac")
LIBS = ("Apache Commons CSV", "kotlin-csv", "OpenCSV", "Jackson dataformat-csv", "univocity-parsers")
FACT_CLASS_A = ("Mel", "Llp", "Torque", "Borescope", "Crs", "Tooling", "Acars", "Airworthiness", "Weighing", "Repair")
FACT_CLASS_B = ("Reconciler", "Exporter", "Matcher", "Splitter", "Validator", "Projector", "Auditor", "Ledger",
                "Notifier", "Digest")
FACT_SUBS = ("scheduler", "imports", "duelist", "stock", "records", "acars")
CONFIG_KEYS = ("nightShiftCapacityMinutes", "deferralHorizonDays", "acarsRepeatThreshold", "shelfLifeMarginDays",
               "borescopeIntervalFc", "crsGracePeriodHours", "manHourFactorA220", "maxCardsPerZone")
HARNESS = ("W2VN", "W3PB", "W1KE", "W4MD", "W5CA")
COMPONENTS = ("pressure regulating valve 2", "pack 1 flow control valve", "HP bleed valve LH", "anti-skid unit",
              "TRU 2", "ACW contactor 1PA", "ECS zone temp sensor", "nose wheel steering servo valve")


def _pool_text() -> str:
    pools: tuple[tuple[str, ...], ...] = (FLEET, PEOPLE, AMM_POOL, TASKS, PN_POOL, STORES, PATHS, CLASSES, TESTS,
                                          FAULTS, SQL_TABLES)
    return "\n".join("\n".join(p) for p in pools)


POOL_TEXT = _pool_text()


# --- planting bookkeeping --------------------------------------------------------------------------------------------

@dataclass
class _Item:
    """A run of messages laid out as one block; ``anchor`` is the offset placed at its wanted position."""

    msgs: list[Message]
    anchor: int = 0
    plants: list[_Plant] = field(default_factory=list)
    pasted: list[tuple[int, str]] = field(default_factory=list)
    want: float = 0.5
    start: int = -1
    limit: float | None = None  # the latest index its anchor may take


@dataclass
class _Plant:
    kind: str
    value: str
    offset: int
    query: str
    stale: str | None = None
    stale_item: _Item | None = None
    stale_offset: int = 0
    resolved_offset: int | None = None


def _d(rng: random.Random, n: int) -> str:
    return "".join(rng.choice("0123456789") for _ in range(n))


def _typo(rng: random.Random, text: str, p: float = 0.35) -> str:
    """Swap two letters of one longer word now and then (never touches placeholders or values)."""
    if rng.random() > p:
        return text
    words = text.split(" ")
    spots = [i for i, w in enumerate(words) if len(w) >= 5 and w.isalpha()]
    if not spots:
        return text
    i = rng.choice(spots)
    w = words[i]
    j = rng.randrange(1, len(w) - 2)
    words[i] = w[:j] + w[j + 1] + w[j] + w[j + 2:]
    return " ".join(words)


def _date(rng: random.Random) -> str:
    return f"2024-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"


def _clock(rng: random.Random) -> str:
    return f"{rng.randint(0, 23):02d}:{rng.choice((0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55)):02d}"


class _Gen:
    """Builds one session: value drawing, message helpers, tool outputs, filler and fact episodes."""

    def __init__(self, seed: int, messages: int) -> None:
        self.rng = random.Random(seed)
        self.n = messages
        self.taken: list[str] = []
        self.calls = 0
        self.tool_cycle: list[str] = []
        self.scale = 1.0  # how many rows filler outputs carry, set so that the session reaches its size
        self.row_chars = 0
        self.complete = False
        self.focus: dict[str, str] = {}
        self._pools()

    # --- values ---------------------------------------------------------------------------------------------------
    def unique(self, make: Callable[[], str]) -> str:
        """A value from ``make`` that is new, in no filler pool, and neither inside another value nor holding one."""
        v = self.try_unique(make, 400)
        if v is None:
            raise RuntimeError("could not draw a new value")
        return v

    def try_unique(self, make: Callable[[], str], tries: int = 60) -> str | None:
        for _ in range(tries):
            v = make()
            if v in POOL_TEXT or any(v in t or t in v for t in self.taken):
                continue
            self.taken.append(v)
            return v
        return None

    def pair(self, make: Callable[[], tuple[str, str]], tries: int = 60) -> tuple[str, str] | None:
        """Two new values (a stale one and its replacement) from ``make``, or None."""
        for _ in range(tries):
            a, b = make()
            vs = (a, b)
            if a in b or b in a or any(v in POOL_TEXT for v in vs):
                continue
            if any(v in t or t in v for t in self.taken for v in vs):
                continue
            self.taken += [a, b]
            return a, b
        return None

    # --- messages -------------------------------------------------------------------------------------------------
    def call(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        self.calls += 1
        cid = f"call_{self.calls:05d}{self.rng.getrandbits(40):010x}"
        return {"id": cid, "type": "function",
                "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)}}

    @staticmethod
    def user(text: str) -> Message:
        return {"role": "user", "content": text}

    @staticmethod
    def say(text: str) -> Message:
        return {"role": "assistant", "content": text}

    def step(self, text: str, calls: list[tuple[str, dict[str, Any], str]]) -> list[Message]:
        """An assistant turn with ``calls`` (name, arguments, output) and the tool results that answer them."""
        tcs = [self.call(name, args) for name, args, _ in calls]
        head: Message = {"role": "assistant", "content": text, "tool_calls": tcs}
        out: list[Message] = [head]
        for tc, (name, _a, result) in zip(tcs, calls):
            tool: Message = {"role": "tool", "tool_call_id": tc["id"], "name": name, "content": result}
            out.append(tool)
        return out

    def next_tool(self) -> str:
        if not self.tool_cycle:
            self.tool_cycle = list(TOOLS)
            self.rng.shuffle(self.tool_cycle)
        return self.tool_cycle.pop()

    # --- precomputed rows -----------------------------------------------------------------------------------------
    def _pools(self) -> None:
        r = self.rng
        self.p_tc = [f"WP{r.randint(2401, 2499)};{r.randint(1000, 9999)}-{r.randint(1, 99):02d};{r.choice(AMM_POOL)};"
                     f"{r.choice(TASKS)};{r.choice(ZONES)};{r.choice(SKILLS)};{r.randint(1, 48) / 4:.2f};"
                     f"{r.choice(('OPEN', 'OPEN', 'IN WORK', 'CLOSED', 'DEFERRED'))};{_date(r)};"
                     f"{r.randint(50, 29000)};{r.randint(20, 31000)};{r.choice(FLEET)}" for _ in range(420)]
        self.p_defect = [json.dumps({"tlb": f"TLB-{r.choice(FLEET)[2:]}-{r.randint(1000, 9999)}",
                                     "ata": f"{r.randint(21, 79)}-{r.randint(10, 99)}",
                                     "reported": f"{_date(r)}T{_clock(r)}Z", "text": r.choice(FAULTS).lower()
                                     + r.choice((" on ground", " in cruise", " during taxi", " intermittent")),
                                     "action": r.choice(("reset IAW TSM, ops test ok", "deferred MEL", "replaced",
                                                         "tbc next night stop", "no fault found")),
                                     "mel": r.choice((None, f"{r.randint(21, 36)}-{r.randint(10, 60)}-0{r.randint(1, 9)}")),
                                     "status": r.choice(("open", "closed", "deferred"))}, ensure_ascii=False)
                         for _ in range(300)]
        self.p_sql = [f"{r.randint(100000, 999999):<8} {r.choice(FLEET):<8} {r.choice(AMM_POOL):<22} "
                      f"{r.choice(('OPEN', 'CLOSED', 'DEFERRED', 'WIP')):<9} {_date(r)} {_clock(r)}:00.000 "
                      f"{r.randint(1, 400) / 4:>7.2f} {r.choice(PEOPLE)}" for _ in range(420)]
        levels = ("INFO ", "INFO ", "INFO ", "DEBUG", "WARN ")
        msgs = ("packed {a} cards for {reg} ({b}.5 MH)", "AMOS export fetched in {a} ms ({b} rows)",
                "GET /api/v1/packages/{reg} 200 {a}ms", "due-list sync: {a} items, {b} changed",
                "slow query {a} ms on dbo.TaskCards", "connection pool mro-records active={b} idle={a}",
                "night shift {reg}: capacity {a} min, load {b} min", "retrying ACARS feed on port 5672 ({b}/5)")
        self.p_log = [f"2024-{r.randint(1, 12):02d}-{r.randint(1, 28):02d} {_clock(r)}:{r.randint(10, 59)}."
                      f"{r.randint(100, 999)} {r.choice(levels)} [planner-{r.randint(1, 8)}] "
                      f"f.o.m.p.{r.choice(CLASSES)} - "
                      + r.choice(msgs).format(a=r.randint(2, 900), b=r.randint(1, 60), reg=r.choice(FLEET))
                      for _ in range(420)]
        self.p_stock = [f"{r.choice(PN_POOL):<16} SN{r.randint(10000, 99999)}  {r.choice(STORES):<8} "
                        f"{r.randint(0, 12):>3}  {r.choice(('EA', 'EA', 'KT', 'L'))}  "
                        f"{r.choice(('EASA Form 1', 'FAA 8130-3', 'CoC'))}  exp {_date(r)}" for _ in range(420)]
        self.p_sched = [f"YS{r.randint(100, 999)}  {r.choice(FLEET)}  {r.choice(('TLS', 'TLS', 'BOD', 'NTE', 'LYS', 'MRS', 'BIQ'))}"
                        f"-{r.choice(('ORY', 'CDG', 'TLS', 'BRU', 'AJA', 'BES'))}  STD {_clock(r)}  STA {_clock(r)}  "
                        f"{r.choice(('', 'NS', '', 'NS TLS', ''))}" for _ in range(420)]
        self.p_acars = [f"{_date(r)} {_clock(r)}Z {r.choice(FLEET)} FLR {r.randint(100000, 999999)} "
                        f"{r.randint(21, 36)}-{r.randint(10, 99)}-{r.randint(10, 99)} {r.choice(FAULTS)} "
                        f"CLASS {r.choice((1, 2, 2, 3))} FLT PH {r.choice(('TAXI', 'CLB', 'CRZ', 'DES', 'LDG'))}"
                        for _ in range(420)]
        self.p_tests = [f"{r.choice(CLASSES)}Test > {r.choice(TESTS)}() PASSED" for _ in range(300)]
        self.p_due = [f"{r.choice(FLEET):<8} {r.choice(AMM_POOL):<22} due {_date(r)}  rem {r.randint(-30, 900):>5} FH  "
                      f"{r.randint(-20, 700):>5} FC  {r.choice(('ok', 'ok', 'ok', 'WARN', 'match CAMO'))}"
                      for _ in range(420)]
        self.p_code = self._kotlin_lines()

    def _kotlin_lines(self) -> list[str]:
        r = self.rng
        out: list[str] = []
        for _ in range(50):
            cls, fn = r.choice(CLASSES), r.choice(TESTS)
            out += [f"    fun {fn}(cards: List<TaskCard>, tail: String): List<TaskCard> {{",
                    f"        val window = Duration.ofMinutes({r.randint(240, 600)})",
                    "        return cards",
                    "            .filter { it.status != Status.CLOSED && it.tail == tail }",
                    f"            .sortedWith(compareBy({{ it.zone }}, {{ it.dueDate }}))  // {r.choice(PEOPLE)}: {_clock(r)}",
                    f"            .take({r.randint(8, 60)})",
                    "    }", "",
                    f"    private val log = LoggerFactory.getLogger({cls}::class.java)",
                    f"    // see AmosCsvImporter.kt:{r.randint(20, 400)} for the column order", ""]
        return out

    def rows(self, pool: list[str], k: int) -> str:
        k = min(k, len(pool))
        i = self.rng.randrange(0, len(pool) - k + 1)
        text = "\n".join(pool[i:i + k])
        self.row_chars += len(text)
        return text

    def size(self, base: int) -> int:
        return max(3, int(base * self.scale * (0.5 + self.rng.random())))

    # --- filler tool outputs --------------------------------------------------------------------------------------
    def output(self, tool: str) -> tuple[dict[str, Any], str, str]:
        """(arguments, output, a one-line gist the agent can report) for a filler call of ``tool``."""
        r = self.rng
        reg = self.focus.pop("reg", "") or r.choice(FLEET)
        if tool == "amos_query":
            if r.random() < 0.6:
                k = self.size(44)
                head = "wp_id;tc_number;amm_ref;description;zone;skill;mh_est;status;due_date;due_fh;due_fc;tail"
                text = f"-- AMOS export {_date(r)} {_clock(r)} ({k} rows)\n{head}\n{self.rows(self.p_tc, k)}"
                return ({"query": "task_cards", "tail": reg, "status": "OPEN", "format": "csv"}, text,
                        f"{k} task cards, tail {reg}")
            k = self.size(22)
            text = "[\n  " + ",\n  ".join(self.rows(self.p_defect, k).split("\n")) + "\n]"
            return {"query": "techlog", "tail": reg, "days": r.choice((7, 14, 30)), "format": "json"}, text, \
                f"{k} tech log entries on {reg}"
        if tool == "sql":
            k = self.size(40)
            table = r.choice(SQL_TABLES)
            q = (f"SELECT TOP {k} WoId, Tail, AmmRef, Status, ClosedAt, ManHours, SignedBy FROM {table} "
                 f"WHERE Tail = '{reg}' ORDER BY ClosedAt DESC")
            text = ("WoId     Tail     AmmRef                 Status    ClosedAt                 ManHours SignedBy\n"
                    + "-" * 100 + "\n" + self.rows(self.p_sql, k)
                    + f"\n\n({k} rows affected)\n\nCompletion time: {_date(r)}T{_clock(r)}:{r.randint(10, 59)}.{_d(r, 7)}+01:00")
            return {"db": "MRO_RECORDS", "query": q}, text, f"{k} rows from {table}"
        if tool == "read_file":
            path = self.focus.pop("path", "") or r.choice(PATHS[:8])
            k = self.size(60)
            body = self.rows(self.p_code, k)
            lines = body.split("\n")
            start = r.randint(1, 300)
            text = f"// {path}\n" + "\n".join(f"{start + i:4d}  {ln}" for i, ln in enumerate(lines))
            return {"path": path, "offset": start}, text, f"{path.rsplit('/', 1)[-1]}, {len(lines)} lines"
        if tool == "edit_file":
            path = self.focus.pop("path", "") or r.choice(PATHS[:8])
            a, b = r.randint(240, 600), r.randint(240, 600)
            find = f"Duration.ofMinutes({a})"
            repl = f"Duration.ofMinutes({b})"
            ctx = self.rows(self.p_code, self.size(14))
            text = (f"Edited {path}: 1 hunk, +1 -1\n@@ -{r.randint(20, 300)},7 +{r.randint(20, 300)},7 @@\n"
                    + "\n".join(" " + ln for ln in ctx.split("\n")[:6]) + f"\n-        val window = {find}\n"
                    + f"+        val window = {repl}\n" + "\n".join(" " + ln for ln in ctx.split("\n")[6:]))
            return {"path": path, "find": find, "replace": repl}, text, f"{path.rsplit('/', 1)[-1]} edited"
        if tool == "gradle":
            k = self.size(34)
            secs = r.randint(18, 140)
            warn = (f"w: file:///home/planif/mro-planning/{r.choice(PATHS[:7])}:{r.randint(20, 400)}:{r.randint(5, 40)} "
                    "'toUpperCase(): String' is deprecated. Use uppercase() instead.\n")
            text = ("> Task :planning-core:compileKotlin\n" + (warn if r.random() < 0.5 else "")
                    + "> Task :planning-core:compileTestKotlin UP-TO-DATE\n> Task :planning-core:test\n\n"
                    + self.rows(self.p_tests, k)
                    + f"\n\n{k} tests completed, 0 failed\n\nBUILD SUCCESSFUL in {secs}s\n"
                    f"{r.randint(5, 12)} actionable tasks: {r.randint(2, 5)} executed, {r.randint(1, 7)} up-to-date")
            return {"args": ":planning-core:test", "daemon": True}, text, f"{k} tests green in {secs}s"
        if tool == "shell":
            if r.random() < 0.5:
                k = self.size(46)
                text = (f"$ python3 scripts/camo_duelist_check.py --fleet ALL --horizon 30\n"
                        f"loaded CAMO due list rev {r.randint(10, 90)} ({r.randint(800, 2400)} items)\n"
                        f"{'tail':<8} {'task':<22} due\n" + self.rows(self.p_due, k)
                        + f"\nsummary: {k} checked, {r.randint(0, 4)} WARN, 0 ERROR")
                return {"cmd": "python3 scripts/camo_duelist_check.py --fleet ALL --horizon 30"}, text, \
                    f"{k} due items checked"
            k = self.size(40)
            text = self.rows(self.p_log, k)
            return {"cmd": f"tail -n {k} /var/log/mro-planning/app.log"}, text, f"{k} log lines"
        if tool == "stock":
            k = self.size(40)
            pn = self.focus.pop("pn", "") or r.choice(PN_POOL)
            text = (f"stock query pn~{pn} sites=TLS,BOD at {_clock(r)}\nP/N              S/N      store    qty  UoM "
                    f"cert         shelf life\n" + self.rows(self.p_stock, k) + f"\n{k} lines, {r.randint(0, 6)} reserved")
            return {"pn": pn, "sites": ["TLS", "BOD"]}, text, f"{k} stock lines for {pn}"
        if tool == "schedule":
            k = self.size(42)
            day = _date(r)
            text = (f"schedule {day} fleet=ALL (times UTC)\n" + self.rows(self.p_sched, k)
                    + f"\nnight stops TLS: {r.randint(3, 9)}  hangar slots free: {r.randint(0, 3)}")
            return {"date": day, "fleet": r.choice(("ATR", "A220", "ALL"))}, text, f"{k} legs on {day}"
        k = self.size(40)
        text = f"ACARS downlink {reg} last {r.choice((24, 48, 72))} h\n" + self.rows(self.p_acars, k)
        return {"tail": reg, "since_hours": r.choice((24, 48, 72))}, text, f"{k} ACARS messages"

    # --- filler ---------------------------------------------------------------------------------------------------
    ASKS = {
        "amos_query": ("tu peux me sortir les task cards ouvertes de {reg} ?", "pull the open cards for {reg} pls",
                       "export AMOS du WP de {reg} stp", "regarde le tech log de {reg}, y a un truc qui revient ?"),
        "sql": ("fais une requête sur les OT clos de {reg} cette semaine", "how many MH did we book on {reg}?",
                "vérifie dans la base records ce qui a été signé par {who}"),
        "read_file": ("montre moi le packer, la partie fenêtre de nuit", "open the importer, I want to see the column mapping",
                      "c'est où qu'on calcule les FC restants ?"),
        "edit_file": ("corrige la fenêtre dans le packer stp", "change the window to what we said",
                      "mets à jour le code pour la nouvelle capacité"),
        "gradle": ("relance les tests", "run the build", "lance gradle test sur planning-core",
                   "les tests passent toujours ?"),
        "shell": ("lance le script de la due list sur toute la flotte", "tail the app log, {who} says it's slow",
                  "run the camo check again"),
        "stock": ("on a du stock pour le {pn} ?", "check stores for {pn} at TLS and BOD", "dispo {pn} ? urgent pour {reg}"),
        "schedule": ("c'est quoi le programme de {reg} demain ?", "which tails night-stop at TLS tonight?",
                     "quand est-ce que {reg} rentre ce soir ?"),
        "acars": ("regarde les messages ACARS de {reg} depuis hier", "any ACARS faults on {reg}?",
                  "{who} dit que {reg} a remonté un truc en vol, tu peux checker ?"),
    }
    SHORT = ("ok", "vas-y", "go", "nickel", "ok merci", "oui", "d'acc", "ok continue", "parfait", "yes", "hmm ok",
             "fais-le", "ça marche", "top")
    NOTES = ("Je lance.", "I'll check that.", "Je regarde.", "Checking.", "Je vérifie d'abord ça.",
             "Let me pull that first.", "Je commence par là.", "On regarde les données brutes.")

    def ask(self, tool: str) -> str:
        r = self.rng
        if r.random() < 0.22:
            return r.choice(self.SHORT)
        self.focus = {"reg": r.choice(FLEET), "pn": r.choice(PN_POOL)}
        text = r.choice(self.ASKS[tool]).format(reg=self.focus["reg"], who=r.choice(PEOPLE), pn=self.focus["pn"])
        if r.random() < 0.2:
            text = f"{r.choice(PEOPLE)} passe à {_clock(r)}, donc {text}"
        return _typo(r, text)

    def wrap_up(self, gists: list[str]) -> str:
        r = self.rng
        first = r.choice(("C'est fait.", "Voilà.", "Done.", "J'ai regardé.", "Résultat :", "OK, here is what I see."))
        nums = f"{r.randint(2, 40)} éléments à regarder, {r.randint(0, 6)} vraiment bloquants"
        body = "; ".join(gists)
        extra = r.random()
        text = f"{first} {body[:1].upper() + body[1:]}. En gros {nums}."
        if extra < 0.2:
            text += (f"\n\nDeux options :\n1. on traite cette nuit sur {r.choice(FLEET)} (créneau {_clock(r)}–{_clock(r)})"
                     f"\n2. on attend le retour de {r.choice(PEOPLE)} et on décale\n\nJe pencherais pour la 1.")
        elif extra < 0.35:
            text += ("\n\nTodo :\n- [x] export AMOS\n- [x] recoupement due list CAMO\n- [ ] recalcul charge nuit"
                     f"\n- [ ] point avec {r.choice(PEOPLE)} à {_clock(r)}")
        elif extra < 0.5:
            text += (f"\n\nRien d'anormal côté service (le endpoint sur {r.choice(PORTS)} répond en {r.randint(20, 400)} ms), "
                     f"à part le warning vu dans AmosCsvImporter.kt:{r.randint(20, 400)}.")
        elif extra < 0.6:
            text += f'\n\nPour mémoire : {{"tail": "{r.choice(FLEET)}", "slot": "{_clock(r)}", "mh": {r.randint(4, 60)}.5}}'
        elif extra < 0.7:
            text += (f"\n\n| tail | open | deferred |\n|---|---|---|\n| {r.choice(FLEET_ATR)} | {r.randint(1, 30)} | "
                     f"{r.randint(0, 4)} |\n| {r.choice(FLEET_A220)} | {r.randint(1, 30)} | {r.randint(0, 4)} |")
        return text

    def episode(self, length: int) -> list[Message]:
        """Filler of exactly ``length`` messages (2, or 3 as the agent carrying on, or more)."""
        r = self.rng
        if length == 2:
            q, a = r.choice((
                ("c'est quoi déjà la diff entre A-check et daily ?",
                 "Le daily est une visite de ligne (24/48 h) ; le A-check suit l'intervalle MPD en FH. "
                 "Dans l'export AMOS ils sont distingués par le champ `pkg_type` (D / A)."),
                ("tu peux résumer où on en est ?",
                 f"Où on en est : {r.randint(3, 20)} cartes replanifiées, {r.randint(0, 5)} en attente de pièces. "
                 f"Prochaine étape : recalcul charge nuit, puis validation avec {r.choice(PEOPLE)}."),
                ("on en est où ?",
                 f"{r.randint(2, 9)} points ouverts. Le plus urgent : la pièce pour {r.choice(FLEET)} (arrivée prévue {_clock(r)})."),
                ("what's the usual MEL category for a pack valve?",
                 "Usually category C (10 calendar days), but check the approved MEL of the CAMO, not the MMEL."),
                ("rappelle moi le format de l'export",
                 f"Export AMOS : CSV séparé par ';', 12 colonnes, dates ISO, heures en décimal. "
                 f"Exemple : `WP2417;4411-03;AMM 32-11-00-200-801;...`. L'import le lit dans AmosCsvImporter.kt:{r.randint(30, 200)}."),
                ("ok et après ?", f"Après : le recalcul de charge pour la nuit du {r.randint(1, 28)}, puis l'export vers le planning hangar."),
                ("c'est quoi le port du service déjà ?",
                 f"Le service planning écoute sur {r.choice(('8443', '9090', '8080'))} (HTTPS), la base records sur 1433."),
            ))
            return [self.user(_typo(r, q)), self.say(a)]
        if length == 3:
            tool = self.next_tool()
            args, out, gist = self.output(tool)
            return self.step(r.choice(("Pendant que j'y suis, je vérifie aussi ceci.", "One more check while I'm at it.")),
                             [(tool, args, out)]) + [self.say(self.wrap_up([gist]))]
        tools: list[list[str]] = []
        m = length - 2
        while m > 0:
            c = min(m - 1, r.choice((1, 1, 1, 2, 2, 3)))
            if m - (1 + c) == 1:
                c = m - 1 if m - 1 <= 3 else c - 1 if c > 1 else c + 1
            tools.append([self.next_tool() for _ in range(c)])
            m -= 1 + c
        msgs: list[Message] = [self.user(self.ask(tools[0][0]))]
        gists: list[str] = []
        for group in tools:
            calls = []
            for t in group:
                args, out, gist = self.output(t)
                calls.append((t, args, out))
                gists.append(gist)
            msgs += self.step(r.choice(self.NOTES), calls)
            self.focus = {}
        msgs.append(self.say(self.wrap_up(gists)))
        return msgs

    def fill(self, gap: int, first: bool) -> list[Message]:
        """Filler episodes of exactly ``gap`` messages (never 1; never opening on the agent carrying on)."""
        out: list[Message] = []
        while gap > 0:
            opening = first and not out
            for _ in range(20):
                length = gap if gap <= 12 else self.rng.randint(2, 10)
                if gap - length != 1 and not (opening and length == 3):
                    break
                length = gap - 2 if gap > 12 else max(2, gap)
                if gap - length != 1 and not (opening and length == 3):
                    break
            out += self.episode(length)
            gap -= length
        return out

    # --- pasted documents -----------------------------------------------------------------------------------------
    def document(self, kind: str) -> tuple[str, str]:
        """(how the user introduces it, the pasted text) for one kind of document."""
        r = self.rng
        reg, who, day = r.choice(FLEET), r.choice(PEOPLE), _date(r)
        amm = r.choice(AMM_POOL)
        if kind == "ad":
            n = f"2024-0{r.randint(100, 299)}"
            return "AD reçue ce matin, extrait :", (
                f"EASA AD No.: {n}\nIssued: {day}\nATA 32 – Landing Gear – Main Landing Gear Side Brace – Inspection\n"
                f"Applicability: ATR 72-212A aircraft, all MSN up to {r.randint(1300, 1400)}.\n"
                f"Required Action(s) and Compliance Time(s):\n(1) Within {r.randint(300, 600)} FC after the effective date, "
                f"inspect the MLG side brace upper attachment in accordance with the instructions of the SB.\n"
                f"(2) If any crack is detected, before next flight, replace the side brace. Do not defer this task under the MEL.\n"
                f"(3) Report findings to ATR within 30 days. Repeat the inspection at intervals not exceeding "
                f"{r.randint(1000, 3000)} FC.\nRef. {amm}")
        if kind == "sb":
            return "le SB du constructeur, pour info :", (
                f"SERVICE BULLETIN ATR72-{r.randint(21, 36)}-{r.randint(1000, 1200)} Rev. {r.randint(1, 4)}\n"
                f"SUBJECT: Replace pack flow control valve seal (P/N {r.choice(PN_POOL)})\n"
                "1. PLANNING INFORMATION\nA. Effectivity: see para 1.A.(1)\nB. Reason: reports of PACK FAULT in climb.\n"
                f"C. Manpower: {r.randint(2, 9)} MH, 2 mechanics. Aircraft must be on jacks: NO.\n"
                "2. ACCOMPLISHMENT INSTRUCTIONS\n(1) Open circuit breakers 21-HA and 21-HB and install safety tags.\n"
                f"(2) Remove access panel {r.choice(ZONES)}AR. Do not use power tools on the valve body.\n"
                f"(3) Torque the clamp to {r.randint(30, 60)} lbf.in. Perform the ops test per {amm}.")
        if kind == "quality":
            return "mail d'Olivier (qualité), je te le colle :", (
                f"From: Olivier Segond <qualite@ocmro.fr>\nTo: planification@ocmro.fr\nDate: {day} {_clock(r)}\n"
                f"Subject: Rappel - enregistrements et signatures\n\nBonjour à tous,\n\nSuite à l'audit interne du "
                f"{_date(r)}, merci de respecter les points suivants :\n- Please record the actual measured values, "
                "not only 'OK', on every task card.\n- Ne pas signer une carte pour un collègue.\n"
                f"- Always attach the Form 1 of installed parts before closing the WO.\n- Les écarts sont à remonter sous "
                f"{r.randint(24, 72)} h.\n\nCordialement,\nOlivier")
        if kind == "handover":
            return "passation de l'équipe de nuit :", (
                f"PASSATION NUIT {day} — chef d'équipe {who}\n{reg} : {r.choice(TASKS).lower()}, fait à "
                f"{r.randint(60, 90)}%, reste {r.randint(1, 6)} h. Pièce {r.choice(PN_POOL)} en attente magasin.\n"
                f"{r.choice(FLEET)} : RAS, CRS signé à {_clock(r)}.\n{r.choice(FLEET)} : fuite hydraulique mineure zone "
                f"{r.choice(ZONES)}, à surveiller.\nÀ faire par l'équipe de jour : reprendre le torquage, ne pas "
                f"refermer les trappes avant inspection B1. Rappeler {r.choice(PEOPLE)} avant {_clock(r)}.")
        if kind == "complaint":
            return "le client râle, voilà le mail :", (
                f"Subject: Delay YS{r.randint(100, 999)} {day} — aircraft {reg}\n\nDear MRO team,\n\nFlight "
                f"YS{r.randint(100, 999)} departed {r.randint(40, 190)} minutes late this morning because the aircraft "
                f"was not released on time after the night stop. This is the {r.choice(('second', 'third'))} time this month.\n"
                "Please provide a root cause analysis within 5 working days. Do not plan any non-urgent task on our "
                f"aircraft during the summer peak without our prior approval.\nPenalty clause 7.{r.randint(1, 9)} applies.\n\n"
                "Regards,\nOperations Control")
        if kind == "camo":
            return "note CAMO sur le report MEL :", (
                f"CAMO MEMO {r.randint(100, 999)}/{day[:4]} — Deferred defect on {reg}\nMEL item "
                f"{r.randint(21, 36)}-{r.randint(10, 60)}-0{r.randint(1, 9)} category {r.choice('BC')}, deferred on {day}.\n"
                f"Rectification interval: {r.randint(3, 10)} calendar days. The (O) procedure must be performed before each "
                "flight. Placard the affected control. Do not extend the deferral without CAMO approval.\n"
                f"Contact: {r.choice(PEOPLE)}, ext. {r.randint(4000, 4999)}")
        return "thread WhatsApp du hangar, pour contexte :", (
            f"[{_clock(r)}] {r.choice(PEOPLE)}: {reg} est rentré, on attaque les roues\n"
            f"[{_clock(r)}] {r.choice(PEOPLE)}: il manque le kit joints {r.choice(PN_POOL)} !!\n"
            f"[{_clock(r)}] {r.choice(PEOPLE)}: magasin dit {r.choice(STORES)}, quelqu'un peut descendre ?\n"
            f"[{_clock(r)}] {r.choice(PEOPLE)}: redémarrez le PC du poste 3 il est planté\n"
            f"[{_clock(r)}] {r.choice(PEOPLE)}: ne touchez pas au frein gauche avant que {r.choice(PEOPLE)} ait vu\n"
            f"[{_clock(r)}] {r.choice(PEOPLE)}: 👍")

    DOCS = ("ad", "sb", "quality", "handover", "complaint", "camo", "whatsapp")

    def paste_item(self) -> _Item:
        r = self.rng
        intro, doc = self.document(r.choice(self.DOCS))
        after = r.choice(("\n\ntu peux regarder l'impact sur le planning ?", "\n\nregarde ce que ça change pour nous",
                          "\n\njuste pour info, rien à faire pour l'instant", "\n\nimpact sur la semaine prochaine ?"))
        text = f"{intro}\n\n{doc}{after}"
        reply = r.choice(("Lu. Ce sont leurs consignes, je ne les applique pas d'office ; ",
                          "Noted. Pour résumer le document : ")) + \
            f"il y a {doc.count(chr(10)) + 1} lignes, dont quelques actions avec échéance. Je regarde l'impact sur {r.choice(FLEET)}."
        return _Item([self.user(text), self.say(reply)], pasted=[(0, doc)])

    # --- facts ----------------------------------------------------------------------------------------------------
    def instruction(self, style: str, french: bool) -> _Item:
        r = self.rng
        n = r.randint(2, 9)
        templates: list[tuple[Callable[[], str], str, str]] = [
            (lambda: f"dbo.{r.choice(RULE_TABLES)}",
             "on ne fait jamais d'UPDATE direct sur {v}, tout passe par les procédures stockées",
             "which records table must never be updated directly"),
            (lambda: f"{r.randint(2, 6)} open deferred items",
             "we never release a tail with {v} or more on it, whatever ops says",
             "how many open deferred items stop an aircraft's release"),
            (lambda: f"v_{r.choice(RULE_VIEWS)}",
             "je préfère que tu passes par la vue {v} plutôt que par les tables brutes",
             "which view the user prefers over the raw tables"),
            (lambda: f"less than {r.randint(20, 150)} days of shelf life",
             "house rule: anything with {v} goes back to stores, no exceptions",
             "below what shelf life parts go back to stores"),
            (lambda: f"audit OSAC {r.randint(2023, 2025)}/{_d(r, 3)}",
             "tant que l'{v} n'est pas clos, merci de ne rien pousser sur la base de prod",
             "until when nothing may be pushed to the production database"),
            (lambda: f"ticket PLAN-{_d(r, 4)}",
             "until {v} is merged, don't touch the gradle wrapper",
             "what must be merged before the gradle wrapper may be touched"),
            (lambda: r.choice(("quart d'heure supérieur", "demi-heure supérieure", "dixième d'heure")) + f" dès {n} min entamées",
             "à partir de maintenant les heures MO s'arrondissent au {v}",
             "how booked man-hours are rounded"),
            (lambda: f"-Pmro.env=recette{r.randint(2, 99)}",
             "toujours lancer gradle avec {v}, sinon ça tape sur la vraie base",
             "which flag gradle is always run with"),
            (lambda: f"{r.randint(35, 95)} MH per night",
             "btw I'd rather we keep the A220 night packages under {v}",
             "cap on man-hours for an A220 night package"),
            (lambda: f"magasin {r.choice('DEFGH')}{r.randint(10, 99)}",
             "merci de ne pas réserver d'outillage au {v} sans prévenir le chef magasin",
             "which store's tooling may not be reserved without warning"),
            (lambda: f"trace back-to-birth ({r.randint(2, 9)} docs)",
             "pour les LLP on vérifie toujours la {v} avant de planifier quoi que ce soit",
             "what is always checked for life-limited parts before planning"),
            (lambda: f"{r.randint(3, 6)} times within {r.choice((24, 36, 48, 72))} h",
             "rule of thumb for us: an ACARS fault that comes back {v} becomes a tech log defect",
             "when a repeating ACARS fault becomes a tech log defect"),
            (lambda: f"UTC suffixé Z (ISO {r.randint(2, 9)})",
             "les horaires dans les exports, toujours en {v}, jamais en heure locale",
             "which time convention exports use"),
            (lambda: f"\\\\camo-fs{r.randint(10, 99)}\\duelist",
             "don't ever run the due-list script against {v} — that's the CAMO's own copy",
             "which share the due-list script must never run against"),
            (lambda: f"{r.randint(20, 23)}h–0{r.randint(1, 5)}h",
             "on ne lance jamais de build pendant le créneau {v}, c'est l'import AMOS de nuit",
             "time window during which no build is run"),
        ]
        order = list(range(len(templates)))
        r.shuffle(order)
        # the French rules are those written with "on ne", "je préfère", "tant que", "à partir de", "toujours"...
        fr_rules = {0, 2, 4, 6, 7, 9, 10, 12, 14}
        order = [i for i in order if (i in fr_rules) == french] + [i for i in order if (i in fr_rules) != french]
        if style == "conditional":
            order = [i for i in order if i in (4, 5)] + [i for i in order if i not in (4, 5)]
        for idx in order:
            make, tpl, query = templates[idx]
            got = self.try_unique(make)
            if got is not None:
                v = got
                break
        else:
            raise RuntimeError("no rule left to draw")
        rule = _typo(r, tpl.replace("{v}", "\x00")).replace("\x00", v)
        end = "."
        if style == "casual":
            rule = rule[0].lower() + rule[1:]
            end = r.choice((" stp", " ok?", " 🙏", "", " merci"))
        pasted: list[tuple[int, str]] = []
        if style == "second":
            lead = r.choice((f"Bon, on reprend le WP de {r.choice(FLEET)}, {r.choice(PEOPLE)} attend le planning pour {_clock(r)}.",
                             "Thanks for the export, looks right.", f"ok pour les {r.randint(3, 20)} cartes."))
            text = f"{lead}\n\n{rule[0].upper() + rule[1:]}{end}"
        elif style == "adopted":
            intro, doc = self.document("quality")
            text = f"{intro}\n\n{doc}\n\nBref, pour nous ça donne : {rule}. Le reste du mail c'est pour les mécanos."
            pasted = [(0, doc)]
        elif style == "conditional":
            text = f"{r.choice(('Autre chose.', 'Also —', 'Important :'))} {rule[0].upper() + rule[1:]}{end}"
        else:
            text = f"{rule[0].upper() + rule[1:]}{end}"
        ack = r.choice(("Compris, je m'y tiens : {v}.", "Noted — {v}, from now on.", "OK, c'est noté ({v}).")).format(v=v)
        item = _Item([self.user(text), self.say(ack)], pasted=pasted)
        item.plants.append(_Plant("instruction", v, 0, query))
        return item

    NEAR = ("wo", "reg", "pn", "amm", "qn", "sn", "torque")
    LOOSE = ("person", "store", "night")

    def correction(self, near: bool) -> tuple[_Item, _Item]:
        """(the stale statement, the correction) for one corrected value."""
        r = self.rng
        def maker(kind: str) -> tuple[Callable[[], tuple[str, str]], tuple[str, str], str]:

            def swap(s: str) -> str:
                digits = [i for i in range(len(s) - 1) if s[i].isdigit() and s[i + 1].isdigit() and s[i] != s[i + 1]]
                if not digits:
                    return s[:-1] + ("1" if s[-1] != "1" else "2")
                i = r.choice(digits)
                return s[:i] + s[i + 1] + s[i] + s[i + 2:]

            if kind == "wo":
                def mk() -> tuple[str, str]:
                    s = f"WO-{r.randint(1000000, 9999999)}"
                    return s, swap(s)
                thing, tool = ("le numéro d'OT", "WO number"), "amos_query"
            elif kind == "reg":
                def mk() -> tuple[str, str]:
                    p, letters = r.choice((("F-HBX", "KMOQRTWY"), ("F-HZU", "KMPRTW")))
                    a, b = r.sample(letters, 2)
                    return p + a, p + b
                thing, tool = ("l'immat", "tail"), "schedule"
            elif kind == "pn":
                def mk() -> tuple[str, str]:
                    base = f"{r.choice('CKR')}{r.randint(100000, 999999)}-"
                    a, b = r.sample(range(10, 99), 2)
                    return base + str(a), base + str(b)
                thing, tool = ("la P/N", "part number"), "stock"
            elif kind == "amm":
                def mk() -> tuple[str, str]:
                    base = f"AMM {r.randint(21, 79)}-{r.randint(10, 99)}-{r.randint(10, 99)}-{r.randint(200, 799)}-8"
                    a, b = r.sample(range(10, 99), 2)
                    return base + str(a), base + str(b)
                thing, tool = ("la tâche AMM", "AMM task"), "amos_query"
            elif kind == "qn":
                def mk() -> tuple[str, str]:
                    s = f"QN-{r.randint(10000, 99999)}"
                    return s, swap(s)
                thing, tool = ("la QN", "QN number"), "sql"
            elif kind == "sn":
                def mk() -> tuple[str, str]:
                    s = f"S/N TL{r.randint(100000, 999999)}"
                    return s, swap(s)
                thing, tool = ("le S/N", "serial"), "stock"
            elif kind == "torque":
                def mk() -> tuple[str, str]:
                    a = r.randint(20, 90)
                    return f"{a},5 N·m", f"{a + r.choice((-3, -2, 2, 3))},5 N·m"
                thing, tool = ("la valeur de couple", "torque value"), "read_file"
            elif kind == "person":
                def mk() -> tuple[str, str]:
                    a, b = r.sample(FACT_NAMES, 2)
                    return a, b
                thing, tool = ("le nom du B1", "certifying engineer's name"), "sql"
            elif kind == "store":
                def mk() -> tuple[str, str]:
                    return f"baie outillage {r.choice('PQRS')}{r.randint(10, 49)}", f"baie outillage {r.choice('TUVW')}{r.randint(50, 99)}"
                thing, tool = ("l'emplacement", "tooling bay"), "stock"
            else:
                def mk() -> tuple[str, str]:
                    a, b = r.sample(range(1, 29), 2)
                    m = r.randint(1, 12)
                    return f"nuit du {a:02d}/{m:02d}", f"nuit du {b:02d}/{m:02d}"
                thing, tool = ("le créneau", "night"), "schedule"
            return mk, thing, tool

        kinds = list(self.NEAR if near else self.LOOSE)
        r.shuffle(kinds)
        kinds += [k for k in self.NEAR + self.LOOSE if k not in kinds]
        for kind in kinds:
            mk, thing, tool = maker(kind)
            got = self.pair(mk)
            if got is not None:
                break
        else:
            raise RuntimeError("no correction left to draw")
        stale, value = got
        fr, en = thing
        # the stale statement: the user says it, the agent uses it
        ask = _typo(r, r.choice(("Peux-tu regarder {fr} {s} ? c'est pour {p}",
                                 "can you check {s} for me, {p} needs it before {t}",
                                 "on prépare le dossier, {fr} c'est {s}. Sors moi ce qu'on a.")))
        ask = ask.format(fr=fr, s=stale, p=r.choice(PEOPLE), t=_clock(r))
        args, out, gist = self.output(tool)
        args = {"ref": stale, **args}
        out = f"filter: {stale}\n" + out
        s_item = _Item([self.user(ask)] + self.step(f"Je cherche {stale}.", [(tool, args, out)])
                       + [self.say(f"Pour {stale} : {gist}. Rien de bloquant à première vue.")])
        # the correction
        style = r.randrange(5)
        if style == 0:
            text = f"non attends, c'est {value}, pas {stale}"
        elif style == 1:
            text = f"je me suis trompé tout à l'heure pour {fr} : {value}"
        elif style == 2:
            text = f"c'est l'autre, {value}. désolé"
        elif style == 3:
            text = f"I gave you the wrong {en} earlier — it's {value}, not {stale}."
        else:
            text = (f"Le point avec {r.choice(PEOPLE)} s'est bien passé, ils valident le planning de la semaine.\n\n"
                    f"Au fait, ce que je t'ai donné ce matin pour {fr} était faux : c'est {value}. "
                    f"Refais ce qui en dépend.\n\nEt pense au point de {_clock(r)} avec {r.choice(PEOPLE)}.")
        args2, out2, gist2 = self.output(tool)
        args2 = {"ref": value, **args2}
        out2 = f"filter: {value}\n" + out2
        c_item = _Item([self.user(text)] + self.step(f"OK, je reprends avec {value}.", [(tool, args2, out2)])
                       + [self.say(f"Refait avec {value} : {gist2}. J'oublie {stale}.")])
        query = {"wo": "which work order number is the right one", "reg": "which aircraft registration the user meant",
                 "pn": "which part number is the right one", "amm": "which AMM task reference applies",
                 "qn": "which quality notification number is right", "sn": "which serial number is the right one",
                 "torque": "which torque value applies", "person": "who the certifying engineer is",
                 "store": "which tooling bay to use", "night": "which night the slot is on"}[kind]
        c_item.plants.append(_Plant("correction", value, 0, query, stale=stale, stale_item=s_item))
        return s_item, c_item

    DECISIONS: tuple[tuple[str, str], ...] = (
        ("exchange unit from {x}", "where the exchange unit comes from"),
        ("parse the export with {x}", "which library parses the AMOS export"),
        ("split the C-check into {x} night slots", "how many night slots the C-check is split into"),
        ("due-list horizon of {x} days", "which horizon the due-list check uses"),
        ("thresholds in table dbo.Threshold{x}", "where the planning thresholds are stored"),
        ("{x} mechanics on the A220 night", "how many mechanics staff the A220 night shift"),
    )

    def decision(self, revised: bool) -> tuple[_Item | None, _Item]:
        r = self.rng
        order = list(range(len(self.DECISIONS)))
        r.shuffle(order)
        for idx in order:
            made = self.decision_at(idx, revised)
            if made is not None:
                return made
        raise RuntimeError("no decision left to draw")

    def decision_at(self, idx: int, revised: bool) -> tuple[_Item | None, _Item] | None:
        r = self.rng
        tpl, query = self.DECISIONS[idx]

        def choice() -> str:
            if idx == 0:
                return r.choice(VENDORS)
            if idx == 1:
                return r.choice(LIBS)
            if idx == 2:
                return str(r.randint(2, 9))
            if idx == 3:
                return str(r.randint(11, 120))
            if idx == 4:
                return r.choice(("Ata", "Shift", "Zone", "Tail", "Skill")) + _d(r, 2)
            return str(r.randint(3, 14))

        def mk() -> tuple[str, str]:
            return tpl.format(x=choice()), tpl.format(x=choice())

        if revised:
            got = self.pair(mk)
            if got is None:
                return None
            stale, value = got
            first = r.choice(("Pour l'instant je dirais : {s}. À confirmer.", "ok let's do {s} for now",
                              "on va faire simple, décision provisoire : {s}."))
            s_item = _Item([self.user(first.format(s=stale)),
                            self.say(f"Noté, je pars sur {stale} pour l'instant. Je garde les deux options sous le coude.")])
            text = r.choice(("finalement non : {v} plutôt que {s}.", "changement de plan, on fait {v} (pas {s}).",
                             "I changed my mind — {v}, drop {s}.")).format(v=value, s=stale)
            item = _Item([self.user(text), self.say(f"OK, bascule faite : {value}. {stale} est abandonné.")])
            item.plants.append(_Plant("decision", value, 0, query, stale=stale, stale_item=s_item))
            return s_item, item
        found = self.try_unique(lambda: tpl.format(x=choice()))
        if found is None:
            return None
        value = found
        text = r.choice(("ok, on part là-dessus : {v}.", "let's go with {v}.", "vu les options, je prends : {v}.",
                         "décision : {v}, on ne revient pas dessus.")).format(v=value)
        item = _Item([self.user(_typo(r, f"{r.choice(('Bon.', 'Merci pour le comparatif.', ''))} ") + text),
                      self.say(f"Entendu : {value}. Je mets à jour la todo et le plan de charge.")])
        item.plants.append(_Plant("decision", value, 0, query))
        return None, item

    def error(self, resolved: bool) -> _Item:
        r = self.rng
        args: dict[str, Any]
        kind = r.randrange(5)
        if kind == 0:
            tool, args = "gradle", {"args": ":planning-core:compileKotlin"}
            line = self.unique(lambda: (
                f"e: file:///home/planif/mro-planning/planning-core/src/main/kotlin/fr/ocmro/planning/"
                f"{r.choice(FACT_SUBS)}/{r.choice(CLASSES)}.kt:{r.randint(20, 480)}:{r.randint(5, 60)} "
                f"Unresolved reference '{r.choice(('remaining', 'deferred', 'nightSlot', 'zoneLoad'))}{r.choice(('Fc', 'Fh', 'Min', 'Days'))}{_d(r, 2)}'."))
            bad = f"> Task :planning-core:processResources UP-TO-DATE\n{self.rows(self.p_log, self.size(12))}\n" \
                  f"> Task :planning-core:compileKotlin FAILED\n{line}\n\nFAILURE: Build failed with an exception.\n\n" \
                  f"* What went wrong:\nExecution failed for task ':planning-core:compileKotlin'.\n> Compilation error. " \
                  f"See log for more details\n\nBUILD FAILED in {r.randint(8, 60)}s"
            ask = "lance le build stp"
        elif kind == 1:
            tool, args = "gradle", {"args": ":planning-core:test"}
            line = self.unique(lambda: f"{r.choice(CLASSES)}Test > {r.choice(('keeps', 'splits', 'rejects', 'rounds'))}"
                                       f"{r.choice(('Night', 'Zone', 'Llp', 'Mel'))}{r.choice(('Cards', 'Load', 'Slots'))}"
                                       f"{_d(r, 3)}() FAILED")
            bad = (f"> Task :planning-core:test\n\n{self.rows(self.p_tests, 12)}\n{line}\n    "
                   f"org.opentest4j.AssertionFailedError: expected: <{r.randint(10, 90)}.5> but was: <{r.randint(10, 90)}.0>\n"
                   f"        at app//fr.ocmro.planning.scheduler.NightShiftPackerTest.kt:{r.randint(30, 300)}\n\n"
                   f"{r.randint(20, 60)} tests completed, 1 failed\n\nBUILD FAILED in {r.randint(20, 90)}s")
            ask = "run the tests"
        elif kind == 2:
            tool, args = "sql", {"db": "MRO_RECORDS", "query": "INSERT INTO dbo.TaskCards (...) SELECT ... FROM staging.AmosImport"}
            line = self.unique(lambda: (
                f"The INSERT statement conflicted with the FOREIGN KEY constraint \"FK_TaskCards_WorkPackage_{_d(r, 4)}\". "
                "The conflict occurred in database \"MRO_RECORDS\", table \"dbo.WorkOrders\", column 'WpId'."))
            bad = f"({r.randint(200, 900)} rows affected)\n{self.rows(self.p_sql, self.size(12))}\n" \
                  f"Msg 547, Level 16, State 0, Line {r.randint(1, 40)}\n{line}\nThe statement has been terminated.\n\n" \
                  f"Completion time: {_date(r)}T{_clock(r)}:12.{_d(r, 7)}+01:00"
            ask = "importe le staging dans dbo.TaskCards"
        elif kind == 3:
            tool, args = "shell", {"cmd": "python3 scripts/camo_duelist_check.py --fleet ATR --strict"}
            line = self.unique(lambda: f"ValueError: interval '{r.randint(100, 990)} FH / {r.randint(2, 48)} MO' cannot be "
                                       f"parsed for row {r.randint(100, 2400)} of the CAMO list")
            bad = (f"loaded CAMO due list rev {r.randint(10, 90)}\n{self.rows(self.p_due, self.size(20))}\nTraceback (most recent call last):\n"
                   f"  File \"scripts/camo_duelist_check.py\", line {r.randint(100, 300)}, in <module>\n    main()\n"
                   f"  File \"scripts/camo_duelist_check.py\", line {r.randint(40, 99)}, in parse_interval\n"
                   f"    raise ValueError(msg)\n{line}")
            ask = "relance le check CAMO en strict"
        else:
            tool, args = "stock", {"pn": r.choice(PN_POOL), "reserve": 1}
            line = self.unique(lambda: f"REJECTED reservation: SN{_d(r, 7)} shelf life expired on {_date(r)} "
                                       f"(batch B{_d(r, 5)})")
            bad = f"reserve request at {_clock(r)}\n{self.rows(self.p_stock, 6)}\n{line}\n0 reserved"
            ask = "réserve la pièce pour la nuit"
        args_out, good, gist = self.output(tool)
        msgs = [self.user(_typo(r, ask))] + self.step(r.choice(self.NOTES), [(tool, args, bad)])
        item = _Item(msgs, anchor=2)
        plant = _Plant("error", line, 2, {
            "gradle": "what the build or the test run failed with", "sql": "why the insert into the records database failed",
            "shell": "what the CAMO due-list check crashed on", "stock": "why the part reservation was rejected"}[tool])
        if resolved:
            self.focus["path"] = {"gradle": PATHS[0], "sql": "sql/views/v_open_defects.sql",
                                  "shell": "scripts/camo_duelist_check.py", "stock": PATHS[4]}[tool]
            fix_args, fix_out, _ = self.output("edit_file")
            msgs += self.step("Le problème est identifié, je corrige et je relance.", [("edit_file", fix_args, fix_out)])
            msgs += self.step("Relance.", [(tool, {**args, "rerun": True}, good)])
            plant.resolved_offset = len(msgs) - 1
            msgs.append(self.say(f"C'est reparti : {gist}. L'erreur `{line[:40]}…` a disparu."))
        else:
            msgs.append(self.say(f"Échec :\n\n    {line}\n\nJe ne corrige pas tout de suite ; on en reparle avec "
                                 f"{r.choice(PEOPLE)} ? Sinon, deux pistes : revoir le mapping ou demander une nouvelle export."))
        item.plants.append(plant)
        return item

    def file(self) -> _Item:
        r = self.rng
        kind = r.randrange(3)
        if kind == 0:
            path = self.unique(lambda: f"planning-core/src/main/kotlin/fr/ocmro/planning/{r.choice(FACT_SUBS)}/"
                                       f"{r.choice(FACT_CLASS_A)}{r.choice(FACT_CLASS_B)}.kt")
            body = "package fr.ocmro.planning\n\nclass " + path.rsplit("/", 1)[-1][:-3] + " {\n" + \
                self.rows(self.p_code, self.size(30)) + "\n}\n"
            ask = "écris la classe dont on a parlé, dans le module planning-core"
        elif kind == 1:
            path = self.unique(lambda: f"scripts/{r.choice(('camo', 'mel', 'llp', 'wp', 'acars'))}_"
                                       f"{r.choice(('diff', 'sync', 'report', 'purge', 'audit'))}_{_d(r, 2)}.py")
            body = "#!/usr/bin/env python3\n\"\"\"Compare our due list with the CAMO's.\"\"\"\nimport csv\nimport sys\n\n" + \
                "def main() -> int:\n    rows = list(csv.DictReader(open(sys.argv[1], encoding='utf-8'), delimiter=';'))\n" + \
                "    print(len(rows))\n    return 0\n"
            ask = "fais moi un petit script python pour ça"
        else:
            path = self.unique(lambda: f"sql/migrations/V{r.randint(100, 999)}__{r.choice(('add', 'drop', 'widen'))}_"
                                       f"{r.choice(('deferral', 'llp', 'torque', 'shift'))}_{r.choice(('index', 'column', 'view'))}.sql")
            body = f"ALTER TABLE dbo.TaskCards ADD RoundedMh DECIMAL(6,2) NULL;\nGO\nCREATE INDEX IX_TaskCards_Tail_{_d(r, 3)} " \
                   "ON dbo.TaskCards (Tail, DueDate) INCLUDE (Status);\nGO\n"
            ask = "prépare la migration SQL"
        msgs = [self.user(_typo(r, ask))]
        msgs += self.step(f"Je crée `{path}`.", [("edit_file", {"path": path, "content": body, "create": True},
                                                  f"Created {path} ({body.count(chr(10))} lines)")])
        msgs.append(self.say(f"Fichier créé : {path}. Il reste à l'appeler depuis le reste du code ; je l'ajoute à la todo."))
        item = _Item(msgs, anchor=1)
        item.plants.append(_Plant("file", path, 1, "which file the agent created for this task"))
        return item

    def identifier(self, said: bool) -> _Item:
        r = self.rng
        args: dict[str, Any]
        if said:
            kind = r.randrange(3)
            if kind == 0:
                v = self.unique(lambda: f"F-H{r.choice(('BX', 'ZU'))}{r.choice('KMPRTWY')}")
                text = "on reçoit un avion d'un autre opérateur la semaine pro pour une visite, immat {v}. Tu peux préparer le dossier ?"
                q = "registration of the visiting aircraft"
            elif kind == 1:
                v = self.unique(lambda: f"DD-{r.randint(24, 25)}-{_d(r, 4)}")
                text = "le report différé dont parle la CAMO c'est le {v}, garde le en tête pour la nuit"
                q = "the deferred defect number the CAMO talks about"
            else:
                v = self.unique(lambda: f"PO {r.randint(4500000000, 4599999999)}")
                text = "commande passée chez le fournisseur, {v}, livraison annoncée jeudi"
                q = "the purchase order number for the part"
            tool = r.choice(("amos_query", "stock", "sql"))
            args, out, gist = self.output(tool)
            msgs = [self.user(_typo(r, text).format(v=v))] + self.step(f"Je note {v} et je vérifie.", [(tool, args, out)])
            msgs.append(self.say(f"{v} noté. {gist} ; je le relie au dossier."))
            item = _Item(msgs, anchor=0)
            item.plants.append(_Plant("identifier", v, 0, q))
            return item
        kind = r.randrange(3)
        if kind == 0:
            v = self.unique(lambda: f"WP-{r.randint(24, 25)}-{_d(r, 4)}")
            tool, args = "amos_query", {"action": "create_package", "tail": r.choice(FLEET), "cards": r.randint(5, 40)}
            out = f"{self.rows(self.p_tc, self.size(10))}\npackage created\nid: {v}\nstatus: PLANNED\ncards: {args['cards']}\nslot: {_date(r)} {_clock(r)}Z"
            q, ask = "the id of the work package the system created", "crée le package pour la nuit"
        elif kind == 1:
            v = self.unique(lambda: f"RSV-{_d(r, 6)}")
            tool, args = "stock", {"pn": r.choice(PN_POOL), "reserve": 1, "for": r.choice(FLEET)}
            out = f"{self.rows(self.p_stock, self.size(10))}\nreservation ok\nreservation: {v}\nstore: {r.choice(STORES)}\npick-up before {_clock(r)}"
            q, ask = "the stock reservation number", "réserve la pièce"
        else:
            v = self.unique(lambda: f"MSG-{r.choice('ABCDEF')}{_d(r, 7)}")
            tool, args = "acars", {"tail": r.choice(FLEET), "send": "uplink", "text": "PLS CONFIRM OIL QTY ENG 2"}
            out = f"uplink queued\nmessage id: {v}\nack expected within 10 min\nrouting: SITA"
            q, ask = "the id of the ACARS uplink message sent", "envoie un message ACARS à l'équipage pour l'huile"
        msgs = [self.user(_typo(r, ask))] + self.step(r.choice(self.NOTES), [(tool, args, out)])
        msgs.append(self.say(f"OK, référence {v}. Je la mets dans la todo."))
        item = _Item(msgs, anchor=2)
        item.plants.append(_Plant("identifier", v, 2, q))
        return item

    def finding(self) -> _Item:
        r = self.rng
        args: dict[str, Any]
        kind = r.randrange(5)
        if kind == 0:
            v = self.unique(lambda: f"chafed harness {r.choice(HARNESS)}-{_d(r, 3)} at FR{r.randint(10, 40)}")
            tool, args = "amos_query", {"query": "techlog_history", "ata": "21-51", "format": "text"}
            body = self.rows(self.p_defect, 8)
            out = f"{body}\nshop finding 2024: root cause {v}, repaired per SRM\n{self.rows(self.p_defect, 5)}"
            q, meaning = "the root cause of the repeated pack fault", "c'est la cause racine des PACK FAULT récurrents"
        elif kind == 1:
            v = self.unique(lambda: f"MTBUR {r.randint(900, 9000)} FH")
            tool, args = "sql", {"db": "MRO_RECORDS", "query": "SELECT ... removals ... GROUP BY Pn"}
            out = (f"-- removals since {_date(r)}\n{self.rows(self.p_sql, self.size(16))}\n\nPn              Removals  FlightHours  Mtbur\n"
                   f"{'-' * 50}\n{r.choice(COMPONENTS)}: {v} over {r.randint(5, 30)} removals\n\n(1 row affected)")
            q, meaning = "the measured reliability of the component", "c'est bien en dessous de ce que promet le constructeur"
        elif kind == 2:
            v = self.unique(lambda: f"{r.choice(CONFIG_KEYS)}: {r.randint(30, 900)}")
            tool, args = "read_file", {"path": "planning-core/src/main/resources/application.yml"}
            out = (f"# application.yml (profile hangar)\nplanning:\n  timezone: UTC\n  amos:\n    url: https://amos.ocmro.local:8443/api\n  scheduler:\n    {v}\n"
                   f"    zones: [{', '.join(ZONES[:4])}]\nspring:\n  datasource:\n    url: jdbc:sqlserver://records:1433;databaseName=MRO_RECORDS\n")
            q, meaning = "the configured planning parameter that explains the behaviour", "c'est cette valeur qui limite le packer"
        elif kind == 3:
            v = self.unique(lambda: f"{r.choice(COMPONENTS).upper()} x{r.randint(4, 12)} since {_date(r)} {_clock(r)}Z")
            tool, args = "acars", {"tail": r.choice(FLEET), "since_hours": 72, "group": True}
            out = f"grouped faults\n{self.rows(self.p_acars, 10)}\ntop recurring: {v}\n"
            q, meaning = "which fault recurs most in the ACARS feed", "ça justifie une entrée tech log et un dépannage"
        else:
            v = self.unique(lambda: f"wear pin {r.randint(1, 9)}.{r.randint(1, 9)} mm remaining")
            tool, args = "shell", {"cmd": "python3 scripts/export_wp.py --brake-wear --tail " + r.choice(FLEET)}
            out = f"brake wear report\n{self.rows(self.p_due, 6)}\nLH outbd: {v}\n"
            q, meaning = "how much brake wear remains", "le remplacement doit être planifié avant la limite"
        msgs = [self.user(_typo(r, r.choice(("tu peux creuser ?", "dig into it pls", "regarde d'où ça vient",
                                             "on a des chiffres ?"))))]
        msgs += self.step(r.choice(self.NOTES), [(tool, args, out)])
        msgs.append(self.say(f"Trouvé : {v}. Concrètement, {meaning}. Je propose de l'intégrer au planning."))
        item = _Item(msgs, anchor=2)
        item.plants.append(_Plant("finding", v, 2, q))
        return item

    def plan(self) -> _Item:
        r = self.rng
        options = [
            (lambda: f"re-import the {r.randint(2, 9)} night exports first",
             "Plan for the week: {v}, then recompute the load per shift, then we show it to {p} on Friday.",
             "what comes first in the week's plan"),
            (lambda: f"on bascule les {r.randint(3, 15)} cartes zone {r.choice(ZONES)} sur le week-end",
             "Voilà ce que je propose. D'abord {v}. Ensuite on libère le hangar 2 mardi, et enfin {p} valide.",
             "what the plan moves to the weekend"),
            (lambda: f"dry-run du packer sur {r.randint(2, 26)} semaines d'historique",
             "Plan :\n1. {v}\n2. comparer avec ce que l'équipe a vraiment fait\n3. si l'écart < 10 %, on passe en prod",
             "the first step of the packer rollout"),
            (lambda: f"freeze the due-list script at tag v{r.randint(1, 3)}.{r.randint(0, 9)}.{r.randint(0, 9)}",
             "Here's how I'd like to do it: {v}, then migrate the CAMO parser, and only after that touch the SQL views.",
             "what happens to the due-list script first"),
            (lambda: f"binôme {r.choice(('B1', 'B2'))} sur les {r.randint(2, 15)} premières nuits",
             "Pour la montée en charge A220 : {v}, puis autonomie progressive, et revue avec {p} fin du mois.",
             "how the A220 ramp-up starts"),
        ]
        r.shuffle(options)
        for option in options:
            got = self.try_unique(option[0])
            if got is not None:
                v, (_, tpl, q) = got, option
                break
        else:
            raise RuntimeError("no plan left to draw")
        text = tpl.replace("{v}", v).replace("{p}", r.choice(PEOPLE))
        todo = f"Compris. Je mets ça en todo :\n- [ ] {v}\n- [ ] étape 2\n- [ ] étape 3\nJe commence par la première."
        item = _Item([self.user(text), self.say(todo)])
        item.plants.append(_Plant("plan", v, 0, q))
        return item

    # --- assembly -------------------------------------------------------------------------------------------------
    def build(self) -> Session:
        r, n = self.rng, self.n
        k = per_kind(n)
        items: list[_Item] = []
        facts_items: list[_Item] = []
        # the first two rules, early
        styles = ["plain", "second", "casual", "conditional", "adopted", "plain", "second", "casual"]
        first_fr = r.random() < 0.5
        first = self.instruction(r.choice(("plain", "casual")), french=first_fr)
        first.want, first.limit = 0.045, n / 10
        items.append(first)
        if k > 1:
            second = self.instruction(r.choice(("second", "conditional")), french=not first_fr)
            second.want, second.limit = 0.085, n / 7
            items.append(second)
        for j in range(k - 2):
            facts_items.append(self.instruction(styles[(j + 3) % len(styles)] if j else "adopted", french=j % 2 == 0))
        stale_links: list[tuple[_Item, _Item, bool]] = []
        near = max((k + 1) // 2, round(k * 0.66))
        for j in range(k):
            s, c = self.correction(near=j < near)
            stale_links.append((s, c, j % 2 == 0))
            facts_items.append(c)
        revised = max(1, k // 3)
        for j in range(k):
            s2, d = self.decision(revised=j < revised)
            if s2 is not None:
                stale_links.append((s2, d, j % 2 == 1))
            facts_items.append(d)
        n_resolved = max(1, k // 2) if k > 1 else 1
        for j in range(k):
            facts_items.append(self.error(resolved=j < n_resolved))
        for _ in range(k):
            facts_items.append(self.file())
        for j in range(k):
            facts_items.append(self.identifier(said=j % 2 == 0))
        for _ in range(k):
            facts_items.append(self.finding())
        for _ in range(k):
            facts_items.append(self.plan())
        r.shuffle(facts_items)
        lo_w, hi_w = 0.12, 0.855
        step = (hi_w - lo_w) / max(1, len(facts_items) - 1)
        for j, it in enumerate(facts_items):
            it.want = lo_w + j * step + (r.random() - 0.5) * step * 0.4
        items += facts_items
        for s, c, far in stale_links:
            dist = (r.randint(110, 260) if n < 1500 else r.randint(140, 520)) if far else r.randint(12, 60)
            s.want = max(0.1, c.want - dist / n)
            if s.want >= c.want:
                s.want = c.want - 0.001
            items.append(s)
        for _ in range(max(2, n // 90)):
            p = self.paste_item()
            p.want = 0.1 + r.random() * 0.83
            items.append(p)
        return self.assemble(items)

    def layout(self, items: list[_Item]) -> tuple[list[int], int]:
        """Filler before each item and after the last: the filler before an item is its wanted share of all the
        filler, so that anchors land near their wanted places whatever the items weigh."""
        n = self.n
        lo, hi = ceil(0.03 * n), floor(0.88 * n)
        free = n - 2 - sum(len(it.msgs) for it in items)
        if free < 0:
            raise ValueError(f"cannot lay {len(items)} episodes into {n} messages")
        for attempt in range(60):
            squeeze = 0.97 ** attempt
            gaps: list[int] = []
            done = 0
            carry = 0
            for j, it in enumerate(items):
                g = max(0, round(free * it.want * squeeze) - done) + carry
                carry = 0
                if j == 0:
                    g = max(g, lo - it.anchor - 1)
                    while g in (1, 3):
                        g += 1
                elif g == 1:
                    g, carry = 0, 1
                g = min(g, free - done)
                gaps.append(g)
                done += g
            tail = free - done
            if tail == 1:
                for j in range(len(gaps) - 1, 0, -1):
                    if gaps[j] >= 4 or gaps[j] == 2:
                        cut = 1 if gaps[j] >= 4 else 2
                        gaps[j] -= cut
                        tail += cut
                        break
            if tail == 1 or any(g == 1 for g in gaps) or gaps[0] == 3:
                continue
            cursor, ok = 1, True
            for it, g in zip(items, gaps):
                start = cursor + g
                ok = ok and all(lo <= start + p.offset <= hi for p in it.plants)
                ok = ok and start + it.anchor >= lo and (it.limit is None or start + it.anchor <= it.limit)
                cursor = start + len(it.msgs)
            if ok:
                return gaps, tail
        raise ValueError(f"cannot lay {len(items)} episodes into {n} messages")

    def assemble(self, items: list[_Item]) -> Session:
        items.sort(key=lambda it: it.want)
        gaps, tail = self.layout(items)
        # the filler is drawn again, at a corrected number of rows, until the session weighs what its size asks
        item_chars = sum(len(text_of(m)) for it in items for m in it.msgs)
        target = CHARS_PER_MESSAGE * self.n
        used = {c["function"]["name"] for it in items for m in it.msgs for c in m.get("tool_calls") or []}
        missing = [t for t in TOOLS if t not in used]  # the filler calls first what no episode calls
        msgs: list[Message] = []
        best: tuple[float, list[Message], list[int]] | None = None
        for _ in range(6):
            self.row_chars = 0
            self.tool_cycle = list(missing)
            self.rng.shuffle(self.tool_cycle)
            msgs = [{"role": "system", "content": SYSTEM}]
            for j, (it, g) in enumerate(zip(items, gaps)):
                msgs += self.fill(g, first=j == 0)
                it.start = len(msgs)
                msgs += it.msgs
            msgs += self.fill(tail, first=False)
            msgs.append(self.user(self.rng.choice(CLOSERS)))
            total = sum(len(text_of(m)) for m in msgs)
            if best is None or abs(total - target) < best[0]:
                best = (abs(total - target), msgs, [it.start for it in items])
            if abs(total - target) < 0.03 * target or self.row_chars == 0:
                break
            fixed = total - item_chars - self.row_chars
            self.scale = min(6.0, max(0.2, self.scale * (target - item_chars - fixed) / self.row_chars))
        assert best is not None
        _, msgs, starts = best
        for it, start in zip(items, starts):
            it.start = start
        self.complete = self.tools_used(msgs) == set(TOOLS)
        facts: list[Fact] = []
        pasted: list[tuple[int, str]] = []
        for it in items:
            pasted += [(it.start + o, t) for o, t in it.pasted]
            for p in it.plants:
                facts.append(Fact(p.kind, p.value, it.start + p.offset, p.query, stale=p.stale,
                                  stale_index=None if p.stale_item is None else p.stale_item.start + p.stale_offset,
                                  resolved=None if p.resolved_offset is None else it.start + p.resolved_offset))
        facts.sort(key=lambda f: f.index)
        return Session(messages=msgs, facts=facts, pasted=sorted(pasted))

    def tools_used(self, msgs: list[Message]) -> set[str]:
        return {c["function"]["name"] for m in msgs for c in m.get("tool_calls") or []}


SYSTEM = ("You are the planning assistant of the line and base maintenance shop of a French regional airline in "
          "Toulouse (ATR 72-600 and A220-300 fleet). You work on the shop's planning and records software: the "
          "maintenance information system (AMOS exports), the records database (SQL Server, MRO_RECORDS), the Kotlin "
          "planning service (planning-core, Gradle), the CAMO due-list check script, stock and tooling, the flight "
          "schedule and the ACARS feed. Tools: amos_query, sql, read_file, edit_file, gradle, shell, stock, schedule, "
          "acars. Never sign or release anything yourself; say what you changed and what you found. The planner may "
          "write in French or English.")
CLOSERS = ("ok, on fait le point demain matin", "merci, à demain", "ok go pour la suite", "nickel. next ?",
           "bon, on reprend après la réunion de 14:00", "ok, summarize where we are")


def make_session(seed: int = 1, messages: int = 400) -> Session:
    """A planner's session of exactly ``messages`` messages (at least :data:`MIN_MESSAGES`), the same for a seed."""
    if messages < MIN_MESSAGES:
        raise ValueError(f"an MRO session needs at least {MIN_MESSAGES} messages, not {messages}")
    # a very short session whose few calls miss one of the tools is drawn again from a derived seed
    for attempt in range(50):
        gen = _Gen(seed if attempt == 0 else seed * 7919 + attempt, messages)
        session = gen.build()
        if gen.complete:
            break
    session.seed = seed
    return session
