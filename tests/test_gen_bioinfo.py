"""What gen_bioinfo promises of its own domain: a Brazilian postdoc's RNA-seq and variant-calling project on a SLURM
cluster, other people's texts pasted in (and listed as such), rules in her own loose phrasings and languages,
loose corrections, and tool outputs that look like the real SLURM, Nextflow, Snakemake, R and Python ones."""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import gen_bioinfo
from generator_contract import assert_chat_format, call_of, content, facts
from sessiongen import Session, text_of

IMPERATIVE = re.compile(r"\b(?:[Pp]lease|must|[Dd]o not|[Nn]ever|[Aa]lways|[Dd]elete|[Uu]se|[Ss]end|[Aa]ttach|[Rr]equest|"
                        r"should|pls|don't|avoid|keep|throttle|[Cc]onsider|[Pp]rovide|bitte|[Kk]eine)\b")
PORTUGUESE = re.compile(r"\b(?:sempre|nunca|não|nada|salva|roda|usa|dobra|cópia|mexe|tá|pro|faz|atualiza|cinza)\b")
GERMAN = re.compile(r"\b(?:nie|immer|keine|kein|Finger|bleibt|Rücksprache|Regel|nach|sagt|Wochenende|pro Job)\b")
LOOSE = re.compile(r"ah não|wrong|the other|sorry|desculpa|hm no|wait|pera|ugh|typo|actually|after all|no wait|mixed|misread",
                   re.IGNORECASE)
POINTING = re.compile(r"that's the one|look at|see the|there it is|stands out", re.IGNORECASE)


@pytest.fixture(scope="module")
def big() -> Session:
    return gen_bioinfo.make_session(seed=1, messages=3000)


@pytest.fixture(scope="module", params=[1, 2, 3])
def mid(request: pytest.FixtureRequest) -> Session:
    return gen_bioinfo.make_session(seed=request.param, messages=400)


def user_prose(session: Session, i: int) -> str:
    """What the user wrote herself in message ``i``: its content without what she pasted."""
    text = content(session, i)
    for j, pasted in session.pasted:
        if j == i:
            text = text.replace(pasted, "\n")
    return text


def test_sizes_below_the_smallest_are_refused_and_twelve_per_kind_beyond_3000() -> None:
    with pytest.raises(ValueError):
        gen_bioinfo.make_session(seed=1, messages=59)
    assert len(gen_bioinfo.make_session(seed=1, messages=60).messages) == 60
    assert gen_bioinfo.per_kind(5000) == 12 and gen_bioinfo.per_kind(60) == 1 and gen_bioinfo.per_kind(1700) == 9


@pytest.mark.parametrize("messages", [400, 3000])
def test_every_tool_is_used_in_a_well_formed_chat(messages: int) -> None:
    for seed in (1, 2, 3):
        assert_chat_format(gen_bioinfo.make_session(seed=seed, messages=messages), gen_bioinfo.TOOLS)


def test_pasted_texts_are_other_peoples_imperatives_listed_as_pasted(mid: Session) -> None:
    """Every paste sits whole in a user message that also has her own words, carries someone else's orders, and holds
    no planted value; the five kinds of paste all come up."""
    assert mid.pasted
    values = [f.value for f in mid.facts] + [f.stale for f in mid.facts if f.stale]
    for i, pasted in mid.pasted:
        assert mid.messages[i]["role"] == "user" and pasted in content(mid, i)
        assert user_prose(mid, i).strip(), "a paste comes with the user's own words"
        assert IMPERATIVE.search(pasted), pasted
        assert not any(v in pasted for v in values)
    bodies = "\n".join(p for _i, p in mid.pasted)
    for marker in ("Genomics Core Facility", "(Remarks to the Author)", "Cluster usage SOP"):
        assert marker in bodies, marker
    assert re.search(r"^(?:Hallo|Hi|Liebe|Lieber) \w+,$", bodies, re.MULTILINE) and re.search(r"\bbitte\b", bodies), "the PI's German"
    assert re.search(r"^\[\d\d:\d\d\] [A-Z]\w+ [A-Z]", bodies, re.MULTILINE), "a chat message from a colleague"


def test_the_sop_is_taken_up_in_part_and_rejected_in_part_in_her_own_words(big: Session) -> None:
    sops = [(i, p) for i, p in big.pasted if "Cluster usage SOP" in p]
    assert sops
    for i, pasted in sops:
        own = user_prose(big, i)
        assert re.search(r"ignore|skip|doesn't apply|don't care", own), own
        assert not any(line.strip("# ") in own for line in pasted.splitlines()[3:] if len(line) > 20)
    adopted = [f for f in facts(big, "instruction") if "SOP" in f.query]
    assert adopted, "one rule of the SOP becomes hers"
    for f in adopted:
        assert f.value in user_prose(big, f.index) and not any(f.value in p for _i, p in big.pasted)


@pytest.mark.parametrize("messages", [400, 3000])
def test_her_rules_come_indirect_casual_conditional_in_portuguese_german_and_mid_paragraph(messages: int) -> None:
    for seed in (1, 5, 9):
        s = gen_bioinfo.make_session(seed=seed, messages=messages)
        said = [(f, content(s, f.index)) for f in facts(s, "instruction")]
        assert all(s.messages[f.index]["role"] == "user" for f, _t in said)
        around = [t[max(0, t.index(f.value) - 40):t.index(f.value) + len(f.value) + 40] for f, t in said]
        assert any(PORTUGUESE.search(a) for a in around), "a rule in Portuguese"
        assert any(GERMAN.search(a) for a in around), "a rule in German"
        assert any(re.search(r"\b(?:if|se)\b", t) for _f, t in said), "a conditional rule"
        assert any(not t.lstrip().lower().startswith(f.value.lower()[:12]) and len(t) > len(f.value) + 20 for f, t in said)
        mid_para = []
        for f, t in said:
            paras = t.split("\n\n")
            if len(paras) >= 2 and f.value in paras[1]:
                before, after = paras[1].split(f.value, 1)
                mid_para.append(len(before.strip()) > 10 and len(after.strip()) > 5 and f.value not in paras[0])
        assert any(mid_para), "a rule in the middle of a long message's second paragraph"


def test_corrections_are_loose_far_and_near_misses(big: Session) -> None:
    corrections = facts(big, "correction")
    close = sum(sum(a == b for a, b in zip(f.value, f.stale or "")) >= len(f.value) // 2 for f in corrections)
    far = sum(f.index - (f.stale_index or 0) > 100 for f in corrections)
    assert close >= len(corrections) // 2 and far >= 4
    said = [content(big, f.index) for f in corrections]
    assert sum(bool(LOOSE.search(t)) for t in said) >= len(said) // 2
    assert any(f.stale not in t for f, t in zip(corrections, said)), "some never repeat what they correct"
    for f in corrections:
        assert big.messages[f.stale_index or 0]["role"] == "user" and f.stale in user_prose(big, f.stale_index or 0)


@pytest.mark.parametrize("messages", [121, 400, 3000])
def test_a_third_of_the_decisions_revise_her_own_first_choice(messages: int) -> None:
    s = gen_bioinfo.make_session(seed=5, messages=messages)
    decisions = facts(s, "decision")
    revised = [f for f in decisions if f.stale is not None]
    assert len(revised) == max(1, len(decisions) // 3)
    for f in revised:
        assert s.messages[f.stale_index or 0]["role"] == "user" and f.stale in content(s, f.stale_index or 0)
        assert f.value in user_prose(s, f.index)
    for f in decisions:
        assert s.messages[f.index]["role"] == "user"


def test_errors_are_whole_lines_and_reruns_of_the_same_tool_clear_some(big: Session) -> None:
    errors = facts(big, "error")
    for f in errors:
        assert f.value in content(big, f.index).splitlines(), f
        if f.resolved is not None:
            later = big.messages[f.resolved]
            assert later["role"] == "tool" and later["name"] == big.messages[f.index]["name"] and f.value not in later["content"]
    assert 0 < sum(f.resolved is not None for f in errors) < len(errors)


def test_findings_are_read_in_outputs_and_some_are_only_pointed_at(big: Session) -> None:
    found = facts(big, "finding")
    for f in found:
        assert big.messages[f.index]["role"] == "tool"
        assert any(f.value in line for line in content(big, f.index).splitlines())
    pointed = [f for f in found if f.value not in content(big, f.index + 1) and POINTING.search(content(big, f.index + 1))]
    assert pointed, "the agent sometimes only points back at the output"


def test_files_are_written_by_one_call_and_identifiers_both_said_and_printed(big: Session) -> None:
    for f in facts(big, "file"):
        calls = big.messages[f.index]["tool_calls"]
        assert len(calls) == 1 and calls[0]["function"]["name"] in ("write_file", "edit_file")
        assert json.loads(calls[0]["function"]["arguments"])["path"] == f.value
        assert call_of(big, f.index + 1)["name"] == calls[0]["function"]["name"]
    carriers = Counter(big.messages[f.index]["role"] for f in facts(big, "identifier"))
    assert carriers["user"] and carriers["tool"]


def test_tool_outputs_look_like_the_real_things(big: Session) -> None:
    outputs = "\n".join(m["content"] for m in big.messages if m["role"] == "tool")
    for marker in ("Submitted batch job", "JOBID PARTITION     NAME     USER ST", "OUT_OF_MEMORY", "TIMEOUT", "FAILED", "COMPLETED",
                   "Memory Efficiency:", "ERROR ~ Error executing process >", "Caused by:", "Command executed:",
                   "Command exit status:", "Work dir:", "Error in rule ", "    jobid: ", "    output: ", "    log: ", "    shell:",
                   "Error in DESeqDataSetFromMatrix(", "Error: object 'res' not found", "Warning message", "DataFrame with",
                   "# A tibble:", "R version 4.3.2", "Uniquely mapped reads % |", "properly paired (", "FastQC_mqc-generalstats",
                   "\tSequence Duplication Levels\t", "\tat org.broadinstitute.hellbender", "SN\t0\tnumber of SNPs:",
                   "Traceback (most recent call last):", "AnnData object with n_obs × n_vars", "process {", "rule ",
                   "sample,fastq_1,fastq_2,strandedness", "channels:", "Successfully assigned alignments", "Duplication rate:"):
        assert marker in outputs, marker
    longest = sorted((len(m["content"]) for m in big.messages if m["role"] == "tool"), reverse=True)
    tools = sum(len(m["content"]) for m in big.messages if m["role"] == "tool")
    assert tools > 0.6 * big.chars() and longest[len(longest) // 4] > 2000, "long tool outputs carry most of it"


def test_she_writes_english_portuguese_and_german(mid: Session) -> None:
    prose = "\n".join(user_prose(mid, i) for i, m in enumerate(mid.messages) if m["role"] == "user")
    assert PORTUGUESE.search(prose) and GERMAN.search(prose) and re.search(r"\b(?:the|and|pls)\b", prose)


def test_little_repeats_verbatim_in_a_long_session(big: Session) -> None:
    def share(role: str, calls: bool | None = None) -> float:
        texts = [text_of(m) for m in big.messages if m["role"] == role and (calls is None or bool(m.get("tool_calls")) == calls)]
        return len(set(texts)) / len(texts)
    assert share("user") > 0.9
    assert share("tool") > 0.9
    assert share("assistant", calls=False) > 0.8


def test_the_same_seed_gives_the_same_bytes_and_another_seed_another_world() -> None:
    a, b = gen_bioinfo.make_session(seed=8, messages=160), gen_bioinfo.make_session(seed=8, messages=160)
    assert json.dumps(a.messages) == json.dumps(b.messages) and a.facts == b.facts and a.pasted == b.pasted
    other = gen_bioinfo.make_session(seed=9, messages=160)
    assert content(a, 0) != content(other, 0) or a.facts != other.facts
