"""The only code that owns asyncio tasks: one supervisor per server, session workers, shutdown.

Widgets call plain methods here and react to signals; they never await.
"""

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
