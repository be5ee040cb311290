"""``attnproof export-checker``: write the trusted checker as a standalone folder."""

from __future__ import annotations

import argparse

from .common import EXIT_OK, add_common, print_json

NAME = "export-checker"
HELP = "write the certificate checker as a standalone folder (standard library only)"
DESCRIPTION = """\
Write attnproof's trusted certificate checker to DIR as a folder that runs on
any Python 3.11 or later with nothing else installed (it uses the standard
library only and imports nothing from attnproof):

  DIR/attnproof_checker/   the checker package (the same source as attnproof.checker)
  DIR/check.py             launcher: python3 DIR/check.py CERT [--problem FILE]
                           [--strict] [--json] (the options of 'attnproof check'
                           but --replay)
  DIR/README.txt           what it is and its exit codes

exit codes of the exported checker: 0 valid, 1 invalid, 2 inconclusive,
3 usage or input error (the same verdicts and first lines as 'attnproof check').

examples:
  attnproof export-checker ./checker
  python3 ./checker/check.py w10.cert.json
"""

PACKAGE = "attnproof_checker"

LAUNCHER = '''\
#!/usr/bin/env python3
"""Check an attnproof certificate with the standard library only: python3 check.py CERT."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from attnproof_checker.__main__ import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(version={version!r}))
'''

README = """\
attnproof certificate checker {version} (standalone)

Re-derives every claim of an attnproof certificate from the problem embedded
in it, with the Python standard library only.  Nothing else is imported.

    python3 check.py CERT                  # prints the verdict
    python3 check.py CERT --json           # the verdict as JSON
    python3 check.py CERT --strict         # only fully exact certificates are valid
    python3 check.py CERT --problem P.json # only a certificate about this problem file
    python3 check.py --version
    python3 -m attnproof_checker CERT      # the same, from this folder

exit codes: 0 valid, 1 invalid (names the failing step and rule),
            2 inconclusive, 3 usage or input error
format: docs/certificates.md of attnproof {version}
sha256 of the checker sources:
{hashes}
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("directory", metavar="DIR", help="folder to write (created if missing)")
    p.add_argument("--force", action="store_true",
                   help="replace an existing export in DIR (its attnproof_checker/, check.py "
                        "and README.txt)")
    add_common(p, json=True)


def export(directory: str, force: bool = False) -> list[str]:
    """Write the standalone checker to ``directory``; return the files written (relative paths)."""
    import hashlib
    import os
    from pathlib import Path

    from .. import __version__
    from ..errors import InputError
    from ..io import atomic_write_text

    src = Path(__file__).resolve().parents[1] / "checker"
    if not directory:
        raise InputError("export-checker needs a folder name (use '.' for this folder)")
    out = Path(directory)
    if out.exists() and not out.is_dir():
        raise InputError(f"{directory}: exists and is not a folder")
    target = out / PACKAGE
    if not force:
        # never replace a file of the user's (a check.py of their own) without --force
        for p in (target, out / "check.py", out / "README.txt"):
            if p.exists() or p.is_symlink():
                raise InputError(f"{p}: already exists (use --force to replace it)")
    os.makedirs(target, exist_ok=True)
    written, hashes = [], []
    for f in sorted(src.rglob("*.py")):          # the package and its rules/ subpackage
        rel = f.relative_to(src).as_posix()
        text = f.read_text(encoding="utf-8")
        os.makedirs((target / rel).parent, exist_ok=True)
        atomic_write_text(target / rel, text)
        written.append(f"{PACKAGE}/{rel}")
        hashes.append(f"  {hashlib.sha256(text.encode('utf-8')).hexdigest()}  {PACKAGE}/{rel}")
    atomic_write_text(out / "check.py", LAUNCHER.format(version=f"attnproof {__version__}, exported"))
    atomic_write_text(out / "README.txt", README.format(version=__version__, hashes="\n".join(hashes)))
    return written + ["check.py", "README.txt"]


def run(args: argparse.Namespace) -> int:
    files = export(args.directory, args.force)
    if args.json:
        print_json({"verdict": "written", "directory": args.directory, "files": files})
    else:
        print(f"standalone checker written to {args.directory} ({len(files)} files); run:")
        print(f"  python3 {args.directory.rstrip('/')}/check.py CERT")
    return EXIT_OK
