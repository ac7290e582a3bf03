"""The health OpenClaw's users see: the session model's summary failures under their real kind, counted in
``/context-stats`` and in the file ``doctor`` reads; through the real stdio bridge."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ocfakes.bridge import Child

KEY = "agent:main:explicit:s1"


def history(turns: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for t in range(turns):
        out.append({"role": "user", "content": f"turn {t} KEEP-{t} " + "word " * 300, "timestamp": t})
        out.append({"role": "assistant", "content": [{"type": "text", "text": f"answer {t}"}], "timestamp": t})
    return out


def test_a_session_model_500_is_a_server_error_not_a_timeout(child: Child, tmp_path: Path) -> None:
    """llm.complete failing with the provider's 500: the built-in summary stands in, /context-stats counts the
    fallback and names the error's kind, and the health file for doctor says the same."""
    child.request("configure", {"config": {"maxTokens": 3000, "keepRecentTokens": 500}, "llm": True, "model": "fake/m"})
    params = {"sessionKey": KEY, "messages": history(60), "prompt": "and now?", "tokenBudget": 90000, "model": "fake/m"}
    reply = child.request("assemble", params, error="500 Internal Server Error: upstream model crashed")
    assert reply["result"]["messages"], reply
    stats = child.request("command", {"name": "context-stats", "sessionKey": KEY})["result"]["text"]
    assert "failed: server_error" in stats and "timeout" not in stats, stats
    assert "last error (server_error: 500 Internal Server Error" in stats, stats
    fallbacks = [line for line in stats.splitlines() if "built-in summary used instead" in line]
    assert fallbacks and "0 fallbacks" not in fallbacks[0] and "server_error" in fallbacks[0], stats
    health = json.loads((tmp_path / "context-compactor" / "summarizer-health.json").read_text())
    assert health["last_kind"] == "server_error" and health["failures"].get("server_error", 0) >= 1
    assert health["summarizer"] == "openclaw-llm:fake/m"


def assemble(child: Child, turns: int) -> dict[str, Any]:
    return child.request("assemble", {"sessionKey": KEY, "messages": history(turns), "prompt": "and now?",
                                      "tokenBudget": 90000, "model": "fake/m"})


def test_overflow_recovery_sends_a_strictly_smaller_prompt_each_try(child: Child) -> None:
    """OpenClaw's compact() after an overflow: compacted, each try at most 0.7x the prompt before it, and the
    retry's assemble sends that smaller prompt."""
    child.request("configure", {"config": {}})
    sent = assemble(child, 60)["result"]
    assert sent["messages"] is None  # under the trigger: sent as it is
    before = child.request("compact", {"sessionKey": KEY, "trigger": "overflow", "currentTokenCount": 30000})["result"]
    assert before["compacted"] and before["tokensAfter"] <= 0.7 * before["tokensBefore"], before
    retry = assemble(child, 60)["result"]
    assert retry["messages"] and retry["stats"]["tokens_after"] == before["tokensAfter"], retry["stats"]
    again = child.request("compact", {"sessionKey": KEY, "trigger": "overflow"})["result"]
    assert again["compacted"] and again["tokensBefore"] == before["tokensAfter"]
    assert again["tokensAfter"] <= 0.7 * again["tokensBefore"], again


def test_compact_says_compacted_only_when_the_prompt_got_smaller(child: Child) -> None:
    """A manual /compact on a prompt with nothing left to fold reports not compacted, with the reason."""
    child.request("configure", {"config": {}})
    assemble(child, 2)
    done = child.request("compact", {"sessionKey": KEY, "trigger": "manual"})["result"]
    assert done["compacted"] is False and "nothing compacted" in done["reason"], done
    assemble(child, 60)
    done = child.request("compact", {"sessionKey": KEY, "trigger": "manual"})["result"]
    assert done["compacted"] and done["tokensAfter"] < done["tokensBefore"], done
    again = child.request("compact", {"sessionKey": KEY, "trigger": "manual"})["result"]
    assert again["compacted"] is False, again


def test_openclaws_preflight_on_a_prompt_that_fits_is_a_benign_skip(child: Child) -> None:
    """OpenClaw's preflight ("budget": its count of the whole transcript) on a prompt we keep within the window:
    nothing compacted, the reason OpenClaw reads as "already under target", and the window is not shrunk."""
    child.request("configure", {"config": {}})
    first = assemble(child, 60)["result"]["stats"]
    done = child.request("compact", {"sessionKey": KEY, "trigger": "budget", "currentTokenCount": 120000})["result"]
    assert done["compacted"] is False and done["reason"].startswith("already under target"), done
    again = assemble(child, 60)["result"]
    assert again["messages"] is None and again["stats"]["window"] == first["window"], again["stats"]
