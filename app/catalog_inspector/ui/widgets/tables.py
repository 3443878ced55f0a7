"""The one way this app sets up a table view of server data."""

from __future__ import annotations

from PySide6.QtWidgets import QAbstractItemView, QTableView

__all__ = ["compact_table"]


def compact_table(view: QTableView, selection: QAbstractItemView.SelectionBehavior) -> QTableView:
    """One line per row: no word wrap (a hyphen in a cursor would hide the rest of it), tight rows."""
    view.setSelectionBehavior(selection)
    view.setWordWrap(False)
    view.verticalHeader().setVisible(False)
    view.verticalHeader().setDefaultSectionSize(view.fontMetrics().height() + 6)
    view.horizontalHeader().setStretchLastSection(True)
    return view
