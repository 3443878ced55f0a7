"""Columns that share a view's width: each as wide as what it shows, within bounds, and none out of sight.

A view's columns are measured over a bounded number of rows (the tree's rows in view, FIT_ROWS at most; a table's
first and last few, SAMPLE_ROWS), by the font metrics of their display text: never by Qt's ResizeToContents,
which measures every row of the model on every change (a known stall at 10,000 rows). What a column needs is
kept, so a resize only shares the width again, without measuring.

- `LastStretches` (the tool tree): the columns before the last take what they need, between a floor and a cap,
  and the last one (the descriptions) stretches over the rest; when they would leave it less than its room,
  they give up width toward their floors, each in proportion to what it can give.
- `ElasticColumns` (a page timeline): every column takes what it needs, header included, but the elastic ones
  (the cursors, which elide in the middle) share what is left, no narrower than a minimum; a few of its rows
  are measured (`SAMPLE_ROWS`).

Either leaves the view without a horizontal scroll bar unless the view is narrower than the floors; a width the
person drags a column to is kept until the next catalog or walk is shown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import shiboken6
from PySide6.QtCore import QEvent, QModelIndex, QObject, QPoint, Qt, QTimer
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QStyle, QTableView, QTreeView

from catalog_inspector.ui.widgets.tables import FIT_ROWS

__all__ = ["ColumnFit", "ElasticColumns", "LastStretches", "cell_need", "shared_widths"]

# The rows of a table measured when it is shown (the first and the last half) and of each batch appended (its
# last half): a timeline's or a drift table's rows are of one kind, and a few of them tell the widths (~10 µs a
# cell, so ~1 ms a walk shown); a cell of a row not measured that is wider elides (its tooltip has it whole).
SAMPLE_ROWS = 12


@dataclass(frozen=True)
class ColumnFit:
    """How wide a fitted column may be: no narrower than `floor` when width is short (None: never narrower than
    it needs), never wider than `cap`."""

    floor: int | None
    cap: int


def shared_widths(needs: Sequence[int], floors: Sequence[int], available: int) -> list[int]:
    """`needs` made to fit in `available` pixels: each gives up width toward its floor (never below it, nor above
    its need) in proportion to what it can give; all at their floors when even those do not fit."""
    floors = [min(floor, need) for floor, need in zip(floors, needs, strict=True)]
    excess = sum(needs) - available
    if excess <= 0:
        return list(needs)
    gives = [need - floor for need, floor in zip(needs, floors, strict=True)]
    total = sum(gives)
    if total <= excess:
        return floors
    # Rounded up, so that together they never exceed `available` (each gives less than it can: excess < total).
    return [need - (give * excess + total - 1) // total for need, give in zip(needs, gives, strict=True)]


def _margin(view: QAbstractItemView) -> int:
    """What a cell adds to its text: the style's text margin on both sides, and a pixel for rounding."""
    return 2 * (view.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, view) + 1) + 1


class _Measure:
    """Cells' widths in one view, with the font metrics made once per font (a few microseconds a cell)."""

    def __init__(self, view: QAbstractItemView) -> None:
        self.margin = _margin(view)
        self.plain = view.fontMetrics()
        self._metrics: dict[str, QFontMetrics] = {}

    def need(self, index: QModelIndex) -> int:
        """The width a cell's display text needs to read whole, in the cell's own font (a bold name)."""
        text = index.data()
        if not text:
            return 0
        font = index.data(Qt.ItemDataRole.FontRole)
        metrics = self.plain
        if isinstance(font, QFont):
            metrics = self._metrics.get(font.key()) or self._metrics.setdefault(font.key(), QFontMetrics(font))
        return metrics.horizontalAdvance(str(text)) + self.margin


def cell_need(view: QAbstractItemView, index: QModelIndex) -> int:
    """The width a cell's display text needs to read whole, in the cell's own font (a bold name)."""
    return _Measure(view).need(index)


class _Fitter(QObject):
    """What both shapes share: the view, its header, the widths last set, and a resize of the viewport followed."""

    def __init__(self, view: QTreeView | QTableView) -> None:
        header = view.header() if isinstance(view, QTreeView) else view.horizontalHeader()
        super().__init__(header)  # goes with the header: nothing here runs once it is deleted
        self.view = view
        self.header: QHeaderView = header
        self.needs: list[int] = []  # by column: what each needs (measured), the elastic or last ones included
        self._setting = False
        self._pressed = False  # a mouse button is down on the header: a section resized now is the person's drag
        self._given: dict[int, int] = {}  # the widths last set, by column
        # The person dragged a column (or the owner sized columns its own way): the widths are kept as they are
        # until the next `fit` (a catalog, a walk shown).
        self.held = False
        view.viewport().installEventFilter(self)
        self.header.viewport().installEventFilter(self)
        self.header.sectionResized.connect(self._on_header_section_resized)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind in (QEvent.Type.MouseButtonPress, QEvent.Type.MouseButtonRelease):
            self._pressed = kind == QEvent.Type.MouseButtonPress
        elif kind == QEvent.Type.Resize and watched is self.view.viewport() and self.needs and not self.held:
            self.share()
        elif kind == QEvent.Type.Show and watched is self.view.viewport():
            self.shown()
        return False

    def shown(self) -> None:
        """The view came into sight (its tab was chosen)."""

    def _on_header_section_resized(self, column: int, _old: int, _new: int) -> None:
        if not shiboken6.isValid(self.header):
            return
        stretched = self.header.stretchLastSection() and column == self.header.count() - 1  # the header's own doing
        if not self._setting and not stretched:
            self.moved(column, self._pressed)

    def moved(self, column: int, by_hand: bool) -> None:
        """A column changed width by another hand than ours: the person's drag (`by_hand`), or the view's."""
        if by_hand:
            self.held = True

    def share(self) -> None:
        raise NotImplementedError

    def set_widths(self, widths: dict[int, int]) -> None:
        # A stretching last section is as wide as what is left, or as the width last given it if that is more:
        # it is given its width when that changes (not whenever it differs from the stretched one: a repaint).
        stretched = self.header.count() - 1 if self.header.stretchLastSection() else -1
        self._setting = True
        try:
            for column, width in widths.items():
                now = self._given.get(column) if column == stretched else self.header.sectionSize(column)
                if now != width:
                    self.header.resizeSection(column, width)
                    self._given[column] = width
        finally:
            self._setting = False


class LastStretches(_Fitter):
    """The columns before the last sized by `fits` (one per column), the last stretching over the rest, at least
    `room` pixels of it when the others can give that much. `fit(rows)` measures and shares; a resize shares."""

    def __init__(self, view: QTreeView | QTableView, fits: Sequence[ColumnFit], room: int) -> None:
        super().__init__(view)
        self.fits = list(fits)
        self.room = room

    def fit(self, rows: Sequence[QModelIndex] | None = None) -> None:
        """Measure the columns over `rows` (default: the top-level rows in view, FIT_ROWS at most), then share."""
        rows = self.rows_in_view() if rows is None else list(rows)[:FIT_ROWS]
        measure = _Measure(self.view)
        indent = 0
        if isinstance(self.view, QTreeView) and self.view.rootIsDecorated():
            indent = self.view.indentation()
        needs = []
        for column, fit in enumerate(self.fits):
            need = self.header.sectionSizeHint(column)
            for index in rows:
                cell = measure.need(index.siblingAtColumn(column))
                need = max(need, cell + (indent if column == 0 and cell else 0))
            needs.append(min(need, fit.cap))
        self.needs = needs
        self.held = False
        self.share()

    def rows_in_view(self) -> list[QModelIndex]:
        """The top-level rows in view, FIT_ROWS at most (an expanded tool's schema rows are not its columns')."""
        view, rows = self.view, list[QModelIndex]()
        bottom = view.viewport().height()
        index = view.indexAt(QPoint(0, 0))
        while index.isValid() and len(rows) < FIT_ROWS and view.visualRect(index).top() < bottom:
            if not index.parent().isValid():
                rows.append(index)
            if isinstance(view, QTreeView):
                index = view.indexBelow(index)
            else:
                index = index.sibling(index.row() + 1, 0)
        return rows

    def share(self) -> None:
        floors = [fit.floor if fit.floor is not None else need for fit, need in zip(self.fits, self.needs, strict=True)]
        widths = shared_widths(self.needs, floors, self.view.viewport().width() - self.room)
        self.set_widths(dict(enumerate(widths)))


class ElasticColumns(_Fitter):
    """Every column as wide as it needs (its header, the rows' texts, its floor in `floors`), but the `elastic`
    ones, which share what the others leave of the viewport, each no narrower than `minimum`. The `owned` columns
    are sized by the view's owner: their width is taken as it is. Rows are measured as they arrive (a new walk: its first and last
    FIT_ROWS); the widths follow the viewport and any column the owner resizes."""

    def __init__(
        self,
        view: QTableView,
        elastic: Sequence[int],
        minimum: int,
        owned: Sequence[int] = (),
        floors: Mapping[int, int] | None = None,
    ) -> None:
        super().__init__(view)
        self.elastic = tuple(elastic)
        self.owned = tuple(owned)
        self.minimum = minimum
        self.floors = dict(floors or {})
        self._stale = True  # the rows shown were not measured yet (the view is out of sight)
        self._due: set[int] | None = None  # rows to measure on the next turn of the event loop
        self._scheduled = False
        model = view.model()
        model.modelReset.connect(self._on_model_reset)
        model.rowsInserted.connect(self._on_model_rows_inserted)
        self.refit()

    def _measured(self) -> list[int]:
        return [c for c in range(self.header.count()) if c not in self.elastic and c not in self.owned]

    def refit(self) -> None:
        """Measure again from the headers up, now (a QTableWidget filled in after its rows were inserted)."""
        self._stale = not self.view.isVisible()
        if self._stale:  # measured when it shows: a view out of sight (another tab's timeline) costs nothing
            return
        self.needs = [
            max(self.header.sectionSizeHint(column), self.floors.get(column, 0))
            for column in range(self.header.count())
        ]
        self.held = False
        self._due = None
        rows = self.view.model().rowCount()
        half = SAMPLE_ROWS // 2
        self._measure([*range(min(rows, half)), *range(max(half, rows - half), rows)])

    def shown(self) -> None:
        if self._stale:
            self.refit()

    def _on_model_reset(self) -> None:
        if not shiboken6.isValid(self.header):  # a model outliving its view (it is the panel's child)
            return
        self.view.horizontalScrollBar().setValue(0)  # a new walk is shown from its first column
        self._stale = True  # measured on the next turn: not in the same event as the walk's other work
        self._later()

    def _on_model_rows_inserted(self, _parent: QModelIndex, first: int, last: int) -> None:
        if not shiboken6.isValid(self.header) or self._stale:
            return
        if self._due is None:
            self._due = set()
            self._later()
        self._due.update(range(max(first, last + 1 - SAMPLE_ROWS // 2), last + 1))

    def _later(self) -> None:
        if not self._scheduled:
            self._scheduled = True
            QTimer.singleShot(0, self, self._on_later)

    def _on_later(self) -> None:
        self._scheduled = False
        if not shiboken6.isValid(self.header):
            return
        if self._stale:
            self.refit()
        elif self._due is not None:
            rows, self._due = sorted(self._due), None
            self._measure([row for row in rows if row < self.view.model().rowCount()])

    def _measure(self, rows: Sequence[int]) -> None:
        model, measure = self.view.model(), _Measure(self.view)
        columns = self._measured()
        for row in rows:
            for column in columns:
                self.needs[column] = max(self.needs[column], measure.need(model.index(row, column)))
        self.share()

    def moved(self, column: int, by_hand: bool) -> None:
        if column in self.owned and not by_hand:
            self.share()  # the owner sized its column: the elastic ones share what is left
        else:
            super().moved(column, by_hand)

    def share(self) -> None:
        if self.held or len(self.needs) != self.header.count():
            return
        widths = {column: self.needs[column] for column in self._measured()}
        taken = sum(widths.values()) + sum(self.header.sectionSize(column) for column in self.owned)
        share = max(self.minimum, (self.view.viewport().width() - taken) // max(1, len(self.elastic)))
        widths.update({column: share for column in self.elastic})
        self.set_widths(widths)
