"""Fake model servers for the summarizer tests: real HTTP on a real loopback socket, scripted replies.

Separate from ``tests/fakes``' :class:`~fakes.FakeUpstream` (a faithful model server on uvicorn for the
gateway): this one is a threaded ``http.server`` scripted route by route, down to raw faults (resets,
malformed or trickled bodies), speaking just enough of the OpenAI-compatible, Ollama, llama.cpp,
LM Studio and vLLM APIs to test summaries, faults and probes. The answer shapes and the server
plumbing come from ``fakes.chat`` and ``fakes.loopback``.
"""

from .server import Behaviour, FakeModelServer, Seen, chat_reply, ollama_reply, sectioned

__all__ = ["Behaviour", "FakeModelServer", "Seen", "chat_reply", "ollama_reply", "sectioned"]
