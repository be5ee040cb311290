"""The size of the trusted checker: everything that runs by default (docs/certificates.md §8c).

    python bench/checker_size.py

Lines per module of ``attnproof/checker/`` (all lines, and code lines: not blank,
not a comment, not a docstring).  The fast paths (``fast.py``) run by default, so
they are trusted and counted; the reference path (every module but ``fast.py``,
what ``--reference`` runs) is shown apart.
"""

from __future__ import annotations

import ast
from pathlib import Path

CHECKER = Path(__file__).resolve().parent.parent / "attnproof" / "checker"


def code_lines(src: str) -> int:
    """Lines that hold code: not blank, not a comment, not inside a docstring.

    >>> code_lines('def f():\\n    \\"\\"\\"Doc.\\"\\"\\"\\n    # note\\n\\n    return 1\\n')
    2
    """
    doc: set = set()
    for node in ast.walk(ast.parse(src)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            first = node.body[0] if node.body else None
            if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                    and isinstance(first.value.value, str)):
                doc.update(range(first.lineno, first.end_lineno + 1))
    return sum(1 for i, line in enumerate(src.splitlines(), 1)
               if line.strip() and not line.strip().startswith("#") and i not in doc)


def sizes(root: Path = CHECKER) -> dict:
    """``{relative path: (lines, code lines)}`` for every module of the checker."""
    out = {}
    for f in sorted(root.rglob("*.py")):
        src = f.read_text(encoding="utf-8")
        out[f.relative_to(root).as_posix()] = (len(src.splitlines()), code_lines(src))
    return out


def main() -> None:
    s = sizes()
    ref = [(k, v) for k, v in s.items() if k != "fast.py"]
    for k, (n, c) in s.items():
        print(f"{k:24} {n:6} {c:6}")
    print(f"{'reference path':24} {sum(n for _, (n, _) in ref):6} {sum(c for _, (_, c) in ref):6}")
    print(f"{'fast paths (fast.py)':24} {s['fast.py'][0]:6} {s['fast.py'][1]:6}")
    print(f"{'trusted (runs by default)':24} {sum(n for n, _ in s.values()):6} "
          f"{sum(c for _, c in s.values()):6}")


if __name__ == "__main__":
    main()
