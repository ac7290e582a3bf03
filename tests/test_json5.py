"""The JSON5 reader behind setup: the cases the issue found, and a differential test against ``json5``."""

from __future__ import annotations

import math
from typing import Any

import json5
import pytest
from context_compactor.setup_cli.json5parse import PatchError, parse
from hypothesis import given, settings
from hypothesis import strategies as st


def test_unicode_bare_key_is_read() -> None:
    """A bare key may be any ES5 identifier: {é: 1} is valid JSON5."""
    assert parse("{é: 1, 中文: 2, aʰ‿b: 3}").value == {"é": 1, "中文": 2, "aʰ‿b": 3}


@pytest.mark.parametrize("text", ["{a: 01}", "{a: -01}", "{a: 00}", "{a: 0x}", "{a: 1.e}", '{a: "\\1"}', "{a: 08}"])
def test_malformed_numbers_and_escapes_are_refused(text: str) -> None:
    """Leading zeros, a bare 0x, an empty exponent and escaped digits are not JSON5."""
    with pytest.raises(PatchError, match="line 1 column"):
        parse(text)


# --- documents generated from the JSON5 grammar, valid and not ------------------------------------

_space = st.sampled_from([" ", "\t", "\n", "\r\n", "\u00a0", "\u2028", "\u3000", "\ufeff", "\v", "\u2005",
                          "// note\n", "/* block */", "/**/"])
_gap = st.lists(_space, max_size=2).map("".join)
_number = st.one_of(
    st.integers(-10**20, 10**20).map(str),
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.sampled_from(["0", "-0", "+1", ".5", "5.", "5.e3", "1e-3", "0x1F", "-0XaB", "Infinity", "-Infinity", "+NaN",
                     "01", "-01", "00", "0x", "1.e", ".", "+", "1e", "0b1", "1_0", "08", ".e1", "0.0.1", "Infinityx"]),
)
_string_piece = st.one_of(
    st.characters(blacklist_characters="\"'\\\n\r").filter(lambda c: not "\ud800" <= c <= "\udfff"),
    st.sampled_from(["\\n", "\\t", "\\'", '\\"', "\\\\", "\\x41", "\\u00e9", "\\0", "\\q", "\\\n", "\\\r\n", "\\\u2028",
                     "\\1", "\\09", "\\x4", "\\u12", "\u2028", "\t", "\n", "\r"]),
)
_string = st.tuples(st.sampled_from(['"', "'"]), st.lists(_string_piece, max_size=6)).map(
    lambda q: q[0] + "".join(q[1]) + q[0])
_ident_char = st.one_of(st.sampled_from(list("abcXYZ$_09éʰⅫ中ः‿٠\u200d\u0670²℘")), st.characters(max_codepoint=0x3000))
_key = st.one_of(st.lists(_ident_char, min_size=1, max_size=4).map("".join), _string)
_scalar = st.one_of(st.sampled_from(["null", "true", "false", "truex", "nul"]), _number, _string)


def _containers(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    items = st.lists(st.tuples(_gap, inner, _gap), max_size=3)
    members = st.lists(st.tuples(_gap, _key, _gap, inner, _gap), max_size=3)
    trailing = st.sampled_from(["", ",", ",,"])
    return st.one_of(
        st.tuples(items, trailing, _gap).map(lambda a: "[" + ",".join(g + v + h for g, v, h in a[0])
                                             + (a[1] if a[0] else "") + a[2] + "]"),
        st.tuples(members, trailing, _gap).map(lambda a: "{" + ",".join(g + k + h + ":" + v + i for g, k, h, v, i in a[0])
                                               + (a[1] if a[0] else "") + a[2] + "}"),
    )


_document = st.tuples(_gap, st.recursive(_scalar, _containers, max_leaves=10), _gap).map("".join)


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b or (isinstance(a, (int, float)) and isinstance(b, (int, float)) and a == b)


@pytest.mark.slow
@given(_document)
@settings(max_examples=1000, deadline=None)
def test_reads_what_the_json5_package_reads(text: str) -> None:
    """Over generated documents, valid and not, we accept exactly what ``json5`` accepts, with the same values."""
    try:
        theirs: Any = json5.loads(text)
    except ValueError:
        theirs = PatchError
    try:
        ours: Any = parse(text).value
    except PatchError:
        ours = PatchError
    assert (ours is PatchError) == (theirs is PatchError), (text, ours, theirs)
    assert ours is PatchError or _same(ours, theirs), (text, ours, theirs)
