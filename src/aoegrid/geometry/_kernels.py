"""Kernels written once as plain Python, run as they are or compiled by numba.

The loops of :mod:`aoegrid.board._sweep`, :mod:`aoegrid.board._paths` and
:mod:`aoegrid.board._meets` are plain Python functions marked with :func:`kernel`;
none of those modules imports numba. :func:`run` runs one either way, with the
same answers to the bit (the same float operations in the same order):

* as plain Python, on memoryviews of the arrays: the few hundred walls of a
  room or a cave, a spread's window on them, take milliseconds so, and numba
  is never imported. A memoryview's items are Python floats and ints, read
  about as fast as a list's, where indexing an array, and arithmetic on the
  numpy scalars it gives, is several times slower; and an array passes as one
  with no copy, in its own memory;
* compiled (:func:`compiled`), once the work pays for it: importing numba
  (:data:`IMPORT_SECONDS`) and starting it (:data:`START_SECONDS`); then
  loading each kernel from numba's on-disk cache takes milliseconds.
  Compiled, a kernel runs 25 to 250 times faster.

Without numba (``aoegrid[fast]`` not installed, or a Python or numpy it has
no build for) every kernel runs as plain Python. The environment variable
``AOEGRID_KERNELS`` overrides the choice: ``python`` never compiles,
``compiled`` always does (where numba imports).

Kernels take flat sequences (an ``(n, 4)`` array as ``4 n`` values, read at
``4 * i + c``) and make new ones with :func:`filled`, so the same source runs
on memoryviews and on arrays; they return new sequences and change no
argument.
"""

from __future__ import annotations

import bisect
import functools
import os
import sys
import types
from collections.abc import Callable
from typing import Any

import numpy as np

#: Seconds ``import numba`` takes, numpy loaded (measured on the 2-core
#: machine the benchmarks run on: 0.12 s idle, 0.4 s busy).
IMPORT_SECONDS = 0.12
#: Seconds the first compiled kernel of a process takes to run beyond the
#: others: numba starts LLVM and its runtime (0.2 s). Loading a kernel from
#: numba's cache then takes 4 ms.
START_SECONDS = 0.2
#: A call that would take this long as plain Python is compiled at once:
#: work this large comes from a large map, whose next queries are as large
#: (loading is earned back within a few of them). The sizes it comes to are
#: with each kernel's cost.
AT_ONCE_SECONDS = 0.02

#: Estimated seconds the kernels have run as plain Python in this process.
_spent = 0.0
#: Whether a kernel has run compiled in this process: numba runs, and every
#: kernel runs compiled from then on (loading another costs milliseconds).
_running = False


def kernel(cost: float = 0.0, **options: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Mark a function as a kernel: plain Python, compiled by :func:`compiled` with numba's ``options``.

    Parameters
    ----------
    cost : float
        For the kernels :func:`run` runs: seconds one unit of their work (as
        the call site counts it) takes as plain Python.
    **options
        Given to ``numba.njit`` (``inline="always"``, ``nogil=True``).
    """

    def mark(fn: Callable[..., Any]) -> Callable[..., Any]:
        fn.__jit__ = options  # type: ignore[attr-defined]
        fn.__cost__ = cost  # type: ignore[attr-defined]
        return fn

    return mark


def filled(n: int, value: Any, dtype: Any) -> Any:
    """``np.full(n, value, dtype)``: as plain Python, a memoryview of it."""
    return memoryview(np.full(n, value, dtype))


def _full(n, value, dtype):  # type: ignore[no-untyped-def]
    return np.full(n, value, dtype)


def _search_left(a, x, lo, hi):  # type: ignore[no-untyped-def]
    return lo + np.searchsorted(a[lo:hi], x)


def _search_right(a, x, lo, hi):  # type: ignore[no-untyped-def]
    return lo + np.searchsorted(a[lo:hi], x, side="right")


#: ``bisect.bisect_left(a, x, lo, hi)`` and ``bisect_right``: in compiled code ``np.searchsorted``.
bisect_left, bisect_right = bisect.bisect_left, bisect.bisect_right

#: What compiled kernels call instead of these functions, by their ids (a
#: module's globals need not be hashable).
_TWINS = {id(filled): _full, id(bisect_left): _search_left, id(bisect_right): _search_right}


@functools.cache
def compiled(module: types.ModuleType) -> dict[str, Any] | None:
    """The kernels of ``module`` compiled by numba, by name; None without numba.

    Each kernel is rebuilt from its code with globals in which every kernel
    is its compiled version (and :func:`filled` and the bisections their
    array twins), so compiled kernels call compiled kernels, inlined where
    marked. They compile on first call, to numba's on-disk cache
    (``cache=True``: next to the module, or numba's user cache directory
    when that is not writable, or ``NUMBA_CACHE_DIR``) and load from it in
    later processes; where no folder is writable they compile in each
    process.
    """
    try:
        import numba
    except ImportError:  # not installed, or no build for this Python or numpy
        return None

    namespace = dict(vars(module))
    for name, value in vars(module).items():
        twin = _TWINS.get(id(value))
        if twin is not None:
            namespace[name] = numba.njit(inline="always")(twin)
    kernels = {name: fn for name, fn in vars(module).items()
               if hasattr(fn, "__jit__") and getattr(fn, "__module__", None) == module.__name__}
    for name, fn in kernels.items():
        copy = types.FunctionType(fn.__code__, namespace, fn.__name__, fn.__defaults__, fn.__closure__)
        copy.__qualname__, copy.__doc__ = fn.__qualname__, fn.__doc__
        try:
            namespace[name] = numba.njit(cache=True, **fn.__jit__)(copy)
        except RuntimeError:  # "cannot cache function ...: no locator available"
            namespace[name] = numba.njit(**fn.__jit__)(copy)
    return {name: namespace[name] for name in kernels}


def run(fn: Callable[..., Any], work: float, *args: Any) -> Any:
    """``fn(*args)``, compiled or as plain Python, whichever is worth it.

    Compiled once a kernel has run compiled in this process; when this call
    would take :data:`AT_ONCE_SECONDS` or more as plain Python (``work``
    times ``fn``'s cost); or when what the kernels have cost as plain Python
    in this process, with this call, reaches what starting numba costs
    (:data:`IMPORT_SECONDS` unless imported already, :data:`START_SECONDS`).
    So small work never loads numba, large work keeps compiled speed, and
    repeated work runs compiled once it has cost as much as starting numba
    would have (at most twice what compiling from the start would have).

    Parameters
    ----------
    fn : function
        A kernel (:func:`kernel`) with a cost.
    work : float
        How much work this call is, in the units ``fn``'s cost is given in.
    *args
        Its arguments: numpy arrays are passed flat (to plain Python as
        memoryviews), numpy scalars as Python numbers.

    Returns
    -------
    What ``fn`` returns, its sequences as arrays or memoryviews (``np.asarray`` takes either).
    """
    fast = _compiled_for(fn, work)
    if fast is None:
        return fn(*[memoryview(np.ravel(a)) if isinstance(a, np.ndarray) else
                    a.item() if isinstance(a, np.generic) else a for a in args])
    out = fast(*[np.ravel(a) if isinstance(a, np.ndarray) else a for a in args])
    global _running
    _running = True
    return out


def _compiled_for(fn: Callable[..., Any], work: float) -> Callable[..., Any] | None:
    """``fn`` compiled, when :func:`run` should run it so; else None (and its cost counted)."""
    global _spent
    how = os.environ.get("AOEGRID_KERNELS", "")
    if how == "python":
        return None
    if how != "compiled" and not _running:
        plain = float(work) * fn.__cost__  # type: ignore[attr-defined]
        start = START_SECONDS + (0.0 if "numba" in sys.modules else IMPORT_SECONDS)
        if plain < AT_ONCE_SECONDS and _spent + plain < start:
            _spent += plain
            return None
    kernels = compiled(sys.modules[fn.__module__])
    return None if kernels is None else kernels[fn.__name__]
