"""``attnproof check``: verify a certificate with the independent checker."""

from __future__ import annotations

import argparse
import json

from .common import (EXIT_INCONCLUSIVE, EXIT_NEGATIVE, EXIT_OK, EXIT_USAGE, Progress, add_common,
                     print_json)

NAME = "check"
HELP = "verify a certificate with the small independent checker"
DESCRIPTION = """\
Verify CERT with attnproof's trusted checker: standard library only, it
re-derives every claim from the problem embedded in the certificate.

exit codes: 0 valid, 1 invalid (the failing step and rule are named),
            2 inconclusive (e.g. --strict and a step that trusts FLINT or SMT),
            3 usage or input error (unreadable file, a problem file or a YAML
              file instead of a certificate, bad --problem)

The same checker runs without attnproof: 'python -m attnproof.checker CERT',
or a folder written by 'attnproof export-checker DIR'.

examples:
  attnproof check w10.cert.json
  attnproof check w10.cert.json --problem w10.json --strict
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("certificate", metavar="CERT", help="certificate file (JSON)")
    p.add_argument("--problem", metavar="PROBLEM",
                   help="reject the certificate unless it is about this problem file")
    p.add_argument("--strict", action="store_true",
                   help="accept only fully exact certificates (trust 'exact'); others are inconclusive")
    p.add_argument("--replay", action="store_true",
                   help="re-run z3 and cvc5 on each windowed refutation (needs attnproof.search)")
    add_common(p)


def replay(text: str) -> list[tuple[int, bool, str]]:
    """Replay every window_refutation step: ``[(step index, ok, message)]``."""
    try:
        from ..search.replay import replay_step
    except ImportError:
        return [(-1, False, "replay unavailable (attnproof.search.replay is not installed)")]
    from ..io import problem_from_dict

    doc = json.loads(text)
    problem = problem_from_dict(doc["problem"])     # the checker has already validated it
    out = []
    for i, step in enumerate(doc.get("steps", [])):
        if isinstance(step, dict) and step.get("rule") == "window_refutation":
            ok, msg = replay_step(step, problem=problem)
            out.append((i, ok, msg))
    return out


def _not_a_certificate(path: str, text: str) -> None:
    """Refuse (exit 3) a YAML file or a problem file given where a certificate belongs."""
    from pathlib import Path

    from ..errors import InputError

    if Path(path).suffix.lower() in (".yaml", ".yml"):
        raise InputError(f"{path}: certificates are JSON, this is a YAML file")
    head = text.lstrip()[:4096]
    if head.startswith("{") and '"attnproof-problem"' in head:
        import json as _json

        try:
            doc = _json.loads(text)
        except ValueError:
            return
        if isinstance(doc, dict) and doc.get("format") == "attnproof-problem":
            raise InputError(f"{path}: is a problem file, not a certificate (make one with "
                             f"'attnproof prove {path} -o CERT')")


def run(args: argparse.Namespace) -> int:
    from ..checker import check_text
    from ..io import read_text_file

    text = read_text_file(args.certificate)
    _not_a_certificate(args.certificate, text)
    expected = None
    if args.problem:
        from ..io import load_problem, problem_sha256
        expected = problem_sha256(load_problem(args.problem))
    with Progress("checking the certificate", heartbeat=True):
        v = check_text(text, expected_sha256=expected, strict=args.strict)
    code = v.code
    replays = []
    if args.replay and v.code == 0:
        replays = replay(text)
        if any(i < 0 for i, _, _ in replays):
            code = EXIT_INCONCLUSIVE
        elif not all(ok for _, ok, _ in replays):
            code = EXIT_NEGATIVE
    if args.json:
        d = v.to_dict()
        d["exit_code"] = code
        d["replay"] = [{"step": i, "ok": ok, "message": m} for i, ok, m in replays]
        print_json(d)
    else:
        print(v.message)
        for i, ok, m in replays:
            print(f"  replay{'' if i < 0 else f' step {i}'}: {'ok' if ok else 'FAILED'}: {m}")
    return code if code in (EXIT_OK, EXIT_NEGATIVE, EXIT_INCONCLUSIVE) else EXIT_USAGE
