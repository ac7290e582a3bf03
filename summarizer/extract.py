"""What the ledger takes from each message: pure functions from message views to ledger items.

Structure first: files come from the names and arguments of the tools that wrote them, errors
from tool results that failed (a flagged error, a non-zero exit, a traceback from a command),
never from file contents that were only read; the user's words are kept verbatim. Text patterns
are used only where there is no structure (decisions in the assistant's prose, identifiers).
Items are copied verbatim (clipped only when very long), because exact strings are what
summaries lose first. See :mod:`.ledger` for how items merge and render.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Sequence

from context_compactor.messages import ToolCall, View

from . import identifiers as ids
from .markers import BLOCK_END, OWN_BLOCK
from .identifiers import MAX_ITEM_CHARS, clip, identifier_items, one_line, scanned
from .ledger import (APPROVAL, CORRECTION_RANK, DECIDED_RANK, RULE_RANK, SETTING_RANK, STRONG_RULE_RANK, Item, masked_key, parse_items, prose,
                     values)

__all__ = ["BLOCK_END", "OWN_BLOCK", "Extractor", "arguments", "clip", "error_line", "extract", "failed_run", "gravest_line",
           "identifier_items", "is_read", "one_line", "read_back", "scanned", "shell_command", "strong_ids"]

_CORRECTION = prose._CORRECTION  # the recall tool reads corrections as the ledger does
# A short reply that accepts what the agent just proposed (not an item: merge marks the proposal decided).
_APPROVAL = re.compile(r"^\W*(?:ok(?:ay)?|agreed|yes|yep|yeah|sure|fine|perfect|great|lgtm|sounds good|sounds right|"
                       r"makes sense|go (?:ahead|with (?:it|that))|do it|do that|let'?s do (?:it|that)|works for me|"
                       r"ship it|approved|d'accord|oui|einverstanden|ja|vale|de acuerdo|s[ií]|\U0001f44d)"
                       r"(?:[\s,.!]+(?:thanks|thx|ty|go ahead|do it|let'?s go|please|agreed|sounds good))*\W*$", re.IGNORECASE)
# An assent that points back at what was proposed, in a short reply of the user's own ("yep, let's go with
# that", "Going with that.", "OK, verstanden — I'll follow that order"): it names nothing of its own, so it
# decides the proposal and is no decision of its own.
_ASSENT_BACK = re.compile(r"^\W*(?:[\w']+\W+){0,3}?(?:(?:let'?s|we'?ll|i'?ll|we will|i will|we can|then)\s+)?"
                          r"(?:go(?:ing)? (?:with|for|ahead with)|do|follow|take|pick|use|run with|stick with|approve|"
                          r"agree with|accept)\s+(?:that|it|this|those|these|yours|your (?:\w+ ){0,2}(?:plan|suggestion|"
                          r"proposal|order|approach|idea|option|recommendation)|that (?:\w+ )?(?:plan|order|approach|"
                          r"one|option|idea))\b\W*$",
                          re.IGNORECASE)
ASSENT_CHARS = 80


def is_approval(text: str) -> bool:
    """Whether a user's message only accepts what was just proposed ("ok", "agreed", "yep, let's go with
    that"): short, no value of its own, and pointing back."""
    return bool(_APPROVAL.match(text)) or (len(text) <= ASSENT_CHARS and not any(c.isdigit() for c in text)
                                           and bool(_ASSENT_BACK.match(text)))


_TRIVIAL = {"ok", "okay", "yes", "y", "no", "continue", "go on", "thanks", "thank you", "sure", "go", "next",
            "done", "k", "great", "perfect", "cool", "nice", "go ahead", "proceed", "ok thanks", "lgtm"}

# A decision: a marker that says so, or a "use/keep/switch" that gives a reason or an alternative
# (tool-use narration such as "I'll use grep to ..." is not a decision).
_DECISION = re.compile(
    r"\b(?:decision\W{0,3}:|decided|decide to|going with|go with|opted for|opting for|settled on|we agreed|"
    r"chose|choosing|the plan is|the fix is|root cause|changing my mind|my vote is|prefer\b.{1,80}\bover\b)",
    re.IGNORECASE)
# A choice said in the first person ("we'll guard the map with a mutex", "I'd cache the settings", "my vote is
# to ...", "we should give the job its own pool"), a decision when it gives a reason or an alternative; not
# when what follows is the agent's next step (read, look, check, run, ...).
_DECISION_WEAK = re.compile(
    r"(?:\b(?:we|i|let)(?:['\u2019](?:ll|s|d|m going to|re going to)\b| will| would| should| are going to)|"
    r"\bmy vote is to|\bwe should|\bof the (?:two|three) options|\bthe approach is to|\bswitch(?:ed)? to|"
    r"\b(?:ok,? |okay,? |alright,? )?so we (?=\w+ )|\bmy (?:suggestion|recommendation)\b|\bi (?:suggest|recommend)\b)"
    r"(?!\s+(?:need|have|want|be|read|look|check|open|run|grep|search|take|start|reproduce|inspect|investigate|"
    r"try|see|find|dig|trace|profile|also|keep (?:going|looking)|get|go ahead|continue|let you know|update you|"
    r"come back|circle back|look into|follow up|take a look|double-check|report back)\b)",
    re.IGNORECASE)
_DECISION_WORDS = ("decision", "decided", "decide to", "going with", "go with", "opted for", "we agreed",
                   "opting for", "settled on", "chose", "choosing", "the plan is", "the fix is", "root cause", "prefer",
                   "changing my mind", "my vote is")
_DECISION_WEAK_WORDS = ("we", "i'", "i ", "let", "my vote", "switch", "options", "approach", "my suggestion",
                        "my recommendation", "suggest", "recommend")


def may_decide(text: str) -> bool:
    """Whether a text holds a decision marker or a "use/keep/switch": its sentences are worth reading."""
    if not text.isascii():
        return bool(_DECISION.search(text) or _DECISION_WEAK.search(text))
    low = text.lower()
    return bool((any(word in low for word in _DECISION_WORDS) and _DECISION.search(text))
                or (any(word in low for word in _DECISION_WEAK_WORDS) and _DECISION_WEAK.search(text)))


_REVISION = re.compile(r"\b(?:scrap (?:that|this)|scratch (?:that|this)|changing my mind|changed my mind|on second thought|"
                       r"on reflection|thinking about it (?:more|again)|come to think of it|"
                       r"(?:scrap|scratch|forget|ignore|drop|disregard) what (?:we|I) (?:said|agreed|decided|discussed)|"
                       r"(?:scrap|scratch|forget|drop) (?:the|our|my) (?:earlier|previous|old|first) (?:plan|idea|approach|decision)|"
                       r"after all|let'?s revisit|revisiting|instead,|new plan|change of plan|actually,? let'?s)\b",
                       re.IGNORECASE)


_ASKS = re.compile(r"^\W*(?:remind me|tell me|what|which|who|when|where|why|how|do|does|did|can|could|should we|is|are)\b",
                   re.IGNORECASE)


def is_decision(sentence: str) -> bool:
    """A choice said with its reason or its alternative, or a marker that says so; never a question or a
    request to recall one ("Remind me what we decided.")."""
    if _ASKS.match(sentence) or sentence.rstrip().endswith("?"):
        return False
    return 16 <= len(sentence) <= 500 and bool(_DECISION.search(sentence) or (
        _DECISION_WEAK.search(sentence) and (_REASON.search(sentence) or _REVISION.search(sentence))))


def decision_item(sentence: str, index: int) -> Item:
    """A decision; one that revises an earlier choice ("scrap that idea; let's ...") supersedes it. One a
    marker says is a decision ("Decision:", "we'll go with", "decided") ranks above one read from a
    first-person choice and its reason."""
    return Item("decision", sentence.lower(), clip(sentence, 400), index, update=bool(_REVISION.search(sentence)),
                rank=2 if _DECISION.search(sentence) else 1)


_REASON = re.compile(r"\b(?:because|since|so that|so we|to avoid|as it|as they|as there|over|going forward|from now on|"
                     r"instead of|rather than|otherwise|there are only|it'?s only|which means|given (?:that|the)|"
                     r"shout if you disagree|unless you object|any objections)\b|\s[\u2014\u2013-]\s|: \w",
                     re.IGNORECASE)
_REASON_NEXT = re.compile(r"^\W*(?:mostly |mainly |partly |that'?s |this is |it'?s )?(?:because|since|the reason|shout if|"
                          r"unless you object)\b", re.IGNORECASE)
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
                 "Permission denied", "No such file or directory", "fatal:", "panic:", "--- FAIL:", "panicked at",
                 "DATA RACE", "\nFAIL\t", "error[E", "Tests failed", "test result: FAILED")
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
# What failed, said by other languages and tools: a Go panic, a Rust panic or compile error, TypeScript, ESLint,
# a Java exception; then a runner's verdict on one test (Go, Jest/Vitest, GoogleTest, TAP).
_SPECIFIC_ERROR = re.compile(r"^\s*(?:panic: .+|thread '[^'\n]+' panicked at .+|error\[E\d+\]: .+|.*\bTS\d{4}: .+|"
                             r"(?:Exception in thread|Caused by:) .+|\S+\.\w+:\d+:\d+: .+|.*\d+:\d+ +error +.+|"
                             r"WARNING: DATA RACE|fatal error: .+|ERROR: .+)$", re.MULTILINE)
_RUNNER_FAILURE = re.compile(r"^\s*(?:.*\s)?(?:--- FAIL: .+|FAIL +\S+.*|(?:✗|×|✕|✖|●) .+|\[  FAILED  \] .+|not ok \d+ .+)$",
                             re.MULTILINE)
# The same, each part tried only where a text holds what it needs (str.find; exact: a part cannot match
# without it), since a line-anchored alternation with ".*" parts reads every line of an output several times.
_SPECIFIC_PARTS = (
    (("panic: ", "panicked at ", "error[E", "Exception in thread ", "Caused by: ", "WARNING: DATA RACE", "fatal error: ",
      "ERROR: "),
     re.compile(r"^\s*(?:panic: .+|thread '[^'\n]+' panicked at .+|error\[E\d+\]: .+|(?:Exception in thread|Caused by:) .+|"
                r"WARNING: DATA RACE|fatal error: .+|ERROR: .+)$", re.MULTILINE)),
    (("TS",), re.compile(r"^\s*.*\bTS\d{4}: .+$", re.MULTILINE)),
    ((" error ",), re.compile(r"^\s*.*\d+:\d+ +error +.+$", re.MULTILINE)),
)
_COLUMNS = re.compile(r":\d+:\d+: ")  # "main.go:12:5: undefined: x"
_COLUMNS_LINE = re.compile(r"^\s*\S+\.\w+:\d+:\d+: .+$", re.MULTILINE)
_RUNNER_NEEDS = ("FAIL", "✗", "×", "✕", "✖", "●", "not ok ")
_ERROR_WORDS = ("error", "Error", "ERROR", "fatal:", "ERR!", "panic:", "failed", "not found", "denied", "refused")


_ERROR_WORD = re.compile(r"\berror\b|\bError\b|\bERROR\b|fatal:|ERR!|panic:|failed|not found|denied|refused")


def _error_word_lines(text: str) -> list[str]:
    """:data:`_ERROR_WORD_LINE`'s lines of ``text``, in order: the lines that hold one of its words (found
    by str.find, then read by the word regex one line at a time)."""
    starts: set[int] = set()
    for word in _ERROR_WORDS:
        at = text.find(word)
        while at >= 0:
            start = text.rfind("\n", 0, at) + 1
            starts.add(start)
            end = text.find("\n", at)
            if end < 0:
                break
            at = text.find(word, end)
    lines = []
    for start in sorted(starts):
        end = text.find("\n", start)
        line = text[start:end if end >= 0 else len(text)]
        if _ERROR_WORD.search(line):
            lines.append(line)
    return lines


def _specific_error(text: str) -> re.Match[str] | None:
    """:data:`_SPECIFIC_ERROR`'s first match in ``text``, its parts tried only where they can match."""
    found: re.Match[str] | None = None
    for needs, pattern in _SPECIFIC_PARTS:
        if any(map(text.__contains__, needs)):
            m = pattern.search(text)
            if m is not None and (found is None or m.start() < found.start()):
                found = m
    if _COLUMNS.search(text):
        m = _COLUMNS_LINE.search(text)
        if m is not None and (found is None or m.start() < found.start()):
            found = m
    return found


WIDE = 32_000  # a failed output is read this far from each end for what failed (errors sit mid-output too)
_ERROR_WORD_LINE = re.compile(
    r"^(.*(?:\berror\b|\bError\b|\bERROR\b|fatal:|ERR!|panic:|failed|not found|denied|refused).*)$", re.MULTILINE)

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
    arguments, the cuts of long pasted texts, rule verdicts): a benchmark of cold compaction starts
    from nothing."""
    _NAMES.clear()
    ids._KNOWN.clear()
    _PARSED.clear()
    prose.forget()


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
    """The items of a user's message. Our own block (a prompt compacted before) is read back by its
    structure; the rest is cut into the user's prose and what they pasted (:func:`.ledger.prose.split`).
    Only the prose gives instructions, corrections and requests, sentence by sentence, verbatim; a pasted
    document is read whole for its rules, kept as the document's; pasted logs give errors marked as pasted."""
    text = text.strip()
    items: list[Item] = []
    if text.startswith(OWN_BLOCK):
        # Its items stay items, now citing this message, whose archived text holds their earlier citations.
        body, text = own_block(text)
        items.extend(item._replace(src=index, first=-1, supersedes=()) for item in read_back(body))
    if is_approval(text):  # "ok", "agreed", "sounds good": what the agent proposed just before is decided
        items.append(Item(APPROVAL, APPROVAL, "", index))
        if not _APPROVAL.match(text):
            return items  # its words point back and say nothing more
    if not text or text.lower().strip(".!? ") in _TRIVIAL or text.startswith("/context-stats"):
        return items
    segments = prose.split(neutral(text))
    spoken = [s.text.strip() for s in segments if s.kind == "prose" and s.text.strip()]
    said = "\n".join(spoken)
    asked: list[str] = []
    for part in spoken:  # each stretch of the user's own words on its own: what was pasted between is not theirs
        items.extend(_prose_items(part, index, asked))
    if said:  # ids the user's instructions carry are in their words (and leave with them when corrected)
        ruled = "\n".join(i.text for i in items if i.section == "instruction")
        items.extend(i for i in identifier_items(said, index, strong_only=False) if i.key not in ruled)
        items.extend(mention_items(said, index))
    for segment in segments:
        if segment.kind == "document":
            items.extend(_document_rules(segment.text, index))
        if segment.kind == "pasted":
            items.extend(_pasted_items(segment.text, index))
        elif segment.kind == "document":
            items.extend(identifier_items(segment.text, index, strong_only=True, weak=True)[:6])
    plan = plan_of(said) if said else ""
    if plan:  # a plan the user wrote out ("plan for the cleanup: watch ...; after that ...; then ...")
        items.append(Item("goal", f"plan {index}", "Plan: " + clip(plan, 400), index))
    if asked:
        items.append(Item("request", " ".join(asked)[:200].lower(), clip(_adjacent(asked, spoken), 240), index))
    # The user's words, what they pasted between them shown as a cut.
    items.append(Item("goal", "goal", "Latest request: " + clip(" [...] ".join(spoken) or text, 400), index))
    return items


def _adjacent(sentences: list[str], spoken: list[str]) -> str:
    """The first sentence and those that follow it in one stretch of the user's words, up to the first
    that does not."""
    flats = [" ".join(part.split()) for part in spoken]
    out = sentences[0]
    for sentence in sentences[1:]:
        if not any(f"{out} {sentence}" in flat for flat in flats):
            break
        out = f"{out} {sentence}"
    return out


def _prose_items(said: str, index: int, asked: list[str]) -> list[Item]:
    """Instructions and corrections of the user's own words, a sentence each; what was only asked goes to
    ``asked``. A correction without a value of its own takes the sentence after it ("Sorry, wrong port.
    Use 7443."), which says what it corrects to."""
    items: list[Item] = []
    parts = [s for s in prose.sentences(said) if s.lower().strip(".!? ") not in _TRIVIAL]
    skip = False
    open_item = -1  # the instruction a plain statement after it goes on ("Only Python 3.11. No network calls.")
    joined = 0
    for n, sentence in enumerate(parts):
        if skip:
            skip = False
            continue
        found = values(sentence)
        kind = prose.kind_of(sentence, found)
        if sentence.endswith(":") and kind in ("rule", "setting") and not prose.is_strong_rule(sentence):
            kind = "request"  # "fyi, here's what happened:" introduces what follows (pasted), it rules nothing
        if kind == "setting" and is_decision(sentence):
            kind = "request"  # a choice the user makes ("ok, decided: we'll cordon ip-..."): a decision, below
        if kind == "correction":
            # A correction without a value says what it corrects to in the sentence after it ("Sorry, wrong
            # port. Use 7443.", "Scratch that. Instead, let's ship on Friday.").
            if not found and n + 1 < len(parts) and len(parts[n + 1]) <= 240 and not prose.is_correction(parts[n + 1]):
                sentence, skip = f"{sentence} {parts[n + 1]}", True
                found = values(sentence)
            items.append(Item("instruction", sentence.lower(), clip(sentence), index, corrects=found,
                              rank=CORRECTION_RANK))
            open_item = -1
        elif kind in ("rule", "setting"):
            rank = (STRONG_RULE_RANK if prose.is_strong_rule(sentence) else RULE_RANK + bool(found)) if kind == "rule" \
                else SETTING_RANK
            items.append(Item("instruction", masked_key(sentence), clip(sentence), index, rank=rank,
                              corrects=found, update=prose.is_update(sentence)))
            open_item, joined = len(items) - 1, 0
        elif open_item >= 0 and not prose.is_request(sentence) and len(sentence) <= 200 and not sentence.endswith(":"):
            # (a sentence that ends on ":" introduces what the user pasted next: "logs from export-svc earlier:")
            last = items[open_item]  # the words that go on from a rule are the rule's (adjacent, verbatim)
            text = f"{last.text} {sentence}"
            items[open_item] = last._replace(key=masked_key(text), text=clip(text))
            joined += 1
            if joined >= 2:
                open_item = -1
        elif is_decision(sentence) or (_REVISION.search(sentence) and not prose.is_request(sentence)):
            # The user's own choice, or a choice taken back for another ("scratch what we said before,
            # keep March in"): it revises the decision it is about. A revision that says only that
            # ("scrap what we said earlier, Luis vetoed it.") takes the sentence after it, the new choice.
            if not is_decision(sentence) and n + 1 < len(parts) and len(parts[n + 1]) <= 240 and not prose.is_correction(parts[n + 1]):
                sentence, skip = f"{sentence} {parts[n + 1]}", True
            items.append(decision_item(sentence, index)._replace(rank=DECIDED_RANK))
            open_item = -1
        else:  # asked, or too short to be anything ("mem ok?"): a rule goes on only in the sentence right after it
            if len(sentence) >= 8:
                asked.append(sentence)
            open_item = -1
    return items


def _document_rules(text: str, index: int) -> list[Item]:
    """The rules of a document the user pasted (a spec, a runbook, a style guide), read whole, but its
    code blocks."""
    items = []
    fence = False
    lines = text.splitlines()
    if lines and lines[0].lstrip().startswith(("```", "~~~")):
        # A document pasted inside one fence (a runbook in ```...```): the fence is its frame, not a code
        # block of it; its inner fences are still code.
        lines = lines[1:-1] if len(lines) > 1 and lines[-1].lstrip().startswith(("```", "~~~")) else lines[1:]
    for line in lines:
        if line.lstrip().startswith(("```", "~~~")):
            fence = not fence
            continue
        if fence or prose.line_is_pasted(line):
            continue
        for sentence in prose.sentences(line.strip(" -*#>\t")):
            if 12 <= len(sentence) <= MAX_ITEM_CHARS and prose.is_rule(sentence):
                items.append(Item("docrule", masked_key(sentence), clip(sentence, 300), index, rank=RULE_RANK))
    return items[:40]


def _pasted_items(text: str, index: int) -> list[Item]:
    """What pasted material is evidence of: the error it shows, marked as pasted, and its strong ids (kept
    when prose or a later call names them too)."""
    items = []
    if failed_run(text) or _EXCEPTION_LINE.search(text) or "FAIL" in text:
        line = error_line(text, named_only=True)
        if line:
            items.append(Item("error", f"pasted\n{line}", clip(line, 400) + " (pasted)", index))
    items.extend(identifier_items(text, index, strong_only=True, weak=True)[:6])
    return items


def own_block(text: str) -> tuple[str, str]:
    """(the body of our own block, the user's words after it), read by structure: the block ends at the
    first line that is our end marker alone; lines inside it that are not the ledger's own (a heading, an
    item, a left-out line, the focus line) are not items. Without an end line, the whole text is the
    block and nothing is the user's."""
    lines = text.split("\n")
    for n, line in enumerate(lines[1:], start=1):
        if line.strip() == BLOCK_END:
            return "\n".join(lines[1:n]), "\n".join(lines[n + 1:]).strip()
    return "\n".join(lines[1:]), ""


_MARKERS = re.compile(rf"\[(?=(?:{re.escape(OWN_BLOCK[1:])}|{re.escape(BLOCK_END[1:])}))", re.IGNORECASE)


def neutral(text: str) -> str:
    """``text`` with the ledger's own markers disarmed ("[end of ledger]" -> "(end of ledger]"): words a
    message holds never open or close a block when the block is read back."""
    return _MARKERS.sub("(", text) if "[" in text else text


def read_back(body: str) -> list[Item]:
    """The items of our own block's body, the user's words ranked again as when they were said (a block
    does not write ranks): a line that cites what it superseded is a correction."""
    out = []
    for item in parse_items(body):
        if item.section == "instruction":
            kind = "correction" if item.supersedes else prose.kind_of(item.text, values(item.text))
            rank = {"correction": CORRECTION_RANK, "setting": SETTING_RANK}.get(
                kind, STRONG_RULE_RANK if prose.is_strong_rule(item.text) else RULE_RANK)
            item = item._replace(rank=rank, corrects=values(item.text), update=prose.is_update(item.text))
        elif item.section == "docrule":
            item = item._replace(rank=RULE_RANK)
        out.append(item)
    return out


def assistant_items(view: View, index: int) -> list[Item]:
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
        plan = plan_of(scan)
        if plan:
            items.append(Item("goal", f"plan {index}", "Plan: " + clip(plan, 400), index))
        items.extend(identifier_items(text, index, strong_only=False))
        items.extend(mention_items(scan, index))
        items.append(Item("state", "said", "Last said: " + clip(text, 240), index))
    for call in view.calls:
        items.extend(call_items(call, index))
    return items


# A plan written in prose, by the word each opening needs (a case-blind alternation of all of them over every
# message is slow; each is tried only where its word is): (word, regex).
_PLAN_OPENINGS = (
    (("plan",), re.compile(r"(?im)\bplan\b[^:\n.?!]{0,60}:|^\W*(?:(?:the |my |our )?plan(?: is)?\s*[:\-]|"
                          r"here'?s (?:the|my) plan)")),
    (("step",), re.compile(r"(?im)^[^\n]{0,30}\bsteps?\s*:\s*$|^\W*(?:next )?steps?(?:, in order)?\s*:|"
                          r"\bnext steps?\b[^.\n]{0,20}:")),
    (("tomorrow", "today", "tonight", "this week", "next week", "morgen", "heute", "demain", "aujourd", "mañana",
      "hoy", "amanhã", "domani"),
     re.compile(r"(?im)^\W*(?:[^:\n]{0,30}[\u2014:-]\s*)?(?:tomorrow|today|tonight|this week|next week|morgen|heute|"
                r"demain|aujourd'hui|mañana|hoy|amanhã|domani)\s*:")),
    (("order", "phases", "here's how", "heres how"),
     re.compile(r"(?im)^\W*(?:(?:rough |the )?order\s*:|(?:\w+ )?phases\s*:)|here'?s how (?:i'?d|i will|i'?ll|we'?ll|"
                r"we should) (?:approach|tackle|do|handle|go about|sequence|order) (?:it|this)")),
    (("then",), re.compile(r"(?i)(?:\bthen\b[^.\n]{3,160}){2,}")),
    (("first", "to start"), re.compile(r"(?i)\b(?:first|to start),? (?:i'?ll|i will|we'?ll|we will|let'?s|i'?m going to)\b|"
                                       r"(?<!the )(?<!its )(?<!our )(?<!my )\bfirst\b[^.\n]{3,120}[;,]\s*(?:then|second|next|after that)\b")),
    # ("the first 90 days; after that the curves run parallel" tells what data shows: "first" is no step there)
    (("\u2192",), re.compile(r"\S \u2192 \S[^\n]*\u2192")),
)


def _plan_start(text: str, low: str) -> int:
    """Where a plan opens in ``text`` (``low``: it lower-cased), or -1."""
    found = -1
    for words, pattern in _PLAN_OPENINGS:
        if not any(map(low.__contains__, words)) or (words == ("then",) and low.count("then") < 2):
            continue
        m = pattern.search(text)
        if m is not None and (found < 0 or m.start() < found):
            found = m.start()
    return found


_THEN = re.compile(r"\b(?:then|next|after that|finally|afterwards|once that|second|last)\b|\u2192", re.IGNORECASE)
_INLINE_STEPS = re.compile(r"(?:^|\s)1[.)]\s.{3,200}?(?:,|;)\s*2[.)]\s")  # "1) sort the tickets, 2) ..."
_NUMBERED = re.compile(r"(?m)^\s*(?:\d+[.)]|-|\*) +\S.{8,}$")


def plan_of(text: str) -> str:
    """The plan a message writes out in prose (its opening sentence and the steps after it), or ""."""
    at = _plan_start(text, text.lower())
    if at < 0:
        return ""
    start = text.rfind("\n", 0, at) + 1
    rest = text[start:start + 1200]
    steps = _NUMBERED.findall(rest)
    if len(steps) >= 2 or _THEN.search(rest[:600]) or _INLINE_STEPS.search(rest[:600]):
        paragraph = rest.split("\n\n", 1)[0] if len(steps) < 2 else rest
        return paragraph.strip()
    return ""


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
        items.extend(file_item(path, action, index) for path, action in shell_writes(command))
    else:
        items.extend(file_item(path, action, index) for path, action in tool_writes(call.name, args))
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


def file_item(path: str, action: str, index: int) -> Item:
    """A file the work changed; one it made whole (written, created), moved or deleted ranks above one
    it edited: of hundreds of files touched in a long session, what the work made is what it was about."""
    return Item("file", path, f"{path}: {action}", index, rank=0 if action == "edited" else 1)


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


# Our own marks in a result a projection stubbed, folded or cut: what they say is ours, not the tool's.
_OUR_MARKS = re.compile(r"^\[(?:failed call folded|tool result archived|\.\.\. [\d,]+ characters cut) by context-compactor[^\n]*$\n?",
                        re.MULTILINE)


def tool_items(view: View, call: ToolCall | None, index: int, failed: bool | None = None) -> list[Item]:
    name = one_line(call.name if call else (view.tool_name or "tool"))
    args = arguments(call.arguments) if call else {}
    command = shell_command(call, args) if call else None
    reads = is_read(call, command)
    raw = _OUR_MARKS.sub("", view.text) if "by context-compactor" in view.text else view.text
    text = scanned(raw)
    if failed is None:
        failed = view.is_error or (not reads and failed_run(text))
    key = f"{name} {command if command is not None else (call.arguments if call else '')}"[:400]
    items: list[Item] = []
    line = ""
    if failed:
        wide = raw if len(raw) <= 2 * WIDE else raw[:WIDE] + "\n" + raw[-WIDE:]
        line = error_line(wide)
        if line:
            where = f" (`{clip(command, 80)}`)" if command else f" ({name})"
            items.append(Item("error", f"{key}\n{line}", clip(line, 400) + where, index))
    elif not reads:
        items.append(Item("success", key, "", index))
    if not reads:  # ids a command printed sit in its first or last lines
        head_tail = text if len(text) <= 2 * ID_CHARS else text[:ID_CHARS] + "\n" + text[-ID_CHARS:]
        # A short output is an answer (a hash, an id): read like prose; a long one for strong ids only, kept
        # when prose or a later call names them.
        long = len(text) > SHORT_OUTPUT
        found = identifier_items(head_tail, index, strong_only=long, weak=long)[:6]
        if long:  # a command's news is at its end: the strong ids of its last lines are its answer
            verdict = _last_lines(text)
            found = [i._replace(weak=False) if i.key in verdict else i for i in found]
        items.extend(found)
    items.extend(finding_items(raw, index, reads, line if failed else "", _reads_code(args)))
    return items


# What a tool found: the failing tests a runner names (any language's runner), a line that gives a cause,
# and (from a file that was read) the settings it holds, kept when prose or a later call names them.
_GO_FAIL = re.compile(r"--- FAIL: (\S+)")
_FAILING_TEST = re.compile(
    r"^\s*(?:FAIL:? +(\S+(?:\s+>\s+[^\n]{1,120})?)|FAILED +(\S+)|(?:✗|×|✕|✖) +([^\n]{3,120})|"
    r"● ([^\n]{3,160})|test (\S+) \.\.\. FAILED|(\S+) \.\.\. (?:FAIL|ERROR)$|\[  FAILED  \] (\S+)|Failed (\S+) \[|"
    r"(\w+(?:\.\w+)+) (?:FAILED|failed)$)", re.MULTILINE)
_CAUSE = re.compile(
    r"\b(?:root cause|caused by|because\b|due to\b|OOMKilled|out of memory|\bKilled\b|evicted|expired|deadlock|"
    r"timed out|timeout exceeded|deadline exceeded|connection refused|no space left|too many open files|"
    r"CrashLoopBackOff|ImagePullBackOff|certificate|permission denied|access denied|quota|rate limit|"
    r"does not exist|not found|mismatch|null value|overflow|corrupt|violates|duplicate key|DATA RACE|"
    r"Seq Scan|full table scan|missing index|failed to (?:pull|resolve|connect|verify|mount|bind|allocate|schedule)|no such host|unreachable|could not resolve|"
    r"manifest unknown|unknown host)\b", re.IGNORECASE)
# Lower-cased words every match of _CAUSE holds: the regex runs only on an output that has one.
_CAUSE_WORDS = ("root cause", "caused by", "because", "due to", "oomkilled", "out of memory", "killed", "evicted",
                "expired", "deadlock", "timed out", "exceeded", "refused", "no space", "too many", "backoff",
                "certificate", "denied", "quota", "rate limit", "does not exist", "not found", "mismatch", "null value",
                "overflow", "corrupt", "violates", "duplicate key", "data race", "seq scan", "full table scan",
                "missing index", "failed to", "no such host", "unreachable", "could not resolve", "manifest unknown",
                "unknown host")
_SETTING_LINE = re.compile(r"^\s*(?:\d+\s*(?:\u2192|:|\||\t)\s*)?[\"']?([A-Za-z_][\w.-]{2,60})[\"']?\s*(?::|=|:=)\s*([^\s{\[].{0,100})$", re.MULTILINE)
# In source code, a module's constants are its settings: an unindented name given a literal (a string or a
# number), as `search_index = "idx-v3"` in a conf.py; other assignments are code.
_CONSTANT_LINE = re.compile(r"^([A-Za-z_]\w{2,60})\s*(?::\s*[\w\[\], ]{1,30})?\s*:?=\s*(?:\"[^\"\n]{1,100}\"|'[^'\n]{1,100}'|"
                            r"-?\d[\d_.]*[a-zA-Z]{0,3})\s*[;,]?\s*(?:(?:#|//).*)?$", re.MULTILINE)
_HIT_LINE = re.compile(r"^([\w./-]+\.\w+:\d+)(?::\d+)?[:\t ].*$", re.MULTILINE)  # grep -n: path:line: text
# A labelled result a computation printed: a few words, then ":" "=" or "|", then a number.
_RESULT_LINE = re.compile(r"\s*([A-Za-z][\w ().,/%-]{2,60}?)\s*(?::|=|\|)\s*-?[$€£]?\d[\d,.]*(?:%|\s?[a-zA-Z%]{0,6})?"
                          r"(?:\s*\([^()\n]{0,40}\))?\s*$")
_DIGIT = re.compile(r"\d")
# "worst null column: industry (34.8% null)", "Mann-Whitney U=4324973.7, p=0.13": a few words, then the value.
_LABELLED = re.compile(r"([A-Za-z][\w ().%,-]{1,50}?)\s*[:=]\s*(\S.*)$")
FINDINGS_PER_OUTPUT = 3
CAUSES_PER_OUTPUT = 2
_DIGITS = re.compile(r"\d+")
MORE_CAUSES = 4  # cause lines past the gravest two: kept when the agent's next words name them
_SEVERE = re.compile(r"OOMKilled|out of memory|no space left|certificate has expired|expired|deadlock|root cause|caused by|"
                     r"violates|corrupt|fatal|panic|Killed process", re.IGNORECASE)
READ_CHARS = 20_000  # a file or search result is read this far for the settings and hits prose may name
SETTINGS_PER_FILE = 40


_CODE_LINE = re.compile(r"\b(?:raise|throw|def|func|fn|return|logger|log|print|console|fmt|assert|except|catch|errors\.New|"
                        r"const|var|let|int64|string)\b|\bf[\"']|=>|[{};]\s*$|^\s*(?:\d+\s*[:|\u2192]?\s*)?(?:#|//|[+-]\s)|"
                        r"`[^`]+`|\w\(.*\)\s*$|\w+ = \w+\(")


def _reads_code(args: dict[str, object]) -> bool:
    """Whether a call reads a source file (its lines are code, not what a run found)."""
    path = next((v for k in _PATH_KEYS if isinstance(v := args.get(k), str)), "")
    return bool(re.search(r"\.(?:py|go|rs|ts|tsx|js|jsx|java|kt|rb|c|h|cc|cpp|cs|php|swift|scala|sql|sh)$", path))


def _cause_lines(scan: str, low: str) -> list[int]:
    """The starts of the lines of ``scan`` that hold one of :data:`_CAUSE_WORDS`, in order: found by
    str.find on the lower-cased text (the regex then reads those lines only; a case-blind alternation
    of 40 words over a whole output is the slow part otherwise)."""
    if len(low) != len(scan):  # lower-casing moved positions (a few non-ASCII letters): the regex decides
        return sorted({scan.rfind("\n", 0, m.start()) + 1 for m in _CAUSE.finditer(scan)})
    starts: set[int] = set()
    for word in _CAUSE_WORDS:
        at = low.find(word)
        while at >= 0 and len(starts) < CAUSE_LINES:
            starts.add(scan.rfind("\n", 0, at) + 1)
            at = low.find(word, scan.find("\n", at) if scan.find("\n", at) >= 0 else len(scan))
    return sorted(starts)


CAUSE_LINES = 2_000  # lines with a cause word an output is read for at most


def finding_items(text: str, index: int, reads: bool, error: str = "", code: bool = False) -> list[Item]:
    """Failing tests a runner names, up to two lines that give a cause (not from code that was only read,
    and not the error line already listed), and the settings of a file that was read (weak)."""
    items: list[Item] = []
    scan = scanned(text)
    low = scan.lower()
    failing = list(itertools.islice(_GO_FAIL.finditer(scan), FINDINGS_PER_OUTPUT)) if "--- FAIL" in scan else []
    if len(failing) < FINDINGS_PER_OUTPUT and (("fail" in low and ("FAIL" in scan or "Failed " in scan or " failed" in scan))
                                               or any(c in scan for c in "✗×✕✖●")):
        failing += itertools.islice(_FAILING_TEST.finditer(scan), FINDINGS_PER_OUTPUT - len(failing))
    for m in failing:
        name = next(g for g in m.groups() if g)
        items.append(Item("finding", name.strip(), clip(m.group(0).strip(), 200), index))
    found: list[tuple[int, int, str]] = []  # (severity, position, line)
    shapes: set[str] = set()
    seen = -1
    for start in _cause_lines(scan, low) if not code else ():
        if start <= seen:
            continue  # a line is read once, whatever it holds
        end = scan.find("\n", start)
        line = scan[start:end if end >= 0 else len(scan)].strip()
        seen = start
        if not _CAUSE.search(line) or _zero_counts_only(line, _CAUSE):
            continue
        shape = " ".join(_DIGITS.sub("0", line).split())  # the same line again with other numbers (a probe failing 5 times) is one
        if 12 <= len(line) <= 400 and shape not in shapes and not _CODE_LINE.search(line) and not (
                error and (line in error or error in line)):
            shapes.add(shape)
            found.append((0 if _SEVERE.search(line) else 1, len(found), line))
        if len(found) >= 40:
            break
    for n, (_severity, _at, line) in enumerate(sorted(found)[:CAUSES_PER_OUTPUT + MORE_CAUSES]):
        # The gravest first (OOMKilled before a retry); the next few are kept when the agent's next words
        # speak of them ("the pods can't pull the image"), see ledger.merge.
        # Keyed by its shape: the same line from another run with other numbers (a readiness probe failing
        # again) is the same finding seen again, routine once seen often.
        items.append(Item("finding", _DIGITS.sub("0", line.lower())[:200], clip(line, 240), index,
                          weak=n >= CAUSES_PER_OUTPUT))
    if not reads and not error:  # what a computation printed: "rows after dedupe: 680,897", "p = 0.19"
        last = _last_lines(scan, 1)
        results = 0
        labelled = _LABELLED.match(last.strip()) if last and len(last) <= 160 else None
        if labelled and _DIGIT.search(labelled.group(2)) and not _CODE_LINE.search(last):
            items.append(Item("finding", last.strip().lower()[:80], clip(last.strip(), 200), index))
            results = 1  # a computation's news is at its end
        for line in scan[-ID_CHARS * 4:].splitlines():
            if len(line) > 140 or not (":" in line or "=" in line or "|" in line) or not _DIGIT.search(line):
                continue
            result = _RESULT_LINE.match(line)
            if result and line.strip() != last.strip():
                items.append(Item("finding", result.group(1).strip().lower()[:80], clip(line.strip(), 200), index))
                results += 1
                if results >= 2:
                    break
    if reads:  # where a search hit, and the settings a file holds: kept when prose names them
        head = text[:READ_CHARS]
        for m in itertools.islice(_HIT_LINE.finditer(head), SETTINGS_PER_FILE) if ":" in head[:400] else ():
            items.append(Item("finding", m.group(1), clip(m.group(0).strip(), 160), index, weak=True))
        for m in itertools.islice((_CONSTANT_LINE if code else _SETTING_LINE).finditer(head), SETTINGS_PER_FILE):
            items.append(Item("finding", m.group(1).lower(), clip(m.group(0).strip(), 160), index, weak=True))
    return items


_MENTION = re.compile(r"(?<![\w./-])[\w./-]+\.\w+:\d+|(?<![\w.-])(?=[\w.-]*[_\d.])(?=[\w.-]*[A-Za-z])[A-Za-z_][\w.-]{3,60}(?<![.-])")


def mention_items(text: str, index: int) -> list[Item]:
    """The names prose uses (a setting's key, an id), as one item whose key lists them: what they name is
    kept where a tool found it."""
    found = sorted({m.group(0) for m in _MENTION.finditer(text[:20_000])})[:40]
    if not found:
        return []
    names = {*found, *(name.lower() for name in found)}
    return [Item("mention", " ".join(sorted(names)), "", index)]


_EXIT_TRAILER = re.compile(r"^\s*(?:exit(?:ed)?(?: with)? (?:code|status)|exit_code|returncode)\b", re.IGNORECASE)


def _last_lines(text: str, count: int = 2) -> str:
    """The last ``count`` lines of an output with words, an exit-code trailer aside."""
    lines = [line for line in text[-ID_CHARS:].splitlines() if line.strip() and not _EXIT_TRAILER.match(line)]
    return "\n".join(lines[-count:])


def gravest_line(text: str) -> str:
    """What an output found, for a one-line stub of it: the failing test a runner names, else its gravest
    cause line ("OOMKilled", "Failed to pull image ..."); "" when it names none."""
    found = [i for i in finding_items(scanned(text), 0, True) if not i.weak]  # read as a read: no computed result
    return found[0].text if found else ""


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


def error_line(text: str, named_only: bool = False) -> str:
    """The line that says what failed: the exception, else the failed test, else an error line (not one
    a logger wrote at info or debug level), else (unless ``named_only``: pasted text) the last line."""
    exceptions = _EXCEPTION_LINE.findall(text)
    if exceptions:
        return exceptions[-1].strip()
    specific = _specific_error(text)
    if specific:
        line = specific.group(0).strip()
        if line == "WARNING: DATA RACE":  # what raced is the first frame after it
            frame = re.search(r"^\s*([\w./*()-]+\(\S*\))\s*$", text[specific.end():specific.end() + 600], re.MULTILINE)
            return f"{line} [...] {frame.group(1)}" if frame else line
        return line
    failed = _FAILED_LINE.findall(text)
    if failed:
        return failed[0].strip()
    runner = _RUNNER_FAILURE.search(text) if any(map(text.__contains__, _RUNNER_NEEDS)) else None
    if runner:
        return runner.group(0).strip()
    lines = [line for line in _error_word_lines(text) if not _EXIT_LINE.match(line.strip()) and not _QUIET_LEVEL.search(line)
             and not _zero_counts_only(line, _ERROR_WORD)]
    if lines:  # the last one: a command's own verdict comes after its progress lines
        return lines[-1].strip()
    if named_only:
        return ""
    rest = [line.strip() for line in text.splitlines() if line.strip()]
    return rest[-1] if rest else ""


# A count of none ("failed=0", "unreachable=0", "0 errors"): a recap that says nothing failed.
_ZERO_COUNT = re.compile(r"\b(?:failed|failures?|errors?|unreachable|skipped|rescued|ignored)\s*[=:]\s*0\b|"
                         r"\b0 (?:failed|failures?|errors?)\b", re.IGNORECASE)


def _zero_counts_only(line: str, words: re.Pattern[str]) -> bool:
    """Whether the only words of ``words`` a line holds are counts of none (an Ansible recap's "failed=0")."""
    return "0" in line and _ZERO_COUNT.search(line) is not None and not words.search(_ZERO_COUNT.sub("", line))


# A log line at info or debug level ("INFO ... job finished failed=2"): progress, not what failed.
_QUIET_LEVEL = re.compile(r"\b(?:INFO|DEBUG|TRACE)\b|\blevel=(?:info|debug|trace)\b|\"level\": ?\"(?:info|debug)\"")


def extract(views: Sequence[View], start: int) -> list[Item]:
    """Every item of ``views`` (the messages ``start``, ``start + 1``, ...), in order."""
    extractor = Extractor()
    items: list[Item] = []
    for offset, view in enumerate(views):
        items.extend(extractor.items(view, start + offset))
    return items
