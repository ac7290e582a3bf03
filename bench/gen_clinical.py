"""Long clinical-data sessions with planted facts, for the fidelity bench.

A clinical data manager at a university hospital in Bologna works with an analytics agent on a multicentre
observational heart-failure cohort: REDCap exports, an R ``targets`` pipeline (tidyverse, survival, testthat),
SAS logs from a partner centre, SQL Server queries on the hospital data warehouse, CDISC-like DM / AE / LB
datasets, validation reports, a Shiny dashboard for the steering committee and pseudonymisation. The user writes
Italian and English, casually or formally, pastes the ethics committee's letter, the SAP, the monitor's data
queries, the DPO's mail, a partner's SAS log and a colleague's code review; the agent calls ``shell``, ``r``,
``sql``, ``read_file``, ``write_file``, ``edit_file``, ``redcap_api`` and ``git``, whose long outputs (tibbles,
Cox summaries, SAS notes, SQL tables, REDCap JSON, diffs) make most of the characters.

    import sys; sys.path.insert(0, "bench")
    from gen_clinical import make_session
    session = make_session(seed=1, messages=400)     # about 600k characters
    session = make_session(seed=1, messages=3000)    # about 4.7M characters
    for fact in session.facts:                       # what a compacted context must still say verbatim
        print(fact.kind, fact.index, fact.value, "<-", fact.query)
    session.pasted                                   # (message index, text the user pasted, not wrote)

``per_kind(messages)`` facts of each of the eight ``KINDS`` are planted between 3% and 88% of the session: the
user's standing rules (some in Italian, some conditional, some adopted from a pasted document), corrections
(often near misses of the old value, some far from it), decisions (a third revise an earlier choice), plans,
identifiers (said by the user or printed by a tool), whole error lines (some resolved by a later passing run of
the same command), findings in a tool's output and files written by one call. A value first occurs in its own
message and afterwards only in the few messages that answer it; the same seed gives the same bytes.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sessiongen import Fact, Message, Session, text_of

KINDS = ("instruction", "correction", "decision", "error", "file", "identifier", "finding", "plan")
TOOLS = ("shell", "r", "sql", "read_file", "write_file", "edit_file", "redcap_api", "git")
MIN_MESSAGES = 60
CHARS_PER_MESSAGE = 1560  # 400 messages -> ~624k characters, 3000 -> ~4.7M
AFTER = 8  # messages after a value's own that may repeat it

Maker = Callable[[random.Random], dict[str, Any]]


def per_kind(messages: int) -> int:
    """Facts of each kind: 1 at 60 messages, 6 at 400, 12 at 3000, linear in between and growing beyond."""
    if messages <= 400:
        return max(1, round(1 + 5 * (messages - 60) / 340))
    return round(6 + 6 * (messages - 400) / 2600)


# --- the study's filler vocabulary (never used by a planted value) ---------------------------------------------

SITES = ("BO01", "MO02", "PR03", "FE04", "VR05", "RE06")
SITE_NAMES = {"BO01": "Bologna", "MO02": "Modena", "PR03": "Parma", "FE04": "Ferrara", "VR05": "Verona",
              "RE06": "Reggio Emilia"}
PEOPLE = ("Marta", "Davide", "Giulia", "Lorenzo", "Chiara", "Prof. Rinaldi", "dott. Ferraresi", "Sara (monitor)",
          "Matteo", "Elena")
FILLER_PATHS = ("R/clean_dm.R", "R/clean_ae.R", "R/clean_lb.R", "R/utils_dates.R", "R/import_redcap.R",
                "R/derive_adsl.R", "R/derive_adtte.R", "R/validate_rules.R", "_targets.R", "shiny/app.R",
                "shiny/mod_overview.R", "tests/testthat/test-clean_ae.R", "tests/testthat/test-utils_dates.R",
                "sql/extract_lab.sql", "sql/extract_adm.sql", "config/study.yml", "reports/validation_summary.qmd",
                "R/pseudonymise.R", "R/import_partner_sas.R", "R/tables_baseline.R")
TARGETS = ("raw_redcap", "raw_dwh_lab", "raw_dwh_adm", "partner_sas", "dm", "ae", "lb", "adsl", "adtte", "adlb",
           "val_rules", "val_report", "tbl_baseline", "km_fit", "cox_fit", "dash_data", "pseudo_map", "vs")
FORMS = ("demographics", "baseline_visit", "echocardiography", "labs_baseline", "adverse_events", "therapy",
         "hospitalisations", "followup_visit", "end_of_study")
LAB_TESTS = (("CREA", "mg/dL", 0.6, 2.4), ("NTPROBNP", "pg/mL", 120, 9800), ("HGB", "g/dL", 9.1, 16.2),
             ("K", "mmol/L", 3.2, 5.9), ("NA", "mmol/L", 128, 146), ("HBA1C", "%", 5.1, 9.4),
             ("TROPT", "ng/L", 4, 180), ("FERR", "ng/mL", 18, 620))
AE_TERMS = ("Hyperkalaemia", "Acute kidney injury", "Hypotension", "Atrial fibrillation", "Dizziness",
            "Worsening heart failure", "Syncope", "Gout", "Hyponatraemia", "Pneumonia", "Falls", "Anaemia")
TODO = ("rerun validation on all sites", "check creatinine units per site", "reconcile AE with the SAS file",
        "baseline table by site", "KM curves for the dashboard", "answer the monitor's queries",
        "refresh the dashboard data", "tag the interim freeze")


def _sid(rng: random.Random) -> str:
    return f"{rng.choice(SITES)}-{rng.randint(1, 1999):04d}"


def _date(rng: random.Random) -> str:
    return f"20{rng.randint(18, 23)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"


def _clock(rng: random.Random) -> str:
    return f"{rng.randint(7, 19):02d}:{rng.randint(0, 59):02d}"


def _hexs(rng: random.Random, n: int) -> str:
    return f"{rng.getrandbits(4 * n):0{n}x}"


# --- planted values --------------------------------------------------------------------------------------------
# Every maker returns value and query plus the sentences that carry them. The words and formats used here never
# occur in the filler, so a value found in a compacted prompt was kept, not regenerated.

SCHEMAS = ("cdw_scompenso", "dwhprod_cardiologia", "cdr_hf_live", "dwh_cardio_master")
SCRATCH = ("scratch_giulia/", "tmp_lorenzo/", "prove_chiara/", "sandbox_matteo/")
HOSTS = ("srv-ricerca-", "vm-biostat-", "rsc-cardio-")
PLANT_NAMES = ("Bellandi", "Guerrieri", "Montanari", "Zanotti", "Pasquali", "Ravaglia", "Cavazza", "Tassinari")
STEMS = ("kccq_score", "diuretic_equiv", "nyha_worst", "sdo_linkage", "lvef_class", "ntprobnp_log2",
         "readmit_30d", "egfr_slope", "iron_def", "mra_exposure", "frailty_idx", "arni_switch", "hf_phenotype",
         "sglt2_start", "death_cause_map", "visit_windows")


def _instr_makers() -> list[Maker]:
    def cells(rng: random.Random) -> dict[str, Any]:
        n = rng.randint(5, 11)
        v = f"below {n} patients"
        return {"value": v, "query": "the smallest group size the steering dashboard may show as a number",
                "text": rng.choice([f"house rule for the dashboard: anything {v} gets shown as \"<{n}\", never the "
                                    "real count",
                                    f"one thing I care about: cells {v} are masked on every committee slide"])}

    def schema(rng: random.Random) -> dict[str, Any]:
        v = rng.choice(SCHEMAS)
        return {"value": v, "query": "which warehouse schema is read-only for us (SELECT only)",
                "text": rng.choice([f"mai scrivere su `{v}`, è la produzione del DWH: solo SELECT, niente tabelle "
                                    "temporanee lì",
                                    f"non toccare `{v}` se non in lettura, l'ultima volta l'IT ci ha sgridati"])}

    def dob(rng: random.Random) -> dict[str, Any]:
        v = rng.choice(["age at enrolment, rounded down", "age in whole years at enrolment"])
        return {"value": v, "query": "what replaces the date of birth in the analysis datasets",
                "text": f"we never keep date of birth in anything we derive, {v} and that's it"}

    def prefix(rng: random.Random) -> dict[str, Any]:
        v = rng.choice(["prefisso AAAAMMGG", "prefisso con la data AAAAMMGG"])
        return {"value": v, "query": "how export file names have to start",
                "text": f"ah, i file di export sempre col {v} davanti, mi raccomando, se no il monitor impazzisce"}

    def branch(rng: random.Random) -> dict[str, Any]:
        v = f"release/sap-v{rng.randint(2, 5)}.{rng.randint(0, 9)}"
        return {"value": v, "query": "which branch needs the user's OK before any force push",
                "text": f"I'd rather you ask me before any force push on `{v}`, even a tiny one"}

    def sapsign(rng: random.Random) -> dict[str, Any]:
        v = f"SAP v{rng.randint(2, 4)}.{rng.randint(1, 9)}"
        return {"value": v, "query": "which document must be signed before anyone touches the outcome data",
                "text": rng.choice([f"until Marta signs {v}, don't run anything on the outcomes - baseline only",
                                    f"finché Marta non firma la {v} niente analisi sugli outcome, solo baseline"])}

    def pskey(rng: random.Random) -> dict[str, Any]:
        v = f"pskey-{rng.choice(['hfobs', 'cardio', 'scomp'])}-{rng.randint(11, 99)}"
        return {"value": v, "query": "which key pseudonymised ids have to be generated with",
                "text": f"regola della casa: gli pseudonimi si fanno solo con la chiave `{v}`, mai hash fatti a mano"}

    def pipe(rng: random.Random) -> dict[str, Any]:
        v = rng.choice(["native |> only", "only the native |> pipe"])
        return {"value": v, "query": "which pipe style new R code has to use",
                "text": f"style thing: new R code uses {v}, I don't want to see magrittr creeping back in"}

    def partial(rng: random.Random) -> dict[str, Any]:
        d = rng.choice([10, 15, 16])
        v = f"al {d} del mese"
        return {"value": v, "query": "which day a partial (month/year only) date is imputed to",
                "text": f"le date parziali, tipo solo mese e anno, le imputiamo sempre {v}, mai al primo"}

    def copydir(rng: random.Random) -> dict[str, Any]:
        v = f"staging/verona_ro_copy_{rng.randint(2, 9)}/"
        return {"value": v, "query": "where the partner's SAS files must be copied before anyone edits them",
                "text": f"the Verona files stay read-only, please: copy them into `{v}` before you touch anything"}

    def decimals(rng: random.Random) -> dict[str, Any]:
        v = f"{rng.choice(['tre', 'quattro'])} decimali"
        return {"value": v, "query": "how many decimals p-values are reported with",
                "text": f"io preferirei i p-value con {v}, e mai \"0.000\": scrivi <0.001"}

    def rawlabel(rng: random.Random) -> dict[str, Any]:
        v = "rawOrLabel=label"
        return {"value": v, "query": "which REDCap export option is never used",
                "text": f"we never export with {v}, raw codes only, the labels come from the dictionary"}

    def teams(rng: random.Random) -> dict[str, Any]:
        n = rng.randint(12, 40)
        v = f"more than {n} open findings"
        return {"value": v, "query": "when the user wants a Teams ping about a validation run",
                "text": f"ping me on Teams, not by mail, when a validation run ends with {v}"}

    def grey(rng: random.Random) -> dict[str, Any]:
        v = rng.choice(["scala di grigi", "bianco e nero"])
        return {"value": v, "query": "how the committee's charts must be coloured",
                "text": f"i grafici per il comitato sempre in {v}, il Prof. stampa tutto e i colori spariscono"}

    def host(rng: random.Random) -> dict[str, Any]:
        v = f"{rng.choice(HOSTS)}{rng.randint(2, 9):02d}"
        return {"value": v, "query": "which server record-level data must stay on until the DPO answers",
                "text": rng.choice([f"finché il DPO non risponde, i dati riga per riga non escono da `{v}`",
                                    f"until the DPO gets back to us nothing record-level leaves `{v}`"])}

    def scratch(rng: random.Random) -> dict[str, Any]:
        v = rng.choice(SCRATCH)
        return {"value": v, "query": "which folder must not hold ad-hoc derivation code",
                "text": f"every derivation goes in the pipeline, I'd rather not find ad-hoc scripts in `{v}` again"}

    return [cells, schema, dob, prefix, branch, sapsign, pskey, pipe, partial, copydir, decimals, rawlabel, teams,
            grey, host, scratch]


def _adopted_makers() -> list[Maker]:
    def dpo(rng: random.Random) -> dict[str, Any]:
        n = rng.randint(5, 12)
        v = f"n ≥ {n}"
        return {"value": v, "query": "the smallest group an aggregate leaving the hospital may describe",
                "doc": "dpo", "text": f"ok, quindi regola nostra da oggi: fuori dall'ospedale solo aggregati con {v}, "
                                       "il resto resta qui"}

    def ethics(rng: random.Random) -> dict[str, Any]:
        n = rng.choice([18, 24, 30, 36])
        v = f"oltre i {n} mesi"
        return {"value": v, "query": "beyond which follow-up length patients may not be phoned",
                "doc": "ethics", "text": f"in pratica per noi: nessuna telefonata di follow-up {v} dall'arruolamento"}

    def review(rng: random.Random) -> dict[str, Any]:
        v = rng.choice(["every join declares its relationship", "each join states its cardinality"])
        return {"value": v, "query": "what the user now requires of every table join in the R code",
                "doc": "review", "text": f"fair point from Davide, so from now on {v}, no silent many-to-many"}

    def sap(rng: random.Random) -> dict[str, Any]:
        v = rng.choice(["complete cases only for the primary", "no imputation on the primary endpoint"])
        return {"value": v, "query": "how missing primary-endpoint data are handled, per the user's own rule",
                "doc": "sap", "text": f"tradotto per noi: {v}, la MI solo nelle sensitivity"}

    return [dpo, ethics, review, sap]


def _correction_makers() -> list[Maker]:
    def swap(digits: str) -> str:
        i = len(digits) - 2
        return digits[:i] + digits[i + 1] + digits[i] if digits[i] != digits[i + 1] else digits[:i] + "9" + digits[i]

    def pid(rng: random.Random) -> dict[str, Any]:
        d = str(rng.randint(10000, 39999))
        site = rng.choice(["Modena", "Parma", "Ferrara"])
        return {"stale": f"PID {d}", "value": f"PID {swap(d)}", "thing": f"the {site} REDCap project",
                "cosa": f"il progetto REDCap di {site}", "query": f"which REDCap project id {site} uses"}

    def ticket(rng: random.Random) -> dict[str, Any]:
        d = str(rng.randint(30000, 69999))
        what, cosa = rng.choice([("the DWH access", "l'accesso al DWH"), ("the RStudio upgrade", "l'upgrade di RStudio"),
                                 ("the Shiny server certificate", "il certificato del server Shiny")])
        return {"stale": f"INC-{d}", "value": f"INC-{swap(d)}", "thing": f"the IT ticket for {what}",
                "cosa": f"il ticket IT per {cosa}", "query": f"which IT ticket tracks {what}"}

    def hostm(rng: random.Random) -> dict[str, Any]:
        a, b = rng.sample(range(1, 10), 2)
        return {"stale": f"rstudio-card-{a:02d}", "value": f"rstudio-card-{b:02d}", "thing": "the RStudio server",
                "cosa": "il server RStudio", "query": "which RStudio server the pipeline runs on"}

    def event(rng: random.Random) -> dict[str, Any]:
        m = rng.choice([6, 12, 18, 24])
        return {"stale": f"fu_{m}m_arm_1", "value": f"fu_{m}m_arm_2", "thing": "the REDCap event for that visit",
                "cosa": "l'evento REDCap di quella visita", "query": f"which REDCap event holds the {m}-month visit"}

    def cutoff(rng: random.Random) -> dict[str, Any]:
        y = rng.randint(2022, 2024)
        a, b = rng.sample(["31/12", "30/06", "31/03", "30/09"], 2)
        return {"stale": f"{a}/{y}", "value": f"{b}/{y}", "thing": "the data cut-off", "cosa": "il cut-off dei dati",
                "query": "the data cut-off date of the interim analysis"}

    def analyte(rng: random.Random) -> dict[str, Any]:
        d = str(rng.randint(1000, 9999))
        test = rng.choice(["NT-proBNP", "creatinine", "potassium", "ferritin", "troponin T"])
        return {"stale": f"ANL-{d}", "value": f"ANL-{swap(d)}", "thing": f"the DWH analyte code for {test}",
                "cosa": f"il codice analita di {test}", "query": f"which warehouse analyte code {test} has"}

    def person(rng: random.Random) -> dict[str, Any]:
        a, b = rng.sample(PLANT_NAMES, 2)
        role, ruolo = rng.choice([("the statistician at the CRO", "la statistica della CRO"),
                                  ("our contact at the DPO office", "la referente dell'ufficio DPO"),
                                  ("the new monitor for Parma", "la nuova monitor di Parma")])
        return {"stale": f"dott.ssa {a}", "value": f"dott.ssa {b}", "thing": role, "cosa": ruolo,
                "query": f"who {role} is"}

    def batch(rng: random.Random) -> dict[str, Any]:
        d = str(rng.randint(2000, 8999))
        return {"stale": f"EXP-{d}", "value": f"EXP-{swap(d)}", "thing": "the export batch we validated",
                "cosa": "il batch di export validato", "query": "which REDCap export batch was validated"}

    def visitwin(rng: random.Random) -> dict[str, Any]:
        a = rng.choice([14, 21, 28])
        b = a + rng.choice([7, -7])
        return {"stale": f"±{a} giorni", "value": f"±{b} giorni", "thing": "the visit window",
                "cosa": "la finestra di visita", "query": "how wide the follow-up visit window is"}

    def room(rng: random.Random) -> dict[str, Any]:
        a, b = rng.sample(["Aula Murri", "Aula Gasbarrini", "sala riunioni Pad. 23", "Aula Labò"], 2)
        return {"stale": a, "value": b, "thing": "the room for the steering meeting",
                "cosa": "la sala dello steering", "query": "where the steering committee meets"}

    return [pid, ticket, hostm, event, cutoff, analyte, person, batch, visitwin, room]


def _decision_makers() -> list[Maker]:
    def pair(stale: str, value: str, query: str) -> Maker:
        def make(rng: random.Random) -> dict[str, Any]:
            return {"stale": stale, "value": value, "query": query}
        return make

    def mi(rng: random.Random) -> dict[str, Any]:
        a, b = rng.sample([20, 30, 40, 50], 2)
        return {"stale": f"{a} imputed datasets", "value": f"{b} imputed datasets",
                "query": "how many imputed datasets the multiple imputation produces"}

    def landmark(rng: random.Random) -> dict[str, Any]:
        a, b = rng.sample([30, 60, 90, 180], 2)
        return {"stale": f"landmark a {a} giorni", "value": f"landmark a {b} giorni",
                "query": "where the landmark analysis starts"}

    return [pair("cause-specific Cox", "Fine-Gray", "which competing-risk model the primary analysis uses"),
            pair("shinyapps.io", "Posit Connect interno", "where the steering dashboard is hosted"),
            pair("CKD-EPI 2009", "CKD-EPI 2021 race-free", "which eGFR equation the derivations use"),
            pair("everything in mg/dL", "SI units throughout", "which lab units the harmonised datasets use"),
            pair("Parquet for the sponsor", "XPT v5 for the sponsor", "which format the sponsor transfer uses"),
            pair("first HF hospitalisation only", "HF hospitalisation or urgent IV diuretics",
                 "how the primary endpoint event is defined"),
            mi, landmark]


def _standing_decisions() -> list[Maker]:
    def fixed(value: str, query: str) -> Maker:
        def make(rng: random.Random) -> dict[str, Any]:
            return {"value": value, "query": query}
        return make

    def excl(rng: random.Random) -> dict[str, Any]:
        n = rng.choice([7, 14, 30])
        v = f"meno di {n} giorni di follow-up"
        return {"value": v, "query": "which patients are excluded for too short a follow-up",
                "text": f"ok, escludiamo chi ha {v}. decisione presa, non ci torniamo."}

    return [fixed("crew with 2 workers", "how the targets pipeline runs in parallel"),
            fixed("renv pinned to R 4.3.3", "how the R environment is frozen"),
            fixed("log-log confidence bands", "which confidence intervals the Kaplan-Meier curves show"),
            fixed("log2 of NT-proBNP", "how NT-proBNP enters the models"),
            fixed("Wilson intervals", "which intervals the proportions in table 1 get"),
            fixed("one row per admission", "the grain of the hospitalisation dataset"),
            fixed("gtsummary for table 1", "which package builds the baseline table"),
            fixed("restricted cubic splines with 4 knots", "how age is modelled"),
            excl]


def _plan_makers() -> list[Maker]:
    def p1(rng: random.Random) -> dict[str, Any]:
        n = rng.randint(40, 90)
        v = f"dry run on the {n} Parma patients"
        return {"value": v, "query": "what comes right after freezing DM and AE in the user's plan",
                "text": f"So the plan: first we freeze DM and AE, then a {v}, and only after Marta's OK we touch "
                        "the outcomes. If the dry run is clean we tag it and tell the monitor."}

    def p2(rng: random.Random) -> dict[str, Any]:
        v = "riconciliazione AE con la farmacovigilanza"
        return {"value": v, "query": "what the user planned for Tuesday",
                "text": f"Piano per la settimana:\n- lunedì freeze del DM\n- martedì {v}\n- mercoledì report per il "
                        "monitor, giovedì lo rivediamo insieme"}

    def p3(rng: random.Random) -> dict[str, Any]:
        v = "row by row against Verona's SAS output"
        return {"value": v, "query": "how the rebuilt lab dataset gets compared with the partner's results",
                "text": f"Here's how I see it. We rebuild adlb from the raw warehouse pull, then compare it {v}, "
                        "and whatever differs goes to Davide in one spreadsheet, not ten mails."}

    def p4(rng: random.Random) -> dict[str, Any]:
        w = rng.choice(["venerdì", "giovedì"])
        v = f"demo al comitato di {w}"
        return {"value": v, "query": "what the dashboard work is heading towards",
                "text": f"allora, per la dashboard: prima sistemiamo i numeri della tabella 1, poi i grafici KM, poi "
                        f"la {v}. Il resto (filtri per centro ecc.) dopo."}

    def p5(rng: random.Random) -> dict[str, Any]:
        v = "pseudonymise first, then link the SDO"
        return {"value": v, "query": "the order of the pseudonymisation and the discharge-record linkage",
                "text": f"The order matters here: {v}, never the other way round, and the map table stays "
                        "on the hospital server in its own schema."}

    def p6(rng: random.Random) -> dict[str, Any]:
        n = rng.randint(3, 6)
        v = f"batch da {n} centri alla volta"
        return {"value": v, "query": "how the REDCap re-export is split",
                "text": f"Per il re-export facciamo così: {v}, si valida ognuno e solo dopo si fa il merge. "
                        "Se un centro fallisce non blocchiamo gli altri."}

    def p7(rng: random.Random) -> dict[str, Any]:
        v = "freeze the lab mapping table before the interim"
        return {"value": v, "query": "what must be frozen before the interim analysis",
                "text": f"Steps, roughly: 1) {v}, 2) rerun the validation rules on all six sites, "
                        "3) write the queries for the monitor, 4) only then regenerate the dashboard data."}

    def p8(rng: random.Random) -> dict[str, Any]:
        v = "sensitivity senza i pazienti di Reggio"
        return {"value": v, "query": "which extra analysis the user plans after the main Cox model",
                "text": f"Dopo il Cox principale facciamo una {v} (hanno il follow-up più corto), poi la forest "
                        "plot per sottogruppi e basta, non di più per ora."}

    def p9(rng: random.Random) -> dict[str, Any]:
        v = "one targets branch per centre"
        return {"value": v, "query": "how the pipeline will be restructured to run centres separately",
                "text": f"I've been thinking about the pipeline. We split it into {v}, so a broken REDCap "
                        "export in one place stops only that branch. Then the validation report gets a section "
                        "per centre, and the dashboard reads only the branches that built."}

    def p10(rng: random.Random) -> dict[str, Any]:
        n = rng.randint(3, 9)
        v = f"le {n} query più vecchie del monitor"
        return {"value": v, "query": "what the user wants answered first among the monitor's queries",
                "text": f"Allora, domani mattina: prima chiudiamo {v}, poi guardiamo le nuove. Nel pomeriggio "
                        "rifacciamo l'export e la validazione, e se è pulita mando tutto a Sara."}

    def p11(rng: random.Random) -> dict[str, Any]:
        v = "shadow-run the new unit map for a week"
        return {"value": v, "query": "how the new lab unit map will be introduced",
                "text": f"Plan for the unit map: we {v} next to the old one, compare the outputs every morning, "
                        "and switch only if nothing moves. Ferrara first, they're the messiest."}

    def p12(rng: random.Random) -> dict[str, Any]:
        n = rng.randint(2, 5)
        v = f"tabelle shell entro {n} giorni"
        return {"value": v, "query": "the first deliverable of the user's plan for the interim report",
                "text": f"Per il report intermedio: 1) {v}, 2) numeri veri solo dopo il freeze, "
                        "3) revisione con Marta, 4) invio al comitato. Non anticipiamo niente."}

    return [p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, p12]


def _user_identifier_makers() -> list[Maker]:
    def protocol(rng: random.Random) -> dict[str, Any]:
        v = f"{rng.randint(100, 899)}/2023/Oss/AOUBo"
        return {"value": v, "query": "the ethics committee's protocol number for the study",
                "text": f"il numero di protocollo del comitato etico è {v}, mettilo nell'header dei report"}

    def priv(rng: random.Random) -> dict[str, Any]:
        v = f"PRIV-{rng.randint(1000, 9999)}"
        return {"value": v, "query": "the DPO ticket about the data transfer",
                "text": f"the DPO opened a ticket for us, it's {v}, cite it in the transfer note"}

    def studycode(rng: random.Random) -> dict[str, Any]:
        v = f"HFOBS-{rng.randint(10, 99)}-{rng.choice(['ER', 'IT', 'BO'])}"
        return {"value": v, "query": "the sponsor's code for the study",
                "text": f"the sponsor's study code is {v}, it goes in every dataset label"}

    def sharepoint(rng: random.Random) -> dict[str, Any]:
        v = f"Cardio-HF-Steering-{rng.randint(2, 9)}"
        return {"value": v, "query": "the SharePoint site where the committee material goes",
                "text": f"i pdf per lo steering vanno sulla SharePoint {v}, non per mail"}

    def orcid(rng: random.Random) -> dict[str, Any]:
        v = f"0000-000{rng.randint(1, 3)}-{rng.randint(1000, 9999)}-{rng.randint(100, 999)}X"
        return {"value": v, "query": "the PI's ORCID for the data paper",
                "text": f"for the data paper metadata the PI's ORCID is {v}"}

    return [protocol, priv, studycode, sharepoint, orcid]


# --- tool-carried plants: errors, findings, printed identifiers -----------------------------------------------

def _error_makers() -> list[Maker]:
    def testthat(rng: random.Random) -> dict[str, Any]:
        stem = rng.choice(["clean_ae", "clean_lb", "derive_adtte", "utils_dates", "pseudonymise"])
        desc = rng.choice(["AE duration is never negative", "units are harmonised per site", "censoring date is "
                           "the last contact", "partial dates are imputed", "pseudonyms are stable across runs"])
        line = f"── Failure (test-{stem}.R:{rng.randint(20, 240)}:{rng.randint(3, 9)}): {desc} ──"
        n = rng.randint(80, 260)
        fail = [f"[ FAIL 1 | WARN {rng.randint(0, 3)} | SKIP 2 | PASS {n} ]", "", line,
                f"`got` has {rng.randint(2, 40)} unexpected values.", f"  Expected: {rng.randint(0, 3)}",
                f"  Actual:   {rng.randint(4, 90)}", "", "══ Failed tests ════════════════════════", line]
        ok = [f"[ FAIL 0 | WARN {rng.randint(0, 3)} | SKIP 2 | PASS {n + 1} ]", "══ DONE ══"]
        return {"tool": "r", "args": {"code": "testthat::test_dir('tests/testthat', reporter = 'summary')"},
                "pre": _r_test_progress, "fail": fail, "ok": ok, "value": line, "query": "which testthat expectation failed"}

    def join(rng: random.Random) -> dict[str, Any]:
        line = f"ℹ Row {rng.randint(1000, 9999)} of `x` matches multiple rows in `y`."
        tgt = rng.choice(["adtte", "adlb", "adsl"])
        fail = [f"▶ dispatched target {tgt}", f"✖ errored target {tgt}", "✖ errored pipeline "
                f"[{rng.randint(2, 40)}.{rng.randint(10, 99)} seconds]", "Error:", "! Error running targets::tar_make()",
                "Error in `left_join()`:", "! Each row in `x` must match at most 1 row in `y`.", line,
                "ℹ If a many-to-many relationship is expected, set `relationship = \"many-to-many\"` to silence."]
        ok = [f"▶ dispatched target {tgt}", f"● built target {tgt} [{rng.randint(1, 9)}.{rng.randint(10, 99)} "
              "seconds]", f"▶ ended pipeline [{rng.randint(20, 90)}.{rng.randint(10, 99)} seconds]"]
        return {"tool": "shell", "args": {"command": "Rscript -e 'targets::tar_make()'"}, "fail": fail, "ok": ok,
                "pre": _targets_progress,
                "value": line, "query": "which join in the pipeline produced duplicated rows"}

    def sqlcol(rng: random.Random) -> dict[str, Any]:
        col = rng.choice(["data_dimissione_sdo", "cod_reparto_dim", "drg_principale", "esito_ricovero_sdo"])
        ln = rng.randint(8, 60)
        line = f"Invalid column name '{col}'."
        fail = [f"Msg 207, Level 16, State 1, Line {ln}", line, "", f"Completion time: {_date(rng)}T{_clock(rng)}"]
        ok = [f"({rng.randint(1200, 9000)} rows affected)", "", f"Completion time: {_date(rng)}T{_clock(rng)}"]
        return {"tool": "sql", "args": {"query": f"SELECT patient_key, adm_date, {col} FROM sdo.ricoveri_cardio "
                                                 "WHERE adm_date >= '2019-01-01'"},
                "fail": fail, "ok": ok, "value": line, "query": "which column the discharge-records query lacked"}

    def redcap(rng: random.Random) -> dict[str, Any]:
        f = f"nyha_v{rng.randint(2, 9)}"
        line = ('{"error": "The following values in the parameter \\"fields\\" are not valid: \'' + f + '\'"}')
        return {"tool": "redcap_api", "args": {"content": "record", "format": "json", "fields": ["record_id", f]},
                "fail": [line], "ok": ['[{"record_id": "' + _sid(rng) + '", "' + f + '": "2"}]'], "value": line,
                "query": "which field name the REDCap export rejected"}

    def sas(rng: random.Random) -> dict[str, Any]:
        var = rng.choice(["AESEVN", "LBSTRESU", "DTHDTC_C", "HOSPDUR"])
        line = f"ERROR: Variable {var} has been defined as both character and numeric."
        fail = [f"{rng.randint(10, 99)}   data work.merged;", f"{rng.randint(100, 199)}     merge work.a work.b;",
                line, "NOTE: The SAS System stopped processing this step because of errors.",
                "WARNING: The data set WORK.MERGED may be incomplete."]
        ok = [f"NOTE: There were {rng.randint(300, 2000)} observations read from the data set WORK.A.",
              f"NOTE: The data set WORK.MERGED has {rng.randint(300, 2000)} observations and 31 variables."]
        return {"tool": "shell", "args": {"command": "sas -sysin partner/import_vr05.sas -log logs/import_vr05.log "
                                                     "&& grep -nE 'ERROR|WARNING|NOTE: The data' logs/import_vr05.log"},
                "fail": fail, "ok": ok, "value": line, "query": "which variable broke the partner's SAS merge",
                "pre": _sas_log}

    def push(rng: random.Random) -> dict[str, Any]:
        repo = f"hf-cohort-{rng.choice(['analysis', 'pipeline', 'dash'])}"
        line = f"error: failed to push some refs to 'gitlab.aosp.bo.it:cardio/{repo}.git'"
        fail = [f"To gitlab.aosp.bo.it:cardio/{repo}.git", " ! [rejected]        main -> main (fetch first)", line,
                "hint: Updates were rejected because the remote contains work that you do not have locally."]
        ok = [f"To gitlab.aosp.bo.it:cardio/{repo}.git", f"   {_hexs(rng, 7)}..{_hexs(rng, 7)}  main -> main"]
        return {"tool": "git", "args": {"args": ["push", "origin", "main"]}, "fail": fail, "ok": ok, "value": line,
                "query": "what the push to the hospital GitLab answered"}

    def mutate(rng: random.Random) -> dict[str, Any]:
        col = rng.choice(["lvef_pct_num", "crea_umol", "nyha_num", "bmi_calc"])
        m = rng.randint(1200, 4800)
        line = f"! `{col}` must be size {m} or 1, not {m - rng.randint(1, 40)}."
        fail = ["Error in `mutate()`:", f"ℹ In argument: `{col} = as.numeric(str_remove({col[:4]}_raw, \"%\"))`.",
                line, "Run `rlang::last_trace()` to see where the error occurred."]
        ok = [f"# A tibble: {rng.randint(1200, 4800)} × 14", "✔ no NA introduced by coercion"]
        return {"tool": "r", "args": {"code": "source('R/clean_lb.R'); lb <- clean_lb(raw_lb); glimpse(lb)"},
                "fail": fail, "ok": ok, "value": line, "query": "which derived column failed in mutate()"}

    return [testthat, join, sqlcol, redcap, sas, push, mutate]


def _finding_makers() -> list[Maker]:
    def unit(rng: random.Random) -> dict[str, Any]:
        d = f"first_seen={_date(rng)}"
        line = f"  >> unit switch: site=FE04 analyte=CREA from=mg/dL to=umol/L {d}"
        return {"tool": "sql", "args": {"query": "SELECT site, analyte, unit, MIN(result_dt) AS first_seen FROM "
                                                 "lab.results_cardio GROUP BY site, analyte, unit"},
                "line": line, "value": d, "query": "when Ferrara's creatinine switched units", "pre": _sql_table,
                "meaning": "so every creatinine from Ferrara after that date is in µmol/L and needs dividing by 88.4"}

    def fu(rng: random.Random) -> dict[str, Any]:
        v = f"{rng.randint(1, 3)}.{rng.randint(10, 99)} years"
        line = f"median follow-up (reverse KM): {v} [95% CI {rng.randint(1, 2)}.{rng.randint(10, 99)}-...]"
        return {"tool": "r", "args": {"code": "prodlim::prodlim(Hist(time, status) ~ 1, data = adtte, reverse = "
                                              "TRUE) |> summary()"},
                "line": line, "value": v, "query": "the cohort's median follow-up",
                "meaning": "that is long enough for the 12-month endpoint in every site"}

    def dups(rng: random.Random) -> dict[str, Any]:
        v = f"{rng.randint(110, 900)} rows share (patient_key, adm_date)"
        return {"tool": "sql", "args": {"query": "SELECT COUNT(*) FROM (SELECT patient_key, adm_date, COUNT(*) c "
                                                 "FROM sdo.ricoveri_cardio GROUP BY patient_key, adm_date "
                                                 "HAVING COUNT(*) > 1) d"},
                "line": f"-- duplicate admissions: {v}", "value": v, "query": "how many duplicated admissions exist",
                "meaning": "those are transfers between wards, the same admission split in two"}

    def tz(rng: random.Random) -> dict[str, Any]:
        v = f"Etc/GMT-{rng.choice([1, 2])}"
        return {"tool": "shell", "args": {"command": "Rscript -e 'Sys.timezone(); Sys.getenv(\"TZ\")'"},
                "line": f"[1] \"{v}\"", "value": v, "query": "the time zone the R server actually runs in",
                "meaning": "that's the root cause of the dates shifting by one day around midnight"}

    def pct(rng: random.Random) -> dict[str, Any]:
        v = f"'%' in {rng.randint(40, 700)} records"
        return {"tool": "r", "args": {"code": "raw_echo |> filter(str_detect(lvef_raw, '%')) |> count(site)"},
                "line": f"# LVEF stored as text with {v} (MO02 and PR03)", "value": v, "pre": _r_tibble,
                "query": "how many echo records store LVEF with a percent sign",
                "meaning": "that's why LVEF came out NA for part of Modena and Parma"}

    def walltime(rng: random.Random) -> dict[str, Any]:
        v = f"{rng.randint(11, 48)}m {rng.randint(10, 59)}s"
        return {"tool": "shell", "args": {"command": "Rscript -e 'targets::tar_meta(fields = seconds) |> "
                                                     "dplyr::summarise(total = sum(seconds))'"},
                "line": f"pipeline wall time: {v} (adae is most of it)", "value": v,
                "query": "how long the full pipeline takes",
                "meaning": "too slow for a nightly run, adae is the one to optimise"}

    def hr(rng: random.Random) -> dict[str, Any]:
        a = rng.randint(60, 95)
        v = f"HR 0.{a} (95% CI 0.{a - rng.randint(8, 15)}–0.{min(99, a + rng.randint(5, 12))})"
        return {"tool": "r", "args": {"code": "broom::tidy(cox_fit, exponentiate = TRUE, conf.int = TRUE) |> "
                                              "filter(term == 'sglt2TRUE')"},
                "line": f"sglt2 at baseline: {v}", "value": v, "pre": _r_cox, "query": "the hazard ratio for baseline SGLT2 inhibitors",
                "meaning": "a protective association, though it's observational and the CI is wide"}

    def miss(rng: random.Random) -> dict[str, Any]:
        v = f"missing {rng.randint(12, 48)}.{rng.randint(0, 9)}%"
        return {"tool": "r", "args": {"code": "naniar::miss_var_summary(adsl) |> head(8)"},
                "line": f"nt_probnp_bl {v} at baseline", "value": v,
                "query": "how much baseline NT-proBNP is missing",
                "meaning": "too much for complete cases, it has to go into the imputation model"}

    def batchsize(rng: random.Random) -> dict[str, Any]:
        v = f"batch_size: {rng.choice([50, 75, 150, 250])}"
        return {"tool": "read_file", "args": {"path": "config/redcap.yml"},
                "line": f"  {v}   # records per API call", "value": v, "pre": _yaml,
                "query": "how many records the REDCap export requests per call",
                "meaning": "that's why the export times out on the big sites, each call is too large"}

    return [unit, fu, dups, tz, pct, walltime, hr, miss, batchsize]


def _tool_identifier_makers() -> list[Maker]:
    def commit(rng: random.Random) -> dict[str, Any]:
        v = _hexs(rng, 10)
        return {"tool": "git", "args": {"args": ["log", "-1", "--format=%h %s", "--abbrev=10"]},
                "line": f"{v} freeze: validated export for the interim", "value": v,
                "query": "the commit that froze the validated export"}

    def exportid(rng: random.Random) -> dict[str, Any]:
        v = f"exp_{_hexs(rng, 8)}"
        return {"tool": "redcap_api", "args": {"content": "fileRepository", "action": "export", "folder": "interim"},
                "line": f'{{"doc_id": {rng.randint(400, 999)}, "export_id": "{v}", "status": "complete"}}',
                "value": v, "query": "the id of the interim REDCap export"}

    def snap(rng: random.Random) -> dict[str, Any]:
        v = f"SNAP_CARD_{rng.randint(100, 999)}"
        return {"tool": "sql", "args": {"query": "EXEC dwh.usp_current_snapshot @area = 'cardio'"},
                "line": f"snapshot_name: {v}   created_by: etl_nightly", "value": v,
                "query": "the warehouse snapshot the extract was taken from"}

    def job(rng: random.Random) -> dict[str, Any]:
        v = f"jobid={rng.randint(300000, 899999)}"
        return {"tool": "shell", "args": {"command": "sbatch --parsable jobs/bootstrap_cox.slurm"},
                "line": f"Submitted batch job {v}", "value": v, "query": "the cluster job running the bootstrap"}

    def record(rng: random.Random) -> dict[str, Any]:
        v = f"HFX-{rng.randint(10000, 99999)}"
        return {"tool": "redcap_api", "args": {"content": "record", "filterLogic": "[lvef_bl] > 80"},
                "line": f'[{{"record_id": "{v}", "lvef_bl": "{rng.randint(81, 99)}", "site": "MO02"}}]', "value": v,
                "query": "the record with an impossible baseline LVEF"}

    def bundle(rng: random.Random) -> dict[str, Any]:
        v = f"bundle-{_hexs(rng, 6)}.tar.zst"
        return {"tool": "shell", "args": {"command": "make transfer-bundle"},
                "line": f"created dist/{v} (aggregates only)", "value": v, "pre": _ls,
                "query": "the name of the transfer bundle for the sponsor"}

    return [commit, exportid, snap, job, record, bundle]


def _file_makers() -> list[Maker]:
    def make(rng: random.Random) -> dict[str, Any]:
        stem = rng.choice(STEMS)
        form = rng.choice(["R/derive_{}.R", "tests/testthat/test-{}.R", "sql/pull_{}.sql", "shiny/modules/mod_{}.R",
                           "reports/{}.qmd"])
        v = form.format(stem)
        return {"value": v, "stem": stem, "query": f"the file where the {stem.replace('_', ' ')} work was written"}
    return [make]


# --- filler text -------------------------------------------------------------------------------------------------

def _r_tibble(rng: random.Random, size: int) -> list[str]:
    n = rng.randint(800, 5200)
    lines = [f"# A tibble: {n:,} × 9", "   USUBJID    SITEID   AGE SEX   LVEF_BL NYHA_BL RFSTDTC    LBTESTCD LBSTRESN",
             "   <chr>      <chr>  <int> <chr>   <dbl> <chr>   <date>     <chr>       <dbl>"]
    total, i = 0, 1
    while total < size:
        t = rng.choice(LAB_TESTS)
        line = (f"{i:>2} {_sid(rng)}  {rng.choice(SITES)}     {rng.randint(41, 93)} {rng.choice('MF')}        "
                f"{rng.randint(15, 65)} {rng.choice(['II', 'III', 'IV', 'I'])}     {_date(rng)} {t[0]:<9} "
                f"{rng.uniform(t[2], t[3]):8.2f}")
        lines.append(line)
        total += len(line)
        i += 1
    lines.append(f"# ℹ {n - i:,} more rows")
    return lines


def _r_cox(rng: random.Random, size: int) -> list[str]:
    lines = ["Call:", "coxph(formula = Surv(time_hf, event_hf) ~ age_s + sex + lvef_bl + nyha_bl + egfr_bl + "
             "strata(site), data = adtte)", "",
             f"  n= {rng.randint(1800, 4200)}, number of events= {rng.randint(300, 1100)} ", "",
             "                 coef exp(coef) se(coef)      z Pr(>|z|)    "]
    total = 0
    terms = ["age_s", "sexM", "lvef_bl", "nyha_blIII", "nyha_blIV", "egfr_bl", "hgb_bl", "diabetesTRUE", "af_blTRUE",
             "copdTRUE", "bmi_bl", "sbp_bl", "k_bl", "na_bl", "beta_blTRUE", "acei_arbTRUE"]
    while total < size:
        for term in terms:
            c = rng.uniform(-0.6, 0.7)
            line = f"{term:<16} {c:7.4f}   {2.718 ** c:7.4f}  {rng.uniform(0.01, 0.2):7.4f} {rng.uniform(-6, 6):6.3f} " \
                   f"{rng.uniform(0, 1):8.5f}"
            lines.append(line)
            total += len(line)
        lines += ["---", "Signif. codes:  0 '***' 0.001 '**' 0.01 '*' 0.05 '.' 0.1 ' ' 1", "",
                  f"Concordance= {rng.uniform(0.6, 0.78):.3f}  (se = 0.0{rng.randint(10, 99)} )",
                  f"Likelihood ratio test= {rng.uniform(40, 300):.1f}  on {len(terms)} df,   p=<2e-16", ""]
        total += 200
    return lines


def _r_tests(rng: random.Random, size: int) -> list[str]:
    lines = _r_test_progress(rng, size)
    lines += ["", "══ Results ═════════════════════════════════════════",
              f"Duration: {rng.uniform(8, 90):.1f} s", "", f"[ FAIL 0 | WARN {rng.randint(0, 6)} | SKIP "
              f"{rng.randint(0, 3)} | PASS {rng.randint(150, 600)} ]"]
    return lines


def _r_test_progress(rng: random.Random, size: int) -> list[str]:
    ctx = ("clean_ae", "clean_lb", "clean_dm", "utils_dates", "derive_adsl", "derive_adtte", "validate_rules",
           "pseudonymise", "import_redcap", "tables_baseline")
    lines = ["✔ | F W  S  OK | Context"]
    total = 0
    while total < size:
        c = rng.choice(ctx)
        ok = rng.randint(4, 60)
        w = rng.choice([" ", " ", "1", "2"])
        line = f"✔ |   {w}  {rng.choice([' ', '1'])} {ok:>3} | {c} [{rng.uniform(0.05, 3.2):.1f}s]"
        lines.append(line)
        total += len(line)
        if w != " " and rng.random() < 0.5:
            lines.append(f"── Warning (test-{c}.R:{rng.randint(10, 300)}:{rng.randint(3, 9)}): "
                         "coercion in date parsing ──")
            lines.append(f"{rng.randint(1, 30)} failed to parse.")
            total += 90
    return lines


def _targets_run(rng: random.Random, size: int) -> list[str]:
    return _targets_progress(rng, size) + [f"▶ ended pipeline [{rng.uniform(20, 400):.1f} seconds]"]


def _targets_progress(rng: random.Random, size: int) -> list[str]:
    lines = []
    total = 0
    while total < size:
        t = rng.choice(TARGETS)
        if rng.random() < 0.35:
            line = f"✔ skipped target {t}"
        else:
            lines.append(f"▶ dispatched target {t}")
            line = f"● built target {t} [{rng.uniform(0.05, 40):.2f} seconds, {rng.randint(2, 900)}.{rng.randint(1, 9)} kB]"
        lines.append(line)
        total += len(line) + 24
    return lines


def _sql_table(rng: random.Random, size: int) -> list[str]:
    lines = ["site  analyte    unit     n_results  min_dt      max_dt      pct_missing",
             "----- ---------- -------- ---------- ----------- ----------- -----------"]
    total = 0
    while total < size:
        t = rng.choice(LAB_TESTS)
        line = f"{rng.choice(SITES)}  {t[0]:<10} {t[1]:<8} {rng.randint(200, 48000):>10} {_date(rng)}  {_date(rng)}  " \
               f"{rng.uniform(0, 30):>10.2f}"
        lines.append(line)
        total += len(line)
    lines += ["", f"({len(lines) - 2} rows affected)", "", f"Completion time: {_date(rng)}T{_clock(rng)}:"
              f"{rng.randint(10, 59)}.{rng.randint(1000000, 9999999)}+01:00"]
    return lines


def _sql_adm(rng: random.Random, size: int) -> list[str]:
    lines = ["patient_key   adm_date    dis_date    ward        drg   los", "------------  ----------  ----------  "
             "----------  ----  ---"]
    total = 0
    while total < size:
        line = f"{rng.randint(10 ** 9, 10 ** 10 - 1)}    {_date(rng)}  {_date(rng)}  " \
               f"{rng.choice(['CARD-UTIC', 'CARD-DEG', 'MED-INT', 'NEFRO', 'GERIATR']):<10}  " \
               f"{rng.choice(['127', '544', '089', '316', '291'])}   {rng.randint(1, 40):>3}"
        lines.append(line)
        total += len(line)
    lines += ["", f"({len(lines) - 2} rows affected)", f"Total execution time: 00:00:0{rng.randint(1, 9)}."
              f"{rng.randint(100, 999)}"]
    return lines


def _redcap_records(rng: random.Random, size: int) -> list[str]:
    lines = ["["]
    total = 0
    while total < size:
        rec = {"record_id": _sid(rng), "redcap_event_name": rng.choice(["baseline_arm_1", "followup_6_months_arm_1",
                                                                        "followup_1_year_arm_1"]),
               "redcap_repeat_instrument": rng.choice(["", "adverse_events", "hospitalisations"]),
               "aeterm": rng.choice(AE_TERMS), "aestdtc": _date(rng), "aesev": str(rng.randint(1, 3)),
               "aeser": rng.choice(["0", "1"]), "lvef_bl": str(rng.randint(15, 65)),
               "adverse_events_complete": rng.choice(["0", "1", "2"])}
        line = "  " + json.dumps(rec) + ","
        lines.append(line)
        total += len(line)
    lines[-1] = lines[-1].rstrip(",")
    lines.append("]")
    return lines


def _redcap_log(rng: random.Random, size: int) -> list[str]:
    lines = ["timestamp,username,action,details"]
    total = 0
    users = ("gbianchi_dm", "crc_modena2", "crc_parma1", "api_hfcohort", "mrossi_monitor")
    while total < size:
        line = f"{_date(rng)} {_clock(rng)},{rng.choice(users)},Update record {_sid(rng)} " \
               f"({rng.choice(['Baseline', 'Follow-up 6 months', 'Follow-up 1 year'])}),\"" \
               f"{rng.choice(['aesev', 'lvef_bl', 'nyha_bl', 'crea_bl', 'death_date'])} = '{rng.randint(1, 90)}'\""
        lines.append(line)
        total += len(line)
    return lines


def _r_script(rng: random.Random, size: int) -> list[str]:
    blocks = [
        ["clean_ae <- function(raw) {", "  raw |>", "    filter(!is.na(aeterm)) |>",
         "    mutate(", "      aestdt = parse_partial_date(aestdtc),", "      aeendt = parse_partial_date(aeendtc),",
         "      aedur = as.integer(aeendt - aestdt) + 1L,", "      aesev = factor(aesev, levels = 1:3, labels = c('MILD',"
         " 'MODERATE', 'SEVERE'))", "    ) |>", "    arrange(usubjid, aestdt)", "}"],
        ["harmonise_units <- function(lb, map = lab_unit_map) {", "  lb |>",
         "    left_join(map, by = c('siteid', 'lbtestcd', 'lborresu')) |>",
         "    mutate(lbstresn = lborresn * factor, lbstresu = std_unit) |>", "    select(-factor, -std_unit)", "}"],
        ["list(", "  tar_target(raw_redcap, export_redcap(cfg), cue = tar_cue('always')),",
         "  tar_target(dm, clean_dm(raw_redcap)),", "  tar_target(ae, clean_ae(raw_redcap)),",
         "  tar_target(lb, clean_lb(raw_dwh_lab) |> harmonise_units()),", "  tar_target(adsl, derive_adsl(dm, lb)),",
         "  tar_target(adtte, derive_adtte(adsl, raw_dwh_adm)),", "  tar_quarto(val_report, 'reports/validation_summary"
         ".qmd')", ")"],
        ["test_that('dates before consent are flagged', {", "  x <- tibble(usubjid = 'BO01-0001', rfstdtc = "
         "as.Date('2020-02-01'),", "              aestdt = as.Date('2020-01-15'))",
         "  expect_equal(flag_pre_consent(x)$flag, TRUE)", "})"],
        ["fit_cox <- function(adtte) {", "  coxph(Surv(time_hf, event_hf) ~ age_s + sex + lvef_bl + nyha_bl +",
         "          egfr_bl + strata(site), data = adtte, ties = 'efron')", "}"],
        ["# validation rules, one row per check", "rules <- validator(", "  age_range = in_range(AGE, 18, 105),",
         "  lvef_range = in_range(LVEF_BL, 5, 80),", "  ae_order = AEENDT >= AESTDT,",
         "  death_after_start = is.na(DTHDT) | DTHDT >= RFSTDT", ")"],
        ["pseudonymise <- function(df, key = Sys.getenv('PSEUDO_KEY')) {",
         "  stopifnot(nzchar(key))", "  df |> mutate(pid = digest::hmac(key, patient_key, 'sha256')) |>",
         "    select(-patient_key, -cf)", "}"],
    ]
    lines: list[str] = []
    total = 0
    while total < size:
        b = rng.choice(blocks)
        lines += b + [""]
        total += sum(len(x) for x in b)
    return lines


def _sas_log(rng: random.Random, size: int) -> list[str]:
    lines = [f"1          The SAS System           {_clock(rng)} Monday, {rng.randint(1, 28)} October 2024", ""]
    total, ln = 0, rng.randint(1, 40)
    while total < size:
        ds = rng.choice(["AE", "LB", "DM", "VS", "HOSP", "MERGED"])
        chunk = [f"{ln:<5}  data work.{ds.lower()}_vr;", f"{ln + 1:<5}    set raw.{ds.lower()};",
                 f"NOTE: There were {rng.randint(100, 9000)} observations read from the data set RAW.{ds}.",
                 f"NOTE: The data set WORK.{ds}_VR has {rng.randint(100, 9000)} observations and "
                 f"{rng.randint(8, 40)} variables.", "NOTE: DATA statement used (Total process time):",
                 f"      real time           {rng.uniform(0, 2):.2f} seconds",
                 f"      cpu time            {rng.uniform(0, 1):.2f} seconds", ""]
        if rng.random() < 0.25:
            chunk.insert(2, "WARNING: Multiple lengths were specified for the variable USUBJID by input data set(s)."
                            " This can cause truncation of data.")
        lines += chunk
        total += sum(len(x) for x in chunk)
        ln += rng.randint(3, 12)
    return lines


def _val_report(rng: random.Random, size: int) -> list[str]:
    lines = [f"# Validation run {_date(rng)} {_clock(rng)}", "", "| rule | site | fails | pass | status |",
             "|---|---|---:|---:|---|"]
    rules = ("age_range", "lvef_range", "ae_order", "death_after_start", "crea_units", "visit_window", "dup_subject",
             "consent_date", "nyha_missing", "hosp_overlap")
    total = 0
    while total < size:
        f = rng.randint(0, 40)
        line = f"| {rng.choice(rules)} | {rng.choice(SITES)} | {f} | {rng.randint(200, 3000)} | " \
               f"{'OK' if f == 0 else 'OPEN'} |"
        lines.append(line)
        total += len(line)
    return lines


def _git_log(rng: random.Random, size: int) -> list[str]:
    msgs = ("clean_ae: handle partial end dates", "adtte: censor at last contact", "dashboard: KM by NYHA",
            "lb: map HGB units for PR03", "tests: more date edge cases", "redcap: retry on 504",
            "validation: add hosp_overlap rule", "sql: extract adm with ward codes", "renv: update lockfile",
            "docs: README for the steering data", "tables: baseline by site", "pseudo: rotate map table name")
    lines = []
    total = 0
    while total < size:
        line = f"{_hexs(rng, 7)} {_date(rng)} {rng.choice(['Giulia', 'Davide', 'agent', 'Lorenzo'])}  " \
               f"{rng.choice(msgs)}"
        lines.append(line)
        total += len(line)
    return lines


def _git_diff(rng: random.Random, size: int) -> list[str]:
    path = rng.choice(FILLER_PATHS)
    lines = [f"diff --git a/{path} b/{path}", f"index {_hexs(rng, 7)}..{_hexs(rng, 7)} 100644", f"--- a/{path}",
             f"+++ b/{path}"]
    total = 0
    while total < size:
        body = _r_script(rng, 200)
        ln = rng.randint(10, 300)
        lines.append(f"@@ -{ln},{len(body)} +{ln},{len(body) + 1} @@")
        for x in body:
            lines.append(rng.choice([" ", " ", " ", "+", "-"]) + x)
        total += sum(len(x) for x in body) + 20
    return lines


def _ls(rng: random.Random, size: int) -> list[str]:
    lines = [f"total {rng.randint(1000, 90000)}"]
    total = 0
    names = ("redcap_export", "dwh_lab", "dwh_adm", "vr05_ae", "vr05_lb", "dm", "ae", "lb", "adsl", "adtte")
    while total < size:
        line = f"-rw-r----- 1 gbianchi cardio_hf {rng.randint(1000, 90000000):>9} {rng.choice(['Oct', 'Nov', 'Sep'])}" \
               f" {rng.randint(1, 28):>2} {_clock(rng)} {rng.choice(names)}_{rng.randint(1, 60):02d}." \
               f"{rng.choice(['csv', 'rds', 'parquet', 'sas7bdat'])}"
        lines.append(line)
        total += len(line)
    return lines


def _yaml(rng: random.Random, size: int) -> list[str]:
    lines: list[str] = []
    total = 0
    while total < size:
        site = rng.choice(SITES)
        chunk = [f"{site}:", f"  name: {SITE_NAMES[site]}", f"  redcap_dag: dag_{site.lower()}",
                 f"  lab_units: {rng.choice(['conventional', 'SI', 'mixed'])}",
                 f"  enrolment_start: {_date(rng)}", f"  expected_n: {rng.randint(80, 900)}",
                 f"  contact: {rng.choice(PEOPLE)}", "  shiny_port: 3838", "  dwh_port: 1433", ""]
        lines += chunk
        total += sum(len(x) for x in chunk)
    return lines


OUTPUTS: dict[str, list[tuple[Callable[[random.Random, int], list[str]], Callable[[random.Random], dict[str, Any]]]]]
OUTPUTS = {
    "shell": [(_targets_run, lambda r: {"command": "Rscript -e 'targets::tar_make()'"}),
              (_ls, lambda r: {"command": f"ls -l data/{r.choice(['raw', 'derived', 'incoming'])}/"}),
              (_sas_log, lambda r: {"command": "cat partner/logs/import_vr05.log"}),
              (_val_report, lambda r: {"command": "Rscript R/run_validation.R --site all"})],
    "r": [(_r_tibble, lambda r: {"code": f"adlb |> filter(SITEID == '{r.choice(SITES)}') |> print(n = 40)"}),
          (_r_cox, lambda r: {"code": "summary(cox_fit)"}),
          (_r_tests, lambda r: {"code": "devtools::test()"})],
    "sql": [(_sql_table, lambda r: {"query": "SELECT site, analyte, unit, COUNT(*) n_results, MIN(result_dt), "
                                             "MAX(result_dt) FROM lab.results_cardio GROUP BY site, analyte, unit"}),
            (_sql_adm, lambda r: {"query": f"SELECT TOP {r.choice([200, 500, 1000])} patient_key, adm_date, "
                                           "dis_date, ward, drg, los FROM sdo.ricoveri_cardio ORDER BY adm_date"})],
    "read_file": [(_r_script, lambda r: {"path": r.choice(FILLER_PATHS[:10])}),
                  (_yaml, lambda r: {"path": "config/study.yml"}),
                  (_sas_log, lambda r: {"path": "partner/logs/import_vr05.log"}),
                  (_val_report, lambda r: {"path": "reports/validation_latest.md"})],
    "redcap_api": [(_redcap_records, lambda r: {"content": "record", "format": "json",
                                                "forms": [r.choice(FORMS)], "rawOrLabel": "raw"}),
                   (_redcap_log, lambda r: {"content": "log", "format": "csv", "beginTime": f"{_date(r)} 00:00"})],
    "git": [(_git_log, lambda r: {"args": ["log", "--format=%h %as %an  %s", "-n", "60"]}),
            (_git_diff, lambda r: {"args": ["diff", "HEAD~1"]})],
}

USER_SHORT = ("ok", "go", "ok dai", "perfetto", "vai", "sì", "yes pls", "ok, avanti", "👍", "fine, go on",
              "ok grazie", "aspetta... ok vai", "ok procedi", "sure", "va bene")
USER_ASKS = (
    "can you rerun the validation on {site}? the monitor says there are new queries",
    "aspetta, prima fammi vedere il log di {site}",
    "mi fai vedere quante AE gravi abbiamo per centro?",
    "the KM curve for NYHA IV looks weird, can you check the censoring?",
    "ok now the baseline table by site, pls",
    "controlla che il join con le SDO non duplichi niente",
    "{person} asks if the dashboard numbers match the report of last week, can you compare?",
    "rifai l'export REDCap del form {form}, solo quello",
    "why is {site} slower than everyone else in the pipeline?",
    "scusa, domanda stupida: il campo nyha_bl è obbligatorio in REDCap?",
    "Buongiorno. Dovremmo preparare il materiale per lo steering di {day}, partiamo dai numeri di arruolamento.",
    "could you look at the units of creatinine again, {person} isn't convinced",
    "ho parlato con {person}, vogliono anche i dati di {site} nel report. fattibile?",
    "quick one: how many patients have no follow-up at all?",
    "pls check the git status before we tag anything",
    "riguarda i test, ieri sera uno era flaky",
    "the partner sent a new SAS log, can you read it and tell me if it's worse than last time?",
    "can you check teh lab pull from the DWH? something's off with {site}",
    "ok e adesso? cosa manca per il freeze?",
    "meeting at {clock} with {person}, I need the AE summary before then",
    "mmm non mi torna il numero di decessi, ricontrolla",
    "Let's look at the dashboard module for the overview tab, it crashes on empty sites",
    "hai visto la mail di {person}? chiede i numeri di arruolamento per {site} entro le {clock}",
    "can we get the median NT-proBNP by NYHA class? just a quick table",
    "il monitor ha riaperto 4 query su {site}, guardiamo cosa c'è nel form {form}",
    "Gentile collega... scherzo :) mi prepari il riassunto delle AE per {person}?",
    "rerun the tests pls, I merged Davide's branch",
    "quanti pazienti hanno LVEF mancante al basale? per centro",
    "something broke in the nightly run, can you look at the targets log?",
    "the dashboard shows {k} deaths for {site} but REDCap says more, why?",
    "ok ho cambiato idea sull'ordine, prima guardiamo le SDO e poi il lab",
    "puoi ricontrollare il mapping delle unità? {person} dice che {site} manda ancora mg/dL",
    "is the partner's AE file the same as last month or did they resend it?",
    "mi serve un grafico KM per sesso, solo per me, non per il comitato",
    "run the validation again and tell me only what's new since {clock}",
    "aspetta, non committare ancora",
    "dimmi in due righe cosa hai cambiato oggi",
    "can you diff today's REDCap export against last week's? only counts per form",
)
AGENT_TALK = (
    "Sure. From the last run: {n} subjects in adsl, {k} of them still without a baseline echo, mostly at {site}.",
    "Sì, è fattibile. Servono circa {m} minuti per rifare la pipeline; ti avviso quando ha finito.",
    "Good question. In the current code the censoring date is the last contact in REDCap; the SDO only adds "
    "admissions, not contacts. If you want I can show you the lines (R/derive_adtte.R:{line}).",
    "Va bene, aspetto. Intanto non tocco niente.",
    "Ok. Two options: (a) we fix it in the cleaning step, (b) we send it back as a query to {site}. I'd go with (b), "
    "since it's source data.",
    "Noted. I'll hold off until you say go.",
    "Ciao! Ho dato un'occhiata alla struttura del repo: pipeline in `_targets.R`, funzioni in `R/`, test in "
    "`tests/testthat`. Da dove partiamo?",
    "Quick answer: {n} records, {k} flagged. The details are in the validation report from {clock}.",
    "Capito. Lo faccio dopo il giro di test, così non mescoliamo le cose.",
    "In short: today I touched the AE cleaning and the lab unit map, reran the validation ({k} open findings, "
    "down from {k2}) and nothing else.",
)
AGENT_CLOSERS = (
    "Anything else on this, or shall I move on?", "I'll leave it there for now.", "Dimmi se procedo.",
    "Next step would be the validation rerun.", "Fammi sapere.", "I can dig further if you want.",
    "Let me know how you want to proceed.", "",
)
FIRST_PARAS = (
    "Buongiorno! Ho appena finito la call con {person}.",
    "ok back from the ward meeting.",
    "allora, ho letto il tuo riepilogo.",
    "Quick update: the monitor visit at {site} went fine, 3 queries left.",
    "scusa il ritardo, riunione infinita.",
    "Two things before I forget.",
    "Ciao, riprendiamo da dove eravamo rimasti.",
)
AGENT_INTROS = (
    "Let me check that first.", "Looking at it now.", "I'll pull the current numbers.", "Controllo subito.",
    "Running it again to be sure.", "First the data, then I'll answer.", "On it — reading the relevant files.",
    "Ok. I'll look at the pipeline state first.", "Vediamo il log.",
    "I'll start from the validation report, it's the quickest way to see what changed.",
    "Prima controllo lo stato del repo.", "Let me read the relevant function before changing it.",
    "Checking the warehouse side first, then REDCap.", "Un attimo, rileggo il codice.",
)
AGENT_FINALS = (
    "Done. The rerun built {n} targets in {s:.1f} s; nothing changed downstream of {target}.\n\nIf you want, I can "
    "also regenerate the dashboard data now, or leave it for tonight's run.",
    "Ecco il quadro. {site} ha {n} righe in più rispetto a ieri, tutte del form {form} (R/clean_ae.R:{line} le "
    "filtra già).\n\nOpzioni:\n1. rifare solo {target}\n2. rifare tutta la pipeline (~{m} min)\n\nDimmi tu.",
    "Summary: {n} records checked, {k} open findings, mostly visit windows at {site}. The monitor's list from "
    "{clock} overlaps with {k2} of them.\n\n| site | open |\n|---|---|\n| {site} | {k} |\n| {site2} | {k2} |",
    "I looked at it. The numbers match the report ({n} patients, {k} events); the difference {person} saw comes "
    "from the date of the export, not from the code.",
    "Tutto ok: {n} test passati, {k} warning (parsing date parziali, noti). Ho lasciato {target} com'era.",
    "Two things came out of this. The join is fine ({n} rows in, {n} out), and {site} has {k} admissions with a "
    "discharge before the admission, which I'd send to the monitor rather than fix.\n\nWant me to draft the query "
    "text?",
    "Done — `git status` is clean apart from the report. For reference the last run finished at {clock}.",
    "Here's where we are.\n\n{todo}\n\nNext I'd pick the first open item unless you want something else first.",
    "Fatto. {n} righe controllate, nessuna differenza con l'export di ieri.\n\n{todo}",
    "The AE file from Verona has {n} rows; {k} of them have no end date, which matches what they wrote on {day}.",
    "Ok, the KM estimate at 12 months is {pct}% for NYHA III and lower for NYHA IV; the curves are in "
    "`output/km_nyha.png`.",
    "Ho rifatto la query: {n} ricoveri dal 2019, {k} con reparto di dimissione mancante. Il resto è coerente.",
    "Tests are green again ({n} expectations). The flaky one was the timezone test, it depended on the clock "
    "({clock}).",
    "The REDCap export took {s:.1f} s for {n} records; nothing rejected. Port 8443 was slow again but it went "
    "through.",
    "Risultato: {k} pazienti senza follow-up, {k2} dei quali a {site}. Sono quasi tutti arruolati dopo il "
    "{day2}, quindi è atteso.",
    "Found it. `{target}` was being invalidated because the config changed ({json}); after reverting it builds in "
    "{s:.1f} s again.",
)
AGENT_MIDS = (
    "That worked. {n} rows, next I'm checking the units.", "Ok, the export is there. Now the log.",
    "Interesting — {site} has {k} rows more than expected. Looking at why.", "Fine so far; running the tests.",
    "Il log è pulito. Passo alla query sul DWH.", "Nothing unusual there. Checking git next.",
    "The export has {n} records; {k} of them are from {site}, which is more than last week. Comparing with the log.",
    "Ok, {n} righe. Adesso guardo se il join le moltiplica.",
    "That's the config I expected ({json}). Now the pipeline itself.",
    "Two sites still send creatinine in mg/dL, {site} and {site2}. Checking the harmonised table next.",
    "Hm, {k} warnings, all date parsing. Let me see which files they come from.",
    "Tests first, then I'll touch the code.",
    "La tabella torna: {n} pazienti, come nel report delle {clock}. Vado avanti con i test.",
    "I want to see the diff before rerunning anything.",
    "Nothing from {site} since {clock}; reading the REDCap log to see why.",
)


def _fill(rng: random.Random, template: str, progress: float = 0.5) -> str:
    site, site2 = rng.sample(SITES, 2)
    return template.format(
        site=site, site2=site2, person=rng.choice(PEOPLE), form=rng.choice(FORMS), day=rng.choice(
            ["giovedì", "lunedì", "next week", "Friday"]), clock=_clock(rng), n=rng.randint(40, 4800),
        k=rng.randint(1, 40), k2=rng.randint(1, 12), s=rng.uniform(4, 300), target=rng.choice(TARGETS),
        line=rng.randint(20, 320), m=rng.randint(6, 40), day2=f"{rng.randint(1, 28)} {rng.choice(['marzo', 'maggio'])}",
        json=json.dumps({"site": site, "cutoff_rule": "last_contact", "workers": rng.randint(1, 4)}),
        pct=rng.randint(55, 92), todo=_todo(progress))


def _todo(progress: float) -> str:
    done = int(progress * len(TODO))
    return "Todo:\n" + "\n".join(f"- [{'x' if i < done else ' '}] {t}" for i, t in enumerate(TODO))


# --- pasted documents ------------------------------------------------------------------------------------------

def _pasted(rng: random.Random, kind: str) -> str:
    n = rng.randint(100, 999)
    month = rng.choice(["marzo", "aprile", "maggio", "giugno", "settembre"])
    if kind == "ethics":
        return (f"Comitato Etico Territoriale Area Vasta Emilia Centro\nProt. n. {rng.randint(10000, 99999)} del "
                f"{rng.randint(1, 28)} {month} 2024\nOggetto: parere favorevole allo studio osservazionale "
                f"multicentrico sullo scompenso cardiaco, emendamento sostanziale n. {rng.randint(1, 3)}\n\n"
                "Il Comitato esprime parere favorevole alle seguenti condizioni:\n"
                "1. Si richiede di trasmettere la relazione annuale entro 30 giorni dalla scadenza.\n"
                "2. Non è consentito il trasferimento di dati identificativi al promotore.\n"
                f"3. Please notify the Committee of any protocol deviation affecting more than {rng.randint(5, 20)} "
                "patients.\n4. Do not contact patients who withdrew consent, including for vital status.\n"
                "Il presente parere è valido per 24 mesi.\n\nLa Segreteria Tecnico-Scientifica")
    if kind == "sap":
        return (f"9.{rng.randint(2, 6)} Statistical analysis of the primary endpoint\n"
                "The primary endpoint will be analysed in the full analysis set. Time to event will be measured "
                "from enrolment. Patients without an event will be censored at the last known contact.\n"
                f"The model will be stratified by centre and adjusted for the {rng.randint(8, 14)} covariates "
                "listed in Table 4. Do not include post-baseline covariates. Missing covariates will be handled as "
                "described in Section 9.8.\nAll tests will be two-sided at alpha = 0.05. Please refer to Annex C for "
                "the competing-risk analysis.")
    if kind == "monitor":
        rows = "\n".join(f"DQ-{rng.randint(1000, 4999)} | {_sid(rng)} | {rng.choice(FORMS)} | "
                         f"{rng.choice(['start date after end date', 'value out of range', 'missing unit', 'visit outside window'])}"
                         f" | Please correct or confirm" for _ in range(rng.randint(5, 12)))
        return (f"Data queries - monitoring visit {rng.randint(1, 28)} {month}\nquery | subject | form | issue | "
                f"action\n{rows}\nDo not close queries without the investigator's signature.")
    if kind == "dpo":
        return (f"Da: Ufficio Protezione Dati\nOggetto: R: trasferimento dati studio scompenso (rif. {n})\n\n"
                "Gentile dottoressa,\nin risposta alla Sua richiesta Le confermo che i dati a livello di singolo "
                "paziente non possono lasciare l'infrastruttura aziendale. Please use the secure transfer area for "
                "aggregated tables only. Do not send any file by e-mail, not even if encrypted.\n"
                f"Per tabelle con celle piccole si rimanda alla procedura P-{rng.randint(10, 99)}.\nCordiali saluti")
    if kind == "partner":
        log = "\n".join(_sas_log(rng, 500)[:12])
        return (f"Hi, here is the log of our last run (VR05, {rng.randint(1, 28)} {month}). Please re-send the "
                f"format catalog, ours is from version {rng.randint(2, 4)}. Do not overwrite our AE file, we are "
                f"still fixing {rng.randint(3, 30)} records.\n\n{log}\n\nBest, Verona team")
    return (f"Review of MR !{rng.randint(10, 99)} (Davide)\n- R/clean_lb.R:{rng.randint(20, 200)} please don't use "
            "ifelse() on dates, it drops the class\n- R/derive_adtte.R: the censoring date ignores deaths recorded "
            f"only in the SDO ({rng.randint(3, 40)} patients?)\n- tests: add a case for partial dates\n"
            "Do not merge until the lintr warnings are gone.")


PASTED_KINDS = ("ethics", "sap", "monitor", "dpo", "partner", "review")
PASTED_INTROS = ("guarda cosa mi è arrivato:", "FYI, from this morning:", "incollo qui sotto:",
                 "this just came in, have a look", "ecco il testo:")


# --- the plan of the session -------------------------------------------------------------------------------------

@dataclass
class _Turn:
    start: int
    size: int
    rounds: list[int]  # calls per round

    def round_starts(self) -> list[int]:
        out, a = [], self.start + 1
        for c in self.rounds:
            out.append(a)
            a += 1 + c
        return out


@dataclass
class _Ev:
    kind: str  # a fact kind, or "stale" / "rerun"
    data: dict[str, Any]
    index: int = -1
    fact: Any = None
    extra: dict[str, Any] = field(default_factory=dict)


def _turn_sizes(rng: random.Random, total: int, mean: float) -> list[int]:
    """Turn sizes (2, or 4 and more) adding up to ``total``; short turns first, so the first rules come early."""
    sizes = [2, 4]
    rem = total - 6
    extra_mean = max(0.5, (mean - 0.36) / 0.82 - 4)
    early_cap, early_end = max(4, total // 40), total * 0.15
    while rem:
        s = 2 if rng.random() < 0.18 else 4 + min(int(rng.expovariate(1 / extra_mean)), int(3 * extra_mean) + 6)
        if total - rem < early_end:
            s = min(s, early_cap)
        if s >= rem:
            s = rem
        elif rem - s in (1, 3):
            s = rem  # rem is 2 or at least 4, so it is a valid turn on its own
        sizes.append(s)
        rem -= s
    return sizes


def _rounds(rng: random.Random, size: int) -> list[int]:
    rem, out = size - 2, []
    while rem:
        r = rng.choices((2, 3, 4), (0.45, 0.35, 0.2))[0]
        if r > rem:
            r = rem
        elif rem - r == 1:
            r = r - 1 if r > 2 else 3
        out.append(r - 1)
        rem -= r
    return out


class _Values:
    """Planted values and stale values, none inside another."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def take(self, rng: random.Random, makers: list[Maker], start: int) -> dict[str, Any]:
        for attempt in range(60):
            d = makers[(start + attempt // 4) % len(makers)](rng)  # new parameters first, then the next maker
            vals = [d["value"]] + ([d["stale"]] if d.get("stale") else [])
            if len(vals) == 2 and (vals[0] in vals[1] or vals[1] in vals[0]):
                continue
            if all(not (v in s or s in v) for v in vals for s in self.seen):
                self.seen += vals
                return d
        raise RuntimeError("could not draw a fresh value")


ITALIAN_RULES = ("schema", "prefix", "pskey", "partial", "decimals", "grey")
CONDITIONAL_RULES = ("sapsign", "host")


def _rule_deck(rng: random.Random) -> list[Maker]:
    """The user's rules, Italian and English in turn, a conditional one among the first three."""
    makers = _instr_makers()
    it = [m for m in makers if m.__name__ in ITALIAN_RULES]
    en = [m for m in makers if m.__name__ not in ITALIAN_RULES]
    rng.shuffle(it)
    rng.shuffle(en)
    first, second = (it, en) if rng.random() < 0.5 else (en, it)
    deck = [m for pair in zip(first, second) for m in pair] + first[len(second):] + second[len(first):]
    if not any(m.__name__ in CONDITIONAL_RULES for m in deck[:3]):
        j = next(j for j, m in enumerate(deck) if m.__name__ in CONDITIONAL_RULES)
        deck[2], deck[j] = deck[j], deck[2]
    return deck


def _deck(rng: random.Random, makers: list[Maker]) -> list[Maker]:
    deck = makers[:]
    rng.shuffle(deck)
    return deck


def make_session(seed: int = 1, messages: int = 400) -> Session:
    """A clinical-data session of exactly ``messages`` messages with ``per_kind(messages)`` facts of each kind."""
    if messages < MIN_MESSAGES:
        raise ValueError(f"a clinical session needs at least {MIN_MESSAGES} messages, not {messages}")
    return _Builder(random.Random(seed), messages, seed).build()


class _Builder:
    def __init__(self, rng: random.Random, n: int, seed: int) -> None:
        self.rng, self.n, self.seed = rng, n, seed
        self.k = per_kind(n)
        self.lo = int(0.03 * n) + 1
        self.hi = int(0.88 * n)

    # -- planning ------------------------------------------------------------------------------------------------
    def _plan(self) -> None:
        rng, n, k = self.rng, self.n, self.k
        n_user_events = 5.5 * k + max(1, k // 3)
        mean = min(11.0, max(4.2, n / (n_user_events * 1.6 / 0.85)))
        self.turns: list[_Turn] = []
        start = 1
        for s in _turn_sizes(rng, n - 2, mean):
            self.turns.append(_Turn(start, s, _rounds(rng, s)))
            start += s
        self.user_of: dict[int, _Turn] = {t.start: t for t in self.turns}
        self.tool_slots: dict[int, int] = {}  # tool message index -> its round's assistant index
        self.round_calls: dict[int, int] = {}
        for t in self.turns:
            for a, c in zip(t.round_starts(), t.rounds):
                self.round_calls[a] = c
                for j in range(c):
                    self.tool_slots[a + 1 + j] = a
        self.user_ev: dict[int, _Ev] = {}
        self.tool_ev: dict[int, _Ev] = {}
        self.file_ev: dict[int, _Ev] = {}
        self.used_rounds: set[int] = set()

    def _pick_user(self, target: float, lo: int, hi: int) -> int:
        best = None
        for u in self.user_of:
            if lo <= u <= hi and u not in self.user_ev and (best is None or abs(u - target) < abs(best - target)):
                best = u
        if best is None:
            raise RuntimeError("no free user turn")
        return best

    def _pick_tool(self, target: float, lo: int, hi: int, want_single: bool = False) -> int:
        best = None
        if want_single:
            cands = [a for a, c in self.round_calls.items() if c == 1]
        else:
            cands = list(self.tool_slots)
        for i in cands:
            a = i if want_single else self.tool_slots[i]
            if lo <= i <= hi and a not in self.used_rounds and (best is None or abs(i - target) < abs(best - target)):
                best = i
        if best is None:
            raise RuntimeError("no free tool slot")
        return best

    def _place(self) -> None:
        rng, n, k = self.rng, self.n, self.k
        vals = _Values()
        kinds = [kd for kd in KINDS for _ in range(k)]
        # the user's first two rules come first, the rest of the slots are shuffled over the session
        rest = kinds[:]
        rest.remove("instruction")
        if k > 1:
            rest.remove("instruction")
        rng.shuffle(rest)
        # corrections and revised decisions need room for what they replace: keep them off the very first slots
        span_lo, span_hi = 0.045 * n, 0.86 * n
        slots = [span_lo + (span_hi - span_lo) * (j + 0.5) / len(rest) for j in range(len(rest))]
        early = [j for j, kd in enumerate(rest[:3]) if kd in ("correction", "decision")]
        for j in early:
            swap = next(x for x in range(len(rest) - 1, 2, -1) if rest[x] not in ("correction", "decision"))
            rest[j], rest[swap] = rest[swap], rest[j]
        instr_deck = _rule_deck(rng)
        adopt_deck = _deck(rng, _adopted_makers())
        corr_deck = _deck(rng, _correction_makers())
        dec_deck = _deck(rng, _decision_makers())
        stand_deck = _deck(rng, _standing_decisions())
        plan_deck = _deck(rng, _plan_makers())
        uid_deck = _deck(rng, _user_identifier_makers())
        tid_deck = _deck(rng, _tool_identifier_makers())
        err_deck = _deck(rng, _error_makers())
        find_deck = _deck(rng, _finding_makers())
        file_deck = _file_makers()
        counters: dict[str, int] = {kd: 0 for kd in KINDS}
        resolved_left = max(1, k // 2) if k == 1 else min(k - 1, max(1, k // 2))
        ident_user_first = rng.random() < 0.5
        far_toggle = rng.random() < 0.5

        def next_of(kind: str) -> int:
            c = counters[kind]
            counters[kind] += 1
            return c

        # first two instructions
        first_rules = [(0.05 * n, int(n / 10)), (0.11 * n, int(n / 7))][: 2 if k > 1 else 1]
        after_first_rules = self.lo
        for target, hi in first_rules:
            u = self._pick_user(target, self.lo, hi)
            after_first_rules = max(after_first_rules, u + 1)
            d = vals.take(rng, instr_deck, next_of("instruction"))
            self.user_ev[u] = _Ev("instruction", d, u, extra={"form": rng.choice(["para", "alone"])})
        # corrections and revised decisions first (they need a free earlier turn), then the rest
        order = sorted(range(len(rest)), key=lambda j: rest[j] not in ("correction", "decision"))
        dec_slots = [j for j in range(len(rest)) if rest[j] == "decision"]
        roomy = [j for j in dec_slots if slots[j] > self.lo + 30] or dec_slots
        revised = set(rng.sample(roomy, min(len(roomy), max(1, k // 3))))
        for j in order:
            kind, target = rest[j], slots[j]
            if kind == "instruction":
                c = next_of("instruction")
                adopted = c >= 2 and c % 4 == 3
                d = vals.take(rng, adopt_deck, c // 4) if adopted else vals.take(rng, instr_deck, c)
                u = self._pick_user(target, after_first_rules, self.hi)  # the first two rules stay the first
                self.user_ev[u] = _Ev("instruction", d, u, extra={
                    "form": "adopted" if adopted else rng.choice(["para", "para", "alone", "middle"])})
            elif kind == "correction":
                d = vals.take(rng, corr_deck, next_of("correction"))
                u = self._pick_user(target, self.lo + 12, self.hi)
                far_toggle = not far_toggle
                if far_toggle and u - self.lo > 130:
                    gap_hi = u - 101
                    s_target = max(self.lo, u - rng.randint(120, 420))
                else:
                    gap_hi = u - 2
                    s_target = max(self.lo, u - rng.randint(6, 50))
                self.user_ev[u] = _Ev("correction", d, u, extra={"form": rng.randrange(7)})
                s = self._pick_user(s_target, self.lo, gap_hi)
                self.user_ev[s] = _Ev("stale", d, s, extra={"of": "correction", "form": rng.randrange(4)})
                self.user_ev[u].extra["stale_index"] = s
            elif kind == "decision":
                revise = j in revised
                u = self._pick_user(target, self.lo + (12 if revise else 0), self.hi)
                if revise:
                    d = vals.take(rng, dec_deck, next_of("decision"))
                    s = self._pick_user(max(self.lo, u - rng.randint(15, 200)), self.lo, u - 2)
                    self.user_ev[s] = _Ev("stale", d, s, extra={"of": "decision", "form": rng.randrange(4)})
                    self.user_ev[u] = _Ev("decision", d, u, extra={"stale_index": s, "form": rng.randrange(4)})
                else:
                    next_of("decision")
                    d = vals.take(rng, stand_deck, counters["decision"])
                    self.user_ev[u] = _Ev("decision", d, u, extra={"form": rng.randrange(4)})
            elif kind == "plan":
                d = vals.take(rng, plan_deck, next_of("plan"))
                u = self._pick_user(target, self.lo, self.hi)
                self.user_ev[u] = _Ev("plan", d, u, extra={"form": rng.randrange(3)})
            elif kind == "identifier":
                c = next_of("identifier")
                if (c % 2 == 0) == ident_user_first:
                    d = vals.take(rng, uid_deck, c)
                    u = self._pick_user(target, self.lo, self.hi)
                    self.user_ev[u] = _Ev("identifier", d, u, extra={"form": rng.randrange(3)})
                else:
                    d = vals.take(rng, tid_deck, c)
                    self._tool_event("identifier", d, target)
            elif kind == "finding":
                d = vals.take(rng, find_deck, next_of("finding"))
                self._tool_event("finding", d, target)
            elif kind == "error":
                d = vals.take(rng, err_deck, next_of("error"))
                ev = self._tool_event("error", d, target)
                if resolved_left > 0:
                    try:
                        r = self._pick_tool(ev.index + rng.randint(10, 70), ev.index + 4, self.n - 4)
                    except RuntimeError:  # no later run fits (tiny sessions): a later error gets resolved instead
                        continue
                    resolved_left -= 1
                    self.used_rounds.add(self.tool_slots[r])
                    rerun = _Ev("rerun", d, r)
                    self.tool_ev[r] = rerun
                    ev.extra["rerun"] = rerun
            elif kind == "file":
                d = vals.take(rng, file_deck, next_of("file"))
                a = self._pick_tool(target, self.lo, self.hi, want_single=True)
                self.used_rounds.add(a)
                self.file_ev[a] = _Ev("file", d, a, extra={"tool": rng.choice(["write_file", "write_file",
                                                                                "edit_file"])})

    def _tool_event(self, kind: str, d: dict[str, Any], target: float) -> _Ev:
        i = self._pick_tool(target, self.lo, self.hi)
        self.used_rounds.add(self.tool_slots[i])
        ev = _Ev(kind, d, i)
        self.tool_ev[i] = ev
        return ev

    # -- rendering -------------------------------------------------------------------------------------------------
    def build(self) -> Session:
        self._plan()
        self._place()
        rng = self.rng
        self.msgs: list[Message] = []
        self.facts: list[Fact] = []
        self.pasted: list[tuple[int, str]] = []
        self.spent = 0
        self.nontool_spent = 0
        self.nontool_count = 0
        self.tool_total = len(self.tool_slots)
        self.tool_done = 0
        self.budget = CHARS_PER_MESSAGE * self.n
        self.unused_tools = list(TOOLS)
        self.call_no = 0
        self.last_ask = ""
        self.paste_deck = list(PASTED_KINDS)
        rng.shuffle(self.paste_deck)
        self._emit({"role": "system", "content": self._system()})
        for turn in self.turns:
            self._turn(turn)
        self._emit({"role": "user", "content": rng.choice(
            ["ok, per oggi basta. domani riprendiamo dalla tabella 1", "thanks, let's stop here for today",
             "perfetto, grazie. ci sentiamo dopo lo steering"])})
        assert len(self.msgs) == self.n
        self.facts.sort(key=lambda f: f.index)
        return Session(messages=self.msgs, facts=self.facts, seed=self.seed, pasted=self.pasted)

    def _system(self) -> str:
        return ("You are an analytics agent working with the clinical data manager of a multicentre observational "
                "heart-failure cohort at a university hospital in Bologna. The data live in REDCap (one project per "
                "centre), in the hospital data warehouse (SQL Server) and in SAS files sent by a partner centre. The "
                "analysis code is an R targets pipeline in a git repository on the hospital GitLab; a Shiny "
                "dashboard serves the steering committee.\n\nTools: shell, r, sql (read access to the warehouse), "
                "read_file, write_file, edit_file, redcap_api (export only) and git. Record-level data never leaves "
                "the hospital network. Explain what you find, report numbers precisely, and ask before anything "
                "irreversible.")

    def _emit(self, m: Message) -> int:
        self.msgs.append(m)
        size = len(text_of(m))
        self.spent += size
        if m["role"] != "tool":
            self.nontool_spent += size
            self.nontool_count += 1
        return len(self.msgs) - 1

    def _tool_len(self) -> int:
        remaining_tools = max(1, self.tool_total - self.tool_done)
        remaining_other = self.n - len(self.msgs) - remaining_tools
        avg_other = self.nontool_spent / max(1, self.nontool_count)
        want = (self.budget - self.spent - remaining_other * avg_other) / remaining_tools
        f = self.rng.choice((0.2, 0.35, 0.6, 0.8, 1.0, 1.0, 1.2, 1.5, 1.9, 2.45))
        return int(min(24000, max(160, want * f)))

    def _call(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        self.call_no += 1
        if name in self.unused_tools:
            self.unused_tools.remove(name)
        return {"id": f"call_{self.call_no:04d}_{self.rng.getrandbits(24):06x}", "type": "function",
                "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)}}

    def _turn(self, turn: _Turn) -> None:
        rng = self.rng
        u_ev = self.user_ev.get(turn.start)
        idx = self._emit({"role": "user", "content": self._user_text(turn, u_ev)})
        pending: list[str] = []  # what the next assistant message says about the previous one
        if u_ev is not None:
            pending.append(self._ack(u_ev))
            self._record(u_ev, idx)
        for a, c in zip(turn.round_starts(), turn.rounds):
            f_ev = self.file_ev.get(a)
            intro = rng.choice(AGENT_MIDS) if pending == [] and rng.random() < 0.4 else rng.choice(AGENT_INTROS)
            text = "\n\n".join(pending + [_fill(rng, intro)])
            pending = []
            if f_ev is not None:
                call, out = self._file_call(f_ev)
                i = self._emit({"role": "assistant", "content": text, "tool_calls": [call]})
                self._record(f_ev, i)
                self._tool_msg(call, out)
                pending.append(rng.choice([f"Written `{f_ev.data['value']}`; it parses and it is wired in.",
                                           f"`{f_ev.data['value']}` is in place. I haven't run it yet.",
                                           f"Creato `{f_ev.data['value']}`, lo aggancio al resto dopo."]))
                continue
            calls, outs = [], []
            for j in range(c):
                ev = self.tool_ev.get(a + 1 + j)
                call, out = self._event_call(ev) if ev is not None else self._filler_call(c)
                calls.append(call)
                outs.append((ev, out))
            self._emit({"role": "assistant", "content": text, "tool_calls": calls})
            for call, (ev, out) in zip(calls, outs):
                i = self._tool_msg(call, out)
                if ev is not None:
                    self._record(ev, i)
                    pending.append(self._comment(ev))
        if pending and turn.rounds:
            final = rng.choice(AGENT_CLOSERS)
        elif not turn.rounds:
            final = _fill(rng, AGENT_TALK[6] if turn.start == 1 else rng.choice(AGENT_TALK))
        else:
            final = _fill(rng, rng.choice(AGENT_FINALS), len(self.msgs) / self.n)
        self._emit({"role": "assistant", "content": "\n\n".join([p for p in pending + [final] if p])})

    def _tool_msg(self, call: dict[str, Any], out: str) -> int:
        self.tool_done += 1
        return self._emit({"role": "tool", "tool_call_id": call["id"], "name": call["function"]["name"],
                           "content": out})

    def _filler_call(self, c: int) -> tuple[dict[str, Any], str]:
        rng = self.rng
        if self.unused_tools:  # every tool shows up, even in the smallest session
            name = rng.choice(self.unused_tools)
        else:
            name = rng.choices(TOOLS, (3, 3, 2, 3, 1, 1, 2, 1.5))[0]
        size = self._tool_len()
        if name in ("write_file", "edit_file"):
            path = rng.choice(FILLER_PATHS)
            body = "\n".join(_r_script(rng, max(200, size // 2)))
            if name == "write_file":
                args = {"path": path, "content": body}
                out = f"wrote {len(body):,} bytes to {path}"
            else:
                ln = rng.randint(10, 300)
                args = {"path": path, "old_string": body[: len(body) // 2], "new_string": body[len(body) // 2:]}
                out = f"edited {path}: 1 replacement at line {ln} ({path}:{ln})"
            return self._call(name, args), out
        gen, argf = rng.choice(OUTPUTS[name])
        return self._call(name, argf(rng)), "\n".join(gen(rng, size))

    def _event_call(self, ev: _Ev) -> tuple[dict[str, Any], str]:
        d, rng = ev.data, self.rng
        size = self._tool_len()
        if ev.kind == "rerun":
            body = d["ok"]
            return self._call(d["tool"], d["args"]), "\n".join(body)
        pre = d["pre"](rng, size) if "pre" in d else []
        if ev.kind == "error":
            return self._call(d["tool"], d["args"]), "\n".join(pre + d["fail"])
        return self._call(d["tool"], d["args"]), "\n".join(pre + [d["line"]])

    def _file_call(self, ev: _Ev) -> tuple[dict[str, Any], str]:
        rng, d = self.rng, ev.data
        path, stem = d["value"], d["stem"]
        size = self._tool_len()
        if path.endswith(".sql"):
            body = (f"-- pull for {stem}\nSELECT p.patient_key, l.result_dt, l.analyte, l.result_num, l.unit\n"
                    "FROM lab.results_cardio l\nJOIN cohort.patients p ON p.patient_key = l.patient_key\n"
                    "WHERE l.result_dt >= p.enrol_date - 30;\n")
        else:
            fn = stem
            body = (f"# {stem}: derivation agreed with the user\n{fn} <- function(adsl, lb) {{\n  adsl |>\n"
                    "    left_join(lb, by = 'USUBJID', relationship = 'one-to-many') |>\n"
                    "    group_by(USUBJID) |>\n    summarise(value = first(LBSTRESN), .groups = 'drop')\n}\n")
        body = body + "\n".join(_r_script(rng, max(100, size // 3)))
        if ev.extra["tool"] == "write_file":
            call = self._call("write_file", {"path": path, "content": body})
            out = f"wrote {len(body):,} bytes to {path}"
        else:
            call = self._call("edit_file", {"path": path, "old_string": "", "new_string": body, "create": True})
            out = f"created {path} ({body.count(chr(10)) + 1} lines)"
        return call, out

    def _record(self, ev: _Ev, index: int) -> None:
        d = ev.data
        if ev.kind in ("stale", "rerun"):
            return
        if ev.kind == "error":
            rerun = ev.extra.get("rerun")
            ev.fact = Fact("error", d["value"], index, d["query"], resolved=rerun.index if rerun else None)
        elif ev.kind in ("correction", "decision") and "stale_index" in ev.extra:
            ev.fact = Fact(ev.kind, d["value"], index, d["query"], stale=d["stale"],
                           stale_index=ev.extra["stale_index"])
        else:
            ev.fact = Fact(ev.kind, d["value"], index, d["query"])
        assert index == ev.index, (ev.kind, index, ev.index)
        self.facts.append(ev.fact)

    # -- texts -----------------------------------------------------------------------------------------------------
    def _user_text(self, turn: _Turn, ev: _Ev | None) -> str:
        rng = self.rng
        if ev is None:
            if turn.start == 1:
                return ("Ciao! Oggi lavoriamo sul dataset dello studio scompenso: export REDCap, pulizia AE e "
                        "laboratorio, poi i numeri per lo steering. Il repo è già clonato in ~/hf-cohort.")
            r = rng.random()
            if r < 0.08:
                kind = self.paste_deck[len(self.pasted) % len(self.paste_deck)]
                doc = _pasted(rng, kind)
                tail = rng.choice(["che ne pensi?", "what do we need to change?", "leggi e dimmi", "thoughts?"])
                self.pasted.append((len(self.msgs), doc))
                return f"{rng.choice(PASTED_INTROS)}\n\n{doc}\n\n{tail}"
            if r < 0.3:
                return rng.choice(USER_SHORT)
            ask = rng.choice(USER_ASKS)
            while ask == self.last_ask:
                ask = rng.choice(USER_ASKS)
            self.last_ask = ask
            return _fill(rng, ask)
        d = ev.data
        if ev.kind == "instruction":
            form = ev.extra["form"]
            if form == "adopted":
                doc = _pasted(rng, d["doc"])
                self.pasted.append((len(self.msgs), doc))
                return f"{rng.choice(PASTED_INTROS)}\n\n{doc}\n\n{d['text']}"
            if form == "para":
                return f"{_fill(rng, rng.choice(FIRST_PARAS))}\n\n{d['text']}."
            if form == "middle":
                return (f"{_fill(rng, rng.choice(USER_ASKS))}\n\nE poi, {d['text']}.\n\n"
                        f"{_fill(rng, rng.choice(USER_ASKS))}")
            return d["text"][0].upper() + d["text"][1:] + "."
        if ev.kind == "stale":
            return self._stale_text(ev)
        if ev.kind == "correction":
            return self._correction_text(ev)
        if ev.kind == "decision":
            v = d["value"]
            lines = [f"ok dai, andiamo con {v}.", f"Decided: let's go with {v}.", f"allora scegliamo {v}, fine.",
                     f"Having slept on it: {v}. Let's go with that."]
            if "stale_index" in ev.extra:
                lines = [f"anzi no, cambio idea: niente {d['stale']}, andiamo con {v}.",
                         f"I'm changing my mind on this one — {v} instead of {d['stale']}.",
                         f"ripensandoci, {v}. Lo so che avevo detto {d['stale']}, scusa.",
                         f"Actually let's revise that: {v}, not {d['stale']}."]
            return d["text"] if "text" in d else lines[ev.extra["form"] % len(lines)]
        if ev.kind == "plan":
            pre = ["", "ok, ragioniamo un attimo.\n\n", "Before we dive in, here's the plan.\n\n"][ev.extra["form"]]
            return pre + d["text"]
        if ev.kind == "identifier":
            pre = ["", "btw, ", "una cosa: "][ev.extra["form"]]
            return pre + d["text"] + "."
        raise AssertionError(ev.kind)

    def _stale_text(self, ev: _Ev) -> str:
        d, form = ev.data, ev.extra["form"]
        s = d["stale"]
        if ev.extra["of"] == "decision":
            options = [f"per ora andiamo con {s}, poi vediamo.", f"Let's go with {s} for now.",
                       f"ok, {s}. decided, moving on.", f"I'd say {s}, at least for the interim."]
            return options[form]
        options = [f"{d['thing'][0].upper() + d['thing'][1:]} is {s}, you'll need it later.",
                   f"{d['cosa'][0].upper() + d['cosa'][1:]} è {s}, segnatelo.",
                   f"Per la cronaca: {d['cosa']} è {s}. Poi ti spiego il resto.",
                   f"fyi {d['thing']} is {s}"]
        return options[form]

    def _correction_text(self, ev: _Ev) -> str:
        rng, d = self.rng, ev.data
        s, v = d["stale"], d["value"]
        options = [f"no wait, {d['thing']} is {v}, not {s}. My bad.",
                   f"no scusa, era {v}! {d['cosa'][0].upper() + d['cosa'][1:]}, intendo.",
                   f"I gave you the wrong one earlier — {d['thing']} is {v}.",
                   f"mi sono sbagliata, {d['cosa']} è {v}, non quello che ti ho detto",
                   f"non {s} ma {v} ({d['cosa']})",
                   f"the other one, sorry: {v}. that's {d['thing']}",
                   f"lascia perdere {s}, {d['cosa']} è {v}"]
        line = options[ev.extra["form"]]
        if rng.random() < 0.4:  # in the middle of a long message
            return (f"{_fill(rng, rng.choice(FIRST_PARAS))} {_fill(rng, rng.choice(USER_ASKS))}\n\n{line}\n\n"
                    f"{_fill(rng, rng.choice(USER_ASKS))}\n\nPoi ricontrolla i numeri di {rng.choice(SITES)}.")
        return line

    def _ack(self, ev: _Ev) -> str:
        d, rng = ev.data, self.rng
        if ev.kind == "stale":
            return f"Noted: {d['stale']}."
        if ev.kind == "correction":
            return rng.choice([f"Got it — {d['value']}, not {d['stale']}. I'll use that from now on.",
                               f"Ok, corretto: {d['value']}."])
        if ev.kind == "instruction":
            return rng.choice([f"Understood, I'll stick to that ({d['value']}).", "Capito, lo tengo a mente.",
                               "Noted — that's a standing rule from now on."])
        if ev.kind == "decision":
            return rng.choice([f"Ok, {d['value']} it is.", "Fine, I'll set it up that way."])
        if ev.kind == "plan":
            return rng.choice(["Makes sense. I'll follow that order and tell you when each step is done.",
                               "Ok, chiaro il piano. Parto dal primo punto.",
                               "Sounds good; I'll keep the steps in the todo list."])
        return rng.choice([f"Thanks — noted {d['value']}.", f"Segnato: {d['value']}.", "Noted, thanks."])

    def _comment(self, ev: _Ev) -> str:
        d, rng = ev.data, self.rng
        v = d["value"]
        if ev.kind == "error":
            return rng.choice([f"That failed:\n\n    {v}\n\nLooking at the cause before touching anything.",
                               f"Errore: `{v}`. Non tocco niente finché non capisco da dove viene.",
                               f"It breaks here:\n\n> {v}\n\nThe rest of the output is just the consequence of "
                               "that line.",
                               f"Red. The relevant line is `{v}`; I'll look at the inputs first."])
        if ev.kind == "rerun":
            return rng.choice(["The same command passes now; the failure is gone.",
                               "Rerun: green, the error line is gone.",
                               "Stesso comando, ora passa. Risolto."])
        if ev.kind == "finding":
            return rng.choice([f"Found it: {v} — {d['meaning']}.", f"Key number: {v}. In practice, {d['meaning']}.",
                               f"Ecco il punto: {v}. Cioè: {d['meaning']}.",
                               f"This is the interesting line ({v}): {d['meaning']}."])
        return rng.choice([f"For the record, the id is {v}.", f"Note the id {v}, we'll need it for the log.",
                           f"Id da segnare: {v}."])
