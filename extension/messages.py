"""The message model: a read-only view of a host's chat message, and the OpenAI chat adapter.

Hooks receive messages in the OpenAI chat format (``role``, ``content`` as a string or a list of
parts, ``tool_calls`` on assistant messages, ``tool_call_id`` on ``tool`` messages). The engine reads
them through :class:`View`, which normalises the few shapes that matter for measuring and
summarising. A message the engine keeps is handed back as the very same object; a message it
changes (a cut or stubbed tool result, the summary) is a new dict built here.
"""

from __future__ import annotations

import hashlib
import json
import operator
import re
from typing import Any, NamedTuple, TypeVar

from .errors import InputError

ROLES = ("system", "developer", "user", "assistant", "tool", "function")
# A picture or other non-text part costs tokens too; models differ, so a flat, visible estimate.
NON_TEXT_PART_CHARS = 3000
# Part types that carry text, and the field that holds it.
TEXT_PARTS = {"text": "text", "input_text": "text", "output_text": "text", "refusal": "refusal"}
# Thinking (content parts and assistant fields): sized at its own length, never read as what was said.
THINKING_PART_FIELDS = {"thinking": ("thinking", "text", "signature"), "redacted_thinking": ("data",),
                        "reasoning": ("text", "summary", "encrypted_content")}
REASONING_FIELDS = ("reasoning_content", "reasoning", "reasoning_details", "thinking")


# View and ToolCall are named tuples rather than frozen dataclasses: a cold compaction builds one
# view per message, and a frozen dataclass's __init__ (one object.__setattr__ per field) cost
# 2 us a view, most of the time it took to read a 3,000-message session.
class ToolCall(NamedTuple):
    id: str
    name: str
    arguments: str


class View(NamedTuple):
    """What the engine needs to know of one message."""

    role: str  # system | user | assistant | tool (developer reads as system, function as tool)
    text: str
    calls: tuple[ToolCall, ...] = ()
    call_id: str | None = None
    tool_name: str | None = None
    is_error: bool = False
    extra_chars: int = 0  # non-text parts

    @property
    def chars(self) -> int:
        if not self.calls:
            return len(self.text) + self.extra_chars
        return len(self.text) + self.extra_chars + sum(len(c.name) + len(c.arguments) for c in self.calls)


def _text_of(content: Any) -> tuple[str, int]:
    if content is None:
        return "", 0
    if isinstance(content, str):
        return content, 0
    texts: list[str] = []
    extra = 0
    for part in content:
        kind = part.get("type") if isinstance(part, dict) else None
        if isinstance(kind, str) and kind in TEXT_PARTS:  # a str check first: hosts' messages are unchecked
            texts.append(str(part.get(TEXT_PARTS[kind], "")))
        elif isinstance(part, str):
            texts.append(part)
        elif isinstance(kind, str) and kind in THINKING_PART_FIELDS:
            extra += sum(_size(part.get(field)) for field in THINKING_PART_FIELDS[kind])
        else:
            extra += NON_TEXT_PART_CHARS
    return "\n".join(texts), extra


def _size(value: Any) -> int:
    """Characters a thinking field holds (a string, or JSON such as reasoning_details)."""
    if value is None:
        return 0
    return len(value) if isinstance(value, str) else len(json.dumps(value, ensure_ascii=False))


def view_of(message: dict[str, Any]) -> View:
    """Read an OpenAI chat message (already validated) into a View."""
    role = message.get("role", "user")
    content = message.get("content")
    text, extra = (content, 0) if type(content) is str else _text_of(content)
    if role == "tool" or role == "function":
        return View("tool", text, (), message.get("tool_call_id"), message.get("name"),
                    bool(message.get("is_error")), extra)
    if role == "assistant":
        for field in REASONING_FIELDS:  # a provider's thinking beside the content, sent back by some hosts
            if field in message:
                extra += _size(message[field])
        return View(role, text, _calls(message), None, None, False, extra)
    if role == "developer":
        role = "system"
    return View(role, text, (), None, None, False, extra)


def _calls(message: dict[str, Any]) -> tuple[ToolCall, ...]:
    calls = message.get("tool_calls")
    if calls:
        return tuple([_call(call.get("id", ""), call.get("function") or {}) for call in calls])
    legacy = message.get("function_call")
    if isinstance(legacy, dict):
        # The legacy single-call form; its answer is a "function" message, matched by name.
        return (_call("", legacy),)
    return ()


def _call(call_id: Any, function: dict[str, Any]) -> ToolCall:
    name = function.get("name", "")
    arguments = function.get("arguments")
    return ToolCall(call_id if type(call_id) is str else str(call_id), name if type(name) is str else str(name),
                    arguments if type(arguments) is str else _arguments(arguments))


def _arguments(arguments: Any) -> str:
    if arguments is None:
        return ""
    return arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)


def digest(message: Any) -> str:
    """A stable content hash of a message (key order does not matter; every field counts).

    The hash is taken over a self-delimiting canonical text of the message (see
    :func:`_canonical`), not over sorted JSON: JSON escapes every newline and quote of a long tool
    result, which cost four times the hashing itself.
    """
    text = _canonical(message)
    try:
        raw = text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate (from a JSON "\\ud800" escape): hash it all the same
        raw = text.encode("utf-8", "surrogatepass")
    return hashlib.sha256(raw).hexdigest()[:32]


def _canonical(value: Any) -> str:
    """A text that determines ``value`` (JSON-like data): no two values share one.

    Every item is tagged and carries its length or a terminator, so concatenations cannot
    collide: ``s<len>'<chars>`` for a string, ``{<n>:`` and n key/value pairs in key order for an
    object, ``[<n>:`` and n items for an array, ``i<int>;``, ``f<repr>;``, ``t``, ``f``, ``n``;
    anything else as the string of it (as ``json.dumps(default=str)`` did).
    """
    kind = type(value)
    if kind is str:
        return f"s{len(value)}'{value}"
    if kind is dict:
        return _canonical_dict(value)
    if kind is list or kind is tuple:
        return f"[{len(value)}:" + "".join([_canonical(item) for item in value])
    if value is None:
        return "n"
    if kind is bool:
        return "t" if value else "f"
    if kind is int:
        return f"i{value};"
    if kind is float:
        return f"f{value!r};"
    return _canonical_other(value)


def _canonical_dict(value: dict[Any, Any]) -> str:
    try:
        keys = sorted(value)
    except TypeError:  # keys of mixed types: order them by their canonical text
        keys = sorted(value, key=_canonical)
    parts = [f"{{{len(value)}:"]
    append = parts.append
    for key in keys:
        item = value[key]
        # Strings inline: most keys and values are, and a call per item is most of the cost.
        append(f"s{len(key)}'{key}" if type(key) is str else _canonical(key))
        append(f"s{len(item)}'{item}" if type(item) is str else _canonical(item))
    return "".join(parts)


def _canonical_other(value: Any) -> str:
    if isinstance(value, str):
        return _canonical(str(value))
    if isinstance(value, dict):
        return _canonical_dict(value)
    if isinstance(value, (list, tuple)):
        return _canonical(list(value))
    if isinstance(value, bool):
        return _canonical(bool(value))
    if isinstance(value, int):
        return _canonical(int(value))
    if isinstance(value, float):
        return _canonical(float(value))
    text = str(value)
    return f"o{len(text)}'{text}"


def with_text(message: dict[str, Any], text: str) -> dict[str, Any]:
    """A copy of ``message`` whose content is ``text`` (every other field kept)."""
    changed = dict(message)
    changed["content"] = text
    return changed


def prepend_text(message: dict[str, Any], text: str) -> dict[str, Any]:
    """A copy of a user message with ``text`` in front of its content."""
    content = message.get("content")
    changed = dict(message)
    if isinstance(content, list):
        changed["content"] = [{"type": "text", "text": text}, *content]
    else:
        changed["content"] = f"{text}\n\n{content or ''}"
    return changed


def user_message(text: str) -> dict[str, Any]:
    return {"role": "user", "content": text}


# --- text every layer can write -----------------------------------------------------------------
#
# A Python string can hold a lone UTF-16 surrogate, which no UTF-8 writer accepts: SQLite, tiktoken
# and an HTTP body all raise UnicodeEncodeError on it. Node's JSON.stringify writes one for half an
# emoji ("\\ud83d"), and JSON bytes ``ed a0 80`` decode to one. Every host repairs what it reads with
# :func:`repaired` before anything else sees it, so the same text reaches the hooks from every host.

T = TypeVar("T")
_SURROGATE = re.compile("[\ud800-\udfff]")
# What a JSON text must hold to decode to a surrogate: an escape \uD800-\uDFFF, or its UTF-8-like bytes.
# Two patterns, each looked for only when its first bytes occur at all: one alternation took 85 ms on a
# 9 MB line (no literal prefix to skip ahead by), these 0.5-10 ms.
_ESCAPED_SURROGATE = re.compile(rb"\\u[dD][89a-fA-F]")
_ENCODED_SURROGATE = re.compile(rb"\xed[\xa0-\xbf]")


def repaired_text(text: str) -> str:
    """``text`` with each lone surrogate made U+FFFD and a pair split in two joined; ``text`` itself
    when it has none (the common case costs a scan, no copy)."""
    if text.isascii() or not _SURROGATE.search(text):
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def repaired(value: T, raw: bytes | None = None) -> T:
    """JSON-like ``value`` with every string in it (keys too) passed through :func:`repaired_text`.

    ``value`` itself comes back when nothing needs repair (for ``raw``, the JSON bytes it was read
    from, that is told from the bytes alone); otherwise a repaired copy, so a caller's objects are
    never changed in place.
    """
    if raw is not None and not _may_hold_surrogates(raw):
        return value
    if isinstance(value, str):
        return repaired_text(value)  # type: ignore[return-value]
    try:
        if not _holds_surrogates(value):
            return value
    except RecursionError:  # nested past Python's stack: JSON's own encoder tells
        pass
    text = json.dumps(value, ensure_ascii=False, default=str)
    fixed = repaired_text(text)
    return value if fixed is text else json.loads(fixed)


def _may_hold_surrogates(raw: bytes) -> bool:
    if b"\\u" in raw and _ESCAPED_SURROGATE.search(raw):
        return True
    return b"\xed" in raw and _ENCODED_SURROGATE.search(raw) is not None


def _holds_surrogates(value: Any) -> bool:
    """Whether any string in JSON-like ``value`` (keys too) holds a surrogate; other types hold none
    that JSON would write (``default=str`` ones are checked by the caller's fallback only)."""
    kind = type(value)
    if kind is str:
        return not value.isascii() and _SURROGATE.search(value) is not None
    if kind is dict:
        return any(map(_holds_surrogates, value.values())) or any(map(_holds_surrogates, value))
    if kind is list or kind is tuple:
        return any(map(_holds_surrogates, value))
    if isinstance(value, (str, dict, list, tuple)):  # subclasses: as JSON would see them
        return _SURROGATE.search(json.dumps(value, ensure_ascii=False, default=str)) is not None
    return False


def repaired_messages(messages: list[T]) -> list[T]:
    """``messages`` with each message that holds a lone surrogate replaced by a repaired copy; the
    list itself when none does (every other message is the caller's own object)."""
    out = [repaired(message) for message in messages]
    return messages if all(map(operator.is_, out, messages)) else out


# --- validation of untrusted input (CLI, gateway) -------------------------------------------------


def _check_content(content: Any, where: str, role: str) -> None:
    if content is None:
        if role in ("user", "tool", "function"):
            raise InputError(f"{role} message has no content", where=where)
        return
    if isinstance(content, str):
        return
    if not isinstance(content, list):
        raise InputError(
            f"content must be a string or a list of parts, not {type(content).__name__}", where=where
        )
    for j, part in enumerate(content):
        if isinstance(part, str):
            continue
        if not isinstance(part, dict):
            raise InputError(f"a content part must be an object, not {type(part).__name__}", where=f"{where}[{j}]")
        kind = part.get("type")
        if not isinstance(kind, str):
            raise InputError("a content part needs a string 'type' (such as \"text\" or \"image_url\")",
                             where=f"{where}[{j}]")
        if kind in TEXT_PARTS and not isinstance(part.get(TEXT_PARTS[kind]), str):
            raise InputError(f"a {kind} part needs a string {TEXT_PARTS[kind]!r}", where=f"{where}[{j}]")


def _check_tool_calls(calls: Any, where: str) -> list[str]:
    if not isinstance(calls, list):
        raise InputError(f"tool_calls must be a list, not {type(calls).__name__}", where=where)
    ids = []
    for j, call in enumerate(calls):
        spot = f"{where}[{j}]"
        if not isinstance(call, dict) or not isinstance(call.get("function"), dict):
            raise InputError("a tool call needs a 'function' object with 'name' and 'arguments'", where=spot)
        if not isinstance(call["function"].get("name"), str):
            raise InputError("a tool call's function needs a string 'name'", where=f"{spot}.function")
        if not isinstance(call["function"].get("arguments", ""), (str, dict)):
            raise InputError("a tool call's 'arguments' must be a JSON string or an object",
                             where=f"{spot}.function.arguments")
        if not isinstance(call.get("id"), str) or not call["id"]:
            raise InputError("a tool call needs a non-empty string 'id'", where=spot)
        ids.append(call["id"])
    return ids


def validate_messages(data: Any, where: str = "messages") -> list[dict[str, Any]]:
    """Check that ``data`` is a non-empty list of OpenAI chat messages; raise InputError naming the spot.

    Checks: each item is an object with a known role; content is a string, a list of parts or
    absent where allowed; tool calls are well formed; every tool message answers a call made
    earlier in the conversation.
    """
    if not isinstance(data, list):
        raise InputError(f"expected a list of messages, got {type(data).__name__}", where=where)
    if not data:
        raise InputError("the list of messages is empty; there is nothing to compact", where=where)
    open_calls: set[str] = set()
    for i, message in enumerate(data):
        spot = f"{where}[{i}]"
        if not isinstance(message, dict):
            raise InputError(f"a message must be an object, not {type(message).__name__}", where=spot)
        role = message.get("role")
        if role is None:
            raise InputError("message has no 'role'", where=spot)
        if role not in ROLES:
            raise InputError(f"unknown role {role!r} (expected one of {', '.join(ROLES)})", where=f"{spot}.role")
        content = message.get("content")
        if type(content) is not str:  # most content is a string: nothing more to check
            _check_content(content, f"{spot}.content", role)
        if role == "assistant" and message.get("tool_calls") is not None:
            open_calls.update(_check_tool_calls(message["tool_calls"], f"{spot}.tool_calls"))
        if role == "tool":
            call_id = message.get("tool_call_id")
            if not isinstance(call_id, str):
                raise InputError("tool message has no string 'tool_call_id'", where=spot)
            if call_id not in open_calls:
                raise InputError(f"tool message answers call {call_id!r}, which no earlier assistant message made", where=spot)
    return data
