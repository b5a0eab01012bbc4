import numpy as np
import pytest

import aoegrid as ag


def picture(text: str) -> np.ndarray:
    """A bool mask from a picture of '#' (in) and '.' (out), one char a square."""
    rows = [r.replace(" ", "") for r in text.strip().splitlines()]
    return np.array([[c == "#" for c in r] for r in rows], dtype=bool)


@pytest.fixture
def grid() -> ag.Grid:
    return ag.Grid(40, 30)
