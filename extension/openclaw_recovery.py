"""OpenClaw's ``compact()``: its ``/compact`` and its overflow recovery, for an engine that owns compaction.

OpenClaw spends one of three recovery attempts per ``compact()`` that says ``compacted``; a
"compacted" that freed nothing spends one for no gain (openclaw #150447). So :func:`compact` says
``compacted`` only when the prompt it will send next is smaller than the one last sent, both as
the session's counter measures them.

Overflow recovery (``trigger`` "overflow"): the server refused the last prompt, so the next one must
be strictly smaller. Each try aims at :data:`SHRINK` of the prompt before it (gptme's recovery), in
our own units: the runtime learns that size as the model's window, stated by the server
(:meth:`Runtime.window_for` then caps every other source with it), and OpenClaw's retry assembles
within it. A manual ``/compact`` compacts the last prompt at once, for the window it had.

OpenClaw's preflight ("budget", and "timeout_recovery") judges the whole transcript by its own count,
not the prompt we send: while that prompt fits its window, the answer is a benign skip ("already under
target", which OpenClaw lets the run go on after), never a compaction it did not need.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import pluggy

from context_compactor.hookspecs import BeforeAgentStartEvent, CompactionStats, HookContext
from context_compactor.logs import get_logger

logger = get_logger()

SHRINK = 0.7  # each recovery try aims at this share of the prompt before it
RECOVERY = ("overflow",)  # the triggers that mean the server refused the last prompt


def compact(pm: pluggy.PluginManager, ctx: HookContext, event: BeforeAgentStartEvent | None,
            last: CompactionStats | None, trigger: str,
            server_tokens: int | None = None) -> tuple[dict[str, Any], CompactionStats | None]:
    """Compact session ``ctx.session_key`` now; ``compacted`` only when the next prompt is smaller.

    ``event`` and ``last`` are the session's last model call as the host handed it to
    ``before_agent_start`` and the figures its result carried; the compaction is that event again,
    forced, through the same hook. Returns ``{"compacted", "reason", "tokensBefore", "tokensAfter"}``,
    as the plugin hands them to OpenClaw, and the figures of the compaction (None when none ran: the
    host keeps ``last``). ``server_tokens``: what the server counted in the refused prompt, when
    OpenClaw says.
    """
    runtime, key = ctx.runtime, ctx.session_key
    if event is None or last is None:
        return {"compacted": False, "reason": "context-compactor: no model call seen in this conversation yet",
                "tokensBefore": None, "tokensAfter": None}, None
    before = last.tokens_after
    if trigger != "manual" and trigger not in RECOVERY and last.fits and before <= last.window:
        return {"compacted": False, "tokensBefore": before, "tokensAfter": before,
                "reason": f"already under target: the prompt context-compactor sends is {before:,} tokens, within "
                          f"the {last.window:,}-token window (OpenClaw counts the whole transcript)"}, None
    window = None
    if trigger in RECOVERY:  # the runtime plans for it from now on (see Runtime.window_for)
        window = max(1, math.floor(SHRINK * before))
        runtime.learn_window(event.model.id, window, "error")
    result = pm.hook.before_agent_start(event=replace(event, force=True), ctx=ctx)
    stats = result.stats if result is not None else None
    if stats is None:  # even measuring failed: nothing was compacted
        failure = result.failure if result is not None else "no extension answered"
        return {"compacted": False, "tokensBefore": before, "tokensAfter": before,
                "reason": f"context-compactor: nothing compacted ({failure})"}, None
    after = stats.tokens_after
    smaller = result.messages is not None and stats.compacted and after < before
    if smaller:
        reason = (f"context-compactor: compacted {before:,} -> {after:,} tokens; {stats.folded} earlier messages "
                  "are now a summary")
        if window is not None and after > window:
            reason += f" (aimed at {window:,}: {stats.reason or 'the rest cannot be folded'})"
    else:
        why = result.failure or stats.reason or "; ".join(stats.notices) or \
            "nothing more is old enough to fold into a summary"
        reason = f"context-compactor: nothing compacted: the prompt would be {after:,} tokens, not below {before:,} ({why})"
    logger.info("openclaw.compact", session=key, trigger=trigger, tokens_before=before, tokens_after=after,
                compacted=smaller, aimed_at=window, server_tokens=server_tokens)
    return {"compacted": smaller, "reason": reason, "tokensBefore": before, "tokensAfter": after}, stats
