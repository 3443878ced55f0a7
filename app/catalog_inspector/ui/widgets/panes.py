"""The shared text views: read-only, plain text, wrapping anywhere, capped."""

from __future__ import annotations

from PySide6.QtGui import QTextOption
from PySide6.QtWidgets import (
    QPlainTextEdit,
    QWidget,
)

from catalog_inspector.core.text import visible

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
    """Show `text` (untrusted) in `view`: cut at `cap` characters, hidden characters written out as `\\uXXXX`."""
    notice = ""
    if len(text) > cap:
        notice = f"\n\n… truncated at {cap:,} of {len(text):,} characters — export the snapshot for the rest"
    # Cut first: escaping works on at most `cap` characters. Text made visible already stays as it is.
    view.setPlainText(visible(text[:cap], keep_newlines=True) + notice)
