"""The reach tab: what a first-page-only host misses, and tool names that collide across servers."""

from __future__ import annotations

from collections.abc import Mapping

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
from catalog_inspector.ui.widgets.labels import plain_label
from catalog_inspector.ui.widgets.tables import compact_table

__all__ = ["ChecksPane"]

COLLISION_ROWS = 2_000  # table items are made on the GUI thread: bounded, whatever two big catalogs share


class ChecksPane(QWidget):
    """Two checks a host integrator asks about.

    Attributes:
        first_page_summary, first_page_view: the selected server's tools a host that
            ignores `nextCursor` never sees (`firstPageSummary`, `firstPageView`).
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
        self.collisions_summary = plain_label("collisionsSummary", self)
        self.collisions_view = QTableWidget(0, 2, self)
        self.collisions_view.setObjectName("collisionsView")
        self.collisions_view.setHorizontalHeaderLabels(
            ["Tool name", "Offered by (a host that merges them keeps the last)"]
        )
        self.collisions_view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        compact_table(self.collisions_view, QAbstractItemView.SelectionBehavior.SelectRows)
        self.collisions_view.setColumnWidth(0, 220)
        top = QWidget(self)
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        top_layout.addWidget(self.first_page_summary)
        top_layout.addWidget(self.first_page_view, 1)
        bottom = QWidget(self)
        bottom_layout = QVBoxLayout(bottom)
        bottom_layout.setContentsMargins(0, 0, 0, 0)
        bottom_layout.addWidget(self.collisions_summary)
        bottom_layout.addWidget(self.collisions_view, 1)
        split = QSplitter(Qt.Orientation.Vertical, self)
        split.addWidget(top)
        split.addWidget(bottom)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(split)
        self.show_first_page(None)
        self.show_collisions({})

    def show_first_page(self, reach: FirstPage | None) -> None:
        if reach is None:
            self.first_page_summary.setText("No catalog yet: nothing to say about first-page-only hosts.")
            self.hidden_model.set_names(())
            return
        text = reach.summary()
        if reach.hidden:
            text += " These are the ones it never sees:"
        self.first_page_summary.setText(text)
        self.hidden_model.set_names(reach.hidden)

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
