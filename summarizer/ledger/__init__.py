"""The session ledger: the state of the work, in typed sections, each item citing its source message.

The compacted-context block is a ledger, not a digest. Items come from the structure of the
original messages (roles, tool names and arguments, failed results, what a user wrote versus what
they pasted; see :mod:`context_compactor.summarizer.extract` and :mod:`.prose`) and are merged over
the whole folded region (:func:`merge`):

- the same thing seen again (a file edited twice, an error repeated, a rule said again) is one
  item, citing the latest message, with the last thing done to it;
- a user's correction supersedes the statement it corrects (:mod:`.corrections`): the statement
  leaves, the correction stays verbatim and cites both; no words are rewritten;
- an error is marked resolved when the same command later succeeded;
- what only a tool printed or a user pasted (an identifier, a line of a config) is kept only when
  prose or a later call names it too.

:func:`.render.render` writes the sections within a token budget.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from . import prose
from .corrections import collapse_repeats, evidence_words, restate, revise_decisions, supersede
from .items import (APPROVAL, ASKED, POINTED, REPORTED, CORRECTION_RANK, DECIDED_RANK, MARK, RULE_RANK, SETTING_RANK, STRONG_RULE_RANK, SHORT_TITLES, TITLES, CountTokens, Item, VARYING, dense, measured_values, precise_values, quotes,
                    marks, masked_key, values, words)
from .render import COMPACT_BELOW, LEFT_OUT, PRIORITY, ROUTINE, SHARES, parse_items, render

__all__ = ["INTENT", "REPORT", "APPROVAL", "ASKED", "POINTED", "COMPACT_BELOW", "CORRECTION_RANK", "DECIDED_RANK", "LEFT_OUT", "MARK", "PRIORITY", "RULE_RANK", "SETTING_RANK",
           "STRONG_RULE_RANK",            "SHARES", "SHORT_TITLES", "TITLES", "CountTokens", "Item", "dense", "marks", "masked_key", "merge",
           "parse_items", "render", "values", "words"]

# Sections whose weak items (found only in a tool's output or in pasted text) need a strong sighting.
NAMED_SECTIONS = ("identifier", "finding")
# Not a section: the words an agent's message says it looks for with its calls, less the calls' own words
# (a grep's pattern is in every line it finds); a line of their output that shares two of them is named.
INTENT = "intent"
# Not a section: the agent's first sentence after outputs when it states what they showed ("The loop comes from
# a rule in `redirects/x.yml`."): a finding in its words when none of the outputs' lines it names already says it,
# under a key of its own kind (REPORTED), after the lines the tools printed (rank -1); render gives it room after
# the files and the ids of rarer kinds.
REPORT = "report"
EVIDENCE_SHARED = 2  # words or numbers an agent's next words share with an output's line that name it
NAMED_PER_OUTPUT = 3  # lines of one output its next words may name; more share only what was searched for
UNNAMED_KEPT = 24  # weak items no one named that a ledger keeps at most (the latest), given room last


def merge(items: Iterable[Item], *, whole: bool = False) -> list[Item]:
    """One ledger from items in history order: duplicates joined, corrections applied, errors resolved.

    ``whole``: the items are the whole history before the cut (not one chunk of it). A chunk keeps
    weak items (a later chunk may name them) and its corrections (what they correct may be in an
    earlier chunk); the whole history drops the weak items no one named."""
    # A thing seen again is joined as (latest item, first, seen, text) and made an Item once, at the end:
    # a cold compaction meets the same port or file thousands of times.
    joined: dict[tuple[str, str], tuple[Item, int, int, str]] = {}
    successes: dict[str, int] = {}  # command key -> last message where it succeeded
    named: set[tuple[str, str]] = set()  # weak-able slots that prose or a call named
    proposed: list[tuple[str, str]] = []  # decisions said since the user last spoke
    evidence: list[tuple[str, str]] = []  # findings of the outputs since the agent last spoke
    intent: frozenset[str] = frozenset()  # what the agent said it looks for with the calls the outputs answer
    evidence_named = False  # the agent's latest words named a line of the outputs before them
    failure_said = False  # they said again what an output before them failed with
    named_now: list[str] = []  # the lines of those outputs they named
    failures: list[str] = []  # the errors of the outputs since the agent last spoke
    stated: list[tuple[tuple[str, str], int, tuple[str, ...]]] = []  # (slot, source, values) of the latest plain settings
    acted_on: set[tuple[str, str]] = set()  # the settings whose values the agent's next calls took up
    for item in items:
        if item.section == INTENT:
            intent = frozenset(item.key.split(" ")) if item.key else frozenset()
            continue
        if item.section == REPORT:
            # A line of theirs it named stands for it, unless it quotes them in words that line does not have
            # (it named the title of the contract it then quotes) or says a measurement none of them holds ("88.43
            # GB, see the block with the highest memory efficiency." names that block's other line); an error it
            # says again is in the errors.
            if failure_said or (evidence_named and (item.rank < 1 or quotes(item.text, named_now))
                                and all(any(v in line for line in named_now) for v in measured_values(item.text))):
                continue
            # (of its reports, the one that says what it found the cause or answer to be, "Found it: X - that's
            # what made ...", "X is the hot spot", before those that say how a run went)
            item = item._replace(section="finding", key=REPORTED + item.key, weak=False,
                                 rank=0 if _concludes(item.text) else min(item.rank, 0) - 1)
        if item.section == "state" and item.key == "said":
            intent = frozenset()
            evidence_named = failure_said = False
            named_now = []
            spoken = evidence_words(item.text.split(": ", 1)[-1]) if evidence or failures else frozenset()
            if evidence:
                # The agent's words after reading outputs say which of their lines mattered ("The pods can't
                # pull the image"): a line they share two words or numbers with is named, and ranks first.
                # (Leaving out the words its calls asked for, too, cost a host's session at 8k 10 of 72 facts
                # over 20 turns, since fewer lines were named: not done.)
                hits = [slot for slot in evidence
                        if slot in joined and len(spoken & line_words(joined[slot][3])) >= EVIDENCE_SHARED]
                # (words shared with more lines of one output than NAMED_PER_OUTPUT name none of them: they are
                # what a search looked for, on every hit it printed, "packet timeout" over thirty grep hits)
                per_output = Counter(joined[slot][0].src for slot in hits)
                for slot in hits:
                    if per_output[joined[slot][0].src] <= NAMED_PER_OUTPUT:
                        _name(joined, named, slot)
                        evidence_named = True
                        named_now.append(joined[slot][3])
                evidence.clear()
            if failures:  # words that say again what failed ("That fails with psycopg2.OperationalError: ...")
                failure_said = any(len(spoken & line_words(f)) >= EVIDENCE_SHARED for f in failures)
                failures.clear()
        elif item.section == "finding" and not item.key.startswith(REPORTED):
            evidence.append((item.section, item.key))
        elif item.section == "error":
            failures.append(item.text)
        elif item.section == "goal" and item.key == "goal":
            intent = frozenset()  # the user spoke: what the agent looked for before is done
        if item.section == APPROVAL or (item.section == "goal" and item.key == "goal"):
            if item.section == APPROVAL:  # the user said "ok" to what was proposed: it is decided
                for slot in proposed:
                    if slot in joined and joined[slot][0].rank < DECIDED_RANK:
                        last, first, seen, text = joined[slot]
                        joined[slot] = (last._replace(rank=DECIDED_RANK, weak=False), first, seen, text)
            proposed.clear()
            if item.section == APPROVAL:
                continue
        elif item.section == "decision":
            proposed.append((item.section, item.key))
        if item.section == "success":
            successes[item.key] = item.src
            continue
        if item.section == "state" and item.key == "action" and stated:
            # What the agent's next call is made on: a value the user said without saying it holds ("yara scan
            # WS-8727 triage", "VAT summary US01 March") named the work asked, once.
            stated = [s for s in stated if s[1] >= item.src - ECHO_REACH]
            acted_on.update(slot for slot, _, vals in stated if any(_says_value(item.text, v) for v in vals))
        elif (item.section == "instruction" and item.rank == SETTING_RANK and not item.correction and not item.update
              and not prose.says_holding(item.text)):
            stated.append(((item.section, item.key), item.src, values(item.text)))
        if item.section == "mention":  # prose names them: what a tool found under these names is kept
            for name in item.key.split(" "):
                named.add(("identifier", name))
                named.add(("finding", name))
            continue
        slot = (item.section, item.key)
        if not item.weak and item.section in NAMED_SECTIONS:
            named.add(slot)
        old = joined.pop(slot, None)  # re-inserted at the end: sections stay in order of last sight
        if old is None:
            joined[slot] = (item, item.first, item.seen, item.text)
        else:
            last, first, seen, text = old
            # A file the work made stays so, edited later; an id the user named stays so, listed again by a tool.
            if item.rank < last.rank and item.section in ("file", "identifier"):
                item = item._replace(rank=last.rank)
            joined[slot] = (item, first if first >= 0 else last.src, seen + item.seen, _joined(text, item))
        if intent and item.section == "finding" and len(intent & line_words(item.text)) >= EVIDENCE_SHARED:
            # What the agent said it looks for ("let me check what timeout the backorder client uses"),
            # found in the output of the call it made: named as well.
            _name(joined, named, slot)
    merged = [item if (first, seen, text) == (item.first, item.seen, item.text)
              else item._replace(first=first, seen=seen, text=text)
              for (item, first, seen, text) in joined.values()]
    if acted_on:
        merged = [_as_request(i) if (i.section, i.key) in acted_on and i.rank == SETTING_RANK else i for i in merged]
    if whole:  # what only a tool printed or a user pasted, and no one named: the latest few, given room last
        unnamed = [n for n, i in enumerate(merged) if i.weak and (i.section, i.key) not in named]
        # A setting or search hit no one named is none of the work's (a file holds hundreds of them).
        # A line that answers the user's question (see outputs.asked_line) is kept all the same, given room last.
        # So is a statement of a document the user said to work by (see user_words._document_rules): theirs.
        unnamed = [n for n in unnamed if not merged[n].key.startswith((ASKED, POINTED, REPORTED)) and merged[n].section != "docrule"]
        unnamed_findings = {n for n in unnamed if merged[n].section == "finding"}
        unnamed = [n for n in unnamed if n not in unnamed_findings]
        drop = (set(unnamed[:-UNNAMED_KEPT]) if len(unnamed) > UNNAMED_KEPT else set()) | unnamed_findings
        merged = [i if (i.section, i.key) not in named else i._replace(weak=False)
                  for n, i in enumerate(merged) if n not in drop]
    if successes:
        merged = [_resolve(i, successes) for i in merged]
    merged = _repeated_lines(_one_line_each(collapse_repeats(revise_decisions(restate(supersede(_said_again(
        _echoes_left_out(_recurring_asks(merged)))))))))
    # An output's error line where the agent quoted another as what failed (see extract._quoted_failure): the quote.
    quoted = {i.src for i in merged if i.section == "error" and i.rank > 0}
    if quoted:
        merged = [i for i in merged if not (i.section == "error" and i.rank == 0 and i.seen == 1 and i.src in quoted)]
    # The same words are not listed twice as identifiers (a sentence that names three ids); a finding an
    # error line already shows (the failing test it names) neither. An identifier that a line of the user's
    # words, a decision or an error writes out stays an item: render lists it only when that line is left out.
    errors = "\n".join(i.text for i in merged if i.section == "error")
    if errors:
        merged = [i for i in merged if not (i.section == "finding" and (i.key in errors or i.text in errors))]
    lines: set[str] = set()
    kept = []
    by_source: dict[int, list[str]] = {}  # the id lines of each message
    for i in merged:
        if i.section == "identifier":
            if i.text in lines:
                continue
            lines.add(i.text)
            by_source.setdefault(i.src, []).append(i.text)
        kept.append(i)
    # A clipped id line whose words another id line of the same message holds whole ("#458659 is a duplicate of
    # #411721; I merged …" beside "... I merged them.") is the same words again: that line writes its id out.
    merged = [i for i in kept if not (i.section == "identifier" and "\u2026" in i.text and _held(i, by_source[i.src]))]
    goal = joined.get(("goal", "goal"))
    if goal is not None:  # the latest request is the goal; not listed twice
        merged = [i for i in merged if not (i.section == "request" and i.src == goal[0].src)]
    return merged


# What the agent says it found to be the cause or the answer, in the languages of its reports.
_CONCLUDES = re.compile(r"\b(?:found it|found the (?:cause|culprit|problem|bug|leak)|(?:the |our )?culprit|root cause|"
                        r"the (?:problem|issue|cause|bug|reason) (?:is|was)\b|that'?s (?:why|what (?:made|makes|caused|causes))|"
                        r"which explains|explains (?:the|why)|hot ?spot\b|bottleneck\b|caused by|is the reason|(?:number|line|value|figure) that matters|"
                        r"fundet\b|gefunden\b|trouv[ée]\b|encontr(?:ado|ei|é)\b|trovato\b|ketemu\b|"
                        r"la cause|die ursache|la causa|a causa|penyebab(?:nya)?\b|原因|원인)", re.IGNORECASE)
# (not what it has not found yet: "No bottleneck on sub-skr-pc04", "Haven't found the culprit yet", "Belum ketemu",
# "Noch keine Ursache gefunden")
_NOT_YET = re.compile(r"(?:n't|\b(?:no|not|never|nothing|none|without|belum|tidak|nggak|gak|kein\w*|nicht|noch|pas|aucune?|"
                      r"rien|niet|geen|nog|nie|brak|sin|ning[úu]n|nada|non|nessun\w*|sem|nenhum\w*))\W*(?:\w+\W+){0,3}$",
                      re.IGNORECASE)


def _concludes(text: str) -> bool:
    """Whether the agent's report says what it found the cause or the answer to be (:data:`_CONCLUDES`, not denied)."""
    found = _CONCLUDES.search(text)
    return found is not None and not _NOT_YET.search(text, max(0, found.start() - 40), found.start())


_WORDS = re.compile(r"[A-Za-z]{3,}\W+[A-Za-z]{3,}")  # two words: a line's shape, not an id's alone


def _held(item: Item, lines: list[str]) -> bool:
    """Whether another of ``lines`` holds the words of ``item``'s clipped line (its marks left off) and its id."""
    core = item.text.replace(" \u2026", "").replace("\u2026 ", "").strip()
    return any(line != item.text and core in line and item.key in line for line in lines)


# A log record's field names ("pod=", "msg=", "\"level\":"): in every record, they say nothing of one.
_FIELD_NAME = re.compile(r"(?<![\w.-])[\w.-]+=(?=[^\s=])|\"[\w.-]+\"\s*:")
RECORD_FIELDS = 3  # a line with this many key=value fields is a record


def line_words(line: str) -> frozenset[str]:
    """The words and numbers a line of output says (see :func:`evidence_words`), a record's field names aside."""
    if line.startswith("{") or line.count("=") >= RECORD_FIELDS:
        bare = _FIELD_NAME.sub(" ", line)
        if line.startswith("{") or len(bare) < len(line) - RECORD_FIELDS:
            return evidence_words(bare)
    return evidence_words(line)


def _name(joined: dict[tuple[str, str], tuple[Item, int, int, str]], named: set[tuple[str, str]],
          slot: tuple[str, str]) -> None:
    """A finding the agent's words name: kept (not weak), and given room first."""
    last, first, seen, text = joined[slot]
    joined[slot] = (last._replace(rank=max(last.rank, 1), weak=False), first, seen, text)
    named.add(slot)


def _repeated_lines(merged: list[Item]) -> list[Item]:
    """An error that comes back with other numbers or ids ("502 Bad Gateway (upstream crm-proxy, request
    732ffcea54b5) (crm_lookup)", from six calls) is routine before its latest sighting, as one seen in every
    run is: each earlier one counts them all, so the errors said once get room first and the latest stands.
    So is an id an action's answer gives in the same words every time ("Submitted batch job 6291276 (slurm)"
    from ten launches); not a bare id (its shape is no words), nor one the user named. So is what the agent says
    its outputs showed in the same words every time ("Reply drafted and #464264 marked solved."), unless it states a
    value to the digit ("Resultado: 29.694,03, worth a look."): each is what a different output measured."""
    shapes = {id(i): form for i in merged if i.section == "error" or (i.section == "identifier" and i.rank == 0)
              or (i.section == "finding" and i.key.startswith(REPORTED) and not precise_values(i.text)
                  and i.rank < 0)  # (nor what it found to be the cause, each time it found it: rank 0, see merge)
              if (form := " ".join(VARYING.sub("#", i.text).split())) and (i.section == "error" or _WORDS.search(form))}
    counts = Counter(shapes.values())
    if not counts or max(counts.values()) <= ROUTINE:
        return merged
    latest: dict[str, int] = {}
    for i in merged:
        shape = shapes.get(id(i))
        if shape is not None and counts[shape] > ROUTINE:
            latest[shape] = max(latest.get(shape, i.src), i.src)
    return [i._replace(seen=max(i.seen, counts[shapes[id(i)]])) if shapes.get(id(i)) in latest
            and i.src < latest[shapes[id(i)]] else i for i in merged]


def _joined(old: str, new: Item) -> str:
    """The text of a thing seen again: ``old``, its text so far, and ``new``, the latest sight. The latest
    words stand (a rule said again with another value is that value now); a file shows its last action
    and the first one before it."""
    if new.section == "file" and old != new.text and "(earlier:" not in new.text:
        before = old.split(": ", 1)[-1].split(" (earlier:", 1)[0]
        now = new.text.split(": ", 1)[-1]
        return new.text if before == now else f"{new.text} (earlier: {before})"
    return new.text


def _resolve(item: Item, successes: dict[str, int]) -> Item:
    if item.section != "error" or item.resolved:
        return item
    command = item.key.split("\n", 1)[0]
    at = successes.get(command)
    if at is not None and at > item.src:
        return item._replace(resolved=True, text=f"{item.text} (resolved at [#{at}])")
    return item


_SAID_ONCE = frozenset({"error", "request", "command", "finding", "decision", "goal", "docrule"})


def _one_line_each(merged: list[Item]) -> list[Item]:
    """Items of a section that read the same (one error line from ten different queries, "read this:" asked
    with ten different pastes) are one line: the latest, seen as often as they all were."""
    latest: dict[tuple[str, str], int] = {}
    for n, item in enumerate(merged):
        if item.section in _SAID_ONCE:
            latest[(item.section, _same_as(item))] = n
    if len(latest) == sum(1 for i in merged if i.section in _SAID_ONCE):
        return merged
    seen: dict[int, tuple[int, int]] = {}  # latest index -> (seen, first)
    for item in merged:
        if item.section in _SAID_ONCE:
            at = latest[(item.section, _same_as(item))]
            count, first = seen.get(at, (0, item.src))
            seen[at] = (count + item.seen, min(first, item.first if item.first >= 0 else item.src))
    out = []
    for n, item in enumerate(merged):
        if item.section not in _SAID_ONCE:
            out.append(item)
        elif latest[(item.section, _same_as(item))] == n:
            count, first = seen[n]
            out.append(item if count == item.seen else item._replace(seen=count, first=first if first < item.src else item.first))
    return out


# What names one of many in a pasted document's template line: a capitalised word, a word with a digit, a
# hyphen, an underscore or a dot ("Internal note (Rafael): ...", "the dunning-run job always fails ...").
_TEMPLATE_SLOT = re.compile(r"(?<![\w-])[\w.-]*(?:[A-Z0-9_]|\w[.-]\w)[\w.-]*")


def _same_as(item: Item) -> str:
    """What makes two lines of a section the same line: their text; for the rules of pasted documents, their
    text less the names in it, so that a note pasted again and again with another name in it ("don't bother
    paging Ingrid tonight", then "... paging Jonah ...") is one line, the latest."""
    if item.section == "docrule":
        return _TEMPLATE_SLOT.sub("#", item.text)
    return item.text


ECHO_NEAR = 2  # messages after any words of the user's within which the agent's choice of their values echoes them
ECHO_REACH = 8  # messages after the user's words within which the agent's choice of their values may echo them (in
# the same turn: no words of the user's between, and tool calls before the answer: "OK, going with that. TrenchBroom
# with func_godot it is." five messages after "après réflexion, l'outil de blockout ce sera TrenchBroom with func_godot")


# A statement's shape: its values, names and months and days masked ("trial balance de US01 a abril, y que cuadre con
# el warehouse" and "... de MX01 a enero, ...").
_SHAPE_VALUE = re.compile(r"\S*\d\S*")
_SHAPE_NAME = re.compile(r"\b[A-Z][\w&'-]*")
_SHAPE_DATE = re.compile(r"\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|"
                         r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|enero|febrero|marzo|abril|mayo|junio|julio|agosto|"
                         r"septiembre|octubre|noviembre|diciembre|(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b", re.IGNORECASE)
RECURRING_ASKS = 3  # messages that say a statement of the same shape with other values: work asked again and again


def _recurring_asks(merged: list[Item]) -> list[Item]:
    """Statements of the same shape in three messages or more, with other values each time ("cash position MX01,
    all banks, end of January", then "... of March", "devoluciones de ES01: abril contra marzo", "... de MX01: enero
    contra enero"), are a piece of work asked again and again, not a setting: a setting is said once and, when it
    changes, restated or corrected (which :func:`.corrections.restate` and the corrections read). They are requests."""
    shape_of = {n: _shape(item.text, whole=prose.says_holding(item.text)) for n, item in enumerate(merged)
                if item.section == "instruction" and item.rank == SETTING_RANK and not item.correction}
    sources: dict[str, set[int]] = {}
    for n, shape in shape_of.items():
        sources.setdefault(shape, set()).add(merged[n].src)
    asked = {n for n, shape in shape_of.items() if len(sources[shape]) >= RECURRING_ASKS}
    if not asked:
        return merged
    return [_as_request(item) if n in asked else item for n, item in enumerate(merged)]


def _says_value(text: str, value: str) -> bool:
    """Whether ``text`` says ``value`` as a word of its own ("06" is no word of a hash that holds it)."""
    at = text.find(value)
    while at >= 0:
        end = at + len(value)
        if (at == 0 or not (text[at - 1].isalnum() or text[at - 1] in "_.-")) and (
                end == len(text) or not (text[end].isalnum() or text[end] == "_")):
            return True
        at = text.find(value, at + 1)
    return False


def _as_request(item: Item) -> Item:
    return item._replace(section="request", key=item.text.lower()[:200], corrects=(), update=False)


SHAPE_HEAD = 6  # the words a statement's shape is read from: what it asks for and of what, not the aside after it


def _shape(text: str, whole: bool = False) -> str:
    """A statement's shape, from its first words: the same ask says a different aside after it ("P&L flux for ES01,
    April vs prior month It's for the audit committee pack.", "P&L flux for US01, April vs prior month"). ``whole``:
    from all its words, for a statement that says a value holds ("note 3: the value is v3 ..." and "note 4: the value
    is v4 ..." set two things when they go on differently)."""
    masked = _SHAPE_NAME.sub("C", _SHAPE_DATE.sub("M", _SHAPE_VALUE.sub("#", text)))
    return " ".join(masked.lower().split()[:None if whole else SHAPE_HEAD])[:160]


def _echoes_left_out(merged: list[Item]) -> list[Item]:
    """The agent's choice that only takes up what the user just said ("Got it, using seq_len 11882 from now
    on; I'll update the configs ..." after "we're going with seq_len 11882 for the long-ctx stage") is the
    user's words again: every value it names is in an instruction or a choice of the user's one or two
    messages before it. It leaves (before corrections are read, so that it cannot stand as the old value
    when the user's words are corrected later)."""
    said: dict[int, set[str]] = {}
    for item in merged:
        if item.section == "instruction" or (item.section == "decision" and item.user):
            said.setdefault(item.src, set()).update(values(item.text))
    if not said:
        return merged
    users = {i.src for i in merged if i.section in ("instruction", "request") or (i.section == "decision" and i.user)}
    chosen = {i.src for i in merged if i.section == "decision" and i.user}
    out = []
    for item in merged:
        if item.section == "decision" and not item.user:
            named = set(values(item.text))
            # (the user's latest words before it: those of its turn; past two messages only a choice the user made,
            # not one they left to the agent, "Pick one of node-18 or node-20 for the CI image")
            latest = next((src for src in range(item.src - 1, item.src - ECHO_REACH - 1, -1) if src in users), None)
            if named and latest is not None and named <= said.get(latest, set()) and (
                    item.src - latest <= ECHO_NEAR or latest in chosen):
                continue
        out.append(item)
    return out


RETYPED = 0.78  # letter triples two instructions share (Jaccard) that make one the other said again, typos and all


def _said_again(merged: list[Item]) -> list[Item]:
    """An instruction said again with a typo or two ("dont adopt anything", later "dont adpot anything") is
    the same instruction: the latest stays, citing the first. Values must be the same (a rule with
    another port is another setting, which corrections and keys handle); corrections stay each."""
    groups: dict[tuple[str, int], list[int]] = {}
    for n, item in enumerate(merged):
        if item.section == "instruction" and not item.correction and len(item.text) >= 16:
            head = item.text.lower().split(None, 1)[0]
            groups.setdefault((head, item.rank), []).append(n)
    drop: set[int] = set()
    first: dict[int, int] = {}
    for members in groups.values():
        if len(members) < 2:
            continue
        grams = {n: _triples(merged[n].text) for n in members}
        vals = {n: frozenset(values(merged[n].text)) for n in members}
        for a_at, a in enumerate(members):
            if a in drop:
                continue
            for b in members[a_at + 1:]:
                if b in drop or vals[a] != vals[b]:
                    continue
                ga, gb = grams[a], grams[b]
                if len(ga & gb) >= RETYPED * len(ga | gb):
                    drop.add(a)  # the later one stays
                    src = merged[a].first if merged[a].first >= 0 else merged[a].src
                    first[b] = min(first.get(b, src), src, first.get(a, src))
                    break
    if not drop:
        return merged
    out = []
    for n, item in enumerate(merged):
        if n in drop:
            continue
        if n in first:
            earliest = min(first[n], item.first if item.first >= 0 else item.src)
            item = item._replace(first=earliest, seen=item.seen + 1)
        out.append(item)
    return out


def _triples(text: str) -> frozenset[str]:
    low = " ".join(text.lower().split())
    return frozenset(low[i:i + 3] for i in range(len(low) - 2))
