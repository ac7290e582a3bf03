"""The gateway's counters, served at ``/metrics`` in the Prometheus text format (version 0.0.4).

    context_compactor_requests_total{status="200"}          chat requests answered, by status: the HTTP status,
                                                            "cut" for a 200 stream the upstream broke off (the
                                                            client got an error event), 499 for a client that
                                                            left before its reply was whole
    context_compactor_compactions_total                     requests whose prompt was compacted
    context_compactor_tokens_before_total / _after_total    estimated prompt tokens, as received and as sent
    context_compactor_summary_fallbacks_total               chunk summaries the built-in summarizer wrote
                                                            because the model failed
    context_compactor_summary_seconds (histogram)           latency of the summary model's calls
    context_compactor_summary_idle_waits_total              summary calls that waited for clients' requests
    context_compactor_summary_calls_total                   summary calls the gateway sent to a server
    context_compactor_summaries_cancelled_total             of those, cancelled by a client's request arriving
    context_compactor_upstream_errors_total{code="..."}     upstream answers >= 400 (by status) and failures to
                                                            reach it (by code: upstream_unreachable, ...), the
                                                            same for chat and forwarded requests
    context_compactor_sessions                              sessions seen since the start (counted in a
                                                            fixed 16 KB: exact in practice up to a few hundred,
                                                            within about 1% beyond)
    context_compactor_requests_in_flight                    client requests at the upstream now
    context_compactor_process_info{pid="..."}               1: the process that answered (with serve --workers N,
                                                            each scrape is answered by one worker: its own counts)

Counters only grow while the process lives (Prometheus handles restarts), and count what this process
served: with several replicas (or ``--workers``), each counts its own, and a dashboard sums them. The same
names as the proxies people already run expose, so one dashboard fits.
"""

from __future__ import annotations

import hashlib
import math
import os
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

REGISTERS = 1 << 14  # of the session count: 16 KB however many sessions come (issue 21, the soak)
BUCKETS = (0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0)
PREFIX = "context_compactor_"


@dataclass
class Histogram:
    """Cumulative buckets, sum and count of observed seconds."""

    buckets: tuple[float, ...] = BUCKETS
    counts: list[int] = field(default_factory=lambda: [0] * (len(BUCKETS) + 1))
    total: float = 0.0

    def observe(self, seconds: float) -> None:
        self.total += seconds
        for i, bound in enumerate(self.buckets):
            if seconds <= bound:
                self.counts[i] += 1
        self.counts[-1] += 1

    def lines(self, name: str) -> list[str]:
        out = [f'{name}_bucket{{le="{bound:g}"}} {n}' for bound, n in zip(self.buckets, self.counts)]
        return [*out, f'{name}_bucket{{le="+Inf"}} {self.counts[-1]}', f"{name}_sum {self.total:.6f}",
                f"{name}_count {self.counts[-1]}"]


class Distinct:
    """How many distinct keys were added, in fixed memory: a HyperLogLog sketch of :data:`REGISTERS`
    registers, read by linear counting while few are set. A set of the keys grew with every session a
    client opened (the unnamed ones are one per new conversation), for as long as the process lived."""

    def __init__(self) -> None:
        self.registers = bytearray(REGISTERS)

    def add(self, key: str) -> None:
        h = int.from_bytes(hashlib.blake2b(key.encode("utf-8", "surrogatepass"), digest_size=8).digest(), "big")
        index, rest = h >> 50, h & ((1 << 50) - 1)  # 14 bits choose the register, 50 give the rank
        rank = 51 - rest.bit_length()
        if rank > self.registers[index]:
            self.registers[index] = rank

    def __len__(self) -> int:
        m = len(self.registers)
        zeros = self.registers.count(0)
        if zeros == m:
            return 0
        estimate = 0.7213 / (1 + 1.079 / m) * m * m / sum(2.0 ** -r for r in self.registers)
        if estimate <= 2.5 * m and zeros:
            estimate = m * math.log(m / zeros)  # linear counting: exact in practice for small counts
        return round(estimate)


@dataclass
class Metrics:
    """What ``/metrics`` reports; updated from the gateway's event loop (one request at a time)."""

    requests: Counter[str] = field(default_factory=Counter)
    compactions: int = 0
    tokens_before: int = 0
    tokens_after: int = 0
    fallbacks: int = 0
    upstream_errors: Counter[str] = field(default_factory=Counter)
    sessions: Distinct = field(default_factory=lambda: Distinct())
    summary: Histogram = field(default_factory=Histogram)

    def turn(self, key: str, status: str, compacted: bool, before: int | None, after: int | None,
             fallbacks: int) -> None:
        """Count one chat request."""
        self.requests[status] += 1
        self.compactions += int(compacted)
        self.tokens_before += before or 0
        self.tokens_after += after if after is not None else before or 0
        self.fallbacks += fallbacks
        self.sessions.add(key)

    def upstream_error(self, code: str) -> None:
        self.upstream_errors[code] += 1

    def render(self, *, idle_waits: int, in_flight: int, summary_seconds: Iterable[float] = (),
               summary_calls: int = 0, summaries_cancelled: int = 0) -> bytes:
        """The text exposition; ``summary_seconds``: latencies observed since the last render."""
        for seconds in summary_seconds:
            self.summary.observe(seconds)
        p = PREFIX
        lines = [f"# HELP {p}requests_total Chat completion requests answered, by HTTP status.",
                 f"# TYPE {p}requests_total counter",
                 *(f'{p}requests_total{{status="{s}"}} {n}' for s, n in sorted(self.requests.items()))]
        lines += _counter(f"{p}compactions_total", "Requests whose prompt was compacted.", self.compactions)
        lines += _counter(f"{p}tokens_before_total", "Estimated prompt tokens as the clients sent them.",
                          self.tokens_before)
        lines += _counter(f"{p}tokens_after_total", "Estimated prompt tokens as sent upstream.", self.tokens_after)
        lines += _counter(f"{p}summary_fallbacks_total",
                          "Chunk summaries written by the built-in summarizer because the model failed.", self.fallbacks)
        lines += [f"# HELP {p}summary_seconds Latency of the summary model's calls.",
                  f"# TYPE {p}summary_seconds histogram", *self.summary.lines(f"{p}summary_seconds")]
        lines += _counter(f"{p}summary_idle_waits_total",
                          "Summary calls that waited until no client request was in flight upstream.", idle_waits)
        lines += _counter(f"{p}summary_calls_total", "Summary calls sent to a model server (after waiting).",
                          summary_calls)
        lines += _counter(f"{p}summaries_cancelled_total",
                          "Summary calls cancelled because a client's request came for the same server.",
                          summaries_cancelled)
        lines += [f"# HELP {p}upstream_errors_total Upstream answers >= 400 and failures to reach it, by code.",
                  f"# TYPE {p}upstream_errors_total counter",
                  *(f'{p}upstream_errors_total{{code="{c}"}} {n}' for c, n in sorted(self.upstream_errors.items()))]
        lines += [f"# HELP {p}sessions Sessions seen since the start.", f"# TYPE {p}sessions gauge",
                  f"{p}sessions {len(self.sessions)}"]
        lines += [f"# HELP {p}requests_in_flight Client requests at the upstream now.",
                  f"# TYPE {p}requests_in_flight gauge", f"{p}requests_in_flight {in_flight}"]
        lines += [f"# HELP {p}process_info The process these counts are of.", f"# TYPE {p}process_info gauge",
                  f'{p}process_info{{pid="{os.getpid()}"}} 1']
        return ("\n".join(lines) + "\n").encode()


def _counter(name: str, text: str, value: int) -> list[str]:
    return [f"# HELP {name} {text}", f"# TYPE {name} counter", f"{name} {value}"]
