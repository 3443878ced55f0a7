"""MCP Apps and icons in the window, statically (the demo's apps server): a tool with an interface is marked in the
tree and its detail names the resource and whether it is listed; a `ui://` view shows its type, CSP, permissions
and domain, and reads as plain text; only safe raster icons are drawn; the server's instructions and findings are in
Server & log as plain text."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPlainTextEdit, QPushButton, QTableView

from catalog_inspector.ui.main_window import MainWindow
from catalog_inspector.ui.models.roles import Role
from tests.helpers import demo_spec
from tests.ui.conftest import Harness, shown, wait_for
from tests.ui.test_main_window import tree


def apps(harness: Harness, qtbot) -> MainWindow:  # type: ignore[no-untyped-def]
    window = harness.window([demo_spec("apps", name="apps")])
    wait_for(qtbot, lambda: shown(window))
    wait_for(qtbot, lambda: not window.tools_pane.planning)
    return window


def select_tool(window: MainWindow, name: str) -> str:
    model = tree(window).model()
    row = next(r for r in range(model.rowCount()) if model.index(r, 0).data(Role.KEY) == name)
    tree(window).setCurrentIndex(model.index(row, 0))
    return window.tools_pane.detail.toPlainText()


def test_a_tool_with_an_interface_is_marked_and_its_detail_names_the_resource(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = apps(harness, qtbot)
    model = tree(window).model()
    badges = {model.index(r, 0).data(Role.KEY): model.index(r, 2).data() for r in range(model.rowCount())}
    assert "▣ app" in badges["show_weather"] and "▣ app" not in (badges["rich_result"] or "")
    detail = select_tool(window, "show_weather")
    assert "MCP Apps interface: ui://weather/view.html — listed in this server's resources" in detail
    assert "    Callable by: model, app" in detail
    assert "    image/svg+xml (data:, about 42 bytes): an SVG: described, never drawn" in detail
    assert "https://icons.example.invalid/weather.png): listed by its URL, never fetched" in detail
    icons = window.tools_pane.icons
    assert icons.shown == 1 and not icons.isHidden(), "the PNG is drawn; the SVG and the URL are not"
    assert "NOT in this server's resources list" in select_tool(window, "open_dashboard")
    select_tool(window, "rich_result")
    assert icons.shown == 0 and icons.isHidden()


def test_a_ui_view_is_described_and_read_as_plain_text(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = apps(harness, qtbot)
    pane = window.list_panes["resources"]
    wait_for(qtbot, lambda: pane.model.rowCount() == 4)
    table = window.findChild(QTableView, "resourceList")
    table.setCurrentIndex(pane.model.index(0, 0))
    detail = pane.detail.toPlainText()
    assert "MCP Apps view: served as text/html;profile=mcp-app\n" in detail
    assert "    CSP connectDomains: https://api.weather.example.invalid\n    CSP resourceDomains: none" in detail
    assert "    Permissions asked for: camera" in detail and "    Domain: weather.example.invalid" in detail
    assert window.current is not None
    with qtbot.waitSignal(window.current.supervisor.call_finished, timeout=20_000):
        qtbot.mouseClick(window.findChild(QPushButton, "readResourceButton"), Qt.MouseButton.LeftButton)
    result = window.findChild(QPlainTextEdit, "resourceResult")
    wait_for(qtbot, lambda: "<script>parent.postMessage('hi', '*')</script>" in result.toPlainText())
    table.setCurrentIndex(pane.model.index(1, 0))
    loose = pane.detail.toPlainText()
    assert "MCP Apps view: served as text/html (not text/html;profile=mcp-app)" in loose
    assert "⚠ its CSP lets the view reach anything: connectDomains: *, resourceDomains: https:" in loose


def test_the_servers_instructions_findings_and_icons_are_in_server_and_log(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = apps(harness, qtbot)
    info, _log = window.pages.server_views()
    wait_for(qtbot, lambda: "Instructions:" in info.toPlainText())
    text = info.toPlainText()
    assert (
        "Instructions:\nCall show_weather for a forecast.\nIts view needs a host that renders MCP Apps. <b>Not bold.</b>"
        in text
    )
    assert (
        "Finding: tools/open_dashboard: its interface ui://dashboard/view.html is not in the server's resources list "
        "(app_resource_missing)"
    ) in text
    assert "(app_csp_open)" in text and "(app_mime_type)" in text
    assert "Icons: 1\n    image/png 4x4 (data:, 73 bytes): checked raster data, safe to draw" in text
