"""The drift table: one row per change between two catalogs, worst first, old and new side by side."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor

from catalog_inspector.core.diff import ABSENT, CatalogDiff, Severity
from catalog_inspector.core.lists import LIST_KINDS, item_key
from catalog_inspector.core.text import visible
from catalog_inspector.ui.models.flat_table import FlatTableModel, Index
from catalog_inspector.ui.models.roles import Role, tooltip

__all__ = ["DriftModel", "DriftRow", "rows_of", "value_text"]

HEADERS = ("Severity", "List", "Item", "Field", "Pointer", "Old", "New", "Why")
SEVERITY, LIST, ITEM, FIELD, POINTER, OLD, NEW, REASON = range(len(HEADERS))
CELL = 160  # characters of a value shown in a cell; the panes below show it whole
WHOLE = {"removed": "(whole item)", "added": "(whole item)", "moved": "(order)"}
SEVERITY_COLORS = {Severity.BREAKING: "#ffd9d6", Severity.WARNING: "#fff0c2", Severity.INFO: "#e8f0fe"}


@dataclass(frozen=True)
class DriftRow:
    """One change as the table shows it (values are the JSON values, ABSENT where there was none)."""

    severity: Severity
    what: str  # "removed", "changed", "added" or "moved"
    list_name: str
    key: str
    field: str
    pointer: str
    old: Any
    new: Any
    reason: str


def rows_of(diff: CatalogDiff) -> list[DriftRow]:
    """Every change of `diff` as rows: breaking first, then warning, then info; lists in table order."""
    rows: list[DriftRow] = []
    for list_name, changes in diff.lists.items():
        noun = LIST_KINDS[list_name].key_noun
        for item in changes.removed:
            key = item_key(list_name, item)
            rows.append(DriftRow(Severity.BREAKING, "removed", list_name, key, "", "", item, ABSENT, f"{noun} removed"))
        for changed in changes.changed:
            for one in changed.changes:
                rows.append(
                    DriftRow(one.severity, "changed", list_name, changed.key, one.field, one.pointer, one.old, one.new, one.reason)
                )
        for item in changes.added:
            key = item_key(list_name, item)
            rows.append(DriftRow(Severity.INFO, "added", list_name, key, "", "", ABSENT, item, f"{noun} added"))
        for move in changes.moved:
            reason = f"moved from place {move.old_index} to {move.new_index} among the items both catalogs have"
            rows.append(DriftRow(Severity.INFO, "moved", list_name, move.key, "", "", move.old_index, move.new_index, reason))
    rank = {Severity.BREAKING: 0, Severity.WARNING: 1, Severity.INFO: 2}
    rows.sort(key=lambda row: rank[row.severity])  # stable: list and item order stay within a severity
    return rows


def value_text(value: Any, indent: int | None = None) -> str:
    """A JSON value as text ("(absent)" where there was none)."""
    if value is ABSENT:
        return "(absent)"
    return json.dumps(value, ensure_ascii=False, indent=indent)


class DriftModel(FlatTableModel):
    """A view of one diff's rows (replaced whole: a diff is made once and never edited)."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(HEADERS, parent)
        self._rows: list[DriftRow] = []

    @property
    def rows(self) -> list[DriftRow]:
        return self._rows

    def set_diff(self, diff: CatalogDiff | None) -> None:
        self.beginResetModel()
        self._rows = rows_of(diff) if diff is not None else []
        self.endResetModel()

    def row_at(self, row: int) -> DriftRow | None:
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def row_count(self) -> int:
        return len(self._rows)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        row = self.row_at(index.row()) if index.isValid() else None
        if row is None:
            return None
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(row, column)
        if role == Qt.ItemDataRole.BackgroundRole and column == SEVERITY:
            return QBrush(QColor(SEVERITY_COLORS[row.severity]))
        if role == Qt.ItemDataRole.ToolTipRole and column in (ITEM, POINTER, OLD, NEW, REASON):
            return tooltip(self._full(row, column))
        if role == Role.FULL_TEXT:
            return self._full(row, column)
        if role == Role.RAW:
            return row
        return None

    def _full(self, row: DriftRow, column: int) -> str:
        if column == OLD:
            return value_text(row.old, 2)
        if column == NEW:
            return value_text(row.new, 2)
        return self._display(row, column)

    @staticmethod
    def _display(row: DriftRow, column: int) -> str:
        if column == SEVERITY:
            return row.severity.value
        if column == LIST:
            return LIST_KINDS[row.list_name].title
        if column == ITEM:
            return visible(row.key, CELL)
        if column == FIELD:
            return visible(row.field, CELL) if row.what == "changed" else WHOLE[row.what]
        if column == POINTER:
            return visible(row.pointer, CELL) if row.pointer else ""
        if column == OLD:
            return visible(value_text(row.old), CELL)
        if column == NEW:
            return visible(value_text(row.new), CELL)
        return visible(row.reason, 400)
