"""The app's runtime: every server's supervisor, the process registry, and shutdown."""

from __future__ import annotations

import asyncio

from PySide6.QtCore import QObject, Signal

from catalog_inspector.core.config import Limits, ServerSpec
from catalog_inspector.core.processes import ProcessRegistry
from catalog_inspector.runtime.supervisor import ServerSupervisor

__all__ = ["Runtime"]


class Runtime(QObject):
    """Supervisors by server name, independent of each other.

    Attributes:
        supervisors: one per configured server, in config order.
        registry: the process groups this app started (None: not recorded).

    Signals:
        shutdown_finished(): every session is closed and no server process remains.
    """

    shutdown_finished = Signal()

    def __init__(self, specs: list[ServerSpec], limits: Limits, registry: ProcessRegistry | None = None) -> None:
        super().__init__()
        self.registry = registry
        self.supervisors = [ServerSupervisor(spec, limits, registry) for spec in specs]
        self._shutdown: asyncio.Task[None] | None = None

    def supervisor(self, name: str) -> ServerSupervisor | None:
        return next((s for s in self.supervisors if s.spec.name == name), None)

    def shutdown(self) -> None:
        """Close every session in the background; `shutdown_finished` fires when done."""
        if self._shutdown is None:
            self._shutdown = asyncio.ensure_future(self._close_all())

    async def _close_all(self) -> None:
        try:
            await asyncio.gather(*(s.close() for s in self.supervisors))
        finally:
            if self.registry is not None:
                # Anything that survived its session's own shutdown goes now.
                self.registry.kill_all()
            self.shutdown_finished.emit()
