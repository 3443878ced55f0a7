"""The tool tree's view: a tool's row whose cells are all plain is painted in one call into Python, not five.

A repaint paints every row in view (~25 at the window's size, five columns). Cell by cell, each cell cost a call
from Qt into the delegate and another into the model (~15 µs of the ~30 a plain cell took), on every filter key,
every refresh and every page of a walk. A row that is plain — a tool's, not selected, not current, not under the
mouse, every cell's answer plain (`ToolTreeModel.row_cells`) — is painted here from one answer: its branch
indicator by the view, its texts as `CellDelegate` paints them, pixel for pixel (tested against Qt's own
painting). Any other row, and every row when the view is set up otherwise than this, is Qt's `drawRow`.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect
from PySide6.QtGui import QCursor, QPainter, QPaintEvent
from PySide6.QtWidgets import QStyleOptionViewItem, QTreeView, QWidget

from catalog_inspector.ui.models.tool_tree import ToolTreeModel
from catalog_inspector.ui.widgets.cell_paint import CellDelegate, CellLook, draw_text

__all__ = ["ToolTreeView"]


@dataclass
class _Frame:
    """What every row of one paint shares, worked out once for it."""

    model: ToolTreeModel
    delegate: CellDelegate
    columns: list[tuple[int, int, int]]  # (logical column, x in the viewport, width), left to right
    tree_column: int  # where the branch indicator is
    indent: int  # a tool row's indentation in that column
    current: int  # the current row, when a tool's (else -1)
    hover: int  # the tool row under the mouse (else -1)
    looks: tuple[CellLook, CellLook] | None = None  # regular, bold: from the first row's option


class ToolTreeView(QTreeView):
    """A QTreeView that paints a plain tool row in one call (see the module); `plain_rows` counts them, paint by
    paint (the last paint's)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._frame: _Frame | None = None
        self.plain_rows = 0

    def paintEvent(self, event: QPaintEvent) -> None:
        self._frame = self._frame_now()
        self.plain_rows = 0
        try:
            super().paintEvent(event)
        finally:
            self._frame = None

    def _frame_now(self) -> _Frame | None:
        model, delegate, header = self.model(), self.itemDelegate(), self.header()
        if (
            not isinstance(model, ToolTreeModel)
            or not isinstance(delegate, CellDelegate)
            or self.alternatingRowColors()
            or self.isRightToLeft()
        ):
            return None
        columns: list[tuple[int, int, int]] = []
        for visual in range(header.count()):
            logical = header.logicalIndex(visual)
            if header.isSectionHidden(logical):
                continue
            if self.itemDelegateForColumn(logical) is not None:
                return None
            columns.append((logical, self.columnViewportPosition(logical), header.sectionSize(logical)))
        tree_column = self.treePosition()
        if tree_column < 0:
            tree_column = header.logicalIndex(0)
        indent = self.indentation() if self.rootIsDecorated() else 0
        tree_widths = [width for logical, _x, width in columns if logical == tree_column]
        if indent and (not tree_widths or indent > tree_widths[0]):
            return None  # Qt clips the branches to their column (or finds no column for them): its own painting
        current = self.currentIndex()
        viewport = self.viewport()
        hover = self.indexAt(viewport.mapFromGlobal(QCursor.pos())) if viewport.underMouse() else QModelIndex()
        return _Frame(
            model,
            delegate,
            columns,
            tree_column,
            indent,
            current.row() if current.isValid() and not current.parent().isValid() else -1,
            hover.row() if hover.isValid() and not hover.parent().isValid() else -1,
        )

    def drawRow(
        self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        frame = self._frame
        row = index.row()
        cells = (
            frame.model.row_cells(index) if frame is not None and row != frame.current and row != frame.hover else None
        )
        if cells is None or self.selectionModel().isSelected(index):
            super().drawRow(painter, option, index)
            return
        assert frame is not None
        looks = frame.looks
        if looks is None:
            looks = frame.looks = (frame.delegate.look(option, False), frame.delegate.look(option, True))
        rect = option.rect
        y, h = rect.y(), rect.height()
        mode = option.textElideMode
        color = looks[0].text_color(option.state.value)
        if frame.indent:
            x = next(x for logical, x, _width in frame.columns if logical == frame.tree_column)
            self.drawBranches(painter, QRect(x, y, frame.indent, h), index)
        painter.save()
        painter.setPen(color)
        font_bold: bool | None = None
        for logical, x, width in frame.columns:
            text, right, bold = cells[logical]
            if not text:
                continue
            if logical == frame.tree_column:
                x, width = x + frame.indent, width - frame.indent
            look = looks[bold]
            if bold is not font_bold:
                painter.setFont(look.font)
                font_bold = bold
            draw_text(painter, look, x, y, width, h, text, right, mode)
        painter.restore()
        self.plain_rows += 1
