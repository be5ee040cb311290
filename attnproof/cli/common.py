"""Shared pieces of the command line: exit codes, error guard, progress, output."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import traceback
from typing import Any, Callable, TextIO

from ..errors import AttnproofError, InputError, LimitError

EXIT_OK = 0
EXIT_NEGATIVE = 1
EXIT_INCONCLUSIVE = 2
EXIT_USAGE = 3
EXIT_INTERNAL = 4


class ArgumentParser(argparse.ArgumentParser):
    """argparse with usage errors mapped to exit code 3 (not argparse's 2)."""

    def error(self, message: str):  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def guarded(fn: Callable[[Any], int], args: Any) -> int:
    """Run a command; deliberate errors become one line on stderr and exit 3."""
    try:
        return int(fn(args))
    except (InputError, LimitError) as e:
        print(f"attnproof: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except AttnproofError as e:
        print(f"attnproof: error: {e}", file=sys.stderr)
        return EXIT_INTERNAL
    except KeyboardInterrupt:
        print("attnproof: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except MemoryError:
        print("attnproof: error: out of memory (try a smaller --max-atoms)", file=sys.stderr)
        return EXIT_INTERNAL
    except Exception as e:  # internal error: one line, traceback only on request
        if os.environ.get("ATTNPROOF_DEBUG"):
            traceback.print_exc()
        print(f"attnproof: internal error: {type(e).__name__}: {e} "
              f"(set ATTNPROOF_DEBUG=1 for a traceback)", file=sys.stderr)
        return EXIT_INTERNAL


class Progress:
    """A progress indicator on stderr, shown only on a terminal and after ``delay`` seconds.

    Call it as ``progress(done, total)``; ``close()`` clears the line.
    """

    def __init__(self, label: str, stream: TextIO | None = None, enabled: bool | None = None,
                 delay: float = 1.0) -> None:
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.start = time.monotonic()
        self.delay = delay
        self.last = 0.0
        self.shown = False

    def __call__(self, done: int, total: int | None = None) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.start < self.delay or (now - self.last < 0.1 and done != total):
            return
        self.last = now
        elapsed = now - self.start
        if total:
            width = 30
            k = int(width * done / total)
            bar = "#" * k + "." * (width - k)
            msg = f"\r{self.label} [{bar}] {done}/{total} {elapsed:.1f}s"
        else:
            msg = f"\r{self.label} {done} {elapsed:.1f}s"
        self.stream.write(msg)
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        """Erase the progress line if one was drawn."""
        if self.shown:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self.shown = False

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def print_json(obj: Any) -> None:
    """Machine output: one JSON document on stdout."""
    print(json.dumps(obj, sort_keys=True, indent=2))


def add_max_atoms(p: argparse.ArgumentParser) -> None:
    """The shared ``--max-atoms`` guard option."""
    from ..fusion import DEFAULT_MAX_ATOMS

    p.add_argument("--max-atoms", type=positive_int, default=DEFAULT_MAX_ATOMS, metavar="N",
                   help=f"refuse fusions that may exceed N atoms, before allocating them "
                        f"(default {DEFAULT_MAX_ATOMS})")


def _int_at_least(s: str, low: int, word: str) -> int:
    try:
        v = int(s)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{s!r} is not an integer") from None
    if v < low:
        raise argparse.ArgumentTypeError(f"{s!r} must be {word}")
    return v


def positive_int(s: str) -> int:
    """argparse type: a positive integer."""
    return _int_at_least(s, 1, "positive")


def nonneg_int(s: str) -> int:
    """argparse type: a non-negative integer."""
    return _int_at_least(s, 0, "non-negative")


# --- executor options (shared by every command that runs independent tasks) ---------------

def add_executor_options(p: argparse.ArgumentParser) -> None:
    """``--workers N`` / ``--scheduler ADDR``: where independent tasks run (see docs/scale.md).

    Read them back with :func:`executor_spec`.
    """
    g = p.add_argument_group("parallel execution (docs/scale.md)")
    x = g.add_mutually_exclusive_group()
    x.add_argument("--workers", type=nonneg_int, metavar="N",
                   help="run independent tasks on a local Dask cluster of N worker processes "
                        "(0: in this process, the default unless $DASK_SCHEDULER_ADDRESS is set)")
    x.add_argument("--scheduler", metavar="ADDR",
                   help="run them on an existing Dask cluster, tcp://HOST:PORT (default: "
                        "$DASK_SCHEDULER_ADDRESS)")


def executor_spec(args: argparse.Namespace, timeout: float | None = None):
    """The :class:`attnproof.executor.ExecutorSpec` of parsed ``--workers``/``--scheduler``."""
    from ..executor import ExecutorSpec

    return ExecutorSpec.from_options(getattr(args, "workers", None), getattr(args, "scheduler", None),
                                     timeout)
