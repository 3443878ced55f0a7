"""The command palette (Ctrl+K): every menu action, every server and the selected server's tools, by typing.

Entries are made when it opens: the window's menu actions that are enabled (with their
shortcuts), the sidebar's servers, and the tools of the catalog shown. Typing keeps the
entries whose words contain every typed word (ignoring case); Enter or a double click
runs the first or the chosen one, Escape closes. At most SHOWN are listed, so 10,000
tools cost one pass over their names per keystroke. Server text is shown plain, cut and
with invisible characters made visible, as everywhere in the window.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QStringListModel, Qt
from PySide6.QtGui import QAction, QKeyEvent
from PySide6.QtWidgets import QDialog, QLabel, QLineEdit, QListView, QMenu, QVBoxLayout, QWidget

from catalog_inspector.core.text import visible

if TYPE_CHECKING:
    from catalog_inspector.ui.main_window import MainWindow as WindowLike

__all__ = ["SHOWN", "CommandPalette", "Entry", "menu_entries", "palette_for", "show_palette"]

SHOWN = 200  # entries listed at once
NAME_LIMIT = 120  # characters of a server's or a tool's name shown


@dataclass(frozen=True)
class Entry:
    """One thing the palette can do: its words as listed, and what running it does."""

    text: str
    run: Callable[[], object]

    @property
    def folded(self) -> str:
        return self.text.casefold()


def menu_entries(menus: Iterable[QMenu]) -> list[Entry]:
    """Each enabled action of `menus` (and their submenus) as `File › Export snapshot… (Ctrl+E)`."""
    found: list[Entry] = []

    def walk(menu: QMenu, path: str) -> None:
        for action in menu.actions():
            if action.isSeparator() or not action.isVisible():
                continue
            text = action.text().replace("&", "")
            sub = action.menu()
            if isinstance(sub, QMenu):
                walk(sub, f"{path} › {text}")
            elif action.isEnabled():
                keys = action.shortcut().toString()
                found.append(Entry(f"{path} › {text}" + (f" ({keys})" if keys else ""), _trigger(action)))

    for menu in menus:
        walk(menu, menu.title().replace("&", ""))
    return found


def _trigger(action: QAction) -> Callable[[], object]:
    return action.trigger


def name_entries(kind: str, names: Iterable[str], run: Callable[[str], object]) -> list[Entry]:
    """`Server: NAME` / `Tool: NAME` entries that call `run(name)`."""
    return [Entry(f"{kind}: {visible(name, NAME_LIMIT)}", _with(run, name)) for name in names]


def _with(run: Callable[[str], object], name: str) -> Callable[[], object]:
    return lambda: run(name)


class CommandPalette(QDialog):
    """A filter over entries; running one closes the palette first.

    Attributes:
        entries: what it offers, in order (menus, servers, tools).
        shown: the entries listed now (the first SHOWN that match).
    """

    def __init__(self, entries: list[Entry], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("commandPalette")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)  # one made per Ctrl+K: none piles up
        self.setWindowTitle("Command palette")
        self.setAccessibleName("Command palette")
        self.setAccessibleDescription("Type to find an action, a server or a tool; Enter runs it")
        self.entries = entries
        self.shown: list[Entry] = []
        self.filter = QLineEdit(self)
        self.filter.setObjectName("paletteFilter")
        self.filter.setAccessibleName("Find an action, a server or a tool")
        self.filter.setPlaceholderText("Type an action, a server or a tool…")
        self.filter.textChanged.connect(self._show)
        self.filter.installEventFilter(self)
        self.list = QListView(self)
        self.list.setObjectName("paletteList")
        self.list.setAccessibleName("Matching actions, servers and tools")
        self.list.setUniformItemSizes(True)
        self._model = QStringListModel(self)
        self.list.setModel(self._model)
        self.list.activated.connect(lambda index: self.run(index.row()))
        self.count = QLabel(self)
        self.count.setObjectName("paletteCount")
        self.count.setTextFormat(Qt.TextFormat.PlainText)
        layout = QVBoxLayout(self)
        layout.addWidget(self.filter)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.count)
        self.resize(640, 420)
        self._show("")

    def _show(self, text: str) -> None:
        words = text.casefold().split()
        matching = (entry for entry in self.entries if all(word in entry.folded for word in words))
        self.shown = []
        total = 0
        for entry in matching:
            total += 1
            if len(self.shown) < SHOWN:
                self.shown.append(entry)
        self._model.setStringList([entry.text for entry in self.shown])
        if self.shown:
            self.list.setCurrentIndex(self._model.index(0, 0))
        more = f" (the first {SHOWN:,} shown: type more)" if total > SHOWN else ""
        self.count.setText(f"{total:,} of {len(self.entries):,}{more}" if words else f"{len(self.entries):,}")

    def run(self, row: int | None = None) -> bool:
        """Run the entry at `row` (the current one by default); False when there is none."""
        row = self.list.currentIndex().row() if row is None else row
        if not 0 <= row < len(self.shown):
            return False
        entry = self.shown[row]
        self.accept()
        entry.run()
        return True

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # Up and Down move in the list while the filter keeps the keyboard; Enter runs.
        if watched is self.filter and isinstance(event, QKeyEvent) and event.type() == QEvent.Type.KeyPress:
            key = event.key()
            if key in (Qt.Key.Key_Down, Qt.Key.Key_Up) and self.shown:
                step = 1 if key == Qt.Key.Key_Down else -1
                row = max(0, min(len(self.shown) - 1, self.list.currentIndex().row() + step))
                self.list.setCurrentIndex(self._model.index(row, 0))
                return True
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                self.run()
                return True
        return super().eventFilter(watched, event)


def palette_for(window: WindowLike) -> CommandPalette:
    """The palette over `window`'s menus (less the palette's own action), its servers and the shown tools."""
    menus = [menu for action in window.menuBar().actions() if isinstance(menu := action.menu(), QMenu)]
    entries = [entry for entry in menu_entries(menus) if not entry.text.startswith("Help › Command palette")]
    entries += name_entries("Server", list(window.app.presenters), window.select_server)

    def show_tool(name: str) -> None:
        window.tabs.setCurrentWidget(window.tools_pane)
        window.tools_pane.show_tool(name)

    entries += name_entries("Tool", window.tools_pane.model.tool_names(), show_tool)
    return CommandPalette(entries, window)


def show_palette(window: WindowLike) -> CommandPalette:
    """Open the palette over `window` (not modal: the window goes on painting)."""
    dialog = palette_for(window)
    dialog.show()
    return dialog
