"""What a compacted-context block says that it should not: the precision half of the fidelity bench.

    from precision import precision
    figures = precision(session, compacted)   # session: sessiongen.Session (any generator)

It reads the block as a reader would, knowing only its documented format (the README's "How the
ledger reads"): ``## Section`` headings, ``- item`` lines, a citation ``[#n]`` or ``[#n, #m]`` at a
line's end, clip marks ``[...]``, and the ledger's own short labels. It counts:

- ``invented``: item lines with a run of words (three or more) that no message contains, once the
  ledger's own labels are taken off. A line the ledger wrote in its own words ("(was 8080)", a
  sentence joined from two messages) is invented.
- ``unsupported``: correction lines (lines of the instructions section that cite more than one
  message, the statement they supersede too, or show a value as "(was ...)") whose words are not the
  user's own prose in one of the messages they cite.
- ``pasted``: lines of the user-instructions section whose words come from what a user pasted
  (``session.pasted``) rather than wrote.
- ``repeated``: item lines that say the same as another line of the block.
- ``shares``: each section's share of the block, in characters.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

OWN_BLOCK, BLOCK_END = "[context-compactor: ledger of", "[end of ledger]"
INSTRUCTION_TITLES = ("User instructions", "User instructions (verbatim)")
# The ledger's own labels, as the README documents them: at the start of a line, or in parentheses.
LABEL_START = re.compile(
    r"^(?:Latest request|Open tasks|Last said|Last action: \S+|Plan|Asked|Said|Pasted|From a pasted document"
    r"|Found by [\w -]{1,40}|Corrects? [^:]{0,40}|Rule from pasted [\w ]{1,30}|Earlier)\s*:\s*")
LABEL_ANYWHERE = re.compile(
    r"\(`[^`]*`\)|\([\w.-]{1,40}\)(?=\s*(?:\[#|\(|$))|\((?:in_progress|in progress|pending|open|todo|blocked)\)|\((?:resolved at \[#\d+\]|\d+ times|pasted|pasted by the user|corrected at \[#\d+\]|corrects \[#\d+\]|"
    r"[\w ]{0,30}#\d+[^()]{0,40})\)|\[#[\d, #]+\]|\[\.\.\.\]|…")
FILE_ACTION = re.compile(r": (?:written|edited|created|deleted|moved|moved (?:to|from)|copied from)\b(?: \(earlier: [^()]*\))?")
CITATION = re.compile(r"\s*\[#(\d+)(?:, #(\d+))*\]\s*$")
WORDS_MIN = 3  # a fragment this many words long must be found in a message


def _norm(text: str) -> str:
    return " ".join(text.split())


def _message_texts(message: dict[str, Any]) -> list[str]:
    content = message.get("content")
    if isinstance(content, list):
        content = "\n".join(str(b.get("text", "")) for b in content if isinstance(b, dict))
    texts = [str(content or "")]
    for call in message.get("tool_calls") or []:
        raw = call.get("function", {}).get("arguments", "")
        texts.append(raw)
        try:
            import json

            value = json.loads(raw)
        except ValueError:
            continue
        texts.extend(_strings(value))
    return texts


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def block_of(compacted: list[dict[str, Any]]) -> str:
    for message in compacted:
        texts = _message_texts(message)
        if texts and OWN_BLOCK in texts[0]:
            text = texts[0]
            start = text.index(OWN_BLOCK)
            end = text.find(BLOCK_END, start)
            return text[start:end if end >= 0 else len(text)]
    return ""


def sections(block: str) -> list[tuple[str, str]]:
    """(section title, item line body) for every item line of the block."""
    out, title = [], ""
    for line in block.splitlines()[1:]:
        if line.startswith("## "):
            title = line[3:].strip()
        elif line.startswith("### "):
            continue
        elif line.startswith("- "):
            out.append((title, line[2:]))
    return out


def fragments(body: str) -> list[str]:
    """The parts of an item line that must be words of a message: labels, citations and clip marks off."""
    body = CITATION.sub("", body)
    body = LABEL_START.sub("", body)
    body = re.sub(r"^Last action: \S+ ", "", body)
    body = FILE_ACTION.sub(" ; ", body).replace("none (all completed)", "")
    pieces = LABEL_ANYWHERE.split(body)
    out = []
    for piece in pieces:
        for part in re.split(r"\s+(?:->|\u2192)\s+|; (?=[A-Z`])| ; ", piece):
            part = part.strip(" ;,.:-`\"'")
            part = LABEL_START.sub("", part)
            if len(part.split()) >= WORDS_MIN:
                out.append(_norm(part))
    return out


def precision(session: Any, compacted: list[dict[str, Any]]) -> dict[str, Any]:
    block = block_of(compacted)
    if not block:
        return {"lines": 0, "invented": [], "unsupported": [], "pasted": [], "repeated": 0, "shares": {}}
    corpus = _norm("\n".join(t for m in session.messages for t in _message_texts(m)))
    pasted = [_norm(text) for _i, text in getattr(session, "pasted", [])]
    user_prose = {}
    for i, m in enumerate(session.messages):
        if m.get("role") == "user":
            text = _norm(str(m.get("content") or ""))
            for j, p in getattr(session, "pasted", []):
                if j == i:
                    text = text.replace(_norm(p), " ")
            user_prose[i] = text
    items = sections(block)
    invented, unsupported, from_paste = [], [], []
    share: Counter[str] = Counter()
    bodies = Counter()
    for title, body in items:
        share[title] += len(body) + 3
        bodies[_norm(CITATION.sub("", body))] += 1
        frags = fragments(body)
        missing = [f for f in frags if f not in corpus]
        if missing:
            invented.append(body)
        if title in INSTRUCTION_TITLES:
            in_paste = frags and all(any(f in p for p in pasted) for f in frags) and not any(
                f in prose for f in frags for prose in user_prose.values())
            if in_paste:
                from_paste.append(body)
            cites = [int(n) for n in re.findall(r"#(\d+)", CITATION.search(body).group(0))] if CITATION.search(body) else []
            if len(cites) > 1 or "(was " in body:  # a correction: it cites what it supersedes too
                # (a line too short to have a fragment, "lm-cu121-py311* pls", is said when the whole of it is)
                said = any(f in user_prose.get(c, "") for c in cites for f in frags or [_norm(CITATION.sub("", body))])
                if in_paste or not said or "(was " in body:
                    unsupported.append(body)
    total = sum(share.values()) or 1
    return {"lines": len(items), "invented": invented, "unsupported": unsupported, "pasted": from_paste,
            "repeated": sum(n - 1 for n in bodies.values() if n > 1),
            "shares": {t: round(n / total, 3) for t, n in share.most_common()}}
