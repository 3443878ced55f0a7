"""The sidebar: every configured server with its transport, state and tool count."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt

from catalog_inspector.core.config import EntryProblem
from catalog_inspector.core.text import visible
from catalog_inspector.runtime import ServerState, ServerSupervisor
from catalog_inspector.ui import theme
from catalog_inspector.ui.models.roles import Role, tooltip
from catalog_inspector.ui.presenters.words import list_mark

if TYPE_CHECKING:
    from catalog_inspector.core.drift import DriftReport
    from catalog_inspector.ui.presenters import AppPresenter, ServerPresenter

__all__ = ["ASKING_COLOR", "STATE_COLORS", "ServerListModel", "asking_mark", "badge", "summary"]

Index = QModelIndex | QPersistentModelIndex

# Each state's square beside its words (`ui.theme` swatches: as they are on light palettes, kept 3:1 on dark ones).
STATE_COLORS = {
    ServerState.NOT_CONNECTED: theme.STATE_IDLE,
    ServerState.CONNECTING: theme.STATE_BUSY,
    ServerState.WALKING: theme.STATE_BUSY,
    ServerState.READY: theme.STATE_READY,
    ServerState.STALE: theme.STATE_STALE,
    ServerState.FAILED: theme.STATE_FAILED,
    ServerState.LOST: theme.STATE_LOST,
}
COLOR_ROLES = [Qt.ItemDataRole.DecorationRole]  # what a palette change changes


def summary(supervisor: ServerSupervisor) -> str:
    """`stdio · ready · 3 tools`, `http · failed (showing last good: 3 tools)` …"""
    state = supervisor.state.value
    parts: list[str] = [supervisor.spec.transport]
    if supervisor.accepted is not None:
        count = len(supervisor.accepted.tools.items)
        tools = f"{count:,} tool{'s' if count != 1 else ''}"
        last_good = supervisor.state in (ServerState.FAILED, ServerState.LOST)
        parts.append(f"{state} (last good: {tools})" if last_good else f"{state} · {tools}")
        mark = list_mark(supervisor.accepted)  # a list that failed on its own: never shown as a plain success
        if mark:
            parts.append(mark)
    elif supervisor.spec.disabled and supervisor.state is ServerState.NOT_CONNECTED:
        parts.append("disabled in the config (Refresh starts it)")
    elif supervisor.awaiting_consent and supervisor.state is ServerState.NOT_CONNECTED:
        parts.append("needs your OK to run")  # short: the sidebar is 280 px wide by default
    else:
        parts.append(state)
    return " · ".join(parts)


ASKING_COLOR = theme.ASKING  # a server waiting for the person's answer stands out from every state colour


def asking_mark(waiting: int) -> str:
    """The sidebar's line for a server whose questions wait for the person."""
    return f"✎ asks for your input ({waiting})"  # the count: how many questions wait (the sidebar is narrow)


def badge(report: DriftReport | None) -> str:
    """The sidebar's alarm for the last refresh: breaking or warning drift, a broken approval ("" for none)."""
    if report is None or not report.alarm:
        return ""
    from catalog_inspector.core.drift import Severity  # a report is out: the drift room is loaded

    parts = []
    if report.worst in (Severity.BREAKING, Severity.WARNING):
        parts.append(f"⚠ {report.worst.value} drift")
    if report.pins_broken:
        parts.append("⚑ differs from approved")
    return " · ".join(parts)


class ServerListModel(QAbstractListModel):
    """One row per server presenter (then one per entry that could not be used), refreshed when its state or its
    drift changes; a palette change is announced as one dataChanged of every row's square."""

    def __init__(self, app: AppPresenter, parent: Any = None) -> None:
        super().__init__(parent)
        self._app = app
        self._presenters: list[ServerPresenter] = []
        self._problems: list[EntryProblem] = []  # rows after the servers: entries that could not be used
        self._follow()
        app.servers_changed.connect(self._on_app_servers_changed)
        theme.theme().changed.connect(self._on_theme_changed)

    def _follow(self) -> None:
        for presenter in self._presenters:
            if presenter not in self._app.presenters.values():
                self._connect(presenter, False)
        for presenter in self._app.presenters.values():
            if presenter not in self._presenters:
                self._connect(presenter, True)
        self._presenters = list(self._app.presenters.values())
        self._problems = self._app.problems

    def _connect(self, presenter: ServerPresenter, on: bool) -> None:
        # Bound methods: Qt drops the connections when this model is deleted.
        for signal in (presenter.header_changed, presenter.catalog_changed, presenter.marks_changed):
            if on:
                signal.connect(self._on_presenter_changed)
            else:
                signal.disconnect(self._on_presenter_changed)

    def _on_app_servers_changed(self) -> None:
        # A few rows at most, changed by the user: a reset is simpler than moves and just as fast.
        self.beginResetModel()
        self._follow()
        self.endResetModel()

    def _on_presenter_changed(self) -> None:
        # Look the row up when the signal arrives (rows may change), not when connecting.
        sender = self.sender()
        row = next((row for row, p in enumerate(self._presenters) if p is sender), None)
        if row is not None:
            index = self.index(row)
            self.dataChanged.emit(index, index)

    def _on_theme_changed(self) -> None:
        rows = self.rowCount()
        if rows:
            self.dataChanged.emit(self.index(0), self.index(rows - 1), COLOR_ROLES)

    def presenter_at(self, row: int) -> ServerPresenter | None:
        return self._presenters[row] if 0 <= row < len(self._presenters) else None

    def problem_at(self, row: int) -> EntryProblem | None:
        at = row - len(self._presenters)
        return self._problems[at] if 0 <= at < len(self._problems) else None

    def row_of(self, name: str) -> int | None:
        names = [p.name for p in self._presenters] + [p.name for p in self._problems]
        return next((row for row, known in enumerate(names) if known == name), None)

    def _problem_data(self, problem: EntryProblem, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            return f"{visible(problem.name, 80)}\nnot loaded: fix this entry"
        if role == Qt.ItemDataRole.DecorationRole:
            return theme.color(STATE_COLORS[ServerState.FAILED])
        if role == Qt.ItemDataRole.ToolTipRole:
            return tooltip(problem.message)
        if role == Role.KEY:
            return problem.name
        return None

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._presenters) + len(self._problems)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        problem = self.problem_at(index.row())
        if problem is not None:
            return self._problem_data(problem, role)
        if not 0 <= index.row() < len(self._presenters):
            return None
        presenter = self._presenters[index.row()]
        supervisor = presenter.supervisor
        if role == Qt.ItemDataRole.DisplayRole:
            alarm = badge(presenter.report)
            text = f"{visible(supervisor.spec.name, 80)}\n{summary(supervisor)}"
            lines = [
                text,
                *([alarm] if alarm else []),
                *([asking_mark(presenter.waiting)] if presenter.waiting else []),
            ]
            return "\n".join(lines)
        if role == Role.DRIFT:
            return badge(presenter.report)
        if role == Role.ASKING:
            return presenter.waiting
        if role == Qt.ItemDataRole.DecorationRole:
            return theme.color(ASKING_COLOR if presenter.waiting else STATE_COLORS[supervisor.state])
        if role == Qt.ItemDataRole.ToolTipRole:
            return tooltip(supervisor.spec.describe())
        if role == Role.KEY:
            return supervisor.spec.name
        return None
