"""The keyboard, in the real window over a real demo server: Tab's order (pressed, not read from the code), no field
that keeps Tab, the keys of every tab, the filter, the sidebar, Refresh, Cancel, Retry and the Call's Send, no two
actions on one key, every menu action under a letter of its own, and the list of shortcuts made from the actions."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QAbstractButton, QApplication, QMenu, QWidget

from catalog_inspector.runtime import ServerState
from catalog_inspector.ui.dialogs.palette import CommandPalette
from catalog_inspector.ui.dialogs.shortcuts import ShortcutsDialog
from catalog_inspector.ui.keyboard import keys_of, menu_path_actions, plain_text
from catalog_inspector.ui.main_window import MainWindow
from catalog_inspector.ui.models.roles import Role
from tests.helpers import demo_spec
from tests.ui.conftest import Harness, shown, wait_for

PRESSES = 400  # Tab presses at most to go round the window once


def ready(harness: Harness, qtbot, *modes: str) -> MainWindow:  # type: ignore[no-untyped-def]
    window = harness.window([demo_spec(mode, name=mode) for mode in modes or ("normal",)])
    wait_for(qtbot, lambda: shown(window))
    wait_for(qtbot, lambda: not window.tools_pane.planning)
    window.activateWindow()
    wait_for(qtbot, lambda: QApplication.activeWindow() is window)
    return window


def focused() -> QWidget:
    widget = QApplication.focusWidget()
    assert widget is not None
    return widget


def press(qtbot, key: str) -> None:  # type: ignore[no-untyped-def]
    """Press `key` ("Ctrl+1") where the focus is, as a person would."""
    combination = QKeySequence(key)[0]
    qtbot.keyClick(focused(), combination.key(), combination.keyboardModifiers())


def label(widget: QWidget) -> str:
    return widget.objectName() or f"{type(widget).__name__}:{widget.accessibleName()}"


def tab_round(qtbot, start: QWidget, backwards: bool = False) -> list[QWidget]:  # type: ignore[no-untyped-def]
    """Press Tab (or Shift+Tab) from `start` until the focus is back on it; each press must move the focus on."""
    start.setFocus(Qt.FocusReason.TabFocusReason)
    assert focused() is start
    visited = [start]
    for _ in range(PRESSES):
        before = focused()
        press(qtbot, "Shift+Tab" if backwards else "Tab")
        now = focused()
        assert now is not before, f"Tab stays in {label(before)}: a keyboard trap"
        if now is start:
            return visited
        assert now not in visited, f"Tab came back to {label(now)} before {label(start)}"
        visited.append(now)
    raise AssertionError(f"Tab never came back to {label(start)}: {[label(w) for w in visited[:40]]}")


def in_order(names: list[str], expected: Iterable[str]) -> bool:
    """Every one of `expected` is in `names`, in that order (others may come between)."""
    at = 0
    for name in expected:
        if name not in names[at:]:
            return False
        at = names.index(name, at) + 1
    return True


def test_tab_goes_sidebar_tools_tab_bar_then_the_page_and_never_stays(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = ready(harness, qtbot)
    names = [label(widget) for widget in tab_round(qtbot, window.server_list)]
    tab_bar = window.tabs.tabBar().objectName()
    assert names == ["serverList", "refreshButton", "toolFilter", "toolTree", "toolDetail", "pageTimelineSource",
                     "pageTimeline", "pageTimelineNames", tab_bar], "Cancel waits for a walk; the banner is hidden"  # fmt: skip
    backwards = [label(widget) for widget in tab_round(qtbot, window.server_list, backwards=True)]
    assert backwards == [names[0], *reversed(names[1:])], "Shift+Tab goes the same way back"

    # The Call tab, with a form made after the window: its fields come in the form's order, between the tool's
    # controls and the JSON, and Tab leaves the JSON (it takes no tab characters).
    tree = window.tools_pane.tree
    model = tree.model()
    row = next(r for r in range(model.rowCount()) if model.index(r, 0).data(Role.KEY) == "echo")
    tree.setCurrentIndex(model.index(row, 0))
    window.tabs.setCurrentWidget(window.call_panel)
    window.call_panel.editor.set_arguments({"text": "hi", "repeat": 2})
    form = window.call_panel.form
    rows = list(form.root.editor.rows.values())  # type: ignore[attr-defined]
    fields = [widget for row in rows for widget in (row.set_box, row.slot.target())]
    wait_for(qtbot, lambda: all(field.isVisible() for field in fields))  # shown a turn after they are made
    wait_for(qtbot, window.call_panel.send_button.isEnabled, timeout=10_000)  # the arguments were checked
    visited = tab_round(qtbot, window.server_list)
    names = [label(widget) for widget in visited]
    assert names[:3] == ["serverList", "refreshButton", tab_bar], "the Tools page is hidden"
    assert in_order(names, ["callRunAsTask", "callTimeout", "callButton", "argumentSets", "saveArgumentSet"])
    at = [visited.index(field) for field in fields]
    assert at == sorted(at) and at == list(range(at[0], at[0] + len(fields))), "the form's fields, in its order"
    assert names.index("saveArgumentSet") < at[0] and at[-1] < names.index("callArguments")
    assert in_order(names, ["callArguments", "validationMessages", "callResult", "callHistory"])


def test_keys_bring_up_every_tab_the_filter_and_the_sidebar(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = ready(harness, qtbot)
    for number in range(1, window.tabs.count() + 1):
        press(qtbot, f"Ctrl+{number}")
        page = window.tabs.widget(number - 1)
        assert window.tabs.currentIndex() == number - 1
        assert page.isAncestorOf(focused()) or focused() is window.tabs.tabBar(), (number, label(focused()))
    press(qtbot, "Ctrl+F")
    assert window.tabs.currentWidget() is window.tools_pane and focused() is window.tools_pane.filter
    qtbot.keyClicks(focused(), "count")
    assert window.tools_pane.filter.text() == "count"
    press(qtbot, "Ctrl+L")
    assert focused() is window.server_list
    press(qtbot, "Down")
    wait_for(qtbot, lambda: window.current is not None and window.current.name == "normal")
    window.tools_pane.tree.setFocus()
    press(qtbot, "Ctrl+Tab")
    assert window.tabs.currentIndex() == 1, "Ctrl+Tab: the next tab, from inside the tabs"
    press(qtbot, "Ctrl+Shift+Tab")
    assert window.tabs.currentIndex() == 0
    press(qtbot, "Alt+V")  # the View menu by its letter, then its Server list by its own
    menu = window.menuBar().actions()[2].menu()
    wait_for(qtbot, lambda: menu is not None and menu.isVisible())
    qtbot.keyClick(menu, Qt.Key.Key_S)
    wait_for(qtbot, lambda: focused() is window.server_list)


def test_enter_opens_a_tool_and_ctrl_return_sends_it(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = ready(harness, qtbot)
    tree = window.tools_pane.tree
    model = tree.model()
    row = next(r for r in range(model.rowCount()) if model.index(r, 0).data(Role.KEY) == "echo")
    tree.setFocus()
    tree.setCurrentIndex(model.index(row, 0))
    press(qtbot, "Return")
    panel = window.call_panel
    assert window.tabs.currentWidget() is panel and panel.tool is not None and panel.tool["name"] == "echo"
    wait_for(qtbot, lambda: panel.form.isAncestorOf(focused()))  # the form's first field, once it is shown
    assert focused() is panel.form.field_at("/text")
    qtbot.keyClicks(focused(), "hi")
    wait_for(qtbot, lambda: panel.send_button.isEnabled(), timeout=10_000)
    presenter = window.current
    assert presenter is not None
    with qtbot.waitSignal(presenter.supervisor.call_finished, timeout=20_000):
        press(qtbot, "Ctrl+Return")
    wait_for(qtbot, lambda: "hi" in panel.result.text.toPlainText())


def test_f5_refreshes_esc_cancels_and_ctrl_r_presses_the_banners_button(
    harness: Harness, qtbot, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    flaky = demo_spec("flaky", "--state", str(tmp_path / "flaky.json"), name="flaky")  # its walks 0, 2 … fail
    window = harness.window([flaky, demo_spec("slow", "--delay", "0.05", name="slow")])
    window.activateWindow()
    wait_for(qtbot, lambda: QApplication.activeWindow() is window)
    presenter = window.current
    assert presenter is not None and presenter.name == "flaky"
    wait_for(qtbot, lambda: presenter.supervisor.state is ServerState.FAILED)  # its first walk fails
    wait_for(qtbot, lambda: window.banner.retry.isVisible() and window.banner.retry.isEnabled())
    window.server_list.setFocus()
    press(qtbot, "Ctrl+R")
    wait_for(qtbot, lambda: shown(window))
    assert window.select_server("slow")
    wait_for(qtbot, lambda: shown(window))
    slow = window.current
    assert slow is not None
    press(qtbot, "F5")
    wait_for(qtbot, lambda: slow.supervisor.busy)
    press(qtbot, "Escape")
    wait_for(qtbot, lambda: not slow.supervisor.busy and slow.supervisor.state is ServerState.READY)


# -- no clashes, and letters for every menu action ---------------------------------------------------------
WINDOW_WIDE = (Qt.ShortcutContext.WindowShortcut, Qt.ShortcutContext.ApplicationShortcut)


def clashes(window: MainWindow) -> list[str]:
    """Keys two things of the window answer to: two window-wide actions, a widget's action on a window-wide key, a
    button's Alt+letter on an action's or a menu's, and two actions of one menu (or two menus) on one letter."""
    found: list[str] = []
    owners: dict[str, str] = {}

    def claim(keys: str, what: str) -> None:
        if keys in owners and owners[keys] != what:
            found.append(f"{keys}: {owners[keys]} and {what}")
        owners.setdefault(keys, what)

    for top in window.menuBar().actions():
        letter = QKeySequence.mnemonic(top.text()).toString()
        if letter:
            claim(letter, f"the {plain_text(top.text())} menu")
    actions = window.findChildren(QAction)
    for action in actions:
        if action.shortcutContext() in WINDOW_WIDE:
            for keys in action.shortcuts():
                claim(keys.toString(), f"action {plain_text(action.text())!r}")
    for action in actions:
        if action.shortcutContext() not in WINDOW_WIDE:
            for keys in action.shortcuts():
                if keys.toString() in owners:
                    found.append(f"{keys.toString()}: {owners[keys.toString()]} and {plain_text(action.text())!r}")
    for button in window.findChildren(QAbstractButton):
        if not button.shortcut().isEmpty():
            claim(button.shortcut().toString(), f"button {plain_text(button.text())!r}")
    for menu in window.menuBar().findChildren(QMenu):
        letters: dict[str, str] = {}
        for action in menu.actions():
            letter = QKeySequence.mnemonic(action.text()).toString()
            if not letter:
                continue
            if letter in letters:
                found.append(f"{letter} in {plain_text(menu.title())}: {letters[letter]} and {action.text()}")
            letters.setdefault(letter, action.text())
    return found


def test_no_two_actions_answer_to_one_key_and_every_menu_action_has_a_letter(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = ready(harness, qtbot)
    assert clashes(window) == []
    for path, action in menu_path_actions(window):
        assert not QKeySequence.mnemonic(action.text()).isEmpty(), f"{path} has no underlined letter"
    for key, action in window.server_actions.items():
        assert "&" in action.text(), key
    # The check catches what it is for.
    twin = QAction("Twin", window)
    twin.setShortcut(QKeySequence("F5"))
    window.addAction(twin)
    assert clashes(window) == ["F5: action 'Refresh' and action 'Twin'"]
    twin.setParent(None)
    menu = next(menu for menu in window.menuBar().findChildren(QMenu) if menu.title() == "&Servers")
    menu.addAction("&Another")
    assert any(clash.startswith("Alt+A in Servers") for clash in clashes(window))


def test_the_shortcuts_list_is_made_from_the_actions_as_they_are(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = ready(harness, qtbot)
    press(qtbot, "Ctrl+/")
    dialog = window.findChild(ShortcutsDialog)
    assert dialog is not None and dialog.isVisible()
    rows = dialog.rows
    for expected in (
        ("F5", "File › Refresh"),
        ("Esc", "File › Cancel walk"),
        ("Ctrl+R", "File › Retry (the banner's button)"),
        ("Ctrl+E", "File › Export snapshot…"),
        ("Ctrl+L", "View › Server list"),
        ("Ctrl+F", "View › Find tools"),
        ("Ctrl+1", "View › Tools tab"),
        ("Ctrl+2", "View › Call tab"),
        ("Ctrl+9", "View › Reach & collisions tab"),
        ("Ctrl+Return", "Call › Send call"),
        ("Ctrl+K", "Help › Command palette…"),
        ("Ctrl+/", "Help › Keyboard shortcuts"),
        ("Return, Enter", "Tools › Open in the Call tab"),
        ("Ctrl+C", "Page timeline › Copy full value"),
    ):
        assert expected in rows, (expected, rows)
    listed = {keys for keys, _ in rows}
    for action in window.findChildren(QAction):
        if action.shortcuts():
            assert keys_of(action) in listed, plain_text(action.text())
    dialog.close()
    window.menuBar().actions()[0].menu().addAction("&Later").setShortcut(QKeySequence("Ctrl+Shift+L"))
    press(qtbot, "Ctrl+/")
    later = [d for d in window.findChildren(ShortcutsDialog) if d.isVisible()]
    assert ("Ctrl+Shift+L", "File › Later") in later[-1].rows, "an action added later is listed: nothing to keep"


def test_ctrl_k_opens_one_palette_that_lists_every_tab(harness: Harness, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = ready(harness, qtbot)
    window.tools_pane.filter.setFocus()
    press(qtbot, "Ctrl+K")
    press(qtbot, "Escape")
    press(qtbot, "Ctrl+K")
    palettes = [palette for palette in window.findChildren(CommandPalette) if palette.isVisible()]
    assert len(palettes) == 1
    wait_for(qtbot, lambda: focused() is palettes[0].filter)
    texts = [entry.text for entry in palettes[0].entries]
    for number, page in enumerate(("Tools", "Call", "Resources"), start=1):
        assert f"View › {page} tab (Ctrl+{number})" in texts
    qtbot.keyClicks(palettes[0].filter, "drift tab")
    wait_for(qtbot, lambda: not palettes[0].scanning)
    press(qtbot, "Return")
    assert window.tabs.currentWidget() is window.drift_pane
