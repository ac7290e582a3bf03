"""Reading a user's message: what they wrote, what they pasted, and what each sentence of theirs is.

Structure before words. A user's message is cut into the user's own prose and what they pasted:
fenced blocks, runs of log, trace, diff, table, JSON or code lines, quoted mail (``>``), mail and
ticket headers, and documents (a heading, a rule line, a bold label on its own line or mail headers,
then a few hundred characters or more, to the end of the message). Only the prose can hold an instruction or a correction; pasted material is
evidence (its errors may be listed, marked as pasted), and a rule inside a pasted document is kept
apart, as the document's, after the whole document was read.

Each sentence of prose is then one of:

- a **correction** (it takes back or replaces something said before: "sorry, I meant ...", "no
  wait, the bucket is the eu one", "scratch that", in the languages below);
- a **rule** (a standing instruction, constraint or preference: it forbids, requires or prefers,
  or it speaks of what holds from now on or for every case: "we use tabs here", "I'd rather you
  kept answers short", "Bitte keine Kreisdiagramme", "Use the structured logger for anything new");
- a **setting** (a statement of a value: "the tenant id is 19ad...", "Production runs the SDK 4.2");
- a **request** (everything else the user asks: done once answered).

The markers are the words a reader of English, French, German or Spanish takes as such; they are
not the phrasing of any one session.
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

DOCUMENT_CHARS = 300  # a pasted document (after a heading, a rule line, mail headers) is at least this long


class Segment(NamedTuple):
    kind: str  # "prose", "pasted" (logs, code, tables, quoted mail) or "document" (a pasted spec, runbook, mail)
    text: str


_FENCE = re.compile(r"^\s*(```|~~~)")
_HEADING = re.compile(r"^(?:#{1,6} \S|={3,}\s*$|-{3,}\s*$|\*{3,}\s*$|_{3,}\s*$|-----\s*Original Message)")
_BOLD_LABEL = re.compile(r"^\s*\*\*[^*\n]{2,60}\*\*:?\s*$")  # "**Describe the bug**" on its own line
_MAIL_HEADER = re.compile(r"^(?:From|To|Cc|Subject|Sent|Date|Reply-To|Ticket|Status|Priority|Reporter|Assignee|"
                          r"Severity|Component|Labels|Summary|Customer|Requester)\s*:\s*\S", re.IGNORECASE)
# A line that is log, trace, diff, table, JSON or code rather than someone's sentence.
_LOG_LINE = re.compile(
    r"^\s*(?:"
    r"\[?\d{4}-\d\d-\d\d[T ]\d|\[?\d{1,2}:\d\d:\d\d|\[\d{1,2}:\d\d(?: ?[AP]M)?\]|[A-Z][a-z]{2} {1,2}\d{1,2} \d\d:\d\d|"  # timestamps
    r"\[?(?:INFO|WARN|WARNING|ERROR|DEBUG|TRACE|FATAL|CRITICAL|NOTICE|ERR)\]?[\s:|]|"  # levels
    r"at [\w$.<>]+\(|File \"|Traceback \(|Caused by:|\.\.\. \d+ more|goroutine \d+|panic:|fatal error:|"  # traces
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
    r"SELECT|INSERT|UPDATE|DELETE FROM|CREATE TABLE|WITH)\b.*[:;{(=,]\s*$"
    r")")
_KEY_VALUES = re.compile(r"(?:\b[\w.-]+=[^\s,]+[\s,]+){2,}")
_TABLE = re.compile(r"^\s*\|.*\|\s*$|^[^|\n]*(?:\|[^|\n]*){2,}$|^\S+(?:\t[^\t]*){2,}$|^\S+(?: {2,}\S+){3,}\s*$|"
                    r"^[^,\s]+(?:,[^,\s]*){3,}$")
_FIELD = re.compile(r"^\s*[A-Z][\w /()-]{1,30}:\s+\S")
_FIELDS_LINE = re.compile(r"^\s*[A-Z][\w ]{1,20}:\s+\S.*?\s{2,}[A-Z][\w ]{1,20}:\s+\S.*?\s{2,}[A-Z][\w ]{1,20}:\s+\S")
_CODE_END = re.compile(r"[;{}]\s*$|^\s*[}\])]|\[\s*\d{1,3}%\]\s*$|\S\s\.{5,}|\b\d+ (?:passed|failed|skipped|errors?)\b.* in \d+(?:\.\d+)?s\b")


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
    last = stripped[-1]
    return (last in ";{}]" or stripped[0] in "}])" or ".." in line or " in " in line) and bool(_CODE_END.search(line))


def split(text: str) -> list[Segment]:
    """``text`` cut into the user's prose and what they pasted, in order; the pieces join to ``text``
    but for the line breaks between them. (Pasted texts recur: a long one's cut is remembered.)"""
    if len(text) >= 2000:
        return list(_split_long(text))
    return _split(text)


def forget() -> None:
    """Drop the remembered cuts and verdicts (a benchmark of cold compaction starts from nothing)."""
    _split_long.cache_clear()
    is_rule.cache_clear()


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
    _announced(lines, kinds)  # after documents: a spec announced ("here's the doc maria wrote:") is read for its rules
    _pasted_runs(lines, kinds)
    segments: list[Segment] = []
    for line, kind in zip(lines, kinds):
        kind = kind or "prose"
        if segments and segments[-1].kind == kind:
            segments[-1] = Segment(kind, segments[-1].text + "\n" + line)
        else:
            segments.append(Segment(kind, line))
    return [s for s in segments if s.text.strip()]


def _fenced(lines: list[str], kinds: list[str], first: int, last: int) -> None:
    """A fenced block, its fences included: a document when it reads as one (a heading, or mostly lines
    that are no output), else pasted output."""
    inside = [line for line in lines[first + 1:last] if line.strip()]
    prose_like = sum(1 for line in inside if not line_is_pasted(line) and not _FENCE.match(line))
    document = any(_HEADING.match(line) for line in inside) or (inside and 2 * prose_like > len(inside)
                                                               and sum(map(len, inside)) >= DOCUMENT_CHARS)
    for k in range(first, last + 1):
        kinds[k] = "document" if document else "pasted"


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
            for k in range(n, _document_end(lines, n)):
                if not kinds[k]:
                    kinds[k] = "document"
            return


_TITLE = re.compile(r"^[A-Z0-9\u00c0-\u00dd][^\n]{2,78}(?<![.?!:;,])$")
_LIST_ITEM = re.compile(r"^\s*(?:[-*\u2022]|\d{1,2}[.)])\s+\S")
TITLED_STRUCTURE = 2  # headings, list items or fields under a title that make what follows a document


# A forwarded message's own header, or a letter's salutation: what follows is someone else's text.
_FORWARDED = re.compile(r"^\W*(?:-+\s*)?(?:(?:begin )?forwarded message\b|fwd:|weitergeleitete nachricht|message transf[ée]r[ée]|"
                        r"mensaje reenviado|dear [^\n,]{1,40},\s*$)", re.IGNORECASE)


def _forwarded(lines: list[str], kinds: list[str]) -> None:
    """From a forwarded message's header ("Forwarded message from the landlord:") or a letter's "Dear
    tenants," to the end of the message (as :func:`_documents`) is the forwarded document."""
    for n, line in enumerate(lines):
        if not kinds[n] and _FORWARDED.match(line) and sum(len(rest) + 1 for rest in lines[n:]) >= DOCUMENT_CHARS:
            for k in range(n, _document_end(lines, n)):
                if not kinds[k]:
                    kinds[k] = "document"
            return


def _titled(lines: list[str], kinds: list[str]) -> None:
    """A document with a title of its own, pasted under the user's words ("check the dates", a blank line,
    "Booking confirmation - Hotel Aurora", its fields and sections; a recipe's name, "Ingredients", its
    list): a short line with no closing stop after a blank line (or first, with its text right under it),
    with headings, list items or fields under it and enough text, opens a document to the end of the
    message (as :func:`_documents`)."""
    for n in range(len(lines)):
        if kinds[n] or (n and (lines[n - 1].strip() or not any(line.strip() for line in lines[:n - 1]))):
            continue  # the message's first line, or one after a blank line under the user's words
        if not _TITLE.match(lines[n].strip()) or _TAGGED.match(lines[n].strip()) or (
                n == 0 and (len(lines) < 2 or not lines[1].strip())):
            continue  # a title that opens the message is followed by its text at once
        end = _document_end(lines, n)
        body = [(line, kind) for line, kind in zip(lines[n + 1:end], kinds[n + 1:end])]
        structure = sum(1 for k, (line, kind) in enumerate(body) if not kind and (
            _LIST_ITEM.match(line) or _FIELD.match(line) or (
                _TITLE.match(line.strip()) and len(line) <= 40 and k + 1 < len(body) and body[k + 1][0].strip())))
        if structure >= TITLED_STRUCTURE and sum(len(line) + 1 for line in lines[n:end]) >= DOCUMENT_CHARS:
            for k in range(n, end):
                if not kinds[k]:
                    kinds[k] = "document"
            return


# A line of the user's that announces what they paste next, and ends on ":" ("pasting the review:", "here's
# what the job printed:", "the customer's ticket, for context:", "logs from export-svc earlier:").
_ANNOUNCE = re.compile(
    r"\b(?:past(?:e|ed|ing)|forward(?:ed|ing)?|for context|fyi|below|attached|excerpt|here'?s|here is|this is|"
    r"output|printed|print(?:s|ing)|logs?|trace(?:back)?|review(?:er)?'?s?|ticket|e-?mail|mail|thread|message from|"
    r"(?:said|wrote|says|writes|replied))\b[^:]{0,80}:\s*$", re.IGNORECASE)


def _announced(lines: list[str], kinds: list[str]) -> None:
    """The paragraph that follows a line that announces a paste ("pasting the review:", then a reviewer's
    lines) is pasted when it is two lines or more and nothing else claimed it (a fence, a quote, a
    document): a reviewer's or a customer's sentences are theirs, not the user's rules."""
    for n, line in enumerate(lines):
        if kinds[n] or len(line) > 200 or not line.rstrip().endswith(":") or not _ANNOUNCE.search(line):
            continue
        first = next((k for k in range(n + 1, len(lines)) if lines[k].strip()), len(lines))
        end = next((k for k in range(first, len(lines)) if not lines[k].strip()), len(lines))
        # (a paragraph of log or table lines is left to _pasted_runs, which ends it where the lines stop
        # being output: "Any idea?" after a log is the user's)
        if end - first >= 2 and not any(kinds[k] or line_is_pasted(lines[k]) for k in range(first, end)):
            for k in range(first, end):
                kinds[k] = "pasted"


# The user speaking again through a chat relay's envelope ("[WhatsApp 18:45] is this the one?"), not a
# chat log's line ("[21:15] Jonas: pickup is at the back gate").
_RELAYED = re.compile(r"^\[[^\]\n]{1,40}\]\s+[a-z\u00df-\u00ff]")


def _document_end(lines: list[str], start: int) -> int:
    """Where a document that opens at ``start`` ends: at the end of the message, but for a last short
    paragraph of one plain line after a blank one, which is the user speaking again ("Scratch that, use
    the analytics table.")."""
    last = len(lines)
    while last > start and not lines[last - 1].strip():
        last -= 1
    tail = lines[last - 1] if last > start else ""
    plain = (len(tail) <= 200 and (not tail.lstrip().startswith(("-", "*", "#", "|", ">", "`", "[")) or bool(
        _RELAYED.match(tail))) and not re.match(r"\s*\d+[.)] ", tail) and not _FIELD.match(tail) and not line_is_pasted(tail))
    if plain and last - 2 > start and not lines[last - 2].strip():
        return last - 1
    return len(lines)


def _pasted_runs(lines: list[str], kinds: list[str]) -> None:
    """A paragraph most of whose lines read as pasted output; then, elsewhere, runs of two or more
    such lines (blank lines inside a run do not end it), and a single such line only when it is
    unmistakable (a timestamp, a trace line, JSON)."""
    flags = [not kinds[n] and line_is_pasted(line) for n, line in enumerate(lines)]
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
            while last + 1 < end and (lines[last + 1][:1] in (" ", "\t") or _TAGGED.match(lines[last + 1])):
                last += 1
            for n in range(flagged[0], last + 1):
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
_TOOL_HEADER = re.compile(r"^\s*(?:\$ \S.*|[A-Za-z][\w-]*(?:[_.][\w-]+)+(?:\([^)]*\))?\s*:.*)$")


# --- what a sentence of prose is --------------------------------------------------------------------

# Sentences end at ". " before a capital, at "? " and "! " before anything (people write lowercase), at a
# line break, and at ". " before a lowercase word when the word before the period is no abbreviation.
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z\u00c0-\u00dd`\"'(\[¿¡])|(?<=[?!])\s+(?=[a-z])|"
                       r"(?<=[a-z]{3}\.)(?<!etc\.)(?<!fig\.)\s+(?=[a-z])|"
                       r"(?<=[a-z]['\")]\.)\s+(?=[a-z])|"  # after a quote or a bracket: "... to 'Plan limits'. when you ..."
                       r"\n+|(?<=[.!?])\s*$")


# A sentence that ends on a file's or a host's name and a lowercase one after it ("... in docs/admin/scim.md.
# tag every ticket ..."): the period after a name with a dot in it ends the sentence too ("e.g." is no name).
_NAME_END = re.compile(r"((?:[\w-]+[/.])+[\w-]+\.[a-z0-9]{1,5}\.)[ \t]+(?=[a-z])")


def sentences(text: str) -> list[str]:
    if ". " in text and _NAME_END.search(text):
        text = _NAME_END.sub("\\1\n", text)
    return [s.strip() for s in _SENTENCE.split(text) if s and s.strip()]


# A correction: the user takes back or replaces what was said (English, French, German, Spanish).
_CORRECTION = re.compile(
    r"^\W*(?:(?:oh|ah|and|but|also|ok|okay|hmm|um|so|right|anyway|btw|well|ugh|hm|hi|hey|hiya|hello|yo)\W+){0,3}(?:sorry\b(?!,?\s+(?:i\s+forgot|one\s+more|also\b|for\b|to\s+(?:bother|interrupt|ask)|about\b))|"
    r"actually\b(?!,?\s+(?:also|and|one more|let me|i'?ll|we'?ll)\b)|correction\b|(?:no,? )?wait\b(?!\s+(?:until|till|for|on|a\b|an\b|\d|to\b))|oops\b|whoops\b|no\s*[,.!:\u2014\u2013-]|nope\b|hmm,? no\b|scratch that|change of plan|"
    r"my (?:bad|mistake)|typo\b|ignore (?:that|what I said)|on (?:second thoughts?|reflection)\b|"
    r"thinking about it (?:more|again|some more)\b|come to think of it\b|having thought about it\b|"
    r"pardon\b|d[ée]sol[ée]\b|en fait\b|non,|correction\s*:|"
    r"entschuldigung\b|korrektur\b|nein,|doch\b|"
    r"perd[oó]n\b|lo siento\b|correcci[oó]n\b|mejor dicho\b|no,)|"
    r"\b(?:I meant|I mean|meant to say|make that\b|mixed up|misremembered|misspoke|I was wrong|"
    r"I gave you the wrong|\b(?:pasted|gave|sent|said|used|typed|wrote|quoted|linked|named|picked|had) (?:you |me )?(?:the |a )?wrong\b|wrong (?:one|value|port|host|id|name|bucket|file|branch|ticket|number|address|table|path)|"
    r"not the (?:one|\w+) I (?:said|mentioned|gave)|the other (?:one|\w+) I (?:said|mentioned|gave|meant)|"
    r"\b(?:was|is) (?:wrong|a typo|incorrect|outdated)\b|(?:^\W*(?:(?:hi|hey|hiya|hello|yo|ok|okay|right|oh|ah|so|sorry)\W+){0,2}|^[\w ]{1,20}:\s*)(?:(?:it'?s|es|c'est|das ist|é|è) )?(?:the other|la otra|el otro|l'autre|"
    r"die andere|der andere|das andere|a outra|o outro|l'altra|l'altro)(?! (?:day|night|week|morning|evening|afternoon|"
    r"time|way|side|hand|half|end)\b) \w+\b|\binstead of [`'\"]?[\w.@:/+-]*\d|, not [`'\"]?[\w.@:/+-]*\d[\w.@:/+-]*[`'\"]?\s*[.!]?$|"
    r"^\W*not [`'\"]?\S+[`'\"]?,? but\b|mixed (?:them|these|those|it|that|the \w+) up|(?:is|was) the right (?:one|\w+)\b|"
    r"should (?:have been|be)\b.{0,40}\bnot\b|instead of what I said|rather than what I said|"
    r"je voulais dire|ich meinte|quise decir|quer[ií]a decir)\b",
    re.IGNORECASE)

# Words that make a sentence a rule only when it does not ask for something done now ("make sure the
# build passes" asks; "make sure every new endpoint has a test" is a rule: it has a word of the next list).
# A rule's lead-in ("Ground rules:", "House style:", "Reminder:") and a sentence opened by "keep" (not "keep
# going"): what follows holds from then on.
_RULE_LEAD = re.compile(r"^\W*(?:[\w ]{0,30}\b(?:rules?|policy|policies|constraints?|guidelines?|conventions?|style|"
                        r"reminder|heads up|fyi|standing order)\s*:|(?:(?:btw|also|oh|and|ps|p\.s\.|fyi|so|ok|okay)\W+)*"
                        r"(?:please\s+)?keep\b(?!\s+(?:going|looking|at it|on|up|"
                        r"me posted|digging|trying)\b))", re.IGNORECASE)
_STRONG_RULE = re.compile(r"^\W*(?:[A-Z ]*\b)?(?:SAFETY|SECURITY|NEVER|MUST|CRITICAL|HARD CONSTRAINT)\b|\b(?:never|must not|"
                          r"mustn'?t|do not|don'?t(?!\s+(?:know|think|care|worry|see|have|mind|remember|understand|get|"
                          r"need|recall|believe|expect))|under no|forbidden|not allowed|jamais|nie|niemals|nunca)\b",
                          re.IGNORECASE)


def is_strong_rule(sentence: str) -> bool:
    """A rule that forbids or that the user labelled a safety or hard rule: it outranks other rules."""
    return bool(_STRONG_RULE.search(sentence))


_WEAK_RULE = re.compile(r"\b(?:make sure|at least|at most|(?<!\bI )remember|note that|avoid|don'?t forget|"
                        r"ensure|be careful|careful)\b", re.IGNORECASE)
# A rule: words that forbid, require or prefer, or speak of what holds from now on, in every case.
_RULE = re.compile(
    r"\b(?:never|always|must|mustn'?t|do not|don'?t(?!\s+(?:know|think|care|worry|see|have|mind|remember|understand|"
    r"get|need|recall|believe|expect))|forbidden|not allowed|under no|required|requires?\b|"
    r"from now on|going forward|by default|as a rule|no more than|only ever|stick to|"
    r"i'?d (?:rather|prefer)|i (?:prefer|want you to|need you to)|(?:would|'d) rather|prefer(?:ably)?\b|"
    r"we (?:use|don'?t|never|always|tend to|keep|prefer|stick|follow|avoid|only|do not|go with|write|put|want)|"
    r"(?:our|the) (?:convention|policy|rule|standard|style)|"
    r"please (?:always|never|stick|only|don'?t|do not|no\b|reply in|answer in|respond in)|"
    r"keep (?:answers|replies|responses|things|each|every|all|prs?|commits?|the \w+ (?:under|below|short))|"
    r"off[- ]limits|needs? (?:an?|to|the) (?:entry|review|approval|sign-?off|test)|(?:is|are|get) rejected|change freeze|freeze\b|until further notice|without (?:asking|pinging|checking with|telling) me|"
    r"(?:for|in) (?:anything|everything|all|every|each|any) (?:new|code|change|file|commit|test|report|chart)|"
    # what every one of a kind gets ("every table in the appendix gets a takeaway"), a house convention
    r"^\W*(?:(?:oh|and|also|btw|so|ok|okay|plus)\W+)*(?:[\w' ]{1,25},\s*)?(?:every|each|all|any|anything|everything|whatever) [\w' -]{2,40}? (?:gets?|has|have|needs?|goes|go|"
    r"uses?|should|must|stays?|carries|carry|starts?|ends?|includes?|comes?|sits?|lives?)\b|"
    r"^\W*(?:(?:oh|and|also|btw|so|ok|okay|plus)\W+)*when(?:ever)? (?:you|we) (?!can\b|have time\b|get a (?:chance|minute)\b|'re done\b|are done\b|finish)\w+|"
    r"house (?:style|rule|convention)|(?:it'?s|that'?s) (?:the|our) (?:style|convention|norm|standard)\b|"
    r"every time|each time|whenever|even when|for now on|"
    r"it matters to me|(?:^|[,;:\u2014\u2013]\s+)no \w+(?:,|;|$)|\b\w+ only[,;.]|"
    r"(?:^|[;:] )no \w+(?:\(\))? (?:in|inside|under) |heads up|fyi\b(?!.*:\s*$)|"
    r"reminder|note that|is a no-go|not to be|is not to|only (?:use|via|through|from|in)\b|"
    # French
    r"jamais|toujours|ne \w+ (?:pas|plus|jamais)|n'\w+ (?:pas|plus|jamais)|merci de|il faut|[ée]vite[rz]?\b|"
    r"interdit|pr[ée]f[èe]re|utilise[rz]? (?:toujours|uniquement|seulement)|"
    # German
    r"nie\b|niemals|immer\b|bitte (?:keine?n?|nicht|immer|verwende|nutze|nur)|keine?n?\b|nicht\b|muss\b|müssen|"
    r"darf|verwende|ausschlie(?:ß|ss)lich|nur noch|"
    # Spanish
    r"nunca|siempre|no (?:uses|hagas|toques|borres|cambies|subas|pongas|utilices|modifiques|reinicies)|"
    r"por favor|debe(?:s|mos|n)?\b|prefiero|evita|sin (?:preguntar|avisar|consultar)|solo (?:usa|con|en)|"
    r"utiliza siempre|usa siempre|"
    # Italian, Portuguese
    r"\bsempre\b|\bmai\b|per favore|non (?:usare|toccare|cambiare|mettere|fare|scrivere|inviare|chiudere|"
    r"cancellare|pubblicare)\b|\bn[ãa]o (?:use|usar|mude|mexa|feche|apague|publique|envie)\b|\bevite\b)",
    re.IGNORECASE)
# A request: the user asks for something done now (it is done once answered).
_REQUEST_START = re.compile(
    r"^\W*(?:(?:ok|okay|alright|great|thanks|cool|right|so|now|next|also|and|then|hey|hi|hiya|hello|yo|morning|good morning)\W+)*"
    r"(?:(?:can|could|would|will) you|how (?:does|do|is|are|did|come|long|many|much)|how'?s\b|what(?:'s| is| are| does| did| do)|"
    r"why (?:is|are|does|did|do)|where (?:is|are|does|do)|is there|are there|any idea|do we|does it)\b|^\W*(?:please\s+)?(?:(?:ok|okay|so|now|next|also|then)\W+)*"
    r"(?:look|check|fix|investigate|debug|run|rerun|re-run|try|find|figure|help|show|open|add|write|update|remove|"
    r"delete|refactor|implement|make|create|rename|move|bump|deploy|build|test|review|explain|summari[sz]e|draft|"
    r"plot|compute|calculate|dig|trace|profile|see|tell|give|list|go|let'?s|lets|start|finish|continue|"
    r"compare|clean|split|merge|port|migrate|set up|setup|install|upgrade|revert|roll|rollback|ship|cut|tag|send|"
    r"post|reply|answer|translate|rewrite|reword|edit|change|replace|sort|group|filter|pull|push|fetch|"
    r"mira|revisa|arregla|regarde|corrige|v[ée]rifie|schau|pr[üu]fe|behebe)\b(?!\s*:)",
    re.IGNORECASE)
_QUESTION = re.compile(r"\?\s*$")
_LABEL = re.compile(r"^\W*[A-Z][A-Z ]{2,30}:")  # "FACT:", "SAFETY RULE:": the user marked it
_RULE_LABEL = re.compile(r"^\W*(?:[A-Z ]*\b)?(?:RULES?|CONSTRAINTS?|POLICY|IMPORTANT|CRITICAL|REQUIRED|"
                         r"REQUIREMENTS?|MUST|NEVER|ALWAYS|SAFETY|SECURITY|WARNING|NOTE)\b[A-Z ]{0,30}:")
_VALUE_HINT = re.compile(r"\d|://|@\w|/\w")


# An update: the user says a standing thing changed ("the launch date moved to 08-21", "from now on, report
# times in Pacific time", "we are calling the project X now"). It supersedes the statement it updates, as a
# correction does, when the two plainly speak of one thing (see .corrections).
_UPDATE = re.compile(
    r"\b(?:update[sd]?\b|(?<!for )(?<!right )(?<!just )(?<!not )(?<!leave it )now\b|from now on|going forward|moved (?:to|from|up|back)|changed? to|switched to|rotated|"
    r"no longer|any ?more|renamed|replaced|retired|these days|as of (?:today|now)|d[ée]sormais|"
    r"rebased (?:onto|on)|has changed|have changed|is changing|we'?re (?:now )?on\b|"
    r"maintenant|ab jetzt|jetzt\b|ahora\b|a partir de ahora)", re.IGNORECASE)


def is_update(sentence: str) -> bool:
    """Whether the user says a standing thing changed; "not now" (three words or fewer) says none did."""
    return bool(_UPDATE.search(sentence)) and not _QUESTION.search(sentence) and len(sentence.split()) > 3


def is_correction(sentence: str) -> bool:
    """Whether a sentence of the user's prose takes back or replaces what was said. "Sorry, another one",
    "sorry to bother" lead into one more thing asked ("sorry, another one — refund ORD-4140056"): such a
    sentence corrects only when what follows says so ("sorry, one more: I meant 0045")."""
    head = sentence[:300]
    m = _CORRECTION.search(head)
    if m is None:
        return False
    lead = _APOLOGY.match(head)
    if lead is None or not lead.group(1) or m.start() >= lead.end():
        return True
    return bool(_CORRECTION.search(head[lead.end():]))  # "sorry, another one": one more thing asked


# An apology and the words that go with it ("sorry, another one —", "pardon, encore une chose :"): what
# follows says whether it corrects or asks.
_APOLOGY = re.compile(r"^\W*(?:(?:oh|ah|and|but|also|ok|okay|hmm|um|so|right|anyway|btw|well|ugh|hm)\W+){0,3}"
                      r"(?:sorry|pardon|d[ée]sol[ée]e?|perd[oó]n|lo siento|entschuldigung|desculpa|scusa)\b"
                      r"(?:[\s,.!:;\u2014\u2013-]+(another (?:one|thing|question)|one more(?: thing)?|quick one|"
                      r"to (?:bother|interrupt|ask)|for the (?:delay|noise)|again|but|encore une chose|otra cosa|"
                      r"noch (?:etwas|was)|mais uma coisa|un'altra cosa)\b)?[\s,.!:;\u2014\u2013-]*", re.IGNORECASE)


# A session says its rules again and again; the verdicts of the latest sentences are kept (a bound: its keys
# are whole sentences of what users wrote, and a gateway serves many sessions for weeks).
@functools.lru_cache(maxsize=2_048)
def is_rule(sentence: str) -> bool:
    """Whether a sentence of the user's prose states a standing rule, constraint or preference."""
    if _RULE_LABEL.match(sentence) or _RULE_LEAD.match(sentence):
        return True
    if _QUESTION.search(sentence) and not sentence.lower().startswith(("please", "pls")):
        return False  # "Do we always ...?" asks: a question is no rule
    rule = _RULE.search(sentence)
    if rule and _told(sentence, rule):
        rule = _RULE.search(sentence, rule.end())  # "the order never arrived": what happened, no rule
    if rule:
        # "Run a plan for eks in prod, don't apply": a request that says how, not a standing rule.
        return not (_REQUEST_START.match(sentence) and _HOW_ONLY.fullmatch(rule.group(0).lower()))
    return bool(_WEAK_RULE.search(sentence)) and not _REQUEST_START.match(sentence) and not _HEDGE.search(sentence)


# "never" and a verb in the past, with no "is/are/be" before it in its clause: a story ("ORD-6035980 never
# arrived", "it never worked"), where "flags are never cached" is a rule.
_NEVER_PAST = re.compile(r"never\s+(?:\w*[^e\W]ed|came|got|went|showed|ran|made|sent|saw|heard|had|did|was|were)\b", re.IGNORECASE)
_PASSIVE = re.compile(r"\b(?:is|are|be|been|gets?|stays?|remains?)\b(?![^,;]*[,;])", re.IGNORECASE)


def _told(sentence: str, rule: re.Match[str]) -> bool:
    return bool(_NEVER_PAST.match(sentence, rule.start())) and not _PASSIVE.search(sentence, 0, rule.start())


_HOW_ONLY = re.compile(r"do not|don'?t|by default|at least|at most|no more than")


def is_request(sentence: str) -> bool:
    return bool(_REQUEST_START.match(sentence) or _QUESTION.search(sentence))


# Verbs that set something up rather than ask for a piece of work: "Run the dev API on port 8080", "Send
# the report to ops@acme.dev", "Pin the SDK to 4.2.1" name a value the work depends on from then on.
_SETS = re.compile(r"^\W*(?:(?:good )?(?:morning|afternoon|evening)\W+|(?:hi|hey|hiya|hello|yo|ok|okay|so)\W+)*(?:please\s+)?(?:run|use|set|make|deploy|send|upload|point|pin|tag|cut|push|apply|seed|serve|"
                   r"track|bind|connect|store|target|name|call|host|publish|route|forward|mount|release|ship)\b",
                   re.IGNORECASE)
_COPULA = re.compile(r"\b(?:is|are|=|stays|lives|live|goes|go|points? to|means|runs on|is on|are on)\b")
# A guess or an aside: what it states is not a value the user sets.
_HEDGE = re.compile(r"\b(?:if I (?:remember|recall)|I (?:think|guess|believe|suspect|assume|wonder)|my gut|not sure|"
                    r"might be|may be|maybe|probably|perhaps|random thought|I'?m not going to|I don'?t know|no idea)\b",
                    re.IGNORECASE)
# What happened (a past tense and no present one): a story, not a standing value.
_PAST = re.compile(r"\b(?:was|were|had|did|got|went|came|took|made|said|told|saw|found|ran|sent|shared|showed|"
                   r"looked|seemed|happened|spent|talked|noticed|tried|used to|yesterday|last (?:week|month|year|quarter|time)|"
                   r"this morning|ago)\b", re.IGNORECASE)
_SOURCE_FILE = re.compile(r"\.(?:py|go|rs|ts|tsx|js|jsx|java|kt|rb|c|h|cc|cpp|cs|php|swift|md|ipynb|sql|css|html)$")


# A piece of work asked for, in the imperative (after a greeting or a short lead such as "small one:"): done
# once the agent has done it, whatever value it names. The verbs of _SETS set up a value the work depends on
# from then on, and stay settings.
_ACTION_START = re.compile(
    r"^\W*(?:(?:ok|okay|so|now|next|also|and|then|hey|hi|yo|btw|quick|small|one more|another)\W+)*(?:[\w ]{1,20}:\s*)?"
    r"(?:please\s+)?(?:restart|reboot|bounce|kill|stop|raise|lower|increase|decrease|reduce|double|halve|drain|cordon|"
    r"uncordon|scale|rotate|restore|snapshot|back ?up|page|ack|acknowledge|flip|toggle|pause|resume|enable|disable|"
    r"retry|re-?run|re-?try|re-?deploy|re-?start|reindex|re-?index|replay|backfill|purge|flush|clear|reset|silence|"
    r"mute|unmute|approve|reject|assign|escalate|notify|email|ping|invite|refund|credit|charge|cancel|close|reopen|"
    r"archive|export|import|reload|resize|expand|shrink|downgrade|patch|hotfix|grab|kick off|kick|trigger|schedule|"
    r"book|look up|dump|copy|download|spin up|tear down|shut down|bring up|bring down|roll back|roll out|promote|"
    r"demote|fail over|failover|swap|evict|delete|remove|drop|add|create|open|write|draft|fix|check|run|build)\b",
    re.IGNORECASE)
# Work asked for when something happens ("close PR-41 after the merge", "once the freeze ends, ...") waits for it:
# it holds until then.
_TRIGGER = re.compile(r"\b(?:after|once|when|whenever|before|as soon as|next time|until|till)\b", re.IGNORECASE)
_PLEASE_END = re.compile(r"\bplease\W*$|\bpls\W*$", re.IGNORECASE)


def is_setting(sentence: str, found: tuple[str, ...]) -> bool:
    """A statement of a value the work depends on ("the tenant id is 19ad...", "we're on Postgres 15.4",
    "Run the dev API on port 8080"); a request about a file ("Look at the flaky test in x_42.py") is none,
    nor a story of what happened or a guess ("There were roughly 1,148 of them", "It had 13 charts",
    "I think it's about 40%"): a setting holds now, and is said as holding."""
    if len(sentence) > 300 or _QUESTION.search(sentence) or _HEDGE.search(sentence):
        return False
    copula = _COPULA.search(sentence) is not None
    if not copula and _PAST.search(sentence) and not _SETS.match(sentence):
        return False
    if ((_ACTION_START.match(sentence) and not _SETS.match(sentence)) or _PLEASE_END.search(sentence)) and not \
            _TRIGGER.search(sentence):
        return False  # a piece of work asked for ("restart the export-svc rollout, it's stuck", "tf plan please")
    settings = [v for v in found if (any(c.isdigit() for c in v) or "://" in v or "@" in v or (
                copula and ("/" in v or "_" in v or "." in v))) and not _SOURCE_FILE.search(v)]
    if not settings:
        return False
    return not _REQUEST_START.match(sentence) or bool(_SETS.match(sentence))


def kind_of(sentence: str, found: tuple[str, ...]) -> str:
    """"correction", "rule", "setting" or "request" (``found``: the sentence's values)."""
    if is_correction(sentence):
        return "correction"
    if is_rule(sentence) or _LABEL.match(sentence):
        return "rule"
    if is_setting(sentence, found) or (is_update(sentence) and not is_request(sentence)):
        return "setting"  # a value stated, or a standing thing said to have changed ("X now owns the pager")
    return "request"
