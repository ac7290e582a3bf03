"""Patching a JSON5 file (``openclaw.json``) in place: comments, order and formatting kept.

The parser in ``json5parse`` records where every value and member sits in the text; an edit here
changes only those characters (set a value, add a member, remove one, add an item to a list) and
the result is parsed again before anyone sees it. New text follows the file's own style: its
indent unit, quoted or bare keys, trailing commas. Writes are atomic (``atomicwrite``).

    PatchError          anything we will not do: a file we cannot parse (with its line and
                        column), a shape we cannot edit safely, a read-only file
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from .atomicwrite import write_atomic
from .json5parse import IDENT, Member, Node, PatchError, parse, position

__all__ = ["Document", "Member", "Node", "PatchError", "parse", "position", "write_atomic"]


class Document:
    """A JSON5 text and the edits made to it; every edit is parsed again at once."""

    def __init__(self, text: str, name: str = "openclaw.json") -> None:
        # A byte order mark and CRLF line ends are set aside here and put back by ``text``, so
        # that an edit undone gives back the very bytes of the file (the editor writes "\n").
        self.bom = text[:1] == "\ufeff"
        src = text[1:] if self.bom else text
        self.crlf = "\r\n" in src and src.count("\n") == src.count("\r\n")
        self.src, self.name = src.replace("\r\n", "\n") if self.crlf else src, name
        self.root = parse(self.src, name)
        if self.root.kind not in ("object", "empty"):
            raise PatchError(f"{name}: the top level is not an object {{ ... }}")
        self.unit = _indent_unit(self.src)
        self.quote_keys = _quotes_keys(self.src, self.root)

    @property
    def text(self) -> str:
        """The document as it would be written: with the file's own BOM and line ends."""
        body = self.src.replace("\n", "\r\n") if self.crlf else self.src
        return ("\ufeff" if self.bom else "") + body

    @property
    def data(self) -> dict[str, Any]:
        return dict(self.root.value)

    def find(self, path: Sequence[str]) -> Node | None:
        node: Node | None = self.root
        for depth, name in enumerate(path):
            if node is None or node.kind != "object":
                return None
            matches = [m for m in node.members if m.key == name]
            if len(matches) > 1:
                where = ", ".join("line {} column {}".format(*position(self.src, m.start)) for m in matches)
                raise PatchError(f"{self.name}: the key {'.'.join(path[: depth + 1])} appears {len(matches)} times "
                                 f"({where}); remove all but one copy first")
            node = matches[0].node if matches else None
        return node

    def _edit(self, edits: list[tuple[int, int, str]]) -> None:
        text = self.src
        for start, end, new in sorted(edits, reverse=True):
            text = text[:start] + new + text[end:]
        self.src, self.root = text, parse(text, self.name)

    def set(self, path: Sequence[str], value: Any) -> None:
        """Set ``path`` to ``value``, creating the objects on the way; other keys stay as they are."""
        if self.root.kind == "empty":
            self._edit([(0, len(self.src), self.render({}, 0) + "\n")])
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
        inline = "\n" not in self.src[node.start : node.end] and node.kind != "scalar"
        self._edit([(node.start, node.end, self.render(value, self._level(node.start), inline))])

    def source(self, path: Sequence[str]) -> str | None:
        """The text of the value at ``path``, exactly as written (comments inside it kept)."""
        node = self.find(path)
        return None if node is None else self.src[node.start : node.end]

    def set_source(self, path: Sequence[str], source: str) -> None:
        """Put ``source`` (JSON5 text, such as :meth:`source` gave) as the value at ``path``."""
        parse(source, self.name)
        if self.find(path) is None:
            self.set(path, None)
        node = self.find(path)
        assert node is not None
        self._edit([(node.start, node.end, source)])

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
        if parent is not None and not parent.members and not self.src[parent.start + 1 : parent.end - 1].strip():
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
        start = self.src.rfind("\n", 0, offset) + 1
        indent = len(self.src[start:offset]) - len(self.src[start:offset].lstrip(" \t"))
        return indent // max(1, len(self.unit))

    def _insert(self, parent: Node, key: str, value: Any) -> None:
        level = self._level(parent.start) + 1
        last = parent.members[-1] if parent.members else None
        if last is not None and "\n" in self.src[parent.start : last.start]:
            level = self._level(last.start)
        inline = self._inline(parent, last.node.end if last else None)
        member = f"{self.key_text(key)}: {self.render(value, level, inline)}"
        self._add(parent, (last.start, last.node.end, last.comma) if last else None, member)

    def _inline(self, node: Node, last_end: int | None) -> bool:
        """Whether ``node`` is written on one line (an empty one: inside another one-line container)."""
        if last_end is not None:
            return "\n" not in self.src[node.start : last_end]
        before = self.src[self.src.rfind("\n", 0, node.start) + 1 : node.start]
        return "{" in before or "[" in before

    def _add(self, node: Node, last: tuple[int, int, int | None] | None, entry: str) -> None:
        """Insert ``entry`` as the new last member or item of ``node`` (``last``: the current last one)."""
        t = self.src
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
        t = self.src
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
            return "{\n" + body + ("," if _trailing_style(self.src) else "") + "\n" + pad + "}"
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

