"""The JSON5 patcher: parsing with positions, edits that keep comments and formatting, atomic writes."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from context_compactor.setup_cli.configpatch import (
    Document,
    PatchError,
    parse,
    write_atomic,
)

JSON5 = """// gateway config
{
  gateway: { mode: "local", port: 18789 }, // inline comment
  /* block comment */
  'single': 'quoted \\'x\\'',
  hex: 0x1F, plus: +1, half: .5, big: 1e3, inf: Infinity,
  plugins: {
    entries: {
      "other": { enabled: true },
    },
  },
}
"""


def test_parse_reads_json5_values() -> None:
    """Comments, single quotes, bare keys, hex and special numbers, trailing commas all parse."""
    data = parse(JSON5).value
    assert data["gateway"] == {"mode": "local", "port": 18789}
    assert data["single"] == "quoted 'x'"
    assert (data["hex"], data["plus"], data["half"], data["big"], data["inf"]) == (31, 1, 0.5, 1000.0, float("inf"))
    assert data["plugins"]["entries"]["other"] == {"enabled": True}


def test_parse_error_names_line_and_column() -> None:
    """A missing comma is reported at the line where the parser stopped."""
    with pytest.raises(PatchError) as info:
        parse('{\n  a: 1\n  b: 2\n}', "openclaw.json")
    assert "openclaw.json line 3" in str(info.value) and info.value.line == 3


def test_set_keeps_comments_and_other_keys() -> None:
    """Adding nested keys leaves every comment and every other line as it was."""
    doc = Document(JSON5)
    doc.set(["plugins", "entries", "context-compactor"], {"enabled": True, "config": {"maxTokens": 6000}})
    doc.set(["plugins", "slots", "contextEngine"], "context-compactor")
    for line in JSON5.splitlines():
        if line.strip() not in ("},", "}"):
            assert line in doc.text
    assert parse(doc.text).value["plugins"]["slots"] == {"contextEngine": "context-compactor"}
    assert "contextEngine: \"context-compactor\"," in doc.text  # bare keys and trailing commas, like the file


def test_set_in_strict_json_writes_json() -> None:
    """A file in plain JSON stays plain JSON (quoted keys, no trailing commas)."""
    text = '{\n  "a": 1,\n  "plugins": {\n    "allow": ["x"]\n  }\n}\n'
    doc = Document(text)
    doc.set(["plugins", "entries", "cc"], {"enabled": True})
    doc.append(["plugins", "allow"], "cc")
    assert json.loads(doc.text) == {"a": 1, "plugins": {"allow": ["x", "cc"], "entries": {"cc": {"enabled": True}}}}


def test_replace_value_in_place() -> None:
    """Setting an existing key changes only its value."""
    doc = Document(JSON5)
    doc.set(["gateway", "port"], 19000)
    assert doc.text == JSON5.replace("port: 18789", "port: 19000")


def test_delete_undoes_insert() -> None:
    """Removing what was added gives back the original bytes."""
    for text in (JSON5, '{"plugins": {"allow": ["a", "b"]}}', "{\n  plugins: {\n    allow: [\n      'a',\n    ],\n  },\n}\n"):
        doc = Document(text)
        doc.set(["plugins", "slots", "contextEngine"], "cc")
        doc.append(["plugins", "allow"], "cc") if "allow" in text else None
        doc.delete(["plugins", "slots"])
        doc.remove_item(["plugins", "allow"], "cc")
        assert doc.text == text


def test_empty_file_becomes_an_object() -> None:
    """An empty file gets a fresh object holding the new keys."""
    doc = Document("")
    doc.set(["plugins", "slots", "contextEngine"], "cc")
    assert json.loads(doc.text) == {"plugins": {"slots": {"contextEngine": "cc"}}}


def test_refuses_non_object_parent() -> None:
    """A key that is not an object on the path is refused rather than overwritten."""
    doc = Document('{ plugins: "off" }')
    with pytest.raises(PatchError, match="plugins is not an object"):
        doc.set(["plugins", "slots", "contextEngine"], "cc")


@pytest.mark.parametrize("depth", [0, 1, 2])
def test_refuses_duplicate_keys_on_the_path(depth: int) -> None:
    """Two copies of a key on the path are refused, and the error names that key and where both copies are."""
    path = ["plugins", "entries", "context-compactor"]
    key = path[depth]
    text = "{\n" + "".join(f'{"  " * (i + 1)}"{n}": {{\n' for i, n in enumerate(path[:depth]))
    text += f'{"  " * (depth + 1)}"{key}": {{}},\n{"  " * (depth + 1)}"{key}": {{}}\n'
    text += "".join(f'{"  " * (i + 1)}}}\n' for i in reversed(range(depth))) + "}\n"
    doc = Document(text)
    named = ".".join(path[: depth + 1])
    with pytest.raises(PatchError, match=rf"the key {re.escape(named)} appears 2 times \(line {depth + 2} column "
                                         rf"\d+, line {depth + 3} column \d+\)"):
        doc.set([*path, "enabled"], True)


def test_write_atomic_keeps_mode_and_backup(tmp_path: Path) -> None:
    """The new text replaces the file atomically; the old one is the backup; the mode stays."""
    target = tmp_path / "openclaw.json"
    target.write_text("{}")
    os.chmod(target, 0o640)
    write_atomic(target, '{"a": 1}', backup=tmp_path / "backup")
    assert target.read_text() == '{"a": 1}' and (tmp_path / "backup").read_text() == "{}"
    assert target.stat().st_mode & 0o777 == 0o640
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_write_atomic_follows_symlink(tmp_path: Path) -> None:
    """A symlinked config keeps its link; the target file gets the new text."""
    real = tmp_path / "real.json"
    real.write_text("{}")
    link = tmp_path / "openclaw.json"
    link.symlink_to(real)
    write_atomic(link, '{"a": 1}')
    assert link.is_symlink() and real.read_text() == '{"a": 1}'


def test_write_atomic_refuses_read_only(tmp_path: Path) -> None:
    """A file without write bits is left alone, even for root."""
    target = tmp_path / "openclaw.json"
    target.write_text("{}")
    os.chmod(target, 0o444)
    with pytest.raises(PatchError, match="read-only"):
        write_atomic(target, '{"a": 1}')
    assert target.read_text() == "{}"
