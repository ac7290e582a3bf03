"""What a compacted prompt still knows: planted facts kept, by kind, on long agent sessions (issue 10).

    python bench/fidelity.py                                  # 150k and 1.2M tokens at 4k, 8k, 32k windows
    python bench/fidelity.py --sizes 150k --windows 8192 --lost   # and list the values lost
    python bench/fidelity.py --json                           # one record per size and window

Sessions come from ``bench/sessiongen.py`` (seeded; facts planted early, in the middle and late).
Each is compacted once, from scratch, with the built-in summarizer (no model server), through
:func:`compact_once`. A fact is kept when its exact value occurs in the compacted prompt (every
message's content and tool-call arguments). ``folded`` counts only facts whose message left the
verbatim part of the prompt, which is what the compacted-context block has to carry; ``all``
counts every fact. ``stale-only`` counts corrections whose new value is gone while the value it
corrected survives (an agent would act on the wrong value): it must be 0. ``old`` counts
corrections whose replaced value the ledger block still states as current (anywhere but in the
"(was ...)" that shows what a value replaced): it should be 0 too. The figures are printed, never
asserted: this is not a test.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import structlog

sys.path.insert(0, str(Path(__file__).resolve().parent))

import importlib

from precision import precision
from sessiongen import Fact, Session

# How the product's compacted-context block opens and ends (its output format).
OWN_BLOCK, BLOCK_END = "[context-compactor: ledger of", "[end of ledger]"

Message = dict[str, Any]
NAMED_SIZES = {"150k": 400, "1.2m": 3000}  # tokens -> messages, as issue 10 measured them
TOKENS_PER_MESSAGE = 390
SHORT = {"instruction": "instr", "file": "file", "error": "error", "decision": "decis",
         "identifier": "ident", "correction": "corr", "finding": "find", "plan": "plan"}
GENERATORS = ("sessiongen", "gen_ops", "gen_data", "gen_code", "gen_writing", "gen_research", "gen_assistant", "gen_support", "gen_books", "gen_security", "gen_legal",
              "gen_firmware", "gen_hr", "gen_finance", "gen_agentloop", "gen_mlops", "gen_mobile", "gen_monorepo", "gen_analytics",
              "gen_bioinfo", "gen_gamedev", "gen_amr", "gen_webagency", "gen_shop", "gen_netops",
              "gen_robotics", "gen_itadmin", "gen_hpc", "gen_clinical", "gen_dataeng", "gen_backend",
              "gen_frontend", "gen_erp", "gen_actuary", "gen_goservice", "gen_datajourno",
              "gen_fintechsre", "gen_windops", "gen_labauto", "gen_mro", "gen_lastmile", "gen_search", "gen_port")  # each written from its own spec


def configure_logging() -> None:
    """Warnings to stderr, the rest dropped: stdout is for the table."""
    structlog.configure(
        processors=[structlog.processors.add_log_level, structlog.dev.ConsoleRenderer(colors=False)],
        wrapper_class=structlog.make_filtering_bound_logger(30),
        logger_factory=structlog.PrintLoggerFactory(sys.stderr),
    )


# --- the product, called in one place ------------------------------------------------------------


def compact_once(messages: list[Message], window: int) -> tuple[list[Message], dict[str, Any]]:
    """Compact ``messages`` for a model with a ``window``-token context, from scratch.

    Uses the public ``context_compactor.compact`` when it exists, else the host path of the
    README ("For host authors") with an in-memory store. Returns the messages to send and the
    decision's figures; the messages themselves when nothing was changed.
    """
    import context_compactor

    compact = getattr(context_compactor, "compact", None)  # the public API, once it exists
    if compact is None:
        return _compact_as_host(messages, window)
    result = compact(messages, context_window=window)  # no store: nothing cached, from scratch
    return list(result.messages), dict(result.stats)


def compact_turns(messages: list[Message], window: int, turns: int,
                  last: int = 1) -> list[tuple[int, list[Message], dict[str, Any]]]:
    """Compact ``messages`` as a host does over a session: one ``Compactor`` (one session, an in-memory
    store) is called at ``turns`` user turns spread over the history, each time with the history so far
    (tiers appended, plans reused). Returns, for each of the ``last`` turns, the index of its user
    message and what was sent then."""
    from context_compactor import Compactor

    users = [n for n, m in enumerate(messages) if m.get("role") == "user"]
    picks = sorted({users[min(len(users) - 1, round((k + 1) * len(users) / turns) - 1)] for k in range(turns)})
    picks[-1] = users[-1]
    sent: list[tuple[int, list[Message], dict[str, Any]]] = []
    with Compactor(context_window=window) as compactor:
        for n, at in enumerate(picks):
            result = compactor.compact(messages[:at + 1])
            if n >= len(picks) - last:
                sent.append((at, list(result.messages), dict(result.stats)))
    return sent


def _compact_as_host(messages: list[Message], window: int) -> tuple[list[Message], dict[str, Any]]:
    from context_compactor.hookspecs import BeforeAgentStartEvent, HookContext, ModelInfo
    from context_compactor.plugins import get_plugin_manager
    from context_compactor.runtime import Runtime
    from context_compactor.settings import Settings
    from context_compactor.store import Store

    runtime = Runtime(Settings(contextWindow=window), store=Store.open(":memory:"), persist_sessions=False)
    model = ModelInfo(id="bench/fidelity", context_window=window)
    ctx = HookContext(session_key="fidelity", runtime=runtime, model=model)
    try:
        result = get_plugin_manager().hook.before_agent_start(
            event=BeforeAgentStartEvent(messages=messages, model=model), ctx=ctx)
    finally:
        runtime.close()
    if result is None or result.messages is None:
        return messages, {"compacted": False, "notices": list(result.notices) if result else []}
    return list(result.messages), {**result.stats, "notices": list(result.notices)}


# --- scoring ----------------------------------------------------------------------------------


def text_of(message: Message) -> str:
    """Content (a string or a list of text blocks) and the raw tool-call arguments."""
    content = message.get("content")
    if isinstance(content, list):
        content = "\n".join(str(b.get("text", "")) for b in content if isinstance(b, dict))
    parts = [str(content or "")]
    parts += [c.get("function", {}).get("arguments", "") for c in message.get("tool_calls") or []]
    return "\n".join(parts)


def verbatim_indexes(original: list[Message], compacted: list[Message]) -> set[int]:
    """Indexes of original messages sent unchanged.

    Kept messages are the host's own objects, so identity decides; equality is only the fallback
    for an API that copies, and then only for the tail (filler lines repeat: an early "ok,
    continue" equals a late one). A kept user turn with the block put before it still counts: its
    own text is there in full.
    """
    ids = {id(m) for m in compacted}
    kept = {i for i, m in enumerate(original) if id(m) in ids}
    if len(kept) <= 1:
        kept |= _equal_tail(original, compacted)
    tail = [i for i in kept if original[i].get("role") != "system"]
    first = min(tail) if tail else len(original)
    originals = {id(m) for m in original}
    changed = [(m.get("role"), text_of(m)) for m in compacted if id(m) not in originals]
    for i in range(first - 1, max(0, first - 3), -1):
        own = text_of(original[i])
        if own and any(r == original[i].get("role") and t != own and t.endswith(own) for r, t in changed):
            kept.add(i)
    return kept


def _equal_tail(original: list[Message], compacted: list[Message]) -> set[int]:
    """Original indexes of the run of equal messages at the end of both lists."""
    kept, j = set(), len(original) - 1
    for m in reversed(compacted):
        if j < 0 or m != original[j]:
            break
        kept.add(j)
        j -= 1
    return kept


def make_session(generator: str, seed: int, messages: int) -> Session:
    """A session from one of :data:`GENERATORS` (each module's ``make_session(seed, messages)``)."""
    module = importlib.import_module(generator)
    session: Session = module.make_session(seed, messages)
    session.seed = seed
    return session


def kinds_of(sessions: list[Session]) -> list[str]:
    present = {f.kind for s in sessions for f in s.facts}
    return [k for k in SHORT if k in present]


def _has_token(text: str, value: str) -> bool:
    """Whether ``value`` stands in ``text`` as a whole token ("handleSettle" is not in "handleSettleV2")."""
    return re.search(rf"(?<![\w-]){re.escape(value)}(?![\w-])", text) is not None


def score(session: Session, compacted: list[Message]) -> dict[str, Any]:
    """Facts kept by kind, over all facts and over the folded ones, and stale-only corrections."""
    prompt = "\n".join(text_of(m) for m in compacted)
    verbatim = verbatim_indexes(session.messages, compacted)
    tally: dict[str, dict[str, list[int]]] = {"all": defaultdict(lambda: [0, 0]), "folded": defaultdict(lambda: [0, 0])}
    lost: dict[str, list[Fact]] = defaultdict(list)
    stale_only: list[Fact] = []
    as_current: list[Fact] = []
    block = next((text_of(m) for m in compacted if OWN_BLOCK in text_of(m)), "").split(BLOCK_END)[0]
    block = re.sub(r"\(was [^()]*\)", "", block)  # what a value replaced, shown as such
    for fact in session.facts:
        kept = fact.value in prompt
        groups = ["all"] + (["folded"] if fact.index not in verbatim else [])
        for group in groups:
            tally[group][fact.kind][0] += kept
            tally[group][fact.kind][1] += 1
        if not kept:
            lost[fact.kind].append(fact)
        if fact.stale and not kept and _has_token(prompt, fact.stale):
            stale_only.append(fact)
        if fact.kind == "correction" and fact.stale and _has_token(block, fact.stale):
            as_current.append(fact)
    return {"all": dict(tally["all"]), "folded": dict(tally["folded"]), "lost": lost,
            "stale_only": stale_only, "as_current": as_current, "verbatim": len(verbatim),
            "prompt_chars": len(prompt), "precision": precision(session, compacted)}


# --- running and printing -----------------------------------------------------------------------


def parse_size(text: str) -> tuple[str, int]:
    """'150k' -> ('150k', 400 messages); other sizes at about 390 tokens a message."""
    key = text.strip().lower()
    if key in NAMED_SIZES:
        return key, NAMED_SIZES[key]
    scale = {"k": 1_000, "m": 1_000_000}.get(key[-1:], 1)
    tokens = float(key.rstrip("km")) * scale
    return key, max(20, round(tokens / TOKENS_PER_MESSAGE))


def run_case(session: Session, window: int, turns: int = 1, last: int = 1) -> dict[str, Any]:
    start = time.perf_counter()
    if turns <= 1:
        compacted, stats = compact_once(session.messages, window)
        sent = [(len(session.messages) - 1, compacted, stats)]
    else:
        sent = compact_turns(session.messages, window, turns, last)
    elapsed = time.perf_counter() - start
    results = [score(_upto(session, at), compacted) for at, compacted, _stats in sent]
    result = results[-1] if len(results) == 1 else _summed(results)
    compacted, stats = sent[-1][1], sent[-1][2]
    stated = stats.get("tokens_after")
    # when the product does not say: 4 characters a token over the searched text
    tokens = int(stated) if stated is not None else result["prompt_chars"] // 4
    return {"window": window, "seconds": elapsed, "prompt_tokens": tokens, "estimated": stated is None,
            "fits": tokens <= window, "messages_sent": len(compacted), "stats": stats, **result}


def _upto(session: Session, at: int) -> Session:
    """The session as it stood at message ``at``: its messages so far and the facts they planted."""
    if at >= len(session.messages) - 1:
        return session
    return Session(session.messages[:at + 1], [f for f in session.facts if f.index <= at], session.seed,
                   [p for p in session.pasted if p[0] <= at])


def _summed(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Several turns' scores as one: facts kept over facts planted by each turn, summed (a block just
    merged is smaller than one with tiers appended since, so the last turn alone says in which phase
    of that cycle the session ended more than what the engine keeps); the precision lists joined; the
    last turn's shares and figures."""
    out = dict(results[-1])
    for group in ("all", "folded"):
        tally: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for r in results:
            for kind, (kept, planted) in r[group].items():
                tally[kind][0] += kept
                tally[kind][1] += planted
        out[group] = dict(tally)
    lost: dict[str, list[Fact]] = defaultdict(list)
    for r in results:
        for kind, facts in r["lost"].items():
            lost[kind] += facts
    out["lost"] = dict(lost)
    out["stale_only"] = [f for r in results for f in r["stale_only"]]
    out["as_current"] = [f for r in results for f in r["as_current"]]
    precision = dict(results[-1]["precision"])
    for key in ("invented", "unsupported", "pasted"):
        precision[key] = [x for r in results for x in r["precision"][key]]
    precision["repeated"] = sum(r["precision"]["repeated"] for r in results)
    out["precision"] = precision
    return out


def cell(pair: list[int] | None) -> str:
    return f"{pair[0]}/{pair[1]}" if pair else "-"


def total(tally: dict[str, list[int]]) -> list[int]:
    return [sum(v[0] for v in tally.values()), sum(v[1] for v in tally.values())]


def print_size(label: str, session: Session, cases: list[dict[str, Any]], show_lost: bool, generator: str) -> None:
    tokens = session.chars() // 4
    print(f"\n{generator} {label}: {len(session.messages):,} messages, ~{tokens:,} tokens, {len(session.facts)} facts, seed {session.seed}")
    shown = kinds_of([session])
    kinds = "  ".join(f"{SHORT[k]:>6}" for k in shown)
    print(f"{'window':>7} {'count':>6}  {kinds}  {'total':>7}  {'stale':>5} {'old':>3} {'inv':>3} {'unsup':>5} {'paste':>5} {'rep':>3}"
          f"  {'prompt':>7} {'fits':>4} {'kept':>5} {'secs':>6}")
    for case in cases:
        p = case["precision"]
        for group in ("folded", "all"):
            tally = case[group]
            row = "  ".join(f"{cell(tally.get(k)):>6}" for k in shown)
            tail = (f"{len(case['stale_only']):>5} {len(case['as_current']):>3} {len(p['invented']):>3} {len(p['unsupported']):>5}"
                    f" {len(p['pasted']):>5} {p['repeated']:>3}  {case['prompt_tokens']:>7,}{'~' if case['estimated'] else ' '}"
                    f"{'yes' if case['fits'] else 'NO':>4} {case['verbatim']:>5} {case['seconds']:>6.2f}"
                    if group == "folded" else "")
            print(f"{case['window'] if group == 'folded' else '':>7} {group:>6}  {row}  {cell(total(tally)):>7}  {tail}")
        if p["shares"]:
            print("          shares: " + ", ".join(f"{t} {v:.0%}" for t, v in p["shares"].items()))
        if show_lost:
            for what in ("invented", "unsupported", "pasted"):
                for body in p[what][:8]:
                    print(f"          {what}: {body[:150]}")
            for kind, facts in case["lost"].items():
                values = "; ".join(f"[{f.index}] {f.value[:70]}" for f in facts)
                print(f"          lost {kind}: {values}")
            for f in case["stale_only"]:
                print(f"          stale only: [{f.index}] {f.value} (kept: {f.stale})")
            for f in case["as_current"]:
                print(f"          old value stated as current: [{f.index}] {f.stale} (now {f.value})")


def record(label: str, session: Session, case: dict[str, Any]) -> dict[str, Any]:
    """A JSON-able record of one size and window."""
    facts = lambda fs: [{"kind": f.kind, "value": f.value, "index": f.index} for f in fs]  # noqa: E731
    p = case["precision"]
    return {"size": label, "messages": len(session.messages), "tokens": session.chars() // 4,
            "window": case["window"], "prompt_tokens": case["prompt_tokens"], "fits": case["fits"],
            "seconds": round(case["seconds"], 3), "verbatim_messages": case["verbatim"],
            "folded": case["folded"], "all": case["all"], "stale_only": facts(case["stale_only"]),
            "old_as_current": facts(case["as_current"]),
            "lost": {k: facts(v) for k, v in case["lost"].items()},
            "precision": {"lines": p["lines"], "invented": p["invented"], "unsupported": p["unsupported"],
                          "pasted": p["pasted"], "repeated": p["repeated"], "shares": p["shares"]},
            "stats": {k: v for k, v in case["stats"].items() if isinstance(v, (int, float, str, bool, list))}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="150k,1.2m", help="session sizes in tokens (default 150k,1.2m)")
    parser.add_argument("--windows", default="4096,8192,32768", help="context windows in tokens")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--gen", default=",".join(GENERATORS),
                        help=f"session generators, comma-separated (default: all of {', '.join(GENERATORS)})")
    parser.add_argument("--json", action="store_true", help="one JSON record per size and window")
    parser.add_argument("--lost", action="store_true", help="list the values lost at each window")
    parser.add_argument("--turns", type=int, default=1,
                        help="compact at this many user turns spread over the session, one Compactor for all, and "
                             "score the last (default 1: once, from scratch; secs is then the whole session's)")
    parser.add_argument("--score-last", type=int, default=1, metavar="K",
                        help="with --turns: score each of the last K turns against the facts planted by then, "
                             "summed (default 1: the last turn only)")
    args = parser.parse_args(argv)
    try:
        sizes = [parse_size(s) for s in args.sizes.split(",")]
        windows = [int(w) for w in args.windows.split(",")]
    except ValueError as exc:
        parser.error(f"--sizes/--windows: {exc} (e.g. --sizes 150k,1.2m --windows 4096,8192)")
    generators = [g.strip() for g in args.gen.split(",") if g.strip()]
    unknown = [g for g in generators if not (Path(__file__).parent / f"{g}.py").exists()]
    if unknown:
        parser.error(f"--gen: no generator {', '.join(unknown)} in bench/ (known: {', '.join(GENERATORS)})")
    configure_logging()
    records = []
    if not args.json:
        print("folded: facts whose message left the verbatim part; all: every planted fact. kept/planted.\n"
              "stale: corrections kept only as the value they corrected (must be 0); prompt: tokens sent "
              "(~ estimated); kept: messages sent verbatim; secs: one compaction from scratch.")
    for generator in generators:
        for label, count in sizes:
            session = make_session(generator, args.seed, count)
            cases = [run_case(session, w, args.turns, args.score_last) for w in windows]
            if args.json:
                records += [{"generator": generator, **record(label, session, c)} for c in cases]
            else:
                print_size(label, session, cases, args.lost, generator)
    if args.json:
        json.dump(records, sys.stdout, indent=1)
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
