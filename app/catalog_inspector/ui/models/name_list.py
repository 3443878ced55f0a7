"""A read-only list of keys (tool names …) shown as plain, visible text, made per row on demand."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt

from catalog_inspector.core.text import visible
from catalog_inspector.ui.models.roles import Role

__all__ = ["NameListModel"]

Index = QModelIndex | QPersistentModelIndex
WIDTH = 300


class NameListModel(QAbstractListModel):
    """Views the given sequence (no copy): 100,000 names cost one reset, not 100,000 strings made up front."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._names: Sequence[str] = ()

    def set_names(self, names: Sequence[str]) -> None:
        if names is self._names:
            return
        self.beginResetModel()
        self._names = names
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._names)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._names):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return visible(self._names[index.row()], WIDTH)
        if role == Role.KEY:
            return self._names[index.row()]
        return None
