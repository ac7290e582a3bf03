"""What both overhead benches (``overhead.py``, ``overhead_adapters.py``) do on the host's side: the messages a
session goes on with, and logging that counts every event (so that a fail-open path cannot pass for speed)."""

from __future__ import annotations

import json
import sys
from collections import Counter as Tally
from collections.abc import Iterator, MutableMapping
from typing import Any

import structlog

EVENTS: Tally[str] = Tally()  # structlog event names seen, so a fail-open path cannot pass for speed


def _tally(_logger: Any, method: str, event: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
    EVENTS[str(event.get("event"))] += 1
    if method in ("debug", "info"):
        raise structlog.DropEvent
    return event


def configure_logging() -> None:
    """Count every event; show warnings on stderr; keep stdout for the table."""
    structlog.configure(
        processors=[_tally, structlog.dev.ConsoleRenderer(colors=False)],
        logger_factory=structlog.PrintLoggerFactory(sys.stderr),
        cache_logger_on_first_use=True,
    )


def follow_ups() -> Iterator[dict[str, Any]]:
    """Messages a session goes on with, one at a time, always a valid conversation.

    The generated session ends on a user turn, so: a tool call, its result, a reply, the next user
    turn, and again. Sizes are those of an ordinary turn, not of the large tool results.
    """
    k = 0
    while True:
        k += 1
        cid = f"call_bench_{k:05d}"
        command = json.dumps({"command": f"pytest -q tests/test_server.py -k case_{k}"})
        yield {"role": "assistant", "content": "",
               "tool_calls": [{"id": cid, "type": "function", "function": {"name": "bash", "arguments": command}}]}
        yield {"role": "tool", "tool_call_id": cid, "name": "bash",
               "content": f"....F.. [100%]\nFAILED tests/test_server.py::test_case_{k} - AssertionError: "
                          f"expected status 200, got 500\n" + "collected 7 items; 6 passed, 1 failed in 0.42s\n" * 6}
        yield {"role": "assistant", "content": f"Case {k} still fails with a 500: the handler reads the port "
                                               "from the old settings module. I'll point it at app.config and rerun."}
        yield {"role": "user", "content": f"Fine, go ahead with case {k}, and keep the API on port 9090."}
