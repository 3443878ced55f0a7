"""The command palette (Ctrl+K): actions, servers and tools, found by typing and run with Enter."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction

from catalog_inspector.ui.dialogs.palette import SHOWN, CommandPalette, Entry
from catalog_inspector.ui.models.roles import Role
from tests.helpers import demo_spec
from tests.ui.conftest import Harness, shown, wait_for


def _open(window) -> CommandPalette:  # type: ignore[no-untyped-def]
    action = window.findChild(QAction, "paletteAction")
    assert action is not None and action.shortcut().toString() == "Ctrl+K"
    action.trigger()
    open_now = [palette for palette in window.findChildren(CommandPalette) if palette.isVisible()]
    assert len(open_now) == 1
    return open_now[0]


def test_the_palette_finds_and_runs_actions_servers_and_tools(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = harness.window([demo_spec("normal", name="first"), demo_spec("single", name="second")])
    wait_for(qtbot, lambda: shown(window))
    wait_for(qtbot, lambda: not window.tools_pane.planning)
    palette = _open(window)
    texts = [entry.text for entry in palette.entries]
    assert "File › Export snapshot… (Ctrl+E)" in texts and "Server: second" in texts and "Tool: count_items" in texts
    assert not any(text.startswith("Help › Command palette") for text in texts), "not itself"
    qtbot.keyClicks(palette.filter, "tool count")
    assert [entry.text for entry in palette.shown] == ["Tool: count_items"]
    qtbot.keyClick(palette.filter, Qt.Key.Key_Return)
    assert not palette.isVisible()
    assert window.tabs.currentWidget() is window.tools_pane
    assert window.tools_pane.tree.currentIndex().data(Role.KEY) == "count_items"
    palette = _open(window)
    qtbot.keyClicks(palette.filter, "server sec")
    qtbot.keyClick(palette.filter, Qt.Key.Key_Return)
    wait_for(qtbot, lambda: window.current is not None and window.current.supervisor.spec.name == "second")


def test_keys_move_in_the_list_and_only_the_first_matches_are_listed(qtbot) -> None:  # type: ignore[no-untyped-def]
    ran: list[int] = []
    entries = [Entry(f"Tool: tool_{n:05d}", lambda n=n: ran.append(n)) for n in range(10_000)]
    palette = CommandPalette(entries)
    qtbot.addWidget(palette)
    assert len(palette.shown) == SHOWN and "type more" not in palette.count.text()
    qtbot.keyClicks(palette.filter, "tool_0")
    assert len(palette.shown) == SHOWN and "(the first 200 shown: type more)" in palette.count.text()
    qtbot.keyClick(palette.filter, Qt.Key.Key_Down)
    qtbot.keyClick(palette.filter, Qt.Key.Key_Down)
    qtbot.keyClick(palette.filter, Qt.Key.Key_Return)
    assert ran == [2]


def test_help_lists_the_keyboard_shortcuts(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QMessageBox

    window = harness.window([demo_spec("normal", name="first")])
    action = window.findChild(QAction, "shortcutsAction")
    assert action is not None
    action.trigger()
    box = window.findChild(QMessageBox, "shortcutsDialog")
    assert box is not None and box.isVisible()
    listed = box.informativeText()
    for keys, where in (
        ("F5", "File › Refresh"),
        ("Ctrl+E", "File › Export snapshot…"),
        ("Ctrl+K", "Help › Command palette…"),
    ):
        assert any(line.startswith(keys) and line.endswith(where) for line in listed.splitlines()), (keys, listed)
    box.close()
