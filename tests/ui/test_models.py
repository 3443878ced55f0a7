"""Every item model passes qtmodeltester; the tool tree applies catalogs without resets."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from PySide6.QtCore import QModelIndex

from catalog_inspector.core.catalog import PageRecord
from catalog_inspector.demo.catalog import base_items
from catalog_inspector.ui.models.item_list import ItemListModel
from catalog_inspector.ui.models.roles import Role
from catalog_inspector.ui.models.timeline import TimelineModel
from catalog_inspector.ui.models.tool_tree import ToolTreeModel


def tools(*names: str, schema_type: str = "string") -> list[dict[str, Any]]:
    return [
        {
            "name": n,
            "description": f"{n} does things",
            "inputSchema": {"type": "object", "properties": {"a": {"type": schema_type}, "b": [1, {"c": None}]}},
            "outputSchema": {"type": "object"},
            "annotations": {"readOnlyHint": True, "destructiveHint": False},
        }
        for n in names
    ]


def expand_all(model: ToolTreeModel, parent: QModelIndex = QModelIndex()) -> int:
    count = 0
    for row in range(model.rowCount(parent)):
        index = model.index(row, 0, parent)
        count += 1 + expand_all(model, index)
    return count


def test_tool_tree_passes_the_model_tester(qtmodeltester) -> None:  # type: ignore[no-untyped-def]
    model = ToolTreeModel()
    model.set_tools(base_items("tools"))
    expand_all(model)
    qtmodeltester.check(model, force_py=True)


def test_tool_tree_model_tester_survives_catalog_changes(qtmodeltester) -> None:  # type: ignore[no-untyped-def]
    model = ToolTreeModel()
    model.set_tools(tools("a", "b", "c"))
    qtmodeltester.check(model, force_py=True)
    expand_all(model)
    model.set_tools(tools("c", "x", "a", schema_type="integer"))
    qtmodeltester.check(model, force_py=True)


@pytest.mark.parametrize(
    ("before", "after"),
    [
        (["a", "b", "c"], ["a", "c"]),
        (["a", "b", "c"], ["a", "b", "c", "d"]),
        (["a", "b", "c"], ["z", "a", "b", "c"]),
        (["a", "b", "c"], ["c", "b", "a"]),
        (["a", "b", "c", "d"], ["b", "x", "y", "d", "e"]),
        ([], ["a"]),
        (["a"], []),
    ],
)
def test_catalogs_apply_as_row_changes_never_a_reset(before: list[str], after: list[str]) -> None:
    model = ToolTreeModel()
    model.set_tools(tools(*before))
    expand_all(model)
    resets: list[bool] = []
    model.modelReset.connect(lambda: resets.append(True))
    model.set_tools(tools(*after))
    assert resets == []
    assert model.tool_names() == after
    for row, name in enumerate(after):
        index = model.index(row, 0)
        assert index.data(Role.KEY) == name
        assert model.parent(model.index(0, 0, index)) == index  # children know their parent's new row


def test_unchanged_tools_emit_nothing_and_changed_ones_only_data_changed() -> None:
    model = ToolTreeModel()
    model.set_tools(tools("a", "b"))
    changed: list[int] = []
    structural: list[str] = []
    model.dataChanged.connect(lambda top, _bottom: changed.append(top.row()))
    model.rowsInserted.connect(lambda *_: structural.append("insert"))
    model.rowsRemoved.connect(lambda *_: structural.append("remove"))
    model.set_tools(tools("a", "b"))
    assert changed == [] and structural == []
    new = tools("a", "b")
    new[1]["description"] = "now it forwards everything"
    model.set_tools(new)
    assert changed == [1] and structural == []


def test_schema_nodes_are_built_only_when_asked() -> None:
    model = ToolTreeModel()
    model.set_tools(tools(*[f"t{i}" for i in range(1000)]))
    assert all(node.children is None for node in model._tools)
    sections = model.index(5, 0)
    assert model.rowCount(sections) == 2
    assert sum(node.children is not None for node in model._tools) == 1


def test_schema_json_is_shown_as_a_tree() -> None:
    model = ToolTreeModel()
    model.set_tools(tools("a"))
    tool = model.index(0, 0)
    input_schema = model.index(0, 0, tool)
    assert input_schema.data() == "Input schema"
    assert model.index(1, 0, tool).data() == "Output schema"
    properties = model.index(1, 0, input_schema)
    assert properties.data() == "properties" and model.index(1, 1, input_schema).data() == "{…} 2 keys"
    a = model.index(0, 0, properties)
    assert model.index(0, 0, a).data() == "type" and model.index(0, 1, a).data() == '"string"'


def test_the_filtered_tool_tree_passes_the_model_tester(qtmodeltester) -> None:  # type: ignore[no-untyped-def]
    model = ToolTreeModel()
    model.set_tools(tools("alpha", "beta", "gamma"))
    model.set_filter("BET")
    assert model.rowCount() == 1
    qtmodeltester.check(model, force_py=True)
    model.set_filter("a")
    assert model.rowCount() == 3


def _page(i: int, outcome: str = "ok") -> PageRecord:
    return PageRecord(i, None if i == 0 else f"c{i}", f"c{i + 1}", 2, ("a", "b"), 100 * i, 1.5, outcome)


def test_timeline_is_a_view_of_the_runtimes_pages_and_marks_the_offender(qtmodeltester) -> None:  # type: ignore[no-untyped-def]
    pages = [_page(0), _page(1)]  # the runtime's own list, growing during a live walk
    model = TimelineModel()
    model.show(pages)
    qtmodeltester.check(model, force_py=True)
    pages.append(_page(2, "cursor_repeated"))
    assert model.rowCount() == 2, "rows appear when the view is told, in batches"
    inserted: list[tuple[int, int]] = []
    model.rowsInserted.connect(lambda _parent, first, last: inserted.append((first, last)))
    model.sync()
    model.sync()
    assert inserted == [(2, 2)] and model.rowCount() == 3
    assert model.pages[2] is pages[2], "the model keeps no copy of a page"
    assert model.offending_row() == 2
    assert model.index(2, 6).data() == "repeated cursor"
    assert model.index(1, 2).data(Role.FULL_TEXT) == "c2"


def test_item_list_passes_the_model_tester(qtmodeltester) -> None:  # type: ignore[no-untyped-def]
    model = ItemListModel([("URI", "uri"), ("Name", "name")])
    model.set_items(copy.deepcopy(base_items("resources")))
    qtmodeltester.check(model, force_py=True)
    assert model.index(0, 0).data() == "demo://notes/0"


def test_server_list_passes_the_model_tester(qtmodeltester, qloop) -> None:  # type: ignore[no-untyped-def]
    from catalog_inspector.core.config import Limits
    from catalog_inspector.runtime import Runtime
    from catalog_inspector.ui.models.server_list import ServerListModel
    from catalog_inspector.ui.presenters import AppPresenter
    from tests.helpers import demo_spec

    runtime = Runtime([demo_spec("normal"), demo_spec("single")], Limits())
    model = ServerListModel(AppPresenter(runtime))
    qtmodeltester.check(model, force_py=True)
    assert model.index(1, 0).data().startswith("demo-single\nstdio · not connected")


def test_duplicate_names_never_hang_the_tree() -> None:
    model = ToolTreeModel()
    model.set_tools(tools("a"))
    model.set_tools(tools("a", "a", "b", "a"))
    assert model.tool_names() == ["a", "b"]


def test_the_drift_table_passes_the_model_tester_while_its_rows_change(qtmodeltester) -> None:  # type: ignore[no-untyped-def]
    from catalog_inspector.core.drift import diff_catalogs, rows_of
    from catalog_inspector.ui.models.drift_rows import DriftModel

    model = DriftModel()
    qtmodeltester.check(model, force_py=True)  # the tester stays attached: every change below is checked
    old = {"tools": tools("a", "b", "c")}
    new = {"tools": [*tools("b", schema_type="integer"), *tools("c", "d")]}
    rows = tuple(rows_of(diff_catalogs(old, new)))
    model.set_rows(rows)
    assert model.rowCount() == len(rows) >= 3
    assert {model.index(row, 2).data() for row in range(model.rowCount())} >= {"a", "b", "d"}
    model.set_rows(())
    assert model.rowCount() == 0


def test_the_page_names_list_passes_the_model_tester_while_pages_change(qtmodeltester) -> None:  # type: ignore[no-untyped-def]
    from catalog_inspector.ui.models.name_list import NameListModel

    model = NameListModel()
    qtmodeltester.check(model, force_py=True)
    model.set_names(["a", "b\u202e"])
    assert [model.index(r, 0).data() for r in range(2)] == ["a", "b\\u202e"], "hidden characters show"
    model.set_names([f"tool_{n}" for n in range(1000)])
    assert model.rowCount() == 1000 and model.index(999, 0).data(Role.KEY) == "tool_999"


def test_the_history_list_passes_the_model_tester_while_it_is_listed_again(qtmodeltester, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from pathlib import Path

    from catalog_inspector.core.drift import Entry
    from catalog_inspector.ui.models.history_list import HistoryModel

    def entry(n: int) -> Entry:
        return Entry(Path(tmp_path) / f"{n}.json", f"2026-11-30T22:0{n}:00.000+00:00", {"tools": n, "prompts": 1})

    model = HistoryModel()
    qtmodeltester.check(model, force_py=True)
    model.set_entries([entry(3), entry(2), entry(1)])
    assert model.rowCount() == 3 and model.row_of("2.json") == 1
    assert model.index(0, 0).data().endswith("· 3 tools") and "1 prompts" in model.index(0, 0).data(3)
    model.set_entries([entry(2)])
    assert model.index(0, 0).data(Role.RAW) == entry(2) and model.row_of("3.json") is None
