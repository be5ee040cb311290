"""The import graph of a package, read from its source with ``ast``.

Every ``import`` and ``from ... import`` counts, at module level and inside functions
alike (a function-level import is still a dependency, only a later one).  Relative
imports are resolved against the importing module; ``from package import name`` counts
as an import of ``package.name`` when that is a module, else of ``package``.

Run as a script to print the graph's edges that break the layer order, and its cycles::

    python tests/import_graph.py
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "attnproof"

# The layer order of docs/layout.md, bottom first.  A module may import modules of its
# own layer or of a lower one.  The first name of a line is the layer of the architecture;
# the others are top-level modules that sit in it, or a subpackage's module that sits in a
# layer above its package's (``display.formulas`` reads the algebra: the most specific
# name decides).
LAYERS: tuple[tuple[str, ...], ...] = (
    ("errors", "parallel", "display"),
    ("heads", "arrays", "families"),
    ("io",),
    ("algebra", "display.formulas"),
    ("geometry",),
    ("fusion",),
    ("bounds",),
    ("certificate",),
    ("smt", "numeric", "transformer", "plot"),
    ("api", "proving", "merging", "searching", "checking"),
    ("cli", "__main__"),
)# The command line is a thin layer: it reaches the other rooms through their public
# names only (``attnproof.smt``, not ``attnproof.smt.sweep``).
THIN = frozenset({"cli", "__main__"})
# ... except where a module and its main function share a name, so that the package
# cannot export the function without hiding the module (``smt.sweep.sweep``)
THIN_DOORS = frozenset({f"{PACKAGE}.smt.sweep", f"{PACKAGE}.smt.line_query",
                        # the formulas sit a room above the rest of display, so that package
                        # cannot export them
                        f"{PACKAGE}.display.formulas"})

# The package root re-exports the public names of every layer: only the top may import it.
ROOT_LAYER = next(i for i, names in enumerate(LAYERS) if "api" in names)

# The checker is an island: it imports nothing of the rest of the package.  The rest
# may import only its public names (the ``checker`` package itself) and its limits.
ISLAND = "checker"
ISLAND_DOORS = frozenset({f"{PACKAGE}.{ISLAND}", f"{PACKAGE}.{ISLAND}.limits"})


def module_files(root: Path = ROOT, package: str = PACKAGE) -> dict[str, Path]:
    """Dotted module name -> source file, for every module of the package."""
    out: dict[str, Path] = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _is_package(name: str, files: Mapping[str, Path]) -> bool:
    return files[name].name == "__init__.py"


def defined_names(source: str) -> set[str]:
    """Names a module binds at its top level to something other than its own submodules:
    functions, classes, assignments and names imported from a module.

    >>> sorted(defined_names("def f(): pass\\nclass C: pass\\nX = 1\\nimport os\\n"
    ...                      "from .m import g\\nfrom . import sub"))
    ['C', 'X', 'f', 'g']
    """
    out: set[str] = set()
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, ast.Assign):
            out.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            out.update(a.asname or a.name for a in node.names)
    return out


def imports_of(name: str, source: str, modules: Iterable[str], is_package: bool,
               defined: Mapping[str, set[str]] | None = None) -> set[str]:
    """The package's modules that module ``name`` imports, at any depth of its code.

    ``from pkg import x`` is an import of the submodule ``pkg.x`` unless ``pkg`` itself
    defines ``x`` (``defined``: package -> its top-level names), which then shadows it.

    >>> mods = {"p", "p.a", "p.b", "p.b.c"}
    >>> sorted(imports_of("p.b.c", "from .. import a\\nfrom . import x", mods, False))
    ['p.a', 'p.b']
    >>> sorted(imports_of("p.a", "def f():\\n    import p.b.c", mods, False))
    ['p.b.c']
    """
    modules = set(modules)
    base = name.split(".") if is_package else name.split(".")[:-1]
    found: set[str] = set()

    def nearest(dotted: str) -> str | None:
        parts = dotted.split(".")
        while parts:
            cand = ".".join(parts)
            if cand in modules:
                return cand
            parts.pop()
        return None

    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                hit = nearest(alias.name)
                if hit:
                    found.add(hit)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                head = base[: len(base) - (node.level - 1)] if node.level > 1 else list(base)
                target = ".".join(head + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                shadowed = defined is not None and alias.name in defined.get(target, ())
                hit = sub if sub in modules and not shadowed else nearest(target)
                if hit:
                    found.add(hit)
    found.discard(name)
    return found


def import_graph(root: Path = ROOT, package: str = PACKAGE) -> dict[str, set[str]]:
    """Module -> the package's modules it imports."""
    files = module_files(root, package)
    sources = {name: path.read_text(encoding="utf-8") for name, path in files.items()}
    defined = {name: defined_names(src) for name, src in sources.items() if _is_package(name, files)}
    return {name: imports_of(name, src, files, _is_package(name, files), defined)
            for name, src in sources.items()}


def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), sorted.

    A package ``__init__`` that re-exports its own submodules is not a cycle: edges from
    a package to the modules inside it are left out, as importing them is the package's
    job.  A submodule importing its parent package still counts.

    >>> cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}})
    [['a', 'b']]
    >>> cycles({"p": {"p.x"}, "p.x": {"p"}})
    []
    """
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def succ(v: str) -> list[str]:
        return sorted(w for w in graph.get(v, ()) if w in graph and not w.startswith(v + "."))

    def visit(v: str) -> None:  # iterative would be longer; the graph is a few hundred nodes
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in succ(v):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(out)


def layer_of(module: str, package: str = PACKAGE) -> int | None:
    """The layer index of a module (None for the package root and the checker island).

    >>> layer_of("attnproof.heads"), layer_of("attnproof.bounds.lower")
    (1, 6)
    >>> layer_of("attnproof.smt") == layer_of("attnproof.numeric.balls")
    True
    >>> layer_of("attnproof.checker.rules") is None
    True
    >>> layer_of("attnproof.display.formulas") == layer_of("attnproof.algebra") > layer_of("attnproof.display")
    True
    """
    parts = module.split(".")
    if len(parts) < 2:
        return None
    for k in range(len(parts), 1, -1):          # the most specific name listed decides
        name = ".".join(parts[1:k])
        for i, names in enumerate(LAYERS):
            if name in names:
                return i
    return None


def top_of(module: str) -> str:
    """The room of a module: ``attnproof.smt.sweep`` -> ``smt``."""
    return module.split(".")[1] if "." in module else ""


def is_island(module: str, package: str = PACKAGE) -> bool:
    return module.split(".")[1:2] == [ISLAND]


def violations(graph: Mapping[str, set[str]], package: str = PACKAGE) -> list[tuple[str, str, str]]:
    """Every import that breaks the layer order: (importer, imported, why), sorted.

    >>> g = {"attnproof.heads": {"attnproof.bounds.lower"}, "attnproof.bounds.lower": set()}
    >>> violations(g)
    [('attnproof.heads', 'attnproof.bounds.lower', 'upward')]
    """
    out = []
    for src, dsts in graph.items():
        if src == package:
            continue  # the lazy root re-exports from every layer
        for dst in dsts:
            if dst == package:       # the public facade: for the api and the cli only
                if is_island(src, package) or (layer_of(src, package) or 0) < ROOT_LAYER:
                    out.append((src, dst, "imports the package root"))
            elif is_island(src, package):
                if not is_island(dst, package):
                    out.append((src, dst, "checker imports the producer"))
            elif is_island(dst, package):
                if dst not in ISLAND_DOORS:
                    out.append((src, dst, "checker internals"))
            else:
                ls, ld = layer_of(src, package), layer_of(dst, package)
                if ls is None or ld is None:
                    out.append((src, dst, "module outside every layer"))
                elif ld > ls:
                    out.append((src, dst, "upward"))
                elif (top_of(src) in THIN and top_of(dst) not in THIN and dst.count(".") > 1
                      and dst not in THIN_DOORS):
                    out.append((src, dst, "past a room's public names"))
    return sorted(out)


def unplaced(graph: Mapping[str, set[str]], package: str = PACKAGE) -> list[str]:
    """Modules that belong to no layer (and are neither the root nor the checker)."""
    return sorted(m for m in graph
                  if m != package and not is_island(m, package) and layer_of(m, package) is None)


if __name__ == "__main__":
    g = import_graph()
    for comp in cycles(g):
        print("cycle:", " ".join(comp))
    for src, dst, why in violations(g):
        print(f"{why}: {src} -> {dst}")
    for m in unplaced(g):
        print("unplaced:", m)
