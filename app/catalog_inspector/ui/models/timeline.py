"""The page timeline: one row per page of a walk, appended live."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QBrush, QColor, QFont

from catalog_inspector.core.errors import outcome_text
from catalog_inspector.core.snapshot import PageRecord
from catalog_inspector.core.text import elide, visible
from catalog_inspector.ui.models.flat_table import FlatTableModel, Index
from catalog_inspector.ui.models.roles import Role, tooltip

__all__ = ["TimelineModel"]

HEADERS = ("#", "Cursor sent", "Next cursor", "Items", "Bytes", "Latency", "Outcome")
INDEX, CURSOR, NEXT, ITEMS, BYTES, LATENCY, OUTCOME = range(7)
CURSOR_WIDTH = 24

def _cursor_text(cursor: str | None, first: bool) -> str:
    if cursor is None:
        return "(first page)" if first else "— (end)"
    if cursor == "":
        return '"" (empty string)'
    return visible(elide(cursor, CURSOR_WIDTH))


def _size(n: int) -> str:
    if n < 1024:
        return f"{n} B"
    if n < 1024 * 1024:
        return f"{n / 1024:.1f} KiB"
    return f"{n / 1024 / 1024:.1f} MiB"


_ROLES = frozenset(
    {
        Qt.ItemDataRole.DisplayRole,
        Qt.ItemDataRole.ToolTipRole,
        Qt.ItemDataRole.BackgroundRole,
        Qt.ItemDataRole.FontRole,
        Qt.ItemDataRole.TextAlignmentRole,
        Role.FULL_TEXT,
        Role.OFFENDING,
        Role.RELATED,
    }
)


class TimelineModel(FlatTableModel):
    """A view of one walk's pages: the runtime's own sequence, never a copy. The page that stopped the walk is marked.

    A live walk's sequence grows in the runtime; `sync()` announces the rows
    that arrived since the last call (the panel calls it in batches).
    """

    def __init__(self, parent: Any = None) -> None:
        super().__init__(HEADERS, parent)
        self._pages: Sequence[PageRecord] = ()
        self._shown = 0
        self._related: frozenset[int] = frozenset()

    @property
    def pages(self) -> Sequence[PageRecord]:
        return self._pages[: self._shown]

    def show(self, pages: Sequence[PageRecord], related: frozenset[int] = frozenset()) -> None:
        """View `pages` (kept by reference); `related` page indexes hold the first copy of a duplicated key."""
        self.beginResetModel()
        self._related = related
        self._pages = pages
        self._shown = len(pages)
        self.endResetModel()

    def sync(self) -> None:
        """Announce the pages appended to the viewed sequence since the last call."""
        count = len(self._pages)
        if count <= self._shown:
            return
        self.beginInsertRows(QModelIndex(), self._shown, count - 1)
        self._shown = count
        self.endInsertRows()

    def offending_row(self) -> int | None:
        return next((row for row in range(self._shown) if self._pages[row].outcome != "ok"), None)

    def row_count(self) -> int:
        return self._shown

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        # Views ask for many roles per cell on every repaint; answer the unused ones first.
        if role not in _ROLES or not index.isValid() or not 0 <= index.row() < self._shown:
            return None
        page = self._pages[index.row()]
        column = index.column()
        bad = page.outcome != "ok"
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(page, column)
        if role in (Role.FULL_TEXT, Qt.ItemDataRole.ToolTipRole) and column in (CURSOR, NEXT):
            value = page.cursor if column == CURSOR else page.next_cursor
            text = "" if value is None else value
            return tooltip(text) if role == Qt.ItemDataRole.ToolTipRole and text else text
        if role == Role.FULL_TEXT:
            return self._display(page, column)
        if role == Qt.ItemDataRole.ToolTipRole and column == ITEMS and page.names:
            return tooltip("\n".join(page.names[:200]) + ("\n…" if len(page.names) > 200 else ""))
        if role == Role.OFFENDING:
            return bad
        if role == Role.RELATED:
            return page.index in self._related
        if role == Qt.ItemDataRole.BackgroundRole and bad:
            return QBrush(QColor("#ffd9d6"))
        if role == Qt.ItemDataRole.BackgroundRole and page.index in self._related:
            return QBrush(QColor("#ffe8b0"))
        if role == Qt.ItemDataRole.FontRole and bad:
            font = QFont()
            font.setBold(True)
            return font
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (INDEX, ITEMS, BYTES, LATENCY):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def _display(self, page: PageRecord, column: int) -> str:
        if column == INDEX:
            return str(page.index)
        if column == CURSOR:
            return _cursor_text(page.cursor, first=page.index == 0)
        if column == NEXT:
            if page.outcome != "ok" and page.next_cursor is None and page.items == 0 and page.bytes == 0:
                return "—"
            return _cursor_text(page.next_cursor, first=False)
        if column == ITEMS:
            return str(page.items)
        if column == BYTES:
            return _size(page.bytes) if page.bytes else "—"
        if column == LATENCY:
            return f"{page.latency_ms:,.0f} ms"
        return outcome_text(page.outcome)
