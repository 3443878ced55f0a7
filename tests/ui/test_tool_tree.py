"""The tool tree applies any catalog change and any filter as one linear change, keeping the user's place.

Big changes run with the model tester attached at TESTED tools: pytest-qt's Python
tester walks every row (and every schema row) on each signal, so at 2,000 tools one
test took 30-40 s under it. That every change is one signal however many tools it
touches is checked without it, at 3,000 and 10,000 tools.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QModelIndex, QPersistentModelIndex
from PySide6.QtWidgets import QTreeView

from catalog_inspector.ui.models.roles import Role
from catalog_inspector.ui.models.tool_tree import ToolTreeModel
from catalog_inspector.ui.widgets.tools_pane import ToolsPane


def tool(name: str, description: str = "", schema_type: str = "string") -> dict[str, Any]:
    return {
        "name": name,
        "description": description or f"{name} does things",
        "inputSchema": {"type": "object", "properties": {"a": {"type": schema_type}}},
    }


def catalog(names: list[str]) -> list[dict[str, Any]]:
    return [tool(n) for n in names]


def numbered(n: int) -> list[str]:
    return [f"tool_{i:05d}" for i in range(n)]


def whole_model() -> ToolTreeModel:
    """A model that exposes every row at once (the windowing has its own tests)."""
    model = ToolTreeModel()
    model.chunk = 10**9
    return model


def in_tree(tree: QTreeView, qtmodeltester, names: list[str]) -> ToolTreeModel:  # type: ignore[no-untyped-def]
    """A whole model of `names` in a shown tree, with the model tester attached."""
    model = whole_model()
    model.set_tools(catalog(names))
    tree.setModel(model)
    tree.show()
    qtmodeltester.check(model, force_py=True)
    return model


def shown(model: ToolTreeModel) -> list[str]:
    return [model.index(row, 0).data(Role.KEY) for row in range(model.rowCount())]


def assert_children_know_their_parent(model: ToolTreeModel, rows: list[int]) -> None:
    for row in rows:
        tool_index = model.index(row, 0)
        for child_row in range(model.rowCount(tool_index)):
            child = model.index(child_row, 0, tool_index)
            assert model.parent(child) == tool_index
            grandchild = model.index(0, 0, child)
            assert not grandchild.isValid() or model.parent(grandchild) == child


class Signals:
    """Counts what a model emits."""

    def __init__(self, model: ToolTreeModel) -> None:
        self.counts: Counter[str] = Counter()
        for name in ("layoutChanged", "rowsInserted", "rowsRemoved", "rowsMoved", "modelReset", "dataChanged"):
            getattr(model, name).connect(lambda *_args, name=name: self.counts.update([name]))


TESTED = 400  # tools under the model tester: enough for moves far apart, cheap enough to walk on every signal


@pytest.fixture
def tree(qtbot) -> QTreeView:  # type: ignore[no-untyped-def]
    view = QTreeView()
    view.setUniformRowHeights(True)
    qtbot.addWidget(view)
    return view


# -- reorders -------------------------------------------------------------------


@pytest.mark.parametrize(
    "reorder",
    [
        pytest.param(lambda names: names[::-1], id="reversed"),
        pytest.param(lambda names: names[1:] + names[:1], id="first-to-last"),
    ],
)
def test_a_reordered_catalog_moves_rows_keeping_expansion_and_current_row(qtmodeltester, tree, reorder) -> None:  # type: ignore[no-untyped-def]
    names = numbered(TESTED)
    model = in_tree(tree, qtmodeltester, names)
    expanded = QPersistentModelIndex(model.index(0, 0))
    tree.expand(model.index(0, 0))
    tree.expand(model.index(0, 0, model.index(0, 0)))  # its input schema too
    tree.setCurrentIndex(model.index(TESTED - 66, 0))
    resets: list[bool] = []
    model.modelReset.connect(lambda: resets.append(True))

    wanted = reorder(names)
    model.set_tools(catalog(wanted))

    assert resets == []
    assert shown(model) == wanted
    new_row = wanted.index(names[0])
    assert expanded.row() == new_row
    assert tree.isExpanded(model.index(new_row, 0))
    assert tree.isExpanded(model.index(0, 0, model.index(new_row, 0)))
    assert tree.currentIndex().data(Role.KEY) == names[TESTED - 66]
    assert [index.data(Role.KEY) for index in tree.selectionModel().selectedRows()] == [names[TESTED - 66]]
    assert_children_know_their_parent(model, [0, new_row, TESTED - 1])


def test_ten_thousand_tools_reverse_with_children_and_persistent_indexes_following() -> None:
    names = numbered(10_000)
    model = whole_model()
    model.set_tools(catalog(names))
    held = {row: QPersistentModelIndex(model.index(0, 0, model.index(row, 0))) for row in (0, 5000, 9999)}
    model.set_tools(catalog(names[::-1]))
    assert shown(model) == names[::-1]
    for old_row, child in held.items():
        assert child.isValid() and child.parent().row() == 9999 - old_row
        assert child.parent().data(Role.KEY) == names[old_row]
    assert_children_know_their_parent(model, [0, 4999, 9999])


@pytest.mark.parametrize("n", [10, 3000])
def test_a_reorder_is_one_layout_change_however_many_tools_move(n: int) -> None:
    names = numbered(n)
    model = whole_model()
    model.set_tools(catalog(names))
    rng = random.Random(n)
    for wanted in (names[::-1], names[1:] + names[:1], rng.sample(names, n)):
        signals = Signals(model)
        model.set_tools(catalog(wanted))
        # Row-by-row moves would emit O(n) signals (and renumber O(n) rows each time).
        assert signals.counts == Counter(layoutChanged=1)
        names = wanted


def test_half_added_and_half_removed_keep_survivors_in_place(qtmodeltester, tree) -> None:  # type: ignore[no-untyped-def]
    names = numbered(TESTED)
    model = in_tree(tree, qtmodeltester, names)
    survivor, removed = names[10], names[11]
    tree.expand(model.index(10, 0))
    tree.expand(model.index(11, 0))
    tree.setCurrentIndex(model.index(10, 0))
    gone = QPersistentModelIndex(model.index(0, 0, model.index(11, 0)))

    wanted = []
    for i, name in enumerate(names):
        if i % 2 == 0:
            wanted.append(name)
        else:
            wanted.append(f"new_{i:05d}")  # takes the place of a removed tool
    model.set_tools(catalog(wanted))

    assert shown(model) == wanted
    assert not gone.isValid()
    row = wanted.index(survivor)
    assert tree.isExpanded(model.index(row, 0))
    assert tree.currentIndex().data(Role.KEY) == survivor
    assert [index.data(Role.KEY) for index in tree.selectionModel().selectedRows()] == [survivor]
    assert removed not in model.tool_names()
    assert not tree.isExpanded(model.index(wanted.index("new_00011"), 0))
    assert_children_know_their_parent(model, [0, 1, row, TESTED - 1])


def test_every_description_edited_is_one_data_change_and_keeps_schema_rows(qtmodeltester, tree) -> None:  # type: ignore[no-untyped-def]
    names = numbered(TESTED)
    model = whole_model()
    model.set_tools(catalog(names))
    tree.setModel(model)
    qtmodeltester.check(model, force_py=True)
    tree.expand(model.index(7, 0))
    schema_row = QPersistentModelIndex(model.index(0, 0, model.index(7, 0)))
    signals = Signals(model)
    model.set_tools([tool(n, description=f"{n} now forwards everything") for n in names])
    assert signals.counts == Counter(dataChanged=1)
    assert model.index(TESTED - 1, 4).data() == f"tool_{TESTED - 1:05d} now forwards everything"
    assert schema_row.isValid() and tree.isExpanded(model.index(7, 0))


def test_a_changed_schema_replaces_the_schema_rows_of_an_expanded_tool_that_moves(qtmodeltester) -> None:  # type: ignore[no-untyped-def]
    model = whole_model()
    model.set_tools(catalog(["a", "b", "c"]))
    qtmodeltester.check(model, force_py=True)
    type_row = QPersistentModelIndex(model.index(0, 0, model.index(0, 0, model.index(1, 0))))
    assert type_row.data() == "type"
    model.set_tools([tool("c"), tool("b", schema_type="integer"), tool("a")])
    assert not type_row.isValid()
    properties = model.index(1, 0, model.index(0, 0, model.index(1, 0)))
    a_type = model.index(0, 0, model.index(0, 0, properties))
    assert a_type.data() == "type" and a_type.siblingAtColumn(1).data() == '"integer"'


# -- any change, by property -----------------------------------------------------

NAMES = ["alpha", "Beta", "gamma", "delta", "eps", "zeta", "eta", "theta"]
TOOL = st.tuples(
    st.sampled_from(NAMES),
    st.sampled_from(["", "reads files", "WRITES files"]),  # description ("" → "<name> does things")
    st.sampled_from(["string", "integer"]),  # the schema
)


def _wanted(entries: list[tuple[str, str, str]], needle: str) -> list[tuple[str, str, str]]:
    """The oracle: first occurrence of each name, in order, whose name or description holds the needle."""
    seen: dict[str, tuple[str, str, str]] = {}
    for entry in entries:
        seen.setdefault(entry[0], entry)
    folded = needle.casefold().strip()
    return [e for e in seen.values() if folded in f"{e[0]}\n{e[1] or e[0] + ' does things'}".casefold()]


@settings(max_examples=300, deadline=None)
@given(
    before=st.lists(TOOL, max_size=10),
    after=st.lists(TOOL, max_size=10),
    needle=st.sampled_from(["", "ETA", "files", "writes", "a"]),
)
def test_any_change_shows_the_wanted_rows_and_keeps_every_survivor(qapp, before, after, needle) -> None:  # type: ignore[no-untyped-def]
    model = whole_model()
    if needle:
        model.set_filter(needle)
    model.set_tools([tool(*entry) for entry in before])
    view = QTreeView()
    view.setModel(model)
    held: dict[str, tuple[QPersistentModelIndex, QPersistentModelIndex, QPersistentModelIndex]] = {}
    for row in range(model.rowCount()):
        index = model.index(row, 0)
        view.expand(index)
        held[index.data(Role.KEY)] = (
            QPersistentModelIndex(index),
            QPersistentModelIndex(model.index(row, 4)),
            QPersistentModelIndex(model.index(0, 0, index)),
        )
    old = {e[0]: e for e in _wanted(before, needle)}

    model.set_tools([tool(*entry) for entry in after])

    wanted = _wanted(after, needle)
    assert shown(model) == [e[0] for e in wanted]
    assert_children_know_their_parent(model, list(range(model.rowCount())))
    for row, (name, _description, schema) in enumerate(wanted):
        assert model.index(row, 4).data().startswith(_description or name)
        if name in held:
            first, last, child = held[name]
            assert (first.row(), first.data(Role.KEY), last.row(), last.column()) == (row, name, row, 4)
            assert view.isExpanded(model.index(row, 0))
            # Schema rows survive unless the schema they show changed.
            assert child.isValid() == (old[name][2] == schema)
            assert not child.isValid() or child.parent() == QModelIndex(first)
    for name, indexes in held.items():
        if name not in {e[0] for e in wanted}:
            assert not any(index.isValid() for index in indexes)


# -- the filter ------------------------------------------------------------------


def filtered_catalog() -> list[dict[str, Any]]:
    return [
        tool("read_file", "Reads a FILE from disk"),
        tool("write_file", "Writes a file"),
        tool("Search", "Looks things up"),
        tool("delete_everything", "Removes all data"),
    ]


def test_the_filter_matches_names_and_descriptions_ignoring_case() -> None:
    model = whole_model()
    model.set_tools(filtered_catalog())
    model.set_filter("file")
    assert shown(model) == ["read_file", "write_file"]
    model.set_filter("SEARCH")
    assert shown(model) == ["Search"]
    model.set_filter("  removes ALL ")
    assert shown(model) == ["delete_everything"]
    model.set_filter("nothing like this")
    assert shown(model) == []
    assert model.tool_names() == [t["name"] for t in filtered_catalog()]


def test_clearing_the_filter_restores_every_tool_in_server_order() -> None:
    model = whole_model()
    model.set_tools(filtered_catalog())
    for needle in ("f", "fi", "fil", "file", "writes", "w", ""):
        model.set_filter(needle)
    assert shown(model) == [t["name"] for t in filtered_catalog()]


def test_a_tool_the_filter_keeps_keeps_all_its_schema_rows() -> None:
    model = whole_model()
    model.set_tools(filtered_catalog())
    model.set_filter("write")
    kept = model.index(0, 0)
    schema = model.index(0, 0, kept)
    assert model.rowCount(kept) == 1 and model.rowCount(schema) == 2
    assert model.index(1, 0, schema).data() == "properties"


def test_a_keystroke_is_at_most_one_layout_change_and_nothing_when_the_rows_stay(qtmodeltester) -> None:  # type: ignore[no-untyped-def]
    model = whole_model()
    model.set_tools(catalog(numbered(500)))
    qtmodeltester.check(model, force_py=True)
    signals = Signals(model)
    model.set_filter("t")  # every tool matches: nothing moves
    assert signals.counts == Counter()
    model.set_filter("tool_001")
    assert signals.counts == Counter(layoutChanged=1)
    assert shown(model) == [f"tool_001{i:02d}" for i in range(100)]


def test_the_filtered_tree_passes_the_model_tester_while_the_catalog_changes(qtmodeltester) -> None:  # type: ignore[no-untyped-def]
    model = whole_model()
    model.set_tools(filtered_catalog())
    qtmodeltester.check(model, force_py=True)
    model.set_filter("file")
    changed = [
        tool("write_file", "Writes a file", schema_type="integer"),  # moved up, schema changed
        tool("Search", "Finds a FILE"),  # now matches, by its description
        tool("file_info", "Stats a path"),  # new, matches by name
        tool("delete_everything", "Removes all data"),  # still no match; read_file is gone
    ]
    model.set_tools(changed)
    assert shown(model) == ["write_file", "Search", "file_info"]
    model.set_tools([changed[0], tool("Search", "Looks things up"), *changed[2:]])
    assert shown(model) == ["write_file", "file_info"]
    model.set_tools(changed[:1])
    assert shown(model) == ["write_file"]
    model.set_filter("")
    assert shown(model) == ["write_file"]


def test_a_catalog_applied_under_a_filter_shows_new_matches_and_drops_removed_tools() -> None:
    model = whole_model()
    model.set_tools(filtered_catalog())
    model.set_filter("read")
    assert shown(model) == ["read_file"]
    model.set_tools([tool("reader", "Another"), *filtered_catalog()[1:], tool("thread_dump", "x")])
    assert shown(model) == ["reader", "thread_dump"]
    model.set_filter("")
    assert shown(model) == ["reader", "write_file", "Search", "delete_everything", "thread_dump"]


def test_the_pane_keeps_tools_expanded_through_a_filter_that_hid_them(qtbot) -> None:  # type: ignore[no-untyped-def]
    pane = ToolsPane()
    qtbot.addWidget(pane)
    pane.show()
    pane.set_tools(filtered_catalog())
    view = pane.tree
    model = view.model()
    view.expand(model.index(0, 0))  # read_file
    view.expand(model.index(1, 0))  # write_file
    qtbot.keyClicks(pane.filter, "WRITE")
    assert shown(pane.model) == ["write_file"]
    assert view.isExpanded(model.index(0, 0))
    assert model.rowCount(model.index(0, 0)) == 1
    pane.filter.clear()
    assert view.isExpanded(model.index(0, 0)) and view.isExpanded(model.index(1, 0))
    qtbot.keyClicks(pane.filter, "read")
    view.collapse(model.index(0, 0))  # collapsed while filtered: stays collapsed afterwards
    pane.filter.clear()
    assert not view.isExpanded(model.index(0, 0)) and view.isExpanded(model.index(1, 0))


def test_the_detail_follows_the_current_tool_and_clears_when_the_filter_hides_it(qtbot) -> None:  # type: ignore[no-untyped-def]
    pane = ToolsPane()
    qtbot.addWidget(pane)
    pane.set_tools(filtered_catalog())
    pane.tree.setCurrentIndex(pane.tree.model().index(2, 0))
    assert "Name: Search" in pane.detail.toPlainText()
    pane.set_tools(filtered_catalog()[::-1])
    assert pane.tree.currentIndex().row() == 1
    assert "Name: Search" in pane.detail.toPlainText()
    qtbot.keyClicks(pane.filter, "file")
    assert pane.detail.toPlainText() == ""
