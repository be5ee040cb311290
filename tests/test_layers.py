"""The package's imports point one way (docs/layout.md).

Every import counts, at module level and inside functions.  The graph has no cycle, and
every edge goes down (or sideways within one layer) of the order

    heads -> io -> algebra -> geometry -> fusion -> bounds -> certificate
          -> smt (the search) / numeric / transformer -> api -> cli

with the checker an island: it imports nothing of the rest (its own independence test
says more), and the rest imports only its public names and ``checker.limits``.  The
command line reaches the other rooms through their public names only.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import import_graph as ig  # noqa: E402

# Edges that still break the order, each to be removed by moving code down.
# The list only shrinks: an edge that is gone must leave it (see the last test).
KNOWN_VIOLATIONS: set[tuple[str, str]] = set()
KNOWN_CYCLES: list[list[str]] = []


@pytest.fixture(scope="module")
def graph():
    return ig.import_graph()


def test_the_graph_sees_every_module(graph):
    assert "attnproof.checker" in graph and "attnproof.cli" in graph
    assert len(graph) > 50
    # function-level imports are edges too
    assert "attnproof.parallel.executor" in graph["attnproof.smt.sweep"] or any(
        "executor" in m for m in graph["attnproof.smt.sweep"])


def test_every_module_has_a_layer(graph):
    assert ig.unplaced(graph) == []


def test_no_import_cycle(graph):
    assert [c for c in ig.cycles(graph) if c not in KNOWN_CYCLES] == []


def test_imports_point_down(graph):
    new = [(a, b, why) for a, b, why in ig.violations(graph) if (a, b) not in KNOWN_VIOLATIONS]
    assert new == []


def test_the_allow_lists_only_shrink(graph):
    still = {(a, b) for a, b, _ in ig.violations(graph)}
    assert sorted(KNOWN_VIOLATIONS - still) == []
    assert [c for c in KNOWN_CYCLES if c not in ig.cycles(graph)] == []


# --- the test of the test: a synthetic package with one deliberate upward import -----------

def _write(tmp_path, files):
    for rel, text in files.items():
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    return ig.import_graph(tmp_path, "attnproof")


SYNTHETIC = {
    "attnproof/__init__.py": "",
    "attnproof/errors.py": "",
    "attnproof/heads.py": "from .errors import X\n",
    "attnproof/algebra/__init__.py": "from .poly import P\n",
    "attnproof/algebra/poly.py": "from ..heads import Atom\n",
    "attnproof/bounds/__init__.py": "",
    "attnproof/bounds/lower.py": "from ..algebra.poly import P\nfrom ..checker import check\n",
    "attnproof/certificate/__init__.py": "",
    "attnproof/checker/__init__.py": "from .rules import R\n",
    "attnproof/checker/rules.py": "",
    "attnproof/checker/limits.py": "",
    "attnproof/cli/__init__.py": "from ..checker.limits import MAX\n",
}


def test_a_clean_synthetic_package_passes(tmp_path):
    g = _write(tmp_path, SYNTHETIC)
    assert g["attnproof.bounds.lower"] == {"attnproof.algebra.poly", "attnproof.checker"}
    assert ig.violations(g) == [] and ig.cycles(g) == [] and ig.unplaced(g) == []


@pytest.mark.parametrize("rel, text, expected", [
    # an upward import, hidden in a function
    ("attnproof/algebra/poly.py", "def f():\n    from ..bounds import lower\n",
     ("attnproof.algebra.poly", "attnproof.bounds.lower", "upward")),
    # the same by absolute name
    ("attnproof/heads.py", "import attnproof.certificate\n",
     ("attnproof.heads", "attnproof.certificate", "upward")),
    # a producer reaching into the checker's internals
    ("attnproof/bounds/lower.py", "from ..checker.rules import R\n",
     ("attnproof.bounds.lower", "attnproof.checker.rules", "checker internals")),
    # the command line reaching past a room's public names
    ("attnproof/cli/__init__.py", "from ..algebra.poly import P\n",
     ("attnproof.cli", "attnproof.algebra.poly", "past a room's public names")),
    # the checker importing the producer
    ("attnproof/checker/rules.py", "from attnproof.heads import Atom\n",
     ("attnproof.checker.rules", "attnproof.heads", "checker imports the producer")),
])
def test_a_deliberately_bad_import_is_caught(tmp_path, rel, text, expected):
    g = _write(tmp_path, {**SYNTHETIC, rel: text})
    assert expected in ig.violations(g)


def test_a_cycle_is_caught_even_inside_one_layer(tmp_path):
    g = _write(tmp_path, {**SYNTHETIC,
                          "attnproof/algebra/poly.py": "from . import lattice\n",
                          "attnproof/algebra/lattice.py": "def f():\n    from .poly import P\n"})
    assert ig.violations(g) == []
    assert ig.cycles(g) == [["attnproof.algebra.lattice", "attnproof.algebra.poly"]]


def test_a_module_outside_every_layer_is_reported(tmp_path):
    g = _write(tmp_path, {**SYNTHETIC, "attnproof/stray.py": ""})
    assert ig.unplaced(g) == ["attnproof.stray"]


def test_search_is_a_function_and_no_module_is_callable():
    # the API's search at the top; the SMT search is a subpackage that is only a module
    import types

    import attnproof
    import attnproof.smt.sweep  # noqa: F401  (importing the subpackage changes nothing above)

    assert isinstance(attnproof.search, types.FunctionType)
    assert attnproof.search.__module__ == "attnproof.api"
    assert type(attnproof.smt) is types.ModuleType and not callable(attnproof.smt)


def test_scripts_outside_the_package_import_modules_that_exist():
    # benchmarks, examples and generators are not all run by the suite: a module moved
    # inside the package must not leave them importing its old name
    import ast

    modules = set(ig.module_files())
    stale = []
    for folder in ("bench", "examples", "certificates", "tests", "docs"):
        for path in sorted((ig.ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                         else [node.module] if isinstance(node, ast.ImportFrom) and not node.level
                         else [])
                stale += [f"{path.relative_to(ig.ROOT)}: {n}" for n in names
                          if n and n.split(".")[0] == ig.PACKAGE and n not in modules]
    assert stale == []
