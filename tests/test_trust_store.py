"""Issue 21, defect 3: one lone surrogate in a message never stops a store, through any host.

A ``\\ud83d`` (what Node's ``JSON.stringify`` writes for half an emoji) or the bytes ``ed a0 80`` in a
message are repaired at the boundary (``messages.repaired``): that session still compacts and archives, a
failed store write rolls its transaction back, and no other session or process on the store waits for it.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ocfakes.bridge import Child

import context_compactor
from context_compactor.messages import repaired, repaired_text
from context_compactor.store import Store, StoreError

HALF_EMOJI = "\ud83d"


def openclaw_history(turns: int, odd: str = "") -> list[dict[str, Any]]:
    """A long OpenClaw session whose first user message carries ``odd``."""
    out: list[dict[str, Any]] = []
    for t in range(turns):
        text = f"turn {t} {odd if t == 0 else ''} " + "word " * 300
        out.append({"role": "user", "content": text, "timestamp": t})
        out.append({"role": "assistant", "content": [{"type": "text", "text": f"answer {t}"}], "timestamp": t})
    return out


def store_is_free(path: Path) -> bool:
    """Whether another process could write the store at once (no transaction left open on it)."""
    other = sqlite3.connect(path, timeout=0, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        other.execute("ROLLBACK")
        return True
    except sqlite3.OperationalError:
        return False
    finally:
        other.close()


def archived_texts(path: Path) -> dict[str, list[str]]:
    db = sqlite3.connect(path)
    try:
        rows = db.execute("SELECT session_key, message FROM archive ORDER BY id").fetchall()
    finally:
        db.close()
    out: dict[str, list[str]] = {}
    for key, message in rows:
        out.setdefault(key, []).append(message)
    return out


def test_repair_makes_lone_surrogates_a_replacement_character_and_joins_split_pairs() -> None:
    """A lone surrogate becomes U+FFFD, a pair split in two is the character it stands for, clean text is kept."""
    assert repaired_text(f"a{HALF_EMOJI}b") == "a\ufffdb"
    assert repaired_text("a\ud83d\ude00b") == "a\U0001f600b"
    clean = "déjà vu \U0001f600"
    assert repaired_text(clean) is clean


def test_repair_leaves_clean_objects_alone_and_never_changes_the_callers() -> None:
    """Data without a surrogate comes back as the very object; data with one as a repaired copy."""
    clean = {"role": "user", "content": [{"type": "text", "text": "ok"}]}
    assert repaired(clean) is clean
    assert repaired(clean, json.dumps(clean).encode()) is clean
    odd = {"role": "user", "content": [{"type": "text", "text": f"x{HALF_EMOJI}"}]}
    fixed = repaired(odd)
    assert fixed == {"role": "user", "content": [{"type": "text", "text": "x\ufffd"}]}
    assert odd["content"][0]["text"] == f"x{HALF_EMOJI}"


def test_a_surrogate_through_the_bridge_compacts_and_archives_and_leaves_the_store_free(tmp_path: Path) -> None:
    """Through the bridge's stdio, a session whose message holds ``\\ud83d`` (escaped) and one whose message
    holds the bytes ``ed a0 80`` both compact; both are archived, and no transaction is left open."""
    child = Child(tmp_path)
    try:
        child.request("configure", {"config": {"maxTokens": 3000, "keepRecentTokens": 500}})
        escaped = child.request("assemble", {"sessionKey": "escaped", "messages": openclaw_history(20, HALF_EMOJI),
                                             "prompt": "and now?", "tokenBudget": 90000, "model": "fake/m"})
        line = json.dumps({"id": 99, "method": "assemble", "params": {
            "sessionKey": "raw", "messages": openclaw_history(20, "RAW-SURROGATE"), "prompt": "and now?",
            "tokenBudget": 90000, "model": "fake/m"}}).encode().replace(b"RAW-SURROGATE", b"\xed\xa0\x80")
        assert child.proc.stdin is not None and child.proc.stdout is not None
        child.proc.stdin.flush()
        child.proc.stdin.buffer.write(line + b"\n")
        child.proc.stdin.buffer.flush()
        raw = json.loads(child.proc.stdout.readline())
        clean = child.request("assemble", {"sessionKey": "clean", "messages": openclaw_history(20),
                                           "prompt": "and now?", "tokenBudget": 90000, "model": "fake/m"})
    finally:
        log = child.close()
    for reply in (escaped, raw, clean):
        assert "error" not in reply and reply["result"]["messages"] is not None, reply
    assert "compaction.failed" not in log and "UnicodeEncodeError" not in log
    store = tmp_path / "context-compactor" / "store.sqlite"
    archived = archived_texts(store)
    assert set(archived) == {"escaped", "raw", "clean"}
    assert any("\ufffd" in text for text in archived["escaped"]) and any("\ufffd" in text for text in archived["raw"])
    assert store_is_free(store)


def history(odd: str = "") -> list[dict[str, Any]]:
    """A long OpenAI chat history whose first user message carries ``odd``."""
    out: list[dict[str, Any]] = [{"role": "system", "content": "You help."}]
    for t in range(40):
        out.append({"role": "user", "content": f"question {t} {odd if t == 0 else ''} " + "word " * 100})
        out.append({"role": "assistant", "content": f"answer {t} " + "blah " * 100})
    return out


def test_a_surrogate_through_the_api_compacts_and_the_kept_messages_are_the_callers(tmp_path: Path) -> None:
    """Through the Python API with a store file, a history holding ``\\ud83d`` compacts; what leaves is
    archived (repaired), kept messages come back as the caller's own objects, another session compacts too."""
    path = tmp_path / "store.sqlite"
    messages = history(HALF_EMOJI)
    with context_compactor.Compactor(context_window=2048, store=path, session="odd") as compactor:
        result = compactor.compact(messages)
        last = {"role": "user", "content": f"more {HALF_EMOJI}"}
        again = compactor.compact([*messages, {"role": "assistant", "content": "ok"}, last])
    assert result.stats.compacted and again.stats.compacted
    assert result.messages[0] is messages[0] and result.messages[-1] is messages[-1]
    assert again.messages[-1] is last  # kept, and given back as the caller's own object
    assert messages[1]["content"].startswith(f"question 0 {HALF_EMOJI}")  # the caller's object is untouched
    with context_compactor.Compactor(context_window=2048, store=path, session="other") as compactor:
        assert compactor.compact(history()).stats.compacted
    archived = archived_texts(path)
    assert set(archived) == {"odd", "other"} and any("\ufffd" in text for text in archived["odd"])
    assert store_is_free(path)


def test_a_failed_store_write_rolls_back_and_leaves_the_store_to_others(tmp_path: Path) -> None:
    """A write that fails on text the store cannot encode is a StoreError, and its transaction is rolled
    back: the next write works, and another process can write at once."""
    path = tmp_path / "store.sqlite"
    store = Store.open(path)
    try:
        with pytest.raises(StoreError, match="not valid Unicode"):
            store.archive(f"key{HALF_EMOJI}", [("d1", "user", {"role": "user", "content": "x"}, 0)])
        assert store_is_free(path)
        assert store.archive("fine", [("d2", "user", {"role": "user", "content": f"y{HALF_EMOJI}"}, 0)]) == 1
        store.put("k", f"summary {HALF_EMOJI}", "test")
        assert store.get("k") == "summary \ufffd"
    finally:
        store.close()
    assert archived_texts(path) == {"fine": [json.dumps({"role": "user", "content": "y\ufffd"}, ensure_ascii=False)]}


def test_a_surrogate_through_the_gateway_compacts_and_is_answered(tmp_path: Path) -> None:
    """Over HTTP on 127.0.0.1, a chat request whose message holds ``\\ud83d`` (escaped) or the bytes
    ``ed a0 80`` is compacted, archived and answered, and leaves the store free for other processes."""
    import httpx
    from convo import coding_session
    from fakes.harness import fake_upstream, gateway_for

    messages = coding_session()
    messages[1] = {**messages[1], "content": f"{messages[1]['content']} half {HALF_EMOJI} emoji"}
    escaped = json.dumps({"model": "m", "messages": messages}).encode()
    with fake_upstream() as up, gateway_for(up.url, tmp_path, settings={"contextWindow": 4000}) as gw:
        for session, body in (("escaped", escaped), ("raw", escaped.replace(b"\\ud83d", b"\xed\xa0\x80"))):
            answer = httpx.post(f"{gw.url}/v1/chat/completions", content=body, timeout=60,
                                headers={"content-type": "application/json", "X-Session-Id": session})
            assert answer.status_code == 200 and "x-context-compactor-tokens" in answer.headers, answer.text
    path = tmp_path / "gateway-store.sqlite"
    assert {key.split(":")[-1] for key in archived_texts(path)} == {"escaped", "raw"}
    assert store_is_free(path)


def test_a_session_that_cannot_compact_says_so_in_the_notices(tmp_path: Path) -> None:
    """When compaction fails (here: the store lost its archive table under another process's hands), the API
    sends the prompt unchanged and says so in the notices, instead of staying silent."""
    path = tmp_path / "store.sqlite"
    messages = history()[:13]
    with context_compactor.Compactor(context_window=4096, compact_at=0.3, compact_to=0.2, store=path, session="s") as compactor:
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("DROP TABLE archive")
        other.close()
        result = compactor.compact(messages)
    assert result.messages is messages and result.stats.fits and not result.stats.compacted
    assert any("compaction failed this turn" in notice for notice in result.notices), result.notices


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.one_of(st.characters(), st.characters(categories=["Cs"]))))  # Cs: surrogates
def test_repaired_text_is_always_writable_and_keeps_text_that_was(text: str) -> None:
    """Any string comes out encodable as UTF-8; a string that already was comes out as itself."""
    fixed = repaired_text(text)
    fixed.encode("utf-8")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        assert fixed != text and len(fixed) <= len(text)
    else:
        assert fixed is text
