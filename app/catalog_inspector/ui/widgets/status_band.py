"""The band under the header: the status banner when there is something to say, else the shown catalog's verdict.

The band keeps its height whether the banner is up or not, so a banner that comes (a refresh that found drift, a
walk that failed) or goes does not move the tabs below: moving them repaints the whole of the Tools tab, its tree,
timeline and scroll bars, in the same event as the report that brought the banner (the refresh stall's largest
part; `make bench`).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QSize
from PySide6.QtWidgets import QFrame, QHBoxLayout, QSizePolicy, QVBoxLayout, QWidget

from catalog_inspector.ui.widgets.labels import ElidedLabel
from catalog_inspector.ui.widgets.status_banner import StatusBanner

__all__ = ["StatusBand"]

_TOGGLES = frozenset({QEvent.Type.ShowToParent, QEvent.Type.HideToParent})


class StatusBand(QWidget):
    """The room of a two-line banner, kept: the banner (`statusBanner`) when it is up, else the verdict.

    The verdict (`statusVerdict`, a frame in the window's own colours) says what is known of the catalog shown:
    the drift report's headline (`statusVerdictText`: nothing changed, what changed, or a first catalog) and the
    approval's summary (`statusVerdictDetail`), or that a walk is under way. Both lines are plain text, cut to
    the band's width, the whole line in their tooltips. A banner taller than two lines (a sign-in's link and
    buttons, a message opened whole) makes the band taller while it is up.
    """

    def __init__(self, banner: StatusBanner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("statusBand")
        self.banner = banner
        self.verdict = QFrame(self)
        self.verdict.setObjectName("statusVerdict")
        self.verdict.setFrameShape(QFrame.Shape.StyledPanel)
        # Its height is the band's (`sizeHint`); a window made very small may take it (as it takes a banner's).
        self.verdict.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Ignored)
        self.text = ElidedLabel("statusVerdictText", self.verdict)
        self.detail = ElidedLabel("statusVerdictDetail", self.verdict)
        lines = QVBoxLayout()
        lines.setSpacing(2)  # as the banner's lines
        for line in (self.text, self.detail):
            lines.addWidget(line)  # one line high even when empty (`ElidedLabel`)
        row = QHBoxLayout(self.verdict)
        row.addLayout(lines, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(banner)
        layout.addWidget(self.verdict)
        banner.installEventFilter(self)
        self.verdict.setVisible(banner.isHidden())

    def set_verdict(self, text: str, detail: str = "") -> None:
        """What the verdict says while no banner is up (each line plain text, cut to the width)."""
        self.text.setText(text)
        self.detail.setText(detail)

    def sizeHint(self) -> QSize:
        # As high as a banner of two lines (its title and a detail) with its buttons, whether one is up or not.
        hint = super().sizeHint()
        return QSize(hint.width(), max(hint.height(), self.verdict.sizeHint().height(), self.banner.collapsed_height()))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.banner and event.type() in _TOGGLES:
            self.verdict.setVisible(self.banner.isHidden())
        return False
