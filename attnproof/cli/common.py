"""Shared pieces of the command line: exit codes, error guard, progress, JSON output."""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import time
import threading
import traceback
from contextvars import ContextVar
from typing import Any, Callable, TextIO

from ..errors import AttnproofError, InputError, LimitError

EXIT_OK = 0
EXIT_NEGATIVE = 1
EXIT_INCONCLUSIVE = 2
EXIT_USAGE = 3
EXIT_INTERNAL = 4


# per-run settings of the command line (set by :func:`run_command`, reset afterwards)
_JSON_MODE: ContextVar[bool] = ContextVar("attnproof_json_mode", default=False)
_FORCE_PROGRESS: ContextVar[bool | None] = ContextVar("attnproof_progress", default=None)
_STARTED: ContextVar[float | None] = ContextVar("attnproof_started", default=None)

BIG = 1 << 53
# the library's defaults, repeated here so that building the parser imports no FLINT
# (tests/test_cli.py checks that they agree with attnproof.fusion and attnproof.certificate)
DEFAULT_MAX_ATOMS = 1 << 20
EXPLICIT_FUSION_LIMIT = 65536


class ArgumentParser(argparse.ArgumentParser):
    """argparse with usage errors mapped to exit code 3 (not argparse's 2); JSON under --json."""

    def error(self, message: str):  # type: ignore[override]
        if _JSON_MODE.get():
            print_json(error_doc("UsageError", f"{self.prog}: {message}", EXIT_USAGE))
            self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


class Terminated(KeyboardInterrupt):
    """Raised in the main thread when the process is asked to stop (SIGTERM, SIGHUP).

    A subclass of ``KeyboardInterrupt``, so every clean-up path of an
    interrupted command (killing solver processes, abandoning Dask tasks)
    runs for a termination too; the command then exits with ``128 + signum``
    (143 for SIGTERM), as shells report a process killed by that signal.
    """

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum

    @property
    def name(self) -> str:
        """``"SIGTERM"``, ``"SIGHUP"``...

        >>> Terminated(15).name
        'SIGTERM'
        """
        try:
            return signal.Signals(self.signum).name
        except ValueError:
            return f"signal {self.signum}"


EXIT_INTERRUPTED = 130     # Ctrl-C (SIGINT), as shells report it
EXIT_TERMINATED = 143      # SIGTERM (128 + 15)
STOPPED_CODES = frozenset({EXIT_INTERRUPTED, EXIT_TERMINATED, 129})   # 129: SIGHUP
STOP_SIGNALS = tuple(getattr(signal, n) for n in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, n))


def _stop_children() -> None:
    """Kill what this process started that would outlive it: solver processes (if any were started)."""
    solvers = sys.modules.get("attnproof.smt.solvers")
    if solvers is not None:
        solvers.kill_running_solvers()


def _on_stop_signal(signum: int, frame: Any) -> None:
    _stop_children()
    dask = sys.modules.get("attnproof._dask")
    if dask is not None and dask.starting.is_set():   # raised again once the cluster is up
        dask.pending_signal.append(signum)
        return
    if signum == signal.SIGINT:
        raise KeyboardInterrupt
    raise Terminated(signum)


class stop_signals:
    """While in force, SIGTERM and SIGHUP kill the solver processes and raise :class:`Terminated`.

    SIGINT (Ctrl-C) kills them too and raises ``KeyboardInterrupt``.  A signal
    that comes while a local Dask cluster starts is held until it is up, so
    that it can be closed.

    Installed by :func:`main` around a command (main thread only; elsewhere it
    does nothing), and the previous handlers are put back afterwards.

    >>> with stop_signals() as handlers:
    ...     signal.getsignal(signal.SIGTERM) is _on_stop_signal
    True
    >>> signal.getsignal(signal.SIGTERM) is _on_stop_signal
    False
    """

    def __init__(self) -> None:
        self.old: dict[int, Any] = {}

    def __enter__(self) -> "stop_signals":
        if threading.current_thread() is threading.main_thread():
            for sig in STOP_SIGNALS:
                if signal.getsignal(sig) is not signal.SIG_IGN:   # nohup, background jobs
                    self.old[sig] = signal.signal(sig, _on_stop_signal)
        return self

    def __exit__(self, *exc: Any) -> None:
        for sig, old in self.old.items():
            signal.signal(sig, old)
        self.old.clear()


def close_executors(code: int) -> int:
    """Close the Dask clusters this process opened; ``code``, or 143/130 when stopped meanwhile.

    >>> close_executors(0)
    0
    """
    if "attnproof._dask" not in sys.modules:
        return code
    from ..executor import shutdown_executors

    try:
        shutdown_executors()
    except Terminated as e:
        print(f"attnproof: terminated by {e.name}", file=sys.stderr)
        return 128 + e.signum
    except KeyboardInterrupt:
        print("attnproof: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    return code


def error_doc(kind: str, message: str, code: int) -> dict:
    """The JSON document of an error under ``--json``."""
    return {"verdict": "error", "error": kind, "message": message, "exit_code": code}


def run_command(fn: Callable[[Any], int], args: Any) -> int:
    """Run a parsed command with its ``--json`` and ``--progress`` settings in force."""
    tokens = [_JSON_MODE.set(bool(getattr(args, "json", False))),
              _FORCE_PROGRESS.set(True if getattr(args, "progress", False) else None),
              _STARTED.set(time.monotonic())]
    try:
        return guarded(fn, args)
    finally:
        for var, tok in zip((_JSON_MODE, _FORCE_PROGRESS, _STARTED), tokens):
            var.reset(tok)


def _fail(kind: str, message: str, code: int, prefix: str = "error") -> int:
    print(f"attnproof: {prefix}: {message}", file=sys.stderr)
    if _JSON_MODE.get():
        print_json(error_doc(kind, message, code))
    return code


def guarded(fn: Callable[[Any], int], args: Any) -> int:
    """Run a command; deliberate errors become one line on stderr and exit 3 (JSON too under --json)."""
    try:
        return int(fn(args))
    except (InputError, LimitError) as e:
        return _fail(type(e).__name__, str(e), EXIT_USAGE)
    except AttnproofError as e:
        return _fail(type(e).__name__, str(e), EXIT_INTERNAL)
    except Terminated as e:
        _stop_children()
        print(f"attnproof: terminated by {e.name}", file=sys.stderr)
        return 128 + e.signum
    except KeyboardInterrupt:
        _stop_children()
        print("attnproof: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return 0
    except MemoryError:
        return _fail("MemoryError", "out of memory (try a smaller --max-atoms)", EXIT_INTERNAL)
    except Exception as e:  # internal error: one line, traceback only on request
        if os.environ.get("ATTNPROOF_DEBUG"):
            traceback.print_exc()
        return _fail("InternalError", f"{type(e).__name__}: {e} (set ATTNPROOF_DEBUG=1 for a "
                     f"traceback)", EXIT_INTERNAL, prefix="internal error")


class Progress:
    """A progress bar on stderr (tqdm), shown on a terminal, or anywhere with ``--progress``.

    Use it as a context manager and call it as ``bar(done, total)`` (``total``
    may be None: a counter).  ``heartbeat=True`` redraws it twice a second with
    the elapsed time while the caller waits on something opaque (an SMT query);
    :meth:`describe` changes its label.  Nothing is drawn before ``delay``
    seconds on a terminal; with ``--progress`` it is drawn at once.

    >>> import io
    >>> with Progress("fusing heads", stream=io.StringIO(), enabled=True, delay=0) as bar:
    ...     bar(1, 2); bar(2, 2)
    >>> "fusing heads" in bar.stream.getvalue()
    True
    """

    def __init__(self, label: str, stream: TextIO | None = None, enabled: bool | None = None,
                 delay: float = 1.0, heartbeat: bool = False) -> None:
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        forced = _FORCE_PROGRESS.get()
        if enabled is None:
            enabled = True if forced else _isatty(self.stream)
        self.enabled = enabled
        self.delay = 0.0 if forced else delay
        self.heartbeat = heartbeat
        self.start = time.monotonic()
        self._bar: Any = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _ensure(self, total: int | None) -> Any:
        if self._bar is None:
            from tqdm import tqdm

            tty = _isatty(self.stream)
            fmt = self._format(total)
            self._bar = tqdm(total=total or None, desc=self.label, file=self.stream, leave=False,
                             dynamic_ncols=tty, ncols=None if tty else 80, delay=self.delay,
                             mininterval=0.1 if tty else 0.5, bar_format=fmt, ascii=not tty,
                             initial=0)
        return self._bar

    def _format(self, total: int | None) -> str:
        if total:
            return "{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} [{elapsed}<{remaining}]"
        return "{desc} [{elapsed} elapsed]" if self.heartbeat else "{desc}: {n_fmt} [{elapsed}]"

    def __call__(self, done: int, total: int | None = None) -> None:
        if not self.enabled:
            return
        with self._lock:
            bar = self._ensure(total)
            if total and bar.total != total:
                bar.total = total
                bar.bar_format = self._format(total)
            bar.n = done
            bar.refresh() if self.delay == 0 else bar.update(0)

    def describe(self, label: str) -> None:
        """Change the label shown before the bar."""
        self.label = label
        if self.enabled and self._bar is not None:
            with self._lock:
                self._bar.set_description_str(label)

    def _beat(self) -> None:
        while not self._stop.wait(0.5):
            with self._lock:
                if time.monotonic() - self.start >= self.delay:
                    self._ensure(None).refresh()

    def close(self) -> None:
        """Stop the heartbeat and erase the bar."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def __enter__(self) -> "Progress":
        if self.enabled and self.heartbeat:
            if self.delay == 0:
                self._ensure(None).refresh()
            self._thread = threading.Thread(target=self._beat, daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def plural(n: int, word: str, words: str | None = None) -> str:
    """``"1 head"``, ``"3 heads"``.

    >>> plural(1, "head"), plural(2, "head"), plural(1, "query", "queries")
    ('1 head', '2 heads', '1 query')
    """
    return f"{n} {word if n == 1 else (words or word + 's')}"


def json_ready(obj: Any) -> Any:
    """The one number rule of every ``--json``: integers >= 2^53 become decimal strings.

    >>> json_ready({"a": [2 ** 60, 3], "b": None})
    {'a': ['1152921504606846976', 3], 'b': None}
    """
    if isinstance(obj, bool) or obj is None:
        return obj
    if isinstance(obj, int):
        return str(obj) if abs(obj) >= BIG else obj
    if isinstance(obj, dict):
        return {str(k): json_ready(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [json_ready(v) for v in obj]
    return obj


def elapsed() -> float:
    """Seconds since the command started (0.0 outside a command)."""
    t0 = _STARTED.get()
    return 0.0 if t0 is None else round(time.monotonic() - t0, 3)


def print_json(obj: Any) -> None:
    """Machine output: one JSON document on stdout (big integers as strings, with ``elapsed_s``)."""
    if isinstance(obj, dict) and "elapsed_s" not in obj:
        obj = {**obj, "elapsed_s": elapsed()}
    print(json.dumps(json_ready(obj), sort_keys=True, indent=2))
    sys.stdout.flush()


def add_common(p: argparse.ArgumentParser, json: bool = True, progress: bool = True) -> None:
    """The options every command shares: ``--json`` and ``--progress``."""
    if json:
        p.add_argument("--json", action="store_true",
                       help="print the result as one JSON document (schemas/ describes it); "
                            "errors too")
    if progress:
        p.add_argument("--progress", action="store_true",
                       help="show progress bars on stderr even when it is not a terminal "
                            "(on a terminal they appear after a second)")


def add_max_atoms(p: argparse.ArgumentParser) -> None:
    """The shared ``--max-atoms`` guard option."""
    p.add_argument("--max-atoms", type=positive_int, default=DEFAULT_MAX_ATOMS, metavar="N",
                   help=f"refuse to build a fusion whose size, estimated from the head supports "
                        f"before anything is allocated, exceeds N atoms (default {DEFAULT_MAX_ATOMS})")


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


# attnproof.numeric.precision.MAX_BALL_DIGITS, repeated so that building the parser imports
# no FLINT (tests/test_found_bugs.py checks that they agree)
MAX_BALL_DIGITS = 19722


def ball_digits(s: str) -> int:
    """argparse type: decimal digits of an Arb ball, from 1 to :data:`MAX_BALL_DIGITS`."""
    v = _int_at_least(s, 1, "positive")
    if v > MAX_BALL_DIGITS:
        raise argparse.ArgumentTypeError(f"{s!r} is over {MAX_BALL_DIGITS} digits (the largest "
                                         "precision of the ball arithmetic, 65536 bits)")
    return v


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
