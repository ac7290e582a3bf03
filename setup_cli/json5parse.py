"""Reading JSON5 (``openclaw.json``) with positions: where every value, member and comma sits.

A small recursive-descent parser for the whole of JSON5 (comments, bare and single-quoted keys,
trailing commas, hex, Infinity and NaN, line continuations in strings). Besides the value it keeps
the offsets the editor in ``configpatch`` needs to change a file without touching anything else.

    PatchError          anything we will not do: a file we cannot parse (with its line and
                        column), a shape we cannot edit safely, a read-only file
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from context_compactor.errors import InputError

IDENT = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")  # the keys we write bare; any ES5 identifier is read
# No leading zeros ("01" is not JSON5); "5." and ".5" are.
NUMBER = re.compile(r"[+-]?(?:Infinity|NaN|0[xX][0-9a-fA-F]+|(?:(?:0|[1-9]\d*)(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)")
ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}
LINE_ENDS = "\n\r\u2028\u2029"
# JSON5 white space: ES5's, that is tab, VT, FF, BOM and every Unicode space separator (Zs), plus line ends.
SPACE = "\t\v\f\ufeff\u0020\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a" \
        "\u202f\u205f\u3000" + LINE_ENDS
_LETTERS = ("Lu", "Ll", "Lt", "Lm", "Lo", "Nl")
_PARTS = ("Mn", "Mc", "Nd", "Pc")


def ident_char(c: str, first: bool) -> bool:
    """Whether ``c`` may start (``first``) or continue an ES5 identifier, as JSON5 keys are."""
    if c.isascii():
        return c.isalpha() or c in "$_" or (not first and c.isdigit())
    category = unicodedata.category(c)
    return category in _LETTERS or (not first and (category in _PARTS or c in "\u200c\u200d"))


class PatchError(InputError):
    """The file cannot be parsed, or edited safely, or written (the CLI exits 2: fix the file)."""

    def __init__(self, message: str, *, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


@dataclass
class Node:
    start: int
    end: int
    value: Any = None
    members: list[Member] = field(default_factory=list)  # objects
    items: list[Node] = field(default_factory=list)  # arrays
    kind: str = "scalar"
    comma: int | None = None  # for an array item: the comma after it


@dataclass
class Member:
    key: str
    start: int  # where the key starts
    node: Node
    comma: int | None = None  # the comma after the value, if any


def position(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


class _Parser:
    def __init__(self, text: str, name: str) -> None:
        self.text, self.name, self.i = text, name, 0

    def fail(self, what: str, at: int | None = None) -> PatchError:
        line, col = position(self.text, self.i if at is None else at)
        return PatchError(f"{self.name} line {line} column {col}: {what}", line=line)

    def skip(self) -> None:
        t, n = self.text, len(self.text)
        while self.i < n:
            c = t[self.i]
            if c in SPACE:
                self.i += 1
            elif t.startswith("//", self.i):
                while self.i < n and t[self.i] not in LINE_ENDS:
                    self.i += 1
            elif t.startswith("/*", self.i):
                end = t.find("*/", self.i + 2)
                if end < 0:
                    raise self.fail("a /* comment is never closed")
                self.i = end + 2
            else:
                return

    def document(self) -> Node:
        self.skip()
        if self.i >= len(self.text):
            return Node(0, 0, {}, kind="empty")
        node = self.value()
        self.skip()
        if self.i < len(self.text):
            raise self.fail(f"unexpected {self.text[self.i]!r} after the end of the document")
        return node

    def value(self) -> Node:
        t, start = self.text, self.i
        if start >= len(t):
            raise self.fail("the file ends where a value should be")
        c = t[start]
        if c == "{":
            return self.container(Node(start, start, {}, kind="object"), "}",
                                  "expected ',' or '}' after a value (is a comma missing on the line before?)")
        if c == "[":
            return self.container(Node(start, start, [], kind="array"), "]", "expected ',' or ']' after a list item")
        if c in "\"'":
            text = self.string()
            return Node(start, self.i, text)
        for word, val in (("true", True), ("false", False), ("null", None)):
            if t.startswith(word, start) and not self.word_goes_on(start + len(word)):
                self.i += len(word)
                return Node(start, self.i, val)
        match = NUMBER.match(t, start)
        if match:
            self.i = match.end()
            if self.word_goes_on(self.i) or t[self.i : self.i + 1] == ".":
                raw = t[start : self.i + 1]
                zero = re.match(r"[+-]?0\d", raw) is not None
                raise self.fail(f"not a number: {raw!r}" + (" (JSON5 numbers have no leading zeros)" if zero else ""), start)
            return Node(start, self.i, _number(match.group()))
        raise self.fail(f"expected a value, found {c!r}")

    def word_goes_on(self, at: int) -> bool:
        c = self.text[at : at + 1]
        return bool(c) and (c == "\\" or ident_char(c, False))

    def string(self) -> str:
        t, quote = self.text, self.text[self.i]
        self.i += 1
        out: list[str] = []
        while True:
            if self.i >= len(t):
                raise self.fail("a string is never closed")
            c = t[self.i]
            if c == quote:
                self.i += 1
                return "".join(out)
            if c in "\n\r":
                raise self.fail("a line break inside a string (end the string first)")
            if c == "\\":
                self.i += 1
                e = t[self.i : self.i + 1]
                if e in ("x", "u"):
                    size = 2 if e == "x" else 4
                    digits = t[self.i + 1 : self.i + 1 + size]
                    if not re.fullmatch(r"[0-9a-fA-F]{%d}" % size, digits):
                        raise self.fail(f"bad \\{e} escape in a string")
                    out.append(chr(int(digits, 16)))
                    self.i += 1 + size
                    continue
                if e and e in LINE_ENDS:
                    self.i += 2 if t.startswith("\r\n", self.i) else 1
                    continue
                if e in "123456789" and e or (e == "0" and t[self.i + 1 : self.i + 2].isdigit()):
                    raise self.fail(f"bad escape \\{t[self.i : self.i + (2 if e == '0' else 1)]} in a string (digits cannot be escaped)")
                if not e:
                    raise self.fail("a string is never closed")
                out.append(ESCAPES.get(e, e))
                self.i += 1
                continue
            out.append(c)
            self.i += 1

    def key(self) -> str:
        """A quoted key, or a bare one: an ES5 identifier (Unicode letters, \\uXXXX escapes)."""
        t = self.text
        if t[self.i : self.i + 1] in ("'", '"'):
            return self.string()
        out: list[str] = []
        while self.i < len(t):
            c = t[self.i]
            if c == "\\":
                digits = t[self.i + 2 : self.i + 6]
                if t[self.i + 1 : self.i + 2] != "u" or not re.fullmatch(r"[0-9a-fA-F]{4}", digits):
                    raise self.fail("bad \\u escape in a key")
                out.append(chr(int(digits, 16)))
                self.i += 6
            elif ident_char(c, not out):
                out.append(c)
                self.i += 1
            else:
                break
        if not out:
            raise self.fail(f"expected a key or '}}', found {t[self.i : self.i + 1]!r}")
        return "".join(out)

    def container(self, node: Node, close: str, missing: str) -> Node:
        """An object or a list, from its opening bracket to ``close``: each member or item and its comma."""
        self.i += 1
        while True:
            self.skip()
            if self.text[self.i : self.i + 1] == close:
                break
            # The key is read before the value; no frame of ours stays open while a nested value is read.
            part = self.keep(node, self.label() if node.kind == "object" else None, self.value())
            self.skip()
            if self.text[self.i : self.i + 1] == ",":
                part.comma = self.i
                self.i += 1
            elif self.text[self.i : self.i + 1] != close:
                raise self.fail(missing)
        self.i += 1
        node.end = self.i
        return node

    def label(self) -> tuple[int, str]:
        """A member's key and the ':' after it; returns where the key starts, and the key."""
        start = self.i
        name = self.key()
        self.skip()
        if self.text[self.i : self.i + 1] != ":":
            raise self.fail(f"expected ':' after the key {name!r}")
        self.i += 1
        self.skip()
        return start, name

    @staticmethod
    def keep(node: Node, label: tuple[int, str] | None, value: Node) -> Member | Node:
        """Record ``value`` in ``node``: as the member named by ``label``, or (no label) as a list item."""
        if label is None:
            node.items.append(value)
            node.value.append(value.value)
            return value
        member = Member(label[1], label[0], value)
        node.members.append(member)
        node.value[member.key] = value.value
        return member


def _number(raw: str) -> Any:
    body = raw.lstrip("+-")
    sign = -1 if raw.startswith("-") else 1
    if body == "Infinity":
        return sign * float("inf")
    if body == "NaN":
        return float("nan")
    if body[:2] in ("0x", "0X"):
        return sign * int(body, 16)
    if re.fullmatch(r"\d+", body):
        return sign * int(body)
    return sign * float(body)


def parse(text: str, name: str = "the file") -> Node:
    """Parse JSON5 text; raises PatchError naming the line and column of the first problem."""
    try:
        return _Parser(text, name).document()
    except RecursionError:
        raise PatchError(f"{name}: nested too deeply to read") from None
