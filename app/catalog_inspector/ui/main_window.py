"""The main window: server sidebar, status banner, catalog tabs with page timelines, server log.

It binds to the app's presenter and to the presenter of the selected server, and
renders what they say; user intents go to them as plain method calls. It never
awaits and holds no runtime or protocol object. Every signal it listens to is
connected to one of its own methods, so nothing fires into it once it is deleted.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, cast

from PySide6.QtCore import QByteArray, QItemSelection, QRect, QSettings, QSize, Qt, Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QMainWindow,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from catalog_inspector.core.catalog import LIST_KINDS, LIST_NAMES, Which
from catalog_inspector.core.config import ConfigStore, EntryProblem
from catalog_inspector.core.text import visible
from catalog_inspector.runtime.messages import Message
from catalog_inspector.ui.accessible import describe
from catalog_inspector.ui.announcer import Announcer
from catalog_inspector.ui.batch import Batcher
from catalog_inspector.ui.export_action import SnapshotExport
from catalog_inspector.ui.help_menu import build_help_menu
from catalog_inspector.ui.keyboard import (
    TAB_BAR_AFTER_FIRST_PAGE,
    add_open_tool_action,
    build_call_menu,
    build_file_menu,
    build_view_menu,
    follow_layout,
)
from catalog_inspector.ui.presenters import AppPresenter, Banner, ServerPresenter
from catalog_inspector.ui.server_menu import ServerMenu
from catalog_inspector.ui.signin import link_text, sign_in_opened_words
from catalog_inspector.ui.widgets.labels import ElidedLabel
from catalog_inspector.ui.widgets.sidebar import ServerSidebar
from catalog_inspector.ui.widgets.sign_in import open_in_browser
from catalog_inspector.ui.widgets.status_band import StatusBand
from catalog_inspector.ui.widgets.status_banner import StatusBanner
from catalog_inspector.ui.widgets.still_tabs import StillTabs
from catalog_inspector.ui.widgets.tools_pane import ToolsPane
from catalog_inspector.ui.window_pages import LOG_LINES, OTHER_LISTS, WindowPages

if (
    TYPE_CHECKING
):  # the pages' modules are imported when the pages are built (`ui.window_pages`), the dialogs when opened
    from catalog_inspector.ui.dialogs.imports import ImportDialog
    from catalog_inspector.ui.dialogs.server import ServerDialog
    from catalog_inspector.ui.widgets.call_panel import CallPanel
    from catalog_inspector.ui.widgets.checks_pane import ChecksPane
    from catalog_inspector.ui.widgets.drift_pane import DriftPane
    from catalog_inspector.ui.widgets.duplicates_pane import DuplicatesPane
    from catalog_inspector.ui.widgets.list_pane import ListPane
    from catalog_inspector.ui.widgets.timeline_panel import TimelinePanel

__all__ = ["LOG_LINES", "MainWindow"]

DEFAULT_SIZE = QSize(1400, 860)  # the window's size on a screen with room for it
FRAME_ROOM = QSize(16, 40)  # what a window manager's frame (borders, title bar) may add around the window
SIDEBAR = (200, 280)  # the sidebar's narrowest and widest default: as wide as its servers' lines need, within these
LOG_BATCH = 300  # lines one repaint of the log appends (~30 µs each: within a frame); a flood skips the rest
LOG_BATCH_MS = 100

_PRESENTER_SIGNALS = (
    "header_changed",
    "banner_changed",
    "catalog_changed",
    "marks_changed",
    "lint_changed",
    "walks_changed",
    "pages_added",
    "details_changed",
    "log_lines",
    "input_changed",
)


class MainWindow(QMainWindow):
    """The app's one window.

    Attributes:
        app: the app's presenter (every server's presenter, the selection, the runtime's door).
        finished: every session is closed; the window may go.

    Signals:
        closed(): the window closed after every session was shut down.
    """

    closed = Signal()

    def __init__(self, app: AppPresenter, settings: QSettings, notice: str = "") -> None:
        super().__init__()
        self.setWindowTitle("MCP Catalog Inspector")
        self.app = app
        app.setParent(self)
        self.settings = settings
        self._presenter: ServerPresenter | None = None
        self._problem: EntryProblem | None = None  # the selected row is an entry that could not be used
        self._shutting_down = False
        self.finished = False
        self.exporter = SnapshotExport(self, app, settings, lambda: self._presenter)
        self._build(notice)
        app.shutdown_finished.connect(self._on_app_shutdown_finished)
        app.servers_changed.connect(self._on_app_servers_changed)
        app.exported.connect(self._on_app_exported)
        app.collisions_changed.connect(self.show_collisions)
        app.sign_in_started.connect(self._on_app_sign_in_started)
        app.messages.shown.connect(self._on_messages_shown)
        app.messages.cleared.connect(self._on_messages_cleared)
        self._restore()

    # -- construction ---------------------------------------------------------
    def _build(self, notice: str) -> None:
        sidebar = ServerSidebar(self.app, notice, self)
        self.servers, self.server_list, self.notice = sidebar.servers, sidebar.view, sidebar.notice
        self.server_list.selectionModel().selectionChanged.connect(self._on_server_list_selection_changed)
        self.sidebar = sidebar

        self.title = ElidedLabel("serverTitle", self)
        font = self.title.font()
        font.setPointSize(font.pointSize() + 3)
        font.setBold(True)
        self.title.setFont(font)
        self.catalog_label = ElidedLabel("catalogLabel", self)
        self.refresh_button = QPushButton("Refresh", self)
        self.refresh_button.setObjectName("refreshButton")
        self.refresh_button.setToolTip("Walk the catalog again from the first page (F5)")
        self.refresh_button.clicked.connect(self.refresh)
        self.cancel_button = QPushButton("Cancel", self)
        self.cancel_button.setObjectName("cancelButton")
        self.cancel_button.setToolTip("Stop the walk in progress; the shown catalog stays (Esc)")
        self.cancel_button.clicked.connect(self.cancel)
        for button in (self.refresh_button, self.cancel_button):
            button.setEnabled(False)  # until a server is selected
        header = QHBoxLayout()
        titles = QVBoxLayout()
        titles.addWidget(self.title)
        titles.addWidget(self.catalog_label)
        header.addLayout(titles, 1)
        header.addWidget(self.refresh_button)
        header.addWidget(self.cancel_button)

        self.banner = StatusBanner(self)
        self.band = StatusBand(self.banner, self)  # the banner's room, kept: its coming and going moves nothing
        self.banner.retry_clicked.connect(self._on_banner_retry_clicked)
        self.banner.sign_in.cancel_clicked.connect(self._on_sign_in_cancel_clicked)
        self.banner.sign_in.opened.connect(self._on_sign_in_opened)
        self.tools_pane = ToolsPane(self)
        # The rows a big catalog plans are kept out of the cycle collector's sight as they are made.
        self.tools_pane.rows_planned.connect(self.app.rows_planned)
        self.tools_pane.filter.textChanged.connect(self._on_tool_filter_text_changed)
        self.tools_pane.tool_selected.connect(self._on_tool_selected)
        self.tools_pane.tree.doubleClicked.connect(self._on_tree_double_clicked)
        self.open_tool_action = add_open_tool_action(self)  # Enter on a tool opens it, as a double click does
        self.tools_pane.timeline.walk_chosen.connect(lambda kind: self.choose_walk("tools", kind))
        # A server may flood stderr: lines reach the pane in batches, at most LOG_BATCH per batch.
        self._log_batch: Batcher[str] = Batcher(self._append_log, LOG_BATCH_MS, keep_last=LOG_BATCH, parent=self)
        self.tabs = StillTabs(self)  # a tab's title set repaints the tab strip, not the page shown
        self.tabs.setObjectName("catalogTabs")
        self.tabs.addTab(self.tools_pane, LIST_KINDS["tools"].title)
        self.pages = WindowPages(self.tabs, self)  # the other pages: built after the first frame, or when needed
        main = QWidget(self)
        right = QVBoxLayout(main)
        right.addLayout(header)
        right.addWidget(self.band)
        right.addWidget(self.tabs, 1)
        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.addWidget(sidebar)
        self.splitter.addWidget(main)
        self.splitter.setSizes([SIDEBAR[1], DEFAULT_SIZE.width() - SIDEBAR[1]])
        self.setCentralWidget(self.splitter)
        self._build_menu()
        self.resize(DEFAULT_SIZE)
        self._restored = False  # a size of the person's own was restored (`_restore`)
        describe(self)
        # Tab: sidebar → Refresh, Cancel → the banner → the Tools page → the tab bar → the page shown.
        self.tabs.setProperty(TAB_BAR_AFTER_FIRST_PAGE, True)
        follow_layout(self.splitter)
        self.announcer = Announcer(self.app, self.statusBar(), self)

    def _build_menu(self) -> None:
        self.file_actions = build_file_menu(self, self.menuBar().addMenu("&File"))
        self._update_file_actions()
        self.server_menu = ServerMenu(
            self, self.app, self.menuBar().addMenu("&Servers"), self._selected_name, self.select_server, self.sign_out
        )
        self.server_actions = self.server_menu.actions
        self.view_actions = build_view_menu(self, self.menuBar().addMenu("&View"))
        self.call_actions = build_call_menu(self, self.menuBar().addMenu("&Call"))
        build_help_menu(self, self.menuBar().addMenu("&Help"))

    # -- the pages after Tools, built after the first frame (`ui.window_pages`) ----------
    @property
    def call_panel(self) -> CallPanel:
        return cast("CallPanel", self.pages.get("call"))

    @property
    def list_panes(self) -> dict[str, ListPane]:
        return {name: cast("ListPane", self.pages.get(name)) for name in OTHER_LISTS}

    @property
    def drift_pane(self) -> DriftPane:
        return cast("DriftPane", self.pages.get("drift"))

    @property
    def duplicates_pane(self) -> DuplicatesPane:
        return cast("DuplicatesPane", self.pages.get("duplicates"))

    @property
    def checks_pane(self) -> ChecksPane:
        return cast("ChecksPane", self.pages.get("checks"))

    @property
    def server_info(self) -> QPlainTextEdit:
        return self.pages.server_views()[0]

    @property
    def server_log(self) -> QPlainTextEdit:
        return self.pages.server_views()[1]

    def _timeline(self, list_name: str) -> TimelinePanel | None:
        """The list's timeline; None while its page waits to be built (it is brought up to date then)."""
        pane = self.tools_pane if list_name == "tools" else self.pages.built_lists().get(list_name)
        return pane.timeline if pane is not None else None

    # -- user intents ---------------------------------------------------------
    @property
    def presenter(self) -> ServerPresenter | None:
        return self._presenter

    @property
    def current(self) -> ServerPresenter | None:
        """The selected server's presenter (None: none, or an entry that could not be used)."""
        return self._presenter

    def select_server(self, name: str) -> bool:
        row = self.servers.row_of(name)
        if row is None:
            return False
        self.server_list.setCurrentIndex(self.servers.index(row))
        return True

    def refresh(self) -> None:
        if self._presenter is not None:
            self._presenter.refresh()

    def cancel(self) -> None:
        if self._presenter is not None:
            self._presenter.cancel()

    def sign_out(self) -> bool:
        """Servers ▸ Sign out: forget the selected server's tokens and client registration (the status bar says
        when it is done); the next walk asks for a sign-in. False if there was no kept sign-in to forget."""
        return self._presenter is not None and self._presenter.sign_out()

    def _on_sign_in_cancel_clicked(self) -> None:
        if self._presenter is not None:
            self._presenter.cancel_sign_in()

    def _on_sign_in_opened(self, opened: bool) -> None:
        if not opened:
            self.app.messages.warning("No browser could be opened: copy the link into one on this machine.")

    def _on_app_sign_in_started(self, name: str) -> None:
        """A server asks for a sign-in: the system browser is opened at its link once, whichever server it is."""
        sign_in = self.app.sign_in_of(name)
        if sign_in is not None:
            selected = self._presenter is not None and self._presenter.name == name
            self.app.messages.progress(sign_in_opened_words(name, open_in_browser(link_text(sign_in.url)), selected))

    def export_snapshot(self, path: Path | None = None, which: Which | None = None) -> bool:
        """File ▸ Export snapshot for the selected server (see `SnapshotExport.export`)."""
        return self.exporter.export(path, which)

    def _on_tool_filter_text_changed(self, text: str) -> None:
        if self._presenter is not None:
            self._presenter.tool_filter = text

    def _on_tool_selected(self, tool: object) -> None:
        self.call_panel.set_tool(tool)  # type: ignore[arg-type]

    def choose_walk(self, list_name: str, kind: str) -> None:
        """The timeline of `list_name` shows the walk `kind` (the latest, or the accepted one)."""
        if self._presenter is not None:
            self._presenter.choose_walk(list_name, kind)

    def _update_file_actions(self) -> None:
        """Refresh, Cancel and Export are enabled only when they can act on the selected server."""
        presenter = self._presenter
        can_refresh = presenter is not None and presenter.can_refresh
        can_cancel = presenter is not None and presenter.can_cancel
        self.file_actions["refresh"].setEnabled(can_refresh)
        self.file_actions["cancel"].setEnabled(can_cancel)
        self.file_actions["export"].setEnabled(self.exporter.available())
        self.refresh_button.setEnabled(can_refresh)
        self.cancel_button.setEnabled(can_cancel)

    # -- binding to the selected server ---------------------------------------
    def _on_server_list_selection_changed(self, selected: QItemSelection, _deselected: QItemSelection) -> None:
        indexes = selected.indexes()
        if not indexes:
            return
        row = indexes[0].row()
        presenter = self.servers.presenter_at(row)
        if presenter is None:
            problem = self.servers.problem_at(row)
            if problem is not None:
                self.app.select(None)
                self._show_problem(problem)
            return
        self._bind(presenter)
        self.settings.setValue("lastServer", presenter.name)
        self.app.select(presenter.name)  # a server never attempted starts its walk

    def _show_problem(self, problem: EntryProblem) -> None:
        """An entry that could not be used: its reason, and the way to fix it."""
        self._unbind()
        self._show_nothing()
        self._problem = problem
        self.title.setText(visible(problem.name, 120))
        self.catalog_label.setText("Not loaded from the configuration: nothing was started.")
        fixable = self.server_menu.entry(problem.name) is not None
        text = f"This entry cannot be used\n{visible(problem.message, 1000)}"
        self.banner.show_banner(Banner("entry", text, "Edit…" if fixable else "", fixable))
        self._update_server_actions()

    def _on_app_servers_changed(self) -> None:
        """The configuration changed: the presenters followed the supervisors; the selection stays where it can."""
        selected = self._presenter.name if self._presenter is not None else None
        if self._presenter is not None and self._presenter not in self.app.presenters.values():
            self._unbind()
        alive = list(self.app.presenters)
        if not (selected is not None and self.select_server(selected)) and alive:
            self.select_server(alive[0])
        if not alive:
            self._unbind()
            self._show_nothing()
            self.title.setText("No servers")
            self.catalog_label.setText("Add a server to the configuration file.")

    def _show_nothing(self) -> None:
        """No server is selected: no page shows the last one's catalog, walks, items or answers."""
        self.pages.show_nothing()  # first: the tree's tool going is no server's Call tab's business
        self.tools_pane.set_tools([])
        self.tools_pane.timeline.set_walks([])
        self.band.set_verdict("")

    def _unbind(self) -> None:
        self._problem = None
        old = self._presenter
        if old is not None:
            for name in _PRESENTER_SIGNALS:
                getattr(old, name).disconnect(getattr(self, f"_on_presenter_{name}"))
        self._presenter = None
        self.announcer.bind(None)
        self._update_file_actions()

    # -- managing the configured servers (the Servers menu, `ServerMenu`) -------
    def manage_config(self, store: ConfigStore, reload: Callable[[Callable[[], object] | None], None]) -> None:
        """Let the Servers menu edit `store` (the app's own file); `reload` applies it at once."""
        self.server_menu.manage(store, reload)
        self._update_server_actions()

    def add_server(self) -> ServerDialog | None:
        return self.server_menu.add_server()

    def import_servers(self) -> ImportDialog | None:
        return self.server_menu.import_servers()

    def edit_server(self) -> ServerDialog | None:
        return self.server_menu.edit_server()

    def duplicate_server(self) -> None:
        self.server_menu.duplicate_server()

    def toggle_server_disabled(self) -> None:
        self.server_menu.toggle_server_disabled()

    def remove_server(self) -> QMessageBox | None:
        return self.server_menu.remove_server()

    def _selected_name(self) -> str | None:
        if self._problem is not None:
            return self._problem.name
        return self._presenter.name if self._presenter is not None else None

    def _update_server_actions(self) -> None:
        """Sign out needs an HTTP or SSE server with a kept sign-in, while no walk runs."""
        self.server_menu.update(self._presenter is not None and self._presenter.can_sign_out)

    def set_notice(self, notice: str) -> None:
        """What the sidebar says about the configuration (empty: nothing to say)."""
        self.sidebar.set_notice(notice)

    def _bind(self, presenter: ServerPresenter) -> None:
        self._unbind()
        self._presenter = presenter
        self.announcer.bind(presenter)
        self._update_server_actions()
        for name in _PRESENTER_SIGNALS:
            getattr(presenter, name).connect(getattr(self, f"_on_presenter_{name}"))
        # Each server keeps its own filter: another server's text would hide its tools with no word why.
        self.tools_pane.filter.setText(presenter.tool_filter)
        self._log_batch.clear()
        self.pages.bind(presenter)  # before the catalog: the tree's current tool goes to this server's Call tab
        self.statusBar().clearMessage()
        self._on_presenter_header_changed()
        self._on_presenter_banner_changed()
        self._on_presenter_catalog_changed()
        self.pages.follow(at_once=True)  # a server just chosen: every page shows it now, not a frame later
        self._on_presenter_walks_changed()
        self._on_presenter_input_changed()  # a question that waits is one click away: its tab comes up

    # -- rendering what the presenter says ------------------------------------
    def _on_presenter_header_changed(self) -> None:
        presenter = self._presenter
        if presenter is None:
            return
        self.title.setText(presenter.title)
        self.catalog_label.setText(presenter.subtitle)
        self.band.set_verdict(*presenter.verdict())  # the report's headline says the tools' cost once counted
        self._update_file_actions()
        self._update_server_actions()

    def _on_presenter_banner_changed(self) -> None:
        if self._presenter is not None:
            self.banner.show_banner(self._presenter.banner())
            self.band.set_verdict(*self._presenter.verdict())

    def _on_presenter_catalog_changed(self) -> None:
        """A new catalog, with its first report: the tree is planned once, with its marks; the other pages follow."""
        presenter = self._presenter
        if presenter is None:
            return
        self.tools_pane.resource_uris = presenter.resource_uris()
        self.tools_pane.set_tools(presenter.shown_tools(), *presenter.tool_marks())
        self._on_presenter_lint_changed()
        self.pages.follow()

    def _on_presenter_marks_changed(self) -> None:
        """An approval or its check changed what the tree marks; the catalog is the same."""
        presenter = self._presenter
        if presenter is None:
            return
        marks = presenter.tool_marks()
        if marks != self.tools_pane.marks:
            self.tools_pane.set_tools(presenter.shown_tools(), *marks)
        self.show_reach()

    def _on_presenter_lint_changed(self) -> None:
        if (presenter := self._presenter) is not None:
            self.tools_pane.set_lint(presenter.lint_marks(), presenter.excluded_marks())
            self.tools_pane.set_tokens(presenter.token_marks())

    def show_reach(self) -> None:
        """The first-page reach and excluded tools of the selected server, and the Drift tab's alarm."""
        presenter = self._presenter
        if presenter is None:
            return
        if (checks := self.pages.built_checks()) is not None:
            checks.show_first_page(presenter.first_page())
            catalog = presenter.catalog
            checks.show_excluded(catalog.excluded_tools if catalog is not None else None)
        self.pages.set_title("drift", "Drift ⚠" if presenter.alarm else "Drift")

    def _on_presenter_walks_changed(self) -> None:
        presenter = self._presenter
        if presenter is None:
            return
        for name in LIST_NAMES:
            timeline = self._timeline(name)
            if timeline is not None:
                timeline.set_walks(presenter.walks(name), presenter.chosen_walks.get(name))
        duplicates = presenter.duplicates()
        if (pane := self.pages.built_duplicates()) is not None:
            pane.show_duplicates(duplicates)
        title = f"Duplicates ({len(duplicates)})" if duplicates else "Duplicates"
        self.pages.set_title("duplicates", title)

    def _on_presenter_details_changed(self) -> None:
        presenter = self._presenter
        if presenter is not None:
            self.pages.follow_details()
            self._update_server_actions()

    def _on_presenter_input_changed(self) -> None:
        """A question of the selected server's waits: the tab that shows it comes up (unless it is up already)."""
        presenter = self._presenter
        tab = presenter.question_tab() if presenter is not None else None
        if tab is not None:
            self.tabs.setCurrentWidget(self.pages.get(tab))

    def _on_presenter_pages_added(self, list_name: str) -> None:
        timeline = self._timeline(list_name)
        if timeline is not None:
            timeline.pages_added()

    def _on_presenter_log_lines(self, lines: list[str]) -> None:
        self._log_batch.extend(lines)

    def _append_log(self, lines: list[str]) -> None:
        skipped = self._log_batch.dropped
        if skipped:
            # A flood: the pane shows the latest lines of each batch, within a frame's work, and says what it skipped.
            lines = [f"[… {skipped:,} lines skipped: the server wrote faster than they can be shown]", *lines]
        if (server := self.pages.built_server()) is not None:  # else it is read whole from the presenter when built
            server[1].appendPlainText("\n".join(lines))

    def _on_tree_double_clicked(self, index: object) -> None:
        """Double-clicking a tool opens it in the Call tab (the presenter has it, whether the tab was shown yet)."""
        if self._presenter is not None and self._presenter.call.tool is not None:
            self.tabs.setCurrentWidget(self.call_panel)

    def _on_banner_retry_clicked(self) -> None:
        if self.banner.state == "entry":
            self.edit_server()
            return
        if self.banner.state == "drift":
            self.tabs.setCurrentWidget(self.drift_pane)
            return
        if self.banner.state == "consent" and self._presenter is not None:
            self.app.approve_launch(self._presenter.name)  # remembered off the GUI thread; the walk starts
            return
        self.refresh()

    def set_history_keep(self, keep: int) -> None:
        """How many catalogs each server's history keeps (the Drift page's setting, remembered)."""
        self.settings.setValue("history/keep", keep)
        self.app.set_keep(keep)

    def show_collisions(self) -> None:
        """The Reach & collisions page shows the app's collisions (when it has been built)."""
        if (checks := self.pages.built_checks()) is not None:
            checks.show_collisions(self.app.collisions)

    def _on_messages_shown(self, message: Message) -> None:
        # Made visible and bounded by the bridge: a server's words never render as anything but text.
        self.statusBar().showMessage(message.text, message.level.timeout_ms)

    def _on_messages_cleared(self) -> None:
        self.statusBar().clearMessage()

    def _on_app_exported(self, path: Path, error: OSError | None) -> None:
        if error is None:
            self.app.messages.info(f"Snapshot written to {path}")
        else:
            self.app.messages.error(f"Could not write {path}: {error.strerror or error}")

    # -- settings and shutdown ----------------------------------------------
    def fit_screen(self, available: QRect | None = None) -> None:
        """Open within the screen: the window no larger than `available` (the screen's room, without its panels;
        default: the window's screen), its frame included; with the default size, the sidebar as wide as its
        servers' lines need and the pages the rest (a size the person left is kept, only bounded)."""
        room = (available or self.screen().availableGeometry()).size() - FRAME_ROOM
        size = (self.size() if self._restored else DEFAULT_SIZE).boundedTo(room)
        self.resize(size)
        if not self._restored:
            sidebar = min(max(self.sidebar.need(), SIDEBAR[0]), SIDEBAR[1])
            self.splitter.setSizes([sidebar, size.width() - sidebar - self.splitter.handleWidth()])

    def _restore(self) -> None:
        geometry = self.settings.value("geometry")
        if isinstance(geometry, QByteArray):
            self._restored = self.restoreGeometry(geometry)
        last = self.settings.value("lastServer")
        if isinstance(last, str) and self.select_server(last):
            return
        if self.servers.rowCount() > 0:
            self.server_list.setCurrentIndex(self.servers.index(0))

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.finished:
            event.accept()
            return
        event.ignore()
        if not self._shutting_down:
            self._shutting_down = True
            self.settings.setValue("geometry", self.saveGeometry())
            self.settings.sync()
            self.hide()
            self.app.shutdown()

    def _on_app_shutdown_finished(self) -> None:
        self.finished = True
        self.close()
        self.closed.emit()
