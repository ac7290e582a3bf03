"""The runtime a host builds once: settings, store, summarizers, and the sessions it has seen.

Hooks reach it through ``ctx.runtime``. Per session it keeps a measurer (so a turn costs work
proportional to what is new), the plan of the last compaction (so the projection stays
byte-stable between compactions and the host's prompt cache stays warm), and the figures that
``/context-stats`` reports. Persistent parts go to the store.

It also owns what talks to model servers: one ``httpx.Client`` (built on first use by
:func:`~context_compactor.summarizer.client.make_client`), one :class:`LLMSummarizer` per summary
model (so its failure history, and so its backoff, is shared by every session), the background
runner of summary calls, and the context windows probed from servers. :meth:`close` stops the
background work first, then the client, then the store.
"""

from __future__ import annotations

import os
import threading
import time
from collections import OrderedDict
from typing import Any

import httpx

from .logs import get_logger
from .presummarize import Background
from .session import Session
from .session_state import SessionState
from .settings import DEFAULT_CONTEXT_WINDOW, Settings
from .store import Store, default_store_path
from .tokens import Counter, make_counter
from .turn_types import ModelInfo
from .windows import OverheadFit

MAX_SESSIONS_IN_MEMORY = 256
REPROBE_SECONDS = 600.0
INDEX_GRACE_SECONDS = 0.05  # the background indexer starts this long after a turn asks for it
logger = get_logger()


class Runtime:
    """Everything the hooks share within one host process."""

    def __init__(self, settings: Settings, *, store: Store | None = None, summarizer: Any = None,
                 persist_sessions: bool = True, http: httpx.Client | None = None) -> None:
        from context_compactor.summarizer.fallback import ExtractiveSummarizer

        self.settings = settings
        self.persist_sessions = persist_sessions
        self.store = store if store is not None else Store.for_settings(
            settings.store_path or default_store_path(), settings)
        self.fallback = ExtractiveSummarizer()
        self.summarizer = summarizer if summarizer is not None else self.fallback
        self._sessions: OrderedDict[str, Session] = OrderedDict()
        self._lock = threading.Lock()
        self._ratios: dict[str, tuple[float, int] | None] = {}
        self._windows: dict[str, tuple[int, str]] = {}  # learned per model: (tokens, source)
        self.window_notes: dict[str, str] = {}  # per model: what the probe found, or why not
        self._overheads: OrderedDict[str, OverheadFit] = OrderedDict()  # per session: what the host kept from us
        self._probed: dict[tuple[str, str], tuple[int | None, float]] = {}  # (window, when asked)
        self._probe_lock = threading.Lock()
        self._probing: dict[tuple[str, str], threading.Event] = {}  # questions being asked now
        self._http = http
        self._owns_http = http is None
        self._background: Background | None = None
        self._indexer: threading.Thread | None = None
        self._index_wanted = threading.Event()
        self._closed = threading.Event()  # set by close(): background work stops
        self._llms: dict[tuple[str, str, str], Any] = {}

    # --- shared resources, built on first use -----------------------------------------------------

    @property
    def http(self) -> httpx.Client:
        if self._http is None:
            from context_compactor.summarizer.client import make_client

            self._http = make_client()
        return self._http

    @property
    def background(self) -> Background:
        with self._lock:
            if self._background is None:
                self._background = Background()
            return self._background

    def presummarizing(self, session_key: str) -> bool:
        """Whether a pre-summarization job of this session is running now."""
        return self._background is not None and self._background.running(session_key)

    def session(self, key: str) -> Session:
        """The in-memory state of a session (created on first sight, least recently used dropped)."""
        with self._lock:
            session = self._sessions.get(key)
            if session is not None and self.persist_sessions and not session.lock.locked():
                # Another process (a replica on the same store) may have written the state since: a
                # session held here is read again when its stamp in the store moved.
                stamp = self.store.session_stamp(key)
                if stamp != session.stamp:
                    session = None
            if session is None:
                state = SessionState.load(self.store.session(key), key) if self.persist_sessions else None
                session = Session(key, state)
                if self.persist_sessions:
                    session.stamp = self.store.session_stamp(key)
                self._sessions[key] = session
                while len(self._sessions) > MAX_SESSIONS_IN_MEMORY:
                    self._sessions.popitem(last=False)
            else:
                self._sessions.move_to_end(key)
            return session

    def save_session(self, session: Session) -> None:
        """Write a session's state, and note the stamp of what this process wrote."""
        self.store.save_session(session.key, session.state.dump())
        session.stamp = self.store.session_stamp(session.key)

    def settings_for(self, model: ModelInfo) -> Settings:
        return self.settings.for_model(model.id)

    def counter_for(self, settings: Settings, model: ModelInfo) -> Counter:
        """The token counter for a model: tiktoken when asked, else the (calibrated) ratio."""
        ratio = settings.chars_per_token
        if settings.tokenizer in ("chars", "server") and settings.calibrate:
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

    # --- context windows ------------------------------------------------------------------------------

    def window_for(self, settings: Settings, model: ModelInfo) -> tuple[int, str]:
        """The context window and where it came from.

        A size the model server itself stated ("error": in a context-length error, or by refusing a
        prompt) caps every other source until the server says otherwise (a later prompt it accepted
        was larger: :meth:`lift_window`). Below it: our config (flags, then the config file); what the
        host says; what the model server answered when asked ("probe", asked once per model when the
        host gave its base URL); else 8192 ("default").
        """
        stated = self._windows.get(model.id)
        if stated is not None and stated[1] != "error":
            stated = None
        if settings.context_window:
            if stated is not None and stated[0] < settings.context_window:
                return stated
            return settings.context_window, "config"
        if stated is not None:
            return stated
        if model.context_window:
            return model.context_window, "host"
        learned = self._windows.get(model.id)
        if not learned and model.base_url:
            found = self.probe(model.base_url, model.id, model.api, model.api_key)  # learns the window it finds
            learned = self._windows.get(model.id) or ((found, "probe") if found else None)
        if learned:
            return learned
        return DEFAULT_CONTEXT_WINDOW, "default"

    def learn_window(self, model_id: str, window: int, source: str) -> None:
        """Remember a model's context window, learned from its server ("probe") or an error ("error").

        What a server stated in an error wins over what it answered when asked."""
        current = self._windows.get(model_id)
        if source == "probe" and current is not None and current[1] == "error":
            return
        self._windows[model_id] = (window, source)
        if source == "error":
            self.window_notes[model_id] = f"stated by the server in a context-length error ({window:,} tokens)"

    def lift_window(self, model_id: str, accepted_tokens: int) -> bool:
        """Forget a stated window smaller than a prompt the server has since accepted (it says otherwise now:
        restarted with a larger context, say); True when one was forgotten."""
        current = self._windows.get(model_id)
        if current is None or current[1] != "error" or accepted_tokens <= current[0]:
            return False
        del self._windows[model_id]
        self.window_notes.pop(model_id, None)
        logger.info("window.lifted", model=model_id, stated=current[0], accepted=accepted_tokens)
        return True

    # --- the part of the prompt a host keeps to itself ---------------------------------------------------

    def fixed_overhead(self, session_key: str) -> int:
        """Tokens the provider counts in this session's prompts beyond our estimate of what the host handed
        us (a system prompt or tool schemas it keeps to itself); 0 until a turn reported its usage.

        The engine adds it to the prompt it measures, so that the trigger and the window cover the
        whole prompt in every host."""
        with self._lock:
            fit = self._overheads.get(session_key)
            return fit.tokens if fit is not None else 0

    def learn_overhead(self, session_key: str, chars: int, framing: int, reported: int, ratio: float) -> int:
        """Add one turn's sample (characters handed over, our per-message framing tokens, the provider's
        prompt count, the chars-per-token ratio it was estimated with); returns the fixed overhead now."""
        with self._lock:
            fit = self._overheads.get(session_key)
            if fit is None:
                fit = self._overheads[session_key] = OverheadFit()
                while len(self._overheads) > MAX_SESSIONS_IN_MEMORY:
                    self._overheads.popitem(last=False)
            else:
                self._overheads.move_to_end(session_key)
            return fit.add(chars, framing, reported, ratio)

    def probe(self, base_url: str, model_id: str, api: str | None, api_key: str | None = None) -> int | None:
        """Ask a model server for a model's context window, once per (server, model); None if it will not say.

        The first question waits for the answer (at most a few seconds; other callers for the same
        model wait for that one answer, callers for other models do not wait at all). A server that
        stated nothing is asked again after ``REPROBE_SECONDS`` (it may have been down, or loaded
        another model), in the background: the turn that notices goes on with what is known now.
        """
        key = (base_url.rstrip("/"), model_id)
        with self._probe_lock:
            known = self._probed.get(key)
            if known is not None and (known[0] is not None or time.monotonic() - known[1] < REPROBE_SECONDS):
                return known[0]
            first = key not in self._probing
            if first:
                self._probing[key] = threading.Event()
            asking = self._probing[key]
        if known is not None:  # a question again, after the server stated nothing: not on this turn's time
            if first:
                threading.Thread(target=self._ask, args=(key, model_id, api, api_key, asking),
                                 name="context-compactor-probe", daemon=True).start()
            return known[0]
        if first:
            self._ask(key, model_id, api, api_key, asking)
        else:
            asking.wait(self._probe_seconds() + 1.0)
        answer = self._probed.get(key)
        return answer[0] if answer else None

    def _probe_seconds(self) -> float:
        return min(4.0, self.settings.summary_timeout_seconds)

    def _ask(self, key: tuple[str, str], model_id: str, api: str | None, api_key: str | None,
             done: threading.Event) -> None:
        from context_compactor.summarizer.client import Endpoint
        from context_compactor.summarizer.llm import resolve_api
        from context_compactor.summarizer.probe import probe_window

        base_url = key[0]
        try:
            endpoint = Endpoint(base_url, model_id, resolve_api(api, base_url) or "openai", api_key)
            found = probe_window(self.http, endpoint, seconds=self._probe_seconds())
            window, detail = found.window, found.detail
        except Exception as exc:  # noqa: BLE001 - a probe that fails is a probe that learned nothing
            window, detail = None, f"the window probe failed ({type(exc).__name__}: {exc})"
        with self._probe_lock:
            self._probed[key] = (window, time.monotonic())
            self._probing.pop(key, None)
            self.window_notes[model_id] = f"reported by the model server ({detail})" if window else detail
            if window:
                self.learn_window(model_id, window, "probe")
        done.set()

    # --- summarizers ------------------------------------------------------------------------------------

    def summarizer_for(self, settings: Settings, model: ModelInfo) -> Any:
        """Who writes this turn's summaries: an injected summarizer, ``summaryModel``, the session
        model (with ``summarizeWithSessionModel``, when the host told us where it is and we speak
        its API), else the deterministic one."""
        if self.summarizer is not self.fallback:
            return self.summarizer
        endpoint = self._endpoint(settings, model)
        if endpoint is None:
            return self.fallback
        from context_compactor.summarizer.llm import LLMSummarizer

        key = (endpoint.base_url, endpoint.model, endpoint.api)
        with self._lock:
            llm = self._llms.get(key)
            if llm is None or llm.endpoint != endpoint:
                llm = LLMSummarizer(endpoint, self.http, health=llm.health if llm else None, on_window=self._summary_window)
                self._llms[key] = llm
        return llm

    def _summary_window(self, model_id: str, window: int) -> None:
        logger.info("window.learned", model=model_id, window=window, source="error")
        self.learn_window(model_id, window, "error")

    def _endpoint(self, settings: Settings, model: ModelInfo) -> Any:
        from context_compactor.summarizer.client import Endpoint
        from context_compactor.summarizer.llm import resolve_api

        wanted = settings.summary_model
        if wanted is not None:
            api = resolve_api(wanted.api, wanted.base_url) or "openai"
            key = wanted.api_key.get_secret_value() if wanted.api_key else (
                os.environ.get(wanted.api_key_env) if wanted.api_key_env else None)
            learned = self._windows.get(wanted.model)
            window = wanted.context_window or (learned[0] if learned else None) or self.probe(
                wanted.base_url, wanted.model, api, key)
            if learned and learned[1] == "error" and window:
                window = min(window, learned[0])  # what the server said it holds beats what we were told
            return Endpoint(wanted.base_url, wanted.model, api, key, wanted.timeout_seconds, wanted.max_tokens, window)
        if not model.base_url or not settings.summarize_with_session_model:
            return None
        spoken = resolve_api(model.api, model.base_url)
        if spoken is None:
            return None
        return Endpoint(model.base_url, model.id, spoken, model.api_key, 60.0, None, self.window_for(settings, model)[0])

    def summary_health(self) -> dict[str, dict[str, Any]]:
        """Per summary model: successes, failures by kind, backoff left (for ``/context-stats``)."""
        with self._lock:
            llms = list(self._llms.values())
        return {llm.identity: llm.health.snapshot() for llm in llms}

    def index_soon(self) -> None:
        """Bring the archive's search index up to date in the background (a cold compaction archives
        thousands of messages: indexing them is not the turn's work)."""
        with self._lock:
            if self._indexer is None:
                self._indexer = threading.Thread(target=self._index_loop, name="context-compactor-index", daemon=True)
                self._indexer.start()
        self._index_wanted.set()

    def _index_loop(self) -> None:
        while True:
            self._index_wanted.wait()
            # A moment's grace after the turn: a caller that closes right away (a one-shot compact())
            # is not kept waiting for rows nobody will read.
            if self._closed.wait(INDEX_GRACE_SECONDS):
                return
            self._index_wanted.clear()
            try:
                self.store.index_pending(stop=self._closed.is_set)
            except Exception as exc:  # noqa: BLE001 - search catches up itself; the turn is never affected
                logger.warning("store.index_failed", error=f"{type(exc).__name__}: {exc}")

    def close(self) -> None:
        """Stop background summary work and indexing, then close the HTTP client (if ours) and the store."""
        with self._lock:
            background, llms, indexer = self._background, list(self._llms.values()), self._indexer
            self._closed.set()
        self._index_wanted.set()
        if indexer is not None:
            indexer.join(timeout=30)
        for llm in llms:
            llm.stop.set()
        if background is not None:
            background.stop()  # jobs stop between calls, and none starts
        if self._http is not None and self._owns_http:
            self._http.close()  # cuts the calls still waiting on a model: their jobs end as stopped
        if background is not None:
            background.close()  # a bounded wait for them, so that they end before the store closes
        self.store.close()
