"""The explorer on hex maps end to end: Voilà serves a notebook, headless Chromium clicks and drags it.

As ``test_explorer_browser.py`` (whose notebook and server helpers this reuses): Voilà on
127.0.0.1 with a free port and a token, Playwright driving Debian's Chromium.
The notebook shows two explorers: a pointy-top map with walls, a door and
creatures, one of them the caster (Starfinder: a click snaps to the nearest
hex corner, and is refused where the caster has no line of effect), and a bare
flat-top grid in inches (Savage Worlds: a click stays where it is). The test
clicks and drags, checks the count and creatures shown against
:func:`aoegrid.area`, reads the canvas the area is drawn on at every hex's
centre (tinted exactly where the area's hexes and the hexes walls block are),
and saves screenshots of both widgets in its temporary folder (printed with
``-s``). Bounded: every wait has a timeout, the server is stopped in ``finally``.
"""

from __future__ import annotations

import math
import os
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from tests.test_explorer_browser import CHROMIUM, _notebook, _voila

import aoegrid as ag
from aoegrid.hexarea import nearest_corner

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.access(CHROMIUM, os.X_OK),
                       reason="Chromium not installed (apt-get install -y chromium; .ci/run installs it)"),
]

#: The map: a wall down x = 7 with a door along y = 6, Kira (the caster, east of the wall) and three others.
SETUP = """\
import aoegrid as ag
g = ag.HexGrid(14, 10)
m = ag.BattleMap(g, walls=[ag.Wall((7.0, 1.0), (7.0, 6.0)), ag.Wall((7.0, 6.0), (10.0, 6.0), kind="door")],
                 tokens=[ag.Token(11, 2, name="Kira", tags={"ally"}), ag.Token(8, 3, name="Urg", tags={"enemy"}),
                         ag.Token(5, 6, name="Ogre", size="large", tags={"enemy"}),
                         ag.Token(10, 7, name="Snik", tags={"enemy"})])
flat = ag.HexGrid(10, 7, orientation="flat", offset="even", units="in", size=1)
"""
#: With a caster: clicks checked against it, and the score map.
POINTY = 'ag.explore(m, ag.Sphere(15), caster=m.tokens[0], at=(10.2, 5.0))'
FLAT = 'ag.explore(flat, ag.Sphere(2), rules="savage-worlds", at=(4, 3))'


def _maps() -> tuple[ag.BattleMap, ag.HexGrid]:
    """The notebook's map and flat grid, made by running its first cell here."""
    scope: dict[str, Any] = {}
    exec(SETUP, scope)  # noqa: S102 (the constant source above: the test and the page share one map)
    return scope["m"], scope["flat"]


def _expected(a: Any) -> tuple[str, list[str]]:
    reached = a.tokens() if a.battlemap is not None else []
    return (f"{len(a)} hexes",
            [f"{r.token.label}: {'no cover' if r.cover_name == 'none' else r.cover_name}" for r in reached])


#: Reads the area layer of explorer ``i`` at points in map coordinates: the RGBA there.
_SAMPLE = """([i, extent, points]) => {
  const canvas = document.querySelectorAll(".aoegrid-explorer")[i].querySelector(".aoegrid-area");
  const data = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
  const [kx, ky] = [canvas.width / extent[0], canvas.height / extent[1]];
  return points.map(([x, y]) => {
    const k = 4 * (Math.floor(y * ky) * canvas.width + Math.floor(x * kx));
    return [data[k], data[k + 1], data[k + 2], data[k + 3]];
  });
}"""


def _painted(page: Any, i: int, grid: ag.HexGrid) -> tuple[np.ndarray, np.ndarray]:
    """Which hexes the page tints with the area's red, and which with the blocked grey, read at their centres."""
    rows, cols = np.indices(grid.shape)
    cx, cy = grid.center(cols.ravel(), rows.ravel())
    rgba = np.array(page.evaluate(_SAMPLE, [i, list(grid.extent), np.column_stack([cx, cy]).tolist()]))
    tinted = rgba[:, 3] > 0
    red = tinted & (rgba[:, 0] > rgba[:, 1] + 60)
    grey = tinted & (np.abs(rgba[:, 0].astype(int) - rgba[:, 1]) < 30)
    return red.reshape(grid.shape), grey.reshape(grid.shape)


def _blocked(a: Any) -> np.ndarray:
    return ~np.isnan(a.visible) & ~a.mask


def test_hex_maps_click_drag_and_draw_in_a_browser(tmp_path: Path) -> None:
    from playwright.sync_api import expect, sync_playwright

    start = time.monotonic()
    deadline = start + 110
    m, flat = _maps()
    g = m.grid
    nb = tmp_path / "hexes.ipynb"
    _notebook(nb, SETUP, POINTY, FLAT)
    errors: list[str] = []
    with _voila(nb, tmp_path, deadline) as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True)
        try:
            page = browser.new_page(viewport={"width": 1200, "height": 1400})
            page.on("pageerror", lambda err: errors.append(str(err)))
            page.set_default_timeout(30_000)
            page.goto(url, timeout=60_000)
            pointy, other = page.locator(".aoegrid-explorer").nth(0), page.locator(".aoegrid-explorer").nth(1)
            count, creatures = pointy.locator(".aoegrid-count"), pointy.locator(".aoegrid-creatures li")

            # The first picture: the burst at the corner nearest (10.2, 5.0).
            kira = m.tokens[0]
            first = ag.area(ag.Sphere(15), at=nearest_corner(g, (10.2, 5.0)), on=m, caster=kira)
            text, cover = _expected(first)
            expect(count).to_have_text(text, timeout=max(1_000, (deadline - time.monotonic() - 30) * 1000))
            assert creatures.all_inner_texts() == cover == ["Snik: no cover", "Urg: no cover"]
            assert pointy.locator(".aoegrid-scores").is_enabled()
            assert other.locator(".aoegrid-scores").is_disabled()           # no caster there
            assert page.locator(".aoegrid-note").count() == 0               # nothing unused to note

            # A click by the wall: snapped to the corner (7.5, 5.196); the wall blocks hexes east of it.
            box = pointy.locator(".aoegrid-map").bounding_box()
            assert box is not None
            w, h = g.extent

            def at(x: float, y: float) -> tuple[float, float]:
                return box["x"] + x / w * box["width"], box["y"] + y / h * box["height"]

            # West of the wall Kira has no line of effect: refused, and why.
            page.mouse.click(*at(5.2, 3.6))
            expect(count).to_have_text("refused")
            expect(pointy.locator(".aoegrid-error")).to_have_text(
                "the caster has no line of effect to point of origin (5, 3.753); the nearest legal origin is (7.5, 3.464)")

            page.mouse.click(*at(7.8, 5.0))
            corner = nearest_corner(g, (7.8, 5.0))
            a = ag.area(ag.Sphere(15), at=corner, on=m, caster=kira)
            text, cover = _expected(a)
            assert (len(a), int(_blocked(a).sum())) == (13, 14)
            expect(count).to_have_text(text)
            expect(creatures).to_have_text(cover)
            expect(pointy.locator(".aoegrid-what")).to_contain_text(f"at ({corner[0]:g}, {corner[1]:g})")
            # The hexes drawn, read off the canvas at every hex's centre: exactly the area's and the blocked ones.
            red, grey = _painted(page, 0, g)
            assert np.array_equal(red, a.mask), (np.argwhere(red != a.mask), a.to_text())
            assert np.array_equal(grey, _blocked(a)), np.argwhere(grey != _blocked(a))
            pointy.screenshot(path=str(tmp_path / "hex-click.png"))

            # A drag of the origin: it follows, and ends on the corner nearest the release.
            page.mouse.move(*at(7.6, 5.1))
            page.mouse.down()
            for k in range(1, 9):
                x, y = 7.6 + (9.3 - 7.6) * k / 8, 5.1 + (4.4 - 5.1) * k / 8
                page.mouse.move(*at(x, y))
                page.wait_for_timeout(16)
            page.mouse.up()
            corner = nearest_corner(g, (9.3, 4.4))
            dragged = ag.area(ag.Sphere(15), at=corner, on=m, caster=kira)
            text, cover = _expected(dragged)
            expect(pointy.locator(".aoegrid-what")).to_contain_text(f"at ({corner[0]:g}, {corner[1]:g})")
            expect(count).to_have_text(text)
            expect(creatures).to_have_text(cover)
            assert cover == ["Urg: no cover", "Snik: no cover"]

            # A cone aimed by a drag from the origin toward 30 degrees (south of east), then the size control.
            pointy.locator("select.aoegrid-shape").select_option("cone")
            expect(pointy.locator(".aoegrid-what")).to_contain_text("cone 15 ft toward 0")
            page.mouse.move(*at(corner[0] + 0.05, corner[1] + 0.05))
            page.mouse.down()
            page.mouse.move(*at(corner[0] + 1.0, corner[1] + 0.2), steps=4)
            page.mouse.move(*at(corner[0] + 3 * math.cos(math.pi / 6), corner[1] + 3 * math.sin(math.pi / 6)), steps=4)
            page.mouse.up()
            expect(pointy.locator(".aoegrid-what")).to_contain_text("toward 30")
            pointy.locator("input.aoegrid-size").fill("30")
            pointy.locator("input.aoegrid-size").press("Enter")
            cone = ag.area(ag.Cone(30, 30), at=corner, on=m)
            expect(pointy.locator(".aoegrid-what")).to_contain_text("cone 30 ft toward 30")
            assert len(cone) == 18
            expect(count).to_have_text(_expected(cone)[0])
            expect(creatures).to_have_text(_expected(cone)[1])
            red, grey = _painted(page, 0, g)
            assert np.array_equal(red, cone.mask) and np.array_equal(grey, _blocked(cone))

            # The flat-top grid in inches, Savage Worlds: a click stays where it is.
            fcount = other.locator(".aoegrid-count")
            expect(fcount).to_have_text(_expected(ag.area(ag.Sphere(2), at=(4, 3), on=flat, rules="savage-worlds"))[0])
            fbox = other.locator(".aoegrid-map").bounding_box()
            assert fbox is not None
            fw, fh = flat.extent
            target = (5.3, 3.4)
            # Pixels put the click a little off (5.3, 3.4); the count is the same anywhere that near.
            near = {len(ag.area(ag.Sphere(2), at=(target[0] + dx, target[1] + dy), on=flat, rules="savage-worlds"))
                    for dx in (-0.03, 0, 0.03) for dy in (-0.03, 0, 0.03)}
            assert near == {24}
            page.mouse.click(fbox["x"] + target[0] / fw * fbox["width"], fbox["y"] + target[1] / fh * fbox["height"])
            expect(fcount).to_have_text("24 hexes")
            what = other.locator(".aoegrid-what").inner_text()
            shown = [float(v) for v in what.split(" at (")[1].rstrip(")").split(", ")]
            assert math.dist(shown, target) < 0.03, what
            fa = ag.area(ag.Sphere(2), at=tuple(shown), on=flat, rules="savage-worlds")
            red, grey = _painted(page, 1, flat)
            assert np.array_equal(red, fa.mask), (np.argwhere(red != fa.mask), fa.to_text())
            assert not grey.any()
            other.screenshot(path=str(tmp_path / "hex-flat.png"))

            # The click's picture again, then the score map: a disc a hex corner, the best placement outlined.
            pointy.locator("select.aoegrid-shape").select_option("sphere")
            pointy.locator("input.aoegrid-size").fill("15")
            pointy.locator("input.aoegrid-size").press("Enter")
            page.mouse.click(*at(7.8, 5.0))
            expect(count).to_have_text(_expected(a)[0])
            expect(pointy.locator(".aoegrid-what")).to_contain_text("sphere 15 ft")
            pointy.screenshot(path=str(tmp_path / "hex-pointy.png"))
            best = ag.best_placements(ag.Sphere(15), caster=kira, on=m, hit={"enemy"}, avoid={"ally"})[0]
            assert best.hits and best.score == 2
            names = ", ".join(r.token.label for r in best.hits)
            pointy.locator(".aoegrid-scores").check()
            expect(pointy.locator(".aoegrid-best")).to_contain_text(
                f"best at ({best.at[0]:g}, {best.at[1]:g}): {best.score:g} ({names})", timeout=60_000)
            pointy.screenshot(path=str(tmp_path / "hex-scores.png"))
            print(f"\nhex explorer screenshots: {tmp_path / 'hex-pointy.png'}, {tmp_path / 'hex-flat.png'}, "
                  f"{tmp_path / 'hex-scores.png'}")
        finally:
            browser.close()
    assert not errors, errors
    assert time.monotonic() - start < 120
