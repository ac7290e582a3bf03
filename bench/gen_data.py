"""Data-analysis agent sessions with planted facts: an independent generator for the fidelity bench.

    from gen_data import make_session
    session = make_session(seed=1, messages=400)    # about 150k tokens at 4 chars a token
    session = make_session(seed=1, messages=3000)   # about 1.2M tokens

Written from its own spec, without reading the compactor (``summarizer/``) or the other
generators, so it cannot echo their phrasing. The session is an analyst working with an agent on a
retention report for stakeholders: pandas and SQL exploration (``run_python``, ``run_sql``), dbt
models and notebooks (``read_file``, ``write_file``, ``str_replace``, ``list_dir``), charts
(``plot``), a todo list, R and Julia side scripts (``bash``), and a writing strand where the user
and the agent draft and edit the report. Noise: big dataframe prints, SQL result tables, CSV heads,
tracebacks, pasted e-mail threads, tickets, Slack exports, CI and Airflow logs (recorded in
``Session.pasted``) full of lines that look like rules, errors and numbers but are not the user's.
One kind of paste is the exception: a style guide or data dictionary the user pastes *to be
followed* carries one planted instruction in its middle; it is recorded in ``pasted`` too.

Facts (:class:`sessiongen.Fact`) are said the way people say them: casual asides, a rule in the
second paragraph of a long message, French/German/Spanish, a line in the middle of a pasted style
guide; corrections far from what they correct; errors that are later fixed or not; decisions that
get revised. Every value occurs nowhere before its message (``python bench/gen_data.py`` checks).
"""

from __future__ import annotations

import heapq
import json
import random
import sys
import time
from collections import deque
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from sessiongen import Fact, Session, text_of

KINDS = ("instruction", "correction", "error", "file", "decision", "identifier", "finding", "plan")
BANDS = ((0.02, 0.30), (0.30, 0.60), (0.60, 0.83))
SMALL_LO, SMALL_HI = 1200, 4000  # characters of a "small" tool output
TARGET_CHARS = 1560  # average characters per message the noise steers towards
DEDUP_TRIES = 40  # tries at a fact whose question no earlier fact answers, before repeats are allowed (long sessions)
# instruction queries that are one topic: a session gets one rule per topic, so no rule contradicts another
TOPICS = {
    "How many decimal places do numbers in the report get?": "precision",
    "How are percentages formatted?": "precision",
    "Which revenue column must be used?": "revenue column",
    "Which column do revenue figures come from?": "revenue column",
    "What must appear under each chart?": "chart source",
    "What goes under each chart?": "chart source",
    "What footnote does each chart need?": "chart source",
    "Which date format do tables use?": "dates",
    "How are dates written in running text?": "dates",
    "Which accounts must be excluded from counts?": "exclusions",
    "Which accounts are excluded from account counts?": "exclusions",
}
QUALIFIERS = [
    " for the board pack",
    " in the CS version",
    " for the appendix tables",
    " in the renewal forecast",
    " for the quarter-on-quarter view",
    " in the finance reconciliation",
    " for the exec dashboard",
    " in the segment deep-dive",
    " for the pricing review",
    " in the regional breakdown",
]

# --------------------------------------------------------------------------------------------
# vocabulary
# --------------------------------------------------------------------------------------------

COMPANIES = ["Tallyho", "Brightcart", "Fernwood", "Quillmart", "Orbitly", "Pellucid", "Marlowe", "Kestrel"]
FIRST = [
    "Priya",
    "Marcus",
    "Jordan",
    "Ines",
    "Tomasz",
    "Aiko",
    "Femi",
    "Lena",
    "Rafael",
    "Hannah",
    "Oskar",
    "Mei",
    "Dario",
    "Sunita",
    "Chloe",
    "Bruno",
    "Yusuf",
    "Greta",
    "Nadia",
    "Caleb",
]
LAST = [
    "Raman",
    "Feld",
    "Okafor",
    "Lindqvist",
    "Moreau",
    "Tanaka",
    "Kowalski",
    "Brennan",
    "Alves",
    "Schreiber",
    "Nakamura",
    "Duarte",
    "Haddad",
    "Whitfield",
    "Castellano",
    "Voss",
    "Quinn",
]
ROLES = [
    "Head of Finance",
    "VP Growth",
    "CS lead",
    "Product Manager, Billing",
    "Data Eng lead",
    "CFO",
    "Head of Lifecycle Marketing",
    "RevOps analyst",
    "Director of Customer Success",
]
TIERS = ["basic", "pro", "team", "enterprise"]
COUNTRIES = ["DE", "FR", "NL", "ES", "GB", "US", "PL", "IT", "SE", "AT"]
CHANNELS = ["organic", "paid_search", "partner", "referral", "outbound", "paid_social"]
EVENTS = [
    "login",
    "report_viewed",
    "invoice_paid",
    "seat_added",
    "export_csv",
    "dashboard_shared",
    "integration_connected",
    "plan_changed",
    "support_ticket",
    "api_call",
]
DF_COLS = [
    "account_id",
    "plan_tier",
    "country",
    "channel",
    "signup_week",
    "mrr_eur",
    "seats",
    "sessions_7d",
    "tenure_days",
    "churned",
    "nps",
]
SEGMENTS = ["plan_tier", "country", "channel", "seat_band", "signup_quarter", "industry"]
INDUSTRIES = ["retail", "saas", "agency", "healthcare", "education", "logistics", "fintech", "media"]
HOLIDAYS = ["Easter", "the May bank holidays", "the August lull", "Christmas", "Black Friday week"]
STAGING = ["stg_events", "stg_accounts", "stg_subscriptions", "stg_invoices", "stg_sessions", "stg_plans"]
MARTS = ["fct_subscriptions", "dim_accounts", "fct_mrr_monthly", "fct_daily_actives", "fct_invoices"]


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


class Builder:
    """Builds one session: a schedule of fact events, noise episodes between them, a fill to size."""

    def __init__(self, seed: int, messages: int) -> None:
        self.r = random.Random(seed)
        self.seed = seed
        self.n = messages
        self.msgs: list[dict[str, Any]] = []
        self.facts: list[dict[str, Any]] = []
        self.pasted: list[tuple[int, str]] = []
        self.used: set[str] = set()
        self._segs: list[str] = []
        self._blob_upto = 0
        self._events: list[tuple[int, int, Callable[[], None]]] = []
        self._eseq = 0
        self._pending_facts = 0
        self._used_tpl: dict[str, list[int]] = {}
        self.attempt = 0
        self.queries: set[str] = set()
        self._recent: deque[str] = deque(maxlen=12)
        self.total = 0
        self._plan_cats: list[str] = []
        self._world()

    # ---------------------------------------------------------------- world ----------------
    def _world(self) -> None:
        r = self.r
        self.co = r.choice(COMPANIES)
        self.dom = self.co.lower() + ".io"
        self.gcp = self.co.lower() + "-prod"
        self.me = r.choice(["sam", "alex", "robin", "kim", "noor", "jules", "theo", "mila"])
        people = []
        firsts = r.sample([f for f in FIRST if f != "Jordan"], 6)
        for f, role in zip(firsts, r.sample(ROLES, 6)):
            last = r.choice(LAST)
            people.append((f"{f} {last}", role, f"{f.lower()}.{last.lower()}@{self.dom}"))
        self.people = people
        self.q = r.choice(["Q2", "Q3", "Q4"])
        self.year = r.choice([2023, 2024])
        self.report = f"reports/{self.q.lower()}_retention/draft.md"
        self.outline = f"reports/{self.q.lower()}_retention/outline.md"
        self.existing = (
            [f"models/staging/{m}.sql" for m in STAGING]
            + [f"models/marts/{m}.sql" for m in MARTS]
            + [
                "models/marts/schema.yml",
                "config/metrics.yml",
                "dbt_project.yml",
                "notebooks/01_explore_accounts.ipynb",
                "notebooks/02_mrr_reconciliation.ipynb",
                "src/analytics/io.py",
                "src/analytics/metrics.py",
                self.report,
                self.outline,
            ]
        )
        self.sections = [
            "Executive summary",
            "What we measured",
            "Headline retention",
            "Churn by segment",
            "Revenue retention",
            "What changed this quarter",
            "Caveats",
            "Recommendations",
            "Appendix: definitions",
        ]
        self.cell = r.randint(5, 30)

    # ---------------------------------------------------------------- primitives -----------
    def tok(self, n: int = 4, alphabet: str = "abcdefghjkmnpqrstuvwxyz23456789") -> str:
        return "".join(self.r.choice(alphabet) for _ in range(n))

    def call_id(self) -> str:
        return f"call_{self.r.getrandbits(72):018x}"

    def user(self, content: str, pasted: list[str] | None = None) -> int:
        self.msgs.append({"role": "user", "content": content})
        self.total += len(content)
        idx = len(self.msgs) - 1
        for span in pasted or []:
            assert span in content
            self.pasted.append((idx, span))
        return idx

    def asst(self, content: str | None, calls: list[tuple[str, dict[str, Any]]] | None = None) -> tuple[int, list[str]]:
        m: dict[str, Any] = {"role": "assistant", "content": content}
        ids: list[str] = []
        if calls:
            tcs = []
            for name, args in calls:
                cid = self.call_id()
                ids.append(cid)
                tcs.append(
                    {
                        "id": cid,
                        "type": "function",
                        "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)},
                    }
                )
            m["tool_calls"] = tcs
        self.msgs.append(m)
        self.total += len(text_of(m))
        return len(self.msgs) - 1, ids

    def tool(self, cid: str, content: str, error: bool = False) -> int:
        m: dict[str, Any] = {"role": "tool", "tool_call_id": cid, "content": content}
        if error:
            m["is_error"] = True
        self.msgs.append(m)
        self.total += len(content)
        return len(self.msgs) - 1

    def run(
        self, name: str, args: dict[str, Any], out: str, say: str | None = None, error: bool = False
    ) -> tuple[int, int]:
        """One assistant tool call and its result; returns (assistant index, tool index)."""
        a, ids = self.asst(say, [(name, args)])
        t = self.tool(ids[0], out, error)
        return a, t

    def seen(self, value: str) -> bool:
        """Whether value occurs anywhere in the messages so far (one joined segment per call, never re-copied)."""
        if self._blob_upto < len(self.msgs):
            self._segs.append("\x00".join(text_of(m) for m in self.msgs[self._blob_upto :]))
            self._blob_upto = len(self.msgs)
        return any(value in seg for seg in self._segs)

    def fresh(self, value: str) -> bool:
        return value not in self.used and len(value) >= 4 and not self.seen(value)

    def pick_fresh(
        self,
        gen: Callable[[], Any],
        key: Callable[[Any], str] = lambda x: x,
        query: Callable[[Any], str] | None = None,
        tries: int = 2 * DEDUP_TRIES,
    ) -> Any:
        """A generated item whose value is new; for the first DEDUP_TRIES tries also one whose question is new."""
        for attempt in range(tries):
            self.attempt = attempt
            item = gen()
            if query is not None and attempt < DEDUP_TRIES and TOPICS.get(query(item), query(item)) in self.queries:
                continue  # checked first: it is cheap, the freshness scan is not
            if self.fresh(key(item)):
                return item
        raise RuntimeError("could not find a fresh value")

    def take_template(self, kind: str, count: int) -> int:
        """Cycle through templates of a kind without repeating until all are used."""
        bag = self._used_tpl.setdefault(kind, [])
        if not bag:
            bag.extend(range(count))
            self.r.shuffle(bag)
        return bag.pop()

    def fact(self, kind: str, value: str, index: int, query: str, **extra: Any) -> dict[str, Any]:
        assert value in text_of(self.msgs[index]), (kind, value)
        assert value not in query, (kind, value, query)
        self.used.add(value)
        self.queries.add(TOPICS.get(query, query))
        f = {"kind": kind, "value": value, "index": index, "query": query, **extra}
        self.facts.append(f)
        return f

    def at(self, target: int, fn: Callable[[], None]) -> None:
        self._eseq += 1
        heapq.heappush(self._events, (target, self._eseq, fn))

    # ---------------------------------------------------------------- random data ----------
    def date(self, lo_week: int = 0, hi_week: int = 60) -> str:
        y = self.year
        day = self.r.randint(lo_week * 7, hi_week * 7)
        m_days = [31, 29 if y % 4 == 0 else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        yy, d = y - 1, day
        while True:
            ylen = 366 if yy % 4 == 0 else 365
            if d < ylen:
                break
            d -= ylen
            yy += 1
        m_days = [31, 29 if yy % 4 == 0 else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        mo = 0
        while d >= m_days[mo]:
            d -= m_days[mo]
            mo += 1
        return f"{yy}-{mo + 1:02d}-{d + 1:02d}"

    def week_series(self, n: int) -> list[str]:
        start = self.r.randint(0, 20)
        out = []
        y, doy = self.year - 1, start * 7 + 1
        for i in range(n):
            d = doy + i * 7
            yy = y
            while d > (366 if yy % 4 == 0 else 365):
                d -= 366 if yy % 4 == 0 else 365
                yy += 1
            m_days = [31, 29 if yy % 4 == 0 else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
            mo, dd = 0, d
            while dd > m_days[mo]:
                dd -= m_days[mo]
                mo += 1
            out.append(f"{yy}-{mo + 1:02d}-{dd:02d}")
        return out

    def acct(self) -> str:
        return f"A-{self.r.randint(100000, 999999)}"

    def person(self) -> tuple[str, str, str]:
        return self.r.choice(self.people)

    def df_rows(self, cols: list[str], n: int) -> list[list[str]]:
        r = self.r
        rows = []
        for _ in range(n):
            row = []
            for c in cols:
                if c == "account_id":
                    row.append(self.acct())
                elif c == "plan_tier":
                    row.append(r.choice(TIERS))
                elif c == "country":
                    row.append(r.choice(COUNTRIES))
                elif c == "channel":
                    row.append(r.choice(CHANNELS))
                elif c == "industry":
                    row.append(r.choice(INDUSTRIES))
                elif c in ("signup_week", "week_start", "first_paid_at", "event_date"):
                    row.append(self.date())
                elif c == "mrr_eur":
                    row.append(f"{r.choice([19, 29, 49, 99, 249, 499, 1290]) * r.uniform(0.8, 3.2):.2f}")
                elif c == "seats":
                    row.append(str(r.randint(1, 120)))
                elif c == "sessions_7d":
                    row.append(str(r.randint(0, 60)))
                elif c == "tenure_days":
                    row.append(str(r.randint(1, 1400)))
                elif c == "churned":
                    row.append(r.choice(["False", "False", "False", "True"]))
                elif c == "nps":
                    row.append(r.choice(["NaN", str(r.randint(0, 10)), str(r.randint(5, 10))]))
                elif c == "event_name":
                    row.append(r.choice(EVENTS))
                else:
                    row.append(f"{r.uniform(0, 1000):.3f}")
            rows.append(row)
        return rows

    @staticmethod
    def pandas_table(cols: list[str], rows: list[list[str]], index: list[str] | None = None) -> str:
        index = index if index is not None else [str(i) for i in range(len(rows))]
        iw = max(len(i) for i in index) if index else 1
        widths = [max(len(c), *(len(row[j]) for row in rows)) for j, c in enumerate(cols)]
        lines = [" " * iw + "  " + "  ".join(c.rjust(w) for c, w in zip(cols, widths))]
        for ix, row in zip(index, rows):
            lines.append(ix.ljust(iw) + "  " + "  ".join(v.rjust(w) for v, w in zip(row, widths)))
        return "\n".join(lines)

    @staticmethod
    def psql_table(cols: list[str], rows: list[list[str]]) -> str:
        widths = [max(len(c), *(len(row[j]) for row in rows)) if rows else len(c) for j, c in enumerate(cols)]

        def cell(v: str, w: int) -> str:
            return v.rjust(w) if v.replace(".", "", 1).replace("-", "", 1).isdigit() else v.ljust(w)

        out = [" " + " | ".join(c.center(w) for c, w in zip(cols, widths))]
        out.append("-" + "-+-".join("-" * w for w in widths) + "-")
        for row in rows:
            out.append(" " + " | ".join(cell(v, w) for v, w in zip(row, widths)))
        out.append(f"({len(rows)} row{'s' if len(rows) != 1 else ''})")
        return "\n".join(out)

    @staticmethod
    def box_table(cols: list[str], rows: list[list[str]]) -> str:
        widths = [max(len(c), *(len(row[j]) for row in rows)) for j, c in enumerate(cols)]
        top = "┌" + "┬".join("─" * (w + 2) for w in widths) + "┐"
        mid = "├" + "┼".join("─" * (w + 2) for w in widths) + "┤"
        bot = "└" + "┴".join("─" * (w + 2) for w in widths) + "┘"
        out = [top, "│" + "│".join(f" {c.ljust(w)} " for c, w in zip(cols, widths)) + "│", mid]
        for row in rows:
            out.append("│" + "│".join(f" {v.rjust(w)} " for v, w in zip(row, widths)) + "│")
        out.append(bot)
        out.append(f"  {len(rows)} rows    {len(cols)} columns")
        return "\n".join(out)

    # ---------------------------------------------------------------- prose pools ----------
    def status_paragraph(self) -> str:
        r = self.r
        p = self.person()
        opts = [
            f"Quick update from my side: {p[0]} pinged me again about the {self.q} numbers, they want a first look before the leadership sync. Nothing is final yet, I told them we're still reconciling MRR against the invoices table and that the churn split by segment is the piece that keeps moving.",
            f"I had a look at the chart you made earlier and it reads fine, though the legend overlaps the last two weeks on my laptop screen. Not a big deal for now. The bigger question is whether the drop in week {r.randint(10, 50)} is real or a tracking artefact, since the events pipeline had a hiccup around then.",
            f"So the context for this one: {p[0]} ({p[1]}) is presenting to the board and needs something she can defend. She doesn't care about the method details but she will get asked why the numbers differ from last quarter's deck, which used a different definition of active.",
            f"Spent the morning in meetings so I'm only getting to this now. The CS team thinks the enterprise churn is concentrated in {r.choice(COUNTRIES)} and wants us to check; I'm not convinced, it's about {r.randint(8, 40)} accounts in total so any split will be noisy.",
            f"Background, in case it helps: the billing migration happened in {r.choice(['February', 'March', 'May', 'June', 'September'])}, which is why subscriptions before that point have the legacy plan codes. Most of the weirdness in the early cohorts comes from that, not from actual customer behaviour.",
            f"I talked to the data eng folks and they say the late-arriving events are backfilled nightly, so anything from the last {r.randint(2, 4)} days is incomplete. Worth keeping in mind when we look at the most recent week, it will always look like a dip.",
            "The draft is getting there. I like the structure, but the segment section is doing too much at once; I'd like it to answer one question per paragraph. Let's get the numbers settled first and then I'll do a pass on the wording with you.",
            f"Also, heads up, I'm out {r.choice(['Friday', 'Thursday afternoon', 'Monday morning', 'most of Wednesday'])}, so if something needs a decision from me try to surface it before then. Otherwise just keep going with what we agreed and leave notes in the outline.",
            f"For what it's worth, last quarter we reported {r.randint(85, 97)}.{r.randint(0, 9)}% gross revenue retention and people anchored on that number hard, so if ours comes out very different we need a clear explanation ready before anyone sees it.",
            f"I skimmed the notebook. The cells are in a slightly odd order (the plotting helpers are defined after they're used) which made re-running it from the top fail for me, but it worked once I ran cell {r.randint(3, 20)} first.",
            f"Had a call with {p[0].split()[0]} just now. {r.choice(['She', 'He', 'They'])} mostly wanted to know whether the {r.choice(TIERS)} numbers will move again before the review; I said probably a little, since the dedupe isn't finished. {r.choice(['No pressure from their side really.', 'They were fine with that.', 'They sounded a bit nervous about it.'])}",
            f"Random thought while I was on the train: the accounts that came in through {r.choice(CHANNELS).replace('_', ' ')} during the spring campaign might be skewing the {self.q} cohort. Might be nothing. There were roughly {r.randint(200, 3000):,} of them if I remember the campaign report right.",
            f"The {r.choice(['finance', 'CS', 'product', 'sales ops'])} team shared their own version of the churn number this morning ({r.uniform(1, 9):.1f}%). I don't know how they got it and I'm not going to chase it today, but expect someone to ask why ours is different.",
            f"Small update on the data side: the {r.choice(STAGING)} model was rebuilt overnight after a schema change upstream, {r.choice(['two columns were renamed', 'a timestamp moved to UTC', 'the plan codes were remapped', 'one column got dropped'])}. Our queries seemed to run fine this morning but keep an eye out.",
            f"I re-read the last version of the draft on my phone. The first two sections are fine; the {r.choice(self.sections).lower()} part still feels long and I lose the thread halfway through. We can fix that later.",
            f"Apologies for the slow replies today, {r.choice(['back-to-back interviews', 'a planning offsite', 'a production incident on the billing side', 'quarter-close chaos'])}. I'm catching up on your messages now.",
            f"{p[0].split()[0]} asked if we could share a preliminary number at {r.choice(['Monday', 'Tuesday', 'Wednesday', 'Thursday'])}'s all-hands. I said no, not until it's reconciled; please don't let me cave on that if they ask you directly.",
            f"I looked at last year's report for comparison. It had {r.randint(8, 20)} charts, which was way too many, and nobody read past page four. Let's aim for something people actually finish.",
            f"The warehouse was slow this morning (the nightly job overran by about {r.randint(1, 5)} hours), so if any of your queries timed out that's probably why, not your SQL.",
            f"My gut says the {r.choice(COUNTRIES)} numbers are fine and the issue is in how we handle mid-month upgrades, but I've been wrong about this sort of thing before.",
        ]
        return r.choice(opts)

    def request(self) -> str:
        """A one-off ask, not one of the last dozen asked."""
        for _ in range(8):
            ask = self._request()
            if ask not in self._recent:
                break
        self._recent.append(ask)
        return ask

    def _request(self) -> str:
        r = self.r
        seg = r.choice(SEGMENTS)
        opts = [
            "can you plot weekly actives?",
            f"what's the churn split by {seg} for {self.q}?",
            f"how many accounts signed up through partners in {self.q}?",
            "check whether invoices and subscriptions agree on MRR for last month",
            f"show me the top {r.choice([10, 20, 25, 50])} accounts by expansion revenue",
            "is there any seasonality in signups? eyeball it for me",
            "pull the NPS responses joined to accounts, I want to see if detractors churn more",
            "what does the retention curve look like for the January cohort?",
            f"how many accounts have more than {r.choice([50, 100, 200])} seats?",
            "can you check the distribution of tenure for churned accounts",
            f"compare {r.choice(TIERS)} vs {r.choice(TIERS)} on 90-day retention",
            "what share of MRR comes from annual contracts?",
            "how noisy is the daily actives series? I want to know if weekly is enough",
            "can you get me the net revenue retention by signup quarter",
            f"look at the accounts from {r.choice(COUNTRIES)} that downgraded, anything odd?",
            "quick one: how many distinct accounts fired an event last week",
            "what's the median time from signup to first paid invoice?",
            "draw the MRR bridge for the quarter (new, expansion, contraction, churn)",
            "check if reactivated accounts churn again faster",
            f"make a small table of churn by {seg} and {r.choice(SEGMENTS)} for the appendix",
            "how many accounts upgraded and then downgraded within the same quarter?",
            f"what fraction of churned MRR was on {r.choice(['monthly', 'annual'])} billing?",
            "can you sanity-check the seat counts? some look way too high",
            f"break down new MRR by {r.choice(CHANNELS).replace('_', ' ')} vs everything else",
            "are there accounts with invoices after their subscription ended?",
            "give me a quick histogram of sessions_7d for active accounts",
            f"how does week-{r.choice([4, 8, 12])} retention compare across the last four cohorts?",
            "what's the longest gap between two invoices for the same account?",
            "pull the 20 largest churned accounts with their last plan and MRR",
            f"does {r.choice(INDUSTRIES)} behave differently from the rest on expansion?",
            "check the null rate of country by signup month",
            "how many accounts are on a discount right now, and how big is it on average?",
            "is the NPS response rate different for churned vs retained accounts?",
            "can you redo the MRR bridge but monthly instead of quarterly",
        ]
        return r.choice(opts)

    def short_user(self) -> str:
        return self.r.choice(
            [
                "ok",
                "nice",
                "go on",
                "yep",
                "looks right",
                "hm ok",
                "thanks",
                "cool, next",
                "sure",
                "makes sense",
                "perfect",
                "fine by me",
                "k",
                "let's keep going",
                "good catch",
                "great, thanks!",
                "ok that's weird but fine",
                "yes please",
                "do it",
                "hmm, not sure about that, but let's see",
                "right",
                "👍",
                "ah I see",
                "interesting",
                "can you say that in one sentence?",
                "go ahead",
            ]
        )

    def short_asst(self) -> str:
        r = self.r
        return r.choice(
            [
                "Will do.",
                "Sure — picking that up next.",
                f"Understood. I'll keep the current numbers and revisit after the {r.choice(['reconciliation', 'dedupe', 'FX fix', 'backfill'])}.",
                "Yes: the short version is that churn is flat overall but has shifted towards smaller accounts.",
                "Agreed, it's noisy; I wouldn't read much into single weeks.",
                "OK. Moving on to the next item in the outline.",
                "Noted. I'll leave a TODO in the draft so we don't forget it.",
                "Got it — continuing.",
            ]
        )

    def report_sentence(self) -> str:
        r = self.r
        seg = r.choice(["basic", "pro", "team", "enterprise", "partner-sourced", "self-serve", "annual", "monthly"])
        pct = f"{r.uniform(1, 40):.1f}"
        return r.choice(
            [
                f"Logo churn in {self.q} came in at {pct}%, broadly in line with the previous two quarters.",
                f"The {seg} segment accounts for most of the movement, with churn up {r.uniform(0.2, 4):.1f} points quarter on quarter.",
                f"Net revenue retention held at {r.uniform(92, 118):.1f}%, supported by seat expansion in larger accounts.",
                f"Accounts that connect at least one integration in their first {r.choice([7, 14, 30])} days retain noticeably better.",
                "The dip in active accounts around the holidays is seasonal and recovered within three weeks.",
                f"Roughly {pct}% of churned revenue came from accounts that had downgraded at least once before leaving.",
                "We measure churn at the account level: an account churns when its last paid subscription ends and is not renewed.",
                f"Expansion revenue is concentrated: the top {r.choice([20, 50, 100])} accounts contributed about half of it.",
                "These figures exclude refunds processed after the quarter closed; the effect is small.",
                f"Customers acquired through {r.choice(CHANNELS).replace('_', ' ')} show the weakest early retention of any channel.",
                "Reactivations are counted as retained if the gap is short; longer gaps count as a new subscription.",
                f"Support contact in the first month is associated with {r.choice(['higher', 'lower'])} retention, though the effect is modest.",
                "We cannot yet say whether the pricing change affected churn; the affected cohorts are too young.",
                f"The median {seg} account has {r.randint(2, 40)} seats and has been a customer for {r.randint(6, 40)} months.",
            ]
        )

    def report_paragraph(self, k: int | None = None) -> str:
        return " ".join(self.report_sentence() for _ in range(k or self.r.randint(3, 6)))

    def one_summary(self) -> str:
        r = self.r
        t1, t2 = r.sample(TIERS, 2)
        a, b = r.randint(3000, 40000), r.randint(2, 30)
        return r.choice(
            [
                f"Weekly actives peaked at {a:,} and have drifted down about {b}% since. The dip in week {r.randint(10, 50)} lines up with {r.choice(HOLIDAYS)}, so I'd treat it as seasonal rather than a real drop.",
                f"Churn is {r.uniform(1, 9):.1f}% for {t1} vs {r.uniform(1, 9):.1f}% for {t2}. The gap is mostly in the first 90 days; after that the curves run parallel.",
                f"There are {a:,} rows; {b} accounts appear in subscriptions but not in dim_accounts, almost all created during the billing migration. I left them out of this cut and noted it in the caveats.",
                f"The series is noisy day to day (coefficient of variation ~{r.uniform(0.05, 0.4):.2f}), but weekly aggregation smooths most of it out without hiding the trend.",
                f"Invoices and subscriptions agree to within {r.uniform(0.01, 2):.2f}% on MRR; the difference is {b} accounts with mid-month plan changes that invoices pro-rate and subscriptions don't.",
                f"Detractors churn more, but the sample is small: only {b * 7} of the churned accounts answered the survey at all.",
                f"The top accounts by expansion are mostly {r.choice(INDUSTRIES)} and {r.choice(INDUSTRIES)} customers on team plans that added seats after an onboarding call.",
                f"Median time to first paid invoice is {r.randint(3, 40)} days, with a long right tail from accounts that stay on the free plan for months before converting.",
            ]
        )

    def analysis_summary(self) -> str:
        """What the agent says after looking at a result: a finding or two, sometimes a table or a caveat."""
        r = self.r
        parts = [self.one_summary()]
        if r.random() < 0.45:
            parts.append(self.one_summary())
        if r.random() < 0.35:
            rows = ["| segment | accounts | churn % | MRR (EUR) |", "|---|---:|---:|---:|"]
            for _ in range(r.randint(4, 10)):
                rows.append(
                    f"| {r.choice(TIERS)} · {r.choice(COUNTRIES)} | {r.randint(20, 5000):,} | {r.uniform(0.5, 14):.1f} | {r.uniform(2000, 900000):,.0f} |"
                )
            parts.append("\n".join(rows))
        if r.random() < 0.4:
            parts.append(
                r.choice(
                    [
                        "Caveat: the last week is incomplete because events are backfilled nightly.",
                        "One caveat: accounts created during the billing migration have legacy plan codes, so the tier split is slightly off for them.",
                        f"Caveat: {r.randint(2, 60)} accounts have no country, they're grouped under 'unknown'.",
                        "I haven't reconciled this against finance's numbers yet, so treat it as provisional.",
                        "The differences between segments are within what I'd expect from noise at these sample sizes.",
                    ]
                )
            )
        if r.random() < 0.3:
            parts.append(
                r.choice(
                    [
                        "Want me to add this to the draft?",
                        "Next I'd look at the same split for annual contracts.",
                        "I can turn this into a chart for the segment section if useful.",
                        "Shall I dig into the outliers?",
                    ]
                )
            )
        return "\n\n".join(parts)

    # ---------------------------------------------------------------- tool output noise ----
    def sql_text(self, shape: int | None = None) -> str:
        r = self.r
        shape = r.randrange(4) if shape is None else shape
        src = r.choice(MARTS)
        if shape == 0:
            return r.choice(
                [
                    f"with base as (\n  select account_id, date_trunc('week', event_ts) as week_start, is_new, churned_this_week\n  from analytics.{src}\n  where event_ts >= date '{self.date()}'\n)\nselect week_start,\n       count(distinct account_id) as active_accounts,\n       count(distinct account_id) filter (where is_new) as new_accounts,\n       count(distinct account_id) filter (where churned_this_week) as churned,\n       round(count(distinct account_id) filter (where churned_this_week)::numeric / count(distinct account_id), 4) as churn_rate\nfrom base\ngroup by 1\norder by 1;",
                    f"select week_start, active_accounts, new_accounts, churned, round(churned::numeric / active_accounts, 4) as churn_rate\nfrom analytics.fct_weekly_summary\nwhere week_start >= '{self.date()}'\norder by week_start;",
                ]
            )
        if shape == 1:
            where = r.choice(
                ["", "where not a.is_test\n", "where s.started_at < date_trunc('quarter', current_date)\n"]
            )
            return (
                "select plan_tier, country, channel, count(*) as accounts, sum(mrr_eur) as mrr_eur,\n"
                "       round(100.0 * avg(case when churned then 1 else 0 end), 2) as churn_pct\n"
                "from analytics.dim_accounts a\njoin analytics.fct_subscriptions s using (account_id)\n"
                + where
                + "group by 1, 2, 3\norder by 5 desc;"
            )
        if shape == 2:
            return (
                f"select cohort_month, months_since_start, retained_accounts, cohort_size,\n"
                f"       round(retained_accounts::numeric / cohort_size, 4) as retention\nfrom analytics.cohort_retention\n"
                f"where cohort_month between '{self.date()}' and '{self.date()}'\norder by 1, 2;"
            )
        return (
            f"select account_id, plan_tier, mrr_start_eur, mrr_end_eur, mrr_end_eur - mrr_start_eur as delta\n"
            f"from analytics.fct_mrr_monthly\nwhere month = date_trunc('month', current_date - interval '1 month')\n"
            f"order by delta {r.choice(['desc', 'asc'])}\nlimit {r.choice([100, 200, 500])};"
        )

    def sql_cell(self, lo: int = 3000, hi: int = 12000) -> tuple[str, str]:
        """A query and a result that fits it."""
        shape = self.r.randrange(4)
        return self.sql_text(shape), self.sql_result(lo, hi, shape)

    def sql_result(self, lo: int = 3000, hi: int = 12000, shape: int | None = None) -> str:
        """A query result of roughly lo..hi characters."""
        r = self.r
        shape = r.randrange(4) if shape is None else shape
        if lo == 3000 and self.deficit() > 0:
            lo = 5500  # the session runs light: draw from the upper part of the range
        target = r.uniform(lo, hi)
        n = max(3, int(target / (58, 70, 80, 66)[shape]))
        if shape == 0:
            weeks = self.week_series(n)
            rows = []
            base = r.randint(4000, 30000)
            for w in weeks:
                a = base + r.randint(-2000, 2000)
                c = r.randint(40, 600)
                rows.append([w, str(a), str(r.randint(100, 900)), str(c), f"{c / a:.4f}"])
            return self.psql_table(["week_start", "active_accounts", "new_accounts", "churned", "churn_rate"], rows)
        if shape == 1:
            rows = []
            for _ in range(n):
                rows.append(
                    [
                        r.choice(TIERS),
                        r.choice(COUNTRIES),
                        r.choice(CHANNELS),
                        str(r.randint(10, 5000)),
                        f"{r.uniform(1000, 900000):.2f}",
                        f"{r.uniform(0.5, 15):.2f}",
                    ]
                )
            return self.psql_table(["plan_tier", "country", "channel", "accounts", "mrr_eur", "churn_pct"], rows)
        if shape == 2:
            rows = []
            for _ in range(n):
                size = r.randint(200, 3000)
                m = r.randint(0, 12)
                ret = int(size * max(0.2, 1 - m * r.uniform(0.02, 0.07)))
                rows.append([self.date()[:8] + "01", str(m), str(ret), str(size), f"{ret / size:.4f}"])
            return self.box_table(
                ["cohort_month", "months_since_start", "retained_accounts", "cohort_size", "retention"], rows
            )
        rows = []
        for _ in range(n):
            s = r.uniform(100, 9000)
            e = s * r.uniform(0.4, 2.5)
            rows.append([self.acct(), r.choice(TIERS), f"{s:.2f}", f"{e:.2f}", f"{e - s:.2f}"])
        return self.psql_table(["account_id", "plan_tier", "mrr_start_eur", "mrr_end_eur", "delta"], rows)

    def py_code(self, kind: int | None = None) -> str:
        r = self.r
        kind = r.choice([0, 0, 1, 2, 2, 3, 4]) if kind is None else kind
        return r.choice(
            {
                0: [
                    "import pandas as pd\naccounts = pd.read_parquet('data/interim/accounts.parquet')\naccounts.head(120)",
                    "subs = load_table('fct_subscriptions')\nsubs.sample(150, random_state=7)",
                    "df[df.churned].sort_values('tenure_days').head(150)",
                    "df.query('mrr_eur > 500').head(200)",
                    "pd.set_option('display.max_rows', 300)\ndf[df.plan_tier == 'enterprise']",
                ],
                1: [
                    "df = accounts.merge(subs, on='account_id', how='left')\nprint(df.describe().T)\ndf.groupby(['plan_tier', 'country', 'channel'])['mrr_eur'].agg(['count', 'median', 'mean', 'sum']).round(2)"
                ],
                2: [
                    "df.groupby(['plan_tier', 'country', 'channel'])['mrr_eur'].agg(['count', 'median', 'mean', 'sum']).round(2)",
                    "(df.groupby(['plan_tier', 'country', 'channel'], observed=False)['mrr_eur']\n   .agg(['count', 'median', 'mean', 'sum']).round(2))",
                ],
                3: ["df.info()\ndf.sample(40, random_state=1)"],
                4: [
                    "events = pd.read_parquet('data/raw/events_sample.parquet')\nevents['event_key'].value_counts()",
                    "events.event_key.value_counts(dropna=False)",
                ],
            }[kind]
        )

    def py_cell(self, lo: int = 3000, hi: int = 12000) -> tuple[str, str]:
        """Notebook code and an output that fits it."""
        kind = self.r.choice([0, 0, 1, 2, 2, 3, 4])
        return self.py_code(kind), self.py_output(lo, hi, kind)

    def py_output(self, lo: int = 3000, hi: int = 12000, kind: int | None = None) -> str:
        """A notebook cell's output of roughly lo..hi characters."""
        r = self.r
        kind = r.choice([0, 0, 1, 2, 2, 3, 4]) if kind is None else kind
        if lo == 3000 and self.deficit() > 0:
            lo = 5500  # the session runs light: draw from the upper part of the range
        target = r.uniform(lo, hi)
        if kind == 1:
            num = ["mrr_eur", "seats", "sessions_7d", "tenure_days", "nps", "discount_pct"]
            drows = []
            for _ in num:
                mean = r.uniform(1, 900)
                drows.append(
                    [
                        f"{r.randint(10000, 400000):.1f}",
                        f"{mean:.6f}",
                        f"{mean * r.uniform(0.3, 2):.6f}",
                        "0.000000",
                        f"{mean * 0.4:.6f}",
                        f"{mean * 0.8:.6f}",
                        f"{mean * 1.5:.6f}",
                        f"{mean * r.uniform(5, 40):.6f}",
                    ]
                )
            head = self.pandas_table(["count", "mean", "std", "min", "25%", "50%", "75%", "max"], drows, num)
            return (
                head
                + "\n"
                + self.py_output(max(600, int(target) - len(head)), max(700, int(target) - len(head) + 100), 2)
            )
        if kind == 0:
            cols = r.sample(DF_COLS, r.randint(6, 9))
            if "account_id" not in cols:
                cols.insert(0, "account_id")
            probe = self.df_rows(cols, 1)[0]
            n = max(3, int(target / (sum(max(len(v), len(c)) + 2 for v, c in zip(probe, cols)) + 8)))
            rows = self.df_rows(cols, n)
            txt = self.pandas_table(cols, rows)
            if r.random() < 0.5:
                txt += f"\n\n[{r.randint(20000, 400000)} rows x {len(cols)} columns]"
            if r.random() < 0.3:
                txt = (
                    "/tmp/ipykernel_4711/3318093622.py:2: SettingWithCopyWarning: \nA value is trying to be set on a copy of a slice from a DataFrame.\n"
                    "Try using .loc[row_indexer,col_indexer] = value instead\n\n" + txt
                )
            return txt
        if kind == 2:
            idx, rows = [], []
            for _ in range(max(3, int(target / 72))):
                idx.append(f"{r.choice(TIERS)} {r.choice(COUNTRIES)} {r.choice(CHANNELS)}")
                med = r.uniform(20, 900)
                cnt = r.randint(10, 4000)
                rows.append([str(cnt), f"{med:.2f}", f"{med * r.uniform(1, 1.8):.2f}", f"{med * cnt:.2f}"])
            txt = self.pandas_table(["count", "median", "mean", "sum"], rows, idx)
            if r.random() < 0.4:
                txt = (
                    "/tmp/ipykernel_4711/201877.py:1: FutureWarning: The default of observed=False is deprecated and will be "
                    "changed to True in a future version of pandas. Pass observed=False to retain current behavior or "
                    "observed=True to adopt the future default and silence this warning.\n" + txt
                )
            return txt
        if kind == 3:
            total = r.randint(10000, 900000)
            lines = [
                "<class 'pandas.core.frame.DataFrame'>",
                f"RangeIndex: {total} entries",
                f"Data columns (total {len(DF_COLS) + 6} columns):",
                " #   Column            Non-Null Count   Dtype  ",
                "---  ------            --------------   -----  ",
            ]
            dtypes = {
                "mrr_eur": "float64",
                "nps": "float64",
                "discount_pct": "float64",
                "seats": "int64",
                "sessions_7d": "int64",
                "tenure_days": "int64",
                "churned": "bool",
                "signup_week": "datetime64[ns]",
                "first_paid_at": "datetime64[ns]",
                "last_seen_at": "datetime64[ns]",
            }
            for i, c in enumerate(
                DF_COLS + ["first_paid_at", "last_seen_at", "billing_cycle", "discount_pct", "industry", "owner_id"]
            ):
                nn = total if c in ("account_id", "plan_tier", "signup_week") else r.randint(total // 2, total)
                lines.append(f" {i:<3} {c:<17} {nn} non-null   {dtypes.get(c, 'object')}")
            lines.append("dtypes: bool(1), datetime64[ns](3), float64(4), int64(3), object(6)")
            lines.append(f"memory usage: {r.uniform(20, 900):.1f}+ MB")
            head = "\n".join(lines)
            cols = r.sample(DF_COLS, 7)
            rows = self.df_rows(cols, max(3, int((target - len(head)) / 80)))
            return head + "\n\n" + self.pandas_table(cols, rows)
        rows = []
        idx = []
        for e in r.sample(EVENTS, len(EVENTS)):
            idx.append(e)
            rows.append([str(r.randint(1000, 900000))])
        for _ in range(max(3, int(target / 52))):
            idx.append(
                f"{r.choice(EVENTS)}_{r.choice(['v2', 'legacy', 'mobile', 'web', 'api'])}_{r.choice(['ios', 'android', 'desktop', 'server'])}"
            )
            rows.append([str(r.randint(1, 5000))])
        return "event_key\n" + self.pandas_table(["count"], rows, idx) + "\nName: count, dtype: int64"

    def csv_head(self, n: int) -> str:
        cols = ["account_id", "plan_tier", "country", "signup_week", "mrr_eur", "seats", "churned"]
        rows = self.df_rows(cols, n)
        return ",".join(cols) + "\n" + "\n".join(",".join(row) for row in rows)

    def sql_model(self, name: str) -> str:
        r = self.r
        src = r.choice(STAGING)
        src2 = r.choice(STAGING)
        return (
            "{{ config(materialized='table') }}\n\n"
            f"with source as (\n    select * from {{{{ ref('{src}') }}}}\n),\n\n"
            f"joined as (\n    select\n        s.account_id,\n        s.plan_tier,\n        s.started_at,\n        s.ended_at,\n"
            f"        a.country,\n        a.channel,\n        coalesce(s.mrr_eur, 0) as mrr_eur\n    from source s\n"
            f"    left join {{{{ ref('{src2}') }}}} a using (account_id)\n    where not a.is_test\n),\n\n"
            f"final as (\n    select\n        *,\n        ended_at is not null and ended_at < current_date as is_churned,\n"
            f"        datediff('day', started_at, coalesce(ended_at, current_date)) as tenure_days\n    from joined\n)\n\n"
            "select * from final\n" + "".join(f"-- {self.report_sentence()}\n" for _ in range(r.randint(0, 3)))
        )

    def file_body(self, path: str) -> str:
        r = self.r
        if path.endswith(".sql"):
            return self.sql_model(path)
        if path.endswith(".md"):
            parts = [
                f"# {self.q} {self.year} retention report (draft)\n",
                f"_Owner: {self.me} · status: draft · do not circulate_\n",
            ]
            for s in self.sections[: r.randint(5, len(self.sections))]:
                parts.append(
                    f"## {s}\n\n" + "\n\n".join(self.report_paragraph() for _ in range(r.randint(1, 3))) + "\n"
                )
                if r.random() < 0.3:
                    parts.append(self.md_table() + "\n")
                if r.random() < 0.4:
                    parts.append(
                        f"<!-- TODO: {self.r.choice(['check with finance', 'add chart', 'numbers pending', 'shorten'])} -->\n"
                    )
            return "\n".join(parts)
        if path.endswith(".yml") or path.endswith(".yaml"):
            lines = ["version: 2", "", "models:"]
            for m in r.sample(MARTS, 3):
                lines += [f"  - name: {m}", "    description: >", f"      {self.report_sentence()}", "    columns:"]
                for c in r.sample(DF_COLS, 4):
                    lines += [f"      - name: {c}", "        tests:", "          - not_null"]
            return "\n".join(lines)
        if path.endswith(".ipynb"):
            cells: list[dict[str, Any]] = []
            for i in range(r.randint(4, 8)):
                outs = []
                if r.random() < 0.5:
                    outs = [
                        {
                            "name": "stdout",
                            "output_type": "stream",
                            "text": self.py_output(600, 2200).splitlines(keepends=True),
                        }
                    ]
                cells.append(
                    {
                        "cell_type": "code",
                        "execution_count": i + 1 if outs else None,
                        "metadata": {},
                        "outputs": outs,
                        "source": self.py_code().splitlines(keepends=True),
                    }
                )
            return json.dumps(
                {
                    "cells": cells,
                    "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3"}},
                    "nbformat": 4,
                    "nbformat_minor": 5,
                },
                indent=1,
            )
        if path.endswith(".py"):
            return (
                "import pandas as pd\n\nfrom analytics.io import load_table\n\n\n"
                "def churn_rate(df: pd.DataFrame, by: list[str]) -> pd.DataFrame:\n"
                "    g = df.groupby(by, observed=True)\n"
                "    out = g['churned'].agg(['sum', 'count'])\n"
                "    out['churn_rate'] = out['sum'] / out['count']\n"
                "    return out.reset_index()\n\n\n"
                "def weekly_actives(events: pd.DataFrame) -> pd.Series:\n"
                "    wk = events['event_ts'].dt.to_period('W-SUN').dt.start_time\n"
                "    return events.assign(week_start=wk).groupby('week_start')['account_id'].nunique()\n"
            )
        return "\n".join(self.report_sentence() for _ in range(6))

    def tree(self) -> str:
        r = self.r
        lines = []
        for p in r.sample(self.existing, r.randint(6, len(self.existing))):
            lines.append(f"{r.randint(300, 40000):>7}  {p}")
        return "\n".join(sorted(lines, key=lambda s: s.split()[-1]))

    # ---------------------------------------------------------------- pasted noise ---------
    def email_thread(self) -> str:
        r = self.r
        a, b = r.sample(self.people, 2)
        n1, n2 = r.randint(1000, 9999), r.uniform(80, 120)
        body = [
            f"From: {a[0]} <{a[2]}>",
            f"To: {b[0]} <{b[2]}>; analytics@{self.dom}",
            f"Subject: RE: {self.q} retention numbers for the board pack",
            "",
            f"Hi {b[0].split()[0]},",
            "",
            f"Thanks, this is helpful. Two things before Thursday: can we get the churn number by plan tier, and can someone confirm the {n1:,} active accounts figure matches what Sales has in their deck? They're quoting {n1 + r.randint(50, 800):,}.",
            "",
            "Please do not share externally until the board has seen it.",
            "",
            f"Best,\n{a[0].split()[0]}",
            "",
            f"> On {self.date()}, {b[0]} wrote:",
            f"> Attached the draft numbers. NRR is {n2:.1f}% which is down slightly from last quarter.",
            "> Please make sure everything is rounded to whole numbers before it goes into slides.",
            "> All figures must be signed off by Finance before publishing.",
            ">",
            f">> On {self.date()}, {a[0]} wrote:",
            ">> Can you send over what you have so far, even if rough? I'd rather see it early.",
            ">> Also — always copy legal on anything with customer names in it.",
            ">>",
            f">> {a[0]} | {a[1]} | {self.co}",
        ]
        for _ in range(r.randint(0, 6)):
            body.insert(
                7,
                r.choice(
                    [
                        f"FWIW the CS team counted {r.randint(20, 300)} churned accounts in their tracker, not sure how they define it.",
                        "Let's not include the pilot accounts, they were never billed.",
                        f"I'm also seeing a spike in downgrades in {r.choice(COUNTRIES)}, is that real?",
                        "Confidential — internal use only.",
                        f"Reminder: the numbers in the last deck used {r.choice(['a 30-day', 'a 60-day', 'a calendar-month'])} definition of active.",
                    ]
                )
                + "\n",
            )
        return "\n".join(body)

    def ticket(self) -> str:
        r = self.r
        key = f"{r.choice(['BI', 'REVOPS', 'CS', 'FIN'])}-{r.randint(100, 9999)}"
        p = self.person()
        return "\n".join(
            [
                f"[{key}] {r.choice(['Retention numbers for board pack', 'Churn by segment for CS review', 'MRR reconciliation mismatch', 'Add NRR to the exec dashboard'])}",
                f"Reporter: {p[0]}   Assignee: {self.me}   Priority: {r.choice(['P2', 'P3', 'High', 'Medium'])}   Status: In Progress",
                "",
                "Description",
                self.report_paragraph(3),
                "",
                "Acceptance criteria",
                "- numbers reconciled with finance within 0.5%",
                "- Must use the official definition of churn from the metrics glossary",
                f"- delivered before {r.choice(['the QBR', 'month end', 'the board meeting', 'the CS offsite'])}",
                "- Do NOT include individual customer names in the deck",
                "",
                f"Comments ({r.randint(2, 9)})",
                f"  {p[0]}: any update on this? ",
                f"  {r.choice(self.people)[0]}: blocked on the billing export, ETA tomorrow",
            ]
        )

    def slack_export(self) -> str:
        r = self.r
        lines = []
        for _ in range(r.randint(6, 20)):
            p = self.person()
            t = f"{r.randint(8, 18):02d}:{r.randint(0, 59):02d}"
            lines.append(f"{p[0].split()[0]}  {t}")
            lines.append(
                "  "
                + r.choice(
                    [
                        "does anyone know why the events table has duplicates for the 14th?",
                        "pls never run full-table scans on events during business hours",
                        f"numbers look off for {r.choice(COUNTRIES)}, can someone double-check",
                        "the dbt job failed again last night, rerunning",
                        "FYI: we're deprecating the legacy_plans table end of month",
                        f"active accounts this week: {r.randint(5000, 40000):,}",
                        "use the _v2 tables from now on",
                        "👀",
                        "I'll look after lunch",
                        "can we stop calling them 'users' in decks, they're accounts",
                        f"the finance close is on the {r.randint(3, 9)}th business day",
                    ]
                )
            )
        return "\n".join(lines)

    def ci_log(self) -> str:
        r = self.r
        n = r.choice([1188, 412, 2290, 640, 73])
        lines = [
            f"Run #{r.randint(1000, 9999)} — analytics-ci / test (push)",
            "============================= test session starts ==============================",
            "platform linux -- Python 3.11.7, pytest-8.1.1, pluggy-1.4.0",
            "rootdir: /home/runner/work/analytics/analytics",
            "plugins: xdist-3.5.0, cov-4.1.0",
            f"collected {n} items",
            "",
        ]
        for mod in ["tests/test_io.py", "tests/test_metrics.py", "tests/test_cohorts.py", "tests/test_fx.py"]:
            lines.append(f"{mod} " + "." * r.randint(20, 70) + f"  [{r.randint(5, 99):>3}%]")
        lines += [
            "",
            "---------- coverage: platform linux, python 3.11.7-final-0 -----------",
            f"TOTAL                                    {r.randint(800, 3000)}    {r.randint(40, 300)}    {r.randint(70, 96)}%",
            "",
            "WARNING: do not merge to main without a green dbt build",
            f"============================= {n} passed in {r.uniform(10, 300):.2f}s =============================",
        ]
        return "\n".join(lines)

    def dbt_log(self) -> str:
        r = self.r
        lines = [
            f"{r.randint(10, 23):02d}:{r.randint(10, 59):02d}:0{r.randint(0, 9)}  Running with dbt=1.7.{r.randint(0, 9)}",
            f"Found {r.randint(40, 200)} models, {r.randint(100, 600)} tests, 0 snapshots, 0 analyses, 512 macros",
        ]
        for i, m in enumerate(STAGING + MARTS, 1):
            lines.append(
                f"  {i} of {len(STAGING + MARTS)} OK created sql table model analytics.{m} .......... [SELECT {r.randint(1000, 900000)} in {r.uniform(0.5, 40):.2f}s]"
            )
        lines.append(
            f"Completed successfully\nDone. PASS={len(STAGING + MARTS)} WARN={r.randint(0, 3)} ERROR=0 SKIP=0 TOTAL={len(STAGING + MARTS)}"
        )
        return "\n".join(lines)

    def airflow_log(self) -> str:
        r = self.r
        dag = r.choice(["crm_sync_daily", "billing_ingest", "marketing_attribution", "support_tickets_load"])
        ts = f"{self.date()}T0{r.randint(1, 5)}:{r.randint(10, 59)}:{r.randint(10, 59)}"
        lines = [
            f"[{ts}.{r.randint(100, 999)}+0000] {{taskinstance.py:1157}} INFO - Dependencies all met for <TaskInstance: {dag}.load scheduled__{ts}+00:00 [queued]>",
            f"[{ts}.{r.randint(100, 999)}+0000] {{taskinstance.py:1359}} INFO - Starting attempt {r.randint(1, 3)} of 3",
        ]
        for _ in range(r.randint(4, 14)):
            lines.append(
                f"[{ts}.{r.randint(100, 999)}+0000] {{logging_mixin.py:137}} INFO - fetched page {r.randint(1, 400)} ({r.randint(100, 5000)} records)"
            )
        col = r.choice(["region", "owner_email", "crm_stage", "ticket_prio"])
        lines += [
            f"[{ts}.{r.randint(100, 999)}+0000] {{taskinstance.py:1851}} ERROR - Task failed with exception",
            "Traceback (most recent call last):",
            f'  File "/opt/airflow/dags/{dag}.py", line {r.randint(40, 200)}, in transform',
            f"    df['{col}'] = df['{col}'].str.lower()",
            f"KeyError: '{col}'",
            f"[{ts}.{r.randint(100, 999)}+0000] {{taskinstance.py:1401}} INFO - Marking task as UP_FOR_RETRY. dag_id={dag}, task_id=load",
            "[NOTE] Do not re-trigger manually; the on-call owns retries.",
        ]
        return "\n".join(lines)

    def md_table(self) -> str:
        r = self.r
        rows = ["| segment | accounts | churn % | NRR % |", "|---|---:|---:|---:|"]
        for t in TIERS:
            for c in r.sample(COUNTRIES, r.randint(2, 5)):
                rows.append(
                    f"| {t} / {c} | {r.randint(20, 4000)} | {r.uniform(0.5, 12):.1f} | {r.uniform(80, 125):.1f} |"
                )
        return "\n".join(rows)

    def json_blob(self) -> str:
        r = self.r
        obj = {
            "dashboard": {
                "title": f"{self.q} Retention",
                "owner": self.person()[2],
                "refresh": "daily",
                "tiles": [
                    {
                        "title": t,
                        "query_id": r.randint(1000, 99999),
                        "viz": r.choice(["line", "bar", "table"]),
                        "filters": {"plan_tier": r.sample(TIERS, 2)},
                    }
                    for t in ["Weekly actives", "Churn by tier", "NRR", "MRR bridge", "Cohort heatmap"][
                        : r.randint(3, 5)
                    ]
                ],
            },
            "_comment": "do not edit by hand — generated by the export script",
        }
        return json.dumps(obj, indent=2)

    def readme_excerpt(self) -> str:
        return "\n".join(
            [
                "## Working in this repo",
                "",
                "- ALWAYS run `make lint` before pushing.",
                "- Never commit credentials or `.env` files.",
                "- Staging models are views; marts are tables. Don't change materializations without asking data eng.",
                "- Use `dbt build --select state:modified+` in CI.",
                "- Notebooks under `notebooks/scratch/` are not reviewed and may be deleted at any time.",
                "",
                "### Environments",
                f"- dev: `{self.gcp}-dev`, prod: `{self.gcp}` (read-only for analysts)",
            ]
        )

    def paste_noise(self) -> tuple[str, str]:
        """(user message, pasted span)"""
        r = self.r
        k = r.randrange(9)
        if k == 0:
            span = self.email_thread()
            intro = r.choice(
                [
                    "fyi, this came in from finance:",
                    "see below, can you help me answer this?",
                    "forwarding this, mostly so you have context",
                    "ugh. read this:",
                ]
            )
        elif k == 1:
            span = self.ticket()
            intro = r.choice(
                [
                    "here's the ticket for context",
                    "pasting the ticket so you know what's being asked",
                    "this is what we're working against:",
                ]
            )
        elif k == 2:
            span = self.slack_export()
            intro = r.choice(
                [
                    "some chatter from #data-help, for context",
                    "copying the slack thread here",
                    "this was in the analytics channel this morning:",
                ]
            )
        elif k == 3:
            span = self.ci_log()
            intro = r.choice(
                ["CI output from my branch, looks green but double check?", "pasting the test run", "here's the CI log"]
            )
        elif k == 4:
            span = self.csv_head(r.randint(20, 80))
            intro = r.choice(
                [
                    "this is what the finance export looks like:",
                    "here's a sample from the spreadsheet they sent",
                    "pasted from the google sheet:",
                ]
            )
        elif k == 5:
            span = self.md_table()
            intro = r.choice(["this is the table from last quarter's deck:", "old numbers for comparison:"])
        elif k == 6:
            span = self.json_blob()
            intro = r.choice(["the dashboard config export, in case it matters:", "this is the tile config:"])
        elif k == 7:
            span = self.dbt_log() if r.random() < 0.5 else self.readme_excerpt()
            intro = r.choice(["from the repo/docs, fyi:", "pasting this so you know how things are set up:"])
        else:
            span = self.airflow_log()
            intro = r.choice(
                [
                    "the data eng on-call pasted this in #data-incidents, is it anything to do with us?",
                    "saw this failing overnight (not our DAG I think):",
                    "this is from the nightly run, fyi",
                ]
            )
        outro = r.choice(
            ["", "", "\n\nthoughts?", "\n\nno action needed, just context", "\n\ndoes this change anything for us?"]
        )
        return f"{intro}\n\n{span}{outro}", span

    # ---------------------------------------------------------------- noise episodes -------
    def ep_chat(self) -> None:
        self.user(self.short_user())
        self.asst(self.short_asst() if self.r.random() < 0.6 else self.analysis_summary())

    def do_sql(self, ack: str | None = None, small: bool = False) -> None:
        r = self.r
        say = r.choice([None, "Let me query that.", "Running it against the warehouse.", None])
        query, out = self.sql_cell(SMALL_LO, SMALL_HI) if small else self.sql_cell()
        self.run("run_sql", {"query": query}, out, say)
        self.asst(((ack + "\n\n") if ack else "") + self.analysis_summary())

    def do_python(self, ack: str | None = None, small: bool = False) -> None:
        r = self.r
        code, out = self.py_cell(SMALL_LO, SMALL_HI) if small else self.py_cell()
        self.run("run_python", {"code": code}, out, r.choice([None, "Checking in pandas."]))
        if r.random() < 0.5 and not small:
            code, out = self.py_cell()
            self.run("run_python", {"code": code}, out)
        self.asst(((ack + "\n\n") if ack else "") + self.analysis_summary())

    def do_plot(self, ack: str | None = None) -> None:
        r = self.r
        name = r.choice(["weekly_actives", "churn_by_tier", "nrr_trend", "mrr_bridge", "cohort_heatmap", "tenure_hist"])
        if r.random() < 0.5:
            args = {
                "code": f"fig, ax = plt.subplots(figsize=(10, 5))\nwk.plot(ax=ax)\nax.set_title('{name.replace('_', ' ').title()}')\nfig.savefig('figures/{name}.png', dpi=150)"
            }
            self.run("run_python", args, f"<Figure size 1000x500 with 1 Axes>\nsaved figures/{name}.png")
        else:
            args = {
                "kind": r.choice(["line", "bar", "heatmap"]),
                "data": f"analytics.{r.choice(MARTS)}",
                "x": "week_start",
                "y": r.choice(["active_accounts", "churn_rate", "mrr_eur"]),
                "out": f"figures/{name}.png",
            }
            self.run(
                "plot", args, json.dumps({"ok": True, "path": f"figures/{name}.png", "width": 1200, "height": 700})
            )
        self.asst(((ack + "\n\n") if ack else "") + f"Chart saved to figures/{name}.png. " + self.analysis_summary())

    def do_read(self, ack: str | None = None) -> None:
        path = self.r.choice(self.existing)
        if self.r.random() < 0.35:
            folder = path.rsplit("/", 1)[0] if "/" in path else "."
            self.run(
                "list_dir",
                {"path": folder, "recursive": self.r.random() < 0.5},
                self.tree(),
                "Let me see what's there first.",
            )
        self.run("read_file", {"path": path}, self.file_body(path))
        self.asst(
            ((ack + "\n\n") if ack else "")
            + self.r.choice(
                [
                    f"{path} looks consistent with what we discussed; nothing to change there.",
                    f"In {path} the join to accounts is a left join, so test accounts only drop out via the is_test filter.",
                    f"I read through {path}. " + self.analysis_summary(),
                ]
            )
        )

    def do_write_draft(self, ack: str | None = None) -> None:
        r = self.r
        sec = r.choice(self.sections)
        old = self.report_sentence()
        new = self.report_sentence()
        if r.random() < 0.5:
            self.run(
                "str_replace",
                {"path": self.report, "old_str": old, "new_str": new},
                f"Edited {self.report}: 1 replacement",
            )
        else:
            self.run(
                "write_file",
                {"path": self.report, "content": self.file_body(self.report)},
                f"Wrote {r.randint(3000, 12000)} bytes to {self.report}",
            )
        self.asst(
            ((ack + "\n\n") if ack else "")
            + f"Updated the '{sec}' section. New text:\n\n> {self.report_paragraph(r.randint(2, 4))}"
        )

    def do_any(self, ack: str | None = None) -> None:
        r = self.r.random()
        if r < 0.32:
            self.do_sql(ack)
        elif r < 0.6:
            self.do_python(ack)
        elif r < 0.72:
            self.do_plot(ack)
        elif r < 0.85:
            self.do_read(ack)
        else:
            self.do_write_draft(ack)

    def deficit(self) -> int:
        """How many characters the session is short of TARGET_CHARS per message (negative: over)."""
        return TARGET_CHARS * len(self.msgs) - self.total

    def reply(self, acks: list[str]) -> None:
        """Acknowledge, and often carry on with the work in hand (a tool round and a summary)."""
        ack = self.r.choice(acks)
        if self.r.random() < (0.8 if self.deficit() > 0 else 0.4):
            self.do_any(
                ack=ack
                + self.r.choice(["", " Meanwhile, back to the current item:", " Carrying on with what we had open."])
            )
        else:
            self.asst(ack)

    def ep_request(self) -> None:
        self.user(self.request())
        self.do_any()

    def ep_paste(self) -> None:
        msg, span = self.paste_noise()
        self.user(msg, [span])
        if self.r.random() < 0.5:
            self.asst(
                self.r.choice(
                    [
                        "Thanks for the context. Nothing in there changes the current plan; the asks in the thread are for the deck owner, not for us.",
                        "Noted. The figures quoted there use a different definition from ours, so I wouldn't expect them to match exactly.",
                        "Got it. I'll keep that in mind but I won't act on the requests in there unless you want me to.",
                        "Seen. The log looks healthy — nothing failing.",
                    ]
                )
            )
        else:
            self.do_sql(small=True) if self.r.random() < 0.5 else self.do_python(small=True)

    def ep_writing(self) -> None:
        r = self.r
        sec = r.choice(self.sections)
        ask = r.choice(
            [
                f"can you draft the '{sec}' section? keep it tight",
                f"rewrite the {sec.lower()} paragraph, it's clunky",
                f"the second sentence in '{sec}' says too much, cut it down",
                f"make the {sec.lower()} punchier, it reads like a methods section",
                f"swap the order of the paragraphs in '{sec}'",
                f"I don't like 'headwinds' in the {sec.lower()}, say what actually happened",
            ]
        )
        self.user(ask)
        if r.random() < 0.5:
            self.asst(f"Draft for '{sec}':\n\n{self.report_paragraph()}\n\n{self.report_paragraph()}")
        else:
            self.do_write_draft()

    def ep_todo(self) -> None:
        r = self.r
        items = r.sample(
            [
                "reconcile MRR with invoices",
                "churn by tier chart",
                "draft exec summary",
                "caveats section",
                "check enterprise churn in DE",
                "cohort heatmap",
                "send draft for review",
                "appendix definitions",
                "NRR by signup quarter",
            ],
            r.randint(3, 6),
        )
        todos = [{"content": it, "status": r.choice(["pending", "in_progress", "completed"])} for it in items]
        self.run("todo_write", {"todos": todos}, "Todos updated", r.choice([None, "Updating the todo list."]))
        self.asst(r.choice(["Todo list updated.", "Next up: " + items[0] + "."]))

    def ep_loop(self) -> None:
        """The agent works a few tool rounds after one request."""
        self.user(
            self.request() + self.r.choice(["", " take your time", " and check the numbers against finance's sheet"])
        )
        d = self.deficit()
        for _ in range(self.r.randint(3, 5) if d > 40000 else self.r.randint(2, 4) if d > 0 else self.r.randint(1, 3)):
            if self.r.random() < 0.5:
                query, out = self.sql_cell()
                self.run("run_sql", {"query": query}, out, self.r.choice([None, "Next, the breakdown."]))
            else:
                code, out = self.py_cell()
                self.run("run_python", {"code": code}, out)
        self.asst(self.analysis_summary() + "\n\n" + self.analysis_summary())

    def ep_noise_error(self) -> None:
        r = self.r
        self.user(self.request())
        err = r.choice(
            [
                "/tmp/ipykernel_4711/88123.py:3: DtypeWarning: Columns (7,12) have mixed types. Specify dtype option on import or set low_memory=False.\n"
                + self.py_output(SMALL_LO, SMALL_HI),
                "---------------------------------------------------------------------------\nNameError                                 Traceback (most recent call last)\nCell In[12], line 1\n----> 1 wk.plot()\n\nNameError: name 'wk' is not defined",
                "ERROR:  canceling statement due to statement timeout",
                "ModuleNotFoundError: No module named 'pyarrow'",
                "TypeError: '<' not supported between instances of 'str' and 'float'",
            ]
        )
        if err.startswith("ERROR"):
            self.run("run_sql", {"query": self.sql_text()}, err, error=True)
        else:
            self.run("run_python", {"code": self.py_code()}, err, error="Error:" in err)
        self.asst(r.choice(["That was a setup problem on my side, re-running.", "Fixing that and retrying."]))
        self.do_python(small=True)

    def noise_episode(self) -> None:
        # steer towards TARGET_CHARS per message: heavier episodes while the session runs light
        heavy = self.deficit() > 0
        x = self.r.random()
        if x < (0.08 if heavy else 0.26):
            self.ep_chat()
        elif x < 0.44:
            self.ep_request()
        elif x < 0.58:
            self.ep_paste()
        elif x < 0.69:
            self.ep_writing()
        elif x < 0.71:
            self.ep_todo()
        elif x < (0.95 if heavy else 0.86):
            self.ep_loop()
        else:
            self.ep_noise_error()

    # ================================================================ facts =================
    # ---------------------------------------------------------------- instructions ----------
    def rule_pool(self) -> list[Callable[[], tuple[str, str, str | None]]]:
        """Each returns (rule, query, reason or None). The rule is said verbatim."""
        r = self.r

        def d(v: str, q: str, reason: str | None = None) -> Callable[[], tuple[str, str, str | None]]:
            return lambda: (v, q, reason)

        dec = r.choice(["one decimal", "two decimals", "three decimals"])
        n_b = r.choice([3, 4, 5])
        hx = [f"#{r.randrange(0x1000000):06X}" for _ in range(2)]
        dialect = r.choice(["bigquery", "snowflake", "postgres"])
        rs = r.choice([7, 11, 42, 1234, 2024])
        tabs = r.choice(["tabs", "two spaces", "four spaces"])
        return [
            d(f"we use {tabs} for indentation in the SQL here", "How should SQL files be indented?"),
            d(
                "I'd rather you kept answers short, a few lines unless I ask for detail",
                "How long should replies be by default?",
            ),
            d(f"numbers in the report get {dec}, always", "How many decimal places do numbers in the report get?"),
            d(
                "show shares not counts in anything that goes to them",
                "How should figures be presented for the finance team?",
                "the finance folks only read percentages",
            ),
            d(
                f"Use the structured logger {self.co.lower()}_analytics.obs.get_logger for anything new; no print() in library code",
                "What should new library code use for logging?",
            ),
            d("keep the y-axis starting at zero on every bar chart", "What is the rule for bar chart y-axes?"),
            d("call them accounts in the report, never users", "What word should the report use for customers?"),
            d(
                f"filter out anything with an email ending in @{self.dom} before counting",
                "Which accounts must be excluded from counts?",
                "our own staff accounts are mixed into the tables",
            ),
            d(
                f"don't write to the prod schema; scratch tables go in analytics_scratch.{self.me}",
                "Where should scratch tables be created?",
            ),
            d(
                "clear notebook outputs before you save them",
                "What should happen to notebook outputs before saving?",
                "the diffs are unreadable otherwise",
            ),
            d(
                f"run sqlfluff with the {dialect} dialect on any SQL before you show it to me",
                "What check must SQL pass before being shown?",
            ),
            d(
                "dates in the report are Europe/Berlin even though the warehouse is UTC",
                "Which timezone should dates in the report use?",
            ),
            d(
                "British spelling in the report please (colour, analyse, organisation)",
                "Which spelling convention does the report use?",
            ),
            d(
                f"the brand palette is {hx[0]} for the main series and {hx[1]} for highlights",
                "Which colours should charts use?",
            ),
            d("put a source line under every chart with the query id", "What must appear under each chart?"),
            d("weekly rollups start on Monday", "On which day do weekly aggregates start?"),
            d(
                f"use random_state={rs} whenever you sample",
                "What seed should sampling use?",
                "I want to be able to rerun things and get the same rows",
            ),
            d(
                "matplotlib only, no seaborn",
                "Which plotting library may be used?",
                "the report template chokes on seaborn styles",
            ),
            d("caveats go before recommendations in the report", "Where does the caveats section go in the report?"),
            d("headings in sentence case, not Title Case", "How should headings be capitalised?"),
            d(
                f"no more than {n_b} bullets in any section of the draft",
                "How many bullets may a section of the draft have?",
            ),
            d(
                "use medians, not means, for anything revenue-related",
                "Which average should revenue figures use?",
                "the whales skew everything",
            ),
            d(
                "ask me before you run anything that scans the full events table",
                "What must happen before querying the whole events table?",
                "it costs real money on the warehouse",
            ),
            d(
                "write the exec summary for someone who has never seen a cohort chart",
                "Who is the audience for the executive summary?",
            ),
            d("label every axis with its unit", "What must every chart axis have?"),
            d("put confidence intervals on any rate you plot", "What should plotted rates include?"),
            d("one CTE per logical step, no nested subqueries", "How should SQL queries be structured?"),
            d("lowercase SQL keywords, it's the house style", "What case should SQL keywords use?"),
            d(
                "keep the draft in plain Markdown, I'll paste it into Confluence myself",
                "What format should the draft stay in?",
            ),
            d(
                "avoid the word 'significant' unless there's an actual test behind it",
                "When may the report use the word significant?",
            ),
            d("no emojis in the report or the slides", "Are emojis allowed in the deliverables?"),
            d("every table in the appendix gets a one-line takeaway above it", "What goes above each appendix table?"),
        ]

    def foreign_pool(self) -> list[tuple[str, str, str]]:
        col = self.r.choice(["revenue", "mrr", "arr", "amount"])
        return [
            ("Bitte keine Kreisdiagramme im Bericht.", "Which chart type is not allowed in the report?", "de"),
            (
                "Dezimaltrennzeichen im Bericht bitte als Komma, nicht als Punkt.",
                "What decimal separator does the report use?",
                "de",
            ),
            ("Tabellen im Anhang immer absteigend nach Umsatz sortieren.", "How are appendix tables sorted?", "de"),
            (f"Utilise toujours la colonne {col}_eur, pas {col}.", "Which revenue column must be used?", "fr"),
            (
                "Merci de ne jamais arrondir les taux de churn avant le calcul final.",
                "When may churn rates be rounded?",
                "fr",
            ),
            (
                "Les titres des graphiques doivent dire ce qu'il faut retenir, pas juste décrire les axes.",
                "What should chart titles say?",
                "fr",
            ),
            ("Por favor, usa fechas en formato ISO en todas las tablas.", "Which date format do tables use?", "es"),
            (
                "Nada de abreviaturas en los nombres de las métricas del informe.",
                "Are abbreviations allowed in metric names in the report?",
                "es",
            ),
            ("Los gráficos siempre llevan la fuente de datos debajo.", "What goes under each chart?", "es"),
        ]

    def doc_rule_pool(self) -> list[tuple[str, str]]:
        r = self.r
        col = r.choice(["net_revenue_eur", "mrr_eur_net", "recognised_revenue_eur"])
        col2 = r.choice(["gross_amount", "invoice_total", "billed_amount"])
        pct = r.choice(["one decimal place", "no decimal places"])
        return [
            (
                f"Revenue figures always come from {col}; {col2} includes refunds and is not used in reporting.",
                "Which column do revenue figures come from?",
            ),
            (
                f"Percentages are shown with {pct} and a % sign, never as raw proportions.",
                "How are percentages formatted?",
            ),
            (
                "Charts comparing periods use the same y-axis range on every panel.",
                "How are y-axes set on multi-period charts?",
            ),
            (
                "Every chart carries a footnote naming the source table and the extraction date.",
                "What footnote does each chart need?",
            ),
            (
                "Account counts exclude accounts flagged is_test = true.",
                "Which accounts are excluded from account counts?",
            ),
            (
                "Dates in running text are written as 3 March 2024, never as 03/03/24.",
                "How are dates written in running text?",
            ),
            (
                "Quarter labels follow the fiscal calendar, which starts in February.",
                "Which calendar do quarter labels follow?",
            ),
            (
                "Do not report any segment with fewer than 30 accounts; merge it into 'Other'.",
                "What happens to small segments?",
            ),
        ]

    def style_guide(self, planted: str) -> str:
        r = self.r
        filler = [
            "Write for the reader who has five minutes.",
            "Lead with the answer, then the evidence.",
            "Use active voice where it does not distort meaning.",
            "Avoid internal code names in external documents.",
            "Spell out abbreviations on first use.",
            "Tables should have no more than eight columns.",
            "Keep slide titles under twelve words.",
            "Use the approved template from the shared drive.",
            "Never include customer names without Legal approval.",
            "All external documents are CONFIDENTIAL unless marked otherwise.",
            "Numbers below ten are written as words in running text.",
            "Avoid footnotes in the executive summary.",
            "Cite sources for any external benchmark.",
            "Colour should never be the only way to distinguish series.",
            "Use 'per cent' only in legal documents; elsewhere use '%'.",
            "Do not use exclamation marks.",
            "Round currency in headlines; keep full precision in the appendix.",
            "Avoid starting sentences with 'It is'.",
            "Prefer bar charts to line charts for fewer than six periods.",
            "Hyphenate compound modifiers (e.g. 'high-value accounts').",
            "Put units in column headers, not in cells.",
            "Month names are written in full in running text.",
            "Please do not share this guide outside the company.",
            "Questions about this guide go to the #writing-help channel.",
        ]
        sections = [
            "1. Purpose",
            "2. Voice and tone",
            "3. Numbers and units",
            "4. Charts",
            "5. Tables",
            "6. Terminology",
            "7. Review and sign-off",
            "8. Distribution",
        ]
        target = r.randint(4000, 16000)
        body: list[str] = [
            f"{self.co} Analytics — Reporting Style Guide (v{r.randint(2, 6)}.{r.randint(0, 9)})",
            "=" * 50,
            "",
        ]
        per = max(3, target // (len(sections) * 95))
        lines_all = []
        for s in sections:
            lines_all.append(("h", s))
            for _ in range(per):
                lines_all.append(("l", r.choice(filler) + (" " + self.report_sentence() if r.random() < 0.4 else "")))
        mid = len(lines_all) // 2 + r.randint(-len(lines_all) // 8, len(lines_all) // 8)
        lines_all.insert(mid, ("l", planted))
        for k, t in lines_all:
            if k == "h":
                body += ["", t, "-" * len(t)]
            else:
                body.append(f"- {t}")
        body += ["", f"Last reviewed by {self.person()[0]}. Internal use only."]
        return "\n".join(body)

    def data_dictionary(self, planted: str) -> str:
        r = self.r
        cols = DF_COLS + [
            "first_paid_at",
            "last_seen_at",
            "billing_cycle",
            "discount_pct",
            "industry",
            "owner_id",
            "is_test",
            "plan_code",
            "fx_rate",
            "mrr_usd",
            "contract_end",
            "cs_owner",
            "health_score",
        ]
        target = r.randint(4000, 14000)
        lines = [
            f"# Data dictionary — analytics.dim_accounts / fct_subscriptions (generated {self.date()})",
            "",
            "| column | type | description | owner |",
            "|---|---|---|---|",
        ]
        rows: list[str] = []
        while sum(len(x) for x in rows) < target * 0.8:
            c = r.choice(cols) + r.choice(["", "", "_v2", "_raw", "_clean"])
            rows.append(
                f"| {c} | {r.choice(['string', 'int64', 'float64', 'timestamp', 'bool'])} | {self.report_sentence()} | {r.choice(['data-eng', 'finance', 'revops'])} |"
            )
        notes = [
            "",
            "## Usage notes",
            "",
            "- Do not join on email; use account_id.",
            "- Timestamps are stored in UTC.",
            "- NEVER query the raw schema from dashboards.",
            "- Rows with plan_code = 'LEGACY' predate the billing migration.",
            f"- Questions: #data-help or {self.person()[2]}",
        ]
        notes.insert(r.randint(4, len(notes) - 1), f"- {planted}")
        half = len(rows) // 2
        return "\n".join(lines + rows[:half] + notes + ["", "## Columns (continued)", ""] + rows[half:])

    def ev_instruction(self) -> None:
        r = self.r
        style = self.take_template("instruction", 9)
        if style == 7:
            # inside a pasted style guide / data dictionary
            pool = self.doc_rule_pool()
            rule, q = self.pick_fresh(lambda: r.choice(pool), key=lambda x: x[0], query=lambda x: x[1])
            doc = self.style_guide(rule) if r.random() < 0.55 else self.data_dictionary(rule)
            intro = r.choice(
                [
                    "This is the team's reporting guide, please follow it for the draft:",
                    "pasting the doc we're supposed to follow, the report has to match it",
                    "ok here's the data dictionary + conventions, stick to these:",
                ]
            )
            idx = self.user(f"{intro}\n\n{doc}\n\nmainly the formatting stuff matters, the rest is boilerplate", [doc])
            self.fact("instruction", rule, idx, q)
            self.asst(
                r.choice(
                    [
                        "Read it. I'll apply the conventions to the draft and the charts from here on.",
                        "Thanks — I'll follow that guide for everything in the report.",
                    ]
                )
            )
            return
        if style == 8:
            rule, q, lang = self.pick_fresh(
                lambda: r.choice(self.foreign_pool()), key=lambda x: x[0], query=lambda x: x[1]
            )
            pre = {
                "de": ["Noch was. ", "Kurz zum Bericht: ", ""],
                "fr": ["Petite remarque. ", "Pour le rapport — ", ""],
                "es": ["Una cosa más. ", "Para el informe: ", ""],
            }[lang]
            idx = self.user(
                r.choice(pre)
                + rule
                + r.choice(["", " Danke!" if lang == "de" else (" Merci !" if lang == "fr" else " ¡Gracias!")])
            )
            self.fact("instruction", rule, idx, q)
            self.reply(
                ["Understood, I'll apply that to the report.", "OK — noted for everything in the report from here on."]
            )
            return

        def gen_rule() -> tuple[str, str, str | None]:
            pool = [b() for b in self.rule_pool()]
            unused = [x for x in pool if TOPICS.get(x[1], x[1]) not in self.queries]  # one rule per topic
            ru, qq, why = r.choice(unused or pool)
            return self.scope(ru), qq, why

        rule, q, reason = self.pick_fresh(gen_rule, key=lambda x: x[0], query=lambda x: x[1])
        if style == 0:
            msg = (
                r.choice(["btw ", "oh and ", "quick thing, ", "", "fyi "])
                + rule
                + r.choice(["", ".", " 🙏", ", thanks"])
            )
            idx = self.user(msg)
            self.reply(["Noted.", "Got it, will do.", "OK, I'll stick to that."])
        elif style == 1 and reason:
            msg = f"{reason}, so {rule}" + r.choice([".", "", ". thx"])
            idx = self.user(msg)
            self.reply(["Makes sense, I'll do that from now on."])
        elif style in (1, 2):
            # second paragraph of a longer message, no strong word
            tail = "\n\n" + self.status_paragraph() if r.random() < 0.5 else ""
            msg = f"{self.status_paragraph()}\n\n{rule}{'' if rule.endswith(')') else '.'}{tail}\n\n{_cap(self.request())}"
            idx = self.user(msg)
            self.do_any()
        elif style == 3:
            req = self.request()
            msg = f"{req}{'' if req.endswith('?') else '.'} also {rule}" + (f" ({reason})" if reason else "")
            idx = self.user(msg)
            self.do_any(ack=r.choice(["(Noted on the other point.)", None]))
        elif style == 4:
            complaint = r.choice(
                [
                    "that's not how I want it",
                    "hmm, that's not quite it",
                    "no no",
                    "ok but a general thing",
                    "small thing but it matters to me",
                ]
            )
            msg = f"{complaint} — {rule}" + (f", {reason}" if reason else "") + "."
            idx = self.user(msg)
            self.reply(
                ["Sorry about that, fixing it and I'll keep to it going forward.", "Got it, I'll redo that one."]
            )
        elif style == 5:
            msg = f"{self.request()} (and going forward: {rule})"
            idx = self.user(msg)
            self.do_any()
        else:
            msg = (
                r.choice(["from now on ", "for the rest of this: ", "general rule for this project: "])
                + rule
                + "."
                + (f" {_cap(reason)}." if reason else "")
            )
            idx = self.user(msg)
            self.reply(["Understood."])
        self.fact("instruction", rule, idx, q)

    # ---------------------------------------------------------------- corrections -----------
    def sfx(self, sep: str = "_") -> str:
        """Nothing on a first try; a short disambiguating suffix when a natural name was already taken."""
        return (
            ""
            if self.attempt < DEDUP_TRIES
            else sep
            + self.r.choice(["v2", "v3", "b", "c", "new", "fix", "2", "final"])
            + (self.tok(2, "0123456789") if self.attempt > DEDUP_TRIES + 8 else "")
        )

    def scope(self, phrase: str) -> str:
        """The phrase as is on early tries; narrowed to one deliverable once the plain one was used (long sessions)."""
        if self.attempt < DEDUP_TRIES:
            return phrase
        return (
            phrase + self.r.choice(QUALIFIERS) + (f" (take {self.attempt})" if self.attempt > DEDUP_TRIES + 15 else "")
        )

    def correction_pair(self) -> tuple[str, str, str, str, str]:
        """(stale sentence, stale, corrective sentence, new, query)."""
        r = self.r
        t = self.take_template("correction", 12)
        q = self.q.lower()
        co = self.co.lower()
        if t == 0:
            s = f"{q}_churn{r.choice(['', '_export', '_accounts'])}{self.sfx()}.parquet"
            n = f"{q}_churn_{r.choice(['v2', 'v3', 'dedup', 'fixed', 'final'])}{self.sfx()}.parquet"
            return (
                f"the churn export is in the shared drive, {s}, load that one",
                s,
                f"the other export I mentioned — {n}. the first one has duplicated rows",
                n,
                "Which churn export file should be loaded?",
            )
        if t == 1:
            sub = r.choice(["billing", "invoices", "finance"])
            s, n = f"s3://{co}-exports-us{self.sfx('-')}/{sub}/", f"s3://{co}-exports-eu{self.sfx('-')}/{sub}/"
            return (
                f"billing exports land in {s}",
                s,
                f"no, it's the eu one: {n}",
                n,
                "Where do the billing exports land?",
            )
        if t == 2:
            s, n = f"cohort_2022_{r.choice('abcd')}{self.sfx()}", f"cohort_2023_{r.choice('abcd')}{self.sfx()}"
            return (
                f"use the cohort table {s} for the curves",
                s,
                f"oh wait I meant the 2023 cohort table, {n}",
                n,
                "Which cohort table should the retention curves use?",
            )
        if t == 3:
            s = f"jordan.{r.choice(['smith', 'baker', 'ortiz', 'meyer'])}{self.sfx('')}@{self.dom}"
            n = f"jordan.{r.choice(['lee', 'kim', 'nowak', 'reyes'])}{self.sfx('')}@{self.dom}"
            return (
                f"send the draft to Jordan when it's ready ({s})",
                s,
                f"the other Jordan ({n}), the one in finance",
                n,
                "Whose email should the draft go to?",
            )
        if t == 4:
            mon = r.choice(["jun", "jul", "aug", "sep", "oct", "nov"])
            s, n = f"snap_{mon}_eom{self.sfx()}", f"snap_{mon}_fin_close{self.sfx()}"
            return (
                f"freeze numbers on the snapshot {s}",
                s,
                f"sorry, wrong snapshot, the finance one is {n}",
                n,
                "Which snapshot should the numbers be frozen on?",
            )
        if t == 5:
            s, n = (
                f"analytics_stg{self.sfx()}",
                f"analytics_{r.choice(['staging', 'stage_v2', 'staging_core'])}{self.sfx()}",
            )
            return (
                f"the staging models live in {s}",
                s,
                f"ah, schema is actually {n}, I misremembered",
                n,
                "Which schema holds the staging models?",
            )
        if t == 6:
            s, n = f"mrr_usd{self.sfx()}", f"mrr_eur_{r.choice(['net', 'normalised', 'fx'])}{self.sfx()}"
            return (
                f"for MRR take the column {s}",
                s,
                f"oh wait I meant {n}, the usd one is pre-FX",
                n,
                "Which column should MRR come from?",
            )
        if t == 7:
            s, n = f"dash-{r.randint(1000, 4999)}", f"dash-{r.randint(5000, 9999)}"
            return (
                f"the exec dashboard is {s}, match its numbers",
                s,
                f"I pasted the wrong link, the real exec dashboard is {n}",
                n,
                "Which dashboard are the report numbers supposed to match?",
            )
        if t == 8:
            s, n = f"inactive_days >= {r.choice([21, 28, 30])}", f"inactive_days >= {r.choice([45, 56, 60, 90])}"
            return (
                f"call an account dormant when {s}",
                s,
                f"finance uses a longer window, make it {n}",
                n,
                "What inactivity threshold marks an account as dormant?",
            )
        if t == 9:
            s, n = f"ANALYTICS_XS{self.sfx().upper()}", f"REPORTING_{r.choice(['M', 'L'])}_WH{self.sfx().upper()}"
            return (
                f"run the heavy queries on the {s} warehouse",
                s,
                f"not that warehouse, use {n}, XS times out",
                n,
                "Which warehouse should heavy queries run on?",
            )
        if t == 10:
            s, n = (
                f"exp_checkout_{r.choice(['q1', 'q2', 'spring'])}{self.sfx()}",
                f"exp_paywall_{r.choice(['q3', 'q4', 'autumn'])}{self.sfx()}",
            )
            return (
                f"the pricing experiment is {s}",
                s,
                f"my bad, the pricing test is {n}, the checkout one was last year",
                n,
                "What is the id of the pricing experiment?",
            )
        s, n = (
            f"plan_code PRO_{r.choice(['M', 'Y'])}{self.sfx().upper()}",
            f"plan_code GRW_{r.choice(['M', 'Y'])}{self.sfx().upper()}",
        )
        return (
            f"the mid tier shows up as {s} in billing",
            s,
            f"correction: the mid tier is {n}, PRO is the legacy code",
            n,
            "What plan code does the mid tier have in billing?",
        )

    def ev_correction(self, corr_target: int) -> None:
        r = self.r
        st = {}

        def gen() -> tuple[str, str, str, str, str]:
            return self.correction_pair()

        def usable(x: tuple[str, str, str, str, str]) -> str:
            """The new value, or "" (never fresh) when the stale one is another fact's or one contains the other."""
            ok = x[1] not in x[3] and x[3] not in x[1] and x[1] not in self.used
            return x[3] if ok else ""

        pair = self.pick_fresh(gen, key=usable, query=lambda x: x[4])
        s_sent, stale, c_sent, new, q = pair
        self.used.add(stale)
        self.used.add(new)  # reserve so nothing else picks it
        self.queries.add(q)  # and the question, so no other correction answers it
        # stale statement now
        if r.random() < 0.5:
            idx = self.user(f"{self.request()} — {s_sent}")
            self.do_any()
        else:
            idx = self.user(f"{self.status_paragraph()}\n\nAlso, {s_sent}.")
            self.reply(["OK, noted.", f"Noted: {stale}.", "Got it."])
        st["stale_index"] = idx

        def later() -> None:
            self.used.discard(new)
            if not self.fresh(new):
                raise RuntimeError(f"correction value leaked early: {new}")
            style = r.randrange(3)
            if style == 0:
                j = self.user(c_sent)
                self.reply(["Thanks, switching to that.", "Ah, OK — redoing with the right one.", "Updated."])
            elif style == 1:
                # buried in the middle of a long message
                j = self.user(
                    f"{self.status_paragraph()}\n\n{self.status_paragraph()} Anyway, {c_sent}. {self.status_paragraph()}\n\n{self.request()}"
                )
                self.do_any()
            else:
                j = self.user(f"{self.request()}\n\n(and {c_sent})")
                self.do_any(ack="Also switched to the corrected one.")
            self.fact("correction", new, j, q, stale=stale, stale_index=st["stale_index"])

        self.at(corr_target, later)

    # ---------------------------------------------------------------- errors ----------------
    def error_case(self) -> dict[str, Any]:
        r = self.r
        t = self.take_template("error", 15)
        cell = self.cell = self.cell + r.randint(1, 6)
        if t == 0:
            col = r.choice(
                [
                    "acct_tenure_days",
                    "plan_tier_v2",
                    "first_paid_at_utc",
                    "seat_count_max",
                    "referrer_host",
                    "mrr_eur_adj",
                    "region_code_iso",
                    "trial_end_ts",
                ]
            ) + r.choice(["", "_x", "_2"])
            code = f"churn = accounts.merge(subs, on='account_id', how='left')\nchurn['tenure_bucket'] = pd.cut(churn['{col}'], bins=[0, 30, 90, 180, 365, 10_000])"
            value = f"KeyError: '{col}'"
            out = (
                "---------------------------------------------------------------------------\n"
                f"KeyError                                  Traceback (most recent call last)\n"
                "File ~/.venv/lib/python3.11/site-packages/pandas/core/indexes/base.py:3805, in Index.get_loc(self, key)\n"
                "   3804 try:\n-> 3805     return self._engine.get_loc(casted_key)\n   3806 except KeyError as err:\n\n"
                "File index.pyx:167, in pandas._libs.index.IndexEngine.get_loc()\n\nFile index.pyx:196, in pandas._libs.index.IndexEngine.get_loc()\n\n"
                "File pandas/_libs/hashtable_class_helper.pxi:7081, in pandas._libs.hashtable.PyObjectHashTable.get_item()\n\n"
                f"{value}\n\nThe above exception was the direct cause of the following exception:\n\n"
                f"KeyError                                  Traceback (most recent call last)\nCell In[{cell}], line 2\n"
                f"      1 churn = accounts.merge(subs, on='account_id', how='left')\n----> 2 churn['tenure_bucket'] = pd.cut(churn['{col}'], bins=[0, 30, 90, 180, 365, 10_000])\n\n"
                "File ~/.venv/lib/python3.11/site-packages/pandas/core/frame.py:4102, in DataFrame.__getitem__(self, key)\n"
                "   4100 if self.columns.nlevels > 1:\n   4101     return self._getitem_multilevel(key)\n-> 4102 indexer = self.columns.get_loc(key)\n\n"
                f"{value}"
            )
            return dict(
                tool="run_python",
                args={"code": code},
                out=out,
                value=value,
                query="Which column lookup failed when bucketing tenure?",
                fix={"code": code.replace(col, "tenure_days")},
                ok=self.py_output(SMALL_LO, SMALL_HI),
            )
        if t == 1:
            typo = r.choice(
                ["partiton", "ove", "GROUPBY", "ORDRE", "qualfy", "WHER", "lef", "distnct", "JION"]
            ) + r.choice(["", "_"])
            line = r.randint(8, 40)
            value = f'syntax error at or near "{typo}"'
            sql = self.sql_text()
            out = f"ERROR:  {value}\nLINE {line}:     row_number() over ({typo} by account_id order by started_at desc) as rn\n                                    ^\nSQL state: 42601"
            return dict(
                tool="run_sql",
                args={"query": sql.replace("select", "select /* dedupe */", 1)},
                out=out,
                value=value,
                query="What syntax error did the dedupe query hit?",
                fix={"query": sql},
                ok=self.sql_result(SMALL_LO, SMALL_HI),
            )
        if t == 2:
            col = (
                r.choice(
                    [
                        "signup_channel_v2",
                        "acquisition_src",
                        "first_touch_medium",
                        "utm_campaign_clean",
                        "billing_country_iso",
                    ]
                )
                + "_"
                + self.tok(2)
            )
            value = f'psycopg.errors.UndefinedColumn: column "{col}" does not exist'
            out = (
                'Traceback (most recent call last):\n  File "/work/src/analytics/io.py", line 41, in query\n    cur.execute(sql, params)\n'
                '  File "/work/.venv/lib/python3.11/site-packages/psycopg/cursor.py", line 732, in execute\n    raise ex.with_traceback(None)\n'
                f'{value}\nLINE 3:        a.{col},\n               ^\nHINT:  Perhaps you meant to reference the column "a.channel".'
            )
            return dict(
                tool="run_python",
                args={"code": f"df = query(open('sql/adhoc/channel_mix.sql').read())  # uses a.{col}"},
                out=out,
                value=value,
                query="Which column did Postgres say does not exist?",
                fix={"code": "df = query(open('sql/adhoc/channel_mix.sql').read())  # fixed to a.channel"},
                ok=self.py_output(SMALL_LO, SMALL_HI),
            )
        if t == 3:
            obj = r.choice(["active_accts", "mrr_tot", "n_paid", "churn_ct", "seats_sum"]) + r.choice(["", "_q", "2"])
            script = f"analysis/arpa_{self.tok(3)}.R"
            value = f"object '{obj}' not found"
            out = (
                f"$ Rscript {script}\n── Attaching core tidyverse packages ──────────────────────── tidyverse 2.0.0 ──\n"
                "✔ dplyr     1.1.4     ✔ readr     2.1.5\n✔ ggplot2   3.5.0     ✔ tibble    3.2.1\n"
                f"Error in `mutate()`:\nℹ In argument: `arpa = mrr / {obj}`.\nCaused by error:\n! {value}\nBacktrace:\n"
                "    ▆\n 1. ├─... %>% summarise(arpa = mean(arpa))\n 2. ├─dplyr::summarise(...)\n 3. ├─dplyr::mutate(...)\nExecution halted"
            )
            return dict(
                tool="bash",
                args={"cmd": f"Rscript {script}"},
                out=out,
                value=value,
                query="What did the R ARPA script fail on?",
                fix={"cmd": f"Rscript {script}"},
                ok=f"$ Rscript {script}\n# A tibble: 4 × 2\n  plan_tier  arpa\n"
                + "\n".join(f"{i + 1} {t:<10} {r.uniform(20, 900):.1f}" for i, t in enumerate(TIERS)),
            )
        if t == 4:
            target_t, got = r.choice(
                [("Float64", "Missing"), ("Int64", "SubString{String}"), ("Date", "Missing"), ("Float64", "Nothing")]
            )
            jl = f"analysis/elasticity_{self.tok(3)}.jl"
            ln = r.randint(12, 80)
            value = f"in expression starting at /work/{jl}:{ln}"
            out = (
                f"$ julia --project {jl}\nERROR: LoadError: MethodError: no method matching parse(::Type{{{target_t}}}, ::{got})\n\n"
                "Closest candidates are:\n  parse(::Type{T}, ::AbstractString; kwargs...) where T<:Real\n   @ Base parse.jl:392\n\n"
                'Stacktrace:\n [1] (::var"#3#4")(x::Missing)\n   @ Main ./none:0\n [2] iterate\n   @ ./generator.jl:47 [inlined]\n'
                f" [3] top-level scope\n   @ /work/{jl}:{ln}\n{value}"
            )
            return dict(
                tool="bash",
                args={"cmd": f"julia --project {jl}"},
                out=out,
                value=value,
                query="Where did the Julia elasticity script throw its MethodError?",
                fix={"cmd": f"julia --project {jl}"},
                ok=f"$ julia --project {jl}\nelasticity (pro → team): {r.uniform(-2, -0.1):.3f}\nelasticity (basic → pro): {r.uniform(-2, -0.1):.3f}",
            )
        if t == 5:
            model = r.choice(MARTS)
            col = r.choice(["plan_tier", "country", "channel", "billing_cycle"])
            vals = "__".join(r.sample(["basic", "pro", "team", "enterprise", "legacy", "trial"], 3))
            test = f"accepted_values_{model}_{col}__{vals}"
            value = f"Failure in test {test} (models/marts/schema.yml)"
            out = (
                f"Running with dbt=1.7.{r.randint(0, 9)}\nFound 84 models, 312 tests\n\nConcurrency: 8 threads\n\n"
                + "\n".join(
                    f"{i} of 40 PASS {x} ........ [PASS in {r.uniform(0.3, 3):.2f}s]"
                    for i, x in enumerate(
                        [f"not_null_{m}_account_id" for m in MARTS] + [f"unique_{m}_account_id" for m in MARTS[:3]], 1
                    )
                )
                + f"\n9 of 40 FAIL {r.randint(2, 400)} {test} .... [FAIL {r.randint(2, 400)} in 1.12s]\n\n"
                f"Completed with 1 error and 0 warnings:\n\n{value}\n  Got {r.randint(2, 400)} results, configured to fail if != 0\n\n"
                f"  compiled Code at target/compiled/analytics/models/marts/schema.yml/{test[:60]}.sql\n\nDone. PASS=39 WARN=0 ERROR=1 SKIP=0 TOTAL=40"
            )
            return dict(
                tool="bash",
                args={"cmd": f"dbt test --select {model}"},
                out=out,
                value=value,
                query="Which dbt test failed on the marts?",
                fix={"cmd": f"dbt test --select {model}"},
                ok="Done. PASS=40 WARN=0 ERROR=0 SKIP=0 TOTAL=40",
            )
        if t == 6:
            side = r.choice(["right", "left"])
            n = r.randint(2, 900)
            value = f"Merge keys are not unique in {side} dataset; not a one-to-one merge"
            out = (
                "---------------------------------------------------------------------------\nMergeError                                Traceback (most recent call last)\n"
                f"Cell In[{cell}], line 1\n----> 1 m = invoices.merge(subs, on=['account_id', 'billing_month'], validate='1:1')\n\n"
                "File ~/.venv/lib/python3.11/site-packages/pandas/core/reshape/merge.py:1725, in _MergeOperation._validate_validate_kwd(self, validate)\n"
                f"MergeError: {value}\n\n# {n} duplicated keys"
            )
            return dict(
                tool="run_python",
                args={"code": "m = invoices.merge(subs, on=['account_id', 'billing_month'], validate='1:1')"},
                out=out,
                value=value,
                query="Why did the invoices/subscriptions merge fail?",
                fix={
                    "code": "subs = subs.drop_duplicates(['account_id', 'billing_month'], keep='last')\nm = invoices.merge(subs, on=['account_id', 'billing_month'], validate='1:1')\nm.shape"
                },
                ok=f"({r.randint(10000, 90000)}, {r.randint(12, 30)})",
            )
        if t == 7:
            col = r.choice(["event_ts_utc", "occurred_at_local", "session_start_ts", "ingested_at"]) + "_" + self.tok(2)
            pos = f"[{r.randint(5, 40)}:{r.randint(3, 30)}]"
            value = f"Unrecognized name: {col} at {pos}"
            out = (
                'Traceback (most recent call last):\n  File "<stdin>", line 4, in <module>\n'
                '  File "/work/.venv/lib/python3.11/site-packages/google/cloud/bigquery/job/query.py", line 1580, in result\n    do_get_result()\n'
                f"google.api_core.exceptions.BadRequest: 400 {value}; reason: invalidQuery, location: query, message: {value}\n\n"
                f"Location: EU\nJob ID: {self.tok(8)}-{self.tok(4)}-{self.tok(4)}"
            )
            return dict(
                tool="run_sql",
                args={
                    "query": f"select account_id, {col} from `{self.gcp}.raw.events` where date({col}) >= '{self.date()}'"
                },
                out=out,
                value=value,
                query="Which name did BigQuery not recognise?",
                fix={"query": f"select account_id, event_ts from `{self.gcp}.raw.events` limit 1000"},
                ok=self.sql_result(SMALL_LO, SMALL_HI),
            )
        if t == 8:
            col = r.choice(["week_start_local", "cohort_wk", "signup_wk", "period_start"]) + "_" + self.tok(2)
            value = f'Binder Error: Referenced column "{col}" not found in FROM clause!'
            out = (
                f'duckdb.duckdb.BinderException: {value}\nCandidate bindings: "week_start", "signup_week", "account_id"\n'
                f"LINE 4: group by {col}\n                 ^"
            )
            return dict(
                tool="run_sql",
                args={
                    "query": f"select {col}, count(*) from read_parquet('data/interim/*.parquet') group by {col}",
                    "engine": "duckdb",
                },
                out=out,
                value=value,
                query="Which column did DuckDB fail to bind?",
                fix={
                    "query": "select week_start, count(*) from read_parquet('data/interim/*.parquet') group by 1",
                    "engine": "duckdb",
                },
                ok=self.sql_result(SMALL_LO, SMALL_HI),
            )
        if t == 9:
            ident = r.choice(["ARR_USD_NET", "MRR_LOCAL", "CHURN_FLAG_V2", "SEATS_BILLED"]) + "_" + self.tok(2).upper()
            value = f"invalid identifier '{ident}'"
            out = (
                f"snowflake.connector.errors.ProgrammingError: 000904 (42000): 01b{self.tok(5)}-0602-{self.tok(4)}-0000-{self.tok(12)}: "
                f"SQL compilation error: error line {r.randint(3, 30)} at position {r.randint(4, 40)}\n{value}"
            )
            return dict(
                tool="run_sql",
                args={
                    "query": f"select account_id, {ident.lower()} from analytics.fct_mrr_monthly limit 100",
                    "engine": "snowflake",
                },
                out=out,
                value=value,
                query="Which identifier did Snowflake reject?",
                fix={
                    "query": "select account_id, mrr_eur from analytics.fct_mrr_monthly limit 100",
                    "engine": "snowflake",
                },
                ok=self.sql_result(SMALL_LO, SMALL_HI),
            )
        if t == 10:
            gib = f"{r.uniform(4, 60):.1f}"
            shape = r.randint(500_000_000, 4_000_000_000)
            value = f"Unable to allocate {gib} GiB for an array with shape ({shape},) and data type int64"
            out = (
                "---------------------------------------------------------------------------\n_ArrayMemoryError                         Traceback (most recent call last)\n"
                f"Cell In[{cell}], line 1\n----> 1 pairs = events.merge(events, on='account_id')\n\n"
                f"numpy.core._exceptions._ArrayMemoryError: {value}"
            )
            return dict(
                tool="run_python",
                args={"code": "pairs = events.merge(events, on='account_id')"},
                out=out,
                value=value,
                query="What memory error did the events self-join raise?",
                fix={
                    "code": "pairs = events.sort_values('event_ts').groupby('account_id')['event_ts'].diff()\npairs.describe()"
                },
                ok=self.py_output(SMALL_LO, SMALL_HI),
            )
        if t == 11:
            a = r.randint(20, 80)
            value = f"x and y must have same first dimension, but have shapes ({a},) and ({a - r.randint(1, 3)},)"
            out = (
                "---------------------------------------------------------------------------\nValueError                                Traceback (most recent call last)\n"
                f"Cell In[{cell}], line 3\n      1 fig, ax = plt.subplots(figsize=(10, 4))\n----> 3 ax.plot(weeks, churn_rate)\n\n"
                f"File ~/.venv/lib/python3.11/site-packages/matplotlib/axes/_base.py:504, in _process_plot_var_args._plot_args(self, axes, tup, kwargs, return_kwargs, ambiguous_fmt_datakey)\n\nValueError: {value}"
            )
            return dict(
                tool="run_python",
                args={"code": "fig, ax = plt.subplots(figsize=(10, 4))\nax.plot(weeks, churn_rate)"},
                out=out,
                value=value,
                query="Why did the churn-rate line chart fail to draw?",
                fix={"code": "ax.plot(churn_rate.index, churn_rate.values)"},
                ok="[<matplotlib.lines.Line2D at 0x7f3a1c2b9d90>]",
            )
        if t == 12:
            col = r.choice(["discount_pct", "refund_share", "seat_util"]) + "_" + self.tok(2)
            value = f"Column '{col}' failed element-wise validator number 0: in_range(0, 1)"
            out = (
                'Traceback (most recent call last):\n  File "/work/src/analytics/checks.py", line 22, in validate\n    schema.validate(df, lazy=False)\n'
                f"pandera.errors.SchemaError: {value} failure cases: {r.uniform(1, 3):.2f}, {r.uniform(1, 9):.2f}, -0.{r.randint(10, 99)}"
            )
            return dict(
                tool="run_python",
                args={"code": "validate(df)"},
                out=out,
                value=value,
                query="Which pandera check failed?",
                fix={"code": "df[col] = df[col].clip(0, 1)\nvalidate(df)"},
                ok="validation passed: 0 failure cases",
            )
        if t == 13:
            pos_n = r.randint(1000, 900000)
            byte = r.choice(["0xe9", "0xfc", "0xf6", "0xe4", "0x96"])
            value = f"can't decode byte {byte} in position {pos_n}: invalid continuation byte"
            out = (
                'Traceback (most recent call last):\n  File "<stdin>", line 1, in <module>\n'
                '  File "/work/.venv/lib/python3.11/site-packages/pandas/io/parsers/readers.py", line 1026, in read_csv\n'
                f"UnicodeDecodeError: 'utf-8' codec {value}"
            )
            return dict(
                tool="run_python",
                args={"code": "fin = pd.read_csv('data/raw/finance_export.csv')"},
                out=out,
                value=value,
                query="What went wrong reading the finance CSV?",
                fix={"code": "fin = pd.read_csv('data/raw/finance_export.csv', encoding='latin-1')\nfin.head(15)"},
                ok=self.py_output(SMALL_LO, SMALL_HI),
            )
        exp, line = r.randint(8, 30), r.randint(1000, 300000)
        value = f"Expected {exp} fields in line {line}, saw {exp + 1}"
        out = (
            "---------------------------------------------------------------------------\nParserError                               Traceback (most recent call last)\n"
            f"Cell In[{cell}], line 1\n----> 1 crm = pd.read_csv('data/raw/crm_accounts.csv')\n\n"
            f"ParserError: Error tokenizing data. C error: {value}"
        )
        return dict(
            tool="run_python",
            args={"code": "crm = pd.read_csv('data/raw/crm_accounts.csv')"},
            out=out,
            value=value,
            query="Why could the CRM accounts CSV not be parsed?",
            fix={
                "code": "crm = pd.read_csv('data/raw/crm_accounts.csv', on_bad_lines='warn', quotechar='\"')\ncrm.shape"
            },
            ok=f"({r.randint(1000, 90000)}, {exp})",
        )

    def ev_error(self, resolve_gap: int | None) -> None:
        r = self.r
        case = self.pick_fresh(self.error_case, key=lambda c: c["value"], query=lambda c: c["query"])
        self.user(self.request() if r.random() < 0.6 else r.choice(["ok run it", "try that", "go"]))
        if r.random() < 0.5:
            query, out = self.sql_cell()
            self.run("run_sql", {"query": query}, out, "First the base numbers.")
        _, t = self.run(case["tool"], case["args"], case["out"], r.choice([None, "Running it."]), error=True)
        f = self.fact("error", case["value"], t, case["query"])
        self.asst(
            r.choice(
                [
                    "That failed — I'll look into it.",
                    "Error there. Let me check the input before retrying.",
                    "Hm, it broke. I'll come back to it after the next item.",
                    "Failed; parking it for now.",
                ]
            )
        )
        if resolve_gap is not None:

            def fix() -> None:
                self.user(
                    r.choice(
                        [
                            "did you get that error sorted?",
                            "go back to the thing that failed earlier",
                            "retry the broken one now",
                        ]
                    )
                )
                _, t2 = self.run(case["tool"], case["fix"], case["ok"], "Retrying with the fix.")
                f["resolved"] = t2
                self.asst(r.choice(["That one passes now.", "Fixed — it runs clean.", "Works now."]))

            self.at(len(self.msgs) + resolve_gap, fix)

    # ---------------------------------------------------------------- files -----------------
    def ev_file(self) -> None:
        r = self.r
        t = self.take_template("file", 10)
        r_script = (
            "library(tidyverse)\nlibrary(survival)\n\ndf <- read_csv('exports/accounts.csv')\n"
            "fit <- survfit(Surv(tenure_days, churned) ~ plan_tier, data = df)\nsummary(fit, times = c(30, 90, 180, 365))\n"
        )

        def make() -> tuple[str, dict[str, Any], str, str]:
            tk = self.tok(3)
            if t == 0:
                stem = r.choice(
                    ["churn_eda", "cohort_checks", "nrr_deepdive", "fx_audit", "seat_usage", "dunning_gaps"]
                )
                path = f"notebooks/{self.year}-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}_{stem}_{tk}.ipynb"
                return (
                    path,
                    {"path": path, "content": self.file_body(".ipynb")},
                    f"Where is the new notebook for the {stem.replace('_', ' ')} work?",
                    "write_file",
                )
            if t == 1:
                stem = r.choice(
                    [
                        "fct_churn_events",
                        "fct_account_weeks",
                        "int_reactivations",
                        "fct_nrr_quarterly",
                        "int_plan_changes",
                    ]
                )
                path = f"models/marts/{stem}_{tk}.sql"
                what = stem.split("_", 1)[1].replace("_", " ")
                return (
                    path,
                    {"path": path, "content": self.sql_model(path)},
                    f"Which dbt model file was created for the {what}?",
                    "write_file",
                )
            if t == 2:
                stem = r.choice(["draft_v2", "exec_summary", "segment_section", "appendix_tables", "methods_note"])
                path = f"reports/{self.q.lower()}_retention/{stem}_{tk}.md"
                return (
                    path,
                    {"path": path, "content": self.file_body(".md")},
                    f"Where was the report file for the {stem.replace('_', ' ')} written?",
                    "write_file",
                )
            if t == 3:
                stem = r.choice(
                    ["churn_by_tier", "nrr_by_quarter", "top_expansion", "cohort_matrix", "downgrades_by_country"]
                )
                path = f"exports/{stem}_{tk}.csv"
                return (
                    path,
                    {"code": f"out.to_csv('{path}', index=False)\nprint(len(out))"},
                    f"Which CSV holds the {stem.replace('_', ' ')} export for the stakeholders?",
                    "run_python",
                )
            if t == 4:
                stem = r.choice(
                    ["retention_curves", "churn_by_segment", "mrr_bridge", "activation_funnel", "tenure_histogram"]
                )
                path = f"figures/{stem}_{tk}.png"
                args = {
                    "kind": "line",
                    "data": "analytics.cohort_retention",
                    "x": "months_since_start",
                    "y": "retention",
                    "out": path,
                }
                return path, args, f"Where was the {stem.replace('_', ' ')} chart image saved?", "plot"
            if t == 5:
                stem = r.choice(["churn", "nrr", "cohorts", "reactivations"])
                path = f"models/marts/schema_{stem}_{tk}.yml"
                return (
                    path,
                    {"path": path, "content": self.file_body(".yml")},
                    f"Which schema YAML was added for the new {stem} models?",
                    "write_file",
                )
            if t == 6:
                stem = r.choice(["survival_fit", "price_elasticity", "seat_growth", "arpa_trend"])
                path = f"analysis/{stem}_{tk}.R"
                return (
                    path,
                    {"path": path, "content": r_script},
                    f"Where is the R script for the {stem.replace('_', ' ')}?",
                    "write_file",
                )
            if t == 7:
                stem = r.choice(["exec_retention", "cs_churn_watch", "finance_nrr", "growth_weekly"])
                path = f"dashboards/{stem}_{tk}.json"
                return (
                    path,
                    {"path": path, "content": self.json_blob()},
                    f"Which dashboard spec file was written for the {stem.replace('_', ' ')} dashboard?",
                    "write_file",
                )
            if t == 8:
                stem = r.choice(["cohorts", "churn_flags", "fx", "bridges", "seat_bands"])
                path = f"src/analytics/{stem}_{tk}.py"
                return (
                    path,
                    {"path": path, "content": self.file_body(".py")},
                    f"Which new Python module holds the {stem.replace('_', ' ')} helpers?",
                    "write_file",
                )
            stem = r.choice(["events_dedup", "accounts_enriched", "subs_clean", "invoices_matched"])
            path = f"data/interim/{stem}_{tk}.parquet"
            code = f"clean = raw.drop_duplicates(['account_id', 'event_name', 'event_ts'])\nclean.to_parquet('{path}')\nclean.shape"
            return (
                path,
                {"code": code},
                f"Where was the {stem.replace('_', ' ')} intermediate dataset saved?",
                "run_python",
            )

        path, args, q, name = self.pick_fresh(make, key=lambda x: x[0], query=lambda x: x[2])
        self.user(
            r.choice(
                [
                    self.request(),
                    "ok let's write this up properly",
                    "save that somewhere sensible",
                    "go ahead and create it",
                ]
            )
        )
        say = r.choice(
            [f"Writing {path}.", f"Creating {path} with the cleaned-up version.", f"I'll put this in {path}."]
        )
        if name == "run_python":
            out = (
                f"{r.randint(100, 90000)}"
                if path.endswith(".csv")
                else f"({r.randint(10000, 900000)}, {r.randint(5, 20)})"
            )
        elif name == "plot":
            out = json.dumps({"ok": True, "path": path, "width": 1200, "height": 700})
        else:
            out = f"Wrote {len(args.get('content', ''))} bytes to {path}"
        a, _ = self.run(name, args, out, say)
        self.fact("file", path, a, q)
        self.asst(
            r.choice([f"Done — saved. {self.analysis_summary()}", "Saved.", "Written; want me to walk you through it?"])
        )

    # ---------------------------------------------------------------- decisions -------------
    def decision_case(self) -> tuple[str, str, str, Callable[[], tuple[str, str]]]:
        """(phrase, reason, query, reviser) where reviser() -> (new phrase, reason)."""
        r = self.r
        t = self.take_template("decision", 12)
        if t == 0:
            return (
                "exclude trial accounts from the churn denominator",
                "they never had a paid period, so they can't churn in the finance sense",
                "How are trial accounts treated in the churn rate?",
                lambda: (
                    f"count trials that converted within {r.randint(8, 21)} days as paid from day one",
                    "finance pointed out that's how they book them",
                ),
            )
        if t == 1:
            n = r.choice([21, 28, 35])
            return (
                f"use a {n}-day rolling window for actives",
                "weekly counts jump around holidays",
                "What window defines active accounts?",
                lambda: (
                    f"use a {r.choice([42, 56, 60])}-day rolling window for actives instead",
                    "the short window made enterprise accounts look dormant",
                ),
            )
        if t == 2:
            p = r.choice(["99th", "99.5th", "98th"])
            return (
                f"winsorize basket size at the {p} percentile",
                "a handful of B2B orders dominate the mean",
                "How are basket-size outliers handled?",
                lambda: (
                    f"cap basket size at {r.randint(2, 9)},{r.randint(100, 999)} EUR instead of winsorizing",
                    "a fixed cap is easier to explain to finance",
                ),
            )
        if t == 3:
            n = r.choice([7, 14, 30])
            return (
                f"treat reactivations within {n} days as the same subscription",
                "card failures cause short gaps that aren't real churn",
                "How are quick reactivations counted?",
                lambda: (
                    f"treat reactivations within {r.choice([45, 60, 90])} days as continuous",
                    "dunning retries run for up to six weeks",
                ),
            )
        if t == 4:
            return (
                "convert MRR to EUR at month-end ECB rates",
                "that's what finance uses in the ledger",
                "Which FX rates convert MRR to EUR?",
                lambda: (
                    "convert MRR at the monthly average ECB rate",
                    "month-end rates made the GBP accounts jump around",
                ),
            )
        if t == 5:
            mon = r.choice(["March", "April", "July", "October"])
            return (
                f"drop {mon} from the trend chart",
                "the tracking outage undercounted events that month",
                "What is removed from the trend chart and why?",
                lambda: (
                    f"keep {mon} in but shade it grey with a footnote",
                    "dropping it made the trend look smoother than it is",
                ),
            )
        if t == 6:
            return (
                "assign cohorts by first paid invoice date, not signup date",
                "signup date mixes in months of free usage",
                "How are accounts assigned to cohorts?",
                lambda: (
                    "assign cohorts by subscription start date",
                    "invoice dates lag by a billing cycle for annual plans",
                ),
            )
        if t == 7:
            pct_null = r.randint(30, 60)
            return (
                "segment by plan tier instead of company size",
                f"company size is {pct_null}% null",
                "What dimension is used to segment churn?",
                lambda: (
                    "segment by seat band (1-5, 6-25, 26+)",
                    "plan tier hides the big differences inside the team plan",
                ),
            )
        if t == 8:
            return (
                "put the revenue chart on a log scale",
                "enterprise dwarfs everything else on a linear axis",
                "What scale does the revenue chart use?",
                lambda: ("split the revenue chart into two panels, enterprise separately", "people misread log scales"),
            )
        if t == 9:
            return (
                "dedupe events on account_id, event_name and ts keeping the earliest",
                "the mobile SDK double-sends",
                "How are duplicate events removed?",
                lambda: ("dedupe on event_id only", "data eng backfilled proper event ids last week"),
            )
        if t == 10:
            return (
                "report logo churn in the body and revenue churn in the appendix",
                "the board asked about customer counts",
                "Which churn measure leads the report?",
                lambda: (
                    "lead with revenue churn and move logo churn to the appendix",
                    "finance wants the headline in money",
                ),
            )
        reg = r.choice(["APAC", "LATAM", "Nordics"])
        return (
            f"leave the {reg} accounts out of the benchmark",
            "they are all on annual contracts so monthly churn is meaningless",
            "Which accounts are excluded from the benchmark?",
            lambda: (f"include {reg} but annualise their churn", "excluding them hid a real problem"),
        )

    def ev_decision(self, revise_at: int | None) -> None:
        r = self.r

        def gen_case() -> tuple[str, str, str, Callable[[], tuple[str, str]]]:
            ph, why, qq, rev = self.decision_case()
            return self.scope(ph), why, qq, rev

        case = self.pick_fresh(gen_case, key=lambda c: c[0], query=lambda c: c[2])
        phrase, reason, q, reviser = case

        def say(ph: str, why: str, user_says: bool) -> int:
            if user_says:
                msg = r.choice(
                    [
                        f"let's {ph}, {why}",
                        f"I think we {ph} — {why}",
                        f"decision: {ph}. reason: {why}",
                        f"ok so we {ph}; {why}.",
                    ]
                )
                idx = self.user(msg)
                self.reply(
                    [
                        "Agreed. Applying that.",
                        "Sounds right, updating the queries.",
                        "OK, I'll reflect it in the draft's method note.",
                    ]
                )
            else:
                self.user(
                    r.choice(
                        [
                            "what do you suggest?",
                            "how should we handle this?",
                            "your call, but tell me why",
                            self.request(),
                        ]
                    )
                )
                idx, _ = self.asst(
                    r.choice(
                        [
                            f"I'd {ph}: {why}. I'll note it in the caveats.",
                            f"My suggestion: {ph}, because {why}.",
                            f"Going with this: {ph} ({why}). Shout if you disagree.",
                        ]
                    )
                )
                self.user(r.choice(["ok", "fine", "agreed", "sure, do that"]))
                self.asst("Done.")
            return idx

        if revise_at is None:
            idx = say(phrase, reason, r.random() < 0.5)
            self.fact("decision", phrase, idx, q)
            return
        say(phrase, reason, r.random() < 0.5)
        self.used.add(phrase)
        self.queries.add(q)  # the revision will answer it; no other decision takes the question meanwhile

        def revise() -> None:
            def gen_rev() -> tuple[str, str]:
                ph, why = reviser()
                return self.scope(ph), why

            new, why = self.pick_fresh(gen_rev, key=lambda x: x[0])
            pre = r.choice(
                ["actually, change of plan: ", "revisiting the earlier call — ", "scratch what we said before, ", ""]
            )
            if r.random() < 0.6:
                idx = self.user(f"{pre}{new}, {why}.")
                self.reply(["Makes sense — switching and re-running the affected numbers."])
            else:
                self.user(r.choice(["anything you'd change in the method?", "numbers look odd to me, why?"]))
                idx, _ = self.asst(f"I'd revise one earlier call: {new}, because {why}.")
                self.user("agreed")
                self.asst("Updated.")
            self.fact("decision", new, idx, q)

        self.at(revise_at, revise)

    # ---------------------------------------------------------------- identifiers -----------
    def ev_identifier(self) -> None:
        r = self.r
        t = self.take_template("identifier", 12)

        def make() -> tuple[str, str, str]:
            if t == 0:
                v = f"{r.choice(['DATA', 'ANLT', 'RET'])}-{r.randint(100, 9999)}"
                return (
                    v,
                    f"the ticket for this is {v}, put it in the commit messages",
                    "What is the Jira key for the retention work?",
                )
            if t == 1:
                v = f"ds_{self.tok(8, '0123456789abcdef')}"
                return (
                    v,
                    f"finance's dataset id is {v} if you need to cross-check",
                    "What's the id of finance's dataset?",
                )
            if t == 2:
                v = f"EXP-{r.randint(1000, 9999)}"
                return (
                    v,
                    f"the onboarding-email test is experiment {v}, results are in",
                    "Which experiment id is the onboarding email test?",
                )
            if t == 3:
                v = f"{r.randint(100, 999)}{self.tok(2, '0123456789')}"
                v = f"looker:dashboards/{v}"
                return v, f"the CS team's churn watch is {v}", "What is the CS churn-watch dashboard id?"
            if t == 4:
                v = f"{self.gcp}.analytics_{self.tok(3)}"
                return (
                    v,
                    f"the curated tables are in {v} now, not the old dataset",
                    "Which BigQuery dataset has the curated tables?",
                )
            if t == 5:
                v = f"churn_weekly_{self.tok(3)}"
                return v, f"the Airflow DAG that refreshes this is {v}", "Which Airflow DAG refreshes the churn tables?"
            if t == 6:
                v = f"{self.tok(12, '0123456789abcdef')}"
                return (
                    v,
                    f"Mode report {v} has last quarter's version",
                    "What's the Mode report id with last quarter's version?",
                )
            if t == 7:
                v = f"pageId={r.randint(1000000000, 3999999999)}"
                return v, f"the metrics glossary is on Confluence, {v}", "Where is the metrics glossary page?"
            if t == 8:
                v = f"#{r.choice(['ret', 'churn', 'nrr'])}-{self.q.lower()}-{self.tok(3)}"
                return (
                    v,
                    f"post updates in {v}, that's where the stakeholders are",
                    "Which Slack channel gets the updates?",
                )
            if t == 9:
                v = f"job {r.randint(100000, 999999)}"
                return (
                    v,
                    f"dbt Cloud {v} is the nightly build, check it if tables look stale",
                    "Which dbt Cloud job is the nightly build?",
                )
            if t == 10:
                v = f"gs://{self.co.lower()}-finance-drop-{self.tok(4)}"
                return v, f"finance drops their files in {v}", "Where does finance drop its files?"
            v = f"sheet {self.tok(10, 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz0123456789')}"
            return (
                v,
                f"the targets are in the planning {v} (the 'FY targets' tab)",
                "Which spreadsheet holds the targets?",
            )

        v, sent, q = self.pick_fresh(make, key=lambda x: x[0], query=lambda x: x[2])
        style = r.randrange(4)
        if style == 0:
            idx = self.user(sent)
            self.reply(["Thanks, noted.", "Got it.", "OK."])
        elif style == 1:
            idx = self.user(f"{self.status_paragraph()}\n\nBtw {sent}.\n\n{self.request()}")
            self.do_any()
        elif style == 2:
            idx = self.user(f"{self.request()} — {sent}")
            self.do_any()
        else:
            idx = self.user(f"{self.request()}\n\nP.S. {sent}")
            self.do_any()
        self.fact("identifier", v, idx, q)

    # ---------------------------------------------------------------- findings --------------
    def finding_case(self) -> tuple[str, dict[str, Any], str, str, str]:
        """(tool, args, output, value, query)"""
        r = self.r
        t = self.take_template("finding", 12)
        if t == 0:
            lab = r.choice(
                [
                    "basket size",
                    "order value (EUR)",
                    "seats per account",
                    "days to first invoice",
                    "sessions per active week",
                ]
            )
            x = f"{r.uniform(2, 400):.2f}"
            v = f"median {lab}: {x}"
            return (
                "run_python",
                {
                    "code": f"print(f\"median {lab}: {{df['metric'].median():.2f}}\")\nprint(f\"p90: {{df['metric'].quantile(.9):.2f}}\")"
                },
                f"{v}\np90: {float(x) * r.uniform(1.5, 4):.2f}",
                v,
                f"What is the median {lab.split(' (')[0]}?",
            )
        if t == 1:
            key = r.choice(["fx_snapshot", "churn_grace_days", "holdout_share", "min_cohort_size"])
            val = {
                "fx_snapshot": f"ecb_{self.tok(5)}",
                "churn_grace_days": str(r.randint(3, 40)),
                "holdout_share": f"0.{r.randint(5, 25):02d}{r.randint(1, 9)}",
                "min_cohort_size": str(r.randint(31, 499)),
            }[key]
            v = f"{key}: {val}"
            path = f"config/report_{self.q.lower()}_{self.tok(3)}.yml"
            body = f"report:\n  quarter: {self.q}\n  currency: EUR\n  owner: {self.me}\nmetrics:\n  churn:\n    {v}\n    definition: subscription_end_not_renewed\n  nrr:\n    base: start_of_period_mrr\n"
            return (
                "read_file",
                {"path": path},
                body,
                v,
                f"What does the report config set for {key.replace('_', ' ')}?",
            )
        if t == 2:
            col = r.choice(
                ["referrer_host", "industry", "company_size", "utm_campaign", "cs_owner", "billing_country"]
            ) + r.choice(["", "_raw", "_v2"])
            pct = f"{r.uniform(20, 80):.1f}"
            v = f"worst null column: {col} ({pct}% null)"
            lines = [f"{c:<20} {r.uniform(0, 5):.1f}%" for c in r.sample(DF_COLS, 6)]
            return (
                "run_python",
                {
                    "code": "nulls = df.isna().mean().mul(100).round(1)\nprint(nulls.sort_values().to_string())\nprint(f'worst null column: {nulls.idxmax()} ({nulls.max()}% null)')"
                },
                "\n".join(lines) + f"\n{v}",
                v,
                "Which column has the most missing values?",
            )
        if t == 3:
            name = f"test_{r.choice(['net_mrr_matches_ledger', 'churn_rate_bounds', 'cohort_sizes_sum', 'fx_rates_present'])}_{self.tok(3)}"
            n = r.randint(60, 900)
            v = f"FAILED tests/test_metrics.py::{name}"
            out = (
                f"============================= test session starts ==============================\ncollected {n} items\n\n"
                f"tests/test_io.py {'.' * r.randint(10, 40)}\ntests/test_metrics.py {'.' * r.randint(5, 20)}F{'.' * r.randint(2, 10)}\n\n"
                f"=================================== FAILURES ===================================\n____ {name} ____\n"
                f"    assert abs(ours - ledger) / ledger < 0.005\nE   assert 0.0{r.randint(11, 99)} < 0.005\n\n"
                f"=========================== short test summary info ============================\n{v} - assert 0.0{r.randint(11, 99)} < 0.005\n"
                f"========================= 1 failed, {n - 1} passed in {r.uniform(3, 60):.2f}s ========================="
            )
            return ("bash", {"cmd": "pytest -q tests/"}, out, v, "Which test failed in the metrics suite?")
        if t == 4:
            lab = r.choice(["reactivation_rate_pct", "annual_share_pct", "partner_share_pct", "downgrade_rate_pct"])
            v = f"{lab} | {r.uniform(1, 60):.2f}"
            return (
                "run_sql",
                {"query": f"select round(100.0 * avg(flag::int), 2) as {lab} from analytics.fct_subscriptions"},
                f"-[ RECORD 1 ]-------------+-------\n{v}\n",
                v,
                f"What did the query return for {lab.replace('_', ' ')}?",
            )
        if t == 5:
            v = f"rows after dedupe: {r.randint(200000, 9000000):,}"
            return (
                "run_python",
                {
                    "code": "before = len(events)\nevents = events.drop_duplicates()\nprint(f'rows before: {before:,}')\nprint(f'rows after dedupe: {len(events):,}')"
                },
                f"rows before: {r.randint(9000001, 12000000):,}\n{v}",
                v,
                "How many event rows remain after deduplication?",
            )
        if t == 6:
            v = f"Mann-Whitney U={r.uniform(1e5, 9e6):.1f}, p={r.uniform(0.0001, 0.2):.4f}"
            return (
                "run_python",
                {
                    "code": "from scipy.stats import mannwhitneyu\nu, p = mannwhitneyu(a, b)\nprint(f'Mann-Whitney U={u:.1f}, p={p:.4f}')"
                },
                v,
                v,
                "What did the significance test on detractors vs promoters give?",
            )
        if t == 7:
            pair = r.choice([("tenure_days", "nps"), ("seats", "sessions_7d"), ("mrr_eur", "support_tickets")])
            v = f"corr({pair[0]}, {pair[1]}) = {r.uniform(-0.6, 0.6):.3f}"
            return (
                "run_python",
                {"code": f"print(f\"corr({pair[0]}, {pair[1]}) = {{df['{pair[0]}'].corr(df['{pair[1]}']):.3f}}\")"},
                v,
                v,
                f"How strongly are {pair[0]} and {pair[1]} correlated?",
            )
        if t == 8:
            seg = f"{r.choice(TIERS)}/{r.choice(COUNTRIES)}/{r.choice(CHANNELS)}"
            v = f"top churn segment: {seg} ({r.uniform(8, 40):.1f}%)"
            return (
                "run_python",
                {
                    "code": "top = churn_by_seg.sort_values('churn_pct', ascending=False).iloc[0]\nprint(f\"top churn segment: {top.name} ({top.churn_pct:.1f}%)\")"
                },
                v,
                v,
                "Which segment has the highest churn?",
            )
        if t == 9:
            a = r.randint(10000, 90000)
            v = f"warehouse {a:,} vs finance {a - r.randint(3, 400):,}"
            return (
                "run_python",
                {"code": "print(f'warehouse {wh:,} vs finance {fin:,}')"},
                v + "\n(diff explained by mid-month plan changes?)",
                v,
                "How do warehouse and finance account counts compare?",
            )
        if t == 10:
            v = f"duplicate event_ids: {r.randint(1000, 500000):,}"
            return (
                "run_python",
                {"code": 'print(f"duplicate event_ids: {events.event_id.duplicated().sum():,}")'},
                v,
                v,
                "How many duplicate event ids are there?",
            )
        v = f'"refresh_interval_min": {r.randint(7, 59)}'
        path = f"dashboards/exec_retention_live_{self.tok(3)}.json"
        body = json.dumps(
            {"title": "Exec retention (live)", "refresh_interval_min": 0, "owner": self.person()[2]}, indent=2
        ).replace('"refresh_interval_min": 0', v)
        return ("read_file", {"path": path}, body, v, "How often does the live exec dashboard refresh?")

    def ev_finding(self) -> None:
        r = self.r
        tool, args, out, v, q = self.pick_fresh(self.finding_case, key=lambda c: c[3], query=lambda c: c[4])
        if tool == "run_python" and r.random() < 0.6:
            out = self.py_output(SMALL_LO, 6000) + "\n\n" + out
        self.user(r.choice([self.request(), "check it", "what does it say?", "let's see the number"]))
        _, t = self.run(tool, args, out, r.choice([None, "Checking."]))
        self.fact("finding", v, t, q)
        self.asst(
            r.choice(
                [
                    "That's the number. " + self.analysis_summary(),
                    "Interesting — noted for the draft.",
                    "OK, that's in line with what I expected.",
                    "That one surprised me a bit; I'll sanity-check it later.",
                ]
            )
        )

    # ---------------------------------------------------------------- plans -----------------
    def plan_steps(self) -> list[tuple[str, str, str]]:
        """(category, step phrase, question about that step)."""
        r = self.r
        mon = r.choice(["January", "February", "March", "April", "June", "August", "September", "November"])
        flag = r.choice(["trial", "reactivation", "test-account", "partner", "migration"])
        return [
            (
                "join",
                f"join on account_id and {r.choice(['billing_month', 'week_start', 'plan_start', 'invoice_month', 'contract_id'])}",
                "Which keys does the plan join on?",
            ),
            (
                "bands",
                f"bucket tenure into {r.choice([14, 30, 45, 60])}/{r.choice([90, 120, 150])}/{r.choice([180, 270, 365])}-day bands",
                "Which tenure bands does the plan use?",
            ),
            (
                "rebuild",
                f"rebuild {r.choice(MARTS)} with the new {flag} flag",
                "Which model gets rebuilt, and with which new flag?",
            ),
            (
                "compare",
                f"compare against the {r.choice(['finance', 'CRM', 'billing', 'Stripe'])} export line by line for {r.randint(20, 90)} random accounts",
                "What is the planned line-by-line comparison?",
            ),
            ("backfill", f"backfill {r.choice(STAGING)} from {mon} onwards", "What gets backfilled, and from when?"),
            (
                "segment",
                f"segment the retention curves by {r.choice(['seat band', 'acquisition channel', 'billing cycle', 'industry', 'signup device', 'first integration'])}",
                "How will the retention curves be segmented?",
            ),
            (
                "review",
                f"send the draft to {self.person()[0].split()[0]} for a numbers check by {r.choice(['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'])}",
                "Who gets the draft for a numbers check, and by when?",
            ),
            (
                "caveat",
                f"write the caveats paragraph about the {mon} tracking outage",
                "Which outage does the planned caveats paragraph cover?",
            ),
            (
                "handcheck",
                f"hand-check {r.randint(15, 120)} churned accounts to sanity-check the churn flag",
                "How many churned accounts will be checked by hand?",
            ),
            (
                "cox",
                f"fit a Cox model with {r.choice(['plan tier', 'channel', 'NPS', 'industry', 'country'])} and {r.choice(['seats', 'tenure', 'discount', 'MRR'])} as covariates",
                "Which covariates go into the planned Cox model?",
            ),
            (
                "freeze",
                f"freeze the numbers at the {r.choice(['month-end', 'quarter-close', 'Friday', 'end-of-sprint', 'board-pack', 'finance-close'])} snapshot of {mon}",
                "At which snapshot will the numbers be frozen?",
            ),
            (
                "dedupe",
                f"dedupe the events on {r.choice(['event_id', 'account_id + ts', 'session_id + ts'])} within {r.choice([1, 2, 5, 10, 30])}-second windows",
                "How will the events be deduplicated?",
            ),
            (
                "pilots",
                f"drop the {r.randint(6, 60)} pilot accounts before computing any rate",
                "How many pilot accounts get dropped?",
            ),
            (
                "reconcile",
                f"reconcile MRR with the finance ledger to within {r.choice(['0.1', '0.25', '0.5', '1'])}%",
                "How closely must MRR reconcile with the ledger?",
            ),
        ]

    def ev_plan(self) -> None:
        r = self.r
        t = self.take_template("plan", 8)
        done = self._plan_cats

        def make() -> tuple[list[str], int, str, str]:
            full = self.plan_steps()
            pool = [p for p in full if p[1] not in self.used]  # earlier plans' facts stay said once
            pool = pool if len(pool) >= 5 else full  # (very long sessions run out of them)
            picked = r.sample(pool, r.randint(3, 5))
            fresh_cats = [i for i, p in enumerate(picked) if p[0] not in done]
            k = r.choice(fresh_cats) if fresh_cats else r.randrange(len(picked))
            return [p[1] for p in picked], k, picked[k][2], picked[k][0]

        steps, k, q, cat = self.pick_fresh(make, key=lambda x: x[0][x[1]], query=lambda x: x[2])
        done.append(cat)
        v = steps[k]
        if t == 0:
            idx = self.user("Plan: first " + ", then ".join(steps) + ".")
            self.reply(["Sounds good, starting with step one."])
        elif t == 1:
            self.user(r.choice(["how would you approach the churn deep-dive?", "what's the plan from here?"]))
            idx, _ = self.asst(
                "Here's how I'd approach it:\n"
                + "\n".join(f"{i + 1}. {s}" for i, s in enumerate(steps))
                + "\n\nI'll start with 1 unless you want to reorder."
            )
            self.user("go")
            self.asst("Starting.")
        elif t == 2:
            self.user("let's track the next bits in the todo list")
            idx, ids = self.asst(
                "Adding the plan to the todo list.",
                [("todo_write", {"todos": [{"content": s, "status": "pending"} for s in steps]})],
            )
            self.tool(ids[0], "Todos updated")
            self.asst("The plan is in the todo list.")
        elif t == 3:
            idx = self.user("ok so the way I see it: we " + "; then we ".join(steps) + ". that's the week.")
            self.reply(["Clear. I'll work through it in that order."])
        elif t == 4:
            self.user(self.request())
            self.do_sql(small=True)
            idx, _ = self.asst("Next steps, in order:\n" + "\n".join(f"- {s}" for s in steps))
        elif t == 5:
            idx = self.user(
                f"{self.status_paragraph()}\n\nFor the rest of the week I'd like to " + ", then ".join(steps) + "."
            )
            self.reply(["OK — I'll follow that order."])
        elif t == 6:
            self.user("order of work for tomorrow?")
            idx, _ = self.asst("Tomorrow: " + " → ".join(steps) + ".")
        else:
            idx = self.user("let's do this in passes:\n" + "\n".join(f"pass {i + 1}: {s}" for i, s in enumerate(steps)))
            self.reply(["Got it, pass 1 first."])
        self.fact("plan", v, idx, q)

    # ================================================================ schedule ==============
    def spread(self, k: int, lo_floor: float = 0.0) -> list[int]:
        r = self.r
        out = []
        per = [k // 3 + (1 if i < k % 3 else 0) for i in range(3)]
        for band, ((lo, hi), m) in enumerate(zip(BANDS, per)):
            if band == 2 and self.n < 1000:
                hi -= 0.03  # short sessions are dense with facts, so episodes run later than planned
            lo = max(lo, lo_floor)
            for _ in range(m):
                out.append(int(r.uniform(lo, hi) * self.n))
        return sorted(out)

    def schedule(self) -> None:
        r = self.r
        k = max(6, self.n // 250) if self.n >= 400 else max(1, self.n // 70)  # short sessions: fewer, so they fit
        for kind in KINDS:
            if kind == "correction":
                floor = min(0.25, 60 / self.n)
                for t in self.spread(k, floor):
                    gap = r.randint(min(50, t // 2), max(min(300, t - 6), min(50, t // 2)))
                    self.at(max(2, t - gap), partial(self.ev_correction, t))
            elif kind == "error":
                for t in self.spread(k):
                    fix_after = r.randint(6, 60) if r.random() < 0.6 else None
                    self.at(t, partial(self.ev_error, fix_after))
            elif kind == "decision":
                for t in self.spread(k):
                    if r.random() < 0.45 and t > 40:
                        first = t - r.randint(20, min(200, t - 10))
                        self.at(first, partial(self.ev_decision, t))
                    else:
                        self.at(t, partial(self.ev_decision, None))
            else:
                fn = {
                    "instruction": self.ev_instruction,
                    "file": self.ev_file,
                    "identifier": self.ev_identifier,
                    "finding": self.ev_finding,
                    "plan": self.ev_plan,
                }[kind]
                for t in self.spread(k):
                    self.at(t, fn)

    def system(self) -> None:
        self.msgs.append(
            {
                "role": "system",
                "content": (
                    f"You are a data analysis agent working for {self.co}'s analytics team with {self.me}. You have tools to run Python "
                    "(pandas, numpy, scipy, matplotlib), run SQL against the warehouse (Postgres-compatible, plus DuckDB and Snowflake "
                    "engines), read and write files in the analytics repository (dbt project, notebooks, reports), list directories, make "
                    "plots, run shell commands, and keep a todo list.\n\n"
                    "Work carefully with data: check row counts after joins, look for duplicates and nulls, and say when a number is "
                    "uncertain. Explain findings in plain language. When writing report text, match the tone the user asks for. Never "
                    "invent numbers; if you have not computed something, say so.\n\n"
                    f"Repository root: /work. Warehouse project: {self.gcp}. Today is a weekday in {self.q} {self.year}."
                ),
            }
        )

    def fill(self, remaining: int) -> None:
        while remaining > 0:
            heavy = self.deficit() > 0
            if remaining in (3, 5, 7) or (remaining > 7 and self.r.random() < (0.45 if heavy else 0.3)):
                # agent continues on its own: assistant(tool call), tool, assistant
                code, out = self.py_cell()
                self.run("run_python", {"code": code}, out, "One more check before I hand back.")
                self.asst(self.analysis_summary())
                remaining -= 3
            elif remaining >= 4 and self.r.random() < (0.95 if heavy else 0.6):
                self.user(self.request())
                query, out = self.sql_cell()
                self.run("run_sql", {"query": query}, out)
                self.asst(self.analysis_summary())
                remaining -= 4
            else:
                self.ep_chat()
                remaining -= 2
        assert remaining == 0

    def build(self) -> Session:
        self.system()
        self.schedule()
        n_fact_events = len(self._events)
        target = self.n - 1
        reserve = 30
        while len(self.msgs) < target - reserve:
            if self._events and self._events[0][0] <= len(self.msgs):
                _, _, fn = heapq.heappop(self._events)
                fn()
            else:
                self.noise_episode()
        del n_fact_events
        self.fill(target - len(self.msgs))
        self.user(
            self.r.choice(
                [
                    "ok, where are we? give me a status of the report and what's still open",
                    "can you plot weekly actives again but only for enterprise?",
                    "last thing today: tighten the exec summary and tell me what numbers are still unconfirmed",
                    "before I send this to finance, list every assumption we made",
                    "what did we decide about the churn definition, and is the draft consistent with it?",
                ]
            )
        )
        facts = sorted(self.facts, key=lambda f: f["index"])
        return Session(messages=self.msgs, facts=[Fact(**f) for f in facts], seed=self.seed, pasted=self.pasted)


def make_session(seed: int, messages: int) -> Session:
    """A data-analysis session of exactly ``messages`` messages with planted facts (deterministic per seed)."""
    if messages < 120:
        raise ValueError("gen_data needs at least 120 messages to plant its facts")
    b = Builder(seed, messages)
    session = b.build()
    assert len(session.messages) == messages, (len(session.messages), messages)
    return session


# ------------------------------------------------------------------------------------------------
def check(session: Session, messages: int, distinct_questions: bool = True) -> None:
    msgs = session.messages
    assert len(msgs) == messages
    assert msgs[0]["role"] == "system" and msgs[-1]["role"] == "user"
    texts = [text_of(m) for m in msgs]
    offsets, pos = [], 0
    for t in texts:
        offsets.append(pos)
        pos += len(t) + 1
    blob = "\x00".join(texts)
    values = [f.value for f in session.facts]
    assert len(values) == len(set(values)), "duplicate fact values"
    limit = int(0.9 * messages)
    for f in session.facts:
        assert f.kind in KINDS, f
        assert f.value in texts[f.index], f
        first = blob.find(f.value)
        assert first >= offsets[f.index], (f, "occurs before its message")
        assert f.value not in f.query, f
        assert f.index < limit, (f, "in the recent tail")
        if f.kind == "correction":
            assert f.stale and f.stale_index is not None and f.stale in texts[f.stale_index] and f.stale_index < f.index
            assert f.stale not in f.value and f.value not in f.stale
        if f.resolved is not None:
            assert f.resolved > f.index
    if distinct_questions:  # every fact answers its own question (sessions up to a few thousand messages)
        topics = [(f.kind, TOPICS.get(f.query, f.query)) for f in session.facts]
        assert len(topics) == len(set(topics)), [t for t in topics if topics.count(t) > 1]
    for i, span in session.pasted:
        assert msgs[i]["role"] == "user" and span in msgs[i]["content"]
    pending: set[str] = set()
    for m in msgs:
        if m["role"] == "assistant":
            assert not pending, "tool results missing"
            for c in m.get("tool_calls") or []:
                json.loads(c["function"]["arguments"])
                pending.add(c["id"])
        elif m["role"] == "tool":
            assert m["tool_call_id"] in pending
            pending.discard(m["tool_call_id"])
        else:
            assert not pending, "tool results missing"
    assert not pending


if __name__ == "__main__":
    for size in (400, 3000):
        for seed in (1, 2, 3):
            t0 = time.perf_counter()
            s = make_session(seed, size)
            dt = time.perf_counter() - t0
            check(s, size)
            again = make_session(seed, size)
            assert json.dumps(again.messages) == json.dumps(s.messages) and again.facts == s.facts, "not deterministic"
            counts = {k: sum(1 for f in s.facts if f.kind == k) for k in KINDS}
            chars = s.chars()
            resolved = sum(1 for f in s.facts if f.kind == "error" and f.resolved is not None)
            last = max(f.index for f in s.facts) / size
            print(
                f"seed={seed} messages={size}: {chars:,} chars ~{chars // 4:,} tokens, {chars / size:.0f} chars/msg, "
                f"built in {dt:.2f}s, pasted={len(s.pasted)}, errors resolved={resolved}, last fact at {last:.2f}"
            )
            print("   ", " ".join(f"{k}={v}" for k, v in counts.items()))
    print("ok")
