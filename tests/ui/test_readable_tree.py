"""The tools tab reads whole: schema keys and values at every depth, rows of one height at 10,000 tools, prose
wrapped at word boundaries in the detail pane (and anywhere only when a token is too long for that)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QModelIndex
from PySide6.QtGui import QFont, QFontMetrics, QTextOption
from PySide6.QtWidgets import QPlainTextEdit, QTreeView

from catalog_inspector.demo.catalog import Options, plan_for
from catalog_inspector.ui.widgets.panes import LONG_TOKEN, plain_text_view, set_capped_text
from catalog_inspector.ui.widgets.tables import COLUMN_MAX, KEY_ROOM, LAST_ROOM
from catalog_inspector.ui.widgets.tools_pane import DESCRIPTION_ROOM, TOOL_COLUMNS, ToolsPane

WORDS = QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere
ANYWHERE = QTextOption.WrapMode.WrapAnywhere
KEY = "someRatherLongPropertyName"  # wider than the Name column's first width once indented


def nested(depth: int) -> dict[str, Any]:
    """An object schema `depth` objects deep; the innermost property has a type and a description."""
    schema: dict[str, Any] = {"type": "string", "description": "the value at the bottom"}
    for level in range(depth):
        schema = {"type": "object", "properties": {f"{KEY}{level}": schema}}
    return schema


def pane_with(qtbot, tools: list[dict[str, Any]], width: int = 1000) -> ToolsPane:  # type: ignore[no-untyped-def]
    pane = ToolsPane()
    qtbot.addWidget(pane)
    pane.resize(width, 700)
    pane.show()
    with qtbot.waitSignal(pane.tools_applied, timeout=20_000):
        pane.set_tools(tools)
    return pane


def path_down(tree: QTreeView, depth: int) -> list[QModelIndex]:
    """Expand the first tool down to the innermost property's rows: the first child at each level
    (past "type" to "properties" and into it), as a user would click them open."""
    model = tree.model()
    index = model.index(0, 0)
    path = [index]
    while len(path) < depth:
        tree.expand(index)
        children = [model.index(row, 0, index) for row in range(model.rowCount(index))]
        if not children:
            break
        opened = [child for child in children if model.hasChildren(child)]
        index = opened[0] if opened else children[-1]
        path.append(index)
    return path


def reads_whole(tree: QTreeView, index: QModelIndex) -> bool:
    """The cell is at least as wide as its text (no elision), in the view's font."""
    return tree.visualRect(index).width() >= QFontMetrics(tree.font()).horizontalAdvance(index.data())


def test_schema_keys_and_values_read_whole_at_every_depth(qtbot) -> None:  # type: ignore[no-untyped-def]
    pane = pane_with(qtbot, [{"name": "deep", "inputSchema": nested(4)}])
    tree = pane.tree
    path = path_down(tree, 12)
    leaf_parent = path[-2]
    leaves = [tree.model().index(row, 0, leaf_parent) for row in range(tree.model().rowCount(leaf_parent))]
    assert [leaf.data() for leaf in leaves] == ["type", "description"]
    deep_keys = [index for index in path if index.data().startswith(KEY)]
    assert len(deep_keys) == 4
    fourth = deep_keys[1]  # Input schema (1) → properties (2) → key (3) → properties (4) → key (5)
    depth = 0
    ancestor = fourth.parent()
    while ancestor.isValid():
        depth += 1
        ancestor = ancestor.parent()
    assert depth >= 4
    for index in [*path[1:], *leaves]:
        assert reads_whole(tree, index), f"key {index.data()!r} is cut"
        value = index.siblingAtColumn(1)
        assert reads_whole(tree, value), f"value {value.data()!r} of {index.data()!r} is cut"
    assert tree.columnWidth(0) <= tree.indentation() * 12 + KEY_ROOM


def test_a_catalog_fits_its_names_and_titles_but_leaves_the_description_in_view(qtbot) -> None:  # type: ignore[no-untyped-def]
    long_name = "an_unusually_long_tool_name_for_some_host"
    tools = [
        {"name": long_name, "title": "Short title", "inputSchema": {"type": "object"}},
        {"name": "short", "title": "T" * 300, "description": "what it does", "inputSchema": {"type": "object"}},
    ]
    pane = pane_with(qtbot, tools, width=3000)
    tree = pane.tree
    bold = QFont(tree.font())
    bold.setBold(True)  # tool names are bold
    assert tree.visualRect(tree.model().index(0, 0)).width() >= QFontMetrics(bold).horizontalAdvance(long_name)
    assert tree.columnWidth(1) == COLUMN_MAX, "a very long title grows its column to the limit, no further"
    assert tree.header().sectionViewportPosition(4) <= tree.viewport().width() - LAST_ROOM, "descriptions stay in view"
    narrow = pane_with(qtbot, tools, width=1000)
    tree = narrow.tree
    assert TOOL_COLUMNS[1].floor <= tree.columnWidth(1) < COLUMN_MAX / 2, "no room: the title gives way to its floor"
    assert tree.columnWidth(0) >= TOOL_COLUMNS[0].floor, "a name gives way no further than its floor"
    assert tree.header().sectionViewportPosition(4) + DESCRIPTION_ROOM - 2 <= tree.viewport().width()
    qtbot.waitUntil(lambda: not tree.horizontalScrollBar().isVisible(), timeout=5_000)  # every column in view


def test_rows_have_one_height_across_the_10000_tool_list(qtbot) -> None:  # type: ignore[no-untyped-def]
    tools = plan_for("many", "tools", 0, Options(tools=10_000, page_size=10_000)).page(0).items
    odd = [
        {"name": "multi_line", "description": "first line\nsecond line\nthird line", "inputSchema": {}},
        {"name": "marks", "title": "ฏ็็็็็็็ ñ̃̃̃̃ Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǫ̗͕", "description": "中文 🚀 ǫ̗͕", "inputSchema": {}},
        {"name": "rocket 🚀", "title": "𝕿𝖎𝖙𝖑𝖊", "inputSchema": {}},
    ]
    tools = [*tools[:5], *odd, *tools[5:]]
    pane = pane_with(qtbot, tools)
    tree, model = pane.tree, pane.model
    assert tree.uniformRowHeights() and not tree.wordWrap()
    while model.rowCount() < model.matching_count():  # every row (the pane lets views fetch only at the end)
        model.fetchMore(QModelIndex())
    assert model.rowCount() == 10_003
    assert model.index(5, 4).data() == "first line …", "a multi-line description shows on one line"
    heights = {tree.visualRect(model.index(row, 0)).height() for row in range(model.rowCount())}
    assert len(heights) == 1
    (height,) = heights
    sampled = [*range(0, 10_003, 97), 5, 6, 7]
    assert {tree.sizeHintForRow(row) for row in sampled} == {height}, "no row's content asks for another height"
    with qtbot.waitSignal(pane.tools_applied, timeout=20_000):
        pane.set_tools([*odd[::-1], *tools[:50]])  # an odd row first: the height does not come from it
    assert {tree.visualRect(model.index(row, 0)).height() for row in range(model.rowCount())} == {height}


def laid_out_lines(view: QPlainTextEdit, text: str) -> list[str]:
    """The lines Qt laid out for the paragraph that is `text`."""
    block = view.document().firstBlock()
    while block.isValid() and block.text() != text:
        block = block.next()
    assert block.isValid(), "the paragraph is shown as one block"
    layout = block.layout()
    return [
        text[line.textStart() : line.textStart() + line.textLength()]
        for line in map(layout.lineAt, range(layout.lineCount()))
    ]


def test_the_detail_pane_wraps_prose_at_word_boundaries(qtbot) -> None:  # type: ignore[no-untyped-def]
    prose = " ".join(["The input schema describes each argument in detail"] * 12)
    pane = pane_with(qtbot, [{"name": "wordy", "description": prose, "inputSchema": {"type": "object"}}], width=420)
    pane.tree.setCurrentIndex(pane.model.index(0, 0))
    detail = pane.detail
    assert detail.wordWrapMode() == WORDS
    qtbot.waitUntil(lambda: len(laid_out_lines(detail, prose)) > 2, timeout=5_000)
    lines = laid_out_lines(detail, prose)
    words = set(prose.split())
    for line in lines:
        assert all(word in words for word in line.split()), f"a word broken across lines: {line!r}"


def test_a_token_too_long_for_word_wrapping_wraps_anywhere(qtbot) -> None:  # type: ignore[no-untyped-def]
    view = plain_text_view("probe")
    qtbot.addWidget(view)
    set_capped_text(view, "prose " * 10_000)
    assert view.wordWrapMode() == WORDS
    token = "x" * (LONG_TOKEN + 1)
    set_capped_text(view, f"A description, then {token}")
    assert view.wordWrapMode() == ANYWHERE, "an unbroken run lays out quadratically at word boundaries"
    set_capped_text(view, "\u00a0".join(["word"] * LONG_TOKEN))  # no-break spaces: Qt breaks nowhere in there
    assert view.wordWrapMode() == ANYWHERE
    set_capped_text(view, " ".join(["y" * LONG_TOKEN] * 5))
    assert view.wordWrapMode() == WORDS
    assert plain_text_view("fresh").wordWrapMode() == ANYWHERE, "text appended without set_capped_text wraps safely"
