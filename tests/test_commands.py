"""The chat commands /compact-now and /context-stats, as a host would run them."""

from __future__ import annotations

import re

from convo import chat

from context_compactor.hookspecs import HookContext, ModelInfo
from context_compactor.plugins import commands


def command(pm, runtime, name, args="", session="s1"):
    ctx = HookContext(session_key=session, runtime=runtime, model=ModelInfo(id="test/model"))
    return commands(pm)[name].run(args, ctx).text


def unchanged(result):
    """Whether the hook left the prompt as it was (no result, or one without messages)."""
    return result is None or result.messages is None


def test_context_stats_before_any_turn_says_so(pm, make_runtime):
    """With no model call seen yet, /context-stats says there is nothing to report."""
    assert "no model call seen" in command(pm, make_runtime(), "context-stats")


def test_context_stats_reports_the_figures(pm, make_runtime, run_hook):
    """/context-stats shows counts by role, tokens, the window and its source, trigger and target."""
    runtime = make_runtime()
    run_hook(runtime, chat(5), window=8192)
    text = command(pm, runtime, "context-stats")
    assert "messages: 12 (5 assistant, 1 system, 6 user)" in text
    assert "context window: 8,192 tokens (reported by the host)" in text
    assert "trigger: 6,144 tokens; target after compaction: 4,096 tokens" in text
    assert "last compaction: none yet" in text
    parts = re.search(r"sent, by part: system prompt ([\d,]+) \+ tool schemas ([\d,]+) \+ history ([\d,]+) \+ "
                      r"current turn ([\d,]+) = ([\d,]+) tokens", text)
    assert parts, text
    numbers = [int(g.replace(",", "")) for g in parts.groups()]
    assert sum(numbers[:4]) == numbers[4] and numbers[2] > 0 and numbers[3] > 0
    assert f"sent to the model: ~{numbers[4]:,} tokens" in text


def test_context_stats_warns_when_the_window_is_a_guess(pm, make_runtime, run_hook):
    """An unknown window is flagged as the 8192 default, with the fix."""
    runtime = make_runtime()
    run_hook(runtime, chat(2), window=None)
    assert "DEFAULT: unknown model, set contextWindow" in command(pm, runtime, "context-stats")


def test_context_stats_describes_the_last_compaction(pm, make_runtime, run_hook):
    """After a compaction the report says when, before and after, and which summarizer."""
    runtime = make_runtime()
    run_hook(runtime, chat(60), window=8192)
    text = command(pm, runtime, "context-stats")
    assert "messages summarized by extractive" in text and "1 compaction in all" in text
    assert "next turn: keeps the current summary; compacts again after about" in text


def test_compact_now_compacts_under_the_trigger_and_reports(pm, make_runtime, run_hook):
    """/compact-now folds old turns even under the trigger and says tokens before and after."""
    runtime = make_runtime()
    messages = chat(20)
    assert unchanged(run_hook(runtime, messages, window=32768))
    reply = command(pm, runtime, "compact-now", "keep the API design")
    assert reply.startswith("context-compactor: compacted ") and "earlier messages are now a summary" in reply
    nxt = run_hook(runtime, messages, window=32768)
    assert nxt.messages is not None and len(nxt.messages) < len(messages)
    assert "Focus requested by the user: keep the API design" in str(nxt.messages[1]["content"])


def test_compact_now_before_any_turn_applies_to_the_next(pm, make_runtime, run_hook):
    """Asked before any model call, /compact-now compacts the next one."""
    runtime = make_runtime()
    assert "before the next model call" in command(pm, runtime, "compact-now")
    result = run_hook(runtime, chat(20), window=32768)
    assert result.messages is not None and result.stats["folded"] > 0


def test_compact_now_on_a_short_chat_says_nothing_to_fold(pm, make_runtime, run_hook):
    """With nothing old enough to fold, /compact-now says so instead of pretending."""
    runtime = make_runtime()
    run_hook(runtime, chat(1), window=32768)
    assert "nothing compacted (nothing is old enough" in command(pm, runtime, "compact-now")


def test_commands_are_per_session(pm, make_runtime, run_hook):
    """One session's /compact-now does not touch another session."""
    runtime = make_runtime()
    run_hook(runtime, chat(20), window=32768, session="a")
    run_hook(runtime, chat(20), window=32768, session="b")
    command(pm, runtime, "compact-now", session="a")
    assert unchanged(run_hook(runtime, chat(20), window=32768, session="b"))


def test_context_stats_says_when_the_last_turn_did_not_fit(pm, make_runtime, run_hook):
    """A turn that could not fit the window shows a "does not fit" line with the reason."""
    runtime = make_runtime()
    run_hook(runtime, [{"role": "user", "content": "hi"}], window=1000, system_prompt="y" * 8000)
    text = command(pm, runtime, "context-stats")
    assert "- does not fit: " in text and "above the 1,000-token context window" in text


def test_context_stats_has_no_fit_line_when_it_fits(pm, make_runtime, run_hook):
    """A turn that fits the window shows no "does not fit" line."""
    runtime = make_runtime()
    run_hook(runtime, chat(60), window=8192)
    assert "does not fit" not in command(pm, runtime, "context-stats")


def test_compact_now_says_when_the_prompt_cannot_fit(pm, make_runtime, run_hook):
    """/compact-now on a prompt that cannot fit the window says "cannot fit" and why."""
    runtime = make_runtime()
    run_hook(runtime, [{"role": "user", "content": "hi"}], window=1000, system_prompt="y" * 8000)
    reply = command(pm, runtime, "compact-now")
    assert reply.startswith("context-compactor: cannot fit: ") and "1,000-token context window" in reply


def _with_a_fact_in_a_tool_result():
    """A chat whose third turn read a file holding the fact zebra_quokka_evict, among long filler turns."""
    from convo import assistant, tool, user, words

    messages = chat(3, size=200)
    messages += [user("check the cache config"), assistant("", [("c1", "read", {"path": "cache.ini"})]),
                 tool("c1", words(150, 1) + " the eviction knob zebra_quokka_evict is set to 17 for the hot tier " + words(150, 2)),
                 assistant("read it")]
    return messages + chat(30, size=200)[1:]


def test_compact_now_note_brings_back_what_it_names(pm, make_runtime, run_hook):
    """/compact-now <note>: archived text the note names, gone from the prompt, comes back into the block with
    its citation, stays there on later turns, and leaves at the next /compact-now."""
    runtime = make_runtime()
    messages = _with_a_fact_in_a_tool_result()
    first = run_hook(runtime, messages, window=8192)
    assert first.messages is not None and "zebra_quokka_evict" not in str(first.messages)  # it had left the prompt
    reply = command(pm, runtime, "compact-now", "the zebra_quokka_evict setting")
    assert "back in the summary: #" in reply, reply
    nxt = run_hook(runtime, messages + [{"role": "user", "content": "go on"}], window=8192)
    block = str(nxt.messages[1]["content"])
    assert "Focus requested by the user: the zebra_quokka_evict setting" in block
    cited = [line for line in block.splitlines() if "zebra_quokka_evict is set to 17" in line]
    assert cited and cited[0].startswith("[#"), block
    command(pm, runtime, "compact-now")
    later = run_hook(runtime, messages + [{"role": "user", "content": "go on"}], window=8192)
    assert "zebra_quokka_evict" not in str(later.messages)


def test_compact_now_note_brings_back_nothing_the_prompt_has(pm, make_runtime, run_hook):
    """A note naming only what is still in the prompt brings nothing back (no duplicate in the block)."""
    runtime = make_runtime()
    messages = _with_a_fact_in_a_tool_result()
    run_hook(runtime, messages, window=8192)
    reply = command(pm, runtime, "compact-now", "turn 29")
    assert "back in the summary" not in reply, reply
