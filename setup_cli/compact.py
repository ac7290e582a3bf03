"""``compact`` and ``stats``: run the hooks on a conversation read from a file, like any host would.

``compact`` writes the best prompt there is and one verdict line on stderr: ``compacted: ...``,
``unchanged (under the trigger): ...``, ``cannot fit: <why>`` (exit 3) or ``failed: <why>``
(exit 1; the conversation is written unchanged, as any host would send it).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Any

from context_compactor.errors import CompactorError, InputError
from context_compactor.logs import get_logger
from context_compactor.hookspecs import BeforeAgentStartEvent, CompactionStats, HookContext, ModelInfo
from context_compactor.messages import validate_messages
from context_compactor.plugins import commands, get_plugin_manager
from context_compactor.runtime import Runtime
from context_compactor.turn_record import unchanged_stats
from context_compactor.settings import load_settings
from context_compactor.store import Store, store_path_for

from .atomicwrite import replace_bytes

logger = get_logger()


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


def _store(args: argparse.Namespace, configured: bool, settings: Any) -> Store:
    """``--store``, else (when ``configured`` counts) storePath from --config or the environment, else a
    store in memory: a command run on a file writes nothing outside the working folder unless asked."""
    path = store_path_for(args.store, settings.store_path if configured else None, ":memory:")
    if path != ":memory:" and Path(path).is_dir():
        where = f"--store {path}" if args.store else f"storePath {path}"
        raise InputError("is a folder; give a file name for the store (or ':memory:' to keep nothing)", where=where)
    return Store.for_settings(path, settings)


class Run:
    """One run of ``before_agent_start`` on a conversation read from a file, as any host would.

    ``configured_store``: whether a storePath from the settings is used (``compact``); ``stats`` writes
    nothing but to a ``--store`` given on its command line."""

    def __init__(self, args: argparse.Namespace, configured_store: bool) -> None:
        name = "stdin" if args.input == "-" else args.input
        self.messages, tools = conversation(read_input(args.input, int(args.max_input_mb * 2**20)), name)
        settings = load_settings(args.config, _overrides(args))
        self.runtime = Runtime(settings, store=_store(args, configured_store, settings),
                               persist_sessions=False)
        self.key = "cli:" + hashlib.sha256(json.dumps(self.messages[:2], sort_keys=True).encode()).hexdigest()[:16]
        self.ctx = ctx = HookContext(session_key=self.key, runtime=self.runtime, model=ModelInfo(id=args.model))
        self.event = BeforeAgentStartEvent(messages=self.messages, tools=tools, model=ctx.model)
        self.enabled = self.runtime.settings_for(ctx.model).enabled
        self.pm = get_plugin_manager()
        self.result = self.pm.hook.before_agent_start(event=self.event, ctx=ctx)
        self.failure = self.result.failure if self.result is not None else None
        self.stats = self._stats()

    def _stats(self) -> CompactionStats:
        """The figures of this run: the hook's, or (an extension answered without them) the prompt measured."""
        if self.result is not None and self.result.stats is not None:
            return self.result.stats
        return unchanged_stats(self.runtime, self.event, self.key, failure=self.failure)

    @property
    def sent(self) -> list[dict[str, Any]]:
        """The best prompt there is: the projection, or the conversation as it came."""
        result = self.result
        return result.messages if result is not None and result.messages is not None else self.messages

    def close(self) -> None:
        self.runtime.close()


def verdict(run: Run) -> tuple[str, int]:
    """The one line that says what happened, and the exit code: 0 done, 1 failed, 3 cannot fit."""
    stats, sent = run.stats, run.sent
    figures = (f"{stats.tokens_before:,} -> {stats.tokens_after:,} tokens, {len(run.messages)} -> {len(sent)} "
               f"messages (window {stats.window:,}, trigger {stats.trigger:,})")
    if run.failure is not None:
        return f"failed: {run.failure}; the conversation was written unchanged ({figures})", 1
    if not run.enabled:  # the user turned compaction off: not ours to judge the fit
        return f"unchanged (disabled by enabled: false): {figures}", 0
    if not stats.fits:
        wrote = "the smallest prompt it could build" if stats.compacted else "the conversation unchanged"
        return f"cannot fit: {stats.reason or 'the prompt is above the window'} (wrote {wrote}: {figures})", 3
    if stats.compacted:
        return f"compacted: {figures}", 0
    if stats.tokens_before <= stats.trigger:
        return f"unchanged (under the trigger): {figures}", 0
    return f"unchanged (over the trigger, within the window): {figures}", 0


def run_compact(args: argparse.Namespace) -> int:
    run = Run(args, configured_store=True)
    try:
        stats, out = run.stats, run.sent
    finally:
        run.close()
    line, code = verdict(run)
    if args.json:
        figures = {
            "tokens_before": stats.tokens_before, "tokens_after": stats.tokens_after, "fits": stats.fits,
            "reason": stats.reason, "compacted": stats.compacted, "failed": run.failure,
            "messages_before": len(run.messages), "messages_after": len(out),
            "context_window": stats.window, "window_source": stats.window_source,
            "trigger": stats.trigger, "target": stats.target, "stage": stats.stage, "folded": stats.folded,
            "chunks": stats.chunks, "cache_hits": stats.cache_hits, "summarizer": stats.summarizer,
            "fallbacks": stats.fallbacks, "notices": list(stats.notices), "session": stats.session,
        }
        _write(json.dumps({"messages": out, "stats": figures}, ensure_ascii=False) + "\n", args.output)
    else:
        _write(json.dumps(out, ensure_ascii=False, indent=2) + "\n", args.output)
    if code == 3:  # one line: the reason is the notice
        print(f"context-compactor: {line}", file=sys.stderr)
    elif not args.json or code:
        print(f"context-compactor: {line}", file=sys.stderr)
        notices = stats.notices[1:] if stats.compacted else stats.notices
        for notice in () if code else notices:
            print(f"context-compactor: {notice}", file=sys.stderr)
    return code


def run_stats(args: argparse.Namespace) -> int:
    """The ``/context-stats`` report of the conversation, as a host's chat command gives it."""
    run = Run(args, configured_store=False)
    try:
        if not run.enabled:
            print(f"context-compactor: compaction is disabled for model {run.event.model.id!r} (enabled: false); "
                  "the conversation is sent unchanged.")
        else:
            print(commands(run.pm)["context-stats"].run("", run.ctx).text)
    finally:
        run.close()
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
    folder = Path(os.path.realpath(target)).parent
    if not folder.is_dir() or not os.access(folder, os.W_OK | os.X_OK):
        reason = "the folder does not exist" if not folder.is_dir() else "the folder is not writable"
        raise InputError(f"cannot write here: {reason}", where=output)
    try:
        replace_bytes(target, data, _mode_for(target))  # fsync'd; a symlink keeps pointing at the new text
    except OSError as exc:
        raise CompactorError(f"{output}: cannot write: {exc.strerror or exc} (the file was left unchanged)") from None


def _mode_for(target: Path) -> int:
    """The existing file's mode, or what the umask gives a new file."""
    try:
        return target.stat().st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
