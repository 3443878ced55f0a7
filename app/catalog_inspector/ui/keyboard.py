"""The keyboard: the order Tab follows, the View and Call menus' keys, and the list of every shortcut.

Tab order. Qt chains a window's widgets in the order they were made, and puts a widget
made later (a form's fields, a template's variables, a result's links, a page built on
first need) at the end of the whole window's chain. `follow_layout(container)` chains a
container's widgets in the order its layouts show them (row by row, splitter and stack
pages in order), right after the container: called once a page or a form is built, and
again when it grows. The window's own order is sidebar → Refresh, Cancel → the banner's
buttons → the Tools page (filter, tree, detail, the timeline's walk, pages and names) →
the tab bar → the page shown (`MainWindow._build`).

Shortcuts are QActions in the menus (so the palette, Help › Keyboard shortcuts and the
mnemonics all see them); `shortcut_rows` lists them from the window's actions as they are,
with the keys Qt itself gives (`QT_KEYS`), so the list cannot go stale.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import partial
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QAbstractSpinBox,
    QComboBox,
    QFormLayout,
    QLayout,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QScrollArea,
    QSplitter,
    QStackedWidget,
    QTabBar,
    QTabWidget,
    QTextEdit,
    QWidget,
)

if TYPE_CHECKING:
    from catalog_inspector.ui.main_window import MainWindow

__all__ = [
    "QT_KEYS",
    "TAB_BAR_AFTER_FIRST_PAGE",
    "add_open_tool_action",
    "build_call_menu",
    "build_file_menu",
    "build_view_menu",
    "chain",
    "focus_first",
    "follow_layout",
    "in_layout_order",
    "keys_of",
    "menu_path_actions",
    "open_tool",
    "plain_text",
    "press_banner_button",
    "shortcut_rows",
    "show_page",
    "tab_pages",
    "with_mnemonic",
]

# Keys no action of ours owns: Qt's, in words. Each is checked by tests/ui/test_keyboard.py.
QT_KEYS = (
    ("Tab / Shift+Tab", "the next or previous field: sidebar, Refresh, the banner, the Tools page, the tabs, the page"),
    ("Ctrl+Tab / Ctrl+Shift+Tab", "the next or previous tab, from inside the tabs"),
    ("Up / Down", "the previous or next server in the sidebar, row in a table or tool in the tree"),
    ("Alt + underlined letter", "open a menu; then the underlined letter runs its action"),
)

TAB_BAR_AFTER_FIRST_PAGE = "tabBarAfterFirstPage"  # a QTabWidget's property: Tab reaches its first page first

# Each page of the window, in a few words: its tab's tooltip, which is the tab's accessible description.
PAGE_WORDS = {
    "tools": "The catalog's tools, their filter and the tools' page timeline",
    "call": "A test call to the selected tool: its arguments, the answer and the server's calls",
    "resources": "The resources, one read at a time, and their page timeline",
    "resource_templates": "The resource templates, filled in and read, and their page timeline",
    "prompts": "The prompts, got with their arguments, and their page timeline",
    "server": "What the server said of itself and what it was sent, and its log",
    "drift": "What changed since the previous catalog, the approval and the kept snapshots",
    "duplicates": "The names a rejected walk was sent twice, side by side",
    "checks": "What a host that reads one page gets, the excluded tools and the names servers share",
}

_COMPOSITE = (QAbstractItemView, QAbstractSpinBox, QComboBox, QLineEdit, QPlainTextEdit, QTextEdit, QTabBar)


def plain_text(text: str) -> str:
    """A menu or button text as read: `&&` is an ampersand, `&x` marks the mnemonic x."""
    return re.sub(r"&(.)", r"\1", text)


def keys_of(action: QAction) -> str:
    """The action's shortcuts as the platform writes them ("Ctrl+K"), several joined by ", "."""
    return ", ".join(keys.toString(QKeySequence.SequenceFormat.NativeText) for keys in action.shortcuts())


# -- Tab order ------------------------------------------------------------------------------------------------
def _from_layout(layout: QLayout) -> list[QWidget]:
    if isinstance(layout, QFormLayout):  # row by row: the label, then its field
        items = [
            layout.itemAt(row, role)
            for row in range(layout.rowCount())
            for role in (
                QFormLayout.ItemRole.LabelRole,
                QFormLayout.ItemRole.FieldRole,
                QFormLayout.ItemRole.SpanningRole,
            )
        ]
    else:
        items = [layout.itemAt(index) for index in range(layout.count())]
    found: list[QWidget] = []
    for item in items:
        if item is None:
            continue
        if (widget := item.widget()) is not None:
            found.append(widget)
        elif (inner := item.layout()) is not None:
            found += _from_layout(inner)
    return found


def _shown_children(widget: QWidget) -> list[QWidget]:
    """A widget's children in the order they are shown (the rest after, as made)."""
    if isinstance(widget, _COMPOSITE):
        return []  # its own parts: Qt chains them
    if isinstance(widget, QTabWidget):  # its pages (not its stack), with the tab bar first or after the first page
        pages = [page for index in range(widget.count()) if (page := widget.widget(index)) is not None]
        if widget.property(TAB_BAR_AFTER_FIRST_PAGE):
            return [*pages[:1], widget.tabBar(), *pages[1:]]
        return [widget.tabBar(), *pages]
    if isinstance(widget, QScrollArea):  # the widget it scrolls (not its viewport)
        inner = widget.widget()
        return [inner] if inner is not None else []
    listed: list[QWidget]
    if isinstance(widget, QSplitter | QStackedWidget):
        listed = [page for index in range(widget.count()) if (page := widget.widget(index)) is not None]
    else:
        layout = widget.layout()
        listed = _from_layout(layout) if layout is not None else []
    known = set(listed)
    rest = [child for child in widget.children() if isinstance(child, QWidget) and child not in known]
    return [*listed, *(child for child in rest if not child.isWindow())]


def in_layout_order(container: QWidget) -> list[QWidget]:
    """The widgets inside `container` that Tab stops at, in the order its layouts show them."""
    found: list[QWidget] = []
    seen: set[QWidget] = set()

    def visit(widget: QWidget) -> None:
        for child in _shown_children(widget):
            if child in seen:
                continue
            seen.add(child)
            if _takes_tab(child):
                found.append(child)  # (a spin box, with its line edit as proxy, moves as one: Qt keeps its parts)
            visit(child)

    visit(container)
    return found


def chain(widgets: Iterable[QWidget]) -> None:
    """Tab goes from each widget to the next, in this order (they are in one window, and take focus)."""
    before: QWidget | None = None
    for widget in widgets:
        if before is not None:
            QWidget.setTabOrder(before, widget)
        before = widget


def _takes_tab(widget: QWidget) -> bool:
    return bool(widget.focusPolicy() & Qt.FocusPolicy.TabFocus) and not isinstance(widget, QTabWidget)


def _before(container: QWidget) -> QWidget | None:
    """The widget Tab stops at just before `container`'s own, in its ancestors' layout order (only what comes
    before it is looked through: a big form costs nothing here)."""
    child = container
    while not child.isWindow() and (parent := child.parentWidget()) is not None:
        grand = parent.parentWidget()
        level = grand if isinstance(parent, QStackedWidget) and isinstance(grand, QTabWidget) else parent
        shown = _shown_children(level)
        at = next((index for index, sibling in enumerate(shown) if sibling is child), -1)
        for sibling in reversed(shown[: max(at, 0)]):
            inside = in_layout_order(sibling)
            if inside:
                return inside[-1]
            if _takes_tab(sibling):
                return sibling
        child = level
    return None


def follow_layout(container: QWidget) -> None:
    """Tab follows `container`'s layouts through its widgets, from the widget before it in its ancestors' order.

    Qt moves only widgets that take focus (a container that takes none cannot anchor a chain), so the chain
    starts at the field Tab reaches before the container's first one.
    """
    for tabs in [container, *container.findChildren(QTabWidget)]:
        if isinstance(tabs, QTabWidget) and tabs.focusProxy() is tabs.tabBar():
            # A tab widget hands its focus to its tab bar, and Qt moves the bar, never the tab widget, in the chain:
            # left as it is, Tab would come to the bar again from wherever the tab widget was made. The bar takes
            # the focus itself (the proxy is let go first: Qt would pass the policy on to it).
            tabs.setFocusProxy(None)  # type: ignore[arg-type]  # Qt takes no proxy: the stubs say otherwise
            tabs.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    widgets = in_layout_order(container)
    if widgets:
        before = _before(container)
        chain([before, *widgets] if before is not None else widgets)


# -- the menus' keys -------------------------------------------------------------------------------------------
def menu_path_actions(window: MainWindow) -> list[tuple[str, QAction]]:
    """Every action of the window's menus (and their submenus) with its path: ("File › Refresh", action)."""
    found: list[tuple[str, QAction]] = []

    def walk(menu: QMenu, path: str) -> None:
        for action in menu.actions():
            if action.isSeparator():
                continue
            text = f"{path} › {plain_text(action.text())}"
            sub = action.menu()
            if isinstance(sub, QMenu):
                walk(sub, text)
            else:
                found.append((text, action))

    for top in window.menuBar().actions():
        if isinstance(menu := top.menu(), QMenu):
            walk(menu, plain_text(top.text()))
    return found


def shortcut_rows(window: MainWindow) -> list[tuple[str, str]]:
    """(keys, what) for every action of the window with a shortcut: the menus' first, by path, then those of its
    widgets (named by the widget's accessible name), then the keys Qt gives (`QT_KEYS`)."""
    rows: list[tuple[str, str]] = []
    seen: set[QAction] = set()
    for path, action in menu_path_actions(window):
        seen.add(action)
        if keys := keys_of(action):
            rows.append((keys, path))
    for action in window.findChildren(QAction):
        if action in seen or not (keys := keys_of(action)):
            continue
        seen.add(action)
        owner = action.parent()
        where = owner.accessibleName() if isinstance(owner, QWidget) and owner.accessibleName() else "Window"
        what = f"{where} › {plain_text(action.text())}"
        if (keys, what) not in rows:  # one line for the same key on each of the four timelines
            rows.append((keys, what))
    rows.extend(QT_KEYS)
    return rows


def _add(menu: QMenu, window: QWidget, key: str, text: str, keys: str, run: Callable[[], object]) -> QAction:
    action = QAction(text, window)
    action.setObjectName(key)
    if keys:
        action.setShortcut(QKeySequence(keys))
    action.triggered.connect(run)
    menu.addAction(action)
    window.addAction(action)  # the shortcut works wherever the focus is in the window
    return action


def build_file_menu(window: MainWindow, menu: QMenu) -> dict[str, QAction]:
    """File: refresh (F5), cancel the walk (Esc), export (Ctrl+E), the banner's button (Ctrl+R), quit (Ctrl+Q); by
    key ("refresh", "cancel", "export", "retry", "quit"). Object names `fileAction:<key>`."""
    rows: tuple[tuple[str, str, str, Callable[[], object]], ...] = (
        ("refresh", "&Refresh", "F5", window.refresh),
        ("cancel", "&Cancel walk", "Esc", window.cancel),
        ("export", "&Export snapshot…", "Ctrl+E", lambda: window.export_snapshot()),  # not `checked` as a path
        ("retry", "Re&try (the banner's button)", "Ctrl+R", lambda: press_banner_button(window)),
        ("quit", "&Quit", "Ctrl+Q", window.close),
    )
    return {key: _add(menu, window, f"fileAction:{key}", text, keys, run) for key, text, keys, run in rows}


def add_open_tool_action(window: MainWindow) -> QAction:
    """Enter on a tool opens it in the Call tab, the focus in its form, as a double click opens it (a shortcut of
    the tree's: `activated` is a single click where the desktop opens items with one)."""
    tree = window.tools_pane.tree
    action = QAction("Open in the Call tab", tree)
    action.setObjectName("openToolAction")
    action.setShortcuts([QKeySequence(Qt.Key.Key_Return), QKeySequence(Qt.Key.Key_Enter)])
    action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
    action.triggered.connect(lambda: open_tool(window))
    tree.addAction(action)
    return action


def open_tool(window: MainWindow) -> None:
    """The chosen tool in the Call tab, the focus in its form (or on Send when it takes no arguments)."""
    presenter = window.presenter
    if presenter is not None and presenter.call.tool is not None:
        window.tabs.setCurrentWidget(window.call_panel)
        window.call_panel.focus_arguments()


def build_view_menu(window: MainWindow, menu: QMenu) -> dict[str, QAction]:
    """View: the server list (Ctrl+L), find tools (Ctrl+F), and each tab (Ctrl+1 … Ctrl+9); by key ("servers",
    "filter", then each page's name: "tools", "call", …). Object names `viewAction:<key>`."""
    actions = {
        "servers": _add(
            menu, window, "viewAction:servers", "&Server list", "Ctrl+L", lambda: focus_server_list(window)
        ),
        "filter": _add(menu, window, "viewAction:filter", "&Find tools", "Ctrl+F", lambda: focus_tool_filter(window)),
    }
    menu.addSeparator()
    taken = {"s", "f"}
    for number, (page, widget) in enumerate(tab_pages(window), start=1):
        title = plain_text(window.tabs.tabText(window.tabs.indexOf(widget)))
        text = with_mnemonic(f"{title} tab", taken)
        keys = f"Ctrl+{number}" if number <= 9 else ""
        words = PAGE_WORDS.get(page, title)
        window.tabs.setTabToolTip(window.tabs.indexOf(widget), f"{words} ({keys})" if keys else words)
        actions[page] = _add(menu, window, f"viewAction:{page}", text, keys, partial(show_page, window, page))
    return actions


def build_call_menu(window: MainWindow, menu: QMenu) -> dict[str, QAction]:
    """Call: send the call shown in the Call tab (Ctrl+Return), cancel it; by key ("send", "cancel").
    Object names `callAction:<key>`."""
    return {
        "send": _add(menu, window, "callAction:send", "&Send call", "Ctrl+Return", lambda: send_call(window)),
        "cancel": _add(menu, window, "callAction:cancel", "&Cancel call", "", lambda: cancel_call(window)),
    }


def tab_pages(window: MainWindow) -> list[tuple[str, QWidget]]:
    """Each tab's page name ("tools", then `WindowPages`' names) and what stands in the tab bar for it now."""
    return [("tools", window.tools_pane), *((page, window.pages.page(page)) for page in window.pages.names)]


def with_mnemonic(text: str, taken: set[str]) -> str:
    """`text` (plain) with `&` before its first letter that `taken` does not hold yet (then held), if any."""
    for at, letter in enumerate(text):
        if letter.isalnum() and letter.casefold() not in taken:
            taken.add(letter.casefold())
            return text[:at].replace("&", "&&") + "&" + text[at:].replace("&", "&&")
    return text.replace("&", "&&")


# -- what the keys do -------------------------------------------------------------------------------------------
def focus_first(container: QWidget) -> bool:
    """Focus the first field of `container` Tab would stop at (shown and enabled); False if none."""
    for widget in in_layout_order(container):
        if widget.isVisible() and widget.isEnabled():
            widget.setFocus(Qt.FocusReason.ShortcutFocusReason)
            return True
    return False


def show_page(window: MainWindow, page: str) -> QWidget:
    """Bring a tab up (built now if it waited) and put the focus in it: its first field, else the tab bar."""
    widget = window.tools_pane if page == "tools" else window.pages.get(page)
    window.tabs.setCurrentWidget(widget)
    if not focus_first(widget):
        window.tabs.tabBar().setFocus(Qt.FocusReason.ShortcutFocusReason)
    return widget


def focus_server_list(window: MainWindow) -> None:
    window.server_list.setFocus(Qt.FocusReason.ShortcutFocusReason)


def focus_tool_filter(window: MainWindow) -> None:
    """The Tools tab, its filter focused with its text selected: typing replaces it."""
    window.tabs.setCurrentWidget(window.tools_pane)
    window.tools_pane.filter.setFocus(Qt.FocusReason.ShortcutFocusReason)
    window.tools_pane.filter.selectAll()


def send_call(window: MainWindow) -> bool:
    """The Call tab comes up and sends what it shows, as its Send button would; the status bar says why not."""
    panel = window.call_panel
    window.tabs.setCurrentWidget(panel)
    if panel.send_button.isEnabled():
        return panel.send()
    window.app.messages.info(
        "Nothing sent: pick a tool, fix its arguments (or tick Send even if invalid), or wait for the call in flight."
    )
    return False


def cancel_call(window: MainWindow) -> bool:
    return window.call_panel.cancel()


def press_banner_button(window: MainWindow) -> bool:
    """File › Retry (Ctrl+R): press the banner's button (Retry, Reconnect, Refresh, Run it, Show drift, Edit…)."""
    button = window.banner.retry
    if window.banner.isVisible() and button.isVisible() and button.isEnabled():
        button.click()
        return True
    window.app.messages.info("The banner offers nothing to press now.")
    return False
