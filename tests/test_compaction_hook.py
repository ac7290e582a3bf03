"""before_agent_start through a real plugin manager, runtime and SQLite store."""

from __future__ import annotations

import dataclasses
import json

import pytest
import structlog
from convo import assistant, chat, orphans, system, tool, user, words

from context_compactor.engine import Measurer
from context_compactor.hookspecs import CompactionStats
from context_compactor.tokens import CharCounter


def tokens(messages, ratio=4.0):
    return Measurer(CharCounter(ratio)).measure(messages).total


def test_under_the_trigger_nothing_changes(make_runtime, run_hook):
    """A prompt under the trigger gets a result with no messages (the host sends the history as it is), and
    the figures of the decision all the same."""
    runtime = make_runtime()
    result = run_hook(runtime, chat(3), window=8192)
    assert result.messages is None and result.failure is None and result.notices == []
    assert result.stats.tokens_before == result.stats.tokens_after > 0 and not result.stats.compacted
    assert result.stats.window == 8192 and result.stats.turn_tokens > 0


def test_over_the_trigger_the_projection_fits_the_target(make_runtime, run_hook):
    """A long chat is compacted to at most the target, and the result says before and after."""
    runtime = make_runtime()
    messages = chat(60)
    result = run_hook(runtime, messages, window=8192)
    assert result.stats["compacted"] is True
    assert result.stats["tokens_before"] > 6144
    assert result.stats["tokens_after"] <= 4096
    assert tokens(result.messages) <= 4096 + 64



def test_small_windows_fit_with_the_default_sizes(make_runtime, run_hook):
    """On 1k, 2k and 4k windows the default tail (2,000) and summary (1,000) are capped by the target,
    so the compacted prompt fits the target instead of failing to compact or staying near the trigger."""
    for window in (1024, 2048, 4096):
        runtime = make_runtime()
        result = run_hook(runtime, chat(40), window=window)
        assert result.stats["compacted"] is True, (window, result.notices)
        assert result.stats["tokens_after"] <= window // 2 + 8, window  # the target, give or take the summary's frame
        assert result.messages[-1]["role"] == "user"

def test_leading_system_and_current_turn_are_kept_as_the_hosts_objects(make_runtime, run_hook):
    """The leading system message and the current user turn come back as the very same objects."""
    runtime = make_runtime()
    messages = chat(60)
    result = run_hook(runtime, messages, window=8192)
    assert result.messages[0] is messages[0]
    assert result.messages[-1] is messages[-1]


def test_summary_block_is_marked_and_counts_the_folded_messages(make_runtime, run_hook):
    """The compacted block says it is a summary and of how many earlier messages."""
    runtime = make_runtime()
    result = run_hook(runtime, chat(60), window=8192)
    block = result.messages[1]["content"]
    assert block.startswith(f"[context-compactor: ledger of {result.stats['folded']} earlier messages")
    assert "[end of ledger]" in block


def test_summary_is_merged_into_a_kept_user_turn_to_keep_roles_alternating(make_runtime, run_hook):
    """When the kept part opens on a user message, the summary rides in it: no two user messages in a row."""
    runtime = make_runtime()
    messages = chat(60)
    result = run_hook(runtime, messages, window=8192)
    roles = [m["role"] for m in result.messages]
    assert all(not (a == b == "user") for a, b in zip(roles, roles[1:]))
    merged = result.messages[1]
    assert merged["role"] == "user" and "ledger of" in merged["content"]
    original = next(m for m in messages if m["content"] and merged["content"].endswith(m["content"]))
    assert original["role"] == "user"


def test_summary_gets_its_own_message_before_an_assistant_turn(make_runtime, run_hook):
    """When the kept part opens on an assistant message, the summary is a user message of its own."""
    runtime = make_runtime(keepRecentTokens=600, summaryMaxTokens=200)
    messages = [system("s"), user("start")] + [assistant(words(300, t)) for t in range(6)] + [user("now?")]
    result = run_hook(runtime, messages, window=2048)
    assert result.messages[1]["role"] == "user" and result.messages[1]["content"].startswith("[context-compactor")
    assert result.messages[2]["role"] == "assistant" and result.messages[2] in messages


def test_oversized_tool_result_is_cut_to_head_and_tail(make_runtime, run_hook):
    """Stage 1: one huge tool result keeps its head and tail and says what was cut."""
    runtime = make_runtime()
    body = "HEAD-LINE\n" + "filler line\n" * 20000 + "TAIL-LINE"
    messages = [user("read it"), assistant("", [("c1", "bash", {"command": "cat big.log"})]), tool("c1", body), user("so?")]
    result = run_hook(runtime, messages, window=32768)
    cut = result.messages[2]["content"]
    assert result.stats["stage"] == 1
    assert cut.startswith("HEAD-LINE") and cut.endswith("TAIL-LINE")
    assert "characters cut by context-compactor" in cut and "cc:" in cut
    assert tokens([result.messages[2]]) <= 4000 + 64


def test_old_tool_results_become_stubs_naming_the_tool(make_runtime, run_hook):
    """Stage 2: old tool bodies outside the recent tail become one-line stubs with tool, size and reference."""
    runtime = make_runtime()
    messages = [user("go")]
    for i in range(30):
        messages += [assistant("", [(f"c{i}", "read_file", {"path": f"f{i}.py"})]), tool(f"c{i}", f"first line {i}\n" + "x = 1\n" * 300)]
    messages.append(user("continue"))
    result = run_hook(runtime, messages, window=16000)
    assert result.stats["stage"] == 2
    stub = result.messages[2]["content"]
    assert stub.startswith("[tool result archived by context-compactor: read_file,")
    assert "first line: first line 0" in stub and "ref cc:" in stub
    assert not orphans(result.messages)


def test_a_stub_names_the_ids_its_output_printed_last(make_runtime, run_hook):
    """A stubbed command output keeps the strong ids it printed last (a port mapping on its last line, a
    build id), within the stub's size: the model still knows where the service listens."""
    from context_compactor.engine.plan import STUB_MAX_CHARS

    runtime = make_runtime()
    ps = ("NAME   IMAGE   STATUS   PORTS\n" + "".join(f"svc-{k}   img:{k}   Up   0.0.0.0:{6000 + k}->80/tcp\n"
                                                  for k in range(12)) + "svc-pay   mock   Up   0.0.0.0:23868->12111/tcp\nexit code: 0")
    messages = [user("go")]
    for i in range(30):
        messages += [assistant("", [(f"c{i}", "bash", {"command": "docker compose ps"})]), tool(f"c{i}", ps + "\n" * i)]
    messages.append(user("continue"))
    result = run_hook(runtime, messages, window=4000)
    stubs = [m["content"] for m in result.messages if m.get("role") == "tool" and "archived by context-compactor" in m["content"]]
    assert stubs and all(len(s) <= STUB_MAX_CHARS for s in stubs)
    assert all("ids: " in s and s.index("0.0.0.0:23868") < s.index("first line: NAME") for s in stubs), stubs[0]


def test_messages_leave_the_prompt_only_after_they_are_archived(make_runtime, run_hook):
    """Every folded or stubbed message is in the archive, in full, once the projection is returned."""
    runtime = make_runtime()
    messages = chat(60, tools_every=3)
    result = run_hook(runtime, messages, window=8192)
    archived = [row["message"] for row in runtime.store.archived("s1")]
    kept_ids = {id(m) for m in result.messages}
    carried = result.messages[1]["content"]  # the first kept user turn carries the summary
    gone = [m for m in messages if id(m) not in kept_ids and not carried.endswith(m["content"])]
    assert gone
    for message in gone:
        assert message in archived


def test_long_tool_loop_in_one_turn_is_stubbed_with_a_notice(make_runtime, run_hook):
    """Inside one long agent loop (no new user turn), older results of the current turn become stubs."""
    runtime = make_runtime()
    messages = [user("fix everything")]
    for i in range(30):
        messages += [assistant("", [(f"c{i}", "bash", {"command": f"step {i}"})]), tool(f"c{i}", "out\n" * 400)]
    result = run_hook(runtime, messages, window=4000)
    assert result.stats["stage"] >= 3
    assert any("tool results" in n and "replaced by stubs" in n for n in result.notices)
    assert result.stats["tokens_after"] <= 4000
    assert result.messages[-1] is messages[-1]
    assert not orphans(result.messages)


def test_system_prompt_above_the_window_changes_nothing_and_says_why(make_runtime, run_hook):
    """A system prompt larger than the window cannot be helped: no change, and a notice that says so."""
    runtime = make_runtime()
    result = run_hook(runtime, [user("hi")], window=1000, system_prompt="y" * 8000)
    assert result.messages is None
    assert "above the 1,000-token context window" in result.notices[0]


def test_a_prompt_that_cannot_fit_returns_typed_stats_with_the_reason(make_runtime, run_hook):
    """When nothing can fit, the hook still returns a result whose typed stats say fits=False and why."""
    runtime = make_runtime()
    result = run_hook(runtime, [user("hi")], window=1000, system_prompt="y" * 8000, session="big")
    assert isinstance(result.stats, CompactionStats)
    assert result.stats.fits is False and result.stats.tokens_after > result.stats.window == 1000
    assert result.stats.reason and "above the 1,000-token context window" in result.stats.reason
    assert result.stats.session == "big" and result.stats.window_source == "host"


def test_stats_are_the_sessions_typed_figures(make_runtime, run_hook):
    """The result's stats are frozen, typed, and the same object the session keeps for /context-stats."""
    runtime = make_runtime()
    result = run_hook(runtime, chat(60), window=8192)
    stats = result.stats
    assert stats is runtime.session("s1").last.stats
    assert (stats.fits, stats.reason, stats.compacted, stats.window, stats.trigger) == (True, None, True, 8192, 6144)
    assert stats.folded > 0 and stats.chunks > 0 and stats.summarizer == "extractive"
    assert stats.notices == tuple(result.notices) and stats.as_dict()["notices"] == list(result.notices)
    with pytest.raises(dataclasses.FrozenInstanceError):
        stats.fits = False  # type: ignore[misc]


def test_same_input_gives_the_same_bytes(make_runtime, run_hook):
    """Two fresh runtimes compacting the same history produce byte-identical projections."""
    messages = chat(60, tools_every=4)
    a = run_hook(make_runtime(), messages, window=8192)
    b = run_hook(make_runtime(), json.loads(json.dumps(messages)), window=8192)
    assert json.dumps(a.messages) == json.dumps(b.messages)


def test_projection_is_stable_between_compactions(make_runtime, run_hook):
    """After a compaction, the next turn reuses it: the sent prefix stays byte-identical and no new notice."""
    runtime = make_runtime()
    messages = chat(60)
    first = run_hook(runtime, messages, window=8192)
    grown = messages + [assistant("short answer"), user("one more short question")]
    second = run_hook(runtime, grown, window=8192)
    n = len(first.messages)
    assert json.dumps(second.messages[:n]) == json.dumps(first.messages)
    assert second.messages[n:] == grown[-2:]
    assert second.notices == []


def test_compaction_fires_again_once_the_projection_passes_the_trigger(make_runtime, run_hook):
    """Growth after a compaction eventually triggers a new one, which folds more."""
    runtime = make_runtime()
    messages = chat(60)
    first = run_hook(runtime, messages, window=8192)
    grown = messages + [m for t in range(20) for m in (assistant(words(200, t)), user(words(200, t + 3)))]
    second = run_hook(runtime, grown, window=8192)
    assert second.notices and second.stats["folded"] > first.stats["folded"]
    assert second.stats["tokens_after"] <= 4096


def test_recent_tail_is_measured_in_tokens(make_runtime, run_hook):
    """keepRecentTokens decides how much stays verbatim: a larger budget keeps more of the end."""
    messages = chat(160, size=100)  # turns short enough that a tail of 2,048 tokens (a quarter of the target) holds more of them
    small = run_hook(make_runtime(keepRecentTokens=500), messages, window=16384)
    large = run_hook(make_runtime(keepRecentTokens=5000), messages, window=16384)
    assert small.stats["folded"] > large.stats["folded"], (small.stats["folded"], large.stats["folded"])


def test_per_model_override_by_glob_sets_the_window(make_runtime, run_hook):
    """A models entry matching the model id changes its window (and so the trigger)."""
    runtime = make_runtime(models={"local/*": {"contextWindow": 4096}})
    result = run_hook(runtime, chat(12), model="local/qwen")
    assert result.stats["window"] == 4096 and result.stats["window_source"] == "config"


def test_unknown_model_window_defaults_to_8192(make_runtime, run_hook):
    """No configured or reported window: 8192 is assumed (never 200k), and the source says default."""
    runtime = make_runtime()
    result = run_hook(runtime, chat(60), window=None)
    assert result.stats["window"] == 8192 and result.stats["window_source"] == "default"


def test_tiktoken_counting_works_through_the_hook(make_runtime, run_hook):
    """With tokenizer o200k_base the hook measures with the shipped encoding and still compacts."""
    runtime = make_runtime(tokenizer="o200k_base")
    result = run_hook(runtime, chat(60), window=8192)
    assert result.stats["compacted"] and result.stats["tokens_after"] <= 4096


def test_disabled_means_no_change(make_runtime, run_hook):
    """enabled: false turns the extension off entirely: nothing changes, the figures are the prompt as it is."""
    result = run_hook(make_runtime(enabled=False), chat(60), window=8192)
    assert result.messages is None and result.failure is None
    assert not result.stats.compacted and result.stats.tokens_after == result.stats.tokens_before > 6144


def test_internal_failure_fails_open_with_one_warning(make_runtime, run_hook):
    """Any exception inside the hook becomes one structured warning and no change; the result carries the
    failure as a field, and a notice says so."""
    runtime = make_runtime()
    runtime.store.close()  # the archive write will fail
    with structlog.testing.capture_logs() as logs:
        result = run_hook(runtime, chat(60), window=8192)
    assert result.messages is None and result.failure and "closed" in result.failure.lower(), result.failure
    assert any(n.startswith("context-compactor: compaction failed this turn") for n in result.notices), result.notices
    failures = [log for log in logs if log["event"] == "compaction.failed"]
    assert len(failures) == 1 and failures[0]["log_level"] == "warning"


def test_one_canonical_log_line_per_compaction(make_runtime, run_hook):
    """A compaction logs compaction.done once with the before and after figures."""
    runtime = make_runtime()
    with structlog.testing.capture_logs() as logs:
        run_hook(runtime, chat(60), window=8192)
    done = [log for log in logs if log["event"] == "compaction.done"]
    assert len(done) == 1 and done[0]["tokens_before"] > done[0]["tokens_after"]


def test_later_compactions_archive_what_they_drop_too(make_runtime, run_hook):
    """Across several compactions and reused plans, every message that left the prompt is archived."""
    runtime = make_runtime()
    messages = chat(40, tools_every=2)
    for t in range(30):
        messages = messages + [assistant(words(150, t)), user(words(150, t + 1))]
        result = run_hook(runtime, messages, window=8192)
    archived = [row["message"] for row in runtime.store.archived("s1")]
    sent = json.dumps(result.messages)
    gone = [m for m in messages if m not in result.messages and json.dumps(m["content"])[1:-1] not in sent]
    assert len(gone) > 100  # the property below is about many messages, not none
    for message in gone:
        assert message in archived


def test_serve_passes_a_prompt_that_cannot_fit_through_with_a_warning_header(tmp_path):
    """The gateway host acts on fits=False: the request goes upstream as the client wrote it, the reply
    carries x-context-compactor-warning with the reason, and the gateway logs one gateway.cannot_fit line."""
    import openai
    from fakes.harness import fake_upstream, gateway_for

    messages = [system("Follow the rules. " * 600), user("hi")]
    with fake_upstream() as up, gateway_for(up.url, tmp_path, settings={"contextWindow": 1024}) as gw:
        client = openai.OpenAI(base_url=gw.url + "/v1", api_key="x", max_retries=0, timeout=30)
        with structlog.testing.capture_logs() as logs:
            raw = client.chat.completions.with_raw_response.create(model="m", messages=messages)
    warning = raw.headers["x-context-compactor-warning"]
    assert warning.startswith("cannot fit: ") and "1,024-token" in warning
    assert raw.headers["x-context-compactor-compacted"] == "0"
    assert up.app.chats()[-1].body["messages"] == messages
    lines = [log for log in logs if log["event"] == "gateway.cannot_fit"]
    assert len(lines) == 1 and lines[0]["log_level"] == "warning" and lines[0]["window"] == 1024


def test_a_learned_fixed_overhead_counts_toward_the_trigger(make_runtime, run_hook):
    """Where the host keeps its system prompt and tools to itself, the overhead the provider reported
    beyond our estimate is part of the whole prompt: a history under the trigger alone compacts with it."""
    messages = [user(words(90, i)) if i % 2 == 0 else assistant(words(90, i)) for i in range(40)]
    plain = make_runtime()
    assert run_hook(plain, messages, window=8192).messages is None  # under the 6,144 trigger alone
    hidden = make_runtime()
    overhead = 0
    for chars, reported in ((10_000, 2_600 + 2_500), (30_000, 7_600 + 2_500)):  # two turns: 2,500 fixed
        overhead = hidden.learn_overhead("s1", chars, 0, reported, 4.0)
    assert overhead > 2000
    result = run_hook(hidden, messages, window=8192)
    assert result is not None and result.stats.compacted
    assert result.stats.tokens_before >= tokens(messages) + overhead


def test_an_anchor_saved_without_its_block_size_gets_a_full_ledger(make_runtime, run_hook):
    """A plan persisted by an older release (a version-0 record, no block size) is read from the store and
    reused with a ledger sized to the room, not the minimal one."""
    runtime = make_runtime()
    messages = chat(60)
    first = run_hook(runtime, messages, window=8192)
    old = runtime.session("s1").state.dump()
    del old["version"]
    del old["anchor"]["summary_tokens"]
    runtime.store.save_session("s1", old)  # as the release before wrote it; this process reads it again
    assert runtime.session("s1").state.anchor.summary_tokens == 0
    again = run_hook(runtime, [*messages, assistant("ok")], window=8192)
    block = again.messages[1]["content"] if again.messages[0]["role"] == "system" else again.messages[0]["content"]
    first_block = first.messages[1]["content"] if first.messages[0]["role"] == "system" else first.messages[0]["content"]
    assert len(block) >= len(first_block) * 0.9


def test_a_stub_says_what_its_output_found(make_runtime, run_hook):
    """A stubbed output that found something (a pod killed for memory) says it, not its first line."""
    events = ("LAST SEEN   TYPE      REASON    OBJECT         MESSAGE\n"
              + "".join(f"{k}m   Normal    Pulled    pod/web-{k}   Container image already present\n" for k in range(40))
              + 'ts=2024-06-05T20:10:43Z level=warn msg="container terminated" pod="billing/invoice-pdf-7f9c" reason="OOMKilled"\n')
    messages = [user("why does invoice-pdf restart?")]
    for i in range(30):
        messages += [assistant("", [(f"c{i}", "bash", {"command": "kubectl get events -n billing"})]), tool(f"c{i}", events + "\n" * i)]
    messages.append(user("continue"))
    result = run_hook(make_runtime(), messages, window=4000)
    stubs = [m["content"] for m in result.messages if m.get("role") == "tool" and "archived by context-compactor" in m["content"]]
    assert stubs and all("found: " in s and "OOMKilled" in s for s in stubs), stubs[0]


def test_a_stub_says_the_line_that_answers_the_users_question(make_runtime, run_hook):
    """A stubbed page that found no failure stands as the line that answers the question asked before it
    ("is the pharmacy open sunday" -> its Sunday hours), not as its first line ("Skip to main content")."""
    page = ("Skip to main content\n\nPrivacy | Terms | Imprint | Contact\n\n# Öffnungszeiten\n\n"
            + "".join(f"Our opening hours change for the holiday season, so please check before you travel {k}.\n"
                      for k in range(40))
            + "Mon–Fri 8:00–18:30, Sat 9:00–13:00, Sunday 9:30–13:00 (Notdienst)\n")
    messages = []
    for i in range(12):
        messages += [user(f"[WhatsApp] is the pharmacy open sunday, branch {i}?"),
                     assistant("", [(f"c{i}", "fetch_url", {"url": f"https://www.apotheke-{i}.de/oeffnungszeiten"})]),
                     tool(f"c{i}", page), assistant("Looking at the calendar.")]
    messages.append(user("continue"))
    result = run_hook(make_runtime(), messages, window=4000)
    stubs = [m["content"] for m in result.messages if m.get("role") == "tool" and "archived by context-compactor" in m["content"]]
    assert stubs and all("found: Mon–Fri 8:00–18:30, Sat 9:00–13:00, Sunday 9:30–13:00 (Notdienst)" in s for s in stubs), stubs


def test_a_stub_says_what_a_lookup_answered_and_what_a_search_found_last(make_runtime, run_hook):
    """A stubbed result keeps what it found: a page's line that answers the user's question before a sentence
    of its filler that says "because", and a search's labelled last line ("cheapest: EUR 161.51 direct")
    rather than its first line."""
    runtime = make_runtime()
    page = ("Apotheke am Markt\n\nThe delivery window was moved because of the public holiday.\n\n"
            + "Share on Facebook | Share on X | Copy link\n\nSubscribe to our newsletter\n\n" * 12 +
            "Accept all cookies | Manage preferences\n\nMon–Fri 8:00–18:30, Sat 9:00–13:00, Sunday 9:30–15:00 (Notdienst)")
    flights = ("MUC -> LIS, Thu 27 Dec, 1 adult, economy\ncarrier  flight   dep    arr    stops  price\n"
               + "".join(f"KL  LH{800 + k}  16:15  17:45  1      EUR {300 + k}\n" for k in range(20)) + "cheapest: EUR 161.51 direct")
    def ps(i: int) -> list[dict]:
        return [assistant("", [(f"c{i}", "bash", {"command": "docker compose ps"})]),
                tool(f"c{i}", "NAME   STATUS   PORTS\n" + "".join(f"svc-{k}   Up {k + i} minutes   0.0.0.0:{6000 + k}->80/tcp\n"
                                                                for k in range(14)))]
    messages = [user("go")] + [m for i in range(20) for m in ps(i)] + [user("is the pharmacy open sunday"),
                assistant("", [("p", "fetch_url", {"url": "https://www.apotheke-am-markt-614.de/oeffnungszeiten"})]),
                tool("p", page), assistant("Yes, 9:30 to 15:00."), user("cheapest direct flight to lisbon?"),
                assistant("", [("f", "book", {"type": "flight_search", "sort": "price"})]), tool("f", flights),
                assistant("EUR 161.51, direct.")]
    messages += [m for i in range(20, 32) for m in ps(i)]
    result = run_hook(runtime, messages + [user("continue")], window=4000)
    stubs = {m.get("tool_call_id"): m["content"] for m in result.messages
             if m.get("role") == "tool" and "archived by context-compactor" in m["content"]}
    assert "found: Mon–Fri 8:00–18:30, Sat 9:00–13:00, Sunday 9:30–15:00 (Notdienst)" in stubs.get("p", ""), stubs
    assert "found: cheapest: EUR 161.51 direct" in stubs.get("f", ""), stubs
