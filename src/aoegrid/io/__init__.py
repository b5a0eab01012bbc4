"""Battle maps from files: Universal VTT, Foundry VTT scenes and text sketches.

:func:`load_map` picks the reader by extension:

========================================  =====================================
extension                                 reader
========================================  =====================================
``.dd2vtt``, ``.uvtt``, ``.df2vtt``       :func:`read_uvtt` (Universal VTT
                                          0.2 / 0.3: Dungeondraft, DungeonFog,
                                          Arkenforge...)
``.json``                                 :func:`read_foundry` for an exported
                                          Foundry VTT scene (it has a
                                          ``walls`` list), :func:`read_uvtt`
                                          for Universal VTT saved as JSON
``.txt``, ``.map``                        :func:`read_text_map`
========================================  =====================================

Every reader returns a :class:`~aoegrid.BattleMap` in grid units (squares of
5 ft unless the file says otherwise) whose ``info`` is a :class:`MapInfo`:
the source, the format, where the grid lies in the file's pixels
(``pixels_per_square``, ``offset``), the lights, a Foundry scene's
background image, and notes on everything odd found while reading (dropped
zero-length walls, walls cut under doors, walls off the image, tokens off
their squares...). A file that cannot be read raises :class:`MapFileError`, whose
message names the file and the field, e.g. ``cave.dd2vtt:
resolution.pixels_per_grid must be a positive number, got -3``. Missing files
and unreadable disks raise the usual :class:`OSError`; a directory, a FIFO or
a device is refused without waiting to read it.

Files are read as UTF-8, with or without a byte order mark, or as UTF-16 or
UTF-32 (by their byte order mark, or UTF-16 without one by its zero bytes);
other bytes give a :class:`MapFileError` naming the offset of the bad byte.

The package has a module per format, reading (and, for Foundry, writing)
side by side: :mod:`aoegrid.io.uvtt`, :mod:`aoegrid.io.foundry`,
:mod:`aoegrid.io.text`; and :mod:`aoegrid.io.common` for what they share
(safe opening, encodings, the lazy JSON scanner, field checks,
:class:`MapInfo`).

Examples
--------
>>> from aoegrid.io import demo_map
>>> m = demo_map()
>>> m.info.format, m.info.pixels_per_square, m.info.offset
('uvtt 0.3', 64.0, (0.0, 0.0))
"""

from typing import TYPE_CHECKING

# Loaded on first use (PEP 562): `import aoegrid.io.export` (the JSON records, which the
# command line imports at start-up) does not load the map readers.
_LAZY = {
    "Level": "aoegrid.io.common",
    "Light": "aoegrid.io.common",
    "MapFileError": "aoegrid.io.common",
    "MapInfo": "aoegrid.io.common",
    "decode_text": "aoegrid.io.common",
    "add_templates": "aoegrid.io.foundry",
    "read_foundry": "aoegrid.io.foundry",
    "load_map": "aoegrid.io.load",
    "hex_text": "aoegrid.io.text",
    "read_text_map": "aoegrid.io.text",
    "demo_map": "aoegrid.io.uvtt",
    "read_uvtt": "aoegrid.io.uvtt",
}

if TYPE_CHECKING:
    from aoegrid.io.common import Level, Light, MapFileError, MapInfo, decode_text
    from aoegrid.io.foundry import add_templates, read_foundry
    from aoegrid.io.load import load_map
    from aoegrid.io.text import hex_text, read_text_map
    from aoegrid.io.uvtt import demo_map, read_uvtt
else:

    def __getattr__(name: str):
        import importlib

        if name not in _LAZY:
            raise AttributeError(f"module 'aoegrid.io' has no attribute {name!r}")
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value  # later lookups are plain attribute reads
        return value

    def __dir__() -> list[str]:
        return sorted(set(globals()) | set(_LAZY))

__all__ = [
    "Level",
    "Light",
    "MapFileError",
    "MapInfo",
    "add_templates",
    "decode_text",
    "demo_map",
    "hex_text",
    "load_map",
    "read_foundry",
    "read_text_map",
    "read_uvtt",
]
