"""Sessions of a product/marketing analyst at a European meal-kit subscription business and a data agent,
with planted facts, for the fidelity bench.

    from gen_analytics import make_session
    session = make_session(seed=1, messages=400)     # about 600k characters
    session = make_session(seed=1, messages=3000)    # about 4.7M characters

The agent calls ``run_sql`` (BigQuery result tables and CSV), ``dbt`` (run / test / build / show logs with
``FAIL 3 not_null_...`` and ``Database Error in model ...`` lines), ``notebook`` (pandas cells: DataFrames,
``describe()``, tracebacks), ``read_file`` and ``write_file`` (SQL models, schema YAML, notebooks),
``dashboard`` (Looker API JSON) and ``search_docs`` (the company wiki), in loops of several calls a turn,
and answers in its own words. The user types from a phone, in English with Dutch and Polish phrases, with
typos; pastes CSV exports, Slack threads, finance emails, metric-definition docs, dbt failure logs and
chart notes from a deck (``session.pasted``), whose imperatives are other people's, not the user's.

Planted (``session.facts``): standing rules in many phrasings (direct, indirect, a preference, Dutch,
Polish, in a second paragraph, adopted from a pasted definitions doc); corrections far from and close to
what they correct, most of them near misses; decisions, some revised later; plans in prose; files the agent
writes; findings (a line of a tool output answering the user's question); exact error lines, some fixed by
a later run of the same tool; identifiers said by the user or printed by a tool.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from sessiongen import Fact, Message, Session, text_of

KINDS = ("instruction", "correction", "decision", "error", "file", "identifier", "finding", "plan")
TOOLS = ("run_sql", "dbt", "notebook", "read_file", "write_file", "dashboard", "search_docs")
SMALLEST = 60
AFTER_VALUE = 8  # messages after a fact's own that may repeat its value
STALE_REACH = 12  # messages after a stale value's own that may repeat it
CHARS_PER_MESSAGE = 1560
PROJECT = "kb-analytics-prod"
LOOKER = "https://kookbox.cloud.looker.com"


def per_kind(messages: int) -> int:
    """Facts of each kind: 1 at 60 messages, 6 at 400, 12 at 3000 and beyond, linear in between."""
    if messages <= 60:
        return 1
    if messages <= 400:
        return int(1 + 5 * (messages - 60) / 340 + 0.5)
    if messages <= 3000:
        return int(6 + 6 * (messages - 400) / 2600 + 0.5)
    return 12


# --- small helpers ------------------------------------------------------------------------------

def pick(rng: random.Random, seq: Any) -> Any:
    return seq[int(rng.random() * len(seq))]


def typo(rng: random.Random, text: str, rate: float = 0.06) -> str:
    """Phone typing: now and then two letters swapped, one dropped or doubled (placeholders are left alone)."""
    words = text.split(" ")
    for i, w in enumerate(words):
        if len(w) >= 5 and w.isalpha() and rng.random() < rate:
            j = 1 + int(rng.random() * (len(w) - 3))
            op = rng.random()
            if op < 0.5:
                w = w[:j] + w[j + 1] + w[j] + w[j + 2:]
            elif op < 0.8:
                w = w[:j] + w[j + 1:]
            else:
                w = w[:j] + w[j] + w[j:]
            words[i] = w
    return " ".join(words)


def fill(template: str, **values: str) -> str:
    for key, value in values.items():
        template = template.replace("{" + key + "}", value)
    return template


def hexid(rng: random.Random, n: int) -> str:
    return "".join(pick(rng, "0123456789abcdef") for _ in range(n))


def slug(rng: random.Random, n: int = 10) -> str:
    return "".join(pick(rng, "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(n))


def clock(seconds: int) -> str:
    seconds %= 86400
    return f"{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


# --- the business: models, columns, people, channels ---------------------------------------------

STG = ["stg_orders", "stg_subscriptions", "stg_customers", "stg_payments", "stg_deliveries", "stg_vouchers",
       "stg_recipes", "stg_box_skus", "stg_web_sessions", "stg_ad_spend", "stg_email_events", "stg_survey_responses"]
INT = ["int_box_deliveries", "int_subscription_events", "int_customer_first_order", "int_voucher_redemptions",
       "int_weekly_active_subs", "int_payment_failures", "int_marketing_touches"]
MARTS = ["fct_orders", "fct_subscriptions", "dim_customers", "dim_recipes", "fct_weekly_kpis", "fct_cohort_retention",
         "fct_marketing_spend", "fct_trial_conversions", "fct_ltv_by_channel", "dim_campaigns", "fct_pauses", "fct_skips"]
MODELS = STG + INT + MARTS
LAYER = {**{m: "staging" for m in STG}, **{m: "intermediate" for m in INT}, **{m: "marts" for m in MARTS}}
SCHEMA_FILES = ["models/staging/_staging__models.yml", "models/intermediate/_int__models.yml",
                "models/marts/_marts__models.yml", "models/staging/_sources.yml", "metrics/subscriptions.yml",
                "metrics/revenue.yml", "metrics/marketing.yml"]
NOTEBOOKS = ["notebooks/weekly_kpi_checks.py", "notebooks/cohort_curves.py", "notebooks/ltv_exploration.py",
             "notebooks/campaign_deepdive.py", "notebooks/skip_patterns.py"]


def model_path(name: str) -> str:
    return f"models/{LAYER[name]}/{name}.sql"


COLS = ["subscription_id", "customer_id", "order_id", "box_id", "delivery_date", "order_date", "signup_date",
        "first_box_date", "cohort_month", "channel", "campaign_id", "country_code", "plan_size", "meals_per_week",
        "box_price_eur", "discount_eur", "net_revenue_eur", "vat_eur", "is_trial", "is_paused", "skipped",
        "churned_at", "reactivated_at", "voucher_code", "recipe_id", "rating", "payment_status", "delivery_slot",
        "postcode_area", "iso_week"]
BAD_COLS = ["order_dt", "cust_id", "wk", "revenue", "cohort", "segment", "subs", "week_start", "plan", "ctry"]
FACT_COLS = ["cohort_wk", "signup_wk", "ltv12", "chanel", "country_cd", "first_box_dt", "boxes_delivrd", "net_rev",
             "trial_flag", "voucher_cd", "plan_sz", "deliv_week", "churn_dt", "reactiv_at", "campain_id", "meals_pw",
             "is_pausd", "box_sku_v2", "sub_start_ts", "skip_cnt", "ordr_total", "cust_segment"]
COUNTRIES = ["NL", "BE", "DE", "AT", "PL", "LU"]
CHANNELS = ["paid_search", "meta_paid", "tiktok_paid", "affiliate", "referral", "organic", "email", "podcast",
            "door_to_door", "influencer", "display", "app_store"]
RECIPES = ["Stamppot boerenkool", "Pierogi ruskie", "Teriyaki zalm", "Pad thai kip", "Risotto paddenstoel",
           "Shakshuka", "Gnocchi pesto", "Bigos light", "Chili sin carne", "Kip tandoori", "Gołąbki", "Poke bowl"]
PEOPLE = ["Tom Hendriks", "Eva Mulder", "Lars Peters", "Anna Kowalska", "Daan Smit", "Julia Dekker",
          "Michał Wiśniewski", "Fleur de Boer", "Piotr Mazur", "Lotte Meijer", "Ruben Bos", "Ola Krawczyk"]
FACT_PEOPLE = ["Agnieszka Zielińska", "Joost van Dam", "Marieke Bakker", "Wojciech Nowicki", "Sanne de Graaf",
               "Katarzyna Wójcik", "Pieter Jansen", "Magdalena Kaczmarek", "Bram Visser", "Zofia Lewandowska",
               "Hanna Verbeek", "Tymon Górski"]
SURNAMES = ["de Vries", "Kowalczyk", "van Leeuwen", "Zając", "Brouwer", "Pawlak", "Hoekstra", "Dąbrowska"]
METRICS = [("churn", "churn_rate"), ("trial conversion", "trial_conv_rate"), ("AOV", "aov_eur"),
           ("boxes per active sub", "boxes_per_sub"), ("reactivations", "reactivations"), ("CAC", "cac_eur"),
           ("skip rate", "skip_rate"), ("pause rate", "pause_rate"), ("voucher share", "voucher_share"),
           ("NPS", "nps"), ("12m LTV", "ltv_12m_eur"), ("payment failure rate", "payment_fail_rate"),
           ("recipe rating", "avg_rating"), ("active subs", "active_subs"), ("net adds", "net_adds")]
PERIODS = ["last week", "in march", "for W38", "yesterday", "last 4 weeks", "MTD", "in Q1", "since the price change",
           "in september", "YTD", "for the jan cohort", "this month", "in feb", "over the summer", "for W12-W15"]
SEGMENTS = ["by country", "for NL only", "split by channel", "for 2p boxes", "by plan size", "for BE+NL",
            "excl. vouchers", "for the family plan", "PL only", "", "", "for DE", "by meals per week"]
SOURCES = ["adyen.settlements", "checkout.orders", "hubspot.contacts", "ga4.events", "courier.scans", "meta_ads.spend",
           "google_ads.spend", "przelewy24.payments", "zendesk.tickets", "menu_planner.recipes", "tiktok_ads.spend",
           "billing.invoices", "crm.braze_events", "warehouse.picklists", "survey.typeform"]
MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
               "November", "December"]


def _mondays() -> list[str]:
    start = date(2024, 1, 1)
    return [(start + timedelta(weeks=w)).isoformat() for w in range(91)]


WEEKS = _mondays()  # filler weeks, 2024-01-01 .. 2025-09-22
MONTHS = [f"{y}-{m:02d}" for y in (2024, 2025) for m in range(1, 13)][:21]


# --- the world a session's tool outputs come from -------------------------------------------------

def ascii_table(header: list[str], rows: list[list[str]]) -> str:
    """A BigQuery-console style table; numeric columns right-aligned."""
    widths = [len(h) for h in header]
    for row in rows:
        for i, cell in enumerate(row):
            if len(cell) > widths[i]:
                widths[i] = len(cell)
    numeric = [bool(rows) and rows[0][i].replace(".", "").replace("-", "").isdigit() for i in range(len(header))]
    sep = "+" + "+".join("-" * (w + 2) for w in widths) + "+"
    lines = [sep, "| " + " | ".join(h.ljust(w) for h, w in zip(header, widths)) + " |", sep]
    for row in rows:
        lines.append("| " + " | ".join(c.rjust(w) if numeric[i] else c.ljust(w)
                                       for i, (c, w) in enumerate(zip(row, widths))) + " |")
    lines.append(sep)
    return "\n".join(lines)


class World:
    """Pools of distractor ids (none overlapping a planted value) and the long outputs made from them."""

    def __init__(self, rng: random.Random, reserved: list[str]) -> None:
        self.rng = rng
        self.reserved = reserved

        def fresh(make: Callable[[], str], count: int) -> list[str]:
            out: list[str] = []
            while len(out) < count:
                cand = make()
                if cand not in out and not any(cand in r or r in cand for r in reserved):
                    out.append(cand)
            return out

        self.campaigns = fresh(lambda: f"cmp_{rng.randrange(1000, 9999)}", 36)
        self.dashboards = fresh(lambda: str(rng.randrange(100, 999)), 14)
        self.jira = fresh(lambda: f"{pick(rng, ['DATA', 'GROW', 'BI'])}-{rng.randrange(1000, 4999)}", 18)
        self.experiments = fresh(lambda: f"exp_{rng.randrange(24, 26)}w{rng.randrange(10, 52)}_"
                                         f"{pick(rng, ['menu_order', 'free_dessert', 'box_upsell', 'skip_nudge'])}", 8)
        self.vouchers = fresh(lambda: f"{pick(rng, ['GRATIS', 'KOOK', 'SMACZNIE', 'HERFST'])}{rng.randrange(10, 99)}", 14)
        self.tiles = ["Active subs", "Net adds", "Trial conversion", "Churn by week", "AOV by country", "CAC by channel",
                      "Skip rate", "Pause reasons", "Voucher share", "Box margin", "Reactivations", "NPS trend",
                      "LTV by channel", "Recipe ratings", "Payment failures", "Delivery lateness"]
        self.boards = ["Growth weekly", "Retention", "Exec KPIs", "Marketing spend", "Ops deliveries", "Menu performance",
                       "Finance bridge", "CRM lifecycle"]

    # -- numbers and rows --
    def num(self, lo: int, hi: int) -> str:
        return str(self.rng.randrange(lo, hi))

    def rate(self, lo: float = 0.01, hi: float = 0.6) -> str:
        return f"{lo + self.rng.random() * (hi - lo):.4f}"

    def eur(self, lo: float = 5, hi: float = 120) -> str:
        return f"{lo + self.rng.random() * (hi - lo):.2f}"

    def row_for(self, schema: str) -> tuple[list[str], Callable[[], list[str]]]:
        r, w = self.rng, self
        if schema == "weekly":
            return (["iso_week", "country_code", "active_subs", "new_trials", "trial_conv_rate", "churn_rate", "aov_eur"],
                    lambda: [pick(r, WEEKS), pick(r, COUNTRIES), w.num(3000, 90000), w.num(200, 9000), w.rate(0.2, 0.7),
                             w.rate(0.02, 0.12), w.eur(38, 74)])
        if schema == "cohort":
            return (["cohort_month", "channel", "subs_m0", "subs_m1", "subs_m3", "subs_m6", "ret_m3"],
                    lambda: [pick(r, MONTHS), pick(r, CHANNELS), w.num(900, 9000), w.num(500, 6000), w.num(300, 4000),
                             w.num(100, 2500), w.rate(0.2, 0.6)])
        if schema == "campaign":
            return (["campaign_id", "channel", "spend_eur", "trials", "first_boxes", "cac_eur", "first_box_rate"],
                    lambda: [pick(r, w.campaigns), pick(r, CHANNELS), w.eur(900, 60000), w.num(20, 3000), w.num(10, 2000),
                             w.eur(18, 140), w.rate(0.3, 0.9)])
        if schema == "monthly":
            return (["month", "country_code", "active_start", "churned", "reactivated", "churn_rate", "net_adds"],
                    lambda: [pick(r, MONTHS), pick(r, COUNTRIES), w.num(5000, 90000), w.num(200, 9000), w.num(50, 1500),
                             w.rate(0.02, 0.14), str(r.randrange(-3000, 4000))])
        if schema == "recipe":
            return (["recipe_id", "recipe_name", "iso_week", "orders", "avg_rating", "share_of_boxes"],
                    lambda: [f"r{r.randrange(10000, 99999)}", pick(r, RECIPES), pick(r, WEEKS), w.num(300, 20000),
                             f"{3 + r.random() * 2:.2f}", w.rate(0.01, 0.09)])
        if schema == "voucher":
            return (["voucher_code", "country_code", "redemptions", "discount_eur", "conv_to_paid", "avg_boxes_after"],
                    lambda: [pick(r, w.vouchers), pick(r, COUNTRIES), w.num(40, 8000), w.eur(400, 90000),
                             w.rate(0.1, 0.7), f"{1 + r.random() * 9:.2f}"])
        if schema == "payments":
            return (["iso_week", "payment_status", "psp", "n_payments", "share", "amount_eur"],
                    lambda: [pick(r, WEEKS), pick(r, ["paid", "failed", "retry_ok", "chargeback", "refunded"]),
                             pick(r, ["adyen", "przelewy24", "ideal", "klarna", "paypal"]), w.num(10, 60000),
                             w.rate(0.001, 0.95), w.eur(100, 900000)])
        return (["delivery_date", "delivery_slot", "hub", "boxes", "late_share", "damaged"],
                lambda: [pick(r, WEEKS), pick(r, ["07-10", "10-13", "17-20", "18-21"]),
                         pick(r, ["AMS", "RTM", "UTR", "ANR", "WAW", "KRK", "BER", "CGN"]), w.num(500, 30000),
                         w.rate(0.0, 0.2), w.num(0, 90)])

    SCHEMAS = ("weekly", "cohort", "campaign", "monthly", "recipe", "voucher", "payments", "delivery")
    SOURCE = {"weekly": "fct_weekly_kpis", "cohort": "fct_cohort_retention", "campaign": "fct_marketing_spend",
              "monthly": "fct_subscriptions", "recipe": "dim_recipes", "voucher": "int_voucher_redemptions",
              "payments": "int_payment_failures", "delivery": "int_box_deliveries"}

    def sql_for(self, schema: str, header: list[str]) -> str:
        r = self.rng
        src = self.SOURCE[schema]
        dims = [h for h in header[:3] if not h.startswith(("n_", "subs", "active", "spend"))][:2]
        lines = ["select"] + [f"  {d}," for d in dims]
        for h in header[len(dims):]:
            lines.append(f"  {pick(r, ['sum', 'avg', 'max'])}({h}) as {h},")
        lines[-1] = lines[-1].rstrip(",")
        lines.append(f"from `{PROJECT}.marts.{src}`")
        lines.append(f"where {pick(r, ['iso_week', 'delivery_date', 'order_date'])} >= '{pick(r, WEEKS)}'")
        if r.random() < 0.5:
            lines.append(f"  and country_code in ({', '.join(repr(c) for c in r.sample(COUNTRIES, 3))})")
        if r.random() < 0.4:
            lines.append("  and not is_trial")
        lines.append("group by " + ", ".join(str(i + 1) for i in range(len(dims))))
        lines.append(f"order by 1{pick(r, ['', ' desc', ', 2'])}")
        if r.random() < 0.3:
            lines.append(f"limit {pick(r, ['100', '500', '1000'])}")
        return "\n".join(lines)

    def job_footer(self) -> str:
        r = self.rng
        return (f"Query complete ({r.randrange(1, 40)}.{r.randrange(10)} sec elapsed, "
                f"{r.randrange(1, 90)}.{r.randrange(10, 99)} GiB processed)\n"
                f"Job ID: {PROJECT}:EU.bquxjob_{hexid(r, 8)}_{hexid(r, 11)}")

    FOR_METRIC = {"churn": "monthly", "trial conversion": "weekly", "AOV": "weekly", "boxes per active sub": "weekly",
                  "reactivations": "monthly", "CAC": "campaign", "skip rate": "delivery", "pause rate": "monthly",
                  "voucher share": "voucher", "12m LTV": "cohort", "payment failure rate": "payments", "recipe rating": "recipe",
                  "active subs": "weekly", "net adds": "monthly"}

    def sql_result(self, size: int, csv: bool | None = None, metric: str | None = None) -> tuple[str, str]:
        """(the query, its result): a table of rows full of other weeks, countries, ids and rates."""
        r = self.rng
        schema = self.FOR_METRIC.get(metric or "", "") if r.random() < 0.8 else ""
        schema = schema or pick(r, self.SCHEMAS)
        header, row = self.row_for(schema)
        rows: list[list[str]] = []
        est = 12 + sum(len(h) + 3 for h in header)
        while est < size:
            rows.append(row())
            est += sum(len(c) + 3 for c in rows[-1]) + 2
        rows.sort()
        if csv is None:
            csv = r.random() < 0.3
        if csv:
            body = "\n".join([",".join(header)] + [",".join(x) for x in rows])
            return self.sql_for(schema, header), f"{body}\n({len(rows)} rows)\n{self.job_footer()}"
        return self.sql_for(schema, header), f"{ascii_table(header, rows)}\n{len(rows)} rows\n{self.job_footer()}"

    # -- dbt --
    def test_name(self) -> str:
        r = self.rng
        model = pick(r, MODELS)
        col = pick(r, COLS)
        kind = pick(r, ["not_null", "not_null", "unique", "accepted_values", "relationships", "dbt_utils_expression_is_true"])
        return f"{kind}_{model}_{col}"

    def dbt_log(self, size: int, command: str = "build", select: str | None = None,
                inject: list[str] | None = None, failures: int = -1, start: int | None = None) -> tuple[str, list[str]]:
        """(the log, its lines): START/OK/PASS lines for other models, a distractor WARN or FAIL now and then;
        ``inject`` lines go into the summary block (the caller's error), ``failures`` -1 for random distractors."""
        r = self.rng
        t = start if start is not None else r.randrange(6 * 3600, 20 * 3600)

        def ts() -> str:
            nonlocal t
            t += r.randrange(0, 3)
            return clock(t)

        n_nodes = max(3, min(160, size // 190))
        if select:
            n_nodes = min(n_nodes, 6)
        lines = [f"{ts()}  Running with dbt=1.8.7", f"{ts()}  Registered adapter: bigquery=1.8.3",
                 f"{ts()}  Found 91 models, 418 data tests, 33 sources, 1164 macros", f"{ts()}  ",
                 f"{ts()}  Concurrency: 8 threads (target='prod')", f"{ts()}  "]
        bad: list[str] = []
        warn = fail = 0
        models = r.sample(MODELS, len(MODELS))
        for i in range(1, n_nodes + 1):
            dots = "." * r.randrange(8, 30)
            if command in ("run", "build") and (command == "run" or r.random() < 0.35) and models:
                m = models.pop()
                lines.append(f"{ts()}  {i} of {n_nodes} START sql table model {LAYER[m]}.{m} {dots} [RUN]")
                lines.append(f"{ts()}  {i} of {n_nodes} OK created sql table model {LAYER[m]}.{m} {dots} "
                             f"[CREATE TABLE ({r.randrange(1, 90)}.{r.randrange(10)}k rows, {r.randrange(5, 900)}.{r.randrange(10)} MiB "
                             f"processed) in {r.randrange(1, 60)}.{r.randrange(10, 99)}s]")
                continue
            test = self.test_name()
            lines.append(f"{ts()}  {i} of {n_nodes} START test {test} {dots} [RUN]")
            roll = r.random()
            if failures != 0 and roll < 0.025:
                n = r.randrange(1, 400)
                lines.append(f"{ts()}  {i} of {n_nodes} FAIL {n} {test} {dots} [FAIL {n} in {r.randrange(1, 9)}.{r.randrange(10, 99)}s]")
                bad.append(f"Failure in test {test} (models/{pick(r, ['marts', 'staging'])}/schema.yml)")
                bad.append(f"  Got {n} results, configured to fail if != 0")
                fail += 1
            elif failures != 0 and roll < 0.06:
                n = r.randrange(1, 90)
                lines.append(f"{ts()}  {i} of {n_nodes} WARN {n} {test} {dots} [WARN {n} in {r.randrange(1, 9)}.{r.randrange(10, 99)}s]")
                warn += 1
            else:
                lines.append(f"{ts()}  {i} of {n_nodes} PASS {test} {dots} [PASS in {r.randrange(0, 9)}.{r.randrange(10, 99)}s]")
        errors = len(inject or [])
        lines.append(f"{ts()}  ")
        lines.append(f"{ts()}  Finished running {n_nodes} nodes in 0 hours {r.randrange(0, 9)} minutes and "
                     f"{r.randrange(0, 59)}.{r.randrange(10, 99)} seconds ({r.randrange(10, 600)}.{r.randrange(10, 99)}s).")
        lines.append(f"{ts()}  ")
        if bad or inject:
            lines.append(f"{ts()}  Completed with {fail + (1 if inject else 0)} errors, 0 partial successes, and {warn} warnings:")
            lines.append(f"{ts()}  ")
            for b in bad:
                lines.append(f"{ts()}  {b}")
            for b in inject or []:
                lines.append(b)
            lines.append(f"{ts()}  ")
        else:
            lines.append(f"{ts()}  Completed successfully")
            lines.append(f"{ts()}  ")
        lines.append(f"{ts()}  Done. PASS={n_nodes - warn - fail - errors} WARN={warn} ERROR={fail + errors} SKIP=0 "
                     f"NO-OP=0 TOTAL={n_nodes}")
        return "\n".join(lines), lines

    # -- notebook --
    def frame(self, size: int) -> str:
        r = self.rng
        header, row = self.row_for(pick(r, self.SCHEMAS))
        rows = []
        est = 40
        while est < size and len(rows) < 400:
            rows.append(row())
            est += sum(len(c) + 3 for c in rows[-1]) + 5
        widths = [max(len(h), *(len(x[i]) for x in rows)) for i, h in enumerate(header)]
        iw = len(str(len(rows)))
        lines = [" " * iw + "  " + "  ".join(h.rjust(w) for h, w in zip(header, widths))]
        for i, x in enumerate(rows):
            lines.append(str(i).ljust(iw) + "  " + "  ".join(c.rjust(w) for c, w in zip(x, widths)))
        lines.append("")
        lines.append(f"[{len(rows)} rows x {len(header)} columns]")
        return "\n".join(lines)

    def describe(self) -> str:
        r = self.rng
        cols = r.sample(["box_price_eur", "discount_eur", "boxes_per_sub", "days_to_churn", "net_revenue_eur",
                         "meals_per_week", "rating"], 4)
        n = r.randrange(5000, 90000)
        lines = ["       " + "".join(c.rjust(17) for c in cols)]
        stats: list[list[float]] = []
        for _ in cols:
            mean, std = 1 + r.random() * 70, 0.5 + r.random() * 20
            qs = sorted(max(0.0, mean + std * (r.random() * 4 - 2)) for _ in range(5))
            stats.append([float(n), mean, std, qs[0], qs[1], qs[2], qs[3], qs[4] + std * 3])
        for k, stat in enumerate(["count", "mean", "std", "min", "25%", "50%", "75%", "max"]):
            lines.append(stat.ljust(7) + "".join(f"{col[k]:17.6f}" for col in stats))
        return "\n".join(lines)

    def traceback(self, last: str, col: str, cell: int) -> str:
        r = self.rng
        return "\n".join([
            "---------------------------------------------------------------------------",
            f"{last.split(':')[0]:<42}Traceback (most recent call last)",
            f"Cell In[{cell}], line {r.randrange(2, 9)}",
            "      1 df = bq.query(sql).to_dataframe()",
            f"      2 df['week'] = pd.to_datetime(df['{pick(r, COLS)}']).dt.to_period('W-MON')",
            f"----> 3 out = df.groupby(['{col}', 'channel'])['subscription_id'].nunique()",
            "",
            "File /opt/conda/lib/python3.11/site-packages/pandas/core/frame.py:9170, in DataFrame.groupby(self, by, axis, level, as_index, sort, group_keys, observed, dropna)",
            "   9167     raise TypeError(\"You have to supply one of 'by' and 'level'\")",
            "-> 9170 return DataFrameGroupBy(",
            "   9171     obj=self,",
            "   9172     keys=by,",
            "",
            "File /opt/conda/lib/python3.11/site-packages/pandas/core/groupby/grouper.py:1043, in get_grouper(obj, key, axis, level, sort, observed, validate, dropna)",
            "   1041         in_axis, level, gpr = False, gpr, None",
            "   1042     else:",
            "-> 1043         raise KeyError(gpr)",
            "   1044 elif isinstance(gpr, Grouper) and gpr.key is not None:",
            "",
            last,
        ])

    def cell(self) -> str:
        r = self.rng
        m = pick(r, MARTS)
        return pick(r, [
            f"df = bq.query(\"select * from marts.{m} where iso_week >= '{pick(r, WEEKS)}'\").to_dataframe()\ndf.head(40)",
            f"df.groupby(['{pick(r, COLS)}', 'country_code']).agg(subs=('subscription_id', 'nunique')).reset_index()",
            f"df[df.country_code == '{pick(r, COUNTRIES)}'].describe()",
            "pivot = df.pivot_table(index='cohort_month', columns='months_since_signup', values='active', aggfunc='mean')\npivot.round(4)",
            f"df = load('{m}')\ndf.sort_values('{pick(r, COLS)}').tail(60)",
        ])

    # -- files --
    def model_sql(self, name: str, size: int) -> str:
        """A dbt model: config, CTEs over other models, a final select; as long as ``size`` asks."""
        r = self.rng
        mat = pick(r, ["table", "incremental", "view", "table"])
        parts = [f"{{{{ config(materialized='{mat}', partition_by={{'field': '{pick(r, ['delivery_date', 'order_date', 'iso_week'])}', "
                 f"'data_type': 'date'}}, cluster_by=['country_code'{', ' + repr(pick(r, ['channel', 'plan_size'])) if r.random() < 0.5 else ''}]) }}}}",
                 "", "with"]
        ctes: list[str] = []
        total = 200
        upstream = [m for m in MODELS if m != name]
        while total < size or len(ctes) < 2:
            src = pick(r, upstream)
            alias = src.split("_", 1)[1]
            if any(c.startswith(alias + " as (") for c in ctes):
                alias = f"{alias}_{len(ctes)}"
            cols = r.sample(COLS, r.randrange(4, 11))
            body = [f"{alias} as (", "    select"]
            body += [f"        {c}," for c in cols[:-1]] + [f"        {cols[-1]}"]
            body.append(f"    from {{{{ ref('{src}') }}}}")
            cond = pick(r, [f"where {pick(r, COLS)} is not null", "where not is_trial", f"where country_code != '{pick(r, COUNTRIES)}'",
                            f"where delivery_date >= '{pick(r, WEEKS)}'", "qualify row_number() over (partition by subscription_id order by order_date desc) = 1",
                            "{% if is_incremental() %}\n    where order_date > (select max(order_date) from {{ this }})\n    {% endif %}"])
            body.append(f"    {cond}")
            body.append(")")
            ctes.append("\n".join(body))
            total += sum(len(x) for x in body) + 8 * len(body)
            if len(ctes) > 60:
                break
        names = [c.split(" ", 1)[0] for c in ctes]
        final = ["final as (", "    select", f"        {names[0]}.subscription_id,",
                 f"        {names[0]}.{pick(r, COLS)},",
                 f"        sum({pick(r, ['net_revenue_eur', 'discount_eur', 'box_price_eur'])}) as {pick(r, ['revenue_eur', 'discounts_eur', 'gross_eur'])},",
                 f"        count(distinct {pick(r, ['order_id', 'box_id'])}) as boxes",
                 f"    from {names[0]}"]
        for other in names[1:4]:
            final.append(f"    left join {other} using ({pick(r, ['subscription_id', 'customer_id', 'order_id'])})")
        final += ["    group by 1, 2", ")", "", "select * from final"]
        return "\n".join(parts) + "\n\n" + ",\n\n".join(ctes + ["\n".join(final)]) + "\n"

    def schema_yaml(self, size: int) -> str:
        r = self.rng
        lines = ["version: 2", "", "models:"]
        total = 30
        for m in r.sample(MODELS, len(MODELS)):
            about = pick(r, ["One row per delivered box.", "One row per subscription per ISO week.", "Customer dimension, SCD1.",
                             "Marketing spend by day, channel and campaign, ex-VAT.", "Trial to paid funnel, one row per trial."])
            lines += [f"  - name: {m}", f"    description: \"{about}\"", "    columns:"]
            for c in r.sample(COLS, r.randrange(3, 8)):
                lines += [f"      - name: {c}", "        data_tests:"]
                tests = ["not_null", "unique", f"relationships:\n              to: ref('{pick(r, MODELS)}')\n              field: {c}"]
                lines += [f"          - {t}" for t in r.sample(tests, r.randrange(1, 3))]
            total = sum(len(x) + 1 for x in lines)
            if total > size:
                break
        return "\n".join(lines) + "\n"

    def notebook_source(self, size: int) -> str:
        cells = ["# %%\nimport pandas as pd\nfrom google.cloud import bigquery\nbq = bigquery.Client(project='" + PROJECT + "')"]
        total = 120
        while total < size:
            cells.append("# %%\n" + self.cell())
            total += len(cells[-1]) + 1
        return "\n\n".join(cells) + "\n"

    def read_output(self, size: int) -> tuple[str, str]:
        """(a path, its text): a model, a schema file or a notebook of the repo."""
        r = self.rng
        roll = r.random()
        if roll < 0.62:
            m = pick(r, MODELS)
            return model_path(m), self.model_sql(m, size)
        if roll < 0.88:
            return pick(r, SCHEMA_FILES), self.schema_yaml(size)
        return pick(r, NOTEBOOKS), self.notebook_source(size)

    # -- dashboards --
    def dashboard_json(self, size: int, board: str | None = None, inject: dict[str, str] | None = None, title: str | None = None) -> str:
        r = self.rng
        did = pick(r, self.dashboards) if board is None else board
        elements = []
        total = 300
        while total < size and len(elements) < 40:
            view = pick(r, MARTS)
            el = {"id": str(r.randrange(1000, 99999)), "title": pick(r, self.tiles), "type": pick(r, ["looker_line", "looker_column", "single_value", "looker_grid"]),
                  "query_id": r.randrange(100000, 999999),
                  "query": {"model": "kookbox", "view": view, "fields": [f"{view}.{c}" for c in r.sample(COLS, 3)],
                            "filters": {f"{view}.{pick(r, ['iso_week', 'delivery_date', 'order_date'])}": pick(r, ["12 weeks", "52 weeks", "this year", "last quarter", "after 2024-01-01"]),
                                        f"{view}.country_code": ",".join(r.sample(COUNTRIES, r.randrange(1, 4)))},
                            "sorts": [f"{view}.{pick(r, COLS)} desc"], "limit": pick(r, ["500", "5000"]),
                            "client_id": slug(r, 22), "slug": slug(r)},
                  "result_maker_id": r.randrange(10000, 99999)}
            if inject and not elements:
                el["query"]["filters"].update(inject)
            elements.append(el)
            total += 620
        body = {"id": did, "title": title or pick(r, self.boards), "folder": {"id": str(r.randrange(10, 300)), "name": pick(r, ["Growth", "Exec", "Marketing", "Ops"])},
                "refresh_interval": pick(r, [None, "1 hour", "12 hours"]), "updated_at": f"{pick(r, WEEKS)}T{clock(r.randrange(86400))}Z",
                "dashboard_filters": [{"name": "Country", "dimension": "fct_weekly_kpis.country_code", "default_value": pick(r, ["NL", "NL,BE", ""])}],
                "dashboard_elements": elements}
        return json.dumps(body, indent=2, ensure_ascii=False)

    # -- the wiki --
    WIKI = [
        ("Metric definitions / Subscriptions",
         "Active subscribers are counted per ISO week on the delivery calendar; paused weeks are not deliveries. "
         "Legacy Tableau numbers (pre-2023) used order weeks instead, so do not compare them directly."),
        ("Metric definitions / Marketing",
         "CAC is paid media spend divided by first paid boxes in the same ISO week. "
         "Influencer fees are booked monthly and spread evenly over the weeks of that month."),
        ("Data contracts / orders",
         "Producer: checkout service. Late-arriving orders up to 72 hours are merged by the incremental model; "
         "beyond that the nightly backfill picks them up on Sundays."),
        ("Data contracts / payments",
         "Adyen settlement files land at 04:00 CET. Przelewy24 lands with a one-day lag; "
         "payment_status 'retry_ok' means the second attempt succeeded."),
        ("How-to / Looker",
         "New tiles go through the Growth folder first. Do not edit LookML in production mode; "
         "open a branch and ask for review in #looker-dev."),
        ("Runbook / nightly dbt",
         "The nightly build runs at 05:30 CET. If a source freshness check fails the downstream marts are skipped, "
         "not failed; check the Slack alert in #data-alerts."),
        ("Glossary",
         "2p3m = box for 2 people with 3 meals. Family plan = 4 people. Skip = a planned week without delivery, "
         "chosen by the customer before cutoff (Wednesday 23:59)."),
        ("Metric definitions / Retention",
         "Cohort retention counts a customer as retained in month N if at least one box was delivered in that "
         "calendar month. Reactivated customers stay in their original cohort."),
        ("Experiments / guidelines",
         "Every test needs a pre-registered primary metric and a minimum detectable effect. "
         "Readouts are posted in #experiments with the notebook link."),
        ("Data contracts / web events",
         "GA4 export lands in the analytics_eu dataset around 09:00. Consent-mode gaps mean about 20 percent of "
         "sessions are modelled, not observed."),
    ]

    def docs_result(self, size: int, query: str, inject: str | None = None) -> str:
        r = self.rng
        hits = []
        total = 60
        pages = r.sample(self.WIKI, len(self.WIKI))
        k = 0
        while total < size and k < 40:
            title, text = pages[k % len(pages)]
            k += 1
            head = f"[{k}] {title}  (confluence DATA/{title.split(' / ')[-1].replace(' ', '+')}, updated {pick(r, WEEKS)} by {pick(r, PEOPLE)})"
            body = [f"    {text}"]
            extra = r.randrange(1, 4)
            for _ in range(extra):
                other_title, other = pick(r, self.WIKI)
                body.append(f"    ... {other}")
            if r.random() < 0.4:
                body.append(f"    Related tickets: {pick(r, self.jira)}, {pick(r, self.jira)}. Dashboard: {LOOKER}/dashboards/{pick(r, self.dashboards)}")
            if inject and k == 1:
                body.insert(0, f"    {inject}")
            hits.append(head + "\n" + "\n".join(body))
            total += len(hits[-1]) + 2
        return f"{len(hits)} results for \"{query}\"\n\n" + "\n\n".join(hits)


# --- what the user says and pastes in routine turns, and how the agent answers ---------------------

OPENERS = ["", "", "", "", "quick one: ", "hey, ", "szybkie pytanie - ", "vraagje: ", "ok next: ", "another one — ",
           "sorry to bug you, ", "q: ", "hoi, ", "cześć, ", "morning! ", "ok so ", "btw ", "nog eentje: ", "jeszcze jedno: ",
           "even checken: ", "goedemorgen, "]
CLOSERS = ["", "", "", "", "?", " thx", " pls", " 🙏", " — need it for the 11:00", " dank je", " dzięki", " asap-ish",
           " no rush", " for the weekly", " (for the board prep)", " ta", " 🙂", " alvast bedankt", " z góry dzięki"]
ASKS = [  # (the ask, the tool the agent reaches for first)
    ("what was {metric} {period} {seg}", "run_sql"), ("how many trials converted {period}", "run_sql"),
    ("why is the {board} dashboard empty", "dashboard"), ("can you rerun the {metric} query {period}", "run_sql"),
    ("pull {metric} {seg} {period}, just the table", "run_sql"), ("is {model} up to date", "dbt"),
    ("read {model} for me, i want to see how {col} is built", "read_file"), ("does the {metric} tile on {board} match the mart", "dashboard"),
    ("kun je even {metric} {period} checken", "run_sql"), ("możesz sprawdzić {metric} {period}", "run_sql"),
    ("rerun the dbt tests on {model}", "dbt"), ("what does the wiki say about {metric}", "search_docs"),
    ("the {metric} tile looks weird {period}, can you look", "dashboard"), ("rebuild {model} pls", "dbt"),
    ("plot {metric} weekly {seg} in the notebook", "notebook"), ("compare {metric} {period} vs same period last year", "run_sql"),
    ("any nulls in {model}.{col}", "run_sql"), ("how many active subs do we have {seg}", "run_sql"),
    ("what's the split of {col} {period}", "run_sql"), ("which campaigns drove the most trials {period}", "run_sql"),
    ("how bad were late deliveries {period}", "run_sql"), ("top 10 recipes by rating {period}", "run_sql"),
    ("did voucher redemptions spike {period}", "run_sql"), ("check if {model} and {model2} agree on {metric} {period}", "run_sql"),
    ("hoeveel actieve abonnees hadden we {period}", "run_sql"), ("ile mieliśmy reaktywacji {period}", "run_sql"),
    ("what's driving the {metric} drop {period}", "notebook"), ("can you sanity check the {board} numbers", "dashboard"),
    ("quickly describe() {model} for me", "notebook"), ("what % of boxes had a voucher {period}", "run_sql"),
    ("is {campaign} still spending", "run_sql"), ("why does {board} show a different {metric} than my notebook", "dashboard"),
    ("wat is de {metric} {seg} {period}", "run_sql"), ("jak wygląda {metric} {period} {seg}", "run_sql"),
    ("any idea why {metric} jumped {period}", "notebook"), ("fix the typo in the where clause of {model}", "read_file"),
    ("add a not_null test on {model}.{col}", "read_file"), ("what's the data contract for orders say about late orders", "search_docs"),
    ("how is {col} defined in {model}", "read_file"), ("kan je {model} opnieuw bouwen?", "dbt"), ("przebuduj {model} proszę", "dbt"),
    ("klopt de {metric} op {board} nog?", "dashboard"), ("hoeveel trials zijn er {period} omgezet {seg}", "run_sql"),
    ("kun je de wiki checken voor {metric}", "search_docs"),
]
NOTES = ["paused weeks are excluded as usual.", "W52 is low every year (Christmas).", "PL is still on the old price grid.",
         "the last week is incomplete, deliveries run until Sunday.", "vouchers are included here, say if you want them out.",
         "BE had a courier strike that week.", "numbers before W10 come from the legacy pipeline.",
         "the tile caches for 12 hours so it may lag.", "LU is tiny, I'd ignore the swings there.", "", "",
         "the spend for the last 3 days is still provisional.", "two campaigns were renamed mid-month; I grouped them by id."]
ANSWERS = {
    "run_sql": ["{metric} {period} came out at {val}; {note}", "that's the figure you wanted, see the table above.",
                "Numbers are in the output above. {note}", "Short version: {val} {period}, {trend} vs the week before. {note}",
                "Here you go — sorted by {col}. {note}", "It's in the table: {country} leads, then {country2}. {note}",
                "The movement is mostly {country}: {val} there, flat elsewhere. {note}", "see the output — {val} for the period you asked. {note}",
                "{val} — same as the board tile. {note}", "Nothing alarming. {note}"],
    "dbt": ["Done. {model} rebuilt, tests green apart from the usual warning on {col}.", "Rebuilt and re-tested; nothing new failed.",
            "Build is green; the one WARN is the known one on {col}. {note}", "All models built, tests pass. {note}"],
    "dashboard": ["looks right to me — the mart and the tile agree within rounding. {note}",
                  "Tile and query agree now; the difference you saw was the cache. {note}",
                  "The tile reads {model}; its number matches the query. {note}", "Dashboard looks fine to me. {note}"],
    "notebook": ["The notebook cell above has it by week. {note}", "{val} in the notebook, same as the mart. {note}",
                 "Plot data is above; the dip is {country}. {note}", "Looks right to me. {note}"],
    "search_docs": ["The wiki page is a bit stale but the gist is above. {note}", "The definition is in the first hit above.",
                    "Per the wiki: see the first result. It matches what the mart does."],
    "read_file": ["It's built in the CTEs above — {col} comes straight from staging.", "See the model above; {col} is set in the final select.",
                  "The model is above. Nothing odd in it, as far as I can see."],
    "write_file": ["Changed and saved; want me to rebuild it?", "Edited the model, see above."],
}
TRENDS = ["up a bit", "down slightly", "flat", "up clearly", "down 2 points", "roughly unchanged"]
ACKS_USER = ["ok thx", "perfect", "top, dank je", "super, dzięki", "hmm ok", "great", "👍", "makes sense",
             "ok leave it for now", "cool, more in a bit", "ja prima", "dobra", "nice", "ok got it", "thx!! 🙏", "lol ok"]
ACKS_AGENT = ["👍", "Sure.", "Anytime.", "Ok — shout when you want the next one.", "Noted.", "Will do.",
              "Ok. I'll keep the query around in case you want a rerun.", "Sounds good."]
FOLLOWUPS = [("wait also {seg}", "Ok, I'll add that to the query."), ("and {period} too if easy", "Sure, both periods then."),
             ("oh and split by channel", "Will split it by channel."), ("ignore that, wrong chat", "No worries."),
             ("actually just NL", "Ok, NL only."), ("+ the same for BE", "Ok, BE as well."), ("nvm found it", "Great, shout if not."),
             ("i mean {metric}, sorry", "Ok, {metric} then — running it.")]
CALL_NOTES = {"run_sql": [None, None, "Running it.", "Pulling the numbers.", "One more query to cross-check.", "Checking the raw counts."],
              "dbt": [None, "Rebuilding and testing.", "Running the build.", "Running the tests."],
              "notebook": [None, "Trying it in the notebook.", "Plotting it.", "Quick look in pandas."],
              "read_file": [None, "Checking the model first.", "Let me look at how that's built."],
              "write_file": [None, "Small fix in the model.", "Updating the file."],
              "dashboard": [None, "Looking at the tile config.", "Pulling the dashboard definition."],
              "search_docs": [None, "Searching the wiki for the definition.", "Checking the data contract."]}


def ask(rng: random.Random, world: World) -> tuple[str, str, str, str]:
    """(a routine question, the tool it calls for, the model it is about, the metric it is about)."""
    template, tool = pick(rng, ASKS)
    metric, model = pick(rng, METRICS)[0], pick(rng, MODELS)
    text = fill(template, metric=metric, period=pick(rng, PERIODS), seg=pick(rng, SEGMENTS), board=pick(rng, world.boards),
                model=model, model2=pick(rng, MODELS), col=pick(rng, COLS), campaign=pick(rng, world.campaigns))
    text = " ".join(text.split())
    if rng.random() < 0.5:
        text = text.lower()
    return typo(rng, pick(rng, OPENERS) + text + pick(rng, CLOSERS)), tool, model, metric


def ask_text(rng: random.Random, world: World) -> str:
    return ask(rng, world)[0]


def metric_value(rng: random.Random, metric: str) -> str:
    low = metric.lower()
    if any(x in low for x in ("rate", "churn", "conversion", "share")):
        return f"{rng.random() * 30 + 1:.1f}%"
    if any(x in low for x in ("aov", "cac", "ltv")):
        return f"€{rng.random() * 90 + 20:.2f}"
    if low == "nps":
        return str(rng.randrange(-10, 60))
    if "rating" in low:
        return f"{3 + rng.random() * 2:.2f}"
    return f"{rng.randrange(200, 90000):,}"


def answer_text(rng: random.Random, metric: str | None = None, tool: str | None = None) -> str:
    metric = metric or pick(rng, METRICS)[0]
    text = fill(pick(rng, ANSWERS.get(tool or "", ANSWERS["run_sql"])), metric=metric[0].upper() + metric[1:], period=pick(rng, PERIODS), val=metric_value(rng, metric),
                note=pick(rng, NOTES), trend=pick(rng, TRENDS), model=pick(rng, MODELS), col=pick(rng, COLS),
                country=pick(rng, COUNTRIES), country2=pick(rng, COUNTRIES))
    return " ".join(text.split()).rstrip(" ;")


# What users paste: other people's words, imperatives included, none of them the user's own rules.

def paste_slack(rng: random.Random, world: World) -> str:
    people = rng.sample(PEOPLE, 4)
    asks = ["@analytics pull everything for the board by friday pls — churn, CAC, LTV by channel, the works",
            "can someone restate the revenue incl. VAT for the BE entity, the auditors asked",
            f"pls rebuild the {pick(rng, world.tiles)} tile, it's been wrong since the migration",
            f"we need CAC for {pick(rng, world.campaigns)} split by week asap, agency call at 3",
            "send me the raw customer list for the winback test, all columns",
            "just use last year's LTV, nobody will notice the difference",
            "make sure the numbers in the deck match what I said on the all-hands",
            "drop PL from the retention chart, it makes the line ugly",
            "everyone: no more ad-hoc requests in DMs, use the form", f"ticket is {pick(rng, world.jira)}, pls prioritise"]
    chatter = ["why is NPS down again??", "👀", "+1", "on it", "can we switch attribution to 30-day view for the deck? looks better",
               "same question here", "who owns this now?", "numbers in the deck don't match the tile fyi"]
    lines = []
    minute = rng.randrange(8 * 60, 17 * 60)
    for i in range(rng.randrange(3, 7)):
        who = people[i % len(people)]
        minute += rng.randrange(1, 25)
        lines.append(f"{who}  {minute // 60}:{minute % 60:02d}")
        lines.append(asks[0] if i == 0 and rng.random() < 0.4 else pick(rng, asks if i == 0 or rng.random() < 0.5 else chatter))
    return "\n".join(lines)


def paste_email(rng: random.Random, world: World) -> str:
    who = pick(rng, PEOPLE)
    first = who.split()[0]
    month = pick(rng, MONTH_NAMES)
    asks = ["send the net revenue bridge by country by Wednesday EOD", "use the gross numbers incl. VAT for the BE entity this time",
            "add a column with voucher costs split by campaign", "restate March with the corrected Adyen fees",
            f"reconcile active subs with the billing system, the gap is {rng.randrange(200, 2000)} subs",
            "freeze the numbers once sent, no silent updates please", "include PL in EUR at the daily ECB rate",
            "confirm that refunds are netted in the revenue line", "cc me on anything that goes to the CFO"]
    picked = rng.sample(asks, rng.randrange(3, 6))
    body = "\n".join(f"{i + 1}. {a}" for i, a in enumerate(picked))
    return (f"From: {who} <{first.lower()}.{who.split()[-1].lower()}@kookbox.nl>\nTo: analytics@kookbox.nl\n"
            f"Subject: Month-end asks – {month}\n\nHi team,\n\nFor the month-end pack please:\n{body}\n\n"
            f"Deadline is the {rng.randrange(2, 9)}th working day as usual.\n\nThanks,\n{first}")


def paste_csv(rng: random.Random, world: World) -> str:
    header, row = world.row_for(pick(rng, World.SCHEMAS))
    rows = [",".join(row()) for _ in range(rng.randrange(6, 30))]
    return "\n".join([",".join(header)] + rows)


def paste_chart(rng: random.Random, world: World) -> str:
    metric = pick(rng, METRICS)[0]
    return (f"Slide {rng.randrange(3, 25)} — \"{pick(rng, ['Retention is up', 'CAC under control', 'Trials at record high', 'Menu drives loyalty'])}\"\n"
            f"{pick(rng, ['Line chart', 'Stacked bars', 'Waterfall'])}: {metric} by {pick(rng, ['cohort', 'week', 'country', 'channel'])}, "
            f"{pick(rng, MONTH_NAMES)}–{pick(rng, MONTH_NAMES)}, y-axis {rng.randrange(0, 30)}–{rng.randrange(40, 90)}.\n"
            f"Annotation: \"{pick(rng, ['new onboarding flow', 'price change', 'TV burst', 'menu relaunch'])}\" at {pick(rng, MONTH_NAMES)}.\n"
            f"Speaker note: \"{pick(rng, ['say this is the best quarter ever', 'mention the target is 45%', 'skip PL, explain later', 'thank the CRM team'])}\"\n"
            f"Footnote: source {pick(rng, MARTS)}, {pick(rng, ['excl. PL', 'all markets', 'NL+BE only'])}.")


def paste_doc(rng: random.Random, world: World, rule_line: str | None = None) -> str:
    lines = [f"Metric definitions v{rng.randrange(2, 6)}.{rng.randrange(0, 9)} (owner: {pick(rng, PEOPLE)}, last review {pick(rng, WEEKS)})",
             "",
             "- Active subscriber: customer with a delivered paid box in the ISO week, paused weeks excluded.",
             f"- Trial: {pick(rng, ['the first discounted box', 'the first two discounted boxes'])}; converted once a full-price box is delivered.",
             f"- Churn: no delivery and no scheduled box for {rng.randrange(3, 9)} consecutive weeks (system churn) or an explicit cancel.",
             "- Reactivation: a churned customer who takes a paid box again; they keep their original cohort.",
             "- CAC: paid media spend / first paid boxes, by ISO week of first box.",
             "- AOV: average net box value after discounts.",
             "- Please send questions to #metrics-council, do not edit this page directly."]
    if rule_line:
        lines.insert(rng.randrange(3, len(lines)), f"- {rule_line}")
    return "\n".join(lines)


def paste_dbt(world: World, size: int) -> str:
    _log, lines = world.dbt_log(size, "build")
    return "\n".join(lines[-min(len(lines), world.rng.randrange(12, 40)):])


# --- standing rules (instruction facts) -------------------------------------------------------------

@dataclass(frozen=True)
class Rule:
    draw: Callable[[random.Random], str]
    query: str
    styles: dict[str, tuple[str, ...]]  # direct, indirect, preference, nl, pl: phrasings with {v}
    doc: str = ""  # the line of a definitions doc that carries {v}
    topic: str = ""


def _initials(rng: random.Random) -> str:
    return "".join(pick(rng, "abcdefghijklmnoprstuvwz") for _ in range(rng.randrange(3, 5)))


RULES = [
    Rule(lambda r: f"@{pick(r, ['kookbox', 'kb', 'kbx', 'kookbox-nl'])}-{pick(r, ['qa', 'test', 'staging', 'intern'])}.{pick(r, ['nl', 'com', 'io', 'dev'])}",
         "which accounts to keep out of every number and how to recognise them",
         {"direct": ("always exclude test accounts, anything with an email ending {v}",
                     "exclude test accts everywhere pls: emails on {v}. no exceptions, also not in 'quick' numbers"),
          "indirect": ("fyi our QA people all sign up with {v} addresses, those shouldn't end up in anything we report",
                       "the {v} signups are the QA team, they are not customers"),
          "nl": ("graag altijd de testaccounts eruit filteren, dus alles met een e-mail op {v}",),
          "pl": ("proszę zawsze wykluczać konta testowe, czyli wszystko z mailem {v}",)},
         doc="Test accounts: every account whose email ends in {v} is excluded from all reported metrics.", topic="test accounts"),
    Rule(lambda r: f"raw.{pick(r, ['raw_orders_legacy', 'raw_adyen_settlements', 'raw_hubspot_contacts', 'raw_box_feedback', 'raw_courier_scans', 'raw_ga4_events_eu'])}",
         "which table the agent must never modify",
         {"pl": ("proszę nie ruszać tabeli {v}, finanse z niej rekoncyliują", "i jeszcze jedno: prosze nie ruszać {v}. tylko odczyt"),
          "direct": ("never write to or alter {v}. read only, always", "hands off {v} — no DDL, no DML, no views on top of it either"),
          "indirect": ("{v} is what finance reconciles against, so that one stays exactly as it is",)}),
    Rule(lambda r: pick(r, ["weeks starting monday", "monday-start weeks", "weeks that start on monday"]),
         "which week convention to use in weekly numbers",
         {"preference": ("i'd prefer {v} in everything, ops thinks in those", "can we do {v} from now on? the sunday weeks confuse everyone"),
          "nl": ("graag overal {v} aanhouden, zo rekent ops ook",),
          "indirect": ("the whole company plans in {v}, so the sunday-based weeks in our tiles are just confusing people",)},
         doc="Reporting weeks: all weekly metrics use {v} (ISO 8601).", topic="week"),
    Rule(lambda r: pick(r, ["net of VAT", "excl. VAT", "ex-VAT"]),
         "how revenue must be reported with respect to VAT",
         {"indirect": ("we report revenue {v} here, finance does the gross stuff", "just so you know, every revenue number that leaves this team is {v}"),
          "direct": ("revenue always {v} pls, in every table and tile",),
          "nl": ("omzet graag altijd {v} rapporteren, ook in de deck",)},
         doc="Revenue: all revenue metrics are reported {v} and after discounts.", topic="revenue"),
    Rule(lambda r: pick(r, ["afronden op hele euro's", "afronden op hele euros"]),
         "how to round euro amounts",
         {"nl": ("graag altijd de EUR-bedragen {v}", "en de bedragen graag {v}, geen centen in de deck alsjeblieft")}),
    Rule(lambda r: f"{r.randrange(12, 40) * 10} customers",
         "the minimum cohort size that may be shown",
         {"direct": ("don't show any cohort with fewer than {v}, too noisy", "suppress cohorts under {v}, always"),
          "indirect": ("anything under {v} per cohort is noise, the board shouldn't ever see it",),
          "preference": ("i'd prefer we hide cohorts below {v}",),
          "pl": ("proszę ukrywać kohorty poniżej {v}, to szum",)},
         doc="Cohort reporting: cohorts with fewer than {v} are suppressed.", topic="cohort size"),
    Rule(lambda r: pick(r, FACT_PEOPLE),
         "who to ask about metric definitions before changing anything",
         {"direct": ("anything about metric definitions: ask {v} first, not the wiki, the wiki is stale",
                     "if the finance numbers look off, ping {v} before you change anything"),
          "indirect": ("{v} owns the revenue models, so changes there go through them",),
          "nl": ("vragen over definities graag eerst aan {v} stellen",),
          "pl": ("w razie wątpliwości co do definicji proszę pytać {v}",)}),
    Rule(lambda r: f"sandbox_{_initials(r)}",
         "where scratch tables go",
         {"direct": ("scratch tables go in {v}, never in marts", "put any temp stuff in {v} pls, nowhere else"),
          "indirect": ("marts is prod. my playground is {v}",)}),
    Rule(lambda r: pick(r, ["Europe/Amsterdam", "Europe/Warsaw", "Europe/Brussels", "Europe/Berlin"]),
         "which time zone timestamps are reported in",
         {"direct": ("all timestamps in {v} please, not UTC",),
          "preference": ("i'd prefer everything in {v} time, ops reads these and they hate UTC",),
          "indirect": ("ops and finance both work in {v}, so UTC timestamps just cause off-by-one-day questions",)},
         doc="Time zone: all timestamps are converted to {v} before truncating to days or weeks.", topic="time zone"),
    Rule(lambda r: f"{pick(r, [25, 40, 60, 75, 120, 150, 250])} GB",
         "how much a query may scan before asking first",
         {"direct": ("never run anything scanning more than {v} without asking me",),
          "indirect": ("the bigquery bill last month was ugly, so anything over {v} scanned needs my ok first",)}),
    Rule(lambda r: f"channel = '{pick(r, ['corp_gift', 'b2b_office', 'employee_box', 'partner_bulk', 'charity_box'])}'",
         "which orders are out of scope for consumer KPIs",
         {"direct": ("exclude the corporate gifting orders ({v}), they're not real subs",),
          "indirect": ("the {v} orders are bulk B2B, they don't belong in consumer KPIs",)},
         doc="Scope: orders with {v} are out of scope for consumer metrics.", topic="scope"),
    Rule(lambda r: pick(r, ["op leveringsdatum", "per leveringsdatum"]),
         "which date orders are reported on",
         {"nl": ("graag altijd {v} rapporteren, niet op besteldatum", "alles {v} graag, de besteldatum klopt nooit met finance")}),
    Rule(lambda r: pick(r, ["do jednego miejsca po przecinku", "z jednym miejscem po przecinku"]),
         "how many decimals percentages get",
         {"pl": ("procenty proszę zawsze {v}", "i proszę podawać procenty {v}, nie więcej")}),
    Rule(lambda r: f"@{pick(r, ['ania', 'joost', 'kuba', 'sanne', 'maciek', 'femke', 'tijs', 'ola'])}.{pick(r, 'bdghkmnprsvwz')}{r.randrange(1, 9)}",
         "who to tag on changes to the finance models",
         {"direct": ("tag {v} on any PR that touches the finance models",),
          "indirect": ("{v} reviews everything under marts/finance, so loop them in",)}),
    Rule(lambda r: pick(r, ["semicolon-separated", "semicolon delimited", "with ; as the separator"]),
         "the format of CSV exports",
         {"preference": ("i'd prefer CSV exports {v}, dutch excel chokes on commas",),
          "nl": ("exports graag {v}, Excel hier snapt geen komma's",)}),
    Rule(lambda r: f"EURPLN {4 + r.randrange(18, 45) / 100:.2f}",
         "which exchange rate PLN amounts are converted at",
         {"direct": ("for PL convert PLN at the budget rate {v}, not the daily fx",),
          "indirect": ("finance uses the budget rate {v} for PLN all year, so we do too",),
          "pl": ("złotówki proszę przeliczać po kursie budżetowym {v}",)}),
    Rule(lambda r: f"before 2023-{r.randrange(2, 7):02d}-{r.randrange(10, 28):02d}",
         "from when web tracking data can be used",
         {"direct": ("ignore any web session data {v}, the GA4 tracking was broken",),
          "indirect": ("web data {v} is garbage, the consent banner ate half of it",)}),
    Rule(lambda r: pick(r, ["decimal comma", "decimal commas"]),
         "the number format for the NL team",
         {"preference": ("for the NL team decks i'd prefer a {v} (1.234,56)",)}),
    Rule(lambda r: pick(r, ["hashed customer ids", "hashed customer_id only"]),
         "which customer identifiers may go into exports",
         {"direct": ("only {v} in anything that leaves BigQuery, GDPR",),
          "indirect": ("legal says raw ids can't go into sheets, so exports get {v}",)}),
]
DOC_ADOPT = ["this is the official definition doc, use it", "pasting the metric definitions doc, that's the source of truth from now on",
             "here's the defs doc finance and product signed off, follow it", "official doc below, we go by this from today",
             "this is THE definitions doc now, please stick to it"]
SECOND_LEADS = ["oh and ", "also, ", "btw — ", "one more thing: ", "PS ", "and from now on: ", "ah and ", "o i jeszcze: ", "en verder: "]
RULE_OPENERS = ["", "", "", "fyi ", "rule for everything going forward: ", "reminder: ", "important: ", "house rule: ", "pls note: "]


# --- episodes: a user turn, the agent's tool loop, its answer ------------------------------------------

class Ep:
    """Messages being built for one turn, with the values they plant (checked before they are committed)."""

    def __init__(self, builder: Builder) -> None:
        self.b = builder
        self.msgs: list[Message] = []
        self.plants: list[tuple[int, str, int]] = []  # (offset, value, how many messages after it may repeat it)
        self.facts: list[dict[str, Any]] = []
        self.pasted: list[tuple[int, str]] = []
        self.stale_marks: list[tuple[int, int]] = []  # (spec uid, offset of the message saying its stale value)
        self.chars = 0

    @property
    def at(self) -> int:
        return len(self.msgs)

    def _add(self, message: Message) -> int:
        self.msgs.append(message)
        self.chars += len(text_of(message))
        return len(self.msgs) - 1

    def user(self, text: str, pasted: tuple[str, ...] = ()) -> int:
        off = self._add({"role": "user", "content": text})
        for p in pasted:
            assert p in text
            self.pasted.append((off, p))
        return off

    def calls(self, calls: list[tuple[str, dict[str, Any], str]], note: str | None = None) -> list[int]:
        """One assistant message calling ``calls`` at once, then each result; the results' offsets."""
        tcs = [{"id": "", "type": "function", "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)}}
               for name, args, _out in calls]
        self._add({"role": "assistant", "content": note, "tool_calls": tcs})
        return [self._add({"role": "tool", "tool_call_id": "", "name": name, "content": out}) for name, _a, out in calls]

    def call(self, name: str, args: dict[str, Any], out: str, note: str | None = None) -> int:
        return self.calls([(name, args, out)], note)[0]

    def answer(self, text: str) -> int:
        return self._add({"role": "assistant", "content": text})

    def plant(self, off: int, value: str, reach: int = AFTER_VALUE) -> None:
        self.plants.append((off, value, reach))

    def fact(self, spec: Spec, off: int, resolved: int | None = None) -> None:
        assert spec.value in text_of(self.msgs[off]), (spec, self.msgs[off])
        self.plant(off, spec.value)
        if spec.stale is not None:
            self.plant(off, spec.stale)
        self.facts.append({"spec": spec, "off": off, "resolved": resolved})

    def routine(self, tool: str | None = None, calls: int = 1) -> list[int]:
        """A round of routine calls (tools picked to suit, or ``tool``)."""
        made = [self.b.routine_call(self, tool) for _ in range(calls)]
        return self.calls(made, pick(self.b.rng, CALL_NOTES[made[0][0]]))


@dataclass
class Spec:
    """A fact to plant: its kind, value and query, the builder variant that plants it, and its parameters."""

    kind: str
    value: str
    query: str
    make: str
    stale: str | None = None
    data: dict[str, Any] = field(default_factory=dict)
    min_size: int = 2
    uid: int = 0


# --- corrections: what the user said first, and what they meant ----------------------------------------

def _swap(rng: random.Random, digits: str) -> str:
    """The same digits with two neighbours swapped (different from the original)."""
    for _ in range(20):
        j = rng.randrange(len(digits) - 1)
        out = digits[:j] + digits[j + 1] + digits[j] + digits[j + 2:]
        if out != digits:
            return out
    return digits[:-1] + str((int(digits[-1]) + 3) % 10)


def _digits(rng: random.Random, n: int) -> str:
    return str(rng.randrange(10 ** (n - 1), 10 ** n))


def _range(rng: random.Random, shift: int) -> str:
    d = date(2024, 1, 1) + timedelta(days=rng.randrange(0, 600))
    d += timedelta(days=shift)
    return f"{d.isoformat()} to {(d + timedelta(days=27)).isoformat()}"


def _quarters(rng: random.Random) -> tuple[str, str]:
    q, y = rng.randrange(1, 4), pick(rng, [2024, 2025])
    a, b = f"Q{q} {y}", f"Q{q + 1} {y}"
    return (a, b) if rng.random() < 0.6 else (b, a)


def _range_pair(rng: random.Random) -> tuple[str, str]:
    seed = rng.randrange(10 ** 6)
    a = _range(random.Random(seed), 0)
    b = _range(random.Random(seed), pick(rng, [7, -7, 14]))
    return a, b


NEAR_NAMES = [("Mariska", "Marieke"), ("Kasia", "Basia"), ("Marta", "Maria"), ("Lieke", "Lieve"), ("Sanna", "Sanne"),
              ("Jorik", "Joris"), ("Hanka", "Hania"), ("Femke", "Fenna")]


@dataclass(frozen=True)
class Fix:
    draw: Callable[[random.Random], tuple[str, str]]  # (what the user said first, what they meant)
    near: bool
    query: str
    said: tuple[str, ...]  # the request carrying {s}
    fixes: tuple[str, ...]  # the correction carrying {v} and {s}
    use: str = ""  # the tool the agent uses the value with (run_sql / notebook / dashboard), or only in words
    snippet: str = "-- {x}"  # how the value sits in that call


FIXES = [
    Fix(lambda r: (lambda d: (f"cmp_{d}", f"cmp_{_swap(r, d)}"))(_digits(r, 4)), True,
        "the id of the campaign the user wants analysed",
        ("pull signups and first boxes for campaign {s}, last 14 days", "how did {s} do? trials + conversion pls",
         "can you check spend vs trials for {s}, the agency says it's great"),
        ("sorry the campaign id is {v} not {s}", "ugh wrong id before — it's {v}, {s} is the old spring one",
         "correction: {v} (i typed {s} earlier, my bad)", "the campaign is {v} btw, not {s}. fat fingers"), "run_sql",
        "where campaign_id = '{x}'"),
    Fix(_quarters, True, "which quarter the numbers are for",
        ("can you pull AOV by country for {s}", "need trial conversion by channel for {s}", "how did churn look in {s}?"),
        ("no wait, {v} not {s}", "sorry — {v}. i said {s} but meant the other one",
         "hmm i wrote {s}, it should be {v}, the board wants that one"), "run_sql", "-- period: {x}"),
    Fix(lambda r: (lambda b, n: (f"reporting.{b}_v{n}", f"reporting.{b}_v{n + pick(r, [1, -1])}"))(
        pick(r, ["board_kpis", "weekly_pack", "exec_summary", "growth_snapshot", "crm_weekly"]), r.randrange(2, 9)), True,
        "which reporting table the board deck reads from",
        ("the board deck reads from {s}, can you check the latest week is in there", "compare our mart with {s} for last month"),
        ("i gave you the wrong table, the deck reads {v}, not {s}", "sorry, {v} — {s} is deprecated since the migration"), "run_sql",
        "-- source: `kb-analytics-prod.{x}`"),
    Fix(lambda r: (lambda a, b: (f"at least {a} paid boxes", f"at least {b} paid boxes"))(*r.sample([2, 3, 4, 5, 6], 2)), True,
        "how many paid boxes make a customer count as retained",
        ("count someone as retained if they had {s} in the window", "for the retention cut use {s} in the first 8 weeks"),
        ("i misspoke, retained = {v}, not {s}", "small fix: {v} (not {s}), that's what product uses"), "notebook",
        "# retained: {x}\ndf['retained'] = df.paid_boxes_8w >= MIN_BOXES\ndf.groupby('cohort_month').retained.mean()"),
    Fix(_range_pair, True, "the date range of the promo analysis",
        ("run the promo analysis for {s}", "look at skips and pauses from {s}, that was the promo"),
        ("the promo ran {v}, not {s}, sorry", "dates were off by a bit: {v} (not {s})"), "run_sql", "-- promo window: {x}"),
    Fix(lambda r: (lambda d: (f"dashboards/{d}", f"dashboards/{_swap(r, d)}"))(_digits(r, 4)), True,
        "which dashboard the user meant",
        ("check {LOOKER}/{s}, the KPI tiles look off", "can you look at {s}? numbers don't match the mart"),
        ("the other dashboard, the retention one — {v}, not {s}", "wrong link, i meant {v} ({s} is the acquisition one)"), "dashboard",
        "{x}"),
    Fix(lambda r: (lambda p, s: (f"{p[0]} {s}", f"{p[1]} {s}") if r.random() < 0.5 else (f"{p[1]} {s}", f"{p[0]} {s}"))(
        pick(r, NEAR_NAMES), pick(r, SURNAMES)), True, "who should receive the numbers",
        ("send the churn numbers to {s} when done", "{s} needs the CAC table for the agency call, send it to them"),
        ("not {s} — {v}, she's doing the board pack", "sorry, {v} not {s}, wrong person")),
    Fix(lambda r: (lambda p, a, b: (f"{p}{a}", f"{p}{b}"))(pick(r, ["WELKOM", "WITAJ", "HALLO", "ZOMER", "LATO", "SMAAK"]),
                                                           *r.sample(range(10, 99), 2)), True,
        "the voucher code to analyse",
        ("check redemptions of {s} in the last month", "how many {s} users converted to paid?"),
        ("the code is {v}, not {s}", "oops {v}. {s} was last year's code"), "run_sql", "where voucher_code = '{x}'"),
    Fix(lambda r: (lambda w, s: (f"exp_25w{w}_{s}", f"exp_25w{_swap(r, w)}_{s}"))(str(r.randrange(12, 50)),
                                                                                 pick(r, ["price_anchor", "recipe_swap", "pause_offer"])), True,
        "which experiment to read out",
        ("read out {s} for me, primary metric is conversion", "can you check if {s} has enough sample yet"),
        ("wrong experiment, it's {v} (not {s})", "i meant {v}, {s} is the old one that we stopped"), "notebook",
        "res = readout('{x}', metric='conversion')\nres.summary()"),
    Fix(lambda r: (lambda d: (f"DATA-{d}", f"DATA-{_swap(r, d)}"))(str(r.randrange(5000, 9999))), True,
        "which ticket the work is logged under",
        ("log it under {s} pls", "this is all for {s}, fyi"), ("ticket is {v}, not {s}", "wrong ticket — {v} ({s} is closed)")),
    Fix(lambda r: (lambda b, x: (f"{b}_{x[0]}w", f"{b}_{x[1]}w"))(pick(r, ["churn_rate", "skip_share", "reactivation_rate", "active_rate"]),
                                                                r.sample([4, 5, 6, 8], 2)), True,
        "which metric column to use",
        ("use {s} for the retention chart", "pull {s} by country for the last 12 weeks"),
        ("sorry, {v} — {s} is the old definition", "use {v} not {s}, we changed it in spring"), "run_sql",
        "select iso_week, country_code, {x}"),
    Fix(lambda r: tuple(r.sample(["Meta prospecting NL", "TikTok spark ads BE", "Google PMax DE", "podcast promo codes",
                                  "door-to-door Rotterdam", "Radio 538 spots", "Allegro banners PL"], 2)), False,
        "which campaign the user is asking about",
        ("how's {s} doing on CAC?", "can you pull weekly trials for {s}"),
        ("no, not {s}, i meant {v}", "sorry, mixed them up: {v}, not {s}")),
    Fix(lambda r: tuple(pick(r, [("trial_started_at", "first_box_delivered_at"), ("order_created_at", "box_shipped_at"),
                                 ("signup_ts", "first_payment_ts"), ("cancel_requested_at", "last_delivery_at")])[::pick(r, [1, -1])]), False,
        "which timestamp conversion time is measured from",
        ("measure conversion time from {s}", "days-to-convert should start at {s}"),
        ("conversion should be measured from {v}, not {s}", "use {v} as the start, {s} is wrong for this"), "run_sql",
        "date_diff(first_paid_date, date({x}), day) as days_to_convert"),
    Fix(lambda r: tuple(f"{m} {y} cohort" for m, y in zip(r.sample(MONTH_NAMES, 2), r.sample([2023, 2024, 2025], 2))), False,
        "which signup cohort the deep dive is about",
        ("deep dive on the {s} please, they churn weirdly", "what's special about the {s}?"),
        ("i meant the {v}, not the {s}", "wrong cohort, sorry: {v}. the {s} is fine")),
]
FIX_LEADS = ["", "", "", "sorry ", "wait, ", "hmm ", "ah ", "oh and ", "btw "]


# --- decisions, plans ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Choice:
    options: Callable[[random.Random], list[str]]  # two different choices: the first, and what it may be revised to
    topic: str
    query: str


def _cutoffs(rng: random.Random) -> list[str]:
    d = date(2024, 3, 1) + timedelta(days=rng.randrange(0, 540))
    return [f"cutoff {d.isoformat()}", f"cutoff {(d + timedelta(days=pick(rng, [7, 14, -7]))).isoformat()}"]


CHOICES = [
    Choice(lambda r: [f"{x}-day click" for x in r.sample([1, 7, 14, 28], 2)], "attribution", "which attribution window was chosen"),
    Choice(lambda r: r.sample(["BG/NBD + Gamma-Gamma", "cohort-average LTV", "Kaplan-Meier survival LTV", "Pareto/NBD"], 2),
           "the LTV model", "which LTV model was chosen"),
    Choice(_cutoffs, "the board pack data", "the data cutoff date for the board pack"),
    Choice(lambda r: r.sample(["weekly signup cohorts", "monthly signup cohorts", "4-weekly signup cohorts"], 2),
           "the retention analysis", "which cohort grain the retention analysis uses"),
    Choice(lambda r: r.sample([f"CUPED with {r.randrange(2, 9)} pre-period weeks", "plain diff-in-means",
                               f"a Bayesian readout with a {r.randrange(1, 4)}% ROPE"], 2),
           "the price test readout", "how the price test is read out"),
    Choice(lambda r: [f"{p}% holdout" for p in r.sample([5, 10, 20, 30], 2)], "the CRM winback test", "the holdout size of the winback test"),
    Choice(lambda r: [f"churn after {n} consecutive skipped weeks" for n in r.sample([3, 4, 5, 6, 8], 2)],
           "the churn flag in the new mart", "when a subscriber is flagged as churned in the new mart"),
    Choice(lambda r: r.sample(["alpha 0.05 two-sided", "alpha 0.10 one-sided", "alpha 0.01 two-sided"], 2),
           "significance in experiment readouts", "the significance level for readouts"),
    Choice(lambda r: r.sample(["Prophet with NL holidays", "ETS (additive)", "seasonal naive + uplift", "SARIMA on weekly boxes"], 2),
           "the box volume forecast", "which forecasting method was picked"),
    Choice(lambda r: r.sample(["keep the latest event per subscription per day", "keep the first event per subscription per day"], 2),
           "dedup in the events model", "how duplicate subscription events are resolved"),
    Choice(lambda r: r.sample(["Meta API spend", "invoiced spend from finance", "agency-reported spend"], 2),
           "CAC spend", "which spend source CAC uses"),
    Choice(lambda r: r.sample(["net adds as the headline KPI", "active subs as the headline KPI", "boxes delivered as the headline KPI"], 2),
           "the board one-pager", "the headline KPI of the board one-pager"),
    Choice(lambda r: r.sample(["last-click", "position-based 40/20/40", "GA4 data-driven"], 2),
           "channel credit", "which attribution model gives channels credit"),
]
DECIDE = ["let's use {v} for {topic}", "decision: {v} for {topic}. {person} agreed", "ok, {topic}: {v}, final",
          "we'll go with {v} for {topic}", "afgesproken: {v} voor {topic}", "ustalone — {v} for {topic}",
          "talked to {person}, {topic} goes with {v}", "going with {v} on {topic}, no more debate pls"]
REVISE = ["we're going back to {v} for {topic}, {who} didn't like {s}", "change on {topic}: {v} instead of {s}. {why}",
          "scrap {s}, {v} it is — {why}", "heads up, {topic} changes: {v}. {s} is off the table", "u-turn: {v} for {topic}, not {s} ({why})"]
WHO = ["legal", "finance", "the CMO", "Tom", "the agency", "product"]
WHY = ["legal didn't like it", "finance pushed back", "the CMO wants comparability with last year", "too noisy",
       "the agency can't report it", "it broke the YoY view"]

PLAN_STEPS: list[tuple[Callable[[random.Random], str], str]] = [
    (lambda r: f"update slide {r.randrange(4, 31)} of the board deck", "which slide of the board deck the plan updates"),
    (lambda r: f"backfill {pick(r, INT)} from {(date(2023, 1, 2) + timedelta(days=r.randrange(0, 400))).isoformat()}",
     "from which date the plan backfills"),
    (lambda r: f"snapshot the current numbers into kpi_snapshot_{20240101 + r.randrange(0, 12) * 100 + r.randrange(1, 28)}",
     "where the plan snapshots the current numbers"),
    (lambda r: f"send the CSV to {pick(r, PEOPLE)} before {pick(r, ['Tuesday', 'Wednesday', 'Thursday', 'Friday'])} {r.randrange(9, 17)}:00",
     "to whom and by when the plan sends the CSV"),
    (lambda r: f"rerun the LTV notebook with seed {r.randrange(100, 9999)}", "which seed the LTV rerun uses"),
    (lambda r: f"re-point tile {r.randrange(11, 99)} on the growth board to the new mart", "which tile the plan re-points"),
    (lambda r: f"post the summary in #{pick(r, ['growth-weekly', 'kpi-board-prep', 'data-requests', 'crm-retention'])}-{pick(r, COUNTRIES).lower()}",
     "where the plan posts the summary"),
    (lambda r: f"diff old vs new in a sheet tab called {pick(r, ['recon', 'delta', 'check', 'vs_old'])}_{r.randrange(10, 99)}",
     "where the plan puts the old-vs-new diff"),
    (lambda r: f"tag the release as kpi-{pick(r, [2024, 2025])}.{r.randrange(1, 52):02d}", "what the plan tags the release as"),
    (lambda r: f"ask {pick(r, PEOPLE)} to sign off the churn definition by {pick(r, MONTH_NAMES)} {r.randrange(2, 28)}",
     "who signs off the churn definition and by when"),
    (lambda r: f"drop the {r.randrange(3, 19)} duplicate QA cohorts from the snapshot", "how many duplicate cohorts the plan drops"),
    (lambda r: f"freeze the {pick(r, ['W', 'week '])}{r.randrange(10, 52)} numbers before the rebuild", "which week's numbers the plan freezes"),
]
PLAN_COMMON = ["rebuild the cohort table", "rerun the LTV notebook", "update the board deck numbers", "run the dbt tests on marts",
               "refresh the retention dashboard", "re-export the CSV for finance", "check the numbers against last week's pack",
               "write a short summary for Slack", "rebuild fct_cohort_retention", "rerun the attribution query",
               "sanity check NL vs BE", "clear the Looker cache"]
PLAN_FORMS = ["plan: first {a}, then {b}, then {c}", "ok so: 1) {a} 2) {b} 3) {c} 4) {d}",
              "let's do it in this order — {a}; after that {b}; once that's green {c}; last {d}",
              "eerst {a}, dan {b}, daarna {c}", "najpierw {a}, potem {b}, a na końcu {c}",
              "for tomorrow: {a}, {b}, and then {c}. {d} only if there's time", "step one {a}. step two {b}. step three {c}.",
              "here's how i see it:\n- {a}\n- {b}\n- {c}\n- {d}"]


SYSTEM = ("You are the data agent of the analytics team at a European meal-kit subscription company (NL, BE, DE, AT, PL, LU). "
          "You work in the dbt project and BigQuery warehouse `" + PROJECT + "` and the company's Looker instance. Tools: "
          "run_sql (BigQuery SQL; returns a result table or CSV), dbt (runs dbt commands and returns the log), notebook (runs a "
          "Python/pandas cell in the shared kernel), read_file / write_file (files of the analytics repo), dashboard (Looker API: "
          "dashboards, tiles, queries, filters) and search_docs (the company wiki: metric definitions, data contracts, runbooks). "
          "Answer the analyst briefly, show the numbers that matter, and say when something looks off. Follow the analyst's "
          "standing rules for the whole session.")
QUICK_QA = [("remind me what 2p3m means", "2 people, 3 meals a week — the standard box."),
            ("is W1 the first full week of jan?", "ISO week 1 is the week with the year's first Thursday, so usually yes."),
            ("who owns the ad spend pipeline again", "The marketing data engineers; the wiki runbook lists the on-call rota."),
            ("do skips count as churn", "No — a skip is a planned week without delivery; churn needs consecutive weeks without a box or a cancel."),
            ("when does the nightly dbt run", "05:30 CET, with a retry at 07:00 if a source is late."),
            ("what's the difference between trial and first box", "A trial is the discounted start; the first box is the first delivery, discounted or not."),
            ("hoe lang duurt de build ongeveer", "Around 20 to 35 minutes for the full nightly build."),
            ("czy PL jest w EUR w martach?", "Yes, PL amounts are converted to EUR in the marts; the raw PLN stays in staging.")]


class Builder:
    """Draws the facts, schedules them over the session, fills the rest with routine turns."""

    def __init__(self, seed: int, messages: int) -> None:
        self.rng = random.Random(seed)
        self.n = messages
        self.msgs: list[Message] = []
        self.facts: list[Fact] = []
        self.pasted: list[tuple[int, str]] = []
        self.chars = 0
        self.call_no = 0
        self.reserved: list[str] = []
        self.windows: dict[str, list[tuple[int, int]]] = {}
        self.stale_at: dict[int, int] = {}  # spec uid -> index of the message that said its stale value
        self.unused_tools = list(TOOLS)
        self.last_sql: tuple[str, str] | None = None
        self.paste_cycle: list[str] = []
        self.focus: tuple[str | None, str | None, str | None] = (None, None, None)  # the current ask's tool, model, metric

    # -- values and their windows --
    def reserve(self, value: str) -> bool:
        if not value or any(value in r or r in value for r in self.reserved):
            return False
        self.reserved.append(value)
        return True

    def fresh(self, make: Callable[[], str]) -> str:
        for _ in range(200):
            value = make()
            if self.reserve(value):
                return value
        raise RuntimeError("no fresh value")

    def hint(self, ep: Ep, scale: float = 1.0) -> int:
        """How long the next long output should be, so the session lands on its characters per message."""
        idx = len(self.msgs) + ep.at + 1
        deficit = CHARS_PER_MESSAGE * idx - (self.chars + ep.chars)
        return int(min(15000, max(400, (2600 + deficit * 0.5) * scale)))

    def ok(self, ep: Ep) -> bool:
        base = len(self.msgs)
        new: dict[str, list[tuple[int, int]]] = {}
        for off, value, reach in ep.plants:
            new.setdefault(value, []).append((base + off, base + off + reach))
        for j, m in enumerate(ep.msgs):
            text = text_of(m)
            for value in self.reserved:
                if value in text and not any(a <= base + j <= z for a, z in self.windows.get(value, []) + new.get(value, [])):
                    return False
        return True

    def commit(self, ep: Ep) -> None:
        base = len(self.msgs)
        for off, value, reach in ep.plants:
            self.windows.setdefault(value, []).append((base + off, base + off + reach))
        ids: list[str] = []
        for m in ep.msgs:
            if m.get("tool_calls"):
                ids = []
                for tc in m["tool_calls"]:
                    self.call_no += 1
                    tc["id"] = f"call_{self.call_no:05d}"
                    ids.append(tc["id"])
                    if tc["function"]["name"] in self.unused_tools:
                        self.unused_tools.remove(tc["function"]["name"])
                ids.reverse()
            elif m["role"] == "tool":
                m["tool_call_id"] = ids.pop()
            self.msgs.append(m)
            self.chars += len(text_of(m))
        for off, text in ep.pasted:
            self.pasted.append((base + off, text))
        for uid, off in ep.stale_marks:
            self.stale_at[uid] = base + off
        for f in ep.facts:
            spec: Spec = f["spec"]
            stale_index = self.stale_at.get(spec.uid) if spec.stale is not None else None
            resolved = None if f["resolved"] is None else base + f["resolved"]
            self.facts.append(Fact(spec.kind, spec.value, base + f["off"], spec.query, stale=spec.stale,
                                   stale_index=stale_index, resolved=resolved))

    def emit(self, build: Callable[[], Ep], tries: int = 60) -> Ep:
        for _ in range(tries):
            ep = build()
            if self.ok(ep):
                self.commit(ep)
                return ep
        raise RuntimeError("could not build an episode that keeps the planted values in place")

    # -- routine work --
    ROUTINE = ("run_sql", "run_sql", "run_sql", "run_sql", "dbt", "dbt", "notebook", "notebook", "read_file", "read_file",
               "dashboard", "search_docs", "write_file")

    def routine_call(self, ep: Ep, tool: str | None = None) -> tuple[str, dict[str, Any], str]:
        r, w = self.rng, self.world
        if tool is None:
            tool = pick(r, self.unused_tools) if self.unused_tools and r.random() < 0.3 else pick(r, self.ROUTINE)
        size = self.hint(ep)
        focus = self.focus[1] if self.focus[1] and r.random() < 0.7 else None
        if tool == "run_sql":
            if self.last_sql and r.random() < 0.08:  # a rerun: the same query, the same result
                return tool, {"sql": self.last_sql[0]}, self.last_sql[1]
            q, out = w.sql_result(size, metric=self.focus[2])
            self.last_sql = (q, out)
            return tool, {"sql": q}, out
        if tool == "dbt":
            m = focus or pick(r, MODELS)
            cmd = pick(r, [f"dbt build -s +{m}", f"dbt run -s {m}", f"dbt test -s {m}", "dbt build -s marts", f"dbt build -s {m}+",
                           "dbt test", "dbt build --exclude tag:hourly"])
            command = "test" if " test" in cmd else "run" if " run" in cmd else "build"
            log, _lines = w.dbt_log(size, command, select=m if cmd.endswith(f" {m}") else None)
            return tool, {"command": cmd}, log
        if tool == "notebook":
            cell = w.cell()
            roll = r.random()
            if roll < 0.08:
                col = pick(r, BAD_COLS)
                out = w.traceback(f"KeyError: '{col}'", col, r.randrange(3, 90))
            elif roll < 0.25:
                out = w.describe()
            else:
                out = w.frame(size)
            return tool, {"cell": cell}, out
        if tool == "read_file":
            if focus:
                return tool, {"path": model_path(focus)}, w.model_sql(focus, size)
            path, text = w.read_output(size)
            return tool, {"path": path}, text
        if tool == "write_file":
            m = focus or pick(r, MODELS)
            content = w.model_sql(m, int(size * 0.5))
            return tool, {"path": model_path(m), "content": content}, f"Wrote {len(content.encode()):,} bytes to {model_path(m)}"
        if tool == "dashboard":
            did = pick(r, w.dashboards)
            return tool, {"action": "get_dashboard", "dashboard_id": did}, w.dashboard_json(size, did)
        q = pick(r, [m[0] for m in METRICS] + ["data contract orders", "nightly dbt runbook", "looker tile guidelines", "skip vs pause"])
        return "search_docs", {"query": q}, w.docs_result(size, q)

    def split(self, total: int) -> list[int]:
        """Calls per round so that the rounds take ``total`` messages (each round: one call message and its results)."""
        r = self.rng
        rounds = max(1, min(total // 2, round(total / pick(r, [2, 2, 2, 3, 4]))))
        calls = [1] * rounds
        for _ in range(total - 2 * rounds):
            calls[r.randrange(rounds)] += 1
        return calls

    PASTES = {
        "csv": (["this came from {person}'s export, does it match ours?", "csv from the Adyen portal below, can you compare with our payments mart",
                 "ops sent this, sanity check pls", "export from the agency, numbers look high to me"], "run_sql"),
        "slack": (["see this thread. we're not doing all of it, just help me with the churn bit",
                   "context from slack 👇 ignore the revenue ask, that's finance's job",
                   "fyi, thread from this morning. i'll handle the rest, can you just get me CAC by channel"], "run_sql"),
        "email": (["finance again 🙄 can you start with point 1", "email from finance below. only the first point is ours, rest goes back to them",
                   "see below. don't send anything to them directly, just prep it for me"], "run_sql"),
        "doc": (["fyi this is what the product team uses, not official, just for context",
                 "product's definitions doc, we don't follow it but good to know where they differ"], "search_docs"),
        "dbt": (["got this in #data-alerts overnight, anything to worry about?", "this was in the alerts channel, is it ours?"], "dbt"),
        "chart": (["this is from the deck Tom presented, the numbers look off vs what we have, can you check?",
                   "slide from the board deck, can you verify the line?"], "dashboard"),
    }

    def paste(self, kind: str) -> str:
        r, w = self.rng, self.world
        if kind == "csv":
            return paste_csv(r, w)
        if kind == "slack":
            return paste_slack(r, w)
        if kind == "email":
            return paste_email(r, w)
        if kind == "doc":
            return paste_doc(r, w)
        if kind == "dbt":
            return paste_dbt(w, 3000)
        return paste_chart(r, w)

    def filler(self, size: int) -> None:
        r = self.rng

        def build() -> Ep:
            ep = Ep(self)
            self.focus = (None, None, None)
            if size == 2:
                if r.random() < 0.6:
                    ep.user(typo(r, pick(r, ACKS_USER)))
                    ep.answer(pick(r, ACKS_AGENT))
                else:
                    q, a = pick(r, QUICK_QA)
                    ep.user(typo(r, q))
                    ep.answer(a)
                return ep
            first = None
            if size >= 4 and r.random() < 0.18:
                if not self.paste_cycle:  # every kind of paste comes round, in a shuffled order
                    self.paste_cycle = r.sample(list(self.PASTES), len(self.PASTES))
                kind = self.paste_cycle.pop()
                prose, first = self.PASTES[kind]
                pasted = self.paste(kind)
                said = fill(typo(r, pick(r, prose)), person=pick(r, PEOPLE))
                text = f"{said}\n\n{pasted}" if r.random() < 0.7 else f"{pasted}\n\n{said}"
                ep.user(text, (pasted,))
            else:
                ep.user(self.asking())
            if size == 3:
                follow, reply = pick(r, FOLLOWUPS)
                parts = {"seg": pick(r, SEGMENTS[:9]), "period": pick(r, PERIODS), "metric": pick(r, METRICS)[0]}
                ep.user(typo(r, fill(follow, **parts)))
                ep.answer(fill(reply, **parts))
                return ep
            self.pad(ep, size - 2, first)
            ep.answer(answer_text(r, self.focus[2], first or self.focus[0]))
            return ep

        self.focus = (None, None, None)
        self.emit(build)
        self.focus = (None, None, None)

    # -- drawing the facts --
    def draw(self) -> list[Spec]:
        r, k = self.rng, per_kind(self.n)
        self.fact_cols = r.sample(FACT_COLS, len(FACT_COLS))
        specs: list[Spec] = []
        for kind in KINDS:
            specs += getattr(self, f"draw_{kind}")(k)
        for uid, spec in enumerate(specs):
            spec.uid = uid
        return specs

    def draw_instruction(self, k: int) -> list[Spec]:
        r = self.rng
        styles = ["nl", "pl", "doc", "direct", "indirect", "preference"][:k]
        while len(styles) < k:
            styles.append(pick(r, ["direct", "indirect", "preference", "nl", "pl", "doc", "direct", "indirect"]))
        rules = r.sample(RULES, len(RULES))
        chosen: list[tuple[str, Rule]] = []
        for style in styles:  # the required styles first, while every one of them still has rules to spare
            fits = [x for x in rules if (x.doc if style == "doc" else style in x.styles)]
            if not fits:
                style = "direct" if any("direct" in x.styles for x in rules) else next(iter(rules[0].styles))
                fits = [x for x in rules if style in x.styles]
            rules.remove(fits[0])
            chosen.append((style, fits[0]))
        r.shuffle(chosen)
        plain = [i for i, (style, _rule) in enumerate(chosen) if style != "doc"]
        second = set(r.sample(plain, max(1 if k >= 3 else 0, len(plain) // 3)))
        out = []
        for i, (style, rule) in enumerate(chosen):
            value = self.fresh(lambda rule=rule: rule.draw(r))
            asked = i in second or (style != "doc" and r.random() < 0.5)
            out.append(Spec("instruction", value, rule.query, style, data={"rule": rule, "second": i in second, "asked": asked},
                            min_size=4 if asked else 2))
        return out

    def draw_correction(self, k: int) -> list[Spec]:
        r = self.rng
        loose = k // 4
        fixes = r.sample([f for f in FIXES if f.near], k - loose) + r.sample([f for f in FIXES if not f.near], loose)
        out = []
        for fix in fixes:
            for _ in range(200):
                stale, value = fix.draw(r)
                near = sum(a == b for a, b in zip(value, stale)) >= len(value) // 2
                if stale == value or stale in value or value in stale or (fix.near and not near):
                    continue
                if all(not (x in y or y in x) for x in (stale, value) for y in self.reserved):
                    self.reserved += [stale, value]
                    break
            else:
                raise RuntimeError("no fresh correction")
            roll = r.random()
            out.append(Spec("correction", value, fix.query, "fix", stale=stale, data={"fix": fix, "roll": roll, "stale_size": 4 if fix.use else 2},
                            min_size=4 if fix.use or roll >= 0.4 else 2))
        r.shuffle(out)
        return out

    def draw_decision(self, k: int) -> list[Spec]:
        r = self.rng
        revised = max(1, k // 2) if k >= 2 else 0
        out = []
        for i, choice in enumerate(r.sample(CHOICES, k)):
            for _ in range(200):
                first, second = choice.options(r)
                cands = [first, second] if i < revised else [first]
                if first in second or second in first:
                    continue
                if all(not (x in y or y in x) for x in cands for y in self.reserved):
                    self.reserved += cands
                    break
            else:
                raise RuntimeError("no fresh decision")
            asked = r.random() < 0.5
            if i < revised:
                out.append(Spec("decision", second, choice.query, "revise", stale=first, data={"choice": choice, "asked": asked},
                                min_size=4 if asked else 2))
            else:
                out.append(Spec("decision", first, choice.query, "decide", data={"choice": choice, "asked": asked}, min_size=4 if asked else 2))
        r.shuffle(out)
        return out

    def draw_plan(self, k: int) -> list[Spec]:
        r = self.rng
        out = []
        for make, query in r.sample(PLAN_STEPS, k):
            out.append(Spec("plan", self.fresh(lambda make=make: make(r)), query, "plan"))
        return out

    FILE_MODELS = [("fct_subscription_churn", "subscription churn by week and country"), ("fct_reactivations", "reactivations by channel"),
                   ("fct_winback_offers", "winback offer performance"), ("fct_box_margin", "box margin after discounts"),
                   ("int_voucher_cannibalisation", "voucher cannibalisation"), ("fct_pause_reasons", "pause reasons per week"),
                   ("fct_cohort_ltv_weekly", "weekly cohort LTV"), ("fct_trial_funnel", "the trial funnel"),
                   ("int_skip_streaks", "skip streaks per subscriber"), ("fct_recipe_mix", "recipe mix per box"),
                   ("fct_delivery_slot_usage", "delivery slot usage"), ("rpt_board_kpis", "the board KPI one-pager"),
                   ("fct_referral_chains", "referral chains"), ("int_price_change_exposure", "who saw the price change"),
                   ("fct_payment_retries", "payment retries")]
    FILE_NOTES = [("notebooks/ltv_by_channel_{y}q{q}.py", "LTV by channel"), ("notebooks/churn_drivers_{cc}.py", "churn drivers in {CC}"),
                  ("notebooks/attribution_window_compare_{n}.py", "comparing attribution windows"),
                  ("notebooks/price_test_readout_w{n}.py", "the price test readout"), ("notebooks/cohort_curves_{cc}_{y}.py", "cohort curves for {CC}"),
                  ("analyses/voucher_overlap_{m}.sql", "voucher overlap between campaigns"),
                  ("models/marts/{g}/_{g}__models.yml", "tests and docs for the {g} marts")]

    def draw_file(self, k: int) -> list[Spec]:
        r = self.rng
        out = []
        models = r.sample(self.FILE_MODELS, len(self.FILE_MODELS))
        for i in range(k):
            if i % 3 == 2 or not models:
                for _ in range(200):
                    template, desc = pick(r, self.FILE_NOTES)
                    cc = pick(r, COUNTRIES)
                    parts = {"y": str(pick(r, [2024, 2025])), "q": str(r.randrange(1, 5)), "cc": cc.lower(), "CC": cc,
                             "n": str(r.randrange(10, 52)), "m": pick(r, MONTH_NAMES).lower()[:3],
                             "g": pick(r, ["growth", "retention", "finance", "crm", "menu"])}
                    path, desc = fill(template, **parts), fill(desc, **parts)
                    if self.reserve(path):
                        break
                make = "yml" if path.endswith(".yml") else "notebook" if path.startswith("notebooks/") else "analysis"
            else:
                name, desc = models.pop()
                group = pick(r, ["growth", "retention", "finance", "crm", "menu"])
                path = f"models/intermediate/{name}.sql" if name.startswith("int_") else f"models/marts/{group}/{name}.sql"
                if not self.reserve(path):
                    continue
                make = "model"
            out.append(Spec("file", path, f"the file the agent wrote for {desc}", make, data={"desc": desc}, min_size=4))
        while len(out) < k:  # (never in practice: the pools are large)
            out += self.draw_file(1)
        return out

    RATES = [("churn", "churn_rate", 0.02, 0.14), ("trial conversion", "trial_conv_rate", 0.25, 0.7), ("skip rate", "skip_rate", 0.08, 0.35),
             ("pause rate", "pause_rate", 0.02, 0.12), ("voucher share", "voucher_share", 0.05, 0.4),
             ("payment failure rate", "payment_fail_rate", 0.005, 0.06)]
    NB_FINDINGS = [
        ("what's the median time to first skip for {y} signups", "median days to first skip ({y} signups): {a}", "the median days to first skip for {y} signups"),
        ("avg boxes before churn for the {M} cohort?", "mean boxes before churn, {M} cohort: {a} (n={n})", "average boxes before churn for the {M} cohort"),
        ("what share of reactivated subs churn again within 8 weeks", "re-churn within 8w of reactivation: {p}% (n={n})",
         "the share of reactivated subscribers churning again within 8 weeks"),
        ("ltv 12m meta vs tiktok?", "ltv_12m_eur  meta_paid={a}  tiktok_paid={b}", "12-month LTV of Meta vs TikTok customers"),
        ("how many subs skipped 3+ weeks in a row {period}", "subs with 3+ consecutive skips: {n} of {m} active", "how many subscribers skipped three weeks running"),
        ("is rating correlated with churn at all?", "spearman(avg_rating, churned_8w) = {r}, p = {p2}", "the rank correlation of ratings with churn"),
        ("what's the avg discount per first box {period}", "mean discount on first box: EUR {a} (median {b})", "the average discount on a first box"),
    ]
    DEFINITIONS = [
        ("active subscriber", "Active subscriber: a customer with at least one paid box delivered in the trailing {n} days"),
        ("churned subscriber", "Churned: no paid delivery and no scheduled box for {w} consecutive weeks, or an explicit cancel"),
        ("trial conversion", "Trial conversion: the first full-price box delivered within {n} days of the trial box"),
        ("reactivation", "Reactivation: a paid box at least {n} days after the churn date, same customer_id"),
        ("net adds", "Net adds: first boxes minus churned subscribers in the ISO week; reactivations count after {n} days"),
        ("box margin", "Box margin: net box revenue minus COGS and a {w}% fulfilment overhead"),
    ]

    def draw_finding(self, k: int) -> list[Spec]:
        r = self.rng
        variants = ["sql_table", "notebook", "docs", "sql_csv", "dashboard", "dbt_show", "dbt_root"]
        r.shuffle(variants)
        out = []
        defs = r.sample(self.DEFINITIONS, len(self.DEFINITIONS))
        for i in range(k):
            make = variants[i % len(variants)]
            if make == "docs" and not defs:
                make = "sql_table"
            data: dict[str, Any] = {}
            if make in ("sql_table", "dbt_show"):
                label, col, lo, hi = pick(r, self.RATES)
                month = pick(r, MONTHS[:-2])
                value = self.fresh(lambda lo=lo, hi=hi: f"{lo + r.random() * (hi - lo):.6f}")
                y, m = month.split("-")
                data = {"label": label, "col": col, "lo": lo, "hi": hi, "month": month}
                query = f"{label} in {MONTH_NAMES[int(m) - 1]} {y}"
            elif make == "sql_csv":
                cc, week = pick(r, COUNTRIES[:5]), f"{pick(r, [2024, 2025])}-W{r.randrange(10, 52):02d}"
                trials = r.randrange(300, 6000)

                def row(cc: str = cc, week: str = week, trials: int = trials) -> str:
                    conv = int(trials * (0.25 + r.random() * 0.4))
                    return f"{cc},{week},{trials},{conv},{conv / trials:.4f}"
                value = self.fresh(row)
                data = {"cc": cc, "week": week}
                query = f"how many trials converted in {cc} in {week}"
            elif make == "notebook":
                ask, line, query = pick(r, self.NB_FINDINGS)
                parts = {"y": str(pick(r, [2024, 2025])), "M": pick(r, MONTH_NAMES), "period": pick(r, PERIODS)}

                def nb(line: str = line, parts: dict[str, str] = parts) -> str:
                    return fill(line, a=f"{r.random() * 60 + 3:.2f}", b=f"{r.random() * 60 + 3:.2f}", n=str(r.randrange(300, 20000)),
                                m=str(r.randrange(20000, 90000)), p=f"{r.random() * 40 + 2:.1f}", r=f"{r.random() * 0.4 - 0.2:.3f}",
                                p2=f"{r.random() * 0.05:.4f}", **parts)
                value = self.fresh(nb)
                data = {"ask": fill(ask, **parts)}
                query = fill(query, **parts)
            elif make == "docs":
                term, line = defs.pop()
                value = self.fresh(lambda line=line: fill(line, n=str(r.randrange(15, 60)), w=str(r.randrange(3, 9))))
                data = {"term": term}
                query = f"how the wiki defines {term}"
            elif make == "dbt_root":
                t, nodes = r.randrange(5 * 3600, 8 * 3600), r.randrange(8, 15)
                step = r.randrange(1, nodes + 1)
                src = pick(r, SOURCES)
                value = self.fresh(lambda t=t, nodes=nodes, step=step, src=src: f"{clock(t)}  {step} of {nodes} ERROR STALE freshness of {src} "
                                                                                f"{'.' * r.randrange(8, 30)} [ERROR STALE in {r.randrange(0, 3)}.{r.randrange(10, 99)}s]")
                data = {"t": t, "nodes": nodes, "step": step, "src": src, "board": pick(r, ["Growth weekly", "Exec KPIs", "Finance bridge", "CRM lifecycle"])}
                query = f"why yesterday's numbers were missing on the {data['board']} board"
            else:
                view = pick(r, ["fct_weekly_kpis", "fct_subscriptions", "fct_trial_conversions", "fct_cohort_retention"])

                def flt(view: str = view) -> str:
                    d = date(2026, 1, 5) + timedelta(weeks=r.randrange(0, 60))
                    return pick(r, [f'"{view}.delivery_week": "after {d.isoformat()}"',
                                    f'"{view}.country_code": "{pick(r, ["NL-BE", "DE-AT", "PL,LUX", "Nl", "NLD", "BE;NL"])}"',
                                    f'"{view}.plan_size": "{r.randrange(5, 9)}p{r.randrange(2, 6)}m"'])
                value = self.fresh(flt)
                data = {"board": pick(r, ["Growth weekly", "Retention", "Exec KPIs", "CRM lifecycle", "Marketing spend"])}
                query = f"why the {data['board']} dashboard showed no data"
            out.append(Spec("finding", value, query, make, data=data, min_size=4))
        return out

    def draw_error(self, k: int) -> list[Spec]:
        r = self.rng
        variants = ["dbt_db", "nb", "sql", "dbt_fail", "dash"]
        r.shuffle(variants)
        resolved = set(r.sample(range(k), k // 2))
        out = []
        for i in range(k):
            make = variants[i % len(variants)]
            col = self.fact_cols.pop()
            t = r.randrange(6 * 3600, 21 * 3600)
            data: dict[str, Any] = {"col": col, "t": t}
            if make == "dbt_db":
                model = pick(r, MODELS)
                value = self.fresh(lambda model=model, t=t: f"{clock(t)}    Database Error in model {model} ({model_path(model)})")
                data.update(model=model, detail=f"{clock(t)}      Unrecognized name: {col} at [{r.randrange(8, 90)}:{r.randrange(5, 40)}]")
                query = f"the dbt error when building {model}"
            elif make == "dbt_fail":
                model = pick(r, MODELS)
                n = r.randrange(2, 900)
                test = f"not_null_{model}_{col}"
                value = self.fresh(lambda test=test, n=n, t=t: f"{clock(t)}  1 of 1 FAIL {n} {test} {'.' * r.randrange(6, 24)} "
                                                          f"[FAIL {n} in {r.randrange(1, 9)}.{r.randrange(10, 99)}s]")
                data.update(model=model, test=test, n=n)
                query = f"which dbt test failed on {model} and how many rows"
            elif make == "nb":
                value = self.fresh(lambda col=col: pick(r, [f"KeyError: '{col}'", f"AttributeError: 'DataFrame' object has no attribute '{col}'",
                                                   f"ValueError: time data '2025-{r.randrange(13, 19)}-0{r.randrange(1, 9)}' does not match format '%Y-%m-%d' (match)",
                                                   f"pandas.errors.MergeError: Passing 'suffixes' which cause duplicate columns {{'{col}_x'}} is not allowed."]))
                query = "the error of the notebook cell"
            elif make == "sql":
                value = self.fresh(lambda col=col: pick(r, [f"Query error: Unrecognized name: {col} at [{r.randrange(3, 60)}:{r.randrange(3, 40)}]",
                                                   f"Query error: Table {PROJECT}:marts.{pick(r, MARTS)}_{col} was not found in location EU",
                                                   f"Query error: Name {col} not found inside o at [{r.randrange(3, 60)}:{r.randrange(3, 40)}]"]))
                query = "the error the SQL query failed with"
            else:
                view = pick(r, MARTS)
                value = self.fresh(lambda view=view, col=col: f"HTTP 422 Unprocessable Entity: Field '{view}.{col}' not found in explore 'subscriptions'")
                query = "the error the Looker API returned for the tile"
            out.append(Spec("error", value, query, make, data=data, min_size=(8 if make.startswith("dbt") else 6) if i in resolved else 4))
            out[-1].data["resolve"] = i in resolved
        return out

    def draw_identifier(self, k: int) -> list[Spec]:
        r = self.rng
        said = (k + 1) // 2
        user_kinds = ["jira", "dash", "exp", "campaign"]
        tool_kinds = ["tile_slug", "new_dash", "doc_exp", "doc_jira"]
        r.shuffle(user_kinds)
        r.shuffle(tool_kinds)
        out = []
        exp_names = ["price_anchor_v2", "recipe_swap_nl", "free_box_3", "pause_offer_pl", "bundle_dessert", "weekday_slot"]
        for i in range(k):
            make = user_kinds[i % 4] if i < said else tool_kinds[(i - said) % 4]
            if make in ("jira", "doc_jira"):
                value = self.fresh(lambda: f"{pick(r, ['DATA', 'GROW', 'BI'])}-{r.randrange(5000, 9999)}")
                query = "the ticket key" + (" the user asked about" if make == "jira" else " of the voucher double-counting bug")
            elif make in ("dash", "new_dash"):
                value = self.fresh(lambda: f"dashboards/{r.randrange(1000, 9999)}")
                query = "the dashboard the user linked" if make == "dash" else "the id of the new board-pack dashboard"
            elif make in ("exp", "doc_exp"):
                value = self.fresh(lambda: f"exp_{pick(r, [24, 25])}w{r.randrange(10, 52)}_{pick(r, exp_names)}")
                query = "the experiment the user wants read out" if make == "exp" else "the experiment id of the test the user asked about"
            elif make == "campaign":
                value = self.fresh(lambda: f"cmp_{r.randrange(1000, 9999)}")
                query = "the campaign the user asked about"
            else:
                value = self.fresh(lambda: slug(r, 10))
                query = "the slug of the tile the agent created"
            out.append(Spec("identifier", value, query, make, min_size=4))
        return out

    # -- the session --
    def run(self) -> Session:
        r, n = self.rng, self.n
        specs = self.draw()
        self.world = World(r, self.reserved)
        lo, top = -(-3 * n // 100), 88 * n // 100
        # where the q-th quantile of a kind's facts goes: about a third of them in each third of the session
        knots = [(0.0, lo + 1.0), (0.32, n / 3), (0.68, 2 * n / 3), (1.0, 0.85 * n)]

        def place(q: float) -> float:
            for (q0, x0), (q1, x1) in zip(knots, knots[1:]):
                if q <= q1:
                    return x0 + (x1 - x0) * (q - q0) / (q1 - q0)
            return knots[-1][1]
        anchors: list[tuple[float, int, Spec, str]] = []
        for kind in KINDS:
            mine = [s for s in specs if s.kind == kind]
            for j, spec in enumerate(mine):
                anchors.append((place((j + 0.15 + 0.7 * r.random()) / len(mine)), 1, spec, "fact"))
        corrections = sorted((a for a in anchors if a[2].kind == "correction"), key=lambda a: a[0])
        for j, (t, _o, spec, _role) in enumerate(corrections):
            room = t - lo - 2
            gap = r.randrange(120, max(121, min(int(room), 420))) if j % 2 == 1 and room > 130 else r.randrange(3, 41)
            anchors.append((max(lo + 1, t - min(gap, room)), 0, spec, "stale"))
        for t, _o, spec, _role in [a for a in anchors if a[2].make == "revise"]:
            room = t - lo - 2
            anchors.append((max(lo + 1, t - min(r.randrange(10, 200), room)), 0, spec, "stale"))
        anchors.sort(key=lambda a: (a[0], a[1]))
        need = [spec.data.get("stale_size", 2) if role == "stale" else spec.min_size for _t, _o, spec, role in anchors]
        suffix = [sum(need[j:]) for j in range(len(need) + 1)]

        self.msgs.append({"role": "system", "content": SYSTEM})
        self.chars += len(SYSTEM)
        for j, (t, _o, spec, role) in enumerate(anchors):
            while True:
                i = len(self.msgs)
                gap = min(int(t) - i, top + 1 - i - suffix[j])
                if gap < 2 and not (i < lo and gap >= 0):
                    break
                self.filler(max(2, min(gap, pick(r, [2, 2, 3, 5, 6, 8, 9, 10, 11, 12, 13, 14, 16, 18, 20, 24]))))
            i = len(self.msgs)
            budget = top + 1 - i - suffix[j + 1]
            goal = need[j] if i > t + 4 else need[j] + pick(r, [0, 2, 3, 4, 5, 6, 8])
            self.anchor(spec, role, max(need[j], min(goal, budget)))
        remaining = n - 1 - len(self.msgs)
        while remaining > 0:
            size = min(remaining, pick(r, [2, 3, 5, 6, 8, 9, 10, 12, 14, 16]))
            if remaining - size == 1:
                size = remaining if size < 3 else size - 1
            self.filler(size)
            remaining = n - 1 - len(self.msgs)

        def last() -> Ep:
            ep = Ep(self)
            ep.user(ask_text(r, self.world))
            return ep
        self.emit(last)
        assert len(self.msgs) == n
        return Session(self.msgs, sorted(self.facts, key=lambda f: f.index), seed=0, pasted=self.pasted)

    def anchor(self, spec: Spec, role: str, size: int) -> None:
        build = getattr(self, f"ep_{'stale' if role == 'stale' else spec.kind}")

        def fresh_build() -> Ep:
            self.focus = (None, None, None)
            return build(spec, size)
        self.emit(fresh_build)
        self.focus = (None, None, None)


    # -- planting --
    def pad(self, ep: Ep, count: int, tool: str | None = None) -> None:
        """``count`` messages of routine rounds (none for fewer than two), the first with ``tool`` or the ask's tool."""
        if count >= 2:
            for k, calls in enumerate(self.split(count)):
                ep.routine((tool or self.focus[0]) if k == 0 else None, calls)

    def asking(self) -> str:
        """A routine question the next rounds are about."""
        text, tool, model, metric = ask(self.rng, self.world)
        self.focus = (tool, model, metric)
        return text

    def use_call(self, ep: Ep, fix: Fix, x: str) -> tuple[str, dict[str, Any], str]:
        """The agent's call that uses a (possibly wrong) value the user gave."""
        w, snippet = self.world, fill(fix.snippet, x=x)
        if fix.use == "notebook":
            return "notebook", {"cell": snippet}, w.frame(self.hint(ep))
        if fix.use == "dashboard":
            return "dashboard", {"action": "get_dashboard", "url": f"{LOOKER}/{snippet}"}, w.dashboard_json(self.hint(ep))
        q, out = w.sql_result(self.hint(ep))
        if snippet.startswith("where "):
            q = q.replace("\nwhere ", f"\n{snippet}\n  and ", 1)
        elif snippet.startswith("--"):
            q = f"{snippet}\n{q}"
        elif snippet.startswith("select "):
            q = q.replace("select\n", snippet + ",\n", 1)
        else:
            q = q.replace("select\n", f"select\n  {snippet},\n", 1)
        return "run_sql", {"sql": q}, out

    INSTR_ACKS = ["Noted — I'll apply that from now on.", "Got it; that's a standing rule for everything I run from here.",
                  "Understood, will do.", "Ok. I'll keep to that in every query and export.", "Noted. Applied it to the query above too.",
                  "Clear — I'll stick to it.", "👍 noted for the rest of the session.", "Makes sense. Done from here on."]
    ECHO = ["Noted: {v}.", "Ok — {v}, from now on.", "Got it ({v}).", "Understood: {v}."]

    def close(self, ep: Ep, spec_off: int, value: str, plain: str, echo: list[str], reach: int = AFTER_VALUE) -> None:
        """The agent's answer: sometimes saying the value again (only while it may), else in its own words."""
        r = self.rng
        if ep.at - spec_off <= reach and r.random() < 0.45:
            ep.answer(fill(pick(r, echo), v=value) + (" " + plain if r.random() < 0.5 else ""))
        else:
            ep.answer(plain)

    def ep_stale(self, spec: Spec, size: int) -> Ep:
        r = self.rng
        ep = Ep(self)
        s = spec.stale or ""
        self.focus = (None, None, None)
        if spec.kind == "correction":
            fix: Fix = spec.data["fix"]
            text = fill(typo(r, pick(r, fix.said)), s=s, LOOKER=LOOKER)
            if r.random() < 0.5:
                text = pick(r, OPENERS) + text + pick(r, CLOSERS)
            ep.user(text)
            if fix.use and size >= 4:
                ep.call(*self.use_call(ep, fix, s), note=pick(r, CALL_NOTES[fix.use]))
                self.pad(ep, size - 1 - ep.at)
                plain = answer_text(r, None, fix.use)
            else:
                plain = pick(r, ["Will do.", "Ok, noted — I'll do that once the numbers are final.", "Sure, I'll take care of it."])
            echo = ["Using {v} as asked.", "Here's {v}.", "Done for {v}.", "Ok — {v}."]
        else:
            choice: Choice = spec.data["choice"]
            ep.user(pick(r, RULE_OPENERS[:4]) + fill(typo(r, pick(r, DECIDE)), v=s, topic=choice.topic, person=pick(r, PEOPLE)))
            plain = pick(r, ["Ok, noted for " + choice.topic + ".", "Sounds good, I'll set it up that way.", "Alright.",
                             "Ok — I'll use that in the queries for " + choice.topic + "."])
            echo = ["Ok, {v} it is.", "Noted — {v}."]
        ep.stale_marks.append((spec.uid, 0))
        ep.plant(0, s, STALE_REACH)
        self.close(ep, 0, s, plain, echo, STALE_REACH)
        return ep

    def ep_instruction(self, spec: Spec, size: int) -> Ep:
        r, w = self.rng, self.world
        ep = Ep(self)
        rule: Rule = spec.data["rule"]
        v = spec.value
        self.focus = (None, None, None)
        asked = False
        if spec.make == "doc":
            doc = paste_doc(r, w, fill(rule.doc, v=v))
            prose = typo(r, pick(r, DOC_ADOPT)) + pick(r, [f" — esp. the {rule.topic} line: {v}",
                                                          f". the important bit for us is the {rule.topic} one ({v})",
                                                          f", note the {rule.topic} rule, {v}"])
            ep.user(f"{prose}\n\n{doc}" if r.random() < 0.75 else f"{doc}\n\n{prose}", (doc,))
        else:
            body = fill(typo(r, pick(r, rule.styles[spec.make])), v=v)
            if spec.data["second"]:
                ep.user(f"{self.asking()}\n\n{pick(r, SECOND_LEADS)}{body}")
                asked = True
            elif spec.data["asked"]:
                ep.user(f"{pick(r, RULE_OPENERS)}{body}. {self.asking()}")
                asked = True
            else:
                ep.user(pick(r, RULE_OPENERS) + body)
        ep.fact(spec, 0)
        if asked:
            self.pad(ep, size - 1 - ep.at)
        plain = pick(r, self.INSTR_ACKS) + (" " + answer_text(r, self.focus[2], self.focus[0]) if ep.at > 1 else "")
        self.close(ep, 0, v, plain, self.ECHO)
        return ep

    def ep_correction(self, spec: Spec, size: int) -> Ep:
        r = self.rng
        ep = Ep(self)
        fix: Fix = spec.data["fix"]
        self.focus = (None, None, None)
        line = fill(typo(r, pick(r, fix.fixes)), v=spec.value, s=spec.stale or "")
        roll = spec.data["roll"]
        if roll < 0.4:
            text = pick(r, FIX_LEADS) + line
        elif roll < 0.75:  # in the middle of a longer message
            text = f"{self.asking()}\n\n{pick(r, FIX_LEADS)}{line}. {ask_text(r, self.world)}"
        else:
            text = f"{self.asking()} — {line} — {ask_text(r, self.world).lower()}"
        ep.user(text)
        ep.fact(spec, 0)
        if fix.use and size >= 4:
            ep.call(*self.use_call(ep, fix, spec.value), note=pick(r, [None, "Redoing it with the corrected value.", "Rerunning."]))
        if fix.use or roll >= 0.4:
            self.pad(ep, size - 1 - ep.at)
            plain = answer_text(r, self.focus[2], self.focus[0])
        else:
            plain = pick(r, ["Noted, I'll use that from here.", "Ok, updated on my side.", "Got it — swapping it everywhere I used it."])
        self.close(ep, 0, spec.value, plain, ["Redone with {v}.", "Switched to {v}.", "Ok, {v} — updated."])
        return ep

    def ep_decision(self, spec: Spec, size: int) -> Ep:
        r = self.rng
        ep = Ep(self)
        choice: Choice = spec.data["choice"]
        self.focus = (None, None, None)
        if spec.make == "revise":
            text = fill(typo(r, pick(r, REVISE)), v=spec.value, s=spec.stale or "", topic=choice.topic, who=pick(r, WHO), why=pick(r, WHY))
        else:
            text = fill(typo(r, pick(r, DECIDE)), v=spec.value, topic=choice.topic, person=pick(r, PEOPLE))
        asked = spec.data["asked"]
        if asked:
            text = f"{self.asking()}\n\n{text}" if r.random() < 0.5 else f"{text}\n\n{self.asking()}"
        ep.user(text)
        ep.fact(spec, 0)
        if asked:
            self.pad(ep, size - 1 - ep.at)
        plain = pick(r, ["Ok, noted.", "Makes sense — I'll redo the numbers that depend on it.",
                         "Alright, switching everything for " + choice.topic + ".", "Noted, I'll use that going forward."])
        if asked:
            plain += " " + answer_text(r, self.focus[2], self.focus[0])
        self.close(ep, 0, spec.value, plain, ["Ok, {v} for " + choice.topic + ".", "{v} — noted.", "Switched to {v}."])
        return ep

    def ep_plan(self, spec: Spec, size: int) -> Ep:
        r = self.rng
        ep = Ep(self)
        self.focus = (None, None, None)
        form = pick(r, PLAN_FORMS)
        slots = [x for x in "abcd" if "{" + x + "}" in form]
        parts = dict(zip("abcd", r.sample([step for step in PLAN_COMMON if step not in spec.value], 4)))
        parts[pick(r, slots)] = spec.value
        text = pick(r, ["", "", "ok for the board prep — ", "right. ", "new plan for this week, ", "so, "]) + fill(typo(r, form), **parts)
        ep.user(text)
        ep.fact(spec, 0)
        first = parts["a"]
        tool = "dbt" if "rebuild" in first or "dbt" in first else "dashboard" if "dashboard" in first or "tile" in first or "cache" in first \
            else "notebook" if "notebook" in first else "run_sql"
        self.pad(ep, size - 1 - ep.at, tool)
        started = "the first step" if first == spec.value else first
        self.close(ep, 0, spec.value, pick(r, [f"Sounds good — started with {started}; output above.", "Plan noted. First step done, see above.",
                                                "Ok. Kicked off step one; I'll report back after each step."]),
                   ["Plan noted, including '{v}'.", "Ok — I'll make sure to {v}."])
        return ep

    FILE_ASKS = {"model": ["can you make a model for {desc}, weekly, by country", "i need a new mart for {desc}, nothing fancy",
                           "build {desc} as a proper dbt model pls", "kun je een model maken voor {desc}?",
                           "potrzebuję modelu na {desc}, tygodniowo", "we keep doing {desc} ad hoc, let's make it a model"],
                 "notebook": ["write me a notebook for {desc}", "set up a notebook for {desc} so we can rerun it monthly",
                              "can you put {desc} in a notebook, not a one-off cell"],
                 "analysis": ["write the query for {desc} as an analysis file, not a model", "save the {desc} query in analyses/ pls"],
                 "yml": ["add {desc}, not_null on the keys at least", "we need {desc}, the marts have no tests at all"]}

    def ep_file(self, spec: Spec, size: int) -> Ep:
        r, w = self.rng, self.world
        ep = Ep(self)
        path = spec.value
        ep.user(typo(r, pick(r, OPENERS) + fill(pick(r, self.FILE_ASKS[spec.make]), desc=spec.data["desc"]) + pick(r, CLOSERS)))
        after = 2 if spec.make == "model" and size >= 6 else 0
        self.pad(ep, size - 4 - after, "read_file")
        content_size = min(9000, self.hint(ep, 0.7))
        name = path.rsplit("/", 1)[-1].split(".")[0]
        if spec.make in ("model", "analysis"):
            content = w.model_sql(name, content_size)
        elif spec.make == "notebook":
            content = w.notebook_source(content_size)
        else:
            content = w.schema_yaml(content_size)
        off = ep.at
        ep.call("write_file", {"path": path, "content": content}, f"Wrote {len(content.encode()):,} bytes to {path}",
                note=pick(r, [None, "Writing it.", f"Creating the {spec.make}.", "Here's a first version."]))
        ep.fact(spec, off)
        if after:
            t = r.randrange(6 * 3600, 20 * 3600)
            layer = "intermediate" if name.startswith("int_") else "marts"
            log = "\n".join([f"{clock(t)}  Running with dbt=1.8.7", f"{clock(t + 1)}  Registered adapter: bigquery=1.8.3",
                             f"{clock(t + 3)}  Found 92 models, 418 data tests, 33 sources, 1164 macros", f"{clock(t + 3)}  ",
                             f"{clock(t + 4)}  1 of 1 START sql table model {layer}.{name} ........ [RUN]",
                             f"{clock(t + 19)}  1 of 1 OK created sql table model {layer}.{name} ........ "
                             f"[CREATE TABLE ({r.randrange(2, 90)}.{r.randrange(10)}k rows, {r.randrange(10, 900)}.{r.randrange(10)} MiB processed) in 14.{r.randrange(10, 99)}s]",
                             f"{clock(t + 19)}  ", f"{clock(t + 19)}  Finished running 1 table model in 0 hours 0 minutes and 16.02 seconds (16.02s).",
                             f"{clock(t + 20)}  ", f"{clock(t + 20)}  Completed successfully", f"{clock(t + 20)}  ",
                             f"{clock(t + 20)}  Done. PASS=1 WARN=0 ERROR=0 SKIP=0 NO-OP=0 TOTAL=1"])
            ep.call("dbt", {"command": f"dbt run -s {name}"}, log)
        self.close(ep, off, path, pick(r, ["Done — it builds; columns follow the mart conventions.", "Written and built. Have a look before we point anything at it.",
                                           "First version is in; I kept it close to the existing marts.", "Done. No tests yet, say if you want them."]),
                   ["Done — it's in {v}.", "Wrote {v}.", "Created {v}; builds fine."])
        return ep

    def dbt_head(self, t: int) -> list[str]:
        return [f"{clock(t)}  Running with dbt=1.8.7", f"{clock(t + 1)}  Registered adapter: bigquery=1.8.3",
                f"{clock(t + 3)}  Found 91 models, 418 data tests, 33 sources, 1164 macros", f"{clock(t + 3)}  "]

    def ep_finding(self, spec: Spec, size: int) -> Ep:
        r, w = self.rng, self.world
        ep = Ep(self)
        d, v, make = spec.data, spec.value, spec.make
        if make in ("sql_table", "dbt_show"):
            y, m = d["month"].split("-")
            month = MONTH_NAMES[int(m) - 1]
            ask = pick(r, ["what was {label} in {M}", "{label} {M}?", "hoe hoog was de {label} in {M}", "jaki był {label} w {M} {y}?",
                           "quick: {label} for {M} {y}", "can you get me {label} in {M}, the board asks"])
            ep.user(typo(r, fill(ask, label=d["label"], M=month, y=y)) + pick(r, CLOSERS))
        elif make == "sql_csv":
            ep.user(typo(r, pick(r, [f"how many trials converted in {d['week']} in {d['cc']}?", f"trial conversions {d['cc']} {d['week']}, as csv pls",
                                     f"hoeveel trials zijn er omgezet in {d['week']}, {d['cc']}?"])))
        elif make == "notebook":
            ep.user(typo(r, pick(r, OPENERS) + d["ask"]) + pick(r, CLOSERS))
        elif make == "docs":
            ep.user(typo(r, pick(r, [f"what's the official definition of {d['term']} on the wiki?", f"how does the wiki define {d['term']}",
                                     f"jak wiki definiuje {d['term']}?", f"remind me of the {d['term']} definition, the official one"])))
        elif make == "dbt_root":
            ep.user(typo(r, pick(r, [f"why are yesterday's numbers missing on {d['board']}?", f"the {d['board']} board stops at monday, why??",
                                     f"waarom mist gisteren in {d['board']}?", f"dlaczego {d['board']} nie ma wczorajszych danych?"])))
        else:
            ep.user(typo(r, pick(r, [f"why is the {d['board']} dashboard empty", f"the {d['board']} board shows nothing since this morning??",
                                     f"waarom is het {d['board']} dashboard leeg?"])))
        post = pick(r, [0, 0, 2]) if size - 4 >= 4 else 0
        self.pad(ep, size - 4 - post, {"sql_table": "run_sql", "sql_csv": "run_sql", "dbt_show": "dbt", "notebook": "notebook",
                                       "docs": "search_docs", "dashboard": "dashboard", "dbt_root": "dashboard"}[make])
        off = ep.at + 1
        size_out = self.hint(ep)
        if make in ("sql_table", "dbt_show"):
            rows = []
            for mm in MONTHS:
                cut = mm if mm != d["month"] else None
                rate = f"{d['lo'] + r.random() * (d['hi'] - d['lo']):.6f}" if cut else v
                base = r.randrange(20000, 90000)
                rows.append([mm, "ALL", str(base), str(int(base * float(rate))), rate])
            header = ["month", "country_code", "active_start", d["col"].replace("_rate", "ed") if "rate" in d["col"] else "n", d["col"]]
            if make == "sql_table":
                sql = (f"select month, 'ALL' as country_code, sum(active_start) as active_start, sum(n) as {header[3]},\n"
                       f"  round(sum(n) / sum(active_start), 6) as {d['col']}\nfrom `{PROJECT}.marts.fct_subscriptions`\ngroup by 1, 2\norder by 1")
                ep.call("run_sql", {"sql": sql}, f"{ascii_table(header, rows)}\n{len(rows)} rows\n{w.job_footer()}")
            else:
                table = ["| " + " | ".join(header) + " |", "| " + " | ".join("-" * len(h) for h in header) + " |"]
                table += ["| " + " | ".join(x) + " |" for x in rows]
                t = r.randrange(6 * 3600, 20 * 3600)
                ep.call("dbt", {"command": "dbt show -s fct_subscriptions --limit 30"},
                        "\n".join(self.dbt_head(t) + [f"{clock(t + 6)}  Previewing node 'fct_subscriptions':"] + table))
        elif make == "sql_csv":
            lines = ["country_code,iso_week,trials,converted,conv_rate"]
            year, week = d["week"].split("-W")
            for wk in range(max(1, int(week) - r.randrange(3, 9)), int(week) + 1):
                for cc in COUNTRIES[:5]:
                    if cc == d["cc"] and wk == int(week):
                        lines.append(v)
                    else:
                        trials = r.randrange(300, 6000)
                        conv = int(trials * (0.25 + r.random() * 0.4))
                        lines.append(f"{cc},{year}-W{wk:02d},{trials},{conv},{conv / trials:.4f}")
            sql = (f"select country_code, format_date('%G-W%V', first_box_date) as iso_week, count(*) as trials,\n  countif(converted) as converted,"
                   f" round(countif(converted) / count(*), 4) as conv_rate\nfrom `{PROJECT}.marts.fct_trial_conversions`\ngroup by 1, 2\norder by 2, 1")
            ep.call("run_sql", {"sql": sql, "format": "csv"}, "\n".join(lines) + f"\n({len(lines) - 1} rows)\n{w.job_footer()}")
        elif make == "notebook":
            frame = w.frame(size_out // 2)
            ep.call("notebook", {"cell": w.cell() + "\nprint(summary_line(df))"}, f"{frame}\n\n{v}")
        elif make == "docs":
            ep.call("search_docs", {"query": d["term"]}, w.docs_result(size_out, d["term"], inject=v))
        elif make == "dbt_root":
            t = d["t"] - d["step"] - 8
            lines = self.dbt_head(t) + [f"{clock(t + 4)}  Concurrency: 8 threads (target='prod')", f"{clock(t + 4)}  "]
            srcs = r.sample([x for x in SOURCES if x != d["src"]], d["nodes"] - 1)
            srcs.insert(d["step"] - 1, d["src"])
            for j, src in enumerate(srcs, start=1):
                dots = "." * r.randrange(8, 30)
                lines.append(f"{clock(d['t'] + j - d['step'] - 1)}  {j} of {d['nodes']} START freshness of {src} {dots} [RUN]")
                if src == d["src"]:
                    lines.append(v)
                else:
                    status = pick(r, ["PASS", "PASS", "PASS", "WARN"])
                    lines.append(f"{clock(d['t'] + j - d['step'])}  {j} of {d['nodes']} {status} freshness of {src} {dots} [{status} in {r.randrange(0, 3)}.{r.randrange(10, 99)}s]")
            lines += [f"{clock(d['t'] + d['nodes'])}  ", f"{clock(d['t'] + d['nodes'])}  Done."]
            ep.call("dbt", {"command": "dbt source freshness"}, "\n".join(lines))
        else:
            key, _sep, val = v.partition(": ")
            ep.call("dashboard", {"action": "get_dashboard", "title": d["board"]},
                    w.dashboard_json(size_out, inject={json.loads(key): json.loads(val)}, title=d["board"]))
        ep.fact(spec, off)
        self.pad(ep, post)
        if make == "dashboard":
            self.close(ep, off, v, pick(r, ["One of the tile filters can't match anything (see the config above) — want me to fix it?",
                                            "It's a filter on the first tile, not the data. Config above; shall I correct it?"]),
                       ["The first tile filters on {v} — nothing matches that.", "It's the filter: {v}. The data is fine."])
        elif make == "dbt_root":
            self.close(ep, off, v, pick(r, ["A source is stale, so the nightly build skipped the marts behind the board — see the freshness run above.",
                                            "Not the dashboard: one of the sources didn't load overnight (freshness output above). Want me to ping the owner?"]),
                       ["Root cause: `{v}` — the marts behind the board were skipped.", "It's this line: {v}"])
        elif make == "docs":
            self.close(ep, off, v, pick(r, ["It's the first hit above, updated recently.", "The official one is at the top of the results.",
                                            "See the first result — that's the current definition."]),
                       ["Official definition: {v}.", "The wiki says: {v}."])
        else:
            self.close(ep, off, v, pick(r, ["that's the figure you wanted, see the table.", "looks right to me — it's in the output above.",
                                            "It's the row for the period you asked; the rest is context.", "See above. " + pick(r, NOTES),
                                            "There it is, above. Want it split by country too?"]),
                       ["{v} — that's the one.", "Found it: {v}.", "The number is {v}."])
        return ep

    def ep_error(self, spec: Spec, size: int) -> Ep:
        r, w = self.rng, self.world
        ep = Ep(self)
        d, v, make = spec.data, spec.value, spec.make
        resolve = d["resolve"]
        core = (8 if make.startswith("dbt") else 6) if resolve else 4
        t = d["t"]
        if make in ("dbt_db", "dbt_fail"):
            model = d["model"]
            ep.user(typo(r, pick(r, OPENERS) + pick(r, [f"rebuild {model} pls", f"can you run the tests on {model}", f"is {model} healthy? run it",
                                                        f"kun je {model} even draaien", f"odpal {model} proszę"]) + pick(r, CLOSERS)))
        elif make == "nb":
            ep.user(typo(r, pick(r, ["plot weekly signups by cohort week in the notebook", "can you do the cohort heatmap in the notebook",
                                     "break down trials by channel and cohort week in pandas", "rerun the retention curves cell"])))
        elif make == "sql":
            ep.user(self.asking())
        else:
            ep.user(typo(r, pick(r, [f"add a {pick(r, METRICS)[0]} tile to the {pick(r, w.boards)} board", "can you fix the filter on the CAC tile",
                                     "update the retention tile to the new column"])))
        self.pad(ep, size - core)
        off = ep.at + 1
        col = d["col"]
        if make == "dbt_db":
            command = pick(r, [f"dbt run -s {d['model']}", f"dbt build -s +{d['model']}"])
            log, _lines = w.dbt_log(self.hint(ep, 0.5), "run", select=d["model"], failures=0, start=t - 80,
                                    inject=[v, d["detail"], f"{clock(t)}      compiled code at target/run/kookbox/{model_path(d['model'])}"])
            ep.call("dbt", {"command": command}, log)
        elif make == "dbt_fail":
            test = d["test"]
            lines = self.dbt_head(t - 9) + [f"{clock(t - 5)}  Concurrency: 8 threads (target='prod')", f"{clock(t - 5)}  ",
                                            f"{clock(t - 4)}  1 of 1 START test {test} ........ [RUN]", v, f"{clock(t)}  ",
                                            f"{clock(t + 1)}  Completed with 1 error, 0 partial successes, and 0 warnings:", f"{clock(t + 1)}  ",
                                            f"{clock(t + 1)}  Failure in test {test} (models/{LAYER[d['model']]}/_{LAYER[d['model']][:3]}__models.yml)",
                                            f"{clock(t + 1)}    Got {d['n']} results, configured to fail if != 0", f"{clock(t + 1)}  ",
                                            f"{clock(t + 1)}    compiled code at target/compiled/kookbox/models/{LAYER[d['model']]}/schema.yml/{test}.sql",
                                            f"{clock(t + 1)}  ", f"{clock(t + 1)}  Done. PASS=0 WARN=0 ERROR=1 SKIP=0 NO-OP=0 TOTAL=1"]
            command = f"dbt test -s {test}"
            ep.call("dbt", {"command": command}, "\n".join(lines))
        elif make == "nb":
            cell = f"df = load('{pick(r, MARTS)}')\nout = df.groupby(['{col}', 'channel'])['subscription_id'].nunique()\nout.unstack().fillna(0)"
            ep.call("notebook", {"cell": cell}, w.traceback(v, col, r.randrange(3, 90)))
        elif make == "sql":
            q, _out = w.sql_result(200)
            ep.call("run_sql", {"sql": q.replace("select\n", f"select\n  {col},\n", 1)}, f"{v}\n\nJob ID: {PROJECT}:EU.bquxjob_{hexid(r, 8)}_{hexid(r, 11)}")
        else:
            body = json.dumps({"message": "Validation Failed", "errors": [{"field": "fields", "code": "invalid", "message": v.split(": ", 1)[1]}],
                               "documentation_url": "https://cloud.google.com/looker/docs/r/err/4.0/422/post/queries"}, indent=2)
            ep.call("dashboard", {"action": "create_tile", "fields": [f"{pick(r, MARTS)}.{col}"]}, f"{v}\n{body}")
        ep.fact(spec, off, None)
        if not resolve:
            ep.answer(pick(r, [f"It fails — the error says `{col}` isn't there. Want me to fix it, or leave it for now?",
                               "That failed; see the error above. I haven't changed anything yet.",
                               "Failed. Looks like a column that was renamed upstream. Should I patch it?",
                               "The run errored (output above). I'll wait for your call before touching the model."]))
            return ep
        if make.startswith("dbt"):
            fixed = w.model_sql(d["model"], self.hint(ep, 0.4))
            path = model_path(d["model"])
            ep.call("write_file", {"path": path, "content": fixed}, f"Wrote {len(fixed.encode()):,} bytes to {path}",
                    note=f"`{col}` doesn't exist upstream; fixing the reference.")
            log, _lines = w.dbt_log(self.hint(ep), "build", failures=0)
            rerun = ep.call("dbt", {"command": json.loads(ep.msgs[off - 1]["tool_calls"][0]["function"]["arguments"])["command"]}, log)
        elif make == "nb":
            rerun = ep.call("notebook", {"cell": "out = df.groupby(['cohort_week', 'channel'])['subscription_id'].nunique()\nout.unstack().fillna(0)"},
                            w.frame(self.hint(ep)), note="Wrong column name; retrying with the right one.")
        elif make == "sql":
            q, out = w.sql_result(self.hint(ep))
            rerun = ep.call("run_sql", {"sql": q}, out, note="Fixing the column and rerunning.")
        else:
            rerun = ep.call("dashboard", {"action": "get_dashboard", "dashboard_id": pick(r, w.dashboards)}, w.dashboard_json(self.hint(ep)),
                            note="Using the field that exists in the explore.")
        ep.facts[-1]["resolved"] = rerun
        ep.answer(pick(r, ["Fixed and rerun — it passes now.", "Works now; the column had been renamed upstream.",
                           "Rerun is green. The earlier failure was a stale column reference.", "All good now, see the second run."]))
        return ep

    ID_ASKS = {"jira": ["can you pick up {v}? it's the churn dip ticket", "{v} is the ticket for the voucher thing, have a look",
                        "new ticket from product: {v} — read it and tell me what they want"],
               "dash": ["look at {LOOKER}/{v} — the net adds tile is blank", "what's on {v}? someone sent me the link",
                        "can you check {LOOKER}/{v}, Tom says it's broken"],
               "exp": ["readout for {v} pls, it ended sunday", "is {v} still running? and is it significant yet",
                       "kun je {v} even uitlezen?"],
               "campaign": ["what's CAC on {v} so far?", "kill-or-keep question for {v}: trials and first boxes pls",
                            "jak idzie {v}? trials + CAC"]}

    def ep_identifier(self, spec: Spec, size: int) -> Ep:
        r, w = self.rng, self.world
        ep = Ep(self)
        v, make = spec.value, spec.make
        if make in self.ID_ASKS:
            ep.user(typo(r, pick(r, OPENERS) + fill(pick(r, self.ID_ASKS[make]), v=v, LOOKER=LOOKER)))
            ep.fact(spec, 0)
            if size >= 4:
                if make == "jira":
                    about = pick(r, ["churn dip in BE after the price change", "vouchers counted twice in int_voucher_redemptions",
                                     "CAC tile ignores influencer fees"])
                    ticket = f"{v}: {about} (status: To Do, reporter {pick(r, PEOPLE)})"
                    ep.call("search_docs", {"query": v}, w.docs_result(self.hint(ep), v, inject=ticket))
                elif make == "dash":
                    ep.call("dashboard", {"action": "get_dashboard", "url": f"{LOOKER}/{v}"}, w.dashboard_json(self.hint(ep), v.split("/")[1]))
                elif make == "exp":
                    ep.call("notebook", {"cell": f"res = readout('{v}', metric='conversion')\nres.summary()"}, w.frame(self.hint(ep)))
                else:
                    q, out = w.sql_result(self.hint(ep))
                    ep.call("run_sql", {"sql": q.replace("\nwhere ", f"\nwhere campaign_id = '{v}'\n  and ", 1)}, out)
            if ep.at == 1:
                ep.answer(pick(r, ["Which period do you want — since launch or the last 4 weeks?",
                                   "On it after the current query. Anything specific you're after?", "Sure, looking at it now."]))
                return ep
            self.pad(ep, size - 1 - ep.at)
            self.close(ep, 0, v, answer_text(r, None, {"jira": "search_docs", "dash": "dashboard", "exp": "notebook"}.get(make, "run_sql")),
                       ["For {v}: see above.", "{v} — numbers above.", "Looked at {v}, output above."])
            return ep
        board = pick(r, w.boards)
        if make == "tile_slug":
            ep.user(typo(r, pick(r, [f"save that query as a tile on the {board} board", f"pin this to {board} pls", f"zet dit als tegel op {board}"])))
        elif make == "new_dash":
            ep.user(typo(r, pick(r, [f"make a new dashboard for the board pack, copy the tiles from {board}", "we need a fresh board-pack dashboard, same tiles as last quarter"])))
        elif make == "doc_exp":
            topic = spec.value.split("_", 2)[2].replace("_", " ")
            spec.query = f"the experiment id of the {topic} test"
            ep.user(typo(r, pick(r, [f"what's the experiment id for the {topic} test? need it for the readout", f"which exp id is the {topic} test again"])))
        else:
            ep.user(typo(r, pick(r, ["is there a ticket for the voucher double-counting already?", "did anyone log the voucher double count bug?"])))
        self.pad(ep, size - 4)
        off = ep.at + 1
        if make == "tile_slug":
            body = json.dumps({"id": str(r.randrange(1000, 99999)), "dashboard": board, "title": pick(r, w.tiles), "query": {"model": "kookbox",
                               "view": pick(r, MARTS), "slug": v, "share_url": f"{LOOKER}/x/{v}"}, "created_by": "analytics-agent"}, indent=2)
            ep.call("dashboard", {"action": "create_tile", "dashboard": board}, body)
        elif make == "new_dash":
            body = json.dumps({"id": v.split("/")[1], "title": f"Board pack {pick(r, MONTH_NAMES)}", "url": f"{LOOKER}/{v}",
                               "folder": {"id": str(r.randrange(10, 300)), "name": "Exec"}, "copied_tiles": r.randrange(6, 20)}, indent=2)
            ep.call("dashboard", {"action": "create_dashboard", "copy_from": board}, body)
        elif make == "doc_exp":
            ep.call("search_docs", {"query": "experiment " + spec.query.split(" of the ")[1]},
                    w.docs_result(self.hint(ep), "experiment id", inject=f"Experiment ID: {v} (owner {pick(r, PEOPLE)}, status: running)"))
        else:
            ep.call("search_docs", {"query": "voucher double counting"},
                    w.docs_result(self.hint(ep), "voucher double counting", inject=f"Ticket: {v} — vouchers counted twice in int_voucher_redemptions (open)"))
        ep.fact(spec, off)
        self.close(ep, off, v, pick(r, ["Done, see the response above.", "There you go — it's in the output.", "Found it, details above."]),
                   ["It's {v}.", "{v} — see above.", "Created: {v}."])
        return ep


def make_session(seed: int, messages: int) -> Session:
    """A session of exactly ``messages`` messages (60 or more) and its planted facts."""
    if messages < SMALLEST:
        raise ValueError(f"an analytics session needs at least {SMALLEST} messages, not {messages}")
    session = Builder(seed, messages).run()
    session.seed = seed
    return session
