"""The shared text views: read-only, plain text, wrapping anywhere, capped."""

from __future__ import annotations

from PySide6.QtGui import QTextOption
from PySide6.QtWidgets import (
    QPlainTextEdit,
    QWidget,
)

__all__ = ["SPLIT_SIZES", "plain_text_view", "set_capped_text"]

DISPLAY_CAP = 200_000
SPLIT_SIZES = [560, 600]  # content | page timeline


def plain_text_view(object_name: str, parent: QWidget | None = None) -> QPlainTextEdit:
    """A read-only plain-text view that wraps anywhere (one huge token must not stall layout)."""
    view = QPlainTextEdit(parent)
    view.setObjectName(object_name)
    view.setReadOnly(True)
    view.setWordWrapMode(QTextOption.WrapMode.WrapAnywhere)
    return view


def set_capped_text(view: QPlainTextEdit, text: str, cap: int = DISPLAY_CAP) -> None:
    if len(text) > cap:
        text = text[:cap] + f"\n\n… truncated at {cap:,} of {len(text):,} characters — export the snapshot for the rest"
    view.setPlainText(text)
