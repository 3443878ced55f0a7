"""What the window's first frame imports before Qt, and what it leaves for the engine's thread behind it.

Qt-free, standard library only at the top: `ui.app` uses it before PySide6 is imported, and
`ui.startup` (the engine's thread, the start-up probe) reads the same lists.
"""

from __future__ import annotations

import importlib
import sys

__all__ = [
    "BEFORE_QT",
    "BEHIND_FIRST_FRAME",
    "QT_ROOMS",
    "import_before_qt",
    "late_imported",
    "load_behind_first_frame",
    "pyside_reads_ours",
    "uses_qt",
    "without_pyside_reading_ours",
]

# What the window imports that has no Qt in it, imported before Qt: once PySide6 is in, its import hook reads
# the source of every module imported after it, looking for "PySide6" (shiboken's `__feature__` support), and
# the window's ~120 Qt-free modules and asyncio's ~30 cost about 40 ms of the first frame that way. (Since then
# `without_pyside_reading_ours` answers for ours and the standard library; the hook's own call per import remains.)
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


# The app's rooms whose modules may import Qt; no other room's ever does (a layer test keeps `core` Qt-free).
QT_ROOMS = ("catalog_inspector.ui", "catalog_inspector.runtime")
_PACKAGE = "catalog_inspector"
_PYSIDE = frozenset({"PySide6", "shiboken6"})


def uses_qt(name: str) -> bool:
    """Whether the app's module `name` may import Qt, by its room (`QT_ROOMS`)."""
    return any(name == room or name.startswith(room + ".") for room in QT_ROOMS)


def without_pyside_reading_ours() -> None:
    """Once PySide6 is imported: answer its question "does this module use PySide6?" where the answer is known,
    instead of its reading the module's source to find out.

    Shiboken's `__feature__` support asks it of every module named by an import statement after PySide6, loaded
    before or not (`shibokensupport.feature._mod_uses_pyside`: is the word "PySide6" in its source?): 127 modules
    before the first paint, ~45 of them the standard library's, 14 ms of reading on the 2-core machine (the first
    paint came 20 ms sooner without it, A B). Known without reading: the app's own by their room (`uses_qt`), the
    standard library (it never names PySide6) and PySide6's own; any other module is read as before. A PySide6
    without that hook is left as it is.
    """
    if not pyside_reads_ours():
        return
    hook = vars(sys.modules["shibokensupport.feature"])  # a private name of PySide6's, set where it is looked up
    read = hook["_mod_uses_pyside"]

    def uses_pyside(module: object) -> bool:
        name = getattr(module, "__name__", None)
        if not isinstance(name, str):
            return bool(read(module))
        top = name.partition(".")[0]
        if top == _PACKAGE:
            return uses_qt(name)
        if top in _PYSIDE:
            return True
        if top in sys.stdlib_module_names:
            return False
        return bool(read(module))

    hook["_mod_uses_pyside"] = uses_pyside


def pyside_reads_ours() -> bool:
    """Whether PySide6's import hook reads the source of the app's modules as they are imported: False once
    `without_pyside_reading_ours` answers for them, and when there is no such hook (PySide6 not imported yet)."""
    read = getattr(sys.modules.get("shibokensupport.feature"), "_mod_uses_pyside", None)
    return read is not None and getattr(read, "__module__", None) != __name__


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
