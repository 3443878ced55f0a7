"""A big catalog reaches views a chunk of rows at a time, so a change costs the same at 100,000 tools as at 10,000."""

from __future__ import annotations

from PySide6.QtCore import QPersistentModelIndex
from PySide6.QtWidgets import QTreeView

from catalog_inspector.ui.models.roles import Role
from catalog_inspector.ui.models.tool_tree import KEEP_CHUNKS, ToolTreeModel
from tests.ui.test_tool_tree import catalog, numbered, shown, tool

CHUNK = 100


def windowed(names: list[str]) -> ToolTreeModel:
    model = ToolTreeModel()
    model.chunk = CHUNK
    model.set_tools(catalog(names))
    return model


def test_views_get_the_rows_a_chunk_at_a_time(qtmodeltester) -> None:  # type: ignore[no-untyped-def]
    names = numbered(250)
    model = windowed(names)
    assert model.rowCount() == CHUNK and model.matching_count() == 250
    assert not model.index(CHUNK, 0).isValid() and model.tool_index(names[CHUNK]) == model.index(-1, 0)
    fetched = 0
    while model.canFetchMore(model.index(-1, 0)):
        model.fetchMore(model.index(-1, 0))
        fetched += 1
    assert fetched == 2 and shown(model) == names
    model.set_tools(catalog(names[::-1]))  # back to a window of rows: the tester fetches the rest itself
    qtmodeltester.check(model, force_py=True)
    assert shown(model) == names[::-1]


def test_a_tree_view_fetches_more_rows_as_it_scrolls_to_the_end(qtbot) -> None:  # type: ignore[no-untyped-def]
    model = windowed(numbered(1000))
    view = QTreeView()
    view.setUniformRowHeights(True)
    qtbot.addWidget(view)
    view.setModel(model)
    view.show()
    qtbot.waitUntil(lambda: view.verticalScrollBar().maximum() > 0, timeout=5_000)
    before = model.rowCount()
    assert before < 1000, "only what the viewport needs was fetched"
    view.verticalScrollBar().setValue(view.verticalScrollBar().maximum())
    qtbot.waitUntil(lambda: model.rowCount() > before, timeout=5_000)


def test_a_change_after_deep_scrolling_exposes_a_few_chunks_again_and_drops_the_rest() -> None:
    names = numbered(1000)
    model = windowed(names)
    for _ in range(7):
        model.fetchMore(model.index(-1, 0))
    assert model.rowCount() == 800
    near = QPersistentModelIndex(model.index(10, 0))
    far = QPersistentModelIndex(model.index(700, 0))
    model.set_tools(catalog(names[::-1]))
    assert model.rowCount() == CHUNK * KEEP_CHUNKS, "a change relays out a bounded number of rows"
    assert shown(model) == names[::-1][: CHUNK * KEEP_CHUNKS]
    assert not near.isValid(), "tool_00010 moved to row 989, past the exposed rows"
    assert far.isValid() and far.data(Role.KEY) == "tool_00700" and far.row() == 299


def test_a_filter_counts_every_match_even_before_views_fetch_them() -> None:
    model = windowed(numbered(1000))
    model.set_filter("tool_00")  # tool_00000 … tool_00999: all of them
    assert model.matching_count() == 1000 and model.rowCount() == CHUNK
    model.set_filter("tool_009")
    assert model.matching_count() == 100 and shown(model) == numbered(1000)[900:]


def test_a_big_catalog_is_planned_a_slice_per_event_and_the_newest_one_wins(qtbot) -> None:  # type: ignore[no-untyped-def]
    from catalog_inspector.ui.models.tool_plan import SLICE
    from catalog_inspector.ui.widgets.tools_pane import ToolsPane

    pane = ToolsPane()
    qtbot.addWidget(pane)
    pane.set_tools(catalog(["small_a", "small_b"]))
    assert not pane.planning and pane.model.tool_names() == ["small_a", "small_b"], "a small catalog applies at once"
    first, second = numbered(SLICE * 3), numbered(SLICE * 3)[::-1]
    slices: list[int] = []
    pane.rows_planned.connect(slices.append)
    pane.set_tools(catalog(first))
    assert pane.planning and pane.model.tool_names() == ["small_a", "small_b"], "the old catalog shows while planning"
    pane.set_tools(catalog(second))  # a newer catalog before the first was applied
    applied: list[list[str]] = []
    pane.tools_applied.connect(lambda: applied.append(pane.model.tool_names()))
    with qtbot.waitSignal(pane.tools_applied, timeout=10_000):
        pass
    assert applied == [second] and not pane.planning
    assert len(slices) >= 3, "the work was spread over several events"


def test_a_schema_change_under_an_unexposed_tool_signals_nothing_to_views() -> None:
    names = numbered(600)
    model = windowed(names)
    for _ in range(5):
        model.fetchMore(model.index(-1, 0))
    far = model.tool_index(names[550])
    assert model.rowCount(far) == 1, "its schema rows were built (a view expanded it)"
    model.set_filter("tool_0000")  # the exposure shrinks, then comes back smaller
    model.set_filter("")
    assert model.rowCount() == CHUNK
    signalled: list[int] = []
    model.rowsAboutToBeRemoved.connect(lambda parent, *_: signalled.append(parent.row()))
    model.rowsAboutToBeInserted.connect(lambda parent, *_: signalled.append(parent.row()))
    edited = catalog(names)
    edited[550] = tool(names[550], schema_type="integer")
    model.set_tools(edited)
    assert signalled == [], "row 550 is not exposed: views hold none of its rows"
    for _ in range(5):
        model.fetchMore(model.index(-1, 0))
    schema = model.index(0, 0, model.tool_index(names[550]))
    assert schema.data(Role.RAW)["properties"]["a"] == {"type": "integer"}, "rebuilt when it is shown again"


def test_the_tools_pane_tree_fetches_no_rows_on_a_relayout_only_when_scrolled_to_the_end(qtbot) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtCore import QPoint

    from catalog_inspector.ui.widgets.tools_pane import ToolsPane

    pane = ToolsPane()
    qtbot.addWidget(pane)
    pane.resize(900, 600)
    pane.show()
    qtbot.waitExposed(pane)
    model, tree = pane.model, pane.tree
    model.chunk = CHUNK
    names = numbered(1000)
    with qtbot.waitSignal(pane.tools_applied, timeout=10_000):
        pane.set_tools(catalog(names))
    tree.indexAt(QPoint(0, 0))  # the relayout Qt would do in its next event, now
    assert model.rowCount() == CHUNK, "Qt's tree fetches a chunk in every relayout unless the view asks"
    for text in ("t", "to", "too", "tool", "tool_", ""):  # every keystroke is a relayout of the rows kept
        pane.filter.setText(text)
        tree.indexAt(QPoint(0, 0))
    assert model.rowCount() == CHUNK and model.matching_count() == 1000
    with qtbot.waitSignal(pane.tools_applied, timeout=10_000):
        pane.set_tools(catalog(names[::-1]))  # a refresh that moves every row
    tree.indexAt(QPoint(0, 0))
    assert model.rowCount() == CHUNK
    assert model.tool_index(names[0]) == model.index(-1, 0), "tool_00000 is now row 999: not exposed, not numbered"
    bar = tree.verticalScrollBar()
    bar.setValue(bar.maximum())  # the person scrolls to the end: the next chunk comes
    qtbot.waitUntil(lambda: model.rowCount() == 2 * CHUNK, timeout=5_000)
    assert model.index(2 * CHUNK - 1, 0).data(Role.KEY) == names[::-1][2 * CHUNK - 1]
    assert model.tool_index(names[::-1][150]).row() == 150
