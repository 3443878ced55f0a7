"""The shared text views: read-only, plain text, capped, wrapping at word boundaries unless a token is too long."""

from __future__ import annotations

import re

from PySide6.QtGui import QTextOption
from PySide6.QtWidgets import (
    QPlainTextEdit,
    QWidget,
)

from catalog_inspector.core.text import visible

__all__ = ["DISPLAY_CAP", "LONG_TOKEN", "SPLIT_SIZES", "plain_text_view", "set_capped_text", "wrap_mode_for"]

DISPLAY_CAP = 200_000
SPLIT_SIZES = [560, 600]  # content | page timeline
# Qt's word-boundary wrapping is quadratic in the length of a run it cannot break: one unbroken token of
# 50,000 characters took 0.19 s to lay out, 200,000 took 2.7 s and 1,000,000 took 74 s (WrapAnywhere: 0.02,
# 0.09 and 0.46 s). Runs of at most LONG_TOKEN characters cost what WrapAnywhere costs (200,000 characters of
# 2,000-character tokens in one paragraph: 0.13 s against 0.09 s), so a text wraps at word boundaries unless
# one of its runs is longer; then the whole text wraps anywhere.
LONG_TOKEN = 2_000
# Only these are taken as break opportunities. Python's str.split() also splits at no-break spaces, where Qt
# does not break: a text joined by U+00A0 would pass for short words and lay out as one quadratic token.
_BREAKS = re.compile(r"[ \t\n]+")
_WORDS = QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere
_ANYWHERE = QTextOption.WrapMode.WrapAnywhere


def plain_text_view(object_name: str, parent: QWidget | None = None) -> QPlainTextEdit:
    """A read-only plain-text view; it wraps anywhere until `set_capped_text` chooses for its text.

    Wrapping anywhere is the safe default for text that reaches the view another way
    (appended log lines): one huge token must not stall the layout.
    """
    view = QPlainTextEdit(parent)
    view.setObjectName(object_name)
    view.setReadOnly(True)
    view.setWordWrapMode(_ANYWHERE)
    return view


def wrap_mode_for(text: str) -> QTextOption.WrapMode:
    """Word boundaries for prose (no `schem / a`); anywhere when a run of `text` is longer than LONG_TOKEN."""
    if len(text) <= LONG_TOKEN:
        return _WORDS
    longest = max(map(len, _BREAKS.split(text)))  # linear, in C: no per-character Python
    return _ANYWHERE if longest > LONG_TOKEN else _WORDS


def set_capped_text(view: QPlainTextEdit, text: str, cap: int = DISPLAY_CAP) -> None:
    """Show `text` (untrusted) in `view`: cut at `cap` characters, hidden characters written out as `\\uXXXX`,
    wrapped at word boundaries unless a token is too long for that (`wrap_mode_for`)."""
    notice = ""
    if len(text) > cap:
        notice = f"\n\n… truncated at {cap:,} of {len(text):,} characters — export the snapshot for the rest"
    # Cut first: escaping works on at most `cap` characters. Text made visible already stays as it is.
    shown = visible(text[:cap], keep_newlines=True) + notice
    mode = wrap_mode_for(shown)
    if view.wordWrapMode() != mode:
        view.clear()  # else the old text is laid out again in the new mode: a long token, quadratically
        view.setWordWrapMode(mode)
    view.setPlainText(shown)
