"""aoegrid/1 records and Foundry templates of areas and maps on hexes and on the open table (aoegrid.io.export)."""

import json

import pytest

import aoegrid as ag
from aoegrid.io.export import area_record, foundry_template, map_record, validate


def hex_map():
    g = ag.HexGrid(9, 8)
    return g, ag.BattleMap(g, walls=[ag.Wall((5.2, 0), (5.2, 5))],
                           tokens=[ag.Token(6, 3, name="orc"), ag.Token(3, 4, name="ally", size="large")])


def test_a_hex_area_record_carries_the_lattice_and_both_coordinate_forms():
    g, m = hex_map()
    a = ag.area(ag.Sphere(10), at=g.corners(4, 3)[3], on=m, rules="5e")
    r = validate(area_record(a, inputs={"at": "corner"}))
    assert r["record"] == "hex-area" and r["count"] == len(a) == 9
    assert r["grid"] == {"lattice": "hex", "width": 9, "height": 8, "orientation": "pointy", "stagger": "odd",
                         "layout": "odd-r", "foundry_type": 2, "size": 5.0, "units": "ft", "pixels_per_unit": None,
                         "offset": None}
    assert r["hexes"] == [list(h) for h in a.hexes]
    # The cube form of each hex is its offset form converted: q + r + s = 0, and back again.
    for (col, row), (q, rr, s) in zip(r["hexes"], r["cube"], strict=True):
        assert q + rr + s == 0 and g.from_cube(q, rr, s) == (col, row)
    assert r["origin"] == {"point": [5.0, pytest.approx(3.7527767497325675)]}
    # Behind the wall: the hexes the shape takes that walls leave out, and those partly seen.
    assert r["blocked"] == [[5, 3], [6, 4], [5, 5]]
    assert r["cover"] == [{"hex": [5, 2], "grade": "three-quarters cover", "visible": 0.16},
                          {"hex": [5, 4], "grade": "three-quarters cover", "visible": 0.16}]
    # Its hexes in the area; two steps from the corner's first hexes.
    assert [(t["token"]["name"], t["squares"], t["distance"]) for t in r["tokens"]] == [
        ("ally", [[3, 4], [3, 5]], 10.0)]
    assert json.loads(json.dumps(r)) == r


def test_a_hex_template_lands_on_the_scenes_pixels():
    g, m = hex_map()
    a = ag.area(ag.Cone(15, 30), at=g.corners(4, 3)[3], on=m, rules="5e")
    t = foundry_template(a)
    # Foundry's default 100 px a hex, no padding: the corner (5.0, 3.7528) is pixel (500, 375).
    assert (t["t"], t["x"], t["y"], t["direction"], t["distance"]) == ("cone", 500, 375, 30.0, 15.0)
    assert t["flags"]["aoegrid"]["hexes"] == [list(h) for h in a.hexes]
    emanation = foundry_template(ag.area(ag.Sphere(10), at=m.tokens[1], on=m, rules="5e"))
    assert emanation["distance"] == 15.0  # measured from the large creature's three hexes: half its width more


def test_an_open_area_record_holds_its_exact_geometry():
    t = ag.Gridless(30, 20)
    m = ag.BattleMap(t, walls=[ag.Wall((15, 0), (15, 12))], tokens=[ag.OpenToken(10, 10, name="orc")])
    a = ag.area(ag.Sphere(10), at=(12, 8), on=m, rules="5e")
    r = validate(area_record(a))
    assert r["record"] == "open-area"
    assert r["grid"] == {"lattice": "gridless", "width": 30.0, "height": 20.0, "units": "ft", "square": 5.0,
                         "pixels_per_unit": None, "offset": None}
    assert r["size"] == pytest.approx(a.geometry.area) and 200 < r["size"] < 3.1416 * 100
    (poly,) = r["geometry"]
    # The wall (x = 15, y 0 to 12) cuts off what lies behind it; below its end the circle goes on.
    assert poly["holes"] == [] and not a.contains(16, 5) and a.contains(16, 15)
    assert r["tokens"][0]["token"] == {"name": "orc", "x": 10.0, "y": 10.0, "size": 1.0, "footprint": "circle",
                                       "width": None, "depth": None, "elevation": 0.0, "tall": None, "tags": []}
    tpl = foundry_template(a)
    assert (tpl["t"], tpl["x"], tpl["y"], tpl["distance"]) == ("circle", 240, 160, 10.0)  # 100 px per 5 ft


def test_maps_on_hexes_and_the_open_table_are_valid_records():
    _, m = hex_map()
    r = validate(map_record(m))
    assert r["grid"]["lattice"] == "hex" and [t["name"] for t in r["tokens"]] == ["orc", "ally"]
    o = validate(map_record(ag.BattleMap(ag.Gridless(24, 16, units="in"), tokens=[ag.OpenToken(3, 4, size="large")])))
    assert o["grid"]["units"] == "in" and o["tokens"][0]["size"] == 2.0


def test_the_schema_refuses_a_hex_record_with_a_broken_cube():
    g, m = hex_map()
    r = area_record(ag.area(ag.Sphere(5), at=g.corners(4, 3)[3], on=m, rules="5e"))
    r["cube"][0] = [1, 2]
    with pytest.raises(ag.InvalidValueError, match="cube"):
        validate(r)


def test_hex_templates_are_written_back_into_the_hex_scene(tmp_path):
    """A Foundry hex scene read, an area placed, its template added to a copy of the scene at the right pixels."""
    from aoegrid.io import add_templates

    scene = {"name": "hexes", "width": 1000, "height": 800, "padding": 0.25, "_stats": {"coreVersion": "13.351"},
             "grid": {"type": 2, "size": 100, "distance": 5, "units": "ft"},
             "walls": [{"c": [600, 100, 600, 700], "move": 20, "sight": 20}]}
    path = tmp_path / "hexes.json"
    path.write_text(json.dumps(scene))
    m = ag.load_map(path)
    assert m.grid.kind == "hex" and m.info.pixels_per_square == 100.0
    corner = m.grid.corners(3, 3)[3]
    a = ag.area(ag.Sphere(10), at=corner, on=m, rules="5e")
    t = foundry_template(a)
    # The template sits on the corner's pixel: map point times the hex width plus the pixel of map point (0, 0).
    assert (t["x"], t["y"]) == (round(corner[0] * 100 + m.info.offset[0]), round(corner[1] * 100 + m.info.offset[1]))
    out = add_templates(path, [t], tmp_path / "with-template.json")
    written = json.loads(out.read_text())
    assert written["templates"] == [t] and written["grid"] == scene["grid"] and written["walls"] == scene["walls"]
