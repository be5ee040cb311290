"""The size of the trusted checker: everything that runs by default (docs/certificates.md §8c).

    python bench/checker_size.py

Lines per module of ``attnproof/checker/`` (all lines, and code lines: not blank,
not a comment, not a docstring).  The checker has one path: every rule has one
implementation, and everything here runs by default, so everything is trusted and counted.
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
    for k, (n, c) in s.items():
        print(f"{k:24} {n:6} {c:6}")
    print(f"{'trusted (all of it)':24} {sum(n for n, _ in s.values()):6} {sum(c for _, c in s.values()):6}")


if __name__ == "__main__":
    main()
