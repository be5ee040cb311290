"""Safe files: bounded strict reads (JSON, YAML), canonical JSON text, atomic writes.

Every way reading or writing a file can fail is a one-line
:class:`~attnproof.errors.InputError`; JSON is read strictly (no duplicate keys,
no floats, no NaN or Infinity) and written canonically (sorted keys, ASCII).

>>> canonical_json(loads_json('{"b": 1, "a": "1/2"}'))
'{"a":"1/2","b":1}\\n'
"""

from __future__ import annotations

import gc
import json
import os
import re
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, BinaryIO, Callable

from ..checker.limits import MAX_CONTAINERS, MAX_DIGITS, MAX_FILE_BYTES, containers, read_at_most
from ..errors import InputError, LimitError, NumberError
import stat as _stat

__all__ = ["loads_json", "read_text_file", "read_json_file", "canonical_json", "atomic_write",
           "atomic_write_text", "paused_gc", "MAX_FILE_BYTES"]



@contextmanager
def paused_gc():
    """Pause the cyclic garbage collector (restored on exit, if it was running).

    Large problems, bounds and certificates are millions of small acyclic containers
    that live on: the collector would rescan them again and again to free nothing;
    reference counting still frees whatever is dropped.  (The checker has its own.)

    >>> with paused_gc():
    ...     gc.isenabled()
    False
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _reject_constant(name: str) -> Any:
    raise NumberError(f"{name} is not an exact number")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict:
    out = dict(pairs)
    if len(out) != len(pairs):              # rare: name the first repeated key
        seen: set = set()
        for k, _ in pairs:
            if k in seen:
                raise InputError(f"duplicate key {k!r} in a JSON object")
            seen.add(k)
    return out


def _float_hook(s: str) -> float:
    raise NumberError(
        f"{s} is a JSON float; write exact numbers as integers or strings such as \"1/2\" or \"0.5\"")


def _int_hook(s: str) -> int:
    if len(s.lstrip("-")) > MAX_DIGITS:
        raise NumberError(f"integer with more than {MAX_DIGITS} digits")
    return int(s)


def loads_json(text: str) -> Any:
    """Strict JSON: no duplicate keys, no floats, NaN or Infinity.

    >>> loads_json('{"a": 1, "a": 2}')
    Traceback (most recent call last):
    ...
    attnproof.errors.InputError: duplicate key 'a' in a JSON object
    """
    if containers(text) > MAX_CONTAINERS:
        raise LimitError(f"more than {MAX_CONTAINERS} JSON objects and arrays")
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates, parse_float=_float_hook,
                          parse_int=_int_hook, parse_constant=_reject_constant)
    except json.JSONDecodeError as e:
        at = "" if e.msg.endswith(" at") else " at"         # "starting at", not "at at"
        raise InputError(f"not valid JSON: {e.msg}{at} line {e.lineno} column {e.colno}") from None
    except RecursionError:
        raise InputError("JSON nested too deeply") from None


def _at(mark: Any) -> str:
    """PyYAML's place of a node, 1-based as editors count: ``line 6, column 15``."""
    return f"line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""


def _loads_yaml(text: str, floats_as: Any = None) -> Any:
    r"""Strict YAML (the JSON data model, no floats, no aliases, no YAML 1.1 surprises); every
    error names its line and column.  ``floats_as``: a type that keeps a float's text
    instead of refusing it (to find where it is, :func:`attnproof.io.problem.load_problem`).

    >>> _loads_yaml("a: 1\na: 2\n")
    Traceback (most recent call last):
    ...
    attnproof.errors.InputError: duplicate key 'a' at line 2, column 1
    >>> _loads_yaml("a:\n\t- 1\n")
    Traceback (most recent call last):
    ...
    attnproof.errors.InputError: not valid YAML: found character '\t' that cannot start any token at line 2, column 1
    """
    try:
        import yaml
    except ImportError:
        raise InputError("YAML input needs PyYAML (pip install pyyaml); or use JSON") from None

    class _StrictLoader(yaml.SafeLoader):
        def compose_node(self, parent: Any, index: Any) -> Any:
            # an alias repeats a node without its text: 600 kB of YAML naming one
            # 20,000-atom head 20,000 times is a 4·10^8-atom problem that no size or
            # container limit saw (JSON has no aliases)
            if self.check_event(yaml.AliasEvent):
                raise InputError(f"YAML aliases (*{self.peek_event().anchor}) are not "
                                 "accepted: write the repeated data out")
            return super().compose_node(parent, index)

    def _map(loader: Any, node: Any) -> dict:
        pairs = loader.construct_pairs(node, deep=True)
        out = dict(pairs)
        if len(out) != len(pairs):              # name the first repeated key, and where it is
            seen: set = set()
            for (k, _), (k_node, _) in zip(pairs, node.value):
                if k in seen:
                    raise InputError(f"duplicate key {k!r} at {_at(k_node.start_mark)}")
                seen.add(k)
        return out

    def _reject_float(loader: Any, node: Any) -> Any:
        if floats_as is not None:
            return floats_as(node.value)
        raise NumberError(f"{node.value!r} at {_at(node.start_mark)} is a YAML float; quote exact "
                          f"numbers (\"0.5\", \"1/2\")")

    _StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _map)
    _StrictLoader.add_constructor("tag:yaml.org,2002:float", _reject_float)
    def _ambiguous(loader: Any, node: Any) -> Any:
        raise InputError(f"{node.value!r} at {_at(node.start_mark)} is ambiguous in YAML 1.1; quote it")

    for tag in ("bool", "timestamp", "null"):
        _StrictLoader.add_constructor(f"tag:yaml.org,2002:{tag}", _ambiguous)

    def _int(loader: Any, node: Any) -> int:
        v = node.value
        if not re.fullmatch(r"[+-]?(0|[1-9][0-9]*)", v):
            raise NumberError(f"{v!r} at {_at(node.start_mark)} is ambiguous in YAML 1.1 (octal, hex "
                              f"or sexagesimal); quote it")
        return _int_hook(v)

    _StrictLoader.add_constructor("tag:yaml.org,2002:int", _int)

    def _str(loader: Any, node: Any) -> str:
        # YAML 1.1 reads plain 1e3 as a string: demand quotes for anything number-like
        # (a plain p/q is unambiguous: YAML has no rational type, it is the string "p/q")
        if (node.style is None and re.fullmatch(r"[0-9+\-.eE/_:]+", node.value or "")
                and not re.fullmatch(r"[+-]?[0-9]+/[0-9]+", node.value)):
            raise NumberError(f"{node.value!r} at {_at(node.start_mark)} is ambiguous in YAML 1.1; "
                              f"quote it")
        return loader.construct_scalar(node)

    _StrictLoader.add_constructor("tag:yaml.org,2002:str", _str)
    try:
        return yaml.load(text, Loader=_StrictLoader)  # noqa: S506 - strict SafeLoader subclass
    except yaml.MarkedYAMLError as e:       # PyYAML's own place of the mistake, and what it was in
        mark = e.problem_mark or e.context_mark
        what = e.problem or e.context or "syntax error"
        context = (f" ({e.context} at {_at(e.context_mark)})"
                   if e.context and e.problem and e.context_mark is not None
                   and e.context_mark.line != getattr(mark, "line", None) else "")
        raise InputError(f"not valid YAML: {what} at {_at(mark)}{context}") from None
    except yaml.YAMLError as e:
        raise InputError(f"not valid YAML: {str(e).splitlines()[0]}") from None
    except RecursionError:
        raise InputError("YAML nested too deeply") from None


def read_text_file(path: str | os.PathLike, max_bytes: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text of a file, with one-line errors for every way reading can fail.

    >>> read_text_file("no/such/file.txt")
    Traceback (most recent call last):
    ...
    attnproof.errors.InputError: no/such/file.txt: no such file
    """
    p = Path(path)
    try:
        with open(p, "rb") as f:
            raw = read_at_most(f, max_bytes + 1)
    except FileNotFoundError:
        raise InputError(f"{p}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{p}: is a directory") from None
    except PermissionError:
        raise InputError(f"{p}: permission denied") from None
    except OSError as e:
        raise InputError(f"{p}: cannot be read ({e.strerror})") from None
    if len(raw) > max_bytes:
        raise InputError(f"{p}: file is larger than {max_bytes} bytes")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{p}: not UTF-8 text") from None


def read_json_file(path: str | os.PathLike) -> Any:
    """Read a JSON (or, by extension ``.yaml``/``.yml``, YAML) file strictly.

    >>> read_json_file("no/such/file.json")
    Traceback (most recent call last):
    ...
    attnproof.errors.InputError: no/such/file.json: no such file
    """
    p = Path(path)
    text = read_text_file(p)
    try:
        if p.suffix.lower() in (".yaml", ".yml"):
            return _loads_yaml(text)
        return loads_json(text)
    except InputError as e:            # syntax and float errors name the file
        raise type(e)(f"{p}: {e}") from None


def canonical_json(obj: Any) -> str:
    """Canonical JSON text: sorted keys, no spaces, ASCII, trailing newline.

    >>> canonical_json({"b": 1, "a": [1, "1/2"]})
    '{"a":[1,"1/2"],"b":1}\\n'
    """
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True,
                      allow_nan=False) + "\n"


def atomic_write(path: str | os.PathLike, write: Callable[[BinaryIO], object]) -> None:
    """Write a file atomically: ``write(f)`` fills a temp file in the same folder,
    then fsync and ``os.replace``.  A crash mid-write leaves the old file or none,
    never a partial one; a new file gets the usual permissions (umask), a replaced
    one keeps its own.

    What ``PATH`` may be (every ``-o PATH`` of the command line):
    * a symlink is **followed**: its final target is replaced atomically and the
      link itself stays (a dangling link creates its target);
    * an existing character device or pipe (``/dev/null``, ``/dev/stdout``) is
      **written through**, never replaced;
    * a directory, socket, block device or anything else that is not a regular
      file is **refused** (:class:`~attnproof.errors.InputError`, exit 3).

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "a.bin")
    >>> atomic_write(path, lambda f: f.write(b"abc"))
    >>> open(path, "rb").read(), os.listdir(os.path.dirname(path))
    (b'abc', ['a.bin'])
    >>> atomic_write(os.devnull, lambda f: f.write(b"x")); os.path.exists(os.devnull)
    True
    """

    p = Path(path)
    try:
        st = os.stat(p)                      # follows symlinks
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise InputError(f"{p}: cannot be written ({e.strerror})") from None
    if st is not None and not _stat.S_ISREG(st.st_mode):
        if _stat.S_ISDIR(st.st_mode):
            raise InputError(f"{p}: is a directory")
        if not (_stat.S_ISCHR(st.st_mode) or _stat.S_ISFIFO(st.st_mode)):
            raise InputError(f"{p}: not a regular file, character device or pipe; refusing "
                             "to replace it")
        try:
            with open(p, "wb") as f:         # write through: the device or pipe stays
                write(f)
        except OSError as e:
            raise InputError(f"{p}: cannot be written ({e.strerror})") from None
        return
    target = Path(os.path.realpath(p)) if p.is_symlink() else p
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise InputError(f"{p}: folder {folder} does not exist")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as e:
        raise InputError(f"{p}: cannot be written ({e.strerror})") from None
    try:
        if st is not None:
            os.chmod(tmp, _stat.S_IMODE(st.st_mode))
        else:
            mask = os.umask(0)
            os.umask(mask)
            os.chmod(tmp, 0o666 & ~mask)
        with os.fdopen(fd, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError):
            raise InputError(f"{p}: cannot be written ({e.strerror or e})") from None
        raise


def atomic_write_text(path: str | os.PathLike, text: str) -> None:
    """Write UTF-8 text atomically (see :func:`atomic_write`).

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "a.txt")
    >>> atomic_write_text(path, "hello")
    >>> open(path).read(), os.listdir(os.path.dirname(path))
    ('hello', ['a.txt'])
    """
    data = text.encode("utf-8")
    atomic_write(path, lambda f: f.write(data))
