"""Which conversation a request belongs to, and one lock per conversation.

A session is named by the ``X-Session-Id`` header, else the request's ``user`` field. A client that
sends neither gets an *unnamed* session keyed by a fingerprint of its system prompt and first user
message: two clients whose conversations open alike land on the same key, so such a key may hold
the plan and its figures (nothing secret) but never lets one client read another's archive: recall
(:mod:`context_compactor.hooks.recall`) answers an unnamed session only with messages the request
itself carries, and automatic recall stays off for it.

With client keys (``--api-key``, one per tenant) every key starts with the tenant: a hash of the key
the client presented, so no name a client chooses reaches another tenant's rows.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from context_compactor.hooks.recall import UNNAMED

MAX_KEY_CHARS = 200


def session_key(header: str | None, body: dict[str, Any], tenant: str | None = None) -> str:
    """The session key of a chat request: ``gw:`` (so it never meets another host's keys), the
    tenant when there is one (``t.<hash>:``), then the name the client gave, or ``anon:`` and the
    fingerprint when it gave none."""
    scope = f"gw:t.{tenant}:" if tenant else "gw:"
    if header and header.strip():
        return scope + _named(header.strip()[:MAX_KEY_CHARS])
    user = body.get("user")
    if isinstance(user, str) and user.strip():
        return scope + "user:" + user.strip()[:MAX_KEY_CHARS]
    return scope + UNNAMED + fingerprint(body.get("messages") or [])


def _named(name: str) -> str:
    """A client's name for its session, kept apart from the unnamed keys (a header ``anon:x`` is no
    fingerprint key)."""
    return "h:" + name if name.startswith(UNNAMED) else name


def tenant_of(key: str) -> str:
    """The tenant a client key stands for in session keys: a short hash, never the key."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:16]


def fingerprint(messages: list[Any]) -> str:
    """A hash of the leading system messages and the first user message."""
    opening: list[Any] = []
    for message in messages:
        if not isinstance(message, dict):
            continue
        if message.get("role") in ("system", "developer"):
            opening.append(message.get("content"))
        elif message.get("role") == "user":
            opening.append(message.get("content"))
            break
    raw = json.dumps(opening, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()[:24]


class KeyedLocks:
    """An asyncio lock per key, dropped when nobody holds or waits for it."""

    def __init__(self) -> None:
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}

    @asynccontextmanager
    async def hold(self, key: str) -> AsyncIterator[None]:
        lock, users = self._locks.get(key) or (asyncio.Lock(), 0)
        self._locks[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[key]
            if users <= 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)

    def __len__(self) -> int:
        return len(self._locks)
