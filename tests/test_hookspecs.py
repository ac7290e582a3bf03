"""The hook contract itself: every hook documented and tested, the plugin manager validated."""

from __future__ import annotations

import inspect
from pathlib import Path

import pluggy
import pytest

from context_compactor import hookspecs
from context_compactor.hookspecs import AfterTurnEvent, HookContext, ModelInfo, Usage, hookimpl
from context_compactor.plugins import DEFAULT_PLUGINS, commands, get_plugin_manager

HOOKS = [name for name, fn in inspect.getmembers(hookspecs, inspect.isfunction) if hasattr(fn, "openclaw_spec")]
TESTS = "\n".join(p.read_text() for p in Path(__file__).parent.glob("test_*.py"))


def test_the_contract_declares_the_three_hooks():
    """before_agent_start, after_turn and register_commands are the hooks."""
    assert sorted(HOOKS) == ["after_turn", "before_agent_start", "register_commands"]


@pytest.mark.parametrize("name", HOOKS)
def test_every_hookspec_has_a_docstring(name):
    """A hook without a docstring is a contract nobody can read."""
    assert (getattr(hookspecs, name).__doc__ or "").strip()


@pytest.mark.parametrize("name", HOOKS)
def test_every_hookspec_has_a_test(name):
    """Some test calls the hook through a plugin manager."""
    assert f"hook.{name}(" in TESTS


def test_plugin_manager_registers_the_built_in_hooks():
    """The factory registers every built-in hook module."""
    pm = get_plugin_manager()
    assert {pm.get_name(p) for p in pm.get_plugins()} >= set(DEFAULT_PLUGINS)


def test_a_misspelled_hook_fails_loudly():
    """check_pending() rejects an implementation whose name matches no hookspec."""

    class Typo:
        @hookimpl
        def before_agent_strat(self, event, ctx):  # noqa: ANN001
            return None

    with pytest.raises(pluggy.PluginValidationError):
        get_plugin_manager(extra_plugins=[Typo()])


def test_an_extension_can_answer_before_agent_start_first():
    """Hook results are firstresult: an extension's answer is the one the host gets."""
    sentinel = object()

    class Mine:
        @hookimpl(tryfirst=True)
        def before_agent_start(self, event, ctx):  # noqa: ANN001
            return sentinel

    pm = get_plugin_manager(extra_plugins=[Mine()])
    event = hookspecs.BeforeAgentStartEvent(messages=[{"role": "user", "content": "hi"}])
    assert pm.hook.before_agent_start(event=event, ctx=None) is sentinel


def test_register_commands_provides_compact_now_and_context_stats():
    """The built-in commands are registered through the register_commands hook."""
    pm = get_plugin_manager()
    names = {c.name for batch in pm.hook.register_commands() for c in batch}
    assert {"compact-now", "context-stats"} <= names
    assert commands(pm)["compact-now"].accepts_args


def test_after_turn_learns_the_chars_per_token_ratio(make_runtime):
    """Provider-reported prompt tokens move the model's ratio toward the truth, and it is persisted."""
    runtime = make_runtime()
    pm = get_plugin_manager()
    model = ModelInfo(id="local/m")
    ctx = HookContext(session_key="s", runtime=runtime, model=model)
    # A leading system message: the host handed over the whole prompt, so all of the count is calibration.
    messages = [{"role": "system", "content": "s"}, {"role": "user", "content": "x" * 6000}]
    for _ in range(10):  # the provider says 2 characters per token
        pm.hook.after_turn(event=AfterTurnEvent(messages=messages, model=model, usage=Usage(prompt_tokens=3004)), ctx=ctx)
    ratio, samples = runtime.store.calibration("local/m")
    assert samples >= 5 and 1.9 <= ratio < 2.3


def test_after_turn_ignores_missing_usage(make_runtime):
    """Without a usage report nothing is learned and nothing fails."""
    runtime = make_runtime()
    pm = get_plugin_manager()
    ctx = HookContext(session_key="s", runtime=runtime, model=ModelInfo(id="m"))
    pm.hook.after_turn(event=AfterTurnEvent(messages=[{"role": "user", "content": "hi"}], model=ctx.model), ctx=ctx)
    assert runtime.store.calibration("m") is None


def test_compaction_stats_are_read_by_attribute_and_only_by_field_name():
    """The typed stats answer their field names (also by key, for older callers) and refuse any other name."""
    stats = hookspecs.CompactionStats(session="s", tokens_before=10, tokens_after=8, window=100,
                                      window_source="config", trigger=75, target=50, notices=("n",))
    assert (stats.fits, stats["tokens_after"], stats.get("stage"), stats.get("sent_tokens", "none")) == (True, 8, 0, "none")
    with pytest.raises(KeyError):
        stats["sent_tokens"]
    assert dict(stats)["notices"] == ("n",) and stats.as_dict()["notices"] == ["n"]
