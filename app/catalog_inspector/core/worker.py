"""One session's whole life, run by one task: connect, walk, publish, serve calls, close.

SDK contexts must be exited by the task that entered them, so a session is a
single coroutine (`SessionWorker.run`) that the runtime starts as one task and
stops with `stop()`. A refresh runs a *second* worker (the candidate): the SDK
keeps per-session state that a walk rewrites page by page, so only a worker
whose walk was accepted may replace the active one; a rejected candidate closes
itself and the active session never sees its pages.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import anyio

from catalog_inspector.core.config import Limits, ServerSpec
from catalog_inspector.core.connection import Connection, Notification, connect
from catalog_inspector.core.enumerator import PageRecord
from catalog_inspector.core.errors import CatalogError
from catalog_inspector.core.snapshot import Snapshot, failed_snapshot, source_of, take_snapshot
from catalog_inspector.core.stdio import ServerLog

__all__ = ["SessionWorker"]


class SessionWorker:
    """Owns one session from connect to close.

    Attributes:
        connection: the live connection while an accepted session is served, else None.
        snapshot: the snapshot this worker's walk produced (None until it finished).
        log: the server's stderr.
    """

    def __init__(
        self,
        spec: ServerSpec,
        limits: Limits,
        *,
        log: ServerLog | None = None,
        on_page: Callable[[str, PageRecord], None] | None = None,
        on_notification: Notification | None = None,
        on_spawn: Callable[[int], None] | None = None,
        on_exit: Callable[[int], None] | None = None,
        on_connected: Callable[[Connection], None] | None = None,
    ) -> None:
        self.spec = spec
        self.limits = limits
        self.log = log if log is not None else ServerLog()
        self.connection: Connection | None = None
        self.snapshot: Snapshot | None = None
        self._on_page = on_page
        self._on_notification = on_notification
        self._on_spawn = on_spawn
        self._on_exit = on_exit
        self._on_connected = on_connected
        self._stop_requested = False
        self._stop: anyio.Event | None = None

    def stop(self) -> None:
        """Ask the worker to close its session (from any task of the same event loop)."""
        self._stop_requested = True
        if self._stop is not None:
            self._stop.set()

    async def run(self, on_walked: Callable[[Snapshot], None]) -> None:
        """Connect and walk; report the snapshot; if accepted, keep serving until `stop()`.

        `on_walked` is called exactly once, with a complete, rejected or failed snapshot.
        """
        self._stop = anyio.Event()
        if self._stop_requested:
            self._stop.set()
        started = time.perf_counter()
        deadline = anyio.current_time() + self.limits.deadline
        try:
            async with connect(
                self.spec,
                self.limits,
                log=self.log,
                on_notification=self._on_notification,
                on_spawn=self._on_spawn,
                on_exit=self._on_exit,
                timeout=min(self.limits.deadline, self.limits.request_timeout * 2),
            ) as connection:
                if self._on_connected is not None:
                    self._on_connected(connection)
                snapshot = await take_snapshot(
                    connection, self.limits, deadline=deadline, on_page=self._on_page, started=started
                )
                self.snapshot = snapshot
                if snapshot.status == "complete":
                    self.connection = connection
                on_walked(snapshot)
                if snapshot.status == "complete":
                    await self._stop.wait()
        except CatalogError as exc:
            self.snapshot = failed_snapshot(exc, source_of(self.spec), started)
            on_walked(self.snapshot)
        finally:
            self.connection = None
