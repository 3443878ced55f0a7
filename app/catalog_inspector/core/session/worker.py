"""One session's whole life, run by one task: connect, walk, publish, serve calls, close.

SDK contexts must be exited by the task that entered them, so a session is a
single coroutine (`SessionWorker.run`) that the runtime starts as one task and
stops with `stop()`. A refresh runs a *second* worker (the candidate): the SDK
keeps per-session state that a walk rewrites page by page, so only a worker
whose walk was accepted may replace the active one; a rejected candidate closes
itself and the active session never sees its pages. A replaced session is
*retired*: it closes once the calls made on it have finished (within a bound).
"""

from __future__ import annotations

import time
from collections.abc import Callable

import anyio

from catalog_inspector.core.catalog import PageRecord, Snapshot, failed_snapshot, source_of
from catalog_inspector.core.config import Limits, ServerSpec
from catalog_inspector.core.errors import CatalogError, ErrorKind, internal_error
from catalog_inspector.core.session.connection import Connection, Notification, connect
from catalog_inspector.core.session.walk import OnItems, take_snapshot
from catalog_inspector.core.transport import Faults, ServerLog

__all__ = ["SessionWorker"]


class SessionWorker:
    """Owns one session from connect to close.

    Attributes:
        connection: the live connection while an accepted session is served, else None.
        snapshot: the snapshot this worker's walk produced (None until it finished).
        log: the server's stderr.
        faults: transport faults, and how the server will be ended.
        calls: requests made on this session by others (test calls) and not finished yet.
        retired: the session was replaced; it closes once its calls are done.
    """

    def __init__(
        self,
        spec: ServerSpec,
        limits: Limits,
        *,
        log: ServerLog | None = None,
        on_page: Callable[[str, PageRecord], None] | None = None,
        on_items: OnItems | None = None,
        on_notification: Notification | None = None,
        on_spawn: Callable[[int], None] | None = None,
        on_exit: Callable[[int], None] | None = None,
        on_connected: Callable[[Connection], None] | None = None,
        on_lost: Callable[[CatalogError], None] | None = None,
    ) -> None:
        self.spec = spec
        self.limits = limits
        self.log = log if log is not None else ServerLog()
        self.faults = Faults()
        self.connection: Connection | None = None
        self.snapshot: Snapshot | None = None
        self.calls = 0
        self.retired = False
        self._on_page = on_page
        self._on_items = on_items
        self._on_notification = on_notification
        self._on_spawn = on_spawn
        self._on_exit = on_exit
        self._on_connected = on_connected
        self._on_lost = on_lost
        self._stop_requested = False
        self._drain = 0.0
        self._stop: anyio.Event | None = None
        self._idle: anyio.Event | None = None

    def stop(self, quick: bool = False) -> None:
        """Ask the worker to close its session (from any task of the same event loop).

        `quick`: the app is quitting; the server gets no grace period to leave on its own.
        """
        self._stop_requested = True
        self._drain = 0.0
        if quick:
            self.faults.quit_soon()
        if self._stop is not None:
            self._stop.set()
        if self._idle is not None:
            self._idle.set()  # stop waiting for a retired session's calls

    def retire(self, drain: float) -> None:
        """The session was replaced: close it once its calls are done, or after `drain` seconds."""
        self.retired = True
        self.stop()
        self._drain = drain

    def call_started(self) -> None:
        self.calls += 1

    def call_finished(self) -> None:
        self.calls -= 1
        if self.calls == 0 and self._idle is not None:
            self._idle.set()

    async def run(self, on_walked: Callable[[Snapshot], None]) -> None:
        """Connect and walk; report the snapshot; if accepted, keep serving until `stop()`.

        `on_walked` is called exactly once, with a complete, rejected or failed
        snapshot (a bug of ours in connecting or walking is a failed snapshot of
        kind `internal`). If an accepted session later breaks (the process
        exits, the transport fails), `on_lost` is called with the reason.
        """
        self._stop = anyio.Event()
        if self._stop_requested:
            self._stop.set()
        started = time.perf_counter()
        deadline = anyio.current_time() + self.limits.deadline
        reported = False
        lost: CatalogError | None = None
        try:
            async with connect(
                self.spec,
                self.limits,
                log=self.log,
                on_notification=self._on_notification,
                on_spawn=self._on_spawn,
                on_exit=self._on_exit,
                timeout=min(self.limits.deadline, self.limits.request_timeout * 2),
                faults=self.faults,
            ) as connection:
                if self._on_connected is not None:
                    self._on_connected(connection)
                snapshot = await take_snapshot(
                    connection,
                    self.limits,
                    deadline=deadline,
                    on_page=self._on_page,
                    started=started,
                    on_items=self._on_items,
                )
                self.snapshot = snapshot
                if snapshot.error is not None and snapshot.error.kind is ErrorKind.TIMEOUT:
                    # A server that let a request or the deadline run out gets no grace period to leave.
                    connection.faults.hurry()
                if snapshot.status == "complete":
                    self.connection = connection
                reported = True
                on_walked(snapshot)
                if snapshot.status == "complete":
                    lost = await self._serve(connection)
        except Exception as exc:
            error = internal_error(exc)
            if reported:
                lost = lost or error
            else:
                self.snapshot = failed_snapshot(error, source_of(self.spec), started)
                on_walked(self.snapshot)
        finally:
            self.connection = None
        if lost is not None and not self._stop.is_set() and self._on_lost is not None:
            self._on_lost(lost)

    async def walk_once(self) -> Snapshot:
        """Connect, walk, close: one snapshot, no session kept (the CLI's whole job)."""
        self.stop()  # asked before run(): the session closes as soon as the walk is reported
        await self.run(lambda _snapshot: None)
        assert self.snapshot is not None
        return self.snapshot

    async def _serve(self, connection: Connection) -> CatalogError | None:
        """Wait until told to stop, or until the connection breaks; return what broke it."""
        assert self._stop is not None
        async with anyio.create_task_group() as group:

            async def until(event: anyio.Event) -> None:
                await event.wait()
                group.cancel_scope.cancel()

            group.start_soon(until, self._stop)
            group.start_soon(until, connection.faults.event)
        if self._stop.is_set() and self.calls and self._drain > 0:
            # Retired while calls were in flight: they finish on this session, within the bound.
            self._idle = anyio.Event()
            with anyio.move_on_after(self._drain):
                await self._idle.wait()
        return None if self._stop.is_set() else connection.faults.first
