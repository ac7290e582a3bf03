"""Fake model servers for the summarizer tests: real HTTP on a real loopback socket, scripted replies.

Separate from ``tests/fakes`` (the gateway's upstream): these speak just enough of the
OpenAI-compatible, Ollama, llama.cpp, LM Studio and vLLM APIs to test summaries, faults and probes.
"""

from .server import Behaviour, FakeModelServer, chat_reply, ollama_reply, sectioned

__all__ = ["Behaviour", "FakeModelServer", "chat_reply", "ollama_reply", "sectioned"]




