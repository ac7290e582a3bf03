"""Generate a long, realistic coding-agent session in the OpenAI chat format (deterministic).

    python examples/generate_session.py --messages 240 > examples/agent-session.json

The session has what compaction must handle: a system prompt, standing user instructions and a
later correction, assistant tool calls (shell commands, file reads and writes), large tool
results, failing commands with exact error strings, decisions, ids, ports and versions. Used by
the tests and the benchmarks too.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any

FILES = ["src/app/server.py", "src/app/db.py", "src/app/auth.py", "tests/test_server.py", "pyproject.toml",
         "src/app/config.py", "docs/deploy.md", "scripts/migrate.sh"]
ERRORS = [
    "ModuleNotFoundError: No module named 'app.settings'",
    "sqlite3.OperationalError: database is locked",
    "AssertionError: expected status 200, got 500",
    "ConnectionRefusedError: [Errno 111] Connection refused (127.0.0.1:5432)",
    "TypeError: create_app() got an unexpected keyword argument 'debug'",
]
TOOLS = [
    {"type": "function", "function": {"name": "bash", "description": "Run a shell command",
                                      "parameters": {"type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]}}},
    {"type": "function", "function": {"name": "read_file", "description": "Read a file",
                                      "parameters": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}}},
    {"type": "function", "function": {"name": "write_file", "description": "Write a file",
                                      "parameters": {"type": "object", "properties": {"path": {"type": "string"}, "content": {"type": "string"}}}}},
]


def _code(rng: random.Random, lines: int) -> str:
    out = []
    for i in range(lines):
        name = rng.choice(["handler", "session", "config", "token", "request", "user"])
        out.append(f"    {name}_{i} = load_{name}(ctx, retries={rng.randint(1, 5)})  # step {i}")
    return "def main(ctx):\n" + "\n".join(out) + "\n    return ctx\n"


def _prose(rng: random.Random, words: int) -> str:
    vocab = ("the server handles each request by reading the config and then opening a database session "
             "so that the handler can check the token before it answers with the payload").split()
    return " ".join(rng.choice(vocab) for _ in range(words)).capitalize() + "."


def generate(messages: int = 240, seed: int = 7, big_every: int = 5, big_lines: int = 120) -> dict[str, Any]:
    """A session of about ``messages`` messages; every ``big_every``-th tool result is large."""
    rng = random.Random(seed)
    out: list[dict[str, Any]] = [{"role": "system", "content": "You are a careful coding agent. Use the tools to inspect and change the repository."}]
    out.append({"role": "user", "content": "Standing rules: run the tests with `pytest -q` after every change, never "
                "touch docs/deploy.md, and keep the API on port 8787. Task: make the server start cleanly."})
    call = 0
    turn = 0
    while len(out) < messages:
        turn += 1
        if turn == 6:
            out.append({"role": "user", "content": "Actually, keep the API on port 9090 instead of 8787; the proxy moved."})
        elif turn % 4 == 0:
            out.append({"role": "user", "content": f"Next: look at {rng.choice(FILES)} and fix what fails (ticket APP-{100 + turn})."})
        for _ in range(rng.randint(1, 3)):
            call += 1
            cid = f"call_{call:05d}"
            kind = rng.choice(["bash", "read_file", "write_file"])
            path = rng.choice(FILES)
            args = {"bash": {"command": rng.choice(["pytest -q", "python -m app.server --port 9090", f"git diff {path}", "ruff check src"])},
                    "read_file": {"path": path}, "write_file": {"path": path, "content": _code(rng, 8)}}[kind]
            out.append({"role": "assistant", "content": _prose(rng, 25) if rng.random() < 0.5 else "",
                        "tool_calls": [{"id": cid, "type": "function", "function": {"name": kind, "arguments": json.dumps(args)}}]})
            if call % big_every == 0:
                body = _code(rng, big_lines)
            elif kind == "bash" and rng.random() < 0.4:
                body = f"Traceback (most recent call last):\n  File \"{path}\", line {rng.randint(3, 90)}, in <module>\n{rng.choice(ERRORS)}\nexit code 1"
            else:
                body = _prose(rng, 60)
            out.append({"role": "tool", "tool_call_id": cid, "name": kind, "content": body})
        decision = rng.choice(["I decided to switch to a connection pool because the database is locked under load.",
                               "We'll keep create_app() without the debug argument and read it from config instead.",
                               "Root cause: the settings module moved to app.config in commit 3f9c2ab."])
        out.append({"role": "assistant", "content": f"{decision} {_prose(rng, 40)}"})
    out = out[:messages]
    while out[-1]["role"] == "tool" or out[-1].get("tool_calls"):
        out.pop()
    out.append({"role": "user", "content": "Where are we? Summarize the state and run the tests once more."})
    return {"messages": out, "tools": TOOLS}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=240)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    json.dump(generate(args.messages, args.seed), sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
