"""Talking to the upstream model server: the one shared client, the headers, the errors.

    CompactorError
    └── UpstreamError            the upstream could not be used (carries ``url``)
        ├── UpstreamUnreachable  connection refused, DNS, TLS: nothing answered
        ├── UpstreamTimeout      it answered nothing within the configured time
        └── UpstreamBroken       it answered, then broke the response off (reset, bad framing)

``httpx.HTTPError`` is converted here, at the boundary, by :func:`convert`.
"""

from __future__ import annotations

import httpx

from context_compactor.errors import CompactorError

from .config import GatewayConfig
from .transport import make_transport

# Hop-by-hop headers and those that the gateway computes itself: never copied across.
_DROP_REQUEST = frozenset({
    b"host", b"content-length", b"connection", b"keep-alive", b"proxy-connection", b"transfer-encoding",
    b"te", b"trailer", b"upgrade", b"proxy-authorization", b"accept-encoding", b"expect",
})
_DROP_RESPONSE = frozenset({
    "content-length", "connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade",
    "content-encoding", "server", "date",
})


class UpstreamError(CompactorError):
    """The upstream model server could not be used for this request."""

    status = 502
    code = "upstream_error"

    def __init__(self, message: str, *, url: str) -> None:
        super().__init__(message)
        self.url = url


class UpstreamUnreachable(UpstreamError):
    code = "upstream_unreachable"


class UpstreamTimeout(UpstreamError):
    status = 504
    code = "upstream_timeout"


class UpstreamBroken(UpstreamError):
    code = "upstream_broken"


def convert(exc: httpx.HTTPError, url: str) -> UpstreamError:
    """The gateway's error for an httpx error, with a message that names the URL and the fix."""
    detail = str(exc) or type(exc).__name__
    if isinstance(exc, httpx.TimeoutException):
        kind = "connecting" if isinstance(exc, (httpx.ConnectTimeout, httpx.PoolTimeout)) else "waiting for an answer"
        return UpstreamTimeout(f"context-compactor: the upstream model server at {url} timed out while {kind} "
                               f"({type(exc).__name__}); check that it is running and not overloaded", url=url)
    if isinstance(exc, (httpx.ConnectError, httpx.UnsupportedProtocol)):
        return UpstreamUnreachable(f"context-compactor: cannot reach the upstream model server at {url} ({detail}); "
                                   "check --upstream and that the server is running", url=url)
    return UpstreamBroken(f"context-compactor: the upstream model server at {url} broke off its answer "
                          f"({type(exc).__name__}: {detail})", url=url)


def make_client(config: GatewayConfig, transport: httpx.AsyncBaseTransport | None = None) -> httpx.AsyncClient:
    """The one client the gateway uses for the upstream: explicit timeouts, a bounded pool on asyncio
    protocols (see :mod:`.transport`), no proxies from the environment. ``transport`` replaces the
    network (tests)."""
    limits = httpx.Limits(max_connections=config.max_connections,
                          max_keepalive_connections=min(config.max_connections, 128), keepalive_expiry=30.0)
    return httpx.AsyncClient(
        timeout=httpx.Timeout(connect=config.connect_timeout, read=config.read_timeout,
                              write=config.write_timeout, pool=config.pool_timeout),
        transport=transport if transport is not None else make_transport(limits),
        trust_env=False,  # a loopback model server must not be sent through an HTTP(S)_PROXY
        follow_redirects=False,
    )


def request_headers(raw: list[tuple[bytes, bytes]], config: GatewayConfig) -> list[tuple[bytes, bytes]]:
    """The client's headers as the upstream should see them.

    The client's ``Authorization`` is the gateway's own key when one is configured, so it is never
    passed on; the upstream key (from the environment) replaces it when set.
    """
    out = [(k, v) for k, v in raw if k.lower() not in _DROP_REQUEST and k.lower() != b"authorization"]
    if config.upstream_api_key is not None:
        out.append((b"authorization", b"Bearer " + config.upstream_api_key.get_secret_value().encode()))
    elif config.api_key is None:
        out.extend((k, v) for k, v in raw if k.lower() == b"authorization")
    out.append((b"accept-encoding", b"identity"))  # the relay reads the stream; compression would hide it
    return out


def bearer(headers: list[tuple[bytes, bytes]]) -> str | None:
    """The token of the ``Authorization: Bearer`` header that :func:`request_headers` sends upstream."""
    for name, value in headers:
        if name.lower() == b"authorization" and value[:7].lower() == b"bearer ":
            return value[7:].decode("latin-1").strip() or None
    return None


def response_headers(response: httpx.Response) -> list[tuple[bytes, bytes]]:
    """The upstream's response headers worth passing to the client."""
    return [(k.encode("latin-1"), v.encode("latin-1")) for k, v in response.headers.multi_items()
            if k.lower() not in _DROP_RESPONSE]
