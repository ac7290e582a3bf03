"""``compact`` and ``stats``: run the hooks on a conversation read from a file, like any host would."""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from context_compactor.errors import InputError
from context_compactor.hookspecs import BeforeAgentStartEvent, HookContext, ModelInfo
from context_compactor.messages import validate_messages
from context_compactor.plugins import get_plugin_manager
from context_compactor.runtime import Runtime
from context_compactor.settings import load_settings
from context_compactor.store import Store, default_store_path


def read_input(source: str, max_bytes: int) -> Any:
    """Parse the input file (or stdin), refusing what is too large or not JSON, naming the spot."""
    name = "stdin" if source == "-" else source
    if source == "-":
        raw = sys.stdin.buffer.read(max_bytes + 1)
    else:
        path = Path(source)
        try:
            size = path.stat().st_size
            if size > max_bytes:
                raise InputError(f"{size / 2**20:,.0f} MB is larger than the {max_bytes / 2**20:,.0f} MB limit "
                                 "(raise --max-input-mb if this machine has the memory)", where=name)
            raw = path.read_bytes()
        except FileNotFoundError:
            raise InputError("no such file", where=name) from None
        except IsADirectoryError:
            raise InputError("is a folder, not a conversation file", where=name) from None
        except PermissionError:
            raise InputError("permission denied", where=name) from None
    if len(raw) > max_bytes:
        raise InputError(f"input is larger than the {max_bytes / 2**20:,.0f} MB limit (raise --max-input-mb)", where=name)
    try:
        return json.loads(raw)
    except UnicodeDecodeError:
        raise InputError("not UTF-8 text", where=name) from None
    except json.JSONDecodeError as exc:
        raise InputError(f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}", where=name) from None


def conversation(data: Any) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Messages and tools from a list of messages, or an object with ``messages`` (and ``tools``)."""
    if isinstance(data, dict):
        if "messages" not in data:
            raise InputError('an object input needs a "messages" list (or give a plain list of messages)', where="input")
        tools = data.get("tools") or []
        if not isinstance(tools, list):
            raise InputError(f"tools must be a list, not {type(tools).__name__}", where="tools")
        return validate_messages(data["messages"]), tools
    return validate_messages(data), []


def _overrides(args: argparse.Namespace) -> dict[str, Any]:
    return {
        "contextWindow": args.context_window, "maxTokens": args.max_tokens,
        "keepRecentTokens": args.keep_recent_tokens, "summaryMaxTokens": args.summary_max_tokens,
        "charsPerToken": args.chars_per_token, "tokenizer": args.tokenizer,
    }


def _run(args: argparse.Namespace, store_default: str) -> tuple[Any, Any, list[dict[str, Any]], Runtime, str]:
    messages, tools = conversation(read_input(args.input, int(args.max_input_mb * 2**20)))
    settings = load_settings(args.config, _overrides(args))
    store = Store.open(args.store or store_default, max_entries=settings.cache_max_entries)
    runtime = Runtime(settings, store=store, persist_sessions=False)
    key = "cli:" + hashlib.sha256(json.dumps(messages[:2], sort_keys=True).encode()).hexdigest()[:16]
    ctx = HookContext(session_key=key, runtime=runtime, model=ModelInfo(id=args.model))
    event = BeforeAgentStartEvent(messages=messages, tools=tools, model=ctx.model)
    result = get_plugin_manager().hook.before_agent_start(event=event, ctx=ctx)
    return result, event, messages, runtime, key


def run_compact(args: argparse.Namespace) -> int:
    result, event, messages, runtime, key = _run(args, str(default_store_path()))
    session = runtime.session(key)
    last = session.last
    out = result.messages if result is not None and result.messages is not None else messages
    stats = {
        "tokens_before": last.get("tokens", 0), "tokens_after": last.get("sent_tokens", 0),
        "compacted": result is not None and result.messages is not None,
        "messages_before": len(messages), "messages_after": len(out),
        "context_window": last.get("window"), "window_source": last.get("window_source"),
        "trigger": last.get("trigger"), "target": last.get("target"),
        **{k: v for k, v in (result.stats if result else {}).items() if k in ("stage", "folded", "chunks", "cache_hits", "summarizer", "fallbacks")},
        "notices": list(result.notices) if result else [],
    }
    runtime.close()
    text = json.dumps({"messages": out, "stats": stats} if args.json else out, ensure_ascii=False, indent=None if args.json else 2)
    _write(text + "\n", args.output)
    if not args.json:
        verdict = "compacted" if stats["compacted"] else "unchanged (under the trigger)"
        print(f"context-compactor: {verdict}: {stats['tokens_before']:,} -> {stats['tokens_after']:,} tokens, "
              f"{len(messages)} -> {len(out)} messages (window {stats['context_window']:,}, "
              f"trigger {stats['trigger']:,})", file=sys.stderr)
        for notice in stats["notices"][1:] if stats["compacted"] else stats["notices"]:
            print(f"context-compactor: {notice}", file=sys.stderr)
    return 0


def run_stats(args: argparse.Namespace) -> int:
    from context_compactor.hooks.commands import format_stats

    _result, _event, _messages, runtime, key = _run(args, ":memory:")
    session = runtime.session(key)
    print(format_stats(session.last, session.state))
    runtime.close()
    return 0


def _write(text: str, output: str | None) -> None:
    if output is None:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    target = Path(output)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent or ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, target)
    except BaseException:
        os.unlink(tmp)
        raise
