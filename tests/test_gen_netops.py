"""What bench/gen_netops.py promises of its own domain: an ISP network engineer in Monterrey and an agent running the
network. Pasted documents carry other people's imperatives and are listed in ``session.pasted``; the user's rules come
in the phrasings the spec asks for; Spanish and English both appear; corrections are loose and far; tool outputs are
the router, Ansible, NetBox, Prometheus and shell outputs promised; and the shared contract holds."""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import gen_netops
from generator_contract import (assert_chat_format, assert_counts, assert_first_rules_early, assert_out_of_filler,
                                assert_values_new, call_of, content, facts)
from sessiongen import Session, text_of


@pytest.fixture(scope="module", params=[(1, 400), (5, 3000), (7, 3000)], ids=lambda p: f"seed{p[0]}-{p[1]}")
def session(request: pytest.FixtureRequest) -> Session:
    seed, messages = request.param
    return gen_netops.make_session(seed=seed, messages=messages)


@pytest.fixture(scope="module")
def big() -> Session:
    return gen_netops.make_session(seed=5, messages=3000)


def user_texts(s: Session) -> list[str]:
    return [content(s, i) for i, m in enumerate(s.messages) if m["role"] == "user"]


def own_prose(s: Session, i: int) -> str:
    """A user message without what was pasted into it."""
    text = content(s, i)
    for j, pasted in s.pasted:
        if j == i:
            text = text.replace(pasted, " ")
    return text


def adopted(s: Session) -> list[object]:
    pasted_at = {i for i, _ in s.pasted}
    return [f for f in facts(s, "instruction") if f.index in pasted_at]


# --- the contract, at sizes the shared test does not use -------------------------------------------------------

def test_a_session_below_sixty_messages_is_refused() -> None:
    with pytest.raises(ValueError):
        gen_netops.make_session(seed=1, messages=59)
    assert len(gen_netops.make_session(seed=1, messages=60).messages) == 60


@pytest.mark.parametrize("messages", [133, 250, 999, 2222, 3500])
def test_other_sizes_keep_the_contract(messages: int) -> None:
    s = gen_netops.make_session(seed=3, messages=messages)
    assert len(s.messages) == messages
    assert_counts(s, gen_netops.KINDS, gen_netops.per_kind(messages))
    assert_values_new(s, gen_netops.per_kind)
    assert_out_of_filler(s, stale_reach=12)
    assert all(0.03 * messages <= f.index <= 0.88 * messages for f in s.facts)


def test_per_kind_is_twelve_beyond_3000() -> None:
    assert [gen_netops.per_kind(m) for m in (60, 400, 1700, 3000, 4000, 9000)] == [1, 6, 9, 12, 12, 12]


def test_chat_format_and_every_tool_used(session: Session) -> None:
    assert_chat_format(session, gen_netops.TOOLS)


def test_the_first_two_rules_come_early_and_are_the_users_own(session: Session) -> None:
    assert_first_rules_early(session, len(session.messages), adopted(session))


# --- what was pasted -------------------------------------------------------------------------------------------

IMPERATIVES = re.compile(r"\b(?:do not|must not|must|please|should not|NOT|no realizar|no hagan|no le muevan|"
                         r"les solicitamos|silencien|should)\b", re.IGNORECASE)


def test_pasted_texts_are_listed_exactly_and_carry_other_peoples_imperatives(session: Session) -> None:
    assert len(session.pasted) >= 3
    for i, text in session.pasted:
        assert session.messages[i]["role"] == "user"
        assert text in content(session, i) and len(text) > 200
        assert IMPERATIVES.search(text), text[:200]
        assert own_prose(session, i).strip(), "a paste always comes with the user's own words"


def test_the_kinds_of_documents_pasted(big: Session) -> None:
    """A transit maintenance notice, a TAC reply, a ServiceNow change, the NOC chat, the IXP policy, a customer's
    complaint and an RFC or vendor excerpt all appear in a long session."""
    texts = "\n".join(t for _, t in big.pasted)
    for marker in ("[MAINTENANCE NOTIFICATION]", "Cisco TAC", "Change Request: CHG", "/3/2024] ",
                   "Route Server Policy", "Asunto: Intermitencias"):
        assert marker in texts, marker
    assert any(x in texts for x in ("RFC 8212 ", "RFC 7454 ", "Junos OS CLI User Guide"))
    chat = next(t for _, t in big.pasted if "/3/2024] " in t)
    assert re.search(r"^\[\d\d:\d\d, \d+/3/2024\] [A-ZÁÉÍÓÚ][\w. áéíóú]+: ", chat, re.MULTILINE)


def test_no_planted_value_comes_from_a_paste(session: Session) -> None:
    for f in session.facts:
        assert not any(f.value in text for _, text in session.pasted), f


def test_the_user_adopts_some_points_in_their_own_words_and_rejects_others(big: Session) -> None:
    kept = adopted(big)
    assert len(kept) >= 2
    for f in kept:
        prose = own_prose(big, f.index)
        assert f.value in prose
        assert re.search(r"\b(?:nel|no|ni|nos da igual)\b", prose.split(f.value, 1)[1]), prose
    rejections = [own_prose(big, i) for i, _ in big.pasted]
    assert any("nel" in p or "no aplica" in p or "ni de broma" in p for p in rejections)


# --- the user's rules, languages, corrections, decisions, plans ------------------------------------------------

def test_rules_come_in_every_phrasing_the_spec_asks_for(session: Session) -> None:
    own = [f for f in facts(session, "instruction") if f not in adopted(session)]
    values = [f.value for f in own]
    assert any(re.match(r"(?:si|if|cuando) ", v) for v in values), values  # conditional
    assert any(re.search(r"\b(?:I'd rather|don't|always|never straight|that's how)\b", v) for v in values), values
    assert any(re.search(r"[áéíóúñ]|\b(?:los|las|todo|nunca|nada|antes|cualquier)\b", v)
               and not re.search(r"\b(?:the|you|don't|never|if)\b", v) for v in values), values  # Spanish
    assert any(re.search(r"se ponen como locos|se infarta|le gusta enterarse|gets really grumpy|se nos olvidó", v)
               for v in values), values  # indirect
    long = [f for f in own if "\n\n" in content(session, f.index)]
    assert long, "a rule in a long message"
    for f in long:
        text = content(session, f.index)
        para = text.split("\n\n")[1]
        assert f.value in para and not para.startswith(f.value) and len(text) > 250


def test_both_languages_and_the_users_slang(big: Session) -> None:
    users = user_texts(big)
    joined = "\n".join(users).lower()
    slang = [w for w in ("oye", "porfa", "ahorita", "ya quedó", "no manches", "checa", "nel", "órale") if w in joined]
    assert len(slang) >= 6, slang
    spanish = [t for t in users if re.search(r"\b(?:el|los|que|porfa|revisa|checa|dame)\b", t)
               and not re.search(r"\b(?:the|you|what|is|for)\b", t)]
    english = [t for t in users if re.search(r"\b(?:the|you|what|is)\b", t)
               and not re.search(r"[áéíóúñ¿]|\b(?:el|los|que|porfa|del)\b", t)]
    assert len(spanish) >= 20 and len(english) >= 10


def test_corrections_are_loose_far_and_near_misses(big: Session) -> None:
    corrections = facts(big, "correction")
    texts = [content(big, f.index) for f in corrections]
    assert len(set(texts)) == len(texts)
    close = sum(sum(a == b for a, b in zip(f.value, f.stale or "")) >= len(f.value) // 2 for f in corrections)
    far = sum(f.index - (f.stale_index or 0) > 100 for f in corrections)
    assert close >= len(corrections) // 2 and far >= 4
    assert any((f.stale or "") not in content(big, f.index) for f in corrections), "some don't repeat the old value"
    for f in corrections:
        assert big.messages[f.stale_index]["role"] == "user"
        assert f.value in own_prose(big, f.index) and f.stale in content(big, f.stale_index)


def test_the_agent_used_the_old_value_before_the_correction(big: Session) -> None:
    used = 0
    for f in facts(big, "correction"):
        window = big.messages[f.stale_index + 1:f.stale_index + 12]
        used += any(f.stale in a for m in window for a in [c["function"]["arguments"] for c in m.get("tool_calls") or []])
    assert used >= len(facts(big, "correction")) // 2


def test_some_decisions_are_revised_by_the_user(session: Session) -> None:
    decisions = facts(session, "decision")
    revised = [f for f in decisions if f.stale is not None]
    assert 0 < len(revised) < len(decisions)
    for f in revised:
        assert session.messages[f.stale_index]["role"] == "user" and session.messages[f.index]["role"] == "user"
        assert re.match(r"(?:sabes qué|cambio de planes|pensándolo bien|scratch that|después de hablar|hmm no|ok, lo "
                        r"de antes no|rethinking)", content(session, f.index)), content(session, f.index)


def test_plans_are_prose_with_an_order(session: Session) -> None:
    for f in facts(session, "plan"):
        assert re.search(r"\b(?:primero|luego|después|el orden es|first|then|order of ops)\b", f.value), f.value
        assert f.value.count(",") + f.value.count(";") >= 2


def test_identifiers_are_said_and_printed(session: Session) -> None:
    ids = facts(session, "identifier")
    roles = Counter(session.messages[f.index]["role"] for f in ids)
    assert roles["user"] and roles["tool"]
    for f in ids:
        assert re.search(r"\d", f.value) and " " not in f.value


# --- what the tools return -------------------------------------------------------------------------------------

OUTPUT_MARKERS = {
    "ssh_cli": ("Peer                     AS      InPkt", "Establ", "Active", "Physical interface:", "CRC/Align errors",
                "input errors,", "Interface             System         L State", "Ingress LSP:",
                "BGP_IO_ERROR_CLOSE_SESSION", "%BGP-5-ADJCHANGE: neighbor", "%LINK-3-UPDOWN", "[edit ",
                "error: configuration check-out failed", "missing mandatory statement", "configuration check succeeds",
                "Received prefixes:", "Neighbor        Spk    AS MsgRcvd"),
    "ansible": ("TASK [", "PLAY RECAP", "fatal: [", "FAILED! =>", "changed: [", "ok: ["),
    "shell": ("packet loss", "Loss%   Snt", "traceroute to", "listening on", "Login OK", "Login incorrect",
              "jinja2.exceptions.UndefinedError: 'dict object' has no attribute"),
    "read_file": ("hostname:", "bgp:", "{% for", "policy-options {", "routing-instances {"),
    "netbox_api": ('"results": [', '"serial":', '"prefix":'),
    "promql": ('"resultType": "vector"', '"alertname":', '"receiver": "noc-telegram"'),
    "git": ("diff --git a/", "@@ -"),
}


def test_tool_outputs_look_like_the_real_things(big: Session) -> None:
    by_tool: dict[str, list[str]] = {}
    for m in big.messages:
        if m["role"] == "tool":
            by_tool.setdefault(m["name"], []).append(m["content"])
    for tool, markers in OUTPUT_MARKERS.items():
        joined = "\n".join(by_tool[tool])
        missing = [x for x in markers if x not in joined]
        assert not missing, (tool, missing)


def test_tool_outputs_are_long_varied_and_carry_the_session(session: Session) -> None:
    outputs = [m["content"] for m in session.messages if m["role"] == "tool"]
    lengths = sorted(len(o) for o in outputs)
    assert lengths[len(lengths) // 2] > 1500
    assert sum(lengths) > 0.7 * session.chars()
    long = [m["content"] for m in session.messages if m["role"] == "tool" and len(m["content"]) > 1000
            and m["name"] != "read_file"]  # a file read twice is the same text
    assert len(set(long)) == len(long)


def test_json_outputs_parse(session: Session) -> None:
    parsed = 0
    for i, m in enumerate(session.messages):
        if m["role"] == "tool" and m["name"] in ("netbox_api", "promql") and m["content"].startswith("{"):
            data = json.loads(m["content"])
            assert "results" in data or "data" in data or "alerts" in data
            parsed += 1
        if m["role"] == "tool":
            json.loads(call_of(session, i)["arguments"])
    assert parsed >= 5


def test_errors_are_real_error_lines_and_resolved_runs_pass(session: Session) -> None:
    shapes = re.compile(r"^(?:Policy error: |error: \[edit |!!% |fatal: \[|jinja2\.exceptions\.|\{\"prefix\": "
                        r"\[\"Duplicate|Error executing query: |fatal: pathspec |\w{3} \w{3} +\d+ [\d:]+ 2024 : Auth:)")
    for f in facts(session, "error"):
        assert shapes.match(f.value), f.value
        if f.resolved is not None:
            later = session.messages[f.resolved]
            assert later["name"] == session.messages[f.index]["name"]
            assert "error" not in later["content"].lower().split("\n")[0]


def test_findings_are_read_in_an_output_and_sometimes_only_pointed_at(big: Session) -> None:
    quoted = pointed = 0
    for f in facts(big, "finding"):
        lines = [x for x in big.messages[f.index]["content"].splitlines() if f.value in x]
        assert lines
        answer = big.messages[f.index + 1]
        assert answer["role"] == "assistant" and not answer.get("tool_calls")
        if f.value in answer["content"]:
            quoted += 1
        else:
            pointed += 1
    assert quoted and pointed


def test_files_are_written_by_the_agent(session: Session) -> None:
    for f in facts(session, "file"):
        call = session.messages[f.index]["tool_calls"][0]["function"]
        assert call["name"] in ("write_file", "edit_file") and json.loads(call["arguments"])["path"] == f.value
        assert f.value in content(session, f.index + 1)


def test_nothing_in_the_filler_names_a_planted_value(session: Session) -> None:
    """Values are only in their episode: a filler user turn never says one."""
    planted = [f.value for f in session.facts]
    allowed = {i for f in session.facts for i in range(f.index, f.index + 9)}
    for i, m in enumerate(session.messages):
        if i not in allowed:
            assert not any(v in text_of(m) for v in planted), i
