import pytest

import aoegrid as ag


def test_defaults_and_shape():
    g = ag.Grid(width=40, height=30)
    assert (g.width, g.height, g.square, g.units) == (40, 30, 5.0, "ft")
    assert g.shape == (30, 40)
    assert ag.Grid(3, 3, units="in").square == 1.0
    assert ag.Grid(3, 3, square=10).to_squares(25) == 2.5


def test_border_intersections_are_on_the_grid():
    g = ag.Grid(4, 3)
    assert g.contains_point((0, 0)) and g.contains_point((4, 3))
    assert not g.contains_point((4.01, 1)) and not g.contains_point((-0.5, 1))


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"width": 0, "height": 3}, r"Grid width must be at least 1, got 0"),
        ({"width": 3, "height": -2}, r"Grid height must be at least 1, got -2"),
        ({"width": 2.5, "height": 3}, r"Grid width must be a whole number, got 2.5"),
        ({"width": 3, "height": 3, "square": 0}, r"Grid square must be greater than 0, got 0"),
        ({"width": 3, "height": 3, "square": float("nan")}, r"Grid square must be a finite number"),
        ({"width": 3, "height": 3, "units": "cubits"}, r"units 'cubits' has no default square size"),
    ],
)
def test_bad_grids(kwargs, match):
    with pytest.raises(ag.AoegridError, match=match):
        ag.Grid(**kwargs)


def test_huge_grid_is_refused_before_allocating():
    with pytest.raises(ag.GridTooLargeError, match=r"a 1000000 x 1000000 grid has 1,000,000,000,000 squares"):
        ag.Grid(10**6, 10**6)
    with pytest.raises(ValueError):  # also a ValueError for callers that know no aoegrid
        ag.Grid(10**6, 10**6)


def test_numbers_past_the_float_range():
    with pytest.raises(ag.GridTooLargeError, match=r"^a ~1e400 x 1 grid has ~1e400 squares, more than the [\d,]+ this machine can query whole"):
        ag.Grid(10**400, 1)
    with pytest.raises(ag.InvalidValueError, match=r"Grid square must be a finite number, got ~1e400, beyond the float range"):
        ag.Grid(3, 3, square=10**400)


def test_numpy_integers_are_whole_numbers():
    import numpy as np

    assert ag.Grid(np.int64(4), np.int32(3)).shape == (3, 4)


def test_an_accepted_grid_can_be_queried_whole():
    """Every whole-map query stays within the bytes a square that max_cells() allows for."""
    import tracemalloc

    from aoegrid.geometry.grid import QUERY_BYTES_PER_SQUARE, max_cells, memory_budget

    assert max_cells() == memory_budget() // QUERY_BYTES_PER_SQUARE
    n = 300
    walls = [ag.Wall((x, 0), (x, n - 40)) for x in range(20, n, 40)] + [ag.Wall((0, y), (n - 30, y)) for y in range(25, n, 50)]
    queries = {
        "line of effect": lambda m: ag.line_of_effect(m, (150.5, 150.5)),
        "burst": lambda m: ag.area(ag.Sphere(5 * n), at=(150, 150), on=m).cover,
        "spread": lambda m: ag.area(ag.Sphere(5 * n), at=(150, 150), on=m, mode="spread").path_distance,
        "sight": lambda m: ag.area(ag.Sphere(5 * n), at=(150, 150), on=m, rules="sw5e").sight_cover,
    }
    for name, query in queries.items():
        query(ag.BattleMap(ag.Grid(n, n), walls=walls[:1]))  # compiled kernels load once per process, not per square
        m = ag.BattleMap(ag.Grid(n, n), walls=walls)  # fresh: per-map preparation counts too
        tracemalloc.start()
        try:
            query(m)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert peak / (n * n) <= QUERY_BYTES_PER_SQUARE, (name, peak / (n * n))
