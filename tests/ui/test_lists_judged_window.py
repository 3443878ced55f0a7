"""The window judges each list on its own: tools accepted while resources failed show the tools, a mark in the
sidebar, the subtitle and the tab's title, and the list's own notice in its tab; a declared list the server does not
implement is a finding in its tab and in the server's details, not a failure."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QListView

from catalog_inspector.core.config import ServerSpec
from catalog_inspector.ui.main_window import MainWindow
from tests.helpers import fixture_spec
from tests.ui.conftest import Harness, shown, wait_for


def sqlite_like(*extra: str) -> ServerSpec:
    return fixture_spec("partial_lists_server", "sqlite", *extra)


def tab_title(window: MainWindow, name: str) -> str:
    return window.tabs.tabText(window.tabs.indexOf(window.pages.page(name)))


def test_a_list_that_failed_on_its_own_is_marked_and_explained_while_the_tools_are_shown(
    harness: Harness, qtbot
) -> None:  # type: ignore[no-untyped-def]
    window = harness.window([sqlite_like("--resources-error")])
    wait_for(qtbot, lambda: shown(window))
    assert len(window.tools_pane.model.tool_names()) == 6
    assert not window.banner.isVisible(), "the catalog was accepted: no failure banner over the tools"
    sidebar = window.findChild(QListView, "serverList").model()
    assert "ready · 6 tools · ⚠ resources failed" in sidebar.index(0, 0).data()
    assert window.catalog_label.text().endswith("· ⚠ resources failed")
    wait_for(qtbot, lambda: tab_title(window, "resources") == "Resources ⚠")
    assert tab_title(window, "resource_templates") == "Resource templates", "a finding is not a failure"
    resources = window.list_panes["resources"]
    notice = window.findChild(QLabel, "resourcesNotice")
    assert notice is resources.notice and resources.notice_state == "failed" and not notice.isHidden()
    text = notice.text()
    assert text.startswith("Resources: not accepted\nFailed: The server answered with an error on page 0 of resources")
    assert "the insights memo could not be read" in text and "Refresh walks every list again." in text
    assert resources.model.rowCount() == 0
    templates = window.list_panes["resource_templates"]
    assert templates.notice_state == "unimplemented"
    assert templates.notice.text().startswith(
        "Finding: the server declares resources but does not implement resources/templates/list"
    )
    prompts = window.list_panes["prompts"]
    assert prompts.notice_state == "not_offered" and "does not offer prompts" in prompts.notice.text()
    info, _log = window.pages.server_views()
    wait_for(qtbot, lambda: "Lists: tools complete" in info.toPlainText())
    assert "resources failed, resource templates unimplemented, prompts not offered" in info.toPlainText()
    assert "Finding: the server declares resources but does not implement resources/templates/list" in (
        info.toPlainText()
    )


def test_a_list_walked_whole_has_no_notice_and_its_tab_no_mark(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = harness.window([sqlite_like()])
    wait_for(qtbot, lambda: shown(window))
    resources = window.list_panes["resources"]
    wait_for(qtbot, lambda: resources.model.rowCount() == 1)
    assert resources.notice_state == "none" and resources.notice.isHidden()
    assert tab_title(window, "resources") == "Resources"
    sidebar = window.findChild(QListView, "serverList").model()
    assert "⚠" not in sidebar.index(0, 0).data()
