"""OpenAI Responses requests (stateless, as Codex sends them) <-> the OpenAI chat dicts the hooks read.

A request's ``instructions`` is the fixed part; ``input`` is a string (one user message) or items:

    message                {role: user | assistant | system | developer, content: str | [input_text | output_text | ...]}
    reasoning              {summary, encrypted_content}: opaque thinking, kept in the current tool loop
    function_call          {call_id, name, arguments}, and custom_tool_call, local_shell_call, shell_call, apply_patch_call
    function_call_output   {call_id, output}, and the outputs of the calls above
    anything else          (compaction, item_reference, ...): opaque, counted

:func:`to_openai` makes one assistant message of each run of reasoning, assistant message and call items
(its calls as ``tool_calls``), and a tool message of each output. Content parts and reasoning go in as
parts the engine knows (text read, reasoning sized); :func:`to_responses` brings the projection back as
items: the client's own item objects wherever the engine kept what they stood for.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .anthropic_adapter import Origins

Item = dict[str, Any]
INSTRUCTIONS = -1
CALL_TYPES = frozenset({"function_call", "custom_tool_call", "local_shell_call", "shell_call", "apply_patch_call",
                        "computer_call", "mcp_call", "tool_search_call"})
OUTPUT_TYPES = frozenset({"function_call_output", "custom_tool_call_output", "local_shell_call_output",
                          "shell_call_output", "apply_patch_call_output", "computer_call_output",
                          "tool_search_output"})


@dataclass
class Converted:
    """OpenAI dicts for the hooks; for each, the items it stands for."""

    messages: list[Item] = field(default_factory=list)
    items: list[list[Item]] = field(default_factory=list)
    part_item: dict[int, Item] = field(default_factory=dict)  # id(part) -> the item it is (or is a part of)
    calls: dict[str, Item] = field(default_factory=dict)  # call id -> its call item; "out:" + id -> its output

    def add(self, message: Item, items: list[Item]) -> None:
        self.messages.append(message)
        self.items.append(items)


def call_id(item: Item) -> str:
    return str(item.get("call_id") or item.get("id") or "")


def _arguments(item: Item) -> str:
    for name in ("arguments", "input"):
        if isinstance(item.get(name), str):
            return str(item[name])
    rest = {k: v for k, v in item.items() if k not in ("type", "id", "call_id", "status", "name")}
    return json.dumps(rest, ensure_ascii=False, sort_keys=True)


def _output(item: Item) -> Any:
    output = item.get("output")
    if isinstance(output, str):
        return output
    if isinstance(output, list) and all(isinstance(p, dict) and isinstance(p.get("type"), str) for p in output):
        return output
    return json.dumps(output, ensure_ascii=False)


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    return "\n".join(str(p.get("text", "")) for p in content or [] if isinstance(p, dict) and "text" in p)


def to_openai(body: dict[str, Any]) -> Converted:
    """The request's instructions and input as OpenAI chat dicts (see the module docstring)."""
    out = Converted()
    if isinstance(body.get("instructions"), str) and body["instructions"]:
        out.add({"role": "system", "content": body["instructions"]}, [])
    items = body.get("input")
    if isinstance(items, str):
        items = [{"type": "message", "role": "user", "content": items}]
    group: tuple[Item, list[Item]] | None = None
    for item in items or []:
        if not isinstance(item, dict):
            raise TypeError(f"an input item must be an object, not {type(item).__name__}")
        kind = item.get("type", "message")
        role = item.get("role")
        if kind == "message" and role != "assistant":
            group = None
            out.add({"role": "system" if role in ("system", "developer") else "user",
                     "content": _message_content(item.get("content"))}, [item])
        elif kind in OUTPUT_TYPES:
            group = None
            out.calls["out:" + call_id(item)] = item
            out.add({"role": "tool", "tool_call_id": call_id(item), "content": _output(item)}, [item])
        else:
            if group is None:
                group = ({"role": "assistant", "content": []}, [])
                out.add(*group)
            _assistant_item(item, kind, group, out)
    return out


def _message_content(content: Any) -> Any:
    """A user or developer message's content for the hooks: a text when it is text parts only (Codex sends each
    message as one ``input_text``: a string is read and measured at a fraction of the cost of parts), else its parts.
    An unchanged message goes back as the client's item all the same."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    if content and all(isinstance(p, dict) and p.get("type") == "input_text" and isinstance(p.get("text"), str)
                       and len(p) == 2 for p in content):
        return "\n".join(p["text"] for p in content)
    return content


def _assistant_item(item: Item, kind: str, group: tuple[Item, list[Item]], out: Converted) -> None:
    message, items = group
    items.append(item)
    if kind in CALL_TYPES:
        out.calls[call_id(item)] = item
        call = {"id": call_id(item), "type": "function",
                "function": {"name": str(item.get("name") or kind), "arguments": _arguments(item)}}
        message.setdefault("tool_calls", []).append(call)
        return
    if kind == "message":
        content = item.get("content")
        parts = content if isinstance(content, list) else [{"type": "output_text", "text": str(content or "")}]
    elif kind == "reasoning":  # signed by its encrypted content, so the current tool loop keeps it
        parts = [{**item, "signature": item.get("encrypted_content") or ""}]
    else:
        parts = [item]
    for part in parts:
        out.part_item[id(part)] = item
        message["content"].append(part)


def assistant_message(items: list[Item], conv: Converted) -> Item:
    """A response's output items (from the model) as one assistant chat message; the items are remembered in
    ``conv``, so they go back upstream as they came (reasoning with its encrypted content, calls)."""
    group: tuple[Item, list[Item]] = ({"role": "assistant", "content": []}, [])
    for item in items:
        if isinstance(item, dict):
            _assistant_item(item, str(item.get("type", "message")), group, conv)
    return group[0]


# --- back to Responses ----------------------------------------------------------------------------


def to_responses(projection: Sequence[Any], conv: Converted, body: dict[str, Any]) -> tuple[Any, list[Item]]:
    """The ``instructions`` and ``input`` items to send for ``projection``."""
    where = Origins(conv.messages)
    instructions = body.get("instructions")
    leading = bool(conv.messages) and not conv.items[0]
    items: list[Item] = []
    for n, message in enumerate(projection):
        index = where.find(message)
        if index is not None:
            items.extend(conv.items[index])
            continue
        if not isinstance(message, dict):
            continue
        role = message.get("role")
        if role == "system" and n == 0 and leading:
            instructions = _added(instructions, message, conv)
        elif role == "tool":
            items.append(_result(message, conv))
        elif role == "assistant":
            items.extend(_assistant(message, conv))
        else:
            items.append(_message(message))
    return instructions, items


def _added(instructions: Any, message: Item, conv: Converted) -> Any:
    text = str(message.get("content") or "")
    before = str(conv.messages[0].get("content") or "")
    return text if text.startswith(before) else f"{instructions}\n\n{text}"


def _message(message: Item) -> Item:
    role = "developer" if message.get("role") in ("system", "developer") else "user"
    content = message.get("content")
    if isinstance(content, str):
        return {"type": "message", "role": role, "content": [{"type": "input_text", "text": content}]}
    parts = [{"type": "input_text", "text": p["text"]} if isinstance(p, dict) and p.get("type") == "text" else p
             for p in content or []]
    return {"type": "message", "role": role, "content": parts}


def _result(message: Item, conv: Converted) -> Item:
    original = conv.calls.get("out:" + str(message.get("tool_call_id")))
    if original is None:  # a result of the gateway's own (recall, a refused call): the output type of its call
        call = conv.calls.get(str(message.get("tool_call_id")))
        kind = f"{call.get('type')}_output" if call is not None else ""
        return {"type": kind if kind in OUTPUT_TYPES else "function_call_output", "call_id": message.get("tool_call_id"),
                "output": _text(message.get("content"))}
    if _output(original) == message.get("content"):
        return original
    content = message.get("content")
    return {**original, "output": content if isinstance(content, str) else _text(content)}


def _assistant(message: Item, conv: Converted) -> list[Item]:
    """A changed assistant message: the items whose parts all survived, new text as a message of its own, calls."""
    content = message.get("content")
    parts = content if isinstance(content, list) else [{"type": "output_text", "text": content}] if content else []
    kept: list[Item] = []
    new: list[Any] = []
    for part in parts:
        item = conv.part_item.get(id(part))
        if item is None:
            new.append({"type": "output_text", "text": str(part.get("text", "")), "annotations": []}
                       if isinstance(part, dict) and "text" in part else part)
        elif not any(k is item for k in kept):
            kept.append(item)
    out = []
    for item in kept:
        if item.get("type", "message") == "message" and not _whole(item, parts):  # its surviving parts, as new text
            new = [p for p in item["content"] if any(p is q for q in parts)] + new
        else:
            out.append(item)
    if new:
        out.append({"type": "message", "role": "assistant", "content": new})
    for call in message.get("tool_calls") or []:
        out.append(_call(call, conv))
    return out


def _whole(item: Item, parts: list[Any]) -> bool:
    content = item.get("content")
    ids = {id(p) for p in parts}
    return not isinstance(content, list) or all(id(p) in ids for p in content)


def _call(call: Item, conv: Converted) -> Item:
    function = call.get("function") or {}
    original = conv.calls.get(str(call.get("id")))
    arguments = str(function.get("arguments") or "")
    if original is None:
        return {"type": "function_call", "call_id": call.get("id"), "name": function.get("name"), "arguments": arguments}
    if _arguments(original) == arguments:
        return original
    name = "arguments" if "arguments" in original else "input" if "input" in original else "arguments"
    return {**original, name: arguments}
