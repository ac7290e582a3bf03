"""What bench/gen_gamedev.py promises of its own domain (a solo indie developer and a coding agent on a Godot 4 game):
real-looking tool outputs, pastes full of other people's imperatives, the user's rules in the phrasings its spec asks for
(indirect, casual, conditional, French, Spanish, mid-paragraph, adopted from a checklist), loose and far corrections,
revised decisions, plans in prose, whole-line errors that sometimes resolve, findings read in outputs. The contract
every generator keeps is checked in test_generators_contract.py."""

from __future__ import annotations

import random
import re
import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import gen_gamedev as gen
from generator_contract import (
    assert_chat_format,
    assert_counts,
    assert_out_of_filler,
    assert_values_new,
    call_of,
    content,
    facts,
)
from sessiongen import text_of

IMPERATIVE = re.compile(
    r"\b(please|pls|must|do not|don't|never|always|make sure|keep|fix|add|remove|use|avoid|cut|move|let|tone|make|"
    r"no renombren|exporten|avísenme|úsenlas|no borren|nada de|siempre|nunca|todo en|no escalen)\b", re.IGNORECASE)
PASTE_KINDS = {"email": re.compile(r"^From: Dana Whitfield", re.M), "discord": re.compile(r"^\[\d\d/\d\d/2024 \d+:\d\d PM\] \S+: ", re.M),
               "checklist": re.compile(r"pre-cert checklist"), "artist": re.compile(r"^Notas de Ximena", re.M),
               "store": re.compile(r"^STORE PAGE", re.M)}
FRENCH = re.compile(r"\b(c'est|pas|stp|je|peux-tu|ça|toujours|jamais|les|des|dans|chaque|sans|au|doit)\b", re.I)
SPANISH = re.compile(r"\b(nunca|siempre|no toques|los archivos|las texturas|pregunta|subas)\b")
ENGLISH = re.compile(r"\b(the|pls|it's|please|what|does|run)\b", re.I)


@pytest.fixture(scope="module")
def small() -> gen.Session:
    return gen.make_session(seed=5, messages=400)


@pytest.fixture(scope="module", params=[5, 8, 13])
def large(request: pytest.FixtureRequest) -> gen.Session:
    return gen.make_session(seed=request.param, messages=3000)


def style_of(value: str) -> str:
    """Which row of the generator's instruction table a planted rule comes from."""
    for style, template, params, _frames, _query in gen.INSTRUCTIONS:
        pattern = re.escape(template)
        for name in params:
            pattern = pattern.replace(re.escape("{" + name + "}"), r"\d+")
        if re.fullmatch(pattern, value):
            return style
    raise AssertionError(f"not a rule of the table: {value!r}")


def own_words(session: gen.Session, i: int) -> str:
    """A user message without what it pasted."""
    text = content(session, i)
    for j, pasted in session.pasted:
        if j == i:
            text = text.replace(pasted, "")
    return text


def answer_after(session: gen.Session, i: int) -> tuple[int, str]:
    """The agent's first answer without calls after message ``i``."""
    for j in range(i + 1, len(session.messages)):
        m = session.messages[j]
        if m["role"] == "assistant" and not m.get("tool_calls"):
            return j, str(m["content"])
    raise AssertionError(f"no answer after {i}")


def test_sizes_are_refused_below_60_and_the_counts_follow_the_bench() -> None:
    with pytest.raises(ValueError):
        gen.make_session(seed=1, messages=59)
    session = gen.make_session(seed=1, messages=60)
    assert len(session.messages) == 60
    assert_counts(session, gen.KINDS, 1)
    assert [gen.per_kind(m) for m in (60, 400, 1700, 3000, 5000, 20000)] == [1, 6, 9, 12, 12, 12]


@pytest.mark.parametrize(("seed", "messages"), [(1, 400), (2, 401), (3, 777), (4, 1234), (6, 400), (7, 2000)])
def test_every_tool_is_used_and_the_chat_is_well_formed(seed: int, messages: int) -> None:
    session = gen.make_session(seed=seed, messages=messages)
    assert_chat_format(session, gen.TOOLS)
    assert_values_new(session, gen.per_kind)
    assert_out_of_filler(session, stale_reach=12)


def test_tool_outputs_look_like_the_real_things(large: gen.Session) -> None:
    out: dict[str, list[str]] = {}
    for m in large.messages:
        if m["role"] == "tool":
            out.setdefault(m["name"], []).append(m["content"])
    builds, godot, tests = out["run_build"], out["godot_headless"], out["run_tests"]
    assert all(o.startswith("MSBuild version") and "Time Elapsed 00:00:" in o for o in builds)
    assert any("Build FAILED." in o and "): error CS" in o for o in builds) and any("Build succeeded." in o for o in builds)
    assert any(": warning CS8618: Non-nullable field" in o for o in builds)
    assert all(o.startswith("Godot Engine v4.2") for o in godot)
    for marker in ("savepack: step", "SCRIPT ERROR: ", "[ DONE ] reimport", "SHADER ERROR: ", "orphan nodes"):
        assert any(marker in o for o in godot), marker
    assert any("Starting test execution" in o and "  Passed " in o for o in tests)
    assert any("Run Test: res://test/" in o for o in tests) and any("Failed!" in o for o in tests)
    for marker in ("frame time  avg", "Render: ", "memory report: ", "worst frame: #"):
        assert any(marker in o for o in out["profiler"]), marker
    assert all(re.search(r"LNT-\d{3}", o) for o in out["tracker"])
    assert all("Steam Console Client" in o for o in out["steamcmd"])
    assert any(f"Successfully finished AppID {gen.APP_ID} build (BuildID " in o for o in out["steamcmd"])
    assert any("ERROR! Failed to build depot" in o for o in out["steamcmd"])
    for marker in ("[gd_scene load_steps=", "<Project Sdk=\"Godot.NET.Sdk/4.2.2\">", "config_version=5", "shader_type spatial;",
                   "public partial class", "extends "):
        assert any(marker in o for o in out["read_file"]), marker
    sizes = sorted(len(o) for outputs in out.values() for o in outputs)
    assert sum(sizes) >= 0.7 * large.chars() and sizes[len(sizes) // 2] > 1000


def test_pasted_texts_are_other_peoples_imperatives(small: gen.Session, large: gen.Session) -> None:
    for session in (small, large):
        fact_messages = {f.index for f in session.facts} | {f.stale_index for f in session.facts}
        values = [f.value for f in session.facts] + [f.stale for f in session.facts if f.stale]
        kinds = Counter()
        for i, pasted in session.pasted:
            message = session.messages[i]
            assert message["role"] == "user" and pasted in message["content"] and pasted != message["content"]
            assert IMPERATIVE.search(pasted), pasted
            assert i not in fact_messages
            assert not any(v in pasted for v in values)
            kinds.update(k for k, sig in PASTE_KINDS.items() if sig.search(pasted))
        assert set(kinds) == set(PASTE_KINDS), kinds
        assert sum(kinds.values()) == len(session.pasted)


def test_the_user_adopts_checklist_items_in_their_own_words(large: gen.Session) -> None:
    adopted = [f for f in facts(large, "instruction") if style_of(f.value) == "adopted"]
    assert adopted
    checklists = [i for i, p in large.pasted if PASTE_KINDS["checklist"].search(p)]
    for fact in adopted:
        assert any(fact.index - 40 <= i < fact.index for i in checklists), fact
        said = own_words(large, fact.index)
        assert fact.value in said and re.search(r"ignore|skip|pas maintenant|plus tard|je m'en fous", said), said
    for fact in facts(large, "instruction"):
        assert not any(fact.value in p for _i, p in large.pasted)


def test_rules_come_in_the_phrasings_the_spec_asks_for(small: gen.Session, large: gen.Session) -> None:
    rules = facts(large, "instruction")
    styles = Counter(style_of(f.value) for f in rules)
    assert set(styles) == {"indirect", "casual", "conditional", "french", "spanish", "plain", "adopted"}
    assert len({style_of(f.value) for f in facts(small, "instruction")}) >= 5
    for fact in rules:
        style = style_of(fact.value)
        if style == "conditional":
            assert re.match(r"(if|si) ", fact.value)
        elif style == "french":
            assert FRENCH.search(fact.value) and not SPANISH.search(fact.value)
        elif style == "spanish":
            assert SPANISH.search(fact.value)
        elif style == "casual":
            assert re.search(r"\b(hate|can't stand|ugh|stop|don't like|please)\b", fact.value)
        elif style == "plain":  # the middle of a long message's second paragraph
            paragraphs = content(large, fact.index).split("\n\n")
            assert len(paragraphs) >= 2 and len(content(large, fact.index)) > 250
            second = paragraphs[1]
            assert fact.value in second and not second.startswith(fact.value) and not second.endswith(fact.value)


def test_languages_are_mixed(large: gen.Session) -> None:
    own = [own_words(large, i) for i, m in enumerate(large.messages) if m["role"] == "user"]
    french = sum(bool(FRENCH.search(t)) for t in own)
    english = sum(bool(ENGLISH.search(t)) for t in own)
    assert french >= 0.2 * len(own) and english >= 0.2 * len(own)
    assert any(SPANISH.search(t) for t in own)
    assert any(p.startswith("Notas de Ximena") for _i, p in large.pasted)
    answers = [str(m["content"]) for m in large.messages if m["role"] == "assistant" and not m.get("tool_calls")]
    assert sum(bool(re.search(r"\b(the|I|it|is)\b", a)) for a in answers) >= 0.6 * len(answers)


def test_users_type_tersely_and_with_typos(large: gen.Session) -> None:
    planted = {f.index for f in large.facts} | {f.stale_index for f in large.facts}
    pasted = {i for i, _p in large.pasted}
    routine = [content(large, i) for i, m in enumerate(large.messages)
               if m["role"] == "user" and i not in planted and i not in pasted]
    assert sorted(len(t) for t in routine)[len(routine) // 2] < 90
    rng = random.Random(3)
    assert gen._typo("please rebuild the whole project before lunch", rng, p=1.0) != "please rebuild the whole project before lunch"
    kept = "res://scenes/levels/harbor.tscn ACH_BELLHOUND_NOHIT LNT-412 #E8A33D boss_arena_02 Jolt"
    assert gen._typo(kept, rng, p=1.0) == kept
    for seed in range(50):  # planted values are typed exactly, whatever happens around them
        said = gen._fill("non attends, mets les hurtbox sur le {v} pas le {s} stp", random.Random(seed), v="layer 15", s="layer 14")
        assert "layer 15" in said and "layer 14" in said
    vocab = set(re.findall(r"[a-zàâçéèêëîïôûù'-]+", " ".join(_strings(vars(gen))).lower()))
    typos = [t for t in routine if set(re.findall(r"[a-zàâçéèêëîïôûù'-]+", t.lower())) - vocab]
    assert len(typos) >= 10, typos


def _strings(value: object) -> list[str]:
    """Every string in the generator's tables (its phrasings), to tell a typo from a word it knows."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() if not str(k).startswith("__") for s in _strings(k) + _strings(v)]
    if isinstance(value, (tuple, list)):
        return [s for v in value for s in _strings(v)]
    return []


@pytest.mark.parametrize("seed", [5, 8, 13, 21])
def test_corrections_are_loose_near_misses_and_far(seed: int) -> None:
    session = gen.make_session(seed=seed, messages=3000)
    corrections = facts(session, "correction")
    close = far = 0
    for fact in corrections:
        assert fact.stale is not None and fact.stale_index is not None
        assert fact.stale in own_words(session, fact.stale_index)
        assert "(was" not in content(session, fact.index) and "->" not in content(session, fact.index)
        close += sum(a == b for a, b in zip(fact.value, fact.stale)) >= len(fact.value) // 2
        far += fact.index - fact.stale_index > 100
    assert close >= len(corrections) // 2 and far >= 4
    assert close < len(corrections)  # some are loose: another name altogether
    openings = Counter(content(session, f.index)[:14] for f in corrections)
    assert len(openings) >= len(corrections) - 3


def test_some_corrections_are_far_in_a_400_message_session() -> None:
    far = [f for s in (5, 8, 13) for f in facts(gen.make_session(seed=s, messages=400), "correction")
           if f.index - f.stale_index > 100]
    assert far


def test_decisions_are_domain_choices_and_some_are_revised(large: gen.Session) -> None:
    decisions = facts(large, "decision")
    options = {o: topic for topic, _en, _fr, opts in gen.DECISIONS for o in opts}
    assert all(f.value in options for f in decisions)
    assert len({options[f.value] for f in decisions}) == len(decisions)
    revised = [f for f in decisions if f.stale is not None]
    assert len(revised) == max(1, len(decisions) // 3)
    for fact in revised:
        assert options[fact.stale] == options[fact.value]
        said = content(large, fact.index)
        assert fact.value in said and fact.stale in said
        assert large.messages[fact.stale_index]["role"] == "user"


def test_plans_are_prose(large: gen.Session) -> None:
    for fact in facts(large, "plan"):
        tasks = [t for t in gen.TASKS if t in fact.value]
        assert len(tasks) >= 3, fact
        assert re.search(r"then|ensuite|puis|après|→|1\)|today|priority|step|avant", fact.value)
        said = content(large, fact.index)
        assert "\n- " not in said and "\n1." not in said and "\n" not in fact.value


ERROR_FAMILIES = {"run_build": re.compile(r"^/home/\S+\.cs\(\d+,\d+\): error CS\d{4}: .+ \[\S+\.csproj\]$"),
                  "godot_headless": re.compile(r"^(SCRIPT ERROR: |ERROR: |SHADER ERROR: )"),
                  "steamcmd": re.compile(r"^ERROR! Failed to build depot \d+: "),
                  "run_tests": re.compile(r"^FAIL Lanterne\.Tests\.\S+: expected \d+ but was \d+$")}
SUCCESS = {"run_build": "Build succeeded.", "run_tests": "Passed!", "steamcmd": "Successfully finished AppID",
           "godot_headless": "[smoke] done:"}


def test_errors_are_whole_tool_lines_and_some_are_fixed(large: gen.Session) -> None:
    errors = facts(large, "error")
    seen = Counter()
    for fact in errors:
        message = large.messages[fact.index]
        assert fact.value in message["content"].splitlines()
        assert ERROR_FAMILIES[message["name"]].match(fact.value), fact
        seen[message["name"]] += 1
        if fact.resolved is not None:
            later = large.messages[fact.resolved]
            assert later["name"] == message["name"] and SUCCESS[later["name"]] in later["content"]
            assert fact.resolved - fact.index <= 12
    assert set(seen) == set(ERROR_FAMILIES)
    assert any("SHADER ERROR: " in f.value for f in errors) and any("SCRIPT ERROR: " in f.value for f in errors)
    assert 0 < sum(f.resolved is not None for f in errors) < len(errors)


FINDINGS = {r"\d+\.\d{3} ms": "profiler", r"\d{4} draw calls": "profiler", r"\d\.\d\d GiB": "profiler",
            r"BuildID 16\d{6}": "steamcmd", r"\d{4} orphan nodes": "godot_headless",
            r"[A-Z][a-z]+_[A-Z][a-z]+_[A-Z][a-z]+(_[A-Z][a-z]+)*": "run_tests"}
POINTING = re.compile(r"culprit|that one|the spike|the leak|peak|at the top|at the end|first line|last lines|the new test")


def test_findings_are_read_in_outputs_and_sometimes_only_pointed_at(large: gen.Session) -> None:
    found = facts(large, "finding")
    kinds = set()
    pointed = 0
    for fact in found:
        kind = next(k for k in FINDINGS if re.fullmatch(k, fact.value))
        kinds.add(kind)
        assert large.messages[fact.index]["name"] == FINDINGS[kind]
        j, said = answer_after(large, fact.index)
        if fact.value not in said and j - fact.index <= 8:
            pointed += bool(POINTING.search(said))
    assert kinds == set(FINDINGS)
    assert pointed >= 1


def test_identifiers_are_said_and_printed(small: gen.Session, large: gen.Session) -> None:
    for session in (small, large):
        said = printed = 0
        for fact in facts(session, "identifier"):
            m = session.messages[fact.index]
            if m["role"] == "user":
                assert fact.value in own_words(session, fact.index)
                said += 1
            else:
                assert m["name"] in ("tracker", "steamcmd", "read_file")
                assert re.fullmatch(r"LNT-1\d{3}|\d{19}|uid://[a-z0-9]{13}|CRASH-[0-9A-F]{6}", fact.value)
                printed += 1
        assert said and printed


def test_files_are_created_by_one_call(large: gen.Session) -> None:
    for fact in facts(large, "file"):
        call = large.messages[fact.index]["tool_calls"][0]["function"]
        assert call["name"] in ("write_file", "apply_patch")
        if call["name"] == "apply_patch":
            assert f"*** Add File: {fact.value}" in call["arguments"]
        assert re.search(r"\.(cs|gd|gdshader|tres|tscn)$", fact.value)
        result = large.messages[fact.index + 1]
        assert call_of(large, fact.index + 1)["name"] == call["name"] and fact.value in result["content"]


def test_sessions_do_not_repeat_themselves(large: gen.Session) -> None:
    own = [own_words(large, i) for i, m in enumerate(large.messages) if m["role"] == "user"]
    answers = [str(m["content"]) for m in large.messages if m["role"] == "assistant" and not m.get("tool_calls")]
    assert len(set(own)) >= 0.95 * len(own)
    assert len(set(answers)) >= 0.9 * len(answers)
    queries = [f.query for f in large.facts]
    assert len(set(queries)) == len(queries)
    outputs = [m["content"] for m in large.messages if m["role"] == "tool" and len(m["content"]) > 500]
    assert len(set(outputs)) == len(outputs)


def test_the_agent_runs_long_tool_loops(large: gen.Session) -> None:
    loops, run = [], 0
    for m in large.messages:
        if m["role"] == "user":
            loops.append(run)
            run = 0
        elif m["role"] == "assistant" and m.get("tool_calls"):
            run += len(m["tool_calls"])
    assert max(loops) >= 10 and sum(loops) / len(loops) >= 3
    assert sum(len(text_of(m)) for m in large.messages) == large.chars()
