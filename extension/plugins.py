"""The plugin manager factory: specs, entry-point plugins, built-in hooks, then a check."""

from __future__ import annotations

import importlib
from collections.abc import Iterable

import pluggy

from . import hookspecs
from .project import ENTRY_POINT_GROUP, PROJECT

# Built-in hook implementations, plain modules, registered in this order.
DEFAULT_PLUGINS = (
    "context_compactor.hooks.compaction",
    "context_compactor.hooks.bookkeeping",
    "context_compactor.hooks.commands",
    "context_compactor.hooks.tools",
)


def get_plugin_manager(
    *, load_entry_points: bool = True, extra_plugins: Iterable[object] = ()
) -> pluggy.PluginManager:
    """A fresh plugin manager with our specs, the installed extensions and the built-in hooks.

    ``check_pending()`` makes a misspelled hook implementation fail here, loudly, rather than be
    silently never called.
    """
    pm = pluggy.PluginManager(PROJECT)
    pm.add_hookspecs(hookspecs)
    if load_entry_points:
        pm.load_setuptools_entrypoints(ENTRY_POINT_GROUP)
    for name in DEFAULT_PLUGINS:
        module = importlib.import_module(name)
        if pm.get_plugin(name) is None:
            pm.register(module, name=name)
    for plugin in extra_plugins:
        pm.register(plugin)
    pm.check_pending()
    return pm


def commands(pm: pluggy.PluginManager) -> dict[str, hookspecs.Command]:
    """Every command the registered extensions provide, by name (a later one wins on a clash)."""
    found: dict[str, hookspecs.Command] = {}
    for batch in reversed(pm.hook.register_commands()):
        for command in batch:
            found[command.name] = command
    return found


def tools(pm: pluggy.PluginManager) -> dict[str, hookspecs.Tool]:
    """Every tool the registered extensions offer the model, by name (a later one wins on a clash)."""
    found: dict[str, hookspecs.Tool] = {}
    for batch in reversed(pm.hook.register_tools()):
        for tool in batch:
            found[tool.name] = tool
    return found
