"""Fake model servers for the summarizer tests: real HTTP on a real loopback socket, scripted replies.

Separate from ``tests/fakes`` (the gateway's upstream): these speak just enough of the
OpenAI-compatible, Ollama, llama.cpp, LM Studio and vLLM APIs to test summaries, faults and probes.
"""

from .server import Behaviour, FakeModelServer, chat_reply, ollama_reply, sectioned

__all__ = ["Behaviour", "FakeModelServer", "chat_reply", "ollama_reply", "sectioned"]


import pytest  # noqa: E402
import structlog  # noqa: E402


@pytest.fixture(autouse=True)
def fresh_logging() -> None:
    """Logging as structlog configures it by default (stdout, read at each call).

    A test that runs the CLI's ``main()`` in-process leaves structlog bound to that test's
    captured (then closed) stderr; a later warning would then raise "I/O operation on closed
    file". Importing this fixture into a test module resets the configuration before each test.
    """
    structlog.reset_defaults()
