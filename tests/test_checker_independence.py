"""The checker and the producer are independent (issue: one bug must not be agreed on twice).

Every import of ``attnproof/`` is read with ``ast``, at module level and inside
functions: producers import from ``attnproof.checker`` only its public names
(``attnproof.checker.__all__``) and ``attnproof.checker.limits``; the checker
imports the standard library and itself, nothing else.  The rule modules mirror
docs/certificates.md §6 one to one.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path


ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "attnproof"
CHECKER = "attnproof.checker"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path):
    """``(target module, [names])`` of every import in a file, relative ones resolved.

    ``from a import b`` gives ``("a", ["b"])``; ``import a.b`` gives ``("a.b", [])``.
    """
    mod = _module_name(path)
    package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for a in node.names:
                yield a.name, []
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module
            yield target, [a.name for a in node.names]


def producer_violations(root: Path = PKG) -> list:
    """Imports of checker internals by modules outside ``attnproof/checker``."""
    import attnproof.checker as checker
    public = set(checker.__all__)
    bad = []
    for f in sorted(root.rglob("*.py")):
        if _module_name(f).startswith(CHECKER):
            continue
        for target, names in imports(f):
            if target == CHECKER or target is None:
                private = [n for n in names if n not in public and n != "limits"]
                if private:
                    bad.append((_module_name(f), target, private))
            elif target.startswith(CHECKER + ".") and target != CHECKER + ".limits":
                bad.append((_module_name(f), target, names))
    return bad


def checker_violations(root: Path = PKG / "checker") -> list:
    """Imports by the checker of anything but the standard library and itself."""
    allowed = set(sys.stdlib_module_names) | {"__future__"}
    bad = []
    for f in sorted(root.rglob("*.py")):
        for target, names in imports(f):
            if target == CHECKER or target.startswith(CHECKER + "."):
                continue
            if target.split(".")[0] not in allowed:
                bad.append((_module_name(f), target, names))
    return bad


def test_producers_import_only_the_checkers_public_names():
    assert producer_violations() == []


def test_the_checker_imports_only_the_standard_library_and_itself():
    assert checker_violations() == []


def test_the_walk_sees_function_level_and_relative_imports(tmp_path):
    # a producer reaching into the checker inside a function, and a checker module
    # importing the producer relatively: both are found
    pkg = tmp_path / "attnproof"
    (pkg / "checker" / "rules").mkdir(parents=True)
    (pkg / "bounds").mkdir()
    (pkg / "bounds" / "zonotope.py").write_text(
        "def f():\n    from ..checker.rules.graphs import _count_general\n"
        "    from ..checker import check_text, _private\n    from ..checker.limits import X\n")
    (pkg / "checker" / "rules" / "newton.py").write_text(
        "from ...heads import Atom\nfrom ..poly import mul\nimport numpy\n")
    global ROOT
    saved, ROOT = ROOT, tmp_path
    try:
        got = producer_violations(pkg)
        assert ("attnproof.bounds.zonotope", "attnproof.checker.rules.graphs",
                ["_count_general"]) in got
        assert ("attnproof.bounds.zonotope", "attnproof.checker", ["_private"]) in got
        assert len(got) == 2
        got = checker_violations(pkg / "checker")
        assert ("attnproof.checker.rules.newton", "attnproof.heads", ["Atom"]) in got
        assert ("attnproof.checker.rules.newton", "numpy", []) in got
        assert len(got) == 2
    finally:
        ROOT = saved


def test_rule_modules_mirror_section_6():
    """The module table of docs/certificates.md §6 names every rule module, and each rule
    is implemented in the module its row names."""
    from attnproof.checker import RULES

    text = (ROOT / "docs" / "certificates.md").read_text(encoding="utf-8")
    intro = text[text.index("## 6. Rules"):text.index("### 6.1")]
    rows = [r for r in intro.splitlines() if r.startswith("| §")]
    named = set(re.findall(r"rules/(\w+)\.py", intro))
    files = {f.stem for f in (PKG / "checker" / "rules").glob("*.py")} - {"__init__"}
    assert named == files
    seen = []
    for row in rows:
        module = re.search(r"\| `rules/(\w+)\.py`", row).group(1)
        for rule in re.findall(r"`(\w+)`", row.split("|")[2]):
            assert RULES[rule][0].__module__ == f"{CHECKER}.rules.{module}", rule
            seen.append(rule)
    assert sorted(seen) == sorted(RULES)


def test_the_producer_counts_graphs_with_its_own_code():
    # the producer's count of general graphic blocks is its own (independence polynomials),
    # and agrees with the checker's recurrence on sinks
    import random

    import networkx as nx

    from attnproof.bounds.zonotope import acyclic_orientations_independence
    from attnproof.checker.rules.graphs import _count_general

    rng = random.Random(7)
    for _ in range(25):
        n = rng.randint(1, 9)
        G = nx.gnp_random_graph(n, rng.random(), seed=rng.randint(0, 10 ** 6))
        adj = {v: set(G[v]) for v in range(n)}
        assert acyclic_orientations_independence(list(range(n)), adj) == \
            _count_general(list(range(n)), adj)
