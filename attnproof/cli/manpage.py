"""The manual page ``attnproof(1)``, written in roff from the argument parsers.

:func:`render_man` walks the same parsers as ``--help`` (the top level, then
every command with its description and options, group by group), so the page
cannot drift from the command line; ``attnproof help --man`` prints it and
``docs/attnproof.1`` is a copy kept in sync by the test suite.  The text does
not depend on the terminal width: roff fills the paragraphs when it is shown
(``attnproof help --man | man -l -``).

>>> page = render_man()
>>> page.splitlines()[0].startswith('.TH ATTNPROOF 1 "" "attnproof ')
True
>>> '.SS "attnproof search"' in page and "\\\\fB\\\\-\\\\-minimize\\\\fR" in page
True
"""

from __future__ import annotations

import argparse
import re

from .common import subcommands

__all__ = ["render_man", "roff_text"]


def roff_text(text: str) -> str:
    """``text`` safe in roff: backslashes and hyphens escaped, no line taken for a request.

    >>> roff_text(".hidden --flag a\\\\b")
    '\\\\&.hidden \\\\-\\\\-flag a\\\\eb'
    """
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return "\n".join("\\&" + line if line.startswith((".", "'")) else line
                     for line in text.split("\n"))


def _paragraphs(text: str) -> list[str]:
    """A raw description as roff: filled paragraphs, and indented blocks kept line by line.

    >>> _paragraphs("One line\\nand more.\\n\\nkeys:\\n  a  first\\n  b  second\\n")
    ['.PP\\nOne line and more.', '.PP\\n.nf\\nkeys:\\n  a  first\\n  b  second\\n.fi']
    """
    out = []
    for block in re.split(r"\n\s*\n", text.strip("\n")):
        lines = block.rstrip().split("\n")
        if any(line.startswith(" ") for line in lines):
            out.append(".PP\n.nf\n" + roff_text("\n".join(lines)) + "\n.fi")
        else:
            out.append(".PP\n" + roff_text(" ".join(line.strip() for line in lines)))
    return out


def _formatter(parser: argparse.ArgumentParser) -> argparse.HelpFormatter:
    return parser._get_formatter()


def _invocation(parser: argparse.ArgumentParser, action: argparse.Action) -> str:
    """``-o FILE, --output FILE`` in bold and italics."""
    fmt = _formatter(parser)
    if not action.option_strings:
        return "\\fI" + roff_text(fmt._format_args(action, fmt._get_default_metavar_for_positional(action))) + "\\fR"
    args = ""
    if action.nargs != 0:
        args = " \\fI" + roff_text(fmt._format_args(action, fmt._get_default_metavar_for_optional(action))) + "\\fR"
    return ", ".join(f"\\fB{roff_text(s)}\\fR{args}" for s in action.option_strings)


def _synopsis(parser: argparse.ArgumentParser, words: str) -> str:
    """``attnproof CMD [options] POSITIONALS``, with the options a call must give."""
    fmt = _formatter(parser)
    parts = [words, "[\\fIoptions\\fR]"]
    for action in parser._actions:
        if action.help == argparse.SUPPRESS or isinstance(action, argparse._SubParsersAction):
            continue
        if action.option_strings and action.required:
            parts.append(_invocation(parser, action).split(", ")[-1])
        elif not action.option_strings:
            parts.append("\\fI" + roff_text(fmt._format_args(
                action, fmt._get_default_metavar_for_positional(action))) + "\\fR")
    return ".PP\n" + " ".join(parts)


def _options(parser: argparse.ArgumentParser) -> list[str]:
    """The arguments group by group: ``.TP`` entries under each group's title."""
    fmt = _formatter(parser)
    out = []
    for group in parser._action_groups:
        actions = [a for a in group._group_actions if a.help != argparse.SUPPRESS
                   and not isinstance(a, argparse._SubParsersAction)]
        if not actions:
            continue
        out.append(f".PP\n\\fI{roff_text(group.title or 'arguments')}:\\fR")
        for action in actions:
            text = fmt._expand_help(action) if action.help else ""
            out.append(f".TP\n{_invocation(parser, action)}\n{roff_text(' '.join(text.split()))}")
    return out


def render_man(parser: argparse.ArgumentParser | None = None) -> str:
    """The manual page of ``parser`` (by default the ``attnproof`` command line) in roff."""
    from .. import __version__

    if parser is None:
        from . import build_parser

        parser = build_parser()
    description = parser.description or ""
    summary = description.split(".")[0].strip()
    out = [f'.TH ATTNPROOF 1 "" "attnproof {__version__}" "User Commands"',
           ".SH NAME",
           f"attnproof \\- {roff_text(summary[:1].lower() + summary[1:])}",
           ".SH SYNOPSIS",
           ".B attnproof",
           "\\fICOMMAND\\fR [\\fIoptions\\fR] [\\fIarguments\\fR]",
           ".SH DESCRIPTION",
           *_paragraphs(description),
           ".SH OPTIONS",
           *_options(parser),
           ".SH COMMANDS"]
    commands = subcommands(parser)
    for name, sub in commands.items():
        out += [f'.SS "attnproof {name}"', _synopsis(sub, f"\\fBattnproof {roff_text(name)}\\fR"),
                *_paragraphs(sub.description or ""), *_options(sub)]
    out += [".SH SEE ALSO",
            "\\fBattnproof help\\fR \\fICOMMAND\\fR (the same text as \\fBattnproof\\fR "
            "\\fICOMMAND\\fR \\fB\\-\\-help\\fR); \\fBpython \\-m attnproof.checker\\fR, the "
            "standalone checker; docs/cli.md in the source tree, the command line reference."]
    return "\n".join(out) + "\n"
