"""Talking to the upstream model server: the headers and the errors.

    CompactorError
    └── UpstreamError            the upstream could not be used (carries ``url``)
        ├── UpstreamUnreachable  connection refused, DNS, TLS: nothing answered
        ├── UpstreamTimeout      it answered nothing within the configured time
        └── UpstreamBroken       it answered, then broke the response off (reset, bad framing)

The client (:mod:`.http1`, which also makes the gateway's one client) raises these itself, with messages
that name the URL and the fix.
"""

from __future__ import annotations

from typing import Protocol

from context_compactor.errors import CompactorError

from .config import GatewayConfig

# Hop-by-hop headers and those that the gateway computes itself: never copied across.
_DROP_REQUEST = frozenset({
    b"host", b"content-length", b"connection", b"keep-alive", b"proxy-connection", b"transfer-encoding",
    b"te", b"trailer", b"upgrade", b"proxy-authorization", b"accept-encoding", b"expect",
})
_DROP_RESPONSE = frozenset({
    b"content-length", b"connection", b"keep-alive", b"transfer-encoding", b"te", b"trailer", b"upgrade",
    b"content-encoding", b"server", b"date",
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


def request_headers(raw: list[tuple[bytes, bytes]], config: GatewayConfig) -> list[tuple[bytes, bytes]]:
    """The client's headers as the upstream should see them.

    The client's ``Authorization`` (or ``x-api-key``, as Anthropic's SDKs send it) is the gateway's own
    key when client keys are configured, so it is never passed on; the upstream key (from the
    environment) replaces ``Authorization`` when set.
    """
    keyed = bool(config.client_keys)
    out = [(k, v) for k, v in raw if k.lower() not in _DROP_REQUEST and k.lower() != b"authorization"
           and not (keyed and k.lower() == b"x-api-key")]
    if config.upstream_api_key is not None:
        out.append((b"authorization", b"Bearer " + config.upstream_api_key.get_secret_value().encode()))
    elif not keyed:
        out.extend((k, v) for k, v in raw if k.lower() == b"authorization")
    out.append((b"accept-encoding", b"identity"))  # the relay reads the stream; compression would hide it
    return out


def bearer(headers: list[tuple[bytes, bytes]]) -> str | None:
    """The token of the ``Authorization: Bearer`` header that :func:`request_headers` sends upstream."""
    for name, value in headers:
        if name.lower() == b"authorization" and value[:7].lower() == b"bearer ":
            return value[7:].decode("latin-1").strip() or None
    return None


class Answered(Protocol):
    """An upstream response as far as its headers go (:class:`.http1.Response`)."""

    headers: list[tuple[bytes, bytes]]


def response_headers(response: Answered) -> list[tuple[bytes, bytes]]:
    """The upstream's response headers worth passing to the client."""
    return [(k, v) for k, v in response.headers if k.lower() not in _DROP_RESPONSE]
