"""The only code that owns asyncio tasks: one supervisor per server, session workers, shutdown.

Widgets call plain methods here and react to signals; they never await.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from catalog_inspector.runtime.completer import Completer
    from catalog_inspector.runtime.offload import Offload
    from catalog_inspector.runtime.runtime import Runtime
    from catalog_inspector.runtime.supervisor import Attempt, CallTicket, ServerState, ServerSupervisor
    from catalog_inspector.runtime.watcher import ResourceWatcher

__all__ = [
    "Attempt",
    "CallTicket",
    "Completer",
    "Offload",
    "ResourceWatcher",
    "Runtime",
    "ServerState",
    "ServerSupervisor",
]

# Each name's module, imported when the name is first asked for (PEP 562): the start-up window imports
# `runtime.engine` (the gate) and must not pay for the supervisor and the rest before its first paint.
_HOMES: dict[str, tuple[str, ...]] = {
    "completer": ("Completer",),
    "offload": ("Offload",),
    "runtime": ("Runtime",),
    "supervisor": ("Attempt", "CallTicket", "ServerState", "ServerSupervisor"),
    "watcher": ("ResourceWatcher",),
}
_HOME_OF = {name: module for module, names in _HOMES.items() for name in names}


def __getattr__(name: str) -> Any:
    module = _HOME_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value  # asked once: the next lookup is a plain attribute
    return value
