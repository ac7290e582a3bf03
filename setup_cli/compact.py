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

from context_compactor.engine import Measurer, budget_for
from context_compactor.errors import CompactorError, InputError
from context_compactor.hookspecs import BeforeAgentStartEvent, HookContext, ModelInfo
from context_compactor.messages import validate_messages
from context_compactor.plugins import get_plugin_manager
from context_compactor.runtime import Runtime
from context_compactor.settings import load_settings
from context_compactor.store import Store, default_store_path


def _size(n: float) -> str:
    """A byte count as people read it: 812 bytes, 75.3 KB, 256 MB."""
    for unit, scale in (("GB", 2**30), ("MB", 2**20), ("KB", 2**10)):
        if n >= scale:
            return f"{n / scale:,.1f} {unit}".replace(".0 ", " ")
    return f"{int(n):,} bytes"


def read_input(source: str, max_bytes: int) -> Any:
    """Parse the input file (or stdin), refusing what is too large or not JSON, naming the spot."""
    name = "stdin" if source == "-" else source
    limit = f"the {_size(max_bytes)} limit (raise --max-input-mb if this machine has the memory)"
    if source == "-":
        raw = sys.stdin.buffer.read(max_bytes + 1)
    else:
        path = Path(source)
        try:
            size = path.stat().st_size
            if size > max_bytes:
                raise InputError(f"{_size(size)} is larger than {limit}", where=name)
            with path.open("rb") as handle:  # bounded: a pipe or a growing file reports no true size
                raw = handle.read(max_bytes + 1)
        except FileNotFoundError:
            raise InputError("no such file", where=name) from None
        except IsADirectoryError:
            raise InputError("is a folder, not a conversation file", where=name) from None
        except PermissionError:
            raise InputError("permission denied", where=name) from None
        except OSError as exc:
            raise InputError(f"cannot read: {exc.strerror or exc}", where=name) from None
    if len(raw) > max_bytes:
        raise InputError(f"input is larger than {limit}", where=name)
    try:
        return json.loads(raw)
    except UnicodeDecodeError:
        raise InputError("not UTF-8 text", where=name) from None
    except json.JSONDecodeError as exc:
        raise InputError(f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}", where=name) from None
    except RecursionError:
        raise InputError("not a conversation: JSON nested too deeply to read", where=name) from None
    except ValueError as exc:  # e.g. an integer with more digits than Python converts
        raise InputError(f"not valid JSON: {exc}", where=name) from None


def conversation(data: Any, name: str = "input") -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Messages and tools from a list of messages, or an object with ``messages`` (and ``tools``)."""
    if isinstance(data, dict):
        if "messages" not in data:
            raise InputError('an object input needs a "messages" list (or give a plain list of messages)', where=name)
        tools = data.get("tools")
        tools = [] if tools is None else tools
        if not isinstance(tools, list):
            raise InputError(f"tools must be a list, not {type(tools).__name__}", where=f"{name}: tools")
        return validate_messages(data["messages"], where=f"{name}: messages"), tools
    return validate_messages(data, where=f"{name}: messages"), []


def _overrides(args: argparse.Namespace) -> dict[str, Any]:
    return {
        "contextWindow": args.context_window, "maxTokens": args.max_tokens,
        "keepRecentTokens": args.keep_recent_tokens, "summaryMaxTokens": args.summary_max_tokens,
        "charsPerToken": args.chars_per_token, "tokenizer": args.tokenizer,
    }


def _run(args: argparse.Namespace, store_default: str) -> tuple[Any, Any, list[dict[str, Any]], Runtime, str]:
    name = "stdin" if args.input == "-" else args.input
    messages, tools = conversation(read_input(args.input, int(args.max_input_mb * 2**20)), name)
    settings = load_settings(args.config, _overrides(args))
    store = Store.open(args.store or store_default, max_entries=settings.cache_max_entries)
    runtime = Runtime(settings, store=store, persist_sessions=False)
    key = "cli:" + hashlib.sha256(json.dumps(messages[:2], sort_keys=True).encode()).hexdigest()[:16]
    ctx = HookContext(session_key=key, runtime=runtime, model=ModelInfo(id=args.model))
    event = BeforeAgentStartEvent(messages=messages, tools=tools, model=ctx.model)
    result = get_plugin_manager().hook.before_agent_start(event=event, ctx=ctx)
    return result, event, messages, runtime, key


def _figures(runtime: Runtime, event: BeforeAgentStartEvent) -> dict[str, Any]:
    """The figures of a prompt sent unchanged because the hook did not run the engine (disabled)."""
    settings = runtime.settings_for(event.model)
    measurer = Measurer(runtime.counter_for(settings, event.model), settings.message_overhead_tokens)
    total = measurer.measure(event.messages, event.system_prompt, event.tools).total
    window, source = runtime.window_for(settings, event.model)
    budget = budget_for(window, source, max_tokens=settings.max_tokens,
                        compact_at=settings.compact_at, compact_to=settings.compact_to)
    return {"tokens": total, "sent_tokens": total, "window": window, "window_source": source,
            "trigger": budget.trigger, "target": budget.target}


def run_compact(args: argparse.Namespace) -> int:
    result, event, messages, runtime, key = _run(args, str(default_store_path()))
    try:
        last = runtime.session(key).last or _figures(runtime, event)
        enabled = runtime.settings_for(event.model).enabled
    finally:
        runtime.close()
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
    text = json.dumps({"messages": out, "stats": stats} if args.json else out, ensure_ascii=False, indent=None if args.json else 2)
    _write(text + "\n", args.output)
    if not args.json:
        verdict = ("compacted" if stats["compacted"] else "unchanged (under the trigger)" if enabled
                   else "unchanged (disabled by enabled: false)")
        print(f"context-compactor: {verdict}: {stats['tokens_before']:,} -> {stats['tokens_after']:,} tokens, "
              f"{len(messages)} -> {len(out)} messages (window {stats['context_window']:,}, "
              f"trigger {stats['trigger']:,})", file=sys.stderr)
        for notice in stats["notices"][1:] if stats["compacted"] else stats["notices"]:
            print(f"context-compactor: {notice}", file=sys.stderr)
    return 0


def run_stats(args: argparse.Namespace) -> int:
    from context_compactor.hooks.commands import format_stats

    _result, event, _messages, runtime, key = _run(args, ":memory:")
    try:
        session = runtime.session(key)
        if not runtime.settings_for(event.model).enabled:
            print(f"context-compactor: compaction is disabled for model {event.model.id!r} (enabled: false); "
                  "the conversation is sent unchanged.")
        else:
            print(format_stats(session.last, session.state))
    finally:
        runtime.close()
    return 0


def _write(text: str, output: str | None) -> None:
    data = text.encode("utf-8")  # JSON is UTF-8, whatever the terminal's locale
    if output is None:
        stream = getattr(sys.stdout, "buffer", None)
        if stream is None:
            sys.stdout.write(text)
        else:
            sys.stdout.flush()
            rest = memoryview(data)
            while rest:  # a pipe may take part of a large write; a closed one then raises BrokenPipeError
                rest = rest[stream.write(rest):]
        sys.stdout.flush()
        return
    target = Path(output)
    if target.is_dir():
        raise InputError("is a folder; give a file name for the output", where=output)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    except OSError as exc:
        raise InputError(f"cannot write here: {exc.strerror or exc} (does the folder exist?)", where=output) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        # mkstemp makes the file private (0600); give it the mode a plain write would have.
        os.chmod(tmp, _mode_for(target))
        os.replace(tmp, target)
    except BaseException as exc:
        os.unlink(tmp)
        if isinstance(exc, OSError):
            raise CompactorError(f"{output}: cannot write: {exc.strerror or exc} (the file was left unchanged)") from None
        raise


def _mode_for(target: Path) -> int:
    """The existing file's mode, or what the umask gives a new file."""
    try:
        return target.stat().st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
