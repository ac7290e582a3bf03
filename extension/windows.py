"""The one authority on what a model server says about its context window.

A server that refuses a prompt for its length says so in its own words; every place that reads such
an answer (the gateway's overflow recovery, the summary client, ``after_turn`` bookkeeping) asks
:func:`read` or :func:`read_body` here, so they all agree on what is an overflow and what window it
states. The shapes come from the servers people run:

    llama.cpp server  400 {"error": {"message": "request (5000 tokens) exceeds the available context size
                                     (4096 tokens), try increasing it", "type": "exceed_context_size_error",
                                     "n_prompt_tokens": 5000, "n_ctx": 4096}}
                      older: "the request exceeds the available context size (4096 tokens)" or with no size
                      ("..., try increasing the context size or enable context shift"); while generating:
                      "Context size has been exceeded."
    llama-cpp-python  "Requested tokens (5000) exceed context window of 4096" (the library), and from its
                      server "This model's maximum context length is 2048 tokens. However, you requested
                      2671 tokens (2671 in the messages, None in the completion). ..."
    Ollama            llama.cpp's body as a JSON string inside {"error": "..."}; its own words state no
                      size ("input length exceeds the context length")
    LM Studio         "Trying to keep the first 10136 tokens when context the overflows. However, the model is
                      loaded with context length of only 7866 tokens, ..."; "... greater than the context
                      length (n_keep: 10247 >= n_ctx: 4096)"; "Cannot truncate prompt with n_keep (15028) >=
                      n_ctx (7424)"
    vLLM              "This model's maximum context length is 8192 tokens. However, you requested 9000 tokens
                      (8000 in the messages, 1000 in the completion). ..." or "... your request has 9000
                      input tokens ..."; "The decoder prompt (length 9000) is longer than the maximum model
                      length of 8192."
    OpenAI            "This model's maximum context length is 1024 tokens. However, your messages resulted in
                      1100 tokens. ..." (code context_length_exceeded); newer: "Your input exceeds the context
                      window of this model." (no size)
    Anthropic         "prompt is too long: 210000 tokens > 200000 maximum"

A size a server states is in *its* tokens; callers that plan in their own units scale by the
prompt count when the server gives one (``prompt_tokens``).

The other thing a server's count tells us is how much of the prompt we were never shown:
:class:`OverheadFit` learns, per session, the fixed tokens (a system prompt, tool schemas) a host
sends beside the messages it hands over.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from .tokens import MAX_RATIO, MIN_RATIO

MAX_ERROR_BYTES = 256 * 1024  # an error body larger than this is not an overflow report we can read

# Lower-case phrases that mark a context-length error; any one is enough.
PHRASES = (
    "context_length_exceeded", "exceed_context_size_error", "maximum context length",
    "exceeds the available context size", "context length of only", "greater than the context length",
    "cannot truncate prompt", "exceed context window", "exceeds the context window", "context length exceeded",
    "context size has been exceeded", "context window exceeded", "exceeds the context length",
    "exceeds maximum context length", "exceeds the maximum context length", "input length exceeds",
    "prompt is too long", "input is too long", "maximum model length", "too large for model with",
    "exceeds the maximum number of tokens", "too many tokens",
)
# The window, most specific wording first.
_WINDOW = tuple(re.compile(p, re.I) for p in (
    r"available context size \((\d+)",
    r"maximum context length is (\d+)",
    r"context length of only (\d+)",
    r"\bn_ctx\W{0,4}(\d+)",
    r"context window of (\d+)",
    r"maximum model length of (\d+)",
    r"tokens? > (\d+) maximum",
    r"model with (\d+) maximum context length",
    r"context (?:length|window|size) (?:is|of) (\d+)",
))
# The server's count of the refused prompt (the messages only where it splits off the completion).
_PROMPT = tuple(re.compile(p, re.I) for p in (
    r"request \((\d+) tokens\)",
    r"(?<!\d)(\d+) in the messages",  # from where digits start: else tried from each digit of a long run
    r"request has (\d+) input tokens",
    r"messages resulted in (\d+)",
    r"requested tokens \((\d+)\)",
    r"keep the first (\d+) tokens",
    r"\bn_keep\W{0,4}(\d+)",
    r"prompt is too long: (\d+)",
    r"prompt \(length (\d+)\)",
    r"prompt contains (\d+) tokens",
    r"you requested (\d+) tokens",
))
_WINDOW_FIELDS = ("n_ctx",)
_PROMPT_FIELDS = ("n_prompt_tokens",)


@dataclass(frozen=True)
class Stated:
    """A context-length error: its words, the window the server stated and its count of the prompt (if given)."""

    message: str
    window: int | None = None
    prompt_tokens: int | None = None


def is_context_error(text: str) -> bool:
    """Whether ``text`` (an error message or body) says the prompt is longer than the model's window."""
    low = text.lower()
    return any(phrase in low for phrase in PHRASES)


def read(error: Any) -> Stated | None:
    """The overflow an error states (text, JSON text or parsed JSON), or None when it is another error."""
    if isinstance(error, str) and error.lstrip().startswith(("{", "[")):
        try:
            error = json.loads(error)
        except ValueError:
            pass
    texts = _texts(error)
    text = "\n".join(texts)
    if not is_context_error(text):
        return None
    window = _field(error, _WINDOW_FIELDS) or _first(_WINDOW, text)
    prompt = _field(error, _PROMPT_FIELDS) or _first(_PROMPT, text)
    message = next((t for t in texts if is_context_error(t)), text)
    return Stated(message=" ".join(message.split())[:500], window=window, prompt_tokens=prompt)


def read_body(status: int, body: bytes) -> Stated | None:
    """The overflow a failed HTTP response reports, or None (a success, a rate limit, another error)."""
    if status < 400 or status == 429 or not body or len(body) > MAX_ERROR_BYTES:
        return None
    try:
        data: Any = json.loads(body)
    except ValueError:
        data = body.decode("utf-8", "replace")
    return read(data)


def stated_window(error: str | None) -> int | None:
    """The window an error text states, or None (not an overflow, or one that names no size)."""
    found = read(error) if error else None
    return found.window if found else None


def _texts(data: Any) -> list[str]:
    """Every string in an error body, nested JSON-in-a-string included (Ollama wraps llama.cpp's)."""
    out: list[str] = []
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(reversed(list(item.values())))
        elif isinstance(item, list):
            stack.extend(reversed(item))
        elif isinstance(item, str):
            out.append(item)
            if item.lstrip().startswith("{"):
                try:
                    stack.append(json.loads(item))
                except ValueError:
                    pass
    return out


def _field(data: Any, names: tuple[str, ...]) -> int | None:
    """A positive integer field of that name anywhere in a JSON body (llama.cpp's ``n_ctx``)."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for name in names:
                value = item.get(name)
                if isinstance(value, int) and not isinstance(value, bool) and value > 0:
                    return value
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str) and item.lstrip().startswith("{"):
            try:
                stack.append(json.loads(item))
            except ValueError:
                pass
    return None


def _first(patterns: tuple[re.Pattern[str], ...], text: str) -> int | None:
    for pattern in patterns:
        match = pattern.search(text)
        # A run of digits longer than any window is no count (and past 4,300 digits int() raises).
        if match and len(match.group(1)) <= 12 and int(match.group(1)) > 0:
            return int(match.group(1))
    return None


# --- the part of the prompt a host keeps to itself ------------------------------------------------

OVERHEAD_SAMPLES = 8


class OverheadFit:
    """One session's fixed overhead: what the provider counts in every prompt that the host never handed us.

    Each turn gives a sample: ``reported`` prompt tokens for ``chars`` characters handed over (plus
    ``framing``, our per-message tokens). The provider's count is ``chars / r + framing + F``; with
    two or more samples of clearly different sizes both the ratio ``r`` and the overhead ``F`` come
    from a least-squares line through them, so ``F`` does not absorb an error of the ratio as the
    conversation grows. With one sample (or sizes too alike) ``F`` is what the estimate at the
    current ratio leaves unexplained. Never negative.
    """

    def __init__(self) -> None:
        self.samples: list[tuple[int, int]] = []  # (chars, reported minus framing)
        self.tokens = 0

    def add(self, chars: int, framing: int, reported: int, ratio: float) -> int:
        self.samples = [*self.samples, (chars, reported - framing)][-OVERHEAD_SAMPLES:]
        fitted = self._line()
        if fitted is None:
            fitted = reported - framing - chars / ratio
        self.tokens = max(0, round(fitted))
        return self.tokens

    def _line(self) -> float | None:
        """The intercept of the least-squares line through the samples, when they tell ratio and overhead apart."""
        xs = [float(c) for c, _ in self.samples]
        if len(xs) < 2 or max(xs) - min(xs) < max(400.0, 0.1 * max(xs)):
            return None
        ys = [float(y) for _, y in self.samples]
        mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
        slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
        if not 1 / MAX_RATIO <= slope <= 1 / MIN_RATIO:
            return None  # not a chars-per-token ratio: the samples disagree (a changed system prompt, say)
        return my - slope * mx
