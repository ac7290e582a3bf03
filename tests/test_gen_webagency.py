"""The Pune web-agency generator (bench/gen_webagency.py): what its sessions promise of their own domain.

The contract every generator keeps (sizes, exactness, values new where planted and out of the filler) is checked
in tests/test_generators_contract.py; here: the owner's Hinglish and the rules' phrasings, what was pasted and whose
words it carries, the audit adopted in part, loose corrections, the kinds of tool output, redacted secrets, resolved
errors."""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import gen_webagency
from generator_contract import assert_chat_format, assert_first_rules_early, call_of, content, facts
from sessiongen import Session, text_of

from gen_webagency import TOOLS, make_session, per_kind

HINGLISH = ("yaar", "nahi", "karo", "haan", "theek hai", "pehle", "phir", "bas", "mat ", "kar de", "dekh", "hai")
MARATHI = ("kara", "ahe", "lagech", "pahije", "sagle", "taka", "bagha", "udya", "khup", "zala", "kartayt", "paryant")
IMPERATIVES = ("please", "kindly", "must", "should", "shall", "ensure", "do not", "don't", "never", "always",
               "karo", "kara", "taka", "badla", "make", "move", "enforce", "disable", "rotate", "add", "reply",
               "capture", "verify", "check", "send", "remove")


@pytest.fixture(scope="module")
def big() -> Session:
    return make_session(seed=5, messages=3000)


@pytest.fixture(scope="module")
def other() -> Session:
    return make_session(seed=8, messages=3000)


@pytest.fixture(scope="module")
def small() -> Session:
    return make_session(seed=3, messages=400)


def prose(session: Session, i: int) -> str:
    """Message ``i``'s content without what the user pasted into it."""
    text = content(session, i)
    for j, pasted in session.pasted:
        if j == i:
            text = text.replace(pasted, " ")
    return text


def test_sizes_below_the_smallest_are_refused_and_facts_stay_at_twelve_beyond_3000() -> None:
    """60 messages is the smallest session; facts per kind grow to 12 at 3000 and stay there."""
    with pytest.raises(ValueError):
        make_session(seed=1, messages=59)
    assert [per_kind(m) for m in (60, 400, 1700, 3000, 4000, 9000)] == [1, 6, 9, 12, 12, 12]
    session = make_session(seed=2, messages=61)
    assert len(session.messages) == 61 and Counter(f.kind for f in session.facts) == {k: 1 for k in gen_webagency.KINDS}


@pytest.mark.parametrize(("seed", "messages"), [(1, 400), (2, 401), (6, 400), (5, 3000)])
def test_chat_format_and_every_tool_in_every_session_of_400_and_more(seed: int, messages: int) -> None:
    """OpenAI chat format, every tool answered at once, and each of the tools used at least once."""
    assert_chat_format(make_session(seed=seed, messages=messages), TOOLS)


def test_pasted_texts_are_listed_and_carry_other_peoples_imperatives(big: Session, other: Session) -> None:
    """Every paste sits in a user message, wrapped in the owner's own words, and carries someone else's demands."""
    for session in (big, other):
        assert len(session.pasted) >= 8
        for i, pasted in session.pasted:
            assert session.messages[i]["role"] == "user"
            assert pasted in content(session, i) and len(prose(session, i).strip()) > 5
            assert any(word in pasted.lower() for word in IMPERATIVES), pasted


def test_every_kind_of_paste_appears(big: Session) -> None:
    """Client WhatsApp forwards (timestamped, Marathi and Hindi in them), the host's ticket reply, Razorpay's
    email, the audit excerpt, the freelancer's handover notes and the SOW clause."""
    texts = [p for _, p in big.pasted]
    whatsapp = [p for p in texts if re.match(r"^\[?\d\d/\d\d/\d\d, \d", p)]
    assert len(whatsapp) >= 4
    assert all(len(re.findall(r"^\[?\d\d/\d\d/\d\d, \d{1,2}:\d\d", p, re.M)) == p.count("\n") + 1 for p in whatsapp)
    assert any(any(word in p for word in MARATHI) for p in whatsapp)
    markers = ("Ticket #", "From: Razorpay Integrations", "SECURITY ASSESSMENT", "Handover notes", "Statement of Work")
    for marker in markers:
        assert any(marker in p for p in texts), marker


def test_no_fact_comes_from_a_paste(big: Session, other: Session) -> None:
    """No planted value is inside pasted text; the owner's rules, corrections, decisions and plans are in their own
    prose."""
    for session in (big, other):
        pasted = [p for _, p in session.pasted]
        for fact in session.facts:
            assert not any(fact.value in p for p in pasted), fact
            if fact.kind in ("instruction", "correction", "decision", "plan"):
                assert fact.value in prose(session, fact.index), fact


def test_the_audit_is_adopted_in_part_in_own_words_and_point_4_rejected(big: Session, other: Session) -> None:
    """After the audit excerpt, the owner rejects point 4 (shared hosting) and restates another point as a rule of
    their own, in words the audit doesn't use; the first two rules are earlier and are the owner's own."""
    for session in (big, other):
        (audit_at, audit), = [(i, p) for i, p in session.pasted if "SECURITY ASSESSMENT" in p]
        adopted = [f for f in facts(session, "instruction") if "audit" in f.query and f.index > audit_at]
        assert len(adopted) == 1
        fact = adopted[0]
        said = content(session, fact.index)
        assert 0 < fact.index - audit_at <= 12 and re.search(r"point 4|^4 ko", said.lower())
        assert fact.value not in audit and not any(f.value in audit for f in session.facts)
        assert_first_rules_early(session, len(session.messages), adopted)


def test_rules_come_in_the_phrasings_asked_for(big: Session, other: Session) -> None:
    """Indirect, casual ("I'd rather"), conditional ("if ..."), Hinglish, and inside a long message's second
    paragraph."""
    for session in (big, other):
        rules = facts(session, "instruction")
        said = [content(session, f.index) for f in rules]
        assert sum("I'd rather" in s for s in said) >= 2
        assert sum(bool(re.search(r"(?i)\b(?:if|even if)\b", s)) for s in said) >= 2
        markers = (" mat ", "nahi", "karo", "hamesha", "pehle", "sirf", " ke ", "bina")
        hinglish = [f.value for f in rules if any(w in f.value for w in markers)]
        assert len(hinglish) >= 2
        indirect_marks = (r"(?:, so |so (?:every|no|prod|workers|a |plugins|all|rollback)"
                          r"|since then|what they pay|angry if)")
        indirect = [s for s in said if re.search(indirect_marks, s)]
        assert len(indirect) >= 2
        middle = []
        for f, s in zip(rules, said):
            first, _, second = s.partition("\n\n")
            inside = f.value in second and not second.startswith(f.value) and not second.endswith(f.value)
            if second and inside and len(first) > 80:
                middle.append(f)
        assert len(middle) >= 2


def test_the_owner_writes_hinglish_and_the_agent_answers_in_english(big: Session) -> None:
    """Most of the owner's own messages carry Hinglish; the agent's answers are English."""
    users = [prose(big, i) for i, m in enumerate(big.messages) if m["role"] == "user"]
    assert sum(any(w in u.lower() for w in HINGLISH) for u in users) > 0.5 * len(users)
    answers = [m["content"] for m in big.messages
               if m["role"] == "assistant" and not m.get("tool_calls") and len(m["content"]) > 60]
    english = sum(bool(re.search(r"\b(?:the|is|are|I'll|it)\b", a)) for a in answers)
    assert english > 0.8 * len(answers)


@pytest.mark.parametrize("seed", [5, 8, 13])
def test_corrections_are_loose_near_misses_some_far_some_hinglish(seed: int) -> None:
    """Half or more of the corrections are near misses of the old value, four or more come 100+ messages
    later, some are loose (not near), and some are said in Hinglish; the old value was the owner's own words."""
    session = make_session(seed=seed, messages=3000)
    corrections = facts(session, "correction")
    close = far = 0
    for fact in corrections:
        assert fact.stale is not None and fact.stale_index is not None
        assert session.messages[fact.stale_index]["role"] == "user" and fact.stale in prose(session, fact.stale_index)
        close += sum(a == b for a, b in zip(fact.value, fact.stale)) >= len(fact.value) // 2
        far += fact.index - fact.stale_index > 100
    assert close >= len(corrections) // 2 and far >= 4 and close < len(corrections)
    assert any(re.search(r"\b(?:nahi|arre|galat|yaar)\b", content(session, f.index)) for f in corrections)


def test_some_decisions_are_revised_by_the_owner_and_some_stand(big: Session) -> None:
    """A revision names the new choice (and usually drops the old one beside it); first choices were the owner's."""
    decisions = facts(big, "decision")
    revised = [f for f in decisions if f.stale is not None]
    assert 0 < len(revised) < len(decisions)
    for fact in revised:
        assert big.messages[fact.stale_index]["role"] == "user" and fact.stale in content(big, fact.stale_index)
        assert fact.value in content(big, fact.index)


def test_plans_are_prose_sequences(big: Session) -> None:
    """A plan is an ordered sequence in the owner's words: pehle/phir, first/then, step 1/2/3, arrows."""
    for fact in facts(big, "plan"):
        assert re.search(r"pehle|phir|then|uske baad|step 1|→|first|last mein|sabse last", fact.value), fact.value
        assert len(re.split(r",|;|→|\. ", fact.value)) >= 3


ERROR_SHAPES = (r"^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\] production\.ERROR: ",
                r"^\d{4}/\d\d/\d\d \d\d:\d\d:\d\d \[error\] .*upstream timed out",
                r"^ERROR 1\d{3} \(\w{5}\) at line \d+: ", r"^Error: creating S3 Bucket \(.+\): BucketAlreadyExists",
                r"^Type error: Property '\w+' does not exist on type '\w+'\.$",
                r"^app/\S+\.php:\d+:Call to an undefined method ",
                r"^deploy\t.*##\[error\]Process completed with exit code \d+\.$",
                r"^SQLSTATE\[42S21\]: Column already exists",
                r"^FAILED  Tests\\Feature\\\w+ > ", r"^1\) Tests\\Feature\\\w+::test_",
                r"php-fpm8\.3\[\d+\]: .*pm\.max_children",
                r"^PHP Fatal error:  Uncaught Error: Call to undefined function ")


def test_errors_are_real_tool_lines_and_resolutions_rerun_the_same_command(big: Session, other: Session) -> None:
    """Each error is a whole line shaped like its tool's; a resolved one is followed later by the same call,
    whose result no longer has the line; unresolved ones exist too."""
    for session in (big, other):
        errors = facts(session, "error")
        for fact in errors:
            assert fact.value in content(session, fact.index).splitlines()
            assert any(re.search(shape, fact.value) for shape in ERROR_SHAPES), fact.value
            if fact.resolved is not None:
                first, again = call_of(session, fact.index), call_of(session, fact.resolved)
                assert first == again and fact.value not in content(session, fact.resolved)
        assert 0 < sum(f.resolved is not None for f in errors) < len(errors)


TOOL_OUTPUTS = {
    "laravel log with stack trace": r"production\.ERROR: .*\n\[stacktrace\]\n#0 /var/www/\S+/vendor/laravel/framework/",
    "nginx upstream timeout": r"upstream timed out \(110: Connection timed out\) while reading response header",
    "nginx access log": r'" (?:200|304|502) \d+ "[^"]*" "Mozilla/5\.0',
    "php-fpm slow log": r"\[pool \w+\] pid \d+\nscript_filename = /var/www/",
    "systemctl": r"● \S+\.service - .*\n\s+Loaded: loaded .*\n\s+Active: active \(running\)",
    "df -h": r"Filesystem\s+Size\s+Used\s+Avail\s+Use%\s+Mounted on",
    "free -m": r"Mem:\s+\d+\s+\d+",
    "top": r"^top - \d\d:\d\d:\d\d up ",
    "certbot": r"Saving debug log to /var/log/letsencrypt/letsencrypt\.log",
    "mysql table": r"\+-{3,}\+[\s\S]*\| id\s+\|[\s\S]*rows in set \(",
    "explain": r"\| id \| select_type \| table",
    "innodb deadlock": r"LATEST DETECTED DEADLOCK",
    "mysql deadlock error": r"ERROR 1213 \(40001\)",
    "slow query log": r"# Query_time: \d+\.\d{6}  Lock_time:",
    "terraform plan": r"will perform the following actions:[\s\S]*Plan: \d+ to add, \d+ to change, \d+ to destroy\.",
    "gh run log": r"^\w+\t[^\t]+\t\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z ",
    "next build": r"▲ Next\.js 14\.2\.\d+",
    "lighthouse": r"Performance: \d+\nAccessibility: \d+",
    "composer conflict": r"Your requirements could not be resolved to an installable set of packages\.\n\n  Problem 1",
    "pest": r"PASS  Tests\\(?:Feature|Unit)\\\w+\n  ✓ ",
    "phpunit failures": r"FAILURES!\nTests: \d+, Assertions: \d+, Failures: \d+\.",
    "phpstan table": r"-{6} -{10,}\n  Line   app/",
    "env file": r"DB_PASSWORD=\*{8}",
    "nginx conf": r"server_name \S+ www\.\S+;",
    "composer.json": r'"laravel/framework": "\^11',
    "terraform file": r'resource "aws_s3_bucket" "media" \{',
    "blade": r"@extends\('layouts\.shop'\)",
}


@pytest.mark.parametrize("what", list(TOOL_OUTPUTS))
def test_tool_outputs_look_like_the_real_things(big: Session, what: str) -> None:
    """A 3000-message session holds each kind of output promised, as its tool prints it."""
    pattern = re.compile(TOOL_OUTPUTS[what], re.M)
    assert any(m["role"] == "tool" and pattern.search(m["content"]) for m in big.messages), what


def test_tool_outputs_carry_most_of_the_text(small: Session, big: Session) -> None:
    """Tool results hold most of the characters, and many of them are long."""
    for session in (small, big):
        tool = [len(m["content"]) for m in session.messages if m["role"] == "tool"]
        assert sum(tool) > 0.75 * session.chars()
        assert sum(n > 5000 for n in tool) > 0.15 * len(tool)


def test_secrets_in_files_read_are_masked(big: Session) -> None:
    """Every .env the agent reads comes back with keys, passwords and secrets masked."""
    envs = [m["content"] for m in big.messages if m["role"] == "tool" and "APP_KEY=" in m["content"]]
    assert envs
    for env in envs:
        for line in env.splitlines():
            if re.match(r"^\w*(?:KEY|PASSWORD|SECRET)\w*=", line) and not line.startswith("AWS_USE"):
                secret = line.split("=", 1)[1]
                assert secret.endswith("********") or secret == "null", line


def test_findings_are_pointed_at_and_sometimes_quoted(big: Session, other: Session) -> None:
    """The agent's next message after a finding either quotes its value or points back at it without quoting."""
    quoted = pointed = 0
    for session in (big, other):
        for fact in facts(session, "finding"):
            nxt = session.messages[fact.index + 1]
            assert nxt["role"] == "assistant"
            said = str(nxt.get("content") or "")
            quoted += fact.value in said
            pointing = re.search(r"(?i)that|the one|yeh wala|above|outlier|entry|there it is", said)
            pointed += fact.value not in said and bool(pointing)
    assert quoted >= 3 and pointed >= 3


def test_files_are_written_or_edited_by_one_call(big: Session) -> None:
    """A file fact is the path in the one write_file/edit_file call that creates or changes it, with content."""
    for fact in facts(big, "file"):
        (call,) = big.messages[fact.index]["tool_calls"]
        args = json.loads(call["function"]["arguments"])
        assert call["function"]["name"] in ("write_file", "edit_file") and fact.value in args["path"]
        assert len(args.get("content") or args.get("new_string") or "") > 10
        assert big.messages[fact.index + 1]["content"].startswith(("Wrote ", "Edited "))


@pytest.mark.parametrize("messages", [121, 400, 3000])
def test_identifiers_are_said_by_the_owner_and_printed_by_tools(messages: int) -> None:
    """Identifiers come both from the owner's messages and from tool outputs."""
    session = make_session(seed=4, messages=messages)
    roles = Counter(session.messages[f.index]["role"] for f in facts(session, "identifier"))
    assert roles["user"] and roles["tool"]


def test_the_owner_is_terse(big: Session) -> None:
    """The owner's own messages (pastes aside) are short; many are a line or less."""
    lengths = sorted(len(prose(big, i)) for i, m in enumerate(big.messages) if m["role"] == "user")
    assert lengths[len(lengths) // 2] < 110 and sum(n < 40 for n in lengths) > 0.1 * len(lengths)


def test_nothing_but_routine_filler_repeats_verbatim(big: Session) -> None:
    """Long messages (over 60 characters) of the owner and the agent are never repeated word for word."""
    texts = Counter(m["content"] for m in big.messages
                    if m["role"] in ("user", "assistant") and len(m["content"] or "") > 60)
    assert max(texts.values()) == 1, texts.most_common(3)


def test_values_and_calls_survive_json_and_text_of(small: Session) -> None:
    """Every call's arguments are JSON objects, and text_of finds a file fact's path in the raw arguments."""
    for m in small.messages:
        for call in m.get("tool_calls") or []:
            assert isinstance(json.loads(call["function"]["arguments"]), dict)
    for fact in facts(small, "file"):
        assert fact.value in text_of(small.messages[fact.index])
