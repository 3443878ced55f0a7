"""The drift tab: what the last refresh changed (or any two kept snapshots), the history, and the approval."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import QItemSelection, QItemSelectionModel, Qt, QTimer, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QListView,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from catalog_inspector.core.drift import (
    DEFAULT_KEEP,
    LOCKFILE_NAME,
    Comparison,
    DriftReport,
    DriftRow,
    Entry,
    counts_words,
)
from catalog_inspector.core.text import visible
from catalog_inspector.ui.batch import FRAME_MS
from catalog_inspector.ui.models.drift_rows import ITEM, NEW, OLD, POINTER, REASON, DriftModel, value_text
from catalog_inspector.ui.models.history_list import HistoryModel
from catalog_inspector.ui.models.roles import Role
from catalog_inspector.ui.presenters.drift import DriftPresenter
from catalog_inspector.ui.widgets.column_fit import ElasticColumns
from catalog_inspector.ui.widgets.labels import plain_label
from catalog_inspector.ui.widgets.panes import plain_text_view, set_capped_text
from catalog_inspector.ui.widgets.tables import compact_table
from catalog_inspector.ui.widgets.walk_as import WalkAsButton

__all__ = ["DriftPane"]

ELASTIC_MINIMUM = 56  # a shared column of the drift table is never narrower: the table scrolls sideways then

LOCKFILE_FILTER = "Catalog lockfiles (*.lock.json *.json);;All files (*)"

VALUE_CAP = 100_000


class DriftPane(QWidget):
    """Shows one diff as a table with the selected change's old and new values side by side.

    By default it shows what the last accepted refresh changed; picking kept
    snapshots in the history and pressing Compare shows the drift between them
    (one picked: between it and the catalog shown now). "Walk again as…" walks the server once more as another
    client and shows what that client sees next to what we see.

    Signals:
        approve_clicked(): approve (pin) the catalog shown now.
        forget_clicked(): forget the approval.
        compare_requested(object, object): compare an Entry with another Entry, or with None (the catalog shown now).
        delete_requested(object): delete a kept Entry.
        keep_changed(int): keep at most this many snapshots per server.
    """

    approve_clicked = Signal()
    forget_clicked = Signal()
    compare_requested = Signal(object, object)
    delete_requested = Signal(object)
    keep_changed = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.presenter: DriftPresenter | None = None
        self._intent_slots: tuple[Any, ...] = ()
        self._report: DriftReport | None = None
        # A new report reaches a hidden pane (the Drift tab is not the current one: nearly always, as a refresh
        # ends) a frame later: its ~1 ms at 10,000 tools is then not part of the stall its banner and tree make.
        self._render_due = QTimer(self)
        self._render_due.setSingleShot(True)
        self._render_due.setInterval(FRAME_MS)
        self._render_due.timeout.connect(self._render_report)
        self.summary = plain_label("driftSummary", self)
        self.pin_status = plain_label("pinStatus", self)
        self.approve_button = QPushButton("Approve this catalog", self)
        self.approve_button.setObjectName("approveButton")
        self.approve_button.setToolTip(
            "Pin every item of every list (tools, prompts, resources, templates, their _meta too): later catalogs "
            "that differ are flagged"
        )
        self.approve_button.clicked.connect(self.approve_clicked)
        self.forget_button = QPushButton("Forget approval", self)
        self.forget_button.setObjectName("forgetApprovalButton")
        self.forget_button.clicked.connect(self.forget_clicked)
        self.import_button = QPushButton("Import…", self)
        self.import_button.setObjectName("importApprovalButton")
        self.import_button.setToolTip(f"Make a lockfile ({LOCKFILE_NAME}, from `approve` or an export) the approval")
        self.import_button.clicked.connect(lambda: self.import_approval())
        self.export_button = QPushButton("Export…", self)
        self.export_button.setObjectName("exportApprovalButton")
        self.export_button.setToolTip("Write the approval as a lockfile that `check --pins` reads in CI")
        self.export_button.clicked.connect(lambda: self.export_approval())
        self.latest_button = QPushButton("Show last refresh", self)
        self.latest_button.setObjectName("lastRefreshButton")
        self.latest_button.clicked.connect(self._on_latest_clicked)
        self.walk_as_button = WalkAsButton(self)

        self.model = DriftModel(self)
        self.view = QTableView(self)
        self.view.setObjectName("driftView")
        self.view.setModel(self.model)
        compact_table(self.view, QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        # Severity, List, Field and Δ tokens as wide as they read; the item, the pointer, the values and the
        # reason share the rest (they elide; the panes below and the tooltips have them whole).
        self.columns = ElasticColumns(self.view, (ITEM, POINTER, OLD, NEW, REASON), ELASTIC_MINIMUM)
        self.view.selectionModel().selectionChanged.connect(self._on_view_selection_changed)
        self.old_view = plain_text_view("driftOld", self)
        self.old_view.setPlaceholderText("The old value of the selected change")
        self.new_view = plain_text_view("driftNew", self)
        self.new_view.setPlaceholderText("The new value of the selected change")
        self.reason = plain_label("driftReason", self)
        sides_split = QSplitter(Qt.Orientation.Horizontal, self)
        sides_split.addWidget(self.old_view)
        sides_split.addWidget(self.new_view)
        sides = QWidget(self)
        sides_layout = QVBoxLayout(sides)
        sides_layout.setContentsMargins(0, 0, 0, 0)
        sides_layout.addWidget(self.reason)
        sides_layout.addWidget(sides_split, 1)

        self.history_model = HistoryModel(self)
        self.history = QListView(self)
        self.history.setObjectName("historyList")
        self.history.setModel(self.history_model)
        self.history.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.history.setWordWrap(True)  # "2026-12-06 06:01:33 UTC · 3 tools" reads whole in the narrow column
        self.history.selectionModel().selectionChanged.connect(self._on_history_selection_changed)
        self.compare_button = QPushButton("Compare", self)
        self.compare_button.setObjectName("compareButton")
        self.compare_button.setToolTip(
            "One snapshot picked: compare it with the catalog shown now; two: with each other"
        )
        self.compare_button.clicked.connect(self._on_compare_clicked)
        self.delete_button = QPushButton("Delete", self)
        self.delete_button.setObjectName("deleteSnapshotButton")
        self.delete_button.clicked.connect(self._on_delete_clicked)
        self.keep = QSpinBox(self)
        self.keep.setObjectName("historyKeep")
        self.keep.setRange(1, 10_000)
        self.keep.setValue(DEFAULT_KEEP)
        self.keep.setPrefix("Keep last ")
        self.keep.setSuffix(" per server")
        self.keep.editingFinished.connect(self._on_keep_editing_finished)
        history_box = QWidget(self)
        history_layout = QVBoxLayout(history_box)
        history_layout.setContentsMargins(0, 0, 0, 0)
        title = QLabel("Kept snapshots (newest first):", history_box)
        title.setTextFormat(Qt.TextFormat.PlainText)
        history_layout.addWidget(title)
        history_layout.addWidget(self.history, 1)
        buttons = QHBoxLayout()
        buttons.addWidget(self.compare_button)
        buttons.addWidget(self.delete_button)
        history_layout.addLayout(buttons)
        history_layout.addWidget(self.keep)

        top = QHBoxLayout()
        top.addWidget(self.summary, 1)
        top.addWidget(self.latest_button)
        top.addWidget(self.walk_as_button)
        pins = QHBoxLayout()
        pins.addWidget(self.pin_status, 1)
        pins.addWidget(self.approve_button)
        pins.addWidget(self.forget_button)
        pins.addWidget(self.import_button)
        pins.addWidget(self.export_button)
        changes = QSplitter(Qt.Orientation.Vertical, self)
        changes.addWidget(self.view)
        changes.addWidget(sides)
        changes.setSizes([420, 220])
        right = QWidget(self)
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.addLayout(top)
        right_layout.addLayout(pins)
        right_layout.addWidget(changes, 1)
        split = QSplitter(Qt.Orientation.Horizontal, self)
        split.addWidget(right)
        split.addWidget(history_box)
        split.setSizes([940, 220])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(split)
        self._update_buttons()
        self.show_report(None, has_catalog=False, approved=False)

    def import_approval(self, path: Path | None = None) -> None:
        """Import a lockfile as the approval (`path` None: ask for one)."""
        if self.presenter is not None and (path := path or self._lockfile("Import an approval", save=False)):
            self.presenter.import_approval(path)

    def export_approval(self, path: Path | None = None) -> None:
        """Export the approval as a lockfile (`path` None: ask where)."""
        if self.presenter is None or not self.presenter.approved:
            return
        if path := path or self._lockfile("Export the approval", save=True):
            self.presenter.export_approval(path)

    def _lockfile(self, title: str, save: bool) -> Path | None:
        ask = QFileDialog.getSaveFileName if save else QFileDialog.getOpenFileName
        chosen, _ = ask(self, title, LOCKFILE_NAME, LOCKFILE_FILTER)
        return Path(chosen) if chosen else None

    @property
    def showing_comparison(self) -> bool:
        return self.presenter is not None and self.presenter.comparison is not None

    # -- binding -------------------------------------------------------------------
    _PANE_SIGNALS = ("approve_clicked", "forget_clicked", "compare_requested", "delete_requested")
    _PRESENTER_SIGNALS = ("report_changed", "tokens_changed", "approval_changed", "history_changed",
                          "comparison_changed", "walk_as_changed")  # fmt: skip

    def bind(self, presenter: DriftPresenter | None) -> None:
        """Render this server's Drift tab and send what the person does there to it (None: no server)."""
        if presenter is self.presenter:
            return
        old = self.presenter
        if old is not None:
            for name, slot in zip(self._PANE_SIGNALS, self._intent_slots, strict=True):
                getattr(self, name).disconnect(slot)
            self.walk_as_button.chosen.disconnect(old.walk_again_as)
            for name in self._PRESENTER_SIGNALS:
                getattr(old, name).disconnect(getattr(self, f"_on_presenter_{name}"))
        self.presenter = presenter
        self._intent_slots = ()
        if presenter is not None:
            # Kept: the very objects connected are the ones disconnected when another server is bound.
            self._intent_slots = (presenter.approve, presenter.forget_approval, presenter.compare, presenter.delete)
            for name, slot in zip(self._PANE_SIGNALS, self._intent_slots, strict=True):
                getattr(self, name).connect(slot)
            self.walk_as_button.chosen.connect(presenter.walk_again_as)
            for name in self._PRESENTER_SIGNALS:
                getattr(presenter, name).connect(getattr(self, f"_on_presenter_{name}"))
        self._on_presenter_history_changed()
        self._on_presenter_comparison_changed()
        self._on_presenter_walk_as_changed()

    @property
    def rendering_due(self) -> bool:
        """A new report waits to be shown (a frame after it came, the pane being hidden)."""
        return self._render_due.isActive()

    def _on_presenter_report_changed(self) -> None:
        if self.isVisible():
            self._render_report()
        elif not self._render_due.isActive():
            self._render_due.start()

    def showEvent(self, event: QShowEvent) -> None:
        if self._render_due.isActive():  # shown before its frame: the report is there at the first paint
            self._render_report()
        super().showEvent(event)

    def _on_presenter_tokens_changed(self) -> None:
        """The tokens came after the report: the summary and the last column, the rows and the selection kept."""
        presenter = self.presenter
        report = presenter.report if presenter is not None else None
        if report is None or self.showing_comparison or self._render_due.isActive():  # due: shown with its report
            return
        self.summary.setText(report.headline(with_pins=False))
        self.model.set_token_deltas(report.token_deltas())

    def _on_presenter_walk_as_changed(self) -> None:
        presenter = self.presenter
        if presenter is None:
            self.walk_as_button.show_choices([], None, False)
        else:
            self.walk_as_button.show_choices(presenter.walk_choices(), presenter.walking_as, presenter.has_catalog)

    def _on_presenter_approval_changed(self) -> None:
        self._render_report()

    def _on_presenter_history_changed(self) -> None:
        self.set_history(self.presenter.history() if self.presenter is not None else [])

    def _on_presenter_comparison_changed(self) -> None:
        comparison = self.presenter.comparison if self.presenter is not None else None
        if comparison is not None:
            self.show_comparison(comparison)
        else:
            self._render_report()

    def _render_report(self) -> None:
        self._render_due.stop()
        presenter = self.presenter
        if presenter is None:
            self.show_report(None, has_catalog=False, approved=False)
        else:
            self.show_report(presenter.report, presenter.has_catalog, presenter.approved)

    # -- rendering -----------------------------------------------------------------
    def show_report(self, report: DriftReport | None, has_catalog: bool, approved: bool) -> None:
        """The last refresh's drift (unless a comparison the user asked for is on screen) and the approval."""
        self._report = report
        self.approve_button.setEnabled(has_catalog)
        self._on_presenter_walk_as_changed()  # a first catalog makes it possible
        self.forget_button.setEnabled(approved)
        self.import_button.setEnabled(has_catalog)
        self.export_button.setEnabled(approved)
        if report is not None and report.pins is not None:
            self.pin_status.setText("Approval: " + report.pins.summary())
        elif approved:
            self.pin_status.setText("Approval: checking the catalog against it…")
        else:
            self.pin_status.setText(
                "Approval: none. Approve a catalog to be warned when anything in it changes (or import a lockfile)."
            )
        if self.showing_comparison:
            return
        self.latest_button.setEnabled(False)
        if report is None:
            text = "No catalog yet." if not has_catalog else "Comparing with the history…"
            self.summary.setText(text)
            self._show_rows(())
            return
        self.summary.setText(report.headline(with_pins=False))
        self._show_rows(report.rows)
        self.model.set_token_deltas(report.token_deltas())

    def show_comparison(self, comparison: Comparison) -> None:
        self.latest_button.setEnabled(True)
        if comparison.title is not None:  # it says itself what was compared and found ("What Cursor sees versus …")
            self.summary.setText(comparison.title)
            self._show_rows(comparison.rows)
            return
        if comparison.diff is None:
            self.summary.setText(
                f"Could not compare {comparison.old_label} with {comparison.new_label}: {comparison.error}"
            )
            self._show_rows(())
            return
        self.summary.setText(
            f"From {comparison.old_label} to {comparison.new_label}: {counts_words(comparison.counts)}."
        )
        self._show_rows(comparison.rows)

    def set_history(self, entries: list[Entry]) -> None:
        """The kept snapshots, newest first (the picked ones stay picked)."""
        picked = [entry.path.name for entry in self.picked()]
        self.history_model.set_entries(entries)
        selection = self.history.selectionModel()
        for name in picked:
            row = self.history_model.row_of(name)
            if row is not None:
                selection.select(self.history_model.index(row), QItemSelectionModel.SelectionFlag.Select)
        self._update_buttons()

    def set_keep(self, keep: int) -> None:
        self.keep.setValue(keep)

    def picked(self) -> list[Entry]:
        """The kept snapshots the user picked, oldest first."""
        entries = [index.data(Role.RAW) for index in self.history.selectionModel().selectedRows()]
        return sorted((e for e in entries if isinstance(e, Entry)), key=lambda e: e.path.name)

    # -- what the user does -----------------------------------------------------
    def _show_rows(self, rows: Sequence[DriftRow]) -> None:
        self.model.set_rows(rows)
        self.old_view.clear()
        self.new_view.clear()
        self.reason.clear()
        if self.model.rowCount():
            # The change this server had selected, when this diff still has it; else the worst one.
            wanted = self.presenter.selected if self.presenter is not None else None
            found = next((n for n, row in enumerate(rows) if _key_of(row) == wanted), 0) if wanted else 0
            self.view.selectRow(found)

    def _on_view_selection_changed(self, _selected: QItemSelection, _deselected: QItemSelection) -> None:
        rows = self.view.selectionModel().selectedRows()
        row = self.model.row_at(rows[0].row()) if rows else None
        if self.presenter is not None and row is not None:
            self.presenter.select(_key_of(row))
        if row is None:
            self.old_view.clear()
            self.new_view.clear()
            self.reason.clear()
            return
        where = f"{row.field} {row.pointer}".strip() if row.what == "changed" else "the whole item"
        self.reason.setText(
            f"{row.severity.value}: {visible(row.key, 200)}, {visible(where, 300)}: {visible(row.reason, 600)}"
        )
        set_capped_text(self.old_view, value_text(row.old, 2), VALUE_CAP)
        set_capped_text(self.new_view, value_text(row.new, 2), VALUE_CAP)

    def _on_latest_clicked(self) -> None:
        if self.presenter is not None:
            self.presenter.show_report()

    def _on_history_selection_changed(self, _selected: QItemSelection, _deselected: QItemSelection) -> None:
        self._update_buttons()

    def _update_buttons(self) -> None:
        count = len(self.history.selectionModel().selectedRows())
        self.compare_button.setEnabled(count in (1, 2))
        self.delete_button.setEnabled(count >= 1)

    def _on_compare_clicked(self) -> None:
        picked = self.picked()
        if len(picked) == 1:
            self.compare_requested.emit(picked[0], None)
        elif len(picked) == 2:
            self.compare_requested.emit(picked[0], picked[1])

    def _on_delete_clicked(self) -> None:
        for entry in self.picked():
            self.delete_requested.emit(entry)

    def _on_keep_editing_finished(self) -> None:
        self.keep_changed.emit(self.keep.value())


def _key_of(row: DriftRow) -> tuple[str, str, str, str]:
    return (row.list_name, row.key, row.field, row.pointer)
