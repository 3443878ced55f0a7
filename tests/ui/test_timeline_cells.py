"""The page timeline reads whole: outcome cells fit their column, say everything in a tooltip, and name the duplicate."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QModelIndex, QObject, QPoint, Qt
from PySide6.QtGui import QBrush, QFont, QFontMetrics
from PySide6.QtWidgets import QApplication, QLabel, QListView, QTableView, QWidget

from catalog_inspector.core.catalog import Offence as CarriedOffence
from catalog_inspector.core.catalog import PageRecord
from catalog_inspector.core.config import Limits, ServerSpec
from catalog_inspector.core.errors import ErrorKind
from catalog_inspector.runtime import ServerState
from catalog_inspector.ui.main_window import MainWindow
from catalog_inspector.ui.models.roles import Role
from catalog_inspector.ui.models.timeline import (
    OFFENDING_BACKGROUND,
    OUTCOME,
    RELATED_BACKGROUND,
    Offence,
    PageNamesModel,
    TimelineModel,
)
from catalog_inspector.ui.presenters import Walk
from catalog_inspector.ui.widgets.timeline_panel import CURSOR_WIDTH_PX, TimelinePanel, cell_text_width
from tests.helpers import ROOT, demo_spec, forked
from tests.ui.conftest import Harness, wait_for


def cell_font(view: QTableView, index: QModelIndex) -> QFont:
    """The font the view paints this cell with: the model's FontRole resolved against the view's font."""
    font = index.data(Qt.ItemDataRole.FontRole)
    return QFont(font).resolve(view.font()) if isinstance(font, QFont) else QFont(view.font())


def assert_reads_whole(view: QTableView, index: QModelIndex) -> None:
    """The cell's text fits its column as painted (no elision), and the column is inside the viewport."""
    text = str(index.data())
    metrics = QFontMetrics(cell_font(view, index))
    width = view.columnWidth(index.column())
    room = cell_text_width(view, width)
    assert metrics.horizontalAdvance(text) <= room, f"{text!r} needs {metrics.horizontalAdvance(text)} px, has {room}"
    assert metrics.horizontalAdvance(text) <= width
    assert metrics.elidedText(text, view.textElideMode(), room) == text
    right = view.columnViewportPosition(index.column()) + width
    assert 0 <= view.columnViewportPosition(index.column()) and right <= view.viewport().width(), (
        "scrolled out of sight"
    )


def failed_window(harness: Harness, qtbot, mode: str) -> MainWindow:  # type: ignore[no-untyped-def]
    window = harness.window([demo_spec(mode, name=mode)])
    supervisor = window.current.supervisor if window.current is not None else None
    assert supervisor is not None
    wait_for(qtbot, lambda: supervisor.state is ServerState.FAILED)
    return window


def test_a_duplicate_reads_whole_and_its_name_is_marked_on_both_pages(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = failed_window(harness, qtbot, "duplicate")
    view = window.findChild(QTableView, "pageTimeline")
    pages = view.model()
    assert pages.rowCount() == 3
    outcome = pages.index(2, OUTCOME)
    assert outcome.data() == "duplicate name" and outcome.data(Role.OFFENDING) is True
    assert cell_font(view, outcome).bold()
    assert_reads_whole(view, outcome)
    assert_reads_whole(view, pages.index(0, OUTCOME))
    full = "Duplicate name: 'echo' appears again on this page (first seen on page 0)"
    assert outcome.data(Role.FULL_TEXT) == full
    assert outcome.data(Qt.ItemDataRole.ToolTipRole).startswith("<p>"), "tooltips are escaped plain text"
    assert "appears again on this page (first seen on page 0)" in outcome.data(Qt.ItemDataRole.ToolTipRole)

    # The offending page is the current one, and its names show with the duplicate marked.
    assert view.currentIndex().row() == 2
    names = window.findChild(QListView, "pageTimelineNames").model()
    label = window.findChild(QLabel, "pageTimelineNamesLabel")
    assert label.text() == "Names on page 2 (3):"
    shown = [names.index(r, 0).data() for r in range(names.rowCount())]
    assert "echo" in shown and len(shown) == 3
    for row in range(names.rowCount()):
        item = names.index(row, 0)
        marked = item.data(Role.KEY) == "echo"
        assert item.data(Role.OFFENDING) is marked and item.data(Role.RELATED) is False
        background = item.data(Qt.ItemDataRole.BackgroundRole)
        font = item.data(Qt.ItemDataRole.FontRole)
        if marked:
            assert isinstance(background, QBrush) and background.color().name() == OFFENDING_BACKGROUND
            assert isinstance(font, QFont) and font.bold()
        else:
            assert background is None and font is None

    # The page with the first copy marks it too, in its own colour.
    view.setCurrentIndex(pages.index(0, 0))
    assert label.text() == "Names on page 0 (1):"
    first = names.index(0, 0)
    assert first.data() == "echo" and first.data(Role.RELATED) is True and first.data(Role.OFFENDING) is False
    assert first.data(Qt.ItemDataRole.BackgroundRole).color().name() == RELATED_BACKGROUND
    view.setCurrentIndex(pages.index(1, 0))
    assert label.text() == "Page 1 held no names" and names.rowCount() == 0


def named_errors_spec(*extra: str) -> ServerSpec:
    server = forked("tests.fixtures.named_errors_server")
    return ServerSpec(name="named", command=server[0], args=(*server[1:], *extra), cwd=str(ROOT))


def test_a_page_refused_with_a_code_names_it_in_its_cell_and_says_its_data_in_the_tooltip(
    harness: Harness, qtbot
) -> None:  # type: ignore[no-untyped-def]
    window = harness.window([named_errors_spec("--list-error", "-32022")])
    supervisor = window.current.supervisor if window.current is not None else None
    assert supervisor is not None
    wait_for(qtbot, lambda: supervisor.state is ServerState.FAILED)
    view = window.findChild(QTableView, "pageTimeline")
    outcome = view.model().index(0, OUTCOME)
    assert outcome.data() == "JSON-RPC -32022: unsupported protocol version"
    assert_reads_whole(view, outcome)
    full = "The server answered with an error: JSON-RPC -32022 (unsupported protocol version; the server supports 2025-11-25)"
    assert outcome.data(Role.FULL_TEXT) == full
    assert "the server supports 2025-11-25" in outcome.data(Qt.ItemDataRole.ToolTipRole)


def test_a_repeated_cursor_reads_whole_and_says_which_page_it_was_sent_for(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = failed_window(harness, qtbot, "cycle")
    view = window.findChild(QTableView, "pageTimeline")
    pages = view.model()
    last = pages.index(pages.rowCount() - 1, OUTCOME)
    assert last.data() == "repeated cursor"
    assert_reads_whole(view, last)
    repeated = pages.index(last.row(), 2).data(Role.FULL_TEXT)
    sent_for = next(r for r in range(pages.rowCount()) if pages.index(r, 1).data(Role.FULL_TEXT) == repeated)
    assert last.data(Role.FULL_TEXT).startswith("Repeated cursor (the walk would loop): this page's next cursor ")
    assert last.data(Role.FULL_TEXT).endswith(f"was already sent for page {sent_for}")
    names = window.findChild(QListView, "pageTimelineNames").model()
    assert names.rowCount() == int(pages.index(last.row(), 3).data()), "the offending page's names are listed"
    assert not any(names.index(r, 0).data(Role.OFFENDING) for r in range(names.rowCount())), "no name to blame"


def _page(index: int, outcome: str = "ok") -> PageRecord:
    cursor = None if index == 0 else f"cursor-{index:04d}-ZmFrZS1vcGFxdWUtY3Vyc29y"
    return PageRecord(
        index, cursor, f"cursor-{index + 1:04d}-ZmFrZS1vcGFxdWUtY3Vyc29y", 2, ("a", "b"), 900, 12.0, outcome
    )


@pytest.mark.parametrize("kind", list(ErrorKind), ids=str)
def test_every_outcome_reads_whole_in_a_narrow_timeline(qtbot, kind: ErrorKind) -> None:  # type: ignore[no-untyped-def]
    panel = TimelinePanel("pageTimeline")
    qtbot.addWidget(panel)
    panel.resize(540, 400)  # the timeline's share of the 1400-pixel window
    panel.show()
    qtbot.waitExposed(panel)
    panel.set_walks([Walk("Failed attempt", [_page(0), _page(1), _page(2, str(kind))])])
    outcome = panel.model.index(2, OUTCOME)
    assert outcome.data() == kind.outcome
    assert_reads_whole(panel.view, outcome)
    assert outcome.data(Role.FULL_TEXT).startswith(kind.heading)
    # The cursors share what the other columns leave, never less than their minimum (the table scrolls sideways
    # to the cache hints only in a pane too narrow for that).
    assert min(panel.view.columnWidth(1), panel.view.columnWidth(2)) >= CURSOR_WIDTH_PX, "the cursors keep their room"


def test_the_names_model_passes_the_model_tester_and_marks_a_same_page_duplicate(qtmodeltester) -> None:  # type: ignore[no-untyped-def]
    carried = CarriedOffence("dup\u200b", 1)  # as the enumerator carries it on the page that stopped the walk
    pages = [
        _page(0),
        PageRecord(1, "c1", None, 3, ("x", "dup\u200b", "dup\u200b"), 90, 1.0, "duplicate_name", carried),
    ]
    model = TimelineModel()
    model.show(pages)
    offence = model.offence
    assert offence == Offence(page=1, kind="duplicate_name", name="dup\u200b", first_page=1)
    assert model.index(1, OUTCOME).data(Role.FULL_TEXT) == (
        "Duplicate name: 'dup\u200b' appears again on this page (first seen earlier on the same page)"
    )
    assert "dup\\u200b" in model.index(1, OUTCOME).data(Qt.ItemDataRole.ToolTipRole), "hidden characters show"
    names = PageNamesModel()
    names.set_page(pages[1], offence)
    qtmodeltester.check(names, force_py=True)
    assert [names.index(r, 0).data() for r in range(3)] == ["x", "dup\\u200b", "dup\\u200b"]
    assert [names.index(r, 0).data(Role.OFFENDING) for r in range(3)] == [False, True, True]
    assert names.index(1, 0).data(Role.KEY) == "dup\u200b" and names.marked_row == 1
    names.set_page(pages[0], offence)
    assert names.marked_row is None and not any(names.index(r, 0).data(Role.OFFENDING) for r in range(2))


class _Paints(QObject):
    """Counts the paint events a widget gets, and keeps the rows of pixels each was asked to paint."""

    def __init__(self, widget: QWidget) -> None:
        super().__init__(widget)
        self.count = 0
        self.rects: list[tuple[int, int]] = []  # (top, bottom)
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.count += 1
            self.rects.append((event.rect().top(), event.rect().bottom()))
        return False


def test_pages_appended_below_a_full_timeline_repaint_nothing_but_rows_in_view_are_painted(qtbot) -> None:  # type: ignore[no-untyped-def]
    panel = TimelinePanel("pageTimeline")
    qtbot.addWidget(panel)
    panel.resize(540, 400)
    panel.show()
    qtbot.waitExposed(panel)
    pages = [_page(0), _page(1)]
    panel.set_walks([Walk("Live walk", pages, live=True, kind="live")])
    view, paints = panel.view, _Paints(panel.view.viewport())
    # Room below the rows: a new page is in view, and it is painted.
    before = paints.count
    pages.append(_page(2))
    panel.pages_added()
    qtbot.waitUntil(lambda: panel.model.rowCount() == 3 and paints.count > before, timeout=5_000)
    # Fill the view, then append below it: the rows are there and the scroll bar says so, without a repaint.
    pages.extend(_page(n) for n in range(3, 60))
    panel.pages_added()
    bar = view.verticalScrollBar()
    qtbot.waitUntil(lambda: panel.model.rowCount() == 60 and bar.maximum() > 0, timeout=5_000)
    last = view.rowViewportPosition(59)
    assert last < 0 or last >= view.viewport().height(), "the 60th page is below the view"
    # The vertical scroll bar came: the columns share the narrower view, and that repaint is let through first.
    QApplication.processEvents()
    QApplication.processEvents()
    maximum, before = bar.maximum(), paints.count
    pages.extend(_page(n) for n in range(60, 70))
    panel.pages_added()
    qtbot.waitUntil(lambda: panel.model.rowCount() == 70 and bar.maximum() > maximum, timeout=5_000)
    QApplication.processEvents()
    QApplication.processEvents()
    assert paints.count == before, "nothing in view changed"
    # Scrolled to the end, the appended pages are there to see.
    bar.setValue(bar.maximum())
    qtbot.waitUntil(lambda: paints.count > before, timeout=5_000)
    bottom = view.indexAt(QPoint(4, view.viewport().height() - 4))
    assert bottom.row() == 69 and bottom.data() == "69"


def test_a_page_appended_in_view_paints_its_own_row_not_the_rows_above_it(qtbot) -> None:  # type: ignore[no-untyped-def]
    # A table repaints every cell in view when rows are added: for a live walk, a full repaint for every batch.
    panel = TimelinePanel("pageTimeline")
    qtbot.addWidget(panel)
    panel.resize(540, 800)
    panel.show()
    qtbot.waitExposed(panel)
    pages = [_page(n) for n in range(3)]
    panel.set_walks([Walk("Live walk", pages, live=True, kind="live")])
    view = panel.view
    for _ in range(3):  # the rows laid out, the columns fitted to them
        QApplication.processEvents()
    assert view.viewport().height() > 6 * view.rowHeight(0), "room below the rows: no scroll bar comes"
    above = view.rowViewportPosition(2) + view.rowHeight(2)  # the bottom of the rows already shown
    paints = _Paints(view.viewport())
    pages.append(_page(3))
    panel.pages_added()
    qtbot.waitUntil(lambda: panel.model.rowCount() == 4 and bool(paints.rects), timeout=5_000)
    QApplication.processEvents()
    assert all(top >= above for top, _bottom in paints.rects), (paints.rects, above)
    assert any(top <= view.rowViewportPosition(3) <= bottom for top, bottom in paints.rects), "the new row is painted"


def test_the_live_walk_accepted_keeps_its_rows_and_the_page_chosen_without_a_reset(qtbot) -> None:  # type: ignore[no-untyped-def]
    # The same pages, given again as the accepted catalog: nothing to lay out or paint anew.
    panel = TimelinePanel("pageTimeline")
    qtbot.addWidget(panel)
    panel.show()
    pages = [_page(n) for n in range(5)]
    panel.set_walks([Walk("Live walk", pages, live=True, kind="live", hints_required=True)])
    view, model = panel.view, panel.model
    view.setCurrentIndex(model.index(3, 0))
    names = panel.names.model().rowCount()
    resets: list[bool] = []
    changed: list[int] = []
    model.modelReset.connect(lambda: resets.append(True))
    model.dataChanged.connect(lambda first, last, _roles: changed.append(last.row() - first.row() + 1))
    # With the walk's budgets now (the live walk had none): no budget stopped it, so no bar moves either.
    panel.set_walks([Walk("Accepted catalog", tuple(pages), hints_required=True, limits=Limits(max_page_bytes=10))])
    assert resets == [] and view.currentIndex().row() == 3 and panel.names.model().rowCount() == names > 0
    assert changed == [], "a column's dataChanged repaints the whole view"
    # Other pages (or the same judged by another revision's rules) are shown anew.
    panel.set_walks([Walk("Accepted catalog", tuple(pages), hints_required=False)])
    assert resets == [True]
