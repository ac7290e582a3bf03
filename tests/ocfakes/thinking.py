"""A fake model that thinks: every agent answer (``classify`` "agent") streams an OpenAI-style
``reasoning_content`` delta before its text or tool call, as llama.cpp, vLLM, LM Studio and DeepSeek
do. OpenClaw's openai-completions transport turns that delta into a ``{type: "thinking",
thinkingSignature: "reasoning_content"}`` block of the assistant's transcript row.

The thought of request ``n`` is :func:`thought` ``(n)``: a marker ``THOUGHT-<n>`` and enough words
that a prompt carrying several of them is visibly larger than one without."""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any

from fakes.upstream import FakeUpstream

from .fake_model import classify

_REASONING: ContextVar[str] = ContextVar("reasoning", default="")
THOUGHT_WORDS = 400  # about 2,800 characters, 700 tokens at 4 characters a token


def thought(n: int) -> str:
    """The reasoning the model streams for request ``n``."""
    return f"THOUGHT-{n}: " + " ".join(f"pondering{n}x{i}" for i in range(THOUGHT_WORDS))


class ThinkingModel(FakeUpstream):
    """:class:`FakeUpstream` whose agent answers carry ``reasoning_content`` (in the stream and in a
    non-streamed answer alike)."""

    def _reply(self, body: dict[str, Any], n: int) -> dict[str, Any]:
        reply = super()._reply(body, n)
        if classify(body) == "agent":
            reply = {**reply, "reasoning_content": thought(n)}
        return reply

    async def _stream(self, receive: Any, send: Any, seen: Any, body: dict[str, Any], reply: dict[str, Any],
                      counted: dict[str, int]) -> None:
        token = _REASONING.set(str(reply.get("reasoning_content") or ""))  # per request: each runs in its own task
        try:
            await super()._stream(receive, send, seen, body, reply, counted)
        finally:
            _REASONING.reset(token)

    async def _events(self, send: Any, seen: Any, events: list[dict[str, Any]], gone: Any) -> None:
        reasoning = _REASONING.get()
        if reasoning and events:  # after the role delta, one delta carrying the whole thought
            first = events[0]
            think = {**first, "choices": [{**first["choices"][0], "delta": {"reasoning_content": reasoning}}]}
            events = [first, think, *events[1:]]
        await super()._events(send, seen, events, gone)
