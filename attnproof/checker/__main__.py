"""``python -m attnproof.checker CERT``: check a certificate with the standard library only.

The same verdicts, exit codes and first lines as ``attnproof check`` (without
``--replay``, which needs the solvers): 0 valid, 1 invalid, 2 inconclusive,
3 usage or input error (a file that is not a certificate at all: missing, a
folder, not UTF-8, empty, truncated or not JSON, a YAML or problem file; a bad
``--problem``).  A broken download is exit 3, never the exit 1 of a forgery.
Every error line starts with the program's name, as ``argparse`` prints it.  The folder that ``attnproof
export-checker DIR`` writes runs this module as ``python3 DIR/check.py CERT``.

``--problem FILE`` reads a JSON problem file and binds the certificate to it
through the SHA-256 of its canonical form (:func:`problem_file_sha256`), the
hash ``attnproof check --problem FILE`` compares.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from contextlib import suppress

from . import check_text, too_large
from .advice import advised, not_a_certificate
from .limits import MAX_CONTAINERS, MAX_FILE_BYTES, MAX_WORK_HELP, byte_limit, containers, file_size, read_at_most
from .problem import canonical_problem
from .syntax import Reject, canonical_text, loads

EXIT_USAGE = 3


class UsageError(Exception):
    """A file or option that cannot be used: one line, exit 3."""


def read_text(path: str, max_bytes: int = MAX_FILE_BYTES, prefix: str = "") -> str:
    """A file's UTF-8 text, with the command line's one-line errors (each starting with ``prefix``).

    >>> read_text("no/such/file.json")
    Traceback (most recent call last):
    ...
    attnproof.checker.__main__.UsageError: no/such/file.json: no such file
    """
    try:
        with open(path, "rb") as f:
            raw = read_at_most(f, max_bytes + 1)
        if len(raw) > max_bytes:
            raise UsageError(f"{prefix}{path}: file is larger than {max_bytes} bytes")
        return raw.decode("utf-8")
    except OSError as e:
        why = {FileNotFoundError: "no such file", IsADirectoryError: "is a directory",
               PermissionError: "permission denied"}.get(type(e), f"cannot be read ({e.strerror})")
        raise UsageError(f"{prefix}{path}: {why}") from None
    except UnicodeDecodeError:
        raise UsageError(f"{prefix}{path}: not UTF-8 text") from None


def problem_file_sha256(path: str, work: int | None = None) -> str:
    """The SHA-256 of a problem file's canonical form as attnproof hashes it (reads up to
    byte_limit(work) bytes), from the checker's one reader of the problem format
    (:func:`attnproof.checker.problem.canonical_problem`)."""
    if os.path.splitext(path)[1].lower() in (".yaml", ".yml", ".npz"):
        raise UsageError(f"{path}: this checker reads JSON problem files only (write one with "
                         f"'attnproof show {path} --json' or 'attnproof family ... -o FILE')")
    if containers(text := read_text(path, byte_limit(work))) > MAX_CONTAINERS:
        raise UsageError(f"{path}: more than {MAX_CONTAINERS} JSON objects and arrays")
    try:
        return hashlib.sha256(canonical_text(canonical_problem(loads(text))).encode("ascii")).hexdigest()
    except Reject as e:
        raise UsageError(f"{path}: {e}") from None


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    with suppress(PackageNotFoundError):
        return f"attnproof {version('attnproof')}"
    return "standalone"


def _prog() -> str:
    spec = getattr(sys.modules.get("__main__"), "__spec__", None)
    if spec is not None and spec.name.endswith(".__main__"):
        return f"python -m {spec.name.removesuffix('.__main__')}"
    return os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else "check.py"


def build_parser(prog: str | None = None, version: str | None = None) -> argparse.ArgumentParser:
    """The options of the standalone checker (``attnproof check``'s, less the replay)."""
    p = argparse.ArgumentParser(prog=prog or _prog(), description="Check an attnproof certificate with the standard "
                                "library only: the same verdicts and exit codes as 'attnproof check'.",
                                epilog="exit codes: 0 valid, 1 invalid (the failing step and rule are named), "
                                "2 inconclusive, 3 usage or input error")
    p.add_argument("certificate", metavar="CERT", help="certificate file (JSON)")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--problem", metavar="PROBLEM",
                       help="reject the certificate unless it is about this (JSON) problem file")
    which.add_argument("--problem-sha256", metavar="HEX",
                       help="reject the certificate unless its problem has this SHA-256")
    p.add_argument("--strict", action="store_true",
                   help="accept only fully exact certificates (trust 'exact'); others are inconclusive")
    p.add_argument("--max-work", metavar="OPS", type=int, default=None, help=MAX_WORK_HELP)
    p.add_argument("--json", action="store_true", help="print the verdict as one JSON document")
    p.add_argument("--reference", action="store_true",
                   help="kept for old scripts: the checker has one path, so this changes nothing")
    p.add_argument("-V", "--version", action="version",
                   version=f"%(prog)s: attnproof certificate checker ({version or _version()})")
    return p


def main(argv: list[str] | None = None, prog: str | None = None, version: str | None = None) -> int:
    """Check one certificate file; print the verdict (``--json``: as JSON); return the exit code."""
    p = build_parser(prog, version)
    try:
        args = p.parse_args(argv)
    except SystemExit as e:
        return 0 if e.code == 0 else EXIT_USAGE
    try:
        sha, work = args.problem_sha256, args.max_work
        if sha is not None and not (len(sha) == 64 and set(sha) <= set("0123456789abcdef")):
            raise UsageError("--problem-sha256 takes 64 lowercase hexadecimal digits")
        if work is not None and work < 1:
            raise UsageError("--max-work must be a positive number of operations")
        # a certificate beyond the size its work budget reads is answered unread
        if (v := too_large(file_size(args.certificate), work)) is None:
            text = read_text(args.certificate, byte_limit(work), "not a certificate: ")
            if why := not_a_certificate(args.certificate, text):   # a YAML or problem file
                raise UsageError(why)
            if args.problem is not None:
                sha = problem_file_sha256(args.problem, work)
            v = check_text(text, expected_sha256=sha, strict=args.strict, work=work)
        if v.status == "error":             # not JSON at all: a broken download, not a forgery
            raise UsageError(f"not a certificate: {args.certificate}: {v.message.removeprefix('not a certificate: ')}")
    except UsageError as e:
        print(f"{p.prog}: error: {e}", file=sys.stderr)
        if args.json:
            with suppress(OSError):         # a reader that stopped early (| head -c1): no traceback
                print(json.dumps({"verdict": "error", "error": "InputError", "message": str(e),
                                  "exit_code": EXIT_USAGE}, sort_keys=True, indent=2), flush=True)
        return EXIT_USAGE
    except KeyboardInterrupt:           # Ctrl-C (a long check, a FIFO with no writer): no traceback
        print(f"{p.prog}: interrupted", file=sys.stderr)
        return 130
    v = advised(v, file_size(args.certificate))
    with suppress(OSError):             # a reader that stopped early cuts the text, not the exit code
        print(json.dumps(v.to_dict(), sort_keys=True, indent=2) if args.json else v.message, flush=True)
    return v.code if v.code in (0, 1, 2) else EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
