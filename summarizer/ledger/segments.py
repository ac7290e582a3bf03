"""Structure before words: a user's message cut into the user's own prose and what they pasted.

Pasted material is fenced blocks, runs of log, trace, diff, table, JSON or code lines, quoted mail
(``>``), mail and ticket headers, what a line of the user's announces ("logs from export-svc earlier:",
"tax law excerpt for context"), and documents: a heading (with its title line just above it), a rule
line, a bold label on its own line or mail headers; a forwarded message's header or a letter's
salutation; a title of its own with headings, list items, fields or its own paragraph under it; then a
few hundred characters or more, to the end of the message but for a last short paragraph in which the
user speaks again. Only the prose can hold an instruction or a correction (:mod:`.prose` reads it
sentence by sentence).
"""

from __future__ import annotations

import functools
import itertools
import re
from typing import NamedTuple

from ..memos import remembered

DOCUMENT_CHARS = 300  # a pasted document (after a heading, a rule line, mail headers) is at least this long


class Segment(NamedTuple):
    kind: str  # "prose", "pasted" (logs, code, tables, quoted mail) or "document" (a pasted spec, runbook, mail)
    text: str


_FENCE = re.compile(r"^\s*(```|~~~|\"\"\"\s*$|\'\'\'\s*$)")  # (a quoted block set off by triple quotes, as chats copy one)
_HEADING = re.compile(r"^(?:#{1,6} \S|={3,}\s*$|-{3,}\s*$|\*{3,}\s*$|_{3,}\s*$|-----\s*Original Message)")
_BOLD_LABEL = re.compile(r"^\s*\*\*[^*\n]{2,60}\*\*:?\s*$")  # "**Describe the bug**" on its own line
_MAIL_HEADER = re.compile(r"^(?:From|To|Cc|Subject|Sent|Date|Reply-To|Ticket|Status|Priority|Reporter|Assignee|"
                          r"Severity|Component|Labels|Summary|Customer|Requester)\s*:\s*\S", re.IGNORECASE)
# A line that is log, trace, diff, table, JSON or code rather than someone's sentence.
_LOG_LINE = re.compile(
    r"^\s*(?:"
    r"\[?\d{4}-\d\d-\d\d[T ]\d|\[?\d{1,2}:\d\d:\d\d|\[\d{1,2}:\d\d(?: ?[AP]M)?\]|[A-Z][a-z]{2} {1,2}\d{1,2} \d\d:\d\d|"  # timestamps
    # (a chat's copied or exported lines: "[04/25/2024 8:27 PM] deckdaddy: ...", "[25-Apr-24 08:27 PM] ...", WhatsApp's
    # "[25/04/2024, 20:27:13] Ana: ..." and "25/04/2024, 20:27 - Ana: ...")
    r"\[?\d{1,2}[/.-](?:\d{1,2}|[A-Z][a-z]{2})[/.-]\d{2,4},? \d{1,2}:\d\d(?::\d\d)?(?: ?[AaPp]\.?[Mm]\.?)?(?:\]| -) |"
    r"\[?(?:INFO|WARN|WARNING|ERROR|DEBUG|TRACE|FATAL|CRITICAL|NOTICE|ERR)\]?[\s:|]|"  # levels
    r"<(?:err|wrn|warn|inf|info|dbg|debug|error|crit|fatal|notice)> |\*{3,} .* \*{3,}\s*$|"  # "<err> os: ...", a banner
    r"at [\w$.<>]+\(|File \"|Traceback \(|Caused by:|\.\.\. \d+ more|goroutine \d+|panic:|fatal error:|"  # traces
    # (a native backtrace's frames, gdb's and gfortran's "#1  0x4ddc74 in __vert_mix_MOD_vert_mix_apply" and the "at
    # src/ocean/vert_mix.F90:197" under them; the signal it died of; a cluster's launcher, "srun: error: ...")
    r"#\d+ +0x[0-9a-fA-F]+ |at [\w./-]+:\d+\s*$|Program received signal |Backtrace for this error|"
    r"(?:srun|slurmstepd|salloc|sbatch|mpirun|mpiexec): |"
    r"(?:[\w$]+\.)*\w*(?:Error|Exception|Rejection|Fault)\b:? \S|(?:[a-z_]\w*\.){2,}[A-Z]\w*: \S|"
    r"--- (?:FAIL|PASS|SKIP):|=== RUN|platform \w+ -- Python|rootdir: |plugins: |cachedir: |-{3,} .* -{3,}|"
    r"Run #\d+ \S|[A-Z][\w.-]*(?: [A-Z][\w.-]*)?\s{1,3}(?:\d{1,2}:\d\d(?:\s?[AP]M)?|yesterday|today)\s*$|(?:FAIL|PASS|ok)(?:\t| {2,})\S+|E {2,}|={3,} .* ={3,}|_{3,} .* _{3,}|"  # test runners
    r"(?:PASSED|FAILED|ERROR|SKIPPED|XFAIL)\b|collected \d+ items?|\d+ (?:passed|failed|error)|"
    r"Tests?:\s+\d|Test Suites?:|✓|✗|×|✕|√|"
    r"diff --git|index [0-9a-f]{6,}\.\.|@@ -\d|\+\+\+ |--- a/|"  # diffs
    r"HTTP/\d|(?:GET|POST|PUT|DELETE|PATCH|HEAD) /|"
    r"[{}\[\]],?\s*$|\"[^\"\n]{1,80}\"\s*:|"  # JSON
    r"\$ |>>> |\w+@[\w.-]+:[~/]|"  # prompts
    r"(?:def|class|func|fn|impl|import|from \S+ import|package|const|let|var|return|public|private|static|"
    r"SELECT|INSERT|UPDATE|DELETE FROM|CREATE TABLE|WITH)\b(?!['\u2019])(?!,? (?:we|i|you|us|me)\b).*[:;{(=,]\s*$"  # ("let's", "let me": words)
    r")")
_KEY_VALUES = re.compile(r"(?:\b[\w.-]+=[^\s,]+[\s,]+){2,}")
# (columns set apart by two spaces or more, a few words each, the row indented a little: "  VBOR1  min 0.71  typ 7.40
# max 41.72  ns", "  Bits 12:11  EN[1:0]: reserved  (rw)"; two spaces after a sentence's stop set nothing apart)
_TABLE = re.compile(r"^\s*\|.*\|\s*$|^[^|\n]*(?:\|[^|\n]*){2,}$|^\S+(?:\t[^\t]*){2,}$|^\S+(?: {2,}\S+){3,}\s*$|"
                    r"^ {0,3}\S+(?: \S+){0,6}(?:(?<![.!?;,]) {2,}\S+(?: \S+){0,6}){2,}\s*$|"
                    r"^[^,\s]+(?:,[^,\s]*){3,}$")
_FIELD = re.compile(r"^\s*[A-Z][\w /()-]{1,30}:\s+\S")
_FIELDS_LINE = re.compile(r"^\s*[A-Z][\w ]{1,20}:\s+\S.*?\s{2,}[A-Z][\w ]{1,20}:\s+\S.*?\s{2,}[A-Z][\w ]{1,20}:\s+\S")
_CODE_END = re.compile(r"[;{}]\s*$|^\s*[}\])]|\[\s*\d{1,3}%\]\s*$|\S\s\.{5,}|\b\d+ (?:passed|failed|skipped|errors?)\b.* in \d+(?:\.\d+)?s\b")


# A line is read when its message is cut and again when the document or the paste it is in is read.
@remembered(8_192)
def line_is_pasted(line: str) -> bool:
    """Whether one line reads as pasted output (log, trace, table, JSON, code) rather than a sentence."""
    stripped = line.strip()
    if not stripped:
        return False
    if line.startswith(("    ", "\t")) and not stripped.startswith(("- ", "* ")):
        return True
    if len(stripped) >= 6 and not any(c.isalpha() for c in stripped):
        return True  # a row of numbers ("1790010075.000,3250,2.75121"): no one's words
    if _LOG_LINE.match(line):
        return True
    # The unanchored patterns only where the character they need is there (most lines are sentences).
    if "=" in line and _KEY_VALUES.search(line):
        return True
    if ("|" in line or "\t" in line or "  " in line or line.count(",") >= 3) and _TABLE.match(line):
        return True
    if line.count(",") >= 3 and _csv_row(stripped):
        return True
    if line.count(";") >= 3 and _csv_row(stripped, ";"):
        return True  # a European export's row ("LS-10034;Ana Marques;CC-1894;5071.43;211.20;...")
    last = stripped[-1]
    return (last in ";{}]" or stripped[0] in "}])" or ".." in line or " in " in line) and bool(_CODE_END.search(line))


_TIGHT = {",": re.compile(r",(?=[^\s,])|,(?=,)"), ";": re.compile(r";(?=[^\s;])|;(?=;)")}


def _csv_row(line: str, sep: str = ",") -> bool:
    """A row of comma- (or semicolon-) separated values ("441980,\"Invoice INV-2026-333724 is wrong\",Prestige
    Worldwide,normal"): separators with no space after them, where a sentence's list puts one after each."""
    tight = len(_TIGHT[sep].findall(line))
    return tight >= 3 and tight > 2 * line.count(sep + " ")


def split(text: str) -> list[Segment]:
    """``text`` cut into the user's prose and what they pasted, in order; the pieces join to ``text``
    but for the line breaks between them. (Pasted texts recur: a long one's cut is remembered.)"""
    if len(text) >= 2000:
        return list(_split_long(text))
    return _split(text)


@functools.lru_cache(maxsize=256)
def _split_long(text: str) -> tuple[Segment, ...]:
    return tuple(_split(text))


def _split(text: str) -> list[Segment]:
    lines = text.split("\n")
    kinds = [""] * len(lines)
    opened = -1  # the indentation of the open fence's line; a fence indented deeper inside it is its text
    start = 0
    for n, line in enumerate(lines):
        fence = _FENCE.match(line)
        if fence and opened < 0:
            opened, start = len(line) - len(line.lstrip()), n
        elif fence and len(line) - len(line.lstrip()) <= opened:
            _fenced(lines, kinds, start, n)
            opened = -1
        elif opened < 0 and line.lstrip().startswith(">"):
            kinds[n] = "pasted"  # quoted mail, a quoted ticket or chat
    if opened >= 0:
        _fenced(lines, kinds, start, len(lines) - 1)
    _documents(lines, kinds)
    _forwarded(lines, kinds)
    _titled(lines, kinds)
    _chat_logs(lines, kinds)
    _ruled_off(lines, kinds)
    _announced(lines, kinds)  # after documents: a spec announced ("here's the doc maria wrote:") is read for its rules
    _reviews(lines, kinds)
    _forge_pages(lines, kinds)
    _signed(lines, kinds)
    _letters(lines, kinds)
    _pasted_runs(lines, kinds)
    # each run of lines of one kind joined once (adding line by line copies the run again for each line)
    segments = [Segment(kind, "\n".join(line for line, _ in run))
                for kind, run in itertools.groupby(zip(lines, kinds), key=lambda pair: pair[1] or "prose")]
    return [s for s in segments if s.text.strip()]


def _fenced(lines: list[str], kinds: list[str], first: int, last: int) -> None:
    """A fenced block, its fences included: a document when it reads as one (a heading, or mostly lines
    that are no output), else pasted output."""
    inside = [line for line in lines[first + 1:last] if line.strip()]
    document = any(_HEADING.match(line) for line in inside) or (
        bool(inside) and sum(map(len, inside)) >= DOCUMENT_CHARS and _mostly_prose(inside))
    for k in range(first, last + 1):
        kinds[k] = "document" if document else "pasted"


def _mostly_prose(lines: list[str]) -> bool:
    """Whether more than half of ``lines`` are no output (nor a fence): read until a side has the majority
    (a pasted log is seen to be one at its middle)."""
    majority = len(lines) // 2 + 1
    prose_like = output = 0
    for line in lines:
        if line_is_pasted(line) or _FENCE.match(line):
            output += 1
            if output > len(lines) - majority:
                return False
        else:
            prose_like += 1
            if prose_like >= majority:
                return True
    return False


_LETTERHEAD_LINE = re.compile(r"^[A-Z\u00c0-\u00dd][^\[\]]*$")
# A sentence, not a letterhead's line: five words or more ending on a stop ("Aiko finished the team standard, here
# it is."), where a sender's name or address ends on none, or on an abbreviation's ("Mollie B.V.").
_SAID = re.compile(r"^\s*(?:\S+\s+){4,}\S*[^\W\d_]{2}[.!]\s*$")
_COMPANY_END = re.compile(r"\b(?:Ltd|Inc|Corp|Co|LLC|PLC|GmbH|AG|S\.A|B\.V|N\.V|Pty)\.\s*$")  # a sender's name


def _letterhead_above(lines: list[str], kinds: list[str], n: int) -> int:
    """Where a document that opens at ``n`` starts with the short paragraphs right above it: a letter's
    sender and address ("Autoriteit Persoonsgegevens", "Postbus 93374, 2509 AJ Den Haag"), its addressee,
    above its "Datum:" and "Onderwerp:" fields: short lines that end on no stop (the message's first paragraph
    only when each of its lines opens with a capital: "check this one" is the user's)."""
    first = next((k for k, line in enumerate(lines) if line.strip()), 0)
    while n >= 2 and not lines[n - 1].strip():
        end = n - 1
        while end > 0 and not lines[end - 1].strip():
            end -= 1
        start = end
        while start > 0 and lines[start - 1].strip():
            start -= 1
        block = lines[start:end]
        if not block or len(block) > 4 or any(
                kinds[k] or len(lines[k].strip()) > 60 or lines[k].rstrip().endswith((":", "?", "!"))
                or (start <= first and (not _LETTERHEAD_LINE.match(lines[k]) or (
                    _SAID.search(lines[k]) and not _COMPANY_END.search(lines[k]))))
                for k in range(start, end)):
            break
        n = start
    return n


def _documents(lines: list[str], kinds: list[str]) -> None:
    """A heading (markdown, a rule line, a bold label on its own line) or a run of mail/ticket headers
    opens a document when enough follows it: from there to the end of the message is pasted."""
    for n, line in enumerate(lines):
        if kinds[n]:
            continue
        fields = all(k < len(lines) and not kinds[k] and _FIELD.match(lines[k]) for k in range(n, n + 3)) or bool(
            _FIELDS_LINE.match(line))
        opens = bool(_HEADING.match(line) or _BOLD_LABEL.match(line) or fields or (
            _MAIL_HEADER.match(line) and n + 1 < len(lines) and _MAIL_HEADER.match(lines[n + 1])))
        if opens and sum(len(rest) + 1 for rest in lines[n:]) >= DOCUMENT_CHARS:
            if fields and n > 0 and lines[n - 1].strip() and not kinds[n - 1] and len(lines[n - 1]) <= 160:
                n -= 1  # a ticket's title line goes with its fields
            elif _HEADING.match(line):
                n = _titled_above(lines, kinds, n)
            n = _letterhead_above(lines, kinds, n)
            for k in range(n, _document_end(lines, n)):
                if not kinds[k]:
                    kinds[k] = "document"
            return


def _titled_above(lines: list[str], kinds: list[str], n: int) -> int:
    """Where a document opened by the heading at ``n`` starts: at its own title when one stands just above the
    heading ("Fjord Capital Community Newsletter · Tue 4 Dec", a blank line, "## New opening hours"), on a line
    of its own after a blank one or first in the message, in title case."""
    k = n - 1
    if k >= 0 and not lines[k].strip():
        k -= 1
    if k < 0 or kinds[k] or (k > 0 and lines[k - 1].strip()):
        return n
    title = lines[k].strip()
    words = [w for w in title.split() if w[:1].isalpha()]
    capitals = sum(1 for w in words if w[0].isupper())
    if _TITLE.match(title) and len(words) >= 2 and 4 * capitals >= 3 * len(words):
        return k
    return n


_TITLE = re.compile(r"^[A-Z0-9\u00c0-\u00dd\u00a7][^\n]{2,78}(?<![.?!:;,])$")  # (a law's "§ 13b UStG ..." too)
# A title set off by marks ("!!! NORRVIK FREIGHT \u2014 YOUR FILES ARE ENCRYPTED !!!", "---=== NOTICE ===---"): the
# marks are no words of it.
_DECORATION = re.compile(r"^[!=*~_#\s\u2014\u2013-]{2,}|[!=*~_#\s\u2014\u2013-]{2,}$")
# A list item, or a numbered paragraph of a law or a contract ("(1) ...", "(a) ...", "7.1 The Insured shall ...").
_LIST_ITEM = re.compile(r"^\s*(?:[-*\u2022]|\d{1,2}[.)]|\d{1,2}(?:\.\d{1,2})+\.?|\((?:\d{1,2}|[a-z])\))\s+\S")
TITLED_STRUCTURE = 2  # headings, list items or fields under a title that make what follows a document


# A forwarded message's own header, or a letter's salutation: what follows is someone else's text.
_FORWARDED = re.compile(r"^\W*(?:-+\s*)?(?:(?:begin )?forwarded message\b|fwd:|weitergeleitete nachricht|message transf[ée]r[ée]|"
                        r"mensaje reenviado|dear [^\n,]{1,40},\s*$)", re.IGNORECASE)


def _forwarded(lines: list[str], kinds: list[str]) -> None:
    """From a forwarded message's header ("Forwarded message from the landlord:") or a letter's "Dear
    tenants," to the end of the message (as :func:`_documents`) is the forwarded document."""
    for n, line in enumerate(lines):
        if not kinds[n] and _FORWARDED.match(line) and sum(len(rest) + 1 for rest in lines[n:]) >= DOCUMENT_CHARS:
            for k in range(_letterhead(lines, kinds, n), _document_end(lines, n)):
                if not kinds[k]:
                    kinds[k] = "document"
            return


LETTERHEAD_LINES = 8  # lines above a salutation that may be the letter's own head
_MAIL_HEAD = re.compile(r"^(?:From|To|Cc|Subject|Sent|Date|Betreff|Objet|Asunto|Assunto|Oggetto|Temat|Onderwerp)\s*:\s*\S",
                        re.IGNORECASE)  # (a mail's own; not "Priority:" or "Status:", which the user may write)


def _letterhead(lines: list[str], kinds: list[str], n: int) -> int:
    """Where a letter starts whose salutation is line ``n``: the short lines just above it that are no one's
    sentence ("Mollie B.V.", "Credit Control", "SECOND REMINDER", blank lines between) are its head."""
    start = n
    for k in range(n - 1, max(-1, n - 1 - LETTERHEAD_LINES), -1):
        line = lines[k].strip()
        if kinds[k] or (line and not _MAIL_HEAD.match(line) and (len(line) > 50 or line[-1] in "?!:" or line[0].islower())):
            break  # (a mail's "Subject: [Action required] Card Payments API v1 sunset on ..." is its head, however long)
        if line:
            start = k
    return start


def _titled(lines: list[str], kinds: list[str]) -> None:
    """A document with a title of its own, pasted under the user's words ("check the dates", a blank line,
    "Booking confirmation - Hotel Aurora", its fields and sections; a recipe's name, "Ingredients", its
    list): a short line with no closing stop after a blank line (or first, with its text right under it),
    with headings, list items or fields under it and enough text, opens a document to the end of the
    message (as :func:`_documents`)."""
    count = len(lines)
    # Suffix sums, so that each candidate title is judged in constant time: structure lines and characters
    # from each line to the end.
    structure = [0] * (count + 1)
    chars = [0] * (count + 1)
    for k in range(count - 1, -1, -1):
        line = lines[k]
        shaped = not kinds[k] and bool(_LIST_ITEM.match(line) or _FIELD.match(line) or (
            len(line) <= 40 and _TITLE.match(line.strip()) and k + 1 < count and lines[k + 1].strip()))
        structure[k] = structure[k + 1] + shaped
        chars[k] = chars[k + 1] + len(line) + 1
    spoken = False  # a line with words came before
    for n in range(count):
        # (first in the message: with its text right under it, or set off by a blank line when the user speaks again
        # after the document: "Metric definitions v4.1 (owner: ...)", its list, then "product's doc, we don't follow it")
        if not kinds[n] and ((n and spoken and not lines[n - 1].strip()) or (n == 0 and count > 1 and (
                lines[1].strip() or _document_end(lines, 0) < count))):
            title = lines[n].strip()
            if (_TITLE.match(title) or _TITLE.match(_DECORATION.sub("", title))) and not _TAGGED.match(title):
                end = _document_end(lines, n)
                # (the title counts when its own text is right under it: a law's "Art. 44 ..." then its paragraph)
                if structure[n] - structure[end] >= TITLED_STRUCTURE and chars[n] - chars[end] >= DOCUMENT_CHARS:
                    for k in range(n, end):
                        if not kinds[k]:
                            kinds[k] = "document"
                    return
        spoken = spoken or bool(lines[n].strip())


# Who sent or wrote what follows, and the kinds of text people send, in English, Portuguese, Spanish, French, German and
# Italian ("Júlio from QA filed this:", "o Caio mandou isso:", "segue a mensagem:", "te paso el correo", "voici le mail"):
# they announce a paste (_ANNOUNCE) and say it is someone's text, not an output (_SOMEONES).
_SENT_WORDS = (r"filed|raised|reported|abriu|abriram|reportou|escreveu|mandou|enviou|encaminh\w*|segue|mand[óo]|"
               r"envi[óo]|te paso|a envoy[ée]|voici|geschickt|weitergeleitet|ha (?:mandato|inviato|scritto)|ecco|"
               r"mensagem|mensaje|correo|messaggio|nachricht|revis[ãa]o|revisi[óo]n|r[ée]vision|recensione|gutachten|"
               # what came in ("guarda cosa mi è arrivato:", "me llegó esto:", "chegou isso:", "reçu ce matin :", "das kam
               # eben rein:", "hab das bekommen:")
               r"arrivat[oaie]|ricevut[oaie]|girat[oaie]|lleg[óo]|chegou|re[çc]ue?s?|bekommen|erhalten|kam (?:heute|gerade|"
               r"eben|rein)|"
               # in Danish, Norwegian, Swedish ("kom lige ind:", "fik lige den her fra Jonas:", "fikk denne fra Per:",
               # "fick det här från Anna:", "videresendt", "vidarebefordrat")
               r"kom (?:lige |nettopp |just )?(?:ind|inn|in)|fi(?:k|kk|ck) (?:lige |nettopp |just )?(?:den|det|denne|dette|detta)"
               r"(?: (?:her|här))? (?:fra|fr[åa]n)\b|fi(?:k|kk) (?:lige |nettopp )?(?:den|denne|dette) her\b|"
               r"videresend\w*|vidarebefordra\w*|"
               # Hindi in Latin letters ("contract mein ye likha hai:", "support ne ye reply kiya:", "client ne bheja:")
               r"likha|bheja|bheji|kaha|bola|reply kiya|forward kiya|"
               # Polish and Dutch ("Kasia podesłał PSP notice, rzuć okiem:", "wklejam ...:", "dit kwam binnen:")
               # (someone else's doing, not the user's own "Dostałem zgodę ...", "Napisałem skrypt ...")
               r"podes[łl]a[łl]a?|przes[łl]a[łl]a?|przys[łl]a[łl]a?\b|wklejam|wklei[łl]a?|przysz[łl]o|przysz[łl]a|kwam binnen|geplakt|plak hier|"
               # Swedish ("lhci-botten kommenterade på PR:en:", "auditen från konsulten, fick den nyss:", "klistrar in:")
               # (someone else's doing: not "Jag kommenterade ...", "Skickade du ...?", "Jag fick det att fungera",
               # "När jag kom in i morse", "Vidarebefordra aldrig ...")
               r"(?<!jag )(?<!vi )(?<!du )(?<!ni )(?:kommenterade|skickade|vidarebefordrade)(?! (?:du|ni|jag|vi)\b)|"
               r"fick (?:den|detta|dem) (?:nyss|precis|idag|i dag|i morse)|(?<!jag )(?<!vi )kom in (?:nyss|precis|idag)|"
               r"klistra(?:r|de)? in")
# A line of the user's that announces what they paste next, and ends on ":" ("pasting the review:", "here's
# what the job printed:", "the customer's ticket, for context:", "logs from export-svc earlier:").
_ANNOUNCE = re.compile(
    r"\b(?:past(?:e|ed|ing)|forward(?:ed|ing)?|for context|for reference|fyi|below|attached|excerpt|screenshot|"
    # (what the user writes out next is theirs: "here's the plan:", "here's what I want:")
    r"(?:here'?s|here is|this is)(?! (?:the|my|our) (?:plan|steps|order|list|rules|todo|priorities|agenda)\b|"
    r" (?:what|how) (?:i|we)(?:'d| would| want| need| will|'ll| plan| propose)\b)|"
    r"output|printed|print(?:s|ing)|logs?|trace(?:back)?|review(?:er)?'?s?|ticket|e-?mail|mail|thread|message from|"
    # (the verb, not the adjective: "the shared staging settings:" are the user's own)
    r"(?:said|wrote|says|writes|replied|dice|dicen|diz|dizem|sagt|dit)|got (?:this|these|that)|received|came in|"
    r"(?:sent|shared)(?= (?:us|me|over|along|this|these|it|them|the|a|an|some|his|her|their|with)\b|\s*:)|"
    # (an aside before the colon: "cert checklist they sent (long, sorry):"; not the user's own list, "Still to be sent
    # (by Friday):", "Things I want shared (internally only):")
    r"(?<!be )(?<!been )(?<!being )(?<!want )(?<!wanted )(?<!need )(?<!needs )(?<!get )(?<!got )(?<!to )"
    r"(?:sent|shared)(?=\s*\([^()\n]{0,30}\)\s*:)|"
    # (look at this: "ye dekh:", "look at this:", "mira esto:", "olha isso:", "schau mal:")
    r"(?:ye|yeh|isko|is)\s+(?:dekh|dekho|padh|padho)|dekh\s+(?:ye|yeh|isko)|look at this|check this out|mira esto|"
    # (someone's text to read: "can you make sense of this:", "se lige det her:"; an opinion asked over it is
    # _OPINION_ASKED's)
    r"make sense of (?:this|these)|"
    r"se (?:lige )?(?:det|den|dette|denne) (?:her|h[äa]r)|kig (?:lige )?p[åa] (?:det|den|dette|denne) (?:her)|"
    r"kolla (?:in )?(?:det h[äa]r|detta)|"
    r"olha (?:isso|isto|s[óo])|schau (?:mal|dir das an)|regarde (?:[çc]a|moi [çc]a)|guarda (?:qui|questo)|"
    # (a text of a kind someone else writes: "abstract of the paper Wei sent:", "the HPC announcement:")
    r"abstract|announcement|newsletter|press release|transcript|"
    # the same in other languages ("o Caio mandou isso:", "recusaram de novo, segue a mensagem:", "te paso el correo
    # de Hacienda:", "voici le mail du client :", "hier ist die Nachricht:")
    + _SENT_WORDS + r"|escribi[óo]|a [ée]crit|hat \w+ geschrieben|ha segnalato|abaixo|reenvi\w*|aqu[ií] va|abajo|"
    r"transf[ée]r[ée]|transf[èe]re|ci-dessous|hat \w+ geschickt|unten|inoltrat\w*|qui sotto|plainte|queja|reclama[çc][ãa]o|"
    # pasting, said so ("je la colle ici:", "te lo pego:", "colei aqui:", "lo incollo qui:", "hier eingefügt:")
    r"(?:je )?(?:la |le |les )?coll(?:e|é|ée|és|ées)\b|peg(?:o|ué|ado)\b|colei\b|colo aqui|incoll\w+|eingef(?:ü|ue)gt|geplakt|"
    # where a colleague said it ("Caio no slack:", "from Teams:")
    r"(?:no|on|in|from|en|auf|su|sur) (?:slack|whatsapp|teams|discord|telegram|signal)|"
    # (handed over for reference: "Katarzyna sent the relevant bit of the agreement, just so you have it:")
    r"so you have it|for your (?:info|information|records)|for the record|left (?:\w+ )?(?:comments?|notes?|feedback)|"
    # where it comes from ("from the nRF52840 datasheet:", "from Tomasz's review:")
    r"^\W*from (?:the|a|an|our|their|his|her|my|[A-Z][\w-]*'s?) [^:]{1,60}|datasheet|errata|reference manual|changelog|"
    # from a colleague, named ("from Caio (backend):")
    r"^\W*from (?-i:[A-Z\u00c0-\u00dd])[\w\u00c0-\u017f-]+(?: \([^)\n]{1,30}\))?|"
    # (a colon inside a word, "kommenterade på PR:en:"; not a clock's or an id's, "closed at 14:05, new rules:")
    r"release notes)\b(?:[^:]|:(?=[^\W\d_])){0,80}:\s*$",
    re.IGNORECASE)


_DOCS = r"(?:docs?|document\w*|rfc|spec\w*|manual|runbook|polic\w+|pol[ií]tica|contract|contrato|contrat|vertrag)"
_EXCERPT = re.compile(r"\b(?:excerpt|forwarded|pasted|copied|copy of|verbatim|for context|for reference|"
                      r"(?:the )?relevant (?:bit|part|section|passage|clause|page)s?|"
                      # what a document says, said so ("here's what the doc says:", "esto es lo que dice el doc:")
                      r"(?:says|dice|diz|sagt|dit|stands in) (?:the|el|la|o|a|der|die|das|le|in the) " + _DOCS + "|"
                      r"(?:the|el|la|o|a|der|die|das|le) " + _DOCS + r" (?:says|dice|diz|sagt|dit))\b", re.IGNORECASE)
# A line on its own that names what follows as someone else's text, with no colon ("tax law excerpt for
# context", a blank line, the article).
# Or that says whose words they are, or where they came from ("manon's notes for the files screen, apply them to X",
# "hugo's review on my pr, handle what makes sense", "review comments below, go through them", "customer email from
# support, can you reproduce", "fwd from support").
_LAST_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=\S)")  # a line's sentence announces ("ok so the reviews. pasting the relevant one")
_ANNOUNCED_ALONE = re.compile(r"^[^:.?!]{0,60}(?:(?:貼|共有|転送|以下|下記|抜粋|粘贴|转发|붙여|공유|전달)[^:.?!\n]{0,20}$|"
                              # a text of someone's that came in or is below, said so ("Trivyのレポート来てた", "レビューコメ
                              # ント↓", "review comments 👇"; not "House rules for this repo 👇", "新しいサーバー届いた")
                              r"(?:レビュー|レポート|ドキュメント|メール|ログ|コメント|チケット|スレッド|議事録|仕様|\b(?:review|"
                              r"comments?|logs?|output|report|e-?mail|mail|ticket|thread|trace)\b)[^:.?!\n]{0,20}"
                              # (in Hinglish: "ye mail aaya hai, dekh")
                              r"(?:[\u2193\u2b07\U0001f447]|来てた|来ました|届いた|届きました|\baay[ai]e?(?: hai)?"
                              r"(?:\W+(?:dekh|dekho|padh|padho|see|look))?)\W*$|\b(?:excerpt|for context|"
                              r"for reference|past(?:ed|ing)|forwarded|screenshot|"
                              r"copied|(?:\w+'s|from \w+|\w+ (?:left|sent|wrote)(?: (?:me|us|a|some))?) (?:\w+ )?(?:review|"
                              r"comments|notes|feedback|e-?mail|mail|ticket)s?|(?:comments|logs?|output|e-?mail|trace) below|"
                              r"customer(?:'s)? (?:e-?mail|mail|ticket)|^\W*fwd?|"
                              # what someone sent ("olha o que a Apple mandou", "look at this review lol")
                              r"(?:o que|what) [\w\s]{1,30}\b(?:mandou|enviou|escreveu|sent|wrote|said)|"
                              r"(?:this|these) (?:\w+ )?(?:review|e-?mail|mail|ticket|message|report|bug)s?|"
                              # whose it is in other languages ("email do Sentry agora há pouco", "bug do Júlio, vê aí")
                              r"(?:e-?mail|mail|bug|ticket|review|log|mensagem|mensaje|correo|messaggio|nachricht|"
                              r"relat[óo]rio|informe) (?:do|da|de|del|de la|von|vom|der|di|del|della|du) [\w\u00c0-\u017f]+|"
                              # what is below, and what is only context ("PR review below. just context for now",
                              # "hokuyo support replied below", "el correo va abajo", "segue abaixo")
                              r"(?:just|only) (?:for )?context|context only)\b[^:.?!]{0,40}$|"
                              r"^[^:?!]{0,60}\b(?:below|abajo|abaixo|ci-dessous|unten|qui sotto)\W*$)", re.IGNORECASE)
# What the agent makes of a text, asked over it ("hvad siger du til det her?", "what do you make of this?", "was sagst
# du dazu?"): someone's text only when it opens on a title line of its own or a letter's greeting (a grid code
# excerpt, a mail), not the user's own draft rules under "Thoughts on this?".
_OPINION_ASKED = re.compile(r"\b(?:what do you (?:think|make) of|thoughts on|hvad (?:siger|synes) du (?:til|om)|hva (?:sier|"
                            r"synes) du (?:til|om)|vad (?:s[äa]ger|tycker) du om|was sagst du (?:dazu|zu)|was h[äa]ltst du "
                            r"(?:davon|von)|qu[ée] opinas de|o que (?:voc[êe] )?acha d[aeo]|que penses-tu de|cosa ne pensi di)"
                            r"\s*(?:this|these|det her|dette|denne|det h[äa]r|detta|das|dem|esto|isso|[çc]a|questo)?\W*$",
                            re.IGNORECASE)


# A machine's text announced ("security scan output:", "the linter's report:", "build log:").
_MACHINE = re.compile(r"\b(?:output|log|logs|scan|report|trace|traceback|stack ?trace|dump|run)\b", re.IGNORECASE)
_REPORT_FIELD = re.compile(r"^[A-Z][\w /()-]{1,30}(?: #\d+)?:\s+\S")  # "Vulnerability #1: GO-2024-2687", "Total: 3 (...)"


def _titled_below(lines: list[str], start: int) -> bool:
    """Whether the first line with words from ``start`` on is a title of its own or a letter's greeting."""
    first = next((line for line in lines[start:] if line.strip()), "")
    return bool(_GREETING.match(first) or (_TITLE_LINE.match(first) and len(first.strip()) <= 60
                                           and not re.match(r"\s*\d+[.)]\s", first)))


def _announced(lines: list[str], kinds: list[str]) -> None:
    """The paragraph that follows a line that announces a paste ("pasting the review:", then a reviewer's
    lines) is pasted when it is two lines or more and nothing else claimed it (a fence, a quote, a
    document): a reviewer's or a customer's sentences are theirs, not the user's rules."""
    for n, line in enumerate(lines):
        if kinds[n] or len(line) > 200:
            continue
        if not (line.rstrip().endswith(":") and _ANNOUNCE.search(line)) and not (
                n + 1 < len(lines) and not lines[n + 1].strip() and (any(
                    _ANNOUNCED_ALONE.search(said) for said in _LAST_SENTENCE.split(line)) or (
                    _OPINION_ASKED.search(line) and _titled_below(lines, n + 1)))):
            continue
        first = next((k for k in range(n + 1, len(lines)) if lines[k].strip()), len(lines))
        if _EXCERPT.search(line) or (first < len(lines) and _EXCERPT.search(lines[first])):  # (or its title says so)
            # Said to be an excerpt, a copy or a forwarded text ("the works council agreement excerpt, fyi:"), and a
            # document's length of sentences: all of it to the message's end but for the user's last short word is
            # a document, its clauses read for rules. (Output is left to _pasted_runs, which ends it where the
            # user speaks again; a short text is the paragraph below.)
            stop = _document_end(lines, first)
            body = [lines[k] for k in range(first, stop) if lines[k].strip() and not kinds[k]]
            if sum(map(len, body)) >= DOCUMENT_CHARS and _mostly_prose(body):
                for k in range(first, stop):
                    if not kinds[k]:
                        kinds[k] = "document"
                continue
        end = next((k for k in range(first, len(lines)) if not lines[k].strip()), len(lines))
        # (a paragraph of log or table lines is left to _pasted_runs, which ends it where the lines stop
        # being output: "Any idea?" after a log is the user's; a paragraph of one long line is a paste too: an
        # abstract, a post)
        if first < len(lines) and _CHAT_HEAD.match(lines[first]) and end - first >= 2:
            for k in range(first, end):  # a chat message copied under its sender and time: all of it is theirs
                if not kinds[k]:
                    kinds[k] = "pasted"
        elif (end - first >= 2 or (end - first == 1 and len(lines[first]) >= PASTED_LINE)) and not any(
                kinds[k] or line_is_pasted(lines[k]) for k in range(first, end)):
            for k in range(first, end):
                kinds[k] = "pasted"
        elif sum(1 for k in range(first, end) if lines[k].lstrip().startswith(">")) >= 2:
            # a review's comments, each under the quoted line it is about ("> internal/notify/worker.go:319", "Do
            # not start a goroutine here ..."): the comments between and after the quotes are the reviewer's, but
            # a last line that asks
            for k in range(first, end):
                if not kinds[k] and lines[k].strip() and not (k == end - 1 and lines[k].rstrip().endswith("?")):
                    kinds[k] = "pasted"
        elif _MACHINE.search(line) and any(kinds[k] or line_is_pasted(lines[k]) for k in range(first, end)) and (
                sum(1 for k in range(first, end) if kinds[k] or line_is_pasted(lines[k])) * 3 < (end - first) * 2):
            # Under "security scan output:", a report only some of whose lines look like output: its indented lines
            # ("  Found in: golang.org/x/net@v0.21.0") and its fields ("Vulnerability #1: GO-2024-2687") are its own
            # too; a sentence of the user's after a failing test's line ("Never mark it xfail, ...") stays theirs.
            for k in range(first, end):
                if not kinds[k] and lines[k].strip() and (lines[k][:1].isspace() or _REPORT_FIELD.match(lines[k])):
                    kinds[k] = "pasted"
        elif sum(1 for k in range(first, end) if kinds[k] or line_is_pasted(lines[k])) * 3 >= (end - first) * 2:
            # mostly output or a table: its title over it and its note under it are the paste's too ("Data queries -
            # monitoring visit 25 maggio", the rows, "Do not close queries without the investigator's signature."),
            # not a line in the user's voice (a question, lower case, "this is what breaks")
            for k in range(first, end):
                if not kinds[k] and lines[k].strip() and (_CAPITAL.match(lines[k]) or _TABLE.match(lines[k])
                                                          or _SPEAKER.match(lines[k])) \
                        and not lines[k].rstrip().endswith("?") and not _RESUMES.match(lines[k]):
                    kinds[k] = "pasted"
        # The paragraphs after it that hold a quoted or an output line, or a document, are the same paste (a
        # review's comments, each under its file and the quoted line, "You must not hold the bus mutex across a
        # k_yield()."; a datasheet's register table under its search line), its first paragraph with them
        # however short.
        paragraphs = _paragraphs(lines, first)
        reach = 0
        for start, stop in paragraphs[1:]:
            if not any(kinds[k] or line_is_pasted(lines[k]) for k in range(start, stop)):
                break
            reach = stop
        # Between the line that announces someone's text and a last short line that asks about it ("bug do Júlio, vê
        # aí", a tester's report with her own "Favor corrigir antes do próximo release ...", then "o que acha?"), all
        # of it is the paste: the user speaks before and after it, and in no paragraph between. (Not after a log or
        # an output announced: a paragraph of the user's may follow it.)
        # So is all of it to the message's end when no paragraph after the first reads as the user's ("recusaram de
        # novo, segue a mensagem:", then App Review's whole letter).
        # When only the last paragraph reads as the user's and the paste opens on a title line of its own, what is
        # between them is the paste (an auditor's report: its title, summary and findings, then "ok så, med mina ord,
        # det här gäller hos oss: ..."). Not past a letter's closing ("Regards, Priya", then the user's own orders),
        # nor over a paragraph that opens in the first person ("Jag håller med honom. Använd aldrig ...").
        if paragraphs and (_SOMEONES.search(line) or (_PASTE_WORD.search(line) and not _MACHINE.search(line)) or (
                _LOOK_WORD.search(line) and paragraphs[0][1] - paragraphs[0][0] == 1
                and _TITLE_LINE.match(lines[paragraphs[0][0]]) and len(lines[paragraphs[0][0]]) <= 60)):
            # (or, under a letter's closing and signer, one short line that is not the letter's: "BR Lars, Marine
            # Coordination", then "Kig på det når du har tid.")
            closing = len(paragraphs) >= 2 and (_asks_after(lines, paragraphs[-1]) or (
                paragraphs[-1][1] - paragraphs[-1][0] == 1 and len(lines[paragraphs[-1][0]].strip()) <= ASKS_AFTER_CHARS
                and _signed_off(lines, paragraphs[-2][1]) and _speaks_again(lines[paragraphs[-1][0]])))
            between = paragraphs[1:-1] if closing else paragraphs[1:]
            again = next((n for n, (start, _stop) in enumerate(between) if _USER_AGAIN.match(lines[start])
                          or TAKEN.match(lines[start])  # ("Czyli u nas: przypinamy psp-sdk 5.18.1 ...")
                          # (under a letter's closing and its signer: "Un saluto,", "Davide Conti", then the user)
                          or (_signed_off(lines, (between[n - 1] if n else paragraphs[0])[1])
                              and _speaks_again(lines[start]))
                          or lines[start].rstrip().endswith("?")
                          or not (_CAPITAL.match(lines[start]) or _LONE_PATH.match(lines[start]))
                          or _RELAYED.match(lines[start]) or _ENVELOPE_LINE.match(lines[start])), None)
            if again is None:
                reach = max(reach, (paragraphs[-2] if closing else paragraphs[-1])[1])
            elif TAKEN.match(lines[between[again][0]]) or _signed_off(
                    lines, (between[again - 1] if again else paragraphs[0])[1]):
                # the user again, by what they take from it or under its signer: what came before is the paste
                reach = max(reach, (between[again - 1] if again else paragraphs[0])[1])
            elif ((again >= 2 or (again == 1 and sum(len(lines[k]) for k in range(*between[0])) >= BODY_CHARS))
                  and again == len(between) - 1 and (_RESUMES.match(lines[between[again][0]])
                                                     or not _CAPITAL.match(lines[between[again][0]]))
                  and _TITLE_LINE.match(lines[paragraphs[0][0]]) and paragraphs[0][1] - paragraphs[0][0] == 1
                  and not any(_CLOSING.match(lines[k]) for k in range(first, between[again - 1][1]))
                  and not any(_OWN_OPENING.match(lines[start]) for start, _stop in between[:again])):
                reach = max(reach, between[again - 1][1])
        if reach:
            for k in range(first, reach):
                if not kinds[k] and lines[k].strip():
                    kinds[k] = "pasted"


# A chat message as Slack or Teams copies it: its sender's name and the time on a line of their own ("Emre Yilmaz  14:47",
# "Sanne de Vries, 9:02 AM").
_CJK_NAME = r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]{1,6}(?: [\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]{1,6})?"
_CHAT_HEAD = re.compile(r"^\s*(?:[A-Z\u00c0-\u00dd][\w.'-]*(?: [A-Z\u00c0-\u00dd][\w.'-]*){0,3}|" + _CJK_NAME +
                        r"),?\s+\[?\d{1,2}:\d\d(?::\d\d)?"
                        r"(?:\s*[AaPp]\.?[Mm]\.?)?\]?\s*$")


_SENDER_LINE = re.compile(r"^\s*(?:from|von|de|da|van|od)\s*:|^[^\n]{1,30}(?:より|から)\s*[:：]?\s*$", re.IGNORECASE)
_RULE_LINE = re.compile(r"^\s*(?:-{3,}|={3,}|_{3,}|-{2,} ?(?:original message|forwarded message) ?-{2,})\s*$", re.IGNORECASE)
RULED_LINES = 80  # the lines between two rules that may be a text set off by them


def _ruled_off(lines: list[str], kinds: list[str]) -> None:
    """A text set off between two rules ("-----", a manager's message copied between them, "-----") is someone's
    pasted text when the user writes outside it and says whose it is: the line before it names a sender or announces
    it ("from my boss, fyi"), or its first line does ("佐藤部長より:", "From: ...", a greeting). The user's own message
    cut into parts by rules stays theirs."""
    rules = [n for n, line in enumerate(lines) if not kinds[n] and _RULE_LINE.match(line)]
    for a, b in zip(rules[::2], rules[1::2]):
        outside = any(lines[k].strip() and not kinds[k] for k in (*range(a), *range(b + 1, len(lines))))
        before = next((lines[k] for k in range(a - 1, -1, -1) if lines[k].strip()), "")
        inside = next((lines[k] for k in range(a + 1, b) if lines[k].strip()), "")
        whose = ("message" in lines[a].lower() or _SOMEONES.search(before) or _ANNOUNCED_ALONE.search(before)
                 or _ANNOUNCE.search(before) or _GREETING.match(inside) or _SENDER_LINE.match(inside))
        if 1 < b - a <= RULED_LINES and outside and whose:
            for k in range(a, b + 1):
                kinds[k] = kinds[k] or "pasted"


_CHANNEL = re.compile(r"^\s*#[\w-]{2,40}\s*$")  # a chat's channel, on its own line over its messages ("#amr-nav")


# A chat's message copied on one line under its time, date and sender, as WhatsApp prints it ("[00:07, 19/3/2024]
# Chuy Villarreal: silencien ...", "[19/03/2024, 00:07:12] ...", an export's "19/03/2024, 00:07 - Chuy: ...", "[22/11
# 05:11] Pak Darto Hub Cakung: ...").
_TIME = r"\d{1,2}:\d{2}(?::\d{2})?(?:\s?[AaPp]\.?[Mm]\.?)?"
_DATE = r"\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4}"
_DAY = r"\d{1,4}[/.-]\d{1,2}(?:[/.-]\d{1,4})?"  # (in brackets, a day and a month alone too: "[22/11 05:11] Pak Darto: ...")
# (not the user's own lines among them: "[22/11 05:20] Me: rotated the logs, never restart db-2 in business hours")
_CHAT_EXPORT = re.compile(rf"^\s*(?:\[(?:{_TIME},? {_DAY}|{_DAY},? {_TIME})\]|{_DATE},? {_TIME} -) "
                          r"(?!(?:me|i|moi|yo|eu|io|ich|saya|aku|gue|gw|you)\s*:)[^:\n]{1,40}: \S", re.IGNORECASE)


def _chat_logs(lines: list[str], kinds: list[str]) -> None:
    """A chat's messages copied with their senders and times ("Kenta Ueda  13:50", then the message, its reactions),
    two or more: each, from its sender's line to the next sender or a blank line, is its sender's, and so is the
    channel's line above the first. The same for messages copied one a line under their time and sender
    (:data:`_CHAT_EXPORT`), each to the next one."""
    exported = [n for n, line in enumerate(lines) if not kinds[n] and line[:1] in "[0123456789 " and _CHAT_EXPORT.match(line)]
    if len(exported) >= 2:
        for n in exported:
            k = n
            while k < len(lines) and lines[k].strip() and (k == n or k not in exported) and not kinds[k]:
                kinds[k] = "pasted"
                k += 1
    heads = [n for n, line in enumerate(lines) if not kinds[n] and len(line) <= 60 and _CHAT_HEAD.match(line)]
    if len(heads) < 2:
        return
    for n in heads:
        k = n
        while k < len(lines) and lines[k].strip() and (k == n or k not in heads) and not kinds[k]:
            kinds[k] = "pasted"
            k += 1
    first = heads[0]
    if first and _CHANNEL.match(lines[first - 1]) and not kinds[first - 1]:
        kinds[first - 1] = "pasted"


# A document's title on a line of its own: short, no sentence that ends ("Tillgänglighetsgranskning – web, version 3.10
# (Tomas Lind)", "Incident review: checkout outage").
_TITLE_LINE = re.compile(r"^\s*[^\W\d_][^\n]{2,100}(?<![.!?:;,])\s*$")
# A paragraph that opens in the first person or joins on to what was said ("Jag håller med honom.", "We agreed ...",
# "Dessutom ...", "Also ..."): the user again, or the sender; either way not a report's own line.
_OWN_OPENING = re.compile(r"^\W*(?:i|we|jag|vi|ich|wir|je|nous|yo|eu|io|ik|wij|ja|my|dessutom|också|och|and|also)\b",
                          re.IGNORECASE)


# An announcement of someone's text, not of an output: who sent it, that it is pasted, or a kind of text people write.
# (said to be pasted, of no output: "pasting from the thread:", not "pasting the test output:")
_PASTE_WORD = re.compile(r"\b(?:past(?:ed|ing)|copied|copy-?pasted?)\b", re.IGNORECASE)
# (look at this, over a text under a title line of its own: "ye dekh:", "NPCI/2024-25/UPI/26", its body; not over the
# user's own words, "mira esto:", "De ahora en adelante, ...")
_LOOK_WORD = re.compile(r"\b(?:(?:ye|yeh|isko)\s+(?:dekh|dekho|padh|padho)|dekh\s+(?:ye|yeh|isko)|look at this|mira esto|"
                        r"olha (?:isso|isto)|\bmail aay[ai]e?)\b", re.IGNORECASE)
BODY_CHARS = 200  # a paragraph this long under a title line of its own is a text's body ("NPCI/2024-25/UPI/56", then it)
_SOMEONES = re.compile(r"\b(?:sent|shared|forwarded|wrote|said|replied|" + _SENT_WORDS +
                       r"|threads?|circulars?|notices?|memos?|directives?|e-?mails?|mails?|messages?|tickets?|bugs?|"
                       r"reviews?|reports?|announcements?|letters?|notes?|feedback|comments?|slack|whatsapp|teams|discord|telegram|"
                       r"likha|bheja|kaha|bola|contract|agreement|sow|transf[èe]re|plaintes?|quejas?|reclama[çc](?:[ãa]o|[õo]es)|"
                       # (a document someone else wrote: "here's the feed spec from the new supplier:")
                       r"spec(?:ification)?s? from)\b|(?:貼|共有|転送|より|から|粘贴|转发|붙여|공유|전달)|\b(?!(?:here|there|that|it|what|who|let|he|she)'s)\w+'s\b|\b(?:from|do|da|del|von|di|du) (?-i:[A-Z\u00c0-\u00dd])",
                       re.IGNORECASE)


# A file a reviewer's comments under it are on ("services/orders/internal/http/handler.go"), or a review's header
# ("**tlindqvist** requested changes on #4090"): the sender's text, as a capitalised sentence is.
_LONE_PATH = re.compile(r"^\s*(?:[\w.@-]+/)+[\w.@-]+(?::\d+)?\s*$|^\s*\*\*[^*\n]{1,40}\*\*\s")


# A paragraph in which the user speaks again, in the middle of what they pass on ("Also, ...", "thanks", "can you ...");
# "We noticed ..." and "I ..." are the sender's as often.
_USER_AGAIN = re.compile(r"^\W*(?:(?-i:this|that|these)|the above|above|thanks|thx|ty|pls|please|can you|could you|scratch|"
                         r"sorry|also|and|so|ok|okay|anyway|btw|actually|wait|hm+|oh)\b", re.IGNORECASE)
# (in the user's chat case: "This is a potentially important study. However, ..." opens a reviewer's letter)


# A relay's envelope on a line of its own, the user's words under it ("[WhatsApp voice note, transcribed 15:00]").
_ENVELOPE_LINE = re.compile(r"^\s*\[[^\]\n]{0,60}\b(?:voice|whatsapp|sms|signal|telegram|slack dm|dm|transcri\w*)\b[^\]\n]{0,60}\]\s*$",
                            re.IGNORECASE)


def _asks_after(lines: list[str], paragraph: tuple[int, int]) -> bool:
    """Whether ``paragraph`` is one short line of the user's about what came before it ("o que acha?", "what do they
    want exactly?", "dá pra ver isso hoje?", "the batch one worries me.")."""
    start, stop = paragraph
    line = lines[start].strip()
    # (or says what the user makes of it, in their own lower case: "the batch one worries me.")
    return stop - start == 1 and len(line) <= ASKS_AFTER_CHARS and (line.endswith("?") or line[:1].islower()
                                                                     or bool(_USER_AGAIN.match(line)))


ASKS_AFTER_CHARS = 120
PASTED_LINE = 200  # a line under an announcing one this long is a paragraph of someone's text on its own
# A signature under someone's text ("-- the HPC team", "— Wei"): the dashes a mail's signature opens with.
_SIGNATURE = re.compile(r"^\s*(?:--|\u2014|\u2013)\s*[^\W\d_][^\n]{0,40}$")


# A notification's or a list's subject under its sender's tag ("[Sentry] New issue: TypeError: ...", "[hpc-announce]
# Scheduled maintenance ..."); not a relay of the user's own words ("[WhatsApp 18:15] ...", a tag with a time).
_TAGGED_SUBJECT = re.compile(r"^\s*\[(?!(?:whatsapp|slack|sms|signal|telegram|voice|dm)\b)[A-Za-z][\w .-]{1,30}\]\s+"
                             r"(?-i:[A-Z])[^\n]{10,}$", re.IGNORECASE)
# A paper's abstract under its own label ("Abstract. Long-context extension is usually done by ..."): the authors' words.
_ABSTRACT = re.compile(r"^\s*(?:[Aa]bstract|ABSTRACT)\s*[.:\u2014-]\s+[A-Z]")


_SIGNATURE_MARK = re.compile(r"^-- ?$")  # a mail's signature delimiter, "-- " alone on its line (RFC 3676)


def _signed(lines: list[str], kinds: list[str]) -> None:
    """The paragraph over a signature ("[hpc-announce] Scheduled maintenance ... Users must checkpoint long jobs
    before 05:30. ...", then "-- the HPC team") is the signer's, pasted, when the user speaks elsewhere in the
    message ("admins again:"); a message signed and nothing else is the user's own. So is a paper's abstract, under
    its label, and a notification under its sender's tag, when the user speaks elsewhere in the message ("this
    abstract, relevant?", "sentry is yelling:")."""
    for n, line in enumerate(lines):
        if not kinds[n] and _SIGNATURE_MARK.match(line) and n + 1 < len(lines) and lines[n + 1].strip():
            # a signature under its delimiter: the lines to the next blank one ("Tobias Kramer, Abt. Küstenklima, Tel.
            # -4307"), when the user speaks elsewhere in the message
            end = next((k for k in range(n + 1, len(lines)) if not lines[k].strip()), len(lines))
            # (a name, a team, a phone: short lines that end in no sentence's stop; "--" over "Don't touch prod
            # before Friday." sets a rule apart, no signature)
            if end - n - 1 <= SIGNATURE_LINES and all(len(lines[k]) <= 80 and not lines[k].rstrip().endswith(
                    (".", "!", "?", ":")) for k in range(n + 1, end)) and any(
                    lines[k].strip() and not kinds[k] for k in (*range(n), *range(end, len(lines)))):
                for k in range(n, end):
                    kinds[k] = kinds[k] or "pasted"
            continue
        if not kinds[n] and (_ABSTRACT.match(line) or _TAGGED_SUBJECT.match(line)) and (n == 0 or not lines[n - 1].strip()):
            end = next((k for k in range(n, len(lines)) if not lines[k].strip()), len(lines))
            if any(lines[k].strip() and not kinds[k] for k in (*range(n), *range(end, len(lines)))):
                for k in range(n, end):
                    kinds[k] = kinds[k] or "pasted"
            continue
        if kinds[n] or not _SIGNATURE.match(line):
            continue
        start = n
        while start > 0 and lines[start - 1].strip() and not kinds[start - 1]:
            start -= 1
        if start == n or not any(lines[k].strip() and not kinds[k] for k in (*range(start), *range(n + 1, len(lines)))):
            continue
        for k in range(start, n + 1):
            kinds[k] = "pasted"


# The words a mail or a letter closes on ("Best regards", "LG", "Viele Grüße", "Abraços", "Pozdrawiam"): on a line of their
# own, what came before is the letter's (see _letters) or the user's finished sentence (see user_words).
SIGN_OFF_WORDS = (r"(?:(?:best|kind|warm|many|with)\s+)?(?:regards|wishes|thanks(?: a lot| again)?|thank you(?: so much)?|thx|"
                  r"cheers|best|groet(?:en)?|met vriendelijke groet(?:en)?|mvg|(?:viele|liebe|beste|herzliche) gr(?:ü|ue)(?:ß|ss)e|"
                  r"gr(?:ü|ue)(?:ß|ss)e|gru(?:ß|ss)|lg|vg|mfg|saludos|un sal(?:udo|uto)|cordialement|bien (?:à|a) vous|merci(?: beaucoup)?|"
                  r"ciao|cordiali saluti|saluti|abra(?:ç|c)os?|beijos?|obrigad[oa]|h[äa]lsningar|mvh|pozdrawiam|pozdrowienia|"
                  # ("BR Lars, Marine Coordination", "Venlig hilsen", "Bedste hilsner", "Vh Pia"; "BR" in capitals only)
                  r"(?-i:BR|B\.R\.)|(?:med )?venlig hilsen|(?:de )?bedste hilsner|hilsen|vh|kh|"
                  # Japanese, Chinese, Korean ("以上、よろしくお願いします。", "敬具", "此致", "감사합니다")
                  r"(?:以上[、,]\s*)?よろしくお願い(?:します|いたします|致します|申し上げます)|敬具|此致|감사합니다)")
# A letter's greeting to someone by name, on a line of its own ("Hallo Júlia,", "Dear Dr. Kessler,", "Olá Caio,"), and
# its closing ("LG Ulrike", "Best regards,", "Cheers, Tom", "Abraços"): a mail or a letter pasted whole.
_GREETING = re.compile(r"^\s*(?:hi|hello|hey|dear|hallo|liebe[rs]?|sehr geehrte[rs]?|hej|hola|ol[áa]|oi|ciao|buongiorno|"
                       r"bonjour|salut|beste|geachte|guten (?:morgen|tag)|cze[sś][cć]|dzie[nń] dobry)\s+(?:(?:dr|prof|mr|ms|mrs|"
                       r"frau|herr)\.?\s+)?(?-i:[A-Z\u00c0-\u00dd])[^\n,]{0,40},\s*$|"
                       # a name and its honorific, on a line of its own ("大西さん", "森本様", "김민수님")
                       r"^\s*[^\s,、。:：]{1,12}(?:さん|様|さま|殿|先生|님)[、,]?\s*$|"
                       # or to no one by name ("Hello,", "Dear customer,", "Hi team,")
                       r"^\s*(?:hi|hello|hey|dear|hallo|hola|ol[áa]|bonjour|ciao|namaste)(?:\s+(?:all|team|everyone|there|"
                       r"sir(?:/madam)?|madam|customer|valued customer|colleagues|folks|sir or madam))?\s*,\s*$", re.IGNORECASE)
# (the sign-off, then at most a name: "LG Ulrike", "Cheers, Tom"; not "Thank you for contacting E2E Networks Support.")
# (and the signer's team after a comma: "BR Lars, Marine Coordination")
_CLOSING = re.compile(r"^\s*" + SIGN_OFF_WORDS + r"\b[,!.\u3002\uff01]?\s*(?:(?-i:[A-Z\u00c0-\u00dd])[\w.'-]*(?:\s+(?-i:[A-Z\u00c0-\u00dd])"
                      r"[\w.'-]*){0,2}(?:,\s*(?-i:[A-Z\u00c0-\u00dd])[\w.'&-]*(?:\s+(?-i:[A-Z\u00c0-\u00dd])[\w.'&-]*){0,3})?)?"
                      r"\s*[,!.\u3002\uff01]?\s*$", re.IGNORECASE)
LETTER_LINES = 60  # a letter's lines from its greeting to its closing, at most
SIGNATURE_LINES = 4  # the short lines of a signature under a letter's closing, at most
SIGNATURE_CHARS = 40


def _letters(lines: list[str], kinds: list[str]) -> None:
    """A letter pasted whole, from its greeting to someone by name to its closing and the name under it ("Hallo Júlia,",
    ..., "LG Ulrike"), is its sender's when the user speaks elsewhere in the message ("Ulrike wote this:"); a letter
    and nothing else is the user's own (a draft they wrote)."""
    for n, line in enumerate(lines):
        if kinds[n] or (n and lines[n - 1].strip()) or not _GREETING.match(line):
            continue
        end = next((k for k in range(n + 1, min(len(lines), n + LETTER_LINES)) if not kinds[k] and _CLOSING.match(lines[k])), -1)
        if end < 0:
            continue
        for _ in range(SIGNATURE_LINES):  # the name under the closing, and the sender's title, team and case under it
            if end + 1 < len(lines) and 0 < len(lines[end + 1].strip()) <= SIGNATURE_CHARS:  # ("Support Engineer, E2E
                end += 1  # Networks", "Cisco TAC - Routing Protocols", "Case: 694031942 | Severity 3"), to a blank line
        if any(lines[k].strip() and not kinds[k] for k in (*range(n), *range(end + 1, len(lines)))):
            for k in range(n, end + 1):
                kinds[k] = kinds[k] or "pasted"


# A code review's header as a forge prints it ("**lena-h** requested changes on #4776", "@joonp approved these changes"),
# and a comment of it on a line of a file ("  L61  you should never log the whole request body here").
_REVIEW_HEAD = re.compile(r"^\s*(?:\*\*@?[\w.-]{1,40}\*\*|@[\w.-]{1,40}) (?:requested changes|approved(?: these changes)?|"
                          r"commented|left (?:a review|review comments)|reviewed)\b")
REVIEW_COMMENT = re.compile(r"^\s+L\d+(?:-L?\d+)?\s{2,}\S")
_REVIEW_CLOSE = re.compile(r"^\s*(?:overall|summary|in general|lgtm|looks good)\b", re.IGNORECASE)


def _reviews(lines: list[str], kinds: list[str]) -> None:
    """A code review pasted whole: from its header through the paragraphs of its comments (each under the file it is
    on) and its closing "Overall: ...", to the paragraph where the user speaks again after it. The reviewer's "must:
    add a test", "never log the request body" are the reviewer's, evidence until the user adopts them."""
    for n, line in enumerate(lines):
        if kinds[n] or not line.startswith(("*", "@", " ")) or not _REVIEW_HEAD.match(line):
            continue
        paragraphs = _paragraphs(lines, n)
        stop = paragraphs[0][1]
        commented = False
        for start, end in paragraphs[1:]:
            body = range(start, end)
            if any(REVIEW_COMMENT.match(lines[k]) for k in body):
                commented, stop = True, end
            elif commented and _CAPITAL.match(lines[start]) and not _USER_AGAIN.match(lines[start]) and (
                    _REVIEW_CLOSE.match(lines[start]) or any(lines[k].strip() for k in range(end, len(lines)))):
                stop = end  # the review's own closing words ("Overall: close, fix the must: items and ping me."),
                break  # when the user speaks after it, or when they say so
            else:
                break
        if commented:
            for k in range(n, stop):
                if not kinds[k] and lines[k].strip():
                    kinds[k] = "pasted"


# A forge's issue or pull request as its page prints it under the title: its state and who opened it ("Open ·
# mhoffmann-dev opened this issue 19 days ago · 2 comments", "Merged · lena-h merged 3 commits into main").
_FORGE_STATE = re.compile(r"^\s*(?:(?:open|closed|merged|draft)\s*[·\u2022|-]\s*)?@?[\w.-]{1,40} (?:opened this (?:issue|pull request)|"
                          r"wants to merge \d+ commits?|merged \d+ commits? into)\b", re.IGNORECASE)


def _forge_pages(lines: list[str], kinds: list[str]) -> None:
    """An issue or a pull request pasted from its page: its title (the line above its state line, "kaiyo-sensing/
    kaiyo_lidar_ros2 · Issue #214 · Segfault in ...") and its state line are the page's, as its body is."""
    for n, line in enumerate(lines):
        if kinds[n] or not _FORGE_STATE.match(line):
            continue
        kinds[n] = "pasted"
        if n and lines[n - 1].strip() and not kinds[n - 1]:
            kinds[n - 1] = "pasted"


def _paragraphs(lines: list[str], first: int) -> list[tuple[int, int]]:
    """The paragraphs from line ``first`` on, as (first line, line after the last)."""
    out: list[tuple[int, int]] = []
    k = first
    while k < len(lines):
        if not lines[k].strip():
            k += 1
            continue
        end = next((e for e in range(k, len(lines)) if not lines[e].strip()), len(lines))
        out.append((k, end))
        k = end
    return out


# The user speaking again through a chat relay's envelope ("[WhatsApp 18:45] is this the one?"), not a
# chat log's line ("[21:15] Jonas: pickup is at the back gate").
_RELAYED = re.compile(r"^\[[^\]\n]{1,40}\]\s+[a-z\u00df-\u00ff]")


# What the user takes from a text they pasted, for their own work ("Heißt für uns: ...", "Für uns mach ich das strenger:
# ...", "Pour nous: ...", "Para nosotros, ...", "Czyli u nas: ...", "Bundan bizim için çıkan kural: ...", "Eso sí, ...",
# "Lo que sí: ...", "So for us: ..."): a sentence of theirs so opened right under it says what holds from it.
TAKES_FROM = (r"(?:(?:so|and|ok|also|czyli|yani|dus|alors|donc|ent[ãa]o|entonces|quindi|allora|matlab|to|tak)\W+)?(?:"
              r"(?:das )?hei(?:ß|ss)t (?:f(?:ü|ue)r uns|das)|f(?:ü|ue)r uns|bei uns|for us|for our side|on our side|pour nous|"
              r"chez nous|de notre c[ôo]t[ée]|para nosotros|de nuestro lado|pra gente|para n[óo]s|do nosso lado|per noi|"
              r"da noi|tradotto per noi|u nas|dla nas|bij ons|voor ons|f[öo]r oss|hos oss|bizim i[çc]in|bundan|"
              # (Danish, Norwegian: "For os betyder det: to mand på alle hub-jobs ...", "hos os", "for oss betyr det")
              r"for os|hos os|for oss|for vores (?:del|side)|for v[åa]r (?:del|side)|med mine (?:egne )?ord|"
              # (the user's own words for it: "Detto a modo mio, ...", "in my own words: ...", "kendi cümlemle: ...")
              r"detto a modo mio|in my (?:own )?words|in plain words|con parole mie|con mis (?:propias )?palabras|"
              r"com (?:as )?minhas (?:pr[óo]prias )?palavras|mit meinen (?:eigenen )?worten|avec mes (?:propres )?mots|"
              r"in mijn (?:eigen )?woorden|moimi s[łl]owami|kendi (?:c[üu]mlemle|s[öo]zlerimle)|"
              r"lo que s[ií]|eso s[ií]|isso a[ií]|o que vale|was (?:davon )?gilt|what applies|lo que aplica|ce qui s'applique|"
              # (the part that matters: "a parte que importa pra ti: valida o x-signature em todo webhook ...")
              r"(?:a parte|the (?:part|bit)|la parte|el punto|the one) (?:que|that) (?:importa|matters|cuenta|counts|conta)|"
              r"lo que importa|ce qui compte|was z(?:ä|ae)hlt|what matters|"
              # (what the user adopts from it, said so: "Nemen we zo over voor alle Evergreen-calls: ...", "Dat nemen we
              # mee in de crane-adapter: ...", "Das übernehmen wir: ..."; an English "we adopt ..." under a paste may be
              # the vendor's own words: see user_words._APPLIES_TO_US, read in the user's prose only)
              r"(?:(?:dat|dit|die) )?nemen we (?:zo |dus |ook )?(?:over|mee)|we nemen (?:dat|dit|het|die) (?:zo |ook )?(?:over|mee)|"
              r"(?:[^:\n]{0,40},\s*(?:dus |so )?)?(?:regel|rule|r[èe]gle|regla|regra|regola) (?:voor ons|for us|pour nous|"
              r"para nosotros|pra gente|per noi)|"
              r"(?:das|dies) (?:ü|ue)bernehmen wir|"
              r"on (?:reprend|adopte) (?:[çc]a|cela))")
TAKEN = re.compile(r"^\W*" + TAKES_FROM + r"\b", re.IGNORECASE)
# Of the text above ("De esto, ...", "From this, ...", "Davon ..."): what follows may ask something of it once, or say
# what holds (see user_words).
FROM_IT = (r"(?:de (?:esto|eso|todo eso|isso|isto|tudo isso|ça|cela|tout ça)|disso|disto|davon|daraus|"
           r"of (?:this|that|these|those|all that)|from (?:this|that|these|those)|out of (?:this|that|these|those)|"
           r"af (?:det|dette|det her)|heraf|av (?:dette|det)|h[äa]rav)")


# The user speaking again after what they pasted: a line in lower case (or in a script without capitals), one
# that points back at it or asks; a statement that opens with a capital ("Do not shut down the servers, files
# may be lost forever.") is the pasted text's own last line.
_CAPITAL = re.compile(r"^[\W\d_]*[A-Z\u00c0-\u00dd]")
_RESUMES = re.compile(r"^\W*(?:this|that|these|the above|above|it|thanks|thx|ty|pls|please|can you|could you|scratch|sorry|"
                      r"also|and|so|ok|okay|anyway|btw|actually|no|wait|hm+|oh|i|we|"
                      # what the user takes from the text above, in their words ("De ahí lo que sí aplica: ...", "De
                      # esto, ponle ...", "Lo que sí: ...", "Eso sí, ...", "Disso, só ...", "Of these, only ...")
                      r"de ah[ií]|da[ií]|" + FROM_IT + "|"
                      r"wir|ich|on (?:prend|garde|retient|applique)|" + TAKES_FROM + r"|"
                      # (a look asked at it: "Kig på det når du har tid.", "Have a look at it when you can.")
                      r"(?:have a |take a )?look at (?:it|them)|kig (?:lige )?p[åa] (?:det|den|dem)|se (?:lige )?p[åa] "
                      r"(?:det|den|dem)|titta p[åa] (?:det|den|dem))\b", re.IGNORECASE)


USER_TAIL_CHARS = 400  # a last paragraph of the user's under a document, in lower case, this long at most
# The user saying they take the text above as it is ("From now on we follow this, all of it.", "A partir de agora
# seguimos isto."): the speaker (or "from now on") first, a verb of following, then the text pointed back at, ending
# its clause; not a policy's own "Once a release window is announced, stick to it.", nor "Staff apply this policy
# as well.", whose "this" names what follows it.
_ADOPTS_IT = re.compile(r"\b(?:we|i|let'?s|from now on|going forward|a partir de (?:agora|ahora|hoy|hoje)|d[ée]sormais|"
                        r"ab (?:jetzt|sofort)|d'ora in poi|vanaf nu|voortaan|od teraz|fr[åa]n och med nu)\b[^.?!\n]{0,30}?"
                        r"\b(?:follow(?! up\b)|apply|adopt|go by|stick to|work by|seguimos|seguir|sigamos|aplicamos|suivons|"
                        r"appliquons|folgen|volgen|hanteren|stosujemy|f[öo]ljer)\b[^.?!\n]{0,12}?\b(?:this|these|it|them|"
                        r"all of it|the above|isto|isso|esto|esta|estas|questo|queste|ceci|cela|[çc]a|dies|das|dit|deze|to|"
                        r"detta|det)\s*(?:[,.!;:]|$)|"
                        # (or the user's order to take it as theirs: "Treat these as my rules from here on.")
                        r"^\W*(?:please\s+)?(?:treat|take|consider|regard) (?:this|these|it|them|all of (?:this|it)|the above) "
                        r"as (?:my|our|the|house|team) (?:own )?(?:rules?|policy|standard|law|conventions?)\b", re.IGNORECASE)


def _document_end(lines: list[str], start: int) -> int:
    """Where a document that opens at ``start`` ends: at the end of the message, but for a last short
    paragraph of one plain line after a blank one that reads as the user speaking again ("Scratch that,
    use the analytics table.", "which family does the note look like?")."""
    for k in range(start + 1, len(lines) - 1):
        # a rule line, then the user again ("---", "GDPR clean-up for Kestrel, here's the plan:"): the paste ends there
        if lines[k].strip() in ("---", "***", "___") and (after := next((a for a in lines[k + 1:] if a.strip()), "")) and (
                after.rstrip().endswith((":", "?")) or _RESUMES.match(after) or not _CAPITAL.match(after)) and not (
                _FIELD.match(after) or _HEADING.match(after)):
            return k
    signed = _after_signature(lines, start)
    if signed:
        return signed
    last = len(lines)
    while last > start and not lines[last - 1].strip():
        last -= 1
    tail = lines[last - 1] if last > start else ""
    if not (_users_line(tail) and last - 2 > start and not lines[last - 2].strip()):
        return len(lines)
    end = last - 1
    # The user's paragraphs above it, each one line of theirs after a blank one ("a parte que importa pra ti: valida o
    # x-signature em todo webhook ...", then "so, os testes do webhook tão verdes?"), not a capitalized line of the text.
    for _ in range(2):
        above = end - 1
        while above > start and not lines[above].strip():
            above -= 1
        line = lines[above]
        # (by a lead back to the text or what the user takes from it; a document's own lines in lower case, "note: never
        # purge the dead-letter queue ...", "duration_ms=168 is the median ...", are the text's)
        if not (above - 1 > start and not lines[above - 1].strip() and _users_line(line) and (
                _RESUMES.match(line) or _ADOPTS_IT.search(line))):
            break
        end = above
    return end


def _signed_off(lines: list[str], stop: int) -> bool:
    """Whether the paragraph that ends at ``stop`` ends on a letter's closing and the short lines of its signer."""
    for k in range(stop - 1, max(-1, stop - 2 - SIGNATURE_LINES), -1):
        if not lines[k].strip():
            return False
        if _CLOSING.match(lines[k]):
            return k < stop - 1 or bool(lines[k].strip(" ,!.").count(" "))  # (a name under it, or in it: "LG Ulrike")
        if len(lines[k]) > SIGNATURE_CHARS:
            return False
    return False


USER_AFTER_SIGNATURE = 600  # the user's words under a letter's signature, this long at most
# A mail's own lines under its signature: a separator, a device's note, a disclaimer, a reference.
_FOOTER = re.compile(r"^\W*(?:--|__|sent from|von meinem|enviado desde|envoy[ée] de|inviato da|this (?:e-?mail|message|mail)|"
                     # (a mail's own notice: "Do not forward this mail outside the company.", "Fortroligt: ...")
                     r"(?:please )?do not (?:forward|share|distribute|print|reply to) (?:this|the) (?:e-?mail|mail|message)|"
                     r"fortrolig|konfidentiell|vertraulich|vertrouwelijk|riservat[oa]|confidencial|"
                     r"confidential|disclaimer|unsubscribe|p\.?s\.?\b|rif\.|ref\.|tel\.?\b|phone|mobile|www\.|"
                     # (the mail it answers, quoted under it: "On Mon, 3 Jun 2024, Maria wrote:")
                     r"(?:on|am|le|el|em|il|op|w) [^\n]{3,80}\b(?:wrote|schrieb|a [ée]crit|escribi[óo]|escreveu|ha scritto|"
                     r"schreef|napisa[łl]\w*)\b)", re.IGNORECASE)


def _speaks_again(line: str) -> bool:
    """Whether a line under a letter's signature reads as the user's: what they take from it ("Detto a modo mio, ..."),
    a lead back to it, or their own lower case; not a disclaimer, a company's address, a colleague's capitalized reply."""
    return not _signers(line) and bool(_RESUMES.match(line) or _ADOPTS_IT.search(line) or not _CAPITAL.match(line))


def _signers(line: str) -> bool:
    """Whether a line under a letter's signature is still the letter's or its system's: a footer, a quoted or
    forwarded mail, a field ("Internal note (Luis): customer is on ..."), output."""
    return bool(_FOOTER.match(line) or _MAIL_HEAD.match(line) or line.lstrip().startswith(">") or line_is_pasted(line)
                or (_FIELD.match(line) and not _RESUMES.match(line)))


def _after_signature(lines: list[str], start: int) -> int:
    """Where the user speaks again under a letter pasted in a document's place: after its closing ("Un saluto,"),
    the name under it and a blank line, a paragraph or two of theirs ("Detto a modo mio, e vale per tutto il pezzo:
    ..."); 0 when there is none (a mail's footer, a quoted earlier mail, nothing)."""
    closing = next((k for k in range(len(lines) - 2, start, -1) if _CLOSING.match(lines[k])), 0)
    if not closing:
        return 0
    k = closing + 1
    while k < len(lines) and lines[k].strip() and k - closing <= SIGNATURE_LINES and len(lines[k]) <= SIGNATURE_CHARS:
        k += 1
    if k >= len(lines) or lines[k].strip():
        return 0
    rest = [line for line in lines[k:] if line.strip()]
    paragraphs = sum(1 for n in range(k, len(lines)) if lines[n].strip() and not lines[n - 1].strip())
    if not rest or paragraphs > 2 or sum(map(len, rest)) > USER_AFTER_SIGNATURE or any(map(_signers, rest)) or (
            not _speaks_again(rest[0])):
        return 0
    return next(n for n in range(k, len(lines)) if lines[n].strip())


def _users_line(tail: str) -> bool:
    """Whether the last short paragraph ``tail`` under a document reads as the user speaking again."""
    # (longer in the user's own lower case: "tá, resumindo: we ignore the bit about mail-type, ...; the versions one is
    # good, ...; the raw data one too: ...")
    adopts = len(tail) <= 200 and bool(_ADOPTS_IT.search(tail))
    return adopts or (len(tail) <= (USER_TAIL_CHARS if tail.lstrip()[:1].islower() else 200) and (
        not tail.lstrip().startswith(("-", "*", "#", "|", ">", "`", "[")) or bool(
        _RELAYED.match(tail))) and not re.match(r"\s*\d+[.)] ", tail) and not line_is_pasted(tail)
        # ("De ahí lo que sí aplica: ..." is no field, nor is a sentence in words of a script without capitals before
        # its colon, "SOP 읽어봤는데 우리 쪽도 이렇게 가자: ...")
        and (not _FIELD.match(tail) or bool(_RESUMES.match(tail)) or (
            " " in (label := tail.split(":", 1)[0].strip()) and bool(_IN_CJK.search(label))))
        and not (_CAPITAL.match(tail) and not _RESUMES.match(tail) and not _RELAYED.match(tail)
                 and not tail.rstrip().endswith("?") and not _IN_CJK.search(tail)))


# Words in a script without capitals ("SOP 읽어봤는데 우리 쪽도 이렇게 가자: ..."): a line opening on a Latin name is not
# for that a text's own capitalized sentence.
_IN_CJK = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]{4}")


def _pasted_runs(lines: list[str], kinds: list[str]) -> None:
    """A paragraph most of whose lines read as pasted output; then, elsewhere, runs of two or more
    such lines (blank lines inside a run do not end it), and a single such line only when it is
    unmistakable (a timestamp, a trace line, JSON)."""
    flags = [not kinds[n] and line_is_pasted(line) for n, line in enumerate(lines)]
    _tagged_paragraphs(lines, kinds, flags)
    n = 0
    while n < len(lines):  # three or more "Field: value" lines in a row: a ticket's or a form's fields
        end = n
        while end < len(lines) and not kinds[end] and _FIELD.match(lines[end]):
            end += 1
        if end - n >= 3:  # with the title line right above them ("Ticket #348914 — ...")
            title = n - 1 if n > 0 and lines[n - 1].strip() and not kinds[n - 1] and len(lines[n - 1]) <= 160 else n
            for k in range(title, end):
                flags[k] = True
        n = max(end, n + 1)
    start = 0
    for end in [n for n, line in enumerate(lines) if not line.strip()] + [len(lines)]:
        body = [n for n in range(start, end) if lines[n].strip() and not kinds[n]]
        flagged = [n for n in body if flags[n]]
        if len(body) >= 2 and 2 * len(flagged) >= len(body):  # from its first such line to its last
            last = flagged[-1]
            # and the indented or tagged ("[NOTE] ...", "[2/3]") lines after it: the paste's own
            # (and a comment line that closes it: a feed's "# Hollowpoint TI - TLP:AMBER - ...")
            # (and the lines of someone speaking under it, a bot's or a reviewer's: "bot: Do not merge: ...")
            while last + 1 < end and (lines[last + 1][:1] in (" ", "\t", "#") or _TAGGED.match(lines[last + 1])
                                      or _SPEAKER.match(lines[last + 1])):
                last += 1
            first = flagged[0]
            # (and its title right above, in the paste's voice: "CI / dbt-build (pull_request) failed after 23m9s";
            # not the user's "this is what breaks:", "why?")
            while first - 1 in body and _RUN_TITLE.search(lines[first - 1]) and not lines[first - 1].rstrip().endswith(
                    (":", "?", ".")) and not _RESUMES.match(lines[first - 1]):
                first -= 1
            for n in range(first, last + 1):
                if not kinds[n]:
                    kinds[n] = "pasted"
        start = end + 1
    n = 0
    while n < len(lines):
        if not flags[n]:
            n += 1
            continue
        end = n + 1
        while end < len(lines) and (flags[end] or (not lines[end].strip() and end + 1 < len(lines) and flags[end + 1])):
            end += 1
        if end - n >= 2 or _LOG_LINE.match(lines[n]):
            for k in range(n, end):
                if not kinds[k]:
                    kinds[k] = "pasted"
        n = end
    for n, line in enumerate(lines):  # a tool's own header line over what it printed ("search_tickets: 68 results")
        if not kinds[n] and _TOOL_HEADER.match(line):
            after = next((k for k in range(n + 1, min(n + 3, len(lines))) if lines[k].strip()), None)
            if after is not None and kinds[after] == "pasted":
                kinds[n] = "pasted"


_TAGGED = re.compile(r"^\[[\w /:.-]{1,24}\]")
# A check's or a job's own header over its output ("CI / dbt-build (pull_request) failed after 23m9s"): names joined by
# " / " or a name in parentheses, no sentence of the user's ("Still failing after your fix").
_RUN_TITLE = re.compile(r"^\S.* / \S|^[A-Z][^\s(]*(?: [^\s(]+){0,4} \([\w.-]+\)")
# A line a bot speaks ("bot: Run `dbt deps` locally ...", "github-actions[bot]: ..."); not a label of the user's own
# ("note: ...", "Expected: ...", "Priority: ...").
_SPEAKER = re.compile(r"^\s*@?(?:[\w.-]*bot|[\w.-]+\[bot\]|github-actions|gitlab-ci|jenkins|renovate|codecov|sonarcloud|"
                      r"vercel|netlify|buildkite|circleci|atlantis):\s+\S", re.IGNORECASE)
_CLOCK = re.compile(r"\d{1,2}:\d{2}")
TAGGED_LINES = 3  # lines of a paragraph each opened by a tag of its own ("[EB1] cl. 12.1: ...") that make it a listing


def _tagged_paragraphs(lines: list[str], kinds: list[str], flags: list[bool]) -> None:
    """A paragraph most of whose lines open with a tag ("[EB1] cl. 12.1: Drafting point only.", "[EB2] ...")
    is a listing pasted (review comments, a tracker's rows); a chat relay's envelope ("[WhatsApp 18:45] is this
    the one?") tells the time, and is the user speaking."""
    start = 0
    for end in [k for k, line in enumerate(lines) if not line.strip()] + [len(lines)]:
        body = [k for k in range(start, end) if lines[k].strip() and not kinds[k]]
        tagged = [k for k in body if (m := _TAGGED.match(lines[k])) and not _CLOCK.search(m.group(0))]
        if len(tagged) >= TAGGED_LINES and 2 * len(tagged) >= len(body):
            for k in tagged:
                flags[k] = True
        start = end + 1
_TOOL_HEADER = re.compile(r"^\s*(?:\$ \S.*|[A-Za-z][\w-]*(?:[_.][\w-]+)+(?:\([^)]*\))?\s*:.*)$")


# --- what a sentence of prose is --------------------------------------------------------------------

# Sentences end at ". " before a capital, at "? " and "! " before anything (people write lowercase), at a
# line break, and at ". " before a lowercase word when the word before the period is no abbreviation.
