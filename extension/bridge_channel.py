"""The bridge's wire: JSON lines between the OpenClaw plugin (``openclaw/index.js``) and the bridge.

    plugin -> bridge   {"id": 7, "method": "assemble", "params": {...}}
    bridge -> plugin   {"id": 7, "result": {...}}   or   {"id": 7, "error": {"message": "..."}}
    bridge -> plugin   {"call": 3, "for": 7, "method": "llm.complete", "params": {...}}
    plugin -> bridge   {"reply": 3, "result": {"text": ...}}

:class:`Channel` reads requests, routes replies to the bridge's own calls, and writes strict ASCII
JSON (:func:`encode`). The methods behind the requests are :class:`~context_compactor.bridge.Bridge`'s.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from contextlib import contextmanager
from typing import IO, Any

from .errors import CompactorError
from .logs import get_logger
from .messages import repaired

logger = get_logger()

_serving = threading.local()  # the id of the request this thread answers, sent along with our calls


class HostError(CompactorError):
    """The plugin answered a call from the bridge with an error, or not in time."""


class BadLine(CompactorError):
    """A line from the plugin that is not a request we can serve; ``number`` is its id, if it has one."""

    def __init__(self, message: str, number: int | str | None = None) -> None:
        super().__init__(message)
        self.number = number


# index.js writes {"id":N,...} with the id first: enough to answer a line that does not parse.
_LEADING_ID = re.compile(rb'\s*\{\s*"id"\s*:\s*(-?\d{1,15})\s*[,}]')


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _valid_id(value: Any) -> bool:
    return (isinstance(value, int) and not isinstance(value, bool)) or isinstance(value, str)


def _leading_id(raw: bytes) -> int | None:
    match = _LEADING_ID.match(raw)
    return int(match.group(1)) if match else None


def encode(obj: dict[str, Any]) -> str:
    """One protocol line: strict JSON (no NaN), ASCII only, so any line we write parses in Node."""
    return json.dumps(obj, ensure_ascii=True, separators=(",", ":"), allow_nan=False)


class Channel:
    """JSON lines over a pair of streams: answers requests, and calls back into the plugin.

    No line can stop the channel: a line that is not JSON, not an object, too deeply nested, or
    carries an id that is not a number or a string is answered with an error when an id can be
    read from it, and otherwise logged and skipped.
    """

    def __init__(self, reader: IO[bytes], writer: IO[str]) -> None:
        self.reader, self.writer = reader, writer
        self._write_lock = threading.Lock()
        self._calls: dict[int, Future[Any]] = {}
        self._next = 0
        self._calls_lock = threading.Lock()
        self._serving: dict[int | str | None, None] = {}  # ids of the requests being answered, oldest first

    @contextmanager
    def serving(self, number: int | str | None) -> Iterator[None]:
        """Mark request ``number`` as being answered (calls from threads of our own are sent for it)."""
        _serving.id = number
        with self._calls_lock:
            self._serving[number] = None
        try:
            yield
        finally:
            _serving.id = None
            with self._calls_lock:
                self._serving.pop(number, None)

    def _for(self) -> int | str | None:
        """The request a call is made for: this thread's, else the newest one being answered.

        The plugin runs ``llm.complete`` in that request's async context (OpenClaw scopes model
        calls to a turn); a summary call made by a worker thread of the engine is sent while the
        turn that needs it is still being answered, so the newest request is that turn."""
        number = getattr(_serving, "id", None)
        if number is not None:
            return number
        with self._calls_lock:
            return next(reversed(self._serving), None) if self._serving else None

    def send(self, obj: dict[str, Any]) -> None:
        """Write one line; raises (ValueError, TypeError, RecursionError) before writing anything."""
        line = encode(obj)
        with self._write_lock:
            self.writer.write(line + "\n")
            self.writer.flush()

    def reply_error(self, number: int | str | None, message: str) -> None:
        self.send({"id": number, "error": {"message": message}})

    def call(self, method: str, params: dict[str, Any], timeout: float) -> Any:
        """Ask the plugin to do something (``llm.complete``); raises HostError on error or timeout."""
        future: Future[Any] = Future()
        with self._calls_lock:
            self._next += 1
            number = self._next
            self._calls[number] = future
        try:
            self.send({"call": number, "for": self._for(), "method": method, "params": params})
            return future.result(timeout=max(0.0, timeout))
        except FutureTimeout:
            raise HostError(f"{method}: no answer from the plugin within {timeout:.1f} s") from None
        finally:
            with self._calls_lock:
                self._calls.pop(number, None)

    def messages(self) -> Iterator[dict[str, Any]]:
        """Requests from the plugin, until it closes our stdin; replies to our calls are routed here."""
        for raw in self.reader:
            if not raw.strip():
                continue
            try:
                request = self._read(raw)
            except Exception as exc:  # noqa: BLE001 - one line must never stop the bridge
                self._refuse(raw, exc)
                continue
            if request is not None:
                yield request

    def _read(self, raw: bytes) -> dict[str, Any] | None:
        """The request on this line, or None for a reply to one of our calls (routed here)."""
        try:
            obj = json.loads(raw, parse_constant=_no_constant)
        except RecursionError:
            raise BadLine("the line is nested too deeply to read", _leading_id(raw)) from None
        except ValueError as exc:
            raise BadLine(f"the line is not JSON ({exc})", _leading_id(raw)) from None
        if not isinstance(obj, dict):
            raise BadLine(f"expected a JSON object, got {type(obj).__name__}")
        obj = repaired(obj, raw)  # half an emoji from JSON.stringify must not reach the store
        if "reply" in obj:
            self._route(obj)
            return None
        if "id" not in obj:
            raise BadLine("a request without an id (it could not be answered)")
        if not _valid_id(obj["id"]):
            raise BadLine(f"the id must be a number or a string, not {json.dumps(obj['id'])[:40]}")
        if obj.get("params") is not None and not isinstance(obj["params"], dict):
            raise BadLine("params must be an object", obj.get("id"))
        return obj

    def _route(self, obj: dict[str, Any]) -> None:
        number = obj["reply"]
        if not (isinstance(number, int) and not isinstance(number, bool)):
            raise BadLine(f"a reply to no call of ours ({json.dumps(number)[:40]})")
        with self._calls_lock:
            future = self._calls.get(number)
        if future is None or future.done():
            return
        error = obj.get("error")
        if error:
            message = error.get("message", error) if isinstance(error, dict) else error
            future.set_exception(HostError(str(message)))
        else:
            future.set_result(obj.get("result"))

    def _refuse(self, raw: bytes, exc: Exception) -> None:
        number = exc.number if isinstance(exc, BadLine) else None
        reason = str(exc) if isinstance(exc, BadLine) else f"{type(exc).__name__}: {exc}"
        logger.warning("bridge.bad_line", reason=reason, id=number, line=raw[:200].decode("utf-8", "replace"))
        if number is not None:
            self.reply_error(number, f"bad request: {reason}")
