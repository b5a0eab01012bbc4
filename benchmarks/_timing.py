"""Timing shared by the benchmark scripts (``python benchmarks/<script>.py``)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def median_time(fn: Callable[[], object], repeats: int, before: Callable[[], object] | None = None) -> float:
    """Median seconds per call of ``fn``: one warm-up call, then ``repeats`` timed calls.

    ``before`` (e.g. clearing a cache) runs before each call, outside the timing.
    """
    if before is not None:
        before()
    fn()
    times = []
    for _ in range(repeats):
        if before is not None:
            before()
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def median_ms(fn: Callable[[], object], repeats: int) -> float:
    """Median milliseconds per call of ``fn``."""
    return median_time(fn, repeats) * 1e3
