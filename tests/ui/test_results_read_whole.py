"""A result read whole (the demo's apps server, `rich_result`): each block's annotations under it, an image Qt
cannot decode says so, audio with its type, size and length, and a resource link is read on the same server in the
Resources tab, listed or not, never opened anywhere else."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPlainTextEdit, QPushButton

from catalog_inspector.ui.main_window import MainWindow
from tests.helpers import demo_spec
from tests.ui.conftest import Harness, shown, wait_for
from tests.ui.test_call_panel import pick, send_and_wait, type_arguments


def rich(harness: Harness, qtbot) -> MainWindow:  # type: ignore[no-untyped-def]
    window = harness.window([demo_spec("apps", name="apps")])
    wait_for(qtbot, lambda: shown(window))
    wait_for(qtbot, lambda: not window.tools_pane.planning)
    panel = pick(window, qtbot, "rich_result")
    type_arguments(panel, qtbot, "{}")
    send_and_wait(panel, qtbot)
    return window


def test_every_block_is_read_whole(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = rich(harness, qtbot)
    text = window.call_panel.result.text.toPlainText()
    assert "Rain after noon.\n(for user · priority 0.9 · last modified 2026-12-01T09:00:00Z)" in text
    assert "[image, image/png, 76 bytes]" in text, "a real PNG is previewed"
    assert "[image, image/png, 28 bytes; could not be decoded]" in text
    assert "[audio, audio/wav, 3.9 KiB, 0.50 s; not played]" in text
    assert window.call_panel.result.image_count() == 1


def test_a_resource_link_is_read_on_the_same_server_in_the_resources_tab(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = rich(harness, qtbot)
    listed = window.call_panel.result.findChild(QPushButton, "resultLink:0")
    unlisted = window.call_panel.result.findChild(QPushButton, "resultLink:1")
    assert listed.text() == "Read note-1" and unlisted.text() == "Read unlisted"
    assert window.current is not None
    with qtbot.waitSignal(window.current.supervisor.call_finished, timeout=20_000):
        qtbot.mouseClick(listed, Qt.MouseButton.LeftButton)
    resources = window.list_panes["resources"]
    assert window.tabs.currentWidget() is resources
    assert resources.table.currentIndex().row() == 2, "the listed resource is chosen"
    result = window.findChild(QPlainTextEdit, "resourceResult")
    wait_for(qtbot, lambda: result.toPlainText().endswith("the note at demo://apps/notes/1"))
    window.tabs.setCurrentWidget(window.call_panel)
    with qtbot.waitSignal(window.current.supervisor.call_finished, timeout=20_000):
        qtbot.mouseClick(unlisted, Qt.MouseButton.LeftButton)
    assert not resources.table.currentIndex().isValid()
    assert resources.detail.toPlainText().startswith("Not in the resources list: a resource link from a result")
    wait_for(qtbot, lambda: result.toPlainText().endswith("the note at demo://apps/unlisted"))
    raw = json.loads(resources.request.result.raw.toPlainText())
    assert raw["contents"][0]["uri"] == "demo://apps/unlisted"
