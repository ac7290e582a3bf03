"""What bench/gen_hpc.py promises of its own domain: a climate modeller and their agent on an HPC cluster, writing
German and English, pasting mails, reviews, policies, accounting tables and crashes; loose corrections, whole-line
errors from compilers, test runners, SLURM and NetCDF tools, and resolved errors that are really gone in the rerun.
The contract every generator keeps is checked in test_generators_contract.py."""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import gen_hpc
from generator_contract import assert_chat_format, assert_first_rules_early, call_of, content, facts
from sessiongen import Session, text_of

GERMAN = re.compile(r"\b(nicht|bitte|ich|wir|das|ist|mal|nimm|doch|sondern|für|heißt|lieber|nie|mach)\b", re.I)
IMPERATIVE = re.compile(r"\b(Please|Do not|don't|Make|Recompile|Use|link it)\b")
LOOSE = re.compile(r"(no wait|the other one|wrong|sorry|Moment mal|nicht .+ sondern|vergiss|Zahlendreher|falsch|ich meinte|nee)",
                   re.I)
ERROR_LINE = re.compile(r"^(Error: Symbol '.+' at \(1\) has no IMPLICIT type"
                        r"|/\S+\.F90\(\d+\): error #\d+: .+\[\w+\]"
                        r"|Failure in: test_\w+\.test_\w+"
                        r"|Fortran runtime error: Index '\d+' of dimension \d of array '\w+' above upper bound of \d+"
                        r"|slurmstepd: error: .+"
                        r"|ValueError: conflicting sizes for dimension .+"
                        r"|ncdump: \S+\.nc: NetCDF: HDF error"
                        r"|fatal: couldn't find remote ref \S+"
                        r"|cdo    remapcon \(Abort\): Open failed on >\S+<"
                        r"|CMake Error at \S+:\d+ \(message\):)$")


@pytest.fixture(scope="module")
def s400() -> Session:
    return gen_hpc.make_session(seed=5, messages=400)


@pytest.fixture(scope="module")
def s3000() -> Session:
    return gen_hpc.make_session(seed=3, messages=3000)


def _users(session: Session) -> list[str]:
    return [str(m["content"]) for m in session.messages if m["role"] == "user"]


def test_per_kind_keeps_growing_beyond_3000() -> None:
    """Beyond the bench's sizes a session keeps planting more, and stays exact."""
    assert gen_hpc.per_kind(4500) > gen_hpc.per_kind(3000)
    s = gen_hpc.make_session(seed=2, messages=4500)
    assert len(s.messages) == 4500 and len(s.facts) == 8 * gen_hpc.per_kind(4500)


@pytest.mark.parametrize("messages", [60, 61, 121, 400])
def test_the_chat_is_well_formed_and_uses_every_tool(messages: int) -> None:
    """Even the smallest session answers every call at once and calls each of the tools."""
    assert_chat_format(gen_hpc.make_session(seed=9, messages=messages), gen_hpc.TOOLS)


def test_the_same_bytes_in_another_process() -> None:
    """No set or hash order leaks into a session: another interpreter with another hash seed makes the same bytes."""
    code = ("import sys, json, hashlib; sys.path.insert(0, 'bench'); import gen_hpc; s = gen_hpc.make_session(7, 300); "
            "print(hashlib.sha256(json.dumps([s.messages, [list(map(str, f.__dict__.values())) for f in s.facts], "
            "s.pasted]).encode()).hexdigest())")
    root = Path(__file__).resolve().parent.parent
    env = dict(os.environ, PYTHONHASHSEED="12345")
    out = subprocess.run([sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True, check=True)
    s = gen_hpc.make_session(7, 300)
    here = hashlib.sha256(json.dumps([s.messages, [list(map(str, f.__dict__.values())) for f in s.facts],
                                      s.pasted]).encode()).hexdigest()
    assert out.stdout.strip() == here


def test_pasted_texts_are_listed_verbatim_with_imperatives_and_numbers(s400: Session) -> None:
    """Everything pasted is a user message's exact substring, and carries someone else's imperatives and numbers."""
    assert s400.pasted
    for i, text in s400.pasted:
        assert s400.messages[i]["role"] == "user" and text in content(s400, i)
        assert re.search(r"\d", text)
    with_imperatives = [t for _, t in s400.pasted if IMPERATIVE.search(t)]
    assert len(with_imperatives) >= len(s400.pasted) * 2 // 3


def test_all_six_kinds_of_pasted_documents_occur(s400: Session) -> None:
    """The admins' maintenance mail, a referee's report, the data policy, Tobias' forcing mail, an accounting table
    and a crash backtrace."""
    joined = "\n".join(t for _, t in s400.pasted)
    for marker in ("Subject: [brise] Maintenance", "Referee #2", "Data Management Plan", "Cheers,\nTobias",
                   "JobID           JobName", "Backtrace for this error:"):
        assert marker in joined, marker


def test_no_planted_value_hides_in_pasted_text(s3000: Session) -> None:
    """Pasted documents are not the user's rules: no planted value (or replaced value) is inside one."""
    pasted = [t for _, t in s3000.pasted]
    for fact in s3000.facts:
        assert not any(fact.value in t for t in pasted), fact
        assert fact.stale is None or not any(fact.stale in t for t in pasted), fact


def test_adopted_rules_are_restated_outside_the_paste(s3000: Session) -> None:
    """Some rules come from a pasted document, in the user's own words after it; the first two rules are not those."""
    by_index = dict(s3000.pasted)
    adopted = [f for f in facts(s3000, "instruction") if f.index in by_index]
    assert adopted
    for fact in adopted:
        assert fact.value not in by_index[fact.index]
        assert fact.value in content(s3000, fact.index).split(by_index[fact.index], 1)[1]
    assert_first_rules_early(s3000, 3000, adopted)


@pytest.mark.parametrize("messages", [121, 400, 777])
def test_the_first_rules_come_early_at_any_size(messages: int) -> None:
    s = gen_hpc.make_session(seed=4, messages=messages)
    adopted = [f for f in facts(s, "instruction") if f.index in dict(s.pasted)]
    assert_first_rules_early(s, messages, adopted)


def test_rules_in_both_languages_some_second_paragraph_some_conditional(s3000: Session) -> None:
    """Standing rules are written in German and in English, some after a first paragraph about something else, some
    only until something happens."""
    rules = [content(s3000, f.index) for f in facts(s3000, "instruction")]
    german = [r for r in rules if GERMAN.search(r)]
    assert german and len(german) < len(rules)
    second = [f for f in facts(s3000, "instruction") if "\n\n" in content(s3000, f.index)
              and f.value not in content(s3000, f.index).split("\n\n")[0]]
    assert len(second) >= 3
    assert any(re.search(r"\b(Solange|Bis|until)\b", r) for r in rules)


def test_corrections_are_loose_in_both_languages_and_some_buried(s3000: Session) -> None:
    """Corrections say what they correct the way people do ("sorry, ich meinte", "no wait", "the other one"), in
    German and English, and some sit in the middle of a longer message."""
    corrections = facts(s3000, "correction")
    texts = [content(s3000, f.index) for f in corrections]
    assert all(LOOSE.search(t) for t in texts), [t for t in texts if not LOOSE.search(t)]
    assert any(GERMAN.search(t) for t in texts) and any(not GERMAN.search(t) for t in texts)
    buried = [f for f in corrections if content(s3000, f.index).count("\n\n") >= 2
              and f.value in content(s3000, f.index).split("\n\n")[1]]
    assert buried


def test_corrections_are_near_misses_and_far_apart(s3000: Session) -> None:
    """Half or more of the corrections are near misses of the old value (same length, same characters at half the
    positions or more), several come over 100 messages after it, and the stale value was the user's own."""
    corrections = facts(s3000, "correction")
    near = [f for f in corrections if f.stale is not None and len(f.stale) == len(f.value)
            and sum(a == b for a, b in zip(f.value, f.stale)) >= len(f.value) // 2]
    assert len(near) * 2 >= len(corrections)
    assert sum(f.index - (f.stale_index or 0) > 100 for f in corrections) >= 4
    for fact in corrections:
        assert fact.stale_index is not None and s3000.messages[fact.stale_index]["role"] == "user"


@pytest.mark.parametrize("messages", [121, 400, 3000])
def test_a_third_of_the_decisions_revise_an_earlier_choice(messages: int) -> None:
    s = gen_hpc.make_session(seed=6, messages=messages)
    decisions = facts(s, "decision")
    revised = [f for f in decisions if f.stale is not None]
    assert len(revised) == max(1, len(decisions) // 3)
    for fact in revised:
        assert fact.stale_index is not None and fact.stale in content(s, fact.stale_index)
        assert s.messages[fact.stale_index]["role"] == "user" and fact.stale in content(s, fact.index)


def test_errors_are_whole_lines_of_real_looking_tools(s3000: Session) -> None:
    """Each error is one whole line as gfortran, ifx, pFUnit, the Fortran runtime, slurmstepd, xarray, ncdump, git,
    cdo or CMake print it, in the output of the tool that ran the command."""
    errors = facts(s3000, "error")
    for fact in errors:
        assert fact.value in content(s3000, fact.index).splitlines()
        assert ERROR_LINE.match(fact.value), fact.value
    assert len({ERROR_LINE.match(f.value).group(1).split(" ")[0] for f in errors}) >= 5  # type: ignore[union-attr]


def test_resolved_errors_are_gone_in_the_same_command_rerun(s3000: Session) -> None:
    """A resolved error's later run is the same call (a model run's log: of the resubmitted job) after an edit, and
    its output no longer says the error."""
    resolved = [f for f in facts(s3000, "error") if f.resolved is not None]
    assert resolved and len(resolved) < len(facts(s3000, "error"))
    for fact in resolved:
        assert fact.resolved is not None
        first, again = call_of(s3000, fact.index), call_of(s3000, fact.resolved)
        assert re.sub(r"\d{7}", "#", json.dumps(first)) == re.sub(r"\d{7}", "#", json.dumps(again))
        assert fact.value not in content(s3000, fact.resolved)
        between = [c["function"]["name"] for m in s3000.messages[fact.index:fact.resolved] for c in m.get("tool_calls") or []]
        assert "edit_file" in between


def test_files_are_written_once_by_write_file(s3000: Session) -> None:
    """A planted file is the path of the one write_file call of its message, with real content, of varied types."""
    for fact in facts(s3000, "file"):
        [call] = s3000.messages[fact.index]["tool_calls"]
        args = json.loads(call["function"]["arguments"])
        assert call["function"]["name"] == "write_file" and args["path"] == fact.value and len(args["content"]) > 100
    assert len({Path(f.value).suffix for f in facts(s3000, "file")}) >= 5


def test_identifiers_are_said_and_printed(s3000: Session) -> None:
    """Identifiers come from the user (ORCID, reservation, grant, manuscript, DOI) and from tools (job ids from
    sbatch, commit hashes from git, a reserved DOI, a Spack hash)."""
    idents = facts(s3000, "identifier")
    roles = Counter(s3000.messages[f.index]["role"] for f in idents)
    assert roles["user"] and roles["tool"]
    printed = {s3000.messages[f.index]["name"] for f in idents if s3000.messages[f.index]["role"] == "tool"}
    assert len(printed) >= 3


def test_findings_are_explained_in_the_next_answer(s3000: Session) -> None:
    """A finding sits in one line of a tool's output, and the agent's next message says what it means."""
    for fact in facts(s3000, "finding"):
        lines = [line for line in content(s3000, fact.index).splitlines() if fact.value in line]
        assert len(lines) == 1
        nxt = s3000.messages[fact.index + 1]
        assert nxt["role"] == "assistant" and not nxt.get("tool_calls") and fact.value in str(nxt["content"])


def test_plans_are_written_in_prose_with_steps(s3000: Session) -> None:
    """Plans are sentences or a short list with an order ("erst ... dann", "first ... then", "1. 2.")."""
    for fact in facts(s3000, "plan"):
        text = content(s3000, fact.index)
        assert re.search(r"(dann|then|danach|Montag|\n1\. |zuerst|erst )", text), text
        assert len(text) > len(fact.value) + 60


def test_tool_outputs_carry_most_of_the_text_and_vary(s400: Session) -> None:
    """Most characters are tool outputs, and they are of many kinds: builds, ctest, model logs, queues, accounting,
    NetCDF headers, xarray, diffs."""
    tool_chars = sum(len(text_of(m)) for m in s400.messages if m["role"] == "tool")
    assert tool_chars > 0.6 * s400.chars()
    outputs = "\n".join(str(m["content"]) for m in s400.messages if m["role"] == "tool")
    for marker in ("Building Fortran object", "Test project", "it=", "NODELIST(REASON)", "JobID           JobName",
                   "netcdf ", "<xarray.Dataset>", "diff --git", "Submitted batch job"):
        assert marker in outputs, marker
    lengths = sorted(len(str(m["content"])) for m in s400.messages if m["role"] == "tool")
    assert lengths[0] < 100 and lengths[-1] > 2.5 * lengths[len(lengths) // 2]


def test_the_user_mixes_german_and_english_long_and_short(s3000: Session) -> None:
    """The user writes German, English and both, sometimes in two words, sometimes at length."""
    users = _users(s3000)
    german = sum(bool(GERMAN.search(u)) for u in users)
    assert 0.25 * len(users) < german < 0.9 * len(users)
    assert sum(len(u.split()) <= 2 for u in users) > 0.05 * len(users)
    assert sum(len(u) > 400 for u in users) >= 5
    assert any(re.search(r"\b(das Gitter|Randbedingungen|Moment mal|passt)\b", u) for u in users)


def test_noise_a_compactor_can_get_wrong(s400: Session) -> None:
    """Clock times, file:line references, JSON fragments, ports, people's names and the agent's todo list."""
    text = "\n".join(str(m.get("content") or "") for m in s400.messages)
    assert re.search(r"\b[012]\d:[0-5]\d\b", text)
    assert re.search(r"\w+\.F90:\d+", text)
    assert re.search(r'\{"nodes": \d+', text) and re.search(r"\b(8787|8788|6006|5432)\b", text)
    assert "Jonas" in text and "Miriam" in text
    assert "- [x]" in text and "- [ ]" in text


def test_filler_ids_and_values_come_from_separate_ranges(s3000: Session) -> None:
    """Job ids printed in the filler are even and planted job ids odd, so a planted id never shows up as noise;
    planted nodes are numbered 0500 and up, the filler's below."""
    planted = {f.value for f in s3000.facts if f.value.isdigit()}
    assert all(int(v) % 2 for v in planted)
    for m in s3000.messages:
        if m["role"] == "tool" and m["name"] == "squeue":
            ids = re.findall(r"^\s+(\d{7}) ", str(m["content"]), re.M)
            assert ids and all(int(i) % 2 == 0 for i in ids)
            assert all(int(n) < 500 for n in re.findall(r"b\dc\[?(\d{4})", str(m["content"])))


def test_values_are_specific_to_the_seed() -> None:
    """Other seeds plant other values."""
    a = {f.value for f in gen_hpc.make_session(seed=1, messages=400).facts}
    b = {f.value for f in gen_hpc.make_session(seed=2, messages=400).facts}
    assert len(a & b) < len(a) // 3
