"""The agent-loop behaviours of issue 13, one at a time: extension/loop.py and Session.compact."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from context_compactor import Compactor
from context_compactor.loop import Loop, LoopOptions, fold_boundary
from context_compactor.thinking import strip_think_text
from context_compactor.todos import REMINDER_HEAD
from context_compactor.tool_calls import FOLD_HEAD, failures, garbled, refusal
from context_compactor.plugins import get_plugin_manager
from context_compactor.store import Store
from convo import assistant, system, tool, user, words

Message = dict[str, Any]

TRACE = ("Traceback (most recent call last):\n  File \"app.py\", line 3, in <module>\n"
         + "\n".join(f"  frame {i} {words(12, i)}" for i in range(30))
         + "\nModuleNotFoundError: No module named 'flask'\nexit code 1")


def thinking_session() -> list[Message]:
    return [
        system("You are a coding agent."),
        user("Fix the build."),
        {"role": "assistant", "content": "<think>I should look at the Makefile first. " + words(80) + "</think>Looking.",
         "reasoning_content": "hidden " + words(100)},
        user("Go on."),
        {"role": "assistant", "content": [{"type": "thinking", "thinking": words(90), "signature": "sig1"},
                                          {"type": "text", "text": "Done with step one."}]},
        user("And now?"),
        {"role": "assistant", "content": "", "reasoning_content": words(50), "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "bash", "arguments": '{"command": "make"}'}}]},
        tool("c1", "ok"),
        {"role": "assistant", "content": [{"type": "thinking", "thinking": words(40), "signature": "sig2"},
                                          {"type": "thinking", "thinking": "unsigned " + words(10)},
                                          {"type": "text", "text": "<think>scratch</think>Built."}]},
    ]


def prepare(messages: list[Message], **options: Any) -> Any:
    return Loop().prepare(messages, LoopOptions(**options))


# --- 1. earlier thinking ------------------------------------------------------------------------


def test_thinking_before_the_last_user_turn_is_left_out() -> None:
    """reasoning_content, <think> blocks and thinking parts go from every assistant message before the last user turn."""
    out = prepare(thinking_session()).messages
    last_user = max(i for i, m in enumerate(out) if m["role"] == "user")
    for message in out[:last_user]:
        if message["role"] == "assistant":
            assert "reasoning_content" not in message
            assert "<think>" not in json.dumps(message)
            assert all(p.get("type") != "thinking" for p in message["content"] if isinstance(p, dict)) \
                if isinstance(message["content"], list) else True
    assert out[2]["content"] == "Looking."


def test_the_current_tool_loop_keeps_signed_thinking_and_reasoning_only() -> None:
    """After the last user turn, a signed thinking block and reasoning_content stay; unsigned parts and <think> go."""
    out = prepare(thinking_session()).messages
    assert out[6]["reasoning_content"]
    parts = out[8]["content"]
    assert [p.get("signature") for p in parts if p["type"] == "thinking"] == ["sig2"]
    assert parts[-1]["text"] == "Built."


def test_the_history_is_untouched_and_unchanged_messages_are_the_hosts_objects() -> None:
    """The input list and its dicts are never mutated; a message nothing changes is passed through as itself."""
    history = thinking_session()
    before = copy.deepcopy(history)
    out = prepare(history).messages
    assert history == before
    assert out[1] is history[1] and out[7] is history[7]


def test_a_changed_message_is_the_same_object_on_every_turn() -> None:
    """The memo hands back the very same stripped dict for the same original, turn after turn."""
    history = thinking_session()
    loop = Loop()
    first = loop.prepare(history, LoopOptions()).messages
    grown = [*history, user("next"), assistant("fine")]
    second = loop.prepare(grown, LoopOptions()).messages
    assert second[2] is first[2] and second[4] is first[4]


def test_the_tokens_saved_are_counted() -> None:
    """The characters left out are reported, so /context-stats can say what stripping saved."""
    prepared = prepare(thinking_session())
    assert prepared.saved_chars > 1000


def test_context_stats_says_what_stripping_saved() -> None:
    """/context-stats reports the tokens of earlier thinking left out of the last prompt."""
    from context_compactor.hooks.commands import format_stats

    with Compactor(context_window=100_000) as compactor:
        compactor.compact(thinking_session())
        session = compactor._runtime.session(compactor.session)
        report = format_stats(session.last, session.state)
    assert "earlier thinking left out (~" in report and session.last.thinking_saved > 250


def test_strip_thinking_off_changes_nothing() -> None:
    """stripThinking false: the prompt keeps every thinking block (and is the very input list)."""
    history = thinking_session()
    assert prepare(history, strip_thinking=False).messages is history


def test_a_think_block_whose_opening_tag_the_template_dropped() -> None:
    """Text up to a stray </think> is reasoning too."""
    assert strip_think_text("plan a b c</think>\nAnswer") == "Answer"


# --- 2. the task reminder ------------------------------------------------------------------------


def todo_session(extra: int = 6) -> list[Message]:
    todos = {"todos": [{"content": "Write the parser", "status": "completed"},
                       {"content": "Add the CLI flag", "status": "in_progress"},
                       {"content": "Document the option", "status": "pending"}]}
    history = [system("agent"), user("Plan and do it."),
               assistant("", [("t1", "todo_write", todos)]), tool("t1", "ok")]
    for i in range(extra // 2):
        history += [user(f"step {i}"), assistant(f"did {i}")]
    return [*history, user("carry on")]


def test_open_tasks_are_restated_in_the_last_two_messages() -> None:
    """When due, the open items (not the completed one) sit in the last two messages, marked as a reminder."""
    with Compactor(context_window=100_000) as compactor:
        out = compactor.compact(todo_session()).messages
    tail = json.dumps(out[-2:])
    assert "Add the CLI flag" in tail and "Document the option" in tail
    assert "Write the parser" not in tail
    assert REMINDER_HEAD in tail and "not a new request" in tail


def test_a_reminder_that_would_not_fit_the_window_is_left_out() -> None:
    """Fit is a promise, the reminder is not: a prompt the reminder would push over the window goes
    without it (the stats and the notice count what is sent); with room, the same history gets it."""
    history = todo_session(extra=40)
    history[-1] = user("carry on " + "x " * 300)  # a current turn that takes most of a small window
    bare = Compactor(context_window=100_000, task_reminder_every=0).compact(history).stats.tokens_after
    with Compactor(context_window=bare + 30, compact_at=1.0) as compactor:  # under the trigger: not compacted
        result = compactor.compact(history)
    assert result.stats.fits and result.stats.tokens_after <= bare + 30
    assert REMINDER_HEAD not in json.dumps(result.messages)
    with Compactor(context_window=bare + 400, compact_at=1.0) as compactor:
        result = compactor.compact(history)
    assert REMINDER_HEAD in json.dumps(result.messages[-2:]) and result.stats.tokens_after <= bare + 400


def test_the_compaction_notice_counts_the_reminder_it_sends() -> None:
    """The "compacted from X to Y tokens" notice and tokens_after are the prompt sent, reminder included."""
    history = todo_session(extra=400)
    with Compactor(context_window=2048) as compactor:
        result = compactor.compact(history)
    assert result.stats.compacted and REMINDER_HEAD in json.dumps(result.messages[-2:])
    assert f"to {result.stats.tokens_after:,} tokens" in result.stats.notices[0]


def test_openclaws_progress_card_is_read_directly_and_through_tool_call() -> None:
    """OpenClaw's plan tool is progress_card (its update_plan, renamed), offered only through its Tool Search
    dispatcher: tool_call {"id": "progress_card" or "openclaw:core:progress_card", "args": {"plan": [...]}}.
    Its open steps are restated; a card without a plan clears it; another tool through tool_call is no plan."""
    from context_compactor.todos import todo_of
    from context_compactor.messages import ToolCall

    plan = {"plan": [{"step": "Tag the release", "status": "in_progress"}, {"step": "Old", "status": "completed"}]}
    for name, args in (("progress_card", plan), ("tool_call", {"id": "progress_card", "args": plan}),
                       ("tool_call", {"id": "openclaw:core:progress_card", "args": plan})):
        todo = todo_of(ToolCall("c1", name, json.dumps(args)), 3)
        assert todo is not None and todo.open == (("in_progress", "Tag the release"),) and todo.tool == "progress_card"
    cleared = todo_of(ToolCall("c1", "tool_call", json.dumps({"id": "progress_card", "args": {}})), 3)
    assert cleared is not None and not cleared.open
    assert todo_of(ToolCall("c1", "tool_call", json.dumps({"id": "web_fetch", "args": plan})), 3) is None
    history = [user("go"), assistant("", [("p1", "tool_call", {"id": "progress_card", "args": plan})]),
               tool("p1", "Progress card updated"), user("a"), assistant("b"), user("c"), assistant("d"), user("e")]
    with Compactor(context_window=100_000) as compactor:
        out = compactor.compact(history).messages
    assert "Tag the release" in out[-1]["content"] and "progress_card" in out[-1]["content"]


def test_update_plan_items_are_read_too() -> None:
    """update_plan {"plan": [{"step", "status"}]} is a todo-style call."""
    history = [user("go"), assistant("", [("p1", "update_plan", {"plan": [{"step": "Migrate the DB", "status": "pending"},
                                                                          {"step": "Old", "status": "done"}]})]),
               tool("p1", "ok"), user("a"), assistant("b"), user("c"), assistant("d"), user("e")]
    with Compactor(context_window=100_000) as compactor:
        out = compactor.compact(history).messages
    assert "Migrate the DB" in out[-1]["content"] and "Old" not in out[-1]["content"]


def test_the_reminder_comes_every_n_messages() -> None:
    """taskReminderEvery 4: shown when 4 messages have passed since the last time, not on the turns between."""
    history = todo_session(extra=4)
    shown = []
    with Compactor(context_window=100_000, task_reminder_every=4) as compactor:
        for i in range(6):
            out = compactor.compact(history).messages
            shown.append(REMINDER_HEAD in json.dumps(out[-2:]))
            history = [*history, assistant(f"r{i}"), user(f"u{i}")]
    assert shown == [True, False, True, False, True, False]


def test_no_reminder_when_every_task_is_done_or_it_is_off() -> None:
    """Nothing open, or taskReminderEvery 0: no reminder."""
    done = todo_session()
    done[2] = assistant("", [("t1", "todo_write", {"todos": [{"content": "x", "status": "completed"}]})])
    with Compactor(context_window=100_000) as compactor:
        assert compactor.compact(done).messages is done
    history = todo_session()
    with Compactor(context_window=100_000, task_reminder_every=0) as compactor:
        assert compactor.compact(history).messages is history


def test_the_reminder_follows_a_compaction() -> None:
    """Right after a compaction the open tasks are restated, even before taskReminderEvery messages passed."""
    history = todo_session(extra=0)[:-1]
    history += [m for i in range(30) for m in (user(f"q{i} " + words(150, i)), assistant(f"a{i} " + words(150, i)))]
    history.append(user("now"))
    with Compactor(context_window=4096, task_reminder_every=1000) as compactor:
        result = compactor.compact(history)
    assert result.stats.compacted
    assert "Add the CLI flag" in json.dumps(result.messages[-2:])


def test_a_reminder_stays_put_when_only_new_tool_results_are_cut() -> None:
    """A plan that differs from the last only by cutting a tool result that came in since rewrites
    nothing already sent: the earlier reminder stays on its message, so the previous prompt is the
    start of the next one (what a server's prompt cache keeps)."""
    history = todo_session(extra=0)[:-1]
    for i in range(3):
        history += [assistant("", [(f"r{i}", "read_file", {"path": f"src/m{i}.py"})]), tool(f"r{i}", words(1500, i))]
    history.append(user("carry on"))
    with Compactor(context_window=8192, max_tool_result_tokens=300, task_reminder_every=6) as compactor:
        first = compactor.compact(history)
        assert first.stats.compacted and REMINDER_HEAD in json.dumps(first.messages[-1])
        history = [*history, assistant("", [("r9", "read_file", {"path": "src/m9.py"})]), tool("r9", words(1500, 9))]
        second = compactor.compact(history)
    assert second.stats.compacted and len(second.messages) == len(first.messages) + 2
    assert second.messages[:len(first.messages)] == first.messages
    assert "characters cut by context-compactor" in json.dumps(second.messages[-1])


# --- 3. failed calls -----------------------------------------------------------------------------


def failing_session(rounds_after: int = 10) -> list[Message]:
    history = [system("agent"), user("run the app"),
               assistant("", [("f1", "bash", {"command": "python app.py"})]), tool("f1", TRACE)]
    for i in range(rounds_after):
        history += [assistant("", [(f"r{i}", "read_file", {"path": f"f{i}.py"})]), tool(f"r{i}", f"content {i}")]
    return [*history, user("and?")]


def test_an_older_failed_call_is_one_line() -> None:
    """Outside the recent tool rounds, a failed result shows the tool, its arguments and the first error line."""
    prepared = prepare(failing_session())
    line = prepared.messages[3]["content"]
    assert FOLD_HEAD in line and line.startswith("ModuleNotFoundError: No module named 'flask'\n")
    assert "bash" in line and "python app.py" in line and "ModuleNotFoundError: No module named 'flask'" in line
    assert prepared.folded == 1


def test_the_ledger_still_sees_a_folded_failure() -> None:
    """A folded failed call, folded again into the ledger later, is still listed there as an error."""
    history = failing_session()
    history += [m for i in range(30) for m in (user(f"q{i} " + words(150, i)), assistant(f"a{i} " + words(150, i)))]
    history.append(user("now"))
    with Compactor(context_window=4096) as compactor:
        result = compactor.compact(history)
    assert result.stats.compacted
    assert "No module named 'flask'" in json.dumps(result.messages)


def test_a_lookup_that_answers_an_error_is_an_error_in_the_block() -> None:
    """A search or lookup whose whole answer is an error ({"error": ...}, no content) failed, as the ledger reads
    it on its own: the compactor's verdict on the result (it judges each once, for the folds) says so too, so
    the block lists the error. It had said "a read's output is data", and the error left the block unlisted."""
    answer = json.dumps({"error": {"type": "log_search", "message": "QueryTimeout: log search on tnt_eu1_01f7e784 "
                                   "exceeded 47s after scanning 34.6 GB", "request_id": "req_cc7881b5b090e388"}}, indent=1)
    history = [user("why do the exports of tnt_eu1_01f7e784 fail?"),
               assistant("", [("c1", "log_search", {"tenant": "tnt_eu1_01f7e784", "query": "export"})]), tool("c1", answer),
               assistant("The search timed out; I will narrow it.")]
    for i in range(16):  # tool rounds after it: it is outside the recent rounds, where results are judged for folds
        history += [assistant("", [(f"r{i}", "read_file", {"path": f"f{i}.py"})]), tool(f"r{i}", f"content {i} " + words(60, i))]
    history += [m for i in range(30) for m in (user(f"q{i} " + words(150, i)), assistant(f"a{i} " + words(150, i)))]
    history.append(user("now"))
    with Compactor(context_window=4096) as compactor:
        result = compactor.compact(history)
    assert result.stats.compacted
    block = next(m["content"] for m in result.messages if "## Errors" in str(m.get("content")))
    errors = block.split("## Errors", 1)[1].split("\n## ", 1)[0]
    assert "QueryTimeout: log search on tnt_eu1_01f7e784 exceeded 47s" in errors, block


def test_a_folded_call_still_counts_as_a_failure() -> None:
    """The refusal counts a failure that is already folded to one line."""
    folded = prepare(failing_session()).messages
    assert failures(folded)[("bash", '{"command":"python app.py"}')][0] == 1


def test_older_rounds_fold_in_batches() -> None:
    """The fold boundary leaves three recent rounds and moves only every eight rounds."""
    rounds = list(range(0, 200, 2))  # a round every other message
    assert [fold_boundary(rounds[:n]) for n in (5, 10, 11, 12, 18, 19)] == [0, 0, 16, 16, 16, 32]


def test_a_failed_call_in_the_recent_rounds_stays_whole() -> None:
    """Within the last three tool rounds the full error is kept."""
    prepared = prepare(failing_session(rounds_after=1))
    assert prepared.messages[3]["content"] == TRACE


def test_the_folded_text_goes_to_the_archive(tmp_path: Any) -> None:
    """The full output of a folded call is in the session's archive."""
    store = str(tmp_path / "s.sqlite")
    with Compactor(context_window=100_000, store=store, session="s1") as compactor:
        compactor.compact(failing_session())
    archived = Store(store).archived("s1")
    assert any(row["message"]["content"] == TRACE for row in archived)


def test_a_call_that_failed_twice_as_written_is_refused() -> None:
    """Two failures of the same tool with the same arguments (key order aside): the third is refused, with the error."""
    history = [user("x"), assistant("", [("a", "bash", {"command": "make", "cwd": "/w"})]), tool("a", TRACE),
               assistant("", [("b", "bash", {"cwd": "/w", "command": "make"})]), tool("b", TRACE)]
    failed = failures(history)
    text = refusal("bash", '{"command": "make", "cwd": "/w"}', failed)
    assert text is not None and "failed 2 times" in text and "flask" in text
    assert refusal("bash", '{"command": "make -k", "cwd": "/w"}', failed) is None
    assert refusal("bash", '{"command": "make", "cwd": "/w"}', failures(history[:3])) is None


def test_garbled_arguments_are_named() -> None:
    """Arguments that are not a JSON object, or an unknown tool, get a message that says what is wrong."""
    tools = [{"type": "function", "function": {"name": "bash"}}]
    assert "not valid JSON" in (garbled("bash", '{"command": "ls"', tools) or "")
    assert "no tool named" in (garbled("sh", "{}", tools) or "")
    assert garbled("bash", '{"command": "ls"}', tools) is None


# --- 4. /btw side questions ----------------------------------------------------------------------


def btw_session() -> list[Message]:
    return [system("agent"), user("build the feature"), assistant("working"),
            user("/btw what is the capital of Peru?"), assistant("Lima."),
            user("continue"), assistant("continuing")]


def test_an_earlier_side_question_and_its_answer_are_left_out() -> None:
    """A /btw before the last user turn, and its answer, are not in the prompt."""
    out = prepare([*btw_session(), user("next")]).messages
    assert "Peru" not in json.dumps(out) and "Lima" not in json.dumps(out)
    assert [m["role"] for m in out] == ["system", "user", "assistant", "user", "assistant", "user"]


def main_task_with_a_side_question() -> list[Message]:
    """A tool loop of the main task, a /btw asked in it (answered after a read of its own), then the main
    task's reads resumed and its answer, all before the next user message."""
    history = [system("agent"), user("read the modules and summarise them")]
    history += [assistant("", [("m0", "read_file", {"path": "a.py"})]), tool("m0", "module a " + words(30, 0))]
    history += [user("/btw which port does the dev server use?"),
                assistant("", [("b0", "read_file", {"path": "dev.toml"})]), tool("b0", "port = 8765"),
                assistant("It uses port 8765.")]
    for k in range(1, 9):
        history += [assistant("", [(f"m{k}", "read_file", {"path": f"mod{k}.py"})]),
                    tool(f"m{k}", f"module {k} " + words(30, k))]
    return [*history, assistant("The modules: a, mod1 ... mod8."), user("thanks, now write the tests")]


def test_leaving_out_a_side_question_keeps_the_main_task_around_it() -> None:
    """Only the /btw and its own answer (its read and its reply) leave the prompt: the main task's eight
    read rounds after it, and the main task's answer, stay, as the host's own objects."""
    history = main_task_with_a_side_question()
    out = prepare(history).messages
    text = json.dumps(out)
    assert "/btw" not in text and "8765" not in text and "dev.toml" not in text
    kept = {id(m) for m in out}
    gone = [m for m in history if id(m) not in kept]
    assert [m["role"] for m in gone] == ["user", "assistant", "tool", "assistant"]
    assert all(id(m) in kept for m in history[9:])  # the main task after the answer, whole


def test_a_side_question_left_out_is_archived_first() -> None:
    """The side question and its answer are in the archive (the store's, searched by recall) once they
    leave the prompt, and handed to it once however many turns follow."""
    history = main_task_with_a_side_question()
    loop = Loop()
    first = loop.prepare(history, LoopOptions())
    assert [i for i, _ in first.fresh_drops] == [4, 5, 6, 7]
    assert loop.prepare([*history, assistant("ok")], LoopOptions()).fresh_drops == []
    with Compactor(context_window=32768) as compactor:
        compactor.compact(history)
        rows = compactor._runtime.store.archived(compactor.session)
    assert [r["message"] for r in rows] == history[4:8]


def test_a_side_question_not_answered_is_left_out_alone() -> None:
    """A /btw the model never answered before the next user message goes alone: the main task's rounds
    after it stay."""
    history = [system("agent"), user("go"), user("/btw is it Friday?"),
               assistant("", [("m1", "read_file", {"path": "x.py"})]), tool("m1", "x"), user("next")]
    out = prepare(history).messages
    assert [m["role"] for m in out] == ["system", "user", "assistant", "tool", "user"]


def test_a_later_side_question_sees_the_earlier_ones() -> None:
    """While the current turn is a /btw, the earlier side questions stay in view."""
    out = prepare([*btw_session(), user("/btw and of Chile?")]).messages
    assert "Lima" in json.dumps(out)


def test_btw_clear_forgets_them() -> None:
    """After /btw clear, a later /btw no longer sees the side questions before it."""
    history = [*btw_session(), user("/btw clear"), assistant("Forgotten."), user("more work"), assistant("ok"),
               user("/btw and of Chile?")]
    out = json.dumps(prepare(history).messages)
    assert "Lima" not in out and "/btw clear" not in out and "Chile" in out


def test_side_questions_off_keeps_them() -> None:
    """sideQuestions false: /btw is an ordinary message."""
    history = [*btw_session(), user("next")]
    assert prepare(history, side_questions=False, strip_thinking=False, fold_failed_calls=False).messages is history


# --- the memo is the same as starting fresh ------------------------------------------------------


@pytest.mark.parametrize("cut", [5, 9, 12, 14, 17])
def test_a_grown_history_gives_what_a_fresh_loop_gives(cut: int) -> None:
    """The decisions kept from the last call equal those made from scratch, whatever was appended."""
    full = [*thinking_session(), *failing_session(), *btw_session(), user("/btw q"), assistant("a"), user("z")]
    loop = Loop()
    for n in range(cut, len(full) + 1, 3):
        assert loop.prepare(full[:n], LoopOptions()).messages == Loop().prepare(full[:n], LoopOptions()).messages


@pytest.mark.parametrize("cut", [5, 12, 17])
def test_a_host_that_sends_copies_gets_the_same_prompt(cut: int) -> None:
    """A host that passes equal copies each turn (a gateway parsing JSON) gets what a fresh loop gives."""
    full = [*thinking_session(), *failing_session(), *btw_session(), user("z")]
    loop = Loop()
    for n in range(cut, len(full) + 1, 2):
        copies = copy.deepcopy(full[:n])
        assert loop.prepare(copies, LoopOptions()).messages == Loop().prepare(full[:n], LoopOptions()).messages


# --- 6. a bigger window --------------------------------------------------------------------------


def long_chat(n: int = 40) -> list[Message]:
    history = [system("agent")]
    for i in range(n):
        history += [user(f"question {i} " + words(120, i)), assistant(f"answer {i} " + words(120, i + 1))]
    return history


def verbatim(messages: list[Message], history: list[Message]) -> int:
    ids = {id(m) for m in history}
    return sum(1 for m in messages if id(m) in ids)


def test_a_bigger_window_reopens_the_plan(tmp_path: Any) -> None:
    """The same session at 8k, then at 32k, is derived again from the originals: more messages verbatim."""
    history = long_chat(60)
    store = str(tmp_path / "s.sqlite")
    with Compactor(context_window=8192, store=store, session="grow") as small:
        at_8k = small.compact(history).messages
    with Compactor(context_window=32768, store=store, session="grow") as big:
        at_32k = big.compact(history).messages
    assert verbatim(at_32k, history) > verbatim(at_8k, history)


def test_reopen_off_keeps_the_small_plan(tmp_path: Any) -> None:
    """reopenOnBiggerWindow false: the plan made at 8k stays in force at 32k while it fits."""
    history = long_chat(60)
    store = str(tmp_path / "s.sqlite")
    with Compactor(context_window=8192, store=store, session="keep", reopen_on_bigger_window=False) as small:
        at_8k = small.compact(history).messages
    with Compactor(context_window=32768, store=store, session="keep", reopen_on_bigger_window=False) as big:
        at_32k = big.compact(history).messages
    assert verbatim(at_32k, history) == verbatim(at_8k, history)


# --- 7. loop breakers ----------------------------------------------------------------------------


def test_compaction_stuck_above_the_trigger_keeps_the_last_plan() -> None:
    """Three fresh compactions in a row that stay above the trigger: stop, keep the plan, say why."""
    big_system = system("rules " + words(2400))  # about 3,600 tokens of a 4,096 window: above the trigger alone
    history = [big_system, *long_chat(6)[1:]]
    notices: list[str] = []
    with Compactor(context_window=4096) as compactor:
        for i in range(6):
            history = [*history, user(f"more {i} " + words(60, i))]
            result = compactor.compact(history)
            notices += result.notices
            history = [*history, assistant(f"ok {i}")]
        session = compactor._runtime.session(compactor.session)
        state = session.state
        from context_compactor.hooks.commands import format_stats
        report = format_stats(session.last, state)
    assert state.holding
    assert any("stopped recompacting" in n for n in notices)
    assert "loop breaker" in report and "trigger" in report


def read_files(count: int, size: int) -> list[Message]:
    """A session that reads ``count`` files of ``size`` words each, then goes on: what a compaction stubs."""
    history = [system("agent"), user("read the files")]
    for k in range(count):
        history += [assistant("", [(f"r{k}", "read_file", {"path": f"f{k}.py"})]), tool(f"r{k}", f"file {k} " + words(size, k))]
    return history + [assistant("read them"), user("ok"), assistant("fine"), user("go")]


def read_again(size: int) -> list[Message]:
    """The first file read again (call ``x1``): what pins the read for the loop breakers."""
    return [assistant("", [("x1", "read_file", {"path": "f0.py"})]), tool("x1", "file 0 " + words(size, 0)),
            assistant("again"), user("next")]


def test_a_stubbed_result_fetched_again_is_no_longer_stubbed() -> None:
    """A re-read of what compaction stubbed pins the call for the session, and says so: its latest result
    stays verbatim where it is, also once the plan would stub it, while the prompt stays within halfway
    from the target to the trigger; its earlier results (the same text again) keep their stubs. Every
    result of a pinned call put back, up to the window, filled a 32k prompt to the window."""
    history = read_files(12, 800)
    with Compactor(context_window=16384) as compactor:
        first = compactor.compact(history)
        assert "archived by" in next(m["content"] for m in first.messages if m.get("tool_call_id") == "r0")
        history += read_again(800)
        second = compactor.compact(history)
        state = compactor._runtime.session(compactor.session).state
        assert any("stay verbatim" in n for n in second.notices) and state.pinned
        for k in range(12, 24):  # later reads push the re-read into the part the plan stubs
            history += [assistant("", [(f"r{k}", "read_file", {"path": f"f{k}.py"})]),
                        tool(f"r{k}", f"file {k} " + words(800, k)), assistant(f"read {k}"), user("go on")]
        third = compactor.compact(history)
    kept = {m.get("tool_call_id"): m for m in third.messages if m["role"] == "tool"}
    assert third.stats.compacted and "archived by" in kept["r13"]["content"]  # results of that age are stubbed
    assert kept["x1"] is history[history.index(kept["x1"])]  # the host's own message, verbatim
    assert "archived by" in kept.get("r0", {"content": "archived by"})["content"]  # the earlier read: a stub, or folded
    assert third.stats.tokens_after <= third.stats.trigger


def test_a_result_put_back_stays_put_until_the_next_compaction() -> None:
    """Which pinned results go back is decided when a compaction moves the prompt: as the prompt grows on
    later turns of the same plan, a result put back stays verbatim and every prompt starts with the one
    before (it had gone back to its stub once the prompt passed halfway to the trigger, which rewrote
    the prompt from there on for a server's cache, on every such turn)."""
    history = read_files(12, 800)
    with Compactor(context_window=16384) as compactor:
        compactor.compact(history)
        history += read_again(800)
        compactor.compact(history)
        for k in range(12, 24):
            history += [assistant("", [(f"r{k}", "read_file", {"path": f"f{k}.py"})]),
                        tool(f"r{k}", f"file {k} " + words(800, k)), assistant(f"read {k}"), user("go on")]
        prompt = compactor.compact(history)
        compactions = prompt.stats.compactions
        halfway = prompt.stats.target + (prompt.stats.trigger - prompt.stats.target) // 2
        assert prompt.stats.tokens_after < halfway
        for n in range(10):
            history += [assistant(f"note {n} " + words(150, n)), user(f"more {n}")]
            later = compactor.compact(history)
            assert later.stats.compactions == compactions  # the same plan
            assert later.messages[:len(prompt.messages)] == prompt.messages
            kept = {m.get("tool_call_id"): m for m in later.messages if m["role"] == "tool"}
            assert "archived by" not in kept["x1"]["content"]
            prompt = later
    assert prompt.stats.tokens_after > halfway  # grown past where the result would have gone back to its stub


def test_a_result_fetched_again_stays_stubbed_when_its_original_would_not_fit() -> None:
    """Fit is a promise: an original too large for the room the window leaves keeps its stub (it had been
    put back regardless: 4,304 tokens sent to a 4,096 window, said to fit)."""
    history = read_files(6, 1200)
    with Compactor(context_window=4096) as compactor:
        compactor.compact(history)
        history += read_again(1200)
        second = compactor.compact(history)
    assert second.stats.fits and second.stats.tokens_after <= 4096
    kept = {m.get("tool_call_id"): m for m in second.messages if m["role"] == "tool"}
    assert "archived by" in kept["r0"]["content"]


def test_a_cold_compaction_watches_only_the_newest_results_it_took_out() -> None:
    """A first compaction that takes out thousands of results watches the newest REFETCH_WATCH of them: a
    loop re-fetches what it just lost; the watch (kept in the session's state) stays small."""
    from context_compactor.session import REFETCH_WATCH

    history = [system("agent"), user("read everything")]
    n = REFETCH_WATCH + 150
    for k in range(n):
        history += [assistant("", [(f"r{k}", "read_file", {"path": f"f{k}.py"})]), tool(f"r{k}", f"file {k} " + words(60, k))]
    history += [assistant("read them"), user("go")]
    with Compactor(context_window=8192) as compactor:
        result = compactor.compact(history)
        watch = compactor._runtime.session(compactor.session).state.refetch_watch
    verbatim = {m["tool_call_id"] for m in result.messages if m.get("role") == "tool" and "archived by" not in m["content"]}
    newest_out = max(k for k in range(n) if f"r{k}" not in verbatim)
    watched = {json.loads(json.loads(key)[1])["path"] for key in watch}
    assert len(watch) == REFETCH_WATCH and newest_out > REFETCH_WATCH
    assert watched == {f"f{k}.py" for k in range(newest_out - REFETCH_WATCH + 1, newest_out + 1)}


# --- 8. the save-state reminder -----------------------------------------------------------------


def test_save_state_reminder_is_off_by_default_and_once_when_on() -> None:
    """Off by default; on, the agent is told once, in the prompt, when it passes precompactAt of the trigger."""
    history = long_chat(8)  # ~4,000 tokens
    with Compactor(context_window=8192) as compactor:
        assert "write down" not in json.dumps(compactor.compact(history).messages)
    seen = []
    with Compactor(context_window=8192, save_state_reminder=True, precompact_at=0.5) as compactor:
        for i in range(3):
            history = [*history, user(f"q{i}")]
            seen.append("write down" in json.dumps(compactor.compact(history).messages[-1:]))
            history = [*history, assistant("a")]
    assert seen == [True, False, False]


def test_every_hookspec_still_loads() -> None:
    """The plugin manager still builds with the session changes (a smoke check of the wiring)."""
    assert get_plugin_manager(load_entry_points=False).hook.before_agent_start


def test_think_blocks_are_removed_as_the_pattern_removes_them_in_linear_time():
    """``strip_think_text`` reads each tag name to the end of the text once (the pattern had read from every
    unclosed opening tag to the end: quadratic on "<thinking>" repeated with only "</think>" closers); what
    it removes is what the pattern removes, on random texts of tags and words."""
    import random

    from context_compactor.thinking import _THINK, _think_blocks_removed

    rng = random.Random(7)
    parts = ["<think>", "</think>", "<thinking>", "</thinking>", "a", " ", "\n", "<think", "x>"]
    for _ in range(3000):
        text = "".join(rng.choice(parts) for _ in range(rng.randint(0, 30)))
        assert _think_blocks_removed(text) == _THINK.sub("", text), text
    hostile = "<thinking>a" * 50_000 + "</think>"
    assert strip_think_text(hostile) == ""  # the head up to the closing tag, as a template without the opening tag
    assert strip_think_text("<think>plan</think> Answer.") == "Answer."
