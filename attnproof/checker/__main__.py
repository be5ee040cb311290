"""``python -m attnproof.checker CERT``: check a certificate with the standard library only.

Exit codes: 0 valid, 1 invalid, 2 inconclusive, 3 usage or unreadable input.
"""

from __future__ import annotations

import argparse
import json
import sys

from . import check_text


def main(argv: list[str] | None = None) -> int:
    """Check one certificate file; print the verdict (``--json``: as JSON); return the exit code."""
    p = argparse.ArgumentParser(prog=f"python -m {__package__}",
                                description="Check an attnproof certificate (standard library only).")
    p.add_argument("certificate", metavar="CERT")
    p.add_argument("--problem-sha256", metavar="HEX", help="require this embedded problem hash")
    p.add_argument("--strict", action="store_true", help="only trust 'exact' is valid")
    p.add_argument("--json", action="store_true", help="print the verdict as JSON")
    p.add_argument("--reference", action="store_true",
                   help="run the reference path alone, without the fast paths "
                        "(also ATTNPROOF_CHECKER_REFERENCE=1)")
    try:
        args = p.parse_args(argv)
    except SystemExit as e:
        return 0 if e.code == 0 else 3
    sha = args.problem_sha256
    try:
        if sha is not None and not (len(sha) == 64 and set(sha) <= set("0123456789abcdef")):
            raise OSError(0, "--problem-sha256 takes 64 lowercase hexadecimal digits")
        with open(args.certificate, "rb") as fh:
            text = fh.read().decode("utf-8")
    except (OSError, UnicodeDecodeError) as e:
        msg = f"{args.certificate}: cannot be read ({getattr(e, 'strerror', None) or 'not UTF-8 text'})"
        msg = str(getattr(e, "strerror", msg)) if getattr(e, "errno", None) == 0 else msg
        if args.json:
            print(json.dumps({"verdict": "error", "exit_code": 3, "message": msg}, sort_keys=True))
        else:
            print(f"error: {msg}", file=sys.stderr)
        return 3
    v = check_text(text, expected_sha256=args.problem_sha256, strict=args.strict,
                   reference=args.reference)
    print(json.dumps(v.to_dict(), sort_keys=True, indent=2) if args.json else v.message)
    return v.code


if __name__ == "__main__":
    sys.exit(main())
