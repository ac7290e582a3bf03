"""Benchmark of the machine, not of us: what touching memory again costs after an idle pause.

    python bench/idle_pages.py [--pages 1024] [--rounds 15]

Touches one byte in each of ``--pages`` pages of a buffer, once after no pause and then after
pauses of 20 ms, 200 ms and 1 s, and prints the median cost per page. On bare metal this stays
well under a microsecond; on some small virtual machines it grows with the pause by a factor of a
hundred or more, and then every process that wakes up to answer a request (a model server, the
gateway) pays it for each page its code and data touch. ``bench/gateway.py``'s figures after a
pause are read against this one. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

PAGE = 4096
PAUSES = (0.0, 0.02, 0.2, 1.0)


def touch(buffer: bytearray) -> int:
    total = 0
    for offset in range(0, len(buffer), PAGE):
        total += buffer[offset]
    return total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pages", type=int, default=1024, help="pages touched each time (4 KiB each)")
    parser.add_argument("--rounds", type=int, default=15, help="measurements per pause")
    args = parser.parse_args(argv)
    if args.pages < 1 or args.rounds < 1:
        parser.error("--pages and --rounds must be at least 1")
    buffer = bytearray(args.pages * PAGE)
    for offset in range(0, len(buffer), PAGE):
        buffer[offset] = 1  # every page is backed before the first measurement
    print(f"touching one byte in each of {args.pages:,} pages after an idle pause, median of {args.rounds}")
    for pause in PAUSES:
        costs = []
        for _ in range(args.rounds):
            time.sleep(pause)
            start = time.perf_counter()
            touch(buffer)
            costs.append(time.perf_counter() - start)
        median = statistics.median(costs)
        print(f"  after {1000 * pause:6.0f} ms idle: {1000 * median:8.3f} ms   ({1e6 * median / args.pages:6.2f} us a page)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
