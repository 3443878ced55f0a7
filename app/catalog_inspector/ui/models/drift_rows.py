"""The drift table: one row per change between two catalogs, worst first, old and new side by side."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from PySide6.QtCore import Qt

from catalog_inspector.core.catalog import LIST_KINDS
from catalog_inspector.core.drift import ABSENT, DriftRow, Severity
from catalog_inspector.core.text import visible
from catalog_inspector.ui import theme
from catalog_inspector.ui.models.flat_table import FlatTableModel, Index
from catalog_inspector.ui.models.roles import Role, tooltip

__all__ = ["DriftModel", "value_text"]

HEADERS = ("Severity", "List", "Item", "Field", "Pointer", "Old", "New", "Why", "Δ tokens")
SEVERITY, LIST, ITEM, FIELD, POINTER, OLD, NEW, REASON, TOKENS = range(len(HEADERS))
TOKENS_TIP = "What the tool's cost in a model's context changed by (o200k_base tokens), all of its changes together."
CELL = 160  # characters of a value shown in a cell; the panes below show it whole
WHOLE = {"removed": "(whole item)", "added": "(whole item)", "moved": "(order)"}
SEVERITY_COLORS = {Severity.BREAKING: theme.BREAKING, Severity.WARNING: theme.WARNING, Severity.INFO: theme.INFO}
COLOR_ROLES = [Qt.ItemDataRole.BackgroundRole]  # what a palette change changes


def value_text(value: Any, indent: int | None = None) -> str:
    """A JSON value as text ("(absent)" where there was none)."""
    if value is ABSENT:
        return "(absent)"
    return json.dumps(value, ensure_ascii=False, indent=indent)


def _signed(delta: int) -> str:
    """`+33`, `−5`, `±0`: the column's header says what they count."""
    return ("+" if delta > 0 else "−" if delta < 0 else "±") + f"{abs(delta):,}"


class DriftModel(FlatTableModel):
    """A view of one diff's rows (replaced whole: a diff is made once and never edited).

    The severity cell's background is its severity's tint in the palette of now (`ui.theme`), under the
    palette's text; a palette change is announced as one dataChanged over that column.
    """

    def __init__(self, parent: Any = None) -> None:
        super().__init__(HEADERS, parent)
        theme.theme().changed.connect(self._on_theme_changed)
        self._rows: Sequence[DriftRow] = ()
        # A cell's text, made once: an old or new value can be a megabyte of JSON, and a view asks
        # for the same cell on every repaint (display, tooltip, full text).
        self._texts: dict[tuple[int, int, bool], str] = {}
        self._deltas: Mapping[str, int] = {}  # tool → its change in tokens (the report's own, once counted)

    def set_token_deltas(self, deltas: Mapping[str, int]) -> None:
        """Each tool's change in tokens, for the last column (one dataChanged over it); kept as given."""
        if deltas is self._deltas or (not deltas and not self._deltas):
            return
        self._deltas = deltas
        if self._rows:
            self.dataChanged.emit(self.index(0, TOKENS), self.index(len(self._rows) - 1, TOKENS))

    @property
    def rows(self) -> Sequence[DriftRow]:
        return self._rows

    def set_rows(self, rows: Sequence[DriftRow]) -> None:
        """Show these rows (made off the GUI thread with the diff: see `drift.rows_of`)."""
        self.beginResetModel()
        self._rows = rows
        self._texts = {}
        self.endResetModel()

    def _on_theme_changed(self) -> None:
        if self._rows:  # one signal: a table view repaints its viewport, no work per row
            self.dataChanged.emit(self.index(0, SEVERITY), self.index(len(self._rows) - 1, SEVERITY), COLOR_ROLES)

    def row_at(self, row: int) -> DriftRow | None:
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def row_count(self) -> int:
        return len(self._rows)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        row = self.row_at(index.row()) if index.isValid() else None
        if row is None:
            return None
        column = index.column()
        if column == TOKENS:
            delta = self._deltas.get(row.key) if row.list_name == "tools" else None
            if role == Qt.ItemDataRole.DisplayRole:
                return _signed(delta) if delta is not None else ""
            if role == Qt.ItemDataRole.ToolTipRole and delta is not None:
                return tooltip(TOKENS_TIP)
            return None if role != Role.RAW else row
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(index.row(), row, column, False)
        if role == Qt.ItemDataRole.BackgroundRole and column == SEVERITY:
            return theme.brush(SEVERITY_COLORS[row.severity])
        if role == Qt.ItemDataRole.ToolTipRole and column in (ITEM, POINTER, OLD, NEW, REASON):
            return tooltip(self._text(index.row(), row, column, True))
        if role == Role.FULL_TEXT:
            return self._text(index.row(), row, column, True)
        if role == Role.RAW:
            return row
        return None

    def _text(self, number: int, row: DriftRow, column: int, full: bool) -> str:
        key = (number, column, full)
        text = self._texts.get(key)
        if text is None:
            text = self._texts[key] = self._full(row, column) if full else self._display(row, column)
        return text

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
