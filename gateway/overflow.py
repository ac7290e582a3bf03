"""Recognising a model server's "the prompt is longer than my context window" answer.

Pure functions over a status code and a response body. The shapes come from the servers people run:

    llama-cpp-python  400 {"error": {"message": "This model's maximum context length is 2048 tokens. ...",
                                     "code": "context_length_exceeded", ...}}
                      (streaming: 200 with an empty event stream; see ``EMPTY_STREAM``)
    llama.cpp server  400 {"error": {"message": "request (4476 tokens) exceeds the available context size
                                     (4096 tokens), try increasing it", "type": "exceed_context_size_error",
                                     "n_prompt_tokens": 4476, "n_ctx": 4096}}
    Ollama            the llama.cpp shape, sometimes as a JSON string inside {"error": "..."}
    vLLM              400 {"object": "error", "message": "This model's maximum context length is 4096 tokens.
                                     However, you requested ...", "type": "BadRequestError", "code": 400}
    LM Studio         400 {"error": "Trying to keep the first 10136 tokens when context the overflows. However,
                                     the model is loaded with context length of only 7866 tokens, ..."}
                      or "... greater than the context length (n_keep: 10247 >= n_ctx: 4096) ..."
    OpenAI            400 {"error": {"message": "This model's maximum context length is 128000 tokens. ...",
                                     "code": "context_length_exceeded"}}
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

MAX_ERROR_BYTES = 256 * 1024  # an error body larger than this is not an overflow report we can read

_PHRASES = (
    "context_length_exceeded", "exceed_context_size_error", "maximum context length",
    "exceeds the available context size", "context length of only", "greater than the context length",
    "cannot truncate prompt", "exceed context window", "context window of", "context length exceeded",
    "input is too long", "prompt is too long", "too many tokens", "exceeds the context window",
    "input length exceeds", "context size has been exceeded",
)
_WINDOW_PATTERNS = (
    re.compile(r"maximum context length is (\d+)", re.I),
    re.compile(r"available context size \((\d+)", re.I),
    re.compile(r"context length of only (\d+)", re.I),
    re.compile(r"n_ctx\W{0,4}(\d+)", re.I),
    re.compile(r"context window of (\d+)", re.I),
    re.compile(r"context (?:length|window|size) (?:is|of) (\d+)", re.I),
)
_PROMPT_PATTERNS = (
    re.compile(r"request \((\d+) tokens\)", re.I),
    re.compile(r"(\d+) in the messages", re.I),
    re.compile(r"messages resulted in (\d+)", re.I),
    re.compile(r"keep the first (\d+) tokens", re.I),
    re.compile(r"n_keep\W{0,4}(\d+)", re.I),
    re.compile(r"requested tokens \((\d+)\)", re.I),
)

EMPTY_STREAM = "the upstream ended the event stream without sending any event"


@dataclass(frozen=True)
class Overflow:
    """A context-length error: the window the server stated (if it did) and its prompt count."""

    message: str
    window: int | None = None
    prompt_tokens: int | None = None


def _texts(data: Any) -> list[str]:
    """Every string in an error body, nested JSON-in-a-string included (Ollama wraps llama.cpp's)."""
    out: list[str] = []
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
            out.extend(f"{k}: {v}" for k, v in item.items() if isinstance(v, (int, float)) and not isinstance(v, bool))
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str):
            out.append(item)
            if item.startswith("{"):
                try:
                    stack.append(json.loads(item))
                except ValueError:
                    pass
    return out


def _first(patterns: tuple[re.Pattern[str], ...], text: str) -> int | None:
    for pattern in patterns:
        match = pattern.search(text)
        if match:
            return int(match.group(1))
    return None


def detect(status: int, body: bytes) -> Overflow | None:
    """The overflow a failed response reports, or None when it is some other error."""
    if status < 400 or status == 429 or not body or len(body) > MAX_ERROR_BYTES:
        return None
    try:
        data: Any = json.loads(body)
    except ValueError:
        data = body.decode("utf-8", "replace")
    text = "\n".join(_texts(data))
    low = text.lower()
    if not any(phrase in low for phrase in _PHRASES):
        return None
    window = _first(_WINDOW_PATTERNS, text)
    prompt = _first(_PROMPT_PATTERNS, text)
    if isinstance(data, dict) and isinstance(data.get("error"), dict):
        error = data["error"]
        window = error.get("n_ctx") if isinstance(error.get("n_ctx"), int) else window
        prompt = error.get("n_prompt_tokens") if isinstance(error.get("n_prompt_tokens"), int) else prompt
    message = next((t for t in _texts(data) if any(p in t.lower() for p in _PHRASES)), text)
    return Overflow(message=message[:500], window=window if window and window > 0 else None, prompt_tokens=prompt)
