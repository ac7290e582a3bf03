"""Keeping API keys out of what we show: error messages, logs, stats, the store, a client's response.

Some model servers echo the key they were sent (in a 401, a 500, even a 200 body). Whatever we
derive from such a body is passed through :func:`redact` (text) or :func:`redact_bytes` (a body
we relay) with the keys in play. Two rules keep redaction from doing harm:

- only keys long enough to be secrets are redacted (``MIN_SECRET_CHARS``): a local server's
  placeholder key ("x", "ollama", "lm-studio", "not-needed") is no secret, and replacing it would
  garble ordinary words ("e[redacted]ceeds");
- the whole key is replaced, never a part of it, and in the forms a JSON body carries it (plain,
  and with ``/`` escaped).

Callers classify an error (context length, rate limit, ...) on the raw body first and redact
after, so redaction never changes what an error is taken for.
"""

from __future__ import annotations

from collections.abc import Iterable

MIN_SECRET_CHARS = 12
REDACTED = "[redacted]"


def secrets_of(keys: Iterable[str | None]) -> tuple[str, ...]:
    """The keys worth redacting: long enough to be secrets, each with its JSON-escaped form, longest first."""
    out: set[str] = set()
    for key in keys:
        if key and len(key) >= MIN_SECRET_CHARS:
            out.add(key)
            out.add(key.replace("/", "\\/"))
    return tuple(sorted(out, key=len, reverse=True))


def redact(text: str, *keys: str | None) -> str:
    """``text`` with every whole occurrence of each key (see :func:`secrets_of`) replaced by ``[redacted]``."""
    for secret in secrets_of(keys):
        if secret in text:
            text = text.replace(secret, REDACTED)
    return text


def redact_bytes(data: bytes, *keys: str | None) -> bytes:
    """:func:`redact` for a UTF-8 body; bytes without any key come back as the same object."""
    for secret in secrets_of(keys):
        raw = secret.encode("utf-8")
        if raw in data:
            data = data.replace(raw, REDACTED.encode())
    return data


class StreamRedactor:
    """:func:`redact_bytes` over a body that arrives in pieces: a key cut in two by the network is still
    redacted (the last few bytes are held back until the next piece or :meth:`flush`)."""

    def __init__(self, *keys: str | None) -> None:
        self.secrets = [secret.encode("utf-8") for secret in secrets_of(keys)]
        self.hold = max((len(secret) for secret in self.secrets), default=1) - 1
        self._buf = b""

    def feed(self, piece: bytes) -> bytes:
        if not self.secrets:
            return piece
        data = self._buf + piece
        for secret in self.secrets:
            if secret in data:
                data = data.replace(secret, REDACTED.encode())
        cut = max(0, len(data) - self.hold)
        self._buf = data[cut:]
        return data[:cut]

    def flush(self) -> bytes:
        rest, self._buf = self._buf, b""
        return rest
