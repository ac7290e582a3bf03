"""One conversation's compaction state: measurer, last plan, summary memo, archive bookkeeping.

The last plan is the *anchor*: while the prompt projected with it stays under the trigger, it is
reused, so the bytes sent to the model only grow at the end between compactions. It is persisted
with digests of the messages it cuts after, and reused only when those messages are still there.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .engine import Budget, Measurer, Outcome, Plan, Tiers, Tuning, budget_for, cold_budget, compact, stub_tokens
from .engine.chunks import effective_chunk_tokens
from .engine.measure import Entry, Measurement
from .engine.plan import stubbed
from .loop import Loop, LoopOptions, Prepared, append_reminder, call_key, reminder_text
from .logs import get_logger
from .messages import ToolCall, digest
from .engine.summaries import NARRATIVE_TOKENS, SummaryReport, Summaries
from .session_state import CompactionRecord, FallbackRecord, SavedPlan, SavedTiers, SessionState
from .settings import Settings
from .turn_record import LastTurn, Services, _reported, _turn_tokens, fallback_notice
from .turn_types import BeforeAgentStartEvent, CompactionStats

logger = get_logger()

# Whether the model-summary chunk also stays under the prompt's growth between compactions
# (trigger minus target); see bench/cost.py for what each choice costs.
CHUNK_TRACKS_GROWTH = True
STUCK_TURNS = 3  # fresh compactions in a row that stay above the trigger before the last plan is kept
REFETCH_TURNS = 3  # a stubbed or folded result fetched again within this many user turns is a re-read loop
REFETCH_WATCH = 256  # the newest results a compaction takes out that are watched for a re-read


@dataclass
class _Memo:
    key: tuple[Any, ...]
    report: SummaryReport


class _MemoSummaries:
    """The session's summary service: remembers the last region's summary (warm turns skip the cache)."""

    def __init__(self, inner: Summaries, session: Session) -> None:
        self.inner, self.session = inner, session

    def ledger_costs(self, entries: Sequence[Entry], start: int, stop: int) -> list[int]:
        return self.inner.ledger_costs(entries, start, stop)

    def region(self, entries: Sequence[Entry], start: int, stop: int, budget: int) -> SummaryReport:
        key = (start, stop, entries[stop - 1].digest, budget, self.inner.summarizer.identity)
        memo = self.session.summary_memo
        if memo is not None and memo.key == key:
            return memo.report
        report = self.inner.region(entries, start, stop, budget)
        if not report.fallbacks:  # a fallback summary is retried on the next turn
            self.session.summary_memo = _Memo(key, report)
        return report


class Session:
    def __init__(self, key: str, persisted: SessionState | None = None) -> None:
        self.key = key
        self.lock = threading.Lock()
        self.state = persisted if persisted is not None else SessionState()
        self.stamp: object = None  # the store's stamp of the state held here (see Runtime.session)
        self.measurer: Measurer | None = None
        self.chars_measurer: Measurer | None = None  # characters of what was sent, for calibration
        self.summary_memo: _Memo | None = None
        self.archived_upto = 0  # every message before this index is in the archive
        self.force: bool = False
        self.note: str | None = None
        self.last_event: BeforeAgentStartEvent | None = None
        self.last = LastTurn()
        # The plan last sent; kept in the state, so that a process taking the session up knows it is not new.
        self.signature: list[Any] | None = self.state.signature
        # The inputs of the last plan, for pre-summarization: (measurement, budget, settings, summaries).
        self.plan_input: tuple[Measurement, Budget, Settings, Summaries, Tuning] | None = None
        self.presummarized: tuple[Any, ...] | None = None  # what the last pre-summarization job covered
        self.loop = Loop()  # the agent-loop pre-transforms' memo (extension/loop.py)
        self.prepared: Prepared | None = None  # what they made of the last history
        self.sent: list[Any] | None = None  # what the last call sends, when not the host's history as it is
        self.reminded: dict[int, tuple[Any, str, Any]] = {}  # the memo of the last reminder
        self.reopened = False  # the last call dropped a plan made for a smaller window
        self.called: float | None = None  # when this process last compacted (or measured) for the session
        self.watched_upto = 0  # results before this index were put on the re-read watch already
        self.calls_checked = 0  # calls before this index were checked against the re-read watch
        self.archived_new = False  # this turn archived rows the search index has not taken in
        # (message, the same with its reminder) of each reminder since the last compaction, kept in place
        self.earlier_reminders: list[tuple[Any, Any]] = []
        # automatic recall's snippet of each user message still sent, by the hash of its text (hooks/compaction.py)
        self.recalls: dict[int, str] = {}

    def request_compaction(self, note: str | None) -> None:
        self.force, self.note = True, note or None

    def _measurer(self, runtime: Services, settings: Settings, model: Any) -> Measurer:
        counter = runtime.counter_for(settings, model)
        if self.measurer is None:
            self.measurer = Measurer(counter, settings.message_overhead_tokens)
        else:
            self.measurer.set_counter(counter)
            self.measurer.overhead = settings.message_overhead_tokens
        return self.measurer

    def _anchor(self, m: Measurement, fingerprint: list[Any], reopen: bool = True) -> Plan | None:
        """The last plan, if it was made for these settings and still lines up with the history.

        A plan made for a smaller window is dropped when the window grows (``reopen``, the
        default): the prompt is derived again from the originals, with less folded. With
        ``reopenOnBiggerWindow`` off it stays in force while it fits.
        """
        saved = self.state.anchor
        self.reopened = False
        if saved is None:
            return None
        if saved.fingerprint != fingerprint:
            old = saved.fingerprint or [0]
            bigger = old[0] < fingerprint[0] and old[-1] == fingerprint[-1]
            self.reopened = bigger and reopen
            if not bigger or reopen:
                return None
        n = len(m.entries)
        lead, cut, stub_until = saved.lead, saved.cut, saved.stub_until
        if not (lead <= cut <= stub_until <= n and lead < stub_until):
            return None
        if cut > lead and m.entries[cut - 1].digest != saved.cut_digest:
            return None
        if m.entries[stub_until - 1].digest != saved.stub_digest:
            return None
        return Plan(lead, cut, stub_until, stage=saved.stage, summary_tokens=saved.summary_tokens, sent=saved.sent,
                    sent_upto=saved.sent_upto)

    def _to_archive(self, runtime: Services, rows: Callable[[], list[tuple[Any, ...]]], count: int,
                    views: Sequence[Any] | None = None) -> None:
        """Rows for the archive: a file store writes them now; an in-memory one is owed them (written
        when it is next read, or by the background indexer after the turn)."""
        if runtime.store.in_memory:
            runtime.store.archive_later(self.key, rows, count, views)
        else:
            runtime.store.archive(self.key, rows(), views)
        self.archived_new = True  # the host's hook starts the background indexer once the turn is out

    def _archive(self, runtime: Services, gone: Sequence[tuple[int, Entry]]) -> None:
        if gone:
            self._to_archive(runtime, lambda: [(e.digest, e.view.role, e.message, i) for i, e in gone], len(gone),
                             [e.view for _, e in gone])
            for _, entry in gone:
                entry.archived = True

    def compact(self, event: BeforeAgentStartEvent, runtime: Services, *, window: int | None = None,
                force: bool = False) -> Outcome:
        """Run the engine for one model call and record what it decided.

        ``window`` overrides the context window for this call (overflow recovery: the size a
        server stated in its error); ``force`` compacts even under the trigger.
        """
        settings = runtime.settings_for(event.model)
        prepared = self.prepared = self.loop.prepare(event.messages, LoopOptions.of(settings))
        measurer = self._measurer(runtime, settings, event.model)
        m = measurer.measure(prepared.messages, event.system_prompt, event.tools)
        if not event.system_prompt and not event.tools:
            # A host that keeps its system prompt and tools to itself (OpenClaw): what the provider
            # counts beyond our estimate, learned per session, is part of the whole prompt.
            m.system_tokens += runtime.fixed_overhead(self.key)
        window, source = (window, "override") if window else runtime.window_for(settings, event.model)
        budget = budget_for(window, source, max_tokens=settings.max_tokens,
                            compact_at=settings.compact_at, compact_to=settings.compact_to)
        tuning = Tuning.fitted(budget, settings.keep_recent_tokens, settings.summary_max_tokens,
                               settings.max_tool_result_tokens)
        summarizer = runtime.summarizer_for(settings, event.model)
        inner = self._summaries(runtime, settings, summarizer, measurer, budget, tuning)
        summaries = _MemoSummaries(inner, self)
        force, note = self.force or force or event.force, self.note
        fingerprint = [budget.window, budget.trigger, budget.target, *tuning.__dict__.values(), measurer.counter.name]
        anchor = self._anchor(m, fingerprint, settings.reopen_on_bigger_window)
        if self.reopened:
            logger.info("compaction.reopened", session=self.key, window=budget.window)
        # What an unchanged history already had archived need not be looked at again.
        done = min(self.archived_upto, m.first_changed)
        holding = settings.loop_breakers and bool(self.state.holding)
        if holding and m.total <= budget.trigger:
            holding = self._release("the prompt is under the trigger again")
        # Stuck above the trigger: keep the last plan while the prompt fits the window.
        engine_budget = Budget(budget.window, budget.window, budget.target, budget.window_source) if holding else budget
        now, idle = time.monotonic(), None if self.called is None else time.monotonic() - self.called
        self.called = now  # idle past idleCompactAfterSeconds: the server's cache is cold, compact to the target
        engine_budget = cold_budget(engine_budget, idle, settings.idle_compact_after_seconds)
        self._archive_folds(runtime, prepared)
        outcome = compact(measurer, m, engine_budget, tuning, summaries,  # type: ignore[arg-type]
                          lambda gone: self._archive(runtime, gone), anchor=anchor, force=force, note=note,
                          archived_upto=done, tiers=self._tiers(m, fingerprint), held=self._held(m, anchor, measurer))
        if outcome.compacted:  # every message before the cut is now archived
            self.archived_upto = max(done, outcome.plan.cut)
        self.plan_input = (m, budget, settings, inner, tuning)
        report = outcome.report
        if report is not None and report.fallbacks:
            self._count_fallbacks(runtime, report)
            outcome.notices.append(fallback_notice(report, settings.summary_timeout_seconds))

        self.force = False
        self.last_event = event
        plan = outcome.plan
        signature = [plan.lead, plan.cut, plan.stub_until, [list(kv) for kv in sorted(plan.truncate.items())]]
        fresh = outcome.compacted and (signature != self.signature or force)
        # A plan that differs from the last one only by cutting tool results that are new since then
        # rewrites nothing already sent: the reminders stay where they were put (a server's cache).
        moved = fresh and (force or not _appended_only(self.signature, signature, self.state.signed_upto))
        if settings.loop_breakers:
            self._loop_breakers(m, budget, outcome, fresh, measurer, prepared, moved)
        # What is sent, reminder included, before the notice and the record say how large it is.
        reminded = self._send(event, settings, prepared, outcome, moved, m, budget, measurer)
        if outcome.compacted and (signature != self.signature or force):
            self.state.signature, self.state.signed_upto = signature, len(m.entries)
            self._remember(m, outcome, summarizer.identity, fingerprint)
            if runtime.persist_sessions:
                runtime.save_session(self)
            outcome.notices.insert(0, self._notice(outcome))
            logger.info("compaction.done", session=self.key, tokens_before=outcome.tokens_before,
                        tokens_after=outcome.tokens_after, folded=outcome.folded, stage=plan.stage,
                        chunks=outcome.report.chunks if outcome.report else 0,
                        cache_hits=outcome.report.cache_hits if outcome.report else 0,
                        summarizer=outcome.report.summarizer if outcome.report else None, forced=force,
                        fixed_tokens=m.fixed_tokens, ledger_tokens=plan.summary_tokens,
                        left_out=outcome.report.left_out if outcome.report else 0)
        self.signature = signature if outcome.compacted else None
        self.last = LastTurn(_reported(self._figures(m, budget, outcome, measurer, summarizer.identity), self.last),
                             summarizer=summarizer.identity, window_note=runtime.window_notes.get(event.model.id),
                             precompact_at=settings.precompact_at if inner.tiered else None,
                             thinking_saved=self._thinking_tokens(prepared, measurer),
                             failed_folded=prepared.folded, side_dropped=prepared.dropped,
                             reminded=reminded)
        return outcome

    # --- the agent-loop behaviours (extension/loop.py) -----------------------------------------

    @staticmethod
    def _thinking_tokens(prepared: Prepared, measurer: Measurer) -> int:
        per_token = measurer.counter.ratio if measurer.counter.name == "chars" else 4.0
        return round(prepared.saved_chars / per_token)

    def _archive_folds(self, runtime: Services, prepared: Prepared) -> None:
        """What the loop's transforms take out goes to the archive first (once): the full text of each
        failed call folded to one line, and each side question left out with its answer."""
        folds = prepared.fresh_folds
        if folds:
            self._to_archive(runtime, lambda: [(digest(orig), "tool", orig, i) for i, orig in folds], len(folds))
        drops = prepared.fresh_drops
        if drops:
            self._to_archive(runtime, lambda: [(digest(m), str(m.get("role")), m, i) for i, m in drops], len(drops))

    def _send(self, event: BeforeAgentStartEvent, settings: Settings, prepared: Prepared, outcome: Outcome,
              fresh: bool, m: Measurement, budget: Budget, measurer: Measurer) -> bool:
        """What this call sends (``self.sent``): the projection or the prepared history, with the
        reminder when due; True when the reminder is in it."""
        sent = outcome.messages if outcome.messages is not None else prepared.messages
        btw_turn = prepared.btw_turn
        due = not btw_turn and self.loop.reminder_due(prepared.todo, len(event.messages),
                                                      settings.task_reminder_every, fresh)
        save = settings.save_state_reminder and not btw_turn and self._save_state_due(
            m.total, budget, settings, len(event.messages), fresh)
        text = reminder_text(prepared.todo if due else None, save)
        if fresh:
            self.earlier_reminders = []
        elif text:  # a repeat of the turn that put it there (a retry) puts it there again, once
            tail = {id(m) for m in sent[-2:]}
            self.earlier_reminders = [(o, c) for o, c in self.earlier_reminders if id(o) not in tail]
        # Reminders of earlier calls stay where they were put until the next compaction: the prompt
        # then only grows at its end, so a server's prompt cache keeps all of the previous call's.
        reminded = self._earlier_reminders(sent) if self.earlier_reminders else sent
        if text:
            reminded = append_reminder(reminded, text, self.reminded)
        if reminded is not sent:
            # What the reminders add, measured on the messages they change (invariant 7: never summed from parts).
            extra = sum(measurer.cost(new) - measurer.cost(old) for new, old in zip(reminded, sent) if new is not old)
            if outcome.tokens_after + extra > budget.window:
                # Fit is a promise; the reminder is not (the ledger's goal section holds the open tasks).
                logger.info("reminder.skipped", session=self.key, tokens=extra, prompt=outcome.tokens_after,
                            window=budget.window)
                text = None
                self.earlier_reminders = []
            else:
                # An earlier call's reminder stays on the message it went on (a stable prefix), except where
                # the host lifts it off the current turn into its system prompt: kept, it would land in the history.
                if text and not event.lifts_reminders:
                    self._keep_reminder(sent, reminded)
                sent = reminded
                outcome.tokens_after += extra
        self.sent = None if sent is event.messages else sent
        return bool(text)

    def _earlier_reminders(self, sent: list[Any]) -> list[Any]:
        """``sent`` with the reminders of earlier calls since the last compaction on the same messages."""
        where = {id(original): changed for original, changed in self.earlier_reminders}
        out = [where.get(id(m), m) for m in sent]
        kept = {id(m) for m in sent}
        self.earlier_reminders = [(o, c) for o, c in self.earlier_reminders if id(o) in kept]
        return out if len(self.earlier_reminders) else sent

    def _keep_reminder(self, sent: list[Any], reminded: list[Any]) -> None:
        """Remember the message this call's reminder went on (as the object sent), for the next calls."""
        for original, changed in zip(reversed(sent), reversed(reminded)):
            if original is not changed and all(o is not original for o, _ in self.earlier_reminders):
                self.earlier_reminders.append((original, changed))
                return

    def _save_state_due(self, total: int, budget: Budget, settings: Settings, length: int, fresh: bool) -> bool:
        """Once as the prompt passes ``precompactAt`` of the trigger (again after each compaction)."""
        told = self.state.save_state_told
        if fresh:
            self.state.save_state_told = None
            return False
        if told is not None:
            return bool(told == length)  # the same turn again (a retry)
        if total >= settings.precompact_at * budget.trigger:
            self.state.save_state_told = length
            return True
        return False

    def _release(self, why: str) -> bool:
        self.state.holding = None
        self.state.stuck_turns = 0
        logger.info("loop_breaker.released", session=self.key, why=why)
        return False

    def _loop_breakers(self, m: Measurement, budget: Budget, outcome: Outcome, fresh: bool, measurer: Measurer,
                       prepared: Prepared, moved: bool) -> None:
        """Compaction that keeps firing above the trigger, and stubbed content fetched again. ``moved``: a
        fresh compaction that moved what was sent (not one that only cut tool results new since the last)."""
        if fresh and outcome.tokens_after > budget.trigger:
            self.state.stuck_turns = turns = self.state.stuck_turns + 1
            if turns >= STUCK_TURNS and not self.state.holding:
                why = (f"compaction fired on {turns} turns in a row and the prompt stayed above the "
                       f"{budget.trigger:,}-token trigger ({outcome.tokens_after:,} tokens after compacting: the "
                       "system prompt, tool schemas and recent turns alone are that large); the last plan is kept "
                       f"until the prompt reaches the {budget.window:,}-token window. Raise contextWindow or "
                       "compactAt, or lower keepRecentTokens")
                self.state.holding = why
                outcome.notices.append(f"context-compactor: stopped recompacting: {why}")
                logger.warning("loop_breaker.holding", session=self.key, turns=turns, trigger=budget.trigger,
                               tokens_after=outcome.tokens_after)
        elif fresh and self.state.stuck_turns:
            self.state.stuck_turns = 0
            if self.state.holding:
                self._release("a compaction got under the trigger")
        self._refetches(m, outcome, fresh, measurer, prepared, budget, moved)

    def _refetches(self, m: Measurement, outcome: Outcome, fresh: bool, measurer: Measurer,
                   prepared: Prepared, budget: Budget, moved: bool) -> None:
        entries, plan = m.entries, outcome.plan
        turn = m.roles.get("user", 0)
        watch, pinned = self.state.refetch_watch, self.state.pinned
        if watch:  # calls of the current tool loop that fetch again what a compaction took out
            for index in range(min(self.calls_checked, len(entries)), len(entries)):
                for call in entries[index].view.calls:
                    key = json.dumps(call_key(call.name, call.arguments))
                    seen = watch.get(key)
                    if seen is None or index < seen[1]:  # a call made before the compaction
                        continue
                    del watch[key]
                    if turn - seen[0] <= REFETCH_TURNS and key not in pinned:
                        pinned.append(key)
                        note = (f"context-compactor: {call.name} fetched again what compaction had stubbed or "
                                "folded; its results stay verbatim for the rest of this session")
                        outcome.notices.append(note)
                        logger.info("loop_breaker.pinned", session=self.key, tool=call.name)
            for key in [k for k, (t, _n) in watch.items() if turn - t > REFETCH_TURNS]:
                del watch[key]
        self.calls_checked = len(entries)
        if fresh:
            # The newest results this compaction took out (a cold one takes out thousands: a model that
            # loops fetches again what it just lost, not what left the prompt long ago).
            first = max(plan.lead, min(self.watched_upto, plan.cut))
            calls = {c.id: c for e in entries[plan.lead:plan.stub_until] for c in e.view.calls}
            taken: list[ToolCall] = []
            for i in range(plan.stub_until - 1, first - 1, -1):
                entry = entries[i]
                made = calls.get(entry.view.call_id or "") if entry.view.role == "tool" else None
                if made is not None and (i < plan.cut or stubbed(entry)):
                    taken.append(made)
                    if len(taken) >= REFETCH_WATCH:
                        break
            for made in reversed(taken):
                watch[json.dumps(call_key(made.name, made.arguments))] = [turn, len(entries)]
            self.watched_upto = plan.stub_until
        if pinned and outcome.messages is not None and plan.stub_until > plan.cut:
            # Which results go back is decided when a compaction moves the prompt, and kept until the
            # next one: decided again on every turn, a result put back went to its stub again as the
            # prompt grew past the room, and the prompt changed from there on (a server's cache).
            restored = None if moved else self.state.restored
            self.state.restored = self._unstub(m, outcome, set(pinned), measurer, budget, restored)
        elif moved:
            self.state.restored = []

    def _held(self, m: Measurement, anchor: Plan | None, measurer: Measurer) -> int:
        """What the results put back in place of their stubs under ``anchor`` (see :meth:`_unstub`) add to its
        prompt while it is reused, in tokens: the engine prices the anchor with them."""
        if anchor is None or not self.state.restored:
            return 0
        stub = stub_tokens(measurer)
        return sum(max(0, m.entries[i].tokens - stub) for i in self.state.restored
                   if anchor.cut <= i < min(anchor.stub_until, len(m.entries)))

    @staticmethod
    def _unstub(m: Measurement, outcome: Outcome, pinned: set[str], measurer: Measurer, budget: Budget,
                restored: list[int] | None = None) -> list[int]:
        """Put the original of each pinned call's latest result back where the plan stubbed it, newest
        first, while the prompt stays within halfway from the target to the trigger (a result too large
        for the room left keeps its stub): the other half of the growth room is for the turns until the
        next compaction. Only the latest: a call made again and again (the test run, a file read) has its
        older results stubbed as before. Every result of every pinned call put back, up to the window,
        filled the prompt to the window, so that every call after compacted again and rewrote it
        (bench/prefill.py, sessiongen at 32k, 1,200 messages: 5.4M tokens of prefill; 3.8M put back up
        to the trigger, 3.0M up to halfway). With ``restored`` (the messages an earlier turn of the same
        plan put back), those are put back, and no others. Returns the messages put back."""
        window = min(budget.window, budget.target + (budget.trigger - budget.target) // 2)
        entries, plan = m.entries, outcome.plan
        out = list(outcome.messages or [])
        offset = len(out) - (len(entries) - plan.cut)
        calls = {c.id: c for e in entries[plan.cut:plan.stub_until] for c in e.view.calls}
        seen: set[str] = set()
        back: list[int] = []
        if restored is not None:
            for i in restored:
                j = offset + i - plan.cut
                if not plan.cut <= i < min(plan.stub_until, len(entries)):
                    continue
                if out[j] is not entries[i].message:
                    outcome.tokens_after += entries[i].tokens - measurer.cost(out[j])
                    out[j] = entries[i].message
                back.append(i)
            outcome.messages = out
            return back
        for i in range(plan.stub_until - 1, plan.cut - 1, -1):
            entry, j = entries[i], offset + i - plan.cut
            call = calls.get(entry.view.call_id or "")
            key = json.dumps(call_key(call.name, call.arguments)) if call is not None else None
            if key is None or key not in pinned or key in seen:
                continue
            seen.add(key)  # a later result of the call was looked at: the earlier ones keep their stubs
            if out[j] is entry.message:
                continue
            grows = entry.tokens - measurer.cost(out[j])
            if outcome.tokens_after + grows > window:
                continue
            outcome.tokens_after += grows
            out[j] = entry.message
            back.append(i)
        outcome.messages = out
        return sorted(back)

    def _summaries(self, runtime: Services, settings: Settings, summarizer: Any, measurer: Measurer,
                   budget: Budget, tuning: Tuning) -> Summaries:
        """The summary service of this turn: flat for the deterministic summarizer; tiered, against
        the turn's time budget, for a model."""
        def count(text: str) -> int:
            return measurer.text_tokens(text)

        if not getattr(summarizer, "remote", False):
            summaries = Summaries(summarizer, runtime.fallback, runtime.store, count, settings.chunk_tokens)
            summaries.original, summaries.verdict = self.loop.original, self.loop.verdict
            return summaries
        leaf = Summaries.leaf_budget(tuning.summary_max_tokens)
        chunk = effective_chunk_tokens(settings.chunk_tokens, summarizer.readable_tokens(leaf),
                                       budget.trigger - budget.target if CHUNK_TRACKS_GROWTH else None)
        # Chunks are sized in units at the configured ratio, not the calibrated one, so that
        # calibration never moves a chunk boundary (see engine.chunks).
        nominal = settings.chars_per_token if measurer.counter.name == "chars" else 1.0
        summaries = Summaries(summarizer, runtime.fallback, runtime.store, count, chunk,
                              runner=runtime.background, deadline=time.monotonic() + settings.summary_timeout_seconds,
                              tiered=True, chunk_units=int(chunk * nominal))
        # The narrative's size follows the settings, not the turn's room, so its cache key is stable.
        summaries.narrative_tokens = min(NARRATIVE_TOKENS, max(64, tuning.summary_max_tokens // 4))
        summaries.original, summaries.verdict = self.loop.original, self.loop.verdict
        return summaries

    def _count_fallbacks(self, runtime: Services, report: SummaryReport) -> None:
        """Fallbacks by kind, kept with the session for /context-stats."""
        counts = self.state.summary_fallbacks
        for kind, n in report.failures.items():
            counts[kind] = counts.get(kind, 0) + n
        self.state.last_fallback = FallbackRecord(time.strftime("%Y-%m-%d %H:%M:%S"), report.errors[-1][:300])
        if runtime.persist_sessions:
            runtime.save_session(self)

    def _tiers(self, m: Measurement, fingerprint: list[Any]) -> Tiers | None:
        """The ledger body last sent, if it was made with these settings for this history's start."""
        saved = self.state.tiers
        if saved is None or saved.fingerprint != fingerprint:
            return None
        lead, cut = saved.lead, saved.cut
        if not lead < cut <= len(m.entries) or m.entries[cut - 1].digest != saved.cut_digest:
            return None
        return Tiers(lead, cut, saved.first, saved.text, saved.merged, saved.source, saved.budget, saved.complete)

    def _remember(self, m: Measurement, outcome: Outcome, summarizer: str, fingerprint: list[Any]) -> None:
        plan, report = outcome.plan, outcome.report
        tiers = outcome.tiers
        state = self.state
        state.tiers = SavedTiers(
            tiers.lead, tiers.cut, tiers.first, tiers.text, tiers.merged, tiers.source, tiers.budget, tiers.complete,
            cut_digest=m.entries[tiers.cut - 1].digest, fingerprint=fingerprint,
        ) if tiers is not None and tiers.cut > tiers.lead else None
        state.anchor = SavedPlan(
            plan.lead, plan.cut, plan.stub_until, plan.stage, plan.summary_tokens,
            cut_digest=m.entries[plan.cut - 1].digest if plan.cut > plan.lead else "",
            stub_digest=m.entries[plan.stub_until - 1].digest if plan.stub_until > 0 else "",
            fingerprint=fingerprint, sent=plan.sent, sent_upto=plan.sent_upto,
        ) if plan.stub_until > plan.lead else None
        state.last_compaction = CompactionRecord(
            time.strftime("%Y-%m-%d %H:%M:%S"), outcome.tokens_before, outcome.tokens_after, outcome.folded,
            plan.stage, report.summarizer if report else summarizer, report.chunks if report else 0,
            report.cache_hits if report else 0, report.fallbacks if report else 0)
        state.compactions += 1

    def _notice(self, outcome: Outcome) -> str:
        text = f"context-compactor: prompt compacted from {outcome.tokens_before:,} to {outcome.tokens_after:,} tokens"
        if outcome.folded:
            text += f" ({outcome.folded} earlier messages summarized"
            text += ")"
        return text

    def _figures(self, m: Measurement, budget: Budget, outcome: Outcome, measurer: Measurer,
                 summarizer: str) -> CompactionStats:
        report = outcome.report
        return CompactionStats(
            session=self.key, tokens_before=outcome.tokens_before, tokens_after=outcome.tokens_after,
            window=budget.window, window_source=budget.window_source, trigger=budget.trigger, target=budget.target,
            fits=outcome.fits, reason=outcome.reason, compacted=outcome.compacted, stage=outcome.plan.stage,
            folded=outcome.folded, chunks=report.chunks if report else 0,
            cache_hits=report.cache_hits if report else 0, fallbacks=report.fallbacks if report else 0,
            summarizer=report.summarizer if report else summarizer, notices=tuple(outcome.notices),
            messages=len(m.entries), roles=tuple(sorted(m.roles.items())), system_tokens=m.system_tokens,
            tool_tokens=m.tool_tokens, tokenizer=measurer.counter.name, chars_per_token=measurer.counter.ratio,
            turn_tokens=_turn_tokens(m), compactions=self.state.compactions,
        )


def _appended_only(before: list[Any] | None, after: list[Any], upto: int | None) -> bool:
    """Whether a plan's signature ``after`` differs from ``before`` (made for ``upto`` messages) only by
    cuts of tool results at or past ``upto``: results that arrived since, cut as they come in."""
    if before is None or upto is None or before[:3] != after[:3]:
        return False
    old, new = dict(map(tuple, before[3])), dict(map(tuple, after[3]))
    return all(new.get(i) == cap for i, cap in old.items()) and all(i >= upto for i in new.keys() - old.keys())
