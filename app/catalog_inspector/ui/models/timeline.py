"""The page timeline: one row per page of a walk, appended live, with its cache hints checked; and the names one
page held."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, Qt
from PySide6.QtGui import QFont

from catalog_inspector.core.catalog import CacheCheck, CacheIssue, PageRecord, duration_words, hint_text, ttl_of
from catalog_inspector.core.config import Limits
from catalog_inspector.core.errors import ErrorKind, outcome_text
from catalog_inspector.core.text import elide, visible
from catalog_inspector.ui import theme
from catalog_inspector.ui.models.flat_table import FlatTableModel, Index
from catalog_inspector.ui.models.page_series import Bar, BudgetLine, PageSeries, budget_line, size_text
from catalog_inspector.ui.models.roles import Role, tooltip

__all__ = ["Offence", "PageNamesModel", "TimelineModel", "find_offence", "outcome_words"]

HEADERS = ("#", "Cursor sent", "Next cursor", "Items", "Bytes", "Latency", "Outcome", "TTL", "Cache scope")
INDEX, CURSOR, NEXT, ITEMS, BYTES, LATENCY, OUTCOME, TTL, SCOPE = range(9)
HINTS = {TTL: "ttl", SCOPE: "scope"}  # the cache-hint columns, by the `CacheCode.column` they show
CURSOR_WIDTH = 24
NAME_WIDTH = 300  # a name shown in the page's name list (its tooltip has more)
# `ui.theme` tints, resolved when painted (a palette change repaints the views; nothing here is cached).
OFFENDING_BACKGROUND = theme.BREAKING  # the page (and the name) that stopped the walk
RELATED_BACKGROUND = theme.RELATED  # the page (and the name) that held the first copy of a duplicated key
HINT_BACKGROUND = theme.WARNING  # a cache hint with a warning (the page itself is kept)
_SCOPE_WORDS = {
    "public": "any client or shared cache may keep this page and serve it to any user",
    "private": "may be reused only within the same authorization context, never shared across users",
}


def _cursor_text(cursor: str | None, first: bool) -> str:
    if cursor is None:
        return "(first page)" if first else "— (end)"
    if cursor == "":
        return '"" (empty string)'
    return visible(elide(cursor, CURSOR_WIDTH))


def _bold() -> QFont:
    font = QFont()
    font.setBold(True)
    return font


@dataclass(frozen=True)
class Offence:
    """What stopped a walk on its offending page, as far as the pages themselves tell.

    Attributes:
        page: the offending page's index.
        kind: its outcome (an `ErrorKind` value).
        name: the duplicated key (duplicate_name), else None.
        first_page: the page that held the key's first copy (duplicate_name), or the page the
            repeated cursor was first sent for (cursor_repeated), else None.
    """

    page: int
    kind: str
    name: str | None = None
    first_page: int | None = None


def find_offence(pages: Sequence[PageRecord]) -> Offence | None:
    """The offence of the page that stopped the walk (a walk stops at its first page that is not "ok"), as the
    enumerator worked it out and carried it on that page; None if every page is ok."""
    page = next((page for page in reversed(pages) if page.outcome != "ok"), None)
    if page is None:
        return None
    carried = page.offence
    if carried is None:
        return Offence(page.index, page.outcome)
    return Offence(page.index, page.outcome, carried.name, carried.first_page)


def outcome_words(page: PageRecord, offence: Offence | None) -> str:
    """The whole story of a page's outcome, for its tooltip: the kind's heading and what the pages show."""
    if page.outcome == "ok":
        return "ok: the page was accepted"
    try:
        text = ErrorKind(page.outcome).heading
    except ValueError:
        return page.outcome
    said = page.offence.jsonrpc if page.offence is not None else None
    if said is not None:
        return f"{text}: {said.text}"
    if offence is None or offence.page != page.index:
        return text
    if offence.name is not None and offence.first_page is not None:
        where = "earlier on the same page" if offence.first_page == page.index else f"on page {offence.first_page}"
        return f"{text}: '{offence.name}' appears again on this page (first seen {where})"
    if offence.kind == ErrorKind.CURSOR_REPEATED and offence.first_page is not None:
        cursor = _cursor_text(page.next_cursor, first=False)
        return f"{text}: this page's next cursor {cursor} was already sent for page {offence.first_page}"
    return text


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
        Role.BAR,
        Role.CELL,
    }
)
_RIGHT = frozenset({INDEX, ITEMS, BYTES, LATENCY})  # the columns of numbers, right-aligned
BARS = (LATENCY, BYTES)  # the columns drawn as bars on a scale shared by their rows
_BAR_ROLES = frozenset({Role.BAR, Qt.ItemDataRole.ToolTipRole})
CAP_AT = (
    0.8  # where a byte cap that stopped a walk stands at most across the Bytes bars: the page over it shows past it
)


class TimelineModel(FlatTableModel):
    """A view of one walk's pages: the runtime's own sequence, never a copy. The page that stopped the walk is marked.

    A live walk's sequence grows in the runtime; `sync()` announces the rows
    that arrived since the last call (the panel calls it in batches).
    The Outcome column shows the kind's few words (a JSON-RPC error's code and its name); its tooltip and
    FULL_TEXT tell the whole outcome. The TTL and Cache scope columns show the page's hints, marked where
    the rules warn (the tooltip says why); each page is checked once, as it is announced.
    Latency and Bytes carry their value on a scale shared by the column (Role.BAR, the bar a view draws), kept
    as pages are announced (`series`); the byte cap, when it stopped the walk, is on the same scale. `budget` is
    the budget that stopped the walk, as the line it crossed.
    """

    def __init__(self, parent: Any = None) -> None:
        super().__init__(HEADERS, parent)
        self._pages: Sequence[PageRecord] = ()
        self._shown = 0
        self._related: frozenset[int] = frozenset()
        self._offence: Offence | None = None
        self._check = CacheCheck()
        self._hint_issues: dict[tuple[int, str], list[CacheIssue]] = {}  # (row, "ttl"/"scope") → its warnings
        self._limits: Limits | None = None
        self._series = PageSeries()
        self._bars: dict[tuple[int, int], Bar] = {}  # (row, column) → its bar, made when first painted
        self._budget: BudgetLine | None = None

    @property
    def pages(self) -> Sequence[PageRecord]:
        return self._pages[: self._shown]

    def page(self, row: int) -> PageRecord:
        """The page shown in `row` (without copying the shown pages, as `pages` does)."""
        if not 0 <= row < self._shown:
            raise IndexError(row)
        return self._pages[row]

    @property
    def offence(self) -> Offence | None:
        """What stopped the shown walk, when one of its shown pages did."""
        return self._offence

    @property
    def series(self) -> PageSeries:
        """The shown pages' figures: the bars' shared scales, the items so far, the latency maxima a chart draws."""
        return self._series

    @property
    def budget(self) -> BudgetLine | None:
        """The budget that stopped the shown walk, when one of its shown pages ran out of one."""
        return self._budget

    @property
    def cache_issues(self) -> list[CacheIssue]:
        """The warnings about the shown pages' cache hints, in page order."""
        return self._check.issues

    def show(
        self,
        pages: Sequence[PageRecord],
        related: frozenset[int] = frozenset(),
        hints_required: bool = False,
        limits: Limits | None = None,
    ) -> bool:
        """View `pages` (kept by reference); `related` page indexes hold the first copy of a duplicated key;
        `hints_required`: the walk's revision asks every page for cache hints; `limits`: the walk's budgets.

        The pages already shown, given again (a live walk become the accepted catalog: the same pages, and maybe
        the last few the live view had not announced yet) are not laid out and painted again: a reset repaints
        every cell in view (~12 ms of the walk's last event); pages that follow them are appended.
        Returns whether the view was reset (False: the same pages, still shown as they were)."""
        if self._same_view(pages, related, hints_required):
            self._pages = pages
            self.sync()  # pages the live walk had not announced yet, if any: appended
            if limits != self._limits:  # the byte cap drawn across the Bytes bars may move
                self._limits = limits
                budget = self._budget_crossed()
                # Only a walk a budget stopped draws its line: any other keeps its bars (a column's dataChanged
                # repaints the whole view, ~5 ms of the refresh's last event).
                if budget != self._budget:
                    self._budget = budget
                    self._bars = {}
                    if self._shown:
                        self.dataChanged.emit(self.index(0, BYTES), self.index(self._shown - 1, BYTES), [Role.BAR])
            return False
        self.beginResetModel()
        self._related = related
        self._pages = pages
        self._shown = len(pages)
        self._offence = find_offence(self.pages)
        self._check = CacheCheck(hints_required)
        self._hint_issues = {}
        self._check_hints(0, self._shown)
        self._limits = limits
        self._series = PageSeries(self.pages)
        self._budget = self._budget_crossed()
        self._bars = {}
        self.endResetModel()
        return True

    def _same_view(self, pages: Sequence[PageRecord], related: frozenset[int], hints_required: bool) -> bool:
        """Whether `pages` begin with the pages shown (the very objects), judged by the same rules."""
        shown, count = self._pages, self._shown
        return (
            len(pages) >= count
            and related == self._related
            and hints_required == self._check.required
            and all(pages[row] is shown[row] for row in range(count))
        )

    def _budget_crossed(self) -> BudgetLine | None:
        offence = self._offence
        return budget_line(offence.kind, offence.page, self._limits) if offence is not None else None

    def _check_hints(self, first: int, end: int) -> None:
        for row in range(first, end):
            for issue in self._check.add(self._pages[row]):
                self._hint_issues.setdefault((row, issue.code.column), []).append(issue)

    def waiting(self) -> int:
        """How many pages of the viewed sequence `sync()` would announce."""
        return max(0, len(self._pages) - self._shown)

    def sync(self) -> None:
        """Announce the pages appended to the viewed sequence since the last call."""
        count = len(self._pages)
        if count <= self._shown:
            return
        series, before = self._series, self.scales()
        self.beginInsertRows(QModelIndex(), self._shown, count - 1)
        self._check_hints(self._shown, count)
        for row in range(self._shown, count):
            series.append(self._pages[row])
        shown, self._shown = self._shown, count
        if self._offence is None and self._pages[count - 1].outcome != "ok":  # a walk stops at its offender
            self._offence = find_offence(self.pages)
            self._budget = self._budget_crossed()
        self.endInsertRows()
        if before != self.scales():
            self._bars = {}  # measured against another scale now
        for column, was, now in zip(BARS, before, self.scales(), strict=True):
            if shown and now != was:  # a new largest value: the rows before measure against it now
                self.dataChanged.emit(self.index(0, column), self.index(shown - 1, column), [Role.BAR])

    def scales(self) -> tuple[float, float]:
        """The shared scales of the bars: the largest latency (ms); the largest page (bytes), with room past the
        byte cap when the cap stopped the walk (its line stands at CAP_AT of the cells' width at most)."""
        series, budget = self._series, self._budget
        room = budget.value / CAP_AT if budget is not None and budget.kind == ErrorKind.SIZE_LIMIT else 0.0
        return series.latency_max, max(float(series.bytes_max), room)

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
        if column in BARS and role in _BAR_ROLES:  # asked for every bar painted: answered first
            if role == Role.BAR:
                bar = self._bars.get((index.row(), column))
                if bar is None:
                    bar = self._bars[index.row(), column] = self._bar_data(index.row(), page, column, role)
                return bar
            return self._bar_data(index.row(), page, column, role)
        bad = page.outcome != "ok"
        if role == Role.CELL:  # asked for every cell painted: answered next
            row = index.row()
            if bad or page.index in self._related or (column in HINTS and (row, HINTS[column]) in self._hint_issues):
                return None
            return self._display(page, column, row), column in _RIGHT, False
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(page, column, index.row())
        if role in (Role.FULL_TEXT, Qt.ItemDataRole.ToolTipRole) and column in (CURSOR, NEXT):
            value = page.cursor if column == CURSOR else page.next_cursor
            text = "" if value is None else value
            return tooltip(text) if role == Qt.ItemDataRole.ToolTipRole and text else text
        if role in (Role.FULL_TEXT, Qt.ItemDataRole.ToolTipRole) and column == OUTCOME:
            text = outcome_words(page, self._offence)
            return tooltip(text) if role == Qt.ItemDataRole.ToolTipRole else text
        if column in HINTS and role in (Role.FULL_TEXT, Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.BackgroundRole):
            return self._hint_data(index.row(), page, column, role, bad)
        if role == Role.FULL_TEXT:
            return self._display(page, column, index.row())
        if role == Qt.ItemDataRole.ToolTipRole and column == ITEMS and page.names:
            return tooltip("\n".join(page.names[:200]) + ("\n…" if len(page.names) > 200 else ""))
        if role == Role.OFFENDING:
            return bad
        if role == Role.RELATED:
            return page.index in self._related
        if role == Qt.ItemDataRole.BackgroundRole and bad:
            return theme.brush(OFFENDING_BACKGROUND)
        if role == Qt.ItemDataRole.BackgroundRole and page.index in self._related:
            return theme.brush(RELATED_BACKGROUND)
        if role == Qt.ItemDataRole.FontRole and bad:
            return _bold()
        if role == Qt.ItemDataRole.TextAlignmentRole and column in _RIGHT:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def _bar_data(self, row: int, page: PageRecord, column: int, role: int) -> Any:
        """A Latency or Bytes cell's bar: its share of the column's scale, the byte cap's, and the words."""
        scale = self.scales()[0 if column == LATENCY else 1]
        value = page.latency_ms if column == LATENCY else page.bytes
        # The page over the byte cap is at least the cap (a transport stops reading there: its size is unknown).
        over = column == BYTES and page.outcome == ErrorKind.SIZE_LIMIT
        budget = self._budget
        capped = column == BYTES and budget is not None and budget.kind == ErrorKind.SIZE_LIMIT
        if role == Role.BAR:
            share = 1.0 if over else min(1.0, value / scale) if scale > 0 else 0.0
            limit = budget.value / scale if budget is not None and capped and scale > 0 else None
            plain = page.outcome == "ok" and page.index not in self._related
            return Bar(share, limit, self._display(page, column, row), plain)
        series = self._series
        top, most = (series.slowest, series.latency_max) if column == LATENCY else (series.heaviest, series.bytes_max)
        words, superlative = ("ms", "slowest") if column == LATENCY else ("bytes", "largest")
        said = f"{value:,.1f} ms" if column == LATENCY else f"{value:,} bytes"
        if over:
            cap = f" of {budget.value:,} bytes" if budget is not None and capped else ""
            text = f"over the byte cap{cap}" + (f": {said}" if value else ": reading stopped at the cap")
        elif top is None or most <= 0:
            text = said
        elif row == top:
            text = f"{said}: the {superlative} page shown"
        else:
            whole = f"{most:,.1f}" if column == LATENCY else f"{most:,}"
            text = f"{said}: {value / most:.0%} of page {self._pages[top].index}'s {whole} {words} (the {superlative})"
        if budget is not None and capped and not over:
            text += f"\nthe byte cap that stopped the walk: {budget.value:,} bytes"
        return tooltip(text)

    def _hint_data(self, row: int, page: PageRecord, column: int, role: int, bad: bool) -> Any:
        value = page.ttl_ms if column == TTL else page.cache_scope
        issues = self._hint_issues.get((row, HINTS[column]))
        if role == Role.FULL_TEXT:  # what the server sent, for copying
            return "" if value is None else value if isinstance(value, str) else json.dumps(value)
        if role == Qt.ItemDataRole.BackgroundRole:
            if bad or issues or page.index in self._related:
                return theme.brush(OFFENDING_BACKGROUND if bad else HINT_BACKGROUND if issues else RELATED_BACKGROUND)
            return None
        if issues:
            return tooltip("\n".join(issue.message for issue in issues))
        if value is None:
            return tooltip(f"{'ttlMs' if column == TTL else 'cacheScope'} not sent")
        if column == SCOPE:
            return tooltip(f"cacheScope {value}: {_SCOPE_WORDS.get(str(value), '')}")
        ttl = ttl_of(value) or 0
        fresh = f"fresh for {duration_words(ttl)} after the page arrived" if ttl else "stale at once"
        return tooltip(f"ttlMs {hint_text(value)}: {fresh}")

    def _hint_text(self, row: int, page: PageRecord, column: int) -> str:
        value = page.ttl_ms if column == TTL else page.cache_scope
        if (row, HINTS[column]) in self._hint_issues:
            return "⚠ " + hint_text(value)
        if value is None:
            return "—"
        if column == SCOPE:
            return str(value)
        ttl = ttl_of(value) or 0
        return duration_words(ttl) if ttl else "0 (stale)"

    def _display(self, page: PageRecord, column: int, row: int) -> str:
        if column in HINTS:
            return self._hint_text(row, page, column)
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
            return size_text(page.bytes) if page.bytes else "—"
        if column == LATENCY:
            return f"{page.latency_ms:,.0f} ms"
        said = page.offence.jsonrpc if page.offence is not None else None
        if said is not None:  # the code by name, in a few words (the tooltip says it in full)
            return f"JSON-RPC {said.code}: {said.short}"
        return outcome_text(page.outcome)


class PageNamesModel(QAbstractListModel):
    """The names (keys) one page held, in the order the server sent them, as plain text.

    On the page that stopped a walk for a duplicate, the duplicated name is marked
    (Role.OFFENDING, red and bold); on the page that held its first copy too (Role.RELATED, amber and bold).
    Role.KEY gives a name exactly as sent.
    """

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._names: tuple[str, ...] = ()
        self._marked: str | None = None
        self._marked_row: int | None = None
        self._offending = False

    @property
    def marked_row(self) -> int | None:
        """The row of the marked name (its first occurrence on this page), if this page has one."""
        return self._marked_row

    def set_page(self, page: PageRecord | None, offence: Offence | None = None) -> None:
        """Show `page`'s names (none for None); mark the duplicated name if `offence` concerns this page."""
        self.beginResetModel()
        self._names = page.names if page is not None else ()
        self._marked = None
        self._marked_row = None
        self._offending = False
        if page is not None and offence is not None and offence.name is not None and offence.name in page.names:
            if page.index == offence.page:
                self._marked, self._offending = offence.name, True
            elif page.index == offence.first_page:
                self._marked = offence.name
        self._marked_row = self._names.index(self._marked) if self._marked is not None else None
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._names)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._names):
            return None
        name = self._names[index.row()]
        marked = name == self._marked  # every copy, when the first one is on the same page
        if role == Qt.ItemDataRole.DisplayRole:
            return visible(str(name), NAME_WIDTH)
        if role == Role.KEY:
            return name
        if role == Qt.ItemDataRole.ToolTipRole:
            note = ""
            if marked:
                note = "\n(the duplicated name)" if self._offending else "\n(the first copy of the duplicated name)"
            return tooltip(str(name) + note)
        if role == Role.OFFENDING:
            return marked and self._offending
        if role == Role.RELATED:
            return marked and not self._offending
        if role == Qt.ItemDataRole.BackgroundRole and marked:
            return theme.brush(OFFENDING_BACKGROUND if self._offending else RELATED_BACKGROUND)
        if role == Qt.ItemDataRole.FontRole and marked:
            return _bold()
        return None
