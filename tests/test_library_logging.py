"""A library that behaves: importing context_compactor configures no logging for the program.

Each check runs a fresh Python, because in this process the package was imported long ago.
"""

from __future__ import annotations

import subprocess
import sys

HOST = r"""
import logging, sys
import structlog

logging.basicConfig(level=logging.INFO, stream=sys.stdout, format="%(name)s: %(message)s")
import context_compactor
from context_compactor import compact
import context_compactor.hooks.compaction, context_compactor.setup_cli.main, context_compactor.gateway

assert not structlog.is_configured(), "importing context_compactor configured structlog"
structlog.get_logger().info("host.structlog_line")
logging.getLogger("host").info("host stdlib line")
messages = [{"role": "user", "content": f"question {i} " + "words " * 200} for i in range(40)]
compact(messages, context_window=2048)
structlog.get_logger().info("host.after_compact")
"""


def run_host() -> str:
    done = subprocess.run([sys.executable, "-c", HOST], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_host_programs_own_info_lines_still_appear_after_the_import() -> None:
    """A program's INFO lines, structlog's and standard logging's, appear after it imports and uses the package."""
    out = run_host()
    assert "host.structlog_line" in out and "host: host stdlib line" in out and "host.after_compact" in out


def test_our_lines_go_to_the_programs_standard_logging() -> None:
    """Our compaction line reaches the program's own logging set-up as the logger ``context_compactor``."""
    lines = [line for line in run_host().splitlines() if line.startswith("context_compactor: compaction.done ")]
    assert len(lines) == 1 and "tokens_before=" in lines[0]
