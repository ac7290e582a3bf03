"""The session ledger: the state of the work, in typed sections, each item citing its source message.

The compacted-context block is a ledger, not a digest. Items come from the structure of the
original messages (roles, tool names and arguments, failed results; see :mod:`.extract`) and are
merged over the whole folded region:

- the same thing seen again (a file edited twice, an error repeated) is one item, citing the
  latest message, with the last thing done to it;
- a user's correction replaces the value it corrects, everywhere, shown as "new (was old)", so a
  stale value never survives alone;
- an error is marked resolved when the same command later succeeded.

:func:`render` writes the sections within a token budget. When room runs out, items are dropped
by priority (the user's instructions last) and the block says how many were left out and how to
get them back. Same items, same budget, same bytes.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple

CountTokens = Callable[[str], int]

# Sections in the order they are written, with their titles.
TITLES: dict[str, str] = {
    "instruction": "User instructions (verbatim)",
    "goal": "Current goal and open tasks",
    "decision": "Decisions",
    "error": "Errors (exact)",
    "file": "Files changed (last action)",
    "identifier": "Identifiers",
    "request": "Earlier requests of the user",
    "command": "Commands run",
    "state": "Where things stood",
}
# The same sections in a tiny block (see COMPACT_BELOW): short titles, read back as the same sections.
SHORT_TITLES: dict[str, str] = {
    "instruction": "User instructions", "goal": "Goal", "decision": "Decided", "error": "Errors",
    "file": "Files", "identifier": "Ids", "request": "Asked", "command": "Ran", "state": "Stood",
}
# A tiny ledger: a budget (tokens) below which (1) the user's instructions take the room before any
# other section gets its share (a share of a tiny block holds one line, which would cost a user rule),
# and (2) the block is written compact (short titles, a short left-out line, no citations) when that
# keeps user instructions the full form leaves out. At this size a citation costs about as much as a
# short item, and the archive is still searched by text (recall_history).
COMPACT_BELOW = 512
# The order in which sections are given room: a later one is the first to lose items.
PRIORITY = ("instruction", "goal", "error", "decision", "file", "identifier", "state", "request", "command")
ROUTINE = 3  # an identifier, file or error seen more often than this is routine: room after everything else
ROUTINE_SECTIONS = frozenset({"identifier", "file", "error", "command"})
# The share of the budget each section is sure of before the rest is shared out by priority.
# Not a section: what an earlier block read back (our own block, a chunk's ledger) had left out, its count
# in ``seen`` (merge adds the counts up); render adds it to the block's left-out line.
LEFT_OUT = "left_out"
SHARES = {"instruction": 0.30, "goal": 0.08, "error": 0.15, "decision": 0.14, "file": 0.14,
          "identifier": 0.12, "state": 0.02, "request": 0.0, "command": 0.0}


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
    # For a correction: the values it replaces, as (old, new) pairs.
    corrects: tuple[tuple[str, str], ...] = ()
    rank: int = 0  # within a section, a higher rank is given room first

    def line(self, cited: bool = True) -> str:
        seen = f" ({self.seen} times)" if self.seen > 2 and self.section in ("error", "command") else ""
        # One line whatever the text holds (any line break): content never becomes structure.
        body = f"{' '.join(self.text.split())}{seen}"
        if not cited or self.src < 0:
            return body
        # A corrected item cites where it was said and where it was corrected.
        cite = (f"#{self.first}, #{self.src}" if 0 <= self.first < self.src and ("(was " in self.text or "(then: " in self.text)
                else f"#{self.src}")
        return f"{body} [{cite}]"


def merge(items: Iterable[Item], *, whole: bool = False) -> list[Item]:
    """One ledger from items in history order: duplicates joined, corrections applied, errors resolved.

    ``whole``: the items are the whole history before the cut (not one chunk of it), so a correction
    that landed in every place it corrects ("port 9090 (was 8787)") and says nothing more (no rule, no
    label) is not listed again: the corrected item cites it. A chunk keeps its corrections: the value
    they correct may be in an earlier chunk."""
    # A thing seen again is joined as (latest item, first, seen, text) and made an Item once, at the end:
    # a cold compaction meets the same port or file thousands of times.
    joined: dict[tuple[str, str], tuple[Item, int, int, str]] = {}
    corrections: list[Item] = []
    successes: dict[str, int] = {}  # command key -> last message where it succeeded
    for item in items:
        if item.section == "success":
            successes[item.key] = item.src
            continue
        if item.corrects:
            corrections.append(item)
        slot = (item.section, item.key)
        old = joined.pop(slot, None)  # re-inserted at the end: sections stay in order of last sight
        if old is None:
            joined[slot] = (item, item.first, item.seen, item.text)
        else:
            last, first, seen, text = old
            joined[slot] = (item, first if first >= 0 else last.src, seen + item.seen, _joined(text, item))
    ordered = {slot: item if (first, seen, text) == (item.first, item.seen, item.text)
               else item._replace(first=first, seen=seen, text=text)
               for slot, (item, first, seen, text) in joined.items()}
    merged = list(ordered.values())
    if successes:
        merged = [_resolve(i, successes) for i in merged]
    known: dict[str, tuple[str, ...]] = {}  # values of the texts read so far: every correction reads them all
    landed: set[tuple[str, str, int]] = set()  # corrections shown in full where they landed

    def land(correction: Item, changed: list[Item]) -> None:
        nonlocal merged
        shown = "\n".join(after.text for before, after in zip(merged, changed) if after is not before)
        if whole and correction.rank < RULE_RANK and all(f"{new} (was {old})" in shown
                                                            for old, new in correction.corrects) \
                and _says_nothing_more(correction.text, shown) and _all_shown(correction.text, shown):
            landed.add((correction.section, correction.key, correction.src))
        merged = changed

    for correction in corrections:
        correction = _with_olds(correction, merged, known)
        if correction.corrects:
            land(correction, [_apply(correction, i) for i in merged])
    # Then a rule said again on its own, against the values the earlier rules hold now: in its sentence only.
    for slot, sentence, restated in _restatements(merged):
        land(restated, [_apply_in(restated, i, sentence) if (i.section, i.key) == slot
                        else _apply(restated, i) if i.section == "identifier" else i for i in merged])
    if landed:  # a correction joined with an earlier one ("(was ...)") still holds that one's value: kept
        merged = [i for i in merged if i.seen > 1 or (i.section, i.key, i.src) not in landed]
        # Its identifier lines go with it: the values it gave are in the items it corrected, or replaced since.
        gone = {src for _section, _key, src in landed}
        merged = [i for i in merged if not (i.section == "identifier" and i.src in gone and i.seen == 1)]
    # An identifier already written out in the user's words, a decision or an error is not listed twice.
    said = "\n".join(i.text for i in merged if i.section in ("instruction", "decision", "error"))
    merged = [i for i in merged if not (i.section == "identifier" and (
        i.key in said or _key_of("identifier", i.text) in said or _key_of("identifier", _WAS.sub("", i.text)) in said))]
    merged = _not_replaced(merged)  # no identifier line states a value the user's words show replaced
    if corrections:  # an identifier corrected to a value listed on its own is one thing: the corrected line stays
        merged = _one_per_value(merged)
    goal = ordered.get(("goal", "goal"))
    if goal is not None:  # the latest request is the goal; not listed twice
        merged = [i for i in merged if not (i.section == "request" and i.src == goal.src)]
    return _with_plain_corrections(merged) if whole else merged


def _with_plain_corrections(merged: list[Item]) -> list[Item]:
    """A correction that carries no value ("Sorry, make that the latest stable Python.") joined to the user's
    words just before it, which it corrects ("Target Python 3.11 in CI. (then: Sorry, make that ...)"):
    the two are kept or left out together, so the corrected words never stand alone (invariant 8), and the
    correction is not made a rule of its own (alone, it outlived a later override it did not know of)."""
    from .extract import corrects_something  # extract builds on this module

    said = sorted((i for i in merged if i.section in ("instruction", "request")), key=lambda i: i.src)
    if len(said) < 2:
        return merged
    into: dict[int, Item] = {}  # id of an item -> the item it became (its plain corrections joined)
    gone: set[int] = set()
    before: Item | None = None
    for item in said:
        plain = (not item.corrects and item.section == "request" and not item.text.rstrip().endswith("?")
                 and corrects_something(item.text[:400]))
        if plain and before is not None and before.src < item.src:
            joined = into.get(id(before), before)
            into[id(before)] = joined._replace(text=f"{joined.text} (then: {item.text})", rank=max(joined.rank, MARK),
                                               first=joined.first if joined.first >= 0 else joined.src, src=item.src)
            gone.add(id(item))
            continue
        before = item
    if not into:
        return merged
    return [into.get(id(i), i) for i in merged if id(i) not in gone]


_WAS_VALUES = re.compile(r" \(was ([^()]*)\)")


def _not_replaced(merged: list[Item]) -> list[Item]:
    """Without the identifier lines whose value the user's words show replaced since ("port 38742" when an
    instruction reads "... 46598 (was 38742)", or when the words it was said in are an instruction listed
    with another value now): an identifier line is never the one place an old value still reads as
    current. Only for values the user set (instructions, requests)."""
    replaced = {v for i in merged if i.section in ("instruction", "request") and "(was " in i.text
                for group in _WAS_VALUES.findall(i.text) for v in group.split(", ")}
    settings = {i.key for i in merged if i.section == "instruction"}

    def stale(item: Item) -> bool:
        head, _, said = _WAS.sub("", item.text).partition(": ")
        if any(v in replaced for v in values(head)):
            return True
        # Said in words that key as an instruction still listed: that instruction states the setting now.
        return bool(said) and masked_key(said.replace("~", head.split(" ")[-1])) in settings

    return [i for i in merged if i.section != "identifier" or not stale(i)]


def _one_per_value(merged: list[Item]) -> list[Item]:
    """Identifier lines naming one value once: the line that shows what it replaced ("new (was old): ...")
    rather than the correction's own line about it; of lines alike, the latest."""
    lines: dict[str, Item] = {}
    for item in merged:
        if item.section == "identifier":
            value = _WAS.sub("", item.text).split(": ", 1)[0]
            kept = lines.get(value)
            if kept is None or "(was " in item.text or "(was " not in kept.text:
                lines[value] = item
    if len(lines) == sum(1 for i in merged if i.section == "identifier"):
        return merged
    keep = {id(item) for item in lines.values()}
    return [i for i in merged if i.section != "identifier" or id(i) in keep]


_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+")
_WAS = re.compile(r" \(was [^()]*\)")


def _restatements(merged: list[Item]) -> list[tuple[tuple[str, str], str, Item]]:
    """A rule said again on its own with other values ("Run the dev API on port 21641."), where an earlier
    instruction said it among others ("Ground rules: ... Run the dev API on port 46090. ..."): for each,
    the earlier item's slot, its sentence that says it, and the later one as a correction of its values."""
    alone: dict[str, list[Item]] = {}
    for item in merged:
        if item.section == "instruction" and not item.corrects and not _SENTENCE_END.search(item.text.strip()):
            alone.setdefault(item.key, []).append(item)
    if not alone:
        return []
    out: list[tuple[tuple[str, str], str, Item]] = []
    for item in merged:
        if item.section != "instruction" or not _SENTENCE_END.search(item.text.strip()):
            continue
        said_at = item.first if item.first >= 0 else item.src
        for sentence in _SENTENCE_END.split(item.text):
            clean = _WAS.sub("", sentence)
            keys = {masked_key(clean), masked_key(_LEAD_IN.sub("", clean))}  # "Ground rules: Run ..." too
            for later in (found for key in keys for found in alone.get(key, ())):
                if later.src <= said_at:
                    continue
                pairs = tuple((a, b) for a, b in zip(values(clean), values(_WAS.sub("", later.text)))
                              if a != b and _shape(a) == _shape(b))
                if pairs:
                    out.append(((item.section, item.key), sentence, later._replace(corrects=pairs)))
    return out


_LEAD_IN = re.compile(r"^[^:.]{1,40}:\s+")  # "Ground rules: ", "SAFETY RULE: "
# Words a correction is made of besides what it corrects: what it says beyond them is more than a correction.
_CORRECTION_FILLER = frozenset("""sorry actually correction wait oops meant mean not the one other old that this make
    was wrong typo mixed misremembered misspoke gave you and instead should have been scratch bad mistake update
    change use goes taken right correct new value its it's""".split())


def _all_shown(correction: str, shown: str) -> bool:
    """Whether every value and number of a correction is in the items it landed in ("Sorry, port 9090 with
    8 workers" is listed still when only the port was replaced: its 8 workers would be lost)."""
    return all(v in shown for v in values(correction)) and all(
        re.search(rf"(?<!\d){n}(?!\d)", shown) for n in re.findall(r"\d+", correction))


def _says_nothing_more(correction: str, shown: str) -> bool:
    """Whether a correction says nothing the items it landed in do not show now (at most a few words of
    its own, such as "the pager" or "the other one is taken"): only then is it not listed again."""
    return len(_words(correction) - _CORRECTION_FILLER - _words(shown)) <= 3


def _apply_in(correction: Item, item: Item, sentence: str) -> Item:
    """``item`` with the values of ``correction`` replaced within ``sentence`` only (a rule said again)."""
    changed = sentence
    for old, new in correction.corrects:
        if old in changed and new not in changed:
            changed = _sub_whole(changed, old, f"{new} (was {old})")
    if changed == sentence or sentence not in item.text:
        return item
    return item._replace(text=item.text.replace(sentence, changed, 1), src=max(item.src, correction.src),
                         first=item.first if item.first >= 0 else item.src, rank=max(item.rank, correction.rank))


RULE_RANK = 4  # a user's words ranked this high hold a rule (a word that forbids or requires, a rule's label)
MARK = 2  # the rank points of one mark of a rule (a correction or label; a word that forbids or requires)


def _marks(item: Item) -> int:
    """How many marks of a rule ``item`` carries: a value it holds (one point) is no mark."""
    return item.rank // MARK
# A value: a token with a digit or a slash, or an address without either (a URL with its scheme, an e-mail).
# Each alternative starts where a run of its leading characters starts (the lookbehinds): tried from
# every character of a long run (40k letters, no digit), the pattern took seconds, quadratic in the run.
_ADDRESS_VALUE = (r"(?<![a-z0-9+.-])[a-z][a-z0-9+.-]{0,15}://[\w.@:/+%~=&?#-]+"
                  r"|(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_NUMBER_LIKE = r"(?<![\w.@:/+-])[$€£]?[\w.@:/+-]*\d[\w.@:/+-]*"
_VALUE = re.compile(rf"(?i:{_ADDRESS_VALUE})|{_NUMBER_LIKE}|(?<![\w.-])[\w.-]+/[\w./-]+")
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
_FORBIDS = re.compile(r"\W{0,8}(?:[^:.]{0,40}:\s{0,4})?(?:never|do not|don'?t|must not|mustn'?t|no(?![,.!]))\b"
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
    return "#" if _place(token.rstrip(".,;:")) else _shape(token)


_TICKET_ID = re.compile(r"([A-Z][A-Z0-9]{1,9})-\d{1,7}")
_STANDARDS = frozenset({"UTF", "UCS", "ISO", "AES", "SHA", "MD", "RSA", "DES", "TLS", "SSL", "HTTP", "IPV",
                        "PBKDF", "ECDSA", "ED", "CRC", "X", "IEEE", "ECMA", "EN", "DIN", "BS", "IEC"})


# "the" before a word, where a word may start (not inside a path or an identifier).
_THE = re.compile(r"(?<!\S)(?i:the) (?=[\w$(])")
# A final period (before the "(was ...)" of a correction, if any), after a word, a digit or a bracket.
_FINAL_PERIOD = re.compile(r"(?<=[\w)\]])\.(?=(?: \(was [^()]*\))?$)")
# Quoted words are the user's literal text: left as they are.
_QUOTED = re.compile(r"(\"[^\"]*\"|`[^`]*`|\u201c[^\u201d]*\u201d)")


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


def values(text: str) -> tuple[str, ...]:
    """Value-like tokens (with a digit or a slash) of a text: what a correction may replace."""
    found = (v.rstrip(".,:;!?)") for v in _VALUE.findall(text))
    return tuple(v for v in found if len(v) >= 2)


# A hash-like run (hex, six or more, letters and digits both): "7b096ddc7d" and "8c1f2a9e3b" are one shape.
_HEX_RUN = re.compile(r"(?<![0-9a-zA-Z])(?=[0-9a-fA-F]*[a-fA-F])(?=[0-9a-fA-F]*\d)[0-9a-fA-F]{6,}(?![0-9a-zA-Z])")


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


def _word_before(text: str, value: str) -> str:
    at = text.find(value)
    words = re.findall(r"[A-Za-z]{3,}", text[max(0, at - 40):at]) if at >= 0 else []
    return words[-1].lower() if words else ""


def _with_olds(correction: Item, merged: list[Item], known: dict[str, tuple[str, ...]]) -> Item:
    """The correction with the value each new value replaces found in the items before it: the
    latest earlier value of the same shape (digits aside), named by the same word when it is a
    bare number (or, named by no word of its own, "Sorry, I meant 0045", the one of as many digits in
    the user's message just before); else the address (e-mail, URL) at the same place, else the latest of the same kind (an
    e-mail for an e-mail, a URL of the same scheme) sharing most words with it ("https://prod.example.com/api"
    replaces "https://staging.example.com/api", not "https://runbooks.acme.dev/on-call")."""
    pairs = []
    earlier: list[Item] | None = None
    # A value a rule forbids ("Never run migration 0193") is that rule's own: only a correction that forbids
    # too, or one said right after it ("Sorry, I meant migration 0194"), replaces it; not one that sets,
    # later ("Sorry, the migration is 7090" corrects "Apply migration 1713", said with it).
    forbids = any(_FORBIDS.match(_OPENING_WORD.sub("", sentence)) for sentence in _SENTENCE_END.split(correction.text))
    just_before: set[str] = set()
    for old, new in correction.corrects:
        if old:
            pairs.append((old, new))
            continue
        bare = not re.search(r"[A-Za-z]", _shape(new))
        named = _word_before(correction.text, new)
        shape, place = _shape(new), _place(new)
        # The user's own words first (what a correction corrects), then the rest; the latest first.
        if earlier is None:
            earlier = sorted((i for i in merged if i.section in _CORRECTABLE and i.src < correction.src),
                             key=lambda i: (i.section not in ("instruction", "request"), -i.src))
            last_said = next((i.src for i in earlier if i.section in ("instruction", "request")), -1)
            just_before = {i.text for i in earlier if i.src == last_said and i.section in ("instruction", "request")}
        def may(text: str, v: str, just_before: set[str] = just_before) -> bool:
            return forbids or text in just_before or not _forbidden(text, v)

        def same_shape(text: str, v: str, new: str = new, shape: str = shape, bare: bool = bare,
                       named: str = named) -> bool:
            return (v != new and _shape(v) == shape and (not bare or (named != "" and _word_before(text, v) == named))
                    and may(text, v))

        said_words = _words(correction.text) - _CORRECTION_FILLER
        found = _likeliest(earlier, known, same_shape, said_words)
        if found is None and bare and (named == "" or named in _CORRECTION_FILLER):
            # "Sorry, I meant 0045": a bare number named by no word of its own corrects one of as many digits
            # in the user's message just before ("Run migration 0042 ..."), as a reader would; none further back.
            # Only when that message holds one such number: "0042 on port 8080" leaves "I meant 0045" unread.
            said = [i for i in earlier if i.section in ("instruction", "request")]
            alike = {v for i in said if i.src == said[0].src for v in _said(i, known)
                     if v != new and _shape(v) == shape and len(v) == len(new)}
            found = alike.pop() if len(alike) == 1 else None
        if found is None and place:  # no value of its shape: an address at the same place, else of its kind
            found = (_closest_address(earlier, known, new, place, may, said_words)
                     or _alike_address(earlier, known, new, may, said_words))
        if found is not None:
            pairs.append((found, new))
    return correction._replace(corrects=tuple(pairs))


# The word a correction opens with ("Sorry, never touch server-13": a correction that forbids).
_OPENING_WORD = re.compile(r"^\W{0,4}(?:sorry|actually|oops|correction|wait|no|my bad|typo)\b\W{1,4}", re.IGNORECASE)


def _forbidden(text: str, value: str) -> bool:
    """Whether ``value`` is named in a sentence of ``text`` that opens with a word that forbids."""
    return any(value in sentence and _FORBIDS.match(sentence) for sentence in _SENTENCE_END.split(text))


ALIKE_WORDS = 2  # words an address on another host shares with the one it replaces, at least ("example", "api")
_COMMON_WORDS = frozenset({"www", "com", "org", "net", "dev", "io", "http", "https"})


def _alike_address(items: list[Item], known: dict[str, tuple[str, ...]], new: str, may: Callable[[str, str], bool],
                   said: set[str]) -> str | None:
    """Of the addresses of ``new``'s kind in ``items``, the one sharing most words with it (at least
    :data:`ALIKE_WORDS`, a domain's and a path's, not "com" or "www"), then with the correction's words
    (:func:`_context_score`); none when two addresses tie on both ("the prod API is https://www..." between
    a staging and a prod URL picks the prod one; "https://www.acme.dev/api" alone, neither)."""
    kind, words = _kind(new), _all_words(new)
    scored: dict[str, tuple[int, int]] = {}
    for item in items:
        for v in _said(item, known):
            if v != new and v not in scored and _kind(v) == kind and may(item.text, v):
                shared = len(words & _all_words(v))
                if shared >= ALIKE_WORDS:
                    scored[v] = (shared, _context_score(item.text, v, said))
    return _one_best(scored)


def _one_best(scored: dict[str, tuple[int, int]]) -> str | None:
    """The value of the highest score; none when two share it (a reader could not tell which is meant)."""
    if not scored:
        return None
    top = max(scored.values())
    best = [v for v, score in scored.items() if score == top]
    return best[0] if len(best) == 1 else None


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z]{3,}", text.lower()))


def _context_score(text: str, value: str, said: set[str]) -> int:
    """How surely a correction (``said``: its words) means ``value`` of ``text``: how many of its words name
    ``value`` there (the words of its clause before it, up to 48 characters) or are in ``value`` itself (an
    e-mail's local part, a URL's own words): "Bob is robert@..." means bob@, "the admin API goes on port
    9091" means "the admin API on port 8081", "revert 9f8e7d5" the reverted hash (the word naming the
    correction's value is one of ``said``: it counts as any word does)."""
    at = text.find(value)
    clause = re.split(r"[;,.:!?()]\s", text[max(0, at - 48):at])[-1] if at >= 0 else ""
    own = _address_words(value) if _place(value) else _words(value)
    return len(said & (_words(clause) | (own - _COMMON_WORDS)))


def _all_words(address: str) -> set[str]:
    return set(re.findall(r"[a-z]{2,}", address.split("://", 1)[-1].lower())) - _COMMON_WORDS


def _kind(address: str) -> str:
    """An address's kind: "@" for an e-mail, a URL's scheme ("https", "s3"); "" for anything else."""
    if "://" in address:
        return address.split("://", 1)[0].lower() if _place(address) else ""
    return "@" if _place(address) else ""


def _closest_address(items: list[Item], known: dict[str, tuple[str, ...]], new: str, place: str,
                     may: Callable[[str, str], bool], said: set[str]) -> str | None:
    """In the first item (in the order given) with addresses at ``place``, the one whose own words share most
    with ``new``'s ("ops-oncall-2@acme.dev" replaces "ops-alerts-7@", not "alice-1@"), then with the
    correction's (:func:`_context_score`: "Oops, Bob is robert@acme.dev" replaces bob@, not alice@); an
    address alone there is the one; of several that tie, none."""
    words = _address_words(new)
    for item in items:
        candidates = [v for v in dict.fromkeys(_said(item, known)) if v != new and _place(v) == place and may(item.text, v)]
        if len(candidates) == 1:
            return candidates[0]
        if candidates:
            return _one_best({v: (len(words & _address_words(v)), _context_score(item.text, v, said))
                              for v in candidates})
    return None


def _address_words(address: str) -> set[str]:
    """The words of an address besides its place: an e-mail's local part, a URL's path."""
    own = address.split("@", 1)[0] if "@" in address else address.split("://", 1)[-1].partition("/")[2]
    return set(re.findall(r"[a-z]{2,}", own.lower()))


def _said(item: Item, known: dict[str, tuple[str, ...]]) -> tuple[str, ...]:
    """The values of ``item``'s text, read once per merge (every correction reads them all)."""
    said = known.get(item.text)
    if said is None:
        said = known[item.text] = values(item.text)
    return said


def _likeliest(items: list[Item], known: dict[str, tuple[str, ...]], fits: Callable[[str, str], bool],
               said: set[str]) -> str | None:
    """The value a correction (``said``: its words) replaces: of
    the user's words that hold one that ``fits``, those sharing most words with it ("Sorry, the admin API
    goes on port 9091" replaces the admin API's port, not the dev API's said later), the latest of them
    on a tie; within them, the value named most like it (:func:`_context_score`: "revert 9f8e7d5" replaces
    the reverted hash, not the cherry-picked one); else the first that fits in the rest."""
    best, score = None, -1
    for n, item in enumerate(items):
        if item.section not in ("instruction", "request"):
            return best if best is not None else _latest(items[n:], known, fits)
        matches = [v for v in _said(item, known) if fits(item.text, v)]
        if matches:
            shared = len(said & _words(item.text))
            if shared > score:
                best, score = max(matches, key=lambda v: _context_score(item.text, v, said)), shared
    return best


def _latest(items: list[Item], known: dict[str, tuple[str, ...]], fits: Callable[[str, str], bool]) -> str | None:
    """The first value (of the first item, in the order given) that ``fits(item text, value)``."""
    for item in items:
        match = next((v for v in _said(item, known) if fits(item.text, v)), None)
        if match is not None:
            return match
    return None


def _joined(old: str, new: Item) -> str:
    """The text of a thing seen again: ``old``, its text so far, and ``new``, the latest sight."""
    if new.section in ("instruction", "request") and old != new.text:
        # The same sentence with other values: the later one stands, each value it replaced shown after the
        # one that replaced it ("port 9090 (was 8787)"), as a correction shows it; one with no value of
        # its shape to stand beside, after the whole text.
        olds = [v for v in values(_WAS.sub("", old)) if v not in new.text]
        text, spare = new.text, []
        partners = [v for v in values(new.text) if v not in old]
        for value in olds:
            partner = next((v for v in partners if _shape(v) == _shape(value)), None)
            if partner is None:
                spare.append(value)
                continue
            partners.remove(partner)
            text = _sub_whole(text, partner, f"{partner} (was {value})")
        return f"{text} (was {', '.join(spare)})" if spare else text
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


def _apply(correction: Item, item: Item) -> Item:
    """``item`` with the values ``correction`` replaced, shown as "new (was old)"; the correction
    itself and later items are left alone."""
    if item is correction or item.src >= correction.src or item.section not in _CORRECTABLE:
        return item
    text = item.text
    for old, new in correction.corrects:
        if old in text and new not in text:
            text = _sub_whole(text, old, f"{new} (was {old})")
    if text == item.text:
        return item
    # What the user corrected ranks as the correction: it outlives what was only said once.
    return item._replace(text=text, src=max(item.src, correction.src),
                         first=item.first if item.first >= 0 else item.src, rank=max(item.rank, correction.rank))


def _sub_whole(text: str, old: str, new: str) -> str:
    """``text`` with the whole value ``old`` replaced by ``new``; what ``old`` had replaced before ("old
    (was older)") goes with it: the ledger shows a value and the one it replaced, not its whole history."""
    return re.sub(rf"(?<![\w./-]){re.escape(old)}(?![\w/-]|\.\w)(?: \(was [^()]*\))*", lambda _: new, text)


# --- rendering ---------------------------------------------------------------------------------


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

    routine = {s: {i for i, item in enumerate(by_section[s]) if item.seen > ROUTINE and s in ROUTINE_SECTIONS}
               for s in by_section}

    def take(section: str, allowance: float, *, routine_too: bool = False, marked_only: bool = False) -> None:
        nonlocal spent
        used = sum(cost[section][i] for i in chosen[section]) + (header[section] if chosen[section] else 0)
        for i in order[section]:
            if i in chosen[section] or (i in routine[section] and not routine_too):
                continue
            if marked_only and not _marks(by_section[section][i]):
                break  # the order puts every marked one first
            extra = cost[section][i] + (0 if chosen[section] else header[section])
            if used + extra > allowance or spent + extra > room:
                continue
            chosen[section].add(i)
            used += extra
            spent += extra

    sections = [s for s in PRIORITY if by_section.get(s)] + [s for s in by_section if s not in PRIORITY and by_section[s]]
    if compact or budget < COMPACT_BELOW:
        take("instruction", room)
    else:  # the user's rules and corrections before any other section's share: they are the last dropped
        take("instruction", room, marked_only=True)
    for section in sections:
        take(section, math.floor(room * SHARES.get(section, 0.04)))
    for section in sections:
        take(section, room)
    for section in sections:  # routine items (the same file or error in every run) last of all
        take(section, room, routine_too=True)
    total = sum(len(by_section[s]) for s in sections)

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


def _last(order: list[int], chosen: set[int]) -> int:
    return next(i for i in reversed(order) if i in chosen)


def _preference(section: str, items: list[Item], cost: list[float] | None = None) -> list[int]:
    """Indices of ``items`` in the order they are given room (``cost``: a compact block's costs)."""
    n = len(items)
    if section == "instruction":
        if cost is not None:
            # A tiny block counts the user's rules kept: by the two marks that make a rule (a correction or
            # label, a word that forbids or requires), then the shorter first; a value carried is no mark here.
            return sorted(range(n), key=lambda i: (-_marks(items[i]), cost[i], i))
        # By the marks that make a rule (a correction or label, a word that forbids or requires), then oldest
        # first: a value carried is no mark ("Never log the secret field" is not after "port 9090 (was 8080)").
        return sorted(range(n), key=lambda i: (-_marks(items[i]), i))
    if section == "error":
        # Open errors first, then the resolved; a failure repeated in every run after the rest.
        return sorted(range(n), key=lambda i: (items[i].resolved, items[i].seen > ROUTINE, -i))
    if section in ("identifier", "file"):
        # Something seen once or twice is what the work was about; the same port or file in every
        # status output is routine: the rare first, the newest first within each.
        return sorted(range(n), key=lambda i: (items[i].seen > ROUTINE, -i))
    return list(range(n - 1, -1, -1))


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
            body = dense(item.line(False))[len(label) + 2:]
            costs.append(count(f"- {body}\n") + count(f"### {label}\n") / sharing[label])
        else:
            costs.append(count(f"- {dense(item.line(False))}\n"))
    return costs


def _grouped_lines(items: list[Item]) -> list[str]:
    """Compact instruction lines: the unlabelled (or alone under their label) first, then each label
    shared by more than one, once, with its instructions below it."""
    groups: dict[str, list[str]] = {}
    for item in items:
        groups.setdefault(_label(item.text), []).append(dense(item.line(False)))
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
_CITE = re.compile(r"^(.*?)(?: \((\d+) times\))? \[#(\d+)(?:, #(\d+))?\]$")
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
                first, last = int(m.group(3)), int(m.group(4) or m.group(3))
                body = m.group(1)
                items.append(Item(section, _key_of(section, body), body, last, first if first < last else -1,
                                  int(m.group(2) or 1), "(resolved at [#" in body))
            else:
                items.append(Item(section, _key_of(section, body), body, -1))
        elif (gone := _LEFT_OUT_LINE.match(line.strip())) and int(gone.group(1)) > 0:
            items.append(Item(LEFT_OUT, LEFT_OUT, line.strip(), -1, seen=int(gone.group(1))))
    return items


def _key_of(section: str, text: str) -> str:
    if section in ("file", "identifier"):
        return text.split(": ", 1)[0]
    if section == "instruction":  # as extraction keys it: a later one with other values replaces it
        return masked_key(_WAS.sub("", text))
    if section in ("goal", "state"):
        label = text.split(":", 1)[0]
        return _READ_KEYS.get(label, label)  # the key extraction gives the same line: a later one replaces it
    return text.lower()


_READ_KEYS = {"Latest request": "goal", "Open tasks": "tasks", "Last said": "said", "Last action": "action"}
