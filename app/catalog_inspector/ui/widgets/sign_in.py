"""The sign-in banner's link and buttons: the authorization URL as plain text, open it, copy it, cancel."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QDesktopServices, QGuiApplication
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QPushButton, QWidget

from catalog_inspector.ui.signin import browser_url

__all__ = ["SignInControls", "open_in_browser"]

OPEN, COPY, COPIED = "Open in browser", "Copy link", "Copied"


def open_in_browser(link: str) -> bool:
    """Open `link` in the system browser if it is https (or http to this machine); whether it was handed over."""
    url = browser_url(link)
    return url is not None and QDesktopServices.openUrl(url)


class SignInControls(QWidget):
    """One row under the sign-in banner's text: the link, and Open in browser, Copy link, Cancel sign-in.

    The link is a read-only line edit (`signInUrl`): plain text by nature, selectable and
    copyable, one line however long (the start, with the host, is what shows). The
    buttons are `signInOpen`, `signInCopy` and `signInCancel`. Open is disabled for a
    link that is not https or http to this machine (`ui.signin.browser_url`).

    Attributes:
        link: the link shown (as `ui.signin.link_text` made it).

    Signals:
        cancel_clicked(): the user cancelled the sign-in.
        opened(bool): Open in browser was pressed; whether a browser was handed the link.
    """

    cancel_clicked = Signal()
    opened = Signal(bool)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("signInControls")
        self.link = ""
        caption = QLabel("Link:", self)
        caption.setTextFormat(Qt.TextFormat.PlainText)  # every label of the window is plain (a test checks them all)
        self.url = QLineEdit(self)
        self.url.setObjectName("signInUrl")
        self.url.setReadOnly(True)
        self.url.setToolTip("The authorization URL the browser was sent to: select it, or use Copy link")
        self.open = QPushButton(OPEN, self)
        self.open.setObjectName("signInOpen")
        self.open.clicked.connect(self._on_open_clicked)
        self.copy = QPushButton(COPY, self)
        self.copy.setObjectName("signInCopy")
        self.copy.setToolTip("Copy the link, to open it in a browser on this machine")
        self.copy.clicked.connect(self._on_copy_clicked)
        self.cancel = QPushButton("Cancel sign-in", self)
        self.cancel.setObjectName("signInCancel")
        self.cancel.setToolTip("Stop waiting for the browser: the walk ends as a failed sign-in")
        self.cancel.clicked.connect(self.cancel_clicked)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.addWidget(caption)
        layout.addWidget(self.url, 1)
        for button in (self.open, self.copy, self.cancel):
            layout.addWidget(button)

    def set_link(self, link: str) -> None:
        """Show a sign-in's link (a new one resets the buttons)."""
        if link == self.link:
            return
        self.link = link
        self.url.setMaxLength(max(len(link), 1))
        self.url.setText(link)
        self.url.setCursorPosition(0)  # the scheme and the host first: what to check
        openable = browser_url(link) is not None
        self.open.setEnabled(openable)
        self.open.setToolTip(
            "Open the link in the system browser"
            if openable
            else "Only an https link, or http to this machine, is opened: this one is not"
        )
        self.copy.setText(COPY)

    def _on_open_clicked(self) -> None:
        self.opened.emit(open_in_browser(self.link))

    def _on_copy_clicked(self) -> None:
        QGuiApplication.clipboard().setText(self.link)
        self.copy.setText(COPIED)
