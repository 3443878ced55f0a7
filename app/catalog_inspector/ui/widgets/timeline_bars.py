"""Bars in the page timeline's Latency and Bytes cells: each value on the scale its column shares, so the slow or the
heavy page stands out; the byte cap that stopped a walk as a line across the Bytes bars.

The colours come from the view's palette (a light or a dark one), with alpha: the bars sit behind the cell's text,
which stays as the model says it (screen readers and copies read it).
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QPointF, QRect, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPalette, QPen
from PySide6.QtWidgets import QApplication, QStyle, QStyledItemDelegate, QStyleOptionViewItem, QWidget

from catalog_inspector.ui.models.page_series import Bar
from catalog_inspector.ui.models.roles import Role
from catalog_inspector.ui.widgets.cell_paint import SELECTED, STYLED, CellDelegate

__all__ = ["BarDelegate", "CellDelegate", "bar_color", "bar_rect", "limit_pen", "limit_x"]

BAR_MARGIN = 3  # pixels between a bar and its cell's top and bottom edges
ALPHA = {"latency": 110, "bytes": 55}  # of 255: behind text, a bar must not drown it
SELECTED_ALPHA = 90


def bar_rect(cell: QRect | QRectF, share: float) -> QRectF:
    """The bar of a value at `share` (0 to 1) of its column's scale: from the cell's left edge, that share of its
    width (a pixel at least for any value above 0); empty for 0."""
    if share <= 0:
        return QRectF()
    inner = QRectF(cell).adjusted(1, BAR_MARGIN, -1, -BAR_MARGIN)
    return QRectF(inner.left(), inner.top(), max(1.0, inner.width() * min(share, 1.0)), inner.height())


def limit_x(cell: QRect | QRectF, share: float) -> float:
    """Where a budget at `share` of the column's scale stands in `cell` (on the same scale as `bar_rect`)."""
    inner = QRectF(cell).adjusted(1, 0, -1, 0)
    return inner.left() + inner.width() * min(max(share, 0.0), 1.0)


def bar_color(palette: QPalette, kind: str, selected: bool = False, alpha: int | None = None) -> QColor:
    """A bar's colour from the palette: latency in the highlight colour, bytes in the text colour (both see-through);
    on a selected cell, the highlighted text's colour."""
    if selected:
        color = QColor(palette.color(QPalette.ColorRole.HighlightedText))
        color.setAlpha(SELECTED_ALPHA)
        return color
    role = QPalette.ColorRole.Highlight if kind == "latency" else QPalette.ColorRole.Text
    color = QColor(palette.color(role))
    color.setAlpha(ALPHA[kind] if alpha is None else alpha)
    return color


def limit_pen(palette: QPalette, width: float = 1.0) -> QPen:
    """The budget line's pen: the text colour, dashed, so it reads on any background and beside any bar."""
    pen = QPen(palette.color(QPalette.ColorRole.Text), width, Qt.PenStyle.DashLine)
    pen.setDashPattern([3.0, 2.0])
    return pen


class BarDelegate(CellDelegate):
    """Paints a Latency or Bytes cell as a bar behind its text, and the byte cap's line (Role.BAR).

    A plain cell is painted from one answer, its bar then its text (`CellDelegate`). Any other cell is painted by
    the style, with its background first, then the bar, then the rest of the cell; a selected cell's bar comes
    last, in the highlighted text's colour.
    """

    def __init__(self, kind: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.kind = kind  # "latency" or "bytes": which colour
        self._colors: dict[tuple[int, bool], QColor] = {}  # (the palette's cache key, selected) → the bar's colour

    def _color(self, palette: QPalette, selected: bool) -> QColor:
        key = (palette.cacheKey(), selected)
        color = self._colors.get(key)
        if color is None:
            if len(self._colors) > 8:  # palettes change rarely (a theme switch): keep the few in use
                self._colors.clear()
            color = self._colors[key] = bar_color(palette, self.kind, selected)
        return color

    def _bar_color(self, palette: QPalette) -> QColor:
        return self._color(palette, False)

    def paint(
        self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        bar = index.data(Role.BAR)
        if not isinstance(bar, Bar):
            QStyledItemDelegate.paint(self, painter, option, index)
            return
        cell, state = option.rect, option.state.value
        if bar.plain and not state & STYLED and self.look(option).left_to_right:
            self._paint_plain(painter, option, bar, state)
        else:
            self._paint_styled(painter, option, index, bar_rect(cell, bar.share), bool(state & SELECTED))
        if bar.limit is not None:
            x = limit_x(cell, bar.limit)
            painter.save()
            painter.setPen(limit_pen(option.palette))
            painter.drawLine(QPointF(x, cell.top()), QPointF(x, cell.bottom()))
            painter.restore()

    def _paint_plain(self, painter: QPainter, option: QStyleOptionViewItem, bar: Bar, state: int) -> None:
        """The bar, then the text: one line, right-aligned, elided as the view elides."""
        look = self.look(option)
        cell = option.rect
        x, y, w, h = cell.x(), cell.y(), cell.width(), cell.height()
        if bar.share > 0:
            length = max(1, round((w - 2) * min(bar.share, 1.0)))  # as `bar_rect`, in whole pixels
            painter.fillRect(x + 1, y + BAR_MARGIN, length, h - 2 * BAR_MARGIN, look.bar)
        self._paint_text(painter, option, look, bar.text, True, state)

    def _paint_styled(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
        bar: QRectF,
        selected: bool,
    ) -> None:
        item = QStyleOptionViewItem(option)
        self.initStyleOption(item, index)
        widget = item.widget
        style = widget.style() if widget is not None else QApplication.style()
        background = item.backgroundBrush
        if background.style() != Qt.BrushStyle.NoBrush:
            painter.fillRect(item.rect, background)
            item.backgroundBrush = QBrush()
        if not selected and not bar.isEmpty():
            painter.fillRect(bar, self._color(item.palette, False))
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, item, painter, widget)
        if selected and not bar.isEmpty():
            painter.fillRect(bar, self._color(item.palette, True))
