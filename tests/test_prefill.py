"""What a prefix-caching model server must recompute: the prompt only grows between compactions (issue 26)."""

from __future__ import annotations

import json
from typing import Any

from context_compactor import Compactor
from context_compactor.engine import Measurer
from context_compactor.engine.project import KEEP_STEP, truncated_text
from context_compactor.tokens import CharCounter

WINDOW = 4096


def _history(turns: int) -> list[dict[str, Any]]:
    """A coding-agent session: each turn a user request, a tool call and a large tool result."""
    out: list[dict[str, Any]] = [{"role": "system", "content": "You are a coding agent."}]
    for t in range(turns):
        out.append({"role": "user", "content": f"Step {t}: look at module_{t}.py and fix the failing test {t}."})
        out.append({"role": "assistant", "content": None, "tool_calls": [
            {"id": f"c{t}", "type": "function", "function": {"name": "read_file", "arguments": json.dumps(
                {"path": f"src/module_{t}.py"})}}]})
        body = "\n".join(f"{n:4}\tdef handler_{t}_{n}(x):  return x * {n}" for n in range(60))
        out.append({"role": "tool", "tool_call_id": f"c{t}", "content": body})
        out.append({"role": "assistant", "content": f"Module {t} read; the fix for test {t} goes in handler_{t}_3."})
    return out


def _rendered(messages: list[Any]) -> str:
    return "".join(json.dumps(m, sort_keys=True) for m in messages)


def _block(messages: list[Any]) -> str:
    return next((str(m["content"]) for m in messages if "[context-compactor: ledger of" in str(m["content"])), "")


def _run(history: list[dict[str, Any]]) -> list[tuple[Any, str, str]]:
    """(the plan's lead, cut and stub range, or None; prompt; block or "") of every model call of
    ``history``, the server's usage reported back."""
    calls = []
    with Compactor(context_window=WINDOW) as compactor:
        for i, m in enumerate(history):
            if m["role"] != "assistant":
                continue
            result = compactor.compact(history[:i])
            text = _rendered(result.messages)
            compactor.record_usage(len(text) // 3)  # a calibrated counter moves from call to call
            signature = compactor._runtime.session(compactor.session).signature
            calls.append((signature[:3] if signature else None, text, _block(result.messages)))
    return calls


def test_calls_without_a_new_compaction_share_the_whole_previous_prompt() -> None:
    """Two consecutive compacted calls under the same plan (no new fold, no new stubs): the later prompt
    starts with the whole earlier one, though the counter is recalibrated on every call."""
    calls = _run(_history(40))
    pairs = [(a, b) for a, b in zip(calls, calls[1:]) if a[0] and a[0] == b[0]]
    assert len(pairs) >= 10
    # all but the closing bracket of the list; a cut tool result may still move by a step of 256
    # characters when the calibration moves far, so most pairs, not all, are asked for
    shared = [after[:len(before) - 2] == before[:-2] for (_, before, _), (_, after, _) in pairs]
    assert sum(shared) >= 0.9 * len(shared), shared


def test_a_compaction_keeps_the_earlier_ledger_tiers_byte_identical() -> None:
    """A compaction that folds more appends a tier: the earlier block's ledger is the start of the new block."""
    calls = _run(_history(40))
    blocks = [b for compacted, _, b in calls if compacted and b]
    changes = [(a, b) for a, b in zip(blocks, blocks[1:]) if a != b]
    assert changes
    appended = [b for a, b in changes if b.startswith(a.split("[end of ledger]")[0])]
    assert appended, "no compaction kept the earlier block's bytes"
    assert all("[end of ledger]" in b for b in blocks)


def test_same_history_same_bytes_with_tiers() -> None:
    """Invariant 3: the same calls through a new Compactor send the same bytes, tiers included."""
    history = _history(30)
    assert [c[1] for c in _run(history)] == [c[1] for c in _run(history)]


def test_a_cut_keeps_the_step_its_cap_reaches() -> None:
    """Cuts move in steps, down; but a whole-token count reads the cap a little low (512 tokens of a
    4-chars-per-token text came to 2,047 characters), and the step at the cap is kept, not the one below."""
    measurer = Measurer(CharCounter(4.0))
    body = "x" * 7566
    entry = measurer.measure([{"role": "tool", "tool_call_id": "c", "content": body}]).entries[0]
    cut = truncated_text(entry, 512, measurer.overhead)
    assert entry.kept == (512, 2048) and 2048 % KEEP_STEP == 0
    head, _marker, tail = cut.split("\n")
    assert len(head) + len(tail) == 2048 and set(head + tail) == {"x"}
    assert truncated_text(entry, 512, measurer.overhead) == cut  # and it stays where it was put


def test_a_cut_stays_put_while_the_calibration_drifts_a_little() -> None:
    """A counter that reads the text as slightly more tokens (calibration early in a session) keeps the
    last cut while it is at most a step above the cap; a larger drift moves it down a step."""
    body = "x" * 7566
    measurer = Measurer(CharCounter(4.0))
    first = measurer.measure([{"role": "tool", "tool_call_id": "c", "content": body}]).entries[0]
    cut = truncated_text(first, 512, measurer.overhead)
    assert first.kept == (512, 2048)
    for ratio, kept in ((3.8, 2048), (3.6, 2048), (3.2, 1536)):  # ~10% more tokens: kept; 25% more: moved
        drifted = Measurer(CharCounter(ratio))
        entry = drifted.measure([{"role": "tool", "tool_call_id": "c", "content": body}]).entries[0]
        entry.kept = first.kept
        again = truncated_text(entry, 512, drifted.overhead)
        assert entry.kept == (512, kept)
        assert (again == cut) == (kept == 2048)


def test_a_failed_calls_stub_is_the_line_its_fold_reads_so_a_later_fold_changes_nothing() -> None:
    """A failed call's result replaced by a stub reads as the line foldFailedCalls folds it to; when the
    fold reaches it on a later turn the message sent is the same (it went from stub to fold, and the
    prompt was computed again from there), and a folded result is never stubbed again."""
    from context_compactor.engine.plan import stubbed
    from context_compactor.engine.project import stub_text
    from context_compactor.messages import view_of
    from context_compactor.tool_calls import fold_failed

    call = {"role": "assistant", "content": None, "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "bash", "arguments": json.dumps({"command": "pytest -x"})}}]}
    output = "\n".join(f"tests/test_orders.py::test_case_{n} PASSED" for n in range(40))
    failed = {"role": "tool", "tool_call_id": "c1", "content": output + "\nE   KeyError: 'items'\n"
              "FAILED tests/test_orders.py::test_total - KeyError: 'items'\n1 failed, 40 passed in 2.1s"}
    measurer = Measurer(CharCounter(4.0))
    entries = measurer.measure([call, failed]).entries
    tool_call = view_of(call).calls[0]
    folded = fold_failed(failed, tool_call)
    assert folded is not None and stubbed(entries[1])
    assert stub_text(entries[1], tool_call) == folded["content"]
    again = measurer.measure([call, folded]).entries[1]
    assert not stubbed(again)  # the fold is sent as it is: the same bytes as the stub before it


def _uneven_history(turns: int) -> list[dict[str, Any]]:
    """A session whose tool results vary from a line to a few thousand characters, as reads, greps and test
    runs do: stubbing the old ones frees much or little room from one compaction to the next."""
    out: list[dict[str, Any]] = [{"role": "system", "content": "You are a coding agent."}]
    for t in range(turns):
        out.append({"role": "user", "content": f"Step {t}: check module_{t}.py against test {t}, then go on."})
        for r in range(1 + t % 3):
            cid = f"c{t}_{r}"
            out.append({"role": "assistant", "content": None, "tool_calls": [
                {"id": cid, "type": "function", "function": {"name": "read_file", "arguments": json.dumps(
                    {"path": f"src/module_{t}_{r}.py"})}}]})
            lines = (3, 90, 12, 40)[(t + r) % 4]
            out.append({"role": "tool", "tool_call_id": cid, "content": "\n".join(
                f"{n:4}\tdef handler_{t}_{r}_{n}(x):  return x * {n}" for n in range(lines))})
        out.append({"role": "assistant", "content": f"Module {t} checked; test {t} needs handler_{t}_0_1 fixed."})
    return out


def _stats(history: list[dict[str, Any]], window: int) -> list[Any]:
    """The figures of every model call of ``history`` through one Compactor."""
    out = []
    with Compactor(context_window=window) as compactor:
        for i, m in enumerate(history):
            if m["role"] == "assistant":
                out.append(compactor.compact(history[:i]).stats)
    return out


def test_what_a_compaction_folded_stays_folded() -> None:
    """A later compaction of the same history folds no fewer messages than the one before: a cut moved back
    (the older tool results stubbed now free enough room) unfolds messages and rewrites the block from its
    header, the whole prompt for a server's cache."""
    folded = [s.folded for s in _stats(_uneven_history(60), 8192) if s.compacted]
    assert len(set(folded)) >= 4, folded
    assert all(a <= b for a, b in zip(folded, folded[1:])), folded


def test_a_kept_plan_is_replaced_only_when_its_prompt_passes_the_trigger() -> None:
    """The last plan is sent again while its prompt stays under the trigger, its block priced at what the block
    measured (not at the room it was given): a new compaction comes only when the prompt sent last, and
    what came since, pass the trigger."""
    stats = _stats(_uneven_history(60), 8192)
    early = [(before, now) for before, now in zip(stats, stats[1:]) if before.compacted and now.compacted
             and now.folded != before.folded
             and before.tokens_after + (now.tokens_before - before.tokens_before) <= now.trigger]
    assert sum(1 for s in stats if s.compacted) >= 20
    assert not early, [(b.tokens_after, n.tokens_before - b.tokens_before, n.trigger) for b, n in early]


def test_a_tier_says_a_request_or_a_finding_once_but_an_instruction_again() -> None:
    """A later tier leaves out a request asked again and a line a tool printed again (the same words with a
    later citation): the tier that said it first holds it. The user's instruction said again is appended:
    a correction or revision may keep that one current."""
    from context_compactor.engine.plan import Plan
    from context_compactor.engine.tiers import Tiers, _tiered

    first = ("## User instructions (verbatim)\n- Use tabs in the Go files. [#3]\n"
             "## Found by tools\n- disk /dev/sdb1 is 97% full [#9]\n"
             "## Earlier requests of the user\n- did I leave the lights on [#12]\n")
    tiers = Tiers(lead=1, cut=20, first=19, text=first)
    full = ("## User instructions (verbatim)\n- Use tabs in the Go files. [#31]\n"
            "## Found by tools\n- disk /dev/sdb1 is 97% full [#36]\n- inode use 12% [#37]\n"
            "## Earlier requests of the user\n- did I leave the lights on [#40]\n- book the 9:40 train [#42]\n")
    body = _tiered(tiers, Plan(1, 44, 44), full, 4000, lambda text: len(text) // 4)
    assert body is not None and body.text.startswith(first.rstrip("\n"))
    tier = body.text[len(first.rstrip("\n")):]
    assert "- inode use 12% [#37]" in tier and "- book the 9:40 train [#42]" in tier, tier
    assert "lights on [#40]" not in tier and "97% full [#36]" not in tier, tier
    assert "- Use tabs in the Go files. [#31]" in tier, tier


def test_a_reused_plan_sends_its_block_byte_identical_while_the_calibration_moves() -> None:
    """Under the same plan the block is the same bytes, though the counter's calibration moves far from call
    to call: the same ledger rendered again at a new chars-per-token ratio holds a line more or less, and a
    block rewritten for that costs a prefix-caching server the whole prompt after the system prompt."""
    history = _history(40)
    for n, m in enumerate(history):  # more to say than the block has room for: what fits moves with the ratio
        if m["role"] == "user":
            m["content"] += (f" Never deploy service_{n} on a Friday. Keep the retry limit of queue_{n} at {n + 3}."
                             f" The ticket for it is OPS-{4000 + n}.")
    calls = []
    with Compactor(context_window=WINDOW) as compactor:
        for n, i in enumerate(i for i, m in enumerate(history) if m["role"] == "assistant"):
            result = compactor.compact(history[:i])
            text = _rendered(result.messages)
            compactor.record_usage(len(text) // (2 if n % 2 else 6))  # a ratio that swings from 2 to 6
            signature = compactor._runtime.session(compactor.session).signature
            calls.append((signature, _block(result.messages)))  # the fold, the stubs and the cut results
    same_plan = [(a[1], b[1]) for a, b in zip(calls, calls[1:]) if a[0] and a[0] == b[0] and a[1]]
    assert len(same_plan) >= 5
    assert all(before == after for before, after in same_plan), sum(before != after for before, after in same_plan)
