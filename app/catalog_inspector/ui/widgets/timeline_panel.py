"""A page timeline with a choice of walk: the live one, the failed attempt, the accepted one."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from catalog_inspector.ui.batch import Batcher
from catalog_inspector.ui.models.roles import Role
from catalog_inspector.ui.models.timeline import TimelineModel
from catalog_inspector.ui.presenter import Walk
from catalog_inspector.ui.widgets.tables import compact_table

__all__ = ["TimelinePanel"]

LIVE_BATCH_MS = 40


class TimelinePanel(QWidget):
    """Shows one walk's pages; the combo box chooses which walk.

    Attributes:
        model: the `TimelineModel` behind the view.
        view: the table (its object name is given by the caller, e.g. `pageTimeline`).
        source: the combo box of walks (`<name>Source`).
    """

    def __init__(self, object_name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._walks: list[Walk] = []
        self.model = TimelineModel(self)
        # A fast walk must not repaint per page: new rows are announced at most every LIVE_BATCH_MS.
        self._live_batch: Batcher[None] = Batcher(lambda _: self.model.sync(), LIVE_BATCH_MS, keep_last=1, parent=self)
        self.view = QTableView(self)
        self.view.setObjectName(object_name)
        self.view.setModel(self.model)
        compact_table(self.view, QAbstractItemView.SelectionBehavior.SelectItems)
        self.view.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        for column, width in enumerate((32, 120, 120, 46, 70, 64)):
            self.view.setColumnWidth(column, width)
        copy = QAction("Copy full value", self.view)
        copy.setShortcut(QKeySequence.StandardKey.Copy)
        copy.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        copy.triggered.connect(self.copy_current)
        self.view.addAction(copy)
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        self.source = QComboBox(self)
        self.source.setObjectName(f"{object_name}Source")
        self.source.currentIndexChanged.connect(self._show)
        label = QLabel("Page timeline:", self)
        label.setTextFormat(Qt.TextFormat.PlainText)
        top = QHBoxLayout()
        top.addWidget(label)
        top.addWidget(self.source, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.view)

    def set_walks(self, walks: Sequence[Walk]) -> None:
        """Offer these walks, most relevant first; the first one is shown."""
        self._walks = list(walks)
        self.source.blockSignals(True)
        self.source.clear()
        for walk in self._walks:
            self.source.addItem(walk.label.replace("&", "&&"))
        self.source.setCurrentIndex(0 if self._walks else -1)
        self.source.blockSignals(False)
        self._show(self.source.currentIndex())

    def pages_added(self) -> None:
        """The live walk grew (in the runtime's sequence): show its new rows soon, if it is the one shown."""
        index = self.source.currentIndex()
        if 0 <= index < len(self._walks) and self._walks[index].live:
            self._live_batch.add(None)

    def _show(self, index: int) -> None:
        self._live_batch.clear()
        walk = self._walks[index] if 0 <= index < len(self._walks) else None
        self.model.show(walk.pages if walk is not None else (), walk.related if walk is not None else frozenset())
        bad = self.model.offending_row()
        if bad is not None:
            self.view.scrollTo(self.model.index(bad, 0))

    def copy_current(self) -> None:
        index = self.view.currentIndex()
        if index.isValid():
            QGuiApplication.clipboard().setText(str(index.data(Role.FULL_TEXT) or ""))
