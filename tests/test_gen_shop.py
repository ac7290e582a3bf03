"""What bench/gen_shop.py promises of its own domain: the founder of a Porto Alegre coffee shop and the agent that
keeps its Django/Go/React stack running. The contract every generator keeps is checked in
tests/test_generators_contract.py."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import gen_shop
from sessiongen import Session, text_of


@pytest.fixture(scope="module")
def big() -> Session:
    return gen_shop.make_session(seed=5, messages=3000)


@pytest.fixture(scope="module")
def small() -> Session:
    return gen_shop.make_session(seed=3, messages=400)


def _facts(s: Session, kind: str) -> list:
    return [f for f in s.facts if f.kind == kind]


def _content(s: Session, i: int) -> str:
    return str(s.messages[i].get("content") or "")


def test_sizes_below_sixty_are_refused_and_the_count_caps_at_twelve() -> None:
    for m in (0, 10, 59):
        with pytest.raises(ValueError):
            gen_shop.make_session(seed=1, messages=m)
    assert gen_shop.per_kind(3001) == gen_shop.per_kind(9000) == 12
    assert [gen_shop.per_kind(m) for m in (60, 400, 1700, 3000)] == [1, 6, 9, 12]


@pytest.mark.parametrize("messages", [400, 401, 1700])
def test_every_tool_is_used_from_400_messages(messages: int) -> None:
    s = gen_shop.make_session(seed=7, messages=messages)
    used = {c["function"]["name"] for m in s.messages for c in m.get("tool_calls") or []}
    assert used == set(gen_shop.TOOLS)


@pytest.mark.parametrize("messages", [60, 61, 63, 94, 121, 239])
def test_small_odd_sizes_keep_their_facts_in_range(messages: int) -> None:
    for seed in (1, 2, 3):
        s = gen_shop.make_session(seed=seed, messages=messages)
        assert len(s.messages) == messages and s.messages[-1]["role"] == "user"
        assert all(0.03 * messages <= f.index <= 0.88 * messages for f in s.facts)
        assert len(s.facts) == 8 * gen_shop.per_kind(messages)


def test_pasted_texts_are_other_peoples_and_carry_their_imperatives(big: Session) -> None:
    assert len(big.pasted) >= 10
    imperative = re.compile(r"\b(SEMPRE|NUNCA|Exijo|Resolvam|Valide|Responda|Envie|Não mexam|Sempre|nunca|deverá|"
                            r"É vedada|Mascarem|Definam|Implementem|manda as etiquetas)\b")
    kinds = set()
    for i, text in big.pasted:
        assert big.messages[i]["role"] == "user" and text in _content(big, i)
        assert imperative.search(text), text[:80]
        kinds.add(text.split("\n", 1)[0][:12])
    assert len(kinds) >= 6  # the accountant, the customer, MP, the designer, Correios, WhatsApp, the LGPD report
    pasted = " ".join(t for _i, t in big.pasted)
    for name in ("Contadora", "Reclame Aqui", "x-signature", "Handover", "CLÁUSULA", "Você:", "LGPD"):
        assert name in pasted
    for f in big.facts:
        assert not any(f.value in t for _i, t in big.pasted), f


def test_some_pasted_points_are_adopted_in_the_users_own_words_and_others_rejected(big: Session) -> None:
    by_index = dict(big.pasted)
    adopted = [f for f in _facts(big, "instruction") if f.index in by_index]
    assert 1 <= len(adopted) < len(_facts(big, "instruction"))
    for f in adopted:
        prose = _content(big, f.index).replace(by_index[f.index], "")
        assert f.value in prose and f.value not in by_index[f.index]
    rejections = [_content(big, i).replace(t, "") for i, t in big.pasted]
    assert any(re.search(r"ignora|esquece|não vamos|ignore|não mexe", r) for r in rejections)


def test_rules_come_in_every_phrasing_the_spec_asks_for(big: Session, small: Session) -> None:
    for s in (big, small):
        values = [f.value for f in _facts(s, "instruction")]
        assert any(re.match(r"(se |if )", v) for v in values)  # conditional
        assert any(re.search(r"I'd rather|I'd prefer|no new Go|keep Sentry", v) for v in values)  # casual, English
        assert any(re.search(r"\b(nunca|sempre|nada de)\b", v) for v in values)  # Portuguese
        assert any(re.search(r"Black Friday|leva de NF-e|Jéssica", v) for v in values)  # indirect
        # one rule in the middle of a long message's second paragraph
        middle = 0
        for f in _facts(s, "instruction"):
            paras = _content(s, f.index).split("\n\n")
            if len(paras) >= 3 and f.value in paras[1] and not paras[1].startswith(f.value):
                middle += 1
        assert middle >= 1


def test_the_first_two_rules_are_early_and_the_users_own(big: Session, small: Session) -> None:
    for s in (big, small):
        n = len(s.messages)
        first, second = sorted(_facts(s, "instruction"), key=lambda f: f.index)[:2]
        assert first.index <= n / 10 and second.index <= n / 7
        pasted_at = {i for i, _t in s.pasted}
        assert first.index not in pasted_at and second.index not in pasted_at


def test_both_languages_and_the_founders_slang_appear(big: Session) -> None:
    users = [_content(big, i) for i, m in enumerate(big.messages) if m["role"] == "user"]
    joined = "\n".join(users)
    for word in ("beleza", "tá", "pô", "valeu", "a gente", "né", "bora"):
        assert re.search(rf"(?<!\w){word}(?!\w)", joined), word
    english = [u for u in users if re.search(r"\b(the|can you|check|let's|I'd)\b", u) and not re.search(r"[ãçéêóú]", u)]
    portuguese = [u for u in users if re.search(r"[ãçéêóú]", u) and not re.search(r"\b(the|check|can you)\b", u)]
    assert len(english) >= 10 and len(portuguese) >= 50


def test_user_messages_do_not_repeat_verbatim(big: Session) -> None:
    users = [_content(big, i) for i, m in enumerate(big.messages) if m["role"] == "user"]
    assert len(set(users)) >= 0.9 * len(users)


def test_corrections_are_loose_near_misses_some_far_away(big: Session, small: Session) -> None:
    for s, far_needed in ((big, 4), (small, 1)):
        corrections = _facts(s, "correction")
        close = sum(sum(a == b for a, b in zip(f.value, f.stale)) >= len(f.value) // 2 for f in corrections)
        far = sum(f.index - f.stale_index > 100 for f in corrections)
        assert close >= len(corrections) / 2 and far >= far_needed
        for f in corrections:
            assert s.messages[f.stale_index]["role"] == "user" and f.stale in _content(s, f.stale_index)
            assert f.value in _content(s, f.index)
            # said casually, not as "X -> Y"
            assert "->" not in _content(s, f.index)


def test_some_decisions_are_revised_by_the_user_and_some_stand(big: Session) -> None:
    decisions = _facts(big, "decision")
    revised = [f for f in decisions if f.stale]
    assert 1 <= len(revised) < len(decisions)
    for f in revised:
        assert big.messages[f.stale_index]["role"] == "user" and f.stale in _content(big, f.stale_index)
        assert re.search(r"sabe de uma coisa|mudei de ideia|esquece|pensando melhor|scratch that|voltei atrás",
                         _content(big, f.index))


def test_plans_are_prose_with_an_order(big: Session) -> None:
    for f in _facts(big, "plan"):
        assert big.messages[f.index]["role"] == "user"
        assert re.search(r"depois|then|e aí|antes|step two|só depois|por último|, ", f.value)


def test_errors_are_whole_lines_and_resolved_ones_rerun_the_same_tool(big: Session) -> None:
    errors = _facts(big, "error")
    for f in errors:
        m = big.messages[f.index]
        assert m["role"] == "tool" and f.value in m["content"].splitlines()
        if f.resolved is not None:
            later = big.messages[f.resolved]
            assert later["name"] == m["name"] and f.value not in later["content"]
    assert 0 < sum(f.resolved is not None for f in errors) < len(errors)


def test_findings_are_read_in_outputs_and_sometimes_only_pointed_at(big: Session) -> None:
    pointed = 0
    for f in _facts(big, "finding"):
        assert any(f.value in line for line in _content(big, f.index).splitlines())
        reply = big.messages[f.index + 1]
        assert reply["role"] == "assistant"
        pointed += f.value not in _content(big, f.index + 1)
    assert pointed >= 1


def test_files_are_written_by_one_call_each(big: Session) -> None:
    for f in _facts(big, "file"):
        calls = big.messages[f.index]["tool_calls"]
        assert len(calls) == 1 and calls[0]["function"]["name"] in ("write_file", "edit_file")
        assert json.loads(calls[0]["function"]["arguments"])["path"] == f.value


def test_identifiers_are_said_and_printed(big: Session) -> None:
    roles = {big.messages[f.index]["role"] for f in _facts(big, "identifier")}
    assert roles == {"user", "tool"}


def test_tool_outputs_look_like_the_real_things(big: Session) -> None:
    outputs = "\n".join(_content(big, i) for i, m in enumerate(big.messages) if m["role"] == "tool")
    for pattern in (r"Traceback \(most recent call last\):",
                    r"django\.db\.utils\.IntegrityError: duplicate key value violates unique constraint",
                    r"Applying \w+\.\d{4}_\w+\.\.\. OK", r" \[X\] 0001_initial", r"short test summary info",
                    r"=+ \d+ (failed, \d+ )?passed.* in \d+\.\d+s =+", r"ERROR/ForkPoolWorker-\d\] Task [\w.]+\[",
                    r"--- FAIL: Test\w+", r"FAIL\tgithub\.com/graosul/shipping/", r"undefined: \w+",
                    r"\(\d+ rows\)", r"Execution Time: \d+\.\d+ ms", r"ERROR:  deadlock detected", r"LOG:  duration: ",
                    r"NAME +IMAGE +COMMAND", r"loja-web-1 +\| ", r'"shortId": "SHOP-', r'"action": "payment\.updated"',
                    r'"endToEndId"', r"Rejeição \d{3}", r'HTTP/2\.0" \d{3} ', r"< HTTP/2 \d{3}", r"DATABASES = ",
                    r"services:\n  web:", r"class Order\(models\.Model\)", r"package quote", r"pedido,data,cliente_uf"):
        assert re.search(pattern, outputs), pattern


def test_env_files_are_read_with_secrets_redacted(big: Session) -> None:
    reads = [i for i, m in enumerate(big.messages) if m["role"] == "tool" and m["name"] == "read_file"
             and _content(big, i).startswith("# .env")]
    assert reads
    for i in reads:
        for line in _content(big, i).splitlines():
            if re.match(r"\w*(TOKEN|SECRET|PASSWORD|KEY|DSN)\w*=", line):
                assert line.endswith("=********"), line


def test_tool_results_carry_most_of_the_characters(small: Session) -> None:
    tool = sum(len(text_of(m)) for m in small.messages if m["role"] == "tool")
    assert tool > 0.6 * small.chars()
    longest = max(len(_content(small, i)) for i, m in enumerate(small.messages) if m["role"] == "tool")
    assert longest > 5000


def test_the_system_prompt_describes_the_shop() -> None:
    s = gen_shop.make_session(seed=1, messages=60)
    system = s.messages[0]["content"]
    for word in ("Django", "Celery", "Go", "React", "Pix", "Mercado Pago", "NF-e", "Hetzner", "Sentry", "Porto Alegre"):
        assert word in system
