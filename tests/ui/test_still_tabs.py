"""The main window's tab widget: a tab's title set, or a page's size hint changed, repaints the tab strip alone, and
what is on screen is what Qt's own tab widget paints."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication, QLabel, QStyleFactory, QTabWidget, QTreeView, QVBoxLayout, QWidget

from catalog_inspector.ui.widgets.still_tabs import StillTabs
from tests.ui.conftest import Events

TITLES = ["Tools", "Call", "Drift", "Duplicates"]


def _tabs(qtbot, kind: type[QTabWidget]) -> tuple[QTabWidget, QWidget, QTreeView]:  # type: ignore[no-untyped-def]
    tabs = kind()
    page = QWidget()
    layout = QVBoxLayout(page)
    layout.addWidget(QLabel("a page that does not fill its background"))
    tree = QTreeView()
    layout.addWidget(tree)
    tabs.addTab(page, TITLES[0])
    for title in TITLES[1:]:
        tabs.addTab(QWidget(), title)
    tabs.setCurrentIndex(3)  # after the titles that change: its tab moves
    tabs.tabBar().setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the window shown last has the focus: no focus frames
    qtbot.addWidget(tabs)
    tabs.resize(700, 400)
    tabs.show()
    qtbot.waitExposed(tabs)
    return tabs, page, tree


def _on_screen(tabs: QTabWidget) -> QImage:
    """What the window's backing store holds now: what was painted, event by event (not painted afresh)."""
    return QApplication.primaryScreen().grabWindow(tabs.winId()).toImage().convertToFormat(QImage.Format.Format_ARGB32)


def _painted_afresh(tabs: QTabWidget) -> QImage:
    return tabs.grab().toImage().convertToFormat(QImage.Format.Format_ARGB32)


@pytest.mark.parametrize("style", ["Fusion", "Windows"])
def test_a_title_set_paints_the_strip_alone_and_shows_what_qt_paints(qtbot, style: str) -> None:  # type: ignore[no-untyped-def]
    QApplication.setStyle(QStyleFactory.create(style))
    try:
        ours, page, tree = _tabs(qtbot, StillTabs)
        theirs, _, _ = _tabs(qtbot, QTabWidget)
        qtbot.wait_until(lambda: _on_screen(ours) == _painted_afresh(theirs), timeout=5_000)  # both shown whole
        paints = Events([ours, page, tree.viewport()], QEvent.Type.Paint)
        for title in ("Drift ⚠", "Drift", "Drift", "Call with a long title", "Call"):
            paints.seen.clear()
            for tabs in (ours, theirs):
                tabs.setTabText(2 if title.startswith("Drift") else 1, title)
            qtbot.wait_until(lambda: _on_screen(ours) == _painted_afresh(theirs), timeout=5_000)
            assert all(watched is ours for watched, _, _ in paints.seen), "the page was not painted again"
            assert all(rect is not None and rect[3] < ours.tabBar().height() + 4 for *_, rect in paints.seen), (
                paints.seen
            )
        # A page's size hint changed (a table's scroll bar came): the page keeps its place and is not painted.
        paints.seen.clear()
        for tabs in (ours, theirs):
            tabs.widget(0).findChild(QTreeView).setMinimumWidth(160)
        qtbot.wait_until(lambda: _on_screen(ours) == _painted_afresh(theirs), timeout=5_000)
        assert ours.widget(0).minimumSizeHint().width() >= 160
        assert paints.seen == []
    finally:
        QApplication.setStyle(QStyleFactory.create("Fusion"))
