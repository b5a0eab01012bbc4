"""The package as it ships (issue 22): the sdist and the wheel `python -m build` makes, one version,
and `python -m aoegrid`.

The build runs once for the module (about 10 s: an isolated build environment, then the sdist, then
the wheel built from the unpacked sdist, as a release is). .ci/run also installs the wheel into a
fresh virtual environment and runs `aoegrid demo` from it.
"""

import re
import subprocess
import sys
import tarfile
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

import aoegrid

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "aoegrid"
V = aoegrid.__version__

# Everything in the wheel that is not a module: the demo map and its licence, the JSON schema, the
# typing marker, and the Jupyter Server config (installed into <prefix>/etc/jupyter).
WHEEL_DATA = {
    "aoegrid/py.typed",
    "aoegrid/data/cave-oganm.dd2vtt",
    "aoegrid/data/LICENSE-cave-oganm.txt",
    "aoegrid/data/aoegrid.schema.json",
    f"aoegrid-{V}.data/data/etc/jupyter/jupyter_server_config.d/aoegrid.json",
}


def _files(folder: Path) -> set[str]:
    """The files under a folder of the checkout, relative to the checkout, less caches."""
    return {p.relative_to(ROOT).as_posix() for p in folder.rglob("*")
            if p.is_file() and "__pycache__" not in p.parts and ".hypothesis" not in p.parts}


@pytest.fixture(scope="module")
def dists(tmp_path_factory):
    """(sdist, wheel): `python -m build` of this checkout."""
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)], capture_output=True,
                          text=True, check=False, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    [sdist] = out.glob("*.tar.gz")
    [wheel] = out.glob("*.whl")
    assert (sdist.name, wheel.name) == (f"aoegrid-{V}.tar.gz", f"aoegrid-{V}-py3-none-any.whl")
    return sdist, wheel


def test_the_wheel_holds_the_modules_and_the_data_and_nothing_else(dists):
    names = set(zipfile.ZipFile(dists[1]).namelist())
    meta = {n for n in names if n.startswith(f"aoegrid-{V}.dist-info/")}
    package = names - meta
    assert {n for n in package if not n.endswith(".py")} == WHEEL_DATA
    # Every module of the source, and no other (a stale build/ folder can hold modules long moved).
    assert {n for n in package if n.endswith(".py")} == {
        f"aoegrid/{p.relative_to(SRC).as_posix()}" for p in SRC.rglob("*.py") if "__pycache__" not in p.parts}
    assert not any(n.startswith(("tests/", "docs/", "benchmarks/", "examples/", "notebooks/")) for n in names)
    # Both licences travel with it (PEP 639: dist-info/licenses/, under their paths in the sdist).
    assert {f"aoegrid-{V}.dist-info/licenses/LICENSE",
            f"aoegrid-{V}.dist-info/licenses/src/aoegrid/data/LICENSE-cave-oganm.txt"} <= meta


def test_the_wheel_metadata(dists):
    with zipfile.ZipFile(dists[1]) as whl:
        meta = Parser().parsestr(whl.read(f"aoegrid-{V}.dist-info/METADATA").decode())
        entry_points = whl.read(f"aoegrid-{V}.dist-info/entry_points.txt").decode()
    assert (meta["Name"], meta["Version"], meta["License-Expression"]) == ("aoegrid", V, "MIT")
    assert meta["Requires-Python"] == ">=3.11"
    assert meta["Description-Content-Type"] == "text/markdown" and "# aoegrid" in meta.get_payload()
    urls = dict(u.split(", ", 1) for u in meta.get_all("Project-URL"))
    assert set(urls) == {"Homepage", "Documentation", "Source", "Issues", "Changelog"}
    classifiers = meta.get_all("Classifier")
    assert "Operating System :: OS Independent" in classifiers and "Typing :: Typed" in classifiers
    # The Pythons claimed are those .ci/run installs the base package on.
    assert [c for c in classifiers if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)]
    base = [r for r in meta.get_all("Requires-Dist") if "extra ==" not in r]
    assert not any(r.startswith("numba") for r in base)  # the base install needs no compiler
    assert "aoegrid = aoegrid.cli:main" in entry_points


def test_the_sdist_holds_the_tests_and_their_data(dists):
    top = f"aoegrid-{V}/"
    with tarfile.open(dists[0]) as tar:
        names = {m.name.removeprefix(top) for m in tar.getmembers() if m.isfile()}
    assert _files(ROOT / "tests") <= names
    assert any(n.startswith("tests/data/") for n in names)
    assert {"LICENSE", "README.md", "pyproject.toml", "src/aoegrid/data/README.md",
            "jupyter-config/aoegrid.json"} <= names
    assert _files(SRC) - {n for n in _files(SRC) if n.endswith((".pyc", ".pyo"))} <= names
    assert not any("__pycache__" in n or n.endswith(".pyc") for n in names)


def test_twine_check_passes(dists):
    done = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", *map(str, dists)],
                          capture_output=True, text=True, check=False, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("PASSED") == 2


def test_one_version_in_one_place():
    """pyproject.toml takes the version from aoegrid/__init__.py; it is a literal setuptools reads
    without importing aoegrid, and `import aoegrid` reads no package metadata to know it."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "aoegrid.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+((a|b|rc)\d+)?(\.dev\d+)?", V)
    [line] = [ln for ln in (SRC / "__init__.py").read_text().splitlines() if ln.startswith("__version__")]
    assert line.startswith(f'__version__ = "{V}"')  # a literal: nothing computed
    code = "import sys, aoegrid, aoegrid.cli; print(sorted({'importlib.metadata', 'tqdm'} & set(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert done.stdout.strip() == "[]"


def test_python_m_aoegrid_is_the_aoegrid_command(tmp_path):
    version = subprocess.run([sys.executable, "-m", "aoegrid", "--version"], capture_output=True, text=True,
                             check=False, timeout=120)
    assert (version.returncode, version.stdout) == (0, f"aoegrid {V}\n")
    script = Path(sys.executable).with_name("aoegrid")
    runs = {}
    for name, command in {"module": [sys.executable, "-m", "aoegrid"], "script": [str(script)]}.items():
        folder = tmp_path / name
        folder.mkdir()
        done = subprocess.run([*command, "demo"], capture_output=True, text=True, check=False, cwd=folder,
                              timeout=300)
        assert done.returncode == 0, done.stderr
        runs[name] = (done.stdout, done.stderr, (folder / "aoegrid-demo.png").read_bytes())
    assert runs["module"] == runs["script"]
    stdout, _, png = runs["module"]
    assert stdout.startswith("map: cave-oganm.dd2vtt") and "picture: aoegrid-demo.png" in stdout
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    usage = subprocess.run([sys.executable, "-m", "aoegrid", "demo", "--help"], capture_output=True, text=True,
                           check=False, timeout=120)
    assert usage.returncode == 0 and usage.stdout.startswith("usage: aoegrid demo")
