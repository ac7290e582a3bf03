"""Lab-automation sessions in Seoul: a scientist and a protocol-writing agent, with planted facts.

The user runs the lab-automation group of a biotech in Seoul and writes Korean mixed with English ("아 잠깐",
"ㅇㅋ", "절대 ... 하지 마", "simulate 다시 돌려봐"), sometimes plain English, sometimes one word. The agent writes and
debugs Opentrons-style liquid-handler protocols, reads plate-reader CSV exports and qPCR Cq tables, queries a LIMS
(REST JSON, sample and plate barcodes), fixes a FastAPI scheduling service (pytest runs, tracebacks), a small Go
uploader (``go test``), Docker builds, and reads Hamilton/Tecan-style instrument traces. The user pastes what other
people wrote: the QA team's SOP excerpt, a deviation report, the vendor's support reply, the biosafety committee's
notice, a #lab-ops Slack thread, a CRO's e-mail with its sample manifest, a method transfer document. Their
imperatives are not the user's; ``session.pasted`` lists them.

    import sys; sys.path.insert(0, "bench")
    from gen_labauto import make_session, per_kind

    session = make_session(seed=1, messages=400)     # about 600k characters, 6 facts of each kind
    session = make_session(seed=1, messages=3000)    # about 4.8M characters, 12 of each kind
    for fact in session.facts:
        print(fact.kind, fact.index, fact.value, "-", fact.query)

``session.facts`` holds ``per_kind(messages)`` facts of each of :data:`KINDS`, between 3% and 88% of the session:
standing rules in both languages (some conditional, some in a second paragraph, some adopted from a pasted SOP in
the user's own words), corrections that replace what the user said earlier (often a near miss of it: ``ot2-magok-07``
-> ``ot2-magok-01``, far from it or close), decisions (a third revise the user's own earlier choice), whole error
lines of a tool's output (some resolved by a later passing run of the same tool), files the agent writes, ids said
by the user or printed by a tool, findings (a measured number, a config value, a root cause) and plans in prose.
A value first occurs in its own message and afterwards only in the eight after it; filler never says it.

Everything comes from ``random.Random(seed)``: the same seed and size give the same bytes.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sessiongen import Fact, Message, Session, text_of

__all__ = ["KINDS", "MIN_MESSAGES", "TOOLS", "make_session", "per_kind", "text_of"]

KINDS = ("instruction", "correction", "decision", "error", "file", "identifier", "finding", "plan")
TOOLS = ("simulate", "lims", "read_file", "write_file", "edit_file", "shell", "plate_reader", "pytest", "go", "docker")
MIN_MESSAGES = 60
CHARS_PER_MESSAGE = 1500  # the bench's 400-message session is about 600k characters
AFTER = 8  # messages after a fact's own that may still say its value

SYSTEM = (
    "You are LabBot, the coding agent of the lab-automation group at Hanbit Bio (Seoul, Magok R&D center).\n"
    "You write and debug Opentrons OT-2 protocols (Python API 2.15), read plate-reader and qPCR exports, query the "
    "LIMS (https://lims.hanbit.internal/api/v2), maintain the run scheduling service (FastAPI, Postgres, pytest), "
    "the Go uploader that ships instrument exports to the data lake, and their Docker images.\n"
    "Tools: simulate(protocol), lims(method, path, body?), read_file(path), write_file(path, content), "
    "edit_file(path, old, new), shell(cmd), plate_reader(action, plate, read?), pytest(args), go(cmd), docker(cmd).\n"
    "Never start a physical run yourself; the operator presses play. Keep answers short unless asked. The user "
    "writes Korean and English; answer in the language of the question. Times are KST."
)


def per_kind(messages: int) -> int:
    """Facts of each kind: 1 at 60 messages, 6 at 400, 12 at 3000, linear in between (and on past 3000)."""
    if messages <= 400:
        return max(1, round(1 + 5 * (messages - 60) / 340))
    return max(6, round(6 + 6 * (messages - 400) / 2600))


# --- small helpers ------------------------------------------------------------------------------------------------

HEX = "0123456789abcdef"
ROWS = "ABCDEFGH"
FILLER_PEOPLE = ("박서연", "이도윤", "정하은", "최민준", "강유진", "송지우",
                 "Dr. Choi", "Min-jun", "Sarah Lim", "Kenji")
LABWARE = ("corning_96_wellplate_360ul_flat", "opentrons_96_tiprack_300ul", "opentrons_96_tiprack_20ul",
           "nest_12_reservoir_15ml", "biorad_96_wellplate_200ul_pcr", "opentrons_24_tuberack_nest_1.5ml_snapcap",
           "nest_96_wellplate_2ml_deep", "opentrons_96_aluminumblock_generic_pcr_strip_200ul")
ASSAYS = ("elisa", "qpcr_setup", "normalization", "serial_dilution", "bca", "cell_seeding", "magbead_cleanup")
FILLER_PATHS = ("protocols/elisa/coat_plate.py", "protocols/qpcr_setup/mastermix.py", "protocols/bca/standards.py",
                "protocols/normalization/normalize.py", "scheduler/app/main.py", "scheduler/app/routers/runs.py",
                "scheduler/app/models.py", "scheduler/tests/test_runs.py", "uploader/cmd/uploader/main.go",
                "uploader/internal/ship/ship.go", "deck/elisa_layout.json", "docker/scheduler.Dockerfile",
                "scheduler/app/lims_client.py", "protocols/serial_dilution/dilute.py", "docker-compose.yml",
                "scheduler/app/config.py", "uploader/internal/ship/ship_test.go", "protocols/common/tips.py")


def _hex(rng: random.Random, n: int) -> str:
    return "".join(rng.choice(HEX) for _ in range(n))


def _fnum(rng: random.Random, digits: int) -> str:
    """A filler number: leading digit 1-6 (fact ids lead with 7-9), fixed width."""
    return str(rng.randint(1, 6)) + "".join(rng.choice("0123456789") for _ in range(digits - 1))


def _pnum(rng: random.Random, digits: int) -> str:
    """A planted number: leading digit 7-9, fixed width."""
    return str(rng.randint(7, 9)) + "".join(rng.choice("0123456789") for _ in range(digits - 1))


def _well(rng: random.Random) -> str:
    return f"{rng.choice(ROWS)}{rng.randint(1, 12)}"


def _clock(rng: random.Random) -> str:
    return f"{rng.randint(8, 21):02d}:{rng.randint(0, 59):02d}"


def _sample(rng: random.Random) -> str:
    return f"SB25-{_fnum(rng, 5)}"


def _plate(rng: random.Random) -> str:
    return f"PLT-{_fnum(rng, 6)}"


def _run(rng: random.Random) -> str:
    return f"RUN-{_fnum(rng, 5)}"


def _pick(rng: random.Random, options: tuple[str, ...] | list[str]) -> str:
    return options[int(rng.random() * len(options))]


# --- filler tool outputs --------------------------------------------------------------------------------------------

PROTOCOL_SRC = '''from opentrons import protocol_api

metadata = {
    "protocolName": "@TITLE@",
    "author": "lab-automation <la@hanbit.bio>",
    "description": "@ASSAY@ on OT-2, @COUNT@ samples, generated from the LIMS worklist",
    "apiLevel": "2.15",
}

SAMPLE_COUNT = @COUNT@
TRANSFER_UL = @VOL@
MIX_REPS = @MIX@


def _columns(count: int) -> int:
    return (count + 7) // 8


def run(ctx: protocol_api.ProtocolContext) -> None:
    tips300 = [ctx.load_labware("opentrons_96_tiprack_300ul", slot) for slot in ("1", "4")]
    tips20 = [ctx.load_labware("opentrons_96_tiprack_20ul", "7")]
    reservoir = ctx.load_labware("nest_12_reservoir_15ml", "2")
    source = ctx.load_labware("@LW@", "3")
    dest = ctx.load_labware("corning_96_wellplate_360ul_flat", "5")
    p300 = ctx.load_instrument("p300_multi_gen2", "left", tip_racks=tips300)
    p20 = ctx.load_instrument("p20_single_gen2", "right", tip_racks=tips20)
    p300.flow_rate.aspirate = @RATE@
    p300.flow_rate.dispense = @RATE2@

    buffer = reservoir.wells_by_name()["A1"]
    for col in range(_columns(SAMPLE_COUNT)):
        p300.pick_up_tip()
        p300.aspirate(TRANSFER_UL, buffer)
        p300.dispense(TRANSFER_UL, dest.columns()[col][0])
        p300.mix(MIX_REPS, TRANSFER_UL * 0.6, dest.columns()[col][0])
        p300.blow_out(dest.columns()[col][0].top(-2))
        p300.drop_tip()

    for i, well in enumerate(source.wells()[:SAMPLE_COUNT]):
        p20.transfer(@SMALL@, well, dest.wells()[i], new_tip="always", mix_after=(3, 10))
        if i and i % 24 == 0:
            ctx.comment(f"{i} of {SAMPLE_COUNT} samples moved")

    ctx.comment("done: seal the plate and move it to the reader")
'''

ROUTER_SRC = '''from __future__ import annotations

from datetime import datetime, timedelta

from fastapi import APIRouter, Depends, HTTPException
from sqlalchemy.orm import Session

from ..db import get_db
from ..lims_client import LimsClient, get_lims
from ..models import Run, RunStatus
from ..schemas import RunCreate, RunOut

router = APIRouter(prefix="/runs", tags=["runs"])
SLOT_MINUTES = @SLOT@


@router.post("", response_model=RunOut, status_code=201)
def create_run(body: RunCreate, db: Session = Depends(get_db), lims: LimsClient = Depends(get_lims)) -> Run:
    plate = lims.plate(body.plate_barcode)
    if plate is None:
        raise HTTPException(404, f"plate {body.plate_barcode} not in LIMS")
    if plate["status"] not in ("received", "prepared"):
        raise HTTPException(409, f"plate {body.plate_barcode} is {plate['status']}")
    start = body.start or datetime.now().replace(second=0, microsecond=0)
    clash = (
        db.query(Run)
        .filter(Run.robot == body.robot, Run.status != RunStatus.cancelled)
        .filter(Run.start < start + timedelta(minutes=SLOT_MINUTES), Run.end > start)
        .first()
    )
    if clash:
        raise HTTPException(409, f"{body.robot} busy until {clash.end:%H:%M}")
    run = Run(robot=body.robot, plate=body.plate_barcode, protocol=body.protocol, start=start,
              end=start + timedelta(minutes=body.minutes or SLOT_MINUTES), status=RunStatus.queued)
    db.add(run)
    db.commit()
    db.refresh(run)
    return run


@router.get("/{run_id}", response_model=RunOut)
def get_run(run_id: int, db: Session = Depends(get_db)) -> Run:
    run = db.get(Run, run_id)
    if run is None:
        raise HTTPException(404, "no such run")
    return run


@router.post("/{run_id}/cancel", response_model=RunOut)
def cancel_run(run_id: int, db: Session = Depends(get_db)) -> Run:
    run = db.get(Run, run_id)
    if run is None:
        raise HTTPException(404, "no such run")
    if run.status == RunStatus.running:
        raise HTTPException(409, "cannot cancel a running run; stop it on the robot")
    run.status = RunStatus.cancelled
    db.commit()
    return run
'''

GO_SRC = '''package ship

import (
\t"context"
\t"crypto/sha256"
\t"encoding/hex"
\t"fmt"
\t"io"
\t"net/http"
\t"os"
\t"time"
)

// ChunkSize is how much of an export goes in one PUT.
const ChunkSize = @CHUNK@ << 20

type Shipper struct {
\tClient  *http.Client
\tBaseURL string
\tToken   string
\tRetries int
}

// Ship uploads one instrument export and returns its sha256.
func (s *Shipper) Ship(ctx context.Context, path string) (string, error) {
\tf, err := os.Open(path)
\tif err != nil {
\t\treturn "", fmt.Errorf("open %s: %w", path, err)
\t}
\tdefer f.Close()
\th := sha256.New()
\tbuf := make([]byte, ChunkSize)
\tfor part := 0; ; part++ {
\t\tn, err := io.ReadFull(f, buf)
\t\tif n > 0 {
\t\t\th.Write(buf[:n])
\t\t\tif err := s.put(ctx, path, part, buf[:n]); err != nil {
\t\t\t\treturn "", err
\t\t\t}
\t\t}
\t\tif err == io.EOF || err == io.ErrUnexpectedEOF {
\t\t\tbreak
\t\t}
\t\tif err != nil {
\t\t\treturn "", err
\t\t}
\t}
\treturn hex.EncodeToString(h.Sum(nil)), nil
}

func (s *Shipper) put(ctx context.Context, path string, part int, data []byte) error {
\tdelay := 500 * time.Millisecond
\tfor attempt := 0; attempt <= s.Retries; attempt++ {
\t\treq, _ := http.NewRequestWithContext(ctx, http.MethodPut, fmt.Sprintf("%s/parts/%d", s.BaseURL, part), nil)
\t\treq.Header.Set("Authorization", "Bearer "+s.Token)
\t\tresp, err := s.Client.Do(req)
\t\tif err == nil && resp.StatusCode < 300 {
\t\t\treturn nil
\t\t}
\t\ttime.Sleep(delay)
\t\tdelay *= 2
\t}
\treturn fmt.Errorf("part %d of %s: giving up after %d attempts", part, path, s.Retries+1)
}
'''

COMPOSE_SRC = '''services:
  scheduler:
    build: {context: ., dockerfile: docker/scheduler.Dockerfile}
    image: registry.hanbit.internal/labauto/scheduler:@TAG@
    ports: ["8000:8000"]
    environment:
      DATABASE_URL: postgresql+psycopg://sched:sched@db:5432/sched
      LIMS_URL: https://lims.hanbit.internal/api/v2
      LOG_LEVEL: info
    depends_on: [db]
  db:
    image: postgres:16
    ports: ["5432:5432"]
    volumes: ["pgdata:/var/lib/postgresql/data"]
  uploader:
    build: {context: ./uploader}
    environment:
      WATCH_DIR: /exports
      LAKE_URL: http://minio.hanbit.internal:9000
    volumes: ["/mnt/instrument-exports:/exports:ro"]
  grafana:
    image: grafana/grafana:10.4.2
    ports: ["3000:3000"]
volumes:
  pgdata: {}
'''

DECK_SRC = '''{
  "robot": "ot2-bay@BAY@",
  "layout": "@ASSAY@",
  "slots": {
    "1": "opentrons_96_tiprack_300ul",
    "2": "nest_12_reservoir_15ml",
    "3": "@LW@",
    "4": "opentrons_96_tiprack_300ul",
    "5": "corning_96_wellplate_360ul_flat",
    "6": null,
    "7": "opentrons_96_tiprack_20ul",
    "8": "opentrons_24_tuberack_nest_1.5ml_snapcap",
    "9": null,
    "10": "temperature_module_gen2",
    "11": null,
    "12": "opentrons_1_trash_1100ml_fixed"
  },
  "modules": {"10": {"type": "temperatureModuleV2", "target": @TEMP@}},
  "notes": "checked by @WHO@ on 2025-0@M@-1@D@ @CLOCK@"
}
'''


def _numbered(text: str, start: int = 1) -> str:
    return "\n".join(f"{i:4d}  {line}" for i, line in enumerate(text.split("\n"), start))


def _src(rng: random.Random, path: str) -> str:
    if path.endswith(".go"):
        return GO_SRC.replace("@CHUNK@", str(rng.choice((4, 8, 16))))
    if path.endswith(".json"):
        return (DECK_SRC.replace("@BAY@", str(rng.randint(1, 4))).replace("@ASSAY@", _pick(rng, ASSAYS))
                .replace("@LW@", _pick(rng, LABWARE)).replace("@TEMP@", str(rng.choice((4, 20, 37))))
                .replace("@WHO@", _pick(rng, FILLER_PEOPLE)).replace("@M@", str(rng.randint(1, 9)))
                .replace("@D@", str(rng.randint(0, 9))).replace("@CLOCK@", _clock(rng)))
    if path.endswith((".yml", ".Dockerfile")):
        return COMPOSE_SRC.replace("@TAG@", f"0.{rng.randint(1, 30)}.{rng.randint(0, 9)}")
    if "scheduler" in path:
        return ROUTER_SRC.replace("@SLOT@", str(rng.choice((30, 45, 60, 90))))
    assay = _pick(rng, ASSAYS)
    return (PROTOCOL_SRC.replace("@TITLE@", f"{assay.replace('_', ' ').title()} v{rng.randint(1, 6)}")
            .replace("@ASSAY@", assay).replace("@COUNT@", str(rng.choice((24, 48, 72, 94, 96))))
            .replace("@VOL@", str(rng.choice((50, 100, 150, 200)))).replace("@MIX@", str(rng.randint(2, 6)))
            .replace("@LW@", _pick(rng, LABWARE)).replace("@RATE@", str(rng.choice((46, 92, 150))))
            .replace("@RATE2@", str(rng.choice((92, 150, 300)))).replace("@SMALL@", str(rng.choice((5, 10, 15)))))


def _out_simulate(rng: random.Random, protocol: str, mul: float = 1.0) -> str:
    lines = [f"$ opentrons_simulate {protocol}", "/usr/lib/python3.10/site-packages/opentrons/config: using robot "
             "settings from /data/robot_settings.json", f"Loaded {protocol} (apiLevel 2.15)"]
    slot_src, slot_dst = rng.choice(("3", "8")), "5"
    vol = rng.choice((50, 100, 150, 200))
    rate = rng.choice((46.43, 92.86, 150.0))
    for k in range(int(rng.randint(22, 40) * mul)):
        w = f"{ROWS[k % 8]}{k // 8 + 1}"
        lines.append(f"Picking up tip from {_well(rng)} of Opentrons 96 Tip Rack 300 uL on {rng.choice('14')}")
        lines.append(f"Aspirating {vol}.0 uL from A1 of NEST 12 Well Reservoir 15 mL on 2 at {rate} uL/sec")
        lines.append(f"Dispensing {vol}.0 uL into {w} of Corning 96 Well Plate 360 uL Flat on {slot_dst} at "
                     f"{rate} uL/sec")
        if k % 3 == 0:
            lines.append(f"Mixing 3 times with a volume of {vol * 0.6:.1f} ul")
        lines.append(f"Dropping tip into A1 of Opentrons Fixed Trash on 12  (source slot {slot_src})")
    lines.append(f"Run time estimate: {rng.randint(6, 48)} min {rng.randint(0, 59)} s; tips used: "
                 f"{rng.randint(30, 190)}; OK")
    return "\n".join(lines)


def _sample_rec(rng: random.Random, project: str) -> dict[str, Any]:
    return {"barcode": _sample(rng), "project": project, "status": rng.choice(("received", "prepared", "plated",
            "on_hold", "shipped")), "volume_ul": rng.choice((20, 50, 80, 120, 200)),
            "matrix": rng.choice(("plasma", "serum", "cell lysate", "gDNA", "RNA")),
            "plate": _plate(rng), "well": _well(rng),
            "received_at": f"2025-0{rng.randint(1, 9)}-{rng.randint(10, 28)}T{_clock(rng)}:00+09:00",
            "owner": rng.choice(("seoyeon.park", "doyoon.lee", "haeun.jung", "minjun.choi"))}


def _out_lims(rng: random.Random, path: str, mul: float = 1.0) -> str:
    project = f"PRJ-{_fnum(rng, 4)}"
    items = [_sample_rec(rng, project) for _ in range(int(rng.randint(8, 16) * mul))]
    body = {"count": len(items), "next": None if rng.random() < 0.5 else f"{path}&page=2", "results": items}
    head = f"HTTP/1.1 200 OK\ncontent-type: application/json\nx-request-id: {_hex(rng, 16)}\n\n"
    return head + json.dumps(body, indent=2, ensure_ascii=False)


def _out_plate(rng: random.Random, plate: str, mul: float = 1.0) -> str:
    read = rng.choice(("OD450", "OD562", "OD600", "RFU 485/520"))
    lines = [f"## SpectraMax export, plate {plate}, read {read}, {rng.randint(18, 37)}.0C, "
             f"2025-0{rng.randint(1, 9)}-{rng.randint(10, 28)} {_clock(rng)}",
             "Plate:,Plate1,1.3,PlateFormat,Endpoint,Absorbance,Raw,FALSE,1,,,,,,1,450,1,12,96,1,8",
             "," + ",".join(str(c) for c in range(1, 13))]
    base = rng.uniform(0.08, 0.9)
    for r in ROWS:
        lines.append(r + "," + ",".join(f"{base * rng.uniform(0.6, 1.6):.4f}" for _ in range(12)))
    lines.append("")
    lines.append("Well,Sample,Mean,SD,CV%")
    for k in range(int(rng.randint(12, 26) * mul)):
        m = base * rng.uniform(0.6, 1.5)
        lines.append(f"{ROWS[k % 8]}{k // 8 + 1},{_sample(rng)},{m:.4f},{m * rng.uniform(0.01, 0.09):.4f},"
                     f"{rng.uniform(1, 9):.2f}")
    return "\n".join(lines)


def _out_qpcr(rng: random.Random, mul: float = 1.0) -> str:
    lines = [f"$ cat exports/qpcr/{_run(rng)}_results.csv", "Well,Sample,Target,Reporter,Cq,Cq Mean,Cq SD,Tm"]
    for k in range(int(rng.randint(28, 60) * mul)):
        cq = rng.uniform(17, 33)
        lines.append(f"{ROWS[k % 8]}{k // 8 + 1},{_sample(rng)},{rng.choice(('GAPDH', 'ACTB', 'IL6', 'TNF', 'N1'))},"
                     f"{rng.choice(('FAM', 'VIC', 'HEX'))},{cq:.3f},{cq + rng.uniform(-0.3, 0.3):.3f},"
                     f"{rng.uniform(0.02, 0.4):.3f},{rng.uniform(78, 86):.2f}")
    return "\n".join(lines)


def _out_trace(rng: random.Random, mul: float = 1.0) -> str:
    vendor = rng.choice(("STAR", "Fluent"))
    hh = rng.randint(8, 20)
    lines = [f"$ tail -n 60 /data/instruments/{vendor.lower()}-0{rng.randint(1, 3)}/trace_2025"
             f"{rng.randint(1, 9):02d}{rng.randint(10, 28)}.log"]
    events = ("INFO  step {k}: aspirate 100 ul from {w} (liquid class Water_DispenseJet)",
              "INFO  step {k}: dispense into {w}, pressure ok",
              "INFO  step {k}: tip pickup {w} ok (channel {c})",
              "WARN  step {k}: cLLD signal weak at {w}, retry 1/2",
              "INFO  step {k}: move plate to carrier position {c}",
              "INFO  step {k}: barcode read {bc}",
              "DEBUG step {k}: z-travel height 145.0, x {x}, y {y}")
    for k in range(int(rng.randint(26, 48) * mul)):
        ev = _pick(rng, events).format(k=k + 100, w=_well(rng), c=rng.randint(1, 8), bc=_plate(rng),
                                       x=rng.randint(100, 900), y=rng.randint(50, 400))
        lines.append(f"{hh:02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}.{rng.randint(0, 999):03d} "
                     f"[{vendor}] {ev}")
    return "\n".join(lines)


def _out_git(rng: random.Random, mul: float = 1.0) -> str:
    msgs = ("fix tip reuse in elisa coat step", "scheduler: reject overlapping runs", "uploader: retry on 503",
            "deck: move reservoir to slot 2", "bump opentrons to 7.1.1", "qpcr: parse Cq as float",
            "lims client: timeout 10s", "docs: operator checklist", "ci: cache pip", "refactor plate map builder",
            "tests: fixture for fake LIMS", "docker: non-root user")
    lines = ["$ git log --oneline -20"]
    for _ in range(int(rng.randint(12, 20) * mul)):
        lines.append(f"{_hex(rng, 7)} {_pick(rng, msgs)}")
    lines += ["", "$ git status --short", " M scheduler/app/routers/runs.py", "?? notes/scratch.md"]
    return "\n".join(lines)


def _out_shell(rng: random.Random, cmd: str, mul: float = 1.0) -> str:
    if cmd.startswith("tail"):
        return _out_trace(rng, mul)
    if "qpcr" in cmd:
        return _out_qpcr(rng, mul)
    if cmd.startswith("git"):
        return _out_git(rng, mul)
    if cmd.startswith("curl"):
        return ("HTTP/1.1 200 OK\ncontent-type: application/json\n\n" + json.dumps(
            {"status": "ok", "db": "up", "lims": rng.choice(("up", "slow")), "queue": rng.randint(0, 14),
             "robots": {f"ot2-bay{i}": rng.choice(("idle", "running", "offline")) for i in range(1, 5)},
             "version": f"0.{rng.randint(1, 30)}.{rng.randint(0, 9)}"}, indent=2) + "\n" + _out_trace(rng, mul))
    rows = [f"$ {cmd}"]
    for _ in range(int(rng.randint(20, 40) * mul)):
        rows.append(f"-rw-r--r-- 1 la la {rng.randint(200, 90000):>6} {rng.choice(('Mar', 'Apr', 'May', 'Jun'))} "
                    f"{rng.randint(1, 28):2d} {_clock(rng)} {_pick(rng, ASSAYS)}_{_fnum(rng, 4)}.csv")
    return "\n".join(rows)


FILLER_TESTS = ("test_health", "test_create_run", "test_cancel_run", "test_overlap_rejected", "test_get_run_404",
                "test_lims_timeout", "test_plate_status", "test_list_runs", "test_run_minutes_default",
                "test_auth_required", "test_settings_env", "test_worklist_csv")


def _out_pytest(rng: random.Random, fail: str | None = None) -> str:
    n = rng.randint(38, 96)
    lines = ["============================= test session starts ==============================",
             "platform linux -- Python 3.11.8, pytest-8.1.1, pluggy-1.4.0",
             "rootdir: /work/scheduler, configfile: pyproject.toml",
             "plugins: anyio-4.3.0, cov-5.0.0, asyncio-0.23.6", f"collected {n} items", ""]
    files = ("tests/test_runs.py", "tests/test_lims_client.py", "tests/test_models.py", "tests/test_api.py",
             "tests/test_worklist.py")
    for f in files:
        k = rng.randint(5, 22)
        mark = "." * k if not fail or f != files[1] else "." * (k - 1) + "F"
        lines.append(f"{f} {mark:<24} [{rng.randint(10, 100):3d}%]")
    if fail:
        lines += ["", "=================================== FAILURES ===================================",
                  "______________________________ test_failing_case ______________________________", "",
                  "    def test_failing_case(client, fake_lims):",
                  "        resp = client.post('/runs', json=payload())",
                  ">       assert resp.status_code == 201", "E       assert 409 == 201", "",
                  "tests/test_lims_client.py:88: AssertionError",
                  "=========================== short test summary info ============================", fail,
                  f"========================= 1 failed, {n - 1} passed in {rng.uniform(2, 19):.2f}s ========"]
    else:
        lines += ["", f"============================== {n} passed in {rng.uniform(2, 19):.2f}s "
                  "=============================="]
    warn = rng.random()
    if warn < 0.5:
        lines.insert(-1, "app/lims_client.py:41: DeprecationWarning: datetime.utcnow() is deprecated")
    return "\n".join(lines)


GO_PKGS = ("hanbit.bio/uploader/internal/ship", "hanbit.bio/uploader/internal/watch",
           "hanbit.bio/uploader/internal/manifest", "hanbit.bio/uploader/cmd/uploader")
GO_TESTS = ("TestShipSmallFile", "TestShipEmpty", "TestWatchDebounce", "TestManifestParse", "TestConfigFromEnv",
            "TestPartURL", "TestRetryGivesUp", "TestIgnoreTempFiles")


def _out_go(rng: random.Random, fail: str | None = None) -> str:
    lines = ["$ go test -v ./..."]
    for t in GO_TESTS:
        lines += [f"=== RUN   {t}", f"--- PASS: {t} (0.{rng.randint(0, 99):02d}s)"]
        if rng.random() < 0.3:
            lines.append(f"    watch_test.go:{rng.randint(20, 200)}: saw {rng.randint(1, 40)} events")
    if fail:
        lines += ["=== RUN   TestFailing", fail, "FAIL"]
    for p in GO_PKGS:
        state = "FAIL" if fail and p.endswith("ship") else "ok  "
        lines.append(f"{state}\t{p}\t{rng.uniform(0.01, 3.5):.3f}s")
    return "\n".join(lines)


def _out_docker(rng: random.Random, cmd: str, fail: str | None = None, mul: float = 1.0) -> str:
    if cmd.startswith("compose logs"):
        lines = [f"$ docker {cmd}"]
        for _ in range(int(rng.randint(24, 44) * mul)):
            lines.append(f"scheduler-1  | INFO:     172.18.0.{rng.randint(2, 9)}:{rng.randint(30000, 60000)} - \""
                         f"{rng.choice(('GET', 'POST'))} /runs/{rng.randint(100, 999)} HTTP/1.1\" "
                         f"{rng.choice((200, 200, 201, 404, 409))}")
        return "\n".join(lines)
    steps = ("FROM python:3.12-slim", "WORKDIR /app", "COPY requirements.txt .",
             "RUN pip install --no-cache-dir -r requirements.txt", "COPY app/ app/", "USER 10001",
             "EXPOSE 8000", 'CMD ["uvicorn", "app.main:app", "--host", "0.0.0.0"]')
    lines = [f"$ docker {cmd}", "#0 building with \"default\" instance using docker driver", "",
             "#1 [internal] load build definition from scheduler.Dockerfile",
             f"#1 transferring dockerfile: {rng.randint(400, 900)}B done", "#1 DONE 0.0s"]
    for i, s in enumerate(steps, 2):
        lines.append(f"#{i} [{i - 1}/{len(steps)}] {s}")
        if "pip" in s:
            for pkg in ("fastapi-0.110.0", "uvicorn-0.29.0", "sqlalchemy-2.0.29", "psycopg-3.1.18",
                        "httpx-0.27.0", "pydantic-2.6.4", "opentrons-7.1.1", "numpy-1.26.4"):
                lines.append(f"#{i} {rng.uniform(1, 30):.2f} Collecting {pkg.split('-')[0]}=={pkg.split('-')[1]}")
            if fail:
                lines += [f"#{i} ERROR: process did not complete successfully", fail]
                return "\n".join(lines)
        lines.append(f"#{i} DONE {rng.uniform(0, 40):.1f}s")
    lines.append(f"#12 naming to registry.hanbit.internal/labauto/scheduler:dev done  (sha256:{_hex(rng, 12)})")
    return "\n".join(lines)


# --- filler talk ----------------------------------------------------------------------------------------------------

ASKS: dict[str, tuple[str, ...]] = {
    "simulate": ("simulate 다시 돌려봐", "이거 simulate 한번 돌려줘, deck layout 바뀐 거 반영됐는지",
                 "run the sim on the ELISA one", "sim ㄱㄱ", "bca protocol도 simulate 해봐. tip 몇 개 쓰는지 궁금",
                 "can you simulate the qpcr setup with 94 samples"),
    "lims": ("LIMS에서 이번 주 received 샘플 뽑아줘", "check the LIMS for plates on hold", "LIMS 확인 좀",
             "which samples from the CRO batch are still not plated?", "LIMS에 status 업데이트 됐는지 봐줘"),
    "read_file": ("runs.py 한번 읽어봐", "look at the protocol first", "deck layout json 보여줘",
                  "uploader ship.go 어떻게 돼있는지 봐줘", "docker-compose 확인"),
    "write_file": ("스크립트 하나 만들어줘, worklist CSV 생성하는 거", "write a quick helper for the plate map",
                   "operator checklist 파일로 만들어줘"),
    "edit_file": ("mix 횟수 5로 바꿔", "fix the typo in the router", "flow rate 조금 낮춰봐", "timeout 늘려줘"),
    "shell": ("STAR trace 마지막 부분 봐줘", "git log 좀", "health endpoint 찔러봐", "qpcr export 열어봐",
              "check the fluent log from this morning", "exports 폴더에 뭐 있어?"),
    "plate_reader": ("plate reader export 가져와", "pull the OD450 read for the last plate",
                     "reader에서 방금 읽은 거 보여줘", "BCA plate 결과 가져와봐"),
    "pytest": ("테스트 돌려", "run the scheduler tests", "pytest ㄱㄱ", "test 다 통과하는지 봐줘"),
    "go": ("go test 돌려봐", "uploader 테스트", "run go vet and tests on the uploader"),
    "docker": ("이미지 빌드해봐", "docker build 다시", "compose logs 좀 봐줘", "rebuild the scheduler image"),
}
SHORT_USER = ("ok", "ㅇㅋ", "go", "고고", "ㄱㄱ", "넹", "좋아", "ok thx", "ㅇㅇ 그렇게 해", "sounds good", "계속해",
              "ㅇㅋ 다음", "yep", "아 그렇구나", "좋네")
FOLLOWUPS = ("아 그리고 급한 건 아님", "참 오늘 {t}에 QA 미팅 있어서 그 전까지만 보면 돼", "(회의 들어감, 천천히)",
             "and ping me when it's done", "{p}님이 물어봐서 그래", "btw 점심 먹고 올게 ~{t}")
OPENERS = ("Done.", "Checked.", "Here's what I see.", "OK.", "확인했어요.", "Ran it.", "Short version:", "결과입니다.")
MIDDLES = (
    "{n} of {m} steps passed; the only slow part is the mix at protocol.py:{line}.",
    "It took {s}s end to end, {n} tip pickups, nothing out of range.",
    "The LIMS returned {n} records; {m} of them are on hold since {t}.",
    "Two things stand out: the deck note is from {p} at {t}, and port {port} is what the container exposes.",
    "{n} passed, 0 failed; the deprecation warning at lims_client.py:{line} is harmless for now.",
    "The trace shows {n} steps between {t} and the end of the file, with one weak cLLD signal retried.",
    "Build finished in {s}s; the image is {m}MB, mostly numpy and the opentrons wheel.",
    "Row H reads about {pct}% higher than row A, which is the usual edge pattern, not a pipetting problem.",
)
CLOSERS = (
    "Want me to go on with the next plate?", "Options: (1) leave it, (2) tweak the mix, (3) rerun. I'd pick 1.",
    "다음으로 뭐 할까요?", "I'll keep it as is unless you say otherwise.", "",
    "Nothing to change here as far as I can tell.", "If you want, I can write this up for {p}.",
)
TODOS = ("ELISA coat step review", "scheduler overlap test", "uploader retry backoff", "deck json for bay 3",
         "qPCR Cq parser", "operator checklist", "docker non-root", "BCA standards curve", "LIMS webhook audit")


def _todo(rng: random.Random) -> str:
    items = rng.sample(TODOS, 4)
    done = rng.randint(1, 3)
    return "Todo:\n" + "\n".join(f"- [{'x' if i < done else ' '}] {t}" for i, t in enumerate(items))


def _fill(rng: random.Random, template: str) -> str:
    n = rng.randint(2, 96)
    return template.format(n=n, m=n + rng.randint(1, 300), line=rng.randint(12, 240),
                           s=rng.randint(3, 900), t=_clock(rng), p=_pick(rng, FILLER_PEOPLE),
                           port=rng.choice((8000, 5432, 9000, 3000, 8080, 6379)), pct=rng.randint(4, 19))


def _answer(rng: random.Random) -> str:
    parts = [_pick(rng, OPENERS) + " " + _fill(rng, _pick(rng, MIDDLES))]
    if rng.random() < 0.5:
        parts.append(_fill(rng, _pick(rng, MIDDLES)))
    if rng.random() < 0.25:
        parts.append(_todo(rng))
    closer = _fill(rng, _pick(rng, CLOSERS))
    if closer:
        parts.append(closer)
    return "\n\n".join(parts)


# --- pasted documents (none of their imperatives is the user's) --------------------------------------------------


def _paste_sop(rng: random.Random) -> str:
    return (f"SOP-QA-{_fnum(rng, 3)} rev {rng.randint(2, 9)}, section 6.{rng.randint(1, 9)} Automated liquid handling\n"
            "6.1 Operators must verify the deck against the printed layout before each run.\n"
            "6.2 Do not override a liquid-level detection error without a second operator present.\n"
            f"6.3 Record the instrument ID, run ID and tip lot (e.g. {_run(rng)}) in the batch record.\n"
            "6.4 Reagents must be equilibrated to room temperature for no less than thirty (30) minutes.\n"
            f"6.5 Retain raw instrument exports for {rng.randint(5, 10)} years in the validated archive.\n"
            "6.6 Any deviation shall be reported to QA within one (1) business day.")


def _paste_deviation(rng: random.Random) -> str:
    return (f"Deviation report DR-{_fnum(rng, 5)}\nDate: 2025-0{rng.randint(1, 9)}-{rng.randint(10, 28)} "
            f"{_clock(rng)}\nInstrument: STAR-0{rng.randint(1, 3)}\nDescription: plate {_plate(rng)} was processed "
            f"with an expired tip lot; {rng.randint(3, 40)} wells affected.\nImmediate action: quarantine the plate. "
            "Do not release results until QA review.\nRoot cause: pending.\nCAPA owner: 박서연")


def _paste_vendor(rng: random.Random) -> str:
    return (f"Hi team,\n\nThanks for case #{_fnum(rng, 6)}. Please reboot the instrument and re-run the "
            f"channel check (Service > Diagnostics > {rng.randint(1, 8)}). Do not run the teach routine yourself; "
            f"our FSE can visit on {rng.choice(('Tuesday', 'Thursday'))}. Firmware {rng.randint(4, 6)}."
            f"{rng.randint(0, 9)}.{rng.randint(0, 20)} fixes the pressure sensor drift.\n\nBest regards,\nKenji, "
            "Field Application Support")


def _paste_biosafety(rng: random.Random) -> str:
    return (f"[IBC Notice {rng.randint(2024, 2025)}-{_fnum(rng, 2)}] BSL-2 work in room B{rng.randint(1, 4)}"
            f"{_fnum(rng, 2)}\nEffective immediately, all aerosol-generating steps must be performed inside the "
            "BSC. Decontaminate deck surfaces with 70% ethanol after each run. Do not bring lentiviral material to "
            f"the shared OT-2 bay. Contact: biosafety@hanbit.bio, ext. {_fnum(rng, 4)}.")


def _paste_slack(rng: random.Random) -> str:
    a, b, c = rng.sample(FILLER_PEOPLE[:6], 3)
    return (f"#lab-ops\n{a}  {_clock(rng)}\nbay {rng.randint(1, 4)} OT-2 is making a grinding noise again\n"
            f"{b}  {_clock(rng)}\nplease don't use it till Kenji checks. move the {_pick(rng, ASSAYS)} runs to "
            f"bay {rng.randint(1, 4)}\n{c}  {_clock(rng)}\nok. also restock 300ul tips, only {rng.randint(2, 9)} "
            "racks left :(")


def _paste_cro(rng: random.Random) -> str:
    rows = "\n".join(f"{i + 1},{_sample(rng)},{rng.choice(('plasma', 'serum'))},{rng.choice((100, 200, 250))} uL,"
                     f"{rng.choice(('-80C', '-20C'))}" for i in range(rng.randint(6, 14)))
    return (f"From: Sarah Lim <sarah.lim@cro-partner.com>\nSubject: Batch {_fnum(rng, 3)} shipment manifest\n\n"
            "Dear Hanbit team,\nPlease find the manifest below. Kindly confirm receipt within 24 h and do not "
            "thaw the samples before QC. Please store at -80C upon arrival.\n\n#,Barcode,Matrix,Volume,Storage\n"
            + rows + "\n\nBest,\nSarah")


def _paste_transfer(rng: random.Random) -> str:
    return (f"Method Transfer Document MT-{_fnum(rng, 4)} (BCA protein assay, v{rng.randint(1, 5)}.0)\n"
            "4. Acceptance criteria\n4.1 Standard curve R^2 shall be >= 0.99.\n"
            f"4.2 Replicate CV must not exceed {rng.randint(8, 15)}%.\n"
            "4.3 Run the receiving-lab comparison on three separate days.\n"
            "5. Responsibilities: the receiving lab shall document any change to incubation times.")


PASTES: tuple[Callable[[random.Random], str], ...] = (_paste_sop, _paste_deviation, _paste_vendor, _paste_biosafety,
                                                       _paste_slack, _paste_cro, _paste_transfer)
PASTE_INTROS = (("이거 QA에서 온 거야, 참고만 해:\n\n", "QA SOP 개정판 일부:\n\n"),
                ("deviation 떴어 ㅠ\n\n", "fyi, pasting the DR:\n\n"),
                ("벤더 답장 왔어\n\n", "Hamilton support replied:\n\n"),
                ("IBC 공지 왔네\n\n", "biosafety notice fyi\n\n"),
                ("슬랙에서 퍼옴\n\n", "from #lab-ops this morning:\n\n"),
                ("CRO 메일 ↓\n\n", "Sarah's mail with the manifest:\n\n"),
                ("method transfer 문서 일부야\n\n", "읽어보고 우리 쪽에 영향 있는지만 알려줘\n\n"))
PASTE_ASKS = ("\n\n우리 protocol이랑 충돌나는 거 있어?", "\n\nanything we need to change?", "\n\n일단 알고만 있어",
              "\n\nsummarize pls")


# --- the episode builder -----------------------------------------------------------------------------------------


class _Calls:
    """Tool-call ids and the tools a session has used."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.count = 0
        self.used: set[str] = set()

    def call(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        self.count += 1
        self.used.add(name)
        return {"id": f"call_{_hex(self.rng, 10)}{self.count:05d}", "type": "function",
                "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)}}


def _user(text: str) -> Message:
    return {"role": "user", "content": text}


def _say(text: str, calls: list[dict[str, Any]] | None = None) -> Message:
    m: Message = {"role": "assistant", "content": text}
    if calls:
        m["tool_calls"] = calls
    return m


def _tool(call: dict[str, Any], output: str) -> Message:
    return {"role": "tool", "tool_call_id": call["id"], "name": call["function"]["name"], "content": output}


def _filler_call(rng: random.Random, tool: str, mul: float = 1.0) -> tuple[dict[str, Any], str]:
    """(arguments, output) of one filler call of ``tool``."""
    if tool == "simulate":
        p = _pick(rng, [p for p in FILLER_PATHS if p.startswith("protocols")])
        return {"protocol": p}, _out_simulate(rng, p, mul)
    if tool == "lims":
        path = f"/api/v2/samples?project=PRJ-{_fnum(rng, 4)}&status={rng.choice(('received', 'on_hold'))}"
        return {"method": "GET", "path": path}, _out_lims(rng, path, mul)
    if tool == "read_file":
        p = _pick(rng, FILLER_PATHS)
        return {"path": p}, _numbered(_src(rng, p))
    if tool == "write_file":
        p = f"scratch/{_pick(rng, ASSAYS)}_{_fnum(rng, 3)}.py"
        src = _src(rng, "protocols/x.py")
        return {"path": p, "content": src}, f"wrote {len(src)} bytes to {p}"
    if tool == "edit_file":
        p = _pick(rng, FILLER_PATHS)
        a, b = rng.sample(range(2, 9), 2)
        old, new = ((f"Retries: {a},", f"Retries: {b},") if p.endswith(".go") else
                    (f'"target": {a}', f'"target": {b}') if p.endswith(".json") else
                    (f"SLOT_MINUTES = {a}0", f"SLOT_MINUTES = {b}0") if "scheduler" in p else
                    (f"MIX_REPS = {a}", f"MIX_REPS = {b}"))
        return {"path": p, "old": old, "new": new}, (
            f"edited {p}: 1 replacement\n--- a/{p}\n+++ b/{p}\n@@ -{rng.randint(10, 90)},3 @@\n-{old}\n+{new}\n\n"
            + _numbered(_src(rng, p))[: rng.randint(600, 2200)])
    if tool == "shell":
        cmd = rng.choice(("tail -n 60 /data/instruments/star-01/trace.log", "git log --oneline -20",
                          "curl -s localhost:8000/health", "cat exports/qpcr/latest.csv", "ls -l exports/"))
        return {"cmd": cmd}, _out_shell(rng, cmd, mul)
    if tool == "plate_reader":
        p = _plate(rng)
        return {"action": "export", "plate": p, "read": "OD450"}, _out_plate(rng, p, mul)
    if tool == "pytest":
        return {"args": "-q tests/"}, _out_pytest(rng)
    if tool == "go":
        return {"cmd": "test -v ./..."}, _out_go(rng)
    cmd = rng.choice(("build -f docker/scheduler.Dockerfile -t labauto/scheduler:dev .", "compose logs scheduler"))
    return {"cmd": cmd}, _out_docker(rng, cmd, mul=mul)


class _Builder:
    def __init__(self, rng: random.Random, mul: float = 1.0) -> None:
        self.rng = rng
        self.mul = mul
        self.calls = _Calls(rng)
        self.pastes = 0

    def tool_name(self) -> str:
        for t in TOOLS:
            if t not in self.calls.used:
                return t
        return _pick(self.rng, TOOLS)

    def round(self, tool: str | None = None, calls: int = 1, text: str = "") -> list[Message]:
        """One assistant turn with ``calls`` filler calls and their results."""
        rng = self.rng
        made = []
        outs = []
        for k in range(calls):
            name = tool if (tool and k == 0) else self.tool_name()
            args, out = _filler_call(rng, name, self.mul)
            c = self.calls.call(name, args)
            made.append(c)
            outs.append(_tool(c, out))
        lead = text or rng.choice(("", "Let me look.", "Checking.", "확인해볼게요.", "Running it now.",
                                   "I'll pull the log and the file together."))
        return [_say(lead, made), *outs]

    def episode(self, size: int, pasted: list[tuple[int, str]], base: int) -> list[Message]:
        """A filler episode of exactly ``size`` messages: a user turn, tool rounds, an answer."""
        rng = self.rng
        msgs: list[Message] = []
        tool = self.tool_name()
        r = rng.random()
        if r < 0.08 or (self.pastes == 0 and size >= 2 and base > 3):
            which = self.pastes % len(PASTES)
            doc = PASTES[which](rng)
            self.pastes += 1
            text = _pick(rng, PASTE_INTROS[which]) + doc + _pick(rng, PASTE_ASKS)
            msgs.append(_user(text))
            pasted.append((base, doc))
        elif r < 0.25:
            msgs.append(_user(_pick(rng, SHORT_USER)))
        else:
            ask = _pick(rng, ASKS[tool])
            if rng.random() < 0.3:
                ask = f"{_clock(rng)} " + ask if rng.random() < 0.5 else ask + f" ({_pick(rng, FILLER_PEOPLE)} 요청)"
            msgs.append(_user(ask))
        if size == 3:
            msgs.append(_user(_fill(rng, _pick(rng, FOLLOWUPS))))
        else:
            left = size - 2
            while left > 0:
                take = left if left <= 4 else rng.randint(2, min(4, left - 2))
                msgs += self.round(tool if len(msgs) == 1 else None, take - 1)
                left -= take
        msgs.append(_say(_answer(rng)))
        return msgs


# --- planted facts ---------------------------------------------------------------------------------------------------


@dataclass
class _Event:
    frac: float
    msgs: list[Message]
    pasted: list[tuple[int, str]] = field(default_factory=list)
    start: int = -1
    lo_off: int = 99
    hi_off: int = 0


@dataclass
class _Plant:
    kind: str
    value: str
    query: str
    event: _Event
    offset: int
    stale: str | None = None
    stale_event: _Event | None = None
    stale_offset: int = 0
    resolved: int | None = None


class _Values:
    """Planted strings: each distinct from, and neither inside nor around, any other."""

    def __init__(self) -> None:
        self.taken: list[str] = []

    def free(self, *values: str) -> bool:
        return all(v not in t and t not in v for v in values for t in self.taken) and len(set(values)) == len(values)

    def take(self, *values: str) -> None:
        self.taken += values


def _draw(values: _Values, make: Callable[[], tuple[str, ...]]) -> tuple[str, ...]:
    for _ in range(200):
        got = make()
        if values.free(*got[:2] if len(got) > 1 and got[1] else got[:1]):
            values.take(*(g for g in got[:2] if g))
            return got
    raise RuntimeError("could not draw a fresh planted value")


# instruction templates: (make value, query, phrasings with {v})
SITES = ("magok", "pangyo", "songdo", "osong", "gasan")
FACT_WORDS = ("aliquot", "quench", "rescue", "pooling", "spike", "titer", "lysis", "elution", "bridge", "reflex")


def _instruction_specs(rng: random.Random) -> list[tuple[Callable[[], str], str, tuple[str, ...]]]:
    return [
        (lambda: f"{rng.randint(8, 24)}.{rng.choice((5, 2, 8))} µL/s",
         "the maximum aspirate rate for viscous mastermix",
         ("아 그리고 glycerol 들어간 mastermix는 항상 aspirate {v} 이하로 해줘. 지난번에 bubble 생겼어",
          "house rule for anything with glycerol: aspirate at {v} or slower, no exceptions.")),
        (lambda: f"Ct≥{rng.randint(35, 39)}.{rng.randint(1, 9)}", "the Cq cutoff above which a well is undetermined",
         ("qPCR 결과에서 {v}는 무조건 undetermined 처리해. 재분석 요청하지 말고",
          "we never report anything at {v} as positive, just mark it undetermined")),
        (lambda: f"sbx-{_pick(rng, FACT_WORDS)}-{_pnum(rng, 2)}", "which LIMS tenant dev-box writes must go to",
         ("dev에서 LIMS 쓸 때는 절대 prod 쓰지 마. {v} tenant만 써",
          "I'd rather nothing from a dev box ever touches prod LIMS — point it at the {v} tenant.")),
        (lambda: f"python:3.11.{rng.randint(4, 9)}-slim-bookworm",
         "which base image the scheduler image stays pinned to",
         ("vendor SDK가 3.12 지원하기 전까지는 scheduler image base를 {v}에서 올리지 마",
          "until the vendor SDK supports 3.12, don't move the scheduler base image off {v}.")),
        (lambda: f"금요일 {rng.randint(14, 17)}시", "after when on Fridays nothing may be deployed to the robots",
         ("{v} 이후에는 robot에 protocol 배포 절대 하지 마. 주말에 아무도 없어",
          "우리 팀 룰: {v} 넘으면 배포 금지")),
        (lambda: f"[LA-{_pnum(rng, 3)}]", "what tag every commit message must start with",
         ("앞으로는 commit message 앞에 {v} 붙여줘. QA가 추적한대",
          "house rule: commit subjects start with {v}, the change-control ticket.")),
        (lambda: f"{rng.randint(1, 2)}.{rng.randint(1, 9)} µL", "the smallest volume allowed on the p20",
         ("p20로 {v} 밑으로는 pipetting 하지 마. 정확도 안 나와",
          "we never go below {v} on the p20; dilute first instead")),
        (lambda: f"max_backoff={rng.randint(31, 97)}s", "the uploader's retry backoff ceiling",
         ("uploader retry는 {v} 넘기지 마. data lake 쪽에서 rate limit 걸림",
          "keep the uploader at {v} at most, the lake team asked")),
        (lambda: f"{rng.randint(4, 9)}.{rng.randint(1, 9)}°C pre-cool", "what the temperature module must be set to "
         "before enzyme steps", ("효소 들어가는 step 전에는 항상 temp module {v} 해놓고 시작해",
                                  "I'd rather we always start enzyme steps after a {v} on the temp module.")),
        (lambda: f"QC{_pnum(rng, 2)}-* barcodes", "which barcodes are controls that never go to the CRO",
         ("{v}는 control이야. 절대 CRO shipment에 넣지 마",
          "heads up, {v} are our controls, they never leave the building")),
        (lambda: f"#la-runlog-{_pnum(rng, 2)}", "which Slack channel run-finished messages go to",
         ("앞으로는 run 끝나면 #lab-ops 말고 {v}에 올려줘", "post run-finished notes to {v}, not #lab-ops")),
        (lambda: f"{rng.randint(2, 3)} green simulate runs in a row", "what must pass before a protocol goes to main",
         ("main에 merge하기 전에 {v} 꼭 확인해", "we don't merge a protocol to main without {v}")),
        (lambda: f"LiHa channel {rng.randint(5, 8)}", "which Tecan channel may not be used until the FSE visit",
         ("FSE 오기 전까지는 {v} 쓰지 마. 벤더가 그러라고 한 건 아닌데 내가 불안해서",
          "until the Tecan FSE visit, don't schedule anything on {v}.")),
        (lambda: f"worklist encoding {rng.choice(('cp949', 'utf-8-sig', 'euc-kr'))}", "which encoding Tecan worklists "
         "are written in", ("Tecan worklist CSV는 항상 {v}로 저장해. 한글 sample명 깨짐",
                             "always save Tecan worklists as {v} — Korean sample names break otherwise")),
    ]


SECOND_PARA = ("어제 BCA run은 잘 끝났어, 수고했어.\n\n", "ok the scheduler PR looks fine.\n\n",
               "{t}에 {p}님이랑 얘기했는데 별 문제 없대.\n\n", "오늘 할 거 많다 ㅠ\n\n",
               "quick note before we continue.\n\n")
ADOPT = (
    (_paste_sop, lambda rng: f"raw export {rng.randint(11, 15)}년 보관", "how long raw exports are kept",
     "SOP 읽어봤는데 우리 쪽도 이렇게 가자: 우리 팀은 {v}으로 할게, SOP보다 넉넉하게."),
    (_paste_transfer, lambda rng: f"n={rng.randint(4, 6)} replicates per standard",
     "how many replicates each standard gets", "transfer doc 기준으로 우리 BCA는 앞으로 {v}로 가자. CV 기준 맞추려면"),
)


def _ack(rng: random.Random, v: str) -> str:
    return rng.choice((f"Got it — {v} from now on. I'll keep it in mind for every run.",
                       f"알겠습니다, 앞으로 {v} 기준으로 할게요.", f"Noted: {v}. Nothing running right now conflicts "
                       "with it.", f"OK. I'll apply {v} and flag anything that doesn't fit."))


class _Planter:
    def __init__(self, rng: random.Random, builder: _Builder, n: int) -> None:
        self.rng = rng
        self.b = builder
        self.n = n
        self.values = _Values()
        self.plants: list[_Plant] = []
        self.events: list[_Event] = []

    def event(self, frac: float, msgs: list[Message], pasted: list[tuple[int, str]] | None = None) -> _Event:
        if len(msgs) == 2 and self.rng.random() < 0.5:
            msgs = [msgs[0], *self.b.round(calls=self.rng.randint(1, 2)), msgs[1]]
        ev = _Event(frac, msgs, pasted or [])
        self.events.append(ev)
        return ev

    def plant(self, kind: str, value: str, query: str, ev: _Event, offset: int, **kw: Any) -> None:
        self.plants.append(_Plant(kind, value, query, ev, offset, **kw))

    # instructions ----------------------------------------------------------------------------------------------
    def instructions(self, fracs: list[float]) -> None:
        rng = self.rng
        specs = _instruction_specs(rng)
        rng.shuffle(specs)
        adopt_at = {2, 7} if len(fracs) >= 3 else set()
        used_adopt = 0
        for j, frac in enumerate(fracs):
            if j in adopt_at and used_adopt < len(ADOPT):
                paste, mk, query, say = ADOPT[used_adopt]
                used_adopt += 1
                (v,) = _draw(self.values, lambda mk=mk: (mk(rng),))
                doc = paste(rng)
                text = "QA에서 보낸 거 붙여넣을게\n\n" + doc + "\n\n" + say.format(v=v)
                ev = self.event(frac, [_user(text), _say(_ack(rng, v))], [(0, doc)])
                self.plant("instruction", v, query, ev, 0)
                continue
            make, query, phr = specs[j % len(specs)]
            (v,) = _draw(self.values, lambda make=make: (make(),))
            text = rng.choice(phr).format(v=v)
            if j >= 2 and rng.random() < 0.45:
                text = _fill(rng, _pick(rng, SECOND_PARA)) + text
            msgs = [_user(text), _say(_ack(rng, v))]
            if rng.random() < 0.4:
                msgs = [_user(text), *self.b.round(calls=1, text=f"Noted ({v}). Let me check nothing in flight "
                                                                    "conflicts."), _say(_ack(rng, v))]
            ev = self.event(frac, msgs)
            self.plant("instruction", v, query, ev, 0)

    # corrections ---------------------------------------------------------------------------------------------
    def corrections(self, fracs: list[float]) -> None:
        rng = self.rng
        kinds = ["host", "sample", "ticket", "lot", "program", "person", "labware", "freezer"]
        rng.shuffle(kinds)
        far_from = len(fracs) // 2
        for j, frac in enumerate(sorted(fracs)):
            kind = kinds[j % len(kinds)]
            stale, value, query, setup, fix = self._correction(kind)
            far = j >= far_from and frac > 0.2
            if far:
                sfrac = max(0.035, frac - rng.uniform(0.12, min(0.4, frac - 0.05)))
            else:
                sfrac = max(0.035, frac - rng.uniform(0.008, 0.03))
            sev = self.event(sfrac, [_user(setup), _say(rng.choice((f"OK, {stale} it is.", "네, 그렇게 할게요.",
                                                                    f"Noted: {stale}.")))])
            if rng.random() < 0.35:
                fix = (f"{_clock(rng)} 업데이트: BCA plate 두 개 다 읽었고 결과는 괜찮아 보여. "
                       f"오후에 {_pick(rng, FILLER_PEOPLE)}님이 "
                       f"deck 정리한대.\n\n{fix}\n\n그리고 tip 300ul 재고 확인 좀 부탁, 다음 주 order 넣어야 해.")
            ev = self.event(frac, [_user(fix), _say(rng.choice((f"Thanks — switched to {value}.",
                                                                f"수정했습니다: {value}.",
                                                                f"Right, {value} then; I dropped the old one.")))])
            self.plant("correction", value, query, ev, 0, stale=stale, stale_event=sev, stale_offset=0)

    def _correction(self, kind: str) -> tuple[str, str, str, str, str]:
        rng = self.rng

        def near(prefix: str, digits: int) -> tuple[str, str]:
            a = _pnum(rng, digits)
            b = a[:-2] + a[-1] + a[-2] if a[-1] != a[-2] else a[:-1] + str((int(a[-1]) + 3) % 10)
            return prefix + a, prefix + b

        if kind == "host":
            def host() -> tuple[str, str]:
                site, (a, b) = _pick(rng, SITES), rng.sample(range(1, 10), 2)
                return f"ot2-{site}-0{a}", f"ot2-{site}-0{b}"

            s, v = _draw(self.values, host)
            return (s, v, "which OT-2 the protocol should go to", f"오늘 오후 run은 {s}에 올려줘",
                    rng.choice((f"아 잠깐, 내가 잘못 말했어 — {s} 아니고 {v}. 그건 calibration 중이래",
                                f"no wait, the robot is {v}, not {s}")))
        if kind == "sample":
            s, v = _draw(self.values, lambda: near("SB25-", 5))
            return (s, v, "which sample barcode the rerun is for", f"rerun할 샘플은 {s}야. LIMS에 flag 좀",
                    rng.choice((f"I gave you the wrong barcode, it's {v} (I swapped the last digits)",
                                f"아니 내가 잘못 말했어, {v}야. {s} 아님")))
        if kind == "ticket":
            s, v = _draw(self.values, lambda: near("INC-", 5))
            return (s, v, "which incident ticket the fix should reference", f"이거 {s}에 링크 걸어줘",
                    rng.choice((f"ticket 번호 틀렸다 ㅋㅋ {v}", f"wrong ticket — use {v}")))
        if kind == "lot":
            s, v = _draw(self.values, lambda: near("LOT-K", 6))
            return (s, v, "which reagent lot goes into the batch record", f"mastermix lot는 {s}로 기록해줘",
                    rng.choice((f"the other one — lot is {v}, {s} was the old box", f"아 lot 잘못 봤어. {v}야")))
        if kind == "program":
            def program() -> tuple[str, str]:
                name, (a, b) = _pick(rng, ("HRM", "RTQ", "ONESTEP", "FAST", "GENO")), rng.sample(range(2, 10), 2)
                return f"PCR_{name}_v{a}", f"PCR_{name}_v{b}"

            s, v = _draw(self.values, program)
            return (s, v, "which thermocycler program the run uses", f"thermocycler program은 {s} 쓰면 돼",
                    rng.choice((f"oops, program is {v}; {s} has the old anneal temp",
                                f"아 {s} 말고 {v}. 내가 헷갈렸네")))
        if kind == "person":
            s, v = _draw(self.values, lambda: rng.choice((("김지훈", "김지현"), ("오세린", "오세란"),
                                                         ("한태민", "한태빈"),
                                                         ("윤서준", "윤서진"), ("배가은", "배가윤"))))
            return (s, v, "who signs off the second-operator check", f"second operator sign-off은 {s}님이 해줄 거야",
                    rng.choice((f"아 잠깐, sign-off은 {v}님이야. 이름 비슷해서 헷갈렸어",
                                f"correction: second operator is {v}, not {s}")))
        if kind == "freezer":
            s, v = _draw(self.values, lambda: near("FRZ-", 4))
            return (s, v, "which freezer rack the aliquots go to", f"aliquot은 {s} rack에 넣기로 했어",
                    rng.choice((f"freezer 번호 {v}가 맞아, {s}은 꽉 찼대", f"make that {v}, {s} is full")))
        pairs = (("thermofast_96_wellplate_200ul", "azenta_96_wellplate_200ul_skirted"),
                 ("greiner_96_wellplate_340ul", "falcon_96_wellplate_320ul"),
                 ("abgene_96_wellplate_800ul_deep", "axygen_96_wellplate_1100ul_deep"),
                 ("eppendorf_96_twintec_150ul", "starlab_96_wellplate_250ul_pcr"))
        s, v = _draw(self.values, lambda: rng.sample(pairs[rng.randint(0, 3)], 2))
        return (s, v, "which labware definition the destination plate uses", f"dest plate은 {s} 정의 써줘",
                rng.choice((f"the other one — {v}. {s} was last month's order", f"아니 {v} 쓰자. {s} 재고 없대")))

    # decisions -------------------------------------------------------------------------------------------------
    def decisions(self, fracs: list[float]) -> None:
        rng = self.rng
        cats = [("job runner for the scheduling service", ("APScheduler", "Celery beat", "arq workers", "Dramatiq")),
                ("way the Go uploader sends exports", ("S3 multipart upload", "tus resumable upload",
                                                       "presigned PUT per file")),
                ("store for plate-reader results", ("TimescaleDB hypertable", "Parquet on MinIO", "DuckDB per run")),
                ("container registry", ("Harbor on-prem", "GHCR org packages", "ECR in ap-northeast-2")),
                ("way qPCR replicates are combined", ("median of triplicates", "mean after Grubbs test",
                                                      "drop the max-deviation replicate")),
                ("tip strategy for serial dilutions", ("new tip every transfer", "one tip per column",
                                                       "tip reuse within a replicate")),
                ("auth between the scheduler and the LIMS", ("mTLS client certs", "OAuth client credentials",
                                                             "static API key in Vault")),
                ("home of the run logs", ("Loki with 30d retention", "ELK on the QA cluster", "NAS flat files")),
                ("plate seal for long incubations", ("foil heat seal", "optical adhesive film", "silicone mat")),
                ("way protocol releases are cut", ("git tag plus simulate gate", "signed wheel per protocol",
                                                   "LIMS-attached protocol PDF")),
                ("barcode validation in the scheduler", ("Luhn check digit", "regex plus LIMS lookup",
                                                         "DataMatrix rescan")),
                ("scheduler base image flavor", ("distroless python3", "slim with uv", "alpine with musl wheels")),
                ("ELISA wash method", ("BioTek washer", "manual multichannel wash", "OT-2 wash with 8-channel"))]
        rng.shuffle(cats)
        order = sorted(range(len(fracs)), key=lambda i: fracs[i])
        revised = set(order[len(order) - max(1, len(fracs) // 3):])
        for i, frac in enumerate(fracs):
            cat, opts = cats[i % len(cats)]
            pick = list(opts)
            rng.shuffle(pick)
            stale = None
            sev = None
            if i in revised:
                s, v = _draw(self.values, lambda p=pick: (p[0], p[1]))
                stale = s
                sev = self.event(max(0.035, frac - rng.uniform(0.02, 0.25)),
                                 [_user(rng.choice((f"{cat}는 일단 {s}로 가자", f"let's start with {s} for the {cat}, "
                                                    "we can revisit"))),
                                  _say(f"OK, {s} for now. I'll keep it easy to swap.")])
                text = rng.choice((f"{s} 말고 {v}로 바꾸자. 해보니까 운영이 너무 귀찮아",
                                   f"changed my mind on the {cat}: {v} instead of {s}",
                                   f"음 다시 생각해봤는데 {v}가 낫겠어. {s}는 접자"))
            else:
                (v,) = _draw(self.values, lambda p=pick: (p[0],))
                text = rng.choice((f"ok let's go with {v} for the {cat}", f"{cat}: {v}로 가자. 더 고민 안 해도 될 듯",
                                   f"options 봤는데 {v}가 제일 나은 것 같아. 그걸로 ㄱㄱ"))
            ev = self.event(frac, [_user(text), _say(rng.choice((f"Going with {v}. I'll note it in the README.",
                                                                 f"좋아요, {v}로 진행합니다.",
                                                                 f"{v} it is; first step is wiring it into the "
                                                                 "config.")))])
            self.plant("decision", v, f"what the user chose for the {cat}", ev, 0, stale=stale, stale_event=sev)

    # errors ----------------------------------------------------------------------------------------------------
    def errors(self, fracs: list[float]) -> None:
        rng = self.rng
        k = len(fracs)
        n_res = max(1, min(k - 1, round(k * 0.4))) if k > 1 else 1
        fixed = set(rng.sample(range(k), n_res))
        for i, frac in enumerate(fracs):
            tool = ("pytest", "go", "simulate", "docker", "shell", "lims")[(i + rng.randint(0, 5)) % 6]
            line, args, bad, good, query = self._error(tool)
            c = self.b.calls.call(tool, args)
            msgs = [_user(_pick(rng, ASKS.get(tool, ASKS["shell"]))), _say(rng.choice(("Running it.", "")), [c]),
                    _tool(c, bad)]
            if i in fixed:
                e = self.b.calls.call("edit_file", {"path": _pick(rng, FILLER_PATHS), "old": "...", "new": "..."})
                c2 = self.b.calls.call(tool, args)
                msgs += [_say(f"It fails with:\n\n    {line}\n\nThe cause is on our side; fixing and rerunning.", [e]),
                         _tool(e, "edited: 1 replacement"), _say("Rerunning the same command.", [c2]),
                         _tool(c2, good), _say("Passes now. The failure is gone.")]
                self.plant("error", line, query, self.event(frac, msgs), 2, resolved=6)
            else:
                msgs.append(_say(f"Still failing:\n\n`{line}`\n\nI don't have a fix yet — options: (1) look at the "
                                 "fixture, (2) ask the vendor, (3) park it. Leaning towards 1."))
                self.plant("error", line, query, self.event(frac, msgs), 2)

    def _error(self, tool: str) -> tuple[str, dict[str, Any], str, str, str]:
        rng = self.rng
        if tool == "pytest":
            mod = _pick(rng, ("slot_allocator", "run_queue", "lims_sync", "plate_map", "reagent_ledger"))
            (line,) = _draw(self.values, lambda: (
                f"FAILED tests/test_{mod}.py::test_{_pick(rng, ('rejects', 'keeps', 'splits', 'merges'))}_"
                f"{_pick(rng, ('overnight', 'weekend', 'partial', 'rerun'))}_runs - assert {_pnum(rng, 3)} == "
                f"{_pnum(rng, 3)}",))
            a = {"args": f"-q tests/test_{mod}.py"}
            return line, a, _out_pytest(rng, line), _out_pytest(rng), f"which {mod} test fails and how"
        if tool == "go":
            (line,) = _draw(self.values, lambda: (
                f"--- FAIL: Test{_pick(rng, ('ResumeChunk', 'RetryJitter', 'ManifestChecksum', 'DedupeBarcode'))}"
                f"{_pick(rng, ('After503', 'OnRestart', 'Large', 'Empty'))} ({rng.randint(1, 9)}.{_pnum(rng, 2)}s)",))
            return line, {"cmd": "test -v ./internal/ship/"}, _out_go(rng, line), _out_go(rng), \
                "which Go uploader test fails"
        if tool == "simulate":
            proto = f"protocols/{_pick(rng, ASSAYS)}/run.py"
            (line,) = _draw(self.values, lambda: (rng.choice((
                f"opentrons.protocols.execution.errors.ExceptionInProtocolError: OutOfTipsError [line "
                f"{_pnum(rng, 3)}]: no tips left in slot {rng.choice('147')}",
                f"LabwareLoadError [line {_pnum(rng, 3)}]: slot {rng.randint(2, 9)} is occupied by "
                f"{_pick(rng, LABWARE)}")),))
            bad = _out_simulate(rng, proto).rsplit("\n", 1)[0] + "\nTraceback (most recent call last):\n  File " \
                f"\"{proto}\", line 40, in run\n" + line
            return line, {"protocol": proto}, bad, _out_simulate(rng, proto), "what simulate reported as the " \
                "protocol error"
        if tool == "docker":
            pkg = _pick(rng, ("opentrons", "pyserial", "pylabrobot", "pandas"))
            (line,) = _draw(self.values, lambda: (
                f"ERROR: No matching distribution found for {pkg}=="
                f"{rng.randint(7, 9)}.{_pnum(rng, 2)}.{rng.randint(0, 9)}",))
            cmd = "build -f docker/scheduler.Dockerfile -t labauto/scheduler:dev ."
            return line, {"cmd": cmd}, _out_docker(rng, cmd, line), _out_docker(rng, cmd), \
                "why the scheduler image build breaks"
        if tool == "shell":
            (line,) = _draw(self.values, lambda: (rng.choice((
                f"{rng.randint(8, 20):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}.{_pnum(rng, 3)} "
                f"[STAR] ERROR Tip pickup failed at {_well(rng)} of slot {rng.randint(1, 9)} (channel "
                f"{rng.randint(1, 8)}, code 0x{_pnum(rng, 4)})",
                f"{rng.randint(8, 20):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}.{_pnum(rng, 3)} "
                f"[Fluent] ERROR Liquid level detection failed: tip {rng.randint(1, 8)}, grid {rng.randint(5, 40)}, "
                f"well {_well(rng)} (E{_pnum(rng, 4)})")),))
            cmd = "tail -n 60 /data/instruments/star-01/trace.log"
            bad = _out_trace(rng)
            cut = bad.rfind("\n", 0, len(bad) * 2 // 3)
            return line, {"cmd": cmd}, bad[:cut] + "\n" + line + bad[cut:], _out_trace(rng), \
                "what the instrument trace reported as the failure"
        (line,) = _draw(self.values, lambda: (
            f"error: 409 Conflict - plate PLT-{_pnum(rng, 6)} is locked by run RUN-{_pnum(rng, 5)}",))
        path = f"/api/v2/plates/checkout?project=PRJ-{_fnum(rng, 4)}"
        good = _out_lims(rng, path)
        return line, {"method": "POST", "path": path}, "HTTP/1.1 409 Conflict\ncontent-type: application/json\n\n" \
            + line + "\n" + json.dumps({"detail": "locked", "retry_after": 300}), good, \
            "why the LIMS refused the plate checkout"

    # files -----------------------------------------------------------------------------------------------------
    def files(self, fracs: list[float]) -> None:
        rng = self.rng
        for frac in fracs:
            kind = rng.randint(0, 3)

            def make(kind: int = kind) -> tuple[str]:
                w = _pick(rng, FACT_WORDS)
                return ((f"protocols/{_pick(rng, ASSAYS)}/{w}_v{_pnum(rng, 2)}.py",
                         f"scheduler/app/routers/{w}_{_pnum(rng, 2)}.py",
                         f"uploader/internal/{w}/{w}{_pnum(rng, 2)}.go",
                         f"deck/{w}_bay{_pnum(rng, 2)}.json")[kind],)

            (path,) = _draw(self.values, make)
            tool = "write_file" if rng.random() < 0.6 else "edit_file"
            body = _src(rng, path)
            args = {"path": path, "content": body} if tool == "write_file" else \
                {"path": path, "old": body[:120], "new": body[:120].replace("import", "import  ")}
            c = self.b.calls.call(tool, args)
            msgs = [_user(rng.choice(("그거 파일로 만들어줘", "write it out", "ok 그대로 저장해", "make the change"))),
                    _say(rng.choice(("Writing it now.", "저장할게요.", "")), [c]),
                    _tool(c, f"wrote {len(body)} bytes to {path}"),
                    _say(f"Saved as {path}. {_fill(rng, _pick(rng, MIDDLES))}")]
            ev = self.event(frac, msgs)
            self.plant("file", path, "which file the agent wrote for " + ("the protocol" if "protocols" in path else
                                                                           "this change"), ev, 1)

    # identifiers -----------------------------------------------------------------------------------------------
    def identifiers(self, fracs: list[float]) -> None:
        rng = self.rng
        for i, frac in enumerate(fracs):
            by_user = i % 2 == 0
            fmt = rng.randint(0, 4)

            def make(fmt: int = fmt) -> tuple[str]:
                return ((f"PLT-{_pnum(rng, 6)}", f"PO-{_pnum(rng, 6)}", f"DEV-2025-{_pnum(rng, 4)}",
                         f"RUN-{_pnum(rng, 5)}", f"SB25-{_pnum(rng, 5)}")[fmt],)

            (v,) = _draw(self.values, make)
            what = ("plate", "CRO purchase order", "deviation", "run", "sample")[fmt]
            if by_user:
                c = self.b.calls.call("lims", {"method": "GET", "path": f"/api/v2/search?q={v}"})
                out = "HTTP/1.1 200 OK\n\n" + json.dumps({"query": v, "hits": [_sample_rec(rng, "PRJ-" + _fnum(rng, 4))
                                                                               for _ in range(3)]}, indent=2)
                msgs = [_user(rng.choice((f"{what} {v} 좀 찾아봐. {_pick(rng, FILLER_PEOPLE)}님이 물어봄",
                                          f"can you pull up {v} in the LIMS", f"{v} 상태 어때?"))),
                        _say("Looking it up.", [c]), _tool(c, out),
                        _say(f"{v}: 3 linked records, nothing on hold. {_fill(rng, _pick(rng, MIDDLES))}")]
                ev = self.event(frac, msgs)
                self.plant("identifier", v, f"which {what} the user asked about", ev, 0)
            else:
                c = self.b.calls.call("lims", {"method": "POST", "path": f"/api/v2/{what.split()[-1]}s",
                                               "body": {"project": "PRJ-" + _fnum(rng, 4)}})
                out = ("HTTP/1.1 201 Created\ncontent-type: application/json\n\n" +
                       json.dumps({"id": v, "created_by": "labbot", "status": "open",
                                   "links": [_sample(rng) for _ in range(4)]}, indent=2))
                msgs = [_user(rng.choice((f"LIMS에 새 {what} 하나 만들어줘", f"open a new {what} record in the LIMS"))),
                        _say("Creating it.", [c]), _tool(c, out),
                        _say(f"Created: {v}. I linked four samples to it.")]
                ev = self.event(frac, msgs)
                self.plant("identifier", v, f"the id the LIMS gave the new {what}", ev, 2)

    # findings --------------------------------------------------------------------------------------------------
    def findings(self, fracs: list[float]) -> None:
        rng = self.rng
        for i, frac in enumerate(fracs):
            form = (i + rng.randint(0, 6)) % 7
            v, tool, args, out, query, meaning = self._finding(form)
            c = self.b.calls.call(tool, args)
            msgs = [_user(_pick(rng, ASKS[tool])), _say("Checking.", [c]), _tool(c, out), _say(meaning)]
            self.plant("finding", v, query, self.event(frac, msgs), 2)

    def _finding(self, form: int) -> tuple[str, str, dict[str, Any], str, str, str]:
        rng = self.rng
        if form == 0:
            (v,) = _draw(self.values, lambda: (f"z-offset {rng.choice('+-')}0.{_pnum(rng, 2)} mm",))
            out = _out_trace(rng) + f"\n# calibration summary: left mount {v} vs the deck cal from last month"
            return (v, "shell", {"cmd": "grep -A3 calibration /data/instruments/star-01/trace.log"}, out,
                    "how far the left mount has drifted", f"That {v} explains the missed pickups on row A: the tips "
                    "land too high. A recalibration should fix it.")
        if form == 1:
            (v,) = _draw(self.values, lambda: (f"edge CV {rng.randint(11, 29)}.{rng.randint(1, 9)}%",))
            p = _plate(rng)
            out = _out_plate(rng, p) + f"\n\n# summary: interior CV 3.1%, {v} (columns 1 and 12)"
            return (v, "plate_reader", {"action": "export", "plate": p, "read": "OD450"}, out,
                    "how variable the edge wells were on the plate", f"{v} on the edges means evaporation, not "
                    "pipetting: the interior is tight. Sealing or skipping the edge columns would fix it.")
        if form == 2:
            (v,) = _draw(self.values, lambda: (f"X-RateLimit-Limit: {_pnum(rng, 3)}",))
            path = f"/api/v2/samples?project=PRJ-{_fnum(rng, 4)}"
            out = _out_lims(rng, path).replace("content-type: application/json\n", f"content-type: application/json"
                                                f"\n{v}\nX-RateLimit-Remaining: 0\n", 1)
            return (v, "lims", {"method": "GET", "path": path}, out, "the LIMS rate limit per minute",
                    f"The header says {v} per minute, and we burn through it on the nightly sync — that is why it "
                    "429s at the end.")
        if form == 3:
            (v,) = _draw(self.values, lambda: (f"HEATER_SHAKER_MAX_RPM={_pnum(rng, 4)}",))
            out = (f"$ cat /etc/labauto/robot.env\nROBOT_NAME=ot2-bay{rng.randint(1, 4)}\nLIMS_URL=https://lims.hanbit."
                   f"internal/api/v2\n{v}\nTEMP_MODULE_PORT=/dev/ttyACM{rng.randint(0, 3)}\n") + _out_git(rng)
            return (v, "shell", {"cmd": "cat /etc/labauto/robot.env; git log --oneline -20"}, out,
                    "the heater-shaker speed cap on the robot", f"So the robot caps the shaker at {v}; the protocol "
                    "asks for more, which is why it silently clamps.")
        if form == 4:
            (v,) = _draw(self.values, lambda: (f"NTC Cq {rng.randint(30, 36)}.{_pnum(rng, 2)}",))
            out = _out_qpcr(rng) + f"\nflag: {v} in H12 (threshold 0.2)"
            return (v, "shell", {"cmd": "cat exports/qpcr/latest.csv"}, out, "where the no-template control came up",
                    f"The {v} means the NTC amplified late — likely primer-dimer or low-level contamination.")
        if form == 5:
            (v,) = _draw(self.values, lambda: (f"QueuePool limit of size {rng.randint(5, 9)} overflow "
                                               f"{_pnum(rng, 2)}",))
            cmd = "compose logs scheduler"
            out = _out_docker(rng, cmd) + (f"\nscheduler-1  | sqlalchemy.exc.TimeoutError: {v} reached, connection "
                                           "timed out, timeout 30.00")
            return (v, "docker", {"cmd": cmd}, out, "what exhausts the scheduler's database connections",
                    f"Root cause: {v} — the LIMS calls hold a session open while they wait.")
        (v,) = _draw(self.values, lambda: (f"ends at {rng.randint(1, 9)}.{_pnum(rng, 1)} uL",))
        proto = f"protocols/{_pick(rng, ASSAYS)}/run.py"
        out = _out_simulate(rng, proto) + f"\nwarning: reservoir well A1 {v} (below dead volume)"
        return (v, "simulate", {"protocol": proto}, out, "how much buffer the reservoir ends with",
                f"The reservoir {v}, under the dead volume, so the last column will aspirate air. Add 2 mL.")

    # plans -----------------------------------------------------------------------------------------------------
    def plans(self, fracs: list[float]) -> None:
        rng = self.rng
        for frac in fracs:
            def make() -> tuple[str]:
                return ((f"pilot on bay {rng.randint(5, 9)} with {_pnum(rng, 2)} samples first",
                         f"cut over on the {rng.randint(11, 28)}th after the QA audit",
                         f"freeze protocol changes for {rng.randint(2, 9)} weeks during validation",
                         f"shadow-run {_pnum(rng, 2)} plates before dropping the manual step",
                         f"dry-run with dyed water on {_pnum(rng, 2)} plates")[rng.randint(0, 4)],)

            (v,) = _draw(self.values, make)
            text = rng.choice((
                f"계획은 이래. 먼저 scheduler PR 마무리하고, 그 다음 {v}, 문제 없으면 나머지 bay로 확장. "
                "마지막에 SOP 업데이트는 QA랑 같이.",
                f"Plan for the rollout:\n1. finish the simulate gate\n2. {v}\n3. then hand it to the operators",
                f"so here's what I'm thinking — we {v}, and only then we touch the other robots. makes sense?"))
            ev = self.event(frac, [_user(text), _say(f"Makes sense. Step two ({v}) is the risky one; I'll prepare "
                                                     "the worklist for it.")])
            self.plant("plan", v, "what the rollout plan does before going wide", ev, 0)


def _fractions(rng: random.Random, k: int, lo: float = 0.04, hi: float = 0.85) -> list[float]:
    return [lo + (hi - lo) * (j + rng.uniform(0.1, 0.9)) / k for j in range(k)]


def _layout(events: list[_Event], n: int) -> list[int]:
    """Filler sizes before each event and after the last (never 1), so that the session has exactly ``n``
    messages and every planted message lies between 3% and 88% of it."""
    lo, hi = -(-3 * n // 100), (88 * n) // 100
    latest = [0] * len(events)
    nxt = n - 1
    for i in range(len(events) - 1, -1, -1):
        e = events[i]
        latest[i] = min(hi - e.hi_off, nxt - len(e.msgs))
        nxt = latest[i]
    gaps: list[int] = []
    pos = 1
    for i, e in enumerate(events):
        earliest = max(pos, lo - e.lo_off)
        start = min(max(round(e.frac * n), earliest), latest[i])
        if start < earliest:
            raise ValueError(f"{n} messages are too few for the planted facts")
        gap = start - pos
        if gap == 1:
            gap = 0 if pos >= lo - e.lo_off else 2
        gaps.append(gap)
        pos += gap + len(e.msgs)
    tail = n - 1 - pos
    if tail == 1:
        for i in range(len(gaps) - 1, -1, -1):
            if gaps[i] >= 3 or gaps[i] == 2:
                tail += gaps[i] - (gaps[i] - 1 if gaps[i] >= 3 else 0)
                gaps[i] = gaps[i] - 1 if gaps[i] >= 3 else 0
                break
    if tail < 0 or tail == 1:
        raise ValueError(f"cannot lay out {n} messages")
    gaps.append(tail)
    return gaps


def make_session(seed: int = 1, messages: int = 400) -> Session:
    """A lab-automation session of exactly ``messages`` messages with ``per_kind(messages)`` facts of each kind."""
    if messages < MIN_MESSAGES:
        raise ValueError(f"a labauto session needs at least {MIN_MESSAGES} messages, got {messages}")
    rng = random.Random(seed)
    n = messages
    k = per_kind(n)
    builder = _Builder(rng, 2.5)
    planter = _Planter(rng, builder, n)
    ins = _fractions(rng, max(0, k - 2), 0.15) if k > 2 else []
    first = [0.045, 0.1][: min(k, 2)]
    planter.instructions(first + ins)
    planter.corrections(_fractions(rng, k, 0.08))
    planter.decisions(_fractions(rng, k, 0.07))
    planter.errors(_fractions(rng, k))
    planter.files(_fractions(rng, k))
    planter.identifiers(_fractions(rng, k))
    planter.findings(_fractions(rng, k))
    planter.plans(_fractions(rng, k))

    missing = [t for t in TOOLS if t not in builder.calls.used]
    if missing:  # small sessions: one look around that calls what nothing else did
        planter.event(rng.uniform(0.3, 0.6), [_user(rng.choice(("전체적으로 상태 한번 훑어봐", "quick health check of "
                                                                "everything pls"))),
                                              *builder.round(calls=len(missing), text="Checking everything at once."),
                                              _say(_answer(rng))])
    events = sorted(planter.events, key=lambda e: e.frac)
    for p in planter.plants:
        p.event.lo_off = min(p.event.lo_off, p.offset)
        p.event.hi_off = max(p.event.hi_off, p.offset)
        if p.stale_event is not None:
            p.stale_event.lo_off = min(p.stale_event.lo_off, p.stale_offset)
            p.stale_event.hi_off = max(p.stale_event.hi_off, p.stale_offset)
    gaps = _layout(events, n)
    out: list[Message] = [{"role": "system", "content": SYSTEM}]
    pasted: list[tuple[int, str]] = []

    # Tool outputs stretch or shrink so that the session lands near its size: what is left of the budget after
    # the planted episodes still to come, spread over the filler messages still to come.
    target = n * (CHARS_PER_MESSAGE + (100 * min(1.0, (n - 400) / 2600) if n > 400 else 0))
    have = [len(SYSTEM) + 40]
    ahead = [sum(len(text_of(m)) for e in events for m in e.msgs), sum(gaps)]

    def filler(size: int) -> None:
        while size > 0:
            s = size if size <= 9 else rng.randint(2, 9)
            if size - s == 1:
                s += 1 if s < size else -1
            need = (target - have[0] - ahead[0]) / max(1, ahead[1])
            tools = 0.6 * (s - 2) if s >= 4 else 0.0
            builder.mul = max(0.3, min(8.0, (need - 380) * s / (1830 * tools))) if tools else 1.0
            made = builder.episode(s, pasted, len(out))
            have[0] += sum(len(text_of(m)) for m in made)
            ahead[1] -= s
            out.extend(made)
            size -= s

    for gap, ev in zip(gaps, events):
        filler(gap)
        ev.start = len(out)
        out.extend(ev.msgs)
        done = sum(len(text_of(m)) for m in ev.msgs)
        have[0] += done
        ahead[0] -= done
        pasted.extend((ev.start + off, doc) for off, doc in ev.pasted)
    filler(gaps[-1])
    out.append(_user(rng.choice(("ok 오늘은 여기까지. 내일 이어서 하자", "good, let's stop here for today",
                                 "ㅇㅋ 정리해줘 나중에 볼게", "thanks, I'll check the results after lunch"))))
    facts = [Fact(p.kind, p.value, p.event.start + p.offset, p.query, p.stale,
                  None if p.stale_event is None else p.stale_event.start + p.stale_offset,
                  None if p.resolved is None else p.event.start + p.resolved) for p in planter.plants]
    facts.sort(key=lambda f: f.index)
    pasted.sort()
    return Session(messages=out, facts=facts, seed=seed, pasted=pasted)
