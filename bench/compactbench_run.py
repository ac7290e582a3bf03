"""compactbench 0.1.0 against our product: cases over budget, passed through, and its scores.

    python bench/compactbench_run.py                           # starter + elite_practice, 50/70/100%
    python bench/compactbench_run.py --budgets 0.3,0.5,1.0 --suites starter
    python bench/compactbench_run.py --reader mock             # compactbench's own offline provider
    python bench/compactbench_run.py --dump /tmp/cb-out        # our artifacts per cycle, to read

What compactbench does (read from its source): each case is a short scripted conversation
(7-17 turns, ~90-210 cl100k tokens: a rule, a decision and its override, two similar entities,
plus off-topic distractor turns). A method's ``compact(transcript, config, previous_artifact)``
returns an artifact (``summaryText`` <= 8,000 chars plus optional structured sections); a
*reader model* then answers each evaluation question from the artifact alone, and the answer is
checked (``contains_normalized``: lowercase, whitespace collapsed, substring; ``forbidden_absent``:
the phrase must NOT be in the answer). Weighted: decisions and forbidden behaviours 3, facts and
open tasks 2, entities and planning 1; times (1 - contradiction rate), averaged over drift cycles
(default 2: a continuation user turn and the reader's reply are appended, then re-compacted).

compactbench gives a method NO budget and has no notion of "over budget"; it reports the
compression ratio (cl100k tokens of the transcript / of the artifact). The budget here is ours:
``contextWindow`` = ceil(budget x the cycle's transcript tokens), counted with cl100k_base (the
product's ``tokenizer: cl100k_base``, the encoding compactbench itself uses), with
``compactAt`` 1.0, ``compactTo`` 0.9 (``--compact-to``), ``keepRecentTokens`` 0 and no summary
model, as in bench/conformance.py. "Over budget" is an artifact whose messages hold more tokens
than that window; "passed through" is a cycle where the product left the prompt unchanged (with
its notice saying why). Budget 1.0 (a window as large as the case's own text) is the "nothing to
do" control, except that the product adds its per-message framing (``messageOverheadTokens``, 4)
to its count and so still sees such a prompt as over the window.

Our artifact is the compacted prompt itself, rendered ``[role] content`` per message, in
``summaryText`` (structured sections left empty: the product returns messages, not
compactbench's six sections). The product is called through ``call_product`` of
bench/conformance.py (the public ``compact()`` when it exists, else the host path).

Readers (no model is reachable offline):

- ``context`` (default): answers every question with the whole context it was given, so a
  ``contains`` item passes exactly when the needed string is in our artifact (what a perfect
  reader could do), and a ``forbidden_absent`` item passes only when the forbidden phrase is NOT
  in the artifact. That second half is harsh: a ledger that keeps "never X" verbatim fails the
  planning item that a real model would pass. So the recall-only figure (contains items) is
  printed next to compactbench's own score, and forbidden items separately.
- ``mock``: compactbench's MockProvider (every answer empty): contains 0, forbidden 1. Shown only
  to make plain that compactbench's offline default scores nothing.
- ``ollama``/``groq``/``google-ai-studio``: compactbench's real providers, if you have one
  (``--model`` names it).

The suites are not in compactbench's wheel; they are in its sdist on PyPI, which this script
fetches with pip once (``pip download compactbench==0.1.0 --no-binary :all: --no-deps``) into
``~/.cache/context-compactor/compactbench`` unless ``--benchmarks-dir`` points at them.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import re
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conformance import Tally as ProductTally
from conformance import call_product, quiet_logs, render

CACHE = Path.home() / ".cache" / "context-compactor" / "compactbench"
VERSION = "0.1.0"


def suites_dir(explicit: Path | None) -> Path:
    """benchmarks/public of compactbench's sdist, fetched from PyPI with pip on first use."""
    if explicit is not None:
        return explicit
    target = CACHE / f"compactbench-{VERSION}" / "benchmarks" / "public"
    if target.is_dir():
        return target
    CACHE.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, "-m", "pip", "download", f"compactbench=={VERSION}",
                        "--no-binary", ":all:", "--no-deps", "--quiet", "-d", tmp], check=True)
        (sdist,) = Path(tmp).glob("compactbench-*.tar.gz")
        with tarfile.open(sdist) as tar:
            members = [m for m in tar.getmembers() if "/benchmarks/" in m.name]
            tar.extractall(CACHE, members=members, filter="data")
    return target


def use_shipped_cl100k() -> Any:
    """compactbench counts with tiktoken's cl100k_base, which it would download; use our copy."""
    from compactbench.scoring import compression
    from context_compactor.tokens import load_encoding

    encoding = load_encoding("cl100k_base")
    compression._ENCODER_CACHE["cl100k_base"] = encoding
    return encoding


# --- the reader ---------------------------------------------------------------------------------

_CONTEXT = re.compile(r"You have the following summary of a prior conversation:\n\n(.*?)\n\n"
                      r"(?:Based only on this summary|The user now says)", re.S)


def context_reader():
    from compactbench.providers import CompletionRequest, CompletionResponse, Provider

    class ContextReader(Provider):
        """Answers a question with the whole context; replies to a continuation in one line."""

        key: ClassVar[str] = "context"

        async def complete(self, request: CompletionRequest) -> CompletionResponse:
            found = _CONTEXT.search(request.prompt)
            if "Respond as the assistant" in request.prompt:
                text = "Understood, continuing with the plan as agreed."
            else:
                text = found.group(1) if found else ""
            return CompletionResponse(text=text, prompt_tokens=len(request.prompt) // 4,
                                      completion_tokens=len(text) // 4, model=request.model)

    return ContextReader()


# --- our method -----------------------------------------------------------------------------------


@dataclass
class Tally(ProductTally):
    """The product's tally (one call a cycle), and what compactbench adds: the cases with a cycle over the
    window, the artifacts cut to its 8,000 characters, and the artifacts themselves."""

    over_8000_chars: int = 0
    over_unsaid: int = 0  # cycles over the window whose result claims it fits (a bug if ever above 0)
    cases_over: set = field(default_factory=set)
    dumps: list = field(default_factory=list)


def make_method(budget: float, compact_to: float, encoding: Any, tally: Tally):
    from compactbench.compactors import Compactor
    from compactbench.contracts import CompactionArtifact, StructuredState

    class Ours(Compactor):
        name: ClassVar[str] = "context-compactor"
        version: ClassVar[str] = "bench"
        case_id: ClassVar[str] = ""

        async def compact(self, transcript, config=None, previous_artifact=None):
            messages = [{"role": t.role.value, "content": t.content} for t in transcript.turns]
            source = sum(len(encoding.encode(t.content, disallowed_special=())) for t in transcript.turns)
            window = max(1, math.ceil(budget * source))
            result = call_product(messages, context_window=window, tokenizer="cl100k_base",
                                  compact_at=1.0, compact_to=compact_to, keep_recent_tokens=0,
                                  summarize_with_session_model=False)
            text = render(result.messages)
            # Counted like the window: the messages' contents, without the [role] prefixes of the render.
            tokens = sum(len(encoding.encode(str(m.get("content") or ""), disallowed_special=()))
                         for m in result.messages)
            tally.count(result, passed_through=not result.compacted, over_window=tokens > window)
            if tokens > window:
                tally.cases_over.add(Ours.case_id)
                tally.over_unsaid += bool(result.stats.get("fits", True))
            warnings = []
            if len(text) > 8000:  # compactbench's limit on summaryText
                tally.over_8000_chars += 1
                warnings.append("summaryText cut to 8000 characters")
                text = text[:8000]
            tally.dumps.append((Ours.case_id, window, tokens, text))
            return CompactionArtifact(
                summaryText=text, structured_state=StructuredState(),
                selectedSourceTurnIds=[t.id for t in transcript.turns], warnings=warnings,
                methodMetadata={"window": window, "tokens": tokens, "compacted": result.compacted,
                                "api": result.api})

    return Ours


# --- the run -----------------------------------------------------------------------------------------


async def run_suite(suite: str, root: Path, budget: float, args, encoding, reader) -> tuple[dict, Tally, dict]:
    from compactbench.dsl import DifficultyLevel, load_suite, validate_template
    from compactbench.engine import derive_case_seed, generate_case
    from compactbench.runner.persistence import aggregate_run_metrics
    from compactbench.runner.run import _execute_case, _suite_version

    templates = load_suite(root / suite)
    for template in templates:
        validate_template(template)
    version = _suite_version(templates)
    tally = Tally()
    method = make_method(budget, args.compact_to, encoding, tally)
    results = []
    recall = {"n": 0, "held": 0.0, "forbidden_n": 0, "forbidden_ok": 0.0}
    for template in templates:
        for slot in range(args.case_count):
            seed = derive_case_seed(f"{suite}@{version}", args.seed_group, slot)
            case = generate_case(template, seed, DifficultyLevel(args.difficulty))
            method.case_id = case.case_id
            result = await _execute_case(case=case, compactor=method(reader, args.model), provider=reader,
                                         model=args.model, drift_cycles=args.drift_cycles, case_seed=seed)
            results.append(result)
            for cycle in result.cycles:
                for item in cycle.scorecard.item_scores:
                    if item.check_type == "forbidden_absent":
                        recall["forbidden_n"] += 1
                        recall["forbidden_ok"] += item.score
                    else:
                        recall["n"] += 1
                        recall["held"] += item.score
    return aggregate_run_metrics(results) | {"cases": len(results)}, tally, recall


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--suites", default="starter,elite_practice")
    parser.add_argument("--budgets", default="0.5,0.7,1.0", help="fractions of each cycle's transcript tokens")
    parser.add_argument("--compact-to", type=float, default=0.9)
    parser.add_argument("--difficulty", default="medium")
    parser.add_argument("--case-count", type=int, default=3, help="cases per template (compactbench's default)")
    parser.add_argument("--drift-cycles", type=int, default=2)
    parser.add_argument("--seed-group", default="default")
    parser.add_argument("--reader", default="context", help="context | mock | ollama | groq | google-ai-studio")
    parser.add_argument("--model", default="mock-deterministic")
    parser.add_argument("--benchmarks-dir", type=Path, default=None)
    parser.add_argument("--dump", type=Path, default=None, help="write our artifacts here")
    args = parser.parse_args(argv)
    quiet_logs()

    root = suites_dir(args.benchmarks_dir)
    encoding = use_shipped_cl100k()
    if args.reader == "context":
        reader = context_reader()
    else:
        from compactbench.providers import get_provider_cls

        reader = get_provider_cls(args.reader)()

    print(f"compactbench {VERSION}, suites from {root}; reader: {args.reader}; difficulty {args.difficulty}, "
          f"{args.case_count} cases/template, {args.drift_cycles} drift cycles")
    print(f"our mapping: contextWindow = ceil(budget x transcript cl100k tokens), tokenizer cl100k_base, "
          f"compactAt 1.0, compactTo {args.compact_to:g}, keepRecentTokens 0, no summary model")
    head = (f"{'suite':15} {'budget':>6} {'cases':>5} {'over':>4} {'cyc':>4} {'passthru':>8} {'unsaid':>6} {'score':>6} "
            f"{'constr':>6} {'contra':>6} {'ratio':>5} {'recall':>6} {'forbid-ok':>9}")
    print(head)
    print("-" * len(head))
    all_tallies = []
    for suite in args.suites.split(","):
        for budget in (float(b) for b in args.budgets.split(",")):
            metrics, tally, recall = asyncio.run(run_suite(suite, root, budget, args, encoding, reader))
            all_tallies.append((suite, budget, tally))
            print(f"{suite:15} {budget:>6.0%} {metrics['cases']:>5} {len(tally.cases_over):>4} {tally.calls:>4} "
                  f"{tally.passed_through:>8} {tally.over_unsaid:>6} {metrics['overall_score']:>6.3f} "
                  f"{metrics['constraint_retention']:>6.3f} {metrics['contradiction_rate']:>6.3f} "
                  f"{metrics['compression_ratio']:>5.2f} "
                  f"{recall['held'] / max(1, recall['n']):>6.1%} "
                  f"{recall['forbidden_ok'] / max(1, recall['forbidden_n']):>9.1%}")
    print()
    print("over = cases with a cycle whose artifact exceeds the window; passthru = cycles "
          "the product left unchanged; unsaid = cycles over the window whose result claims it fits (fits true); "
          "score/constr/contra/ratio = compactbench's overall score, "
          "constraint retention, contradiction rate, compression ratio; recall = contains/set items held; "
          "forbid-ok = forbidden_absent items passed (with the context reader: phrase absent from the artifact)")
    for suite, budget, tally in all_tallies:
        for notice, n in tally.notices.most_common(3):
            print(f"  {suite} {budget:.0%}: {n}x {notice}")
        if tally.over_8000_chars:
            print(f"  {suite} {budget:.0%}: {tally.over_8000_chars} artifacts cut to 8000 chars")
    if args.dump:
        args.dump.mkdir(parents=True, exist_ok=True)
        n = 0
        for suite, budget, tally in all_tallies:
            for i, (case_id, window, tokens, text) in enumerate(tally.dumps):
                slug = re.sub(r"[^A-Za-z0-9.]+", "-", case_id)
                (args.dump / f"{suite}-b{budget:g}-{i:03}-{slug}.txt").write_text(
                    f"# window {window} tokens, artifact {tokens} tokens\n{text}\n")
                n += 1
        print(f"wrote {n} artifacts to {args.dump}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
