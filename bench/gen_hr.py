"""HR and recruiting operations sessions with planted facts, for the fidelity benchmark.

    from gen_hr import make_session
    session = make_session(seed=1, messages=400)    # about 150k tokens
    session = make_session(seed=1, messages=3000)   # about 1.2M tokens

The domain: an HR and recruiting operations agent for Lindqvist & Sousa, a 900-person logistics-software company
with offices in Lisbon, Kraków and Milan, working for the people-ops lead, Beatriz Almeida. She dictates on her
phone (homophones, no punctuation, "full stop" spelled out, run-on sentences), writes terse Slack lines or long
email-style messages, and mixes English with Portuguese, Polish and Italian. The agent calls ats_search,
candidate_get, calendar_book, hris_lookup, payroll_export, offer_draft, background_check, doc_search, email_send,
policy_get and headcount_report, whose results are long: ATS JSON, CVs, calendar conflicts, HRIS records, payroll
CSV exports of hundreds of rows, background-check reports, policy passages, headcount tables. She pastes CVs, job
descriptions, hiring managers' interview feedback (whose imperatives, "Do not move forward with this candidate",
are not hers), candidate emails, a works-council agreement excerpt and payroll CSV snippets, all listed in
``Session.pasted``; once or twice she pastes a company policy and adopts it, so its rules are hers (not listed).

Planted (``Session.facts``), eight kinds: standing instructions in many shapes (indirect, casual, reason first, in
a second paragraph, in Portuguese, Polish or Italian, a profile fact, a clause of the adopted policy); corrections,
made loosely and often far from the value they replace; decisions, some revised later; tool errors, some resolved
by a later run; files the agent wrote; identifiers (requisitions, candidates, employee numbers, background-check
cases, IBANs, ...); findings in tool output needed later; and steps of her plans. Facts sit between 3% and 88% of
the session; a value occurs in no message before its own and only in the few after it, never in the filler
(one-off requests done once answered, chit-chat, acknowledgements). Same seed and size, same bytes.

Written from its own short spec, without reading the engine under test.
"""

from __future__ import annotations

import datetime as dt
import json
import random
import unicodedata
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sessiongen import Fact, Session, text_of

Message = dict[str, Any]
KINDS = ("instruction", "correction", "decision", "error", "file", "identifier", "finding", "plan")
TOOLS = ("ats_search", "candidate_get", "calendar_book", "hris_lookup", "payroll_export", "offer_draft",
         "background_check", "doc_search", "email_send", "policy_get", "headcount_report")
CHARS_PER_MESSAGE = 1700  # what the sizing aims at; 400 messages come out near 150k tokens at 4 chars a token
DOMAIN = "lindqvist-sousa.com"
BASE_DAY = dt.date(2025, 5, 12)
SPAN_DAYS = 63
LOW, HIGH = 0.045, 0.82  # where facts are planted, as fractions of the session


def per_kind(messages: int) -> int:
    """Facts of each kind: 6 at 400 messages, 12 at 3000, linear in between and beyond, at least 1."""
    if messages >= 400:
        return 6 + round(6 * (messages - 400) / 2600)
    return max(1, round(6 * messages / 400))


# --- people, places, words ---------------------------------------------------------------------------------------
# The filler draws from one set of names, ids and formats, the planted facts from another, so that a planted value
# cannot turn up in the noise by chance.

OFFICES = ("Lisbon", "Kraków", "Milan")
COUNTRY = {"Lisbon": "PT", "Kraków": "PL", "Milan": "IT"}
FIRST = {
    "PT": ("Ana", "João", "Rui", "Sofia", "Pedro", "Carla", "Miguel", "Marta", "Tiago", "Rita", "Nuno", "Catarina",
           "Hugo", "Sara", "Filipe", "Joana", "André", "Mariana", "Ricardo", "Patrícia"),
    "PL": ("Tomasz", "Katarzyna", "Piotr", "Agnieszka", "Paweł", "Magdalena", "Michał", "Anna", "Krzysztof", "Ewa",
           "Marcin", "Joanna", "Łukasz", "Monika", "Jakub", "Karolina", "Adam", "Natalia", "Grzegorz", "Aleksandra"),
    "IT": ("Marco", "Giulia", "Alessandro", "Francesca", "Davide", "Elena", "Luca", "Valentina", "Andrea", "Silvia",
           "Federico", "Martina", "Simone", "Alessia", "Stefano", "Paola", "Giorgio", "Laura", "Riccardo", "Claudia"),
}
LAST = {
    "PT": ("Silva", "Costa", "Pereira", "Santos", "Ferreira", "Oliveira", "Rodrigues", "Martins", "Gomes", "Lopes",
           "Marques", "Ribeiro", "Carvalho", "Teixeira", "Moreira", "Correia", "Pinto", "Cunha", "Rocha", "Neves"),
    "PL": ("Nowak", "Wójcik", "Kowalczyk", "Woźniak", "Mazur", "Kaczmarek", "Król", "Wieczorek", "Michalak",
           "Adamczyk", "Walczak", "Sikora", "Baran", "Szewczyk", "Kubiak", "Duda"),
    "IT": ("Rossi", "Bianchi", "Ricci", "Romano", "Greco", "Conti", "Esposito", "Colombo", "Marino", "Bruno",
           "Gallo", "Costa", "Mancini", "Rizzo", "Lombardi", "Moretti"),
}
FACT_FIRST = {"PT": ("Inês", "Gonçalo", "Leonor", "Duarte", "Matilde", "Rodrigo"),
              "PL": ("Zofia", "Bartosz", "Wiktoria", "Szymon", "Kacper", "Julia"),
              "IT": ("Chiara", "Lorenzo", "Benedetta", "Matteo", "Ginevra", "Tommaso")}
FACT_LAST = {"PT": ("Quaresma", "Sarmento", "Vasconcelos", "Magalhães", "Figueiredo", "Brandão"),
             "PL": ("Dudek", "Pawlak", "Wróbel", "Zając", "Sobczak", "Kmieć"),
             "IT": ("Castellucci", "Bellandi", "Fabbri", "Montanari", "Gentile", "Santoro")}
COLLEAGUES = (("Henrik", "Lindqvist", "CEO"), ("Marek", "Sikora", "finance and payroll"),
              ("Tomasz", "Wójcik", "engineering director, Kraków"), ("Giulia", "Conti", "data lead, Milan"),
              ("Rui", "Martins", "platform lead, Lisbon"), ("Sofia", "Pereira", "senior recruiter"),
              ("Katarzyna", "Nowak", "HR business partner, Kraków"), ("Elena", "Colombo", "legal counsel, Milan"),
              ("Paweł", "Baran", "support manager, Kraków"), ("Mariana", "Lopes", "HR business partner, Lisbon"),
              ("Davide", "Greco", "sales director, Italy"), ("Nuno", "Cunha", "customer success lead, Lisbon"))
MANAGERS = (2, 3, 4, 8, 10, 11)  # colleagues who hire
DEPTS = ("Engineering", "Product", "Data", "Customer Success", "Support", "Sales", "Finance", "People", "Operations")
TITLES = ("Backend Engineer (Go)", "Senior Frontend Engineer", "Data Engineer", "Support Specialist (Polish)",
          "Account Executive Italy", "Payroll Analyst", "DevOps Engineer", "Product Manager, Routing",
          "QA Engineer", "Customer Success Manager", "Talent Acquisition Partner", "Finance Controller",
          "UX Researcher", "Android Developer", "Sales Engineer", "Warehouse Integrations Engineer")
ROLES = ("Staff Backend Engineer", "Data Platform Lead", "Site Reliability Engineer", "Product Designer",
         "Solutions Architect", "Engineering Manager, Fleet", "Technical Writer", "Security Engineer",
         "Kotlin Developer", "Pricing Analyst", "People Partner", "Implementation Consultant")
COMPANIES = ("Allegro", "Farfetch", "OutSystems", "Feedzai", "Talkdesk", "Docplanner", "Brainly", "Satispay",
             "Bending Spoons", "Yoox", "Unbabel", "Sword Health", "LiveChat", "Nexi", "Codacy", "DHL IT Services",
             "Kuehne+Nagel", "Glovo", "Revolut", "Sabre Kraków")
SKILLS = ("Go", "Kotlin", "Python", "Kafka", "PostgreSQL", "Kubernetes", "Terraform", "React", "TypeScript",
          "dbt", "Airflow", "Snowflake", "gRPC", "Rust", "Java", "Spark", "Salesforce", "Zendesk", "SAP HCM")
PROVIDERS = ("gmail.com", "outlook.com", "wp.pl", "libero.it", "sapo.pt", "proton.me", "onet.pl", "icloud.com")
VENDORS = ("Certn", "HireRight", "Sterling", "Veremark")
ROOMS = ("Sala Duomo", "Sala Sforza", "Sala Castello", "Sala Brera Piccola", "Wawel", "Kazimierz", "Alfama",
         "Belém", "Chiado")
STAGES = ("applied", "screen", "tech interview", "onsite", "final", "offer", "hired", "rejected")
SOURCES = ("LinkedIn", "referral", "careers page", "agency", "Pracuj.pl", "InfoJobs", "Net-Empregos", "event")
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")
FEMALE = {"Inês", "Leonor", "Matilde", "Zofia", "Wiktoria", "Julia", "Chiara", "Benedetta", "Ginevra", "Ana", "Sofia",
          "Carla", "Marta", "Rita", "Catarina", "Sara", "Joana", "Mariana", "Patrícia", "Katarzyna", "Agnieszka",
          "Magdalena", "Anna", "Ewa", "Joanna", "Monika", "Karolina", "Natalia", "Aleksandra", "Giulia", "Francesca",
          "Elena", "Valentina", "Silvia", "Martina", "Alessia", "Paola", "Laura", "Claudia"}
CITY_IT = {"Lisbon": "Lisbona", "Kraków": "Cracovia", "Milan": "Milano"}
CITY_PL = {"Lisbon": "Lizbonie", "Kraków": "Krakowie", "Milan": "Mediolanie"}
WHEN = (("tomorrow", "amanhã", "jutro", "domani"), ("on Thursday", "na quinta", "w czwartek", "giovedì"),
        ("on Monday", "na segunda", "w poniedziałek", "lunedì"),
        ("next week", "na próxima semana", "w przyszłym tygodniu", "la settimana prossima"))
LANGS = ("en", "pt", "pl", "it")
MONTHS_IT = ("gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre",
             "ottobre", "novembre", "dicembre")


def _ascii(text: str) -> str:
    text = text.replace("ł", "l").replace("Ł", "L")
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _long(d: dt.date) -> str:
    """A date as a fact says it ("Thursday 12 June"); the filler never writes dates this way."""
    return f"{WEEKDAYS[d.weekday()]} {d.day} {MONTHS[d.month - 1]}"


def _nth(d: dt.date) -> str:
    return f"{WEEKDAYS[d.weekday()]} the {_ordinal(d.day)}"


def _abbr(d: dt.date) -> str:
    """A date as the filler writes it ("Thu 12 Jun")."""
    return f"{WEEKDAYS[d.weekday()][:3]} {d.day} {MONTHS[d.month - 1][:3]}"


def _eur(x: int) -> str:
    return f"€{x:,}"


def _sp(x: int) -> str:
    return f"{x:,}".replace(",", " ")


def _swap(digits: str, rng: random.Random) -> str:
    """The same digits with two neighbours swapped (they must differ): the easily confused kind of typo. The first
    digit stays, so the number stays in the range the facts draw from (the filler draws from another)."""
    spots = [i for i in range(1, len(digits) - 1) if digits[i] != digits[i + 1]]
    if not spots:
        return digits[:-1] + str((int(digits[-1]) + 1) % 10)
    i = rng.choice(spots)
    return digits[:i] + digits[i + 1] + digits[i] + digits[i + 2:]


@dataclass
class _Who:
    first: str
    last: str
    country: str

    @property
    def full(self) -> str:
        return f"{self.first} {self.last}"

    @property
    def slug(self) -> str:
        return _ascii(f"{self.first}_{self.last}").lower()

    @property
    def she(self) -> str:
        return "she" if self.first in FEMALE else "he"

    @property
    def his(self) -> str:
        return "her" if self.first in FEMALE else "his"

    @property
    def him(self) -> str:
        return "her" if self.first in FEMALE else "him"

    @property
    def o(self) -> str:  # the Portuguese article before a first name
        return "a" if self.first in FEMALE else "o"

    def mail(self, provider: str) -> str:
        return f"{_ascii(self.first).lower()}.{_ascii(self.last).lower()}@{provider}"


@dataclass
class _Cand:
    id: str
    who: _Who
    email: str
    phone: str
    city: str
    title: str
    company: str
    years: int
    req: str
    stage: str
    source: str
    applied: str
    notice: str
    expectation: str
    recruiter: str
    skills: list[str]
    langs: list[str]
    cached: str = ""


@dataclass
class _Emp:
    no: str
    who: _Who
    office: str
    dept: str
    title: str
    band: str
    cc: str
    salary: int
    hired: str
    manager: str
    email: str
    phone: str
    contract: str
    status: str
    cached: str = ""
    pay: str = ""


@dataclass
class _Req:
    id: str
    title: str
    office: str
    hm: str
    band: str
    status: str
    opened: str
    openings: int


# --- the parameters of planted facts -----------------------------------------------------------------------------

class _Ctx:
    """Draws fact parameters from the fact-only pools and ranges, never the same one twice in a session."""

    def __init__(self, rng: random.Random, n: int, builder: _Builder) -> None:
        self.rng = rng
        self.n = n
        self.b = builder
        self.taken: set[str] = set()

    def _fresh(self, make: Callable[[], str], tries: int = 400) -> str:
        """A value not drawn before, if one can be found (small pools such as names and roles run out in very
        long sessions; then a repeat is fine, and the redraw in ``_Builder._draw`` keeps fact values apart)."""
        value = make()
        for _ in range(tries):
            if value not in self.taken:
                break
            value = make()
        self.taken.add(value)
        return value

    def who(self, country: str | None = None) -> _Who:
        rng = self.rng
        country = country or rng.choice(("PT", "PL", "IT"))
        key = self._fresh(lambda: f"{rng.choice(FACT_FIRST[country])} {rng.choice(FACT_LAST[country])}")
        first, last = key.split(" ", 1)
        return _Who(first, last, country)

    def req(self) -> str:
        def make() -> str:
            while True:
                d = str(self.rng.randint(2000, 3999))
                if d[2] != d[3]:
                    return f"REQ-{d}"
        return self._fresh(make)

    def cand(self) -> str:
        return self._fresh(lambda: f"CND-{self.rng.randint(600000, 999999)}")

    def emp(self) -> str:
        return self._fresh(lambda: f"LS-{self.rng.randint(60000, 99999)}")

    def cc(self) -> str:
        return self._fresh(lambda: f"CC-{self.rng.randint(5000, 9999)}")

    def phone(self, country: str) -> str:
        r = self.rng
        make = {"PT": lambda: f"+351 91{r.randint(0, 9)} {r.randint(100, 999)} {r.randint(100, 999)}",
                "PL": lambda: f"+48 60{r.randint(0, 9)} {r.randint(100, 999)} {r.randint(100, 999)}",
                "IT": lambda: f"+39 34{r.randint(0, 9)} {r.randint(100, 999)} {r.randint(1000, 9999)}"}[country]
        return self._fresh(make)

    def iban(self, country: str) -> str:
        r = self.rng

        def groups(k: int) -> str:
            return " ".join(f"{r.randint(0, 9999):04d}" for _ in range(k))
        make = {"PT": lambda: f"PT50 {groups(5)} {r.randint(0, 9)}",
                "PL": lambda: f"PL{r.randint(10, 99)} {groups(6)}",
                "IT": lambda: f"IT{r.randint(10, 99)} {r.choice('ABCDX')}{r.randint(100, 999)} {groups(4)} {r.randint(100, 999)}"}[country]
        return self._fresh(make)

    def role(self) -> str:
        return self._fresh(lambda: self.rng.choice(ROLES), tries=40)

    def day(self, f: float, lo: int = 0, hi: int = 0) -> dt.date:
        """A working day ``lo``..``hi`` days after the session's date at fraction ``f``."""
        d = BASE_DAY + dt.timedelta(days=int(f * SPAN_DAYS) + self.rng.randint(lo, hi))
        while d.weekday() >= 5:
            d += dt.timedelta(days=1)
        return d

    def num(self, lo: int, hi: int) -> int:
        return self.rng.randint(lo, hi)

    def odd_money(self, lo: int, hi: int) -> int:
        """An amount the filler never writes: a multiple of 10 that is not a multiple of 500."""
        while True:
            x = self.rng.randint(lo // 10, hi // 10) * 10
            if x % 500:
                return x

    def colleague(self, only: tuple[int, ...] = MANAGERS) -> str:
        return COLLEAGUES[self.rng.choice(only)][0]


Spec = dict[str, Any]


# --- instructions: her standing rules, in many shapes -----------------------------------------------------------

ACKS = ("Thanks, that summary is useful.", "Perfeito, obrigada.", "ok that helps", "Great, saw the invite.",
        "Dzięki, wszystko jasne.", "Grazie, chiaro.", "Good, one less thing.")


def _i_noon(c: _Ctx, f: float) -> Spec:
    v = f"offers always went out before {c.rng.choice(['10:30', '11:00', '11:30', '12:00'])} Lisbon time"
    return {"value": v, "query": "the time of day by which offers should go out",
            "text": f"Morning! Quick one before the leadership sync. It'd be great if {v} — Milan and Kraków are an "
                    "hour ahead of us and an offer that lands late in the afternoon just sits unread overnight."}


def _i_cc(c: _Ctx, f: float) -> Spec:
    v = f"{c.rng.choice(['hiring-audit', 'candidate-trail', 'offers-archive', 'recruiting-log'])}-{c.num(10, 99)}@{DOMAIN}"
    return {"value": v, "query": "which mailbox to copy on anything sent to candidates",
            "text": f"btw cc {v} on anything that goes out to candidates, legal wants a trail of it"}


def _i_meal(c: _Ctx, f: float) -> Spec:
    v = f"subsídio de refeição de {c.rng.choice(['9,60', '10,20', '8,32', '10,46'])} € por dia em cartão"
    return {"value": v, "query": "the meal allowance written into Portuguese offer letters",
            "text": f"Uma coisa que me esqueci de dizer: nas cartas de oferta para Portugal põe sempre o {v}, "
                    "não em dinheiro. Obrigada!"}


def _i_noncompete(c: _Ctx, f: float) -> Spec:
    v = f"zakazie konkurencji na {c.rng.choice([6, 9, 12])} miesięcy z odszkodowaniem {c.rng.choice([25, 30, 40, 50])}%"
    return {"value": v, "query": "the non-compete clause for senior roles in Kraków",
            "text": f"Jeszcze jedno: przy rolach seniorskich w Krakowie zawsze dodawaj klauzulę o {v} "
                    "wynagrodzenia. Katarzyna potwierdziła to z prawnikiem."}


def _i_ccnl(c: _Ctx, f: float) -> Spec:
    v = f"CCNL Commercio, {c.rng.choice(['Quadro', 'I livello', 'II livello'])}, con periodo di prova di {c.rng.choice([45, 60, 90])} giorni"
    return {"value": v, "query": "the collective agreement and probation to use in Milan offers",
            "text": f"Per Milano, d'ora in poi nelle offerte usa il {v} di calendario. Elena dice che è più pulito così."}


def _i_nudge(c: _Ctx, f: float) -> Spec:
    v = f"a nudge {c.num(2, 6)} hours after each interview"
    city = c.rng.choice(OFFICES)
    return {"value": v, "query": "when to nudge hiring managers about feedback forms",
            "text": f"{c.rng.choice(ACKS)}\n\nThe hiring managers in {city} tend to sit on feedback forms, so {v} "
                    "works well with them, and a second one the next morning if nothing has come in."}


def _i_reject_box(c: _Ctx, f: float) -> Spec:
    v = f"rekrutacja-{c.num(10, 99)}@{DOMAIN}"
    return {"value": v, "query": "the mailbox rejections to Polish candidates are sent from",
            "text": "Because the Kraków works council reads every rejection we send, rejections for Polish candidates "
                    f"go out from {v} and not from a hiring manager's own inbox."}


def _i_phone(c: _Ctx, f: float) -> Spec:
    v = c.phone("PT")
    return {"value": v, "query": "Beatriz's direct phone line",
            "text": f"if an agency or a candidate needs me directly my direct line is {v} the switchboard keeps "
                    "dropping calls so just give them that one"}


def _i_ceiling(c: _Ctx, f: float) -> Spec:
    v = f"above {_eur(c.odd_money(68000, 79000))} for an L4 in Lisbon"
    return {"value": v, "query": "the ceiling for L4 offers in Lisbon without Henrik's sign-off",
            "text": f"{c.colleague()}'s question made me realise I never wrote this down: we don't go {v} without "
                    "Henrik signing it off."}


def _i_buffer(c: _Ctx, f: float) -> Spec:
    v = f"leave a {c.rng.choice([10, 15, 20, 25])} minute buffer between candidates"
    return {"value": v, "query": "the gap to leave between candidates in panel interviews",
            "text": f"ok so going forward when you schedule panel interviews {v} full stop and dont book anything "
                    "over the lisbon lunch hour the panel hates that full stop thanks"}


def _i_hours(c: _Ctx, f: float) -> Spec:
    v = f"no later than {c.rng.choice([48, 72, 96, 120])} hours after the final interview"
    return {"value": v, "query": "how soon after the final interview a candidate must hear the decision",
            "text": "Reason I keep chasing everyone: we lost two strong people last quarter to slow loops. So a "
                    f"decision has to reach the candidate {v}, whatever the hiring manager's calendar looks like."}


def _i_vendor(c: _Ctx, f: float) -> Spec:
    v = f"{c.rng.choice(VENDORS)} {c.rng.choice(['CEE-Extended', 'PL-Plus', 'Poland Verified', 'Central Europe Pro'])}"
    return {"value": v, "query": "the background-check provider and package for Poland",
            "text": f"fyi bg checks for Poland → {v} package, not the global one"}


def _i_signature(c: _Ctx, f: float) -> Spec:
    sig = c.rng.choice(["Equipa de Pessoas L&S", "People Team · Lindqvist & Sousa", "Equipa People & Talent"])
    v = f"assina como «{sig}»"
    return {"value": v, "query": "how to sign emails to candidates in Lisbon",
            "text": f"Vi o relatório, obrigada.\n\nQuando escreveres a candidatos em Lisboa trata-os por você e {v}, "
                    "nunca com o teu nome."}


def _i_room(c: _Ctx, f: float) -> Spec:
    v = f"sala {c.rng.choice(['Brera', 'Navigli', 'Isola', 'Tortona', 'Sempione'])} al {c.num(2, 7)}° piano"
    return {"value": v, "query": "the room to book for interviews in Milan",
            "text": f"ah, e per i colloqui a Milano prenota sempre la {v}, le altre non hanno lo schermo per le demo"}


def _i_cutoff(c: _Ctx, f: float) -> Spec:
    v = f"by the {c.rng.choice([18, 19, 20, 24, 25, 26, 27])}th of each month at 12:00 CET"
    return {"value": v, "query": "the monthly deadline for the Polish payroll file",
            "text": f"Just so it's written down somewhere: the Polish payroll file has to reach Marek {v}, "
                    "otherwise the ZUS declarations slip."}


def _i_days(c: _Ctx, f: float) -> Spec:
    d1, d2 = sorted(c.rng.sample(range(4), 2))
    v = f"in Kraków every {WEEKDAYS[d1]} and {WEEKDAYS[d2]}"
    return {"value": v, "query": "the days Beatriz is in the Kraków office",
            "text": f"Profile stuff, so you stop asking 🙂 I'm {v} and in Lisbon the rest of the week, so anything "
                    "that needs me in a room in Poland goes on those days."}


def _i_permit(c: _Ctx, f: float) -> Spec:
    v = f"checklistę dokumentów w ciągu {c.rng.choice([24, 36, 48])} godzin"
    return {"value": v, "query": "how soon non-EU candidates get the work-permit document checklist",
            "text": f"Dzięki za zestawienie.\n\nKandydatom spoza UE wysyłaj {v} od zaproszenia na pierwszą rozmowę, "
                    "nie czekaj na ofertę."}


def _i_smart(c: _Ctx, f: float) -> Spec:
    v = f"{c.rng.choice([2, 3, 4])} giorni a settimana in ufficio per i primi {c.rng.choice(['sei', 'tre', 'quattro'])} mesi"
    return {"value": v, "query": "the standard answer on remote work for Milan candidates",
            "text": f"Grazie!\n\nSe un candidato chiede dello smart working, la risposta standard è {v}, poi se ne "
                    "parla con il manager."}


INSTRUCTIONS = (_i_noon, _i_cc, _i_meal, _i_noncompete, _i_ccnl, _i_nudge, _i_reject_box, _i_phone, _i_ceiling,
                _i_buffer, _i_hours, _i_vendor, _i_signature, _i_room, _i_cutoff, _i_days, _i_permit, _i_smart)

POLICY_RULES = (
    "Every candidate receives a written acknowledgement within two working days of applying.",
    "Interviewers submit structured feedback in the ATS before discussing a candidate with anyone else.",
    "Rejections after an interview are given by phone or video, followed by a short written note.",
    "Salary ranges are shared with candidates before the first interview.",
    "Take-home tasks are paid at the internal contractor rate when they exceed two hours.",
    "Candidates may ask for their interview notes; the recruiter sends them within ten working days.",
    "No interview is scheduled before 09:00 or after 18:00 in the candidate's own time zone.",
    "Internal candidates are told the outcome by their hiring manager before any external offer is made.",
    "Offer letters state the band, the base salary, the variable pay target and the notice period.",
    "Counter-offers from current employers are not matched above the top of the band.",
    "Referral bonuses are paid after the new hire passes probation.",
    "Recruiters record the reason for every rejection from the approved list in the ATS.",
)
POLICIES = (
    ("Candidate Experience Standard", "Once a hiring manager has chosen a candidate,", "reference checks start only "
     "after the candidate has accepted a verbal offer, and no more than {n} referees are contacted", (2, 3, 4),
     "when reference checks start and how many referees"),
    ("Interview Loop Standard", "From the first screen to the final decision,", "no interview loop lasts more than {n} "
     "hours in total, take-home tasks included", (4, 5, 6), "the longest an interview loop may last in total"),
)


def _policy(c: _Ctx, f: float, which: int) -> Spec:
    title, lead, clause, choices, query = POLICIES[which % len(POLICIES)]
    v = clause.format(n=c.rng.choice(choices))
    rules = list(POLICY_RULES)
    c.rng.shuffle(rules)
    version = f"{c.num(2, 5)}.{c.num(0, 9)}"
    parts = [f"# {title} (v{version})", "Lindqvist & Sousa — People Operations. Applies to all offices "
             "(Lisbon, Kraków, Milan) and to every hire, permanent or fixed-term, including interns.",
             "## 1. Purpose", "This standard sets out how we treat candidates from first contact to the first day. "
             "It replaces the recruiting checklist of 2023 and the local variants kept by each office. Where local "
             "law or a works-council agreement sets a stricter rule, the stricter rule applies.",
             "## 2. Before the interview"] + [f"2.{i + 1} {r}" for i, r in enumerate(rules[:4])] + [
             "## 3. Interviews and decisions"] + [f"3.{i + 1} {r}" for i, r in enumerate(rules[4:8])] + [
             f"3.5 {lead} {v}.", "## 4. Offers"] + [f"4.{i + 1} {r}" for i, r in enumerate(rules[8:])] + [
             "## 5. Exceptions", "Exceptions need the written approval of the people-ops lead and are recorded in "
             "the requisition. Hiring managers who need an exception ask before the step, not after it.",
             "## 6. Candidate data", "Candidate data is kept in the ATS only. CVs and interview notes are not "
             "stored in personal drives or sent as attachments inside the company; share a link to the ATS record "
             "instead. Profiles of rejected candidates are deleted after twelve months unless the candidate agreed "
             "to stay in the talent pool, in which case consent is renewed every year.",
             "## 7. Local notes", "Lisbon: offers follow the Código do Trabalho and mention the meal allowance and "
             "its form of payment. Kraków: offers for roles covered by the on-call regulations mention the on-call "
             "allowance, and the works council is informed of new on-call roles. Milan: offers name the applicable "
             "CCNL and level, and the probation period in calendar days.",
             "## 8. Review", "People Operations reviews this standard every six months with the hiring managers "
             "of each office and the works council in Kraków. Questions go to the people-ops lead."]
    doc = "\n\n".join(parts)
    intro = c.rng.choice([
        "Henrik and the exec team signed this off yesterday. Please follow it from now on, it replaces the old "
        "checklist:",
        "Isto foi aprovado ontem pela direção — a partir de agora segue isto à risca, são as nossas regras:",
        "New standard, approved on Friday. Treat it as my rules for everything we do from here:"])
    return {"value": v, "query": query, "text": f"{intro}\n\n{doc}\n\nThat's it. Shout if anything in there "
            "clashes with what we're doing on the open loops.", "policy": True}


# --- corrections: a value said, then corrected, loosely and often much later -------------------------------------

def _c_req(c: _Ctx, f: float) -> Spec:
    old = c.req()
    new = "REQ-" + old[4:6] + old[7] + old[6]
    c.taken.add(new)
    role, city = c.role(), c.rng.choice(OFFICES)
    return {"stale": old, "value": new, "query": f"the requisition of the {role} posting in {city}",
            "said": f"Please open the {role} posting in {city} under {old}, Giulia already approved the budget.",
            "said_ack": f"Opened the {role} posting in {city} under {old}; it's in draft until Sofia publishes it.",
            "said_follow": ("ats_search", {"action": "create_posting", "requisition": old, "title": role, "office": city},
                            json.dumps({"status": "draft created", "requisition": old, "title": role, "office": city,
                                        "channels": ["careers page"], "approved_by": "Giulia Conti"},
                                       ensure_ascii=False, indent=2)),
            "text": f"sorry requisition is {new} not {old}, I had the digits swapped"}


def _c_day(c: _Ctx, f: float) -> Spec:
    who = c.who()
    d = c.day(f, 5, 14)
    d2 = d + dt.timedelta(days=c.rng.choice([1, 2]))
    if d2.weekday() >= 5:
        d2 = d - dt.timedelta(days=1)
    old, new = _nth(d), _nth(d2)
    return {"stale": old, "value": new, "query": f"the day of {who.full}'s final round",
            "said": f"Can you set up {who.full}'s final round for {old}? Lisbon office, two hours, Rui and Sofia "
                    "on the panel.",
            "said_ack": f"I'll set {who.first}'s final round for {old} in Lisbon with Rui and Sofia.",
            "text": f"wait I said {WEEKDAYS[d.weekday()]}, it's {new} — {who.first} is flying back from a conference "
                    "that day"}


def _c_salary(c: _Ctx, f: float) -> Spec:
    who = c.who()
    k = c.num(54, 66)
    old, new = _eur(k * 1000), _eur((k - 2) * 1000 + c.rng.choice([250, 500, 750]))
    city = c.rng.choice(OFFICES)
    return {"stale": old, "value": new, "query": f"the base salary in {who.full}'s offer",
            "said": f"Draft the offer for {who.full} at {old} base, standard L3 package, start asap.",
            "said_follow": ("offer_draft", {"candidate": who.full, "base_salary": old, "band": "L3",
                                            "output_path": f"offers/drafts/{who.slug}.docx"},
                            f"written offers/drafts/{who.slug}.docx (3 pages)\nAnnex A: base salary {old} gross per "
                            "year, paid in 14 instalments\n--- preview ---\n" + c.b.letter(
                                c.b.fact_cand(who, f"CND-{c.num(100000, 599999)}"))),
            "said_ack": f"Draft offer for {who.first} is ready with {old} base; say the word and I'll send it.",
            "text": f"ok few things from the car um first the {city} headcount thing can wait till monday second the "
                    f"offer for {who.first} it's {new} not {k} I misread the band third remind me to call Marek about "
                    "the bonus pool thats it"}


def _c_email(c: _Ctx, f: float) -> Spec:
    who = c.who()
    new = who.mail(c.rng.choice(PROVIDERS))
    at = new.index(".") + 2
    cut = c.rng.randint(at, new.index("@") - 2)
    old = new[:cut] + new[cut + 1:]
    return {"stale": old, "value": new, "query": f"{who.full}'s personal email for the contract pack",
            "said": f"Send the contract pack to {who.first} at {old} please, {who.she}'s waiting for it to hand in "
                    f"{who.his} notice.",
            "said_ack": f"Contract pack sent to {old}.",
            "said_follow": ("email_send", {"to": [old], "subject": "Your contract pack",
                                           "attachments": ["contract.pdf", "annex_a.pdf", "onboarding.pdf"]},
                            c.b.email_output([old], "Your contract pack")),
            "text": f"oops that email has a typo, it's {new}"}


def _c_emp(c: _Ctx, f: float) -> Spec:
    who = c.who("PL")
    old = c.emp()
    new = "LS-" + _swap(old[3:], c.rng)
    c.taken.add(new)
    return {"stale": old, "value": new, "query": f"{who.full}'s employee number",
            "said": f"{who.full} from support is moving from Kraków to Lisbon in July, employee no. {old}. Can you "
                    "start the relocation paperwork?",
            "text": f"Correction on {who.first}: the employee number is {new}, not {old} — that one is someone in "
                    "Milan. Sorry!"}


def _c_phone(c: _Ctx, f: float) -> Spec:
    who = c.who("PL")
    old = c.phone("PL")
    new = old[:-3] + _swap(old[-3:], c.rng)
    c.taken.add(new)
    return {"stale": old, "value": new, "query": f"the number to call {who.full} on",
            "said": f"{who.full} asked to be called on {old} after 6pm, can you put that on {who.his} profile?",
            "said_ack": f"Added {old} (after 18:00) to {who.first}'s profile.",
            "text": f"nah the number for {who.first} is {new}, I copied it wrong from {who.his} email"}


def _c_room(c: _Ctx, f: float) -> Spec:
    name = c.rng.choice(["Isola", "Brera", "Navigli", "Tortona", "Garibaldi"])
    floor = c.num(2, 6)
    a, b = c.rng.sample("ABCD", 2)
    old, new = f"Sala {name} {floor}{a}", f"Sala {name} {floor}{b}"
    return {"stale": old, "value": new, "query": "the room for the Milan panel",
            "said": f"prenota la {old} per il panel di martedì, sono in cinque",
            "said_ack": f"Ho prenotato la {old} per martedì, cinque persone.",
            "text": f"non la {old}, è la {new} — l'altra è in ristrutturazione fino a settembre"}


def _c_start(c: _Ctx, f: float) -> Spec:
    who = c.who("PT")
    d = c.day(f, 14, 28)
    d -= dt.timedelta(days=d.weekday())
    old, new = _long(d), _long(d + dt.timedelta(days=7))
    return {"stale": old, "value": new, "query": f"{who.full}'s start date",
            "said": f"{who.full}'s start date is {old}, please let payroll and IT know.",
            "said_ack": f"Told payroll and IT: {who.first} starts {old}.",
            "text": f"Correção: {who.o} {who.first} começa {new}, não {old} — negociou mais uma semana com o empregador "
                    "atual."}


def _c_cc(c: _Ctx, f: float) -> Spec:
    old = c.cc()
    new = "CC-" + _swap(old[3:], c.rng)
    c.taken.add(new)
    return {"stale": old, "value": new, "query": "the cost centre the Milan agency invoices are charged to",
            "said": f"charge the Milan agency invoices to {old} from this month",
            "text": f"the agency invoices go to {new} actually, {old} was last year's cost centre"}


def _c_time(c: _Ctx, f: float) -> Spec:
    h, m = c.num(10, 15), c.rng.choice([10, 20, 40, 50])
    old, new = f"{h}:{m} Kraków time", f"{h + 1}:{m} Kraków time"
    return {"stale": old, "value": new, "query": "the time of the works-council briefing on the on-call allowance",
            "said": f"Set the works council briefing on the on-call allowance for {old}, Katarzyna will present.",
            "said_ack": f"Booked the works-council briefing for {old}; Katarzyna is presenting.",
            "text": f"poprawka — briefing z radą pracowników is at {new}, not {h}:{m}, I was looking at the wrong "
                    "calendar"}


def _c_iban(c: _Ctx, f: float) -> Spec:
    who = c.who("PT")
    old = c.iban("PT")
    new = old
    while new == old:
        new = f"{old[:-6]}{c.num(1000, 9999):04d}{old[-2:]}"  # the last group of digits differs
    c.taken.add(new)
    return {"stale": old, "value": new, "query": f"the account {who.full}'s relocation refund is paid to",
            "said": f"{who.full}'s relocation reimbursement goes to {old}, {who.she} sent it this morning.",
            "text": f"{who.she.capitalize()} sent a new one, the bank closed the old account — use {new} for {who.first}'s "
                    "reimbursement."}


def _c_cand(c: _Ctx, f: float) -> Spec:
    who = c.who()
    old = c.cand()
    new = "CND-" + _swap(old[4:], c.rng)
    c.taken.add(new)
    return {"stale": old, "value": new, "query": f"{who.full}'s candidate id",
            "said": f"pull the CV for cand {old}, it's {who.first}'s, I want it before the call with "
                    f"{c.colleague()}",
            "said_ack": f"Pulled {old}. The CV on file is thinner than I expected — is that the right profile?",
            "said_follow": ("candidate_get", {"candidate_id": old}, c.b.cand_output(
                c.b._make_cand(old, c.b._filler_who(who.country), c.rng.choice(OFFICES)))),
            "text": f"hmm wrong id, {who.full} is {new}, {old} is someone else"}


def _c_visa(c: _Ctx, f: float) -> Spec:
    who = c.who("IT")
    d = c.day(f, 10, 20)
    m = c.rng.choice([10, 20, 40, 50])
    h = c.num(9, 11)
    old = f"{d.isoformat()} at {h:02d}:{m}"
    new = f"{(d + dt.timedelta(days=c.rng.choice([1, 7]))).isoformat()} at {h:02d}:{m}"
    return {"stale": old, "value": new, "query": f"{who.full}'s consulate appointment",
            "said": f"the consulate appointment for {who.first}'s work visa is {old}, put it in the relocation "
                    "tracker",
            "text": f"{who.first} just forwarded the confirmation and it's {new}, not what I told you. Can you fix "
                    "the tracker?"}


CORRECTIONS = (_c_req, _c_day, _c_salary, _c_email, _c_emp, _c_phone, _c_room, _c_start, _c_cc, _c_time, _c_iban,
               _c_cand, _c_visa)


# --- decisions: choices she makes, some revised later ------------------------------------------------------------

def _d_offer(c: _Ctx, f: float) -> Spec:
    a, b, role = c.who(), c.who(), c.role()
    x, y = f"the offer goes to {a.full}", f"the offer goes to {b.full}"
    return {"x": x, "y": y, "query": f"who gets the offer for the {role} role",
            "first": f"Debrief done, {x} for the {role} role — {b.first} was close but {a.first} was stronger on "
                     "system design.",
            "single": f"Debrief done, {x} for the {role} role — {b.first} was close but {a.first} was stronger on "
                      "system design.",
            "revise": f"Scratch what I said after the debrief: {b.first}'s references came back much stronger, so "
                      f"{y}. Can you tell Sofia?"}


def _d_vendor(c: _Ctx, f: float) -> Spec:
    va, vb = c.rng.sample(VENDORS, 2)
    x, y = f"{va} for the Polish checks", f"{vb} for the Polish checks"
    return {"x": x, "y": y, "query": "which vendor runs the Polish background checks",
            "single": f"ok let's go with {x}, their turnaround was half of the others in the pilot",
            "first": f"ok let's go with {x}, their turnaround was half of the others in the pilot",
            "revise": f"changed my mind, {y} after all — {va} wants a twelve-month minimum"}


def _d_loop(c: _Ctx, f: float) -> Spec:
    role, city = c.role(), c.rng.choice(OFFICES)
    x = f"an on-site final in {city} plus a {c.num(2, 4)}-hour take-home"
    y = f"a video final with a {c.rng.choice([45, 60, 75, 90])}-minute live pairing session"
    return {"x": x, "y": y, "query": f"the format of the {role} final round",
            "single": f"For the {role} loop we'll do {x}. The panel prefers seeing people in the room.",
            "first": f"For the {role} loop we'll do {x}. The panel prefers seeing people in the room.",
            "revise": f"Rethinking the {role} loop — travel is killing our pipeline, so {y} instead."}


def _d_agency(c: _Ctx, f: float) -> Spec:
    ga, gb = c.rng.sample(["Talentia Partners", "Vistula Search", "Rete Talenti", "Atlântico Executive"], 2)
    k = c.num(2, 4)
    x, y = f"the {k} SRE roles go to {ga} at {c.num(15, 22)}% fee", f"the {k} SRE roles go to {gb} at {c.num(15, 22)}% fee"
    return {"x": x, "y": y, "query": "which agency gets the SRE roles, and at what fee",
            "single": f"Decidi: {x}. Sofia can brief them tomorrow.",
            "first": f"Decidi: {x}. Sofia can brief them tomorrow.",
            "revise": f"Update on agencies: {y}, {ga} couldn't commit to a shortlist within two weeks."}


def _d_counter(c: _Ctx, f: float) -> Spec:
    who = c.who()
    a = c.odd_money(64000, 76000)
    x, y = f"match {who.his} counter at {_eur(a)}", f"meet {who.him} halfway at {_eur(a - c.odd_money(1500, 3500))}"
    return {"x": x, "y": y, "query": f"what we do about {who.full}'s counter-offer",
            "single": f"{who.first} came back with a counter. We {x}, {who.she}'s worth it and the band allows it.",
            "first": f"{who.first} came back with a counter. We {x}, {who.she}'s worth it and the band allows it.",
            "revise": f"Talked to Henrik about {who.first}. Not matching fully: we {y} and add two days of holiday."}


def _d_reloc(c: _Ctx, f: float) -> Spec:
    who = c.who()
    x = f"a lump sum of {_eur(c.odd_money(5000, 9000))} instead of managed relocation"
    y = f"managed relocation through Santa Fe capped at {_eur(c.odd_money(9000, 14000))}"
    return {"x": x, "y": y, "query": f"how {who.full}'s move to Milan is paid for",
            "single": f"For {who.first}'s move to Milan: {x}, simpler for payroll.",
            "first": f"For {who.first}'s move to Milan: {x}, simpler for payroll.",
            "revise": f"Elena says lump sums are taxed badly in Italy, so for {who.first} it's {y}."}


def _d_deadline(c: _Ctx, f: float) -> Spec:
    who = c.who()
    d = c.day(f, 3, 7)
    d2 = c.day(f, 9, 14)
    x, y = f"give {who.first} until {_long(d)} to decide", f"give {who.first} until {_long(d2)} to decide"
    return {"x": x, "y": y, "query": f"the deadline for {who.full}'s answer to the offer",
            "single": f"{who.first} asked for more time. Fine — {x}, but not a day more.",
            "first": f"{who.first} asked for more time. Fine — {x}, but not a day more.",
            "revise": f"ugh, {who.first} has another process finishing later, ok {y}, then we go to the runner-up"}


def _d_lang(c: _Ctx, f: float) -> Spec:
    role = c.role()
    x, y = f"post the Milan {role} ad in Italian and English", f"post the Milan {role} ad in English only"
    return {"x": x, "y": y, "query": f"the language of the Milan {role} job ad",
            "single": f"Giulia and I agreed: {x}, the Italian-only pool was too small last time.",
            "first": f"Giulia and I agreed: {x}, the Italian-only pool was too small last time.",
            "revise": f"On the Milan ad: {y}, the team works in English anyway and the translation delays it a week."}


def _d_pause(c: _Ctx, f: float) -> Spec:
    req = c.req()
    x, y = f"pause {req} until the Q3 budget review", f"keep {req} open but cap it at L{c.num(3, 4)}"
    return {"x": x, "y": y, "query": "what happens to the backend requisition hit by the budget",
            "single": f"Given the budget, {x}. I'll tell Tomasz before he hears it somewhere else.",
            "first": f"Given the budget, {x}. I'll tell Tomasz before he hears it somewhere else.",
            "revise": f"Henrik pushed back on the freeze. New plan: {y}, and we look again in September."}


def _d_offcycle(c: _Ctx, f: float) -> Spec:
    d, d2 = c.day(f, 4, 8), c.day(f, 10, 16)
    x, y = f"run the Polish off-cycle payroll on {_long(d)}", f"run the Polish off-cycle payroll on {_long(d2)}"
    return {"x": x, "y": y, "query": "when the Polish off-cycle payroll runs",
            "single": f"Marek asked so here it is: we {x}, together with the bonus corrections.",
            "first": f"Marek asked so here it is: we {x}, together with the bonus corrections.",
            "revise": f"moving it, we {y} — the bonus file from finance won't be ready before that"}


def _d_council(c: _Ctx, f: float) -> Spec:
    d = c.day(f, 6, 14)
    x = f"present the on-call allowance to the works council on {_long(d)}"
    y = f"send the works council the on-call allowance proposal in writing {c.rng.choice(['first', 'this week'])}"
    return {"x": x, "y": y, "query": "how the on-call allowance goes to the works council",
            "single": f"Katarzyna and I decided to {x}, in person, with the numbers on one slide.",
            "first": f"Katarzyna and I decided to {x}, in person, with the numbers on one slide.",
            "revise": f"Change of approach: we {y}, they prefer to read before any meeting."}


def _d_internal(c: _Ctx, f: float) -> Spec:
    role = c.role()
    team = c.rng.choice(["the routing team", "the billing squad", "the Kraków support floor", "the data guild"])
    x, y = f"fill the {role} internally from {team}", f"open the {role} externally"
    return {"x": x, "y": y, "query": f"how the {role} vacancy is filled",
            "single": f"We'll {x}; two people there already asked for it.",
            "first": f"We'll {x}; two people there already asked for it.",
            "revise": f"Neither internal applicant passed the case study, so we {y} after all."}


def _d_term(c: _Ctx, f: float) -> Spec:
    who = c.who("PT")
    x = f"contratar {who.o} {who.first} sem termo desde o primeiro dia"
    y = f"contratar {who.o} {who.first} a termo certo por {c.rng.choice([6, 9, 12])} meses"
    return {"x": x, "y": y, "query": f"the contract type for {who.full}",
            "single": f"Decidido: vamos {x}, {'ela' if who.o == 'a' else 'ele'} vem de um contrato efetivo e não aceita menos.",
            "first": f"Decidido: vamos {x}, {'ela' if who.o == 'a' else 'ele'} vem de um contrato efetivo e não aceita menos.",
            "revise": f"Afinal o Henrik quer prudência com o headcount: vamos {y} e revemos depois."}


DECISIONS = (_d_offer, _d_vendor, _d_loop, _d_agency, _d_counter, _d_reloc, _d_deadline, _d_lang, _d_pause,
             _d_offcycle, _d_council, _d_internal, _d_term)


# --- plans: her plans in prose, as checklists, under headings -----------------------------------------------------

def _p_prose(c: _Ctx, f: float) -> Spec:
    v = f"run the calibration session with {c.colleague()} on {_long(c.day(f, 3, 10))}"
    return {"value": v, "query": "the step between closing the Kraków role and opening the Lisbon SRE requisitions",
            "text": f"Here's how I want the next weeks to go: first we close the Kraków {c.role()} role, then we {v}, "
                    "and only after that we open the two Lisbon SRE requisitions."}


def _p_checklist(c: _Ctx, f: float) -> Spec:
    d = c.day(f, 10, 25)
    v = f"book the {c.rng.choice(OFFICES)} induction room for {c.num(4, 14)} new joiners on {_long(d)}"
    return {"value": v, "query": "the room step of the onboarding cohort checklist",
            "text": f"## Onboarding cohort {MONTHS[d.month - 1]}\n\n1. confirm laptops with IT\n2. {v}\n"
                    "3. send the welcome pack\n4. buddy assignments"}


def _p_pt(c: _Ctx, f: float) -> Spec:
    v = f"revemos as {c.num(5, 19)} avaliações de período experimental com a Mariana"
    return {"value": v, "query": "the middle step of this week's plan in Lisbon",
            "text": f"Plano para esta semana: primeiro fechamos as ofertas pendentes em Lisboa, depois {v}, e só no "
                    "fim tratamos do relatório de headcount."}


def _p_pl(c: _Ctx, f: float) -> Spec:
    d = c.day(f, 5, 15)
    v = f"konsultujemy regulamin dyżurów z radą pracowników do {d.day}.{d.month:02d}"
    return {"value": v, "query": "the works-council step of the Kraków plan",
            "text": f"Plan na najbliższe dni:\n- najpierw zamykamy rekrutację na {c.role()}\n- potem {v}\n"
                    "- na końcu raport dla Henrika"}


def _p_dictated(c: _Ctx, f: float) -> Spec:
    v = f"call the {c.num(3, 9)} candidates still waiting on the {c.role()} role"
    return {"value": v, "query": "the first thing on tomorrow's plan",
            "text": f"ok plan for tomorrow first thing i want to {v} then lunch with rui then we go through the milan "
                    "offers one by one and nothing goes out before henrik has seen the numbers"}


def _p_merit(c: _Ctx, f: float) -> Spec:
    v = f"ask Marek for the {c.rng.choice(['3.5', '4', '4.5', '5'])}% merit budget split by office"
    return {"value": v, "query": "the budget step of the merit cycle",
            "text": f"Hi,\n\nFor the merit cycle, steps as I see them:\n\n- pull the current salaries per band\n- {v}\n"
                    "- draft the letters\n- managers sign off\n\nB."}


def _p_abc(c: _Ctx, f: float) -> Spec:
    v = f"move the {c.num(6, 30)} Milan contractor files into the HRIS"
    return {"value": v, "query": "step b of the Milan move", "text": f"order of ops for the Milan move: a) sign the "
            f"lease addendum b) {v} c) tell the team"}


def _p_reason(c: _Ctx, f: float) -> Spec:
    v = f"share the headcount impact for {c.num(8, 40)} support engineers with Katarzyna"
    return {"value": v, "query": "the step before the town hall in the on-call sequence",
            "text": f"Since the works council has to see the numbers first, the sequence is: draft the on-call "
                    f"proposal, {v}, then the town hall."}


def _p_it(c: _Ctx, f: float) -> Spec:
    d = c.day(f, 5, 20)
    v = f"facciamo il check di equità retributiva sul team di Giulia entro il {d.day} {MONTHS_IT[d.month - 1]}"
    return {"value": v, "query": "the middle step of the Milan plan",
            "text": f"Per Milano il piano è: prima chiudiamo la posizione {c.role()}, poi {v}, e solo dopo apriamo "
                    "le due posizioni junior."}


def _p_freeze(c: _Ctx, f: float) -> Spec:
    v = f"freeze new Lisbon requisitions above L{c.num(4, 6)} from {_long(c.day(f, 3, 12))}"
    return {"value": v, "query": "step 1 of the hiring freeze plan",
            "text": f"### Hiring freeze plan\nStep 1 — {v}\nStep 2 — finish the loops already in flight\n"
                    "Step 3 — review at the Q3 budget meeting"}


def _p_batch(c: _Ctx, f: float) -> Spec:
    v = f"move the {c.num(3, 12)} pending offers onto template OFFER-{c.rng.choice(['PT', 'PL', 'IT'])}-{c.num(20, 99)}"
    return {"value": v, "query": "what happens to the pending offers before they go out",
            "text": f"Offers backlog: let's {v}, then send them out in one batch on Monday and only then start the "
                    "Milan ones."}


def _p_move(c: _Ctx, f: float) -> Spec:
    v = f"collect {c.num(20, 90)} signed remote work annexes"
    return {"value": v, "query": "the first step of the Kraków office move",
            "text": f"plan for the krakow office move is this we {v} first then the IT stuff and the desks last ok"}


def _p_week(c: _Ctx, f: float) -> Spec:
    team = c.rng.choice(["routing", "billing", "warehouse integrations", "mobile"])
    v = f"pay-equity review of the {team} team with {c.num(10, 40)} salaries"
    return {"value": v, "query": "Monday's item in next week's plan",
            "text": f"Next week:\n• Mon — {v}\n• Tue — debriefs\n• Wed/Thu — Milan\n• Fri — payroll checks"}


PLANS = (_p_prose, _p_checklist, _p_pt, _p_pl, _p_dictated, _p_merit, _p_abc, _p_reason, _p_it, _p_freeze,
         _p_batch, _p_move, _p_week)


# --- identifiers: named by her, or returned by a tool -------------------------------------------------------------

def _id_req(c: _Ctx, f: float) -> Spec:
    v, role = c.req(), c.role()
    return {"value": v, "carrier": "user", "query": f"the requisition of the new Milan {role} role",
            "text": f"New req for the Milan {role} came through: {v}. Use it on the posting and on the agency brief.",
            "follow": ("ats_search", {"requisition": v, "include": ["applications", "posting"]},
                       c.b.empty_req_output(v, role)),
            "ack": f"{v} is live in the ATS with no applications yet; I'll use it on the posting and the brief."}


def _id_emp(c: _Ctx, f: float) -> Spec:
    who, v = c.who("PL"), c.emp()
    return {"value": v, "carrier": "user", "query": f"{who.full}'s employee number",
            "text": f"{who.full}'s employee number is {v}, {who.she}'s the one joining the Kraków support team from sales.",
            "follow": ("hris_lookup", {"employee_no": v}, c.b.emp_output_for(who, v, "Kraków")),
            "ack": f"Found {who.first} under {v} in the HRIS."}


def _id_iban(c: _Ctx, f: float) -> Spec:
    who = c.who(c.rng.choice(["PT", "IT"]))
    v = c.iban(who.country)
    return {"value": v, "carrier": "user", "query": f"the account for {who.full}'s relocation refund",
            "text": f"for {who.first} {who.last}'s relocation refund the payroll ref is {v}, {who.she} confirmed it by phone"}


def _id_nullaosta(c: _Ctx, f: float) -> Spec:
    who = c.who()
    v = f"P-MI/2025/{c.num(100000, 999999):06d}"
    return {"value": v, "carrier": "user", "query": f"the work-permit file number for {who.full}",
            "text": f"il numero della pratica del nulla osta per {who.first} è {v}, tienilo a portata di mano per "
                    "la prefettura"}


def _id_council(c: _Ctx, f: float) -> Spec:
    v = f"RP/2025/{c.num(100, 999)}"
    return {"value": v, "carrier": "user", "query": "the works-council case number for the on-call change",
            "text": f"numer sprawy z radą pracowników to {v} — podawaj go w każdym mailu do nich w sprawie dyżurów"}


def _id_cc(c: _Ctx, f: float) -> Spec:
    v = c.cc()
    return {"value": v, "carrier": "user", "query": "the cost centre of the new Milan data team",
            "text": f"the new Milan data team got its own cost centre, {v}, Giulia's hires go there"}


def _id_bgc(c: _Ctx, f: float) -> Spec:
    who, r = c.who(), c.rng
    v = c._fresh(lambda: "BGC-25-" + "".join(r.choice("ABCDEFGHJKLMNPQRSTUVWXYZ") if i % 2 == 0 else str(r.randint(0, 9))
                                             for i in range(5)))
    args = {"action": "initiate", "candidate": who.full, "country": who.country, "package": "standard"}
    return {"value": v, "carrier": "tool", "query": f"the background-check case of {who.full}", "tool": "background_check",
            "ask": f"start the background check for {who.full}, {who.she} signed the consent this morning",
            "args": args, "output": c.b.bg_initiated(who, v),
            "answer": f"Background check started for {who.first}: case {v}, ETA five working days."}


def _id_cand(c: _Ctx, f: float) -> Spec:
    who = c.who()
    v = c.cand()
    return {"value": v, "carrier": "tool", "query": f"{who.full}'s merged candidate profile",
            "tool": "ats_search", "ask": f"{who.full} applied twice, through the careers page and an agency — merge them?",
            "args": {"query": who.full, "action": "merge_duplicates"}, "output": c.b.merge_output(who, v),
            "answer": f"Merged {who.first}'s two profiles into {v}; the agency claim is kept on the history."}


def _id_evt(c: _Ctx, f: float) -> Spec:
    d = c.day(f, 4, 10)
    v = c._fresh(lambda: "evt_" + "".join(c.rng.choice("0123456789abcdef") for _ in range(14)))
    return {"value": v, "carrier": "tool", "query": "the calendar event of the works-council meeting",
            "tool": "calendar_book", "ask": "put the works council meeting in the calendar, Katarzyna and Paweł, "
            "90 minutes, Kraków",
            "args": {"title": "Works council: on-call allowance", "attendees": ["katarzyna.nowak@" + DOMAIN,
                     "pawel.baran@" + DOMAIN], "date": d.isoformat(), "duration_min": 90, "office": "Kraków"},
            "output": c.b.cal_created(v, d, "Works council: on-call allowance"),
            "answer": f"Booked for {_abbr(d)} in Kazimierz; the event is {v}."}


def _id_batch(c: _Ctx, f: float) -> Spec:
    d = c.day(f)
    v = c._fresh(lambda: f"PRB-2025-{d.month:02d}-PL-{c.num(500, 999)}")
    return {"value": v, "carrier": "tool", "query": "the batch id of the Polish payroll export sent to the bank",
            "tool": "payroll_export", "ask": "submit the Polish payroll to the bank, Marek approved it",
            "args": {"country": "PL", "period": f"2025-{d.month:02d}", "mode": "submit"},
            "output": c.b.payroll_submitted(v, d), "answer": f"Submitted; the bank batch is {v}."}


def _id_doc(c: _Ctx, f: float) -> Spec:
    v = c._fresh(lambda: f"DOC-HR-{c.num(5000, 9999)}")
    return {"value": v, "carrier": "tool", "query": "the document id of the signed on-call agreement",
            "tool": "doc_search", "ask": "find the signed on-call agreement with the works council",
            "args": {"query": "signed on-call agreement works council Kraków", "limit": 8},
            "output": c.b.doc_output("on-call agreement", c.b.size0(), top=(v, "Porozumienie w sprawie dyżurów — "
                                     "signed copy")),
            "answer": f"The signed copy is {v} (top hit); the others are drafts."}


def _id_pos(c: _Ctx, f: float) -> Spec:
    v = c._fresh(lambda: f"POS-KR-{c.num(80000, 99999)}")
    role = c.role()
    return {"value": v, "carrier": "tool", "query": f"the HRIS position created for the Kraków {role}",
            "tool": "hris_lookup", "ask": f"create the position for the Kraków {role} in the HRIS so payroll can see it",
            "args": {"action": "create_position", "title": role, "office": "Kraków", "band": "L4"},
            "output": json.dumps({"status": "created", "position_id": v, "title": role, "office": "Kraków",
                                  "band": "L4", "cost_centre": "CC-2140", "approvals": ["finance", "people"],
                                  "created_by": "svc-people-agent"}, ensure_ascii=False, indent=2),
            "answer": f"Position {v} created for the {role}."}


IDENTIFIERS = (_id_req, _id_bgc, _id_emp, _id_cand, _id_iban, _id_evt, _id_nullaosta, _id_batch, _id_council,
               _id_doc, _id_cc, _id_pos)


# --- errors: an exact line of a failing tool run ------------------------------------------------------------------

def _hex(rng: random.Random, k: int) -> str:
    return "".join(rng.choice("0123456789abcdef") for _ in range(k))


def _e_offer409(c: _Ctx, f: float) -> Spec:
    cand = c.b.pick_cand()
    app, ofr = f"APP-{c.num(100000, 999999)}", f"OFR-{c.num(10000, 59999)}"
    v = f"ATS API error 409 Conflict: offer {ofr} is already active on application {app} (held by approval workflow)"
    args = {"candidate_id": cand.id, "template": "OFFER-PT-STD-v7", "output_path": f"offers/drafts/{cand.who.slug}.docx"}
    return {"value": v, "query": f"why the offer for {cand.who.full} could not be drafted", "tool": "offer_draft",
            "ask": f"draft {cand.who.first}'s offer, standard template", "args": args,
            "output": f"POST /v2/applications/{app}/offers -> 409\n{v}\n" + json.dumps(
                {"error": {"code": 409, "retryable": False, "existing_offer": ofr, "state": "pending_approval"}}, indent=2),
            "fix": "Sofia withdrew the stale offer; drafting again.",
            "rerun": f"Draft written to offers/drafts/{cand.who.slug}.docx (3 pages, template OFFER-PT-STD-v7)."}


def _e_conflict(c: _Ctx, f: float) -> Spec:
    hm = COLLEAGUES[c.rng.choice(MANAGERS)]
    d = c.day(f, 1, 5)
    h, m = c.num(9, 16), c.rng.choice([10, 20, 40, 50])
    event = c.rng.choice(["Quarterly budget review", "1:1 with Henrik", "Vendor demo", "Architecture forum"])
    v = f'CalendarConflict: {hm[0]} {hm[1]} is busy {d.isoformat()} {h:02d}:{m}-{h + 1:02d}:{m} CEST ("{event}")'
    args = {"title": "Debrief", "attendees": [f"{_ascii(hm[0]).lower()}.{_ascii(hm[1]).lower()}@{DOMAIN}"],
            "start": f"{d.isoformat()}T{h:02d}:{m}:00+02:00", "duration_min": 45}
    return {"value": v, "query": f"why the debrief with {hm[0]} could not be booked", "tool": "calendar_book",
            "ask": f"book the debrief with {hm[0]} {c.rng.choice(['tomorrow', 'this week', 'asap'])}", "args": args,
            "output": c.b.cal_conflict(v, d), "fix": f"{hm[0]} moved the clashing meeting; booking again.",
            "rerun": c.b.cal_created("evt_" + _hex(c.rng, 12), d, "Debrief")}


def _e_negative(c: _Ctx, f: float) -> Spec:
    e = c.b.pick_emp("PL")
    d = c.day(f)
    v = (f"ValidationError: row {c.num(40, 300)}: employee {e.no} net pay -{c.num(100, 900)}.{c.num(10, 99)} PLN is "
         f"negative for period 2025-{d.month:02d}")
    args = {"country": "PL", "period": f"2025-{d.month:02d}", "output": f"exports/payroll/previews/PL_2025-{d.month:02d}.csv"}
    return {"value": v, "query": "why the Polish payroll export failed validation", "tool": "payroll_export",
            "ask": "run the Polish payroll preview for this month", "args": args,
            "output": c.b.payroll_failed("PL", v), "fix": "Marek reversed the duplicated deduction; exporting again.",
            "rerun": c.b.payroll_output("PL", f"2025-{d.month:02d}", 2400, args["output"])}


def _e_timeout(c: _Ctx, f: float) -> Spec:
    cand = c.b.pick_cand()
    vendor = c.rng.choice(VENDORS)
    v = f"ProviderTimeout: {vendor} EU gateway did not answer within {c.rng.choice([30000, 45000, 60000])} ms (request bgreq-{_hex(c.rng, 10)})"
    return {"value": v, "query": f"why the background check on {cand.who.full} did not start",
            "tool": "background_check", "ask": f"kick off the bg check for {cand.who.full}",
            "args": {"action": "initiate", "candidate_id": cand.id, "country": COUNTRY[cand.city], "provider": vendor},
            "output": f"Connecting to {vendor} EU gateway...\nretry 1/3 ... no response\nretry 2/3 ... no response\n"
                      f"retry 3/3 ... no response\n{v}\nNo case was opened.",
            "fix": "The provider's status page shows the gateway back up; trying again.",
            "rerun": c.b.bg_initiated(cand.who, f"BGC-25-{c.num(10000, 99999)}")}


def _e_scope(c: _Ctx, f: float) -> Spec:
    e = c.b.pick_emp()
    v = f"HRIS 403 Forbidden: token for svc-people-agent lacks scope comp:read:{COUNTRY[e.office].lower()} (trace {_hex(c.rng, 12)})"
    return {"value": v, "query": f"why {e.who.full}'s compensation could not be read", "tool": "hris_lookup",
            "ask": f"what's {e.who.first} {e.who.last}'s current salary and last raise?",
            "args": {"employee_no": e.no, "fields": ["compensation", "history"]},
            "output": f"GET /api/v3/employees/{e.no}/compensation -> 403\n{v}\n"
                      '{"hint": "request the scope from IT Security (form SEC-17)"}',
            "fix": "IT granted the compensation scope; reading the record again.", "rerun": c.b.emp_output([e])}


def _e_smtp(c: _Ctx, f: float) -> Spec:
    cand = c.b.pick_cand()
    bad = cand.email.replace("@", f"{c.num(1, 9)}@")
    v = f"SMTP 550 5.1.1 <{bad}>: Recipient address rejected: User unknown in virtual mailbox table"
    return {"value": v, "query": f"why the email to {cand.who.full} bounced", "tool": "email_send",
            "ask": f"email {cand.who.first} the interview confirmation",
            "args": {"to": [bad], "subject": "Interview confirmation", "body": "Dear candidate, ..."},
            "output": f"queued as {_hex(c.rng, 10)}\ndelivery attempt 1: failed\n{v}",
            "fix": "The address had a stray digit; sending to the one on the profile.",
            "rerun": c.b.email_output([cand.email], "Interview confirmation")}


def _e_template(c: _Ctx, f: float) -> Spec:
    cand = c.b.pick_cand()
    ph = c.rng.choice(["relocation_allowance", "car_allowance", "meal_card_daily", "ticket_restaurant"])
    v = f"TemplateError: placeholder {{{{ {ph} }}}} has no value in template OFFER-IT-DIR-v{c.num(2, 9)}"
    return {"value": v, "query": f"why the Italian offer for {cand.who.full} failed to render", "tool": "offer_draft",
            "ask": f"prepare the Milan offer for {cand.who.full}",
            "args": {"candidate_id": cand.id, "template": "OFFER-IT-DIR", "output_path": f"offers/drafts/{cand.who.slug}_it.docx"},
            "output": f"Rendering OFFER-IT-DIR ...\n{v}\nNothing written.",
            "fix": f"Filled in {ph}; rendering again.", "rerun": f"Draft written to offers/drafts/{cand.who.slug}_it.docx."}


def _e_costcentre(c: _Ctx, f: float) -> Spec:
    cc = f"CC-{c.num(1000, 4999)}"
    v = f"QueryError: cost centre {cc} not found in org snapshot {c.day(f, -3, -1).isoformat()}"
    return {"value": v, "query": "why the headcount report for the cost centre failed", "tool": "headcount_report",
            "ask": f"headcount for {cc} please, Marek needs it", "args": {"cost_centre": cc, "as_of": "latest"},
            "output": f"Loading org snapshot ...\n{v}\nDid you mean one of: CC-{c.num(1000, 4999)}, CC-{c.num(1000, 4999)}?",
            "fix": "The snapshot was refreshed overnight; running the report again.",
            "rerun": c.b.headcount_output(f"cost centre {cc}", 2000)}


def _e_shard(c: _Ctx, f: float) -> Spec:
    v = f"IndexUnavailable: shard hr-docs-{c.num(2, 9)} is recovering, retry after {c.num(120, 900)}s"
    return {"value": v, "query": "why the document search failed", "tool": "doc_search",
            "ask": "find the 2024 relocation guidelines for Italy", "args": {"query": "relocation guidelines Italy 2024"},
            "output": f"searching 9 shards ...\n{v}\npartial results suppressed", "fix": "Index is back; searching again.",
            "rerun": c.b.doc_output("relocation guidelines Italy", 2200)}


def _e_policy404(c: _Ctx, f: float) -> Spec:
    code = f"PL-REMOTE-{c.num(10, 99)}"
    v = f'404 Not Found: policy "{code}" has no version effective on {c.day(f).isoformat()}'
    return {"value": v, "query": "why the Polish remote-work policy lookup failed", "tool": "policy_get",
            "ask": "what does the Polish remote work policy say about home-office allowance?",
            "args": {"code": code, "effective": "today"}, "output": f"{v}\nknown versions: none",
            "fix": "The policy was renumbered; fetching the current code.", "rerun": c.b.policy_output("PL-REMOTE-03", 2500)}


def _e_room(c: _Ctx, f: float) -> Spec:
    cap = c.num(4, 8)
    v = f"RoomBookingRejected: Sala Duomo (Milan, floor {c.num(2, 6)}) holds {cap} people, {cap + c.num(2, 5)} invited"
    d = c.day(f, 2, 6)
    return {"value": v, "query": "why the Milan room booking was rejected", "tool": "calendar_book",
            "ask": "book Sala Duomo for the Milan hiring kickoff, whole team", "args": {"title": "Milan hiring kickoff",
            "room": "Sala Duomo", "date": d.isoformat(), "duration_min": 60, "attendees": ["milan-team@" + DOMAIN]},
            "output": f"Resolving milan-team@{DOMAIN} ... expanded\n{v}", "fix": "Trying the larger room instead.",
            "rerun": c.b.cal_created("evt_" + _hex(c.rng, 12), d, "Milan hiring kickoff")}


def _e_schema(c: _Ctx, f: float) -> Spec:
    v = f'SchemaError: column "ZUS_emerytalne" expected decimal(10,2), got "{c.num(1, 9)} {c.num(100, 999)},{c.num(10, 99)}" at line {c.num(20, 400)}'
    d = c.day(f)
    out = f"exports/payroll/previews/PL_{d.month:02d}_import.csv"
    return {"value": v, "query": "why the Polish payroll import failed", "tool": "payroll_export",
            "ask": "load the corrected ZUS file from Marek into the payroll export",
            "args": {"country": "PL", "period": f"2025-{d.month:02d}", "import": "zus_corrections.csv", "output": out},
            "output": f"reading zus_corrections.csv ...\n{v}\nimport aborted", "fix": "Converted the decimal commas; importing again.",
            "rerun": c.b.payroll_output("PL", f"2025-{d.month:02d}", 2000, out)}


def _e_gateway(c: _Ctx, f: float) -> Spec:
    req = c.b.pick_req()
    v = f"ATS API error 502 Bad Gateway from ats-proxy-{c.num(1, 9)}.eu-west-1 after {c.num(5000, 30000)} ms"
    return {"value": v, "query": "why the ATS search failed", "tool": "ats_search",
            "ask": f"who's active on {req.id}?", "args": {"requisition": req.id, "status": "active"},
            "output": f"GET /v2/search?requisition={req.id}&status=active\n{v}", "fix": "ATS is responding again; retrying.",
            "rerun": c.b.ats_output({"requisition": req.id}, 2500)}


ERRORS = (_e_offer409, _e_conflict, _e_negative, _e_timeout, _e_scope, _e_smtp, _e_template, _e_costcentre,
          _e_shard, _e_policy404, _e_room, _e_schema, _e_gateway)


# --- findings: exact text in a tool's output that is needed later -------------------------------------------------

def _f_notice(c: _Ctx, f: float) -> Spec:
    who = c.who()
    v = f"{c.num(2, 3)} months, ending {c.day(f, 60, 100).isoformat()}"
    return {"value": v, "query": f"{who.full}'s notice period", "tool": "candidate_get",
            "ask": f"what's {who.full}'s notice period? need it for the start date",
            "args": {"candidate_id": (cid := c.cand())}, "output": c.b.cand_output(c.b.fact_cand(who, cid, notice=v)),
            "answer": f"{who.first}'s notice: {v}."}


def _f_band(c: _Ctx, f: float) -> Spec:
    b = c.odd_money(24000, 36000)
    v = f"ceiling PLN {_sp(b)} gross per month"
    level = c.num(5, 6)
    return {"value": v, "query": f"the salary ceiling of band L{level} in Kraków", "tool": "policy_get",
            "ask": f"what's the ceiling for L{level} in Kraków?", "args": {"code": "GLB-COMP-BANDS-05", "office": "Kraków"},
            "output": c.b.bands_output("Kraków", (level, f"L{level} | Kraków | floor PLN {_sp(b - 7000)} | {v}")),
            "answer": f"L{level} in Kraków tops out at: {v}."}


def _f_clause(c: _Ctx, f: float) -> Spec:
    v = f"to full salary for the first {c.rng.choice([20, 30, 40, 45, 60])} days of leave"
    return {"value": v, "query": "how long the company tops up parental pay in Poland", "tool": "policy_get",
            "ask": "does our parental policy in Poland top anything up beyond ZUS?",
            "args": {"code": "PL-PARENTAL-02"},
            "output": c.b.policy_output("PL-PARENTAL-02", 2600, insert=f"§4.3 The company tops up statutory "
                                        f"parental pay {v}, counted from the first day of maternity or paternity leave."),
            "answer": f"Yes — §4.3: the company tops up statutory pay {v}."}


def _f_contractors(c: _Ctx, f: float) -> Spec:
    office = c.rng.choice(OFFICES)
    v = f"{c.num(5, 29)} contractors converting to permanent on {c.day(f, 20, 45).isoformat()}"
    return {"value": v, "query": f"the contractor conversions in the {office} headcount", "tool": "headcount_report",
            "ask": f"headcount for {office}, all departments", "args": {"office": office, "as_of": "latest"},
            "output": c.b.headcount_output(f"office {office}", 2600) + f"\n* {office} figures include {v}",
            "answer": f"{office} numbers attached; note the footnote: {v}."}


def _f_expect(c: _Ctx, f: float) -> Spec:
    who = c.who()
    a = c.odd_money(52000, 70000)
    v = f"EUR {_sp(a)} to {_sp(a + c.odd_money(3000, 8000))} gross plus {c.rng.choice(['car allowance', 'relocation', 'a sign-on bonus', 'remote Fridays'])}"
    cid = c.cand()
    return {"value": v, "query": f"{who.full}'s salary expectation", "tool": "candidate_get",
            "ask": f"what is {who.full} expecting salary-wise?", "args": {"candidate_id": cid},
            "output": c.b.cand_output(c.b.fact_cand(who, cid, expectation=v)), "answer": f"{who.first} expects {v}."}


def _f_verify(c: _Ctx, f: float) -> Spec:
    who = c.who()
    comp = c.rng.choice(COMPANIES)
    y1 = c.num(2015, 2020)
    y2 = y1 + c.num(2, 4)
    v = f"claimed {comp} {y1}-{y2}, verified {y1 + 1}-{c.num(1, 12):02d} to {y2 - 1}-{c.num(1, 12):02d}"
    return {"value": v, "query": f"the employment discrepancy in {who.full}'s background check",
            "tool": "background_check", "ask": f"is {who.full}'s background check back?",
            "args": {"action": "report", "candidate": who.full},
            "output": c.b.bg_report(who, f"Employment verification: DISCREPANCY — {v}"),
            "answer": f"Back, one discrepancy: {v}."}


def _f_consult(c: _Ctx, f: float) -> Spec:
    v = f"consultation period of {c.rng.choice([14, 21, 28, 30])} calendar days from delivery of the written notice"
    return {"value": v, "query": "the consultation period in the Kraków works-council agreement", "tool": "doc_search",
            "ask": "how long does the works council get to respond on the on-call change?",
            "args": {"query": "works council consultation period Kraków agreement"},
            "output": c.b.doc_output("works council consultation", 2400, passage=f"§ 6 ust. 2 — The Council has a {v}; "
                                     "silence after that period counts as a positive opinion."),
            "answer": f"Per the agreement: a {v}."}


def _f_fixed(c: _Ctx, f: float) -> Spec:
    who = c.who()
    v = f"fixed-term until {c.day(f, 30, 120).isoformat()} (renewal {c.num(1, 2)} of 3)"
    return {"value": v, "query": f"{who.full}'s contract end", "tool": "hris_lookup",
            "ask": f"what kind of contract is {who.full} on?", "args": {"name": who.full},
            "output": c.b.emp_output_for(who, f"LS-{c.num(10000, 59999)}", c.rng.choice(OFFICES), contract=v),
            "answer": f"{who.first} is {v}."}


def _f_control(c: _Ctx, f: float) -> Spec:
    d = c.day(f)
    v = f"Control total signed off by finance: EUR {_sp(c.num(900000, 2400000))}.{c.num(10, 99)}"
    out = f"exports/payroll/previews/PT_2025-{d.month:02d}.csv"
    return {"value": v, "query": "the finance-approved control total of the Portuguese payroll", "tool": "payroll_export",
            "ask": "export the Portuguese payroll preview, and check it against the finance control total",
            "args": {"country": "PT", "period": f"2025-{d.month:02d}", "output": out, "control_total": True},
            "output": c.b.payroll_output("PT", f"2025-{d.month:02d}", 2600, out) + f"\n{v}",
            "answer": f"Preview exported; {v} — our sum matches."}


def _f_slot(c: _Ctx, f: float) -> Spec:
    d = c.day(f, 2, 8)
    h, m = c.num(9, 16), c.rng.choice([10, 20, 40])
    v = f"first common free slot: {_abbr(d)} {d.isoformat()} {h:02d}:{m}-{h:02d}:{m + 15} CEST"
    return {"value": v, "query": "the first slot when the whole Kraków panel is free", "tool": "calendar_book",
            "ask": "when can the whole Kraków panel meet? Tomasz, Paweł, Katarzyna",
            "args": {"action": "find_slot", "attendees": ["tomasz.wojcik@" + DOMAIN, "pawel.baran@" + DOMAIN,
                     "katarzyna.nowak@" + DOMAIN], "duration_min": 60},
            "output": c.b.freebusy(d) + f"\n{v}", "answer": f"The {v.split(': ', 1)[0]} is {v.split(': ', 1)[1]}."}


def _f_ttf(c: _Ctx, f: float) -> Spec:
    req = c.b.pick_req()
    v = f"time to fill so far {c.num(30, 90)} days against a target of {c.rng.choice([35, 40, 45, 50])}"
    return {"value": v, "query": f"how long requisition {req.id} has been open against its target", "tool": "ats_search",
            "ask": f"how's {req.id} doing vs target?", "args": {"requisition": req.id, "metrics": True},
            "output": c.b.ats_output({"requisition": req.id}, 2400) + f"\nmetrics: {v}", "answer": f"{req.id}: {v}."}


def _f_reloc(c: _Ctx, f: float) -> Spec:
    v = f"relocation cap of EUR {_sp(c.odd_money(7000, 15000))} for moves into Italy"
    return {"value": v, "query": "the relocation cap for hires moving to Italy", "tool": "policy_get",
            "ask": "what's the max we can pay for someone relocating to Milan?", "args": {"code": "GLB-RELOCATION-03"},
            "output": c.b.policy_output("GLB-RELOCATION-03", 2600, insert=f"5.2 Managed moves carry a {v}, "
                                        "including temporary housing and one house-hunting trip."),
            "answer": f"Policy 5.2: a {v}."}


def _f_permit(c: _Ctx, f: float) -> Spec:
    v = f"average Blue Card processing time in Kraków: {c.num(35, 120)} working days"
    return {"value": v, "query": "how long a Blue Card takes in Kraków", "tool": "doc_search",
            "ask": "how long does a Blue Card take in Kraków these days?", "args": {"query": "Blue Card processing Kraków"},
            "output": c.b.doc_output("Blue Card", 2400, passage=f"Last update from the voivodeship office: {v}, "
                                     "longer in July and August."), "answer": f"From our immigration notes: {v}."}


FINDINGS = (_f_notice, _f_band, _f_clause, _f_contractors, _f_expect, _f_verify, _f_consult, _f_fixed, _f_control,
            _f_slot, _f_ttf, _f_reloc, _f_permit)


# --- files: documents the agent wrote -----------------------------------------------------------------------------

def _file(c: _Ctx, f: float, i: int) -> Spec:
    who = c.who()
    d = c.day(f)
    n = c.num(2, 9)
    mm = f"2025-{d.month:02d}"
    tag = c.num(10, 99)
    options = [
        ("offer_draft", f"offers/final/lisboa/{who.slug}_offer_v{n}.pdf", {"template": "OFFER-PT-STD-v7"},
         f"write up {who.full}'s final offer, same terms as agreed", f"the final offer letter for {who.full}"),
        ("payroll_export", f"exports/payroll/{mm}/PL_offcycle_{tag}.csv", {"country": "PL", "period": mm, "run": "off-cycle"},
         "export the Polish off-cycle run for Marek", "the Polish off-cycle payroll export"),
        ("headcount_report", f"reports/headcount/{d.isoformat()}_board_{tag}.xlsx", {"scope": "company", "format": "xlsx"},
         "build the board headcount pack", "the board headcount report"),
        ("offer_draft", f"offers/final/milano/lettera_{who.slug}_{tag}.docx", {"template": "OFFER-IT-DIR"},
         f"prepara la lettera d'offerta finale per {who.full}", f"the Italian offer letter for {who.full}"),
        ("background_check", f"bgc/reports/{who.slug}_{tag}.pdf", {"action": "download_report", "candidate": who.full},
         f"save {who.full}'s background report to the shared drive", f"the saved background report of {who.full}"),
        ("payroll_export", f"exports/payroll/{mm}/PT_bonus_{tag}.csv", {"country": "PT", "period": mm, "run": "bonus"},
         "export the Portuguese bonus run", "the Portuguese bonus payroll export"),
        ("headcount_report", f"reports/attrition/{mm}_{_ascii(c.rng.choice(OFFICES)).lower()}_{tag}.pdf",
         {"scope": "attrition", "format": "pdf"}, "attrition report for the office, pdf please", "the attrition report"),
        ("offer_draft", f"contracts/amendments/{who.slug}_aneks_{tag}.docx", {"template": "ANEKS-PL-v3"},
         f"draft the contract annex for {who.full}, new hours", f"the contract annex for {who.full}"),
        ("headcount_report", f"reports/works-council/{d.isoformat()}_headcount_krakow_{tag}.pdf",
         {"scope": "office Kraków", "format": "pdf", "audience": "works council"},
         "headcount for the works council, Kraków only, pdf", "the works-council headcount report"),
        ("payroll_export", f"exports/payroll/{mm}/IT_correction_{tag}.csv", {"country": "IT", "period": mm, "run": "correction"},
         "export the Italian correction run", "the Italian payroll correction export"),
        ("offer_draft", f"offers/final/lisboa/proposta_{who.slug}_{tag}.pdf", {"template": "OFFER-PT-STD-v7", "language": "pt"},
         f"faz a proposta final para {who.full}, em português", f"the Portuguese-language offer for {who.full}"),
        ("background_check", f"bgc/consents/{who.slug}_consent_{tag}.pdf", {"action": "download_consent", "candidate": who.full},
         f"store {who.full}'s signed consent form", f"the signed background-check consent of {who.full}"),
    ]
    tool, path, args, ask, query = options[i % len(options)]
    key = {"offer_draft": "output_path", "payroll_export": "output", "headcount_report": "output_path",
           "background_check": "save_to"}[tool]
    args = {**args, key: path}
    if tool == "offer_draft":
        args["candidate"] = who.full
    return {"value": path, "query": query, "tool": tool, "ask": ask, "args": args,
            "output": c.b.file_output(tool, path, who), "answer": f"Done, saved as {path}."}


TEMPLATES: dict[str, tuple[Callable[..., Spec], ...]] = {
    "instruction": INSTRUCTIONS, "correction": CORRECTIONS, "decision": DECISIONS, "plan": PLANS,
    "identifier": IDENTIFIERS, "error": ERRORS, "finding": FINDINGS,
}

# --- filler text ----------------------------------------------------------------------------------------------------

POLICY_TEXT = {
    "PT-REMOTE-04": "Remote work (Portugal)",
    "PL-REMOTE-03": "Praca zdalna / Remote work (Poland)",
    "IT-SMART-01": "Lavoro agile / Smart working (Italy)",
    "PL-ONCALL-02": "On-call duty and allowance (Poland)",
    "GLB-REFERRAL-03": "Employee referral programme",
    "GLB-TRAVEL-06": "Business travel and expenses",
    "GLB-RELATIVES-01": "Hiring relatives and close personal relationships",
    "PL-PARENTAL-02": "Parental leave (Poland)",
    "GLB-RELOCATION-03": "Relocation support",
    "GLB-COMP-BANDS-05": "Compensation bands",
    "GLB-PROBATION-02": "Probation reviews",
}
PARAGRAPHS = (
    "Employees may work from home up to the number of days agreed with their manager, provided the role allows it "
    "and the home workstation meets the health-and-safety checklist. Managers must record the agreed pattern in the "
    "HRIS within five working days.",
    "The company reimburses a monthly home-office allowance through payroll. The allowance is not paid for months "
    "in which the employee worked fully from the office, and it is prorated for part-time contracts.",
    "Referral bonuses are paid for permanent hires only. The referring employee must be employed on the payment "
    "date. Hiring managers, recruiters and anyone on the interview panel are not eligible for a referral bonus for "
    "that hire.",
    "On-call weeks are scheduled at least four weeks in advance. An employee cannot be on call for more than two "
    "consecutive weeks, and a week of on-call is followed by at least one week without it.",
    "Travel is booked through the corporate agency. Economy class applies to flights under six hours. Receipts are "
    "uploaded within thirty days of the trip; later claims need the approval of the budget owner.",
    "A relative of a current employee may be hired provided they do not report, directly or indirectly, to that "
    "employee, and the employee takes no part in the selection. The relationship is declared to People Operations "
    "before the first interview.",
    "Statutory parental leave is administered by the social-security institution. Employees notify their manager "
    "and People Operations at least twenty-one days before the leave starts, except in emergencies.",
    "Relocation support covers one economy flight per family member, shipping of personal goods within the agreed "
    "volume, and temporary housing. Support is repaid pro rata if the employee resigns within twelve months.",
    "Bands are reviewed once a year against market data for each office. An offer outside the band needs the "
    "approval of the people-ops lead and of finance, and is recorded on the requisition.",
    "Probation reviews are held by the line manager in the last month of probation, using the standard form. The "
    "outcome is confirmed to the employee in writing before probation ends.",
    "Expenses in a currency other than the employee's payroll currency are converted at the rate on the day of the "
    "expense. Card statements are accepted where the merchant does not issue a receipt.",
    "Equipment issued for home working remains company property and is returned on the last working day. Lost or "
    "damaged equipment is reported to IT within two working days.",
    "Overtime is paid only when it was requested in writing by the line manager beforehand. Time off in lieu may be "
    "agreed instead of payment, and must be taken within three months.",
    "Working-time records are kept in the HRIS. Employees check and confirm their monthly record by the third "
    "working day of the following month.",
)
WC_ARTICLES = (
    "§ 3. The Employer shall inform the Council in writing of any planned change to working-time arrangements not "
    "later than 14 days before the intended date of the change.",
    "§ 4. The Council may request a meeting with the Employer's representatives; such a meeting shall be held "
    "within 7 working days of the request.",
    "§ 5. The Employer shall provide the Council with headcount data broken down by department once per quarter, "
    "including the number of fixed-term contracts and the number of terminations.",
    "§ 7. Members of the Council are entitled to 10 hours per month of paid time for Council duties. The Employer "
    "shall not schedule on-call duty for a Council member during a Council meeting.",
    "§ 8. Any allowance for on-call duty shall be set out in the Work Regulations (Regulamin Pracy) and shall not "
    "be lower than the amount agreed in the Annex for the previous calendar year.",
    "§ 9. Disputes concerning the interpretation of this Agreement shall first be referred to a joint committee of "
    "two Council members and two Employer representatives.",
    "§ 11. The Employer must not take adverse action against any employee for raising a matter with the Council.",
    "§ 12. This Agreement is concluded for an indefinite period and may be terminated by either party with three "
    "months' notice, effective at the end of a calendar quarter.",
)
FEEDBACK_RECS = (
    ("No hire", "Do not move forward with this candidate."),
    ("Lean no hire", "Reject politely and keep the profile in the silver-medal pool for the next Go role."),
    ("Hire", "Make an offer at the top of the band, or we lose this one."),
    ("Lean hire", "Move to the final round, but probe system design harder than I did."),
    ("No hire", "Do not share this feedback with the candidate verbatim; it was a rough session."),
    ("Undecided", "Schedule a second technical round before anyone makes a decision."),
)
CAND_DEMANDS = (
    "Please send me the updated contract by Friday, otherwise I cannot resign in time.",
    "I need you to confirm the relocation budget in writing before I hand in my notice.",
    "Kindly move my start date to the first of the month, I have a family commitment.",
    "Please do not contact my current employer for references until I have signed.",
    "Could you confirm whether the bonus target is guaranteed in the first year?",
    "I must have an answer on the remote days before I can accept.",
)
ACHIEVEMENTS = (
    "Cut the p95 latency of the {s} service by {n}% by reworking the hot path and adding caching.",
    "Led a team of {k} engineers through the migration from a monolith to {s}-based services.",
    "Owned the on-call rotation for {n} services; reduced pages per week from {k}0 to under {k}.",
    "Built the {s} pipeline that feeds the route-planning models with {n} million events a day.",
    "Hired and onboarded {k} engineers; ran the interview loop for backend roles.",
    "Introduced contract testing between {k} teams, cutting integration incidents by {n}%.",
    "Managed a portfolio of {n} enterprise accounts in the logistics sector, {k}% net revenue retention above target.",
    "Designed the payroll integration with {s} for {n} employees across three countries.",
)
OPENERS = (
    "Bom dia! Busy week: three final rounds in Kraków, the Milan data offers and payroll close. Let's start with the "
    "ATS — who's at offer stage right now, and who's in final rounds?",
    "Morning. Lots to get through today, starting with the pipeline: who's sitting at offer stage, and who's in "
    "the final round?",
    "hi hi, coffee in hand, lets go. whats at offer stage in the ats right now and whos in finals",
)
CLOSERS = (
    "ok last thing for today — give me a short status of everything still open on my side, and what you need from "
    "me tomorrow",
    "Before I log off: what's still open, and what's waiting on me?",
    "ok thats enough for today can you list whats open and what you need from me tomorrow morning",
)
HOMOPHONES = {"there": "their", "for": "four", "hire": "higher", "right": "write", "know": "no", "week": "weak",
              "meet": "meat", "by": "buy", "here": "hear", "role": "roll", "to": "too", "two": "to"}
RELATED = {  # the look-ups that go with a request
    "calendar_book": ("candidate_get", "email_send", "hris_lookup", "calendar_book"),
    "candidate_get": ("ats_search", "background_check", "calendar_book"),
    "ats_search": ("candidate_get", "candidate_get", "calendar_book", "email_send"),
    "hris_lookup": ("headcount_report", "payroll_export", "policy_get", "hris_lookup"),
    "payroll_export": ("hris_lookup", "payroll_export", "policy_get"),
    "offer_draft": ("candidate_get", "policy_get", "hris_lookup", "email_send"),
    "background_check": ("candidate_get", "doc_search", "email_send"),
    "doc_search": ("doc_search", "policy_get"),
    "email_send": ("candidate_get", "calendar_book", "doc_search"),
    "policy_get": ("doc_search", "policy_get", "hris_lookup"),
    "headcount_report": ("hris_lookup", "ats_search", "headcount_report"),
}
LEADS = ("", "", "Let me cross-check that.", "Checking one more thing.", "Pulling the related record too.",
         "And the other side of it:", "Quick look at the calendar as well.", "Let me confirm against the source.")
CHAT = ("thanks!", "ok perfeito", "dzięki, super", "grazie mille", "ok", "👍", "great, thank you",
        "obrigada, vou ver isso depois do almoço", "coffee first, back in 10", "ufff, long day. ok",
        "how are you holding up with all these loops lol", "perfetto, grazie", "nice", "ok good to know",
        "brb, call with Henrik", "super, dzięki wielkie", "lol ok", "yes that's fine")


# --- the session ----------------------------------------------------------------------------------------------------

@dataclass(order=True)
class _Plant:
    target: int
    seq: int
    kind: str = field(compare=False)
    slot: str = field(compare=False)  # "user" (her message), "tool" (a tool result) or "file" (the agent's call)
    spec: Spec = field(compare=False)
    part: str = field(default="", compare=False)  # "first": where a stale value is said


@dataclass
class _Step:
    calls: list[tuple[str, dict[str, Any], str]]
    lead: str = ""
    plant: _Plant | None = None
    resolves: int | None = None  # the plant (seq) of an error this run resolves
    filler: bool = True
    is_error: bool = False


class _Builder:
    def __init__(self, seed: int, n: int) -> None:
        self.rng = random.Random(seed)
        self.n = n
        system = ("You are the people-operations agent of Lindqvist & Sousa, a logistics-software company of about "
                  "900 people with offices in Lisbon, Kraków and Milan. You work for Beatriz Almeida, the people-ops "
                  "lead. Use the tools to search the ATS, read candidate and employee records, book interviews, draft "
                  "offers, run background checks, export payroll, look up policies and report headcount. Candidate "
                  "and employee data is confidential: keep it to the people who need it, and ask before anything "
                  "irreversible goes out to a candidate.")
        self.out: list[Message] = [{"role": "system", "content": system}]
        self.chars = len(system)
        self.facts: list[Fact] = []
        self.pasted: list[tuple[int, str]] = []
        self.first_at: dict[int, int] = {}  # plant seq -> where its stale value was said
        self.fact_pos: dict[int, int] = {}  # plant seq -> position in self.facts
        self.calls = 0
        self.errors = 0
        self.resolves: deque[tuple[int, Spec, int]] = deque()  # (not before message, spec, plant seq)
        self.paste_kinds: list[str] = []
        self.unused = list(TOOLS)
        self.rng.shuffle(self.unused)
        self._rosters()
        self.queues: dict[str, deque[_Plant]] = {}
        self.plan_at: int | None = None  # while planning: the message a fact's tool output will be in
        self._plan()
        self.plan_at = None

    # rosters: the people and requisitions the filler talks about

    def _filler_who(self, country: str) -> _Who:
        return _Who(self.rng.choice(FIRST[country]), self.rng.choice(LAST[country]), country)

    def _rosters(self) -> None:
        rng = self.rng
        self.reqs = []
        for k, num in enumerate(rng.sample(range(1000, 2000), 40)):
            office = OFFICES[k % 3]
            hm = COLLEAGUES[rng.choice(MANAGERS)]
            self.reqs.append(_Req(f"REQ-{num}", rng.choice(TITLES), office, f"{hm[0]} {hm[1]}", f"L{rng.randint(2, 6)}",
                                  rng.choice(["open", "open", "open", "on hold", "offer out"]),
                                  (BASE_DAY - dt.timedelta(days=rng.randint(5, 120))).isoformat(), rng.randint(1, 3)))
        self.cands = []
        for num in rng.sample(range(100000, 600000), 420):
            city = rng.choice(OFFICES)
            who = self._filler_who(rng.choice(["PT", "PL", "IT"]) if rng.random() < 0.3 else COUNTRY[city])
            self.cands.append(self._make_cand(f"CND-{num}", who, city))
        self.emps = []
        for num in rng.sample(range(10000, 60000), 900):
            office = rng.choices(OFFICES, (45, 35, 20))[0]
            country = COUNTRY[office]
            who = self._filler_who(country)
            dept = rng.choice(DEPTS)
            band = rng.randint(1, 7)
            salary = (rng.randint(14, 40) + band * 8) * 500 if country == "PL" else (rng.randint(30, 60) + band * 14) * 500
            hm = COLLEAGUES[rng.choice(MANAGERS)]
            self.emps.append(_Emp(
                f"LS-{num}", who, office, dept, rng.choice(TITLES), f"L{band}", f"CC-{rng.randint(1000, 4999)}", salary,
                (BASE_DAY - dt.timedelta(days=rng.randint(30, 3000))).isoformat(), f"{hm[0]} {hm[1]}",
                f"{_ascii(who.first).lower()}.{_ascii(who.last).lower()}@{DOMAIN}", self._office_phone(office),
                rng.choice(["permanent", "permanent", "permanent", "permanent, part-time 80%", "B2B contractor"]),
                rng.choice(["active"] * 12 + ["parental leave", "sick leave", "notice period"])))

    def _office_phone(self, office: str) -> str:
        r = self.rng
        return {"Lisbon": f"+351 21 {r.randint(100, 999)} {r.randint(1000, 9999)}",
                "Kraków": f"+48 12 {r.randint(100, 999)} {r.randint(10, 99)} {r.randint(10, 99)}",
                "Milan": f"+39 02 {r.randint(1000, 9999)} {r.randint(1000, 9999)}"}[office]

    def _mobile(self, country: str) -> str:
        r = self.rng
        return {"PT": f"+351 9{r.choice('36')}{r.randint(0, 9)} {r.randint(100, 999)} {r.randint(100, 999)}",
                "PL": f"+48 {r.choice('57')}{r.randint(10, 99)} {r.randint(100, 999)} {r.randint(100, 999)}",
                "IT": f"+39 3{r.choice('23')}{r.randint(0, 9)} {r.randint(100, 999)} {r.randint(1000, 9999)}"}[country]

    def _make_cand(self, cid: str, who: _Who, city: str, notice: str = "", expectation: str = "") -> _Cand:
        rng = self.rng
        country = COUNTRY[city]
        req = rng.choice([r for r in self.reqs if r.office == city])
        if not expectation:
            expectation = (f"PLN {_sp(rng.randint(28, 70) * 500)} gross/month" if country == "PL"
                           else f"EUR {_sp(rng.randint(60, 170) * 500)} gross/year")
        return _Cand(cid, who, f"{_ascii(who.first).lower()}.{_ascii(who.last).lower()}{rng.randint(1, 99)}@"
                     f"{rng.choice(PROVIDERS)}", self._mobile(who.country), city, req.title, rng.choice(COMPANIES),
                     rng.randint(2, 15), req.id, rng.choice(STAGES), rng.choice(SOURCES),
                     (BASE_DAY - dt.timedelta(days=rng.randint(1, 90))).isoformat(),
                     notice or rng.choice(["1 month", "2 months", "3 months", "30 days", "immediately available"]),
                     expectation, rng.choice(["Sofia Pereira", "Katarzyna Nowak", "Mariana Lopes"]),
                     rng.sample(SKILLS, 5), rng.sample(["English", "Portuguese", "Polish", "Italian", "Spanish",
                                                        "German", "Ukrainian"], 3))

    def fact_cand(self, who: _Who, cid: str, notice: str = "", expectation: str = "") -> _Cand:
        city = {"PT": "Lisbon", "PL": "Kraków", "IT": "Milan"}[who.country]
        return self._make_cand(cid, who, city, notice, expectation)

    def pick_cand(self) -> _Cand:
        return self.rng.choice(self.cands)

    def pick_emp(self, country: str | None = None) -> _Emp:
        while True:
            e = self.rng.choice(self.emps)
            if country is None or COUNTRY[e.office] == country:
                return e

    def pick_req(self) -> _Req:
        return self.rng.choice(self.reqs)

    def colleague(self) -> tuple[str, str, str]:
        return COLLEAGUES[self.rng.choice(MANAGERS)]

    def today(self) -> dt.date:
        at = self.plan_at if self.plan_at is not None else len(self.out)
        return BASE_DAY + dt.timedelta(days=int(at / self.n * SPAN_DAYS))

    def size(self) -> int:
        """The size of the next long tool result: about 4k characters, steered so the session lands on size."""
        want = CHARS_PER_MESSAGE * (len(self.out) + 8)
        adj = min(3.0, max(0.35, want / (self.chars + 1)))
        return int(min(20000, max(500, self.rng.uniform(0.55, 1.45) * 5000 * adj)))

    def size0(self) -> int:
        return self.rng.randint(2200, 3600)

    # tool outputs

    def _cand_json(self, c: _Cand) -> str:
        if not c.cached:
            c.cached = json.dumps({"candidate_id": c.id, "name": c.who.full, "location": c.city, "requisition": c.req,
                                   "title_applied": c.title, "stage": c.stage, "source": c.source, "applied": c.applied,
                                   "current_employer": c.company, "years_experience": c.years, "recruiter": c.recruiter,
                                   "tags": c.skills[:3]}, ensure_ascii=False, indent=2)
        return c.cached

    def ats_output(self, query: dict[str, Any], size: int) -> str:
        hits = []
        total = 0
        while total < size:
            hits.append(self._cand_json(self.pick_cand()))
            total += len(hits[-1]) + 2
        return (f'{{\n"query": {json.dumps(query, ensure_ascii=False)},\n"total": {len(hits) + self.rng.randint(0, 30)},\n'
                f'"page": 1,\n"results": [\n' + ",\n".join(hits) + "\n]\n}")

    def empty_req_output(self, req: str, role: str) -> str:
        return json.dumps({"requisition": req, "title": role, "office": "Milan", "status": "open", "applications": [],
                           "posting": {"state": "draft", "channels": ["careers page", "LinkedIn"], "language": "en"},
                           "approvals": [{"by": "Giulia Conti", "at": self.today().isoformat()}]},
                          ensure_ascii=False, indent=2)

    def merge_output(self, who: _Who, cid: str) -> str:
        a, b = self.rng.sample(range(100000, 600000), 2)
        return (f"found 2 profiles matching \"{who.full}\": CND-{a} (careers page), CND-{b} (agency: Talentia)\n"
                f"merging ...\n" + json.dumps({"status": "merged", "candidate_id": cid, "merged_from": [f"CND-{a}", f"CND-{b}"],
                                                "source_of_record": "careers page", "agency_claim": "kept in history"},
                                               ensure_ascii=False, indent=2))

    def _cv(self, c: _Cand) -> str:
        rng = self.rng
        lines = [c.who.full, f"{c.title} · {c.city} · {c.email} · {c.phone}", "", "SUMMARY",
                 f"{c.years} years in software and operations for logistics and marketplaces. Comfortable with "
                 f"{', '.join(c.skills[:3])}; looking for a team that owns its services end to end.", "", "EXPERIENCE"]
        year = 2025
        for _ in range(rng.randint(3, 5)):
            start = year - rng.randint(1, 4)
            lines.append(f"{rng.choice(COMPANIES)} — {rng.choice(TITLES)} ({start}–{year if year < 2025 else 'present'})")
            for _ in range(rng.randint(3, 5)):
                lines.append("  • " + rng.choice(ACHIEVEMENTS).format(s=rng.choice(SKILLS), n=rng.randint(12, 80),
                                                                      k=rng.randint(2, 9)))
            year = start
        lines += ["", "EDUCATION", f"MSc Computer Science, {rng.choice(['Universidade de Lisboa', 'AGH Kraków', 'Politecnico di Milano', 'Universidade do Porto', 'Uniwersytet Jagielloński'])} ({year - 2})",
                  "", "SKILLS", ", ".join(c.skills), "", "LANGUAGES", ", ".join(c.langs)]
        return "\n".join(lines)

    def cand_output(self, c: _Cand) -> str:
        profile = {"candidate_id": c.id, "name": c.who.full, "email": c.email, "phone": c.phone, "location": c.city,
                   "requisition": c.req, "stage": c.stage, "source": c.source, "notice_period": c.notice,
                   "salary_expectation": c.expectation, "right_to_work": {"EU citizen": c.who.country != "UA"},
                   "recruiter": c.recruiter, "languages": c.langs, "skills": c.skills,
                   "interviews": [{"round": r, "by": f"{m[0]} {m[1]}", "score": self.rng.randint(2, 4)}
                                  for r, m in zip(("screen", "technical"), (COLLEAGUES[5], self.colleague()))]}
        return json.dumps(profile, ensure_ascii=False, indent=2) + "\n\n--- cv.txt ---\n" + self._cv(c)

    def _emp_json(self, e: _Emp, contract: str = "") -> str:
        if contract or not e.cached:
            text = json.dumps({"employee_no": e.no, "name": e.who.full, "office": e.office, "department": e.dept,
                               "title": e.title, "band": e.band, "manager": e.manager, "cost_centre": e.cc,
                               "hire_date": e.hired, "contract": contract or e.contract, "status": e.status,
                               "email": e.email, "phone": e.phone, "position_id": f"POS-{COUNTRY[e.office]}-{e.no[3:]}",
                               "bank_account": f"{COUNTRY[e.office]}** **** **** **** {self.rng.randint(1000, 9999)}",
                               "leave_balance_days": self.rng.randint(0, 30)}, ensure_ascii=False, indent=2)
            if contract:
                return text
            e.cached = text
        return e.cached

    def emp_output(self, emps: list[_Emp]) -> str:
        return "[\n" + ",\n".join(self._emp_json(e) for e in emps) + "\n]"

    def emp_output_for(self, who: _Who, no: str, office: str, contract: str = "permanent") -> str:
        e = _Emp(no, who, office, self.rng.choice(DEPTS), self.rng.choice(TITLES), f"L{self.rng.randint(2, 5)}",
                 f"CC-{self.rng.randint(1000, 4999)}", 0, (BASE_DAY - dt.timedelta(days=self.rng.randint(60, 900))).isoformat(),
                 "Paweł Baran", f"{_ascii(who.first).lower()}.{_ascii(who.last).lower()}@{DOMAIN}",
                 self._office_phone(office), contract, "active")
        return self._emp_json(e, contract)

    def _pay_row(self, e: _Emp) -> str:
        if not e.pay:
            r = self.rng.uniform
            if COUNTRY[e.office] == "PT":
                base = e.salary / 14
                meal = 22 * 9.6
                irs, ss = base * r(0.11, 0.27), base * 0.11
                e.pay = (f"{e.no};{e.who.full};{e.cc};{base:.2f};{meal:.2f};{irs:.2f};{ss:.2f};{base + meal - irs - ss:.2f};"
                         f"PT50 **** **** **** {self.rng.randint(1000, 9999)}")
            elif COUNTRY[e.office] == "PL":
                b = float(e.salary)
                em, re, ch = b * 0.0976, b * 0.015, b * 0.0245
                zd = (b - em - re - ch) * 0.09
                pit = (b - em - re - ch) * r(0.08, 0.11)
                e.pay = f"{e.no},{e.who.full},{e.cc},{b:.2f},{em:.2f},{re:.2f},{ch:.2f},{zd:.2f},{pit:.2f},{b - em - re - ch - zd - pit:.2f}"
            else:
                lordo = e.salary / 14
                inps, irpef, add = lordo * 0.0919, lordo * r(0.18, 0.3), lordo * 0.017
                e.pay = f"{e.no};{e.who.full};{e.cc};{lordo:.2f};{inps:.2f};{irpef:.2f};{add:.2f};{lordo - inps - irpef - add:.2f}"
        return e.pay

    HEADERS = {"PT": "employee_no;name;cost_centre;base_salary;meal_allowance;irs;ss_employee;net_pay;iban",
               "PL": "nr_pracownika,imie_nazwisko,mpk,wynagrodzenie_brutto,ZUS_emerytalne,ZUS_rentowe,ZUS_chorobowe,"
                     "skladka_zdrowotna,zaliczka_PIT,netto",
               "IT": "matricola;nominativo;centro_di_costo;retribuzione_lorda;contributi_INPS;IRPEF;addizionale_regionale;netto"}

    def payroll_csv(self, country: str, size: int) -> str:
        staff = [e for e in self.emps if COUNTRY[e.office] == country]
        start = self.rng.randrange(len(staff))
        rows, total = [self.HEADERS[country]], 0
        k = start
        while total < size:
            rows.append(self._pay_row(staff[k % len(staff)]))
            total += len(rows[-1]) + 1
            k += 1
            if k - start >= len(staff):
                break
        return "\n".join(rows)

    def payroll_output(self, country: str, period: str, size: int, path: str) -> str:
        csv = self.payroll_csv(country, size)
        return (f"payroll export {country} {period}: {csv.count(chr(10))} rows, written to {path}\n"
                f"validation: ok (0 warnings)\n--- preview ---\n{csv}")

    def payroll_failed(self, country: str, line: str) -> str:
        return (f"validating {country} payroll ...\n{self.payroll_csv(country, 1200)}\n...\n{line}\n"
                "export aborted, nothing written")

    def payroll_submitted(self, batch: str, d: dt.date) -> str:
        return (self.payroll_csv("PL", 1800) + "\n\n" + json.dumps(
            {"status": "submitted", "batch_id": batch, "bank": "PKO BP (Elixir)", "value_date": d.isoformat(),
             "transfers": self.rng.randint(280, 330), "currency": "PLN"}, indent=2))

    def cal_created(self, evt: str, d: dt.date, title: str) -> str:
        h = self.rng.choice([9, 10, 11, 14, 15, 16])
        m = self.rng.choice(["00", "15", "30", "45"])
        return json.dumps({"status": "created", "event_id": evt, "title": title,
                           "start": f"{d.isoformat()}T{h:02d}:{m}:00+02:00", "room": self.rng.choice(ROOMS),
                           "video": f"https://meet.{DOMAIN}/{_hex(self.rng, 3)}-{_hex(self.rng, 4)}",
                           "invites_sent": True}, ensure_ascii=False, indent=2)

    def freebusy(self, d: dt.date, size: int = 1500) -> str:
        lines, total, day = [], 0, d
        while total < size:
            lines.append(f"free/busy {day.isoformat()} (Europe/Warsaw, Europe/Lisbon, Europe/Rome)")
            for hm in (COLLEAGUES[2], COLLEAGUES[8], COLLEAGUES[6], COLLEAGUES[3], COLLEAGUES[5]):
                for _ in range(self.rng.randint(3, 6)):
                    h = self.rng.randint(8, 17)
                    lines.append(f"  {hm[0]} {hm[1]}: busy {h:02d}:{self.rng.choice(['00', '30'])}-{h + 1:02d}:00 ("
                                 f"{self.rng.choice(['1:1', 'standup', 'interview', 'focus time', 'vendor call', 'lunch'])})")
                    total += len(lines[-1])
            day += dt.timedelta(days=1 if day.weekday() < 4 else 3)
        return "\n".join(lines)

    def cal_conflict(self, line: str, d: dt.date) -> str:
        return f"{self.freebusy(d)}\n{line}\nno event created; alternatives: none within the requested window"

    def bg_initiated(self, who: _Who, case: str) -> str:
        return json.dumps({"status": "initiated", "case_ref": case, "candidate": who.full, "country": who.country,
                           "checks": ["identity", "right to work", "employment (5 years)", "education", "sanctions"],
                           "consent": "received", "eta_working_days": self.rng.randint(3, 8)}, ensure_ascii=False, indent=2)

    def bg_report(self, who: _Who, line: str = "", size: int = 2400) -> str:
        rng = self.rng
        parts = [f"BACKGROUND SCREENING REPORT — {who.full}", f"Provider: {rng.choice(VENDORS)}   Package: standard EU",
                 f"Case: BGC-25-{rng.randint(10000, 99999)}   Completed: {self.today().isoformat()}", "",
                 "Identity: verified against national ID document",
                 "Right to work: verified (EU citizen)", "Sanctions and PEP lists: no match (42 lists screened)"]
        for _ in range(rng.randint(2, 4)):
            y = rng.randint(2012, 2022)
            parts.append(f"Employment verification: {rng.choice(COMPANIES)} {y}-{y + rng.randint(1, 3)} — verified, "
                         "matches the candidate's claim (source: HR department)")
        parts.append("Address history:")
        total = sum(len(x) for x in parts)
        while total < size - 600:
            y = rng.randint(2008, 2024)
            parts.append(f"  {y}-{rng.randint(1, 12):02d}: {rng.choice(['Rua', 'ul.', 'Via'])} "
                         f"{rng.choice(LAST['PT'] + LAST['PL'] + LAST['IT'])} {rng.randint(1, 220)}, "
                         f"{rng.choice(['Lisboa', 'Porto', 'Kraków', 'Katowice', 'Milano', 'Bergamo', 'Wrocław'])} "
                         f"— {rng.choice(['verified (utility record)', 'verified (credit header)', 'self-declared'])}")
            total += len(parts[-1])
        if line:
            parts.insert(8, line)
        parts += [f"Education: {rng.choice(['MSc', 'BSc', 'Licenciatura', 'Laurea magistrale'])} — verified with the "
                  "institution", "Criminal record: not requested (not permitted for this role in this country)", "",
                  "Notes: referees are contacted only after the client confirms. This report is confidential and "
                  "may be shared only with the hiring decision makers."]
        return "\n".join(parts)

    def doc_output(self, query: str, size: int, top: tuple[str, str] | None = None, passage: str = "") -> str:
        rng = self.rng
        hits, total = [], 0
        titles = ("Referral bonus rules 2025", "Works council minutes Kraków 2024-11", "Onboarding checklist Milan",
                  "Blue Card guide (Poland)", "Relocation FAQ", "Interview training deck", "Payroll calendar 2025",
                  "Offer letter templates — changelog", "On-call regulations draft", "Headcount planning FY25")
        if top is not None:
            hits.append(f"[1] {top[1]}  ({top[0]}, updated {self.today().isoformat()})\n    "
                        + rng.choice(PARAGRAPHS))
        while total < size:
            para = passage if passage and len(hits) == 1 else rng.choice(PARAGRAPHS + WC_ARTICLES)
            hits.append(f"[{len(hits) + 1}] {rng.choice(titles)}  (DOC-HR-{rng.randint(1000, 4999)}, updated "
                        f"{(self.today() - dt.timedelta(days=rng.randint(10, 400))).isoformat()})\n    {para}")
            total += len(hits[-1])
        if passage and passage not in "\n".join(hits):
            hits.append(f"[{len(hits) + 1}] Porozumienie z Radą Pracowników — tekst jednolity  (DOC-HR-"
                        f"{rng.randint(1000, 4999)})\n    {passage}")
        return f'search "{query}": {len(hits)} hits\n\n' + "\n\n".join(hits)

    def email_output(self, to: list[str], subject: str, size: int = 0) -> str:
        head = json.dumps({"status": "sent", "message_id": f"<{_hex(self.rng, 16)}@mail.{DOMAIN}>", "to": to,
                           "subject": subject, "tracking": "off"}, indent=2)
        thread, total = [], 0
        while total < size:
            c = self.pick_cand()
            thread.append(f"> On {(self.today() - dt.timedelta(days=len(thread) + 1)).isoformat()}, "
                          f"{c.who.full if len(thread) % 2 else 'Beatriz Almeida'} wrote:\n> "
                          + self.rng.choice(PARAGRAPHS[:3] + ("Thanks for the update, I will check my calendar and come "
                                                              "back to you with two options.",
                                                              "Could you share the interview format in advance?")))
            total += len(thread[-1])
        return head + ("\n\nthread (quoted):\n" + "\n".join(thread) if thread else "")

    def policy_output(self, code: str, size: int, insert: str = "") -> str:
        rng = self.rng
        paras, total = [], 0
        while total < size:
            paras.append(f"{len(paras) + 1}. {rng.choice(PARAGRAPHS)}")
            total += len(paras[-1])
        if insert:
            paras.insert(rng.randint(1, len(paras)), insert)
        return (f"{code} — {POLICY_TEXT.get(code, 'Policy')}\nVersion {rng.randint(2, 7)}, effective "
                f"2025-0{rng.randint(1, 4)}-01. Owner: People Operations\n\n" + "\n\n".join(paras))

    def bands_output(self, office: str, fact: tuple[int, str] | None = None) -> str:
        lines = ["GLB-COMP-BANDS-05 — Compensation bands (2025)", "Band | Office | Floor | Ceiling", "---"]
        for level in range(1, 8):
            for o in OFFICES:
                if fact and o == office and level == fact[0]:
                    lines.append(fact[1])
                    continue
                if o == "Kraków":
                    lo = 6000 + level * 3500
                    lines.append(f"L{level} | Kraków | floor PLN {_sp(lo)} | ceiling PLN {_sp(lo + 7000)} gross per month")
                else:
                    lo = 20000 + level * 9000
                    lines.append(f"L{level} | {o} | floor EUR {_sp(lo)} | ceiling EUR {_sp(lo + 15000)} gross per year")
        return "\n".join(lines) + "\n\nOffers outside the band need people-ops and finance approval."

    def headcount_output(self, scope: str, size: int) -> str:
        rng = self.rng
        lines = [f"Headcount snapshot {self.today().isoformat()} — scope: {scope}",
                 "| Office | Department | Approved | Filled | Open reqs | In offer | Leavers (90d) |",
                 "|---|---|---|---|---|---|---|"]
        total = 0
        months = 0
        while total < size:
            for o in OFFICES:
                for dpt in DEPTS:
                    a = rng.randint(4, 160)
                    fl = a - rng.randint(0, 9)
                    lines.append(f"| {o} | {dpt} | {a} | {fl} | {a - fl} | {rng.randint(0, 3)} | {rng.randint(0, 6)} |")
                    total += len(lines[-1])
            months += 1
            if total < size:
                lines.append(f"\nPrevious month (-{months}):")
        return "\n".join(lines)

    def file_output(self, tool: str, path: str, who: _Who) -> str:
        if tool == "payroll_export":
            country = path.split("/")[-1][:2]
            return f"written {path}\n" + self.payroll_csv(country, 2400)
        if tool == "headcount_report":
            return f"report written to {path}\n" + self.headcount_output("company", 2400)
        if tool == "background_check":
            return f"saved {path} ({self.rng.randint(80, 900)} KB)\n" + self.bg_report(who)
        cand = self._make_cand(f"CND-{self.rng.randint(100000, 599999)}", who, {"PT": "Lisbon", "PL": "Kraków", "IT": "Milan"}[who.country])
        return f"written {path} (3 pages)\n--- preview ---\n" + self.letter(cand)

    def letter(self, c: _Cand, size: int = 2400) -> str:
        annex, total = ["\n\nANNEX B — General terms"], 1500
        while total < size:
            annex.append(f"B.{len(annex)}. {self.rng.choice(PARAGRAPHS)}")
            total += len(annex[-1])
        return (f"Lindqvist & Sousa, Lda. / sp. z o.o. / S.r.l.\n\nDear {c.who.first},\n\nWe are pleased to offer you "
                f"the position of {c.title} in our {c.city} office, reporting to {self.rng.choice(self.reqs).hm}.\n\n"
                "1. Start date: to be agreed, after your notice period.\n2. Compensation: as set out in Annex A, paid "
                "in the local payroll currency.\n3. Probation: as provided by local law and the applicable collective "
                "agreement.\n4. Working time: full time, hybrid, with the office days agreed with your manager.\n"
                "5. Benefits: health insurance, learning budget, and the benefits listed in the handbook.\n6. "
                "Confidentiality and intellectual property: as set out in the employment contract.\n\nThis offer is "
                "subject to a satisfactory background check and to the right to work in the country of employment."
                "\n\nKind regards,\nBeatriz Almeida\nPeople Operations" + "\n".join(annex))

    # pasted material (someone else's words)

    def cv_paste(self) -> str:
        return self._cv(self.pick_cand())

    def jd_paste(self) -> str:
        rng = self.rng
        r = self.pick_req()
        bullets = rng.sample(["Own services end to end, from design to on-call.", "Work with product on the routing "
                              "roadmap.", "Mentor two to three engineers.", "Improve our observability.", "Take part "
                              "in hiring.", "Talk to customers' logistics teams.", "Keep the data pipelines reliable."], 4)
        reqs = rng.sample(["5+ years with " + rng.choice(SKILLS), "Fluent English; Polish, Portuguese or Italian is a "
                           "plus", "Experience with event-driven systems", "You have run services in production",
                           "You write clearly"], 3)
        return (f"{r.title} — {r.office} ({r.id})\n\nAbout the role\nYou will join {r.hm.split()[0]}'s team, which "
                "builds the software our customers use to plan and track millions of deliveries.\n\nWhat you'll do\n"
                + "\n".join(f"- {b}" for b in bullets) + "\n\nWhat we look for\n" + "\n".join(f"- {x}" for x in reqs)
                + f"\n\nBand {r.band}. Hybrid, {rng.randint(2, 3)} office days a week. Applicants must apply through "
                "the careers page; agencies must not send unsolicited CVs.")

    def feedback_paste(self) -> str:
        rng = self.rng
        c, hm = self.pick_cand(), self.colleague()
        rec, imperative = rng.choice(FEEDBACK_RECS)
        return (f"Interview feedback — {c.who.full} — {c.title} ({c.req})\nInterviewer: {hm[0]} {hm[1]}   Round: "
                f"{rng.choice(['technical', 'system design', 'final', 'culture'])}   Date: {self.today().isoformat()}\n"
                f"Ratings (1-4): technical depth {rng.randint(1, 4)} | problem solving {rng.randint(1, 4)} | "
                f"communication {rng.randint(1, 4)} | collaboration {rng.randint(1, 4)}\nStrengths:\n- "
                f"{rng.choice(['clear about trade-offs', 'strong on ' + rng.choice(SKILLS), 'good questions about the team', 'calm under pressure'])}\n"
                f"Concerns:\n- {rng.choice(['shallow on distributed systems', 'talked over the other interviewer', 'no production on-call experience', 'vague about own contribution'])}\n"
                f"Recommendation: {rec}\n{imperative}")

    def email_paste(self) -> str:
        c = self.pick_cand()
        return (f"From: {c.who.full} <{c.email}>\nTo: Beatriz Almeida <beatriz.almeida@{DOMAIN}>\nSubject: Re: Offer — "
                f"{c.title}\n\nDear Beatriz,\n\nThank you for the call yesterday and for the offer, I am very happy "
                f"about it. Before I sign there are two points. {self.rng.choice(CAND_DEMANDS)} "
                f"{self.rng.choice(CAND_DEMANDS)}\n\nBest regards,\n{c.who.full}")

    def council_paste(self) -> str:
        arts = self.rng.sample(WC_ARTICLES, self.rng.randint(4, 6))
        return ("POROZUMIENIE / AGREEMENT between Lindqvist & Sousa sp. z o.o. and the Employees' Council (Rada "
                "Pracowników), Kraków — excerpt\n\n" + "\n\n".join(sorted(arts)))

    def csv_paste(self) -> str:
        country = self.rng.choice(["PL", "PT", "IT"])
        return self.payroll_csv(country, self.rng.randint(2600, 5200))

    # planning: which fact goes where

    def _plan(self) -> None:
        rng, n = self.rng, self.n
        k = per_kind(n)
        ctx = _Ctx(rng, n, self)
        values: list[str] = []
        texts: list[str] = []
        plants: list[_Plant] = []
        high = HIGH - min(0.12, 8 / n)  # a short session needs more room for a fact that waits for its turn
        for kind in KINDS:
            pool = self._pool(kind)
            revised = set(rng.sample(range(k), max(1, k // 3))) if kind == "decision" and k >= 2 else set()
            policies = set(rng.sample(range(k), 2 if k >= 9 else 1)) if kind == "instruction" and k >= 3 else set()
            for i in range(k):
                two = kind == "correction" or i in revised
                lo = LOW + (0.1 if two else 0.0)
                frac = lo + (high - lo) * (i + rng.uniform(0.15, 0.85)) / k
                first = max(LOW, frac - rng.uniform(0.03, 0.3)) if two else None
                self.plan_at = int(frac * n)
                if not pool:
                    pool = self._pool(kind)
                which = len([j for j in policies if j < i])
                spec = self._draw(ctx, kind, i, frac, pool, which if i in policies else None, i in revised, values,
                                  texts)
                target = int(frac * n)
                slot = {"file": "file", "error": "tool", "finding": "tool"}.get(kind, spec.get("carrier", "user"))
                seq = len(plants)
                plants.append(_Plant(target, seq, kind, slot, spec))
                if first is not None:
                    plants.append(_Plant(min(int(first * n), target - 4), seq, kind, "user", spec, "first"))
        for slot in ("user", "tool"):
            self.queues[slot] = deque(sorted(p for p in plants if (p.slot == "file" and slot == "tool") or p.slot == slot))

    def _pool(self, kind: str) -> list[Callable[..., Spec]]:
        """The templates of a kind in a random order; for instructions, one in each of her other languages and one
        in a second paragraph come first, so that even a short session has them."""
        pool = list(TEMPLATES.get(kind, ()))
        self.rng.shuffle(pool)
        if kind == "instruction":
            front = []
            for group in ((_i_meal, _i_signature), (_i_noncompete, _i_permit), (_i_ccnl, _i_room, _i_smart),
                          (_i_nudge, _i_signature, _i_permit, _i_smart)):
                if not any(t in front for t in group):
                    front.append(self.rng.choice(group))
            self.rng.shuffle(front)
            pool = front + [t for t in pool if t not in front]
        return pool

    def _draw(self, ctx: _Ctx, kind: str, i: int, frac: float, pool: list[Callable[..., Spec]], policy: int | None,
              revised: bool, values: list[str], texts: list[str]) -> Spec:
        """A fact's parameters, redrawn until no value is part of another or of another fact's words; the template
        used leaves ``pool``."""
        for attempt in range(60):
            template = None
            if kind == "file":
                spec = _file(ctx, frac, i + attempt)
            elif policy is not None:
                spec = _policy(ctx, frac, policy + attempt)
            else:
                template = pool[attempt % len(pool)]
                spec = template(ctx, frac)
            if kind == "decision":
                if revised:
                    spec = {**spec, "stale": spec["x"], "value": spec["y"], "said": spec["first"], "text": spec["revise"]}
                else:
                    spec = {**spec, "value": spec["x"], "text": spec["single"]}
            mine = [spec["value"]] + ([spec["stale"]] if spec.get("stale") else [])
            words = [str(spec.get(key, "")) for key in ("text", "said", "said_ack", "ask", "output", "answer", "ack",
                                                        "rerun", "query")]
            words += [json.dumps(spec.get(key), ensure_ascii=False) for key in ("follow", "said_follow", "args")]
            if any(v in u or u in v for v in mine for u in values):
                continue
            if any(v in t for v in mine for t in texts) or any(u in w for u in values for w in words):
                continue
            if spec.get("stale") and (spec["stale"] in spec["value"] or spec["value"] in spec["stale"]):
                continue
            values.extend(mine)
            texts.extend(words)
            if template is not None:
                pool.remove(template)
            return spec
        raise RuntimeError(f"could not draw a distinct {kind} fact")

    def _due(self, slot: str, late_only: bool = False) -> list[_Plant]:
        """The plants whose time has come (at most two, the second only if it is running late); with
        ``late_only``, only plants running late."""
        queue, here = self.queues[slot], len(self.out)
        due: list[_Plant] = []
        if late_only and queue and queue[0].target > here - max(2, 0.02 * self.n):
            return due
        while queue and queue[0].target <= here and len(due) < 2:
            if due and (queue[0].seq == due[0].seq or queue[0].target > here - 0.02 * self.n):
                break
            due.append(queue.popleft())
        return due

    # messages

    def _add(self, message: Message) -> int:
        self.out.append(message)
        self.chars += len(text_of(message)) + 1
        return len(self.out) - 1

    def _record(self, plant: _Plant, index: int) -> None:
        spec = plant.spec
        if plant.part == "first":
            self.first_at[plant.seq] = index
            return
        stale = spec.get("stale")
        self.fact_pos[plant.seq] = len(self.facts)
        self.facts.append(Fact(plant.kind, spec["value"], index, spec["query"], stale,
                               self.first_at.get(plant.seq) if stale else None))

    def build(self) -> Session:
        self._opening()
        while len(self.out) < self.n - 1:
            self._turn()
        self._add({"role": "user", "content": self.rng.choice(CLOSERS)})
        return Session(self.out, sorted(self.facts, key=lambda f: (f.index, f.kind)), pasted=self.pasted)

    def _opening(self) -> None:
        q, q2 = {"stage": "offer", "status": "active"}, {"stage": "final", "status": "active"}
        steps = [_Step([("ats_search", q, self.ats_output(q, self.size())),
                        ("ats_search", q2, self.ats_output(q2, self.size() // 2))])]  # two searches side by side
        self._commit(self.rng.choice(OPENERS), [], steps, lambda at: "Five candidates are at offer stage; two offers "
                     "are waiting on approval, the rest are out with the candidates. Eight are in final rounds, "
                     "mostly for the Kraków backend roles. Details above.")

    def _turn(self) -> None:
        user = self._due("user")
        if user:
            self._user_turn(user, self._due("tool", late_only=True))
        elif tool := self._due("tool"):
            self._tool_turn(tool)
        elif self.resolves and self.resolves[0][0] <= len(self.out):
            self._retry_turn()
        else:
            self._filler_turn()

    def _commit(self, text: str, plants: list[_Plant], steps: list[_Step], answer: Callable[[dict[int, int]], str],
                pasted: str | None = None) -> None:
        """Emits one turn: her message, the tool steps and the answer, fitted to the session's exact length."""
        rest = self.n - 1 - len(self.out)

        def length() -> int:
            return 2 + sum(1 + len(s.calls) for s in steps)

        while length() > rest and any(s.filler for s in steps):
            steps.remove([s for s in steps if s.filler][-1])
        extra = False
        left = rest - length()
        pending = any(self.queues[s] for s in self.queues)
        if left < 0:
            raise RuntimeError("a turn does not fit the session")
        if left < 2 or (left < 16 and not pending):  # the last turn: fill it to the exact size
            while left >= 2:
                steps.append(self._filler_step(self.size(), pair=False))
                left -= 2
            if left == 1:
                extra, left = True, 0
        at: dict[int, int] = {}
        index = self._add({"role": "user", "content": text})
        if pasted is not None:
            self.pasted.append((index, pasted))
        for plant in plants:
            self._record(plant, index)
            at[plant.seq] = index
        if extra:
            self._add({"role": "user", "content": self.rng.choice(["no rush btw", "(sent from my phone, sorry for typos)",
                                                                    "também pode ser amanhã se for mais fácil",
                                                                    "dzięki z góry", "grazie in anticipo"])})
        for step in steps:
            self.calls += 1
            calls = []
            for j, (name, args, _output) in enumerate(step.calls):
                calls.append({"id": f"call_{self.calls:05d}_{j}", "type": "function",
                              "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)}})
                if name in self.unused:
                    self.unused.remove(name)
            call_index = self._add({"role": "assistant", "content": step.lead, "tool_calls": calls})
            result_index = call_index
            for call, (name, _args, output) in zip(calls, step.calls):
                message: Message = {"role": "tool", "tool_call_id": call["id"], "name": name, "content": output}
                if step.is_error:
                    message["is_error"] = True
                result_index = self._add(message)
            if step.plant is not None:
                where = call_index if step.plant.slot == "file" else result_index
                self._record(step.plant, where)
                at[step.plant.seq] = where
            if step.resolves is not None:
                pos = self.fact_pos[step.resolves]
                fact = self.facts[pos]
                self.facts[pos] = Fact(fact.kind, fact.value, fact.index, fact.query, resolved=result_index)
        self._add({"role": "assistant", "content": answer(at)})

    def _near(self, at: dict[int, int], seq: int, reach: int = 8) -> bool:
        """Whether the answer about to be written is close enough to the fact to repeat its value."""
        return seq in at and len(self.out) - at[seq] <= reach

    # turns with planted facts

    def _user_turn(self, plants: list[_Plant], tools: list[_Plant]) -> None:
        texts = [p.spec["said"] if p.part == "first" else p.spec["text"] for p in plants]
        steps: list[_Step] = []
        for p in plants:
            follow = p.spec.get("said_follow" if p.part else "follow")
            if follow:
                steps.append(_Step([follow], filler=False))
        for p in tools:
            texts.append(p.spec["ask"])
            steps.append(self._plant_step(p))
        if self.unused and self.n < 200 and self.rng.random() < 0.5:  # a short session squeezes a look-up in
            steps.append(self._filler_step(self.size()))

        def answer(at: dict[int, int]) -> str:
            parts = []
            for p in plants:
                if p.part == "first":
                    ack = p.spec.get("said_ack")
                    parts.append(ack if ack and self._near(at, p.seq, 12) else self.rng.choice(
                        ["Noted.", "On it.", "Got it, I'll take it from here.", "Ok, done."]))
                elif p.kind == "correction":
                    parts.append(f"Thanks for catching that — updated to {p.spec['value']} everywhere I had used the "
                                 "old one." if self._near(at, p.seq) else "Thanks, updated.")
                elif p.kind == "decision":
                    parts.append(self.rng.choice(["Understood, I'll proceed on that basis.", "Ok, noted as decided.",
                                                  "Clear. I'll update the tracker.", "Perfeito, fica registado."]))
                elif p.kind == "instruction":
                    parts.append(self.rng.choice(["Understood, I'll apply that from here on.", "Noted — will do.",
                                                  "Ok, I'll keep to that.", "Got it.", "Entendido.", "Capito."]))
                elif p.kind == "plan":
                    parts.append(self.rng.choice(["Got the plan; I'll set up the first step and keep the order.",
                                                  "Ok, I'll follow that sequence.", "Noted, I'll track the steps."]))
                else:
                    parts.append(p.spec.get("ack") if p.spec.get("ack") and self._near(at, p.seq) else "Noted.")
            for p in tools:
                parts.append(self._plant_answer(p, at))
            return " ".join(parts)
        self._commit("\n\n".join(texts), plants, steps, answer)

    def _plant_step(self, p: _Plant) -> _Step:
        spec = p.spec
        return _Step([(spec["tool"], spec["args"], spec["output"])], lead=spec.get("lead", ""), plant=p, filler=False,
                     is_error=p.kind == "error" and self.rng.random() < 0.6)

    def _plant_answer(self, p: _Plant, at: dict[int, int]) -> str:
        spec = p.spec
        if p.kind == "error":
            quote = f"That failed: `{spec['value']}`." if self._near(at, p.seq) else "That failed, see the error above."
            return quote + (" I retried once the cause was fixed and it went through." if spec.get("_retried") else
                            " I'll retry when the cause is fixed.")
        return spec["answer"] if self._near(at, p.seq) else "Done, details above."

    def _tool_turn(self, plants: list[_Plant]) -> None:
        steps = [self._plant_step(p) for p in plants]
        later = []
        for p in plants:
            if p.kind != "error":
                continue
            self.errors += 1
            if self.errors % 2 == 0:  # every other error stays unresolved
                continue
            if self.rng.random() < 0.5:  # the cause is fixed and the call rerun at once
                p.spec["_retried"] = True
                steps.append(_Step([(p.spec["tool"], p.spec["args"], p.spec["rerun"])], lead=p.spec["fix"],
                                   resolves=p.seq, filler=False))
            else:
                later.append(p)
        short = bool(self.unused) and self.n < 200
        if short or not any(p.kind == "error" for p in plants) and self.rng.random() < 0.35:
            first = plants[0].spec["tool"]
            steps.append(self._filler_step(self.size(), None if short else self.rng.choice(RELATED[first])))
        text = "\n\n".join(self._style(p.spec["ask"]) for p in plants)
        self._commit(text, [], steps, lambda at: " ".join(self._plant_answer(p, at) for p in plants))
        for p in later:
            self.resolves.append((len(self.out) + self.rng.randint(6, int(0.05 * self.n) + 8), p.spec, p.seq))

    def _retry_turn(self) -> None:
        _due, spec, seq = self.resolves.popleft()
        ask = self.rng.choice(["can you try the {t} again? should work now", "retry that {t} thing from before pls",
                               "tenta outra vez o {t}, já deve dar", "spróbuj jeszcze raz z {t}"]).format(
            t=spec["tool"].replace("_", " "))
        step = _Step([(spec["tool"], spec["args"], spec["rerun"])], lead=spec["fix"], resolves=seq, filler=False)
        self._commit(ask, [], [step], lambda at: "It went through this time; nothing else needed on that one.")

    # filler

    def _style(self, text: str) -> str:
        r = self.rng.random()
        if r < 0.25:
            return self._dictate(text)
        if r < 0.35:
            why = self.rng.choice(["Henrik asked about it in the leadership sync.", "No rush, end of day is fine.",
                                   "Marek needs it for the forecast.", "I'd like it before my 1:1s this afternoon.",
                                   "Sorry for the email, I'm stuck in back-to-back calls."])
            stop = "" if text[-1] in ".?!" else "."
            return f"Hi,\n\n{text[0].upper()}{text[1:]}{stop} {why}\n\nThanks,\nBeatriz"
        return text

    def _dictate(self, text: str) -> str:
        """Her words as the phone's speech-to-text writes them: lower case, no commas, homophones, "full stop"."""
        words = [self.rng.choice(["ok so", "um", "right so", "ok", "so"])] if self.rng.random() < 0.6 else []
        for w in text.replace(",", "").replace("?", "").replace("!", "").split():
            low = w.lower()
            if low in HOMOPHONES and self.rng.random() < 0.35:
                w = HOMOPHONES[low]
            if w.endswith(".") and not w[:-1].isdigit():
                w = w[:-1] + (" full stop" if self.rng.random() < 0.4 else "")
            words.append(w.lower() if not any(ch.isdigit() for ch in w) else w)
        tail = self.rng.choice(["", "", " full stop", " thanks", " full stop thanks"])
        return " ".join(words) + ("" if words[-1] == "stop" else tail)

    def _when(self, lang: str) -> tuple[str, dt.date]:
        """A loose day in her words ("jutro", "on Thursday") and the date it means."""
        k = self.rng.randrange(len(WHEN))
        today = self.today()
        day = {0: today + dt.timedelta(days=1), 1: today + dt.timedelta(days=(3 - today.weekday()) % 7 or 7),
               2: today + dt.timedelta(days=(0 - today.weekday()) % 7 or 7), 3: today + dt.timedelta(days=7)}[k]
        while day.weekday() >= 5:
            day += dt.timedelta(days=1)
        return WHEN[k][LANGS.index(lang)], day

    def _filler_step(self, size: int, tool: str | None = None, pair: bool = True) -> _Step:
        step = self._request(size, tool)[1][0]
        others = [t for t in self.unused if t != step.calls[0][0]]
        if pair and tool is None and others and self.n < 200:  # a short session still gets to every tool
            step.calls += self._request(size // 2, self.rng.choice(others))[1][0].calls
        return step

    def _request(self, size: int, tool: str | None = None) -> tuple[str, list[_Step], str]:
        """A one-off request: her words, the steps, and the answer; done once answered."""
        rng = self.rng
        tool = tool or rng.choice(self.unused or TOOLS)  # every tool gets used, even in a short session
        c, e, r = self.pick_cand(), self.pick_emp(), self.pick_req()
        hm = self.colleague()
        if tool == "calendar_book":
            lang = rng.choice(("en", "en", "pt", "it", "pl"))
            when, d = self._when(lang)
            mins = rng.choice([30, 45, 60])
            h, m = rng.randint(9, 16), rng.choice(["00", "15", "30", "45"])
            text = {"en": rng.choice([f"book a slot with {hm[0]} {when} for {c.who.first}'s debrief",
                                      f"can you find {mins} min with {hm[0]} {when}? debrief on {c.who.full}"]),
                    "pt": f"marca {mins} minutos com {'a' if hm[0] in FEMALE else 'o'} {hm[0]} {when} para o debrief "
                          f"de {c.who.first}",
                    "it": f"fissa il colloquio tecnico con {c.who.full} {when}, con {hm[0]}",
                    "pl": f"umów rozmowę z {c.who.full} {when}, {hm[0]} musi być"}[lang]
            args = {"title": f"Debrief {c.who.full}", "attendees": [f"{_ascii(hm[0]).lower()}.{_ascii(hm[1]).lower()}@{DOMAIN}",
                    "beatriz.almeida@" + DOMAIN], "start": f"{d.isoformat()}T{h:02d}:{m}:00+02:00", "duration_min": mins}
            out = self.freebusy(d, size) + "\n" + self.cal_created("evt_" + _hex(rng, 12), d, args["title"])
            answer = f"Booked {mins} minutes with {hm[0]} on {_abbr(d)} at {h:02d}:{m} CEST; the invite is out."
        elif tool == "candidate_get":
            text = rng.choice([f"pull the CV for cand {c.id}", f"what's {c.who.full}'s notice period?",
                               f"check {c.who.first} {c.who.last}'s profile, still keen on us?",
                               f"mostra-me o CV de {c.who.full}", f"pokaż mi profil {c.who.full}"])
            args = {"candidate_id": c.id}
            out = self.cand_output(c)
            answer = (f"{c.who.full} ({c.id}): {c.title} applicant in {c.city}, stage {c.stage}, notice {c.notice}, "
                      f"currently at {c.company}. CV above.")
        elif tool == "ats_search":
            q = rng.choice([{"requisition": r.id, "status": "active"}, {"skills": rng.sample(SKILLS, 2), "location": r.office},
                            {"stage": rng.choice(STAGES), "office": r.office}])
            text = rng.choice([f"who's still active on {r.id}?", f"how many applicants for the {r.title} role in "
                               f"{r.office} this week", f"find anyone in the ATS with {' + '.join(q.get('skills', ['Go', 'Kafka']))}",
                               f"any silver medalists from last year's {r.title} loop?", f"quem está ativo na {r.id}?"])
            out = self.ats_output(q, size)
            args = q
            answer = f"{out.count('candidate_id')} matches on the first page; the strongest look like {c.who.full} and " \
                     f"{self.pick_cand().who.full}. Want me to shortlist?"
        elif tool == "hris_lookup":
            team = [e] + [self.pick_emp() for _ in range(max(0, size // 900))]
            text = rng.choice([f"what's {e.who.full}'s manager and cost centre?", f"is {e.who.first} {e.who.last} still "
                               "on parental leave?", f"who reports to {hm[0]} in {e.office}?",
                               f"pull the HRIS records for {e.dept} in {e.office}", f"kto jest przełożonym {e.who.full}?"])
            args = {"name": e.who.full, "fields": ["employment", "manager", "leave"]} if len(team) == 1 else \
                {"office": e.office, "department": e.dept, "limit": len(team)}
            out = self.emp_output(team)
            answer = f"{e.who.full} ({e.no}): {e.title}, {e.band}, reports to {e.manager}, cost centre {e.cc}, status {e.status}."
        elif tool == "payroll_export":
            country = rng.choice(["PT", "PL", "IT"])
            period = f"2025-{self.today().month:02d}"
            path = f"exports/payroll/previews/{country}_{period}_{rng.randint(100, 999)}.csv"
            text = rng.choice([f"export the {country} payroll preview for {period}", f"need the {country} payroll lines "
                               f"for {period}, just a preview", f"exporta o payroll {country} de {period} para eu ver",
                               f"wyeksportuj podgląd listy płac {country} za {period}"])
            args = {"country": country, "period": period, "output": path}
            full = rng.random() < 0.15  # now and then the whole country, hundreds of rows
            out = self.payroll_output(country, period, 10**6 if full else size, path)
            answer = f"Preview for {country} {period} written to {path}; validation passed with no warnings."
        elif tool == "offer_draft":
            path = f"offers/drafts/{c.who.slug}_{rng.randint(100, 999)}.docx"
            text = rng.choice([f"draft an offer for {c.who.full}, {c.title}, standard terms",
                               f"prepara una bozza di offerta per {c.who.full}", f"rascunho de proposta para {c.who.full} pf"])
            args = {"candidate_id": c.id, "template": f"OFFER-{COUNTRY[c.city]}-STD-v7", "output_path": path}
            out = f"written {path} (3 pages)\n--- preview ---\n" + self.letter(c, size)
            answer = f"Draft for {c.who.full} is at {path}; the salary annex is blank until you give me the number."
        elif tool == "background_check":
            text = rng.choice([f"start a bg check for {c.who.full}", f"status of the bg check on {c.who.first} {c.who.last}?",
                               f"has {c.who.full}'s screening come back?"])
            args = {"action": "report", "candidate_id": c.id}
            out = self.bg_report(c.who, size=size)
            answer = f"{c.who.full}'s screening is complete and clean: identity, right to work and employment all verified."
        elif tool == "doc_search":
            topic = rng.choice(["referral bonus rules", "works council minutes", "onboarding checklist Milan",
                                "probation review form", "travel policy per diem", "payroll calendar"])
            text = rng.choice([f"find the doc where we wrote down the {topic}", f"search the drive for {topic}",
                               f"procura o documento sobre {topic}"])
            args = {"query": topic, "limit": 10}
            out = self.doc_output(topic, size)
            answer = f"Top hits for \"{topic}\" are above; the first one is the current version."
        elif tool == "email_send":
            text = rng.choice([f"email {c.who.first} to say we'll get back to {c.who.him} by the end of the week",
                               f"send {hm[0]} the shortlist for {r.id}",
                               f"manda um email {'à' if c.who.o == 'a' else 'ao'} {c.who.full} a agradecer e a dizer que não seguimos",
                               f"scrivi a {c.who.full} per confermare il colloquio"])
            to = [c.email] if "shortlist" not in text else [f"{_ascii(hm[0]).lower()}.{_ascii(hm[1]).lower()}@{DOMAIN}"]
            args = {"to": to, "subject": rng.choice(["Your application", "Next steps", "Shortlist", "Interview"]),
                    "body": f"Hello,\n\n{rng.choice(['Thank you for your time.', 'Here is the shortlist.', 'We will be in touch soon.'])}\n\nBest,\nBeatriz"}
            out = self.email_output(to, args["subject"], size)
            answer = f"Sent to {', '.join(to)}."
        elif tool == "policy_get":
            code = rng.choice(list(POLICY_TEXT))
            text = rng.choice([f"what does {code} say again?", f"remind me what the {POLICY_TEXT[code].lower()} policy says",
                               f"o que diz a política de {POLICY_TEXT[code].lower()}?", f"co mówi polityka {code}?"])
            args = {"code": code}
            out = self.bands_output("Milan") if code == "GLB-COMP-BANDS-05" else self.policy_output(code, size)
            answer = f"{code} is above; nothing in it changed since the last version you saw."
        else:
            office = rng.choice(OFFICES)
            text = rng.choice([f"headcount for {office} {rng.choice(DEPTS)} as of today", "how many open reqs per office?",
                               f"quanti siamo a {CITY_IT[office]} adesso?", f"ile osób mamy w {CITY_PL[office]}?"])
            args = {"office": office, "as_of": "latest"}
            out = self.headcount_output(f"office {office}", size)
            answer = f"{office} snapshot is above, with open reqs and leavers per department."
        return self._style(text), [_Step([(tool, args, out)])], answer

    def _filler_turn(self) -> None:
        rng = self.rng
        r = rng.random()
        if self.unused:
            text, steps, answer = self._request(self.size(), self.unused[0])
            if len(self.unused) > 1 and self.n < 200:
                steps[0].calls += self._request(self.size() // 2, self.unused[1])[1][0].calls
            return self._commit(text, [], steps, lambda at: answer)
        if r < 0.08:
            return self._commit(rng.choice(CHAT), [], [], lambda at: rng.choice(
                ["Anytime.", "👍", "Ok — I'm here when you need me.", "De nada!", "Sure.", "No problem, shout if "
                 "anything else comes up."]))
        if len(self.pasted) < len(self.out) / 55 and r < 0.6:
            return self._paste_turn()
        text, steps, answer = self._request(self.size())
        room = min([q[0].target for q in self.queues.values() if q] or [self.n]) - len(self.out)
        for _ in range(min(rng.choices((0, 1, 2, 3), (30, 35, 22, 13))[0], max(0, room - 5) // 2)):  # related look-ups, some in parallel
            extra = self._filler_step(self.size(), rng.choice(RELATED[steps[0].calls[0][0]]))
            if rng.random() < 0.2 and len(steps[-1].calls) == 1:
                steps[-1].calls += extra.calls
            else:
                extra.lead = rng.choice(LEADS)
                steps.append(extra)
        self._commit(text, [], steps, lambda at: answer)

    def _paste_turn(self) -> None:
        rng = self.rng
        if not self.paste_kinds:
            self.paste_kinds = ["cv", "jd", "feedback", "feedback", "email", "council", "csv"]
            rng.shuffle(self.paste_kinds)
        kind = self.paste_kinds.pop()
        if kind == "cv":
            body = self.cv_paste()
            intro = rng.choice(["CV from the referral Rui mentioned, can you log it?", "este CV chegou por email, "
                                "vê se encaixa em alguma vaga:", "cv from linkedin, worth a screen?"])
            answer = "Logged; the profile fits the open backend roles best. I'd put it in front of Tomasz."
        elif kind == "jd":
            body = self.jd_paste()
            intro = rng.choice(["here's the JD the hiring manager sent, check it against the band policy:",
                                "Giulia's draft JD, anything off?", "JD draft below, tighten it?"])
            answer = "The JD is fine against the band policy; I'd cut the requirements list to three and drop years."
        elif kind == "feedback":
            body = self.feedback_paste()
            intro = rng.choice(["feedback just came in:", "form from the panel, fyi", "olha este feedback:",
                                "this one's from the hiring manager, thoughts?"])
            answer = ("Logged in the ATS. That's the interviewer's recommendation, not a decision — do you want me to "
                      "act on it, or wait for the rest of the panel?")
        elif kind == "email":
            body = self.email_paste()
            intro = rng.choice(["candidate replied, what do you make of this?", "got this, help me answer:",
                                "olha a resposta do candidato:"])
            answer = "Two asks in there. I'd answer the first today and check the second with payroll before replying."
        elif kind == "council":
            body = self.council_paste()
            intro = rng.choice(["Katarzyna sent the relevant bit of the works council agreement, just so you have it:",
                                "the works council agreement excerpt, fyi:"])
            answer = "Read it. Those articles are the Employer's obligations towards the council; I'll keep them in mind."
        else:
            body = self.csv_paste()
            intro = rng.choice(["Marek sent this, can you check the columns add up?", "CSV do payroll, vê se bate certo:",
                                "sprawdź proszę te wiersze:"])
            answer = f"Checked {body.count(chr(10))} rows: gross minus deductions equals net on every line."
        text = f"{intro}\n\n{body}"
        steps = [self._filler_step(self.size())] if rng.random() < 0.4 else []
        self._commit(text, [], steps, lambda at: answer, pasted=body)


def make_session(seed: int, messages: int) -> Session:
    """A session of exactly ``messages`` messages (ending on her turn) with ``per_kind(messages)`` facts per kind."""
    if messages < 60:
        raise ValueError("sessions need at least 60 messages")
    session = _Builder(seed, messages).build()
    session.seed = seed
    return session
