"""The Jupyter explorer driven from Python: its state against :func:`aoegrid.area`, what it shows.

Control changes arrive as the front end sends them (``set_state``, what a
synced trait change from the browser calls; ``_handle_custom_msg``, what a
click's message calls); the browser itself is tested in
``test_explorer_browser.py``.
"""

from __future__ import annotations

import base64
import html
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from tests.conftest import CAVE_PARTY

import aoegrid as ag
from aoegrid import explorer
from aoegrid.explorer import Explorer
from aoegrid.show import plotting


def _party() -> tuple[ag.BattleMap, ag.Token]:
    """The README's cave party: Kira and Tor (allies) against five enemies."""
    scope: dict[str, object] = {}
    exec(CAVE_PARTY, scope)  # noqa: S102 (the constant source the browser tests show)
    return scope["m"], scope["kira"]  # type: ignore[return-value]


@pytest.fixture(scope="module")
def party() -> tuple[ag.BattleMap, ag.Token]:
    return _party()


def click(w: Explorer, x: float, y: float) -> None:
    """What the front end sends when the map is clicked at (x, y) grid units."""
    w._handle_custom_msg({"event": "click", "x": x, "y": y}, [])


def shown(w: Explorer) -> tuple[str, list[str]]:
    """The count and the creature lines of the summary, as the page shows them."""
    count = re.search(r'class="aoegrid-count">([^<]*)<', w.summary)
    assert count is not None
    items = [html.unescape(t) for t in re.findall(r"<li>(.*?)</li>", w.summary)]
    return count.group(1), items


def expected(a: ag.Area) -> tuple[str, list[str]]:
    lines = [f"{r.token.label}: {'no cover' if r.cover_name == 'none' else r.cover_name}" for r in a.tokens()]
    return f"{len(a)} square{'' if len(a) == 1 else 's'}", lines


def same(w: Explorer, a: ag.Area) -> None:
    assert w.area is not None
    assert np.array_equal(w.area.mask, a.mask)
    assert np.array_equal(w.area.cover, a.cover)
    assert shown(w) == expected(a)


def test_import_aoegrid_loads_no_widget_library() -> None:
    code = ("import sys, aoegrid; print(sorted(m for m in ('anywidget', 'ipywidgets', 'traitlets', 'matplotlib', "
            "'aoegrid.explorer') if m in sys.modules)); print(callable(aoegrid.explore))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.split("\n")[:2] == ["[]", "True"]


def test_explore_is_the_explorer_and_stays_callable() -> None:
    first = ag.explore(ag.Grid(10, 10))
    second = ag.explore(ag.Grid(10, 10))  # the module's import must not replace ag.explore
    assert isinstance(first, Explorer) and isinstance(second, Explorer)
    assert first.origin == (5.0, 5.0) and first.shape == ag.Sphere(20) and first.rules.name == "starfinder"
    assert first.mode == "burst" and not first.can_score


def test_clicks_place_the_origin_snapped_as_the_preset_requires(party: tuple[ag.BattleMap, ag.Token]) -> None:
    m, _ = party
    w = ag.explore(m, at=(5, 5))
    same(w, ag.area(ag.Sphere(20), at=(5, 5), on=m))
    click(w, 12.3, 10.8)                                  # Starfinder: the nearest intersection
    assert w.origin == (12.0, 11.0)
    same(w, ag.area(ag.Sphere(20), at=(12, 11), on=m))
    assert shown(w)[1] == ["Mog: no cover", "Snik: no cover", "Urg: no cover", "Ogre: no cover"]
    assert "at (12, 11)" in w.summary
    w.rules = "sw5e"                                      # the nearest intersection or square centre
    click(w, 12.4, 10.6)
    assert w.origin == (12.5, 10.5)
    same(w, ag.area(ag.Sphere(20), at=(12.5, 10.5), on=m, rules="sw5e"))
    click(w, 12.2, 10.9)
    assert w.origin == (12.0, 11.0)
    click(w, 12.5, 11.0)                                  # an edge's middle: as near (13, 11) as (12.5, 11.5)
    assert w.origin == (13.0, 11.0)                       # a tie goes to the intersection; halves round up
    click(w, 20.0, 0.0)                                   # the map's corner: no centre beyond it
    assert w.origin == (20.0, 0.0)
    click(w, 19.7, 0.4)
    assert w.origin == (19.5, 0.5)
    w.set_state({"preset": "pf2e"})                        # the preset control: the origin snaps again
    assert w.rules is ag.PRESETS["pf2e"] and w.origin == (20.0, 1.0)
    click(w, 12.5, 10.5)
    assert w.origin == (13.0, 11.0)
    same(w, ag.area(ag.Sphere(20), at=(13, 11), on=m, rules="pf2e"))


def test_aim_size_shape_and_mode_controls(party: tuple[ag.BattleMap, ag.Token]) -> None:
    m, _ = party
    w = ag.explore(m, ag.Line(30, "E", width=10), rules="pf2e", at=(12, 11))
    same(w, ag.area(ag.Line(30, "E", width=10), at=(12, 11), on=m, rules="pf2e"))
    w.set_state({"direction": 135})                       # the dial, or a drag's end
    assert w.shape == ag.Line(30, 135, width=10)
    w.set_state({"size": 40})                             # other fields stay while the kind does
    assert w.shape == ag.Line(40, 135, width=10)
    same(w, ag.area(ag.Line(40, 135, width=10), at=(12, 11), on=m, rules="pf2e"))
    w.set_state({"shape_kind": "cone"})                   # a new kind keeps size and direction
    assert w.shape == ag.Cone(40, 135)
    same(w, ag.area(ag.Cone(40, 135), at=(12, 11), on=m, rules="pf2e"))
    w.set_state({"shape_kind": "sphere", "mode": "spread"})
    assert w.shape == ag.Sphere(40) and w.mode == "spread"
    same(w, ag.area(ag.Sphere(40), at=(12, 11), on=m, rules="pf2e", mode="spread"))
    w.shape = ag.Cube(15, "S")
    assert (w.shape_kind, w.size, w.direction) == ("cube", 15.0, 90.0)
    same(w, ag.area(ag.Cube(15, "S"), at=(12, 11), on=m, rules="pf2e", mode="spread"))


def test_a_walled_map_cuts_the_area_and_gives_cover() -> None:
    m = ag.BattleMap(ag.Grid(10, 8), walls=[ag.Wall((5, 0), (5, 5))],
                     tokens=[ag.Token(6, 2, name="orc"), ag.Token(6, 6, name="elf"), ag.Token(2, 2, name="imp")])
    w = ag.explore(m, ag.Sphere(25), rules="sw5e", at=(3, 3))
    a = ag.area(ag.Sphere(25), at=(3, 3), on=m, rules="sw5e")
    same(w, a)
    assert len(a) < len(ag.area(ag.Sphere(25), at=(3, 3), on=m.grid, rules="sw5e"))
    assert {line.split(": ")[1] for line in shown(w)[1]} - {"no cover"}   # somebody has cover


def test_custom_rules_from_python(party: tuple[ag.BattleMap, ag.Token]) -> None:
    m, _ = party
    euclid = ag.Rules.preset("starfinder").replace(diagonals="euclidean")
    w = ag.explore(m, rules=euclid, at=(12, 11))
    assert w.rules is euclid and w.preset == "starfinder"
    same(w, ag.area(ag.Sphere(20), at=(12, 11), on=m, rules=euclid))
    custom = euclid.replace(name="euclid")
    w.rules = custom
    assert w.preset == "euclid" and w.presets == ["starfinder", "pf2e", "sw5e", "savage-worlds", "euclid"]
    w.set_state({"preset": "sw5e"})
    assert w.rules is ag.PRESETS["sw5e"] and "euclid" not in w.presets


def test_refused_placements_are_shown_not_raised(party: tuple[ag.BattleMap, ag.Token]) -> None:
    w = ag.explore(ag.BattleMap(ag.Grid(10, 10), walls=[ag.Wall((2, 5), (8, 5))]), at=(1, 1))
    click(w, 5, 5)                                        # inside the wall
    assert w.area is None and "wall" in w.error
    assert shown(w)[0] == "refused" and html.escape(w.error, quote=True) in w.summary
    click(w, 5, 6)
    assert w.area is not None and w.error is None
    m, _ = party
    w = ag.explore(m, rules="savage-worlds")              # a grid in feet, rules in inches
    assert w.area is None and "units='in'" in w.error


def test_bad_values_raise_aoegrid_errors_naming_them(party: tuple[ag.BattleMap, ag.Token]) -> None:
    m, _ = party
    w = ag.explore(m)
    with pytest.raises(ag.OffGridError, match=r"\(25, 3\)"):
        w.origin = (25, 3)
    with pytest.raises(ag.InvalidTypeError, match="'here'"):
        w.origin = "here"
    with pytest.raises(ag.InvalidValueError, match="'burst-ish'"):
        w.mode = "burst-ish"
    with pytest.raises(ag.InvalidValueError, match="'d20'"):
        w.rules = "d20"
    with pytest.raises(ag.InvalidValueError, match="-5"):
        w.size = -5
    with pytest.raises(ag.InvalidValueError, match="'hexagon'"):
        w.shape_kind = "hexagon"
    with pytest.raises(ag.InvalidTypeError, match="Shapable"):
        w.shape = ag.Shapable(100)
    with pytest.raises(ag.InvalidValueError, match="caster"):
        w.show_scores = True
    with pytest.raises(ag.InvalidTypeError, match="'cave'"):
        ag.explore("cave")
    with pytest.raises(ag.OffGridError, match=r"\(30, 1\)"):
        ag.explore(m, at=(30, 1))
    with pytest.raises(ag.InvalidValueError, match="scale must be greater than 0, got 0"):
        ag.explore(m, scale=0)
    with pytest.raises(ag.InvalidValueError, match="scale 1000 .* at most 819.2"):
        ag.explore(m, scale=1000)
    assert w.origin == (10.0, 10.0) and w.shape == ag.Sphere(20)   # nothing changed


def test_score_map_and_best_placement(party: tuple[ag.BattleMap, ag.Token], monkeypatch: pytest.MonkeyPatch) -> None:
    m, kira = party
    fireball = {"caster": kira, "range": ag.Range("medium", level=1), "on": m, "hit": {"enemy"}, "avoid": {"ally"}}
    w = ag.explore(m, caster=kira, range=ag.Range("medium", level=1), at=(5, 5))
    assert w.can_score and w.scores is None and w.best is None and w.score_layer == {}
    w.set_state({"show_scores": True})                     # the check box
    assert np.array_equal(w.scores, ag.placement_scores(ag.Sphere(20), **fireball), equal_nan=True)
    best = ag.best_placements(ag.Sphere(20), **fireball)[0]
    assert w.best is not None and (w.best.at, w.best.score) == (best.at, best.score) == ((12, 11), 4.0)
    assert "best at (12, 11): 4 (Mog, Snik, Urg, Ogre)" in w.summary
    # Sent as data: a palette index an intersection (one colour a whole-number score, 0 to 4), the best outlined.
    layer = w.score_layer
    index = np.frombuffer(base64.b64decode(layer["index"]), dtype=np.uint8).reshape(21, 21)
    assert layer["lattice"] == [1.0, 0.3, 21] and len(layer["palette"]) == 5
    assert index[11, 12] == 4 and index[0, 0] == 254                # (12, 11) reaches 4; the corner is not legal
    assert np.array_equal(index == 254, np.isnan(w.scores))
    assert layer["best"]["at"] == [12.0, 11.0] and len(layer["best"]["edges"]) == 4 * len(plotting._edges(best.area.mask))
    assert layer["caster"][0] == [3.0, 12.0, 4.0, 13.0]    # Kira's square, dashed
    calls = []
    monkeypatch.setattr(explorer, "placement_scores", lambda *a, **k: calls.append(a) or ag.placement_scores(*a, **k))
    w.shape = ag.Cone(30, "E")                             # scores per direction, around the caster
    assert w.scores is not None and w.scores.shape == (72,) and len(calls) == 1
    assert w.score_layer["wedges"] == [3.5, 12.5, 5.0, 5.0]  # Kira's centre, a quarter of the map, 5 degrees each
    cone_layer = w.score_layer
    w._handle_custom_msg({"event": "aim", "x": 7, "y": 7, "id": "t:1"}, [])     # dragging the aim searches nothing
    assert w.shape == ag.Cone(30, 45) and len(calls) == 1 and w.score_layer is cone_layer
    w.set_state({"show_scores": False})
    assert w.scores is None and w.score_layer == {} and "aoegrid-best" not in w.summary


def test_the_score_map_honours_a_move_first(party: tuple[ag.BattleMap, ag.Token]) -> None:
    m, kira = party
    short = {"caster": kira, "range": 30, "on": m, "hit": {"enemy"}, "avoid": {"ally"}}
    w = ag.explore(m, caster=kira, range=30, move=15, at=(5, 5))
    assert w.move == 15.0 and w.scores is None
    w.set_state({"show_scores": True})
    assert np.array_equal(w.scores, ag.placement_scores(ag.Sphere(20), **short, move=15), equal_nan=True)
    best = ag.best_placements(ag.Sphere(20), **short, move=15)[0]
    assert w.best is not None and (w.best.at, w.best.score, w.best.cost) == (best.at, best.score, best.cost)
    assert (w.best.at, w.best.stand.x, w.best.stand.y, w.best.path) == ((12, 11), 5, 11, ((3, 12), (4, 12), (5, 11)))
    assert "best at (12, 11) standing at (5, 11) after 10 ft: 4 (Mog, Snik, Urg, Ogre)" in w.summary
    assert "path walked, stand" in w.summary                # in the key
    # Sent as data: the path through the squares' centres, the square stood on just inside its edges.
    color, width, points, stand = w.score_layer["path"]
    assert color == plotting.PATH_COLOR and width > 0
    assert points == [3.5, 12.5, 4.5, 12.5, 5.5, 11.5] and stand == pytest.approx([5.12, 11.12, 5.88, 11.88])
    w.move = None                                          # from where Kira stands: 30 ft reaches only Urg
    assert w.best is not None and w.best.stand is None and (w.best.at, w.best.score) == ((8, 9), 1.0)
    assert "path" not in w.score_layer and "standing" not in w.summary and "path walked" not in w.summary
    w.move = 15
    w.shape = ag.Cone(30, "E")                             # per square Kira can move to, the best direction's score
    cone = ag.placement_scores(ag.Cone(30), **{**short, "range": None}, move=15)
    assert w.scores is not None and w.scores.shape == (20, 20)
    assert np.array_equal(w.scores, cone, equal_nan=True)
    assert w.score_layer["lattice"] == [1.0, 0.5, 20, 0.5]  # whole squares, centred on the squares
    index = np.frombuffer(base64.b64decode(w.score_layer["index"]), dtype=np.uint8).reshape(20, 20)
    assert np.array_equal(index == 254, np.isnan(cone))
    with pytest.raises(ag.InvalidValueError, match=r"move must be 0 or more, got -5"):
        w.move = -5
    with pytest.raises(ag.InvalidValueError, match=r"move moves the caster before it casts: give explore\(\.\.\., "
                                                   r"caster=\) a Token, got \(3, 12\)"):
        ag.explore(m, caster=(3, 12), move=10)


def test_with_a_caster_placements_at_a_point_are_checked() -> None:
    c = ag.Token(5, 4, name="c")
    m = ag.BattleMap(ag.Grid(16, 10), [ag.Wall((8, 0), (8, 10))],
                     tokens=[c, ag.Token(10, 6, name="orc", tags={"enemy"})])
    w = ag.explore(m, ag.Sphere(10), caster=c, at=(10, 6))   # behind the wall: no line of effect
    assert w.area is None and w.error == ("the caster has no line of effect to point of origin (10, 6); "
                                          "the nearest legal origin is (7, 6)")
    w.rules = "sw5e"                                       # unseen behind the wall: its near side
    click(w, 10.4, 6.6)
    assert w.origin == (10.5, 6.5) and len(w.area) == 6 and shown(w)[1] == []
    same(w, ag.area(ag.Sphere(10), at=(10.5, 6.5), on=m, rules="sw5e", caster=c))
    w = ag.explore(m, ag.Sphere(10), caster=c, range=10, at=(7, 8))
    assert w.area is None and w.error == ("point of origin (7, 8) is 15 ft from the caster, beyond its range of "
                                          "10 ft; the nearest legal origin is (7, 7)")
    w.shape = ag.Cone(15, "E")                             # a cone is drawn where clicked, unchecked
    same(w, ag.area(ag.Cone(15, "E"), at=(7, 8), on=m))


def test_the_score_map_searches_intersections_and_centres_under_sw5e() -> None:
    ring = [(9, 8), (10, 8), (8, 9), (11, 9), (8, 10), (11, 10), (9, 11), (10, 11)]
    caster = ag.Token(2, 2, name="caster")
    m = ag.BattleMap(ag.Grid(20, 20), tokens=[caster, *(ag.Token(x, y, tags={"enemy"}) for x, y in ring)])
    w = ag.explore(m, ag.Sphere(10), rules="sw5e", caster=caster)
    w.show_scores = True
    assert w.scores is not None and w.scores.shape == (41, 41)
    assert w.scores[20, 20] == 8.0 and w.scores[19, 19] == 4.0      # at (10, 10), and at the centre (9.5, 9.5)
    assert w.best is not None and (w.best.at, w.best.score) == ((10, 10), 8.0)
    assert "best at (10, 10): 8" in w.summary
    layer = w.score_layer                                  # half-square cells; edges' middles are no origin
    index = np.frombuffer(base64.b64decode(layer["index"]), dtype=np.uint8).reshape(41, 41)
    assert layer["lattice"] == [0.5, 0.25, 41] and index[20, 21] == 255 and index[20, 20] == len(layer["palette"]) - 1


def test_the_view_is_the_area_as_data() -> None:
    m = ag.BattleMap(ag.Grid(8, 6), walls=[ag.Wall((4, 0), (4, 3.5))],
                     tokens=[ag.Token(4, 3, name="orc"), ag.Token(0, 0, name="imp"), ag.Token(2, 2, name="elf")])
    w = ag.explore(m, ag.Sphere(10), at=(3, 3))
    same(w, ag.area(ag.Sphere(10), at=(3, 3), on=m))
    v = w.view
    assert v["origin"] == [3.0, 3.0]
    assert v["runs"] == [1, 2, 4, 2, 1, 4, 3, 1, 5, 4, 2, 4]      # rows 1 to 4; the wall takes (4, 2)
    assert v["blocked"] == [2, 4, 5]                            # ... as total cover
    assert v["cover"] == [[1, [4, 3]]]                          # square (4, 3) in partial cover
    assert v["reached"] == [[2, 0], [0, 1]]                     # the elf (token 2) in none, the orc (token 0) in partial
    ring = np.array(v["outline"]).reshape(-1, 2)                # the burst's circle, two squares round (3, 3)
    assert np.allclose(np.hypot(*(ring - 3).T), 2, atol=1e-4) and len(ring) == 96
    assert "partial cover" in w.summary and "blocked (total cover)" in w.summary
    click(w, 4.1, 3.0)                                          # inside the wall
    assert w.view == {"refused": [4.0, 3.0]}


def test_each_request_is_answered_in_one_message(monkeypatch: pytest.MonkeyPatch) -> None:
    m = ag.BattleMap(ag.Grid(20, 20))
    w = ag.explore(m, ag.Cone(15, "E"), rules="pf2e", at=(12, 11))
    sent: list[list[str]] = []
    monkeypatch.setattr(w, "send_state", lambda key=None: sent.append(sorted(key)))
    w._handle_custom_msg({"event": "aim", "x": 14.0, "y": 13.0, "id": "v:1"}, [])   # a drag's step toward the SE
    assert w.shape == ag.Cone(15, 45) and w.answered == "v:1"
    w._handle_custom_msg({"event": "aim", "x": 12.0, "y": 11.0, "id": "v:2"}, [])   # on the origin: no direction
    w._handle_custom_msg({"event": "turn", "direction": 200, "id": "v:3"}, [])       # the dial
    assert w.shape == ag.Cone(15, 200)
    w._handle_custom_msg({"event": "aim", "x": 11.0, "y": 10.5, "id": "v:4"}, [])   # 206.57 degrees: whole ones
    assert w.direction == 207.0
    w._handle_custom_msg({"event": "click", "x": 3.4, "y": 4.6, "id": "v:5"}, [])
    assert w.origin == (3.0, 5.0)
    w._handle_custom_msg({"event": "click", "x": 30, "y": 1, "id": "v:6"}, [])   # off the map: ipywidgets logs it
    assert w.origin == (3.0, 5.0) and w.answered == "v:6"       # a failed request is answered too
    # The new view, its summary and the answer go together; a request that changes nothing is still answered.
    assert sent == [["answered", "direction", "summary", "view"], ["answered"], ["answered", "direction", "summary", "view"],
                    ["answered", "direction", "summary", "view"], ["answered", "origin", "summary", "view"], ["answered"]]
    w.shape = ag.Sphere(10)
    w._handle_custom_msg({"event": "aim", "x": 1.0, "y": 1.0, "id": "v:7"}, [])     # a burst has no aim
    assert w.direction == 207.0 and w.answered == "v:7"


def _image_map(path: Path, pixels: np.ndarray, squares: int = 10) -> ag.BattleMap:
    """A Universal VTT map of ``squares`` x ``squares`` with a wall, carrying ``pixels`` as its image."""
    from PIL import Image

    buf = io.BytesIO()
    Image.fromarray(pixels).save(buf, format="PNG")
    doc = {"format": 0.3, "resolution": {"map_origin": {"x": 0, "y": 0}, "map_size": {"x": squares, "y": squares},
                                         "pixels_per_grid": pixels.shape[1] // squares},
           "line_of_sight": [[{"x": 5, "y": 0}, {"x": 5, "y": 4}]], "portals": [], "lights": [],
           "image": base64.b64encode(buf.getvalue()).decode("ascii")}
    path.write_text(json.dumps(doc))
    return ag.load_map(path)


def test_the_board_is_sent_once_at_the_size_the_page_shows(tmp_path: Path) -> None:
    m = ag.BattleMap(ag.Grid(12, 8), walls=[ag.Wall((6, 0), (6, 4)), ag.Wall((6, 4), (6, 5), kind="door")],
                     tokens=[ag.Token(9, 1, name="orc")])
    w = ag.explore(m, ag.Sphere(10), at=(3, 3), scale=10)
    b = w.board
    assert (b["size"], b["scale"], b["image"]) == ([12, 8], 10.0, "")   # no image of its own: white, drawn by the page
    wall = 2.5 / 17.28                                           # plot_map's 2.5 points at 24 pixels a square, in squares
    assert [(c, d, round(k, 4), segs) for c, d, k, segs in b["walls"]] == [
        ("#000000", None, round(wall, 4), [6.0, 0.0, 6.0, 4.0]), ("#8b4513", None, round(3.5 / 17.28, 4), [6.0, 4.0, 6.0, 5.0])]
    assert b["tokens"][0][:4] == [9.5, 1.5, 0.4, "orc"]
    clicks = w.board
    click(w, 5, 5)
    assert w.board is clicks                                     # sent once
    assert ag.explore(ag.Grid(100, 50)).board["scale"] == 7.68   # about 768 pixels across
    # A map file's own image, shrunk to the page's pixels: opaque as JPEG, see-through as PNG.
    from PIL import Image

    pixels = np.zeros((1000, 1000, 4), dtype=np.uint8)
    pixels[..., 0] = 200
    pixels[..., 3] = 255
    opaque = ag.explore(_image_map(tmp_path / "opaque.dd2vtt", pixels), scale=20).board["image"]
    head, _, body = opaque.partition(",")
    img = Image.open(io.BytesIO(base64.b64decode(body)))
    assert head == "data:image/jpeg;base64" and img.size == (200, 200) and abs(img.getpixel((100, 100))[0] - 200) <= 2
    pixels[:, :500, 3] = 0                                       # the left half see-through
    clear = ag.explore(_image_map(tmp_path / "clear.dd2vtt", pixels), scale=20).board["image"]
    head, _, body = clear.partition(",")
    img = Image.open(io.BytesIO(base64.b64decode(body)))
    assert head == "data:image/png;base64" and img.size == (200, 200)
    assert img.getpixel((20, 100))[3] == 0 and img.getpixel((180, 100))[3] == 255


def test_names_are_escaped_in_the_summary() -> None:
    m = ag.BattleMap(ag.Grid(6, 6), tokens=[ag.Token(2, 2, name="<b>Bob</b> & co")])
    w = ag.explore(m, at=(3, 3))
    assert "<b>Bob" not in w.summary and shown(w)[1] == ["<b>Bob</b> & co: no cover"]


# --- hex maps --------------------------------------------------------------------------------


def _hex_party() -> ag.BattleMap:
    """A small pointy-top map: a wall east of the corner (3, 2.02), creatures on both sides of it."""
    return ag.BattleMap(ag.HexGrid(7, 5), walls=[ag.Wall((3.5, 0.5), (3.5, 3.6))],
                        tokens=[ag.Token(4, 2, name="orc"), ag.Token(1, 2, name="imp"), ag.Token(2, 0, name="elf"),
                                ag.Token(6, 4, name="far")])


def hex_same(w: Explorer, a: ag.hexarea.HexArea) -> None:
    assert isinstance(w.area, ag.hexarea.HexArea)
    assert w.area.origin == a.origin
    assert np.array_equal(w.area.mask, a.mask) and np.array_equal(w.area.cover, a.cover)
    reached = a.tokens() if a.battlemap is not None else []
    lines = [f"{r.token.label}: {'no cover' if r.cover_name == 'none' else r.cover_name}" for r in reached]
    assert shown(w) == (f"{len(a)} hex{'' if len(a) == 1 else 'es'}", lines)


def test_hex_clicks_snap_to_the_nearest_corner() -> None:
    m = _hex_party()
    g = m.grid
    w = ag.explore(m)                                     # the middle of the map, snapped
    assert w.origin == ag.hexarea.nearest_corner(g, (g.extent[0] / 2, g.extent[1] / 2))
    click(w, 3.1, 2.1)                                    # Starfinder: the nearest hex corner
    assert w.origin == ag.hexarea.nearest_corner(g, (3.1, 2.1)) == pytest.approx(tuple(g.corners(2, 1)[3]))
    hex_same(w, ag.area(ag.Sphere(20), at=w.origin, on=m))
    assert len(w.area) == len(ag.area(ag.Sphere(20), at=w.origin, on=m)) == 18
    w.set_state({"preset": "sw5e"})                       # 5e: corners too; the controls' preset
    click(w, 1.95, 1.0)
    assert w.origin == pytest.approx(tuple(g.corners(1, 0)[2]))
    hex_same(w, ag.area(ag.Sphere(20), at=w.origin, on=m, rules="sw5e"))
    click(w, 0.1, 1.3)                                    # left of shoved row 1, in no hex: its hex's corner
    assert w.origin == pytest.approx(tuple(g.corners(0, 1)[5]))
    with pytest.raises(ag.OffGridError, match=r"origin \(8, 1\) is off the 7 x 5 hex map \(0\.\.7\.5 x 0\.\.4\.619 in hex widths\)"):
        w.origin = (8, 1)


def test_hex_origins_anywhere_under_savage_worlds() -> None:
    g = ag.HexGrid(9, 7, orientation="flat", offset="even", units="in", size=1)
    w = ag.explore(g, ag.Sphere(2), rules="savage-worlds", at=(3.3, 2.7))
    assert w.origin == (3.3, 2.7) and w.unit == "in"      # not snapped
    a = ag.area(ag.Sphere(2), at=(3.3, 2.7), on=g, rules="savage-worlds")
    hex_same(w, a)
    assert len(w.area) == len(a) == 23
    assert "aoegrid-creatures" not in w.summary             # a bare grid: nobody to list
    w.rules = "starfinder"                                 # inches, rules in feet: refused, shown
    assert w.area is None and "units='ft'" in w.error and shown(w)[0] == "refused"


def test_hex_clicks_are_checked_against_the_caster() -> None:
    m = _hex_party()
    imp = m.tokens[1]                                                     # west of the wall
    w = ag.explore(m, ag.Sphere(10), caster=imp, at=(3.1, 2.1))
    hex_same(w, ag.area(ag.Sphere(10), at=w.origin, on=m, caster=imp))
    click(w, 5.6, 1.3)                                                    # behind the wall
    assert w.area is None and w.error == ("the caster has no line of effect to point of origin (5.5, 1.155); "
                                          "the nearest legal origin is (3.5, 0)")
    assert shown(w)[0] == "refused" and w.view == {"refused": [5.5, pytest.approx(1.1547005)]}
    w = ag.explore(m, ag.Sphere(10), caster=imp, range=15, at=(3.1, 2.1))
    hex_same(w, ag.area(ag.Sphere(10), at=w.origin, on=m, caster=imp, range=15))
    click(w, 5.6, 1.3)
    assert w.area is None and w.error == ("point of origin (5.5, 1.155) is 20 ft from the caster, beyond its range "
                                          "of 15 ft; the nearest legal origin is (3.5, 0)")
    w.shape = ag.Cone(15, "E")                                            # a cone is drawn where clicked, unchecked
    hex_same(w, ag.area(ag.Cone(15, "E"), at=w.origin, on=m))


def test_hex_controls_match_area() -> None:
    m = _hex_party()
    w = ag.explore(m, ag.Cone(15, "E"), rules="pf2e", at=(3.1, 2.1))
    at = w.origin
    hex_same(w, ag.area(ag.Cone(15, "E"), at=at, on=m, rules="pf2e"))
    w._handle_custom_msg({"event": "aim", "x": at[0] + 1, "y": at[1] + 1, "id": "h:1"}, [])   # a drag to the SE
    assert w.shape == ag.Cone(15, 45) and w.answered == "h:1"
    hex_same(w, ag.area(ag.Cone(15, 45), at=at, on=m, rules="pf2e"))
    w.set_state({"shape_kind": "line", "size": 20})
    hex_same(w, ag.area(ag.Line(20, 45), at=at, on=m, rules="pf2e"))
    w.set_state({"shape_kind": "cube"})
    hex_same(w, ag.area(ag.Cube(20, 45), at=at, on=m, rules="pf2e"))
    w.set_state({"shape_kind": "sphere", "mode": "spread"})
    hex_same(w, ag.area(ag.Sphere(20), at=at, on=m, rules="pf2e", mode="spread"))
    w.set_state({"shape_kind": "cylinder", "mode": "burst"})
    hex_same(w, ag.area(ag.Cylinder(20, 40), at=at, on=m, rules="pf2e"))


def test_the_hex_view_is_the_area_as_data() -> None:
    m = _hex_party()
    w = ag.explore(m, ag.Sphere(10), at=(3.1, 2.1))
    v = w.view
    assert v["origin"] == pytest.approx([3.0, 2.0207259])  # the bottom corner of hex (2, 1)
    # Rows of (row, first col, col past the last): 9 hexes, west of the wall.
    assert v["hexes"] == [0, 2, 4, 1, 1, 3, 2, 1, 4, 3, 1, 3]
    assert v["blocked"] == [1, 3, 4, 2, 4, 5, 3, 3, 4]      # the hexes behind the wall: total cover
    assert v["cover"] == [[1, [3, 0, 3, 2]]]                # (3, 0) and (3, 2) in partial cover
    assert v["reached"] == [[2, 0], [1, 0]]                 # the elf (token 2), the imp (token 1)
    (ring,) = v["outline"]                                  # one ring: the 10-ft circle, two hex widths round
    ring = np.array(ring).reshape(-1, 2)
    assert len(ring) == 256 and np.allclose(np.hypot(*(ring - v["origin"]).T), 2, atol=1e-4)
    assert shown(w) == ("9 hexes", ["elf: no cover", "imp: no cover"])
    assert "partial cover" in w.summary and "blocked (total cover)" in w.summary and "<polygon" in w.summary
    click(w, 3.45, 1.2)                                     # a corner on the wall
    assert w.area is None and w.view == {"refused": [3.5, pytest.approx(1.1547005)]} and "wall" in w.error


def _hex_center_js(h: dict, hexes: list[tuple[int, int]]) -> list[list[float]]:
    """The front end's own ``hexCenter`` run by Node on ``hexes``."""
    import shutil

    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js not installed")
    found = re.search(r"^function hexCenter\(h, col, row\) \{.*?^\}", explorer._ESM, re.DOTALL | re.MULTILINE)
    assert found is not None
    code = f"{found.group(0)}\nconsole.log(JSON.stringify({json.dumps(hexes)}.map(([c, r]) => hexCenter({json.dumps(h)}, c, r))));"
    out = subprocess.run([node, "-e", code], capture_output=True, text=True, check=True, timeout=30)
    return json.loads(out.stdout)


@pytest.mark.parametrize("layout", [("pointy", "odd"), ("pointy", "even"), ("flat", "odd"), ("flat", "even")])
@pytest.mark.parametrize("size", [(5, 4), (4, 1), (1, 3)])
def test_the_board_places_hexes_where_the_grid_does(layout: tuple[str, str], size: tuple[int, int]) -> None:
    g = ag.HexGrid(*size, orientation=layout[0], offset=layout[1])
    b = ag.explore(g).board
    assert b["size"] == list(g.extent) and "hex" in b
    hexes = [(c, r) for r in range(g.height) for c in range(g.width)]
    centres = np.array(_hex_center_js(b["hex"], hexes))
    cols, rows = np.array(hexes).T
    assert np.allclose(centres, np.column_stack(g.center(cols, rows)), atol=1e-12)
    corners = centres[:, None, :] + np.array(b["hex"]["corners"]).reshape(6, 2)
    assert np.allclose(corners, g.corners(cols, rows), atol=1e-12)


def test_the_hex_board_draws_tokens_on_their_footprints() -> None:
    g = ag.HexGrid(8, 6)
    m = ag.BattleMap(g, walls=[ag.Wall((4, 0), (4, 2), kind="door")],
                     tokens=[ag.Token(2, 2, name="ogre", size="large"), ag.Token(6, 4, name="imp")])
    b = ag.explore(m, scale=20).board
    assert b["size"] == [8.5, pytest.approx(5.4848276)] and b["scale"] == 20.0 and b["image"] == ""
    assert b["hex"]["pointy"] and b["hex"]["shoved"] == 1 and b["hex"]["badge"] == [1, 0.75]
    assert [(c, segs) for c, _, _, segs in b["walls"]] == [("#8b4513", [4.0, 0.0, 4.0, 2.0])]
    (ogre, imp) = b["tokens"]
    assert ogre[:4] == [2.5, pytest.approx(2.8867513), 0.8, "ogre"]      # three hexes: their shared corner
    assert imp[:4] == [6.5, pytest.approx(4.0414519), 0.4, "imp"]
    assert ag.explore(ag.HexGrid(60, 20)).board["scale"] == pytest.approx(768 / 60.5)
    with pytest.raises(ag.InvalidValueError, match=r"scale 2000 makes the 8\.5 x 5\.48483 map wider .* at most 1927\.53"):
        ag.explore(m, scale=2000)


def test_the_score_map_on_hex_maps_and_move_noted() -> None:
    g = ag.HexGrid(10, 6)
    kira = ag.Token(0, 2, name="Kira", tags={"ally"})
    orcs = [ag.Token(c, r, name=f"orc{k}", tags={"enemy"}) for k, (c, r) in enumerate([(6, 2), (7, 2), (6, 3)])]
    m = ag.BattleMap(g, tokens=[kira, *orcs, ag.Token(1, 5, name="Tor", tags={"ally"})])
    w = ag.explore(m, ag.Sphere(5), caster=kira, range=60, move=10, at=(2, 2))   # no crash: move noted, not used
    note = re.search(r'class="aoegrid-note">([^<]*)<', w.summary)
    assert note is not None and note.group(1) == ("on a hex map, move= is not searched (square grids only): the score "
                                                  "map is from where the caster stands")
    hex_same(w, ag.area(ag.Sphere(5), at=w.origin, on=m, caster=kira, range=60))
    assert w.can_score
    w.set_state({"show_scores": True})                                    # the check box
    fireball = {"caster": kira, "range": 60, "on": m, "hit": {"enemy"}, "avoid": {"ally"}}
    assert np.array_equal(w.scores, ag.placement_scores(ag.Sphere(5), **fireball), equal_nan=True)
    best = ag.best_placements(ag.Sphere(5), **fireball)[0]
    assert w.best is not None and (w.best.at, w.best.score) == (best.at, best.score) == ((7.0, pytest.approx(2.598076)), 3)
    assert "best at (7, 2.59808): 3 (orc0, orc1, orc2)" in w.summary
    # Sent as data: a byte a corner slot (each of the map's 2 * 11 * 7 - 2 corners once), no centres under Starfinder.
    layer = w.score_layer
    index = np.frombuffer(base64.b64decode(layer["index"]), dtype=np.uint8).reshape(6, 10, 7)
    assert int((index != 255).sum()) == 152 and (index[..., 6] == 255).all()
    assert layer["hexpoints"] == 0.2 and len(layer["palette"]) == 4   # scores 0 to 3
    assert layer["best"]["at"] == list(best.at) and len(layer["best"]["edges"]) == 4 * 12   # three hexes: 12 sides
    assert len(layer["caster_edges"][0]) == 4 * 6                                          # Kira's hex, dashed
    w.shape = ag.Cone(30, "E")                                            # per direction, about Kira's centre
    cone = ag.placement_scores(ag.Cone(30), **{**fireball, "range": None})
    assert w.scores is not None and w.scores.shape == (12,) and np.array_equal(w.scores, cone, equal_nan=True)
    assert w.score_layer["wedges"] == [*g.center(0, 2), 2.0, 30.0]
    aimed = ag.best_placements(ag.Cone(30), **{**fireball, "range": None})[0]
    assert w.best is not None and (w.best.at, w.best.direction, w.best.score) == (kira, aimed.direction, 1.0)
    assert "best toward 0\u00b0: 1 (orc0)" in w.summary  and w.score_layer["best"]["at"] == []
    plain = ag.explore(m, caster=kira)
    assert "aoegrid-note" not in plain.summary and plain.can_score


def test_the_hex_score_map_searches_centres_under_savage_worlds() -> None:
    g = ag.HexGrid(8, 6, orientation="flat", units="in", size=1)
    m = ag.BattleMap(g, tokens=[ag.Token(1, 1, name="me", tags={"ally"}), ag.Token(5, 3, name="orc", tags={"enemy"}),
                                ag.Token(6, 3, name="gob", tags={"enemy"})])
    w = ag.explore(m, ag.Sphere(1), rules="savage-worlds", caster=(1, 1))   # a caster given as its hex
    w.show_scores = True
    assert w.best is not None and (w.best.at, w.best.score) == ((pytest.approx(4.6188022), 3.5), 2.0)
    assert "best at (4.6188, 3.5): 2 (orc, gob)" in w.summary
    index = np.frombuffer(base64.b64decode(w.score_layer["index"]), dtype=np.uint8).reshape(6, 8, 7)
    assert int((index[..., :6] != 255).sum()) == 2 * 9 * 7 - 2 and int((index[..., 6] != 255).sum()) == 48
    w.shape = ag.Cone(4)                                                  # wedges about the caster's hex
    assert w.score_layer["wedges"] == [*g.center(1, 1), 2.0, 30.0]
    assert w.best is not None and (w.best.direction, w.best.score) == (30.0, 2.0)
