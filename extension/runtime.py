"""The runtime a host builds once: settings, store, summarizers, and the sessions it has seen.

Hooks reach it through ``ctx.runtime``. Per session it keeps a measurer (so a turn costs work
proportional to what is new), the plan of the last compaction (so the projection stays
byte-stable between compactions and the host's prompt cache stays warm), and the figures that
``/context-stats`` reports. Persistent parts go to the store.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from .hookspecs import ModelInfo
from .settings import DEFAULT_CONTEXT_WINDOW, Settings
from .store import Store, default_store_path
from .tokens import Counter, make_counter

MAX_SESSIONS_IN_MEMORY = 256


class Runtime:
    """Everything the hooks share within one host process."""

    def __init__(self, settings: Settings, *, store: Store | None = None, summarizer: Any = None,
                 persist_sessions: bool = True) -> None:
        from context_compactor.summarizer.fallback import ExtractiveSummarizer

        self.settings = settings
        self.persist_sessions = persist_sessions
        self.store = store if store is not None else Store.open(
            settings.store_path or default_store_path(), max_entries=settings.cache_max_entries)
        self.fallback = ExtractiveSummarizer()
        self.summarizer = summarizer if summarizer is not None else self.fallback
        self._sessions: OrderedDict[str, Any] = OrderedDict()
        self._lock = threading.Lock()
        self._ratios: dict[str, tuple[float, int] | None] = {}
        self._windows: dict[str, tuple[int, str]] = {}  # learned per model: (tokens, source)

    def session(self, key: str) -> Any:
        """The in-memory state of a session (created on first sight, least recently used dropped)."""
        from .session import Session

        with self._lock:
            session = self._sessions.get(key)
            if session is None:
                session = Session(key, self.store.session(key) if self.persist_sessions else {})
                self._sessions[key] = session
                while len(self._sessions) > MAX_SESSIONS_IN_MEMORY:
                    self._sessions.popitem(last=False)
            else:
                self._sessions.move_to_end(key)
            return session

    def settings_for(self, model: ModelInfo) -> Settings:
        return self.settings.for_model(model.id)

    def counter_for(self, settings: Settings, model: ModelInfo) -> Counter:
        """The token counter for a model: tiktoken when asked, else the (calibrated) ratio."""
        ratio = settings.chars_per_token
        if settings.tokenizer == "chars" and settings.calibrate:
            learned = self.calibration(model.id)
            if learned is not None:
                ratio = learned[0]
        return make_counter(settings.tokenizer, ratio)

    def calibration(self, model_id: str) -> tuple[float, int] | None:
        """The learned (ratio, samples) of a model, read from the store once per process."""
        if model_id not in self._ratios:
            self._ratios[model_id] = self.store.calibration(model_id)
        return self._ratios[model_id]

    def learn_ratio(self, model_id: str, ratio: float) -> None:
        samples = (self.calibration(model_id) or (ratio, 0))[1] + 1
        self._ratios[model_id] = (ratio, samples)
        self.store.save_calibration(model_id, ratio, samples)

    def window_for(self, settings: Settings, model: ModelInfo) -> tuple[int, str]:
        """The context window and where it came from.

        Priority: our config; a size the model server itself stated in an overflow error; what the
        host says; what the model server answered when asked ("probe"); else 8192 ("default").
        """
        if settings.context_window:
            return settings.context_window, "config"
        learned = self._windows.get(model.id)
        if learned and learned[1] == "error":
            return learned
        if model.context_window:
            return model.context_window, "host"
        if learned:
            return learned
        return DEFAULT_CONTEXT_WINDOW, "default"

    def learn_window(self, model_id: str, window: int, source: str) -> None:
        """Remember a model's context window, learned from its server ("probe") or an error ("error")."""
        self._windows[model_id] = (window, source)

    def close(self) -> None:
        self.store.close()
