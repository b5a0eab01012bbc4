"""The explorer end to end: Voilà serves a notebook calling ``ag.explore``, headless Chromium clicks it.

The test starts Voilà (which runs the notebook in a real kernel and renders
its widget with the same front end JupyterLab uses) on 127.0.0.1 with a free
port, a token and a temporary folder, opens the page with Playwright driving
Debian's Chromium (``/usr/bin/chromium``; Playwright's own browser download is
not used), clicks the map, drags a cone's aim, and checks that the count and
the creature list shown are what :func:`aoegrid.area` computes for the point.
Then it drags a burst's origin over 60 intersections at the screen's rate and
measures, in the page, the time from each pointer move to the summary showing
that position or a later one (printed with ``-s``, and recorded as the
``drag_latency_ms`` property); the final state must be :func:`aoegrid.area`'s.
It saves a screenshot of the explorer (the burst clicked at (12, 11), the
creatures listed, the score map shown) in its temporary folder, and with
``AOEGRID_UPDATE_SCREENSHOT=1`` as ``docs/explorer.png``.
A second test does the same in JupyterLab 4 itself: it opens a notebook
showing ``ag.explore(ag.demo_map())``, runs it from the Run menu, and clicks.
Bounded: every wait has a timeout, and the server is stopped in ``finally``.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.conftest import CAVE_PARTY as SETUP

import aoegrid as ag

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
SCREENSHOT = Path(__file__).resolve().parents[1] / "docs" / "explorer.png"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.access(CHROMIUM, os.X_OK),
                       reason="Chromium not installed (apt-get install -y chromium; .ci/run installs it)"),
]

#: The notebook the browser renders: the README's cave party, and the explorer on it.
SHOW = 'ag.explore(m, ag.Sphere(20), rules="starfinder", caster=kira, at=(5, 5))'


def _notebook(path: Path, *sources: str) -> None:
    """A notebook of code cells, one a source, not yet run."""
    cells = [{"cell_type": "code", "id": f"cell-{i}", "metadata": {}, "execution_count": None, "outputs": [],
              "source": src} for i, src in enumerate(sources)]
    nb = {"nbformat": 4, "nbformat_minor": 5, "cells": cells,
          "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}}
    path.write_text(json.dumps(nb), encoding="utf-8")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_for_server(url: str, proc: subprocess.Popen[bytes], log: Path, deadline: float,
                     what: str = "voila") -> None:
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"{what} exited with {proc.returncode}:\n{log.read_text(errors='replace')[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except (urllib.error.URLError, OSError):
            time.sleep(0.3)
    raise AssertionError(f"{what} did not answer in time:\n{log.read_text(errors='replace')[-3000:]}")


def _stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)


@contextlib.contextmanager
def _voila(nb: Path, tmp_path: Path, deadline: float) -> Iterator[str]:
    """Voilà serving the notebook ``nb`` on 127.0.0.1, a free port and a fresh token: the page's URL once it answers.

    Its runtime and configuration stay in ``tmp_path``, its log in ``voila.log`` there; stopped on leaving.
    """
    port, token = _free_port(), os.urandom(16).hex()
    log = tmp_path / "voila.log"
    env = {**os.environ, "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime"), "JUPYTER_CONFIG_DIR": str(tmp_path / "config"),
           "JUPYTER_PLATFORM_DIRS": "1"}
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "voila", str(nb), "--no-browser", f"--port={port}", "--Voila.ip=127.0.0.1",
             f"--token={token}", f"--Voila.root_dir={tmp_path}", "--show_tracebacks=True",
             # Voila on its own loads no server extension: it takes the connection as an option.
             "--Voila.kernel_websocket_connection_class=aoegrid.explorer_server.NoDelayConnection"],
            cwd=tmp_path, env=env, stdout=out, stderr=subprocess.STDOUT,
        )
    try:
        url = f"http://127.0.0.1:{port}/?token={token}"
        _wait_for_server(url, proc, log, deadline)
        yield url
    finally:
        _stop(proc)


def _expected(at: tuple[float, float], shape: ag.geometry.shapes.Shape, m: ag.BattleMap, **kw: object) -> tuple[str, list[str]]:
    """What the widget should show: the count, and the creatures with their cover, computed by the library."""
    a = ag.area(shape, at=at, on=m, rules="starfinder", **kw)
    cover = [f"{r.token.label}: {'no cover' if r.cover_name == 'none' else r.cover_name}" for r in a.tokens()]
    return f"{len(a)} squares", cover


def _map() -> ag.BattleMap:
    """The notebook's map, made by running the notebook's own first cell here."""
    scope: dict[str, object] = {}
    exec(SETUP, scope)  # noqa: S102 (the constant source above, so the test and the page share one map)
    m = scope["m"]
    assert isinstance(m, ag.BattleMap)
    return m


def _caster(m: ag.BattleMap) -> ag.Token:
    """The notebook's caster, Kira."""
    return next(t for t in m.tokens if t.name == "Kira")


#: The drag: 60 intersections, row by row, each row the other way (every move a new origin, none twice).
DRAG = [(x if y % 2 == 0 else 21 - x, y) for y in range(6, 12) for x in range(6, 16)]

#: Records, in the page, the time of each pointer move with a button down and of each summary the widget shows.
_PROBE = """() => {
  const probe = { moves: [], shows: [] };
  window.addEventListener("pointermove", (e) => { if (e.buttons) probe.moves.push(performance.now()); }, true);
  const summary = document.querySelector(".aoegrid-summary");
  new MutationObserver(() => probe.shows.push([performance.now(), summary.querySelector(".aoegrid-what").textContent]))
    .observe(summary, { childList: true, subtree: true, characterData: true });
  window.aoegridProbe = probe;
}"""


def _latencies(moves: list[float], shows: list[list[Any]]) -> list[float]:
    """For each move of :data:`DRAG`, the ms until the summary showed its origin or a later one's.

    A later one counts: moves made while an answer is out are coalesced, the
    latest going out when it comes back.
    """
    rank = {p: i for i, p in enumerate(DRAG)}
    shown = []
    for t, text in shows:
        found = re.search(r"at \((\d+), (\d+)\)", str(text))
        if found:
            shown.append((float(t), rank.get((int(found[1]), int(found[2])), -1)))
    return [next(ts - t for ts, r in shown if ts >= t and r >= i) for i, t in enumerate(moves)]


def _percentile(values: list[float], q: float) -> float:
    """The ``q``-th percentile, nearest rank."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def test_click_and_drag_in_a_browser(tmp_path: Path, record_property: Callable[[str, object], None]) -> None:
    from playwright.sync_api import expect, sync_playwright

    start = time.monotonic()
    deadline = start + 110  # the whole test, server start to shutdown, stays under two minutes
    m = _map()
    nb = tmp_path / "explorer.ipynb"
    _notebook(nb, SETUP, SHOW)
    with _voila(nb, tmp_path, deadline) as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True)
        try:
            page = browser.new_page(viewport={"width": 1200, "height": 900})
            page.set_default_timeout(30_000)
            page.goto(url, timeout=60_000)
            count = page.locator(".aoegrid-count")
            creatures = page.locator(".aoegrid-creatures li")
            # The first picture: the burst at (5, 5), as explore() was told.
            first, first_cover = _expected((5, 5), ag.Sphere(20), m)
            expect(count).to_have_text(first, timeout=max(1_000, (deadline - time.monotonic() - 30) * 1000))
            assert creatures.all_inner_texts() == first_cover

            # Click near the intersection (12, 11): snapped to it under Starfinder.
            board = page.locator(".aoegrid-map").bounding_box()
            assert board is not None
            w, h = m.grid.width, m.grid.height
            page.mouse.click(board["x"] + 12.3 / w * board["width"], board["y"] + 10.8 / h * board["height"])
            text, cover = _expected((12, 11), ag.Sphere(20), m)
            assert (text, cover) != (first, first_cover)
            expect(count).to_have_text(text)
            expect(creatures).to_have_text(cover)
            expect(page.locator(".aoegrid-what")).to_contain_text("at (12, 11)")

            # A cone, aimed by dragging from the origin toward the south-east.
            page.locator("select.aoegrid-shape").select_option("cone")
            expect(page.locator(".aoegrid-what")).to_contain_text("cone 20 ft toward 0")
            ox, oy = board["x"] + 12 / w * board["width"], board["y"] + 11 / h * board["height"]
            page.mouse.move(ox + 2, oy + 2)
            page.mouse.down()
            page.mouse.move(ox + 40, oy + 20, steps=5)
            page.mouse.move(ox + 80, oy + 80, steps=5)
            page.mouse.up()
            cone, cone_cover = _expected((12, 11), ag.Cone(20, 45), m)
            expect(page.locator(".aoegrid-what")).to_contain_text("toward 45")
            expect(count).to_have_text(cone)
            expect(creatures).to_have_text(cone_cover)

            # A burst's origin dragged over 60 intersections, a move every 16 ms (the screen's rate).
            page.locator("select.aoegrid-shape").select_option("sphere")
            expect(page.locator(".aoegrid-what")).to_contain_text("sphere 20 ft at (12, 11)")
            page.evaluate(_PROBE)
            x0, y0 = DRAG[0]
            page.mouse.move(board["x"] + (x0 - 0.3) / w * board["width"], board["y"] + (y0 + 0.1) / h * board["height"])
            page.mouse.down()
            for x, y in DRAG:
                page.mouse.move(board["x"] + (x + 0.1) / w * board["width"], board["y"] + (y + 0.1) / h * board["height"])
                page.wait_for_timeout(16)
            page.mouse.up()
            last, last_cover = _expected(DRAG[-1], ag.Sphere(20), m, caster=_caster(m))
            expect(page.locator(".aoegrid-what")).to_contain_text(f"at ({DRAG[-1][0]}, {DRAG[-1][1]})")
            expect(count).to_have_text(last)
            expect(creatures).to_have_text(last_cover)
            probe = page.evaluate("() => window.aoegridProbe")
            assert len(probe["moves"]) == len(DRAG)
            lag = _latencies(probe["moves"], probe["shows"])
            median, p95 = statistics.median(lag), _percentile(lag, 95)
            record_property("drag_latency_ms", {"median": round(median, 1), "p95": round(p95, 1), "moves": len(lag)})
            print(f"\nexplorer drag on the bundled cave, {len(lag)} pointer moves, move to updated summary: "
                  f"median {median:.1f} ms, p95 {p95:.1f} ms (goal: 30 and 60 ms), max {max(lag):.1f} ms")
            assert p95 <= 500  # generous: a loaded CI machine must not fail it; the figures above are the measure

            # The picture the README shows: the burst clicked at (12, 11), the creatures, the score map.
            page.mouse.click(board["x"] + 12.2 / w * board["width"], board["y"] + 10.9 / h * board["height"])
            expect(count).to_have_text(text)
            expect(creatures).to_have_text(cover)
            page.locator(".aoegrid-scores").check()
            expect(page.locator(".aoegrid-best")).to_contain_text("best at (12, 11): 4 (Mog, Snik, Urg, Ogre)")
            shot = page.locator(".aoegrid-explorer")
            shot.screenshot(path=str(tmp_path / "explorer.png"))
            if os.environ.get("AOEGRID_UPDATE_SCREENSHOT") == "1":
                shot.screenshot(path=str(SCREENSHOT))
        finally:
            browser.close()
    assert time.monotonic() - start < 120


#: The notebook JupyterLab opens: the explorer on the bundled map, with the defaults.
LAB_CELL = "import aoegrid as ag; m = ag.demo_map(); w = ag.explore(m); w"


def test_click_in_jupyterlab(tmp_path: Path) -> None:
    """JupyterLab 4 (not Voilà) loads anywidget's front end, renders the explorer, and a click reaches the kernel."""
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import expect, sync_playwright

    start = time.monotonic()
    deadline = start + 110
    m = ag.demo_map()
    root = tmp_path / "root"
    root.mkdir()
    _notebook(root / "explorer.ipynb", LAB_CELL)
    port, token = _free_port(), os.urandom(16).hex()
    log = tmp_path / "lab.log"
    env = {**os.environ, "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime"), "JUPYTER_CONFIG_DIR": str(tmp_path / "config"),
           "JUPYTERLAB_SETTINGS_DIR": str(tmp_path / "settings"),
           "JUPYTERLAB_WORKSPACES_DIR": str(tmp_path / "workspaces"), "JUPYTER_PLATFORM_DIRS": "1"}
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "jupyterlab", "--ServerApp.open_browser=False", "--ServerApp.ip=127.0.0.1",
             f"--ServerApp.port={port}", f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}",
             "--ServerApp.allow_root=True", "--LabApp.news_url=",
             "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
             # What `pip install aoegrid` enables through etc/jupyter (an editable install leaves that file out).
             "--ServerApp.jpserver_extensions={'aoegrid.explorer_server': True}"],
            cwd=tmp_path, env=env, stdout=out, stderr=subprocess.STDOUT,
        )
    console: list[str] = []
    try:
        _wait_for_server(f"http://127.0.0.1:{port}/api/status?token={token}", proc, log, deadline, "jupyterlab")
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True)
            try:
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                page.on("console", lambda msg: console.append(f"{msg.type}: {msg.text}"))
                page.on("pageerror", lambda err: console.append(f"pageerror: {err}"))
                page.set_default_timeout(30_000)
                page.goto(f"http://127.0.0.1:{port}/lab/tree/explorer.ipynb?reset&token={token}", timeout=60_000)
                # The notebook is open and connected to its kernel (the status bar reads "Python 3 (ipykernel) |
                # Idle"; run before that, JupyterLab would ask for a kernel or drop the run); then Run > Run All
                # Cells, and the cell's prompt shows it ran.
                page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']").wait_for(timeout=60_000)
                expect(page.locator("#jp-main-statusbar")).to_contain_text("| Idle", timeout=60_000)
                page.locator(".jp-NotebookPanel .jp-Notebook").click()
                page.get_by_role("menuitem", name="Run", exact=True).click()
                page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
                expect(page.locator(".jp-Cell .jp-InputPrompt").first).to_contain_text("[1]", timeout=60_000)

                count = page.locator(".aoegrid-count")
                first = f"{len(ag.area(ag.Sphere(20), at=(10, 10), on=m, rules='starfinder'))} squares"
                expect(count).to_have_text(first, timeout=max(1_000, (deadline - time.monotonic() - 30) * 1000))
                expect(page.locator(".aoegrid-what")).to_contain_text("at (10, 10)")

                # Click near the intersection (4, 4), by the cave's north-west wall: snapped to it.
                board = page.locator(".aoegrid-map").bounding_box()
                assert board is not None
                w, h = m.grid.width, m.grid.height
                page.mouse.click(board["x"] + 4.3 / w * board["width"], board["y"] + 3.8 / h * board["height"])
                text = f"{len(ag.area(ag.Sphere(20), at=(4, 4), on=m, rules='starfinder'))} squares"
                assert text != first
                expect(count).to_have_text(text)
                expect(page.locator(".aoegrid-what")).to_contain_text("at (4, 4)")
                # The server extension that `pip install aoegrid` enables took the kernel websockets.
                assert "aoegrid: kernel websockets send at once (TCP_NODELAY)" in log.read_text(errors="replace")
            except (AssertionError, PlaywrightError) as e:
                # What a failure needs: the browser console, the widget's HTML, the page, the server's log.
                try:
                    widget = page.locator(".jp-OutputArea").first.inner_html(timeout=2_000)[-3000:]
                    page.screenshot(path=str(tmp_path / "jupyterlab.png"), timeout=5_000)
                except PlaywrightError:
                    widget = "(no output area)"
                raise AssertionError(
                    f"{e}\nconsole:\n" + "\n".join(console[-40:]) + f"\noutput area:\n{widget}\n"
                    f"page: {tmp_path / 'jupyterlab.png'}\nserver log:\n{log.read_text(errors='replace')[-3000:]}"
                ) from e
            finally:
                browser.close()
    finally:
        _stop(proc)
    assert time.monotonic() - start < 120
