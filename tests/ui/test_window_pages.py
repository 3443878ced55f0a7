"""The pages after Tools are built after the first frame, or when first needed, and show the selected server then."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QPlainTextEdit, QTableView

from catalog_inspector.ui.main_window import MainWindow
from tests.helpers import demo_spec
from tests.ui.conftest import Harness, shown, wait_for

TITLES = [
    "Tools",
    "Call",
    "Resources",
    "Resource templates",
    "Prompts",
    "Server && log",
    "Drift",
    "Duplicates",
    "Reach && collisions",
]


def titles(window: MainWindow) -> list[str]:
    return [window.tabs.tabText(index) for index in range(window.tabs.count())]


def test_only_the_tools_page_is_built_with_the_window_and_every_tab_is_in_its_place(
    harness: Harness, qtbot: Any
) -> None:
    window = harness.window([demo_spec("normal")], build_pages=False)
    assert titles(window) == TITLES
    assert window.pages.pending == ["call", "resources", "resource_templates", "prompts", "server", "drift",
                                    "duplicates", "checks"]  # fmt: skip
    assert window.findChild(QTableView, "resourceList") is None, "a page waiting to be built holds no widgets"
    assert window.pages.built("call") is None and window.pages.built_lists() == {}


def test_the_pages_are_built_one_at_a_time_in_tab_order_each_in_its_own_place(harness: Harness, qtbot: Any) -> None:
    window = harness.window([demo_spec("normal")], build_pages=False)
    built: list[str] = []
    while window.pages.pending:
        name = window.pages.pending[0]
        more = window.pages.build_next()
        built.append(name)
        assert window.pages.built(name) is not None and more == bool(window.pages.pending)
    assert built == ["call", "resources", "resource_templates", "prompts", "server", "drift", "duplicates", "checks"]
    assert not window.pages.build_next()
    assert titles(window) == TITLES
    assert window.tabs.indexOf(window.call_panel) == 1 and window.tabs.indexOf(window.checks_pane) == 8
    assert window.findChild(QTableView, "resourceList") is window.list_panes["resources"].table


def test_a_page_asked_for_is_built_then_and_a_tab_chosen_builds_its_page_and_stays_chosen(
    harness: Harness, qtbot: Any
) -> None:
    window = harness.window([demo_spec("normal")], build_pages=False)
    panel = window.call_panel  # built on demand
    assert window.pages.built("call") is panel and window.tabs.widget(1) is panel and "call" not in window.pages.pending
    window.tabs.setCurrentIndex(6)  # Drift, not built yet
    assert window.pages.built("drift") is not None
    assert window.tabs.currentIndex() == 6 and window.tabs.currentWidget() is window.drift_pane


def test_a_page_built_late_shows_the_selected_servers_catalog_log_and_titles(harness: Harness, qtbot: Any) -> None:
    window = harness.window([demo_spec("normal")], build_pages=False)
    wait_for(qtbot, lambda: shown(window))
    presenter = window.current
    assert presenter is not None and presenter.catalog is not None
    assert window.pages.built_lists() == {}, "nothing asked for the lists: they wait"
    resources = window.list_panes["resources"]  # built now, after the catalog came
    items = presenter.catalog.lists["resources"].items
    assert items and resources.model.rowCount() == len(items)
    assert resources.timeline.model.rowCount() > 0, "its timeline shows the walk's pages"
    assert resources.request is not None and resources.request.presenter is presenter.requests["resources"]
    log = window.findChild(QPlainTextEdit, "serverLog")
    assert log is None
    assert window.server_log.toPlainText() == presenter.log_text()
    assert window.call_panel.presenter is presenter.call
    assert window.drift_pane.presenter is presenter.drift


def test_the_pages_behind_the_tree_follow_a_new_catalog_one_turn_later(harness: Harness, qtbot: Any) -> None:
    window = harness.window([demo_spec("normal")])
    wait_for(qtbot, lambda: shown(window))
    resources = window.list_panes["resources"]
    count = resources.model.rowCount()
    assert count > 0
    resources.model.set_items([])
    window.pages.follow()  # as a new catalog does: the tree now, the other pages in the next turn
    assert resources.model.rowCount() == 0, "not in the same turn as the tree"
    wait_for(qtbot, lambda: resources.model.rowCount() == count)
    resources.model.set_items([])
    window.pages.follow(at_once=True)  # as choosing a server does
    assert resources.model.rowCount() == count


def test_before_the_engine_is_in_a_click_on_a_server_works_and_both_walk_once_it_is(
    harness: Harness, qtbot: Any
) -> None:
    from catalog_inspector.runtime import ServerState
    from catalog_inspector.runtime.engine import EngineGate

    gate = EngineGate(loaded=False)
    window = harness.window([demo_spec("normal", name="one"), demo_spec("single", name="two")], engine=gate)
    first = window.current
    assert first is not None and first.supervisor.state is ServerState.CONNECTING
    assert window.select_server("two")  # the sidebar answers before the engine is there
    second = window.current
    assert second is not None and second.name == "two" and second.supervisor.state is ServerState.CONNECTING
    assert "connecting" in window.servers.index(1, 0).data()
    assert not harness.pids, "no server starts before the engine"
    window.app.runtime.engine_loaded()
    wait_for(qtbot, lambda: shown(window))
    wait_for(qtbot, lambda: first.supervisor.state is ServerState.READY)
