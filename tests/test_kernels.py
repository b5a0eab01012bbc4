"""The kernels (aoegrid.geometry._kernels): plain Python and compiled give the same answers to the bit, the
choice between them follows the work, and aoegrid works without numba at all."""

import contextlib
import importlib.util
import json
import math
import os
import subprocess
import sys
import textwrap
import types

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import aoegrid as ag
from aoegrid.board import _meets, _sweep
from aoegrid.board._boxes import SegmentGrid
from aoegrid.board._paths import cheapest_paths, shortest_paths, step_bits
from aoegrid.board.spread import StepMasks, path_distance, step_costs
from aoegrid.board.visibility import OriginOnWallError, visibility
from aoegrid.geometry import _kernels
from aoegrid.geometry.options import Diagonals
from aoegrid.geometry.raster import Window

compiled_too = pytest.mark.skipif(importlib.util.find_spec("numba") is None,
                                  reason="compares with the compiled kernels: needs numba (aoegrid[fast])")


@contextlib.contextmanager
def kernels(how):
    """Every kernel run as plain Python (``python``) or compiled (``compiled``) inside the block."""
    before = os.environ.get("AOEGRID_KERNELS")
    os.environ["AOEGRID_KERNELS"] = how
    try:
        yield
    finally:
        if before is None:
            del os.environ["AOEGRID_KERNELS"]
        else:
            os.environ["AOEGRID_KERNELS"] = before


def outcome(call):
    """What ``call()`` gives, or the type of error it raises."""
    try:
        return call()
    except ag.AoegridError as exc:
        return type(exc)


def assert_same_both_ways(call):
    """``call()`` gives the same answer, to the bit, with plain-Python and with compiled kernels."""
    with kernels("python"):
        plain = outcome(call)
    with kernels("compiled"):
        fast = outcome(call)
    assert same(plain, fast)
    return plain


def same(a, b):
    """Whether two answers are equal to the bit: arrays of one dtype and shape with the same bytes."""
    if isinstance(a, (list, tuple)):
        return isinstance(b, (list, tuple)) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        a, b = np.asarray(a), np.asarray(b)
        return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
    return type(a) is type(b) and a == b


def random_walls(rng, n, size):
    """``n`` walls on a ``size`` square map, mostly short: some on a half-square lattice (so they
    touch, meet end to end and run along one line), some crossing."""
    at = rng.uniform(0, size, (n, 2))
    length = size * 10 ** rng.uniform(-2.5, -1.2, n)
    turn = rng.uniform(0, 2 * math.pi, n)
    segs = np.hstack([at, at + length[:, None] * np.column_stack([np.cos(turn), np.sin(turn)])])
    snap = rng.random(n) < 0.3
    segs[snap] = np.round(segs[snap] * 2) / 2
    return segs[(segs[:, 0] != segs[:, 2]) | (segs[:, 1] != segs[:, 3])]


def sizes(kernel, unit=1.0):
    """Sizes (of ``unit`` units of ``kernel``'s work) below, around and at where :func:`aoegrid.geometry._kernels.run`
    compiles it at once (:data:`aoegrid.geometry._kernels.AT_ONCE_SECONDS` over its cost)."""
    switch = _kernels.AT_ONCE_SECONDS / kernel.__cost__ / unit
    return st.sampled_from([3, 40, 400, int(switch / 4), int(switch)])


@compiled_too
@settings(max_examples=12, deadline=None)
@given(n=sizes(_sweep.sweep), seed=st.integers(0, 2**32 - 1), one_way=st.booleans())
def test_sweep_same_both_ways(n, seed, one_way):
    rng = np.random.default_rng(seed)
    size = int(max(10.0, math.sqrt(n) * 2))
    segs = random_walls(rng, n, size)
    sides = rng.choice([None, None, "left", "right"], len(segs)) if one_way else [None] * len(segs)
    m = ag.BattleMap(ag.Grid(size, size), walls=[ag.Wall(s[:2], s[2:], one_way=side)
                                                 for s, side in zip(segs.tolist(), sides)])
    frame = (0.0, 0.0, float(size), float(size))
    prepared = m.walls_near("effect", frame)  # split where they cross, as the sweep takes them
    origin = tuple(rng.uniform(0, size, 2))

    def polygon():
        v = visibility(origin, prepared.segs, prepared.one_way, frame)
        return [v.angles, v.ax, v.ay, v.ex, v.ey]

    assert_same_both_ways(polygon)


@compiled_too
@settings(max_examples=15, deadline=None)
@given(n=sizes(_meets.relations), seed=st.integers(0, 2**32 - 1),
       scale=st.sampled_from([1.0, 1e-300, 1e-150, 1e150, 1e300]))
def test_relations_same_both_ways(n, seed, scale):
    rng = np.random.default_rng(seed)
    # Small integers: many pairs touch, meet end to end or lie on one line (where the test is unsure).
    a = rng.integers(-3, 4, (n, 4)).astype(np.float64) * scale
    b = np.where(rng.random((n, 1)) < 0.5, rng.integers(-3, 4, (n, 4)), rng.uniform(-3, 3, (n, 4))) * scale
    how = assert_same_both_ways(lambda: np.asarray(_kernels.run(_meets.relations, n, a, b)))
    assert set(np.unique(how).tolist()) <= {_meets.APART, _meets.CROSSING, _meets.UNSURE}


@compiled_too
@settings(max_examples=12, deadline=None)
@given(n=sizes(_meets.read, 8.0), seed=st.integers(0, 2**32 - 1), rows=st.sampled_from([0, 1, 3]))
def test_segment_grid_reads_same_both_ways(n, seed, rows):
    rng = np.random.default_rng(seed)
    size = max(10.0, math.sqrt(n) * 2)
    segs = random_walls(rng, n, size)
    grid = SegmentGrid(segs, (0.0, 0.0, size, size))
    every, shuffled = np.arange(len(segs)), rng.permutation(len(segs))
    lo = rng.uniform(-1, size, (20, 2))
    boxes = np.hstack([lo, lo + rng.uniform(0, size / 4, (20, 2))])

    def reads():
        return [grid.counts(boxes, rows), list(grid.pairs(boxes)),
                list(grid.pairs(grid.boxes(every), every, meeting=True)), grid.crossings(shuffled, len(segs))]

    assert_same_both_ways(reads)


@compiled_too
@settings(max_examples=15, deadline=None)
@given(n=sizes(shortest_paths), seed=st.integers(0, 2**32 - 1),
       diagonals=st.sampled_from(list(Diagonals)), limit=st.sampled_from([math.inf, 0.0, 3.5, 40.0]),
       density=st.sampled_from([0.0, 0.1, 0.4]))
def test_shortest_paths_same_both_ways(n, seed, diagonals, limit, density):
    rng = np.random.default_rng(seed)
    w = int(rng.integers(1, max(2, int(math.sqrt(n) * 2))))
    h = max(1, n // w)
    blocked = np.packbits(rng.random((h, w, 8)) < density, axis=-1, bitorder="little")[..., 0]
    start = np.where(rng.random((h, w)) < 0.05, rng.choice([0.0, 1.0, 1.5, 2.0, math.sqrt(2.0)], (h, w)), np.inf)
    parity = rng.integers(0, 2, (h, w)).astype(np.int8)
    assert_same_both_ways(lambda: path_distance(Window(2, 3, w, h), start, parity, blocked, diagonals, limit))


@compiled_too
@settings(max_examples=15, deadline=None)
@given(n=sizes(cheapest_paths), seed=st.integers(0, 2**32 - 1),
       diagonals=st.sampled_from(list(Diagonals)), terrain=st.sampled_from(list(ag.TerrainCost)),
       limit=st.sampled_from([math.inf, 0.0, 3.5, 40.0]), per_step=st.booleans())
def test_movement_paths_same_both_ways(n, seed, diagonals, terrain, limit, per_step):
    """Step costs by terrain kind (one per square, or per step into it) and the way back, both ways."""
    rng = np.random.default_rng(seed)
    w = int(rng.integers(1, max(2, int(math.sqrt(n) * 2))))
    h = max(1, n // w)
    blocked = np.packbits(rng.random((h, w, 8)) < 0.1, axis=-1, bitorder="little")[..., 0]
    kinds = rng.choice(np.array([0, 0, 1, 2, 3], dtype=np.int8), (8 if per_step else 1) * h * w)
    start = np.where(rng.random((h, w)) < 0.02, 0.0, np.inf)
    start.flat[0] = 0.0
    layers, table = step_costs(diagonals, terrain)
    args = (start, np.zeros(h * w, np.int8), blocked, kinds, h * w if per_step else 0, table, h, w, layers, limit)
    assert_same_both_ways(lambda: [np.asarray(a) for a in _kernels.run(cheapest_paths, layers * h * w, *args)])
    assert_same_both_ways(lambda: np.asarray(_kernels.run(shortest_paths, layers * h * w, *args)))


@compiled_too
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rules=st.sampled_from(["starfinder", "pf2e", "sw5e"]),
       size=st.sampled_from(["medium", "large", "huge"]))
def test_reachable_same_both_ways(seed, rules, size):
    rng = np.random.default_rng(seed)
    segs = random_walls(rng, 60, 40)
    kinds = rng.choice(np.array([0, 0, 0, 1, 2, 3], dtype=np.int8), (40, 40))
    kinds[18:23, 18:23] = 0
    m = ag.BattleMap(ag.Grid(40, 40), walls=[ag.Wall(s[:2], s[2:]) for s in segs.tolist()], terrain=kinds)
    me = ag.Token(20, 20, size=size, tags={"ally"})

    def reach():
        try:
            r = ag.reachable(me, 60, on=m, rules=rules)
        except ag.InvalidValueError:  # a wall through its space
            return "refused"
        return [r.cost, r.mask, [r.path(x, y) for x, y in r.squares[::7]]]

    assert_same_both_ways(reach)


@compiled_too
@settings(max_examples=12, deadline=None)
@given(n=sizes(step_bits, 16.0), seed=st.integers(0, 2**32 - 1), cut=st.booleans())
def test_step_bits_same_both_ways(n, seed, cut):
    rng = np.random.default_rng(seed)
    size = int(max(10.0, math.sqrt(n) * 2))
    segs = random_walls(rng, n, size)
    # Walls running out of the map, and across all of it.
    segs = np.vstack([segs, [[-5.0, 3.5, size + 5.0, 3.5], [2.0, -1e6, 2.0, 1e6]]])
    one_way = rng.choice([0, 0, 1, -1], len(segs)).astype(np.int8)
    window = Window(*map(int, rng.integers(-3, size // 2, 2)), *map(int, rng.integers(1, size, 2)))
    assert_same_both_ways(lambda: StepMasks(size, size, segs, one_way, cut=cut).window(window))


def test_origin_on_a_wall_is_refused_both_ways():
    segs = np.array([[0.0, 5.0, 10.0, 5.0]])
    for how in ("python", "compiled"):
        with kernels(how), pytest.raises(OriginOnWallError):
            visibility((4.0, 5.0), segs, np.zeros(1, np.int8), (0.0, 0.0, 10.0, 10.0))


# --- the choice: plain Python, compiled ---------------------------------------------------------


@pytest.fixture
def fresh(monkeypatch):
    """A new process's first kernel, numba not imported; ``compiled`` stands for the real modules."""
    monkeypatch.delenv("AOEGRID_KERNELS", raising=False)
    monkeypatch.setattr(_kernels, "_spent", 0.0)
    monkeypatch.setattr(_kernels, "_running", False)
    monkeypatch.setattr(_kernels, "compiled", lambda module: {"sweep": "compiled sweep"})
    monkeypatch.delitem(sys.modules, "numba", raising=False)  # not imported: its import counts
    return _sweep.sweep


def walls_costing(seconds):
    return seconds / _sweep.sweep.__cost__


def test_small_work_runs_as_plain_python(fresh):
    assert _kernels._compiled_for(fresh, walls_costing(0.001)) is None
    assert _kernels._spent == pytest.approx(0.001)


def test_large_work_is_compiled_at_once(fresh):
    assert _kernels._compiled_for(fresh, walls_costing(_kernels.AT_ONCE_SECONDS)) == "compiled sweep"


def test_repeated_work_is_compiled_once_it_has_cost_what_starting_numba_does(fresh):
    start = _kernels.IMPORT_SECONDS + _kernels.START_SECONDS
    calls = 0
    while _kernels._compiled_for(fresh, walls_costing(0.01)) is None:
        calls += 1
    assert calls * 0.01 < start <= (calls + 1) * 0.01 + 1e-9


def test_numba_imported_already_costs_only_its_start(fresh, monkeypatch):
    monkeypatch.setitem(sys.modules, "numba", types.ModuleType("numba"))
    calls = 0
    while _kernels._compiled_for(fresh, walls_costing(0.01)) is None:
        calls += 1
    assert calls * 0.01 < _kernels.START_SECONDS <= (calls + 1) * 0.01 + 1e-9


def test_once_a_kernel_ran_compiled_every_kernel_does_unless_told_not_to(fresh, monkeypatch):
    monkeypatch.setattr(_kernels, "_running", True)
    assert _kernels._compiled_for(fresh, 1) == "compiled sweep"
    monkeypatch.setenv("AOEGRID_KERNELS", "python")
    assert _kernels._compiled_for(fresh, walls_costing(10.0)) is None
    monkeypatch.setenv("AOEGRID_KERNELS", "compiled")
    monkeypatch.setattr(_kernels, "_running", False)
    assert _kernels._compiled_for(fresh, 1) == "compiled sweep"


def test_without_numba_large_work_runs_as_plain_python(fresh, monkeypatch):
    monkeypatch.setattr(_kernels, "compiled", lambda module: None)
    assert _kernels._compiled_for(fresh, walls_costing(10.0)) is None


# --- new processes ------------------------------------------------------------------------------

QUERIES = """
import hashlib, json, sys
import numpy as np
import aoegrid as ag

def digest(a):
    return hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()[:16]

def answers():
    cave = ag.demo_map()
    burst = ag.area(ag.Sphere(20), at=(10, 10), on=cave)
    spread = ag.area(ag.Sphere(20), at=(10, 10), on=cave, mode="spread")
    # Large enough for every kernel to be worth compiling (where numba is).
    rng = np.random.default_rng(5)
    pts = rng.uniform(0, 200, (3000, 2))
    big = ag.BattleMap(ag.Grid(200, 200), walls=[[tuple(p), tuple(p + rng.uniform(-3, 3, 2))] for p in pts])
    return {
        "cave burst": [digest(burst.mask), digest(burst.visible), digest(burst.cover)],
        "cave spread": [digest(spread.mask), digest(spread.path_distance)],
        "line of effect": digest(ag.line_of_effect(big, (100.5, 100.5))),
        "whole-map spread": digest(ag.area(ag.Sphere(1000), at=(100, 100), on=big, mode="spread",
                                           rules="pf2e").path_distance),
    }
"""

WITHOUT_NUMBA = """
sys.modules["numba"] = None  # import numba: ImportError, as where it is not installed
print(json.dumps(answers()))
assert sys.modules["numba"] is None, "numba was imported"
"""


def test_without_numba_every_query_works_and_answers_the_same():
    env = {k: v for k, v in os.environ.items() if k != "AOEGRID_KERNELS"}
    without = subprocess.run([sys.executable, "-c", QUERIES + WITHOUT_NUMBA], capture_output=True, text=True,
                             env=env, timeout=300, check=True).stdout
    compiled = subprocess.run([sys.executable, "-c", QUERIES + "print(json.dumps(answers()))"], capture_output=True,
                              text=True, env={**env, "AOEGRID_KERNELS": "compiled"}, timeout=300, check=True).stdout
    assert json.loads(without) == json.loads(compiled)


def test_small_maps_are_answered_without_importing_numba():
    code = textwrap.dedent("""
        import sys
        import aoegrid as ag
        cave = ag.demo_map()
        for mode in ("burst", "emanation", "spread"):
            len(ag.area(ag.Sphere(20), at=(10, 10), on=cave, mode=mode))
        len(ag.area(ag.Cone(30, "E"), at=(6, 11), on=cave, rules="sw5e"))
        ag.line_of_effect(cave, (6.5, 11.5))
        print("numba" in sys.modules)
    """)
    env = {k: v for k, v in os.environ.items() if k != "AOEGRID_KERNELS"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120,
                          check=True)
    assert done.stdout.strip() == "False"


@compiled_too
def test_compiled_kernels_load_from_numbas_cache_in_a_new_process(tmp_path):
    code = textwrap.dedent("""
        import numpy as np
        from aoegrid.geometry import _kernels
        from aoegrid.board import _meets
        relations = _kernels.compiled(_meets)["relations"]
        relations(np.zeros(4), np.ones(4))
        print(len(relations.stats.cache_hits), len(relations.stats.cache_misses))
    """)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300,
                           check=True).stdout.split() for _ in range(2)]
    assert runs == [["0", "1"], ["1", "0"]]  # compiled and cached, then loaded from the cache
