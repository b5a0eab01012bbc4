"""The explorer's server side: what `pip install aoegrid` enables in Jupyter Server.

That the extension loads in a real server and takes the kernel websockets is
held by tests/test_explorer_browser.py (JupyterLab's log), and what it buys by
the drag latency measured there.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytest.importorskip("jupyter_server")


def test_the_wheel_enables_the_server_extension() -> None:
    from aoegrid import explorer_server

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    shipped = project["tool"]["setuptools"]["data-files"]["etc/jupyter/jupyter_server_config.d"]
    assert shipped == ["jupyter-config/aoegrid.json"]
    config = json.loads((ROOT / shipped[0]).read_text())
    assert config == {"ServerApp": {"jpserver_extensions": {"aoegrid.explorer_server": True}}}
    assert explorer_server._jupyter_server_extension_points() == [{"module": "aoegrid.explorer_server"}]

