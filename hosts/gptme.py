"""The gptme plugin: every model call gptme makes sends the projection of its master log.

gptme loads ``plugin`` through its ``gptme.plugins`` entry point. A ``STEP_PRE`` hook runs before each
model call (mid-turn tool steps included, in the CLI and in ``gptme-server``): it converts the master
log (always whole), runs the hooks through one :class:`~context_compactor.Compactor` per conversation,
and installs the projection as one view, ``context-compactor``, overwritten in place. gptme sends the
active view and writes every new message to the master log and the view alike; when the hooks change
nothing it switches back to the master log. Any error in here switches back and logs one warning.

It is opt-in: nothing happens unless gptme's config says so::

    [plugin.context-compactor]
    enabled = true
    context_window = 8192      # else the model server is asked, else gptme's own figure, else 8192

Other keys are our settings by their snake_case (or camelCase) names. The window gptme states for a
model it does not know (128k for any local model) is used only when the server says nothing.
What the server reported for the prompt before (``metadata.usage`` on gptme's assistant messages)
calibrates the counter; an "LLM request failed" line that states the server's window teaches it.
gptme's own compaction budget is our trigger's ceiling. Pinned system messages are never folded.
gptme's other call sites (overflow recovery, ``/compact trim``) get the same projection through
:mod:`~context_compactor.hosts.gptme_provider`; our commands exist only when the plugin is enabled.
"""

from __future__ import annotations

import importlib
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

from ..api import Compactor
from ..logs import get_logger
from .gptme_messages import Converted, to_chat, to_gptme

logger = get_logger()

NAME = "context-compactor"
VIEW = "context-compactor"
DEFAULT_WINDOW = 8192
_LOCAL_PROVIDERS = frozenset({"local", "ollama", "lmstudio", "llamacpp", "llama-cpp", "vllm"})
_FAILED = "LLM request failed"


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower().replace("-", "_")


class GptmeHost:
    """The plugin's state: gptme's options for us and one Compactor per conversation (log folder)."""

    current: GptmeHost | None = None  # the one gptme loaded (set by :func:`plugin`), for our context provider

    def __init__(self) -> None:
        self.options: dict[str, Any] = {}
        self.compactors: dict[str, Compactor] = {}
        self.converted: dict[tuple[str, bool], Converted] = {}  # (log folder, master): the last conversion
        self.seen: dict[str, int] = {}  # log folder: master-log length at our last compaction
        self.windows: dict[str, int] = {}  # model: window (config, probe, or gptme's figure)
        self.loaded = False  # the project config was read

    # -- gptme's plugin interface ------------------------------------------------------------------

    def init(self, config: Any) -> None:
        """Read ``[plugin.context-compactor]`` from gptme's user config, then its project config
        (``gptme.toml``; read again at the first step, when gptme knows the workspace)."""
        self.loaded = config.project is not None
        options: dict[str, Any] = {}
        for scope in (getattr(config, "user", None), getattr(config, "project", None)):
            table = getattr(scope, "plugin", None) or {}
            options.update(table.get(NAME, {}) if isinstance(table, dict) else {})
        self.options = {_snake(k): v for k, v in options.items()}

    @property
    def enabled(self) -> bool:
        return self.options.get("enabled") is True

    def register_hooks(self) -> None:
        hooks = importlib.import_module("gptme.hooks")
        hooks.register_hook(NAME, hooks.HookType.STEP_PRE, self.step_pre, priority=-1000)

    def register_commands(self) -> None:
        """``/context-stats`` and ``/compact-now``, only when the plugin is enabled (installing us alone
        adds nothing to gptme)."""
        self.init(importlib.import_module("gptme.config").get_config())
        if not self.enabled:
            return
        commands = importlib.import_module("gptme.commands.base")
        for name in ("context-stats", "compact-now"):
            commands.register_command(name, self._command_handler(name))

    # -- the hook ----------------------------------------------------------------------------------

    def step_pre(self, manager: Any) -> None:
        """Install the projection of ``manager.master_log`` as our view (or the master log when none)."""
        if not self.loaded:
            self.init(importlib.import_module("gptme.config").get_config())
            self.loaded = True
        if not self.enabled:
            return
        try:
            self._install(manager)
        except Exception as exc:  # noqa: BLE001 - our failure must never stop gptme: it sends the whole log
            logger.warning("gptme.failed", error=f"{type(exc).__name__}: {exc}")
            if manager.current_view == VIEW:
                manager.switch_to_master()

    def _install(self, manager: Any) -> None:
        master = list(manager.master_log.messages)
        key = str(manager.logdir)
        compactor = self._compactor_for(manager.logdir)
        self._report(compactor, key, master)
        projection = self.project(master, manager.logdir, master=True)
        self.seen[key] = len(master)
        if projection is None:
            if manager.current_view == VIEW:
                manager.switch_to_master()
            return
        manager.create_view(VIEW, projection)
        if manager.current_view != VIEW:
            manager.switch_view(VIEW)

    def project(self, log: list[Any], logdir: Any, master: bool = False) -> list[Any] | None:
        """gptme messages to send instead of ``log`` (kept ones are gptme's own objects), or None when the
        hooks change nothing. The STEP_PRE hook and our context provider both ask here."""
        key = (str(logdir), master)
        converted = self.converted[key] = to_chat(log, master=master, previous=self.converted.get(key))
        result = self._compactor_for(logdir).compact(converted.messages, tools=self._tool_schemas(),
                                                     pinned=converted.pinned)
        for notice in result.notices:
            logger.info("gptme.notice", text=notice)
        if result.messages is converted.messages:
            return None
        return to_gptme(result.messages, converted)

    def _report(self, compactor: Compactor, key: str, master: list[Any]) -> None:
        """Hand the hooks what gptme stored since our last prompt: the usage of the reply to it, or the
        provider's error."""
        for message in master[self.seen.get(key, len(master)):]:
            metadata = message.metadata or {}
            usage = metadata.get("usage") if message.role == "assistant" else None
            if usage:
                prompt = sum(int(usage.get(k) or 0) for k in
                             ("input_tokens", "cache_read_tokens", "cache_creation_tokens"))
                compactor.record_usage(prompt or None, usage.get("output_tokens"))
                return
            if message.role == "system" and message.content.startswith(_FAILED):
                compactor.record_usage(None, error=message.content)
                return

    # -- what gptme knows ----------------------------------------------------------------------------

    def _compactor_for(self, logdir: Any) -> Compactor:
        key = str(logdir)
        found = self.compactors.get(key)
        if found is not None:
            return found
        model = self._model()
        options = {k: v for k, v in self.options.items() if k not in ("enabled", "context_window", "store")}
        store = self.options.get("store") or Path(logdir) / "context-compactor.sqlite"
        window, trigger, ceiling = self.limits(model)
        if ceiling is not None and ceiling <= trigger:
            # gptme's own autocompact fires when the prompt reaches its budget (>=), ours when it passes our
            # trigger (>): ours must come first, or gptme compacts (and replaces our view) before we do.
            logger.warning("gptme.budget_below_trigger", budget=ceiling, trigger=trigger)
            options["max_tokens"] = ceiling - 1
        compactor = Compactor(context_window=window, model=getattr(model, "full", None), store=store,
                              session=f"gptme:{Path(key).name}", **options)
        self.compactors[key] = compactor
        logger.info("gptme.session", session=compactor.session, window=window, trigger=options.get("max_tokens"))
        return compactor

    def limits(self, model: Any) -> tuple[int, int, int | None]:
        """Our window and trigger for ``model`` as configured, and gptme's compaction budget (None: none
        known). ``context-compactor doctor --host gptme`` reports these same figures."""
        window = self._window(model)
        trigger = int(self.options.get("max_tokens") or window * float(self.options.get("compact_at") or 0.75))
        return window, trigger, self._budget(model)

    @staticmethod
    def _budget(model: Any) -> int | None:
        """gptme's compaction budget for ``model`` (its autocompact fires there): our trigger's ceiling."""
        if model is None or not getattr(model, "context", None):
            return None
        try:
            budget = importlib.import_module("gptme.util.context_budget").get_context_budget
            return int(budget(model.context, max_output=model.max_output or 8192, model_id=model.full,
                              model_context_budget=getattr(model, "context_budget", None)))
        except Exception as exc:  # noqa: BLE001 - a gptme without it: no ceiling
            logger.debug("gptme.budget_unknown", error=f"{type(exc).__name__}: {exc}")
            return None

    @staticmethod
    def _model() -> Any:
        return importlib.import_module("gptme.llm.models").get_default_model()

    def _window(self, model: Any) -> int:
        configured = self.options.get("context_window")
        if configured:
            return int(configured)
        name = getattr(model, "full", "") or ""
        if name in self.windows:
            return self.windows[name]
        window = self._probe(model) or self._stated(model) or DEFAULT_WINDOW
        self.windows[name] = window
        return window

    @staticmethod
    def _stated(model: Any) -> int | None:
        """gptme's own figure, except for the local providers it knows nothing of (it says 128k)."""
        if model is None or getattr(model, "provider", "") in _LOCAL_PROVIDERS:
            return None
        return getattr(model, "context", None) or None

    @staticmethod
    def _probe(model: Any) -> int | None:
        if model is None or getattr(model, "provider", "") not in _LOCAL_PROVIDERS:
            return None
        base = os.environ.get("OPENAI_BASE_URL") or "http://127.0.0.1:8080/v1"
        from ..summarizer.client import Endpoint
        from ..summarizer.probe import probe_window

        with httpx.Client(timeout=httpx.Timeout(3.0)) as client:
            return probe_window(client, Endpoint(base_url=base, model=getattr(model, "model", "") or "")).window

    @staticmethod
    def _tool_schemas() -> list[dict[str, Any]]:
        """The tool schemas gptme sends beside the messages (tool format only; markdown tools are in
        the system prompt, which is a message)."""
        try:
            tools = importlib.import_module("gptme.tools")
            if tools.get_tool_format() != "tool":
                return []
            spec2tool = importlib.import_module("gptme.llm.llm_openai")._spec2tool
            model = GptmeHost._model()
            return [dict(spec2tool(t, model)) for t in tools.get_tools() if t.is_runnable]
        except Exception as exc:  # noqa: BLE001 - a gptme without these functions: count no schemas
            logger.debug("gptme.tools_unknown", error=f"{type(exc).__name__}: {exc}")
            return []

    # -- commands ------------------------------------------------------------------------------------

    def _command_handler(self, name: str) -> Any:
        def handler(ctx: Any) -> Iterator[Any]:
            message_cls = importlib.import_module("gptme.message").Message
            manager = ctx.manager
            if name == "compact-now":
                self.step_pre(manager)
            compactor = self._compactor_for(manager.logdir)
            text = compactor.run_command(name, getattr(ctx, "full_args", "") or "")
            yield message_cls("system", text, hide=False)
        return handler

    def close(self) -> None:
        for compactor in self.compactors.values():
            compactor.close()
        self.compactors.clear()


def plugin() -> Any:
    """gptme's entry point (``gptme.plugins``): the plugin manifest, built when gptme loads it."""
    host = GptmeHost.current = GptmeHost()
    manifest = importlib.import_module("gptme.plugins.plugin").GptmePlugin
    return manifest(name=NAME, init=host.init, register_hooks=host.register_hooks,
                    register_commands=host.register_commands)
