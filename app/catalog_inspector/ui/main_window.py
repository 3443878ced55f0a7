"""The main window: server sidebar, status banner, catalog tabs with page timelines, server log.

It binds to the presenter of the selected server and renders what the
presenter says; user intents go to the presenter or the runtime as plain
method calls. It never awaits and holds no protocol objects. Every signal it
listens to is connected to one of its own methods, so nothing fires into it
once it is deleted.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QByteArray, QItemSelection, QSettings, Qt, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QHBoxLayout,
    QListView,
    QMainWindow,
    QMessageBox,
    QPushButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from catalog_inspector.core.calls import lint_words
from catalog_inspector.core.catalog import LIST_KINDS, LIST_NAMES, Which
from catalog_inspector.core.config import ConfigStore, EntryProblem
from catalog_inspector.core.drift import Entry
from catalog_inspector.core.text import visible
from catalog_inspector.runtime import Runtime, ServerSupervisor
from catalog_inspector.runtime.messages import Message
from catalog_inspector.runtime.tracker import Comparison
from catalog_inspector.ui.batch import Batcher
from catalog_inspector.ui.dialogs.imports import ImportDialog
from catalog_inspector.ui.dialogs.server import ServerDialog
from catalog_inspector.ui.export_action import SnapshotExport
from catalog_inspector.ui.models.server_list import ServerListModel
from catalog_inspector.ui.presenter import Banner, ServerPresenter
from catalog_inspector.ui.server_menu import ServerMenu
from catalog_inspector.ui.signin import link_text
from catalog_inspector.ui.widgets.call_panel import CallPanel
from catalog_inspector.ui.widgets.checks_pane import ChecksPane
from catalog_inspector.ui.widgets.drift_pane import DriftPane
from catalog_inspector.ui.widgets.duplicates_pane import DuplicatesPane
from catalog_inspector.ui.widgets.labels import ElidedLabel, plain_label
from catalog_inspector.ui.widgets.list_pane import ListPane
from catalog_inspector.ui.widgets.panes import plain_text_view, set_capped_text
from catalog_inspector.ui.widgets.sign_in import open_in_browser
from catalog_inspector.ui.widgets.status_banner import StatusBanner
from catalog_inspector.ui.widgets.timeline_panel import TimelinePanel
from catalog_inspector.ui.widgets.tools_pane import ToolsPane

__all__ = ["MainWindow"]

LOG_LINES = 5000
LOG_BATCH = 300  # lines one repaint of the log appends (~30 µs each: within a frame); a flood skips the rest
LOG_BATCH_MS = 100
OTHER_LISTS = tuple(name for name in LIST_NAMES if name != "tools")
STATUS_MS = 5000

_PRESENTER_SIGNALS = (
    "header_changed",
    "banner_changed",
    "catalog_changed",
    "walks_changed",
    "drift_changed",
    "pages_added",
    "details_changed",
    "log_lines",
    "status_message",
)


class MainWindow(QMainWindow):
    """The app's one window.

    Attributes:
        presenters: one per server, by name.
        finished: every session is closed; the window may go.

    Signals:
        closed(): the window closed after every session was shut down.
    """

    closed = Signal()

    def __init__(self, runtime: Runtime, settings: QSettings, notice: str = "") -> None:
        super().__init__()
        self.setWindowTitle("MCP Catalog Inspector")
        self.runtime = runtime
        self.settings = settings
        self.presenters = {
            s.spec.name: ServerPresenter(s, self, runtime.tracker, runtime.signins) for s in runtime.supervisors
        }
        self._presenter: ServerPresenter | None = None
        self._problem: EntryProblem | None = None  # the selected row is an entry that could not be used
        self._shutting_down = False
        self.finished = False
        self._filters: dict[str, str] = {}  # the tool filter's text, per server
        self.exporter = SnapshotExport(self, runtime, settings, lambda: self.current)
        self._build(notice)
        runtime.shutdown_finished.connect(self._on_runtime_shutdown_finished)
        runtime.servers_changed.connect(self._on_runtime_servers_changed)
        runtime.exported.connect(self._on_runtime_exported)
        runtime.tracker.collisions_changed.connect(self._on_tracker_collisions_changed)
        runtime.tracker.comparison_ready.connect(self._on_tracker_comparison_ready)
        runtime.messages.shown.connect(self._on_messages_shown)
        runtime.messages.cleared.connect(self._on_messages_cleared)
        runtime.calls.catalog_linted.connect(self._on_calls_catalog_linted)
        runtime.signins.sign_in_started.connect(self._on_signins_sign_in_started)
        self._restore()

    # -- construction ---------------------------------------------------------
    def _build(self, notice: str) -> None:
        self.servers = ServerListModel(self.runtime, self)
        self.server_list = QListView(self)
        self.server_list.setObjectName("serverList")
        self.server_list.setModel(self.servers)
        self.server_list.setSpacing(2)
        self.server_list.selectionModel().selectionChanged.connect(self._on_server_list_selection_changed)
        self.notice = plain_label("configNotice", self, wrap=False)
        self.notice.setWordWrap(True)
        self.notice.setMargin(6)
        self.notice.setStyleSheet("QLabel#configNotice { background: #fff8e1; border: 1px solid #e0d090; }")
        self.notice.setText(notice)
        self.notice.setVisible(bool(notice))
        sidebar = QWidget(self)
        side = QVBoxLayout(sidebar)
        side.setContentsMargins(0, 0, 0, 0)
        side.addWidget(self.notice)
        side.addWidget(self.server_list)

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
        self.banner.retry_clicked.connect(self._on_banner_retry_clicked)
        self.banner.sign_in.cancel_clicked.connect(self._on_sign_in_cancel_clicked)
        self.banner.sign_in.opened.connect(self._on_sign_in_opened)
        self.tools_pane = ToolsPane(self)
        # The rows a big catalog plans are kept out of the cycle collector's sight as they are made.
        self.tools_pane.rows_planned.connect(self.runtime.collector.items_arrived)
        self.tools_pane.filter.textChanged.connect(self._on_tool_filter_text_changed)
        self.list_panes = {name: ListPane(name, self) for name in OTHER_LISTS}
        self.server_info = plain_text_view("serverInfo", self)
        self.server_log = plain_text_view("serverLog", self)
        self.server_log.setMaximumBlockCount(LOG_LINES)
        # A server may flood stderr: lines reach the pane in batches, at most LOG_LINES per batch.
        self._log_batch: Batcher[str] = Batcher(self._append_log, LOG_BATCH_MS, keep_last=LOG_BATCH, parent=self)
        server_tab = QSplitter(Qt.Orientation.Vertical, self)
        server_tab.addWidget(self.server_info)
        server_tab.addWidget(self.server_log)
        self.tabs = QTabWidget(self)
        self.tabs.setObjectName("catalogTabs")
        self.tabs.addTab(self.tools_pane, LIST_KINDS["tools"].title)
        for name in OTHER_LISTS:
            self.tabs.addTab(self.list_panes[name], LIST_KINDS[name].title.replace("&", "&&"))
        self.tabs.addTab(server_tab, "Server && log")
        self.drift_pane = DriftPane(self)
        self.drift_pane.set_keep(self.runtime.tracker.history.keep if self.runtime.tracker.history else 50)
        self.drift_pane.approve_clicked.connect(self._on_drift_pane_approve_clicked)
        self.drift_pane.forget_clicked.connect(self._on_drift_pane_forget_clicked)
        self.drift_pane.compare_requested.connect(self._on_drift_pane_compare_requested)
        self.drift_pane.delete_requested.connect(self._on_drift_pane_delete_requested)
        self.drift_pane.keep_changed.connect(self._on_drift_pane_keep_changed)
        self.duplicates_pane = DuplicatesPane(self)
        self.checks_pane = ChecksPane(self)
        self.call_panel = CallPanel(self.runtime, self)
        self.tools_pane.tool_selected.connect(self.call_panel.set_tool)
        self.tools_pane.tree.doubleClicked.connect(self._on_tree_double_clicked)
        self.tabs.insertTab(1, self.call_panel, "Call")
        self.tabs.addTab(self.drift_pane, "Drift")
        self.tabs.addTab(self.duplicates_pane, "Duplicates")
        self.tabs.addTab(self.checks_pane, "Reach && collisions")

        main = QWidget(self)
        right = QVBoxLayout(main)
        right.addLayout(header)
        right.addWidget(self.banner)
        right.addWidget(self.tabs, 1)
        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.addWidget(sidebar)
        self.splitter.addWidget(main)
        self.splitter.setSizes([280, 1100])
        self.setCentralWidget(self.splitter)
        self._build_menu()
        self.resize(1400, 860)

    def _build_menu(self) -> None:
        menu = self.menuBar().addMenu("&File")
        self.file_actions: dict[str, QAction] = {}
        for key, text, shortcut, slot in (
            ("refresh", "&Refresh", QKeySequence(Qt.Key.Key_F5), self.refresh),
            ("cancel", "&Cancel walk", QKeySequence(Qt.Key.Key_Escape), self.cancel),
            ("export", "&Export snapshot…", QKeySequence("Ctrl+E"), self._on_export_triggered),
            ("quit", "&Quit", QKeySequence("Ctrl+Q"), self.close),
        ):
            action = QAction(text, self)
            action.setObjectName(f"fileAction:{key}")
            action.setShortcut(shortcut)
            action.triggered.connect(slot)
            menu.addAction(action)
            self.addAction(action)
            self.file_actions[key] = action
        self._update_file_actions()
        self.server_menu = ServerMenu(
            self, self.menuBar().addMenu("&Servers"), self._selected_name, self.select_server, self.sign_out
        )
        self.server_actions = self.server_menu.actions
        about = self.menuBar().addMenu("&Help").addAction("&About MCP Catalog Inspector")
        about.setObjectName("aboutAction")
        about.triggered.connect(self._on_about_triggered)

    def _on_about_triggered(self) -> None:
        from catalog_inspector.ui.dialogs.about import show_about

        show_about(self)

    def _timeline(self, list_name: str) -> TimelinePanel:
        return self.tools_pane.timeline if list_name == "tools" else self.list_panes[list_name].timeline

    # -- user intents ---------------------------------------------------------
    @property
    def presenter(self) -> ServerPresenter | None:
        return self._presenter

    @property
    def current(self) -> ServerSupervisor | None:
        """The selected server's supervisor."""
        return self._presenter.supervisor if self._presenter is not None else None

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
            self.statusBar().showMessage("No browser could be opened: copy the link into one on this machine.", 8000)

    def _on_signins_sign_in_started(self, name: str) -> None:
        """A server asks for a sign-in: the system browser is opened at its link once, whichever server it is."""
        supervisor = self.runtime.supervisor(name)
        sign_in = supervisor.sign_in if supervisor is not None else None
        if sign_in is None:
            return
        opened = open_in_browser(link_text(sign_in.url))
        shown = visible(name, 120)
        where = "" if supervisor is self.current else f" (select {shown} to see its link)"
        done = "your browser was opened at its sign-in page" if opened else "no browser could be opened; copy the link"
        self.statusBar().showMessage(f"{shown} asks you to sign in: {done}{where}.")

    def export_snapshot(self, path: Path | None = None, which: Which | None = None) -> bool:
        """File ▸ Export snapshot for the selected server (see `SnapshotExport.export`)."""
        return self.exporter.export(path, which)

    def _on_export_triggered(self) -> None:
        self.export_snapshot()

    def _on_tool_filter_text_changed(self, text: str) -> None:
        if self._presenter is not None:
            self._filters[self._presenter.supervisor.spec.name] = text

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
        supervisor = self.servers.supervisor_at(row)
        if supervisor is None:
            problem = self.servers.problem_at(row)
            if problem is not None:
                self._show_problem(problem)
            return
        self._bind(self.presenters[supervisor.spec.name])
        self.settings.setValue("lastServer", supervisor.spec.name)
        supervisor.ensure_started()

    def _show_problem(self, problem: EntryProblem) -> None:
        """An entry that could not be used: its reason, and the way to fix it."""
        self._unbind()
        self._problem = problem
        self.title.setText(visible(problem.name, 120))
        self.catalog_label.setText("Not loaded from the configuration: nothing was started.")
        fixable = self.server_menu.entry(problem.name) is not None
        text = f"This entry cannot be used\n{visible(problem.message, 1000)}"
        self.banner.show_banner(Banner("entry", text, "Edit…" if fixable else "", fixable))
        self._update_server_actions()

    def _on_runtime_servers_changed(self) -> None:
        """The configuration changed: presenters follow the supervisors; the selection stays where it can."""
        selected = self._presenter.supervisor.spec.name if self._presenter is not None else None
        alive = {s.spec.name: s for s in self.runtime.supervisors}
        for name, presenter in list(self.presenters.items()):
            if alive.get(name) is not presenter.supervisor:
                if presenter is self._presenter:
                    self._unbind()
                del self.presenters[name]
                presenter.deleteLater()
        for name, supervisor in alive.items():
            if name not in self.presenters:
                self.presenters[name] = ServerPresenter(supervisor, self, self.runtime.tracker, self.runtime.signins)
        if not (selected is not None and self.select_server(selected)) and alive:
            self.select_server(next(iter(alive)))
        if not alive:
            self._unbind()
            self.title.setText("No servers")
            self.catalog_label.setText("Add a server to the configuration file.")

    def _unbind(self) -> None:
        self._problem = None
        old = self._presenter
        if old is not None:
            for name in _PRESENTER_SIGNALS:
                getattr(old, name).disconnect(getattr(self, f"_on_presenter_{name}"))
        self._presenter = None
        self._update_file_actions()

    # -- managing the configured servers (the Servers menu, `ServerMenu`) -------
    def manage_config(self, store: ConfigStore, reload: Callable[[], None]) -> None:
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
        current = self.current
        return current.spec.name if current is not None else None

    def _update_server_actions(self) -> None:
        """Sign out needs an HTTP or SSE server with a kept sign-in, while no walk runs."""
        self.server_menu.update(self._presenter is not None and self._presenter.can_sign_out)

    def set_notice(self, notice: str) -> None:
        """What the sidebar says about the configuration (empty: nothing to say)."""
        self.notice.setText(notice)
        self.notice.setVisible(bool(notice))

    def _bind(self, presenter: ServerPresenter) -> None:
        self._unbind()
        self._presenter = presenter
        self._update_server_actions()
        for name in _PRESENTER_SIGNALS:
            getattr(presenter, name).connect(getattr(self, f"_on_presenter_{name}"))
        # Each server keeps its own filter: another server's text would hide its tools with no word why.
        self.tools_pane.filter.setText(self._filters.get(presenter.supervisor.spec.name, ""))
        self._log_batch.clear()
        self.call_panel.set_server(presenter.supervisor)
        for pane in self.list_panes.values():
            if pane.request is not None:
                pane.request.set_server(presenter.supervisor)
        self.server_log.setPlainText(presenter.log_text())
        self.statusBar().clearMessage()
        self._on_presenter_header_changed()
        self._on_presenter_banner_changed()
        self._on_presenter_catalog_changed()
        self._on_presenter_walks_changed()
        self.drift_pane.showing_comparison = False
        self._on_presenter_drift_changed()

    # -- rendering what the presenter says ------------------------------------
    def _on_presenter_header_changed(self) -> None:
        presenter = self._presenter
        if presenter is None:
            return
        self.title.setText(presenter.title)
        self.catalog_label.setText(presenter.subtitle)
        self._update_file_actions()
        self._update_server_actions()

    def _on_presenter_banner_changed(self) -> None:
        if self._presenter is not None:
            self.banner.show_banner(self._presenter.banner())

    def _on_presenter_catalog_changed(self) -> None:
        presenter = self._presenter
        if presenter is None:
            return
        catalog = presenter.catalog
        self.tools_pane.set_tools(presenter.shown_tools(), *presenter.tool_marks())
        self._on_calls_catalog_linted(presenter.supervisor.spec.name)
        for name, pane in self.list_panes.items():
            pane.model.set_items(catalog.lists[name].items if catalog else [])
        set_capped_text(self.server_info, presenter.server_text())

    def _on_presenter_walks_changed(self) -> None:
        presenter = self._presenter
        if presenter is None:
            return
        for name in LIST_NAMES:
            self._timeline(name).set_walks(presenter.walks(name))
        duplicates = presenter.duplicates()
        self.duplicates_pane.show_duplicates(duplicates)
        title = f"Duplicates ({len(duplicates)})" if duplicates else "Duplicates"
        self.tabs.setTabText(self.tabs.indexOf(self.duplicates_pane), title)

    def _on_presenter_drift_changed(self) -> None:
        presenter = self._presenter
        if presenter is None:
            return
        marks = presenter.tool_marks()
        shown = presenter.shown_tools()
        if len(shown) != self.tools_pane.given or marks != self.tools_pane.marks:
            self.tools_pane.set_tools(shown, *marks)
        tracker = self.runtime.tracker
        approved = tracker.pins.get(presenter.supervisor.spec.name) is not None
        self.drift_pane.show_report(presenter.report, presenter.catalog is not None, approved)
        self.drift_pane.set_history(presenter.history())
        self.checks_pane.show_first_page(presenter.first_page())
        report = presenter.report
        alarm = report is not None and report.alarm
        self.tabs.setTabText(self.tabs.indexOf(self.drift_pane), "Drift ⚠" if alarm else "Drift")

    def _on_presenter_details_changed(self) -> None:
        presenter = self._presenter
        if presenter is not None:
            set_capped_text(self.server_info, presenter.server_text())
            self._update_server_actions()

    def _on_presenter_pages_added(self, list_name: str) -> None:
        self._timeline(list_name).pages_added()

    def _on_presenter_log_lines(self, lines: list[str]) -> None:
        self._log_batch.extend(lines)

    def _on_presenter_status_message(self, text: str) -> None:
        if text:
            self.statusBar().showMessage(text, STATUS_MS)
        else:
            self.statusBar().clearMessage()

    def _append_log(self, lines: list[str]) -> None:
        skipped = self._log_batch.dropped
        if skipped:
            # A flood: the pane shows the latest lines of each batch, within a frame's work, and says what it skipped.
            lines = [f"[… {skipped:,} lines skipped: the server wrote faster than they can be shown]", *lines]
        self.server_log.appendPlainText("\n".join(lines))

    def _on_tree_double_clicked(self, index: object) -> None:
        """Double-clicking a tool opens it in the Call tab."""
        if self.call_panel.tool is not None:
            self.tabs.setCurrentWidget(self.call_panel)

    def _on_banner_retry_clicked(self) -> None:
        if self.banner.state == "entry":
            self.edit_server()
            return
        if self.banner.state == "drift":
            self.tabs.setCurrentWidget(self.drift_pane)
            return
        current = self.current
        if self.banner.state == "consent" and current is not None and self.runtime.consent is not None:
            try:
                self.runtime.consent.approve(current.spec)
            except OSError as exc:  # the yes holds for this run; it will be asked again next time
                self.statusBar().showMessage(visible(f"Could not remember this answer: {exc}", 500), 8000)
        self.refresh()

    def _on_drift_pane_approve_clicked(self) -> None:
        if self._presenter is not None:
            self._presenter.approve()

    def _on_drift_pane_forget_clicked(self) -> None:
        if self._presenter is not None:
            self._presenter.forget_approval()

    def _on_drift_pane_compare_requested(self, old: Entry, new: Entry | None) -> None:
        if self.current is not None:
            self.runtime.tracker.request_comparison(self.current.spec.name, old, new)

    def _on_drift_pane_delete_requested(self, entry: Entry) -> None:
        if self.current is not None:
            self.runtime.tracker.delete(self.current.spec.name, entry)

    def _on_drift_pane_keep_changed(self, keep: int) -> None:
        self.settings.setValue("history/keep", keep)
        self.runtime.tracker.set_keep(keep)

    def _on_tracker_collisions_changed(self) -> None:
        self.checks_pane.show_collisions(self.runtime.tracker.collisions)

    def _on_tracker_comparison_ready(self, name: str, comparison: Comparison) -> None:
        if self.current is not None and self.current.spec.name == name:
            self.drift_pane.show_comparison(comparison)

    def _on_calls_catalog_linted(self, name: str) -> None:
        if self.current is None or self.current.spec.name != name:
            return
        linted = self.runtime.calls.lints.get(name, {})
        self.tools_pane.set_lint({tool: lint_words(issues) for tool, issues in linted.items()})

    def _on_messages_shown(self, message: Message) -> None:
        # Made visible and bounded by the bridge: a server's words never render as anything but text.
        self.statusBar().showMessage(message.text, message.level.timeout_ms)

    def _on_messages_cleared(self) -> None:
        self.statusBar().clearMessage()

    def _on_runtime_exported(self, path: Path, error: OSError | None) -> None:
        if error is None:
            self.statusBar().showMessage(f"Snapshot written to {path}", STATUS_MS)
        else:
            self.statusBar().showMessage(f"Could not write {path}: {error.strerror or error}", 8000)

    # -- settings and shutdown ----------------------------------------------
    def _restore(self) -> None:
        geometry = self.settings.value("geometry")
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)
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
            self.runtime.shutdown()

    def _on_runtime_shutdown_finished(self) -> None:
        self.finished = True
        self.close()
        self.closed.emit()
