"""Fake servers for tests: real protocols over real sockets on 127.0.0.1.

- :class:`ServerThread` runs any ASGI application on uvicorn in a background thread.
- :class:`FakeUpstream` is an OpenAI-compatible model server with configurable faults
  (:class:`Behaviour`): context-window enforcement with the real overflow error shapes of
  llama-cpp-python, the llama.cpp server, Ollama, vLLM, LM Studio and OpenAI; hangs; error statuses;
  resets and stalls mid-stream; ``stream_options`` ignored like llama-cpp-python does.

Tests import it as ``from fakes import FakeUpstream, ServerThread`` (pytest puts ``tests/`` on the path).
"""

from __future__ import annotations

from .server import ServerThread, free_port
from .upstream import OVERFLOW_STYLES, Behaviour, FakeUpstream, Seen, count_tokens, overflow_body

__all__ = ["OVERFLOW_STYLES", "Behaviour", "FakeUpstream", "Seen", "ServerThread", "count_tokens", "free_port",
           "overflow_body"]
