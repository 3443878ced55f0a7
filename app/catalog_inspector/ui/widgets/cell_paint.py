"""Plain cells painted from one answer of the model (Role.CELL), where and as the style paints an item's text.

Every cell in view is painted on every repaint, and through Qt's own delegate a cell costs a call into the
(Python) model for each role it asks (six or seven) and the style's own layout of its text. A plain cell —
no background, no colour of its own, neither selected, focused nor hovered: nearly all of them — is one
answer here, its text laid out once and drawn as a static text. Any other cell is the style's to paint.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from PySide6.QtCore import QEvent, QModelIndex, QObject, QPersistentModelIndex, QPointF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPalette, QStaticText, QTransform
from PySide6.QtWidgets import (
    QApplication,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

from catalog_inspector.ui.models.roles import Role
from catalog_inspector.ui.widgets.tables import OneLineDelegate

__all__ = ["ACTIVE", "ENABLED", "SELECTED", "STYLED", "CellDelegate", "CellLook", "OneLineCellDelegate", "draw_text"]

# State bits as plain integers: a flag operation in Python costs microseconds, and every cell in view asks.
SELECTED = QStyle.StateFlag.State_Selected.value
# Cells the style paints: a highlight, a focus frame, and a hover (some platform styles tint it).
STYLED = SELECTED | QStyle.StateFlag.State_HasFocus.value | QStyle.StateFlag.State_MouseOver.value
ENABLED, ACTIVE = QStyle.StateFlag.State_Enabled.value, QStyle.StateFlag.State_Active.value
TEXTS = 4096  # texts a delegate keeps laid out
# What makes a view's cells look otherwise: its font, palette, style or direction set anew (the app's too).
_LOOK_EVENTS = frozenset(
    {QEvent.Type.FontChange, QEvent.Type.PaletteChange, QEvent.Type.StyleChange, QEvent.Type.LayoutDirectionChange}
)


@dataclass
class CellLook:
    """What a plain cell's paint needs from its font, palette and style, worked out once for them (the calls into
    Qt that give them cost microseconds, and a repaint paints every cell in view)."""

    base_key: str  # the view's font's key (the font below is that font, or it in bold)
    font: QFont
    palette_key: int
    style: QStyle
    margin: int  # the room the style leaves each side of an item's text (PM_FocusFrameHMargin + 1, as it does)
    metrics: QFontMetricsF
    height: int  # a line of text, as high as QTextLine says (its ascent and descent, rounded up)
    bar: QColor
    text: tuple[QColor, QColor, QColor]  # the text's colour when disabled, active, inactive
    left_to_right: bool  # a right-to-left view's cells are the style's to paint
    widest: float  # the font's widest character: a text that short fits wherever this many of them do
    average: float  # the font's average character: a text that short likely fits
    fits: dict[tuple[str, int, int], tuple[QStaticText, float]] = field(default_factory=dict)  # laid out, its width

    def text_color(self, state: int) -> QColor:
        """The text's colour for a cell in `state` (QStyle.StateFlag bits): disabled, active or inactive."""
        return self.text[0 if not state & ENABLED else 1 if state & ACTIVE else 2]

    def fitted(self, text: str, room: int, mode: Qt.TextElideMode) -> tuple[QStaticText, float]:
        """`text` laid out in this font, elided in `mode` to `room` pixels when it is wider, and its width.

        A text seen before in that room is drawn as laid out then (a static text draws without shaping again). A
        new one (a filter's rows, a refresh's) that likely fits is laid out first and elided only when it is wider
        after all; any other is shaped twice, as the style would: to elide it, to lay it out. A static text is never
        narrower than the width eliding goes by (its size is rounded up), so one that fits is one Qt would not cut.
        """
        key = (text, room, mode.value)
        found = self.fits.get(key)
        if found is None:
            if len(self.fits) > TEXTS:
                self.fits.clear()
            found = self.fits[key] = self._fit(text, room, mode)
        return found

    def _fit(self, text: str, room: int, mode: Qt.TextElideMode) -> tuple[QStaticText, float]:
        if len(text) * self.widest <= room:
            return self._laid_out(text)
        if len(text) * self.average <= room:
            laid = self._laid_out(text)
            if laid[1] <= room:
                return laid
        return self._laid_out(self.metrics.elidedText(text, mode, room))

    def _laid_out(self, text: str) -> tuple[QStaticText, float]:
        static = QStaticText(text)
        static.setTextFormat(Qt.TextFormat.PlainText)
        static.prepare(QTransform(), self.font)
        return static, static.size().width()


class CellDelegate(QStyledItemDelegate):
    """Paints a plain cell from one answer of the model, Role.CELL: (text, right-aligned, bold), or None for a
    cell the style paints; its text where and as the style draws an item's text, pixel for pixel (tested)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._looks: list[CellLook | None] = [None, None]  # regular, bold
        if parent is not None:  # its font, palette, style or direction changing makes the looks anew
            parent.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in _LOOK_EVENTS:
            self._looks = [None, None]
        return False

    def _bar_color(self, palette: QPalette) -> QColor:
        return QColor(0, 0, 0, 0)

    def look(self, option: QStyleOptionViewItem, bold: bool = False) -> CellLook:
        """What a plain cell's paint needs of the view's font (in bold or not), palette and style, kept."""
        look = self._looks[bold]
        if look is not None and option.widget is self.parent():  # asked for every cell: the view's own look
            return look
        font, palette, widget = option.font, option.palette, option.widget
        style = widget.style() if widget is not None else QApplication.style()
        if (
            look is None
            or look.base_key != font.key()
            or look.palette_key != palette.cacheKey()
            or look.style is not style
        ):
            drawn = QFont(font)
            if bold:
                drawn.setBold(True)
            metrics = QFontMetricsF(drawn)
            disabled, active, inactive = (
                QColor(palette.color(group, QPalette.ColorRole.Text))
                for group in (QPalette.ColorGroup.Disabled, QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive)
            )
            look = CellLook(
                base_key=font.key(),
                font=drawn,
                palette_key=palette.cacheKey(),
                style=style,
                margin=style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, widget) + 1,
                metrics=metrics,
                height=math.ceil(metrics.ascent() + metrics.descent()),
                bar=self._bar_color(palette),
                text=(disabled, active, inactive),
                left_to_right=option.direction == Qt.LayoutDirection.LeftToRight,
                widest=metrics.maxWidth(),
                average=metrics.averageCharWidth(),
            )
            self._looks[bold] = look
        return look

    def paint(
        self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        cell = index.data(Role.CELL)
        state = option.state.value
        if cell is None or state & STYLED:
            super().paint(painter, option, index)
            return
        text, right, bold = cell
        look = self.look(option, bold)
        if not look.left_to_right:
            super().paint(painter, option, index)
            return
        if text:
            self._paint_text(painter, option, look, text, right, state)

    def _paint_text(
        self, painter: QPainter, option: QStyleOptionViewItem, look: CellLook, text: str, right: bool, state: int
    ) -> None:
        """One line of text, left- or right-aligned, elided as the view elides."""
        cell = option.rect
        painter.save()
        painter.setFont(look.font)
        painter.setPen(look.text_color(state))
        draw_text(painter, look, cell.x(), cell.y(), cell.width(), cell.height(), text, right, option.textElideMode)
        painter.restore()


def draw_text(
    painter: QPainter, look: CellLook, x: int, y: int, w: int, h: int, text: str, right: bool, mode: Qt.TextElideMode
) -> None:
    """A plain cell's one line of text in the cell at (x, y, w, h), in the painter's font and pen (`look`'s).

    Where QCommonStyle puts an item's text (pixel for pixel, tested): the line centred in whole pixels, the text at
    the margin, or right-aligned to a fraction of a pixel, as its layout places it; elided in `mode` to the room.
    """
    static, width = look.fitted(text, w - 2 * look.margin, mode)
    left = x + w - look.margin - width if right else x + look.margin
    painter.drawStaticText(QPointF(left, y + (h - look.height) // 2), static)


class OneLineCellDelegate(CellDelegate, OneLineDelegate):
    """A `CellDelegate` whose rows all have one height, `OneLineDelegate`'s (the tool tree's: nearly all of its
    cells are plain, one answer each; a tool's name is bold)."""
