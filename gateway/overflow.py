"""Recognising a model server's "the prompt is longer than my context window" answer, for the relay.

What counts as an overflow, and the window and prompt count it states, is decided in one place,
:mod:`context_compactor.windows` (where the shapes of llama.cpp, llama-cpp-python, Ollama, LM Studio,
vLLM and OpenAI are listed); this module adds what only the gateway sees: llama-cpp-python's
streaming overflow, a 200 with an empty event stream (``EMPTY_STREAM``).
"""

from __future__ import annotations

from typing import TypeAlias

from context_compactor.windows import MAX_ERROR_BYTES, Stated, read_body

__all__ = ["EMPTY_STREAM", "MAX_ERROR_BYTES", "Overflow", "detect"]

EMPTY_STREAM = "the upstream ended the event stream without sending any event"

Overflow: TypeAlias = Stated  # a context-length error: its words, the stated window and the server's prompt count


def detect(status: int, body: bytes) -> Overflow | None:
    """The overflow a failed response reports, or None when it is some other error."""
    return read_body(status, body)
