"""What bench/gen_robotics.py promises of its own domain (a robotics engineer in Osaka and a coding agent on a ROS 2
warehouse robot): tool outputs that look like colcon, the ros2 CLI, rosbag, Gazebo, candump, valgrind and the rest;
pastes full of other people's imperatives (a supplier's English and German, a customer's checklist, a safety memo, a
Slack thread, the manager's Japanese, a driver's GitHub issue); the user's rules in the phrasings its spec asks for;
loose, far and Japanese corrections; revised decisions; plans in prose; whole-line errors that sometimes resolve;
findings read in outputs. The contract every generator keeps is checked in test_generators_contract.py."""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import gen_robotics as gen
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

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
ENGLISH = re.compile(r"\b(the|pls|it's|please|what|does|run|check)\b", re.I)
IMPERATIVE = re.compile(r"\b(please|pls|must|shall|do not|don't|never|always|make sure|use|set|stop|keep|bitte|nicht|keine)\b|"
                        r"してください|しないでください|禁止|こと。", re.I)
PASTE_KINDS = {"supplier": re.compile(r"^From: Jürgen Weiß", re.M), "sat": re.compile(r"Site Acceptance Test \(SAT\) checklist"),
               "memo": re.compile(r"^MEMO — Safety & Compliance", re.M), "slack": re.compile(r"^#amr-dev  ·  Thread", re.M),
               "boss": re.compile(r"^大西さん", re.M), "issue": re.compile(r"^kaiyo-sensing/kaiyo_lidar_ros2 · Issue #214", re.M)}
LOOSE = re.compile(r"違う|じゃなくて|wrong|the other|sorry|typo|間違え|失礼|違った|ugh|innocent|not the one|not \S+$|でした", re.I)


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


def outputs_of(session: gen.Session) -> dict[str, list[tuple[dict, str]]]:
    """Each tool's (arguments, output) pairs."""
    out: dict[str, list[tuple[dict, str]]] = {}
    for i, m in enumerate(session.messages):
        if m["role"] == "tool":
            call = call_of(session, i)
            out.setdefault(m["name"], []).append((json.loads(call["arguments"]), m["content"]))
    return out


def test_sizes_are_refused_below_60_and_the_counts_follow_the_bench() -> None:
    """A session under 60 messages is refused; facts per kind grow from 1 at 60 messages to 12 at 3000 and stay there."""
    with pytest.raises(ValueError):
        gen.make_session(seed=1, messages=59)
    session = gen.make_session(seed=1, messages=60)
    assert len(session.messages) == 60
    assert_counts(session, gen.KINDS, 1)
    assert [gen.per_kind(m) for m in (60, 400, 1700, 3000, 5000, 20000)] == [1, 6, 9, 12, 12, 12]


@pytest.mark.parametrize(("seed", "messages"), [(1, 400), (2, 401), (3, 777), (4, 1234), (6, 400), (7, 2000)])
def test_every_tool_is_used_and_the_chat_is_well_formed(seed: int, messages: int) -> None:
    """Every tool is called, every call answered, and planted values are new where planted and stay out of the filler."""
    session = gen.make_session(seed=seed, messages=messages)
    assert_chat_format(session, gen.TOOLS)
    assert_values_new(session, gen.per_kind)
    assert_out_of_filler(session, stale_reach=12)


def test_colcon_outputs_look_like_colcon(large: gen.Session) -> None:
    """Builds end on colcon's summary, with g++ errors and their candidate notes, linker errors and warnings; tests show
    gtest, ctest, pytest and ``colcon test-result`` output."""
    runs = outputs_of(large)["colcon"]
    builds = [o for a, o in runs if a["args"][0] == "build"]
    tests = [o for a, o in runs if a["args"][0] == "test"]
    assert all(o.startswith("Starting >>> ") and re.search(r"^Summary: \d+ packages? finished \[", o, re.M) for o in builds)
    for marker in ("error: no matching function for call to ‘", "note: candidate: ‘", "note:   candidate expects 3 arguments, 2 provided",
                   ": undefined reference to `", "collect2: error: ld returned 1 exit status", "Failed   <<< ", "  1 package failed: ",
                   "warning: unused variable ‘", "--- stderr: ", "[100%] Built target ", "-- Build files have been written to: ",
                   "CMake Error at CMakeLists.txt:", "-- Configuring incomplete, errors occurred!"):
        assert any(marker in o for o in builds), marker
    for marker in ("[ RUN      ] ", "[       OK ] ", "[  PASSED  ] ", "[  FAILED  ] ", "tests passed, ", "The following tests FAILED:",
                   "test session starts", "short test summary info", "$ colcon test-result --verbose", "[ with test failures ]"):
        assert any(marker in o for o in tests), marker
    assert any(re.search(r"^Summary: \d+ tests, 0 errors, [1-9]\d* failures?", o, re.M) for o in tests)


def test_ros_outputs_look_like_the_ros2_cli(large: gen.Session) -> None:
    """Launch logs, topic rates and echoes, parameter dumps, ros2 doctor, tf2_echo, bag info and replays, Gazebo logs."""
    out = outputs_of(large)
    ros2 = [o for _a, o in out["ros2"]]
    for marker in ("[INFO] [launch]: All log files can be found below /home/onishi/.ros/log/", "]: process started with pid [",
                   "]: process has died [pid ", "exit code -11", "Lookup would require extrapolation into the future",
                   "[controller_server]: Control loop missed its desired rate", "average rate: ", "\tmin: ", "ros__parameters:",
                   "   RMW MIDDLEWARE", "- Translation: [", "angle_increment: ", "Reliability: BEST_EFFORT"):
        assert any(marker in o for o in ros2), marker
    assert re.search(r"^\[\w+-\d+\] \[INFO\] \[\d{10}\.\d{9}\] \[\w+\]: ", "\n".join(ros2), re.M)
    bags = [o for _a, o in out["rosbag"]]
    for marker in ("Storage id:        sqlite3", "Topic information: Topic: /scan | Type: sensor_msgs/msg/LaserScan | Count: ",
                   "[rosbag2_player]: Playback finished.", "for READ_WRITE."):
        assert any(marker in o for o in bags), marker
    sims = [o for _a, o in out["sim"]]
    assert all("[gzserver-1] Gazebo multi-robot simulator, version 11" in o for o in sims)
    assert any("Successfully spawned entity [amr]" in o for o in sims) and any("Service /spawn_entity unavailable" in o for o in sims)


def test_bash_outputs_look_like_the_real_tools(large: gen.Session) -> None:
    """candump, ip link statistics, dmesg, top, valgrind, AddressSanitizer, docker build, git, grep, clang-format, udevadm."""
    shell = [o for _a, o in outputs_of(large)["bash"]]
    for pattern in (r"^ \(\d{10}\.\d{6}\)  can0  [0-9A-F]{3}   \[\d\]", r"can state ERROR-\w+ \(berr-counter tx \d+ rx \d+\)",
                    r"^\[ *\d+\.\d{6}\] gs_usb ", r"^top - .*load average: ", r"^==\d+== LEAK SUMMARY:",
                    r"^==\d+==ERROR: AddressSanitizer: heap-use-after-free", r"^SUMMARY: AddressSanitizer: ", r"writing image sha256:[0-9a-f]{64} done",
                    r"^commit [0-9a-f]{40}$", r"^src/\S+:\d+:", r"warning: code should be clang-formatted", r"^E: ID_SERIAL_SHORT=KLX16-"):
        assert any(re.search(pattern, o, re.M) for o in shell), pattern


def test_files_read_back_look_like_the_workspace(large: gen.Session) -> None:
    """package.xml, CMakeLists.txt, Nav2 and driver YAML, Python launch files, xacro, C++ and Python sources, the Dockerfile."""
    read = [o for _a, o in outputs_of(large)["read_file"]]
    for marker in ("<package format=\"3\">", "cmake_minimum_required(VERSION 3.8)", "ament_package()", "ros__parameters:",
                   "def generate_launch_description():", "<xacro:macro name=\"wheel\"", "#include \"rclcpp/rclcpp.hpp\"",
                   "class ", "FROM osrf/ros:humble-desktop", "plugin: \"nav2_navfn_planner/NavfnPlanner\""):
        assert any(marker in o for o in read), marker


def test_tool_outputs_carry_most_of_the_session(large: gen.Session) -> None:
    """Tool results are long and hold most of the characters."""
    sizes = sorted(len(m["content"]) for m in large.messages if m["role"] == "tool")
    assert sum(sizes) >= 0.7 * large.chars() and sizes[len(sizes) // 2] > 1000


def test_pasted_texts_are_other_peoples_imperatives(small: gen.Session, large: gen.Session) -> None:
    """Each paste sits whole in a user message with the user's own words around it, gives orders, holds no planted value
    and plants nothing; the supplier writes German too and the manager Japanese; all six kinds come up."""
    for session in (small, large):
        fact_messages = {f.index for f in session.facts} | {f.stale_index for f in session.facts}
        values = [f.value for f in session.facts] + [f.stale for f in session.facts if f.stale]
        kinds: Counter[str] = Counter()
        for i, pasted in session.pasted:
            message = session.messages[i]
            assert message["role"] == "user" and pasted in message["content"] and own_words(session, i).strip()
            assert IMPERATIVE.search(pasted), pasted
            assert i not in fact_messages
            assert not any(v in pasted for v in values)
            kinds.update(k for k, sig in PASTE_KINDS.items() if sig.search(pasted))
        assert sum(kinds.values()) == len(session.pasted)
        assert len(kinds) >= (6 if session is large else 4), kinds
    bodies = "\n".join(p for _i, p in large.pasted)
    assert re.search(r"Sehr geehrter Herr Onishi|Mit freundlichen Grüßen", bodies) and re.search(r"\b(Bitte|nicht|keine)\b", bodies)
    assert any(PASTE_KINDS["boss"].search(p) and "してください" in p for _i, p in large.pasted)


def test_the_user_adopts_memo_points_in_own_words_and_rejects_others(large: gen.Session) -> None:
    """A rule adopted from the safety memo follows the memo, is said in the user's words (never the memo's) and comes
    with another point of the memo explicitly set aside."""
    adopted = [f for f in facts(large, "instruction") if style_of(f.value) == "adopted"]
    assert adopted
    memos = [i for i, p in large.pasted if PASTE_KINDS["memo"].search(p)]
    for fact in adopted:
        assert any(fact.index - 40 <= i < fact.index for i in memos), fact
        said = own_words(large, fact.index)
        assert fact.value in said and re.search(r"ignore|skip|無視|doesn't apply|old model", said), said
    for fact in facts(large, "instruction"):
        assert not any(fact.value in p for _i, p in large.pasted)


def test_rules_come_in_the_phrasings_the_spec_asks_for(small: gen.Session, large: gen.Session) -> None:
    """Rules come indirect, casual, conditional, in Japanese, in polite Japanese-English, in the middle of a long message's
    second paragraph and adopted from the memo."""
    rules = facts(large, "instruction")
    assert {style_of(f.value) for f in rules} == {"indirect", "casual", "conditional", "japanese", "polite", "plain", "adopted"}
    assert len({style_of(f.value) for f in facts(small, "instruction")}) >= 5
    for fact in rules:
        style = style_of(fact.value)
        if style == "conditional":
            assert fact.value.startswith("if ")
        elif style == "japanese":
            assert JAPANESE.search(fact.value)
        elif style == "polite":
            assert re.search(r"\bkindly\b|be so kind", fact.value)
        elif style == "casual":
            assert re.search(r"I'd rather|don't like|hate|stop|no more", fact.value)
        elif style == "indirect":
            assert not re.match(r"(please|never|always|don't|do not)\b", fact.value, re.I)
        elif style == "plain":  # the middle of a long message's second paragraph
            said = content(large, fact.index)
            paragraphs = said.split("\n\n")
            assert len(paragraphs) >= 2 and len(said) > 250
            second = paragraphs[1]
            assert fact.value in second and not second.startswith(fact.value) and not second.endswith(fact.value)


def test_the_user_writes_english_and_japanese(large: gen.Session) -> None:
    """The user's own words mix English and Japanese; the agent answers in English."""
    own = [own_words(large, i) for i, m in enumerate(large.messages) if m["role"] == "user"]
    assert sum(bool(JAPANESE.search(t)) for t in own) >= 0.2 * len(own)
    assert sum(bool(ENGLISH.search(t)) for t in own) >= 0.2 * len(own)
    assert any(JAPANESE.search(t) and not ENGLISH.search(t) and len(t) > 15 for t in own), "whole sentences in Japanese"
    answers = [str(m["content"]) for m in large.messages if m["role"] == "assistant" and not m.get("tool_calls")]
    assert sum(bool(re.search(r"\b(the|I|it|is)\b", a)) for a in answers) >= 0.6 * len(answers)


@pytest.mark.parametrize("seed", [5, 8, 13, 21])
def test_corrections_are_loose_near_misses_far_and_some_in_japanese(seed: int) -> None:
    """Half or more of the corrections are near misses of what they replace, some far (100+ messages), most loosely
    phrased, some in Japanese, some without repeating the old value; what they replace was said in the user's own words."""
    session = gen.make_session(seed=seed, messages=3000)
    corrections = facts(session, "correction")
    close = far = 0
    for fact in corrections:
        assert fact.stale is not None and fact.stale_index is not None
        assert fact.stale in own_words(session, fact.stale_index)
        close += sum(a == b for a, b in zip(fact.value, fact.stale)) >= len(fact.value) // 2
        far += fact.index - fact.stale_index > 100
    assert close >= len(corrections) // 2 and far >= 4
    assert close < len(corrections)  # some are loose: another name altogether
    said = [content(session, f.index) for f in corrections]
    assert sum(bool(LOOSE.search(t)) for t in said) >= len(said) // 2
    assert any(JAPANESE.search(t.split("\n")[0]) for t in said)
    assert any(f.stale not in t for f, t in zip(corrections, said))


def test_some_corrections_are_far_in_a_400_message_session() -> None:
    """Even a 400-message session has a correction 100+ messages after what it corrects."""
    far = [f for s in (5, 8, 13) for f in facts(gen.make_session(seed=s, messages=400), "correction") if f.index - f.stale_index > 100]
    assert far


def test_decisions_are_domain_choices_and_some_are_revised(large: gen.Session) -> None:
    """Decisions pick a planner, controller, QoS, middleware or tool, one topic each; a third revise the user's own first
    choice, on the same topic."""
    decisions = facts(large, "decision")
    options = {o: topic for topic, _en, _ja, opts in gen.DECISIONS for o in opts}
    assert all(f.value in options for f in decisions)
    assert len({options[f.value] for f in decisions}) == len(decisions)
    revised = [f for f in decisions if f.stale is not None]
    assert len(revised) == max(1, len(decisions) // 3)
    for fact in revised:
        assert options[fact.stale] == options[fact.value]
        assert fact.value in content(large, fact.index)
        assert large.messages[fact.stale_index]["role"] == "user" and fact.stale in content(large, fact.stale_index)


def test_revisions_are_said_as_the_spec_says_them() -> None:
    """Across sessions, a revision is said as 'やっぱり … にします' and another as 'scrap the … idea'/'instead of'."""
    said = [content(s, f.index) for s in (gen.make_session(seed=k, messages=3000) for k in (5, 8, 13))
            for f in facts(s, "decision") if f.stale is not None]
    assert any("やっぱり" in t for t in said)
    assert any(re.search(r"scrap the .+ idea|instead of|changed my mind|はやめます", t) for t in said)


def test_plans_are_prose(large: gen.Session) -> None:
    """A plan orders three or four tasks in one sentence, never as a list."""
    for fact in facts(large, "plan"):
        assert len([t for t in gen.TASKS if t in fact.value]) >= 3, fact
        assert re.search(r"then|次に|それから|→|1\)|today|priority|step", fact.value)
        said = content(large, fact.index)
        assert "\n- " not in said and "\n1." not in said and "\n" not in fact.value


ERROR_FAMILIES = {
    "colcon": re.compile(r"^(/home/onishi/amr_ws/src/\S+\.cpp:\d+:\d+: error: no matching function for call to ‘.+’|"
                         r"/usr/bin/ld: /home/onishi/amr_ws/src/\S+\.cpp:\d+: undefined reference to `.+'|"
                         r"5: \[  FAILED  \] \w+Test\.\w+ \(\d+ ms\)|FAILED test/test_\w+\.py::test_\w+ - AssertionError: .+)$"),
    "ros2": re.compile(r"^(\[ERROR\] \[\w+-\d+\]: process has died \[pid \d+, exit code -11, cmd '.+'\]|"
                       r"\[amcl-2\] \[WARN\] \[\d+\.\d+\] \[amcl\]: .+Lookup would require extrapolation into the future.+)$"),
    "bash": re.compile(r"^==\d+==ERROR: AddressSanitizer: heap-use-after-free on address 0x[0-9a-f]+ at pc 0x[0-9a-f]+ bp 0x[0-9a-f]+ sp 0x[0-9a-f]+$"),
    "sim": re.compile(r"^\[spawn_entity\.py-3\] \[ERROR\] \[\d+\.\d+\] \[spawn_entity\]: Service /spawn_entity unavailable\. .+$"),
}


def test_errors_are_whole_tool_lines_and_some_are_fixed(large: gen.Session) -> None:
    """An error is a whole line of a compiler, linker, gtest, pytest, launch, tf, sanitizer or Gazebo output; some are
    fixed by a later run of the same tool soon after, some are not."""
    errors = facts(large, "error")
    seen: Counter[str] = Counter()
    for fact in errors:
        message = large.messages[fact.index]
        assert fact.value in message["content"].splitlines()
        assert ERROR_FAMILIES[message["name"]].match(fact.value), fact
        seen[message["name"]] += 1
        if fact.resolved is not None:
            later = large.messages[fact.resolved]
            assert later["name"] == message["name"] and fact.value not in later["content"]
            assert fact.resolved - fact.index <= 12
    assert set(seen) == set(ERROR_FAMILIES)
    assert 0 < sum(f.resolved is not None for f in errors) < len(errors)


def test_error_log_times_follow_the_log_around_them(large: gen.Session) -> None:
    """A planted tf or spawn error carries a time right after the log line before it, not an hour away."""
    for fact in facts(large, "error"):
        if large.messages[fact.index]["name"] not in ("ros2", "sim") or "process has died" in fact.value:
            continue
        lines = large.messages[fact.index]["content"].splitlines()
        at = lines.index(fact.value)
        before = [float(x) for line in lines[:at] for x in re.findall(r"\[(\d{10}\.\d{9})\]", line)]
        own = float(re.findall(r"\[(\d{10}\.\d{9})\]", fact.value)[0])
        assert before and 0 < own - before[-1] < 60, fact


FINDINGS = {r"average rate: [3-8]\.\d{3}": "ros2", r"\d+\.\d cm": "sim", r"load average: \d+\.\d\d, \d+\.\d\d, \d+\.\d\d": "bash",
            r"berr-counter tx \d+ rx \d+": "bash", r"[a-z_]+-\d+": "ros2", r"definitely lost: [\d,]+ bytes in \d+ blocks": "bash"}
POINTING = re.compile(r"culprit|that one|the first line|the error line|the leak|the state line|the average lines|the loc_eval line|"
                      r"the problem|the counter line|the first line of the leak summary|grows on the robot")


def test_findings_are_read_in_outputs_and_sometimes_only_pointed_at(large: gen.Session) -> None:
    """A finding (a topic's rate, a localization error in cm, a load, CAN error counters, the process that segfaulted, a
    leak) is read in one tool output; the agent sometimes only points back at it."""
    kinds, pointed = set(), 0
    for fact in facts(large, "finding"):
        kind = next(k for k in FINDINGS if re.fullmatch(k, fact.value))
        kinds.add(kind)
        message = large.messages[fact.index]
        assert message["name"] == FINDINGS[kind] and any(fact.value in line for line in message["content"].splitlines())
        j, said = answer_after(large, fact.index)
        if fact.value not in said and j - fact.index <= 8:
            pointed += bool(POINTING.search(said))
    assert kinds == set(FINDINGS)
    assert pointed >= 1


def test_a_segfault_finding_names_the_process_that_died_with_minus_11(large: gen.Session) -> None:
    """The process named as having segfaulted is the one whose died line in the launch log says exit code -11."""
    for fact in facts(large, "finding"):
        if re.fullmatch(r"[a-z_]+-\d+", fact.value):
            log = content(large, fact.index)
            assert re.search(rf"^\[ERROR\] \[{re.escape(fact.value)}\]: process has died \[pid \d+, exit code -11", log, re.M)


def test_identifiers_are_said_and_printed(small: gen.Session, large: gen.Session) -> None:
    """Identifiers come both from the user (RMA, ticket, issue, firmware, map, asset tag) and from tools (image digest,
    recorded bag, lidar serial, commit)."""
    for session in (small, large):
        said = printed = 0
        for fact in facts(session, "identifier"):
            m = session.messages[fact.index]
            if m["role"] == "user":
                assert fact.value in own_words(session, fact.index)
                said += 1
            else:
                assert m["name"] in ("bash", "rosbag")
                assert re.fullmatch(r"sha256:[0-9a-f]{64}|rosbag2_2024_12_\d\d-\d\d_\d\d_\d\d|KLX16-23\d\d-\d{5}|[0-9a-f]{9}", fact.value)
                printed += 1
        assert said and printed


def test_files_are_created_by_one_call(large: gen.Session) -> None:
    """A file fact is a new source, header, test, node or config the agent writes in one call, and the tool says so."""
    for fact in facts(large, "file"):
        call = large.messages[fact.index]["tool_calls"][0]["function"]
        assert call["name"] == "write_file" and json.loads(call["arguments"])["path"] == fact.value
        assert re.search(r"\.(cpp|hpp|py|yaml)$", fact.value)
        result = large.messages[fact.index + 1]
        assert call_of(large, fact.index + 1)["name"] == "write_file" and fact.value in result["content"]


def test_the_agent_never_edits_launch_files_or_the_urdf(large: gen.Session) -> None:
    """As the user asks, edits and rewrites never touch a launch file or the robot description."""
    for m in large.messages:
        for call in m.get("tool_calls") or []:
            if call["function"]["name"] in ("edit_file", "write_file"):
                path = json.loads(call["function"]["arguments"])["path"]
                assert not path.endswith((".launch.py", ".xacro", ".urdf")), path


def test_sessions_do_not_repeat_themselves(large: gen.Session) -> None:
    """The user's words, the agent's answers and long outputs are almost never the same twice; queries never are."""
    own = [own_words(large, i) for i, m in enumerate(large.messages) if m["role"] == "user"]
    answers = [str(m["content"]) for m in large.messages if m["role"] == "assistant" and not m.get("tool_calls")]
    assert len(set(own)) >= 0.95 * len(own)
    assert len(set(answers)) >= 0.9 * len(answers)
    queries = [f.query for f in large.facts]
    assert len(set(queries)) == len(queries)
    outputs = [m["content"] for m in large.messages if m["role"] == "tool" and len(m["content"]) > 500]
    assert len(set(outputs)) >= 0.95 * len(outputs)  # an unchanged file read twice reads the same


def test_the_agent_runs_long_tool_loops(large: gen.Session) -> None:
    """Between two user turns the agent often makes several calls, sometimes ten or more."""
    loops, run = [], 0
    for m in large.messages:
        if m["role"] == "user":
            loops.append(run)
            run = 0
        elif m["role"] == "assistant" and m.get("tool_calls"):
            run += len(m["tool_calls"])
    assert max(loops) >= 10 and sum(loops) / len(loops) >= 3
    assert sum(len(text_of(m)) for m in large.messages) == large.chars()
