"""Plans that keep a prefix-caching server's work small (issue 26): results a host pins (loopBreakers) are
part of the plan, so the prompt still lands at the target and is not compacted again on the next call."""

from __future__ import annotations

from convo import assistant, system, tool, user, words

from context_compactor.engine import Measurer, Tuning, budget_for, compact
from context_compactor.engine.summaries import Summaries
from context_compactor.store import Store
from context_compactor.summarizer.fallback import ExtractiveSummarizer
from context_compactor.tokens import CharCounter

BUDGET = budget_for(8192, "config", max_tokens=None, compact_at=0.75, compact_to=0.5)


def tool_loop(rounds: int, size: int = 500) -> list[dict]:
    """A few earlier turns, then a current turn that is one long tool loop of ``rounds`` reads."""
    out = [system("You are an agent.")]
    for t in range(6):
        out += [user(f"earlier request {t}: " + words(80, t)), assistant(words(80, t + 50))]
    out.append(user("read every module and tell me what breaks"))
    for r in range(rounds):
        out += [assistant("", [(f"c{r}", "read_file", {"path": f"src/m{r}.py"})]), tool(f"c{r}", words(size, r))]
    return out


def run(messages: list[dict], pinned: frozenset[int] = frozenset()):
    measurer = Measurer(CharCounter(4.0))
    m = measurer.measure(messages)
    fallback = ExtractiveSummarizer()
    summaries = Summaries(fallback, fallback, Store.open(":memory:"), measurer.text_tokens, 16000)
    tuning = Tuning.fitted(BUDGET, 2000, None, 4000)
    return m, compact(measurer, m, BUDGET, tuning, summaries, lambda gone: None, pinned=pinned)


def test_a_pinned_result_is_never_stubbed_and_the_plan_still_reaches_the_target():
    """A result the host pins stays in the prompt as it came, and the rest is planned around it."""
    messages = tool_loop(12)
    first_read = 15  # the current turn's first result
    assert messages[first_read]["role"] == "tool"
    _, plain = run(messages)
    assert plain.messages is not None and messages[first_read] not in plain.messages
    _, out = run(messages, pinned=frozenset({first_read}))
    assert out.compacted and out.tokens_after <= BUDGET.target
    assert messages[first_read] in out.messages


def test_an_answered_turns_large_results_leave_room_for_the_ledger_when_the_user_asks_again():
    """The turn before the user's new message ran four large reads and was answered. Kept whole they would
    take most of the target, and the ledger of everything before would be cut to a few lines. So they
    become stubs (their answer, which says what they showed, stays verbatim), and the ledger keeps its room.
    Results of a tool round in the current turn stay as they are."""
    out = [system("You are an agent.")]
    for t in range(40):
        out += [user(f"Rule {t}: never touch module m{t} without asking first, it is owned by team {t}."),
                assistant(words(60, t))]
    out += [user("how much did we pay the vendor in February?"),
            assistant("", [(f"c{r}", "erp_query", {"q": f"vendor payments part {r}"}) for r in range(4)])]
    out += [tool(f"c{r}", words(900, r)) for r in range(4)]
    out += [assistant("We paid the vendor 42 times in February, 190,965.92 USD in all."),
            user("and what moved in the results of US01 in January?")]
    _, res = run(out)
    assert res.compacted and res.tokens_after <= BUDGET.target
    sent = res.messages
    kept = [m for m in sent if m.get("role") == "tool"]
    stubs = [m["content"].startswith("[tool result archived by context-compactor") for m in kept]
    assert len(kept) == 4 and stubs[0] and sum(stubs) >= 2, stubs  # oldest first, as many as the target needs
    assert out[-2] in sent and out[-1] in sent
    block = next(m["content"] for m in sent if "[context-compactor: ledger" in str(m.get("content")))
    assert sum(f"never touch module m{t} " in block for t in range(40)) >= 30, block
    # the same reads in the current turn (no answer yet, no new question) stay whole
    _, current = run(out[:-2])
    assert all(not m["content"].startswith("[tool result archived") for m in current.messages if m.get("role") == "tool")


def test_the_recent_tail_takes_at_most_a_quarter_of_the_target():
    """At 8k the target is 4,096 tokens: the tail kept verbatim gets at most 1,024 of them (it had half), and the
    ledger of everything folded the rest; from a 32k window up the configured 2,000 stands as it is."""
    small = Tuning.fitted(BUDGET, 2000, None, 1500)
    assert small.keep_recent_tokens == 1024 and small.summary_max_tokens > 2 * small.keep_recent_tokens
    large = Tuning.fitted(budget_for(32768, "config", max_tokens=None, compact_at=0.75, compact_to=0.5), 2000, None, 1500)
    assert large.keep_recent_tokens == 2000


def test_where_the_turn_starts_is_read_from_the_ends_as_the_whole_shape_reads_it():
    """A warm turn asks only where its turn starts (``lead_and_turn``, read from the two ends instead of
    walking two thousand messages); it answers as the full shape does: the last user message, else the
    last message that is not a tool result, else the end of the leading system messages."""
    from context_compactor.engine.plan import lead_and_turn, shape_of

    call = assistant("", [("c1", "read_file", {"path": "a.py"})])
    cases = {
        "system system user assistant call tool user assistant call tool": (2, 6),
        "system assistant call tool assistant call tool": (1, 5),
        "system call tool tool": (1, 1),
        "system system": (2, 2),
        "user": (0, 0),
        "user assistant user": (0, 2),
    }
    make = {"system": lambda: system("s"), "user": lambda: user("u"), "assistant": lambda: assistant("a"),
            "call": lambda: call, "tool": lambda: tool("c1", "r")}
    for roles, expected in cases.items():
        m = Measurer(CharCounter(4.0)).measure([make[role]() for role in roles.split()])
        shape = shape_of(m)
        assert lead_and_turn(m) == expected == (shape.lead, shape.turn_start), roles
