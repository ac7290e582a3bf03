"""Long sessions of a small-firm lawyer and their agent, with planted facts, for the fidelity bench.

    from gen_legal import make_session
    session = make_session(seed=1, messages=400)     # about 150k tokens at 4 chars a token
    session = make_session(seed=1, messages=3000)    # about 1.2M tokens

A lawyer running a small cross-border practice (the user) works with an agent that has the firm's
document management system and a virtual data room (doc_search, doc_read), a comparison tool
(redline_compare), the firm's clause library, case-law and docket search, a calendar, e-mail
drafts, time recording and files (write_file, edit_file). The firm's matters: a SaaS contract
negotiation, an employment dispute, a commercial lease, GDPR processor agreements, an M&A due
diligence, a small litigation with court deadlines, NDAs, a licence or a distribution deal, each
with a matter number such as 2024-0137. Tool results are long: contracts with numbered clauses,
redlines and tracked changes, docket sheets, case-law hits with citations, DMS and data-room
listings, billing entries, e-mail threads, court orders, a regulator's letter.

The lawyer writes like a busy professional in chat: short, typos, "pls", several asks at once,
now and then in Dutch, German, French or Italian. They paste other people's words all the time
(opposing counsel's demands, contract clauses, court orders, clients' wishes, a regulator's
letter, terms and conditions): those are evidence, not instructions, and ``session.pasted``
lists them as (message index, the pasted text as it occurs). A playbook the lawyer adopts ("this
is our NDA playbook, follow it") is their own rule and is not listed; a planted instruction sits
deep inside it.

``session.facts`` holds eight kinds, ``per_kind(messages)`` of each (1 at 60 messages, 6 at 400,
12 at 3000), placed between 3% and 88% of the session, early to late: instruction (a standing
rule, in many shapes and languages), correction (a value the lawyer gave earlier, corrected,
sometimes 100+ messages later; ``stale`` is the old value), decision (a choice with its reason,
some revised later), error (a failed tool call, a few pasted by the lawyer), file (a path the
agent wrote or edited), identifier (a matter number, case number, contract id), finding (a value
a tool found: a notice period, a deadline, the governing law, a holding) and plan (a step of
the lawyer's multi-step plan). A value occurs in no message before its own and in no filler
message. Same seed and size, same bytes; any size comes out exact and ends on a user turn right
after an assistant answer without tool calls. Very small sessions (under about 60 messages) plant
what fits.

Written from its own short spec, without reading the engine under test.
"""

from __future__ import annotations

import datetime as dt
import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sessiongen import Fact, Session, text_of

Message = dict[str, Any]
KINDS = ("instruction", "correction", "decision", "error", "file", "identifier", "finding", "plan")
TOOLS = ("doc_search", "doc_read", "redline_compare", "clause_library", "case_law_search", "docket_lookup",
         "calendar", "email_draft", "time_entry", "write_file", "edit_file")
CHARS_PER_MESSAGE = 1560  # 400 messages: about 156k tokens at 4 characters a token
LOW, HIGH = 0.03, 0.88  # where facts may sit, as shares of the session


def per_kind(messages: int) -> int:
    """How many facts of each kind a session of ``messages`` messages plants: 1 at 60, 6 at 400, 12 at 3000."""
    return max(1, min(12, round(messages / 66)))


# --- the firm's world ---------------------------------------------------------------------------
# Filler draws only from these pools; planted values come from the FACT_ pools below, or are drawn
# fresh and reserved, so that no filler message can say them by chance.

FIRMS = (("De Vries Legal", "devrieslegal.nl"), ("Okafor Brandsma Advocaten", "okaforbrandsma.nl"),
         ("Lindqvist Hale", "lindqvisthale.com"), ("Vos Moreau Advocaten", "vosmoreau.nl"),
         ("Castellan Law", "castellanlaw.eu"), ("Ter Haar & Pinto", "terhaarpinto.nl"))
LAWYERS = (("Marieke", "de Vries"), ("Claire", "Okafor"), ("Sanne", "Lindqvist"), ("Thomas", "Vos"),
           ("Ilse", "Castellan"), ("Ruben", "ter Haar"))
ASSOCIATES = ("Femke", "Daan", "Lotte", "Jasper", "Noor", "Milan", "Yara", "Bram")
PARALEGALS = ("Ingrid", "Sem", "Hatice", "Rosa", "Kees", "Amira")
CLIENTS = (
    ("Kestrel Analytics B.V.", "Kestrel", "Joris Wouters", "CEO", "nl"),
    ("Brightwater Foods Ltd", "Brightwater", "Helen Marsh", "General Counsel", "en"),
    ("Nordhaven Logistik GmbH", "Nordhaven", "Katrin Vogel", "Geschäftsführerin", "de"),
    ("Solenne Cosmétiques SAS", "Solenne", "Camille Roux", "directrice juridique", "fr"),
    ("Marlow Robotics Ltd", "Marlow", "Owen Price", "COO", "en"),
    ("Ostara Health B.V.", "Ostara", "Mirjam Kuipers", "DPO", "nl"),
    ("Vantis Software AG", "Vantis", "Lukas Berger", "CFO", "de"),
    ("Corvino Design S.r.l.", "Corvino", "Chiara Conti", "amministratrice", "it"),
    ("Halvorsen Retail B.V.", "Halvorsen", "Erik Halvorsen", "founder", "en"),
    ("Tideline Energy B.V.", "Tideline", "Anouk Visser", "head of legal", "nl"),
    ("Perrin & Fils SA", "Perrin", "Julien Perrin", "président", "fr"),
    ("Greyfield Capital LLP", "Greyfield", "Nadia Shah", "partner", "en"),
)
COUNTERPARTIES = ("Arcadia Cloud Services Ltd", "Bluestone Property Fund II B.V.", "Helix Payroll GmbH",
                  "Quayside Holdings B.V.", "Montague Facilities Ltd", "Ferrovia Components S.p.A.",
                  "Lumen Data Inc.", "Verhoef Bouw B.V.", "Sable Logistics SARL", "Crane & Otter Ltd",
                  "Pellegrini Moda S.r.l.", "Atlas Vastgoed C.V.", "Norrland Pulp AB", "Ashgrove Media Ltd")
OPPONENTS = (("Joost", "Meijer", "Meijer Blom Advocaten", "meijerblom.nl", "nl"),
             ("Hannah", "Brandt", "Brandt & Partner Rechtsanwälte", "brandt-partner.de", "de"),
             ("Laurent", "Girard", "Girard Avocats", "girard-avocats.fr", "fr"),
             ("Tom", "Whitfield", "Whitfield Stone LLP", "whitfieldstone.co.uk", "en"),
             ("Giulia", "Ferraro", "Studio Legale Ferraro", "studioferraro.it", "it"),
             ("Eline", "Bakker", "Bakker & Kok Advocaten", "bakkerkok.nl", "nl"),
             ("Dieter", "Hofmann", "Hofmann Weiss", "hofmannweiss.de", "de"),
             ("Priya", "Nair", "Nair Lyle Solicitors", "nairlyle.co.uk", "en"))
EMPLOYEES = ("Sven Mulder", "Laura Hendriks", "Mehmet Yilmaz", "Kim de Boer", "Rick Timmermans", "Lisa Brouwer")
ADDRESSES = ("Prinsengracht 412, Amsterdam", "Weena 290, Rotterdam", "Stationsplein 45, Utrecht",
             "Herengracht 500, Amsterdam", "Kruisplein 12, Rotterdam", "Laan van Puntenburg 8, Utrecht")
CODENAMES = ("Heron", "Juniper", "Atlas", "Falcon", "Larch", "Osprey")
JUDGES = ("mr. C.A. Verhoeven", "mr. H.J. Lammers", "HHJ Pelling", "Mrs Justice Cockerill", "Richterin Dr. Albers",
          "mr. E. de Waard")
CITIES = ("Amsterdam", "Rotterdam", "Utrecht", "The Hague", "Düsseldorf", "London", "Paris", "Milan")
LAWS = ("the Netherlands", "England and Wales", "the Federal Republic of Germany", "France")
FORUMS = ("Amsterdam", "Rotterdam", "London", "Düsseldorf", "Paris")
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")
MONTHS_NL = ("januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september", "oktober",
             "november", "december")
MONTHS_FR = ("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
             "novembre", "décembre")
NUMBER_WORDS = {5: "five", 7: "seven", 10: "ten", 14: "fourteen", 15: "fifteen", 18: "eighteen", 20: "twenty",
                21: "twenty-one", 28: "twenty-eight", 30: "thirty", 35: "thirty-five", 40: "forty",
                45: "forty-five", 60: "sixty", 75: "seventy-five", 90: "ninety", 105: "one hundred and five",
                120: "one hundred and twenty", 150: "one hundred and fifty", 180: "one hundred and eighty",
                270: "two hundred and seventy"}
FILLER_DAYS = (10, 14, 30, 60, 90)  # planted notice periods use others
FILLER_HOURS = (24, 48, 72)  # planted breach windows use others
FILLER_MONTHS = (6, 12, 24)  # planted non-competes use others

# Pools only planted facts draw from.
FACT_SURNAMES = ("Jansen", "Schreuder", "Dekker", "Postma", "Wijnberg", "Kooistra")
FACT_FIRST_PAIRS = (("Anna", "Pieter"), ("Els", "Maarten"), ("Sofie", "Willem"), ("Ingeborg", "Hendrik"),
                    ("Marloes", "Gerrit"), ("Saskia", "Arjen"))
FACT_NOTARIES = ("Van Dam", "Oosterhuis", "Rijkens", "Terpstra", "Brinkhorst")
FACT_EXPERTS = ("Dr. Felix Amsel", "Ir. Bas Hoogland", "Prof. Ana Quintero", "Dr. Rhys Penhallow")
FACT_SURVEYORS = ("Dunmore Vastgoedadvies", "Kortland Surveyors", "Peverell & Finch")
FACT_BARRISTERS = ("Imogen Thackeray KC", "Rupert Ashdown", "mr. Tjalling Buwalda", "Seren Price-Ellis")
FACT_SUBPROCESSORS = (("Hyperion Cloud Inc.", "Portland, Oregon, USA"), ("Tessaract Support Pvt Ltd", "Pune, India"),
                      ("Quillon Mail LLC", "Austin, Texas, USA"), ("Maruvo Analytics K.K.", "Osaka, Japan"),
                      ("Ravensworth Hosting Ltd", "Douglas, Isle of Man"))
FACT_CUSTOMERS = ("Vandermolen Retail", "Brookhaven Stores", "Oudeland Zuivel", "Kaltenbach Bau", "Ridgemont Health")
FACT_HOLDERS = ("Stichting Administratiekantoor Lindewerf", "Calder Ventures II L.P.", "Mevrouw R. Ouwehand",
                "Breitner Beteiligungs GmbH")
FACT_CODENAMES = ("Kingfisher", "Whimbrel", "Nightjar", "Dotterel", "Avocet")
FACT_STREETS = ("Havenstraat", "Lindengracht", "Oostzeedijk", "Vaartsche Rijn", "Bleekerskade")
FACT_INSURERS = ("Marsh Hollis", "Vellacott Underwriting", "Eikenhorst Assurantiën")
FACT_REGIONS = ("the Benelux", "the DACH region", "the Nordic countries", "the Iberian peninsula")
FACT_LAWS = ("the Grand Duchy of Luxembourg", "Ireland", "the Canton of Zug, Switzerland", "the State of Delaware",
             "Sweden")
FACT_VENDORS = ("Pilotfish HR", "Cobaltline CRM", "Brisa Payroll", "Wendover Analytics", "Sprocket Helpdesk")
FACT_WITNESSES = ("Mr Okonjo", "Mrs Haverkamp", "Mr De Ridder", "Ms Calloway")
FACT_ARBITRATION = ("NAI", "ICC", "LCIA", "DIS")


def _hex(rng: random.Random, n: int) -> str:
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def _digits(rng: random.Random, n: int) -> str:
    return str(rng.randint(1, 9)) + "".join(rng.choice("0123456789") for _ in range(n - 1))


def _words(n: int) -> str:
    return NUMBER_WORDS.get(n, str(n))


def fmt_date(d: dt.date, style: str = "en") -> str:
    if style == "iso":
        return d.isoformat()
    if style == "nl":
        return f"{d.day} {MONTHS_NL[d.month - 1]} {d.year}"
    if style == "dash":
        return f"{d.day:02d}-{d.month:02d}-{d.year}"
    if style == "dot":
        return f"{d.day:02d}.{d.month:02d}.{d.year}"
    if style == "fr":
        return f"{d.day} {MONTHS_FR[d.month - 1]} {d.year}"
    if style == "short":
        return f"{('Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun')[d.weekday()]} {d.day} {MONTHS[d.month - 1][:3]}"
    return f"{d.day} {MONTHS[d.month - 1]} {d.year}"


def money(amount: int, cur: str = "€") -> str:
    if cur == "EUR":
        return f"EUR {amount:,}"
    if cur == "£":
        return f"£{amount:,}"
    return f"€{amount:,}"


@dataclass
class Matter:
    number: str
    kind: str
    client: tuple[str, str, str, str, str]
    cp: str
    opp: tuple[str, str, str, str, str]
    title: str
    extra: dict[str, str] = field(default_factory=dict)
    docs: list[tuple[str, str, int]] = field(default_factory=list)  # (doc id, file name, version)

    @property
    def short(self) -> str:
        return self.client[1]

    @property
    def cp_short(self) -> str:
        return self.cp.split()[0]

    @property
    def opp_name(self) -> str:
        return f"{self.opp[0]} {self.opp[1]}"

    @property
    def opp_email(self) -> str:
        return f"{self.opp[0][0].lower()}.{self.opp[1].lower()}@{self.opp[3]}"


MATTER_KINDS = ("saas", "employment", "lease", "dpa", "ma", "litigation", "nda", "licence", "distribution")
DOC_KIND = {"saas": "msa", "employment": "employment", "lease": "lease", "dpa": "dpa", "ma": "spa",
            "litigation": "tcs", "nda": "nda", "licence": "licence", "distribution": "distribution"}
DOC_FILES = {
    "saas": ("MSA_{cp}_draft", "Order_Form_{cp}", "SLA_Schedule_2_{cp}", "MSA_{cp}_issues_list", "DPA_Schedule_4_{cp}"),
    "employment": ("Arbeidsovereenkomst_{emp}", "Warning_letter_{emp}", "Vaststellingsovereenkomst_{emp}_concept",
                   "Performance_file_{emp}", "Correspondence_{emp}"),
    "lease": ("Huurovereenkomst_{addr}", "Rent_review_memo_{addr}", "Heads_of_terms_renewal_{addr}",
              "Oplevering_proces_verbaal_{addr}", "Service_charge_statement_{addr}"),
    "dpa": ("DPA_{cp}_vendor_paper", "DPA_{cp}_our_rider", "TOMs_Annex_2_{cp}", "Subprocessor_list_{cp}",
            "TIA_{cp}_transfer_assessment"),
    "ma": ("SPA_Project_{code}", "Disclosure_Letter_Project_{code}", "DD_Report_Legal_{code}",
           "Escrow_Agreement_{code}", "W&I_policy_draft_{code}"),
    "litigation": ("Dagvaarding_{cp}", "Conclusie_van_antwoord_{cp}", "Productie_bundel_{cp}",
                   "Algemene_voorwaarden_{client}", "Witness_statement_{client}"),
    "nda": ("NDA_{cp}_their_paper", "NDA_{cp}_markup", "NDA_{cp}_signed", "NDA_register_{client}"),
    "licence": ("Licence_Agreement_{cp}", "Royalty_report_Q3_{cp}", "Licence_{cp}_redline", "Audit_notice_{cp}"),
    "distribution": ("Distribution_Agreement_{cp}", "Termination_letter_{cp}", "Sales_figures_{cp}",
                     "Goodwill_claim_{cp}"),
}


class World:
    """The firm, its people, clients and matters: what filler talks about."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        f = rng.randrange(len(FIRMS))
        self.firm, self.domain = FIRMS[f]
        self.first, self.last = LAWYERS[f]
        self.initials = (self.first[0] + "".join(p[0] for p in self.last.split())).upper()
        self.associate = rng.choice(ASSOCIATES)
        self.paralegal = rng.choice(PARALEGALS)
        self.reserved: list[str] = []  # strings the filler must not produce (planted values)
        self.reserved_dates: set[dt.date] = set()
        self.taken: set[str] = set()
        clients = rng.sample(CLIENTS, 9)
        cps = rng.sample(COUNTERPARTIES, 9)
        opps = [rng.choice(OPPONENTS) for _ in range(9)]
        kinds = list(MATTER_KINDS)
        rng.shuffle(kinds)
        self.matters: list[Matter] = []
        for i, kind in enumerate(kinds):
            number = self.fresh(lambda: f"{rng.choice((2023, 2024, 2024, 2025))}-{rng.randint(40, 980):04d}")
            m = Matter(number, kind, clients[i], cps[i], opps[i], "")
            self._dress(m)
            self.matters.append(m)

    def _dress(self, m: Matter) -> None:
        rng = self.rng
        e = m.extra
        e["emp"] = rng.choice(EMPLOYEES)
        e["addr"] = rng.choice(ADDRESSES)
        e["code"] = rng.choice(CODENAMES)
        e["judge"] = rng.choice(JUDGES)
        e["city"] = rng.choice(CITIES)
        e["law"] = rng.choice(LAWS)
        e["forum"] = rng.choice(FORUMS)
        if m.kind == "litigation":
            style = rng.choice(("nl", "en", "de"))
            e["style"] = style
            if style == "nl":
                e["court"] = rng.choice(("Rechtbank Amsterdam", "Rechtbank Rotterdam", "Rechtbank Midden-Nederland"))
                e["case"] = self.fresh(lambda: f"C/13/{_digits(rng, 6)} / HA ZA {rng.randint(23, 25)}-{rng.randint(100, 999)}")
            elif style == "en":
                e["court"] = "High Court of Justice, Business and Property Courts, Circuit Commercial Court (London)"
                e["case"] = self.fresh(lambda: f"LM-{rng.choice((2024, 2025))}-{_digits(rng, 6)}")
            else:
                e["court"] = rng.choice(("Landgericht Düsseldorf", "Landgericht München I"))
                e["case"] = self.fresh(lambda: f"{rng.randint(2, 38)} O {rng.randint(100, 999)}/24")
        if m.kind == "employment":
            e["court"] = "Rechtbank Amsterdam, team kanton"
            e["case"] = self.fresh(lambda: f"{_digits(rng, 8)} EA VERZ {rng.randint(24, 25)}-{rng.randint(100, 999)}")
        e["contract"] = self.fresh(lambda: f"{m.kind[:3].upper()}-{m.cp_short[:3].upper()}-{rng.randint(1000, 9999)}")
        titles = {"saas": f"{m.cp} SaaS MSA negotiation", "employment": f"dismissal {e['emp']}",
                  "lease": f"lease renewal {e['addr']}", "dpa": f"DPA review {m.cp}",
                  "ma": f"Project {e['code']} (acquisition of {m.cp})", "litigation": f"{m.short} v {m.cp_short}",
                  "nda": f"NDA {m.cp}", "licence": f"software licence {m.cp}", "distribution": f"distribution {m.cp}"}
        m.title = titles[m.kind]
        for stem in DOC_FILES[m.kind]:
            name = stem.format(cp=m.cp_short, emp=e["emp"].replace(" ", "_"), addr=e["addr"].split(",")[0].replace(" ", "_"),
                               code=e["code"], client=m.short)
            ext = rng.choice((".docx", ".docx", ".pdf"))
            m.docs.append((f"DOC-{_digits(rng, 7)}", name + ext, rng.randint(1, 9)))

    def fresh(self, make: Callable[[], str]) -> str:
        """A string drawn by ``make`` that is not taken yet and holds no reserved value."""
        for _ in range(200):
            s = make()
            if s not in self.taken and not any(r in s or s in r for r in self.reserved):
                self.taken.add(s)
                return s
        raise RuntimeError("could not draw a fresh value")

    def reserve(self, *values: str) -> None:
        self.reserved.extend(values)

    def date(self, lo: int = -120, hi: int = 200) -> dt.date:
        """A working day around the session's 'today' (early 2025), never a reserved one."""
        base = dt.date(2025, 2, 3)
        while True:
            d = base + dt.timedelta(days=self.rng.randint(lo, hi))
            if d.weekday() < 5 and d not in self.reserved_dates:
                return d

    def day(self, style: str = "en", lo: int = -120, hi: int = 200) -> str:
        return fmt_date(self.date(lo, hi), style)

    def amount(self, lo: int, hi: int, step: int = 1, cur: str = "€") -> str:
        while True:
            s = money(self.rng.randrange(lo, hi, step), cur)
            if not any(r in s for r in self.reserved):
                return s

    def matter(self, *kinds: str) -> Matter:
        pool = [m for m in self.matters if not kinds or m.kind in kinds]
        return self.rng.choice(pool or self.matters)

    def by_kind(self, kind: str) -> Matter:
        return next(m for m in self.matters if m.kind == kind)


# --- documents: contracts with numbered clauses -------------------------------------------------

PARTIES = {"msa": ("Supplier", "Customer"), "nda": ("Discloser", "Recipient"), "employment": ("Employer", "Employee"),
           "lease": ("Landlord", "Tenant"), "dpa": ("Processor", "Controller"), "spa": ("Seller", "Purchaser"),
           "licence": ("Licensor", "Licensee"), "distribution": ("Principal", "Distributor"), "tcs": ("Company", "Customer")}
TITLES = {"msa": "MASTER SERVICES AGREEMENT", "nda": "MUTUAL NON-DISCLOSURE AGREEMENT", "employment": "EMPLOYMENT AGREEMENT",
          "lease": "LEASE AGREEMENT FOR OFFICE ACCOMMODATION (ROZ model 2015, amended)", "dpa": "DATA PROCESSING AGREEMENT",
          "spa": "SHARE PURCHASE AGREEMENT", "licence": "SOFTWARE LICENCE AGREEMENT", "distribution": "EXCLUSIVE DISTRIBUTION AGREEMENT",
          "tcs": "GENERAL TERMS AND CONDITIONS OF SALE AND DELIVERY"}

GENERIC_SECTIONS: dict[str, tuple[str, ...]] = {
    "Definitions and Interpretation": (
        'In this Agreement "Business Day" means a day other than a Saturday, Sunday or public holiday in {city}.',
        '"Confidential Information" means all information of a confidential nature disclosed by or on behalf of one party to the other, whether before or after the Effective Date, in any form.',
        '"Good Industry Practice" means the degree of skill, care, prudence and foresight which would reasonably be expected from a skilled and experienced operator engaged in the same type of undertaking.',
        '"Losses" means all losses, liabilities, damages, costs and expenses, including reasonable legal fees and disbursements.',
        '"Effective Date" means {date}.',
        "References to clauses and Schedules are to the clauses of and Schedules to this Agreement; the Schedules form part of this Agreement.",
        "Words in the singular include the plural and vice versa, and the words \"including\" and \"in particular\" are illustrative only.",
        '"Group Company" means, in relation to a company, that company, any subsidiary or holding company from time to time of that company, and any subsidiary from time to time of a holding company of that company.',
    ),
    "Payment": (
        "The {B} shall pay each undisputed invoice within {D} days of the date of receipt.",
        "All sums payable under this Agreement are exclusive of VAT, which shall be payable in addition at the applicable rate.",
        "If the {B} fails to pay any amount by the due date, interest shall accrue at the statutory commercial rate (art. 6:119a BW) from the due date until payment is made in full.",
        "The {B} may withhold payment of any amount disputed in good faith, provided it notifies the {A} of the dispute within {D2} days of receipt of the invoice, stating its reasons.",
        "The {A} may increase the Charges once in each Contract Year by no more than the increase in the consumer price index over the preceding twelve months.",
        "The {B} shall not be entitled to set off any amount owed to it by the {A} against any amount payable under this Agreement.",
    ),
    "Limitation of Liability": (
        "Nothing in this Agreement limits or excludes liability for death or personal injury caused by negligence, for fraud or fraudulent misrepresentation, or for any other liability which cannot be limited or excluded by law.",
        "Subject to clause {x}, neither party shall be liable for any loss of profits, loss of revenue, loss of goodwill, loss of anticipated savings or any indirect or consequential loss.",
        "Subject to clause {x}, each party's total aggregate liability arising under or in connection with this Agreement shall not exceed {P}% of the Charges paid or payable in the twelve (12) months preceding the event giving rise to the claim.",
        "The limitations in this clause shall not apply to the indemnity in clause {y} or to a breach of clause {z} (Confidentiality).",
        "Any claim must be notified in writing within {Y} years of the date on which the claimant became aware, or ought reasonably to have become aware, of the circumstances giving rise to it.",
        "The {A} shall maintain professional indemnity insurance with a reputable insurer for an amount of not less than {M} per claim for the term of this Agreement and six years thereafter.",
    ),
    "Termination": (
        "Either party may terminate this Agreement with immediate effect by written notice if the other party commits a material breach which is irremediable or, if remediable, is not remedied within {D} days of a notice requiring it to be remedied.",
        "Either party may terminate this Agreement by written notice if the other party is declared bankrupt, is granted a suspension of payments (surseance van betaling) or suffers any analogous event in any jurisdiction.",
        "Termination or expiry shall not affect any rights, remedies, obligations or liabilities of the parties that have accrued up to the date of termination or expiry.",
        "On termination the {A} shall, at the {B}'s option, return or destroy all data and documents of the {B} in its possession within {D2} days.",
        "Clauses {x}, {y} and {z} shall survive termination or expiry of this Agreement.",
        "Either party may terminate this Agreement for convenience by giving not less than {D} days' written notice to the other party.",
    ),
    "Confidentiality": (
        "Each party shall keep the other party's Confidential Information confidential and shall not use it except for the purpose of performing its obligations under this Agreement.",
        "A party may disclose Confidential Information to its employees, officers, professional advisers and subcontractors who need to know it, provided they are bound by obligations of confidentiality no less strict than this clause.",
        "A party may disclose Confidential Information to the extent required by law, by any governmental or regulatory authority or by a court of competent jurisdiction.",
        "This clause {x} shall survive termination of this Agreement for a period of {Y} years.",
    ),
    "Force Majeure": (
        "Neither party shall be in breach of this Agreement nor liable for delay in performing, or failure to perform, any of its obligations if such delay or failure results from events, circumstances or causes beyond its reasonable control.",
        "The affected party shall promptly notify the other party of the Force Majeure Event and use all reasonable endeavours to mitigate its effect.",
        "If the Force Majeure Event prevents or delays performance for more than {D} days, either party may terminate this Agreement by giving {D2} days' written notice.",
    ),
    "Assignment and Subcontracting": (
        "Neither party shall assign, transfer, subcontract or deal in any other manner with any of its rights and obligations under this Agreement without the prior written consent of the other party, such consent not to be unreasonably withheld or delayed.",
        "The {A} may subcontract the performance of its obligations, provided that it remains responsible for all acts and omissions of its subcontractors as if they were its own.",
        "Either party may assign this Agreement to a Group Company on written notice, provided the assignee is of equal or better financial standing.",
    ),
    "Notices": (
        "Any notice shall be in writing and delivered by hand, by pre-paid registered post or by email to the address set out at the head of this Agreement or as otherwise notified.",
        "A notice sent by email shall be deemed received at the time of transmission or, if outside business hours, at 9.00 am on the next Business Day.",
        "This clause does not apply to the service of any proceedings or other documents in any legal action or other method of dispute resolution.",
    ),
    "Governing Law and Jurisdiction": (
        "This Agreement and any dispute or claim (including non-contractual disputes or claims) arising out of or in connection with it shall be governed by the laws of {law}.",
        "The courts of {forum} shall have exclusive jurisdiction to settle any dispute or claim arising out of or in connection with this Agreement.",
        "Before commencing proceedings, the parties shall attempt in good faith to resolve the dispute by escalation to their respective managing directors within {D2} days of a written request.",
        "The United Nations Convention on Contracts for the International Sale of Goods (CISG) shall not apply.",
    ),
    "General": (
        "This Agreement constitutes the entire agreement between the parties and supersedes all previous agreements, promises, assurances and understandings between them relating to its subject matter.",
        "Each party acknowledges that in entering into this Agreement it does not rely on any statement, representation or warranty that is not set out in this Agreement.",
        "No variation of this Agreement shall be effective unless it is in writing and signed by the parties or their authorised representatives.",
        "If any provision of this Agreement is held invalid or unenforceable, it shall be deemed modified to the minimum extent necessary to make it valid; the other provisions remain in force.",
        "This Agreement may be executed in counterparts and by electronic signature, each of which when executed shall constitute an original.",
    ),
}

KIND_SECTIONS: dict[str, dict[str, tuple[str, ...]]] = {
    "msa": {
        "Services": (
            "The Supplier shall provide the Services to the Customer from the Service Start Date in accordance with the Service Description in Schedule 1.",
            "The Supplier shall meet or exceed the Service Levels set out in Schedule 2, including an Availability of {pct} measured per calendar month.",
            "If the Supplier fails to meet a Service Level, the Customer shall be entitled to the Service Credits in Schedule 2, which are a price adjustment and not an estimate of the Customer's loss.",
            "The Supplier shall not make any change to the Services which would materially reduce their functionality or security without the Customer's prior written consent.",
            "The Supplier shall provide second-line support between 08:00 and 18:00 CET on Business Days through the ticketing portal.",
        ),
        "Term": (
            "This Agreement shall commence on the Effective Date and continue for an Initial Term of {Y} years.",
            "Thereafter this Agreement shall renew automatically for successive periods of twelve (12) months unless either party gives written notice of non-renewal at least {D} days before the end of the then-current term.",
        ),
        "Customer Data": (
            "The Supplier shall process Customer Data only on the documented instructions of the Customer and in accordance with the Data Processing Agreement in Schedule 4.",
            "The Supplier shall ensure that Customer Data is hosted exclusively in data centres located in the European Economic Area.",
            "The Supplier shall maintain ISO/IEC 27001 certification throughout the term and provide the certificate on request.",
        ),
        "Intellectual Property": (
            "All Intellectual Property Rights in the Software and the Documentation shall remain vested in the Supplier and its licensors.",
            "The Customer grants the Supplier a non-exclusive licence to use the Customer Data solely to the extent necessary to provide the Services.",
            "The Supplier shall defend the Customer against any claim that the Services infringe a third party's Intellectual Property Rights and shall indemnify the Customer for any amounts awarded against it in a final judgment.",
        ),
    },
    "nda": {
        "Purpose and Use": (
            'The Recipient shall use the Confidential Information solely for the purpose of evaluating the Proposed Transaction (the "Purpose").',
            "The Recipient shall not make any copies of the Confidential Information except as strictly necessary for the Purpose.",
            "The Recipient shall not approach any employee, customer or supplier of the Discloser in connection with the Purpose without the Discloser's prior written consent.",
        ),
        "Exceptions": (
            "The obligations in clause 3 do not apply to information which is or becomes generally available to the public other than as a result of a breach of this Agreement.",
            "The obligations in clause 3 do not apply to information which was lawfully in the possession of the Recipient before the disclosure, as shown by its written records.",
            "The obligations in clause 3 do not apply to information which is independently developed by the Recipient without use of the Confidential Information.",
        ),
        "Non-solicitation": (
            "For a period of {Mo} months from the date of this Agreement, neither party shall solicit or entice away any senior employee of the other party with whom it has had contact in connection with the Purpose.",
        ),
        "Return of Information": (
            "On the Discloser's written request the Recipient shall promptly return or destroy all documents containing Confidential Information, save that it may retain one archival copy to comply with applicable law or bona fide internal compliance policies.",
        ),
        "Remedies": (
            "Damages alone may not be an adequate remedy for a breach of this Agreement and the Discloser shall be entitled to seek injunctive relief.",
            "For every breach of this Agreement the Recipient shall forfeit to the Discloser an immediately payable penalty of {M} per breach, without prejudice to the Discloser's right to claim full damages.",
        ),
    },
    "employment": {
        "Position and Duties": (
            "The Employee is employed in the position of {role} and reports to the {boss}.",
            "The Employee's place of work is the Employer's office in {city}; the Employer may require the Employee to work at other locations for business reasons.",
            "The Employee shall devote the whole of the Employee's working time and attention to the business of the Employer.",
        ),
        "Working Hours": (
            "Normal working hours are 40 hours per week, Monday to Friday, between 08:30 and 17:30.",
            "The Employee shall work such additional hours as are reasonably necessary for the proper performance of the Employee's duties without further remuneration.",
        ),
        "Salary": (
            "The Employee's gross monthly salary is {M}, payable in arrears on or before the 25th day of each month.",
            "The Employee is entitled to a holiday allowance of 8% of the gross annual salary, payable in May.",
            "The Employee participates in the Employer's bonus scheme; any bonus is discretionary and does not form part of the contractual remuneration.",
        ),
        "Illness": (
            "In the event of illness the Employee shall notify the Employer before 9.00 am on the first day of absence and comply with the Employer's absence policy.",
            "During the first 52 weeks of illness the Employer shall pay 100% of the salary, and 70% during the subsequent 52 weeks, subject to art. 7:629 BW.",
        ),
        "Restrictive Covenants": (
            "For a period of {Mo} months after termination the Employee shall not be engaged or involved, directly or indirectly, in any business that competes with the Employer within {region} (concurrentiebeding).",
            "For a period of {Mo} months after termination the Employee shall not solicit any client of the Employer with whom the Employee had dealings in the twelve months before termination (relatiebeding).",
            "For each breach of this clause the Employee shall forfeit a penalty of {M2} per breach plus {M3} for each day the breach continues, payable without notice of default.",
        ),
        "Garden Leave": (
            "The Employer may place the Employee on garden leave during all or part of the notice period, during which the Employee shall remain available and shall not contact clients.",
        ),
    },
    "lease": {
        "The Premises": (
            'The Landlord lets to the Tenant the office space on the {floor} floor of the building at {address} with a lettable floor area of {sqm} m2 (the "Premises").',
            "The Tenant shall use the Premises only as offices within the meaning of the applicable zoning plan.",
        ),
        "Term and Renewal": (
            "The lease is entered into for a term of {Y} years commencing on {date} and shall thereafter be extended for consecutive periods of five years.",
            "Termination shall be effected by notice given by bailiff's writ or registered letter at least twelve months before the end of the then-current term.",
        ),
        "Rent and Indexation": (
            "The initial annual rent is {M} excluding VAT, payable quarterly in advance.",
            "The rent shall be indexed annually on 1 January in accordance with the CPI (all households) published by Statistics Netherlands (CBS).",
            "In addition to the rent the Tenant shall pay an advance on the service charges of {M2} per quarter, to be settled annually on the basis of actual costs.",
        ),
        "Repair and Maintenance": (
            "The Tenant shall keep the interior of the Premises in good and substantial repair and condition, fair wear and tear excepted.",
            "Minor repairs as referred to in art. 7:217 BW and the Decree on minor repairs are for the account of the Tenant.",
        ),
        "Alienation": (
            "The Tenant shall not assign the lease or sublet the whole or any part of the Premises without the Landlord's prior written consent.",
            "Sharing occupation with a Group Company of the Tenant is permitted, provided no landlord-tenant relationship is created.",
        ),
        "Yielding Up": (
            "At the end of the lease the Tenant shall return the Premises in the condition described in the inspection report attached as Annex 3 (proces-verbaal van oplevering).",
        ),
    },
    "dpa": {
        "Scope of Processing": (
            "The Processor shall process Personal Data only on behalf of the Controller and on the Controller's documented instructions, including with regard to transfers to third countries.",
            "The subject matter, duration, nature and purpose of the processing and the categories of data subjects and Personal Data are set out in Annex 1.",
        ),
        "Security": (
            "The Processor shall implement appropriate technical and organisational measures as set out in Annex 2, taking into account the state of the art, the costs of implementation and the risks for the rights and freedoms of natural persons.",
            "The Processor shall encrypt Personal Data at rest using AES-256 or an equivalent standard and in transit using TLS 1.2 or higher.",
            "The Processor shall ensure that persons authorised to process the Personal Data have committed themselves to confidentiality.",
        ),
        "Sub-processors": (
            "The Controller grants a general authorisation to engage the sub-processors listed in Annex 3.",
            "The Processor shall inform the Controller of any intended addition or replacement of sub-processors at least {D2} days in advance, giving the Controller the opportunity to object.",
            "Where a sub-processor fails to fulfil its data protection obligations, the Processor shall remain fully liable to the Controller for the performance of that sub-processor's obligations.",
        ),
        "Personal Data Breaches": (
            "The Processor shall notify the Controller of a Personal Data Breach without undue delay and in any event within {H} hours after becoming aware of it.",
            "The notification shall at least describe the nature of the breach, the categories and approximate number of data subjects concerned and the likely consequences.",
        ),
        "Audits": (
            "The Processor shall make available to the Controller all information necessary to demonstrate compliance with Article 28 GDPR and allow for and contribute to audits, including inspections.",
            "Audits shall be carried out no more than once per year, on at least 30 days' written notice, during normal business hours and at the Controller's cost.",
        ),
        "International Transfers": (
            "The Processor shall not transfer Personal Data to a country outside the EEA unless the conditions of Chapter V GDPR are met, including by means of the Standard Contractual Clauses (Commission Implementing Decision (EU) 2021/914).",
        ),
        "Deletion": (
            "At the choice of the Controller, the Processor shall delete or return all Personal Data after the end of the provision of the services and delete existing copies unless Union or Member State law requires storage.",
        ),
    },
    "spa": {
        "Sale and Purchase": (
            "The Seller shall sell and the Purchaser shall purchase the Shares free from all Encumbrances together with all rights attaching to them at Completion.",
        ),
        "Consideration": (
            'The consideration for the Shares shall be {M} (the "Purchase Price"), subject to adjustment in accordance with Schedule 5 (Locked Box).',
            "An amount of {M2} shall be paid into the Escrow Account at Completion and held in accordance with the Escrow Agreement.",
            "No Leakage has occurred since the Locked Box Date and none shall occur before Completion, save for Permitted Leakage.",
        ),
        "Conditions": (
            "Completion is conditional on the works council (ondernemingsraad) of the Company having rendered its advice on the Transaction.",
            "The Purchaser shall use all reasonable endeavours to procure that the Conditions are satisfied as soon as possible and in any event by the Long Stop Date.",
        ),
        "Warranties": (
            "The Seller warrants to the Purchaser that each of the Warranties is true and accurate at the date of this Agreement and at Completion.",
            "The Warranties are qualified by the facts and circumstances fairly disclosed in the Disclosure Letter, with sufficient detail to enable a reasonable purchaser to identify the nature and scope of the matter disclosed.",
        ),
        "Limitations on Claims": (
            "The Seller shall not be liable for any Claim unless the amount of that Claim exceeds {M3} and the aggregate of all Claims exceeds {M4}, in which case the Seller shall be liable for the whole amount and not only the excess.",
            "The aggregate liability of the Seller for all Claims (other than Title Claims) shall not exceed {P}% of the Purchase Price.",
            "The Seller shall not be liable for any Claim unless notice of it is given to the Seller within {Mo} months of Completion.",
        ),
        "Restrictive Covenants": (
            "The Seller shall not, for a period of {Y} years from Completion, carry on or be engaged in any business which competes with the business of the Company as carried on at Completion.",
        ),
    },
    "licence": {
        "Grant of Licence": (
            "Subject to the terms of this Agreement, the Licensor grants to the Licensee a non-exclusive, non-transferable licence to use the Licensed Software in the Territory for the Licensee's internal business purposes.",
        ),
        "Restrictions": (
            "The Licensee shall not sublicense, assign, lease or otherwise transfer any of its rights under this Agreement.",
            "The Licensee shall not reverse engineer, decompile or disassemble the Licensed Software except to the extent permitted by mandatory law.",
            "The Licensee shall not use the Licensed Software to provide bureau, outsourcing or managed services to third parties.",
        ),
        "Royalties and Audit": (
            "The Licensee shall pay the Licensor a royalty of {P2}% of Net Sales of Licensed Products, payable within {D} days of the end of each calendar quarter.",
            "The Licensee shall keep complete and accurate records of Net Sales and shall permit the Licensor's auditors to inspect them on reasonable notice, not more than once per year.",
        ),
    },
    "distribution": {
        "Appointment": (
            "The Principal appoints the Distributor as its exclusive distributor of the Products in the Territory, and the Distributor accepts that appointment.",
            "The Distributor shall not actively sell the Products outside the Territory, without prejudice to passive sales.",
        ),
        "Minimum Purchase Target": (
            'The Distributor shall purchase Products with an aggregate value of at least {M} in each Contract Year (the "Minimum Purchase Target").',
        ),
        "Marketing": (
            "The Distributor shall use its best endeavours to promote and extend the sale of the Products throughout the Territory.",
        ),
        "Consequences of Termination": (
            "Upon termination the Distributor shall not be entitled to any goodwill indemnity or compensation, to the extent permitted by law.",
            "The Principal may repurchase the Distributor's stock of Products at the net invoice price within {D2} days of termination.",
        ),
    },
    "tcs": {
        "Applicability": (
            "These general terms and conditions apply to all offers, quotations and agreements of the Company; the Customer's purchasing conditions are expressly rejected.",
        ),
        "Complaints": (
            "Complaints about delivered goods must be submitted in writing within {D3} days of delivery, failing which the Customer's rights in respect of the defect lapse.",
        ),
        "Payment Terms": (
            "Payment shall be made within {D} days of the invoice date without deduction, discount or set-off.",
            "If payment is late, the Customer shall owe extrajudicial collection costs of 15% of the principal sum, with a minimum of €250.",
        ),
        "Retention of Title": (
            "Title to delivered goods remains with the Company until all amounts owed by the Customer have been paid in full.",
        ),
    },
}
ROLES = ("Head of Sales Benelux", "Senior Data Engineer", "Operations Manager", "Account Director", "Product Owner")
BOSSES = ("Chief Executive Officer", "Chief Operating Officer", "Managing Director", "VP Engineering")
FLOORS = ("second", "third", "fourth", "fifth", "sixth")


def _days(n: int) -> str:
    return f"{_words(n)} ({n})"


def contract_params(w: World, m: Matter) -> dict[str, str]:
    rng = w.rng
    return {"city": m.extra["city"], "date": w.day("en", -900, -30), "D": _days(rng.choice(FILLER_DAYS)),
            "D2": _days(rng.choice(FILLER_DAYS)), "D3": _days(rng.choice((5, 7, 8, 14))), "Y": rng.choice(("two", "three", "five", "seven")),
            "P": str(rng.choice((100, 125, 150, 200))), "P2": str(rng.choice((3, 4, 6, 8))), "M": w.amount(20_000, 2_000_000, 5_000),
            "M2": w.amount(2_000, 90_000, 500), "M3": w.amount(5_000, 50_000, 5_000), "M4": w.amount(100_000, 600_000, 25_000),
            "law": m.extra["law"], "forum": m.extra["forum"], "x": str(rng.randint(8, 14)), "y": str(rng.randint(10, 16)),
            "z": str(rng.randint(14, 20)), "pct": rng.choice(("99.5%", "99.8%", "99.9%")), "Mo": str(rng.choice(FILLER_MONTHS)),
            "H": str(rng.choice(FILLER_HOURS)), "region": rng.choice(("the Netherlands", "Belgium and the Netherlands", "Germany")),
            "role": rng.choice(ROLES), "boss": rng.choice(BOSSES), "floor": rng.choice(FLOORS), "sqm": str(rng.randint(180, 2400)),
            "address": m.extra["addr"], "A": "", "B": ""}


def contract(w: World, m: Matter, size: int, kind: str | None = None, planted: tuple[str, str] | None = None,
             notes: list[str] | None = None) -> str:
    """A contract of ``kind`` (the matter's by default) with numbered clauses, about ``size`` characters.

    ``planted`` is (section title, sentence): that sentence becomes a numbered sub-clause of that section.
    ``notes`` collects a few clause references for the agent's answer."""
    rng = w.rng
    kind = kind or DOC_KIND[m.kind]
    a, b = PARTIES[kind]
    params = contract_params(w, m)
    params["A"], params["B"] = a, b
    own = list(KIND_SECTIONS.get(kind, {}).items())
    generic = [(t, s) for t, s in GENERIC_SECTIONS.items() if t != "Definitions and Interpretation"]
    rng.shuffle(generic)
    sections = [("Definitions and Interpretation", GENERIC_SECTIONS["Definitions and Interpretation"])] + own + generic
    if planted and planted[0] not in [t for t, _s in sections]:
        sections.insert(min(len(sections), 3), (planted[0], ()))
    doc = m.docs[0] if kind == DOC_KIND[m.kind] else rng.choice(m.docs)
    head = (f"{TITLES[kind]}\n\n{doc[1]}  (DMS {doc[0]}, version {doc[2]}, matter {m.number})\n\n"
            f"THIS AGREEMENT is dated {params['date']} and made BETWEEN:\n"
            f"(1) {m.cp if kind not in ('spa',) else m.cp + ' Holding B.V.'}, a company incorporated under the laws of {m.extra['law']}"
            f' (the "{a}"); and\n(2) {m.client[0]} (the "{b}").\n\nIT IS AGREED as follows:\n')
    parts = [head]
    total = len(head)
    for n, (title, sentences) in enumerate(sections, start=1):
        body = list(sentences)
        rng.shuffle(body)
        body = body[:rng.randint(min(2, len(body)), len(body))] if body else []
        if planted and title == planted[0]:
            body.insert(rng.randint(0, len(body)), planted[1])
        lines = [f"\n{n}. {title.upper()}"]
        for j, s in enumerate(body, start=1):
            text = s.format(**params) if s is not (planted or ("", ""))[1] else s
            lines.append(f"{n}.{j} {text}")
            if notes is not None and rng.random() < 0.25:
                notes.append(f"{n}.{j}: {text[:110].rstrip()}{'...' if len(text) > 110 else ''}")
        chunk = "\n".join(lines)
        parts.append(chunk)
        total += len(chunk)
        if total >= size and (not planted or planted[1] in "".join(parts)):
            break
    n_sched = 1
    while total < size:
        sched = schedule_block(w, m, kind, n_sched)
        parts.append(sched)
        total += len(sched)
        n_sched += 1
    parts.append(f"\n\nSIGNED by the parties on the date first written above.\n\nfor and on behalf of {a}: ________________"
                 f"\nfor and on behalf of {b}: ________________")
    return "\n".join(parts)


def schedule_block(w: World, m: Matter, kind: str, n: int) -> str:
    rng = w.rng
    pick = rng.randrange(4)
    if pick == 0:
        rows = "\n".join(f"| {lvl} | {rng.choice(('99.5%', '99.8%', '99.9%'))} | {rng.randint(2, 10)}% of monthly Charges per 0.1% shortfall |"
                         for lvl in ("Platform availability", "API availability", "P1 response", "P2 response", "Backup restore"))
        return f"\n\nSCHEDULE {n} - SERVICE LEVELS AND SERVICE CREDITS\n\n| Service Level | Target | Service Credit |\n|---|---|---|\n{rows}\n\nService Credits are capped at 15% of the monthly Charges."
    if pick == 1:
        rows = "\n".join(f"{i}. {name}, {role}, {w.day('iso', -700, -10)}" for i, (name, role) in
                         enumerate(((m.client[2], m.client[3]), (m.opp_name, "external counsel"), (f"{w.first} {w.last}", "advocaat"),
                                    (rng.choice(EMPLOYEES), "project lead")), start=1))
        return f"\n\nSCHEDULE {n} - AUTHORISED REPRESENTATIVES AND ESCALATION CONTACTS\n\n{rows}\n\nLevel 1: project leads (5 Business Days); Level 2: managing directors (10 Business Days); Level 3: mediation under the NMI/MfN rules."
    if pick == 2:
        rows = "\n".join(f"| {cat} | {rng.choice(('customers', 'employees', 'end users', 'suppliers'))} | {rng.choice(('duration of the Agreement', '30 days after termination', '7 years (tax)'))} |"
                         for cat in ("Contact details", "Account credentials", "Usage logs", "Payment data", "Support tickets", "IP addresses"))
        return f"\n\nSCHEDULE {n} - DESCRIPTION OF THE PROCESSING (ANNEX 1)\n\n| Categories of Personal Data | Data subjects | Retention |\n|---|---|---|\n{rows}"
    rows = "\n".join(f"| {y} | {w.amount(10_000, 900_000, 1_000)} | {rng.choice(('fixed', 'indexed', 'per unit', 'capped'))} |"
                     for y in ("Contract Year 1", "Contract Year 2", "Contract Year 3", "Implementation fee", "Optional modules"))
    return f"\n\nSCHEDULE {n} - CHARGES\n\n| Item | Amount (excl. VAT) | Basis |\n|---|---|---|\n{rows}\n\nInvoicing: annually in advance; rate card for additional services in Annex A."


# --- documents: everything else the tools return ------------------------------------------------


def _deck(rng: random.Random, items: tuple[str, ...] | list[str]) -> Callable[[], str]:
    """Draws from ``items`` without repeats until all are used, then reshuffles."""
    pile: list[str] = []

    def draw() -> str:
        if not pile:
            pile.extend(items)
            rng.shuffle(pile)
        return pile.pop()
    return draw


def _rows(make: Callable[[], str], size: int, planted: str | None, rng: random.Random, least: int = 4) -> list[str]:
    """Rows from ``make`` until about ``size`` characters, with ``planted`` among them (not first, not last)."""
    rows: list[str] = []
    total = 0
    while total < size or len(rows) < least:
        row = make()
        rows.append(row)
        total += len(row) + 1
        if len(rows) > 400:
            break
    if planted is not None:
        rows.insert(rng.randint(1, max(1, len(rows) - 1)), planted)
    return rows


DOC_STATUSES = ("Draft", "Final", "Executed", "For review", "Superseded", "Client copy")


def dms_listing(w: World, m: Matter, size: int, query: str, planted: str | None = None) -> str:
    rng = w.rng
    size = min(size, 7000)
    authors = (f"{w.first[0]}. {w.last}", w.associate, w.paralegal, m.opp_name, m.client[2])

    def row() -> str:
        doc = rng.choice(m.docs)
        name = doc[1] if rng.random() < 0.5 else rng.choice(("Email_", "Note_", "Letter_", "Memo_", "Attendance_note_")) + \
            rng.choice((m.cp_short, m.short, m.extra["emp"].split()[0], "court", "client")) + f"_{w.day('iso')}" + rng.choice((".msg", ".docx", ".pdf"))
        return (f"DOC-{_digits(rng, 7)}  v{rng.randint(1, 12):<3} {name[:58]:<58} {rng.choice(authors)[:16]:<16} "
                f"{w.day('iso', -200, 10)} {rng.randint(8, 19):02d}:{rng.randint(0, 59):02d}  {rng.choice(DOC_STATUSES):<11} {rng.randint(18, 4800)} KB")
    rows = _rows(row, size - 300, planted, rng)
    return (f"DMS search: \"{query}\" in workspace {m.number} ({m.title})\n{len(rows)} results, sorted by last modified (desc)\n\n"
            f"{'Doc ID':<12} {'Ver':<4} {'Name':<58} {'Author':<16} {'Modified':<16} {'Status':<11} Size\n" + "-" * 130 + "\n"
            + "\n".join(rows) + "\n\nTip: use matter:<number> type:<doctype> to narrow the search.")


VDR_FOLDERS = (("1", "Corporate"), ("2", "Finance"), ("3", "Commercial contracts"), ("4", "Employment"), ("5", "Real estate"),
               ("6", "IP and IT"), ("7", "Data protection"), ("8", "Litigation and claims"), ("9", "Tax"), ("10", "Insurance"))
VDR_DOCS = {"1": ("Articles_of_association_{y}.pdf", "Shareholders_register_extract.pdf", "Board_minutes_{y}.pdf", "KvK_extract_{y}.pdf"),
            "2": ("Audited_accounts_FY{y}.pdf", "Management_accounts_{q}.xlsx", "Bank_facility_agreement_{y}.pdf", "Debtors_ageing_{q}.xlsx"),
            "3": ("Framework_agreement_{cust}_{y}.pdf", "Supply_agreement_{cust}.pdf", "Side_letter_{cust}_{y}.pdf", "Price_list_{cust}_{q}.xlsx"),
            "4": ("Employee_census_{q}.xlsx", "Management_agreement_CEO.pdf", "Works_council_covenant_{y}.pdf", "Pension_scheme_summary.pdf"),
            "5": ("Lease_{addr}.pdf", "Sublease_warehouse_{y}.pdf", "Environmental_report_{y}.pdf"),
            "6": ("Trademark_schedule.xlsx", "Source_code_escrow_{y}.pdf", "Open_source_audit_{q}.pdf", "IT_outsourcing_{cust}.pdf"),
            "7": ("Records_of_processing_{y}.xlsx", "DPA_{cust}.pdf", "Breach_register_{y}.xlsx", "DPIA_customer_portal.pdf"),
            "8": ("Claims_overview_{q}.xlsx", "Summons_{cust}_{y}.pdf", "Settlement_{cust}_{y}.pdf"),
            "9": ("Tax_ruling_{y}.pdf", "VAT_returns_{y}.zip", "Transfer_pricing_{y}.pdf"),
            "10": ("Insurance_overview_{y}.xlsx", "D&O_policy_{y}.pdf", "Cyber_policy_{y}.pdf")}
VDR_CUSTOMERS = ("Albion_Foods", "Meerstad_Retail", "Grünwald_Handel", "Castelli_SpA", "Nordic_Freight", "Lisse_Bloemen", "Deltaport")


def dataroom_index(w: World, m: Matter, size: int, planted: str | None = None) -> str:
    rng = w.rng
    code = m.extra["code"]
    lines = [f"Datasite - Project {code} - data room index (as at {w.day('en', -30, 5)})", "Access: buy-side legal (view/print, no download)", ""]
    total = 0
    k = 0
    while total < size - 200:
        num, name = VDR_FOLDERS[k % len(VDR_FOLDERS)]
        lines.append(f"{num}  {name.upper()}" + (f"  (round {k // len(VDR_FOLDERS) + 2})" if k >= len(VDR_FOLDERS) else ""))
        for j in range(rng.randint(3, 7)):
            tpl = rng.choice(VDR_DOCS[num])
            fname = tpl.format(y=rng.choice((2021, 2022, 2023, 2024)), q=rng.choice(("Q1", "Q2", "Q3", "Q4")) + "_2024",
                               cust=rng.choice(VDR_CUSTOMERS), addr=m.extra["addr"].split(",")[0].replace(" ", "_"))
            flag = rng.choice(("", "", "", "  NEW", "  updated", "  redacted"))
            line = f"   {num}.{j + 1 + (k // len(VDR_FOLDERS)) * 10}  {fname:<52} {rng.randint(1, 180):>4} pp   added {w.day('iso', -60, 5)}{flag}"
            lines.append(line)
            total += len(line) + 1
        k += 1
    if planted:
        lines.insert(rng.randint(4, len(lines) - 1), planted)
    lines.append(f"\n{rng.randint(2, 40)} documents added since your last visit. Q&A: {rng.randint(3, 30)} open questions.")
    return "\n".join(lines)


SNIPPETS = ("...the {B} shall indemnify and hold harmless the {A} against all Losses arising from...",
            "...any change of control of the {A} shall entitle the {B} to terminate this Agreement on written notice...",
            "...exclusivity shall lapse if the Minimum Purchase Target is not met in two consecutive Contract Years...",
            "...without prejudice to the right to claim supplementary damages (aanvullende schadevergoeding)...",
            "...we reserve all our client's rights and remedies, including the right to claim the costs of these proceedings...",
            "...the notice of default (ingebrekestelling) dated {d} gave your client a final term of fourteen days...",
            "...the works council has been informed and its advice will be requested in accordance with art. 25 WOR...",
            "...the landlord refers to the indexation clause and the service charge settlement for {y}...",
            "...the processor may engage further sub-processors only with the prior specific or general written authorisation...",
            "...all intellectual property rights in the deliverables shall vest in the {B} upon payment in full...")


def fulltext_hits(w: World, m: Matter, size: int, query: str, planted: str | None = None) -> str:
    rng = w.rng
    a, b = PARTIES[DOC_KIND[m.kind]]

    def row() -> str:
        doc = rng.choice(m.docs)
        snip = rng.choice(SNIPPETS).format(A=a, B=b, d=w.day("en", -200, -5), y=rng.choice((2022, 2023, 2024)))
        return f"[{rng.randint(55, 99)}%] {doc[0]} {doc[1]} (v{doc[2]}), p. {rng.randint(1, 60)}\n      {snip}"
    rows = _rows(row, size - 200, planted, rng)
    return f"Full-text search \"{query}\" - workspace {m.number} and linked data room - {len(rows)} hits\n\n" + "\n".join(rows)


OPP_DEMANDS = (
    "You must respond by Friday 17:00 or we will issue proceedings without further notice.",
    "We require written confirmation within seven days that your client will cease all use of our client's materials.",
    "Your client shall pay the outstanding amount of {amt} into our third-party account within 14 days, failing which we are instructed to file.",
    "Our client insists that any settlement includes a confidentiality clause and a non-disparagement undertaking.",
    "We expect your client to preserve all documents, including WhatsApp messages, relating to this matter.",
    "Please note that our client will not accept any liability cap below twice the annual fees.",
    "Any further communication must be addressed to this office and not to our client directly.",
    "We must have your client's signed version by Wednesday; otherwise the offer lapses.",
)
OPP_DEMANDS_DE = ("Wir fordern Ihre Mandantin auf, den Betrag von {amt} bis spätestens zum {d} auf unser Anderkonto zu überweisen.",
                  "Sollte diese Frist fruchtlos verstreichen, werden wir ohne weitere Ankündigung Klage erheben.",
                  "Ferner verlangen wir die Abgabe einer strafbewehrten Unterlassungserklärung bis zum {d}.")
OPP_DEMANDS_FR = ("Nous vous mettons en demeure de régler la somme de {amt} dans un délai de huit jours à compter de la présente.",
                  "À défaut, nous saisirons le Tribunal de commerce de Paris sans autre avis.",
                  "Votre cliente doit cesser immédiatement toute commercialisation des produits litigieux.")
OPP_DEMANDS_NL = ("Wij sommeren uw cliënte om binnen veertien dagen na dagtekening van deze brief het bedrag van {amt} te voldoen.",
                  "Bij gebreke daarvan zullen wij zonder nadere aankondiging tot dagvaarding overgaan.",
                  "Cliënte behoudt zich alle rechten voor, waaronder het recht op vergoeding van de buitengerechtelijke kosten.")
OPP_POSITIONS = (
    "Our client does not accept that the services were defective. The service credits under Schedule 2 are the sole and exclusive remedy for any availability shortfall.",
    "We note that your client has not complied with the notice requirements in clause {n}. In those circumstances the purported termination is invalid.",
    "The invoices were never disputed within the contractual period and are therefore deemed accepted.",
    "As to the non-compete, your client's new role at a direct competitor is plainly caught by the restriction.",
    "Our client remains willing to discuss a pragmatic solution, without prejudice to its position.",
    "The alleged defects were caused by your client's own integration work and fall outside the warranty.",
    "The rent review notice was served in time; the landlord's valuer will be instructed accordingly.",
    "We have reviewed your markup of the SPA and cannot accept the proposed extension of the warranty period.",
)
CLIENT_WISHES = (
    "We really want to keep {cp} as a customer, so please don't make the letter too aggressive.",
    "The board wants this closed before the summer. Can we get a settlement for less than {amt}?",
    "I would like the non-compete to be as long as legally possible, ideally 24 months.",
    "Can you make sure we can terminate the contract if their service keeps going down? It happened 3 times in January.",
    "Please keep costs under control, our budget for this matter is {amt} including VAT.",
    "We don't want to go to court unless we have to. What are our chances honestly?",
    "Our IT team says they use a sub-processor in the US, is that a problem?",
    "The landlord keeps calling me directly. Can you tell them to go through you?",
    "Also: the management wants a short summary they can read on one page.",
)


def email_thread(w: World, m: Matter, size: int, planted: str | None = None) -> str:
    rng = w.rng
    subject = rng.choice((f"{m.title} - without prejudice", f"RE: {m.title}", f"{m.client[1]} / {m.cp_short} - next steps",
                          f"FW: {m.title} - our ref {m.number}", f"{m.title}: draft for comments"))
    people = [(m.opp_name, m.opp_email, "opp"), (m.client[2], f"{m.client[2].split()[0].lower()}@{m.client[1].lower()}.com", "client"),
              (f"{w.first} {w.last}", f"{w.first[0].lower()}.{w.last.replace(' ', '').lower()}@{w.domain}", "us")]
    parts = []
    total = 0
    sent = w.date(-60, 0)
    while total < size - 200:
        name, addr, who = rng.choice(people)
        sent = sent + dt.timedelta(days=rng.randint(0, 3))
        if who == "opp":
            body = [rng.choice(OPP_POSITIONS).format(n=rng.randint(7, 21)), rng.choice(OPP_DEMANDS).format(amt=w.amount(8_000, 400_000, 250))]
        elif who == "client":
            body = [rng.choice(("Hi,", "Dear " + w.first + ",", "Hello,")), rng.choice(CLIENT_WISHES).format(cp=m.cp_short, amt=w.amount(10_000, 200_000, 5_000))]
        else:
            body = [f"Dear {rng.choice((m.opp[0], m.client[2].split()[0]))},",
                    rng.choice(("Thank you for your email, the contents of which we have discussed with our client.",
                                "We refer to our telephone conversation of this morning.",
                                "Please find attached our client's comments on the latest draft.",
                                "Our client reserves all its rights in this respect."))]
        text = (f"From: {name} <{addr}>\nSent: {fmt_date(sent, 'short')} {sent.year} {rng.randint(7, 22):02d}:{rng.randint(0, 59):02d}\n"
                f"To: {rng.choice([p for p in people if p[1] != addr])[1]}\nSubject: {subject}\n\n" + "\n\n".join(body) + f"\n\nKind regards,\n{name}")
        parts.append(text)
        total += len(text) + 40
    if planted:
        parts.insert(rng.randint(0, len(parts) - 1), planted)
    return f"{subject}.msg  (DMS DOC-{_digits(rng, 7)}, workspace {m.number})\n\n" + "\n\n-----Original Message-----\n".join(parts)


ORDER_PARAS_EN = ("The Defendant shall file and serve its Defence by 4pm on {d}.", "The Claimant has permission to file a Reply by 4pm on {d}.",
                  "Standard disclosure by list by {d}; inspection within 7 days of a request.", "Signed witness statements of fact to be exchanged by {d}.",
                  "The parties shall file an agreed case summary and list of issues by {d}.", "Costs in the case.",
                  "The trial window opens on {d}, time estimate 3 days including pre-reading.",
                  "Any application to vary this order must be made within 7 days of service.",
                  "The parties shall consider ADR and any party refusing to engage must explain why in a witness statement.")
ORDER_PARAS_NL = ("De rechtbank bepaalt dat een mondelinge behandeling zal plaatsvinden; partijen dienen hun verhinderdata op te geven binnen twee weken.",
                  "Partijen kunnen uiterlijk tien dagen voor de zitting nog producties in het geding brengen.",
                  "De zaak wordt verwezen naar de rol van {d} voor uitlating aan de zijde van gedaagde.",
                  "Iedere verdere beslissing wordt aangehouden.", "Het verzoek om uitstel wordt toegewezen tot {d}; verder uitstel wordt niet verleend.")


def court_order(w: World, m: Matter, size: int, planted: str | None = None) -> str:
    rng = w.rng
    court = m.extra.get("court", "Rechtbank Amsterdam")
    case = m.extra.get("case", m.number)
    if m.extra.get("style", "nl") == "en":
        head = (f"IN THE HIGH COURT OF JUSTICE\nBUSINESS AND PROPERTY COURTS\nCIRCUIT COMMERCIAL COURT (KBD)\n\nClaim No. {case}\n\n"
                f"BETWEEN\n{m.client[0].upper()}   Claimant\n- and -\n{m.cp.upper()}   Defendant\n\nORDER\n\n"
                f"Before {m.extra['judge']} sitting at the Rolls Building on {w.day('en', -40, 0)}\n\n"
                f"UPON the Claimant's application dated {w.day('en', -80, -40)}\nAND UPON hearing counsel for both parties\n\nIT IS ORDERED THAT:\n")
        paras = ORDER_PARAS_EN
    else:
        head = (f"{court.upper()}\n\nzaaknummer / rolnummer: {case}\n\nVonnis van {w.day('nl', -40, 0)}\n\nin de zaak van\n{m.client[0]},\n"
                f"eiseres,\nadvocaat: mr. {w.first[0]}. {w.last},\ntegen\n{m.cp},\ngedaagde,\nadvocaat: mr. {m.opp[0][0]}. {m.opp[1]}.\n\n"
                "1. De procedure\n1.1. Het verloop van de procedure blijkt uit de dagvaarding met producties en de conclusie van antwoord.\n\n"
                "2. De beoordeling\n")
        paras = ORDER_PARAS_NL
    draw = _deck(rng, paras)
    body = _rows(lambda: draw().format(d=w.day("en" if paras is ORDER_PARAS_EN else "nl", 10, 150)), size - len(head) - 200, planted, rng)
    return head + "\n".join(f"{i}. {p}" for i, p in enumerate(body, start=1)) + f"\n\n{m.extra['judge']}\nDated {w.day('en', -40, 0)}"


DD_ISSUES = (("Commercial", "Top-5 customer contract contains a change of control termination right", "High", "Obtain waiver pre-signing"),
             ("Employment", "Three managers on management agreements without non-compete", "Medium", "New covenants at Completion"),
             ("Real estate", "Lease for the warehouse expires within 14 months, no renewal option", "Medium", "Price / specific indemnity"),
             ("Data protection", "No records of processing for the HR systems", "Low", "Post-closing remediation"),
             ("IP/IT", "Core platform uses AGPL component in a distributed module", "High", "Remediation plan as CP"),
             ("Litigation", "Pending claim by former distributor for goodwill indemnity", "Medium", "Specific indemnity, escrow"),
             ("Tax", "Open VAT audit for 2021-2022", "Medium", "Tax covenant"),
             ("Corporate", "Share issue of 2019 not registered in shareholders' register", "Low", "Rectification deed"),
             ("Finance", "Bank facility has a change of control prepayment event", "High", "Refinancing at Completion"),
             ("Insurance", "D&O cover expires at Completion without run-off", "Low", "Six-year run-off"))


def dd_report(w: World, m: Matter, size: int, planted: str | None = None) -> str:
    rng = w.rng
    head = (f"LEGAL DUE DILIGENCE REPORT - PROJECT {m.extra['code'].upper()} - DRAFT v{rng.randint(2, 9)} ({w.day('en', -20, 0)})\n"
            f"Privileged & confidential - prepared for {m.client[0]}\n\n1. RED FLAG SUMMARY\n\n| # | Area | Issue | Risk | Recommendation |\n|---|---|---|---|---|\n")

    def row() -> str:
        area, issue, risk, rec = rng.choice(DD_ISSUES)
        return f"| {rng.randint(1, 60)} | {area} | {issue} (VDR {rng.randint(1, 10)}.{rng.randint(1, 30)}) | {risk} | {rec} |"
    rows = _rows(row, size - len(head) - 300, planted, rng)
    return head + "\n".join(rows) + "\n\n2. SCOPE AND LIMITATIONS\nThis report is based on the documents in the data room as at the cut-off date and the answers in the Q&A log."


def board_minutes(w: World, m: Matter, size: int, planted: str | None = None) -> str:
    rng = w.rng
    size = min(size, 5000)
    items = ("Opening and adoption of the agenda.", "Minutes of the previous meeting were adopted without changes.",
             "The CFO presented the management accounts; revenue is {p}% ahead of budget.", "The board discussed the proposed transaction with the Purchaser.",
             "Resolved to grant a power of attorney to the CEO to sign the transaction documents.", "The works council will be asked for advice under art. 25 WOR.",
             "The board noted the pending claim and the advice of external counsel.", "Any other business: none.",
             "Resolved to approve the extension of the bank facility until {d}.")
    head = (f"MINUTES of the meeting of the management board of {m.cp} held on {w.day('en', -400, -30)} at {m.extra['city']}\n\n"
            f"Present: {m.client[2]} (chair), {rng.choice(EMPLOYEES)}, {rng.choice(EMPLOYEES)}\nSecretary: {w.paralegal}\n\n")
    draw = _deck(rng, items)
    body = _rows(lambda: draw().format(p=rng.randint(2, 19), d=w.day("en", 30, 300)), size - len(head), planted, rng)
    return head + "\n".join(f"{i}. {p}" for i, p in enumerate(body, start=1)) + "\n\nThere being no further business, the chair closed the meeting."


def cap_table(w: World, m: Matter, size: int, planted: str | None = None) -> str:
    rng = w.rng
    size = min(size, 4000)
    holders = ("Founders Holding B.V.", "Stichting Administratiekantoor " + m.cp_short, "Employee Participation Foundation",
               "Seed investor " + rng.choice(("Fund I C.V.", "Ventures B.V.")), "Angel investor (private)")
    head = f"SHAREHOLDERS' REGISTER - {m.cp} (VDR 1.2)\n\n| No. | Shareholder | Class | Shares | Numbers | Acquired | Deed |\n|---|---|---|---|---|---|---|\n"
    start = 1

    def row() -> str:
        nonlocal start
        k = rng.randint(100, 25_000)
        r = f"| {rng.randint(1, 40)} | {rng.choice(holders)} | {rng.choice(('A', 'A', 'B', 'pref'))} | {k:,} | {start:,}-{start + k - 1:,} | {w.day('iso', -3000, -100)} | notary {rng.choice(('De Groot', 'Van Lier', 'Smeets'))} |"
        start += k
        return r
    return head + "\n".join(_rows(row, size - len(head), planted, rng)) + "\n\nRegister kept by the management board; last entry signed by the chair."


def invoice_doc(w: World, m: Matter, size: int, planted: str | None = None) -> str:
    rng = w.rng
    size = min(size, 4500)
    head = (f"{rng.choice((m.opp[2], 'Expert bureau ' + rng.choice(('Vermeulen', 'Kostas', 'Harrow'))))}\nInvoice {rng.choice(('INV', 'F'))}-{rng.randint(2024, 2025)}-{_digits(rng, 4)}\n"
            f"Date: {w.day('en', -60, 0)}\nTo: {m.client[0]}\nRe: {m.title}\n\n| Date | Fee earner | Description | Hours | Amount |\n|---|---|---|---|---|\n")
    descs = ("Review of correspondence", "Telephone call with client", "Drafting letter to opposing counsel", "Preparing productions",
             "Research on case law", "Attendance at hearing", "Travel (50%)", "Revising settlement agreement", "Internal meeting")
    rows = _rows(lambda: f"| {w.day('iso', -90, -1)} | {rng.choice(('JM', 'EB', 'TW', 'HB'))} | {rng.choice(descs)} | {rng.randint(1, 60) / 10:.1f} | {w.amount(80, 4000, 10)} |",
                 size - len(head) - 100, planted, rng)
    return head + "\n".join(rows) + f"\n\nTotal excl. VAT: {w.amount(2_000, 60_000, 10)}  VAT 21%  Payment within 30 days."


def insurance_schedule(w: World, m: Matter, size: int, planted: str | None = None) -> str:
    rng = w.rng
    size = min(size, 3200)
    head = (f"POLICY SCHEDULE - {rng.choice(('Professional Indemnity', 'Directors & Officers Liability', 'Cyber and Data'))}\n"
            f"Insured: {m.client[0]}\nPolicy period: {w.day('en', -300, -200)} to {w.day('en', 60, 160)}\n\n")
    items = ("Limit of indemnity: {a} any one claim and in the aggregate", "Retroactive date: unlimited", "Territorial limits: worldwide excluding USA/Canada",
             "Jurisdiction: {law}", "Claims notification: as soon as practicable and within the policy period", "Exclusion 4(c): contractual liability assumed beyond common law liability",
             "Extension: defence costs in addition to the limit", "Premium: {a} plus insurance premium tax", "Insurer: {ins}", "Claims handler: {ins} Claims, Rotterdam")
    rows = _rows(lambda: "- " + rng.choice(items).format(a=w.amount(250_000, 5_000_000, 50_000), law=m.extra["law"], ins=rng.choice(("Allianz", "Nationale-Nederlanden", "AIG Europe", "Chubb"))),
                 size - len(head), planted, rng)
    return head + "\n".join(rows)


BILLING_ITEMS = ("Invoices are issued monthly in arrears and itemised per fee earner.", "Hourly rates {y}: partner €{r1}, associate €{r2}, paralegal €{r3}.",
                 "Disbursements (court fees, bailiffs, couriers) are charged at cost.", "Payment term: 30 days from the invoice date.",
                 "Invoices are sent in PDF to the accounts payable address; copies to the legal department.", "Narratives: one line per entry, no block billing.",
                 "Budget overruns of more than 10% must be announced in writing before the work is done.", "VAT at 21% unless reverse-charged.",
                 "The firm's general terms apply; liability is limited to the amount paid out by the professional indemnity insurer.")


def billing_terms(w: World, m: Matter, size: int, planted: str | None = None) -> str:
    rng = w.rng
    size = min(size, 2600)
    head = f"ENGAGEMENT TERMS AND BILLING INSTRUCTIONS - {m.client[0]} (DMS {m.docs[0][0]})\n\n"
    draw = _deck(rng, BILLING_ITEMS)
    rows = _rows(lambda: "- " + draw().format(y=rng.choice((2024, 2025)), r1=rng.choice((325, 350, 395)), r2=rng.choice((210, 240, 265)), r3=rng.choice((110, 125, 140))),
                 size - len(head), planted, rng)
    return head + "\n".join(rows)


OCR_LINES = ("Artikel {n} Huurprijs", "{n}.1 De aanvangshuurprijs bedraagt op jaarbasis € {a},-- (zegge: {words} euro).",
             "{n}.2 De huurprijs wordt jaarlijks per l januari aangepast overeenkomstig artikel 9 van de algemene bepalingen.",
             "{n}.3 Huurder is btw verschuldigd over de huurprijs; partijen opteren voor een btw-belaste verhuur.",
             "Artikel {n} Zekerheidsstelling", "{n}.1 Huurder zal een bankgarantie stellen ter hoogte van € {a},-- .",
             "{n}.2 De bankgarantie dient uiterlijk op de ingangsdatum van de huur in het bezit van verhuurder te zijn.",
             "Artikel {n} Onderhoud", "{n}.1 Het onderhoud van de installaties komt voor rekening van verhuurder, met uitzondering van de klein-",
             "dagelijkse onderhoudswerkzaamheden die voor rekening van huurder komen.", "paraaf verhuurder: ____   paraaf huurder: ____")


def ocr_pdf(w: World, m: Matter, size: int, planted: str | None = None) -> str:
    rng = w.rng
    name = f"Huurovereenkomst_{m.extra['addr'].split(',')[0].replace(' ', '_')}_{rng.randint(1996, 2012)}_scan.pdf"
    page = 1
    out = [f"{name} - text layer extracted by OCR (language: nld), {rng.randint(8, 24)} pages\n\n--- page 1 ---"]
    total = 0
    while total < size:
        line = rng.choice(OCR_LINES).format(n=rng.randint(1, 25), a=w.amount(20_000, 400_000, 500).lstrip("€"), words="...")
        if rng.random() < 0.15:
            line = line.replace("e", "c", 1).replace("l", "1", 1)
        out.append(line)
        total += len(line) + 1
        if rng.random() < 0.08:
            page += 1
            out.append(f"--- page {page} ---")
    if planted:
        out.insert(rng.randint(2, len(out) - 1), planted)
    return "\n".join(out)


AP_PARAS = ("De Autoriteit Persoonsgegevens (AP) heeft een klacht ontvangen over de verwerking van persoonsgegevens door uw organisatie.",
            "Op grond van artikel 58, eerste lid, onder a, AVG verzoekt de AP u om de volgende informatie te verstrekken.",
            "a. een beschrijving van de verwerking en de grondslag daarvan;", "b. het register van verwerkingsactiviteiten (artikel 30 AVG);",
            "c. de verwerkersovereenkomsten met de betrokken leveranciers;", "d. de uitgevoerde DPIA, indien van toepassing;",
            "U dient de gevraagde informatie binnen vier weken na dagtekening van deze brief te verstrekken.",
            "Indien u niet tijdig reageert, kan de AP een last onder dwangsom opleggen.",
            "Deze brief is geen besluit in de zin van de Algemene wet bestuursrecht.")


AP_EXTRA = ("een overzicht van de beveiligingsmaatregelen (artikel 32 AVG), inclusief de datum van de laatste evaluatie;",
            "de namen van de subverwerkers en de landen waarin zij de persoonsgegevens verwerken;",
            "een kopie van de informatie die aan betrokkenen is verstrekt (artikelen 13 en 14 AVG);",
            "het register van datalekken over de afgelopen twee jaar (artikel 33, vijfde lid, AVG);",
            "de bewaartermijnen per categorie persoonsgegevens en de onderbouwing daarvan;",
            "de contactgegevens van de functionaris gegevensbescherming en diens positie in de organisatie;",
            "een toelichting op de wijze waarop verzoeken van betrokkenen worden afgehandeld, met aantallen over 2024;",
            "indien persoonsgegevens buiten de EER worden doorgegeven: de grondslag daarvoor en de uitgevoerde transfer impact assessment.")


def regulator_letter(w: World, m: Matter, size: int, planted: str | None = None) -> str:
    rng = w.rng
    head = (f"Autoriteit Persoonsgegevens\nPostbus 93374, 2509 AJ Den Haag\n\n{m.client[0]}\nt.a.v. de functionaris gegevensbescherming\n\n"
            f"Datum: {w.day('nl', -30, 0)}\nOns kenmerk: z{rng.randint(2024, 2025)}-{_digits(rng, 5)}\nOnderwerp: verzoek om informatie\n\nGeachte heer, mevrouw,\n\n")
    paras = list(AP_PARAS[:2]) + list(AP_PARAS[2:6])
    total = len(head) + sum(len(x) for x in paras)
    extras = list(AP_EXTRA)
    rng.shuffle(extras)
    k = 0
    while total < size - 400 and k < len(extras):
        extra = f"{'efghijkl'[k]}. {extras[k]}"
        paras.append(extra)
        total += len(extra) + 2
        k += 1
    paras += list(AP_PARAS[6:])
    if planted:
        paras.insert(rng.randint(1, len(paras) - 1), planted)
    return head + "\n\n".join(paras) + "\n\nHoogachtend,\nde Autoriteit Persoonsgegevens"


STATUTES = (("Art. 28(3) GDPR", "Processing by a processor shall be governed by a contract or other legal act under Union or Member State law, that is binding on the processor with regard to the controller and that sets out the subject-matter and duration of the processing, the nature and purpose of the processing, the type of personal data and categories of data subjects and the obligations and rights of the controller."),
            ("Art. 33(1) GDPR", "In the case of a personal data breach, the controller shall without undue delay and, where feasible, not later than 72 hours after having become aware of it, notify the personal data breach to the supervisory authority competent in accordance with Article 55, unless the personal data breach is unlikely to result in a risk to the rights and freedoms of natural persons."),
            ("Art. 82(1) GDPR", "Any person who has suffered material or non-material damage as a result of an infringement of this Regulation shall have the right to receive compensation from the controller or processor for the damage suffered."),
            ("Art. 7:681 BW", "Indien de werkgever de arbeidsovereenkomst heeft opgezegd in strijd met artikel 671 of artikel 671a, kan de kantonrechter op verzoek van de werknemer de opzegging vernietigen of aan de werknemer een billijke vergoeding toekennen."),
            ("Art. 7:686a BW", "Een verzoekschrift als bedoeld in artikel 681 wordt op straffe van verval ingediend binnen twee maanden na de dag waarop de arbeidsovereenkomst is geëindigd."),
            ("Art. 6:248 BW", "Een tussen partijen als gevolg van de overeenkomst geldende regel is niet van toepassing voor zover dit in de gegeven omstandigheden naar maatstaven van redelijkheid en billijkheid onaanvaardbaar zou zijn."),
            ("Art. 7:290 BW", "Onder huur van bedrijfsruimte in de zin van deze afdeling wordt verstaan de huur van een gebouwde onroerende zaak die bestemd is voor de uitoefening van een kleinhandelsbedrijf."),
            ("s. 11(1) UCTA 1977", "In relation to a contract term, the requirement of reasonableness is that the term shall have been a fair and reasonable one to be included having regard to the circumstances which were, or ought reasonably to have been, known to or in the contemplation of the parties when the contract was made."),
            ("§ 307 Abs. 1 BGB", "Bestimmungen in Allgemeinen Geschäftsbedingungen sind unwirksam, wenn sie den Vertragspartner des Verwenders entgegen den Geboten von Treu und Glauben unangemessen benachteiligen."),
            ("Art. L. 442-1 C. com.", "Engage la responsabilité de son auteur et l'oblige à réparer le préjudice causé le fait, dans le cadre de la négociation commerciale, de la conclusion ou de l'exécution d'un contrat, de rompre brutalement, même partiellement, une relation commerciale établie, en l'absence d'un préavis écrit."))


def statute_excerpt(w: World, m: Matter, size: int, planted: str | None = None) -> str:
    rng = w.rng
    size = min(size, 6500)
    picks = list(STATUTES)
    rng.shuffle(picks)
    out = [f"Legislation lookup (consolidated text as at {w.day('en', -10, 0)})"]
    total = 0
    i = 0
    while total < size:
        ref, text = picks[i % len(picks)]
        block = f"\n{ref}\n{text}\n  Annotation: see {rng.choice(('Asser', 'T&C', 'Chitty', 'Palandt', 'Kühling/Buchner'))} {rng.randint(1, 400)}; commentary updated {w.day('iso', -400, -10)}."
        out.append(block)
        total += len(block)
        i += 1
    if planted:
        out.insert(rng.randint(1, len(out) - 1), planted)
    return "\n".join(out)


QA_QUESTIONS = ("Please provide the signed version of the framework agreement with {c}.", "Are there any side letters to the top-10 customer contracts?",
                "Please confirm whether any employee has a change of control bonus.", "Has the company received any notice of termination from a key supplier in the last 24 months?",
                "Please provide the breach register for 2023 and 2024.", "Is the lease for the head office subject to landlord consent on a change of control?",
                "Please list all open-source components distributed to customers.", "Are there any pending or threatened claims above EUR 50,000?")
QA_ANSWERS = ("Uploaded to 3.1.{n}.", "No, none.", "See the management agreements in 4.2; no change of control bonuses.", "To follow.",
              "Seller is checking with the finance team.", "The landlord's consent is not required; see clause 14 of the lease.", "See VDR {n}.{n2}.")


def qa_log(w: World, m: Matter, size: int, planted: str | None = None) -> str:
    rng = w.rng
    size = min(size, 7000)

    def row() -> str:
        st = rng.choice(("Open", "Answered", "Answered", "Follow-up", "Closed"))
        q = rng.choice(QA_QUESTIONS).format(c=rng.choice(VDR_CUSTOMERS).replace("_", " "))
        a = rng.choice(QA_ANSWERS).format(n=rng.randint(1, 40), n2=rng.randint(1, 20)) if st != "Open" else "-"
        return f"Q&A {rng.randint(1, 240):>3} | {w.day('iso', -40, 0)} | {rng.choice(('Legal', 'Commercial', 'HR', 'IT', 'Tax'))} | {st}\n   Q: {q}\n   A: {a}"
    return f"Datasite Q&A - Project {m.extra['code']} - buyer questions\n\n" + "\n".join(_rows(row, size - 100, planted, rng))


def conflict_check(w: World, m: Matter, size: int, party: str, planted: str | None = None) -> str:
    rng = w.rng
    size = min(size, 4500)

    def row() -> str:
        other = rng.choice(w.matters)
        return (f"  {other.number}  {other.title[:48]:<48} role: {rng.choice(('client', 'counterparty', 'related party', 'opposing counsel'))}"
                f"  status: {rng.choice(('open', 'closed', 'archived'))}  match: {rng.choice(('name', 'fuzzy name', 'KvK number', 'director'))}")
    rows = _rows(row, size - 400, planted, rng)
    verdict = rng.choice(("No conflict identified.", "Potential conflict - partner review required before acceptance.", "No conflict; note prior adverse role (closed)."))
    return (f"CONFLICT CHECK - requested by {w.initials} on {w.day('iso', -2, 0)}\nSearch terms: \"{party}\", directors, UBOs, group companies\n"
            f"Parties database: {len(rows)} hits\n\n" + "\n".join(rows) + f"\n\nResult: {verdict}\nChecked against: clients, counterparties, ethical walls.")


REDLINE_EDITS = (("shall", "may"), ("thirty (30)", "sixty (60)"), ("reasonable endeavours", "best endeavours"), ("indirect or consequential", "indirect"),
                 ("prior written consent", "prior written consent (not to be unreasonably withheld)"), ("100%", "200%"),
                 ("twelve (12) months", "twenty-four (24) months"), ("exclusive jurisdiction", "non-exclusive jurisdiction"),
                 ("without undue delay", "within five (5) Business Days"), ("the Customer", "the Customer and its Group Companies"))
REDLINE_COMMENTS = ("Not acceptable - our client needs a hard cap.", "Please explain why this is needed; market is mutual.",
                    "Agreed in principle, subject to wording.", "Deleted: duplicates clause {n}.", "Our client cannot give this warranty without knowledge qualifier.",
                    "Moved to Schedule 3.", "To be discussed on the call.", "We can live with this if the carve-out in {n}.2 stays.",
                    "Consistent with the heads of terms?", "Drafting point only.")


def redline_diff(w: World, m: Matter, size: int, planted: str | None = None, older: str = "", newer: str = "") -> str:
    rng = w.rng
    kind = DOC_KIND[m.kind]
    a, b = PARTIES[kind]
    params = contract_params(w, m)
    params["A"], params["B"] = a, b
    pool = [s for sec in KIND_SECTIONS.get(kind, {}).values() for s in sec] + [s for sec in GENERIC_SECTIONS.values() for s in sec]
    older = older or f"{m.docs[0][1]} v{m.docs[0][2]} (ours)"
    newer = newer or f"{m.docs[0][1]} v{m.docs[0][2] + 1} ({m.opp[2]})"
    counts = [0, 0, 0]

    def row() -> str:
        text = rng.choice(pool).format(**params)
        old, new = rng.choice(REDLINE_EDITS)
        if old in text:
            text = text.replace(old, f"[-{old}-]{{+{new}+}}", 1)
            counts[0] += 1
        else:
            words = text.split()
            cut = rng.randint(3, max(4, len(words) - 2))
            if rng.random() < 0.5:
                text = " ".join(words[:cut]) + " {+" + rng.choice(("acting reasonably,", "to the extent permitted by law,", "in writing", "promptly", "(save in the case of fraud)")) + "+} " + " ".join(words[cut:])
                counts[1] += 1
            else:
                text = " ".join(words[:cut]) + " [-" + " ".join(words[cut:cut + 3]) + "-] " + " ".join(words[cut + 3:])
                counts[2] += 1
        ref = f"{rng.randint(1, 24)}.{rng.randint(1, 8)}"
        out = f"{ref:<6} {text}"
        if rng.random() < 0.35:
            out += f"\n       > comment [{m.opp[0][0]}{m.opp[1][0]} {w.day('dash', -20, 0)[:5]}]: " + rng.choice(REDLINE_COMMENTS).format(n=rng.randint(5, 20))
        return out
    rows = _rows(row, size - 400, planted, rng)
    return (f"Redline: {older}  ->  {newer}\nCompared {w.day('en', -3, 0)}; legend: [-deleted-] {{+inserted+}}\n"
            f"Summary: {counts[0]} replacements, {counts[1]} insertions, {counts[2]} deletions, {rng.randint(0, 6)} moves\n" + "=" * 72 + "\n\n" + "\n\n".join(rows))


def tracked_changes(w: World, m: Matter, size: int, planted: str | None = None) -> str:
    rng = w.rng
    size = min(size, 8000)
    authors = (m.opp_name, m.opp_name, w.associate, m.client[2])
    n = 0

    def row() -> str:
        nonlocal n
        n += 1
        kind = rng.choice(("Insertion", "Deletion", "Formatting", "Comment", "Insertion", "Deletion"))
        what = rng.choice(("\"acting reasonably\"", "\"or indirect\"", "\"within 10 Business Days\"", "new clause 9.4 (audit rights)",
                           "\"exclusive\"", "definition of \"Affiliate\"", "\"gross negligence or\"", "cap wording \"in the aggregate\""))
        line = f"Change {n:>3} | {kind:<10} | {rng.choice(authors):<16} | {w.day('iso', -14, 0)} {rng.randint(8, 23):02d}:{rng.randint(0, 59):02d} | cl. {rng.randint(1, 22)}.{rng.randint(1, 7)} | {what}"
        if kind == "Comment":
            line += "\n           " + rng.choice(REDLINE_COMMENTS).format(n=rng.randint(4, 20))
        return line
    rows = _rows(row, size - 200, planted, rng)
    return f"Tracked changes in {rng.choice(m.docs)[1]} (Word compare, {len(rows)} revisions, {rng.randint(2, 12)} comments)\n\n" + "\n".join(rows)


CLAUSE_KEYS = ("liability.cap.mutual", "liability.exclusions.standard", "termination.convenience", "confidentiality.mutual.v3",
               "dpa.subprocessors.general", "dpa.audit.remote_first", "nda.nonsolicit.mutual", "lease.break.tenant", "spa.limitations.deminimis",
               "employment.noncompete.nl", "governing_law.nl", "force_majeure.narrow", "ip.background_foreground", "sla.service_credits")
GUIDANCE = ("Use where the client is the customer; resist any cap below 12 months' fees.", "Fallback: accept a cap of 150% if data breaches are carved out.",
            "Dutch law: a non-compete in a fixed-term contract needs written reasons (art. 7:653 lid 2 BW).",
            "Keep the notice period aligned with the renewal notice window.", "For processors outside the EEA add the SCCs and a TIA.",
            "Do not accept 'best endeavours' in an English-law contract without defining it.", "Check interaction with the limitation of liability clause.",
            "Market practice (2024 survey): 68% of SaaS deals had a mutual cap at 12 months' fees.")


def clause_entry(w: World, m: Matter, size: int, key: str = "", planted: str | None = None) -> str:
    rng = w.rng
    kind = DOC_KIND[m.kind]
    a, b = PARTIES[kind]
    params = contract_params(w, m)
    params["A"], params["B"] = a, b
    key = key or rng.choice(CLAUSE_KEYS)
    pool = [s for sec in KIND_SECTIONS.get(kind, {}).values() for s in sec] + [s for sec in GENERIC_SECTIONS.values() for s in sec]
    out = [f"Clause library - {key} (v{rng.randint(2, 7)}, owner {w.initials}, reviewed {w.day('iso', -300, -10)})", "", "MODEL CLAUSE"]
    total = 0
    k = 1
    while total < size * 0.6:
        line = f"{k}. " + rng.choice(pool).format(**params)
        out.append(line)
        total += len(line)
        k += 1
    out += ["", "GUIDANCE NOTES"] + [f"- {g}" for g in rng.sample(GUIDANCE, 4)]
    out += ["", "FALLBACK POSITIONS", f"1st: {rng.choice(GUIDANCE)}", f"2nd: {rng.choice(GUIDANCE)}", "Walk-away: escalate to the responsible partner."]
    while total < size:
        g = f"- Precedent used in matter {rng.choice(w.matters).number}: {rng.choice(GUIDANCE)}"
        out.append(g)
        total += len(g)
    if planted:
        out.insert(rng.randint(4, len(out) - 1), planted)
    return "\n".join(out)


PLAYBOOK_ISSUES = ("Liability cap", "Indirect loss", "Indemnities", "Governing law", "Term / renewal", "Audit rights", "Sub-processors",
                   "Confidentiality term", "Non-solicit", "Service credits", "Termination for convenience", "Assignment", "IP ownership", "Insurance")


def playbook_matrix(w: World, m: Matter, size: int, planted: str | None = None) -> str:
    rng = w.rng
    size = min(size, 6000)
    head = f"Negotiation matrix - {m.title} - their draft v{rng.randint(2, 8)} vs firm playbook\n\n| Issue | Their draft | Playbook preferred | Fallback | Status |\n|---|---|---|---|---|\n"

    def row() -> str:
        return (f"| {rng.choice(PLAYBOOK_ISSUES)} | cl. {rng.randint(2, 24)}.{rng.randint(1, 6)}: {rng.choice(('uncapped', 'mutual, 12m fees', 'one-way', 'silent', 'their law', 'auto-renew 3y', '5 days', 'unlimited'))} "
                f"| {rng.choice(('mutual, 12m fees', 'our law', 'excluded', 'on notice, annual', '30 days', 'capped'))} | {rng.choice(('150%', '24 months', 'partner call', 'accept with carve-out', 'n/a'))} "
                f"| {rng.choice(('open', 'agreed', 'parked', 'escalated', 'closed'))} |")
    return head + "\n".join(_rows(row, size - len(head), planted, rng))


CASE_PARTIES = ("Arnhem Logistics", "Teunissen Transport", "Baltic Marine", "Oakhurst Developments", "Van Leer Installatietechniek",
                "Harcourt Engineering", "Dunmore Retail", "Kessler Maschinenbau", "Société Lumière", "Verbruggen Food", "Castleton Ltd",
                "Eastwick Hotels", "De Hoop Zorg", "Meridian Software", "Polder Energie", "Rheinland Leasing", "Ashby & Cole")
HEADNOTES = ("An exclusion of 'loss of profits' did not cover the wasted expenditure claimed; exclusion clauses are construed against the party relying on them.",
             "The Haviltex standard applies: the meaning of a clause depends on what parties could reasonably expect from each other in the circumstances.",
             "A termination without a notice of default was valid because performance had become permanently impossible.",
             "A non-compete clause without written reasons in a fixed-term contract is void (art. 7:653 lid 2 BW).",
             "Service credits were not an exclusive remedy where the contract did not say so expressly.",
             "A processor that ignored the controller's instructions was itself regarded as controller for that processing (art. 28(10) GDPR).",
             "The brutal termination of an established commercial relationship required eighteen months' notice in the circumstances.",
             "A limitation clause in standard terms failed the reasonableness test given the inequality of bargaining power.",
             "A change of control clause did not apply to an intra-group reorganisation.",
             "The landlord's refusal to consent to an assignment was unreasonable where the assignee's covenant was stronger.",
             "A 'sole remedy' clause did not exclude the right to terminate for repudiatory breach.",
             "Non-material damage under art. 82 GDPR requires no threshold of seriousness, but the damage must be proven.",
             "The transitievergoeding is due even where the employee gave notice, if the employer acted seriously culpably.",
             "Late objection to a rent review determination barred the tenant's claim.")


def _citation(rng: random.Random, y: int) -> tuple[str, str]:
    pick = rng.randrange(6)
    if pick == 0:
        return f"ECLI:NL:HR:{y}:{rng.randint(100, 2200)}", "Hoge Raad"
    if pick == 1:
        return f"ECLI:NL:GHAMS:{y}:{rng.randint(100, 3900)}", "Gerechtshof Amsterdam"
    if pick == 2:
        return f"[{y}] EWCA Civ {rng.randint(10, 1900)}", "Court of Appeal (Civil Division)"
    if pick == 3:
        return f"[{y}] EWHC {rng.randint(100, 3400)} (Comm)", "High Court (Commercial Court)"
    if pick == 4:
        return f"BGH, Urteil vom {rng.randint(10, 28)}.{rng.randint(1, 12):02d}.{y} - {rng.choice(('VIII', 'VII', 'XII', 'I'))} ZR {rng.randint(10, 299)}/{str(y - 1)[2:]}", "Bundesgerichtshof"
    return f"Cass. com., {rng.randint(10, 28)} {rng.choice(MONTHS_FR)} {y}, n° {str(y - 1)[2:]}-{rng.randint(10, 99)}.{rng.randint(100, 999)}", "Cour de cassation"


def case_hits(w: World, m: Matter, size: int, query: str, planted: str | None = None) -> str:
    rng = w.rng
    k = 0

    def row() -> str:
        nonlocal k
        k += 1
        y = rng.randint(2009, 2024)
        cit, court = _citation(rng, y)
        a, b = rng.sample(CASE_PARTIES, 2)
        return (f"[{k}] {a} v {b}\n    {cit} - {court}\n    Headnote: {rng.choice(HEADNOTES)}\n"
                f"    Cited by: {rng.randint(0, 140)} | Treatment: {rng.choice(('followed', 'applied', 'distinguished', 'considered', 'neutral'))} | Relevance: 0.{rng.randint(41, 97)}")
    rows = _rows(row, size - 200, planted, rng)
    return f"Case law search: \"{query}\" - {rng.randint(40, 900)} results, showing top {len(rows)} (sources: rechtspraak.nl, BAILII, juris, Legifrance)\n\n" + "\n\n".join(rows)


JUDGMENT_PARAS = ("The starting point is the wording of the clause, read in the context of the agreement as a whole.",
                  "It is common ground that the parties were both commercial entities advised by lawyers when the agreement was concluded.",
                  "The appellant's argument would give the clause a width which the parties cannot reasonably have intended.",
                  "The court of first instance was right to consider the negotiating history, including the successive drafts exchanged.",
                  "There is no rule of law that an exclusion clause must be construed narrowly where its meaning is clear.",
                  "The question whether the breach was material is one of fact and degree.",
                  "In those circumstances the claim for damages for loss of profit must fail.",
                  "The appeal is accordingly dismissed with costs.")


def case_detail(w: World, m: Matter, size: int, planted: str | None = None) -> str:
    rng = w.rng
    y = rng.randint(2012, 2024)
    cit, court = _citation(rng, y)
    a, b = rng.sample(CASE_PARTIES, 2)
    head = f"{a} v {b}\n{cit}\n{court}, judgment of {w.day('en', -3000, -200)}\nJudges: {rng.choice(('Lord Briggs', 'Popplewell LJ', 'mr. De Groot', 'Vorsitzender Richter Dr. Koch'))} and others\n\nJUDGMENT\n"
    n = rng.randint(10, 40)

    def row() -> str:
        nonlocal n
        n += 1
        return f"[{n}] {rng.choice(JUDGMENT_PARAS)} {rng.choice(JUDGMENT_PARAS)}"
    return head + "\n\n".join(_rows(row, size - len(head), planted, rng))


DOCKET_EN = ("Claim Form (N1) issued", "Particulars of Claim served", "Acknowledgment of Service filed", "Defence filed", "Reply filed",
             "Directions Questionnaire (N181)", "Order for directions (CCMC)", "Application notice (N244) - extension of time", "Consent order sealed",
             "Costs budget (Precedent H)", "Notice of change of legal representative", "Disclosure Review Document", "Witness statement of {w}",
             "Letter to court re listing", "Notice of hearing")
DOCKET_NL = ("Dagvaarding ingediend", "Conclusie van antwoord genomen", "Akte overlegging producties", "Tussenvonnis: mondelinge behandeling gelast",
             "Rolbeslissing: uitstel verleend", "Opgave verhinderdata", "Proces-verbaal mondelinge behandeling", "Akte uitlating na comparitie",
             "Griffierecht voldaan", "Incidentele conclusie (zekerheidstelling)", "Brief aan griffie: verzoek aanhouding")
DOCKET_DE = ("Klageschrift eingegangen", "Verfügung: schriftliches Vorverfahren angeordnet", "Klageerwiderung eingegangen", "Replik",
             "Terminsverfügung: mündliche Verhandlung", "Schriftsatz des Beklagtenvertreters", "Beweisbeschluss", "Kostenrechnung Gerichtskasse")


def docket_sheet(w: World, m: Matter, size: int, planted: str | None = None) -> str:
    rng = w.rng
    style = m.extra.get("style", "nl")
    entries = {"en": DOCKET_EN, "nl": DOCKET_NL, "de": DOCKET_DE}[style]
    by = {"en": ("Claimant", "Defendant", "Court"), "nl": ("eiseres", "gedaagde", "rechtbank"), "de": ("Klägerin", "Beklagte", "Gericht")}[style]
    head = (f"{'CE-File' if style == 'en' else ('Mijn Rechtspraak' if style == 'nl' else 'beA / Gerichtsportal')} - docket\n"
            f"Case: {m.extra.get('case', m.number)}   Court: {m.extra.get('court', 'Rechtbank Amsterdam')}\n"
            f"Parties: {m.client[0]} v {m.cp}   Judge: {m.extra['judge']}   Status: open\n"
            f"{'No.':<5}{'Date':<12}{'Entry':<64}{'By':<12}Pages\n" + "-" * 100 + "\n")
    k = 0
    d = w.date(-200, -150)

    def row() -> str:
        nonlocal k, d
        k += 1
        d = d + dt.timedelta(days=rng.randint(1, 12))
        while d in w.reserved_dates:
            d = d + dt.timedelta(days=1)
        entry = rng.choice(entries).format(w=rng.choice(EMPLOYEES))
        return f"{k:<5}{d.isoformat():<12}{entry[:62]:<64}{rng.choice(by):<12}{rng.randint(1, 80)}"
    return head + "\n".join(_rows(row, size - len(head), planted, rng)) + f"\n\nLast synchronised {w.day('iso', -1, 0)} 06:00 UTC."


def cause_list(w: World, m: Matter, size: int, planted: str | None = None) -> str:
    rng = w.rng
    size = min(size, 4000)
    d = w.day("nl", 3, 20)
    head = f"Rolzitting / cause list - {m.extra.get('court', 'Rechtbank Amsterdam')} - {d}\n\n{'Time':<7}{'Case':<30}{'Parties':<52}Action\n"

    def row() -> str:
        a, b = rng.sample(CASE_PARTIES, 2)
        return (f"{rng.randint(9, 16):02d}:{rng.choice(('00', '15', '30', '45'))}  C/13/{_digits(rng, 6)} / HA ZA {rng.randint(23, 25)}-{rng.randint(100, 999)}  "
                f"{(a + ' / ' + b)[:50]:<52}{rng.choice(('cva', 'akte', 'vonnis', 'uitstel', 'conclusie van repliek', 'comparitie'))}")
    return head + "\n".join(_rows(row, size - len(head), planted, rng))


def efiling_log(w: World, m: Matter, size: int, planted: str | None = None) -> str:
    rng = w.rng
    size = min(size, 3500)
    head = f"E-filing and service log - {m.extra.get('case', m.number)}\n\n"

    def row() -> str:
        return (f"{w.day('iso', -90, 0)} {rng.randint(8, 18):02d}:{rng.randint(0, 59):02d}  {rng.choice(('SUBMITTED', 'ACCEPTED', 'SERVED', 'REJECTED', 'QUEUED'))}  "
                f"{rng.choice(('Productie', 'Exhibit', 'Akte', 'Witness statement', 'Skeleton argument', 'Bundle volume'))} {rng.randint(1, 40)}  "
                f"receipt {_hex(rng, 10)}  {rng.randint(1, 60)} pp")
    return head + "\n".join(_rows(row, size - len(head), planted, rng))


def calendar_list(w: World, size: int, planted: str | None = None) -> str:
    rng = w.rng
    size = min(size, 3800)
    start = w.date(0, 60)
    head = f"Calendar - {w.first} {w.last} - from {fmt_date(start, 'en')} (14 days)\n\n"

    def row() -> str:
        d = start + dt.timedelta(days=rng.randint(0, 13))
        while d.weekday() >= 5:
            d = d + dt.timedelta(days=1)
        m = rng.choice(w.matters)
        what = rng.choice((f"Call {m.client[2]} re {m.title}", f"Internal: {m.title} strategy", f"Hearing prep {m.short}", "Partner meeting",
                           f"Negotiation call {m.opp_name}", "Knowledge lunch: new case law", f"Deadline: {m.title} comments", "Billing run"))
        h, half = rng.randint(8, 16), rng.choice((0, 30))
        end = h * 60 + half + rng.choice((30, 60, 90, 120))
        return (f"{d.isoformat()} {fmt_date(d, 'short')}  {h:02d}:{half:02d}-{end // 60:02d}:{end % 60:02d}  {what}  "
                f"[{rng.choice(('Teams', 'office', 'phone', 'Zoom', 'client site'))}]")
    return head + "\n".join(sorted(_rows(row, size - len(head), None, rng))) + ("\n" + planted if planted else "")


def calendar_created(w: World, title: str, start: str, attendees: list[str]) -> str:
    rng = w.rng
    return json.dumps({"status": "created", "event_id": f"evt_{_hex(rng, 10)}", "calendar": f"{w.first.lower()}@{w.domain}", "title": title,
                       "start": start, "reminders": ["P1D", "PT2H"], "attendees": attendees, "visibility": "private"}, indent=2, ensure_ascii=False)


def draft_saved(w: World, to: str, subject: str, body: str, attachments: list[str] | None = None) -> str:
    rng = w.rng
    return json.dumps({"draft_id": f"drf_{_hex(rng, 12)}", "folder": "Drafts", "to": [to], "cc": [f"{w.associate.lower()}@{w.domain}"],
                       "subject": subject, "body_preview": body[:280], "attachments": attachments or [], "status": "saved, not sent"}, indent=2, ensure_ascii=False)


NARRATIVES = ("Review of draft {d} and comments to client", "Telephone call with {p}", "Drafting letter to opposing counsel", "Research: {t}",
              "Preparing productions for the hearing", "Revising SPA warranties", "Reviewing data room folder {n}", "Internal meeting re strategy",
              "Emails with {p} re next steps", "Drafting file note", "Reviewing tracked changes from {o}", "Preparing bundle index")


def wip_report(w: World, m: Matter, size: int, planted: str | None = None) -> str:
    rng = w.rng
    size = min(size, 5500)
    rate = rng.choice((225, 260, 295, 325, 350))
    head = f"WIP report - matter {m.number} ({m.title}) - unbilled time\n\n| Date | Fee earner | Hours | Rate | Value | Narrative |\n|---|---|---|---|---|---|\n"

    def row() -> str:
        h = rng.randint(1, 45) / 10
        return (f"| {w.day('iso', -60, 0)} | {rng.choice((w.initials, w.associate, w.paralegal))} | {h:.1f} | €{rate} | €{h * rate:,.2f} | "
                + rng.choice(NARRATIVES).format(d=rng.choice(m.docs)[1], p=m.client[2], t=rng.choice(("limitation periods", "penalty clauses", "GDPR transfers")),
                                                n=rng.randint(1, 10), o=m.opp_name) + " |")
    return head + "\n".join(_rows(row, size - len(head) - 100, planted, rng)) + f"\n\nTotal unbilled: {rng.randint(8, 140)}.{rng.randint(0, 9)} h; budget used {rng.randint(20, 115)}%."


def time_saved(w: World, matter: str, hours: float, narrative: str) -> str:
    rng = w.rng
    return f"Saved time entry TE-{_digits(rng, 6)}: matter {matter}, {w.day('iso', -1, 0)}, {hours:.1f} h, code {rng.choice(('A101', 'A102', 'A104', 'L120', 'L210'))}, \"{narrative}\" (status: draft, billable)"


def write_ok(w: World, path: str, content: str) -> str:
    return f"Wrote {len(content.encode())} bytes to {path} (DMS sync queued, profile: {w.rng.choice(('Letter', 'Memo', 'Agreement', 'Note'))})"


def edit_ok(w: World, path: str, old: str, new: str) -> str:
    line = w.rng.randint(4, 220)
    return f"Edited {path}: 1 replacement\n@@ -{line},1 +{line},1 @@\n-{old}\n+{new}"


# --- what the lawyer pastes: other people's words ------------------------------------------------


def paste_opp_email(w: World, m: Matter) -> str:
    rng = w.rng
    lang = m.opp[4]
    amt = w.amount(9_000, 480_000, 250)
    d = w.day("dot" if lang == "de" else "en", 5, 30)
    head = f"From: {m.opp_name} <{m.opp_email}>\nSent: {w.day('en', -3, 0)}\nSubject: {m.title} - {rng.choice(('our client', 'without prejudice', 'final notice', 'next steps'))}\n\n"
    if lang == "de":
        body = ["Sehr geehrte Frau Kollegin, sehr geehrter Herr Kollege,", "in obiger Angelegenheit zeigen wir an, dass wir die " + m.cp + " vertreten."] + \
               [s.format(amt=amt, d=d) for s in OPP_DEMANDS_DE] + ["Mit freundlichen kollegialen Grüßen", m.opp_name, "Rechtsanwältin" if m.opp[0] == "Hannah" else "Rechtsanwalt"]
    elif lang == "fr":
        body = ["Chère Consœur, cher Confrère,", f"Je reviens vers vous dans le dossier {m.title}."] + \
               [s.format(amt=amt) for s in OPP_DEMANDS_FR] + ["Bien confraternellement,", m.opp_name]
    elif lang == "nl":
        body = ["Geachte confrère,", f"Namens {m.cp} bericht ik u als volgt."] + [s.format(amt=amt) for s in rng.sample(OPP_DEMANDS_NL, 3)] + \
               [rng.choice(OPP_POSITIONS).format(n=rng.randint(5, 20)), "Met vriendelijke groet,", m.opp_name]
    else:
        picks = rng.sample(OPP_DEMANDS, 3)
        body = [f"Dear {w.last.split()[-1].title() if rng.random() < 0.5 else 'Colleague'},", rng.choice(OPP_POSITIONS).format(n=rng.randint(5, 20)),
                rng.choice(OPP_POSITIONS).format(n=rng.randint(5, 20))] + [p.format(amt=amt) for p in picks] + ["Yours sincerely,", m.opp_name, m.opp[2]]
    return head + "\n\n".join(body)


def paste_clauses(w: World, m: Matter) -> str:
    rng = w.rng
    kind = rng.choice(("licence", "msa", "distribution", "tcs", DOC_KIND[m.kind]))
    a, b = PARTIES[kind]
    params = contract_params(w, m)
    params["A"], params["B"] = a, b
    sec = rng.choice(list(KIND_SECTIONS[kind].items()))
    n = rng.randint(3, 19)
    lines = [f"{n}. {sec[0].upper()}"] + [f"{n}.{j} {s.format(**params)}" for j, s in enumerate(sec[1], start=1)]
    extra = rng.choice(list(GENERIC_SECTIONS.items()))
    lines += [f"{n + 1}. {extra[0].upper()}"] + [f"{n + 1}.{j} {s.format(**params)}" for j, s in enumerate(extra[1][:3], start=1)]
    return "\n".join(lines)


def paste_client_email(w: World, m: Matter) -> str:
    rng = w.rng
    wishes = rng.sample(CLIENT_WISHES, 3)
    lang = m.client[4]
    greet = {"nl": f"Hoi {w.first},", "de": f"Liebe Frau {w.last}," if w.first in ("Marieke", "Claire", "Sanne", "Ilse") else f"Lieber Herr {w.last},",
             "fr": f"Bonjour {w.first},", "it": f"Ciao {w.first},"}.get(lang, f"Hi {w.first},")
    body = [greet, f"Quick update on {m.title}."] + [x.format(cp=m.cp_short, amt=w.amount(10_000, 250_000, 5_000)) for x in wishes]
    if lang == "de":
        body.append("Bitte sorgen Sie dafür, dass wir bis Ende des Monats eine unterschriebene Fassung haben.")
    elif lang == "fr":
        body.append("Merci de me tenir informée avant tout envoi à la partie adverse.")
    elif lang == "it":
        body.append("Per favore mandami prima la bozza, devo farla vedere al consiglio.")
    body += ["Thanks!" if lang == "en" else "Groet / regards,", m.client[2], f"{m.client[3]}, {m.client[0]}"]
    return f"From: {m.client[2]}\nDate: {w.day('en', -2, 0)}\nSubject: {m.title}\n\n" + "\n\n".join(body)


def paste_whatsapp(w: World, m: Matter) -> str:
    rng = w.rng
    first = m.client[2].split()[0]
    lines = (f"they just called again, {m.cp_short} says we have to sign by friday", "can they do that??", "also their lawyer emailed me directly",
             "I did NOT reply", "we cannot lose this contract though", "pls call me after 4", "forwarding you the pdf now",
             f"our CFO says max {w.amount(10_000, 90_000, 1_000)} for this whole thing", "sorry for all the messages")
    h = rng.randint(8, 20)
    picked = rng.sample(lines, rng.randint(4, 7))
    minutes = sorted(rng.sample(range(60), len(picked)))
    return "\n".join(f"[{h:02d}:{mm:02d}] {first}: {x}" for mm, x in zip(minutes, picked))


def paste_registry(w: World, m: Matter) -> str:
    case = m.extra.get("case", m.number)
    return (f"Van: Griffie civiel - team handel\nOnderwerp: {case}\n\nGeachte mr. {w.last},\n\nDe griffie deelt u mee dat de mondelinge behandeling in "
            f"bovengenoemde zaak wordt verplaatst in verband met ziekte van de behandelend rechter. U ontvangt binnen twee weken een nieuwe oproeping. "
            f"Partijen dienen hun verhinderdata voor de periode {w.day('nl', 20, 40)} tot en met {w.day('nl', 60, 90)} binnen vijf werkdagen op te geven.\n\n"
            "Producties die al zijn ingediend hoeven niet opnieuw te worden ingediend.\n\nMet vriendelijke groet,\nGriffie civiel recht")


def paste_comments(w: World, m: Matter) -> str:
    rng = w.rng
    out = []
    for k in range(rng.randint(4, 8)):
        out.append(f"[{m.opp[0][0]}{m.opp[1][0]}{k + 1}] cl. {rng.randint(2, 24)}.{rng.randint(1, 6)}: " + rng.choice(REDLINE_COMMENTS).format(n=rng.randint(4, 20)))
    out.append(f"[{m.opp[0][0]}{m.opp[1][0]}{len(out) + 1}] General: our client must receive the signed version by {w.day('en', 4, 20)} or the pricing in the Order Form lapses.")
    return "\n".join(out)


def paste_order(w: World, m: Matter) -> str:
    return court_order(w, m, w.rng.randint(900, 1800))


def paste_regulator(w: World, m: Matter) -> str:
    return regulator_letter(w, m, w.rng.randint(1000, 1800))


def paste_tcs(w: World, m: Matter) -> str:
    text = contract(w, m, w.rng.randint(1200, 2200), kind="tcs")
    return text[text.index("IT IS AGREED"):].replace("IT IS AGREED as follows:", f"Algemene voorwaarden {m.cp} (gedeponeerd bij de KvK)")


PASTES: dict[str, Callable[[World, Matter], str]] = {
    "opp": paste_opp_email, "clauses": paste_clauses, "client": paste_client_email, "whatsapp": paste_whatsapp,
    "registry": paste_registry, "comments": paste_comments, "order": paste_order, "regulator": paste_regulator, "tcs": paste_tcs}


# --- the lawyer's own voice ---------------------------------------------------------------------

TYPOS = (("the ", "teh "), ("please", "pls"), ("with ", "wiht "), ("contract", "contarct"), ("received", "recieved"), ("their ", "thier "),
         ("because", "bc"), ("tomorrow", "tmrw"), ("agreement", "agreemnt"), ("thanks", "thx"), (" you ", " u "), ("about", "abt"),
         ("should", "shoud"), ("which", "whcih"), ("definitely", "definately"), ("before", "bfore"), ("meeting", "meeitng"))
OPENERS = ("", "", "", "ok ", "right, ", "morning - ", "quick one: ", "next: ", "also ", "sorry, another one: ", "when u have a sec: ")
TAILS = ("", "", "", " thx", " ta", " - no rush", " asap pls", " before 3 if possible", ", then I'm off to court", " (in a taxi, sorry for typos)")


def casual(rng: random.Random, text: str) -> str:
    """The lawyer's hurried register: an opener, a few typos, lower case, sometimes no full stop."""
    out = text
    for right, wrong in TYPOS:
        if right in out and rng.random() < 0.12:
            out = out.replace(right, wrong, 1)
    if rng.random() < 0.55:
        out = out[:1].lower() + out[1:]
    if rng.random() < 0.4:
        out = out.rstrip(".")
    return rng.choice(OPENERS) + out + rng.choice(TAILS)


# --- the conversation ---------------------------------------------------------------------------


@dataclass
class Step:
    """One tool call of a filler task: its arguments and a renderer of its output at a given size."""

    tool: str
    args: dict[str, Any]
    render: Callable[[int], str]
    note: str | None = None


@dataclass
class Task:
    user: str
    steps: list[Step]
    answer: Callable[[], str]
    pasted: list[str] = field(default_factory=list)


class Gen:
    """Builds one session: the world, the messages, the planted facts and what was pasted."""

    def __init__(self, rng: random.Random, n: int) -> None:
        self.rng = rng
        self.n = n
        self.w = World(rng)
        self.msgs: list[Message] = []
        self.facts: list[Fact] = []
        self.pasted: list[tuple[int, str]] = []
        self.chars = 0
        self.calls = 0
        self.unused = list(TOOLS)  # tools no call has used yet: filler leans towards them

    # messages
    def _add(self, message: Message) -> int:
        self.msgs.append(message)
        self.chars += len(text_of(message))
        return len(self.msgs) - 1

    def user(self, text: str, pasted: list[str] | tuple[str, ...] = ()) -> int:
        i = self._add({"role": "user", "content": text})
        for p in pasted:
            assert p in text
            self.pasted.append((i, p))
        return i

    def say(self, text: str) -> int:
        return self._add({"role": "assistant", "content": text})

    def call(self, calls: list[tuple[str, dict[str, Any]]], note: str | None = None) -> list[str]:
        ids = []
        tool_calls = []
        for tool, args in calls:
            if tool in self.unused:
                self.unused.remove(tool)
            self.calls += 1
            cid = f"call_{self.calls:05d}_{_hex(self.rng, 6)}"
            ids.append(cid)
            tool_calls.append({"id": cid, "type": "function", "function": {"name": tool, "arguments": json.dumps(args, ensure_ascii=False)}})
        self._add({"role": "assistant", "content": note, "tool_calls": tool_calls})
        return ids

    def result(self, cid: str, text: str) -> int:
        return self._add({"role": "tool", "tool_call_id": cid, "content": text})

    def step(self, tool: str, args: dict[str, Any], output: str | Callable[[int], str], note: str | None = None) -> int:
        (cid,) = self.call([(tool, args)], note if note is not None else self.note(tool))
        return self.result(cid, output if isinstance(output, str) else output(self.size()))

    def note(self, tool: str = "") -> str | None:
        """What the agent says as it calls a tool (often nothing)."""
        own = {"doc_search": ("Searching the DMS.", "Let me find it.", "Searching the workspace."),
               "doc_read": ("Pulling the document.", "Reading it now.", "Let me open it."),
               "redline_compare": ("Running the comparison.", "Comparing the versions."),
               "clause_library": ("Checking our clause library.", "Looking up the model clause."),
               "case_law_search": ("Searching case law.", "Let me look for authorities."),
               "docket_lookup": ("Checking the docket.", "Looking at the court portal."),
               "calendar": ("Checking the calendar.", "Updating the calendar."),
               "email_draft": ("Drafting the email.", "Preparing a draft."),
               "time_entry": ("Recording the time.", "Checking the time records."),
               "write_file": ("Writing the file.", "Drafting it now."),
               "edit_file": ("Making the change.", "Editing the file.")}.get(tool, ())
        return self.rng.choice((None, None, "On it.", "One moment.", "Checking.") + own)

    def size(self, base: int | None = None) -> int:
        """How long the next tool output should be so the session ends near CHARS_PER_MESSAGE a message."""
        expected = CHARS_PER_MESSAGE * (len(self.msgs) + 1)
        base = base if base is not None else self.rng.randint(2200, 5600)
        return int(max(500, min(24_000, base + 0.5 * (expected - self.chars))))

    # the lawyer's matters
    def m(self, *kinds: str) -> Matter:
        return self.w.matter(*kinds)

    def system(self) -> None:
        w = self.w
        matters = "\n".join(f"- {m.number}: {m.title} (client {m.client[0]}; other side {m.cp}, counsel {m.opp_name}, {m.opp[2]})" for m in w.matters)
        self._add({"role": "system", "content": (
            f"You are the legal assistant agent of {w.firm}, a small cross-border commercial law practice in Amsterdam. You work for "
            f"{w.first} {w.last} (advocaat, partner), with {w.associate} (associate) and {w.paralegal} (paralegal).\n\n"
            "You can search and read the firm's document management system and the virtual data rooms the firm has access to "
            "(doc_search, doc_read), compare document versions (redline_compare), look up the firm's clause library and negotiation "
            "playbooks (clause_library), search case law (case_law_search) and court dockets (docket_lookup), manage the calendar "
            "(calendar), prepare e-mail drafts (email_draft - drafts are never sent automatically), record time (time_entry) and write "
            "or edit files in the matter folders (write_file, edit_file).\n\n"
            "Professional rules: everything you see is confidential and privileged. Never contact the other side or a court yourself. "
            "Say so when you are unsure of a legal point; cite clause numbers and sources. Keep drafts in the matter folder "
            "matters/<matter number>/. Dutch, English, German, French and Italian documents are common; answer in the language the "
            f"lawyer writes in unless asked otherwise.\n\nOpen matters:\n{matters}\n\nToday is {fmt_date(dt.date(2025, 2, 3))}.")})


LETTER_PARAS = (
    "We refer to your letter of {d} and to the telephone conversation between our offices.",
    "Our client does not accept your client's account of events. In particular, the notice of {d2} was served in accordance with clause {n} of the Agreement.",
    "Without prejudice to our client's position that it has no liability, and to avoid the costs of litigation, our client is prepared to discuss a commercial solution.",
    "We note that your client has not responded to our request for the documents listed in our letter of {d2}. Please provide them within fourteen days.",
    "Our client reserves all its rights, including the right to claim statutory interest and the extrajudicial collection costs.",
    "We would welcome a meeting between the parties and their advisers in the week of {d3}.",
    "Our client has complied fully with its obligations under the Agreement; the alleged shortcomings are disputed in their entirety.",
    "For the avoidance of doubt, nothing in this letter constitutes an admission of liability.",
    "The deadline your client has set is unreasonable given the volume of documents involved; our client will respond substantively by {d3}.",
    "We have advised our client to preserve all relevant documents and expect your client to do the same.",
)
MEMO_PARAS = {
    "Question": ("Whether {c} can terminate the agreement with {cp} before the end of the current term without paying compensation.",
                 "What the risks are of the position taken by {cp} in its latest correspondence.", "Which deadlines apply and what must be done before them."),
    "Short answer": ("Probably yes, provided the notice requirements are observed; the risk lies in the reasonableness test.",
                     "The position of {cp} is arguable but weak on the documents we have seen.", "See the timetable in section 5; the first deadline is close."),
    "Facts": ("The agreement was signed in {y} and renewed automatically twice.", "Service levels were missed in three of the last six months.",
              "{cp}'s counsel sent a notice of default on {d}.", "The client has withheld payment of two invoices since {d}."),
    "Analysis": ("Under clause {n} the parties agreed a notice period, which in our view is a minimum and not a fixed term.",
                 "The exclusion of indirect loss does not cover the wasted expenditure the client claims.",
                 "Case law on service credits suggests they are not an exclusive remedy unless the contract says so expressly.",
                 "A court will look at what the parties could reasonably expect of each other (Haviltex), including the negotiating history.",
                 "The limitation clause is likely to be upheld between commercial parties of comparable size."),
    "Recommendation": ("Send a measured response reserving rights and propose a without prejudice meeting.", "Collect the SLA reports for the last twelve months before taking a position.",
                       "Diary the deadlines and instruct an expert only if settlement talks fail."),
}
ANSWER_OPENERS = ("Done.", "Here's what I found.", "Short version:", "Checked.", "Two points stand out.", "OK -", "Summary below.", "Right:",
                  "Looked at it.", "Here you go.")
ANSWER_CLOSERS = ("Want me to turn this into a draft?", "Shall I log the time for this?", "I can put this in a file note if useful.",
                  "Let me know if you want a fuller analysis.", "Nothing has been sent - the draft is waiting for your review.", "",
                  "Anything else on this matter?", "I'd suggest we raise this on the next call.")


def answer(g: Gen, lines: list[str], bullets: bool = True) -> str:
    rng = g.rng
    body = "\n".join(f"- {x}" for x in lines) if bullets else " ".join(lines)
    return f"{rng.choice(ANSWER_OPENERS)}\n\n{body}\n\n{rng.choice(ANSWER_CLOSERS)}".strip()


def letter_text(g: Gen, m: Matter) -> str:
    w, rng = g.w, g.rng
    paras = rng.sample(LETTER_PARAS, rng.randint(5, 9))
    fmt = {"d": w.day("en", -20, -1), "d2": w.day("en", -90, -20), "d3": w.day("en", 7, 30), "n": rng.randint(5, 22)}
    return (f"{w.firm}\n{w.day('en', -1, 0)}\n\n{m.opp_name}\n{m.opp[2]}\nBy email: {m.opp_email}\n\nOur ref: {m.number}/{w.initials}\n"
            f"Re: {m.title}\n\nDear {m.opp[0]},\n\n" + "\n\n".join(p.format(**fmt) for p in paras) + f"\n\nYours sincerely,\n\n{w.first} {w.last}\n{w.firm}")


def memo_text(g: Gen, m: Matter, topic: str) -> str:
    w, rng = g.w, g.rng
    fmt = {"c": m.short, "cp": m.cp_short, "y": rng.randint(2017, 2023), "d": w.day("en", -90, -5), "n": rng.randint(4, 22)}
    parts = [f"MEMO - {topic}\nMatter: {m.number} ({m.title})\nFrom: {w.initials}   Date: {w.day('en', -1, 0)}   Privileged & confidential"]
    for k, (title, pool) in enumerate(MEMO_PARAS.items(), start=1):
        parts.append(f"{k}. {title}\n" + " ".join(p.format(**fmt) for p in rng.sample(pool, min(len(pool), rng.randint(2, 4)))))
    return "\n\n".join(parts)


def _path(g: Gen, m: Matter, folder: str, stem: str, ext: str) -> str:
    w, rng = g.w, g.rng
    return w.fresh(lambda: f"matters/{m.number}/{folder}/{w.day('iso', -10, 0)}_{stem}_v{rng.randint(1, 6)}.{ext}")


TOPICS = ("limitation of liability", "termination for convenience", "change of control", "service credits", "non-compete", "sub-processors",
          "indexation of the rent", "warranty claims", "exclusivity", "audit rights", "penalty clauses", "notice of default", "set-off",
          "retention of title", "goodwill indemnity", "transfer of undertaking")
CASE_QUERIES = ("exclusion clause loss of profits", "service credits exclusive remedy", "non-compete fixed-term contract written reasons",
                "brutal termination established commercial relationship notice", "processor liability art. 82 GDPR", "rent review objection late",
                "sole remedy clause repudiatory breach", "change of control intra-group", "Haviltex interpretation commercial contract",
                "transitievergoeding ernstig verwijtbaar")


def t_redline_template(g: Gen) -> Task:
    m, w, rng = g.m("saas", "nda", "licence", "distribution", "dpa"), g.w, g.rng
    n = rng.randint(5, 18)
    key = rng.choice(CLAUSE_KEYS)
    user = rng.choice((f"redline clause {n} of the {m.cp_short} draft against our template pls",
                       f"can you run their cl. {n} against our model clause? I think they've watered down the {rng.choice(TOPICS)}",
                       f"{m.short}: compare {m.cp_short}'s clause {n} with the library version and tell me what moved"))
    return Task(casual(rng, user), [
        Step("clause_library", {"key": key, "jurisdiction": rng.choice(("NL", "EN", "DE"))}, lambda s: clause_entry(w, m, s, key)),
        Step("redline_compare", {"base": f"clause_library:{key}", "compare": f"{m.docs[0][0]}#cl{n}"},
             lambda s: redline_diff(w, m, s, older=f"library {key}", newer=f"{m.docs[0][1]} cl. {n}"))],
        lambda: answer(g, [f"Clause {n} departs from our model in {rng.randint(2, 6)} places; the main one is the {rng.choice(TOPICS)} wording.",
                           f"Their version drops the carve-out we normally keep for {rng.choice(('confidentiality', 'data breaches', 'IP infringement', 'fraud'))}.",
                           f"Fallback in the library: {rng.choice(GUIDANCE)}"]))


def t_reply_paste(g: Gen) -> Task:
    m, w, rng = g.m("litigation", "saas", "employment", "lease", "distribution", "licence"), g.w, g.rng
    paste = paste_opp_email(w, m)
    ask = rng.choice((f"see below from {m.opp[0]}, pls draft a reply. firm but polite", f"{m.opp[1]} again. draft a holding reply pls, we need a week",
                      "got this overnight - thoughts? and a short reply draft", f"pls draft something back to {m.opp_name}, no concessions"))
    tail = rng.choice(("", "\n\nkeep it short", "\n\ndon't mention the invoices", "\n\ncc the client on the draft, not on the sent version"))
    body = letter_text(g, m)
    return Task(casual(rng, ask) + "\n\n" + paste + tail, [
        Step("doc_read", {"doc_id": rng.choice(m.docs)[0], "section": "correspondence"}, lambda s: email_thread(w, m, s)),
        Step("email_draft", {"to": m.opp_email, "subject": f"RE: {m.title}", "body": body}, lambda s: draft_saved(w, m.opp_email, f"RE: {m.title}", body))],
        lambda: answer(g, [f"{m.opp[1]}'s deadline is a negotiating tactic; nothing in the contract obliges your client to answer within that period.",
                           "The draft rejects the demand, reserves rights and proposes a without prejudice call.",
                           "I left out any reference to the amount they claim."]), [paste])


def t_whats_changed(g: Gen) -> Task:
    m, w, rng = g.m(), g.w, g.rng
    doc = rng.choice(m.docs)
    user = rng.choice((f"pull the latest {doc[1]} and tell me what changed since v{doc[2]}", f"what did they change in {doc[1]}? compare with our last version",
                       f"new version of the {m.cp_short} doc came in - diff against ours pls"))
    return Task(casual(rng, user), [
        Step("doc_search", {"query": doc[1].rsplit(".", 1)[0], "matter": m.number}, lambda s: dms_listing(w, m, s, doc[1])),
        Step("redline_compare", {"base": f"{doc[0]}@v{doc[2]}", "compare": f"{doc[0]}@latest"}, lambda s: redline_diff(w, m, s))],
        lambda: answer(g, ["Most changes are drafting, but three are substantive.", f"They widened the {rng.choice(TOPICS)} clause in their favour.",
                           f"A new comment from {m.opp[0]} asks for a call on the {rng.choice(TOPICS)} point."]))


def t_docket(g: Gen) -> Task:
    m, w, rng = g.m("litigation", "employment"), g.w, g.rng
    case = m.extra.get("case", m.number)
    user = rng.choice((f"anything new on the docket in {case}?", f"check the rol for {m.short} v {m.cp_short} pls", f"docket check {m.short} - did they file anything?",
                       f"Kun je even kijken of er iets nieuws op de rol staat in {m.short}?"))
    return Task(casual(rng, user), [Step("docket_lookup", {"case": case, "court": m.extra.get("court", "")}, lambda s: docket_sheet(w, m, s))],
                lambda: answer(g, [f"Latest entry is from {w.day('en', -10, 0)}: {rng.choice(DOCKET_NL + DOCKET_EN)}.",
                                   "No new deadline for us; the next step is on their side.", "I'll keep watching it."]))


def t_case_law(g: Gen) -> Task:
    m, w, rng = g.m(), g.w, g.rng
    q = rng.choice(CASE_QUERIES)
    user = rng.choice((f"find me 2-3 recent cases on {q}", f"any case law on {q}? ideally Dutch, English is ok", f"research pls: {q}. just the best 3 with cites",
                       f"Hast du Rechtsprechung zu {q}? Gern auch BGH."))
    return Task(casual(rng, user), [Step("case_law_search", {"query": q, "since": rng.choice((2010, 2015, 2018))}, lambda s: case_hits(w, m, s, q)),
                                    Step("case_law_search", {"id": f"top-{rng.randint(1, 3)}", "full_text": True}, lambda s: case_detail(w, m, s))],
                lambda: answer(g, ["The first hit is the closest on the facts; the headnote is a fair summary.", "The second is distinguishable - it turned on standard terms.",
                                   f"I'd cite the most recent one first; it has been followed {rng.randint(2, 30)} times."]))


def t_log_time(g: Gen) -> Task:
    m, w, rng = g.m(), g.w, g.rng
    h = rng.choice((0.2, 0.3, 0.5, 0.8, 1.0, 1.2, 1.5, 2.0, 2.5, 3.1))
    narr = rng.choice(NARRATIVES).format(d=rng.choice(m.docs)[1], p=m.client[2], t=rng.choice(TOPICS), n=rng.randint(1, 10), o=m.opp_name)
    user = rng.choice((f"log {h}h on {m.number}: {narr.lower()}", f"time: {h} on {m.short}, {narr.lower()}", f"pls book {h} hrs to {m.title} - {narr.lower()}"))
    return Task(casual(rng, user), [Step("time_entry", {"action": "create", "matter": m.number, "hours": h, "narrative": narr}, lambda s: time_saved(w, m.number, h, narr)),
                                    Step("time_entry", {"action": "list", "matter": m.number, "period": "this_month"}, lambda s: wip_report(w, m, s))],
                lambda: answer(g, [f"Logged {h} h on {m.number} ({m.title}).", f"Month to date on this matter: {rng.randint(3, 60)}.{rng.randint(0, 9)} h."]))


def t_calendar_add(g: Gen) -> Task:
    m, w, rng = g.m(), g.w, g.rng
    d = w.date(5, 90)
    what = rng.choice((f"call with {m.client[2]}", f"negotiation call with {m.opp_name}", f"{m.short} board call", f"site visit {m.extra['addr']}", f"meeting at {m.opp[2]}"))
    user = rng.choice((f"put the {what} in the calendar for {fmt_date(d, 'short')}, {rng.randint(9, 16)}:00, and block 1h prep before",
                       f"diary: {what}, {fmt_date(d)}, afternoon", f"can u add {what} on {fmt_date(d, 'short')} pls, 45 min"))
    title = what[0].upper() + what[1:]
    return Task(casual(rng, user), [Step("calendar", {"action": "create", "title": title, "date": d.isoformat(), "duration_min": rng.choice((45, 60, 90))},
                                         lambda s: calendar_created(w, title, f"{d.isoformat()}T{rng.randint(9, 16):02d}:00", [m.client[2]])),
                                    Step("calendar", {"action": "list", "from": d.isoformat(), "days": 7}, lambda s: calendar_list(w, s))],
                lambda: answer(g, [f"{title} is in for {fmt_date(d, 'short')} with a reminder the day before.", "Prep block added before it; no clashes that week."]))


def t_clause_question(g: Gen) -> Task:
    m, w, rng = g.m(), g.w, g.rng
    topic = rng.choice(TOPICS)
    notes: list[str] = []
    user = rng.choice((f"what does the {m.cp_short} contract say about {topic}? clause refs pls", f"{m.short}: is there anything on {topic} in the agreement?",
                       f"quick check of the {DOC_KIND[m.kind].upper()} for {topic}", f"Wat zegt het contract met {m.cp_short} over {topic}?"))
    return Task(casual(rng, user), [Step("doc_read", {"doc_id": m.docs[0][0], "matter": m.number}, lambda s: contract(w, m, s, notes=notes))],
                lambda: answer(g, (notes[:3] or ["The contract is silent on this point."]) + [f"Nothing specific on {topic}; the general clauses would apply."]))


def t_vdr_search(g: Gen) -> Task:
    m, w, rng = g.m("ma"), g.w, g.rng
    topic = rng.choice(("change of control", "exclusivity", "non-compete", "guarantees", "pledges", "pending claims", "works council", "open source"))
    user = rng.choice((f"search the data room for anything on {topic}", f"VDR: what's in there on {topic}? only new docs", f"Project {m.extra['code']}: {topic} - anything in the data room?"))
    return Task(casual(rng, user), [Step("doc_search", {"source": f"vdr:{m.extra['code'].lower()}", "query": topic}, lambda s: fulltext_hits(w, m, s, topic)),
                                    Step("doc_search", {"source": f"vdr:{m.extra['code'].lower()}", "index": True}, lambda s: dataroom_index(w, m, s))],
                lambda: answer(g, [f"{rng.randint(2, 9)} documents mention {topic}; two are new since last week.", "The framework agreements in folder 3.1 are the ones to read.",
                                   "I'll add anything material to the DD report."]))


def t_memo(g: Gen) -> Task:
    m, w, rng = g.m(), g.w, g.rng
    topic = rng.choice(TOPICS)
    path = _path(g, m, "memos", f"memo_{topic.replace(' ', '_')}", "md")
    text = memo_text(g, m, topic)
    user = rng.choice((f"write a short memo for the file on {topic}, 1 page max", f"memo to file pls: {topic} in {m.short}", f"can you put your {topic} analysis in a memo and save it"))
    return Task(casual(rng, user), [Step("write_file", {"path": path, "content": text}, lambda s: write_ok(w, path, text))],
                lambda: answer(g, [f"Saved as {path}.", "Structure: question, short answer, facts, analysis, recommendation."]))


def t_fix_typo(g: Gen) -> Task:
    m, w, rng = g.m(), g.w, g.rng
    a, b = PARTIES[DOC_KIND[m.kind]]
    n = rng.randint(2, 20)
    path = _path(g, m, "drafts", m.docs[0][1].rsplit(".", 1)[0], "docx")
    user = rng.choice((f"fix the typo in {n}.2 of our draft - it says {b} where it should say {a}", f"in our markup cl. {n}: '{a}' should be '{b}', pls fix",
                       f"small one: clause {n} cross-refers to the wrong clause in our draft, fix pls"))
    old, new = f"{n}.2 The {b} shall", f"{n}.2 The {a} shall"
    return Task(casual(rng, user), [Step("edit_file", {"path": path, "old": old, "new": new}, lambda s: edit_ok(w, path, old, new))],
                lambda: answer(g, [f"Fixed in {path}.", "I checked the rest of the clause - no other party-name mix-ups."]))


def t_client_paste(g: Gen) -> Task:
    m, w, rng = g.m(), g.w, g.rng
    paste = paste_client_email(w, m)
    notes: list[str] = []
    ask = rng.choice(("client's email below. what do they actually want and can we do it?", f"{m.client[2].split()[0]} again, see below. pls advise",
                      "Mail van de cliënt hieronder. Kun je kijken wat haalbaar is?", "below from the client - can we give them this?"))
    return Task(casual(rng, ask) + "\n\n" + paste, [Step("doc_read", {"doc_id": m.docs[0][0]}, lambda s: contract(w, m, s, notes=notes))],
                lambda: answer(g, ["What they want, in short: a quick outcome, limited cost, and the relationship kept intact."] + notes[:2] +
                               ["Part of it is achievable; the longer restriction is not enforceable as drafted."]), [paste])


def t_order_paste(g: Gen) -> Task:
    m, w, rng = g.m("litigation"), g.w, g.rng
    paste = paste_order(w, m)
    d1, d2 = w.date(10, 60), w.date(60, 120)
    ask = rng.choice(("this came in from the court today. put the deadlines in the calendar pls", "order below. diary everything + 1 week warning each",
                      "court order, just in. what do we have to do and when?"))
    return Task(casual(rng, ask) + "\n\n" + paste, [
        Step("calendar", {"action": "create", "title": f"{m.short}: deadline (order)", "date": d1.isoformat()}, lambda s: calendar_created(w, f"{m.short}: deadline (order)", d1.isoformat(), [w.associate])),
        Step("calendar", {"action": "create", "title": f"{m.short}: deadline 2 (order)", "date": d2.isoformat()}, lambda s: calendar_created(w, f"{m.short}: deadline 2 (order)", d2.isoformat(), [w.associate]))],
        lambda: answer(g, [f"Diarised {fmt_date(d1)} and {fmt_date(d2)}, each with a warning a week before.", "The order also asks for dates of unavailability - I'd send those this week."]), [paste])


def t_regulator_paste(g: Gen) -> Task:
    m, w, rng = g.m("dpa"), g.w, g.rng
    paste = paste_regulator(w, m)
    ask = rng.choice(("AP letter below (scanned, sorry for the formatting). what's our exposure and what do we need to send?",
                      "letter from the AP for the client. how bad is this?", "Brief van de AP hieronder - wat moeten we aanleveren en wanneer?"))
    return Task(casual(rng, ask) + "\n\n" + paste, [Step("doc_read", {"source": "legislation", "refs": ["GDPR art. 28", "GDPR art. 30", "GDPR art. 58"]}, lambda s: statute_excerpt(w, m, s))],
                lambda: answer(g, ["This is an information request, not an investigation decision - but a late answer can lead to an order subject to a penalty.",
                                   "We need the records of processing, the processor agreements and, if there is one, the DPIA.", "I'd ask for a two-week extension now rather than later."]), [paste])


def t_tcs_paste(g: Gen) -> Task:
    m, w, rng = g.m(), g.w, g.rng
    paste = paste_tcs(w, m)
    ask = rng.choice(("their T&Cs, anything nasty in there?", "pls scan these terms for anything unusual", "supplier terms below - can the client live with them?"))
    return Task(casual(rng, ask) + "\n\n" + paste, [Step("clause_library", {"key": "tcs.checklist", "jurisdiction": "NL"}, lambda s: clause_entry(w, m, s, "tcs.checklist"))],
                lambda: answer(g, ["The complaint period is short and the rights lapse - that's the main trap.", "The collection costs clause (15%) would not survive against a consumer, but between businesses it usually does.",
                                   "Retention of title is standard."]), [paste])


def t_dd_coc(g: Gen) -> Task:
    m, w, rng = g.m("ma"), g.w, g.rng
    notes: list[str] = []
    user = rng.choice(("DD: go through the customer contracts in folder 3.1 and list the change of control clauses", "which customer contracts have CoC termination rights? folder 3.1",
                       f"Project {m.extra['code']} - check the top customer contracts for change of control pls"))
    return Task(casual(rng, user), [Step("doc_search", {"source": f"vdr:{m.extra['code'].lower()}", "folder": "3.1"}, lambda s: dataroom_index(w, m, s)),
                                    Step("doc_read", {"source": f"vdr:{m.extra['code'].lower()}", "doc": f"3.1.{rng.randint(1, 20)}"}, lambda s: contract(w, m, s, kind="msa", notes=notes))],
                lambda: answer(g, ["Read the first batch; change of control language is in the assignment clauses, not in termination."] + notes[:2] + ["I'll continue with the rest of the folder."]))


def t_wip(g: Gen) -> Task:
    m, w, rng = g.m(), g.w, g.rng
    user = rng.choice((f"WIP on {m.number}? client wants an estimate for the next phase", f"how much unbilled time on {m.short}?", f"billing: where are we on {m.title}"))
    return Task(casual(rng, user), [Step("time_entry", {"action": "list", "matter": m.number, "unbilled": True}, lambda s: wip_report(w, m, s))],
                lambda: answer(g, [f"Unbilled: about {rng.randint(5, 80)} hours.", f"Estimate for the next phase: {w.amount(4_000, 40_000, 500)} - {w.amount(40_000, 90_000, 500)} excl. VAT, depending on whether it goes to a hearing."]))


def t_conflict(g: Gen) -> Task:
    m, w, rng = g.m(), g.w, g.rng
    party = rng.choice(COUNTERPARTIES + tuple(c[0] for c in CLIENTS))
    user = rng.choice((f"conflict check on {party} pls, new enquiry", f"can u run conflicts for {party}? they want us for a lease dispute", f"conflicts: {party} + directors"))
    return Task(casual(rng, user), [Step("doc_search", {"source": "conflicts", "query": party}, lambda s: conflict_check(w, m, s, party))],
                lambda: answer(g, ["Hits are mostly name matches on closed files.", "One needs a partner look because we acted against a group company."]))


def t_nda_playbook(g: Gen) -> Task:
    m, w, rng = g.m("nda"), g.w, g.rng
    notes: list[str] = []
    user = rng.choice((f"compare the {m.cp_short} NDA with our playbook, just the deviations", "NDA came in - deviations from the playbook only pls", f"check {m.cp_short}'s NDA against the playbook"))
    return Task(casual(rng, user), [Step("doc_read", {"doc_id": m.docs[0][0]}, lambda s: contract(w, m, s, kind="nda", notes=notes)),
                                    Step("clause_library", {"key": "playbook.nda", "compare_with": m.docs[0][0]}, lambda s: playbook_matrix(w, m, s))],
                lambda: answer(g, notes[:2] + ["Main deviations: the penalty clause, the non-solicit and the residuals wording."]))


def _speaking(g: Gen, lang: str, opp: bool = False) -> Matter:
    """A matter whose client (or opposing counsel) writes in ``lang``, if there is one."""
    pool = [m for m in g.w.matters if (m.opp[4] if opp else m.client[4]) == lang]
    return g.rng.choice(pool) if pool else g.m()


def t_german_client(g: Gen) -> Task:
    m, w, rng = _speaking(g, "de"), g.w, g.rng
    body = (f"Sehr geehrte{'r Herr' if m.client[2].split()[0] in ('Lukas', 'Joris', 'Owen', 'Erik', 'Julien') else ' Frau'} {m.client[2].split()[-1]},\n\n"
            f"vielen Dank für Ihre Nachricht. Wir haben den Entwurf von {m.cp_short} geprüft. Aus unserer Sicht sind vor allem die Haftungsbegrenzung und die Kündigungsfristen "
            "nachzuverhandeln. Wir schlagen vor, dies in einem kurzen Telefonat zu besprechen.\n\nMit freundlichen Grüßen\n" + f"{w.first} {w.last}")
    to = f"{m.client[2].split()[0].lower()}@{m.client[1].lower()}.com"
    user = rng.choice(("bitte eine kurze Antwort an den Mandanten auf Deutsch entwerfen, Haftung + Kündigung ansprechen", "draft a reply to the client in German pls, short",
                       f"Antwortentwurf an {m.client[2]} bitte, auf Deutsch"))
    return Task(casual(rng, user), [Step("email_draft", {"to": to, "subject": f"{m.title}", "body": body, "language": "de"}, lambda s: draft_saved(w, to, m.title, body))],
                lambda: f"Entwurf an {m.client[2]} liegt in den Drafts. Ich habe Haftung und Kündigungsfristen im {m.cp_short}-Entwurf angesprochen und ein Telefonat vorgeschlagen.")


def t_cap_table(g: Gen) -> Task:
    m, w, rng = g.m("ma"), g.w, g.rng
    user = rng.choice(("check the cap table in the data room against schedule 1 of the SPA", "shareholders' register vs SPA schedule 1 - any mismatch?", "does the share register add up?"))
    return Task(casual(rng, user), [Step("doc_read", {"source": f"vdr:{m.extra['code'].lower()}", "doc": "1.2"}, lambda s: cap_table(w, m, s))],
                lambda: answer(g, ["The register does not reflect the 2019 issue - the SPA schedule does.", "Numbering of the B shares has a gap; we should ask in the Q&A."]))


def t_chronology(g: Gen) -> Task:
    m, w, rng = g.m("employment", "litigation"), g.w, g.rng
    path = _path(g, m, "litigation", "chronology", "csv")
    rows = "\n".join(f"{w.day('iso', -400, -5)};{rng.choice(('email', 'letter', 'meeting', 'call', 'warning'))};{rng.choice(NARRATIVES).format(d='draft', p=m.client[2], t='facts', n=1, o=m.opp_name)}" for _ in range(rng.randint(12, 30)))
    text = "date;type;event\n" + rows
    user = rng.choice((f"prepare a chronology for the {m.title} dispute from the emails", "chronology pls, from the correspondence, as csv", f"can u build a timeline of {m.short} from the DMS?"))
    return Task(casual(rng, user), [Step("doc_search", {"matter": m.number, "type": "email"}, lambda s: dms_listing(w, m, s, "type:email")),
                                    Step("write_file", {"path": path, "content": text}, lambda s: write_ok(w, path, text))],
                lambda: answer(g, [f"Chronology saved as {path} ({text.count(chr(10))} entries).", "Two emails are undated drafts - left them out."]))


def t_update_dd(g: Gen) -> Task:
    m, w, rng = g.m("ma"), g.w, g.rng
    path = _path(g, m, "dd", "DD_report_legal", "docx")
    old = f"5.{rng.randint(1, 9)} Real estate: no issues identified."
    new = old.replace("no issues identified.", "the warehouse lease expires within 14 months without a renewal option (see VDR 5.2).")
    user = rng.choice(("update the DD report with the lease findings", "put the warehouse lease point in the DD report, section 5", "DD report: real estate section needs the lease issue"))
    return Task(casual(rng, user), [Step("edit_file", {"path": path, "old": old, "new": new}, lambda s: edit_ok(w, path, old, new))],
                lambda: answer(g, [f"Section 5 of {path} now flags the lease expiry.", "Risk rating: medium; recommendation: price adjustment or specific indemnity."]))


def t_ocr_lease(g: Gen) -> Task:
    m, w, rng = g.m("lease"), g.w, g.rng
    user = rng.choice(("pls check the old lease for the rent clause, landlord's agent says it's indexed annually", "what does the 1990s lease say on the bank guarantee?",
                       "kun je in de oude huurovereenkomst kijken naar de huurprijs en indexatie?"))
    return Task(casual(rng, user), [Step("doc_read", {"doc_id": m.docs[0][0], "ocr": True}, lambda s: ocr_pdf(w, m, s))],
                lambda: answer(g, ["The OCR is rough but readable: indexation is annual on 1 January under the general provisions.", "The bank guarantee amount is in article 5; some digits are unclear in the scan."]))


def t_calendar_check(g: Gen) -> Task:
    m, w, rng = g.m(), g.w, g.rng
    user = rng.choice((f"what's on my calendar next week? need to fit a 1h call with {m.client[2]}", "am I free thursday afternoon?", "calendar for the next 2 weeks pls"))
    return Task(casual(rng, user), [Step("calendar", {"action": "list", "days": 14}, lambda s: calendar_list(w, s))],
                lambda: answer(g, [f"Best free slot: {w.day('short', 3, 12)} 14:00-15:00.", "The week after is fuller; the partner meeting can't move."]))


def t_rol(g: Gen) -> Task:
    m, w, rng = g.m("litigation"), g.w, g.rng
    user = rng.choice(("look up the rol for next week", "which cases are on the rolzitting next week? is ours there?", "cause list for next week pls"))
    return Task(casual(rng, user), [Step("docket_lookup", {"court": m.extra.get("court", ""), "cause_list": True, "week": "next"}, lambda s: cause_list(w, m, s))],
                lambda: answer(g, [f"Our case ({m.extra.get('case', m.number)}) is not on next week's list.", "Nothing for us to file before then."]))


def t_efiling(g: Gen) -> Task:
    m, w, rng = g.m("litigation"), g.w, g.rng
    user = rng.choice(("did the productions get through? check the e-filing log", "e-filing status pls", "check the service log - was everything served?"))
    return Task(casual(rng, user), [Step("docket_lookup", {"case": m.extra.get("case", m.number), "log": "efiling"}, lambda s: efiling_log(w, m, s))],
                lambda: answer(g, ["All productions show ACCEPTED except one that is still queued.", "I'll check again this afternoon."]))


def t_cover_email(g: Gen) -> Task:
    m, w, rng = g.m(), g.w, g.rng
    doc = rng.choice(m.docs)
    to = f"{m.client[2].split()[0].lower()}@{m.client[1].lower()}.com"
    body = (f"Dear {m.client[2].split()[0]},\n\nPlease find attached {doc[1]}. The key points are summarised on the first page. "
            f"We suggest a short call this week to discuss next steps.\n\nKind regards,\n{w.first}")
    user = rng.choice((f"draft the cover email to {m.client[2]} with the {doc[1]} attached; keep it short", f"email to the client with {doc[1]} pls, 3 lines", "send-ready draft to the client with the latest version attached"))
    return Task(casual(rng, user), [Step("email_draft", {"to": to, "subject": m.title, "body": body, "attachments": [doc[0]]}, lambda s: draft_saved(w, to, m.title, body, [doc[1]]))],
                lambda: answer(g, ["Draft is ready in your Drafts folder with the attachment.", "Not sent."]))


def t_french(g: Gen) -> Task:
    m, w, rng = _speaking(g, "fr", opp=True), g.w, g.rng
    body = (f"Cher Confrère,\n\nJe fais suite à votre courrier concernant le dossier {m.title}. Ma cliente conteste l'intégralité des demandes formulées. "
            "Elle reste néanmoins ouverte à une discussion sous toutes réserves.\n\nBien confraternellement,\n" + f"{w.first} {w.last}")
    user = rng.choice((f"Peux-tu préparer un projet de réponse à Maître {m.opp[1]} ? Court, on conteste tout", "projet de réponse en français pls, ton ferme",
                       "draft a reply in French to their counsel, we dispute everything"))
    return Task(casual(rng, user), [Step("email_draft", {"to": m.opp_email, "subject": f"V/Réf. {m.title}", "body": body, "language": "fr"}, lambda s: draft_saved(w, m.opp_email, m.title, body))],
                lambda: f"Projet enregistré dans les brouillons ({m.opp_email}). Ton ferme, sous toutes réserves, sans reconnaissance de responsabilité pour {m.short}.")


def t_italian(g: Gen) -> Task:
    m, w, rng = _speaking(g, "it"), g.w, g.rng
    notes: list[str] = []
    user = rng.choice((f"Mi serve un riassunto delle clausole di esclusiva nel contratto con {m.cp_short}", "riassunto in italiano per il cliente delle clausole principali pls",
                       f"Puoi controllare le clausole di recesso nel contratto {m.cp_short}?"))
    return Task(casual(rng, user), [Step("doc_read", {"doc_id": m.docs[0][0]}, lambda s: contract(w, m, s, notes=notes))],
                lambda: "Ecco il riassunto:\n" + "\n".join(f"- {x}" for x in notes[:3]) + "\n- L'esclusiva decade se non si raggiunge l'obiettivo minimo di acquisto.")


def t_multi(g: Gen) -> Task:
    m, w, rng = g.m("litigation", "employment"), g.w, g.rng
    m2 = g.m()
    h = rng.choice((0.3, 0.5, 0.7, 1.1))
    narr = "Telephone call with client"
    user = (f"3 things: 1) log {h} on {m2.number}, call w client 2) check the docket in {m.extra.get('case', m.number)} "
            f"3) remind me what {m.opp[0]} said about costs last time")
    return Task(casual(rng, user), [Step("time_entry", {"action": "create", "matter": m2.number, "hours": h, "narrative": narr}, lambda s: time_saved(w, m2.number, h, narr)),
                                    Step("docket_lookup", {"case": m.extra.get("case", m.number)}, lambda s: docket_sheet(w, m, s)),
                                    Step("doc_search", {"matter": m.number, "query": "costs"}, lambda s: fulltext_hits(w, m, s, "costs"))],
                lambda: answer(g, [f"1) Logged {h} h on {m2.number}.", "2) Nothing new on the docket since the last check.",
                                   f"3) {m.opp[0]} reserved costs and hinted at a full costs order if we don't settle; nothing more specific."]))


def t_demand_paste(g: Gen) -> Task:
    m, w, rng = g.m("litigation", "distribution", "licence"), g.w, g.rng
    paste = paste_opp_email(w, m)
    q = rng.choice(CASE_QUERIES)
    body = letter_text(g, m)
    ask = rng.choice((f"{m.opp[1]}'s demand letter, got it this morning. what's our position? any case law?", "demand below. can they really do this?",
                      "letter before claim from the other side. thoughts + draft response"))
    return Task(casual(rng, ask) + "\n\n" + paste, [Step("case_law_search", {"query": q}, lambda s: case_hits(w, m, s, q)),
                                                    Step("email_draft", {"to": m.opp_email, "subject": f"RE: {m.title}", "body": body}, lambda s: draft_saved(w, m.opp_email, m.title, body))],
                lambda: answer(g, ["Their deadline is not binding on us; a court will not hold a short unilateral deadline against your client.", "Case law supports our reading on the main point.",
                                   "Draft response is in Drafts - it rejects the demand and proposes a call."]), [paste])


def t_signed(g: Gen) -> Task:
    m, w, rng = g.m(), g.w, g.rng
    doc = rng.choice(m.docs)
    user = rng.choice((f"find the signed version of {doc[1]}, the DMS keeps giving me drafts", "where is the executed copy? all I find are drafts", f"signed {m.cp_short} contract - where is it?"))
    return Task(casual(rng, user), [Step("doc_search", {"matter": m.number, "query": doc[1].rsplit(".", 1)[0], "status": "Executed"}, lambda s: dms_listing(w, m, s, doc[1] + " status:Executed"))],
                lambda: answer(g, ["The executed version is the one marked 'Executed' in the listing.", "It was filed under the client copy profile, which is why the search missed it."]))


def t_insurance(g: Gen) -> Task:
    m, w, rng = g.m(), g.w, g.rng
    user = rng.choice(("check the policy schedule - is the excess per claim or aggregate?", "what's the limit on the client's policy?", "insurance: are we covered for contractual liability?"))
    return Task(casual(rng, user), [Step("doc_read", {"matter": m.number, "doc": "policy schedule"}, lambda s: insurance_schedule(w, m, s))],
                lambda: answer(g, ["The limit applies any one claim and in the aggregate.", "Contractual liability beyond common law liability is excluded (4(c))."]))


def t_statute(g: Gen) -> Task:
    m, w, rng = g.m(), g.w, g.rng
    user = rng.choice(("what's the term for the kantonrechter application again? art 7:686a?", "GDPR art 33 - 72 hours from when exactly?", "pull up UCTA s.11 pls",
                       "wat zegt 6:248 lid 2 ook alweer precies?"))
    return Task(casual(rng, user), [Step("doc_read", {"source": "legislation", "query": user[:60]}, lambda s: statute_excerpt(w, m, s))],
                lambda: answer(g, ["Text is above; the key words are in the first sentence.", "Commentary agrees the term is a limitation period that the court applies of its own motion."]))


def t_invoice(g: Gen) -> Task:
    m, w, rng = g.m(), g.w, g.rng
    user = rng.choice(("invoice from their expert - check it against the engagement letter", "the cost claim from the other side looks inflated, can you check?", "check this invoice line by line"))
    return Task(casual(rng, user), [Step("doc_read", {"matter": m.number, "doc": "invoice"}, lambda s: invoice_doc(w, m, s))],
                lambda: answer(g, ["Travel is billed at 50% as agreed.", f"{rng.randint(2, 6)} lines are internal meetings we should not pay for.", "Total is within the estimate."]))


def t_dpa_subproc(g: Gen) -> Task:
    m, w, rng = g.m("dpa"), g.w, g.rng
    notes: list[str] = []
    user = rng.choice(("vendor DPA: is the sub-processor list ok?", f"{m.cp_short} DPA - anything in there we can't accept?", "check the DPA for transfers outside the EEA pls"))
    return Task(casual(rng, user), [Step("doc_read", {"doc_id": m.docs[0][0]}, lambda s: contract(w, m, s, kind="dpa", notes=notes))],
                lambda: answer(g, notes[:3] + ["Transfers rely on the SCCs; we still need their transfer impact assessment."]))


def t_minutes(g: Gen) -> Task:
    m, w, rng = g.m("ma"), g.w, g.rng
    user = rng.choice(("board minutes for the approval - check quorum and the POA", "do the minutes actually approve the deal?", "board minutes in 1.3: anything odd?"))
    return Task(casual(rng, user), [Step("doc_read", {"source": f"vdr:{m.extra['code'].lower()}", "doc": "1.3"}, lambda s: board_minutes(w, m, s))],
                lambda: answer(g, ["Quorum is fine.", "The power of attorney is granted to the CEO alone; the articles require two signatories."]))


def t_qa(g: Gen) -> Task:
    m, w, rng = g.m("ma"), g.w, g.rng
    user = rng.choice(("which Q&A questions are still open from our side?", "Q&A log - what's still open?", "chase list for the seller pls"))
    return Task(casual(rng, user), [Step("doc_search", {"source": f"vdr:{m.extra['code'].lower()}", "module": "qa", "status": "open"}, lambda s: qa_log(w, m, s))],
                lambda: answer(g, [f"{rng.randint(3, 14)} questions are open; the oldest dates from {w.day('en', -40, -20)}.", "The change of control questions are the ones that matter for signing."]))


def t_bundle(g: Gen) -> Task:
    m, w, rng = g.m("litigation"), g.w, g.rng
    path = _path(g, m, "hearing", "bundle_index", "md")
    text = "HEARING BUNDLE - INDEX\n\n" + "\n".join(f"{k}. {rng.choice(DOCKET_EN + DOCKET_NL)} ({w.day('iso', -300, -5)}), pp. {k * 7}-{k * 7 + 6}" for k in range(1, rng.randint(12, 30)))
    user = rng.choice(("pls prep the bundle index for the hearing", "bundle index, chronological, with page refs", "can u do the index for the hearing bundle"))
    return Task(casual(rng, user), [Step("doc_search", {"matter": m.number, "type": "pleadings"}, lambda s: dms_listing(w, m, s, "type:pleading")),
                                    Step("write_file", {"path": path, "content": text}, lambda s: write_ok(w, path, text))],
                lambda: answer(g, [f"Index saved as {path}.", "Pleadings first, then orders, then productions."]))


def t_tracked(g: Gen) -> Task:
    m, w, rng = g.m(), g.w, g.rng
    user = rng.choice((f"their markup of the {m.docs[0][1]} came in, go through the tracked changes", "tracked changes from the other side - which are substantive?", "pls review their revisions"))
    return Task(casual(rng, user), [Step("redline_compare", {"doc_id": m.docs[0][0], "mode": "tracked_changes"}, lambda s: tracked_changes(w, m, s))],
                lambda: answer(g, ["Roughly a third of the revisions are substantive.", "The cap wording and the new audit clause are the ones to push back on."]))


def t_status(g: Gen) -> Task:
    m, w, rng = g.m(), g.w, g.rng
    user = rng.choice((f"where are we on {m.title}? 5 bullets", f"status {m.short} pls, I have a call in 10", f"quick recap of {m.number} for the partner meeting"))
    return Task(casual(rng, user), [Step("doc_search", {"matter": m.number, "sort": "modified"}, lambda s: dms_listing(w, m, s, "*"))],
                lambda: answer(g, [f"Latest document: {rng.choice(m.docs)[1]}.", f"Ball is in {rng.choice(('our', 'their'))} court.", f"Open point: {rng.choice(TOPICS)}.",
                                   f"Next deadline: {w.day('en', 5, 40)}.", "Budget: on track."]))


def t_file_note(g: Gen) -> Task:
    m, w, rng = g.m(), g.w, g.rng
    path = _path(g, m, "notes", "file_note_call", "md")
    raw = rng.choice(("call w client 20 min - wants to settle, not below last offer - worried about press - will check w board",
                      f"call with {m.opp[0]} - they'll revert on the cap - want signing before end of month - asked about our costs",
                      "internal - agreed to split the DD, Femke takes employment - next check-in monday"))
    text = f"FILE NOTE\nMatter: {m.number}\nDate: {w.day('en', -1, 0)}\nAttendees: {w.first} {w.last}\n\n" + "\n".join(f"- {x.strip()}" for x in raw.split(" - "))
    user = f"turn this into a file note and save it: {raw}"
    return Task(casual(rng, user), [Step("write_file", {"path": path, "content": text}, lambda s: write_ok(w, path, text))],
                lambda: answer(g, [f"Saved as {path}."]))


def t_whatsapp(g: Gen) -> Task:
    m, w, rng = g.m(), g.w, g.rng
    paste = paste_whatsapp(w, m)
    ask = rng.choice(("client whatsapp'd me this, can you make sense of it", "see the messages below from the client. what's going on?", "the client's messages, pls summarise + what do we do"))
    return Task(casual(rng, ask) + "\n\n" + paste, [Step("doc_search", {"matter": m.number, "query": "latest correspondence"}, lambda s: dms_listing(w, m, s, "latest correspondence"))],
                lambda: answer(g, ["The other side is pressuring the client directly with a signing deadline.", "Nothing obliges the client to sign by Friday.",
                                   "I'd send their counsel a short note asking them to communicate through us."]), [paste])


def t_comments(g: Gen) -> Task:
    m, w, rng = g.m("saas", "nda", "licence", "distribution", "dpa", "lease"), g.w, g.rng
    paste = paste_comments(w, m)
    ask = rng.choice(("their comments on our draft (copied from word). which ones can we accept?", "comments below - quick triage pls", "what do we do with these comments?"))
    return Task(casual(rng, ask) + "\n\n" + paste, [Step("clause_library", {"key": "playbook." + DOC_KIND[m.kind]}, lambda s: playbook_matrix(w, m, s))],
                lambda: answer(g, ["Most are drafting points we can accept.", "The signing deadline in their last comment is their problem, not ours.", "Push back on the cap-related comments."]), [paste])


def t_registry(g: Gen) -> Task:
    m, w, rng = g.m("litigation"), g.w, g.rng
    paste = paste_registry(w, m)
    ask = rng.choice(("email from the griffie, does this change anything?", "griffie mail below - what do we need to do?", "court moved the hearing?? see below"))
    return Task(casual(rng, ask) + "\n\n" + paste, [Step("docket_lookup", {"case": m.extra.get("case", m.number)}, lambda s: docket_sheet(w, m, s))],
                lambda: answer(g, ["The hearing is postponed; a new summons follows.", "We need to send dates of unavailability within five working days."]), [paste])


def t_clause_paste(g: Gen) -> Task:
    m, w, rng = g.m(), g.w, g.rng
    paste = paste_clauses(w, m)
    ask = rng.choice(("they want this in the contract. is that normal?", "is this market?", "clauses below from their draft - can we live with them?"))
    return Task(casual(rng, ask) + "\n\n" + paste, [Step("clause_library", {"key": rng.choice(CLAUSE_KEYS)}, lambda s: clause_entry(w, m, s))],
                lambda: answer(g, ["Mostly market.", "The restriction in the first clause is stricter than our standard; the library fallback would soften it."]), [paste])


def t_engagement(g: Gen) -> Task:
    m, w, rng = g.m(), g.w, g.rng
    path = _path(g, m, "engagement", "engagement_letter", "docx")
    text = (f"ENGAGEMENT LETTER\n\n{m.client[0]}\nAttn. {m.client[2]}\n\nRe: {m.title}\n\nScope: advice and assistance in connection with {m.title}.\n"
            f"Fees: hourly rates as per the attached schedule; estimate {w.amount(5_000, 60_000, 500)} excl. VAT.\nGeneral terms: the firm's general terms apply; liability is limited to the amount paid out under the firm's professional indemnity insurance.")
    user = rng.choice(("engagement letter for the new instruction pls, usual terms", f"draft the engagement letter for {m.short}", "opdrachtbevestiging opstellen aub"))
    return Task(casual(rng, user), [Step("write_file", {"path": path, "content": text}, lambda s: write_ok(w, path, text))],
                lambda: answer(g, [f"Draft saved as {path}.", "Scope kept narrow; estimate included as you prefer."]))


TASKS: tuple[Callable[[Gen], Task], ...] = (
    t_redline_template, t_reply_paste, t_whats_changed, t_docket, t_case_law, t_log_time, t_calendar_add, t_clause_question, t_vdr_search,
    t_memo, t_fix_typo, t_client_paste, t_order_paste, t_regulator_paste, t_tcs_paste, t_dd_coc, t_wip, t_conflict, t_nda_playbook,
    t_german_client, t_cap_table, t_chronology, t_update_dd, t_ocr_lease, t_calendar_check, t_rol, t_efiling, t_cover_email, t_french,
    t_italian, t_multi, t_demand_paste, t_signed, t_insurance, t_statute, t_invoice, t_dpa_subproc, t_minutes, t_qa, t_bundle, t_tracked,
    t_status, t_file_note, t_whatsapp, t_comments, t_registry, t_clause_paste, t_engagement)


QA = (
    ("quick q: is a WhatsApp message enough for 'written notice' under Dutch law or do we need a letter?",
     "Under Dutch law 'schriftelijk' can be met electronically if the message is durable, identifiable and reaches the addressee (art. 6:227a BW, and the case law on email notices). But if the contract prescribes registered post or a specific address, a WhatsApp message is risky - a court may hold the parties to the agreed form. For anything that starts a term, I'd send a letter by registered post and email as well."),
    ("hypothetically, if the judge grants their extension, do we have to re-serve the exhibits?",
     "No - an extension only moves their deadline. Exhibits already filed stay in the file. We would only file again if the court asks for a consolidated set or if we want to add new productions, which then has to happen at least ten days before the hearing."),
    ("should we always insist on mutual caps? what's market for SaaS these days",
     "Market is a mutual cap at 12 months' fees, with carve-outs for confidentiality, data protection and IP indemnities (often with a super-cap of 2-3x). Whether to insist depends on which side the client is on: as a customer, a mutual cap mostly protects the supplier. I would not make it a blanket position - it is a negotiation call per deal."),
    ("if the landlord refuses consent to assign, could the client argue unreasonableness? ballpark only",
     "Only if the lease says consent may not be unreasonably withheld; without that wording the landlord has more room. For business premises (290-bedrijfsruimte) there is the statutory route of art. 7:307 BW for a transfer with the business, which is the stronger argument if the client sells its business. Ballpark: decent chances if the assignee's covenant is at least as strong."),
    ("what would happen if we just didn't respond to the AP letter by the deadline? (not planning to, just need to explain it to the client)",
     "The AP could impose an order subject to a penalty (last onder dwangsom) to obtain the information, and failure to cooperate is itself a factor in any later fine. In practice they send a reminder first, but it colours the whole file. Asking for an extension is easy and almost always granted."),
    ("Wat is ook alweer de verjaringstermijn voor een vordering uit onverschuldigde betaling?",
     "Vijf jaar na de aanvang van de dag volgende op die waarop de schuldeiser zowel met het bestaan van zijn vordering als met de persoon van de ondergeschikte bekend is geworden (art. 3:309 BW), met een absolute termijn van twintig jaar. Stuiting kan met een schriftelijke aanmaning waarin ondubbelzinnig het recht op nakoming wordt voorbehouden."),
    ("Kurze Frage: ist eine Kündigung per E-Mail wirksam, wenn der Vertrag Schriftform verlangt?",
     "Bei vereinbarter Schriftform genügt nach § 127 Abs. 2 BGB im Zweifel auch die telekommunikative Übermittlung, also grundsätzlich auch E-Mail - anders als bei gesetzlicher Schriftform. Entscheidend ist der Wortlaut der Klausel: verlangt sie ausdrücklich eigenhändige Unterschrift oder Einschreiben, würde ich zusätzlich per Post kündigen."),
    ("Est-ce qu'une clause de non-concurrence tient sans contrepartie financière en droit français ?",
     "Pour un salarié, non : depuis 2002 la Cour de cassation exige une contrepartie financière, à défaut la clause est nulle. Entre sociétés, la clause doit être limitée dans le temps et l'espace et proportionnée aux intérêts légitimes, mais une contrepartie n'est pas requise."),
    ("Il foro esclusivo nel contratto vale anche per i decreti ingiuntivi?",
     "In linea di massima sì: la clausola di foro esclusivo vincola anche il ricorso per decreto ingiuntivo, e il giudice adito in violazione deve dichiararsi incompetente se il debitore lo eccepisce in opposizione. Conviene comunque verificare la formulazione esatta della clausola."),
    ("what's the difference between a specific indemnity and a warranty claim again, 3 lines for the client",
     "A warranty claim requires proof of a breach and of loss, and is subject to the de minimis, basket, cap and disclosure. A specific indemnity is a euro-for-euro payment for a known risk, usually outside those limitations. That's why we ask for an indemnity for risks we already know about from the due diligence."),
    ("if we went for a kort geding instead, how fast could we realistically get a hearing?",
     "In Amsterdam and Rotterdam a kort geding hearing is usually available within two to four weeks, faster in real urgency. The judgment follows about two weeks after the hearing. The catch is urgency: the longer the client waits, the weaker that argument gets."),
    ("do you think they will actually file? gut feeling",
     "Gut feeling: not before they have tested a settlement. Their letters have moved from threats to 'pragmatic solution' language, and filing now would cost them more than the amount at stake. But I would not rely on that - we should be ready with a defence outline either way."),
    ("can the client just stop paying while the dispute is ongoing? they want to",
     "Only within the limits of the right to suspend (opschortingsrecht, art. 6:262 BW): the withheld amount must be proportionate to the other side's non-performance. Stopping all payments for a partial failure risks being in breach themselves. I'd suggest withholding the disputed invoices only, with a letter explaining why."),
    ("remind me - is the transitievergoeding taxed?",
     "Yes, it is taxed as wages (loonheffing) at the employee's rate. It can be paid gross to a 'stamrecht' only in limited transitional cases; in practice it is paid out as wages."),
    ("what if the seller refuses the specific indemnity - walk away or price chip? pros/cons",
     "Price chip: certain, simple, but the client bears the risk if it turns out bigger than priced. Indemnity: protects against the actual outcome but depends on the seller's solvency - hence escrow. Walking away seems disproportionate for one issue of this size. My suggestion: price chip plus a small escrow as a compromise."),
    ("is 'best endeavours' the same as 'reasonable endeavours' under Dutch law?",
     "Dutch law has no fixed meanings for these English terms; a court applies Haviltex and asks what the parties could reasonably expect. In an English-law contract the difference is real: best endeavours can require acting against one's own commercial interest. If the contract is under Dutch law, it's better to spell out what is expected."),
    ("how long do we keep closed files again?",
     "Our policy is seven years after closing for tax-relevant records and general files, longer for matters involving real estate or limitation periods that run longer (up to twenty years). Originals of signed deeds go back to the client."),
    ("any reason not to use DocuSign for the SPA?",
     "For a share purchase agreement under Dutch law, an electronic signature is fine. The deed of transfer of the shares must be executed before a Dutch civil-law notary, so that part is not e-signed (the notary can do a remote session). Check the signing authority of each signatory in advance."),
    ("what's the risk if the DPA stays unsigned for another month?",
     "Processing without an art. 28 agreement is a breach of the GDPR by both controller and processor. Enforcement risk is low in the short term, but if an incident happens in that month the lack of a DPA makes everything harder. I'd get a short interim letter signed if the full DPA can't be agreed in time."),
    ("would a court apply the CISG to the Corvino sales if nobody excluded it?",
     "Yes, if both parties are in contracting states and the contract is a sale of goods, the CISG applies unless excluded. Italy and the Netherlands are both contracting states. That matters for the notice period for non-conformity, which under the CISG is a 'reasonable time' (art. 39)."),
)
FIRST_LINES = ("hang on", "wait", "ok one more thing", "sorry, different matter", "before I forget", "hmm", "also", "btw")


def compose(rest: int, rng: random.Random) -> list[int]:
    """Split ``rest`` messages into tool rounds: 2 (one call and its result) or 3 (two parallel calls)."""
    groups = []
    while rest > 0:
        if rest == 3 or (rest >= 5 and rng.random() < 0.25):
            groups.append(2)
            rest -= 3
        else:
            groups.append(1)
            rest -= 2
    return groups


def extra_step(g: Gen) -> Step:
    """A further look-up the agent makes on its own while on a task."""
    m, w, rng = g.m(), g.w, g.rng
    pick = rng.randrange(9)
    if pick == 0:
        h = rng.choice((0.1, 0.2, 0.3, 0.4))
        narr = rng.choice(("Reviewing documents", "Emails with client", "Research", "Internal discussion"))
        return Step("time_entry", {"action": "create", "matter": m.number, "hours": h, "narrative": narr}, lambda s: time_saved(w, m.number, h, narr))
    if pick == 1:
        return Step("doc_search", {"matter": m.number, "query": "recent"}, lambda s: dms_listing(w, m, s, "recent"))
    if pick == 2:
        key = rng.choice(CLAUSE_KEYS)
        return Step("clause_library", {"key": key}, lambda s: clause_entry(w, m, s, key))
    if pick == 3:
        return Step("calendar", {"action": "list", "days": 7}, lambda s: calendar_list(w, s))
    if pick == 4:
        return Step("doc_read", {"doc_id": m.docs[0][0], "matter": m.number}, lambda s: contract(w, m, s))
    if pick == 5:
        q = rng.choice(CASE_QUERIES)
        return Step("case_law_search", {"query": q}, lambda s: case_hits(w, m, s, q))
    if pick == 6:
        return Step("doc_read", {"matter": m.number, "doc": "correspondence", "latest": 5}, lambda s: email_thread(w, m, s))
    if pick == 7:
        topic = rng.choice(TOPICS)
        return Step("doc_search", {"matter": m.number, "full_text": topic}, lambda s: fulltext_hits(w, m, s, topic))
    return Step("redline_compare", {"doc_id": m.docs[0][0], "mode": "tracked_changes"}, lambda s: tracked_changes(w, m, s))


def qa_matter(g: Gen) -> tuple[str, str]:
    """A question about one of the matters, answered from what the agent knows of it (no tool)."""
    m, w, rng = g.m(), g.w, g.rng
    topic = rng.choice(TOPICS)
    pick = rng.randrange(10)
    if pick == 0:
        return (f"can you remind me what we agreed with {m.opp[0]} on {topic} in {m.short}?",
                f"On {topic} nothing is agreed yet: {m.opp[0]} said they would come back after speaking to {m.cp_short}, and our last markup is still with them. "
                f"The open version is {m.docs[0][1]} v{m.docs[0][2]}.")
    if pick == 1:
        return (f"is {m.client[2]} the right person to sign for {m.short}?",
                f"{m.client[2]} is {m.client[3]} at {m.client[0]}. Whether that is enough depends on the articles and the registered signing authority - "
                "I'd check the commercial register extract before signing; if in doubt, have two directors sign.")
    if pick == 2:
        return (f"will {m.cp_short} accept a mutual cap on {topic} do you think?",
                f"Probably, if it is framed as market practice and tied to the fees. {m.opp_name} has accepted mutual caps in the past, but expect them to ask for carve-outs in return.")
    if pick == 3:
        return (f"{m.short}: do we need the works council's advice for this?",
                "Only if the decision falls under art. 25 WOR (for example a transfer of control or a major reorganisation). For a contract renegotiation, no; for a share sale, yes, "
                "before the decision is final.")
    if pick == 4:
        return (f"would {m.extra['law']} law be better for {m.short} than Dutch law here?",
                f"Not necessarily. {m.extra['law'].replace('the ', '').title()} law is familiar to {m.cp_short}, but Dutch law gives {m.short} the reasonableness "
                "and fairness correction and a home court. I'd only concede it in exchange for something concrete.")
    if pick == 5:
        return (f"short answer pls: can {m.cp_short} assign the contract to its parent without consent?",
                "Only if the assignment clause allows transfers to group companies without consent - many do, on notice. Without such wording, assignment of the contract "
                "as a whole needs the other party's cooperation (art. 6:159 BW).")
    if pick == 6:
        return (f"what's our budget status on {m.number}?",
                f"From the last WIP report we're at roughly {rng.randint(40, 110)}% of the estimate for this phase. I can pull the exact figures if you want to send {m.client[2]} an update.")
    if pick == 7:
        return (f"{m.opp[1]} hasn't answered in {rng.randint(2, 4)} weeks. chase or wait?",
                f"I'd send a short chaser - it costs nothing and it documents that the delay is on {m.cp_short}'s side. If there is a deadline coming, mention it.")
    if pick == 8:
        return ("thx, that's helpful", rng.choice(("You're welcome.", "Glad it helps - I'll keep an eye on it.", "Any time. I'll note it in the file.")))
    return (f"what's the next deadline in {m.title}?",
            f"The next one I have is {w.day('en', 5, 60)} for {rng.choice(('our comments', 'their reply', 'the client decision', 'the draft'))}; "
            "nothing court-imposed before that.")


def filler(g: Gen, length: int) -> None:
    """One filler exchange of exactly ``length`` messages, starting with a user turn and ending on an answer."""
    rng = g.rng
    if length == 2:
        q, a = rng.choice(QA) if rng.random() < 0.4 else qa_matter(g)
        g.user(casual(rng, q))
        g.say(a)
        return
    if length == 3:
        q, a = rng.choice(QA) if rng.random() < 0.4 else qa_matter(g)
        g.user(rng.choice(FIRST_LINES))
        g.user(casual(rng, q))
        g.say(a)
        return
    groups = compose(length - 2, rng)
    need = sum(groups)
    want = g.unused[0] if g.unused and rng.random() < 0.5 else None
    for tries in range(200):
        task = rng.choice(TASKS)(g)
        if len(task.steps) <= need and (want is None or tries > 150 or any(st.tool == want for st in task.steps)):
            break
    steps = task.steps + [extra_step(g) for _ in range(need - len(task.steps))]
    g.user(task.user, task.pasted)
    k = 0
    for size in groups:
        batch = steps[k:k + size]
        k += size
        ids = g.call([(s.tool, s.args) for s in batch], g.note(batch[0].tool))
        for cid, s in zip(ids, batch):
            g.result(cid, s.render(g.size() // len(batch)))
    g.say(task.answer())


# --- planted facts ------------------------------------------------------------------------------


@dataclass
class Plant:
    """A fact to plant: its value, and how to emit the exchange that says it (and the earlier one with the stale value)."""

    kind: str
    value: str
    query: str
    emit: Callable[[Gen, Plant], int]  # emits the exchange, returns the index of the message that holds the value
    stale: str | None = None
    pre: Callable[[Gen], int] | None = None  # emits the exchange with the stale value, returns that user message's index
    pre_length: int = 2
    length: int = 4  # at most this many messages in the exchange
    offset: int = 0  # the fact's message within it
    resolved: int | None = None


def _reserve(g: Gen, *values: str) -> None:
    g.w.reserve(*values)


def _fresh(g: Gen, make: Callable[[], str]) -> str:
    v = g.w.fresh(make)
    g.w.reserve(v)
    return v


def _fact_date(g: Gen, lo: int, hi: int, day_lo: int = 10, day_hi: int = 19) -> dt.date:
    """A working day with a two-digit day of month (so no other date's text contains it), reserved from the filler."""
    rng = g.rng
    while True:
        d = dt.date(2025, 2, 3) + dt.timedelta(days=rng.randint(lo, hi))
        if d.weekday() < 5 and day_lo <= d.day <= day_hi and d not in g.w.reserved_dates:
            g.w.reserved_dates.add(d)
            return d


def _ack(g: Gen, *lines: str) -> int:
    return g.say(" ".join(lines))


NDA_PLAYBOOK = (
    ("1. Purpose and scope", ("This playbook applies to every non-disclosure agreement the firm reviews or drafts for a client, whether on our paper or the other side's.",
                              "It covers one-way and mutual NDAs, NDAs in the context of M&A processes (with the additions in section 11) and confidentiality clauses in letters of intent.",
                              "Where a client has its own NDA policy, the client's policy prevails; note the differences in the file.",
                              "Deviations from this playbook are recorded in the NDA register with a one-line reason.")),
    ("2. Who signs off", ("Standard NDAs that follow this playbook in full can be signed off by an associate.",
                          "Any NDA with a penalty clause, a non-compete, a standstill or a governing law other than Dutch or English law goes to the responsible partner.",
                          "The client signs; the firm never signs NDAs on behalf of a client, not even under a power of attorney.")),
    ("3. Definition of Confidential Information", ("Prefer a definition that covers information disclosed in any form, marked or unmarked, if its confidential nature is apparent.",
                                                   "Resist definitions limited to information 'marked confidential' when the client is the discloser; accept them when the client is mainly the recipient.",
                                                   "The existence and content of the negotiations should be confidential as well.",
                                                   "Personal data shared under the NDA needs a separate data-sharing clause; do not rely on the NDA alone.")),
    ("4. Permitted disclosures", ("Disclosure to group companies, officers, employees, professional advisers and financiers on a need-to-know basis is standard.",
                                  "Disclosure required by law, regulation, a stock exchange or a court is standard; the recipient should inform the discloser first where lawful.",
                                  "Resist an obligation on the recipient to have each adviser sign a separate undertaking; the recipient's responsibility for its advisers is enough.")),
    ("5. Term and survival", ("{planted}",
                              "A fixed end date is preferred over an open-ended obligation; if the other side insists on an open-ended term, escalate.",
                              "The NDA itself may terminate earlier, but the confidentiality obligations survive for the period above.",
                              "Obligations in respect of personal data last as long as the data is held.")),
    ("6. Return and destruction", ("On request, the recipient returns or destroys confidential information, with the usual exception for back-up copies and copies kept to comply with law or internal compliance rules.",
                                   "A certificate of destruction may be given by a manager; a board-level certificate is excessive.",
                                   "Information in the advisers' files may be kept for professional-conduct purposes.")),
    ("7. Non-solicitation", ("A non-solicit of key employees for 12 months is acceptable in M&A NDAs; 6 months in commercial NDAs.",
                             "General recruitment advertising and approaches initiated by the employee must be excluded.",
                             "No non-solicit of customers or suppliers in an NDA; that belongs in the transaction documents.")),
    ("8. Remedies and penalties", ("Injunctive relief language is fine.",
                                   "Penalty clauses (boetebedingen) are resisted when the client is the recipient; if unavoidable, cap the total and exclude the right to claim damages on top.",
                                   "Indemnities for any breach of the NDA are not accepted.")),
    ("9. Governing law and jurisdiction", ("Dutch law and the courts of Amsterdam are the default; English law with the courts of London is acceptable.",
                                           "Arbitration is not appropriate for NDAs because interim relief must be quick.",
                                           "Avoid split jurisdiction clauses.")),
    ("10. Residuals", ("Residuals clauses (the right to use information retained in unaided memory) are refused when the client is the discloser.",
                       "If the client is a technology company receiving information, a narrow residuals clause can be proposed, excluding patents and trade secrets.")),
    ("11. M&A additions", ("Standstill: 12 months maximum, falling away if a third party announces an offer.",
                           "No contact with employees, customers or suppliers of the target without consent of the seller's adviser.",
                           "Clean team arrangements for competitively sensitive information.")),
    ("12. Process", ("Every signed NDA is saved in the DMS under the client's NDA register with its expiry date.",
                     "Send the redline together with a short cover note explaining the main changes.",
                     "Use the firm's NDA template (clause library key confidentiality.mutual.v3) when we draft.")),
    ("13. Typical positions of the other side and our responses", (
        "'Information must be marked confidential to be protected' - acceptable if the client mainly receives; otherwise add that oral information is covered if confirmed in writing within 30 days.",
        "'The recipient shall be liable for any disclosure by its advisers' - acceptable, provided liability is limited to breaches the advisers commit in that capacity.",
        "'The discloser makes no warranty as to accuracy' - standard, accept.",
        "'The NDA does not oblige either party to proceed with a transaction' - standard, accept; we prefer to say so expressly.",
        "'All information remains the property of the discloser' - accept, but carve out the recipient's own analyses and notes, which are destroyed rather than returned.",
        "'The recipient must notify every breach within 24 hours' - resist a fixed number of hours; 'promptly after becoming aware' is enough.")),
    ("14. Worked example", (
        "A supplier sends its one-way NDA to our client, who will only receive information. The definition covers marked information only, there is a penalty of EUR 25,000 per breach and the governing law is that of the supplier's home state.",
        "Our response: accept the marked-information definition, delete the penalty (or cap it and exclude damages on top, see section 8), propose Dutch law and the Amsterdam courts, and check the term against section 5.",
        "The cover note lists these four points in that order; everything else is marked as a drafting point.")),
)
DPA_PLAYBOOK = (
    ("1. When a DPA is needed", ("A data processing agreement is needed whenever a supplier processes personal data on the client's behalf and under its instructions.",
                                 "Where the supplier determines purposes and means itself, it is a controller and a data-sharing agreement is needed instead.",
                                 "Joint controllership (art. 26 GDPR) needs its own arrangement; do not paper it as a DPA.")),
    ("2. Whose paper", ("Large cloud providers will only sign their own DPA; review it against this playbook and use our rider for the gaps.",
                        "For smaller suppliers our template is the starting point.",
                        "Never accept a DPA that refers to terms 'as updated from time to time' on a website without a notification mechanism.")),
    ("3. Instructions", ("The DPA must state that the processor processes only on documented instructions, including for transfers.",
                         "The processor must inform the client if an instruction infringes the GDPR.",
                         "The main agreement and the DPA together count as the complete instructions; ad-hoc instructions are confirmed by email.")),
    ("4. Security measures", ("Annex 2 must describe actual measures, not a copy of art. 32 GDPR.",
                              "Encryption at rest and in transit, access logging, and a tested back-up are the minimum for special categories of data.",
                              "ISO 27001 or SOC 2 Type II certification is a good sign but does not replace the annex.")),
    ("5. Sub-processors", ("General written authorisation with a list of current sub-processors is acceptable.",
                           "The client must be able to object to a new sub-processor and, if the objection is not resolved, terminate the affected services without penalty.",
                           "The processor remains fully liable for its sub-processors.")),
    ("6. Audits", ("Audit rights must exist, as art. 28(3)(h) GDPR requires.",
                   "{planted}",
                   "The costs of an audit are for the client unless the audit reveals a material breach.",
                   "Third-party audit reports (ISAE 3402, SOC 2) may replace an audit if they cover the relevant services.")),
    ("7. Breach notification", ("The processor notifies the client without undue delay; a fixed number of hours is preferred, no longer than the period the client needs to meet the 72-hour deadline of art. 33 GDPR.",
                                "The notification must contain the information the client needs for its own notification.",
                                "The processor must not notify the supervisory authority or data subjects on the client's behalf unless instructed.")),
    ("8. International transfers", ("Transfers outside the EEA only on the basis of an adequacy decision or the 2021 Standard Contractual Clauses, with a transfer impact assessment.",
                                    "US providers certified under the EU-US Data Privacy Framework are acceptable; check the certification on the DPF list.",
                                    "Remote access from a third country is a transfer.")),
    ("9. Liability", ("The DPA should not introduce a separate, lower cap for data protection breaches than the main agreement.",
                      "Resist caps on the processor's liability for fines imposed on the client as a result of the processor's breach.",
                      "Indemnities for third-party claims by data subjects are desirable, not essential.")),
    ("10. Deletion and return", ("At the end of the services, return or deletion at the client's choice, within a fixed period (30 days is normal).",
                                 "A confirmation of deletion on request.",
                                 "Retention only where Union or Member State law requires it.")),
    ("11. Our rider", ("Our two-page rider covers the gaps we usually find in suppliers' DPAs: instructions, sub-processor objection, audit, breach notification timing and deletion.",
                       "The rider takes precedence over the supplier's DPA in case of conflict; say so expressly.",
                       "Save the signed DPA and rider in the client's vendor register.")),
    ("12. Typical supplier positions and our responses", (
        "'Audits only through our annual SOC 2 report' - acceptable as the first step; the client keeps a right to ask follow-up questions and to audit after a breach.",
        "'We may change sub-processors by updating our website' - not acceptable without an email notification and an objection right.",
        "'Our liability under the DPA is limited to the fees of the last three months' - resist; the main agreement's cap applies at most.",
        "'Breach notification within 72 hours' - too slow, the client then has no time left for its own notification.",
        "'Personal data may be processed for product improvement' - this makes the supplier a controller for that purpose; delete or limit to aggregated, anonymised data.",
        "'Deletion within 180 days after termination' - too long; 30 days, with back-ups overwritten in the normal cycle.")),
    ("13. Worked example", (
        "A US software supplier offers its standard DPA. It relies on the Data Privacy Framework, offers audits only through its SOC 2 report, notifies breaches within 72 hours and lists eleven sub-processors, four of them outside the EEA.",
        "Our response: check the DPF certification, ask for the transfer impact assessment for the non-certified sub-processors, propose the rider for audits, breach notification timing and the objection right, and record the residual risk in the vendor register.",
        "The cover note to the client explains the residual transfer risk in plain language and recommends signing with the rider.")),
)


def playbook_text(g: Gen, kind: str, planted: str) -> str:
    book = NDA_PLAYBOOK if kind == "nda" else DPA_PLAYBOOK
    title = "NDA PLAYBOOK" if kind == "nda" else "DATA PROCESSING AGREEMENTS - REVIEW PLAYBOOK"
    parts = [f"# {g.w.firm} - {title} (version {g.rng.randint(3, 6)}.{g.rng.randint(0, 9)}, {g.w.day('en', -60, -10)})",
             "Internal - not to be shared with clients or other parties in this form."]
    for head, rules in book:
        body = "\n".join(f"- {r.format(planted=planted)}" for r in rules)
        parts.append(f"## {head}\n{body}")
    parts.append("## Annex - checklist\n" + "\n".join(f"[ ] {head.split('. ', 1)[1]} checked against the draft; deviations noted in the issues list and in the register with a reason."
                                                       for head, _ in book))
    refs = (("confidentiality.mutual.v3", "mutual NDA, Dutch law"), ("confidentiality.oneway.v2", "one-way NDA, client discloses"), ("nda.nonsolicit.mutual", "non-solicit, 6/12 months"),
            ("dpa.subprocessors.general", "general authorisation with objection right"), ("dpa.audit.remote_first", "audit clause, questionnaire first"),
            ("governing_law.nl", "Dutch law, Amsterdam courts"), ("liability.cap.mutual", "mutual cap, 12 months' fees"), ("dpa.rider.v2", "two-page rider"))
    parts.append("## Annex - clause library references\n" + "\n".join(f"- {key}: {what}. Use the latest version in the library; older versions are kept for reference only "
                                                                    "and must not be sent out." for key, what in refs))
    parts.append("## Annex - standard cover note\nDear [name], please find attached our comments on the draft. Our main points are set out below; the remaining changes are "
                 "drafting points. We are happy to discuss them on a call. Our comments are subject to our client's further review and instructions. Kind regards, [lawyer]")
    return "\n\n".join(parts)


def i_playbook_nda(g: Gen) -> Plant:
    n = g.rng.choice((3, 4, 6))
    value = f"maximum term of confidentiality obligations is {n} years from disclosure"
    m = g.w.by_kind("nda")

    def emit(g: Gen, p: Plant) -> int:
        doc = playbook_text(g, "nda", f"The {value}; trade secrets stay protected for as long as they remain trade secrets.")
        i = g.user(f"this is our firm's NDA playbook, follow it for every NDA from now on (it replaces the 2021 version):\n\n{doc}\n\nfirst one up is the {m.cp_short} NDA, their paper")
        _ack(g, "Got it - I'll apply this playbook to every NDA from now on, including the sign-off rules in section 2 and the register in section 12.",
             f"For the {m.cp_short} NDA I'll start with the definition, the carve-outs, the term, the non-solicit and any penalty clause, and list the deviations.")
        return i
    return Plant("instruction", value, "how long confidentiality obligations in NDAs may last under the firm's playbook", emit, length=2)


def i_playbook_dpa(g: Gen) -> Plant:
    n = g.rng.choice((10, 15, 20))
    value = f"on-site audits only after a personal data breach, with {n} business days' notice"

    def emit(g: Gen, p: Plant) -> int:
        doc = playbook_text(g, "dpa", f"Remote audits by questionnaire are accepted once a year; {value}.")
        i = g.user(f"our DPA playbook below. from now on use it for every DPA review, ours or theirs:\n\n{doc}\n\nthx")
        _ack(g, "Understood. I'll review every DPA against this playbook and propose the rider for the gaps; deviations go into the issues list with a reason.")
        return i
    return Plant("instruction", value, "when on-site audits are accepted in DPAs under the firm's playbook", emit, length=2)


def one_step_task(g: Gen) -> Task:
    """A filler request with one tool call and nothing pasted, to carry a rule or a decision said in passing."""
    while True:
        task = g.rng.choice(TASKS)(g)
        if len(task.steps) == 1 and not task.pasted:
            return task


def _simple_instruction(value: str, query: str, text: Callable[[str], str], ack: str, rng: random.Random | None = None) -> Plant:
    """A rule said on its own, or (when ``rng`` is given, half the time) in a second paragraph after a one-off request."""
    with_task = rng is not None and rng.random() < 0.5

    def emit(g: Gen, p: Plant) -> int:
        if not with_task:
            i = g.user(text(value))
            _ack(g, ack)
            return i
        task = one_step_task(g)
        i = g.user(f"{task.user}\n\n{text(value)}")
        step = task.steps[0]
        g.step(step.tool, step.args, step.render)
        g.say(f"{task.answer()}\n\n{ack}")
        return i
    return Plant("instruction", value, query, emit, length=4 if with_task else 2)


def i_wp_header(g: Gen) -> Plant:
    m = g.w.matter("litigation", "employment", "distribution")
    value = f"never send a draft to {m.opp[2]} without the 'without prejudice save as to costs' header"
    return _simple_instruction(value, f"what every draft to the other side in {m.title} must carry",
                               lambda v: f"one thing for {m.short} going forward: {v}, not even a clean version. they used an open draft against us before",
                               "Understood - every draft that goes to the other side in this matter gets that header, clean versions included.", g.rng)


def i_judge(g: Gen) -> Plant:
    m = g.w.by_kind("litigation")
    year = g.rng.randint(2012, 2018)
    value = f"nothing decided before {year} in front of {m.extra['judge']}"
    return _simple_instruction(value, f"how old the authorities cited before the judge in {m.title} may be",
                               lambda v: f"fyi for the {m.short} hearing: we cite {v}. the judge called older authorities 'of limited assistance' twice last year",
                               "Noted - I'll filter the authorities by date for this judge and flag anything older that seems essential.", g.rng)


def i_spelling(g: Gen) -> Plant:
    m = g.w.matter()
    value = f"British spelling in anything that goes to {m.client[0]}"
    return _simple_instruction(value, f"the spelling convention for documents sent to {m.short}",
                               lambda v: f"i'd rather you used {v}, their GC notices these things",
                               "Will do - British spelling for everything client-facing for them.", g.rng)


def i_autorenewal(g: Gen) -> Plant:
    m = g.w.matter()
    value = f"flag every auto-renewal clause in {m.short} contracts with a margin comment"
    return _simple_instruction(value, f"what to do with auto-renewal clauses in {m.short}'s contracts",
                               lambda v: f"{m.short} got burned by a silent auto-renewal with their cleaning contractor last year, so {v}",
                               "Makes sense. I'll add a margin comment on each auto-renewal clause in their contracts, with the notice window.", g.rng)


def i_time_units(g: Gen) -> Plant:
    m = g.w.matter()
    code = _fresh(g, lambda: f"{m.short[:3].upper()}-{g.rng.randint(10, 99)}")
    value = f"6-minute units with task code {code}"

    def text(v: str) -> str:
        return (f"thanks, that works.\n\nFor {m.short} the time entries go in {v} and a one-line narrative - their procurement team rejects anything else."
                if g.rng.random() < 0.5 else f"ok good.\n\nOn {m.short}: time entries in {v}, narrative max one line.")
    return _simple_instruction(value, f"how time entries for {m.short} are recorded", text, "Noted for all time entries on their matters.")


def i_german(g: Gen) -> Plant:
    m = g.w.matter()
    az = _fresh(g, lambda: f"{g.rng.randint(2, 40)} O {g.rng.randint(100, 999)}/25")
    value = f"immer das Aktenzeichen {az} in die Betreffzeile"
    return _simple_instruction(value, "what every German court filing must show in its subject line",
                               lambda v: f"Noch was zu {m.short}: bitte bei allen Schriftsätzen an das Landgericht {v} setzen, die Geschäftsstelle sortiert sonst falsch ein.",
                               "Verstanden - das Aktenzeichen kommt bei jedem Schriftsatz in die Betreffzeile.", g.rng)


def i_dutch(g: Gen) -> Plant:
    m = g.w.matter("litigation", "employment", "lease")
    value = f"niets naar de wederpartij in {m.short} voordat {g.w.associate} het heeft nagelezen"
    return _simple_instruction(value, f"who must read everything before it goes to the other side in {m.short}",
                               lambda v: f"En nog iets: stuur {v}. Dat geldt ook voor korte mailtjes.",
                               f"Begrepen - alles voor de wederpartij gaat eerst langs {g.w.associate}.", g.rng)


def i_french(g: Gen) -> Plant:
    m = next((x for x in g.w.matters if x.client[4] == "fr"), g.w.matter())
    value = f"toujours rédiger les courriers en français et mettre {m.client[2]} en copie"
    return _simple_instruction(value, f"the language and copy rule for letters in {m.short}'s matters",
                               lambda v: f"Pour {m.short}, merci de {v}. La direction ne lit pas les courriers en anglais.",
                               "C'est noté : courriers en français, avec copie à la cliente.", g.rng)


def i_italian(g: Gen) -> Plant:
    m = next((x for x in g.w.matters if x.client[4] == "it"), g.w.matter())
    city = g.rng.choice(("Milano", "Torino", "Bologna", "Verona"))
    value = f"il Tribunale di {city} come foro esclusivo"
    return _simple_instruction(value, f"the exclusive forum in drafts for {m.short}",
                               lambda v: f"Per {m.short} indica sempre {v} nelle bozze, mai l'arbitrato.",
                               "Capito - foro esclusivo in tutte le bozze per questo cliente.", g.rng)


def i_cc_registry(g: Gen) -> Plant:
    email = f"{g.w.paralegal.lower()}.docket@{g.w.domain}"
    value = f"cc {email} on anything that goes to the court registry"
    return _simple_instruction(value, "who is copied on everything sent to the court registry",
                               lambda v: f"also pls always {v}, {g.w.paralegal} keeps the physical file and the deadlines list",
                               f"Will do - {g.w.paralegal} in copy on every filing.", g.rng)


def i_memo_length(g: Gen) -> Plant:
    m = g.w.matter()
    n = g.rng.randrange(650, 1500, 50)
    value = f"under {n} words with the executive summary first"
    return _simple_instruction(value, f"the length and structure of client memos for {m.short}",
                               lambda v: f"client memos for {m.short} stay {v}. their board reads them on the train",
                               "Understood - short memos, summary up front.", g.rng)


def i_codename(g: Gen) -> Plant:
    m = g.w.by_kind("ma")
    code = g.rng.choice(FACT_CODENAMES)
    value = f"only use the codename Project {code} in file names and the data room index"
    return _simple_instruction(value, "how the new target is referred to in file names",
                               lambda v: f"new target for {m.short}, very sensitive. {v}, never the company name",
                               "Understood - codename only in file names and indexes.", g.rng)


def i_file_note(g: Gen) -> Plant:
    m = g.w.matter("litigation", "saas", "lease", "distribution")
    n = g.rng.choice((12, 18, 24, 36))
    value = f"a file note within {n} hours of every call with {m.opp[2]}"
    return _simple_instruction(value, f"what has to happen after calls with the other side in {m.short}",
                               lambda v: f"ok.\n\n{m.opp_name} has a habit of rewriting what was said on calls. I want {v}, saved in the matter folder.",
                               "Will do - I'll prompt you for the points after each call and save the note.")


def i_phone(g: Gen) -> Plant:
    m = g.w.matter()
    n = g.rng.randint(6, 14)
    value = f"emails to {m.client[2]} max {n} lines, no attachments over 5 MB"
    return _simple_instruction(value, f"the format of emails to {m.client[2]}",
                               lambda v: f"{m.client[2]} reads everything on the phone between meetings, so {v}",
                               "Got it - short emails, links instead of big attachments.", g.rng)


OTHER_INSTRUCTIONS = (i_wp_header, i_judge, i_spelling, i_autorenewal, i_cc_registry, i_memo_length, i_codename, i_file_note, i_phone, i_italian, i_french)


def draw_instructions(g: Gen, k: int) -> list[Plant]:
    rng = g.rng
    langs = [i_dutch, i_german]
    rng.shuffle(langs)
    first: list[Callable[[Gen], Plant]] = []
    if k >= 3:
        first += [i_playbook_nda, i_time_units, langs[0]]
    if k >= 8:
        first += [i_playbook_dpa, langs[1], i_file_note]
    rest = [f for f in OTHER_INSTRUCTIONS if f not in first]
    rng.shuffle(rest)
    chosen = (first + rest)[:k] if k >= 3 else rest[:k]
    return [f(g) for f in chosen]


StepFn = Callable[[Gen], tuple[str, dict[str, Any], Callable[[int], str]]]


def _exchange(g: Gen, text: str, step: StepFn | None, ack: str) -> int:
    i = g.user(text)
    if step is not None:
        tool, args, out = step(g)
        g.step(tool, args, out)
    g.say(ack)
    return i


def _correction(g: Gen, value: str, stale: str, query: str, pre_text: str, fix_text: str, pre_step: StepFn | None, fix_step: StepFn | None,
                pre_ack: str, fix_ack: str) -> Plant:
    assert value in fix_text and stale in pre_text and stale not in value and value not in stale
    _reserve(g, value, stale)
    return Plant("correction", value, query, lambda g, p: _exchange(g, fix_text, fix_step, fix_ack), stale=stale,
                 pre=lambda g: _exchange(g, pre_text, pre_step, pre_ack), pre_length=4 if pre_step else 2, length=4 if fix_step else 2)


def _swap(s: str, rng: random.Random) -> str:
    """``s`` with two adjacent different digits swapped (a transposition, the classic slip)."""
    spots = [i for i in range(len(s) - 1) if s[i].isdigit() and s[i + 1].isdigit() and s[i] != s[i + 1]]
    if not spots:
        return s[:-1] + str((int(s[-1]) + 1) % 10)
    i = rng.choice(spots[len(spots) // 2:] or spots)
    return s[:i] + s[i + 1] + s[i] + s[i + 2:]


def c_hearing(g: Gen) -> Plant:
    w = g.w
    m = w.by_kind("litigation")
    d1 = _fact_date(g, 40, 200, 10, 18)
    d2 = d1 + dt.timedelta(days=10)
    while d2.weekday() >= 5 or d2 in w.reserved_dates:
        d2 += dt.timedelta(days=1)
    w.reserved_dates.add(d2)
    stale, value = fmt_date(d1), fmt_date(d2)
    pre = f"oral hearing in {m.short} v {m.cp_short} is on {stale} at 10:00, pls put it in the calendar + block the afternoon before for prep"
    fix = g.rng.choice((f"sorry, the hearing is {value} not {stale} - misread the oproeping. pls move it and the prep block",
                        f"correction: {m.short} hearing is on {value}, not {stale}. move everything pls"))
    return _correction(g, value, stale, f"the date of the oral hearing in {m.title}", pre, fix,
                       lambda g: ("calendar", {"action": "create", "title": f"Hearing {m.short} v {m.cp_short}", "date": d1.isoformat(), "time": "10:00"},
                                  lambda s: calendar_created(w, f"Hearing {m.short} v {m.cp_short}", f"{d1.isoformat()}T10:00", [w.associate])),
                       lambda g: ("calendar", {"action": "move", "title": f"Hearing {m.short} v {m.cp_short}", "date": d2.isoformat(), "time": "10:00"},
                                  lambda s: calendar_created(w, f"Hearing {m.short} v {m.cp_short}", f"{d2.isoformat()}T10:00", [w.associate])),
                       f"In the calendar: hearing {stale} 10:00, prep block the afternoon before.", f"Moved: hearing now {value} at 10:00, prep block moved with it.")


def c_matter_number(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.matter()
    stale = _fresh(g, lambda: f"2025-0{rng.randint(100, 999)}")
    value = _swap(stale, rng)
    while value in w.taken or value == stale:
        stale = _fresh(g, lambda: f"2025-0{rng.randint(100, 999)}")
        value = _swap(stale, rng)
    w.taken.add(value)
    topic = rng.choice(("trademark clearance", "supplier audit", "works council issue", "debt collection", "franchise query"))
    pre = f"new matter for {m.short}: {topic}, number {stale}. log my 0.5h intake call there pls"
    fix = f"wrong matter number for the {topic} thing, it's {value} not {stale}. can u move the intake entry"
    return _correction(g, value, stale, f"the matter number of {m.short}'s {topic} matter", pre, fix,
                       lambda g: ("time_entry", {"action": "create", "matter": stale, "hours": 0.5, "narrative": "Intake call"}, lambda s: time_saved(w, stale, 0.5, "Intake call")),
                       lambda g: ("time_entry", {"action": "move", "from": stale, "to": value, "entry": "Intake call"}, lambda s: time_saved(w, value, 0.5, "Intake call")),
                       "Logged 0.5 h intake call.", "Moved the intake entry.")


def c_person(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.matter()
    surname = rng.choice(FACT_SURNAMES)
    a, b = rng.choice(FACT_FIRST_PAIRS)
    stale, value = f"{a} {surname}", f"{b} {surname}"
    dom = m.cp_short.lower() + ".com"
    pre = f"pls draft a short intro email to {stale} at {m.cp}, new GC there; cc {m.client[2]}"
    fix = rng.choice((f"no wait, the other {surname} - {value}, not {a}. {a} is in their HR team. redo the intro pls",
                      f"wrong {surname}! it's {value} who's the GC. pls redo"))

    def body(first: str) -> str:
        return f"Dear {first},\n\nCongratulations on your new role. We act for {m.client[0]} in {m.title} and look forward to working with you.\n\nKind regards,\n{w.first} {w.last}"
    return _correction(g, value, stale, f"the name of the new general counsel at {m.cp}", pre, fix,
                       lambda g: ("email_draft", {"to": f"{a.lower()}.{surname.lower()}@{dom}", "subject": "Introduction", "body": body(a)},
                                  lambda s: draft_saved(w, f"{a.lower()}.{surname.lower()}@{dom}", "Introduction", body(a))),
                       lambda g: ("email_draft", {"to": f"{b.lower()}.{surname.lower()}@{dom}", "subject": "Introduction", "body": body(b)},
                                  lambda s: draft_saved(w, f"{b.lower()}.{surname.lower()}@{dom}", "Introduction", body(b))),
                       "Intro draft is in Drafts.", "Redone - the new draft is addressed correctly; I deleted the first one.")


def c_authority(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.matter("litigation", "employment", "distribution")
    while True:
        x = rng.randrange(120_000, 480_000, 1_000)
        stale = money(x)
        value = _swap(stale, rng)
        if value != stale and not any(r in stale or r in value for r in w.reserved):
            break
    pre = f"{m.client[2]} called: authority to settle {m.title} up to {stale} all-in. pls draft the WP offer letter to {m.opp[1]}, open lower obviously"
    fix = f"correction on the {m.short} authority: it's {value}, not {stale} - I transposed the digits. redo the letter"
    return _correction(g, value, stale, f"the client's settlement authority in {m.title}", pre, fix,
                       None, None, "Drafting the WP letter with an opening offer well below the authority; I'll keep the authority itself out of the letter.",
                       "Noted - the letter stays the same since it doesn't mention the authority, but I've updated the file note with the correct figure.")


def c_claim_number(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.matter("litigation", "distribution", "licence")
    stale = _fresh(g, lambda: f"CL-2025-000{rng.randint(100, 999)}")
    value = _swap(stale[-4:], rng)
    value = stale[:-4] + value
    if value == stale or value in w.taken:
        value = stale[:-3] + str((int(stale[-3:]) + 9) % 900 + 100)
    _reserve(g, value)
    pre = f"{m.cp_short} issued against {m.short} in London, claim no. {stale}. pls set up a docket watch"
    fix = f"claim number is {value}, not {stale} - I read it off a bad scan"
    return _correction(g, value, stale, f"the claim number of {m.cp_short}'s London claim against {m.short}", pre, fix,
                       lambda g: ("docket_lookup", {"case": stale, "watch": True}, lambda s: f"No docket found for {stale} (CE-File sync pending). Watch registered; you will be notified of new entries."),
                       lambda g: ("docket_lookup", {"case": value, "watch": True}, lambda s: f"Docket watch moved to {value}.\n" + docket_sheet(w, m, s)),
                       "Docket watch set; nothing visible yet.", "Watch moved to the right claim number; the docket is above.")


def c_contract_ref(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.matter("saas", "distribution", "licence")
    pfx = m.cp_short[:3].upper()
    stale = _fresh(g, lambda: f"FA-{pfx}-{rng.randint(2015, 2022)}-{rng.randint(1000, 9999)}")
    value = stale[:-4] + _swap(stale[-4:], rng)
    if value == stale:
        value = stale[:-1] + str((int(stale[-1]) + 3) % 10)
    _reserve(g, value)
    path = _path(g, m, "correspondence", "notice_letter", "docx")
    pre = f"the framework contract with {m.cp_short} is {stale} in their system - pls use that ref in the notice letter and save it"

    cache: dict[str, str] = {}

    def text(ref: str) -> str:
        if ref not in cache:
            cache[ref] = letter_text(g, m).replace("Re: ", f"Re: framework agreement ref. {ref} - ", 1)
        return cache[ref]
    fix = f"their contract ref is {value}, not {stale} (checked the signed copy). fix the letter pls"
    return _correction(g, value, stale, f"{m.cp_short}'s reference for the framework contract", pre, fix,
                       lambda g: ("write_file", {"path": path, "content": text(stale)}, lambda s: write_ok(w, path, text(stale))),
                       lambda g: ("edit_file", {"path": path, "old": stale, "new": value}, lambda s: edit_ok(w, path, f"Re: framework agreement ref. {stale}", f"Re: framework agreement ref. {value}")),
                       f"Notice letter saved as {path}.", "Fixed the reference in the letter.")


def c_price(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.by_kind("ma")
    a = rng.randint(6, 38)
    b, c = rng.sample(range(1, 10), 2)
    stale, value = f"EUR {a}.{b} million", f"EUR {a}.{c} million"
    path = _path(g, m, "drafts", f"SPA_Project_{m.extra['code']}", "docx")
    pre = f"headline price for {m.extra['code']} is {stale} per the LOI, pls put it in cl. 3.1 of our SPA draft"
    fix = f"LOI says {value}, not {stale} - I was looking at the first-round bid. pls fix 3.1"
    return _correction(g, value, stale, f"the headline purchase price in Project {m.extra['code']}", pre, fix,
                       lambda g: ("edit_file", {"path": path, "old": "3.1 The Purchase Price is [*]", "new": f"3.1 The Purchase Price is {stale}"}, lambda s: edit_ok(w, path, "3.1 The Purchase Price is [*]", f"3.1 The Purchase Price is {stale}")),
                       lambda g: ("edit_file", {"path": path, "old": f"3.1 The Purchase Price is {stale}", "new": f"3.1 The Purchase Price is {value}"}, lambda s: edit_ok(w, path, stale, value)),
                       "Clause 3.1 updated.", "Clause 3.1 now has the LOI price.")


def c_end_date(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.by_kind("employment")
    d1 = _fact_date(g, -150, -40, 10, 28)
    d2 = d1 + dt.timedelta(days=rng.choice((28, 35, 61)))
    while d2.weekday() >= 5 or d2 in w.reserved_dates or d2.day < 10:
        d2 += dt.timedelta(days=1)
    w.reserved_dates.add(d2)
    stale, value = fmt_date(d1), fmt_date(d2)
    emp = m.extra["emp"]
    pre = f"{emp}'s employment ended on {stale}, so the 2-month term for the kantonrechter runs from there. diary it pls"
    fix = f"{emp}'s employment ended {value}, not {stale} - forgot the notice period. pls move the deadline too"
    return _correction(g, value, stale, f"the date {emp}'s employment ended", pre, fix,
                       lambda g: ("calendar", {"action": "create", "title": f"Deadline art. 7:686a BW - {emp}", "date": (d1 + dt.timedelta(days=61)).isoformat()},
                                  lambda s: calendar_created(w, f"Deadline art. 7:686a BW - {emp}", (d1 + dt.timedelta(days=61)).isoformat(), [w.associate])),
                       lambda g: ("calendar", {"action": "move", "title": f"Deadline art. 7:686a BW - {emp}", "date": (d2 + dt.timedelta(days=61)).isoformat()},
                                  lambda s: calendar_created(w, f"Deadline art. 7:686a BW - {emp}", (d2 + dt.timedelta(days=61)).isoformat(), [w.associate])),
                       "Diarised two months from that date, with a warning two weeks before.", "Deadline moved accordingly.")


def c_invoice(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.matter("litigation", "distribution", "saas")
    stale = _fresh(g, lambda: f"INV-2024-{rng.randint(1000, 9999)}")
    value = "INV-2024-" + _swap(stale[-4:], rng)
    if value == stale:
        value = stale[:-1] + str((int(stale[-1]) + 5) % 10)
    _reserve(g, value)
    amt = w.amount(4_000, 90_000, 10)
    path = _path(g, m, "litigation", "claim_overview", "xlsx")
    pre = f"the disputed invoice is {stale}, {amt}. pls add it to the claim overview"
    fix = f"wrong invoice no. - it's {value} not {stale}. fix the overview"
    return _correction(g, value, stale, f"the number of the disputed invoice in {m.title}", pre, fix,
                       lambda g: ("edit_file", {"path": path, "old": "| [next] |", "new": f"| {stale} | {amt} | disputed |"}, lambda s: edit_ok(w, path, "| [next] |", f"| {stale} | {amt} | disputed |")),
                       lambda g: ("edit_file", {"path": path, "old": stale, "new": value}, lambda s: edit_ok(w, path, stale, value)),
                       "Added to the overview.", "Overview corrected.")


def c_kvk(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.matter()
    stale = _fresh(g, lambda: f"KvK {rng.randint(60_000_000, 99_999_999)}")
    value = "KvK " + _swap(stale[4:], rng)
    _reserve(g, value)
    pre = f"the new Dutch entity for {m.short} has {stale}. pls run the conflict check on it"
    fix = f"sorry, {value} - not {stale}. rerun conflicts pls"
    return _correction(g, value, stale, f"the chamber of commerce number of {m.short}'s new Dutch entity", pre, fix,
                       lambda g: ("doc_search", {"source": "conflicts", "query": stale}, lambda s: conflict_check(w, m, s, stale)),
                       lambda g: ("doc_search", {"source": "conflicts", "query": value}, lambda s: conflict_check(w, m, s, value)),
                       "Conflict check done on that number.", "Rerun on the correct number.")


def c_address(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.matter()
    street = rng.choice(FACT_STREETS)
    n = rng.randint(102, 987)
    while len(set(str(n))) < 3 or "0" in str(n):
        n = rng.randint(102, 987)
    stale = f"{street} {n}"
    value = f"{street} {_swap(str(n), rng)}"
    path = _path(g, m, "lease", "heads_of_terms", "docx")
    pre = f"the new premises for {m.short} are at {stale}, Amsterdam. put that in the heads of terms pls"
    fix = f"address is {value}, not {stale}. typo in the agent's email. fix the HoT"
    return _correction(g, value, stale, f"the address of {m.short}'s new premises", pre, fix,
                       lambda g: ("edit_file", {"path": path, "old": "Premises: [address]", "new": f"Premises: {stale}, Amsterdam"}, lambda s: edit_ok(w, path, "Premises: [address]", f"Premises: {stale}, Amsterdam")),
                       lambda g: ("edit_file", {"path": path, "old": stale, "new": value}, lambda s: edit_ok(w, path, f"Premises: {stale}, Amsterdam", f"Premises: {value}, Amsterdam")),
                       "Heads of terms updated.", "Fixed.")


def c_policy(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.matter()
    stale = _fresh(g, lambda: f"PL-{rng.randint(100_000, 999_999)}")
    value = "PL-" + _swap(stale[3:], rng)
    _reserve(g, value)
    ins = rng.choice(FACT_INSURERS)
    to = f"claims@{ins.split()[0].lower()}.nl"
    pre = f"D&O policy no. is {stale}, pls put it in the claim notification to {ins}"
    fix = f"policy number is {value} not {stale}, sorry"

    def body(ref: str) -> str:
        return f"Dear Sirs,\n\nOn behalf of {m.client[0]} we notify a circumstance under policy {ref}. Details of the claim by {m.cp} are attached.\n\nKind regards,\n{w.first} {w.last}"
    return _correction(g, value, stale, f"the policy number for {m.short}'s D&O claim notification", pre, fix,
                       lambda g: ("email_draft", {"to": to, "subject": f"Notification of circumstances - {stale}", "body": body(stale)}, lambda s: draft_saved(w, to, "Notification of circumstances", body(stale))),
                       lambda g: ("email_draft", {"to": to, "subject": f"Notification of circumstances - {value}", "body": body(value)}, lambda s: draft_saved(w, to, "Notification of circumstances", body(value))),
                       "Notification drafted.", "Redrafted with the right number.")


def c_iban(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.by_kind("ma")
    groups = [f"{rng.randint(1000, 9999)}" for _ in range(2)]
    stale = f"NL{rng.randint(10, 99)} ABNA 0{rng.randint(100, 999)} {groups[0]} {groups[1][:2]}"
    value = stale[:-7] + _swap(groups[0], rng) + " " + groups[1][:2]
    if value == stale:
        value = stale[:-1] + str((int(stale[-1]) + 1) % 10)
    path = _path(g, m, "closing", "funds_flow", "md")
    pre = f"escrow account for {m.extra['code']}: {stale}. pls put it in the funds flow memo"
    fix = f"escrow IBAN is {value}, not {stale}. please fix the funds flow before it goes anywhere"
    return _correction(g, value, stale, f"the escrow account number in Project {m.extra['code']}", pre, fix,
                       lambda g: ("write_file", {"path": path, "content": f"FUNDS FLOW - Project {m.extra['code']}\n\nEscrow account: {stale}\nPurchase price: see SPA 3.1\n"}, lambda s: write_ok(w, path, "x" * 180)),
                       lambda g: ("edit_file", {"path": path, "old": stale, "new": value}, lambda s: edit_ok(w, path, f"Escrow account: {stale}", f"Escrow account: {value}")),
                       "Funds flow memo saved.", "Corrected.")


CORRECTIONS = (c_hearing, c_matter_number, c_person, c_authority, c_claim_number, c_contract_ref, c_price, c_end_date, c_invoice, c_kvk, c_address,
               c_policy, c_iban)


def _decision(g: Gen, topic: str, a: str, r: str, b: str, r2: str, query: str, revised: bool) -> Plant:
    rng = g.rng
    first = rng.choice((f"ok, decision on {topic}: we {a}, because {r}.", f"let's {a} - {r}.", f"thought about it overnight. we'll {a}. reason: {r}.",
                        f"{topic}: I've decided we {a}. {r[0].upper() + r[1:]}."))
    ack_a = rng.choice((f"Noted: we {a}. I'll prepare accordingly.", "Understood - I'll work on that basis.", "OK. I'll update the file note with the decision and the reason."))
    if not revised:
        _reserve(g, a)
        if rng.random() < 0.45:  # with an email to the client about it
            return Plant("decision", a, query, lambda g, p: _exchange(g, first + " " + rng.choice(("pls let the client know.", "draft a short note to the client on it", "email to the client pls")),
                                                                        lambda g: _client_note(g, topic), ack_a), length=4)
        return Plant("decision", a, query, lambda g, p: _exchange(g, first, None, ack_a), length=2)
    second = rng.choice((f"change of plan on {topic}: we'll {b} after all - {r2}. so not what I said before",
                         f"scrap what I said about {topic}. we {b}, since {r2}.", f"update on {topic}: {r2}, so we {b}."))
    ack_b = rng.choice((f"Understood - we now {b}. I'll adjust the drafts.", "Noted, I'll change course and update the file note.", "OK - switching to the new approach."))
    _reserve(g, a, b)
    return Plant("decision", b, query, lambda g, p: _exchange(g, second, None, ack_b), stale=a, pre=lambda g: _exchange(g, first, None, ack_a), length=2)


def _client_note(g: Gen, topic: str) -> tuple[str, dict[str, Any], Callable[[int], str]]:
    """An email draft to a client explaining a decision (without repeating its words)."""
    m, w, rng = g.m(), g.w, g.rng
    to = f"{m.client[2].split()[0].lower()}@{m.client[1].lower()}.com"
    fmt = {"c": m.short, "cp": m.cp_short, "y": rng.randint(2017, 2023), "d": w.day("en", -90, -5), "n": rng.randint(4, 22)}
    paras = [p.format(**fmt) for pool in MEMO_PARAS.values() for p in rng.sample(pool, 1)]
    body = f"Dear {m.client[2].split()[0]},\n\nFollowing our call, a short note on {topic} and the way forward.\n\n" + "\n\n".join(paras) + f"\n\nKind regards,\n{w.first}"
    return "email_draft", {"to": to, "subject": f"{topic} - next steps", "body": body}, lambda s: draft_saved(w, to, f"{topic} - next steps", body)


def d_forum(g: Gen, revised: bool) -> Plant:
    m, rng = g.w.by_kind("litigation"), g.rng
    city = rng.choice(("Amsterdam", "Rotterdam", "Den Haag", "Utrecht"))
    n = rng.randint(6, 14)
    return _decision(g, f"the {m.short} claim", f"start a kort geding in {city} this month", "every week of the supply stop costs the client real money",
                     f"issue a full claim on the merits with a {n}-week timetable", "counsel thinks the urgency won't survive the first hearing",
                     f"how the {m.short} claim will be brought", revised)


def d_settle(g: Gen, revised: bool) -> Plant:
    m, w = g.w.matter("litigation", "distribution", "employment"), g.w
    a1, a2 = w.amount(40_000, 140_000, 2_500), w.amount(150_000, 260_000, 2_500)
    return _decision(g, f"settlement in {m.short}", f"counter at {a1} all-in", "the witness evidence on the oral side deal is thin",
                     f"accept their {a2} if each side bears its own costs", "the client wants it off the books before the audit",
                     f"the settlement position in {m.title}", revised)


def d_cap(g: Gen, revised: bool) -> Plant:
    m, w, rng = g.w.by_kind("saas"), g.w, g.rng
    n = rng.choice((9, 15, 18))
    return _decision(g, f"the {m.cp_short} liability cap", f"accept the {n}-month fee cap but keep data breaches uncapped",
                     "the client's data is the real exposure, not the fees", f"agree a super-cap of {w.amount(1_000_000, 5_000_000, 250_000)} for data breaches",
                     f"{m.cp_short} will not sign anything uncapped and the client needs the platform live in Q2", f"the position on the liability cap with {m.cp_short}", revised)


def d_exit(g: Gen, revised: bool) -> Plant:
    m, rng = g.w.by_kind("employment"), g.rng
    emp = m.extra["emp"]
    x = rng.choice((3, 4, 5, 7))
    return _decision(g, f"{emp}", f"offer {emp} a settlement agreement with {x} months' gross salary",
                     "a dismissal request risks a billijke vergoeding on top", f"file the ontbindingsverzoek for {emp} on the d-ground",
                     "the offer was refused and the performance file is now solid", f"how the employment of {emp} will be ended", revised)


def d_break(g: Gen, revised: bool) -> Plant:
    m, rng = g.w.by_kind("lease"), g.rng
    addr = m.extra["addr"].split(",")[0]
    return _decision(g, f"the {addr} lease", f"exercise the break for {addr} at the first break date", "the client needs half the space after the reorganisation",
                     f"stay at {addr} and negotiate {rng.choice((6, 9, 12))} months rent-free", "the landlord's agent signalled a big incentive to stay",
                     f"what the client does with the {addr} lease", revised)


def d_dpa(g: Gen, revised: bool) -> Plant:
    m = g.w.by_kind("dpa")
    return _decision(g, f"the {m.cp_short} DPA", f"sign {m.cp_short}'s DPA with our two-page rider", "they won't negotiate their paper for a client this size",
                     f"push our own DPA template on {m.cp_short}", "their DPA turned out to allow transfers to any group company worldwide",
                     f"which DPA paper is used with {m.cp_short}", revised)


def d_indemnity(g: Gen, revised: bool) -> Plant:
    m, w, rng = g.w.by_kind("ma"), g.w, g.rng
    issue = rng.choice(("open VAT audit", "AGPL component in the platform", "former distributor's goodwill claim", "missing works council advice"))
    return _decision(g, f"the {issue}", f"ask for a specific indemnity for the {issue}", "we can't price a risk whose outcome nobody knows yet",
                     f"take a price reduction of {w.amount(150_000, 900_000, 25_000)} for the {issue}", "the seller refuses any indemnity and the client wants to sign this month",
                     f"how the {issue} is dealt with in Project {m.extra['code']}", revised)


def d_extension(g: Gen, revised: bool) -> Plant:
    m, rng = g.w.by_kind("litigation"), g.rng
    n = rng.choice((4, 6, 8))
    return _decision(g, f"the {m.short} defence", f"ask {m.opp[1]} for a {n}-week extension for the defence", "the expert needs the production data first",
                     "file the defence on time and hold the expert evidence back for the reply", "the judge refused the last two extensions in this court",
                     f"the timing of the defence in {m.title}", revised)


def d_counsel(g: Gen, revised: bool) -> Plant:
    m, w, rng = g.w.matter("litigation", "distribution"), g.w, g.rng
    b = rng.choice(FACT_BARRISTERS)
    return _decision(g, f"the {m.short} hearing", f"instruct {b} for the hearing", "the judge is known to test the law hard",
                     f"do the {m.short} hearing in-house with {w.associate} as second chair", "the client's budget won't stretch to counsel",
                     f"who argues the hearing in {m.title}", revised)


def d_wi(g: Gen, revised: bool) -> Plant:
    m, rng = g.w.by_kind("ma"), g.rng
    broker = rng.choice(FACT_INSURERS)
    p = rng.choice((7, 8, 12))
    return _decision(g, f"Project {m.extra['code']} risk allocation", f"use W&I insurance through {broker} instead of an escrow",
                     "the seller is a fund that wants a clean exit", f"go with a {p}% escrow for 18 months and no W&I",
                     "the W&I quotes excluded the two risks we care about", f"the risk allocation in Project {m.extra['code']}", revised)


def d_distribution(g: Gen, revised: bool) -> Plant:
    m, rng = g.w.by_kind("distribution"), g.rng
    n = rng.choice((9, 14, 16))
    return _decision(g, f"terminating {m.cp_short}", f"terminate the {m.cp_short} distribution agreement with {n} months' notice",
                     "a shorter period risks a claim for brutal termination", f"renegotiate the {m.cp_short} territory instead of terminating",
                     "they offered to give up two countries", f"how the distribution relationship with {m.cp_short} ends", revised)


def d_licence(g: Gen, revised: bool) -> Plant:
    m, rng = g.w.by_kind("licence"), g.rng
    return _decision(g, f"the {m.cp_short} royalty audit", f"let {rng.choice(('KPMG', 'BDO', 'Grant Thornton', 'Mazars'))} run the royalty audit at {m.cp_short}",
                     "the licence gives us one audit a year and we haven't used it", f"settle the {m.cp_short} royalty shortfall without an audit",
                     "the audit fees would exceed the likely shortfall", f"how the royalty shortfall at {m.cp_short} is handled", revised)


DECISIONS = (d_forum, d_settle, d_cap, d_exit, d_break, d_dpa, d_indemnity, d_extension, d_counsel, d_wi, d_distribution, d_licence)


def draw_decisions(g: Gen, k: int) -> list[Plant]:
    rng = g.rng
    chosen = rng.sample(DECISIONS, k) if k <= len(DECISIONS) else [rng.choice(DECISIONS) for _ in range(k)]
    revised = max(1, k // 3) if k >= 2 else 0
    flags = [True] * revised + [False] * (k - revised)
    rng.shuffle(flags)
    return [f(g, flag) for f, flag in zip(chosen, flags)]


def _tool_error(g: Gen, value: str, query: str, ask: str, tool: str, args: dict[str, Any], context: list[str], after: str,
                retry: StepFn | None = None, after_retry: str = "") -> Plant:
    """A failing tool call: the error text holds ``value`` among other lines; a retry may pass (``resolved``)."""
    _reserve(g, value)

    def emit(g: Gen, p: Plant) -> int:
        g.user(ask)
        (cid,) = g.call([(tool, args)], g.note(tool))
        lines = list(context)
        lines.insert(g.rng.randint(1, len(lines)), value)
        i = g.result(cid, "\n".join(lines))
        if retry is not None:
            t2, a2, out = retry(g)
            (cid2,) = g.call([(t2, a2)], g.rng.choice(("Retrying.", "Trying again.", "Let me try another way.")))
            p.resolved = g.result(cid2, out(g.size()))
            g.say(after_retry)
        else:
            g.say(after)
        return i
    return Plant("error", value, query, emit, length=6 if retry else 4, offset=2)


def _pasted_error(g: Gen, value: str, query: str, intro: str, screen: list[str], outro: str, answer_text: str) -> Plant:
    _reserve(g, value)

    def emit(g: Gen, p: Plant) -> int:
        lines = list(screen)
        lines.insert(g.rng.randint(1, len(lines)), value)
        paste = "\n".join(lines)
        i = g.user(f"{intro}\n\n{paste}\n\n{outro}", [paste])
        g.say(answer_text)
        return i
    return Plant("error", value, query, emit, length=2)


def e_wall(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.matter()
    value = f"403 Forbidden: workspace {m.number} is behind ethical wall EW-{rng.randint(1000, 9999)} for user {w.initials.lower()}01"
    return _tool_error(g, value, "why the DMS search in a workspace failed", casual(rng, f"search {m.short}'s workspace for the signed side letter pls"),
                       "doc_search", {"matter": m.number, "query": "side letter signed"},
                       ["doc_search failed", f"hint: ask the wall owner (risk@{w.domain}) to add you", f"trace id {_hex(rng, 16)}"],
                       f"The DMS blocks me: the {m.short} workspace sits behind an ethical wall and my user isn't on it. Can you ask risk to add the agent account, or send me the document?")


def e_timeout(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.by_kind("litigation")
    portal = rng.choice(("rechtspraak.nl docket service", "CE-File gateway", "beA Gerichtsportal"))
    value = f"GatewayTimeout: {portal} did not respond within 30 s (request id {_hex(rng, 12)})"
    case = m.extra["case"]
    return _tool_error(g, value, "why the docket lookup failed the first time", casual(rng, f"check the docket for {case} pls, anything new since last week?"),
                       "docket_lookup", {"case": case}, ["docket_lookup: upstream error", "retryable: true"], "",
                       lambda g: ("docket_lookup", {"case": case, "retry": 1}, lambda s: docket_sheet(w, m, s)),
                       "The portal timed out once; the retry worked. Nothing new since last week except a court entry on the roll.")


def e_pdf(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.matter("ma", "litigation")
    fname = rng.choice(("Disclosure_Letter_EXECUTED_signed.pdf", "Productie_14_bankafschriften.pdf", "Share_transfer_deed_2019.pdf", "Expert_report_final_signed.pdf"))
    value = f"PDFSyntaxError: xref table damaged at byte offset {rng.randint(10_000, 990_000)} in '{fname}'"
    return _tool_error(g, value, f"why {fname} could not be read", casual(rng, f"read {fname} and tell me what's in schedule 3"),
                       "doc_read", {"matter": m.number, "name": fname}, ["doc_read failed while parsing the document", "pages extracted: 0", "suggestion: request a fresh export or run OCR"],
                       f"I can't open {fname}: the PDF itself is damaged. Could you ask the sender for a fresh copy? In the meantime I can try OCR on a scan if you have one.")


def e_conflict409(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.matter()
    d = w.date(10, 60)
    title = f"Call {m.client[2]} - {m.title}"[:60]
    evt = f"evt_{_hex(rng, 8)}"
    h = rng.randint(9, 15)
    value = f"409 Conflict: '{title}' overlaps existing event {evt} ({h:02d}:00-{h + 1:02d}:30)"
    return _tool_error(g, value, "why the calendar refused the call with the client", casual(rng, f"put a call with {m.client[2]} in on {fmt_date(d, 'short')} at {h}:00 pls"),
                       "calendar", {"action": "create", "title": title, "date": d.isoformat(), "time": f"{h:02d}:00"}, ["calendar: event not created", "policy: no double booking on the primary calendar"], "",
                       lambda g: ("calendar", {"action": "create", "title": title, "date": d.isoformat(), "time": f"{h + 2:02d}:00"},
                                  lambda s: calendar_created(w, title, f"{d.isoformat()}T{h + 2:02d}:00", [m.client[2]])),
                       f"That slot clashed with an existing event, so I booked {h + 2}:00 the same day instead. Tell me if you'd rather move the other event.")


def e_irm(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.matter("saas", "ma", "licence")
    fname = f"{m.docs[0][1].rsplit('.', 1)[0]}_{m.opp[1]}_comments.docx"
    value = f"CompareError 0x{_hex(rng, 4)}: '{fname}' is password-protected (IRM policy '{m.opp[2]} - Confidential')"
    return _tool_error(g, value, "why the comparison with the other side's markup failed", casual(rng, f"compare {m.opp[1]}'s markup with our last draft pls"),
                       "redline_compare", {"base": m.docs[0][0], "compare": fname}, ["redline_compare: cannot open the comparison document", "0 changes computed"],
                       f"{m.opp[1]}'s file is rights-protected, so I can't compare it. Could you ask them for an unprotected version or a PDF compare?")


def e_clause_key(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    key = f"{rng.choice(('nda', 'dpa', 'msa', 'spa'))}.{rng.choice(('nonsolicit', 'audit', 'escrow', 'residuals'))}.{rng.choice(('mutual', 'oneway', 'fallback'))}.v{rng.randint(4, 9)}"
    value = f"KeyError: clause '{key}' not in library index {rng.randint(2024, 2025)}.{rng.randint(1, 12):02d}.{rng.randint(1, 9)}"
    m = w.matter()
    return _tool_error(g, value, "why the clause library lookup failed", casual(rng, f"get me our {key.split('.')[1]} clause from the library, {key.split('.')[2]} version"),
                       "clause_library", {"key": key}, ["clause_library: lookup failed", "did you mean: " + rng.choice(CLAUSE_KEYS)], "",
                       lambda g: ("clause_library", {"search": key.split(".")[1]}, lambda s: clause_entry(w, m, s)),
                       "That exact key doesn't exist in the current index; a search found the closest clause, above.")


def e_smtp(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.matter("litigation", "ma")
    fname = f"Bundle_volume_{rng.randint(2, 6)}_{m.short}.pdf"
    mb = rng.randint(26, 90) + rng.randint(0, 9) / 10
    value = f"552 5.3.4 Message size exceeds fixed limit ({mb} MB > 25 MB) for '{fname}'"
    return _tool_error(g, value, "why the email with the bundle could not be drafted", casual(rng, f"draft an email to {m.opp_name} with {fname} attached"),
                       "email_draft", {"to": m.opp_email, "subject": m.title, "attachments": [fname]}, ["email_draft: draft not saved", "the relay rejected the attachment"],
                       "The attachment is too large for email. I'd share it through the firm's file transfer link instead - shall I draft the email with a link?")


def e_closed(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    num = _fresh(g, lambda: f"2022-0{rng.randint(100, 999)}")
    value = f"ValidationError: matter {num} is closed for time recording since {w.day('iso', -200, -40)} (code TR-{rng.randint(10, 99)})"
    m = w.matter()
    return _tool_error(g, value, "why the time entry was refused", casual(rng, f"log 0.4 on {num}, call with {m.client[2]} about the old file"),
                       "time_entry", {"action": "create", "matter": num, "hours": 0.4, "narrative": "Call with client re old file"}, ["time_entry: entry not saved"],
                       f"{num} is closed for time recording. Do you want me to book it to {m.number} instead, or ask finance to reopen the old matter?")


def e_quota(g: Gen) -> Plant:
    rng = g.rng
    lic = f"LIC-{rng.randint(10_000, 99_999)}"
    value = f"429 Too Many Requests: research quota for licence {lic} exhausted, resets {rng.randint(0, 23):02d}:00 UTC"
    q = rng.choice(CASE_QUERIES)
    return _tool_error(g, value, "why the case law search failed", casual(rng, f"more case law pls on {q}, anything after 2020"),
                       "case_law_search", {"query": q, "since": 2020}, ["case_law_search: request refused by the research provider"],
                       "The research provider has cut us off for today (quota). I can search rechtspraak.nl directly once it resets, or you could run it from your own login.")


def e_hold(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.matter()
    path = f"matters/{m.number}/archive/{rng.choice(('pleadings', 'correspondence', 'closing'))}/index.md"
    value = f"PermissionError: [Errno 13] '{path}' is under records hold RH-{rng.randint(10, 99)}"
    alt = _path(g, m, "notes", "archive_index_copy", "md")
    return _tool_error(g, value, "why writing the archive index failed", casual(rng, f"update the archive index for {m.short} with the new documents"),
                       "write_file", {"path": path, "content": "INDEX\n..."}, ["write_file: nothing written"], "",
                       lambda g: ("write_file", {"path": alt, "content": "INDEX (working copy)\n"}, lambda s: write_ok(w, alt, "INDEX (working copy)\n")),
                       f"The archive folder is under a records hold, so I saved a working copy as {alt} instead.")


def e_ocr(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.by_kind("lease")
    fname = f"Huurovereenkomst_{rng.randint(1994, 2006)}_allonge_scan.pdf"
    value = f"OCRQualityError: confidence {rng.randint(21, 58)}% below threshold on page {rng.randint(2, 14)} of '{fname}'"
    return _tool_error(g, value, "why the scanned lease allonge could not be read", casual(rng, f"what does the allonge to the {m.extra['addr'].split(',')[0]} lease say about the service charges?"),
                       "doc_read", {"matter": m.number, "name": fname, "ocr": True}, ["doc_read: partial text only", "pages below threshold were skipped"],
                       "Part of the allonge is unreadable in the scan. Is there a better copy? The landlord should have the original.")


def e_etag(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.matter()
    path = _path(g, m, "drafts", "issues_list", "docx")
    value = f"EditConflict: '{path}' changed since it was read (etag {_hex(rng, 8)} != {_hex(rng, 8)})"
    old, new = "Status: open", "Status: agreed on call"
    return _tool_error(g, value, "why the edit of the issues list failed the first time", casual(rng, f"mark the cap point as agreed in the {m.short} issues list"),
                       "edit_file", {"path": path, "old": old, "new": new}, ["edit_file: no changes written"], "",
                       lambda g: ("edit_file", {"path": path, "old": old, "new": new, "reload": True}, lambda s: edit_ok(w, path, old, new)),
                       f"Someone (probably {w.associate}) had the issues list open; I reloaded and made the change.")


def e_kei(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.by_kind("litigation")
    fname = f"conclusie_van_antwoord_{m.cp_short}_v{rng.randint(3, 9)}.pdf"
    value = f"Foutcode KEI-{rng.randint(1000, 9999)}: het bestand '{fname}' bevat een ongeldige elektronische handtekening"
    return _pasted_error(g, value, "the error the court portal gave when uploading the defence", "got this from the court portal when uploading, wtf:",
                         ["Mijn Rechtspraak - Indienen stuk", f"Zaak: {m.extra['case']}", "Status: niet ingediend", "Neem contact op met de servicedesk als het probleem zich blijft voordoen."],
                         "can you check the pdf? deadline is today",
                         "The portal rejects the file because of the signature, not the content. Re-export the PDF without the embedded signature and sign it through the portal itself; that usually fixes it.")


def e_cefile(g: Gen) -> Plant:
    rng = g.rng
    sub = f"SUB-{rng.randint(100_000, 999_999)}"
    value = f"Submission {sub} rejected: fee account PBA{rng.randint(1_000_000, 9_999_999)} has insufficient funds for fee code FEE{rng.randint(1000, 9999)}"
    return _pasted_error(g, value, "why the CE-File submission was rejected", "CE-File bounced our filing, screenshot text below",
                         ["CE-File - Submission status", "Court: Business and Property Courts", "Document: Defence and Counterclaim", "Please correct the problem and resubmit."],
                         "who do I call?", "That's a payment problem on the fee account, not the document. Finance can top up the PBA account; then resubmit - the filing date is the date of the new submission.")


def e_docusign(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.matter("ma", "saas", "licence")
    env = f"{_hex(rng, 8)}-{_hex(rng, 4)}-{_hex(rng, 4)}-{_hex(rng, 4)}-{_hex(rng, 12)}"
    value = f"Envelope {env} voided: recipient authentication failed (SMS) for {m.client[2]}"
    return _pasted_error(g, value, "why the signing envelope was voided", "client forwarded this from DocuSign:",
                         ["DocuSign notification", f"Subject: Please sign - {m.title}", "The sender has been notified."], "can we resend?",
                         f"Yes - the envelope was voided because {m.client[2]} failed the SMS check (probably an old phone number). Send me the right number and I'll prepare a new envelope.")


TOOL_ERRORS = (e_wall, e_timeout, e_pdf, e_conflict409, e_irm, e_clause_key, e_smtp, e_closed, e_quota, e_hold, e_ocr, e_etag)
PASTED_ERRORS = (e_kei, e_cefile, e_docusign)


def draw_errors(g: Gen, k: int) -> list[Plant]:
    rng = g.rng
    pasted = min(len(PASTED_ERRORS), k // 4)
    chosen = rng.sample(PASTED_ERRORS, pasted) + rng.sample(TOOL_ERRORS, min(len(TOOL_ERRORS), k - pasted))
    rng.shuffle(chosen)
    return [f(g) for f in chosen]


def _file(g: Gen, path: str, query: str, ask: str, tool: str, content: Callable[[], str] | tuple[str, str], after: str) -> Plant:
    """The agent writes or edits ``path`` with exactly one tool call; the path is the value."""
    _reserve(g, path)

    def emit(g: Gen, p: Plant) -> int:
        g.user(ask)
        if tool == "write_file":
            text = content() if callable(content) else content[0]
            args: dict[str, Any] = {"path": path, "content": text}
            out = write_ok(g.w, path, text)
        else:
            old, new = content if isinstance(content, tuple) else ("", "")
            args = {"path": path, "old": old, "new": new}
            out = edit_ok(g.w, path, old, new)
        (cid,) = g.call([(tool, args)], g.rng.choice((None, "Drafting it now.", "Writing the file.", "Making the change.")))
        i = len(g.msgs) - 1
        g.result(cid, out)
        g.say(after.format(path=path))
        return i
    return Plant("file", path, query, emit, length=4, offset=1)


def _fact_path(g: Gen, m: Matter, folder: str, stem: str, ext: str) -> str:
    return _fresh(g, lambda: f"matters/{m.number}/{folder}/{g.w.day('iso', -5, 0).replace('-', '')}_{stem}.{ext}")


def f_wp_letter(g: Gen) -> Plant:
    m = g.w.matter("litigation", "distribution", "employment")
    path = _fact_path(g, m, "correspondence", f"letter_to_{m.opp[1]}_WP_v{g.rng.randint(2, 5)}", "docx")
    return _file(g, path, f"where the without prejudice letter to {m.opp_name} was saved", casual(g.rng, f"draft the WP letter to {m.opp[1]} proposing a meeting and save it in the file"),
                 "write_file", lambda: letter_text(g, m), "Saved as {path}. It proposes a without prejudice meeting and reserves all rights.")


def f_redline_memo(g: Gen) -> Plant:
    m = g.w.matter("saas", "licence", "distribution", "nda")
    n = g.rng.randint(6, 19)
    path = _fact_path(g, m, "memos", f"redline_memo_{m.cp_short}_cl{n}", "md")
    return _file(g, path, f"where the memo on {m.cp_short}'s redline of clause {n} was saved", casual(g.rng, f"write up the cl. {n} redline points in a short memo for the client"),
                 "write_file", lambda: memo_text(g, m, f"redline of clause {n}"), "Memo saved: {path}.")


def f_dd_section(g: Gen) -> Plant:
    m = g.w.by_kind("ma")
    topic = g.rng.choice(("employment", "real_estate", "ip_it", "data_protection", "litigation"))
    path = _fact_path(g, m, "dd", f"DD_report_section_{topic}", "docx")
    label = {"ip_it": "IP/IT", "real_estate": "real estate", "data_protection": "data protection"}.get(topic, topic)
    return _file(g, path, f"the file holding the {label} section of the DD report", casual(g.rng, f"add the red flag on the {label} side to the DD report section"),
                 "edit_file", ("Red flags: none identified.", "Red flags: see item 1 - risk rating medium, recommendation: specific indemnity."), "Updated {path}.")


def f_chronology(g: Gen) -> Plant:
    m = g.w.by_kind("employment")
    path = _fact_path(g, m, "litigation", f"chronology_{m.extra['emp'].split()[-1].lower()}_full", "csv")
    rows = "date;event\n" + "\n".join(f"{g.w.day('iso', -500, -10)};{g.rng.choice(NARRATIVES).format(d='file', p=m.client[2], t='facts', n=1, o=m.opp_name)}" for _ in range(25))
    return _file(g, path, f"where the chronology of the {m.extra['emp']} dispute was saved", casual(g.rng, f"full chronology of the {m.extra['emp']} file pls, as csv"),
                 "write_file", (rows, ""), "Chronology saved as {path}.")


def f_file_note(g: Gen) -> Plant:
    m = g.w.matter()
    who = m.opp[1].lower()
    path = _fact_path(g, m, "notes", f"file_note_call_{who}", "md")
    text = f"FILE NOTE - call with {m.opp_name}\n\n- they want to close before the end of the quarter\n- open points: cap, audit, governing law\n- next call in two weeks"
    return _file(g, path, f"where the note of the call with {m.opp_name} was saved", casual(g.rng, f"file note of my call with {m.opp[0]} pls: end of quarter, cap/audit/law open, next call 2 weeks"),
                 "write_file", (text, ""), "File note saved as {path}.")


def f_skeleton(g: Gen) -> Plant:
    m = g.w.by_kind("litigation")
    path = _fact_path(g, m, "hearing", f"skeleton_argument_{m.short}_v{g.rng.randint(2, 4)}", "docx")
    return _file(g, path, f"where the skeleton argument for the {m.short} hearing was saved", casual(g.rng, "first draft of the skeleton argument pls, main points only"),
                 "write_file", lambda: memo_text(g, m, "skeleton argument"), "Draft skeleton saved as {path}.")


def f_vso(g: Gen) -> Plant:
    m = g.w.by_kind("employment")
    path = _fact_path(g, m, "drafts", f"VSO_{m.extra['emp'].split()[-1]}_concept_v{g.rng.randint(1, 3)}", "docx")
    text = ("VASTSTELLINGSOVEREENKOMST\n\n1. De arbeidsovereenkomst eindigt met wederzijds goedvinden.\n2. Werkgever betaalt een vergoeding.\n"
            "3. Partijen verlenen elkaar finale kwijting.\n4. Werknemer heeft een bedenktermijn van veertien dagen (art. 7:670b BW).")
    return _file(g, path, f"where the draft settlement agreement for {m.extra['emp']} was saved", casual(g.rng, f"draft the VSO for {m.extra['emp']}, standard terms"),
                 "write_file", (text, ""), "Concept VSO saved as {path}.")


def f_nda_markup(g: Gen) -> Plant:
    m = g.w.by_kind("nda")
    path = _fact_path(g, m, "drafts", f"NDA_{m.cp_short}_markup_{g.w.initials}", "docx")
    return _file(g, path, f"the file with our markup of the {m.cp_short} NDA", casual(g.rng, f"take out the penalty clause in the {m.cp_short} NDA markup"),
                 "edit_file", ("8.2 For every breach of this Agreement the Recipient shall forfeit", "8.2 [Deleted.]"), "Penalty clause deleted in {path}.")


def f_rider(g: Gen) -> Plant:
    m = g.w.by_kind("dpa")
    path = _fresh(g, lambda: f"templates/dpa/rider_{m.cp_short.lower()}_{g.rng.randint(2025, 2026)}_{g.rng.choice(('a', 'b', 'c'))}.md")
    text = "DPA RIDER\n\n1. Precedence.\n2. Instructions.\n3. Sub-processors: right to object and terminate.\n4. Audits.\n5. Breach notification.\n6. Deletion."
    return _file(g, path, f"where the DPA rider for {m.cp_short} was saved", casual(g.rng, f"make a {m.cp_short}-specific version of our rider and save it with the templates"),
                 "write_file", (text, ""), "Rider saved as {path}.")


def f_resolution(g: Gen) -> Plant:
    m = g.w.by_kind("ma")
    path = _fact_path(g, m, "corporate", f"board_resolution_{m.extra['code'].lower()}_signing", "docx")
    text = "WRITTEN RESOLUTION OF THE MANAGEMENT BOARD\n\nThe undersigned resolve to approve the transaction and to grant a power of attorney."
    return _file(g, path, "where the board resolution for signing was saved", casual(g.rng, "board resolution for the signing pls, written resolution format"),
                 "write_file", (text, ""), "Board resolution saved as {path}.")


def f_hot(g: Gen) -> Plant:
    m = g.w.by_kind("lease")
    path = _fact_path(g, m, "lease", f"HoT_{m.extra['addr'].split()[0]}_markup", "docx")
    return _file(g, path, "the file with our markup of the lease heads of terms", casual(g.rng, "in the HoT markup change the rent-free period to 6 months"),
                 "edit_file", ("Rent-free period: 3 months", "Rent-free period: 6 months"), "Changed in {path}.")


def f_engagement(g: Gen) -> Plant:
    m = g.w.matter()
    path = _fact_path(g, m, "engagement", f"engagement_letter_{m.short.lower()}_phase2", "docx")
    text = f"ENGAGEMENT LETTER - PHASE 2\n\n{m.client[0]}\nScope: {m.title}, phase 2.\nFees: estimate attached."
    return _file(g, path, f"where the phase 2 engagement letter for {m.short} was saved", casual(g.rng, f"engagement letter for phase 2 of {m.short} pls"),
                 "write_file", (text, ""), "Saved as {path}.")


FILES = (f_wp_letter, f_redline_memo, f_dd_section, f_chronology, f_file_note, f_skeleton, f_vso, f_nda_markup, f_rider, f_resolution, f_hot, f_engagement)


def _tool_fact(g: Gen, kind: str, value: str, query: str, ask: str, tool: str, args: dict[str, Any], render: Callable[[int], str], after: str) -> Plant:
    """A value a tool returns: ``render`` must put it in the output."""
    _reserve(g, value)

    def emit(g: Gen, p: Plant) -> int:
        g.user(ask)
        (cid,) = g.call([(tool, args)], g.note(tool))
        text = render(g.size())
        assert value in text, (value, tool)
        i = g.result(cid, text)
        g.say(after)
        return i
    return Plant(kind, value, query, emit, length=4, offset=2)


def _user_fact(g: Gen, kind: str, value: str, query: str, text: str, ack: str, step: StepFn | None = None) -> Plant:
    _reserve(g, value)
    return Plant(kind, value, query, lambda g, p: _exchange(g, text, step, ack), length=4 if step else 2)


def id_matter(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.matter()
    value = _fresh(g, lambda: f"2025-{rng.randint(1000, 1999)}")
    topic = rng.choice(("the trademark opposition", "the supplier insolvency", "the new warehouse lease", "the bonus dispute"))
    return _user_fact(g, "identifier", value, f"the matter number opened for {m.short}'s {topic.split(' ', 1)[1]}",
                      casual(rng, f"conflicts cleared - new matter opened for {m.short}, {topic}: {value}. pls use that number for everything on it"),
                      f"Noted - {topic} for {m.short} is {value}.",
                      lambda g: ("time_entry", {"action": "create", "matter": value, "hours": 0.3, "narrative": "Intake and conflict check"}, lambda s: time_saved(w, value, 0.3, "Intake and conflict check")))


def id_kg_case(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.by_kind("litigation")
    value = _fresh(g, lambda: f"C/13/{rng.randint(760_000, 799_999)} / KG ZA 25-{rng.randint(100, 999)}")
    line = f"{w.day('iso', -2, 0)}  NIEUW  Kort geding aangebracht door {m.cp} - zaaknummer {value}"
    return _tool_fact(g, "identifier", value, f"the case number of the summary proceedings {m.cp_short} started", casual(rng, f"did {m.cp_short} actually file the kort geding? check the portal"),
                      "docket_lookup", {"party": m.cp, "since": w.day("iso", -14, -7)}, lambda s: docket_sheet(w, m, s, planted=line),
                      f"Yes - they filed a kort geding; it has a separate case number ({value}). I'll set up a docket watch on it.")


def id_contract(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.by_kind("ma")
    cust = rng.choice(FACT_CUSTOMERS)
    value = _fresh(g, lambda: f"VND-{rng.randint(2016, 2022)}-{rng.randint(1000, 9999)}")
    line = f"   3.1.{rng.randint(40, 60)}  Framework_agreement_{cust.replace(' ', '_')}.pdf   contract ref. {value}   (38 pp, added {w.day('iso', -5, 0)}, NEW)"
    return _tool_fact(g, "identifier", value, f"the contract reference of the {cust} framework agreement in the data room", casual(rng, f"is the {cust} contract in the data room yet?"),
                      "doc_search", {"source": f"vdr:{m.extra['code'].lower()}", "query": cust}, lambda s: dataroom_index(w, m, s, planted=line),
                      f"Yes, it was added this week under folder 3.1 (ref. {value}).")


def id_eutm(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.matter()
    value = _fresh(g, lambda: f"EUTM {rng.randint(18_500_000, 19_199_999):09d}")
    return _user_fact(g, "identifier", value, f"the number of the EU trademark application {m.short} opposes",
                      casual(rng, f"the mark {m.short} wants to oppose is {value}, filed by a Lithuanian shell. pls diary the opposition period"),
                      f"Noted: {value}. The opposition period is three months from publication; I'll diary it once I have the publication date.")


def id_regulator(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.by_kind("dpa")
    value = _fresh(g, lambda: f"AP-dossier {rng.randint(100_000, 999_999)}-{rng.choice('ABCDEFG')}")
    line = f"Ons dossiernummer (vermelden bij correspondentie): {value}"
    return _tool_fact(g, "identifier", value, "the AP's file number for the client's complaint procedure", casual(rng, f"pull the AP's latest letter for {m.short} from the DMS"),
                      "doc_read", {"matter": m.number, "query": "Autoriteit Persoonsgegevens latest"}, lambda s: regulator_letter(w, m, s, planted=line),
                      f"Their new letter has a dossier number ({value}) that we must quote in every reply.")


def id_envelope(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.matter("ma", "saas", "licence")
    value = _fresh(g, lambda: f"ENV-{_hex(rng, 6).upper()}-{rng.randint(10, 99)}")
    body = f"Dear {m.client[2].split()[0]},\n\nPlease sign the attached agreement through the link in the signing envelope.\n\nKind regards,\n{w.first}"

    def render(s: int) -> str:
        d = json.loads(draft_saved(w, m.client[2], "For signature", body))
        d["signing_envelope"] = value
        d["signers"] = [m.client[2], m.opp_name]
        return json.dumps(d, indent=2)
    return _tool_fact(g, "identifier", value, "the id of the signing envelope sent for the agreement", casual(rng, f"send the final {m.cp_short} agreement out for e-signature, client first"),
                      "email_draft", {"to": m.client[2], "subject": "For signature", "body": body, "e_signature": True}, render,
                      f"Envelope created ({value}); {m.client[2]} signs first, then {m.opp_name}.")


def id_escrow(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.by_kind("ma")
    value = _fresh(g, lambda: f"ESC-{m.extra['code'].upper()[:4]}-{rng.randint(2025, 2026)}-{rng.randint(100, 999)}")
    return _user_fact(g, "identifier", value, f"the escrow agent's reference in Project {m.extra['code']}",
                      casual(rng, f"escrow agent's reference for {m.extra['code']} is {value}, they want it on every payment instruction"),
                      "Noted; I'll put it in the funds flow and the payment instructions.")


def id_claim_ref(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.matter()
    value = _fresh(g, lambda: f"CLM-{rng.randint(10_000_000, 99_999_999)}")
    line = f"From: claims desk <claims@{rng.choice(FACT_INSURERS).split()[0].lower()}.nl>\nSubject: Acknowledgement - your claim reference {value}\n\nWe acknowledge receipt of the notification."
    return _tool_fact(g, "identifier", value, "the insurer's reference for the client's claim notification", casual(rng, "did the insurer acknowledge the notification? check the mailbox"),
                      "doc_search", {"matter": m.number, "source": "mailbox", "query": "acknowledgement claim"}, lambda s: email_thread(w, m, s, planted=line),
                      f"Yes - acknowledged; their claim reference is {value}.")


def id_kadaster(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.by_kind("lease")
    value = _fresh(g, lambda: f"kadastraal bekend gemeente {rng.choice(('Amsterdam', 'Rotterdam', 'Utrecht'))}, sectie {rng.choice('ABCDKLMN')}, nummer {rng.randint(1000, 9999)}")
    return _tool_fact(g, "identifier", value, "the cadastral designation of the leased building", casual(rng, "what's the cadastral reference of the building? need it for the HoT"),
                      "doc_read", {"matter": m.number, "doc": m.docs[0][0], "ocr": True}, lambda s: ocr_pdf(w, m, s, planted=f"Het gehuurde is {value}, groot ca. 1.540 m2."),
                      "Found it in the lease: the building's cadastral designation is on page 1.")


def id_company(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.matter()
    value = _fresh(g, lambda: f"company number {rng.randint(13_000_000, 15_999_999)}")
    return _user_fact(g, "identifier", value, f"the UK company number of {m.short}'s new subsidiary",
                      casual(rng, f"{m.short}'s new UK sub is registered at Companies House, {value}. put it in the parties clause"),
                      "Noted; I'll use it in the parties clause of the drafts.")


def id_po(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.matter()
    value = _fresh(g, lambda: f"PO-{m.short[:3].upper()}-{rng.randint(400_000, 499_999)}")
    line = f"- Purchase order: {value} (must appear on every invoice; invoices without it are rejected)"
    return _tool_fact(g, "identifier", value, f"the purchase order number for {m.short}'s invoices", casual(rng, f"what PO do we need on {m.short}'s invoices? it's in the engagement docs somewhere"),
                      "doc_read", {"matter": m.number, "doc": "engagement letter"}, lambda s: billing_terms(w, m, s, planted=line),
                      "Found it in the billing instructions; I'll make sure finance puts it on every invoice.")


def id_receipt(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.by_kind("litigation")
    value = _fresh(g, lambda: f"RCPT-{_hex(rng, 10).upper()}")
    line = f"{w.day('iso', -1, 0)} 16:{rng.randint(10, 59)}  ACCEPTED  Conclusie van antwoord met producties 1-{rng.randint(12, 30)}  receipt {value}  {rng.randint(20, 90)} pp"
    return _tool_fact(g, "identifier", value, "the court's receipt for the filed defence", casual(rng, "did the defence go in ok yesterday? need the receipt for the client"),
                      "docket_lookup", {"case": m.extra["case"], "log": "efiling"}, lambda s: efiling_log(w, m, s, planted=line),
                      "Yes, accepted yesterday afternoon; the receipt number is in the log above, I'll forward it to the client.")


IDENTIFIERS = (id_receipt, id_matter, id_kg_case, id_contract, id_eutm, id_regulator, id_envelope, id_escrow, id_claim_ref, id_kadaster, id_company, id_po)


def fi_convenience(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.matter("saas", "distribution", "licence")
    n = rng.choice((35, 45, 75, 105, 150, 270))
    value = f"not less than {_days(n)} days' written notice"
    a, b = PARTIES[DOC_KIND[m.kind]]
    sentence = f"The {b} may terminate this Agreement for convenience at any time by giving the {a} {value}, such notice to expire at the end of a calendar month."
    return _tool_fact(g, "finding", value, f"the notice period for terminating the {m.cp_short} agreement for convenience",
                      casual(rng, f"can {m.short} get out of the {m.cp_short} contract early? what notice?"), "doc_read", {"doc_id": m.docs[0][0], "matter": m.number},
                      lambda s: contract(w, m, s, planted=("Termination", sentence)),
                      f"Yes - there is a termination for convenience right for {m.short}: {value}, expiring at a month end. No termination fee.")


def fi_dpa_law(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.by_kind("dpa")
    law = rng.choice(FACT_LAWS)
    value = f"governed by the laws of {law}"
    sentence = f"Notwithstanding the governing law of the Main Agreement, this DPA shall be {value} and disputes under it submitted to the courts there."
    return _tool_fact(g, "finding", value, f"the governing law of the {m.cp_short} DPA", casual(rng, f"which law governs the {m.cp_short} DPA? same as the MSA?"),
                      "doc_read", {"doc_id": m.docs[0][0], "annex": "all"}, lambda s: contract(w, m, s, kind="dpa", planted=("Governing Law and Jurisdiction", sentence)),
                      f"No - the DPA has its own choice of law: it is {value}, which overrides the main agreement for DPA disputes. I'd push back on that.")


def fi_defence_deadline(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.by_kind("litigation")
    d = _fact_date(g, 20, 120, 10, 28)
    value = f"Defence to be filed and served by 4pm on {fmt_date(d)}"
    line = f"{'':<5}{w.day('iso', -3, 0):<12}Order (paper determination): {value}; Reply 14 days after service"
    return _tool_fact(g, "finding", value, f"the deadline the court set for the defence in {m.title}", casual(rng, "did the judge rule on the extension application?"),
                      "docket_lookup", {"case": m.extra["case"], "entries": "latest"}, lambda s: docket_sheet(w, m, s, planted=line),
                      f"Yes, the order is on the docket: {value}.")


def fi_holding(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.matter("saas", "litigation", "distribution")
    x = rng.choice(("0.3", "0.4", "0.6", "0.75", "1.5"))
    value = f"liquidated damages of {x}% per week of delay were not a penalty"
    a, b = rng.sample(CASE_PARTIES, 2)
    cit, court = _citation(rng, rng.randint(2016, 2024))
    hit = f"[2] {a} v {b}\n    {cit} - {court}\n    Headnote: Held that {value}, given the legitimate interest in timely delivery.\n    Cited by: {rng.randint(3, 80)} | Treatment: followed | Relevance: 0.{rng.randint(85, 97)}"
    q = "liquidated damages penalty delay"
    return _tool_fact(g, "finding", value, "what the leading case found says about the delay damages clause", casual(rng, "case law on whether the delay LDs in our contract are a penalty?"),
                      "case_law_search", {"query": q}, lambda s: case_hits(w, m, s, q, planted=hit),
                      f"The best authority is {a} v {b} ({cit}): {value}. Our clause is in the same range.")


def fi_cap_tcs(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.matter("litigation", "saas")
    amt = _fresh(g, lambda: f"EUR {rng.randrange(150_000, 950_000, 5_000):,}")
    value = f"shall not exceed {amt} in the aggregate"
    sentence = f"The Company's total liability for all claims arising in any calendar year {value}, irrespective of the legal basis of the claim."
    return _tool_fact(g, "finding", value, f"the liability cap in {m.cp_short}'s terms and conditions", casual(rng, f"what's the cap in {m.cp_short}'s terms? are they even incorporated?"),
                      "doc_read", {"matter": m.number, "doc": "general terms"}, lambda s: contract(w, m, s, kind="tcs", planted=("Limitation of Liability", sentence)),
                      f"Their terms cap liability per calendar year: {value}. Incorporation is arguable - they were referred to in the quote but not handed over.")


def fi_break(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.by_kind("lease")
    d = _fact_date(g, 500, 1100, 10, 28)
    value = f"with effect on {fmt_date(d)} (the Break Date)"
    sentence = f"The Tenant may terminate this lease early {value}, by notice served by bailiff's writ at least nine months in advance."
    return _tool_fact(g, "finding", value, "when the tenant's break option in the lease can take effect", casual(rng, "is there a break clause in the lease? when?"),
                      "doc_read", {"doc_id": m.docs[0][0]}, lambda s: contract(w, m, s, kind="lease", planted=("Term and Renewal", sentence)),
                      f"Yes - a tenant-only break {value}; notice by bailiff's writ nine months before.")


def fi_subprocessor(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.by_kind("dpa")
    name, loc = rng.choice(FACT_SUBPROCESSORS)
    value = f"{name} ({loc})"
    sentence = f"As at the date of this DPA the Processor engages {value} for second-line support, relying on the Standard Contractual Clauses (Module 3)."
    return _tool_fact(g, "finding", value, f"which sub-processor outside the EEA the {m.cp_short} DPA names", casual(rng, f"does {m.cp_short} use anyone outside the EEA?"),
                      "doc_read", {"doc_id": m.docs[0][0], "annex": "3"}, lambda s: contract(w, m, s, kind="dpa", planted=("Sub-processors", sentence)),
                      f"Yes: {value}, for second-line support, on the SCCs. We need their transfer impact assessment.")


def fi_breach_window(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.by_kind("saas")
    h = rng.choice((18, 30, 36, 60))
    value = f"in any event within {h} hours after becoming aware of it"
    sentence = f"The Supplier shall notify the Customer of any Personal Data Breach without undue delay and {value}."
    return _tool_fact(g, "finding", value, f"how quickly {m.cp_short} must report a personal data breach under the MSA", casual(rng, f"how fast does {m.cp_short} have to tell us about a data breach?"),
                      "doc_read", {"doc_id": m.docs[0][0]}, lambda s: contract(w, m, s, kind="msa", planted=("Customer Data", sentence)),
                      f"The MSA says without undue delay and {value}." + (" That leaves the client too little time for the 72-hour AP deadline." if h > 30 else ""))


def fi_coc(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.by_kind("ma")
    cust = rng.choice(FACT_CUSTOMERS)
    value = f"{cust} may terminate on a change of control of the Supplier"
    sentence = f"{value}, by giving thirty (30) days' written notice within three months after becoming aware of it."
    return _tool_fact(g, "finding", value, f"what the {cust} customer contract says about a change of control", casual(rng, f"DD: the {cust} contract, anything on change of control?"),
                      "doc_read", {"source": f"vdr:{m.extra['code'].lower()}", "doc": f"3.1.{rng.randint(1, 30)}"}, lambda s: contract(w, m, s, kind="msa", planted=("Termination", sentence)),
                      f"Yes - red flag: {value}. That's a top customer, so we need a waiver before signing.")


def fi_noncompete(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.by_kind("employment")
    n = rng.choice((9, 15, 18, 30))
    region = rng.choice(FACT_REGIONS)
    value = f"non-compete of {n} months covering {region}"
    sentence = f"The Employee is bound by a {value}, for which the Employer pays a monthly compensation of 30% of the last gross salary."
    return _tool_fact(g, "finding", value, f"the non-compete in {m.extra['emp']}'s employment contract", casual(rng, f"what's the non-compete in {m.extra['emp']}'s contract?"),
                      "doc_read", {"doc_id": m.docs[0][0]}, lambda s: contract(w, m, s, kind="employment", planted=("Restrictive Covenants", sentence)),
                      f"It's a {value}, with compensation of 30% of salary.")


def fi_hearing_nl(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.by_kind("litigation")
    d = _fact_date(g, 30, 150, 10, 28)
    value = f"mondelinge behandeling bepaald op {fmt_date(d, 'nl')} om {rng.choice(('09.30', '10.00', '13.30', '14.00'))} uur"
    line = f"{'':<5}{w.day('iso', -2, 0):<12}Oproeping: {value}, zaal {rng.randint(1, 9)}.{rng.randint(10, 40)}"
    return _tool_fact(g, "finding", value, f"when the oral hearing in {m.title} takes place", casual(rng, "has the court set a date for the mondelinge behandeling yet?"),
                      "docket_lookup", {"case": m.extra["case"]}, lambda s: docket_sheet(w, m, s, planted=line),
                      f"Yes: {value}.")


def fi_offer(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.matter("litigation", "distribution", "employment")
    amt = _fresh(g, lambda: f"£{rng.randrange(40_000, 400_000, 2_500):,}")
    value = f"{amt} inclusive of costs and interest"
    line = (f"From: {m.opp_name} <{m.opp_email}>\nSubject: {m.title} - without prejudice save as to costs\n\n"
            f"Without prejudice save as to costs, our client is prepared to pay {value} in full and final settlement. This offer remains open for 21 days.")
    return _tool_fact(g, "finding", value, f"the amount the other side offered in {m.title}", casual(rng, f"did {m.opp[1]} ever put a number on the table? check the emails"),
                      "doc_search", {"matter": m.number, "source": "mailbox", "query": "without prejudice offer"}, lambda s: email_thread(w, m, s, planted=line),
                      f"Yes - one WP offer: {value}, open for 21 days from the date of that email.")


def fi_excess(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.matter()
    amt = _fresh(g, lambda: f"EUR {rng.randrange(7_500, 95_000, 2_500):,}")
    value = f"excess of {amt} each and every claim"
    return _tool_fact(g, "finding", value, f"the excess under {m.short}'s policy", casual(rng, f"what's the excess on {m.short}'s policy?"),
                      "doc_read", {"matter": m.number, "doc": "policy schedule"}, lambda s: insurance_schedule(w, m, s, planted=f"- Deductible: {value}, including defence costs"),
                      f"The policy has an {value} (defence costs count towards it).")


def fi_holder(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.by_kind("ma")
    holder = rng.choice(FACT_HOLDERS)
    pct = rng.choice(("12.5", "18.75", "26.4", "33.3"))
    value = f"{holder} holds {pct}% of the issued share capital"
    line = f"The meeting noted that {value} and has a veto on any sale under the shareholders' agreement."
    return _tool_fact(g, "finding", value, "who holds a blocking stake in the target", casual(rng, "anything in the board minutes about the shareholders? any vetoes?"),
                      "doc_read", {"source": f"vdr:{m.extra['code'].lower()}", "doc": "1.3"}, lambda s: board_minutes(w, m, s, planted=line),
                      f"Yes: {value}, with a veto on a sale. We need their consent or a drag-along.")


FINDINGS = (fi_convenience, fi_dpa_law, fi_defence_deadline, fi_holding, fi_cap_tcs, fi_break, fi_subprocessor, fi_breach_window, fi_coc, fi_noncompete,
            fi_hearing_nl, fi_offer, fi_excess, fi_holder)


def _plan(g: Gen, value: str, query: str, intro: str, steps: list[str], ack: str, paste: Callable[[], str] | None = None) -> Plant:
    """The lawyer's plan: ``value`` is one of ``steps``; as a numbered list, a dashed list or prose; sometimes after a pasted email."""
    rng = g.rng
    _reserve(g, value)
    style = rng.randrange(3)
    if style == 0:
        body = "\n".join(f"{k}. {s}" for k, s in enumerate(steps, start=1))
    elif style == 1:
        body = "\n".join(f"- {s}" for s in steps)
    else:
        joins = ["first", "then", "after that", "and once that's done", "finally"]
        body = "; ".join(f"{joins[min(k, len(joins) - 1)]} {s}" for k, s in enumerate(steps)) + "."
    text = f"{intro}\n\n{body}"

    def emit(g: Gen, p: Plant) -> int:
        pasted = [paste()] if paste is not None else []
        i = g.user(f"{pasted[0]}\n\n---\n{text}" if pasted else text, pasted)
        g.say(ack + "\n\n" + "\n".join(f"[ ] {s}" for s in steps))
        return i
    return Plant("plan", value, query, emit, length=2)


def pl_closing(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.by_kind("ma")
    d = _fact_date(g, 30, 120, 10, 28)
    value = f"book the signing with notary {rng.choice(FACT_NOTARIES)} for the morning of {fmt_date(d)}"
    steps = ["DD report final to the client by Thursday", f"disclosure letter comments back to {m.opp[1]}", value, "funds flow memo to the bank", "press release only after completion"]
    return _plan(g, value, f"the notary appointment in the Project {m.extra['code']} closing plan", f"plan for the {m.extra['code']} closing:", steps,
                 "Got it - here's the checklist; I'll track each item.")


def pl_litigation(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.by_kind("litigation")
    d = _fact_date(g, 30, 120, 10, 28)
    value = f"get the expert report from {rng.choice(FACT_EXPERTS)} in by {fmt_date(d)}"
    steps = ["draft the defence outline this week", value, "witness statements from the two engineers", "settlement feelers via counsel only after the report"]
    return _plan(g, value, f"the expert step in the {m.short} litigation plan", f"ok here's how we run {m.short} v {m.cp_short} from here:", steps,
                 "Clear. Timetable below; I'll diary the deadlines.")


def pl_exit(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.by_kind("employment")
    emp = m.extra["emp"]
    value = f"have HR hand {emp} the settlement offer in person on {rng.choice(WEEKDAYS)} at {rng.randint(9, 16)}:00"
    steps = ["finalise the VSO draft", value, "give the 14-day reflection period in writing", "prepare the internal announcement"]
    return _plan(g, value, f"how and when {emp} receives the settlement offer", f"plan for {emp}:", steps, "Understood - steps below.",
                 (lambda: paste_client_email(w, m)) if rng.random() < 0.5 else None)


def pl_lease(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.by_kind("lease")
    value = f"instruct {rng.choice(FACT_SURVEYORS)} for the dilapidations schedule"
    steps = ["check the break conditions in the lease", value, "get the landlord's service charge accounts for 3 years", "then decide break or renew"]
    return _plan(g, value, "who prepares the dilapidations schedule for the lease", f"lease plan for {m.short}:", steps, "OK, noted as the plan.")


def pl_dpa(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.by_kind("dpa")
    n = rng.randint(14, 61)
    value = f"send the sub-processor questionnaire to all {n} vendors on the list"
    steps = ["update the records of processing", value, "rank the vendors by risk", "re-paper the top 10 with our DPA and rider"]
    return _plan(g, value, f"the vendor step in {m.short}'s GDPR remediation plan", f"GDPR clean-up for {m.short}, here's the plan:", steps, "Good plan. Checklist below.",
                 (lambda: paste_regulator(w, m)) if rng.random() < 0.4 else None)


def pl_nda(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.by_kind("nda")
    n = rng.randint(30, 140)
    value = f"migrate the {n} legacy NDAs into the register with expiry dates"
    steps = ["sort out the template first", value, "flag the ones with penalty clauses", "send the client a summary"]
    return _plan(g, value, f"what happens to {m.short}'s old NDAs", f"NDA housekeeping for {m.short}:", steps, "Will do, in that order.")


def pl_hearing(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.by_kind("litigation")
    value = f"moot the cross-examination of {rng.choice(FACT_WITNESSES)} with {w.associate} on {rng.choice(WEEKDAYS)}"
    steps = ["finalise the bundle", value, "speaking notes max 10 pages", "agree the reading list with the other side"]
    return _plan(g, value, f"the rehearsal step in the {m.short} hearing preparation", "hearing prep plan:", steps, "Noted. I'll prepare the bundle first.")


def pl_kyc(g: Gen) -> Plant:
    rng = g.rng
    holder = rng.choice(FACT_HOLDERS)
    value = f"run the UBO check on {holder} before we accept the instruction"
    steps = ["conflict check", value, "engagement letter with the usual terms", "open the matter"]
    return _plan(g, value, "the identity check to do before the new instruction is accepted", "new client intake:", steps, "OK - onboarding checklist below.")


def pl_settlement(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.matter("litigation", "distribution", "employment")
    a1 = _fresh(g, lambda: w.amount(30_000, 90_000, 2_500))
    a2 = _fresh(g, lambda: w.amount(100_000, 180_000, 2_500))
    value = f"open at {a1} and stop at {a2} unless {m.client[2]} agrees more"
    steps = ["WP call with their counsel to test the water", value, "settlement agreement on our template", "consent order to stay the proceedings"]
    return _plan(g, value, f"the negotiating range in the {m.short} settlement plan", f"settlement approach for {m.short}:", steps, "Understood; I'll prepare the WP call notes.",
                 (lambda: paste_opp_email(w, m)) if rng.random() < 0.5 else None)


def pl_regulator(g: Gen) -> Plant:
    w = g.w
    m = w.by_kind("dpa")
    d = _fact_date(g, 10, 60, 10, 28)
    value = f"file the response to the AP by {fmt_date(d)} with the DPIA attached"
    steps = ["collect the records of processing from the DPO", "update the DPIA", value, "brief the board"]
    return _plan(g, value, "when and how the response to the AP goes out", f"AP response for {m.short}:", steps, "Clear - I'll start with the records of processing.")


def pl_renewals(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.matter()
    n = rng.randint(11, 48)
    value = f"diary the renewal windows for the {n} supplier contracts"
    steps = ["export the contract list from the client's system", value, "flag the auto-renewals", "recommend which ones to renegotiate"]
    return _plan(g, value, f"the calendar step in {m.short}'s contract renewal review", f"{m.short} contract review:", steps, "OK, will do.")


def pl_opposition(g: Gen) -> Plant:
    w, rng = g.w, g.rng
    m = w.matter()
    d = _fact_date(g, 20, 80, 10, 28)
    mark = rng.choice(("SOLENNA", "KESTRAL", "NORDHAVN", "BRIGHTWAVE", "VANTYS"))
    value = f"file the opposition against the {mark} application before {fmt_date(d)}"
    steps = ["clearance search on similar marks", "evidence of use from the client", value, "cooling-off period: explore coexistence"]
    return _plan(g, value, f"the opposition deadline in the plan for {m.short}'s trademark", f"trademark plan for {m.short}:", steps, "Noted; I'll diary the deadline.")


PLANS = (pl_closing, pl_litigation, pl_exit, pl_lease, pl_dpa, pl_nda, pl_hearing, pl_kyc, pl_settlement, pl_regulator, pl_renewals, pl_opposition)


# --- putting a session together -----------------------------------------------------------------

FILLER_LENGTHS = (2, 3, 4, 5, 6, 7, 8)
FILLER_WEIGHTS = (12, 4, 44, 12, 18, 4, 6)


def draw_plants(g: Gen, k: int) -> dict[str, list[Plant]]:
    """Every planted value is drawn (and reserved) before any filler is written."""
    rng = g.rng

    def pick(pool: tuple[Callable[[Gen], Plant], ...]) -> list[Plant]:
        chosen = rng.sample(pool, k) if k <= len(pool) else [rng.choice(pool) for _ in range(k)]
        return [f(g) for f in chosen]
    return {"instruction": draw_instructions(g, k), "correction": pick(CORRECTIONS), "decision": draw_decisions(g, k), "error": draw_errors(g, k),
            "file": pick(FILES), "identifier": pick(IDENTIFIERS), "finding": pick(FINDINGS), "plan": pick(PLANS)}


@dataclass
class Event:
    target: int
    order: int
    plant: Plant
    pre: bool = False


def schedule(g: Gen, plants: dict[str, list[Plant]], k: int) -> list[Event]:
    """Targets between about 4% and 84% of the session, each kind spread early to late; stale values said earlier
    (some 100+ messages before their correction)."""
    rng, n = g.rng, g.n
    lo, hi = 0.04 * n + 1, 0.84 * n
    lo_pre = int(LOW * n) + 1
    slots = 8 * k
    kinds: list[str] = []
    for b in range(k):
        block = list(KINDS)
        rng.shuffle(block)
        if b == 0:  # the first kinds of the session are not ones that need an earlier statement
            late = [x for x in block if x in ("correction", "decision")]
            block = [x for x in block if x not in late]
            for x in late:
                block.insert(rng.randint(3, len(block)), x)
        kinds += block
    queues = {kind: list(ps) for kind, ps in plants.items()}
    events: list[Event] = []
    for j, kind in enumerate(kinds):
        target = int(lo + (j + rng.uniform(0.15, 0.85)) * (hi - lo) / slots)
        plant = queues[kind].pop(0)
        events.append(Event(target, 2 * j + 1, plant))
        if plant.pre is not None:
            room = target - lo_pre - plant.pre_length
            if room > 110 and rng.random() < 0.45:
                gap = rng.randint(100, min(room, 260))
            else:
                gap = rng.randint(min(6, max(room, 2)), max(min(40, room), 2))
            events.append(Event(max(lo_pre, target - gap), 2 * j, plant, pre=True))
    events.sort(key=lambda e: (e.target, e.order))
    return events


def _length(rng: random.Random, most: int, room: int) -> int | None:
    """A filler length of at most ``most`` messages that leaves the session's ``room`` anything but exactly one."""
    options = [(x, wt) for x, wt in zip(FILLER_LENGTHS, FILLER_WEIGHTS) if x <= min(most, room) and room - x != 1]
    if not options:
        return None
    return rng.choices([x for x, _ in options], [wt for _, wt in options])[0]


def build(rng: random.Random, n: int, seed: int) -> Session:
    g = Gen(rng, n)
    k = per_kind(n)
    plants = draw_plants(g, k)
    events = schedule(g, plants, k)
    g.system()
    limit = int(HIGH * n)
    stale_at: dict[int, int] = {}
    dropped: set[int] = set()
    for ev in events:
        while ev.target - len(g.msgs) >= 2:
            size = _length(rng, ev.target - len(g.msgs), n - 1 - len(g.msgs))
            if size is None:
                break
            filler(g, size)
        p = ev.plant
        length = p.pre_length if ev.pre else p.length
        start = len(g.msgs)
        after = n - 1 - (start + length)
        if id(p) in dropped or after < 0 or after == 1 or (not ev.pre and start + p.offset > limit) or (ev.pre and start > limit):
            dropped.add(id(p))  # only very small sessions run out of room
            continue
        if ev.pre:
            assert p.pre is not None
            stale_at[id(p)] = p.pre(g)
        else:
            index = p.emit(g, p)
            assert index == start + p.offset, (p.kind, index, start)
            g.facts.append(Fact(p.kind, p.value, index, p.query, p.stale, stale_at.get(id(p)), p.resolved))
        assert len(g.msgs) == start + length, (p.kind, ev.pre, len(g.msgs) - start, length)
    while (rest := n - 1 - len(g.msgs)) > 0:
        size = _length(rng, rest, rest)
        assert size is not None, rest
        filler(g, size)
    while True:
        task = rng.choice(TASKS)(g)
        if not task.pasted:
            break
    g.user(task.user)
    return Session(g.msgs, g.facts, seed, g.pasted)


def problems(session: Session) -> list[str]:
    """What would break the generator contract: values said before their message or repeated in filler."""
    texts = [text_of(m) for m in session.messages]
    n = len(texts)
    out = []
    for f in session.facts:
        holders = [i for i, t in enumerate(texts) if f.value in t]
        if not holders or holders[0] != f.index or any(i > f.index + 8 for i in holders):
            out.append(f"{f.kind} {f.value!r}: at {holders[:6]}, planted at {f.index}")
        if not LOW * n <= f.index <= HIGH * n:
            out.append(f"{f.kind} {f.value!r}: index {f.index} out of range")
        if f.stale is not None and f.stale_index is not None:
            olds = [i for i, t in enumerate(texts) if f.stale in t]
            if not olds or olds[0] != f.stale_index or any(not (f.stale_index <= i <= f.stale_index + 12 or f.index <= i <= f.index + 8) for i in olds):
                out.append(f"{f.kind} stale {f.stale!r}: at {olds[:6]}, said at {f.stale_index}")
    return out


def make_session(seed: int, messages: int) -> Session:
    """A lawyer's session of exactly ``messages`` messages (at least 4), the same for the same seed."""
    if messages < 4:
        raise ValueError("a session needs at least 4 messages: system, user, assistant, user")
    last: list[str] = []
    for attempt in range(8):
        rng = random.Random(seed if attempt == 0 else f"{seed}/{attempt}")
        session = build(rng, messages, seed)
        last = problems(session)
        if not last:
            return session
    raise RuntimeError(f"gen_legal: no clean session for seed {seed}: {last[:3]}")
