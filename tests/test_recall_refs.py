"""recall_history reads a message by the archive reference a stub or a cut gives (``ref cc:...``), as
it reads one by ``#n``: the reference the prompt shows is one the tool accepts (issue 24)."""

from __future__ import annotations

import re
from typing import Any

from convo import assistant, tool, user

from context_compactor.hookspecs import HookContext, ModelInfo, ToolCallEvent
from context_compactor.hooks.tools import RECALL


def _stubbed(make_runtime: Any, run_hook: Any, session: str = "s1") -> tuple[Any, str, str]:
    runtime = make_runtime()
    messages = [user("go")]
    for i in range(30):
        messages += [assistant("", [(f"c{i}", "read_file", {"path": f"f{i}.py"})]),
                     tool(f"c{i}", f"first line {i}\n" + f"value_{i} = 1\n" * 300 + f"LAST LINE {i}")]
    messages.append(user("continue"))
    result = run_hook(runtime, messages, window=16000, session=session)
    stub = result.messages[2]["content"]
    found = re.search(r"ref (cc:[0-9a-f]+)", stub)
    assert found, stub
    return runtime, found.group(1), messages[2]["content"]


def test_the_reference_a_stub_gives_reads_the_original(make_runtime: Any, run_hook: Any) -> None:
    """``ref cc:...`` from a stub, given as the id (with or without "ref"), returns the archived original,
    fenced as data, a page at a time."""
    runtime, ref, original = _stubbed(make_runtime, run_hook)
    ctx = HookContext(session_key="s1", runtime=runtime, model=ModelInfo(id="m"))
    for given in (ref, f"ref {ref}", ref.upper().replace("CC:", "cc:")):
        answer = RECALL.run(ToolCallEvent("recall_history", {"id": given}), ctx)
        assert "is not a message id" not in answer and "first line 0" in answer and "LAST LINE 0" in answer, answer
        assert answer.startswith(f"{ref} (tool)") and "<<<archived" in answer
    paged = RECALL.run(ToolCallEvent("recall_history", {"id": ref, "offset": 10}), ctx)
    assert f"characters 10-{len(original):,} of {len(original):,}" in paged, paged


def test_a_reference_of_another_session_or_none_is_not_read(make_runtime: Any, run_hook: Any) -> None:
    """A reference reads only this session's archive; one that names nothing says so and how to search."""
    runtime, ref, _original = _stubbed(make_runtime, run_hook)
    other = HookContext(session_key="s2", runtime=runtime, model=ModelInfo(id="m"))
    answer = RECALL.run(ToolCallEvent("recall_history", {"id": ref}), other)
    assert answer.startswith(f"recall_history: no archived message {ref}") and "query" in answer
    mine = HookContext(session_key="s1", runtime=runtime, model=ModelInfo(id="m"))
    assert "no archived message cc:000000" in RECALL.run(ToolCallEvent("recall_history", {"id": "cc:000000"}), mine)
