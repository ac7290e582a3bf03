"""Long HPC sessions of a climate modeller and their coding agent, with planted facts, for the fidelity bench.

A postdoc at a climate research institute in Hamburg works with a coding agent on ROCAM, a regional
ocean-atmosphere model for the North Sea and Baltic (Fortran 2008 and some C, MPI and OpenMP, CMake and
ctest, pFUnit tests) on the institute's cluster ``brise``: SLURM jobs (sbatch, squeue, sacct, job arrays,
OOM kills, walltime limits), NetCDF output (ncdump, cdo), Python post-processing (xarray, dask, matplotlib),
Spack modules, git, and in the end a data publication with a DOI. The user writes German, English and
both at once ("das Gitter passt, but the Randbedingungen are off"), sometimes at length and sometimes
in two words, and pastes what others wrote: the admins' maintenance mail, a referee's report, the
project's data-management policy, a colleague's mail about the forcing data, a SLURM accounting table
and a Fortran crash with its backtrace.

    from gen_hpc import make_session
    session = make_session(seed=1, messages=400)    # about 600k characters
    session = make_session(seed=1, messages=3000)   # about 4.7M characters
    for fact in session.facts:
        print(fact.kind, fact.index, fact.value, "-", fact.query)

``session.messages`` is an OpenAI chat: a system prompt, user turns, assistant turns whose
``tool_calls`` (see :data:`TOOLS`) are answered at once by ``tool`` messages (build logs, ctest and
pFUnit runs, model logs, squeue and sacct tables, NetCDF headers, xarray reprs, diffs), ending with an
answer and a last user turn. ``session.facts`` holds :func:`per_kind` facts of each of :data:`KINDS`,
planted between 3% and 88% of the session; a value occurs first in its own message and afterwards only
in the few messages that answer it. ``session.pasted`` lists what the user pasted rather than wrote.
Same seed and size, same bytes.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sessiongen import Fact, Message, Session, text_of

KINDS = ("instruction", "correction", "decision", "error", "file", "identifier", "finding", "plan")
TOOLS = ("shell", "sbatch", "squeue", "sacct", "read_file", "write_file", "edit_file", "ncdump", "git", "python")
MIN_MESSAGES = 60
CHARS_PER_MESSAGE = 1560  # what the size controller steers to: 400 messages ~ 624k characters

ROOT = "/work/bb1184/b381247/rocam"
DATA = "/work/bb1184/b381247/noba"
USER_ID = "b381247"
ACCOUNT = "bb1184"

Rng = random.Random


def per_kind(messages: int) -> int:
    """Facts of each kind in a session of ``messages``: 1 at 60, 6 at 400, 12 at 3000, linear in between."""
    if messages <= 400:
        return max(1, 1 + round(5 * (messages - 60) / 340))
    return 6 + round(6 * (messages - 400) / 2600)


# --- the filler's world ---------------------------------------------------------------------------------------
# Values are drawn from vocabularies the filler never uses (reserved words, odd job ids, node numbers 0500+),
# so a planted value cannot turn up in the noise.

SOURCES = ("src/ocean/tracer_adv.F90", "src/ocean/vert_mix.F90", "src/ocean/momentum.F90", "src/ocean/eos.F90",
           "src/ocean/sea_ice.F90", "src/ocean/tides.F90", "src/atmos/radiation.F90", "src/atmos/convection.F90",
           "src/atmos/surface_flux.F90", "src/atmos/boundary_layer.F90", "src/coupler/cpl_exchange.F90",
           "src/coupler/cpl_regrid.F90", "src/io/restart_io.F90", "src/io/history.F90", "src/util/mpp_domains.F90",
           "src/util/timers.F90", "src/main/rocam.F90")
C_SOURCES = ("src/io/nc_writer.c", "src/util/affinity.c")
FVARS = ("zt", "zs", "zrho", "zdep", "zflx", "ztke", "zu", "zv", "zw", "zssh", "zhdiv", "zcur", "zbot", "zfri",
         "zdiff", "zmsk", "zqsr", "zqns", "zemp", "ztau", "zcoef", "zdz", "zalpha", "zbeta")
ARRAYS = ("tsn", "tsb", "un", "vn", "wn", "e3t", "tmask", "avt", "avm", "rhd", "sshn", "hdivn", "qsr", "emp")
SUBS = ("step", "init", "update", "halo", "flux", "bc", "diag", "apply", "limit", "compute")
EXPS = ("noba_ctrl", "noba_spinup", "noba_hist", "noba_test", "noba_lowres", "noba_dbg")
VARS = ("tos", "sos", "zos", "uo", "vo", "mlotst", "siconc", "tas", "pr", "hfls", "hfss", "rsds", "psl", "uas")
PARTITIONS = ("compute", "compute", "compute", "shared", "interactive", "gpu")
PEOPLE = ("Jonas", "Miriam", "Tobias", "Frau Petersen", "Svenja", "Dr. Okafor", "Henrik", "Ayşe")
COMMIT_MSGS = ("fix halo exchange for corner points", "tracer_adv: vectorize inner loop", "add pFUnit test for eos",
               "cpl: log field checksums at debug level", "history: write bounds for rlat/rlon",
               "bump netcdf-fortran to 4.6.1 in spack env", "vert_mix: guard against zero e3t",
               "cmake: add -fbacktrace for Debug", "restart_io: use nf90_64bit_data", "post: quicklook script",
               "update namelist defaults for noba_ctrl", "radiation: read aerosol climatology once",
               "timers: report per-rank max/min", "sea_ice: clean up unused variables", "ci: run ctest with -j 8",
               "io: flush history every 24 steps", "docs: build instructions for brise")
BRANCHES = ("main", "develop", "feature/tke-limiter", "feature/cpl-timers", "bugfix/halo-corners", "wip/ice-albedo")
MODULES = ("intel-oneapi-compilers/2023.2.1", "gcc/11.2.0", "openmpi/4.1.5-gcc-11.2.0", "netcdf-c/4.9.2",
           "netcdf-fortran/4.6.1", "hdf5/1.14.1-2", "cdo/2.2.2", "nco/5.1.6", "python3/2023.01", "pfunit/4.7.3",
           "cmake/3.26.3", "parallel-netcdf/1.12.3", "esmf/8.5.0", "eccodes/2.30.0")
SHORT_REPLIES = ("ok", "go", "passt", "jo", "weiter", "ja mach", "ok danke", "hm, ok", "sounds good", "mach mal",
                 "klingt gut, go", "perfekt", "k", "yes pls", "gut so", "ja", "alles klar", "top", "ok weiter",
                 "jep", "ja bitte", "fine", "danke!", "ok, next", "na gut")


def _hex(rng: Rng, n: int) -> str:
    return "%0*x" % (n, rng.getrandbits(4 * n))


def _node(rng: Rng) -> str:  # filler nodes: b1c0100 .. b4c0499
    return f"b{rng.randint(1, 4)}c{rng.randint(100, 499):04d}"


def _nodelist(rng: Rng, nodes: int) -> str:
    if nodes == 1:
        return _node(rng)
    first = rng.randint(100, 499 - nodes)
    return f"b{rng.randint(1, 4)}c[{first:04d}-{first + nodes - 1:04d}]"


def _fortran_file(rng: Rng, path: str) -> list[str]:
    """About 300 lines of plausible NEMO-flavoured Fortran for one source file."""
    name = path.rsplit("/", 1)[1].split(".")[0]
    lines = [f"MODULE {name}", "   !!" + "=" * 70, f"   !!                       ***  MODULE  {name}  ***",
             "   !! ROCAM: regional ocean-atmosphere model, North Sea / Baltic", "   !!" + "=" * 70,
             "   USE par_kind, ONLY: wp, iwp", "   USE dom_oce          ! ocean space and time domain",
             "   USE mpp_domains      ! halo exchange", "   USE timers, ONLY: timer_start, timer_stop",
             "   USE logger, ONLY: log_info, log_warn", "", "   IMPLICIT NONE", "   PRIVATE", ""]
    subs = rng.sample(SUBS, 6)
    lines.append("   PUBLIC :: " + ", ".join(f"{name}_{s}" for s in subs))
    lines.append("")
    for s in subs:
        args = rng.sample(("kt", "kit000", "pdt", "ptab", "pfld", "kjpt", "ld_first"), 2)
        lines += [f"   SUBROUTINE {name}_{s}( {', '.join(args)} )", "      !!" + "-" * 60,
                  f"      !!                  ***  ROUTINE {name}_{s}  ***", "      !!" + "-" * 60,
                  f"      INTEGER , INTENT(in   ) :: {args[0]}", f"      REAL(wp), INTENT(inout) :: {args[1]}(:,:,:)",
                  "      INTEGER  :: ji, jj, jk", "      REAL(wp) :: " + ", ".join(rng.sample(FVARS, 4)), "",
                  f"      CALL timer_start('{name}_{s}')"]
        for _ in range(rng.randint(3, 6)):
            a, b, c = rng.sample(FVARS, 3)
            arr = rng.choice(ARRAYS)
            lines += ["      DO jk = 1, jpkm1", "         DO jj = 2, jpjm1", "            DO ji = 2, jpim1",
                      f"               {a} = {arr}(ji,jj,jk) * tmask(ji,jj,jk)",
                      f"               {b} = 0.5_wp * ( {a} + {arr}(ji+1,jj,jk) ) * r1_e1e2t(ji,jj)",
                      f"               {c} = MAX( {b}, 1.e-20_wp ) / e3t(ji,jj,jk)",
                      f"               {args[1]}(ji,jj,jk) = {args[1]}(ji,jj,jk) + pdt * {c}",
                      "            END DO", "         END DO", "      END DO"]
            if rng.random() < 0.5:
                lines += [f"      ! {rng.choice(('see ticket from Jonas', 'TODO: check halo width', 'limiter as in Zalesak', 'keep in sync with cpl_regrid'))}",
                          f"      CALL lbc_lnk( '{name}', {args[1]}, 'T', 1._wp )"]
        lines += [f"      IF( lwp .AND. MOD({args[0]}, 240) == 0 ) CALL log_info('{name}_{s}: ok')",
                  f"      CALL timer_stop('{name}_{s}')", "      !", f"   END SUBROUTINE {name}_{s}", ""]
    lines.append(f"END MODULE {name}")
    return lines


def _c_file(path: str) -> list[str]:
    name = path.rsplit("/", 1)[1].split(".")[0]
    body = ["#include <stdio.h>", "#include <stdlib.h>", "#include <netcdf.h>", "#include <netcdf_par.h>",
            "#include <mpi.h>", "", f"/* {name}: thin C layer called from Fortran via ISO_C_BINDING */", ""]
    for k, fn in enumerate(("open", "def_var", "put_slab", "sync", "close", "check")):
        body += [f"int rocam_{name}_{fn}(int ncid, int varid, const size_t *start, const size_t *count, const float *buf)",
                 "{", "    int status;", f"    status = nc_put_vara_float(ncid, varid + {k}, start, count, buf);",
                 "    if (status != NC_NOERR) {", f'        fprintf(stderr, "{name}_{fn}: %s\\n", nc_strerror(status));',
                 "        return status;", "    }", "    return NC_NOERR;", "}", ""]
    return body * 3


_POOL = random.Random(23)
SOURCE_TEXT: dict[str, list[str]] = {p: _fortran_file(_POOL, p) for p in SOURCES}
SOURCE_TEXT.update({p: _c_file(p) for p in C_SOURCES})


# --- the writer -----------------------------------------------------------------------------------------------

class _Writer:
    """Appends messages, keeps the running size and steers tool outputs toward CHARS_PER_MESSAGE."""

    def __init__(self, rng: Rng, n: int) -> None:
        self.rng = rng
        self.n = n
        self.messages: list[Message] = []
        self.facts: list[Fact] = []
        self.pasted: list[tuple[int, str]] = []
        self.chars = 0
        self.calls = 0
        self.job = 4_810_000 + 2 * rng.randrange(40_000)  # filler job ids are even
        self.minute = rng.randint(8 * 60, 10 * 60)
        self.day = rng.randint(4, 20)
        self.month = rng.choice(("02", "03", "04", "05"))
        self.step = rng.randint(2000, 9000) * 24

    # clocks and ids
    def tick(self, minutes: int | None = None) -> None:
        self.minute += minutes if minutes is not None else self.rng.randint(2, 25)
        if self.minute >= 21 * 60:
            self.minute = self.rng.randint(8 * 60, 9 * 60 + 30)
            self.day = self.day % 27 + 1

    def hhmm(self) -> str:
        return f"{self.minute // 60:02d}:{self.minute % 60:02d}"

    def date(self) -> str:
        return f"2024-{self.month}-{self.day:02d}"

    def stamp(self) -> str:
        return f"{self.date()}T{self.hhmm()}:{self.rng.randint(0, 59):02d}"

    def next_job(self) -> int:
        self.job += 2 * self.rng.randint(1, 400)
        return self.job

    def budget(self, scale: float = 1.0) -> int:
        deficit = CHARS_PER_MESSAGE * (len(self.messages) + 2) - self.chars
        base = self.rng.choice((900, 1500, 2200, 2800, 3300, 3900, 4600, 5600, 7000))
        return int(max(350, min(13000, base * scale + 0.6 * deficit)))

    # messages
    def _add(self, m: Message) -> int:
        self.messages.append(m)
        self.chars += len(text_of(m))
        return len(self.messages) - 1

    def user(self, text: str) -> int:
        self.tick()
        return self._add({"role": "user", "content": text})

    def say(self, text: str) -> int:
        return self._add({"role": "assistant", "content": text})

    def act(self, text: str, calls: list[tuple[str, dict[str, Any], Callable[[], str]]]) -> list[int]:
        """One assistant turn with ``calls`` (name, arguments, output maker), then their answers; tool indexes."""
        made = []
        for name, args, _ in calls:
            self.calls += 1
            made.append({"id": f"call_{self.calls:04d}_{_hex(self.rng, 8)}", "type": "function",
                         "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)}})
        self._add({"role": "assistant", "content": text, "tool_calls": made})
        out = []
        for call, (name, _, make) in zip(made, calls):
            out.append(self._add({"role": "tool", "tool_call_id": call["id"], "name": name, "content": make()}))
        self.tick(self.rng.randint(1, 6))
        return out

    def fact(self, kind: str, value: str, index: int, query: str, **extra: Any) -> None:
        self.facts.append(Fact(kind, value, index, query, **extra))


def _fill_lines(budget: int, head: list[str], make_line: Callable[[], str], tail: list[str]) -> str:
    lines = list(head)
    size = sum(len(x) + 1 for x in head) + sum(len(x) + 1 for x in tail)
    while size < budget:
        line = make_line()
        lines.append(line)
        size += len(line) + 1
    lines += tail
    return "\n".join(lines)


# --- tool outputs (filler and the noise around planted lines) -------------------------------------------------

def _build_log(w: _Writer, budget: int, compiler: str = "gfortran") -> list[str]:
    r = w.rng
    lines = [f"-- The Fortran compiler identification is {'GNU 11.2.0' if compiler == 'gfortran' else 'IntelLLVM 2023.2.1'}",
             "-- Found MPI_Fortran: /sw/spack/openmpi-4.1.5/lib/libmpi_usempif08.so (found version \"3.1\")",
             "-- Found NetCDF: /sw/spack/netcdf-fortran-4.6.1/include (found version \"4.6.1\")",
             "-- Found PFUNIT: /sw/spack/pfunit-4.7.3 (found version \"4.7.3\")", "-- Configuring done (2.1s)",
             "-- Generating done (0.4s)", f"-- Build files have been written to: {ROOT}/build-{'gcc' if compiler == 'gfortran' else 'intel'}"]
    size = sum(len(x) for x in lines)
    pct = 0
    while size < budget:
        src = r.choice(SOURCES)
        pct = min(99, pct + r.randint(1, 4))
        line = f"[{pct:3d}%] Building Fortran object src/CMakeFiles/rocam.dir/{src[4:]}.o"
        lines.append(line)
        size += len(line)
        if r.random() < 0.3:
            var = r.choice(FVARS)
            ln, col = r.randint(20, 300), r.randint(7, 40)
            warn = [f"{ROOT}/{src}:{ln}:{col}:", "", f"  {ln} |       REAL(wp) :: {var}, {r.choice(FVARS)}",
                    "      |                  1",
                    r.choice((f"Warning: Unused variable '{var}' declared at (1) [-Wunused-variable]",
                              f"Warning: '{var}' may be used uninitialized [-Wmaybe-uninitialized]",
                              "Warning: Possible change of value in conversion from REAL(8) to REAL(4) at (1) [-Wconversion]",
                              "Warning: Unused dummy argument 'kt' at (1) [-Wunused-dummy-argument]"))]
            lines += warn
            size += sum(len(x) for x in warn)
    return lines


def _ctest(w: _Writer, budget: int, failing: str | None = None, detail: list[str] | None = None) -> str:
    r = w.rng
    names = ["pfunit_eos", "pfunit_tracer_adv", "pfunit_vert_mix", "pfunit_halo", "pfunit_cpl_regrid",
             "pfunit_restart_io", "pfunit_timers", "pfunit_sea_ice", "pfunit_tides", "regression_noba_1d",
             "regression_noba_3step", "mpi_halo_4ranks", "mpi_halo_16ranks", "io_roundtrip_nc4", "io_roundtrip_nc3",
             "pfunit_radiation", "pfunit_surface_flux", "pfunit_convection", "smoke_coupled_2h"]
    total = len(names)
    head = [f"Test project {ROOT}/build-gcc"]
    lines = []
    for i, name in enumerate(names, 1):
        verdict = "***Failed " if failing and name == failing else "   Passed "
        lines.append(f"      Start {i:2d}: {name}")
        lines.append(f"{i:2d}/{total} Test #{i:2d}: {name} {'.' * (34 - len(name))}{verdict}{r.uniform(0.1, 40):6.2f} sec")
    out = head + lines
    if failing:
        out += ["", f"{100 - 100 // total}% tests passed, 1 tests failed out of {total}", "",
                f"Total Test time (real) = {r.uniform(60, 200):7.2f} sec", "", "The following tests FAILED:",
                f"\t{names.index(failing) + 1:2d} - {failing} (Failed)", "Errors while running CTest",
                "Output from these tests are in: " + ROOT + "/build-gcc/Testing/Temporary/LastTest.log",
                "Use \"--rerun-failed --output-on-failure\" to re-run the failed cases verbosely."]
        out += [""] + (detail or [])
    else:
        out += ["", f"100% tests passed, 0 tests failed out of {total}", "",
                f"Total Test time (real) = {r.uniform(60, 200):7.2f} sec"]
    text = "\n".join(out)
    if len(text) < budget:
        extra = _fill_lines(budget - len(text), ["", "-- verbose log excerpt (LastTest.log) --"],
                            lambda: f"  [{r.choice(names)}] {r.choice(('assert ok', 'halo ok', 'checksum ok', 'max err'))}"
                                    f" {r.uniform(0, 1e-9):.3e}  rank {r.randint(0, 15):2d}", [])
        text += "\n" + extra
    return text


def _model_log(w: _Writer, budget: int) -> str:
    r = w.rng
    year = r.randint(1993, 2008)
    head = [f"ROCAM v1.{r.randint(3, 5)}.{r.randint(0, 9)}  ({_hex(r, 7)})  started {w.stamp()}",
            f"  MPI ranks: {r.choice((256, 512, 1024))}   OpenMP threads: {r.choice((1, 2, 4))}   grid: 412 x 388 x 56",
            f"  namelist: {ROOT}/namelists/namelist_{r.choice(EXPS)}.nml"]

    def line() -> str:
        w.step += 1
        k = r.random()
        if k < 0.78:
            day = 1 + (w.step // 960) % 28
            return (f"  it={w.step:8d}  {year}-{1 + (w.step // 26880) % 12:02d}-{day:02d}T{(w.step // 40) % 24:02d}:00"
                    f"  ssh_max={r.uniform(0.5, 3):6.3f}  u_max={r.uniform(0.3, 2.2):6.3f}  cfl={r.uniform(0.1, 0.7):5.3f}"
                    f"  t_step={r.uniform(0.4, 1.6):5.3f}s")
        if k < 0.88:
            return f"  cpl: exchanged {r.choice((9, 14, 17))} fields (o->a) checksum {_hex(r, 12)}"
        if k < 0.94:
            return f"  WARNING: negative salinity clipped at {r.randint(1, 40)} points (min {-r.uniform(0, 0.02):.4f})"
        return f"  history: wrote {r.choice(VARS)}_{r.choice(EXPS)}_{year}.nc ({r.uniform(0.1, 4):.2f} GB)"
    return _fill_lines(budget, head, line, [f"  wallclock so far {r.randint(1, 7)}h{r.randint(0, 59):02d}m"])


def _squeue(w: _Writer, budget: int) -> str:
    r = w.rng
    head = [f"{'JOBID':>12} {'PARTITION':>9} {'NAME':>14} {'USER':>8} ST {'TIME':>11} {'NODES':>5} NODELIST(REASON)"]
    rows = []
    for _ in range(max(2, min(40, budget // 90))):
        st = r.choice(("R", "R", "R", "PD", "PD", "CG"))
        nodes = r.choice((1, 2, 4, 8, 16))
        job = w.next_job()
        name = r.choice(EXPS) + r.choice(("", "_a", "_b"))
        reason = _nodelist(r, nodes) if st != "PD" else r.choice(("(Priority)", "(Resources)", "(QOSMaxNodePerUserLimit)",
                                                                  "(Dependency)", "(ReqNodeNotAvail, Reserved for maintenance)"))
        elapsed = f"{r.randint(0, 7)}:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}" if st != "PD" else "0:00"
        rows.append(f"{job:>12} {r.choice(PARTITIONS):>9} {name:>14} {USER_ID:>8} {st:>2} {elapsed:>11} {nodes:>5} {reason}")
    return "\n".join(head + rows)


def _sacct(w: _Writer, budget: int) -> str:
    r = w.rng
    head = ["JobID           JobName  Partition    Account  AllocCPUS      State ExitCode    Elapsed     MaxRSS",
            "------------ ---------- ---------- ---------- ---------- ---------- -------- ---------- ----------"]
    rows = []
    while sum(len(x) for x in rows) < budget - 200:
        job = w.next_job()
        state = r.choice(("COMPLETED", "COMPLETED", "COMPLETED", "FAILED", "TIMEOUT", "CANCELLED+", "OUT_OF_ME+"))
        code = {"COMPLETED": "0:0", "FAILED": "1:0", "TIMEOUT": "0:0", "CANCELLED+": "0:15", "OUT_OF_ME+": "0:125"}[state]
        el = f"{r.randint(0, 7):02d}:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}"
        cpus = r.choice((128, 256, 512, 1024, 2048))
        rows.append(f"{job:<12} {r.choice(EXPS)[:10]:>10} {r.choice(PARTITIONS):>10} {ACCOUNT:>10} {cpus:>10} {state:>10} {code:>8} {el:>10} {'':>10}")
        rows.append(f"{str(job) + '.batch':<12} {'batch':>10} {'':>10} {ACCOUNT:>10} {128:>10} {state:>10} {code:>8} {el:>10} {r.randint(20000, 999999):>9}K")
        rows.append(f"{str(job) + '.0':<12} {'rocam':>10} {'':>10} {ACCOUNT:>10} {cpus:>10} {state:>10} {code:>8} {el:>10} {r.randint(20000, 999999):>9}K")
    return "\n".join(head + rows)


def _ncdump(w: _Writer, budget: int, var: str | None = None, exp: str | None = None) -> tuple[str, str]:
    r = w.rng
    var = var or r.choice(VARS)
    exp = exp or r.choice(EXPS)
    year = r.randint(1993, 2008)
    path = f"{DATA}/out/{exp}/{var}_{exp}_day_{year}.nc"
    lines = [f"netcdf {var}_{exp}_day_{year} {{", "dimensions:", "\ttime = UNLIMITED ; // (365 currently)",
             "\trlat = 412 ;", "\trlon = 388 ;", "\tbnds = 2 ;", "variables:", "\tdouble time(time) ;",
             '\t\ttime:units = "hours since 1993-01-01 00:00:00" ;', '\t\ttime:calendar = "standard" ;',
             '\t\ttime:bounds = "time_bnds" ;', "\tdouble rlat(rlat) ;", '\t\trlat:units = "degrees" ;',
             '\t\trlat:standard_name = "grid_latitude" ;', "\tdouble rlon(rlon) ;", '\t\trlon:units = "degrees" ;',
             "\tchar rotated_pole ;", '\t\trotated_pole:grid_mapping_name = "rotated_latitude_longitude" ;',
             f"\t\trotated_pole:grid_north_pole_latitude = {r.choice((39.25, 40.0, 42.5))} ;",
             f"\tfloat {var}(time, rlat, rlon) ;", f'\t\t{var}:long_name = "{var} daily mean" ;',
             f'\t\t{var}:_FillValue = 1.e+20f ;', f'\t\t{var}:cell_methods = "time: mean" ;',
             f'\t\t{var}:grid_mapping = "rotated_pole" ;', "", "// global attributes:",
             '\t\t:Conventions = "CF-1.8" ;', '\t\t:institution = "Institut fuer Kuestenklima, Hamburg" ;',
             f'\t\t:experiment_id = "{exp}" ;', f'\t\t:model_version = "rocam-1.{r.randint(3, 5)}" ;',
             f'\t\t:creation_date = "{w.stamp()}" ;']
    text = "\n".join(lines)
    if len(text) < budget:
        def data_line() -> str:
            return "    " + ", ".join(f"{r.uniform(270, 295):.2f}" for _ in range(8)) + ","
        text += "\n" + _fill_lines(budget - len(text), ["data:", "", f" {var} ="], data_line, [" ;", "}"])
    else:
        text += "\n}"
    return path, text


def _git_log(w: _Writer, budget: int) -> str:
    r = w.rng
    return _fill_lines(budget, [], lambda: f"{_hex(r, 7)} {r.choice(COMMIT_MSGS)} ({r.choice(PEOPLE[:3] + ('me',))}, "
                                           f"{r.randint(1, 30)} days ago)", [])


def _git_diff(w: _Writer, budget: int) -> str:
    r = w.rng
    src = r.choice(SOURCES)
    body = SOURCE_TEXT[src]
    out = [f"diff --git a/{src} b/{src}", f"index {_hex(r, 7)}..{_hex(r, 7)} 100644", f"--- a/{src}", f"+++ b/{src}"]
    size = sum(len(x) for x in out)
    while size < budget:
        start = r.randint(0, len(body) - 12)
        chunk = [f"@@ -{start + 1},9 +{start + 1},10 @@"] + [" " + x for x in body[start:start + 4]]
        chunk += ["-" + body[start + 4], "+" + body[start + 4].replace("0.5_wp", "0.5_wp * zcoef"),
                  f"+      ! changed {w.date()}, see {r.choice(PEOPLE)}'s mail"] + [" " + x for x in body[start + 5:start + 9]]
        out += chunk
        size += sum(len(x) for x in chunk)
    return "\n".join(out)


def _git_status(w: _Writer) -> str:
    r = w.rng
    files = r.sample(SOURCES, 3)
    return "\n".join([f"On branch {r.choice(BRANCHES)}", f"Your branch is ahead of 'origin/develop' by {r.randint(1, 6)} commits.",
                      "", "Changes not staged for commit:", '  (use "git add <file>..." to update what will be committed)']
                     + [f"\tmodified:   {f}" for f in files] + ["", "Untracked files:", "\tbuild-dbg/", "\tpost/scratch.ipynb"])


def _read_source(w: _Writer, budget: int, path: str | None = None) -> tuple[dict[str, Any], str]:
    r = w.rng
    path = path or r.choice(SOURCES + C_SOURCES)
    body = SOURCE_TEXT[path]
    count = max(15, min(len(body), budget // 48))
    start = r.randint(0, max(0, len(body) - count))
    text = "\n".join(f"{i + 1:6d}\t{body[i]}" for i in range(start, min(len(body), start + count)))
    return {"path": f"{ROOT}/{path}", "offset": start + 1, "limit": count}, text


def _xarray(w: _Writer, budget: int) -> tuple[str, str]:
    r = w.rng
    var = r.choice(VARS)
    exp = r.choice(EXPS)
    code = (f"import xarray as xr\nds = xr.open_mfdataset('{DATA}/out/{exp}/{var}_*.nc', chunks={{'time': 31}}, "
            f"parallel=True)\nprint(ds)\nprint(ds.{var}.mean(('rlat', 'rlon')).resample(time='1MS').mean().values)")
    lines = ["<xarray.Dataset> Size: 2GB", f"Dimensions:       (time: {365 * r.randint(2, 12)}, rlat: 412, rlon: 388, bnds: 2)",
             "Coordinates:", "  * time          (time) datetime64[ns] 1993-01-01T12:00:00 ... 2004-12-31T12:00:00",
             "  * rlat          (rlat) float64 3kB -10.5 -10.45 ... 10.0 10.05", "  * rlon          (rlon) float64 3kB -12.1 ... 7.25",
             "Data variables:", f"    {var:<13} (time, rlat, rlon) float32 dask.array<chunksize=(31, 412, 388), meta=np.ndarray>",
             "    time_bnds     (time, bnds) datetime64[ns] dask.array<chunksize=(365, 2), meta=np.ndarray>",
             "Attributes:", "    Conventions:    CF-1.8", f"    experiment_id:  {exp}", "["]
    text = "\n".join(lines)
    text += "\n" + _fill_lines(budget - len(text), [], lambda: " " + " ".join(f"{r.uniform(270, 295):.4f}" for _ in range(6)), ["]"])
    return code, text


def _stats_table(w: _Writer, budget: int) -> tuple[str, str]:
    r = w.rng
    var = r.choice(VARS)
    code = (f"import xarray as xr, pandas as pd\nfrom dask.distributed import Client\nclient = Client(n_workers=4)\n"
            f"# dashboard on port 8787\nds = xr.open_mfdataset('{DATA}/out/noba_ctrl/{var}_*.nc')\n"
            f"print(ds.{var}.groupby('time.month').mean().to_dataframe().describe())")
    head = [f"dask dashboard: http://127.0.0.1:{r.choice((8787, 8788, 40123))}/status",
            "[########################################] | 100% Completed | " + f"{r.uniform(5, 90):.1f}s",
            f"{'region':<14}{'month':>6}{'mean':>10}{'std':>9}{'min':>9}{'max':>9}{'n':>8}"]
    regions = ("north_sea", "baltic_prop", "skag_kat", "german_bight", "bothnian", "gulf_finl", "belt_sea")
    return code, _fill_lines(budget, head, lambda: f"{r.choice(regions):<14}{r.randint(1, 12):>6}{r.uniform(-2, 22):>10.3f}"
                                                   f"{r.uniform(0, 3):>9.3f}{r.uniform(-2, 5):>9.2f}{r.uniform(10, 25):>9.2f}"
                                                   f"{r.randint(2000, 99999):>8}", [])


def _cdo(w: _Writer, budget: int) -> tuple[str, str]:
    r = w.rng
    var, exp = r.choice(VARS), r.choice(EXPS)
    year = r.randint(1993, 2008)
    cmd = f"cdo -sinfon {DATA}/out/{exp}/{var}_{exp}_day_{year}.nc"
    head = ["   File format : NetCDF4 zip", "    -1 : Institut Source   T Steptype Levels Num    Points Num Dtype : Parameter name",
            f"     1 : unknown  rocam    v instant       1   1    159856   1  F32z : {var}",
            "   Grid coordinates :", "     1 : projection               : points=159856 (388x412)",
            "                              rlon : -12.1 to 7.25 by 0.05 degrees", "   Vertical coordinates :",
            "     1 : surface                  : levels=1", "   Time coordinate :", "                             time : 365 steps",
            "     RefTime =  1993-01-01 00:00:00  Units = hours  Calendar = standard  Bounds = true",
            "  YYYY-MM-DD hh:mm:ss  YYYY-MM-DD hh:mm:ss  YYYY-MM-DD hh:mm:ss  YYYY-MM-DD hh:mm:ss"]
    d = [0]

    def line() -> str:
        d[0] += 4
        return "  " + "  ".join(f"{year}-{1 + (d[0] + k) // 31 % 12:02d}-{1 + (d[0] + k) % 28:02d} 12:00:00" for k in range(4))
    return cmd, _fill_lines(budget, head, line, [f"cdo    sinfon: Processed 1 variable over 365 timesteps [{r.uniform(0.2, 3):.2f}s {r.randint(40, 400)}MB]."])


def _spack(w: _Writer, budget: int) -> tuple[str, str]:
    r = w.rng
    cmd = r.choice(("module avail 2>&1 | head -n 80", "spack find -lv netcdf-fortran hdf5 openmpi", "module list"))
    return cmd, _fill_lines(budget, ["-------------------- /sw/spack-levante/modules/linux-rhel8-zen3 --------------------"],
                            lambda: "   " + "   ".join(r.sample(MODULES, 3)) + ("   (D)" if r.random() < 0.2 else "")
                            if cmd.startswith("module") else f"{_hex(r, 7)} {r.choice(MODULES).replace('/', '@')}%gcc@11.2.0 "
                            f"+mpi+shared build_system={r.choice(('cmake', 'autotools'))}", [])


def _quota(w: _Writer) -> str:
    r = w.rng
    rows = ["Disk quotas for prj bb1184 (pid 1184):", "     Filesystem    used   quota   limit   grace   files   quota   limit   grace"]
    for fs in ("/work", "/scratch", "/home", "/arch"):
        rows.append(f"{fs:>15} {r.randint(1, 400):>6}T  {r.randint(400, 600):>5}T  {r.randint(600, 700):>5}T       -  "
                    f"{r.randint(10, 900):>4}k       0       0       -")
    return "\n".join(rows)


def _sbatch_script(exp: str, nodes: int, hours: int) -> str:
    return "\n".join(["#!/bin/bash", f"#SBATCH --job-name={exp}", "#SBATCH --partition=compute", f"#SBATCH --account={ACCOUNT}",
                      f"#SBATCH --nodes={nodes}", "#SBATCH --ntasks-per-node=128", f"#SBATCH --time={hours:02d}:00:00",
                      "#SBATCH --output=logs/%x_%j.out", "", "set -euo pipefail",
                      "module load intel-oneapi-compilers/2023.2.1 openmpi/4.1.5-gcc-11.2.0 netcdf-fortran/4.6.1",
                      "export OMP_NUM_THREADS=${SLURM_CPUS_PER_TASK:-1}", "export OMP_PLACES=cores",
                      f"cd {DATA}/run/{exp}", f"srun --cpu-bind=cores {ROOT}/build-intel/bin/rocam namelist_{exp}.nml"])


# --- filler ---------------------------------------------------------------------------------------------------

# (what the user asks, which filler call answers it first: see _filler_call)
ASKS_DE = (("kannst du mal schauen, wie weit {exp} ist?", 2), ("schau bitte mal ins Log von {exp}, ob das noch läuft", 2),
           ("wie sieht die Queue aus? ich hab das Gefühl, wir hängen schon ewig in PD", 3),
           ("mach mal einen Build mit gcc, ich will sehen ob die Warnungen weg sind", 0), ("lass bitte die Tests laufen", 1),
           ("was steht eigentlich in {src} um Zeile {line} rum?", 5), ("zeig mir mal den Header von einer {var}-Datei", 7),
           ("wie viel Speicher haben die letzten Jobs gebraucht?", 4), ("kannst du die Monatsmittel von {var} ausrechnen?", 12),
           ("was hat Jonas zuletzt gepusht?", 8), ("check mal git status, ich weiß nicht mehr was ich gestern geändert hab", 10),
           ("schick {exp} nochmal ab, gleiche Einstellungen", 15), ("welche Module haben wir eigentlich geladen?", 14),
           ("Moment mal, warum ist der Lauf so langsam? guck mal ins Log", 2), ("wie voll ist das Projekt-Quota?", 17),
           ("ich brauch für das Meeting um {time} eine Zahl: wie lange braucht ein Modelljahr?", 4),
           ("das Gitter sieht am Rand komisch aus, kannst du dir die Randbedingungen in {src} anschauen?", 5),
           ("kurz: laufen die pFUnit-Tests noch alle durch?", 1), ("zeig mal den diff, bevor wir committen", 9),
           ("mach mal ein cdo sinfon auf eine {var}-Datei, ich trau den Zeitschritten nicht", 13),
           ("lad die {var}-Dateien mal in xarray, passen die Dimensionen?", 11),
           ("in {src} bitte den Kommentar an der Stelle aktualisieren, die wir gestern besprochen haben", 16))
ASKS_EN = (("can you check where {exp} is at?", 2), ("pls look at the tail of the {exp} log", 2),
           ("what's in the queue right now?", 3), ("build it with gcc once more, I want to see the warnings", 0),
           ("run ctest again pls", 1), ("what does {src} do around line {line}?", 5), ("show me the header of one of the {var} files", 7),
           ("how much memory did the last runs need? sacct pls", 4), ("compute the monthly means of {var} for the ctrl run", 12),
           ("what did Jonas push last?", 8), ("git status? I lost track", 10), ("resubmit {exp}, same settings", 15),
           ("which modules are loaded in the job script?", 14), ("why is it so slow today? check the log", 2),
           ("how full is our quota?", 17), ("need a number for the {time} meeting: wall time per model year?", 4),
           ("the boundary looks weird, can you check the Randbedingungen in {src}?", 5),
           ("are the pFUnit tests still green?", 1), ("show me the diff before we commit", 9),
           ("cdo sinfon on one of the {var} files pls, I don't trust the time steps", 13),
           ("open the {var} files in xarray, do the dims match?", 11), ("update the comment in {src} we talked about yesterday", 16))
PRE_CALL = {0: ("Ich baue.", "Building."), 1: ("Kurz die Tests:", "Running ctest."), 2: ("Ich schau ins Log.", "Checking the log."),
            3: ("Queue:", "Checking the queue."), 4: ("sacct:", "Let me pull the accounting."), 5: ("Ich lese die Stelle.", "Reading it."),
            6: ("Ich lese die Datei.", "Let me read the file."), 7: ("Header:", "ncdump -h first."), 8: ("git log:", "Checking the history."),
            9: ("Der diff:", "Here's the diff."), 10: ("git status:", ""), 11: ("Ich lade das in xarray.", "Loading it."),
            12: ("Ich rechne das mit dask.", "Computing."), 13: ("cdo:", "Running cdo."), 14: ("Module:", "Checking modules."),
            15: ("Schicke ab.", "Submitting."), 16: ("Ich passe das an.", "Editing."), 17: ("Quota:", "")}
LONG_OPENERS = ("Guten Morgen! ", "So, ", "Hi, ", "Kurz zwischendurch: ", "ok next thing. ", "Noch eine Sache: ",
                "Miriam hat gerade gefragt, ob wir bis Freitag was zeigen können. ", "Back from the seminar. ",
                "Jonas meinte im Flur, dass der Cluster heute voll ist. ", "")
FILLER_TAILS = ("", "", " danke!", " thx", " (no rush)", " — eilt ein bisschen", " bitte", " pls", " :)",
                "\n\nps: um {time} bin ich im Meeting, dann antworte ich nicht.",
                "\n\nBtw, der Output liegt unter {data}/out, falls du den suchst.")


def _filler_user(w: _Writer) -> tuple[str, int, str]:
    """The user's filler turn, the call kind that answers it and the source file it names."""
    r = w.rng
    src = r.choice(SOURCES)
    if r.random() < 0.22:
        return r.choice(SHORT_REPLIES), r.randrange(18), src
    ask, kind = r.choice(ASKS_DE if r.random() < 0.55 else ASKS_EN)
    text = ask.format(exp=r.choice(EXPS), src=src, line=r.randint(20, 290), var=r.choice(VARS),
                      time=f"{r.randint(9, 17)}:{r.choice(('00', '15', '30', '45'))}")
    if r.random() < 0.25:
        text = text.replace("kannst", "kansnt").replace("the ", "teh ", 1) if r.random() < 0.5 else text.lower()
    tail = r.choice(FILLER_TAILS).format(time=f"{r.randint(9, 17)}:{r.choice(('00', '30'))}", data=DATA)
    return r.choice(LONG_OPENERS) + text + tail, kind, src


def _filler_call(w: _Writer, k: int, src: str) -> tuple[str, dict[str, Any], Callable[[], str]]:
    """One filler tool call of kind ``k`` and the maker of its output."""
    r = w.rng
    b = w.budget()
    if k == 0:
        return "shell", {"cmd": "cmake --build build-gcc -j 16 2>&1 | tail -n 200", "cwd": ROOT}, \
            lambda: "\n".join(_build_log(w, b) + ["[100%] Linking Fortran executable bin/rocam", "[100%] Built target rocam"])
    if k == 1:
        return "shell", {"cmd": "ctest --test-dir build-gcc -j 8 --output-on-failure", "cwd": ROOT}, lambda: _ctest(w, b)
    if k == 2:
        exp = r.choice(EXPS)
        return "shell", {"cmd": f"tail -n 300 {DATA}/run/{exp}/logs/{exp}_{w.next_job()}.out"}, lambda: _model_log(w, b)
    if k == 3:
        return "squeue", {"user": USER_ID, "format": "%.12i %.9P %.14j %.8u %.2t %.11M %.5D %R"}, lambda: _squeue(w, b)
    if k == 4:
        return "sacct", {"user": USER_ID, "starttime": f"{w.date()}-7days" if r.random() < 0.3 else "now-3days",
                         "format": "JobID,JobName,Partition,Account,AllocCPUS,State,ExitCode,Elapsed,MaxRSS"}, lambda: _sacct(w, b)
    if k in (5, 6):
        args, text = _read_source(w, b, src if k == 5 else None)
        return "read_file", args, lambda: text
    if k == 7:
        path, text = _ncdump(w, b)
        return "ncdump", {"path": path, "header_only": len(text) < 2500}, lambda: text
    if k == 8:
        return "git", {"args": f"log --oneline -n {max(10, b // 55)} {r.choice(BRANCHES)}"}, lambda: _git_log(w, b)
    if k == 9:
        return "git", {"args": "diff" if r.random() < 0.7 else "show HEAD~1"}, lambda: _git_diff(w, b)
    if k == 10:
        return "git", {"args": "status"}, lambda: _git_status(w)
    if k == 11:
        code, text = _xarray(w, b)
        return "python", {"code": code}, lambda: text
    if k == 12:
        code, text = _stats_table(w, b)
        return "python", {"code": code}, lambda: text
    if k == 13:
        cmd, text = _cdo(w, b)
        return "shell", {"cmd": cmd}, lambda: text
    if k == 14:
        cmd, text = _spack(w, b)
        return "shell", {"cmd": cmd}, lambda: text
    if k == 15:
        exp = r.choice(EXPS)
        job = w.next_job()
        return "sbatch", {"script": f"jobs/run_{exp}.sbatch", "args": [f"--dependency=afterok:{job - 2}"] if r.random() < 0.3 else []}, \
            lambda: f"sbatch: INFO: account {ACCOUNT} has {r.randint(20, 900)}k node-hours left\nSubmitted batch job {job}"
    if k == 17:
        return "shell", {"cmd": "lfs quota -hp 1184 /work && lfs quota -hp 1184 /scratch"}, lambda: _quota(w)
    body = SOURCE_TEXT[src]
    i = r.randint(20, len(body) - 5)
    old = body[i]
    return "edit_file", {"path": f"{ROOT}/{src}", "old": old, "new": old.rstrip() + "  ! checked"}, \
        lambda: f"Edited {ROOT}/{src}: 1 replacement at line {i + 1}."


def _agent_text(w: _Writer) -> str:
    """The agent's answer at the end of a filler turn: a verdict, a number in the second sentence, sometimes more."""
    r = w.rng
    n1, n2 = r.randint(2, 60), r.uniform(0.3, 9)
    first = r.choice(("Done.", "Erledigt.", "Looks fine overall.", "Sieht gut aus.", "Hm, gemischtes Bild.",
                      "Short version: nothing alarming.", "Kurzfassung:", "Here's what I see."))
    second = r.choice((f"{n1} jobs in the last three days, {r.randint(0, 4)} of them failed, the rest ran {n2:.1f} h on average.",
                       f"Ein Modelljahr braucht gerade etwa {n2:.1f} h Wallclock auf {r.choice((8, 16, 32))} Knoten.",
                       f"The build has {n1} warnings left, mostly unused variables in {r.choice(SOURCES)}:{r.randint(20, 300)}.",
                       f"Die Tests laufen in {n1 + 40} s durch, alle grün.",
                       f"Der Lauf ist bei Schritt {w.step}, cfl bleibt unter {r.uniform(0.5, 0.8):.2f}.",
                       f"{r.randint(1, 9)} Jobs stehen in PD mit Reason (Priority), der älteste seit {w.hhmm()}.",
                       f"The monthly means look plausible: {r.uniform(2, 8):.2f} to {r.uniform(15, 21):.2f} °C over the year.",
                       f"Quota: wir sind bei {r.randint(55, 90)}% auf /work, /scratch ist unkritisch."))
    parts = [f"{first} {second}"]
    roll = r.random()
    if roll < 0.25:
        done = r.sample(("Build gcc", "ctest", "Log noba_ctrl prüfen", "sacct-Auswertung", "Header checken", "Quicklook-Plot",
                         "Restart-Verzeichnis aufräumen", "Timer auswerten"), 4)
        parts.append("Todo:\n" + "\n".join(f"- [{'x' if i < 2 else ' '}] {t}" for i, t in enumerate(done)))
    elif roll < 0.45:
        parts.append(f"Option A: {r.choice(('wir warten auf die Queue', 'we rerun with more nodes', 'ich baue mit -O2 statt -O3'))}. "
                     f"Option B: {r.choice(('wir nehmen shared', 'we split the year into two jobs', 'ich schaue erst in die Timer'))}. "
                     "Was ist dir lieber?")
    elif roll < 0.6:
        parts.append(f'Relevant line: `{r.choice(SOURCES)}:{r.randint(20, 300)}`, and the config says '
                     f'`{{"nodes": {r.choice((8, 16))}, "ntasks_per_node": 128, "port": {r.choice((8787, 5432, 6006))}}}`.')
    elif roll < 0.7:
        parts.append(f"{r.choice(PEOPLE)} hatte um {r.randint(9, 17)}:{r.randint(0, 59):02d} geschrieben, dass der Knoten "
                     f"{_node(r)} gedrained ist — das erklärt die Wartezeit.")
    return "\n\n".join(parts)


def _filler(w: _Writer, size: int) -> None:
    """Exactly ``size`` messages (0, 2 or 4 and more): user asks, agent works in steps, agent answers."""
    assert size == 0 or size == 2 or size >= 4, size
    r = w.rng
    while size > 0:
        if size <= 12 and size != 3:
            block = size
        else:
            block = r.choice((2, 4, 4, 5, 6, 6, 7, 8, 9, 10))
            if size - block in (1, 3) or size - block < 0:
                continue
        size -= block
        text, kind, src = _filler_user(w)
        w.user(text)
        body = block - 2
        while body > 0:
            step = r.choice((2, 2, 3, 4)) if body >= 6 else (body if body <= 4 else 2)
            if body - step == 1:
                step = body if body <= 4 else 3
            body -= step
            kinds = [kind] + [r.randrange(18) for _ in range(step - 2)]
            w.act(r.choice(PRE_CALL[kind]), [_filler_call(w, k, src) for k in kinds])
            kind = r.choice((kind, r.randrange(18), 2, 3, 5))
        w.say(_agent_text(w))


# --- pasted documents -----------------------------------------------------------------------------------------

def _paste_maintenance(w: _Writer) -> str:
    r = w.rng
    day = r.randint(2, 27)
    return (f"From: HPC-Support brise <hpc-support@ikk-hamburg.example>\nSubject: [brise] Maintenance on {day:02d}.{w.month} — "
            f"Lustre update\n\nDear users,\n\non {day:02d}.{w.month}. from 07:00 to 19:00 the cluster brise will be unavailable "
            f"because of the Lustre server update to 2.15.{r.randint(3, 5)} and new firmware on the InfiniBand switches.\n\n"
            "Please make sure that your jobs end before 07:00. Jobs whose time limit reaches into the maintenance window "
            "will stay pending with the reason (ReqNodeNotAvail, Reserved for maintenance).\n"
            "Do not leave interactive sessions open on the login nodes; they will be terminated.\n"
            f"Please log out of login1 to login{r.randint(4, 6)} before 07:00 and do not start data transfers to /arch "
            "during the window.\n\nAfter the maintenance the default modules change (intel-oneapi-compilers/2024.0.2 "
            "becomes the default); recompile your codes if you link against MPI.\n\n"
            f"Reservation: maint_{w.month}{day:02d} (all partitions)\nTicket reference: [HPC #{r.randint(4000, 4999)}]\n\n"
            "Best regards,\nyour HPC team")


def _paste_review(w: _Writer) -> str:
    r = w.rng
    return (f"Referee #2 — Manuscript gmd-2024-{r.randint(100, 199)}\n\nGeneral comments\nThe manuscript presents a "
            f"coupled regional configuration for the North Sea and Baltic at 0.05° and evaluates {r.randint(8, 15)} years "
            "of hindcast. The study is relevant, but the evaluation is thin in places.\n\nSpecific comments\n"
            "1. Please quantify the drift of the deep Baltic salinity; the spin-up section does not convince me.\n"
            f"2. L. {r.randint(150, 260)}–{r.randint(261, 300)}: Do not call the bias \"small\" without a reference "
            "observation product.\n3. Fig. 5: the colour scale is not perceptually uniform; please revise it.\n"
            "4. Please provide the namelists and the exact model version (commit) in the code availability section.\n"
            "5. Make the ensemble spread visible in Fig. 8; show the individual members.\n"
            f"6. Table 2 lists {r.randint(200, 260)} vertical levels in one place and 56 in another — please check.\n\n"
            "Recommendation: major revision.")


def _paste_policy(w: _Writer) -> str:
    r = w.rng
    return (f"Data Management Plan, project NOBA (version {r.randint(2, 4)}.{r.randint(0, 9)}), section 4.2 Model output\n\n"
            "4.2.1 All model output intended for publication must be written as NetCDF-4 with CF-1.8 metadata and "
            "must carry a persistent identifier before it is cited.\n4.2.2 Raw output that is not published shall be "
            f"migrated to the tape archive within {r.choice((6, 9, 12))} months of its production.\n"
            "4.2.3 Do not store personal data in model metadata attributes.\n4.2.4 Every published dataset must "
            "reference the model code version by a tagged release or a commit hash.\n4.2.5 Please contact the data "
            f"steward ({r.choice(('K. Brandt', 'M. Lindqvist'))}, room {r.randint(100, 400)}) before any publication "
            "larger than 5 TB.")


def _paste_forcing(w: _Writer) -> str:
    r = w.rng
    return (f"Hi,\n\nthe new atmospheric forcing is ready: /work/bb1184/forcing/era5_v{r.randint(3, 4)}/ (hourly, "
            "1993–2012, already on the rotated grid). Please use these files and not the old v2 ones — v2 has a "
            "shifted time axis at leap days, which is probably what broke the February runs.\n\nTwo things: the "
            "runoff is still the old climatology, so don't compare river plumes yet. And please don't copy the whole "
            f"directory to /scratch, it's {r.randint(8, 19)} TB; link it instead.\n\nCheers,\nTobias\n\n-- \n"
            f"Tobias Kramer, Abt. Küstenklima, Tel. -{r.randint(4000, 4999)}")


def _paste_sacct(w: _Writer) -> str:
    return "$ sacct -X -u " + USER_ID + " --starttime now-7days\n" + _sacct(w, 900)


def _paste_crash(w: _Writer) -> str:
    r = w.rng
    src = r.choice(SOURCES)
    mod = src.rsplit("/", 1)[1].split(".")[0]
    return ("Program received signal SIGFPE: Floating-point exception - erroneous arithmetic operation.\n\n"
            "Backtrace for this error:\n"
            f"#0  0x{_hex(r, 12)} in ???\n#1  0x{_hex(r, 6)} in __{mod}_MOD_{mod}_{r.choice(SUBS)}\n"
            f"\tat {ROOT}/{src}:{r.randint(40, 280)}\n#2  0x{_hex(r, 6)} in __step_MOD_stp\n"
            f"\tat {ROOT}/src/main/step.F90:{r.randint(100, 200)}\n#3  0x{_hex(r, 6)} in MAIN__\n"
            f"\tat {ROOT}/src/main/rocam.F90:{r.randint(30, 80)}\n"
            f"srun: error: {_node(r)}: task {r.randint(0, 511)}: Floating point exception (core dumped)\n"
            "srun: Terminating StepId=" + f"{w.next_job()}.0\n"
            "Note: please check the backtrace above and rerun with -ffpe-trap=invalid,zero,overflow to locate the first NaN.")


PASTES: tuple[tuple[str, Callable[[_Writer], str], tuple[str, ...]], ...] = (
    ("maintenance", _paste_maintenance, ("Die Admins haben das hier rumgeschickt:", "fyi, from the admins:")),
    ("review", _paste_review, ("Der Review ist da. Reviewer 2:", "ok, here's referee 2, brace yourself:")),
    ("policy", _paste_policy, ("Aus unserem DMP, falls das relevant wird:", "The data policy says this:")),
    ("forcing", _paste_forcing, ("Mail von Tobias zu den Antrieben:", "Tobias wrote about the forcing:")),
    ("sacct", _paste_sacct, ("Das hat mir Jonas aus seinem Account geschickt:", "Jonas sent me his numbers:")),
    ("crash", _paste_crash, ("Das kam heute Nacht aus dem Lauf:", "this is what the run died with last night:")),
)


def _paste_event(w: _Writer, which: int) -> None:
    r = w.rng
    _, make, intros = PASTES[which]
    doc = make(w)
    ask = r.choice(("Was meinst du?", "What do we need to do about it?", "Lies das mal.", "Thoughts?",
                    "Müssen wir da was machen?", "Kannst du das einordnen?"))
    i = w.user(f"{r.choice(intros)}\n\n{doc}\n\n{ask}")
    w.pasted.append((i, doc))
    w.say(r.choice(("Gelesen. Das Wichtigste für uns: ", "Read it. What matters for us: ")) +
          r.choice(("wir müssen die Jobs so planen, dass sie vorher fertig sind — ich behalte das im Blick.",
                    "the numbers are consistent with what we saw; nothing to change right now.",
                    "die meisten Punkte sind machbar, Punkt 3 und 4 sind die meiste Arbeit.",
                    "the backtrace points into the mixing code; I'd rerun a short test with the FPE traps on.",
                    "ich würde das als Hinweis nehmen und noch nichts umbauen.")))


# --- what gets planted ----------------------------------------------------------------------------------------

class _Taken:
    """Values and stale values drawn so far: none may contain another."""

    def __init__(self) -> None:
        self.values: list[str] = []

    def fits(self, *cands: str) -> bool:
        for i, c in enumerate(cands):
            if any(c in t or t in c for t in self.values) or any(c in d or d in c for d in cands[:i]):
                return False
        return True

    def take(self, make: Callable[[], tuple[Any, ...]], keys: Callable[[Any], tuple[str, ...]]) -> Any:
        for _ in range(300):
            spec = make()
            if self.fits(*keys(spec)):
                self.values.extend(keys(spec))
                return spec
        raise RuntimeError("no fresh value")


REGIONS = ("gotland", "bornholm", "skagerrak", "kattegat", "doggerbank", "helgoland", "fehmarn", "ruegen", "jadebusen",
           "sylt", "oeresund", "bothnia", "arkona", "elbefahne")
TOPICS = ("upwelling", "frontzone", "mixedlayer", "shelfbreak", "eddyflux", "halocline", "icecover", "stormsurge",
          "overflow", "saltpulse")
STEMS = ("brine", "frazil", "runoff_sal", "swr_pen", "ice_drag", "bulk_cd", "hflx_lat", "dmp_sss", "stokes", "lam_pen",
         "albedo_snw", "tke_wave")
SUFFIXES = ("_acc", "_tot", "_cor", "_bnd", "_old", "_ini", "_lim", "_sum")
SEASONS = ("djf", "mam", "jja", "son")


def _value_node(r: Rng) -> str:  # value nodes: 0500 .. 0999, never in the filler
    return f"b{r.randint(1, 4)}c{r.randint(500, 999):04d}"


def _value_job(r: Rng) -> int:  # value job ids are odd, never in the filler
    return 4_810_001 + 2 * r.randrange(40_000)


def _near(r: Rng, s: str, digits: bool = True) -> str:
    """A near miss of ``s``: two of its last digits swapped, or one changed."""
    pos = [i for i, c in enumerate(s) if c.isdigit()] if digits else list(range(len(s)))
    if len(pos) >= 2 and r.random() < 0.5:
        i, j = pos[-2], pos[-1]
        if s[i] != s[j]:
            return s[:i] + s[j] + s[i + 1:j] + s[i] + s[j + 1:]
    i = r.choice(pos[-2:])
    return s[:i] + r.choice([d for d in "0123456789" if d != s[i]]) + s[i + 1:]


CONTEXTS = ("Der Lauf von gestern Nacht ist durch, sieht erstmal okay aus.", "Kurzes Update: Miriam will am Freitag die ersten Plots sehen.",
            "ok, the build is green again, thanks.", "Moment mal, bevor wir weitermachen:", "Bin gerade aus dem Gruppenmeeting raus.",
            "so, back from lunch.", "Jonas hat gefragt, ob wir das Gitter nochmal anfassen — erstmal nein.",
            "Die Randbedingungen sehen jetzt plausibel aus, passt.", "I looked at the sacct numbers over coffee.",
            "Kleiner Nachtrag zu vorhin.", "Noch was Grundsätzliches, bevor ich es vergesse.", "Guten Morgen :)",
            "Svenja hat mir gestern ihre Skripte gezeigt, daher das hier:", "quick one before the seminar.")


def _instruction_specs(r: Rng) -> list[Callable[[], dict[str, Any]]]:
    """Standing rules, as people write them: indirect, casual, German or English, some with a condition."""
    def cmap() -> dict[str, Any]:
        v = r.choice(("cmocean.thermal", "cmocean.balance", "cmocean.haline", "cmocean.deep", "cmocean.curl", "cmocean.tempo"))
        return dict(value=v, query="Which colour scale does the user want on every map?",
                    rule=f"Und für alle Karten: ich hätte gern {v} als Farbskala, bitte kein jet und kein rainbow mehr. "
                         "Miriam sieht das sonst sofort.", ack=f"Notiert — Karten ab jetzt mit {v}, kein jet/rainbow.")

    def branch() -> dict[str, Any]:
        v = f"release/noba-{r.randint(1, 2)}.{r.randint(0, 9)}"
        return dict(value=v, query="Which branch must never be pushed to directly?",
                    rule=f"we never push to {v} directly, that one only gets merges after Jonas reviewed them. feature branches, always.",
                    ack=f"Understood: nothing goes straight to {v}; I'll work on feature branches and open merge requests.")

    def frozen() -> dict[str, Any]:
        v = f"post/paper/fig{r.randint(2, 12):02d}_{r.choice(TOPICS)}.py"
        return dict(value=v, query="Which script must stay untouched until the referee has answered?",
                    rule=f"Bis Reviewer 2 geantwortet hat, bitte nichts an {v} ändern. Die Abbildung muss exakt "
                         "reproduzierbar bleiben, so wie sie eingereicht ist.",
                    ack=f"Ok, {v} bleibt unangetastet, bis die Antwort vom Reviewer da ist.")

    def nodes() -> dict[str, Any]:
        v = f"{r.choice((12, 20, 24, 48, 40, 36))} Knoten pro Job"
        return dict(value=v, query="What is the user's cap on the number of nodes a single job may use?",
                    rule=f"House rule bei uns: nie mehr als {v}, sonst ist unser Fairshare für die ganze Gruppe im Keller.",
                    ack=f"Alles klar, ich bleibe bei höchstens {v}.")

    def vault() -> dict[str, Any]:
        v = f"/arch/bb1184/rocam/{r.choice(TOPICS)}_vault"
        return dict(value=v, query="Where must restart files be archived before they may be deleted?",
                    rule=f"Restarts bitte erst löschen, wenn sie in {v} liegen — ich hab einmal ein halbes Jahr Spin-up verloren, nie wieder.",
                    ack=f"Verstanden: erst nach {v} archivieren, dann löschen.")

    def units() -> dict[str, Any]:
        v = r.choice(("days since 1949-12-01", "days since 1950-01-01", "days since 1979-01-01", "days since 1900-01-01"))
        return dict(value=v, query="Which units must the time axis of everything we write use?",
                    rule=f"I'd rather have one convention everywhere: the time axis is '{v}' in everything we write, "
                         "model output and post-processed files alike.",
                    ack=f"Got it — time units '{v}' for all files we write, I'll set that in the writers.")

    def prefix() -> dict[str, Any]:
        v = f"ROCAM-{r.randint(100, 999)}"
        return dict(value=v, query="Which ticket key must every commit message start with for now?",
                    rule=f"Commit-Messages bitte auf Englisch und immer mit {v} vorne dran, das ist das Ticket für die ganze Revision.",
                    ack=f"Mach ich: jede Commit-Message beginnt mit {v}.")

    def threads() -> dict[str, Any]:
        v = f"OMP_NUM_THREADS={r.choice((2, 3, 6))}"
        return dict(value=v, query="What thread setting does the user want until the memory problem is understood?",
                    rule=f"Solange das mit dem Speicher nicht geklärt ist: {v} in allen Jobskripten und nicht mehr, auch wenn es langsamer ist.",
                    ack=f"Ok, bis das Speicherproblem verstanden ist, setze ich überall {v}.")

    def scancel() -> dict[str, Any]:
        v = r.choice(("scancel -u", "scancel --user", "scancel --me"))
        return dict(value=v, query="Which way of cancelling jobs must never be used?",
                    rule=f"bitte nie `{v}` benutzen, immer nur einzelne Job-IDs. Da hängen manchmal Jobs von Svenja mit dran.",
                    ack=f"Klar, kein `{v}` — ich storniere nur einzelne Job-IDs.")

    def dpi() -> dict[str, Any]:
        v = f"{r.choice((350, 450, 500, 600))} dpi"
        return dict(value=v, query="At what resolution must figures be saved?",
                    rule=f"figures always as PDF plus a PNG at {v}, the journal's typesetting people complained last time.",
                    ack=f"Noted: PDF plus PNG at {v} for every figure.")

    def workers() -> dict[str, Any]:
        v = f"{r.choice((2, 3, 6, 8))} dask-Worker"
        return dict(value=v, query="How many dask workers may run on the login node?",
                    rule=f"Auf dem Login-Knoten maximal {v}, alles Größere per sbatch. Die Admins haben schon mal Prozesse gekillt.",
                    ack=f"Ok — auf dem Login-Knoten höchstens {v}, größere Auswertungen als Job.")

    def tryrun() -> dict[str, Any]:
        v = f"{r.choice((2, 3, 5))}-Tage-Testlauf"
        return dict(value=v, query="What must precede every production run?",
                    rule=f"Vor jedem Produktionslauf erst ein {v} auf der interactive-Partition, bitte. I don't want to burn node hours on typos.",
                    ack=f"Verstanden: vor jedem Produktionslauf erst ein {v}.")

    def contact() -> dict[str, Any]:
        v = r.choice(("Frau Hinrichsen", "Herrn Albers", "Frau Claußen", "Herrn Wöhlke"))
        return dict(value=v, query="Through whom do requests to the HPC support go?",
                    rule=f"Don't mail hpc-support directly pls, requests go through {v}, she/he bundles them for the group.",
                    ack=f"Ok, support requests only via {v}, I'll draft them for you to forward.")

    def naming() -> dict[str, Any]:
        v = f"<var>_NOBA{r.randint(10, 99)}_<freq>_<yyyy>.nc"
        return dict(value=v, query="Which naming scheme must post-processed files follow?",
                    rule=f"Dateinamen für alles Nachprozessierte nach dem Schema {v}, sonst findet Miriams Skript nichts.",
                    ack=f"Ok, Namensschema {v} für alle nachprozessierten Dateien.")
    return [cmap, branch, frozen, nodes, vault, units, prefix, threads, scancel, dpi, workers, tryrun, contact, naming]


def _adopted_specs(r: Rng) -> list[Callable[[], dict[str, Any]]]:
    """Rules the user adopts from a pasted document, restated in their own words outside the pasted text."""
    def walltime() -> dict[str, Any]:
        v = f"mehr als {r.choice((4, 6, 8, 10))} h Walltime"
        return dict(value=v, paste=0, query="Until the maintenance, what walltime must submitted jobs stay under?",
                    rule=f"Heißt für uns: bis zur Wartung schicken wir nichts mit {v} ab, lieber die Jahre aufteilen.",
                    ack=f"Ok, bis zur Wartung keine Jobs mit {v}; ich teile die Läufe in kürzere Segmente.")

    def tape() -> dict[str, Any]:
        v = f"nach {r.choice((2, 3, 4))} Monaten aufs Band"
        return dict(value=v, paste=2, query="What happens to raw output that is not published, in the user's own rule?",
                    rule=f"Für uns mach ich das strenger: unpublizierte Rohdaten {v}, nicht erst am Ende. Der Platz auf /work reicht sonst nicht.",
                    ack=f"Ok, unpublizierte Rohdaten gehen {v}. Ich merke mir die Produktionsdaten vor.")
    return [walltime, tape]


def _correction_specs(r: Rng) -> list[tuple[bool, Callable[[], dict[str, Any]]]]:
    """(near miss?, maker of stale value, value and the user's two messages)."""
    def node() -> dict[str, Any]:
        s = _value_node(r)
        v = _near(r, s)
        return dict(stale=s, value=v, query="Which node should be excluded from our jobs?",
                    said=f"{s} hat laut Admins ECC-Fehler, nimm den bitte per --exclude aus allen Jobs raus.",
                    fix=r.choice((f"Moment mal, falsche Node — nicht {s}, sondern {v}. Sorry.",
                                  f"ugh, I gave you the wrong node: it's {v}, not {s}.")),
                    ack_said=f"Ok, {s} kommt per --exclude raus.", ack_fix=f"Danke — ich nehme {v} raus und lasse {s} wieder zu.")

    def account() -> dict[str, Any]:
        s = f"bb1{r.randint(200, 999)}"
        v = _near(r, s)
        return dict(stale=s, value=v, query="Which project account should the extra runs be charged to?",
                    said=f"Die Sensitivitätsläufe bitte über unser Zweitprojekt {s} abrechnen, bb1184 ist fast leer.",
                    fix=r.choice((f"I gave you the wrong project id — it's {v}, not {s}. My bad.",
                                  f"sorry, ich meinte {v}. {s} gibt's gar nicht.")),
                    ack_said=f"Ok, Sensitivitätsläufe über {s}.", ack_fix=f"Alles klar, Konto {v} für die Sensitivitätsläufe.")

    def experiment() -> dict[str, Any]:
        s = f"NOBA-E{r.randint(10, 98):03d}"
        v = _near(r, s)
        return dict(stale=s, value=v, query="Which experiment is the reference run for the comparison?",
                    said=f"The reference for all comparisons is {s}, that's the one with the new Randbedingungen.",
                    fix=r.choice((f"the other one! {v} is the reference, {s} was the broken one.",
                                  f"nicht {s}, sondern {v} — ich verwechsle die immer.")),
                    ack_said=f"Ok, {s} as the reference.", ack_fix=f"Got it: comparisons against {v} from now on.")

    def restart() -> dict[str, Any]:
        s = f"rst.{r.randint(1994, 2006)}-{r.choice(('01', '04', '07', '10'))}-01"
        v = s[:9] + r.choice([m for m in ("01", "04", "07", "10") if m != s[9:11]]) + s[11:]
        return dict(stale=s, value=v, query="From which restart should the rerun start?",
                    said=f"Starte den neuen Lauf bitte vom Restart {s}, die davor sind mit dem alten Gitter.",
                    fix=r.choice((f"sorry, ich meinte {v}, nicht {s}.", f"no wait, {v} — {s} is before the fix.")),
                    ack_said=f"Ok, Neustart ab {s}.", ack_fix=f"Ok, dann ab {v}.")

    def ticket() -> dict[str, Any]:
        s = f"RT#{r.randint(210000, 229999)}"
        v = _near(r, s)
        return dict(stale=s, value=v, query="What is the number of the support ticket about the Lustre errors?",
                    said=f"Das Ticket zu den Lustre-Fehlern ist {s}, falls du im Log was dazu findest.",
                    fix=r.choice((f"Zahlendreher: das Ticket ist {v}, nicht {s}.", f"wrong ticket number earlier — {v}, not {s}.")),
                    ack_said=f"Notiert: {s}.", ack_fix=f"Korrigiert, Ticket {v}.")

    def period() -> dict[str, Any]:
        a = r.randint(1993, 2000)
        s = f"ERA5 {a}-{a + 9}"
        v = f"ERA5 {a - 1}-{a + 8}" if r.random() < 0.5 else f"ERA5 {a + 1}-{a + 10}"
        return dict(stale=s, value=v, query="Which forcing period should the hindcast use?",
                    said=f"Für den Hindcast nehmen wir {s} als Antrieb, zehn Jahre reichen für das Paper.",
                    fix=r.choice((f"Moment mal — {v}, nicht {s}. Ich hab mich um ein Jahr vertan.",
                                  f"I gave you the wrong years: {v}, not {s}.")),
                    ack_said=f"Ok, Antrieb {s}.", ack_fix=f"Ok, dann {v}.")

    def season() -> dict[str, Any]:
        stat = r.choice(("sst_bias", "sss_bias", "mld_anom", "ice_frac"))
        a, b = r.sample(SEASONS, 2)
        s, v = f"{stat}_{a}_{r.choice(REGIONS)}", ""
        v = s.replace(f"_{a}_", f"_{b}_")
        return dict(stale=s, value=v, query="Which variable should the new panel of the figure show?",
                    said=f"Für das neue Panel brauchen wir {s}, das wollte Reviewer 2 sehen.",
                    fix=r.choice((f"vergiss das mit {s}, ich meinte {v}.", f"no wait, the panel is {v}, not {s}.")),
                    ack_said=f"Ok, Panel mit {s}.", ack_fix=f"Ok, dann {v} statt {s}.")

    def spackenv() -> dict[str, Any]:
        s = f"rocam-oneapi-{r.choice((2022, 2023))}.{r.randint(1, 3)}"
        v = s[:-1] + r.choice([d for d in "0123" if d != s[-1]])
        return dict(stale=s, value=v, query="Which Spack environment should the builds use?",
                    said=f"Bau bitte im Spack-Environment {s}, das hat die richtige HDF5-Version.",
                    fix=r.choice((f"falsches Env, sorry: {v}, nicht {s}.", f"the other one — {v}. {s} has the broken hdf5.")),
                    ack_said=f"Ok, Environment {s}.", ack_fix=f"Ok, ich aktiviere {v}.")

    def commit() -> dict[str, Any]:
        s, v = _hex(r, 8), _hex(r, 8)
        return dict(stale=s, value=v, query="Which commit is the last known good one for the bisect?",
                    said=f"Der letzte gute Stand war {s}, glaube ich. Ab da ist irgendwas mit dem Salzgehalt kaputt.",
                    fix=r.choice((f"no wait, the other one: {v}. {s} already had the bug.",
                                  f"nee, nicht {s}, sondern {v} war der letzte gute.")),
                    ack_said=f"Ok, {s} als good.", ack_fix=f"Got it, bisect good = {v}.")

    def outdir() -> dict[str, Any]:
        s = f"{DATA}/pub/{r.choice(TOPICS)}_{r.randint(1, 9)}"
        v = f"{DATA}/pub/{r.choice(REGIONS)}_{r.randint(1, 9)}"
        return dict(stale=s, value=v, query="Into which directory should the publication files go?",
                    said=f"Die Dateien für die Publikation bitte nach {s}.",
                    fix=r.choice((f"I gave you the wrong folder, {v} is where they go, not {s}.",
                                  f"vergiss das mit {s}, die kommen nach {v}.")),
                    ack_said=f"Ok, Ziel {s}.", ack_fix=f"Ok, Ziel ist {v}.")
    return [(True, node), (True, account), (True, experiment), (True, restart), (True, ticket), (True, period),
            (True, season), (True, spackenv), (False, commit), (False, outdir)]


DECISIONS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("der Advektion", "the tracer advection scheme", ("MPDATA", "WENO5", "TVD-Superbee", "PPM-Lin", "QUICKEST")),
    ("der Bathymetrie", "the bathymetry dataset", ("GEBCO_2023", "EMODnet-2022", "ETOPO-2022", "SRTM30_PLUS")),
    ("der Vertikalkoordinate", "the vertical coordinate", ("z-star", "sigma-z", "s-Koordinaten (SZ)", "z-Level mit partial cells")),
    ("dem Antrieb", "the atmospheric forcing product", ("CERRA", "COSMO-REA6", "ERA5-Land", "NORA3")),
    ("dem Datenrepositorium", "the data repository", ("WDCC", "PANGAEA", "Zenodo")),
    ("dem MPI/OpenMP-Layout", "the MPI/OpenMP layout", ("32 Ranks x 4 Threads", "128 Ranks pure MPI", "64 Ranks x 2 Threads", "16 Ranks x 8 Threads")),
    ("der Kopplung", "the coupling interval", ("Kopplung alle 1800 s", "Kopplung alle 3600 s", "Kopplung alle 900 s", "Kopplung alle 600 s")),
    ("dem parallelen I/O", "the parallel I/O path", ("XIOS-Server", "PnetCDF", "NetCDF-4 via HDF5-MPIIO", "one file per rank + ncrcat")),
    ("der Kartenprojektion", "the map projection", ("Rotated-Pole-Karte", "Lambert-Projektion", "stereographische Projektion")),
    ("dem Spin-up", "the spin-up length", ("Spin-up 20 Jahre", "Spin-up 35 Jahre", "Spin-up 50 Jahre")),
    ("dem Compiler für die Produktion", "the production compiler", ("ifx -O3 -xCORE-AVX2", "gfortran -O3 -march=znver3", "nvfortran -fast")),
    ("dem Ensemble-Setup", "the ensemble setup", ("Job-Array mit 10 Membern", "ein Job pro Member", "srun --multi-prog")),
)
CHOOSE = ("let's go with {v}.", "wir nehmen {v}, Ende der Diskussion.", "ok, entschieden: {v}.", "I'd go with {v} then.",
          "passt, dann {v}.", "dann machen wir {v}, das hat Miriam auch so gewollt.")
REVISE = ("Ich hab nochmal drüber geschlafen: doch lieber {v} statt {s}.", "scratch {s}, we're switching to {v}.",
          "change of plans — {v} instead of {s}, {s} costs too much.", "nicht {s}, sondern {v}. Hab mit Jonas geredet.")


def _plan_specs(r: Rng) -> list[Callable[[], dict[str, Any]]]:
    def sensitivity() -> dict[str, Any]:
        a = r.choice((150, 200, 300))
        v = f"Kh = {a} und {a * 2} m²/s"
        return dict(value=v, query="Which diffusivity values are the planned sensitivity runs to use?",
                    text=f"Mein Plan für die nächsten zwei Wochen: zuerst die Randbedingungen fertig machen, dann die "
                         f"Sensitivitätsläufe mit {v}, und erst danach schreiben wir die Antwort an den Reviewer.")

    def scaling() -> dict[str, Any]:
        a = r.choice((4, 6, 8))
        v = f"{a}, {a * 2} und {a * 4} Knoten"
        return dict(value=v, query="At which node counts is the planned scaling test to run?",
                    text=f"So würde ich's machen:\n1. Skalierungstest mit {v}, je ein Modellmonat\n2. die beste "
                         "Konfiguration für die Produktion nehmen\n3. dann erst das Ensemble starten")

    def rerun() -> dict[str, Any]:
        y = r.randint(1994, 2001)
        v = f"rerun of the hindcast {y}-{y + 11}"
        return dict(value=v, query="Which rerun does the plan put right after the conservation fix?",
                    text=f"plan: first fix the tracer conservation, then a {v} with the fixed code, then the plots for "
                         "referee 2, and the data publication last.")

    def week() -> dict[str, Any]:
        d = r.choice((3, 5, 7))
        v = f"Testlauf über {d} Modelltage"
        return dict(value=v, query="What does the plan schedule for Wednesday?",
                    text=f"Vorschlag für die Woche: Montag Restarts prüfen, Dienstag die neuen Randbedingungen einbauen, "
                         f"Mittwoch ein {v}, Donnerstag Produktion, Freitag Plots für Miriam.")

    def ensemble() -> dict[str, Any]:
        m = r.choice((6, 8, 12, 15))
        v = f"{m} Member mit gestörten Anfangsbedingungen"
        return dict(value=v, query="What kind of ensemble does the plan describe?",
                    text=f"Für die Revision: wir rechnen ein Ensemble aus {v}, jedes Member 10 Jahre, "
                         "alles als Job-Array. Danach die Spreads in Fig. 8 und dann ab damit.")

    def bisect() -> dict[str, Any]:
        a, b = r.randint(0, 3), r.randint(4, 6)
        v = f"v1.{a}.2 und v1.{b}.0"
        return dict(value=v, query="Between which two releases is the planned bisect to run?",
                    text=f"Ich würde so vorgehen: erst bisecten wir zwischen {v}, jeweils mit dem 3-Tage-Regressionstest, "
                         "und wenn wir den Commit haben, schreiben wir dann einen pFUnit-Test dafür.")

    def publish() -> dict[str, Any]:
        t = r.choice((4, 7, 9, 12))
        v = f"nur Monatsmittel, etwa {t} TB"
        return dict(value=v, query="What does the plan say the published dataset will contain?",
                    text=f"For the data paper I'm thinking: {v}, the 14 core variables, CF-checked, then the DOI, and only "
                         "after that we update the code availability section.")

    def spinup() -> dict[str, Any]:
        y = r.choice((1961, 1971, 1979))
        v = f"Spin-up ab {y} mit Klimatologie"
        return dict(value=v, query="How does the plan start the model before the hindcast?",
                    text=f"Reihenfolge wäre: erst {v}, dann Übergang auf den echten Antrieb, und parallel baue ich die "
                         "Auswertung für die Salzgehaltsdrift.")
    return [sensitivity, scaling, rerun, week, ensemble, bisect, publish, spinup]


# --- the episodes that plant ----------------------------------------------------------------------------------

@dataclass
class _Event:
    pos: float
    size: int
    offset: int  # where the fact sits in the block (-1: no fact)
    build: Callable[[_Writer], None]
    order: int = 0
    fact: bool = True  # False for what is said before a correction or a revised decision


def _plan_session(rng: Rng, n: int) -> list[_Event]:
    k = per_kind(n)
    taken = _Taken()
    events: list[_Event] = []

    lo, hi = 0.045 * n, 0.82 * n
    slots = [lo + (hi - lo) * i / max(1, 8 * k - 1) for i in range(8 * k)]
    slots = [s + rng.uniform(-0.3, 0.3) * (hi - lo) / max(1, 8 * k) if 0 < i else s for i, s in enumerate(slots)]
    kinds = [kind for kind in KINDS for _ in range(k)]
    kinds.remove("instruction")
    second = k >= 2
    if second:
        kinds.remove("instruction")
    rng.shuffle(kinds)
    order = ["instruction"] + (["instruction"] if second else []) + kinds
    if second:  # the second rule within the first seventh
        j = max(i for i, s in enumerate(slots) if s <= 0.11 * n or i == 1)
        order.insert(j, order.pop(1))
    # corrections and revised decisions need room before them for what they replace
    for i in range(len(order)):
        if order[i] in ("correction", "decision") and slots[i] < 0.035 * n + 10:
            for j in range(len(order) - 1, i, -1):
                if order[j] not in ("correction", "decision", "instruction"):
                    order[i], order[j] = order[j], order[i]
                    break

    n_dec = k
    n_revised = max(1, n_dec // 3)
    n_resolved = max(1, k // 2)
    n_tool_ident = max(1, k // 2) if k >= 2 else rng.randint(0, 1)
    n_adopted = 0 if k < 4 else (1 if k < 8 else 2)
    n_far = 0 if n < 250 else max(2, k // 2)

    instr = _instruction_specs(rng)
    rng.shuffle(instr)
    adopted = _adopted_specs(rng)
    rng.shuffle(adopted)
    corr = _correction_specs(rng)
    near = [c for c in corr if c[0]]
    loose = [c for c in corr if not c[0]]
    rng.shuffle(near)
    rng.shuffle(loose)
    n_near = max((k + 1) // 2, k - len(loose)) if k > 1 else 1
    corr_makers = [c[1] for c in (near * 3)[:n_near]] + [c[1] for c in (loose * 6)[:k - n_near]]
    rng.shuffle(corr_makers)
    topics = list(DECISIONS)
    rng.shuffle(topics)
    plans = _plan_specs(rng)
    rng.shuffle(plans)
    tool_idents, user_idents = _tool_ident_specs(rng), _user_ident_specs(rng)
    findings, files, errors = _finding_specs(rng), _file_specs(rng), _error_specs(rng)
    for makers in (tool_idents, user_idents, findings, files, errors):
        rng.shuffle(makers)

    counters = {kind: 0 for kind in KINDS}
    far_left = n_far
    instr_i = 0
    for slot, kind in zip(slots, order):
        c = counters[kind]
        counters[kind] += 1
        if kind == "instruction":
            use_adopted = c >= 2 and n_adopted > 0 and c % 4 == 3 and c // 4 < n_adopted
            if use_adopted:
                spec = taken.take(adopted[c // 4 % len(adopted)], lambda s: (s["value"],))
                events.append(_Event(slot, 2, 0, _instruction_event(spec, c)))
                continue
            while True:
                try:
                    spec = taken.take(instr[instr_i % len(instr)], lambda s: (s["value"],))
                    instr_i += 1
                    break
                except RuntimeError:
                    instr_i += 1
            events.append(_Event(slot, 2, 0, _instruction_event(spec, c)))
        elif kind == "correction":
            spec = taken.take(corr_makers[c], lambda s: (s["stale"], s["value"]))
            room = slot - 0.035 * n - 2
            if far_left > 0 and room > 140:
                gap = rng.uniform(130, min(room, 130 + 0.15 * n))
                far_left -= 1
            else:
                gap = rng.uniform(min(6.0, room), max(6.0, min(room, 40.0)))
            holder: dict[str, int] = {}
            events.append(_Event(slot - gap, 2, 0, _said_event(spec, holder), fact=False))
            events.append(_Event(slot, 2, 0, _correction_event(spec, holder, rng.random() < 0.4)))
        elif kind == "decision":
            de, topic, options = topics[c % len(topics)]
            if c < n_revised:
                spec = taken.take(lambda o=options: tuple(rng.sample(o, 2)), lambda s: s)
                room = slot - 0.035 * n - 2
                gap = rng.uniform(min(6.0, room), max(6.0, min(room, 0.2 * n)))
                holder = {}
                events.append(_Event(slot - gap, 2, 0, _choice_event(de, topic, spec[0], holder), fact=False))
                events.append(_Event(slot, 2, 0, _decision_event(de, topic, spec[1], spec[0], holder)))
            else:
                spec = taken.take(lambda o=options: (rng.choice(o),), lambda s: s)
                events.append(_Event(slot, 2, 0, _decision_event(de, topic, spec[0], None, None)))
        elif kind == "plan":
            spec = taken.take(plans[c % len(plans)], lambda s: (s["value"],))
            events.append(_Event(slot, 2, 0, _plan_event(spec)))
        elif kind == "identifier":
            by_tool = c < n_tool_ident
            maker = tool_idents[c % len(tool_idents)] if by_tool else user_idents[c % len(user_idents)]
            spec = taken.take(maker, lambda s: (s["value"],))
            events.append(_Event(slot, 4 if by_tool else 2, 2 if by_tool else 0, _ident_event(spec, by_tool)))
        elif kind == "finding":
            spec = taken.take(findings[c % len(findings)], lambda s: (s["value"],))
            events.append(_Event(slot, 4, 2, _finding_event(spec)))
        elif kind == "file":
            spec = taken.take(files[c % len(files)], lambda s: (s["value"],))
            events.append(_Event(slot, 4, 1, _file_event(spec)))
        else:
            resolved = c < n_resolved
            spec = taken.take(errors[c % len(errors)], lambda s: (s["value"],))
            events.append(_Event(slot, 8 if resolved else 4, 2, _error_event(spec, resolved)))
    # pasted documents and the morning check that touches every tool
    n_paste = max(1, min(14, round(n / 70)))
    whiches = [i % len(PASTES) for i in range(n_paste)]
    rng.shuffle(whiches)
    for which in whiches:
        events.append(_Event(rng.uniform(0.16 * n, 0.95 * n), 2, -1, lambda w, which=which: _paste_event(w, which)))
    events.append(_Event(rng.uniform(0.2 * n, 0.7 * n), 12, -1, _tour_event))
    for i, e in enumerate(events):
        e.order = i
    return events


def _layout(events: list[_Event], n: int) -> list[int] | None:
    """Start index of each event (sorted by position), gaps never 1 or 3; None if a fact would pass 88%."""
    starts = []
    cur = 1
    last = len(events) - 1
    for i, e in enumerate(events):
        want = max(0, round(e.pos) - cur)
        options = [g for g in range(want, want + 6) if g not in (1, 3)]
        if i == last:
            options = [g for g in options if n - 1 - (cur + g + e.size) in (0, 2) or n - 1 - (cur + g + e.size) >= 4]
            options += [g for g in range(want - 1, -1, -1) if g not in (1, 3)
                        and (n - 1 - (cur + g + e.size) in (0, 2) or n - 1 - (cur + g + e.size) >= 4)]
            if not options:
                return None
        gap = options[0]
        starts.append(cur + gap)
        cur += gap + e.size
        if e.offset >= 0 and cur - e.size + e.offset > 0.88 * n:
            return None
    return starts


def _arrange(planned: list[_Event], n: int) -> tuple[list[_Event], list[int], bool] | None:
    """The events in order with their start indexes, squeezed toward the start until every fact is before 88%, and
    whether the facts are spread over all three thirds (each holding a sixth of them or more)."""
    events = sorted((_Event(e.pos, e.size, e.offset, e.build, e.order, e.fact) for e in planned), key=lambda e: (e.pos, e.order))
    for _ in range(25):
        starts = _layout(events, n)
        if starts is not None:
            at = [s + e.offset for e, s in zip(events, starts) if e.offset >= 0 and e.fact]
            thirds = [sum(1 for i in at if min(2, i * 3 // n) == t) for t in range(3)]
            return events, starts, min(thirds) >= len(at) // 6
        for e in events:
            e.pos = 0.04 * n + (e.pos - 0.04 * n) * 0.93
    return None


def make_session(seed: int = 1, messages: int = 400) -> Session:
    """A session of exactly ``messages`` messages (at least :data:`MIN_MESSAGES`) with its planted facts."""
    if messages < MIN_MESSAGES:
        raise ValueError(f"gen_hpc needs at least {MIN_MESSAGES} messages, got {messages}")
    rng = random.Random(seed)
    n = messages
    events = _plan_session(rng, n)
    tour = events[-1]
    best = None
    for pos in [tour.pos] + [0.05 * n + 0.09 * n * j for j in range(11)]:  # where the morning check fits best
        tour.pos = pos
        arranged = _arrange(events, n)
        if arranged is not None and (best is None or arranged[2]):
            best = arranged
            if arranged[2]:
                break
    if best is None:
        raise RuntimeError(f"cannot lay out a session of {n} messages")
    events, starts, _ = best
    w = _Writer(rng, n)
    w._add({"role": "system", "content": SYSTEM_PROMPT})
    for e, start in zip(events, starts):
        _filler(w, start - len(w.messages))
        e.build(w)
        assert len(w.messages) == start + e.size, (e, start, len(w.messages))
    _filler(w, n - 1 - len(w.messages))
    w.user(rng.choice(("ok, für heute reicht's. Fass mir bitte kurz zusammen, wo wir stehen.",
                       "ok that's it for today — short summary of where we are pls?",
                       "danke. was ist morgen als erstes dran?", "passt. schreib mir noch die offenen Punkte auf.")))
    return Session(messages=w.messages, facts=sorted(w.facts, key=lambda f: f.index), seed=seed, pasted=w.pasted)


SYSTEM_PROMPT = (
    "You are a coding agent helping a climate scientist with ROCAM, a regional coupled ocean-atmosphere model "
    "(Fortran 2008 and C, MPI + OpenMP, CMake/ctest, pFUnit) on the HPC cluster brise (SLURM). Working copy: "
    f"{ROOT}; model output under {DATA}. Tools: shell (bash on a login node), sbatch, squeue, sacct, read_file, "
    "write_file, edit_file, ncdump, git, python (xarray, dask, matplotlib). Login nodes are shared: keep heavy work "
    "in jobs. Answer in the language the user writes in; be concise, and say what you ran and what it showed.")


# --- event builders -------------------------------------------------------------------------------------------

def _instruction_event(spec: dict[str, Any], nth: int) -> Callable[[_Writer], None]:
    def build(w: _Writer) -> None:
        r = w.rng
        if "paste" in spec:
            _, make, intros = PASTES[spec["paste"]]
            doc = make(w)
            i = w.user(f"{r.choice(intros)}\n\n{doc}\n\n{spec['rule']}")
            w.pasted.append((i, doc))
        elif nth % 3 == 1:
            i = w.user(spec["rule"])
        else:
            i = w.user(f"{r.choice(CONTEXTS)}\n\n{spec['rule']}" + r.choice(("", "\n\nUnd dann weiter mit dem Log bitte.",
                                                                              "\n\nanyway, what's the queue doing?")))
        w.fact("instruction", spec["value"], i, spec["query"])
        w.say(spec["ack"])
    return build


def _said_event(spec: dict[str, Any], holder: dict[str, int]) -> Callable[[_Writer], None]:
    def build(w: _Writer) -> None:
        i = w.user(f"{w.rng.choice(CONTEXTS)}\n\n{spec['said']}")
        holder["index"] = i
        w.say(spec["ack_said"])
    return build


def _correction_event(spec: dict[str, Any], holder: dict[str, int], buried: bool) -> Callable[[_Writer], None]:
    def build(w: _Writer) -> None:
        r = w.rng
        if buried:
            text = (f"{r.choice(CONTEXTS)} Der letzte Lauf ist bei Schritt {w.step} und die cfl bleibt stabil, "
                    f"die Timer sehen normal aus.\n\n{spec['fix']}\n\nUnd kannst du danach bitte noch den Header von "
                    f"einer {r.choice(VARS)}-Datei checken? Ich will sehen, ob die bounds drin sind.")
        else:
            text = spec["fix"]
        i = w.user(text)
        w.fact("correction", spec["value"], i, spec["query"], stale=spec["stale"], stale_index=holder["index"])
        w.say(spec["ack_fix"])
    return build


def _choice_event(de: str, topic: str, stale: str, holder: dict[str, int]) -> Callable[[_Writer], None]:
    def build(w: _Writer) -> None:
        r = w.rng
        if r.random() < 0.5:
            i = w.user(f"Zu {de}: " + r.choice(CHOOSE).format(v=stale))
        else:
            i = w.user(f"{r.choice(CONTEXTS)}\n\nAbout {topic}: " + r.choice(CHOOSE).format(v=stale))
        holder["index"] = i
        w.say(f"Ok, {stale} for {topic}. I'll set it up that way.")
    return build


def _decision_event(de: str, topic: str, value: str, stale: str | None, holder: dict[str, int] | None) -> Callable[[_Writer], None]:
    def build(w: _Writer) -> None:
        r = w.rng
        if stale is not None and holder is not None:
            i = w.user(f"Nochmal zu {de}. " + r.choice(REVISE).format(v=value, s=stale))
            w.fact("decision", value, i, f"What did the user finally choose for {topic}?", stale=stale,
                   stale_index=holder["index"])
            w.say(f"Verstanden, {value} statt {stale} — ich passe Namelist und Skripte an.")
        else:
            i = w.user(r.choice((f"Miriam und ich haben lange diskutiert wegen {de}. ", f"About {topic}: "))
                       + r.choice(CHOOSE).format(v=value))
            w.fact("decision", value, i, f"What did the user choose for {topic}?")
            w.say(f"Ok, {value} für {de}. " + r.choice(("Ich trag's in die Notizen ein.", "Noted in the todo list.")))
    return build


def _plan_event(spec: dict[str, Any]) -> Callable[[_Writer], None]:
    def build(w: _Writer) -> None:
        i = w.user(spec["text"])
        w.fact("plan", spec["value"], i, spec["query"])
        w.say(f"Klingt vernünftig. Todo:\n- [ ] {spec['value']}\n- [ ] Ergebnisse an Miriam\n- [ ] Notizen aktualisieren")
    return build


def _user_ident_specs(r: Rng) -> list[Callable[[], dict[str, Any]]]:
    def orcid() -> dict[str, Any]:
        v = f"0000-000{r.randint(1, 3)}-{r.randint(1000, 9999)}-{r.randint(100, 999)}{r.choice('0123456789X')}"
        return dict(value=v, query="What is the user's ORCID iD for the dataset metadata?",
                    text=f"Für die Metadaten: meine ORCID ist {v}.", ack=f"Ok, ORCID {v} in die Metadaten.")

    def resv() -> dict[str, Any]:
        v = f"noba_{r.choice(REGIONS)}_{r.randint(1, 28):02d}{r.randint(1, 12):02d}"
        return dict(value=v, query="What is the name of the node reservation the admins set up for us?",
                    text=f"Die Admins haben uns eine Reservierung eingerichtet, die heißt {v}. Nutz die für die Produktionsläufe.",
                    ack=f"Gut, dann `--reservation={v}` für die Produktion.")

    def grant() -> dict[str, Any]:
        v = f"03F0{r.randint(800, 999)}{r.choice('ABC')}"
        return dict(value=v, query="What is the funding grant number for the acknowledgements?",
                    text=f"The grant number for the acknowledgements is {v}, BMBF wants it in every publication.",
                    ack=f"Noted — {v} goes into the acknowledgements and the dataset metadata.")

    def manuscript() -> dict[str, Any]:
        v = f"egusphere-2024-{r.randint(1000, 3999)}"
        return dict(value=v, query="What is the manuscript number of the paper under review?",
                    text=f"Unser Manuskript hat die Nummer {v}, falls du das irgendwo eintragen musst.",
                    ack=f"Ok, {v} für die Referenzen.")

    def doi_prev() -> dict[str, Any]:
        v = f"10.5194/gmd-{r.randint(10, 17)}-{r.randint(1000, 9999)}-20{r.randint(17, 23)}"
        return dict(value=v, query="What is the DOI of the predecessor study to cite?",
                    text=f"Zitier bitte die Vorgängerstudie mit DOI {v} in der README.", ack=f"Mach ich, DOI {v}.")
    return [orcid, resv, grant, manuscript, doi_prev]


def _tool_ident_specs(r: Rng) -> list[Callable[[], dict[str, Any]]]:
    def job() -> dict[str, Any]:
        v = str(_value_job(r))
        return dict(value=v, tool="sbatch", args={"script": "jobs/run_noba_ctrl.sbatch", "args": ["--array=0-9%4"]},
                    out=f"sbatch: INFO: account {ACCOUNT} has {r.randint(100, 900)}k node-hours left\nSubmitted batch job {v}",
                    ask="Schick das Ensemble als Array ab, bitte.", query="What is the job id of the ensemble array job?",
                    after=f"Array job {v} ist drin (10 Tasks, max. 4 gleichzeitig).")

    def commit() -> dict[str, Any]:
        v = _hex(r, 8)
        return dict(value=v, tool="git", args={"args": "commit -am 'cpl: fix flux sign at the open boundary'"},
                    out=f"[bugfix/halo-corners {v}] cpl: fix flux sign at the open boundary\n 3 files changed, 41 insertions(+), 17 deletions(-)",
                    ask="commit that pls", query="What is the hash of the commit with the boundary flux fix?",
                    after=f"Committed as {v}.")

    def doi() -> dict[str, Any]:
        v = f"10.5281/zenodo.{r.randint(10000000, 12999999)}"
        return dict(value=v, tool="python", args={"code": "from datacite_draft import reserve\nprint(reserve('noba_hindcast'))"},
                    out=f"reserving draft DOI ...\nstatus 201\ndraft DOI reserved: {v}\nstate: draft (not yet findable)",
                    ask="Reservier uns schon mal eine DOI für den Datensatz.", query="Which DOI was reserved for the dataset?",
                    after=f"Draft-DOI ist {v} — noch nicht findable, bis wir publizieren.")

    def spackhash() -> dict[str, Any]:
        v = "".join(r.choice("abcdefghijklmnopqrstuvwxyz234567") for _ in range(7))
        return dict(value=v, tool="shell", args={"cmd": "spack install netcdf-fortran@4.6.1 %oneapi ^hdf5+mpi"},
                    out=f"==> Installing netcdf-fortran-4.6.1-{v}\n==> No binary for netcdf-fortran found: installing from source\n"
                        f"==> netcdf-fortran: Successfully installed netcdf-fortran-4.6.1-{v}\n  Stage: 1.2s.  Build: 2m 41s.  Total: 2m 43s",
                    ask="bau netcdf-fortran nochmal mit oneapi", query="What is the Spack hash of the rebuilt netcdf-fortran?",
                    after=f"Fertig, Hash {v}; ich lade den in den Jobskripten per `spack load /{v}`.")
    return [job, commit, doi, spackhash]


def _ident_event(spec: dict[str, Any], by_tool: bool) -> Callable[[_Writer], None]:
    def build(w: _Writer) -> None:
        if not by_tool:
            i = w.user(spec["text"])
            w.fact("identifier", spec["value"], i, spec["query"])
            w.say(spec["ack"])
            return
        w.user(spec["ask"])
        [i] = w.act(w.rng.choice(("", "Mach ich.", "On it.")), [(spec["tool"], spec["args"], lambda: spec["out"])])
        w.fact("identifier", spec["value"], i, spec["query"])
        w.say(spec["after"])
    return build


def _finding_specs(r: Rng) -> list[Callable[[], dict[str, Any]]]:
    def drift() -> dict[str, Any]:
        v = f"{r.choice('+-')}{r.uniform(0.01, 0.3):.3f} K/decade"
        return dict(value=v, tool="python", args={"code": "import xarray as xr\nfrom post.drift import linear_trend\n"
                                                           "print(linear_trend('noba_spinup', 'tos', years=(6, 20)))"},
                    line=f"SST drift (linear trend, years 6-20, domain mean): {v}",
                    ask="Wie stark driftet die SST im Spin-up?", query="How strong is the SST drift in the spin-up?",
                    meaning=f"Das heißt: {v} ist klein genug für den Hindcast, aber wir sollten es im Paper nennen.")

    def mem() -> dict[str, Any]:
        v = f"{r.uniform(180, 250):.1f} GiB per node"
        return dict(value=v, tool="sacct", args={"jobs": "last_oom", "format": "JobID,MaxRSS,MaxRSSNode,NTasks"},
                    line=f"summary: peak memory {v} (node limit 256 GiB), reached in the restart write",
                    ask="warum ist der OOM gegangen?", query="What peak memory per node did the failed run reach?",
                    meaning=f"Peak {v} — the restart write doubles the buffers; with 256 GiB nodes that's the OOM.")

    def bisect() -> dict[str, Any]:
        full = _hex(r, 40)
        v = full[:10]
        return dict(value=v, tool="git", args={"args": "bisect run ./tests/regression_3day.sh"},
                    line=f"{full} is the first bad commit",
                    ask="lass den bisect laufen", query="Which commit did the bisect identify as the first bad one?",
                    meaning=f"Der Übeltäter ist {v}: da wurde die Reihenfolge von Advektion und Diffusion vertauscht.")

    def param() -> dict[str, Any]:
        name = r.choice(("rn_kh_bilap", "nn_cpl_freq", "rn_bfric_quad", "rn_avm0_surf", "rn_ice_cd", "rn_swr_frac"))
        v = f"{name} = {r.choice(('-1.5e+10', '5400', '2.5e-3', '1.2e-4', '0.0058', '0.58'))}"
        return dict(value=v, tool="shell", args={"cmd": f"grep -rn '{name}' namelists/ build-intel/run/"},
                    line=f"namelists/namelist_noba_hist.nml:{r.randint(20, 140)}:   {v}   ! overridden by Jonas",
                    ask=f"Woher kommt eigentlich der Wert für {name}?", query=f"Which value does the hindcast namelist set for {name}?",
                    meaning=f"Root cause gefunden: der Hindcast hat {v}, abweichend vom Default — das erklärt den Unterschied.")

    def sss() -> dict[str, Any]:
        v = f"{r.choice('+-')}{r.uniform(0.1, 1.5):.2f} psu"
        return dict(value=v, tool="shell", args={"cmd": "cdo -fldmean -timmean -sub sos_hist.nc sos_obs_cmems.nc bias.nc && cdo info bias.nc"},
                    line=f"  domain-mean SSS bias vs. CMEMS reanalysis: {v}",
                    ask="wie groß ist der Salzgehaltsbias gegen CMEMS?", query="How large is the domain-mean sea surface salinity bias?",
                    meaning=f"{v} im Mittel; das kommt vor allem aus der Ostsee, der Flusseintrag ist noch Klimatologie.")

    def hotspot() -> dict[str, Any]:
        fn = r.choice(("cpl_exchange_put", "lbc_lnk_multi", "nc_put_vara_float", "tke_update", "tra_adv_step"))
        v = f"{r.uniform(25, 55):.1f}% of wall time in {fn}"
        return dict(value=v, tool="shell", args={"cmd": "python tools/timer_report.py logs/noba_ctrl_timers.txt --top 20"},
                    line=f"slowest rank 317: {v}", ask="Warum ist der Lauf so langsam geworden?",
                    query="Where does the slowest rank spend most of its wall time?",
                    meaning=f"{v} — das ist kein Rechen-, sondern ein Kommunikationsproblem.")

    def calendar() -> dict[str, Any]:
        cal = r.choice(("365_day", "noleap", "360_day", "julian"))
        v = f'time:calendar = "{cal}"'
        return dict(value=v, tool="ncdump", args={"path": "/work/bb1184/forcing/era5_v2/tas_1996.nc", "header_only": True},
                    line=f"\t\t{v} ;", ask="warum fehlen im Februar Tage?", query="Which calendar does the old forcing file declare?",
                    meaning=f"Da ist es: der alte Antrieb hat {v}, das Modell rechnet gregorianisch — daher die Lücke.")

    def quota() -> dict[str, Any]:
        v = f"{r.randint(520, 599)}T of {600}T"
        return dict(value=v, tool="shell", args={"cmd": "lfs quota -hp 1184 /work"},
                    line=f"project bb1184 on /work: used {v} (hard limit 650T)", ask="Haben wir noch Platz für das Ensemble?",
                    query="How much of the /work quota does the project use?",
                    meaning=f"Wir sind bei {v}; für das Ensemble reicht das nicht ohne Aufräumen.")

    def conserv() -> dict[str, Any]:
        v = f"{r.uniform(1.1, 9.9):.2f}e-{r.randint(6, 9):02d} per century"
        return dict(value=v, tool="python", args={"code": "from post.budget import salt_budget\nsalt_budget('noba_hist', full=True)"},
                    line=f"relative salt content drift: {v}", ask="Is the salt conserved now?",
                    query="What is the relative drift of the salt content?",
                    meaning=f"{v} — that's at the level of round-off accumulation, so conservation is fine now.")
    return [drift, mem, bisect, param, sss, hotspot, calendar, quota, conserv]


def _finding_event(spec: dict[str, Any]) -> Callable[[_Writer], None]:
    def build(w: _Writer) -> None:
        r = w.rng
        w.user(spec["ask"])
        b = w.budget()
        tool = spec["tool"]
        if tool == "ncdump":
            _, header = _ncdump(w, b, var="tas", exp="noba_hist")
            out = header.replace('\t\ttime:calendar = "standard" ;', spec["line"])
        elif tool == "sacct":
            out = _sacct(w, b) + "\n\n" + spec["line"]
        elif tool == "git":
            out = "\n".join(f"running ./tests/regression_3day.sh\nBisecting: {r.randint(2, 60)} revisions left to test after this "
                            f"(roughly {r.randint(1, 6)} steps)\n[{_hex(r, 40)}] {r.choice(COMMIT_MSGS)}" for _ in range(max(1, b // 260)))
            out += f"\n{spec['line']}\ncommit message: tracer_adv: reorder advection/diffusion calls\n bisect found first bad commit"
        elif "timer" in spec["args"].get("cmd", ""):
            out = _fill_lines(b, ["ROCAM timer report (max over ranks)", f"{'routine':<24}{'calls':>9}{'min s':>10}{'max s':>10}"],
                              lambda: f"{r.choice(('tra_adv', 'dyn_spg', 'zdf_tke', 'cpl_get', 'iom_put', 'ice_rhg', 'lbc_lnk')):<24}"
                                      f"{r.randint(1000, 99999):>9}{r.uniform(1, 300):>10.2f}{r.uniform(300, 900):>10.2f}", [spec["line"]])
        elif tool == "python":
            out = _fill_lines(b, ["[########################################] | 100% Completed | 41.2s"],
                              lambda: f"  year {r.randint(1, 20):2d}  mean {r.uniform(7, 9):.4f}  std {r.uniform(0, 1):.4f}", [spec["line"]])
        else:
            out = _fill_lines(b // 2, [], lambda: f"{r.choice(('namelists/namelist_noba_ctrl.nml', 'namelists/namelist_noba_test.nml'))}:"
                                                  f"{r.randint(1, 200)}:   ! {r.choice(COMMIT_MSGS)}", [spec["line"]])
        [i] = w.act(r.choice(("", "Ich schau nach.", "Let me look.")), [(tool, spec["args"], lambda: out)])
        w.fact("finding", spec["value"], i, spec["query"])
        w.say(spec["meaning"])
    return build


def _file_specs(r: Rng) -> list[Callable[[], dict[str, Any]]]:
    def fig() -> dict[str, Any]:
        region, stat = r.choice(REGIONS), r.choice(("sst_bias", "mld_anomaly", "sss_trend", "ice_season"))
        v = f"post/figures/fig{r.randint(2, 14):02d}_{stat}_{region}.py"
        code = ("import xarray as xr\nimport matplotlib.pyplot as plt\n\n"
                f"ds = xr.open_mfdataset('{DATA}/out/noba_hist/tos_*.nc')\nclim = ds.tos.groupby('time.season').mean()\n"
                "fig, axes = plt.subplots(2, 2, figsize=(9, 8), constrained_layout=True)\n"
                "for ax, season in zip(axes.flat, ('DJF', 'MAM', 'JJA', 'SON')):\n"
                "    clim.sel(season=season).plot(ax=ax, cmap='RdBu_r', vmin=-2, vmax=2)\n    ax.set_title(season)\n"
                f"fig.savefig('{stat}_{region}.pdf')\n")
        return dict(value=v, content=code * 3, ask=f"Schreib mir ein Skript für die {stat}-Abbildung, Region {region}.",
                    query=f"Which file holds the script for the {stat} figure of the {region} region?")

    def job() -> dict[str, Any]:
        v = f"jobs/ensemble/{r.choice(TOPICS)}_members_{r.randint(2, 9)}.sbatch"
        return dict(value=v, content=_sbatch_script("noba_ens", 16, 8).replace("#SBATCH --output", "#SBATCH --array=0-9%4\n#SBATCH --output"),
                    ask="Leg ein Jobskript für das Ensemble an, als Array.", query="Which job script runs the ensemble as an array?")

    def pf() -> dict[str, Any]:
        a, b = r.choice(STEMS), r.choice(("conservation", "bounds", "symmetry", "restart"))
        v = f"tests/pfunit/test_{a}_{b}.pf"
        body = (f"module test_{a}_{b}\n   use funit\n   use vert_mix\n   implicit none\ncontains\n   @test\n"
                f"   subroutine test_{b}()\n      real(wp) :: before, after\n      call setup_column(before)\n"
                "      call vert_mix_step(1, column)\n      call column_total(after)\n"
                "      @assertEqual(before, after, tolerance=1.e-12_wp)\n   end subroutine\nend module\n")
        return dict(value=v, content=body * 2, ask=f"wir brauchen einen pFUnit-Test für {a}, der {b} prüft.",
                    query=f"Which file holds the new pFUnit test for {a}?")

    def nml() -> dict[str, Any]:
        v = f"namelists/noba_{r.choice(REGIONS)}_{r.randint(10, 99)}.nml"
        body = "&namrun\n   nn_it000 = 1\n   nn_itend = 350400\n   cn_exp = 'noba_sens'\n/\n&namdom\n   rn_rdt = 90.\n/\n" * 4
        return dict(value=v, content=body, ask="Mach eine eigene Namelist für den Sensitivitätslauf.",
                    query="Which namelist file was written for the sensitivity run?")

    def readme() -> dict[str, Any]:
        v = f"docs/publication/{r.choice(TOPICS)}_dataset_README.md"
        body = ("# NOBA hindcast dataset\n\n## Content\nDaily and monthly means of 14 variables, 1993-2012.\n\n"
                "## Model\nROCAM, commit given in the metadata.\n\n## License\nsee repository entry\n") * 3
        return dict(value=v, content=body, ask="Write the README for the dataset publication.",
                    query="Which file holds the README for the dataset publication?")

    def mod() -> dict[str, Any]:
        a, b = r.choice(STEMS), r.choice(("limiter", "filter", "budget", "remap"))
        v = f"src/ocean/mod_{a}_{b}.F90"
        body = f"MODULE mod_{a}_{b}\n   USE par_kind, ONLY: wp\n   IMPLICIT NONE\n   PRIVATE\nCONTAINS\n" + "   ! ...\n" * 30 + f"END MODULE mod_{a}_{b}\n"
        return dict(value=v, content=body, ask=f"Lager den {a}-Kram in ein eigenes Modul aus.",
                    query=f"Which new Fortran module holds the {a} code?")

    def archive() -> dict[str, Any]:
        v = f"scripts/archive_{r.choice(REGIONS)}_{r.choice(TOPICS)}.sh"
        body = ("#!/bin/bash\nset -euo pipefail\nfor f in \"$@\"; do\n  packems -d /arch/bb1184/rocam \"$f\"\n  md5sum \"$f\" >> manifest.md5\ndone\n") * 2
        return dict(value=v, content=body, ask="schreib ein Skript, das die Restarts aufs Band schiebt",
                    query="Which script moves restarts to the tape archive?")

    def meta() -> dict[str, Any]:
        v = f"docs/publication/datacite_{r.choice(REGIONS)}_{r.randint(1, 9)}.json"
        body = json.dumps({"titles": [{"title": "NOBA regional coupled hindcast"}], "publisher": "institute archive",
                           "types": {"resourceTypeGeneral": "Dataset"}, "creators": [{"name": "see CITATION"}]}, indent=2) * 2
        return dict(value=v, content=body, ask="Bereite die DataCite-Metadaten als JSON vor.",
                    query="Which file holds the DataCite metadata?")
    return [fig, job, pf, nml, readme, mod, archive, meta]


def _file_event(spec: dict[str, Any]) -> Callable[[_Writer], None]:
    def build(w: _Writer) -> None:
        r = w.rng
        w.user(spec["ask"])
        content = spec["content"]
        args = {"path": spec["value"], "content": content}
        [t] = w.act(r.choice(("Ich lege die Datei an.", "Writing it now.", "")), [("write_file", args, lambda: f"Wrote {len(content)} bytes.")])
        w.fact("file", spec["value"], t - 1, spec["query"])
        w.say(f"Liegt unter {spec['value']}. " + r.choice(("Willst du drüberschauen?", "Next: run it once on a small year.")))
    return build


def _error_specs(r: Rng) -> list[Callable[[], dict[str, Any]]]:
    def var() -> str:
        return "z" + r.choice(STEMS) + r.choice(SUFFIXES)

    def implicit() -> dict[str, Any]:
        v, src = var(), r.choice(SOURCES)
        ln = r.randint(40, 280)
        return dict(tool="shell", query="Which compiler error stopped the gcc build?", kind="build", value=f"Error: Symbol '{v}' at (1) has no IMPLICIT type",
                    pre=[f"{ROOT}/{src}:{ln}:{r.randint(7, 30)}:", "", f"  {ln} |       {v} = zflx(ji,jj) * rdt", "      |       1"],
                    fix=(src, "      REAL(wp) :: zflx, zdt", f"      REAL(wp) :: zflx, zdt, {v}"), ask="bau nochmal mit gcc, ich hab was an den Flüssen geändert")

    def ifx_type() -> dict[str, Any]:
        v, src = var().upper(), r.choice(SOURCES)
        return dict(tool="shell", query="Which compiler error did the ifx build report?",kind="build_intel",
                    value=f"{ROOT}/{src}({r.randint(40, 280)}): error #6404: This name does not have a type, and must have an explicit type.   [{v}]",
                    pre=[], fix=(src, "      REAL(wp) :: zflx", f"      REAL(wp) :: zflx, {v.lower()}"), ask="build with ifx pls, production needs intel")

    def pfunit() -> dict[str, Any]:
        a, b = r.choice(STEMS), r.choice(("positive", "conserved", "bounded", "symmetric"))
        return dict(tool="shell", query="Which pFUnit test failed in the ctest run?", kind="ctest", value=f"Failure in: test_{a}_suite.test_{a}_{b}",
                    pre=[f"   Location: [test_{a}.pf:{r.randint(20, 120)}]", f"AssertTrue failure: {a} must stay {b}"],
                    fix=("src/ocean/vert_mix.F90", f"z{a} = z{a} + zdt * zflx", f"z{a} = MAX(z{a} + zdt * zflx, 0._wp)"), ask="lass die Tests laufen")

    def bounds() -> dict[str, Any]:
        v = var()
        return dict(tool="shell", kind="runlog",
                    query="Which runtime error killed the debug run?",
                    value=f"Fortran runtime error: Index '{r.randint(389, 420)}' of dimension {r.randint(1, 2)} of array '{v}' above upper bound of 388",
                    pre=[f"At line {r.randint(40, 280)} of file {ROOT}/{r.choice(SOURCES)}"],
                    fix=(r.choice(SOURCES), "DO ji = 1, jpi", "DO ji = 2, jpim1"), ask="der Debug-Lauf ist abgestürzt, schau mal ins Log")

    def oom() -> dict[str, Any]:
        job = _value_job(r)
        return dict(tool="shell", kind="runlog", job=job,
                    query="What did slurmstepd report when the run's tasks died?",
                    value=f"slurmstepd: error: Detected {r.randint(1, 9)} oom_kill event in StepId={job}.0. Some of the step tasks have been OOM Killed.",
                    pre=[f"srun: error: {_node(r)}: task {r.randint(0, 511)}: Out Of Memory"], fix=("jobs/run_noba_ctrl.sbatch", "#SBATCH --ntasks-per-node=128",
                                                                                     "#SBATCH --ntasks-per-node=128\n#SBATCH --mem=0"),
                    ask="der Lauf ist weg, was war los?")

    def walltime() -> dict[str, Any]:
        job = _value_job(r)
        return dict(tool="shell", kind="runlog", job=job,
                    query="Why did the noba_ctrl job not finish, according to slurmstepd?",
                    value=f"slurmstepd: error: *** JOB {job} ON {_node(r)} CANCELLED AT 2024-0{r.randint(2, 5)}-{r.randint(10, 28)}T0{r.randint(1, 9)}:{r.randint(10, 59)}:{r.randint(10, 59)} DUE TO TIME LIMIT ***",
                    pre=[], fix=("jobs/run_noba_ctrl.sbatch", "#SBATCH --time=06:00:00", "#SBATCH --time=08:00:00"), ask="check mal warum noba_ctrl nicht fertig wurde")

    def xr_sizes() -> dict[str, Any]:
        v = "z" + r.choice(STEMS)
        a = r.randint(405, 415)
        return dict(tool="python", query="Which error stopped the ocean-atmosphere comparison script?",kind="python",
                    value=f"ValueError: conflicting sizes for dimension 'rlat': length {a} on '{v}' and length {a + 1} on {{'rlat': 'rlat', 'rlon': 'rlon'}}",
                    pre=["Traceback (most recent call last):", '  File "post/compare.py", line 58, in <module>', "    ds = xr.merge([ocean, atmos])"],
                    fix=("post/compare.py", "ds = xr.merge([ocean, atmos])",
                         "atmos = atmos.isel(rlat=slice(0, -1))\nds = xr.merge([ocean, atmos])"), ask="das Vergleichsskript läuft nicht durch")

    def hdf() -> dict[str, Any]:
        path = f"{DATA}/out/noba_hist/{r.choice(VARS)}_{r.choice(REGIONS)}_{r.randint(1993, 2008)}.nc"
        return dict(tool="ncdump", query="What did ncdump say about the output file written during the crash?", kind="ncdump", value=f"ncdump: {path}: NetCDF: HDF error", pre=[], path=path,
                    fix=("src/io/history.F90", "CALL nf90_close(ncid)", "CALL nf90_sync(ncid)\nCALL nf90_close(ncid)"), ask="ist die Datei vom Absturz noch lesbar?")

    def remote() -> dict[str, Any]:
        b = f"feature/{r.choice(TOPICS)}-{r.choice(STEMS).replace('_', '-')}"
        return dict(tool="git", query="Which error did pulling Jonas' branch give?", kind="git", value=f"fatal: couldn't find remote ref {b}", pre=[], branch=b,
                    fix=(".git/config", "fetch = +refs/heads/main:refs/remotes/origin/main",
                         "fetch = +refs/heads/*:refs/remotes/origin/*"), ask="pull mal Jonas' branch")

    def cdo() -> dict[str, Any]:
        f = f"{r.choice(VARS)}_{r.choice(REGIONS)}_{r.choice(TOPICS)}.nc"
        return dict(tool="shell", query="Which error did the conservative remapping abort with?", kind="cdo", value=f"cdo    remapcon (Abort): Open failed on >{f}<", pre=[],
                    file=f, fix=("post/regrid.sh", "set -euo pipefail", f"set -euo pipefail\nln -s ../raw/{f} ."), ask="regrid das mal konservativ auf das CMEMS-Gitter")

    def cmake() -> dict[str, Any]:
        return dict(tool="shell", query="Where did configuring a fresh build directory fail?",kind="cmake",
                    value=f"CMake Error at cmake/FindPFUNIT.cmake:{r.randint(20, 140)} (message):", pre=[],
                    fix=("cmake/FindPFUNIT.cmake", "find_path(PFUNIT_DIR",
                         "set(PFUNIT_DIR $ENV{PFUNIT_ROOT})\nfind_path(PFUNIT_DIR"), ask="konfigurier mal ein frisches build-dir")
    return [implicit, ifx_type, pfunit, bounds, oom, walltime, xr_sizes, hdf, remote, cdo, cmake]


def _error_run(w: _Writer, spec: dict[str, Any], failing: bool) -> tuple[str, dict[str, Any], str]:
    """The command of an error fact and its output: failing with the error line, or passing."""
    r = w.rng
    b = w.budget()
    kind = spec["kind"]
    line = spec["value"]
    if kind in ("build", "build_intel"):
        log = _build_log(w, b, "gfortran" if kind == "build" else "ifx")
        if failing:
            log += spec["pre"] + [line, "make[2]: *** [src/CMakeFiles/rocam.dir/build.make:412: src/CMakeFiles/rocam.dir/all] Error 1",
                                  "make[1]: *** [CMakeFiles/Makefile2:233: src/CMakeFiles/rocam.dir/all] Error 2", "make: *** [Makefile:146: all] Error 2"]
        else:
            log += ["[100%] Linking Fortran executable bin/rocam", "[100%] Built target rocam"]
        build = "build-gcc" if kind == "build" else "build-intel"
        return "shell", {"cmd": f"cmake --build {build} -j 16 2>&1 | tail -n 300", "cwd": ROOT}, "\n".join(log)
    if kind == "ctest":
        detail = [line] + spec["pre"] if failing else None
        return "shell", {"cmd": "ctest --test-dir build-gcc --output-on-failure -j 8", "cwd": ROOT}, \
            _ctest(w, b, "pfunit_vert_mix" if failing else None, detail)
    if kind == "runlog":
        log = _model_log(w, b)
        job = spec["job"] if failing and "job" in spec else w.next_job()
        if failing:
            log += "\n" + "\n".join(spec["pre"] + [line])
        else:
            log += "\n  run finished normally, restart written\n  ROCAM: normal end of run"
        return "shell", {"cmd": f"tail -n 400 {DATA}/run/noba_ctrl/logs/noba_ctrl_{job}.out"}, log
    if kind == "python":
        _, text = _xarray(w, b)
        if failing:
            return "python", {"code": "exec(open('post/compare.py').read())"}, "\n".join(
                text.splitlines()[:12] + spec["pre"] + ['  File "xarray/core/merge.py", line 780, in merge_core', line])
        return "python", {"code": "exec(open('post/compare.py').read())"}, text + "\nwrote post/out/compare_ocean_atmos.nc"
    if kind == "ncdump":
        if failing:
            return "ncdump", {"path": spec["path"], "header_only": True}, line
        return "ncdump", {"path": spec["path"], "header_only": True}, _ncdump(w, b)[1]
    if kind == "git":
        args = {"args": f"pull origin {spec['branch']}"}
        if failing:
            return "git", args, f"remote: Enumerating objects: {r.randint(10, 90)}, done.\n{line}"
        return "git", args, (f"From gitlab.ikk-hamburg.example:rocam/rocam\n * branch            {spec['branch']} -> FETCH_HEAD\n"
                             f"Updating {_hex(r, 7)}..{_hex(r, 7)}\nFast-forward\n" + _git_diff(w, b))
    if kind == "cdo":
        f = spec["file"]
        args = {"cmd": f"cdo -P 8 remapcon,cmems_grid.txt {f} {f[:-3]}_cmems.nc", "cwd": f"{DATA}/post"}
        if failing:
            return "shell", args, f"cdo    remapcon: Started child process \"selname,{f.split('_')[0]} {f}\".\n{line}"
        return "shell", args, (f"cdo    remapcon: YAC first order conservative weights from curvilinear (388x412) to lonlat "
                               f"(720x360) grid\ncdo    remapcon: Processed 365 timesteps [{r.uniform(20, 90):.2f}s {r.randint(300, 900)}MB].")
    # cmake
    head = _build_log(w, min(b, 1500))[:6]
    if failing:
        head += [line, "  Could NOT find PFUNIT (missing: PFUNIT_DIR)", "Call Stack (most recent call first):",
                 "  CMakeLists.txt:41 (find_package)", "", "-- Configuring incomplete, errors occurred!"]
    else:
        head += ["-- Found PFUNIT: /sw/spack/pfunit-4.7.3", "-- Configuring done (3.0s)", "-- Generating done (0.5s)"]
    return "shell", {"cmd": "cmake -S . -B build-fresh -DCMAKE_BUILD_TYPE=Debug", "cwd": ROOT}, "\n".join(head)


def _error_event(spec: dict[str, Any], resolved: bool) -> Callable[[_Writer], None]:
    def build(w: _Writer) -> None:
        r = w.rng
        w.user(spec["ask"])
        name, args, out = _error_run(w, spec, True)
        [i] = w.act(r.choice(("", "Ich starte das.", "Running it.")), [(name, args, lambda: out)])
        if not resolved:
            w.fact("error", spec["value"], i, spec["query"])
            w.say(r.choice(("Das ist fehlgeschlagen. ", "It failed. ")) + f"Die entscheidende Zeile:\n\n    {spec['value']}\n\n"
                  + r.choice(("Ich würde das später angehen, erst die anderen Punkte?", "Option A: fix it now. Option B: park it until after the meeting.")))
            return
        path, old, new = spec["fix"]
        w.act(f"Fehler: `{spec['value']}`. Ich korrigiere das.", [("edit_file", {"path": path, "old": old, "new": new},
                                                                   lambda: f"Edited {path}: 1 replacement.")])
        name2, args2, out2 = _error_run(w, spec, False)
        [j] = w.act("Nochmal derselbe Lauf:", [(name2, args2, lambda: out2)])
        w.fact("error", spec["value"], i, spec["query"], resolved=j)
        w.say(r.choice(("Jetzt läuft's durch. ", "Passes now. ")) + f"Die Änderung steht in {path}.")
    return build


def _tour_event(w: _Writer) -> None:
    """The morning check: git, queue, accounting, a source file, a header, a quick look, a log and a resubmit."""
    r = w.rng
    w.user(r.choice(("Guten Morgen! Kannst du kurz schauen, wo wir stehen — Jobs, letzter Commit, und ob der Output von gestern vollständig ist?",
                     "morning. full status pls: queue, sacct, git, and whether yesterday's output is complete")))
    b = w.budget(0.5)
    args, src = _read_source(w, b)
    w.act("Ich schaue mir alles parallel an.", [("git", {"args": "log --oneline -n 15"}, lambda: _git_log(w, b)),
                                               ("squeue", {"user": USER_ID}, lambda: _squeue(w, b)),
                                               ("sacct", {"user": USER_ID, "starttime": "now-1days"}, lambda: _sacct(w, b)),
                                               ("read_file", args, lambda: src)])
    path, header = _ncdump(w, b)
    code, table = _stats_table(w, b)
    exp = r.choice(EXPS)
    job = w.next_job()
    w.act("Jetzt der Output und das Log:", [("ncdump", {"path": path, "header_only": True}, lambda: header),
                                            ("python", {"code": code}, lambda: table),
                                            ("shell", {"cmd": f"tail -n 200 {DATA}/run/{exp}/logs/{exp}_{job}.out"}, lambda: _model_log(w, b)),
                                            ("sbatch", {"script": f"jobs/run_{exp}.sbatch", "args": []}, lambda: f"Submitted batch job {job}")])
    w.say(_agent_text(w))
