"""Subscriptions in the window (the demo's apps server declares `resources.subscribe`), in both eras: Subscribe on
a resource, the server's updates counted under it with when the last came and an offer to read it again, a flood
told a batch at a time, Unsubscribe; a server that declares none offers no button."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QPushButton, QTableView

from catalog_inspector.ui.main_window import MainWindow
from tests.helpers import demo_spec, fixture_spec
from tests.ui.conftest import Harness, shown, wait_for
from tests.ui.test_call_panel import pick, send_and_wait, type_arguments


def clock(harness: Harness, qtbot, *era: str) -> MainWindow:  # type: ignore[no-untyped-def]
    window = harness.window([demo_spec("apps", *era, name="apps")])
    wait_for(qtbot, lambda: shown(window))
    wait_for(qtbot, lambda: not window.tools_pane.planning)
    pane = window.list_panes["resources"]
    wait_for(qtbot, lambda: pane.model.rowCount() == 4)
    window.tabs.setCurrentWidget(pane)
    table = window.findChild(QTableView, "resourceList")
    table.setCurrentIndex(pane.model.index(pane.model.row_of("demo://apps/clock") or 0, 0))
    return window


def tick(window: MainWindow, qtbot, count: int) -> None:  # type: ignore[no-untyped-def]
    panel = pick(window, qtbot, "tick")
    type_arguments(panel, qtbot, f'{{"count": {count}}}')
    send_and_wait(panel, qtbot)


@pytest.mark.parametrize("era", [(), ("--legacy",)], ids=["2026-07-28", "2025-11-25"])
def test_a_subscribed_resource_says_when_the_server_changed_it(harness: Harness, qtbot, era: tuple[str, ...]) -> None:  # type: ignore[no-untyped-def]
    window = clock(harness, qtbot, *era)
    button = window.findChild(QPushButton, "subscribeResourceButton")
    updates = window.findChild(QLabel, "resourceUpdates")
    assert not button.isHidden() and button.text() == "Subscribe"
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    wait_for(qtbot, lambda: button.text() == "Unsubscribe")
    assert updates.text() == "Subscribed: the server has not said it changed yet."
    model = window.list_panes["resources"].model
    assert model.index(model.row_of("demo://apps/clock") or 0, 0).data() == "◌ watched demo://apps/clock"
    tick(window, qtbot, 3)
    wait_for(qtbot, lambda: "changed 3 times" in updates.text())
    assert updates.text().endswith("Read it again to see it.")
    pane = window.list_panes["resources"]
    row = pane.model.row_of("demo://apps/clock")
    assert row is not None and pane.model.index(row, 0).data() == "● changed demo://apps/clock", "the row is marked"
    window.tabs.setCurrentWidget(window.list_panes["resources"])
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    wait_for(qtbot, lambda: button.text() == "Subscribe")
    assert updates.isHidden()


def test_a_flood_of_updates_is_told_a_batch_at_a_time(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = clock(harness, qtbot, "--legacy")
    button = window.findChild(QPushButton, "subscribeResourceButton")
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    wait_for(qtbot, lambda: button.text() == "Unsubscribe")
    box = window.list_panes["resources"].request
    assert box.presenter is not None
    told: list[int] = []
    box.presenter.changed.connect(lambda: told.append(1))
    tick(window, qtbot, 3000)
    updates = window.findChild(QLabel, "resourceUpdates")
    wait_for(qtbot, lambda: "changed 3,000 times" in updates.text())
    assert len(told) < 300, f"{len(told)} repaints for 3,000 updates: they are batched"


def test_a_server_that_declares_no_subscribe_offers_no_button(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = harness.window([fixture_spec("partial_lists_server", "sqlite")])
    wait_for(qtbot, lambda: shown(window))
    pane = window.list_panes["resources"]
    wait_for(qtbot, lambda: pane.model.rowCount() == 1)
    window.findChild(QTableView, "resourceList").setCurrentIndex(pane.model.index(0, 0))
    assert window.findChild(QPushButton, "subscribeResourceButton").isHidden()
