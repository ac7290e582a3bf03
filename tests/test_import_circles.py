"""Import circles (issue 24): none may be added, and the core never imports hooks/ or setup_cli/.

Every import counts, the ones inside functions and under ``TYPE_CHECKING`` too: a circle hidden behind
a late import is still two modules that each need the other. The circles the code has today are
listed in ``KNOWN`` with what ties them; one that is untangled leaves the list, and a new one (or a
known one that takes in another module) fails here. The modules are read as ``context_compactor.*``
through the package-dir of pyproject.toml.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from conftest import ROOT

FOLDERS = {"extension": "context_compactor", "hooks": "context_compactor.hooks",
           "summarizer": "context_compactor.summarizer", "setup_cli": "context_compactor.setup_cli",
           "gateway": "context_compactor.gateway", "hosts": "context_compactor.hosts"}
# The circles of today, each a set of modules (a circle found must fall inside one of them).
KNOWN: list[set[str]] = []  # none left: a new circle fails here


def modules() -> dict[str, Path]:
    """Every module of the package, by its import name."""
    found: dict[str, Path] = {}
    for folder, base in FOLDERS.items():
        for path in (ROOT / folder).rglob("*.py"):
            parts = path.relative_to(ROOT / folder).with_suffix("").parts
            if folder == "extension" and parts[0] in FOLDERS:
                continue
            found[".".join([*base.split("."), *(p for p in parts if p != "__init__")])] = path
    return found


def imported(name: str, path: Path, known: dict[str, Path]) -> Iterator[str]:
    """The package's modules that ``name`` imports anywhere in its file."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = ".".join([*package[:len(package) - node.level + 1], *([node.module] if node.module else [])]) \
                if node.level else node.module or ""
            targets = [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                yield target


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: set(imported(name, path, known)) for name, path in known.items()}


def circles(edges: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected groups of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[set[str]] = []
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        while work:
            node, rest = work[-1]
            nxt = next((m for m in rest if m not in index or m in stack), None)
            if nxt is not None and nxt not in index:
                index[nxt] = low[nxt] = len(index)
                stack.append(nxt)
                work.append((nxt, iter(sorted(edges.get(nxt, ())))))
                continue
            if nxt is not None:
                low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = set()
                while True:
                    member = stack.pop()
                    group.add(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(group)
    return found


def test_no_new_import_circle() -> None:
    """Every circle of imports is one of the known ones (or part of one): a new one is named, with its modules."""
    new = [sorted(c) for c in circles(graph()) if not any(c <= known for known in KNOWN)]
    assert not new, f"new import circles (move what both sides need into the module that owns it): {new}"


def test_the_check_finds_a_circle() -> None:
    """Two modules that import each other, however late, are a circle; a chain is not."""
    assert circles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [{"a", "b"}]
    assert circles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_the_core_never_imports_hooks_or_setup_cli() -> None:
    """No module of extension/ imports setup_cli/; only the Python API (a host) reaches hooks/."""
    edges = graph()
    core = [name for name in edges if not any(_in(name, base) for base in list(FOLDERS.values())[1:])]
    wrong = sorted(f"{name} -> {target}" for name in core for target in edges[name]
                   if _in(target, "context_compactor.setup_cli")
                   or (_in(target, "context_compactor.hooks") and name != "context_compactor.api"))
    assert not wrong, wrong


def _in(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")
