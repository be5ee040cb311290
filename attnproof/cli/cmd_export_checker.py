"""``attnproof export-checker``: write the trusted checker as a standalone folder."""

from __future__ import annotations

import argparse

from ..errors import InputError
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
  DIR/README.txt           what it is, its exit codes, what it cannot re-prove
  DIR/certificates.md      the rule reference: the format, rule by rule
  DIR/theory.md            the theorems the rules cite (THEORY §...)

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
    python3 check.py CERT --max-work OPS   # a larger work budget for a large certificate
    python3 check.py --version
    python3 -m attnproof_checker CERT      # the same, from this folder

exit codes: 0 valid, 1 invalid (names the failing step and rule),
            2 inconclusive, 3 usage or input error ("not a certificate: ..."
            for a file that is missing, empty, truncated or not JSON: a broken
            download, never the exit 1 of a forged certificate)

What this checker cannot re-prove: a certificate with trust line-refuted or
window-refuted rests on SMT refutations (rules line_refutation and
window_refutation).  Here it is inconclusive (exit 2) at best, with the
bounds its exact steps prove.  It becomes valid only with attnproof itself,
installed with z3 and cvc5 (pip install -e . in a checkout of attnproof
installs both):

    attnproof check CERT --replay          # re-encodes and re-solves each query

Certificates with trust exact are decided here completely; exact-modulo-flint
(rule reduced_by_flint) needs python-flint, else it is inconclusive too.

rule reference: certificates.md in this folder (the format, rule by rule; its
"THEORY" references point to theory.md in this folder){missing}
sha256 of the checker sources:
{hashes}
"""

# the rule reference and the theorems it cites, copied beside the checker
REFERENCE = ("certificates.md", "theory.md")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("directory", metavar="DIR", help="folder to write (created if missing)")
    p.add_argument("--force", action="store_true",
                   help="replace an existing export in DIR (its attnproof_checker/, check.py, "
                        "README.txt, certificates.md and theory.md)")
    add_common(p, json=True)


def export(directory: str, force: bool = False) -> list[str]:
    """Write the standalone checker to ``directory``; return the files written (relative paths)."""
    import hashlib
    import os
    from pathlib import Path

    from .. import __version__
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
        for p in (target, out / "check.py", out / "README.txt", *(out / r for r in REFERENCE)):
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
    docs = Path(__file__).resolve().parents[2] / "docs"
    shipped = [r for r in REFERENCE if (docs / r).is_file()]
    for r in shipped:
        atomic_write_text(out / r, (docs / r).read_text(encoding="utf-8"))
    missing = "" if len(shipped) == len(REFERENCE) else (
        f";\nthis installation of attnproof has no docs/ folder, so {' and '.join(sorted(set(REFERENCE) - set(shipped)))} "
        f"\nwere not copied: export from a checkout of attnproof {__version__} to ship them")
    atomic_write_text(out / "README.txt", README.format(version=__version__, hashes="\n".join(hashes),
                                                        missing=missing))
    return written + ["check.py", "README.txt"] + shipped


def run(args: argparse.Namespace) -> int:
    files = export(args.directory, args.force)
    if args.json:
        print_json({"verdict": "written", "directory": args.directory, "files": files})
    else:
        print(f"standalone checker written to {args.directory} ({len(files)} files); run:")
        print(f"  python3 {args.directory.rstrip('/')}/check.py CERT")
    return EXIT_OK
