"""Summaries from OpenClaw's session model, through the plugin's ``llm.complete`` (no key or URL needed).

:class:`HostSummarizer` asks the plugin over the bridge's :class:`~context_compactor.bridge_channel.Channel`;
:func:`time_budget` bounds the model time a request's own thread may spend on them.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from .bridge_channel import Channel, HostError
from .errors import SummarizerError
from .messages import View
from .openclaw_health import HostHealth, host_error

READ_TOKENS = 24_000  # material one summary request may carry (OpenClaw does not say the model's window here)
# How long a summary call that outlived its turn is still awaited: its answer lands in the cache for
# a later turn (a slow local model may take minutes on a large chunk); after this the call is dropped.
LATE_SECONDS = 600.0
_deadline = threading.local()


@contextmanager
def time_budget(seconds: float) -> Iterator[None]:
    """Summaries started in this thread inside the block share ``seconds`` of model time."""
    _deadline.at = time.monotonic() + seconds
    try:
        yield
    finally:
        _deadline.at = None


class HostSummarizer:
    """Summaries from the session model, through OpenClaw's ``llm.complete`` (no key or URL needed).

    The prompts and the checks of the answer are those of the HTTP summarizer
    (:mod:`context_compactor.summarizer.prompts`, :mod:`~context_compactor.summarizer.output`).
    Like it, it is ``remote``: the engine makes its calls on its worker threads, waits for one only
    as long as the turn's ``summaryTimeoutSeconds`` allows, never sends a second call for a chunk
    whose call is still running, and caches an answer that comes late for the next turn
    (:mod:`context_compactor.presummarize`). A call is awaited up to ``patience`` seconds.
    """

    remote = True
    # OpenClaw's llm.complete works only inside a turn: between turns it fails at once ("Async work
    # scope is closed", seen on 2026.9.6), so no pre-summarization job is started for it.
    between_turns = False

    def __init__(self, channel: Channel, identity: str, patience: float = LATE_SECONDS) -> None:
        from context_compactor.summarizer import prompts

        self.channel, self.identity, self.patience = channel, identity, patience
        self.prompt_version = prompts.PROMPT_VERSION
        self.health = HostHealth(identity)  # what /context-stats and doctor say of these calls

    def readable_tokens(self, budget: int) -> int:
        """How many tokens of material one request may carry (OpenClaw does not tell the model's window)."""
        return READ_TOKENS

    def summarize(self, messages: Sequence[View], budget: int, count: Callable[[str], int]) -> str:
        from context_compactor.summarizer import prompts

        return self._ask(prompts.chunk_messages(messages, budget, READ_TOKENS, count), budget, count)

    def merge(self, summaries: Sequence[str], budget: int, count: Callable[[str], int]) -> str:
        from context_compactor.summarizer import prompts

        return self._ask(prompts.merge_messages(summaries, budget), budget, count)

    def _ask(self, request: list[dict[str, str]], budget: int, count: Callable[[str], int]) -> str:
        from context_compactor.summarizer.output import check

        at = getattr(_deadline, "at", None)  # set in a request's own thread; the engine's workers have none
        remaining = (at - time.monotonic()) if at else self.patience
        if remaining < 0.5:
            raise SummarizerError("the summary time budget is spent", summarizer=self.identity)
        system = "\n\n".join(m["content"] for m in request if m["role"] == "system")
        params = {"systemPrompt": system, "messages": [m for m in request if m["role"] != "system"],
                  "maxTokens": int(budget * 1.5) + 32, "purpose": "context-compactor.summary"}
        try:
            result = self.channel.call("llm.complete", params, timeout=remaining)
            text = check(str((result or {}).get("text") or ""), truncated=False, budget=budget, count=count,
                         summarizer=self.identity)
        except HostError as exc:
            error = host_error(str(exc), self.identity)  # filed under its real kind: a 500 is no timeout
            self.health.failed(error)
            raise error from None
        except SummarizerError as exc:
            self.health.failed(exc)
            raise
        self.health.succeeded()
        return text
