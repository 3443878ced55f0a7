"""One supervisor per configured server: starts session workers, swaps sessions, reports state.

Publish only after success: a walk runs in a candidate worker; only an
accepted walk replaces the active worker (which is then stopped), and a
rejected or failed candidate closes itself while the active session and its
catalog stay. Retries are manual: one user action, one fresh walk.
"""

from __future__ import annotations

import asyncio
import enum
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from PySide6.QtCore import QObject, Signal

from catalog_inspector.core.config import Limits, ServerSpec
from catalog_inspector.core.connection import Connection
from catalog_inspector.core.enumerator import PageRecord
from catalog_inspector.core.errors import CatalogError, make_error
from catalog_inspector.core.processes import ProcessRegistry
from catalog_inspector.core.snapshot import Snapshot, failed_snapshot, source_of
from catalog_inspector.core.stdio import ServerLog
from catalog_inspector.core.worker import SessionWorker

__all__ = ["Attempt", "ServerState", "ServerSupervisor"]

CLOSE_TIMEOUT = 6.0  # seconds to wait for a worker's own shutdown before abandoning it


class ServerState(enum.Enum):
    NOT_CONNECTED = "not connected"  # nothing attempted yet
    CONNECTING = "connecting"  # a session is starting (spawn, handshake)
    WALKING = "walking"  # a walk runs (first or refresh); the shown catalog is unchanged
    READY = "ready"  # an accepted catalog is active
    STALE = "stale"  # ready, but the server said its list changed since
    FAILED = "failed"  # the latest attempt was rejected or failed (a last good catalog may remain)


@dataclass
class Attempt:
    """One walk as it happens: its live pages, then its snapshot."""

    started_at: datetime
    pages: dict[str, list[PageRecord]]
    snapshot: Snapshot | None = None


class ServerSupervisor(QObject):
    """Owns the sessions of one server and says what state they are in.

    Attributes:
        spec, limits: the server and the walk budgets.
        state: a `ServerState`.
        accepted: the accepted snapshot (the catalog of record), or None.
        accepted_at: when it was accepted.
        attempt: the latest walk (live while walking); its snapshot when finished.
        log: the server's stderr across its sessions, bounded.

    Signals:
        state_changed(): `state`, `accepted` or `attempt` changed.
        walk_started(): a new attempt began (its timeline is empty).
        page_arrived(str, object): a page of the running attempt (list name, PageRecord).
        catalog_accepted(object): a walk was accepted (Snapshot); it is now `accepted`.
        refresh_failed(object): a walk was rejected or failed (Snapshot); `accepted` is unchanged.
        log_appended(str): a stderr line from the server.
    """

    state_changed = Signal()
    walk_started = Signal()
    page_arrived = Signal(str, object)
    catalog_accepted = Signal(object)
    refresh_failed = Signal(object)
    log_appended = Signal(str)

    def __init__(self, spec: ServerSpec, limits: Limits, registry: ProcessRegistry | None = None) -> None:
        super().__init__()
        self.spec = spec
        self.limits = limits
        self.state = ServerState.NOT_CONNECTED
        self.accepted: Snapshot | None = None
        self.accepted_at: datetime | None = None
        self.attempt: Attempt | None = None
        self.log = ServerLog(on_line=self.log_appended.emit)
        self._registry = registry
        self._active: SessionWorker | None = None
        self._candidate: SessionWorker | None = None
        self._tasks: dict[SessionWorker, asyncio.Task[None]] = {}
        self._stale = False
        self._candidate_saw_change = False  # list_changed arrived while the candidate walked
        self._closing = False

    # -- what the UI asks ---------------------------------------------------
    @property
    def busy(self) -> bool:
        return self._candidate is not None

    @property
    def connection(self) -> Connection | None:
        """The active session's connection (for test calls), or None."""
        return self._active.connection if self._active is not None else None

    def ensure_started(self) -> None:
        """Connect and walk if nothing was attempted yet (selecting a server in the sidebar)."""
        if self.state is ServerState.NOT_CONNECTED and not self.busy:
            self.refresh()

    def refresh(self) -> bool:
        """Start one fresh walk from the first page in a candidate session; False if one runs already."""
        if self.busy or self._closing:
            return False
        pages: dict[str, list[PageRecord]] = {}
        self.attempt = Attempt(datetime.now().astimezone(), pages)
        candidate = SessionWorker(
            self.spec,
            self.limits,
            log=self.log,
            on_page=self._on_page,
            on_notification=lambda method: self._on_notification(candidate, method),
            on_spawn=self._registry.add if self._registry else None,
            on_exit=self._registry.remove if self._registry else None,
            on_connected=lambda _connection: self._set_state(ServerState.WALKING),
            on_lost=lambda error: self._on_lost(candidate, error),
        )
        self._candidate = candidate
        self._candidate_saw_change = False
        self._set_state(ServerState.CONNECTING)
        self.walk_started.emit()
        self._spawn(candidate, lambda snapshot: self._on_walked(candidate, snapshot))
        return True

    def cancel(self) -> bool:
        """Stop the walk in progress; the shown catalog stays. False if nothing runs."""
        candidate = self._candidate
        if candidate is None:
            return False
        self._candidate = None
        task = self._tasks.get(candidate)
        if task is not None:
            task.cancel()  # the worker exits its own contexts as the cancellation unwinds it
        self.attempt = None
        self._set_state(self._settled_state())
        return True

    async def close(self) -> None:
        """Close every session of this server (bounded); no process is left running."""
        self._closing = True
        if self._candidate is not None:
            self.cancel()
        if self._active is not None:
            self._active.stop()
        tasks = list(self._tasks.values())
        if tasks:
            await asyncio.wait(tasks, timeout=CLOSE_TIMEOUT)
        stuck = [task for task in tasks if not task.done()]
        for task in stuck:
            task.cancel()
        if stuck:
            await asyncio.wait(stuck, timeout=CLOSE_TIMEOUT)

    # -- worker plumbing ------------------------------------------------------
    def _spawn(self, worker: SessionWorker, walked: Callable[[Snapshot], None]) -> None:
        task = asyncio.ensure_future(worker.run(walked))
        self._tasks[worker] = task
        task.add_done_callback(lambda _task: self._tasks.pop(worker, None))

    def _on_page(self, list_name: str, page: PageRecord) -> None:
        if self.attempt is not None and self.attempt.snapshot is None:
            self.attempt.pages.setdefault(list_name, []).append(page)
            self.page_arrived.emit(list_name, page)

    def _on_notification(self, worker: SessionWorker, method: str) -> None:
        if method != "notifications/tools/list_changed":
            return
        if worker is self._candidate:
            # The catalog changed while it was being walked: once accepted, it is already stale.
            self._candidate_saw_change = True
        elif worker is self._active and not self._stale:
            # A flood of notifications costs one state change: the flag only flips once.
            self._stale = True
            if self.state is ServerState.READY:
                self._set_state(ServerState.STALE)

    def _on_walked(self, worker: SessionWorker, snapshot: Snapshot) -> None:
        if worker is not self._candidate:
            worker.stop()  # cancelled or superseded: its result is not ours to publish
            return
        self._candidate = None
        if self.attempt is not None:
            self.attempt.snapshot = snapshot
        if snapshot.status == "complete" and not self._closing:
            old, self._active = self._active, worker
            if old is not None:
                old.stop()
            self.accepted = snapshot
            self.accepted_at = datetime.now().astimezone()
            self._stale = self._candidate_saw_change
            self._set_state(ServerState.STALE if self._stale else ServerState.READY)
            self.catalog_accepted.emit(snapshot)
        else:
            worker.stop()
            self._set_state(ServerState.FAILED)
            self.refresh_failed.emit(snapshot)

    def _on_lost(self, worker: SessionWorker, error: CatalogError) -> None:
        """The active session broke after its walk: say so; the last good catalog stays."""
        if worker is not self._active or self._closing:
            return
        self._active = None
        message = f"the session ended after the catalog was accepted: {error.info.message}"
        snapshot = failed_snapshot(make_error(error.kind, message, code=error.info.code), source_of(self.spec))
        self.attempt = Attempt(datetime.now().astimezone(), {}, snapshot)
        self._set_state(ServerState.FAILED)
        self.refresh_failed.emit(snapshot)

    def _settled_state(self) -> ServerState:
        """The state once no walk runs: what the accepted catalog (if any) says."""
        if self.accepted is None:
            return ServerState.NOT_CONNECTED
        return ServerState.STALE if self._stale else ServerState.READY

    def _set_state(self, state: ServerState) -> None:
        self.state = state
        self.state_changed.emit()
