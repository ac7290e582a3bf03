"""The memos of extraction (summarizer/memos.py): a message said again is read once, and what it gives is
the same as reading it anew, at its own place in the session."""

from __future__ import annotations

from convo import assistant, tool, user

from context_compactor.messages import view_of
from context_compactor.summarizer import extract as x

PLAN = ("plan for the cleanup: first drain node-7 and cordon ip-10-0-3-7, then rotate the key kms-4471 and run "
        "`kubectl get pods -n prod`; after that reopen INC-2291. We never restart the db during business hours.")
SAID = ("I'll go with a fresh node pool because the old one runs 1.27.3. Let me check the pods on "
        "api-7f9c:8443 first.")
RUNBOOK = ("Runbook for the api:\n\n## Restarts\n\n- Never restart the db during business hours.\n"
           "- Always drain a node before its pool is rotated.\n- Keep a snapshot of kms-4471 for 30 days.\n\n"
           "## Pages\n\nEvery page gets an incident ticket (INC-...) within 10 minutes.\n")


def _session() -> list[dict]:
    calls = [("c1", "bash", {"command": "kubectl get pods -n prod"})]
    out = [user(PLAN), assistant(SAID, calls), tool("c1", "api-7f9c   1/1   Running   0   3d\nexit code 0")]
    out += [user(RUNBOOK + "\nfollow it from now on"), assistant("Going with that.")]
    calls = [("c2", "bash", {"command": "kubectl get pods -n prod"})]  # the same call again, another id
    out += [user(PLAN), assistant(SAID, calls), tool("c2", "api-7f9c   1/1   Running   0   3d\nexit code 0")]
    return out + [user(RUNBOOK + "\nfollow it from now on")]


def test_a_message_said_again_gives_what_it_gives_when_read_anew() -> None:
    views = [view_of(m) for m in _session()]
    x.forget()
    extractor = x.Extractor()
    remembered = [extractor.items(view, i) for i, view in enumerate(views)]
    extractor = x.Extractor()
    anew = []
    for i, view in enumerate(views):
        x.forget()  # every memo emptied: each message read as if it were the first
        anew.append(extractor.items(view, i))
    assert remembered == anew
    # each item cites the message it came from, and a plan's key names its own message
    assert all(item.src == i for i, items in enumerate(remembered) for item in items)
    plans = [i.key for i in remembered[0] + remembered[5] if i.section == "goal" and i.key.startswith("plan ")]
    assert plans == ["plan 0", "plan 5"]


def test_the_rule_regex_gated_by_its_words_finds_what_it_finds_ungated() -> None:
    """prose._RULE_NEEDS lists the words every later match of _RULE holds: a sentence with none is tried at its
    start only. A new alternative of _RULE without its word here would turn its rules into no rules; the sentences
    of every test file (and each again after a word of greeting, and in capitals) say so here first."""
    import ast
    import pathlib

    from context_compactor.summarizer.ledger import prose

    said: set[str] = set()
    for path in sorted(pathlib.Path(__file__).parent.glob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and len(node.value) < 5_000:
                said.update(prose.sentences(node.value))
    tried = [form for s in said for form in (s, f"ok so {s}", s.upper())]
    assert len(tried) > 3_000
    for sentence in tried:
        plain = prose._RULE.search(sentence)
        gated = (prose._RULE.search(sentence) if prose._may_hold(sentence, sentence.lower(), prose._RULE_NEEDS)
                 else prose._RULE.match(sentence))
        assert (plain and (plain.span(), plain.group(0))) == (gated and (gated.span(), gated.group(0))), sentence
