"""What the extractive summary pulls out of a transcript: pure functions over message views.

Each extractor returns items in the order they appear; the renderer in
:mod:`context_compactor.summarizer.fallback` decides what fits. Items are copied verbatim (clipped
only when very long), because exact strings are what summaries lose first.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence

from context_compactor.messages import View

MAX_ITEM_CHARS = 600

_CORRECTION = re.compile(
    r"^\s*(actually\b|no[,.!]|nope\b|instead\b|correction\b|scratch that|change of plan|wait[,.]|"
    r"sorry[,.]|update:|rather\b|forget (that|what)|never ?mind)|\binstead of\b|\bnot .{1,40} but\b",
    re.IGNORECASE,
)
_TRIVIAL = {"ok", "okay", "yes", "y", "no", "continue", "go on", "thanks", "thank you", "sure", "go", "next", "done", "k"}
_PATH = re.compile(
    r"(?<![\w/.:-])((?:~|\.{1,2})?/?(?:[\w.@-]+/)+[\w.@-]+|[\w-]+\.(?:py|js|mjs|ts|tsx|jsx|json|json5|md|toml|"
    r"ya?ml|txt|sh|rs|go|c|h|cc|cpp|hpp|java|kt|rb|php|cfg|ini|lock|sql|html|css|csv|env|log|gguf|sqlite))(?![\w/])"
)
_SHELL_TOOL = re.compile(r"(bash|shell|exec|run|terminal|command|cmd|sh|execute|process)", re.IGNORECASE)
_ERROR_LINE = re.compile(
    r"(\b\w*(Error|Exception)\b|Traceback|\berror\b|\bERROR\b|FAILED|\bfatal:|\bpanic:|No such file|not found|"
    r"[Pp]ermission denied|[Cc]onnection refused|exit(ed)? (code|status|with) [1-9]|Segmentation fault|timed? ?out)"
)
_DECISION = re.compile(
    r"\b(decided|decide to|we'll|we will|I'll use|I will use|going with|chose|choose|switch(ed)? to|"
    r"instead of|the plan is|the fix is|root cause|settled on|opted for|prefer)\b",
    re.IGNORECASE,
)
_IDENTIFIERS = (
    re.compile(r"https?://[^\s\"'<>)\]]+"),
    re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b"),
    re.compile(r"\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,64}\b"),
    re.compile(r"\b(?:localhost|\d{1,3}(?:\.\d{1,3}){3}|[\w-]+\.local):\d{2,5}\b"),
    re.compile(r"\bport\s+\d{2,5}\b", re.IGNORECASE),
    re.compile(r"(?<![\d.])v?\d+\.\d+\.\d+(?![.\d])(?:[-+][\w.]+)?"),
    re.compile(r"\b[A-Z][A-Z0-9]{1,9}-\d+\b"),
    re.compile(r"(?<![\w&])#\d{2,}\b"),
)
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")


SCAN_HEAD, SCAN_TAIL = 4000, 4000  # a long message is scanned at its start and its end only


def scanned(text: str) -> str:
    """The part of a long text worth scanning: its head and its tail (errors sit at the end)."""
    if len(text) <= SCAN_HEAD + SCAN_TAIL:
        return text
    return text[:SCAN_HEAD] + "\n" + text[-SCAN_TAIL:]


def clip(text: str, limit: int = MAX_ITEM_CHARS) -> str:
    """One line, at most ``limit`` characters (head and tail kept, the cut marked)."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    half = (limit - 5) // 2
    return f"{text[:half]} [...] {text[-half:]}"


_WORD = re.compile(r"[A-Za-z0-9_./-]{3,}")
_STOP = {"the", "and", "for", "with", "that", "this", "instead", "actually", "keep", "use", "not", "but", "now", "please"}
SUPERSEDED = "(partly superseded by a later instruction) "


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)} - _STOP


def instructions(views: Sequence[View]) -> list[str]:
    """The user's own messages, verbatim; a later correction wins over the instruction it replaces.

    A correction ("actually ...", "... instead of ...") replaces the latest earlier instruction that
    shares at least two words with it: a short single sentence is dropped, anything longer (it may
    hold other standing rules) is kept and marked as partly superseded.
    """
    kept: list[str] = []
    for view in views:
        if view.role != "user":
            continue
        text = view.text.strip()
        if not text or text.lower().strip(".! ") in _TRIVIAL:
            continue
        if _CORRECTION.search(text):
            words = _words(text)
            for j in range(len(kept) - 1, -1, -1):
                if len(words & _words(kept[j])) >= 2:
                    if len(kept[j]) < 120 and len(_SENTENCE.split(kept[j].strip())) == 1:
                        del kept[j]
                    elif not kept[j].startswith(SUPERSEDED):
                        kept[j] = SUPERSEDED + kept[j]
                    break
        kept.append(clip(text))
    return kept


def _arguments(raw: str) -> dict[str, object]:
    try:
        value = json.loads(raw)
    except (ValueError, TypeError):
        return {}
    return value if isinstance(value, dict) else {}


def commands(views: Sequence[View]) -> list[str]:
    """Shell commands the assistant ran (from tool calls), verbatim."""
    found = []
    for view in views:
        for call in view.calls:
            if not _SHELL_TOOL.search(call.name):
                continue
            args = _arguments(call.arguments)
            command = next((args[k] for k in ("command", "cmd", "script", "code", "input") if isinstance(args.get(k), str)), None)
            if command is None and call.arguments and not args:
                command = call.arguments
            if command:
                found.append(clip(str(command), 300))
    return found


def paths(views: Sequence[View]) -> list[str]:
    """File paths named in tool-call arguments and in text."""
    found: list[str] = []
    for view in views:
        for call in view.calls:
            args = _arguments(call.arguments)
            for key in ("path", "file_path", "filePath", "filename", "file", "target", "cwd", "directory"):
                value = args.get(key)
                if isinstance(value, str) and value:
                    found.append(value)
            found.extend(m.group(1) for m in _PATH.finditer(call.arguments))
        found.extend(m.group(1) for m in _PATH.finditer(scanned(view.text)))
    return [p for p in found if len(p) <= 200 and not p.startswith(("http:", "https:")) and "://" not in p]


def errors(views: Sequence[View]) -> list[str]:
    """Exact error lines from tool results (and assistant reports of failures)."""
    found = []
    for view in views:
        if view.role not in ("tool", "assistant"):
            continue
        lines = [line.strip() for line in scanned(view.text).splitlines() if line.strip()]
        hits = [line for line in lines if _ERROR_LINE.search(line)]
        if view.role == "assistant":
            hits = [h for h in hits if len(h) < 300][:1]
        # The last error lines of a traceback carry the exception; keep at most two per message.
        for line in hits[-2:]:
            prefix = f"{view.tool_name}: " if view.tool_name else ""
            found.append(prefix + clip(line, 300))
        if view.is_error and not hits and lines:
            found.append(clip(lines[-1], 300))
    return found


def decisions(views: Sequence[View]) -> list[str]:
    found = []
    for view in views:
        if view.role != "assistant" or not view.text:
            continue
        for sentence in _SENTENCE.split(scanned(view.text)):
            if 12 <= len(sentence) <= 400 and _DECISION.search(sentence):
                found.append(clip(sentence, 300))
    return found


def identifiers(views: Sequence[View]) -> list[str]:
    found: list[str] = []
    for view in views:
        texts: Iterable[str] = (scanned(view.text), *(scanned(c.arguments) for c in view.calls))
        for text in texts:
            for pattern in _IDENTIFIERS:
                found.extend(m.group(0).rstrip(".,;:") for m in pattern.finditer(text))
    return found


def last_state(views: Sequence[View]) -> list[str]:
    """What the assistant last said, in a line: where things stood when these turns ended."""
    for view in reversed(views):
        if view.role == "assistant" and view.text.strip():
            return [clip(view.text.strip(), 400)]
    return []


def dedupe_keep_last(items: Sequence[str]) -> list[str]:
    """Items once each, in the order of their last occurrence."""
    last = {item: i for i, item in enumerate(items)}
    return [item for i, item in enumerate(items) if last[item] == i]
