"""Settings tuned to the model's size: which context window the default model has, and its preset.

The window comes from ``openclaw.json`` (``models.providers.<p>.models[].contextWindow``) or, when
the file does not state it, from asking the model's server; the preset then sizes the recent tail,
tool results and summarizer chunks; the ledger takes the room the target leaves (``summaryMaxTokens``
stays unset, "auto"). The trigger and target need no preset: they
follow the window OpenClaw reports for each turn.
"""

from __future__ import annotations

from typing import Any

PRESETS: dict[str, dict[str, int]] = {
    "4k": {"keepRecentTokens": 800, "maxToolResultTokens": 800, "chunkTokens": 2000},
    "8k": {"keepRecentTokens": 2000, "maxToolResultTokens": 1500, "chunkTokens": 4000},
    "32k": {"keepRecentTokens": 4000, "maxToolResultTokens": 3000, "chunkTokens": 8000},
    "128k": {"keepRecentTokens": 12000, "maxToolResultTokens": 8000, "chunkTokens": 16000},
}


def model_window(data: dict[str, Any]) -> tuple[int | None, str]:
    """The default model's context window as openclaw.json states it, and which model that is."""
    model = ((data.get("agents") or {}).get("defaults") or {}).get("model")
    ref = model if isinstance(model, str) else (model or {}).get("primary") if isinstance(model, dict) else None
    if not isinstance(ref, str) or "/" not in ref:
        return None, "no default model in openclaw.json"
    provider, _, model_id = ref.partition("/")
    spec = ((data.get("models") or {}).get("providers") or {}).get(provider) or {}
    for entry in spec.get("models") or []:
        if isinstance(entry, dict) and entry.get("id") == model_id and isinstance(entry.get("contextWindow"), int):
            return entry["contextWindow"], ref
    return _ask_server(spec, model_id), ref


def _ask_server(spec: dict[str, Any], model_id: str) -> int | None:
    base = spec.get("baseUrl")
    if not isinstance(base, str):
        return None
    try:
        from context_compactor.summarizer.client import Endpoint, make_client
        from context_compactor.summarizer.probe import probe_window

        with make_client() as client:
            return probe_window(client, Endpoint(base, model_id, "openai", None), seconds=4.0).window
    except Exception:  # noqa: BLE001 - a server that cannot say just means "unknown"
        return None


def preset_for(window: int | None) -> str:
    """The preset for a context window of ``window`` tokens ("8k" when it is unknown)."""
    if window is None:
        return "8k"
    return "4k" if window <= 6000 else "8k" if window <= 16384 else "32k" if window <= 65536 else "128k"


def preset_names() -> list[str]:
    """The presets from the smallest model to the largest, as ``--preset`` offers them."""
    return sorted(PRESETS, key=lambda k: int(k[:-1]))


# OpenClaw's own part of every prompt, its system prompt and tool schemas, in tokens (2026.9.6, no
# workspace files, measured with its fake model test): about 7.4k with tools.profile "minimal" (plus
# read), about 12.4k with the default tools. Used until the bridge has measured it (openclaw-prompt.json).
TYPICAL_FIXED = {"minimal": 7000}
DEFAULT_FIXED = 12000


def fixed_prompt(data: dict[str, Any], measured: dict[str, Any] | None) -> tuple[int, str]:
    """OpenClaw's fixed prompt in tokens, and where the figure comes from (measured, or typical for the profile)."""
    if measured and isinstance(measured.get("fixedTokens"), int):
        return measured["fixedTokens"], (f"measured on {measured.get('at', '?')}: system prompt "
                                         f"{measured.get('systemTokens', 0):,}, tool schemas {measured.get('toolTokens', 0):,}")
    profile = (data.get("tools") or {}).get("profile") if isinstance(data.get("tools"), dict) else None
    tokens = TYPICAL_FIXED.get(str(profile), DEFAULT_FIXED)
    return tokens, f"typical for tools.profile {profile or 'unset'}; measured on the first turn"


def fit_problem(fixed: int, window: int, source: str, compact_at: float = 0.75) -> str | None:
    """The plain statement that OpenClaw's own prompt leaves a ``window``-token model no room, or None."""
    if fixed < compact_at * window:
        return None
    where = "is larger than" if fixed >= window else "leaves almost no room in"
    return (f"OpenClaw's own prompt (system prompt and tool schemas) is about {fixed:,} tokens ({source}) and {where} "
            f"the model's {window:,}-token context window: no compaction can make this model work. Fixes: a "
            "smaller tool profile (tools.profile \"minimal\" in openclaw.json), a model with a larger window, or "
            "`context-compactor serve` in front of the model server")
