"""Patching a JSON5 file (``openclaw.json``) in place: comments, order and formatting kept.

A small JSON5 parser records where every value and member sits in the text; an edit changes only
those characters (set a value, add a member, remove one, add an item to a list) and the result is
parsed again before anyone sees it. Writes are atomic (a temporary file in the same folder, then a
rename; a symlinked config keeps its link and its target is replaced), after one backup copy.

    PatchError          anything we will not do: a file we cannot parse (with its line and
                        column), a shape we cannot edit safely, a read-only file
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from context_compactor.errors import InputError

IDENT = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
NUMBER = re.compile(r"[+-]?(?:Infinity|NaN|0[xX][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)")
ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}
SPACE = " \t\r\n\ufeff\u00a0\u2028\u2029\v\f"


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
                end = t.find("\n", self.i)
                self.i = n if end < 0 else end
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
            return self.obj()
        if c == "[":
            return self.arr()
        if c in "\"'":
            text = self.string()
            return Node(start, self.i, text)
        for word, val in (("true", True), ("false", False), ("null", None)):
            if t.startswith(word, start) and not IDENT.match(t, start + len(word)):
                self.i += len(word)
                return Node(start, self.i, val)
        match = NUMBER.match(t, start)
        if match:
            self.i = match.end()
            return Node(start, self.i, _number(match.group()))
        raise self.fail(f"expected a value, found {c!r}")

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
            if c == "\n":
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
                if e in ("\n", "\r"):
                    self.i += 2 if t.startswith("\r\n", self.i) else 1
                    continue
                out.append(ESCAPES.get(e, e))
                self.i += 1
                continue
            out.append(c)
            self.i += 1

    def key(self) -> str:
        if self.text[self.i : self.i + 1] in ("'", '"'):
            return self.string()
        match = IDENT.match(self.text, self.i)
        if not match:
            raise self.fail(f"expected a key or '}}', found {self.text[self.i : self.i + 1]!r}")
        self.i = match.end()
        return match.group()

    def obj(self) -> Node:
        node = Node(self.i, self.i, {}, kind="object")
        self.i += 1
        while True:
            self.skip()
            if self.text[self.i : self.i + 1] == "}":
                break
            start = self.i
            name = self.key()
            self.skip()
            if self.text[self.i : self.i + 1] != ":":
                raise self.fail(f"expected ':' after the key {name!r}")
            self.i += 1
            self.skip()
            member = Member(name, start, self.value())
            node.members.append(member)
            node.value[name] = member.node.value
            self.skip()
            if self.text[self.i : self.i + 1] == ",":
                member.comma = self.i
                self.i += 1
            elif self.text[self.i : self.i + 1] != "}":
                raise self.fail("expected ',' or '}' after a value (is a comma missing on the line before?)")
        self.i += 1
        node.end = self.i
        return node

    def arr(self) -> Node:
        node = Node(self.i, self.i, [], kind="array")
        self.i += 1
        while True:
            self.skip()
            if self.text[self.i : self.i + 1] == "]":
                break
            item = self.value()
            node.items.append(item)
            node.value.append(item.value)
            self.skip()
            if self.text[self.i : self.i + 1] == ",":
                item.comma = self.i
                self.i += 1
            elif self.text[self.i : self.i + 1] != "]":
                raise self.fail("expected ',' or ']' after a list item")
        self.i += 1
        node.end = self.i
        return node


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


class Document:
    """A JSON5 text and the edits made to it; every edit is parsed again at once."""

    def __init__(self, text: str, name: str = "openclaw.json") -> None:
        self.text, self.name = text, name
        self.root = parse(text, name)
        if self.root.kind not in ("object", "empty"):
            raise PatchError(f"{name}: the top level is not an object {{ ... }}")
        self.unit = _indent_unit(text)
        self.quote_keys = _quotes_keys(text, self.root)

    @property
    def data(self) -> dict[str, Any]:
        return dict(self.root.value)

    def find(self, path: Sequence[str]) -> Node | None:
        node: Node | None = self.root
        for name in path:
            if node is None or node.kind != "object":
                return None
            matches = [m for m in node.members if m.key == name]
            if len(matches) > 1:
                raise PatchError(f"{self.name}: the key {'.'.join(path)} appears twice; remove one copy first")
            node = matches[0].node if matches else None
        return node

    def _edit(self, edits: list[tuple[int, int, str]]) -> None:
        text = self.text
        for start, end, new in sorted(edits, reverse=True):
            text = text[:start] + new + text[end:]
        self.text, self.root = text, parse(text, self.name)

    def set(self, path: Sequence[str], value: Any) -> None:
        """Set ``path`` to ``value``, creating the objects on the way; other keys stay as they are."""
        if self.root.kind == "empty":
            self._edit([(0, len(self.text), self.render({}, 0) + "\n")])
        for depth in range(len(path)):
            parent = self.find(path[:depth])
            if parent is None or parent.kind != "object":
                raise PatchError(f"{self.name}: {'.'.join(path[:depth]) or 'the top level'} is not an object")
            if self.find(path[: depth + 1]) is None:
                rest: Any = value
                for name in reversed(path[depth + 1 :]):
                    rest = {name: rest}
                self._insert(parent, path[depth], rest)
                return
        node = self.find(path)
        assert node is not None
        inline = "\n" not in self.text[node.start : node.end] and node.kind != "scalar"
        self._edit([(node.start, node.end, self.render(value, self._level(node.start), inline))])

    def delete(self, path: Sequence[str]) -> bool:
        """Remove the member at ``path`` (with its comma); False when it is not there."""
        parent = self.find(path[:-1])
        if parent is None or parent.kind != "object":
            return False
        index = next((i for i, m in enumerate(parent.members) if m.key == path[-1]), None)
        if index is None:
            return False
        spans = [(m.start, m.node.end, m.comma) for m in parent.members]
        self._edit(self._removal(spans, index))
        parent = self.find(path[:-1])
        if parent is not None and not parent.members and not self.text[parent.start + 1 : parent.end - 1].strip():
            self._edit([(parent.start, parent.end, "{}")])  # an emptied object closes up again
        return True

    def append(self, path: Sequence[str], value: Any) -> None:
        """Add ``value`` at the end of the list at ``path``."""
        node = self.find(path)
        if node is None or node.kind != "array":
            raise PatchError(f"{self.name}: {'.'.join(path)} is not a list")
        last = node.items[-1] if node.items else None
        self._add(node, (last.start, last.end, last.comma) if last else None,
                  self.render(value, self._level(node.start) + 1, True))

    def remove_item(self, path: Sequence[str], value: Any) -> bool:
        node = self.find(path)
        if node is None or node.kind != "array":
            return False
        index = next((i for i, item in enumerate(node.items) if item.value == value), None)
        if index is None:
            return False
        self._edit(self._removal([(it.start, it.end, it.comma) for it in node.items], index))
        return True

    # --- text mechanics --------------------------------------------------------------------------

    def _level(self, offset: int) -> int:
        start = self.text.rfind("\n", 0, offset) + 1
        indent = len(self.text[start:offset]) - len(self.text[start:offset].lstrip(" \t"))
        return indent // max(1, len(self.unit))

    def _insert(self, parent: Node, key: str, value: Any) -> None:
        level = self._level(parent.start) + 1
        last = parent.members[-1] if parent.members else None
        if last is not None and "\n" in self.text[parent.start : last.start]:
            level = self._level(last.start)
        inline = self._inline(parent, last.node.end if last else None)
        member = f"{self.key_text(key)}: {self.render(value, level, inline)}"
        self._add(parent, (last.start, last.node.end, last.comma) if last else None, member)

    def _inline(self, node: Node, last_end: int | None) -> bool:
        """Whether ``node`` is written on one line (an empty one: inside another one-line container)."""
        if last_end is not None:
            return "\n" not in self.text[node.start : last_end]
        before = self.text[self.text.rfind("\n", 0, node.start) + 1 : node.start]
        return "{" in before or "[" in before

    def _add(self, node: Node, last: tuple[int, int, int | None] | None, entry: str) -> None:
        """Insert ``entry`` as the new last member or item of ``node`` (``last``: the current last one)."""
        t = self.text
        close = node.end - 1
        base = self.unit * self._level(node.start)
        if last is None:
            if self._inline(node, None):  # an empty container inside a one-line one: stay on the line
                pad = "" if self.quote_keys or t[node.start] == "[" else " "
                self._edit([(node.start + 1, close, f"{pad}{entry}{pad}")])
            else:  # open it up over lines
                trail = "," if _trailing_style(t) else ""
                self._edit([(node.start + 1, close, f"\n{base}{self.unit}{entry}{trail}\n{base}")])
            return
        start, end, comma = last
        if self._inline(node, end):  # written on one line: stay on it
            self._edit([(comma + 1, comma + 1, f" {entry}") if comma is not None else (end, end, f", {entry}")])
            return
        after = comma + 1 if comma is not None else end
        eol = t.find("\n", after)
        rest = t[after:eol].strip() if eol >= 0 else "x"
        at = eol if eol >= 0 and eol < close and (not rest or rest.startswith("//")) else after
        line = t[t.rfind("\n", 0, start) + 1 : start]
        indent = line if not line.strip() else base + self.unit
        new = f"\n{indent}{entry}{',' if comma is not None else ''}"
        if comma is None and at == end:
            self._edit([(end, end, "," + new)])
        else:
            self._edit([(at, at, new)] + ([(end, end, ",")] if comma is None else []))

    def _removal(self, spans: list[tuple[int, int, int | None]], index: int) -> list[tuple[int, int, str]]:
        """The edits that take out member or item ``index`` (of ``spans``: start, end, comma)."""
        t = self.text
        start, end, comma = spans[index]
        stop = comma + 1 if comma is not None else end
        line_start = t.rfind("\n", 0, start) + 1
        eol = t.find("\n", stop)
        tail = t[stop:eol].strip() if eol >= 0 else t[stop:].strip()
        prev_comma = spans[index - 1][2] if index > 0 else None
        if not t[line_start:start].strip() and (not tail or tail.startswith("//")):
            edits = [(line_start, eol + 1 if eol >= 0 else len(t), "")]  # on lines of its own
            if comma is None and prev_comma is not None:  # the new last one loses its comma, as the old had none
                edits.append((prev_comma, prev_comma + 1, ""))
            return edits
        if comma is None and prev_comma is not None:
            return [(prev_comma, end, "")]  # inline, last: ", item" goes
        while stop < len(t) and t[stop] in " \t":
            stop += 1
        return [(start, stop, "")]

    def key_text(self, key: str) -> str:
        return key if not self.quote_keys and IDENT.fullmatch(key) else _quote(key)

    def render(self, value: Any, level: int, inline: bool = False) -> str:
        """``value`` as JSON5 in this file's style (key quoting, indent unit), nested at ``level``."""
        pad, inner = self.unit * level, self.unit * (level + 1)
        if isinstance(value, dict) and value and inline:
            body = ", ".join(f"{self.key_text(k)}: {self.render(v, 0, True)}" for k, v in value.items())
            return f"{{{body}}}" if self.quote_keys else f"{{ {body} }}"
        if isinstance(value, dict):
            if not value:
                return "{}"
            body = ",\n".join(f"{inner}{self.key_text(k)}: {self.render(v, level + 1)}" for k, v in value.items())
            return "{\n" + body + ("," if _trailing_style(self.text) else "") + "\n" + pad + "}"
        if isinstance(value, list):
            return "[" + ", ".join(self.render(v, level + 1, True) for v in value) + "]"
        return _scalar(value)


def _scalar(value: Any) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    if isinstance(value, (int, float)):
        return repr(value)
    return _quote(str(value))


def _quote(text: str) -> str:
    import json

    return json.dumps(text, ensure_ascii=False)


def _indent_unit(text: str) -> str:
    sizes = [len(m.group(1)) for m in re.finditer(r"\n( +)\S", text)]
    if "\n\t" in text and not sizes:
        return "\t"
    return " " * min(sizes) if sizes else "  "


def _quotes_keys(text: str, root: Node) -> bool:
    """Whether this file mostly writes its keys in quotes (plain JSON style) rather than bare."""
    quoted = bare = 0
    stack = [root]
    while stack:
        node = stack.pop()
        for member in node.members:
            if text[member.start] in "\"'":
                quoted += 1
            else:
                bare += 1
            stack.append(member.node)
        stack.extend(node.items)
    return quoted >= bare


def _trailing_style(text: str) -> bool:
    """Whether the file ends its last members with a comma (JSON5 style)."""
    return re.search(r",\s*(//[^\n]*\s*)*[}\]]", text) is not None


def write_atomic(path: Path, text: str, *, backup: Path | None = None) -> None:
    """Write ``text`` to ``path`` atomically; the old file is first copied to ``backup``.

    A symlink stays a symlink (its target is replaced); the file keeps its mode. A file without
    any write bit is refused, even for root: someone made it read-only on purpose.
    """
    target = Path(os.path.realpath(path))
    if target.exists() and not target.stat().st_mode & 0o222:
        raise PatchError(f"{path} is read-only (the file was left unchanged; make it writable, "
                         "or add the lines below by hand)")
    try:
        mode = target.stat().st_mode & 0o7777 if target.exists() else 0o600
        if backup is not None and target.exists():
            shutil.copy2(target, backup)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    except OSError as exc:
        raise PatchError(f"{path}: cannot write: {exc.strerror or exc} (the file was left unchanged)") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException as exc:
        if os.path.exists(tmp):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise PatchError(f"{path}: cannot write: {exc.strerror or exc} (the file was left unchanged)") from None
        raise
