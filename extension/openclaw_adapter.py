"""OpenClaw's message format <-> the OpenAI chat dicts the hooks read, and back again by index.

OpenClaw hands a context engine its transcript rows (observed on 2026.9.6):

    user        {role, content: str | [{type: "text", text} | {type: "image", data, mimeType}], timestamp}
    assistant   {role, content: [{type: "text"} | {type: "thinking"} | {type: "toolCall", id, name,
                 arguments: {...}}], usage: {input, output, ...}, stopReason, provider, model, ...}
    toolResult  {role, toolCallId, toolName, content: [{type: "text", text}], details, isError}
    others      compactionSummary {summary}, branchSummary, custom, bashExecution: passed through

:func:`to_openai` converts them (skipping our own chat commands, which must never reach the model
or a summary: their rows, and the command blocks OpenClaw merges into the user's next row) and
remembers where each came from. An assistant row's thinking becomes thinking content parts, which the
engine measures (OpenClaw sends earlier thinking to some providers) and leaves out of earlier turns by
its ``stripThinking``, but never reads as text. :func:`restore` turns the projection the hooks return into a
*recipe* for the host: an ``int`` is "your own message at this index, unchanged"; a dict is a new
message in OpenClaw's format (the summary, a stubbed tool result, a shortened message, a row without
our commands). Kept messages therefore go back as the host's very own objects.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import InputError
from .loop import REMINDER_HEAD
from .summarizer.extract import BLOCK_END

Message = dict[str, Any]
Recipe = list[int | Message]

OUR_COMMANDS = {"context-stats": False, "compact-now": True}  # name -> whether it takes arguments
SUMMARY_PREFIX = "[context-compactor: ledger of"  # how the engine's compacted block opens
CURRENT = -1  # origin of the current user turn (the host appends it itself)
_INVOCATION = re.compile(r"^/\s*(\S+)(?:\s+([\s\S]*))?$")
_COLON = re.compile(r"^/([^\s:]+)\s*:([\s\S]*)$")


@dataclass
class Converted:
    """OpenAI dicts for the hooks, and for each the index of the host message it stands for."""

    messages: list[Message] = field(default_factory=list)
    origin: list[int] = field(default_factory=list)
    # converted index -> host blocks its first content parts stand for (a user row's blocks, an assistant row's thinking)
    parts: dict[int, list[Any]] = field(default_factory=dict)
    # converted index -> the host's row without our command blocks, where it had some (sent instead of it)
    cleaned: dict[int, Message] = field(default_factory=dict)
    commands: int = 0  # host rows left out or cleaned because they ran our commands
    # What the projection appended to the current turn (the task reminder), which the host adds itself:
    # set by :func:`restore`, sent as the assemble result's systemPromptAddition.
    addition: str = ""

    def add(self, message: Message, origin: int, blocks: list[Any] | None = None) -> None:
        if blocks is not None:
            self.parts[len(self.messages)] = blocks
        self.messages.append(message)
        self.origin.append(origin)

    def host_row(self, index: int, host: Sequence[Any]) -> Message:
        """The host's row that converted message ``index`` stands for, as the model may see it."""
        return self.cleaned.get(index) or host[self.origin[index]]


def text_of(content: Any) -> str:
    """The text of an OpenClaw content value (a string or a list of blocks)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(b.get("text", "")) for b in content if isinstance(b, dict) and b.get("type") == "text")
    return ""


def command_of(text: Any) -> str | None:
    """The name of our command that ``text`` runs in OpenClaw, or None.

    Mirrors OpenClaw's plugin-command matcher (``plugin-command-matcher.ts``): the trimmed text is
    ``/name`` or ``/name args`` (``/name: args`` too), the name in any case, ``_`` for ``-``; a
    command that takes no arguments is not run when given some, so "/context-stats said 40%" is
    the user's own text.
    """
    if not isinstance(text, str):
        return None
    body = text.strip()
    colon = _COLON.match(body)
    if colon is not None:  # OpenClaw's normalizeCommandBody: "/name: args" is "/name args"
        body = f"/{colon.group(1)} {colon.group(2).strip()}".rstrip()
    match = _INVOCATION.match(body)
    if match is None:
        return None
    name, args = match.group(1).lower().replace("_", "-"), (match.group(2) or "").strip()
    if name not in OUR_COMMANDS or (args and not OUR_COMMANDS[name]):
        return None
    return name


def is_our_command(message: Any) -> bool:
    """A user row that only runs our chat commands, or a reply the gateway injected for a command."""
    if not isinstance(message, dict):
        return False
    if message.get("role") == "assistant" and message.get("model") == "gateway-injected":
        return True
    if message.get("role") != "user":
        return False
    content = message.get("content")
    if isinstance(content, str):
        return command_of(content) is not None
    return isinstance(content, list) and bool(content) and _without_commands(content) == []


def _without_commands(blocks: list[Any]) -> list[Any]:
    """The blocks of a user row but the text blocks that are our commands, and empty text left between."""
    kept = [b for b in blocks if not (isinstance(b, dict) and b.get("type") == "text" and command_of(b.get("text")))]
    if len(kept) == len(blocks):
        return blocks
    return [b for b in kept if not (isinstance(b, dict) and b.get("type") == "text" and not str(b.get("text") or "").strip())]


def without_our_commands(message: Message) -> Message | None:
    """A user row without our commands: the row itself when it has none, a copy without the command
    blocks when OpenClaw merged command rows into it, None when nothing else is left.

    OpenClaw leaves its injected command replies out of what the model is sent, so a command row and
    the user's next turn become consecutive user rows, which it merges into one whose content is
    the rows' blocks in order (``mergeConsecutiveUserTurns``: each string row as one text block)."""
    if is_our_command(message):
        return None
    content = message.get("content")
    if message.get("role") != "user" or not isinstance(content, list):
        return message
    kept = _without_commands(content)
    return message if kept is content else {**message, "content": kept}


def _user_parts(blocks: list[Any]) -> list[Any]:
    parts: list[Any] = []
    for block in blocks:
        if isinstance(block, dict) and block.get("type") == "text":
            parts.append({"type": "text", "text": str(block.get("text", ""))})
        elif isinstance(block, dict):
            # A picture counts at a flat rate (see messages.NON_TEXT_PART_CHARS); keep its hash, not its bytes.
            data = str(block.get("data", ""))
            parts.append({"type": str(block.get("type", "image")), "mimeType": block.get("mimeType"),
                          "sha": hashlib.sha256(data.encode()).hexdigest()[:16]})
        else:
            parts.append({"type": "text", "text": str(block)})
    return parts


def _thinking_part(block: Message) -> Message:
    """An OpenClaw thinking block as the content part the engine knows (see ``loop.THINKING_PARTS``).

    Its signature (a provider's opaque one, or the field an openai-completions stream carried it in,
    such as ``reasoning_content``) rides along, so the engine keeps it where providers want thinking
    back (the current tool loop) and leaves it out before the last user turn, as for any host."""
    signature = block.get("thinkingSignature")
    if block.get("redacted"):
        return {"type": "redacted_thinking", "data": str(signature or "")}
    part: Message = {"type": "thinking", "thinking": str(block.get("thinking") or "")}
    if isinstance(signature, str) and signature:
        part["signature"] = signature
    return part


def _assistant(message: Message) -> tuple[Message, list[Any] | None]:
    """An assistant row as an OpenAI dict, and the host's thinking blocks its first content parts stand for.

    OpenClaw sends earlier turns' thinking back to some providers (openai-completions with
    ``reasoning: true``: as ``reasoning_content``), so the engine must see it to measure the prompt.
    It goes in as thinking content parts, which the engine sizes but never reads as text: no
    summary, ledger or archive search takes a thought for what the assistant said."""
    content = message.get("content")
    blocks = content if isinstance(content, list) else [{"type": "text", "text": content or ""}]
    texts = [str(b.get("text", "")) for b in blocks if isinstance(b, dict) and b.get("type") == "text"]
    thinking = [b for b in blocks if isinstance(b, dict) and b.get("type") == "thinking"]
    calls = [
        {"id": str(b.get("id", "")), "type": "function",
         "function": {"name": str(b.get("name", "")), "arguments": _args(b.get("arguments"))}}
        for b in blocks if isinstance(b, dict) and b.get("type") == "toolCall"
    ]
    text = "\n".join(texts) if texts else None
    out: Message = {"role": "assistant", "content": text}
    if thinking:
        out["content"] = [*map(_thinking_part, thinking), *([{"type": "text", "text": text}] if text is not None else [])]
    if calls:
        out["tool_calls"] = calls
    return out, thinking or None


def _args(arguments: Any) -> str:
    if isinstance(arguments, str):
        return arguments
    return json.dumps(arguments if arguments is not None else {}, ensure_ascii=False, sort_keys=True)


def _other(message: Message) -> Message:
    """A row of a role the model gets as user text (compaction or branch summaries, custom rows)."""
    if message.get("role") == "compactionSummary":
        text = ("The conversation history before this point was compacted into the following summary:\n\n"
                f"<summary>\n{message.get('summary', '')}\n</summary>")
    else:
        pieces = [message.get(k) for k in ("summary", "command", "output")] + [text_of(message.get("content"))]
        text = "\n".join(p for p in pieces if isinstance(p, str) and p)
    return {"role": "user", "content": text}


def message_to_openai(message: Message) -> tuple[Message, list[Any] | None]:
    """One OpenClaw message as an OpenAI chat dict (and, for block content, the host's blocks)."""
    role = message.get("role")
    if role == "user":
        content = message.get("content")
        if isinstance(content, list):
            return {"role": "user", "content": _user_parts(content)}, content
        return {"role": "user", "content": content if isinstance(content, str) else text_of(content)}, None
    if role == "assistant":
        return _assistant(message)
    if role == "toolResult":
        out: Message = {"role": "tool", "tool_call_id": str(message.get("toolCallId", "")),
                        "content": text_of(message.get("content"))}
        if message.get("toolName"):
            out["name"] = str(message["toolName"])
        if message.get("isError"):
            out["is_error"] = True
        return out, None
    if role == "system":
        return {"role": "system", "content": text_of(message.get("content"))}, None
    return _other(message), None


def to_openai(host: Sequence[Any], prompt: str | None = None, previous: Sequence[Message] = ()) -> Converted:
    """The host's history (and the current turn's text, if given) as OpenAI chat dicts.

    Rows of our own chat commands are left out, and so are the command blocks OpenClaw merged into
    a user row (that row then goes back to the host as a changed copy). A tool result whose call is not in the history
    any more (OpenClaw compacted it away) becomes plain user text, so no cut can orphan it.
    ``previous`` is the result of the last call for this session: a message that converts to an
    equal dict at the same place is that very dict again, so the engine's per-message memo (which
    keeps the objects it saw first) hands back objects that :func:`restore` can find by identity.
    """
    out = Converted()

    def add(message: Message, origin: int, blocks: list[Any] | None = None) -> None:
        k = len(out.messages)
        out.add(previous[k] if k < len(previous) and previous[k] == message else message, origin, blocks)

    calls: set[str] = set()
    for i, row in enumerate(host):
        if not isinstance(row, dict):
            raise InputError(f"expected a message object, got {type(row).__name__}", where=f"messages[{i}]")
        message = without_our_commands(row)
        if message is not row:
            out.commands += 1
            if message is None:
                continue
            out.cleaned[len(out.messages)] = message
        converted, blocks = message_to_openai(message)
        if converted["role"] == "assistant":
            calls.update(c["id"] for c in converted.get("tool_calls", []))
        elif converted["role"] == "tool" and converted["tool_call_id"] not in calls:
            converted = {"role": "user", "content": f"[result of an earlier tool call]\n{converted['content']}"}
        add(converted, i, blocks)
    if prompt:
        add({"role": "user", "content": prompt}, CURRENT)
    return out


# --- back to the host ------------------------------------------------------------------------------


def _plain(message: Any) -> str:
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(p.get("text", "")) for p in content if isinstance(p, dict) and p.get("type") == "text")
    return ""


def _replaces(new: Message, old: Message) -> bool:
    """Whether ``new`` is the engine's changed copy of ``old`` (a stub, a cut, a prepended summary)."""
    if new.get("role") != old.get("role"):
        return False
    if old["role"] == "tool":
        return new.get("tool_call_id") == old.get("tool_call_id")
    if old["role"] == "assistant":
        return [c.get("id") for c in new.get("tool_calls") or []] == [c.get("id") for c in old.get("tool_calls") or []]
    text, before = _plain(new), _plain(old)
    if text.startswith(SUMMARY_PREFIX) and before:
        reminded = _reminder_at(text)
        if not (text[:reminded].rstrip("\n") if reminded >= 0 else text).endswith(before[-20:]):
            return False  # the summary in a message of its own, standing where folded messages were
    return True


def _reminder_at(text: str) -> int:
    """Where the reminder the engine appended starts in ``text`` (on a line of its own: after the turn's
    words, or the whole text when the turn had none); -1 when there is none."""
    at = text.rfind(REMINDER_HEAD)
    return at if at == 0 or (at > 0 and text[at - 1] == "\n") else -1


def _back(new: Message, index: int, conv: Converted, host: Sequence[Any]) -> Message:
    """A changed message in the host's format, every field of the host's original kept."""
    original = conv.host_row(index, host)
    role = original.get("role")
    if role == "toolResult":
        changed = {k: v for k, v in original.items() if k != "details"}  # details repeats the full text
        changed["content"] = [{"type": "text", "text": _plain(new)}]
        return changed
    if role == "assistant":
        calls = [b for b in original.get("content") or [] if isinstance(b, dict) and b.get("type") == "toolCall"]
        # The thinking the engine kept (the same part objects) goes back as the host's own blocks; the rest is left out.
        thinking = list(_host_blocks(new, index, conv).values())
        return {**original, "content": [*thinking, {"type": "text", "text": _plain(new)}, *calls]}
    if role == "user" and isinstance(new.get("content"), list):
        by_id = _host_blocks(new, index, conv)
        return {**original, "content": [by_id.get(id(p), p) for p in new["content"]]}
    if role == "user":
        return {**original, "content": _plain(new)}
    return {"role": "user", "content": _plain(new), "timestamp": original.get("timestamp", 0)}


def _host_blocks(new: Message, index: int, conv: Converted) -> dict[int, Any]:
    """For each content part of ``new`` that is one the conversion made, the host block it stands for
    (by the part's identity: the engine keeps the very part objects it does not change), in ``new``'s order."""
    blocks, mine = conv.parts.get(index, []), conv.messages[index].get("content")
    if not isinstance(mine, list) or not isinstance(new.get("content"), list):
        return {}
    by_id = {id(part): blocks[j] for j, part in enumerate(mine) if j < len(blocks)}
    return {id(p): by_id[id(p)] for p in new["content"] if id(p) in by_id}


def summary_message(text: str, timestamp: Any) -> Message:
    """The compacted-context block as an OpenClaw user message."""
    return {"role": "user", "content": text, "timestamp": timestamp if isinstance(timestamp, (int, float)) else 0}


def restore(projection: Sequence[Any], conv: Converted, host: Sequence[Any]) -> Recipe:
    """The recipe for the host: its own index for each kept message, new dicts for changed ones.

    The projection keeps the order of the history: kept messages are the very objects of
    ``conv.messages``; between two of them stand new dicts, which replace the last messages of
    that gap one for one, and at most one more, the summary, standing for the folded ones before.
    Raises InputError when the projection does not have that shape (the bridge then fails open).
    """
    where = {id(m): i for i, m in enumerate(conv.messages)}
    recipe: Recipe = []
    pending: list[Message] = []
    start = 0
    for message in projection:
        index = where.get(id(message))
        if index is None:
            pending.append(message)
            continue
        recipe += _gap(pending, start, index, conv, host)
        pending, start = [], index + 1
        if conv.origin[index] != CURRENT:
            recipe.append(conv.cleaned.get(index, conv.origin[index]))
    recipe += _gap(pending, start, len(conv.messages), conv, host)
    return recipe


def _gap(new: list[Message], start: int, stop: int, conv: Converted, host: Sequence[Any]) -> Recipe:
    gap = list(range(start, stop))
    tail: Recipe = []
    while new and gap and _replaces(new[-1], conv.messages[gap[-1]]):
        message, index = new.pop(), gap.pop()
        if conv.origin[index] == CURRENT:
            # The host adds the current turn itself: what the projection put before it (the summary)
            # comes back as a message of its own, what it put after it (the reminder) as an addition.
            text = _plain(message)
            closed = text.find(f"\n{BLOCK_END}") if text.startswith(SUMMARY_PREFIX) else -1  # the block's own line
            end = closed + 1 + len(BLOCK_END) if closed >= 0 else 0
            after = _reminder_at(text)
            if after >= end:
                conv.addition = text[after:].strip()
            if end:
                new.append({"role": "user", "content": text[:end]})
            continue
        tail.insert(0, _back(message, index, conv, host))
    if len(new) > 1 or (new and not _plain(new[0]).startswith(SUMMARY_PREFIX)):
        raise InputError(f"cannot map {len(new)} new message(s) back onto the host's history")
    if not new:
        return tail
    first = next((conv.origin[i] for i in gap if conv.origin[i] != CURRENT), None)
    stamp = host[first].get("timestamp") if first is not None else 0
    return [summary_message(_plain(new[0]), stamp), *tail]
