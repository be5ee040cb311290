"""``attnproof help [COMMAND]``: the help of the command line or of one command;
``attnproof help TERM``: a word the output prints (:mod:`attnproof.cli.glossary`,
``attnproof help terms`` lists them); ``attnproof help --man``: the manual page in
roff (:mod:`attnproof.cli.manpage`)."""

from __future__ import annotations

import argparse
import sys

from ..errors import InputError
from .common import EXIT_OK, subcommands

NAME = "help"
HELP = ("show the help of a command (attnproof help CMD is attnproof CMD --help) or explain a "
        "word of the output (attnproof help TERM)")
DESCRIPTION = """\
With a command, its help (the same as 'attnproof COMMAND --help').  With a word
that attnproof prints (a trust level, a path, a block kind, a fusion method),
what it means and where the documentation says more; 'attnproof help terms'
lists every word, and docs/glossary.md has them all on one page.

examples:
  attnproof help prove
  attnproof help zonotope_graphic
  attnproof help 'path c1'
  attnproof help terms
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("topic", nargs="*", metavar="COMMAND|TERM",
                   help="the command or the word to explain ('terms' lists the words)")
    p.add_argument("--man", action="store_true",
                   help="print the manual page attnproof(1) in roff instead (read it with "
                        "'attnproof help --man | man -l -'; docs/attnproof.1 is the same page)")


def run(args: argparse.Namespace) -> int:
    from . import build_parser
    from .common import did_you_mean

    parser = build_parser()
    topic = " ".join(args.topic) if args.topic else None
    if args.man:
        if topic is not None:
            raise InputError("help --man takes no COMMAND (the page covers every command)")
        from .manpage import render_man

        sys.stdout.write(render_man(parser))
        return EXIT_OK
    if topic is None:
        parser.print_help()
        return EXIT_OK
    from . import glossary

    commands = subcommands(parser)
    sub = commands.get(topic)
    if sub is not None:
        sub.print_help()
        return EXIT_OK
    if topic in ("terms", "glossary", "words"):
        print("the words attnproof prints ('attnproof help TERM' explains one; all of them: "
              "docs/glossary.md):")
        import textwrap

        print(textwrap.fill(", ".join(glossary.names()), 79, initial_indent="  ",
                            subsequent_indent="  "))
        return EXIT_OK
    term = glossary.lookup(topic)
    if term is None:
        known = list(commands) + glossary.names()
        raise InputError(f"no command or term {topic!r}{did_you_mean(topic, known)}; "
                         f"'attnproof help' lists the commands, 'attnproof help terms' the words")
    print(glossary.explain(term))
    return EXIT_OK
