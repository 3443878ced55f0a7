"""What the Drift tab shows for one server: the last refresh's report or a comparison asked for, the kept
snapshots, the approval; and what the person does there (compare, walk again as another client, delete, approve,
forget, keep fewer).

Each fact has its own signal, so a new listing of the history does not redraw the
report table (and lose its selection), and an approval does not re-plan the tree.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from catalog_inspector.core.config import profile_choices
from catalog_inspector.runtime import ServerSupervisor
from catalog_inspector.runtime.messages import MessageBridge
from catalog_inspector.runtime.tracker import DriftTracker

if TYPE_CHECKING:
    from catalog_inspector.core.drift import Comparison, DriftReport, Entry

__all__ = ["DriftPresenter"]


class DriftPresenter(QObject):
    """The Drift tab of one server.

    Attributes:
        comparison: the comparison the person asked for and is looking at, or None (the last refresh's report).
        selected: the key of the change selected in the table (its list, the item's key, field, pointer), kept per server.

    Signals:
        report_changed(): `report` changed (a new catalog's first report).
        approval_changed(): `approved` or the report's approval check changed.
        history_changed(): `history` changed.
        comparison_changed(): `comparison` changed (a comparison came, or the report is shown again).
        walk_as_changed(): a walk of this server as another client began or ended (`walking_as`).
        tokens_changed(): the report now says both catalogs' tokens (`DriftReport.token_words`).
    """

    report_changed = Signal()
    approval_changed = Signal()
    history_changed = Signal()
    comparison_changed = Signal()
    walk_as_changed = Signal()
    tokens_changed = Signal()

    def __init__(
        self,
        supervisor: ServerSupervisor,
        tracker: DriftTracker,
        messages: MessageBridge,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.supervisor = supervisor
        self._tracker = tracker
        self._messages = messages
        self.comparison: Comparison | None = None
        self.selected: tuple[str, str, str, str] | None = None
        tracker.report_ready.connect(self._on_tracker_report_ready)
        tracker.tokens_counted.connect(self._on_tracker_tokens_counted)
        tracker.approval_changed.connect(self._on_tracker_approval_changed)
        tracker.history_changed.connect(self._on_tracker_history_changed)
        tracker.comparison_ready.connect(self._on_tracker_comparison_ready)
        tracker.profiles.walks_changed.connect(self._on_profiles_walks_changed)

    @property
    def name(self) -> str:
        return self.supervisor.spec.name

    @property
    def report(self) -> DriftReport | None:
        """The report of the accepted catalog (None while it is being made)."""
        return self._tracker.report_for(self.supervisor)

    @property
    def has_catalog(self) -> bool:
        return self.supervisor.accepted is not None

    @property
    def approved(self) -> bool:
        return self._tracker.pins.get(self.name) is not None

    @property
    def keep(self) -> int:
        history = self._tracker.history
        return history.keep if history is not None else 0

    def history(self) -> list[Entry]:
        """The server's kept snapshots, newest first."""
        return list(reversed(self._tracker.entries.get(self.name, [])))

    # -- what the person asks -----------------------------------------------------
    def approve(self) -> bool:
        if not self._tracker.approve(self.name):
            return False
        self._messages.info("Approving this catalog: later catalogs whose tools differ will be flagged.", self.name)
        return True

    def forget_approval(self) -> None:
        self._tracker.forget_approval(self.name)

    def import_approval(self, path: Path) -> None:
        self._tracker.import_approval(self.name, path)

    def export_approval(self, path: Path) -> bool:
        return self._tracker.export_approval(self.name, path)

    def compare(self, old: Entry, new: Entry | None) -> None:
        """Compare two kept snapshots (`new` None: with the catalog shown now); `comparison_changed` follows."""
        self._tracker.request_comparison(self.name, old, new)

    @property
    def walking_as(self) -> str | None:
        """The client this server is being walked as now ("walk again as …"), or None."""
        return self._tracker.profiles.walking_as(self.supervisor)

    def walk_choices(self) -> list[tuple[str, str]]:
        """What "walk again as …" offers: (key, label), the entry's own profile first."""
        return profile_choices(self.supervisor.spec.client)

    def walk_again_as(self, key: str) -> None:
        """Walk the server once as that client and compare what it sees with the catalog shown now;
        `comparison_changed` follows (`walk_as_changed` when it starts and ends)."""
        self._tracker.profiles.walk_again_as(self.supervisor, key)

    def show_report(self) -> None:
        """Back to the last refresh's report."""
        if self.comparison is not None:
            self.comparison = None
            self.selected = None
            self.comparison_changed.emit()

    def select(self, key: tuple[str, str, str, str] | None) -> None:
        """The change the person selected in the table (its list, item, field and pointer), kept for this server."""
        self.selected = key

    def delete(self, entry: Entry) -> None:
        self._tracker.delete(self.name, entry)

    def set_keep(self, keep: int) -> None:
        self._tracker.set_keep(keep)

    def list_history(self) -> None:
        self._tracker.list_history(self.name)

    # -- following the tracker ------------------------------------------------------
    def _on_tracker_report_ready(self, name: str) -> None:
        if name == self.name:
            self.selected = None if self.comparison is None else self.selected
            self.report_changed.emit()

    def _on_tracker_tokens_counted(self, name: str) -> None:
        if name == self.name:
            self.tokens_changed.emit()

    def _on_tracker_approval_changed(self, name: str) -> None:
        if name == self.name:
            self.approval_changed.emit()

    def _on_tracker_history_changed(self, name: str) -> None:
        if name == self.name:
            self.history_changed.emit()

    def _on_profiles_walks_changed(self, name: str) -> None:
        if name == self.name:
            self.walk_as_changed.emit()

    def _on_tracker_comparison_ready(self, name: str, comparison: Comparison) -> None:
        if name == self.name:
            self.comparison = comparison
            self.selected = None
            self.comparison_changed.emit()
