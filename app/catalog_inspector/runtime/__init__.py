"""The only code that owns asyncio tasks: one supervisor per server, session workers, shutdown.

Widgets call plain methods here and react to signals; they never await.
"""

from catalog_inspector.runtime.runtime import Runtime
from catalog_inspector.runtime.supervisor import Attempt, ServerState, ServerSupervisor

__all__ = ["Attempt", "Runtime", "ServerState", "ServerSupervisor"]
