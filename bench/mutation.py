"""Mutation testing of the trusted checker (``attnproof/checker``) with mutmut.

mutmut changes the checker's code one operator at a time (a comparison, a
number, a boolean, a removed argument, ...) and runs the checker's tests on
each change; a *surviving* mutant is a change that no test notices, i.e. a
place where a weakened checker could accept a forged certificate.  The audit
of the last run, with every survivor explained, is ``docs/checker-audit.md``.

Usage (from the repository root, with the ``test`` extra installed)::

    nice python bench/mutation.py                    # the rule modules, one at a time
    nice python bench/mutation.py --sample 150       # a seeded sample per module (quick)
    nice python bench/mutation.py --sample 120 --seed 19 --unfinished rules.geometry
                                                     # ... extended: only its untested mutants
    nice python bench/mutation.py --fraction 0.3 --seed 19   # 30 % of each module, seeded
    nice python bench/mutation.py --unfinished rules.state   # whole modules, resumed
    nice python bench/mutation.py poly syntax        # other checker modules (name globs)
    python bench/mutation.py --report                # scores of the last runs, no testing
    python bench/mutation.py --report --fraction 0.3 --seed 19   # ... of that sample only
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
Scores: ``(killed + timeout) / (tested - equivalent)``, where ``tested`` also
counts the mutants that no selected test reaches (``no tests``, not detected)
and ``equivalent`` counts the survivors that change no verdict: those whose
only change is the text of a message (found by :func:`message_only`, from a
check of the checker's source by :func:`message_params`) and those listed,
each with its reason, in ``bench/mutation-equivalent.txt``.  A mutant
that runs past its time limit counts as detected (``timeout``: the change made
the checker hang, which a user sees), and is listed separately.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import math
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


# A test of a mutant that uses more than TEST_LIMIT[0] times the CPU time of its clean run
# plus TEST_LIMIT[1] seconds ends the mutant's run as a timeout (tests/conftest.py).  CPU time,
# not the wall clock: on a shared machine a slow survivor is not a hang.
TEST_LIMIT = (5.0, 2.0)


def env() -> dict:
    e = dict(os.environ)
    # one test over k times its clean CPU time plus c seconds: a timeout (tests/conftest.py)
    e["ATTNPROOF_MUTATION_TEST_LIMIT"] = "%g,%g" % TEST_LIMIT
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


# -- message-only mutants ---------------------------------------------------------------------
#
# A checker function's parameter named ``where`` or ``what`` names the place or the work in an
# error message.  If every use of such a parameter is inside an f-string or is passed on to
# another such parameter, then a mutant that only replaces the string given to it (another
# string, or None, which an f-string formats as well) changes no verdict: only a message.
# :func:`message_params` proves that property of the checker's source before it is relied on.

MESSAGE_NAMES = ("where", "what")


def _functions() -> dict:
    import ast
    out: dict = {}
    for p in CHECKER.rglob("*.py"):
        for node in ast.walk(ast.parse(p.read_text())):
            if isinstance(node, ast.FunctionDef):
                out.setdefault(node.name, []).append(node)
            elif isinstance(node, ast.ClassDef):     # a class is called as its __init__
                out.setdefault(node.name, []).extend(
                    f for f in node.body if isinstance(f, ast.FunctionDef) and f.name == "__init__")
    return out


def _dispatch_tables() -> dict:
    """``{name: [function names]}`` of the checker's module-level dicts whose values are all
    function names (a dispatch table: a call through it reaches one of them)."""
    import ast
    out: dict = {}
    for p in CHECKER.rglob("*.py"):
        for node in ast.parse(p.read_text()).body:
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict) and node.value.values \
                    and all(isinstance(v, ast.Name) for v in node.value.values):
                for t in node.targets:
                    if isinstance(t, ast.Name):
                        out[t.id] = [v.id for v in node.value.values if isinstance(v, ast.Name)]
    return out


def _params(fn) -> list[str]:
    """Positional parameters as a call passes them (a method's ``self`` left out)."""
    ps = [a.arg for a in fn.args.posonlyargs + fn.args.args]
    return ps[1:] if ps[:1] == ["self"] else ps


def message_params() -> dict[str, frozenset] | None:
    """``{function name: positions of its message parameters}`` over the checker, or None when
    some use of a message parameter could decide something (then nothing is classified)."""
    import ast
    funcs = _functions()
    pos: dict[str, frozenset] = {}
    for name, defs in funcs.items():
        idx = frozenset(i for fn in defs for i, a in enumerate(_params(fn)) if a in MESSAGE_NAMES)
        # the same places in every namesake; one without them must not reach those places
        if idx and all(all(i < len(_params(fn)) and _params(fn)[i] in MESSAGE_NAMES
                           or len(_params(fn)) <= i and fn.args.vararg is None for i in idx)
                       for fn in defs):
            pos[name] = idx

    tables = _dispatch_tables()

    def callee_takes_message(call, arg, fn) -> bool:
        f = call.func
        name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None
        names = [name]
        for node in ast.walk(fn):      # a local alias: x = MOD.name, or x = TABLE.get(k) / TABLE[k]
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name
                                                    for t in node.targets):
                v = node.value
                if isinstance(v, ast.Attribute):
                    names = [v.attr]
                elif isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and v.func.attr == "get" \
                        and isinstance(v.func.value, ast.Name) and v.func.value.id in tables:
                    names = tables[v.func.value.id]
                elif isinstance(v, ast.Subscript) and isinstance(v.value, ast.Name) and v.value.id in tables:
                    names = tables[v.value.id]
        if not names or any(n not in pos for n in names):
            return False
        if arg in call.args:
            return all(call.args.index(arg) in pos[n] for n in names)
        return any(k.value is arg and k.arg in MESSAGE_NAMES for k in call.keywords)

    for defs in funcs.values():
        for fn in defs:
            names = set(_params(fn)) & set(MESSAGE_NAMES)
            if not names:
                continue
            parent = {c: n for n in ast.walk(fn) for c in ast.iter_child_nodes(n)}
            for node in ast.walk(fn):
                if isinstance(node, ast.Name) and node.id in names:
                    if isinstance(node.ctx, ast.Store):
                        return None
                    up = parent.get(node)
                    if isinstance(up, ast.FormattedValue):
                        continue
                    if isinstance(up, ast.keyword):
                        up, node = parent.get(up), node
                    if isinstance(up, ast.Call) and callee_takes_message(up, node, fn):
                        continue
                    if (isinstance(up, ast.Call) and isinstance(up.func, ast.Name)
                            and up.func.id in ("Reject", "Unsupported") and up.args == [node]):
                        continue            # the whole message of a refusal
                    return None
    return pos


def message_only(diff: str, pos: dict[str, frozenset] | None) -> bool:
    """True when the mutant's diff replaces, on one line, only the string passed as a message
    parameter (see :func:`message_params`) by another string or None."""
    import io
    import tokenize
    if not pos:
        return False
    lines = [ln for ln in diff.splitlines() if not ln.startswith(("---", "+++", "@@"))]
    minus = [i for i, ln in enumerate(lines) if ln.startswith("-")]
    plus = [i for i, ln in enumerate(lines) if ln.startswith("+")]
    if len(minus) != 1 or len(plus) != 1 or plus[0] != minus[0] + 1:
        return False
    # the changed line with up to four lines of context before it: a call may span lines
    before = [ln[1:] for ln in lines[max(0, minus[0] - 4):minus[0]] if ln.startswith(" ")]

    def toks(text: str) -> list:
        out = []
        try:
            for t in tokenize.generate_tokens(io.StringIO(text).readline):
                if t.type not in (tokenize.NEWLINE, tokenize.NL, tokenize.ENDMARKER,
                                  tokenize.INDENT, tokenize.DEDENT, tokenize.COMMENT):
                    out.append((t.type, t.string))
        except (tokenize.TokenError, SyntaxError, IndentationError):
            pass                       # an unclosed bracket at the end: the tokens so far
        return out

    import textwrap
    for k in range(len(before) + 1):   # the fewest context lines that hold the call's "("
        ctx = before[len(before) - k:]
        a = toks(textwrap.dedent("\n".join(ctx + [lines[minus[0]][1:]])) + "\n")
        b = toks(textwrap.dedent("\n".join(ctx + [lines[plus[0]][1:]])) + "\n")
        verdict = _message_argument(a, b, pos)
        if verdict is not None:
            return verdict
    return False


def _message_argument(a: list, b: list, pos: dict[str, int]) -> bool | None:
    """Whether the one token in which ``a`` and ``b`` differ is a message argument; None when
    the call's opening bracket is not among the tokens (more context is needed)."""
    import tokenize
    if not a or len(a) != len(b):
        return False
    diffs = [i for i in range(len(a)) if a[i] != b[i]]
    if len(diffs) != 1:
        return False
    i = diffs[0]
    old_ok = a[i][0] == tokenize.STRING or a[i] == (tokenize.NAME, "where") \
        or a[i] == (tokenize.NAME, "what")
    new_ok = b[i][0] == tokenize.STRING or b[i] == (tokenize.NAME, "None")
    if not (old_ok and new_ok) or i + 1 >= len(a) or a[i + 1][1] not in (",", ")"):
        return False
    depth, commas = 0, 0               # walk back to the call's "(": the argument position
    for j in range(i - 1, -1, -1):
        s = a[j][1]
        if s in (")", "]", "}"):
            depth += 1
        elif s in ("(", "[", "{"):
            if depth == 0:
                if s != "(" or j == 0 or a[j - 1][0] != tokenize.NAME:
                    return False
                if a[j - 1][1] not in pos or commas not in pos[a[j - 1][1]]:
                    return False
                return not any(t[1] == "=" for t in a[j:i])   # positional arguments only
            depth -= 1
        elif s == "," and depth == 0:
            commas += 1
    return None


def classify(names: list[str]) -> dict[str, str]:
    """``{survivor: "message only"}`` for the survivors whose change is a message only."""
    pos = message_params()
    if not pos or not names:
        return {}
    old = os.environ.get("PYTHONPATH")
    sys.path.insert(0, str(MUTANTS))
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        from mutmut.__main__ import find_mutant, get_diff_for_mutant
        out = {}
        for k in names:
            if message_only(get_diff_for_mutant(k, path=find_mutant(k).path), pos):
                out[k] = "message only"
        return out
    finally:
        os.chdir(cwd)
        sys.path.remove(str(MUTANTS))
        if old is not None:
            os.environ["PYTHONPATH"] = old


EQUIVALENT = ROOT / "bench" / "mutation-equivalent.txt"
KILLED_SINCE = ROOT / "bench" / "mutation-killed-since.txt"


def _listing(path: Path) -> dict[str, str]:
    """``{mutant: the rest of its line}`` of one of the lists above (``#`` lines are comments)."""
    out = {}
    if path.exists():
        for line in path.read_text().splitlines():
            if line.strip() and not line.startswith("#"):
                name, _, rest = line.partition(" ")
                out[name] = rest.strip()
    return out


def equivalents() -> dict[str, str]:
    """``{mutant: reason}`` of the survivors shown equivalent by hand (docs/checker-audit.md)."""
    return _listing(EQUIVALENT)


def killed_since() -> dict[str, str]:
    """``{mutant: test}``: survivors of the last run that a test written since kills, each
    checked by running that test with ``MUTANT_UNDER_TEST`` set to the mutant (exit 1)."""
    return _listing(KILLED_SINCE)


def score_line(module: str, res: dict[str, str]) -> str:
    c = Counter(res.values())
    checked = sum(c[k] for k in ("killed", "timeout", "survived", "no tests", "equivalent",
                                 "killed since"))
    live = checked - c["equivalent"]
    raw = 100.0 * (c["killed"] + c["timeout"]) / checked if checked else float("nan")
    score = (100.0 * (c["killed"] + c["timeout"] + c["killed since"]) / live if live
             else float("nan"))
    return (f"{module:16s} {len(res):7d} {checked:6d} {c['killed']:6d} {c['timeout']:7d} "
            f"{c['survived']:8d} {c['no tests']:8d} {c['equivalent']:10d} "
            f"{c['killed since']:6d} {raw:5.1f}% {score:5.1f}%")


HEADER = (f"{'module':16s} {'mutants':>7s} {'tested':>6s} {'killed':>6s} {'timeout':>7s} "
          f"{'survived':>8s} {'no tests':>8s} {'equivalent':>10s} {'since':>6s} {'raw':>6s} "
          f"{'score':>6s}")
LEGEND = ("survived and no tests: not detected; equivalent: survivors that change no verdict; "
          "since: survivors\nkilled by a test written since the run; raw = (killed + timeout) / "
          "tested; score = (killed + timeout + since) / (tested - equivalent)")


def sample(names: list[str], module: str, a: argparse.Namespace) -> list[str]:
    """The seeded sample of a module's mutants: a prefix (``a.sample`` names, or the fraction
    ``a.fraction`` rounded up) of the names shuffled with the seed ``a.seed`` and the module,
    so that a larger sample holds every smaller one of the same seed.

    >>> ns = argparse.Namespace(sample=0, fraction=0.3, seed=19)
    >>> s = sample([f"m{i}" for i in range(10)], "rules.x", ns)
    >>> len(s), set(s) <= set(sample([f"m{i}" for i in range(10)], "rules.x",
    ...                                argparse.Namespace(sample=5, fraction=0, seed=19)))
    (3, True)
    """
    names = sorted(names)
    random.Random(f"{a.seed}:{module}").shuffle(names)
    size = a.sample or math.ceil(a.fraction * len(names))
    return sorted(names[:size])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("modules", nargs="*", help="checker modules (globs over dotted names, "
                    "e.g. 'rules.*', 'poly'); default: the rule modules")
    ap.add_argument("--all", action="store_true", help="every module of the checker")
    ap.add_argument("--sample", type=int, default=0,
                    help="test a seeded random sample of this many mutants per module")
    ap.add_argument("--fraction", type=float, default=0.0,
                    help="test a seeded random sample of this fraction of each module's "
                         "mutants (rounded up), e.g. 0.3; the same prefix as --sample")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1, help="forked workers (default 1)")
    ap.add_argument("--report", action="store_true", help="only print the last results")
    ap.add_argument("--survivors", action="store_true", help="print every survivor's diff")
    ap.add_argument("--retest-survivors", action="store_true",
                    help="re-run only the mutants that survived last time")
    ap.add_argument("--unfinished", action="store_true",
                    help="test only the mutants not tested yet (of the sample with --sample, "
                         "else of the whole modules, in one run); mutmut re-runs every "
                         "mutant it is given by name or by a module pattern, survivors included")
    ap.add_argument("--together", action="store_true",
                    help="test every chosen module in one mutmut run (one clean test run)")
    a = ap.parse_args(argv)
    if not 0.0 <= a.fraction <= 1.0:
        ap.error("--fraction is between 0 and 1")

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
    if a.report and (a.sample or a.fraction):  # the scores of that sample only
        for m in mods:
            sampled[m] = set(sample(sorted(results(m)), m, a))
    if not a.report:
        generate()
        chunk: list[str] = []
        for m in mods:
            res = results(m)
            if a.retest_survivors:
                names = sorted(k for k, s in res.items() if s in ("survived", "no tests"))
            elif a.sample or a.fraction:
                names = sample(sorted(res), m, a)
                if a.unfinished:
                    sampled[m] = set(names)
                    names = [k for k in names if res[k] == "not checked"]
            elif a.unfinished:         # whole modules, resumed: one run for all of them
                names = sorted(k for k, s in res.items() if s == "not checked")
                print(f"== {m}: {len(names)} of {len(res)} mutants not tested yet", flush=True)
                chunk += names
                continue
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

    per: dict[str, dict[str, str]] = {}
    for m in mods:
        res = results(m)
        tested = sampled.get(m)
        if tested is not None:
            res = {k: v for k, v in res.items() if k in tested}
        per[m] = res
    live = [k for res in per.values() for k, v in res.items() if v in ("survived", "no tests")]
    why = {**classify(live), **equivalents()}
    since = killed_since()
    print()
    print(HEADER)
    total: dict[str, str] = {}
    for m in mods:
        res = {k: "equivalent" if v in ("survived", "no tests") and k in why else
               "killed since" if v in ("survived", "no tests") and k in since else v
               for k, v in per[m].items()}
        print(score_line(m, res))
        total.update(res)
    if len(mods) > 1:
        print(score_line("all", total))
    print(LEGEND)
    slow = sorted(k for k, v in total.items() if v == "timeout")
    if slow:
        print(f"\n{len(slow)} timeouts (detected, not killed):")
        for k in slow:
            print(" ", k)
    eq = sorted(k for k, v in total.items() if v == "equivalent")
    if eq:
        print(f"\n{len(eq)} equivalent survivors:")
        for k in eq:
            print(" ", k, "--", why[k])
    ks = sorted(k for k, v in total.items() if v == "killed since")
    if ks:
        print(f"\n{len(ks)} survivors killed since:")
        for k in ks:
            print(" ", k, "--", since[k])
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
