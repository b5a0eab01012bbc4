import numpy as np
import pytest
from hypothesis import settings

import aoegrid as ag

# The suite draws the same examples on every run, everywhere (a red run must be a change's fault,
# not the draw's, and a newcomer meets the failures CI meets). Exploring new examples is opt-in:
# `pytest --hypothesis-profile=explore` draws fresh ones each run and keeps failures in
# .hypothesis/ to replay; every failure found becomes an @example on its test. No deadline: how fast
# an example runs depends on the machine's load, and speed is measured in benchmarks/, not here.
settings.register_profile("repeatable", derandomize=True, database=None, deadline=None)
settings.register_profile("explore", derandomize=False, deadline=None)
settings.load_profile("repeatable")


def picture(text: str) -> np.ndarray:
    """A bool mask from a picture of '#' (in) and '.' (out), one char a square."""
    rows = [r.replace(" ", "") for r in text.strip().splitlines()]
    return np.array([[c == "#" for c in r] for r in rows], dtype=bool)


@pytest.fixture
def grid() -> ag.Grid:
    return ag.Grid(40, 30)


def mirrored(shape):
    """The shape seen in a left-right mirror: direction 180 - d, a line's side and a cube's anchor swapped."""
    changes = {}
    if hasattr(shape, "direction"):
        changes["direction"] = (180 - shape.direction) % 360
    if isinstance(shape, ag.Line):
        changes["side"] = "left" if shape.side is ag.Side.RIGHT else "right"
    if isinstance(shape, ag.Cube) and shape.anchor is not ag.Anchor.CENTER:
        changes["anchor"] = "left" if shape.anchor is ag.Anchor.RIGHT else "right"
    return shape.replace(**changes) if changes else shape


#: The README's cave party on the bundled map, as notebook source (the browser tests show it in a
#: notebook; the Python tests run the same source, so both see one map): ``m``, ``kira``.
CAVE_PARTY = """\
import aoegrid as ag
cave = ag.demo_map()
kira = ag.Token(3, 12, name="Kira", tags={"ally"})
creatures = [kira, ag.Token(7, 13, name="Tor", tags={"ally"}),
    ag.Token(11, 8, name="Urg", tags={"enemy"}), ag.Token(13, 9, name="Mog", tags={"enemy"}),
    ag.Token(12, 12, name="Snik", tags={"enemy"}), ag.Token(16, 15, name="Pip", tags={"enemy"}),
    ag.Token(15, 11, size="large", name="Ogre", tags={"enemy"})]
m = ag.BattleMap(cave.grid, cave.walls, creatures, info=cave.info)
"""
