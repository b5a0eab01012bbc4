"""Sphinx configuration for aoegrid's documentation.

Build (from the repository's root, with the ``docs`` requirements installed)::

    python -m sphinx -W --keep-going -b html docs docs/_build/html

Warnings are errors (``-W``) and ``nitpicky`` is on: a broken cross-reference,
a failing example script or a notebook cell that raises fails the build.

Everything generated at build time (the rules pictures, the gallery's pages and
pictures, the notebooks' copies, the API stubs) goes into ``docs/_generated/``,
which the build rewrites each time and git ignores.
"""

from __future__ import annotations

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(DOCS / "_ext"))

import aoegrid

project = "aoegrid"
author = "the aoegrid authors"
copyright = "aoegrid authors"
release = aoegrid.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "numpydoc",
    "myst_nb",  # notebooks, executed at build time; brings myst_parser for the Markdown pages
    "sphinxarg.ext",  # the command line, from the parser aoegrid.cli builds
    "aoegrid_docs",  # docs/_ext/aoegrid_docs.py: the rules pictures, the schema tables, the gallery
]

source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store", "**/.ipynb_checkpoints"]
templates_path = ["_templates"]

# -- cross-references: every one must resolve ---------------------------------------------------
nitpicky = True
# Third-party and standard-library types the docstrings name: no intersphinx here (the build reads
# nothing from the network), so they cannot resolve; each is listed, none of aoegrid's own names.
nitpick_ignore_regex = [
    # numpy, shapely, matplotlib, PIL, dask, ipywidgets/anywidget types in signatures and docstrings
    (r"py:.*", r"(numpy|np|shapely|matplotlib|mpl|PIL|dask|distributed|ipywidgets|anywidget|traitlets|numpy\.typing|npt)(\..*)?"),
    # standard library and typing names numpydoc turns into references
    (r"py:.*", r"(pathlib|os|io|typing|collections|collections\.abc|argparse|json|enum|dataclasses|datetime)(\..*)?"),
    (r"py:.*", r"(Path|PathLike|TextIO|BinaryIO|Iterable|Iterator|Sequence|Mapping|Callable|Any|Literal|Self|Generator|Hashable|Collection|MutableMapping|Enum|StrEnum|IntEnum|NamedTuple|ArrayLike|NDArray|Axes|Figure|Polygon|MultiPolygon|LineString|Geometry|BaseGeometry|STRtree|Image|DataFrame|Client|SVG|Widget|DOMWidget|AnyWidget)"),
]

# -- numpydoc / autodoc -------------------------------------------------------------------------
numpydoc_show_class_members = False  # the autosummary pages list members themselves
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
numpydoc_validation_checks: set[str] = set()
autosummary_generate = True
autosummary_generate_overwrite = False  # the module pages aoegrid_docs writes stay as written
autosummary_imported_members = True
autodoc_default_options = {"members": True}
autodoc_typehints = "none"  # the numpydoc sections carry the types
autodoc_member_order = "bysource"
autoclass_content = "class"
add_module_names = False

# -- MyST and the notebooks -------------------------------------------------------------------
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3
# The README's "#section" links (included into several pages) resolve to the labels the pages put
# on those sections; only the std and py domains are searched (sphinx-argparse's domain cannot
# resolve MyST's any-domain lookups).
myst_ref_domains = ["std", "py"]
nb_execution_mode = "force"  # every notebook runs at each build
nb_execution_raise_on_error = True  # a cell that raises fails the build
nb_execution_timeout = 600
nb_execution_show_tb = True
nb_merge_streams = True

# -- HTML ---------------------------------------------------------------------------------------
html_theme = "furo"
html_title = f"aoegrid {release}"
html_static_path = ["_static"]
html_show_sourcelink = False
suppress_warnings = [
    # the explorer notebook's widget views have no static rendering
    "mystnb.unknown_mime_type",
]
