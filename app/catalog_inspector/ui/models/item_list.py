"""A flat table of resources, resource templates or prompts, as the server sent them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from catalog_inspector.core.text import first_line, visible
from catalog_inspector.ui.models.roles import Role, tooltip

__all__ = ["ItemListModel"]

Index = QModelIndex | QPersistentModelIndex
PREVIEW = 300


class ItemListModel(QAbstractTableModel):
    """Rows are wire objects; columns are (header, field) pairs chosen per list kind.

    A cell is one line (the first line of its field, elided); the whole field is its tooltip.
    `key_field` names the field that identifies a row (`Role.KEY`, `row_of`): a resource's
    URI, a prompt's name.

    Signals: only QAbstractItemModel's own.
    """

    def __init__(self, columns: Sequence[tuple[str, str]], parent: Any = None, key_field: str | None = None) -> None:
        super().__init__(parent)
        self._columns = list(columns)
        self._key_field = key_field or self._columns[0][1]
        self._items: list[dict[str, Any]] = []
        self._marks: dict[str, str] = {}  # by key: a word before the first column's text (a resource watched)

    def set_marks(self, marks: dict[str, str]) -> None:
        """Mark rows by key (`● changed` …); the first column says the mark before its text."""
        if marks != self._marks:
            self._marks = dict(marks)
            if self._items:
                self.dataChanged.emit(self.index(0, 0), self.index(len(self._items) - 1, 0))

    def set_items(self, items: Sequence[dict[str, Any]]) -> None:
        # These lists are small next to tools; a reset keeps this model simple.
        self.beginResetModel()
        self._items = [dict(i) for i in items]
        self.endResetModel()

    def item_at(self, index: Index) -> dict[str, Any] | None:
        """The item of a row as the server sent it (its keys in their order), or None; not read through Qt,
        which would hand back a copy with its keys sorted (see `Role.RAW`)."""
        row = index.row() if index.isValid() else -1
        return self._items[row] if 0 <= row < len(self._items) else None

    def key_of(self, item: dict[str, Any]) -> str:
        """The key of a row's item, as text (a server may send any JSON value there)."""
        value = item.get(self._key_field)
        return value if isinstance(value, str) else repr(value)

    def row_of(self, key: str) -> int | None:
        """The first row whose item has this key (linear: once per catalog, never per event of a view)."""
        return next((row for row, item in enumerate(self._items) if self.key_of(item) == key), None)

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._items)

    def columnCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._columns)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self._columns[section][0]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._items):
            return None
        item = self._items[index.row()]
        if role == Role.RAW:
            return item
        if role == Role.KEY:
            return self.key_of(item)
        if role not in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return None
        value = item.get(self._columns[index.column()][1])
        text = value if isinstance(value, str) else ("" if value is None else str(value))
        if role == Qt.ItemDataRole.DisplayRole:
            mark = self._marks.get(self.key_of(item)) if self._marks and index.column() == 0 else None
            shown = visible(first_line(text, PREVIEW))
            return f"{mark} {shown}" if mark else shown
        if text:
            return tooltip(text)
        return None
