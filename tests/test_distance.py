import math

import numpy as np
import pytest

import aoegrid as ag
from aoegrid.geometry.distance import measure
from aoegrid.geometry.options import Diagonals


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        ("alternating", [1, 3, 4, 6, 7]),  # 5/10/5/10/5
        ("alternating-2", [2, 3, 5, 6, 8]),  # 10/5/10/5/10
        ("equidistant", [1, 2, 3, 4, 5]),
        ("manhattan", [2, 4, 6, 8, 10]),
        ("approximate", [1.5, 3, 4.5, 6, 7.5]),
    ],
)
def test_pure_diagonals(rule, expected):
    k = np.arange(1, 6)
    assert measure(k, k, Diagonals(rule)).tolist() == expected


def test_mixed_offsets_alternating():
    # max + floor(min / 2): (4, 1) is 4, (4, 2) is 5, (4, 3) is 5
    assert measure([4, 4, 4], [1, 2, 3], Diagonals.ALTERNATING).tolist() == [4, 5, 5]
    assert measure(-3, 2, Diagonals.ALTERNATING) == 4  # sign does not matter


def test_distance_function_in_units():
    assert ag.distance((0, 0), (3, 4), "euclidean") == 5.0
    assert ag.distance((0, 0), (3, 3)) == 4.0
    assert ag.distance((0.5, 0.5), (3.5, 3.5), square=5) == 20.0
    assert ag.distance((2, 2), (2, 2), "manhattan") == 0.0
    assert ag.Rules.preset("sw5e").measure((0, 0), (3, 3), square=5) == 15.0


def test_bad_rule_names_list_choices():
    with pytest.raises(ag.InvalidValueError, match=r"unknown diagonals 'chebyshev'; valid choices are 'alternating', 'alternating-2', 'equidistant'"):
        ag.distance((0, 0), (1, 1), "chebyshev")
    with pytest.raises(ag.InvalidTypeError, match=r"p must be an \(x, y\) pair in grid units, got 3"):
        ag.distance(3, (1, 1))
    with pytest.raises(ag.InvalidValueError, match=r"q y must be a finite number, got nan"):
        ag.distance((0, 0), (1, float("nan")))


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        ("alternating", math.inf),
        ("alternating-2", math.inf),
        ("equidistant", 1.5e308),
        ("euclidean", math.inf),
        ("manhattan", math.inf),
        ("approximate", math.inf),
    ],
)
def test_lengths_past_the_float_range_are_infinite_without_a_warning(rule, expected):
    assert float(measure(1.5e308, -1.5e308, Diagonals(rule))) == expected


def test_huge_distances_stay_exact_where_they_fit():
    assert float(measure(1e308, 1e307, Diagonals.EUCLIDEAN)) == math.hypot(1e308, 1e307)
    assert float(measure(1e308, 1e308, Diagonals.APPROXIMATE)) == 1.5e308
    assert ag.distance((-1e308, 0), (1e308, 0)) == math.inf
    assert ag.distance((0, 0), (1e308, 1e308), "euclidean", square=1e-300) == pytest.approx(math.sqrt(2) * 1e8)
