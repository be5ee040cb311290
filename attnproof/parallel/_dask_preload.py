"""Imports that every worker of a local Dask cluster does once, as it starts (Dask's ``preload``).

A worker would otherwise pay them inside its first task (about half a second
for NumPy, SciPy's LP solver and FLINT on a two-core machine): they are part of
starting a worker, like starting its process, and are done there, by all the
workers at once.  Missing optional modules are skipped.

>>> warm() <= len(MODULES)
True
"""

from __future__ import annotations

from importlib import import_module

__all__ = ["MODULES", "warm", "dask_setup"]

MODULES = ("numpy", "scipy.optimize", "scipy.optimize._highspy._core", "flint",
           "attnproof.geometry.minkowski", "attnproof.smt.sweep")


def warm() -> int:
    """Import :data:`MODULES`; the number that could be imported."""
    n = 0
    for name in MODULES:
        try:
            import_module(name)
        except ImportError:
            continue
        n += 1
    return n


def dask_setup(worker=None) -> None:
    """Called by Dask when a worker starts with this module as its preload."""
    warm()
