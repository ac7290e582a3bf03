"""The OpenAI-compatible pieces every fake model server here shares (standard library only).

The text of a message's content, the fakes' "tokenizer", the JSON shapes of chat answers and of
their server-sent events, the ``/v1/models`` list, and the six-section summary a good model writes.
"""

from __future__ import annotations

import json
import math
from typing import Any

SECTIONS = ("Goal and standing instructions", "Decisions", "Files and commands", "Failed attempts",
            "Current state", "Next steps")
DONE = b"data: [DONE]\n\n"


def sectioned(tag: str = "fake") -> str:
    """A well-formed six-section summary, as a good model would write it."""
    return "\n".join(f"## {title}\n- {tag}: {title.lower()} item" for title in SECTIONS)


def text_of(content: Any, sep: str = " ") -> str:
    """The text of a message's ``content``: a string, or the ``text`` of its parts joined by ``sep``."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return sep.join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    return ""


def count_tokens(body: dict[str, Any], chars_per_token: float = 3.5, template_tokens_per_message: int = 5) -> int:
    """Tokens the fakes' "tokenizer" counts for a chat request: characters of the message texts, tool
    calls and tools over ``chars_per_token``, plus a chat-template overhead per message."""
    chars = 0
    messages = body.get("messages") or []
    for message in messages:
        chars += len(text_of(message.get("content")))
        for call in message.get("tool_calls") or ():
            function = call.get("function") or {}
            chars += len(str(function.get("name", ""))) + len(str(function.get("arguments", "")))
    if body.get("tools"):
        chars += len(json.dumps(body["tools"]))
    return math.ceil(chars / chars_per_token) + template_tokens_per_message * len(messages) + 4


def tool_call(call_id: str, name: str, arguments: str | dict[str, Any]) -> dict[str, Any]:
    """An assistant message calling ``name`` once; ``arguments`` as the JSON text sent (a dict is encoded)."""
    text = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return {"role": "assistant", "content": None, "tool_calls": [
        {"id": call_id, "type": "function", "function": {"name": name, "arguments": text}}]}


def offers_tool(body: dict[str, Any], name: str) -> bool:
    """Whether the chat request ``body`` offers the model a tool called ``name``."""
    return any((t.get("function") or {}).get("name") == name for t in body.get("tools") or [])


def usage(prompt_tokens: int, completion_tokens: int) -> dict[str, int]:
    return {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens}


def completion(message: dict[str, Any], *, id: str, model: str, created: int, finish: str = "stop",
               usage: dict[str, int] | None = None) -> dict[str, Any]:
    """A whole (not streamed) ``chat.completion`` answer carrying ``message``."""
    answer: dict[str, Any] = {"id": id, "object": "chat.completion", "created": created, "model": model,
                              "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": finish}]}
    if usage is not None:
        answer["usage"] = usage
    return answer


def chat_reply(text: str, finish: str = "stop", prompt_tokens: int = 100) -> dict[str, Any]:
    """A canned assistant answer of ``text`` (20 completion tokens)."""
    return completion({"role": "assistant", "content": text}, id="chatcmpl-fake", model="fake", created=1,
                      finish=finish, usage=usage(prompt_tokens, 20))


def chunk(base: dict[str, Any], delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    """One ``chat.completion.chunk`` event; ``base`` holds its id, model and created time."""
    return {**base, "object": "chat.completion.chunk",
            "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}]}


def sse(data: Any) -> bytes:
    """``data`` (JSON) as one server-sent event."""
    return b"data: " + json.dumps(data).encode() + b"\n\n"


def models_list(model_id: str, **fields: Any) -> dict[str, Any]:
    """The ``GET /v1/models`` answer listing one model (``fields`` added to its entry)."""
    return {"object": "list", "data": [{"id": model_id, "object": "model", "owned_by": "fake", **fields}]}
