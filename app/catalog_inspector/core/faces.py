"""A room's face that imports its modules when a name is first asked for (PEP 562).

The window's first frame needs almost nothing of some rooms (`calls`, `drift`):
their faces import every name for the type checker only and say at run time
which module holds it (`_HOMES`); `load_on_demand` is their module `__getattr__`,
and `load_whole` loads all of a face at once (before Qt, or on the engine's thread); `unloaded` says what is not.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any

__all__ = ["load_on_demand", "load_whole", "unloaded"]


def load_on_demand(face: str, homes: Mapping[str, tuple[str, ...]]) -> Callable[[str], Any]:
    """The module `__getattr__` of the face `face`: a name of `homes` (module → its names) is imported from its
    module the first time it is asked for, and kept on the face (the next lookup is a plain attribute)."""
    home_of = {name: module for module, names in homes.items() for name in names}

    def __getattr__(name: str) -> Any:
        module = home_of.get(name)
        if module is None:
            raise AttributeError(f"module {face!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{face}.{module}"), name)
        setattr(sys.modules[face], name, value)
        return value

    return __getattr__


def load_whole(face: ModuleType) -> None:
    """Every name `face` exports, loaded now (a face that loads its modules on demand imports them all)."""
    for name in getattr(face, "__all__", ()):
        getattr(face, name)


def unloaded(face: ModuleType) -> list[str]:
    """The names `face` exports that are not loaded yet: none once `load_whole` ran (or for a face that imports all)."""
    return [name for name in getattr(face, "__all__", ()) if name not in vars(face)]
