"""Token counters: a chars-per-token ratio, or tiktoken loaded from the encodings we ship.

A counter turns text into *units*; ``tokens = ceil(units / ratio)``. For the ratio counter units
are characters and ``ratio`` is chars per token (the configured ``charsPerToken``, or the ratio
calibrated per model from what the provider reported). For tiktoken units are tokens and the
ratio is 1. Memoising units per message (see :mod:`context_compactor.engine.measure`) means a
change of ratio costs no re-reading of text.

tiktoken is loaded fully offline: the BPE files ship gzipped in ``encodings/``, are checked
against their known sha256, and are parsed here, so nothing is downloaded and no cache folder or
environment variable is touched.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import math
import threading
import zlib
from dataclasses import dataclass
from importlib import resources
from typing import Any, Protocol

from .errors import ConfigError

# Calibrated ratios stay within these bounds, whatever a provider reports.
MIN_RATIO = 1.5
MAX_RATIO = 8.0
CALIBRATION_WEIGHT = 0.3  # weight of a new sample in the running ratio
PIECE_CHARS = 100_000  # a text tiktoken cannot split whole is counted in pieces of this many characters

_ENDOFTEXT = "<|endoftext|>"
_ENDOFPROMPT = "<|endofprompt|>"
_ENCODINGS: dict[str, dict[str, Any]] = {
    "cl100k_base": {
        "sha256": "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
        "pat_str": r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s""",
        "special_tokens": {
            _ENDOFTEXT: 100257,
            "<|fim_prefix|>": 100258,
            "<|fim_middle|>": 100259,
            "<|fim_suffix|>": 100260,
            _ENDOFPROMPT: 100276,
        },
    },
    "o200k_base": {
        "sha256": "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
        "pat_str": "|".join(
            [
                r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
                r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
                r"""\p{N}{1,3}""",
                r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
                r"""\s*[\r\n]+""",
                r"""\s+(?!\S)""",
                r"""\s+""",
            ]
        ),
        "special_tokens": {_ENDOFTEXT: 199999, _ENDOFPROMPT: 200018},
    },
}
_loaded: dict[str, Any] = {}
_load_lock = threading.Lock()


class Counter(Protocol):
    """Turns text into units; ``tokens = ceil(units / ratio)``."""

    @property
    def name(self) -> str: ...

    @property
    def ratio(self) -> float: ...

    def units(self, text: str) -> int: ...


@dataclass(frozen=True)
class CharCounter:
    """Characters divided by a chars-per-token ratio."""

    ratio: float = 4.0
    name: str = "chars"

    def units(self, text: str) -> int:
        return len(text)


class TiktokenCounter:
    """Exact token counts of an OpenAI encoding (a good estimate for most BPE models)."""

    ratio = 1.0

    def __init__(self, encoding_name: str) -> None:
        self.name = encoding_name
        self._encoding = load_encoding(encoding_name)

    def units(self, text: str) -> int:
        try:
            return len(self._encoding.encode(text, disallowed_special=()))
        except ValueError:  # tiktoken's regex gives up on a run of ~1M spaces ("Max stack size exceeded"):
            return sum(len(self._encoding.encode(text[at:at + PIECE_CHARS], disallowed_special=()))
                       for at in range(0, len(text), PIECE_CHARS))  # counted in pieces, a token more per cut


def tokens_of(counter: Counter, text: str) -> int:
    """Tokens of one piece of text under ``counter``."""
    return math.ceil(counter.units(text) / counter.ratio)


def load_encoding(name: str) -> Any:
    """The tiktoken Encoding ``name``, built from the shipped rank file (checked, cached)."""
    if name not in _ENCODINGS:
        raise ConfigError(
            f"tokenizer {name!r} is not available offline (choose chars, {', '.join(_ENCODINGS)})",
            key="tokenizer",
        )
    with _load_lock:
        if name not in _loaded:
            _loaded[name] = _build_encoding(name)
        return _loaded[name]


def _build_encoding(name: str) -> Any:
    import tiktoken  # imported lazily: most users count characters

    spec = _ENCODINGS[name]
    packed = resources.files("context_compactor").joinpath(f"encodings/{name}.tiktoken.gz").read_bytes()
    return tiktoken.Encoding(
        name=name, pat_str=spec["pat_str"], mergeable_ranks=ranks_from(name, packed),
        special_tokens=spec["special_tokens"],
    )


def ranks_from(name: str, packed: bytes) -> dict[bytes, int]:
    """The BPE ranks in a gzipped ``.tiktoken`` file, after checking it is the file we expect."""
    damaged = f"the shipped encoding file for {name} is damaged (%s); reinstall context-compactor"
    try:
        raw = gzip.decompress(packed)
    except (OSError, EOFError, zlib.error) as exc:
        raise ConfigError(damaged % f"not a gzip file: {exc}", key="tokenizer") from None
    if hashlib.sha256(raw).hexdigest() != _ENCODINGS[name]["sha256"]:
        raise ConfigError(damaged % "sha256 mismatch", key="tokenizer")
    return {
        base64.b64decode(token): int(rank)
        for token, rank in (line.split() for line in raw.splitlines() if line)
    }


def make_counter(tokenizer: str, chars_per_token: float) -> Counter:
    """The counter for a ``tokenizer`` setting: ``chars`` (with the given ratio) or an encoding."""
    if tokenizer in ("chars", "server"):  # "server": the ratio between the model server's own counts
        return CharCounter(ratio=chars_per_token)
    return TiktokenCounter(tokenizer)


def calibrated_ratio(current: float, chars: int, reported_tokens: int, overhead_tokens: int) -> float | None:
    """Move a chars-per-token ratio toward what a provider reported for a prompt of ``chars``.

    ``overhead_tokens`` (per-message framing we add on top of text) is taken off the report first.
    Returns None when the sample is unusable (too small to say anything).
    """
    text_tokens = reported_tokens - overhead_tokens
    if chars < 200 or text_tokens < 50:
        return None
    sample = min(MAX_RATIO, max(MIN_RATIO, chars / text_tokens))
    updated = current + CALIBRATION_WEIGHT * (sample - current)
    return round(min(MAX_RATIO, max(MIN_RATIO, updated)), 4)
