"""``archive``: search and read what compaction archived (filled in below)."""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(sub: Any) -> None:
    a = sub.add_parser("archive", help="search and read the messages compaction archived",
                       description="Search and read the messages compaction archived.")
    a.set_defaults(run=_usage, parser=a)


def _usage(args: argparse.Namespace) -> int:
    args.parser.print_help()
    return 2
