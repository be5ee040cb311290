"""``attnproof help [COMMAND]``: the help of the command line or of one command;
``attnproof help --man``: the manual page in roff (:mod:`attnproof.cli.manpage`)."""

from __future__ import annotations

import argparse
import sys

from .common import EXIT_OK, subcommands

NAME = "help"
HELP = "show the help of a command (attnproof help CMD is attnproof CMD --help)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("topic", nargs="?", metavar="COMMAND", help="the command to explain")
    p.add_argument("--man", action="store_true",
                   help="print the manual page attnproof(1) in roff instead (read it with "
                        "'attnproof help --man | man -l -'; docs/attnproof.1 is the same page)")


def run(args: argparse.Namespace) -> int:
    from . import build_parser
    from .common import did_you_mean
    from ..errors import InputError

    parser = build_parser()
    if args.man:
        if args.topic is not None:
            raise InputError("help --man takes no COMMAND (the page covers every command)")
        from .manpage import render_man

        sys.stdout.write(render_man(parser))
        return EXIT_OK
    if args.topic is None:
        parser.print_help()
        return EXIT_OK
    commands = subcommands(parser)
    sub = commands.get(args.topic)
    if sub is None:
        raise InputError(f"no command {args.topic!r}{did_you_mean(args.topic, commands)}; "
                         f"'attnproof help' lists them")
    sub.print_help()
    return EXIT_OK
