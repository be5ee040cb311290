"""Shared pieces of the command line: exit codes, error guard, progress, JSON output."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import signal
import sys
import threading
import time
import traceback
from contextvars import ContextVar
from typing import Any, Callable, NoReturn, TextIO

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
_QUIET: ContextVar[bool] = ContextVar("attnproof_quiet", default=False)

BIG = 1 << 53
# the library's defaults, repeated here so that building the parser imports no FLINT
# (tests/test_cli.py checks that they agree with attnproof.fusion and attnproof.certificate)
DEFAULT_MAX_ATOMS = 1 << 20
EXPLICIT_FUSION_LIMIT = 65536


def did_you_mean(word: str, choices) -> str:
    """`` (did you mean 'fuse'?)`` when a choice is close to ``word``, else ``""`` (difflib).

    >>> did_you_mean("fsue", ["fuse", "show"]), did_you_mean("xyz", ["fuse"])
    (" (did you mean 'fuse'?)", '')
    """
    import difflib

    word = str(word).split("=", 1)[0]
    close = difflib.get_close_matches(word, [str(c) for c in choices], n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """The parsers of the subcommands of ``parser`` by name (empty when it has none)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action.choices
    return {}


class ArgumentParser(argparse.ArgumentParser):
    """argparse with usage errors mapped to exit code 3 (not argparse's 2); JSON under --json;
    a close match suggested for a mistyped command or choice."""

    def error(self, message: str) -> NoReturn:
        m = re.match(r"argument (\S+): invalid choice: '([^']*)' \(choose from (.*)\)$", message)
        if m is not None and "did you mean" not in message:
            choices = re.findall(r"'([^']*)'", m.group(3)) or [c.strip() for c in m.group(3).split(",")]
            message += did_you_mean(m.group(2), choices)
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
    dask = sys.modules.get("attnproof.parallel._dask")
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
    if "attnproof.parallel._dask" not in sys.modules:
        return code
    from ..parallel import shutdown_executors

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
    json_mode = _JSON_MODE.set(bool(getattr(args, "json", False)))
    force_progress = _FORCE_PROGRESS.set(True if getattr(args, "progress", False) else None)
    started = _STARTED.set(time.monotonic())
    quiet = _QUIET.set(bool(getattr(args, "quiet", False)))
    try:
        return guarded(fn, args)
    finally:
        _JSON_MODE.reset(json_mode)
        _FORCE_PROGRESS.reset(force_progress)
        _STARTED.reset(started)
        _QUIET.reset(quiet)


def _fail(kind: str, message: str, code: int, prefix: str = "error") -> int:
    print(f"attnproof: {prefix}: {message}", file=sys.stderr)
    if _JSON_MODE.get():
        with contextlib.suppress(OSError):      # a reader that stopped early: no traceback
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


class ProgressBar:
    """The command line's progress display on stderr: a :data:`attnproof.parallel.tasks.Progress`.

    Use it as a context manager and call it as ``bar(done, total)`` (``total``
    may be None: a counter).  ``heartbeat=True`` keeps it alive with the elapsed
    time while the caller waits on something opaque (an SMT query);
    :meth:`describe` changes its label (a new stage).

    On a terminal it is a tqdm bar, redrawn in place, shown after ``delay``
    seconds.  Anywhere else (a pipe, a log file: with ``--progress``) it writes
    whole lines, never carriage returns: one when a stage starts and then one
    every :data:`PLAIN_INTERVAL` seconds.  ``-q/--quiet`` turns it off.

    >>> import io
    >>> with ProgressBar("fusing heads", stream=io.StringIO(), enabled=True, delay=0) as bar:
    ...     bar(1, 2); bar.describe("checking"); bar(2, 2)
    >>> bar.stream.getvalue().splitlines()
    ['fusing heads: 1/2 [00:00]', 'checking: 1/2 [00:00]', 'checking: 2/2 [00:00]']
    """

    def __init__(self, label: str, stream: TextIO | None = None, enabled: bool | None = None,
                 delay: float = 1.0, heartbeat: bool = False) -> None:
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        forced = _FORCE_PROGRESS.get()
        if enabled is None:
            enabled = True if forced else _isatty(self.stream)
        self.enabled = bool(enabled) and not _QUIET.get()
        self.delay = 0.0 if forced else delay
        self.heartbeat = heartbeat
        self.start = time.monotonic()
        self.plain = not _isatty(self.stream)      # whole lines, no carriage returns
        self._bar: Any = None
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._done: int | None = None
        self._total: int | None = None
        self._last_line = -1.0
        self._stage_written = False

    # --- plain lines (not a terminal) ---------------------------------------------------

    def _line(self) -> str:
        t = int(time.monotonic() - self.start)
        clock = f"{t // 60:02d}:{t % 60:02d}"
        if self._done is None:
            return f"{self.label} [{clock} elapsed]"
        count = f"{self._done}/{self._total}" if self._total else f"{self._done}"
        return f"{self.label}: {count} [{clock}]"

    def _write_line(self) -> None:
        now = time.monotonic()
        if now - self.start < self.delay:
            return
        try:
            self.stream.write(self._line() + "\n")
            self.stream.flush()
        except (OSError, ValueError):           # a closed pipe: stop reporting
            self.enabled = False
        self._last_line = now
        self._stage_written = True

    # --- the bar on a terminal ----------------------------------------------------------

    def _ensure(self, total: int | None) -> Any:
        if self._bar is None:
            from tqdm import tqdm

            fmt = self._format(total)
            self._bar = tqdm(total=total or None, desc=self.label, file=self.stream, leave=False,
                             dynamic_ncols=True, delay=self.delay, mininterval=0.1,
                             bar_format=fmt, initial=0)
        return self._bar

    def _format(self, total: int | None) -> str:
        if total:
            return "{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} [{elapsed}<{remaining}]"
        return "{desc} [{elapsed} elapsed]" if self.heartbeat else "{desc}: {n_fmt} [{elapsed}]"

    def __call__(self, done: int, total: int | None = None) -> None:
        if not self.enabled:
            return
        with self._lock:
            if self.plain:
                new_total = total is not None and total != self._total
                self._done, self._total = done, total if total is not None else self._total
                if (not self._stage_written or new_total or (total and done >= total)
                        or time.monotonic() - self._last_line >= PLAIN_INTERVAL):
                    self._write_line()
                return
            bar = self._ensure(total)
            if total and bar.total != total:
                bar.total = total
                bar.bar_format = self._format(total)
            bar.n = done
            bar.refresh() if self.delay == 0 else bar.update(0)

    def describe(self, label: str) -> None:
        """Change the label: a new stage (a new line when not on a terminal); the same label again
        changes nothing."""
        with self._lock:
            if label == self.label:
                return
            self.label = label
            if not self.enabled:
                return
            if self.plain:
                self._write_line()
            elif self._bar is not None:
                self._bar.set_description_str(label)

    def write(self, message: str) -> None:
        """A line of its own on the stream (a stage's result), above the bar on a terminal;
        left out under ``-q/--quiet``."""
        if _QUIET.get():
            return
        with self._lock:
            if self._bar is not None:
                self._bar.clear()
            try:
                self.stream.write(message + "\n")
                self.stream.flush()
            except (OSError, ValueError):
                return
            if self._bar is not None:
                self._bar.refresh()

    def _beat(self) -> None:
        while not self._stop.wait(0.5):
            with self._lock:
                if not self.enabled:
                    return
                if self.plain:
                    if (not self._stage_written
                            or time.monotonic() - self._last_line >= PLAIN_INTERVAL):
                        self._write_line()
                elif time.monotonic() - self.start >= self.delay:
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

    def __enter__(self) -> "ProgressBar":
        if self.enabled and self.heartbeat:
            if self.delay == 0:
                if self.plain:
                    self._write_line()
                else:
                    self._ensure(None).refresh()
            self._stop.clear()
            self._thread = threading.Thread(target=self._beat, daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


PLAIN_INTERVAL = 5.0     # seconds between two progress lines when stderr is not a terminal


def spent_note(args: argparse.Namespace, stopped: str, elapsed: float) -> None:
    """Say on stdout when the walk stopped because --time-limit was spent."""
    limit = getattr(args, "time_limit", None)
    if stopped == "unknown" and limit is not None and elapsed >= limit - 1:
        print(f"  stopped: the --time-limit of {limit:g} s is spent")


def note(message: str) -> None:
    """An informational line on stderr (a stage's result), left out under ``-q/--quiet``."""
    if not _QUIET.get():
        print(message, file=sys.stderr, flush=True)


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
    """The one number rule of every ``--json``: integers >= 2^53 become decimal strings,
    of any length (``str`` refuses more than 4300 digits: the bounds of ``W_100000``).

    >>> json_ready({"a": [2 ** 60, 3], "b": None})
    {'a': ['1152921504606846976', 3], 'b': None}
    >>> len(json_ready(2 ** 100000)), json_ready(-2 ** 100000)[:4]
    (30103, '-999')
    """
    if isinstance(obj, bool) or obj is None:
        return obj
    if isinstance(obj, int):
        if abs(obj) < BIG:
            return obj
        from ..io import decimal_string        # any size: str() refuses 4300 digits and more

        return decimal_string(obj)
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
    """The options every command shares: ``--json``, ``--progress`` and ``-q/--quiet``."""
    if json:
        p.add_argument("--json", action="store_true",
                       help="print the result as one JSON document (schemas/ describes it); "
                            "errors too")
    if progress:
        q = p.add_mutually_exclusive_group()
        q.add_argument("--progress", action="store_true",
                       help="show progress on stderr even when it is not a terminal (then one "
                            "line per stage and every few seconds; on a terminal a bar appears "
                            "after a second)")
        q.add_argument("-q", "--quiet", action="store_true",
                       help="no progress and no notes on stderr (errors are still reported)")


def add_max_atoms(p: argparse.ArgumentParser) -> None:
    """The shared ``--max-atoms`` guard option."""
    p.add_argument("--max-atoms", type=positive_int, default=DEFAULT_MAX_ATOMS, metavar="N",
                   help=f"refuse to build a fusion whose size, estimated from the head supports "
                        f"before anything is allocated, exceeds N atoms (default {DEFAULT_MAX_ATOMS})")


def add_capture_options(p: argparse.ArgumentParser) -> None:
    """The options that read a captured layer, shared by ``import`` and ``merge-report``:
    the capture file, ``--heads``, ``--domain`` and ``--arithmetic``.

    Both commands hand them to the same :mod:`attnproof.transformer` calls, so one capture
    with one set of options is one problem in both.

    >>> p = argparse.ArgumentParser()
    >>> add_capture_options(p)
    >>> a = p.parse_args(["layer.npz", "--heads", "0,2"])
    >>> (a.capture, a.heads, a.domain, a.arithmetic)
    ('layer.npz', '0,2', None, 'float64')
    """
    p.add_argument("capture", metavar="CAPTURE", help="capture file (.npz, or .safetensors)")
    p.add_argument("--heads", metavar="LIST",
                   help="head numbers, e.g. 1,3,5 (default: every stored head)")
    p.add_argument("--domain", choices=("layernorm", "raw"),
                   help="query domain (default: layernorm when the capture has LayerNorm parameters)")
    p.add_argument("--arithmetic", choices=("float64", "exact"), default="float64",
                   help="how keys and values are computed from the floats (default float64)")


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
    """The :class:`attnproof.parallel.executor.ExecutorSpec` of parsed ``--workers``/``--scheduler``."""
    from ..parallel import ExecutorSpec

    return ExecutorSpec.from_options(getattr(args, "workers", None), getattr(args, "scheduler", None),
                                     timeout)
