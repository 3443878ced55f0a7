"""The kept snapshots of one server, newest first: a list model over the history's entries (our own words only)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt

from catalog_inspector.core.drift import Entry
from catalog_inspector.ui.models.roles import Role

__all__ = ["HistoryModel"]

Index = QModelIndex | QPersistentModelIndex


class HistoryModel(QAbstractListModel):
    """One row per kept snapshot. `Role.RAW` is the `Entry`, `Role.KEY` its file name (stable across listings)."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._entries: Sequence[Entry] = ()

    def set_entries(self, entries: Sequence[Entry]) -> None:
        """A new listing: a reset (a few dozen rows, listed again as a whole)."""
        self.beginResetModel()
        self._entries = tuple(entries)
        self.endResetModel()

    def entry_at(self, row: int) -> Entry | None:
        return self._entries[row] if 0 <= row < len(self._entries) else None

    def row_of(self, name: str) -> int | None:
        return next((row for row, entry in enumerate(self._entries) if entry.path.name == name), None)

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._entries)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        entry = self.entry_at(index.row()) if index.isValid() else None
        if entry is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return entry.label()
        if role == Qt.ItemDataRole.ToolTipRole:
            return entry.label(every_list=True)  # our own words: no server text in it
        if role == Role.RAW:
            return entry
        if role == Role.KEY:
            return entry.path.name
        return None
