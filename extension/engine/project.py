"""Projecting: turning a plan and a summary into the message list the model is sent.

Kept messages are the host's own objects; changed ones (stubs, cut tool results, the summary
block) are new dicts. Everything here is a pure function of its inputs: same plan, same summary,
same bytes.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Sequence
from typing import Any

from ..messages import TEXT_PARTS, ToolCall, prepend_text, user_message, with_text
from ..summarizer.extract import BLOCK_END, OWN_BLOCK, question_words, read_back, strong_ids, stub_line
from ..summarizer.ledger import render
from ..tool_calls import fold_failed, text_of
from .measure import Entry
from .plan import STUB_MAX_CHARS, Plan


def ref(entry: Entry) -> str:
    """The archive reference of a message, as shown to the model."""
    return f"cc:{entry.digest[:12]}"


def call_names(entries: Sequence[Entry]) -> dict[str, ToolCall]:
    return {call.id: call for entry in entries for call in entry.view.calls}


def stub_text(entry: Entry, call: ToolCall | None, question: Callable[[], frozenset[str]] = frozenset) -> str:
    """One line that stands for an archived tool result (made once per message and call). A failed call's
    result stands as the line the agent-loop behaviour ``foldFailedCalls`` folds it to: when that fold
    reaches it later, the message reads the same and the prompt stays the same from there on.
    ``question()``: the words of the user's question the result answers (asked only when a stub is made)."""
    tool_name = call.name if call is not None else None
    if entry.stub is not None and entry.stub[0] == tool_name:
        return entry.stub[2]
    folded = fold_failed(entry.message, call)
    text = text_of(folded) if folded is not None else _stub_text(entry, call, question)
    entry.stub = (tool_name, entry.tokens, text)
    return text


def _stub_text(entry: Entry, call: ToolCall | None, question: Callable[[], frozenset[str]]) -> str:
    view = entry.view
    tool_name = call.name if call is not None else None
    first = next((line.strip() for line in view.text.splitlines() if line.strip()), "")
    name = (tool_name or view.tool_name or "tool")[:40]
    # Its size in characters, not tokens: a calibrated counter moves a token count from call to call,
    # and a stub that changes rewrites the prompt from there on for a server's prompt cache.
    head = f"[tool result archived by context-compactor: {name}, {len(view.text):,} characters, ref {ref(entry)}; "
    # The ids the output printed (a port mapping, a build id: often on its last line) before its first line.
    kept: list[str] = []
    for token in reversed(strong_ids(view.text)):  # the last printed first, while they leave room
        if len(head) + sum(len(t) + 2 for t in kept) + len(token) + 46 > STUB_MAX_CHARS:
            break
        kept.insert(0, token)
    ids = "ids: " + ", ".join(kept) if kept else ""
    # What it found (a command's failing test or gravest cause line, a lookup's answer to the user's question,
    # else its labelled last line: see outputs.stub_line) before its first line: what the model needs.
    found = stub_line(view.text, call, question()) if view.role == "tool" else ""
    label = "found: " if found else "first line: "
    first = found or first
    head += f"{ids}; {label}" if ids else label
    room = max(0, STUB_MAX_CHARS - len(head) - 1)
    if len(first) > room:
        first = first[: max(0, room - 3)] + "..."
    return f"{head}{first}]"


KEEP_STEP = 256  # characters: what a cut tool result keeps moves in these steps


def truncated_text(entry: Entry, cap_tokens: int, overhead: int) -> str:
    """The head and tail of a message's text within ``cap_tokens``, the cut marked in the middle; a
    message that opens with our own ledger block keeps the block a block, written smaller."""
    text = entry.view.text
    per_token = len(text) / max(1, entry.tokens - overhead)
    keep = max(64, int(cap_tokens * per_token))
    if keep >= len(text):
        return text
    # In steps, down: a calibrated counter moves ``per_token`` a little from call to call, and a cut
    # that moves with it rewrites the prompt from there on for a server's prompt cache.
    # The cap in characters is known only to within one token (a count is whole tokens, so
    # ``per_token`` reads a little low: 512 tokens of a 4-chars-per-token text gave 2,047): a step
    # boundary less than one token above it is the cap itself, not a step lost (2,047 went down to
    # 1,792, every cut result a step short of its cap).
    reach = keep + math.ceil(per_token)
    step = KEEP_STEP if keep > 4 * KEEP_STEP else KEEP_STEP // 4
    # The last cut of this message is kept while it has not shrunk by more than two steps and is at most
    # one step above the cap: a counter calibrating early in a session reads the same text as ~10% more
    # tokens over ten calls, and a cut that stepped down each time rewrote the prompt from there on
    # (bench/prefill.py, sessiongen at 8k: 251k -> 243k tokens of prefill); a step is 64 tokens at most.
    last = entry.kept
    if last is not None and last[0] == cap_tokens and reach - 2 * step <= last[1] <= reach + step:
        keep = last[1]
    else:
        keep = max(64, reach // step * step)
        entry.kept = (cap_tokens, keep)
    if keep >= len(text):
        return text
    if text.startswith(OWN_BLOCK) and BLOCK_END in text:
        smaller = _smaller_block(text, keep, per_token)
        if smaller is not None:
            return smaller
    head, tail = int(keep * 0.6), keep - int(keep * 0.6)
    cut = len(text) - head - tail
    marker = f"\n[... {cut:,} characters cut by context-compactor; full text archived as {ref(entry)} ...]\n"
    return f"{text[:head]}{marker}{text[len(text) - tail:]}"


FOCUS = "Focus requested by the user: "
CITES = "; [#n] cites an archived original"


def _smaller_block(text: str, keep: int, per_token: float) -> str | None:
    """``text`` (our ledger block, then the user's words) within ``keep`` characters: the block's items
    rendered again into the room the words leave, whole, instead of cut through the middle of one
    (a compacted prompt sent again with no new turn carries its block in the current turn). None when
    the words alone take the room."""
    end = text.index(BLOCK_END)
    header, _, body = text[:end].partition("\n")
    focus = next((line for line in body.splitlines() if line.startswith(FOCUS)), "")
    words = text[end + len(BLOCK_END):]
    room = keep - len(header) - len(focus) - len(words) - len(BLOCK_END) - 3
    if room <= 0:
        return None
    chars_per_token = max(per_token, 0.1)
    ledger, _left_out = render(read_back(body), int(room / chars_per_token),
                               lambda t: math.ceil(len(t) / chars_per_token))
    if "[#" not in ledger:  # written without citations: the header's short form
        folded = re.match(r"\[context-compactor: ledger of (\d+) ", header)
        header = block_header(int(folded.group(1)), False) if folded else header.replace(CITES, "")
    lines = [header, focus, ledger.strip() or "(nothing in those messages needed keeping)", BLOCK_END]
    return "\n".join(line for line in lines if line) + words


def block_header(folded: int, cited: bool) -> str:
    """The block's first line. A ledger that cites says how to read a citation; one written without
    them (a tiny ledger, where every character is a rule not kept) says only what it is, shortest."""
    if not cited:
        return f"[context-compactor: ledger of {folded} msg{'s' if folded != 1 else ''}]"
    return f"[context-compactor: ledger of {folded} earlier message{'s' if folded != 1 else ''}{CITES}]"


def summary_block(summary: str, folded: int, note: str | None = None, bare: bool = False) -> str:
    """The block: its header, the user's focus note, the ledger, its end line. ``bare``: the header and
    the end line only (all a window too small for any item holds; the originals are in the archive)."""
    lines = [block_header(folded, "[#" in summary)]
    if note and not bare:
        lines.append(f"{FOCUS}{note}")
    if not bare:
        lines.append(summary.strip() or "(nothing in those messages needed keeping)")
    lines.append(BLOCK_END)
    return "\n".join(lines)


def build(entries: Sequence[Entry], plan: Plan, block: str | None, overhead: int) -> tuple[list[Any], dict[int, Any]]:
    """The projection: lead, summary block (own message or merged into a user turn), kept messages.

    Also returns what was replaced, by original index (-1 for a summary in a message of its own).
    """
    out: list[Any] = [e.message for e in entries[: plan.lead]]
    replaced: dict[int, Any] = {}
    if block is not None and plan.cut > plan.lead:
        first = entries[plan.cut] if plan.cut < len(entries) else None
        if first is not None and first.view.role == "user":
            # Strict templates refuse two user messages in a row: carry the summary in the user turn
            # (cut to its head and tail first, when the plan cuts it).
            base = first.message
            if plan.cut in plan.truncate:
                base = cut_text(base, truncated_text(first, plan.truncate[plan.cut], overhead))
            replaced[plan.cut] = prepend_text(base, block)
        else:
            replaced[-1] = user_message(block)
            out.append(replaced[-1])
    # A cut never separates a call from its results, so the calls of stubbed results are in range.
    names = call_names(entries[plan.cut : plan.stub_until]) if plan.stub_until > plan.cut else {}
    for i in range(plan.cut, len(entries)):
        entry = entries[i]
        if i in replaced:
            out.append(replaced[i])
        elif i < plan.stub_until and plan.stubs(i, entry):
            # A result shorter than any stub stays as it is: a stub would only make it longer.
            replaced[i] = with_text(entry.message, stub_text(entry, names.get(entry.view.call_id or ""),
                                                             functools.partial(_question_before, entries, i)))
            out.append(replaced[i])
        elif i in plan.truncate:
            replaced[i] = cut_text(entry.message, truncated_text(entry, plan.truncate[i], overhead))
            out.append(replaced[i])
        else:
            out.append(entry.message)
    return out, replaced


QUESTION_REACH = 40  # messages back a tool result's stub looks for the user's question it answers


def _question_before(entries: Sequence[Entry], at: int) -> frozenset[str]:
    """The question words of the user's message before ``at`` (within :data:`QUESTION_REACH`), if it asks one."""
    for j in range(at - 1, max(-1, at - 1 - QUESTION_REACH), -1):
        if entries[j].view.role == "user":
            return question_words(entries[j].view.text)
    return frozenset()


def cut_text(message: dict[str, Any], text: str) -> dict[str, Any]:
    """A copy of ``message`` whose text is ``text``; its non-text parts (images, audio) are kept."""
    content = message.get("content")
    if not isinstance(content, list):
        return with_text(message, text)
    others = [part for part in content if not (isinstance(part, str) or (isinstance(part, dict)
                                                                     and part.get("type") in TEXT_PARTS))]
    changed = dict(message)
    changed["content"] = [{"type": "text", "text": text}, *others]
    return changed


def changed_entries(entries: Sequence[Entry], plan: Plan, since: int = 0) -> list[tuple[int, Entry]]:
    """Every message whose full text leaves the prompt under ``plan`` and is not archived yet, with its
    position in the history (what the ledger cites as ``[#n]``).

    Messages before ``since`` were handled on an earlier call and are not looked at again.
    """
    gone = [(i, entries[i]) for i in range(max(plan.lead, since), plan.cut) if not entries[i].archived]
    gone += [(i, entries[i]) for i in range(max(plan.cut, since), plan.stub_until)
             if plan.stubs(i, entries[i]) and not entries[i].archived]
    gone += [(i, entries[i]) for i in sorted(plan.truncate) if not entries[i].archived]
    return gone

