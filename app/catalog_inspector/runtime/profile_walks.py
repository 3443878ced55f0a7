""" "Walk again as …": a server walked once more as another client, and what that client sees next to what we see.

Servers change what they offer by who the client says it is (its name, the extensions
it advertises, the protocol version it proposes). The second walk runs in a session of
its own (`ServerSupervisor.walk_beside`: the same budgets, closed as soon as it has
walked, stopped with the server's other sessions), so the accepted catalog, its session,
the history and the approvals never see it. Its catalog is diffed with the accepted one
by the drift engine, off the GUI thread, and the comparison goes where every comparison
the person asks for goes (the tracker's `comparison_ready`); a walk that was not
accepted is a comparison that says why.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from catalog_inspector.core.catalog import Snapshot
from catalog_inspector.core.config import OURS, ClientProfile, ServerSpec, profile_for
from catalog_inspector.core.errors import code_words, last_words, reason
from catalog_inspector.core.text import visible
from catalog_inspector.runtime.messages import MessageBridge, failure_words
from catalog_inspector.runtime.offload import Offload, OffloadClosed
from catalog_inspector.runtime.supervisor import ServerSupervisor
from catalog_inspector.runtime.tasks import TaskSet

if TYPE_CHECKING:
    from catalog_inspector.core.drift import CatalogDiff, Comparison, DriftRow, Severity

__all__ = ["ProfileWalks", "as_client", "changes_words", "failure_text"]

REASON_LIMIT = 400  # characters of the failed walk's own reason


def as_client(spec: ServerSpec, profile: ClientProfile | None) -> ServerSpec:
    """The entry walked as `profile` (None: this inspector). A version the profile pins needs the initialize
    handshake, so an entry that speaks only 2026-07-28 is walked as that client would: with `initialize`."""
    era = spec.protocol_era
    if profile is not None and profile.protocol_version is not None and era == "modern":
        era = "legacy"
    return replace(spec, client=profile, protocol_era=era)


def failure_text(snapshot: Snapshot, label: str) -> str:
    """Why the walk as `label` gave no catalog to compare: its status, kind, where, and the server's own words."""
    error = snapshot.error
    ended = "failed" if snapshot.status == "failed" else f"was {snapshot.status}"
    if error is None:
        return f"the walk as {label} {ended}"
    where = [f"{error.list_name}, page {error.page}"] if error.page is not None else []
    named = code_words(error)
    if named is not None:
        where.append(named.text)
    said = f" ({'; '.join(where)})" if where else ""
    text = f"the walk as {label} {ended}: {error.kind.heading}{said}: {visible(reason(error), REASON_LIMIT)}"
    last = last_words(error.details)
    if last:
        text += f"; {last}"
    return text


def changes_words(diff: CatalogDiff) -> str:
    """What one client is given that the other is not, in items: "1 added, 1 removed" ("the same catalog")."""
    lists = diff.lists.values()
    counts = (
        ("added", sum(len(one.added) for one in lists)),
        ("removed", sum(len(one.removed) for one in lists)),
        ("changed", sum(len(one.changed) for one in lists)),
        ("in another order", sum(len(one.moved) for one in lists)),
    )
    return ", ".join(f"{count:,} {word}" for word, count in counts if count) or "the same catalog"


def _diff(ours: Snapshot, theirs: Snapshot) -> tuple[CatalogDiff, tuple[DriftRow, ...], dict[Severity, int]]:
    """On a worker thread: what `theirs` has that `ours` has not, and the other way round (linear in the changes)."""
    from catalog_inspector.core.drift import diff_snapshots, rows_of

    diff = diff_snapshots(ours, theirs)
    return diff, tuple(rows_of(diff)), diff.counts()


class ProfileWalks(QObject):
    """The second walks under other client profiles, one per server at a time.

    Signals:
        walks_changed(str): a walk of this server began or ended (`walking_as`).
    """

    walks_changed = Signal(str)

    def __init__(
        self,
        offload: Offload,
        tasks: TaskSet,
        messages: MessageBridge,
        deliver: Callable[[str, Comparison], None],
        follows: Callable[[ServerSupervisor], bool],
    ) -> None:
        super().__init__()
        self._offload = offload
        self._tasks = tasks
        self._messages = messages
        self._deliver = deliver
        self._follows = follows
        self._running: dict[str, tuple[ServerSupervisor, str]] = {}

    def walking_as(self, supervisor: ServerSupervisor) -> str | None:
        """The label of the client this server is being walked as now, or None."""
        running = self._running.get(supervisor.spec.name)
        return running[1] if running is not None and running[0] is supervisor else None

    def walk_again_as(self, supervisor: ServerSupervisor, key: str) -> bool:
        """Walk the server once as the client `key` names (see `core.config.profile_choices`) and compare what it
        is given with the accepted catalog. False when nothing is accepted yet, a walk-again runs already, the key
        is unknown or the server is closing."""
        name = supervisor.spec.name
        ours = supervisor.accepted
        if ours is None or self.walking_as(supervisor) is not None:
            return False
        own = supervisor.spec.client
        try:
            profile = profile_for(key, own)
        except KeyError:
            return False
        label = (profile or OURS).label
        we = "we" if own is None else f"we, as {own.label},"
        title = f"What {label} sees versus what {we} see"
        old, new = f"what {we} see", f"what {label} sees"

        def walked(theirs: Snapshot) -> None:
            self._on_walked(supervisor, ours, theirs, (old, new, title, label))

        self._running[name] = (supervisor, label)
        if not supervisor.walk_beside(as_client(supervisor.spec, profile), walked):
            self._finish(supervisor)
            return False
        self.walks_changed.emit(name)
        return True

    def _finish(self, supervisor: ServerSupervisor) -> None:
        name = supervisor.spec.name
        running = self._running.get(name)
        if running is not None and running[0] is supervisor:
            del self._running[name]
            self.walks_changed.emit(name)

    def _on_walked(
        self, supervisor: ServerSupervisor, ours: Snapshot, theirs: Snapshot, words: tuple[str, str, str, str]
    ) -> None:
        name = supervisor.spec.name

        def failed(exc: BaseException) -> None:
            self._finish(supervisor)
            self._messages.error(f"could not compare the walk as {words[3]}: {failure_words(exc)}", name)

        task = self._tasks.spawn(
            self._compare(supervisor, ours, theirs, words), None, failed, name="walk again as", droppable=True
        )
        if task is None:  # quitting: nobody is left to read it
            self._finish(supervisor)

    async def _compare(
        self, supervisor: ServerSupervisor, ours: Snapshot, theirs: Snapshot, words: tuple[str, str, str, str]
    ) -> None:
        from catalog_inspector.core.drift import Comparison

        old, new, title, label = words
        try:
            if theirs.status != "complete":
                error = failure_text(theirs, label)
                comparison = Comparison(old, new, error=error, title=f"{title}: {error}.")
            else:
                diff, rows, counts = await self._offload.run(_diff, ours, theirs)
                said = f"{title}: {changes_words(diff)}."
                comparison = Comparison(old, new, diff, rows=rows, counts=counts, title=said)
        except OffloadClosed:
            return
        finally:
            self._finish(supervisor)
        if self._follows(supervisor):  # the configuration neither dropped nor replaced the server meanwhile
            self._deliver(supervisor.spec.name, comparison)
