"""Loading a map file by its extension."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from aoegrid.io import foundry, text, uvtt
from aoegrid.io.common import MapFileError, as_path, check_options, read_json
from aoegrid.maps import BattleMap

__all__ = ["load_map"]


def load_map(path: str | os.PathLike[str], **options: Any) -> BattleMap:
    """A map from a file, the reader picked by the file's extension.

    Parameters
    ----------
    path : str or path-like
        ``.dd2vtt``, ``.uvtt``, ``.df2vtt``: :func:`~aoegrid.io.read_uvtt`; ``.json``:
        :func:`~aoegrid.io.read_foundry` if the file has a ``walls`` list, else
        :func:`~aoegrid.io.read_uvtt` if it has ``line_of_sight``; ``.txt``, ``.map``:
        :func:`~aoegrid.io.read_text_map` (a hex map when its first line is
        ``hex: ORIENTATION OFFSET``). Foundry scenes on any grid: square,
        hex (types 2 to 5) or gridless (type 0).
    **options
        Passed to the reader (``objects`` for Universal VTT,
        ``invisible_blocks_effect`` for Foundry).

    Raises
    ------
    MapFileError
        For an extension aoegrid cannot read (the message lists those it
        can), or a ``.json`` file that is neither a scene nor Universal VTT;
        and everything the readers raise.
    InvalidTypeError
        For an option the file's reader does not take.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "room.txt"
    >>> _ = path.write_text("#####\\n#a..#\\n#####\\n")
    >>> m = load_map(path)
    >>> m.grid.width, m.info.format, [t.name for t in m.tokens]
    (5, 'text', ['a'])
    """
    source = os.fspath(as_path(path))
    suffix = Path(source).suffix.lower()
    if suffix in uvtt.SUFFIXES:
        check_options(source, "Universal VTT", options, ("objects",))
        return uvtt.read_uvtt(path, **options)
    if suffix in text.SUFFIXES:
        check_options(source, "text map", options, ())
        return text.read_text_map(Path(source))
    if suffix == ".json":
        # Read the file once and look inside to choose the reader.
        src = read_json(Path(source), source)
        if isinstance(src.data.get("walls"), list):
            check_options(source, "Foundry VTT scene", options, ("invisible_blocks_effect",))
            return foundry.foundry_map(src, **options)
        if "line_of_sight" in src.data:
            check_options(source, "Universal VTT", options, ("objects",))
            return uvtt.uvtt_map(src, **options)
        raise MapFileError(
            f"{source}: neither a Foundry VTT scene (no 'walls' list) nor Universal VTT "
            f"(no 'line_of_sight')"
        )
    raise MapFileError(
        f"{source}: cannot read {suffix or 'files without an extension'!r}; supported: "
        f"{', '.join(uvtt.SUFFIXES)} (Universal VTT), .json (Foundry VTT scene or Universal VTT), "
        f"{', '.join(text.SUFFIXES)} (text map)"
    )
