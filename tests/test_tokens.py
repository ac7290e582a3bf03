"""Token counters: the chars ratio, the offline tiktoken encodings, and ratio calibration."""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import socket
import subprocess
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from context_compactor.engine.measure import Measurer
from context_compactor.errors import ConfigError
from context_compactor.tokens import (
    _ENCODINGS,
    CALIBRATION_WEIGHT,
    MAX_RATIO,
    MIN_RATIO,
    CharCounter,
    TiktokenCounter,
    calibrated_ratio,
    load_encoding,
    make_counter,
    ranks_from,
    tokens_of,
)

KNOWN_IDS = {"cl100k_base": [15339, 1917], "o200k_base": [24912, 2375]}


def shipped(name: str) -> bytes:
    return resources.files("context_compactor").joinpath(f"encodings/{name}.tiktoken.gz").read_bytes()


@pytest.fixture
def closed_port() -> int:
    """A local TCP port that nothing listens on (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


# --- the chars ratio ------------------------------------------------------------------------------


def test_char_counter_units_are_characters() -> None:
    """A CharCounter's units are the characters of the text, whatever its ratio."""
    assert CharCounter(ratio=2.5).units("héllo wörld") == 11


@pytest.mark.parametrize(("text", "ratio", "tokens"), [
    ("", 4.0, 0), ("a", 4.0, 1), ("abcd", 4.0, 1), ("abcde", 4.0, 2), ("x" * 100, 4.0, 25),
    ("x" * 10, 3.5, 3), ("x" * 7, 3.5, 2), ("x" * 10, 0.5, 20),
])
def test_tokens_of_rounds_characters_over_ratio_up(text: str, ratio: float, tokens: int) -> None:
    """tokens_of is ceil(characters / chars-per-token)."""
    assert tokens_of(CharCounter(ratio=ratio), text) == tokens


@given(st.text(max_size=500), st.floats(min_value=0.5, max_value=20))
def test_tokens_of_never_underestimates_the_ratio(text: str, ratio: float) -> None:
    """The token estimate times the ratio always covers every character."""
    tokens = tokens_of(CharCounter(ratio=ratio), text)
    assert tokens * ratio >= len(text) - 1e-9
    assert (tokens - 1) * ratio < len(text) or tokens == 0


class PlainChars:
    """A characters counter that is not a CharCounter, so the measurer reads it piece by piece."""

    name = "chars"

    def __init__(self, ratio: float) -> None:
        self.ratio = ratio

    def units(self, text: str) -> int:
        return len(text)


@given(st.lists(st.one_of(
    st.builds(lambda t: {"role": "user", "content": t}, st.text(max_size=40)),
    st.builds(lambda t: {"role": "user", "content": [{"type": "text", "text": t}, {"type": "image_url"}]},
              st.text(max_size=40)),
    st.builds(lambda n, a: {"role": "assistant", "content": None,
                            "tool_calls": [{"id": "c", "type": "function", "function": {"name": n, "arguments": a}}]},
              st.text(max_size=10), st.text(max_size=40)),
    st.builds(lambda t: {"role": "tool", "tool_call_id": "c", "content": t}, st.text(max_size=40)),
), max_size=8), st.floats(min_value=0.5, max_value=20))
def test_measured_chars_are_the_same_with_or_without_the_char_counter_shortcut(
        messages: list[dict[str, Any]], ratio: float) -> None:
    """The measurer's shortcut for CharCounter gives the units and tokens a characters counter gives."""
    fast = Measurer(CharCounter(ratio=ratio), 4).measure(messages)
    plain = Measurer(PlainChars(ratio), 4).measure(messages)
    assert [(e.units, e.tokens) for e in fast.entries] == [(e.units, e.tokens) for e in plain.entries]
    assert fast.total == plain.total


def test_make_counter_chars_uses_the_given_ratio() -> None:
    """make_counter("chars", x) counts characters at x chars per token."""
    counter = make_counter("chars", 3.0)
    assert counter.name == "chars"
    assert counter.ratio == 3.0
    assert tokens_of(counter, "x" * 9) == 3


# --- tiktoken, offline -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(KNOWN_IDS))
def test_shipped_encoding_gives_known_ids(name: str) -> None:
    """The shipped encodings turn "hello world" into OpenAI's known token ids."""
    assert load_encoding(name).encode("hello world") == KNOWN_IDS[name]


@pytest.mark.parametrize("name", sorted(KNOWN_IDS))
def test_tiktoken_counter_counts_tokens_with_ratio_one(name: str) -> None:
    """A TiktokenCounter's units are tokens, so its ratio is 1."""
    counter = make_counter(name, 4.0)
    assert isinstance(counter, TiktokenCounter)
    assert counter.name == name
    assert counter.ratio == 1.0
    assert tokens_of(counter, "hello world") == 2


@pytest.mark.parametrize("name", sorted(KNOWN_IDS))
def test_tiktoken_counter_counts_special_token_text_as_plain_text(name: str) -> None:
    """Text that looks like a special token is counted, not refused."""
    counter = TiktokenCounter(name)
    assert counter.units("<|endoftext|>") > 1


@pytest.mark.parametrize("name", sorted(KNOWN_IDS))
@settings(max_examples=60, deadline=None)
@given(text=st.text(max_size=200))
def test_encoding_round_trips_any_text(name: str, text: str) -> None:
    """Decoding what an encoding produced gives the text back."""
    encoding = load_encoding(name)
    assert encoding.decode(encoding.encode(text, disallowed_special=())) == text


@pytest.mark.parametrize("name", sorted(KNOWN_IDS))
def test_encoding_is_loaded_once(name: str) -> None:
    """A second load returns the same (cached) Encoding object."""
    assert load_encoding(name) is load_encoding(name)


@pytest.mark.parametrize("name", sorted(KNOWN_IDS))
def test_spec_matches_tiktoken_own_definition(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              closed_port: int) -> None:
    """Our split pattern, special tokens and ranks equal tiktoken's own definition of the encoding."""
    from tiktoken_ext import openai_public

    # Feed tiktoken's own loader our file through its cache, with the network closed off.
    url = f"https://openaipublic.blob.core.windows.net/encodings/{name}.tiktoken"
    (tmp_path / hashlib.sha1(url.encode()).hexdigest()).write_bytes(gzip.decompress(shipped(name)))
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path))
    for var in ("HTTPS_PROXY", "HTTP_PROXY", "https_proxy", "http_proxy"):
        monkeypatch.setenv(var, f"http://127.0.0.1:{closed_port}")
    official = getattr(openai_public, name)()
    assert official["pat_str"] == _ENCODINGS[name]["pat_str"]
    assert official["special_tokens"] == _ENCODINGS[name]["special_tokens"]
    assert official["mergeable_ranks"] == ranks_from(name, shipped(name))


def test_unknown_tokenizer_is_a_config_error_naming_the_key() -> None:
    """Asking for an encoding we do not ship raises ConfigError on the "tokenizer" key."""
    with pytest.raises(ConfigError) as raised:
        make_counter("p50k_base", 4.0)
    assert raised.value.key == "tokenizer"
    assert "p50k_base" in str(raised.value)
    assert "cl100k_base" in str(raised.value)


@pytest.mark.parametrize("name", sorted(KNOWN_IDS))
def test_tampered_encoding_file_is_detected(name: str) -> None:
    """A rank file whose bytes differ from the known one fails its sha256 check."""
    raw = bytearray(gzip.decompress(shipped(name)))
    raw[10] ^= 1
    with pytest.raises(ConfigError, match="damaged.*sha256") as raised:
        ranks_from(name, gzip.compress(bytes(raw)))
    assert raised.value.key == "tokenizer"


def test_truncated_encoding_file_is_detected() -> None:
    """A rank file cut short (not a whole gzip stream) is reported as damaged, not as a crash."""
    with pytest.raises(ConfigError, match="damaged"):
        ranks_from("cl100k_base", shipped("cl100k_base")[:1000])


def test_encoding_file_that_is_not_gzip_is_detected() -> None:
    """Garbage in place of the gzip file is reported as damaged."""
    with pytest.raises(ConfigError, match="damaged"):
        ranks_from("o200k_base", b"definitely not gzip")


def test_shipped_encoding_passes_its_check() -> None:
    """The shipped file passes the check and holds the full vocabulary."""
    ranks = ranks_from("cl100k_base", shipped("cl100k_base"))
    assert len(ranks) == 100256
    assert ranks[b"hello"] == 15339


OFFLINE_CHILD = r"""
import json, os, socket, sys

def refuse(*args, **kwargs):
    raise OSError("network access attempted")

socket.socket.connect = refuse
socket.socket.connect_ex = refuse
socket.create_connection = refuse
socket.getaddrinfo = refuse

before = dict(os.environ)
from context_compactor.tokens import load_encoding
ids = {name: load_encoding(name).encode("hello world") for name in ("cl100k_base", "o200k_base")}
print(json.dumps({"ids": ids, "env_unchanged": dict(os.environ) == before}))
"""


def test_encodings_load_with_no_network_and_no_side_effects(tmp_path: Path, closed_port: int) -> None:
    """In a fresh process with the network refused, both encodings load, no cache folder appears, the env is unchanged."""
    fresh_tmp = tmp_path / "tmp"
    fresh_tmp.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("TIKTOKEN_CACHE_DIR", "DATA_GYM_CACHE_DIR")}
    proxy = f"http://127.0.0.1:{closed_port}"
    env.update(TMPDIR=str(fresh_tmp), HTTPS_PROXY=proxy, HTTP_PROXY=proxy, https_proxy=proxy, http_proxy=proxy,
               HOME=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", OFFLINE_CHILD], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["ids"] == KNOWN_IDS
    assert report["env_unchanged"] is True
    assert not list(fresh_tmp.rglob("data-gym-cache"))
    assert list(fresh_tmp.iterdir()) == []


# --- calibration -----------------------------------------------------------------------------------


def test_calibration_moves_a_weighted_step_toward_the_sample() -> None:
    """One sample moves the ratio CALIBRATION_WEIGHT of the way toward chars / text tokens."""
    # 3000 chars, 1010 reported of which 10 are framing: a sample of 3.0 chars per token.
    assert calibrated_ratio(4.0, 3000, 1010, 10) == pytest.approx(4.0 + CALIBRATION_WEIGHT * (3.0 - 4.0))


@given(
    start=st.floats(min_value=MIN_RATIO, max_value=MAX_RATIO),
    true_ratio=st.floats(min_value=MIN_RATIO, max_value=MAX_RATIO),
    text_tokens=st.integers(min_value=200, max_value=100_000),
    overhead=st.integers(min_value=0, max_value=500),
)
def test_calibration_converges_to_chars_per_token(start: float, true_ratio: float, text_tokens: int, overhead: int) -> None:
    """Repeated samples from one model bring the ratio close to its chars per text token."""
    chars = round(true_ratio * text_tokens)
    ratio = start
    for _ in range(40):
        updated = calibrated_ratio(ratio, chars, text_tokens + overhead, overhead)
        assert updated is not None
        ratio = updated
    target = min(MAX_RATIO, max(MIN_RATIO, chars / text_tokens))
    assert ratio == pytest.approx(target, abs=2e-3)


@given(
    start=st.floats(min_value=MIN_RATIO, max_value=MAX_RATIO),
    chars=st.integers(min_value=200, max_value=1_000_000),
    reported=st.integers(min_value=50, max_value=1_000_000),
)
def test_calibration_never_overshoots_the_sample(start: float, chars: int, reported: int) -> None:
    """Each update lands between the current ratio and the (clamped) sample."""
    sample = min(MAX_RATIO, max(MIN_RATIO, chars / reported))
    updated = calibrated_ratio(start, chars, reported, 0)
    assert updated is not None
    assert min(start, sample) - 1e-4 <= updated <= max(start, sample) + 1e-4


@given(
    start=st.floats(min_value=0.5, max_value=20),
    chars=st.integers(min_value=200, max_value=10_000_000),
    reported=st.integers(min_value=50, max_value=10_000_000),
    overhead=st.integers(min_value=0, max_value=1000),
)
def test_calibrated_ratio_is_clamped(start: float, chars: int, reported: int, overhead: int) -> None:
    """Whatever the report (or a configured ratio outside the bounds), the result stays in [MIN_RATIO, MAX_RATIO]."""
    updated = calibrated_ratio(start, chars, reported + overhead, overhead)
    assert updated is not None
    assert MIN_RATIO <= updated <= MAX_RATIO


def test_absurd_reports_are_clamped_at_the_bounds() -> None:
    """A report of far too few or far too many tokens pushes the ratio only to a bound."""
    high = 4.0
    low = 4.0
    for _ in range(60):
        high = calibrated_ratio(high, 1_000_000, 50, 0) or high
        low = calibrated_ratio(low, 200, 1_000_000, 0) or low
    assert MAX_RATIO - 1e-3 <= high <= MAX_RATIO
    assert MIN_RATIO <= low <= MIN_RATIO + 1e-3


@pytest.mark.parametrize(("chars", "reported", "overhead"), [
    (199, 1000, 0),  # too little text
    (10_000, 49, 0),  # too few tokens
    (10_000, 100, 60),  # framing leaves too few text tokens
    (10_000, 10, 100),  # framing larger than the report
])
def test_tiny_samples_are_ignored(chars: int, reported: int, overhead: int) -> None:
    """A sample too small to say anything leaves the ratio alone (None)."""
    assert calibrated_ratio(4.0, chars, reported, overhead) is None
