"""Ledger items and the values they carry: what every other part of the ledger reads and writes.

An :class:`Item` is one line of the ledger: a section, a key (two items with one key are one
thing), the words (verbatim: a message's own words, clipped only at a word boundary with a visible
mark), and the messages it cites. Values (numbers, paths, addresses) are what corrections replace
and what a masked key leaves out.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import NamedTuple

from ..markers import disarmed
from ..memos import remembered

CountTokens = Callable[[str], int]

# Sections in the order they are written, with their titles.
TITLES: dict[str, str] = {
    "instruction": "User instructions (verbatim)",
    "goal": "Current goal and open tasks",
    "docrule": "Rules in documents the user pasted",
    "decision": "Decisions",
    "error": "Errors (exact)",
    "finding": "Found by tools",
    "file": "Files changed (last action)",
    "identifier": "Identifiers",
    "request": "Earlier requests of the user",
    "command": "Commands run",
    "state": "Where things stood",
}
# The same sections in a tiny block (see COMPACT_BELOW): short titles, read back as the same sections.
SHORT_TITLES: dict[str, str] = {
    "instruction": "User instructions", "goal": "Goal", "docrule": "Pasted rules", "decision": "Decided",
    "error": "Errors", "finding": "Found", "file": "Files", "identifier": "Ids", "request": "Asked",
    "command": "Ran", "state": "Stood",
}


ASKED = "asked\n"  # the key's start of a tool's line that answers the user's question (see outputs.asked_line)
REPORTED = "report\n"  # the key's start of what the agent said its tools' outputs showed (see ledger.REPORT)
POINTED = "pointed\n"  # the key's start of a line of an output the agent pointed at without saying it (see extract)


QUOTED_WORDS = 6  # words in a row of an output that a report says again: it quotes the output
QUOTED_READ_CHARS = 200_000  # of each output, what a report's quote is looked for in
QUOTED_NAMING = 3  # ... of which this many are words of three letters or more (not counts: "7 to add, 11 to change")
_WORD = re.compile(r"(?<!\w)[^\W\d_]{3,}(?!\w)")


def quotes(line: str, outputs: Sequence[str]) -> bool:
    """Whether ``line`` says again ``QUOTED_WORDS`` words in a row of one of ``outputs`` (as written, punctuation
    at the run's ends aside) that are words more than numbers. Six such words in a row are not said by chance:
    the agent repeats what it read."""
    words = line.split()
    if len(words) < QUOTED_WORDS or not outputs:
        return False
    read = [output[:QUOTED_READ_CHARS] for output in outputs]  # (a multi-MB log is not read again per run)
    for start in range(len(words) - QUOTED_WORDS + 1):
        run = " ".join(words[start:start + QUOTED_WORDS]).strip(".,;:!?()\"'")
        if len(_WORD.findall(run)) >= QUOTED_NAMING and any(run in output for output in read):
            return True
    return False


# A value stated to the digit ("20.213627", "-31.174,27", "258,097.47"), of PRECISE_DIGITS digits or more; not a
# date, a time, a version or an id's number.
_PRECISE = re.compile(r"(?<![\w.,])-?(?:\d{1,3}(?:[.,\u202f]\d{3})+(?:[.,]\d{1,6})?|\d+[.,]\d{3,})(?![\w]|[.,]\d)")
PRECISE_DIGITS = 5


def precise_values(line: str) -> list[str]:
    """The values ``line`` states to the digit: a measurement or an amount, read off what printed it."""
    return [v for v in _PRECISE.findall(line) if sum(c.isdigit() for c in v) >= PRECISE_DIGITS]


# A number as written ("2.41", "3,412", "16401215", "5.21%"); a clock time or a date, a calendar's or a log's (not a
# measurement: said back when the agent says what it did, "Booked 45 minutes with Rui on Thu 15 May at 12:00 CEST").
_NUMBER = re.compile(r"(?<![\w.,:/])(?<!\w-)\d[\d,.]*\d%?(?![\w:/-]|[.,]\d)")
WHEN = re.compile(r"\d{1,2}:\d{2}(?::\d{2})?$|\d{4}-\d{2}-\d{2}$|\d{1,2}[./-]\d{1,2}[./-]\d{2,4}$")


def measured_values(line: str) -> list[str]:
    """The measurements ``line`` says: numbers of four digits or more, or of three with a decimal mark or a percent
    ("2.41", "3,412", "16401215", "5.21%"); not a short count or code ("600"), a date or a time."""
    found = []
    for number in (m.rstrip(".,") for m in _NUMBER.findall(line)):
        digits = sum(c.isdigit() for c in number)
        if (digits >= 4 or (digits == 3 and any(c in number for c in ".,%"))) and not WHEN.match(number):
            found.append(number)
    return found


class Item(NamedTuple):
    """One ledger line. ``key`` says what it is about (two items with the same key are one thing).

    A named tuple, not a frozen dataclass: a cold compaction makes one per fact of every message (13k
    for 10,000 messages), and a frozen dataclass's __init__ costs four times as much."""

    section: str
    key: str
    text: str
    src: int  # the message it came from (its index in the session's history)
    first: int = -1  # the first message it came from, when it was seen more than once
    seen: int = 1
    resolved: bool = False
    # For a correction: the values it gives (new values), and the old values it names ("instead of 8080").
    corrects: tuple[str, ...] = ()
    rank: int = 0  # within a section, a higher rank is given room first
    # A correction: the messages whose statements it superseded (they left the ledger; cited here).
    supersedes: tuple[int, ...] = ()
    # Found only in a tool's output or in pasted text: kept only when prose or a later call names it too.
    weak: bool = False
    # The user's words say a standing thing changed ("moved to", "from now on", "the new ..."): like a
    # correction, it supersedes the statement it updates, on stricter evidence (see .corrections).
    update: bool = False
    # Said by the user (a decision of theirs, not the agent's): only the user's words revise the user's.
    user: bool = False

    @property
    def correction(self) -> bool:
        return self.rank >= CORRECTION_RANK

    def cites(self) -> tuple[int, ...]:
        """The messages this line cites, oldest first."""
        found = {*self.supersedes, self.src}
        if 0 <= self.first < self.src and self.section in ("instruction", "docrule"):
            found.add(self.first)
        return tuple(sorted(n for n in found if n >= 0))

    def line(self, cited: bool = True) -> str:
        seen = f" ({self.seen} times)" if self.seen > 2 and self.section in ("error", "command") else ""
        # One line whatever the text holds (any line break): content never becomes structure; our own
        # markers quoted in it are disarmed ("[end of ledger]" -> "(end of ledger]").
        # An id's words around it are its context, not a quote: a table's row it stands in reads as well with one
        # space between its columns, and takes less room; a quoted line keeps its spacing.
        said = " ".join(self.text.split()) if self.section == "identifier" else flat_lines(self.text)
        body = f"{said}{seen}"
        body = disarmed(body)
        cites = self.cites()
        if not cited or not cites:
            return body
        return f"{body} [{', '.join(f'#{n}' for n in cites)}]"


# Not a section: a user's short reply accepting what the agent just proposed ("ok", "agreed"); merge ranks
# the decisions of the agent's message before it as decided.
APPROVAL = "approval"
DECIDED_RANK = 2  # a decision a marker names, the user states, or the user accepted

# The ranks of the user's words: a correction, then a rule (a word that forbids, requires or prefers, a
# rule's label), then a statement of a setting (a value). A higher rank is given room first.
CORRECTION_RANK = 8
STRONG_RULE_RANK = 6  # a rule that forbids or carries a rule's own label ("SAFETY RULE:", "NEVER ...")
RULE_RANK = 4
MARK = 2  # the rank points of one mark of a rule
SETTING_RANK = 1


def marks(item: Item) -> int:
    """How many marks of a rule ``item`` carries: a value it holds (one point) is no mark."""
    return item.rank // MARK


_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+")

_ADDRESS_VALUE = (r"(?<![a-z0-9+.-])[a-z][a-z0-9+.-]{0,15}://[\w.@:/+%~=&?#-]+"
                  r"|(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_NUMBER_LIKE = r"(?<![\w.@:/+-])[$€£]?[\w.@:/+-]*\d[\w.@:/+-]*"
# A person's handle, an initial and a surname ("w.schmidt", "i.karlsson"): a value (see corrections.kind for
# its kind); not "e.g" nor "i.e".
HANDLE = r"[a-z]\.[a-z]{3,}"
# Names that are values though they hold no digit: snake_case and camelCase identifiers, dotted host names, handles.
_NAME_VALUE = (r"(?<![\w.@:/+-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w@/-])|(?<![\w.@:/+-])[a-z]+(?:[A-Z][a-z0-9]+)+(?![\w@/-])"
               r"|(?<![\w.@:/+-])[a-z][\w-]*(?:\.[a-z][\w-]*){2,}(?![\w@/-])"
               rf"|(?<![\w.@:/+-]){HANDLE}(?![\w@/-]|\.\w)")
_VALUE = re.compile(rf"(?i:{_ADDRESS_VALUE})|{_NUMBER_LIKE}|(?<![\w.-])[\w.-]+/[\w./-]+|{_NAME_VALUE}")
_CORRECTABLE = ("instruction", "request", "identifier", "decision")


def masked_key(text: str) -> str:
    """What an instruction is about, its values masked: a later one with other values replaces it.
    Keyed in its dense form (see :func:`dense`), so a compact block read back keys as what it came from;
    a sentence that opens with a word that forbids keeps its values (see :data:`_FORBIDS`)."""
    flat = dense(" ".join(text.split()))  # read back, an item is one line
    sentences = _SENTENCE_END.split(flat)
    return " ".join(sentence if _FORBIDS.match(sentence) else _MASK.sub(_masked, sentence)
                    for sentence in sentences).lower()


# Words that forbid, opening a sentence (after a label or lead-in such as "SAFETY RULE:" or "One more
# rule from now on:"): each value it names is forbidden on its own ("never run migration 0042", "... 0043":
# two rules, both stand). Not a limit ("never exceed $500", "no more than 3 retries"): that is a setting,
# a later value replaces it. Bounded, so a sentence is matched in linear time.
# (also after "remember that we", and in other languages: "husk at vi aldrig laver remote reset på alarm 4461", "... på
# alarm 6124": two rules)
_FORBIDS = re.compile(r"\W{0,8}(?:[^:.]{0,40}:\s{0,4})?(?:(?:also|and|ok|okay|oh|btw|so|hey|og|und|y|e|et)\W{1,3}){0,3}(?:(?:remember|husk|husker|kom ih[åa]g|denk dran|recuerda|lembra|"
                      r"rappelle-toi|ricorda)\s+(?:at|that|daran,? dass|que|di)?\s*)?(?:(?:we|vi|wir|nous|nosotros|n[óo]s|noi)\s+)?"
                      r"(?:never|do not|don'?t|must not|mustn'?t|no(?![,.!])|aldrig|aldri|nie|niemals|nunca|jamais|mai|nooit|"
                      r"nigdy)\b"
                      r"(?!\s+(?:exceed|go (?:above|over|below|beyond)|(?:more|less|fewer|later|earlier|longer|sooner|"
                      r"higher|lower) than|spend more|use more))", re.IGNORECASE)


def _masked(m: re.Match[str]) -> str:
    """A value masked, but a ticket's id (APP-124, OPS-4821): two tickets are two things to do, where
    two ports or caps are one setting, the later replacing the earlier. A standard's name (UTF-8, SHA-256,
    ISO-8601) is a setting's value, not a ticket."""
    token = m.group(0)
    ticket = _TICKET_ID.fullmatch(token.rstrip(".,;:"))
    if ticket and ticket.group(1).upper() not in _STANDARDS:
        return token
    # A number-like value keeps its words ("db/0042_users.sql" and "db/0043_orders.sql" are two files, where
    # "port 8080" and "port 9090" are one setting); an address (a URL, an e-mail) is masked whole.
    token = token.rstrip(".,;:")
    if _place(token):
        # an address masked whole, but the name its last part gives (".../vandelay-imports-973" and
        # ".../umbrella-health-384" are two customers' buckets; ".../vandelay-imports-846" is the first's again)
        return "#" + path_name(token) if "://" in token else "#"
    return _shape(token)


# What varies from one sighting of a line to the next: a token with a digit in it (a time, a count, a pod's
# or a node's generated name, an address, a request's id): "pod=api-7f9c-x2k msg=\"deadline exceeded\"" again
# from another pod.
VARYING = re.compile(r"[^\s\"'=,;()\[\]{}<>]*\d[^\s\"'=,;()\[\]{}<>]*")
NAME_WORD = re.compile(r"[a-z]{4,}")  # a word a value's name is made of ("vandelay", "imports"; not "eu", "s3")


def path_name(value: str) -> str:
    """The name a path's last part gives, when it has two words or more (".../vandelay-imports-973" ->
    "vandelay-imports"); "" otherwise: two paths that give one name name the same thing."""
    names = NAME_WORD.findall(value.rsplit("/", 1)[-1].lower())
    return "-".join(names) if len(names) >= 2 else ""


_TICKET_ID = re.compile(r"([A-Z][A-Z0-9]{1,9})-\d{1,7}")
_STANDARDS = frozenset({"UTF", "UCS", "ISO", "AES", "SHA", "MD", "RSA", "DES", "TLS", "SSL", "HTTP", "IPV",
                        "PBKDF", "ECDSA", "ED", "CRC", "X", "IEEE", "ECMA", "EN", "DIN", "BS", "IEC"})


# "the" before a word, where a word may start (not inside a path or an identifier).
_THE = re.compile(r"(?<!\S)(?i:the) (?=[\w$(])")
# A final period (before the "(was ...)" of a correction, if any), after a word, a digit or a bracket.
_FINAL_PERIOD = re.compile(r"(?<=[\w)\]])\.(?=(?: \(was [^()]*\))?$)")
# Quoted words are the user's literal text: left as they are.
_QUOTED = re.compile(r"(\"[^\"]*\"|`[^`]*`|\u201c[^\u201d]*\u201d)")


def tight(text: str) -> str:
    """An instruction as a tiny block writes it: without its final period, every word as the user wrote
    it (dropping "the" as well kept one more rule of the conformance kit's at a 20% budget, and wrote
    words no message contains into a host's 8k block, where the ledger's room can be that small)."""
    return _FINAL_PERIOD.sub("", text)


# A line break with the spaces around it, and a run of spaces wider than any column's gap: each becomes one space.
_LINE_BREAK = re.compile(r"[ \t]*(?:\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029])\s*|[ \t]{33,}")


def flat_lines(text: str) -> str:
    """``text`` as one line: its lines joined by one space, the ends stripped, each line's own spacing kept
    (up to 32 spaces or tabs in a row: "[FAIL] sleep_current_uA     avg 23.81 uA" is quoted as it stands)."""
    return _LINE_BREAK.sub(" ", text.strip())


def dense(text: str) -> str:
    """An instruction as a tiny block writes it: without the word "the" and without its final period.
    Nothing else changes (every value, name, negation and quoted word stays), so what the user asked
    still reads the same; the exact words are in the archive."""
    if "he " not in text and not text.endswith((".", ")")):
        return text
    if '"' in text or "`" in text or "\u201c" in text:
        parts = _QUOTED.split(text)
        text = "".join(part if n % 2 else _THE.sub("", part) for n, part in enumerate(parts))
    else:
        text = _THE.sub("", text)
    return _FINAL_PERIOD.sub("", text)


_MASK = re.compile(rf"(?i:{_ADDRESS_VALUE})|{_NUMBER_LIKE}")


@remembered(4_096)  # an item's text is read for its values again and again (corrections, restatements, keys)
def values(text: str) -> tuple[str, ...]:
    """Value-like tokens (with a digit or a slash) of a text: what a correction may replace."""
    found = (v.rstrip(".,:;!?)") for v in _VALUE.findall(text))
    return tuple(v for v in found if len(v) >= 2)


# A hash-like run (hex, six or more, letters and digits both): "7b096ddc7d" and "8c1f2a9e3b" are one shape.
_HEX_RUN = re.compile(r"(?<![0-9a-zA-Z])(?=[0-9a-fA-F]*[a-fA-F])(?=[0-9a-fA-F]*\d)[0-9a-fA-F]{6,}(?![0-9a-zA-Z])")


@remembered(8_192)
def _shape(value: str) -> str:
    """A value with its digits (and hash-like runs) as placeholders: two values of one shape may be one
    setting's old and new value ("port 8080", "port 9090"; "bld-7b096ddc7d", "bld-8c1f2a9e3b")."""
    return re.sub(r"\d+", "0", _HEX_RUN.sub("h", value))


_ADDRESS = re.compile(r"^(?:[\w.+-]+(@[\w-]+(?:\.[\w-]+)+)|([a-z][a-z0-9+]*://[^/\s]+)/?.*)$", re.IGNORECASE)


def _place(value: str) -> str:
    """Where an address points: an e-mail's domain ("@acme.dev"), a URL's scheme and host; "" otherwise.
    A correction may replace an address by one of another shape at the same place
    ("ops-alerts-1@acme.dev" by "ops-oncall-2@acme.dev")."""
    m = _ADDRESS.match(value)
    return (m.group(1) or m.group(2) or "").lower() if m else ""



def words(text: str) -> set[str]:
    return set(re.findall(r"[a-z]{3,}", text.lower()))
