"""Two commits side by side in one run: the headline benchmarks of ``bench/suite/`` on each.

    python bench/compare.py [BASE [HEAD]] [--ci] [--factor 1.5] [--rounds 3] [--pairs 1]
                            [-k EXPR] [--tables] [--keep DIR] [--no-confirm]
    python bench/compare.py --ratios [-k EXPR]

``BASE`` and ``HEAD`` are commits (anything ``git rev-parse`` reads) or folders that hold
an ``attnproof/`` package; ``HEAD`` may be ``.``, the working tree with its uncommitted
changes, which is also the default; ``BASE`` defaults to ``main`` (``HEAD^``, the parent
commit, with ``--ci``).  A commit's package
(``attnproof/``) is extracted with ``git archive`` into a scratch folder, and the
benchmark definitions of *this* checkout measure it (``ATTNPROOF_BENCH_CODE``): a commit
that predates a benchmark is measured all the same, and a benchmark that the older code
cannot run is listed as new.

Each side runs in its own pytest-benchmark processes (their JSON kept with ``--keep``),
``--pairs`` pairs of them alternating base, head, head, base, ... (a drift of the
machine's load then hits both sides alike), every round of one side's runs pooled.
Printed: pytest-benchmark's own comparison tables (``--tables``: each run of the head
with ``--benchmark-compare`` against the first of the base, a ratio to the faster in
each column), then one line per benchmark: the median of each side and their ratio
head / base.  Anchors (named ``bench_anchor_*``: a bare Python process, SymPy, NumPy,
plain z3) run no attnproof code: the median of their ratios is the machine's drift
between the two sides (a busier machine slows every job alike).  A slowdown is a ratio
above ``--factor`` that stays above it once divided by the drift (a job slowed only as
much as the machine was is not one; a job slowed while the anchors were not is).  Before
it counts, the benchmarks that showed one and the anchors run again in as many pairs,
and only a slowdown both times fails the run (a noisy machine slows one run, rarely two
in a row).

A slowdown that a change means to make (a check that costs time, say) is accepted by a
line ``Accept-slowdown: NAME`` in a commit message between the two sides, ``NAME`` a
benchmark's name as printed (``bench_fuse_cli[12]``) or the name of its function.

``--ci`` runs the short subset (marked ``ci``: about four minutes on 2 lightly loaded
cores, in 2 pairs of 2 rounds) against the parent commit; without a parent (a shallow clone, the
first commit) it says so and exits 0.  ``--ratios`` runs only the working tree, the
anchors and their partners, and prints the headline ratios of ``docs/benchmarks.md``.

Exit status: 0 no slowdown beyond the factor, 1 a confirmed slowdown or a benchmark
that fails on the head, 3 a commit that does not resolve or a bad option.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
SUITE = BENCH / "suite"
REPO = BENCH.parent
WORKTREE = "."
DEFAULT_FACTOR = 1.5

# the headline ratios: (label, anchor, attnproof job), names as pytest-benchmark writes them
RATIOS = (
    ("SymPy together+cancel of W_10 / attnproof fuse of W_16 (whole process)",
     "bench_anchor_sympy_reduced[10]", "bench_fuse_cli[16]"),
    ("SymPy together+cancel of W_10 / attnproof reduced form of W_10",
     "bench_anchor_sympy_reduced[10]", "bench_reduced_form[10]"),
    ("NumPy block matmul+exp / attnproof kernel, 2^16 atoms x 500 queries",
     "bench_anchor_numpy_eval[16]", "bench_eval_kernel[16]"),
    ("plain z3 / attnproof search of K_4, k = 37, radius 1 (whole processes)",
     "bench_anchor_plain_z3_k4", "bench_search_k4"),
)
RATIO_SELECTION = "anchor or bench_fuse_cli or bench_reduced_form or bench_eval_kernel or bench_search_k4"


class UsageError(Exception):
    """A commit that does not resolve, a bad option: exit 3."""


def git(*args: str, binary: bool = False):
    proc = subprocess.run(["git", "-C", str(REPO), *args], capture_output=True, text=not binary)
    return proc.returncode, proc.stdout


def resolve(rev: str) -> str | None:
    """The full hash of ``rev``, or None when it names no commit here."""
    rc, out = git("rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    return out.strip() if rc == 0 and out.strip() else None


def extract(commit: str, into: Path) -> Path:
    """The package of ``commit`` (``attnproof/``) written under ``into``; returns ``into``."""
    rc, data = git("archive", "--format=tar", commit, "attnproof", binary=True)
    if rc != 0:
        raise UsageError(f"commit {commit[:12]} has no attnproof/ package to measure")
    shutil.rmtree(into, ignore_errors=True)
    into.mkdir(parents=True)
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        try:
            tar.extractall(into, filter="data")
        except TypeError:            # Python before 3.11.4 has no filters (the archive is our own)
            tar.extractall(into)
    return into


def run_side(code: Path, out: Path, selection: list[str], args, compare_with: Path | None = None,
             label: str = "") -> int:
    """Run the suite's benchmarks on the package under ``code``; pytest's exit status.

    The JSON of the run is written to ``out``; with ``compare_with`` (the other side's JSON)
    pytest-benchmark prints its side-by-side tables."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env["ATTNPROOF_BENCH_CODE"] = str(code)
    argv = [sys.executable, "-m", "pytest", *selection, "-q", "--benchmark-json", str(out),
            "--bench-rounds", str(args.rounds), "-p", "no:xdist", "--benchmark-disable-gc"]
    if compare_with is not None and args.tables and compare_with.exists():
        # pytest-benchmark's comparison with a saved run: here the other side's JSON file
        argv += [f"--benchmark-compare={compare_with}", "--benchmark-group-by=name",
                 "--benchmark-columns=min,median,max,rounds"]
    print(f"--- {label}: {code}", flush=True)
    # the scratch folder as the working folder: `python -m` puts it first on sys.path, so no
    # checkout there shadows the code under test
    proc = subprocess.run(argv, cwd=out.parent, env=env, stdout=None if args.tables else subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    if not args.tables:
        lines = (proc.stdout or "").splitlines()
        if proc.returncode not in (0, 5):
            print("\n".join(lines[-40:]))
        else:
            print("\n".join(lines[-1:]))
    return proc.returncode


def medians(paths: list[Path]) -> dict[str, tuple[float, bool, str]]:
    """Benchmark name -> (median seconds, anchor?, node id), every round of the pytest-benchmark
    JSON files ``paths`` (one side's runs) pooled; a file that is missing adds nothing."""
    data: dict[str, list[float]] = {}
    ids: dict[str, str] = {}
    for path in paths:
        try:
            doc = json.loads(path.read_text())
        except (OSError, ValueError):
            continue
        for b in doc.get("benchmarks", []):
            data.setdefault(b["name"], []).extend(b["stats"].get("data") or [b["stats"]["median"]])
            ids[b["name"]] = b["fullname"]
    return {n: (statistics.median(xs), n.startswith("bench_anchor_"), ids[n]) for n, xs in data.items()}


def accepted_slowdowns(base: str, head: str | None) -> set[str]:
    """The names given by ``Accept-slowdown: NAME`` lines of the commits ``base..head``."""
    rc, log = git("log", "--format=%B", f"{base}..{head or 'HEAD'}")
    if rc != 0:
        return set()
    return {m.group(1) for m in re.finditer(r"^Accept-slowdown:\s*(\S+)\s*$", log, re.M)}


def is_accepted(name: str, accepted: set[str]) -> bool:
    """Whether ``name`` (``bench_fuse_cli[12]``) is named, or its function is.

    >>> is_accepted("bench_fuse_cli[12]", {"bench_fuse_cli"}), is_accepted("bench_fuse_cli[12]", set())
    (True, False)
    """
    return name in accepted or name.split("[")[0] in accepted


def ratios(base: dict, head: dict) -> dict[str, float]:
    """head / base median of every benchmark measured on both sides.

    >>> ratios({"a": (1.0, False, "x"), "b": (2.0, True, "y")}, {"a": (1.6, False, "x")})
    {'a': 1.6}
    """
    return {n: head[n][0] / base[n][0] for n in sorted(head) if n in base and base[n][0] > 0}


def drift(r: dict[str, float], base: dict) -> float:
    """How much slower the machine ran the head's side than the base's: the median ratio of
    the anchors (which run no attnproof code), 1 when none ran on both sides.

    >>> drift({"bench_a": 3.0, "bench_anchor_x": 1.2, "bench_anchor_y": 1.4}, {"bench_a": (1, False, ""),
    ...       "bench_anchor_x": (1, True, ""), "bench_anchor_y": (1, True, "")})
    1.3
    """
    xs = [x for n, x in r.items() if base[n][1]]
    return round(statistics.median(xs), 12) if xs else 1.0


def slowdowns(r: dict[str, float], base: dict, factor: float, accepted: set[str]) -> list[str]:
    """The names whose ratio exceeds ``factor``, also once the machine's drift is discounted
    (a side that ran on a busier machine slows every job, the anchors too); anchors and
    accepted slowdowns left out.

    >>> base = {"a": (1, False, ""), "b": (1, False, ""), "c": (1, True, ""), "d": (1, False, "")}
    >>> slowdowns({"a": 1.6, "b": 1.2, "c": 1.0, "d": 2.0}, base, 1.5, {"d"})
    ['a']
    >>> slowdowns({"a": 1.6, "b": 1.2, "c": 1.2, "d": 2.0}, base, 1.5, set())   # 1.6 / 1.2 < 1.5
    ['d']
    """
    d = drift(r, base)
    return [n for n, x in r.items() if x > factor and x / d > factor and not base[n][1]
            and not is_accepted(n, accepted)]


def _seconds(x: float) -> str:
    return f"{x * 1e3:9.2f} ms" if x < 1 else f"{x:9.3f} s "


def print_table(base: dict, head: dict, factor: float, accepted: set[str], title: str) -> None:
    r = ratios(base, head)
    d = drift(r, base)
    print(f"\n{title}: median of each side, ratio head / base (a slowdown above {factor:g}x, "
          f"also after the machine's drift of {d:.2f}x, the anchors' median ratio)")
    print(f"{'benchmark':<44}{'base':>13}{'head':>13}{'ratio':>9}")
    for n in sorted(set(base) | set(head)):
        b, h = base.get(n), head.get(n)
        if b and h:
            x = r.get(n)
            note = ("anchor (no attnproof code: the machine's drift)" if b[1] else
                    "SLOWER" + (" (accepted)" if is_accepted(n, accepted) else "")
                    if x and x > factor and x / d > factor
                    else "slower, as the machine was" if x and x > factor
                    else "faster" if x and x < 1 / factor else "")
            print(f"{n:<44}{_seconds(b[0]):>13}{_seconds(h[0]):>13}{x:>8.2f}x  {note}")
        elif h:
            print(f"{n:<44}{'-':>13}{_seconds(h[0]):>13}{'':>9}  new (the base cannot run it)")
        else:
            print(f"{n:<44}{_seconds(b[0]):>13}{'-':>13}{'':>9}  failed on the head")


def headline_ratios(head: dict) -> list[str]:
    """The lines of the headline ratios (anchor / attnproof) that ``head`` has both sides of."""
    lines = []
    for label, a, b in RATIOS:
        if a in head and b in head:
            lines.append(f"{label}: {head[a][0]:.4g} s / {head[b][0]:.4g} s = {head[a][0] / head[b][0]:.2f}x")
    return lines


def code_of(rev: str, scratch: Path, name: str) -> tuple[Path, str]:
    """The folder holding the package of ``rev`` and a label for it."""
    if rev == WORKTREE:
        at = resolve("HEAD")
        return REPO, f"working tree (HEAD {at[:12]})" if at else "working tree"
    if (Path(rev) / "attnproof" / "__init__.py").is_file():
        return Path(rev).resolve(), f"folder {rev}"
    commit = resolve(rev)
    if commit is None:
        raise UsageError(f"{rev!r} names no commit of this repository")
    return extract(commit, scratch / name), f"{rev} ({commit[:12]})"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("base", nargs="?", help="the commit to compare against (default main; HEAD^ with --ci)")
    ap.add_argument("head", nargs="?", default=WORKTREE, help="the commit measured ('.': the working tree)")
    ap.add_argument("--ci", action="store_true", help="the short subset (marked ci) against the parent")
    ap.add_argument("--factor", type=float, default=DEFAULT_FACTOR,
                    help=f"a median ratio head / base above this is a slowdown (default {DEFAULT_FACTOR})")
    ap.add_argument("--rounds", type=int, default=None,
                    help="rounds of each whole-process benchmark in one run (default 3; 2 with --ci)")
    ap.add_argument("--pairs", type=int, default=None,
                    help="pairs of runs, base and head alternating, rounds pooled (default 1; 2 with --ci)")
    ap.add_argument("-k", dest="keyword", help="only the benchmarks that match (pytest's -k)")
    ap.add_argument("--tables", action="store_true", help="pytest-benchmark's own tables, both sides")
    ap.add_argument("--keep", metavar="DIR", help="keep the extracted code and the JSON of each run here")
    ap.add_argument("--no-confirm", action="store_true", help="decide on the first pairs alone")
    ap.add_argument("--ratios", action="store_true", help="only the working tree: the headline ratios")
    try:
        args = ap.parse_args(argv)
    except SystemExit as e:
        return 3 if e.code else 0
    if args.rounds is None:
        args.rounds = 2 if args.ci else 3
    if args.pairs is None:
        args.pairs = 2 if args.ci else 1
    if not (args.factor > 1) or args.rounds < 1 or args.pairs < 1:
        print("compare.py: --factor must exceed 1, --rounds and --pairs be at least 1", file=sys.stderr)
        return 3
    try:
        import pytest_benchmark  # noqa: F401
    except ImportError:
        print("compare.py: pytest-benchmark is not installed (pip install -e '.[test]')", file=sys.stderr)
        return 3
    scratch = Path(args.keep or tempfile.mkdtemp(prefix="attnproof-compare-")).resolve()
    try:
        scratch.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        print(f"compare.py: --keep {args.keep}: {e.strerror or e}", file=sys.stderr)
        return 3
    selection = [str(SUITE)]
    try:
        print(f"{os.cpu_count()} CPUs, load average %.1f %.1f %.1f (a shared machine slows both sides)"
              % os.getloadavg(), flush=True)
    except OSError:
        pass
    if args.ci:
        selection += ["-m", "ci"]
    if args.keyword or args.ratios:
        selection += ["-k", args.keyword or RATIO_SELECTION]
    try:
        if args.ratios:
            return _ratios_only(scratch, selection, args)
        if args.base is None and args.ci:
            if resolve("HEAD^") is None:
                print("benchmark comparison skipped: HEAD has no parent commit here (a shallow clone "
                      "or the first commit), nothing to compare against")
                return 0
            args.base = "HEAD^"
        base_code, base_label = code_of(args.base or "main", scratch, "base")
        head_code, head_label = code_of(args.head, scratch, "head")
        return _compare(scratch, selection, args, (base_code, base_label), (head_code, head_label))
    except UsageError as e:
        print(f"compare.py: {e}", file=sys.stderr)
        return 3
    finally:
        if not args.keep:
            shutil.rmtree(scratch, ignore_errors=True)


def _ratios_only(scratch: Path, selection: list[str], args) -> int:
    out = scratch / "head-1.json"
    rc = run_side(REPO, out, selection, args, label="working tree")
    head = medians([out])
    print(f"\n{'benchmark':<44}{'median':>13}")
    for n, (m, _, _) in sorted(head.items()):
        print(f"{n:<44}{_seconds(m):>13}")
    print("\nheadline ratios, measured in this one run (anchor / attnproof):")
    for line in headline_ratios(head) or ["(none: the anchors and their partners did not all run)"]:
        print(f"  {line}")
    return 0 if rc == 0 else 1


def run_pairs(sides: dict, selection: list[str], args, scratch: Path, tag: str) -> tuple[dict, dict, bool]:
    """``args.pairs`` pairs of runs, base and head alternating (base, head, head, base, ...: a
    drift of the machine's load hits both sides alike); the pooled medians of each side and
    whether every run of the head passed."""
    files: dict[str, list[Path]] = {"base": [], "head": []}
    head_ok = True
    for p in range(args.pairs):
        for side in (("base", "head") if p % 2 == 0 else ("head", "base")):
            code, label = sides[side]
            out = scratch / f"{side}-{tag}{p + 1}.json"
            first_base = files["base"][0] if files["base"] else None
            rc = run_side(code, out, selection, args, label=f"{side} {label}",
                          compare_with=first_base if side == "head" else None)
            files[side].append(out)
            if side == "head" and rc not in (0, 5):
                head_ok = False
    return medians(files["base"]), medians(files["head"]), head_ok


def _compare(scratch: Path, selection: list[str], args, base_side, head_side) -> int:
    sides = {"base": base_side, "head": head_side}
    base_label = base_side[1]
    base, head, head_ok = run_pairs(sides, selection, args, scratch, "")
    base_commit = resolve(args.base or "main") or ""
    accepted = accepted_slowdowns(base_commit, None if args.head == WORKTREE else resolve(args.head))
    print_table(base, head, args.factor, accepted, f"{base_label} -> {head_side[1]}")
    for line in headline_ratios(head):
        print(f"  {line}")
    if not base:
        print("\nno benchmark ran on the base (see its run above): nothing to compare against")
    failed = not head_ok or not head
    if failed:
        print("\nbenchmark comparison FAILED: a benchmark fails on the head (see above)")
    slow = slowdowns(ratios(base, head), base, args.factor, accepted)
    if slow and not args.no_confirm:
        print(f"\n{len(slow)} slowdown(s) beyond {args.factor:g}x; more pairs of runs of "
              f"{'it' if len(slow) == 1 else 'them'} (and the anchors) confirm or clear:")
        ids = sorted({str(SUITE / head[n][2]) for n in slow}
                     | {str(SUITE / v[2]) for v in head.values() if v[1]})
        base2, head2, _ = run_pairs(sides, ids, args, scratch, "confirm")
        print_table(base2, head2, args.factor, accepted, "confirming pairs")
        again = set(slowdowns(ratios(base2, head2), base2, args.factor, accepted))
        slow = [n for n in slow if n in again]
    if slow:
        print(f"\nbenchmark comparison FAILED: slower than {base_label} by more than "
              f"{args.factor:g}x (median): {', '.join(slow)}")
        print("(a slowdown meant by a change is accepted by a line 'Accept-slowdown: NAME' in its "
              "commit message)")
        return 1
    if not failed:
        print(f"\nbenchmark comparison passed: no benchmark slower than {base_label} by more than "
              f"{args.factor:g}x (median)")
    return 1 if failed else 0


if __name__ == "__main__":
    try:
        raise SystemExit(main())
    except KeyboardInterrupt:
        raise SystemExit(130) from None
