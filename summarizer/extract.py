"""What the ledger takes from each message: pure functions from message views to ledger items.

Structure first: files come from the names and arguments of the tools that wrote them, errors
from tool results that failed (a flagged error, a non-zero exit, a traceback from a command),
never from file contents that were only read; the user's words are kept verbatim. Text patterns
are used only where there is no structure (decisions in the assistant's prose, identifiers).
Items are copied verbatim (clipped only when very long), because exact strings are what
summaries lose first. See :mod:`.ledger` for how items merge and render.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import AnyStr

from context_compactor.messages import ToolCall, View

from .ledger import Item, masked_key, parse_items, values

MAX_ITEM_CHARS = 600
SCAN_HEAD, SCAN_TAIL = 3000, 3000  # a long text is scanned at its start and its end only
OWN_BLOCK = "[context-compactor: ledger of "
BLOCK_END = "[end of ledger]"

_TRIVIAL = {"ok", "okay", "yes", "y", "no", "continue", "go on", "thanks", "thank you", "sure", "go", "next",
            "done", "k", "great", "perfect", "cool", "nice", "go ahead", "proceed", "ok thanks", "lgtm"}
# "Sorry" that apologises for something else: "Sorry, I forgot: ...", "Sorry, one more thing", "Sorry for the
# delay", "Sorry to bother you": what follows adds, it does not correct.
_NOT_SORRY = r",?\s+(?:i\s+forgot|one\s+more|also\b|for\b|to\s+(?:bother|interrupt|ask)|about\b)"
_CORRECTION = re.compile(
    r"^\W*(sorry(?!" + _NOT_SORRY + r")|actually|correction|wait[,:!.]|oops|no[,.!]|nope|scratch that|change of plan|"
    r"my (bad|mistake))|"
    r"[.!?]\s+\W*(sorry(?!" + _NOT_SORRY + r")|actually,|correction:|oops|scratch that|my (bad|mistake))|"
    r"^.{0,24}\b(update|change|correction|revision)\s*:|"
    r"\bI meant\b|\bI mean\b|\bshould (have been|be)\b.{0,40}\bnot\b|\binstead of\b|\bnot .{1,40}, but\b|"
    r"\bmake (that|it)\b|\bmixed up\b|\bmisremembered\b|\bmisspoke\b|\bI was wrong\b|^\W*typo\b",
    re.IGNORECASE)
_LABEL = re.compile(r"^\W*[A-Z][A-Z ]{2,30}:")  # "FACT:", "SAFETY RULE:": the user marked it
# A label that itself says the words are a rule ("SAFETY RULE:", "HARD CONSTRAINT:", "IMPORTANT:") counts
# as a word that forbids or requires, whatever the words after it say ("stop and escalate").
_RULE_LABEL = re.compile(r"^\W*(?:[A-Z ]*\b)?(?:RULES?|CONSTRAINTS?|POLICY|IMPORTANT|CRITICAL|REQUIRED|"
                         r"REQUIREMENTS?|MUST|NEVER|ALWAYS|SAFETY|SECURITY|WARNING)\b[A-Z ]{0,30}:")
_FILLER_QUESTION = re.compile(r"\?\s*$")
# A decision: a marker that says so, or a "use/keep/switch" that gives a reason or an alternative
# (tool-use narration such as "I'll use grep to ..." is not a decision).
_DECISION = re.compile(
    r"\b(?:decision\W{0,3}:|decided|decide to|going with|go with|rather than|instead of|opted for|opting for|"
    r"settled on|chose|choosing|the plan is|the fix is|root cause|prefer\b.{1,80}\bover\b)",
    re.IGNORECASE)
_DECISION_WEAK = re.compile(r"\b(?:(?:we|i|let)['\u2019]?(?:ll|s|m going to| will| are going to)? (?:use|keep|switch)|"
                            r"switch(?:ed)? to)\b", re.IGNORECASE)
_DECISION_WORDS = ("decision", "decided", "decide to", "going with", "go with", "rather than", "instead of", "opted for",
                   "opting for", "settled on", "chose", "choosing", "the plan is", "the fix is", "root cause", "prefer")


def may_decide(text: str) -> bool:
    """Whether a text holds a decision marker or a "use/keep/switch": its sentences are worth reading."""
    if not text.isascii():
        return bool(_DECISION.search(text) or _DECISION_WEAK.search(text))
    low = text.lower()
    return bool((any(word in low for word in _DECISION_WORDS) and _DECISION.search(text))
                or (("use" in low or "keep" in low or "switch" in low) and _DECISION_WEAK.search(text)))


_REASON = re.compile(r"\b(?:because|since|so that|to avoid|as it|as they|over|going forward|from now on)\b",
                     re.IGNORECASE)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\"'(\[])|\n+")
_SHELL_TOOL = re.compile(r"bash|shell|exec|run|terminal|command|cmd|^sh$|process|execute", re.IGNORECASE)
_READ_TOOL = re.compile(r"read|view|open|cat|get_?file|fetch|search|grep|glob|find|list|^ls|web|browse|lookup",
                        re.IGNORECASE)
_WRITE_TOOL = re.compile(r"write|create|save|put_?file|new_?file", re.IGNORECASE)
_EDIT_TOOL = re.compile(r"edit|replace|patch|modify|update|insert|apply|change", re.IGNORECASE)
_DELETE_TOOL = re.compile(r"delete|remove|unlink|^rm$", re.IGNORECASE)
_MOVE_TOOL = re.compile(r"move|rename|^mv$", re.IGNORECASE)
_TODO_TOOL = re.compile(r"^(todo_?write|todowrite|update_?plan|todo)$", re.IGNORECASE)
_KINDS = {"shell": _SHELL_TOOL, "read": _READ_TOOL, "write": _WRITE_TOOL, "edit": _EDIT_TOOL,
          "delete": _DELETE_TOOL, "move": _MOVE_TOOL, "todo": _TODO_TOOL}
_NAMES: dict[str, frozenset[str]] = {}  # a session calls a handful of tools thousands of times


def kinds(name: str) -> frozenset[str]:
    """What a tool's name says it does ("shell", "read", "write", "edit", "delete", "move", "todo")."""
    found = _NAMES.get(name)
    if found is None:
        if len(_NAMES) > 4096:
            _NAMES.clear()
        found = _NAMES[name] = frozenset(k for k, pattern in _KINDS.items() if pattern.search(name))
    return found


_PATH_KEYS = ("path", "file_path", "filePath", "filename", "file", "target_file", "target", "relative_path")
_READ_COMMANDS = {"cat", "head", "tail", "less", "more", "grep", "rg", "ls", "find", "wc", "tree", "stat", "file",
                  "awk", "diff", "echo", "pwd", "which", "type", "du", "df", "env", "printenv", "nl"}

# A command failed: a non-zero exit, a traceback, a failed test, an error line. Cheap substring checks
# first; the regex reads only the tail, where a command's verdict is.
_FAILED_WORDS = ("Traceback (most recent call last)", "\nFAILED ", "npm ERR!", "command not found", "Segmentation fault",
                 "Permission denied", "No such file or directory", "fatal:", "panic:")
_FAILED_TAIL = re.compile(
    r"\b(?:exit(?:ed)?(?: with)? (?:code|status)|exit_code|returncode|return code)[\s:=]+[1-9]|^ERROR[: ]|"
    r"^error(?:\[\w+\])?:|\bfailed with\b|\b\d+ failed\b", re.IGNORECASE | re.MULTILINE)
_EXIT_ZERO = re.compile(r"\b(?:exit(?:ed)?(?: with)? (?:code|status)|exit_code|returncode)[\s:=]+0\b", re.IGNORECASE)
TAIL_CHARS = 1500
SHORT_OUTPUT = 300  # a command's output this short is its answer, read for every kind of id
ID_CHARS = 600  # a command's output is read for ids in its first and last this many characters


def failed_run(text: str) -> bool:
    """Whether a command's output says it failed (an explicit exit code 0 says it did not)."""
    tail = text[-TAIL_CHARS:]
    if not tail.isascii():  # case-blind matching of other letters (ı, ſ) and digits: the regex decides
        return failed_run_by_regex(text)
    low = tail.lower()
    if _at(_EXIT_ZERO_AT, tail, low, ("exit", "return")):
        return "Traceback (most recent call last)" in text or "\nFAILED " in text
    if any(map(text.__contains__, _FAILED_WORDS)):  # C-level: no generator frame per word
        return True
    return (_at(_FAILED_CODE_AT, tail, low, ("exit", "return")) or _at(_ERROR_AT, tail, low, ("error",), line=True)
            or _at(_FAILED_WITH_AT, tail, low, ("failed with",)) or _counted_failed(tail, low))


def failed_run_by_regex(text: str) -> bool:
    """:func:`failed_run` as two regexes over the tail: the definition (about 10x slower)."""
    tail = text[-TAIL_CHARS:]
    if _EXIT_ZERO.search(tail):
        return "Traceback (most recent call last)" in text or "\nFAILED " in text
    return any(word in text for word in _FAILED_WORDS) or bool(_FAILED_TAIL.search(tail))


# The verdict regexes, each tried only where its first word stands (found by str.find on the lower-cased
# tail): Python's regex engine has no fast scan for a case-blind alternation, and a tail is 1,500 chars.
_CODE = r"(?:exit(?:ed)?(?: with)? (?:code|status)|exit_code|returncode"
_EXIT_ZERO_AT = re.compile(_CODE + r")[\s:=]+0\b", re.IGNORECASE)
_FAILED_CODE_AT = re.compile(_CODE + r"|return code)[\s:=]+[1-9]", re.IGNORECASE)
_ERROR_AT = re.compile(r"error(?:[: ]|\[\w+\]:)", re.IGNORECASE)
_FAILED_WITH_AT = re.compile(r"failed with\b", re.IGNORECASE)
_FAILED_END = re.compile(r" failed\b", re.IGNORECASE)


def _word_char(c: str) -> bool:
    return c.isalnum() or c == "_"


def _at(pattern: re.Pattern[str], text: str, low: str, words: tuple[str, ...], line: bool = False) -> bool:
    """Whether ``pattern`` matches where one of ``words`` starts a word (``line``: starts a line) in ``text``."""
    for word in words:
        at = low.find(word)
        while at >= 0:
            if (at == 0 or (text[at - 1] == "\n" if line else not _word_char(text[at - 1]))) and pattern.match(text, at):
                return True
            at = low.find(word, at + 1)
    return False


def _counted_failed(text: str, low: str) -> bool:
    """``\\b\\d+ failed\\b``: a count of failures ("3 failed")."""
    at = low.find(" failed")
    while at >= 0:
        start = at
        while start > 0 and text[start - 1].isdecimal():
            start -= 1
        if start < at and (start == 0 or not _word_char(text[start - 1])) and _FAILED_END.match(text, at):
            return True
        at = low.find(" failed", at + 1)
    return False


_EXCEPTION_LINE = re.compile(r"^(?:E\s+)?((?:[\w.]+\.)?\w*(?:Error|Exception|Exit|Interrupt|Failure|Fault)\b:.*)$",
                             re.MULTILINE)
_EXIT_LINE = re.compile(r"^(?:exit(?:ed)?(?: with)? (?:code|status)|exit_code|returncode)\b", re.IGNORECASE)
_FAILED_LINE = re.compile(r"^(FAILED .+)$", re.MULTILINE)
_ERROR_WORD_LINE = re.compile(
    r"^(.*(?:\berror\b|\bError\b|\bERROR\b|fatal:|ERR!|panic:|failed|not found|denied|refused).*)$", re.MULTILINE)

# Identifiers, as whole tokens (split on spaces, quotes and brackets; never inside a word).
_URL = re.compile(r"^https?://\S+$")
_UUID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
_PREFIXED = re.compile(r"^[A-Za-z][A-Za-z0-9]{1,15}(?:[-_][A-Za-z0-9]+)*[-_](?=[0-9a-zA-Z]*\d)[0-9a-zA-Z]{5,}$")
_TICKET = re.compile(r"^[A-Z][A-Z0-9]{1,9}-\d+$")
_HOSTPORT = re.compile(r"^(?:localhost|[\w-]+(?:\.[\w-]+)*|\d{1,3}(?:\.\d{1,3}){3}):\d{2,5}$")
_SEGMENTED = re.compile(r"^[a-z][\w.-]*(?::[\w./-]+){2,}$")  # arn:aws:sqs:eu-west-1:1356...:queue, urn:...
_IP = re.compile(r"^\d{1,3}(?:\.\d{1,3}){3}$")
_VERSION = re.compile(r"^v?\d+\.\d+(?:\.\d+)+(?:[-+][\w.]+)?$")
_SHA = re.compile(r"^(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}$")
_PORT = re.compile(r"\bport\s+(\d{2,5})\b", re.IGNORECASE)
_SECRET = re.compile(r"^(?:sk|pk|rk|ghp|gho|ghs|xox[abp]|AKIA|glpat)[-_]", re.IGNORECASE)


def clip(text: str, limit: int = MAX_ITEM_CHARS) -> str:
    """One line, at most ``limit`` characters (head and tail kept, the cut marked)."""
    half = (limit - 7) // 2
    if len(text) > 4 * limit + 64:  # a long text: only its ends can show, so only they are split...
        head, tail = " ".join(text[:2 * limit].split()), " ".join(text[-2 * limit:].split())
        if len(head) > limit and len(tail) > limit:  # ...unless they are mostly spaces
            return f"{head[:half]} [...] {tail[-half:]}"
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    return f"{text[:half]} [...] {text[-half:]}"


def one_line(name: str, limit: int = 60) -> str:
    """A name as one short line: content never becomes structure (headings, list items)."""
    return clip(name.replace("#", "").replace("\n", " ").replace("\r", " "), limit)


def scanned(text: str) -> str:
    """The part of a long text worth scanning: its head and its tail (errors sit at the end)."""
    if len(text) <= SCAN_HEAD + SCAN_TAIL:
        return text
    return text[:SCAN_HEAD] + "\n" + text[-SCAN_TAIL:]


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.split(text) if s and s.strip()]


def arguments(raw: str) -> dict[str, object]:
    """A call's arguments as a dict ({} when they are not a JSON object); not to be changed by the caller:
    the last few are remembered by the string's identity, since a result is read right after its call."""
    seen = _PARSED.get(id(raw))
    if seen is not None and seen[0] is raw:
        return seen[1]
    try:
        value = json.loads(raw)
    except (ValueError, TypeError, RecursionError):
        value = {}
    parsed: dict[str, object] = value if isinstance(value, dict) else {}
    if len(_PARSED) >= 64:
        _PARSED.clear()
    _PARSED[id(raw)] = (raw, parsed)
    return parsed


_PARSED: dict[int, tuple[str, dict[str, object]]] = {}


def forget() -> None:
    """Drop what this module remembers across calls (tool kinds by name, identifier verdicts, parsed
    arguments): a benchmark of cold compaction starts from nothing."""
    _NAMES.clear()
    _KNOWN.clear()
    _PARSED.clear()


# --- per message ----------------------------------------------------------------------------------


class Extractor:
    """Extracts ledger items from the messages of a region, in order; remembers tool calls so a
    result is read with the call that asked for it."""

    def __init__(self) -> None:
        self.calls: dict[str, ToolCall] = {}
        self.last_call: ToolCall | None = None

    def remember(self, view: View) -> None:
        """Note an assistant message's calls (its items are known already)."""
        for call in view.calls:
            if call.id:
                self.calls[call.id] = call
            self.last_call = call

    def items(self, view: View, index: int, hint: tuple[ToolCall | None, bool] | None = None) -> list[Item]:
        """The items of one message; ``hint``: (call, failed) as a tool result was judged already."""
        if view.role == "user":
            return user_items(view.text, index)
        if view.role == "assistant":
            self.remember(view)
            return assistant_items(view, index)
        if view.role == "tool":
            call = self.calls.get(view.call_id or "") or (self.last_call if not view.call_id else None)
            failed = hint[1] if hint is not None and hint[0] == call else None
            return tool_items(view, call, index, failed)
        return []


def user_items(text: str, index: int) -> list[Item]:
    text = text.strip()
    items: list[Item] = []
    if text.startswith(OWN_BLOCK):
        # Our own block (a prompt compacted before): its items stay items, now citing this message,
        # whose archived text holds their earlier citations; the rest of the message is the user's.
        end = text.find(BLOCK_END)
        body = text[text.find("\n") + 1:end if end >= 0 else len(text)]
        items.extend(item._replace(src=index, first=-1) for item in read_back(body))
        text = text[end + len(BLOCK_END):].strip() if end >= 0 else ""
    if not text or text.lower().strip(".!? ") in _TRIVIAL or text.startswith("/context-stats"):
        return items
    corrects: tuple[tuple[str, str], ...] = ()
    correcting = corrects_something(text[:400])
    found = values(text) if correcting or len(text) <= MAX_ITEM_CHARS else ()
    if correcting:  # the values from where the correction starts: what the message said before it stands
        # Only the values of the correction's own sentence on: "Start redis on port 6379. Actually, also
        # flush it first." corrects nothing (it had corrected the API's port with 6379).
        corrects = tuple(("", v) for v in _correcting_values(text)[:4])
    if len(text) <= MAX_ITEM_CHARS:
        strong = is_strong(text)
        # A correction with no value ("Sorry, make that the latest stable Python.") stays a request, which the
        # ledger joins to the words it corrects (ledger._with_plain_corrections).
        standing = _standing(text, bool(corrects), found, strong)
        # A correction is keyed by its own words: "Sorry, I meant release/2014.3" and, later, "Sorry, I meant
        # hotfix/2019.9" correct two things, not one setting said twice.
        items.append(Item("instruction" if standing else "request",
                          masked_key(text) if standing and not corrects else text.lower(),
                          clip(text), index, corrects=corrects, rank=_rank(text, bool(corrects), found, strong)))
    else:
        # A long message (a pasted log, a spec): its rule sentences verbatim, and its head.
        for sentence in sentences(scanned(text)):
            if 8 <= len(sentence) <= MAX_ITEM_CHARS:
                said, strong = values(sentence), is_strong(sentence)
                if _standing(sentence, False, said, strong):
                    items.append(Item("instruction", masked_key(sentence), clip(sentence), index, corrects=corrects,
                                      rank=_rank(sentence, bool(corrects), said, strong)))
        items.append(Item("request", text[:200].lower(), clip(text, 300), index))
    items.append(Item("goal", "goal", "Latest request: " + clip(text, 400), index))
    items.extend(identifier_items(text, index, strong_only=False))
    return items


def _correcting_values(text: str) -> tuple[str, ...]:
    """The values of ``text`` from the sentence its correction is in ("Run it on port 38869.
    Correction: the port is 25768" corrects with 25768 only; "port 9090 instead of 8080" with both)."""
    m = _CORRECTION.search(text[:400])
    if not m:
        return ()
    start = max(text.rfind(end, 0, m.start() + len(end)) for end in (". ", "! ", "? ", "\n"))
    return values(text[start + 1:] if start >= 0 else text)


def _standing(text: str, correction: bool, found: Sequence[str], strong: bool) -> bool:
    """Whether a user's words are a standing instruction or fact (kept first), not a passing request:
    a rule, a correction, a label the user put on it, or a statement carrying values (``found``:
    ``values(text)``; ``strong``: whether it forbids or requires)."""
    if correction or strong or _LABEL.match(text):
        return True
    # A statement carrying a number-like value or an address ("the tenant id is 19ad...", "budget is $956",
    # "the base URL is https://prod.example.com").
    return not _FILLER_QUESTION.search(text) and len(text) <= 300 and any(_setting_value(v) for v in found)


def _setting_value(value: str) -> bool:
    """A value that makes a statement a setting: a number-like token, a URL, an e-mail (not a bare path)."""
    return "://" in value or "@" in value or any(c.isdigit() for c in value)


_STRONG = re.compile(r"\b(never|always|must|mustn'?t|do not|don'?t|make sure|forbidden|not allowed|under no|"
                     r"required|from now on|no more than|at most|at least)\b", re.IGNORECASE)
# Words every match of _STRONG / _CORRECTION holds (lower-cased): the regexes run only on a text that has
# one; a short text costs each regex ~10 us, most of a user message's reading.
_STRONG_WORDS = ("never", "always", "must", "do not", "don", "make sure", "forbidden", "not allowed", "under no",
                 "required", "from now on", "no more than", "at most", "at least")
_CORRECTION_WORDS = ("sorry", "actually", "correction", "wait", "oops", "no,", "no.", "no!", "nope", "scratch that",
                     "change", "my bad", "my mistake", "update", "revision", "mean", "should", "instead of",
                     "not ", "make that", "make it", "mixed up", "misremembered", "misspoke", "i was wrong", "typo")


def is_strong(text: str) -> bool:
    """Whether the words forbid or require (never, always, must, do not, at most, ...)."""
    if not text.isascii():
        return bool(_STRONG.search(text))
    low = text.lower()
    return any(word in low for word in _STRONG_WORDS) and bool(_STRONG.search(text))


def corrects_something(text: str) -> bool:
    """Whether the words read as a correction (sorry, actually, I meant, instead of, ...)."""
    if not text.isascii():
        return bool(_CORRECTION.search(text))
    low = text.lower()
    return any(word in low for word in _CORRECTION_WORDS) and bool(_CORRECTION.search(text))


def read_back(body: str) -> list[Item]:
    """The items of our own block's body, the user's instructions ranked again as when they were said
    (a block does not write ranks: a rule that forbids must still outrank a plain value)."""
    return [item._replace(rank=_rank(item.text, False, values(item.text), is_strong(item.text)))
            if item.section == "instruction" else item for item in parse_items(body)]


def _rank(text: str, correction: bool, found: Sequence[str], strong: bool) -> int:
    """How surely a user's words must survive, the points added up: a correction or a label the user put
    on it (2), a rule that forbids or requires (2), a value it carries (1)."""
    return (2 * bool(correction or _LABEL.match(text)) + 2 * bool(strong or _RULE_LABEL.match(text))
            + bool(any(_setting_value(v) for v in found)))


def assistant_items(view: View, index: int) -> list[Item]:
    items: list[Item] = []
    text = view.text.strip()
    if text:
        scan = scanned(text)
        for sentence in sentences(scan) if may_decide(scan) else ():
            if 16 <= len(sentence) <= 500 and (_DECISION.search(sentence) or (
                    _DECISION_WEAK.search(sentence) and _REASON.search(sentence))):
                items.append(Item("decision", sentence.lower(), clip(sentence, 400), index))
        items.extend(identifier_items(text, index, strong_only=False))
        items.append(Item("state", "said", "Last said: " + clip(text, 240), index))
    for call in view.calls:
        items.extend(call_items(call, index))
    return items


def call_items(call: ToolCall, index: int) -> list[Item]:
    name = one_line(call.name)
    args = arguments(call.arguments)
    items: list[Item] = []
    if "todo" in kinds(call.name):
        task = task_item(args, index)
        return [task] if task is not None else []
    command = shell_command(call, args)
    if command is not None:
        items.append(Item("command", command, f"`{clip(command, 300)}`", index))
        items.extend(Item("file", path, f"{path}: {action}", index) for path, action in shell_writes(command))
    else:
        items.extend(Item("file", path, f"{path}: {action}", index) for path, action in tool_writes(call.name, args))
    short = {k: v for k, v in args.items() if isinstance(v, str) and len(v) <= 300}
    for value in short.values():
        items.extend(identifier_items(value, index, strong_only=False))
    items.append(Item("state", "action", f"Last action: {name} {clip(call.arguments, 160)}", index))
    return items


def task_item(args: dict[str, object], index: int) -> Item | None:
    entries = args.get("todos") or args.get("plan") or args.get("items")
    if not isinstance(entries, list):
        return None
    open_tasks = []
    for entry in entries:
        if not isinstance(entry, dict):
            continue
        label = entry.get("content") or entry.get("step") or entry.get("title") or entry.get("task")
        status = str(entry.get("status", "")).lower()
        if isinstance(label, str) and status not in ("completed", "done", "cancelled"):
            open_tasks.append(f"{clip(label, 160)} ({status or 'open'})")
    text = "Open tasks: " + "; ".join(open_tasks) if open_tasks else "Open tasks: none (all completed)"
    return Item("goal", "tasks", text, index)


def shell_command(call: ToolCall, args: dict[str, object]) -> str | None:
    if "shell" not in kinds(call.name):
        return None
    for key in ("command", "cmd", "script", "code", "input"):
        value = args.get(key)
        if isinstance(value, str):
            return value.strip()
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return " ".join(str(v) for v in value)
    if call.arguments and not args:
        return call.arguments.strip()
    return None


def tool_writes(name: str, args: dict[str, object]) -> list[tuple[str, str]]:
    """(path, what was done) for a file tool's call, from its name and arguments."""
    patch = next((v for k, v in args.items() if k in ("patch", "diff", "input") and isinstance(v, str)), None)
    if patch is not None and ("*** " in patch or "+++ " in patch):
        return patch_writes(patch)
    path = next((v for k in _PATH_KEYS if isinstance(v := args.get(k), str) and v), None)
    if path is None or len(path) > 300 or "\n" in path:
        return []
    kind = kinds(name)
    if "read" in kind and not ("write" in kind or "edit" in kind):
        return []
    if "delete" in kind:
        return [(path, "deleted")]
    if "move" in kind:
        dest = next((v for k in ("destination", "dest", "new_path", "to", "target_path") if isinstance(v := args.get(k), str)), None)
        return [(path, f"moved to {dest}"), (dest, f"moved from {path}")] if dest else [(path, "moved")]
    if "write" in kind:
        return [(path, "written")]
    if "edit" in kind:
        return [(path, "edited")]
    return []


_PATCH_LINE = re.compile(r"^\*\*\* (Add|Update|Delete) File: (.+)$|^\+\+\+ (?:b/)?(\S+)|^--- (?:a/)?(\S+)", re.MULTILINE)


def patch_writes(patch: str) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    minus = None
    for m in _PATCH_LINE.finditer(patch):
        if m.group(1):
            found.append((m.group(2).strip(), {"Add": "created", "Update": "edited", "Delete": "deleted"}[m.group(1)]))
        elif m.group(4):
            minus = m.group(4)
        elif m.group(3):
            if m.group(3) == "/dev/null":
                if minus:
                    found.append((minus, "deleted"))
            else:
                found.append((m.group(3), "created" if minus == "/dev/null" else "edited"))
    return found


_WRITE_VERB = re.compile(r"\b(?:rm|unlink|git|mv|cp|touch|mkdir|sed|tee)\b")
_SEGMENTS = re.compile(r"&&|\|\||;|\n|\|")
_REDIRECT = re.compile(r"(?<![<>&\d=-])>>?\s*([^\s;&|<>]+)")


def shell_writes(command: str) -> list[tuple[str, str]]:
    """(path, what was done) for the files a shell command writes, moves or deletes."""
    found: list[tuple[str, str]] = []
    for m in _REDIRECT.finditer(command):
        target = m.group(1)
        if not target.startswith(("/dev/", "&")):
            found.append((target, "written"))
    body = command.split("<<", 1)[0] if "<<" in command else command
    for segment in _SEGMENTS.split(body) if _WRITE_VERB.search(body) else ():
        if not _WRITE_VERB.search(segment):
            continue  # no verb that writes: nothing for shlex (the slow part) to find
        try:
            words = shell_words(segment)
        except ValueError:
            words = segment.split()
        while words and ("=" in words[0] or words[0] in ("sudo", "env", "then", "do")):
            words = words[1:]
        if not words:
            continue
        head, rest = words[0], [w for w in words[1:] if not w.startswith("-")]
        if head == "rm" or head == "unlink" or (head == "git" and rest[:1] == ["rm"]):
            found.extend((p, "deleted") for p in (rest[1:] if head == "git" else rest))
        elif head in ("mv", "cp") and len(rest) >= 2:
            verb = "moved" if head == "mv" else "copied"
            found.append((rest[-1], f"{verb} from {' '.join(rest[:-1])}"))
            if head == "mv":
                found.extend((p, f"moved to {rest[-1]}") for p in rest[:-1])
        elif head == "touch" or head == "mkdir":
            found.extend((p, "created") for p in rest)
        elif head == "sed" and any(w.startswith("-i") for w in words[1:]) and len(rest) >= 2:
            found.append((rest[-1], "edited"))
        elif head == "tee":
            found.extend((p, "written") for p in rest)
        elif head == "git" and rest[:1] == ["mv"] and len(rest) >= 3:
            found.append((rest[-1], f"moved from {rest[1]}"))
    return [(p, a) for p, a in found if 0 < len(p) <= 300 and "$" not in p]


_WORD_STOP = re.compile(r"[ \t\r\n'\"\\#]")  # what ends a run of plain characters for shlex
_QUOTED_STOP = re.compile(r'["\\]')


def shell_words(text: str) -> list[str]:
    """``shlex.split(text, comments=True)``, the same words and the same ValueError, in linear time:
    shlex adds a word's characters to a string one at a time, which is quadratic (a command holding
    a 1M-character word took 12 s to read). Plain runs and quoted parts are taken whole here."""
    words: list[str] = []
    word: list[str] = []
    quoted = False  # a word with quotes is a word even when empty ("")
    at, end = 0, len(text)
    while at < end:
        stop = _WORD_STOP.search(text, at)
        cut = stop.start() if stop else end
        if cut > at:
            word.append(text[at:cut])
        if stop is None:
            break
        char, at = text[cut], cut + 1
        if char in " \t\r\n#":
            if word or quoted:
                words.append("".join(word))
                word, quoted = [], False
            if char == "#":  # a comment, to the end of the line
                newline = text.find("\n", at)
                at = newline + 1 if newline >= 0 else end
        elif char == "'":
            close = text.find("'", at)
            if close < 0:
                raise ValueError("No closing quotation")
            word.append(text[at:close])
            quoted, at = True, close + 1
        elif char == '"':
            quoted, at = True, _double_quoted(text, at, word)
        else:  # a backslash outside quotes keeps the next character, whatever it is
            if at >= end:
                raise ValueError("No escaped character")
            word.append(text[at])
            at += 1
    if word or quoted:
        words.append("".join(word))
    return words


def _double_quoted(text: str, at: int, word: list[str]) -> int:
    """Adds the inside of a double-quoted part starting at ``at`` to ``word``; where it ends. Inside
    double quotes a backslash escapes only a quote or a backslash (as shlex reads them)."""
    while True:
        stop = _QUOTED_STOP.search(text, at)
        if stop is None:
            raise ValueError("No closing quotation")
        cut = stop.start()
        word.append(text[at:cut])
        if text[cut] == '"':
            return cut + 1
        if cut + 1 >= len(text):
            raise ValueError("No escaped character")
        escaped = text[cut + 1]
        word.append(escaped if escaped in '"\\' else "\\" + escaped)
        at = cut + 2


def tool_items(view: View, call: ToolCall | None, index: int, failed: bool | None = None) -> list[Item]:
    name = one_line(call.name if call else (view.tool_name or "tool"))
    args = arguments(call.arguments) if call else {}
    command = shell_command(call, args) if call else None
    reads = is_read(call, command)
    text = scanned(view.text)
    if failed is None:
        failed = view.is_error or (not reads and failed_run(text))
    key = f"{name} {command if command is not None else (call.arguments if call else '')}"[:400]
    items: list[Item] = []
    if failed:
        line = error_line(text)
        if line:
            where = f" (`{clip(command, 80)}`)" if command else f" ({name})"
            items.append(Item("error", f"{key}\n{line}", clip(line, 400) + where, index))
    elif not reads:
        items.append(Item("success", key, "", index))
    if not reads:  # ids a command printed sit in its first or last lines
        head_tail = text if len(text) <= 2 * ID_CHARS else text[:ID_CHARS] + "\n" + text[-ID_CHARS:]
        # A short output is an answer (a hash, an id): read like prose; a long one for strong ids only.
        items.extend(identifier_items(head_tail, index, strong_only=len(text) > SHORT_OUTPUT)[:6])
    return items


def strong_ids(text: str, limit: int = 3) -> list[str]:
    """The strong identifiers (prefixed ids, UUIDs, URLs, host:port, tickets) at the ends of an output,
    where a command prints them: what a one-line stub of it still names. The last ``limit`` (a command's
    news is at its end), in the order printed."""
    text = scanned(text)
    head_tail = text if len(text) <= 2 * ID_CHARS else text[:ID_CHARS] + "\n" + text[-ID_CHARS:]
    found = [item.key for item in identifier_items(head_tail, 0, strong_only=True)]
    return found[-limit:] if limit > 0 else []


def is_read(call: ToolCall | None, command: str | None) -> bool:
    if call is None:
        return False
    if command is not None:
        first = command.split(None, 1)[0] if command.split() else ""
        return first in _READ_COMMANDS or command.startswith(("git show", "git diff", "git log", "sed -n"))
    kind = kinds(call.name)
    return "read" in kind and not ("write" in kind or "edit" in kind)


def error_line(text: str) -> str:
    """The line that says what failed: the exception, else the failed test, else an error line."""
    exceptions = _EXCEPTION_LINE.findall(text)
    if exceptions:
        return exceptions[-1].strip()
    failed = _FAILED_LINE.findall(text)
    if failed:
        return failed[0].strip()
    lines = [line for line in _ERROR_WORD_LINE.findall(text) if not _EXIT_LINE.match(line.strip())]
    if lines:  # the last one: a command's own verdict comes after its progress lines
        return lines[-1].strip()
    rest = [line.strip() for line in text.splitlines() if line.strip()]
    return rest[-1] if rest else ""


# --- identifiers ----------------------------------------------------------------------------------


def identifier_items(text: str, index: int, *, strong_only: bool) -> list[Item]:
    """Whole identifier tokens of ``text``, each with a few words of what it names."""
    items: list[Item] = []
    seen: set[str] = set()
    if len(text) > SCAN_HEAD + SCAN_TAIL:
        text = scanned(text)
    for token in _tokens(text):
        if token in seen or not _is_identifier(token, strong_only):
            continue
        seen.add(token)
        items.append(Item("identifier", token, _named(token, _context(text, _place(text, token), token, mark=True)),
                          index))
    if not strong_only and ("port" in text or "Port" in text or "PORT" in text):
        for m in _PORT.finditer(text):
            token = m.group(0)
            if token.lower() not in seen:
                seen.add(token.lower())
                items.append(Item("identifier", token.lower(), f"{token}: {_context(text, m.start(), token)}", index))
    return items


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
    """Where ``token`` first stands as a whole token in ``text`` (a URL may be glued to what names it)."""
    at = text.find(token)
    glued = token.startswith(("http://", "https://"))
    while at >= 0 and not ((glued or _edge(text, at - 1)) and _edge(text, _after(text, at + len(token)))):
        at = text.find(token, at + 1)
    return max(at, 0)


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
_KNOWN_MAX = 100_000
_STRONG_ID = re.compile("|".join(f"(?:{p.pattern[1:-1]})" for p in (_URL, _UUID, _TICKET, _HOSTPORT)))
_WEAK_ID = re.compile("|".join(f"(?:{p.pattern[1:-1]})" for p in (_IP, _VERSION, _SHA)))


def _judge(token: str, strong_only: bool) -> bool:
    if _SECRET.match(token):
        return False
    if _STRONG_ID.fullmatch(token):
        return True
    if _SEGMENTED.match(token) and any(c.isdigit() for c in token):
        return True
    if _PREFIXED.match(token) and not token.startswith(("test_", "tests/")) and "/" not in token:
        return any(c.isdigit() for c in token.rsplit("-", 1)[-1].rsplit("_", 1)[-1])
    if strong_only:
        return False
    return bool(_WEAK_ID.fullmatch(token))


def _named(token: str, context: str) -> str:
    """``token: what names it``, the token written once (``context`` has its place marked ``~``)."""
    rest = context.strip()
    return token if rest in ("", "~") else f"{token}: {rest}"


def _context(text: str, start: int, token: str, *, mark: bool = False) -> str:
    """The words around a token in its line: what it names (``mark``: the token itself written ``~``)."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", start)
    line = text[line_start: line_end if line_end >= 0 else len(text)]
    at = start - line_start
    before = line[max(0, at - 50): at]
    after = line[at + len(token): at + len(token) + 24]
    if at > 50:
        before = before.split(" ", 1)[-1]
    if len(after) == 24:
        after = after.rsplit(" ", 1)[0]
    return clip(f"{before}{'~' if mark else token}{after}".strip(), 120)


def extract(views: Sequence[View], start: int) -> list[Item]:
    """Every item of ``views`` (the messages ``start``, ``start + 1``, ...), in order."""
    extractor = Extractor()
    items: list[Item] = []
    for offset, view in enumerate(views):
        items.extend(extractor.items(view, start + offset))
    return items
