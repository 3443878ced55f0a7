"""Double-clicking a tool in the tree opens it in the Call tab, from the first time (the README's claim), also before
the Call page was ever shown: it is built for it."""

from __future__ import annotations

from PySide6.QtCore import Qt

from catalog_inspector.ui.models.roles import Role
from tests.helpers import demo_spec
from tests.ui.conftest import Harness, shown, wait_for
from tests.ui.test_main_window import tree


def test_a_double_click_opens_the_tool_in_the_call_tab(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = harness.window([demo_spec("normal")], build_pages=False)  # no page built but Tools, as at start-up
    wait_for(qtbot, lambda: shown(window))
    wait_for(qtbot, lambda: not window.tools_pane.planning)
    assert window.pages.built("call") is None
    view = tree(window)
    model = view.model()
    row = next(r for r in range(model.rowCount()) if model.index(r, 0).data(Role.KEY) == "count_items")
    rect = view.visualRect(model.index(row, 0))
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    wait_for(qtbot, lambda: window.tabs.currentWidget() is window.pages.built("call"))
    assert window.call_panel.tool is not None and window.call_panel.tool["name"] == "count_items"
