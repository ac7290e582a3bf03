"""Property tests of the engine's invariants over random agent conversations."""

from __future__ import annotations

import json

from convo import assistant, orphans, system, tool, unanswered, user, words
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from context_compactor.engine import Measurer, Outcome, Tuning, budget_for, compact
from context_compactor.engine.chunks import chunk_bounds, chunk_key
from context_compactor.engine.plan import MARKER_TOKENS
from context_compactor.engine.project import summary_block
from context_compactor.messages import prepend_text
from context_compactor.engine.summaries import Summaries
from context_compactor.store import Store
from context_compactor.summarizer.fallback import ExtractiveSummarizer
from context_compactor.tokens import CharCounter

STUB = "[tool result archived by context-compactor: "

turn = st.tuples(
    st.integers(min_value=1, max_value=400),  # user words
    st.lists(st.integers(min_value=1, max_value=3000), max_size=4),  # tool result sizes (words)
    st.integers(min_value=0, max_value=400),  # final assistant words
)


@st.composite
def conversations(draw):
    turns = draw(st.lists(turn, min_size=1, max_size=25))
    out = [system("You are an agent.")] if draw(st.booleans()) else []
    call = 0
    for t, (user_words, results, answer) in enumerate(turns):
        out.append(user(words(user_words, t)))
        for size in results:
            call += 1
            out.append(assistant("", [(f"c{call}", "bash", {"command": f"run {call}"})]))
            out.append(tool(f"c{call}", words(size, call)))
        if answer:
            out.append(assistant(words(answer, t)))
    return out


def run(messages, window, keep=2000, summary=1000, anchor=None, force=False) -> Outcome:
    measurer = Measurer(CharCounter(4.0))
    m = measurer.measure(messages)
    budget = budget_for(window, "config", max_tokens=None, compact_at=0.75, compact_to=0.5)
    store = Store.open(":memory:")
    fallback = ExtractiveSummarizer()
    summaries = Summaries(fallback, fallback, store, measurer.text_tokens, 16000)
    return compact(measurer, m, budget, Tuning(keep, summary, 4000), summaries, lambda gone: None,
                   anchor=anchor, force=force)


windows = st.sampled_from([2048, 4096, 8192, 32768])
fast = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@fast
@given(conversations(), windows)
def test_no_tool_result_is_ever_orphaned(messages, window):
    """Whatever the cut, every tool result in the projection follows the call it answers."""
    sent = run(messages, window).messages or messages
    assert orphans(sent) == []
    assert unanswered(sent) == unanswered(messages)


@fast
@given(conversations(), windows)
def test_current_user_turn_is_always_kept(messages, window):
    """The last user message is in the projection (as itself, or carrying the summary)."""
    sent = run(messages, window).messages or messages
    last_user = max(i for i, m in enumerate(messages) if m["role"] == "user")
    text = messages[last_user]["content"]
    assert any(m["role"] == "user" and str(m["content"]).endswith(text[-200:]) for m in sent)
    tail = messages[last_user + 1:]
    kept_calls = [m for m in sent if m["role"] == "assistant" and m.get("tool_calls")]
    assert all(m in kept_calls for m in tail if m["role"] == "assistant" and m.get("tool_calls"))


@fast
@given(conversations(), windows)
def test_projection_is_never_larger_than_the_input(messages, window):
    """The compacted prompt never costs more tokens than the history it replaces."""
    out = run(messages, window)
    before = Measurer(CharCounter(4.0)).measure(messages).total
    after = Measurer(CharCounter(4.0)).measure(out.messages or messages).total
    assert after < before if out.compacted else after == before
    assert out.tokens_after == after


@fast
@given(conversations(), windows)
def test_what_is_sent_fits_the_window_or_the_outcome_says_why(messages, window):
    """What is sent (the projection, or the history unchanged) fits the window, or fits is false with a reason."""
    out = run(messages, window)
    sent = Measurer(CharCounter(4.0)).measure(out.messages or messages)
    if out.fits:
        assert sent.total <= window, (out.plan, [(e.view.role, e.tokens) for e in sent.entries])
    else:
        assert out.reason


@fast
@given(conversations(), windows)
def test_output_is_deterministic(messages, window):
    """Same history, same settings, empty caches: the same bytes out."""
    a = run(messages, window)
    b = run(json.loads(json.dumps(messages)), window)
    assert json.dumps(a.messages) == json.dumps(b.messages)


@fast
@given(conversations(), conversations(), st.integers(min_value=500, max_value=6000))
def test_appending_messages_leaves_earlier_chunk_keys_unchanged(history, more, chunk_tokens):
    """Chunks are cut from the start, so growing the conversation never changes a completed chunk."""
    grown = history + more
    a = Measurer(CharCounter(4.0)).measure(history)
    b = Measurer(CharCounter(4.0)).measure(grown)
    before = chunk_bounds(a.entries, 0, len(history), chunk_tokens)
    after = chunk_bounds(b.entries, 0, len(grown), chunk_tokens)
    assert after[: len(before) - 1] == before[:-1]
    for first, end in before[:-1]:
        assert chunk_key("x", "1", 100, a.entries[first:end]) == chunk_key("x", "1", 100, b.entries[first:end])


# --- the window promise across turns, on what is added after the plan ---------------------------


@st.composite
def sessions(draw):
    """A short session: per turn, the history it adds (user text, bash results, todo calls with open tasks),
    and after the first, sometimes a call repeating an earlier bash call exactly (a re-read)."""
    turns = []
    call = 0
    for t in range(draw(st.integers(min_value=2, max_value=3))):
        added = [user(words(draw(st.integers(min_value=1, max_value=300)), t))]
        for size in draw(st.lists(st.integers(min_value=1, max_value=2500), max_size=3)):
            call += 1
            added += [assistant("", [(f"c{call}", "bash", {"command": f"cat file-{call}"})]), tool(f"c{call}", words(size, call))]
        if draw(st.booleans()):
            call += 1
            name = draw(st.sampled_from(["todo_write", "update_plan"]))
            items = [{"content" if name == "todo_write" else "step": words(draw(st.integers(1, 60)), i),
                      "status": draw(st.sampled_from(["pending", "in_progress", "completed"]))}
                     for i in range(draw(st.integers(1, 5)))] + [{"content": "finish the task", "step": "finish",
                                                                  "status": "pending"}]
            args = {"todos": items} if name == "todo_write" else {"plan": items}
            added += [assistant("", [(f"c{call}", name, args)]), tool(f"c{call}", "ok")]
        reread = draw(st.integers(min_value=0, max_value=call)) if t and draw(st.booleans()) else 0
        turns.append((added, reread))
    return turns


def _reread(history, which, call):
    """``history`` with bash call ``which`` made again (same arguments) and answered with the same text."""
    old = next((m for m in history if m["role"] == "tool" and m["tool_call_id"] == f"c{which}"), None)
    if old is None:
        return history
    again = f"again{call}"
    return [*history, assistant("", [(again, "bash", {"command": f"cat file-{which}"})]), tool(again, old["content"])]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sessions(), st.sampled_from([1024, 2048, 4096]), st.sampled_from([1.0, 4.0]), st.integers(0, 16),
       st.sampled_from([1, 4]), st.booleans())
def test_every_turn_of_a_session_fits_the_window_or_says_why(turns, window, ratio, overhead, every, save_state):
    """Across the turns of one Compactor session with open todo tasks (task reminder, save-state request) and
    results fetched again (pinned, put back), what is sent fits the window, or fits is false with a reason."""
    from context_compactor import Compactor

    history = []
    with Compactor(context_window=window, chars_per_token=ratio, message_overhead_tokens=overhead, calibrate=False,
                   task_reminder_every=every, save_state_reminder=save_state) as compactor:
        for n, (added, reread) in enumerate(turns):
            history = history + added
            if reread:
                history = _reread(history, reread, n)
            result = compactor.compact(history)
            sent = Measurer(CharCounter(ratio), overhead).measure(result.messages).total
            assert sent <= window or (not result.stats.fits and result.stats.reason), (n, sent, window, result.stats)


def fitting_core(messages, measurer, max_tool_result=4000):
    """What a prompt that keeps the current turn whole needs at least: the system messages, the current turn
    (its results at most at their configured cut) and, when anything comes before it, a bare ledger block
    riding on its user message."""
    m = measurer.measure(messages)
    lead = next((i for i, e in enumerate(m.entries) if e.view.role != "system"), len(m.entries))
    last = max(i for i, e in enumerate(m.entries) if e.view.role == "user")
    cap = max_tool_result + MARKER_TOKENS
    core = m.fixed_tokens + m.span(0, lead) + sum(
        min(e.tokens, cap) if e.view.role == "tool" else e.tokens for e in m.entries[last:])
    if last > lead:
        block = summary_block("", last - lead, bare=True)
        core += measurer.cost(prepend_text(messages[last], block)) - measurer.cost(messages[last])
    return core, last


@fast
@given(conversations(), st.sampled_from([384, 512, 768, 1024, 2048, 4096]))
def test_the_current_turn_is_never_cut_while_a_fitting_prompt_exists(messages, window):
    """Whenever a prompt that keeps the current turn whole fits the window, the engine sends one: it never
    says "cannot fit" and never cuts the current user message or the turn's calls; a result of the turn's
    loop is cut only to its configured size (or, an older one, stubbed and archived, as any compaction does)."""
    measurer = Measurer(CharCounter(4.0))
    core, last = fitting_core(messages, measurer)
    assume(core <= window)
    out = run(messages, window)
    sent = out.messages or messages
    assert out.fits and measurer.measure(sent).total <= window, (core, window, out.reason)
    user_sent = [m for m in sent if m["role"] == "user"][-1]
    assert user_sent["content"].endswith(messages[last]["content"])
    kept = {id(m) for m in sent}
    stubs = {m["tool_call_id"] for m in sent if m["role"] == "tool" and m["content"].startswith(STUB)}
    assert all(id(m) in kept or (m["role"] == "tool" and (measurer.cost(m) > 4000 + MARKER_TOKENS
                                                          or m["tool_call_id"] in stubs)) for m in messages[last + 1:])
