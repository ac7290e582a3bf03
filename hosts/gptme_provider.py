"""gptme's ``default`` context provider: its other call sites get the projection our view sends.

gptme asks the context provider registered as ``default`` (entry point ``gptme.context_providers``)
when it trims on its own: overflow recovery, ``/compact trim``, and its autocompact's rule-based path.
A provider under that name replaces gptme's own, so this one is gptme's own
(``DefaultContextProvider``, subclassed) until the plugin is enabled (``[plugin.context-compactor]
enabled = true``): installing context-compactor alone changes nothing. Enabled, it returns the same
projection the ``STEP_PRE`` hook installs (kept messages are gptme's own objects); on any error of ours,
or when the plugin is not loaded, gptme's own provider answers.

This module imports gptme when it is imported, which only gptme does (through the entry point).
"""

from __future__ import annotations

import importlib
from typing import Any

from ..logs import get_logger
from .gptme import GptmeHost

logger = get_logger()

_gptme = importlib.import_module("gptme.tools.autocompact.context_provider")


class _Ours:
    """gptme's ``default`` provider, answered by the plugin's Compactor for the log folder when enabled;
    mixed before gptme's own ``DefaultContextProvider`` (what ``super()`` reaches) below."""

    def compress(self, messages: list[Any], config: Any) -> Any:
        own = super().compress  # type: ignore[misc]  # gptme's DefaultContextProvider, next in the MRO
        host = GptmeHost.current
        if host is None or not host.enabled or getattr(config, "logdir", None) is None:
            return own(messages, config)
        try:
            projection = host.project(list(messages), config.logdir)
        except Exception as exc:  # noqa: BLE001 - our failure must never stop gptme: its own provider answers
            logger.warning("gptme.provider_failed", error=f"{type(exc).__name__}: {exc}")
            return own(messages, config)
        return _gptme.CompactionResult(
            messages=list(messages) if projection is None else projection,
            source_digest=_gptme._compute_source_digest(list(messages)),
            covered_through=len(messages) - 1 if messages else -1,
            limitations=["context-compactor: what left the prompt is in its archive, not rewritten"],
        )


CompactorProvider: type = type("CompactorProvider", (_Ours, _gptme.DefaultContextProvider), {"__module__": __name__})
