"""What bench/gen_amr.py promises of its own domain (a robotics engineer in Osaka and an agent on a ROS 2 Humble
mobile-robot stack): pasted texts that carry other people's rules, the user's rules in the phrasings the spec asks
for, English, Japanese and German, loose corrections, revised decisions, and tool outputs that look like colcon,
ros2 launch, candump, rosbag, Valgrind, ASan and Gazebo. The shared contract is in test_generators_contract.py."""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import gen_amr
from generator_contract import (
    assert_chat_format,
    assert_counts,
    assert_first_rules_early,
    assert_out_of_filler,
    assert_values_new,
    content,
    facts,
)
from sessiongen import Session, text_of

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
IMPERATIVE = re.compile(r"\b(must|shall|do not|don't|never|always|please|pls|use|make sure)\b|ください|こと[。\n]|"
                        r"しないで|Bitte|Achtung|Wichtig", re.IGNORECASE)


@cache
def session(seed: int, messages: int) -> Session:
    return gen_amr.make_session(seed=seed, messages=messages)


def tool_text(s: Session) -> str:
    return "\n".join(str(m["content"]) for m in s.messages if m["role"] == "tool")


def user_prose(s: Session, i: int) -> str:
    """A user message without what it pasted."""
    text = content(s, i)
    for j, p in s.pasted:
        if j == i:
            text = text.replace(p, " ")
    return text


# --- the contract, at this generator's sizes -----------------------------------------------------------------------
@pytest.mark.parametrize("messages", [121, 400, 777, 3000])
@pytest.mark.parametrize("seed", [1, 6])
def test_the_contract_holds_with_every_tool_used(seed: int, messages: int) -> None:
    s = session(seed, messages)
    assert len(s.messages) == messages
    assert_counts(s, gen_amr.KINDS, gen_amr.per_kind(messages))
    assert_values_new(s, gen_amr.per_kind)
    assert_out_of_filler(s, stale_reach=12)
    used = {c["function"]["name"] for m in s.messages for c in m.get("tool_calls") or []}
    assert_chat_format(s, gen_amr.TOOLS if messages >= 400 else used)


@pytest.mark.parametrize("messages", [121, 400, 3000])
def test_the_first_two_rules_come_early_and_are_the_users_own(messages: int) -> None:
    s = session(2, messages)
    adopted = [f for f in facts(s, "instruction") if any(i == f.index for i, _p in s.pasted)]
    assert_first_rules_early(s, messages, adopted)


def test_small_sessions_are_refused_and_large_ones_keep_twelve_of_each() -> None:
    with pytest.raises(ValueError):
        gen_amr.make_session(seed=1, messages=59)
    assert len(gen_amr.make_session(seed=1, messages=60).messages) == 60
    assert gen_amr.per_kind(5000) == 12 and gen_amr.per_kind(1700) == 9
    big = gen_amr.make_session(seed=3, messages=3600)
    assert Counter(f.kind for f in big.facts) == {k: 12 for k in gen_amr.KINDS}


# --- pasted texts: other people's rules -------------------------------------------------------------------------
PASTE_KINDS = {"supplier": "kessler-antriebe.de", "sat": "Site Acceptance Test", "memo": "MEMO — Safety",
               "slack": "\n#", "boss": "部長より", "issue": "lumos-sensing/lumos_lidar_ros2 · Issue #"}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_pasted_texts_are_listed_and_carry_other_peoples_imperatives(seed: int) -> None:
    s = session(seed, 400)
    assert s.pasted
    kinds = set()
    for i, text in s.pasted:
        assert s.messages[i]["role"] == "user" and text in content(s, i)
        assert IMPERATIVE.search(text), text[:200]
        kinds |= {k for k, mark in PASTE_KINDS.items() if mark in "\n" + text}
        for fact in s.facts:  # nothing planted comes from a paste
            assert fact.value not in text and (fact.stale or "\x00") not in text
    assert kinds == set(PASTE_KINDS)


def test_the_safety_memo_is_adopted_in_own_words_and_partly_rejected() -> None:
    s = session(4, 3000)
    memos = [(i, p) for i, p in s.pasted if p.startswith("MEMO — Safety")]
    assert memos
    for i, memo in memos:
        [rule] = [f for f in facts(s, "instruction") if f.index == i]
        own = user_prose(s, i)
        assert rule.value in own and rule.value not in memo
        assert re.search(r"ignore|skip|not ours|for the old model", own)


# --- the user's own rules, phrased the ways the spec asks ----------------------------------------------------------
def styles_of(s: Session) -> set[str]:
    found = set()
    for f in facts(s, "instruction"):
        text = content(s, f.index)
        if JAPANESE.search(f.value):
            found.add("japanese")
        if "kindly" in f.value:
            found.add("polite")
        if f.value.startswith("if "):
            found.add("conditional")
        if ", so " in f.value:
            found.add("indirect")
        if re.match(r"(I'd|pls|would be nice|no sudo|keep|don't bother|let's not)", f.value):
            found.add("casual")
        paragraphs = [p for p in text.split("\n\n") if p.strip()]
        if any(i == f.index for i, _p in s.pasted):
            found.add("adopted")
        elif len(paragraphs) >= 2 and f.value in paragraphs[1] and not paragraphs[1].startswith(f.value) \
                and not paragraphs[1].endswith(f.value):
            found.add("paragraph")
    return found


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_rules_come_in_every_phrasing(seed: int) -> None:
    assert styles_of(session(seed, 3000)) == {"japanese", "polite", "conditional", "indirect", "casual", "paragraph",
                                              "adopted"}
    assert len(styles_of(session(seed, 400))) >= 5


# --- languages --------------------------------------------------------------------------------------------------
def test_english_japanese_and_german_appear_and_code_in_several_languages() -> None:
    s = session(1, 3000)
    users = [user_prose(s, i) for i, m in enumerate(s.messages) if m["role"] == "user"]
    whole_japanese = [u for u in users if len(JAPANESE.findall(u)) >= 12 and re.search(r"(です|ます|ください)", u)]
    assert len(whole_japanese) >= 3
    mixed = [u for u in users if JAPANESE.search(u) and re.search(r"[a-z]{4,} [a-z]{3,}", u)]
    assert len(mixed) >= 20
    emails = [p for _i, p in s.pasted if "kessler-antriebe.de" in p]
    assert emails and all(re.search(r"Grüßen|Bitte beachten|Achtung|Wichtig|vielen Dank", p) for p in emails)
    reads = "\n".join(str(m["content"]) for m in s.messages if m.get("name") == "read_file")
    for marker in ("#include <rclcpp/rclcpp.hpp>", "LaunchDescription", "ros__parameters:", '<package format="3">',
                   "ament_package()", "xmlns:xacro"):
        assert marker in reads, marker


# --- corrections and decisions ------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [5, 8])
def test_corrections_are_loose_far_and_near_misses(seed: int) -> None:
    s = session(seed, 3000)
    corrections = facts(s, "correction")
    close = far = japanese = 0
    for f in corrections:
        assert f.stale is not None and f.stale_index is not None
        assert s.messages[f.stale_index]["role"] == "user" and f.stale in user_prose(s, f.stale_index)
        assert f.value in user_prose(s, f.index)
        close += sum(a == b for a, b in zip(f.value, f.stale)) >= len(f.value) // 2
        far += f.index - f.stale_index > 100
        japanese += bool(JAPANESE.search(content(s, f.index)))
    assert close >= len(corrections) // 2 and far >= 4 and japanese >= 2
    assert close < len(corrections)  # and some are not near misses at all ("the other bag I sent")


@pytest.mark.parametrize("messages", [121, 400, 3000])
def test_some_decisions_are_revised_by_the_user(messages: int) -> None:
    s = session(3, messages)
    decisions = facts(s, "decision")
    revised = [f for f in decisions if f.stale is not None]
    assert len(revised) == max(1, len(decisions) // 3)
    for f in revised:
        assert s.messages[f.stale_index]["role"] == "user" and f.stale in content(s, f.stale_index)
        assert re.search(r"やっぱり|scrap|changed my mind|forget|はやめて|second thought", f.value), f.value


# --- tool outputs ----------------------------------------------------------------------------------------------
PROMISED = (
    "packages finished [", "1 package failed: ", "error: no matching function for call to", "note: candidate",
    "undefined reference to `", "CMake Error at CMakeLists.txt:", "[ RUN      ] ", "[  PASSED  ] ", "[  FAILED  ] ",
    "test session starts", "short test summary info", "[INFO] [launch]: All log files can be found below",
    "process has died [pid ", "Lookup would require extrapolation into the future", "average rate: ",
    "ros__parameters:", "   ROS 2 INFORMATION", "Topic information: Topic: /scan", "ERROR: AddressSanitizer:",
    "definitely lost: ", "Gazebo multi-robot simulator, version 11", "can state ERROR-", "berr-counter tx",
    "Summary: ", "Opened database 'bags/", "Translation: [", "Frame: laser_link, published by",
)


@pytest.mark.parametrize("seed", [1, 2])
def test_tool_outputs_are_the_promised_kinds(seed: int) -> None:
    text = tool_text(session(seed, 3000))
    for marker in PROMISED:
        assert marker in text, marker
    assert re.search(r"^ \(\d+\.\d{6}\)  can0  [0-9A-F]{3}   \[\d\]  ", text, re.M)  # candump
    assert re.search(r"^\[\s*\d+\.\d{6}\] mttcan c310000\.mttcan can0: ", text, re.M)  # dmesg
    assert re.search(r"^\[\w+-\d+\] \[(INFO|WARN|ERROR)\] \[\d{10}\.\d{9}\] \[\w+\]: ", text, re.M)  # launch lines


def test_tool_outputs_are_long() -> None:
    s = session(3, 3000)
    sizes = [len(str(m["content"])) for m in s.messages if m["role"] == "tool"]
    assert sum(sizes) > 0.8 * s.chars() and sum(n > 4000 for n in sizes) > len(sizes) / 5


@pytest.mark.parametrize("seed", [1, 4])
def test_numbers_a_finding_reads_never_appear_in_the_filler_format(seed: int) -> None:
    """Filler rates, delays, voltages and real-time factors end in an even digit; only findings end in an odd one."""
    s = session(seed, 3000)
    planted = {f.value for f in facts(s, "finding")}
    text = tool_text(s)
    pattern = (r"average rate: \d+\.\d{3}|Max Delay: 0\.\d{4}|bus_voltage: \d+\.\d\d|winding_temp_c: \d+\.\d"
               r"|Factor\[0\.\d\d\]")
    for hit in re.findall(pattern, text):
        digit = int(hit.rstrip("]")[-1])
        assert digit % 2 == 0 or hit in planted, hit
    assert any(v.startswith(("average rate", "Max Delay", "bus_voltage", "winding_temp_c", "Factor[")) for v in planted)


def test_errors_are_whole_lines_and_some_are_fixed_by_a_rerun() -> None:
    s = session(5, 3000)
    errors = facts(s, "error")
    for f in errors:
        assert f.value in content(s, f.index).splitlines()
        if f.resolved is not None:
            assert s.messages[f.resolved]["name"] == s.messages[f.index]["name"]
            assert f.value not in content(s, f.resolved)
    assert 0 < sum(f.resolved is not None for f in errors) < len(errors)
    assert len({s.messages[f.index]["name"] for f in errors}) >= 4  # build, tests, launch, kernel log, sim, bags


def test_files_are_written_by_one_call_and_identifiers_are_both_said_and_printed() -> None:
    s = session(6, 3000)
    for f in facts(s, "file"):
        [call] = s.messages[f.index]["tool_calls"]
        assert call["function"]["name"] in ("write_file", "edit_file")
        assert json.loads(call["function"]["arguments"])["path"] == f.value
    roles = Counter(s.messages[f.index]["role"] for f in facts(s, "identifier"))
    assert roles["user"] >= 3 and roles["tool"] >= 3


def test_the_agent_sometimes_quotes_a_finding_and_sometimes_only_points_at_it() -> None:
    s = session(7, 3000)
    texts = [text_of(m) for m in s.messages]
    quoted = pointed = 0
    for f in facts(s, "finding"):
        later = [i for i in range(f.index + 1, f.index + 9) if f.value in texts[i]]
        quoted += bool(later)
        pointed += not later
    assert quoted and pointed


# --- variety -------------------------------------------------------------------------------------------------
def test_messages_do_not_repeat_beyond_routine_filler() -> None:
    s = session(2, 3000)
    users = [str(m["content"]) for m in s.messages if m["role"] == "user"]
    answers = [str(m["content"]) for m in s.messages if m["role"] == "assistant" and not m.get("tool_calls")]
    assert len(set(users)) >= 0.95 * len(users)
    assert len(set(answers)) >= 0.9 * len(answers)
    said = [content(s, f.index) for f in s.facts if s.messages[f.index]["role"] == "user"]
    assert len(set(said)) == len(said)
    rules = [f.value for f in facts(s, "instruction")]
    assert len({r.split()[0] for r in rules}) >= 8  # not one template with different numbers


def test_the_user_types_tersely_with_typos() -> None:
    s = session(3, 3000)
    users = [user_prose(s, i) for i, m in enumerate(s.messages) if m["role"] == "user"]
    short = [u for u in users if len(u) < 80]
    assert len(short) > len(users) / 2
    known = set(re.findall(r"[a-z]+", Path(gen_amr.__file__).read_text(encoding="utf-8")))
    typos = {w for u in users for w in re.findall(r"\b[a-z]{4,}\b", u) if w not in known}
    assert len(typos) >= 10, typos
