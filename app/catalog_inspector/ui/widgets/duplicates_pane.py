"""The duplicates tab: each key a rejected walk saw twice, its pages, and both definitions side by side."""

from __future__ import annotations

import json
from collections import Counter

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QTextCursor, QTextFormat
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLabel,
    QPlainTextEdit,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from catalog_inspector.core.catalog import LIST_KINDS
from catalog_inspector.core.drift import Duplicate
from catalog_inspector.core.text import visible
from catalog_inspector.ui import theme
from catalog_inspector.ui.models.drift_rows import value_text
from catalog_inspector.ui.widgets.panes import plain_text_view, set_capped_text
from catalog_inspector.ui.widgets.tables import compact_table

__all__ = ["DuplicatesPane", "differing_lines"]

MARK_LINES = 20_000  # longer definitions are shown without line marks
DEFINITION_CAP = 200_000
HEADERS = ("Key", "List", "Pages", "Definitions")


def differing_lines(first: list[str], second: list[str]) -> tuple[set[int], set[int]]:
    """The line numbers of each text that the other one lacks (counting repeats). Linear: a sequence
    alignment (difflib) took seconds on the GUI thread for a thousand-line schema, and minutes beyond."""
    return _unmatched(first, second), _unmatched(second, first)


def _unmatched(lines: list[str], other: list[str]) -> set[int]:
    left = Counter(other)
    missing: set[int] = set()
    for number, line in enumerate(lines):
        if left[line] > 0:
            left[line] -= 1
        else:
            missing.add(number)
    return missing


def _mark(view: QPlainTextEdit, lines: set[int], color: QColor) -> None:
    selections = []
    document = view.document()
    for number in sorted(lines):
        block = document.findBlockByNumber(number)
        if not block.isValid():
            continue
        selection = QTextEdit.ExtraSelection()
        selection.cursor = QTextCursor(block)
        selection.format.setBackground(color)
        selection.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
        selections.append(selection)
    view.setExtraSelections(selections)


class DuplicatesPane(QWidget):
    """Empty unless the latest walk was rejected for a duplicate key.

    Attributes:
        view: the table of duplicated keys (`duplicatesView`).
        first, second: the two definitions as the server sent them (`duplicateFirst`, `duplicateSecond`), the lines
            one has and the other lacks marked with the `DIFF` tint of the palette of now (again when it changes).
        changes: their differences, field by field, with JSON pointers (`duplicateChanges`).
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._duplicates: list[Duplicate] = []
        self.summary = QLabel(self)
        self.summary.setObjectName("duplicatesSummary")
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        self.summary.setWordWrap(True)
        self.view = QTableWidget(0, len(HEADERS), self)
        self.view.setObjectName("duplicatesView")
        self.view.setHorizontalHeaderLabels(list(HEADERS))
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        compact_table(self.view, QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.itemSelectionChanged.connect(self._on_view_item_selection_changed)
        self.first = plain_text_view("duplicateFirst", self)
        self.second = plain_text_view("duplicateSecond", self)
        self.changes = plain_text_view("duplicateChanges", self)
        # The two definitions scroll together, so the same lines stay side by side.
        self.first.verticalScrollBar().valueChanged.connect(self.second.verticalScrollBar().setValue)
        self.second.verticalScrollBar().valueChanged.connect(self.first.verticalScrollBar().setValue)
        sides = QSplitter(Qt.Orientation.Horizontal, self)
        sides.addWidget(self.first)
        sides.addWidget(self.second)
        split = QSplitter(Qt.Orientation.Vertical, self)
        split.addWidget(self.view)
        split.addWidget(sides)
        split.addWidget(self.changes)
        split.setSizes([120, 400, 160])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.summary)
        layout.addWidget(split, 1)
        self.show_duplicates([])
        theme.theme().changed.connect(self._on_theme_changed)

    def _on_theme_changed(self) -> None:
        marked = theme.color(theme.DIFF)
        for view in (self.first, self.second):
            selections = view.extraSelections()
            for selection in selections:
                selection.format.setBackground(marked)
            if selections:
                view.setExtraSelections(selections)

    @property
    def duplicates(self) -> list[Duplicate]:
        return self._duplicates

    def show_duplicates(self, duplicates: list[Duplicate]) -> None:
        if duplicates == self._duplicates and duplicates:
            return
        self._duplicates = list(duplicates)
        self.view.setRowCount(len(duplicates))
        for row, duplicate in enumerate(duplicates):
            pages = " and ".join(str(page) for page in duplicate.pages) or "?"
            same = "identical" if duplicate.identical else f"{len(duplicate.changes)} differences"
            cells = (visible(duplicate.key, 300), LIST_KINDS[duplicate.list_name].title, pages, same)
            for column, text in enumerate(cells):
                self.view.setItem(row, column, QTableWidgetItem(text))  # item text is literal, never rich
        if duplicates:
            self.summary.setText(
                "The latest walk was rejected: a key appeared twice. Both definitions, as the server sent them, "
                "with their differing lines marked:"
            )
            self.view.selectRow(0)
        else:
            self.summary.setText("No duplicates: the latest walk was not rejected for a duplicate key.")
            for view in (self.first, self.second, self.changes):
                view.clear()

    def _on_view_item_selection_changed(self) -> None:
        rows = self.view.selectionModel().selectedRows()
        if not rows or not 0 <= rows[0].row() < len(self._duplicates):
            return
        duplicate = self._duplicates[rows[0].row()]
        pages = list(duplicate.pages) + [None, None]
        texts = []
        for view, definition, page in (
            (self.first, duplicate.first, pages[0]),
            (self.second, duplicate.second, pages[1]),
        ):
            text = json.dumps(definition, indent=2, ensure_ascii=False) if definition is not None else "(not recorded)"
            text = visible(text, DEFINITION_CAP, keep_newlines=True)
            where = f"page {page}" if page is not None else "a page"
            view.setPlainText(f"// as sent on {where}\n{text}")
            texts.append(text.split("\n"))
        if max(len(texts[0]), len(texts[1])) <= MARK_LINES:
            left, right = differing_lines(texts[0], texts[1])
            marked = theme.color(theme.DIFF)  # a tint: the editor's own text stays readable on it
            _mark(self.first, {line + 1 for line in left}, marked)  # + 1: the "as sent on" line
            _mark(self.second, {line + 1 for line in right}, marked)
        lines = [
            f"{change.severity.value}: {visible(change.field, 200)} {visible(change.pointer, 300) or '(whole value)'}: "
            f"{visible(value_text(change.old), 300)} → {visible(value_text(change.new), 300)} ({visible(change.reason, 300)})"
            for change in duplicate.changes
        ]
        text = "\n".join(lines) if lines else "The two definitions are identical."
        set_capped_text(self.changes, text, DEFINITION_CAP)
