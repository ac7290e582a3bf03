"""The ``slow`` marker sits on the tests themselves, so a reader sees it where the test is."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def marks_module_slow(path: Path) -> bool:
    """True when the module says ``pytestmark = pytest.mark.slow`` (alone or in a list)."""
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets):
            return "pytest.mark.slow" in ast.unparse(node.value)
    return False


def test_every_end_to_end_module_marks_itself_slow() -> None:
    """Each ``*_e2e.py`` module (a real OpenClaw or model: minutes) sets ``pytestmark = pytest.mark.slow``."""
    modules = sorted(TESTS.glob("test_*_e2e.py"))
    assert modules and [p.name for p in modules if not marks_module_slow(p)] == []


def test_conftest_marks_no_test() -> None:
    """conftest.py adds no marker by name: a list of test names there drifts from the tests."""
    assert "add_marker" not in (TESTS / "conftest.py").read_text()
