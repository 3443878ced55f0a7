"""Custom item roles, and the one way server text becomes a tooltip."""

from __future__ import annotations

import enum

from PySide6.QtCore import Qt
from PySide6.QtGui import Qt as GuiQt  # convertFromPlainText lives in QtGui's Qt namespace

from catalog_inspector.core.text import visible

__all__ = ["Role", "TOOLTIP_LIMIT", "tooltip"]

TOOLTIP_LIMIT = 2000


class Role(enum.IntEnum):
    # The wire object or value behind a row. A dict read through Qt (`index.data(RAW)`) comes back converted, as a
    # QVariantMap: its keys sorted (a schema's properties in alphabetical order), an integer beyond 64 bits an
    # OverflowError. The app reads wire objects from the model in Python (`tool_at`, `item_at`).
    RAW = Qt.ItemDataRole.UserRole + 1
    KEY = Qt.ItemDataRole.UserRole + 2  # a row's stable key (tool name, URI …)
    SEARCH = Qt.ItemDataRole.UserRole + 3  # folded text the filter matches against
    FULL_TEXT = Qt.ItemDataRole.UserRole + 4  # an unelided cell value, for copying
    OFFENDING = Qt.ItemDataRole.UserRole + 5  # True on the page that stopped a walk
    DRIFT = Qt.ItemDataRole.UserRole + 6  # a tool's mark from the last refresh: "added", "changed", "removed" or ""
    FLAGGED = Qt.ItemDataRole.UserRole + 7  # True when a tool differs from the catalog the user approved
    RELATED = Qt.ItemDataRole.UserRole + 8  # True on a page that holds the first copy of a duplicated key
    ASKING = Qt.ItemDataRole.UserRole + 9  # how many of a server's questions wait for the person (the sidebar's mark)
    BAR = Qt.ItemDataRole.UserRole + 10  # a timeline Latency/Bytes cell as a bar (`page_series.Bar`): its share of the
    # column's shared scale, the byte cap's, its text, and whether it is plain (no background, not bold)
    CELL = Qt.ItemDataRole.UserRole + 11  # a plain cell (no background, no colour of its own) as (text,
    # right-aligned, bold), painted from this one answer (`cell_paint.CellDelegate`); None for a cell the style paints


def tooltip(text: str) -> str:
    """Tooltips render rich text: escape it (convertFromPlainText) after bounding it."""
    return GuiQt.convertFromPlainText(
        visible(text, TOOLTIP_LIMIT, keep_newlines=True), Qt.WhiteSpaceMode.WhiteSpaceNormal
    )
