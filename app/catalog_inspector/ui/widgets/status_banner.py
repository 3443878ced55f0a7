"""The status banner: what went wrong, in words, with one button (Retry, Refresh, Reconnect)."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget

from catalog_inspector.ui.presenter import Banner

__all__ = ["StatusBanner"]

COLORS = {"failure": "#fdecea", "lost": "#fdecea", "stale": "#fff8e1", "drift": "#e8f0fe", "consent": "#fff8e1", "entry": "#fdecea"}


class StatusBanner(QFrame):
    """Hidden unless there is something to say about the selected server.

    Attributes:
        kind: the ErrorKind behind what is shown (None for a stale notice or nothing).
        state: the banner's kind (`none`, `failure`, `stale`, `lost`, `drift`).

    Signals:
        retry_clicked(): the user pressed the button: one fresh walk from the first page, or, for
            `drift`, show the drift.
    """

    retry_clicked = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("statusBanner")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.label = QLabel(self)
        self.label.setObjectName("statusBannerText")
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.retry = QPushButton("Retry", self)
        self.retry.setObjectName("retryButton")
        self.retry.setToolTip("Start one fresh walk from the first page")
        self.retry.clicked.connect(self.retry_clicked)
        layout = QHBoxLayout(self)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.retry, 0, Qt.AlignmentFlag.AlignTop)
        self.kind: str | None = None
        self.state = "none"  # the Banner's kind: what the button means
        self.hide()

    def show_banner(self, banner: Banner) -> None:
        """Show what the presenter says (or hide, for `none`)."""
        self.kind = banner.error_kind
        self.state = banner.kind
        if banner.kind == "none":
            self.label.clear()
            self.hide()
            return
        self.label.setText(banner.text)
        self.retry.setText(banner.button)
        self.retry.setEnabled(banner.button_enabled)
        self.setProperty("bannerState", banner.kind)
        self.setStyleSheet(f"QFrame#statusBanner {{ background: {COLORS[banner.kind]}; border: 1px solid #d0b0b0; }}")
        self.show()
