"""The hosts read the typed turn, never a session's insides (issue 24).

A host (``serve``, the CLI, the in-process adapters, OpenClaw's bridge and its ``compact()``, the Python
API) learns what a turn decided from ``before_agent_start``'s result, what a command did from its
``CommandResult``, and asks for a forced compaction with ``BeforeAgentStartEvent.force``. The README tells
host authors the same. Only the hooks (``hooks/``) and the engine's own modules touch a ``Session``.
"""

from __future__ import annotations

import re
from pathlib import Path

from conftest import ROOT

HOSTS = [ROOT / "gateway", ROOT / "setup_cli", ROOT / "hosts", ROOT / "extension" / "bridge.py",
         ROOT / "extension" / "api.py", ROOT / "extension" / "openclaw_recovery.py"]
# A runtime's session, and what a Session holds: the event and figures of its last call, its forced
# compaction, its persisted state, what it archived.
REACH_IN = re.compile(r"\.session\(|\._sessions\b|\.last_event\b|\.request_compaction\(|\.last\.stats\b|"
                      r"\.state\.(?:get|compactions|anchor|tiers|holding|pinned)\b|\.archived_new\b")


def _sources() -> list[Path]:
    return sorted(p for h in HOSTS for p in ([h] if h.is_file() else h.rglob("*.py")))


def test_no_host_reaches_into_a_session() -> None:
    """No host module calls ``runtime.session(...)`` or reads a session's fields: each line found is named."""
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}" for path in _sources()
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if REACH_IN.search(line)]
    assert not found, "hosts read the typed results instead (see tests/test_host_reach_ins.py):\n" + "\n".join(found)


def test_the_check_sees_a_reach_in() -> None:
    """The pattern finds the reach-ins the hosts had before the typed turn (so the check above can fail)."""
    for line in ("session = self.gw.runtime.session(self.key)", "stats = session.last.stats",
                 "self.runtime.session(turn.key).state.get('compactions', 0)", "session.request_compaction(None)",
                 "if session.last_event is turn.event:"):
        assert REACH_IN.search(line), line
    assert not REACH_IN.search("stats = result.stats if result is not None else None")
