"""The command palette (Ctrl+K): every menu action, every server and the selected server's tools, by typing.

Entries are made when it opens: the window's menu actions that are enabled (with their
shortcuts), the sidebar's servers (an entry that cannot be used too: selecting it says
why), and the tools of the catalog shown. Typing keeps the entries whose words hold every
typed word (ignoring case); Enter or a double click runs the chosen one, Escape closes.

Fast over 10,000 tools: each entry's words are folded once, when it is made; a keystroke
looks at no more than CHUNK entries, and the rest are looked at in later turns of the
event loop (the list fills in as they come; typing again starts over). Typing more of the
same words looks only at what matched before. At most SHOWN are listed. Server text (a
server's or a tool's name) is shown plain in the list's items, cut and with invisible
characters made visible, as everywhere in the window.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QStringListModel, Qt, QTimer
from PySide6.QtGui import QAction, QKeyEvent
from PySide6.QtWidgets import QDialog, QLabel, QLineEdit, QListView, QMenu, QVBoxLayout, QWidget

from catalog_inspector.core.text import visible
from catalog_inspector.ui.accessible import describe
from catalog_inspector.ui.keyboard import keys_of, plain_text

if TYPE_CHECKING:
    from catalog_inspector.ui.main_window import MainWindow as WindowLike

__all__ = ["CHUNK", "SHOWN", "CommandPalette", "Entry", "menu_entries", "name_entries", "palette_for", "show_palette"]

SHOWN = 200  # entries listed at once
CHUNK = 2_000  # entries looked at per turn of the event loop (about a millisecond): what one keystroke costs at most
NAME_LIMIT = 120  # characters of a server's or a tool's name shown
PAGE = 10  # rows Page Up and Page Down move


@dataclass(frozen=True, slots=True)
class Entry:
    """One thing the palette can do: its words as listed, and what running it does."""

    text: str
    run: Callable[[], object]
    folded: str = field(init=False, repr=False, compare=False)  # `text` as matched: case folded, once

    def __post_init__(self) -> None:
        object.__setattr__(self, "folded", self.text.casefold())


def menu_entries(menus: Iterable[QMenu], leave_out: Sequence[QAction] = ()) -> list[Entry]:
    """Each enabled action of `menus` (and their submenus) as `File › Export snapshot… (Ctrl+E)`."""
    found: list[Entry] = []

    def walk(menu: QMenu, path: str) -> None:
        for action in menu.actions():
            if action.isSeparator() or not action.isVisible() or action in leave_out:
                continue
            text = f"{path} › {plain_text(action.text())}"
            sub = action.menu()
            if isinstance(sub, QMenu):
                walk(sub, text)
            elif action.isEnabled():
                keys = keys_of(action)
                found.append(Entry(text + (f" ({keys})" if keys else ""), action.trigger))

    for menu in menus:
        walk(menu, plain_text(menu.title()))
    return found


def name_entries(kind: str, names: Iterable[str], run: Callable[[str], object], note: str = "") -> list[Entry]:
    """`Server: NAME` / `Tool: NAME` entries (plain, cut, hidden characters visible) that call `run(name)`."""
    return [Entry(f"{kind}: {visible(name, NAME_LIMIT)}{note}", partial(run, name)) for name in names]


class CommandPalette(QDialog):
    """A filter over entries; running one closes the palette first.

    Attributes:
        entries: what it offers, in order (menus, servers, tools).
        shown: the entries listed now (the first SHOWN that match).
        scanning: the entries are still being looked at for the words typed (the list may grow).
        looked_at: how many entries were looked at for the words typed now (what typing cost).
    """

    def __init__(self, entries: list[Entry], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("commandPalette")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)  # one made per Ctrl+K: none piles up
        self.setWindowTitle("Command palette")
        self.entries = entries
        self.shown: list[Entry] = []
        self.scanning = False
        self.looked_at = 0
        self._words: list[str] = []
        self._query = ""
        self._pool: Sequence[int] = range(0)  # the indexes of the entries the words are looked for in
        self._at = 0  # how far into the pool the looking went
        self._matches: list[int] = []  # the indexes of the entries that hold every word, of the pool so far
        self._due = False  # a turn of looking is queued
        self.filter = QLineEdit(self)
        self.filter.setObjectName("paletteFilter")
        self.filter.setPlaceholderText("Type an action, a server or a tool…")
        self.filter.textChanged.connect(self._show)
        self.filter.installEventFilter(self)
        self.list = QListView(self)
        self.list.setObjectName("paletteList")
        self.list.setUniformItemSizes(True)
        self._model = QStringListModel(self)  # item text is literal, never rich
        self.list.setModel(self._model)
        self.list.activated.connect(self._on_list_activated)
        self.count = QLabel(self)
        self.count.setObjectName("paletteCount")
        self.count.setTextFormat(Qt.TextFormat.PlainText)
        layout = QVBoxLayout(self)
        layout.addWidget(self.filter)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.count)
        describe(self)
        self.setAccessibleName("Command palette")
        self.setAccessibleDescription("Type to find an action, a server or a tool; Enter runs it, Esc closes")
        self.resize(640, 420)
        self._show("")

    # -- matching ----------------------------------------------------------------------------------
    def _show(self, text: str) -> None:
        """Start looking for what is typed now: in what matched before when this only adds to it."""
        query = text.casefold()
        refined = not self.scanning and bool(self._words) and query.startswith(self._query)
        self._words, self._query = query.split(), query
        if not self._words:  # everything matches: nothing to look at
            self._pool, self._matches, self._at = range(0), list(range(len(self.entries))), 0
        else:
            self._pool = self._matches if refined else range(len(self.entries))
            self._matches, self._at = [], 0
        self.looked_at = 0
        self.shown = []
        self._model.setStringList([])
        self._scan()

    def _scan(self) -> None:
        """Look at the next CHUNK entries of the pool; queue the rest for the next turn of the event loop."""
        self._due = False
        entries, words, before = self.entries, self._words, len(self._matches)
        end = min(self._at + CHUNK, len(self._pool))
        for index in self._pool[self._at : end]:
            folded = entries[index].folded
            if all(word in folded for word in words):
                self._matches.append(index)
        self.looked_at += end - self._at
        self._at = end
        self.scanning = end < len(self._pool)
        if len(self.shown) < SHOWN and (len(self._matches) > before or not words):
            self.shown = [entries[index] for index in self._matches[:SHOWN]]
            row = max(0, self.list.currentIndex().row())
            self._model.setStringList([entry.text for entry in self.shown])
            if self.shown:
                self.list.setCurrentIndex(self._model.index(min(row, len(self.shown) - 1), 0))
        self._say_count()
        if self.scanning and not self._due:
            self._due = True
            QTimer.singleShot(0, self, self._scan)

    def _say_count(self) -> None:
        total, found = len(self.entries), len(self._matches)
        if not self._words:
            self.count.setText(f"{total:,}")
        elif self.scanning:
            self.count.setText(f"{found:,} of {total:,} so far…")
        else:
            more = f" (the first {SHOWN:,} shown: type more)" if found > SHOWN else ""
            self.count.setText(f"{found:,} of {total:,}{more}")

    # -- running -----------------------------------------------------------------------------------
    def run(self, row: int | None = None) -> bool:
        """Run the entry at `row` (the current one by default); False when there is none."""
        row = self.list.currentIndex().row() if row is None else row
        if not 0 <= row < len(self.shown):
            return False
        entry = self.shown[row]
        self.accept()
        entry.run()
        return True

    def _on_list_activated(self, index: object) -> None:
        self.run(self.list.currentIndex().row())

    def _move(self, step: int) -> None:
        if self.shown:
            row = max(0, min(len(self.shown) - 1, self.list.currentIndex().row() + step))
            self.list.setCurrentIndex(self._model.index(row, 0))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # Up, Down, Page Up and Page Down move in the list while the filter keeps the keyboard; Enter runs.
        if watched is self.filter and isinstance(event, QKeyEvent) and event.type() == QEvent.Type.KeyPress:
            steps = {Qt.Key.Key_Down: 1, Qt.Key.Key_Up: -1, Qt.Key.Key_PageDown: PAGE, Qt.Key.Key_PageUp: -PAGE}
            key = Qt.Key(event.key())
            if key in steps:
                self._move(steps[key])
                return True
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                self.run()
                return True
        return super().eventFilter(watched, event)


def palette_for(window: WindowLike) -> CommandPalette:
    """The palette over `window`'s menus (less the palette's own action), its servers and the shown tools."""
    menus = [menu for action in window.menuBar().actions() if isinstance(menu := action.menu(), QMenu)]
    entries = menu_entries(menus, window.findChildren(QAction, "paletteAction"))
    entries += name_entries("Server", list(window.app.presenters), partial(_select_server, window))
    problems = [problem.name for problem in window.app.problems]
    entries += name_entries("Server", problems, partial(_select_server, window), " (cannot be used: see why)")
    entries += _tool_entries(window)
    return CommandPalette(entries, window)


# The shown catalog's tool entries, made once per catalog and window (10,000 take ~15 ms): Ctrl+K again is cheap.
_TOOLS: weakref.WeakKeyDictionary[QWidget, tuple[object, list[Entry]]] = weakref.WeakKeyDictionary()


def _tool_entries(window: WindowLike) -> list[Entry]:
    catalog = window.presenter.catalog if window.presenter is not None else None
    made = _TOOLS.get(window)
    if made is None or made[0] is not catalog or catalog is None or window.tools_pane.planning:
        made = (catalog, name_entries("Tool", window.tools_pane.model.tool_names(), partial(_show_tool, window)))
        if not window.tools_pane.planning:  # the tree shows the catalog it names (not the one before, still)
            _TOOLS[window] = made
    return made[1]


def _select_server(window: WindowLike, name: str) -> None:
    if window.select_server(name):
        window.server_list.setFocus(Qt.FocusReason.OtherFocusReason)


def _show_tool(window: WindowLike, name: str) -> None:
    """The tool's row in the Tools tab, current and in view, with the focus: Enter then opens it in the Call tab."""
    window.tabs.setCurrentWidget(window.tools_pane)
    if window.tools_pane.show_tool(name):
        window.tools_pane.tree.setFocus(Qt.FocusReason.OtherFocusReason)


def show_palette(window: WindowLike) -> CommandPalette:
    """Open the palette over `window` (not modal: the window goes on painting); one at a time."""
    for open_already in window.findChildren(CommandPalette):
        open_already.close()
    dialog = palette_for(window)
    dialog.show()
    dialog.activateWindow()
    dialog.filter.setFocus(Qt.FocusReason.ShortcutFocusReason)
    return dialog
