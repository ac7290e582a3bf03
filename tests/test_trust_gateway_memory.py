"""Issue 21, defect 4: the process-wide extractive memo is bounded in bytes and holds no request body
after its turn (it held every message object of every request, 200,000 deep). RSS under load is a
figure, not an assertion: ``python bench/gateway.py --parts soak``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fakes.harness import fake_upstream, gateway_for, sdk

from context_compactor.messages import view_of
from context_compactor.summarizer.fallback import ExtractiveSummarizer

PASTE = "\n".join(f"row {i}: value-{i} " + "payload " * 20 for i in range(1500))  # ~260,000 characters


def history(tag: str) -> list[dict[str, Any]]:
    call = {"id": "c1", "type": "function", "function": {"name": "bash", "arguments": '{"command": "cat big.log"}'}}
    messages: list[dict[str, Any]] = [{"role": "system", "content": "You are a coding agent."},
                                      {"role": "user", "content": f"{tag}: look at the log"},
                                      {"role": "assistant", "content": None, "tool_calls": [call]},
                                      {"role": "tool", "tool_call_id": "c1", "content": PASTE}]
    for i in range(20):
        messages.append({"role": "user", "content": f"{tag} step {i}: " + f"refactor module-{i} " * 60})
        messages.append({"role": "assistant", "content": f"done {i}: " + f"edited file-{i} " * 60})
    messages.append({"role": "user", "content": "go on"})
    return messages


def memo_objects(summarizer: ExtractiveSummarizer) -> list[Any]:
    """Everything the memo holds: its keys' parts and its items' fields."""
    out: list[Any] = []
    for key, (items, _size) in summarizer._memo.items():
        out += list(key)
        for item in items:
            out += list(item)
    return out


def test_after_a_compacting_turn_the_memo_holds_no_message_and_no_long_text(tmp_path: Path) -> None:
    """A turn that compacts a 260,000-character tool result leaves only ledger items in the memo: no message
    object, no text longer than an item's clip, within the byte cap."""
    with fake_upstream() as up, gateway_for(up.url, tmp_path, settings={"contextWindow": 8000}) as gw:
        reply = sdk(gw.url).chat.completions.with_raw_response.create(model="m", messages=history("a"))
        assert reply.headers["x-context-compactor-compacted"] == "1"
        memo = gw.runtime.fallback
        held = memo_objects(memo)
    assert memo._memo, "the turn went through the extractive memo"
    assert not [o for o in held if isinstance(o, (dict, list))]
    assert max(len(o) for o in held if isinstance(o, str)) < 2000
    assert memo._memo_bytes <= memo.memo_limit


def test_the_memo_stays_under_its_byte_cap_and_gives_the_same_items() -> None:
    """With a small cap the memo drops its oldest entries to stay under it; items are the same as a fresh
    summarizer's, hit or miss."""
    small = ExtractiveSummarizer(memo_bytes=20_000)
    for tag in ("a", "b", "c"):
        messages = history(tag)
        views = [view_of(m) for m in messages]
        first = small.items(messages, views, 0)
        again = small.items([dict(m) for m in messages], views, 0)  # new objects, same content
        assert first == again == ExtractiveSummarizer().items(messages, views, 0)
        assert small._memo_bytes <= 20_000
