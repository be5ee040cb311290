"""``attnproof help [COMMAND]``: the help of the command line or of one command."""

from __future__ import annotations

import argparse

from .common import EXIT_OK

NAME = "help"
HELP = "show the help of a command (attnproof help CMD is attnproof CMD --help)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("topic", nargs="?", metavar="COMMAND", help="the command to explain")


def run(args: argparse.Namespace) -> int:
    from . import build_parser
    from .common import did_you_mean
    from ..errors import InputError

    parser = build_parser()
    if args.topic is None:
        parser.print_help()
        return EXIT_OK
    commands = parser._subparsers._group_actions[0].choices    # type: ignore[union-attr]
    sub = commands.get(args.topic)
    if sub is None:
        raise InputError(f"no command {args.topic!r}{did_you_mean(args.topic, commands)}; "
                         f"'attnproof help' lists them")
    sub.print_help()
    return EXIT_OK
