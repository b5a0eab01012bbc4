"""Hostile input (issue 10): any map file, number, CSV row or argument gives an
answer or one clear error, in bounded time and memory.

Every property here asserts that only aoegrid's own errors (``AoegridError``)
escape, with warnings turned into errors (aoegrid's own warnings aside), each
example under a time limit and, in this process, a memory limit. A few map
files are also read in a child process under a hard memory limit, where an
allocation past it cannot take the test run down with it.

Each property runs twice: a short deterministic run in the normal suite, and a
long random one marked ``fuzz`` (deselected by default: ``pytest -m fuzz``).
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import math
import os
import subprocess
import sys
import textwrap
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import aoegrid as ag
from aoegrid.cli import main

MAPS = Path(__file__).resolve().parent / "data"

#: Seconds one in-process example may take, and bytes the tests may add to
#: what this process used when they started.
SECONDS = 20
MEMORY = 2 * 2**30


def _address_space() -> int | None:
    """Bytes of address space this process uses now (Linux), or None."""
    statm = Path("/proc/self/statm")
    return int(statm.read_text().split()[0]) * os.sysconf("SC_PAGE_SIZE") if statm.exists() else None


# Fixed once: failing examples keep their arrays alive in the tracebacks
# Hypothesis reports, so a limit above each example's own start would ratchet up.
_START = _address_space()


def runs(quick: int, long: int) -> pytest.MarkDecorator:
    """Parametrize a property with its number of examples: a short run, and a long one marked ``fuzz``."""
    return pytest.mark.parametrize(
        "examples", [pytest.param(quick, id="quick"), pytest.param(long, id="long", marks=pytest.mark.fuzz)]
    )


def check(examples: int) -> settings:
    """Hypothesis settings: the quick run follows the profile (the same examples every run unless
    exploring); the long one always draws new ones."""
    repeat = settings.default.derandomize and examples < 1000
    return settings(max_examples=examples, deadline=None, derandomize=repeat, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@contextlib.contextmanager
def bounded() -> Iterator[None]:
    """A time and memory limit around one example, and warnings as errors.

    Time: SIGALRM raises TimeoutError. Memory: the soft address-space limit is
    lowered to what the process used when this module was imported plus
    ``MEMORY``, so an oversized allocation raises MemoryError here instead of
    waking the OOM killer.
    Either one escaping fails the property. Where there is no SIGALRM or
    RLIMIT_AS (Windows), the example runs unbounded.
    """
    import signal

    try:
        import resource
    except ImportError:  # Windows
        resource = None  # type: ignore[assignment]
    alarm = hasattr(signal, "setitimer")
    old_limit = None
    if resource is not None and _START is not None:
        old_limit = resource.getrlimit(resource.RLIMIT_AS)
        hard = old_limit[1]
        soft = _START + MEMORY
        resource.setrlimit(resource.RLIMIT_AS, (soft if hard == resource.RLIM_INFINITY else min(soft, hard), hard))

    def timeout(*_: object) -> None:
        raise TimeoutError(f"an example took more than {SECONDS} s")

    if alarm:
        previous = signal.signal(signal.SIGALRM, timeout)
        signal.setitimer(signal.ITIMER_REAL, SECONDS)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            warnings.simplefilter("ignore", ag.AoegridWarning)  # odd input aoegrid still answers for
            yield
    finally:
        if alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
        if old_limit is not None:
            resource.setrlimit(resource.RLIMIT_AS, old_limit)


def answers_or_refuses(call: Callable[[], Any]) -> Any:
    """``call()``'s answer, or None when it raised an AoegridError; anything else escapes."""
    with bounded():
        try:
            return call()
        except ag.AoegridError as exc:
            assert str(exc) and "\n" not in str(exc), f"not a one-line message: {exc!r}"
            return None


# --------------------------------------------------------------------------
# Numbers at the edges of float and int
# --------------------------------------------------------------------------

EDGES = [0, -0.0, 5e-324, 1e-300, 1e-9, 0.5, 1, 5, 20, 1e6, 1e9, 1e15, 1e300, 1e308, -1e308, -5, 2**53 + 1,
         10**400, -(10**400), math.nan, math.inf, -math.inf, True, False, "20", "nan", None, [], (1, 2)]
# Half plain values that make an answer, so the properties get past validation too.
numbers = st.one_of(st.sampled_from(EDGES), st.floats(), st.integers(), st.text(max_size=3),
                    st.floats(0, 40), st.integers(0, 12), st.floats(0, 40), st.integers(0, 12))
directions = st.one_of(numbers, st.sampled_from(["N", "se", " E ", "up", ""]))
presets = st.sampled_from(["starfinder", "pf2e", "sw5e", "savage-worlds", "d20", 5])
modes = st.sampled_from(["burst", "emanation", "spread", "SPREAD", "x", None])


def shapes_from(size: st.SearchStrategy[Any]) -> st.SearchStrategy[Callable[[], Any]]:
    """Calls making any shape from the numbers ``size`` draws."""
    return st.one_of(
        st.builds(lambda r: lambda: ag.Sphere(r), size),
        st.builds(lambda r, h: lambda: ag.Cylinder(r, h), size, numbers),
        st.builds(lambda n, d, k: lambda: ag.Cone(n, d, kind=k), size, directions,
                  st.sampled_from([None, "triangle", "teardrop", "quarter-circle", "wedge", 3])),
        st.builds(lambda n, d, w, s: lambda: ag.Line(n, d, width=w, side=s), size, directions,
                  st.one_of(st.none(), numbers), st.sampled_from(["left", "right", "up", 0])),
        st.builds(lambda n, d, a: lambda: ag.Cube(n, d, anchor=a), size, directions,
                  st.sampled_from(["center", "left", "right", "top"])),
        st.builds(lambda a, b: lambda: ag.Shapable([(a, b), (0, 0), (1, 0), (0, 1), (1, 1)]), numbers, numbers),
    )


@runs(200, 20_000)
def test_values_take_any_number(examples):
    @check(examples)
    @given(shapes_from(numbers), numbers, numbers, numbers, numbers)
    def prop(make_shape, a, b, c, d):
        answers_or_refuses(make_shape)
        answers_or_refuses(lambda: ag.Token(a, b, size=c, elevation=d))
        answers_or_refuses(lambda: ag.Space(a, b, c, d))
        answers_or_refuses(lambda: ag.Grid(a, b, square=c))
        answers_or_refuses(lambda: ag.Grid(3, 3, square=d, units="in"))
        answers_or_refuses(lambda: ag.distance((a, b), (c, d), "alternating", square=5))

    prop()


@runs(200, 20_000)
def test_ranges_and_casting_numbers_take_any_number(examples):
    caster, grid = ag.Token(2, 2), ag.Grid(12, 9)
    swade, sw5e = ag.savage_worlds, ag.sw5e

    def measured(rng: ag.Range) -> tuple[float, bool]:
        # Every reading of a range accepted at construction answers.
        check = ag.in_range(caster, (8, 8), rng, "starfinder", grid)
        clipped = ag.clip_to_range(ag.area(ag.Sphere(10), at=(8, 8), on=grid), caster, rng)
        return rng.feet, check.in_range and len(clipped) >= 0

    @check(examples)
    @given(numbers, numbers, st.sampled_from(["close", "medium", "long", "feet", "touch", 60]), numbers)
    def prop(a, b, kind, c):
        rng = answers_or_refuses(lambda: ag.Range(kind, level=a) if kind != "feet" else ag.Range(a))
        if rng is not None:
            answers_or_refuses(lambda: measured(rng))
            answers_or_refuses(lambda: measured(rng.times(b)))
            answers_or_refuses(lambda: rng.increments(c))
        answers_or_refuses(lambda: swade.recovered(a))
        answers_or_refuses(lambda: swade.power_cost(a, {"range": b}))
        answers_or_refuses(lambda: swade.maintenance_cost(a, b))
        answers_or_refuses(lambda: swade.armor_piercing_cost(a))
        answers_or_refuses(lambda: swade.shorting(a, b))
        answers_or_refuses(lambda: swade.activation(a, b))
        answers_or_refuses(lambda: sw5e.point_cost(a, b))
        answers_or_refuses(lambda: sw5e.save_dc(a, b, c))
        answers_or_refuses(lambda: sw5e.concentration_dc(a))

    prop()


@runs(150, 10_000)
def test_areas_take_any_number(examples):
    grid = ag.Grid(12, 9)
    inches = ag.Grid(12, 9, units="in")

    @check(examples)
    @given(shapes_from(numbers), numbers, numbers, numbers, presets, modes, numbers)
    def prop(make_shape, x, y, elevation, rules, mode, margin):
        shape = answers_or_refuses(make_shape)
        if shape is None:
            return
        on = inches if rules == "savage-worlds" else grid
        a = answers_or_refuses(lambda: ag.area(shape, at=(x, y), on=on, rules=rules, mode=mode, elevation=elevation))
        if a is None:
            return
        assert a.mask.shape == on.shape
        with bounded():
            assert isinstance((x, y) in a, bool)
        answers_or_refuses(lambda: a.to_text(margin=margin))

    prop()


# Remove once fixed: area() then clips shapes larger than the grid without overflowing.
@runs(60, 3_000)
def test_areas_of_any_size_on_a_map(examples):
    """Real walls make visibility, cover and spreads run on the huge and the tiny too."""
    m = ag.read_text_map("""
        #########
        #a......#
        #...#####
        #...+..b#
        #########
    """)

    @check(examples)
    @given(shapes_from(st.sampled_from([1e-9, 5e-324, 5, 20, 1e6, 1e9, 1e15, 1e300, 1.7e308])),
           st.sampled_from(["starfinder", "pf2e", "sw5e"]), st.sampled_from(["burst", "emanation", "spread"]),
           st.sampled_from([0, 1e300, -1e308, 35]), st.sampled_from([(2, 2), (2.5, 1.5), (1, 1)]))
    def prop(make_shape, rules, mode, elevation, at):
        shape = answers_or_refuses(make_shape)
        if shape is not None:
            a = answers_or_refuses(lambda: ag.area(shape, at=at, on=m, rules=rules, mode=mode, elevation=elevation))
            if a is not None:
                answers_or_refuses(a.tokens)

    prop()


# --------------------------------------------------------------------------
# Map files: mutations of real ones
# --------------------------------------------------------------------------

FOUNDRY = {"name": "s", "width": 1000, "height": 800, "padding": 0.25,
           "grid": {"type": 1, "size": 100, "distance": 5, "units": "ft"},
           "walls": [{"c": [300, 200, 700, 200]}, {"c": [700, 200, 700, 600], "door": 1, "ds": 0},
                     {"c": [300, 600, 700, 600], "sight": 10, "dir": 1}],
           "tokens": [], "lights": []}
FOUNDRY_07 = {"width": 1000, "height": 800, "grid": 100, "gridType": 1, "gridDistance": 5, "gridUnits": "ft",
              "walls": [{"c": [300, 200, 700, 200], "sense": 1, "move": 1}]}
BASES = {
    "room.dd2vtt": json.loads((MAPS / "sample-room-imagix.noimage.dd2vtt").read_text()),
    "scene.json": FOUNDRY,
    "old-scene.json": FOUNDRY_07,
}

JUNK = [None, True, 0, -1, 2, 10**400, -(10**400), 1e308, -1e308, 5e-324, math.nan, math.inf, "NaN", "Infinity",
        "1e999", "", "\x00", {}, [], [[[]]], {"x": {"y": [None]}}, [1, 2, 3, 4], {"x": 1e308, "y": 1e308}]
junk = st.recursive(st.sampled_from(JUNK) | st.floats() | st.integers() | st.text(max_size=4),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
                    max_leaves=8)


def paths(doc: Any, prefix: tuple = ()) -> list[tuple]:
    """Every path to a value in a JSON document (object keys and list indexes)."""
    out = [prefix]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += paths(v, (*prefix, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc[:6]):  # the first few items of a long list are enough
            out += paths(v, (*prefix, i))
    return out


@st.composite
def mutated(draw: st.DrawFn) -> tuple[str, Any]:
    """A base map with a few values deleted or replaced by junk."""
    name = draw(st.sampled_from(sorted(BASES)))
    doc = copy.deepcopy(BASES[name])
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(paths(doc)))
        if not path:
            continue
        parent = doc
        for key in path[:-1]:
            parent = parent[key]
        if draw(st.booleans()):
            del parent[path[-1]]
        else:
            parent[path[-1]] = copy.deepcopy(draw(junk))  # JUNK's lists and objects are shared
    return name, doc


def write_map(folder: Path, name: str, doc: Any, encoding: str = "utf-8") -> Path:
    path = folder / name
    # allow_nan: NaN and Infinity are what a sloppy writer puts in a file
    path.write_bytes(json.dumps(doc, allow_nan=True).encode(encoding))
    return path


@runs(150, 10_000)
def test_mutated_map_files_load_or_name_the_problem(tmp_path, examples):
    @check(examples)
    @given(mutated(), st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-32-be"]))
    def prop(named, encoding):
        m = answers_or_refuses(lambda: ag.load_map(write_map(tmp_path, *named, encoding)))
        if m is not None:
            at = (m.grid.width / 2, m.grid.height / 2)
            answers_or_refuses(lambda: ag.area(ag.Sphere(15), at=at, on=m, mode="spread"))

    prop()


@runs(100, 10_000)
def test_text_maps_of_any_bytes(tmp_path, examples):
    path = tmp_path / "m.txt"

    @check(examples)
    @given(st.one_of(st.binary(max_size=40),
                     st.text(alphabet="#.+'ab \n\t\ufeff\x00é", max_size=40).map(str.encode),
                     st.sampled_from([b"\xff\xfe#\x00\n\x00", b"\xfe\xff\x00#", b"\xef\xbb\xbf#.\n.#", b"#.#\n.\xff.\n"])))
    def prop(data):
        path.write_bytes(data)
        answers_or_refuses(lambda: ag.load_map(path))

    prop()


CHILD = textwrap.dedent("""
    import resource, sys, warnings
    resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
    warnings.simplefilter("error")
    import aoegrid as ag
    warnings.simplefilter("ignore", ag.AoegridWarning)
    try:
        m = ag.load_map(sys.argv[1])
        ag.area(ag.Sphere(15), at=(m.grid.width / 2, m.grid.height / 2), on=m)
    except ag.AoegridError as exc:
        print("refused:", exc)
""")


@pytest.mark.skipif(sys.platform == "win32", reason="needs RLIMIT_AS")
@runs(3, 200)
def test_map_files_in_a_child_under_a_memory_limit(tmp_path, examples):
    """Huge sizes and far walls: a child process may use 2 GB, and a minute."""

    @check(examples)
    @given(mutated())
    def prop(named):
        path = write_map(tmp_path, *named)
        done = subprocess.run([sys.executable, "-c", CHILD.format(limit=2 * 2**30), str(path)],
                              capture_output=True, text=True, timeout=60, check=False)
        assert done.returncode == 0 and done.stderr == "", done.stderr

    prop()


# --------------------------------------------------------------------------
# The command line: CSV rows and arguments
# --------------------------------------------------------------------------

cells = st.one_of(st.sampled_from(["", " ", "sphere", "cone", "line", "cube", "cylinder", "blob", "20", "1e9", "1e308",
                                   "-5", "0", "nan", "inf", "1" * 401, "E", "sw5e", "pf2e", "spread", '"', "a,b",
                                   "\x00", "é"]),
                  st.text(max_size=6))


def one_line_or_success(code: int, out: str, err: str) -> None:
    assert code in (0, 2), (code, err)
    if code == 2:
        assert err.startswith("aoegrid: error: ") and err.count("\n") == 1, err
        assert "internal error" not in err and "too large to compute" not in err, err
    else:
        assert err == "" and out


def cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        code = main(list(argv), stdout=out, stderr=err)
    except SystemExit as exc:  # argparse: usage errors, printed to sys.stderr
        code = exc.code  # type: ignore[assignment]
        return code, "", "aoegrid: error: (argparse)\n"
    return code, out.getvalue(), err.getvalue()


@runs(60, 5_000)
def test_batch_rows_of_anything(tmp_path, examples):
    csv_path = tmp_path / "p.csv"
    header = ["shape", "size", "x", "y", "rules", "mode", "direction", "width", "height", "elevation"]

    @check(examples)
    @given(st.lists(st.lists(cells, min_size=10, max_size=10), min_size=1, max_size=3),
           st.sampled_from(["utf-8", "utf-8-sig", "utf-16"]))
    def prop(rows, encoding):
        import csv

        text = io.StringIO()
        csv.writer(text).writerows([header, *rows])
        csv_path.write_bytes(text.getvalue().encode(encoding, "surrogatepass"))
        with bounded():
            one_line_or_success(*cli("batch", "@demo", str(csv_path)))

    prop()


@runs(60, 5_000)
def test_area_arguments_of_anything(tmp_path, examples):
    texts = st.one_of(st.sampled_from(["0", "-5", "nan", "inf", "1e6", "1e308", "1" * 401, "20", "E", "x"]),
                      st.floats().map(repr))

    @check(examples)
    @given(st.sampled_from(["sphere", "cone", "line", "cube", "cylinder"]), texts, texts, texts, texts, texts,
           st.sampled_from(["starfinder", "pf2e", "sw5e", "savage-worlds", "x"]))
    def prop(shape, size, x, scale, direction, elevation, rules):
        out = tmp_path / "a.png"
        out.unlink(missing_ok=True)
        with bounded():
            one_line_or_success(*cli("area", "@demo", "--shape", shape, f"--size={size}", f"--at={x},3",
                                     f"--scale={scale}", f"--direction={direction}", f"--elevation={elevation}",
                                     f"--rules={rules}", "-o", str(out)))

    prop()


# --------------------------------------------------------------------------
# The cases issue 10 lists, one by one
# --------------------------------------------------------------------------


def test_text_margin_names_the_argument():
    a = ag.area(ag.Sphere(10), at=(5, 5), on=ag.Grid(10, 10))
    with pytest.raises(ag.InvalidTypeError, match=r"to_text margin must be a whole number, got 'x' of type str"):
        a.to_text(margin="x")
    with pytest.raises(ag.InvalidValueError, match=r"to_text margin must be at least 0, got -1"):
        a.to_text(margin=-1)
    assert a.to_text(margin=10**400) == a.to_text()


def test_a_point_at_infinity_is_in_no_area():
    a = ag.area(ag.Sphere(10), at=(5, 5), on=ag.Grid(10, 10))
    assert (math.inf, 0) not in a and (math.nan, 0) not in a and (10**400, 0) not in a


def test_line_of_effect_channel_lists_the_choices():
    m = ag.BattleMap(ag.Grid(4, 4))
    with pytest.raises(ag.InvalidValueError, match=r"'EFFECTS'.*'effect', 'sight', 'movement'"):
        ag.line_of_effect(m, (1, 1), "EFFECTS")


@pytest.mark.parametrize(
    ("shape", "rules", "units"),
    [(ag.Sphere(1e300), "savage-worlds", "in"), (ag.Cone(1e300, 10), "sw5e", "ft"), (ag.Cube(1e300, 10), "sw5e", "ft"),
     (ag.Cone(1e300, 10), "starfinder", "ft"), (ag.Cone(1e9, 0), "sw5e", "ft")],
)
def test_huge_shapes_are_clipped_to_the_grid(shape, rules, units):
    grid = ag.Grid(10, 10, units=units)
    with bounded():
        a = ag.area(shape, at=(5, 5), on=grid, rules=rules)
    assert len(a) == len(ag.area(shape.replace(**{shape_field(shape): 1000}), at=(5, 5), on=grid, rules=rules))


def shape_field(shape: Any) -> str:
    return next(f for f in ("radius", "length", "size") if hasattr(shape, f))
