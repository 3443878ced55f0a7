"""A page timeline with a choice of walk: the live one, the failed attempt, the accepted one."""

from __future__ import annotations

import math
from collections.abc import Sequence

from PySide6.QtCore import QItemSelectionModel, QModelIndex, QRect, Qt, Signal
from PySide6.QtGui import QAction, QFont, QFontMetricsF, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QListView,
    QSplitter,
    QStyle,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from catalog_inspector.core.errors import outcome_text
from catalog_inspector.ui.batch import Batcher
from catalog_inspector.ui.models.roles import Role
from catalog_inspector.ui.models.timeline import (
    BARS,
    BYTES,
    CURSOR,
    LATENCY,
    NEXT,
    OUTCOME,
    SCOPE,
    TTL,
    Offence,
    PageNamesModel,
    TimelineModel,
)
from catalog_inspector.ui.presenters.words import Walk
from catalog_inspector.ui.widgets.column_fit import ElasticColumns
from catalog_inspector.ui.widgets.tables import compact_table
from catalog_inspector.ui.widgets.timeline_bars import BarDelegate, CellDelegate
from catalog_inspector.ui.widgets.timeline_chart import CHART_HEIGHT, TimelineChart

__all__ = ["PageTable", "TimelinePanel", "cell_text_width"]

LIVE_BATCH_MS = 40
# Floors of #, Items, Bytes, Latency, TTL, Cache scope: each is as wide as its header and its cells need (`columns`).
FIXED_WIDTHS = {0: 24, 3: 36, 4: 56, 5: 52, TTL: 40, SCOPE: 48}
# The cursors share what the other columns leave (they elide in the middle; Ctrl+C copies one whole), never
# narrower than this: the table scrolls sideways only in a pane too narrow for that.
CURSOR_WIDTH_PX = 48
MIN_SECTION = 24
HINT_LINES = 5  # cache-hint warnings spelled out under the table; the cells mark every one


def cell_text_width(view: QAbstractItemView, column_width: int) -> int:
    """The room a cell of `column_width` leaves for its text: the style's margin on both sides, and the grid line."""
    margin = view.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, view) + 1
    return column_width - 2 * margin - 1


class PageTable(QTableView):
    """A QTableView that repaints no more than the rows appended to it.

    A table repaints all of its cells on every row-count change (its delayed relayout
    updates the whole viewport): for the timeline, a ~12 ms paint for every batch of
    pages a fast walk brings, though appended pages change nothing of the rows above
    them. `appending()` says that the next relayout is only such an append; that
    relayout then updates the geometries (the scroll bar) and paints the new rows where
    they are in view, or nothing when they are below a full view.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._quiet = False
        self._below = -1  # an append in view: the viewport's y from which the new rows are painted

    def appending(self) -> None:
        """Rows are about to be appended: if the last row already reaches the bottom edge, they are out of view;
        else only the new rows are painted (the rows above them stay where they are, and as they were)."""
        rows = self.model().rowCount() if self.model() is not None else 0
        if rows:
            last = rows - 1
            below = self.rowViewportPosition(last) + self.rowHeight(last)
            self._quiet = below >= self.viewport().height()
            self._below = below if not self._quiet and self.rowViewportPosition(last) >= 0 else -1

    def doItemsLayout(self) -> None:
        if self._quiet or self._below >= 0:
            below, self._quiet, self._below = self._below, False, -1
            self.updateGeometries()
            if below >= 0:
                viewport = self.viewport()
                viewport.update(QRect(0, below, viewport.width(), viewport.height() - below))
            return
        super().doItemsLayout()

    def reset(self) -> None:
        self._quiet = False  # a new walk is shown: everything is painted again
        self._below = -1
        super().reset()

    def update_columns(self, columns: Sequence[int]) -> None:
        """Repaint these columns where they are in view (the scale of their bars changed), also when the rows
        appended are out of view: the view drops the model's dataChanged while rows wait to be laid out."""
        viewport = self.viewport()
        for column in columns:
            viewport.update(QRect(self.columnViewportPosition(column), 0, self.columnWidth(column), viewport.height()))


class TimelinePanel(QWidget):
    """Shows one walk's pages; the combo box chooses which walk. Below, the names the current page held.

    The Outcome column is as wide as its widest word in the shown walk, so an
    outcome always reads whole (its tooltip tells the whole story); the cursor
    columns share the rest and elide in the middle. The page that stopped a walk
    becomes the current row, and its names show with the offending one marked. The Latency and Bytes cells
    draw their value as a bar on a scale shared by the column (`BarDelegate`); above the table, a chart of the
    walk page by page (`TimelineChart`) follows the walk shown, live or kept.

    Attributes:
        model: the `TimelineModel` behind the view.
        view: the table (its object name is given by the caller, e.g. `pageTimeline`).
        chart: the walk as a picture (`<name>Chart`); clicking a page makes its row current.
        source: the combo box of walks (`<name>Source`).
        names: the list of the current page's names (`<name>Names`), over `names_model`.
        names_label: what `names` shows (`<name>NamesLabel`).
        hints_label: the warnings about the shown walk's cache hints (`<name>CacheHints`), hidden when none.

    Signals:
        walk_chosen(str): the person chose a walk in `source` (its kind: live, failed, accepted).
    """

    walk_chosen = Signal(str)

    def __init__(self, object_name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._walks: list[Walk] = []
        self.model = TimelineModel(self)
        # A fast walk must not repaint per page: new rows are announced at most every LIVE_BATCH_MS.
        self._live_batch: Batcher[None] = Batcher(lambda _: self._sync(), LIVE_BATCH_MS, keep_last=1, parent=self)
        self.view = PageTable(self)
        self.view.setObjectName(object_name)
        self.view.setModel(self.model)
        compact_table(self.view, QAbstractItemView.SelectionBehavior.SelectItems)
        self.view.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        header = self.view.horizontalHeader()
        header.setStretchLastSection(True)
        header.setMinimumSectionSize(MIN_SECTION)
        header.setTextElideMode(Qt.TextElideMode.ElideRight)  # a cursor's heading in a narrow pane: "Cursor s…"
        self.columns = ElasticColumns(self.view, (CURSOR, NEXT), CURSOR_WIDTH_PX, (OUTCOME,), FIXED_WIDTHS)
        self.view.setItemDelegate(CellDelegate(self.view))  # a plain cell from one answer of the model
        self._bars = {LATENCY: BarDelegate("latency", self.view), BYTES: BarDelegate("bytes", self.view)}
        for column, delegate in self._bars.items():
            self.view.setItemDelegateForColumn(column, delegate)
        self.chart = TimelineChart(self.model, self)
        self.chart.setObjectName(f"{object_name}Chart")
        self.chart.page_chosen.connect(self._on_chart_page_chosen)
        self._fit_outcome()
        copy = QAction("Copy full value", self.view)
        copy.setShortcut(QKeySequence.StandardKey.Copy)
        copy.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        copy.triggered.connect(self.copy_current)
        self.view.addAction(copy)
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        self.view.selectionModel().currentRowChanged.connect(self._on_view_current_row_changed)
        self.source = QComboBox(self)
        self.source.setObjectName(f"{object_name}Source")
        self.source.currentIndexChanged.connect(self._show)
        self.source.activated.connect(self._on_source_activated)  # the person's choice, not ours
        label = QLabel("Page timeline:", self)
        label.setTextFormat(Qt.TextFormat.PlainText)
        self.names_model = PageNamesModel(self)
        self.names = QListView(self)
        self.names.setObjectName(f"{object_name}Names")
        self.names.setModel(self.names_model)
        self.names.setUniformItemSizes(True)
        self.names.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.names_label = QLabel(self)
        self.names_label.setObjectName(f"{object_name}NamesLabel")
        self.names_label.setTextFormat(Qt.TextFormat.PlainText)
        self.hints_label = QLabel(self)
        self.hints_label.setObjectName(f"{object_name}CacheHints")
        self.hints_label.setTextFormat(Qt.TextFormat.PlainText)
        self.hints_label.setWordWrap(True)
        self.hints_label.setVisible(False)
        top = QHBoxLayout()
        top.addWidget(label)
        top.addWidget(self.source, 1)
        below = QWidget(self)
        below_layout = QVBoxLayout(below)
        below_layout.setContentsMargins(0, 0, 0, 0)
        below_layout.addWidget(self.names_label)
        below_layout.addWidget(self.names)
        split = QSplitter(Qt.Orientation.Vertical, self)
        split.addWidget(self.chart)
        split.addWidget(self.view)
        split.addWidget(below)
        split.setStretchFactor(1, 1)
        split.setSizes([CHART_HEIGHT, 420, 160])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.hints_label)
        layout.addWidget(split)
        self._show_names(None)

    def set_walks(self, walks: Sequence[Walk], chosen: str | None = None) -> None:
        """Offer these walks, most relevant first; the one of the `chosen` kind is shown, else the first."""
        self._walks = list(walks)
        self.source.blockSignals(True)
        self.source.clear()
        for walk in self._walks:
            self.source.addItem(walk.label.replace("&", "&&"))
        kinds = [walk.kind for walk in self._walks]
        self.source.setCurrentIndex(kinds.index(chosen) if chosen in kinds else (0 if self._walks else -1))
        self.source.blockSignals(False)
        self._show(self.source.currentIndex())

    def _on_source_activated(self, index: int) -> None:
        if 0 <= index < len(self._walks):
            self.walk_chosen.emit(self._walks[index].kind)

    def pages_added(self) -> None:
        """The live walk grew (in the runtime's sequence): show its new rows soon, if it is the one shown."""
        index = self.source.currentIndex()
        if 0 <= index < len(self._walks) and self._walks[index].live:
            self._live_batch.add(None)

    def _sync(self) -> None:
        before = self._before()
        if self.model.waiting():  # only an append may skip the repaint
            self.view.appending()
        self.model.sync()
        self._followed(*before)

    def _before(self) -> tuple[Offence | None, int, tuple[float, float]]:
        return self.model.offence, len(self.model.cache_issues), self.model.scales()

    def _followed(self, had: Offence | None, warned: int, scales: tuple[float, float]) -> None:
        """After pages were appended to the walk shown: its bars, its hints' warnings, the page that stopped it."""
        if self.model.scales() != scales:  # a new slowest or largest page: every bar in view changes
            self.view.update_columns(BARS)
        if len(self.model.cache_issues) != warned:
            self._show_hints()
        if had is None and self.model.offence is not None:
            self._fit_outcome()
            self._go_to_offender()

    def _show(self, index: int) -> None:
        self._live_batch.clear()
        walk = self._walks[index] if 0 <= index < len(self._walks) else None
        before = self._before()
        if walk is None:
            reset = self.model.show(())
        else:
            reset = self.model.show(walk.pages, walk.related, walk.hints_required, walk.limits)
        if not reset:  # the pages shown, maybe with more after them (the live walk ended): the page chosen stays
            self._followed(*before)
            self.chart.update()
            return
        self.chart.set_current(None)
        self._show_hints()
        self._fit_outcome()
        self._show_names(None)
        self._go_to_offender()

    def _show_hints(self) -> None:
        """Say the first warnings about the shown walk's cache hints (each names its pages), and how many more."""
        issues = self.model.cache_issues
        lines = [issue.message for issue in issues[:HINT_LINES]]
        if len(issues) > HINT_LINES:
            lines.append(f"… and {len(issues) - HINT_LINES:,} more, marked in the TTL and Cache scope columns")
        count = f"{len(issues):,} warning{'s' if len(issues) != 1 else ''}"
        self.hints_label.setText(f"Cache hints ({count}):\n" + "\n".join(lines) if issues else "")
        self.hints_label.setVisible(bool(issues))

    def _go_to_offender(self) -> None:
        bad = self.model.offending_row()
        if bad is not None:
            target = self.model.index(bad, OUTCOME)
            # Current (its names show below) but not selected: the selection would paint over its red.
            self.view.selectionModel().setCurrentIndex(target, QItemSelectionModel.SelectionFlag.NoUpdate)
            self.view.scrollTo(target)
            self._show_names(bad)  # also when the current row was already this one

    def _fit_outcome(self) -> None:
        """Make the Outcome column as wide as the widest outcome shown (bold on the offending page)."""
        texts = [(self.view.font(), outcome_text("ok"))]
        bad = self.model.offending_row()
        if bad is not None:
            font = QFont(self.view.font())
            font.setBold(True)
            texts.append((font, str(self.model.index(bad, OUTCOME).data())))
        # Fractional advances, rounded up, and a pixel more: elision counts the fractions.
        need = max(math.ceil(QFontMetricsF(font).horizontalAdvance(text)) + 1 for font, text in texts)
        need = max(need - cell_text_width(self.view, 0), self.view.horizontalHeader().sectionSizeHint(OUTCOME))
        self.view.setColumnWidth(OUTCOME, need)

    def _on_view_current_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        self._show_names(current.row() if current.isValid() else None)
        self.chart.set_current(current.row() if current.isValid() else None)

    def _on_chart_page_chosen(self, row: int) -> None:
        target = self.model.index(row, self.view.currentIndex().column() if self.view.currentIndex().isValid() else 0)
        self.view.setCurrentIndex(target)
        self.view.scrollTo(target)

    def _show_names(self, row: int | None) -> None:
        pages = self.model.pages
        page = pages[row] if row is not None and 0 <= row < len(pages) else None
        self.names_model.set_page(page, self.model.offence)
        if page is None:
            self.names_label.setText("Names: select a page to list the names it held")
            return
        count = len(page.names)
        self.names_label.setText(
            f"Names on page {page.index} ({count}):" if count else f"Page {page.index} held no names"
        )
        marked = self.names_model.marked_row
        if marked is not None:
            self.names.scrollTo(self.names_model.index(marked, 0))

    def copy_current(self) -> None:
        index = self.view.currentIndex()
        if index.isValid():
            QGuiApplication.clipboard().setText(str(index.data(Role.FULL_TEXT) or ""))
