import math
import warnings

import pytest
import shapely

import aoegrid as ag
from aoegrid.errors import AoegridWarning, InvalidTypeError, InvalidValueError, OffGridError
from aoegrid.geometry.gridless import MAX_EXTENT, Gridless, OpenToken, frame_of, space_of


def test_gridless_value_object():
    t = Gridless(30, 20)
    assert (t.width, t.height, t.units, t.square) == (30.0, 20.0, "ft", 5.0)
    assert t == Gridless(30.0, 20.0, "ft")
    assert hash(t) == hash(Gridless(30, 20))
    assert t.extent == (30.0, 20.0)
    assert repr(t) == "Gridless(30.0, 20.0, units='ft')"
    assert repr(Gridless(36, 24, units="in", square=2)) == "Gridless(36.0, 24.0, units='in', square=2.0)"
    assert Gridless(36, 24, units="in").square == 1.0
    assert Gridless(10, 10, units="m").square == 1.5
    with pytest.raises(AttributeError):
        t.width = 3  # frozen


def test_gridless_contains_edges_and_box():
    t = Gridless(30, 20)
    assert t.contains_point((0, 0)) and t.contains_point((30, 20)) and t.contains_point((12.25, 19.999))
    assert not t.contains_point((-0.001, 5)) and not t.contains_point((5, 20.001))
    assert t.box().bounds == (0.0, 0.0, 30.0, 20.0)
    assert frame_of(t) == (-1.0, -1.0, 31.0, 21.0)


@pytest.mark.parametrize(
    ("args", "kw", "error", "match"),
    [
        ((0, 5), {}, InvalidValueError, "Gridless width must be greater than 0, got 0"),
        ((5, -1), {}, InvalidValueError, "Gridless height must be greater than 0, got -1"),
        ((math.inf, 5), {}, InvalidValueError, "Gridless width must be a finite number"),
        ((math.nan, 5), {}, InvalidValueError, "Gridless width must be a finite number"),
        ((2e6, 5), {}, InvalidValueError, "Gridless width must be at most 1e\\+06"),
        (("30", 5), {}, InvalidTypeError, "Gridless width must be a number, got '30'"),
        ((True, 5), {}, InvalidTypeError, "Gridless width must be a number"),
        ((5, 5), {"units": ""}, InvalidTypeError, "Gridless units must be a non-empty string"),
        ((5, 5), {"units": 3}, InvalidTypeError, "Gridless units must be a non-empty string"),
        ((5, 5), {"units": "hands"}, InvalidValueError, "Gridless units 'hands' has no default square; pass square="),
        ((5, 5), {"square": 0}, InvalidValueError, "Gridless square must be greater than 0"),
    ],
)
def test_gridless_errors(args, kw, error, match):
    with pytest.raises(error, match=match):
        Gridless(*args, **kw)


def test_gridless_largest():
    assert Gridless(MAX_EXTENT, 1).width == 1e6
    assert Gridless(5, 5, units="hands", square=2).square == 2.0


def test_gridless_contains_refuses_bad_points():
    with pytest.raises(InvalidTypeError, match="Gridless point must be an \\(x, y\\) pair"):
        Gridless(5, 5).contains_point(3)


def test_open_token_fields_and_footprints():
    orc = OpenToken(12.5, 7, name="orc", tags=["enemy"])
    assert orc.center == (12.5, 7.0) and orc.tags == frozenset({"enemy"}) and orc.label == "orc"
    assert orc.radius("ft") == 2.5 and orc.radius("in") == 0.5 and orc.radius(Gridless(9, 9)) == 2.5
    assert OpenToken(0, 0, size="large").radius("ft") == 5.0
    assert OpenToken(0, 0, size="huge").radius("ft") == 7.5
    assert OpenToken(0, 0, size="gargantuan").radius("ft") == 10.0
    assert OpenToken(0, 0, size="tiny").radius("ft") == 2.5  # a square, as aoegrid.Token
    assert OpenToken(0, 0, size=0.5).radius("ft") == 1.25
    assert OpenToken(0, 0, width=3).radius("ft") == 1.5
    assert OpenToken(1, 2, footprint="rect").half_extent("ft") == (2.5, 2.5)
    assert OpenToken(1, 2, footprint="rect", width=10, depth=4).half_extent("ft") == (5.0, 2.0)
    assert OpenToken(0, 0, size="Large").size == "large"
    assert OpenToken(3.5, 2).label == "token at (3.5, 2)"


def test_open_token_geometry_is_close_to_the_exact_circle():
    g = OpenToken(10, 10, size="large").geometry("ft")
    assert g.area == pytest.approx(math.pi * 25, rel=1e-4)
    assert g.area < math.pi * 25  # inscribed: its sides are inside the circle
    xs, ys = shapely.get_coordinates(g).T
    assert max(abs(math.hypot(x - 10, y - 10) - 5) for x, y in zip(xs, ys)) < 1e-12
    assert OpenToken(3, 3, footprint="rect", width=10, depth=4).geometry("ft").bounds == (-2.0, 1.0, 8.0, 5.0)


def test_open_token_prism_and_moves():
    assert OpenToken(0, 0).prism(5.0) == (0.0, 5.0)
    assert OpenToken(0, 0, size="large", elevation=10).prism(5.0) == (10.0, 20.0)
    assert OpenToken(0, 0, height=2.5, elevation=1).prism(5.0) == (1.0, 3.5)
    orc = OpenToken(1, 2, name="orc", tags={"enemy"})
    assert orc.moved_to(4.5, 6).center == (4.5, 6.0) and orc.moved_to(4.5, 6).tags == orc.tags
    assert orc.shifted(-1, 0.5).center == (0.0, 2.5)


def test_open_token_repr():
    assert repr(OpenToken(1, 2)) == "OpenToken(x=1.0, y=2.0, size='medium', name=None)"
    assert repr(OpenToken(1, 2, name="o", tags={"b", "a"}, elevation=5, footprint="rect", width=3)) == (
        "OpenToken(x=1.0, y=2.0, size='medium', name='o', elevation=5.0, tags=['a', 'b'], width=3.0, "
        "footprint='rect')"
    )


@pytest.mark.parametrize(
    ("kw", "error", "match"),
    [
        ({"x": "1"}, InvalidTypeError, "OpenToken x must be a number, got '1'"),
        ({"y": math.inf}, InvalidValueError, "OpenToken y must be a finite number"),
        ({"size": "vast"}, InvalidValueError, "unknown OpenToken size 'vast'; valid sizes are 'tiny'"),
        ({"size": 0}, InvalidValueError, "OpenToken size must be greater than 0, got 0"),
        ({"size": None}, InvalidTypeError, "OpenToken size must be a number"),
        ({"name": 3}, InvalidTypeError, "OpenToken name must be a string, got 3"),
        ({"tags": "enemy"}, InvalidTypeError, "OpenToken tags must be a collection of strings"),
        ({"tags": [1]}, InvalidTypeError, "OpenToken tags must be strings"),
        ({"height": -1}, InvalidValueError, "OpenToken height must be greater than 0"),
        ({"footprint": "hex"}, InvalidValueError, "unknown OpenToken footprint 'hex'; valid choices are"),
        ({"width": 0}, InvalidValueError, "OpenToken width must be greater than 0"),
        ({"depth": 3}, InvalidValueError, "OpenToken depth is for footprint='rect'"),
        ({"footprint": "rect", "depth": -3}, InvalidValueError, "OpenToken depth must be greater than 0"),
        ({"elevation": None}, InvalidTypeError, "OpenToken elevation must be a number"),
    ],
)
def test_open_token_errors(kw, error, match):
    args = {"x": 1.0, "y": 1.0, **kw}
    with pytest.raises(error, match=match):
        OpenToken(**args)


def test_space_of_errors():
    with pytest.raises(InvalidValueError, match="unknown units 'hands'; valid units are 'ft'"):
        space_of("hands")
    with pytest.raises(InvalidValueError, match="must be greater than 0"):
        space_of(-5)


def test_battlemap_on_the_open_table():
    m = ag.BattleMap(Gridless(30, 20), walls=[ag.Wall((15, 0), (15, 12))],
                     tokens=[OpenToken(5, 5, name="a"), OpenToken(20.5, 17.25)])
    assert m.size == (30.0, 20.0) and m.cell_size == 1.0
    assert repr(m) == "<BattleMap 30x20, 1 wall (0 doors or windows), 0 fog zones, 2 tokens>"
    moved = m.move_token("a", 7.5, 3)
    assert moved.token("a").center == (7.5, 3.0) and moved.token("token at (20.5, 17.25)").x == 20.5
    assert m.with_token(m.tokens[0], OpenToken(2.5, 2.5, name="b")).tokens[0].name == "b"
    poly = m.visibility("effect", (5, 5), (0, 0, 30, 20)).polygon()
    # The wall hides x > 15 above the line from (5, 5) through its end (15, 12), which meets y = 20 at
    # x = 5 + 15 / 0.7.
    shadow = shapely.Polygon([(15, 0), (30, 0), (30, 20), (5 + 15 / 0.7, 20), (15, 12)])
    assert shapely.Polygon(poly).area == pytest.approx(600 - shadow.area, abs=1e-9)
    assert shadow.area == pytest.approx(254.2857142857, abs=1e-9)


@pytest.mark.parametrize(
    ("token", "error", "match"),
    [
        (OpenToken(31, 5, name="far"), OffGridError, (r"far \(a circle 5 across centred at \(31, 5\), spanning x "
                                                       r"28.5..33.5, y 2.5..7.5\) is not wholly on the 30 x 20 ft map")),
        # The centre is on the map, the footprint is not.
        (OpenToken(1, 10, name="edge"), OffGridError, r"edge \(a circle 5 across centred at \(1, 10\), spanning x -1.5..3.5"),
        (OpenToken(28, 10, name="cart", footprint="rect", width=6, depth=2), OffGridError,
         r"cart \(a 6 x 2 rectangle centred at \(28, 10\), spanning x 25..31, y 9..11\) is not wholly on the 30 x 20"),
        (ag.Token(1, 1), InvalidTypeError, "tokens on a gridless map must be aoegrid.OpenToken"),
    ],
)
def test_battlemap_refuses_bad_open_tokens(token, error, match):
    with pytest.raises(error, match=match):
        ag.BattleMap(Gridless(30, 20), tokens=[token])


def test_battlemap_takes_a_footprint_touching_the_edge():
    m = ag.BattleMap(Gridless(30, 20), tokens=[OpenToken(2.5, 17.5), OpenToken(27, 1, footprint="rect", width=6, depth=2)])
    assert len(m.tokens) == 2


def test_footprint_polygons_are_shared():
    a, b = OpenToken(3, 4, name="a"), OpenToken(3, 4, name="b")
    assert a.geometry("ft") is b.geometry("ft") and a.geometry("in") is not a.geometry("ft")


def test_battlemap_warns_of_a_wall_through_a_footprint_and_refuses_terrain():
    with pytest.warns(AoegridWarning, match="stands where a wall runs through its footprint"):
        ag.BattleMap(Gridless(30, 20), walls=[ag.Wall((6, 0), (6, 20))], tokens=[OpenToken(5, 5, name="a")])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # Just clear of the footprint; and a low wall the flyer passes over.
        ag.BattleMap(Gridless(30, 20), walls=[ag.Wall((7.6, 0), (7.6, 20))], tokens=[OpenToken(5, 5)])
        ag.BattleMap(Gridless(30, 20), walls=[ag.Wall((5, 0), (5, 20), top=3)],
                     tokens=[OpenToken(5, 5, elevation=10)])
    with pytest.raises(InvalidValueError, match="terrain is read on square grids only.*aoegrid.Gridless"):
        ag.BattleMap(Gridless(30, 20), terrain={"difficult": [[(0, 0), (5, 0), (5, 5)]]})
    with pytest.raises(InvalidTypeError, match="BattleMap grid must be an aoegrid.Grid, aoegrid.HexGrid or aoegrid.Gridless"):
        ag.BattleMap("30x20")
