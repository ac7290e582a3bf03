"""Identifiers, and the cutting of text into ledger lines.

Identifiers are whole tokens (split on spaces, quotes and brackets; never inside a word) that name
something: URLs, UUIDs, prefixed ids, tickets, host:port, ARNs; with ``strong_only`` off also IPs,
versions and hashes. Each is listed with the words around it, verbatim.
"""

from __future__ import annotations

import re
from typing import AnyStr

from .ledger import Item
from .ledger.items import flat_lines
from .memos import remembered

MAX_ITEM_CHARS = 600
SCAN_HEAD, SCAN_TAIL = 3000, 3000  # a long output is scanned at its start and its end only
CLIP_MARK = " [...] "

def clip(text: str, limit: int = MAX_ITEM_CHARS) -> str:
    """One line, at most ``limit`` characters: head and tail kept, cut at word boundaries, the cut marked
    " [...] " (a word longer than the room is cut where the room ends). Lines are joined by a space; the
    spaces and tabs inside a line stay as written (a table's row, "[FAIL] sleep_current_uA     avg 23.81 uA",
    is quoted as it stands)."""
    half = (limit - len(CLIP_MARK)) // 2
    if len(text) > 4 * limit + 64:  # a long text: only its ends can show, so only they are split...
        head, tail = flat_lines(text[:2 * limit]), flat_lines(text[-2 * limit:])
        if len(head) > limit and len(tail) > limit:  # ...unless they are mostly spaces
            return f"{_head(head, half)}{CLIP_MARK}{_tail(tail, half)}"
    text = flat_lines(text)
    if len(text) <= limit:
        return text
    return f"{_head(text, half)}{CLIP_MARK}{_tail(text, half)}"


def _head(text: str, room: int) -> str:
    cut = text[:room + 1]
    space = cut.rfind(" ")
    return cut[:space].rstrip() if space > room // 2 else text[:room]


def _tail(text: str, room: int) -> str:
    cut = text[-room - 1:]
    space = cut.find(" ")
    return cut[space + 1:].lstrip() if 0 <= space < room // 2 else text[-room:]


def one_line(name: str, limit: int = 60) -> str:
    """A name as one short line: content never becomes structure (headings, list items)."""
    return clip(name.replace("#", "").replace("\n", " ").replace("\r", " "), limit)


def scanned(text: str) -> str:
    """The part of a long text worth scanning: its head and its tail (errors sit at the end)."""
    return ends(text, SCAN_HEAD, SCAN_TAIL)


def ends(text: str, head: int, tail: int) -> str:
    """``text`` when it is at most ``head + tail`` characters; else about its first ``head`` and last ``tail``
    characters, in whole lines (a line read from either end starts and ends where the text's does, never
    inside a word: "oring - 5 Jul" was the end of "Monitoring - 5 Jul" once)."""
    if len(text) <= head + tail:
        return text
    return head_of(text, head) + "\n" + tail_of(text, tail)


def head_of(text: str, size: int) -> str:
    """About the first ``size`` characters of ``text``, cut after a whole line (else at a space) in the
    cut's second half; exactly ``size`` when neither is there (one long word)."""
    if len(text) <= size:
        return text
    cut = text.rfind("\n", size // 2, size)
    if cut < 0:
        cut = text.rfind(" ", size // 2, size)
    return text[:cut] if cut >= 0 else text[:size]


def tail_of(text: str, size: int) -> str:
    """About the last ``size`` characters of ``text``, from the start of a whole line (else after a space)
    in the cut's first half; exactly ``size`` when neither is there."""
    if len(text) <= size:
        return text
    start = len(text) - size
    cut = text.find("\n", start, start + size // 2)
    if cut < 0:
        cut = text.find(" ", start, start + size // 2)
    return text[cut + 1:] if cut >= 0 else text[start:]


# Identifiers, as whole tokens (split on spaces, quotes and brackets; never inside a word).
_URL = re.compile(r"^https?://\S+$")
_UUID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
_PREFIXED = re.compile(r"^[A-Za-z][A-Za-z0-9]{1,15}(?:[-_][A-Za-z0-9]+)*[-_](?=[0-9a-zA-Z]*\d)(?:[0-9a-zA-Z]{5,}|"
                       r"(?=[0-9A-Z]*[A-Z])[0-9A-Z]{4})$")
_ISSUE_NUMBER = re.compile(r"^#\d{2,7}$")  # a pull request or an issue, named in prose
_TICKET = re.compile(r"^[A-Z][A-Z0-9]{1,9}-\d+$")
# A host and port: a host has a letter and is no file ("app.py:121" is a line, "12:30" a time).
_HOSTPORT = re.compile(r"^(?:localhost|(?=[\w.-]*[a-zA-Z])(?![\w.-]*\.(?:py|go|rs|ts|tsx|js|jsx|java|kt|rb|c|h|cc|cpp|hpp|cs|"
                       r"php|swift|scala|sql|sh|yaml|yml|json|toml|md|txt|log|ipynb|html|css|vue|ex|exs|erl|clj|lua|r)"
                       r":)[\w-]+(?:\.[\w-]+)*|\d{1,3}(?:\.\d{1,3}){3}):\d{2,5}$")
_SEGMENTED = re.compile(r"^[a-z][\w.-]*(?::[\w./-]+){2,}$")  # arn:aws:sqs:eu-west-1:1356...:queue, urn:...
_IP = re.compile(r"^\d{1,3}(?:\.\d{1,3}){3}$")
_VERSION = re.compile(r"^v?\d+\.\d+(?:\.\d+)+(?:[-+][\w.]+)?$")
_SHA = re.compile(r"^(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}$")
_PORT = re.compile(r"\bport\s+(\d{2,5})\b", re.IGNORECASE)
_SECRET = re.compile(r"^(?:sk|pk|rk|ghp|gho|ghs|xox[abp]|AKIA|glpat)[-_]", re.IGNORECASE)

def identifier_items(text: str, index: int, *, strong_only: bool, weak: bool = False) -> list[Item]:
    """Whole identifier tokens of ``text``, each with the words around it that name it (verbatim, cut at
    word boundaries; none from a JSON or table line, whose punctuation names nothing). ``weak``: found
    only in a tool's output or pasted text (kept when prose or a later call names it too)."""
    return [Item("identifier", token, context, index, weak=weak) for token, context in _identifiers(text, strong_only)]


@remembered(2_048)  # the agent's words and a call's arguments are said again
def _identifiers(text: str, strong_only: bool) -> tuple[tuple[str, str], ...]:
    """(identifier, the words around it) for each identifier of ``text``, in order (see identifier_items)."""
    found: list[tuple[str, str]] = []
    seen: set[str] = set()
    if len(text) > SCAN_HEAD + SCAN_TAIL:
        text = scanned(text)
    for token in _tokens(text):
        if token in seen or not _is_identifier(token, strong_only):
            continue
        seen.add(token)
        at = _place(text, token)
        found.append((token, _context(text, at, token) if at >= 0 else token))
    if not strong_only and ("port" in text or "Port" in text or "PORT" in text):
        for m in _PORT.finditer(text):
            token = m.group(0)
            if token.lower() not in seen:
                seen.add(token.lower())
                found.append((token.lower(), _context(text, m.start(), token)))
    return tuple(found)


# Only tokens with a digit, or URLs, can be identifiers. Tokens are split off in C (separators made
# spaces, then str.split), which is several times faster than a regex scan of the text; only the few
# tokens that are identifiers are looked up again for their place.
_SEP = r"\s\"'`<>()\[\]{},;"
_TO_SPACE = str.maketrans({c: " " for c in "\"'`<>()[]{},;\t\n\r\f\v\x1c\x1d\x1e\x1f\x85\xa0"})
_DIGIT = re.compile(r"\d")


def _tokens(text: str) -> list[str]:
    if text.isascii():  # almost every text: bytes translate and split several times faster than str's
        raw = text.encode().translate(_BYTES_TO_SPACE).split()
        out = [token.decode() for token in _candidates(raw, _BYTE_DIGIT, (b"http://", b"https://"), b".,:;!?-")]
    else:
        out = _candidates(text.translate(_TO_SPACE).split(), _DIGIT, ("http://", "https://"), ".,:;!?-")
    if "://" in text:  # a URL glued to what names it (API_URL=https://..., href=https://...)
        out += [url for url in _GLUED_URL.findall(text) if 5 <= len(url) <= 200]
    return out


_GLUED_URL = re.compile(r"(?<=[^\s\"'`<>()\[\]{},;])https?://[^\s\"'`<>()\[\]{},;]*[^\s\"'`<>()\[\]{},;.:!?-]")


def _candidates(raws: list[AnyStr], digit: re.Pattern[AnyStr], urls: tuple[AnyStr, AnyStr],
                trailing: AnyStr) -> list[AnyStr]:
    """The words that may be identifiers (a digit, or a URL), less trailing punctuation: ">" ends a word,
    so a port mapping (0.0.0.0:37200->12111/tcp) gives its host side, less the "-"."""
    out = []
    for raw in [r for r in raws if len(r) >= 5 and not r.isalpha()]:
        if digit.search(raw) or raw.startswith(urls):
            token = raw.rstrip(trailing)
            if 5 <= len(token) <= 200:
                out.append(token)
    return out


# The same separators as bytes: bytes.split() leaves out the four ASCII separators str.split() takes
# as spaces, so the table adds them.
_BYTES_TO_SPACE = bytes.maketrans(b"\"'`<>()[]{},;\x1c\x1d\x1e\x1f", b" " * 17)
_BYTE_DIGIT = re.compile(rb"\d")


def _place(text: str, token: str) -> int:
    """Where ``token`` first stands as a whole token in ``text`` (a URL may be glued to what names it), or -1:
    its context is then the token alone, never another place's words."""
    at = text.find(token)
    glued = token.startswith(("http://", "https://"))
    while at >= 0 and not ((glued or _edge(text, at - 1)) and (
            _edge(text, at + len(token)) or _edge(text, _after(text, at + len(token))))):
        # (a separator right after it ends it too: "LS-19364;Valentina Marino;CC-2743;..." in a CSV export)
        at = text.find(token, at + 1)
    return at  # (-1: nowhere as a whole token)


def _after(text: str, end: int) -> int:
    """Past the punctuation a token was trimmed of (as _tokens trims it)."""
    while end < len(text) and text[end] in ".,:;!?-":
        end += 1
    return end


def _edge(text: str, at: int) -> bool:
    """Whether position ``at`` is outside the text or a separator: a token starts or ends next to it."""
    return at < 0 or at >= len(text) or text[at].isspace() or text[at] in _SEPARATORS or text[at] == ">"


_SEPARATORS = frozenset("\"'`<>()[]{},;")


def _is_identifier(token: str, strong_only: bool) -> bool:
    known = _KNOWN.get((token, strong_only))
    if known is None:
        if len(_KNOWN) >= _KNOWN_MAX:
            _KNOWN.clear()
        known = _KNOWN[(token, strong_only)] = _judge(token, strong_only)
    return known


# Sessions repeat their tokens (the same ports, versions and paths in run after run): each is judged once.
_KNOWN: dict[tuple[str, bool], bool] = {}
_KNOWN_MAX = 10_000  # a 10,000-message session judges about 1,500 tokens: a bound for a gateway's weeks
_STRONG_ID = re.compile("|".join(f"(?:{p.pattern[1:-1]})" for p in (_URL, _UUID, _TICKET, _HOSTPORT)))
_WEAK_ID = re.compile("|".join(f"(?:{p.pattern[1:-1]})" for p in (_IP, _VERSION, _SHA)))


# A standard's name is no ticket (UTF-8, ISO-8601, SHA-256).
_STANDARD = re.compile(r"^(?:UTF|UCS|ISO|AES|SHA|MD|RSA|DES|TLS|SSL|HTTP|IPV|PBKDF|ECDSA|ED|CRC|IEEE|ECMA|EN|DIN|BS|IEC|"
                       r"RFC|CVE|X)-\d+$", re.IGNORECASE)


# A date or a time stamp ("2025-04-10T09:00", "2024-06-05"): when something is, never a name of something.
_DATE_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$")


def _judge(token: str, strong_only: bool) -> bool:
    if _SECRET.match(token) or _STANDARD.match(token) or _DATE_TIME.match(token):
        return False
    if _STRONG_ID.fullmatch(token):
        return True
    if _SEGMENTED.match(token) and any(c.isdigit() for c in token):
        return True
    if _PREFIXED.match(token) and not token.startswith(("test_", "tests/")) and "/" not in token:
        return any(c.isdigit() for c in token.rsplit("-", 1)[-1].rsplit("_", 1)[-1])
    if strong_only:
        return False
    return bool(_WEAK_ID.fullmatch(token) or _ISSUE_NUMBER.match(token))


_JSONISH = re.compile(r"[\"'][\w.-]*[\"']\s*[:=]|[{}\[\]|]|\t|\S {3,}\S")


def _context(text: str, start: int, token: str) -> str:
    """The words around a token in its line, verbatim, cut at word boundaries with a visible mark; the
    token alone when the line is JSON, a table or aligned columns."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", start)
    line = text[line_start: line_end if line_end >= 0 else len(text)]
    if _JSONISH.search(line):
        return token
    at = start - line_start
    end = at + len(token)
    first = max(0, at - 60)
    cut = max(line.rfind(". ", first, at), line.rfind("; ", first, at), line.rfind("! ", first, at), line.rfind("? ", first, at))
    if cut >= 0:  # from where its sentence starts
        first = cut + 2
    mark = min(at, len(line) - len(line.lstrip(" \t-*\u2022")))  # a list item's mark is no word of it
    if cut < 0 and first <= mark:  # from the line's start ("- the refund on #463394 is ...": its words)
        first = mark
    before, after = line[first:at], line[end:end + 40]
    if first > mark and cut < 0:
        before = "… " + before.split(" ", 1)[-1] if " " in before else ""
    if end + 40 < len(line):
        after = after.rsplit(" ", 1)[0] + " …" if " " in after else ""
    return flat_lines(f"{before}{token}{after}")


# What prose names: a setting's key, an id, a file's line ("app.py:121").
# (and a name in camel case, a setting's key as code writes it: "The tax-ids config sets `taxIdLockTimeoutMs` to 7500")
_MENTION = re.compile(r"(?<![\w./-])[\w./-]+\.\w+:\d+|(?<![\w.-])(?=[\w.-]*[_\d.])(?=[\w.-]*[A-Za-z])[A-Za-z_][\w.-]{3,60}(?<![.-])|"
                      r"(?<![\w.-])(?=[A-Za-z]{8,60}(?![\w.-]))[a-z]+(?:[A-Z][a-z0-9]+)+(?![\w.-])")


def mention_items(text: str, index: int) -> list[Item]:
    """The names prose uses (a setting's key, an id), as one item whose key lists them: what they name is
    kept where a tool found it."""
    names = _mentions(text)
    return [Item("mention", names, "", index)] if names else []


@remembered(1_024)
def _mentions(text: str) -> str:
    """The key of ``text``'s mention item (see mention_items), or ""."""
    found = sorted({m.group(0) for m in _MENTION.finditer(text[:20_000])})[:40]
    if not found:
        return ""
    names = {*found, *(name.lower() for name in found)}
    return " ".join(sorted(names))
