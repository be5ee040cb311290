"""``python -m attnproof``: the same as the ``attnproof`` console script."""

from .cli import _console

if __name__ == "__main__":
    _console()
