"""What each in-process host adapter costs per model call, warm, conversion included (issue 25).

    python bench/overhead.py --adapters                 # in an environment with gptme or Hermes Agent
    python bench/overhead_adapters.py --size 500 --reps 200

Run it in each host's environment (``pip install -e '.[test,gptme]'`` or ``'.[test,hermes]'``: the two
cannot share one); a host that is not installed is reported as such. The session is
``examples/generate_session.py`` at ``--size`` messages, in the host's own format, and an 8,192-token
window, so every call sends a projection. A warm call is a model call: the host has added the
messages since its last one (a user message, or its reply with a tool call and the call's result)
and calls again. Beside each host's figures, ``alone`` is the Compactor by itself on the same history
as plain chat messages (the same objects each call, as an OpenAI-format host holds them), and
``added`` the adapter's cost over it, call by call (p50 of the differences):

- **gptme**: the ``STEP_PRE`` path without gptme's view writes: the master log's gptme ``Message``
  objects to chat messages (the turns before the current one reused from the last call), the
  Compactor, and the projection back to gptme messages (``GptmeHost.project``). ``convert`` is the two
  conversions alone.
- **hermes**: the ``llm_request`` middleware on a request Hermes has deep-copied (Hermes copies every
  request before its middleware, so our messages are new objects each call; the copy is Hermes's cost
  and is not timed).

Target (issue 25): what the adapter adds, conversion included, p50 under 2 ms at 500 messages. Printed,
never asserted; the header shows the load average.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "examples"))
sys.path.insert(0, str(ROOT / "bench"))

from generate_session import TOOLS, generate  # noqa: E402
from overhead_session import configure_logging, follow_ups  # noqa: E402

WINDOW = 8192
TARGET_MS = 2.0


def _gptme_message(chat: dict[str, Any]) -> Any:
    from gptme.message import Message

    if chat["role"] == "tool":
        return Message("system", chat["content"], call_id=chat["tool_call_id"])
    text = chat.get("content") or ""
    for call in chat.get("tool_calls") or ():
        text += f"\n@{call['function']['name']}({call['id']}): {call['function']['arguments']}"
    return Message(chat["role"], text)


def _p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _steps(size: int, reps: int) -> Iterator[list[dict[str, Any]]]:
    """The messages a host adds between two model calls: a host calls the model after a user message
    and after each tool result, never after its own reply, so a step ends on one of those."""
    more = follow_ups()
    for _ in range(reps):
        step = [next(more)]
        while step[-1]["role"] not in ("user", "tool"):
            step.append(next(more))
        yield step


def _alone(history: list[dict[str, Any]]) -> Callable[[list[dict[str, Any]]], float]:
    """The Compactor alone on the same history as plain chat messages (the same objects each call)."""
    from context_compactor import Compactor

    compactor = Compactor(context_window=WINDOW)
    compactor.compact(history, tools=TOOLS)

    def call(step: list[dict[str, Any]]) -> float:
        history.extend(step)
        start = time.perf_counter()
        compactor.compact(list(history), tools=TOOLS)
        return (time.perf_counter() - start) * 1000
    return call


def _figures(total: list[float], alone: list[float], **more: list[float]) -> dict[str, float]:
    added = [t - a for t, a in zip(total, alone)]
    figures = {"p50": statistics.median(total), "p99": _p(total, 0.99), "alone p50": statistics.median(alone),
               "added p50": statistics.median(added)}
    figures.update({k: statistics.median(v) for k, v in more.items()})
    return figures


def bench_gptme(size: int, reps: int) -> dict[str, float]:
    from context_compactor.hosts import gptme as ours
    from context_compactor.hosts.gptme_messages import to_chat, to_gptme

    ours.plugin()
    host = ours.GptmeHost.current
    assert host is not None
    host.options, host.loaded = {"enabled": True, "context_window": WINDOW}, True
    session = generate(messages=size)["messages"]
    log = [_gptme_message(m) for m in session]
    alone = _alone(list(session))
    with tempfile.TemporaryDirectory() as logdir:
        host.project(log, logdir, master=True)  # cold
        total, bare, convert = [], [], []
        for step in _steps(size, reps):
            log = [*log, *(_gptme_message(m) for m in step)]
            before = host.converted.get((logdir, True))
            start = time.perf_counter()
            host.project(log, logdir, master=True)
            total.append((time.perf_counter() - start) * 1000)
            bare.append(alone(step))
            start = time.perf_counter()  # the same two conversions again, alone
            converted = to_chat(log, master=True, previous=before)
            to_gptme(converted.messages, converted)
            convert.append((time.perf_counter() - start) * 1000)
        host.close()
    return _figures(total, bare, **{"convert p50": convert})


def bench_hermes(size: int, reps: int) -> dict[str, float]:
    from context_compactor.hosts.hermes import HermesHost

    host = HermesHost({"context_window": WINDOW})
    history = generate(messages=size)["messages"]
    alone = _alone(list(history))
    context = {"session_id": "bench", "platform": "cli", "api_mode": "chat_completions"}
    host.llm_request({"model": "local", "messages": copy.deepcopy(history), "tools": TOOLS}, **context)  # cold
    total, bare = [], []
    for step in _steps(size, reps):
        history.extend(step)
        request = copy.deepcopy({"model": "local", "messages": history, "tools": TOOLS, "max_tokens": 65536})
        start = time.perf_counter()
        host.llm_request(request, **context)
        total.append((time.perf_counter() - start) * 1000)
        bare.append(alone(step))
    return _figures(total, bare)


HOSTS: dict[str, tuple[str, Callable[[int, int], dict[str, float]]]] = {
    "gptme": ("gptme", bench_gptme), "hermes": ("run_agent", bench_hermes)}


def run(size: int, reps: int) -> int:
    configure_logging()
    load = os.getloadavg()
    print(f"adapter overhead, warm, {size} messages, window {WINDOW}, {reps} calls; load {load[0]:.2f} "
          f"{load[1]:.2f} {load[2]:.2f}; target p50 < {TARGET_MS} ms")
    for name, (module, bench) in HOSTS.items():
        try:
            __import__(module)
        except ImportError:
            print(f"  {name:7} not installed here (pip install -e '.[test,{name}]' in an environment of its own)")
            continue
        figures = bench(size, reps)
        shown = "  ".join(f"{k} {v:.2f} ms" for k, v in figures.items())
        print(f"  {name:7} {shown}  {'met' if figures['added p50'] < TARGET_MS else 'NOT met'}")
        print(json.dumps({"host": name, "size": size, **figures}), file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=500, help="messages in the session (default 500)")
    parser.add_argument("--reps", type=int, default=200, help="warm calls (default 200)")
    args = parser.parse_args(argv)
    return run(args.size, args.reps)


if __name__ == "__main__":
    raise SystemExit(main())
