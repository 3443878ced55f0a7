"""Bars in the page timeline's Latency and Bytes cells: each value on the scale its column shares, so the slow or the
heavy page stands out; the byte cap that stopped a walk as a line across the Bytes bars.

The colours come from the view's palette (a light or a dark one), with alpha: the bars sit behind the cell's text,
which stays as the model says it (screen readers and copies read it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from PySide6.QtCore import QEvent, QModelIndex, QObject, QPersistentModelIndex, QPointF, QRect, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPalette, QPen, QStaticText, QTransform
from PySide6.QtWidgets import QApplication, QStyle, QStyledItemDelegate, QStyleOptionViewItem, QWidget

from catalog_inspector.ui.models.page_series import Bar
from catalog_inspector.ui.models.roles import Role

__all__ = ["BarDelegate", "CellDelegate", "bar_color", "bar_rect", "limit_pen", "limit_x"]

BAR_MARGIN = 3  # pixels between a bar and its cell's top and bottom edges
ALPHA = {"latency": 110, "bytes": 55}  # of 255: behind text, a bar must not drown it
SELECTED_ALPHA = 90
# State bits as plain integers: a flag operation in Python costs microseconds, and every cell in view asks.
SELECTED = QStyle.StateFlag.State_Selected.value
STYLED = SELECTED | QStyle.StateFlag.State_HasFocus.value  # cells the style paints (a highlight, a focus frame)
ENABLED, ACTIVE = QStyle.StateFlag.State_Enabled.value, QStyle.StateFlag.State_Active.value
TEXTS = 4096  # texts a delegate keeps laid out
# What makes a view's cells look otherwise: its font, palette, style or direction set anew (the app's too).
_LOOK_EVENTS = frozenset(
    {QEvent.Type.FontChange, QEvent.Type.PaletteChange, QEvent.Type.StyleChange, QEvent.Type.LayoutDirectionChange}
)


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


@dataclass
class _Look:
    """What a plain cell's paint needs from its font, palette and style, worked out once for them (the calls into
    Qt that give them cost microseconds, and a repaint paints every cell in view)."""

    font: QFont
    palette_key: int
    style: QStyle
    margin: int  # the room the style leaves each side of an item's text (PM_FocusFrameHMargin + 1, as it does)
    metrics: QFontMetricsF
    height: int  # a line of text, as high as QTextLine says (its ascent and descent, rounded up)
    bar: QColor
    text: tuple[QColor, QColor, QColor]  # the text's colour when disabled, active, inactive
    left_to_right: bool  # a right-to-left view's cells are the style's to paint
    texts: dict[str, tuple[QStaticText, float]] = field(default_factory=dict)  # text → laid out once, its width
    fits: dict[tuple[str, int, int], tuple[QStaticText, float]] = field(default_factory=dict)  # … in so much room

    def text_of(self, text: str) -> tuple[QStaticText, float]:
        """`text` laid out in this font (a static text draws without shaping again), and its width."""
        found = self.texts.get(text)
        if found is None:
            if len(self.texts) > TEXTS:
                self.texts.clear()
            static = QStaticText(text)
            static.setTextFormat(Qt.TextFormat.PlainText)
            static.prepare(QTransform(), self.font)
            found = self.texts[text] = (static, self.metrics.horizontalAdvance(text))
        return found

    def fitted(self, text: str, room: int, mode: Qt.TextElideMode) -> tuple[QStaticText, float]:
        """`text_of(text)`, elided in `mode` to `room` pixels when it is wider (a cursor: on every repaint)."""
        key = (text, room, mode.value)
        found = self.fits.get(key)
        if found is None:
            if len(self.fits) > TEXTS:
                self.fits.clear()
            found = self.text_of(text)
            if found[1] > room:
                found = self.text_of(self.metrics.elidedText(text, mode, room))
            self.fits[key] = found
        return found


class CellDelegate(QStyledItemDelegate):
    """Paints a plain timeline cell (no background, regular font, neither selected nor focused: nearly all of them)
    from one answer of the model (Role.CELL), its text where and as the style draws an item's text, pixel for pixel.

    Every cell in view is painted on every repaint, and a cell costs Qt a call into the model per role it asks for
    (six or seven) and the style's own layout of its text: a full repaint of the timeline took ~12 ms, most of a
    frame. Any other cell is painted by the style, as before.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._looks: _Look | None = None
        if parent is not None:  # its font, palette, style or direction changing makes the look anew
            parent.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in _LOOK_EVENTS:
            self._looks = None
        return False

    def _bar_color(self, palette: QPalette) -> QColor:
        return QColor(0, 0, 0, 0)

    def _look(self, option: QStyleOptionViewItem) -> _Look:
        look = self._looks
        if look is not None and option.widget is self.parent():  # asked for every cell: the view's own look
            return look
        font, palette, widget = option.font, option.palette, option.widget
        style = widget.style() if widget is not None else QApplication.style()
        if look is None or look.font != font or look.palette_key != palette.cacheKey() or look.style is not style:
            metrics = QFontMetricsF(font)
            disabled, active, inactive = (
                QColor(palette.color(group, QPalette.ColorRole.Text))
                for group in (QPalette.ColorGroup.Disabled, QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive)
            )
            look = self._looks = _Look(
                font=QFont(font),
                palette_key=palette.cacheKey(),
                style=style,
                margin=style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, widget) + 1,
                metrics=metrics,
                height=math.ceil(metrics.ascent() + metrics.descent()),
                bar=self._bar_color(palette),
                text=(disabled, active, inactive),
                left_to_right=option.direction == Qt.LayoutDirection.LeftToRight,
            )
        return look

    def paint(
        self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        cell = index.data(Role.CELL)
        state = option.state.value
        look = self._look(option)
        if cell is None or state & STYLED or not look.left_to_right:
            super().paint(painter, option, index)
            return
        text, right = cell
        self._paint_text(painter, option, look, text, right, state)

    def _paint_text(
        self, painter: QPainter, option: QStyleOptionViewItem, look: _Look, text: str, right: bool, state: int
    ) -> None:
        """One line of text, left- or right-aligned, elided as the view elides."""
        cell = option.rect
        x, y, w, h = cell.x(), cell.y(), cell.width(), cell.height()
        static, width = look.fitted(text, w - 2 * look.margin, option.textElideMode)
        # Where QCommonStyle puts an item's text (pixel for pixel, tested): the line centred in whole pixels, the
        # text at the margin, or right-aligned to a fraction of a pixel, as its layout places it.
        color = look.text[0 if not state & ENABLED else 1 if state & ACTIVE else 2]
        painter.save()
        painter.setFont(look.font)
        painter.setPen(color)
        left = x + w - look.margin - width if right else x + look.margin
        painter.drawStaticText(QPointF(left, y + (h - look.height) // 2), static)
        painter.restore()


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
        if bar.plain and not state & STYLED and self._look(option).left_to_right:
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
        look = self._look(option)
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
