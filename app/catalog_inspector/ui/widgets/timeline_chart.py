"""A small painted chart of one walk, page by page: each page's latency as a bar, the items so far as a line, and the
budget that stopped the walk as the line it crossed. A view of the timeline's model: it keeps no page of its own.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QEvent, QPointF, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QHelpEvent, QMouseEvent, QPainter, QPaintEvent, QPalette, QPen, QPolygonF
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from catalog_inspector.core.errors import ErrorKind, outcome_text
from catalog_inspector.ui.models.page_series import BudgetLine, size_text
from catalog_inspector.ui.models.roles import tooltip
from catalog_inspector.ui.models.timeline import TimelineModel
from catalog_inspector.ui.widgets.timeline_bars import bar_color, limit_pen

__all__ = ["Drawn", "TimelineChart"]

CHART_HEIGHT = 112
PAD = 4  # pixels around the plot, and between the plot and its text rows
BAR_ALPHA = 190  # the latency bars, of 255: nothing is drawn under them but the chart's base
HATCH_ALPHA = 140  # the page that stopped the walk, hatched across the plot
EMPTY_TEXT = "No pages to draw yet"
REPAINT_DELAY_MS = 10  # after the model changes: the chart paints on its own, not inside the table's repaint
BUDGET_ROOM = 40  # a page budget's line keeps a 40th of the width after it (a slot at least), to stand clear


@dataclass(frozen=True)
class Drawn:
    """What the last paint drew: `bars` latency bars and an items line of `segments` segments, each at most the
    plot's `width` in pixels whatever the page count; the row of the page marked as the one that stopped the walk."""

    bars: int = 0
    segments: int = 0
    width: int = 0
    offending: int | None = None


class TimelineChart(QWidget):
    """The shown walk as a picture: latency bars (the page's slowest, when pages share a pixel), the items so far,
    the budget line; a tooltip per page; a click chooses that page's row.

    It repaints (a moment later) when the model announces pages (the panel batches those) or shows another walk; a paint draws at
    most one bar and one line segment per pixel of width (`PageSeries.blocks`), at any page count. Its accessible
    description says the walk in words: the pages, the items, the slowest page, where the budget line is.

    Attributes:
        drawn: what the last paint drew (`Drawn`).

    Signals:
        page_chosen(int): the person clicked the chart over a page (its row in the model).
    """

    page_chosen = Signal(int)

    def __init__(self, model: TimelineModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._model = model
        self._current: int | None = None
        self._cache: tuple[tuple[object, ...], list[QRectF], QPolygonF] | None = None
        self.drawn = Drawn()
        self._repaint = QTimer(self)
        self._repaint.setSingleShot(True)
        self._repaint.setInterval(REPAINT_DELAY_MS)
        self._repaint.timeout.connect(self.update)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.setMinimumHeight(CHART_HEIGHT // 2)
        # It paints every pixel of itself (`paintEvent` fills its rect first): a repaint while a walk goes on (every
        # few pages) need not paint the tab page's frame beneath it first.
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)
        self.setAccessibleName("Page timeline chart")
        model.modelReset.connect(self._on_model_pages_changed)
        model.rowsInserted.connect(self._on_model_pages_changed)
        self._on_model_pages_changed()

    def sizeHint(self) -> QSize:
        return QSize(240, CHART_HEIGHT)

    def set_current(self, row: int | None) -> None:
        """Mark the page of this row (the table's current one)."""
        if row != self._current:
            self._current = row
            self.update()

    def _on_model_pages_changed(self, *_args: object) -> None:
        self._cache = None
        self.setAccessibleDescription(self.summary())
        # Pages arrive with the table's new rows, and a walk shown anew repaints the window: the chart's own paint
        # comes a moment later, in an event of its own, rather than lengthening that one.
        if not self._repaint.isActive():
            self._repaint.start()

    # -- words ---------------------------------------------------------------------------------------------------
    def summary(self) -> str:
        """The walk in a sentence: pages, items, the slowest and the largest page, and where the budget line is."""
        series = self._model.series
        if not len(series):
            return "No pages shown."
        page = self._model.page
        n = len(series)
        slowest, heaviest = series.slowest or 0, series.heaviest or 0
        text = (
            f"{n:,} page{'s' if n != 1 else ''}, {series.items:,} items. The slowest is page {page(slowest).index} "
            f"({series.latency_max:,.0f} ms); the largest page {page(heaviest).index} ({size_text(series.bytes_max)})."
        )
        budget = self._model.budget
        if budget is not None:
            text += f" The walk stopped: {budget.words}; {_where(budget)}."
        return text

    def page_words(self, row: int) -> str:
        """A page's figures in words (its tooltip, before escaping)."""
        series, page = self._model.series, self._model.page(row)
        notes = []
        if row == series.slowest:
            notes.append("the slowest page")
        if row == series.heaviest and page.bytes:
            notes.append("the largest page")
        note = f" ({', '.join(notes)})" if notes else ""
        size = size_text(page.bytes) if page.bytes else "no answer"
        return (
            f"Page {page.index}{note}: {page.latency_ms:,.0f} ms, {page.items:,} items "
            f"({series.cumulative[row]:,} so far), {size}, {outcome_text(page.outcome)}"
        )

    # -- geometry ------------------------------------------------------------------------------------------------
    def plot_rect(self) -> QRectF:
        """Where the pages are drawn: inside the frame, below the legend's row, above the pages' row."""
        line = self.fontMetrics().height()
        return QRectF(self.rect()).adjusted(PAD + 1, line + 2 * PAD, -PAD - 1, -(line + 2 * PAD))

    def _slots(self) -> int:
        """Page slots across the plot: one per page, and room after the last when the page budget ran out (its
        line stands after the last page allowed, where the next one would have been drawn)."""
        budget = self._model.budget
        n = len(self._model.series)
        return n + max(1, n // BUDGET_ROOM) if budget is not None and budget.kind == ErrorKind.PAGE_LIMIT else n

    def row_at(self, x: float) -> int | None:
        """The row of the page drawn at `x` (widget coordinates), if any."""
        plot, n, slots = self.plot_rect(), len(self._model.series), self._slots()
        if not n or plot.width() <= 0 or not plot.left() <= x < plot.right():
            return None
        row = int((x - plot.left()) * slots / plot.width())
        return row if row < n else None

    def _geometry(self, plot: QRectF) -> tuple[list[QRectF], QPolygonF]:
        """The latency bars and the items line: one per block of pages, at most one block per pixel of width."""
        series = self._model.series
        n, slots = len(series), self._slots()
        budget = self._model.budget
        items_top = max(series.items, budget.value if budget is not None and budget.kind == ErrorKind.ITEM_LIMIT else 0)
        key = (n, slots, plot.x(), plot.y(), plot.width(), plot.height(), series.latency_max, items_top)
        if self._cache is not None and self._cache[0] == key:
            return self._cache[1], self._cache[2]
        size, maxima = series.blocks(int(plot.width() * n / slots))
        step = plot.width() / slots  # pixels per page
        gap = 1.0 if size * step >= 4 else 0.0  # bars a few pixels wide keep apart
        latency_top = series.latency_max or 1.0
        left, bottom, height = plot.left(), plot.bottom(), plot.height()
        cumulative = series.cumulative
        bars: list[QRectF] = []
        line = QPolygonF()
        line.append(QPointF(left, bottom))
        for block, latency in enumerate(maxima):
            first, end = block * size, min(block * size + size, n)
            tall = height * latency / latency_top
            bars.append(QRectF(left + first * step, bottom - tall, (end - first) * step - gap, tall))
            line.append(QPointF(left + end * step, bottom - height * cumulative[end - 1] / (items_top or 1)))
        self._cache = (key, bars, line)
        return bars, line

    # -- painting ------------------------------------------------------------------------------------------------
    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        palette = self.palette()
        text = palette.color(QPalette.ColorRole.Text)
        painter.fillRect(self.rect(), palette.color(QPalette.ColorRole.Base))
        painter.setPen(palette.color(QPalette.ColorRole.Mid))
        painter.drawRect(QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5))
        series, plot = self._model.series, self.plot_rect()
        if not len(series) or plot.width() < 2 or plot.height() < 2:
            painter.setPen(palette.color(QPalette.ColorRole.PlaceholderText))
            painter.drawText(QRectF(self.rect()), Qt.AlignmentFlag.AlignCenter, EMPTY_TEXT if not len(series) else "")
            self.drawn = Drawn(width=int(plot.width()))
            painter.end()
            return
        bars, line = self._geometry(plot)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(bar_color(palette, "latency", alpha=BAR_ALPHA))
        painter.drawRects(bars)
        offending = self._draw_marks(painter, plot)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(text, 1.0))  # an antialiased line of one pixel is ~15× cheaper to draw than a wider one
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPolyline(line)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        self._draw_budget(painter, plot)
        self._draw_words(painter, plot)
        painter.end()
        self.drawn = Drawn(len(bars), line.size() - 1, int(plot.width()), offending)

    def _page_span(self, plot: QRectF, row: int) -> QRectF:
        step = plot.width() / self._slots()
        return QRectF(plot.left() + row * step, plot.top(), max(step, 1.0), plot.height())

    def _draw_marks(self, painter: QPainter, plot: QRectF) -> int | None:
        """The page that stopped the walk, hatched across the plot (its row is returned); the table's current
        page, a thin line."""
        palette = self.palette()
        offence = self._model.offence  # a page's row is its index: the walk's pages are shown from the first
        bad = offence.page if offence is not None and offence.page < len(self._model.series) else None
        if bad is not None:
            hatch = QColor(palette.color(QPalette.ColorRole.Text))
            hatch.setAlpha(HATCH_ALPHA)
            painter.setBrush(QBrush(hatch, Qt.BrushStyle.BDiagPattern))
            painter.drawRect(self._page_span(plot, bad))
        current = self._current
        if current is not None and 0 <= current < len(self._model.series):
            span = self._page_span(plot, current)
            painter.setPen(QPen(palette.color(QPalette.ColorRole.Highlight), 1.0))
            painter.drawLine(QPointF(span.center().x(), plot.top()), QPointF(span.center().x(), plot.bottom()))
            painter.setPen(Qt.PenStyle.NoPen)
        return bad

    def _draw_budget(self, painter: QPainter, plot: QRectF) -> None:
        """The budget that stopped the walk, as the line it crossed: after the last page allowed, or across the
        items so far at the item budget (the byte cap is drawn across the table's Bytes bars)."""
        budget = self._model.budget
        if budget is None:
            return
        painter.setPen(limit_pen(self.palette(), 1.5))
        line = self.budget_line(plot)
        if line is not None:
            painter.drawLine(*line)

    def budget_line(self, plot: QRectF | None = None) -> tuple[QPointF, QPointF] | None:
        """Where the budget line is drawn (widget coordinates): vertical for pages, horizontal for items; None for
        the byte cap (the table draws it) and for a walk no budget stopped."""
        budget = self._model.budget
        plot = plot if plot is not None else self.plot_rect()
        if budget is None:
            return None
        if budget.kind == ErrorKind.PAGE_LIMIT:
            x = min(plot.left() + budget.value * plot.width() / self._slots(), plot.right())
            return QPointF(x, plot.top()), QPointF(x, plot.bottom())
        if budget.kind == ErrorKind.ITEM_LIMIT:
            top = max(self._model.series.items, budget.value) or 1
            y = plot.bottom() - plot.height() * budget.value / top
            return QPointF(plot.left(), y), QPointF(plot.right(), y)
        return None

    def _draw_words(self, painter: QPainter, plot: QRectF) -> None:
        """The legend above the plot, the first and last page and the budget below it."""
        series = self._model.series
        first, last = self._model.page(0).index, self._model.page(len(series) - 1).index
        palette = self.palette()
        metrics = self.fontMetrics()
        line = metrics.height()
        top = QRectF(plot.left(), PAD, plot.width(), line)
        below = QRectF(plot.left(), plot.bottom() + PAD, plot.width(), line)
        swatch = QRectF(top.left(), top.top() + line / 4, line / 2, line / 2)
        painter.fillRect(swatch, bar_color(palette, "latency", alpha=BAR_ALPHA))
        painter.setPen(palette.color(QPalette.ColorRole.Text))
        right = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
        left = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
        painter.drawText(top.adjusted(line, 0, 0, 0), left, f"latency, up to {series.latency_max:,.0f} ms")
        painter.drawText(top, right, f"── items so far, {series.items:,}")
        painter.drawText(below, left, f"page {first}")
        painter.drawText(below, right, f"page {last}")
        budget = self._model.budget
        if budget is not None:
            words = _label(budget)
            room = int(below.width()) - 2 * metrics.horizontalAdvance(f"page {last}  ")
            painter.drawText(
                below, Qt.AlignmentFlag.AlignCenter, metrics.elidedText(words, Qt.TextElideMode.ElideRight, room)
            )

    # -- the person ----------------------------------------------------------------------------------------------
    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            row = self.row_at(event.pos().x())
            if row is None:
                QToolTip.hideText()
            else:
                QToolTip.showText(event.globalPos(), tooltip(self.page_words(row)), self)
            return True
        return super().event(event)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        row = self.row_at(event.position().x())
        if row is not None and event.button() == Qt.MouseButton.LeftButton:
            self.page_chosen.emit(row)
            return
        super().mousePressEvent(event)


def _label(budget: BudgetLine) -> str:
    """The budget line's label under the chart."""
    if budget.kind == ErrorKind.PAGE_LIMIT:
        return f"┆ page budget: {budget.value:,} pages"
    if budget.kind == ErrorKind.ITEM_LIMIT:
        return f"┄ item budget: {budget.value:,} items"
    return f"byte cap {size_text(budget.value)} crossed on page {budget.page} (see Bytes)"


def _where(budget: BudgetLine) -> str:
    """Where a budget's line is drawn, for the chart's description."""
    if budget.kind == ErrorKind.PAGE_LIMIT:
        return f"its line stands after page {budget.value - 1}"
    if budget.kind == ErrorKind.ITEM_LIMIT:
        return f"its line crosses the items so far at {budget.value:,}"
    return f"its line crosses the Bytes bars of the table at {size_text(budget.value)}"
