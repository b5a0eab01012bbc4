import math

import pytest

import aoegrid as ag


def test_shapes_are_frozen_values():
    s = ag.Sphere(20)
    assert s == ag.Sphere(20.0) and hash(s) == hash(ag.Sphere(20))
    with pytest.raises(AttributeError):
        s.radius = 30  # type: ignore[misc]


def test_directions_accept_compass_names_and_wrap():
    assert ag.Cone(30, "S").direction == 90.0
    assert ag.Cone(30, "ne").direction == 315.0
    assert ag.Line(30, -90).direction == 270.0
    assert ag.Cube(10, 720).direction == 0.0


def test_replace_revalidates():
    c = ag.Cone(30, "S", kind="triangle")
    assert c.replace(direction="E") == ag.Cone(30, 0, kind="triangle")
    with pytest.raises(ag.InvalidValueError, match=r"Cone length must be greater than 0, got -5"):
        c.replace(length=-5)


def test_line_and_cube_options():
    line = ag.Line(60, "E")
    assert line.width is None and line.side is ag.Side.RIGHT
    assert ag.Line(60, "E", width=10, side="left").side is ag.Side.LEFT
    assert ag.Cube(10, anchor="right").anchor is ag.Anchor.RIGHT
    assert math.isclose(ag.Cube(10).reach, 10 * math.sqrt(2))


@pytest.mark.parametrize(
    ("make", "match"),
    [
        (lambda: ag.Sphere(0), r"Sphere radius must be greater than 0, got 0"),
        (lambda: ag.Sphere(float("inf")), r"Sphere radius must be a finite number, got inf"),
        (lambda: ag.Sphere(float("nan")), r"Sphere radius must be a finite number, got nan"),
        (lambda: ag.Sphere("20"), r"Sphere radius must be a number, got '20' of type str"),
        (lambda: ag.Cylinder(10, -1), r"Cylinder height must be greater than 0, got -1"),
        (lambda: ag.Cone(30, "up"), r"unknown Cone direction 'up'; give degrees clockwise from east .* E, SE, S"),
        (lambda: ag.Cone(30, 0, kind="wedge"), r"unknown Cone kind 'wedge'; valid choices are 'quarter-circle', 'triangle', 'teardrop'"),
        (lambda: ag.Line(30, 0, width=-5), r"Line width must be 0 or more, got -5"),
        (lambda: ag.Line(30, 0, side="up"), r"unknown Line side 'up'; valid choices are 'right', 'left'"),
        (lambda: ag.Cube(10, anchor="top"), r"unknown Cube anchor 'top'; valid choices are 'center', 'left', 'right'"),
        (lambda: ag.Shapable([]), r"Shapable needs at least one square, got none"),
        (lambda: ag.Shapable([(0.5, 0)]), r"Shapable square \(0.5, 0\) must have whole-number offsets"),
        (lambda: ag.Shapable([(1, 2, 3)]), r"Shapable squares must be \(dx, dy\) pairs"),
    ],
)
def test_bad_shapes(make, match):
    with pytest.raises(ag.AoegridError, match=match):
        make()


@pytest.mark.parametrize(
    ("make", "error", "match"),
    [
        (lambda: ag.Sphere(10**400), ag.InvalidValueError,
         r"Sphere radius must be a finite number, got ~1e400, beyond the float range \(about 1\.8e308\)"),
        (lambda: ag.Cone(-(10**5000)), ag.InvalidValueError, r"Cone length must be a finite number, got -~1e5000"),
        (lambda: ag.Shapable([(10**400, 0)]), ag.InvalidValueError,
         r"Shapable square \(1000.*\.\.\. has an offset beyond \+-2\*\*53 squares"),
        (lambda: ag.Shapable([(True, 0)]), ag.InvalidTypeError, r"Shapable square offset must be a number, got True"),
        (lambda: ag.Shapable([(float("nan"), 0)]), ag.InvalidValueError,
         r"Shapable square offset must be a finite number, got nan"),
    ],
)
def test_numbers_past_the_float_range(make, error, match):
    with pytest.raises(error, match=match):
        make()


def test_shapable_offsets_take_any_whole_number_type():
    import numpy as np

    assert ag.Shapable([(np.int64(1), 2.0)]).squares == frozenset({(1, 2)})
