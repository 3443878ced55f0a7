"""The one way this app sets up a table or tree view of server data: one-line rows, columns sized to what they hold."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QPoint, QSize
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QTreeView,
)

__all__ = [
    "COLUMN_MAX",
    "FIT_ROWS",
    "KEY_ROOM",
    "LAST_ROOM",
    "TREE_MINIMUM",
    "OneLineDelegate",
    "compact_table",
    "fit_columns",
    "fit_tree_columns",
    "widen_tree_columns",
]

ROW_MARGIN = 6  # pixels above and below a line of text, together
FIT_ROWS = 50  # rows measured when a column is fitted to its content (~45 µs a cell): bounded work whatever the size
COLUMN_MAX = 360  # a fitted column grows no wider (the cell elides; its tooltip and the detail have the rest)
KEY_ROOM = 320  # a tree key's room beyond its indentation: a key reads whole at any depth
LAST_ROOM = 160  # a fitted tree leaves its last column (the description) this much of the view
TREE_MINIMUM = (170, 130)  # a fitted tree's key and value columns are never narrower


class OneLineDelegate(QStyledItemDelegate):
    """QStyledItemDelegate whose rows all have one height: a line of the view's font, bold or not, plus a margin.

    Qt otherwise sizes a row by its cells (a bold name, a fallback font for one glyph,
    a cell with a line break), and a tree with uniform row heights takes them all from
    whichever row comes first. Here the height never depends on the data. Painting is
    QStyledItemDelegate's own (not overridden: it stays in C++).
    """

    def __init__(self, view: QAbstractItemView) -> None:
        super().__init__(view)
        self._view = view
        self._font_key = ""
        self._height = 0

    def row_height(self) -> int:
        font = self._view.font()
        if font.key() != self._font_key:
            bold = QFont(font)
            bold.setBold(True)
            self._height = max(QFontMetrics(font).height(), QFontMetrics(bold).height()) + ROW_MARGIN
            self._font_key = font.key()
        return self._height

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        size = super().sizeHint(option, index)
        size.setHeight(self.row_height())
        return size


def compact_table(view: QTableView, selection: QAbstractItemView.SelectionBehavior) -> QTableView:
    """One line per row: no word wrap (a hyphen in a cursor would hide the rest of it), tight rows of one height."""
    view.setSelectionBehavior(selection)
    view.setWordWrap(False)
    rows = view.verticalHeader()
    rows.setVisible(False)
    rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    rows.setDefaultSectionSize(view.fontMetrics().height() + ROW_MARGIN)
    rows.setResizeContentsPrecision(FIT_ROWS)  # what fit_columns measures
    view.horizontalHeader().setStretchLastSection(True)
    view.setTabKeyNavigation(False)  # Tab leaves the table (arrows move in it): 1,000 pages are not 10,000 Tabs
    return view


def fit_columns(view: QTableView, widest: int = COLUMN_MAX) -> None:
    """Size each column but the last (it stretches) to its content, at most `widest` pixels.

    Qt measures the rows in view and around them, FIT_ROWS at most (`compact_table` sets
    the precision): bounded work, whatever the table's size.
    """
    header = view.horizontalHeader()
    for column in range(header.count() - 1):
        view.resizeColumnToContents(column)
        if header.sectionSize(column) > widest:
            header.resizeSection(column, widest)


def _depth(index: QModelIndex) -> int:
    depth = 0
    ancestor = index.parent()
    while ancestor.isValid():
        depth += 1
        ancestor = ancestor.parent()
    return depth


def _needed(tree: QTreeView, rows: list[QModelIndex]) -> tuple[int, int]:
    """The widths the key and value columns need for `rows`: a key's indentation plus the key (KEY_ROOM at
    most, so a key never vanishes behind its indentation however deep); a value (COLUMN_MAX at most)."""
    root = 1 if tree.rootIsDecorated() else 0
    key = value = 0
    for index in rows:
        indent = tree.indentation() * (_depth(index) + root)
        key = max(key, indent + min(tree.sizeHintForIndex(index).width(), KEY_ROOM))
        value = max(value, min(tree.sizeHintForIndex(index.siblingAtColumn(1)).width(), COLUMN_MAX))
    return key, value


def _value_room(tree: QTreeView, key_width: int) -> int:
    """The most the value column may take and leave the last column LAST_ROOM in view."""
    middle = sum(tree.columnWidth(column) for column in range(2, tree.header().count() - 1))
    return tree.viewport().width() - key_width - middle - LAST_ROOM


def _set(tree: QTreeView, key: int, value: int, grow_only: bool, room: bool, minimum: tuple[int, int]) -> None:
    if grow_only:
        key, value = max(key, tree.columnWidth(0)), max(value, tree.columnWidth(1))
    key = max(key, minimum[0])
    if room:  # the value column stops where the last column would leave the view (but never below its minimum)
        value = min(value, max(_value_room(tree, key), tree.columnWidth(1) if grow_only else 0))
    value = max(value, minimum[1])
    if key != tree.columnWidth(0):
        tree.setColumnWidth(0, key)
    if value != tree.columnWidth(1):
        tree.setColumnWidth(1, value)


def widen_tree_columns(tree: QTreeView, parent: QModelIndex, minimum: tuple[int, int] = TREE_MINIMUM) -> None:
    """Widen a key/value tree's first two columns so the children of `parent` (just expanded) read whole.

    Columns only widen: a column the user made wider stays so. Inside a schema its values
    matter more than the last column (the tools' descriptions): the view scrolls sideways.
    At most FIT_ROWS children are measured (an object may have thousands of keys):
    bounded work per expansion.
    """
    model = tree.model()
    rows = [model.index(row, 0, parent) for row in range(min(model.rowCount(parent), FIT_ROWS))]
    if rows:
        _set(tree, *_needed(tree, rows), grow_only=True, room=False, minimum=minimum)


def fit_tree_columns(tree: QTreeView, grow_only: bool, minimum: tuple[int, int] = TREE_MINIMUM) -> None:
    """Size a key/value tree's first two columns to the rows in view (FIT_ROWS at most), no narrower than
    `minimum`; with `grow_only`, never narrower than they are. The value column stops where the last
    column would leave the view."""
    rows: list[QModelIndex] = []
    bottom = tree.viewport().height()
    index = tree.indexAt(QPoint(0, 0))
    while index.isValid() and len(rows) < FIT_ROWS and tree.visualRect(index).top() < bottom:
        rows.append(index)
        index = tree.indexBelow(index)
    if rows:
        _set(tree, *_needed(tree, rows), grow_only=grow_only, room=True, minimum=minimum)
