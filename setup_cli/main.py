"""The ``context-compactor`` command.

    context-compactor compact INPUT.json --context-window N [...]   compact a conversation
    context-compactor stats INPUT.json --context-window N [...]     the /context-stats report
    context-compactor setup | uninstall | doctor [--home DIR]       install into an OpenClaw gateway
    context-compactor serve --upstream URL [...]                    the OpenAI-compatible gateway
    context-compactor archive search|show|sessions [...]            search and read the archive

Exit codes: 0 ok, 1 failed, 2 bad input or usage, 3 the prompt cannot fit the window (``compact``:
the smallest prompt is still written), 130 interrupted. A reader that goes away early (``| head``)
is not a failure: exit 0, quietly.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn


from context_compactor import __version__
from context_compactor.errors import CompactorError, ConfigError, InputError
from context_compactor.logs import configure_logging

from . import archive as archive_cmd
from . import compact as compact_cmd
from . import doctor as doctor_cmd
from . import serve as serve_cmd
from . import setup as setup_cmd

EPILOG = """\
Input is a JSON list of OpenAI chat messages, or {"messages": [...], "tools": [...]}; "-" reads stdin.
Options may also come from a JSON config file (--config) with the OpenClaw plugin's option names
(maxTokens, keepRecentTokens, summaryMaxTokens, charsPerToken, contextWindow, models, ...).

examples:
  context-compactor compact examples/agent-session.json --context-window 8192
  context-compactor compact session.json --context-window 32768 --json > compacted.json
  context-compactor stats session.json --context-window 8192
"""


def _size(kind: type[int] | type[float], minimum: float, what: str) -> Any:
    """An argparse type: a number of ``kind`` at least ``minimum``, else a usage error naming the flag."""
    def parse(text: str) -> int | float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be {what}, not {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be {what}, not {text}")
        return value

    return parse


TOKENS = _size(int, 1, "a positive number of tokens")
SOME_TOKENS = _size(int, 0, "zero or a positive number of tokens")


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("input", help='conversation file (JSON), or "-" for stdin')
    parser.add_argument("--context-window", type=TOKENS, metavar="N",
                        help="the model's context window in tokens (default: contextWindow from --config, else 8192)")
    parser.add_argument("--max-tokens", type=TOKENS, metavar="N", help="compact when the prompt passes N tokens (default: 0.75 x window)")
    parser.add_argument("--keep-recent-tokens", type=SOME_TOKENS, metavar="N", help="tokens of recent turns kept verbatim (default 2000)")
    parser.add_argument("--summary-max-tokens", type=TOKENS, metavar="N",
                        help="cap on the summary block (default: the room the target leaves after the recent turns)")
    parser.add_argument("--chars-per-token", type=_size(float, 1e-9, "a positive number"), metavar="X",
                        help="characters per token for estimates (default 4)")
    parser.add_argument("--tokenizer", choices=["chars", "cl100k_base", "o200k_base", "server"], help="how to count tokens (default chars; server: under serve, the model server counts each compaction's prompt)")
    parser.add_argument("--model", default="unknown", metavar="ID", help="model id, for per-model overrides in --config")
    parser.add_argument("--config", metavar="FILE", help="JSON file of options (OpenClaw plugin option names)")
    parser.add_argument("--store", metavar="PATH",
                        help="SQLite store for the summary cache and archive (default: in memory, nothing is "
                             "written; compact reads storePath from --config or $CONTEXT_COMPACTOR_STORE_PATH)")
    parser.add_argument("--max-input-mb", type=_size(float, 1e-9, "a positive number of megabytes"), default=256,
                        metavar="MB", help="refuse inputs larger than this (default 256)")
    parser.add_argument("-v", "--verbose", action="store_true", help="log each compaction step to stderr")


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors: what is wrong and where to read more, not the usage block first.

    The subcommands' parsers are of this class too (argparse makes them of their parent's class)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see `{self.prog} --help`)\n")

    def options(self) -> str:
        """This parser's options, as its --help lists them: ``-h/--help, --context-window, ...``."""
        return ", ".join("/".join(action.option_strings) for action in self._actions
                         if action.option_strings and action.help is not argparse.SUPPRESS)


def _chosen(parser: argparse.ArgumentParser, args: argparse.Namespace) -> argparse.ArgumentParser:
    """The parser of the (sub)command the arguments chose: ``archive search``'s, not the top one's."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            name = getattr(args, action.dest, None)
            if name in action.choices:
                return _chosen(action.choices[name], args)
    return parser


def parse(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace:
    """Parse ``argv``; an unknown option is reported by the subcommand it was given to, with its options."""
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        chosen = _chosen(parser, args)
        options = chosen.options() if isinstance(chosen, Parser) else ""
        chosen.error(f"unrecognized arguments: {' '.join(unknown)}" + (f"; its options: {options}" if options else ""))
    return args


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="context-compactor",
        description="Keep long agent conversations inside the model's context window.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"context-compactor {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    p = sub.add_parser("compact", help="compact a conversation and write the prompt a model would be sent",
                       description="Measure a conversation and, when it is over the trigger, write the compacted prompt.")
    _common(p)
    p.add_argument("--json", action="store_true", help='print one JSON object {"messages": [...], "stats": {...}}')
    p.add_argument("-o", "--output", metavar="FILE", help="write the result to FILE (atomically) instead of stdout")
    # The verdict line reports a failed compaction: its log line would say it twice.
    p.set_defaults(run=compact_cmd.run_compact, hidden_events=("compaction.failed",))
    s = sub.add_parser("stats", help="print the /context-stats report for a conversation",
                       description="Measure a conversation and report what compaction would do (writes nothing "
                                   "unless --store names a store).")
    _common(s)
    s.set_defaults(run=compact_cmd.run_stats, hidden_events=("compaction.failed",))
    serve_cmd.add_parser(sub)
    setup_cmd.add_parsers(sub)
    doctor_cmd.add_parser(sub)
    archive_cmd.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parse(parser, argv)
    if not getattr(args, "run", None):
        parser.print_help(sys.stderr)
        return 2
    configure_logging(logging.INFO if getattr(args, "verbose", False) else logging.WARNING,
                      hidden=getattr(args, "hidden_events", ()))
    try:
        code = int(args.run(args))
        sys.stdout.flush()  # here, so that a reader that went away is caught below, not at exit
        return code
    except (InputError, ConfigError) as exc:
        print(f"context-compactor: {exc}", file=sys.stderr)
        return 2
    except CompactorError as exc:
        print(f"context-compactor: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("context-compactor: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`| head`): it has what it wanted, so this is no failure. Point stdout at
        # devnull so the flush at exit stays quiet.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
