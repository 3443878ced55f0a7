"""The call form lists a tool's properties in the order its schema declares them, walked from a real server and
shown in the window: at the top, inside a `$ref`'d object and inside an `allOf`, and in the raw JSON editor's
first text, and in the JSON the detail panes show (a tool's, a prompt's); the catalog kept in the history keeps
that order. Keys that arrive sorted (no order of the author's) list the required ones first.

Found so: a dict read through Qt (`index.data(Role.RAW)`) comes back as a QVariantMap, its keys sorted."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QPlainTextEdit

from catalog_inspector.core.drift import History
from catalog_inspector.ui.widgets.call_form import ObjectEditor, PropertyRow
from catalog_inspector.ui.widgets.call_panel import CallPanel
from tests.fixtures.form_order_server import BOOK
from tests.helpers import fixture_spec
from tests.ui.conftest import Harness, shown, wait_for
from tests.ui.test_call_panel import pick

SENT = "As the server sent it:"


def shown_order(panel: CallPanel) -> list[list[str]]:
    """Each object's property headings as the form shows them, top to bottom, outermost object first (objects
    shown, with properties)."""
    editors = [editor for editor in panel.findChildren(ObjectEditor) if editor.isVisibleTo(panel)]
    editors.sort(key=lambda editor: editor.mapTo(panel, QPoint()).y())
    lists = []
    for editor in editors:
        rows = [row for row in editor.findChildren(PropertyRow) if row.parent() is editor]
        rows.sort(key=lambda row: row.mapTo(panel, QPoint()).y())
        if rows:
            lists.append([row.name.text() for row in rows])
    return lists


def as_sent(detail: QPlainTextEdit) -> dict[str, Any]:
    """The JSON a detail pane shows under "As the server sent it:", read back in its order."""
    text = detail.toPlainText()
    parsed: dict[str, Any] = json.loads(text[text.index(SENT) + len(SENT) :])
    return parsed


def test_the_form_lists_properties_as_the_schema_declares_them(harness: Harness, qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    spec = fixture_spec("form_order_server", "forms")
    history = History(tmp_path / "history")
    window = harness.window([spec], history=history)
    wait_for(qtbot, lambda: shown(window))
    wait_for(qtbot, lambda: not window.tools_pane.planning)

    panel = pick(window, qtbot, "book")
    wait_for(qtbot, lambda: len(shown_order(panel)) == 3)
    assert shown_order(panel) == [
        ["title *", "author", "year *", "isbn", "address", "options"],
        ["street", "city *", "zip"],
        ["zoom", "mode", "draft"],
    ]
    editor = panel.findChild(QPlainTextEdit, "callArguments")
    assert list(json.loads(editor.toPlainText())) == ["title", "year"], "the JSON starts as the form does"

    wait_for(qtbot, lambda: history.latest(spec) is not None)  # kept off the GUI thread
    latest = history.latest(spec)
    assert latest is not None
    (kept,) = [tool for tool in latest[1].tools.items if tool["name"] == "book"]
    assert list(kept["inputSchema"]["properties"]) == list(BOOK["properties"]), "the history keeps the order"

    tool = as_sent(window.tools_pane.detail)
    assert list(tool["inputSchema"]["properties"]) == list(BOOK["properties"]), "the tool's JSON is shown as sent"
    prompts = window.list_panes["prompts"]
    wait_for(qtbot, lambda: prompts.model.rowCount() == 1)
    prompts.table.setCurrentIndex(prompts.model.index(0, 0))
    assert list(as_sent(prompts.detail)["_meta"]) == ["zeta", "alpha"], "a prompt's too"

    panel = pick(window, qtbot, "sorted_keys")
    wait_for(qtbot, lambda: shown_order(panel)[:1] == [["gamma *", "alpha", "beta"]])
