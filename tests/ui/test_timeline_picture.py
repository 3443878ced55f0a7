"""The page timeline as a picture: bars on a shared scale in the Latency and Bytes cells, a chart of the walk above
the table that follows the walk shown, and the budget that stopped a walk drawn as the line it crossed."""

from __future__ import annotations

import dataclasses
import math

import pytest
from PySide6.QtCore import QEvent, QPoint, QRect, Qt
from PySide6.QtGui import QColor, QHelpEvent, QImage, QPalette
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QStyledItemDelegate,
    QStyleFactory,
    QTableView,
    QToolTip,
    QWidget,
)

from catalog_inspector.core.catalog import PageRecord
from catalog_inspector.core.config import Limits, ServerSpec
from catalog_inspector.core.errors import ErrorInfo, ErrorKind
from catalog_inspector.runtime import ServerState
from catalog_inspector.ui.models.page_series import BudgetLine
from catalog_inspector.ui.models.roles import Role, tooltip
from catalog_inspector.ui.models.timeline import BARS, BYTES, LATENCY
from catalog_inspector.ui.presenters import Walk
from catalog_inspector.ui.presenters.words import walk_limits
from catalog_inspector.ui.widgets.timeline_bars import BAR_MARGIN, BarDelegate, CellDelegate, bar_rect
from catalog_inspector.ui.widgets.timeline_chart import TimelineChart
from catalog_inspector.ui.widgets.timeline_panel import TimelinePanel
from tests.helpers import demo_spec
from tests.ui.conftest import Events, Harness, shown, wait_for

PAINT = QEvent.Type.Paint

LATENCIES = (12.0, 30.0, 240.0, 60.0, 6.0, 120.0)  # page 2 is the slow one
SIZES = (900, 4_000, 1_200, 16_000, 300, 8_000)  # page 3 is the heavy one


def _page(index: int, latency: float = 12.0, size: int = 900, items: int = 2, outcome: str = "ok") -> PageRecord:
    cursor = None if index == 0 else f"c{index}"
    names = tuple(f"tool_{index}_{n}" for n in range(items))
    return PageRecord(index, cursor, f"c{index + 1}", items, names, size, latency, outcome)


def _panel(qtbot, width: int = 640, height: int = 520) -> TimelinePanel:  # type: ignore[no-untyped-def]
    panel = TimelinePanel("pageTimeline")
    qtbot.addWidget(panel)
    panel.resize(width, height)
    panel.show()
    qtbot.waitExposed(panel)
    return panel


def _bar_length(image: QImage, cell: QRect, background: QColor) -> int:
    """How far the bar reaches from the cell's left edge, read on a line below the text (digits and "ms" have no
    descenders) and above the bar's bottom edge."""
    y = cell.top() + cell.height() - BAR_MARGIN - 1
    length = 0
    for x in range(cell.left() + 1, cell.right()):
        if image.pixelColor(x, y) == background:
            break
        length += 1
    return length


def test_each_bar_is_its_value_on_the_scale_its_column_shares_so_the_slow_and_the_heavy_page_stand_out(qtbot) -> None:  # type: ignore[no-untyped-def]
    panel = _panel(qtbot)
    pages = [_page(i, latency, size) for i, (latency, size) in enumerate(zip(LATENCIES, SIZES, strict=True))]
    panel.set_walks([Walk("Accepted catalog", pages)])
    model, view = panel.model, panel.view
    # The model says each value's share of the column's largest; the cells' text is unchanged.
    assert [model.index(r, LATENCY).data(Role.BAR).share for r in range(6)] == [v / 240.0 for v in LATENCIES]
    assert [model.index(r, BYTES).data(Role.BAR).share for r in range(6)] == [v / 16_000 for v in SIZES]
    assert all(model.index(r, c).data(Role.BAR).text == model.index(r, c).data() for r in range(6) for c in BARS)
    assert model.index(2, LATENCY).data() == "240 ms" and model.index(3, BYTES).data() == "15.6 KiB"
    assert "the slowest page shown" in model.index(2, LATENCY).data(Qt.ItemDataRole.ToolTipRole)
    assert "60.0 ms: 25% of page 2's 240.0 ms (the slowest)" in model.index(3, LATENCY).data(
        Qt.ItemDataRole.ToolTipRole
    )
    assert model.index(0, BYTES).data(Role.BAR).limit is None, "no budget stopped this walk"

    # As painted: each bar's length is its share of the cell's width, within a pixel.
    image = view.viewport().grab().toImage()
    background = view.palette().color(QPalette.ColorRole.Base)
    for column, values in ((LATENCY, LATENCIES), (BYTES, SIZES)):
        lengths = [_bar_length(image, view.visualRect(model.index(r, column)), background) for r in range(6)]
        cells = [view.visualRect(model.index(r, column)) for r in range(6)]
        expected = [bar_rect(cell, v / max(values)).width() for cell, v in zip(cells, values, strict=True)]
        assert lengths.index(max(lengths)) == values.index(max(values)), "the largest value has the longest bar"
        for length, width in zip(lengths, expected, strict=True):
            assert abs(length - width) <= 1.0, (lengths, expected)
        widest = view.columnWidth(column) - 3  # the cell less its margins and the grid line
        for length, value in zip(lengths, values, strict=True):
            assert abs(length / widest - value / max(values)) <= 2 / widest, (column, lengths)


class _ClearBars(BarDelegate):
    """Bars in no colour at all: what is left is the cell as the delegate paints it without its bar."""

    def _color(self, palette: QPalette, selected: bool) -> QColor:
        return QColor(0, 0, 0, 0)


@pytest.mark.parametrize("style", ["Fusion", "Windows"])
def test_a_cell_with_a_bar_keeps_its_text_pixel_for_pixel_as_qt_paints_it(qtbot, style: str) -> None:  # type: ignore[no-untyped-def]
    panel = _panel(qtbot)
    panel.view.setStyle(QStyleFactory.create(style))
    pages = [_page(i, 1.5 * i + 0.2, 100 * i + 37 * i * i) for i in range(30)]
    # Too wide for its cell: elided (a row the columns' fitting does not measure: not among the first or last few).
    pages[10] = _page(10, 123_456_789.0, 123_456_789)
    panel.set_walks([Walk("Accepted catalog", pages)])
    view, model = panel.view, panel.model
    view.scrollToTop()
    QApplication.processEvents()  # the new style's layout
    cells = view.visualRect(model.index(0, BYTES)).united(view.visualRect(model.index(20, LATENCY)))
    assert view.fontMetrics().horizontalAdvance(model.index(10, LATENCY).data()) > view.columnWidth(LATENCY)
    for column, delegate in panel._bars.items():
        view.setItemDelegateForColumn(column, _ClearBars(delegate.kind, view))
    ours = view.viewport().grab(cells).toImage()
    for column in BARS:
        view.setItemDelegateForColumn(column, None)  # Qt's own delegate
    qts = view.viewport().grab(cells).toImage()
    assert not ours.isNull() and ours == qts, "the same pixels: the text where and as the style draws it, elided"


def test_a_new_slowest_page_rescales_the_bars_in_view_even_when_it_arrives_below_them(qtbot) -> None:  # type: ignore[no-untyped-def]
    panel = _panel(qtbot, height=420)
    pages = [_page(n, latency=10.0 + n % 3) for n in range(60)]
    panel.set_walks([Walk("Live walk", pages, live=True, kind="live")])
    model, view = panel.model, panel.view
    first = model.index(0, LATENCY)
    assert first.data(Role.BAR).share == pytest.approx(10.0 / 12.0)
    background = view.palette().color(QPalette.ColorRole.Base)
    before = _bar_length(view.viewport().grab().toImage(), view.visualRect(first), background)
    pages.append(_page(60, latency=120.0))  # out of view, ten times slower
    panel.pages_added()
    qtbot.waitUntil(lambda: model.rowCount() == 61, timeout=5_000)
    assert first.data(Role.BAR).share == pytest.approx(10.0 / 120.0)
    qtbot.waitUntil(
        lambda: _bar_length(view.viewport().grab().toImage(), view.visualRect(first), background) < before / 5,
        timeout=5_000,
    )


def test_the_chart_draws_a_thousand_pages_in_at_most_one_bar_and_one_segment_a_pixel(qtbot) -> None:  # type: ignore[no-untyped-def]
    panel = _panel(qtbot, width=420)
    chart = panel.findChild(TimelineChart, "pageTimelineChart")
    assert chart is panel.chart and chart.isVisible()
    pages = [_page(n, latency=5.0 + n % 7, items=n % 5) for n in range(1_000)]
    pages[637] = _page(637, latency=900.0, items=3)  # one spike, sharing its pixel with other pages
    live = pages[:10]  # the runtime's own sequence, which the timeline views
    panel.set_walks([Walk("Live walk", live, live=True, kind="live")])
    qtbot.waitUntil(lambda: chart.drawn.bars == 10, timeout=5_000)
    assert chart.drawn.segments == 10, "one line segment a page while pages are wider than a pixel"
    live.extend(pages[10:])  # as the runtime appends them; the panel is told and batches them
    panel.pages_added()
    qtbot.waitUntil(lambda: panel.model.rowCount() == 1_000 and len(panel.model.series) == 1_000, timeout=5_000)
    qtbot.waitUntil(lambda: chart.drawn.bars > 10, timeout=5_000)
    drawn, plot = chart.drawn, chart.plot_rect()
    assert 0 < drawn.width == int(plot.width()) < 1_000
    assert drawn.bars <= drawn.width and drawn.segments <= drawn.width, drawn
    assert drawn.bars >= drawn.width // 2, "the pixels are used"
    bars, line = chart._geometry(plot)
    assert max(bar.height() for bar in bars) == pytest.approx(plot.height()), "the spike stays at full height"
    assert line.last().y() == pytest.approx(plot.top()), "the items line ends at the top: all the items so far"
    assert "1,000 pages" in chart.accessibleDescription() and "page 637 (900 ms)" in chart.accessibleDescription()


def test_the_chart_says_each_page_in_a_plain_text_tooltip_and_a_click_makes_its_row_current(qtbot) -> None:  # type: ignore[no-untyped-def]
    panel = _panel(qtbot)
    pages = [_page(i, latency, size) for i, (latency, size) in enumerate(zip(LATENCIES, SIZES, strict=True))]
    panel.set_walks([Walk("Accepted catalog", pages)])
    chart = panel.chart
    plot = chart.plot_rect()
    at = QPoint(int(plot.left() + plot.width() * 2.5 / 6), int(plot.center().y()))
    assert chart.row_at(at.x()) == 2
    QApplication.sendEvent(chart, QHelpEvent(QEvent.Type.ToolTip, at, chart.mapToGlobal(at)))
    qtbot.waitUntil(lambda: QToolTip.isVisible(), timeout=5_000)
    assert QToolTip.text() == tooltip("Page 2 (the slowest page): 240 ms, 2 items (6 so far), 1.2 KiB, ok")
    QToolTip.hideText()
    qtbot.mouseClick(chart, Qt.MouseButton.LeftButton, pos=at)
    assert panel.view.currentIndex().row() == 2
    assert panel.names_label.text() == "Names on page 2 (2):"
    assert chart.accessibleName() == "Page timeline chart"


def _budget_spec(mode: str, budgets: dict[str, int], *extra: str) -> ServerSpec:
    return dataclasses.replace(demo_spec(mode, *extra, name=mode), budgets=budgets)


@pytest.mark.parametrize(
    ("mode", "extra", "budgets", "line"),
    [
        ("endless", (), {"max_pages": 5}, BudgetLine(ErrorKind.PAGE_LIMIT, 5, 4)),
        (
            "many",
            ("--tools", "500", "--page-size", "100"),
            {"max_items": 250},
            BudgetLine(ErrorKind.ITEM_LIMIT, 250, 2),
        ),
        ("huge", ("--huge-mb", "0.25"), {"max_page_bytes": 100_000}, BudgetLine(ErrorKind.SIZE_LIMIT, 100_000, 1)),
    ],
    ids=["pages", "items", "bytes"],
)
def test_the_budget_that_stopped_a_walk_is_drawn_as_the_line_it_crossed(
    harness: Harness, qtbot, mode: str, extra: tuple[str, ...], budgets: dict[str, int], line: BudgetLine
) -> None:  # type: ignore[no-untyped-def]
    window = harness.window([_budget_spec(mode, budgets, *extra)])
    supervisor = window.current.supervisor if window.current is not None else None
    assert supervisor is not None
    wait_for(qtbot, lambda: supervisor.state is ServerState.FAILED)
    panel = window.tools_pane.timeline
    chart = window.findChild(TimelineChart, "pageTimelineChart")
    assert chart is panel.chart
    wait_for(qtbot, lambda: panel.source.currentText().startswith("Failed attempt"))
    model = panel.model
    assert model.budget == line and model.offending_row() == line.page
    description = chart.accessibleDescription()
    assert f"The walk stopped: {line.words}" in description
    plot = chart.plot_rect()
    ends = chart.budget_line()
    text = chart.palette().color(QPalette.ColorRole.Text)
    if line.kind == ErrorKind.PAGE_LIMIT:
        assert ends is not None and ends[0].x() == ends[1].x()
        slot = plot.width() / chart._slots()
        assert ends[0].x() == pytest.approx(plot.left() + 5 * slot), "after the fifth page, the last one allowed"
        assert "its line stands after page 4" in description
    elif line.kind == ErrorKind.ITEM_LIMIT:
        assert ends is not None and ends[0].y() == ends[1].y()
        top = max(model.series.items, 250)
        assert model.series.items == 300, "three pages of 100 items: 300 by the end of page 2"
        assert ends[0].y() == pytest.approx(plot.bottom() - plot.height() * 250 / top)
        assert "its line crosses the items so far at 250" in description
    else:
        assert ends is None, "the byte cap is drawn across the Bytes bars"
        cap = model.index(0, BYTES).data(Role.BAR).limit
        assert cap == pytest.approx(0.8), "the cap stands clear of the cells' end: the page over it shows past it"
        over_cap = model.index(1, BYTES).data(Role.BAR)
        assert over_cap.share == 1.0 and not over_cap.plain, "the page over the cap is the longest bar"
        assert model.index(1, BYTES).data() == "—", "stdio stops reading at the cap: the size is not known"
        assert "over the byte cap of 100,000 bytes" in model.index(1, BYTES).data(Qt.ItemDataRole.ToolTipRole)
        assert model.index(0, BYTES).data(Role.BAR).share == pytest.approx(model.pages[0].bytes / 125_000)
        view = window.findChild(QTableView, "pageTimeline")
        view.scrollTo(model.index(0, BYTES))
        cell = view.visualRect(model.index(0, BYTES))
        x = cell.left() + 1 + (cell.width() - 2) * cap
        image = view.viewport().grab().toImage()
        dashes = max(
            sum(image.pixelColor(column, y) == text for y in range(cell.top(), cell.bottom()))
            for column in (math.floor(x), math.ceil(x))
        )
        assert dashes >= cell.height() // 3, "a dashed line in the text's colour at the cap"
        over = view.visualRect(model.index(1, BYTES))
        offending = model.index(1, BYTES).data(Qt.ItemDataRole.BackgroundRole).color()
        assert _bar_length(image, over, offending) >= bar_rect(over, 1.0).width() - 1, "over its background, whole"
        return
    image = chart.grab().toImage()
    if line.kind == ErrorKind.PAGE_LIMIT:

        def inked(x: int) -> int:
            return sum(image.pixelColor(x, y) == text for y in range(int(plot.top()) + 1, int(plot.bottom())))

        at = round(ends[0].x())
        assert max(inked(at - 1), inked(at), inked(at + 1)) >= plot.height() / 3, "a dashed line in the text colour"
        assert inked(at + 4) <= 2, "and nothing drawn in the slot after it"
    else:
        y = round(ends[0].y())
        inked = max(
            sum(image.pixelColor(x, row) == text for x in range(int(plot.left()), int(plot.right())))
            for row in (y - 1, y, y + 1)
        )
        assert inked >= plot.width() / 3, "a dashed line in the text colour, across the plot"


def _choose(source: QComboBox, prefix: str) -> None:
    index = next(i for i in range(source.count()) if source.itemText(i).startswith(prefix))
    source.setCurrentIndex(index)
    source.activated.emit(index)


def test_the_chart_follows_the_live_walk_page_by_page(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = harness.window([demo_spec("slow", "--delay", "0.4", name="slow")])
    supervisor = window.current.supervisor if window.current is not None else None
    assert supervisor is not None
    panel: TimelinePanel = window.tools_pane.timeline
    chart = panel.chart
    seen: list[int] = []

    def live_pages_drawn() -> bool:
        if panel.source.currentText().startswith("Live walk") and chart.drawn.bars:
            seen.append(chart.drawn.bars)
        return len(set(seen)) >= 2

    # While the walk runs, each page is drawn as it arrives: one bar, then two.
    wait_for(qtbot, live_pages_drawn)
    assert sorted(set(seen))[:2] == [1, 2]
    wait_for(qtbot, lambda: shown(window))
    assert panel.source.currentText().startswith("Accepted catalog")
    wait_for(qtbot, lambda: chart.drawn.bars == 3)
    assert chart.accessibleDescription().startswith("3 pages, 3 items.")


def test_the_chart_shows_the_kept_attempt_or_the_accepted_catalog_as_chosen(harness: Harness, qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    spec = demo_spec("refresh-duplicate", "--state", str(tmp_path / "dup.json"), name="dup")
    window = harness.window([spec])
    wait_for(qtbot, lambda: shown(window))
    supervisor = window.current.supervisor if window.current is not None else None
    assert supervisor is not None
    with qtbot.waitSignal(supervisor.refresh_failed, timeout=20_000):
        window.refresh()
    panel: TimelinePanel = window.tools_pane.timeline
    chart = panel.chart
    wait_for(qtbot, lambda: panel.source.currentText().startswith("Failed attempt"))
    failed = chart.accessibleDescription()
    assert failed.startswith("3 pages") and "stopped" not in failed, "a duplicate is no budget: no line"
    assert chart.budget_line() is None
    wait_for(qtbot, lambda: chart.drawn.bars == 3 and chart.drawn.offending == 2)
    _choose(panel.source, "Accepted catalog")
    assert panel.model.offence is None
    wait_for(qtbot, lambda: chart.drawn.offending is None and chart.drawn.bars == 3)
    assert chart.accessibleDescription().startswith("3 pages, 3 items.")
    _choose(panel.source, "Failed attempt")
    assert chart.accessibleDescription() == failed
    wait_for(qtbot, lambda: chart.drawn.offending == 2)


def test_a_failed_walk_s_budget_is_the_one_its_error_names_even_after_the_entry_changed() -> None:
    now = Limits(max_pages=50, max_items=900)
    stopped = ErrorInfo(ErrorKind.PAGE_LIMIT, "the page budget of 5 ran out", 4, details={"budget": 5, "value": 6})
    assert walk_limits(now, stopped) == Limits(max_pages=5, max_items=900)
    assert walk_limits(now, ErrorInfo(ErrorKind.ITEM_LIMIT, "…", 2, details={"budget": 250})).max_items == 250
    assert walk_limits(now, ErrorInfo(ErrorKind.DUPLICATE_NAME, "…", 2, details={"name": "echo"})) == now
    assert walk_limits(now, ErrorInfo(ErrorKind.PAGE_LIMIT, "…", 2, details={"budget": True})) == now
    assert walk_limits(now, None) == now


@pytest.mark.parametrize("style", ["Fusion", "Windows"])
def test_every_plain_cell_is_painted_pixel_for_pixel_as_qt_paints_it(qtbot, style: str) -> None:  # type: ignore[no-untyped-def]
    # The timeline paints its plain cells from one answer of the model (Role.CELL): left-aligned cursors elided in
    # the middle, right-aligned numbers, hints; a row the style paints (an offender: background, bold) beside them.
    panel = _panel(qtbot, width=560)
    panel.view.setStyle(QStyleFactory.create(style))
    pages = [_page(i, 1.5 * i + 0.2, 100 * i + 37 * i * i) for i in range(30)]
    pages[10] = dataclasses.replace(pages[10], next_cursor="a-cursor-far-too-long-for-its-cell-" * 4)
    pages[29] = _page(29, 3.0, 500, outcome=str(ErrorKind.DUPLICATE_NAME))
    panel.set_walks([Walk("Failed attempt", pages)])
    view, model = panel.view, panel.model
    view.scrollTo(model.index(12, 0))
    QApplication.processEvents()  # the new style's layout
    assert model.index(10, 2).data(Role.CELL)[0] == model.index(10, 2).data()  # the same words
    assert model.index(29, 1).data(Role.CELL) is None, "an offender is painted by the style"
    first, last = view.rowAt(0), view.rowAt(view.viewport().height() - 1)
    area = view.visualRect(model.index(first, 0)).united(view.visualRect(model.index(last, model.columnCount() - 1)))
    for column, delegate in panel._bars.items():  # the bars in no colour: the text beside Qt's
        view.setItemDelegateForColumn(column, _ClearBars(delegate.kind, view))
    ours = view.viewport().grab(area).toImage()
    default = view.itemDelegate()
    for column in range(model.columnCount()):
        view.setItemDelegateForColumn(column, None)
    view.setItemDelegate(QStyledItemDelegate(view))  # Qt's own, for every cell and every role asked one by one
    qts = view.viewport().grab(area).toImage()
    assert isinstance(default, CellDelegate) and not ours.isNull() and ours == qts, "the same pixels, row for row"


def test_a_repaint_of_the_timeline_asks_the_model_once_for_each_plain_cell(qtbot, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # Qt's own delegate asks six or seven roles of every cell it paints, and lays its text out again: a full repaint
    # of the timeline was most of a frame. Each plain cell is one answer now (Role.CELL or Role.BAR).
    import catalog_inspector.ui.widgets.timeline_panel as timeline_panel

    asked: list[int] = []

    class Counted(timeline_panel.TimelineModel):
        def data(self, index, role=Qt.ItemDataRole.DisplayRole):  # type: ignore[no-untyped-def]
            asked.append(role)
            return super().data(index, role)

    monkeypatch.setattr(timeline_panel, "TimelineModel", Counted)
    panel = _panel(qtbot)
    panel.set_walks([Walk("Accepted catalog", [_page(i, 2.0 + i, 900 + i) for i in range(40)])])
    view, model = panel.view, panel.model
    QApplication.processEvents()
    asked.clear()
    view.viewport().repaint()
    rows = {view.rowAt(y) for y in range(0, view.viewport().height(), 4)} - {-1}
    cells = len(rows) * model.columnCount()
    # (A focused cell is the style's to paint, with all its roles: Qt's delegate alone asked 510 here.)
    assert cells > 50 and len(asked) <= 1.5 * cells, (len(asked), cells)


def test_a_repaint_of_the_chart_paints_nothing_beneath_it(qtbot) -> None:  # type: ignore[no-untyped-def]
    # The chart repaints every few pages of a live walk: it paints its whole rect, so nothing under it is painted.
    panel = _panel(qtbot)
    panel.set_walks([Walk("Accepted catalog", [_page(i, latency) for i, latency in enumerate(LATENCIES)])])
    chart = panel.findChild(TimelineChart, "pageTimelineChart")
    paints = Events([panel, chart, *(w for w in panel.findChildren(QWidget) if w.isAncestorOf(chart))], PAINT)
    chart.update()
    wait_for(qtbot, lambda: chart in (w for w, _, _ in paints.seen))  # the panel's first paint, the walk shown
    paints.seen.clear()
    chart.update()
    wait_for(qtbot, lambda: chart in (w for w, _, _ in paints.seen))
    assert [w for w, _, _ in paints.seen] == [chart], "nothing beneath the chart was painted"
