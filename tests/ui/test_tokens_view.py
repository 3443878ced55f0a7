"""The catalog's cost in tokens in the window: the tree's Tokens column (sortable), the header's total."""

from __future__ import annotations

from PySide6.QtCore import QPersistentModelIndex, Qt

from catalog_inspector.core.catalog import count_texts, host_text
from catalog_inspector.ui.models.roles import Role
from catalog_inspector.ui.models.tool_tree import TOKENS, ToolTreeModel
from tests.ui.conftest import Harness, wait_for
from tests.ui.test_call_panel import ready_window
from tests.ui.test_main_window import tree
from tests.ui.test_tool_tree import catalog


def test_the_tree_and_the_header_say_what_each_tool_costs(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = ready_window(harness, qtbot)
    model = tree(window).model()
    wait_for(qtbot, lambda: bool(model.index(0, TOKENS).data()))
    tools = window.current.supervisor.accepted.tools.items
    expected = count_texts(host_text("tools", tool) for tool in tools)
    shown = {model.index(row, 0).data(Role.KEY): model.index(row, TOKENS).data() for row in range(model.rowCount())}
    assert shown == {tool["name"]: f"{tokens:,}" for tool, tokens in zip(tools, expected, strict=True)}
    assert model.headerData(TOKENS, Qt.Orientation.Horizontal) == "Tokens"
    assert "o200k_base" in model.index(0, TOKENS).data(Qt.ItemDataRole.ToolTipRole)
    wait_for(qtbot, lambda: f"{sum(expected):,} tokens" in window.catalog_label.text())


def test_a_header_click_sorts_by_tokens_and_a_third_gives_the_servers_order(qtbot) -> None:  # type: ignore[no-untyped-def]
    from catalog_inspector.ui.widgets.tools_pane import ToolsPane

    pane = ToolsPane()
    qtbot.addWidget(pane)
    names = ["b", "a", "c", "d"]
    pane.set_tools(catalog(names))
    pane.set_tokens({"a": 30, "b": 10, "c": 40, "d": 20})
    model: ToolTreeModel = pane.model
    kept = QPersistentModelIndex(model.index(2, 0))  # c: the selection and expansion follow their tool
    header = pane.tree.header()

    def order() -> list[str]:
        return [model.index(row, 0).data(Role.KEY) for row in range(model.rowCount())]

    assert order() == names
    header.setSortIndicator(TOKENS, Qt.SortOrder.AscendingOrder)
    assert order() == ["b", "d", "a", "c"]
    header.setSortIndicator(TOKENS, Qt.SortOrder.DescendingOrder)
    assert order() == ["c", "a", "d", "b"] and kept.row() == 0
    pane.set_tokens({"a": 1, "b": 10, "c": 40, "d": 20})  # a new count keeps the order it is sorted by
    assert order() == ["c", "d", "b", "a"]
    pane.filter.setText("a")
    assert order() == ["a"]
    pane.filter.clear()
    assert order() == ["c", "d", "b", "a"]
    header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)  # cleared: the server's order again
    assert order() == names


def test_a_tool_with_notes_alone_says_so_and_one_with_an_error_warns(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = ready_window(harness, qtbot, mode="hostile")
    model = tree(window).model()
    rows = {model.index(r, 0).data(Role.KEY): r for r in range(model.rowCount())}
    wait_for(qtbot, lambda: (model.index(rows["loose_array"], 2).data() or "").startswith("⚠ lint"))
    lints = window.app.runtime.calls.lints["calls"]
    notes_only = next(name for name, issues in lints.items() if {str(i.code.severity) for i in issues} == {"info"})
    assert model.index(rows[notes_only], 2).data().startswith("lint notes")
