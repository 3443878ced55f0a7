"""The app's runtime: every server's supervisor, the offload pool, the process registry, and shutdown."""

from __future__ import annotations

import asyncio
import traceback
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from catalog_inspector.core.catalog import PageRecord, Snapshot, write_json
from catalog_inspector.core.config import EntryProblem, LaunchConsent, Limits, ServerSpec
from catalog_inspector.core.files import write_text_safely
from catalog_inspector.core.processes import ProcessRegistry
from catalog_inspector.runtime.asks import sandbox_check
from catalog_inspector.runtime.calldesk import CallDesk
from catalog_inspector.runtime.collector import Collector
from catalog_inspector.runtime.configdesk import ConfigDesk
from catalog_inspector.runtime.engine import EngineGate
from catalog_inspector.runtime.messages import MessageBridge, failure_words
from catalog_inspector.runtime.offload import Offload
from catalog_inspector.runtime.signins import SignInDesk, install_hooks
from catalog_inspector.runtime.supervisor import ServerSupervisor
from catalog_inspector.runtime.tasks import TaskSet
from catalog_inspector.runtime.tracker import DriftTracker

if TYPE_CHECKING:
    from catalog_inspector.core.calls import CallStore
    from catalog_inspector.core.drift import History

__all__ = ["Runtime", "write_snapshot_file"]

SETTLE_TIMEOUT = 3.0  # seconds quitting waits for a just-accepted catalog to reach the history
OFFLOAD_SETTLE_TIMEOUT = 2.0  # seconds quitting waits for jobs still on the offload threads (a keyring read)


def write_snapshot_file(snapshot: Snapshot, path: Path, extra: dict[str, Any] | None = None) -> None:
    """Write the snapshot document (plus `extra` keys) to `path`, whole or not at all.

    On a worker thread: 10,000 tools take ~150 ms.
    """
    write_text_safely(path, lambda handle: write_json(snapshot, handle, extra))


class Runtime(QObject):
    """Supervisors by server name, independent of each other.

    Attributes:
        supervisors: one per configured server, in config order.
        registry: the process groups this app started (None: not recorded).
        offload: threads for work that must stay off the GUI thread.
        collector: keeps the cycle collector from rescanning catalogs.
        tracker: the history of accepted catalogs, their drift and approvals.
        calls: validation, lint, history and argument sets of test calls.
        signins: the sign-ins servers ask for, what kept sign-ins allow, signing out. The app's
            sign-in hooks are installed for every connection when a runtime is made.
        tasks: every job the runtime runs (each supervisor's sessions and calls are a group of it);
            every one ends in one report, and shutdown waits for them all (bounded).
        messages: the message bridge: every desk's failures and news for the person.
        config: reads and writes of the app's own config file and of the keyring, off the GUI thread.
        engine: opens once the engine is imported; walks wait for it (made open: it is imported already).
        consent: the local commands the user agreed to run (None: no question asked).
        problems: the config's entries that could not be used, shown in the sidebar with why.

    Signals:
        shutdown_finished(): every session is closed and no server process remains.
        exported(object, object): an export ended (Path, None or the OSError).
        servers_changed(): `apply` changed the server set (`supervisors` is the new list).
        engine_ready(): `engine_loaded`: the engine is imported; the walks that waited for it have started.
    """

    shutdown_finished = Signal()
    exported = Signal(object, object)
    servers_changed = Signal()
    engine_ready = Signal()

    def __init__(
        self,
        specs: list[ServerSpec],
        limits: Limits,
        registry: ProcessRegistry | None = None,
        offload: Offload | None = None,
        history: History | None = None,
        call_store: CallStore | None = None,
        consent: LaunchConsent | None = None,
        problems: list[EntryProblem] | None = None,
        engine: EngineGate | None = None,
    ) -> None:
        super().__init__()
        self.engine = engine if engine is not None else EngineGate()
        self.messages = MessageBridge(self)
        self.tasks = TaskSet(self._on_bug)
        self.offload = offload if offload is not None else Offload()
        if registry is not None:  # the validation workers are processes of ours too
            self.offload.sandbox.record_processes(registry.add, registry.remove)
            self.offload.lint_sandbox.record_processes(registry.add, registry.remove)
        self.registry = registry
        self.limits = limits
        self.consent = consent
        self.problems = list(problems or [])
        self.collector = Collector(self)
        self.offload.worked_through = self.collector.items_arrived  # sliced work makes catalog-sized data too
        self.tracker = DriftTracker([], self.offload, history, self.tasks, self.messages)
        self.calls = CallDesk([], self.offload, call_store, self.tasks, self.messages)
        self.signins = SignInDesk(self.offload, self.tasks, self.messages)
        self.config = ConfigDesk(self.offload, self.tasks, self.messages, self)
        if self.engine.loaded:
            install_hooks()
        self.supervisors = [self._supervise(spec) for spec in specs]
        self._shutting_down = False

    def _on_bug(self, where: str, exc: BaseException) -> None:
        """A report that itself failed: our bug. Its traceback on stderr, its words to the person."""
        traceback.print_exception(exc)
        self.messages.error(f"internal error in the inspector ({where}): {failure_words(exc)}")

    def _supervise(self, spec: ServerSpec) -> ServerSupervisor:
        supervisor = ServerSupervisor(
            spec,
            self.limits,
            self.registry,
            self.offload.check_result,
            self.tasks.group(),
            sandbox_check(self.offload),
            self.engine,
        )
        supervisor.consent = self.consent.approved if self.consent is not None else None
        supervisor.page_arrived.connect(self._on_supervisor_page_arrived)
        supervisor.catalog_accepted.connect(self._on_supervisor_catalog_accepted)
        self.tracker.follow(supervisor)
        self.calls.follow(supervisor)
        self.signins.follow(supervisor)
        return supervisor

    def engine_loaded(self) -> None:
        """The engine has been imported (`runtime.engine`): the sign-in hooks go in, the walks that wait start."""
        install_hooks()
        self.engine.open()
        self.engine_ready.emit()

    def apply(self, specs: list[ServerSpec], problems: list[EntryProblem] | None = None) -> None:
        """Follow a new configuration without a restart.

        A server whose entry is unchanged keeps its supervisor, session and
        catalog; a new entry gets a supervisor (started when selected); a changed
        or removed one has its sessions closed in the background (politely: the
        app is not quitting) and leaves no process. `servers_changed` follows.
        """
        if self._shutting_down:
            return
        problems = list(problems or [])
        if [s.spec for s in self.supervisors] == list(specs) and problems == self.problems:
            return  # e.g. the file was saved unchanged
        self.problems = problems
        current = {s.spec.name: s for s in self.supervisors}
        kept: list[ServerSupervisor] = []
        for spec in specs:
            supervisor = current.pop(spec.name, None)
            if supervisor is not None and supervisor.spec == spec:
                kept.append(supervisor)
                continue
            if supervisor is not None:
                self._retire(supervisor)
            kept.append(self._supervise(spec))
            if spec.name not in self.calls.histories:
                self.calls.load(spec.name)
        for supervisor in current.values():
            self._retire(supervisor)
        self.supervisors = kept
        self.servers_changed.emit()

    def _retire(self, supervisor: ServerSupervisor) -> None:
        self.tracker.forget(supervisor.spec.name)
        self.calls.forget(supervisor)
        self.signins.forget(supervisor)
        supervisor.page_arrived.disconnect(self._on_supervisor_page_arrived)
        supervisor.catalog_accepted.disconnect(self._on_supervisor_catalog_accepted)
        name = supervisor.spec.name

        def failed(exc: BaseException) -> None:
            supervisor.deleteLater()
            self.messages.error(f"could not close the replaced session cleanly: {failure_words(exc)}", name)

        self.tasks.spawn(supervisor.close(quick=False), lambda _done: supervisor.deleteLater(), failed, name="retire")

    def _on_supervisor_page_arrived(self, _list_name: str, page: PageRecord) -> None:
        self.collector.items_arrived(page.items)

    def _on_supervisor_catalog_accepted(self, _snapshot: Snapshot) -> None:
        self.collector.settle()

    def approve_launch(self, spec: ServerSpec) -> None:
        """The person agreed to run this server's command: it may run now; the answer is written off the GUI
        thread (a write that fails is said, and the yes still holds for this run)."""
        if self.consent is None:
            return
        self.consent.grant(spec)

        def failed(exc: BaseException) -> None:
            self.messages.warning(f"Could not remember this answer: {failure_words(exc)}", spec.name)

        self.tasks.spawn(self.offload.run(self.consent.save), None, failed, name="remember a launch consent")

    def supervisor(self, name: str) -> ServerSupervisor | None:
        return next((s for s in self.supervisors if s.spec.name == name), None)

    def export(self, snapshot: Snapshot, path: Path, extra: dict[str, Any] | None = None) -> None:
        """Write `snapshot` (plus `extra` keys, see `core.catalog.export`) to `path` off the GUI thread; `exported`
        reports the outcome: None, or the error (an OSError, or whatever else stopped it, as an OSError's words)."""

        def failed(exc: BaseException) -> None:
            self.exported.emit(path, exc if isinstance(exc, OSError) else OSError(failure_words(exc)))

        task = self.tasks.spawn(
            self.offload.run(write_snapshot_file, snapshot, path, extra),
            lambda _done: self.exported.emit(path, None),
            failed,
            name="export",
        )
        if task is None:
            self.exported.emit(path, OSError("the app is quitting"))

    def shutdown(self) -> None:
        """Close every session in the background, quickly; `shutdown_finished` fires when done."""
        if not self._shutting_down:
            self._shutting_down = True
            asyncio.ensure_future(self._close_all())  # the one task outside the set: it is what waits for the set

    async def _close_all(self) -> None:
        try:
            self.tasks.cancel_droppable()  # checks, lints, listings: nobody is left to read them
            # In parallel, and without grace periods: the window is already gone, nobody should wait.
            await asyncio.gather(*(s.close(quick=True) for s in self.supervisors))
            # The one count: whatever is still in flight (a catalog accepted just before quitting reaching the
            # history, a replaced session closing) gets a bounded moment to report.
            await self.tasks.settle(SETTLE_TIMEOUT)
        finally:
            self.tasks.close()  # from here on nothing new starts, and "the offload is closed" is no failure
            if self.registry is not None:
                # Anything that survived its session's own shutdown goes now.
                self.registry.kill_all()
            await self.offload.aclose()
            # Jobs waiting on the offload threads (a keyring read) end now; a keyring that hangs is not waited out.
            if not await self.tasks.settle(OFFLOAD_SETTLE_TIMEOUT):
                self.tasks.cancel_all()
            self.shutdown_finished.emit()
