"""Benchmark: the compaction gateway against the same fake upstream reached directly.

    python bench/gateway.py [--requests 400] [--seconds 5] [--concurrency 16] [--streams 60]
                            [--parts latency,throughput,streaming,soak] [--soak 10000]

Starts the fake OpenAI-compatible server (tests/fakes) and ``context-compactor serve`` as processes
of their own on loopback, then measures from this process, with a minimal keep-alive HTTP/1.1
client (so that client overhead is small and the same on both paths):

- added latency, p50 and p99, of sequential non-streamed requests with 8 KB and 200 KB bodies
  (conversations under the trigger: nothing to compact);
- sustained requests/s with concurrent connections (8 KB bodies);
- streaming: time to the first event, and the mean gap between events, as ratios gateway/direct,
  for an upstream that takes 20, 50 and 200 ms to its first token (a fast GPU server with the
  prompt's prefix cached; any CPU model takes longer) and 5 ms a token after that; turns back to
  back, and turns after a pause of 0.1 s and 1 s before each request (an agent running a tool).
  On a small virtual machine the first work after an idle pause runs far slower than in a busy
  loop (memory touched again costs about 1 us a page after 20 ms idle, 30 us after 1 s), for the
  upstream and the gateway alike, so the pauses show what that costs.

- soak (issue 21, defect 4; only with ``--parts soak``): the gateway's resident memory after 1,000 and
  after ``--soak`` (10,000) mixed requests of a gateway of its own with a 4,096-token window: one in
  ten a long conversation of a new session that compacts, three in ten streamed, one in ten passed
  through to another path, the rest chats of 500 named sessions and of unnamed ones; target: RSS
  at the end within 1.3x of that after 1,000. What grows after 1,000 is what fills a bounded cache
  late (tests/test_soak_memory.py holds the bounds that are ours: SQLite's page cache given back
  after each batch, the sessions count in fixed memory).

Every figure but the soak's is taken twice through the gateway, on the same runs: with its own HTTP/1.1 client
(:mod:`context_compactor.gateway.http1`) and with aiohttp's client in its place (``--clients``,
issue 14 E7: the library is used if it adds no more than 0.3 ms of p50 and keeps the throughput).

- the three APIs (``--parts apis``): the added p50 of ``/v1/messages`` and ``/v1/responses`` beside
  ``/v1/chat/completions`` for the same conversation (8 KB and 200 KB), and each one's ratio to chat's.

Prints figures; asserts nothing. Targets (issue 5): added p50 <= 2 ms at 8 KB, streaming TTFB ratio
<= 1.1, >= 300 requests/s through the gateway on two cores; (issue 23) the Messages and Responses routes'
added p50 within 1.5x of chat completions'.

- workers (issue 27; only with ``--workers N``, and then alone): throughput (8 KB bodies, ``--concurrency``
  connections, a session each) and added p50 latency (8 KB, sequential) of ``serve`` with 1 worker and with
  N, side by side, on one SQLite store, with the load average before and after (the machine is shared;
  target: 2 workers at least 1.6x the throughput of 1 on two cores, added p50 unchanged).

    python bench/gateway.py --serve-aiohttp serve --upstream URL ...   # (internal) the gateway on aiohttp's client
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.util
import json
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BLOCK = 10  # streamed requests in a row to one port
# (first token after, pause before each request, share of --streams): back-to-back turns at three
# prefill times, then a turn after a short tool call and after a one-second pause
STREAM_CASES = ((0.02, 0.0, 1.0), (0.05, 0.0, 1.0), (0.2, 0.0, 1.0), (0.02, 0.1, 1.0), (0.02, 1.0, 0.3),
                (0.2, 1.0, 0.3))
SCRIPT = str(Path(sys.executable).parent / "context-compactor")


class Conn:
    """One keep-alive HTTP/1.1 connection; just enough protocol for JSON and chunked SSE answers."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def open(self) -> Conn:
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        return self

    async def post(self, path: str, body: bytes, *, events: list[float] | None = None, extra: str = "") -> int:
        """Send a POST; return the status. With ``events``, append the arrival time of each body chunk.
        ``extra`` is more header lines, each ending in CRLF."""
        assert self.reader is not None and self.writer is not None
        head = (f"POST {path} HTTP/1.1\r\nhost: {self.host}:{self.port}\r\ncontent-type: application/json\r\n"
                f"{extra}content-length: {len(body)}\r\n\r\n").encode()
        self.writer.write(head + body)
        status_line = await self.reader.readline()
        status = int(status_line.split()[1])
        length, chunked = 0, False
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            if name.lower() == "content-length":
                length = int(value)
            elif name.lower() == "transfer-encoding" and "chunked" in value.lower():
                chunked = True
        if not chunked:
            await self.reader.readexactly(length)
            return status
        while True:
            size = int((await self.reader.readline()).split(b";")[0], 16)
            if size == 0:
                await self.reader.readline()
                return status
            await self.reader.readexactly(size + 2)
            if events is not None:
                events.append(time.perf_counter())

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


def body(size: int, *, stream: bool = False) -> bytes:
    """A chat request of about ``size`` bytes: a system prompt and alternating turns."""
    messages: list[dict[str, Any]] = [{"role": "system", "content": "You are a coding agent."}]
    i = 0
    while len(json.dumps(messages)) < size - 200:
        role = "user" if i % 2 == 0 else "assistant"
        messages.append({"role": role, "content": f"message {i}: " + "lorem ipsum dolor sit amet " * 20})
        i += 1
    return json.dumps({"model": "fake-model", "messages": messages, "stream": stream}).encode()


@contextmanager
def process(args: list[str], env: dict[str, str], ready: str, log: Path, pids: list[int] | None = None) -> Iterator[int]:
    """Start a server process, wait for its port line, yield the port; stop it by PID after. ``pids``
    gets the process's PID."""
    with log.open("wb") as sink:
        proc = subprocess.Popen(args, stdout=sink, stderr=subprocess.STDOUT, env=env)
    if pids is not None:
        pids.append(proc.pid)
    try:
        deadline = time.monotonic() + 30
        while not (found := re.search(ready, log.read_text(errors="replace"))):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{args[0]} did not start: {log.read_text()[-2000:]}")
            time.sleep(0.05)
        yield int(found.group(1))
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


async def latencies(port: int, payload: bytes, n: int, path: str = "/v1/chat/completions") -> list[float]:
    conn = await Conn("127.0.0.1", port).open()
    out = []
    try:
        for _ in range(20):  # warm-up: connections, sessions, caches
            await conn.post(path, payload)
        for _ in range(n):
            start = time.perf_counter()
            assert await conn.post(path, payload) == 200
            out.append(time.perf_counter() - start)
    finally:
        conn.close()
    return out


async def throughput(port: int, payload: bytes, seconds: float, concurrency: int) -> float:
    done = 0
    deadline = time.perf_counter() + seconds

    async def worker(k: int) -> None:
        nonlocal done
        conn = await Conn("127.0.0.1", port).open()
        mine = payload.replace(b'"stream"', b'"user": "bench-%d", "stream"' % k)  # a session per connection
        try:
            await conn.post("/v1/chat/completions", mine)
            while time.perf_counter() < deadline:
                assert await conn.post("/v1/chat/completions", mine) == 200
                done += 1
        finally:
            conn.close()

    start = time.perf_counter()
    await asyncio.gather(*(worker(k) for k in range(concurrency)))
    return done / (time.perf_counter() - start)


async def streaming(ports: tuple[int, int], payload: bytes, n: int, first: float,
                    pause: float) -> list[tuple[list[float], list[float]]]:
    """Per port and request: time to the first body chunk, and the mean gap between the following ones.

    ``first`` is the upstream's delay before its first event (its "prefill" time). Before each
    request the client waits ``pause`` seconds, as an agent does between turns (a tool runs, a
    person types), so the upstream and the gateway have both been idle that long. Requests go in
    blocks of ``BLOCK`` (``n`` rounded up to whole blocks), to one port and then the other, in
    turn, so that the machine's drift falls on both alike; each block starts on a fresh connection with one request that is not counted.
    """
    out: list[tuple[list[float], list[float]]] = [([], []) for _ in ports]
    extra = f"x-fake-first-chunk-delay: {first}\r\n"
    order = list(zip(ports, out))
    for block in range(math.ceil(n / BLOCK)):
        for port, (ttfb, gaps) in order if block % 2 == 0 else reversed(order):
            conn = await Conn("127.0.0.1", port).open()
            try:
                await conn.post("/v1/chat/completions", payload, events=[], extra=extra)
                for _ in range(BLOCK):
                    await asyncio.sleep(pause)
                    events: list[float] = []
                    start = time.perf_counter()
                    assert await conn.post("/v1/chat/completions", payload, events=events, extra=extra) == 200
                    ttfb.append(events[0] - start)
                    gaps.append(statistics.mean(b - a for a, b in zip(events, events[1:])))
            finally:
                conn.close()
    return out


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ms(seconds: float) -> str:
    return f"{1000 * seconds:8.3f} ms"


class AiohttpUpstream:
    """aiohttp's client behind the interface of :class:`context_compactor.gateway.http1.Client`."""

    def __init__(self, config: Any, activity: Any) -> None:
        from urllib.parse import urlsplit

        parts = urlsplit(config.base)
        self.origin = f"{parts.scheme}://{parts.netloc}"
        self.config, self.activity = config, activity
        self.session: Any = None

    async def request(self, method: str, target: str, headers: list[tuple[bytes, bytes]], body: bytes) -> Any:
        import aiohttp

        from context_compactor.gateway.upstream import UpstreamTimeout, UpstreamUnreachable

        if self.session is None:
            connector = aiohttp.TCPConnector(limit=self.config.max_connections, keepalive_timeout=30, ttl_dns_cache=None)
            timeout = aiohttp.ClientTimeout(connect=self.config.connect_timeout, sock_read=self.config.read_timeout)
            self.session = aiohttp.ClientSession(connector=connector, timeout=timeout, auto_decompress=False,
                                                 skip_auto_headers=("User-Agent", "Accept-Encoding", "Content-Type"))
        self.activity(1)
        try:
            response = await self.session.request(method, self.origin + target, data=body, allow_redirects=False,
                                                  headers=[(k.decode("latin-1"), v.decode("latin-1")) for k, v in headers])
        except asyncio.TimeoutError:
            self.activity(-1)
            raise UpstreamTimeout("timed out", url=self.origin) from None
        except aiohttp.ClientError as exc:
            self.activity(-1)
            raise UpstreamUnreachable(f"cannot reach the upstream ({exc})", url=self.origin) from None
        return AiohttpResponse(response, self.activity)

    async def aclose(self) -> None:
        if self.session is not None:
            await self.session.close()


class AiohttpResponse:
    def __init__(self, response: Any, activity: Any) -> None:
        self.response, self.activity = response, activity
        self.status_code = response.status
        self.headers = list(response.raw_headers)
        self.closed = False

    def header(self, name: bytes) -> bytes | None:
        return next((v for k, v in self.headers if k.lower() == name), None)

    async def iter_bytes(self) -> Any:
        async for piece in self.response.content.iter_any():
            yield piece

    async def read(self) -> bytes:
        return bytes(await self.response.read())

    async def aclose(self) -> None:
        if not self.closed:
            self.closed = True
            self.response.release()
            self.activity(-1)


def serve_on_aiohttp(argv: list[str]) -> int:
    """``context-compactor serve ...`` with aiohttp's client in place of the gateway's own."""
    import context_compactor.gateway as package
    from context_compactor.gateway.app import Gateway
    from context_compactor.setup_cli.main import main as cli

    class OnAiohttp(Gateway):
        @property
        def client(self) -> Any:
            if self.__dict__.get("_client") is None:
                self.__dict__["_client"] = AiohttpUpstream(self.config, self._activity)
            return self.__dict__["_client"]

    package.Gateway = OnAiohttp
    return cli(argv)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--serve-aiohttp"]:
        return serve_on_aiohttp(argv[1:])
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=400, help="sequential requests per latency figure")
    parser.add_argument("--seconds", type=float, default=5.0, help="duration of each throughput run")
    parser.add_argument("--concurrency", type=int, default=16, help="connections in the throughput runs")
    parser.add_argument("--parts", default="latency,apis,throughput,streaming",
                        help="which figures, comma-separated (default: all but soak)")
    parser.add_argument("--streams", type=int, default=60, help="streamed requests per streaming figure (per path)")
    parser.add_argument("--soak", type=int, default=10_000, help="mixed requests of the soak row (default 10000)")
    parser.add_argument("--workers", type=int, default=0, metavar="N",
                        help="instead of the parts: serve with 1 worker and with N, side by side")
    parser.add_argument("--reps", type=int, default=3, metavar="R",
                        help="with --workers: rounds of 1 worker then N, each a fresh gateway; the medians are "
                             "printed, with the range (default 3)")
    parser.add_argument("--clients", default="own,aiohttp",
                        help="the gateway's upstream client(s) to measure, comma-separated (default: own,aiohttp)")
    args = parser.parse_args(argv)
    args.parts = {part.strip() for part in args.parts.split(",") if part.strip()}
    unknown = args.parts - {"latency", "apis", "throughput", "streaming", "soak"}
    if unknown:
        parser.error(f"--parts: unknown part(s) {', '.join(sorted(unknown))}; choose from latency, apis, throughput, "
                     "streaming, soak")
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    env = {**os.environ, "PYTHONPATH": str(ROOT / "tests")}
    with tempfile.TemporaryDirectory(prefix="cc-bench-") as tmp:
        work = Path(tmp)
        env.update(HOME=str(work), OPENCLAW_STATE_DIR=str(work / "state"))
        fake = [sys.executable, "-m", "fakes.apis", "--port", "0", "--reply", "ok " * 20, "--chunk-delay", "0.005"]
        with process(fake, env, r"PORT=(\d+)", work / "fake.log") as up:
            if args.workers:
                compare_workers(up, env, work, args)
                return 0
            gateways: dict[str, int] = {}
            with contextlib.ExitStack() as stack:
                for name in [c.strip() for c in args.clients.split(",") if c.strip()]:
                    if name == "aiohttp" and importlib.util.find_spec("aiohttp") is None:
                        print("aiohttp is not installed: its figures are left out (pip install aiohttp)")
                        continue
                    launcher = [SCRIPT] if name == "own" else [sys.executable, __file__, "--serve-aiohttp"]
                    serve = [*launcher, "serve", "--upstream", f"http://127.0.0.1:{up}/v1", "--port", "0",
                             "--store", str(work / f"store-{name}.sqlite"), "--context-window", "131072"]
                    gateways[name] = stack.enter_context(
                        process(serve, env, r"serving http://127\.0\.0\.1:(\d+)/v1", work / f"gateway-{name}.log"))
                report(up, gateways, args)
            if "soak" in args.parts:
                pids: list[int] = []
                serve = [SCRIPT, "serve", "--upstream", f"http://127.0.0.1:{up}/v1", "--port", "0", "-q",
                         "--store", str(work / "store-soak.sqlite"), "--context-window", "4096"]
                with process(serve, env, r"serving http://127\.0\.0\.1:(\d+)/v1", work / "gateway-soak.log",
                             pids) as gw:
                    soak(gw, pids[0], args.soak)
    return 0


def compare_workers(up: int, env: dict[str, str], work: Path, args: argparse.Namespace) -> None:
    """Throughput and added p50 of serve with 1 worker and with ``args.workers``, in ``args.reps`` rounds.

    The rounds alternate (1, N, 1, N, ...) so that a slow moment of the machine falls on both; each
    figure is the median of its rounds, and the ratio is that of the medians, with the range of the
    rounds' own ratios beside it.
    """
    payload = body(8 * 1024)
    print(f"serve --workers: 1 vs {args.workers} ({os.cpu_count()} cores; fake upstream, gateway and client are "
          f"separate processes; {args.reps} alternating rounds; load average before: {_load()})")
    direct_rps = asyncio.run(throughput(up, payload, args.seconds, args.concurrency))
    direct_p50 = pct(asyncio.run(latencies(up, payload, args.requests)), 0.5)
    rounds: dict[int, list[tuple[float, float]]] = {1: [], args.workers: []}
    for r in range(max(1, args.reps)):
        for n in (1, args.workers):
            store = work / f"store-workers-{n}-{r}.sqlite"
            serve = [SCRIPT, "serve", "--upstream", f"http://127.0.0.1:{up}/v1", "--port", "0", "-q",
                     "--workers", str(n), "--store", str(store), "--context-window", "131072"]
            with process(serve, env, r"serving http://127\.0\.0\.1:(\d+)/v1", work / f"gateway-workers-{n}.log") as gw:
                rps = asyncio.run(throughput(gw, payload, args.seconds, args.concurrency))
                p50 = pct(asyncio.run(latencies(gw, payload, args.requests)), 0.5)
            rounds[n].append((rps, p50 - direct_p50))
            print(f"  round {r + 1}: {n} worker{'s' if n > 1 else ' '} {rps:8.0f} req/s   added p50 {ms(p50 - direct_p50)}",
                  flush=True)
    print(f"  throughput: 8 KB bodies, {args.concurrency} connections, {args.seconds:g} s; added p50: 8 KB, "
          f"{args.requests} sequential requests")
    print(f"  direct            {direct_rps:8.0f} req/s   p50 {ms(direct_p50)}")
    base = statistics.median(rps for rps, _ in rounds[1])
    for n, runs in rounds.items():
        rps = statistics.median(x for x, _ in runs)
        added = statistics.median(a for _, a in runs)
        ratios = [x / one for (x, _), (one, _) in zip(runs, rounds[1])]
        spread = f", rounds {min(ratios):.2f}x-{max(ratios):.2f}x" if n > 1 and len(ratios) > 1 else ""
        print(f"  {n} worker{'s' if n > 1 else ' '}         {rps:8.0f} req/s   added p50 {ms(added)}   "
              f"({rps / base:.2f}x of 1 worker's throughput{spread})")
    print(f"  load average after: {_load()}")


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def rss_mb(pid: int) -> float:
    """The resident memory of process ``pid``, in MB (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


def soak_request(i: int) -> tuple[str, bytes, str]:
    """Request ``i`` of the soak mix: (path, body, extra header lines)."""
    kind = i % 10
    if kind == 0:  # a long conversation of a new session: compacts at a 4,096-token window
        messages: list[dict[str, Any]] = [{"role": "system", "content": "You are a coding agent."}]
        for k in range(40):
            messages.append({"role": "user" if k % 2 == 0 else "assistant",
                             "content": f"soak {i} step {k}: " + f"edit module-{i}-{k} and rerun the tests " * 12})
        return "/v1/chat/completions", json.dumps({"model": "fake-model", "messages": messages}).encode(), \
            f"x-session-id: soak-{i}\r\n"
    if kind == 4:
        return "/v1/embeddings", json.dumps({"model": "fake-model", "input": f"text {i}"}).encode(), ""
    chat = json.loads(body(8 * 1024, stream=kind in (1, 2, 3)))
    chat["messages"][1]["content"] = f"request {i}: " + chat["messages"][1]["content"]
    header = f"x-session-id: named-{i % 500}\r\n" if kind in (5, 6) else ""  # the rest: unnamed sessions
    return "/v1/chat/completions", json.dumps(chat).encode(), header


async def soak_run(port: int, start: int, stop: int, concurrency: int = 8) -> None:
    queue = iter(range(start, stop))

    async def worker() -> None:
        conn = await Conn("127.0.0.1", port).open()
        try:
            for i in queue:
                path, payload, extra = soak_request(i)
                await conn.post(path, payload, extra=extra)
        finally:
            conn.close()

    await asyncio.gather(*(worker() for _ in range(concurrency)))


def soak(port: int, pid: int, total: int) -> None:
    print(f"\nsoak: {total:,} mixed requests (1 in 10 compacts a new session, 3 streamed, 1 passed through), "
          "8 connections, a 4,096-token window")
    started = time.perf_counter()
    asyncio.run(soak_run(port, 0, min(1000, total)))
    time.sleep(1.0)  # queued bookkeeping runs
    first = rss_mb(pid)
    print(f"  RSS after {min(1000, total):>6,} requests  {first:7.1f} MB   ({time.perf_counter() - started:.0f} s)")
    marks = sorted({m for m in (2500, 5000, total) if 1000 < m <= total})
    done = min(1000, total)
    for mark in marks:
        asyncio.run(soak_run(port, done, mark))
        done = mark
        time.sleep(1.0)
        print(f"  RSS after {mark:>6,} requests  {rss_mb(pid):7.1f} MB   ({time.perf_counter() - started:.0f} s)")
    last = rss_mb(pid)
    print(f"  ratio end / 1,000: {last / first:.2f}   (target <= 1.3)")
    print("  machine load (1, 5, 15 min) at the end: " + ", ".join(f"{n:.1f}" for n in os.getloadavg()))


def report(up: int, gateways: dict[str, int], args: argparse.Namespace) -> None:
    print(f"context-compactor gateway benchmark ({os.cpu_count()} cores; fake upstream and gateway are separate "
          "processes; client in this one)")
    parts = [(name, run) for name, run in (("latency", latency), ("apis", apis), ("throughput", throughputs),
                                           ("streaming", streams)) if name in args.parts]
    for _part, run in parts:  # part by part, each client in turn: both meet the machine in the same state
        for name, gw in gateways.items():
            print(f"\n[gateway with the {'own HTTP/1.1' if name == 'own' else name} upstream client]", end="")
            run(up, gw, args)


def latency(up: int, gw: int, args: argparse.Namespace) -> None:
    for label, size in (("8 KB", 8 * 1024), ("200 KB", 200 * 1024)):
        payload = body(size)
        direct = asyncio.run(latencies(up, payload, args.requests))
        through = asyncio.run(latencies(gw, payload, args.requests))
        print(f"\nnon-streamed, {label} body ({len(payload):,} bytes), {args.requests} sequential requests")
        print(f"  direct   p50 {ms(pct(direct, 0.5))}   p99 {ms(pct(direct, 0.99))}")
        print(f"  gateway  p50 {ms(pct(through, 0.5))}   p99 {ms(pct(through, 0.99))}")
        print(f"  added    p50 {ms(pct(through, 0.5) - pct(direct, 0.5))}   p99 {ms(pct(through, 0.99) - pct(direct, 0.99))}"
              f"   (ratio p50 {pct(through, 0.5) / pct(direct, 0.5):.2f})")


def as_messages(chat: dict[str, Any]) -> bytes:
    """A chat request as the same conversation in the Anthropic Messages API."""
    system = [m["content"] for m in chat["messages"] if m["role"] == "system"]
    messages = [{"role": m["role"], "content": m["content"]} for m in chat["messages"] if m["role"] != "system"]
    return json.dumps({"model": chat["model"], "max_tokens": 1024, "system": "\n".join(system),
                       "messages": messages}).encode()


def as_responses(chat: dict[str, Any]) -> bytes:
    """The same conversation in the OpenAI Responses API (stateless, as Codex sends it)."""
    instructions = "\n".join(m["content"] for m in chat["messages"] if m["role"] == "system")
    items = [{"type": "message", "role": m["role"], "content": [
        {"type": "input_text" if m["role"] == "user" else "output_text", "text": m["content"]}]}
        for m in chat["messages"] if m["role"] != "system"]
    return json.dumps({"model": chat["model"], "instructions": instructions, "input": items, "store": False}).encode()


API_ROUTES = (("chat completions", "/v1/chat/completions", lambda chat: json.dumps(chat).encode()),
              ("messages", "/v1/messages", as_messages), ("responses", "/v1/responses", as_responses))


def apis(up: int, gw: int, args: argparse.Namespace) -> None:
    """Added p50 latency of the Messages and Responses routes beside chat completions, for one conversation
    (issue 23 target: each within 1.5x of chat's added p50)."""
    for label, size in (("8 KB", 8 * 1024), ("200 KB", 200 * 1024)):
        chat = json.loads(body(size))
        print(f"\nthe three APIs, non-streamed, the same {label} conversation, {args.requests} sequential requests")
        print("  route              body        direct p50     gateway p50    added p50    added / chat's")
        added: dict[str, float] = {}
        for name, path, make in API_ROUTES:
            payload = make(chat)
            direct = pct(asyncio.run(latencies(up, payload, args.requests, path)), 0.5)
            through = pct(asyncio.run(latencies(gw, payload, args.requests, path)), 0.5)
            added[name] = through - direct
            ratio = added[name] / added["chat completions"] if added["chat completions"] > 0 else float("nan")
            print(f"  {name:<17} {len(payload):8,d}  {ms(direct)}    {ms(through)}   {ms(added[name])}   {ratio:8.2f}")


def throughputs(up: int, gw: int, args: argparse.Namespace) -> None:
    payload = body(8 * 1024)
    direct_rps = asyncio.run(throughput(up, payload, args.seconds, args.concurrency))
    gateway_rps = asyncio.run(throughput(gw, payload, args.seconds, args.concurrency))
    print(f"\nthroughput, 8 KB bodies, {args.concurrency} connections, {args.seconds:g} s each")
    print(f"  direct  {direct_rps:8.0f} req/s\n  gateway {gateway_rps:8.0f} req/s   (ratio {gateway_rps / direct_rps:.2f})")


def streams(up: int, gw: int, args: argparse.Namespace) -> None:
    payload = body(8 * 1024, stream=True)
    print("\nstreaming, 8 KB body, then 5 ms a token; p50 of each (a request's first byte is the reply's first event)")
    print("  first token  pause   requests   direct TTFB   gateway TTFB   added        TTFB ratio   inter-chunk ratio")
    for first, pause, share in STREAM_CASES:
        n = max(2 * BLOCK, round(args.streams * share))  # at least a block each way round
        (d_ttfb, d_gap), (g_ttfb, g_gap) = asyncio.run(streaming((up, gw), payload, n, first, pause))
        direct, through = pct(d_ttfb, 0.5), pct(g_ttfb, 0.5)
        print(f"  {1000 * first:6.0f} ms {1000 * pause:6.0f} ms {len(d_ttfb):8d}   {ms(direct)}    {ms(through)}    "
              f"{ms(through - direct)}   {through / direct:8.3f}   {statistics.mean(g_gap) / statistics.mean(d_gap):12.3f}")


if __name__ == "__main__":
    sys.exit(main())
