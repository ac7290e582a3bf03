"""What bench/gen_analytics.py promises of its own domain: an analyst at a meal-kit subscription business and a data
agent (run_sql, dbt, notebook, read_file, write_file, dashboard, search_docs). Rules come in many phrasings and three
languages, pasted material carries other people's imperatives and is listed in ``session.pasted``, corrections are
loose and mostly near misses, tool outputs are the tables, logs, frames, JSON and wiki pages the spec promised, errors
are exact lines of the run that failed. The contract every generator keeps is in test_generators_contract.py."""

from __future__ import annotations

import json
import random
import re
import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import gen_analytics as gen
from sessiongen import Session, text_of

NL_WORDS = {"graag", "altijd", "alles", "niet", "ook", "overal", "omzet", "bedragen", "afronden", "vragen", "geen", "snapt",
            "klopt", "rapporteren", "aanhouden", "eerst", "voor", "afgesproken", "hoeveel", "kun", "kan", "waarom", "leeg",
            "vraagje", "hoi", "eentje", "dank", "bedankt", "even", "wat", "mist", "gisteren", "goedemorgen"}
PL_WORDS = {"proszę", "prosze", "zawsze", "nie", "tabeli", "kohorty", "procenty", "złotówki", "pytać", "wykluczać", "jednym",
            "jednego", "kursie", "poniżej", "tylko", "najpierw", "potem", "jak", "możesz", "jeszcze", "cześć", "ile"}


def words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text.lower()))


def prose(session: Session, index: int) -> str:
    """A user message without what the user pasted into it."""
    text = session.messages[index]["content"]
    for i, pasted in session.pasted:
        if i == index:
            text = text.replace(pasted, " ")
    return text


@pytest.fixture(scope="module")
def big() -> Session:
    return gen.make_session(seed=5, messages=3000)


@pytest.fixture(scope="module")
def sessions() -> list[Session]:
    return [gen.make_session(seed=s, messages=m) for s in (1, 2, 3) for m in (400, 1100)]


def tool_outputs(session: Session, name: str) -> list[str]:
    return [m["content"] for m in session.messages if m["role"] == "tool" and m["name"] == name]


def test_sizes_below_sixty_are_refused_and_sixty_is_whole() -> None:
    with pytest.raises(ValueError):
        gen.make_session(seed=1, messages=59)
    session = gen.make_session(seed=1, messages=60)
    assert len(session.messages) == 60 and Counter(f.kind for f in session.facts) == {k: 1 for k in gen.KINDS}


def test_per_kind_beyond_the_bench_sizes() -> None:
    assert [gen.per_kind(m) for m in (60, 121, 400, 1700, 3000, 5000)] == [1, 2, 6, 9, 12, 12]


def test_every_tool_is_used_in_every_session_of_400_and_more() -> None:
    for seed in range(1, 9):
        session = gen.make_session(seed=seed, messages=400)
        used = {c["function"]["name"] for m in session.messages for c in m.get("tool_calls") or []}
        assert used == set(gen.TOOLS), seed


def test_the_agent_runs_tool_loops_before_answering(big: Session) -> None:
    """Several calls a turn on average, some long loops, and an answer in the agent's words closing each loop."""
    turns, calls, longest = 0, 0, 0
    current = 0
    for m in big.messages[1:]:
        if m["role"] == "user":
            turns += 1
            longest = max(longest, current)
            current = 0
        calls += len(m.get("tool_calls") or [])
        current += len(m.get("tool_calls") or [])
    assert calls / turns >= 2.5 and longest >= 8
    for i, m in enumerate(big.messages[:-1]):
        if m["role"] == "tool" and big.messages[i + 1]["role"] == "user":
            pytest.fail(f"a tool result at {i} is followed by a user turn, not by the agent")


def test_pasted_texts_are_in_user_messages_and_of_every_promised_kind(big: Session) -> None:
    kinds = Counter()
    for index, text in big.pasted:
        message = big.messages[index]
        assert message["role"] == "user" and text in message["content"]
        assert prose(big, index).strip(), "a paste comes with the user's own words"
        if text.startswith("From: ") and "\nSubject: " in text:
            kinds["email"] += 1
        elif text.startswith("Metric definitions v"):
            kinds["doc"] += 1
        elif text.startswith("Slide "):
            kinds["chart"] += 1
        elif "Done. PASS=" in text or " START " in text or "Finished running" in text:
            kinds["dbt"] += 1
        elif re.match(r"^[\w ]+  \d{1,2}:\d\d\n", text):
            kinds["slack"] += 1
        elif re.match(r"^[a-z_]+(,[a-z_]+)+\n", text):
            kinds["csv"] += 1
    assert set(kinds) == {"email", "doc", "chart", "dbt", "slack", "csv"}, kinds


def test_pasted_stakeholder_messages_carry_other_peoples_imperatives(sessions: list[Session], big: Session) -> None:
    """Slack threads and finance emails ask for things ("pull everything for the board by friday", "use the gross
    numbers incl. VAT"): none of that is planted as the user's rule, correction, decision or plan."""
    imperative = re.compile(r"(?i)\b(pls|please|pull|send|restate|use|make sure|drop|add|include|reconcile|freeze|confirm|we need|asap)\b")
    stakeholder = [t for s in [*sessions, big] for _i, t in s.pasted if t.startswith("From: ") or re.match(r"^[\w ]+  \d{1,2}:\d\d\n", t)]
    assert stakeholder and all(imperative.search(t) for t in stakeholder)
    assert any("pull everything for the board by friday" in t for t in stakeholder)
    for session in sessions:
        for fact in session.facts:
            if fact.kind in ("instruction", "correction", "decision", "plan"):
                assert fact.value in prose(session, fact.index), fact


def test_a_rule_adopted_from_a_pasted_definitions_doc_is_also_the_users_own_words(sessions: list[Session]) -> None:
    adopted = 0
    for session in sessions:
        for fact in session.facts:
            docs = [t for i, t in session.pasted if i == fact.index and t.startswith("Metric definitions v")]
            if fact.kind == "instruction" and docs:
                assert fact.value in docs[0] and fact.value in prose(session, fact.index)
                assert re.search(r"(?i)definition|defs|doc", prose(session, fact.index))
                adopted += 1
    assert adopted >= len(sessions)


def rule_styles(session: Session) -> Counter[str]:
    styles: Counter[str] = Counter()
    for fact in session.facts:
        if fact.kind != "instruction":
            continue
        said = prose(session, fact.index)
        if any(i == fact.index for i, _t in session.pasted):
            styles["doc"] += 1
        at, stop = said.index(fact.value), said.index(fact.value) + len(fact.value)
        start = max(said.rfind(mark, 0, at) for mark in (". ", "? ", "\n\n"))
        ends = [e for e in (said.find(mark, stop) for mark in (". ", "? ", "\n\n")) if e >= 0]
        sentence = said[start + 1: min(ends, default=len(said))]
        lowered = words(sentence.replace(fact.value, " "))
        if lowered & NL_WORDS:
            styles["nl"] += 1
        if lowered & PL_WORDS:
            styles["pl"] += 1
        if re.search(r"(?i)i'd p\w+|i'd rather|can we do", sentence):
            styles["preference"] += 1
        head, _sep, tail = said.partition("\n\n")
        if tail and fact.value in tail and fact.value not in head and "Metric definitions" not in said:
            styles["second paragraph"] += 1
    return styles


def test_rules_come_in_the_phrasings_and_languages_the_spec_asks_for() -> None:
    """Each session of 400 messages has a Dutch, a Polish, a preference and a doc-adopted rule, and one in a second
    paragraph; they differ from seed to seed."""
    values = set()
    for seed in range(1, 7):
        session = gen.make_session(seed=seed, messages=400)
        styles = rule_styles(session)
        assert {"nl", "pl", "doc", "preference", "second paragraph"} <= set(styles), (seed, styles)
        values |= {f.value for f in session.facts if f.kind == "instruction"}
    assert len(values) >= 20


def test_dutch_and_polish_run_through_the_whole_session(big: Session) -> None:
    users = [prose(big, i) for i, m in enumerate(big.messages) if m["role"] == "user"]
    thirds = [users[: len(users) // 3], users[len(users) // 3: 2 * len(users) // 3], users[2 * len(users) // 3:]]
    for part in thirds:
        assert sum(bool(words(u) & NL_WORDS) for u in part) >= 5
        assert sum(bool(words(u) & PL_WORDS) for u in part) >= 5


@pytest.mark.parametrize("seed", [1, 5, 9])
def test_corrections_are_loose_near_misses_often_far_and_sometimes_mid_message(seed: int) -> None:
    session = gen.make_session(seed=seed, messages=3000)
    corrections = [f for f in session.facts if f.kind == "correction"]
    near = sum(sum(a == b for a, b in zip(f.value, f.stale or "")) >= len(f.value) // 2 for f in corrections)
    far = sum(f.index - (f.stale_index or 0) > 100 for f in corrections)
    assert near >= len(corrections) // 2 and near < len(corrections)  # most, not all: some are loose
    assert far >= 4
    middle = 0
    for fact in corrections:
        text = session.messages[fact.index]["content"]
        assert fact.stale in text  # the user names what they take back
        first = session.messages[fact.stale_index or 0]["content"]
        assert fact.stale in first and fact.value not in first
        middle += text.index(fact.value) > 40 and len(text) - text.index(fact.value) > 60
    assert middle >= 2


def test_the_agent_used_the_stale_value_before_it_was_corrected(big: Session) -> None:
    """The old value went into a query or a cell (the agent believed it) within the turn that said it."""
    used = 0
    for fact in big.facts:
        if fact.kind == "correction" and fact.stale_index is not None:
            window = big.messages[fact.stale_index + 1: fact.stale_index + gen.STALE_REACH + 1]
            used += any(fact.stale in c["function"]["arguments"] for m in window for c in m.get("tool_calls") or [])
    assert used >= 6


def test_decisions_some_revised_with_their_first_choice_said_by_the_user(sessions: list[Session]) -> None:
    for session in sessions:
        decisions = [f for f in session.facts if f.kind == "decision"]
        revised = [f for f in decisions if f.stale is not None]
        assert 0 < len(revised) < len(decisions)
        for fact in revised:
            first = session.messages[fact.stale_index or 0]
            assert first["role"] == "user" and fact.stale in first["content"]
            assert fact.stale in session.messages[fact.index]["content"]


def test_plans_are_prose_with_several_steps(sessions: list[Session]) -> None:
    for session in sessions:
        for fact in session.facts:
            if fact.kind == "plan":
                text = session.messages[fact.index]["content"]
                steps = [text.index(s) for s in gen.PLAN_COMMON if s in text and s not in fact.value] + [text.index(fact.value)]
                assert len(steps) >= 3 and len(set(steps)) == len(steps), text  # the distinctive step among ordinary ones


def test_files_are_new_paths_written_once_with_their_content(sessions: list[Session]) -> None:
    for session in sessions:
        for fact in (f for f in session.facts if f.kind == "file"):
            calls = session.messages[fact.index]["tool_calls"]
            args = json.loads(calls[0]["function"]["arguments"])
            assert calls[0]["function"]["name"] == "write_file" and args["path"] == fact.value and len(args["content"]) > 300
            assert re.match(r"^(models/(marts|intermediate)/|notebooks/|analyses/)", fact.value)
            result = session.messages[fact.index + 1]
            assert result["role"] == "tool" and result["content"].startswith("Wrote ")


def test_tool_outputs_are_the_kinds_the_spec_promised(big: Session) -> None:
    sql = tool_outputs(big, "run_sql")
    assert sum(o.startswith("+--") and "\n| " in o for o in sql) >= 50
    assert sum(bool(re.match(r"^[a-z_]+(,[a-z_]+)+\n", o)) for o in sql) >= 20
    assert any(line.startswith("Query error: ") for o in sql for line in o.splitlines())
    dbt = tool_outputs(big, "dbt")
    assert sum("Done. PASS=" in o for o in dbt) >= 50
    assert any(re.search(r"\d of \d+ FAIL \d+ not_null_", o) for o in dbt)
    assert any("Database Error in model " in o for o in dbt) and any("Previewing node" in o for o in dbt)
    notebook = tool_outputs(big, "notebook")
    assert sum(bool(re.search(r"\[\d+ rows x \d+ columns\]", o)) for o in notebook) >= 30
    assert any(o.splitlines()[1].startswith(("count ", "mean ")) or "\nmean " in o for o in notebook)
    assert any(o.splitlines()[-1].startswith("KeyError: '") and "Traceback (most recent call last)" in o for o in notebook)
    for out in tool_outputs(big, "dashboard"):
        body = out.split("\n", 1)[1] if out.startswith("HTTP ") else out
        json.loads(body)
    assert all(re.match(r"^\d+ results for \"", o) for o in tool_outputs(big, "search_docs"))
    reads = tool_outputs(big, "read_file")
    assert any("{{ ref('" in o for o in reads) and any(o.startswith("version: 2") for o in reads)


def test_errors_are_exact_lines_of_every_tool_that_can_fail(big: Session) -> None:
    tools = Counter()
    for fact in (f for f in big.facts if f.kind == "error"):
        message = big.messages[fact.index]
        assert fact.value in message["content"].splitlines()
        tools[message["name"]] += 1
        if message["name"] == "notebook":
            assert message["content"].splitlines()[-1] == fact.value
        if message["name"] == "dbt":
            assert "Database Error in model " in fact.value or " FAIL " in fact.value
        if message["name"] == "run_sql":
            assert fact.value.startswith("Query error: ")
    assert set(tools) == {"dbt", "notebook", "run_sql", "dashboard"}


def test_findings_come_from_every_source_and_are_sometimes_quoted_sometimes_pointed_at(sessions: list[Session]) -> None:
    sources: Counter[str] = Counter()
    quoted = pointed = 0
    for session in sessions:
        for fact in (f for f in session.facts if f.kind == "finding"):
            sources[session.messages[fact.index]["name"]] += 1
            answer = next(m for m in session.messages[fact.index + 1:] if m["role"] == "assistant" and not m.get("tool_calls"))
            asked = next(m for m in reversed(session.messages[:fact.index]) if m["role"] == "user")
            assert fact.value not in asked["content"]
            quoted += fact.value in answer["content"]
            pointed += fact.value not in answer["content"] and bool(re.search(r"(?i)above|table|output|results", answer["content"]))
    assert set(sources) == {"run_sql", "dbt", "notebook", "search_docs", "dashboard"}
    assert quoted and pointed


def test_identifiers_are_said_by_the_user_and_printed_by_tools(sessions: list[Session]) -> None:
    shape = re.compile(r"^((DATA|GROW|BI)-\d{4}|dashboards/\d{4}|exp_2[45]w\d\d_\w+|cmp_\d{4}|[A-Za-z0-9]{10})$")
    for session in sessions:
        carriers = Counter()
        for fact in (f for f in session.facts if f.kind == "identifier"):
            assert shape.match(fact.value), fact
            carriers[session.messages[fact.index]["role"]] += 1
        assert carriers["user"] and carriers["tool"]


def test_long_outputs_carry_the_session_and_hold_distractors(big: Session) -> None:
    tool_chars = sum(len(m["content"]) for m in big.messages if m["role"] == "tool")
    assert tool_chars > 0.6 * big.chars()
    campaigns = {c for o in tool_outputs(big, "run_sql") for c in re.findall(r"cmp_\d{4}", o)}
    assert len(campaigns) >= 20  # other campaigns' ids everywhere


def test_values_differ_between_seeds_and_phrasings_vary() -> None:
    a, b = gen.make_session(seed=21, messages=400), gen.make_session(seed=22, messages=400)
    assert not {f.value for f in a.facts} & {f.value for f in b.facts} - {"net of VAT", "excl. VAT", "ex-VAT"}
    big = gen.make_session(seed=21, messages=3000)
    users = Counter(prose(big, i) for i, m in enumerate(big.messages) if m["role"] == "user")
    assert len(users) >= 0.85 * sum(users.values())


def test_typos_touch_words_not_placeholders() -> None:
    text = "always exclude test accounts, anything with an email ending {v} pls"
    out = gen.typo(random.Random(3), text, rate=1.0)
    assert out != text and "{v}" in out and len(out.split()) == len(text.split())
    assert gen.typo(random.Random(3), text, rate=0.0) == text


def test_nothing_planted_leaks_into_the_system_prompt_or_the_last_turn(sessions: list[Session]) -> None:
    for session in sessions:
        head, tail = text_of(session.messages[0]), text_of(session.messages[-1])
        for fact in session.facts:
            assert fact.value not in head and fact.value not in tail
