"""The tool tree paints its plain cells from one answer of the model (Role.CELL), pixel for pixel as Qt paints them.

A repaint of the tree in view (~25 rows, five columns) asked the model seven roles a cell and laid every text out
again: 6–8 ms of the GUI thread, half a frame, on every filter keystroke, every refresh and every walk's page.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QStyleFactory, QStyleOptionViewItem, QWidget

from catalog_inspector.ui.models.roles import Role
from catalog_inspector.ui.widgets.cell_paint import OneLineCellDelegate
from catalog_inspector.ui.widgets.tables import OneLineDelegate
from catalog_inspector.ui.widgets.tool_tree_view import ToolTreeView
from catalog_inspector.ui.widgets.tools_pane import ToolsPane


def _tools() -> list[dict[str, Any]]:
    tools: list[dict[str, Any]] = []
    for i in range(40):
        tool: dict[str, Any] = {
            "name": f"tool_{i:03d}",
            "description": f"Tool number {i} " + "does a great many things, " * (i % 4) + "\nand a second line",
            "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}},
        }
        if i % 3 == 0:
            tool["title"] = f"The {i}th tool, with a title long enough to be cut in its column"
        if i % 5 == 0:
            tool["annotations"] = {"readOnlyHint": True}
        tools.append(tool)
    tools[7]["name"] = "has space & unusual!"  # an unusual name: coloured, the style's to paint
    return tools


def _pane(qtbot, style: str | None = None) -> ToolsPane:  # type: ignore[no-untyped-def]
    pane = ToolsPane()
    qtbot.addWidget(pane)
    if style is not None:
        pane.tree.setStyle(QStyleFactory.create(style))
    pane.resize(1000, 700)
    pane.show()
    qtbot.waitExposed(pane)
    tools = _tools()
    marks = {"tool_004": "changed", "tool_009": "added", "tool_010": "removed"}  # a ghost's row: greyed, struck out
    pane.set_tools(tools, marks, frozenset({"tool_012"}))
    qtbot.waitUntil(lambda: pane.model.rowCount() == len(tools))
    pane.set_tokens({tool["name"]: 100 + 37 * i for i, tool in enumerate(tools) if i % 2})
    pane.tree.expand(pane.model.index(2, 0))  # a tool's schema rows: keys and values, not bold
    pane.tree.setCurrentIndex(pane.model.index(5, 0))  # a selected row: the style's
    QApplication.processEvents()
    return pane


@pytest.mark.parametrize("style", ["Fusion", "Windows"])
def test_every_cell_of_the_tree_is_painted_pixel_for_pixel_as_qt_paints_it(qtbot, style: str) -> None:  # type: ignore[no-untyped-def]
    pane = _pane(qtbot, style)
    tree, model = pane.tree, pane.model
    assert isinstance(tree.itemDelegate(), OneLineCellDelegate)
    name, title, tokens = model.index(3, 0), model.index(3, 1), model.index(3, 3)
    assert name.data(Role.CELL) == ("tool_003", False, True), "a tool's name: bold"
    assert title.data(Role.CELL)[0] == title.data() and tokens.data(Role.CELL) == ("211", True, False)
    schema_row = model.index(0, 0, model.index(2, 0))
    assert schema_row.data(Role.CELL) == (schema_row.data(), False, False), "a schema row's key: not bold"
    for marked in (4, 7, 9, 10, 12):  # changed, unusual, added, removed, flagged: a colour of their own
        assert model.index(marked, 0).data(Role.CELL) is None
    assert model.index(4, 4).data(Role.CELL) is not None and model.index(10, 4).data(Role.CELL) is None
    ours = tree.viewport().grab().toImage()
    assert isinstance(tree, ToolTreeView) and tree.plain_rows >= 15, "the plain tool rows, each in one call"
    tree.setItemDelegate(OneLineDelegate(tree))  # Qt's own painting, every role asked one by one
    qts = tree.viewport().grab().toImage()
    assert tree.plain_rows == 0, "Qt's own delegate: Qt's own rows"
    assert not ours.isNull() and ours == qts, "the same pixels, row for row"


@pytest.mark.parametrize("style", ["Fusion", "Windows"])
def test_rows_painted_at_once_match_qt_with_columns_moved_hidden_and_scrolled_sideways(qtbot, style: str) -> None:  # type: ignore[no-untyped-def]
    pane = _pane(qtbot, style)
    tree = pane.tree
    header = tree.header()
    header.setStretchLastSection(False)
    header.moveSection(header.visualIndex(4), 0)  # the description first: the branches go with the first column
    header.moveSection(header.visualIndex(3), 2)
    header.setSectionHidden(1, True)
    header.resizeSection(4, 700)
    tree.horizontalScrollBar().setValue(tree.horizontalScrollBar().maximum() // 2)
    QApplication.processEvents()
    assert tree.horizontalScrollBar().value() > 0, "scrolled sideways"
    ours = tree.viewport().grab().toImage()
    assert isinstance(tree, ToolTreeView) and tree.plain_rows >= 15
    tree.setItemDelegate(OneLineDelegate(tree))
    qts = tree.viewport().grab().toImage()
    assert not ours.isNull() and ours == qts, "the same pixels, row for row"


def test_a_repaint_of_the_tree_asks_the_model_once_for_each_plain_cell(qtbot) -> None:  # type: ignore[no-untyped-def]
    pane = _pane(qtbot)
    tree, model = pane.tree, pane.model
    asked: list[int] = []
    real = model.data

    def counted(index, role=Qt.ItemDataRole.DisplayRole):  # type: ignore[no-untyped-def]
        asked.append(role)
        return real(index, role)

    rows: list[tuple[int, bool]] = []
    real_rows = model.row_cells

    def counted_rows(index):  # type: ignore[no-untyped-def]
        rows.append((index.row(), index.parent().isValid()))
        return real_rows(index)

    model.data = counted  # type: ignore[method-assign]
    model.row_cells = counted_rows  # type: ignore[method-assign]
    tree.viewport().repaint()
    assert len(rows) == len(set(rows)), "a tool's row asked once, its five cells in one answer"
    cells = asked.count(Role.CELL) + 5 * tree.plain_rows
    assert tree.plain_rows >= 15 and cells >= 5 * 20, "every cell in view asked once"
    # Seven roles a cell before; now only the styled ones ask theirs: a selected row, four marked names, a ghost's row.
    assert len(asked) - cells <= (5 + 4 + 5) * 7, asked


WIDE_AND_NARROW = st.text(alphabet=st.sampled_from("iIl.,:WMmw@_ 0123456789abcXYZéß—…中"), max_size=40)


@settings(max_examples=300, deadline=None)
@given(text=WIDE_AND_NARROW, room=st.integers(min_value=0, max_value=300), bold=st.booleans())
def test_a_cell_text_is_cut_exactly_where_qt_cuts_it_whichever_way_it_is_laid_out(
    qapp: QApplication, text: str, room: int, bold: bool
) -> None:
    # Texts that surely fit, likely fit (laid out first, cut only if wider after all: the W's) and surely do not.
    option = QStyleOptionViewItem()
    option.initFrom(QWidget())
    look = OneLineCellDelegate().look(option, bold)
    for mode in (Qt.TextElideMode.ElideRight, Qt.TextElideMode.ElideMiddle):
        static, width = look.fitted(text, room, mode)
        assert static.text() == look.metrics.elidedText(text, mode, room), (text, room, mode)
        assert width == static.size().width()
