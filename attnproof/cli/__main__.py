"""``python -m attnproof.cli``: the same as the ``attnproof`` console script."""

from . import _console

if __name__ == "__main__":
    _console()
