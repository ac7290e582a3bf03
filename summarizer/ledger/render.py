"""Sizing and rendering: the ledger's items written within a token budget, and read back.

Each section first gets its share; what is left goes to sections in :data:`PRIORITY` order;
routine items (seen in run after run) come last of all. When room runs out, items are dropped by
priority (the user's instructions last) and the block says how many were left out and how to get
them back. Same items, same budget, same bytes.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence

from .items import ASKED, REPORTED, SHORT_TITLES, TITLES, CountTokens, Item, marks, masked_key, tight, values

# A tiny ledger: a budget (tokens) below which (1) the user's instructions take the room before any
# other section gets its share (a share of a tiny block holds one line, which would cost a user rule),
# and (2) the block is written compact (short titles, a short left-out line, no citations) when that
# keeps user instructions the full form leaves out. At this size a citation costs about as much as a
# short item, and the archive is still searched by text (recall_history).
COMPACT_BELOW = 512
# The order in which sections are given room: a later one is the first to lose items.
PRIORITY = ("instruction", "goal", "docrule", "error", "decision", "finding", "file", "identifier", "state",
            "request", "command")
ROUTINE = 3  # an identifier, file or error seen more often than this is routine: room after everything else
# (a rule every pasted runbook repeats, "Keep the incident channel updated while it runs.", is the template's:
# the rule each document states once gets room first)
ROUTINE_SECTIONS = frozenset({"identifier", "file", "error", "command", "finding", "docrule"})
# Not a section: what an earlier block read back (our own block, a chunk's ledger) had left out, its count
# in ``seen`` (merge adds the counts up); render adds it to the block's left-out line.
LEFT_OUT = "left_out"
# The share of the budget each section is sure of before the rest is shared out by priority. Earlier
# requests (done once answered) and commands get room last.
SHARES = {"instruction": 0.24, "goal": 0.08, "docrule": 0.06, "error": 0.14, "decision": 0.14, "finding": 0.07,
          "file": 0.10, "identifier": 0.07, "state": 0.02, "request": 0.0, "command": 0.0}


def render(items: Sequence[Item], budget: int, count: CountTokens) -> tuple[str, int]:
    """The ledger text within ``budget`` tokens, and how many items were left out.

    Each section first gets its share; what is left goes to sections in :data:`PRIORITY` order;
    routine items (seen in run after run) come last of all. Within a section the newest items win,
    except user instructions, kept by rank and then oldest first (standing rules are set early), and
    errors, the open ones first.

    A tiny ledger (``budget`` below :data:`COMPACT_BELOW`) that has to leave items out is written
    compact (short titles, a short left-out line, no citations) when that keeps more items.

    What earlier blocks read back had left out (:data:`LEFT_OUT` items) is still in the archive: the
    left-out line counts it too, but the count returned does not (more room cannot bring it back).
    """
    by_section: dict[str, list[Item]] = {s: [] for s in TITLES}
    carried = 0
    for item in items:
        if item.section == LEFT_OUT:
            carried += item.seen
        else:
            by_section.setdefault(item.section, []).append(item)
    text, left_out, rules = _render(by_section, budget, count, compact=False, carried=carried)
    if rules < len(by_section["instruction"]) and budget < COMPACT_BELOW:
        small, small_left_out, small_rules = _render(by_section, budget, count, compact=True, carried=carried)
        if small_rules > rules:
            return small, small_left_out
    return text, left_out


def _render(by_section: dict[str, list[Item]], budget: int, count: CountTokens, *,
            compact: bool, carried: int = 0) -> tuple[str, int, int]:
    """The ledger text, how many items were left out, and how many user instructions were kept
    (``carried``: items earlier blocks left out, added to the left-out line only)."""
    cited = not compact
    titles = SHORT_TITLES if compact else TITLES
    cost: dict[str, list[float]] = {s: [count(f"- {item.line(cited)}\n") for item in by_section[s]]
                                    for s in by_section}
    if compact:  # an instruction under a label it shares with others is written without it (see _join)
        cost["instruction"] = _grouped_costs(by_section["instruction"], count)
    order = {s: _preference(s, by_section[s], cost[s] if compact else None) for s in by_section}
    header = {s: count(f"## {titles.get(s, s)}\n") for s in by_section}
    chosen: dict[str, set[int]] = {s: set() for s in by_section}
    spent = 0.0
    footer = count(_left_out_line(99999, compact) + "\n")
    room = max(0, budget - footer)

    # Routine: seen in run after run, or found only in a tool's output or pasted text and named by no one.
    routine = {s: {i for i, item in enumerate(by_section[s]) if (item.seen > ROUTINE and s in ROUTINE_SECTIONS)
                   or item.weak} for s in by_section}

    said: set[str] = set()  # the texts given room: the same words are not written again under another heading
    common = _common_kinds(by_section.get("identifier", []))
    reported = any(_late_report(item) for item in by_section.get("finding", ()))

    def take(section: str, allowance: float, *, routine_too: bool = False, marked_only: bool = False,
             weak_only: bool = False, reports: bool | None = None, rare_only: bool = False) -> None:
        """``reports``: None, any item; False, none of the agent's reports of outputs (REPORTED); True, only them.
        ``rare_only``: no id of a kind the session holds by the dozen."""
        nonlocal spent
        used = sum(cost[section][i] for i in chosen[section]) + (header[section] if chosen[section] else 0)
        shown = _written_out(by_section, chosen) if section == "identifier" else ""
        # Words given room under one heading are not written a second time under another (a request in the very
        # words of an identifier's line, "Track the reports work under PAY-8332, please."; "Root cause: ..." both a
        # decision and what tools found; a link both a finding and an id), nor twice under one.
        ids_said = {by_section["identifier"][i].text for i in chosen.get("identifier", ())} if section == "request" else set()
        for i in order[section]:
            if i in chosen[section] or (i in routine[section] and not routine_too):
                continue
            if by_section[section][i].text in said or by_section[section][i].text in ids_said:
                continue
            if shown and by_section[section][i].key in shown:
                continue  # a line already given room writes it out
            if weak_only and not (by_section[section][i].weak and (
                    section != "finding" or by_section[section][i].key.startswith(ASKED))):
                continue
            if reports is not None and reports != _late_report(by_section[section][i]):
                continue
            if rare_only and _kind(by_section[section][i].key) in common:
                continue
            if marked_only and not marks(by_section[section][i]):
                break  # the order puts every marked one first
            extra = cost[section][i] + (0 if chosen[section] else header[section])
            if used + extra > allowance or spent + extra > room:
                continue
            chosen[section].add(i)
            if section not in ("identifier", "request"):  # (an id's line yields to the same words under another
                said.add(by_section[section][i].text)  # heading, see below; a request to an id's line)
            used += extra
            spent += extra

    sections = [s for s in PRIORITY if by_section.get(s)] + [s for s in by_section if s not in PRIORITY and by_section[s]]
    if compact or budget < COMPACT_BELOW:
        take("instruction", room)
    else:  # the user's rules and corrections before any other section's share: they are the last dropped
        take("instruction", room, marked_only=True)
    def by_priority() -> None:
        for section in sections:
            if section == "identifier":
                # The other statements of a document the user said to work by (weak docrules), and the lines
                # that answer the user's questions (see outputs.asked_line), before the ids.
                for late in ("docrule", "finding"):
                    if by_section.get(late):
                        take(late, room, routine_too=True, weak_only=True)
                # What the agent said the outputs showed, in its words (no share of its own: a session's reports
                # by the hundred took the room of its errors and decisions): after the files and the ids of rarer
                # kinds, before the ids of a kind the session holds by the dozen.
                if reported:
                    take(section, room, rare_only=True)
                    take("finding", room, reports=True)
            take(section, room, reports=False)
        if reported and "identifier" not in sections:
            take("finding", room, reports=True)
        for section in sections:  # routine items (the same file or error in every run) last of all
            take(section, room, routine_too=True)

    for section in sections:
        take(section, math.floor(room * SHARES.get(section, 0.04)), reports=False)
    by_priority()
    total = sum(len(by_section[s]) for s in sections)
    # An identifier given room before the line that writes it out (an instruction taken in a later pass) is
    # not written twice: it counts as kept, in that line, and its room goes to what is left.
    ids = by_section.get("identifier", [])
    for _ in range(3):
        shown = _written_out(by_section, chosen) if ids else ""
        twice = {i for i in chosen.get("identifier", set()) if ids[i].key in shown or ids[i].text in said}
        if not twice:
            break
        chosen["identifier"] -= twice
        spent -= sum(cost["identifier"][i] for i in twice) + (0 if chosen["identifier"] else header["identifier"])
        by_priority()
    if ids:
        shown = _written_out(by_section, chosen)
        total -= sum(1 for i, item in enumerate(ids) if item.key in shown and i not in chosen["identifier"])

    def join() -> str:
        return _join(by_section, chosen, carried + total - sum(len(chosen[s]) for s in sections), compact)

    text = join()
    while text and count(text) > budget:  # sums of parts can round differently from the whole
        last = next((s for s in reversed(sections) if chosen[s]), None)
        if last is None:  # not even the left-out line fits: the block's frame says what it is
            return "", total, 0
        chosen[last].discard(_last(order[last], chosen[last]))
        text = join()
    if compact:  # a tiny text: the parts were estimated (labels shared or not), the whole is measured
        text = _fill(text, sections, order, chosen, budget, count, join)
    return text, total - sum(len(chosen[s]) for s in sections), len(chosen["instruction"])


FILL_TRIES = 64  # items a compact block tries against its whole measured text


def _fill(text: str, sections: list[str], order: dict[str, list[int]], chosen: dict[str, set[int]],
          budget: int, count: CountTokens, join: Callable[[], str]) -> str:
    """More items, in the order they are given room, while the whole text still fits ``budget``."""
    tries = 0
    for section in sections:
        for i in order[section]:
            if i in chosen[section]:
                continue
            if tries >= FILL_TRIES:
                return text
            tries += 1
            chosen[section].add(i)
            bigger = join()
            if count(bigger) <= budget:
                text = bigger
            else:
                chosen[section].discard(i)
    return text


# The sections whose lines write out the identifiers they name: an identifier is not listed again beside them.
WRITES_OUT = ("instruction", "decision", "error", "docrule")


def _written_out(by_section: dict[str, list[Item]], chosen: dict[str, set[int]]) -> str:
    """The text of the lines chosen so far that write identifiers out (and the agent's reports of outputs:
    "Refunded €139.47 on ORD-3501063." is not listed again as the id's line)."""
    reports = [by_section["finding"][i].text for i in chosen.get("finding", ())
               if by_section["finding"][i].key.startswith(REPORTED)] if "finding" in by_section else []
    return "\n".join([*(by_section[s][i].text for s in WRITES_OUT if s in by_section for i in chosen.get(s, ())), *reports])


def _late_report(item: Item) -> bool:
    """An agent's report of outputs that gets room after the files and the rarer ids: all but one that says what it
    found the cause or answer to be (rank 0, see ledger.merge), which is a finding like the outputs' own lines."""
    return item.key.startswith(REPORTED) and item.rank < 0


def _last(order: list[int], chosen: set[int]) -> int:
    return next(i for i in reversed(order) if i in chosen)


def _preference(section: str, items: list[Item], cost: list[float] | None = None) -> list[int]:
    """Indices of ``items`` in the order they are given room (``cost``: a compact block's costs)."""
    n = len(items)
    if section == "instruction":
        if cost is not None:
            # A tiny block counts the user's rules kept: by the two marks that make a rule (a correction or
            # label, a word that forbids or requires), then the shorter first; a value carried is no mark here.
            return sorted(range(n), key=lambda i: (-marks(items[i]), cost[i], i))
        # By the marks that make a rule (a correction or label, a word that forbids or requires); rules oldest
        # first (standing rules are set early), settings (a value said, no mark) newest first: the latest
        # statement of a value is the one that holds.
        return sorted(range(n), key=lambda i: (-items[i].rank, i if marks(items[i]) else -i))
    if section == "error":
        # Open errors first, then the resolved; the work's own before what a user pasted (evidence of
        # someone else's run); a failure repeated in every run after the rest.
        return sorted(range(n), key=lambda i: (items[i].resolved, items[i].key.startswith("pasted\n"),
                                               items[i].seen > ROUTINE, -i))
    if section == "decision":  # what a marker says was decided first, then the newest
        return sorted(range(n), key=lambda i: (-items[i].rank, -i))
    if section == "finding":  # what the agent's words named first, then the newest
        return sorted(range(n), key=lambda i: (-items[i].rank, -i))
    if section == "identifier":
        # Something seen once or twice is what the work was about; the same port in every status output is
        # routine: the rare first, the newest first within each. An id of a kind the session holds by the dozen
        # (the tickets a helpdesk works through: "#486016", "#519514", ...) after the ids of rarer kinds (a
        # tenant, a request id), whatever the rank.
        common = _common_kinds(items)
        return sorted(range(n), key=lambda i: (items[i].seen > ROUTINE, _kind(items[i].key) in common, -items[i].rank, -i))
    if section == "file":
        # A file the work made (written, created) before one it only edited (see extract.file_item); of a series the
        # work writes again and again ("rapports/licences-ETR-2024-03-13.csv", "...-EDP-2024-03-22.csv", ...) the
        # latest only, before the rest of it: the files made once are what the work was about.
        latest: dict[str, int] = {}
        for i in range(n):
            latest[_series(items[i].key)] = i
        common = _common_series(items)
        return sorted(range(n), key=lambda i: (items[i].seen > ROUTINE, _series(items[i].key) in common
                                               and latest[_series(items[i].key)] != i, -items[i].rank, -i))
    if section == "docrule":
        # The newest document first; of a document's plain statements (weak: it is followed, they say no "must"),
        # those that set a limit first ("The maximum term ... is 4 years from disclosure", "Every handler returns
        # within 7 ms"), then those that name a value ("Tests against the PSP sandbox use tenant `tn_f652d0`"),
        # then in the document's order, not from its last line up (an annex's checklist).
        return sorted(range(n), key=lambda i: (-items[i].src, _specific(items[i]), i if items[i].weak else -i))
    return list(range(n - 1, -1, -1))


def _specific(item: Item) -> int:
    """How little a weak statement of a followed document says: 0 a limit, 1 a value it names, 2 neither (a strong
    rule is 0: its room comes first anyway)."""
    if not item.weak or _LIMIT.search(item.text):
        return 0
    return 1 if "`" in item.text or values(item.text) else 2


# A statement that sets a limit: a bound said in words, or an amount with its unit ("4 years", "7 ms", "450 line items
# per call", "20 business days").
_LIMIT = re.compile(r"\b(?:max(?:imum|imal)?|min(?:imum)?|at (?:most|least)|no (?:more|less|later|earlier) than|not (?:more|less|later) "
                    r"than|up to|within|limit(?:ed)?|cap(?:ped)?|threshold|m[áa]xim[oa]|m[íi]nim[oa]|h(?:ö|oe)chstens|mindestens|"
                    r"au (?:plus|moins)|massimo|maksymalnie|co najmniej|en (?:fazla|az))\b|"
                    r"(?<![\d.,])\d[\d.,]{0,20}\s?(?:%|ms|s|sec|seconds?|min|minutes?|h|hrs?|hours?|days?|business days|weeks?|months?|years?|"
                    r"[kmgt]i?b|[kmgt]\b|items?|line items|lines?|pages?|words?|char(?:acter)?s?|requests?|calls?|times|eur|usd|"
                    r"gbp|per\b)(?!\w)|[$€£]\s?\d", re.IGNORECASE)


SERIES = 4  # distinct files of one series (names alike but for their numbers and codes) that make it common
_CODE_PART = re.compile(r"(?<![^\W_])(?:\d+|[A-Z]{2,5}\d*)(?![^\W_])")


def _series(path: str) -> str:
    """A file's series: its folder and its name with numbers and short codes in capitals masked
    ("rapports/licences-ETR-2024-03-13.csv" -> "rapports/licences-#-#-#-#.csv"); a name of words is its own."""
    folder, _, name = path.rpartition("/")
    return f"{folder}/{_CODE_PART.sub('#', name)}"


def _common_series(items: list[Item]) -> set[str]:
    """The series of which ``items`` hold :data:`SERIES` distinct files or more."""
    if len(items) < SERIES:
        return set()
    files: dict[str, set[str]] = {}
    for item in items:
        files.setdefault(_series(item.key), set()).add(item.key)
    return {series for series, names in files.items() if len(names) >= SERIES}


COMMON_KIND = 24  # distinct ids of one kind (what comes before their first digit: "#", "HD-", "cus_") that make it common
_BEFORE_DIGIT = re.compile(r"\D*")


def _kind(key: str) -> str:
    """An id's kind: its words before the first digit ("#486016" -> "#", "HD-759520" -> "hd-")."""
    m = _BEFORE_DIGIT.match(key)
    return m.group(0)[:24].lower() if m else ""


def _common_kinds(items: list[Item]) -> set[str]:
    """The kinds of which ``items`` hold more than :data:`COMMON_KIND` distinct ids."""
    if len(items) <= COMMON_KIND:
        return set()
    keys: dict[str, set[str]] = {}
    for item in items:
        keys.setdefault(_kind(item.key), set()).add(item.key)
    return {kind for kind, ids in keys.items() if len(ids) > COMMON_KIND}


def _left_out_line(left_out: int, compact: bool) -> str:
    if compact:
        return f"[{left_out} more: recall_history]"
    return f"[{left_out} more item{'s' if left_out != 1 else ''} in the archive: recall_history]"


# A label the user put on an instruction ("SAFETY RULE: ..."); in a compact block the instructions
# that share one are written under it once ("### SAFETY RULE"), and read back with it.
_LABELED = re.compile(r"^([A-Z][A-Z ]{1,30}[A-Z]): (?=\S)")


def _label(text: str) -> str:
    m = _LABELED.match(text)
    return m.group(1) if m else ""


def _grouped_costs(items: list[Item], count: CountTokens) -> list[float]:
    """What each instruction costs in a compact block: without its label when others share it, plus its
    share of the label's line."""
    labels = [_label(item.text) for item in items]
    sharing: dict[str, int] = {}
    for label in labels:
        sharing[label] = sharing.get(label, 0) + 1
    costs: list[float] = []
    for item, label in zip(items, labels):
        if label and sharing[label] > 1:
            body = tight(item.line(False))[len(label) + 2:]
            costs.append(count(f"- {body}\n") + count(f"### {label}\n") / sharing[label])
        else:
            costs.append(count(f"- {tight(item.line(False))}\n"))
    return costs


def _grouped_lines(items: list[Item]) -> list[str]:
    """Compact instruction lines: the unlabelled (or alone under their label) first, then each label
    shared by more than one, once, with its instructions below it."""
    groups: dict[str, list[str]] = {}
    for item in items:
        groups.setdefault(_label(item.text), []).append(tight(item.line(False)))
    lines = [f"- {line}" for label, group in groups.items() if not label or len(group) == 1 for line in group]
    for label, group in groups.items():
        if label and len(group) > 1:
            lines.append(f"### {label}")
            lines.extend(f"- {line[len(label) + 2:]}" for line in group)
    return lines


def _join(by_section: dict[str, list[Item]], chosen: dict[str, set[int]], left_out: int, compact: bool = False) -> str:
    lines: list[str] = []
    titles = SHORT_TITLES if compact else TITLES
    for section in TITLES:
        if chosen.get(section):
            lines.append(f"## {titles[section]}")
            picked = [by_section[section][i] for i in sorted(chosen[section])]
            if compact and section == "instruction":
                lines.extend(_grouped_lines(picked))
            else:
                lines.extend(f"- {item.line(not compact)}" for item in picked)
    if left_out:
        lines.append(_left_out_line(left_out, compact))
    return "\n".join(lines)


# Full and short titles both read back as their section.
_SECTION_OF = {**{title: section for section, title in SHORT_TITLES.items()},
               **{title: section for section, title in TITLES.items()}}
_CITE = re.compile(r"^(.*?)(?: \((\d+) times\))? \[(#\d+(?:, #\d+)*)\]$")
_LEFT_OUT_LINE = re.compile(r"^\[(\d+) more(?: items?)?(?: in the archive)?: recall_history\]$")  # every form


def parse_items(text: str) -> list[Item]:
    """Read a rendered ledger back into items (to merge ledgers rendered separately). Its left-out line
    becomes a :data:`LEFT_OUT` item holding the count, so a merged ledger still counts those items."""
    items: list[Item] = []
    section: str | None = None
    label = ""  # a compact block's "### LABEL": the instructions below it carry it
    for line in text.splitlines():
        if line.startswith("## "):
            title = line[3:].strip()
            section, label = _SECTION_OF.get(title, title), ""
        elif line.startswith("### ") and section == "instruction":
            label = line[4:].strip()
        elif line.startswith("- ") and section is not None:
            body = f"{label}: {line[2:]}" if label else line[2:]
            m = _CITE.match(body)
            if m:
                cites = [int(n) for n in m.group(3).replace("#", "").split(", ")]
                body = m.group(1)
                items.append(Item(section, _key_of(section, body), body, cites[-1], -1, int(m.group(2) or 1),
                                  "(resolved at [#" in body, supersedes=tuple(cites[:-1])))
            else:
                items.append(Item(section, _key_of(section, body), body, -1))
        elif (gone := _LEFT_OUT_LINE.match(line.strip())) and int(gone.group(1)) > 0:
            items.append(Item(LEFT_OUT, LEFT_OUT, line.strip(), -1, seen=int(gone.group(1))))
    return items


def _key_of(section: str, text: str) -> str:
    if section in ("file", "identifier", "finding"):
        return text.split(": ", 1)[0]
    if section in ("instruction", "docrule"):  # as extraction keys it: a later one with other values replaces it
        return masked_key(text)
    if section in ("goal", "state"):
        label = text.split(":", 1)[0]
        return _READ_KEYS.get(label, label)  # the key extraction gives the same line: a later one replaces it
    return text.lower()


_READ_KEYS = {"Latest request": "goal", "Open tasks": "tasks", "Last said": "said", "Last action": "action"}
