"""The command palette (Ctrl+K): actions, servers and tools, found by typing and run with Enter; a keystroke costs a
bounded look, however many tools; server text is shown plain."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction

from catalog_inspector.ui.dialogs.palette import CHUNK, SHOWN, CommandPalette, Entry
from catalog_inspector.ui.dialogs.shortcuts import ShortcutsDialog
from catalog_inspector.ui.models.roles import Role
from tests.helpers import demo_spec
from tests.ui.conftest import Harness, shown, wait_for


def _open(window, qtbot) -> CommandPalette:  # type: ignore[no-untyped-def]
    action = window.findChild(QAction, "paletteAction")
    assert action is not None and action.shortcut().toString() == "Ctrl+K"
    action.trigger()
    open_now = [palette for palette in window.findChildren(CommandPalette) if palette.isVisible()]
    assert len(open_now) == 1
    wait_for(qtbot, open_now[0].filter.hasFocus)  # the keys go to it, not to the window behind
    return open_now[0]


def test_the_palette_finds_and_runs_actions_servers_and_tools(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = harness.window([demo_spec("normal", name="first"), demo_spec("many", "--tools", "30", name="second")])
    wait_for(qtbot, lambda: shown(window))
    wait_for(qtbot, lambda: not window.tools_pane.planning)
    palette = _open(window, qtbot)
    texts = [entry.text for entry in palette.entries]
    assert "File › Export snapshot… (Ctrl+E)" in texts and "Server: second" in texts and "Tool: count_items" in texts
    assert "View › Call tab (Ctrl+2)" in texts and "Call › Send call (Ctrl+Return)" in texts
    assert not any(text.startswith("Help › Command palette") for text in texts), "not itself"
    qtbot.keyClicks(palette.filter, "tool count")
    assert [entry.text for entry in palette.shown] == ["Tool: count_items"]
    qtbot.keyClick(palette.filter, Qt.Key.Key_Return)
    assert not palette.isVisible()
    assert window.tabs.currentWidget() is window.tools_pane
    assert window.tools_pane.tree.currentIndex().data(Role.KEY) == "count_items"
    assert window.focusWidget() is window.tools_pane.tree, "the focus on it: Enter opens it in the Call tab"
    first_tools = {entry.text for entry in palette.entries if entry.text.startswith("Tool: ")}
    palette = _open(window, qtbot)
    qtbot.keyClicks(palette.filter, "server sec")
    qtbot.keyClick(palette.filter, Qt.Key.Key_Return)
    wait_for(qtbot, lambda: window.current is not None and window.current.supervisor.spec.name == "second")
    wait_for(qtbot, lambda: shown(window) and not window.tools_pane.planning)
    window.activateWindow()
    palette = _open(window, qtbot)
    tools = {entry.text for entry in palette.entries if entry.text.startswith("Tool: ")}
    assert tools == {f"Tool: {name}" for name in window.tools_pane.model.tool_names()} != first_tools, "this catalog's"


def test_keys_move_in_the_list_and_only_the_first_matches_are_listed(qtbot) -> None:  # type: ignore[no-untyped-def]
    ran: list[int] = []
    entries = [Entry(f"Tool: tool_{n:05d}", lambda n=n: ran.append(n)) for n in range(10_000)]
    palette = CommandPalette(entries)
    qtbot.addWidget(palette)
    assert len(palette.shown) == SHOWN and "type more" not in palette.count.text()
    qtbot.keyClicks(palette.filter, "tool_0")
    wait_for(qtbot, lambda: not palette.scanning)
    assert len(palette.shown) == SHOWN and "(the first 200 shown: type more)" in palette.count.text()
    qtbot.keyClick(palette.filter, Qt.Key.Key_Down)
    qtbot.keyClick(palette.filter, Qt.Key.Key_Down)
    qtbot.keyClick(palette.filter, Qt.Key.Key_PageDown)
    qtbot.keyClick(palette.filter, Qt.Key.Key_Up)
    qtbot.keyClick(palette.filter, Qt.Key.Key_Return)
    assert ran == [11]


def test_a_keystroke_looks_at_a_chunk_of_entries_at_most_and_more_of_the_same_words_at_what_matched(qtbot) -> None:  # type: ignore[no-untyped-def]
    entries = [Entry(f"Tool: tool_{n:05d}", lambda: None) for n in range(20_000)]
    palette = CommandPalette(entries)
    qtbot.addWidget(palette)
    palette.filter.setText("tool_1")
    assert palette.looked_at == CHUNK and palette.scanning, "the rest waits for the next turns of the event loop"
    assert "so far" in palette.count.text()
    wait_for(qtbot, lambda: not palette.scanning)
    assert palette.looked_at == 20_000 and palette.count.text().startswith("10,000 of 20,000")
    palette.filter.setText("tool_19")
    wait_for(qtbot, lambda: not palette.scanning)
    assert palette.looked_at == 10_000, "only what matched 'tool_1'"
    assert palette.count.text().startswith("1,000 of 20,000") and palette.shown[0].text == "Tool: tool_19000"
    palette.filter.setText("tool_1")
    assert palette.looked_at == CHUNK, "fewer words: from the start again"
    palette.filter.setText("tool_19999")
    palette.filter.setText("tool_199999")  # typed before the look was done: nothing reused, nothing lost
    wait_for(qtbot, lambda: not palette.scanning)
    assert palette.shown == [] and palette.count.text() == "0 of 20,000"


def test_a_server_name_is_listed_as_plain_text_with_its_hidden_characters_written_out(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    hostile = "<b>big</b>\u202eevil"
    window = harness.window([demo_spec("normal", name=hostile)])
    wait_for(qtbot, lambda: shown(window))
    palette = _open(window, qtbot)
    qtbot.keyClicks(palette.filter, "server big")
    assert [entry.text for entry in palette.shown] == ["Server: <b>big</b>\\u202eevil"]
    assert palette.list.model().index(0, 0).data() == "Server: <b>big</b>\\u202eevil", "item text: never rich"


def test_help_lists_the_keyboard_shortcuts(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = harness.window([demo_spec("normal", name="first")])
    action = window.findChild(QAction, "shortcutsAction")
    assert action is not None
    action.trigger()
    dialog = window.findChild(ShortcutsDialog)
    assert dialog is not None and dialog.isVisible()
    for row in (("F5", "File › Refresh"), ("Ctrl+E", "File › Export snapshot…"), ("Ctrl+K", "Help › Command palette…")):
        assert row in dialog.rows
    model = dialog.table.model()
    assert [model.index(0, column).data() for column in range(2)] == list(dialog.rows[0])
    dialog.close()
