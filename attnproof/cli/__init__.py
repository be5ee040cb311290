"""The ``attnproof`` command line: a thin layer over the public API.

This package is the only layer that prints or exits.  Each subcommand lives in
its own module ``attnproof/cli/<name>.py`` exposing ``NAME``, ``HELP``,
``add_arguments(parser)`` and ``run(args) -> int``; :data:`COMMANDS` fixes
their order in ``--help``.

Exit codes, shared by every command: 0 success (valid, consistent), 1 a
negative verdict (invalid certificate, refuted claim), 2 inconclusive or
undecided, 3 usage or input error, 4 internal error; a command stopped by
Ctrl-C (SIGINT) exits 130, one stopped by SIGTERM 143 (SIGHUP 129), as shells
report a process killed by that signal, after killing its solver processes
and Dask workers.
"""

from __future__ import annotations

import argparse
import os
import importlib
import importlib.util
import sys

from .common import (_JSON_MODE, EXIT_INTERNAL, EXIT_USAGE, STOPPED_CODES, ArgumentParser,
                     close_executors, did_you_mean, run_command, stop_signals, subcommands)

# module names (cmd_<name>.py); a command's NAME may differ (merge_report -> merge-report)
COMMANDS = ("demo", "family", "fuse", "show", "bound", "prove", "check", "search",
            "numcheck", "eval", "import", "capture", "merge_report", "export_checker", "help",
            "completion")

# commands that print text for a person or a shell, not a result: no --json, no schema
TEXT_COMMANDS = ("help", "completion")

DESCRIPTION = """\
Exact fusion of softmax attention heads.  A multi-head adds several
independently normalized heads; attnproof computes exact single-head fusions,
proves how many atoms any exact fusion needs, and writes certificates that a
small independent checker re-verifies.

exit codes: 0 success/valid, 1 invalid or refuted, 2 inconclusive,
            3 usage or input error, 4 internal error,
            130 interrupted (Ctrl-C), 143 terminated (SIGTERM)
"""


def _available() -> list:
    mods = []
    for name in COMMANDS:
        modname = f"{__name__}.cmd_{name}"
        if importlib.util.find_spec(modname) is not None:
            mods.append(importlib.import_module(modname))
    return mods


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser (every available subcommand)."""
    from .. import __version__

    parser = ArgumentParser(prog="attnproof", description=DESCRIPTION,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-V", "--version", action="version", version=f"attnproof {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=ArgumentParser)
    for mod in _available():
        p = sub.add_parser(mod.NAME, help=mod.HELP, description=getattr(mod, "DESCRIPTION", mod.HELP),
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        mod.add_arguments(p)
        p.set_defaults(_run=mod.run)
    return parser


def _options_of(parser: argparse.ArgumentParser) -> list[str]:
    return [s for a in parser._actions for s in a.option_strings if s.startswith("--")]


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script; returns the exit code."""
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser()
    if "_ARGCOMPLETE" in os.environ:               # the shell asks for completions
        try:
            import argcomplete

            argcomplete.autocomplete(parser)
        except ImportError:
            pass
    token = _JSON_MODE.set("--json" in argv)       # usage errors under --json are JSON too
    try:
        args, extra = parser.parse_known_args(argv)
        if extra:
            # an unknown option belongs to the subcommand: its usage, not the top-level one
            sub = subcommands(parser).get(args.command)
            (sub or parser).error(f"unrecognized arguments: {' '.join(extra)}"
                                  f"{did_you_mean(extra[0], _options_of(sub or parser))}")
    finally:
        _JSON_MODE.reset(token)
    if getattr(args, "_run", None) is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    with stop_signals():
        return run_command(args._run, args)


def _console() -> None:  # pragma: no cover
    # the console script's process: the Dask clusters a command opened are closed here, with
    # SIGTERM still handled, rather than at interpreter exit where a signal would kill the
    # process half-way through closing them
    with stop_signals():
        code = close_executors(main())
    if code in STOPPED_CODES:
        # stopped by a signal: the solvers are killed and the clusters closed already; the
        # interpreter's exit hooks have nothing left to do but may wait or complain
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    sys.exit(code)


__all__ = ["main", "build_parser", "COMMANDS", "TEXT_COMMANDS", "EXIT_USAGE", "EXIT_INTERNAL"]
