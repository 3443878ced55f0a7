"""A tab widget that lays its tab bar out again without repainting the page shown, when the page does not move.

QTabWidget answers every layout request (a tab's title set, even to the same text; a page's minimum size
changed, as when a table's scroll bar comes or goes) by setting its tab bar's and its page's geometry again and
repainting itself whole, and with itself every widget of the page shown that does not fill its own background:
the page, its splitters and labels, every scroll bar (about a millisecond each in Fusion). In the main window
that is several milliseconds of the event that brought a refresh's report (the Drift tab gains its ⚠) and of
some of a walk's pages. When the page keeps its place and the tab bar its height, only the tab bar's strip needs
laying out and painting again.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QRect
from PySide6.QtWidgets import QStackedWidget, QStyle, QStyleOptionTabWidgetFrame, QTabWidget, QWidget

__all__ = ["StillTabs"]


class StillTabs(QTabWidget):
    """A QTabWidget whose layout requests leave the page shown unpainted when its place does not change.

    Anything else (the page moved or resized, the tab bar higher or lower, a corner widget, tabs not on top)
    goes to QTabWidget as before.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._stack = self.findChild(QStackedWidget, "qt_tabwidget_stackedwidget")

    def setTabText(self, index: int, text: str) -> None:
        # QTabWidget's own lays itself out at once, and repaints whole: the bar's asks for a layout (`event`).
        self.tabBar().setTabText(index, text)

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.LayoutRequest and self._lay_out_the_bar_alone():
            return QWidget.event(self, event)
        return super().event(event)

    def _lay_out_the_bar_alone(self) -> bool:
        """Lay the tab bar out where QTabWidget would, and repaint its strip, if that is all that changes."""
        bar = self.tabBar()
        if (
            not self.isVisible()
            or self._stack is None
            or self.tabPosition() is not QTabWidget.TabPosition.North
            or self.cornerWidget() is not None
        ):
            return False
        option = QStyleOptionTabWidgetFrame()
        self.initStyleOption(option)
        style = self.style()
        bar_rect = style.subElementRect(QStyle.SubElement.SE_TabWidgetTabBar, option, self)
        contents = style.subElementRect(QStyle.SubElement.SE_TabWidgetTabContents, option, self)
        if contents != self._stack.geometry() or bar_rect.height() != bar.height() or bar_rect.y() != bar.y():
            return False
        if bar_rect != bar.geometry():
            old = bar.geometry()
            bar.setGeometry(bar_rect)
            # The strip the bar stands in, down to the frame's edge under it (the style draws it across the bar).
            strip = old.united(bar_rect)
            self.update(
                QRect(
                    0,
                    0,
                    self.width(),
                    strip.bottom() + 1 + style.pixelMetric(QStyle.PixelMetric.PM_DefaultFrameWidth, None, self),
                )
            )
        self.updateGeometry()  # as QTabWidget does: its own size hint may have changed with its tabs or page
        return True
