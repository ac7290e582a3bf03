"""What a session keeps in the store between turns and processes: a typed, versioned record.

The store holds it as JSON (``Store.session`` / ``save_session``); :meth:`SessionState.load` reads
any version this release knows, taking it forward one migration at a time (like the store's own
schema), and :meth:`SessionState.dump` writes the current one. Version 0 is the untyped dict of the
releases before the record (no ``version`` key). A record from a newer release, or one that does not
read, starts the session afresh: the state is a cache of decisions (the last plan, the ledger's
tiers, the loop breakers), and losing it costs one fresh compaction, never a message.

    version 1   the keys of version 0, each part checked; the fields older writers left out filled
                in (an anchor without ``summary_tokens``, tiers without their source); ``signature``
                (the plan last sent) came later within version 1: a part that earlier readers skip
                and this one reads as None when it is absent
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from .logs import get_logger

logger = get_logger()

Record = dict[str, Any]


@dataclass(frozen=True)
class SavedPlan:
    """The last plan (the *anchor*), with digests of the messages it cuts after, and the settings it
    was made for (``fingerprint``): reused only while both still hold."""

    lead: int
    cut: int
    stub_until: int
    stage: int
    summary_tokens: int
    cut_digest: str
    stub_digest: str
    fingerprint: list[Any]
    sent: int = 0  # what its prompt measured when it was built, less the fixed part (0: not known)
    sent_upto: int = 0  # for this many messages


@dataclass(frozen=True)
class SavedTiers:
    """The ledger body last sent (see :class:`~context_compactor.engine.Tiers`), with the digest of the
    last message of its fold and the settings it was made for."""

    lead: int
    cut: int
    first: int
    text: str
    merged: bool
    source: str
    budget: int
    complete: bool
    cut_digest: str
    fingerprint: list[Any]


@dataclass(frozen=True)
class CompactionRecord:
    """The figures of the session's last compaction, for ``/context-stats``."""

    at: str
    tokens_before: int
    tokens_after: int
    folded: int
    stage: int
    summarizer: str | None
    chunks: int
    cache_hits: int
    fallbacks: int


@dataclass(frozen=True)
class FallbackRecord:
    """When the built-in summary last stood in for the model's, and the model's error."""

    at: str
    error: str


@dataclass
class SessionState:
    """The persisted part of a session (see the module docstring for its versions)."""

    anchor: SavedPlan | None = None
    tiers: SavedTiers | None = None
    compactions: int = 0
    last_compaction: CompactionRecord | None = None
    summary_fallbacks: dict[str, int] = field(default_factory=dict)  # by kind of model failure
    last_fallback: FallbackRecord | None = None
    holding: str | None = None  # the loop breaker keeps the last plan, and why
    stuck_turns: int = 0  # fresh compactions in a row that stayed above the trigger
    refetch_watch: dict[str, list[int]] = field(default_factory=dict)  # call as JSON -> [user turn, index]
    pinned: list[str] = field(default_factory=list)  # calls (as JSON) whose results stay verbatim
    save_state_told: int | None = None  # the history length the save-state reminder went out at
    signature: list[Any] | None = None  # the plan last sent: [lead, cut, stub_until, [[index, cut to], ...]]
    signed_upto: int | None = None  # the messages that plan was made for
    restored: list[int] = field(default_factory=list)  # results of pinned calls the plan put back (loop breakers)

    @classmethod
    def load(cls, data: Any, session_key: str = "") -> SessionState:
        """The record the store holds (any known version), taken to the current one."""
        if not isinstance(data, dict) or not data:
            return cls()
        version = data.get("version", 0)
        if not isinstance(version, int) or isinstance(version, bool) or version > VERSION or version < 0:
            logger.warning("session.state_unknown", session_key=session_key, version=version, known=VERSION)
            return cls()
        for migrate in MIGRATIONS[version:]:
            data = migrate(data, session_key)
        return cls._read(data, session_key)

    @classmethod
    def _read(cls, data: Record, session_key: str) -> SessionState:
        state = cls()
        parts: dict[str, Callable[[Any], Any]] = {
            "anchor": lambda v: _record(SavedPlan, v), "tiers": lambda v: _record(SavedTiers, v),
            "last_compaction": lambda v: _record(CompactionRecord, v),
            "last_fallback": lambda v: _record(FallbackRecord, v),
            "compactions": _count, "stuck_turns": _count,
            "summary_fallbacks": lambda v: {str(k): _count(n) for k, n in dict(v).items()},
            "holding": lambda v: str(v) if v else None,
            "refetch_watch": lambda v: {str(k): [_count(n) for n in list(seen)[:2]] for k, seen in dict(v).items()},
            "pinned": lambda v: [str(k) for k in list(v)],
            "save_state_told": lambda v: None if v is None else _count(v),
            "signature": _signature,
            "signed_upto": lambda v: None if v is None else _count(v),
            "restored": lambda v: [_count(n) for n in list(v)],
        }
        for name, read in parts.items():
            value = data.get(name)
            if value is None:
                continue
            try:
                setattr(state, name, read(value))
            except (TypeError, ValueError) as exc:  # one part that does not read is dropped, not the rest
                logger.warning("session.state_part_dropped", session_key=session_key, part=name,
                               error=f"{type(exc).__name__}: {exc}")
        return state

    def dump(self) -> Record:
        """The record as JSON-ready data, at the current version."""
        return {"version": VERSION, **asdict(self)}

    # Transitional: read by the version-0 key like the dict this class replaced (``/context-stats`` has not
    # moved to the attributes yet). Only field names are accepted.
    def get(self, key: str, default: Any = None) -> Any:
        if key not in _FIELDS:
            return default
        value = getattr(self, key)
        if value is None:
            return default
        return asdict(value) if hasattr(value, "__dataclass_fields__") else value

    def __getitem__(self, key: str) -> Any:
        if key not in _FIELDS:
            raise KeyError(key)
        return self.get(key)


_FIELDS = frozenset(f.name for f in fields(SessionState))


def _count(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"expected a number, got {type(value).__name__}")
    return int(value)


def _signature(value: Any) -> list[Any]:
    if not isinstance(value, list) or len(value) != 4 or not isinstance(value[3], list):
        raise TypeError(f"expected [lead, cut, stub_until, truncations], got {value!r}")
    return [_count(value[0]), _count(value[1]), _count(value[2]), [list(kv) for kv in value[3]]]


def _record(cls: Any, value: Any) -> Any:
    """A frozen record from its dict: every field present, no other (TypeError otherwise)."""
    if not isinstance(value, dict):
        raise TypeError(f"expected an object, got {type(value).__name__}")
    return cls(**value)


# --- migrations: MIGRATIONS[n] takes a version-n record to version n + 1 ----------------------------


_PLAN_DEFAULTS = {"summary_tokens": 0, "cut_digest": "", "stub_digest": "", "fingerprint": []}
_TIERS_DEFAULTS = {"merged": False, "source": "", "budget": 0, "complete": False, "fingerprint": []}


def _v0_to_v1(data: Record, session_key: str) -> Record:
    """The untyped dict of the first releases: its keys stay; an anchor saved before ``summary_tokens``
    existed (sized again on reuse) and tiers saved before their source digest get the defaults the
    readers used; keys no release reads any more are left behind."""
    out: Record = {name: data[name] for name in _FIELDS if name in data}
    for name, defaults in (("anchor", _PLAN_DEFAULTS), ("tiers", _TIERS_DEFAULTS)):
        part = out.get(name)
        if isinstance(part, dict):
            wanted = {f.name for f in fields(SavedPlan if name == "anchor" else SavedTiers)}
            out[name] = {**defaults, **{k: v for k, v in part.items() if k in wanted}}
    left = sorted(set(data) - _FIELDS - {"version"})
    if left:
        logger.info("session.state_migrated", session_key=session_key, to_version=1, left_behind=left)
    return {**out, "version": 1}


MIGRATIONS: tuple[Callable[[Record, str], Record], ...] = (_v0_to_v1,)
VERSION = len(MIGRATIONS)
