"""Long sessions of a pricing actuary and a coding agent, with planted facts, for the fidelity bench.

A pricing actuary at a car-insurance company in São Paulo works with an agent on the tariff models in R: GLM and
GAM fits (coefficient tables, AIC, deviance), brms/Stan severity models (divergences, R-hat, ESS), chain-ladder
triangles printed as fixed-width tables, testthat runs, ``R CMD check``, renv, Quarto renders of the technical
note, psql pulls from the claims warehouse and the quarter's rate filing to SUSEP. The user writes Brazilian
Portuguese mixed with English, casually and sometimes curtly, and pastes mails, a SUSEP circular, the reinsurer's
treaty note, a peer review, a Slack thread and a CI log, all full of imperatives that are not theirs.

    from gen_actuary import make_session
    session = make_session(seed=1, messages=400)      # about 600k characters
    session = make_session(seed=1, messages=3000)     # about 4.7M characters
    for fact in session.facts:
        print(fact.kind, fact.index, fact.value, "|", fact.query)
    for index, text in session.pasted:                # what the user pasted rather than wrote
        assert text in session.messages[index]["content"]

``session.messages`` is an OpenAI chat (system prompt, user turns, assistant ``tool_calls`` answered at once by
``tool`` messages), ending on an assistant answer and a last user turn. ``session.facts`` holds
``per_kind(messages)`` facts of each of :data:`KINDS`, planted between 3% and 88% of the session: rules, corrections
(with the value they replace), decisions (a third of them revising an earlier choice), whole error lines (some
resolved by a later passing run of the same tool), files written, identifiers, findings and plans. A value occurs
first in its own message and afterwards only in the agent's answer about it; same seed, same bytes.
"""

from __future__ import annotations

import dataclasses
import json
import math
import random
from collections.abc import Callable
from typing import Any

from sessiongen import Fact, Message, Session, text_of

KINDS = ("instruction", "correction", "decision", "error", "file", "identifier", "finding", "plan")
TOOLS = ("r_run", "read_file", "write_file", "psql_query", "quarto_render", "git", "stan_fit", "testthat")
MIN_MESSAGES = 60
AFTER = 8  # messages after a fact's own that may repeat its value

__all__ = ["KINDS", "MIN_MESSAGES", "TOOLS", "make_session", "per_kind"]


def per_kind(messages: int) -> int:
    """Facts of each kind: 1 at 60 messages, 6 at 400, 12 at 3000, linear in between, then one more per 500."""
    if messages <= 400:
        k = 1 + 5 * (messages - 60) / 340
    elif messages <= 3000:
        k = 6 + 6 * (messages - 400) / 2600
    else:
        k = 12 + (messages - 3000) / 500
    return max(1, int(k + 0.5))


# --- vocabulary ---------------------------------------------------------------------------------------------------

PEOPLE = ("Fernanda", "Thiago", "Juliana", "Marcos", "Carla", "Rodrigo", "Patrícia", "Lucas", "Beatriz", "Gustavo")
REGIONS = ("SP-Capital", "SP-ABC", "SP-Interior", "SP-Litoral", "RJ-Capital", "RJ-Interior", "MG-BH", "MG-Interior",
           "PR-Curitiba", "RS-POA", "SC-Floripa", "BA-Salvador", "PE-Recife", "CE-Fortaleza", "DF-Brasilia",
           "GO-Goiania")
COVERAGES = ("casco", "rcf_dm", "rcf_dp", "app", "vidros", "assist24h")
MONTHS_PT = ("janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro",
             "novembro", "dezembro")
WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri")
FILLER_FILES = ("R/tarifa.R", "R/freq_glm.R", "R/sev_gam.R", "R/triangulo.R", "R/utils_base.R", "R/relatividades.R",
                "R/bonus_malus.R", "sql/base_freq.sql", "sql/base_sev.sql", "reports/nota_tecnica.qmd",
                "reports/_quarto.yml", "DESCRIPTION", "config.yml", "tests/testthat/test-tarifa.R",
                "tests/testthat/test-triangulo.R", "stan/sev_hier.stan", "renv.lock", "NEWS.md")
TEST_FILES = ("tarifa", "triangulo", "glm-freq", "gam-sev", "bonus", "relatividades", "utils-base", "exposicao",
              "nota-tecnica", "ibnr")


def _levels() -> tuple[str, ...]:
    names = ["(Intercept)"]
    names += [f"faixa_idade{a}" for a in ("18-21", "22-25", "26-30", "31-40", "41-50", "51-60", "61-70", "71+")]
    names += [f"regiao{r}" for r in REGIONS[1:]]
    names += [f"classe_bonus{c}" for c in range(1, 11)]
    names += [f"usoapp_{u}" for u in ("sim", "parcial")]
    names += [f"idade_veic{a}" for a in range(1, 16)]
    names += [f"marca_grp{m:02d}" for m in range(1, 25)]
    names += [f"cep3_{c:03d}" for c in range(10, 400, 3)]
    names += [f"sexo_cond{s}" for s in ("M", "NI")]
    names += [f"km_anual{k}" for k in ("10-20k", "20-30k", "30k+")]
    return tuple(names)


LEVELS = _levels()
SIGNIF = "Signif. codes:  0 ‘***’ 0.001 ‘**’ 0.01 ‘*’ 0.05 ‘.’ 0.1 ‘ ’ 1"

SYSTEM = (
    "You are a coding agent working in the `pricingSP` R package of the auto pricing team (Seguradora, São Paulo). "
    "Tools: r_run (R session, renv active), read_file, write_file, psql_query (claims warehouse `dw_sinistros`, "
    "read-only role), quarto_render, git, stan_fit (cmdstanr/brms on the pricing server), testthat. Keep the user "
    "informed, prefer small reproducible steps, report numbers exactly as the tools print them and never invent "
    "results. The user may write in Portuguese or English; answer in the language they use."
)


def _num(rng: random.Random, lo: float, hi: float, nd: int = 4) -> str:
    return f"{rng.uniform(lo, hi):.{nd}f}"


def _brl(x: int) -> str:
    return f"{x:,}".replace(",", ".")


def _hex(rng: random.Random, n: int) -> str:
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def _clock(rng: random.Random) -> str:
    return f"{rng.randint(8, 19):02d}:{rng.randint(0, 59):02d}"


def _fill(size: int, head: str, row: Callable[[], str], tail: str) -> str:
    parts = [head]
    total = len(head) + len(tail) + 2
    while total < size:
        r = row()
        parts.append(r)
        total += len(r) + 1
    parts.append(tail)
    return "\n".join(parts)


# --- tool outputs (rendered at the size the budget gives them) ------------------------------------------------------

def _glm_summary(rng: random.Random, size: int, family: str = "poisson") -> str:
    fam = {"poisson": "poisson(link = \"log\")", "gamma": "Gamma(link = \"log\")",
           "tweedie": "statmod::tweedie(var.power = 1.6, link.power = 0)"}[family]
    resp = {"poisson": "n_sin", "gamma": "sev_media", "tweedie": "custo_sin"}[family]
    head = (f"Call:\nglm(formula = {resp} ~ faixa_idade + regiao + classe_bonus + usoapp + idade_veic + marca_grp + "
            f"cep3 + offset(log(expo)), family = {fam}, data = base_{resp})\n\nCoefficients:\n"
            f"{'':<22}{'Estimate':>9}{'Std. Error':>11}{'z value':>9}{'Pr(>|z|)':>10}")
    start = rng.randrange(len(LEVELS) - 5)
    state = {"i": start}

    def row() -> str:
        name = LEVELS[state["i"] % len(LEVELS)]
        state["i"] += 1
        est = rng.gauss(0, 0.3)
        se = abs(rng.gauss(0.02, 0.015)) + 0.002
        z = est / se
        p = "< 2e-16" if abs(z) > 8 else f"{math.exp(-abs(z)):.2e}"
        stars = "***" if abs(z) > 3.3 else "**" if abs(z) > 2.6 else "*" if abs(z) > 2 else "." if abs(z) > 1.6 else ""
        return f"{name:<22}{est:>9.4f}{se:>11.4f}{z:>9.2f}{p:>10} {stars}"

    n = rng.randint(400_000, 1_900_000)
    dev = rng.uniform(2e5, 9e5)
    disp = "1" if family == "poisson" else _num(rng, 0.8, 3.5)
    tail = (f"---\n{SIGNIF}\n\n(Dispersion parameter for {family} family taken to be {disp})\n\n"
            f"    Null deviance: {dev * 1.04:.1f}  on {n}  degrees of freedom\n"
            f"Residual deviance: {dev:.1f}  on {n - 60}  degrees of freedom\nAIC: {dev * 1.46:.0f}\n\n"
            f"Number of Fisher Scoring iterations: {rng.randint(4, 9)}")
    return _fill(size, head, row, tail)


def _gam_summary(rng: random.Random, size: int) -> str:
    head = ("Family: Gamma \nLink function: log \n\nFormula:\nsev_media ~ s(idade_condutor, bs = \"cr\") + "
            "s(idade_veiculo) + te(lat, lon) + regiao + classe_bonus\n\nParametric coefficients:\n"
            f"{'':<22}{'Estimate':>9}{'Std. Error':>11}{'t value':>9}{'Pr(>|t|)':>10}")
    state = {"i": rng.randrange(40)}

    def row() -> str:
        if state["i"] % 35 == 34:
            state["i"] += 1
            return (f"\nApproximate significance of smooth terms:\n{'':<22}{'edf':>7}{'Ref.df':>8}{'F':>9}{'p-value':>9}\n"
                    f"s(idade_condutor)     {rng.uniform(3, 8):7.3f}{rng.uniform(5, 9):8.3f}{rng.uniform(20, 300):9.2f}  <2e-16 ***\n"
                    f"s(idade_veiculo)      {rng.uniform(2, 7):7.3f}{rng.uniform(4, 9):8.3f}{rng.uniform(5, 90):9.2f}  <2e-16 ***\n"
                    f"te(lat,lon)           {rng.uniform(12, 23):7.3f}{rng.uniform(16, 24):8.3f}{rng.uniform(2, 30):9.2f}  <2e-16 ***\n")
        name = LEVELS[state["i"] % len(LEVELS)]
        state["i"] += 1
        est = rng.gauss(0, 0.2)
        se = abs(rng.gauss(0.03, 0.01)) + 0.004
        return f"{name:<22}{est:>9.4f}{se:>11.4f}{est / se:>9.2f}{math.exp(-abs(est / se)):>10.2e}"

    tail = (f"---\n{SIGNIF}\n\nR-sq.(adj) =  {rng.uniform(0.01, 0.09):.4f}   Deviance explained = "
            f"{rng.uniform(3, 12):.1f}%\n-REML = {rng.uniform(1e6, 3e6):.4e}  Scale est. = {rng.uniform(0.9, 2.8):.4f}"
            f"  n = {rng.randint(60_000, 260_000)}")
    return _fill(size, head, row, tail)


def _triangle(rng: random.Random, size: int) -> str:
    parts: list[str] = []
    total = 0
    while total < size:
        cov = rng.choice(COVERAGES)
        first = rng.randint(2012, 2015)
        origins = list(range(first, 2024))
        nd = len(origins)
        lines = [f"> tri_{cov} <- as.triangle(base_tri_{cov}, origin = \"ano_acid\", dev = \"dev\", value = \"pago\")",
                 f"> tri_{cov}", "      dev", "origin" + "".join(f"{d:>12}" for d in range(1, nd + 1))]
        for i, o in enumerate(origins):
            v = rng.uniform(2e6, 9e6)
            cells = []
            for _ in range(nd - i):
                cells.append(f"{v:>12.0f}")
                v *= rng.uniform(1.01, 1.9) if len(cells) < 3 else rng.uniform(1.0, 1.06)
            lines.append(f"  {o}" + "".join(cells) + "".join(f"{'NA':>12}" for _ in range(i)))
        lines.append(f"> MackChainLadder(tri_{cov}, est.sigma = \"Mack\")")
        lines.append(f"{'':6}{'Latest':>14}{'Dev.To.Date':>12}{'Ultimate':>14}{'IBNR':>12}{'Mack.S.E':>12}{'CV(IBNR)':>10}")
        for o in origins:
            lat = rng.uniform(5e6, 4e7)
            dd = rng.uniform(0.55, 1.0)
            ib = lat / dd - lat
            lines.append(f"{o:<6}{lat:>14,.0f}{dd:>12.3f}{lat / dd:>14,.0f}{ib:>12,.0f}{ib * 0.2 + 1e4:>12,.0f}"
                         f"{rng.uniform(0.05, 0.9):>10.3f}")
        block = "\n".join(lines) + "\n"
        parts.append(block)
        total += len(block)
    return "\n".join(parts)


def _tibble(rng: random.Random, size: int) -> str:
    n = rng.randint(200_000, 1_800_000)
    head = (f"# A tibble: {n:,} × 9\n   apolice      ano_mes regiao        classe_bonus faixa_idade   expo n_sin"
            "  sev_media premio\n   <chr>        <chr>   <chr>                <int> <chr>        <dbl> <int>"
            "      <dbl>  <dbl>")
    state = {"i": 0}

    def row() -> str:
        state["i"] += 1
        return (f"{state['i']:>2} {rng.randint(10**9, 10**10 - 1):<12} 2023-{rng.randint(1, 12):02d} "
                f"{rng.choice(REGIONS):<13} {rng.randint(1, 10):>12} {rng.choice(('22-25', '31-40', '41-50', '61-70')):<11}"
                f" {rng.uniform(0.01, 1):6.3f} {rng.choice((0, 0, 0, 0, 1, 1, 2)):>5} {rng.uniform(900, 40000):10.2f}"
                f" {rng.uniform(1200, 9000):7.2f}")

    tail = f"# ℹ {n - 10:,} more rows\n# ℹ Use `print(n = ...)` to see more rows"
    return _fill(size, head, row, tail)


def _rcmd_check(rng: random.Random, size: int) -> str:
    steps = ("checking for file ‘pricingSP/DESCRIPTION’ ... OK", "checking extension type ... Package",
             "checking package namespace information ... OK", "checking package dependencies ... OK",
             "checking if this is a source package ... OK", "checking whether package ‘pricingSP’ can be installed ... OK",
             "checking installed package size ... OK", "checking DESCRIPTION meta-information ... OK",
             "checking top-level files ... OK", "checking for left-over files ... OK",
             "checking R files for non-ASCII characters ... OK", "checking whether the package can be loaded ... OK",
             "checking dependencies in R code ... OK", "checking S3 generic/method consistency ... OK",
             "checking Rd files ... OK", "checking Rd cross-references ... OK",
             "checking for missing documentation entries ... OK", "checking examples ... OK",
             "checking tests ...", "  Running ‘testthat.R’", "checking for unstated dependencies in ‘tests’ ... OK")
    head = f"══ Building ══════════════════════════════\nSetting env vars:\n• CFLAGS    : -Wall -pedantic\n• NOT_CRAN  : true\n── R CMD check ─────────────────── pricingSP 0.{rng.randint(3, 9)}.{rng.randint(0, 20)} ──"
    state = {"i": 0}

    def row() -> str:
        state["i"] += 1
        return f"✔  {steps[state['i'] % len(steps)]} [{rng.randint(1, 40)}s/{rng.randint(1, 44)}s]"

    tail = (f"── R CMD check results ──────────── pricingSP ────\nDuration: {rng.randint(2, 9)}m {rng.uniform(0, 59):.1f}s\n\n"
            "0 errors ✔ | 0 warnings ✔ | 1 note ✖\n❯ checking for future file timestamps ... NOTE\n  unable to verify current time")
    return _fill(size, head, row, tail)


def _renv_status(rng: random.Random, size: int) -> str:
    pkgs = ("ChainLadder", "mgcv", "statmod", "tweedie", "brms", "cmdstanr", "data.table", "dplyr", "DBI", "RPostgres",
            "quarto", "gt", "ggplot2", "testthat", "here", "glue", "tidyr", "purrr", "readr", "arrow", "posterior")
    head = "> renv::status()\nThe following package(s) are in an inconsistent state:\n\n package        installed recorded used"
    state = {"i": 0}

    def row() -> str:
        state["i"] += 1
        p = pkgs[state["i"] % len(pkgs)]
        return f" {p:<14} {rng.choice(('y', 'y', 'n')):<9} {rng.choice(('y', 'n')):<8} y    # {rng.randint(1, 4)}.{rng.randint(0, 19)}.{rng.randint(0, 9)}"

    tail = "\nSee ?renv::status() for advice on resolving these issues."
    return _fill(size, head, row, tail)


def _psql_table(rng: random.Random, size: int) -> str:
    head = (" ano_mes | regiao       | cobertura |  expostos | n_sin |   freq |  sev_media | sinistralidade\n"
            "---------+--------------+-----------+-----------+-------+--------+------------+---------------")
    state = {"n": 0}

    def row() -> str:
        state["n"] += 1
        e = rng.uniform(800, 40000)
        s = int(e * rng.uniform(0.02, 0.12))
        return (f" {rng.randint(2019, 2024)}-{rng.randint(1, 12):02d} | {rng.choice(REGIONS):<12} | "
                f"{rng.choice(COVERAGES):<9} | {e:>9.1f} | {s:>5} | {s / e:.4f} | {rng.uniform(2500, 28000):>10.2f} | "
                f"{rng.uniform(0.35, 1.1):>13.3f}")

    out = _fill(size, head, row, "")
    return out + f"({state['n']} rows)\n\nTime: {rng.uniform(80, 9000):.3f} ms"


def _psql_claims(rng: random.Random, size: int) -> str:
    head = (" id_sinistro       | apolice      | dt_ocorrencia | dt_aviso   | cobertura | vl_pago    | vl_reserva | status\n"
            "-------------------+--------------+---------------+------------+-----------+------------+------------+-------")
    state = {"n": 0}

    def row() -> str:
        state["n"] += 1
        return (f" {rng.randint(2019, 2024)}SP{rng.randint(10**7, 10**8 - 1)}      | {rng.randint(10**9, 10**10 - 1)}   | "
                f"2023-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}    | 2023-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d} | "
                f"{rng.choice(COVERAGES):<9} | {rng.uniform(0, 90000):>10.2f} | {rng.uniform(0, 40000):>10.2f} | "
                f"{rng.choice(('aberto', 'pago', 'pago', 'negado', 'reaberto'))}")

    out = _fill(size, head, row, "")
    return out + f"({state['n']} rows)"


def _explain(rng: random.Random, size: int) -> str:
    ops = ("Hash Join", "Seq Scan on sinistros s", "Index Scan using apolice_pkey on apolices a", "HashAggregate",
           "Sort", "Bitmap Heap Scan on expostos_mes e", "Bitmap Index Scan on expostos_mes_ano_mes_idx",
           "Gather Merge", "Parallel Seq Scan on sinistros_mov m")
    head = "                                   QUERY PLAN\n" + "-" * 80
    state = {"d": 0}

    def row() -> str:
        state["d"] = (state["d"] + rng.choice((1, 1, 0, -1))) % 6
        c = rng.uniform(100, 900000)
        return (f"{'  ' * state['d']}->  {rng.choice(ops)}  (cost={c * 0.1:.2f}..{c:.2f} rows={rng.randint(10, 900000)} "
                f"width={rng.randint(8, 120)}) (actual time={rng.uniform(0, 900):.3f}..{rng.uniform(900, 9000):.3f} "
                f"rows={rng.randint(10, 900000)} loops={rng.randint(1, 3)})")

    tail = f"Planning Time: {rng.uniform(0.2, 4):.3f} ms\nExecution Time: {rng.uniform(400, 40000):.3f} ms"
    return _fill(size, head, row, tail)


def _testthat_pass(rng: random.Random, size: int, passed: int | None = None) -> str:
    head = "══ Testing pricingSP ═══════════════════════════════════════════════\n[ FAIL 0 | WARN 0 | SKIP 0 | PASS 0 ] Starting tests\n\n✔ | F W  S  OK | Context"
    state = {"i": 0}

    def row() -> str:
        state["i"] += 1
        f = TEST_FILES[state["i"] % len(TEST_FILES)]
        if state["i"] % 7 == 3:
            ln = rng.randint(10, 200)
            return (f"── Warning (test-{f}.R:{ln}): ajuste converge com base reduzida ──\n"
                    f"glm.fit: fitted rates numerically 0 occurred\nBacktrace:\n    ▆\n"
                    f" 1. └─pricingSP::ajusta_freq(base_teste) at test-{f}.R:{ln}:3\n"
                    f" 2.   └─stats::glm(...) at pricingSP/R/freq_glm.R:{rng.randint(20, 140)}:5\n")
        w = rng.choice((0, 0, 0, 1))
        return f"✔ |   {w or ' '}  {rng.choice((' ', ' ', '1'))} {rng.randint(4, 90):>3} | {f} [{rng.uniform(0.1, 12):.1f}s]"

    p = passed or rng.randint(380, 520)
    tail = (f"\n══ Results ═════════════════════════════════════════════════════════\nDuration: {rng.uniform(20, 140):.1f} s\n\n"
            f"── Skipped tests (1) ──\n• On CRAN (1): test-nota-tecnica.R:12:3\n\n[ FAIL 0 | WARN {rng.randint(0, 4)} | SKIP 1 | PASS {p} ]")
    return _fill(size, head, row, tail)


def _stan_progress(rng: random.Random, size: int, chains: int = 4) -> str:
    head = (f"Running MCMC with {chains} parallel chains...\n")
    state = {"c": 0, "it": 0}

    def row() -> str:
        state["it"] = (state["it"] + 100) % 2100
        if state["it"] == 0:
            state["c"] = state["c"] % chains + 1
            return f"Chain {state['c']} finished in {rng.uniform(40, 900):.1f} seconds."
        phase = "Warmup" if state["it"] <= 1000 else "Sampling"
        return f"Chain {state['c'] % chains + 1} Iteration: {state['it']:>4} / 2000 [{state['it'] * 100 // 2000:>3}%]  ({phase})"

    tail = (f"\nAll {chains} chains finished successfully.\nMean chain execution time: {rng.uniform(100, 900):.1f} seconds.\n"
            f"Total execution time: {rng.uniform(300, 2000):.1f} seconds.\n\n" + _brms_summary(rng))
    return _fill(size - 1400, head, row, tail)


def _brms_summary(rng: random.Random) -> str:
    rows = ["Intercept", "faixa_idade2225", "faixa_idade3140", "classe_bonus", "usoappsim", "idade_veic", "regiaoSPABC",
            "regiaoRJCapital"]
    lines = [" Family: gamma ", "  Links: mu = log; shape = identity ",
             "Formula: sev_media ~ faixa_idade + classe_bonus + usoapp + idade_veic + (1 | regiao) + (1 | marca_grp) ",
             f"   Data: base_sev (Number of observations: {rng.randint(40000, 240000)}) ",
             "  Draws: 4 chains, each with iter = 2000; warmup = 1000; thin = 1;", "         total post-warmup draws = 4000",
             "", "Multilevel Hyperparameters:", "~regiao (Number of levels: 16) ",
             "              Estimate Est.Error l-95% CI u-95% CI Rhat Bulk_ESS Tail_ESS",
             f"sd(Intercept)     {rng.uniform(0.05, 0.3):.2f}      {rng.uniform(0.01, 0.06):.2f}     0.07     0.31 1.00     {rng.randint(900, 2000)}     {rng.randint(1200, 2600)}",
             "", "Regression Coefficients:", "                Estimate Est.Error l-95% CI u-95% CI Rhat Bulk_ESS Tail_ESS"]
    for r in rows:
        e = rng.gauss(0, 0.4)
        lines.append(f"{r:<16}{e:>8.2f}{abs(e) * 0.05 + 0.01:>10.2f}{e - 0.1:>9.2f}{e + 0.1:>9.2f} 1.00 "
                     f"{rng.randint(1500, 5000):>8} {rng.randint(1500, 3500):>8}")
    lines += ["", "Further Distributional Parameters:", "      Estimate Est.Error l-95% CI u-95% CI Rhat Bulk_ESS Tail_ESS",
              f"shape     {rng.uniform(0.8, 2.5):.2f}      0.01     1.16     1.20 1.00     {rng.randint(3000, 5000)}     {rng.randint(2500, 3500)}",
              "", "Draws were sampled using sample(hmc). For each parameter, Bulk_ESS", "and Tail_ESS are effective sample size measures, and Rhat is the potential",
              "scale reduction factor on split chains (at convergence, Rhat = 1)."]
    return "\n".join(lines)


def _quarto(rng: random.Random, size: int, doc: str = "nota_tecnica") -> str:
    chunks = ("setup", "carrega-base", "tabela-expostos", "glm-freq", "gam-sev", "relatividades", "triangulos",
              "ibnr", "backtest", "grafico-lift", "tabela-bonus", "anexo-susep", "sessao")
    head = f"processing file: {doc}.qmd\n"
    state = {"i": 0, "p": 0}

    def row() -> str:
        state["i"] += 1
        state["p"] = (state["p"] + rng.randint(1, 4)) % 100
        bar = "." * (state["p"] * 50 // 100)
        return f"  |{bar:<50}| {state['p']:>3}% [{chunks[state['i'] % len(chunks)]}]"

    tail = (f"output file: {doc}.knit.md\n\npandoc \n  to: html\n  output-file: {doc}.html\n  standalone: true\n"
            f"  self-contained: true\n  toc: true\n\nmetadata\n  lang: pt-BR\n  title: Nota Técnica Atuarial — Auto\n\n"
            f"Output created: _output/{doc}.html")
    return _fill(size, head, row, tail)


def _git_log(rng: random.Random, size: int) -> str:
    msgs = ("ajusta faixas de idade no GLM de frequência", "fix: offset de exposição em meses", "atualiza renv.lock",
            "nota técnica: tabela de relatividades", "triângulo RCF-DM com corte novo", "tests: bonus malus classes",
            "refactor utils_base", "sev GAM: te(lat, lon)", "chore: lintr", "brms: priors regionais",
            "sql: base_freq com expostos por mês", "docs: NEWS")
    state = {"i": 0}

    def row() -> str:
        state["i"] += 1
        who = rng.choice(PEOPLE)
        return (f"commit {_hex(rng, 40)}\nAuthor: {who} <{who.lower().replace('í', 'i')}@seguradora.com.br>\n"
                f"Date:   {rng.choice(WEEKDAYS)} {rng.choice(('Mar', 'Apr', 'May', 'Jun', 'Jul'))} {rng.randint(1, 28)} "
                f"{_clock(rng)}:{rng.randint(10, 59)} 2024 -0300\n\n    {rng.choice(msgs)}\n")

    return _fill(size, "", row, "")


def _git_diff(rng: random.Random, size: int) -> str:
    f = rng.choice(FILLER_FILES[:7])
    head = f"diff --git a/{f} b/{f}\nindex {_hex(rng, 7)}..{_hex(rng, 7)} 100644\n--- a/{f}\n+++ b/{f}"
    code = ("  base <- base |> dplyr::filter(expo > 0)", "  fit <- glm(form, family = fam, data = base)",
            "  rel <- exp(coef(fit))", "  tab <- tibble::enframe(rel, name = \"nivel\", value = \"fator\")",
            "  stopifnot(all(is.finite(tab$fator)))", "  base$expo <- pmin(base$expo, 1)",
            "  out <- dplyr::left_join(tab, tarifa_vigente, by = \"nivel\")", "  message(\"ajuste ok: \", nrow(base))",
            "  glue::glue(\"{nrow(base)} linhas\")", "  cli::cli_alert_info(\"base carregada\")")

    def row() -> str:
        a = rng.randint(10, 300)
        lines = [f"@@ -{a},7 +{a},8 @@ {rng.choice(('ajusta_freq', 'calcula_relatividades', 'carrega_base'))} <- function(base, ...) {{"]
        for _ in range(6):
            lines.append(rng.choice((" ", " ", "-", "+")) + rng.choice(code))
        return "\n".join(lines)

    return _fill(size, head, row, "")


def _r_file(rng: random.Random, size: int, path: str) -> str:
    blocks = (
        "#' Ajusta o GLM de frequência\n#' @param base data.frame com expo e n_sin\n#' @export\n"
        "ajusta_freq_{n} <- function(base, form = n_sin ~ faixa_idade + regiao + classe_bonus) {{\n"
        "  stopifnot(\"expo\" %in% names(base))\n  base <- base[base$expo > 0, ]\n"
        "  stats::glm(update(form, . ~ . + offset(log(expo))), family = stats::poisson(), data = base)\n}}\n",
        "calcula_relatividades_{n} <- function(fit) {{\n  rel <- exp(stats::coef(fit))\n"
        "  tibble::tibble(nivel = names(rel), fator = unname(rel)) |>\n    dplyr::filter(nivel != \"(Intercept)\")\n}}\n",
        "carrega_base_{n} <- function(con, ano) {{\n  sql <- glue::glue_sql(\"SELECT * FROM pricing.base_freq WHERE ano = {{ano}}\", .con = con)\n"
        "  DBI::dbGetQuery(con, sql)\n}}\n",
        "# premio puro = freq * sev, carregado pela despesa\npremio_comercial_{n} <- function(pp, desp = 0.28, lucro = 0.05) {{\n"
        "  pp / (1 - desp - lucro)\n}}\n",
    )
    state = {"n": 0}

    def row() -> str:
        state["n"] += 1
        return rng.choice(blocks).format(n=state["n"])

    return _fill(size, f"# {path}\n# pricingSP — time de precificação auto\n", row, "")


def _sql_file(rng: random.Random, size: int) -> str:
    def row() -> str:
        return (f"-- bloco {rng.randint(1, 99)}\nSELECT e.ano_mes, e.regiao, sum(e.expo) AS expostos, count(s.id_sinistro) AS n_sin\n"
                f"FROM pricing.expostos_mes e\nLEFT JOIN dw_sinistros.sinistros s ON s.apolice = e.apolice AND s.ano_mes = e.ano_mes\n"
                f"WHERE e.ano_mes BETWEEN '{rng.randint(2019, 2022)}-01' AND '2023-12'\n  AND e.cobertura = '{rng.choice(COVERAGES)}'\n"
                "GROUP BY 1, 2;\n")

    return _fill(size, "-- sql/base_freq.sql\n", row, "")


def _renv_lock(rng: random.Random, size: int) -> str:
    pkgs = ("ChainLadder", "mgcv", "statmod", "tweedie", "brms", "cmdstanr", "data.table", "dplyr", "DBI", "RPostgres")
    head = '{\n  "R": {\n    "Version": "4.3.3",\n    "Repositories": [{"Name": "CRAN", "URL": "https://packagemanager.posit.co/cran/latest"}]\n  },\n  "Packages": {'

    def row() -> str:
        p = rng.choice(pkgs)
        return (f'    "{p}": {{\n      "Package": "{p}",\n      "Version": "{rng.randint(0, 4)}.{rng.randint(0, 20)}-{rng.randint(0, 9)}",\n'
                f'      "Source": "Repository",\n      "Repository": "CRAN",\n      "Hash": "{_hex(rng, 32)}"\n    }},')

    return _fill(size, head, row, "  }\n}")


def _yaml(rng: random.Random, size: int) -> str:
    def row() -> str:
        return (f"{rng.choice(('producao', 'homolog', 'dev'))}_{rng.randint(1, 99)}:\n  db_host: pg-dw.interno\n  db_port: 5432\n"
                f"  schema: pricing\n  ano_base: {rng.randint(2019, 2023)}\n  expo_minima: 0.0{rng.randint(1, 9)}\n")

    return _fill(size, "default:\n  rstudio_port: 8787\n  cores: 16\n", row, "")


# --- planted facts: what each kind says, and how --------------------------------------------------------------------

class _Values:
    """Values and stale values of one session: distinct, and none inside another."""

    def __init__(self) -> None:
        self.taken: list[str] = []

    def free(self, *vals: str) -> bool:
        for v in vals:
            for t in self.taken:
                if v in t or t in v:
                    return False
        return len(set(vals)) == len(vals) and not any(a in b for a in vals for b in vals if a != b)

    def claim(self, *vals: str) -> None:
        self.taken.extend(vals)


def _digits(rng: random.Random, n: int) -> str:
    return "".join(rng.choice("0123456789") for _ in range(n))


def _near(rng: random.Random, s: str) -> str:
    """``s`` with two of its digits swapped (or one changed): a near miss of it."""
    pos = [i for i, c in enumerate(s) if c.isdigit()][-4:]
    for _ in range(20):
        a, b = rng.sample(pos, 2)
        if s[a] != s[b]:
            t = list(s)
            t[a], t[b] = t[b], t[a]
            return "".join(t)
    t = list(s)
    i = pos[-1]
    t[i] = str((int(t[i]) + rng.randint(1, 8)) % 10)
    return "".join(t)


# instruction templates: (make(rng) -> (value, query), text(value, rng) -> user message, adopted?)
def _instructions() -> list[tuple[Callable[[random.Random], tuple[str, str]], Callable[[str, random.Random], str], bool]]:
    return [
        (lambda r: (f"seed={r.randint(1000, 99999)}", "Which random seed must every Bayesian fit use?"),
         lambda v, r: f"beleza, pode seguir com o ajuste.\n\nah, outra coisa: aqui a gente sempre fixa {v} em todo stan_fit/brms, "
                      "senão a revisão reclama que não reproduz. vale pra tudo daqui pra frente", False),
        (lambda r: (f"{r.choice(('4', '5', '7', '8'))}.{r.randint(1, 9)}% vs the filed table",
                    "What is the maximum a relativity may move against the filed table?"),
         lambda v, r: f"ok thanks.\n\nFYI we never ship a relativity that moves more than {v} — if the model wants more, "
                      "cap it and flag it to me instead", False),
        (lambda r: (f"ofício {r.randint(1000, 9999)}/2024", "Until which SUSEP letter is merging to main on hold?"),
         lambda v, r: f"até a SUSEP responder o {v}, não sobe nada pra main, tá? branch e MR pode, merge não", False),
        (lambda r: ("exposure in vehicle-years", "In which unit does the user want exposure expressed?"),
         lambda v, r: "hmm ok.\n\nI'd rather we keep " + v + " everywhere (earned, not written) — policy counts confuse "
                      "the reviewers every single time", False),
        (lambda r: (f"arredondados em {r.choice(('3', '4', '5'))} casas", "How many decimals do coefficients get in the report?"),
         lambda v, r: f"regra da casa: coeficientes no relatório vão {v}, nunca mais que isso. a Fernanda odeia tabela com 9 casas",
         False),
        (lambda r: (f"R/legado_{r.choice(('bonus', 'franquia', 'cosseguro', 'frota'))}_{r.randint(10, 99)}.R",
                    "Which legacy script must the agent never touch?"),
         lambda v, r: f"blz.\n\nsó uma coisa, não mexe em `{v}` de jeito nenhum — quem cuida disso é o time de subscrição e "
                      "eles surtam", False),
        (lambda r: (f"accident months after {r.randint(1, 12):02d}/2024", "Which accident months stay out until the backfill is signed off?"),
         lambda v, r: f"until the claims backfill is signed off, don't use {v} in anything that goes to the filing. "
                      "frequency will look great and it's a lie", False),
        (lambda r: (f"pricing_ro_{r.randint(10, 99)}", "Which database role must every warehouse query run under?"),
         lambda v, r: f"ok.\n\naqui a gente roda todo SQL do warehouse com o role {v}, nada de usar o usuário pessoal. "
                      "auditoria pega isso", False),
        (lambda r: (f"_output_susep_{r.randint(10, 99)}/", "Where must rendered Quarto outputs be written?"),
         lambda v, r: f"please always write the rendered reports to `{v}`, never to the repo root — last time a 40MB html "
                      "ended up in git", False),
        (lambda r: ("nada de setwd()", "Which R habit is banned in the scripts?"),
         lambda v, r: f"e por favor, {v} nos scripts. usa here::here() e pronto", False),
        (lambda r: (f"retenção de R$ {r.randint(3, 9)}{r.choice(('50', '00', '25'))} mil", "Which retention applies until the treaty is confirmed?"),
         lambda v, r: f"enquanto o resseguro não confirmar o tratado novo, considera {v} por risco nos cálculos de "
                      "excesso. depois a gente revê", False),
        (lambda r: (f"intervalo 0,{r.randint(80, 89)}–1,{r.randint(15, 30)}", "Which band must regional factors stay in?"),
         lambda v, r: f"resumindo o que importa pra gente: daqui pra frente nenhum fator regional sai do {v}. "
                      "o resto do mail é pro time de produto", True),
        (lambda r: (f"trava de {r.randint(2, 6)} pontos por renovação", "How far may a bonus class move per renewal?"),
         lambda v, r: f"in our words: {v} on bonus class changes, no matter what the GLM says. treat it as a hard rule", True),
        (lambda r: (f"backtest de {r.randint(3, 6)} safras", "How many accident-year cohorts must every model change be backtested on?"),
         lambda v, r: f"concordo com o revisor nesse ponto, então fica valendo: toda mudança de modelo vem com {v}, "
                      "sem exceção", True),
    ]


def _corrections() -> list[tuple[tuple[str, str], Callable[[random.Random], tuple[str, str, str]]]]:
    """((how to say it in Portuguese, in English), make(rng) -> (stale, value, query)); all but the last two are near misses."""

    def ticket(r: random.Random) -> tuple[str, str, str]:
        s = f"PRC-{r.randint(10000, 99999)}"
        return s, _near(r, s), "Which ticket tracks this work?"

    def host(r: random.Random) -> tuple[str, str, str]:
        a, b = r.sample(range(1, 10), 2)
        return f"pgdw-replica-0{a}", f"pgdw-replica-0{b}", "Which warehouse replica should the queries hit?"

    def snap(r: random.Random) -> tuple[str, str, str]:
        m = r.randint(2, 11)
        return f"sin_snap_2024{m:02d}28", f"sin_snap_2024{m + r.choice((-1, 1)):02d}28", "Which claims snapshot is the base?"

    def database(r: random.Random) -> tuple[str, str, str]:
        d, m = r.choice(((31, 3), (30, 6), (30, 9), (31, 12))), r.choice((2023, 2024))
        m2 = r.choice([x for x in ((31, 3), (30, 6), (30, 9), (31, 12)) if x != d])
        return f"data-base {d[0]}/{d[1]:02d}/{m}", f"data-base {m2[0]}/{m2[1]:02d}/{m}", "What is the valuation date of the study?"

    def processo(r: random.Random) -> tuple[str, str, str]:
        six, yy = str(r.randint(600000, 699999)), r.randint(10, 99)
        return f"15414.{six}/2024-{yy}", f"15414.{_near(r, six)}/2024-{yy}", "Which SUSEP process number goes in the filing?"

    def kcred(r: random.Random) -> tuple[str, str, str]:
        s = f"K={r.randint(1000, 9999)}"
        return s, _near(r, s), "Which Bühlmann credibility constant should be used?"

    def branch(r: random.Random) -> tuple[str, str, str]:
        s = f"ajuste-bonus-{r.randint(100, 999)}"
        return s, _near(r, s), "Which git branch holds the bonus work?"

    def version(r: random.Random) -> tuple[str, str, str]:
        a, b, c = r.sample(range(1, 10), 3)
        return f"freq_glm_v{a}.{b}.{c}", f"freq_glm_v{a}.{c}.{b}", "Which model version is the baseline?"

    def comissao(r: random.Random) -> tuple[str, str, str]:
        s = f"comissão de {r.randint(11, 29)},{r.randint(1, 9)}%"
        return s, _near(r, s), "Which commission loading goes into the commercial premium?"

    def relatorio(r: random.Random) -> tuple[str, str, str]:
        q = r.randint(1, 4)
        return f"nt_auto_2024T{q}_r{r.randint(1, 4)}", f"nt_auto_2024T{q % 4 + 1}_r{r.randint(5, 9)}", "Which technical-note file name is the current one?"

    def mr(r: random.Random) -> tuple[str, str, str]:
        return f"MR !{r.randint(100, 499)}", f"MR !{r.randint(500, 999)}", "Which merge request should the reviewer look at?"

    def epic(r: random.Random) -> tuple[str, str, str]:
        return f"PRICE-{r.randint(1000, 4999)}", f"PRICE-{r.randint(5000, 9999)}", "Which Jira epic does the filing belong to?"

    return [(("o ticket é o", "the ticket is"), ticket), (("a réplica é a", "the replica is"), host),
            (("o snapshot é o", "the snapshot is"), snap), (("o estudo usa", "the study uses"), database),
            (("o processo é o", "the process number is"), processo),
            (("a constante de credibilidade é", "the credibility constant is"), kcred),
            (("o branch é o", "the branch is"), branch), (("a versão base é a", "the baseline is"), version),
            (("no comercial a gente usa", "the commercial premium uses"), comissao),
            (("o arquivo da nota é o", "the note file is"), relatorio), (("pra revisão manda o", "send the reviewer"), mr),
            (("o épico é o", "the epic is"), epic)]


def _decisions() -> list[tuple[Callable[[random.Random], str], str]]:
    """(make(rng) -> value, query)."""
    return [
        (lambda r: f"Tweedie p={r.randint(130, 175) / 100:.2f}", "Which Tweedie power did the user settle on?"),
        (lambda r: f"tail factor {r.randint(1010, 1090) / 1000:.3f}", "Which tail factor was chosen for the triangle?"),
        (lambda r: f"corte de grandes sinistros em R$ {r.randint(150, 900)} mil", "Where are large claims capped?"),
        (lambda r: f"k={r.randint(5, 20)} na idade", "How many basis functions does the driver-age smooth get?"),
        (lambda r: f"Bühlmann-Straub com {r.randint(3, 8)} anos", "Which credibility approach and window were chosen?"),
        (lambda r: f"holdout safra {r.randint(2018, 2023)}", "Which accident year is held out for validation?"),
        (lambda r: f"Mack bootstrap com {r.choice((1, 2, 5, 10, 20))}{r.choice(('000', '500'))} simulações",
         "How many bootstrap simulations does the IBNR use?"),
        (lambda r: f"adapt_delta {r.randint(90, 99) / 100:.2f}", "Which adapt_delta do the Stan fits use?"),
        (lambda r: f"{r.randint(8, 14)} classes de bônus", "How many bonus classes does the new scale have?"),
        (lambda r: f"arredondar o prêmio em múltiplos de R$ {r.choice((5, 10, 25, 50))},{r.randint(10, 99)}",
         "How is the commercial premium rounded?"),
        (lambda r: f"{r.randint(4, 12)} zonas territoriais", "Into how many territorial zones is the map split?"),
        (lambda r: f"peso {r.randint(55, 85)}% pro modelo novo",
         "How much weight goes to the new model in the blend?"),
    ]


def _plans() -> list[tuple[Callable[[random.Random], str], Callable[[str], str], str]]:
    """(make(rng) -> value, text(value) -> user message, query)."""
    return [
        (lambda r: f"congela a base em {r.randint(1, 28):02d}/{r.randint(7, 9):02d}",
         lambda v: f"plano pra essa semana: primeiro a gente {v}, depois refaz os triângulos com a base congelada, "
                   "e só aí mexe no GLM. relatório por último", "What happens first in this week's plan?"),
        (lambda r: f"backtest on accident years {(y := r.randint(2015, 2019))}–{y + r.randint(2, 4)}",
         lambda v: f"here's how I want to do it:\n1. {v} with the current tariff\n2. same window with the new GLM\n"
                   "3. compare loss ratios by region and only then touch the bonus scale", "Which backtest window does the plan start with?"),
        (lambda r: f"shadow rating em {r.choice(('Campinas', 'Sorocaba', 'Santos', 'Ribeirão', 'Jundiaí'))} por {r.randint(2, 8)} semanas",
         lambda v: f"a ideia é fazer {v} antes de subir pra todo mundo. se a conversão não cair, a gente expande pro "
                   "interior inteiro", "Where and how long is the shadow rating?"),
        (lambda r: f"{r.randint(5, 12)}-fold CV grouped by broker",
         lambda v: f"plan for the validation: {v}, then pick the smoothing on the pooled deviance, then refit on "
                   "everything. no peeking at the holdout before that", "How is the cross-validation organised?"),
        (lambda r: f"janela móvel de {r.randint(18, 48)} meses",
         lambda v: f"pensei assim: refit mensal com {v}, cada refit gera as relatividades e a gente só publica se o "
                   "backtest do mês passar", "Which window does the monthly refit use?"),
        (lambda r: f"phase in over {r.randint(2, 6)} renewals",
         lambda v: f"for the rollout: we {v} — first renewal gets a third of the change, and so on. Fernanda agreed in principle",
         "How is the new tariff rolled out?"),
        (lambda r: f"tarifa-rc{r.randint(2, 9)} na sexta",
         lambda v: f"cronograma: congelar a {v}, segunda a gente roda o pacote de filing, terça manda pro revisor", "When and under which tag is the tariff frozen?"),
        (lambda r: f"amostra de {r.randint(20, 90)} mil apólices",
         lambda v: f"before anything else let's compare old vs new premiums on a {v} sorted by segment, then look at the "
                   "tails, then write it up", "On what sample are old and new premiums compared?"),
        (lambda r: f"dry run do filing com o {r.choice(('Lucas', 'Rodrigo', 'Gustavo'))} na {r.choice(('terça', 'quarta', 'quinta'))}",
         lambda v: f"próximos passos: 1) fechar o anexo de relatividades 2) {v} 3) ajustar o que ele achar 4) enviar",
         "Who rehearses the filing and when?"),
        (lambda r: f"sensitivity on ±{r.randint(5, 25)}% severity",
         lambda v: f"plan: run the IBNR first, then a {v}, then write the paragraph for the reinsurer", "Which sensitivity is in the plan?"),
        (lambda r: f"separar frota de {r.randint(5, 30)} veículos",
         lambda v: f"a ordem é: {v} pra cima num modelo próprio, refazer a frequência sem eles e depois comparar o AIC",
         "What is split off first in the modelling plan?"),
        (lambda r: f"recalibrar o intercepto a cada {r.randint(2, 6)} meses",
         lambda v: f"long term: {v}, full refit once a year, and a drift dashboard in between", "How often is the intercept recalibrated?"),
    ]


def _errors() -> list[tuple[str, Callable[[random.Random], str], str, str]]:
    """(tool, make(rng) -> the error line, the command's gist, query)."""
    return [
        ("testthat", lambda r: f"── Failure (test-tarifa.R:{r.randint(40, 240)}): premio_puro() reproduces the filed table for classe {r.randint(1, 10)} ──",
         "tests/testthat/test-tarifa.R", "Which tariff test failed?"),
        ("testthat", lambda r: f"── Error (test-triangulo.R:{r.randint(20, 180)}): ibnr_mack() matches the closing for {r.choice(COVERAGES)} ──",
         "tests/testthat/test-triangulo.R", "Which triangle test errored?"),
        ("r_run", lambda r: f"Error in model.frame.default(formula = n_sin ~ faixa_idade + {(v := r.choice(('regiao_susep', 'cep3_grp', 'uso_comercial')))} + offset(log(expo)), : variable lengths differ (found for '{v}')",
         "ajusta_freq(base_2024)", "What did the frequency refit fail with?"),
        ("r_run", lambda r: f"Error in solve.default(hess) : Lapack routine dgesv: system is exactly singular: U[{(a := r.randint(12, 90))},{a}] = 0",
         "ajusta_cred(base_cred)", "Why did the credibility fit stop?"),
        ("r_run", lambda r: f"Error in loadNamespace(x) : there is no package called ‘{r.choice(('cplm', 'actuar', 'raw', 'lossx', 'insuranceData'))}’",
         "source(\"R/triangulo.R\")", "Which package was missing?"),
        ("psql_query", lambda r: f'ERROR:  column "{r.choice(("dt_aviso_sin", "vl_franquia_ajust", "cod_regiao_susep2", "qt_expostos_mes"))}" does not exist',
         "SELECT ... FROM dw_sinistros.sinistros", "Which column did the warehouse query not find?"),
        ("psql_query", lambda r: f"ERROR:  permission denied for table {r.choice(('sinistros_pii', 'segurados_cpf', 'corretores_comissao'))}",
         "SELECT ... FROM restricted table", "Which table was the query refused on?"),
        ("stan_fit", lambda r: f"Warning: There were {r.randint(12, 480)} divergent transitions after warmup. Increasing adapt_delta above 0.8 may help. See https://mc-stan.org/misc/warnings.html#divergent-transitions-after-warmup",
         "stan/sev_hier.stan", "How badly did the hierarchical severity fit diverge?"),
        ("stan_fit", lambda r: f"Warning: The largest R-hat is {r.randint(105, 140) / 100:.2f}, indicating chains have not mixed.",
         "brms sev model", "What did the convergence check of the Stan fit say?"),
        ("quarto_render", lambda r: f"Quitting from lines {(a := r.randint(80, 400))}-{a + r.randint(5, 40)} [{r.choice(('tabela-relatividades', 'grafico-lift', 'anexo-susep'))}] (nota_tecnica.qmd)",
         "reports/nota_tecnica.qmd", "Where did the technical note render stop?"),
        ("git", lambda r: f"error: failed to push some refs to 'git@gitlab.seguradora.com.br:pricing/{r.choice(('tarifa-auto', 'pricingSP', 'filing-susep'))}.git'",
         "git push", "What did the push fail with?"),
        ("r_run", lambda r: f"tabela_relatividades: no visible binding for global variable ‘{r.choice(('fator_final', 'peso_cred', 'nivel_ref'))}’",
         "devtools::check()", "What did R CMD check note about the relativities table?"),
    ]


def _findings() -> list[tuple[str, Callable[[random.Random], tuple[str, str]], str, str]]:
    """(tool, make(rng) -> (value, the line holding it), what it means, query)."""

    def chi(r: random.Random) -> tuple[str, str]:
        v = f"chi2/df = {r.uniform(1.2, 4.8):.3f}"
        return v, f"Overdispersion check: Pearson {v} on {r.randint(200000, 900000):,} df"

    def gini(r: random.Random) -> tuple[str, str]:
        v = f"Gini holdout = {r.uniform(0.2, 0.45):.4f}"
        return v, f"{v}  (lift top decile {r.uniform(1.6, 3.2):.2f})"

    def tail(r: random.Random) -> tuple[str, str]:
        v = f"Sherman tail {r.uniform(1.01, 1.09):.4f}"
        return v, f"Selected: {v} (inverse power, {r.randint(6, 11)} pts, R² {r.uniform(0.8, 0.99):.2f})"

    def ibnr(r: random.Random) -> tuple[str, str]:
        v = f"IBNR total: R$ {_brl(r.randint(8_000_000, 60_000_000))}"
        return v, f"{v}   Mack S.E.: R$ {_brl(r.randint(600_000, 3_000_000))}"

    def dup(r: random.Random) -> tuple[str, str]:
        v = f"{r.randint(1200, 9999)} claims of backfill carga_2024{r.randint(1, 12):02d}{r.randint(1, 28):02d} duplicated"
        return v, f'[1] "root cause: {v}"'

    def timeout(r: random.Random) -> tuple[str, str]:
        v = f"statement_timeout | {r.randint(20, 300)}s"
        return v, v

    def retencao(r: random.Random) -> tuple[str, str]:
        v = f"retencao_maxima: {r.randint(5, 40)}00000"
        return v, f"  {v}"

    def sdreg(r: random.Random) -> tuple[str, str]:
        v = f"sd_regiao median {r.uniform(0.05, 0.4):.3f}"
        return v, f"posterior summary: {v} (90% CI {r.uniform(0.01, 0.05):.3f}–{r.uniform(0.4, 0.6):.3f})"

    def aic(r: random.Random) -> tuple[str, str]:
        v = f"ΔAIC = -{r.uniform(40, 900):.1f}"
        return v, f"Model comparison: {v} in favour of gam_freq_v2 over the GLM"

    def maxdiff(r: random.Random) -> tuple[str, str]:
        v = f"max abs diff = {r.uniform(0.001, 0.09):.4f}"
        return v, f"Tolerance check vs filed table: {v} (classe_bonus x regiao)"

    def zero(r: random.Random) -> tuple[str, str]:
        v = f"{r.randint(300, 9000)} apólices com exposicao = 0"
        return v, f" {v} desde a carga de {r.randint(1, 28):02d}/0{r.randint(1, 9)}"

    def usoapp(r: random.Random) -> tuple[str, str]:
        a = r.randint(101, 130) / 100
        b = r.randint(131, 160) / 100
        v = f"uso_app {a:.2f} -> {b:.2f}"
        return v, f"{_hex(r, 7)} fator {v} (sem teste, sem MR)"

    return [("r_run", chi, "the Poisson is overdispersed, so the standard errors are too small; quasi-Poisson or NB next", "How overdispersed is the frequency model?"),
            ("r_run", gini, "the new model ranks risk better on data it never saw", "How well does the model discriminate on the holdout?"),
            ("r_run", tail, "the tail adds a few percent on the oldest years, within the reinsurer's range", "Which tail did the curve fit select?"),
            ("r_run", ibnr, "that is the reserve to put in the filing's appendix", "How much IBNR does the chain ladder give?"),
            ("r_run", dup, "the frequency jump is an artefact of the backfill, not a real trend", "What caused the jump in claim counts?"),
            ("psql_query", timeout, "long pulls get killed by the server; we need to chunk the query by month", "What statement timeout does the warehouse enforce?"),
            ("read_file", retencao, "the config still has the old treaty retention", "Which maximum retention is in the config?"),
            ("stan_fit", sdreg, "regions differ less than the GLM suggested; credibility shrinks them a lot", "How large is the between-region spread in the hierarchical fit?"),
            ("r_run", aic, "the GAM is clearly better than the GLM on AIC", "How much better is the GAM on AIC?"),
            ("r_run", maxdiff, "the package reproduces the filed table within tolerance", "How far is the package from the filed table?"),
            ("psql_query", zero, "those policies inflate the frequency; they need to go before the fit", "How many policies have zero exposure?"),
            ("git", usoapp, "someone changed the app-usage factor directly, which explains the premium shift", "Which factor change explains the premium shift?")]


def _identifiers() -> tuple[list[tuple[Callable[[random.Random], str], Callable[[str], str], str]],
                            list[tuple[str, Callable[[random.Random], str], str]]]:
    said = [
        (lambda r: f"15414.{r.randint(700000, 799999)}/2024-{r.randint(10, 99)}",
         lambda v: f"o processo do filing na SUSEP é o {v}, põe isso no cabeçalho da nota", "Which SUSEP process number is the filing under?"),
        (lambda r: f"AP-2024-{r.randint(1000000, 9999999)}", lambda v: f"check policy {v}, the broker says the premium doubled at renewal",
         "Which policy did the broker complain about?"),
        (lambda r: f"SN2024{r.randint(1000000, 9999999)}", lambda v: f"olha o sinistro {v}, tá com reserva de 2 milhões, deve ser erro de digitação",
         "Which claim has the suspicious reserve?"),
        (lambda r: f"CHG{r.randint(1000000, 9999999)}", lambda v: f"the deploy of the new tariff goes under change {v}, mention it in the MR",
         "Which change request covers the tariff deploy?"),
        (lambda r: f"COR-{r.randint(10000, 99999)}-SP", lambda v: f"o corretor é o {v}, ele que tá reclamando do reajuste",
         "Which broker is complaining?"),
    ]
    printed = [
        ("git", lambda r: _hex(r, 12), "Which commit introduced the relativity change?"),
        ("stan_fit", lambda r: f"sev_2024{r.randint(1, 12):02d}{r.randint(1, 28):02d}_{_hex(r, 6)}", "Under which run id was the severity fit saved?"),
        ("psql_query", lambda r: f"BF-2024{r.randint(1, 12):02d}-{r.randint(1000, 9999)}", "Which backfill batch id did the warehouse report?"),
        ("read_file", lambda r: _hex(r, 32), "Which renv hash pins ChainLadder?"),
        ("r_run", lambda r: f"PKG-2024-{r.randint(10000, 99999)}", "Which filing package id did the build print?"),
    ]
    return said, printed


def _file_paths() -> list[tuple[Callable[[random.Random], str], str]]:
    return [
        (lambda r: f"R/fator_{r.choice(('franquia', 'idade_veiculo', 'cep_risco', 'km_anual', 'garagem', 'rastreador'))}.R",
         "Which new R file holds the factor function?"),
        (lambda r: f"sql/pull_{r.choice(COVERAGES)}_2024q{r.randint(1, 4)}.sql", "Which SQL file pulls the quarter's base?"),
        (lambda r: f"tests/testthat/test-{r.choice(('franquia', 'zonas', 'cred', 'arredonda', 'cap'))}-{r.randint(2, 9)}.R",
         "Which test file was added?"),
        (lambda r: f"reports/anexo_{r.choice('ABCDE')}_2024T{r.randint(1, 4)}.qmd", "Which appendix document was created?"),
        (lambda r: f"stan/sev_{r.choice(('tweedie', 'lognormal', 'gamma_hier'))}_v{r.randint(2, 9)}.stan", "Which Stan model file was written?"),
        (lambda r: f"data-raw/backfill_2024{r.randint(1, 12):02d}{r.randint(1, 28):02d}.R", "Which script documents the backfill fix?"),
        (lambda r: f"inst/susep/checklist_{r.randint(100, 999)}.md", "Which checklist file for the filing was written?"),
        (lambda r: f"R/ibnr_{r.choice(COVERAGES)}_mack.R", "Which file holds the IBNR function?"),
    ]


# --- pasted documents ---------------------------------------------------------------------------------------------

def _paste(rng: random.Random, kind: str) -> str:
    y = 2024
    q = rng.randint(1, 4)
    d = f"{rng.randint(1, 28):02d}/{rng.randint(1, 12):02d}/{y}"
    if kind == "mail":
        return (f"From: Fernanda Queiroz <fernanda.queiroz@seguradora.com.br>\nSent: {rng.choice(WEEKDAYS)}, {d} {_clock(rng)}\n"
                f"To: Pricing Auto <pricing-auto@seguradora.com.br>\nSubject: Requisitos do filing {q}T{y}\n\nPessoal,\n\n"
                f"Seguem os requisitos para o filing deste trimestre:\n"
                f"1. Please send the full nota técnica to SUSEP by {d}.\n"
                "2. Do not change the bonus class structure this cycle.\n"
                f"3. Regional factors must stay within a ±{rng.randint(8, 15)}% band versus the current filing.\n"
                f"4. Attach the reinsurer's sign-off and the {rng.randint(3, 6)}-year backtest.\n"
                f"5. Favor não usar sinistros avisados depois de {rng.randint(1, 28):02d}/{rng.randint(1, 12):02d} sem falar comigo.\n"
                "6. Keep the rounding rules of the last filing.\n\nQualquer dúvida me chamem.\nAbs,\nFernanda\n"
                "Head of Pricing — Auto")
    if kind == "circular":
        return (f"CIRCULAR SUSEP Nº {rng.randint(600, 699)}, DE {rng.randint(1, 28)} DE {rng.choice(MONTHS_PT).upper()} DE {y - rng.randint(1, 3)}\n\n"
                f"Art. {rng.randint(8, 30)}. As sociedades seguradoras deverão manter à disposição da SUSEP a nota técnica "
                "atuarial de cada produto, com a metodologia de cálculo do prêmio puro e dos carregamentos.\n"
                "§ 1º A nota técnica deverá ser assinada por atuário habilitado, com indicação do número de registro no IBA.\n"
                "§ 2º Não serão aceitas alterações de tarifa sem a respectiva atualização da nota técnica.\n"
                f"Art. {rng.randint(31, 50)}. Encaminhar à SUSEP, em até {rng.randint(15, 60)} dias, as alterações de "
                "estrutura tarifária que impliquem variação média superior ao limite regulamentar.\n"
                "Parágrafo único. Não utilizar, para fins de tarifação, variáveis vedadas pela regulamentação vigente.")
    if kind == "treaty":
        return (f"Treaty ref. MR-AUTO-{y}-{rng.randint(10, 99)} — motor XL, layer {rng.randint(1, 3)}\n"
                f"Retention: BRL {rng.randint(2, 9)},{rng.randint(0, 9)}00,000 each and every loss. Limit: BRL "
                f"{rng.randint(10, 40)},000,000.\nReinstatements: {rng.randint(1, 3)} at 100%.\n"
                "Please confirm the loss triangles by cedant's accident year before renewal.\n"
                "Do not include catastrophe events coded CAT-HAIL in the attritional data.\n"
                f"Please provide large losses above BRL {rng.randint(300, 900)},000 individually, with dates.\n"
                f"Rate on line indication: {rng.uniform(2, 9):.2f}% subject to final data.\n— Underwriting, Reinsurance Desk")
    if kind == "review":
        return (f"Revisão par — modelo de frequência auto, versão de {d}\nRevisora: Juliana Prado (MIBA {rng.randint(1000, 2999)})\n\n"
                "1. Please justify the grouping of cep3 into territories; the current grouping looks arbitrary.\n"
                f"2. Do not drop policies with exposure below 0.0{rng.randint(1, 9)} without showing the impact.\n"
                f"3. The interaction idade x classe_bonus has p = 0.{rng.randint(10, 90)}; remove it or explain it.\n"
                "4. Apresentar o backtest por safra, não agregado.\n"
                f"5. Check the offset: in {rng.randint(2, 9)} of the scripts exposure is in months, not years.\n"
                "6. Include the lift chart and the Gini on the holdout in the technical note.")
    if kind == "slack":
        t = rng.randint(9, 16)
        return (f"[{t}:{rng.randint(10, 29)}] Thiago Ramos: pessoal, rodamos o backfill de sinistros de {rng.choice(MONTHS_PT)} ontem à noite\n"
                f"[{t}:{rng.randint(30, 39)}] Thiago Ramos: please don't use dw_sinistros.sinistros until {t + 2}h, ainda tem "
                f"{rng.randint(1000, 30000)} registros reprocessando\n"
                f"[{t}:{rng.randint(40, 49)}] Marcos Lima: vai mudar dt_aviso de alguma coisa?\n"
                f"[{t}:{rng.randint(50, 59)}] Thiago Ramos: só dos avisos via app, uns {rng.randint(2, 9)}%. rerun your pulls after that\n"
                f"[{t + 1}:0{rng.randint(0, 9)}] Carla Souza: ok. alguém avisa pricing? não rodem o fechamento hoje\n"
                f"[{t + 1}:{rng.randint(10, 59)}] Thiago Ramos: :thumbsup:")
    # CI log of R CMD check
    return (f"Run r-lib/actions/check-r-package@v2\n── R CMD check results ─────────── pricingSP 0.{rng.randint(3, 9)}.{rng.randint(0, 20)} ────\n"
            f"Duration: {rng.randint(3, 12)}m {rng.uniform(0, 59):.1f}s\n\n"
            "❯ checking R code for possible problems ... NOTE\n"
            "  ajusta_freq: no visible binding for global variable ‘expo’\n"
            "  calcula_premio: no visible global function definition for ‘quantile’\n"
            "  Undefined global functions or variables:\n    expo quantile\n"
            "  Consider adding\n    importFrom(\"stats\", \"quantile\")\n  to your NAMESPACE file.\n\n"
            "❯ checking tests ... ERROR\n  Running ‘testthat.R’\n"
            f"  [ FAIL {rng.randint(1, 4)} | WARN {rng.randint(0, 9)} | SKIP 1 | PASS {rng.randint(300, 500)} ]\n\n"
            "1 error ✖ | 0 warnings ✔ | 1 note ✖\nError: R CMD check found ERRORs\n"
            "Error: Process completed with exit code 1.\n"
            "bot: Do not merge while the check is red. Please re-run after fixing.")


PASTE_KINDS = ("mail", "circular", "treaty", "review", "slack", "ci")
PASTE_INTRO = {
    "mail": ("olha o mail da Fernanda:", "fyi, Fernanda's mail about the filing:", "chegou isso agora:"),
    "circular": ("trecho da circular que o jurídico mandou:", "the SUSEP circular excerpt, for context:"),
    "treaty": ("the reinsurer sent this:", "nota do resseguro:"),
    "review": ("comentários da revisora:", "peer review came back:"),
    "slack": ("thread do time de sinistros no slack:", "from #sinistros-dados:"),
    "ci": ("CI quebrou:", "the pipeline says:"),
}
PASTE_ANSWER = {
    "mail": "Read Fernanda's mail. For us it means the deadline, the band on regional factors and the sign-off; the "
            "bonus structure stays frozen this cycle.",
    "circular": "Noted. Nothing in this excerpt changes the model itself — it is about keeping the technical note in "
                "sync with the tariff and the deadline for structural changes.",
    "treaty": "The treaty note mostly asks for data: triangles by accident year and the large losses listed one by "
              "one. I can prepare both from the warehouse.",
    "review": "Went through the review. Points 1, 3 and 5 touch the code (territories, the interaction, the offset); "
              "2, 4 and 6 are about what goes into the note.",
    "slack": "Ok — the claims table is being reprocessed, so any pull from it right now would be inconsistent. I'll "
             "wait before rerunning the base.",
    "ci": "The check fails on the tests, and the NOTE is the usual global-variable one (`expo`). Want me to fix both?",
}
PASTE_OUTRO = ("dá uma olhada e me fala o que impacta a gente", "nada urgente, só pra você saber",
               "what do we need to change because of this?", "vamos ver isso depois", "anota aí")


# --- the session builder ------------------------------------------------------------------------------------------

class _Session:
    def __init__(self, rng: random.Random, n: int) -> None:
        self.rng = rng
        self.n = n
        self.msgs: list[Message] = []
        self.deferred: list[tuple[int, Callable[[int], str], float]] = []
        self.pasted: list[tuple[int, str]] = []
        self.calls = 0
        self.tool_queue: list[str] = list(TOOLS)
        rng.shuffle(self.tool_queue)
        self.todo = ["refit GLM freq", "GAM sev", "triângulos", "nota técnica", "pacote filing", "R CMD check limpo"]
        self.done: set[str] = set()

    # messages
    def user(self, text: str) -> int:
        self.msgs.append({"role": "user", "content": text})
        return len(self.msgs) - 1

    def say(self, text: str) -> int:
        self.msgs.append({"role": "assistant", "content": text})
        return len(self.msgs) - 1

    def call(self, text: str, calls: list[tuple[str, dict[str, Any]]]) -> tuple[int, list[str]]:
        ids = []
        tc = []
        for name, args in calls:
            self.calls += 1
            cid = f"call_{self.calls:05d}_{_hex(self.rng, 6)}"
            ids.append(cid)
            tc.append({"id": cid, "type": "function", "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)}})
            if name in self.tool_queue:
                self.tool_queue.remove(name)
        self.msgs.append({"role": "assistant", "content": text, "tool_calls": tc})
        return len(self.msgs) - 1, ids

    def result(self, cid: str, name: str, content: str | Callable[[int], str], weight: float = 0.0) -> int:
        self.msgs.append({"role": "tool", "tool_call_id": cid, "name": name, "content": content if isinstance(content, str) else ""})
        i = len(self.msgs) - 1
        if not isinstance(content, str):
            self.deferred.append((i, content, weight))
        return i

    # filler actions: (tool name, args, output, weight, summary for the assistant)
    def action(self, tool: str | None = None) -> tuple[str, dict[str, Any], Callable[[int], str], float, str, str]:
        r = self.rng

        def rq(options: tuple[str, ...]) -> str:
            return r.choice(options)
        if tool is None:
            tool = self.tool_queue.pop(0) if self.tool_queue else r.choice(TOOLS[:1] * 3 + TOOLS)
        w = r.uniform(0.6, 1.6)
        if tool == "r_run":
            k = r.randrange(7)
            if k == 0:
                fam = r.choice(("poisson", "gamma", "tweedie"))
                code = f"fit <- ajusta_{'freq' if fam == 'poisson' else 'sev'}(base, family = \"{fam}\")\nsummary(fit)"
                return tool, {"code": code}, lambda s: _glm_summary(r, s, fam), w * 1.2, f"The {fam} GLM converged; coefficient table below is the full one, nothing weird in the signs.", rq(("refit the freq GLM with the current base", "roda o GLM de novo", "refaz o glm com a base nova pfv", "e o ajuste de severidade?"))
            if k == 1:
                return tool, {"code": "fit_sev <- mgcv::gam(form_sev, family = Gamma(link = \"log\"), data = base_sev, method = \"REML\")\nsummary(fit_sev)"}, lambda s: _gam_summary(r, s), w, "GAM fitted with REML. The te(lat, lon) surface takes most of the edf, as before.", rq(("como ficou o GAM?", "roda o GAM de severidade", "gam again please, with REML"))
            if k == 2:
                cov = r.choice(COVERAGES)
                return tool, {"code": f"source(here::here(\"R/triangulo.R\"))\nroda_triangulos(c(\"{cov}\", \"casco\"))"}, lambda s: _triangle(r, s), w * 1.3, f"Triangles rebuilt. The {cov} development looks stable after month 36; the latest diagonal has no obvious outlier.", rq(("refaz os triângulos", "rebuild the triangles", "triangulos de novo, mexeram na base"))
            if k == 3:
                return tool, {"code": "base <- carrega_base(con, 2023)\nbase"}, lambda s: _tibble(r, s), w * 0.8, "Base loaded. Row count matches yesterday's pull.", rq(("quick sanity check on the base please", "carrega a base de 2023", "mostra a base"))
            if k == 4:
                return tool, {"code": "devtools::check(document = FALSE, args = \"--no-manual\")"}, lambda s: _rcmd_check(r, s), w * 0.7, "Check is clean apart from the timestamp NOTE, which is the sandbox clock.", rq(("ok, agora o check do pacote", "R CMD check pls", "roda o check"))
            if k == 5:
                return tool, {"code": "renv::status()"}, lambda s: _renv_status(r, s), w * 0.3, "renv is slightly out of sync; nothing that changes results, I'd snapshot at the end of the day.", rq(("can you check the lockfile?", "o renv tá ok?", "renv status?"))
            return tool, {"code": "lintr::lint_package()"}, lambda s: _r_lint(r, s), w * 0.4, "Only style lints (line length, object names).", rq(("faz o lint aí", "lint the package", "roda o lintr"))
        if tool == "psql_query":
            k = r.randrange(3)
            if k == 0:
                sql = f"SELECT ano_mes, regiao, cobertura, sum(expo) AS expostos, count(*) FILTER (WHERE n_sin>0) AS n_sin ... FROM pricing.base_freq WHERE ano >= {r.randint(2019, 2022)} GROUP BY 1,2,3 ORDER BY 1,2,3;"
                return tool, {"sql": sql, "db": "dw_sinistros"}, lambda s: _psql_table(r, s), w * 1.2, "Pulled the aggregates; frequency by region is in line with the last closing.", rq(("puxa a exposição por região de novo", "pull exposure and claim counts by region", "e a sinistralidade do interior?", "puxa a exposicao por regiao"))
            if k == 1:
                return tool, {"sql": "EXPLAIN ANALYZE SELECT ... FROM dw_sinistros.sinistros s JOIN pricing.expostos_mes e USING (apolice, ano_mes);", "db": "dw_sinistros"}, lambda s: _explain(r, s), w * 0.6, "The plan is a parallel hash join; most of the time is the seq scan on sinistros.", rq(("tá lento hoje o banco né", "why is the pull so slow?", "explain nessa query"))
            return tool, {"sql": f"SELECT * FROM dw_sinistros.sinistros WHERE vl_pago > {r.randint(50, 300)}000 ORDER BY vl_pago DESC LIMIT 500;", "db": "dw_sinistros"}, lambda s: _psql_claims(r, s), w, "Large claims listed. A handful are reopened; nothing looks like a typo.", rq(("show me the big claims", "lista os sinistros grandes", "quais os maiores sinistros?"))
        if tool == "testthat":
            p = r.randint(380, 520)
            return tool, {"path": "tests/testthat", "reporter": "progress"}, lambda s: _testthat_pass(r, s, p), w, f"All green: {p} passed, 1 skipped (the CRAN-only one).", rq(("roda os testes", "run the tests again pls", "roda os tetses", "testes?"))
        if tool == "stan_fit":
            return tool, {"model": "stan/sev_hier.stan", "data": "data/base_sev.rds", "chains": 4, "iter_warmup": 1000, "iter_sampling": 1000},\
                lambda s: _stan_progress(r, s), w * 1.2, "Fit finished without divergences; all Rhat at 1.00 and bulk ESS above 1500.", rq(("fit the severity model again", "roda o brms de novo", "refit stan pls"))
        if tool == "quarto_render":
            return tool, {"input": "reports/nota_tecnica.qmd", "to": "html"}, lambda s: _quarto(r, s), w * 0.6, "Rendered; the html is in _output/.", rq(("render the nota técnica, I want to see the tables", "renderiza a nota", "gera o html da nota técnica"))
        if tool == "git":
            k = r.randrange(3)
            if k == 0:
                return tool, {"args": ["log", f"-{r.randint(10, 40)}"]}, lambda s: _git_log(r, s), w * 0.6, "Recent history is mostly the GLM and the report.", rq(("o que mudou desde ontem?", "git log?", "what did people push this week?"))
            if k == 1:
                return tool, {"args": ["diff", "HEAD~1"]}, lambda s: _git_diff(r, s), w * 0.8, "The diff is small: filtering and the join on `nivel`.", rq(("let's see the diff before I commit", "mostra o diff", "diff pls"))
            st = (f"On branch main\nYour branch is up to date with 'origin/main'.\n\nChanges not staged for commit:\n"
                  f"\tmodified:   {r.choice(FILLER_FILES[:7])}\n\tmodified:   {r.choice(FILLER_FILES[7:12])}\n\nUntracked files:\n\t_output/\n")
            return tool, {"args": ["status"]}, lambda s: st, 0.0, "Two modified files, nothing staged.", rq(("git status?", "tem coisa sem commitar?", "what's uncommitted?"))
        if tool == "read_file":
            path = r.choice([f for f in FILLER_FILES if f not in ("DESCRIPTION", "NEWS.md", "reports/nota_tecnica.qmd")])
            if path.endswith(".R"):
                fn: Callable[[int], str] = lambda s: _r_file(r, s, path)  # noqa: E731
            elif path.endswith(".sql"):
                fn = lambda s: _sql_file(r, s)  # noqa: E731
            elif path == "renv.lock":
                fn = lambda s: _renv_lock(r, s)  # noqa: E731
            else:
                fn = lambda s: _yaml(r, s)  # noqa: E731
            return tool, {"path": path}, fn, w * 0.7, f"Read `{path}`; the relevant part is around line {r.randint(20, 300)}.", rq((f"dá uma olhada no {path}", f"open {path}", f"lê o {path} pra mim"))
        # write_file
        path = r.choice(FILLER_FILES[:7])
        content = _r_file(r, r.randint(300, 1200), path)
        return tool, {"path": path, "content": content}, lambda s: f"Wrote {len(content.encode())} bytes to {path}", 0.0,\
            f"Updated `{path}` ({len(content.splitlines())} lines).", rq((f"aplica aquela mudança no {path}", "ok, write it", f"update {path} then"))

    def round(self, text: str, k: int, acts: list[tuple[str, dict[str, Any], Callable[[int], str], float, str, str]] | None = None) -> list[str]:
        acts = acts or [self.action() for _ in range(k)]
        _i, ids = self.call(text, [(a[0], a[1]) for a in acts])
        for cid, a in zip(ids, acts):
            if a[3] == 0.0:
                self.result(cid, a[0], a[2](0))
            else:
                self.result(cid, a[0], a[2], a[3])
        return [a[4] for a in acts]

    def filler_episode(self, length: int, paste: str | None = None) -> None:
        """``length`` messages (2 or 4+): a user turn, tool rounds, an answer."""
        r = self.rng
        rounds: list[int] = []
        rest = length - 2
        while rest > 0:
            k = 1 if rest in (2, 4) or rest == 5 and r.random() < 0.5 else min(rest - 1, r.choice((1, 1, 1, 2, 2, 3)))
            if self.tool_queue:
                k = min(rest - 1, 3, max(k, len(self.tool_queue)))
            if rest - (k + 1) == 1:
                k = rest - 1 if rest - 1 <= 3 else k + 1
            rounds.append(k)
            rest -= k + 1
        first = [self.action() for _ in range(rounds[0])] if rounds else []
        if paste is not None:
            intro = r.choice(PASTE_INTRO[paste])
            body = _paste(r, paste)
            i = self.user(f"{intro}\n\n{body}\n\n{r.choice(PASTE_OUTRO)}")
            self.pasted.append((i, body))
        elif len(self.msgs) == 1:
            self.user(r.choice(OPENERS))
        elif first and r.random() < 0.7:
            self.user(_decorate(r, first[0][5]))
        else:
            self.user(_decorate(r, r.choice(FILLER_USER)))
        notes: list[str] = []
        for j, k in enumerate(rounds):
            for note in self.round(_lead(r), k, first if j == 0 else None):
                if note not in notes:
                    notes.append(note)
        answer = _answer(r, notes, self)
        if paste is not None:
            answer = f"{PASTE_ANSWER[paste]}\n\n{answer}" if notes else PASTE_ANSWER[paste]
        self.say(answer)

    def filler(self, length: int) -> None:
        r = self.rng
        while length > 0:
            if length <= 12:
                e = length
            else:
                e = r.randint(4, min(12, length - 4))
            self.filler_episode(e, self.next_paste(e))
            length -= e

    def next_paste(self, e: int) -> str | None:
        return None


def _r_lint(rng: random.Random, size: int) -> str:
    def row() -> str:
        f = rng.choice(FILLER_FILES[:7])
        return (f"{f}:{rng.randint(1, 300)}:{rng.randint(1, 80)}: style: [{rng.choice(('line_length_linter', 'object_name_linter', 'indentation_linter'))}] "
                f"{rng.choice(('Lines should not be more than 80 characters.', 'Variable and function name style should match snake_case.', 'Indentation should be 2 spaces but is 4 spaces.'))}")

    return _fill(size, "", row, "")


FILLER_USER = (
    "ok", "go", "beleza, segue", "pode ir", "vlw", "manda ver", "hmm ok", "sim", "next", "e o AIC?", "👍", "continua",
    "pera, roda de novo que eu mexi na base", "beleza. e agora?", "tô numa call, segue sem mim", "voltei. onde paramos?",
    "quanto deu o deviance?", "ok that's fine", "nice", "pode seguir com o próximo item da lista", "segue o baile",
    "ok, faz o que achar melhor", "hmm, estranho. continua", "sure", "blz",
)
OPENERS = (
    "bom dia! hoje a ideia é fechar o GLM de frequência e a nota técnica pro filing. começa vendo o estado do repo?",
    "morning. we need the pricing pack for the SUSEP filing this quarter — let's start by checking where things are",
    "oi! bora continuar o ajuste da tarifa auto. dá uma geral no pacote primeiro",
)


def _decorate(rng: random.Random, t: str) -> str:
    x = rng.random()
    if x < 0.1:
        return t + f" (reunião às {_clock(rng)})"
    if x < 0.17:
        return t + f" — o {rng.choice(PEOPLE)} pediu"
    if x < 0.24:
        return t + rng.choice((" pls", " rs", " kkk", "?"))
    return t


LEADS = ("", "", "Running it.", "Vou rodar.", "Let me check.", "Checking the current state first.", "Rodando agora.",
         "One sec.", "Pulling that.", "I'll look at both in parallel.")


def _lead(rng: random.Random) -> str:
    return rng.choice(LEADS)


def _answer(rng: random.Random, notes: list[str], s: _Session) -> str:
    if not notes:
        return rng.choice(("Ok.", "Sure — tell me when you want me to continue.", "Beleza, fico no aguardo.",
                           "Got it. I'll keep going with the next item on the list when you say so.",
                           "Certo. Enquanto isso deixei o renv como estava."))
    head = rng.choice(("Done.", "Pronto.", "Here's where we are.", "Resumo:", "Ok, finished.", "Feito."))
    body = " ".join(notes[:3])
    x = rng.random()
    if x < 0.2:
        left = [t for t in s.todo if t not in s.done]
        if left:
            s.done.add(left[0])
        lines = "\n".join(f"- [{'x' if t in s.done else ' '}] {t}" for t in s.todo)
        body += f"\n\nTodo:\n{lines}"
    elif x < 0.35:
        body += (f"\n\nTwo options: (a) rerun on the full base (~{rng.randint(10, 50)} min), or (b) go with the sample "
                 f"and confirm at the end. I'd pick ({rng.choice('ab')}).")
    elif x < 0.45:
        body += f"\n\nRelevant bit is `R/{rng.choice(('tarifa', 'freq_glm', 'sev_gam', 'triangulo'))}.R:{rng.randint(20, 300)}`; rodei às {_clock(rng)}."
    elif x < 0.52:
        body += f"\n\n```json\n{{\"n_obs\": {rng.randint(100000, 900000)}, \"aic\": {rng.uniform(2e5, 9e5):.1f}, \"port\": 5432}}\n```"
    elif x < 0.58:
        body += f"\n\n> {rng.choice(('nada urgente', 'roda de novo', 'o que mudou?'))}\n\nYes — nothing changed on our side since {_clock(rng)}."
    return f"{head} {body}"


# --- fact episodes ------------------------------------------------------------------------------------------------

class _Item:
    """One episode to place: a fact's or a stale value's. ``offset`` is where its carrier sits in it."""

    def __init__(self, kind: str, length: int, offset: int, build: Callable[[_Session], Any], target: float) -> None:
        self.kind = kind
        self.length = length
        self.offset = offset
        self.build = build
        self.target = target
        self.carrier = -1


def _ack(rng: random.Random, options: tuple[str, ...], **kw: str) -> str:
    return rng.choice(options).format(**kw)


def _user_episode(s: _Session, text: str, reply: str, rich: bool, paste: str | None = None) -> int:
    """A user turn carrying something, the agent's answer (with a tool round when ``rich``): 2 or 4 messages."""
    i = s.user(text)
    if paste is not None:
        s.pasted.append((i, paste))
    if rich:
        notes = s.round(reply, 1)
        s.say(s.rng.choice(("Done.", "Pronto.", "Ok.")) + " " + notes[0])
    else:
        s.say(reply)
    return i


def _error_output(r: random.Random, tool: str, line: str, size: int) -> str:
    if tool == "testthat":
        out = _testthat_pass(r, size)
        cut = out.rfind("\n══ Results")
        return (out[:cut] + "\n\n══ Failed tests ════════════════════════════════════════════════════\n" + line + "\n"
                + "`premio_puro(perfil)` (`actual`) not equal to `tabela_filed$premio` (`expected`).\n\n"
                + f"  `actual`: {r.uniform(900, 4000):.2f}\n`expected`: {r.uniform(900, 4000):.2f}\n\n"
                + f"[ FAIL 1 | WARN {r.randint(0, 3)} | SKIP 1 | PASS {r.randint(380, 520)} ]")
    if tool == "r_run":
        if "no visible binding" in line:
            out = _rcmd_check(r, size)
            cut = out.rfind("── R CMD check results")
            return (out[:cut] + "── R CMD check results ──────────── pricingSP ────\n\n0 errors ✔ | 0 warnings ✔ | 1 note ✖\n"
                    + "❯ checking R code for possible problems ... NOTE\n" + line + "\nUndefined global functions or variables:\n"
                    + "  " + line.rsplit("‘", 1)[1].rstrip("’"))
        return _tibble(r, size) + "\n> fit <- ajusta(base)\n" + line + "\nCalls: ajusta -> <Anonymous> -> eval -> eval -> eval"
    if tool == "psql_query":
        return _psql_table(r, size) + f"\n\n{line}\nLINE {r.randint(2, 9)}:   AND s.ano_mes >= '2023-01'\n        ^"
    if tool == "stan_fit":
        return _stan_progress(r, size) + "\n" + line
    if tool == "quarto_render":
        return _quarto(r, size).rsplit("output file:", 1)[0] + line + "\n\nExecution halted"
    return ("Enumerating objects: 23, done.\nCounting objects: 100% (23/23), done.\nDelta compression using up to 16 threads\n"
            f"Writing objects: 100% (12/12), {r.uniform(2, 40):.2f} KiB | {r.uniform(1, 9):.2f} MiB/s, done.\n"
            f"To gitlab.seguradora.com.br:pricing/repo.git\n ! [rejected]        HEAD -> main (fetch first)\n{line}\n"
            "hint: Updates were rejected because the remote contains work that you do not\n"
            "hint: have locally. Integrate the remote changes (e.g. 'git pull ...') before pushing again.")


def _pass_output(r: random.Random, tool: str, line: str, size: int) -> str:
    if tool == "testthat":
        return _testthat_pass(r, size)
    if tool == "r_run":
        return _rcmd_check(r, size) if "no visible binding" in line else _glm_summary(r, size)
    if tool == "psql_query":
        return _psql_table(r, size)
    if tool == "stan_fit":
        return _stan_progress(r, size)
    if tool == "quarto_render":
        return _quarto(r, size)
    return (f"Enumerating objects: 31, done.\nWriting objects: 100% (14/14), 3.10 KiB | 3.10 MiB/s, done.\n"
            f"To gitlab.seguradora.com.br:pricing/repo.git\n   {_hex(r, 7)}..{_hex(r, 7)}  HEAD -> main")


ERROR_ARGS = {"testthat": lambda g: {"path": g, "reporter": "progress"}, "r_run": lambda g: {"code": g},
              "psql_query": lambda g: {"sql": g, "db": "dw_sinistros"},
              "stan_fit": lambda g: {"model": g, "chains": 4, "iter_warmup": 1000, "iter_sampling": 1000},
              "quarto_render": lambda g: {"input": g, "to": "html"}, "git": lambda g: {"args": g.split()}}
ERROR_WHY = {"testthat": "the fixture still has last filing's premiums", "r_run": "the base and the formula disagree",
             "psql_query": "the warehouse schema changed under us", "stan_fit": "the sampler is struggling with the regional scale",
             "quarto_render": "a chunk depends on an object that no longer exists", "git": "someone pushed to main before us"}


def _finding_output(r: random.Random, tool: str, line: str, size: int) -> str:
    if tool == "psql_query":
        if "statement_timeout" in line:
            return _psql_table(r, size) + "\n\n-[ RECORD 1 ]-----+-----\n" + line
        return _psql_table(r, size) + "\n\n diagnostico\n-------------------------------------------\n" + line + "\n(1 row)"
    if tool == "read_file":
        out = _yaml(r, size).split("\n")
        out.insert(len(out) // 2 - (len(out) // 2) % 6 + 1, line)
        return "\n".join(out)
    if tool == "stan_fit":
        return _stan_progress(r, size) + "\n\n" + line
    if tool == "git":
        msgs = ("ajusta faixas", "nota técnica", "fix offset", "renv", "tests bonus", "lintr")
        rows = [f"{_hex(r, 7)} {r.choice(msgs)}" for _ in range(max(8, size // 30))]
        rows.insert(r.randint(2, len(rows) - 2), line)
        return "\n".join(rows)
    base = r.choice((_glm_summary, _gam_summary))
    return base(r, size) + "\n> diagnostico(fit)\n" + line


def _identifier_output(r: random.Random, tool: str, value: str, size: int) -> str:
    if tool == "git":
        out = _git_log(r, size)
        return out.replace("commit ", f"commit {value}{_hex(r, 28)}\nAuthor: Rodrigo <rodrigo@seguradora.com.br>\n"
                           "Date:   Wed Jun 12 16:41:09 2024 -0300\n\n    relatividades: troca fator uso_app direto na tabela\n\ncommit ", 1)
    if tool == "stan_fit":
        return _stan_progress(r, size) + f"\n\nSaved fit to runs/{value}/fit.rds"
    if tool == "psql_query":
        return (" lote           | carregado_em        | linhas  | status\n----------------+---------------------+---------+--------\n"
                f" {value} | 2024-06-1{r.randint(0, 9)} 0{r.randint(0, 9)}:12:44 | {r.randint(1000, 90000):>7} | aplicado\n(1 row)\n\n"
                + _psql_table(r, size))
    if tool == "read_file":
        out = _renv_lock(r, size)
        return out.replace('"Packages": {', '"Packages": {\n    "ChainLadder": {\n      "Package": "ChainLadder",\n'
                           f'      "Version": "0.2.19",\n      "Source": "Repository",\n      "Repository": "CRAN",\n      "Hash": "{value}"\n    }},', 1)
    return _rcmd_check(r, size) + f"\n> monta_pacote_filing()\nFiling package id: {value}\nWrote _output/filing/{value}.zip"


# --- placing the episodes -----------------------------------------------------------------------------------------

def _plan_items(rng: random.Random, n: int, vals: _Values) -> list[_Item]:
    """The episodes of the planted facts, with target positions; and how to make each fact once placed."""
    k = per_kind(n)
    lo, hi = math.ceil(0.03 * n), math.floor(0.88 * n)
    n_items = 8 * k + k + max(1, k // 3)
    room = (hi - lo) / n_items
    p_rich = max(0.0, min(1.0, (room - 5) / 8))

    def rich() -> bool:
        return rng.random() < p_rich

    def pick(pool: list[Any]) -> list[Any]:
        order = rng.sample(range(len(pool)), len(pool))
        return [pool[order[i % len(pool)]] for i in range(k)]

    def draw(make: Callable[[], Any], key: Callable[[Any], tuple[str, ...]]) -> Any:
        for _ in range(200):
            got = make()
            if vals.free(*key(got)):
                vals.claim(*key(got))
                return got
        raise RuntimeError("could not draw a distinct value")

    makers: list[tuple[str, Callable[[_Session], tuple[int, Fact]], int, int, tuple[Callable[[_Session], int], int] | None]] = []
    # (kind, build -> (carrier, fact-without-index), length, offset, stale-episode)

    # instructions
    tpl = _instructions()
    plain = [t for t in tpl if not t[2]]
    firsts = rng.sample(plain, 2)
    rest = [t for t in tpl if t not in firsts]
    rng.shuffle(rest)
    chosen = (firsts + rest) * (k // len(tpl) + 1)
    for make, text, is_adopted in chosen[:k]:
        value, query = draw(lambda m=make: m(rng), lambda g: (g[0],))
        msg = text(value, rng)
        paste = None
        if is_adopted:
            kind = rng.choice(("mail", "review"))
            paste = _paste(rng, kind)
            msg = f"{rng.choice(PASTE_INTRO[kind])}\n\n{paste}\n\n{msg}"
        reply = _ack(rng, ("Entendido: {v}. Vou seguir isso daqui pra frente.", "Noted — {v}, from now on.",
                            "Ok, regra anotada: {v}.", "Understood. I'll keep to it ({v})."), v=value)
        is_rich = rich()

        def b(s: _Session, msg: str = msg, reply: str = reply, is_rich: bool = is_rich, paste: str | None = paste,
              value: str = value, query: str = query) -> tuple[int, Fact]:
            i = _user_episode(s, msg, reply, is_rich, paste)
            return i, Fact("instruction", value, i, query)
        makers.append(("instruction", b, 4 if is_rich else 2, 0, None))

    # corrections: near misses first in the pool so at least half are near
    ctpl = _corrections()
    near, loose = ctpl[:-2], ctpl[-2:]
    rng.shuffle(near)
    pool = (near[:max(1, k - k // 3)] + loose)[:k] if k <= len(ctpl) else (near + loose) * (k // len(ctpl) + 1)
    pool = pool[:k] if len(pool) >= k else (pool * k)[:k]
    rng.shuffle(pool)
    for noun, make in pool:
        stale, value, query = draw(lambda m=make: m(rng), lambda g: (g[0], g[1]))
        pt = rng.random() < 0.5
        pt_is, en_is = noun
        say_old = rng.choice((f"pro filing, {pt_is} {stale}. anota aí", f"{pt_is} {stale}, usa esse",
                              f"for this one, {en_is} {stale}", f"fyi {en_is} {stale}"))
        ack_old = rng.choice((f"Ok — {stale}.", f"Anotado: {stale}.", f"Got it, {stale}."))
        if pt:
            corr = rng.choice((f"não não, errei: é {value}, não {stale}.", f"corrigindo: {pt_is} {value}.",
                               f"foi mal, passei errado. é o outro: {value}.",
                               f"pera, na verdade é {value}. o {stale} é do trimestre passado."))
        else:
            corr = rng.choice((f"no wait, I gave you the wrong one — it's {value}.", f"the other one: {value}, sorry.",
                               f"scratch that, {en_is} {value}, not {stale}.", f"my bad, {value} is the right one."))
        if rng.random() < 0.35:
            corr = (f"{rng.choice(('voltei da reunião com a Fernanda.', 'ok, li o relatório de ontem inteiro.', 'back from lunch.'))} "
                    f"{rng.choice(('O ponto principal é que o prazo do filing não muda e a revisão vai pedir o backtest por safra.', 'Most of it looks fine, the tables render and the lift chart is what we expected.'))}"
                    f" Ah, e {corr} {rng.choice(('De resto segue o plano, sem pressa no GAM.', 'Everything else stays as it is; keep going with the list.'))}")
        reply = _ack(rng, ("Ok, switching to {v} (not {s}).", "Corrigido: {v}. Refaço o que usou {s}.",
                           "Got it — {v}. I had {s} before."), v=value, s=stale)
        is_rich, old_rich = rich(), rich()

        def b(s: _Session, corr: str = corr, reply: str = reply, is_rich: bool = is_rich, value: str = value,
              query: str = query, stale: str = stale) -> tuple[int, Fact]:
            i = _user_episode(s, corr, reply, is_rich)
            return i, Fact("correction", value, i, query, stale=stale)

        def old(s: _Session, say_old: str = say_old, ack_old: str = ack_old, old_rich: bool = old_rich) -> int:
            return _user_episode(s, say_old, ack_old, old_rich)
        makers.append(("correction", b, 4 if is_rich else 2, 0, (old, 4 if old_rich else 2)))

    # decisions: a third revise the user's own earlier choice
    dtpl = pick(_decisions())
    revise = set(rng.sample(range(k), max(1, k // 3)))
    for j, (make, query) in enumerate(dtpl):
        if j in revise:
            stale, value = draw(lambda m=make: (m(rng), m(rng)), lambda g: g)
            msg = rng.choice((f"pensando melhor, vamos de {value} em vez de {stale}", f"changed my mind: {value}, not {stale}",
                              f"não, muda: {value}. o {stale} não convenceu"))
        else:
            stale, value = None, draw(lambda m=make: m(rng), lambda g: (g,))
            msg = rng.choice((f"let's go with {value}", f"fechado: {value}", f"decidi: {value}. o resto fica igual",
                              f"ok, vamos de {value} então", f"I'll take option b — {value}"))
        reply = _ack(rng, ("Going with {v}.", "Fechado, {v}. Atualizo o script.", "Ok: {v}. I'll refit with it."), v=value)
        is_rich = rich()

        def b(s: _Session, msg: str = msg, reply: str = reply, is_rich: bool = is_rich, value: str = value,
              query: str = query, stale: str | None = stale) -> tuple[int, Fact]:
            i = _user_episode(s, msg, reply, is_rich)
            return i, Fact("decision", value, i, query, stale=stale)
        st = None
        if stale is not None:
            old_msg = rng.choice((f"vamos de {stale} por enquanto", f"let's go with {stale} for now", f"fica {stale}, depois a gente vê"))
            old_rich = rich()

            def old(s: _Session, old_msg: str = old_msg, stale: str = stale, old_rich: bool = old_rich) -> int:
                return _user_episode(s, old_msg, f"Ok, {stale}.", old_rich)
            st = (old, 4 if old_rich else 2)
        makers.append(("decision", b, 4 if is_rich else 2, 0, st))

    # plans
    for make, text, query in pick(_plans()):
        value = draw(lambda m=make: m(rng), lambda g: (g,))
        msg = text(value)
        reply = _ack(rng, ("Plano anotado — começo por aí: {v}.", "Sounds good. Step one as you said: {v}.",
                           "Ok. Vou seguir essa ordem ({v} primeiro)."), v=value)
        is_rich = rich()

        def b(s: _Session, msg: str = msg, reply: str = reply, is_rich: bool = is_rich, value: str = value,
              query: str = query) -> tuple[int, Fact]:
            i = _user_episode(s, msg, reply, is_rich)
            return i, Fact("plan", value, i, query)
        makers.append(("plan", b, 4 if is_rich else 2, 0, None))

    # identifiers, said and printed
    said, printed = _identifiers()
    carriers = (["user", "tool"] * k)[:k]
    rng.shuffle(carriers)
    said_pick, printed_pick = pick(said), pick(printed)
    for j, carrier in enumerate(carriers):
        if carrier == "user":
            make, text, query = said_pick[j]
            value = draw(lambda m=make: m(rng), lambda g: (g,))
            msg = text(value)
            reply = _ack(rng, ("Got it, {v}.", "Anotado: {v}.", "Ok — using {v}."), v=value)
            is_rich = rich()

            def b(s: _Session, msg: str = msg, reply: str = reply, is_rich: bool = is_rich, value: str = value,
                  query: str = query) -> tuple[int, Fact]:
                i = _user_episode(s, msg, reply, is_rich)
                return i, Fact("identifier", value, i, query)
            makers.append(("identifier", b, 4 if is_rich else 2, 0, None))
        else:
            tool, make, query = printed_pick[j]
            value = draw(lambda m=make: m(rng), lambda g: (g,))
            ask = {"git": "quem mexeu nas relatividades? olha o log", "stan_fit": "refit the severity model and keep the run",
                   "psql_query": "qual lote de backfill entrou por último?", "read_file": "what does the lockfile pin for ChainLadder?",
                   "r_run": "monta o pacote do filing"}[tool]
            args = {"git": {"args": ["log", "--", "R/relatividades.R"]}, "stan_fit": {"model": "stan/sev_hier.stan", "chains": 4, "save": True},
                    "psql_query": {"sql": "SELECT lote, carregado_em, linhas, status FROM dw_sinistros.cargas ORDER BY carregado_em DESC LIMIT 1;", "db": "dw_sinistros"},
                    "read_file": {"path": "renv.lock"}, "r_run": {"code": "monta_pacote_filing()"}}[tool]

            def b(s: _Session, tool: str = tool, value: str = value, query: str = query, ask: str = ask,
                  args: dict[str, Any] = args) -> tuple[int, Fact]:
                s.user(ask)
                _c, ids = s.call(_lead(s.rng), [(tool, args)])
                i = s.result(ids[0], tool, lambda size: _identifier_output(s.rng, tool, value, size), s.rng.uniform(0.5, 1.2))
                s.say(f"It's `{value}`." + rng.choice(("", " I'll reference it in the notes.", " Anotei no todo.")))
                return i, Fact("identifier", value, i, query)
            makers.append(("identifier", b, 4, 2, None))

    # errors: some resolved by a later passing run of the same tool
    etpl = pick(_errors())
    resolved = set(rng.sample(range(k), 1 if k == 1 else max(1, k // 2)))
    for j, (tool, make, gist, query) in enumerate(etpl):
        line = draw(lambda m=make: m(rng), lambda g: (g,))
        fix = j in resolved
        ask = rng.choice(("roda de novo", "run it", "go", "tenta aí", "ok, run it and tell me", "manda"))
        long_fix = fix and rich()

        def b(s: _Session, tool: str = tool, line: str = line, gist: str = gist, query: str = query, ask: str = ask,
              fix: bool = fix, long_fix: bool = long_fix) -> tuple[int, Fact]:
            r = s.rng
            s.user(ask)
            args = ERROR_ARGS[tool](gist)
            _c, ids = s.call(_lead(r), [(tool, args)])
            i = s.result(ids[0], tool, lambda size: _error_output(r, tool, line, size), r.uniform(0.6, 1.4))
            why = ERROR_WHY[tool]
            if not fix:
                s.say(f"It fails:\n\n{line}\n\nMy read: {why}. I'd rather not guess here — do you want me to dig into it now or "
                      "park it? Leaving it open on the todo.")
                return i, Fact("error", line, i, query)
            if long_fix:
                _c, w = s.call(f"The run fails with:\n\n{line}\n\nCause: {why}. Fixing that first.",
                               [("write_file", {"path": r.choice(FILLER_FILES[:7]), "content": _r_file(r, 500, "fix")})])
                s.result(w[0], "write_file", "Wrote 612 bytes")
                _c, ids = s.call("Rerunning.", [(tool, args)])
            else:
                _c, ids = s.call(f"Failed with:\n\n{line}\n\nCause: {why}; adjusted and rerunning the same command.", [(tool, args)])
            j2 = s.result(ids[0], tool, lambda size: _pass_output(r, tool, line, size), r.uniform(0.6, 1.2))
            s.say(r.choice(("Passes now.", "Agora passou.", "Clean run this time.")) + " The error is gone from the output.")
            return i, Fact("error", line, i, query, resolved=j2)
        makers.append(("error", b, (8 if long_fix else 6) if fix else 4, 2, None))

    # findings
    for tool, make, meaning, query in pick(_findings()):
        value, line = draw(lambda m=make: m(rng), lambda g: (g[0],))
        ask = rng.choice(("e aí, o que a gente descobre com isso?", "check it", "dá uma investigada", "what's going on there?",
                          "vê isso pra mim", "ok dig into it"))
        args = {"r_run": {"code": "diagnostico(fit)"}, "psql_query": {"sql": "SELECT diagnostico FROM pricing.checks_base();", "db": "dw_sinistros"},
                "read_file": {"path": "config.yml"}, "stan_fit": {"model": "stan/sev_hier.stan", "chains": 4},
                "git": {"args": ["log", "--oneline", "-S", "uso_app"]}}[tool]

        def b(s: _Session, tool: str = tool, value: str = value, line: str = line, meaning: str = meaning,
              query: str = query, ask: str = ask, args: dict[str, Any] = args) -> tuple[int, Fact]:
            r = s.rng
            s.user(ask)
            _c, ids = s.call(_lead(r), [(tool, args)])
            i = s.result(ids[0], tool, lambda size: _finding_output(r, tool, line, size), r.uniform(0.6, 1.3))
            s.say(f"Found it: {value}. What it means: {meaning}.")
            return i, Fact("finding", value, i, query)
        makers.append(("finding", b, 4, 2, None))

    # files, each written by the one call of its message
    for make, query in pick(_file_paths()):
        value = draw(lambda m=make: m(rng), lambda g: (g,))
        ask = rng.choice(("cria o arquivo pra isso", "put that in its own file", "escreve isso num arquivo novo", "ok, write it"))
        is_rich = rich()

        def b(s: _Session, value: str = value, query: str = query, ask: str = ask, is_rich: bool = is_rich) -> tuple[int, Fact]:
            r = s.rng
            s.user(ask)
            if is_rich:
                s.round("Looking at the current code first.", 1)
            body = _r_file(r, r.randint(400, 1400), value)
            i, ids = s.call(r.choice(("Writing it.", "Criando o arquivo.", "")), [("write_file", {"path": value, "content": body})])
            s.result(ids[0], "write_file", f"Wrote {len(body.encode())} bytes to {value}")
            s.say(f"Created `{value}` ({len(body.splitlines())} lines).")
            return i, Fact("file", value, i, query)
        makers.append(("file", b, 6 if is_rich else 4, 3 if is_rich else 1, None))

    # targets: the first two rules early, the rest spread; stale episodes before what corrects them
    first, second = [m for m in makers if m[0] == "instruction"][:2] if k >= 2 else ([m for m in makers if m[0] == "instruction"] + [None])[:2]
    others = [m for m in makers if m is not first and m is not second]
    rng.shuffle(others)
    items: list[_Item] = []
    t1 = rng.uniform(lo + 1, max(lo + 1, 0.07 * n))
    seq = [(first, t1)]
    a = t1 + first[2] + 2
    if second is not None:
        t2 = rng.uniform(a, max(a, 0.11 * n))
        seq.append((second, t2))
        a = t2 + second[2] + 2
    span = (hi - 6 - a) / max(1, len(others))
    for j, m in enumerate(others):
        seq.append((m, a + (j + rng.uniform(0.1, 0.9)) * span))
    far_budget = sorted([t for m, t in seq if m[0] == "correction"], reverse=True)
    far = set(far_budget[::2])
    for m, t in seq:
        kind, build, length, offset, st = m
        cell: dict[str, int] = {}
        if st is not None:
            def fb(s: _Session, build: Callable[[_Session], tuple[int, Fact]] = build,
                   cell: dict[str, int] = cell) -> tuple[int, Fact]:
                i, f = build(s)
                return i, dataclasses.replace(f, stale_index=cell["i"])

            def sb(s: _Session, old: Callable[[_Session], int] = st[0], cell: dict[str, int] = cell) -> int:
                cell["i"] = old(s)
                return cell["i"]
            items.append(_Item(kind, length, offset, fb, t))  # type: ignore[arg-type]
        else:
            items.append(_Item(kind, length, offset, build, t))  # type: ignore[arg-type]
        if st is not None:
            if kind == "correction" and t in far and t - a > 115:
                gap = rng.uniform(110, min(t - a, 110 + 0.12 * n))
            else:
                gap = rng.uniform(6, max(6.0, min(t - a, 0.04 * n + 10)))
            items.append(_Item("stale", st[1], 0, sb, max(a, t - gap)))
    return items


def _place(items: list[_Item], n: int, scale: float) -> list[tuple[int, int]] | None:
    """(filler before, start) of each item in order, or None when the layout breaks a promise."""
    lo, hi = math.ceil(0.03 * n), math.floor(0.88 * n)
    cursor = 1
    out = []
    for it in items:
        want = round(lo + (it.target - lo) * scale) - it.offset
        start = max(cursor, want)
        gap = start - cursor
        if gap in (1, 3):
            gap += 1
        start = cursor + gap
        if start + it.offset < lo:
            start = lo - it.offset
            gap = start - cursor
            if gap in (1, 3):
                gap += 1
                start += 1
        out.append((gap, start))
        cursor = start + it.length
    if n - 1 - cursor < 4:
        return None
    facts = [(it, s + it.offset) for it, (_g, s) in zip(items, out) if it.kind != "stale"]
    if any(not lo <= c <= hi for _it, c in facts):
        return None
    rules = sorted(c for it, c in facts if it.kind == "instruction")
    if len(rules) >= 2 and (rules[0] > n / 10 or rules[1] > n / 7):
        return None
    thirds = [0, 0, 0]
    for _it, c in facts:
        thirds[min(2, c * 3 // n)] += 1
    if min(thirds) < len(facts) // 6:
        return None
    return out


def make_session(seed: int = 1, messages: int = 400) -> Session:
    """A session of exactly ``messages`` messages (at least :data:`MIN_MESSAGES`) with its planted facts."""
    if messages < MIN_MESSAGES:
        raise ValueError(f"gen_actuary needs at least {MIN_MESSAGES} messages, got {messages}")
    n = messages
    rng = random.Random(seed)
    vals = _Values()
    items = _plan_items(rng, n, vals)
    items.sort(key=lambda it: it.target - it.offset)
    layout = None
    scale = 1.0
    for _ in range(200):
        layout = _place(items, n, scale)
        if layout is not None:
            break
        scale *= 0.98
    if layout is None:
        raise RuntimeError(f"no layout for {n} messages")

    s = _Session(rng, n)
    s.msgs.append({"role": "system", "content": SYSTEM})
    pastes = max(6, n // 110) if n >= 300 else max(1, n // 50)
    kinds = list(PASTE_KINDS)
    rng.shuffle(kinds)
    kinds += [rng.choice(PASTE_KINDS) for _ in range(pastes - len(kinds))]
    marks = [int(n * (0.04 + 0.88 * (j + 0.5) / pastes)) for j in range(pastes)]

    def next_paste(e: int) -> str | None:
        if marks and len(s.msgs) >= marks[0] and e >= 2:
            marks.pop(0)
            return kinds.pop(0)
        return None
    s.next_paste = next_paste  # type: ignore[method-assign]

    facts: list[Fact] = []
    for it, (gap, start) in zip(items, layout):
        s.filler(gap)
        assert len(s.msgs) == start, (len(s.msgs), start)
        if it.kind == "stale":
            it.build(s)
        else:
            _i, fact = it.build(s)  # type: ignore[misc]
            facts.append(fact)
        assert len(s.msgs) == start + it.length, (it.kind, len(s.msgs), start, it.length)
    s.filler(n - 1 - len(s.msgs))
    s.user(rng.choice(("ok, amanhã a gente continua. antes de fechar: resume o que falta pro filing?",
                       "beleza, vlw. what's left for the filing pack?", "pera, antes de eu sair: status geral?",
                       "ok. resume pra mim o que a gente decidiu hoje")))

    _render(s, rng.uniform(1500, 1600) * n)
    facts.sort(key=lambda f: (f.index, f.kind))
    return Session(messages=s.msgs, facts=facts, seed=seed, pasted=s.pasted)


def _render(s: _Session, target: float) -> None:
    """Give each deferred tool output its share of the characters left, and write it."""
    fixed = sum(len(text_of(m)) for m in s.msgs)
    weight = sum(w for _i, _f, w in s.deferred) or 1.0
    left = max(0.0, target - fixed)
    for i, fn, w in s.deferred:
        s.msgs[i]["content"] = fn(max(240, int(left * w / weight)))
