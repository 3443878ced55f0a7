"""The main window's pages after Tools: Call, the other lists, Server & log, Drift, Duplicates, Reach & collisions.

They are built after the window's first frame, one per turn of the event loop, or
when first needed (`ui.lazy_tabs`): the first frame waits only for the sidebar, the
header and the Tools page, and their modules are imported when they are built. A
page built late is brought up to date with the selected server at once (`_on_built`);
until then the window's handlers skip it (the `built_*` accessors say None).
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any, cast

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QPlainTextEdit, QSplitter, QTabWidget, QWidget

from catalog_inspector.core.catalog import LIST_KINDS, LIST_NAMES
from catalog_inspector.ui.accessible import describe
from catalog_inspector.ui.batch import FRAME_MS
from catalog_inspector.ui.keyboard import follow_layout
from catalog_inspector.ui.lazy_tabs import LazyTabs
from catalog_inspector.ui.presenters.words import list_notice
from catalog_inspector.ui.widgets.panes import plain_text_view, set_capped_text

if TYPE_CHECKING:
    from catalog_inspector.ui.main_window import MainWindow
    from catalog_inspector.ui.presenters import ServerPresenter
    from catalog_inspector.ui.widgets.call_panel import CallPanel
    from catalog_inspector.ui.widgets.checks_pane import ChecksPane
    from catalog_inspector.ui.widgets.drift_pane import DriftPane
    from catalog_inspector.ui.widgets.duplicates_pane import DuplicatesPane
    from catalog_inspector.ui.widgets.list_pane import ListPane

__all__ = ["LOG_LINES", "OTHER_LISTS", "WindowPages"]

LOG_LINES = 5000
OTHER_LISTS = tuple(name for name in LIST_NAMES if name != "tools")


class WindowPages(LazyTabs):
    """The main window's lazily built pages, by name: "call", each of `OTHER_LISTS`, "server", "drift",
    "duplicates", "checks" (in that tab order, after Tools)."""

    def __init__(self, tabs: QTabWidget, window: MainWindow) -> None:
        super().__init__(tabs, self._on_built)
        self.window = window
        self.add("call", "Call", self._build_call)
        for name in OTHER_LISTS:
            self.add(name, LIST_KINDS[name].title.replace("&", "&&"), partial(self._build_list, name))
        self.add("server", "Server && log", self._build_server)
        self.add("drift", "Drift", self._build_drift)
        self.add("duplicates", "Duplicates", self._build_duplicates)
        self.add("checks", "Reach && collisions", self._build_checks)
        self._lists_due = False
        self._details_due = False
        # A frame later, on a timer, not a queued call (QTimer.singleShot(0, …) is one): queued calls run in the
        # same pass of the event loop as the repaint they follow. A zero timer would run in the next pass but
        # before any timer due since (the catalog's work lasts longer than the loop's timers wait), so a new
        # catalog's tree, its repaint and the pages behind it were still one stall.
        self._follow = QTimer(tabs)
        self._follow.setSingleShot(True)
        self._follow.setInterval(FRAME_MS)
        self._follow.timeout.connect(self.bring_up_to_date)

    # -- builders: each imports its page's module ------------------------------
    def _build_call(self) -> QWidget:
        from catalog_inspector.ui.widgets.call_panel import CallPanel

        panel = CallPanel(self.window.app.checks, self.window)
        panel.result.link_chosen.connect(self.read_link)
        return panel

    def _build_list(self, name: str) -> QWidget:
        from catalog_inspector.ui.widgets.list_pane import ListPane

        pane = ListPane(name, self.window, self.window.app.checks)
        pane.timeline.walk_chosen.connect(lambda kind: self.window.choose_walk(name, kind))
        pane.request.result.link_chosen.connect(self.read_link)
        return pane

    def _build_server(self) -> QWidget:
        self.server_info = plain_text_view("serverInfo", self.window)
        self.server_log = plain_text_view("serverLog", self.window)
        self.server_log.setMaximumBlockCount(LOG_LINES)
        page = QSplitter(Qt.Orientation.Vertical, self.window)
        page.addWidget(self.server_info)
        page.addWidget(self.server_log)
        return page

    def _build_drift(self) -> QWidget:
        from catalog_inspector.ui.widgets.drift_pane import DriftPane

        pane = DriftPane(self.window)
        pane.set_keep(self.window.app.keep)
        pane.keep_changed.connect(self.window.set_history_keep)
        return pane

    def _build_duplicates(self) -> QWidget:
        from catalog_inspector.ui.widgets.duplicates_pane import DuplicatesPane

        return DuplicatesPane(self.window)

    def _build_checks(self) -> QWidget:
        from catalog_inspector.ui.widgets.checks_pane import ChecksPane

        return ChecksPane(self.window)

    def _on_built(self, name: str, page: QWidget) -> None:
        """A page just built shows the selected server at once (and the app's collisions)."""
        describe(page)
        follow_layout(page)  # made after the tab bar, in the order its layouts show it
        if name == "checks":
            self.window.show_collisions()
        presenter = self.window.presenter
        if presenter is not None:
            self._bind_page(name, page, presenter)
            self._show_walks(name, page, presenter)
            self._show_catalog(name, page, presenter, details=True)

    def bind(self, presenter: ServerPresenter) -> None:
        """A server was chosen: every page built takes its presenters and log (its catalog: `follow`)."""
        for name, page in self._built_pages():
            self._bind_page(name, page, presenter)

    def show_nothing(self) -> None:
        """No server is selected (an entry that could not be used): every page built lets go of the last server's
        presenters and shows nothing of it (no item, no answer, no walk, no log)."""
        self._lists_due = self._details_due = False
        for name, page in self._built_pages():
            if name == "call":
                cast("CallPanel", page).bind(None)
            elif name in OTHER_LISTS:
                pane = cast("ListPane", page)
                pane.request.bind(None)
                pane.set_notice("none", "")
                pane.model.set_items([])
                pane.timeline.set_walks([])
            elif name == "server":
                self.server_info.clear()
                self.server_log.clear()
            elif name == "drift":
                cast("DriftPane", page).bind(None)
            elif name == "duplicates":
                cast("DuplicatesPane", page).show_duplicates([])
            elif name == "checks":
                checks = cast("ChecksPane", page)
                checks.show_first_page(None)
                checks.show_excluded(None)
        plain = [("drift", "Drift"), ("duplicates", "Duplicates")]
        for name, title in [*plain, *((name, LIST_KINDS[name].title.replace("&", "&&")) for name in OTHER_LISTS)]:
            self.set_title(name, title)

    def _bind_page(self, name: str, page: QWidget, presenter: ServerPresenter) -> None:
        """What a page shows of a server besides its catalog and walks: its presenters, its log."""
        if name == "call":
            cast("CallPanel", page).bind(presenter.call)
        elif name in OTHER_LISTS:
            cast("ListPane", page).request.bind(presenter.requests[name])
        elif name == "server":
            self.server_log.setPlainText(presenter.log_text())
        elif name == "drift":
            cast("DriftPane", page).bind(presenter.drift)

    def _show_walks(self, name: str, page: QWidget, presenter: ServerPresenter) -> None:
        """The server's walks: a list's timeline, the duplicates (the window's `walks_changed` for pages built)."""
        if name in OTHER_LISTS:
            cast("ListPane", page).timeline.set_walks(presenter.walks(name), presenter.chosen_walks.get(name))
        elif name == "duplicates":
            cast("DuplicatesPane", page).show_duplicates(presenter.duplicates())

    def _show_catalog(self, name: str, page: QWidget, presenter: ServerPresenter, details: bool) -> None:
        """What a page shows of the server's catalog (and, for Server & log, of its details)."""
        if name in OTHER_LISTS:
            catalog = presenter.catalog
            pane = cast("ListPane", page)
            pane.set_notice(*list_notice(catalog, name))
            pane.model.set_items(catalog.lists[name].items if catalog else [])
        elif name == "server" and details:
            set_capped_text(self.server_info, presenter.server_text())
        elif name == "checks":
            self.window.show_reach()

    def read_link(self, link: dict[str, Any]) -> None:
        """A resource link in a result: read on the same server in the Resources tab, never opened elsewhere."""
        pane = cast("ListPane", self.get("resources"))
        self.tabs.setCurrentWidget(pane)
        pane.read_link(link)

    # -- what the pages show of the selected server ------------------------------
    def follow(self, catalog: bool = True, details: bool = True, at_once: bool = False) -> None:
        """The selected server's catalog (the lists, the reach) or its details changed: the pages follow one turn
        later, so that a new catalog's tree and the pages behind it are not one frame's work (`at_once`: now)."""
        self._lists_due |= catalog
        self._details_due |= details
        if at_once:
            self.bring_up_to_date()
        elif not self._follow.isActive():
            self._follow.start()

    @property
    def following(self) -> bool:
        """The pages are to follow a change of the selected server a frame from now (`follow`; the Drift tab's
        report, when it is hidden: `DriftPane.rendering_due`)."""
        drift = self.built("drift")
        return self._follow.isActive() or (drift is not None and cast("DriftPane", drift).rendering_due)

    def follow_details(self) -> None:
        """The selected server's details changed: shown now, or with the catalog's pages when they are due."""
        self.follow(catalog=False, at_once=not self._follow.isActive())

    def bring_up_to_date(self) -> None:
        self._follow.stop()
        lists, details = self._lists_due, self._details_due
        self._lists_due = self._details_due = False
        presenter = self.window.presenter
        if presenter is None:
            return
        for name, page in self._built_pages():
            if lists or name == "server":
                self._show_catalog(name, page, presenter, details or lists)
        if lists:
            self._mark_lists(presenter)

    def _mark_lists(self, presenter: ServerPresenter) -> None:
        """A list tab whose list failed on its own (the tools accepted) says so in its title, built or not."""
        catalog = presenter.catalog
        for name in OTHER_LISTS:
            title = LIST_KINDS[name].title.replace("&", "&&")
            if catalog is not None and name in catalog.partial:
                title += " ⚠"
            self.set_title(name, title)

    def _built_pages(self) -> list[tuple[str, QWidget]]:
        return [(name, page) for name in self.names if (page := self.built(name)) is not None]

    # -- each page, built now if it was not (the window's `call_panel`, `drift_pane` … are `get` of these) ----
    def server_views(self) -> tuple[QPlainTextEdit, QPlainTextEdit]:
        """The server details and the server log."""
        self.get("server")
        return self.server_info, self.server_log

    # -- each page if it has been built, else None (nothing is built by asking) ------
    def built_lists(self) -> dict[str, ListPane]:
        return {name: cast("ListPane", page) for name in OTHER_LISTS if (page := self.built(name)) is not None}

    def built_duplicates(self) -> DuplicatesPane | None:
        return cast("DuplicatesPane | None", self.built("duplicates"))

    def built_checks(self) -> ChecksPane | None:
        return cast("ChecksPane | None", self.built("checks"))

    def built_server(self) -> tuple[QPlainTextEdit, QPlainTextEdit] | None:
        return (self.server_info, self.server_log) if self.built("server") is not None else None
