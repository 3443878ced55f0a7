"""The one way this app makes a label that may show server text: plain text, never rich."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt, Signal
from PySide6.QtGui import QPainter, QPaintEvent, QResizeEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

from catalog_inspector.ui.models.roles import tooltip

__all__ = ["ElidedLabel", "plain_label"]

LINE_LIMIT = 2000  # characters measured for the size hint: wider than any screen already


def plain_label(object_name: str, parent: QWidget, wrap: bool = True) -> QLabel:
    """A plain-text label that wraps (or not) and never widens the window for long text."""
    label = QLabel(parent)
    label.setObjectName(object_name)
    label.setTextFormat(Qt.TextFormat.PlainText)  # server text is never rich text
    label.setWordWrap(wrap)
    label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
    return label


class ElidedLabel(QLabel):
    """One line of plain text cut to the width it is given, with the whole text as its tooltip when cut.

    `text()` stays the whole text (what accessibility, copying and tests read); only
    the painting is cut, with `QFontMetrics.elidedText`, again on every resize and
    font change. Line breaks are shown as spaces. The label never asks for more
    width than it gets, so a long text cannot widen the window or push buttons away.
    Set the text with `setText` from Python (Qt's own C++ calls would bypass the cut),
    and leave the tooltip to the label (`own_tooltip`): it is the whole text while the text is cut.

    Attributes:
        elided: whether the text shown is cut.

    Signals:
        elision_changed(bool): `elided` changed (the owner may offer the whole text elsewhere).
    """

    elision_changed = Signal(bool)

    def __init__(
        self,
        object_name: str,
        parent: QWidget | None = None,
        mode: Qt.TextElideMode = Qt.TextElideMode.ElideRight,
        own_tooltip: bool = True,
    ) -> None:
        super().__init__(parent)
        self._own_tooltip = own_tooltip  # False: the owner shows the whole text its own way
        self.setObjectName(object_name)
        self.setTextFormat(Qt.TextFormat.PlainText)  # server text is never rich text
        self.setWordWrap(False)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self._mode = mode
        self._line = ""  # the whole text on one line
        self._shown = ""  # what fits
        self._tip = ""  # the whole text as a tooltip: bounded, escaped (tooltips render rich text)
        self._wide = 0  # the width the whole line would take
        self.elided = False

    def setText(self, text: str) -> None:
        if text == self.text():  # measured, cut and laid out for it already (font changes: `changeEvent`)
            return
        super().setText(text)
        self._line = " ".join(text.splitlines())
        self._tip = tooltip(text) if text and self._own_tooltip else ""
        self._wide = self.fontMetrics().horizontalAdvance(self._line[:LINE_LIMIT])
        self.updateGeometry()
        self._elide(force=True)

    def shown_text(self) -> str:
        """The text as painted: cut to the width, with `…` where it was cut."""
        return self._shown

    def sizeHint(self) -> QSize:
        # One line high, whatever the text holds; as wide as the whole line (the layout may give less).
        margins = self.contentsMargins()
        extra = 2 * self.margin()
        height = self.fontMetrics().height() + margins.top() + margins.bottom() + extra
        return QSize(self._wide + margins.left() + margins.right() + extra, height)

    def minimumSizeHint(self) -> QSize:
        return QSize(0, self.sizeHint().height())

    def _elide(self, force: bool = False) -> None:
        width = max(0, self.contentsRect().width() - 2 * self.margin())
        shown = self.fontMetrics().elidedText(self._line, self._mode, width)
        if shown == self._shown and not force:
            return
        self._shown = shown
        elided = shown != self._line
        if self._own_tooltip:
            self.setToolTip(self._tip if elided else "")  # a tooltip only when something is hidden
        if elided != self.elided:
            self.elided = elided
            self.elision_changed.emit(elided)
        self.update()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._elide()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._wide = self.fontMetrics().horizontalAdvance(self._line[:LINE_LIMIT])
            self.updateGeometry()
            self._elide(force=True)

    def paintEvent(self, event: QPaintEvent) -> None:
        # The style draws the text as a QLabel would: the palette's colours for the enabled state.
        painter = QPainter(self)
        self.drawFrame(painter)
        rect = self.contentsRect().adjusted(self.margin(), self.margin(), -self.margin(), -self.margin())
        flags = int(self.alignment() | Qt.TextFlag.TextSingleLine)
        self.style().drawItemText(
            painter, rect, flags, self.palette(), self.isEnabled(), self._shown, self.foregroundRole()
        )
        painter.end()
