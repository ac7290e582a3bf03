"""Which conversation a request belongs to, and one lock per conversation.

A session is named by the ``X-Session-Id`` header, else the request's ``user`` field, else a
fingerprint of its system prompt and first user message (a client that sends neither still gets
one session per conversation, as long as the conversation's opening stays the same).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

MAX_KEY_CHARS = 200


def session_key(header: str | None, body: dict[str, Any]) -> str:
    """The session key of a chat request (prefixed ``gw:`` so it never meets another host's keys)."""
    if header and header.strip():
        return "gw:" + header.strip()[:MAX_KEY_CHARS]
    user = body.get("user")
    if isinstance(user, str) and user.strip():
        return "gw:user:" + user.strip()[:MAX_KEY_CHARS]
    return "gw:fp:" + fingerprint(body.get("messages") or [])


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
