"""Benchmark: a Claude Code-shaped and a Codex-shaped session through ``serve`` at a 32k window (issue 23).

    python bench/agent_window.py [--turns 60] [--window 32768] [--apis messages,responses]

Each session runs ``--turns`` turns against a fake model server on 127.0.0.1 (tests/fakes/apis.py) that
refuses every prompt of ``--window`` tokens or more, through the real gateway (``serve``'s app on uvicorn,
in this process's threads) with ``contextWindow`` set to the same window. The sessions are made the way
the agents send them:

- **Claude Code** (``/v1/messages``, streamed): three system blocks with ``cache_control`` and 12 tools
  (about 12k tokens before any history), ``thinking``, ``context_management`` and ``metadata.user_id``; a
  turn is a user prompt (with a ``<system-reminder>`` block), the model's signed thinking and a tool call,
  the tool's result, then its thinking and answer. ``/v1/messages/count_tokens`` is asked before each request.
- **Codex** (``/v1/responses``, streamed, ``store: false``): instructions and tools of about 12k tokens, a
  turn is a user message, reasoning (``encrypted_content``), an ``exec_command`` call and its output, then
  reasoning and the answer; ``prompt_cache_key`` names the session; ``/v1/responses/input_tokens`` first.

Prints, per API: requests, refusals (the fake's 400s: the target is 0), the largest prompt the fake
received (target: under the window), compacted requests, and how far the count the gateway answered was
from the prompt the fake then received (target: within 2%), with the upstream's count route, without it
(the gateway's own count), and with the built-in ledger only (no summaries from the session model, whose
answers land between turns when the machine's load lets them). Asserts nothing; ``tests/test_gateway_agent_window.py``
checks the 0-refusals and within-window property on a shorter run.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from fakes import Behaviour  # noqa: E402
from fakes.apis import ApisUpstream  # noqa: E402
from fakes.harness import gateway_for, serve_upstream  # noqa: E402

TOOL_NAMES = ("Task", "Bash", "Glob", "Grep", "Read", "Edit", "Write", "NotebookEdit", "WebFetch", "TodoWrite",
              "WebSearch", "BashOutput")


def words(seed: str, n: int) -> str:
    """``n`` words that differ from one seed to another (so nothing compresses into a repeat)."""
    digest = hashlib.sha256(seed.encode()).hexdigest()
    return " ".join(f"{seed}-{digest[k % 56:k % 56 + 6]}{k}" for k in range(n))


def tool_schema(name: str) -> dict[str, Any]:
    props = {f"{name.lower()}_arg{k}": {"type": "string", "description": words(f"{name}-arg{k}", 8)} for k in range(4)}
    return {"name": name, "description": words(f"{name}-doc", 45), "input_schema": {
        "type": "object", "properties": props, "required": list(props)[:1]}}


def claude_fixed() -> dict[str, Any]:
    """Claude Code's fixed part: system blocks, tools and the fields it always sends."""
    system = [{"type": "text", "text": "You are Claude Code, Anthropic's official CLI for Claude."},
              {"type": "text", "text": words("system-policy", 700), "cache_control": {"type": "ephemeral"}},
              {"type": "text", "text": words("system-env", 150), "cache_control": {"type": "ephemeral"}}]
    return {"model": "local-model", "max_tokens": 32000, "stream": True, "system": system,
            "tools": [tool_schema(n) for n in TOOL_NAMES], "thinking": {"type": "enabled", "budget_tokens": 4000},
            "context_management": {"edits": [{"type": "clear_thinking_20251015", "keep": "all"}]}}


def claude_turn(i: int) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any], dict[str, Any]]:
    """Turn ``i``: the user's prompt, the model's thinking and call, the result, the model's answer."""
    size = 60 + (i * 37) % 300
    user = {"role": "user", "content": [
        {"type": "text", "text": f"<system-reminder>{words(f'reminder{i}', 30)}</system-reminder>"},
        {"type": "text", "text": f"turn {i}: " + words(f"ask{i}", size)}]}
    call = {"role": "assistant", "content": [
        {"type": "thinking", "thinking": words(f"think{i}", 80), "signature": base64.b64encode(f"sig{i}".encode() * 40).decode()},
        {"type": "tool_use", "id": f"toolu_{i:04d}", "name": TOOL_NAMES[i % len(TOOL_NAMES)],
         "input": {"path": f"src/module_{i}.py"}}]}
    result = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": f"toolu_{i:04d}",
                                           "content": words(f"file{i}", 250 + (i * 53) % 1400)}]}
    answer = {"role": "assistant", "content": [
        {"type": "thinking", "thinking": words(f"conclude{i}", 40), "signature": base64.b64encode(f"end{i}".encode() * 40).decode()},
        {"type": "text", "text": words(f"answer{i}", 90)}]}
    return user, call, result, answer


def codex_fixed(key: str) -> dict[str, Any]:
    tools = [{"type": "function", "name": n, "description": words(f"{n}-doc", 60), "strict": False,
              "parameters": tool_schema(n)["input_schema"]} for n in ("exec_command", "write_stdin", "apply_patch",
                                                                      "view_image", "update_plan", "web_search")]
    return {"model": "local-model", "stream": True, "store": False, "instructions": words("codex-instructions", 900),
            "tools": tools, "tool_choice": "auto", "parallel_tool_calls": True, "reasoning": {"summary": "auto"},
            "include": ["reasoning.encrypted_content"], "prompt_cache_key": key}


def codex_turn(i: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Turn ``i``: the items up to the call (user message, reasoning, call) and those after (output, reasoning, answer)."""
    size = 60 + (i * 37) % 300
    encrypted = base64.b64encode(hashlib.sha512(f"enc{i}".encode()).digest() * 12).decode()
    first = [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": f"turn {i}: " + words(f"ask{i}", size)}]},
             {"type": "reasoning", "id": f"rs_{i}a", "summary": [], "encrypted_content": encrypted},
             {"type": "function_call", "id": f"fc_{i}", "call_id": f"call_{i}", "name": "exec_command",
              "arguments": json.dumps({"cmd": f"sed -n 1,200p src/module_{i}.py"})}]
    second = [{"type": "function_call_output", "call_id": f"call_{i}", "output": words(f"file{i}", 250 + (i * 53) % 1400)},
              {"type": "reasoning", "id": f"rs_{i}b", "summary": [], "encrypted_content": encrypted[::-1]},
              {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": words(f"answer{i}", 90)}]}]
    return first, second


@dataclass
class Figures:
    """What one session saw."""

    api: str
    requests: int = 0
    refusals: int = 0
    largest: int = 0
    compacted: int = 0
    count_errors: list[float] = field(default_factory=list)  # |counted - sent| / sent, per counted request
    seconds: float = 0.0

    def line(self, window: int) -> str:
        errors = self.count_errors or [0.0]
        return (f"  {self.api:<9} {self.requests:5d} requests  refusals {self.refusals:3d}  largest prompt "
                f"{self.largest:6,d} / {window:,}  compacted {self.compacted:4d}  count error p50 "
                f"{100 * statistics.median(errors):5.2f}%  max {100 * max(errors):5.2f}%  within 2%: "
                f"{sum(e <= 0.02 for e in errors)}/{len(errors)}  ({self.seconds:.0f} s)")


def _send(client: httpx.Client, path: str, body: dict[str, Any], figures: Figures, fake: ApisUpstream,
          count_path: str) -> None:
    """Count, then send (streamed, read to the end), and note what the fake received."""
    counted = client.post(count_path, json={k: v for k, v in body.items() if k != "stream"})
    counted.raise_for_status()
    before = len(fake.requests)
    with client.stream("POST", path, json=body) as response:
        response.read()
        figures.compacted += response.headers.get("x-context-compactor-compacted") == "1"
        if response.status_code != 200:
            raise RuntimeError(f"{path}: HTTP {response.status_code}: {response.text[:300]}")
    seen = [r for r in fake.requests[before:] if r.path == path]
    figures.requests += 1
    figures.refusals += sum(r.status == 400 for r in seen)
    figures.largest = max([figures.largest, *(r.prompt_tokens for r in seen)])
    sent = seen[-1].prompt_tokens
    figures.count_errors.append(abs(counted.json()["input_tokens"] - sent) / sent)


def claude_session(url: str, fake: ApisUpstream, turns: int, key: str) -> Figures:
    figures, started = Figures("messages"), time.perf_counter()
    fixed = {**claude_fixed(), "metadata": {"user_id": f"user_bench_account__session_{key}"}}
    history: list[dict[str, Any]] = []
    with httpx.Client(base_url=url, timeout=120) as client:
        for i in range(turns):
            user, call, result, answer = claude_turn(i)
            history.append(user)
            _send(client, "/v1/messages", {**fixed, "messages": history}, figures, fake, "/v1/messages/count_tokens")
            history += [call, result]
            _send(client, "/v1/messages", {**fixed, "messages": history}, figures, fake, "/v1/messages/count_tokens")
            history.append(answer)
    figures.seconds = time.perf_counter() - started
    return figures


def codex_session(url: str, fake: ApisUpstream, turns: int, key: str) -> Figures:
    figures, started = Figures("responses"), time.perf_counter()
    fixed = codex_fixed(key)
    items: list[dict[str, Any]] = [{"type": "message", "role": "developer", "content": [
        {"type": "input_text", "text": words("codex-permissions", 300)}]}]
    with httpx.Client(base_url=url, timeout=120) as client:
        for i in range(turns):
            first, second = codex_turn(i)
            items.append(first[0])
            _send(client, "/v1/responses", {**fixed, "input": items}, figures, fake, "/v1/responses/input_tokens")
            items += [*first[1:], second[0]]
            _send(client, "/v1/responses", {**fixed, "input": items}, figures, fake, "/v1/responses/input_tokens")
            items += second[1:]
    figures.seconds = time.perf_counter() - started
    return figures


SESSIONS = {"messages": claude_session, "responses": codex_session}


def run(api: str, turns: int, window: int, *, count_route: bool = True, settings: dict[str, Any] | None = None) -> Figures:
    """One session of ``api`` through a fresh gateway and fake (both on 127.0.0.1)."""
    fake = ApisUpstream(Behaviour(context_window=window))
    fake.count_route = count_route
    with tempfile.TemporaryDirectory(prefix="cc-agent-window-") as tmp, serve_upstream(fake) as up, \
            gateway_for(up.url, Path(tmp), settings={"contextWindow": window, **(settings or {})}) as gw:
        return SESSIONS[api](gw.url, fake, turns, f"{api}-{'route' if count_route else 'own'}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, default=60)
    parser.add_argument("--window", type=int, default=32768)
    parser.add_argument("--apis", default="messages,responses")
    args = parser.parse_args(argv)
    import logging

    logging.disable(logging.WARNING)
    import structlog

    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    print(f"agent-shaped sessions, {args.turns} turns (2 requests each, each counted first), through serve at "
          f"--context-window {args.window:,} against a fake refusing prompts of {args.window:,} tokens or more")
    variants = ((True, None, "count: the upstream's route"), (False, None, "count: the gateway's own"),
                (True, {"summarizeWithSessionModel": False}, "built-in ledger only, count: the upstream's route"))
    for api in [a.strip() for a in args.apis.split(",") if a.strip()]:
        for route, settings, label in variants:
            print(run(api, args.turns, args.window, count_route=route, settings=settings).line(args.window), label)
    print("targets: 0 refusals, largest prompt under the window, count error within 2%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
