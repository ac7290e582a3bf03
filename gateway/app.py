"""The ASGI application: routing, the client key, body limits, commands, the proxy, the lifespan.

    POST /v1/chat/completions     compaction (hooks), then the upstream: see turn.py and relay.py
    GET  /context-compactor/health  the gateway's own liveness answer (no key needed, says nothing)
    GET  /context-compactor/ready   readiness: 200 when the upstream answers, else 503 (no key needed)
    GET  /metrics                 Prometheus counters (see metrics.py; the client key when one is set)
    anything else                 passed to the upstream unchanged (``/v1/x`` under its base URL), the
                                  path exactly as received (``%2F`` stays ``%2F``)

The upstream key never reaches a client: whatever the upstream answers has it redacted. The
gateway's own model calls (summaries, window probes) to the upstream wait until none of its
clients' requests is in flight there (:class:`~context_compactor.summarizer.idle_gate.IdleGate`): a
single-slot local server would otherwise interrupt or delay the client's turn for them. In front of a
single-slot server (see slots.py) a turn counts from its arrival, cancels any summary still running
there, and never waits for one: it sends the built-in ledger, and the summary is made when the server
has been idle for the settle time.

Plain ASGI, no framework: the gateway sits on every model call, so each layer it does not need
is latency it would add.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import pluggy
import structlog

from context_compactor.hookspecs import Command, HookContext, ModelInfo
from context_compactor.plugins import commands as registered_commands
from context_compactor.plugins import get_plugin_manager
from context_compactor.redact import StreamRedactor
from context_compactor.runtime import Runtime
from context_compactor.summarizer.idle_gate import SETTLE_SECONDS, IdleGate, add_gate, origin

from . import apis, sse
from .after_turns import AfterTurns
from .asgi import (JSON_TYPE, BodyTooLarge, ClientGone, Headers, Message, Receive, Scope, Send, ascii_header, dumps,
                   header, TooDeep, read_body, send_bytes, send_error, unchunked)
from .chat_request import chat_body
from .commands import find_command, without_commands
from .config import GatewayConfig
from .owned_tools import default_tools
from .parts import TENANT
from .relay import Relay
from .sessions import KeyedLocks, session_key, tenant_of
from .server_count import FitCount, fit_line
from .turn import ChatTurn
from .http1 import Client, make_client, split_target
from .metrics import Metrics
from .slots import detect_slots
from .upstream import UpstreamError, bearer, request_headers, response_headers

logger = structlog.get_logger("context_compactor")

CHAT_PATHS = frozenset({"/v1/chat/completions", "/chat/completions"})
HEALTH_PATH = "/context-compactor/health"
READY_PATH = "/context-compactor/ready"
METRICS_PATH = "/metrics"
READY_TIMEOUT = 5.0  # seconds the readiness check waits for the upstream
LOOPBACK = frozenset({"127.0.0.1", "::1", "localhost"})
MAX_UNCHANGED = 4096  # sessions whose last turn went out unchanged, remembered for early sends
T = TypeVar("T")


class Gateway:
    """The OpenAI-compatible compaction gateway, as an ASGI application.

    ``runtime`` is the host's runtime (settings, store, summarizer); the caller closes it.
    """

    def __init__(self, config: GatewayConfig, runtime: Runtime, *, pm: pluggy.PluginManager | None = None) -> None:
        self.config = config
        self.runtime = runtime
        self.pm = pm if pm is not None else get_plugin_manager()
        self.commands: dict[str, Command] = registered_commands(self.pm)
        self.locks = KeyedLocks()
        self.owned_tools = default_tools(self.pm)  # tools the gateway answers itself (recall_history)
        self.executor = ThreadPoolExecutor(max_workers=config.hook_threads, thread_name_prefix="context-compactor")
        self._client: Client | None = None
        self.after_turns = AfterTurns(self.executor)  # sessions' after_turn calls, off the reply path
        # per session whose last turn went out as the client wrote it: (model, tokens per byte, trigger)
        self._unchanged: dict[str, tuple[str, float, int]] = {}
        self.metrics = Metrics()
        # The runtime's model calls to our upstream wait while a client's request is in flight there.
        self.gate = IdleGate(quiet=SETTLE_SECONDS)
        add_gate(runtime.http, self.gate)
        self.in_flight = 0
        self.slots: int | None = None  # the upstream's generation slots, when it says (see slots.py)
        self._slots_asked = False
        self.tokenize_path: str | None = None  # how the upstream counts tokens ("": it cannot; None: not asked yet)
        self.counted: dict[str, int] = {}  # per session: the compaction its prompt was last counted by the server
        self.fit_counts: dict[str, FitCount] = {}  # per session: how its last compaction's fit was checked

    @property
    def client(self) -> Client:
        """The upstream client, made on first use (inside the server's event loop)."""
        if self._client is None:
            self._client = make_client(self.config, self._activity)
        return self._client

    def _activity(self, change: int) -> None:
        self.in_flight += change
        if change > 0:
            self.gate.enter(self.config.base)
        else:
            self.gate.leave(self.config.base)

    @property
    def single_slot(self) -> bool:
        return self.slots == 1

    async def learn_slots(self) -> None:
        """Ask the upstream how many requests it generates at once. With one, and the gateway's summaries
        going to the same server, no turn waits for a summary (see slots.py): unless the settings ask for
        the session model's summaries explicitly, the built-in ledger writes them (on one slot a summary
        also evicts the client's prompt from the server's cache, so the next turn reads it all again);
        when they do ask, the turn goes on with the ledger and the model's summary runs while the server
        is idle, cancelled by the next turn."""
        self.slots = await detect_slots(self)
        if not self.single_slot:
            return
        settings = self.runtime.settings
        model = settings.summary_model
        shared = origin(model.base_url) == origin(self.config.base) if model is not None else (
            settings.summarize_with_session_model)
        ledger = shared and model is None and "summarize_with_session_model" not in settings.model_fields_set
        if ledger:  # a summary between turns evicts the client's prompt from the one cache: the next turn re-reads it all
            self.runtime.settings = settings.model_copy(update={"summarize_with_session_model": False})
        elif shared:
            self.runtime.background.turn_wait = 0.0
        logger.info("gateway.single_slot", upstream=self.config.base, summaries="built-in ledger" if ledger else
                    "model, while the server is idle" if shared else "elsewhere", settle_seconds=self.gate.quiet)

    def remember(self, turn: ChatTurn) -> None:
        """Note whether a turn's hooks left its prompt alone and had nothing to say, for the next turn's
        early send."""
        self._unchanged.pop(turn.key, None)
        if turn.changed or turn.notices or not turn.fits or not turn.tokens_before or not turn.trigger:
            return
        self._unchanged[turn.key] = (turn.model.id, turn.tokens_before / max(1, len(turn.raw)), turn.trigger)
        if len(self._unchanged) > MAX_UNCHANGED:
            del self._unchanged[next(iter(self._unchanged))]

    def unchanged_turn(self, key: str) -> tuple[str, float, int] | None:
        """(model, tokens per byte, trigger) of the session's last turn, when it went out as the client wrote it."""
        return self._unchanged.get(key)

    def forget(self, key: str) -> None:
        """The session's next prompt will not go out as written (a compaction is due): no early send for it."""
        self._unchanged.pop(key, None)

    async def in_thread(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a blocking hook call in the gateway's worker threads."""
        return await asyncio.get_running_loop().run_in_executor(self.executor, fn, *args)

    def upstream_waiting(self) -> None:
        """The gateway waits for the upstream: a good moment for the queued ``after_turn`` calls."""
        self.after_turns.start_queued()

    async def settled(self, key: str) -> None:
        """Wait until the session's ``after_turn`` calls have run (a command reports on the last turn)."""
        await self.after_turns.settled(key)

    async def aclose(self, grace: float = 5.0) -> None:
        """Close the upstream client, drop queued hook work, give running bookkeeping ``grace`` seconds.

        (A summary call still running after that ends on its own time budget; the caller then closes
        the runtime, which stops background summaries.)
        """
        running = self.after_turns.running()
        self.executor.shutdown(wait=False, cancel_futures=True)
        if running:
            await asyncio.wait(running, timeout=grace)
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    # --- ASGI ---------------------------------------------------------------------------------

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self.http(scope, receive, send)
        elif scope["type"] == "lifespan":
            await self.lifespan(receive, send)

    async def lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                logger.info("gateway.started", upstream=self.config.base, host=self.config.host, port=self.config.port,
                            auth=bool(self.config.client_keys), tenants=len(self.config.client_keys))
                if not self.config.client_keys and self.config.host not in LOOPBACK:
                    logger.warning("gateway.open_to_network", host=self.config.host, port=self.config.port,
                                   fix=OPEN_WARNING)
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await self.aclose()
                logger.info("gateway.stopped")
                await send({"type": "lifespan.shutdown.complete"})
                return

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope["path"]
        if scope.get("http_version") == "1.0":
            send = unchunked(send)
        if path == HEALTH_PATH:
            await send_bytes(send, 200, b'{"status":"ok"}', [JSON_TYPE])
            return
        if path == READY_PATH:
            await self.ready(send)
            return
        apis.shape_errors(path)  # the gateway's own errors in the shape of the request's API
        tenant = self.tenant(scope)
        if tenant is None:
            logger.info("gateway.unauthorized", path=path)
            await send_error(send, 401, "context-compactor: missing or wrong API key; send 'Authorization: Bearer "
                             "<key>' (or 'x-api-key: <key>') with a key the gateway was started with (--api-key or "
                             "$CONTEXT_COMPACTOR_API_KEY)", "invalid_api_key", kind="invalid_request_error")
            return
        scope[TENANT] = tenant
        try:
            raw = await read_body(scope, receive, self.config.max_body_bytes)
        except BodyTooLarge:
            limit = self.config.max_body_bytes / 2**20
            logger.warning("gateway.body_too_large", path=path, limit_mb=limit)
            await send_error(send, 413, f"context-compactor: the request body is larger than the {limit:g} MB "
                             "limit (start the gateway with a larger --max-body-mb)", "request_too_large",
                             kind="invalid_request_error")
            return
        except ClientGone:
            return
        if path == METRICS_PATH and scope["method"] == "GET":
            text = self.metrics.render(idle_waits=self.gate.waits, in_flight=self.in_flight,
                                       summary_seconds=self.gate.drain(), summary_calls=self.gate.started,
                                       summaries_cancelled=self.gate.cancelled)
            await send_bytes(send, 200, text, [(b"content-type", b"text/plain; version=0.0.4; charset=utf-8")])
            return
        if scope["method"] == "POST" and path in CHAT_PATHS:
            await self.chat(scope, receive, send, raw)
        elif scope["method"] == "POST" and path in apis.ROUTES:
            await apis.ROUTES[path](self, scope, receive, send, raw)
        else:
            await self.proxy(scope, send, raw)

    def authorized(self, scope: Scope) -> bool:
        return self.tenant(scope) is not None

    def tenant(self, scope: Scope) -> str | None:
        """Who the caller is: "" when clients need no key, the tenant of the key it sent (``Authorization:
        Bearer`` or ``x-api-key``, as Anthropic's SDKs send it), else None (refused). Every configured key
        is compared, in constant time."""
        keys = self.config.client_keys
        if not keys:
            return ""
        scheme, _, token = (header(scope, b"authorization") or "").partition(" ")
        sent = [token.strip() if scheme.lower() == "bearer" else "", (header(scope, b"x-api-key") or "").strip()]
        found: str | None = None
        for given in (s.encode("latin-1") for s in sent if s):  # the header's own bytes (decoded as latin-1)
            for key in keys:
                value = key.get_secret_value()
                if hmac.compare_digest(given, value.encode("utf-8")) and found is None:
                    found = tenant_of(value)
        return found

    # --- chat completions -----------------------------------------------------------------------

    async def chat(self, scope: Scope, receive: Receive, send: Send, raw: bytes) -> None:
        started = time.perf_counter()
        try:
            parsed = chat_body(raw, self.config.max_json_depth)
        except TooDeep:
            limit = self.config.max_json_depth
            logger.warning("gateway.json_too_deep", path=scope["path"], limit=limit)
            await send_error(send, 400, f"context-compactor: the request's JSON nests deeper than {limit} levels "
                             "(start the gateway with a larger --max-json-depth if this is a real request)",
                             "json_too_deep", kind="invalid_request_error")
            return
        if isinstance(parsed, str):
            logger.info("gateway.passthrough", reason=parsed)
            await self.proxy(scope, send, raw)
            return
        body, warnings = parsed
        key = session_key(header(scope, b"x-session-id"), body, scope.get(TENANT) or None)
        if warnings:
            logger.warning("gateway.orphan_tool_results", session=key, problems=warnings,
                           fix="each tool message's tool_call_id must equal the id of a call made before it")
            send = _with_headers(send, [(b"x-context-compactor-warning", ascii_header("; ".join(warnings)))])
        found = find_command(body["messages"], self.commands)
        if found is not None:
            await self.command(send, body, key, *found)
            return
        kept = without_commands(body["messages"], self.commands)
        if kept is not body["messages"]:  # earlier /context-stats exchanges: the model never sees them
            body = {**body, "messages": kept}
            raw = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        upstream_headers = request_headers(scope["headers"], self.config)
        turn = ChatTurn(self, body, raw, key, bearer(upstream_headers))
        await self.run_turn(receive, turn, Relay(self, turn, send, upstream_headers), started)

    async def run_turn(self, receive: Receive, turn: ChatTurn, relay: Relay, started: float) -> None:
        """Compact (or send early), send, relay, then queue ``after_turn`` and count the turn: every API's turn."""

        async def work() -> None:
            if turn.may_go_early():  # the request goes out now; the hooks run while the model reads it
                await relay.run(early=True)
                return
            await turn.prepare()
            await relay.run()

        if not self._slots_asked and not self.gate.busy(self.config.base):  # asked once, when nothing runs there
            self._slots_asked = True
            with contextlib.suppress(Exception):  # a server that says nothing is taken as multi-slot
                await self.learn_slots()
        pending = self.single_slot  # the turn holds the slot from its arrival: our summaries there stop now
        if pending:
            self.gate.enter(self.config.base)
        try:
            if await self.guarded(receive, relay, work):
                turn.error = "the client disconnected before the reply was finished"
                turn.status, turn.outcome = 499, "client_gone"
        finally:
            if pending:
                self.gate.leave(self.config.base)
        if hasattr(turn, "count_prompt"):  # a stream without usage: the server counts the prompt (calibration)
            with contextlib.suppress(Exception):
                await turn.count_prompt()
        turn.finish()
        self._count(turn)
        logger.info("gateway.request", **turn.log_fields(), ms=round(1000 * (time.perf_counter() - started), 2))

    def _count(self, turn: ChatTurn) -> None:
        """Add a finished turn to the metrics."""
        stats = turn.stats
        status = "cut" if turn.outcome == "cut" else str(turn.status)  # a 200 whose stream ended in an error event
        self.metrics.turn(turn.key, status, turn.compacted, turn.tokens_before, turn.tokens_after,
                          stats.fallbacks if stats is not None else 0)
        if turn.status >= 400 and turn.status != 499:  # labelled as the proxy labels it (a code, else the status)
            self.metrics.upstream_error(getattr(turn, "error_code", None) or str(turn.status))

    async def ready(self, send: Send) -> None:
        """200 when the upstream answers ``GET /models`` (any status but 401, 403 and 5xx), else 503 saying why."""
        target = split_target(self.config.base + "/models")
        problem: str | None = None
        try:
            response = await asyncio.wait_for(
                self.client.request("GET", target, request_headers([], self.config), b""), READY_TIMEOUT)
            try:
                await asyncio.wait_for(response.read(), READY_TIMEOUT)
            finally:
                await response.aclose()
            if response.status_code in (401, 403):
                problem = f"the upstream refused the gateway's key (HTTP {response.status_code}); check the upstream key"
            elif response.status_code >= 500:
                problem = f"the upstream answered HTTP {response.status_code}"
        except UpstreamError as exc:
            problem = str(exc)
        except asyncio.TimeoutError:
            problem = f"the upstream did not answer within {READY_TIMEOUT:g}s"
        if problem is None:
            await send_bytes(send, 200, b'{"status":"ready"}', [JSON_TYPE])
            return
        logger.warning("gateway.not_ready", error=problem)
        await send_bytes(send, 503, dumps({"status": "unavailable", "error": problem}), [JSON_TYPE])

    async def guarded(self, receive: Receive, relay: Relay, work: Callable[[], Awaitable[None]]) -> bool:
        """Run ``work`` and cancel it when the client goes away; True when it did.

        Two plain tasks (the work, and a wait for the client's disconnect) rather than a task group:
        this runs on every request, and each layer it does not need is time added to the reply.
        """
        worker = asyncio.ensure_future(self._contained(relay, work))
        watcher = asyncio.ensure_future(receive())
        try:
            await asyncio.wait((worker, watcher), return_when=asyncio.FIRST_COMPLETED)
            if not worker.done() and watcher.result()["type"] == "http.disconnect" and not relay.responded:
                worker.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await worker
                return True
            await worker
            return False
        finally:  # also when this request's own task is cancelled (the server shutting down)
            watcher.cancel()
            worker.cancel()

    async def _contained(self, relay: Relay, work: Callable[[], Awaitable[None]]) -> None:
        """``work``, with a bug of ours answered as an error (or an error event mid-stream), never a dropped connection."""
        try:
            await work()
        except Exception as exc:  # a bug of ours must not take the connection down silently
            logger.error("gateway.failed", error=f"{type(exc).__name__}: {exc}", exc_info=True)
            relay.turn.error = f"{type(exc).__name__}: {exc}"
            message = f"context-compactor: internal error ({type(exc).__name__}); see the gateway log"
            if relay.started and not relay.responded:  # mid-stream: end it with an error event
                relay.responded = True
                await relay.send({"type": "http.response.body", "more_body": False,
                                  "body": relay.stream_error(message, "internal_error")})
            elif not relay.responded:
                relay.responded = True
                await send_error(relay.send, 500, message, "internal_error")

    async def command(self, send: Send, body: dict[str, Any], key: str, command: Command, args: str) -> None:
        """Answer a chat command in the OpenAI format, without calling the upstream."""
        text = await self.command_text(body, key, command, args)
        model = str(body.get("model") or "context-compactor")
        headers = [(b"x-context-compactor-session", key.encode("ascii", "replace"))]
        if body.get("stream"):
            options = body.get("stream_options")
            usage = isinstance(options, dict) and bool(options.get("include_usage"))
            payload = sse.completion_stream(text, model, usage)
            await send_bytes(send, 200, payload, [(b"content-type", b"text/event-stream; charset=utf-8"),
                                                  (b"cache-control", b"no-cache"), *headers])
        else:
            await send_bytes(send, 200, dumps(sse.completion(text, model)), [JSON_TYPE, *headers])

    async def command_text(self, body: dict[str, Any], key: str, command: Command, args: str) -> str:
        """Run a chat command for session ``key`` (after its bookkeeping settled); its answer's text."""
        model = str(body.get("model") or "context-compactor")
        ctx = HookContext(session_key=key, runtime=self.runtime, model=ModelInfo(id=model))
        self.forget(key)  # /compact-now: the next turn changes the prompt
        try:
            await self.settled(key)
            async with self.locks.hold(key):
                text = await self.in_thread(command.handler, args, ctx)
        except Exception as exc:  # noqa: BLE001 - a failed command is an answer, not a crash
            logger.warning("gateway.command_failed", command=command.name, session=key, error=str(exc))
            text = f"context-compactor: /{command.name} failed: {type(exc).__name__}: {exc}"
        logger.info("gateway.command", command=command.name, session=key)
        counter = fit_line(self, key) if command.name == "context-stats" else None
        return f"{text}\n{counter}" if counter else str(text)

    # --- everything else ------------------------------------------------------------------------

    async def proxy(self, scope: Scope, send: Send, raw: bytes) -> None:
        """Pass a request to the upstream and its answer back, both unchanged."""
        query = scope.get("query_string") or b""
        target = split_target(self.config.target(raw_path(scope))) + ("?" + query.decode("latin-1") if query else "")
        headers = request_headers(scope["headers"], self.config)
        try:
            response = await self.client.request(scope["method"], target, headers, raw)
        except UpstreamError as problem:
            logger.warning("gateway.upstream_failed", path=scope["path"], error=str(problem))
            self.metrics.upstream_error(problem.code)
            await send_error(send, problem.status, str(problem), problem.code, kind="upstream_error")
            return
        if response.status_code >= 400:
            self.metrics.upstream_error(str(response.status_code))
        clean = StreamRedactor(bearer(headers))  # an upstream that echoes its key: never to the client
        started = False
        try:
            async for chunk in response.iter_bytes():
                if not started:
                    started = True
                    await send({"type": "http.response.start", "status": response.status_code,
                                "headers": response_headers(response)})
                await send({"type": "http.response.body", "body": clean.feed(chunk), "more_body": True})
            if not started:
                await send({"type": "http.response.start", "status": response.status_code,
                            "headers": response_headers(response)})
        except UpstreamError as problem:
            if not started:
                await send_error(send, problem.status, str(problem), problem.code, kind="upstream_error")
                return
        finally:
            await response.aclose()
        await send({"type": "http.response.body", "body": clean.flush(), "more_body": False})
        logger.info("gateway.proxy", method=scope["method"], path=scope["path"], status=response.status_code)


OPEN_WARNING = ("anyone who can reach this address can use the upstream model (and its key); start the gateway "
                "with --api-key or $CONTEXT_COMPACTOR_API_KEY, or listen on 127.0.0.1")


def raw_path(scope: Scope) -> str:
    """The request path exactly as the client wrote it (``%2F`` stays ``%2F``): ASGI's ``path`` is decoded."""
    raw = scope.get("raw_path")
    if isinstance(raw, bytes) and raw:
        return raw.split(b"?", 1)[0].decode("latin-1")
    return str(scope["path"])


def _with_headers(send: Send, extra: Headers) -> Send:
    """``send`` that adds ``extra`` to the response's headers."""
    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            message = {**message, "headers": [*message.get("headers", []), *extra]}
        await send(message)
    return sending
