"""The runtime's owner of catalog history: what each accepted refresh changed, approvals, collisions.

Every accepted catalog is kept in the history (when there is one) and diffed
against the catalog accepted before it, in this run or, after a restart, the
newest one kept on disk. Reading and writing run on the offload threads; the
diff, the approval's digests and the collisions run on the GUI thread a few
milliseconds between its events (`Offload.in_slices`: on a thread they held up
every call Qt makes into Python). One server's reports are made in the order its
catalogs were accepted.

Every job runs in the runtime's task set: a file that cannot be read or written,
or a bug, reaches the message bridge with the server's name, never silence.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from catalog_inspector.core.catalog import Snapshot, TokenCount, count_snapshot_steps, preload_encoding
from catalog_inspector.core.config import ServerSpec
from catalog_inspector.core.steps import Steps
from catalog_inspector.runtime.messages import MessageBridge, failure_words
from catalog_inspector.runtime.offload import Offload, OffloadClosed
from catalog_inspector.runtime.profile_walks import ProfileWalks
from catalog_inspector.runtime.supervisor import ServerSupervisor
from catalog_inspector.runtime.tasks import TaskSet

if TYPE_CHECKING:
    from catalog_inspector.core.drift import CatalogDiff, DriftReport, Entry, History, PinCheck, Pins

__all__ = ["DriftTracker"]


def _collisions_of(accepted: dict[str, tuple[dict[str, Any], ...]]) -> Steps[dict[str, tuple[str, ...]]]:
    from catalog_inspector.core.drift import collisions_steps

    return collisions_steps({name: (str(tool.get("name", "")) for tool in tools) for name, tools in accepted.items()})


def _with_pins(report: DriftReport, pins: PinCheck | None) -> DriftReport:
    """The report with another approval check, keeping what it had worked out (its worst change, its counts)."""
    return _replaced(report, pins=pins)


def _replaced(report: DriftReport, **changes: Any) -> DriftReport:
    """`replace(report, **changes)` that keeps what the report had worked out of its diff (its worst change, its
    counts: linear in the changes, 6 ms of the GUI thread at 10,000 changed tools if worked out again there)."""
    changed = replace(report, **changes)
    for cached in ("worst", "counts"):
        if cached in report.__dict__:
            changed.__dict__[cached] = report.__dict__[cached]
    return changed


class DriftTracker(QObject):
    """Drift reports, history listings and approvals, per server name.

    Attributes:
        history: where accepted catalogs are kept (None: nothing is kept on disk;
            drift is still reported within one run).
        reports: the latest accepted refresh's report per server.
        entries: each server's kept snapshots, oldest first (as last listed).
        pins: each server's approval, once loaded (None: never approved).
        collisions: tool name → the servers (in config order) whose accepted catalogs offer it, when more than one.
        profiles: the second walks of a server as another client ("walk again as …"), compared with its catalog.

    Signals:
        report_ready(str): a new report for this server is in `reports` (a new catalog's first report).
        tokens_counted(str): that report now says both catalogs' tokens (`tokens`, `base_tokens`).
        approval_changed(str): this server's approval (`pins`, and its check in `reports`) changed.
        history_changed(str): this server's `entries` changed.
        collisions_changed(): `collisions` changed.
        comparison_ready(str, object): a comparison asked for with `request_comparison` (server, Comparison).
    """

    report_ready = Signal(str)
    tokens_counted = Signal(str)
    approval_changed = Signal(str)
    history_changed = Signal(str)
    collisions_changed = Signal()
    comparison_ready = Signal(str, object)

    def __init__(
        self,
        supervisors: list[ServerSupervisor],
        offload: Offload,
        history: History | None,
        tasks: TaskSet | None = None,
        messages: MessageBridge | None = None,
    ) -> None:
        super().__init__()
        self.history = history
        self.reports: dict[str, DriftReport] = {}
        self.entries: dict[str, list[Entry]] = {}
        self.pins: dict[str, Pins | None] = {}
        self.collisions: dict[str, tuple[str, ...]] = {}
        self._offload = offload
        self._tasks = tasks if tasks is not None else TaskSet()
        self._messages = messages if messages is not None else MessageBridge()
        self._supervisors: dict[str, ServerSupervisor] = {}
        self._last: dict[str, Snapshot] = {}  # the catalog each server's next one is compared with
        self._reported: dict[str, Snapshot] = {}  # the catalog each server's report in `reports` is of
        # The last catalog each server's tokens were counted for, and the count: the next refresh's base, not
        # counted again (a 10,000-tool catalog's count is most of a refresh's work between the window's events).
        self._counted: dict[str, tuple[Snapshot, TokenCount | None]] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        # "Walk again as …": its comparisons arrive as any other the person asked for.
        self.profiles = ProfileWalks(offload, self._tasks, self._messages, self.comparison_ready.emit, self._tracks)
        for supervisor in supervisors:
            self.follow(supervisor)

    def follow(self, supervisor: ServerSupervisor) -> None:
        """Track a server's accepted catalogs (at start, and when the configuration adds or changes one)."""
        self._supervisors[supervisor.spec.name] = supervisor
        supervisor.catalog_accepted.connect(self._on_supervisor_catalog_accepted)

    def forget(self, name: str) -> None:
        """Stop tracking a server the configuration dropped or replaced; its history stays on disk."""
        supervisor = self._supervisors.pop(name, None)
        if supervisor is not None:
            supervisor.catalog_accepted.disconnect(self._on_supervisor_catalog_accepted)
        for table in (self.reports, self.entries, self.pins, self._last, self._reported, self._counted):
            table.pop(name, None)
        self._spawn(self._collide(), "", "compare tool names across servers", True)

    def _tracks(self, supervisor: ServerSupervisor) -> bool:
        return self._supervisors.get(supervisor.spec.name) is supervisor

    def _follows(self, spec: ServerSpec) -> bool:
        """The server of this entry is still tracked: the configuration neither dropped nor replaced it."""
        supervisor = self._supervisors.get(spec.name)
        return supervisor is not None and supervisor.spec == spec

    def report_for(self, supervisor: ServerSupervisor) -> DriftReport | None:
        """The report of the catalog the server shows now (None while it is being made): matched by identity."""
        name = supervisor.spec.name
        accepted = supervisor.accepted
        if accepted is None or self._reported.get(name) is not accepted:
            return None
        return self.reports.get(name)

    # -- following the supervisors --------------------------------------------
    def _on_supervisor_catalog_accepted(self, snapshot: Snapshot) -> None:
        supervisor = self.sender()
        if (
            not isinstance(supervisor, ServerSupervisor)
            or self._supervisors.get(supervisor.spec.name) is not supervisor
        ):
            return
        name = supervisor.spec.name
        previous = self._last.get(name)
        self._last[name] = snapshot  # taken now, in acceptance order: the next refresh compares with this one
        attempt = supervisor.attempt
        after_stale = attempt is not None and attempt.after_stale
        self._tasks.spawn(
            self._track(supervisor.spec, previous, snapshot, after_stale),
            None,
            self._track_failed(name, snapshot, after_stale),
            name="tracker: keep the catalog's drift",
        )
        self._spawn(self._collide(), "", "compare tool names across servers", True)

    def _spawn(self, work: Coroutine[Any, Any, None], server: str, what: str, droppable: bool = False) -> None:
        """Run one job of this desk; whatever it raises is said (with what it was doing) on the message bridge.

        `droppable`: a job whose answer only the window wants (a listing, a comparison): quitting cancels it.
        """

        def failed(exc: BaseException) -> None:
            self._messages.error(f"could not {what}: {failure_words(exc)}", server or None)

        self._tasks.spawn(work, None, failed, name=f"tracker: {what}", droppable=droppable)

    def _track_failed(self, name: str, snapshot: Snapshot, after_stale: bool) -> Any:
        """What a tracking job that died says: why, and the catalog still gets its (driftless) report, so the
        window that waits for it to publish the catalog is never left waiting."""
        from catalog_inspector.core.drift import DriftReport

        def failed(exc: BaseException) -> None:
            self._messages.error(f"could not keep the catalog's drift: {failure_words(exc)}", name)
            if self._supervisors.get(name) is not None and self._reported.get(name) is not snapshot:
                self.reports[name] = DriftReport(taken_at=snapshot.taken_at, after_stale=after_stale)
                self._reported[name] = snapshot
                self.report_ready.emit(name)

        return failed

    def _lock(self, name: str) -> asyncio.Lock:
        return self._locks.setdefault(name, asyncio.Lock())

    async def _track(self, spec: ServerSpec, previous: Snapshot | None, snapshot: Snapshot, after_stale: bool) -> None:
        from catalog_inspector.core.drift import DriftReport, build_report_steps

        name = spec.name
        async with self._lock(name):
            try:
                previous, pins = await self._offload.run(self._compared_with, spec, previous)
                report = await self._offload.in_slices(build_report_steps(previous, snapshot, pins, after_stale))
            except OffloadClosed:
                return  # shutting down
            except Exception as exc:  # a damaged file must not cost the user the catalog: it comes without drift
                self._messages.error(f"could not compare with the history: {failure_words(exc)}", name)
                report, pins = DriftReport(taken_at=snapshot.taken_at, after_stale=after_stale), self.pins.get(name)
            if not self._follows(spec):
                return  # the configuration dropped or replaced the server meanwhile
            self.pins[name] = pins
            self.reports[name] = report
            self._reported[name] = snapshot
            self.report_ready.emit(name)
            await self._count(spec, previous, snapshot)
            if self.history is not None:
                try:
                    await self._offload.run(self.history.save, spec, snapshot)
                except OffloadClosed:
                    return
                except OSError as exc:
                    self._messages.error(f"could not keep the catalog in the history: {failure_words(exc)}", name)
            await self._refresh_entries(spec)

    async def _count(self, spec: ServerSpec, previous: Snapshot | None, snapshot: Snapshot) -> None:
        """Both catalogs' tokens into the report, after it is out (the window does not wait for them), counted
        between the window's events (`core.catalog.tokens`)."""
        from catalog_inspector.core.drift import token_deltas_steps

        try:
            await self._offload.run(preload_encoding)  # loaded behind the window at start-up, as a rule: a no-op
            counted = self._counted.get(spec.name)
            if counted is not None and counted[0] is previous:
                base = counted[1]
            else:
                base = await self._offload.in_slices(count_snapshot_steps(previous)) if previous is not None else None
            count = await self._offload.in_slices(count_snapshot_steps(snapshot))
        except OffloadClosed:
            return
        except Exception as exc:  # a count that fails costs the tokens only
            self._messages.error(f"could not count the catalog's tokens: {failure_words(exc)}", spec.name)
            return
        try:
            deltas = await self._offload.in_slices(token_deltas_steps(base, count))
        except OffloadClosed:
            return
        report = self.reports.get(spec.name)
        if report is None or self._reported.get(spec.name) is not snapshot or not self._follows(spec):
            return  # a newer catalog's report replaced it meanwhile
        self._counted[spec.name] = (snapshot, count)
        self.reports[spec.name] = _replaced(report, tokens=count, base_tokens=base, tool_token_deltas=deltas)
        self.tokens_counted.emit(spec.name)

    def _compared_with(self, spec: ServerSpec, previous: Snapshot | None) -> tuple[Snapshot | None, Pins | None]:
        """On a worker thread: what to compare with (the history's latest when this run has none) and the approval."""
        from catalog_inspector.core.drift import load_pins

        history = self.history
        if previous is None and history is not None:
            latest = history.latest(spec)
            previous = latest[1] if latest is not None else None
        pins = load_pins(history.directory(spec)) if history is not None else self.pins.get(spec.name)
        return previous, pins

    async def _refresh_entries(self, spec: ServerSpec) -> None:
        if self.history is None:
            return
        try:
            entries = await self._offload.run(self.history.entries, spec)
        except OffloadClosed:
            return
        except OSError as exc:
            self._messages.error(f"could not list the kept snapshots: {failure_words(exc)}", spec.name)
            return
        if not self._follows(spec):
            return  # another command's snapshots (the configuration replaced the entry meanwhile), or no one's
        self.entries[spec.name] = entries
        self.history_changed.emit(spec.name)

    async def _collide(self) -> None:
        # The accepted lists are immutable tuples: their names are read in slices (100,000 tools: ~90 ms).
        accepted = {name: s.accepted.tools.items for name, s in self._supervisors.items() if s.accepted is not None}
        try:
            found = await self._offload.in_slices(_collisions_of(accepted))
        except OffloadClosed:
            return
        if found != self.collisions:
            self.collisions = found
            self.collisions_changed.emit()

    # -- what the user asks ----------------------------------------------------
    def list_history(self, name: str) -> None:
        """List the server's kept snapshots (`history_changed` says when `entries` has them)."""
        supervisor = self._supervisors.get(name)
        if supervisor is not None:
            self._spawn(self._refresh_entries(supervisor.spec), name, "list the kept snapshots", True)

    def delete(self, name: str, entry: Entry) -> None:
        """Delete one kept snapshot; `history_changed` follows."""
        supervisor = self._supervisors.get(name)
        if supervisor is None or self.history is None:
            return
        self._spawn(self._delete(supervisor.spec, entry), name, f"delete {entry.path.name}")

    async def _delete(self, spec: ServerSpec, entry: Entry) -> None:
        assert self.history is not None
        try:
            await self._offload.run(self.history.delete, entry)
        except OffloadClosed:
            return
        except OSError as exc:
            self._messages.error(f"could not delete {entry.path.name}: {failure_words(exc)}", spec.name)
        await self._refresh_entries(spec)

    def set_keep(self, keep: int) -> None:
        """Keep at most `keep` snapshots per server from now on (the excess goes now)."""
        if self.history is None:
            return
        self.history.keep = max(1, keep)
        for name, supervisor in self._supervisors.items():
            self._spawn(self._prune(supervisor.spec), name, "remove kept snapshots beyond the limit")

    async def _prune(self, spec: ServerSpec) -> None:
        assert self.history is not None
        try:
            doomed = await self._offload.run(self.history.prune, spec)
        except OffloadClosed:
            return
        if doomed:
            await self._refresh_entries(spec)

    def approve(self, name: str) -> bool:
        """Pin the server's accepted catalog (every list it walked whole) as approved; the report's check follows.
        False without a catalog."""
        supervisor = self._supervisors.get(name)
        if supervisor is None or supervisor.accepted is None:
            return False
        self._spawn(self._approve(supervisor.spec, supervisor.accepted), name, "save the approval")
        return True

    async def _approve(self, spec: ServerSpec, snapshot: Snapshot) -> None:
        from catalog_inspector.core.drift import Pins, check_pins_steps, save_pins

        stamp = datetime.now(UTC).isoformat(timespec="milliseconds")
        async with self._lock(spec.name):
            try:
                before = self.pins.get(spec.name)  # what it approved unchanged keeps its own time
                pins = await self._offload.in_slices(Pins.of_snapshot_steps(snapshot, stamp, before))
                if self.history is not None:
                    await self._offload.run(save_pins, self.history.directory(spec), pins)
                check = await self._offload.in_slices(check_pins_steps(pins, snapshot))
            except OffloadClosed:
                return
            if not self._follows(spec):
                return  # the configuration dropped or replaced the server meanwhile: not the name's approval now
            self.pins[spec.name] = pins
            self._replace_pins(spec.name, snapshot, check)

    def import_approval(self, name: str, path: Path) -> bool:
        """Make a lockfile (`approve`'s, or another machine's export) this server's approval; its check follows.
        False for a server not followed. A file that is not a lockfile is said on the message bridge."""
        supervisor = self._supervisors.get(name)
        if supervisor is None:
            return False
        self._spawn(self._import(supervisor.spec, supervisor.accepted, path), name, f"import the approval {path}")
        return True

    async def _import(self, spec: ServerSpec, snapshot: Snapshot | None, path: Path) -> None:
        from catalog_inspector.core.drift import check_pins_steps, read_lockfile, save_pins

        async with self._lock(spec.name):
            try:
                pins = await self._offload.run(read_lockfile, path)
                if self.history is not None:
                    await self._offload.run(save_pins, self.history.directory(spec), pins)
                check = await self._offload.in_slices(check_pins_steps(pins, snapshot)) if snapshot else None
            except OffloadClosed:
                return
            if not self._follows(spec):
                return
            self.pins[spec.name] = pins
            made_for = pins.server.get("name")
            other = f" (made for a server that calls itself {made_for!r})" if made_for and snapshot is not None and (
                made_for != snapshot.server.get("name")) else ""  # fmt: skip
            self._messages.info(f"Approval imported from {path.name}: {len(pins.items):,} items{other}.", spec.name)
            if check is not None:
                self._replace_pins(spec.name, snapshot, check)  # type: ignore[arg-type]
            else:
                self.approval_changed.emit(spec.name)

    def export_approval(self, name: str, path: Path) -> bool:
        """Write the server's approval as a lockfile (the CLI's `check --pins` reads it); False without one."""
        from catalog_inspector.core.drift import write_lockfile

        pins = self.pins.get(name)
        if pins is None:
            return False

        async def export() -> None:
            await self._offload.run(write_lockfile, path, pins)
            self._messages.info(f"Approval exported to {path} ({len(pins.items):,} items).", name)

        self._spawn(export(), name, f"export the approval to {path}")
        return True

    def forget_approval(self, name: str) -> None:
        supervisor = self._supervisors.get(name)
        if supervisor is None:
            return
        self._spawn(self._forget(supervisor.spec), name, "forget the approval")

    async def _forget(self, spec: ServerSpec) -> None:
        from catalog_inspector.core.drift import forget_pins

        async with self._lock(spec.name):
            if self.history is not None:
                try:
                    await self._offload.run(forget_pins, self.history.directory(spec))
                except OffloadClosed:
                    return
            if not self._follows(spec):
                return  # the configuration dropped or replaced the server meanwhile
            self.pins[spec.name] = None
            report = self.reports.get(spec.name)
            if report is not None:
                self.reports[spec.name] = _with_pins(report, None)
            self.approval_changed.emit(spec.name)

    def _replace_pins(self, name: str, snapshot: Snapshot, check: PinCheck) -> None:
        from catalog_inspector.core.drift import DriftReport

        report = self.reports.get(name)
        if report is None or self._reported.get(name) is not snapshot:
            report = DriftReport(taken_at=snapshot.taken_at)
            self._reported[name] = snapshot
        self.reports[name] = _with_pins(report, check)
        self.approval_changed.emit(name)

    def request_comparison(self, name: str, old: Entry, new: Entry | None) -> None:
        """Compare two kept snapshots (`new` None: the accepted catalog); `comparison_ready` brings the result."""
        supervisor = self._supervisors.get(name)
        if supervisor is None:
            return
        current = supervisor.accepted
        self._spawn(
            self._comparison(name, old, new if new is not None else current), name, "compare the snapshots", True
        )

    async def _comparison(self, name: str, old: Entry, new: Entry | Snapshot | None) -> None:
        from catalog_inspector.core.drift import Comparison, Entry, counts_steps, diff_snapshots_steps, rows_steps

        old_label = old.label()
        new_label = new.label() if isinstance(new, Entry) else "the catalog shown now"
        if new is None:
            self.comparison_ready.emit(name, Comparison(old_label, new_label, error="no catalog is shown now"))
            return
        try:
            sides = await self._offload.run(self._load, old, new)
            diff = await self._offload.in_slices(diff_snapshots_steps(sides[0], sides[1]))
            rows = tuple(await self._offload.in_slices(rows_steps(diff)))
            counts = await self._offload.in_slices(counts_steps(diff))
        except OffloadClosed:
            return
        except Exception as exc:  # a damaged kept file, or a bug: the user hears why either way
            message = f"could not read a kept snapshot: {type(exc).__name__}: {exc}"
            self.comparison_ready.emit(name, Comparison(old_label, new_label, error=message))
            return
        self.comparison_ready.emit(name, Comparison(old_label, new_label, diff, rows=rows, counts=counts))

    async def compare(self, old: Entry | Snapshot, new: Entry | Snapshot) -> CatalogDiff:
        """The drift between any two catalogs (kept snapshots or live ones); files are read off the GUI thread.

        Raises:
            OSError, ValueError: a kept snapshot could not be read.
            RuntimeError: the runtime is shutting down.
        """
        from catalog_inspector.core.drift import diff_snapshots_steps

        sides = await self._offload.run(self._load, old, new)
        return await self._offload.in_slices(diff_snapshots_steps(sides[0], sides[1]))

    def _load(self, *sides: Entry | Snapshot) -> list[Snapshot]:
        """On a worker thread: each side's lists (a kept snapshot is read from its file)."""

        def load(side: Entry | Snapshot) -> Snapshot:
            if isinstance(side, Snapshot):
                return side
            assert self.history is not None
            return self.history.load(side)

        return [load(side) for side in sides]
