"""The one way this app makes a label that may show server text: plain text, never rich."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

__all__ = ["plain_label"]


def plain_label(object_name: str, parent: QWidget, wrap: bool = True) -> QLabel:
    """A plain-text label that wraps (or not) and never widens the window for long text."""
    label = QLabel(parent)
    label.setObjectName(object_name)
    label.setTextFormat(Qt.TextFormat.PlainText)  # server text is never rich text
    label.setWordWrap(wrap)
    label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
    return label
