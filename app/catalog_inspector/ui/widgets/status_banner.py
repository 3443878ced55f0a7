"""The status banner: what went wrong, in words, with a Retry button; or a stale-catalog notice."""

from __future__ import annotations

from datetime import datetime

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget

from catalog_inspector.core.errors import ErrorInfo
from catalog_inspector.core.snapshot import Snapshot
from catalog_inspector.core.text import visible

__all__ = ["KIND_TITLES", "StatusBanner", "describe_failure"]

KIND_TITLES = {
    "duplicate_name": "Duplicate name",
    "cursor_repeated": "Repeated cursor (the walk would loop)",
    "page_limit": "Page budget exhausted",
    "item_limit": "Item budget exhausted",
    "size_limit": "Response too large",
    "server_error": "The server answered with an error",
    "timeout": "Timed out",
    "connection": "Connection failed",
    "protocol": "Protocol error (malformed data from the server)",
}
LIST_NOUNS = {"tools": "tools", "resources": "resources", "resource_templates": "resource templates", "prompts": "prompts"}
MESSAGE_LIMIT = 600


def describe_failure(error: ErrorInfo, status: str) -> str:
    """One paragraph a person can act on: kind, where, JSON-RPC code, the server's message."""
    verdict = "Rejected" if status == "rejected" else "Failed"
    where = ""
    if error.page is not None:
        where = f" on page {error.page} of {LIST_NOUNS.get(error.list_name or 'tools', error.list_name)}"
    elif error.list_name and error.list_name != "tools":
        where = f" while listing {LIST_NOUNS.get(error.list_name, error.list_name)}"
    code = f" (JSON-RPC error {error.code})" if error.code is not None else ""
    title = KIND_TITLES.get(str(error.kind), str(error.kind))
    return f"{verdict}: {title}{where}{code}. {visible(error.message, MESSAGE_LIMIT)}"


class StatusBanner(QFrame):
    """Hidden unless there is something to say about the selected server.

    Signals:
        retry_clicked(): the user asked for one fresh walk from the first page.
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
        self.hide()

    def show_failure(self, snapshot: Snapshot, last_good_at: datetime | None) -> None:
        assert snapshot.error is not None
        text = describe_failure(snapshot.error, snapshot.status)
        if last_good_at is not None:
            text += f"\nThe last good catalog, taken at {last_good_at:%H:%M:%S}, stays on screen."
        else:
            text += "\nNo catalog has been accepted from this server yet."
        self._show(text, "failure", "#fdecea", "Retry")
        self.kind = str(snapshot.error.kind)

    def show_stale(self) -> None:
        self._show(
            "The server says its tool list changed since this catalog was taken. Refresh to walk it again.",
            "stale",
            "#fff8e1",
            "Refresh",
        )
        self.kind = None

    def _show(self, text: str, state: str, color: str, button: str) -> None:
        self.label.setText(text)
        self.retry.setText(button)
        self.setProperty("bannerState", state)
        self.setStyleSheet(f"QFrame#statusBanner {{ background: {color}; border: 1px solid #d0b0b0; }}")
        self.show()

    def clear(self) -> None:
        self.kind = None
        self.label.clear()
        self.hide()
