"""Resources, resource templates and prompts each have a detail pane: every field in plain text, then the JSON as sent.

The items are shaped as the MCP specification says (`Resource`, `ResourceTemplate`,
`Prompt` with its `PromptArgument`s), or come from the demo server's real catalog.
"""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics, QTextOption
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QPlainTextEdit, QTableView

from catalog_inspector.core.config import Limits, ServerSpec
from catalog_inspector.runtime import ServerSupervisor
from catalog_inspector.ui.models.item_list import ItemListModel
from catalog_inspector.ui.models.roles import Role
from catalog_inspector.ui.presenters import RequestPresenter
from catalog_inspector.ui.widgets.list_pane import ListPane
from catalog_inspector.ui.widgets.panes import DISPLAY_CAP
from catalog_inspector.ui.widgets.tables import COLUMN_MAX
from tests.helpers import demo_spec
from tests.ui.conftest import Harness, shown, wait_for

LONG_URI = "file:///srv/projects/customer-reports/2026/quarterly/" + "/".join(f"section-{n}" for n in range(30)) + ".md"
RESOURCE = {
    "uri": LONG_URI,
    "name": "quarterly-report",
    "title": "Quarterly report",
    "description": "The report as filed.\nSecond paragraph of the description.",
    "mimeType": "text/markdown",
    "size": 123456,
    "annotations": {"audience": ["user", "assistant"], "priority": 0.8, "lastModified": "2026-01-12T15:00:58Z"},
}
TEMPLATE = {
    "uriTemplate": "file:///srv/projects/{project}/reports/{year}/{name}.md",
    "name": "project-report",
    "title": "Project report",
    "description": "A report by project, year and name.",
    "mimeType": "text/markdown",
    "annotations": {"audience": ["user"]},
}
PROMPT = {
    "name": "code_review",
    "title": "Request Code Review",
    "description": "Asks the LLM to analyze code quality and suggest improvements",
    "arguments": [
        {"name": "code", "description": "The code to review", "required": True},
        {"name": "language", "description": "The language it is written in"},
        {"name": "style", "title": "Style guide", "required": False},
    ],
}


def pane_with(qtbot, list_name: str, items: list[dict[str, Any]]) -> ListPane:  # type: ignore[no-untyped-def]
    pane = ListPane(list_name)
    qtbot.addWidget(pane)
    if pane.request is not None:  # a server's box, never started: what is chosen and typed is the pane's to keep
        kind = "resource" if list_name == "resources" else "prompt"
        pane.request.bind(RequestPresenter(kind, ServerSupervisor(ServerSpec("s", command="s"), Limits()), pane))
    pane.resize(1100, 700)
    pane.show()
    pane.model.set_items(items)
    return pane


def choose(pane: ListPane, row: int) -> str:
    pane.table.setCurrentIndex(pane.model.index(row, 0))
    return pane.detail.toPlainText()


def sent_json(detail: str) -> Any:
    return json.loads(detail.split("As the server sent it:\n", 1)[1])


def test_a_prompt_lists_each_argument_with_whether_it_is_required_and_its_description(qtbot) -> None:  # type: ignore[no-untyped-def]
    pane = pane_with(qtbot, "prompts", [PROMPT, {"name": "bare"}])
    detail = choose(pane, 0)
    assert detail.startswith("Name: code_review\nTitle: Request Code Review\n")
    assert "\nAsks the LLM to analyze code quality and suggest improvements\n" in detail
    assert "Arguments: 3 (1 required)" in detail
    arguments = detail.split("Arguments: 3 (1 required)\n", 1)[1].split("\n\nAs the server sent it:", 1)[0]
    assert arguments.splitlines() == [
        "    code (required)",
        "        The code to review",
        "    language (optional)",
        "        The language it is written in",
        "    style (optional)",
        "        Title: Style guide",
    ]
    assert sent_json(detail) == PROMPT
    assert "Arguments: none" in choose(pane, 1) and "(no description)" in pane.detail.toPlainText()


def test_a_resource_shows_its_whole_uri_and_every_field(qtbot) -> None:  # type: ignore[no-untyped-def]
    pane = pane_with(qtbot, "resources", [RESOURCE])
    assert pane.model.index(0, 0).data().endswith("…"), "the cell is one line, elided …"
    detail = choose(pane, 0)
    assert f"URI: {LONG_URI}\n" in detail, "… the detail has the URI whole"
    for line in (
        "Name: quarterly-report",
        "Title: Quarterly report",
        "MIME type: text/markdown",
        "Size: 123,456 bytes",
        "Annotations:",
        "    audience: user, assistant",
        "    priority: 0.8",
        "    lastModified: 2026-01-12T15:00:58Z",
        "The report as filed.",
        "Second paragraph of the description.",
    ):
        assert line in detail.splitlines(), line
    assert sent_json(detail) == RESOURCE
    flags = pane.detail.textInteractionFlags()
    assert (
        flags & Qt.TextInteractionFlag.TextSelectableByMouse and flags & Qt.TextInteractionFlag.TextSelectableByKeyboard
    )
    pane.detail.selectAll()
    assert LONG_URI in pane.detail.textCursor().selectedText(), "the URI can be selected and copied"


def test_a_resource_template_shows_its_uri_template_and_every_field(qtbot) -> None:  # type: ignore[no-untyped-def]
    pane = pane_with(qtbot, "resource_templates", [TEMPLATE])
    assert pane.request.kind == "template", "a template is filled in and read below its detail"
    detail = choose(pane, 0)
    assert detail.splitlines()[:6] == [
        "URI template: file:///srv/projects/{project}/reports/{year}/{name}.md",
        "Name: project-report",
        "Title: Project report",
        "MIME type: text/markdown",
        "Annotations:",
        "    audience: user",
    ]
    assert sent_json(detail) == TEMPLATE


def test_the_table_sizes_its_columns_to_their_content_within_a_limit(qtbot) -> None:  # type: ignore[no-untyped-def]
    short = {"uri": "demo://resources/notes/2026/summary.txt", "name": "summary"}
    pane = pane_with(qtbot, "resources", [short, {"uri": "demo://r/1", "name": "one"}])
    metrics = QFontMetrics(pane.table.font())
    assert pane.table.columnWidth(0) > metrics.horizontalAdvance(short["uri"]), "the URI reads whole"
    pane.model.set_items([RESOURCE])
    assert pane.table.columnWidth(0) == COLUMN_MAX, "a very long URI stops at the limit (the detail has it whole)"


def test_rows_are_one_line_of_one_height(qtbot) -> None:  # type: ignore[no-untyped-def]
    multi = {"name": "multi", "description": "line one\nline two\nline three", "arguments": []}
    marks = {"name": "marks", "description": "ฏ็็็็็็็ ñ̃̃̃̃ Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǫ̗͕ 中文 🚀"}
    pane = pane_with(qtbot, "prompts", [PROMPT, multi, marks])
    table = pane.table
    assert not table.wordWrap()
    assert table.verticalHeader().sectionResizeMode(0) == QHeaderView.ResizeMode.Fixed
    assert pane.model.index(1, 2).data() == "line one …"
    assert len({table.rowHeight(row) for row in range(3)}) == 1
    assert len({table.visualRect(pane.model.index(row, 2)).height() for row in range(3)}) == 1
    assert len({table.sizeHintForRow(row) for row in range(3)}) == 1, "a row's content never asks for another height"


def test_the_chosen_item_stays_chosen_across_a_new_catalog_with_its_typed_arguments(qtbot) -> None:  # type: ignore[no-untyped-def]
    other = {"name": "other", "arguments": []}
    pane = pane_with(qtbot, "prompts", [other, PROMPT])
    choose(pane, 1)
    assert pane.request is not None and pane.request.item == PROMPT
    pane.request.fields["code"].setText("print(1)")
    pane.model.set_items([PROMPT, other])  # a refresh: same prompt, another row
    assert pane.table.currentIndex().row() == 0 and pane.table.currentIndex().data(Role.KEY) == "code_review"
    assert pane.detail.toPlainText().startswith("Name: code_review")
    assert pane.request.fields["code"].text() == "print(1)", "the same prompt keeps what was typed for it"
    pane.model.set_items([other])  # gone: nothing is shown for it any more
    assert not pane.table.currentIndex().isValid()
    assert pane.detail.toPlainText() == "" and pane.request.item is None


def test_server_text_in_the_detail_is_plain_visible_and_bounded(qtbot) -> None:  # type: ignore[no-untyped-def]
    hostile = {
        "uri": "demo://x/<b>bold</b>\u202etxt.exe",
        "name": "zero\u200bwidth\nname",
        "description": "<img src='file:///dev/zero'>" + "d" * (2 * DISPLAY_CAP),
        "size": "<i>huge</i>",
        "annotations": ["not", "an", "object"],
    }
    pane = pane_with(qtbot, "resources", [hostile])
    assert isinstance(pane.detail, QPlainTextEdit)
    detail = choose(pane, 0)
    assert "URI: demo://x/<b>bold</b>\\u202etxt.exe\n" in detail, "markup literal, the bidi override written out"
    assert "Name: zero\\u200bwidth\\u000aname\n" in detail, "a name stays on one line"
    assert "Size: <i>huge</i>" in detail and 'Annotations: ["not", "an", "object"]' in detail
    assert "<img src='file:///dev/zero'>" in detail
    assert len(detail) < DISPLAY_CAP + 200 and "truncated at 200,000" in detail
    assert "\u202e" not in detail and "\u200b" not in detail


def test_an_item_list_answers_keys_and_finds_rows_by_them(qtmodeltester) -> None:  # type: ignore[no-untyped-def]
    model = ItemListModel([("URI template", "uriTemplate"), ("Name", "name")], key_field="uriTemplate")
    model.set_items([TEMPLATE, {"uriTemplate": 7, "name": "odd"}])
    qtmodeltester.check(model, force_py=True)
    assert model.index(0, 1).data(Role.KEY) == TEMPLATE["uriTemplate"] and model.index(0, 0).data(Role.RAW) == TEMPLATE
    assert model.row_of("7") == 1 and model.row_of("nothing") is None


def test_the_demo_servers_lists_read_whole_in_their_detail_panes(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = harness.window([demo_spec("normal", name="clean")])
    wait_for(qtbot, lambda: shown(window))
    details = {}
    for list_name, table_name, detail_name in (
        ("resources", "resourceList", "resourceDetail"),
        ("resource_templates", "resourceTemplateList", "resourceTemplateDetail"),
        ("prompts", "promptList", "promptDetail"),
    ):
        window.tabs.setCurrentWidget(window.list_panes[list_name])
        table = window.findChild(QTableView, table_name)
        assert table.selectionBehavior() == QAbstractItemView.SelectionBehavior.SelectRows
        wait_for(qtbot, lambda table=table: table.model().rowCount() > 0)
        table.setCurrentIndex(table.model().index(0, 0))
        details[list_name] = window.findChild(QPlainTextEdit, detail_name).toPlainText()
        assert window.list_panes[list_name].timeline.model.rowCount() > 0, "the page timeline stays beside the list"
    assert details["resources"].startswith("URI: demo://notes/0\nName: note-0\nMIME type: text/plain\n")
    assert details["resource_templates"].startswith("URI template: demo://notes/{id}\nName: note\n")
    assert "Arguments: 1 (1 required)\n    id (required)\n" in details["prompts"]
    detail = window.findChild(QPlainTextEdit, "promptDetail")
    assert detail.wordWrapMode() == QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere
