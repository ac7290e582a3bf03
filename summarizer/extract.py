"""What the ledger takes from each message: pure functions from message views to ledger items.

Structure first: files come from the names and arguments of the tools that wrote them, errors
from tool results that failed (a flagged error, a non-zero exit, a traceback from a command),
never from file contents that were only read, but a log whose end is a crash under a stack trace (what
the job died of); the user's words are kept verbatim. A question's words name the line of the output
that answers it (see :func:`.outputs.asked_line`). Text patterns
are used only where there is no structure (decisions in the assistant's prose, identifiers).
Items are copied verbatim (clipped only when very long), because exact strings are what
summaries lose first. See :mod:`.ledger` for how items merge and render.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from context_compactor.messages import ToolCall, View

from . import identifiers as ids
from .calls import _NAMES, _PARSED, arguments, call_items, is_read, shell_command, shell_words, shell_writes
from .decisions import _DECISION_WEAK, _REASON_NEXT, decision_item, is_decision, may_decide, plan_item, plan_of
from .identifiers import clip, identifier_items, mention_items, one_line, scanned
from .ledger import ASKED, INTENT, POINTED, REPORT, Item, prose
from .ledger.items import QUOTED_READ_CHARS, WHEN, measured_values, precise_values, quotes
from .ledger.corrections import evidence_words
from .markers import BLOCK_END, OWN_BLOCK
from .outputs import _DIGIT, answer_line, asked_line, asked_words, error_line, failed_run, finding_items, gravest_line, output_failed, output_key, strong_ids, stub_line, tool_items
from .user_words import is_approval, neutral, read_back, user_items

# The names other modules and hosts use, wherever they live now (the reading of each kind of message is in
# its own module: user_words, decisions, calls, outputs).
__all__ = ["BLOCK_END", "OWN_BLOCK", "Extractor", "answer_line", "arguments", "clip", "error_line", "extract", "failed_run", "finding_items", "output_failed",
           "gravest_line", "identifier_items", "is_read", "one_line", "plan_of", "question_words", "read_back", "scanned", "shell_command",
           "shell_words", "shell_writes", "strong_ids", "stub_line", "user_items"]


def forget() -> None:
    """Drop what this module remembers across calls (tool kinds by name, identifier verdicts, parsed
    arguments, the cuts of long pasted texts, rule verdicts): a benchmark of cold compaction starts
    from nothing."""
    _NAMES.clear()
    ids._KNOWN.clear()
    _PARSED.clear()
    prose.forget()


class Extractor:
    """Extracts ledger items from the messages of a region, in order; remembers tool calls so a
    result is read with the call that asked for it."""

    def __init__(self) -> None:
        self.calls: dict[str, ToolCall] = {}
        self.last_call: ToolCall | None = None
        self.asked: frozenset[str] = frozenset()  # the words of the user's latest question, which calls answer
        self.requested: frozenset[str] = frozenset()  # the words of the user's latest request, a question or not
        self.after_output = False  # a tool's result came since the agent last spoke: its next words report on it
        self.outputs: list[str] = []  # the texts of those results, which its report may quote
        self.sought: list[str] = []  # what each of their calls searched for (its query's words), in step
        # and where each came from: (index, call, tool, the key of the error its own items give, "" for none)
        self.origins: list[tuple[int, ToolCall | None, str | None, str]] = []
        self.held: set[str] = set()  # the lines their own items hold already

    def heard(self, items: Sequence[Item]) -> None:
        """Note what a user's message asks (its items are known already): the outputs after it answer it."""
        goal = _goal(items)
        self.requested = asked_words(goal)
        self.asked = self.requested if _ASKS.search(goal) else frozenset()
        self.after_output = False
        self.outputs, self.sought, self.origins, self.held = [], [], [], set()

    def remember(self, view: View) -> None:
        """Note an assistant message's calls (its items are known already). The outputs its report may quote are
        those of the whole tool loop since it last answered: the line it reports on is often a few calls back
        ("L5 in Kraków tops out at: ceiling PLN 35 180 gross per month." after reading the bands, then a record)."""
        for call in view.calls:
            if call.id:
                self.calls[call.id] = call
            self.last_call = call
        self.after_output = False
        if not view.calls:
            self.outputs, self.sought, self.origins, self.held = [], [], [], set()

    def call_of(self, view: View) -> ToolCall | None:
        """The call a tool's result answers (by its id; the last call when the result names none)."""
        return self.calls.get(view.call_id or "") or (self.last_call if not view.call_id else None)

    def read(self, view: View, index: int = -1, items: Sequence[Item] = ()) -> None:
        """Note a tool's result, message ``index``, and its ``items`` (known already): the agent's next words report on it."""
        self.after_output = True
        call = self.call_of(view)
        self.outputs.append(view.text)
        self.sought.append(_sought(call))
        error = next((i.key for i in items if i.section == "error"), "")
        self.origins.append((index, call, view.tool_name, error))
        del self.outputs[:-LOOP_OUTPUTS], self.sought[:-LOOP_OUTPUTS], self.origins[:-LOOP_OUTPUTS]

    def items(self, view: View, index: int, hint: tuple[ToolCall | None, bool] | None = None) -> list[Item]:
        """The items of one message; ``hint``: (call, failed) as a tool result was judged already."""
        if view.role == "user":
            items = user_items(view.text, index)
            self.heard(items)
            return items
        if view.role == "assistant":
            reports, outputs, sought, held, origins = self.after_output, self.outputs, self.sought, self.held, self.origins
            self.remember(view)
            # (the failure it quotes first: its report that says it again is the error's, see ledger.merge)
            quoted = _quoted_failure(view.text, outputs, origins) if reports and outputs else []
            items = quoted + assistant_items(view, index, reports, outputs)
            if reports and outputs and self.requested and _POINTS_BACK.match(view.text):
                items.extend(_pointed_at(outputs, sought, self.requested, index))
            elif reports and outputs and _says_nothing_of_its_own(view, items):
                items.extend(i for i in _pointed_at(outputs, sought, self.requested | asked_words(view.text), index,
                                                    unsaid=True) if i.text not in held)
            return items
        if view.role == "tool":
            call = self.call_of(view)
            failed = hint[1] if hint is not None and hint[0] == call else None
            items = tool_items(view, call, index, failed, self.asked)
            self.read(view, index, items)
            self.held.update(i.text for i in items)
            return items
        return []


# A question: it asks for a value, which a call's output answers ("is the pharmacy open sunday", "how much
# did dedup remove?", "I need the CHF rate of the 30th"); a piece of work asked for ("run the eval suite on X", "can you find out why?") is
# answered by the work, not a line.
_ASKS = re.compile(r"^\W*(?:(?:hi|hey|hiya|hello|ok|okay|so|and|also|quick one|btw|oh)\W+)*" + prose.ASIDE +
                   r"(?:what|when|which|who|whose|where|"
                   r"why|how|is|are|was|were|does|do|did|has|have|any|anything|(?:i|we) (?:need|want|'d like)|"
                   r"tell me|show me|remind me|give me)\b", re.IGNORECASE)


# The agent's words that say an output failed ("It fails here:", "Error at the end of the run:", "Ça a échoué.",
# "Truena.", "Two failures at the end:"), before the line it quotes; not that none did ("No errors this time", "Keine
# Fehler", "läuft fehlerfrei durch", "the error budget is untouched").
_SAYS_FAILED = re.compile(r"\b(?:fail(?:s|ed|ing|ures?)?|errors?|broke|crash(?:es|ed)?|died|panic(?:ked)?|[ée]chou\w*|[ée]checs?|"
                          r"erreurs?|fall[aó]\w*|truena|erros?|falhou|fehler|fehlgeschlagen|errore|fallit[oa])\b|失敗|エラー|落ち",
                          re.IGNORECASE)
_NO_FAILURE = re.compile(r"\b(?:no|zero|0|keine?n?|sans|aucune?|sin|sem|nessun[oa]?|nenhum[a]?|without|never)\s+(?:\w+\s+)?"
                         r"(?:fail|error|erreur|[ée]chec|fehler|errore|erro)|fehlerfrei|error budget|no longer|gone|fixed|"
                         r"pass(?:es|ed)?\b|resolved|green", re.IGNORECASE)
_QUOTE_MARKS = " \t`>"
QUOTED_ERROR_RANK = 1
QUOTED_FAILURE_CHARS = 24  # a shorter quote ("`make test`") is a command or a name, not an output's line
QUOTED_LINE_SHARE = 0.6  # a quote from within an output's line says this much of it at least (the line's start, any)


def _quoted_failure(text: str, outputs: Sequence[str], origins: Sequence[tuple[int, ToolCall | None, str | None, str]]) -> list[Item]:
    """The error the agent quotes from an output right after it, saying it failed ("It fails here:" and the line in
    a fence; "Error at the end of the run: `[rank4]:[E828 ...] Watchdog caught collective operation timeout ...`";
    "It failed on this line:" and the event log's row): the output's whole line, as that output's error. An output
    whose verdict was success (a launch that ran on, a log that was read) still failed where the agent says so; one
    whose error line was another ("! Each row in `x` must match at most 1 row in `y`."
    where the agent quotes "ℹ Row 8260 of `x` matches multiple rows in `y`.") failed on the line the agent read
    (ranked QUOTED_ERROR_RANK: the ledger keeps it in place of the other, see ledger.merge). Each output is read
    as far as a report's quote is (QUOTED_READ_CHARS)."""
    first, _, rest = text.strip().partition("\n")
    said = re.sub(r"`[^`]*`", "", first)
    if not _SAYS_FAILED.search(said) or _NO_FAILURE.search(said):
        return []
    # The quote: code in the first line, or the line right under a first line that ends in a colon (in a fence or
    # indented, or as it is).
    quotes = [m.group(1).strip() for m in _CODE_QUOTE.finditer(first)]
    if first.rstrip().endswith(":"):
        under = [line for line in rest.split("\n") if line.strip()][:2]
        if under and under[0].strip().startswith("```"):
            under = under[1:]
        quotes += [under[0].strip(_QUOTE_MARKS)] if under else []
    for quote in quotes:
        if len(quote) < QUOTED_FAILURE_CHARS:
            continue
        for output, (index, call, tool, error) in zip(reversed(outputs), reversed(origins)):
            at = output.find(quote, 0, QUOTED_READ_CHARS)
            if at < 0:
                continue
            start = output.rfind("\n", 0, at) + 1
            end = output.find("\n", at)
            line = output[start:end if end >= 0 else len(output)].strip()
            if output[start:at].strip() and len(quote) < QUOTED_LINE_SHARE * len(line):
                continue  # a few words from within a longer line: not the line it means (its start is)
            if line == error.rpartition("\n")[2]:
                return []  # the output's own error line: said once
            key, where = output_key(call, tool)
            line = clip(line, 400)
            return [Item("error", f"{key}\n{line}", line + where, index, rank=QUOTED_ERROR_RANK)]
    return []


_CODE_QUOTE = re.compile(r"`([^`\n]{24,})`")


def _goal(items: Sequence[Item]) -> str:
    """The words of the user's request, as its message's items hold them."""
    return next((i.text.split(": ", 1)[-1] for i in items if i.section == "goal" and i.key == "goal"), "")


# The agent's answer that points at what an output printed without saying it ("Found it, see above.", "That's the
# number from the output above.", "Here's what it says."): the line is in the output only.
_POINTS_BACK = re.compile(r"^\W*(?:(?:ok|okay|so|yes|yep|right|alright)\W+)?(?:found it\b(?![^.;\n]*[`:]\s*\S)|here it is\b|"
                          r"here'?s what (?:it|they|the \w+) says?\b|that'?s (?:the|your) (?:number|answer|value|figure|"
                          r"relevant (?:bit|part|line|section))\b|that answers it\b|see (?:above|the (?:output|highlighted line))\b)",
                          re.IGNORECASE)


def _pointed_at(outputs: Sequence[str], sought: Sequence[str], requested: frozenset[str], index: int,
                unsaid: bool = False) -> list[Item]:
    """The line of the latest output that answers the user's request (:func:`.outputs.asked_line`), when the agent
    points at it: a finding its words name; else the line that holds what its call looked for (a lookup's
    "POWER_RESETREAS reset value" for "look up that register's reset value"). Never the output's first line: a
    title says again what was asked for ("HIL run 99111 on hil-rig-01 ...", "8 matches for ..."). ``unsaid``: the
    answer says nothing of its own (see :func:`_says_nothing_of_its_own`): the line is given room after every other
    finding, under a key of its own kind."""
    for output, looked_for in zip(reversed(outputs), reversed(sought)):
        body = output.lstrip().partition("\n")[2]
        line = asked_line(body, requested) or (asked_line(body, asked_words(looked_for)) if looked_for else "")
        if line and unsaid:
            return [Item("finding", POINTED + line.lower()[:200], clip(line, 240), index, weak=True, rank=POINTED_RANK)]
        if line:
            return [Item("finding", ASKED + line.lower()[:200], clip(line, 240), index, rank=1)]
    return []


POINTING_CHARS = 240
POINTED_RANK = -3  # room after every other finding


def _says_nothing_of_its_own(view: View, items: Sequence[Item]) -> bool:
    """Whether the agent's answer after outputs points at what they printed without saying it: a short answer
    that makes no call, states no report and says no number ("Below our target.", "The spike near the end is the
    one that hurts.", "Tá no reason do item rejeitado."): the line it means is the output's that holds its words
    or the request's."""
    text = view.text.strip()
    return (not view.calls and 0 < len(text) <= POINTING_CHARS and not _DIGIT.search(text) and "`" not in text
            and not _NEXT_STEP.match(text) and not any(i.section == REPORT for i in items))


_QUERY_KEYS = frozenset({"query", "q", "search", "term", "terms", "keyword", "keywords", "question", "topic"})


def _sought(call: ToolCall | None) -> str:
    """What a call searched for: its query's words ("POWER_RESETREAS reset value"); not a path, a command or a
    pattern, which are on every line they find or name a file, not a line of it."""
    if call is None:
        return ""
    args = arguments(call.arguments)
    return " ".join(v for k, v in args.items() if isinstance(v, str) and k.lower() in _QUERY_KEYS)[:ASKED_CHARS]


def _question(items: Sequence[Item]) -> frozenset[str]:
    goal = _goal(items)
    return asked_words(goal) if _ASKS.search(goal) else frozenset()


@functools.lru_cache(maxsize=64)
def question_words(text: str) -> frozenset[str]:
    """The words of a user's message that name what the outputs after it answer, when it asks a question
    (see :func:`.outputs.asked_words`); none for a piece of work asked for. Cached: the stubs of a tool loop's
    results all look back to the same question."""
    return _question(user_items(text, 0))


SAID_CHARS = 240
LOOP_OUTPUTS = 8  # the latest outputs of a tool loop that the agent's report may quote (each read up to QUOTED_READ_CHARS)
INTENT_CHARS = 1000
ASKED_CHARS = 1000
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


# What the agent says it does next, not what it found ("Let me check #433087.", "Retrying with --force.").
# Nor what it did or took note of ("Noted: q3_export.parquet.", "I read through dbt_project.yml.").
_NEXT_STEP = re.compile(r"^\W*(?:let me|let's|i'll|i will|i'm going to|i am going to|going to|now|next|first|then|ok|okay|"
                        r"checking|reading|looking|running|trying|retrying|re-?running|opening|fetching|searching|pulling|"
                        r"one more|still|done|sure|got it|on it|noted|"
                        r"i (?:read|opened|scanned|skimmed|looked (?:at|through|over)|went (?:through|over))(?= \S+\W*$| through))\b",
                        re.IGNORECASE)
# A first clause that says the output showed nothing ("Nothing new on HD-387343 since last time.", "metrics.py
# looks consistent with what we discussed; nothing to change there."): no finding.
_NOTHING_FOUND = re.compile(r"^\W*(?:nothing|no (?:change|new|issue|problem|difference)s?)\b|"
                            r"\b(?:looks|seems|is|are) (?:fine|good|ok|okay|consistent|clean|unchanged|as expected)\b",
                            re.IGNORECASE)
_CLAUSE_END = re.compile(r"[;,:\u2014]| - ")
_BUT = re.compile(r"\b(?:except|but|apart from|other than|besides)\b", re.IGNORECASE)
# A name, not a count: code in backticks, a path or dotted key, an id in capitals with a digit ("BX-200").
# Or a name in words joined to a number ("nvf-edi-exports-955", "OU=Depots-46", "nvf-52dd34-dump"), or in camel case
# ("MicrosoftEdgeUpdateCore").
_NAMES_SOMETHING = re.compile(r"`[^`\n]+`|[A-Za-z][\w-]*[./][\w/.-]*[A-Za-z0-9]|\b[A-Z][A-Z0-9]*[-_][A-Z0-9_-]*\d|"
                              r"\b[A-Za-z]{2,}(?:-[A-Za-z0-9]+)*-[A-Za-z]*\d[A-Za-z0-9]*\b|\b[A-Z][a-z]+(?:[A-Z][a-z]+){2,}")

REPORT_CHARS = 20


def _found(sentence: str, outputs: Sequence[str] = ()) -> tuple[str, bool | None]:
    """The agent's first sentence after outputs when it states what they showed, and whether it quotes them: a
    statement (no question, no next step, not that it showed nothing) that names something (a code name, a
    path, an id; a count alone is no name) or says again, word for word, a run of what the outputs say ("it is
    governed by the laws of Sweden" after reading a contract; see :func:`.ledger.items.quotes`); None for
    whether it quotes them when it only says a word of theirs that only an output could have told it
    (:func:`_echoes`). ("", False) when it states nothing found."""
    line = sentence.strip().split("\n", 1)[0].strip()
    if len(line) < REPORT_CHARS or line.endswith("?") or _NEXT_STEP.match(line):
        return "", False
    quoted: bool | None = quotes(line, outputs) or _states_value(line, outputs)
    if not quoted and not _NAMES_SOMETHING.search(line) and not _quotes_value(line, outputs):
        if not _echoes(line, outputs):
            return "", False
        quoted = None  # it says only what the outputs printed: given room after the reports that name something
    if _NOTHING_FOUND.search(_CLAUSE_END.split(line, 1)[0]) and not _BUT.search(line):  # "fine except `pool_size`"
        return "", False
    return line, quoted


LATER_REPORT_CHARS = 8  # a later sentence is short when it only says the value ("Number: 2.41 GiB.")
REPORT_SENTENCES = 4  # the sentences of the agent's first words after outputs that may say what they printed


def _report(parts: Sequence[str], said: str, outputs: Sequence[str]) -> tuple[str, bool | None]:
    """The agent's report on outputs (:func:`_found`) in its first words: the first sentence, or when that one
    says nothing ("That one's the culprit.", "Done, set live.") the first of the next few on the same line that
    says a value or a run of words the outputs print ("Number: 2.41 GiB.", "The relevant bit is `packet loss
    5.21%`."), with the sentences before it when they fit the line. Not a list or a paragraph under the first line:
    a heading's body ("Flux de MX01, enero:" and its rows) says what every total was, not what was found."""
    found, quoted = _found(parts[0], outputs)
    if found or quoted is not False:
        return found, quoted
    first_line = " ".join(said.strip().split("\n", 1)[0].split())
    for n, sentence in enumerate(parts[1:REPORT_SENTENCES], start=1):
        if " ".join(sentence.split()) not in first_line:
            break  # a list or a paragraph after the first line: the report's own body, not its words
        line = sentence.strip()
        if (len(line) < LATER_REPORT_CHARS or line.endswith("?") or _NEXT_STEP.match(line) or _OFFER.match(line)
                or not (_says_number(line, outputs) or _quotes_value(line, outputs))):
            continue  # what it could do next ("If you want, I can reclass 2310 to 5100."), or no value read
        says: bool | None = quotes(line, outputs) or _states_value(line, outputs) or None  # None: it echoes them
        span = " ".join(p.strip() for p in parts[:n + 1])
        return (span if len(span) <= SAID_CHARS and span in first_line else line), says
    return found, quoted


# What the agent offers to do, not what it found ("If you want, I can prepare a reclass ...", "Want me to ...?").
_OFFER = re.compile(r"^\W*(?:if you (?:want|like|prefer|agree)|i can\b|i could\b|want me to|shall i|should i|happy to)\b",
                    re.IGNORECASE)


def _says_number(sentence: str, outputs: Sequence[str]) -> bool:
    """Whether ``sentence`` says a measurement (:func:`.ledger.items.measured_values`) that one of ``outputs`` prints
    as it is; not a short count or code ("left them on 600"), and not a name, which is the first sentence's to say."""
    return any(n in output[:QUOTED_READ_CHARS] for n in measured_values(sentence) for output in outputs)


def _states_value(line: str, outputs: Sequence[str]) -> bool:
    """Whether ``line`` states a value to the digit (see :func:`.ledger.items.precise_values`) that one of ``outputs``
    prints as it is: the agent reports what they showed ("Resultado: 20.213627, ...")."""
    return any(value in output[:QUOTED_READ_CHARS] for value in precise_values(line) for output in outputs)


# A word of the agent's that only an output could have told it: three digits or more ("29.2%", "2025-07-21", "4.42"),
# or a name in mixed case ("QOSMaxGRESPerUser", "WalletScreen").
_TELLING = re.compile(r"(?<![\w.%/:-])(?=[\w.%/:-]*\d[\w.%/:-]*\d[\w.%/:-]*\d)[\w.%/:-]*\w%?|"
                      r"\b(?=\w*[a-z])(?=\w*[A-Z]\w*[A-Z])[A-Za-z]\w{3,}")

# A value with what names it, as an output prints it: a label and its number ("Performance: 49", "heartbeat_timeout_ms":
# 927", "offset 145 ms"), a number and what it counts ("39% packet loss"), or code in backticks with a digit
# ("`berr-counter tx 58 rx 69`").
# (a label is no function word, "for 30 minutes", "about 12", "version 2"; a one-digit value has its colon or equals sign)
_NOT_LABEL = (r"(?!(?:for|about|on|in|at|of|with|was|were|is|are|than|over|after|before|to|by|from|under|above|around|every|"
              r"each|last|next|past|took|takes|and|or|the|a|an|per|since|until|within|version|only|just|all|some|had|has|"
              r"have|got|now|still|de|en|la|le|el|con|por|para|um|uma|und|mit|von|bei|il|di|da)\b)")
_LABEL_VALUE = re.compile(r"(?<![\w.-])" + _NOT_LABEL + r"[^\W\d][\w.-]*[^\W_]\"?(?: ?[:=] ?| )(?:0x[0-9a-f]+|-?\d[\d.,]*\d%?)|"
                          r"(?<![\w.-])" + _NOT_LABEL + r"[^\W\d][\w.-]*[^\W_]\"? ?[:=] ?-?\d%?", re.IGNORECASE)
_VALUE_WORD = re.compile(r"(?<![\w.,:/-])-?(?:\d+[.,]\d+%?|\d+%|\d{3,}) (?!(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)"
                         r"[a-z]*\b)[^\W\d_]{3,}", re.IGNORECASE)
_CODE_SPAN = re.compile(r"`([^`\n]*\d[^`\n]*)`")
_CALENDAR = re.compile(r"\b(?:mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d",
                       re.IGNORECASE)  # "Thu 21", "Nov 3": a day, not a value
QUOTED_VALUE_CHARS = 6  # a shorter run ("is 4") is said by chance


def _quotes_value(line: str, outputs: Sequence[str]) -> bool:
    """Whether ``line`` says a value with what names it just as one of ``outputs`` prints it (:data:`_LABEL_VALUE`,
    :data:`_VALUE_WORD`, :data:`_CODE_SPAN`): the agent reports what they showed ("Sale con 39% packet loss.", "The
    outlier is Performance: 49.", "Found it: lidar stamp offset 145 ms."); not a clock time or a date, nor a count
    of things ("11 things on") or a day ("Thu 21 Nov")."""
    spans = [m.group(0) for m in _LABEL_VALUE.finditer(line)] + [m.group(0) for m in _VALUE_WORD.finditer(line)]
    spans += [m.group(1).strip() for m in _CODE_SPAN.finditer(line)]
    for span in spans:
        if len(span) < QUOTED_VALUE_CHARS or WHEN.search(span) or _CALENDAR.search(span):
            continue
        for output in outputs:
            at = output.find(span, 0, QUOTED_READ_CHARS)
            while at >= 0:
                before, after = output[at - 1:at], output[at + len(span):at + len(span) + 2]
                if not (before.isalnum() or before == "_") and not (after[:1].isdigit() or after[:1] in ".," and after[1:2].isdigit()):
                    return True
                at = output.find(span, at + 1, QUOTED_READ_CHARS)
    return False


def _echoes(line: str, outputs: Sequence[str]) -> bool:
    """Whether ``line`` says a word that one of ``outputs`` prints as it is and that only an output could have told the
    agent (:data:`_TELLING`): it reports what the output showed ("The benchmark reaches 29.2% MFU.")."""
    words = [w.rstrip(".:") for w in _TELLING.findall(line)]
    return any(w in output[:QUOTED_READ_CHARS] for w in words if len(w) >= 4 and not WHEN.match(w) for output in outputs)


_PUT_TO_USER = re.compile(r"^\W*(?:ok(?:ay)?|alright|all right|sounds? (?:good|ok|right)|good with you|fine(?: with you| by you)?|"
                          r"shall i(?: go ahead)?|should i(?: go ahead)?|want me to(?: go ahead)?|agreed|agree)\W*\?\s*$", re.IGNORECASE)


def assistant_items(view: View, index: int, reports: bool = False, outputs: Sequence[str] = ()) -> list[Item]:
    """The items of the agent's message; ``reports``: it is the agent's first word after tool results
    (``outputs``, their texts)."""
    items: list[Item] = []
    text = view.text.strip()
    if text:
        scan = scanned(neutral(text))
        parts = prose.sentences(scan)
        for n, sentence in enumerate(parts) if may_decide(scan) else ():
            if is_decision(sentence):
                if not is_approval(sentence):  # "Going with that.": it points back and says nothing of its own
                    items.append(decision_item(sentence, index))
            elif n + 1 < len(parts) and _REASON_NEXT.match(parts[n + 1]) and is_decision(f"{sentence} {parts[n + 1]}"):
                items.append(decision_item(sentence, index))  # "I'd route X through Y. Mostly because ..."
            elif n + 1 < len(parts) and _PUT_TO_USER.match(parts[n + 1]) and _DECISION_WEAK.search(sentence):
                # a choice put to the user ("I'd put the notice in a snippet called `x`. OK?"): decided when they
                # say yes (see ledger.merge), room last until then
                items.append(decision_item(sentence, index)._replace(weak=True))
        plan = plan_of(scan)
        if plan:
            items.append(plan_item(plan, index))
        items.extend(identifier_items(text, index, strong_only=False))
        items.extend(mention_items(scan, index))
        items.append(Item("state", "said", "Last said: " + clip(text, SAID_CHARS), index))
        found, quoted = _report(parts, scan, outputs) if reports and parts else ("", False)
        if quoted is None and any(i.section == "identifier" and i.text in found for i in items):
            found = ""  # the id it says is an identifier's line already, in these words
        if found:
            # (weak here: a plan's estimate of the block leaves it out, as it gets the room that is left;
            # rank 1 when it quotes the outputs, so that a line of theirs it shares two words with does not
            # stand for it: see ledger.merge)
            items.append(Item(REPORT, found.lower()[:200], clip(found, 240), index, weak=True,
                              rank=-1 if quoted is None else int(quoted)))
    if view.calls:  # what it says it looks for ("let me check what timeout the backorder client uses"):
        # the sentence just before its calls, less the calls' own words
        last = _SENTENCE_END.split(text[-INTENT_CHARS:].rsplit("\n\n", 1)[-1].strip())[-1] if text else ""
        said = evidence_words(last) if len(last) > 8 else ()
        # A word (its stem) the arguments hold is in every line the call finds: it names none of them.
        asked = " ".join(c.arguments for c in view.calls).lower()[:ASKED_CHARS]
        looked_for = [w for w in said if w not in asked]
        items.append(Item(INTENT, " ".join(sorted(looked_for)), "", index, weak=True))  # costs no room
    for call in view.calls:
        items.extend(call_items(call, index))
    return items


def extract(views: Sequence[View], start: int) -> list[Item]:
    """Every item of ``views`` (the messages ``start``, ``start + 1``, ...), in order."""
    extractor = Extractor()
    items: list[Item] = []
    for offset, view in enumerate(views):
        items.extend(extractor.items(view, start + offset))
    return items
