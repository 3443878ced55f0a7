"""The main window: server sidebar, status banner, catalog tabs with page timelines, server log.

It renders supervisor state and forwards user intents (select, refresh, retry,
cancel, quit) as plain method calls; it never awaits and holds no protocol objects.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QByteArray, QItemSelection, QSettings, Qt, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QListView,
    QMainWindow,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from catalog_inspector.core.enumerator import PageRecord
from catalog_inspector.core.text import visible
from catalog_inspector.runtime import Runtime, ServerState, ServerSupervisor
from catalog_inspector.ui.batch import Batcher
from catalog_inspector.ui.models.server_list import ServerListModel
from catalog_inspector.ui.widgets.panes import ListPane, plain_text_view, set_capped_text
from catalog_inspector.ui.widgets.status_banner import KIND_TITLES, StatusBanner
from catalog_inspector.ui.widgets.tools_pane import ToolsPane

__all__ = ["MainWindow"]

LOG_LINES = 5000
LIST_TABS = (("resources", "Resources"), ("resource_templates", "Resource templates"), ("prompts", "Prompts"))


def _label(object_name: str, parent: QWidget) -> QLabel:
    label = QLabel(parent)
    label.setObjectName(object_name)
    label.setTextFormat(Qt.TextFormat.PlainText)  # server text is never rich text
    # Long text must not widen the window: let the layout cut it instead.
    label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
    return label


class MainWindow(QMainWindow):
    """The app's one window.

    Signals:
        closed(): the window closed after every session was shut down.
    """

    closed = Signal()

    def __init__(self, runtime: Runtime, settings: QSettings, notice: str = "") -> None:
        super().__init__()
        self.setWindowTitle("MCP Catalog Inspector")
        self.runtime = runtime
        self.settings = settings
        self._current: ServerSupervisor | None = None
        self._shutting_down = False
        self._finished = False
        self._build(notice)
        self._connect_supervisors()
        runtime.shutdown_finished.connect(self._on_runtime_shutdown_finished)
        self._restore()

    # -- construction ---------------------------------------------------------
    def _build(self, notice: str) -> None:
        self.servers = ServerListModel(self.runtime, self)
        self.server_list = QListView(self)
        self.server_list.setObjectName("serverList")
        self.server_list.setModel(self.servers)
        self.server_list.setSpacing(2)
        self.server_list.selectionModel().selectionChanged.connect(self._on_server_list_selection_changed)
        self.notice = _label("configNotice", self)
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

        self.title = _label("serverTitle", self)
        font = self.title.font()
        font.setPointSize(font.pointSize() + 3)
        font.setBold(True)
        self.title.setFont(font)
        self.catalog_label = _label("catalogLabel", self)
        self.refresh_button = QPushButton("Refresh", self)
        self.refresh_button.setObjectName("refreshButton")
        self.refresh_button.setToolTip("Walk the catalog again from the first page (F5)")
        self.refresh_button.clicked.connect(self.refresh)
        self.cancel_button = QPushButton("Cancel", self)
        self.cancel_button.setObjectName("cancelButton")
        self.cancel_button.setToolTip("Stop the walk in progress; the shown catalog stays (Esc)")
        self.cancel_button.clicked.connect(self.cancel)
        header = QHBoxLayout()
        titles = QVBoxLayout()
        titles.addWidget(self.title)
        titles.addWidget(self.catalog_label)
        header.addLayout(titles, 1)
        header.addWidget(self.refresh_button)
        header.addWidget(self.cancel_button)

        self.banner = StatusBanner(self)
        self.banner.retry_clicked.connect(self.refresh)
        self.tools_pane = ToolsPane(self)
        self.list_panes = {name: ListPane(name, self) for name, _ in LIST_TABS}
        self.server_info = plain_text_view("serverInfo", self)
        self.server_log = plain_text_view("serverLog", self)
        self.server_log.setMaximumBlockCount(LOG_LINES)
        # A server may flood stderr: lines reach the pane in batches, at most LOG_LINES per batch.
        self._log_batch: Batcher[str] = Batcher(
            lambda lines: self.server_log.appendPlainText("\n".join(lines)), 100, keep_last=LOG_LINES, parent=self
        )
        server_tab = QSplitter(Qt.Orientation.Vertical, self)
        server_tab.addWidget(self.server_info)
        server_tab.addWidget(self.server_log)
        self.tabs = QTabWidget(self)
        self.tabs.setObjectName("catalogTabs")
        self.tabs.addTab(self.tools_pane, "Tools")
        for name, title in LIST_TABS:
            self.tabs.addTab(self.list_panes[name], title)
        self.tabs.addTab(server_tab, "Server && log")

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
        for text, shortcut, slot in (
            ("&Refresh", QKeySequence(Qt.Key.Key_F5), self.refresh),
            ("&Cancel walk", QKeySequence(Qt.Key.Key_Escape), self.cancel),
            ("&Export snapshot…", QKeySequence("Ctrl+E"), lambda: self.export_snapshot()),
            ("&Quit", QKeySequence("Ctrl+Q"), self.close),
        ):
            action = QAction(text, self)
            action.setShortcut(shortcut)
            action.triggered.connect(slot)
            menu.addAction(action)
            self.addAction(action)

    def _connect_supervisors(self) -> None:
        for supervisor in self.runtime.supervisors:
            supervisor.state_changed.connect(lambda s=supervisor: self._on_supervisor_changed(s))
            supervisor.walk_started.connect(lambda s=supervisor: self._on_supervisor_changed(s, timelines=True))
            supervisor.catalog_accepted.connect(
                lambda _snap, s=supervisor: self._on_supervisor_changed(s, catalog=True, timelines=True)
            )
            supervisor.refresh_failed.connect(lambda _snap, s=supervisor: self._on_supervisor_changed(s, timelines=True))
            supervisor.page_arrived.connect(lambda name, page, s=supervisor: self._on_supervisor_page(s, name, page))
            supervisor.log_appended.connect(lambda line, s=supervisor: self._on_supervisor_log(s, line))

    # -- user intents ---------------------------------------------------------
    @property
    def current(self) -> ServerSupervisor | None:
        return self._current

    def select_server(self, name: str) -> bool:
        row = self.servers.row_of(name)
        if row is None:
            return False
        self.server_list.setCurrentIndex(self.servers.index(row))
        return True

    def refresh(self) -> None:
        if self._current is not None:
            self._current.refresh()

    def cancel(self) -> None:
        if self._current is not None and self._current.cancel():
            self._render(catalog=False, timelines=True)  # the cancelled walk is no longer offered as "live"
            self.statusBar().showMessage("Walk cancelled; the shown catalog is unchanged.", 5000)

    def export_snapshot(self, path: Path | None = None) -> bool:
        """Write the accepted snapshot (else the latest attempt's) as `mcp-catalog-snapshot/1` JSON."""
        current = self._current
        snapshot = None
        if current is not None:
            attempt = current.attempt.snapshot if current.attempt is not None else None
            snapshot = current.accepted or attempt
        if snapshot is None:
            self.statusBar().showMessage("Nothing to export yet.", 5000)
            return False
        if path is None:
            chosen, _ = QFileDialog.getSaveFileName(self, "Export snapshot", "snapshot.json", "JSON (*.json)")
            if not chosen:
                return False
            path = Path(chosen)
        try:
            path.write_text(json.dumps(snapshot.to_json(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        except OSError as exc:
            self.statusBar().showMessage(f"Could not write {path}: {exc.strerror or exc}", 8000)
            return False
        self.statusBar().showMessage(f"Snapshot written to {path}", 5000)
        return True

    # -- reacting to the runtime ----------------------------------------------
    def _on_server_list_selection_changed(self, selected: QItemSelection, _deselected: QItemSelection) -> None:
        indexes = selected.indexes()
        if not indexes:
            return
        self._current = self.servers.supervisor_at(indexes[0].row())
        self.settings.setValue("lastServer", self._current.spec.name)
        self._log_batch.clear()
        self.server_log.setPlainText(visible(self._current.log.text(), keep_newlines=True))
        self._render(catalog=True, timelines=True)
        self._current.ensure_started()

    def _on_supervisor_changed(self, supervisor: ServerSupervisor, catalog: bool = False, timelines: bool = False) -> None:
        if supervisor is self._current:
            self._render(catalog=catalog, timelines=timelines)

    def _on_supervisor_page(self, supervisor: ServerSupervisor, list_name: str, page: PageRecord) -> None:
        if supervisor is not self._current:
            return
        panel = self.tools_pane.timeline if list_name == "tools" else self.list_panes[list_name].timeline
        panel.append_live(page)
        self.statusBar().showMessage(f"Walking {list_name.replace('_', ' ')}: page {page.index} ({page.items} items)")

    def _on_supervisor_log(self, supervisor: ServerSupervisor, line: str) -> None:
        if supervisor is self._current:
            self._log_batch.add(visible(line))

    # -- rendering ------------------------------------------------------------
    def _render(self, catalog: bool, timelines: bool) -> None:
        current = self._current
        if current is None:
            return
        self.title.setText(visible(current.spec.name, 120))
        self.refresh_button.setEnabled(not current.busy)
        self.cancel_button.setEnabled(current.busy)
        self.catalog_label.setText(self._catalog_text(current))
        self._render_banner(current)
        if catalog:
            accepted = current.accepted
            self.tools_pane.set_tools(accepted.tools.items if accepted else [])
            for name, pane in self.list_panes.items():
                pane.model.set_items(accepted.lists[name].items if accepted else [])
            set_capped_text(self.server_info, self._server_text(current))
        if timelines:
            self.tools_pane.timeline.set_walks(*self._walks(current, "tools"))
            for name, pane in self.list_panes.items():
                pane.timeline.set_walks(*self._walks(current, name))
        if not current.busy:
            self.statusBar().clearMessage()  # "Walking …" news ends with the walk

    def _render_banner(self, current: ServerSupervisor) -> None:
        attempt = current.attempt
        if current.state is ServerState.FAILED and attempt is not None and attempt.snapshot is not None:
            self.banner.show_failure(attempt.snapshot, current.accepted_at if current.accepted else None)
            self.banner.retry.setEnabled(not current.busy)
        elif current.state is ServerState.STALE:
            self.banner.show_stale()
            self.banner.retry.setEnabled(not current.busy)
        elif not (current.busy and self.banner.isVisible()):
            self.banner.clear()
        else:
            self.banner.retry.setEnabled(False)  # the failure stays readable while the retry runs

    @staticmethod
    def _catalog_text(current: ServerSupervisor) -> str:
        accepted = current.accepted
        state = current.state.value
        if accepted is None:
            return f"{current.spec.describe()} — {state}; no catalog accepted yet"
        count = len(accepted.tools.items)
        taken = f"{current.accepted_at:%H:%M:%S}" if current.accepted_at else "?"
        head = "Last good catalog" if current.state in (ServerState.FAILED, ServerState.STALE) else "Catalog"
        version = accepted.server.get("protocol_version") or "?"
        tools = f"{count:,} tool{'s' if count != 1 else ''}"
        return f"{head}: {tools}, taken at {taken} · protocol {version} · {current.spec.transport} · {state}"

    @staticmethod
    def _walks(current: ServerSupervisor, list_name: str) -> tuple[list[tuple[str, Sequence[PageRecord]]], int | None]:
        walks: list[tuple[str, Sequence[PageRecord]]] = []
        live: int | None = None
        attempt = current.attempt
        if attempt is not None:
            started = f"{attempt.started_at:%H:%M:%S}"
            snapshot = attempt.snapshot
            if snapshot is None:
                live = 0
                walks.append((f"Live walk (started {started})", list(attempt.pages.get(list_name, []))))
            elif snapshot.status != "complete":
                result = snapshot.lists[list_name]
                error = result.error or snapshot.error
                kind = KIND_TITLES.get(str(error.kind), str(error.kind)) if error else snapshot.status
                walks.append((f"Failed attempt at {started}: {kind}", list(result.pages)))
        if current.accepted is not None:
            taken = f"{current.accepted_at:%H:%M:%S}" if current.accepted_at else ""
            walks.append((f"Accepted catalog ({taken})", list(current.accepted.lists[list_name].pages)))
        return walks, live

    @staticmethod
    def _server_text(current: ServerSupervisor) -> str:
        accepted = current.accepted
        lines = [f"Configured as: {visible(current.spec.describe())}"]
        if accepted is None:
            return "\n".join([*lines, "", "No catalog accepted yet."])
        server = accepted.server
        lines += [
            f"Server name: {visible(str(server.get('name')))}",
            f"Server version: {visible(str(server.get('version')))}",
            f"Protocol version: {server.get('protocol_version')}",
            "",
            "Capabilities:",
            visible(json.dumps(accepted.capabilities, indent=2, ensure_ascii=False), keep_newlines=True),
        ]
        if accepted.instructions:
            lines += ["", "Instructions:", visible(accepted.instructions, keep_newlines=True)]
        return "\n".join(lines)

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
        if self._finished:
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
        self._finished = True
        self.close()
        self.closed.emit()
