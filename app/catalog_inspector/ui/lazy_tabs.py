"""Tab pages built when they are first needed, so the window's first frame waits only for what it shows.

A page starts as an empty placeholder in its place in the tab bar, with its title.
It is built (and takes the placeholder's place) when something asks for it (`get`),
when its tab is chosen, or in turns of the event loop after the window's first
paint (`build_next`, one page per turn: each is a frame's work or less). Whoever
made the page hears `on_built` and brings it up to date.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QTabWidget, QWidget

__all__ = ["LazyTabs"]


class LazyTabs:
    """Named pages of a QTabWidget, each built once, on first need.

    Attributes:
        tabs: the tab widget.
        names: every page's name, in tab order.
    """

    def __init__(self, tabs: QTabWidget, on_built: Callable[[str, QWidget], None]) -> None:
        self.tabs = tabs
        self.names: list[str] = []
        self._on_built = on_built
        self._builders: dict[str, Callable[[], QWidget]] = {}
        self._pages: dict[str, QWidget] = {}  # the placeholder, then the page
        self._building = False
        tabs.currentChanged.connect(self._on_tabs_current_changed)

    def add(self, name: str, title: str, build: Callable[[], QWidget], index: int = -1) -> None:
        """A page, built later by `build` (its parent is set when it takes its place)."""
        placeholder = QWidget(self.tabs)
        placeholder.setObjectName(f"lazyPage:{name}")
        self.tabs.insertTab(index, placeholder, title)
        self._builders[name] = build
        self._pages[name] = placeholder
        self.names.append(name)

    @property
    def pending(self) -> list[str]:
        """The names of the pages not built yet, in tab order."""
        return [name for name in self.names if name in self._builders]

    def built(self, name: str) -> QWidget | None:
        """The page if it has been built, else None (nothing is built by asking this)."""
        return None if name in self._builders else self._pages[name]

    def set_title(self, name: str, title: str) -> None:
        """The tab's title, set only when it differs: a title set, even the same one, lays the tab bar out and
        repaints its strip again (`StillTabs`; a plain QTabWidget repaints its page whole)."""
        index = self.tabs.indexOf(self.page(name))
        if self.tabs.tabText(index) != title:
            self.tabs.setTabText(index, title)

    def page(self, name: str) -> QWidget:
        """What stands in the tab bar for `name` now: the page, or its placeholder (for titles and indexes)."""
        return self._pages[name]

    def get(self, name: str) -> QWidget:
        """The page, built now if it was not."""
        build = self._builders.pop(name, None)
        if build is None:
            return self._pages[name]
        placeholder = self._pages[name]
        index = self.tabs.indexOf(placeholder)
        current = self.tabs.currentIndex() == index
        title = self.tabs.tabText(index)  # as it is now: a title may have changed while the page waited
        tip = self.tabs.tabToolTip(index)  # what the tab is, to a screen reader too (its accessible description)
        page = build()
        self._pages[name] = page
        self._building = True  # the swap moves the current tab for a moment: that is no choice of the user's
        try:
            self.tabs.removeTab(index)
            self.tabs.insertTab(index, page, title)
            self.tabs.setTabToolTip(index, tip)
            if current:
                self.tabs.setCurrentIndex(index)
        finally:
            self._building = False
        placeholder.deleteLater()
        self._on_built(name, page)
        return page

    def build_next(self) -> bool:
        """Build the first page not built yet; False when every page is built."""
        pending = self.pending
        if not pending:
            return False
        self.get(pending[0])
        return len(pending) > 1

    def build_all(self) -> None:
        while self.build_next():
            pass

    def _on_tabs_current_changed(self, index: int) -> None:
        if self._building:
            return
        for name in self.pending:
            if self.tabs.indexOf(self._pages[name]) == index:
                self.get(name)
                return
