"""Help → About says which version this is and what it runs on; the window icon comes from the package."""

from __future__ import annotations

import importlib.metadata
import platform

from PySide6.QtCore import Qt, qVersion
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenuBar, QMessageBox

import catalog_inspector
from catalog_inspector.ui.app import app_icon
from catalog_inspector.ui.dialogs.about import about_text, show_about
from tests.ui.conftest import Harness


def test_the_text_names_the_app_version_the_sdk_qt_and_python() -> None:
    text = about_text()
    assert text.splitlines()[0] == f"MCP Catalog Inspector {catalog_inspector.__version__}"
    assert f"MCP Python SDK: {importlib.metadata.version('mcp')}" in text
    assert f"Qt: {qVersion()}" in text
    assert f"Python: {platform.python_version()}" in text


def test_help_about_opens_a_plain_text_box(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = harness.window([])
    help_menu = next(action for action in window.findChild(QMenuBar).actions() if action.text() == "&Help")
    assert [action.text() for action in help_menu.menu().actions()] == [
        "Command &palette…", "&Keyboard shortcuts", "&About MCP Catalog Inspector"
    ]  # fmt: skip
    window.findChild(QAction, "aboutAction").trigger()
    box = window.findChild(QMessageBox, "aboutDialog")
    assert box is not None and box.isVisible()
    assert box.textFormat() == Qt.TextFormat.PlainText
    assert box.text() == about_text()
    assert box.windowTitle() == "About MCP Catalog Inspector"
    with qtbot.waitSignal(box.finished, timeout=5000):
        box.button(QMessageBox.StandardButton.Close).click()


def test_the_box_opens_without_a_parent(qtbot) -> None:  # type: ignore[no-untyped-def]
    box = show_about(None)
    qtbot.addWidget(box)
    assert box.objectName() == "aboutDialog" and catalog_inspector.__version__ in box.text()
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)  # pytest-qt deletes it
    box.close()


def test_the_window_icon_ships_in_the_package_and_renders_small_and_large(qapp) -> None:  # type: ignore[no-untyped-def]
    icon = app_icon()
    assert not icon.isNull()
    for size in (16, 256):
        assert icon.pixmap(size, size).width() == size
