"""Long computational-biology sessions for the fidelity bench: a Brazilian postdoc in a German lab and an agent
running an RNA-seq and variant-calling project on an HPC cluster.

    from gen_bioinfo import make_session
    session = make_session(seed=1, messages=400)     # about 600k characters
    session = make_session(seed=1, messages=3000)    # about 4.7M characters

The user writes terse English with typos, slips into Portuguese and quotes the PI's German. She pastes what other
people wrote (the sequencing core's sample-sheet rules, a reviewer's comments, the lab wiki's cluster SOP, a
colleague's chat message, the PI's German note); ``session.pasted`` lists them, and their imperatives are not hers
unless she takes them up in her own words. The agent works through SLURM (sbatch, squeue, sacct, seff), Nextflow
and Snakemake, R (DESeq2, ggplot), Python (pandas, scanpy), conda/mamba, STAR, samtools, GATK and bcftools, and
reads configs, sample sheets and logs; those outputs carry most of the characters.

Facts are planted as every generator of the bench plants them (tests/generator_contract.py): ``per_kind`` of each
kind, between 3% and 88% of the session and over all three thirds, each value new where planted and absent from
everything but its own message and the few after it.
"""

from __future__ import annotations

import bisect
import json
import random
from collections.abc import Callable
from typing import Any

from sessiongen import Fact, Message, Session, text_of

KINDS = ("instruction", "correction", "decision", "error", "file", "identifier", "finding", "plan")
TOOLS = ("shell", "slurm", "nf_log", "read_file", "write_file", "edit_file", "run_r", "run_python", "fetch_paper")
SMALLEST = 60
CHARS_PER_MESSAGE = 1560  # 400 messages ~ 624k characters, 3000 ~ 4.68M
ECHO = 6  # the agent repeats a value at most this many messages after it (the contract allows 8)
STALE_ECHO = 9  # ... and a stale value at most this many after its own message (the contract allows 12)


def per_kind(messages: int) -> int:
    """Facts of each kind: 1 at 60 messages, 6 at 400, 12 at 3000, linear in between, 12 beyond."""
    if messages <= SMALLEST:
        return 1
    if messages <= 400:
        return int(1 + 5 * (messages - SMALLEST) / 340 + 0.5)
    if messages <= 3000:
        return int(6 + 6 * (messages - 400) / 2600 + 0.5)
    return 12


def make_session(seed: int, messages: int) -> Session:
    """A session of exactly ``messages`` messages (60 or more), the same bytes for the same seed."""
    if messages < SMALLEST:
        raise ValueError(f"gen_bioinfo makes sessions of {SMALLEST} messages or more, not {messages}")
    return _Session(seed, messages).build()


# --- the world ---------------------------------------------------------------------------------------------------

FIRST = ("Luana", "Thiago", "Camila", "Rafael", "Beatriz", "Gustavo", "Mariana", "Felipe", "Larissa", "Bruno",
         "Júlia", "Caio", "Renata", "Diego")
LAST = ("Oliveira", "Souza", "Ferreira", "Carvalho", "Barbosa", "Ribeiro", "Nascimento", "Albuquerque", "Moraes",
        "Teixeira", "Cavalcanti", "Pereira")
PIS = (("Sabine", "Hartmann"), ("Jürgen", "Weiß"), ("Katrin", "Vogel"), ("Matthias", "Brandt"),
       ("Ulrike", "Kessler"), ("Andreas", "Lindner"), ("Petra", "Schüler"))
COLLEAGUES = ("Jonas Becker", "Mehmet Yılmaz", "Priya Raman", "Lena Krüger", "Tobias Frank", "Anna Wójcik",
              "Niklas Braun", "Sofia Greco", "Felix Albrecht", "Hannah Roth")
CORE_STAFF = ("Dr. Heike Petersen", "Dr. Stefan Maurer", "Claudia Winkler", "Dr. Ralf Ostermann", "Miriam Seidel")
CLUSTERS = ("elbe", "isar", "saale", "lahn", "mosel", "neckar", "werra")
CITIES = ("Heidelberg", "Freiburg", "Göttingen", "Tübingen", "Würzburg", "Münster", "Kiel")
PARTITIONS = ("cpu", "short", "highmem", "long", "gpu")
MOUSE_GENES = ("Alb", "Apoa1", "Cyp7a1", "Cyp2e1", "Pck1", "G6pc", "Fasn", "Scd1", "Srebf1", "Ppara", "Hmgcr",
               "Ldlr", "Insig1", "Acaca", "Elovl6", "Serpina1e", "Mup20", "Saa1", "Lcn2", "Cxcl1", "Col1a1",
               "Timp1", "Mki67", "Top2a", "Cdkn1a", "Gadd45g", "Fgf21", "Igfbp1", "Angptl4", "Pdk4", "Cidea",
               "Cd36", "Slc2a2", "Gck", "Hnf4a", "Foxa2", "Nr1h4", "Abcb11", "Cyp8b1", "Mt1", "Mt2")
HUMAN_GENES = ("ALB", "APOA1", "CYP3A4", "TTR", "SERPINA1", "KRT19", "KRT7", "SOX9", "EPCAM", "LGR5", "MKI67",
               "TOP2A", "CDKN1A", "GADD45B", "TGFB1", "COL1A1", "ACTA2", "VIM", "SNAI2", "FN1", "SPP1", "CXCL8",
               "IL6", "SAA1", "LCN2", "HNF4A", "FOXA2", "CFTR", "AQP1", "GGT1", "MUC1", "TFF1", "AFP", "GPC3",
               "ONECUT1", "PROX1", "JAG1", "NOTCH2", "HES1", "YAP1", "CTGF")
PROCS = ("FASTQC", "FASTP", "STAR_ALIGN", "SAMTOOLS_SORT", "SAMTOOLS_INDEX", "PICARD_MARKDUPLICATES",
         "FEATURECOUNTS", "SALMON_QUANT", "QUALIMAP_RNASEQ", "RSEQC_INFEREXPERIMENT", "MULTIQC")
LONG_PROC = {"FASTQC": "NFCORE_RNASEQ:RNASEQ:FASTQC_TRIMGALORE:FASTQC",
             "FASTP": "NFCORE_RNASEQ:RNASEQ:FASTQ_FASTQC_UMITOOLS_FASTP:FASTP",
             "STAR_ALIGN": "NFCORE_RNASEQ:RNASEQ:ALIGN_STAR:STAR_ALIGN",
             "SAMTOOLS_SORT": "NFCORE_RNASEQ:RNASEQ:ALIGN_STAR:BAM_SORT_STATS_SAMTOOLS:SAMTOOLS_SORT",
             "SAMTOOLS_INDEX": "NFCORE_RNASEQ:RNASEQ:ALIGN_STAR:BAM_SORT_STATS_SAMTOOLS:SAMTOOLS_INDEX",
             "PICARD_MARKDUPLICATES": "NFCORE_RNASEQ:RNASEQ:BAM_MARKDUPLICATES_PICARD:PICARD_MARKDUPLICATES",
             "FEATURECOUNTS": "NFCORE_RNASEQ:RNASEQ:SUBREAD_FEATURECOUNTS",
             "SALMON_QUANT": "NFCORE_RNASEQ:RNASEQ:QUANTIFY_STAR_SALMON:SALMON_QUANT",
             "QUALIMAP_RNASEQ": "NFCORE_RNASEQ:RNASEQ:QUALIMAP_RNASEQ",
             "RSEQC_INFEREXPERIMENT": "NFCORE_RNASEQ:RNASEQ:BAM_RSEQC:RSEQC_INFEREXPERIMENT",
             "MULTIQC": "NFCORE_RNASEQ:RNASEQ:MULTIQC"}
RULES = ("fastp", "bwa_mem", "sort_bam", "mark_duplicates", "base_recalibrator", "apply_bqsr", "haplotype_caller",
         "genotype_gvcfs", "bcftools_filter", "vep_annotate", "mosdepth", "multiqc")
NF_ADJ = ("sleepy", "nostalgic", "agitated", "crazy", "elegant", "focused", "gloomy", "hopeful", "jolly", "lonely",
          "magical", "pensive", "romantic", "silly", "stoic", "trusting", "voluminous", "wise", "zen", "tiny",
          "angry", "boring", "cheeky", "distracted", "exotic", "friendly", "grave", "hungry", "kickass", "loving")
NF_NAME = ("curie", "pasteur", "darwin", "mendel", "franklin", "mcclintock", "sanger", "crick", "watson", "hodgkin",
           "lovelace", "turing", "noether", "meitner", "hopper", "goodall", "euler", "gauss", "hamilton", "kimura",
           "wright", "fisher", "haldane", "margulis", "lamarck", "koch", "ehrlich", "virchow", "mayr", "wallace")
STATES = ("COMPLETED", "COMPLETED", "COMPLETED", "COMPLETED", "FAILED", "OUT_OF_MEMORY", "TIMEOUT", "RUNNING",
          "CANCELLED by 0")
OPENERS = ("", "", "", "ok ", "ok so ", "hm, ", "beleza, ", "so ", "right, ", "tá, ", "pronto. ", "alright ",
           "bom dia! ", "back. ", "sorry, meeting. ", "oi, ", "ahh ok. ", "cool. ", "gut. ", "then ", "nossa. ",
           "quick one: ", "ok next: ", "hmm ", "yes. ", "perfeito. ", "ja, ")
TAILS = ("", "", "", " pls", " thx", " when you can", ", then tell me", " 🙏", " (no rush)", "?", " obrigada",
         " por favor", ", danke", ", I'll be in the lab meeting till 11", ", brb coffee", " :)", "...")
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
ASCII = str.maketrans("áéíóúãõçâêôàüöäßı", "aeiouaocaeoauoasi")


def _typo(rng: random.Random, text: str, p: float = 0.22) -> str:
    """Now and then one slip of the fingers: two letters swapped, one dropped or doubled."""
    if rng.random() > p:
        return text
    words = text.split(" ")
    spots = [i for i, w in enumerate(words) if len(w) >= 5 and w.isalpha() and w.islower()]
    if not spots:
        return text
    i = rng.choice(spots)
    w = words[i]
    j = rng.randrange(1, len(w) - 2)
    how = rng.random()
    if how < 0.5:
        w = w[:j] + w[j + 1] + w[j] + w[j + 2:]
    elif how < 0.8:
        w = w[:j] + w[j + 1:]
    else:
        w = w[:j] + w[j] + w[j:]
    words[i] = w
    return " ".join(words)


class _Outputs:
    """The world of one session and the outputs its tools print (the builder below plants the facts)."""

    def __init__(self, seed: int, messages: int) -> None:
        self.seed, self.n = seed, messages
        self.rng = r = random.Random(seed * 7919 + 17)
        self.msgs: list[Message] = []
        self.facts: list[Fact] = []
        self.pasted: list[tuple[int, str]] = []
        self.chars = 0
        self.long_count = 0
        self.short_chars = 0
        self.short_count = 0
        self.reserved: set[str] = set()
        self.windows: list[tuple[str, list[tuple[int, int]]]] = []
        self.ncall = 0
        self.tools_used: set[str] = set()
        # who and where
        self.first, self.last = r.choice(FIRST), r.choice(LAST)
        self.uname = (self.first[0] + self.last).lower().translate(ASCII)
        self.pi_first, self.pi_last = r.choice(PIS)
        self.lab = f"AG {self.pi_last}"
        self.cluster = r.choice(CLUSTERS)
        self.city = r.choice(CITIES)
        self.colleagues = r.sample(COLLEAGUES, 4)
        self.core_person = r.choice(CORE_STAFF)
        self.mouse = r.random() < 0.65
        self.genes = MOUSE_GENES if self.mouse else HUMAN_GENES
        self.ens = "ENSMUSG" if self.mouse else "ENSG"
        if self.mouse:
            self.kogene = r.choice(("Hnf4a", "Nr1h4", "Ppara", "Srebf1", "Foxa2", "Nr0b2"))
            self.proj = r.choice(("liverko", "tc_liver", "nash_ko", "fxr_tc", "hep_ko"))
            times = sorted(r.sample(("0h", "6h", "24h", "72h", "96h"), r.choice((3, 4))), key=lambda t: int(t[:-1]))
            self.samples = [f"{g}_{t}_r{k}" for t in times for g in ("WT", "KO") for k in (1, 2, 3)]
            self.factor, self.levels = "genotype", ("KO", "WT")
        else:
            self.kogene = r.choice(("HNF4A", "SOX9", "YAP1", "ONECUT1"))
            self.proj = r.choice(("org_tgfb", "cholangio", "hep_il6", "liverorg"))
            treats = ("ctrl", "TGFb", "IL6") if r.random() < 0.5 else ("ctrl", "TGFb")
            self.samples = [f"D{d}_{t}_r{k}" for d in (1, 2, 3, 4) for t in treats for k in (1, 2)]
            self.factor, self.levels = "treatment", ("TGFb", "ctrl")
        self.sn = {s: i + 1 for i, s in enumerate(self.samples)}
        self.vsamples = [f"P{i:02d}" for i in range(1, r.choice((9, 12, 16)) + 1)]
        self.home = f"/home/{self.uname}"
        self.scratch = f"/scratch/{self.uname}"
        self.pdir = f"{self.scratch}/{self.proj}"
        self.year = r.choice((2024, 2025))
        self.clock = r.randint(0, 86400 * 20) + 86400 * 30 * r.randint(0, 8)
        self.jobid = r.randint(41_000_000, 58_000_000)
        self.our_jobs: list[tuple[int, str]] = []
        self.flowcells = [f"H{self._letters(4)}DSX{r.randint(2, 9)}" for _ in range(2)]
        self.runs = [r.randint(3100, 3999) for _ in range(2)]
        self.note = ""

    # --- small draws -------------------------------------------------------------------------------------------

    def _letters(self, n: int) -> str:
        return "".join(self.rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(n))

    def hex(self, n: int) -> str:
        return "".join(self.rng.choice("0123456789abcdef") for _ in range(n))

    def pick(self, seq: Any) -> Any:
        return seq[self.rng.randrange(len(seq))]

    def sample(self) -> str:
        return self.pick(self.samples)

    def gene(self) -> str:
        return self.pick(self.genes)

    def ensid(self) -> str:
        return f"{self.ens}{self.rng.randint(0, 299999):011d}"

    def node(self) -> str:
        r = self.rng.random()
        if r < 0.6:
            return f"n{self.rng.randint(100, 399):04d}"
        return f"hm{self.rng.randint(1, 16):02d}" if r < 0.9 else f"g{self.rng.randint(1, 12):03d}"

    def new_job(self) -> int:
        self.jobid += self.rng.randint(1, 60)
        return self.jobid

    def tick(self, seconds: int) -> None:
        self.clock += seconds

    def when(self, back: int = 0) -> tuple[int, int, int, int, int, int]:
        """(month 1-12, day, hour, minute, second, weekday) of the session clock ``back`` seconds ago."""
        t = max(0, self.clock - back)
        day_of_year, rest = divmod(t, 86400)
        month, day = min(11, day_of_year // 30), day_of_year % 30 + 1
        return month + 1, day, rest // 3600, rest % 3600 // 60, rest % 60, (day_of_year + 2) % 7

    def ts_nf(self, back: int = 0) -> str:
        mo, d, h, mi, s, _ = self.when(back)
        return f"{MONTHS[mo - 1]}-{d:02d} {h:02d}:{mi:02d}:{s:02d}.{self.rng.randint(0, 999):03d}"

    def ts_iso(self, back: int = 0) -> str:
        mo, d, h, mi, s, _ = self.when(back)
        return f"{self.year}-{mo:02d}-{d:02d}T{h:02d}:{mi:02d}:{s:02d}"

    def ts_smk(self, back: int = 0) -> str:
        mo, d, h, mi, s, wd = self.when(back)
        return f"[{WEEKDAYS[wd]} {MONTHS[mo - 1]} {d} {h:02d}:{mi:02d}:{s:02d} {self.year}]"

    def hms(self, seconds: int) -> str:
        d, rest = divmod(seconds, 86400)
        text = f"{rest // 3600:02d}:{rest % 3600 // 60:02d}:{rest % 60:02d}"
        return f"{d}-{text}" if d else text

    # --- the reserve: every planted value and stale value, none inside another -------------------------------

    def reserve(self, *values: str) -> bool:
        for v in values:
            if not v or any(v in old or old in v for old in self.reserved):
                return False
        if len(set(values)) != len(values) or any(a in b for a in values for b in values if a is not b):
            return False
        self.reserved.update(values)
        return True

    def free(self, text: str) -> bool:
        """Nothing reserved inside ``text`` (for filler lines built like planted ones)."""
        return not any(v in text for v in self.reserved)

    # --- messages ----------------------------------------------------------------------------------------------

    def add(self, msg: Message) -> int:
        self.msgs.append(msg)
        size = len(text_of(msg))
        self.chars += size
        if msg["role"] == "tool" and size > 700:
            self.long_count += 1
        else:
            self.short_chars += size
            self.short_count += 1
        self.tick(self.rng.randint(15, 420))
        return len(self.msgs) - 1

    def user(self, text: str) -> int:
        return self.add({"role": "user", "content": text})

    def say(self, text: str) -> int:
        return self.add({"role": "assistant", "content": text})

    def _call(self, tool: str, args: dict[str, Any]) -> dict[str, Any]:
        self.ncall += 1
        self.tools_used.add(tool)
        return {"id": f"call_{self.hex(24)}", "type": "function",
                "function": {"name": tool, "arguments": json.dumps(args, ensure_ascii=False)}}

    def step(self, tool: str, args: dict[str, Any], out: str | Callable[[], str], content: str | None = None) -> int:
        """One call answered at once; returns the tool message's index."""
        call = self._call(tool, args)
        self.add({"role": "assistant", "content": content, "tool_calls": [call]})
        text = out() if callable(out) else out
        return self.add({"role": "tool", "tool_call_id": call["id"], "name": tool, "content": text})

    def psteps(self, calls: list[tuple[str, dict[str, Any], Callable[[], str]]], content: str | None = None) -> list[int]:
        """Parallel calls in one assistant message, each answered in turn."""
        made = [self._call(t, a) for t, a, _ in calls]
        self.add({"role": "assistant", "content": content, "tool_calls": made})
        return [self.add({"role": "tool", "tool_call_id": c["id"], "name": t, "content": out()})
                for c, (t, _a, out) in zip(made, calls)]

    def budget(self, scale: float = 1.0) -> int:
        """How long the next long output should be for the session to land on its size."""
        i = len(self.msgs)
        left = max(1, self.n - i)
        want = self.n * CHARS_PER_MESSAGE - self.chars
        share = (self.long_count + 4) / (i + 12)
        longs = max(1.0, left * share)
        short_avg = (self.short_chars + 4000) / (self.short_count + 10)
        each = (want - (left - longs) * short_avg) / longs
        return int(max(300, min(15000, each * scale * self.rng.uniform(0.6, 1.4))))

    # --- SLURM -------------------------------------------------------------------------------------------------

    def job_name(self) -> str:
        r = self.rng.random()
        if r < 0.35:
            return f"nf-{self.pick(PROCS)}_({self.sample()})"
        if r < 0.6:
            return f"smk-{self.pick(RULES)}-{self.pick(self.vsamples)}"
        return self.pick(("star_idx", "deseq2", "multiqc", "salmon_idx", "scanpy_int", "bcf_merge", "rsync_raw",
                          f"star_{self.sample()}", f"fc_{self.proj}", "interactive", "jupyter", "gatk_jg"))

    def out_sbatch(self, array: str = "") -> str:
        job = self.new_job()
        self.our_jobs.append((job, array))
        return f"Submitted batch job {job}"

    def out_squeue(self) -> str:
        b = self.budget(0.5)
        rows = ["             JOBID PARTITION     NAME     USER ST       TIME  NODES NODELIST(REASON)"]
        size = 90
        others = ("jbecker", "mgruber", "praman", "lkrueger", "tfrank", "awojcik", "nbraun", self.uname)
        while size < b and len(rows) < 300:
            job = self.new_job()
            st = self.pick(("R", "R", "R", "PD", "PD", "CG"))
            where = self.node() if st != "PD" else self.pick(("(Priority)", "(Resources)", "(QOSMaxJobsPerUserLimit)",
                                                              "(Dependency)", "(AssocGrpCPURunMinutesLimit)"))
            if self.rng.random() < 0.2:
                job_text = f"{job}_[{self.rng.randint(2, 9)}-{self.rng.randint(12, 48)}%{self.pick((5, 10, 20))}]"
                where = "(JobArrayTaskLimit)"
                st = "PD"
            else:
                job_text = str(job)
            t = self.hms(self.rng.randint(0, 60000)) if st == "R" else "0:00"
            row = (f"{job_text:>18} {self.pick(PARTITIONS):>9} {self.job_name()[:8]:>8} {self.pick(others)[:8]:>8} "
                   f"{st:>2} {t:>10} {1:>6} {where}")
            rows.append(row)
            size += len(row) + 1
        running = sum(" R " in r for r in rows)
        self.note = f"{running} running, {len(rows) - 1 - running} waiting"
        return "\n".join(rows)

    def sacct_rows(self, job: int, name: str, state: str, wide: bool, maxrss: str = "") -> list[str]:
        req = self.pick((16, 24, 32, 48, 64, 96, 128))
        el = self.rng.randint(60, 80000) if state != "TIMEOUT" else self.pick((14400, 28800, 86400))
        rss = int(req * 1024 * 1024 * (self.rng.uniform(0.97, 1.01) if state == "OUT_OF_MEMORY" else self.rng.uniform(0.05, 0.9)))
        if maxrss:
            rss = int(maxrss[:-1])
            req = min(x for x in (16, 24, 32, 48, 64, 96, 128, 192, 256, 512) if x * 1024 * 1024 > rss * 0.99)
        code = {"COMPLETED": "0:0", "FAILED": f"{self.pick((1, 2, 127))}:0", "OUT_OF_MEMORY": "0:125",
                "TIMEOUT": "0:0", "RUNNING": "0:0", "CANCELLED by 0": "0:0"}[state]
        part, cpus = self.pick(PARTITIONS[:4]), self.pick((4, 8, 12, 16, 24, 32))
        if wide:
            fmt = "{:<20} {:<34} {:>10} {:>12} {:>12} {:>8} {:>6} {:>16} {:>8}"
            return [fmt.format(job, name[:34], part, self.hms(el), "", f"{req}G", cpus, state, code),
                    fmt.format(f"{job}.batch", "batch", "", self.hms(el), f"{rss}K", "", cpus, state, code),
                    fmt.format(f"{job}.extern", "extern", "", self.hms(el), f"{self.rng.randint(800, 1200)}K", "",
                               cpus, "COMPLETED", "0:0")]
        short = state[:9] + "+" if len(state) > 10 else state
        fmt = "{:<12} {:>10} {:>10} {:>10} {:>10} {:>10} {:>9} {:>10} {:>8}"
        nm = name[:9] + "+" if len(name) > 10 else name
        return [fmt.format(job, nm, part, self.hms(el), "", f"{req}G", cpus, short, code),
                fmt.format(f"{str(job)[:11]}+", "batch", "", self.hms(el), f"{rss}K", "", cpus, short, code),
                fmt.format(f"{str(job)[:11]}+", "extern", "", self.hms(el), "1016K", "", cpus, "COMPLETED", "0:0")]

    def out_sacct(self, planted: tuple[str, str, str] | None = None) -> str:
        """``planted``: (job name, state, a MaxRSS that must show) for a finding."""
        b = self.budget(0.7)
        wide = self.rng.random() < 0.5
        if wide:
            head = ["JobID                JobName                             Partition      Elapsed       MaxRSS   ReqMem "
                    "AllocC            State ExitCode",
                    "-------------------- ---------------------------------- ---------- ------------ ------------ "
                    "-------- ------ ---------------- --------"]
        else:
            head = ["JobID           JobName  Partition    Elapsed     MaxRSS     ReqMem AllocCPUS      State ExitCode ",
                    "------------ ---------- ---------- ---------- ---------- ---------- --------- ---------- -------- "]
        rows = list(head)
        size = sum(len(x) for x in rows)
        where = self.rng.randint(0, 6) if planted else -1
        states: dict[str, int] = {}
        k = 0
        while (size < b and len(rows) < 400) or k <= where:
            state = self.pick(STATES)
            name = self.job_name()
            rss = ""
            if k == where and planted:
                name, state, rss = planted
            block = self.sacct_rows(self.new_job(), name, state, wide, rss)
            rows.extend(block)
            states[state] = states.get(state, 0) + 1
            size += sum(len(x) for x in block)
            k += 1
        bad = {s: c for s, c in states.items() if s in ("FAILED", "OUT_OF_MEMORY", "TIMEOUT")}
        self.note = ", ".join(f"{c} {s}" for s, c in bad.items()) or "nothing failed"
        return "\n".join(rows)

    def seff_block(self, job: int, state: str | None = None, used: str | None = None) -> str:
        cpus, req = self.pick((4, 8, 12, 16, 24, 32)), self.pick((16, 24, 32, 48, 64, 96, 128))
        wall = self.rng.randint(300, 90000)
        state = state or self.pick(("COMPLETED", "COMPLETED", "COMPLETED", "OUT_OF_MEMORY", "FAILED", "TIMEOUT"))
        code = {"COMPLETED": 0, "OUT_OF_MEMORY": 0, "FAILED": 1, "TIMEOUT": 0}.get(state, 0)
        mem = used or f"{req * (self.rng.uniform(0.97, 0.999) if state == 'OUT_OF_MEMORY' else self.rng.uniform(0.04, 0.92)):.2f} GB"
        if used:
            req = min(x for x in (16, 24, 32, 48, 64, 96, 128, 192, 256, 512) if x > float(used.split()[0]))
            state, code = self.pick(("COMPLETED", "OUT_OF_MEMORY")), 0
        eff = float(mem.split()[0]) / req * 100
        cpu_eff = self.rng.uniform(4, 96)
        return "\n".join([
            f"Job ID: {job}", f"Cluster: {self.cluster}", f"User/Group: {self.uname}/ag_{self.pi_last.lower().translate(ASCII)}",
            f"State: {state} (exit code {code})", "Nodes: 1", f"Cores per node: {cpus}",
            f"CPU Utilized: {self.hms(int(wall * cpus * cpu_eff / 100))}",
            f"CPU Efficiency: {cpu_eff:.2f}% of {self.hms(wall * cpus)} core-walltime",
            f"Job Wall-clock time: {self.hms(wall)}", f"Memory Utilized: {mem}",
            f"Memory Efficiency: {eff:.2f}% of {req:.2f} GB"])

    def out_seff(self, planted: str | None = None) -> str:
        b = self.budget(0.5)
        blocks, size = [], 0
        where = self.rng.randint(0, 3) if planted else -1
        while size < b or len(blocks) <= where:
            job = self.new_job()
            blk = self.seff_block(job, None, planted if len(blocks) == where else None)
            blocks.append(blk)
            size += len(blk) + 2
            if len(blocks) > 60:
                break
        return "\n\n".join(blocks)

    # --- Nextflow and Snakemake ------------------------------------------------------------------------------------

    def nf_runname(self) -> str:
        while True:
            name = f"{self.pick(NF_ADJ)}_{self.pick(NF_NAME)}"
            if self.free(name):
                return name

    def nf_hash(self) -> str:
        return f"{self.hex(2)}/{self.hex(6)}"

    def nf_command(self, proc: str, s: str) -> list[str]:
        c = self.pick((8, 12, 16))
        if proc == "STAR_ALIGN":
            return ["STAR \\", "    --genomeDir star \\", f"    --readFilesIn input1/{s}_1.fastq.gz input2/{s}_2.fastq.gz \\",
                    f"    --runThreadN {c} \\", f"    --outFileNamePrefix {s}. \\", "     \\",
                    "    --sjdbGTFfile genes.gtf \\", f"    --outSAMattrRGline 'ID:{s}' 'SM:{s}' \\",
                    "    --quantMode TranscriptomeSAM --twopassMode Basic --outSAMtype BAM Unsorted --readFilesCommand zcat "
                    "--runRNGseed 0 --outFilterMultimapNmax 20 --alignSJDBoverhangMin 1 --outSAMattributes NH HI AS NM MD "
                    "--quantTranscriptomeBan Singleend --outSAMstrandField intronMotif", "",
                    f"if [ -f {s}.Unmapped.out.mate1 ]; then", f"    mv {s}.Unmapped.out.mate1 {s}.unmapped_1.fastq",
                    f"    gzip {s}.unmapped_1.fastq", "fi"]
        if proc == "FASTP":
            return [f"[ ! -f  {s}_1.fastq.gz ] && ln -sf {s}_R1.fastq.gz {s}_1.fastq.gz",
                    f"[ ! -f  {s}_2.fastq.gz ] && ln -sf {s}_R2.fastq.gz {s}_2.fastq.gz", "fastp \\",
                    f"    --in1 {s}_1.fastq.gz \\", f"    --in2 {s}_2.fastq.gz \\", f"    --out1 {s}_1.fastp.fastq.gz \\",
                    f"    --out2 {s}_2.fastp.fastq.gz \\", f"    --json {s}.fastp.json \\", f"    --html {s}.fastp.html \\",
                    "     \\", f"    --thread {c} \\", "    --detect_adapter_for_pe \\", "    --qualified_quality_phred 20 \\",
                    f"    2> >(tee {s}.fastp.log >&2)"]
        if proc == "FEATURECOUNTS":
            return ["featureCounts \\", "    -B -C -g gene_biotype -t exon \\", "    -p \\", f"    -T {c} \\",
                    "    -a genes.gtf \\", f"    -s {self.pick((0, 1, 2))} \\", f"    -o {s}.featureCounts.txt \\",
                    f"    {s}.markdup.sorted.bam"]
        if proc in ("SAMTOOLS_SORT", "SAMTOOLS_INDEX"):
            return [f"samtools sort -@ {c} -m {self.pick((768, 1024, 2048))}M -o {s}.sorted.bam -T {s}.sorted {s}.Aligned.out.bam"]
        if proc == "SALMON_QUANT":
            return ["salmon quant \\", "    --geneMap genes.gtf \\", f"    --threads {c} \\", "    --libType=A \\",
                    "    -t genome.transcripts.fa \\", "    -a " + s + ".Aligned.toTranscriptome.out.bam \\",
                    "    --seqBias --gcBias \\", f"    -o {s}"]
        return [f"{proc.lower()} --threads {c} {s}.sorted.bam > {s}.{proc.lower()}.txt"]

    def nf_stderr(self, proc: str, s: str, code: int) -> list[str]:
        if code == 137:
            cmd = self.nf_command(proc, s)[0].rstrip(" \\")
            return [f".command.sh: line {self.rng.randint(3, 14)}: {self.rng.randint(1000, 99999)} Killed"
                    f"                  {cmd} {s}_1.fastq.gz {s}_2.fastq.gz"]
        if code == 140:
            return [f"slurmstepd: error: *** JOB {self.new_job()} ON {self.node()} CANCELLED AT {self.ts_iso()} DUE TO TIME LIMIT ***"]
        return [self.pick((
            "EXITING because of FATAL ERROR in input reads: unknown file format: the read ID should start with @ or >",
            "ERROR: no features were loaded in format GTF. The annotation format can be specified by the '-F' option.",
            "[E::bgzf_read_block] Invalid BGZF header at offset 4312990177",
            "Exception : [Error: The index version file salmon/versionInfo.json doesn't seem to exist.  "
            "Please try re-building the salmon index.]",
            "ERROR: Failed to open file: " + s + "_2.fastq.gz",
            "java.lang.OutOfMemoryError: GC overhead limit exceeded",
            "samtools sort: couldn't allocate memory for bam_mem"))]

    def nf_error_block(self, proc: str, s: str, code: int, long_names: bool) -> list[str]:
        name = f"{LONG_PROC.get(proc, proc) if long_names else proc} ({s})"
        head = f"ERROR ~ Error executing process > '{name}'"
        if not self.free(head):
            name = f"{proc} ({s})" if long_names else f"{LONG_PROC.get(proc, proc)} ({s})"
            head = f"ERROR ~ Error executing process > '{name}'"
        return ([head, "", "Caused by:", f"  Process `{name}` terminated with an error exit status ({code})", "", "",
                 "Command executed:", ""] + ["  " + x for x in self.nf_command(proc, s)] +
                ["", "Command exit status:", f"  {code}", "", "Command output:", "  (empty)", "", "Command error:"] +
                ["  " + x for x in self.nf_stderr(proc, s, code)] +
                ["", "Work dir:", f"  {self.pdir}/work/{self.hex(2)}/{self.hex(30)}", "",
                 "Tip: view the complete command output by changing to the process work dir and entering the command "
                 "`cat .command.out`", "", " -- Check '.nextflow.log' file for details"])

    def out_nf_console(self, error: tuple[str, str, int] | None = None, head_line: str = "",
                       run_name: str = "", done: bool | None = None) -> str:
        """A Nextflow run with -ansi-log false; ``error``: (process, sample, exit status) to fail on;
        ``head_line``: the planted ERROR line to use; ``run_name``: a planted run name."""
        b = self.budget(1.1)
        nf_core = bool(head_line) or self.rng.random() < 0.6
        name = run_name or self.nf_runname()
        ver = self.pick(("23.10.1", "23.04.4", "24.04.2", "24.10.0"))
        lines = [f"N E X T F L O W  ~  version {ver}"]
        if nf_core:
            lines.append(f"Launching `https://github.com/nf-core/rnaseq` [{name}] DSL2 - revision: {self.hex(10)} "
                         f"[{self.pick(('3.12.0', '3.13.2', '3.14.0'))}]")
            lines += ["", "------------------------------------------------------", "                                        ,--./,-.",
                      "        ___     __   __   __   ___     /,-._.--~'", "  |\\ | |__  __ /  ` /  \\ |__) |__         }  {",
                      "  | \\| |       \\__, \\__/ |  \\ |___     \\`-._,-`-,", "                                        `._,._,'",
                      "------------------------------------------------------", "Core Nextflow options",
                      f"  runName                   : {name}", "  containerEngine           : singularity",
                      f"  launchDir                 : {self.pdir}", f"  workDir                   : {self.pdir}/work",
                      f"  userName                  : {self.uname}", f"  profile                   : singularity,{self.cluster}",
                      "", "Input/output options", f"  input                     : samplesheets/samplesheet_run{self.rng.randint(1, 2)}.csv",
                      "  outdir                    : results", "", "Reference genome options",
                      "  fasta                     : /ref/genome/primary_assembly.fa",
                      "  gtf                       : /ref/genome/annotation.gtf", "  gencode                   : false",
                      "", "Alignment options", f"  aligner                   : {self.pick(('star_salmon', 'star_rsem'))}",
                      "  pseudo_aligner            : salmon", "", "!! Only displaying parameters that differ from the pipeline defaults !!",
                      "------------------------------------------------------", ""]
        else:
            lines += [f"Launching `main.nf` [{name}] DSL2 - revision: {self.hex(10)}", ""]
        proc_names = {p: (LONG_PROC[p] if nf_core else p) for p in PROCS}
        size = sum(len(x) for x in lines)
        fail_at = self.rng.randint(6, 40) if error else -1
        k = 0
        while size < b * 0.8 and k < 900:
            p, s = self.pick(PROCS[:9]), self.sample()
            if self.rng.random() < 0.7:
                line = f"[{self.nf_hash()}] Submitted process > {proc_names[p]} ({s})"
            elif self.rng.random() < 0.75:
                line = f"[{self.nf_hash()}] Cached process > {proc_names[p]} ({s})"
            else:
                code = self.pick((137, 140, 143))
                line = (f"[{self.nf_hash()}] NOTE: Process `{proc_names[p]} ({s})` terminated with an error exit status "
                        f"({code}) -- Execution is retried ({self.rng.randint(1, 2)})")
            lines.append(line)
            size += len(line) + 1
            k += 1
            if k == fail_at:
                break
        if error:
            block = self.nf_error_block(error[0], error[1], error[2], nf_core)
            if head_line:
                block[0] = head_line
            lines += [""] + block
            lines.append("-[nf-core/rnaseq] Pipeline completed with errors-" if nf_core else "")
            self.note = f"{error[0]} ({error[1]}) failed with exit {error[2]}"
        elif done if done is not None else self.rng.random() < 0.6:
            total = self.rng.randint(150, 420)
            lines += ["", "-[nf-core/rnaseq] Pipeline completed successfully-" if nf_core else "",
                      f"Completed at: {self.when()[1]:02d}-{MONTHS[self.when()[0] - 1]}-{self.year} {self.ts_nf()[7:15]}",
                      f"Duration    : {self.rng.randint(1, 9)}h {self.rng.randint(0, 59)}m {self.rng.randint(0, 59)}s",
                      f"CPU hours   : {self.rng.uniform(20, 600):.1f} ({self.rng.uniform(0, 90):.1f}% cached)",
                      f"Succeeded   : {total}", f"Cached      : {self.rng.randint(0, total)}"]
            self.note = f"completed, {total} tasks"
        else:
            self.note = "still running"
        return "\n".join(lines)

    def out_nf_log(self) -> str:
        b = self.budget(0.9)
        lines, size = [], 0
        while size < b and len(lines) < 800:
            p, s, job = self.pick(PROCS[:9]), self.sample(), self.new_job()
            h = self.nf_hash()
            r = self.rng.random()
            if r < 0.35:
                line = (f"{self.ts_nf(self.rng.randint(0, 9000))} [Task submitter] DEBUG n.executor.GridTaskHandler - [SLURM] "
                        f"submitted process {p} ({s}) > jobId: {job}; workDir: {self.pdir}/work/{h}{self.hex(24)}")
            elif r < 0.6:
                line = (f"{self.ts_nf(self.rng.randint(0, 9000))} [Task monitor] DEBUG n.processor.TaskPollingMonitor - "
                        f"Task completed > TaskHandler[jobId: {job}; id: {self.rng.randint(1, 900)}; name: {p} ({s}); "
                        f"status: COMPLETED; exit: {self.pick((0, 0, 0, 0, 137, 1))}; error: -; workDir: {self.pdir}/work/{h}{self.hex(24)} "
                        f"started: {self.rng.randint(10**12, 2 * 10**12)}; exited: {self.ts_iso()}.{self.rng.randint(100, 999)}Z; ]")
            elif r < 0.75:
                line = (f"{self.ts_nf(self.rng.randint(0, 9000))} [Task monitor] DEBUG n.executor.AbstractGridExecutor - "
                        f"[SLURM] queue status > jobId: {job}; status: {self.pick(('RUNNING', 'PENDING', 'COMPLETED'))}")
            elif r < 0.88:
                line = (f"{self.ts_nf(self.rng.randint(0, 9000))} [Task monitor] INFO  nextflow.Session - [{h}] "
                        f"{self.pick(('Submitted', 'Cached'))} process > {p} ({s})")
            else:
                line = (f"{self.ts_nf(self.rng.randint(0, 9000))} [main] DEBUG nextflow.Session - Workflow process names "
                        f"[dsl2]: {', '.join(self.rng.sample(PROCS, 5))}")
            lines.append(line)
            size += len(line) + 1
        lines.sort()
        return "\n".join(lines)

    def smk_paths(self, rule: str, v: str) -> tuple[str, str]:
        io = {"fastp": (f"raw/{v}_R1.fastq.gz, raw/{v}_R2.fastq.gz", f"trimmed/{v}_R1.fq.gz, trimmed/{v}_R2.fq.gz"),
              "bwa_mem": (f"trimmed/{v}_R1.fq.gz, trimmed/{v}_R2.fq.gz", f"mapped/{v}.bam"),
              "sort_bam": (f"mapped/{v}.bam", f"sorted/{v}.bam"),
              "mark_duplicates": (f"sorted/{v}.bam", f"dedup/{v}.bam, qc/dedup/{v}.metrics.txt"),
              "base_recalibrator": (f"dedup/{v}.bam, ref/known_sites.vcf.gz", f"recal/{v}.table"),
              "apply_bqsr": (f"dedup/{v}.bam, recal/{v}.table", f"recal/{v}.bam"),
              "haplotype_caller": (f"recal/{v}.bam, ref/exome_targets.bed", f"gvcf/{v}.g.vcf.gz"),
              "mosdepth": (f"recal/{v}.bam", f"qc/mosdepth/{v}.mosdepth.summary.txt")}
        return io.get(rule, ("gvcf/all.done", f"calls/joint.{rule}.vcf.gz"))

    def smk_shell(self, rule: str, v: str) -> str:
        return {"bwa_mem": f"(bwa-mem2 mem -t 16 -R '@RG\\tID:{v}\\tSM:{v}\\tPL:ILLUMINA' ref/genome.fa trimmed/{v}_R1.fq.gz "
                           f"trimmed/{v}_R2.fq.gz | samtools view -b -o mapped/{v}.bam -) 2> logs/bwa_mem/{v}.log",
                "mark_duplicates": f"gatk MarkDuplicates -I sorted/{v}.bam -O dedup/{v}.bam -M qc/dedup/{v}.metrics.txt "
                                   f"--TMP_DIR /tmp 2> logs/mark_duplicates/{v}.log",
                "haplotype_caller": f"gatk --java-options '-Xmx24g' HaplotypeCaller -R ref/genome.fa -I recal/{v}.bam "
                                    f"-L ref/exome_targets.bed -O gvcf/{v}.g.vcf.gz -ERC GVCF 2> logs/haplotype_caller/{v}.log",
                }.get(rule, f"{rule.replace('_', ' ')} --threads 8 {v} > logs/{rule}/{v}.log 2>&1")

    def out_smk(self, error: str = "", head_line: str = "") -> str:
        """A Snakemake log; ``error``: a rule that fails (its block), ``head_line``: a planted line in the failure."""
        b = self.budget(1.0)
        stats = {r: self.rng.randint(1, len(self.vsamples)) for r in RULES}
        total = sum(stats.values()) + 1
        lines = [f"Using profile profiles/{self.cluster}_slurm for setting default command line arguments.",
                 "Building DAG of jobs...", "Using shell: /usr/bin/bash", "Provided remote nodes: 100", "Job stats:",
                 "job                  count", "-----------------  -------", "all                      1"]
        lines += [f"{r:<18} {c:>7}" for r, c in stats.items()] + [f"{'total':<18} {total:>7}", "", "Select jobs to execute...", ""]
        size, done, k = sum(len(x) for x in lines), 0, 0
        fail_at = self.rng.randint(3, 12) if error else -1
        while (size < b and k < 300) or (error and k < fail_at):
            rule, v = self.pick(RULES[:8]), self.pick(self.vsamples)
            jid, job = self.rng.randint(1, total), self.new_job()
            inp, outp = self.smk_paths(rule, v)
            threads = self.pick((1, 4, 8, 16))
            block = [self.ts_smk(self.rng.randint(0, 5000)), f"rule {rule}:", f"    input: {inp}", f"    output: {outp}",
                     f"    log: logs/{rule}/{v}.log", f"    jobid: {jid}",
                     f"    reason: Missing output files: {outp.split(', ')[0]}", f"    wildcards: sample={v}",
                     f"    threads: {threads}",
                     f"    resources: mem_mb={threads * 4000}, mem_mib={threads * 3815}, disk_mb=1000, disk_mib=954, "
                     f"tmpdir=<TBD>, slurm_partition={self.pick(PARTITIONS[:3])}, runtime={self.pick((60, 240, 480, 1440))}",
                     "", f"Submitted job {jid} with external jobid '{job}'."]
            if self.rng.random() < 0.6:
                done += 1
                block += [self.ts_smk(), f"Finished job {jid}.", f"{done} of {total} steps ({done * 100 // total}%) done"]
            lines += block
            size += sum(len(x) + 1 for x in block)
            k += 1
        if error:
            v = self.pick(self.vsamples)
            jid, job = self.rng.randint(1, total), self.new_job()
            inp, outp = self.smk_paths(error, v)
            lines += [self.ts_smk(), f"Error in rule {error}:", f"    jobid: {jid}", f"    input: {inp}", f"    output: {outp}",
                      f"    log: logs/{error}/{v}.log (check log file(s) for error details)", "    shell:",
                      f"        {self.smk_shell(error, v)}",
                      "        (one of the commands exited with non-zero exit code; note that snakemake uses bash strict mode!)",
                      f"    external_jobid: {job}", ""]
            if head_line:
                lines += [head_line, f"Job {jid}  completed successfully, but some output files are missing. Missing files after "
                          "5 seconds. This might be due to filesystem latency. If that is the case, consider to increase the "
                          "wait time with --latency-wait:", outp.split(", ")[0], ""]
            else:
                lines += [f"Error executing rule {error} on cluster (jobid: {jid}, external: {job}, jobscript: {self.pdir}/"
                          f".snakemake/tmp.{self.hex(8)}/snakejob.{error}.{jid}.sh). For error details see the cluster log "
                          "and the log files of the involved rule(s).", f"Trying to restart job {jid}.", ""]
            lines += ["Shutting down, this might take some time.",
                      "Exiting because a job execution failed. Look above for error message",
                      f"Complete log: .snakemake/log/{self.year}-{self.when()[0]:02d}-{self.when()[1]:02d}T"
                      f"{self.ts_nf()[7:15].replace(':', '')}.{self.rng.randint(100000, 999999)}.snakemake.log"]
            self.note = f"{error} failed for {v}"
        else:
            self.note = f"{done} of {total} steps done"
        return "\n".join(lines)

    # --- tool logs ---------------------------------------------------------------------------------------------

    def star_log(self, s: str, uniq: str = "") -> str:
        reads = self.rng.randint(18_000_000, 62_000_000)
        u = float(uniq[:-1]) if uniq else self.rng.uniform(78, 93)
        multi = self.rng.uniform(3, 9)
        short = max(0.3, 100 - u - multi - self.rng.uniform(0.1, 1.2))
        ml = self.rng.uniform(190, 299)
        sp = int(reads * u / 100 * self.rng.uniform(0.4, 0.7))
        mo, d, h, mi, _s, _w = self.when(self.rng.randint(3000, 40000))
        rows = [("Started job on", f"{MONTHS[mo - 1]} {d:02d} {h:02d}:{mi:02d}:{self.rng.randint(10, 59)}"),
                ("Started mapping on", f"{MONTHS[mo - 1]} {d:02d} {h:02d}:{min(59, mi + 3):02d}:{self.rng.randint(10, 59)}"),
                ("Finished on", f"{MONTHS[mo - 1]} {d:02d} {(h + 1) % 24:02d}:{mi:02d}:{self.rng.randint(10, 59)}"),
                ("Mapping speed, Million of reads per hour", f"{self.rng.uniform(40, 140):.2f}"), ("", ""),
                ("Number of input reads", str(reads)), ("Average input read length", str(self.pick((200, 202, 300, 150)))),
                ("UNIQUE READS:", None), ("Uniquely mapped reads number", str(int(reads * u / 100))),
                ("Uniquely mapped reads %", uniq or f"{u:.2f}%"), ("Average mapped length", f"{ml:.2f}"),
                ("Number of splices: Total", str(sp)), ("Number of splices: Annotated (sjdb)", str(int(sp * 0.99))),
                ("Number of splices: GT/AG", str(int(sp * 0.985))), ("Number of splices: GC/AG", str(int(sp * 0.008))),
                ("Number of splices: AT/AC", str(int(sp * 0.001))), ("Number of splices: Non-canonical", str(int(sp * 0.0015))),
                ("Mismatch rate per base, %", f"{self.rng.uniform(0.15, 0.45):.2f}%"), ("Deletion rate per base", "0.01%"),
                ("Deletion average length", f"{self.rng.uniform(1.5, 2.1):.2f}"), ("Insertion rate per base", "0.01%"),
                ("Insertion average length", f"{self.rng.uniform(1.2, 1.6):.2f}"), ("MULTI-MAPPING READS:", None),
                ("Number of reads mapped to multiple loci", str(int(reads * multi / 100))),
                ("% of reads mapped to multiple loci", f"{multi:.2f}%"),
                ("Number of reads mapped to too many loci", str(self.rng.randint(5000, 90000))),
                ("% of reads mapped to too many loci", f"{self.rng.uniform(0.01, 0.3):.2f}%"), ("UNMAPPED READS:", None),
                ("Number of reads unmapped: too many mismatches", "0"), ("% of reads unmapped: too many mismatches", "0.00%"),
                ("Number of reads unmapped: too short", str(int(reads * short / 100))),
                ("% of reads unmapped: too short", f"{short:.2f}%"),
                ("Number of reads unmapped: other", str(self.rng.randint(20000, 400000))),
                ("% of reads unmapped: other", f"{self.rng.uniform(0.05, 1.1):.2f}%"), ("CHIMERIC READS:", None),
                ("Number of chimeric reads", "0"), ("% of chimeric reads", "0.00%")]
        out = []
        for k, v in rows:
            if v is None:
                out.append(f"{k:>48}")
            elif not k:
                out.append("")
            else:
                out.append(f"{k:>48} |\t{v}")
        return "\n".join(out)

    def out_star_logs(self, planted: tuple[str, str] | None = None) -> str:
        b = self.budget(1.0)
        order = self.rng.sample(self.samples, len(self.samples))
        if planted:
            order.remove(planted[0])
            order.insert(self.rng.randint(0, 3), planted[0])
        parts, size = [], 0
        for s in order:
            uniq = planted[1] if planted and s == planted[0] else ""
            blk = f"==> results/star/{s}/{s}.Log.final.out <==\n" + self.star_log(s, uniq)
            parts.append(blk)
            size += len(blk)
            if size >= b and (not planted or any(planted[1] in p for p in parts)):
                break
        low = min((float(p.split("Uniquely mapped reads % |\t")[1][:5]), p.split("/")[2]) for p in parts)
        self.note = f"lowest is {low[1]} at {low[0]:.1f}% unique"
        return "\n\n".join(parts)

    def flagstat(self, pp: str = "") -> str:
        total = self.rng.randint(30_000_000, 130_000_000)
        sec, sup = self.rng.randint(0, 4_000_000), self.rng.randint(0, 900_000)
        prim = total - sec - sup
        mapped = self.rng.uniform(82, 99.6)
        ppv = float(pp[:-1]) if pp else mapped - self.rng.uniform(0.5, 4)
        dup = self.rng.randint(0, prim // 3)
        return "\n".join([
            f"{total} + 0 in total (QC-passed reads + QC-failed reads)", f"{prim} + 0 primary", f"{sec} + 0 secondary",
            f"{sup} + 0 supplementary", f"{dup} + 0 duplicates", f"{dup} + 0 primary duplicates",
            f"{int(total * mapped / 100)} + 0 mapped ({mapped:.2f}% : N/A)",
            f"{int(prim * mapped / 100)} + 0 primary mapped ({mapped:.2f}% : N/A)", f"{prim} + 0 paired in sequencing",
            f"{prim // 2} + 0 read1", f"{prim - prim // 2} + 0 read2",
            f"{int(prim * ppv / 100)} + 0 properly paired ({pp or f'{ppv:.2f}%'} : N/A)",
            f"{int(prim * (mapped - 0.3) / 100)} + 0 with itself and mate mapped",
            f"{self.rng.randint(10000, 900000)} + 0 singletons ({self.rng.uniform(0.02, 0.9):.2f}% : N/A)",
            f"{self.rng.randint(10000, 400000)} + 0 with mate mapped to a different chr",
            f"{self.rng.randint(5000, 200000)} + 0 with mate mapped to a different chr (mapQ>=5)"])

    def out_flagstat(self, planted: tuple[str, str] | None = None) -> str:
        b = self.budget(0.8)
        parts, size = [], 0
        names = self.rng.sample(self.samples + self.vsamples, len(self.samples) + len(self.vsamples))
        if planted:
            names.remove(planted[0])
            names.insert(self.rng.randint(0, 2), planted[0])
        for s in names:
            blk = f"== {s} ==\n" + self.flagstat(planted[1] if planted and s == planted[0] else "")
            parts.append(blk)
            size += len(blk)
            if size >= b:
                break
        return "\n".join(parts)

    def out_fastp(self, s: str, dup: str = "") -> str:
        lines = []
        for read in ("Read1", "Read2"):
            for when in ("before", "after"):
                n = self.rng.randint(12_000_000, 40_000_000)
                bases = n * self.pick((101, 151))
                lines += [f"{read} {when} filtering:", f"total reads: {n}", f"total bases: {bases}",
                          f"Q20 bases: {int(bases * 0.965)}({self.rng.uniform(94, 98.5):.4f}%)",
                          f"Q30 bases: {int(bases * 0.91)}({self.rng.uniform(88, 94.5):.4f}%)", ""]
        lines += ["Filtering result:", f"reads passed filter: {self.rng.randint(25_000_000, 80_000_000)}",
                  f"reads failed due to low quality: {self.rng.randint(100_000, 900_000)}",
                  f"reads failed due to too many N: {self.rng.randint(200, 9000)}",
                  f"reads failed due to too short: {self.rng.randint(10_000, 400_000)}",
                  f"reads with adapter trimmed: {self.rng.randint(500_000, 6_000_000)}",
                  f"bases trimmed due to adapters: {self.rng.randint(5_000_000, 90_000_000)}", "",
                  f"Duplication rate: {dup or f'{self.rng.uniform(8, 40):.4f}%'}", "",
                  f"Insert size peak (evaluated by paired-end reads): {self.rng.randint(150, 320)}", "",
                  f"JSON report: {s}.fastp.json", f"HTML report: {s}.fastp.html", "",
                  f"fastp --in1 {s}_R1.fastq.gz --in2 {s}_R2.fastq.gz --out1 {s}_1.fastp.fastq.gz --out2 "
                  f"{s}_2.fastp.fastq.gz --json {s}.fastp.json --html {s}.fastp.html --thread 8 --detect_adapter_for_pe",
                  f"fastp v0.23.4, time used: {self.rng.randint(90, 900)} seconds"]
        return "\n".join(lines)

    def out_fastps(self, planted: tuple[str, str] | None = None) -> str:
        b = self.budget(0.9)
        names = self.rng.sample(self.samples, len(self.samples))
        if planted:
            names.remove(planted[0])
            names.insert(self.rng.randint(0, 2), planted[0])
        parts, size = [], 0
        for s in names:
            blk = f"--- logs/fastp/{s}.log ---\n" + self.out_fastp(s, planted[1] if planted and s == planted[0] else "")
            parts.append(blk)
            size += len(blk)
            if size >= b:
                break
        return "\n\n".join(parts)

    def out_featurecounts(self, planted: tuple[str, str] | None = None) -> str:
        b = self.budget(1.0)
        lines = ["", "        ==========     _____ _    _ ____  _____  ______          _____  ",
                 "        =====         / ____| |  | |  _ \\|  __ \\|  ____|   /\\   |  __ \\ ",
                 "          =====      | (___ | |  | | |_) | |__) | |__     /  \\  | |  | |",
                 "            ====      \\___ \\| |  | |  _ <|  _  /|  __|   / /\\ \\ | |  | |",
                 "              ====    ____) | |__| | |_) | | \\ \\| |____ / ____ \\| |__| |",
                 "        ==========   |_____/ \\____/|____/|_|  \\_\\______/_/    \\_\\_____/", "\t  v2.0.6", "",
                 "//========================== featureCounts setting ===========================\\\\",
                 "||                                                                            ||",
                 f"||             Input files : {len(self.samples)} BAM files".ljust(78) + "||",
                 "||                                                                            ||",
                 f"||             Output file : counts/{self.proj}.featureCounts.txt".ljust(78) + "||",
                 "||                 Summary : counts/featureCounts.txt.summary".ljust(78) + "||",
                 "||              Paired-end : yes".ljust(78) + "||",
                 "||              Annotation : annotation.gtf (GTF)".ljust(78) + "||",
                 f"||                 Threads : {self.pick((8, 12, 16))}".ljust(78) + "||",
                 "\\\\============================================================================//", ""]
        names = self.rng.sample(self.samples, len(self.samples))
        if planted:
            names.remove(planted[0])
            names.insert(self.rng.randint(0, 2), planted[0])
        size = sum(len(x) for x in lines)
        for s in names:
            tot = self.rng.randint(20_000_000, 70_000_000)
            ok = planted[1] if planted and s == planted[0] else f"{int(tot * 0.7)} ({self.rng.uniform(55, 82):.1f}%)"
            blk = [f"|| Process BAM file {s}.markdup.sorted.bam...".ljust(78) + "||",
                   "||    Paired-end reads are included.".ljust(78) + "||",
                   f"||    Total alignments : {tot}".ljust(78) + "||",
                   f"||    Successfully assigned alignments : {ok}".ljust(78) + "||",
                   f"||    Running time : {self.rng.uniform(0.2, 2.5):.2f} minutes".ljust(78) + "||",
                   "||                                                                            ||"]
            lines += blk
            size += sum(len(x) for x in blk)
            if size >= b:
                break
        lines += ["|| Write the final count table.".ljust(78) + "||", "|| Write the read assignment summary.".ljust(78) + "||",
                  "\\\\============================================================================//"]
        return "\n".join(lines)

    def out_fastqc_summary(self) -> str:
        b = self.budget(0.6)
        mods = ("Basic Statistics", "Per base sequence quality", "Per tile sequence quality", "Per sequence quality scores",
                "Per base sequence content", "Per sequence GC content", "Per base N content", "Sequence Length Distribution",
                "Sequence Duplication Levels", "Overrepresented sequences", "Adapter Content")
        lines, size = [], 0
        for s in self.rng.sample(self.samples, len(self.samples)) * 2:
            for read in ("R1", "R2"):
                f = f"{s}_S{self.sn[s]}_L00{self.rng.randint(1, 4)}_{read}_001.fastq.gz"
                for mod in mods:
                    verdict = ("FAIL" if mod == "Sequence Duplication Levels" and self.rng.random() < 0.4 else
                               "WARN" if mod in ("Per base sequence content", "Overrepresented sequences", "Per sequence GC content")
                               and self.rng.random() < 0.5 else "PASS")
                    lines.append(f"{verdict}\t{mod}\t{f}")
                    size += len(lines[-1]) + 1
            if size > b:
                break
        fails = sum(x.startswith("FAIL") for x in lines)
        self.note = f"{fails} FAIL verdicts, all of them duplication levels" if fails else "no FAIL verdicts"
        return "\n".join(lines)

    def out_multiqc(self) -> str:
        b = self.budget(0.8)
        cols = ["Sample", "FastQC_mqc-generalstats-fastqc-percent_duplicates", "FastQC_mqc-generalstats-fastqc-percent_gc",
                "FastQC_mqc-generalstats-fastqc-total_sequences", "STAR_mqc-generalstats-star-uniquely_mapped_percent",
                "STAR_mqc-generalstats-star-uniquely_mapped", "featureCounts_mqc-generalstats-featurecounts-percent_assigned",
                "QualiMap_mqc-generalstats-qualimap-5_3_bias"]
        lines = ["\t".join(cols)]
        size = len(lines[0])
        while size < b and len(lines) < 500:
            s = self.sample()
            for mate in ("_1", "_2", ""):
                row = "\t".join([f"{s}{mate}", f"{self.rng.uniform(15, 70):.6f}", f"{self.rng.randint(46, 52)}.0",
                                 f"{self.rng.randint(15, 60) * 1e6 + self.rng.randint(0, 999999):.1f}",
                                 f"{self.rng.uniform(70, 93):.2f}" if not mate else "",
                                 f"{self.rng.randint(15, 50) * 1e6 + self.rng.randint(0, 999999):.1f}" if not mate else "",
                                 f"{self.rng.uniform(50, 85):.4f}" if not mate else "",
                                 f"{self.rng.uniform(0.8, 1.3):.2f}" if not mate else ""])
                lines.append(row)
                size += len(row) + 1
        return "\n".join(lines)

    def out_bcfstats(self, snps: str = "") -> str:
        b = self.budget(0.9)
        n_snp = int(snps.split("\t")[-1]) if snps else self.rng.randint(20000, 95000)
        indel = int(n_snp * self.rng.uniform(0.1, 0.25))
        ts = int(n_snp * self.rng.uniform(0.66, 0.71))
        lines = ["# This file was produced by bcftools stats (1.19+htslib-1.19) and can be plotted using plot-vcfstats.",
                 "# The command line was:\tbcftools stats  -s - calls/joint.filtered.vcf.gz", "#",
                 "# Definition of sets:", "# ID\t[2]id\t[3]tab-separated file names", "ID\t0\tcalls/joint.filtered.vcf.gz",
                 "# SN, Summary numbers:", "#   number of records   .. number of data rows in the VCF",
                 "#   number of no-ALTs   .. reference-only sites, ALT is either \".\" or identical to REF",
                 "#   number of SNPs      .. number of rows with a SNP", "# SN\t[2]id\t[3]key\t[4]value",
                 f"SN\t0\tnumber of samples:\t{len(self.vsamples)}", f"SN\t0\tnumber of records:\t{n_snp + indel}",
                 "SN\t0\tnumber of no-ALTs:\t0", snps or f"SN\t0\tnumber of SNPs:\t{n_snp}", "SN\t0\tnumber of MNPs:\t0",
                 f"SN\t0\tnumber of indels:\t{indel}", "SN\t0\tnumber of others:\t0",
                 f"SN\t0\tnumber of multiallelic sites:\t{self.rng.randint(100, 1500)}",
                 f"SN\t0\tnumber of multiallelic SNP sites:\t{self.rng.randint(50, 600)}",
                 "# TSTV, transitions/transversions:",
                 "# TSTV\t[2]id\t[3]ts\t[4]tv\t[5]ts/tv\t[6]ts (1st ALT)\t[7]tv (1st ALT)\t[8]ts/tv (1st ALT)",
                 f"TSTV\t0\t{ts}\t{n_snp - ts}\t{ts / (n_snp - ts):.2f}\t{ts - 40}\t{n_snp - ts - 31}\t{(ts - 40) / (n_snp - ts - 31):.2f}",
                 "# PSC, Per-sample counts.", "# PSC\t[2]id\t[3]sample\t[4]nRefHom\t[5]nNonRefHom\t[6]nHets\t[7]nTransitions"
                 "\t[8]nTransversions\t[9]nIndels\t[10]average depth\t[11]nSingletons"]
        lines += [f"PSC\t0\t{v}\t{self.rng.randint(1000, 9000)}\t{self.rng.randint(5000, 20000)}\t{self.rng.randint(8000, 30000)}"
                  f"\t{self.rng.randint(9000, 30000)}\t{self.rng.randint(4000, 14000)}\t{self.rng.randint(900, 4000)}"
                  f"\t{self.rng.uniform(30, 140):.1f}\t{self.rng.randint(10, 900)}" for v in self.vsamples]
        lines += ["# DP, Depth distribution", "# DP\t[2]id\t[3]bin\t[4]number of genotypes\t[5]fraction of genotypes (%)"
                  "\t[6]number of sites\t[7]fraction of sites (%)"]
        size, depth = sum(len(x) for x in lines), 0
        while size < b and depth < 500:
            row = (f"DP\t0\t{depth}\t{self.rng.randint(0, 90000)}\t{self.rng.uniform(0, 3):.6f}\t{self.rng.randint(0, 9000)}"
                   f"\t{self.rng.uniform(0, 3):.6f}")
            lines.append(row)
            size += len(row) + 1
            depth += 1
        return "\n".join(lines)

    def out_infer(self, planted: tuple[str, str] | None = None) -> str:
        names = self.rng.sample(self.samples, min(len(self.samples), self.rng.randint(3, 10)))
        if planted:
            if planted[0] in names:
                names.remove(planted[0])
            names.insert(self.rng.randint(0, len(names)), planted[0])
        parts = []
        for s in names:
            rev = planted[1] if planted and s == planted[0] else f"{self.rng.uniform(0.93, 0.975):.4f}"
            fail = self.rng.uniform(0.005, 0.03)
            fwd = max(0.0, 1 - float(rev) - fail)
            parts.append(f"== {s} ==\n\nThis is PairEnd Data\nFraction of reads failed to determine: {fail:.4f}\n"
                         f"Fraction of reads explained by \"1++,1--,2+-,2-+\": {fwd:.4f}\n"
                         f"Fraction of reads explained by \"1+-,1-+,2++,2--\": {rev}")
        return "\n".join(parts)

    def out_gatk(self, exception: str = "", v: str = "") -> str:
        """A GATK run on ``v``; ``exception``: the line it dies on (planted or not), else it runs through."""
        b = self.budget(1.0)
        v = v or self.pick(self.vsamples)
        tool = self.pick(("HaplotypeCaller", "MarkDuplicates", "BaseRecalibrator", "ApplyBQSR", "GenotypeGVCFs"))
        jar = "/opt/conda/envs/gatk4/share/gatk4-4.5.0.0-0/gatk-package-4.5.0.0-local.jar"
        t0 = self.rng.randint(0, 20000)

        def ts(i: int) -> str:
            sec = t0 + i * 3
            return f"{sec // 3600 % 24:02d}:{sec // 60 % 60:02d}:{sec % 60:02d}.{self.rng.randint(0, 999):03d}"
        lines = [f"Using GATK jar {jar}", "Running:",
                 f"    java -Dsamjdk.use_async_io_read_samtools=false -Dsamjdk.use_async_io_write_samtools=true "
                 f"-Dsamjdk.use_async_io_write_tribble=false -Dsamjdk.compression_level=2 -Xmx{self.pick((8, 16, 24, 32))}g "
                 f"-jar {jar} {tool} -R ref/genome.fa -I recal/{v}.bam -O gvcf/{v}.g.vcf.gz -ERC GVCF",
                 f"{ts(0)} INFO  NativeLibraryLoader - Loading libgkl_compression.so from jar:file:{jar}!/com/intel/gkl/"
                 "native/libgkl_compression.so",
                 f"{ts(0)} INFO  {tool} - ------------------------------------------------------------",
                 f"{ts(0)} INFO  {tool} - The Genome Analysis Toolkit (GATK) v4.5.0.0",
                 f"{ts(0)} INFO  {tool} - For support and documentation go to https://software.broadinstitute.org/gatk/",
                 f"{ts(0)} INFO  {tool} - Executing as {self.uname}@{self.node()} on Linux v4.18.0-513.el8.x86_64 amd64",
                 f"{ts(0)} INFO  {tool} - Java runtime: OpenJDK 64-Bit Server VM v17.0.10-internal+0-adhoc..src",
                 f"{ts(1)} INFO  {tool} - Start Date/Time: {self.ts_iso()}", f"{ts(1)} INFO  {tool} - "
                 "------------------------------------------------------------",
                 f"{ts(1)} INFO  {tool} - HTSJDK Version: 4.1.0", f"{ts(1)} INFO  {tool} - Picard Version: 3.1.1",
                 f"{ts(1)} INFO  {tool} - Built for Spark Version: 3.5.0",
                 f"{ts(2)} INFO  {tool} - Requester pays: disabled", f"{ts(2)} INFO  {tool} - Initializing engine",
                 f"{ts(3)} INFO  FeatureManager - Using codec BEDCodec to read file file://{self.scratch}/exome/ref/exome_targets.bed",
                 f"{ts(4)} INFO  IntervalArgumentCollection - Processing {self.rng.randint(30, 70)}123456 bp from intervals",
                 f"{ts(4)} INFO  {tool} - Done initializing engine",
                 f"{ts(5)} INFO  ProgressMeter - Starting traversal",
                 f"{ts(5)} INFO  ProgressMeter -        Current Locus  Elapsed Minutes     Regions Processed   Regions/Minute"]
        size, i, pos = sum(len(x) for x in lines), 6, self.rng.randint(1_000_000, 9_000_000)
        chroms = [f"chr{c}" for c in list(range(1, 20 if self.mouse else 23)) + ["X"]]
        ci = 0
        while size < b * (0.7 if exception else 1.0) and i < 700:
            pos += self.rng.randint(200_000, 4_000_000)
            if pos > 150_000_000:
                pos, ci = self.rng.randint(100_000, 3_000_000), min(ci + 1, len(chroms) - 1)
            line = (f"{ts(i)} INFO  ProgressMeter - {chroms[ci] + ':' + str(pos):>20}{i * 0.17:17.1f}"
                    f"{i * self.rng.randint(900, 1300):22d}{self.rng.uniform(5000, 9000):17.1f}")
            lines.append(line)
            size += len(line) + 1
            i += 1
        if exception:
            lines += [f"{ts(i)} INFO  {tool} - Shutting down engine",
                      f"[{self.ts_iso()}] org.broadinstitute.hellbender.tools.walkers.haplotypecaller.{tool} done. "
                      f"Elapsed time: {i * 0.05:.2f} minutes.", "Runtime.totalMemory()=2147483648", exception,
                      "\tat htsjdk.samtools.SAMUtils.processValidationErrors(SAMUtils.java:456)",
                      "\tat htsjdk.samtools.BAMRecord.getCigar(BAMRecord.java:279)",
                      "\tat org.broadinstitute.hellbender.utils.read.SAMRecordToGATKReadAdapter.getCigar(SAMRecordToGATKReadAdapter.java:393)",
                      "\tat org.broadinstitute.hellbender.engine.filters.ReadFilterLibrary$ValidAlignmentEndReadFilter.test(ReadFilterLibrary.java:146)",
                      "\tat org.broadinstitute.hellbender.engine.filters.ReadFilter$ReadFilterAnd.test(ReadFilter.java:67)",
                      "\tat org.broadinstitute.hellbender.engine.ReadsContext.iterator(ReadsContext.java:141)",
                      "\tat org.broadinstitute.hellbender.engine.AssemblyRegionWalker.traverse(AssemblyRegionWalker.java:172)",
                      "\tat org.broadinstitute.hellbender.engine.GATKTool.doWork(GATKTool.java:1103)",
                      "\tat org.broadinstitute.hellbender.cmdline.CommandLineProgram.runTool(CommandLineProgram.java:149)",
                      "\tat org.broadinstitute.hellbender.Main.runCommandLineProgram(Main.java:218)",
                      "\tat org.broadinstitute.hellbender.Main.mainEntry(Main.java:289)",
                      "\tat org.broadinstitute.hellbender.Main.main(Main.java:306)"]
            self.note = f"{tool} died on {v}"
        else:
            lines += [f"{ts(i)} INFO  ProgressMeter - Traversal complete. Processed {i * 1100} total regions in {i * 0.05:.1f} minutes.",
                      f"{ts(i)} INFO  {tool} - Shutting down engine",
                      f"[{self.ts_iso()}] org.broadinstitute.hellbender.tools.walkers.haplotypecaller.{tool} done. "
                      f"Elapsed time: {i * 0.05:.2f} minutes.", "Runtime.totalMemory()=4294967296"]
            self.note = f"{tool} finished for {v}"
        return "\n".join(lines)

    def out_joblog(self, s: str, error: str = "", kind: str = "") -> str:
        """The tail of a STAR job's .out/.err: the run's progress, and ``error`` (a planted line) where it died."""
        mo, d, h, mi, _x, _w = self.when(self.rng.randint(4000, 30000))
        stamp = f"{MONTHS[mo - 1]} {d:02d} {h:02d}:{mi:02d}:{self.rng.randint(10, 59):02d}"
        lines = [f"\t{self.scratch}/.conda/envs/star/bin/STAR-avx2 --runThreadN {self.pick((8, 12, 16))} --genomeDir "
                 f"/ref/genome/star_idx --readFilesIn raw/{s}_R1.fastq.gz raw/{s}_R2.fastq.gz --readFilesCommand zcat "
                 f"--outSAMtype BAM SortedByCoordinate --outFileNamePrefix results/star/{s}/{s}.",
                 "\tSTAR version: 2.7.10b   compiled: 2022-11-01T09:53:26-04:00 :/home/dobin/data/STAR/STARcode/STAR.master/source"]
        steps = ("started STAR run", "loading genome", "processing annotations GTF", "inserting junctions into the genome indices",
                 "started 1st pass mapping", "finished 1st pass mapping", "inserting junctions into the genome indices",
                 "started mapping", "finished mapping", "started sorting BAM")
        cut = len(steps) if kind in ("", "sort") else self.rng.randint(4, len(steps))
        for st in steps[:cut]:
            lines.append(f"{stamp} ..... {st}")
        if kind == "sort" and error:
            lines += ["", "EXITING because of fatal ERROR: not enough memory for BAM sorting: ", error,
                      f"{stamp} ...... FATAL ERROR, exiting"]
        elif error:
            lines += [error]
        else:
            lines += [f"{stamp} ..... finished successfully"]
        return "\n".join(lines)

    def out_ls(self, where: str) -> str:
        b = self.budget(0.5)
        lines = [f"total {self.rng.randint(2, 900)}{'M' if where == 'plots' else 'G'}"]
        size = 10
        if where == "plots":
            for name in ["pca.pdf", "pca_batch.pdf", "volcano.pdf", "ma_plot.pdf", "heatmap_top50.pdf", "sample_dist.pdf"] + [
                    f"counts_{g}.pdf" for g in self.rng.sample(self.genes, 12)]:
                mo, d, h, mi, _s, _w = self.when(self.rng.randint(0, 400000))
                lines.append(f"-rw-r--r-- 1 {self.uname} ag_{self.pi_last.lower().translate(ASCII)} {self.rng.randint(12, 900):>5}K "
                             f"{MONTHS[mo - 1]} {d:2d} {h:02d}:{mi:02d} plots/{name}")
            return "\n".join(lines)
        exts = (".Aligned.sortedByCoord.out.bam", ".Aligned.sortedByCoord.out.bam.bai", ".Log.final.out", ".SJ.out.tab",
                ".ReadsPerGene.out.tab", ".markdup.sorted.bam", ".fastp.json", "_1_fastqc.zip", ".featureCounts.txt")
        while size < b and len(lines) < 400:
            ext = self.pick(exts)
            sz = f"{self.rng.uniform(0.1, 9.9):.1f}G" if "bam" in ext and "bai" not in ext else f"{self.rng.randint(1, 999)}K"
            mo, d, h, mi, _s, _w = self.when(self.rng.randint(0, 400000))
            row = (f"-rw-r--r-- 1 {self.uname} ag_{self.pi_last.lower().translate(ASCII)} {sz:>6} {MONTHS[mo - 1]} {d:2d} "
                   f"{h:02d}:{mi:02d} {where.rstrip('/')}/{self.sample()}{ext}")
            lines.append(row)
            size += len(row) + 1
        return "\n".join(lines)

    def out_du(self) -> str:
        r = self.rng.randint
        rows = [f"{size}\t{self.pdir}/{d}" for size, d in
                ((f"{r(1, 30)}T", "work"), (f"{r(150, 990)}G", "results/star"), (f"{r(8, 90)}G", "results/salmon"),
                 (f"{r(20, 900)}M", "results/featurecounts"), (f"{r(30, 400)}M", "results/multiqc"), (f"{r(1, 60)}G", "results/fastp"),
                 (f"{r(5, 900)}M", "logs"), (f"{r(4, 60)}G", "singularity"), (f"{r(0, 200)}G", "tmp"), (f"{r(2, 300)}M", "deseq2"),
                 (f"{r(1, 90)}M", "plots"))]
        quota = self.rng.randint(40, 99)
        return "\n".join(rows + ["", f"Disk quotas for user {self.uname}:",
                                 "     Filesystem  blocks   quota   limit   grace   files   quota   limit   grace",
                                 f"  /scratch  {quota * 50}G   5000G   5500G        {self.rng.randint(10**5, 10**6)}  0  0"])

    def out_mamba_list(self) -> str:
        b = self.budget(0.5)
        pk = ("r-base 4.3.2", "bioconductor-deseq2 1.42.0", "bioconductor-apeglm 1.24.0", "r-ggplot2 3.4.4",
              "r-tidyverse 2.0.0", "bioconductor-clusterprofiler 4.10.0", "r-pheatmap 1.0.12", "bioconductor-tximport 1.30.0",
              "r-ggrepel 0.9.5", "bioconductor-sva 3.50.0", "bioconductor-edger 4.0.2", "bioconductor-limma 3.58.1",
              "r-data.table 1.14.10", "r-matrix 1.6_4", "python 3.11.7", "scanpy 1.9.8", "anndata 0.10.5", "pandas 2.2.0",
              "numpy 1.26.4", "leidenalg 0.10.2", "matplotlib-base 3.8.2", "samtools 1.19.2", "star 2.7.10b",
              "subread 2.0.6", "salmon 1.10.2", "fastp 0.23.4", "multiqc 1.21", "bcftools 1.19", "htslib 1.19.1")
        lines = [f"# packages in environment at {self.scratch}/.conda/envs/{self.pick(('rnaseq-de', 'scanpy', 'qc'))}:", "#",
                 "# Name                    Version                   Build  Channel"]
        size = 120
        while size < b and len(lines) < 300:
            name, ver = self.pick(pk).split()
            row = f"{name:<25} {ver:<25} {self.hex(7)}_{self.rng.randint(0, 3)}    {self.pick(('conda-forge', 'bioconda'))}"
            lines.append(row)
            size += len(row) + 1
        return "\n".join(lines)

    def out_git_log(self) -> str:
        msgs = ("fix strandedness in featureCounts rule", "add batch to design", "bump nf-core/rnaseq", "samplesheet run2",
                "PCA colours", "more memory for STAR", "volcano labels", "sessionInfo to methods", "remove old salmon index",
                "multiqc config", "GO enrichment script", "drop duplicated lanes", "typo", "wip", "rename samples per core")
        return "\n".join(f"{self.hex(7)} {self.pick(msgs)}" for _ in range(self.rng.randint(6, 18)))

    def out_fastq_head(self) -> str:
        fc = self.pick(self.flowcells)
        recs = []
        for _ in range(self.rng.randint(3, 8)):
            seq = "".join(self.rng.choice("ACGT") for _ in range(self.pick((101, 151))))
            recs += [f"@A00{self.rng.randint(100, 999)}:{self.rng.randint(100, 999)}:{fc}:{self.rng.randint(1, 4)}:"
                     f"{self.rng.randint(1101, 2678)}:{self.rng.randint(1000, 32000)}:{self.rng.randint(1000, 37000)} 1:N:0:"
                     f"{''.join(self.rng.choice('ACGT') for _ in range(8))}+{''.join(self.rng.choice('ACGT') for _ in range(8))}",
                     seq, "+", "".join(self.rng.choice("FFFF:,F") for _ in range(len(seq)))]
        return "\n".join(recs)

    # --- files it reads and writes ---------------------------------------------------------------------------------

    def file_nfconfig(self) -> str:
        b = self.budget(0.6)
        lines = ["// AG config for the " + self.cluster + " cluster, see wiki", "", "params {",
                 f"    input          = 'samplesheets/samplesheet_run{self.rng.randint(1, 2)}.csv'",
                 f"    outdir         = '{self.pdir}/results'", "    fasta          = '/ref/genome/primary_assembly.fa'",
                 "    gtf            = '/ref/genome/annotation.gtf'", "    star_index     = '/ref/genome/star_idx'",
                 f"    aligner        = '{self.pick(('star_salmon', 'star_rsem'))}'", "    save_reference = false",
                 f"    max_memory     = '{self.pick((256, 384, 512))}.GB'", f"    max_cpus       = {self.pick((32, 48, 64))}",
                 "    max_time       = '72.h'", "}", "", "process {", "    executor       = 'slurm'",
                 f"    queue          = '{self.pick(PARTITIONS[:3])}'", "    clusterOptions = '--qos=normal'",
                 "    errorStrategy  = { task.exitStatus in [137,140,143] ? 'retry' : 'finish' }", "    maxRetries     = 2", ""]
        size = sum(len(x) for x in lines)
        for p in self.rng.sample(PROCS, len(PROCS)):
            blk = [f"    withName: '{p}' {{", f"        cpus   = {self.pick((2, 4, 8, 12, 16))}",
                   f"        memory = {{ {self.pick((8, 16, 32, 40, 48, 64))}.GB * task.attempt }}",
                   f"        time   = {{ {self.pick((1, 2, 4, 6, 8, 12))}.h * task.attempt }}", "    }"]
            if self.rng.random() < 0.3:
                blk.insert(-1, f"        queue  = '{self.pick(PARTITIONS[:3])}'")
            lines += blk
            size += sum(len(x) for x in blk)
            if size > b:
                break
        lines += ["}", "", "executor {", f"    queueSize       = {self.pick((30, 50, 100))}", "    submitRateLimit = '10 sec'",
                  "    pollInterval    = '30 sec'", "}", "", "singularity {", "    enabled    = true", "    autoMounts = true",
                  f"    cacheDir   = '{self.scratch}/singularity'", "}", "", "report   { enabled = true; overwrite = true }",
                  "timeline { enabled = true; overwrite = true }", "trace    { enabled = true; overwrite = true }"]
        return "\n".join(lines)

    def file_snakefile(self) -> str:
        b = self.budget(0.7)
        lines = ['configfile: "config/config.yaml"', "", 'SAMPLES = pd.read_csv(config["samples"], sep="\\t")["sample"].tolist()',
                 "", "rule all:", "    input:", '        "calls/joint.filtered.vcf.gz",', '        "qc/multiqc_report.html",', ""]
        size = sum(len(x) for x in lines)
        for rule in self.rng.sample(RULES, len(RULES)):
            inp, outp = self.smk_paths(rule, "{sample}")
            blk = [f"rule {rule}:", "    input:"] + [f'        "{x}",' for x in inp.split(", ")] + ["    output:"]
            blk += [f'        "{x}",' for x in outp.split(", ")]
            blk += ["    log:", f'        "logs/{rule}/{{sample}}.log"', f"    threads: {self.pick((1, 4, 8, 16))}",
                    "    resources:", f"        mem_mb={self.pick((4000, 8000, 16000, 32000, 64000))},",
                    f"        runtime={self.pick((60, 240, 480, 1440))},", f'        slurm_partition="{self.pick(PARTITIONS[:3])}"',
                    "    conda:", f'        "envs/{self.pick(("gatk4", "align", "qc", "bcftools"))}.yaml"', "    shell:",
                    f'        "{self.smk_shell(rule, "{wildcards.sample}")}"', ""]
            lines += blk
            size += sum(len(x) for x in blk)
            if size > b:
                break
        return "\n".join(lines)

    def file_samplesheet(self) -> str:
        b = self.budget(0.5)
        lines = ["sample,fastq_1,fastq_2,strandedness"]
        size = 40
        run = self.rng.randint(0, 1)
        for s in self.samples * 4:
            lane = self.rng.randint(1, 4)
            raw = f"/data/raw/{self.flowcells[run]}/{s}_S{self.sn[s]}_L00{lane}"
            row = f"{s},{raw}_R1_001.fastq.gz,{raw}_R2_001.fastq.gz,{self.pick(('reverse', 'reverse', 'auto'))}"
            lines.append(row)
            size += len(row)
            if size > b:
                break
        return "\n".join(lines)

    def file_envyml(self) -> str:
        name = self.pick(("rnaseq-de", "scanpy", "qc", "gatk4"))
        deps = self.rng.sample(("r-base=4.3.2", "bioconductor-deseq2=1.42.0", "bioconductor-apeglm=1.24.0", "r-ggplot2=3.4.4",
                                "r-tidyverse=2.0.0", "bioconductor-clusterprofiler=4.10.0", "r-pheatmap=1.0.12",
                                "bioconductor-org.mm.eg.db=3.18.0", "python=3.11", "scanpy=1.9.8", "anndata=0.10.5",
                                "pandas=2.2.0", "leidenalg=0.10.2", "samtools=1.19.2", "multiqc=1.21", "gatk4=4.5.0.0",
                                "bcftools=1.19", "r-ggrepel=0.9.5", "bioconductor-sva=3.50.0"), self.rng.randint(6, 14))
        return "\n".join([f"name: {name}", "channels:", "  - conda-forge", "  - bioconda", "  - nodefaults", "dependencies:"]
                         + [f"  - {d}" for d in deps])

    def file_rscript(self) -> str:
        b = self.budget(0.6)
        f, (l1, l2) = self.factor, self.levels
        lines = ["suppressPackageStartupMessages({", "  library(DESeq2)", "  library(tidyverse)", "  library(ggrepel)", "})", "",
                 f'cts <- read.delim("counts/{self.proj}.featureCounts.txt", comment.char = "#", row.names = 1)',
                 "cts <- cts[, -(1:5)]", 'colnames(cts) <- sub(".markdup.sorted.bam$", "", basename(colnames(cts)))',
                 'coldata <- read.csv("samplesheets/coldata.csv", row.names = 1)',
                 f'coldata${f} <- factor(coldata${f}, levels = c("{l2}", "{l1}"))',
                 "stopifnot(all(colnames(cts) == rownames(coldata)))", "",
                 f"dds <- DESeqDataSetFromMatrix(cts, coldata, design = ~ batch + {f})",
                 "dds <- dds[rowSums(counts(dds) >= 10) >= 3, ]", "dds <- DESeq(dds)", "",
                 f'res <- results(dds, name = "{f}_{l1}_vs_{l2}", alpha = 0.05)', "summary(res)",
                 f'resLFC <- lfcShrink(dds, coef = "{f}_{l1}_vs_{l2}", type = "apeglm")', "",
                 "vsd <- vst(dds, blind=FALSE)", f'pca <- plotPCA(vsd, intgroup = c("{f}", "batch"), returnData = TRUE)',
                 'pv <- round(100 * attr(pca, "percentVar"))', ""]
        extra = [f"p <- ggplot(pca, aes(PC1, PC2, colour = {f}, shape = batch)) +", "  geom_point(size = 3) +",
                 '  xlab(paste0("PC1: ", pv[1], "% variance")) +', '  ylab(paste0("PC2: ", pv[2], "% variance")) +',
                 "  theme_bw(base_size=12)", 'ggsave("plots/pca.pdf", p, width = 6, height = 5)', "",
                 "sig <- as.data.frame(resLFC) |>", "  rownames_to_column(\"gene_id\") |>",
                 "  filter(!is.na(padj), padj<0.05) |>", "  arrange(padj)",
                 'write_tsv(sig, "deseq2/sig_genes.tsv")', "", "v <- as.data.frame(resLFC) |> rownames_to_column(\"gene_id\")",
                 "ggplot(v, aes(log2FoldChange, -log10(pvalue))) +", "  geom_point(alpha = 0.4, size = 0.8) +",
                 "  geom_text_repel(data = head(arrange(v, padj), 20), aes(label = gene_id), size = 2.5) +",
                 "  theme_bw(base_size=12)", 'ggsave("plots/volcano.pdf", width = 6, height = 6)', "", "sessionInfo()"]
        lines += extra
        while sum(len(x) for x in lines) < b and len(lines) < 300:
            g = self.gene()
            lines += [f'plotCounts(dds, gene = "{self.ensid()}", intgroup = "{f}", main = "{g}")',
                      f'ggsave("plots/counts_{g}.pdf", width = 4, height = 4)']
        return "\n".join(lines)

    def file_pyscript(self) -> str:
        lines = ["import scanpy as sc", "import pandas as pd", "import numpy as np", "",
                 "sc.settings.verbosity = 3", "sc.settings.set_figure_params(dpi=100, facecolor='white')", "",
                 f"adata = sc.read_h5ad('{self.pdir}/sc/combined_raw.h5ad')",
                 "adata.var['mt'] = adata.var_names.str.startswith('" + ("mt-" if self.mouse else "MT-") + "')",
                 "sc.pp.calculate_qc_metrics(adata, qc_vars=['mt'], percent_top=None, log1p=False, inplace=True)",
                 f"adata = adata[adata.obs.n_genes_by_counts < {self.pick((5000, 6000, 7500))}, :]",
                 f"adata = adata[adata.obs.pct_counts_mt < {self.pick((10, 15, 20))}, :].copy()",
                 "adata.layers['counts'] = adata.X.copy()", "sc.pp.normalize_total(adata, target_sum=1e4)", "sc.pp.log1p(adata)",
                 "sc.pp.highly_variable_genes(adata, batch_key='sample')", "sc.pp.pca(adata, n_comps=50)",
                 "sc.pp.neighbors(adata, n_pcs=30)", "sc.tl.umap(adata)", "sc.tl.leiden(adata, key_added='leiden')",
                 "adata.write_h5ad('sc/processed.h5ad')"]
        return "\n".join(lines)

    def file_sbatch(self, partition: str = "", mem: int = 0) -> str:
        s = self.sample()
        return "\n".join(["#!/bin/bash", f"#SBATCH --job-name=star_{s}", f"#SBATCH --partition={partition or self.pick(PARTITIONS[:3])}",
                          f"#SBATCH --cpus-per-task={self.pick((8, 12, 16))}", f"#SBATCH --mem={mem or self.pick((32, 40, 48, 64))}G",
                          f"#SBATCH --time={self.pick(('04', '08', '12', '24'))}:00:00", "#SBATCH --output=logs/%x_%j.out",
                          "#SBATCH --error=logs/%x_%j.err", "", "set -euo pipefail", "source ~/.bashrc", "mamba activate star", "",
                          "STAR --runThreadN $SLURM_CPUS_PER_TASK --genomeDir /ref/genome/star_idx \\",
                          f"     --readFilesIn raw/{s}_R1.fastq.gz raw/{s}_R2.fastq.gz --readFilesCommand zcat \\",
                          f"     --outSAMtype BAM SortedByCoordinate --outFileNamePrefix results/star/{s}/{s}."])

    # --- R and Python --------------------------------------------------------------------------------------------

    def r_deseq_msgs(self) -> list[str]:
        out = ["estimating size factors", "estimating dispersions", "gene-wise dispersion estimates",
               "mean-dispersion relationship", "final dispersion estimates", "fitting model and testing"]
        if self.rng.random() < 0.4:
            out += [f"-- replacing outliers and refitting for {self.rng.randint(3, 90)} genes",
                    "-- DESeq argument 'minReplicatesForReplace' = 7 ", "-- original counts are preserved in counts(dds)",
                    "estimating dispersions", "fitting model and testing"]
        return out

    def r_res_head(self, rows: int, top: str = "") -> list[str]:
        f, (l1, l2) = self.factor, self.levels
        out = [f"log2 fold change (MLE): {f} {l1} vs {l2} ", f"Wald test p-value: {f} {l1} vs {l2} ",
               f"DataFrame with {rows} rows and 6 columns",
               " " * 19 + "  baseMean log2FoldChange     lfcSE      stat      pvalue        padj",
               " " * 19 + " <numeric>      <numeric> <numeric> <numeric>   <numeric>   <numeric>"]
        for i in range(rows):
            lfc = self.rng.uniform(-6, 6)
            p = 10 ** -self.rng.uniform(3 if i < 3 else 0.1, 60 if i < 3 else 6)
            gid = top if (top and i == 0) else self.ensid()
            out.append(f"{gid:<19}{self.rng.uniform(5, 30000):10.3f}{lfc:15.6f}{self.rng.uniform(0.05, 0.9):10.6f}"
                       f"{lfc / 0.3:10.5f}{p:12.5e}{min(1.0, p * 900):12.5e}")
        return out

    def r_summary(self) -> list[str]:
        n = self.rng.randint(17000, 26000)
        up, down = self.rng.randint(100, 3000), self.rng.randint(100, 3000)
        return ["", f"out of {n} with nonzero total read count", "adjusted p-value < 0.05",
                f"LFC > 0 (up)       : {up}, {up / n * 100:.1g}%", f"LFC < 0 (down)     : {down}, {down / n * 100:.1g}%",
                f"outliers [1]       : {self.rng.randint(0, 60)}, 0.{self.rng.randint(1, 9)}%",
                f"low counts [2]     : {self.rng.randint(2000, 7000)}, {self.rng.randint(9, 30)}%",
                f"(mean count < {self.rng.randint(2, 12)})", "[1] see 'cooksCutoff' argument of ?results",
                "[2] see 'independentFiltering' argument of ?results", ""]

    def r_tibble(self, rows: int) -> list[str]:
        out = [f"# A tibble: {self.rng.randint(800, 24000):,} × 7",
               "   gene_id            symbol   baseMean log2FoldChange  lfcSE    pvalue      padj",
               "   <chr>              <chr>       <dbl>          <dbl>  <dbl>     <dbl>     <dbl>"]
        for i in range(rows):
            p = 10 ** -self.rng.uniform(2, 80)
            out.append(f"{i + 1:>2} {self.ensid():<18} {self.gene():<8} {self.rng.uniform(10, 9000):8.0f}. "
                       f"{self.rng.uniform(-7, 7):14.2f} {self.rng.uniform(0.1, 0.7):6.3f} {p:9.2e} {p * 300:9.2e}")
        return out + [f"# ℹ {self.rng.randint(500, 20000):,} more rows", "# ℹ Use `print(n = ...)` to see more rows"]

    def r_session_info(self) -> list[str]:
        pk = ["apeglm_1.24.0", "ggrepel_0.9.5", "lubridate_1.9.3", "forcats_1.0.0", "stringr_1.5.1", "dplyr_1.1.4",
              "purrr_1.0.2", "readr_2.1.5", "tidyr_1.3.1", "tibble_3.2.1", "ggplot2_3.4.4", "tidyverse_2.0.0",
              "DESeq2_1.42.0", "SummarizedExperiment_1.32.0", "Biobase_2.62.0", "MatrixGenerics_1.14.0",
              "matrixStats_1.2.0", "GenomicRanges_1.54.1", "GenomeInfoDb_1.38.5", "IRanges_2.36.0", "S4Vectors_0.40.2",
              "BiocGenerics_0.48.1"]
        ns = ["bbmle_1.0.25.1", "tidyselect_1.2.0", "fastmap_1.1.1", "digest_0.6.34", "timechange_0.3.0",
              "lifecycle_1.0.4", "magrittr_2.0.3", "compiler_4.3.2", "rlang_1.1.3", "tools_4.3.2", "utf8_1.2.4",
              "labeling_0.4.3", "bit_4.0.5", "plyr_1.8.9", "RColorBrewer_1.1-3", "abind_1.4-5", "BiocParallel_1.36.0",
              "withr_3.0.0", "numDeriv_2016.8-1.1", "grid_4.3.2", "fansi_1.0.6", "colorspace_2.1-0", "scales_1.3.0",
              "MASS_7.3-60", "cli_3.6.2", "mvtnorm_1.2-4", "crayon_1.5.2", "generics_0.1.3", "tzdb_0.4.0", "bdsmatrix_1.3-6",
              "zlibbioc_1.48.0", "parallel_4.3.2", "XVector_0.42.0", "vctrs_0.6.5", "Matrix_1.6-5", "bit64_4.0.5",
              "hms_1.1.3", "locfit_1.5-9.8", "emdbook_1.3.13", "glue_1.7.0", "codetools_0.2-19", "stringi_1.8.3",
              "gtable_0.3.4", "munsell_0.5.0", "pillar_1.9.0", "GenomeInfoDbData_1.2.11", "R6_2.5.1", "vroom_1.6.5",
              "lattice_0.22-5", "Rcpp_1.0.12", "coda_0.19-4.1", "SparseArray_1.2.3", "DelayedArray_0.28.0", "S4Arrays_1.2.0"]

        def cols(items: list[str], width: int = 3) -> list[str]:
            rows = []
            for i in range(0, len(items), width):
                chunk = items[i:i + width]
                rows.append(f"[{i + 1:>{len(str(len(items)))}}] " + " ".join(f"{x:<27}" for x in chunk).rstrip())
            return rows
        return (["R version 4.3.2 (2023-10-31)", "Platform: x86_64-conda-linux-gnu (64-bit)",
                 "Running under: Rocky Linux 8.9 (Green Obsidian)", "", "Matrix products: default",
                 f"BLAS/LAPACK: {self.scratch}/.conda/envs/rnaseq-de/lib/libopenblasp-r0.3.26.so;  LAPACK version 3.12.0", "",
                 "locale:", " [1] LC_CTYPE=en_US.UTF-8       LC_NUMERIC=C               LC_TIME=de_DE.UTF-8",
                 " [4] LC_COLLATE=en_US.UTF-8     LC_MONETARY=de_DE.UTF-8    LC_MESSAGES=en_US.UTF-8", "",
                 "time zone: Europe/Berlin", "tzcode source: system (glibc)", "", "attached base packages:",
                 "[1] stats4    stats     graphics  grDevices utils     datasets  methods   base     ", "",
                 "other attached packages:"] + cols(pk) + ["", "loaded via a namespace (and not attached):"] + cols(ns))

    def r_warning(self) -> list[str]:
        return self.pick((
            ["Warning message:", "In DESeqDataSet(se, design = design, ignoreRank) :",
             "  some variables in design formula are characters, converting to factors"],
            ["Warning messages:", f"1: Removed {self.rng.randint(100, 9000)} rows containing missing values (`geom_point()`). ",
             f"2: ggrepel: {self.rng.randint(3, 80)} unlabeled data points (too many overlaps). Consider increasing max.overlaps "],
            ["Warning message:", "In lfcShrink(dds, coef = 2, type = \"apeglm\") :",
             "  it is recommended to use the 'coef' argument name matching resultsNames(dds)"],
            [f"Saving {self.pick((6, 7, 8))} x {self.pick((4, 5, 6, 7))} in image"],
            ["using 'apeglm' for LFC shrinkage. If used in published research, please cite:",
             "    Zhu, A., Ibrahim, J.G., Love, M.I. (2018) Heavy-tailed prior distributions for",
             "    sequence count data: removing the noise and preserving large differences.",
             "    Bioinformatics. https://doi.org/10.1093/bioinformatics/bty895"]))

    def r_filler_error(self) -> list[str]:
        return self.pick((
            ["Error: object 'res' not found"],
            ["Error in DESeqDataSetFromMatrix(cts, coldata, design = ~batch + " + self.factor + ") : ",
             "  ncol(countData) == nrow(colData) is not TRUE"],
            ["Error in checkFullRank(modelMatrix) : ",
             "  the model matrix is not full rank, so the model cannot be fit as specified.",
             "  One or more variables or interaction terms in the design formula are linear",
             "  combinations of the others and must be removed.", "",
             "  Please read the vignette section 'Model matrix not full rank':", "", "  vignette('DESeq2')"],
            ["Error in estimateSizeFactorsForMatrix(counts(object), locfunc = locfunc,  : ",
             "  every gene contains at least one zero, cannot compute log geometric means"],
            ["Error in `geom_point()`:", "! Problem while computing aesthetics.", "ℹ Error occurred in the 1st layer.",
             "Caused by error:", "! object 'PC3' not found"]))

    def out_r(self, extra: list[str] | None = None, where: int = -1) -> str:
        """An R session's output; ``extra`` lines (a planted finding or error) go in at ``where``."""
        b = self.budget(0.9)
        parts: list[list[str]] = []
        size = 0
        while size < b and len(parts) < 12:
            k = self.rng.random()
            if k < 0.2:
                chunk = self.r_deseq_msgs() + self.r_summary()
            elif k < 0.45:
                chunk = self.r_res_head(self.rng.randint(6, 40))
            elif k < 0.65:
                chunk = self.r_tibble(self.rng.randint(10, 40))
            elif k < 0.75:
                chunk = self.r_session_info()
            elif k < 0.9:
                chunk = self.r_warning()
            else:
                chunk = self.r_filler_error() if not extra else self.r_warning()
            parts.append(chunk)
            size += sum(len(x) + 1 for x in chunk)
        if extra is not None:
            parts.insert(min(len(parts), where if where >= 0 else len(parts)), extra)
        return "\n".join(line for chunk in parts for line in chunk)

    def py_frame(self, rows: int) -> list[str]:
        out = ["            sample condition  batch  total_reads  uniquely_mapped_pct  assigned_pct  pct_dup"]
        for i in range(rows):
            s = self.sample()
            out.append(f"{i:>3} {s:>14} {s.split('_')[0 if self.mouse else 1]:>9} {self.rng.randint(1, 3):>6} "
                       f"{self.rng.randint(15_000_000, 70_000_000):>12} {self.rng.uniform(75, 93):>20.2f} "
                       f"{self.rng.uniform(55, 82):>13.2f} {self.rng.uniform(10, 55):>8.2f}")
        return out + ["", f"[{rows} rows x 7 columns]"]

    def py_scanpy(self, shape: str = "") -> list[str]:
        a, v = (shape.split(" × ") if shape else (str(self.rng.randint(3000, 40000)), str(self.rng.randint(18000, 33000))))
        return ["normalizing counts per cell", "    finished (0:00:01)", "extracting highly variable genes",
                f"    finished (0:00:0{self.rng.randint(1, 9)})", "--> added",
                "    'highly_variable', boolean vector (adata.var)", "    'means', float vector (adata.var)",
                "    'dispersions', float vector (adata.var)", "    'dispersions_norm', float vector (adata.var)",
                "computing PCA", "    with n_comps=50", f"    finished (0:00:{self.rng.randint(10, 59)})", "computing neighbors",
                "    using 'X_pca' with n_pcs = 30", "    finished: added to `.uns['neighbors']`",
                "    `.obsp['distances']`, distances for each pair of neighbors",
                f"    `.obsp['connectivities']`, weighted adjacency matrix (0:00:{self.rng.randint(10, 59)})",
                "running Leiden clustering", f"    finished: found {self.rng.randint(8, 31)} clusters and added",
                "    'leiden', the cluster labels (adata.obs, categorical) (0:00:04)",
                f"AnnData object with n_obs × n_vars = {a} × {v}",
                "    obs: 'sample', 'n_genes_by_counts', 'total_counts', 'total_counts_mt', 'pct_counts_mt', 'leiden'",
                "    var: 'gene_ids', 'feature_types', 'mt', 'highly_variable', 'means', 'dispersions', 'dispersions_norm'",
                "    uns: 'hvg', 'leiden', 'log1p', 'neighbors', 'pca', 'umap'", "    obsm: 'X_pca', 'X_umap'",
                "    varm: 'PCs'", "    layers: 'counts'", "    obsp: 'connectivities', 'distances'"]

    def py_traceback(self, last: str = "", script: str = "") -> list[str]:
        script = script or self.pick(("scripts/merge_counts.py", "scripts/sc_qc.py", "scripts/make_coldata.py"))
        last = last or self.pick((f"KeyError: \"['{self.sample()}'] not in index\"",
                                  "ValueError: cannot reindex on an axis with duplicate labels",
                                  "MemoryError: Unable to allocate 14.2 GiB for an array with shape (41233, 46012) and data type float64"))
        pd = f"{self.scratch}/.conda/envs/scanpy/lib/python3.11/site-packages/pandas"
        return ["Traceback (most recent call last):", f'  File "{self.pdir}/{script}", line {self.rng.randint(12, 140)}, in <module>',
                "    df = df[samples]", "         ~~^^^^^^^^^",
                f'  File "{pd}/core/frame.py", line 3899, in __getitem__',
                '    indexer = self.columns._get_indexer_strict(key, "columns")[1]',
                "              ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
                f'  File "{pd}/core/indexes/base.py", line 6115, in _get_indexer_strict',
                "    self._raise_if_missing(keyarr, indexer, axis_name)",
                f'  File "{pd}/core/indexes/base.py", line 6179, in _raise_if_missing', "    raise KeyError(f\"{not_found} not in index\")",
                last]

    def out_py(self, extra: list[str] | None = None) -> str:
        b = self.budget(0.8)
        parts: list[list[str]] = []
        size = 0
        while size < b and len(parts) < 10:
            k = self.rng.random()
            chunk = (self.py_frame(self.rng.randint(8, 40)) if k < 0.5 else self.py_scanpy() if k < 0.8 else
                     ["/tmp/ipykernel_21731/2133.py:4: SettingWithCopyWarning: ",
                      "A value is trying to be set on a copy of a slice from a DataFrame.",
                      "Try using .loc[row_indexer,col_indexer] = value instead"] if k < 0.9 or extra else self.py_traceback())
            parts.append(chunk)
            size += sum(len(x) + 1 for x in chunk)
        if extra is not None:
            parts.append(extra)
        return "\n".join(line for chunk in parts for line in chunk)

    # --- papers ----------------------------------------------------------------------------------------------------

    def out_paper(self) -> str:
        b = self.budget(0.7)
        sys_ = self.pick(("hepatocytes", "liver organoids", "cholangiocytes", "mouse liver", "hepatic stellate cells",
                          "intestinal organoids", "primary human hepatocytes"))
        title = (f"{self.pick(('Single-cell', 'Bulk and single-cell', 'Time-resolved', 'Multi-omic', 'Spatial'))} "
                 f"{self.pick(('profiling', 'transcriptomics', 'analysis', 'atlas'))} of {sys_} "
                 f"{self.pick(('reveals', 'identifies', 'uncovers', 'links'))} "
                 f"{self.pick(('a zonated', 'an inflammatory', 'a metabolic', 'a regenerative', 'a stress-induced'))} "
                 f"{self.pick(('program', 'state', 'switch', 'response'))} "
                 f"{self.pick(('controlled by', 'downstream of', 'requiring', 'independent of'))} {self.gene()}")
        authors = ", ".join(f"{self.pick('ABCDEFGHJKLMNPRSTW')}. {self.pick(LAST + tuple(p[1] for p in PIS))}"
                            for _ in range(self.rng.randint(4, 12)))
        sent = (f"Here we profiled {sys_} from {self.rng.randint(3, 12)} donors or animals across {self.rng.randint(2, 6)} conditions.",
                f"Loss of {self.gene()} led to widespread changes in {self.pick(('lipid', 'bile acid', 'glucose', 'xenobiotic'))} metabolism.",
                f"We identified {self.rng.randint(200, 4000)} differentially expressed genes, enriched for "
                f"{self.pick(('cholesterol biosynthesis', 'acute-phase response', 'cell cycle', 'extracellular matrix'))}.",
                "Batch effects were modelled explicitly and did not explain the main axis of variation.",
                f"Integration with public data ({self.pick(('GTEx', 'Tabula Muris', 'the Liver Cell Atlas'))}) confirmed the signature.",
                "Our findings suggest a regulatory circuit that could be targeted therapeutically.",
                f"Whole-exome sequencing of {self.rng.randint(8, 60)} patients identified recurrent variants in {self.gene()}.")
        meth = (f"Reads were trimmed with fastp (v0.23.2) and aligned to the reference genome with STAR (v2.7.{self.rng.randint(3, 11)}a) "
                "using default parameters. Gene-level counts were obtained with featureCounts.",
                "Differential expression analysis was performed with DESeq2, including sequencing batch as a covariate. "
                "Genes with an adjusted p-value below the chosen cutoff were considered significant; log2 fold changes "
                "were shrunk with apeglm.",
                "Single-cell data were processed with scanpy: cells with fewer than 200 genes or more than 15% mitochondrial "
                "reads were removed, counts were normalised to 10,000 per cell and log-transformed, and clusters were "
                "identified with the Leiden algorithm on a kNN graph built from the first 30 principal components.",
                "Variants were called per sample with GATK HaplotypeCaller (-ERC GVCF), jointly genotyped and hard-filtered following "
                "the GATK best practices (QD < 2.0, FS > 60.0, MQ < 40.0 for SNPs).",
                "Gene set enrichment was tested with fgsea against the MSigDB hallmark collection, ranking genes by the "
                "Wald statistic.", "All code is available on GitHub and archived on Zenodo.")
        lines = [f"Title: {title}", f"Authors: {authors}",
                 f"Journal: {self.pick(('Nat Commun', 'Hepatology', 'J Hepatol', 'Cell Rep', 'Genome Biol', 'EMBO J'))} "
                 f"({self.rng.randint(2018, 2024)}); {self.rng.randint(10, 90)}:{self.rng.randint(100, 9999)}",
                 f"DOI: 10.{self.rng.randint(1000, 1099)}/{self.pick(('s41467', 'hep', 'j.celrep', 'gb'))}.{self.rng.randint(2018, 2024)}."
                 f"{self.rng.randint(10000, 99999)}", "", "Abstract", " ".join(self.rng.sample(sent, 5)), "", "Methods (excerpt)"]
        size = sum(len(x) for x in lines)
        for m in self.rng.sample(meth, len(meth)):
            lines += [m, ""]
            size += len(m)
            if size > b:
                break
        self.note = title
        return "\n".join(lines)

    # --- what the user pastes: other people's words ----------------------------------------------------------------

    def paste_core(self) -> str:
        day = self.pick(("Monday", "Tuesday", "Wednesday", "Thursday", "Friday"))
        rules = [f"- Sample names may only contain letters, digits and underscores (no dots, no spaces, no umlauts), "
                 f"max. {self.pick((16, 20, 24))} characters.",
                 "- Please do not reuse sample names from earlier submissions; add a suffix such as _RUN2.",
                 "- Index sequences must be given 5'->3' exactly as ordered, i7 first, then i5.",
                 "- Send the sheet as CSV (comma separated, UTF-8), not as an Excel file.",
                 f"- Minimum input is {self.pick((1, 2, 4))} nM in {self.pick((15, 20, 25))} µl; please quantify by Qubit, not NanoDrop.",
                 f"- The deadline for the next {self.pick(('NovaSeq X', 'NextSeq 2000', 'NovaSeq 6000'))} run is {day}, 12:00.",
                 f"- Each pool must contain at least {self.pick((8, 12, 16))} libraries, otherwise we wait until the lane is full.",
                 "- Please state species and expected read length in the header block of the sheet.",
                 "- Do not mix single- and dual-index libraries in one pool.",
                 "- Fill in your project number in every row, we cannot bill otherwise.",
                 "- If you want UMIs demultiplexed, tell us before the run, not afterwards.",
                 "- Attach the Bioanalyzer/TapeStation trace; libraries with primer dimers will be sent back.",
                 f"- Data is delivered via our SFTP server and deleted there after {self.pick((14, 30, 60))} days, so copy it in time."]
        chosen = [x for x in self.rng.sample(rules, self.rng.randint(5, 9)) if self.free(x)]
        mail = self.core_person.split()[-1].lower().translate(ASCII)
        return "\n".join([f"From: {self.core_person} <{mail}@gcf.{self.city.lower().translate(ASCII)}-uni.de>",
                          f"Subject: {self.pick(('Sample sheet for your next run', 'Re: NovaSeq submission ' + self.lab, 'Your libraries - please check before ' + day))}",
                          "", f"Dear {self.first},", "",
                          self.pick(("thank you for your submission. Before we can load the run, please note the following "
                                     "requirements for the sample sheet:",
                                     "we went through your sheet and have to ask you to fix a few things first. As a reminder, our rules:",
                                     "a short reminder of the sample sheet rules, since several groups had problems last month:")),
                          ""] + chosen + ["", self.pick(("Please confirm by reply once the corrected sheet is uploaded.",
                                                          "Do not hesitate to contact us if anything is unclear.",
                                                          "Please send the corrected version to this address only.")),
                                          "", "Best regards,", self.core_person, "Genomics Core Facility"])

    def paste_reviewer(self) -> str:
        items = ["The authors should provide mapping statistics for every sample as a supplementary table.",
                 "Please clarify whether sequencing batch was included in the DESeq2 design. If not, the analysis must be "
                 "repeated with batch as a covariate.",
                 f"The PCA in Figure {self.rng.randint(1, 4)}{self.pick('ABCD')} should be coloured by batch as well as by {self.factor}.",
                 "The threshold used to call differentially expressed genes is not stated in the Methods; please report and justify it.",
                 "I would encourage the authors to validate at least three of the top hits by qPCR.",
                 "Raw data must be deposited in a public repository and the accession provided before publication.",
                 "The authors should report the versions of all software and the exact reference annotation used.",
                 f"Please show the expression of {self.gene()} across all samples, not only the group means.",
                 f"Figure {self.rng.randint(2, 6)}: the volcano plot is unreadable; label fewer genes and use a larger font.",
                 "The statement that the knockout 'abolishes' the program is too strong and should be toned down.",
                 "The variant calling section lacks any information on filtering; please specify the filters used.",
                 "Consider a rank-based enrichment analysis (e.g. GSEA) rather than ORA with an arbitrary cutoff.",
                 f"With {self.pick(('three', 'four'))} replicates per group the study is small; please discuss statistical power.",
                 "The analysis code should be made available (e.g. GitHub with a Zenodo DOI)."]
        chosen = [x for x in self.rng.sample(items, self.rng.randint(4, 8)) if self.free(x)]
        n = self.rng.randint(1, 3)
        return "\n".join([f"Reviewer #{n} (Remarks to the Author):", "",
                          self.pick(("The manuscript by " + self.pi_last + " and colleagues addresses an interesting question, "
                                     "but several analyses need to be strengthened before I can recommend publication.",
                                     "This is a potentially important study. However, I have substantial concerns about the "
                                     "bioinformatic analysis.", "The authors have addressed some of my previous comments, but "
                                     "the following points remain.")), ""]
                         + [f"{i + 1}. {x}" for i, x in enumerate(chosen)]
                         + ["", self.pick(("Minor: please check the reference list for duplicates.",
                                           "Minor: several figure legends do not state n.", "Minor: typo in the title of Fig. S3."))])

    SOP = (("login", "Never run computations on the login nodes; use srun --pty bash for interactive work."),
           ("scratch", "All intermediate files must be written to /scratch/$USER, never to $HOME (50 GB quota, backed up nightly)."),
           ("short", "Jobs on the 'short' partition must request at most 4 hours."),
           ("mail", "Always set --mail-type=FAIL,END so that you notice failed jobs."),
           ("conda", "Conda environments must be created from the YAML files in the lab's env folder; do not install into base."),
           ("array", "Array jobs: at most 200 tasks per array, and throttle them with %20."),
           ("gpu", "Request GPUs only if your software uses them; idle GPU jobs will be cancelled by the admins."),
           ("purge", "Delete your work directories after every successful run; scratch is purged after 60 days anyway."),
           ("ref", "Use the shared reference genomes under /ref; do not download your own copies."),
           ("versions", "Every job script must print the versions of the software it uses."),
           ("announce", "Announce jobs longer than 3 days in the #cluster channel."),
           ("highmem", "Do not occupy more than 25% of the highmem partition at any time."),
           ("module", "Use `module load` only for system tools; everything else via conda/mamba."),
           ("raw", "Raw data stays read-only (chmod a-w) and is never moved out of /data."))
    SOP_REJECT = {"mail": ("we ignore the bit about mail-type, I get enough emails already",
                           "the mail-type rule we skip, my inbox is a disaster"),
                  "purge": ("we ignore the bit about deleting work dirs after every run, I want the cache until the paper is out",
                            "the purge rule doesn't apply to us right now, we need the cache"),
                  "announce": ("ignore the part about announcing long jobs, nobody reads that channel",),
                  "gpu": ("the GPU thing doesn't apply to us",),
                  "module": ("the module load rule we ignore, the cluster's STAR module is broken anyway",),
                  "short": ("the 4h thing for short we don't care about, we never use short",)}
    SOP_ADOPT = {"login": "and yes, «nothing heavy on the login node», not even a quick samtools sort",
                 "scratch": "the scratch thing we do follow: «intermediates on scratch, never in home»",
                 "versions": "the versions one is good, «every job script prints its tool versions»",
                 "ref": "and «only the shared genomes from /ref», no private downloads",
                 "conda": "«envs only from our yml files», never pip into base",
                 "raw": "the raw data one too: «/data stays read-only», for everyone"}

    def paste_sop(self, must: str = "") -> tuple[str, list[str]]:
        """The wiki's SOP (pasted) and the keys of the rules it shows (``must`` among them)."""
        rules = self.rng.sample(self.SOP, self.rng.randint(7, 11))
        if must and all(k != must for k, _ in rules):
            rules.insert(self.rng.randint(0, len(rules)), next(x for x in self.SOP if x[0] == must))
        if not any(k in self.SOP_REJECT for k, _ in rules):
            rules.append(self.SOP[7])
        editor = self.pick(self.colleagues)
        text = "\n".join([f"= Cluster usage SOP ({self.lab} wiki) =", f"''Last edited by {editor}, please read before submitting jobs''", ""]
                         + [f"# {rule}" for _k, rule in rules]
                         + ["", "Questions: ask in #cluster or write to the HPC team. Violations may lead to your jobs being killed."])
        return text, [k for k, _ in rules]

    def paste_slack(self, a: str = "") -> str:
        a = a or self.pick(self.colleagues)
        b = self.pick([c for c in self.colleagues if c != a])
        lines = (f"hey, heads up, I'm running the joint genotyping on highmem this week, pls keep it to max {self.rng.randint(3, 8)} "
                 f"jobs there until {self.pick(('Thursday', 'Friday', 'Monday'))} 🙏",
                 f"if you use my STAR index under /scratch/{a.split()[0].lower()}/idx don't rebuild it, just symlink it",
                 "pls stop writing into /scratch/shared/tmp, my stuff keeps getting overwritten",
                 f"btw sinfo says hm{self.rng.randint(1, 16):02d} is drained, avoid it",
                 f"reminder: lab meeting moved to {self.pick(('Tuesday', 'Wednesday', 'Thursday'))} 10:00, bring the PCA pls",
                 "whoever is filling the queue with 500 array tasks: please throttle 😅",
                 "don't use the old salmon index in /ref, it was built without decoys, use the _decoy one",
                 "pls never run multiqc on the whole /data tree again, it took the login node down",
                 "the core says the run-2 fastqs are re-uploaded, delete your old copies and pull again")
        out = []
        said = self.rng.sample(lines, 6)
        h, m = self.rng.randint(8, 18), self.rng.randint(0, 50)
        for who in (a, b) if self.rng.random() < 0.5 else (a,):
            for _ in range(self.rng.randint(1, 3)):
                m += self.rng.randint(0, 3)
                out.append(f"[{h:02d}:{m:02d}] {who}: {said.pop()}")
        return "\n".join(x for x in out if self.free(x)) or f"[09:1{self.rng.randint(0, 9)}] {a}: {lines[2]}"

    def paste_pi(self) -> str:
        day = self.pick(("Freitag", "Montag", "Mittwoch", "Donnerstag"))
        body = ["bitte schick mir bis " + day + " die PCA mit und ohne Batch-Korrektur.",
                "Die Proben aus dem zweiten Lauf bitte noch nicht mit reinnehmen, wir warten noch auf die QC vom Core.",
                "Bitte keine Daten an die Kooperationspartner schicken, bevor wir darüber gesprochen haben.",
                "Für die Revision brauchen wir die Mapping-Statistiken als Tabelle.",
                "Denk bitte daran, die Methoden auf Englisch zu schreiben und alle Versionen anzugeben.",
                "Können wir die Schwelle für die DE-Gene nochmal besprechen? Mir kommen die Zahlen zu hoch vor.",
                "Und bitte nicht alle Jobs gleichzeitig auf highmem, das Rechenzentrum hat sich schon beschwert.",
                "Die Heatmap bitte mit z-Scores, nicht mit rohen Counts.",
                "Schau dir bitte auch die Probe an, die im MultiQC so komisch aussah.",
                "Ich bin nächste Woche auf der Tagung, also schick mir alles bis " + day + "."]
        chosen = self.rng.sample(body, self.rng.randint(2, 5))
        if not any("bitte" in x for x in chosen):
            chosen.insert(self.rng.randint(0, len(chosen)), self.pick([x for x in body if "bitte" in x]))
        dear = "Liebe" if self.first[-1] == "a" or self.first in ("Beatriz", "Júlia") else "Lieber"
        return "\n".join([self.pick((f"Hallo {self.first},", f"{dear} {self.first},", f"Hi {self.first},")), ""] + chosen
                         + ["", self.pick((f"Viele Grüße, {self.pi_first}", f"LG {self.pi_first}", f"Danke und beste Grüße\n{self.pi_first}"))])


ASKS = {
    "queue": ("check the queue", "what's running?", "are the STAR jobs still going", "olha a fila pra mim",
              "did the array finish", "tá rodando ainda?", "anything stuck in PD?", "how's the queue looking",
              "läuft noch was?", "is {s} done yet", "squeue pls", "what's still pending and why"),
    "efficiency": ("how much memory did the last jobs actually use", "were we way over-requesting on mem?",
                   "check the efficiency of yesterday's jobs", "quanto de memória os jobs usaram de verdade?",
                   "sacct for the failed ones", "which jobs died and of what", "look at seff for the STAR ones"),
    "nfrun": ("relaunch the pipeline", "start the nf run again with the new sheet", "roda o pipeline de novo",
              "kick off nextflow for run2", "let's restart the rnaseq pipeline", "resume the run", "go ahead and launch it"),
    "nflog": ("what does the nextflow log say", "check .nextflow.log", "why is it so slow, look at the log",
              "dá uma olhada no log do nextflow", "is nextflow still submitting?", "anything weird in the log?"),
    "smk": ("how's the variant calling going", "check the snakemake log", "did haplotype caller finish for all exomes",
            "e o snakemake?", "where's the GATK workflow at", "look at the latest snakemake log"),
    "qc": ("look at the multiqc stats", "check the STAR logs", "how do the mapping rates look", "flagstat for the BAMs",
           "dá uma olhada no QC", "anything off in fastp?", "check strandedness", "compare {s} with the others in QC",
           "is {s} an outlier in the QC?", "quick QC pass over everything pls"),
    "config": ("show me the nextflow.config", "what's in the Snakefile again", "open the samplesheet",
               "what's in the env yml", "check the sbatch script for STAR", "mostra o config", "wie sieht die config aus?",
               "what memory did we give STAR in the config?", "read the coldata"),
    "deseq": ("run the DESeq2 script", "rerun deseq with the current design", "show me the top genes",
              "roda o DESeq2", "what does summary(res) say", "look at {g} in the results", "redo the contrast for {s}'s group",
              "print the top hits with symbols"),
    "plots": ("make the PCA", "volcano plot pls", "redo the heatmap", "faz o PCA de novo", "plot counts for {g}",
              "MA plot for the main contrast", "I need the PCA for lab meeting"),
    "scanpy": ("run the scanpy QC", "cluster the single-cell data", "roda o scanpy", "how many cells after filtering?",
               "UMAP + leiden pls", "check the sc object"),
    "pandas": ("merge the count tables", "make the sample stats table", "junta as tabelas", "build the table for the supplement",
               "summarise mapping per sample in pandas"),
    "variants": ("bcftools stats on the joint calls", "how many variants do we have", "check the GATK log for {v}",
                 "quantas variantes?", "look at the callset"),
    "disk": ("how full is scratch", "du on the project", "are we near the quota?", "quanto espaço a gente tem?",
             "check disk usage pls", "ls the star results"),
    "env": ("what versions are in the env", "mamba list for the R env", "which DESeq2 version do we have",
            "git log pls", "what changed in the repo lately"),
    "paper": ("find the methods of that {g} paper", "what did they use for normalization in the {g} paper",
              "pull the abstract of the paper reviewer 2 mentioned", "procura o paper do {g}", "check how they called variants there"),
    "script": ("write a small script for the PCA", "make a script that merges the counts", "script for the volcano pls",
               "can you write the heatmap script", "write the sc QC script"),
    "submit": ("submit the STAR job for {s}", "sbatch the rerun", "submete o job de novo", "queue the alignment for {s}",
               "send the index build to the cluster"),
    "tweak": ("give STAR more memory in the config", "bump the time limit in the sbatch", "more threads for the GATK rule",
              "change alpha in the deseq script", "aumenta a memória do STAR", "small config change: more time for the array"),
    "fastq": ("peek at the fastqs for {s}", "are the run2 fastqs complete? md5?", "what do the read headers look like",
              "check the fastq of {s}, something's off"),
}
SAYS = {
    "queue": ("{note}. Nothing looks stuck; the pending ones are waiting on priority.",
              "Queue: {note}. The array is throttled, so it'll trickle through over the next hours.",
              "{note}. Two of ours are on {node}, the rest wait for resources.", "Right now {note}. I'll check again after the next batch.",
              "{note} — mostly other people's jobs on highmem, ours are fine."),
    "efficiency": ("Summary: {note}. Most jobs used well under half of what they asked for.",
                   "{note}. The memory requests for the small steps could be cut a lot.",
                   "From sacct/seff: {note}. The failures cluster in the alignment step.",
                   "{note}; CPU efficiency is poor for the single-threaded steps."),
    "nfrun": ("Launched: {note}. I'll keep an eye on it.", "The run {note}. Cached tasks were reused.",
              "Nextflow {note}; nothing needs a decision yet.", "It {note}. The report and timeline are in results/pipeline_info."),
    "nflog": ("Nothing alarming in the log — submissions and completions alternate normally.",
              "The log shows steady polling; a few tasks retried, none failed for good.",
              "Looks normal. The slow part is the queue, not the pipeline itself."),
    "smk": ("Snakemake: {note}.", "{note}. The remaining jobs are the joint genotyping steps.", "Status: {note}."),
    "qc": ("QC overall looks fine; {note}.", "{note}. Everything else is within the usual range.",
           "Mapping and assignment rates are consistent across samples, {note}.", "{note} — worth a look before DE, but not alarming."),
    "config": ("That's the current version. Nothing surprising in it.", "Here it is; the resource blocks are what you remembered.",
               "Printed above. The process-specific limits are the part that matters for the failures.",
               "That's the file as it is now — I didn't change anything."),
    "deseq": ("DESeq2 ran through. The up/down numbers are in the summary above.",
              "Done — top hits are in the table; the strongest ones are strongly downregulated.",
              "Results printed. Nothing changed compared to the last run apart from rounding.",
              "It finished; warnings are the usual ones about factors."),
    "plots": ("Plots are written to plots/. The first two PCs separate mostly by condition.",
              "Saved. The labels overlap a bit, I can thin them out if you want.", "Done, the PDF is in plots/."),
    "scanpy": ("Processed: {note}.", "scanpy finished; clusters look reasonable, a small one might be doublets.",
               "Done. The object is saved as sc/processed.h5ad."),
    "pandas": ("Table built, see above.", "Merged; all samples have a column, no NAs.", "Here's the summary table."),
    "variants": ("Callset stats above. Ts/Tv looks right for exomes.", "{note}.", "GATK log: {note}."),
    "disk": ("We're at a comfortable level for now, work/ is the big one.", "Scratch is filling up; work/ dominates.",
             "Listing above. The BAMs are the bulk of it."),
    "env": ("Versions above.", "That's what's installed; DESeq2 is the Bioconductor 3.18 version.", "Recent commits above."),
    "paper": ("Found it: \"{note}\". The methods excerpt is above.", "The methods are pretty standard, see the excerpt.",
              "Here's the abstract and the relevant methods paragraph."),
    "script": ("Script written and it runs.", "Done, the script is in scripts/ and ran cleanly.", "Written and tested once."),
    "submit": ("Submitted, it's in the queue.", "Job is in; I'll check on it later.", "Queued."),
    "tweak": ("Changed, see the diff above.", "Edited; the rest of the file is as it was.", "Done — one line changed.",
              "Updated. It applies from the next submission on."),
    "fastq": ("The reads look normal — Illumina headers, Q-scores fine.", "md5s and headers look fine.",
              "Nothing wrong with the fastqs as far as I can see."),
}
NEXT = ("", "", "", " Want me to go on with the next step?", " Shall I continue?", " Let me know if I should rerun anything.",
        " I can make the plot next if you like.", " Next I'd look at the failed ones.", " Tell me if you want the full table.")
CHAT = (("what does sjdbOverhang actually do again?", "It's the length of the genomic sequence around annotated junctions "
         "used for the splice-junction database — read length minus one is the usual choice."),
        ("why does DESeq2 want raw counts and not TPM?", "Its model works on counts: size factors and the negative binomial "
         "dispersion need the integer scale. TPMs throw away the information about library depth."),
        ("remind me, vst or rlog for a PCA with 24 samples?", "Either works; vst is faster and behaves the same at that size."),
        ("o que é mesmo o fator de tamanho?", "The size factor rescales each sample's counts for sequencing depth (median of ratios)."),
        ("is 70% uniquely mapped bad for mouse liver?", "A bit low; mid-80s is typical. Check rRNA and too-short reads first."),
        ("do we need to dedup RNA-seq?", "Usually not without UMIs — duplicates in RNA-seq are mostly real expression."),
        ("what's the difference between OUT_OF_MEMORY and FAILED in sacct?", "OUT_OF_MEMORY means the cgroup killed the job "
         "for exceeding its memory request; FAILED is any other non-zero exit."),
        ("wie war das nochmal mit apeglm vs ashr?", "apeglm needs a coefficient and is a bit more conservative; ashr also "
         "works with contrasts."),
        ("why is salmon so much faster?", "It doesn't produce full alignments; it maps selectively to the transcriptome."),
        ("what does Ts/Tv tell us for exomes?", "Around 2.8-3.0 is expected in exonic regions; much lower suggests false positives."),
        ("tá, e o -resume usa o que exatamente?", "The task hashes in the work directory: unchanged inputs and scripts are reused."),
        ("should the interaction term go in the design?", "Only if you want to test whether the effect differs between groups; "
         "otherwise it costs power."),
        ("how many PCs for the neighbours graph?", "Look at the elbow in the variance ratio; 20-30 is a common range."),
        ("quick: what's MaxRSS exactly?", "The peak resident memory of the job step — the number that matters for --mem."))
FOLLOW = ("ah and {x}", "also {x}", "e {x}", "oh, {x}", "+ {x}", "und {x}")
DOABLE = ("queue", "disk", "qc", "config", "nflog", "env", "deseq", "variants", "efficiency", "smk", "pandas", "scanpy",
          "plots", "paper", "fastq")
CONTEXT = ("", "", "", "", " for the lab meeting tomorrow", " — {PI} asked in the corridor", " (reviewer will ask anyway)",
           " (I'm on the train, slow wifi)", " before I forget", ", meu deus this project", " for the supplement",
           " — quick, before the seminar", ", {C} wants to compare with theirs", " — heute noch bitte")
PREFACE = {"shell": ("Checking.", "Let me look.", "Running it on the login node, it's light.", "Quick look first.",
                     "I'll check the logs.", "Looking at the files."),
           "slurm": ("Checking SLURM.", "Querying the scheduler.", "Let me see what SLURM says.", "Submitting."),
           "nf_log": ("Reading the log.", "Let me read the log.", "Checking the pipeline log."),
           "read_file": ("Opening it.", "Reading the file.", "Let me read it first."),
           "write_file": ("Writing it.", "Creating the file.", "Here's a first version."),
           "edit_file": ("Editing.", "Small change.", "Patching that line."),
           "run_r": ("Running it in R.", "Let me run that.", "R, in the rnaseq-de env."),
           "run_python": ("Running it.", "In Python.", "Let me compute that."),
           "fetch_paper": ("Looking it up.", "Fetching the paper.", "Let me find it.")}
DETAIL = (" {s} was the slowest again.", " The {g} counts look as expected.", " Node {node} was a bit slow.",
          " Logs are under logs/.", " Nothing else stood out.", " {s} is the one to keep an eye on.",
          " I didn't touch anything else.", " The numbers match last week's run.", " {v} is still the odd one on the exome side.")


def _plain(template: str) -> str:
    return template.replace("«", "").replace("»", "")


def _fill(template: str, **kw: str) -> str:
    for key, val in kw.items():
        template = template.replace("{" + key + "}", val)
    return template


class _Builder(_Outputs):
    """Builds one session front to back: plan the facts, then episodes and filler turns in order."""

    def words(self, template: str) -> str:
        return _fill(template, s=self.sample(), g=self.gene(), v=self.pick(self.vsamples), node=self.node(),
                     p=self.pick(PARTITIONS[:3]), note=self.note or "all fine", PI=self.pi_first,
                     C=self.pick(self.colleagues).split()[0])

    def ask(self, topic: str) -> str:
        text = self.pick(OPENERS) + self.words(self.pick(ASKS[topic]) + self.pick(CONTEXT)) + self.pick(TAILS)
        return _typo(self.rng, text)

    def answer(self, topic: str) -> str:
        text = self.pick(("", "", "", "OK — ", "Done. ", "So: ", "Checked. ", "Beleza. ")) + self.words(self.pick(SAYS[topic]))
        if self.rng.random() < 0.45:
            text += self.words(self.pick(DETAIL))
        return text + self.pick(NEXT)

    def preface(self, tool: str) -> str | None:
        return self.pick(PREFACE[tool]) if self.rng.random() < 0.45 else None

    def system(self) -> None:
        what = (f"RNA-seq time course of {self.kogene} knockout vs wild-type mouse liver" if self.mouse else
                f"RNA-seq of human liver organoids ({', '.join(sorted({s.split('_')[1] for s in self.samples}))}) from four donors")
        self.add({"role": "system", "content": (
            f"You are a bioinformatics assistant working with {self.first} {self.last}, a postdoc in {self.lab} "
            f"(University of {self.city}). You run analyses on the {self.cluster} HPC cluster (SLURM, Rocky Linux 8) from the "
            f"login node as {self.uname}.\n\nProject: {what}, {len(self.samples)} libraries in two sequencing runs, plus "
            f"whole-exome data for {len(self.vsamples)} animals/patients (Snakemake + GATK). Project directory: {self.pdir}.\n\n"
            "Tools:\n- shell: run a command on the login node (light work only; heavy work goes through SLURM)\n"
            "- slurm: sbatch, squeue, sacct, seff, scontrol, sinfo\n- nf_log: read Nextflow and Snakemake logs and console output\n"
            "- read_file, write_file, edit_file: files under the project directory\n"
            "- run_r: R 4.3 in the rnaseq-de environment (DESeq2, tidyverse, ggplot2)\n"
            "- run_python: Python 3.11 in the scanpy environment (pandas, scanpy, anndata)\n"
            "- fetch_paper: look up a paper by DOI or keywords and return its abstract and methods\n\n"
            "Report what outputs actually say, keep answers short, and ask before deleting or overwriting anything.")})

    # --- filler: what fills the session between the planted facts ------------------------------------------------

    def specs(self, topic: str) -> list[tuple[str, dict[str, Any], Callable[[], str]]]:
        s, u = self.sample(), self.uname
        if topic == "queue":
            return [("slurm", {"command": self.pick((f"squeue -u {u}", "squeue -p highmem", f"squeue -u {u} --start"))}, self.out_squeue),
                    ("slurm", {"command": "sacct -S now-2days --format=JobID,JobName%30,Partition,Elapsed,MaxRSS,ReqMem,"
                                          "AllocCPUS,State,ExitCode"}, self.out_sacct)]
        if topic == "efficiency":
            jobs = " ".join(str(j) for j, _ in self.our_jobs[-3:]) or str(self.jobid)
            return [("slurm", {"command": f"sacct -u {u} -S now-1days --format=JobID,JobName%30,Elapsed,MaxRSS,ReqMem,State"}, self.out_sacct),
                    ("slurm", {"command": f"for j in {jobs}; do seff $j; echo; done"}, self.out_seff)]
        if topic == "nfrun":
            return [("shell", {"command": f"cd {self.pdir} && nextflow run nf-core/rnaseq -r 3.14.0 -profile singularity,{self.cluster} "
                                          f"-params-file params.yaml -resume -ansi-log false"}, self.out_nf_console),
                    ("nf_log", {"path": f"{self.pdir}/.nextflow.log", "tail": 300}, self.out_nf_log)]
        if topic == "nflog":
            return [("nf_log", {"path": f"{self.pdir}/.nextflow.log", "tail": self.pick((200, 400, 800))}, self.out_nf_log),
                    ("slurm", {"command": f"squeue -u {u}"}, self.out_squeue)]
        if topic == "smk":
            v = self.pick(self.vsamples)
            return [("nf_log", {"path": f"{self.scratch}/{self.proj}_exome/.snakemake/log/latest.snakemake.log"},
                     lambda: self.out_smk(self.pick(RULES[:7])) if self.rng.random() < 0.3 else self.out_smk()),
                    ("shell", {"command": f"cat logs/haplotype_caller/{v}.log"},
                     lambda: self.out_gatk("java.lang.OutOfMemoryError: Java heap space", v) if self.rng.random() < 0.2 else self.out_gatk(v=v))]
        if topic == "qc":
            return self.rng.sample([
                ("shell", {"command": "cat results/multiqc/star_salmon/multiqc_data/multiqc_general_stats.txt"}, self.out_multiqc),
                ("shell", {"command": "tail -n +1 results/star/*/*.Log.final.out"}, self.out_star_logs),
                ("shell", {"command": "for b in results/star/*/*.sorted.bam; do echo \"== $(basename $b .sorted.bam) ==\"; samtools flagstat -@ 4 $b; done"},
                 self.out_flagstat),
                ("shell", {"command": "tail -n +1 logs/fastp/*.log"}, self.out_fastps),
                ("shell", {"command": "for b in results/star/*/*.bam; do infer_experiment.py -r /ref/genome/genes.bed -i $b; done"},
                 self.out_infer),
                ("shell", {"command": "cat counts/featureCounts.log"}, self.out_featurecounts),
                ("shell", {"command": "cat results/fastqc/*/summary.txt"}, self.out_fastqc_summary)], 3)
        if topic == "config":
            which = self.pick(("nextflow.config", "workflow/Snakefile", "samplesheets/samplesheet_run1.csv",
                               "envs/rnaseq-de.yml", "slurm/star_array.sbatch", "scripts/deseq2.R"))
            make = {"nextflow.config": self.file_nfconfig, "workflow/Snakefile": self.file_snakefile,
                    "samplesheets/samplesheet_run1.csv": self.file_samplesheet, "envs/rnaseq-de.yml": self.file_envyml,
                    "slurm/star_array.sbatch": self.file_sbatch, "scripts/deseq2.R": self.file_rscript}[which]
            edit = {"nextflow.config": ("memory = { 40.GB * task.attempt }", "memory = { 64.GB * task.attempt }"),
                    "workflow/Snakefile": ("threads: 8", "threads: 16"), "samplesheets/samplesheet_run1.csv": (",auto", ",reverse"),
                    "envs/rnaseq-de.yml": ("r-base=4.3.2", "r-base=4.3.3"),
                    "slurm/star_array.sbatch": ("#SBATCH --time=08:00:00", "#SBATCH --time=12:00:00"),
                    "scripts/deseq2.R": ("alpha = 0.05", "alpha = 0.1")}[which]
            return [("read_file", {"path": which}, make),
                    ("edit_file", {"path": which, "old": edit[0], "new": edit[1]}, lambda: f"Edited {which}: 1 replacement."),
                    ("read_file", {"path": "conf/" + self.cluster + ".config"}, self.file_nfconfig)]
        if topic == "tweak":
            path, old, new = self.pick(((f"conf/{self.cluster}.config", "memory = { 40.GB * task.attempt }", "memory = { 64.GB * task.attempt }"),
                                        ("slurm/star_array.sbatch", "#SBATCH --time=08:00:00", "#SBATCH --time=12:00:00"),
                                        ("workflow/Snakefile", "threads: 8", "threads: 16"),
                                        ("scripts/deseq2.R", "alpha = 0.05", "alpha = 0.1")))
            return [("edit_file", {"path": path, "old": old, "new": new}, lambda: f"Edited {path}: 1 replacement."),
                    ("read_file", {"path": path}, self.file_nfconfig if path.endswith(".config") else self.file_sbatch
                     if path.endswith(".sbatch") else self.file_snakefile if "Snakefile" in path else self.file_rscript)]
        if topic in ("deseq", "plots"):
            code = self.pick(("source('scripts/deseq2.R')", "summary(res)\nhead(res[order(res$padj), ], 30)",
                              "res_tbl |> arrange(padj) |> print(n = 30)", "plotPCA(vsd, intgroup = c('batch'))",
                              "sessionInfo()", "dds <- DESeq(dds)\nres <- results(dds)\nsummary(res)"))
            more = ("shell", {"command": "ls -lh plots/"}, lambda: self.out_ls("plots"))
            return [("run_r", {"code": code}, self.out_r), more if topic == "plots" else
                    ("run_r", {"code": self.pick(("head(counts(dds, normalized = TRUE))", "resultsNames(dds)",
                                                  "table(res$padj<0.05)"))}, self.out_r)]
        if topic in ("scanpy", "pandas"):
            return [("run_python", {"code": self.pick(("exec(open('scripts/sc_qc.py').read())", "print(adata)",
                                                       "df = pd.read_csv('qc/sample_stats.tsv', sep='\\t')\nprint(df)",
                                                       "merged = merge_counts(files)\nprint(merged.describe())"))}, self.out_py),
                    ("read_file", {"path": "scripts/sc_qc.py"}, self.file_pyscript)]
        if topic == "variants":
            v = self.pick(self.vsamples)
            return [("shell", {"command": "bcftools stats -s - calls/joint.filtered.vcf.gz | head -n 300"}, self.out_bcfstats),
                    ("shell", {"command": f"cat logs/haplotype_caller/{v}.log"}, lambda: self.out_gatk(v=v))]
        if topic == "disk":
            return [("shell", {"command": f"du -sh {self.pdir}/* ; quota -s"}, self.out_du),
                    ("shell", {"command": "ls -lh results/star/*/"}, lambda: self.out_ls("results/star"))]
        if topic == "env":
            return [("shell", {"command": "mamba list -n rnaseq-de"}, self.out_mamba_list),
                    ("shell", {"command": "git log --oneline -n 15"}, self.out_git_log)]
        if topic == "paper":
            return [("fetch_paper", {"query": f"{self.gene()} {self.pick(('liver', 'hepatocyte', 'organoid'))} RNA-seq"}, self.out_paper),
                    ("fetch_paper", {"query": f"{self.gene()} knockout transcriptome"}, self.out_paper)]
        if topic == "script":
            path = self.pick(("scripts/plot_pca.R", "scripts/volcano.R", "scripts/heatmap_top50.R", "scripts/merge_counts.py"))
            return [("write_file", {"path": path, "content": self.file_rscript() if path.endswith(".R") else self.file_pyscript()},
                     lambda: f"Wrote {self.rng.randint(900, 6000)} bytes to {path}"),
                    ("run_r", {"script": path}, self.out_r) if path.endswith(".R") else ("run_python", {"script": path}, self.out_py)]
        if topic == "submit":
            return [("write_file", {"path": "slurm/star_single.sbatch", "content": self.file_sbatch()},
                     lambda: f"Wrote {self.rng.randint(500, 900)} bytes to slurm/star_single.sbatch"),
                    ("slurm", {"command": "sbatch slurm/star_single.sbatch"}, self.out_sbatch),
                    ("slurm", {"command": f"squeue -u {u}"}, self.out_squeue)]
        return [("shell", {"command": f"zcat /data/raw/{self.pick(self.flowcells)}/{s}_S{self.sn[s]}_L001_R1_001.fastq.gz | head -n 16"},
                 self.out_fastq_head),
                ("shell", {"command": f"cd /data/raw/{self.pick(self.flowcells)} && md5sum -c md5sums.txt | tail -n 30"},
                 lambda: "\n".join(f"{x}_S{self.sn[x]}_L00{self.rng.randint(1, 4)}_R{self.rng.randint(1, 2)}_001.fastq.gz: OK"
                                   for x in self.rng.sample(self.samples, min(12, len(self.samples)))))]

    def generic(self) -> tuple[str, dict[str, Any], Callable[[], str]]:
        return self.pick((
            ("slurm", {"command": f"squeue -u {self.uname}"}, self.out_squeue),
            ("nf_log", {"path": f"{self.pdir}/.nextflow.log", "tail": 200}, self.out_nf_log),
            ("shell", {"command": "tail -n +1 results/star/*/*.Log.final.out"}, self.out_star_logs),
            ("shell", {"command": f"du -sh {self.pdir}/* ; quota -s"}, self.out_du),
            ("slurm", {"command": "sacct -S now-1days --format=JobID,JobName%30,Partition,Elapsed,MaxRSS,ReqMem,AllocCPUS,"
                                  "State,ExitCode"}, self.out_sacct),
            ("run_r", {"code": "summary(res)"}, self.out_r),
            ("shell", {"command": "cat results/multiqc/star_salmon/multiqc_data/multiqc_general_stats.txt"}, self.out_multiqc)))

    def run_steps(self, inner: int, specs: list[tuple[str, dict[str, Any], Callable[[], str]]]) -> None:
        """``inner`` messages of calls and results: single calls, and one parallel pair when ``inner`` is odd."""
        groups = [2] * (inner // 2)
        if inner % 2:
            groups[0] = 3
        self.rng.shuffle(groups)
        todo = list(specs)

        def nxt() -> tuple[str, dict[str, Any], Callable[[], str]]:
            if todo:
                return todo.pop(0)
            return self.generic() if self.rng.random() < 0.4 else self.pick(self.specs(self.pick(DOABLE)))
        for g in groups:
            if g == 2:
                tool, args, out = nxt()
                self.step(tool, args, out, self.preface(tool))
            else:
                pair = [nxt(), nxt()]
                self.psteps(pair, self.preface(pair[0][0]))

    def next_topic(self) -> str:
        missing = [t for t in TOOLS if t not in self.tools_used]
        if missing and self.n >= 200:
            return {"shell": "disk", "slurm": "queue", "nf_log": "nflog", "read_file": "config", "write_file": "script",
                    "edit_file": "tweak", "run_r": "deseq", "run_python": "pandas", "fetch_paper": "paper"}[missing[0]]
        if not self.topics:
            self.topics = self.rng.sample(list(ASKS), len(ASKS))
        return self.topics.pop()

    def filler(self, size: int) -> None:
        """One turn of exactly ``size`` messages that plants nothing."""
        if size == 2:
            q, a = self.pick(CHAT)
            self.user(_typo(self.rng, self.pick(OPENERS) + q))
            self.say(self.pick(("", "", "Short version: ", "In short: ")) + a)
            return
        if size == 3:
            q, a = self.pick(CHAT)
            self.user(_typo(self.rng, self.pick(OPENERS) + q))
            self.user(self.words(self.pick(("asking because the reviewer brought it up", "(for the methods text)",
                                            "pergunto por causa do revisor", "{C} said otherwise yesterday", "sorry if I asked before",
                                            "short answer is fine", "kurz bitte", "{PI} asked me and I blanked"))))
            self.say(self.pick(("", "", "Short version: ", "Good question. ", "In short: ")) + a)
            return
        topic = self.next_topic()
        self.user(self.ask(topic))
        self.run_steps(size - 2, self.specs(topic))
        self.say(self.answer(topic))

    def fill_to(self, target: int) -> None:
        while target - len(self.msgs) >= 2:
            gap = target - len(self.msgs)
            size = min(gap, self.pick((4, 4, 5, 6, 6, 7, 8, 8, 9, 10, 10, 11, 12, 14, 16, 19, 24)))
            if gap - size == 1:
                size += 1
            self.filler(size)

    def interject(self) -> None:
        """One message more: the user nudges before the agent's last answer."""
        msg = {"role": "user", "content": self.pick(("e aí?", "and?", "still there?", "tudo certo?", "??", "any news?", "hallo?"))}
        self.msgs.insert(len(self.msgs) - 1, msg)
        self.chars += len(msg["content"])

    # --- what the user pastes -------------------------------------------------------------------------------------

    def she(self) -> str:
        return "she" if self.pi_first in ("Sabine", "Katrin", "Ulrike", "Petra") else "he"

    def ep_paste(self, kind: str, adopt: dict[str, Any] | None = None) -> int:
        """A user message with someone else's text pasted in it, and her own words around it; returns its index."""
        c = self.pick(self.colleagues)
        intro = {"core": ("email from the core, fyi:", "the core answered 🙄", "this came from the sequencing facility:",
                          "olha o email do core:", "core facility again..."),
                 "reviewer": ("reviews are in. the bioinfo part:", "reviewer comments, the one that concerns us:",
                              "ok so the reviews. pasting the relevant one", "revisão chegou. isso aqui é com a gente:"),
                 "sop": ("this is the wiki SOP, for context:", "pasting the cluster SOP from our wiki so you know the rules",
                         f"{c.split()[0]} pointed me to the wiki page, here:", "the SOP, since the admins complained again:"),
                 "slack": (f"{c.split()[0]} just wrote in mattermost:", "from the lab channel:", f"msg from {c.split()[0]}:",
                           "fyi, from slack:"),
                 "pi": (f"{self.pi_first}'s message:", f"{self.pi_first} wrote this:", f"mensagem da/do {self.pi_first}:",
                        f"von {self.pi_first}, gerade eben:")}[kind]
        if kind == "sop":
            body, keys = self.paste_sop(adopt["key"] if adopt else "")
        else:
            body = {"core": self.paste_core, "reviewer": self.paste_reviewer, "slack": lambda: self.paste_slack(c),
                    "pi": self.paste_pi}[kind]()
            keys = []
        react = self.react(kind, keys, adopt)
        text = f"{_typo(self.rng, self.pick(intro))}\n\n{body}\n\n{react}"
        i = self.user(text)
        self.pasted.append((i, body))
        if adopt is not None:
            self.plant(adopt, i)
        if kind == "core" and self.rng.random() < 0.6:
            self.step("read_file", {"path": "samplesheets/samplesheet_run2.csv"}, self.file_samplesheet, self.preface("read_file"))
        elif kind == "slack" and self.rng.random() < 0.5:
            self.step("slurm", {"command": "squeue -p highmem"}, self.out_squeue, self.preface("slurm"))
        self.say(self.pick({
            "core": ("Noted. When we regenerate the sheet I'll check it against those rules before it goes out.",
                     "OK. Our current sheet mostly complies; the sample names are the part to double-check.",
                     "Got it — nothing to run for now."),
            "reviewer": ("Noted. Some points need new analyses, the rest is text for the response letter.",
                         "OK. The batch and mapping-statistics points are the ones we can answer with what we have.",
                         "Understood; I'll wait until you've talked it through before running anything."),
            "sop": ("Understood, I'll follow what you said and leave the rest.", "Noted — your points apply, the ones you dropped don't.",
                    "OK, I'll work within that."),
            "slack": ("Noted.", "OK, I'll keep that in mind for the next submissions.", "Got it."),
            "pi": (f"Understood — I'll prioritise what {self.she()} asked for.", "OK. Nothing to run right now then?",
                   "Noted; tell me which part to start with.")}[kind]))
        return i

    def react(self, kind: str, keys: list[str], adopt: dict[str, Any] | None) -> str:
        if kind == "sop":
            parts = []
            if adopt is not None:
                parts.append(adopt["sentence"])
            own = [k for k in keys if k in self.SOP_ADOPT and self.free(_plain(self.SOP_ADOPT[k]))]
            if own and (adopt is None or self.rng.random() < 0.4):
                parts.append(_plain(self.SOP_ADOPT[self.pick(own)]))
            bad = [k for k in keys if k in self.SOP_REJECT]
            parts.append(self.pick(self.SOP_REJECT[self.pick(bad)]))
            self.rng.shuffle(parts)
            text = self.pick(("ok from that: ", "for us: ", "so: ", "tá, resumindo: ")) + "; ".join(parts) + "."
            typo = _typo(self.rng, text)
            return typo if adopt is None or adopt["value"] in typo else text
        return _typo(self.rng, self.pick({
            "core": ("I'll fix the sheet later, nothing to do right now.", "can you check our sheet against that later?",
                     "mostly already fine I think.", "ugh. ok, later."),
            "reviewer": ("we answer point by point later, just keep it in mind.", "the batch one worries me.",
                         f"nothing to run yet, I need to talk to {self.pi_first} first.", "some of this we already have."),
            "slack": ("ok so be nice to highmem this week.", "noted, nothing to do.", "lol. ok.", "just so you know."),
            "pi": (f"tl;dr {self.she()} wants things before the conference.", f"ok. let's see what {self.she()} really needs first.",
                   "typical. ok.", f"basically the usual, {self.she()} wants figures.")}[kind]))


# --- what gets planted -------------------------------------------------------------------------------------------
# «...» marks the value inside a sentence; {X} are drawn per session.

INSTRUCTIONS = (
    ("memcap", "How much memory may a single job request at most?", (
        ("indirect", "btw the admins get cranky if a job asks for «more than {N}G», so stay below that"),
        ("casual", "and pls nothing «above {N}G of RAM» per job, the HPC guys already wrote me once"),
        ("conditional", "if something really needs «more than {N} gigs» ask me before you submit it"),
        ("pt", "ah, e não pede «mais de {N}G» de memória, os admins reclamam"),
        ("de", "Regel vom Rechenzentrum und ich seh's genauso: «nie mehr als {N}G» pro Job"))),
    ("rawfastq", "What did the user say about touching the raw FASTQ files?", (
        ("casual", "I'd rather you «didn't touch the raw fastqs, ever» — not even to rename them"),
        ("pt", "«não mexe nos fastq crus», nem pra renomear"),
        ("indirect", "the raw fastqs are the only copy the core won't resend, so «those stay untouched»"),
        ("de", "und die Rohdaten: «Finger weg von den fastq.gz», wirklich"))),
    ("oom", "What should happen when a job is killed for running out of memory?", (
        ("conditional", "if a job dies on memory, «double it once and then ask me»"),
        ("pt", "se morrer por memória, «dobra uma vez e depois me pergunta»"),
        ("casual", "OOM kills: «one retry with 2x mem, then stop and ping me»"),
        ("indirect", "last time a retry loop ran all night it ate our fairshare, so «one memory bump max without asking»"))),
    ("resume", "How should the Nextflow pipeline be relaunched?", (
        ("pt", "e «sempre usa o -resume», tá?"),
        ("casual", "«always relaunch with -resume», the STAR step alone is like six hours"),
        ("indirect", "recomputing from scratch costs us a day every time, so «-resume on every single relaunch»"),
        ("de", "«immer mit -resume neu starten», sonst rechnen wir alles doppelt"))),
    ("workdir", "What is the rule about the Nextflow work directory?", (
        ("pt", "«nunca apaga o work dir», é nosso cache"),
        ("casual", "«don't rm the work dir», it's the only cache we have"),
        ("conditional", "if scratch fills up, «clean results/ first, never the work dir»"),
        ("de", "«das work-Verzeichnis bleibt», egal was die Wiki sagt"))),
    ("partition", "Which partition should the alignment jobs use?", (
        ("indirect", "STAR jobs keep getting killed at 4h on the default, so «alignments go on {P}»"),
        ("pt", "os alinhamentos «roda no {P}», tá?"),
        ("conditional", "if it's an alignment or anything GATK, «use {P}»"),
        ("casual", "put the STAR stuff «on {P} from now on» pls"))),
    ("outdir", "Where should new outputs be written?", (
        ("casual", "«everything new goes under {D}»"),
        ("indirect", "home is 50G and already at 46, so «outputs to {D}» from now on"),
        ("pt", "«salva tudo em {D}»"),
        ("conditional", "if a step writes more than a few MB, «send it to {D}»"))),
    ("threads", "How many threads may STAR use?", (
        ("indirect", "the highmem nodes are shared with the Becker group, «STAR gets {T} threads» max"),
        ("casual", "cap STAR at «{T} threads» pls"),
        ("pt", "«no máximo {T} threads» pro STAR"))),
    ("seed", "Which random seed should analyses use?", (
        ("casual", "«set.seed({S})» at the top of every R script pls, the reviewers will want reproducible UMAPs"),
        ("pt", "usa sempre «set.seed({S})»"),
        ("conditional", "if anything random is involved (UMAP, kmeans, subsampling) «seed it with {S}»"))),
    ("env", "Which conda environment must be active for the R analyses?", (
        ("indirect", "base has the old DESeq2, so «R stuff only inside {E}»"),
        ("casual", "«mamba activate {E}» before any Rscript pls"),
        ("pt", "sempre dentro do env «{E}» pro R"))),
    ("theme", "Which ggplot theme do paper figures use?", (
        ("indirect", "{PI} hates the grey background, so «theme_classic(base_size = {B})» for paper figures"),
        ("casual", "«theme_classic(base_size = {B})» for anything that goes in the manuscript"),
        ("pt", "figura pro paper: «theme_classic(base_size = {B})»"))),
    ("dpi", "How should figures be exported?", (
        ("indirect", "the journal bounced our last figures, so «{F} at {R} dpi»"),
        ("casual", "export figures as «{F}, {R} dpi» pls"),
        ("conditional", "if it's for the paper, «{F} at {R} dpi», slides can be png"))),
    ("results", "Where do new runs go instead of overwriting results/?", (
        ("casual", "don't overwrite anything in results/, «new runs go to results_{TAG}/»"),
        ("pt", "nada de sobrescrever results/, «cria results_{TAG}/»"),
        ("indirect", "we already lost the old counts once, so «every rerun into results_{TAG}/»"))),
    ("walltime", "What wall-time limit should jobs stay under?", (
        ("indirect", "jobs asking for more than {H}h sit in the queue forever, so «keep --time under {H}h»"),
        ("casual", "«--time max {H}:00:00» pls"),
        ("conditional", "if you think something needs more than {H} hours, «split it or ask me»"))),
    ("weekend", "What's the rule about running jobs over the weekend?", (
        ("de", "{PI} sagt immer «keine großen Jobs übers Wochenende ohne Rücksprache», and for once I agree"),
        ("casual", "«nothing big over the weekend» without telling me first"),
        ("pt", "«nada pesado no fim de semana» sem me avisar"))),
    ("gitlab", "What about pushing code to the lab GitLab?", (
        ("casual", "«no pushing to the lab gitlab» without me looking first"),
        ("pt", "«não faz push no gitlab do lab» sem eu revisar"),
        ("de", "«kein Push aufs GitLab» ohne dass ich drüberschaue"))),
    ("cc", "Who must be copied on messages to the sequencing core?", (
        ("casual", "anything that goes to the core, «cc {M}»"),
        ("conditional", "if you draft anything for the core, «cc {M}», she tracks the billing"),
        ("pt", "email pro core sempre com «cópia pra {M}»"))),
    ("geo", "When may data be uploaded to GEO?", (
        ("casual", "nothing goes to GEO «before {PI} signs off»"),
        ("de", "Upload zu GEO erst «nach {PI}s OK»"),
        ("indirect", "the last group that uploaded early had to retract, so «GEO only after {PI} signs off»"))),
    ("pins", "What is the rule about updating packages in the lab environment?", (
        ("casual", "«don't update packages in the lab env», pin versions instead"),
        ("pt", "«não atualiza pacote nenhum» no env do lab"),
        ("conditional", "if something needs a newer package, «make a new env, don't upgrade»"))),
    ("throttle", "How should array jobs be throttled?", (
        ("indirect", "the wiki says %20 but people still complain, so «throttle arrays to %{A}»"),
        ("casual", "«arrays with %{A}» max"),
        ("pt", "array sempre com «%{A} no máximo»"))),
    ("bams", "Which BAM files must be kept?", (
        ("casual", "«keep the sorted BAMs», the unsorted ones can go"),
        ("pt", "«os BAM ordenados ficam», o resto pode apagar"),
        ("conditional", "if you clean up, «only the unsorted BAMs go»"))),
    ("colour", "What colour is used for the KO group in plots?", (
        ("casual", "KO in «{C}» and WT in grey, always"),
        ("pt", "KO sempre «{C}», WT cinza"),
        ("indirect", "{PI} likes the figures consistent across papers, so «KO is {C}» everywhere"))),
)
ADOPT = {"login": "What did the user keep from the SOP about the login node?",
         "scratch": "Which SOP rule about intermediate files did the user keep?",
         "versions": "What did the user adopt from the SOP about job scripts?",
         "ref": "Which SOP rule about reference genomes did the user keep?",
         "conda": "Which SOP rule about conda environments did the user adopt?",
         "raw": "What did the user adopt from the SOP about /data?"}
MIDPARA_BEFORE = ("Also, since you'll be running most of this on your own this week:", "Separate thing.",
                  "And a general point while I think of it.", "Outra coisa, importante:", "Noch was:",
                  "Something I should have said at the start.", "One more thing for the whole project.")
MIDPARA_AFTER = ("That one is non-negotiable.", "I know it's annoying.", "It saved us twice already.",
                 "Same for the exome side.", "Valeu.", "Just so we're on the same page.", "Ok, that's it.")

# (key, near miss?, what the user says first with «{old}», how she corrects it later with «{new}», the query)
CORRECTIONS = (
    ("build", True, ("align everything against «{old}», the index should already be there",
                     "reference for this project is «{old}», Ensembl annotation", "use «{old}» for the reruns too"),
     ("ah não, the reference is «{new}» not the {tail} one", "wait — «{new}», not {old}. we switched last year",
      "sorry, wrong build earlier: it's «{new}»"), "Which genome build is the project's reference?"),
    ("lib", True, ("«{old}» failed QC at the core, leave it out of the DE for now", "the core flagged «{old}», low RIN. exclude it",
                   "drop «{old}» from the sheet, it failed QC"),
     ("wrong sample — it's «{new}» that failed QC, not {tail}", "ugh I mixed up the numbers, «{new}» is the bad library",
      "desculpa: the failed one is «{new}»"), "Which library failed the core's QC and is left out?"),
    ("part", True, ("put the big STAR jobs on «{old}», it has the 1.5T nodes", "for the index build use «{old}»",
                    "the joint genotyping goes to «{old}»"),
     ("the other partition I mentioned — «{new}», not {old}", "hm no, «{new}». {old} is the one the Becker group reserved",
      "wrong partition, sorry: «{new}»"), "Which partition should the big-memory jobs go to?"),
    ("idx", True, ("the STAR index is at «{old}»", "point the config to «{old}»", "use the index in «{old}»"),
     ("pera, wrong index: «{new}», not the {tail} one", "sorry, the index is «{new}»", "the right index: «{new}». the other one is stale"),
     "Which STAR index path should the alignments use?"),
    ("date", True, ("the core wants the corrected sheet by «{old}»", "deadline for the new sheet is «{old}»"),
     ("sorry, misread the email: «{new}», not the {tail}th", "ah não, «{new}»! I had the wrong day",
      "the core deadline is «{new}» actually"), "What's the deadline for the corrected sample sheet?"),
    ("env", True, ("scanpy stuff runs in «{old}»", "use «{old}» for the python side"),
     ("wrong env — «{new}». {old} has the broken anndata", "desculpa, «{new}», not the {tail} one",
      "the python env is «{new}», I mixed them up"), "Which conda env should the scanpy work use?"),
    ("readlen", True, ("the run-2 libraries are «{old}»", "run 2 was sequenced «{old}», so adjust the index"),
     ("ah wait, run 2 is «{new}», the core switched kits", "no — «{new}» for run 2, I checked the report"),
     "What read length do the run-2 libraries have?"),
    ("contrast", True, ("main contrast for the paper is «{old}»", "{PI} wants «{old}» as figure 2"),
     ("hm no, the main one is «{new}», not {tail}", "correction from {PI}: «{new}»", "the paper contrast is «{new}» after all"),
     "Which contrast is the paper's main comparison?"),
    ("strand", True, ("the kit is «{old}», so set featureCounts accordingly", "libraries are «{old}», the usual"),
     ("ah não — it's «{new}», the core uses the dUTP kit", "wrong, «{new}». I checked the kit"),
     "Which strandedness do the libraries have?"),
    ("node", True, ("exclude «{old}» in the sbatch, it's flaky", "«{old}» keeps killing jobs, add it to --exclude"),
     ("the bad node is «{new}», not {tail}, sorry", "typo before, it's «{new}»"), "Which node should jobs exclude?"),
    ("libcount", True, ("run 2 has «{old}» in total", "the core confirmed «{old}» for run 2"),
     ("sorry, «{new}», I forgot the reruns", "it's «{new}» actually"), "How many libraries does run 2 have?"),
    ("adapter", False, ("trim for «{old}», the libraries are the standard kit", "adapters are «{old}»"),
     ("no wait, those libraries have «{new}», different kit", "ah não, «{new}», not {old}"), "Which adapters should be trimmed?"),
    ("contact", False, ("questions about the run go to «{old}» at the core", "«{old}» at the core is handling our run"),
     ("ah, not {old} — «{new}» handles our runs now", "it's «{new}» at the core, {old} left"),
     "Who at the core handles questions about the run?"),
)
CONTACTS = ("Frau Lindqvist", "Herr Okafor", "Dr. Baumgartner", "Frau Nowak", "Herr Demir", "Dr. Vasquez", "Frau Hoxha")

# (key, query, options: (value, short name)); a revised decision replaces its first choice with another option
DECISIONS = (
    ("aligner", "Which aligner route was chosen?", (("STAR in two-pass mode", "STAR"), ("salmon in selective-alignment mode", "salmon"),
                                                     ("HISAT2 with default settings", "HISAT2"), ("STAR with --quantMode GeneCounts", "STAR counts"))),
    ("threshold", "What cutoff defines a DE gene?", (("padj < 0.05", "0.05"), ("padj < 0.1", "0.1"), ("padj < 0.01", "0.01"))),
    ("norm", "Which transformation goes into the PCA and heatmaps?", (("vst(dds, blind = FALSE)", "vst"), ("rlog(dds, blind = FALSE)", "rlog"),
                                                                      ("TMM from edgeR plus voom", "TMM"))),
    ("shrink", "Which LFC shrinkage is used?", (("apeglm shrinkage on the LFCs", "apeglm"), ("ashr shrinkage on the LFCs", "ashr"),
                                                ("no LFC shrinkage at all", "shrinkage"))),
    ("batch", "How is the batch effect handled?", (("batch as a covariate in the design", "the covariate"),
                                                   ("ComBat-seq on the raw counts", "ComBat"), ("RUVg with k = 2", "RUV"))),
    ("caller", "Which variant caller was chosen?", (("HaplotypeCaller in GVCF mode", "HaplotypeCaller"),
                                                    ("bcftools mpileup + call -mv", "bcftools"), ("DeepVariant with the WES model", "DeepVariant"))),
    ("trim", "How are the reads trimmed?", (("fastp with --detect_adapter_for_pe only", "fastp"),
                                            ("Trim Galore with --nextseq 20", "Trim Galore"), ("no trimming at all", "trimming"))),
    ("counts", "Which tool makes the gene counts?", (("featureCounts -s 2 on the markdup BAMs", "featureCounts"),
                                                     ("htseq-count in union mode", "htseq"), ("salmon quant on the STAR transcriptome BAMs", "salmon"))),
    ("clusters", "Which clustering setting for the single-cell data?", (("leiden at resolution 0.6", "0.6"), ("leiden at resolution 1.2", "1.2"),
                                                                        ("louvain at resolution 0.8", "louvain"))),
    ("hvg", "How many highly variable genes?", (("top 2000 HVGs, seurat_v3 flavor", "2000"), ("top 4000 HVGs, cell_ranger flavor", "4000"))),
    ("filter", "Which low-count filter?", (("at least 10 counts in 3 samples", "10-in-3"), ("filterByExpr with default settings", "filterByExpr"),
                                           ("rowSums of at least 50 reads", "rowSums"))),
    ("padjust", "Which multiple-testing correction?", (("IHW instead of plain BH", "IHW"), ("plain Benjamini-Hochberg", "BH"))),
    ("enrich", "Which enrichment approach?", (("fgsea on the Wald statistic", "fgsea"),
                                              ("clusterProfiler ORA with expressed genes as universe", "ORA"))),
    ("pca", "Which genes go into the PCA?", (("PCA on the top 500 variable genes", "top-500"), ("PCA on all expressed genes", "all-genes"))),
    ("pipeline", "Which RNA-seq pipeline is used?", (("nf-core/rnaseq 3.14.0", "nf-core"), ("our old Snakemake workflow", "Snakemake"))),
    ("dedup", "How are duplicates handled?", (("UMI-tools dedup on the UMIs", "UMI-tools"), ("no deduplication for RNA-seq", "dedup"))),
    ("annot", "Which annotation flavor?", (("GENCODE basic annotation", "GENCODE"), ("Ensembl canonical transcripts only", "Ensembl"))),
)
DECIDE = ("ok let's go with «{v}»", "decision: «{v}»", "vamos de «{v}»", "fine, «{v}» then", "talked to {PI}: «{v}»",
          "I'd say «{v}» — less to explain to reviewer 2", "«{v}». final.", "after the meeting: «{v}»", "let's settle on «{v}»",
          "entschieden: «{v}»", "hmm. «{v}», I think that's the cleanest")
FIRST_TRY = ("let's try «{v}» first", "for now «{v}», we can revisit", "start with «{v}»", "vamos começar com «{v}»",
             "«{v}» for the first pass")
REVISE = ("scrap {old}, «{v}» it is", "ok forget {old}. «{v}»", "changed my mind: «{v}» instead of {old}",
          "{PI} says «{v}», so switch", "vamos trocar: «{v}»", "nah, {old} was a mistake — «{v}»")
STEPS = ("rerun the failed samples", "merge the counts", "redo the PCA", "rerun DESeq2 with the new design", "make the volcano plots",
         "check the MultiQC report", "regenerate the samplesheet", "update the nextflow.config", "run the GO enrichment",
         "call variants on the exomes", "annotate with VEP", "filter with bcftools", "write the methods paragraph",
         "send {PI} the figures", "export the DE tables to xlsx", "build the STAR index for the new annotation", "clean up scratch",
         "redo the heatmap with the top 50 genes", "compare against the old results", "check strandedness with infer_experiment",
         "rerun STAR for {s}", "look at {g} in all contrasts", "make the supplementary mapping table", "rerun the scanpy clustering",
         "roda de novo as amostras que falharam", "junta as contagens", "refaz o PCA", "manda as figuras pra {PI}")
CHAINS = ("first {a}, then {b}, then {c}", "{a}, then {b}, and after that {c}", "primeiro {a}, depois {b}, e aí {c}",
          "1) {a} 2) {b} 3) {c}", "{a}; once that's done {b}; {c} at the end", "{a} -> {b} -> {c}", "first {a}, then {b}",
          "{a}, then {b}", "erst {a}, dann {b}, dann {c}", "start with {a}, then {b}, finally {c}")
PLAN_WHEN = ("for today", "for the revision", "before lab meeting", "for this week", "after the core re-sent the data",
             "for the rest of the afternoon", "for tomorrow morning", "for the variant side", "before the conference",
             "for the next days", "for the response letter", "while I'm at the bench")
FILES = (("scripts/{nn}_deseq2_{tag}.R", "the DESeq2 analysis with the new design", "r"),
         ("scripts/{nn}_pca_{tag}.R", "the PCA figure", "r"),
         ("scripts/{nn}_go_{tag}.R", "the enrichment analysis", "r"),
         ("conf/{tag}_resources.config", "the cluster resource overrides", "nf"),
         ("samplesheets/samplesheet_{tag}.csv", "the rerun sample sheet", "csv"),
         ("slurm/star_{tag}.sbatch", "the STAR rerun batch script", "sbatch"),
         ("workflow/rules/{tag}.smk", "the new Snakemake rule", "smk"),
         ("envs/{tag}.yml", "the new conda environment spec", "yml"),
         ("scripts/sc_{tag}.py", "the single-cell QC script", "py"),
         ("config/params_{tag}.yaml", "the pipeline parameters for the rerun", "yaml"),
         ("docs/methods_{tag}.md", "the methods draft", "md"),
         ("conf/modules_{tag}.config", "the per-process module options", "edit"))
FILE_TAGS = ("batchcorr", "redo", "rev1", "run2b", "final", "strict", "fix", "b2", "noout", "paper", "v3", "revision", "apeglm",
             "lowmem", "june", "sheetfix")
FILE_ASKS = {"r": ("write a script for {p}", "can you put {p} in a proper script", "script pra {p} pls", "I need {p} as a script"),
             "py": ("write {p}", "make a python script for {p}", "script pro {p}"),
             "nf": ("put {p} in a separate config", "make {p} so we don't touch the main config"),
             "csv": ("make {p}", "build {p} from the QC list", "gera {p} pra mim"),
             "sbatch": ("write {p}", "I need {p}, the old one had the wrong paths"),
             "smk": ("add {p}", "write {p} for the workflow"), "yml": ("write {p}", "pin everything in {p}"),
             "yaml": ("write {p}", "put {p} in a yaml"), "md": ("draft {p}", "start {p}, short"),
             "edit": ("fix {p}", "change {p} for the new tools")}
WHO_SAYS_ID = {
    "geo": ("GEO reserved «{v}» for us, put it in the data availability statement", "the GEO accession is «{v}»",
            "our GEO number: «{v}» (private till publication)", "{PI} got the GEO accession, «{v}»"),
    "ticket": ("the core's ticket for the rerun is «{v}», mention it in anything we send them", "ticket number from the core: «{v}»",
               "o ticket do core é «{v}»"),
    "flowcell": ("the rerun is on flowcell «{v}»", "new fastqs come from flowcell «{v}», the old one had the bubble",
                 "fyi the reseq flowcell is «{v}»"),
    "zenodo": ("code goes to zenodo, DOI reserved: «{v}»", "the zenodo DOI for the scripts is «{v}»"),
    "ena": ("the exomes go to ENA under «{v}»", "ENA project for the exome data: «{v}»"),
    "manuscript": ("the manuscript number is «{v}», the reviewers refer to it", "our manuscript ID: «{v}»"),
    "bioproject": ("the BioProject for the human data is «{v}»", "use BioProject «{v}» for the SRA upload"),
    "arrayexpress": ("the old dataset is on ArrayExpress, «{v}», we compare against it", "download the public one, «{v}»"),
}
ID_QUERY = {"geo": "What GEO accession was reserved for the project?", "ticket": "What is the core facility's ticket number for the rerun?",
            "flowcell": "Which flowcell holds the resequenced data?", "zenodo": "What Zenodo DOI was reserved for the code?",
            "ena": "Which ENA project takes the exome data?", "manuscript": "What is the manuscript number?",
            "bioproject": "Which BioProject is used for the SRA upload?",
            "arrayexpress": "Which ArrayExpress dataset is the comparison?",
            "job": "What job ID did SLURM give the {x} submission?", "runname": "What was the Nextflow run name of the {x} relaunch?",
            "commit": "What commit hash did the {x} change get?", "topgene": "What is the Ensembl ID of the top gene in the {x} results?"}


def _unmark(template: str) -> tuple[str, str]:
    """(the sentence without its marks, the marked value)."""
    a, b = template.index("«"), template.index("»")
    return template[:a] + template[a + 1:b] + template[b + 1:], template[a + 1:b]


class _Facts(_Builder):
    """Draws what gets planted (values reserved up front) and plays the episodes that say it."""

    def plant(self, fact: dict[str, Any], index: int) -> None:
        fact["index"] = index
        self.planted_facts.append(fact)

    def unique(self, draw: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        for _ in range(400):
            fact = draw()
            if fact.get("late"):
                return fact
            values = [fact["value"]] + ([fact["stale"]] if fact.get("stale") else [])
            if self.reserve(*values):
                return fact
        raise RuntimeError("no free value")  # pragma: no cover - the pools are far larger than a session needs

    # --- drawing ---------------------------------------------------------------------------------------------------

    def iparams(self) -> dict[str, str]:
        r = self.rng
        return {"N": str(self.pick((56, 72, 80, 96, 110, 120, 160, 180))),
                "P": self.pick(("genoa_long", "amd_big", "epyc_fat", "skylake_hm", "cascade_l", "milan_xl")),
                "D": f"{self.scratch}/{self.proj}_{self.pick(('rev1', 'reanalysis', 'v2', 'paper', 'revision', 'final'))}",
                "T": str(self.pick((6, 10, 14, 20, 28))), "S": str(r.randint(1000, 99999)),
                "E": f"{self.proj}-r43-{self.pick(('lab', 'pinned', 'de2', 'v2'))}", "B": str(r.randint(10, 16)),
                "F": self.pick(("PDF", "TIFF", "EPS")), "R": self.pick(("300", "450", "600", "1200")),
                "TAG": f"{self.year % 100}{r.randint(1, 12):02d}{r.randint(1, 28):02d}", "H": self.pick(("6", "8", "12", "18", "36")),
                "M": f"{self.pick(('k.maier', 'j.richter', 't.schulze', 'b.hoffmann'))}@gcf.{self.city.lower().translate(ASCII)}-uni.de",
                "A": self.pick(("5", "8", "10", "15")), "PI": self.pi_first,
                "C": self.pick(("#D55E00", "#0072B2", "#CC79A7", "#E69F00", "#009E73", "#B2182B"))}

    def draw_instruction(self, style: str, used: set[str]) -> dict[str, Any]:
        if style == "adopt":
            key = self.pick([k for k in ADOPT if k not in used])
            used.add(key)
            text, value = _unmark(self.SOP_ADOPT[key])
            return {"kind": "instruction", "value": value, "query": ADOPT[key], "style": style, "key": key, "sentence": text}
        want = style if style != "midpara" else self.pick(("indirect", "casual", "conditional"))
        pool = [t for t in INSTRUCTIONS if t[0] not in used and any(st == want for st, _ in t[2])]
        key, query, templates = self.pick(pool)
        used.add(key)
        template = self.pick([tp for st, tp in templates if st == want])
        text, value = _unmark(_fill(template, **self.iparams()))
        return {"kind": "instruction", "value": value, "query": query, "style": style, "key": key, "sentence": text}

    def cparams(self, key: str) -> tuple[str, str, str]:
        """(old, new, what the user may call the old one)"""
        r = self.rng
        if key == "build":
            old, new = ("GRCm38", "GRCm39") if self.mouse else ("GRCh37", "GRCh38")
            return old, new, old[-2:]
        if key == "lib":
            a, b = r.sample("123456789", 2)
            run = r.randint(4100, 4999)
            return f"LIB{run}_{a}{b}", f"LIB{run}_{b}{a}", f"{a}{b}"
        if key == "part":
            base = self.pick(("bigmem", "hugemem", "fatnode", "xlmem", "largemem"))
            x, y = r.sample("1234", 2)
            return f"{base}{x}", f"{base}{y}", f"{base}{x}"
        if key == "idx":
            org, ver = ("mm" if self.mouse else "hs"), self.pick(("2.7.10b", "2.7.11a"))
            a, b = self.pick((("99", "149"), ("149", "99"), ("100", "150"), ("150", "100")))
            return f"/ref/{org}/star_{ver}_oh{a}", f"/ref/{org}/star_{ver}_oh{b}", f"oh{a}"
        if key == "date":
            d, m = r.randint(10, 20), r.randint(1, 12)
            d2 = d + self.pick((1, 2, 3, 7))
            return f"{d:02d}.{m:02d}.{self.year}", f"{d2:02d}.{m:02d}.{self.year}", str(d)
        if key == "env":
            a, b = r.sample(("10", "11", "12"), 2)
            return f"{self.proj}-py3{a}", f"{self.proj}-py3{b}", f"py3{a}"
        if key == "readlen":
            old, new = r.sample(("2x150 bp", "2x100 bp", "2x75 bp", "1x75 bp"), 2)
            return old, new, old
        if key == "contrast":
            (l1, l2) = self.levels
            if self.mouse:
                times = sorted({s.split("_")[1] for s in self.samples} - {"0h"}, key=lambda t: int(t[:-1]))
                t1, t2 = r.sample(times, 2)
                return f"{l1} vs {l2} at {t1}", f"{l1} vs {l2} at {t2}", t1
            d1, d2 = r.sample(("3", "7", "14"), 2)
            return f"{l1} vs {l2} at day {d1}", f"{l1} vs {l2} at day {d2}", f"day {d1}"
        if key == "strand":
            old, new = r.sample(("forward stranded", "reverse stranded"), 2)
            return old, new, old.split()[0]
        if key == "node":
            a = r.randint(600, 899)
            b = int(str(a)[0] + str(a)[2] + str(a)[1])
            if a == b:
                b = a + 1
            return f"n0{a}", f"n0{b}", f"n0{a}"
        if key == "libcount":
            n = r.randint(20, 30) * 2
            return f"{n} libraries", f"{n + self.pick((2, -2, 4))} libraries", str(n)
        if key == "adapter":
            old, new = r.sample(("TruSeq adapters", "Nextera adapters"), 2)
            return old, new, old.split()[0]
        old, new = r.sample(CONTACTS, 2)
        return old, new, old

    def draw_correction(self, key: str) -> dict[str, Any]:
        _k, _near, says, fixes, query = next(c for c in CORRECTIONS if c[0] == key)
        old, new, tail = self.cparams(key)
        said = _fill(self.pick(says), old=old, PI=self.pi_first)
        fix = _fill(self.pick(fixes), new=new, old=old, tail=tail, PI=self.pi_first)
        stale_text, _ = _unmark(said)
        fix_text, _ = _unmark(fix)
        return {"kind": "correction", "value": new, "stale": old, "query": query, "said": stale_text, "fix": fix_text, "key": key}

    def draw_decision(self, key: str, revised: bool) -> dict[str, Any]:
        _k, query, options = next(d for d in DECISIONS if d[0] == key)
        (v, _short), (old, old_short) = self.rng.sample(options, 2)
        if revised and (old in v or v in old):
            revised = False
        fact = {"kind": "decision", "value": v, "query": query, "key": key}
        if revised:
            first, _ = _unmark(_fill(self.pick(FIRST_TRY), v=old))
            again, _ = _unmark(_fill(self.pick(REVISE + (("back to «{v}»",) if key == "threshold" else ())), v=v, old=old_short,
                                     PI=self.pi_first))
            fact.update(stale=old, said=first, sentence=again)
        else:
            fact["sentence"], _ = _unmark(_fill(self.pick(DECIDE), v=v, PI=self.pi_first))
        return fact

    def draw_plan(self, when: str) -> dict[str, Any]:
        chain = self.pick(CHAINS)
        steps = [self.words(x) for x in self.rng.sample(STEPS, 3)]
        value = _fill(chain, a=steps[0], b=steps[1], c=steps[2])
        return {"kind": "plan", "value": value, "query": f"What order of work did the user lay out {when}?", "when": when}

    def draw_file(self) -> dict[str, Any]:
        path, purpose, how = self.pick(FILES)
        value = _fill(path, nn=f"{self.rng.randint(3, 19):02d}", tag=self.pick(FILE_TAGS))
        return {"kind": "file", "value": value, "query": f"Which file did the agent write for {purpose}?", "how": how,
                "purpose": purpose}

    def draw_identifier(self, where: str, x: str = "") -> dict[str, Any]:
        r = self.rng
        if where == "user":
            key = self.pick([k for k in WHO_SAYS_ID if ("user", k) not in self.id_used])
            self.id_used.add(("user", key))
            v = {"geo": f"GSE{r.randint(230000, 289999)}", "ticket": f"GCF-{self.year % 100}-{r.randint(1000, 9999)}",
                 "flowcell": f"H{self._letters(4)}DSX{r.randint(2, 9)}", "zenodo": f"10.5281/zenodo.{r.randint(10**7, 2 * 10**7)}",
                 "ena": f"PRJEB{r.randint(60000, 89999)}", "manuscript": f"HEP-{self.year % 100}-{r.randint(1000, 3999)}",
                 "bioproject": f"PRJNA{r.randint(1000000, 1199999)}", "arrayexpress": f"E-MTAB-{r.randint(10000, 14999)}"}[key]
            text, value = _unmark(_fill(self.pick(WHO_SAYS_ID[key]), v=v, PI=self.pi_first))
            if value in self.flowcells:
                value = value[:-1] + "1"
                text = text.replace(v, value)
            return {"kind": "identifier", "value": value, "query": ID_QUERY[key], "where": "user", "sentence": text, "key": key}
        combos = [(k, x) for k, xs in (("job", ("STAR rerun", "index build", "joint genotyping", "salmon index", "MultiQC")),
                                       ("runname", ("run-2", "strandedness-fix", "new-annotation", "full")),
                                       ("commit", ("batch-covariate", "strandedness", "samplesheet", "memory")),
                                       ("topgene", (f"{self.levels[0]} vs {self.levels[1]}",)))
                  for x in xs if (k, x) not in self.id_used]
        key, x = self.pick(combos)
        self.id_used.add((key, x))
        value = {"job": "", "runname": self.nf_runname(), "commit": self.hex(7),
                 "topgene": f"{self.ens}{r.randint(300000, 999999):011d}"}[key]
        return {"kind": "identifier", "value": value, "query": ID_QUERY[key].replace("{x}", x), "where": "tool", "key": key, "x": x,
                "late": key == "job"}

    def draw_error(self, key: str) -> dict[str, Any]:
        """A failing run: the tool, its call, the planted line (the value) and how a clean rerun looks."""
        r, s, v = self.rng, self.sample(), self.pick(self.vsamples)
        fact: dict[str, Any] = {"kind": "error", "key": key, "sample": s}
        if key == "nf":
            proc = self.pick(("STAR_ALIGN", "SALMON_QUANT", "FEATURECOUNTS", "SAMTOOLS_SORT", "PICARD_MARKDUPLICATES"))
            fact.update(value=f"ERROR ~ Error executing process > '{LONG_PROC[proc]} ({s})'", proc=proc,
                        query=f"Which Nextflow ERROR line did the run stop on when {proc} failed for {s}?")
        elif key == "smk":
            rule = self.pick(RULES[:7])
            fact.update(value=f"MissingOutputException in rule {rule} in file {self.home}/{self.proj}_exome/workflow/Snakefile, "
                              f"line {r.randint(40, 400)}:", rule=rule,
                        query=f"What exception did Snakemake report for the {rule} rule?")
        elif key == "star_sort":
            fact.update(value=f"SOLUTION: re-run STAR with at least --limitBAMsortRAM {r.randint(20, 70) * 10**9 + r.randint(0, 10**9)}",
                        query=f"What BAM-sorting RAM did STAR say it needs for {s}?")
        elif key == "r_obj":
            obj = self.pick((f"res_{self.levels[0].lower()}_{self.pick(('t1', 't2', 'late', 'early'))}", "dds_batch",
                             f"vsd_{self.pick(('b2', 'all', 'noout'))}", f"resLFC_{self.pick(('main', 'int', 'b'))}"))
            fact.update(value=f"Error: object '{obj}' not found", query="Which R object was missing when the script stopped?")
        elif key == "r_pkg":
            pkg = self.pick(("IHW", "fgsea", "ashr", "sva", "RUVSeq", "EnhancedVolcano", "ComplexHeatmap", "tximport"))
            fact.update(value=f"Error in library({pkg}) : there is no package called ‘{pkg}’",
                        query="Which R package was missing from the environment?")
        elif key == "r_col":
            col = self.pick(("rin_group", "library_batch", "sex_inferred", "sequencing_run", "extraction_date", "donor_age"))
            fact.update(value=f"Error in `[.data.frame`(coldata, , \"{col}\") : undefined columns selected",
                        query="Which column did the R script fail to find in the sample table?")
        elif key == "py_key":
            col = self.pick(("condition_v2", "batch_run", "sample_alias", "n_counts_raw", "leiden_r1", "doublet_score"))
            fact.update(value=f"KeyError: '{col}'", query="Which key was missing when the Python script crashed?")
        elif key == "py_len":
            a = r.randint(18, 60)
            fact.update(value=f"ValueError: Length mismatch: Expected axis has {a} elements, new values have {a + self.pick((1, 2, -1))} elements",
                        query="What length mismatch did pandas complain about?")
        elif key == "gatk":
            rn = f"A00{r.randint(100, 999)}:{r.randint(100, 999)}:{self.pick(self.flowcells)}:{r.randint(1, 4)}:{r.randint(1101, 2678)}:{r.randint(1000, 32000)}:{r.randint(1000, 37000)}"
            fact.update(value=f"htsjdk.samtools.SAMFormatException: SAM validation error: ERROR: Record {r.randint(10**5, 9 * 10**7)}, "
                              f"Read name {rn}, Mate unmapped flag should not be set for unpaired read.", vs=v,
                        query=f"What validation error stopped GATK on {v}?")
        elif key == "samtools":
            path = f"results/star/{s}/{s}.{self.pick(('Aligned.sortedByCoord.out', 'markdup.sorted', 'sorted'))}.bam"
            fact.update(value=f"[E::hts_open_format] Failed to open file \"{path}\" : No such file or directory", path=path,
                        query=f"What did samtools say when it could not open {s}'s BAM?")
        elif key == "pip":
            pkg, ver = self.pick((("scanpy", f"1.{r.randint(11, 14)}.{r.randint(0, 9)}"), ("anndata", f"0.{r.randint(12, 15)}.{r.randint(0, 9)}"),
                                  ("leidenalg", f"0.{r.randint(11, 13)}.{r.randint(0, 9)}")))
            fact.update(value=f"ERROR: No matching distribution found for {pkg}=={ver}", pkg=pkg, ver=ver,
                        query=f"Which pinned {pkg} version could pip not install?")
        else:  # fastqc
            fact.update(value=f"uk.ac.babraham.FastQC.Sequence.SequenceFormatException: ID line didn't start with '@' at line "
                              f"{r.randint(10**6, 9 * 10**8)}", query=f"What FastQC exception did the run-2 file of {s} raise?")
        return fact

    def draw_finding(self, key: str) -> dict[str, Any]:
        r, s = self.rng, self.sample()
        fact: dict[str, Any] = {"kind": "finding", "key": key, "sample": s}
        if key == "star":
            fact.update(value=f"{r.uniform(31, 66):.2f}%", query=f"What share of {s}'s reads mapped uniquely in its STAR log?")
        elif key == "seff":
            fact.update(value=f"{r.uniform(40, 200):.2f} GB", query="How much memory did seff report for the job that came closest to its limit?")
        elif key == "maxrss":
            fact.update(value=f"{r.randint(30_000_000, 190_000_000)}K", job=f"star_{s}",
                        query=f"What MaxRSS did sacct show for the star_{s} job?")
        elif key == "de":
            up, down = r.randint(150, 2500), r.randint(150, 2500)
            fact.update(value=f"{up + down} ({up} up / {down} down)",
                        query=f"How many genes came out differentially expressed for {self.levels[0]} vs {self.levels[1]}?")
        elif key == "batch":
            fact.update(value=f"R2 = 0.{r.randint(6100, 9799)}", query="How much of PC1's variance did sequencing batch explain?")
        elif key == "pp":
            fact.update(value=f"{r.uniform(52, 79):.2f}%", query=f"What properly-paired rate did samtools flagstat give for {s}?")
        elif key == "dup":
            fact.update(value=f"{r.uniform(55, 89):.4f}%", query=f"What duplication rate did fastp report for {s}?")
        elif key == "fc":
            n = r.randint(4_000_000, 15_000_000)
            fact.update(value=f"{n} ({r.uniform(20, 45):.1f}%)", query=f"How many alignments did featureCounts assign for {s}?")
        elif key == "shape":
            fact.update(value=f"{r.randint(2000, 60000)} × {r.randint(15000, 36000)}",
                        query="What were the dimensions of the AnnData object after filtering?")
        else:  # cells
            fact.update(value=f"filtered out {r.randint(300, 9000)} cells",
                        query="How many cells did the minimum-genes filter remove from the single-cell data?")
        return fact

    # --- episodes: the turns that say what gets planted -----------------------------------------------------------

    def steps_for(self, most: int) -> int:
        """How many tool steps a planted turn does around its fact (fewer in short sessions)."""
        return self.rng.randint(0, most) if self.n >= 200 else 0

    def with_request(self, sentence: str, value: str) -> tuple[str, str | None]:
        """The user's message around ``sentence`` (which holds ``value``) and the topic of what she also asks."""
        form = self.rng.random()
        topic = self.pick(DOABLE) if form < 0.55 and self.n >= 200 else None
        ask = self.ask(topic) if topic else ""
        if not topic:
            text = self.pick(OPENERS) + sentence + self.pick(TAILS)
        elif form < 0.3:
            stop = "" if ask[-1] in ".?!)…🙏" else "."
            text = f"{ask}{stop} {self.pick(('also', 'and', 'btw', 'ah e', 'oh and'))} {sentence}"
        else:
            text = f"{sentence.rstrip('.')}. {ask[0].upper() + ask[1:]}"
        typo = _typo(self.rng, text)
        return (typo if value in typo else text), topic

    def user_fact_turn(self, fact: dict[str, Any], sentence: str, value: str, ack: tuple[str, ...], stale: bool = False) -> int:
        """A user turn that says ``value``: her message, perhaps a few steps for her request, the agent's answer."""
        text, topic = self.with_request(sentence, value)
        i = self.user(text)
        if stale:
            fact["stale_index"] = i
        else:
            self.plant(fact, i)
        if topic:
            self.run_steps(2 * max(1, self.steps_for(2)), self.specs(topic))
            tail = " " + self.answer(topic)
        else:
            tail = ""
        self.say(_fill(self.pick(ack), v=value) + tail)
        return i

    def ep_instruction(self, f: dict[str, Any]) -> None:
        if f["style"] == "adopt":
            self.ep_paste("sop", adopt=f)
            return
        ack = ("Noted.", "Got it — I'll stick to that.", "Understood, from now on.", "OK, noted for everything that follows.",
               "Noted: {v}.", "Entendido.", "Understood — {v}.", "Will do.")
        if f["style"] != "midpara":
            self.user_fact_turn(f, f["sentence"], f["value"], ack)
            return
        topic = self.next_topic()
        sentence = f["sentence"]
        p1 = self.ask(topic)
        p1 = p1[0].upper() + p1[1:] + self.pick((".", "?", ". No rush.", ". Then tell me what you see."))
        if not sentence.startswith(f["value"]):
            sentence = sentence[0].upper() + sentence[1:]
        p2 = f"{self.pick(MIDPARA_BEFORE)} {sentence}. {self.pick(MIDPARA_AFTER)}"
        paras = [p1, p2] + ([self.pick(("Anyway, thanks!", "Obrigada!", "Danke dir.", "That's all for now."))]
                            if self.rng.random() < 0.5 else [])
        i = self.user("\n\n".join(paras))
        self.plant(f, i)
        self.run_steps(2 * self.steps_for(2), self.specs(topic))
        self.say(self.answer(topic) + " " + self.pick(("And noted on the rule.", "Noted on the second point, too.",
                                                        "I'll keep to what you said about that.")))

    def ep_correction_said(self, f: dict[str, Any]) -> None:
        self.user_fact_turn(f, f["said"], f["stale"], ("OK.", "Noted.", "Got it, {v}.", "Alright, using {v}."), stale=True)

    def ep_correction(self, f: dict[str, Any]) -> None:
        self.user_fact_turn(f, f["fix"], f["value"], ("Thanks for catching that — {v} from here on.", "Noted, {v}.",
                                                      "OK, switching to {v}.", "Got it. I'll use the corrected one.",
                                                      "Understood; nothing ran with the wrong one yet."))

    def ep_decision_first(self, f: dict[str, Any]) -> None:
        self.user_fact_turn(f, f["said"], f["stale"], ("OK, {v} for now.", "Sounds good as a first pass.", "Alright."), stale=True)

    def ep_decision(self, f: dict[str, Any]) -> None:
        self.user_fact_turn(f, f["sentence"], f["value"], ("OK, {v}.", "Makes sense. I'll set it up that way.", "Alright — {v}.",
                                                           "Good, that's also what the reviewers will expect.", "Done deal."))

    def ep_plan(self, f: dict[str, Any]) -> None:
        frame = self.pick(("ok plan {w}: {v}.", "{w}: {v}. start with the first pls", "so, {w} — {v}. ok?",
                           "beleza, {w}: {v}", "plan {w}, roughly: {v}. questions?", "{w} I'd do it like this: {v}"))
        text = _fill(frame, w=f["when"], v=f["value"])
        i = self.user(text[0].upper() + text[1:] if self.rng.random() < 0.5 else text)
        self.plant(f, i)
        self.run_steps(2 * self.steps_for(2), self.specs(self.pick(("queue", "qc", "nfrun", "deseq"))))
        self.say(self.pick(("OK, starting with the first step.", "Sounds good — I've started on step one.",
                            "Alright, first part is under way.", "OK. Step one first, I'll report before moving on.",
                            "Makes sense as an order. I'm on the first item.", "Fine by me; the first step is running.",
                            "OK — one thing at a time, I'll ping you after the first.")) + self.words(self.pick(("",) * 4 + DETAIL)))

    def ep_identifier(self, f: dict[str, Any]) -> None:
        if f["where"] == "user":
            self.user_fact_turn(f, f["sentence"], f["value"], ("Noted: {v}.", "OK, I'll use {v} where it's needed.",
                                                               "Got it.", "Saved that, {v}."))
            return
        key, x = f["key"], f["x"]
        if key == "job":
            self.user(self.pick(OPENERS) + self.pick((f"submit the {x}", f"send the {x} off", f"sbatch the {x} pls",
                                                      f"manda o {x} pro cluster")))
            while True:
                f["value"] = str(self.new_job())
                if self.reserve(f["value"]):
                    break
            i = self.step("slurm", {"command": f"sbatch slurm/jobs/{x.replace(' ', '_').lower()}.sbatch"},
                          f"Submitted batch job {f['value']}", self.preface("slurm"))
            answer = self.pick((f"Submitted, job {f['value']}.", "It's in the queue.", f"Queued as {f['value']}; pending on priority."))
        elif key == "runname":
            self.user(self.pick(OPENERS) + self.pick((f"relaunch for the {x} thing", f"start the {x} run",
                                                      f"roda o pipeline ({x})", f"kick off the {x} relaunch")))
            i = self.step("shell", {"command": f"cd {self.pdir} && nextflow run nf-core/rnaseq -r 3.14.0 -profile singularity,"
                                               f"{self.cluster} -params-file params.yaml -resume -ansi-log false"},
                          lambda: self.out_nf_console(run_name=f["value"], done=False), self.preface("shell"))
            answer = self.pick((f"Running as {f['value']}.", "It's running; cached tasks are being reused.",
                                f"Launched ({f['value']}), I'll check the log in a while."))
        elif key == "commit":
            self.user(self.pick(OPENERS) + self.pick((f"commit the {x} change", f"commit that ({x})", "commit pls, with a sane message")))
            msg = {"batch-covariate": "add batch as covariate", "strandedness": "featureCounts -s 2 (reverse)",
                   "samplesheet": "samplesheet run2 names per core rules", "memory": "raise STAR memory"}[x]
            i = self.step("shell", {"command": f"git add -A && git commit -m \"{msg}\""},
                          f"[main {f['value']}] {msg}\n {self.rng.randint(1, 5)} files changed, {self.rng.randint(2, 80)} insertions(+), "
                          f"{self.rng.randint(0, 30)} deletions(-)", self.preface("shell"))
            answer = self.pick((f"Committed as {f['value']}.", "Committed; not pushed.", f"Done ({f['value']}), nothing pushed."))
        else:
            self.user(self.pick(OPENERS) + self.pick(("what's the top hit?", "top gene in the main contrast?",
                                                      "show me the strongest DE gene", "qual o gene top?")))
            i = self.step("run_r", {"code": "res[order(res$padj), ][1:25, ]"},
                          lambda: self.out_r(extra=self.r_res_head(25, top=f["value"]), where=0), self.preface("run_r"))
            answer = self.pick((f"The top hit is {f['value']}.", "Top of the table, first row — very strong effect.",
                                f"{f['value']}, by a wide margin."))
        self.plant(f, i)
        self.say(answer)

    def file_content(self, how: str, path: str) -> dict[str, Any]:
        if how == "edit":
            return {"path": path, "old": "process {\n}", "new": "process {\n    withName: 'STAR_ALIGN' { ext.args = '--outSAMstrandField "
                    "intronMotif --outFilterMultimapNmax 20' }\n    withName: 'FEATURECOUNTS' { ext.args = '-B -C -s 2' }\n}"}
        make = {"r": self.file_rscript, "py": self.file_pyscript, "nf": self.file_nfconfig, "csv": self.file_samplesheet,
                "sbatch": self.file_sbatch, "smk": self.file_snakefile, "yml": self.file_envyml}.get(how)
        if make:
            return {"path": path, "content": make()}
        if how == "yaml":
            return {"path": path, "content": "\n".join([f"input: samplesheets/samplesheet_run{self.rng.randint(1, 2)}.csv",
                                                        f"outdir: {self.pdir}/results", "aligner: star_salmon",
                                                        "fasta: /ref/genome/primary_assembly.fa", "gtf: /ref/genome/annotation.gtf",
                                                        "extra_star_align_args: '--outSAMstrandField intronMotif'",
                                                        f"skip_biotype_qc: {self.pick(('true', 'false'))}", "save_align_intermeds: false"])}
        return {"path": path, "content": f"## Methods (draft)\n\n{self.out_paper().split('Methods (excerpt)')[-1].strip()}\n"}

    def ep_file(self, f: dict[str, Any]) -> None:
        self.user(_typo(self.rng, self.pick(OPENERS) + _fill(self.pick(FILE_ASKS[f["how"]]), p=f["purpose"]) + self.pick(TAILS)))
        tool = "edit_file" if f["how"] == "edit" else "write_file"
        args = self.file_content(f["how"], f["value"])
        done = (f"Edited {f['value']}: 1 replacement." if tool == "edit_file" else
                f"Wrote {len(args['content'].encode())} bytes to {f['value']}")
        i = self.step(tool, args, done, self.preface(tool))
        self.plant(f, i - 1)  # the assistant message whose one call writes it
        if self.n >= 150 and self.rng.random() < 0.6:
            run = {"r": ("run_r", {"script": f["value"]}, self.out_r), "py": ("run_python", {"script": f["value"]}, self.out_py),
                   "sbatch": ("slurm", {"command": f"sbatch {f['value']}"}, self.out_sbatch),
                   "csv": ("shell", {"command": f"head -n 6 {f['value']} && wc -l {f['value']}"},
                           lambda: "\n".join(self.file_samplesheet().splitlines()[:6]) + f"\n{len(self.samples) + 1} {f['value']}"),
                   "nf": ("shell", {"command": f"nextflow config -c {f['value']} -profile {self.cluster} | head -n 80"},
                          self.file_nfconfig)}.get(f["how"])
            if run:
                self.step(*run, self.preface(run[0]))
        self.say(self.pick((f"Written: {f['value']}.", "Done — it's in place and I checked it once.",
                            f"Created {f['value']}; nothing else touched.", "Done. Have a look when you get a chance.",
                            "It's written; paths are relative to the project dir.", "Done, and it follows the existing layout.",
                            f"{f['value']} is there now.")) + self.words(self.pick(("",) * 4 + DETAIL)))

    def err_call(self, f: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        key, s = f["key"], f["sample"]
        if key == "nf":
            return "nf_log", {"path": f"{self.pdir}/nohup.out", "tail": 400}
        if key == "smk":
            return "nf_log", {"path": f"{self.scratch}/{self.proj}_exome/.snakemake/log/latest.snakemake.log"}
        if key == "star_sort":
            return "shell", {"command": f"tail -n 40 logs/star_{s}.out"}
        if key.startswith("r_"):
            return "run_r", {"script": "scripts/deseq2.R"}
        if key.startswith("py_"):
            return "run_python", {"script": "scripts/merge_counts.py"}
        if key == "gatk":
            return "shell", {"command": f"cat logs/haplotype_caller/{f['vs']}.log"}
        if key == "samtools":
            return "shell", {"command": f"samtools flagstat -@ 4 {f['path']}"}
        if key == "pip":
            return "shell", {"command": f"pip install {f['pkg']}=={f['ver']}"}
        return "shell", {"command": f"fastqc -t 4 -o qc/fastqc_run2 /data/raw/run2/{s}_R1_001.fastq.gz"}

    def err_out(self, f: dict[str, Any], clean: bool) -> str:
        key, s, v = f["key"], f["sample"], f["value"]
        if key == "nf":
            return self.out_nf_console(done=True) if clean else self.out_nf_console(error=(f["proc"], s, self.pick((137, 140, 1))), head_line=v)
        if key == "smk":
            return self.out_smk() if clean else self.out_smk(f["rule"], head_line=v)
        if key == "star_sort":
            return self.out_joblog(s) if clean else self.out_joblog(s, v, "sort")
        if key.startswith("r_"):
            return self.out_r() if clean else self.out_r(extra=[v, "Execution halted"])
        if key.startswith("py_"):
            return self.out_py() if clean else self.out_py(extra=self.py_traceback(v, "scripts/merge_counts.py"))
        if key == "gatk":
            return self.out_gatk(v=f["vs"]) if clean else self.out_gatk(exception=v, v=f["vs"])
        if key == "samtools":
            return self.flagstat() if clean else f"{v}\nsamtools flagstat: Cannot open input file \"{f['path']}\": No such file or directory"
        if key == "pip":
            pkg = f["pkg"]
            if clean:
                return (f"Collecting {pkg}\n  Downloading {pkg}-{self.rng.randint(1, 9)}.{self.rng.randint(0, 9)}.0-py3-none-any.whl "
                        f"({self.rng.uniform(0.5, 9):.1f} MB)\nInstalling collected packages: {pkg}\nSuccessfully installed {pkg}")
            return ("Defaulting to user installation because normal site-packages is not writeable\n"
                    f"ERROR: Could not find a version that satisfies the requirement {pkg}=={f['ver']} (from versions: "
                    + ", ".join(f"{f['ver'].split('.')[0]}.{i}.{j}" for i in range(4, int(f['ver'].split('.')[1]) - 1)
                                for j in range(0, 3)) + f")\n{v}")
        head = [f"Started analysis of {s}_R1_001.fastq.gz"] + [f"Approx {p}% complete for {s}_R1_001.fastq.gz" for p in range(5, 100, 5)]
        if clean:
            return "\n".join(head + [f"Analysis complete for {s}_R1_001.fastq.gz"])
        cut = self.rng.randint(3, 15)
        return "\n".join(head[:cut] + [f"Failed to process file {s}_R1_001.fastq.gz", v,
                                       "\tat uk.ac.babraham.FastQC.Sequence.FastQFile.readNext(FastQFile.java:179)",
                                       "\tat uk.ac.babraham.FastQC.Sequence.FastQFile.next(FastQFile.java:125)",
                                       "\tat uk.ac.babraham.FastQC.Analysis.AnalysisRunner.run(AnalysisRunner.java:77)",
                                       "\tat java.base/java.lang.Thread.run(Thread.java:829)"])

    def err_fix(self, f: dict[str, Any]) -> tuple[str, dict[str, Any], str] | None:
        key = f["key"]
        edits = {"nf": (f"conf/{self.cluster}.config", "memory = { 40.GB * task.attempt }", "memory = { 72.GB * task.attempt }"),
                 "smk": ("workflow/Snakefile", "    threads: 8", "    threads: 8\n    retries: 1"),
                 "star_sort": ("slurm/star_array.sbatch", "--outSAMtype BAM SortedByCoordinate",
                               "--outSAMtype BAM SortedByCoordinate --limitBAMsortRAM 60000000000"),
                 "r_obj": ("scripts/deseq2.R", "summary(res)", "res <- results(dds, alpha = 0.05)\nsummary(res)"),
                 "r_col": ("scripts/deseq2.R", "coldata <- read.csv(", "coldata <- read.csv(  # fixed column names\n"),
                 "py_key": ("scripts/merge_counts.py", "df = df[samples]", "df = df.reindex(columns=samples)"),
                 "py_len": ("scripts/merge_counts.py", "df.columns = names", "df.columns = names[:df.shape[1]]"),
                 "gatk": ("workflow/Snakefile", "-ERC GVCF", "-ERC GVCF --read-validation-stringency LENIENT")}
        if key in edits:
            path, old, new = edits[key]
            return "edit_file", {"path": path, "old": old, "new": new}, f"Edited {path}: 1 replacement."
        if key == "r_pkg":
            return "shell", {"command": "mamba install -y -n rnaseq-de -c bioconda -c conda-forge " + f["value"].split("‘")[1].rstrip("’")}, \
                "Transaction finished\n\nTo activate this environment, use:\n\n    micromamba activate rnaseq-de"
        return None

    def rerun(self, f: dict[str, Any]) -> int:
        tool, args = self.err_call(f)
        if f["key"] == "pip":
            args = {"command": f"pip install {f['pkg']}"}
        elif f["key"] == "samtools":
            args = {"command": f"samtools flagstat -@ 4 results/star/{f['sample']}/{f['sample']}.Aligned.sortedByCoord.out.bam"}
        elif f["key"] == "star_sort":
            self.step("slurm", {"command": "sbatch slurm/star_array.sbatch"}, self.out_sbatch, self.preface("slurm"))
        i = self.step(tool, args, lambda: self.err_out(f, clean=True), self.pick(("Rerunning.", "Trying again.", None)))
        f["resolved"] = i
        return i

    def ep_error(self, f: dict[str, Any]) -> None:
        ask = {"nf": ("why did the pipeline stop?", "check the nohup of the nextflow run", "o pipeline parou, vê o log"),
               "smk": ("snakemake died, look at the log", "why did the exome workflow stop?"),
               "star_sort": ("{s} failed again, check the log", "look at the STAR log of {s}", "o STAR do {s} morreu?"),
               "r_obj": ("run the DESeq2 script", "rerun scripts/deseq2.R pls"), "r_pkg": ("run the deseq script with the new stuff",),
               "r_col": ("run deseq2.R with the new coldata",), "py_key": ("run the merge script", "roda o merge_counts"),
               "py_len": ("merge the counts again pls",), "gatk": ("check the GATK log for {v}", "why is {v} still not called?"),
               "samtools": ("flagstat {s} pls", "quick flagstat for {s}"), "pip": ("install the pinned scanpy stuff", "pip install what we pinned"),
               "fastqc": ("fastqc on the new run-2 file of {s}", "QC the re-sent fastq of {s}")}[f["key"]]
        self.user(_typo(self.rng, self.pick(OPENERS) + _fill(self.pick(ask), s=f["sample"], v=f.get("vs", "")) + self.pick(TAILS)))
        tool, args = self.err_call(f)
        i = self.step(tool, args, lambda: self.err_out(f, clean=False), self.preface(tool))
        self.plant(f, i)
        if f.get("now"):
            fix = self.err_fix(f)
            if fix:
                self.step(*fix[:2], fix[2], self.pick(("That's fixable.", "I see the problem.", None)))
            self.rerun(f)
            self.say(self.pick(("Fixed and rerun — it goes through now.", "That was it; the rerun is clean.",
                                "After the change it runs through. The error line is gone.")))
            return
        self.say(self.pick(("It fails on this line: " + f["value"], "It stops there — see the last lines of the output.",
                            "That's the failure. I need your call before I change anything.",
                            "The error is near the end of the output. How do you want to handle it?",
                            "Same failure as the output shows; I haven't changed anything yet.")))

    def ep_resolve(self, f: dict[str, Any]) -> None:
        self.user(_typo(self.rng, self.pick(OPENERS) + self.pick(("ok I fixed it on my side, try again", "try that again now",
                                                                   "roda de novo, arrumei o env", "again pls, should work now",
                                                                   "nochmal bitte", "retry the one that failed earlier"))))
        self.rerun(f)
        self.say(self.pick(("Runs through now.", "Clean this time.", "Works now — the earlier error is gone.", "OK, that one's fine now.")))

    def ep_finding(self, f: dict[str, Any]) -> None:
        key, s, v = f["key"], f["sample"], f["value"]
        ask = {"star": "check the STAR logs", "seff": "how much mem did the last STAR jobs use?", "maxrss": "sacct for the STAR jobs",
               "de": "how many DE genes now?", "batch": "is there a batch effect in the PCA?", "pp": "flagstat for everything",
               "dup": "look at the fastp logs", "fc": "check the featureCounts assignment", "shape": "how big is the sc object now?",
               "cells": "run the sc filtering"}[key]
        self.user(_typo(self.rng, self.pick(OPENERS) + ask + self.words(self.pick(CONTEXT)) + self.pick(TAILS)))
        job = f.get("job", "")
        call = {"star": ("shell", {"command": "tail -n +1 results/star/*/*.Log.final.out"}, lambda: self.out_star_logs((s, v))),
                "seff": ("slurm", {"command": "for j in $(sacct -n -X -S now-1days --name=star --format=JobID); do seff $j; done"},
                         lambda: self.out_seff(v)),
                "maxrss": ("slurm", {"command": "sacct -S now-2days --format=JobID,JobName%30,Partition,Elapsed,MaxRSS,ReqMem,AllocCPUS,State,ExitCode"},
                           lambda: self.out_sacct((job, self.pick(("COMPLETED", "OUT_OF_MEMORY")), v))),
                "de": ("run_r", {"code": "res <- results(dds, alpha = 0.05)\nsig <- subset(res, padj<0.05)\n"
                                 "cat(sprintf('DE genes (FDR 5%%): %d (%d up / %d down)\\n', nrow(sig), sum(sig$log2FoldChange > 0), "
                                 "sum(sig$log2FoldChange < 0)))"},
                       lambda: self.out_r(extra=[f"DE genes (FDR 5%): {v}"], where=self.rng.randint(0, 3))),
                "batch": ("run_r", {"code": "for (pc in c('PC1', 'PC2')) {\n  fit <- lm(pca[[pc]] ~ pca$batch)\n  cat(sprintf('%s ~ batch: "
                                    "R2 = %.4f, p = %.2g\\n', pc, summary(fit)$r.squared, anova(fit)$`Pr(>F)`[1]))\n}"},
                          lambda: self.out_r(extra=[f"PC1 ~ batch: {v}, p = {self.rng.uniform(1, 9):.1f}e-{self.rng.randint(5, 12):02d}",
                                                    f"PC2 ~ batch: R2 = 0.0{self.rng.randint(100, 999)}, p = 0.{self.rng.randint(11, 89)}"],
                                             where=0)),
                "pp": ("shell", {"command": "for b in results/star/*/*.sorted.bam; do echo \"== $(basename $b .sorted.bam) ==\"; "
                                            "samtools flagstat -@ 4 $b; done"}, lambda: self.out_flagstat((s, v))),
                "dup": ("shell", {"command": "tail -n +1 logs/fastp/*.log"}, lambda: self.out_fastps((s, v))),
                "fc": ("shell", {"command": "cat counts/featureCounts.log"}, lambda: self.out_featurecounts((s, v))),
                "shape": ("run_python", {"code": "exec(open('scripts/sc_qc.py').read())\nprint(adata)"},
                          lambda: self.out_py(extra=self.py_scanpy(v))),
                "cells": ("run_python", {"code": "sc.pp.filter_cells(adata, min_genes=200)\nsc.pp.filter_genes(adata, min_cells=3)"},
                          lambda: self.out_py(extra=[f"{v} that have less than 200 genes expressed",
                                                     f"filtered out {self.rng.randint(8000, 16000)} genes that are detected in less than 3 cells"]
                                              + self.py_scanpy()))}[key]
        i = self.step(call[0], call[1], call[2], self.preface(call[0]))
        self.plant(f, i)
        where = {"star": f"the {s} block", "seff": "the block with the highest memory efficiency",
                 "maxrss": f"the star_{s} batch step", "de": "the DE line", "batch": "the PC1 line", "pp": f"the {s} entry",
                 "dup": f"the {s} log", "fc": f"the {s} block", "shape": "the AnnData line", "cells": "the first filter line"}[key]
        self.say(self.pick((f"That's the one: {v} — {where}.", f"{where[0].upper() + where[1:]} stands out: {v}.",
                            f"Look at {where} — that's the one.", f"That's the one, {where}. Worth discussing before we go on.",
                            f"There it is, {where}.", f"{v}, see {where}.")))


class _Session(_Facts):
    """Plans where each fact goes, plays everything in order, and keeps planted values out of the filler."""

    def slots(self, count: int, lo: float, hi: float) -> list[float]:
        width = (hi - lo) / max(1, count)
        return [lo + (i + self.rng.uniform(0.15, 0.85)) * width for i in range(count)]

    def before(self, pos: float) -> float:
        """Where to say what a fact later replaces: sometimes just before, mostly far back."""
        n = self.n
        floor = 0.04 * n
        if self.rng.random() < 0.3:
            back = self.rng.uniform(6, max(8, 0.03 * n))
        else:
            back = self.rng.uniform(0.12 * n, max(0.13 * n, min(pos - floor, 0.5 * n)))
        return max(floor, min(pos - 5, pos - back))

    def schedule(self, k: int) -> list[tuple[int, int, Callable[[], None]]]:
        n, r = self.n, self.rng
        events: list[tuple[int, int, Callable[[], None]]] = []

        def add(pos: float, fn: Callable[[], None]) -> None:
            events.append((int(pos), len(events), fn))
        lo, hi = 0.045 * n, (0.85 if n >= 400 else 0.8 if n >= 150 else 0.72) * n
        # instructions: every phrasing style early on, then the rest
        core = ["indirect", "casual", "conditional", "pt", "de", "midpara"]
        r.shuffle(core)
        styles = core[:k] if k <= 6 else core + ["adopt"] + [r.choice(core) for _ in range(k - 7)]
        used: set[str] = set()
        for pos, style in zip(self.slots(k, lo, hi), r.sample(styles, len(styles))):
            f = self.unique(lambda st=style: self.draw_instruction(st, used))
            add(pos, (lambda f=f: self.ep_instruction(f)))
        # corrections: near misses mostly, said first far back (some just before)
        near = [c[0] for c in CORRECTIONS if c[1]]
        far = [c[0] for c in CORRECTIONS if not c[1]]
        n_far = min(len(far), k // 4)
        keys = r.sample(far, n_far) + r.sample(near, k - n_far)
        r.shuffle(keys)
        for pos, key in zip(self.slots(k, 0.12 * n, hi), keys):
            f = self.unique(lambda key=key: self.draw_correction(key))
            add(self.before(pos), (lambda f=f: self.ep_correction_said(f)))
            add(pos, (lambda f=f: self.ep_correction(f)))
        # decisions: a third revised
        revised = set(r.sample(range(k), max(1, k // 3))) if k >= 2 else set()
        for j, (pos, dec) in enumerate(zip(self.slots(k, lo, hi), r.sample(DECISIONS, k))):
            f = self.unique(lambda d=dec, j=j: self.draw_decision(d[0], j in revised))
            if f.get("stale"):
                pos = max(pos, 0.1 * n)
                add(self.before(pos), (lambda f=f: self.ep_decision_first(f)))
            add(pos, (lambda f=f: self.ep_decision(f)))
        for pos, when in zip(self.slots(k, lo, hi), r.sample(PLAN_WHEN, k)):
            f = self.unique(lambda w=when: self.draw_plan(w))
            add(pos, (lambda f=f: self.ep_plan(f)))
        for pos in self.slots(k, lo, hi):
            f = self.unique(self.draw_file)
            add(pos, (lambda f=f: self.ep_file(f)))
        # errors: some fixed and rerun at once, some later, some left
        err_keys = r.sample(("nf", "smk", "star_sort", "r_obj", "r_pkg", "r_col", "py_key", "py_len", "gatk", "samtools", "pip",
                             "fastqc"), k)
        fixed = set(r.sample(range(k), k // 2)) if k >= 2 else set()
        for j, (pos, key) in enumerate(zip(self.slots(k, lo, hi), err_keys)):
            f = self.unique(lambda key=key: self.draw_error(key))
            add(pos, (lambda f=f: self.ep_error(f)))
            if j in fixed:
                if r.random() < 0.5:
                    f["now"] = True
                else:
                    add(pos + r.uniform(8, max(10, 0.08 * n)), (lambda f=f: self.ep_resolve(f)))
        kinds = ("star", "seff", "maxrss", "de", "batch", "pp", "dup", "fc", "shape", "cells")
        fkeys = r.sample(kinds, min(k, len(kinds))) + r.sample(("star", "maxrss", "pp", "dup", "fc"), max(0, k - len(kinds)))
        for pos, key in zip(self.slots(k, lo, hi), fkeys):
            f = self.unique(lambda key=key: self.draw_finding(key))
            add(pos, (lambda f=f: self.ep_finding(f)))
        wheres = ["user"] * (k // 2) + ["tool"] * (k - k // 2)
        r.shuffle(wheres)
        for pos, where in zip(self.slots(k, lo, hi), wheres):
            f = self.unique(lambda w=where: self.draw_identifier(w))
            add(pos, (lambda f=f: self.ep_identifier(f)))
        # what the user pastes: each kind of paste, again and again in long sessions
        count = max(1, n // 80) if n < 400 else 5 + (n - 400) // 200
        kinds5 = []
        while len(kinds5) < count:
            kinds5 += r.sample(("core", "reviewer", "sop", "slack", "pi"), 5)
        for pos, kind in zip(self.slots(count, 0.03 * n, min(0.95 * n, n - 14)), kinds5):
            add(pos, (lambda kind=kind: self.ep_paste(kind)))
        return events

    def build(self) -> Session:
        self.topics: list[str] = []
        self.planted_facts: list[dict[str, Any]] = []
        self.id_used: set[tuple[str, str]] = set()
        n = self.n
        self.system()
        for _pos, _order, play in sorted(self.schedule(per_kind(n)), key=lambda e: (e[0], e[1])):
            self.fill_to(_pos)
            play()
        self.fill_to(n - 1)
        if len(self.msgs) == n - 2:
            self.interject()
        if len(self.msgs) != n - 1:  # pragma: no cover - the plan leaves room; this guards the arithmetic
            raise RuntimeError(f"planned episodes overran the session: {len(self.msgs)} of {n}")
        self.user(self.ask(self.next_topic()))
        self.scrub()
        facts = [Fact(f["kind"], f["value"], f["index"], f["query"], stale=f.get("stale"), stale_index=f.get("stale_index"),
                      resolved=f.get("resolved"))
                 for f in sorted(self.planted_facts, key=lambda f: (f["index"], f["kind"]))]
        return Session(messages=self.msgs, facts=facts, seed=self.seed, pasted=self.pasted)

    # --- keeping planted values out of the filler -----------------------------------------------------------------

    def scrub(self) -> None:
        """A value (or a stale value) that the noise happens to contain outside its window is bent by one character there."""
        windows: list[tuple[str, list[tuple[int, int]]]] = []
        for f in self.planted_facts:
            windows.append((f["value"], [(f["index"], f["index"] + 8)]))
            if f.get("stale"):
                windows.append((f["stale"], [(f["stale_index"], f["stale_index"] + 12), (f["index"], f["index"] + 8)]))
        texts = [text_of(m) for m in self.msgs]
        joined, starts = self.join(texts)
        for value, allowed in windows:
            bad = sorted({self.owner(starts, at) for at in self.find_all(joined, value)}
                         - {i for a, b in allowed for i in range(a, b + 1)})
            for i in bad:
                self.bend(i, value)
                texts[i] = text_of(self.msgs[i])
            if bad:
                joined, starts = self.join(texts)

    @staticmethod
    def join(texts: list[str]) -> tuple[str, list[int]]:
        starts, at = [], 0
        for t in texts:
            starts.append(at)
            at += len(t) + 1
        return "\x00".join(texts), starts

    @staticmethod
    def owner(starts: list[int], at: int) -> int:
        """The index of the last start at or before ``at`` (0 when there is none)."""
        return max(0, bisect.bisect_right(starts, at) - 1)

    @staticmethod
    def find_all(text: str, value: str) -> list[int]:
        out, at = [], text.find(value)
        while at >= 0:
            out.append(at)
            at = text.find(value, at + 1)
        return out

    def bend(self, i: int, value: str) -> None:
        spots = [j for j, ch in enumerate(value) if ch.isdigit()] or [j for j, ch in enumerate(value) if ch.isalpha()]
        j = spots[-1]
        ch = value[j]
        new = str((int(ch) + 3) % 10) if ch.isdigit() else ("x" if ch.lower() != "x" else "q")
        if ch.isupper():
            new = new.upper()
        other = value[:j] + new + value[j + 1:]
        msg = self.msgs[i]
        if isinstance(msg.get("content"), str) and value in msg["content"]:
            msg["content"] = msg["content"].replace(value, other)
            self.pasted = [(k, p.replace(value, other) if k == i else p) for k, p in self.pasted]
        for call in msg.get("tool_calls") or []:
            call["function"]["arguments"] = call["function"]["arguments"].replace(value, other)
