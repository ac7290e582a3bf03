"""The README's quick start, run as a user runs it: the command, its verdict line, and a prompt that fits."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from context_compactor import compact

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "agent-session.json"
WINDOW = 8192
VERDICT = re.compile(r"context-compactor: compacted: ([\d,]+) -> ([\d,]+) tokens, (\d+) -> (\d+) messages "
                     r"\(window 8,192, trigger 6,144\)")


def test_the_readme_quick_start_command_is_the_one_tested() -> None:
    """The README's quick start still runs the command this module runs."""
    readme = (ROOT / "README.md").read_text()
    assert "context-compactor compact examples/agent-session.json --context-window 8192 > compacted.json" in readme


@pytest.mark.slow  # the command runs the whole 239-message example: several seconds
def test_the_quick_start_compacts_the_example_to_a_prompt_that_fits(tmp_path: Path) -> None:
    """`context-compactor compact examples/agent-session.json --context-window 8192` says 'compacted' on its
    first stderr line and writes a prompt that, measured again with its tools, is under the trigger."""
    cli = Path(sys.executable).with_name("context-compactor")
    env = {**os.environ, "HOME": str(tmp_path)}
    done = subprocess.run([str(cli), "compact", str(EXAMPLE), "--context-window", str(WINDOW)], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr
    verdict = VERDICT.fullmatch(done.stderr.splitlines()[0])
    assert verdict, done.stderr
    before, after, count_before, count_after = (int(g.replace(",", "")) for g in verdict.groups())
    example = json.loads(EXAMPLE.read_text())
    assert count_before == len(example["messages"]) and before > WINDOW
    prompt = json.loads(done.stdout)
    assert count_after == len(prompt) < count_before and after <= 6144
    again = compact(prompt, context_window=WINDOW, tools=example["tools"]).stats
    assert again.fits and not again.compacted and again.tokens_before <= again.trigger
