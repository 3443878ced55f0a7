"""The reach tab: what a first-page-only host misses, what a conforming 2026-07-28 client drops, and tool
names that collide across servers."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QSplitter,
    QTableView,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from catalog_inspector.core.drift import FirstPage
from catalog_inspector.core.text import visible
from catalog_inspector.ui.models.name_list import NameListModel
from catalog_inspector.ui.models.roles import tooltip
from catalog_inspector.ui.widgets.labels import plain_label
from catalog_inspector.ui.widgets.tables import compact_table

__all__ = ["ChecksPane"]

COLLISION_ROWS = 2_000  # table items are made on the GUI thread: bounded, whatever two big catalogs share
EXCLUDED_ROWS = 2_000  # the same bound for the tools a conforming client drops
SUMMARY_LINES = 3  # the height of a check with nothing to list: its summary's lines
QWIDGETSIZE_MAX = 16_777_215  # Qt's "no maximum"


class ChecksPane(QWidget):
    """Two checks a host integrator asks about.

    Attributes:
        first_page_summary, first_page_view: the selected server's tools a host that
            ignores `nextCursor` never sees (`firstPageSummary`, `firstPageView`).
        excluded_summary, excluded_view: the selected server's tools conforming 2026-07-28 clients exclude
            (an invalid `x-mcp-header` annotation), with why (`excludedSummary`, `excludedView`).
        collisions_view: tool names more than one configured server offers (`collisionsView`).
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.first_page_summary = plain_label("firstPageSummary", self)
        self.hidden_model = NameListModel(self)
        # A table, not a list view: QListView lays out every item on a reset (125 ms at 100,000 names).
        self.first_page_view = QTableView(self)
        self.first_page_view.setObjectName("firstPageView")
        self.first_page_view.setModel(self.hidden_model)
        compact_table(self.first_page_view, QAbstractItemView.SelectionBehavior.SelectRows)
        self.first_page_view.horizontalHeader().setVisible(False)
        self.first_page_view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.excluded_summary = plain_label("excludedSummary", self)
        self.excluded_view = QTableWidget(0, 2, self)
        self.excluded_view.setObjectName("excludedView")
        self.excluded_view.setHorizontalHeaderLabels(["Tool name", "Why conforming clients drop it"])
        self.excluded_view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        compact_table(self.excluded_view, QAbstractItemView.SelectionBehavior.SelectRows)
        self.excluded_view.setColumnWidth(0, 200)
        self.collisions_summary = plain_label("collisionsSummary", self)
        self.collisions_view = QTableWidget(0, 2, self)
        self.collisions_view.setObjectName("collisionsView")
        self.collisions_view.setHorizontalHeaderLabels(
            ["Tool name", "Offered by (a host that merges them keeps the last)"]
        )
        self.collisions_view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        compact_table(self.collisions_view, QAbstractItemView.SelectionBehavior.SelectRows)
        self.collisions_view.setColumnWidth(0, 220)
        top = QSplitter(Qt.Orientation.Horizontal, self)
        top.addWidget(self._titled(self.first_page_summary, self.first_page_view))
        top.addWidget(self._titled(self.excluded_summary, self.excluded_view))
        top.setChildrenCollapsible(False)  # a check whose table is hidden still says so beside the other
        top.setSizes([500, 500])
        self.split = QSplitter(Qt.Orientation.Vertical, self)
        self.top, self.bottom = top, self._titled(self.collisions_summary, self.collisions_view)
        self.split.addWidget(self.top)
        self.split.addWidget(self.bottom)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.split)
        self.show_first_page(None)
        self.show_excluded(None)
        self.show_collisions({})

    def _fit_panes(self) -> None:
        """A check with nothing to list says so in its summary alone: its table is hidden (not a large empty box)
        and its pane no taller than a few lines, so that the checks that list something take the room."""
        views = (self.first_page_view, self.excluded_view, self.collisions_view)
        rows = [view.model().rowCount() > 0 for view in views]
        for view, listed in zip(views, rows, strict=True):
            if view.isVisibleTo(self) != listed:
                view.setVisible(listed)
        room = self.fontMetrics().lineSpacing() * SUMMARY_LINES + 8
        for pane, listed in ((self.top, rows[0] or rows[1]), (self.bottom, rows[2])):
            pane.setMaximumHeight(QWIDGETSIZE_MAX if listed else room)

    def _titled(self, summary: QWidget, view: QWidget) -> QWidget:
        """A summary line over its table, as one pane of a splitter."""
        pane = QWidget(self)
        layout = QVBoxLayout(pane)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(summary)
        layout.addWidget(view, 1)
        layout.addStretch()  # the summary stays at the top while its table is hidden
        return pane

    def show_first_page(self, reach: FirstPage | None) -> None:
        if reach is None:
            self.first_page_summary.setText("No catalog yet: nothing to say about first-page-only hosts.")
            self.hidden_model.set_names(())
            self._fit_panes()
            return
        text = reach.summary()
        if reach.hidden:
            text += " These are the ones it never sees:"
        self.first_page_summary.setText(text)
        self.hidden_model.set_names(reach.hidden)
        self._fit_panes()

    def show_excluded(self, excluded: Sequence[Mapping[str, str]] | None) -> None:
        """The snapshot's `excluded_tools` (None: no catalog yet)."""
        rows = list(excluded or ())
        if excluded is None:
            self.excluded_summary.setText("No catalog yet: nothing to say about tools conforming clients drop.")
        elif not rows:
            self.excluded_summary.setText("No tool is excluded by conforming 2026-07-28 clients.")
        else:
            shown = f" (the first {EXCLUDED_ROWS:,} shown)" if len(rows) > EXCLUDED_ROWS else ""
            self.excluded_summary.setText(
                f"{len(rows):,} tool{'s' if len(rows) != 1 else ''} conforming 2026-07-28 clients exclude "
                f"(an invalid x-mcp-header annotation): such a host never offers {'them' if len(rows) != 1 else 'it'}"
                f"{shown}:"
            )
            rows = rows[:EXCLUDED_ROWS]
        self.excluded_view.setRowCount(len(rows))
        for row, entry in enumerate(rows):
            self.excluded_view.setItem(row, 0, QTableWidgetItem(visible(str(entry.get("name", "")), 300)))
            reason = QTableWidgetItem(visible(str(entry.get("reason", "")), 300))
            reason.setToolTip(tooltip(reason.text()))  # the reason quotes the annotation: often wider than the column
            self.excluded_view.setItem(row, 1, reason)
        self._fit_panes()

    def show_collisions(self, collisions: Mapping[str, tuple[str, ...]]) -> None:
        names = sorted(collisions)
        if names:
            shown = f" (the first {COLLISION_ROWS:,} shown)" if len(names) > COLLISION_ROWS else ""
            self.collisions_summary.setText(
                f"{len(names):,} tool name{'s' if len(names) != 1 else ''} offered by more than one configured server "
                f"(among the catalogs accepted so far){shown}:"
            )
            names = names[:COLLISION_ROWS]
        else:
            self.collisions_summary.setText("No tool name is offered by more than one configured server (so far).")
        self.collisions_view.setRowCount(len(names))
        for row, name in enumerate(names):
            self.collisions_view.setItem(row, 0, QTableWidgetItem(visible(name, 300)))
            servers = " → ".join(visible(server, 120) for server in collisions[name])
            self.collisions_view.setItem(row, 1, QTableWidgetItem(servers))
        self._fit_panes()
