"""The contract every later session generator keeps, checked once for all of them (bench/gen_firmware.py,
gen_hr.py, gen_finance.py, gen_agentloop.py, gen_mlops.py, gen_mobile.py, gen_monorepo.py, gen_analytics.py, gen_bioinfo.py,
gen_gamedev.py): the same bytes for the same seed whatever
the global random state, the bench's sizes, speed, exact sizes with their facts in place, six facts of each kind at 400 messages and twelve at 3000, and planted values that
are new where planted and stay out of the filler. What each generator promises of its own domain is in its own
test file."""

from __future__ import annotations

import importlib
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from generator_contract import assert_counts, assert_out_of_filler, assert_values_new, content, facts
from sessiongen import Session

# Each generator with the odd and even sizes it is checked at (from its smallest supported session up).
SIZES = {
    "gen_firmware": [121, 160, 400, 401, 1001],
    "gen_hr": [60, 121, 160, 400, 401, 777],
    "gen_finance": [60, 80, 121, 160, 239, 240, 400, 401, 777, 1700],
    "gen_agentloop": [60, 121, 160, 400, 401, 777, 1700],
    "gen_mlops": [60, 121, 160, 400, 401, 777, 1700],
    "gen_mobile": [60, 121, 160, 400, 401, 777, 1700],
    "gen_monorepo": [60, 94, 121, 160, 400, 401, 777, 1700],
    "gen_analytics": [60, 121, 160, 400, 401, 777, 1700],
    "gen_bioinfo": [60, 121, 160, 400, 401, 777, 1700],
    "gen_gamedev": [60, 121, 160, 400, 401, 777, 1700],
    "gen_amr": [60, 121, 160, 400, 401, 777, 1700],
    "gen_webagency": [60, 121, 160, 400, 401, 777, 1700],
    "gen_shop": [60, 121, 160, 400, 401, 777, 1700],
    "gen_netops": [60, 121, 160, 400, 401, 777, 1700],
    "gen_robotics": [60, 121, 160, 400, 401, 777, 1700],
    "gen_itadmin": [60, 121, 160, 400, 401, 777, 1700],
    "gen_hpc": [60, 121, 160, 400, 401, 777, 1700],
    "gen_clinical": [60, 121, 160, 400, 401, 777, 1700],
    "gen_dataeng": [60, 121, 160, 400, 401, 777, 1700],
    "gen_backend": [60, 121, 160, 400, 401, 777, 1700],
    "gen_frontend": [60, 121, 160, 400, 401, 777, 1700],
    "gen_erp": [60, 121, 160, 400, 401, 777, 1700],
    "gen_actuary": [60, 121, 160, 400, 401, 777, 1700],
    "gen_goservice": [60, 121, 160, 400, 401, 777, 1700],
    "gen_datajourno": [60, 121, 160, 400, 401, 777, 1700],
    "gen_fintechsre": [60, 121, 160, 400, 401, 777, 1700],
    "gen_windops": [60, 121, 160, 400, 401, 777, 1700],
    "gen_labauto": [60, 121, 160, 400, 401, 777, 1700],
    "gen_mro": [60, 121, 160, 400, 401, 777, 1700],
    "gen_lastmile": [60, 121, 160, 400, 401, 777, 1700],
    "gen_search": [60, 121, 160, 400, 401, 777, 1700],
    "gen_port": [60, 121, 160, 400, 401, 777, 1700],
}
GENERATORS = list(SIZES)
STALE_REACH = 12  # messages after a stale value's own that may still say it (the agent's answer about it)


def generator(name: str) -> ModuleType:
    return importlib.import_module(name)


REFUSE_BELOW = ("gen_hr", "gen_agentloop", "gen_mlops", "gen_mobile", "gen_monorepo", "gen_analytics", "gen_bioinfo",
                "gen_gamedev", "gen_amr", "gen_webagency", "gen_shop", "gen_netops", "gen_robotics",
                "gen_itadmin", "gen_hpc", "gen_clinical", "gen_dataeng", "gen_backend",
                "gen_frontend", "gen_erp", "gen_actuary",
                "gen_goservice", "gen_datajourno", "gen_fintechsre", "gen_windops", "gen_labauto", "gen_mro",
                "gen_lastmile", "gen_search", "gen_port")  # those that refuse a session below their smallest


@pytest.mark.parametrize("name", REFUSE_BELOW)
def test_a_session_below_the_smallest_is_refused(name: str) -> None:
    """A session shorter than the generator's smallest is refused, not cut short; its smallest is made whole."""
    smallest = SIZES[name][0]
    with pytest.raises(ValueError):
        generator(name).make_session(seed=1, messages=smallest - 1)
    assert len(generator(name).make_session(seed=1, messages=smallest).messages) == smallest


@pytest.mark.parametrize("name", GENERATORS)
def test_the_global_random_state_does_not_leak_into_a_session(name: str) -> None:
    """The random module's global state, however seeded, changes nothing in a session."""
    random.seed(1)
    a = generator(name).make_session(seed=4, messages=400)
    random.seed(99)
    b = generator(name).make_session(seed=4, messages=400)
    assert json.dumps(a.messages) == json.dumps(b.messages) and a.facts == b.facts and a.pasted == b.pasted


@pytest.mark.parametrize("name", GENERATORS)
def test_same_seed_same_session(name: str) -> None:
    """The same seed and size give the same bytes; another seed gives another session."""
    make = generator(name).make_session
    a, b = make(seed=2, messages=400), make(seed=2, messages=400)
    assert json.dumps(a.messages) == json.dumps(b.messages)
    assert a.facts == b.facts and a.pasted == b.pasted
    other = make(seed=3, messages=400)
    assert json.dumps(a.messages) != json.dumps(other.messages) and a.facts != other.facts


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6, 7, 11])
@pytest.mark.parametrize("name", GENERATORS)
def test_sizes_match_the_bench_conventions_for_any_seed(name: str, seed: int) -> None:
    """400 messages are about 150k tokens and 3000 about 1.2M, at 4 characters a token, whatever the seed."""
    make = generator(name).make_session
    small, large = make(seed=seed, messages=400), make(seed=seed, messages=3000)
    assert len(small.messages) == 400 and len(large.messages) == 3000
    assert 500_000 <= small.chars() <= 700_000
    assert 4_200_000 <= large.chars() <= 5_500_000


@pytest.mark.parametrize("name", GENERATORS)
def test_generation_is_fast(name: str) -> None:
    """3000 messages take well under three seconds."""
    start = time.perf_counter()
    generator(name).make_session(seed=11, messages=3000)
    assert time.perf_counter() - start < 3.0


@pytest.mark.parametrize(("name", "messages"), [(name, m) for name, sizes in SIZES.items() for m in sizes])
def test_any_size_comes_out_exact(name: str, messages: int) -> None:
    """Even and odd sizes give exactly the messages and facts asked for, ending on a user turn after an answer,
    every fact between 3% and 88% of the session."""
    module = generator(name)
    session = module.make_session(seed=1, messages=messages)
    assert len(session.messages) == messages
    assert session.messages[-1]["role"] == "user" and session.messages[-2]["role"] == "assistant"
    assert not session.messages[-2].get("tool_calls")
    assert_counts(session, module.KINDS, module.per_kind(messages))
    assert all(0.03 * messages <= f.index <= 0.88 * messages for f in session.facts)


# (from two facts of a kind on: one revised decision and one not, one resolved error and one not)
@pytest.mark.parametrize(("name", "messages"), [(name, m) for name, sizes in SIZES.items() for m in sizes if m >= 120])
def test_any_size_keeps_its_values_new_and_out_of_the_filler(name: str, messages: int) -> None:
    """At every size from 120 messages on, a value is new where planted and stays out of the filler."""
    module = generator(name)
    session = module.make_session(seed=1, messages=messages)
    assert_values_new(session, module.per_kind)
    assert_out_of_filler(session, stale_reach=STALE_REACH)


@pytest.mark.parametrize("name", GENERATORS)
def test_six_of_each_kind_at_400_twelve_at_3000(name: str) -> None:
    """Every kind is planted six times at 400 messages and twelve at 3000, linearly in between, at least once
    (beyond 3000, as each generator's own tests say)."""
    module = generator(name)
    assert_counts(module.make_session(seed=5, messages=400), module.KINDS, 6)
    assert_counts(module.make_session(seed=5, messages=3000), module.KINDS, 12)
    per_kind = module.per_kind
    assert per_kind(400) == 6 and per_kind(3000) == 12 and per_kind(60) == 1
    sizes = [per_kind(m) for m in range(60, 6001, 20)]
    assert sizes == sorted(sizes) and min(sizes) >= 1 and 8 <= per_kind(1700) <= 10


@pytest.mark.parametrize("messages", [400, 3000])
@pytest.mark.parametrize("seed", [5, 8, 13])
@pytest.mark.parametrize("name", GENERATORS)
def test_values_are_new_where_planted_and_absent_before(name: str, seed: int, messages: int) -> None:
    """A value (and a stale value) first occurs in its own message, corrections carry what they replace, some
    decisions are revised and some are not; values stay in their own episode, never in the filler."""
    module = generator(name)
    session = module.make_session(seed=seed, messages=messages)
    assert_values_new(session, module.per_kind)
    assert_out_of_filler(session, stale_reach=STALE_REACH)


@pytest.fixture(scope="module", params=[(name, m) for name in GENERATORS for m in (400, 3000)],
                ids=lambda p: f"{p[0]}-{p[1]}")
def planted(request: pytest.FixtureRequest) -> tuple[str, Session]:
    """(the generator's name, its session of seed 5)."""
    name, messages = request.param
    return name, generator(name).make_session(seed=5, messages=messages)


WHOLE_LINE_ERRORS = {"gen_hr", "gen_finance", "gen_agentloop", "gen_analytics", "gen_bioinfo", "gen_gamedev", "gen_amr", "gen_webagency", "gen_shop", "gen_netops", "gen_robotics",
                     "gen_itadmin", "gen_hpc", "gen_clinical", "gen_dataeng", "gen_backend", "gen_frontend", "gen_erp",
                     "gen_actuary", "gen_goservice", "gen_datajourno", "gen_fintechsre", "gen_windops", "gen_labauto", "gen_mro",
                     "gen_lastmile", "gen_search", "gen_port"}
ROLES = {"instruction": {"user"}, "correction": {"user"}, "decision": {"user"}, "plan": {"user"},
         "file": {"assistant"}, "finding": {"tool"}, "error": {"tool"}, "identifier": {"tool", "user"}}


def test_carriers_and_placement(planted: tuple[str, Session]) -> None:
    """Facts sit in the messages their kind comes from, between 3% and 88% of the session, over all three thirds:
    what the user says in a user message (a correction's old value too), a file in the one call that writes it,
    an error or a finding within one line of a tool's output, identifiers both said and printed."""
    _name, session = planted
    n = len(session.messages)
    for fact in session.facts:
        message = session.messages[fact.index]
        assert message["role"] in ROLES[fact.kind], fact
        assert 0.03 * n <= fact.index <= 0.88 * n, fact
        if fact.stale_index is not None:
            assert fact.stale_index >= 0.03 * n and session.messages[fact.stale_index]["role"] == "user", fact
        if fact.kind == "file":
            calls = message["tool_calls"]
            assert len(calls) == 1 and fact.value in calls[0]["function"]["arguments"], fact
        if fact.kind in ("error", "finding"):
            assert any(fact.value in line for line in message["content"].splitlines()), fact
    carriers = Counter(session.messages[f.index]["role"] for f in session.facts if f.kind == "identifier")
    assert carriers["tool"] and carriers["user"]
    thirds = Counter(min(2, f.index * 3 // n) for f in session.facts)
    assert min(thirds.values()) >= len(session.facts) // 6


def test_errors_are_exact_lines_and_some_are_resolved(planted: tuple[str, Session]) -> None:
    """An error's value is a whole line of the tool's result (within one, for a test's detail under its verdict:
    gen_firmware's Go and Unity lines); some errors are resolved by a later run of the same tool, whose result no
    longer says it, and some are not; nothing but an error is resolved."""
    name, session = planted
    errors = [f for f in session.facts if f.kind == "error"]
    for fact in errors:
        lines = session.messages[fact.index]["content"].splitlines()
        assert fact.value in lines if name in WHOLE_LINE_ERRORS else any(fact.value in line for line in lines), fact
        if fact.resolved is not None:
            later = session.messages[fact.resolved]
            assert fact.resolved > fact.index and later["role"] == "tool" and fact.value not in later["content"]
            assert later["name"] == session.messages[fact.index]["name"], fact
    resolved = sum(f.resolved is not None for f in errors)
    assert 0 < resolved < len(errors)
    assert all(f.resolved is None for f in session.facts if f.kind != "error")


@pytest.mark.parametrize("name", ["gen_hr", "gen_finance", "gen_agentloop", "gen_monorepo", "gen_analytics", "gen_bioinfo",
                                  "gen_gamedev", "gen_amr", "gen_webagency", "gen_shop", "gen_netops", "gen_robotics",
                                  "gen_itadmin", "gen_hpc", "gen_clinical", "gen_dataeng", "gen_backend", "gen_frontend", "gen_erp",
                                  "gen_actuary", "gen_goservice", "gen_datajourno", "gen_fintechsre",
                                  "gen_windops", "gen_labauto", "gen_mro", "gen_lastmile",
                                  "gen_search", "gen_port"])
def test_corrections_are_loose_and_near_misses(name: str) -> None:
    """Corrections come far from what they replace (100+ messages for several), half of them or more as near misses
    of it (the generators whose specs ask for it)."""
    session = generator(name).make_session(seed=5, messages=3000)
    corrections = [f for f in session.facts if f.kind == "correction"]
    close = far = 0
    for fact in corrections:
        assert fact.stale is not None and fact.stale_index is not None
        same = sum(a == b for a, b in zip(fact.value, fact.stale))
        close += same >= len(fact.value) // 2
        far += fact.index - fact.stale_index > 100
    assert close >= len(corrections) // 2 and far >= 4


@pytest.mark.parametrize("messages", [121, 400, 3000])
@pytest.mark.parametrize("name", ["gen_mobile", "gen_monorepo", "gen_netops", "gen_robotics", "gen_itadmin", "gen_hpc",
                                  "gen_clinical", "gen_dataeng", "gen_backend", "gen_frontend", "gen_erp",
                                  "gen_actuary", "gen_goservice", "gen_datajourno", "gen_fintechsre",
                                  "gen_windops", "gen_labauto", "gen_mro", "gen_lastmile",
                                  "gen_search", "gen_port"])
def test_a_third_of_the_decisions_revise_the_users_own_earlier_choice(name: str, messages: int) -> None:
    """A third of the decisions (at least one) revise a choice the user made earlier in their own message; the rest
    stand (the generators whose specs ask for it)."""
    s = generator(name).make_session(seed=5, messages=messages)
    decisions = facts(s, "decision")
    revised = [f for f in decisions if f.stale is not None]
    assert len(revised) == max(1, len(decisions) // 3)
    for fact in revised:
        assert fact.stale is not None and fact.stale_index is not None and fact.stale_index < fact.index
        assert s.messages[fact.stale_index]["role"] == "user" and fact.stale in content(s, fact.stale_index)
        assert s.messages[fact.index]["role"] == "user" and fact.value in content(s, fact.index)
