"""The Help menu: the command palette (Ctrl+K), the keyboard shortcuts (Ctrl+/), and About."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu

from catalog_inspector.ui.keyboard import shortcut_rows

if TYPE_CHECKING:
    from catalog_inspector.ui.main_window import MainWindow

__all__ = ["build_help_menu", "shortcut_lines"]


def shortcut_lines(window: MainWindow) -> list[str]:
    """Every shortcut as a line, `Ctrl+E: File › Export snapshot…` (see `ui.keyboard.shortcut_rows`)."""
    return [f"{keys}: {what}" for keys, what in shortcut_rows(window)]


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


def _shortcuts(window: MainWindow) -> None:
    from catalog_inspector.ui.dialogs.shortcuts import show_shortcuts

    show_shortcuts(window)


def _about(window: MainWindow) -> None:
    from catalog_inspector.ui.dialogs.about import show_about

    show_about(window)
