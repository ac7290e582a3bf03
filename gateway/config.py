"""What the gateway needs to know besides the compaction settings: where, who, how long, how big.

Built once at the edge (``context-compactor serve``) and passed down. Secrets are ``SecretStr`` so
that a repr, a log line or a traceback never shows them.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from pydantic import SecretStr

from context_compactor.errors import ConfigError

DEFAULT_PORT = 8787
DEFAULT_UPSTREAM_KEY_ENV = "CONTEXT_COMPACTOR_UPSTREAM_API_KEY"
CLIENT_KEY_ENV = "CONTEXT_COMPACTOR_API_KEY"


@dataclass(frozen=True)
class GatewayConfig:
    """The gateway's own options (the compaction options live in :class:`Settings`).

    ``upstream`` is the base URL an OpenAI client would use for the model server, such as
    ``http://127.0.0.1:8080/v1``; a bare ``http://host:port`` means ``http://host:port/v1``.
    """

    upstream: str
    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT
    api_key: SecretStr | None = field(default=None, repr=False)  # clients must send this bearer token
    api_keys: tuple[SecretStr, ...] = field(default=(), repr=False)  # more client keys: one per tenant
    upstream_api_key: SecretStr | None = field(default=None, repr=False)  # sent to the upstream
    max_body_bytes: int = 32 * 2**20
    connect_timeout: float = 10.0
    read_timeout: float = 600.0  # a local model may think for minutes before its first token
    write_timeout: float = 60.0
    pool_timeout: float = 30.0
    max_connections: int = 512
    hook_threads: int = 32
    shutdown_grace: float = 10.0
    max_retries: int = 2  # overflow recovery: retries after a context-length error
    # Count the prompt of each compaction with the upstream's own tokenizer before it goes (gateway/turn.py);
    # the same as the setting tokenizer: server.
    server_tokenizer: bool = False
    # The edge (gateway/edge.py): how long a client may take to send a request head, pause within a
    # body or sit idle between requests, and how big a head and how deep a chat body's JSON may be.
    header_timeout: float = 20.0
    idle_timeout: float = 30.0
    max_header_bytes: int = 64 * 1024
    max_headers: int = 100
    max_json_depth: int = 128

    def __post_init__(self) -> None:
        parts = urlsplit(self.upstream)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ConfigError(
                f"--upstream {self.upstream!r}: expected an http(s) URL such as http://127.0.0.1:8080/v1",
                key="upstream")
        if self.max_body_bytes <= 0:
            raise ConfigError("--max-body-mb must be positive", key="max_body_bytes")
        for option, value in (("--header-timeout", self.header_timeout), ("--idle-timeout", self.idle_timeout),
                              ("--max-header-kb", self.max_header_bytes), ("--max-headers", self.max_headers),
                              ("--max-json-depth", self.max_json_depth)):
            if not value > 0:
                raise ConfigError(f"{option} must be positive (got {value!r})", key=option.lstrip("-"))

    @property
    def client_keys(self) -> tuple[SecretStr, ...]:
        """Every key a client may send (each one a tenant); empty when clients need none."""
        keys = (self.api_key, *self.api_keys) if self.api_key is not None else self.api_keys
        return tuple(k for k in keys if k.get_secret_value())

    @property
    def base(self) -> str:
        """The OpenAI base URL of the upstream, always ending in its API root (``.../v1``)."""
        url = self.upstream.rstrip("/")
        return url if urlsplit(url).path else url + "/v1"

    @property
    def root(self) -> str:
        """The upstream's server root: the base without a trailing ``/v1``."""
        base = self.base
        return base[: -len("/v1")] if base.endswith("/v1") else base

    def target(self, path: str) -> str:
        """The upstream URL for a request path: ``/v1/x`` goes under the base, anything else under the root."""
        if path == "/v1" or path.startswith("/v1/"):
            return self.base + path[3:]
        if path == "/chat/completions":
            return self.base + path
        return self.root + path


def keys_from(values: list[str] | None, env: str | None) -> tuple[SecretStr, ...]:
    """Client keys from ``--api-key`` (given once per tenant), else from ``$env`` (several separated by
    commas or spaces); duplicates dropped."""
    raw = list(values or []) or (os.environ.get(env, "") if env else "").replace(",", " ").split()
    seen: dict[str, None] = dict.fromkeys(v.strip() for v in raw if v.strip())
    return tuple(SecretStr(v) for v in seen)


def secret_from_env(name: str | None) -> SecretStr | None:
    """The value of an environment variable as a secret, or None when unset or empty."""
    value = os.environ.get(name) if name else None
    return SecretStr(value) if value else None
