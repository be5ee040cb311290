"""Mutation testing of the trusted checker (``attnproof/checker``) with mutmut.

mutmut changes the checker's code one operator at a time (a comparison, a
number, a boolean, a removed argument, ...) and runs the checker's tests on
each change; a *surviving* mutant is a change that no test notices, i.e. a
place where a weakened checker could accept a forged certificate.  The audit
of the last run, with every survivor explained, is ``docs/checker-audit.md``.

Usage (from the repository root, with the ``test`` extra installed)::

    nice python bench/mutation.py                    # the rule modules, one at a time
    nice python bench/mutation.py --sample 150       # a seeded sample per module (quick)
    nice python bench/mutation.py poly syntax        # other checker modules (name globs)
    python bench/mutation.py --report                # scores of the last runs, no testing
    python bench/mutation.py --report --survivors    # ... and the diff of every survivor

Configuration (``[tool.mutmut]`` in pyproject.toml): the mutated files, the
focused test selection (the checker's tests, no slow tests, ``-x``) and the
per-mutant time limit (``timeout_multiplier`` times the covering tests' clean
duration).  The statements that only build an error message (``raise
Reject(...)``) are not mutated: a message decides no verdict.  mutmut works
in ``mutants/`` (ignored by git) and keeps results there between runs, so a
module is re-tested only when asked for.

A whole module is one ``mutmut run`` (its own clean test run, then its
mutants), so that the work comes in chunks; a sample (``--sample``, or
``--retest-survivors``) is one run over all the chosen modules.  ``--jobs``
forked workers run the mutants.
Scores: ``(killed + timeout) / tested``, where ``tested`` also counts the
mutants that no selected test reaches (``no tests``, not detected).  A mutant
that runs past its time limit counts as detected (``timeout``: the change made
the checker hang, which a user sees), and is listed separately.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHECKER = ROOT / "attnproof" / "checker"
MUTANTS = ROOT / "mutants"
PREFIX = "attnproof.checker."

# mutmut's exit codes (mutmut.stats.status_by_exit_code), grouped.
STATUS = {1: "killed", 3: "killed", 0: "survived", 36: "timeout", -24: "timeout",
          24: "timeout", 152: "timeout", 255: "timeout", 5: "no tests", 33: "no tests",
          34: "skipped", None: "not checked"}


def rule_modules() -> list[str]:
    """The checker's rule modules: ``rules/*.py`` once split, else ``rules*.py``."""
    if (CHECKER / "rules").is_dir():
        return sorted(f"rules.{p.stem}" for p in (CHECKER / "rules").glob("*.py")
                      if p.stem != "__init__")
    return sorted(p.stem for p in CHECKER.glob("rules*.py"))


def all_modules() -> list[str]:
    out = []
    for p in sorted(CHECKER.rglob("*.py")):
        rel = p.relative_to(CHECKER).with_suffix("")
        name = ".".join(rel.parts)
        out.append(name[: -len(".__init__")] if name.endswith(".__init__") else name)
    return out


def meta_file(module: str) -> Path:
    rel = module.replace(".", "/")
    base = MUTANTS / "attnproof" / "checker"
    if (CHECKER / rel).is_dir():
        return base / rel / "__init__.py.meta"
    return base / f"{rel}.py.meta"


def results(module: str) -> dict[str, str]:
    """``{mutant name: status}`` for one module, from mutmut's files."""
    p = meta_file(module)
    if not p.exists():
        return {}
    codes = json.loads(p.read_text())["exit_code_by_key"]
    return {k: STATUS.get(c, "suspicious") for k, c in codes.items()}


def limits() -> tuple[float, float]:
    """``(timeout_multiplier, timeout_constant)`` of ``[tool.mutmut]``."""
    import tomllib
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mutmut"]
    return float(cfg.get("timeout_multiplier", 15.0)), float(cfg.get("timeout_constant", 1.0))


def env() -> dict:
    e = dict(os.environ)
    # one test over k times its clean CPU time plus c seconds: a timeout (tests/conftest.py)
    e["ATTNPROOF_MUTATION_TEST_LIMIT"] = "%g,%g" % limits()
    # subprocesses of the tests import the mutated copy; hypothesis runs a fixed sequence
    e["PYTHONPATH"] = str(MUTANTS)
    e.setdefault("ATTNPROOF_HYPOTHESIS_PROFILE", "ci")
    return e


def mutmut(*args: str) -> int:
    cmd = [sys.executable, "-m", "mutmut", *args]
    print("$", " ".join(cmd), flush=True)
    return subprocess.run(cmd, cwd=ROOT, env=env()).returncode


def generate() -> None:
    """Generate the mutants (and the test coverage per function) without testing any."""
    if not (MUTANTS.exists() and any(MUTANTS.rglob("*.meta"))):
        mutmut("run", "--max-children", "1", "attnproof.checker.__no_such_mutant__")


def score_line(module: str, res: dict[str, str], tested: set[str] | None = None) -> str:
    c = Counter(res.values() if tested is None else (res[k] for k in tested))
    checked = c["killed"] + c["survived"] + c["timeout"] + c["no tests"]
    score = 100.0 * (c["killed"] + c["timeout"]) / checked if checked else float("nan")
    return (f"{module:24s} {len(res):7d} {checked:7d} {c['killed']:7d} {c['survived']:8d} "
            f"{c['timeout']:7d} {c['no tests']:8d} {score:7.1f}%")


HEADER = (f"{'module':24s} {'mutants':>7s} {'tested':>7s} {'killed':>7s} {'survived':>8s} "
          f"{'timeout':>7s} {'no tests':>8s} {'score':>8s}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("modules", nargs="*", help="checker modules (globs over dotted names, "
                    "e.g. 'rules.*', 'poly'); default: the rule modules")
    ap.add_argument("--all", action="store_true", help="every module of the checker")
    ap.add_argument("--sample", type=int, default=0,
                    help="test a seeded random sample of this many mutants per module")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1, help="forked workers (default 1)")
    ap.add_argument("--report", action="store_true", help="only print the last results")
    ap.add_argument("--survivors", action="store_true", help="print every survivor's diff")
    ap.add_argument("--retest-survivors", action="store_true",
                    help="re-run only the mutants that survived last time")
    ap.add_argument("--unfinished", action="store_true",
                    help="with --sample: skip the sampled mutants already killed")
    ap.add_argument("--together", action="store_true",
                    help="test every chosen module in one mutmut run (one clean test run)")
    a = ap.parse_args(argv)

    known = all_modules()
    if a.all:
        mods = known
    elif a.modules:
        mods = [m for m in known if any(fnmatch.fnmatch(m, g) for g in a.modules)]
    else:
        mods = rule_modules()
    if not mods:
        ap.error(f"no checker module matches {a.modules}; known: {' '.join(known)}")

    sampled: dict[str, set[str]] = {}
    if not a.report:
        generate()
        chunk: list[str] = []
        for m in mods:
            res = results(m)
            if a.retest_survivors:
                names = sorted(k for k, s in res.items() if s in ("survived", "no tests"))
            elif a.sample:
                names = sorted(res)
                random.Random(f"{a.seed}:{m}").shuffle(names)
                names = sorted(names[: a.sample])
                if a.unfinished:
                    sampled[m] = set(names)
                    names = [k for k in names if res[k] not in ("killed", "timeout")]
            elif a.together:
                print(f"== {m}: {len(res)} mutants", flush=True)
                chunk.append(f"{PREFIX}{m}.*")
                continue
            else:                      # a whole module: one chunk of its own
                print(f"== {m}: {len(res)} mutants", flush=True)
                mutmut("run", "--max-children", str(a.jobs), f"{PREFIX}{m}.*")
                continue
            sampled.setdefault(m, set(names))
            chunk += names
        if chunk:                      # a sample or --together: one run, one clean test run
            print(f"== {len(chunk)} names of {len(mods)} modules", flush=True)
            mutmut("run", "--max-children", str(a.jobs), *chunk)

    print()
    print(HEADER)
    total: dict[str, str] = {}
    for m in mods:
        res = results(m)
        tested = sampled.get(m)
        if tested is not None:
            res = {k: v for k, v in res.items() if k in tested}
        print(score_line(m, res))
        total.update({k: v for k, v in res.items()})
    if len(mods) > 1:
        print(score_line("all", total))
    slow = sorted(k for k, v in total.items() if v == "timeout")
    if slow:
        print(f"\n{len(slow)} timeouts (detected, not killed):")
        for k in slow:
            print(" ", k)
    surv = sorted(k for k, v in total.items() if v in ("survived", "no tests"))
    if surv:
        print(f"\n{len(surv)} survivors:")
        for k in surv:
            print(" ", k)
            if a.survivors:
                subprocess.run([sys.executable, "-m", "mutmut", "show", k], cwd=ROOT, env=env())
    return 0


if __name__ == "__main__":
    sys.exit(main())
