"""Generate docs/cli.md and the manual page docs/attnproof.1 from the argument parsers of the
``attnproof`` command, and docs/glossary.md from :mod:`attnproof.cli.glossary`.

Run ``python docs/gen_cli.py`` after changing a command's options; the test suite
(``tests/test_docs.py``) fails while either file is out of date.  The manual page is
what ``attnproof help --man`` prints.  Help texts are
formatted at a fixed width of 80 columns so that the page does not depend on the
terminal.

``python docs/gen_cli.py --check`` exits 1 when docs/cli.md, docs/attnproof.1 or
docs/glossary.md differs.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

WIDTH = "80"

HEADER = """\
# Command line reference

This page is generated from the parsers by `python docs/gen_cli.py`; each block is
exactly what `attnproof COMMAND --help` prints (at 80 columns).  The same text is
the manual page `docs/attnproof.1`, which `attnproof help --man` prints (read it with
`attnproof help --man | man -l -`).

Exit codes, shared by every command: **0** success (valid, consistent), **1** a
negative verdict (invalid certificate, refuted claim), **2** inconclusive or
undecided, **3** usage or input error, **4** internal error.

Machine output (`--json`) uses one vocabulary in every command: `verdict` (what
happened: `fused`, `proven`, `valid`, `sat`, `consistent`, ...), `atoms`,
`lower_bound`, `upper_bound`, `minimum`, `complete` (the lower bound is the whole
vertex count `V(Q)`), `trust` and `elapsed_s`.  Counts are JSON integers below
2^53 and decimal strings from 2^53 on; other numbers are JSON numbers.  An error
under `--json` is a JSON document too (`{"verdict": "error", "error": ...,
"message": ..., "exit_code": 3}`) besides the one line on stderr.  The JSON Schemas
of the problem file, the certificate and every command's output are in `schemas/`
of the repository.

Progress bars go to stderr, on a terminal after a second of work; `--progress`
shows them anywhere (a pipe, a log file), and quiet is the default otherwise.

"""


def help_texts() -> list[tuple[str, str]]:
    """``(command, help text)`` for ``attnproof`` itself and every subcommand."""
    os.environ["COLUMNS"] = WIDTH
    from attnproof.cli import build_parser

    parser = build_parser()
    out = [("attnproof", parser.format_help())]
    for action in parser._subparsers._group_actions:          # the one subparsers action
        for name, sub in action.choices.items():
            out.append((name, sub.format_help()))
    return out


def render() -> str:
    """The full text of docs/cli.md."""
    parts = [HEADER]
    for name, text in help_texts():
        title = "`attnproof`" if name == "attnproof" else f"`attnproof {name}`"
        parts.append(f"## {title}\n\n```text\n{text.rstrip()}\n```\n\n")
    return "".join(parts).rstrip() + "\n"


def render_man() -> str:
    """The full text of docs/attnproof.1."""
    from attnproof.cli.manpage import render_man as page

    return page()


def main(argv: list[str]) -> int:
    docs = Path(__file__).resolve().parent
    from attnproof.cli.glossary import render_markdown

    pages = {docs / "cli.md": render(), docs / "attnproof.1": render_man(),
             docs / "glossary.md": render_markdown()}
    if "--check" in argv:
        stale = [p.name for p, text in pages.items()
                 if (p.read_text(encoding="utf-8") if p.exists() else "") != text]
        if stale:
            print(f"docs/{' and docs/'.join(stale)} out of date: run python docs/gen_cli.py",
                  file=sys.stderr)
            return 1
        return 0
    for target, text in pages.items():
        target.write_text(text, encoding="utf-8")
        print(f"wrote {target.name} ({len(text.splitlines())} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
