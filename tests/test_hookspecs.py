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


def test_the_contract_declares_the_six_hooks():
    """The turn's hooks, the commands, and the tool hooks."""
    assert sorted(HOOKS) == ["after_tool_call", "after_turn", "before_agent_start", "before_tool_call",
                             "register_commands", "register_tools"]


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


def test_the_providers_last_report_comes_back_in_the_next_turns_stats(pm, run_hook, make_runtime):
    """after_turn's usage report is in the next before_agent_start's stats (reported_tokens, and our estimate
    of that prompt), and it holds on a later turn with no report: a host reads it, not the session."""
    runtime = make_runtime()
    model = ModelInfo(id="test/model")
    messages = [{"role": "system", "content": "s"}, {"role": "user", "content": "x" * 4000}]
    first = run_hook(runtime, messages, session="r1")
    assert first.stats.reported_tokens is None and first.stats.reported_estimate is None
    ctx = HookContext(session_key="r1", runtime=runtime, model=model)
    pm.hook.after_turn(event=AfterTurnEvent(messages=messages, model=model, usage=Usage(prompt_tokens=1234)), ctx=ctx)
    second = run_hook(runtime, messages, session="r1")
    assert second.stats.reported_tokens == 1234 and second.stats.reported_estimate > 0
    third = run_hook(runtime, messages, session="r1")
    assert (third.stats.reported_tokens, third.stats.reported_estimate) == (1234, second.stats.reported_estimate)


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


def _failed_read(call_id: str, args: str) -> list[dict]:
    return [{"role": "assistant", "content": None, "tool_calls": [
                {"id": call_id, "type": "function", "function": {"name": "read", "arguments": args}}]},
            {"role": "tool", "tool_call_id": call_id, "content": "Error: ENOENT: no such file or directory, open 'a.txt'",
             "is_error": True}]


def test_register_tools_offers_recall_history_once_the_session_compacted(pm, make_runtime):
    """The built-in tool is recall_history, an OpenAI function schema, offered only after a compaction, and
    its run answers from the session's archive."""
    found = [t for batch in pm.hook.register_tools() for t in batch]
    assert [t.name for t in found] == ["recall_history"]
    tool = found[0]
    assert tool.schema()["function"]["parameters"]["properties"].keys() >= {"query", "id"}
    assert (tool.offered(0), tool.offered(1)) == (False, True)
    ctx = HookContext(session_key="s", runtime=make_runtime(), model=ModelInfo(id="m"))
    answer = tool.run(hookspecs.ToolCallEvent("recall_history", '{"query": "nothing archived"}'), ctx)
    assert isinstance(answer, str) and answer


def test_before_tool_call_refuses_a_call_that_failed_twice_in_the_history(pm, make_runtime):
    """Two failures of the same call as written (key order aside) in the conversation: the third is refused
    with the count and the last error; one failure, or other arguments, let it run."""
    ctx = HookContext(session_key="s", runtime=make_runtime(), model=ModelInfo(id="m"))
    history = [{"role": "user", "content": "read a.txt"}, *_failed_read("c1", '{"path": "a.txt", "n": 1}')]
    once = hookspecs.ToolCallEvent("read", '{"n": 1, "path": "a.txt"}', messages=history)
    assert pm.hook.before_tool_call(event=once, ctx=ctx) is None
    history += _failed_read("c2", '{"path":"a.txt","n":1}')
    verdict = pm.hook.before_tool_call(event=hookspecs.ToolCallEvent("read", {"n": 1, "path": "a.txt"},
                                                                     messages=history), ctx=ctx)
    assert verdict.rule == "refuse-repeated-failures"
    assert "failed 2 times" in verdict.reason and "ENOENT" in verdict.reason
    other = hookspecs.ToolCallEvent("read", '{"path": "b.txt", "n": 1}', messages=history)
    assert pm.hook.before_tool_call(event=other, ctx=ctx) is None


def test_before_tool_call_lets_every_call_run_with_the_rule_off(pm, make_runtime):
    """refuseRepeatedFailures false: no verdict, however often the call failed."""
    ctx = HookContext(session_key="s", runtime=make_runtime(refuse_repeated_failures=False), model=ModelInfo(id="m"))
    history = [{"role": "user", "content": "go"}, *_failed_read("c1", "{}"), *_failed_read("c2", "{}")]
    assert pm.hook.before_tool_call(event=hookspecs.ToolCallEvent("read", "{}", messages=history), ctx=ctx) is None


def test_after_tool_call_records_failures_that_before_tool_call_counts(pm, make_runtime):
    """A host that hands results over one at a time (OpenClaw): two failed results of one call, then the third
    call is refused with the host's error; a result that succeeded is not counted."""
    ctx = HookContext(session_key="s", runtime=make_runtime(), model=ModelInfo(id="m"))
    call = hookspecs.ToolCallEvent("exec", {"command": "make test"})
    ok = hookspecs.AfterToolCallEvent("exec", {"command": "make test"}, result="all 12 tests passed")
    failed = hookspecs.AfterToolCallEvent("exec", '{"command": "make test"}', result="", error="spawn make ENOENT")
    pm.hook.after_tool_call(event=ok, ctx=ctx)
    pm.hook.after_tool_call(event=failed, ctx=ctx)
    assert pm.hook.before_tool_call(event=call, ctx=ctx) is None
    pm.hook.after_tool_call(event=failed, ctx=ctx)
    verdict = pm.hook.before_tool_call(event=call, ctx=ctx)
    assert verdict is not None and "spawn make ENOENT" in verdict.reason and "failed 2 times" in verdict.reason
    assert pm.hook.before_tool_call(event=call, ctx=HookContext("other", ctx.runtime, ctx.model)) is None


def test_after_tool_call_reads_an_unflagged_output_as_a_failure_the_way_a_history_is_read(pm, make_runtime):
    """The failure test is the one the gateway applies to a history: a command's output that ends in a
    traceback failed though nothing flagged it; a file read that prints "error" did not."""
    ctx = HookContext(session_key="s", runtime=make_runtime(), model=ModelInfo(id="m"))
    crash = "Traceback (most recent call last):\n  File \"x.py\", line 1\nValueError: bad input"
    for _ in range(2):
        pm.hook.after_tool_call(event=hookspecs.AfterToolCallEvent("exec", {"command": "python x.py"}, result=crash), ctx=ctx)
        pm.hook.after_tool_call(event=hookspecs.AfterToolCallEvent("read", {"path": "log.txt"},
                                                                   result="error: disk full\nerror: retry"), ctx=ctx)
    verdict = pm.hook.before_tool_call(event=hookspecs.ToolCallEvent("exec", {"command": "python x.py"}), ctx=ctx)
    assert verdict is not None and "ValueError: bad input" in verdict.reason
    assert pm.hook.before_tool_call(event=hookspecs.ToolCallEvent("read", {"path": "log.txt"}), ctx=ctx) is None


# The test here that calls each hook through a plugin manager and checks what a built-in implementation did.
HOOK_TESTS = {
    "before_agent_start": test_before_agent_start_compacts_through_the_built_in_hook,
    "after_turn": test_after_turn_learns_the_chars_per_token_ratio,
    "register_commands": test_register_commands_provides_compact_now_and_context_stats,
    "register_tools": test_register_tools_offers_recall_history_once_the_session_compacted,
    "before_tool_call": test_before_tool_call_refuses_a_call_that_failed_twice_in_the_history,
    "after_tool_call": test_after_tool_call_records_failures_that_before_tool_call_counts,
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
