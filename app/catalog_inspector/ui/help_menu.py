"""The Help menu: the command palette (Ctrl+K), the keyboard shortcuts, and About."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu, QMessageBox

if TYPE_CHECKING:
    from catalog_inspector.ui.main_window import MainWindow

__all__ = ["build_help_menu", "shortcut_lines"]

# Keys that are no menu action's: the window's own, and Qt's, written out.
OTHER_KEYS = (
    ("Tab / Shift+Tab", "move between the sidebar, the tabs and their fields"),
    ("Ctrl+Tab / Ctrl+Shift+Tab", "the next or previous tab"),
    ("Up / Down, Enter", "choose a server in the sidebar, a row in a table"),
    ("Double-click or Enter on a tool", "open it in the Call tab"),
)


def shortcut_lines(window: MainWindow) -> list[str]:
    """Every menu action with a shortcut, `Ctrl+E  File › Export snapshot…`, then the other keys."""
    lines = []
    for top in window.menuBar().actions():
        menu = top.menu()
        if not isinstance(menu, QMenu):
            continue
        for action in menu.actions():
            keys = action.shortcut().toString()
            if keys:
                lines.append(f"{keys:<14} {top.text().replace('&', '')} › {action.text().replace('&', '')}")
    lines.extend(f"{keys}: {what}" for keys, what in OTHER_KEYS)
    return lines


def build_help_menu(window: MainWindow, menu: QMenu) -> None:
    palette = _add(window, menu, "paletteAction", "Command &palette…", "Ctrl+K")
    palette.triggered.connect(lambda: _palette(window))
    keys = _add(window, menu, "shortcutsAction", "&Keyboard shortcuts", "Ctrl+/")
    keys.triggered.connect(lambda: _shortcuts(window))
    about = _add(window, menu, "aboutAction", "&About MCP Catalog Inspector", "")
    about.triggered.connect(lambda: _about(window))


def _add(window: MainWindow, menu: QMenu, name: str, text: str, keys: str) -> QAction:
    action = menu.addAction(text)
    action.setObjectName(name)
    if keys:
        action.setShortcut(QKeySequence(keys))
        window.addAction(action)  # the shortcut works wherever the focus is
    return action


def _palette(window: MainWindow) -> None:
    from catalog_inspector.ui.dialogs.palette import show_palette

    show_palette(window)


def _shortcuts(window: MainWindow) -> QMessageBox:
    box = QMessageBox(QMessageBox.Icon.Information, "Keyboard shortcuts", "Keyboard shortcuts", parent=window)
    box.setObjectName("shortcutsDialog")
    box.setInformativeText("\n".join(shortcut_lines(window)))
    box.show()
    return box


def _about(window: MainWindow) -> None:
    from catalog_inspector.ui.dialogs.about import show_about

    show_about(window)
