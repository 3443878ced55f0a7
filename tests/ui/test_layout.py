"""Every window and dialog reads whole on a 1280×800 screen: the main window opens within it, the tool tree's and
the page timeline's columns are all in view without a horizontal scroll bar (a real demo catalog, 3 tools and
10,000), the server dialog's budget placeholders read whole, and the dialogs fit the screen. The same at twice the
scale (`QT_SCALE_FACTOR=2`, which must be set before the QApplication: the tests run again in a subprocess)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PySide6.QtCore import QRect
from PySide6.QtGui import QAction, QFont, QFontMetrics
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QDialog,
    QLineEdit,
    QPlainTextEdit,
    QSplitter,
    QStyle,
    QStyleOptionFrame,
    QWidget,
)

from catalog_inspector.ui.dialogs.server import ServerDialog
from catalog_inspector.ui.main_window import MainWindow
from catalog_inspector.ui.widgets.column_fit import shared_widths
from tests.helpers import ROOT, demo_spec
from tests.ui.conftest import Harness, shown, wait_for

SCREEN = QRect(0, 0, 1280, 800)
SCALE = os.environ.get("LAYOUT_SCALE")  # set by the subprocess run at twice the scale


def columns_in_view(view: QAbstractItemView) -> list[str]:
    """What is wrong with a view's columns: a horizontal scroll bar, a section out of the viewport ([]: none)."""
    header = view.header() if hasattr(view, "header") else view.horizontalHeader()  # type: ignore[attr-defined]
    width = view.viewport().width()
    wrong = ["a horizontal scroll bar"] if view.horizontalScrollBar().isVisible() else []
    for column in range(header.count()):
        left, size = header.sectionViewportPosition(column), header.sectionSize(column)
        if header.isSectionHidden(column) or left < 0 or left + size > width or size < header.minimumSectionSize():
            wrong.append(f"column {column} at {left}+{size} of {width}")
    return wrong


def laid_out(window: MainWindow) -> MainWindow:
    window.fit_screen(SCREEN)
    QApplication.processEvents()
    return window


@pytest.mark.parametrize("mode", ["normal", "many"])
def test_the_window_opens_within_the_screen_with_every_column_in_view(harness: Harness, qtbot, mode: str) -> None:  # type: ignore[no-untyped-def]
    window = laid_out(harness.window([demo_spec(mode, name="demo")]))
    if SCALE:
        assert window.devicePixelRatio() == float(SCALE), "the subprocess runs at the scale it was asked for"
    frame = window.frameGeometry()
    assert frame.width() <= SCREEN.width() and frame.height() <= SCREEN.height(), "no larger than the screen"
    sidebar, pages = window.splitter.sizes()
    assert sidebar >= window.server_list.sizeHintForIndex(window.servers.index(0)).width(), "the sidebar reads whole"
    wait_for(qtbot, lambda: shown(window) and not window.tools_pane.planning, timeout=60_000)
    tree, timeline = window.tools_pane.tree, window.tools_pane.timeline.view
    wait_for(qtbot, lambda: not columns_in_view(tree) and not columns_in_view(timeline), timeout=5_000)
    description = tree.header().sectionSize(tree.header().count() - 1)
    assert description >= 100, "the descriptions keep their room"
    bold = QFont(tree.font())
    bold.setBold(True)  # names are bold
    names = [tree.model().index(row, 0) for row in range(min(tree.model().rowCount(), 20))]
    widest = max(QFontMetrics(bold).horizontalAdvance(index.data()) for index in names)
    assert min(tree.visualRect(index).width() for index in names) > widest, "the names read whole"
    if mode != "normal":
        return
    checks = window.checks_pane  # the clean demo: 2 tools past the first page, none excluded, no collision
    window.tabs.setCurrentWidget(checks)
    wait_for(qtbot, lambda: checks.first_page_view.isVisible())
    assert not checks.excluded_view.isVisible() and not checks.collisions_view.isVisible(), "no large empty box"
    assert checks.bottom.height() < checks.top.height() / 4, "the check that lists something has the room"
    window.tabs.setCurrentWidget(window.drift_pane)
    wait_for(qtbot, lambda: not columns_in_view(window.drift_pane.view), timeout=5_000)
    # The Call tab's raw JSON beside the form: a column to read, not a ~200 px strip.
    window.tabs.setCurrentWidget(window.call_panel)
    text = window.call_panel.findChild(QPlainTextEdit, "callArguments")
    form = window.call_panel.findChild(QWidget, "callForm")
    wait_for(qtbot, lambda: text.isVisible() and form.isVisible())
    assert abs(text.width() - form.width()) <= 0.1 * form.width(), (text.width(), form.width())  # was ~200 of ~550


def test_a_timeline_shown_again_starts_at_its_first_column(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = laid_out(harness.window([demo_spec("normal", name="a"), demo_spec("normal", name="b")]))
    wait_for(qtbot, lambda: shown(window) and not window.tools_pane.planning)
    timeline = window.tools_pane.timeline.view
    split = window.tools_pane.timeline.parentWidget()
    assert isinstance(split, QSplitter)
    split.setSizes([900, 200])  # a timeline too narrow for its columns: it scrolls sideways
    QApplication.processEvents()
    timeline.horizontalScrollBar().setValue(timeline.horizontalScrollBar().maximum())
    window.select_server("b")
    wait_for(qtbot, lambda: shown(window) and window.current is not None and window.current.name == "b")
    assert timeline.horizontalScrollBar().value() == 0, "another server's walk is shown from its first column"


def placeholder_room(line: QLineEdit) -> int:
    """The width a line edit shows its text in: its contents rect, less the line edit's own margin each side."""
    option = QStyleOptionFrame()
    line.initStyleOption(option)
    return line.style().subElementRect(QStyle.SubElement.SE_LineEditContents, option, line).width() - 4


def test_the_server_dialog_reads_whole_at_its_default_size(qtbot) -> None:  # type: ignore[no-untyped-def]
    dialog = ServerDialog(None)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    assert dialog.width() <= SCREEN.width() and dialog.height() <= SCREEN.height() - 40
    assert len(dialog.budgets) == 7
    for key, line in dialog.budgets.items():
        text = line.placeholderText()
        assert text.startswith(key) and "e+" not in text, text
        assert line.fontMetrics().horizontalAdvance(text) <= placeholder_room(line), f"{text!r} is cut"


def test_each_dialog_of_the_window_fits_the_screen(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = laid_out(harness.window([demo_spec("normal", name="demo")]))
    wait_for(qtbot, lambda: shown(window))
    for name in ("aboutAction", "shortcutsAction", "paletteAction"):
        before = set(QApplication.topLevelWidgets())
        window.findChild(QAction, name).trigger()
        opened = [w for w in QApplication.topLevelWidgets() if w not in before and isinstance(w, QDialog)]
        wait_for(qtbot, lambda opened=opened: bool(opened) and all(w.isVisible() for w in opened))
        for dialog in opened:
            size = dialog.frameGeometry()
            assert size.width() <= SCREEN.width() and size.height() <= SCREEN.height(), name
            dialog.close()


@pytest.mark.long
@pytest.mark.skipif(bool(SCALE), reason="this is the run at twice the scale")
def test_the_layout_holds_at_twice_the_scale() -> None:
    """The tests above once more in a process of their own, with QT_SCALE_FACTOR=2 (device pixel ratio 2)."""
    env = {**os.environ, "QT_SCALE_FACTOR": "2", "LAYOUT_SCALE": "2", "QT_QPA_PLATFORM": "offscreen"}
    env.pop("PYTEST_XDIST_WORKER", None)
    here = os.path.relpath(__file__, ROOT)
    tests = [f"{here}::{name}" for name in (
        "test_the_window_opens_within_the_screen_with_every_column_in_view",
        "test_the_server_dialog_reads_whole_at_its_default_size",
    )]  # fmt: skip
    command = [sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider", *tests]
    run = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "3 passed" in run.stdout.splitlines()[-1], run.stdout[-500:]


@given(
    st.lists(st.tuples(st.integers(0, 400), st.integers(0, 400)), min_size=1, max_size=6),
    st.integers(0, 2_000),
)
def test_shared_widths_fit_what_they_can_and_never_pass_a_floor_or_a_need(
    columns: list[tuple[int, int]], available: int
) -> None:
    needs = [need for need, _ in columns]
    floors = [floor for _, floor in columns]
    widths = shared_widths(needs, floors, available)
    lowest = [min(floor, need) for floor, need in columns]
    assert all(low <= width <= need for low, width, need in zip(lowest, widths, needs, strict=True))
    if sum(needs) <= available:
        assert widths == needs, "room for all: each as wide as it needs"
    elif sum(lowest) <= available:
        assert sum(widths) <= available, "they fit"
        assert sum(widths) > available - len(widths), "and give up no more than they must (rounding)"
    else:
        assert widths == lowest, "no room even for the floors: each at its floor"
