"""gptme's own objects through our gptme parts: the ``default`` context provider gptme's trim paths
ask (gptme's own until the plugin is enabled), pinned messages never folded, and stubs that name the
result's id in gptme's ``recall`` tool."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

if os.environ.get("CONTEXT_COMPACTOR_REQUIRE_HOSTS", "").find("gptme") < 0:
    pytest.importorskip("gptme", reason="gptme is tested in its own environment (pip install -e '.[test,gptme]')")


@pytest.fixture(autouse=True)
def _offline(monkeypatch: pytest.MonkeyPatch) -> None:
    """gptme's token counting does not wait for tiktoken's download (there is no network here)."""
    monkeypatch.setenv("GPTME_TIKTOKEN_TIMEOUT", "0")
    monkeypatch.setenv("GPTME_NO_LOCAL_DISCOVERY", "1")


@pytest.fixture
def gptme_host() -> Any:
    """The plugin's host as gptme loads it (through ``plugin()``), enabled with a 2,000-token window."""
    from context_compactor.hosts import gptme as ours

    ours.plugin()
    host = ours.GptmeHost.current
    host.options = {"enabled": True, "context_window": 2000}
    host.loaded = True
    yield host
    host.close()
    ours.GptmeHost.current = None


def _log(pin_at: int | None = None) -> list[Any]:
    """A gptme log: a system prompt, then turns that run a shell block and get its long output."""
    from gptme.message import Message

    log = [Message("system", "You are gptme.", pinned=True)]
    for i in range(16):
        log.append(Message("user", f"step {i}: count the lines of module m{i}"))
        log.append(Message("assistant", f"Counting.\n```shell\nwc -l src/m{i}.py\n```"))
        log.append(Message("system", "\n".join(f"line {k} of the output of step {i}" for k in range(40))))
        log.append(Message("assistant", f"Module m{i} has 40 lines."))
        if i == pin_at:
            log.append(Message("system", "Pinned: the user wants every answer in French.", pinned=True))
    return log


def _config(logdir: Path) -> Any:
    from gptme.tools.autocompact.context_provider import CompressionConfig

    return CompressionConfig(logdir=logdir)


def test_default_provider_is_gptmes_own_until_enabled(tmp_path: Path) -> None:
    """Installed but not enabled, gptme's `default` provider is ours and answers exactly as gptme's own."""
    from gptme.tools.autocompact.context_provider import DefaultContextProvider, get_context_provider

    provider = get_context_provider("default")
    assert type(provider).__name__ == "CompactorProvider"
    log = _log()
    ours = provider.compress(log, _config(tmp_path))
    theirs = DefaultContextProvider().compress(log, _config(tmp_path))
    assert [(m.role, m.content) for m in ours.messages] == [(m.role, m.content) for m in theirs.messages]


def test_default_provider_returns_the_projection(gptme_host: Any, tmp_path: Path) -> None:
    """Enabled, gptme's trim paths get the projection the view sends: smaller, kept messages gptme's own."""
    from gptme.tools.autocompact.context_provider import get_context_provider

    log = _log()
    result = get_context_provider("default").compress(log, _config(tmp_path))
    assert len(result.messages) < len(log)
    assert result.messages[0] is log[0] and result.messages[-1] is log[-1]
    assert any("context-compactor" in m.content for m in result.messages)
    assert result.covered_through == len(log) - 1


def test_pinned_message_is_never_folded(gptme_host: Any, tmp_path: Path) -> None:
    """A pinned system message from the part that is folded is sent as it is (gptme's own object)."""
    log = _log(pin_at=2)
    pinned = next(m for m in log if m.content.startswith("Pinned"))
    projection = gptme_host.project(log, tmp_path, master=True)
    assert projection is not None and len(projection) < len(log)
    assert any(m is pinned for m in projection)
    assert not any(m is log[6] for m in projection)  # step 1's output, older than the pin, left the prompt


def test_stub_names_the_result_in_gptmes_recall(gptme_host: Any, tmp_path: Path) -> None:
    """A stubbed result of the master log says which ``recall_result(N)`` gptme's recall tool reads it with."""
    from gptme.util.master_context import is_tool_result_message

    gptme_host.options["keep_recent_tokens"] = 1200
    log = _log()
    projection = gptme_host.project(log, tmp_path, master=True)
    stubs = [m.content for m in projection if "recall_result(" in m.content]
    assert stubs, [m.content[:80] for m in projection]
    place = int(stubs[0].rsplit("recall_result(", 1)[1].split(")")[0])
    assert is_tool_result_message(log, place - 1)
    assert log[place - 1].content.startswith("line 0 of the output of step")


def test_a_warm_conversion_equals_a_full_one() -> None:
    """Converting the grown log from the last conversion gives what converting it whole gives, and the
    turns before the current one are the same chat objects as last time."""
    from context_compactor.hosts.gptme_messages import to_chat

    log = _log(pin_at=5)
    previous = None
    for end in range(2, len(log) + 1):
        warm = to_chat(log[:end], master=True, previous=previous)
        full = to_chat(log[:end], master=True)
        assert (warm.messages, warm.pinned, warm.results) == (full.messages, full.pinned, full.results)
        assert all(warm.origin[id(chat)] is full.origin[id(other)] for chat, other in zip(warm.messages, full.messages))
        if previous is not None and end > 8:
            assert warm.messages[1] is previous.messages[1]
        previous = warm


def test_gptmes_budget_is_our_triggers_ceiling(gptme_host: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """When gptme's own compaction budget (GPTME_CONTEXT_BUDGET) is at or below our trigger, we trigger one
    token below it (gptme compacts when a prompt reaches its budget, we when one passes our trigger), so
    gptme's autocompact never fires before we compact."""
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("GPTME_CONTEXT_BUDGET", "1200")
    from gptme.llm.models import set_default_model

    set_default_model("local/fake")
    from context_compactor.hosts.gptme_messages import to_chat

    compactor = gptme_host._compactor_for(tmp_path)
    assert compactor.compact(to_chat(_log()).messages).stats.trigger == 1199
