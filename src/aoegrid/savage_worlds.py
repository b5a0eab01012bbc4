"""Savage Worlds templates, in tabletop inches (one inch a square).

Use them with ``rules="savage-worlds"`` on a grid made with ``units="in"``.
A square is affected when any part of it lies under the template. Point a
template with ``replace``: ``CONE.replace(direction="S")``.

Examples
--------
>>> import aoegrid as ag
>>> grid = ag.Grid(10, 10, units="in")
>>> len(ag.area(SMALL_BLAST, at=(4.5, 4.5), on=grid, rules="savage-worlds"))
9
"""

from aoegrid.shapes import Cone, Line, Sphere

#: Small Blast Template: 2" across.
SMALL_BLAST = Sphere(1)
#: Medium Blast Template: 4" across.
MEDIUM_BLAST = Sphere(2)
#: Large Blast Template: 6" across.
LARGE_BLAST = Sphere(3)
#: The Cone Template: 9" long, its wide end rounded, 3" across.
CONE = Cone(9, direction=0, kind="teardrop")
#: A stream: a line 12" long and 1" wide.
STREAM = Line(12, direction=0, width=1)

__all__ = ["CONE", "LARGE_BLAST", "MEDIUM_BLAST", "SMALL_BLAST", "STREAM"]
