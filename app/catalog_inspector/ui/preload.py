"""What the window's first frame imports before Qt, and what it leaves for the engine's thread behind it.

Qt-free, standard library only at the top: `ui.app` uses it before PySide6 is imported, and
`ui.startup` (the engine's thread, the start-up probe) reads the same lists.
"""

from __future__ import annotations

import importlib
import sys

__all__ = ["BEFORE_QT", "BEHIND_FIRST_FRAME", "import_before_qt", "late_imported", "load_behind_first_frame"]

# What the window imports that has no Qt in it, imported before Qt: once PySide6 is in, its import hook reads
# the source of every module imported after it, looking for "PySide6" (shiboken's `__feature__` support), and
# the window's ~120 Qt-free modules and asyncio's ~30 cost about 40 ms of the first frame that way.
BEFORE_QT = (
    "asyncio",
    "concurrent.futures",
    "catalog_inspector.core.calls",
    "catalog_inspector.core.calls.logs",  # of the rooms behind the first frame, what the runtime and the window make
    "catalog_inspector.core.calls.sandbox",
    "catalog_inspector.core.calls.store",
    "catalog_inspector.core.calls.tasks",
    "catalog_inspector.core.catalog",
    "catalog_inspector.core.config",
    "catalog_inspector.core.drift",
    "catalog_inspector.core.drift.history",
    "catalog_inspector.core.paths",
    "catalog_inspector.core.processes",
    "catalog_inspector.core.server_log",
)

# Rooms whose faces load their modules on demand, and that the first frame needs almost nothing of (~40 ms of it on
# the 2-core machine, most of it making their dataclasses): what the runtime and the window make at start is named
# in `BEFORE_QT`, anything else is loaded when asked for, and the rest on the engine's thread behind the first frame
# (`load_behind_first_frame`; the start-up probe reports what else was there at the first paint: `late_imported`).
BEHIND_FIRST_FRAME = ("catalog_inspector.core.calls", "catalog_inspector.core.drift")


def import_before_qt() -> None:
    """Import `BEFORE_QT` (see there); Qt itself is not imported here."""
    from catalog_inspector.core.faces import load_whole

    for name in BEFORE_QT:
        module = importlib.import_module(name)
        # Not the standard library's (concurrent.futures' lazy names load its process pool), nor the rooms behind
        # the first frame.
        if name.startswith("catalog_inspector.") and name not in BEHIND_FIRST_FRAME:
            load_whole(module)


def load_behind_first_frame() -> None:
    """What the first frame did not need of the rooms behind it, loaded now (on the engine's thread), before a call
    or a report asks for it."""
    from catalog_inspector.core.faces import load_whole

    for room in BEHIND_FIRST_FRAME:
        load_whole(importlib.import_module(room))


def late_imported() -> list[str]:
    """The modules of the rooms behind the first frame imported now, beyond those `BEFORE_QT` names."""
    rooms = tuple(f"{room}." for room in BEHIND_FIRST_FRAME)
    return sorted(name for name in list(sys.modules) if name.startswith(rooms) and name not in BEFORE_QT)
