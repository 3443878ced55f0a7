"""The shared shape of the app's flat tables: rows of one kind, fixed column headers."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

__all__ = ["FlatTableModel", "Index"]

Index = QModelIndex | QPersistentModelIndex


class FlatTableModel(QAbstractTableModel):
    """A table without children: subclasses say how many rows there are and what the headers say."""

    def __init__(self, headers: tuple[str, ...], parent: Any = None) -> None:
        super().__init__(parent)
        self.headers = headers

    def row_count(self) -> int:
        raise NotImplementedError

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else self.row_count()

    def columnCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.headers)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.headers[section]
        return None
