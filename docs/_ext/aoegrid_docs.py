"""aoegrid's own Sphinx extension: what the site makes from the code at build time.

* ``config-inited`` (before Sphinx finds the sources and autosummary reads the API page): empties
  ``docs/_generated/``, copies the notebooks there (myst-nb executes them), writes
  one gallery page per script in ``examples/`` and the API reference page from
  ``aoegrid.__all__``.
* ``.. aoegrid-figure:: NAME``: a picture drawn by aoegrid now (one of FIGURES
  below), saved as a PNG under ``_generated/figures/``.
* ``.. aoegrid-rules-table::``: every preset's :class:`aoegrid.Rules` fields, read
  from :data:`aoegrid.PRESETS`.
* ``.. aoegrid-schema::``: the JSON Schema, one table per ``$defs`` entry.
* ``.. aoegrid-example:: NAME.py``: runs ``examples/NAME.py`` in a temporary
  folder (a failure is a build error) and shows its code, its output and every
  PNG it wrote; a script that writes no PNG gets a picture of its output.

Nothing here reads outside the repository: the rules' sentences are quoted in
the pages themselves.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.parsers.rst import Directive
from docutils.statemachine import StringList

DOCS = Path(__file__).resolve().parent.parent
ROOT = DOCS.parent
GENERATED = DOCS / "_generated"

# -- figures: the same placements under each preset ------------------------------------------------

PRESET_ORDER = ("starfinder", "pf2e", "sw5e", "savage-worlds")


def _grid_for(preset: str, w: int, h: int):
    import aoegrid as ag

    return ag.Grid(w, h, units="in" if ag.PRESETS[preset].units == "in" else "ft")


def _size(preset: str, feet: float) -> float:
    import aoegrid as ag

    return feet / 5 if ag.PRESETS[preset].units == "in" else feet


def _compare(title: str, make: Callable[[str, Any], Any], w: int, h: int, on: Callable[[str], Any] | None = None):
    """One panel per preset: ``make(preset, board)`` is the area; its own grid (inches for Savage Worlds)."""
    from aoegrid.show import plotting

    panels = []
    for p in PRESET_ORDER:
        board = on(p) if on else _grid_for(p, w, h)
        panels.append((p, make(p, board)))
    return plotting.compare(panels, columns=4, title=title).figure


def fig_burst():
    import aoegrid as ag

    return _compare("A 20-ft burst (Sphere(20)) from the intersection (8, 8)",
                    lambda p, g: ag.area(ag.Sphere(_size(p, 20)), at=(8, 8), on=g, rules=p), 16, 16)


def fig_cone():
    import aoegrid as ag

    return _compare("A 30-ft cone to the east from (2, 8)",
                    lambda p, g: ag.area(ag.Cone(_size(p, 30), "E"), at=(2, 8), on=g, rules=p), 10, 16)


def fig_cone_diagonal():
    import aoegrid as ag

    return _compare("A 30-ft cone to the south-east from (2, 2)",
                    lambda p, g: ag.area(ag.Cone(_size(p, 30), "SE"), at=(2, 2), on=g, rules=p), 10, 10)


def fig_line():
    import aoegrid as ag

    return _compare("A 40-ft line at 30 degrees (east-south-east) from (1, 2)",
                    lambda p, g: ag.area(ag.Line(_size(p, 40), 30), at=(1, 2), on=g, rules=p), 11, 9)


def fig_cube():
    import aoegrid as ag

    return _compare("A 15-ft cube from (3, 3)",
                    lambda p, g: ag.area(ag.Cube(_size(p, 15)), at=(3, 3), on=g, rules=p), 9, 9)


def fig_cylinder():
    import aoegrid as ag

    return _compare("A cylinder, 10-ft radius, 20 ft high, from (6, 6)",
                    lambda p, g: ag.area(ag.Cylinder(_size(p, 10), _size(p, 20)), at=(6, 6), on=g, rules=p), 12, 12)


def fig_emanation():
    import aoegrid as ag

    def make(p, g):
        return ag.area(ag.Sphere(_size(p, 10)), at=ag.Token(5, 5, size="large"), on=g, rules=p, mode="emanation")

    return _compare("A 10-ft emanation from a large creature at (5, 5)", make, 12, 12)


def _corridor(p):
    import aoegrid as ag

    walls = ag.walls_from([(0, 2), (8, 2), (8, 12)]) + ag.walls_from([(0, 4), (6, 4), (6, 12)])
    return ag.BattleMap(_grid_for(p, 10, 12), walls=walls)


def fig_spread():
    import aoegrid as ag

    return _compare("A 40-ft spread round the corner of an L-shaped corridor, from (2, 3)",
                    lambda p, m: ag.area(ag.Sphere(_size(p, 40)), at=(2, 3), on=m, rules=p, mode="spread"),
                    10, 12, on=_corridor)


def fig_walls():
    import aoegrid as ag

    def room(p):
        walls = ag.walls_from([(1, 1), (13, 1), (13, 11), (1, 11), (1, 1)]) + [ag.Wall((7, 1), (7, 5)), ag.Wall((7, 7), (7, 11))]
        toks = [ag.Token(9, 5, name="A"), ag.Token(10, 8, name="B"), ag.Token(4, 9, name="C")]
        return ag.BattleMap(_grid_for(p, 14, 12), walls=walls, tokens=toks)

    return _compare("A 25-ft burst by a doorway: walls cut it, creatures behind them get cover",
                    lambda p, m: ag.area(ag.Sphere(_size(p, 25)), at=(5, 5), on=m, rules=p), 14, 12, on=room)


def fig_hex():
    import aoegrid as ag
    from aoegrid.show import hexplot

    g = ag.HexGrid(11, 9)
    at = g.corners(5, 4)[0]
    panels = [(r, ag.area(ag.Sphere(15), at=at, on=g, rules=r)) for r in ("starfinder", "sw5e")]
    # Savage Worlds measures in inches, a hex an inch: its 3" template on the same 5-ft hexes.
    panels.append(("savage-worlds", ag.area(ag.Sphere(15), at=at, on=g,
                                            rules=ag.PRESETS["savage-worlds"].replace(units=None))))
    panels.append(("centre (Foundry)", ag.area(ag.Sphere(15), at=at, on=g,
                                               rules=ag.PRESETS["sw5e"].replace(inclusion="center"))))
    return hexplot.compare_hex(panels, title="A 15-ft burst from the same hex corner").figure


def fig_lancer():
    import matplotlib.pyplot as plt
    from matplotlib.patches import Polygon

    import aoegrid as ag
    from aoegrid import lancer
    from aoegrid.show import hexplot

    g = ag.HexGrid(11, 9)
    # LancerArea has no picture of its own in matplotlib (hexplot draws HexArea): its hexes filled here.
    panels = [("Blast 2 at (5, 4)", lancer.area(lancer.Blast(2), at=(5, 4), on=g), (5, 4)),
              ("Burst 1, user at (5, 4)", lancer.area(lancer.Burst(1), at=(5, 4), on=g), (5, 4)),
              ("Cone 4 east from (1, 4)", lancer.area(lancer.Cone(4), at=(1, 4), on=g, direction=0), (1, 4)),
              ("Line 5 east from (1, 4)", lancer.area(lancer.Line(5), at=(1, 4), on=g, direction=0), (1, 4))]
    fig, axes = plt.subplots(1, 4, figsize=(16, 4.4))
    for ax, (title, a, user) in zip(axes, panels):
        hexplot.plot_hex_grid(g, ax)
        for c, r in a.hexes:
            ax.add_patch(Polygon(g.corners(c, r), closed=True, facecolor="#e4572e", alpha=0.55, edgecolor="#8a2a12"))
        ax.add_patch(Polygon(g.corners(*user), closed=True, fill=False, edgecolor="black", linewidth=2.5))
        ax.set_title(f"{title}: {len(a.hexes)} hexes")
    fig.suptitle("Lancer's patterns, counted in hex steps (user's hex outlined)")
    return fig


FIGURES: dict[str, Callable[[], Any]] = {
    "burst": fig_burst,
    "cone": fig_cone,
    "cone-diagonal": fig_cone_diagonal,
    "line": fig_line,
    "cube": fig_cube,
    "cylinder": fig_cylinder,
    "emanation": fig_emanation,
    "spread": fig_spread,
    "walls": fig_walls,
    "hex": fig_hex,
    "lancer": fig_lancer,
}


def _image(uri: str, alt: str, width: str | None = None) -> nodes.image:
    node = nodes.image(uri=uri, alt=alt, candidates={"*": uri})
    if width:
        node["width"] = width
    return node


class FigureDirective(Directive):
    """``.. aoegrid-figure:: NAME``, with an optional caption as content."""

    required_arguments = 1
    has_content = True

    def run(self):
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        name = self.arguments[0]
        if name not in FIGURES:
            raise self.error(f"aoegrid-figure: no figure {name!r}; known: {', '.join(FIGURES)}")
        out = GENERATED / "figures" / f"{name}.png"
        out.parent.mkdir(parents=True, exist_ok=True)
        try:
            fig = FIGURES[name]()
            fig.savefig(out, dpi=90, bbox_inches="tight")
            plt.close(fig)
        except Exception as e:  # a figure that fails to draw fails the build
            raise self.error(f"aoegrid-figure {name}: {type(e).__name__}: {e}") from e
        env = self.state.document.settings.env
        env.note_dependency(__file__)
        fig_node = nodes.figure(classes=["aoegrid-figure"])
        fig_node += _image(f"/_generated/figures/{name}.png", f"aoegrid figure: {name}")
        if self.content:
            caption = nodes.caption()
            self.state.nested_parse(self.content, self.content_offset, caption)
            para = caption.children[0] if caption.children else None
            if isinstance(para, nodes.paragraph):
                caption = nodes.caption("", "", *para.children)
            fig_node += caption
        return [fig_node]


# -- the presets' fields ---------------------------------------------------------------------------


def _value(v: Any) -> str:
    if isinstance(v, frozenset):
        return ", ".join(sorted(str(x) for x in v)) or "none"
    return str(getattr(v, "value", v))


class RulesTableDirective(Directive):
    """``.. aoegrid-rules-table::``: a list-table, a row per Rules field, a column per preset."""

    def run(self):
        import dataclasses

        import aoegrid as ag

        names = list(ag.PRESETS)
        fields = [f.name for f in dataclasses.fields(ag.Rules) if f.name != "name"]
        lines = [".. list-table:: The presets' fields (read from ``aoegrid.PRESETS`` at build time)",
                 "   :header-rows: 1", "   :class: aoegrid-rules-table", "",
                 "   * - field"] + [f"     - ``{n}``" for n in names]
        for f in fields:
            lines.append(f"   * - ``{f}``")
            for n in names:
                lines.append(f"     - {_value(getattr(ag.PRESETS[n], f))}")
        return _parse(self, lines)


def _parse(directive: Directive, lines: list[str]) -> list[nodes.Node]:
    """reStructuredText lines parsed in place (in a MyST page, use the directive inside ``{eval-rst}``)."""
    node = nodes.container()
    directive.state.nested_parse(StringList(lines, source="<aoegrid-docs>"), 0, node)
    return node.children


# -- the JSON Schema -------------------------------------------------------------------------------


def _type_of(spec: dict) -> str:
    if "$ref" in spec:
        ref = spec["$ref"].split("/")[-1]
        return f":ref:`{ref} <schema-{ref}>`"
    if "const" in spec:
        return f"``{json.dumps(spec['const'])}``"
    if "enum" in spec:
        return "one of " + ", ".join(f"``{json.dumps(v)}``" for v in spec["enum"])
    for key in ("oneOf", "anyOf"):
        if key in spec:
            return " or ".join(_type_of(s) for s in spec[key])
    t = spec.get("type", "")
    if isinstance(t, list):
        t = " or ".join(t)
    if t == "array":
        if "prefixItems" in spec:
            return "array [" + ", ".join(_type_of(s) for s in spec["prefixItems"]) + "]"
        if "items" in spec:
            return f"array of {_type_of(spec['items'])}"
    return t or "any"


def _cell(text: str) -> str:
    return " ".join(str(text).split()) or " "


class SchemaDirective(Directive):
    """``.. aoegrid-schema::``: the top level and a table per ``$defs`` entry, with anchors ``schema-NAME``."""

    def run(self):
        from aoegrid.io.export import schema

        s = schema()
        lines = [f"The schema's title is ``{s['title']}``. {_cell(s.get('description', ''))}", "",
                 "Top-level ``record`` values: " + ", ".join(f"``{r}``" for r in s["properties"]["record"]["enum"]) + ".", ""]
        for name, spec in s["$defs"].items():
            lines += [f".. _schema-{name}:", "", f".. rubric:: {name}", "   :class: aoegrid-schema-def", ""]
            if spec.get("description"):
                lines += [_cell(spec["description"]), ""]
            props = spec.get("properties")
            if not props:
                lines += [f"Type: {_type_of(spec)}.", ""]
                continue
            required = set(spec.get("required", ()))
            lines += [".. list-table::", "   :header-rows: 1", "   :widths: 20 30 10 40", "",
                      "   * - field", "     - type", "     - required", "     - description"]
            for prop, ps in props.items():
                lines += [f"   * - ``{prop}``", f"     - {_cell(_type_of(ps))}",
                          f"     - {'yes' if prop in required else 'no'}", f"     - {_cell(ps.get('description', ''))}"]
            lines.append("")
        return _parse(self, lines)


# -- the gallery -----------------------------------------------------------------------------------


def _text_picture(text: str, out: Path) -> None:
    """A PNG of a script's text output (for the scripts that write no picture)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    lines = text.rstrip("\n").splitlines() or ["(no output)"]
    if len(lines) > 60:
        lines = lines[:58] + ["...", f"({len(lines) - 58} more lines)"]
    width = max(len(x) for x in lines)
    fig = plt.figure(figsize=(max(4.0, 0.075 * width + 0.4), 0.16 * len(lines) + 0.4))
    fig.text(0.02, 0.98, "\n".join(lines), family="monospace", fontsize=8, va="top", ha="left")
    fig.savefig(out, dpi=100)
    plt.close(fig)


class ExampleDirective(Directive):
    """``.. aoegrid-example:: NAME.py``: run the script, show its pictures, output and code."""

    required_arguments = 1

    def run(self):
        name = self.arguments[0]
        script = ROOT / "examples" / name
        if not script.is_file():
            raise self.error(f"aoegrid-example: no script examples/{name}")
        env = self.state.document.settings.env
        env.note_dependency(str(script))
        stem = script.stem
        outdir = GENERATED / "gallery" / "images"
        outdir.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(prefix=f"aoegrid-example-{stem}-") as tmp:
            run = subprocess.run([sys.executable, str(script)], cwd=tmp, capture_output=True, text=True,
                                 timeout=600, env={**os.environ, "MPLBACKEND": "Agg"}, check=False)
            if run.returncode != 0:
                raise self.error(f"examples/{name} failed (exit {run.returncode}):\n{run.stderr[-3000:]}")
            pngs = sorted(Path(tmp).rglob("*.png"))
            images = []
            for i, p in enumerate(pngs):
                dest = outdir / f"{stem}-{i}.png"
                shutil.copyfile(p, dest)
                images.append((dest.name, p.name))
        if not images:
            dest = outdir / f"{stem}-output.png"
            _text_picture(run.stdout, dest)
            images.append((dest.name, None))
        lines = []
        for file, written in images:
            lines += [f".. figure:: /_generated/gallery/images/{file}", f"   :alt: {stem}: {written or 'its output'}",
                      "   :class: aoegrid-gallery-image", "",
                      f"   {'The picture it writes, ``' + written + '``' if written else 'What it prints (it writes no picture)'}.",
                      ""]
        out = run.stdout.rstrip("\n")
        if out:
            shown = out.splitlines()
            if len(shown) > 80:
                shown = shown[:80] + [f"... ({len(shown) - 80} more lines)"]
            lines += [f"Output of ``python examples/{name}``:", "", ".. code-block:: text", ""]
            lines += ["   " + x for x in shown] + [""]
        lines += ["The script:", "", f".. literalinclude:: /../examples/{name}", "   :language: python", ""]
        return _parse(self, lines)


# -- generated sources -----------------------------------------------------------------------------


def _title(script: Path) -> str:
    import ast

    doc = ast.get_docstring(ast.parse(script.read_text(encoding="utf-8"))) or script.stem
    return doc.strip().splitlines()[0].rstrip(".")


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def _gallery() -> None:
    scripts = sorted((ROOT / "examples").glob("*.py"))
    for s in scripts:
        title = _title(s)
        _write(GENERATED / "gallery" / f"{s.stem}.rst",
               f"{title}\n{'=' * len(title)}\n\n``examples/{s.name}``, run when this page was built.\n\n"
               f".. aoegrid-example:: {s.name}\n")
    items = "\n".join(f"   {s.stem}" for s in scripts)
    _write(GENERATED / "gallery" / "index.rst", textwrap.dedent("""\
        Gallery
        =======

        Every script in ``examples/``, run in a temporary folder each time the site is built: its
        pictures, what it prints and its code. A script that fails fails the build.

        .. toctree::
           :maxdepth: 1

        """) + items + "\n")


def _notebooks() -> None:
    dest = GENERATED / "notebooks"
    dest.mkdir(parents=True, exist_ok=True)
    books = sorted((ROOT / "notebooks").glob("*.ipynb"))
    for nb in books:
        _write(dest / nb.name, nb.read_text(encoding="utf-8"))
    # the notebooks read nothing beside them but the package; keep their folder's other files too
    items = "\n".join(f"   {nb.stem}" for nb in books)
    _write(dest / "index.rst", textwrap.dedent("""\
        Notebooks
        =========

        The notebooks in ``notebooks/``, executed afresh each time the site is built (myst-nb), with
        their outputs. A cell that raises fails the build.

        .. toctree::
           :maxdepth: 1

        """) + items + "\n")


# What each public name is, for the API page's sections.
def _api() -> None:
    import inspect
    import types

    import aoegrid as ag

    groups: dict[str, list[str]] = {"Areas and boards": [], "Shapes": [], "Rules and options": [],
                                    "Creatures, range and targets": [], "Walls and sight": [],
                                    "Tactics and threat": [], "Map files": [], "Errors and warnings": [],
                                    "Constants": [], "Modules": []}
    where = {
        "Areas and boards": {"Area", "BattleMap", "Grid", "HexGrid", "Gridless", "OpenToken", "area", "open_area",
                             "explore", "Floor", "distance"},
        "Shapes": {"Cone", "Cube", "Cylinder", "Line", "Sphere", "Shapable"},
        "Creatures, range and targets": {"Token", "Space", "Range", "RangeKind", "Reach", "Reached", "Membership",
                                         "OriginCheck", "Origins", "can_target", "check_origin", "clip_to_range",
                                         "in_range", "legal_origins", "touch_targets", "reachable", "path_distance"},
        "Walls and sight": {"Wall", "walls_from", "line_of_effect", "Cover", "CoverRule"},
        "Tactics and threat": {"Candidate", "Placement", "Threat", "best_placements", "placement_scores",
                               "threat_map", "open_best_placements"},
        "Map files": {"MapFileError", "MapInfo", "demo_map", "load_map", "read_foundry", "read_text_map", "read_uvtt"},
    }
    for name in ag.__all__:
        obj = getattr(ag, name)
        if isinstance(obj, types.ModuleType):
            group = "Modules"
        elif inspect.isclass(obj) and issubclass(obj, (Exception, Warning)) and name != "MapFileError":
            group = "Errors and warnings"
        elif name.isupper():
            group = "Constants"
        else:
            group = next((g for g, names in where.items() if name in names), "Rules and options")
        groups[group].append(name)
    lines = ["API reference", "=============", "",
             "Every public name of the ``aoegrid`` package (``aoegrid.__all__``), generated from the",
             "docstrings. ``import aoegrid as ag`` and use them as ``ag.NAME``.", "",
             ".. currentmodule:: aoegrid", ""]
    for group, names in groups.items():
        if not names:
            continue
        lines += [group, "-" * len(group), "", ".. autosummary::", "   :toctree: api", "   :nosignatures:", ""]
        lines += [f"   {n}" for n in sorted(names, key=str.lower)] + [""]
    _write(GENERATED / "api.rst", "\n".join(lines))
    # The modules in __all__ live in a folder (aoegrid.lancer is aoegrid.effects.lancer): their pages
    # document the real module (so its members and its docstrings' short references resolve) under
    # the public name too. autosummary leaves these existing pages alone.
    for name in groups["Modules"]:
        real = getattr(ag, name).__name__
        title = f"aoegrid.{name}"
        _write(GENERATED / "api" / f"{title}.rst",
               f"{title}\n{'=' * len(title)}\n\n.. py:module:: {title}\n\n"
               f"``import aoegrid as ag; ag.{name}`` is the module ``{real}``.\n\n"
               f".. automodule:: {real}\n   :members:\n")


def _generate(app, config=None) -> None:
    for sub in ("figures", "gallery/images", "api"):
        d = GENERATED / sub
        if d.exists():
            shutil.rmtree(d)
    GENERATED.mkdir(exist_ok=True)
    _write(GENERATED / ".gitignore", "*\n")
    _gallery()
    _notebooks()
    _api()


# -- references to public objects by their module paths ---------------------------------------------


def _public_name(target: str) -> str | None:
    """``aoegrid.effects.ranges.in_range`` -> ``aoegrid.in_range``: the public name of the same object.

    The reference documents each public object once, as ``aoegrid.NAME``; docstrings name them by
    the module they live in too (``aoegrid.io.read_uvtt``, ``aoegrid.explorer.explore``,
    ``aoegrid.geometry.tokens.SIZES``), and members by their class (``BattleMap.terrain``). Only a
    name ``aoegrid.__all__`` holds is answered; anything else stays unresolved (a build error).
    """
    import aoegrid as ag

    parts = target.split(".")
    if parts[0] == "aoegrid":
        parts = parts[1:]
    for i, part in enumerate(parts):
        if part in ag.__all__:
            rest = parts[i + 1:]
            if i > 0:  # a module path before it: it must be the same object there
                try:
                    import importlib

                    mod = importlib.import_module("aoegrid." + ".".join(parts[:i]))
                    if getattr(mod, part, None) is not getattr(ag, part) and part != "explore":
                        return None
                except ImportError:
                    return None
            obj = getattr(ag, part)
            for r in rest:
                if not hasattr(obj, r):
                    return None
                obj = getattr(obj, r)
            return ".".join(["aoegrid", part, *rest])
    return None


def _missing_reference(app, env, node, contnode):
    if node.get("refdomain") != "py":
        return None
    target = node.get("reftarget", "")
    public = _public_name(target)
    if public is None or public == target:
        return None
    domain = env.get_domain("py")
    builder = app.builder
    node = node.deepcopy()
    node["reftarget"] = public
    for role in (node.get("reftype"), "obj"):
        found = domain.resolve_xref(env, node.get("refdoc"), builder, role, public, node, contnode)
        if found is not None:
            return found
    return None


def setup(app):
    app.connect("missing-reference", _missing_reference)
    app.connect("config-inited", _generate)  # before the sources are found and autosummary writes its stubs
    app.add_directive("aoegrid-figure", FigureDirective)
    app.add_directive("aoegrid-rules-table", RulesTableDirective)
    app.add_directive("aoegrid-schema", SchemaDirective)
    app.add_directive("aoegrid-example", ExampleDirective)
    return {"version": "1", "parallel_read_safe": False, "parallel_write_safe": True}
