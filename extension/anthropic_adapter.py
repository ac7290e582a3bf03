"""Anthropic Messages requests <-> the OpenAI chat dicts the hooks read, and back again by identity.

An Anthropic request (``POST /v1/messages``, as Claude Code sends it) holds:

    system      a string, or text blocks (with ``cache_control``): the fixed part, sent back unchanged
    messages    {role: user | assistant | system, content: str | [block]}
                user blocks: text, image, document, tool_result {tool_use_id, content, is_error}, ...
                assistant blocks: thinking {thinking, signature}, redacted_thinking {data}, text,
                tool_use {id, name, input}, server_tool_use, web_search_tool_result, compaction, ...
    tools       {name, description, input_schema} (or a server tool {type, name, ...})

:func:`to_openai` converts them. Most blocks are already content parts the engine knows (a text
block reads as text, a thinking block is sized and left out before the last user turn, anything else
is counted as a non-text part), so they go in as the very same objects; only ``tool_use`` becomes an
assistant's ``tool_calls`` and ``tool_result`` a ``tool`` message of its own (before the user's other
blocks, where the API wants it). :func:`to_anthropic` turns the projection the hooks return back into
Anthropic messages: a message whose pieces all came back unchanged is the client's own object; a
changed one is rebuilt from its parts, each part the engine kept going back as the client's own
block; consecutive messages of one role are joined (tool results first), so roles keep alternating.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

Message = dict[str, Any]
SYSTEM = -1  # origin of the top-level system prompt


@dataclass
class Converted:
    """OpenAI dicts for the hooks, and for each the index of the Anthropic message it came from."""

    messages: list[Message] = field(default_factory=list)
    origin: list[int] = field(default_factory=list)
    blocks: dict[str, Message] = field(default_factory=dict)  # tool_use / tool_result block by its call id
    pieces: dict[int, int] = field(default_factory=dict)  # Anthropic index -> how many converted messages it became

    def add(self, message: Message, origin: int) -> None:
        self.messages.append(message)
        self.origin.append(origin)
        self.pieces[origin] = self.pieces.get(origin, 0) + 1


def system_text(system: Any) -> str:
    """The text of a top-level ``system`` (a string or text blocks)."""
    if isinstance(system, str):
        return system
    if isinstance(system, list):
        return "\n".join(str(b.get("text", "")) for b in system if isinstance(b, dict) and b.get("type") == "text")
    return ""


def tools_to_openai(tools: Any) -> list[Any]:
    """Anthropic tool definitions as OpenAI ``tools`` entries (for measuring); server tools as they are."""
    out: list[Any] = []
    for tool in tools if isinstance(tools, list) else []:
        if isinstance(tool, dict) and "input_schema" in tool:
            function = {"name": tool.get("name", ""), "description": tool.get("description", ""),
                        "parameters": tool.get("input_schema")}
            out.append({"type": "function", "function": function})
        else:
            out.append(tool)
    return out


def _result_content(content: Any) -> Any:
    """A ``tool_result``'s content as a tool message's: a string, or its blocks as parts."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list) and all(isinstance(b, dict) and isinstance(b.get("type"), str) for b in content):
        return content
    return json.dumps(content, ensure_ascii=False)


def _arguments(block: Message) -> str:
    return json.dumps(block.get("input", {}), ensure_ascii=False)


def to_openai(body: dict[str, Any]) -> Converted:
    """The request's system prompt and messages as OpenAI chat dicts (see the module docstring)."""
    out = Converted()
    system = body.get("system")
    if system:
        out.add({"role": "system", "content": system_text(system)}, SYSTEM)
    for i, message in enumerate(body.get("messages") or []):
        role = message.get("role") if isinstance(message, dict) else None
        content = message.get("content") if isinstance(message, dict) else None
        if role == "assistant":
            out.add(_assistant(content, out), i)
        elif role == "system":
            out.add({"role": "system", "content": content if isinstance(content, (str, list)) else ""}, i)
        elif isinstance(content, list):
            _user(content, i, out)
        else:
            out.add({"role": "user", "content": content if isinstance(content, str) else ""}, i)
    return out


def _user(content: list[Any], origin: int, out: Converted) -> None:
    """A user message: each tool result a tool message, then the other blocks (if any) as one user message."""
    rest = []
    for block in content:
        if isinstance(block, dict) and block.get("type") == "tool_result":
            call_id = str(block.get("tool_use_id", ""))
            tool: Message = {"role": "tool", "tool_call_id": call_id, "content": _result_content(block.get("content"))}
            if block.get("is_error"):
                tool["is_error"] = True
            out.blocks["result:" + call_id] = block
            out.add(tool, origin)
        elif isinstance(block, dict) and isinstance(block.get("type"), str):
            rest.append(block)
        else:
            rest.append({"type": "text", "text": str(block)})
    if rest or not content:
        out.add({"role": "user", "content": rest}, origin)


def _assistant(content: Any, out: Converted) -> Message:
    if not isinstance(content, list):
        return {"role": "assistant", "content": content if isinstance(content, str) else ""}
    parts, calls = [], []
    for block in content:
        if isinstance(block, dict) and block.get("type") == "tool_use":
            call_id = str(block.get("id", ""))
            out.blocks["use:" + call_id] = block
            calls.append({"id": call_id, "type": "function",
                          "function": {"name": str(block.get("name", "")), "arguments": _arguments(block)}})
        elif isinstance(block, dict) and isinstance(block.get("type"), str):
            parts.append(block)
    message: Message = {"role": "assistant", "content": parts or None}
    if calls:
        message["tool_calls"] = calls
    return message


def assistant_message(content: list[Any], conv: Converted) -> Message:
    """A reply's content blocks (from the model, not the client) as the assistant chat message the hooks read;
    its ``tool_use`` blocks are remembered in ``conv``, so they go back upstream as they came."""
    return _assistant(content, conv)


class Origins:
    """Which converted message a projection's message is: by identity, else (a message the session kept from an
    earlier request of the conversation, an equal copy) by value, each converted message found once, in order."""

    def __init__(self, converted: Sequence[Any]) -> None:
        self.converted = converted
        self.by_id = {id(m): i for i, m in enumerate(converted)}
        self.by_value: dict[str, list[int]] | None = None

    def find(self, message: Any) -> int | None:
        index = self.by_id.get(id(message))
        if index is not None or not isinstance(message, dict):
            return index
        if self.by_value is None:
            self.by_value = {}
            for i, m in enumerate(self.converted):
                self.by_value.setdefault(_key(m), []).append(i)
        found = self.by_value.get(_key(message))
        return found.pop(0) if found else None


def _key(message: Any) -> str:
    return json.dumps(message, sort_keys=True, ensure_ascii=False, default=str)


# --- back to Anthropic --------------------------------------------------------------------------


def to_anthropic(projection: Sequence[Any], conv: Converted, body: dict[str, Any]) -> tuple[Any, list[Message]]:
    """The ``system`` and ``messages`` to send for ``projection`` (the hooks' messages).

    The client's system prompt stays as sent (its ``cache_control`` with it); text the hooks added to
    the leading system message (or a system message of their own) follows it as one more text block.
    """
    originals = body.get("messages") or []
    where = Origins(conv.messages)
    system = body.get("system")
    groups: list[tuple[str, list[Any], list[int]]] = []  # role, blocks, converted indexes kept as they were
    for message in projection:
        index = where.find(message)
        if index is not None and conv.origin[index] == SYSTEM:
            continue
        role = message.get("role") if isinstance(message, dict) else None
        if role == "system" and index is None and (not groups and _leading(conv)):
            system = _with_system(system, message, conv)
            continue
        if role == "system" and index is not None:
            groups.append(("system", [originals[conv.origin[index]]], [index]))
            continue
        anthropic_role = "assistant" if role == "assistant" else "user"
        blocks = _blocks(message, conv)
        if not blocks:
            continue
        if groups and groups[-1][0] == anthropic_role:
            groups[-1][1].extend(blocks)
            groups[-1][2].append(index if index is not None else -1)
        else:
            groups.append((anthropic_role, blocks, [index if index is not None else -1]))
    return system, [_message(role, blocks, kept, conv, originals) for role, blocks, kept in groups]


def _leading(conv: Converted) -> bool:
    return bool(conv.origin) and conv.origin[0] == SYSTEM


def _with_system(system: Any, message: Message, conv: Converted) -> Any:
    """The client's system prompt with the text the hooks added to (or put in) the leading system message."""
    content, first = message.get("content"), conv.messages[0].get("content") if _leading(conv) else ""
    text = content if isinstance(content, str) else ""
    before = first if isinstance(first, str) else ""
    added = text[len(before):].lstrip("\n") if text.startswith(before) else text
    if not added:
        return system
    if isinstance(system, list):
        return [*system, {"type": "text", "text": added}]
    return f"{system}\n\n{added}" if isinstance(system, str) and system else added


def _message(role: str, blocks: list[Any], kept: list[int], conv: Converted, originals: list[Any]) -> Any:
    """One Anthropic message: the client's own when it is every piece of one of its messages, unchanged."""
    if role == "system":
        return blocks[0]
    origins = {conv.origin[i] for i in kept if i >= 0}
    if -1 not in kept and len(origins) == 1:
        origin = origins.pop()
        if conv.pieces.get(origin) == len(kept):
            return originals[origin]
    if role == "user":  # tool results first, as the API wants them
        blocks = [b for b in blocks if _is_result(b)] + [b for b in blocks if not _is_result(b)]
    return {"role": role, "content": blocks}


def _is_result(block: Any) -> bool:
    return isinstance(block, dict) and block.get("type") == "tool_result"


def _blocks(message: Any, conv: Converted) -> list[Any]:
    """A (kept or changed) OpenAI message as Anthropic content blocks."""
    if not isinstance(message, dict):
        return []
    role = message.get("role")
    if role == "tool":
        return [_result(message, conv)]
    blocks = _parts(message.get("content"))
    if role == "assistant":
        for call in message.get("tool_calls") or []:
            blocks.append(_use(call, conv))
    return blocks


def _parts(content: Any) -> list[Any]:
    if isinstance(content, str):
        return [{"type": "text", "text": content}] if content else []
    if not isinstance(content, list):
        return []
    out = []
    for part in content:
        if isinstance(part, dict) and part.get("type") == "text" and not str(part.get("text") or ""):
            continue  # the API refuses an empty text block
        out.append(part if isinstance(part, dict) else {"type": "text", "text": str(part)})
    return out


def _result(message: Message, conv: Converted) -> Message:
    call_id = str(message.get("tool_call_id", ""))
    original = conv.blocks.get("result:" + call_id)
    content = message.get("content")
    if original is not None and _result_content(original.get("content")) == content:
        return original
    block: Message = {"type": "tool_result", "tool_use_id": call_id,
                      "content": content if isinstance(content, (str, list)) else str(content or "")}
    if message.get("is_error") or (original is not None and original.get("is_error")):
        block["is_error"] = True
    return block


def _use(call: Any, conv: Converted) -> Message:
    call_id = str(call.get("id", "")) if isinstance(call, dict) else ""
    function = call.get("function") or {} if isinstance(call, dict) else {}
    original = conv.blocks.get("use:" + call_id)
    arguments = function.get("arguments")
    if original is not None and _arguments(original) == arguments:
        return original
    try:
        value = json.loads(arguments) if isinstance(arguments, str) and arguments else {}
    except ValueError:
        value = {"input": arguments}
    if not isinstance(value, dict):
        value = {"input": value}
    return {"type": "tool_use", "id": call_id, "name": str(function.get("name", "")), "input": value}
