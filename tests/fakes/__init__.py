"""Fake servers for tests: real protocols over real sockets on 127.0.0.1.

- :class:`ServerThread` runs any ASGI application on uvicorn in a background thread.
- :class:`FakeUpstream` is an OpenAI-compatible model server with configurable faults
  (:class:`Behaviour`): context-window enforcement with the real overflow error shapes of
  llama-cpp-python, the llama.cpp server, Ollama, vLLM, LM Studio and OpenAI; hangs; error statuses;
  resets and stalls mid-stream; ``stream_options`` ignored like llama-cpp-python does.
- :mod:`fakes.chat` (the OpenAI-compatible shapes, the fake "tokenizer", ``text_of``) and
  :mod:`fakes.loopback` (ports, start/stop, :class:`Seen`) are shared with ``llmfakes`` (the scripted
  server of the summarizer tests) and ``ocfakes`` (the OpenClaw tests' model).

Tests import it as ``from fakes import FakeUpstream, ServerThread`` (pytest puts ``tests/`` on the path).
"""

from __future__ import annotations

from .chat import count_tokens, text_of
from .loopback import Seen, free_port
from .server import ServerThread
from .upstream import OVERFLOW_STYLES, Behaviour, FakeUpstream, overflow_body

__all__ = ["OVERFLOW_STYLES", "Behaviour", "FakeUpstream", "Seen", "ServerThread", "count_tokens", "free_port",
           "overflow_body", "text_of"]
