"""The hook contract itself: every hook documented and tested, the plugin manager validated."""

from __future__ import annotations

import inspect

import pluggy
import pytest
from convo import chat

from context_compactor import hookspecs
from context_compactor.hookspecs import AfterTurnEvent, HookContext, ModelInfo, Usage, hookimpl
from context_compactor.plugins import DEFAULT_PLUGINS, commands, get_plugin_manager

HOOKS = [name for name, fn in inspect.getmembers(hookspecs, inspect.isfunction) if hasattr(fn, "openclaw_spec")]


def test_the_contract_declares_the_three_hooks():
    """before_agent_start, after_turn and register_commands are the hooks."""
    assert sorted(HOOKS) == ["after_turn", "before_agent_start", "register_commands"]


@pytest.mark.parametrize("name", HOOKS)
def test_every_hookspec_has_a_docstring(name):
    """A hook without a docstring is a contract nobody can read."""
    assert (getattr(hookspecs, name).__doc__ or "").strip()


def test_plugin_manager_registers_the_built_in_hooks():
    """The factory registers every built-in hook module."""
    pm = get_plugin_manager()
    assert {pm.get_name(p) for p in pm.get_plugins()} >= set(DEFAULT_PLUGINS)


def test_a_misspelled_hook_fails_loudly():
    """check_pending() rejects an implementation whose name matches no hookspec."""

    class Typo:
        @hookimpl
        def before_agent_strat(self, event, ctx):
            return None

    with pytest.raises(pluggy.PluginValidationError):
        get_plugin_manager(extra_plugins=[Typo()])


def test_an_extension_can_answer_before_agent_start_first():
    """Hook results are firstresult: an extension's answer is the one the host gets."""
    sentinel = object()

    class Mine:
        @hookimpl(tryfirst=True)
        def before_agent_start(self, event, ctx):
            return sentinel

    pm = get_plugin_manager(extra_plugins=[Mine()])
    event = hookspecs.BeforeAgentStartEvent(messages=[{"role": "user", "content": "hi"}])
    assert pm.hook.before_agent_start(event=event, ctx=None) is sentinel


def test_before_agent_start_compacts_through_the_built_in_hook(pm, make_runtime):
    """Called through the plugin manager over the trigger, the built-in compaction returns a smaller prompt."""
    model = ModelInfo(id="test/model", context_window=8192)
    ctx = HookContext(session_key="s", runtime=make_runtime(), model=model)
    messages = chat(60)
    result = pm.hook.before_agent_start(event=hookspecs.BeforeAgentStartEvent(messages=messages, model=model), ctx=ctx)
    assert result is not None and result.stats.compacted
    assert len(result.messages) < len(messages) and result.messages[-1] is messages[-1]


def test_register_commands_provides_compact_now_and_context_stats(pm):
    """The built-in commands are registered through the register_commands hook."""
    names = {c.name for batch in pm.hook.register_commands() for c in batch}
    assert {"compact-now", "context-stats"} <= names
    assert commands(pm)["compact-now"].accepts_args


def test_after_turn_learns_the_chars_per_token_ratio(pm, make_runtime):
    """Provider-reported prompt tokens move the model's ratio toward the truth, and it is persisted."""
    runtime = make_runtime()
    model = ModelInfo(id="local/m")
    ctx = HookContext(session_key="s", runtime=runtime, model=model)
    # A leading system message: the host handed over the whole prompt, so all of the count is calibration.
    messages = [{"role": "system", "content": "s"}, {"role": "user", "content": "x" * 6000}]
    for _ in range(10):  # the provider says 2 characters per token
        pm.hook.after_turn(event=AfterTurnEvent(messages=messages, model=model, usage=Usage(prompt_tokens=3004)), ctx=ctx)
    ratio, samples = runtime.store.calibration("local/m")
    assert samples >= 5 and 1.9 <= ratio < 2.3


def test_after_turn_ignores_missing_usage(pm, make_runtime):
    """Without a usage report nothing is learned and nothing fails."""
    runtime = make_runtime()
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


def test_a_command_that_answers_with_text_is_run_as_a_typed_result(pm, make_runtime):
    """Hosts run commands through Command.run: an extension's handler may answer with text alone (a result
    with that text, compacted false), the built-in /compact-now with the typed result itself."""
    ctx = HookContext(session_key="s", runtime=make_runtime(), model=hookspecs.ModelInfo(id="m"))
    said = hookspecs.Command("hello", "says hello", lambda args, ctx: "hello " + args, accepts_args=True)
    assert said.run("you", ctx) == hookspecs.CommandResult("hello you")
    later = commands(pm)["compact-now"].run("", ctx)  # before any turn: for the next one
    assert isinstance(later, hookspecs.CommandResult) and not later.compacted and later.stats is None
    assert str(later) == later.text and "before the next model call" in later.text


# The test here that calls each hook through a plugin manager and checks what a built-in implementation did.
HOOK_TESTS = {
    "before_agent_start": test_before_agent_start_compacts_through_the_built_in_hook,
    "after_turn": test_after_turn_learns_the_chars_per_token_ratio,
    "register_commands": test_register_commands_provides_compact_now_and_context_stats,
}


@pytest.mark.parametrize("name", HOOKS)
def test_every_hookspec_has_a_test(name):
    """Each hook has a test in this module that calls it through the plugin manager (it runs here too)."""
    assert name in HOOK_TESTS, f"hookspecs.{name} has no test: add one to tests/test_hookspecs.py and to HOOK_TESTS"
    assert f"pm.hook.{name}(" in inspect.getsource(HOOK_TESTS[name])


@pytest.mark.parametrize("name", HOOKS)
def test_every_hookspec_has_a_built_in_implementation(name, pm):
    """A hook no built-in module implements is a contract the product never keeps."""
    owners = {impl.plugin_name for impl in getattr(pm.hook, name).get_hookimpls()}
    assert owners & set(DEFAULT_PLUGINS), f"hookspecs.{name}: no module in DEFAULT_PLUGINS implements it"


def test_the_pm_fixture_holds_only_the_built_in_hooks(pm):
    """Tests see the built-in hook modules and nothing else, whatever extensions this machine has installed."""
    assert {pm.get_name(p) for p in pm.get_plugins()} == set(DEFAULT_PLUGINS)
