"""The layout: modules in folders by layer, and every old module path still importing.

The old paths (``aoegrid.plotting``, ...) are kept by ``aoegrid/_aliases.py``; this is the
only test that uses them. Everything else imports the new paths.
"""

import importlib
import pickle
import subprocess
import sys
import types

import pytest

import aoegrid
from aoegrid._aliases import MOVED

OLD = sorted(old for old, new in MOVED.items() if new != f"aoegrid.{old}")
# old module names the package also has as a public name that is not the module:
# aoegrid.distance is the function distance(), as it always was
SHADOWED = {old for old in OLD if old in vars(aoegrid) and not isinstance(vars(aoegrid)[old], types.ModuleType)}


def test_the_table_is_not_empty_and_names_real_modules():
    assert OLD
    for new in MOVED.values():
        assert importlib.import_module(new).__name__ == new


@pytest.mark.parametrize("old", OLD)
def test_old_path_imports_the_same_module(old):
    new = importlib.import_module(MOVED[old])
    assert importlib.import_module(f"aoegrid.{old}") is new
    assert sys.modules[f"aoegrid.{old}"] is new
    assert new.__name__ == MOVED[old] and new.__spec__.name == MOVED[old]  # not renamed by the alias
    if old not in SHADOWED:
        assert getattr(aoegrid, old) is new  # aoegrid.plotting after import aoegrid


@pytest.mark.parametrize("old", OLD)
def test_from_aoegrid_import_old_module_name(old):
    got = getattr(__import__("aoegrid", fromlist=[old]), old)  # from aoegrid import <old>
    if old in SHADOWED:  # from aoegrid import distance: the function, as it always was
        assert got is vars(aoegrid)[old] and not isinstance(got, types.ModuleType)
    else:
        assert got is importlib.import_module(MOVED[old])


@pytest.mark.parametrize("old", OLD)
def test_from_old_path_import_a_name(old):
    new = importlib.import_module(MOVED[old])
    public = [n for n in vars(new) if not n.startswith("__")]
    if public:  # from aoegrid.<old> import <name>
        got = getattr(__import__(f"aoegrid.{old}", fromlist=[public[0]]), public[0])
        assert got is getattr(new, public[0])


def test_old_paths_in_a_fresh_interpreter():
    """Each form, with nothing imported before (the finder is installed by `import aoegrid`)."""
    forms = []
    for old in OLD:
        new = MOVED[old]
        if old in SHADOWED:  # the package's attribute stays the function; the module is there
            forms.append(f"import sys, aoegrid.{old}, {new}; assert sys.modules['aoegrid.{old}'] is {new}"
                         f" and not isinstance(aoegrid.{old}, type(sys)), {old!r}")
        else:
            forms.append(f"import aoegrid.{old}, {new}; assert aoegrid.{old} is {new}, {old!r}")
            forms.append(f"from aoegrid import {old} as m; import {new}; assert m is {new}, {old!r}")
    for code in forms[:6] + ["\n".join(forms)]:
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=120)
        assert done.returncode == 0, done.stderr[-2000:]


def test_pickles_naming_old_paths_load():
    """A pickle written before the move names the old module paths: it loads the same classes."""
    import aoegrid as ag
    from aoegrid.effects.result import AreaCore

    grid = ag.Grid(10, 10)
    now = pickle.dumps(grid, protocol=0)
    assert b"aoegrid.geometry.grid" in now
    assert pickle.loads(now.replace(b"aoegrid.geometry.grid", b"aoegrid.grid")) == grid
    assert pickle.loads(b"caoegrid.result\nAreaCore\n.") is AreaCore
    a = ag.area(ag.Sphere(10), at=(5, 5), on=grid)
    assert pickle.loads(pickle.dumps(a)).mask.tolist() == a.mask.tolist()


def test_documented_public_names_still_there():
    import aoegrid as ag

    for name in ag.__all__:
        assert getattr(ag, name) is not None, name
    assert callable(ag.area) and callable(ag.distance)  # functions, not the modules of those names
    assert "distance" in SHADOWED


def test_import_aoegrid_loads_no_matplotlib_and_no_picture_module():
    code = ("import sys, aoegrid; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('matplotlib', 'PIL') "
            "or m.startswith('aoegrid.show.')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert done.stdout.strip() == "[]"


def test_the_jupyter_server_extension_imports_by_its_configured_name():
    import json
    from pathlib import Path

    config = Path(__file__).resolve().parent.parent / "jupyter-config" / "aoegrid.json"
    for name in json.loads(config.read_text())["ServerApp"]["jpserver_extensions"]:
        pytest.importorskip("jupyter_server")
        assert importlib.import_module(name).__name__ == name
