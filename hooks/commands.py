"""The chat commands ``/compact-now [note]`` and ``/context-stats``."""

from __future__ import annotations

import json
import re
from typing import Any

from context_compactor.hookspecs import Command, CommandResult, CompactionStats, HookContext, hookimpl
from context_compactor.turn_record import LastTurn
from context_compactor.session_state import SessionState


@hookimpl
def register_commands() -> list[Command]:
    return [
        Command("compact-now", "Compact this conversation now (optional note: what the summary should focus on)",
                compact_now, accepts_args=True),
        Command("context-stats", "Show how full the context window is and what compaction has done", context_stats),
    ]


def compact_now(args: str, ctx: HookContext) -> CommandResult:
    """Force a compaction: at once on the last prompt seen, and for the next turn."""
    text, outcome, stats = _compact_now(args, ctx)
    return CommandResult(text, compacted=outcome is not None and outcome.compacted, stats=stats)


def _compact_now(args: str, ctx: HookContext) -> tuple[str, Any, CompactionStats | None]:
    runtime = ctx.runtime
    session = runtime.session(ctx.session_key)
    note, recalled = args.strip(), list[str]()
    with session.lock:
        session.request_compaction(note)
        if session.last_event is None:
            return "context-compactor: this conversation will be compacted before the next model call.", None, None
        outcome = session.compact(session.last_event, runtime)
        if note and outcome.compacted:
            # The note focuses: what it names that had left the prompt comes back into the block, cited.
            lines, recalled = focus(runtime.store, ctx.session_key, note, outcome)
            if lines:
                session.request_compaction("\n".join([note, FOCUS_HEAD, *lines]))
                outcome = session.compact(session.last_event, runtime)
        stats = session.last.stats
        if session.archived_new:
            session.archived_new = False
            runtime.index_soon()
    if not outcome.compacted:
        reason = "; ".join(outcome.notices) or "nothing is old enough to fold into a summary yet"
        if not outcome.fits:
            return f"context-compactor: cannot fit: {outcome.reason or reason}.", outcome, stats
        return f"context-compactor: nothing compacted ({reason}).", outcome, stats
    text = (f"context-compactor: compacted {outcome.tokens_before:,} -> {outcome.tokens_after:,} tokens; "
            f"{outcome.folded} earlier messages are now a summary. The next model call uses it.")
    if recalled:
        text += (f" For your note, {_plural(len(recalled), 'archived message')} that had left the prompt "
                 f"{'is' if len(recalled) == 1 else 'are'} back in the summary: {', '.join(recalled)}.")
    if outcome.report and outcome.report.fallbacks:
        text += f" (The summary model failed for {outcome.report.fallbacks} chunk(s); the built-in summary was used.)"
    if not outcome.fits:
        text += f" It still does not fit the window: {outcome.reason}."
    return text, outcome, stats


FOCUS_HEAD = "From the archive for this note (recall_history reads more):"
FOCUS_HITS = 3  # archived messages brought back for a note, at most
FOCUS_CHARS = 320  # of each, around the note's words


def focus(store: Any, session: str, note: str, outcome: Any) -> tuple[list[str], list[str]]:
    """Cited lines of archived messages the note's words match that are not in the prompt ``outcome`` sends
    (folded, and not quoted by the ledger), best first; and their citations. Archived text is data: our
    markers in it are escaped."""
    from context_compactor.archive import query_terms, snippet
    from context_compactor.errors import InputError, StoreError
    from context_compactor.hooks.recall import cite, escape_markers, prompt_text, search

    try:
        terms = query_terms(note)
        hits = search(store, note, session, limit=FOCUS_HITS * 3)
    except (InputError, StoreError):
        return [], []
    plan, sent = outcome.plan, _words(prompt_text(outcome.messages or []))
    lines: list[str] = []
    cited: list[str] = []
    for hit in hits:
        if hit.index is not None and not plan.lead <= hit.index < plan.cut:
            continue  # still in the prompt as it was written
        try:
            original = store.fetch(hit.id, 0, 1 << 20)
        except (InputError, StoreError):
            original = None
        quote = snippet(original.text if original is not None else hit.snippet, terms, FOCUS_CHARS)
        if _kept(quote, terms, sent):
            continue  # the ledger has it already
        lines.append(f"[{cite(hit)}] {hit.role}: {escape_markers(quote)}")
        cited.append(cite(hit))
        if len(lines) >= FOCUS_HITS:
            break
    return lines, cited


def _words(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.lower()))


def _kept(quote: str, terms: list[str], prompt_words: str, span: int = 6) -> bool:
    """Whether the prompt already has the quote's words around the note's terms (each run of ``span`` words
    that holds one of them)."""
    words = re.findall(r"\w+", quote.lower())
    wanted = {t.lower() for t in terms}
    runs = [" ".join(words[i:i + span]) for i in range(max(1, len(words) - span + 1))
            if wanted & set(words[i:i + span])]
    return bool(runs) and all(run in prompt_words for run in runs)


def context_stats(args: str, ctx: HookContext) -> str:
    runtime = ctx.runtime
    session = runtime.session(ctx.session_key)
    extra: dict[str, Any] = {"health": _health(runtime)}
    extra["presummarizing"] = runtime.presummarizing(ctx.session_key)
    try:
        if not runtime.store.in_memory:  # a store in memory is on no disk
            extra["store_bytes"] = runtime.store.size_bytes()
    except Exception:  # noqa: BLE001 - the report goes on without the store's size
        pass
    return format_stats(session.last, session.state, extra)


def _health(runtime: Any) -> dict[str, dict[str, Any]]:
    """Per summary model, its calls' health: the HTTP models' and a host's own (OpenClaw's session model)."""
    health = runtime.summary_health()
    own = getattr(runtime.summarizer, "health", None)
    identity = getattr(runtime.summarizer, "identity", None)
    snapshot = getattr(own, "snapshot", None)
    if identity and identity not in health and callable(snapshot):
        health[identity] = snapshot()
    return health


def _size(n: int) -> str:
    return f"{n / 1e6:,.1f} MB" if n >= 100_000 else f"{n / 1e3:,.0f} kB"


def _parts_line(stats: CompactionStats) -> str:
    """What was sent, part by part; the parts add up to the total (the history is what the rest leaves)."""
    fixed = stats.system_tokens + stats.tool_tokens
    turn = min(stats.turn_tokens, max(0, stats.tokens_after - fixed))
    history = max(0, stats.tokens_after - fixed - turn)
    return (f"- sent, by part: system prompt {stats.system_tokens:,} + tool schemas {stats.tool_tokens:,} + history "
            f"{history:,} + current turn {turn:,} = {stats.system_tokens + stats.tool_tokens + history + turn:,} tokens")


def _calibration_line(last: LastTurn, stats: CompactionStats) -> str | None:
    measured = last.measured_tokens
    if not measured:
        return None
    estimate = last.measured_estimate or stats.tokens_after
    line = (f"- last measured by the provider: {measured:,} prompt tokens; our estimate of that prompt: "
            f"{estimate:,} ({(estimate - measured) / measured:+.0%})")
    calibrated = last.calibrated_estimate
    if calibrated:
        line += f", {calibrated:,} ({(calibrated - measured) / measured:+.0%}) with the ratio calibrated from it"
    return line


def _summary_lines(last: LastTurn, stats: CompactionStats, state: SessionState, extra: dict[str, Any]) -> list[str]:
    name = last.summarizer or "extractive"
    if name == "extractive":
        return ["- summaries: the session ledger, built from the messages (no summary model: set summaryModel, or "
                "summarizeWithSessionModel when the host passes the model's URL)"]
    # A model: "llm:<model>" (summaryModel, serve), "openclaw-llm:<model>" (OpenClaw's session model).
    line = f"- summaries: the session ledger, with a narrative by {name.split(':', 1)[-1]}"
    health = extra.get("health", {}).get(name)
    if health:
        line += f" ({health['successes']} model calls succeeded"
        if health["failures"]:
            line += ", failed: " + ", ".join(f"{k} {n}" for k, n in sorted(health["failures"].items()))
        if health["backoff_seconds"]:
            line += f"; paused for {health['backoff_seconds']:.0f}s after {health['consecutive']} failures in a row"
        line += ")"
        if health.get("last_error"):
            kind = f"{health['last_kind']}: " if health.get("last_kind") else ""
            line += f"; last error ({kind}{str(health['last_error'])[:200]})"
    lines = [line]
    used = state.summary_fallbacks
    total = sum(used.values())
    last_error = state.last_fallback.error if state.last_fallback is not None else "?"
    lines.append(f"- built-in summary used instead of the model in this conversation: {_plural(total, 'fallback')}"
                 + (": " + ", ".join(f"{k} {n}" for k, n in sorted(used.items())) + f" (last: {last_error})"
                    if used else ""))
    share = last.precompact_at
    if share:
        line = f"- pre-summarization: from {int(share * stats.trigger):,} tokens sent ({share:.0%} of the trigger)"
        lines.append(line + ("; a job is running now" if extra.get("presummarizing") else ""))
    return lines


def _loop_lines(last: LastTurn, state: SessionState) -> list[str]:
    """What the agent-loop behaviours did to the last prompt, and the loop breakers' state."""
    done = []
    if last.thinking_saved:
        done.append(f"earlier thinking left out (~{last.thinking_saved:,} tokens saved)")
    if last.failed_folded:
        done.append(f"{_plural(last.failed_folded, 'older failed call')} shown as one line")
    if last.side_dropped:
        done.append(f"{_plural(last.side_dropped, 'side-question message')} (/btw) left out")
    if last.reminded:
        done.append("the open tasks restated at the end")
    lines = [f"- agent loop, last prompt: {'; '.join(done)}"] if done else []
    if state.holding:
        lines.append(f"- loop breaker: stopped recompacting: {state.holding}")
    pinned = state.pinned
    if pinned:
        tools = sorted({json.loads(key)[0] for key in pinned})
        lines.append(f"- loop breaker: {_plural(len(pinned), 'call')} ({', '.join(tools)}) fetched again what "
                     "compaction had stubbed; their results are no longer stubbed in this session")
    return lines


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "n/a"


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}" if n == 1 else f"{n:,} {word}s"


def _next_turn(stats: CompactionStats) -> str:
    room = stats.trigger - stats.tokens_after
    if stats.compacted and room >= 0:
        return f"keeps the current summary; compacts again after about {room:,} more tokens"
    if stats.tokens_before > stats.trigger:
        return "compacts"
    return f"no compaction needed; compacts after about {room:,} more tokens"


def _source(stats: CompactionStats, note: str | None) -> str:
    return {"config": "from the config", "host": "reported by the host",
            "probe": note or "reported by the model server",
            "error": note or "stated by the model server in a context-length error",
            "override": "overflow recovery: the size the server stated",
            "default": "DEFAULT: unknown model, set contextWindow" + (f"; {note}" if note else ""),
            }.get(stats.window_source, stats.window_source)


def _last_compaction(state: SessionState) -> str:
    done = state.last_compaction
    if done is None:
        return "- last compaction: none yet"
    return (f"- last compaction: {done.at}, {done.tokens_before:,} -> {done.tokens_after:,} tokens, "
            f"{done.folded} messages summarized by {done.summarizer} ({done.chunks} chunks, "
            f"{done.cache_hits} from cache, {done.fallbacks} fallbacks); "
            f"{_plural(state.compactions, 'compaction')} in all")


def format_stats(last: LastTurn, state: SessionState, extra: dict[str, Any] | None = None) -> str:
    """The ``/context-stats`` report as readable text (``extra``: what the runtime knows beyond the session)."""
    stats = last.stats
    if stats is None:
        return "context-compactor: no model call seen in this conversation yet; nothing to report."
    roles = ", ".join(f"{n} {role}" for role, n in stats.roles)
    window = stats.window
    lines = [
        "context-compactor stats",
        f"- messages: {stats.messages} ({roles})",
        f"- prompt: ~{stats.tokens_before:,} tokens estimated (system {stats.system_tokens:,}, tool schemas "
        f"{stats.tool_tokens:,}; {stats.tokenizer}, {stats.chars_per_token:g} chars/token)",
    ]
    lines.append(_parts_line(stats))
    calibration = _calibration_line(last, stats)
    if calibration:
        lines.append(calibration)
    lines += [
        f"- context window: {window:,} tokens ({_source(stats, last.window_note)})",
        f"- sent to the model: ~{stats.tokens_after:,} tokens, {_pct(stats.tokens_after, window)} of the window",
    ]
    if not stats.fits:
        lines.append(f"- does not fit: {stats.reason or 'the prompt is larger than the window'}")
    lines += [
        f"- trigger: {stats.trigger:,} tokens; target after compaction: {stats.target:,} tokens",
        f"- next turn: {_next_turn(stats)}",
        _last_compaction(state),
    ]
    lines += _summary_lines(last, stats, state, extra or {})
    if (extra or {}).get("store_bytes") is not None:
        lines.append(f"- archive and cache (the store): {_size(extra['store_bytes'])} on disk "  # type: ignore[index]
                     "(archiveMaxMb and archiveMaxDays limit it)")
    lines += _loop_lines(last, state)
    for notice in stats.notices:
        if stats.fits or not stats.reason or stats.reason not in notice:  # the fit line says it already
            lines.append(f"- note: {notice}")
    return "\n".join(lines)
